/*
 * workload.c - reads a workload JSON file (format version 1, documented in
 * docs/workloads.md) into a struct tsr_scene, and evaluates object and
 * camera animation per frame.
 *
 * Loading keeps a cache of imported models (each file is imported once)
 * and of placements: an object that uses the same model with the same
 * normalisation and the same resulting materials as an earlier object
 * shares its meshes (instancing) instead of copying them. Materials are
 * deduplicated, images are decoded once per path. The pass's texture
 * upload events are read after its objects: each adds, per mesh of its
 * object, a variant of the mesh's material that samples the new image.
 *
 * Game-like scenes: an object's `instances` or `grid` expands at load time
 * into one object per instance (sharing the meshes, as instancing would);
 * `uv_rect` maps a mesh's texture coordinates into a rectangle of the
 * image (a sprite of an atlas, or a tiled ground), baked into a copy of the
 * mesh; `skybox` objects follow the camera and `screen_space` ones are
 * placed in clip space, a HUD (frontend); asset paths under
 * /usr/share whose Debian package is missing are reported by package name.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/array.h"
#include "core/rng.h"
#include "core/json_util.h"
#include "core/limits.h"
#include "scene/image_load.h"
#include "scene/mesh_load.h"
#include "scene/scene.h"

#define TSR_MAX_RENDER_TARGETS 16

/* A model placed in the scene: meshes [first_mesh, +mesh_count). */
struct placement {
	uint32_t model;       /* index into loader.models */
	float normalize;      /* bounding-sphere radius, 0 for none */
	uint32_t first_mesh;
	uint32_t mesh_count;
	int has_uv_rect;      /* texture coordinates mapped into uv_rect */
	float uv_rect[4];     /* u0, v0, u1, v1 */
};

/* Material keys of one object, over the defaults. */
struct material_spec {
	struct tsr_material base;  /* texture = -1 unless "texture" is given */
	int has_texture;           /* "texture" key present */
	int has_color;             /* "color" key present */
};

struct loader {
	const char *file;          /* the workload file, for messages */
	char *dir;                 /* its folder with a trailing '/', or "" */
	struct tsr_scene *sc;
	struct tsr_image_set images;
	uint32_t mesh_cap, material_cap, object_cap;
	struct tsr_model *models;
	uint32_t model_count, model_cap;
	struct placement *placed;
	uint32_t placed_count, placed_cap;
	struct tsr_error *err;
	/* version 2: the render targets, the pass that draws each, the pass
	   being parsed (a material's "target:<name>" is checked against it) */
	uint32_t rt_count;
	char rt_name[TSR_MAX_RENDER_TARGETS][64];
	int32_t rt_image[TSR_MAX_RENDER_TARGETS];
	int32_t rt_writer[TSR_MAX_RENDER_TARGETS];   /* pass index, -1 none */
	uint32_t cur_pass;
};

static const char *const top_keys[] = {"version", "name", "frames", "render_targets",
				       "passes", NULL};
static const char *const render_target_keys[] = {"name", "width", "height", "format", NULL};
static const char *const pass_keys[] = {"name", "target", "clear_color",
					"camera", "objects", "events", NULL};
static const char *const event_keys[] = {"frame", "type", "object", "texture", NULL};
static const char *const camera_keys[] = {
	"projection", "fov_y_deg", "ortho_height", "near", "far", "eye",
	"target", "up", "orbit", "keyframes", NULL};
static const char *const orbit_keys[] = {"radius", "height", "deg_per_frame",
					 "start_deg", NULL};
static const char *const camera_key_keys[] = {"frame", "eye", "target", "up", NULL};
static const char *const object_keys[] = {"mesh", "normalize", "material",
					  "transform", "animation", "uv_rect",
					  "skybox", "screen_space", "instances", "grid",
					  NULL};
static const char *const instance_keys[] = {"translate", "rotate_deg", "scale",
					    "uv_rect", "texture", NULL};
static const char *const grid_keys[] = {"count", "spacing", "jitter",
					"rotate_jitter_deg", "scale_jitter", "fill", "seed",
					"uv_rects", "textures", NULL};
static const char *const material_keys[] = {
	"texture", "filter", "wrap", "blend", "alpha_cutoff", "color", "lit",
	"double_sided", "shader_alu_instructions",
	"vertex_shader_instructions", "varyings", NULL};
static const char *const transform_keys[] = {"translate", "rotate_deg", "scale", NULL};
static const char *const animation_keys[] = {
	"translate_per_frame", "rotate_deg_per_frame", "scale_per_frame",
	"uv_scroll_per_frame", "keyframes", NULL};
static const char *const keyframe_keys[] = {"frame", "translate", "rotate_deg",
					    "scale", NULL};

static const char *const projection_names[] = {"perspective", "orthographic", NULL};
static const char *const filter_names[] = {"nearest", "bilinear", "trilinear", NULL};
static const char *const wrap_names[] = {"repeat", "clamp", NULL};
static const char *const blend_names[] = {"opaque", "alpha", "alpha_test", NULL};
static const char *const event_type_names[] = {"texture_upload", NULL};


static enum tsr_status nomem(struct loader *L)
{
	return tsr_error_set(L->err, TSR_ERR_NOMEM, "out of memory loading '%s'",
			     L->file);
}

/* An asset path relative to the workload's folder unless absolute. */
static char *resolve(const struct loader *L, const char *p)
{
	size_t n = strlen(L->dir) + strlen(p) + 1;
	char *r = malloc(n);
	if (r)
		snprintf(r, n, "%s%s", p[0] == '/' ? "" : L->dir, p);
	return r;
}

static enum tsr_status with_key(struct loader *L, enum tsr_status st,
				const char *path);

/* Debian packages that provide the assets of the shipped workloads. */
static const struct {
	const char *dir;       /* with a trailing '/' */
	const char *package;
} asset_packages[] = {
	{"/usr/share/glmark2/", "glmark2-data"},
	{"/usr/share/assimp/models/", "assimp-testmodels"},
	{"/usr/share/games/etr/", "extremetuxracer-data"},
	{"/usr/share/games/frozen-bubble/", "frozen-bubble-data"},
	{"/usr/share/games/pingus/", "pingus-data"},
	{"/usr/share/games/neverball/", "neverball-data"},
};

const char *tsr_asset_package(const char *path)
{
	for (size_t i = 0; i < sizeof(asset_packages) / sizeof(asset_packages[0]); i++)
		if (strncmp(path, asset_packages[i].dir, strlen(asset_packages[i].dir)) == 0)
			return asset_packages[i].package;
	return NULL;
}

static int path_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/*
 * An asset under /usr/share whose package folder does not exist: one error
 * that names the Debian package to install (from asset_packages, else the
 * folder /usr/share/<dir> or /usr/share/games/<dir>). Other paths, and
 * missing files in a folder that exists, are left to the loaders' own
 * "cannot open" messages.
 */
static enum tsr_status check_asset_package(struct loader *L, const char *full,
					   const char *key_path)
{
	static const char share[] = "/usr/share/";
	if (strncmp(full, share, sizeof(share) - 1) != 0 || path_exists(full))
		return TSR_OK;
	/* the package folder: the table's, else the first one or two levels */
	char dir[256];
	const char *pkg = tsr_asset_package(full);
	const char *rest = full + sizeof(share) - 1;
	if (strncmp(rest, "games/", 6) == 0)
		rest += 6;
	const char *slash = strchr(rest, '/');
	size_t n = slash ? (size_t)(slash - full) : strlen(full);
	for (size_t i = 0; pkg && i < sizeof(asset_packages) / sizeof(asset_packages[0]); i++)
		if (strcmp(asset_packages[i].package, pkg) == 0)
			n = strlen(asset_packages[i].dir) - 1;
	if (n >= sizeof(dir))
		n = sizeof(dir) - 1;
	memcpy(dir, full, n);
	dir[n] = '\0';
	if (path_exists(dir))
		return TSR_OK;
	if (pkg)
		return tsr_error_set(L->err, TSR_ERR_IO,
				     "cannot open asset '%s' (key '%s' in '%s'): install the Debian package '%s' (scripts/setup.sh)",
				     full, key_path, L->file, pkg);
	return tsr_error_set(L->err, TSR_ERR_IO,
			     "cannot open asset '%s' (key '%s' in '%s'): folder '%s' is missing, install the Debian package that provides it (scripts/setup.sh)",
			     full, key_path, L->file, dir);
}

