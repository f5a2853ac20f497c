/*
 * camera.c - a pass's camera: its JSON keys (static, orbit or keyframes),
 * its pose at a frame (tsr_camera_pose, pure: the one definition of how a
 * camera moves, which the frontend turns into view and projection
 * matrices), and the checks that its view is not degenerate: at load for
 * what the file states (the static camera, the orbit's start, each
 * keyframe), and before a run for every frame it simulates
 * (tsr_scene_check_cameras). The pose lives here, not in the frontend,
 * because the loader's check needs it and scene/ must not include
 * frontend/.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene.h"
#include "scene/scene_priv.h"

static const char *const camera_keys[] = {
	"projection", "fov_y_deg", "ortho_height", "near", "far", "eye",
	"target", "up", "orbit", "keyframes", NULL};
static const char *const orbit_keys[] = {"radius", "height", "deg_per_frame",
					 "start_deg", NULL};
static const char *const camera_key_keys[] = {"frame", "eye", "target", "up", NULL};
static const char *const projection_names[] = {"perspective", "orthographic", NULL};

uint32_t tsr_keyframe_span(uint32_t frame, const uint32_t *first_frame, size_t stride,
			   uint32_t n, float *f)
{
#define KEY_FRAME(i) (*(const uint32_t *)((const char *)first_frame + (size_t)(i) * stride))
	uint32_t i = 0;
	*f = 0.0f;
	if (frame <= KEY_FRAME(0))
		return 0;
	if (frame >= KEY_FRAME(n - 1))
		return n - 1;
	while (KEY_FRAME(i + 1) <= frame)
		i++;
	*f = (float)(frame - KEY_FRAME(i)) / (float)(KEY_FRAME(i + 1) - KEY_FRAME(i));
	return i;
#undef KEY_FRAME
}

void tsr_camera_pose(const struct tsr_camera *cam, uint32_t frame,
		     struct tsr_vec3 *eye_out, struct tsr_vec3 *target_out,
		     struct tsr_vec3 *up_out)
{
	struct tsr_vec3 eye = cam->eye, target = cam->target, up = cam->up;
	if (cam->key_count > 0) {
		const struct tsr_camera_key *k = cam->keys;
		float f;
		uint32_t i = tsr_keyframe_span(frame, &k[0].frame, sizeof(*k), cam->key_count, &f);
		uint32_t j = i + 1 < cam->key_count ? i + 1 : i;
		eye = tsr_v3_lerp(k[i].eye, k[j].eye, f);
		target = tsr_v3_lerp(k[i].target, k[j].target, f);
		up = tsr_v3_lerp(k[i].up, k[j].up, f);
	} else if (cam->orbit) {
		float a = (cam->orbit_start_deg +
			   (float)frame * cam->orbit_deg_per_frame) *
			  3.14159265358979f / 180.0f;
		eye = tsr_v3_add(target, tsr_v3(cam->orbit_radius * sinf(a),
						cam->orbit_height,
						cam->orbit_radius * cosf(a)));
	}
	*eye_out = eye;
	*target_out = target;
	*up_out = up;
}

static int camera_key_cmp(const void *a, const void *b)
{
	const struct tsr_camera_key *x = a, *y = b;
	return (x->frame > y->frame) - (x->frame < y->frame);
}

static enum tsr_status parse_camera_keys(struct scene_loader *L, const json_t *arr,
					 const char *path, struct tsr_camera *c)
{
	size_t n = json_array_size(arr);
	if (n == 0)
		return TSR_OK;
	c->keys = calloc(n, sizeof(*c->keys));
	if (!c->keys)
		return scene_nomem(L);
	c->key_count = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		const json_t *k = json_array_get(arr, i);
		struct tsr_camera_key *ck = &c->keys[i];
		char kp[256];
		scene_index_path(kp, sizeof(kp), path, NULL, i);
		TSR_TRY(tsr_json_check_keys(k, L->file, kp, camera_key_keys, L->err));
		if (!json_object_get(k, "frame")) {
			char full[256];
			tsr_json_path(full, sizeof(full), kp, "frame");
			return scene_missing(L, full);
		}
		TSR_TRY(tsr_json_get_u32(k, L->file, kp, "frame", 0, UINT32_MAX,
				     &ck->frame, L->err));
		ck->eye = c->eye;
		ck->target = c->target;
		ck->up = c->up;
		TSR_TRY(tsr_json_get_vec3(k, L->file, kp, "eye", &ck->eye, L->err));
		TSR_TRY(tsr_json_get_vec3(k, L->file, kp, "target", &ck->target, L->err));
		TSR_TRY(tsr_json_get_vec3(k, L->file, kp, "up", &ck->up, L->err));
	}
	qsort(c->keys, n, sizeof(*c->keys), camera_key_cmp);
	for (size_t i = 1; i < n; i++)
		if (c->keys[i].frame == c->keys[i - 1].frame)
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "two keys of '%s' in '%s' are at frame %u",
					     path, L->file, c->keys[i].frame);
	return TSR_OK;
}

/*
 * What makes a view degenerate (tsr_m4_look_at would give a blank frame),
 * or NULL: eye equal to target, up parallel to the view direction, or
 * values that overflow float in the view matrix.
 */
