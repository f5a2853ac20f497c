/*
 * command_processor.c - the Command Processor's geometry side (TCOR II-A
 * Fig. 2): it latches a draw call's constants (matrices, buffer and
 * program addresses: tsr_geometry_begin_draw copies them into g->draw)
 * and then streams the draw call's index positions, one work item per
 * step, into Vertex Fetch's queue. It reads no memory itself: Vertex
 * Fetch reads the indices.
 */
#include "geometry/geometry_priv.h"

void tsr_geo_cp_begin(struct tsr_geometry *g)
{
	g->next_index = 0;
	g->st->draws++;
}

void tsr_geo_cp_step(struct tsr_geometry *g)
{
	struct tsr_geo_index_item *o = tsr_ring_push(&g->queue[TSR_GEO_VERTEX_FETCH]);
	o->position = g->next_index++;
}