/*
 * A texture "target:<name>" or "target:<name>@previous" (at key_path):
 * the render target's image index into *index, after checking that the
 * pass being parsed samples a target that an earlier pass of the frame
 * draws (or, with @previous, a later pass: last frame's contents).
 */
static enum tsr_status render_target_texture(struct loader *L, const char *ref,
					     const char *key_path, int32_t *index)
{
	char name[64];
	const char *at = strchr(ref, '@');
	size_t n = at ? (size_t)(at - ref) : strlen(ref);
	int previous = at && strcmp(at, "@previous") == 0;
	if ((at && !previous) || n >= sizeof(name))
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "texture 'target:%s' (key '%s' in '%s') must be 'target:<name>' or 'target:<name>@previous'",
				     ref, key_path, L->file);
	memcpy(name, ref, n);
	name[n] = '\0';
	for (uint32_t i = 0; i < L->rt_count; i++) {
		if (strcmp(L->rt_name[i], name) != 0)
			continue;
		const int32_t w = L->rt_writer[i], cur = (int32_t)L->cur_pass;
		if (w < 0)
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "render target '%s' (key '%s' in '%s') is sampled but no pass draws it",
					     name, key_path, L->file);
		if (!previous && w >= cur)
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "pass %d samples render target '%s' (key '%s' in '%s'), which pass %d draws: a pass samples only targets of earlier passes (or 'target:%s@previous' for the previous frame's)",
					     cur, name, key_path, L->file, w, name);
		if (previous && w <= cur)
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "'target:%s@previous' (key '%s' in '%s') must be sampled by a pass before pass %d, which draws it (after it, the target holds this frame's pixels)",
					     name, key_path, L->file, w);
		*index = L->rt_image[i];
		return TSR_OK;
	}
	return tsr_error_set(L->err, TSR_ERR_CONFIG,
			     "render target '%s' (key '%s' in '%s') is not declared in 'render_targets'",
			     name, key_path, L->file);
}

/* Decodes the image at (resolved) path `tex` into *index; errors name key_path. */
static enum tsr_status load_texture(struct loader *L, const char *tex,
				    const char *key_path, int32_t *index)
{
	if (strncmp(tex, "target:", 7) == 0)
		return render_target_texture(L, tex + 7, key_path, index);
	char *full = resolve(L, tex);
	if (!full)
		return nomem(L);
	enum tsr_status st = check_asset_package(L, full, key_path);
	if (st != TSR_OK) {  /* already names the key */
		free(full);
		return st;
	}
	st = tsr_image_set_add_file(&L->images, full, index, L->err);
	free(full);
	return st == TSR_OK ? st : with_key(L, st, key_path);
}

/* Appends " (key '<path>' in '<file>')" to an asset error. */
static enum tsr_status with_key(struct loader *L, enum tsr_status st,
				const char *path)
{
	if (L->err) {
		size_t n = strlen(L->err->msg);
		snprintf(L->err->msg + n, sizeof(L->err->msg) - n,
			 " (key '%s' in '%s')", path, L->file);
	}
	return st;
}

/* "parent" + ".key" + "[i]" (key may be NULL); truncated paths stay terminated. */
static void index_path(char *buf, size_t n, const char *parent,
		       const char *key, size_t i)
{
	int w = snprintf(buf, n, "%s%s%s[%zu]", parent,
			 key && parent[0] ? "." : "", key ? key : "", i);
	if (w < 0)
		buf[0] = '\0';
}

static enum tsr_status missing(struct loader *L, const char *path)
{
	return tsr_error_set(L->err, TSR_ERR_CONFIG, "missing key '%s' in '%s'",
			     path, L->file);
}

/* An array value (NULL when absent); anything else is an error. */
static enum tsr_status get_array(struct loader *L, const json_t *obj,
				 const char *path, const char *key,
				 json_t **out)
{
	char full[256];
	*out = json_object_get(obj, key);
	if (*out && !json_is_array(*out)) {
		tsr_json_path(full, sizeof(full), path, key);
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' must be an array", full,
				     L->file);
	}
	return TSR_OK;
}

/* A scale: one number (uniform) or an array of 3 numbers. */
static enum tsr_status get_scale(struct loader *L, const json_t *obj,
				 const char *path, const char *key,
				 struct tsr_vec3 *out)
{
	json_t *v = json_object_get(obj, key);
	if (v && json_is_number(v)) {
		float s = out->x;
		TSR_TRY(tsr_json_get_float(obj, L->file, path, key, -FLT_MAX,
				       FLT_MAX, &s, L->err));
		*out = tsr_v3(s, s, s);
		return TSR_OK;
	}
	if (v && !json_is_array(v)) {
		char full[256];
		tsr_json_path(full, sizeof(full), path, key);
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' must be a number or an array of 3 numbers",
				     full, L->file);
	}
	return tsr_json_get_vec3(obj, L->file, path, key, out, L->err);
}

static int keyframe_cmp(const void *a, const void *b)
{
	const struct tsr_keyframe *x = a, *y = b;
	return (x->frame > y->frame) - (x->frame < y->frame);
}

static int camera_key_cmp(const void *a, const void *b)
{
	const struct tsr_camera_key *x = a, *y = b;
	return (x->frame > y->frame) - (x->frame < y->frame);
}

