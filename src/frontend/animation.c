/*
 * animation.c - a loaded workload evaluated at a frame (animation.h):
 * object transforms and texture scroll, camera matrices, materials after
 * texture uploads. Pure functions of the scene's data and the frame.
 */
#include <math.h>

#include "frontend/animation.h"

struct tsr_mat4 tsr_object_model_matrix(const struct tsr_object *obj,
					uint32_t frame)
{
	const struct tsr_transform_anim *a = &obj->anim;
	struct tsr_vec3 t, r, s;
	if (a->keyframe_count > 0) {
		const struct tsr_keyframe *k = a->keyframes;
		float f;
		uint32_t i = tsr_keyframe_span(frame, &k[0].frame, sizeof(*k), a->keyframe_count, &f);
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

struct tsr_vec3 tsr_camera_eye(const struct tsr_camera *cam, uint32_t frame)
{
	struct tsr_vec3 eye, target, up;
	tsr_camera_pose(cam, frame, &eye, &target, &up);
	return eye;
}

void tsr_camera_matrices(const struct tsr_camera *cam, uint32_t frame,
			 float aspect, struct tsr_mat4 *view,
			 struct tsr_mat4 *proj)
{
	struct tsr_vec3 eye, target, up;
	tsr_camera_pose(cam, frame, &eye, &target, &up);
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
