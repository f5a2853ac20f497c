/*
 * timing_stats.c - the timing mode's counters (stats/counters.h's timing,
 * cache_timing and stream_timing groups; docs/timing.md; the shared
 * state is timing_priv.h):
 *
 *   critical-path attribution: each stretch of the raster phase's cycles
 *     goes to the stage the oldest tile in flight waits on (bottleneck_*),
 *     or to geometry_cycles while the window's frame has no geometry;
 *   the Tile Fetcher's active and stalled cycles;
 *   per tile leaving the window: its Tile Fetcher reads and each core's
 *     execution time in it (core_tile_cycles, and DTexL Fig. 14's time
 *     imbalance with raster.quad_imbalance_stats);
 *   per frame: the share of the counters the units, the DRAM and the
 *     memory timing keep themselves (busy, stalled, barrier cycles,
 *     latencies and their histograms, per cache and per stream), the
 *     difference of their cumulative values at the frame's end and the
 *     last one's, and what the DRAM could have moved in the frame;
 *   tile sampling (timing.tile_sampling): every counter's change over a
 *     sampled raster phase, scaled to the tiles it did not simulate.
 *
 * The other counters (memory_requests, tile_fetch_primitives,
 * geometry_busy_cycles, tile_cycles, cycles) are counted where they
 * happen. Called by timing_tiles.c, timing_driver.c and
 * timing_sampling.c; calls none of the other timing files.
 */
#include <string.h>

#include "pipeline/timing_priv.h"

/* Where the oldest tile in flight waits (the bottleneck_* counters). */
enum stage {
	ST_GEOMETRY, ST_FETCH, ST_RASTER, ST_EARLY_Z, ST_FRAGMENT, ST_BLEND, ST_FLUSH, ST_NONE
};

/*
 * The stage run r waits on: the most downstream one that holds work of it
 * (a stage upstream of it is then held by its back-pressure or works in
 * its shadow), or the first that has not finished.
 */
static enum stage stage_of(struct tsr_timing *t, const struct tile_run *r)
{
	int in_early_z = 0, unblended = 0;
	for (uint32_t i = 0; i < t->lanes; i++) {
		/* a lane takes a tile's quads after its earlier tiles' */
		const uint64_t retired = t->frag_done[i] > r->frag_before[i]
					 ? t->frag_done[i] - r->frag_before[i] : 0;
		if (r->core_quads[i] > retired)
			return ST_FRAGMENT;
		const uint64_t ez = t->ez_done[i] > r->ez_before[i]
				    ? t->ez_done[i] - r->ez_before[i] : 0;
		in_early_z |= ez < r->n_ez[i] &&
			      (tsr_unit_items(t->early_z[i]) || (t->imr && t->zq[i].count));
		unblended |= t->blend_done[i] < r->frag_before[i] + r->n_frag[i];
	}
	if (in_early_z)
		return ST_EARLY_Z;
	if (r->prim_next < r->prims_out || r->raster_out < r->raster_in)
		return ST_RASTER;
	if (r->prims_out < r->log.prim_count || r->fetch_done < r->log.fetch.count)
		return ST_FETCH;
	return unblended ? ST_BLEND : ST_FLUSH;
}

/*
 * What holds the pipeline up (critical-path attribution): the stage the
 * oldest tile in flight waits on. A flush is posted and overlaps the next
 * tile, so a tile that waits only on its flush passes the blame to the
 * next one, unless that one's quads wait in blending (for the bank).
 */
static enum stage waiting_on(struct tsr_timing *t)
{
	if (!geometry_done(t))
		return ST_GEOMETRY;
	for (uint32_t i = 0; i < t->count; i++) {
		const enum stage s = stage_of(t, run_at(t, i));
		if (s != ST_FLUSH || i + 1 == t->count)
			return s;
		if (stage_of(t, run_at(t, i + 1)) == ST_BLEND)
			return ST_FLUSH;
	}
	return ST_NONE;
}

/* Counts the cycles [from, to) of the raster phase by what holds it up. */
void tsr_timing_account(struct tsr_timing *t, uint64_t from, uint64_t to)
{
	const uint64_t n = to - from;
	if (n == 0)
		return;  /* another step in the same cycle: nothing to count */
	struct tsr_timing_stats *s = t->st;
	switch (waiting_on(t)) {
	case ST_GEOMETRY: s->geometry_cycles += n; return;  /* nothing else moves */
	case ST_FETCH: s->bottleneck_tile_fetcher += n; break;
	case ST_RASTER: s->bottleneck_rasterizer += n; break;
	case ST_EARLY_Z: s->bottleneck_early_z += n; break;
	case ST_FRAGMENT: s->bottleneck_fragment += n; break;
	case ST_BLEND: s->bottleneck_blending += n; break;
	case ST_FLUSH: s->bottleneck_flush += n; break;
	default: break;
	}
	/* the Tile Fetcher: the cycle it issued or output in, then the cycles
	 * it has work (reads to issue or wait for, primitives to output) and
	 * room, or work and a full queue */
	uint64_t rest = n;
	if (n && t->fetch_acted == from + 1) {
		s->tile_fetch_active++;
		rest--;
	}
	if (rest && t->fetch_pos < t->count) {
		const struct tile_run *r = run_at(t, t->fetch_pos);
		if (r->fetch_next < r->log.fetch.count || r->prims_out < r->log.prim_count) {
			if (triangle_room(t))
				s->tile_fetch_active += rest;
			else
				s->tile_fetch_stalled += rest;
		}
	}
}

