/*
 * geometry.c - the Geometry Pipeline as a whole (geometry.h): creation of
 * its state and queues, the start of a draw call, the stages driven one
 * work item at a time (readiness, step, pending work) and the functional
 * mode that runs them back to back. The stages themselves are
 * command_processor.c, vertex_fetch.c, vertex_shader.c, assembly.c,
 * clip.c and cull.c.
 */
#include "geometry/geometry_priv.h"

#include <stdlib.h>
#include <string.h>

#include "core/array.h"

/* Bytes of the work item in the input queue of each stage. */
static const uint32_t input_item_bytes[TSR_GEO_STAGE_COUNT] = {
	[TSR_GEO_COMMAND_PROCESSOR] = 0,  /* its input is the latched draw call */
	[TSR_GEO_VERTEX_FETCH] = sizeof(struct tsr_geo_index_item),
	[TSR_GEO_VERTEX_SHADER] = sizeof(struct tsr_geo_vertex_item),
	[TSR_GEO_ASSEMBLY] = sizeof(struct tsr_geo_shaded_item),
	[TSR_GEO_CLIP] = sizeof(struct tsr_geo_triangle_item),
	[TSR_GEO_CULL] = sizeof(struct tsr_geo_triangle_item),
};

static const char *const stage_names[TSR_GEO_STAGE_COUNT] = {
	[TSR_GEO_COMMAND_PROCESSOR] = "command_processor",
	[TSR_GEO_VERTEX_FETCH] = "vertex_fetch",
	[TSR_GEO_VERTEX_SHADER] = "vertex_shader",
	[TSR_GEO_ASSEMBLY] = "primitive_assembly",
	[TSR_GEO_CLIP] = "clipper",
	[TSR_GEO_CULL] = "cull_viewport",
};

const char *tsr_geometry_stage_name(enum tsr_geometry_stage s)
{
	return (unsigned)s < TSR_GEO_STAGE_COUNT ? stage_names[s] : NULL;
}

enum tsr_status tsr_geometry_create(const struct tsr_geometry_config *cfg,
				    struct tsr_geometry **out,
				    struct tsr_error *err)
{
	*out = NULL;
	if (cfg->cores < 1 || cfg->cores > TSR_MAX_CORES)
		return tsr_error_set(err, TSR_ERR_CONFIG, "geometry: %u shader cores, not 1..%d",
				     cfg->cores, TSR_MAX_CORES);
	struct tsr_geometry *g = calloc(1, sizeof(*g));
	if (!g)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	g->cfg = *cfg;
	g->ptc_entries = cfg->post_transform_cache_entries;
	if (g->ptc_entries) {
		g->ptc = calloc(g->ptc_entries, sizeof(*g->ptc));
		if (!g->ptc) {
			tsr_geometry_destroy(g);
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
		}
	}
	for (int s = TSR_GEO_VERTEX_FETCH; s < TSR_GEO_STAGE_COUNT; s++) {
		enum tsr_status st = tsr_ring_init(&g->queue[s], TSR_GEO_QUEUE_ITEMS,
							input_item_bytes[s], err);
		if (st != TSR_OK) {
			tsr_geometry_destroy(g);
			return st;
		}
	}
	*out = g;
	return TSR_OK;
}

void tsr_geometry_destroy(struct tsr_geometry *g)
{
	if (!g)
		return;
	for (int s = 0; s < TSR_GEO_STAGE_COUNT; s++)
		tsr_ring_release(&g->queue[s]);
	free(g->ptc);
	free(g->ptc_held);
	free(g->shaded);
	free(g->vs_done);
	free(g->vary);
	free(g);
}

void tsr_geometry_begin_frame(struct tsr_geometry *g)
{
	g->shading_core = 0;
	g->shading_group_fill = 0;
}

void tsr_prim_array_release(struct tsr_prim_array *a)
{
	free(a->prims);
	a->prims = NULL;
	a->count = a->capacity = 0;
	for (uint32_t i = 0; i < a->vary.chunk_count; i++)
		free(a->vary.chunks[i]);
	free(a->vary.chunks);
	memset(&a->vary, 0, sizeof(a->vary));
}

void tsr_prim_array_reset(struct tsr_prim_array *a)
{
	a->count = 0;
	a->vary.current = 0;
	a->vary.used = 0;
}

float *tsr_vary_alloc(struct tsr_vary_arena *v, uint32_t floats)
{
	if (floats > TSR_VARY_CHUNK_FLOATS)
		return NULL;
	if (v->current < v->chunk_count && v->used + floats > TSR_VARY_CHUNK_FLOATS) {
		v->current++;
		v->used = 0;
	}
	if (v->current == v->chunk_count) {
		float **c = tsr_array_grow(v->chunks, &v->chunk_cap, v->chunk_count + 1,
					   sizeof(*c));
		if (!c)
			return NULL;
		v->chunks = c;
		c[v->chunk_count] = malloc(TSR_VARY_CHUNK_FLOATS * sizeof(float));
		if (!c[v->chunk_count])
			return NULL;
		v->chunk_count++;
		v->used = 0;
	}
	float *r = v->chunks[v->current] + v->used;
	v->used += floats;
	return r;
}