static enum tsr_status parse_camera_keys(struct loader *L, const json_t *arr,
					 const char *path, struct tsr_camera *c)
{
	size_t n = json_array_size(arr);
	if (n == 0)
		return TSR_OK;
	c->keys = calloc(n, sizeof(*c->keys));
	if (!c->keys)
		return nomem(L);
	c->key_count = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		const json_t *k = json_array_get(arr, i);
		struct tsr_camera_key *ck = &c->keys[i];
		char kp[256];
		index_path(kp, sizeof(kp), path, NULL, i);
		TSR_TRY(tsr_json_check_keys(k, L->file, kp, camera_key_keys, L->err));
		if (!json_object_get(k, "frame")) {
			char full[256];
			tsr_json_path(full, sizeof(full), kp, "frame");
			return missing(L, full);
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

static void camera_at(const struct tsr_camera *cam, uint32_t frame,
		      struct tsr_vec3 *eye_out, struct tsr_vec3 *target_out,
		      struct tsr_vec3 *up_out);

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
static enum tsr_status check_camera_views(struct loader *L, const char *path,
					  const struct tsr_camera *c)
{
	char p[256];
	struct tsr_vec3 eye, target, up;
	const char *why;
	if (c->key_count) {
		for (uint32_t i = 0; i < c->key_count; i++) {
			camera_at(c, c->keys[i].frame, &eye, &target, &up);
			if ((why = view_problem(eye, target, up)) != NULL) {
				index_path(p, sizeof(p), path, "keyframes", i);
				return tsr_error_set(L->err, TSR_ERR_CONFIG,
						     "camera key '%s' (frame %u) in '%s' %s",
						     p, c->keys[i].frame, L->file, why);
			}
		}
		return TSR_OK;
	}
	camera_at(c, 0, &eye, &target, &up);
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

static enum tsr_status parse_camera(struct loader *L, const json_t *cam,
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
	TSR_TRY(get_array(L, cam, path, "keyframes", &keys));
	if (keys) {
		tsr_json_path(p, sizeof(p), path, "keyframes");
		TSR_TRY(parse_camera_keys(L, keys, p, c));
	}
	return check_camera_views(L, path, c);
}

static enum tsr_status parse_material(struct loader *L, const json_t *m,
				      const char *path,
				      struct material_spec *spec)
{
	struct tsr_material *b = &spec->base;
	memset(spec, 0, sizeof(*spec));
	b->texture = -1;
	b->texture_object = -1;
	b->filter = TSR_FILTER_TRILINEAR;
	b->wrap = TSR_WRAP_REPEAT;
	b->blend = TSR_BLEND_OPAQUE;
	b->alpha_cutoff = 0.5f;
	for (int i = 0; i < 4; i++)
		b->color[i] = 1.0f;
	b->lit = 1;
	b->double_sided = 0;
	b->shader_alu_instructions = 12;
	b->vertex_shader_instructions = 16;
	b->varyings = 1;
	if (!m)
		return TSR_OK;
	TSR_TRY(tsr_json_check_keys(m, L->file, path, material_keys, L->err));
	int filter = (int)b->filter, wrap = (int)b->wrap, blend = (int)b->blend;
	TSR_TRY(tsr_json_get_enum(m, L->file, path, "filter", filter_names, &filter, L->err));
	TSR_TRY(tsr_json_get_enum(m, L->file, path, "wrap", wrap_names, &wrap, L->err));
	TSR_TRY(tsr_json_get_enum(m, L->file, path, "blend", blend_names, &blend, L->err));
	b->filter = (enum tsr_filter)filter;
	b->wrap = (enum tsr_wrap)wrap;
	b->blend = (enum tsr_blend)blend;
	TSR_TRY(tsr_json_get_float(m, L->file, path, "alpha_cutoff", 0.0f, 1.0f,
			       &b->alpha_cutoff, L->err));
	spec->has_color = json_object_get(m, "color") != NULL;
	TSR_TRY(tsr_json_get_floats(m, L->file, path, "color", 4, b->color, L->err));
	TSR_TRY(tsr_json_get_bool(m, L->file, path, "lit", &b->lit, L->err));
	TSR_TRY(tsr_json_get_bool(m, L->file, path, "double_sided",
			      &b->double_sided, L->err));
	TSR_TRY(tsr_json_get_u32(m, L->file, path, "shader_alu_instructions", 0,
			     TSR_LIMIT_SHADER_INSTRUCTIONS, &b->shader_alu_instructions, L->err));
	TSR_TRY(tsr_json_get_u32(m, L->file, path, "vertex_shader_instructions", 0,
			     TSR_LIMIT_SHADER_INSTRUCTIONS, &b->vertex_shader_instructions, L->err));
	TSR_TRY(tsr_json_get_u32(m, L->file, path, "varyings", 1, 32,
			     &b->varyings, L->err));
	const char *tex = NULL;
	TSR_TRY(tsr_json_get_string(m, L->file, path, "texture", &tex, L->err));
	if (tex) {
		char kp[256];
		tsr_json_path(kp, sizeof(kp), path, "texture");
		TSR_TRY(load_texture(L, tex, kp, &b->texture));
		b->texture_object = b->texture;
		spec->has_texture = 1;
	}
	return TSR_OK;
}

static enum tsr_status parse_anim(struct loader *L, const json_t *tr,
				  const json_t *an, const char *path,
				  struct tsr_transform_anim *a)
{
	char p[256];
	memset(a, 0, sizeof(*a));
	a->scale = tsr_v3(1, 1, 1);
	if (tr) {
		tsr_json_path(p, sizeof(p), path, "transform");
		TSR_TRY(tsr_json_check_keys(tr, L->file, p, transform_keys, L->err));
		TSR_TRY(tsr_json_get_vec3(tr, L->file, p, "translate", &a->translate, L->err));
		TSR_TRY(tsr_json_get_vec3(tr, L->file, p, "rotate_deg", &a->rotate_deg, L->err));
		TSR_TRY(get_scale(L, tr, p, "scale", &a->scale));
	}
	if (!an)
		return TSR_OK;
	tsr_json_path(p, sizeof(p), path, "animation");
	TSR_TRY(tsr_json_check_keys(an, L->file, p, animation_keys, L->err));
	TSR_TRY(tsr_json_get_vec3(an, L->file, p, "translate_per_frame",
			      &a->translate_per_frame, L->err));
	TSR_TRY(tsr_json_get_vec3(an, L->file, p, "rotate_deg_per_frame",
			      &a->rotate_deg_per_frame, L->err));
	TSR_TRY(get_scale(L, an, p, "scale_per_frame", &a->scale_per_frame));
	TSR_TRY(tsr_json_get_floats(an, L->file, p, "uv_scroll_per_frame", 2,
				a->uv_scroll_per_frame, L->err));
	json_t *keys;
	TSR_TRY(get_array(L, an, p, "keyframes", &keys));
	size_t n = keys ? json_array_size(keys) : 0;
	if (n == 0)
		return TSR_OK;
	a->keyframes = calloc(n, sizeof(*a->keyframes));
	if (!a->keyframes)
		return nomem(L);
	a->keyframe_count = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		const json_t *k = json_array_get(keys, i);
		struct tsr_keyframe *kf = &a->keyframes[i];
		char kp[256];
		index_path(kp, sizeof(kp), p, "keyframes", i);
		TSR_TRY(tsr_json_check_keys(k, L->file, kp, keyframe_keys, L->err));
		if (!json_object_get(k, "frame")) {
			char full[256];
			tsr_json_path(full, sizeof(full), kp, "frame");
			return missing(L, full);
		}
		TSR_TRY(tsr_json_get_u32(k, L->file, kp, "frame", 0, UINT32_MAX,
				     &kf->frame, L->err));
		kf->translate = a->translate;
		kf->rotate_deg = a->rotate_deg;
		kf->scale = a->scale;
		TSR_TRY(tsr_json_get_vec3(k, L->file, kp, "translate", &kf->translate, L->err));
		TSR_TRY(tsr_json_get_vec3(k, L->file, kp, "rotate_deg", &kf->rotate_deg, L->err));
		TSR_TRY(get_scale(L, k, kp, "scale", &kf->scale));
	}
	qsort(a->keyframes, n, sizeof(*a->keyframes), keyframe_cmp);
	for (size_t i = 1; i < n; i++)
		if (a->keyframes[i].frame == a->keyframes[i - 1].frame)
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "two keys of '%s.keyframes' in '%s' are at frame %u",
					     p, L->file, a->keyframes[i].frame);
	return TSR_OK;
}

static int material_equal(const struct tsr_material *a,
			  const struct tsr_material *b)
{
	return a->texture == b->texture &&
	       a->texture_object == b->texture_object && a->filter == b->filter &&
	       a->wrap == b->wrap && a->blend == b->blend &&
	       a->alpha_cutoff == b->alpha_cutoff &&
	       memcmp(a->color, b->color, sizeof(a->color)) == 0 &&
	       a->lit == b->lit && a->double_sided == b->double_sided &&
	       a->shader_alu_instructions == b->shader_alu_instructions &&
	       a->vertex_shader_instructions == b->vertex_shader_instructions &&
	       a->varyings == b->varyings;
}

static enum tsr_status find_or_add_material(struct loader *L,
					    const struct tsr_material *m,
					    uint32_t *index)
{
	struct tsr_scene *sc = L->sc;
	for (uint32_t i = 0; i < sc->material_count; i++)
		if (material_equal(&sc->materials[i], m)) {
			*index = i;
			return TSR_OK;
		}
	struct tsr_material *mats = tsr_array_grow(sc->materials, &L->material_cap,
						   sc->material_count + 1,
						   sizeof(*sc->materials));
	if (!mats)
		return nomem(L);
	sc->materials = mats;
	sc->materials[sc->material_count] = *m;
	*index = sc->material_count++;
	return TSR_OK;
}

/* The model imported from `path` (imported on first use). */
static enum tsr_status get_model(struct loader *L, const char *path,
				 const char *key_path, uint32_t *index)
{
	for (uint32_t i = 0; i < L->model_count; i++)
		if (strcmp(L->models[i].path, path) == 0) {
			*index = i;
			return TSR_OK;
		}
	struct tsr_model *models = tsr_array_grow(L->models, &L->model_cap,
						  L->model_count + 1, sizeof(*L->models));
	if (!models)
		return nomem(L);
	L->models = models;
	struct tsr_model *m = &L->models[L->model_count];
	enum tsr_status st;
	if (strcmp(path, TSR_BUILTIN_QUAD) == 0)
		st = tsr_model_builtin_quad(m, L->err);
	else if (strncmp(path, TSR_BUILTIN_GRID, strlen(TSR_BUILTIN_GRID)) == 0)
		st = tsr_model_builtin_grid(path, m, L->err);
	else
		st = tsr_model_load(path, m, L->err);
	if (st != TSR_OK)
		return with_key(L, st, key_path);
	*index = L->model_count++;
	return TSR_OK;
}

/*
 * Places model `mi` with the object's materials: reuses an earlier
 * placement with identical meshes and materials, else copies the model's
 * meshes into the scene.
 */
static enum tsr_status place_model(struct loader *L, uint32_t mi,
				   const struct material_spec *spec,
				   float normalize, const float *uv_rect,
				   const char *key_path,
				   uint32_t *first, uint32_t *count)
{
	struct tsr_scene *sc = L->sc;
	const struct tsr_model *model = &L->models[mi];
	uint32_t *map = malloc(model->material_count * sizeof(*map) + 1);
	if (!map)
		return nomem(L);
	enum tsr_status st = TSR_OK;
	for (uint32_t i = 0; i < model->material_count; i++)
		map[i] = UINT32_MAX;
	/* scene materials for the model materials the meshes use */
	for (uint32_t i = 0; i < model->mesh_count && st == TSR_OK; i++) {
		uint32_t mm = model->meshes[i].material;
		if (map[mm] != UINT32_MAX)
			continue;
		const struct tsr_model_material *src = &model->materials[mm];
		struct tsr_material m = spec->base;
		if (!spec->has_texture) {
			st = tsr_model_texture(model, mm, &L->images,
					       &m.texture, L->err);
			if (st != TSR_OK) {
				st = with_key(L, st, key_path);
				break;
			}
		}
		if (!spec->has_color && src->has_color)
			memcpy(m.color, src->color, sizeof(m.color));
		m.texture_object = m.texture;
		st = find_or_add_material(L, &m, &map[mm]);
	}
	if (st != TSR_OK)
		goto out;
	for (uint32_t p = 0; p < L->placed_count; p++) {
		const struct placement *pl = &L->placed[p];
		if (pl->model != mi || pl->normalize != normalize ||
		    pl->has_uv_rect != (uv_rect != NULL) ||
		    (uv_rect && memcmp(pl->uv_rect, uv_rect, sizeof(pl->uv_rect)) != 0))
			continue;
		uint32_t i = 0;
		while (i < model->mesh_count &&
		       sc->meshes[pl->first_mesh + i].material ==
			       map[model->meshes[i].material])
			i++;
		if (i == model->mesh_count) {
			*first = pl->first_mesh;
			*count = pl->mesh_count;
			goto out;
		}
	}
	struct tsr_mesh *meshes = tsr_array_grow(sc->meshes, &L->mesh_cap,
						 sc->mesh_count + model->mesh_count,
						 sizeof(*sc->meshes));
	if (meshes)
		sc->meshes = meshes;
	struct placement *placed = meshes ? tsr_array_grow(L->placed, &L->placed_cap,
							   L->placed_count + 1,
							   sizeof(*L->placed))
					  : NULL;
	if (!placed) {
		st = nomem(L);
		goto out;
	}
	L->placed = placed;
	*first = sc->mesh_count;
	*count = model->mesh_count;
	for (uint32_t i = 0; i < model->mesh_count; i++) {
		struct tsr_mesh *dst = &sc->meshes[sc->mesh_count];
		if (tsr_mesh_copy(&model->meshes[i], dst) != TSR_OK) {
			st = nomem(L);
			goto out;
		}
		dst->material = map[model->meshes[i].material];
		sc->mesh_count++;
	}
	if (normalize > 0.0f)
		tsr_meshes_normalize(&sc->meshes[*first], *count, normalize);
	struct placement pl = {.model = mi, .normalize = normalize,
			       .first_mesh = *first, .mesh_count = *count};
	if (uv_rect) {
		pl.has_uv_rect = 1;
		memcpy(pl.uv_rect, uv_rect, sizeof(pl.uv_rect));
		for (uint32_t i = 0; i < *count; i++) {
			struct tsr_mesh *m = &sc->meshes[*first + i];
			for (uint32_t v = 0; v < m->vertex_count; v++) {
				float *t = &m->texcoords[2 * (size_t)v];
				t[0] = uv_rect[0] + t[0] * (uv_rect[2] - uv_rect[0]);
				t[1] = uv_rect[1] + t[1] * (uv_rect[3] - uv_rect[1]);
			}
		}
	}
	L->placed[L->placed_count++] = pl;
out:
	free(map);
	return st;
}

/* A rectangle of 4 numbers (u0, v0, u1, v1) at `path`. */
static enum tsr_status get_rect(struct loader *L, const json_t *v,
				const char *path, float out[4])
{
	if (!json_is_array(v) || json_array_size(v) != 4)
		goto bad;
	for (size_t i = 0; i < 4; i++) {
		const json_t *x = json_array_get(v, i);
		if (!json_is_number(x))
			goto bad;
		out[i] = (float)json_number_value(x);
	}
	return TSR_OK;
bad:
	return tsr_error_set(L->err, TSR_ERR_CONFIG,
			     "key '%s' in '%s' must be an array of 4 numbers [u0, v0, u1, v1]",
			     path, L->file);
}

/* Object flags handed to add_object. */
enum { OBJ_SKYBOX = 1, OBJ_SCREEN_SPACE = 2 };

/* One instance of an object: its offsets from the object's placement. */
struct instance {
	struct tsr_vec3 translate;   /* added */
	struct tsr_vec3 rotate_deg;  /* added */
	struct tsr_vec3 scale;       /* multiplied */
	const float *uv_rect;        /* NULL: the object's */
	int32_t texture;             /* -1: the object's material */
};

/* Adds one object: model mi placed with the instance's changes. */
static enum tsr_status add_object(struct loader *L, uint32_t mi,
				  const struct material_spec *spec,
				  float normalize, const float *uv_rect,
				  int flags, const struct tsr_transform_anim *anim,
				  const struct instance *in, const char *key_path)
{
	struct tsr_scene *sc = L->sc;
	struct tsr_object *objects = tsr_array_grow(sc->objects, &L->object_cap,
						    sc->object_count + 1,
						    sizeof(*sc->objects));
	if (!objects)
		return nomem(L);
	sc->objects = objects;
	struct tsr_object *obj = &sc->objects[sc->object_count];
	memset(obj, 0, sizeof(*obj));
	obj->anim = *anim;
	obj->anim.keyframes = NULL;
	obj->skybox = (flags & OBJ_SKYBOX) != 0;
	obj->screen_space = (flags & OBJ_SCREEN_SPACE) != 0;
	if (anim->keyframe_count) {
		size_t bytes = anim->keyframe_count * sizeof(*anim->keyframes);
		obj->anim.keyframes = malloc(bytes);
		if (!obj->anim.keyframes)
			return nomem(L);
		memcpy(obj->anim.keyframes, anim->keyframes, bytes);
	}
	/* counted now so that tsr_scene_destroy frees its keyframes */
	sc->object_count++;
	struct material_spec ms = *spec;
	if (in) {
		struct tsr_transform_anim *a = &obj->anim;
		a->translate = tsr_v3_add(a->translate, in->translate);
		a->rotate_deg = tsr_v3_add(a->rotate_deg, in->rotate_deg);
		a->scale = tsr_v3(a->scale.x * in->scale.x, a->scale.y * in->scale.y,
				  a->scale.z * in->scale.z);
		for (uint32_t k = 0; k < a->keyframe_count; k++) {
			struct tsr_keyframe *kf = &a->keyframes[k];
			kf->translate = tsr_v3_add(kf->translate, in->translate);
			kf->rotate_deg = tsr_v3_add(kf->rotate_deg, in->rotate_deg);
			kf->scale = tsr_v3(kf->scale.x * in->scale.x, kf->scale.y * in->scale.y,
					   kf->scale.z * in->scale.z);
		}
		if (in->uv_rect)
			uv_rect = in->uv_rect;
		if (in->texture >= 0) {
			ms.base.texture = in->texture;
			ms.base.texture_object = in->texture;
			ms.has_texture = 1;
		}
	}
	return place_model(L, mi, &ms, normalize, uv_rect, key_path,
			   &obj->first_mesh, &obj->mesh_count);
}

/* passes[0].objects[i].instances: one object per entry. */
static enum tsr_status parse_instances(struct loader *L, const json_t *arr,
				       const char *path, uint32_t mi,
				       const struct material_spec *spec,
				       float normalize, const float *uv_rect,
				       int flags, const struct tsr_transform_anim *anim,
				       const char *mesh_key)
{
	for (size_t i = 0; i < json_array_size(arr); i++) {
		const json_t *e = json_array_get(arr, i);
		char ip[256], kp[256];
		index_path(ip, sizeof(ip), path, NULL, i);
		TSR_TRY(tsr_json_check_keys(e, L->file, ip, instance_keys, L->err));
		struct instance in = {.scale = tsr_v3(1, 1, 1), .texture = -1};
		float rect[4];
		TSR_TRY(tsr_json_get_vec3(e, L->file, ip, "translate", &in.translate, L->err));
		TSR_TRY(tsr_json_get_vec3(e, L->file, ip, "rotate_deg", &in.rotate_deg, L->err));
		TSR_TRY(get_scale(L, e, ip, "scale", &in.scale));
		const json_t *r = json_object_get(e, "uv_rect");
		if (r) {
			tsr_json_path(kp, sizeof(kp), ip, "uv_rect");
			TSR_TRY(get_rect(L, r, kp, rect));
			in.uv_rect = rect;
		}
		const char *tex = NULL;
		TSR_TRY(tsr_json_get_string(e, L->file, ip, "texture", &tex, L->err));
		if (tex) {
			tsr_json_path(kp, sizeof(kp), ip, "texture");
			TSR_TRY(load_texture(L, tex, kp, &in.texture));
		}
		TSR_TRY(add_object(L, mi, spec, normalize, uv_rect, flags, anim, &in,
				   mesh_key));
	}
	return TSR_OK;
}

/* A uniform random number in [-1, 1] from the grid's generator. */
static float rng_signed(struct tsr_rng *r)
{
	return (float)(tsr_rng_next(r) >> 40) / (float)(1u << 23) - 1.0f;
}

/*
 * passes[0].objects[i].grid: a generator of instances on a regular grid of
 * count[0] x count[1] x count[2] cells (x fastest), `spacing` apart from
 * the object's own placement, each kept with probability `fill`, moved by
 * up to +-jitter, turned by up to +-rotate_jitter_deg and scaled by
 * 1 +- scale_jitter per axis, with a uv_rect and a texture chosen from the
 * lists; all random choices come from a SplitMix64 stream seeded with
 * `seed` (12 numbers per cell, always drawn, so a key changes only its own
 * choices).
 */
static enum tsr_status parse_grid(struct loader *L, const json_t *g,
				  const char *path, uint32_t mi,
				  const struct material_spec *spec,
				  float normalize, const float *uv_rect,
				  int flags, const struct tsr_transform_anim *anim,
				  const char *mesh_key)
{
	char kp[256];
	TSR_TRY(tsr_json_check_keys(g, L->file, path, grid_keys, L->err));
	if (!json_object_get(g, "count")) {
		tsr_json_path(kp, sizeof(kp), path, "count");
		return missing(L, kp);
	}
	float countf[3] = {1, 1, 1}, fill = 1.0f;
	struct tsr_vec3 spacing = tsr_v3(1, 1, 1), jitter = tsr_v3(0, 0, 0),
			rjitter = tsr_v3(0, 0, 0), sjitter = tsr_v3(0, 0, 0);
	uint32_t seed = 1;
	TSR_TRY(tsr_json_get_floats(g, L->file, path, "count", 3, countf, L->err));
	uint32_t count[3];
	for (int k = 0; k < 3; k++) {
		if (!(countf[k] >= 1.0f && countf[k] <= 4096.0f) ||
		    countf[k] != (float)(uint32_t)countf[k]) {
			tsr_json_path(kp, sizeof(kp), path, "count");
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' must be 3 integers 1..4096",
					     kp, L->file);
		}
		count[k] = (uint32_t)countf[k];
	}
	if ((uint64_t)count[0] * count[1] * count[2] > 65536) {
		tsr_json_path(kp, sizeof(kp), path, "count");
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' makes more than 65536 instances",
				     kp, L->file);
	}
	TSR_TRY(tsr_json_get_vec3(g, L->file, path, "spacing", &spacing, L->err));
	TSR_TRY(tsr_json_get_vec3(g, L->file, path, "jitter", &jitter, L->err));
	TSR_TRY(tsr_json_get_vec3(g, L->file, path, "rotate_jitter_deg", &rjitter, L->err));
	TSR_TRY(tsr_json_get_vec3(g, L->file, path, "scale_jitter", &sjitter, L->err));
	TSR_TRY(tsr_json_get_float(g, L->file, path, "fill", 0.0f, 1.0f, &fill, L->err));
	TSR_TRY(tsr_json_get_u32(g, L->file, path, "seed", 0, UINT32_MAX, &seed, L->err));
	json_t *rects_json, *tex_json;
	TSR_TRY(get_array(L, g, path, "uv_rects", &rects_json));
	TSR_TRY(get_array(L, g, path, "textures", &tex_json));
	size_t nrects = rects_json ? json_array_size(rects_json) : 0;
	size_t ntex = tex_json ? json_array_size(tex_json) : 0;
	float *rects = malloc((nrects ? nrects : 1) * 4 * sizeof(float));
	int32_t *tex = malloc((ntex ? ntex : 1) * sizeof(int32_t));
	enum tsr_status st = rects && tex ? TSR_OK : nomem(L);
	for (size_t i = 0; i < nrects && st == TSR_OK; i++) {
		tsr_json_path(kp, sizeof(kp), path, "uv_rects");
		char ip[256];
		index_path(ip, sizeof(ip), kp, NULL, i);
		st = get_rect(L, json_array_get(rects_json, i), ip, &rects[4 * i]);
	}
	for (size_t i = 0; i < ntex && st == TSR_OK; i++) {
		char ip[256];
		index_path(ip, sizeof(ip), path, "textures", i);
		const json_t *t = json_array_get(tex_json, i);
		if (!json_is_string(t))
			st = tsr_error_set(L->err, TSR_ERR_CONFIG,
					   "key '%s' in '%s' must be a string", ip, L->file);
		else
			st = load_texture(L, json_string_value(t), ip, &tex[i]);
	}
	struct tsr_rng rng;
	tsr_rng_seed(&rng, seed);
	for (uint32_t z = 0; z < count[2] && st == TSR_OK; z++)
		for (uint32_t y = 0; y < count[1] && st == TSR_OK; y++)
			for (uint32_t x = 0; x < count[0] && st == TSR_OK; x++) {
				float r[12];
				for (int k = 0; k < 12; k++)
					r[k] = rng_signed(&rng);
				if (0.5f * (r[0] + 1.0f) >= fill && fill < 1.0f)
					continue;
				struct instance in = {
					.translate = tsr_v3((float)x * spacing.x + r[1] * jitter.x,
							    (float)y * spacing.y + r[2] * jitter.y,
							    (float)z * spacing.z + r[3] * jitter.z),
					.rotate_deg = tsr_v3(r[4] * rjitter.x, r[5] * rjitter.y,
							     r[6] * rjitter.z),
					.scale = tsr_v3(1.0f + r[9] * sjitter.x, 1.0f + r[10] * sjitter.y,
							1.0f + r[11] * sjitter.z),
					.texture = -1,
				};
				/* r in [-1, 1): index = floor((r + 1) / 2 * n) */
				if (nrects) {
					size_t i = (size_t)(0.5f * (r[7] + 1.0f) * (float)nrects);
					in.uv_rect = &rects[4 * (i < nrects ? i : nrects - 1)];
				}
				if (ntex) {
					size_t i = (size_t)(0.5f * (r[8] + 1.0f) * (float)ntex);
					in.texture = tex[i < ntex ? i : ntex - 1];
				}
				st = add_object(L, mi, spec, normalize, uv_rect, flags, anim,
						&in, mesh_key);
			}
	free(rects);
	free(tex);
	return st;
}