static const char *view_problem(struct tsr_vec3 eye, struct tsr_vec3 target,
				struct tsr_vec3 up)
{
	struct tsr_vec3 f = tsr_v3_norm(tsr_v3_sub(target, eye));
	float ff = tsr_v3_dot(f, f);
	if (!isfinite(ff))
		return "has an eye-to-target distance that overflows float";
	if (ff == 0.0f)
		return "has eye equal to target";
	struct tsr_vec3 side = tsr_v3_cross(f, up);
	if (tsr_v3_dot(side, side) == 0.0f)
		return "has up parallel to the view direction";
	struct tsr_mat4 m = tsr_m4_look_at(eye, target, up);
	for (int i = 0; i < 16; i++)
		if (!isfinite(m.m[i]))
			return "has a view matrix that overflows float";
	return NULL;
}

/*
 * Refuses a camera whose view is degenerate: the static camera, the
 * orbit's view at frame 0 (with radius 0 the view is the same at every
 * frame), each keyframe. The message names the key. The views between
 * keyframes and at the orbit's later frames are checked for the frames a
 * run simulates, before it starts (tsr_scene_check_cameras).
 */
static enum tsr_status check_camera_views(struct scene_loader *L, const char *path,
					  const struct tsr_camera *c)
{
	char p[256];
	struct tsr_vec3 eye, target, up;
	const char *why;
	if (c->key_count) {
		for (uint32_t i = 0; i < c->key_count; i++) {
			tsr_camera_pose(c, c->keys[i].frame, &eye, &target, &up);
			if ((why = view_problem(eye, target, up)) != NULL) {
				scene_index_path(p, sizeof(p), path, "keyframes", i);
				return tsr_error_set(L->err, TSR_ERR_CONFIG,
						     "camera key '%s' (frame %u) in '%s' %s",
						     p, c->keys[i].frame, L->file, why);
			}
		}
		return TSR_OK;
	}
	tsr_camera_pose(c, 0, &eye, &target, &up);
	if ((why = view_problem(eye, target, up)) == NULL)
		return TSR_OK;
	if (c->orbit)
		tsr_json_path(p, sizeof(p), path, "orbit");
	else if (strcmp(why, "has up parallel to the view direction") == 0)
		tsr_json_path(p, sizeof(p), path, "up");
	else
		tsr_json_path(p, sizeof(p), path, "eye");
	return tsr_error_set(L->err, TSR_ERR_CONFIG, "camera '%s' in '%s' %s (key '%s')",
			     path, L->file, why, p);
}