int tsr_geometry_busy(const struct tsr_geometry *g)
{
	if (g->draw.mesh && g->next_index < g->draw.mesh->index_count)
		return 1;
	for (int s = TSR_GEO_VERTEX_FETCH; s < TSR_GEO_STAGE_COUNT; s++)
		if (tsr_ring_count(&g->queue[s]))
			return 1;
	return 0;
}

enum tsr_status tsr_geometry_begin_draw(struct tsr_geometry *g, const struct tsr_draw *d,
					struct tsr_memsys *mem, struct tsr_prim_array *out,
					struct tsr_geometry_stats *st, struct tsr_error *err)
{
	if (tsr_geometry_busy(g))
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "draw %u starts before draw %u has left the geometry pipeline",
				     d->draw_id, g->draw.draw_id);
	g->draw = *d;
	/* the draw's index stream descriptor, kept: a driver's (a program
	 * draw's) goes with its frame */
	g->mesh = *d->mesh;
	g->draw.mesh = &g->mesh;
	g->mem = mem;
	g->out = out;
	g->st = st;
	g->index_port = tsr_memsys_port(mem, TSR_STREAM_INDEX, 0);
	g->vertex_port = tsr_memsys_port(mem, TSR_STREAM_VERTEX, 0);
	for (uint32_t c = 0; c < g->cfg.cores; c++)
		g->instruction_port[c] = tsr_memsys_port(mem, TSR_STREAM_INSTRUCTION, c);
	enum tsr_status s = tsr_geo_vf_begin(g, err);
	if (s == TSR_OK)
		s = tsr_geo_vs_begin(g, err);
	if (s != TSR_OK) {
		g->draw.mesh = NULL;  /* nothing in flight */
		return s;
	}
	tsr_geo_cp_begin(g);
	tsr_geo_pa_begin(g);
	return TSR_OK;
}

int tsr_geometry_stage_ready(const struct tsr_geometry *g, enum tsr_geometry_stage s)
{
	if (s == TSR_GEO_COMMAND_PROCESSOR)
		return g->draw.mesh && g->next_index < g->draw.mesh->index_count &&
		       tsr_ring_room(&g->queue[TSR_GEO_VERTEX_FETCH]) > 0;
	if ((unsigned)s >= TSR_GEO_STAGE_COUNT || !tsr_ring_count(&g->queue[s]))
		return 0;
	return s == TSR_GEO_CULL || tsr_ring_room(&g->queue[s + 1]) >= tsr_geo_output_need(s);
}

uint32_t tsr_geometry_stage_pending(const struct tsr_geometry *g, enum tsr_geometry_stage s)
{
	if (s == TSR_GEO_COMMAND_PROCESSOR)
		return g->draw.mesh ? g->draw.mesh->index_count - g->next_index : 0;
	return (unsigned)s < TSR_GEO_STAGE_COUNT ? tsr_ring_count(&g->queue[s]) : 0;
}

enum tsr_status tsr_geometry_stage_step(struct tsr_geometry *g, enum tsr_geometry_stage s,
					struct tsr_error *err)
{
	if (!tsr_geometry_stage_ready(g, s))
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "geometry stage %s stepped with no work item or no room for "
				     "its output", tsr_geometry_stage_name(s) ? tsr_geometry_stage_name(s) : "?");
	switch (s) {
	case TSR_GEO_COMMAND_PROCESSOR: tsr_geo_cp_step(g); break;
	case TSR_GEO_VERTEX_FETCH: tsr_geo_vf_step(g); break;
	case TSR_GEO_VERTEX_SHADER: tsr_geo_vs_step(g); break;
	case TSR_GEO_ASSEMBLY:
		if (g->draw.assembly >= TSR_ASSEMBLE_POINTS)
			return tsr_error_set(err, TSR_ERR_UNSUPPORTED,
					     "points and lines are assembled in the functional "
					     "mode only (tsr_geometry_draw)");
		tsr_geo_pa_step(g);
		break;
	case TSR_GEO_CLIP:
		tsr_geo_clip_step(g);
		if (g->vary_failed)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for varyings");
		break;
	case TSR_GEO_CULL: return tsr_geo_cull_step(g, err);
	case TSR_GEO_STAGE_COUNT: break;
	}
	return TSR_OK;
}

/*
 * The functional mode's work on the triangle whose corners v Primitive
 * Assembly has just closed: the Clipper, then culling of it or of its fan.
 */
enum tsr_status tsr_geo_clip_and_cull(struct tsr_geometry *g,
				      const struct tsr_clip_vertex *const v[3],
				      struct tsr_error *err)
{
	g->st->primitives_in++;
	struct tsr_clip_vertex poly[TSR_GEO_CLIP_MAX_VERTICES];
	const uint32_t n = tsr_geo_clip_triangle(g, v, poly);
	if (g->vary_failed)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for varyings");
	if (n == TSR_GEO_CLIP_PASS)
		return tsr_geo_cull_triangle(g, v, err);
	for (uint32_t k = 1; k + 1 < n; k++) {
		const struct tsr_clip_vertex *const f[3] = {&poly[0], &poly[k], &poly[k + 1]};
		TSR_TRY(tsr_geo_cull_triangle(g, f, err));
	}
	return TSR_OK;
}