/* The model a "mesh" value names: builtin:quad, builtin:grid:N or a file. */
static enum tsr_status object_model(struct loader *L, const char *mesh,
				    const char *kp, uint32_t *mi)
{
	if (strcmp(mesh, TSR_BUILTIN_QUAD) == 0)
		return get_model(L, TSR_BUILTIN_QUAD, kp, mi);
	if (strncmp(mesh, TSR_BUILTIN_GRID, strlen(TSR_BUILTIN_GRID)) == 0)
		return get_model(L, mesh, kp, mi);
	if (strncmp(mesh, "builtin:", 8) == 0)
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' names an unknown built-in mesh '%s' (valid: %s, %sN)",
				     kp, L->file, mesh, TSR_BUILTIN_QUAD, TSR_BUILTIN_GRID);
	char *full = resolve(L, mesh);
	if (!full)
		return nomem(L);
	enum tsr_status st = check_asset_package(L, full, kp);
	if (st == TSR_OK)
		st = get_model(L, full, kp, mi);
	free(full);
	return st;
}

static enum tsr_status parse_object(struct loader *L, const json_t *o,
				    const char *path)
{
	char kp[256];
	TSR_TRY(tsr_json_check_keys(o, L->file, path, object_keys, L->err));
	const char *mesh = NULL;
	tsr_json_path(kp, sizeof(kp), path, "mesh");
	TSR_TRY(tsr_json_get_string(o, L->file, path, "mesh", &mesh, L->err));
	if (!mesh)
		return missing(L, kp);
	float normalize = 0.0f;
	TSR_TRY(tsr_json_get_float(o, L->file, path, "normalize", 1e-6f, FLT_MAX,
			       &normalize, L->err));
	int skybox = 0, screen_space = 0;
	TSR_TRY(tsr_json_get_bool(o, L->file, path, "skybox", &skybox, L->err));
	TSR_TRY(tsr_json_get_bool(o, L->file, path, "screen_space", &screen_space, L->err));
	if (skybox && screen_space) {
		char fp[256];
		tsr_json_path(fp, sizeof(fp), path, "screen_space");
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' cannot be given together with 'skybox'",
				     fp, L->file);
	}
	const int flags = (skybox ? OBJ_SKYBOX : 0) | (screen_space ? OBJ_SCREEN_SPACE : 0);
	float rect[4];
	const float *uv_rect = NULL;
	const json_t *r = json_object_get(o, "uv_rect");
	if (r) {
		char rp[256];
		tsr_json_path(rp, sizeof(rp), path, "uv_rect");
		TSR_TRY(get_rect(L, r, rp, rect));
		uv_rect = rect;
	}
	char mp[256];
	tsr_json_path(mp, sizeof(mp), path, "material");
	struct material_spec spec;
	TSR_TRY(parse_material(L, json_object_get(o, "material"), mp, &spec));
	struct tsr_transform_anim anim;
	enum tsr_status st = parse_anim(L, json_object_get(o, "transform"),
					json_object_get(o, "animation"), path, &anim);
	uint32_t mi = 0;
	if (st == TSR_OK)
		st = object_model(L, mesh, kp, &mi);
	json_t *instances = NULL;
	const json_t *grid = json_object_get(o, "grid");
	if (st == TSR_OK)
		st = get_array(L, o, path, "instances", &instances);
	if (st == TSR_OK && instances && grid) {
		char gp[256];
		tsr_json_path(gp, sizeof(gp), path, "grid");
		st = tsr_error_set(L->err, TSR_ERR_CONFIG,
				   "key '%s' in '%s' cannot be given together with 'instances'",
				   gp, L->file);
	}
	if (st == TSR_OK && instances) {
		char ip[256];
		tsr_json_path(ip, sizeof(ip), path, "instances");
		st = parse_instances(L, instances, ip, mi, &spec, normalize, uv_rect,
				     flags, &anim, kp);
	} else if (st == TSR_OK && grid) {
		char gp[256];
		tsr_json_path(gp, sizeof(gp), path, "grid");
		st = parse_grid(L, grid, gp, mi, &spec, normalize, uv_rect,
				flags, &anim, kp);
	} else if (st == TSR_OK) {
		st = add_object(L, mi, &spec, normalize, uv_rect, flags, &anim,
				NULL, kp);
	}
	free(anim.keyframes);
	return st;
}

