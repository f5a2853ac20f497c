/*
 * assembly.c - Primitive Assembly (TCOR II-A): triangle lists in program
 * order; every third shaded vertex of the draw call closes a triangle
 * (a trailing incomplete triangle is dropped). Work item: a shaded vertex
 * in, a triangle out every third one.
 */
#include "geometry/geometry_priv.h"

void tsr_geo_pa_begin(struct tsr_geometry *g)
{
	g->corners = 0;
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
	staged->v[g->corners++] = ((const struct tsr_geo_shaded_item *)tsr_ring_front(in))->v;
	tsr_ring_pop(in);
	if (g->corners < 3)
		return;
	g->corners = 0;
	g->st->primitives_in++;
	tsr_ring_push(out);  /* the staged slot */
}