/*
 * Primitive Assembly of points and lines (the functional mode's): a point
 * per vertex; a segment per pair of LINES (a trailing odd vertex dropped),
 * per vertex after the first of LINE_STRIP and LINE_LOOP (the loop's
 * closing segment after the last: tsr_geometry_draw).
 */
static enum tsr_status points_lines(struct tsr_geometry *g, const struct tsr_clip_vertex *v,
				    struct tsr_error *err)
{
	if (g->draw.assembly == TSR_ASSEMBLE_POINTS)
		return tsr_geo_point(g, v, err);
	const uint32_t n = g->pa_seen++;
	if (n == 0)
		g->pa_first = *v;
	enum tsr_status s = TSR_OK;
	if (n > 0 && (g->draw.assembly != TSR_ASSEMBLE_LINES || (n & 1)))
		s = tsr_geo_line(g, &g->pa_keep[0], v, err);
	g->pa_keep[0] = *v;
	return s;
}

/* indices ahead of the one pushed whose vertex data the host prefetches */
#define TSR_GEO_PREFETCH 8u

enum tsr_status tsr_geometry_draw(struct tsr_geometry *g,
				  const struct tsr_draw *d,
				  struct tsr_memsys *mem,
				  struct tsr_prim_array *out,
				  struct tsr_geometry_stats *st,
				  struct tsr_error *err)
{
	TSR_TRY(tsr_geometry_begin_draw(g, d, mem, out, st, err));
	const uint32_t n = d->mesh->index_count;
	const struct tsr_mesh *m = d->mesh;
	/*
	 * Each index runs through every stage before the next one, so the
	 * queues stay empty and are skipped: the stages' work functions are
	 * called back to back, and a triangle's corners are its shaded
	 * vertices in place (a vertex shaded again while it is a corner gets
	 * the same value: shading depends on the draw call and vertex only).
	 * Memory is accessed index by index as the stages would, in order.
	 */
	const struct tsr_clip_vertex *corner[3];
	uint32_t corners = 0;
	for (uint32_t i = 0; i < n; i++) {
		/* the host's caches only: the vertex data of the index a few
		 * steps ahead, read by the vertex shader (or its hit) then */
		if (i + TSR_GEO_PREFETCH < n) {
			const uint32_t ahead = m->indices[i + TSR_GEO_PREFETCH];
			if (ahead < m->vertex_count && m->positions) {
				__builtin_prefetch(&m->positions[3 * (size_t)ahead]);
				if (m->normals)
					__builtin_prefetch(&m->normals[3 * (size_t)ahead]);
				if (m->texcoords)
					__builtin_prefetch(&m->texcoords[2 * (size_t)ahead]);
				if (ahead < g->shaded_cap)
					__builtin_prefetch(&g->shaded[ahead]);
				if (ahead < g->ptc_held_cap)
					__builtin_prefetch(&g->ptc_held[ahead]);
				/* and the vertex cache's set the fetch will look up */
				tsr_mem_prefetch(mem, g->vertex_port,
						 d->vb_base + (uint64_t)ahead * TSR_VERTEX_STRIDE);
			}
		}
		g->next_index = i + 1;  /* the Command Processor sends index i */
		uint32_t hit;
		const uint32_t v = tsr_geo_vf_fetch(g, i, &hit);
		if (!hit)
			tsr_geo_vs_shade(g, v);
		enum tsr_status s;
		if (d->assembly >= TSR_ASSEMBLE_POINTS) {
			s = points_lines(g, &g->shaded[v], err);
			if (s != TSR_OK) {
				g->next_index = n;
				return s;
			}
			continue;
		}
		if (d->assembly != TSR_ASSEMBLE_LIST) {
			struct tsr_clip_vertex tri[3];
			if (!tsr_geo_pa_strip(g, &g->shaded[v], tri))
				continue;
			const struct tsr_clip_vertex *const t[3] = {&tri[0], &tri[1], &tri[2]};
			s = tsr_geo_clip_and_cull(g, t, err);
			if (s != TSR_OK) {
				g->next_index = n;
				return s;
			}
			continue;
		}
		corner[corners++] = &g->shaded[v];
		if (corners < 3)
			continue;
		corners = 0;
		s = tsr_geo_clip_and_cull(g, corner, err);
		if (s != TSR_OK) {
			g->next_index = n;  /* nothing in flight: the next draw call can start */
			return s;
		}
	}
	/* a line loop's closing segment, from its last vertex to its first */
	if (d->assembly == TSR_ASSEMBLE_LINE_LOOP && g->pa_seen >= 2)
		return tsr_geo_line(g, &g->pa_keep[0], &g->pa_first, err);
	return TSR_OK;
}

void tsr_geometry_set_viewport(struct tsr_geometry *g, uint32_t width, uint32_t height)
{
	g->cfg.width = width;
	g->cfg.height = height;
}
