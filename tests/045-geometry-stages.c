/*
 * 045-geometry-stages.c - the Geometry Pipeline's stages as units
 * (src/geometry: geometry.h, queue.h): the bounded queue between stages
 * (full, empty, wrap-around, FIFO order), and the stages driven one work
 * item at a time under three schedules against the functional mode
 * (tsr_geometry_draw, back to back):
 *   - downstream first (the functional mode's order): the same primitives,
 *     the same counters and the very same memory accesses (every cache's
 *     counters equal);
 *   - upstream first (queues fill up and stages stall on full outputs) and
 *     a pseudo-random choice among ready stages: the same primitives, the
 *     same geometry counters and the same number of memory accesses.
 * The mesh is pseudo-random triangles around a perspective camera, so
 * some are culled (outside, back-facing, tiny), some clipped (behind the
 * near plane, beyond the guard band), and indices reuse recent vertices
 * (post-transform cache hits); two draw calls with different materials.
 * A program draw's points and lines: their squares and parallelograms as
 * two triangles each, clipped by the vertex or against the frustum.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "geometry/geometry.h"
#include "core/ring.h"
#include "memory/cache.h"
#include "memory/memsys.h"

/* ---- the work-item ring (core/ring.h) between the stages ---- */

static void test_queue_full_empty_wrap(void **state)
{
	(void)state;
	struct tsr_ring q;
	struct tsr_error err;
	assert_int_equal(tsr_ring_init(&q, 3, sizeof(uint32_t), &err), TSR_OK);
	assert_int_equal(tsr_ring_capacity(&q), 4);  /* rounded up to a power of two */
	assert_null(tsr_ring_front(&q));
	assert_int_equal(tsr_ring_count(&q), 0);
	assert_int_equal(tsr_ring_room(&q), 4);
	uint32_t next_in = 0, next_out = 0;
	/* fill: four pushes succeed, the fifth finds the queue full */
	for (int i = 0; i < 4; i++)
		*(uint32_t *)tsr_ring_push(&q) = next_in++;
	assert_null(tsr_ring_push(&q));
	assert_int_equal(tsr_ring_count(&q), 4);
	assert_int_equal(tsr_ring_room(&q), 0);
	/* rounds of pop 3, push 3: the ring wraps many times, order stays FIFO */
	for (int round = 0; round < 10; round++) {
		for (int i = 0; i < 3; i++) {
			assert_int_equal(*(uint32_t *)tsr_ring_front(&q), next_out++);
			tsr_ring_pop(&q);
		}
		assert_int_equal(tsr_ring_count(&q), 1);
		for (int i = 0; i < 3; i++)
			*(uint32_t *)tsr_ring_push(&q) = next_in++;
		assert_null(tsr_ring_push(&q));
	}
	/* empty it */
	while (tsr_ring_count(&q)) {
		assert_int_equal(*(uint32_t *)tsr_ring_front(&q), next_out++);
		tsr_ring_pop(&q);
	}
	assert_int_equal(next_out, next_in);
	assert_null(tsr_ring_front(&q));
	*(uint32_t *)tsr_ring_push(&q) = 7;
	tsr_ring_clear(&q);
	assert_null(tsr_ring_front(&q));
	assert_int_equal(tsr_ring_room(&q), 4);
	/* pops leave the back slot where it is; an emptying pop_rewind restarts at slot 0 */
	*(uint32_t *)tsr_ring_push(&q) = 1;
	*(uint32_t *)tsr_ring_push(&q) = 2;
	void *back = tsr_ring_back(&q);
	assert_ptr_not_equal(back, q.slots);
	tsr_ring_pop(&q);
	assert_ptr_equal(tsr_ring_back(&q), back);
	tsr_ring_pop_rewind(&q);
	assert_int_equal(tsr_ring_count(&q), 0);
	assert_ptr_equal(tsr_ring_back(&q), q.slots);
	tsr_ring_release(&q);
	assert_null(q.slots);
	/* impossible sizes are refused with an empty ring */
	assert_int_equal(tsr_ring_init(&q, 0, 4, &err), TSR_ERR_LIMIT);
	assert_int_equal(tsr_ring_init(&q, 4, 0, &err), TSR_ERR_LIMIT);
	assert_null(q.slots);
	tsr_ring_release(&q);
}

