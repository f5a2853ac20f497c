/*
 * stages.c - the draw half of a TBR frame's stages as work items (TCOR
 * II-A, Fig. 2): a draw call (Command Processor -> the geometry stages of
 * geometry/geometry.h -> Polygon List Builder, one primitive per work
 * item). The tile half (Tile Fetcher -> Raster Pipeline -> tile flush) is
 * in tile_stages.c. The frame loop (frame_loop.c) runs them back to back;
 * a timing model can drive them one work item at a time without changing
 * what they compute. Techniques are called through their hooks
 * (techniques/technique.h).
 */
#include <string.h>

#include "pipeline/gpu_priv.h"

/* The Primitive Assembly of a glDraw* mode (geometry.h). */
static uint8_t assembly_of(uint8_t mode)
{
	switch (mode) {
	case TSR_PRIM_POINTS: return TSR_ASSEMBLE_POINTS;
	case TSR_PRIM_LINES: return TSR_ASSEMBLE_LINES;
	case TSR_PRIM_LINE_STRIP: return TSR_ASSEMBLE_LINE_STRIP;
	case TSR_PRIM_LINE_LOOP: return TSR_ASSEMBLE_LINE_LOOP;
	case TSR_PRIM_TRIANGLE_STRIP: return TSR_ASSEMBLE_STRIP;
	case TSR_PRIM_TRIANGLE_FAN: return TSR_ASSEMBLE_FAN;
	default: return TSR_ASSEMBLE_LIST;
	}
}

/* A non-antialiased line's width (GL ES 2.0 3.4.2): LINE_WIDTH rounded to
 * the nearest integer, at least 1, at most TSR_LINE_WIDTH_MAX. */
static uint8_t line_width_of(float w)
{
	if (!(w >= 1.5f))  /* NaN too */
		return 1;
	if (w >= TSR_LINE_WIDTH_MAX)
		return (uint8_t)TSR_LINE_WIDTH_MAX;
	return (uint8_t)(w + 0.5f);
}

/*
 * A vertex program's sample instruction (vertex texture fetch, GL ES 2.0
 * 3.8 and GLSL ES 8.7): the draw's texture units as its fragment program
 * sees them, at level of detail 0 or the *Lod function's (a vertex has no
 * derivatives), filtered within that level (a cube map unit's face per
 * vertex, texture/texture.h); its texel lines read through
 * the texture stream of core 0 (the geometry stages' texture unit). The
 * lanes the program does not run sample the first active lane's
 * coordinates. No allocation.
 */
static void vs_sample(void *user, const struct tsr_shader_tex_request *req, float rgba[4][4])
{
	struct tsr_gpu *g = user;
	const struct tsr_shader_binding *b = g->vs_sampling.binding;
	const uint32_t un = req->unit;
	const struct tsr_texture *t = un < TSR_SHADER_MAX_TEXTURE_UNITS ? b->units[un] : NULL;
	const struct tsr_texture *const *faces = t ? b->unit_faces[un] : NULL;
	if (!t || req->cube != (faces != NULL)) {  /* none, or a sampler of the other kind */
		for (int k = 0; k < 4; k++) {
			rgba[k][0] = rgba[k][1] = rgba[k][2] = 0.0f;
			rgba[k][3] = 1.0f;
		}
		return;
	}
	int lane = 0;
	while (lane < 3 && !(req->lane_mask >> lane & 1))
		lane++;
	float u[4], v[4], r[4];
	for (int k = 0; k < 4; k++) {
		const int from = req->lane_mask >> k & 1 ? k : lane;
		u[k] = req->coord[0][from];
		v[k] = req->coord[1][from];
		r[k] = req->coord[2][from];
	}
	/* a vertex shader has no derivatives: level 0, or the *Lod functions' */
	const float lod = req->lod_mode == TSR_SHADER_LOD_EXPLICIT ? req->lod[lane] : 0.0f;
	struct tsr_texel_requests tr;
	if (faces)
		tsr_texture_sample_cube_quad(faces, &b->unit_sampler[un], u, v, r, lane,
					     TSR_LOD_EXPLICIT, lod, rgba, &tr);
	else
		tsr_texture_sample_quad(t, &b->unit_sampler[un], u, v, TSR_LOD_EXPLICIT, lod, rgba,
					&tr);
	struct tsr_memsys *mem = g->vs_sampling.mem;
	tsr_mem_read_lines(mem, tsr_memsys_port(mem, TSR_STREAM_TEXTURE, 0), tr.lines,
			   tr.line_count, TSR_TEXTURE_BLOCK_BYTES, TSR_STREAM_TEXTURE, 0, 0);
}