/* A required key of an event; missing -> TSR_ERR_CONFIG naming it. */
static enum tsr_status require(struct loader *L, const json_t *obj,
			       const char *path, const char *key)
{
	if (json_object_get(obj, key))
		return TSR_OK;
	char full[256];
	tsr_json_path(full, sizeof(full), path, key);
	return missing(L, full);
}

/*
 * One event of passes[0].events (at `path`) into *u: checks its keys,
 * decodes the uploaded image and makes, for every mesh of the object, the
 * variant of the mesh's own material that samples it.
 */
static enum tsr_status parse_event(struct loader *L, const json_t *e,
				   const char *path, const struct tsr_pass *pass,
				   struct tsr_texture_upload *u)
{
	struct tsr_scene *sc = L->sc;
	char kp[256];
	TSR_TRY(tsr_json_check_keys(e, L->file, path, event_keys, L->err));
	for (const char *const *k = event_keys; *k; k++)
		TSR_TRY(require(L, e, path, *k));
	TSR_TRY(tsr_json_get_u32(e, L->file, path, "frame", 0, 1000000,
			     &u->frame, L->err));
	int type = 0;
	TSR_TRY(tsr_json_get_enum(e, L->file, path, "type", event_type_names,
			      &type, L->err));
	uint32_t object = 0;
	TSR_TRY(tsr_json_get_u32(e, L->file, path, "object", 0, UINT32_MAX,
			     &object, L->err));
	if (object >= pass->object_count) {
		tsr_json_path(kp, sizeof(kp), path, "object");
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' is %u, but the pass has %u objects",
				     kp, L->file, object, pass->object_count);
	}
	u->object = pass->first_object + object;
	const char *tex = NULL;
	TSR_TRY(tsr_json_get_string(e, L->file, path, "texture", &tex, L->err));
	tsr_json_path(kp, sizeof(kp), path, "texture");
	TSR_TRY(load_texture(L, tex, kp, &u->image));

	const struct tsr_object *obj = &sc->objects[u->object];
	u->mesh_materials = calloc(obj->mesh_count ? obj->mesh_count : 1,
				   sizeof(*u->mesh_materials));
	if (!u->mesh_materials)
		return nomem(L);
	for (uint32_t k = 0; k < obj->mesh_count; k++) {
		/* the mesh keeps the material the object was placed with */
		struct tsr_material m =
			sc->materials[sc->meshes[obj->first_mesh + k].material];
		m.texture = u->image;
		TSR_TRY(find_or_add_material(L, &m, &u->mesh_materials[k]));
	}
	return TSR_OK;
}