/* ---- the stages ---- */

#define VERTS 400
#define TRIS 700

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static float unit(uint32_t *s)
{
	return (float)(lcg(s) & 0xffff) / 65535.0f;  /* 0..1 */
}

struct world {
	struct tsr_mesh mesh;
	struct tsr_material mat[2];
	float pos[3 * VERTS], nrm[3 * VERTS], uv[2 * VERTS];
	uint32_t idx[3 * TRIS];
	struct tsr_draw draw[2];
};

static struct world *world_new(void)
{
	struct world *w = calloc(1, sizeof(*w));
	assert_non_null(w);
	uint32_t s = 12345;
	for (int v = 0; v < VERTS; v++) {
		/* x, y in [-30, 30], z in [-60, 8]: some behind the camera at z = 5 */
		w->pos[3 * v] = unit(&s) * 60.0f - 30.0f;
		w->pos[3 * v + 1] = unit(&s) * 60.0f - 30.0f;
		w->pos[3 * v + 2] = unit(&s) * 68.0f - 60.0f;
		w->nrm[3 * v] = unit(&s) - 0.5f;
		w->nrm[3 * v + 1] = unit(&s) - 0.5f;
		w->nrm[3 * v + 2] = 1.0f;
		w->uv[2 * v] = unit(&s);
		w->uv[2 * v + 1] = unit(&s);
	}
	/* indices near a moving base: recently used vertices come back */
	for (int i = 0; i < 3 * TRIS; i++)
		w->idx[i] = (uint32_t)((i / 2 + lcg(&s) % 12) % VERTS);
	w->mesh = (struct tsr_mesh){.vertex_count = VERTS, .positions = w->pos,
				    .normals = w->nrm, .texcoords = w->uv,
				    .index_count = 3 * TRIS, .indices = w->idx};
	w->mat[0] = (struct tsr_material){.texture = -1, .lit = 1, .varyings = 1,
					  .vertex_shader_instructions = 24};
	w->mat[1] = (struct tsr_material){.texture = -1, .lit = 1, .double_sided = 1,
					  .varyings = 3, .vertex_shader_instructions = 40};
	struct tsr_mat4 proj = tsr_m4_perspective(60.0f, 2.0f, 0.5f, 100.0f);
	for (int k = 0; k < 2; k++) {
		struct tsr_mat4 model = tsr_m4_rotate_xyz_deg(tsr_v3(0.0f, 10.0f * (float)k, 0.0f));
		struct tsr_mat4 view = tsr_m4_look_at(tsr_v3(0.0f, 0.0f, 5.0f), tsr_v3(0.0f, 0.0f, 0.0f),
						      tsr_v3(0.0f, 1.0f, 0.0f));
		w->draw[k] = (struct tsr_draw){
			.mesh = &w->mesh, .material = &w->mat[k], .material_index = (uint32_t)k,
			.draw_id = (uint32_t)k, .mvp = tsr_m4_mul(proj, tsr_m4_mul(view, model)),
			.model = model, .ib_base = 0x100000, .index_bytes = 2,
			.vb_base = 0x200000, .vs_base = 0x300000 + 0x1000 * (uint64_t)k,
			.vs_bytes = 8 * w->mat[k].vertex_shader_instructions,
			.cull = {.enable = !w->mat[k].double_sided},
			/* the whole 320 x 160 screen of run_draws(), depth range [0, 1] */
			.viewport = {.width = 320, .height = 160, .depth_far = 1.0f}};
	}
	return w;
}

enum schedule { DOWNSTREAM_FIRST, UPSTREAM_FIRST, RANDOM, BACK_TO_BACK };

struct run {
	struct tsr_gpu_config cfg;
	struct tsr_memsys *mem;
	struct tsr_geometry *geo;
	struct tsr_prim_array prims;
	struct tsr_geometry_stats st;
	uint32_t most_pending[TSR_GEO_STAGE_COUNT];  /* deepest each queue got */
};

