#include "frontend/frontend.h"

struct tsr_resources tsr_workload_resources(const struct tsr_scene *sc)
{
	struct tsr_resources r = {sc->mesh_count, sc->meshes, sc->material_count, sc->materials,
				  sc->image_count, sc->images};
	return r;
}

enum tsr_status tsr_workload_commands(const struct tsr_scene *sc, uint32_t frame,
				      float aspect, struct tsr_frame_commands *c,
				      struct tsr_error *err)
{
	tsr_commands_reset(c, frame);
	for (uint32_t pi = 0; pi < sc->pass_count; pi++) {
		const struct tsr_pass *pass = &sc->passes[pi];
		struct tsr_cmd_pass p = {.target = TSR_TARGET_FRAMEBUFFER};
		for (int k = 0; k < 4; k++)
			p.clear_color[k] = pass->clear_color[k];
		TSR_TRY(tsr_commands_pass(c, &p, err));
		for (uint32_t u = 0; u < pass->upload_count; u++)
			if (pass->uploads[u].frame == frame && pass->uploads[u].image >= 0) {
				struct tsr_cmd_event e = {TSR_EVENT_TEXTURE_UPLOAD,
							  (uint32_t)pass->uploads[u].image};
				TSR_TRY(tsr_commands_event(c, &e, err));
			}
		struct tsr_mat4 view, proj;
		tsr_camera_matrices(&pass->camera, frame, aspect, &view, &proj);
		struct tsr_mat4 vp = tsr_m4_mul(proj, view);
		for (uint32_t o = 0; o < pass->object_count; o++) {
			const uint32_t oi = pass->first_object + o;
			const struct tsr_object *obj = &sc->objects[oi];
			struct tsr_mat4 model = tsr_object_model_matrix(obj, frame);
			struct tsr_mat4 mvp = tsr_m4_mul(vp, model);
			for (uint32_t k = 0; k < obj->mesh_count; k++) {
				struct tsr_cmd_draw d = {
					.mesh = obj->first_mesh + k,
					.material = tsr_object_mesh_material(sc, pass, oi, k, frame),
					.mvp = mvp,
					.model = model,
				};
				TSR_TRY(tsr_commands_draw(c, &d, err));
			}
		}
	}
	return TSR_OK;
}
