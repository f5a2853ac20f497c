/*
 * timing_driver.c - the timing mode of the GPU (docs/timing.md): its
 * creation and destruction, and a frame's end. The functional model runs
 * each tile (imr: each batch of primitive windows) as in the functional
 * mode, recording its work items and memory paths; the recorded tiles
 * are then simulated cycle by cycle on the timing units, several at
 * once. The state and the map of the files are timing_priv.h: the tile
 * window and the units' callbacks (timing_tiles.c), a frame's geometry
 * phase (timing_geometry.c), the immediate-mode pipeline (timing_imr.c,
 * timing_imr_lanes.c) and the counters (timing_stats.c).
 *
 * A frame ends (tsr_timing_frame_end) when its last tile has left the
 * window and its last write has reached DRAM; with timing.overlap_frames,
 * when the next frame's geometry job is queued already, as soon as its
 * last tile leaves (its writes drain while that job runs), so only the
 * last frame waits for its writes.
 */
#include <stdlib.h>

#include "pipeline/timing_priv.h"

enum tsr_status tsr_timing_create(struct tsr_gpu *g, struct tsr_error *err)
{
	struct tsr_timing *t = calloc(1, sizeof(*t));
	if (!t)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the timing model");
	g->timing = t;
	t->g = g;
	t->cfg = g->cfg.timing;
	t->lanes = g->cfg.mem.cores;
	t->timed = 1;  /* every tile, unless timing.tile_sampling skips it */
	t->sample_frame = UINT32_MAX;
	t->decoupled = t->cfg.barriers == TSR_BARRIERS_DECOUPLED;
	t->window = t->cfg.tiles_in_flight < 2 ? 2
		    : t->cfg.tiles_in_flight > MAX_WINDOW ? MAX_WINDOW : t->cfg.tiles_in_flight;
	/* per cache: the functional model's latency, MSHRs and ports */
	const uint32_t n = tsr_memsys_cache_count(g->mem);
	t->cache_params = calloc(n ? n : 1, sizeof(*t->cache_params));
	if (!t->cache_params)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the timing model");
	for (uint32_t i = 0; i < n; i++) {
		const struct tsr_cache_config *k = tsr_memsys_cache_config(g->mem, i);
		const struct tsr_cache *c = tsr_memsys_cache(g->mem, i);
		struct tsr_memtime_cache_params *p = &t->cache_params[i];
		p->name = tsr_cache_name(c);
		p->hit_latency = k->geom.latency_cycles ? k->geom.latency_cycles : 1;
		p->ports = k->ports;
		p->mshrs = k->mshrs;
	}
	struct tsr_dram_params dp;
	tsr_config_dram_params(&g->cfg, &dp);
	TSR_TRY(tsr_memtime_create(t->cache_params, n, &dp, t->cfg.gpu_mhz, &t->mem, err));
	TSR_TRY(tsr_timing_units_create(t, err));
	t->imr = g->cfg.pipeline_mode == TSR_PIPELINE_IMR;
	if (t->imr) {
		for (uint32_t c = 0; c < t->lanes; c++) {
			t->zq[c].cap = at_least_1(t->cfg.imr_z_quads_in_flight);
			t->cq[c].cap = at_least_1(t->cfg.imr_color_quads_in_flight);
			t->zq[c].e = calloc(t->zq[c].cap, sizeof(*t->zq[c].e));
			t->cq[c].e = calloc(t->cq[c].cap, sizeof(*t->cq[c].e));
			if (!t->zq[c].e || !t->cq[c].e)
				return tsr_error_set(err, TSR_ERR_NOMEM,
						     "out of memory for the timing model");
		}
		/* the first batch records from the start: no geometry jobs */
		tsr_worklog_begin(&t->runs[0].log, 0);
		g->log = &t->runs[0].log;
		tsr_memsys_set_path_sink(g->mem, tsr_worklog_path, &t->runs[0].log);
		return TSR_OK;
	}
	g->log = &t->jobs[0].log;
	tsr_memsys_set_path_sink(g->mem, tsr_worklog_path, &t->jobs[0].log);
	return TSR_OK;
}

void tsr_timing_destroy(struct tsr_gpu *g)
{
	struct tsr_timing *t = g->timing;
	if (!t)
		return;
	if (g->mem)
		tsr_memsys_set_path_sink(g->mem, NULL, NULL);
	g->log = NULL;
	tsr_memtime_destroy(t->mem);
	tsr_timing_units_destroy(t);
	for (uint32_t c = 0; c < t->lanes; c++) {
		free(t->blend_wait[c].tags);
		free(t->zq[c].e);
		free(t->cq[c].e);
	}
	tsr_worklog_release(&t->geo);
	for (uint32_t i = 0; i < JOBS; i++)
		tsr_worklog_release(&t->jobs[i].log);
	for (uint32_t i = 0; i < MAX_WINDOW; i++)
		tsr_worklog_release(&t->runs[i].log);
	free(t->samples);
	free(t->cache_params);
	free(t);
	g->timing = NULL;
}

/* Runs the frame's last tiles and waits for every write of the frame to
 * reach DRAM; fills the frame's totals. */
enum tsr_status tsr_timing_frame_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
				     struct tsr_error *err)
{
	struct tsr_timing *t = g->timing;
	TSR_TRY(t->imr ? tsr_timing_imr_pass_end(g, st, err) : tsr_timing_pass_end(g, st, err));
	/* the frame's writes reach DRAM before the next frame's geometry
	 * starts, unless it has (overlapping frames) */
	const uint64_t now = t->jobs_done < t->jobs_queued ? t->now
			     : tsr_timing_wait_memory_idle(t, t->now);
	if (t->failed)
		return tsr_error_set(err, t->failed, "the timing model failed: %s", t->err.msg);
	t->now = now;
	tsr_memtime_advance(t->mem, now);  /* its counters up to the frame's end */
	const uint64_t frame_cycles = now - t->frame_start;
	st->timing.cycles += frame_cycles;
	t->frame_start = now;
	t->raster_start = now;  /* (after the wait for the writes) */
	tsr_unit_advance(t->rasterizer, now);
	for (uint32_t c = 0; c < t->lanes; c++) {
		tsr_core_advance(t->core[c], now);
		tsr_unit_advance(t->early_z[c], now);
		tsr_unit_advance(t->blend[c], now);
	}
	tsr_timing_stats_frame_end(t, st, frame_cycles);
	return TSR_OK;
}

uint64_t tsr_timing_now(const struct tsr_gpu *g)
{
	return g->timing->now;
}