static void run_draws(struct run *r, const struct world *w, enum schedule how)
{
	struct tsr_error err;
	tsr_config_defaults(&r->cfg);
	assert_int_equal(tsr_memsys_create(&r->cfg.mem, &r->mem, &err), TSR_OK);
	struct tsr_geometry_config gc = {320, 160, r->cfg.mem.cores, 8};
	assert_int_equal(tsr_geometry_create(&gc, &r->geo, &err), TSR_OK);
	tsr_geometry_begin_frame(r->geo);
	uint32_t seed = 99;
	for (int k = 0; k < 2; k++) {
		if (how == BACK_TO_BACK) {
			assert_int_equal(tsr_geometry_draw(r->geo, &w->draw[k], r->mem, &r->prims,
							   &r->st, &err), TSR_OK);
			continue;
		}
		assert_int_equal(tsr_geometry_begin_draw(r->geo, &w->draw[k], r->mem, &r->prims,
							 &r->st, &err), TSR_OK);
		/* a draw call in flight refuses the next one */
		assert_int_equal(tsr_geometry_begin_draw(r->geo, &w->draw[k], r->mem, &r->prims,
							 &r->st, &err), TSR_ERR_INTERNAL);
		while (tsr_geometry_busy(r->geo)) {
			int ready[TSR_GEO_STAGE_COUNT], n = 0;
			for (int s = 0; s < TSR_GEO_STAGE_COUNT; s++) {
				uint32_t p = tsr_geometry_stage_pending(r->geo, (enum tsr_geometry_stage)s);
				if (s && p > r->most_pending[s])
					r->most_pending[s] = p;
				if (tsr_geometry_stage_ready(r->geo, (enum tsr_geometry_stage)s))
					ready[n++] = s;
			}
			assert_true(n > 0);  /* no deadlock */
			int s = how == DOWNSTREAM_FIRST ? ready[n - 1]
				: how == UPSTREAM_FIRST ? ready[0] : ready[lcg(&seed) % (uint32_t)n];
			assert_int_equal(tsr_geometry_stage_step(r->geo, (enum tsr_geometry_stage)s, &err),
					 TSR_OK);
		}
		/* nothing left to do: every stage refuses a step */
		for (int s = 0; s < TSR_GEO_STAGE_COUNT; s++) {
			assert_false(tsr_geometry_stage_ready(r->geo, (enum tsr_geometry_stage)s));
			assert_int_equal(tsr_geometry_stage_step(r->geo, (enum tsr_geometry_stage)s, &err),
					 TSR_ERR_INTERNAL);
		}
	}
}

static void run_free(struct run *r)
{
	tsr_prim_array_release(&r->prims);
	tsr_geometry_destroy(r->geo);
	tsr_memsys_destroy(r->mem);
}

static void assert_same_primitives(const struct run *a, const struct run *b)
{
	assert_int_equal(a->prims.count, b->prims.count);
	for (uint32_t i = 0; i < a->prims.count; i++) {
		const struct tsr_primitive *p = &a->prims.prims[i], *q = &b->prims.prims[i];
		assert_memory_equal(p->X, q->X, sizeof(p->X));
		assert_memory_equal(p->Y, q->Y, sizeof(p->Y));
		assert_int_equal(p->area2, q->area2);
		assert_memory_equal(p->z, q->z, sizeof(p->z));
		assert_memory_equal(p->inv_w, q->inv_w, sizeof(p->inv_w));
		assert_memory_equal(p->u, q->u, sizeof(p->u));
		assert_memory_equal(p->v, q->v, sizeof(p->v));
		assert_memory_equal(p->shade, q->shade, sizeof(p->shade));
		assert_int_equal(p->min_x, q->min_x);
		assert_int_equal(p->min_y, q->min_y);
		assert_int_equal(p->max_x, q->max_x);
		assert_int_equal(p->max_y, q->max_y);
		assert_int_equal(p->material, q->material);
		assert_int_equal(p->draw, q->draw);
		assert_int_equal(p->attributes, q->attributes);
	}
	assert_memory_equal(&a->st, &b->st, sizeof(a->st));
	assert_int_equal(tsr_memsys_accesses(a->mem), tsr_memsys_accesses(b->mem));
}

static void assert_same_memory_accesses(const struct run *a, const struct run *b)
{
	uint32_t n = tsr_memsys_cache_count(a->mem);
	assert_int_equal(n, tsr_memsys_cache_count(b->mem));
	for (uint32_t i = 0; i < n; i++)
		for (int s = 0; s < TSR_STREAM_COUNT; s++)
			assert_memory_equal(tsr_cache_counters_of(tsr_memsys_cache(a->mem, i), (enum tsr_stream)s),
					    tsr_cache_counters_of(tsr_memsys_cache(b->mem, i), (enum tsr_stream)s),
					    sizeof(struct tsr_cache_counters));
}