/* A run leaves the window: its reads, and each core's execution time in
 * it, from its first quad taken to its last retired (DTexL Fig. 14). */
void tsr_timing_stats_tile_left(struct tsr_timing *t, const struct tile_run *r)
{
	t->st->tile_fetch_reads += r->log.fetch.count;
	uint64_t busy[TSR_MAX_CORES];  /* each core's execution time in the tile */
	for (uint32_t c = 0; c < t->lanes; c++) {
		busy[c] = r->core_quads[c] ? r->core_last[c] - r->core_first[c] : 0;
		t->st->core_tile_cycles[c] += busy[c];
	}
	if (t->time_imbalance)  /* raster.quad_imbalance_stats */
		tsr_quad_imbalance_add_tile(t->time_imbalance, busy, t->lanes);
}

/* The counters the units keep themselves, cumulative since creation; the
 * others zero, so that their frame delta is nothing (tsr_timing_frame_end). */
static void cumulative(struct tsr_timing *t, struct tsr_timing_stats *c)
{
	memset(c, 0, sizeof(*c));
	const struct tsr_memtime_counters *m = tsr_memtime_counters(t->mem);
	c->memory_latency = m->latency_sum;
	c->mshr_stall_cycles = m->mshr_stall_cycles;
	const struct tsr_unit_counters *u = tsr_unit_counters(t->rasterizer);
	c->rasterizer_busy = u->busy;
	c->rasterizer_stalled = u->stalled_output;
	for (uint32_t i = 0; i < t->lanes; i++) {
		u = tsr_unit_counters(t->early_z[i]);
		c->early_z_busy += u->busy;
		c->early_z_stalled += u->stalled_output;
		c->early_z_barrier += u->stalled_gate;
		u = tsr_unit_counters(t->blend[i]);
		c->blend_busy += u->busy;
		c->blend_barrier += u->stalled_gate;
		const struct tsr_core_counters *k = tsr_core_counters(t->core[i]);
		c->core_busy[i] = k->busy_cycles;
		c->core_stalled_memory[i] = k->stall_mem_cycles;
		c->core_stalled_dependency[i] = k->stall_dep_cycles;
		c->core_sfu_instructions[i] = k->sfu_instructions;
	}
	const struct tsr_dram_device_counters *d = tsr_memtime_dram_counters(t->mem);
	c->dram_requests = d->completed;
	c->dram_row_hits = d->row_hits;
	c->dram_row_misses = d->row_misses;
	c->dram_row_conflicts = d->row_conflicts;
	c->dram_latency = d->latency_sum;
	c->dram_occupancy = d->occupancy_sum;
	c->dram_activates = d->activates;
	c->dram_precharges = d->precharges;
	c->dram_read_bursts = d->read_bursts;
	c->dram_write_bursts = d->write_bursts;
	c->dram_refreshes = d->refreshes;
	c->dram_io_bytes = d->io_bytes;
	for (uint32_t i = 0; i < TSR_LATENCY_HIST_BUCKETS; i++)
		c->memory_latency_hist[i] = m->latency_hist[i];
}

_Static_assert(TSR_LATENCY_HIST_BUCKETS == TSR_MEMTIME_HIST_BUCKETS,
	       "stats/counters.h's latency histograms are memtime's");
_Static_assert(TSR_STREAM_COUNT <= TSR_MEMTIME_STREAMS, "memtime counts every stream apart");

/* The memory timing's cumulative counters of cache i. */
static void cache_cumulative(const struct tsr_timing *t, uint32_t i,
			     struct tsr_cache_timing_stats *c)
{
	const struct tsr_memtime_cache_counters *k = tsr_memtime_cache_counters(t->mem, i);
	*c = (struct tsr_cache_timing_stats){
		.lookups = k->lookups,
		.hits = k->hits,
		.misses = k->misses,
		.merges = k->merges,
		.mshr_allocs = k->mshr_allocs,
		.mshr_stalls = k->mshr_stalls,
		.mshr_stall_cycles = k->mshr_stall_cycles,
		.mshr_occupancy = k->mshr_occupancy_sum,
		.port_wait_cycles = k->port_wait_cycles,
		.writebacks = k->writebacks,
		.latency_count = k->latency_count,
		.latency = k->latency_sum,
	};
	memcpy(c->latency_hist, k->latency_hist, sizeof(c->latency_hist));
}