/* passes[0].events (at `path`) into pass->uploads, sorted stably by frame. */
static enum tsr_status parse_events(struct loader *L, const json_t *arr,
				    const char *path, struct tsr_pass *pass)
{
	size_t n = json_array_size(arr);
	if (n == 0)
		return TSR_OK;
	pass->uploads = calloc(n, sizeof(*pass->uploads));
	if (!pass->uploads)
		return nomem(L);
	/* counted now so that tsr_scene_destroy frees what was made */
	pass->upload_count = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		char ep[256];
		index_path(ep, sizeof(ep), path, NULL, i);
		TSR_TRY(parse_event(L, json_array_get(arr, i), ep, pass,
				    &pass->uploads[i]));
	}
	/* insertion sort: stable, so equal frames keep the file's order */
	for (uint32_t i = 1; i < pass->upload_count; i++) {
		struct tsr_texture_upload u = pass->uploads[i];
		uint32_t j = i;
		for (; j > 0 && pass->uploads[j - 1].frame > u.frame; j--)
			pass->uploads[j] = pass->uploads[j - 1];
		pass->uploads[j] = u;
	}
	return TSR_OK;
}

static enum tsr_status parse_pass(struct loader *L, const json_t *ps,
				  const char *path, uint32_t index)
{
	struct tsr_scene *sc = L->sc;
	char p[256];
	TSR_TRY(tsr_json_check_keys(ps, L->file, path, pass_keys, L->err));
	struct tsr_pass *pass = &sc->passes[index];
	L->cur_pass = index;
	pass->target_image = -1;
	for (uint32_t i = 0; i < L->rt_count; i++)
		if (L->rt_writer[i] == (int32_t)index)
			pass->target_image = L->rt_image[i];
	const char *name = "main";
	TSR_TRY(tsr_json_get_string(ps, L->file, path, "name", &name, L->err));
	if (strlen(name) >= sizeof(pass->name)) {
		tsr_json_path(p, sizeof(p), path, "name");
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' is longer than %zu characters",
				     p, L->file, sizeof(pass->name) - 1);
	}
	snprintf(pass->name, sizeof(pass->name), "%s", name);
	pass->clear_color[3] = 1.0f;
	TSR_TRY(tsr_json_get_floats(ps, L->file, path, "clear_color", 4,
				pass->clear_color, L->err));
	tsr_json_path(p, sizeof(p), path, "camera");
	TSR_TRY(parse_camera(L, json_object_get(ps, "camera"), p, &pass->camera));
	json_t *objects;
	TSR_TRY(get_array(L, ps, path, "objects", &objects));
	if (!objects) {
		tsr_json_path(p, sizeof(p), path, "objects");
		return missing(L, p);
	}
	pass->first_object = sc->object_count;
	for (size_t i = 0; i < json_array_size(objects); i++) {
		index_path(p, sizeof(p), path, "objects", i);
		TSR_TRY(parse_object(L, json_array_get(objects, i), p));
	}
	pass->object_count = sc->object_count - pass->first_object;
	json_t *events;
	TSR_TRY(get_array(L, ps, path, "events", &events));
	if (events) {
		tsr_json_path(p, sizeof(p), path, "events");
		TSR_TRY(parse_events(L, events, p, pass));
	}
	return TSR_OK;
}