static void test_stages_one_item_at_a_time(void **state)
{
	(void)state;
	struct world *w = world_new();
	struct run *r = calloc(4, sizeof(*r));
	assert_non_null(r);
	run_draws(&r[BACK_TO_BACK], w, BACK_TO_BACK);
	const struct tsr_geometry_stats *st = &r[BACK_TO_BACK].st;
	/* the mesh exercises every path */
	assert_int_equal(st->draws, 2);
	assert_int_equal(st->indices_fetched, 2 * 3 * TRIS);
	assert_int_equal(st->primitives_in, 2 * TRIS);
	assert_true(st->vertices_fetched < st->indices_fetched);  /* post-transform cache hits */
	assert_true(st->primitives_clipped > 0);
	assert_true(st->primitives_culled > 0);
	assert_true(r[BACK_TO_BACK].prims.count > 50);
	assert_true(r[BACK_TO_BACK].prims.count > st->primitives_in - st->primitives_culled -
						       st->primitives_clipped);  /* fans */
	for (int how = DOWNSTREAM_FIRST; how <= RANDOM; how++) {
		run_draws(&r[how], w, (enum schedule)how);
		assert_same_primitives(&r[BACK_TO_BACK], &r[how]);
	}
	assert_same_memory_accesses(&r[BACK_TO_BACK], &r[DOWNSTREAM_FIRST]);
	/* downstream first: one work item at a time in each queue (clipper: a fan) */
	assert_int_equal(r[DOWNSTREAM_FIRST].most_pending[TSR_GEO_VERTEX_FETCH], 1);
	assert_true(r[DOWNSTREAM_FIRST].most_pending[TSR_GEO_CULL] > 1);
	/* upstream first: the queues fill and the stages stall on full outputs */
	for (int s = TSR_GEO_VERTEX_FETCH; s <= TSR_GEO_CLIP; s++)
		assert_true(r[UPSTREAM_FIRST].most_pending[s] >= 16);
	for (int how = 0; how < 4; how++)
		run_free(&r[how]);
	free(r);
	free(w);
}

/*
 * A program draw (struct tsr_vertex_input): a vertex program that passes
 * its position through and its texture coordinates on, over attribute
 * arrays of the world's positions and texcoords, makes the primitives of
 * the fixed vertex shading with an identity matrix (positions in clip
 * space, about a third of the triangles clipped by the near and far
 * planes): the same screen positions, depths and 1/w, and varyings equal
 * to the fixed path's u and v, clipped vertices and swapped corners
 * included; back to back and one work item at a time alike. The vertex
 * read is one access per array (pos and uv are in different buffers).
 */
