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

void tsr_geo_pa_step(struct tsr_geometry *g)
{
	struct tsr_geo_queue *in = &g->queue[TSR_GEO_ASSEMBLY];
	g->corner[g->corners++] = ((const struct tsr_geo_shaded_item *)tsr_geo_queue_front(in))->v;
	tsr_geo_queue_pop(in);
	if (g->corners < 3)
		return;
	g->corners = 0;
	g->st->primitives_in++;
	struct tsr_geo_triangle_item *o = tsr_geo_queue_push(&g->queue[TSR_GEO_CLIP]);
	for (int j = 0; j < 3; j++)
		o->v[j] = g->corner[j];
}
