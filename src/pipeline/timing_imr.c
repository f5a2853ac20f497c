/*
 * timing_imr.c - the immediate-mode pipeline in the timing mode
 * (pipeline.mode imr; docs/timing.md, "Immediate mode"; the shared state
 * is timing_priv.h). It runs on the TBR's timing units: its unit in
 * flight in the window (timing_tiles.c) is a batch of primitive windows
 * (a draw's, cut after timing.imr_batch_quads quads) instead of a tile;
 * a batch's Tile Fetcher reads are its share of its draws' index and
 * vertex paths, and its primitives become ready also in proportion to
 * its share of the draws' vertex-stage bound (there are no geometry
 * jobs). The quads' lanes, with no flush and no barriers, are
 * timing_imr_lanes.c. Calls timing_tiles.c (a batch joins the window,
 * the window runs to its end), which never calls back.
 */
#include "pipeline/timing_priv.h"

/* Records the paths from now on into the open batch (the next run). */
static void imr_record_batch(struct tsr_gpu *g)
{
	struct tsr_timing *t = g->timing;
	struct tsr_worklog *l = &run_at(t, t->count)->log;
	g->log = l;
	tsr_memsys_set_path_sink(g->mem, tsr_worklog_path, l);
}

void tsr_timing_imr_draw_begin(struct tsr_gpu *g, const struct tsr_frame_stats *st)
{
	struct tsr_timing *t = g->timing;
	tsr_worklog_begin(&t->geo, UINT32_MAX);
	tsr_memsys_set_path_sink(g->mem, tsr_worklog_path, &t->geo);
	g->log = NULL;
	t->geo_before[0] = st->geometry.primitives_in;
	t->geo_before[1] = st->geometry.vertices_fetched;
	t->geo_before[2] = st->geometry.vertex_instructions;
}

enum tsr_status tsr_timing_imr_draw_geometry(struct tsr_gpu *g, uint32_t prims,
					     struct tsr_frame_stats *st, struct tsr_error *err)
{
	struct tsr_timing *t = g->timing;
	TSR_TRY(tsr_worklog_status(&t->geo, err));
	/* as a TBR geometry phase's bound (tsr_timing_geometry_end) */
	const struct tsr_geometry_stats *gs = &st->geometry;
	const uint64_t in = gs->primitives_in - t->geo_before[0],
		       vertices = gs->vertices_fetched - t->geo_before[1],
		       vp = (gs->vertex_instructions - t->geo_before[2] +
			     t->cfg.vertex_processors - 1) / t->cfg.vertex_processors;
	const uint64_t busy = in > vertices ? in : vertices;
	t->geo_busy = busy > vp ? busy : vp;
	t->geo_prims = prims;
	t->geo_prims_given = t->geo_paths_given = 0;
	t->geo_busy_given = 0;
	st->timing.geometry_busy_cycles += t->geo_busy;
	imr_record_batch(g);
	return TSR_OK;
}

/*
 * Ends the open batch after `prims` of the draw's primitives: it takes
 * their share of the draw's geometry paths (its Tile Fetcher reads) and
 * of its vertex stages' bound, joins the window (which may run the
 * simulation), and the next batch opens.
 */
static enum tsr_status imr_cut(struct tsr_gpu *g, uint32_t prims, struct tsr_frame_stats *st,
			       struct tsr_error *err)
{
	struct tsr_timing *t = g->timing;
	struct tsr_worklog *l = &run_at(t, t->count)->log;
	const uint32_t paths = t->geo_prims ? (uint32_t)((uint64_t)t->geo.path_count * prims /
							 t->geo_prims)
					    : t->geo.path_count;
	const uint64_t busy = t->geo_prims ? t->geo_busy * prims / t->geo_prims : t->geo_busy;
	tsr_worklog_mark(l);
	for (uint32_t i = t->geo_paths_given; i < paths; i++)
		tsr_worklog_path(l, &t->geo.paths[i]);
	l->fetch = tsr_worklog_since_mark(l);
	t->next_busy = busy - t->geo_busy_given;
	t->geo_paths_given = paths;
	t->geo_busy_given = busy;
	t->geo_prims_given = prims;
	if (l->prim_count == 0 && l->fetch.count == 0 && t->next_busy == 0) {
		tsr_worklog_begin(l, l->tile);  /* nothing to simulate: stays open */
		return TSR_OK;
	}
	enum tsr_status s = tsr_timing_tile_end(g, st, err);
	t->next_busy = 0;
	TSR_TRY(s);
	tsr_worklog_begin(&run_at(t, t->count)->log, ++t->batches);
	imr_record_batch(g);
	return TSR_OK;
}

enum tsr_status tsr_timing_imr_primitive_end(struct tsr_gpu *g, uint32_t prims,
					     struct tsr_frame_stats *st, struct tsr_error *err)
{
	struct tsr_timing *t = g->timing;
	if (run_at(t, t->count)->log.quad_count < t->cfg.imr_batch_quads)
		return TSR_OK;
	return imr_cut(g, prims, st, err);
}

enum tsr_status tsr_timing_imr_draw_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
					struct tsr_error *err)
{
	struct tsr_timing *t = g->timing;
	return imr_cut(g, t->geo_prims, st, err);
}

/* Runs the batches in flight to their end (a pass's, or the frame's:
 * tsr_timing_frame_end). */
enum tsr_status tsr_timing_imr_pass_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
					struct tsr_error *err)
{
	struct tsr_timing *t = g->timing;
	t->st = &st->timing;
	t->time_imbalance = NULL;
	TSR_TRY(tsr_timing_simulate(t, 0, err));
	st->timing.tile_cycles += t->now - t->raster_start;
	t->raster_start = t->now;
	return TSR_OK;
}
