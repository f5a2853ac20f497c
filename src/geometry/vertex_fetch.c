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
#include <stdlib.h>

#include "geometry/geometry_priv.h"

/*
 * The post-transform cache: g->ptc is the FIFO of the vertex indices it
 * holds (each at most once: a vertex enters only on a miss), and
 * g->ptc_held[v] is 1 while vertex v is among them, so a lookup costs one
 * load instead of a scan of the FIFO (same answers).
 */
static int ptc_lookup(const struct tsr_geometry *g, uint32_t idx)
{
	return g->ptc_held[idx];
}

static void ptc_insert(struct tsr_geometry *g, uint32_t idx)
{
	if (!g->ptc_entries)
		return;
	if (g->ptc_fill == g->ptc_entries)
		g->ptc_held[g->ptc[g->ptc_next]] = 0;  /* the oldest leaves */
	else
		g->ptc_fill++;
	g->ptc[g->ptc_next] = idx;
	g->ptc_held[idx] = 1;
	if (++g->ptc_next == g->ptc_entries)
		g->ptc_next = 0;
}

enum tsr_status tsr_geo_vf_begin(struct tsr_geometry *g, struct tsr_error *err)
{
	/* flush: the previous draw call's vertices leave the cache */
	for (uint32_t i = 0; i < g->ptc_fill; i++)
		g->ptc_held[g->ptc[i]] = 0;
	g->ptc_fill = g->ptc_next = 0;
	const uint32_t n = g->draw.mesh->vertex_count;
	if (n > g->ptc_held_cap) {
		uint8_t *h = calloc(n, 1);
		if (!h)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for vertices");
		free(g->ptc_held);
		g->ptc_held = h;
		g->ptc_held_cap = n;
	}
	return TSR_OK;
}

/* Bytes of one component of an attribute type (enum tsr_attrib_type). */
static const uint8_t attrib_type_bytes[TSR_ATTRIB_TYPE_COUNT] = {
	[TSR_ATTRIB_BYTE] = 1, [TSR_ATTRIB_UBYTE] = 1, [TSR_ATTRIB_SHORT] = 2,
	[TSR_ATTRIB_USHORT] = 2, [TSR_ATTRIB_FIXED] = 4, [TSR_ATTRIB_FLOAT] = 4,
	[TSR_ATTRIB_HALF_FLOAT] = 2,
};

/*
 * A program draw's vertex read: each enabled array's element of vertex
 * idx, the ranges that touch or overlap in address merged into one access
 * (attributes interleaved in one buffer are one read, as a vertex fetch
 * unit coalesces them).
 */
static void read_streams(struct tsr_geometry *g, uint32_t idx)
{
	const struct tsr_vertex_input *in = g->draw.input;
	uint64_t lo = 0, hi = 0;  /* the pending access [lo, hi) */
	for (uint32_t a = 0; a < in->attrib_count; a++) {
		const struct tsr_vertex_stream *s = &in->attribs[a];
		if (!s->data)
			continue;
		const uint64_t b = s->address + (uint64_t)idx * s->stride;
		const uint64_t e = b + (uint64_t)s->components * attrib_type_bytes[s->type];
		if (hi > lo && b <= hi && e >= lo) {
			lo = b < lo ? b : lo;
			hi = e > hi ? e : hi;
			continue;
		}
		if (hi > lo)
			tsr_mem_access(g->mem, g->vertex_port, lo, (uint32_t)(hi - lo), 0,
				       TSR_STREAM_VERTEX, 0, 0, NULL);
		lo = b;
		hi = e;
	}
	if (hi > lo)
		tsr_mem_access(g->mem, g->vertex_port, lo, (uint32_t)(hi - lo), 0, TSR_STREAM_VERTEX,
			       0, 0, NULL);
}

uint32_t tsr_geo_vf_fetch(struct tsr_geometry *g, uint32_t i, uint32_t *hit)
{
	const struct tsr_draw *d = &g->draw;
	const uint32_t idx = d->mesh->indices[i];
	if (d->index_bytes) {  /* glDrawArrays reads no index */
		tsr_mem_access(g->mem, g->index_port, d->ib_base + (uint64_t)i * d->index_bytes,
			       d->index_bytes, 0, TSR_STREAM_INDEX, 0, 0, NULL);
		g->st->indices_fetched++;
	}
	*hit = (uint32_t)ptc_lookup(g, idx);
	if (!*hit) {
		if (d->input)
			read_streams(g, idx);
		else
			tsr_mem_access(g->mem, g->vertex_port,
				       d->vb_base + (uint64_t)idx * TSR_VERTEX_STRIDE,
				       TSR_VERTEX_STRIDE, 0, TSR_STREAM_VERTEX, 0, 0, NULL);
		ptc_insert(g, idx);
		g->st->vertices_fetched++;
	}
	return idx;
}

void tsr_geo_vf_step(struct tsr_geometry *g)
{
	struct tsr_ring *in = &g->queue[TSR_GEO_VERTEX_FETCH];
	const uint32_t i = ((const struct tsr_geo_index_item *)tsr_ring_front(in))->position;
	tsr_ring_pop(in);
	uint32_t hit;
	const uint32_t idx = tsr_geo_vf_fetch(g, i, &hit);
	struct tsr_geo_vertex_item *o = tsr_ring_push(&g->queue[TSR_GEO_VERTEX_SHADER]);
	o->vertex = idx;
	o->hit = hit;
}