static void test_program_draw(void **state)
{
	(void)state;
	struct world *w = world_new();
	uint32_t s = 777;
	for (int v = 0; v < VERTS; v++) {
		w->pos[3 * v] = unit(&s) * 3.0f - 1.5f;
		w->pos[3 * v + 1] = unit(&s) * 3.0f - 1.5f;
		w->pos[3 * v + 2] = unit(&s) * 2.6f - 1.3f;
	}
	w->draw[0].mvp = tsr_m4_identity();
	w->mat[0].lit = 0;
	struct run fixed = {0};
	struct tsr_draw one = w->draw[0];
	struct tsr_error err;
	tsr_config_defaults(&fixed.cfg);
	assert_int_equal(tsr_memsys_create(&fixed.cfg.mem, &fixed.mem, &err), TSR_OK);
	struct tsr_geometry_config gc = {320, 160, fixed.cfg.mem.cores, 8};
	assert_int_equal(tsr_geometry_create(&gc, &fixed.geo, &err), TSR_OK);
	tsr_geometry_begin_frame(fixed.geo);
	assert_int_equal(tsr_geometry_draw(fixed.geo, &one, fixed.mem, &fixed.prims, &fixed.st, &err),
			 TSR_OK);
	assert_true(fixed.st.primitives_clipped > 50);

	static const char *vs = "attribute vec3 pos;\n"
				"attribute vec2 uv;\n"
				"varying vec2 v_uv;\n"
				"void main() { v_uv = uv; gl_Position = vec4(pos, 1.0); }\n";
	static const char *fs = "precision mediump float;\n"
				"varying vec2 v_uv;\n"
				"void main() { gl_FragColor = vec4(v_uv, 0.0, 1.0); }\n";
	struct tsr_shader *sv = NULL, *sf = NULL;
	struct tsr_program *pr = NULL;
	assert_int_equal(tsr_shader_compile(TSR_SHADER_VERTEX, vs, &sv, &err), TSR_OK);
	assert_int_equal(tsr_shader_compile(TSR_SHADER_FRAGMENT, fs, &sf, &err), TSR_OK);
	const struct tsr_attrib_binding bind[2] = {{"pos", 0}, {"uv", 1}};
	assert_int_equal(tsr_program_link(sv, sf, bind, 2, &pr, &err), TSR_OK);
	assert_true(tsr_program_linked(pr));
	struct tsr_shader_exec *x = NULL;
	assert_int_equal(tsr_shader_exec_create(pr, TSR_SHADER_VERTEX, NULL, NULL, &x, &err), TSR_OK);
	struct tsr_vertex_input in = {.program = x, .varying_slots = tsr_program_varying_count(pr),
				      .attrib_count = 2};
	assert_int_equal(in.varying_slots, 1);
	in.attribs[0] = (struct tsr_vertex_stream){.data = (const uint8_t *)w->pos,
						   .address = 0x200000, .stride = 12,
						   .components = 3, .type = TSR_ATTRIB_FLOAT};
	in.attribs[1] = (struct tsr_vertex_stream){.data = (const uint8_t *)w->uv,
						   .address = 0x280000, .stride = 8,
						   .components = 2, .type = TSR_ATTRIB_FLOAT};
	one.input = &in;
	for (int how = 0; how < 2; how++) {
		struct run prog = {0};
		tsr_config_defaults(&prog.cfg);
		assert_int_equal(tsr_memsys_create(&prog.cfg.mem, &prog.mem, &err), TSR_OK);
		assert_int_equal(tsr_geometry_create(&gc, &prog.geo, &err), TSR_OK);
		tsr_geometry_begin_frame(prog.geo);
		if (how == 0) {
			assert_int_equal(tsr_geometry_draw(prog.geo, &one, prog.mem, &prog.prims,
							   &prog.st, &err), TSR_OK);
		} else {
			assert_int_equal(tsr_geometry_begin_draw(prog.geo, &one, prog.mem, &prog.prims,
								 &prog.st, &err), TSR_OK);
			uint32_t seed = 5;
			while (tsr_geometry_busy(prog.geo)) {
				int ready[TSR_GEO_STAGE_COUNT], n = 0;
				for (int st = 0; st < TSR_GEO_STAGE_COUNT; st++)
					if (tsr_geometry_stage_ready(prog.geo, (enum tsr_geometry_stage)st))
						ready[n++] = st;
				assert_true(n > 0);
				assert_int_equal(tsr_geometry_stage_step(prog.geo,
						 (enum tsr_geometry_stage)ready[lcg(&seed) % (uint32_t)n],
						 &err), TSR_OK);
			}
		}
		assert_int_equal(prog.prims.count, fixed.prims.count);
		for (uint32_t i = 0; i < fixed.prims.count; i++) {
			const struct tsr_primitive *p = &fixed.prims.prims[i], *q = &prog.prims.prims[i];
			assert_memory_equal(p->X, q->X, sizeof(p->X));
			assert_memory_equal(p->Y, q->Y, sizeof(p->Y));
			assert_memory_equal(p->z, q->z, sizeof(p->z));
			assert_memory_equal(p->inv_w, q->inv_w, sizeof(p->inv_w));
			assert_null(p->varyings);
			assert_non_null(q->varyings);
			assert_int_equal(q->varying_slots, 1);
			assert_int_equal(q->attributes, 2);
			for (int k = 0; k < 3; k++) {
				assert_float_equal(q->varyings[4 * k], p->u[k], 0);
				assert_float_equal(q->varyings[4 * k + 1], p->v[k], 0);
			}
		}
		assert_int_equal(prog.st.primitives_clipped, fixed.st.primitives_clipped);
		assert_int_equal(prog.st.vertices_fetched, fixed.st.vertices_fetched);
		assert_true(prog.st.vertex_instructions > 0);
		/* two arrays in two buffers: two accesses a vertex fetched, a 12-byte
		 * position split where it crosses a 64-byte line (16 of 64 do) */
		const struct tsr_cache_counters *vc = tsr_cache_counters_of(
			tsr_memsys_cache_by_name(prog.mem, "vertex"), TSR_STREAM_VERTEX);
		assert_true(vc->reads >= 2 * prog.st.vertices_fetched);
		assert_true(vc->reads <= 2 * prog.st.vertices_fetched + prog.st.vertices_fetched / 3);
		run_free(&prog);
	}
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(pr);
	tsr_shader_destroy(sv);
	tsr_shader_destroy(sf);
	run_free(&fixed);
	free(w);
}