enum tsr_status scene_parse_camera(struct scene_loader *L, const json_t *cam,
				   const char *path, struct tsr_camera *c)
{
	char p[256];
	int proj = TSR_PROJ_PERSPECTIVE;
	c->projection = TSR_PROJ_PERSPECTIVE;
	c->fov_y_deg = 60.0f;
	c->ortho_height = 2.0f;
	c->znear = 0.1f;
	c->zfar = 100.0f;
	c->eye = tsr_v3(0, 0, 5);
	c->target = tsr_v3(0, 0, 0);
	c->up = tsr_v3(0, 1, 0);
	c->orbit_radius = 5.0f;
	c->orbit_height = 0.0f;
	c->orbit_deg_per_frame = 1.0f;
	c->orbit_start_deg = 0.0f;
	if (!cam)
		return TSR_OK;
	TSR_TRY(tsr_json_check_keys(cam, L->file, path, camera_keys, L->err));
	TSR_TRY(tsr_json_get_enum(cam, L->file, path, "projection",
			      projection_names, &proj, L->err));
	c->projection = (enum tsr_projection)proj;
	TSR_TRY(tsr_json_get_float(cam, L->file, path, "fov_y_deg", 1.0f, 179.0f,
			       &c->fov_y_deg, L->err));
	TSR_TRY(tsr_json_get_float(cam, L->file, path, "ortho_height", 1e-6f,
			       FLT_MAX, &c->ortho_height, L->err));
	TSR_TRY(tsr_json_get_float(cam, L->file, path, "near", 1e-6f, FLT_MAX,
			       &c->znear, L->err));
	TSR_TRY(tsr_json_get_float(cam, L->file, path, "far", 1e-6f, FLT_MAX,
			       &c->zfar, L->err));
	if (!(c->zfar > c->znear)) {
		tsr_json_path(p, sizeof(p), path, "far");
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' must be greater than near (%g)",
				     p, L->file, (double)c->znear);
	}
	TSR_TRY(tsr_json_get_vec3(cam, L->file, path, "eye", &c->eye, L->err));
	TSR_TRY(tsr_json_get_vec3(cam, L->file, path, "target", &c->target, L->err));
	TSR_TRY(tsr_json_get_vec3(cam, L->file, path, "up", &c->up, L->err));
	if (tsr_v3_dot(c->up, c->up) == 0.0f) {
		tsr_json_path(p, sizeof(p), path, "up");
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' must not be a zero vector",
				     p, L->file);
	}
	const json_t *orbit = json_object_get(cam, "orbit");
	if (orbit) {
		tsr_json_path(p, sizeof(p), path, "orbit");
		TSR_TRY(tsr_json_check_keys(orbit, L->file, p, orbit_keys, L->err));
		c->orbit = 1;
		TSR_TRY(tsr_json_get_float(orbit, L->file, p, "radius", 0.0f,
				       FLT_MAX, &c->orbit_radius, L->err));
		TSR_TRY(tsr_json_get_float(orbit, L->file, p, "height", -FLT_MAX,
				       FLT_MAX, &c->orbit_height, L->err));
		TSR_TRY(tsr_json_get_float(orbit, L->file, p, "deg_per_frame",
				       -FLT_MAX, FLT_MAX,
				       &c->orbit_deg_per_frame, L->err));
		TSR_TRY(tsr_json_get_float(orbit, L->file, p, "start_deg", -FLT_MAX,
				       FLT_MAX, &c->orbit_start_deg, L->err));
	}
	json_t *keys;
	TSR_TRY(scene_get_array(L, cam, path, "keyframes", &keys));
	if (keys) {
		tsr_json_path(p, sizeof(p), path, "keyframes");
		TSR_TRY(parse_camera_keys(L, keys, p, c));
	}
	return check_camera_views(L, path, c);
}

enum tsr_status tsr_scene_check_cameras(const struct tsr_scene *sc, uint32_t first,
					uint32_t end, struct tsr_error *err)
{
	for (uint32_t i = 0; i < sc->pass_count; i++) {
		const struct tsr_camera *c = &sc->passes[i].camera;
		/* a static camera was checked when the workload was loaded */
		uint32_t last = c->key_count || c->orbit ? end : (first < end ? first + 1 : end);
		for (uint32_t f = first; f < last; f++) {
			struct tsr_vec3 eye, target, up;
			tsr_camera_pose(c, f, &eye, &target, &up);
			const char *why = view_problem(eye, target, up);
			if (why)
				return tsr_error_set(err, TSR_ERR_CONFIG,
						     "the camera of pass '%s' in '%s' %s at frame %u "
						     "(key 'passes[%u].camera')", sc->passes[i].name,
						     sc->path, why, f, i);
		}
	}
	return TSR_OK;
}
