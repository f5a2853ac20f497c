#include "frontend/animation.h"
#include "frontend/frontend.h"

/*
 * A skybox is drawn at the far plane: its clip z is set to w * (1 - 2^-17)
 * (depth 1 - 2^-18, in front of the cleared depth 1.0), so it is hidden by
 * whatever else covers a pixel and, drawn after the opaque geometry, Early-Z
 * rejects its hidden quads. Its model matrix is moved to the camera's eye,
 * so the camera never comes closer to it. A screen-space object (a HUD)
 * is placed by its model matrix alone, in units of half the screen height:
 * y from -1 (bottom) to 1 (top), x from -aspect to aspect, z from -1 (near
 * plane) to 1 (far plane); no camera applies.
 */
static struct tsr_mat4 skybox_mvp(struct tsr_mat4 mvp)
{
	const float k = 1.0f - 1.0f / 131072.0f;
	for (int c = 0; c < 4; c++)   /* column-major: m[c * 4 + row] */
		mvp.m[c * 4 + 2] = mvp.m[c * 4 + 3] * k;
	return mvp;
}

struct tsr_resources tsr_workload_resources(const struct tsr_scene *sc)
{
	struct tsr_resources r = {sc->mesh_count, sc->meshes, sc->material_count, sc->materials,
				  sc->image_count, sc->images};
	return r;
}

enum tsr_status tsr_workload_commands(const struct tsr_scene *sc, uint32_t frame,
				      uint32_t width, uint32_t height,
				      struct tsr_frame_commands *c, struct tsr_error *err)
{
	const float aspect = (float)width / (float)height;
	const struct tsr_resources res = tsr_workload_resources(sc);
	tsr_commands_reset(c, frame);
	for (uint32_t pi = 0; pi < sc->pass_count; pi++) {
		const struct tsr_pass *pass = &sc->passes[pi];
		struct tsr_cmd_pass p = {.target = TSR_TARGET_FRAMEBUFFER};
		float pass_aspect = aspect;  /* the frame buffer's, or the render target's */
		if (pass->target_image >= 0) {
			const struct tsr_image *rt = &sc->images[pass->target_image];
			p.target = TSR_TARGET_TEXTURE;
			p.target_image = (uint32_t)pass->target_image;
			pass_aspect = (float)rt->width / (float)rt->height;
		}
		uint32_t tw, th;  /* the target's size, pixels: the draws' viewport */
		const struct tsr_framebuffer_state fb = tsr_pass_framebuffer(&p, &res, width, height,
									     &tw, &th);
		p.clear.mask = (uint8_t)(fb.color != TSR_ATTACH_NONE ? TSR_CLEAR_COLOR : 0) |
			       TSR_CLEAR_DEPTH;
		for (int k = 0; k < 4; k++)
			p.clear.color[k] = pass->clear_color[k];
		p.clear.depth = 1.0f;
		TSR_TRY(tsr_commands_pass(c, &p, err));
		for (uint32_t u = 0; u < pass->upload_count; u++)
			if (pass->uploads[u].frame == frame && pass->uploads[u].image >= 0) {
				struct tsr_cmd_event e = {TSR_EVENT_TEXTURE_UPLOAD,
							  (uint32_t)pass->uploads[u].image};
				TSR_TRY(tsr_commands_event(c, &e, err));
			}
		struct tsr_mat4 view, proj;
		tsr_camera_matrices(&pass->camera, frame, pass_aspect, &view, &proj);
		struct tsr_mat4 vp = tsr_m4_mul(proj, view);
		for (uint32_t o = 0; o < pass->object_count; o++) {
			const uint32_t oi = pass->first_object + o;
			const struct tsr_object *obj = &sc->objects[oi];
			struct tsr_mat4 model = tsr_object_model_matrix(obj, frame);
			if (obj->skybox)
				model = tsr_m4_mul(tsr_m4_translate(tsr_camera_eye(&pass->camera,
										    frame)),
						   model);
			struct tsr_mat4 mvp = obj->screen_space
						      ? tsr_m4_mul(tsr_m4_scale(tsr_v3(1.0f / pass_aspect, 1, 1)), model)
						      : tsr_m4_mul(vp, model);
			if (obj->skybox)
				mvp = skybox_mvp(mvp);
			float uv[2];
			tsr_object_uv_offset(obj, frame, uv);
			for (uint32_t k = 0; k < obj->mesh_count; k++) {
				struct tsr_cmd_draw d = {
					.mesh = obj->first_mesh + k,
					.material = tsr_object_mesh_material(sc, pass, oi, k, frame),
					.mvp = mvp,
					.model = model,
					.uv_offset = {uv[0], uv[1]},
				};
				tsr_draw_state_from_material(&d.state, &res, d.mesh, d.material,
							     tw, th, fb);
				TSR_TRY(tsr_commands_draw(c, &d, err));
			}
		}
	}
	return TSR_OK;
}