/*
 * Points and lines of a program draw (geometry/points_lines.c), on a
 * 320x160 viewport: each point inside the frustum becomes the two
 * triangles of its square (gl_PointSize 5: 5 pixels a side around its
 * window position, kind POINT, its position and size kept, front-facing
 * even with both faces culled), one outside it none although its square
 * would reach the viewport; a line loop's three segments become two
 * triangles each, the one leaving the frustum clipped at its edge; the
 * stepped mode refuses them.
 */
static void test_points_and_lines(void **state)
{
	(void)state;
	static const char *vs = "attribute vec4 pos;\n"
				"varying vec4 v;\n"
				"void main() { v = pos; gl_PointSize = 5.0; gl_Position = pos; }\n";
	static const char *fs = "precision mediump float;\n"
				"varying vec4 v;\n"
				"void main() { gl_FragColor = v; }\n";
	struct tsr_error err;
	struct tsr_shader *sv = NULL, *sf = NULL;
	struct tsr_program *pr = NULL;
	assert_int_equal(tsr_shader_compile(TSR_SHADER_VERTEX, vs, &sv, &err), TSR_OK);
	assert_int_equal(tsr_shader_compile(TSR_SHADER_FRAGMENT, fs, &sf, &err), TSR_OK);
	const struct tsr_attrib_binding bind[1] = {{"pos", 0}};
	assert_int_equal(tsr_program_link(sv, sf, bind, 1, &pr, &err), TSR_OK);
	struct tsr_shader_exec *x = NULL;
	assert_int_equal(tsr_shader_exec_create(pr, TSR_SHADER_VERTEX, NULL, NULL, &x, &err), TSR_OK);
	/* window (x, y down): (80, 40), (336, 80) (outside: x = 1.1), (240, 120) */
	static const float pos[12] = {-0.5f, 0.5f, 0.0f, 1.0f, 1.1f, 0.0f, 0.0f, 1.0f,
				      0.5f, -0.5f, 0.0f, 1.0f};
	static uint32_t idx[3] = {0, 1, 2};
	struct tsr_vertex_input in = {.program = x, .varying_slots = 1, .attrib_count = 1};
	in.attribs[0] = (struct tsr_vertex_stream){.data = (const uint8_t *)pos, .address = 0x200000,
						   .stride = 16, .components = 4,
						   .type = TSR_ATTRIB_FLOAT};
	struct tsr_mesh mesh = {.vertex_count = 3, .index_count = 3, .indices = idx};
	struct tsr_material mat = {.vertex_shader_instructions = 4};
	struct tsr_draw d = {.mesh = &mesh, .material = &mat, .input = &in,
			     .viewport = {.width = 320, .height = 160, .depth_far = 1.0f},
			     .cull = {.enable = 1, .face = TSR_CULL_FRONT_AND_BACK},
			     .assembly = TSR_ASSEMBLE_POINTS};
	struct tsr_geometry_config gc = {320, 160, 1, 8};
	struct run r = {0};
	tsr_config_defaults(&r.cfg);
	assert_int_equal(tsr_memsys_create(&r.cfg.mem, &r.mem, &err), TSR_OK);
	assert_int_equal(tsr_geometry_create(&gc, &r.geo, &err), TSR_OK);
	tsr_geometry_begin_frame(r.geo);
	assert_int_equal(tsr_geometry_draw(r.geo, &d, r.mem, &r.prims, &r.st, &err), TSR_OK);
	assert_int_equal(r.st.points_in, 3);
	assert_int_equal(r.st.point_line_triangles, 4);
	assert_int_equal(r.prims.count, 4);
	const int64_t sub = 256, cx[2] = {80, 240}, cy[2] = {40, 120};
	for (uint32_t i = 0; i < 4; i++) {
		const struct tsr_primitive *p = &r.prims.prims[i];
		const uint32_t k = i / 2;
		assert_int_equal(p->kind, TSR_PRIM_KIND_POINT);
		assert_int_equal(p->front_facing, 1);
		assert_float_equal(p->point[0], (float)cx[k], 0);
		assert_float_equal(p->point[1], (float)cy[k], 0);
		assert_float_equal(p->point[2], 5.0f, 0);
		for (int c = 0; c < 3; c++) {
			assert_true(p->X[c] == cx[k] * sub - 640 || p->X[c] == cx[k] * sub + 640);
			assert_true(p->Y[c] == cy[k] * sub - 640 || p->Y[c] == cy[k] * sub + 640);
			assert_float_equal(p->varyings[4 * c], pos[8 * k], 0);  /* the vertex's */
		}
		/* the bounding box of the centres it may cover: 77.5 .. 82.5, both
		 * ends on its edges (the fill rule takes one of each pair) */
		assert_int_equal(p->min_x, cx[k] - 3);
		assert_int_equal(p->max_x, cx[k] + 2);
		assert_int_equal(p->min_y, cy[k] - 3);
		assert_int_equal(p->max_y, cy[k] + 2);
	}
	/* the loop: (80, 40) -> (336, 80) leaves at x = 320, back, and closes */
	tsr_prim_array_reset(&r.prims);
	memset(&r.st, 0, sizeof(r.st));
	d.assembly = TSR_ASSEMBLE_LINE_LOOP;
	d.line_width = 3;
	assert_int_equal(tsr_geometry_draw(r.geo, &d, r.mem, &r.prims, &r.st, &err), TSR_OK);
	assert_int_equal(r.st.lines_in, 3);
	assert_int_equal(r.st.point_line_triangles, 6);
	assert_int_equal(r.prims.count, 6);
	int64_t most_x = 0;
	for (uint32_t i = 0; i < 6; i++) {
		const struct tsr_primitive *p = &r.prims.prims[i];
		assert_int_equal(p->kind, TSR_PRIM_KIND_LINE);
		for (int c = 0; c < 3; c++)
			most_x = p->X[c] > most_x ? p->X[c] : most_x;
	}
	assert_true(most_x >= 320 * sub - 1 && most_x <= 320 * sub + 1);  /* clipped there */
	/* x-major segments: 3 pixels tall (width 3 along y) */
	const struct tsr_primitive *p = &r.prims.prims[0];
	int64_t lo = p->Y[0], hi = p->Y[0];
	for (int c = 1; c < 3; c++) {
		lo = p->Y[c] < lo ? p->Y[c] : lo;
		hi = p->Y[c] > hi ? p->Y[c] : hi;
	}
	assert_true(hi - lo >= 3 * sub);
	/* one work item at a time: refused */
	tsr_prim_array_reset(&r.prims);
	assert_int_equal(tsr_geometry_begin_draw(r.geo, &d, r.mem, &r.prims, &r.st, &err), TSR_OK);
	enum tsr_status st = TSR_OK;
	for (int guard = 0; guard < 100 && st == TSR_OK && tsr_geometry_busy(r.geo); guard++)
		for (int s = TSR_GEO_STAGE_COUNT - 1; s >= 0 && st == TSR_OK; s--)
			if (tsr_geometry_stage_ready(r.geo, (enum tsr_geometry_stage)s))
				st = tsr_geometry_stage_step(r.geo, (enum tsr_geometry_stage)s, &err);
	assert_int_equal(st, TSR_ERR_UNSUPPORTED);
	run_free(&r);
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(pr);
	tsr_shader_destroy(sv);
	tsr_shader_destroy(sf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue_full_empty_wrap),
		cmocka_unit_test(test_stages_one_item_at_a_time),
		cmocka_unit_test(test_program_draw),
		cmocka_unit_test(test_points_and_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
