/*
 * vertex_fetch.c - Vertex Fetch (TCOR II-A, RE II): index-driven, as in
 * current mobile GPUs. For each index position: the index is read from the
 * index buffer through the vertex cache (stream "index"); the
 * post-transform cache of the last N shaded vertices (FIFO of vertex
 * indices, flushed between draw calls) is looked up; on a miss the
 * vertex's interleaved attributes (TSR_VERTEX_STRIDE bytes, stream
 * "vertex") are read through the vertex cache and the vertex is sent to
 * be shaded, its cache entry taken at once. Work item: an index position
 * in, a vertex to shade or a hit out.
 */
#include "geometry/geometry_priv.h"

static int ptc_lookup(const struct tsr_geometry *g, uint32_t idx)
{
	for (uint32_t i = 0; i < g->ptc_fill; i++)
		if (g->ptc[i] == idx)
			return 1;
	return 0;
}

static void ptc_insert(struct tsr_geometry *g, uint32_t idx)
{
	if (!g->ptc_entries)
		return;
	g->ptc[g->ptc_next] = idx;
	g->ptc_next = (g->ptc_next + 1) % g->ptc_entries;
	if (g->ptc_fill < g->ptc_entries)
		g->ptc_fill++;
}

void tsr_geo_vf_begin(struct tsr_geometry *g)
{
	g->ptc_fill = g->ptc_next = 0;
}

void tsr_geo_vf_step(struct tsr_geometry *g)
{
	const struct tsr_draw *d = &g->draw;
	struct tsr_geo_queue *in = &g->queue[TSR_GEO_VERTEX_FETCH];
	const uint32_t i = ((const struct tsr_geo_index_item *)tsr_geo_queue_front(in))->position;
	tsr_geo_queue_pop(in);
	const uint32_t idx = d->mesh->indices[i];
	tsr_mem_access(g->mem, g->index_port, d->ib_base + (uint64_t)i * d->index_bytes,
		       d->index_bytes, 0, TSR_STREAM_INDEX, 0, 0, NULL);
	g->st->indices_fetched++;
	const int hit = ptc_lookup(g, idx);
	if (!hit) {
		tsr_mem_access(g->mem, g->vertex_port,
			       d->vb_base + (uint64_t)idx * TSR_VERTEX_STRIDE,
			       TSR_VERTEX_STRIDE, 0, TSR_STREAM_VERTEX, 0, 0, NULL);
		ptc_insert(g, idx);
		g->st->vertices_fetched++;
	}
	struct tsr_geo_vertex_item *o = tsr_geo_queue_push(&g->queue[TSR_GEO_VERTEX_SHADER]);
	o->vertex = idx;
	o->hit = (uint32_t)hit;
}