/* The memory timing's cumulative counters of stream i. */
static void stream_cumulative(const struct tsr_timing *t, int i,
			      struct tsr_stream_timing_stats *c)
{
	const struct tsr_memtime_counters *m = tsr_memtime_counters(t->mem);
	*c = (struct tsr_stream_timing_stats){
		.requests = m->stream[i].completed,
		.latency = m->stream[i].latency_sum,
	};
	memcpy(c->latency_hist, m->stream[i].latency_hist, sizeof(c->latency_hist));
}

/*
 * Adds to st the memory timing's per-cache and per-stream counters since
 * cache_base and stream_base, times factor (1: as they are); with
 * cache_now and stream_now, keeps the current ones there (they may be the
 * bases).
 */
static void add_memory_since(struct tsr_timing *t, struct tsr_frame_stats *st,
			     const struct tsr_cache_timing_stats *cache_base,
			     const struct tsr_stream_timing_stats *stream_base, double factor,
			     struct tsr_cache_timing_stats *cache_now,
			     struct tsr_stream_timing_stats *stream_now)
{
	const uint32_t n = tsr_memsys_cache_count(t->g->mem);
	for (uint32_t i = 0; i < n; i++) {
		struct tsr_cache_timing_stats c, d;
		cache_cumulative(t, i, &c);
		tsr_counters_delta(&tsr_counters_cache_timing, &d, &c, &cache_base[i]);
		if (factor != 1)
			tsr_counters_scale(&tsr_counters_cache_timing, &d, factor);
		tsr_counters_add(&tsr_counters_cache_timing, &st->cache_timing[i], &d);
		if (cache_now)
			cache_now[i] = c;
	}
	for (int i = 0; i < TSR_STREAM_COUNT; i++) {
		struct tsr_stream_timing_stats c, d;
		stream_cumulative(t, i, &c);
		tsr_counters_delta(&tsr_counters_stream_timing, &d, &c, &stream_base[i]);
		if (factor != 1)
			tsr_counters_scale(&tsr_counters_stream_timing, &d, factor);
		tsr_counters_add(&tsr_counters_stream_timing, &st->stream_timing[i], &d);
		if (stream_now)
			stream_now[i] = c;
	}
}

void tsr_timing_stats_mark(struct tsr_timing *t, const struct tsr_frame_stats *st,
			   struct sample_mark *m)
{
	cumulative(t, &m->cum);
	m->direct = st->timing;
	const uint32_t n = tsr_memsys_cache_count(t->g->mem);
	for (uint32_t i = 0; i < n; i++)
		cache_cumulative(t, i, &m->cache[i]);
	for (int i = 0; i < TSR_STREAM_COUNT; i++)
		stream_cumulative(t, i, &m->stream[i]);
}

void tsr_timing_stats_extrapolate(struct tsr_timing *t, struct tsr_frame_stats *st,
				  const struct sample_mark *m, double factor)
{
	/* what the units keep (their cumulative counters) and what is
	 * counted where it happens (st's own), since the mark */
	struct tsr_timing_stats cum, d, e;
	cumulative(t, &cum);
	tsr_counters_delta(&tsr_counters_timing, &d, &cum, &m->cum);
	tsr_counters_delta(&tsr_counters_timing, &e, &st->timing, &m->direct);
	tsr_counters_add(&tsr_counters_timing, &d, &e);
	/* not extrapolated: the clock's (the cycles, and the refreshes of
	 * the estimated cycles, which the DRAM counts as they pass) and the
	 * sampling's own */
	d.cycles = d.geometry_cycles = d.geometry_busy_cycles = d.tile_cycles = 0;
	d.dram_refreshes = d.dram_peak_bytes = 0;
	d.sampled_tiles = d.estimated_tiles = d.estimated_cycles = d.estimated_cycles_var = 0;
	d.estimated_geometry_cycles = 0;
	tsr_counters_scale(&tsr_counters_timing, &d, factor);
	tsr_counters_add(&tsr_counters_timing, &st->timing, &d);
	add_memory_since(t, st, m->cache, m->stream, factor, NULL, NULL);
}

void tsr_timing_stats_frame_end(struct tsr_timing *t, struct tsr_frame_stats *st,
				uint64_t frame_cycles)
{
	/* this frame's share of what the units count themselves */
	struct tsr_timing_stats cum;
	cumulative(t, &cum);
	struct tsr_timing_stats *s = &st->timing, d;
	tsr_counters_delta(&tsr_counters_timing, &d, &cum, &t->prev);
	tsr_counters_add(&tsr_counters_timing, s, &d);
	t->prev = cum;
	/* what the DRAM could have moved in the frame (dram_bandwidth_utilisation's base) */
	const double peak = tsr_dram_peak_bytes_per_gpu_cycle(tsr_memtime_dram(t->mem));
	s->dram_peak_bytes += (uint64_t)((double)frame_cycles * peak);
	/* the memory timing's per cache and per stream, kept for the next frame */
	add_memory_since(t, st, t->prev_cache, t->prev_stream, 1, t->prev_cache, t->prev_stream);
}