/*
 * render_targets: each {"name", "width", "height", "format"} becomes an
 * image "rendertarget:<name>" (zero until a pass draws it). "format" is
 * "rgba8" (the default: a color target) or "depth32f" (alias "depth": a
 * depth target, image.depth set: its pass writes depth only, and the
 * image holds that depth as grey).
 */
static enum tsr_status parse_render_targets(struct loader *L, const json_t *arr)
{
	char p[128], kp[160];
	if (json_array_size(arr) > TSR_MAX_RENDER_TARGETS)
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key 'render_targets' in '%s' has %zu targets, at most %d",
				     L->file, json_array_size(arr), TSR_MAX_RENDER_TARGETS);
	for (size_t i = 0; i < json_array_size(arr); i++) {
		const json_t *t = json_array_get(arr, i);
		index_path(p, sizeof(p), "", "render_targets", i);
		if (!json_is_object(t))
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' must be an object", p, L->file);
		TSR_TRY(tsr_json_check_keys(t, L->file, p, render_target_keys, L->err));
		const char *name = NULL, *format = "rgba8";
		uint32_t w = 0, h = 0;
		TSR_TRY(tsr_json_get_string(t, L->file, p, "name", &name, L->err));
		tsr_json_path(kp, sizeof(kp), p, "name");
		if (!name)
			return missing(L, kp);
		if (!name[0] || strlen(name) >= sizeof(L->rt_name[0]) || strchr(name, '@'))
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' must be 1 to %zu characters without '@'",
					     kp, L->file, sizeof(L->rt_name[0]) - 1);
		for (uint32_t k = 0; k < L->rt_count; k++)
			if (strcmp(L->rt_name[k], name) == 0)
				return tsr_error_set(L->err, TSR_ERR_CONFIG,
						     "render target '%s' (key '%s' in '%s') is declared twice",
						     name, kp, L->file);
		TSR_TRY(tsr_json_get_u32(t, L->file, p, "width", 1, TSR_LIMIT_TEXTURE_SIDE, &w,
					 L->err));
		TSR_TRY(tsr_json_get_u32(t, L->file, p, "height", 1, TSR_LIMIT_TEXTURE_SIDE, &h,
					 L->err));
		if (!w || !h) {
			tsr_json_path(kp, sizeof(kp), p, w ? "height" : "width");
			return missing(L, kp);
		}
		TSR_TRY(tsr_json_get_string(t, L->file, p, "format", &format, L->err));
		const int depth = strcmp(format, "depth32f") == 0 || strcmp(format, "depth") == 0;
		if (!depth && strcmp(format, "rgba8") != 0) {
			tsr_json_path(kp, sizeof(kp), p, "format");
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' is '%s': the render target formats are "
					     "'rgba8' (color) and 'depth32f' (depth; alias 'depth')",
					     kp, L->file, format);
		}
		char img_name[96];
		snprintf(img_name, sizeof(img_name), "rendertarget:%s", name);
		uint8_t *zero = calloc((size_t)w * h, 4);
		if (!zero)
			return nomem(L);
		int32_t index;
		enum tsr_status st = tsr_image_set_add_bgra(&L->images, img_name, w, h, zero,
							    &index, L->err);
		free(zero);
		TSR_TRY(st);
		L->images.images[index].render_target = 1;
		L->images.images[index].depth = depth;
		snprintf(L->rt_name[L->rt_count], sizeof(L->rt_name[0]), "%s", name);
		L->rt_image[L->rt_count] = index;
		L->rt_writer[L->rt_count] = -1;
		L->rt_count++;
	}
	return TSR_OK;
}

/*
 * Each pass's "target" (before any pass is parsed, so that a material can
 * sample a later pass's target @previous): every earlier pass draws a
 * declared render target that no other pass draws, the last one
 * "framebuffer".
 */
static enum tsr_status assign_targets(struct loader *L, const json_t *passes)
{
	const size_t n = json_array_size(passes);
	for (size_t i = 0; i < n; i++) {
		char p[64], kp[96];
		index_path(p, sizeof(p), "", "passes", i);
		tsr_json_path(kp, sizeof(kp), p, "target");
		const json_t *ps = json_array_get(passes, i);
		if (!json_is_object(ps))
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' must be an object", p, L->file);
		const char *target = "framebuffer";
		TSR_TRY(tsr_json_get_string(ps, L->file, p, "target", &target, L->err));
		const int last = i + 1 == n, fb = strcmp(target, "framebuffer") == 0;
		if (last && !fb) {
			for (uint32_t k = 0; k < L->rt_count; k++)
				if (strcmp(L->rt_name[k], target) == 0 &&
				    L->images.images[L->rt_image[k]].depth)
					return tsr_error_set(L->err, TSR_ERR_CONFIG,
							     "key '%s' in '%s' is '%s', a depth render target: the last pass draws 'framebuffer' (the displayable color), a depth target only an earlier pass",
							     kp, L->file, target);
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' is '%s': the last pass draws 'framebuffer'",
					     kp, L->file, target);
		}
		if (!last && fb)
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' is 'framebuffer': only the last pass draws the frame buffer, earlier ones a render target",
					     kp, L->file);
		if (fb)
			continue;
		uint32_t k = 0;
		while (k < L->rt_count && strcmp(L->rt_name[k], target) != 0)
			k++;
		if (k == L->rt_count)
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "render target '%s' (key '%s' in '%s') is not declared in 'render_targets'",
					     target, kp, L->file);
		if (L->rt_writer[k] >= 0)
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "render target '%s' (key '%s' in '%s') is already drawn by pass %d",
					     target, kp, L->file, L->rt_writer[k]);
		L->rt_writer[k] = (int32_t)i;
	}
	return TSR_OK;
}

static enum tsr_status parse_top(struct loader *L, const json_t *root)
{
	struct tsr_scene *sc = L->sc;
	const json_t *v = json_object_get(root, "version");
	if (!v)
		return missing(L, "version");
	/* checked before the other keys: a newer file may have new keys */
	if (json_is_integer(v) && json_integer_value(v) > TSR_WORKLOAD_VERSION)
		return tsr_error_set(L->err, TSR_ERR_UNSUPPORTED,
				     "workload format version %lld of '%s' is not supported (this build reads version %d)",
				     (long long)json_integer_value(v), L->file,
				     TSR_WORKLOAD_VERSION);
	sc->version = TSR_WORKLOAD_VERSION;
	TSR_TRY(tsr_json_get_u32(root, L->file, "", "version", 1,
			     TSR_WORKLOAD_VERSION, &sc->version, L->err));
	TSR_TRY(tsr_json_check_keys(root, L->file, "", top_keys, L->err));

	const char *name = NULL;
	TSR_TRY(tsr_json_get_string(root, L->file, "", "name", &name, L->err));
	if (name) {
		sc->name = strdup(name);
	} else { /* the file name without folder and extension */
		const char *b = strrchr(L->file, '/');
		sc->name = strdup(b ? b + 1 : L->file);
		char *dot = sc->name ? strrchr(sc->name, '.') : NULL;
		if (dot && dot != sc->name)
			*dot = '\0';
	}
	if (!sc->name)
		return nomem(L);
	sc->frames = 1;
	TSR_TRY(tsr_json_get_u32(root, L->file, "", "frames", 1, TSR_LIMIT_FRAMES,
			     &sc->frames, L->err));