void tsr_stage_decode_draw(struct tsr_gpu *g, const struct tsr_cmd_draw *cd,
			   uint32_t draw_id, struct tsr_draw *d)
{
	if (cd->program) {
		/* the vertex program samples the units the pass bound for the draw */
		g->vs_sampling.binding = &g->geo->bindings[draw_id];
		g->vs_sampling.mem = g->mem;
		tsr_shader_exec_set_sampler(cd->program->vertex, vs_sample, g);
		/* a program draw: its index stream and attribute arrays at their
		 * raw buffers' addresses (one draw in the geometry stages at a
		 * time: the GPU's one vertex input serves it) */
		const struct tsr_cmd_program *p = cd->program;
		struct tsr_vertex_input *in = &g->vertex_input;
		in->program = p->vertex;
		in->varying_slots = p->varying_slots;
		in->attrib_count = p->attrib_count;
		for (uint32_t a = 0; a < p->attrib_count; a++) {
			const struct tsr_cmd_attrib *x = &p->attribs[a];
			in->attribs[a] = (struct tsr_vertex_stream){
				.data = x->data,
				.address = x->data ? g->meshes[x->buffer].vb_base + x->offset : 0,
				.stride = x->stride,
				.components = x->components,
				.type = x->type,
				.normalized = x->normalized,
			};
			memcpy(in->attribs[a].value, x->value, sizeof(x->value));
		}
		*d = (struct tsr_draw){
			.mesh = &p->indices,
			.material = &g->res.materials[cd->material],
			.material_index = cd->material,
			.draw_id = draw_id,
			.ib_base = p->index_bytes ? g->meshes[p->index_buffer].ib_base + p->index_offset
						  : 0,
			.index_bytes = p->index_bytes,
			.vs_base = g->programs[cd->material].vs_base,
			.vs_bytes = g->programs[cd->material].vs_bytes,
			.cull = cd->state.cull,
			.viewport = cd->state.viewport,
			.polygon_offset = cd->state.polygon_offset,
			.assembly = assembly_of(cd->state.mode),
			.line_width = line_width_of(cd->state.line_width),
			.input = in,
		};
		return;
	}
	*d = (struct tsr_draw){
		.mesh = &g->res.meshes[cd->mesh],
		.material = &g->res.materials[cd->material],
		.material_index = cd->material,
		.draw_id = draw_id,
		.mvp = cd->mvp,
		.model = cd->model,
		.uv_offset = {cd->uv_offset[0], cd->uv_offset[1]},
		.ib_base = g->meshes[cd->mesh].ib_base,
		.index_bytes = g->meshes[cd->mesh].index_bytes,
		.vb_base = g->meshes[cd->mesh].vb_base,
		.vs_base = g->programs[cd->material].vs_base,
		.vs_bytes = g->programs[cd->material].vs_bytes,
		.cull = cd->state.cull,
		.viewport = cd->state.viewport,
		.polygon_offset = cd->state.polygon_offset,
	};
}

enum tsr_status tsr_stage_bin(struct tsr_gpu *g, struct tsr_frame_stats *st,
			      struct tsr_error *err)
{
	struct frame_slot *f = g->geo;
	const uint32_t i = f->binned++;
	uint32_t tiles;
	TSR_TRY(tsr_plb_bin(f->pb, &f->prims.prims[i], i, g->mem, &tiles, &st->tiling, err));
	if (!tiles) {
		st->geometry.primitives_culled++;
		return TSR_OK;
	}
	st->geometry.primitives_binned++;
	if (!g->target_tex)  /* the techniques see the frame-buffer pass (technique.h) */
		tsr_technique_set_bin(&g->techniques, i, tsr_plb_overlapped_tiles(f->pb), tiles);
	return TSR_OK;
}

enum tsr_status tsr_stage_draw(struct tsr_gpu *g, const struct tsr_cmd_draw *cd,
			       uint32_t draw_id, struct tsr_frame_stats *st,
			       struct tsr_error *err)
{
	struct tsr_draw d;
	tsr_stage_decode_draw(g, cd, draw_id, &d);
	/* the Command Processor sends the draw call's constants */
	if (!g->target_tex)  /* the techniques see the frame-buffer pass (technique.h) */
		tsr_technique_set_draw(&g->techniques, cd, d.material);
	/* geometry stages, back to back: the draw call's primitives join the frame's */
	TSR_TRY(tsr_geometry_draw(g->geom, &d, g->mem, &g->geo->prims, &st->geometry, err));
	/* Polygon List Builder: the draw call's primitives, in program order */
	while (g->geo->binned < g->geo->prims.count)
		TSR_TRY(tsr_stage_bin(g, st, err));
	return TSR_OK;
}
