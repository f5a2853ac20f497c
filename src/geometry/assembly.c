/*
 * assembly.c - Primitive Assembly (TCOR II-A): triangles in program order
 * (OpenGL ES 2.0.25 2.6.1): of a list, every third shaded vertex closes a
 * triangle (a trailing incomplete one is dropped); of a strip, every
 * vertex from the third closes one with the two before it (the odd ones'
 * first two swapped, so that all keep the strip's winding); of a fan,
 * every vertex from the third closes one with the fan's first and the
 * vertex before it. Work item: a shaded vertex in, a triangle out when it
 * closes one.
 */
#include "geometry/geometry_priv.h"

void tsr_geo_pa_begin(struct tsr_geometry *g)
{
	g->corners = 0;
	g->pa_seen = 0;
}

int tsr_geo_pa_strip(struct tsr_geometry *g, const struct tsr_clip_vertex *v,
		     struct tsr_clip_vertex out[3])
{
	const uint32_t n = g->pa_seen++;
	if (n == 0) {
		g->pa_first = *v;
		g->pa_keep[0] = *v;
		return 0;
	}
	if (n == 1) {
		g->pa_keep[1] = *v;
		return 0;
	}
	if (g->draw.assembly == TSR_ASSEMBLE_FAN) {
		out[0] = g->pa_first;
		out[1] = g->pa_keep[1];
	} else if ((n - 2) % 2 == 0) {
		out[0] = g->pa_keep[0];
		out[1] = g->pa_keep[1];
	} else {
		out[0] = g->pa_keep[1];
		out[1] = g->pa_keep[0];
	}
	out[2] = *v;
	g->pa_keep[0] = g->pa_keep[1];
	g->pa_keep[1] = *v;
	return 1;
}

/*
 * The triangle being assembled is staged in the free slot at the back of
 * the Clipper's queue (readiness guarantees one) and pushed with its third
 * corner: only this stage pushes to that queue, and pops leave the back
 * slot where it is, so the staged corners stay put between steps.
 */
void tsr_geo_pa_step(struct tsr_geometry *g)
{
	struct tsr_ring *in = &g->queue[TSR_GEO_ASSEMBLY];
	struct tsr_ring *out = &g->queue[TSR_GEO_CLIP];
	struct tsr_geo_triangle_item *staged = tsr_ring_back(out);
	if (g->draw.assembly != TSR_ASSEMBLE_LIST) {
		const struct tsr_clip_vertex v = ((const struct tsr_geo_shaded_item *)
						  tsr_ring_front(in))->v;
		tsr_ring_pop(in);
		if (tsr_geo_pa_strip(g, &v, staged->v)) {
			g->st->primitives_in++;
			tsr_ring_push(out);
		}
		return;
	}
	staged->v[g->corners++] = ((const struct tsr_geo_shaded_item *)tsr_ring_front(in))->v;
	tsr_ring_pop(in);
	if (g->corners < 3)
		return;
	g->corners = 0;
	g->st->primitives_in++;
	tsr_ring_push(out);  /* the staged slot */
}