	json_t *passes, *targets;
	TSR_TRY(get_array(L, root, "", "passes", &passes));
	if (!passes)
		return missing(L, "passes");
	if (json_array_size(passes) == 0)
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key 'passes' in '%s' must hold at least one pass",
				     L->file);
	TSR_TRY(get_array(L, root, "", "render_targets", &targets));
	if (sc->version < 2 && (json_array_size(passes) > 1 || targets))
		return tsr_error_set(L->err, TSR_ERR_UNSUPPORTED,
				     "'%s' has %zu passes%s: several passes and render targets need \"version\": 2",
				     L->file, json_array_size(passes),
				     targets ? " and 'render_targets'" : "");
	if (targets)
		TSR_TRY(parse_render_targets(L, targets));
	TSR_TRY(assign_targets(L, passes));
	const size_t n = json_array_size(passes);
	sc->passes = calloc(n, sizeof(*sc->passes));
	if (!sc->passes)
		return nomem(L);
	sc->pass_count = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		char p[64];
		index_path(p, sizeof(p), "", "passes", i);
		TSR_TRY(parse_pass(L, json_array_get(passes, i), p, (uint32_t)i));
	}
	return TSR_OK;
}

enum tsr_status tsr_scene_load(const char *workload_path,
			       struct tsr_scene **out, struct tsr_error *err)
{
	struct loader L = {.file = workload_path, .err = err};
	json_t *root = NULL;
	*out = NULL;
	enum tsr_status st = tsr_json_load_file(workload_path, &root, err);
	if (st != TSR_OK)
		return st;
	L.sc = calloc(1, sizeof(*L.sc));
	L.dir = tsr_path_dir(workload_path);
	if (L.sc)
		L.sc->path = strdup(workload_path);
	if (!L.sc || !L.dir || !L.sc->path)
		st = nomem(&L);
	else
		st = parse_top(&L, root);
	if (L.sc) {
		L.sc->images = L.images.images;
		L.sc->image_count = L.images.count;
	}
	for (uint32_t i = 0; i < L.model_count; i++)
		tsr_model_release(&L.models[i]);
	free(L.models);
	free(L.placed);
	free(L.dir);
	json_decref(root);
	if (st != TSR_OK) {
		tsr_scene_destroy(L.sc);
		return st;
	}
	*out = L.sc;
	return TSR_OK;
}

void tsr_scene_destroy(struct tsr_scene *scene)
{
	if (!scene)
		return;
	for (uint32_t i = 0; i < scene->image_count; i++)
		tsr_image_release(&scene->images[i]);
	free(scene->images);
	free(scene->materials);
	for (uint32_t i = 0; i < scene->mesh_count; i++)
		tsr_mesh_release(&scene->meshes[i]);
	free(scene->meshes);
	for (uint32_t i = 0; i < scene->object_count; i++)
		free(scene->objects[i].anim.keyframes);
	free(scene->objects);
	for (uint32_t i = 0; i < scene->pass_count; i++) {
		struct tsr_pass *pass = &scene->passes[i];
		free(pass->camera.keys);
		for (uint32_t u = 0; u < pass->upload_count; u++)
			free(pass->uploads[u].mesh_materials);
		free(pass->uploads);
	}
	free(scene->passes);
	free(scene->name);
	free(scene->path);
	free(scene);
}

/*
 * Keyframe span: keys are n structs of `stride` bytes, sorted by the
 * uint32_t frame at *first_frame in each. Returns the key i at or before
 * `frame` (clamped to the first and last) and in *f the fraction of the way
 * to key i + 1 (0 when clamped).
 */
static uint32_t key_span(uint32_t frame, const uint32_t *first_frame,
			 size_t stride, uint32_t n, float *f)
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

struct tsr_mat4 tsr_object_model_matrix(const struct tsr_object *obj,
					uint32_t frame)
{
	const struct tsr_transform_anim *a = &obj->anim;
	struct tsr_vec3 t, r, s;
	if (a->keyframe_count > 0) {
		const struct tsr_keyframe *k = a->keyframes;
		float f;
		uint32_t i = key_span(frame, &k[0].frame, sizeof(*k), a->keyframe_count, &f);
		uint32_t j = i + 1 < a->keyframe_count ? i + 1 : i;
		t = tsr_v3_lerp(k[i].translate, k[j].translate, f);
		r = tsr_v3_lerp(k[i].rotate_deg, k[j].rotate_deg, f);
		s = tsr_v3_lerp(k[i].scale, k[j].scale, f);
	} else {
		float f = (float)frame;
		t = tsr_v3_add(a->translate, tsr_v3_scale(a->translate_per_frame, f));
		r = tsr_v3_add(a->rotate_deg, tsr_v3_scale(a->rotate_deg_per_frame, f));
		s = tsr_v3_add(a->scale, tsr_v3_scale(a->scale_per_frame, f));
	}
	return tsr_m4_mul(tsr_m4_translate(t),
			  tsr_m4_mul(tsr_m4_rotate_xyz_deg(r), tsr_m4_scale(s)));
}

uint32_t tsr_object_mesh_material(const struct tsr_scene *sc,
				  const struct tsr_pass *pass, uint32_t object,
				  uint32_t k, uint32_t frame)
{
	uint32_t m = sc->meshes[sc->objects[object].first_mesh + k].material;
	/* sorted by frame: the last match at or before `frame` wins */
	for (uint32_t i = 0; i < pass->upload_count && pass->uploads[i].frame <= frame; i++)
		if (pass->uploads[i].object == object)
			m = pass->uploads[i].mesh_materials[k];
	return m;
}

int tsr_pass_uploads_at(const struct tsr_pass *pass, uint32_t frame)
{
	for (uint32_t i = 0; i < pass->upload_count && pass->uploads[i].frame <= frame; i++)
		if (pass->uploads[i].frame == frame)
			return 1;
	return 0;
}

void tsr_object_uv_offset(const struct tsr_object *obj, uint32_t frame,
			  float uv[2])
{
	for (int k = 0; k < 2; k++) {
		/* the fractional part only: repeat wrapping makes them equal, and
		   texture coordinates stay small however long the run */
		double o = (double)frame * (double)obj->anim.uv_scroll_per_frame[k];
		uv[k] = (float)(o - floor(o));
	}
}

/* Eye, target and up of a camera at a frame. */
static void camera_at(const struct tsr_camera *cam, uint32_t frame,
		      struct tsr_vec3 *eye_out, struct tsr_vec3 *target_out,
		      struct tsr_vec3 *up_out)
{
	struct tsr_vec3 eye = cam->eye, target = cam->target, up = cam->up;
	if (cam->key_count > 0) {
		const struct tsr_camera_key *k = cam->keys;
		float f;
		uint32_t i = key_span(frame, &k[0].frame, sizeof(*k), cam->key_count, &f);
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

enum tsr_status tsr_scene_check_cameras(const struct tsr_scene *sc, uint32_t first,
					uint32_t end, struct tsr_error *err)
{
	for (uint32_t i = 0; i < sc->pass_count; i++) {
		const struct tsr_camera *c = &sc->passes[i].camera;
		/* a static camera was checked when the workload was loaded */
		uint32_t last = c->key_count || c->orbit ? end : (first < end ? first + 1 : end);
		for (uint32_t f = first; f < last; f++) {
			struct tsr_vec3 eye, target, up;
			camera_at(c, f, &eye, &target, &up);
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

struct tsr_vec3 tsr_camera_eye(const struct tsr_camera *cam, uint32_t frame)
{
	struct tsr_vec3 eye, target, up;
	camera_at(cam, frame, &eye, &target, &up);
	return eye;
}

void tsr_camera_matrices(const struct tsr_camera *cam, uint32_t frame,
			 float aspect, struct tsr_mat4 *view,
			 struct tsr_mat4 *proj)
{
	struct tsr_vec3 eye, target, up;
	camera_at(cam, frame, &eye, &target, &up);
	*view = tsr_m4_look_at(eye, target, up);
	if (cam->projection == TSR_PROJ_ORTHOGRAPHIC) {
		float h = cam->ortho_height, w = h * aspect;
		*proj = tsr_m4_ortho(-0.5f * w, 0.5f * w, -0.5f * h, 0.5f * h,
				     cam->znear, cam->zfar);
	} else {
		*proj = tsr_m4_perspective(cam->fov_y_deg, aspect, cam->znear,
					   cam->zfar);
	}
}
