/*
 * timing_driver.c - the timing mode of the TBR GPU (docs/timing.md): the
 * functional model runs each tile as in the functional mode, recording
 * its work items (timing/worklog.h) and their memory paths (the memory
 * system's path sink); then the tile is simulated cycle by cycle on the
 * timing units:
 *
 *   Tile Fetcher: the tile's Parameter Buffer reads, tile_fetch_requests_per_cycle
 *     a cycle, through the memory timing (timing/memtime.h); the tile's
 *     primitives become available to the Rasterizer in order, in
 *     proportion to the reads completed (a primitive's PMD and attributes
 *     are read before it).
 *   Rasterizer (timing/unit.h): one quad per cycle, a primitive's first
 *     quad also taking its setup, attributes / rasterizer_attributes_per_cycle
 *     cycles (RE Table I); a primitive covering no quad takes the setup only.
 *   Early-Z: one quad per cycle, early_z_inflight quads in flight; a
 *     killed quad ends there, a survivor goes to its shader core and waits
 *     (blocking Early-Z, which is in order) while the core has no free
 *     warp slot.
 *   Shader cores (timing/core.h): warps of one quad, the quad's
 *     instruction fetch and texture paths through the memory timing.
 *   Blending: one quad per cycle (fragment_queue_entries queue).
 *   Flush: once every quad is blended, the tile's color writes, one a
 *     cycle (posted: they take DRAM bandwidth, nobody waits).
 *
 * Tiles run one after another: the next tile's Tile Fetcher starts when
 * the previous tile's flush has been issued (the baseline's barriers at
 * Early-Z, fragment and blending, DTexL II-C, with no overlap of the Tile
 * Fetcher either: a first, conservative model). The geometry phase of a
 * frame is bounded by its memory traffic (its paths issued one a cycle, at most 32
 * outstanding: the vertex queues of RE Table I),
 * primitive assembly's 1 triangle per cycle and the vertex processor's 1
 * vertex per cycle; its shader instructions are not timed yet. A frame
 * ends when its last write has reached DRAM.
 *
 * The caches see the functional order, so every counter but the timing
 * group's is the functional mode's.
 */
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "pipeline/gpu_priv.h"
#include "timing/core.h"
#include "timing/memtime.h"
#include "timing/unit.h"
#include "timing/worklog.h"

/* Memory request tags: what completed. */
#define TAG_KIND_SHIFT 60
#define TAG_CORE_SHIFT 56
#define TAG_LOW_MASK ((1ull << TAG_CORE_SHIFT) - 1)
enum tag_kind { TAG_CORE = 1, TAG_FETCH, TAG_POSTED };

/* Requests the geometry phase keeps outstanding (RE Table I: vertex queues 2 x 16). */
#define GEOMETRY_IN_FLIGHT 32

/* A quad item for the Rasterizer with no quad: a primitive's setup only. */
#define SETUP_ONLY (1ull << 63)

struct tsr_timing {
	struct tsr_gpu *g;
	struct tsr_timing_config cfg;
	uint32_t cores;
	struct tsr_memtime *mem;
	struct tsr_memtime_cache_params *cache_params;
	struct tsr_unit *rasterizer, *early_z, *blend;
	struct tsr_core *core[TSR_MAX_CORES];
	struct tsr_worklog log;
	uint64_t now;                /* cycle the next phase starts at */
	/* the tile being simulated */
	const struct tsr_worklog *l;
	uint32_t fetch_next, fetch_done;
	uint32_t prim_next;          /* next primitive to feed the Rasterizer */
	uint32_t quad_next;          /* next quad of that primitive */
	uint32_t prims_released;     /* primitives whose reads are done */
	uint32_t quads_in, quads_out;  /* survivors pushed to cores, blended */
	uint32_t *blend_wait;        /* retired quads the blending queue refused */
	uint32_t blend_wait_count, blend_wait_cap;
	int core_freed;              /* a core retired a quad this step */
	enum tsr_status failed;      /* a callback's error */
	struct tsr_timing_stats *st; /* the frame's timing counters */
	struct tsr_timing_stats prev; /* the units' cumulative counters at the last frame end */
	/* the memory timing's per-cache and per-stream ones, likewise */
	struct tsr_cache_timing_stats prev_cache[TSR_MEMSYS_MAX_CACHES];
	struct tsr_stream_timing_stats prev_stream[TSR_STREAM_COUNT];
	struct tsr_error err;        /* the first callback error's message */
};

/* ---- callbacks ---- */

static void mem_done(void *ctx, uint64_t tag, uint64_t cycle)
{
	struct tsr_timing *t = ctx;
	switch (tag >> TAG_KIND_SHIFT) {
	case TAG_CORE: {
		uint32_t c = (uint32_t)(tag >> TAG_CORE_SHIFT) & 0xf;
		if (tsr_core_mem_done(t->core[c], tag & TAG_LOW_MASK, cycle) != TSR_OK)
			t->failed = TSR_ERR_INTERNAL;
		break;
	}
	case TAG_FETCH:
		t->fetch_done++;
		break;
	default:
		break;
	}
}

static void issue_path(struct tsr_timing *t, uint64_t cycle, const struct tsr_mem_path *p,
		       uint64_t tag)
{
	enum tsr_status st = tsr_memtime_issue(t->mem, cycle, p, tag, &t->err);
	if (st != TSR_OK && !t->failed)
		t->failed = st;
	t->st->memory_requests++;
}

/* A core's request: the quad's fetch or texture path `index`. */
static void core_issue(void *ctx, uint64_t cycle, uint64_t quad, uint32_t kind, uint32_t index,
		       uint64_t token)
{
	struct tsr_timing *t = ctx;
	const struct tsr_wl_quad *q = &t->l->quads[quad];
	const struct tsr_wl_range *r = kind == TSR_CORE_MEM_IFETCH ? &q->ifetch : &q->tex;
	issue_path(t, cycle, &t->l->paths[r->first + index],
		   (uint64_t)TAG_CORE << TAG_KIND_SHIFT | (uint64_t)q->core << TAG_CORE_SHIFT |
		   (token & TAG_LOW_MASK));
}

static void core_retire(void *ctx, uint64_t tag, uint64_t cycle)
{
	struct tsr_timing *t = ctx;
	t->core_freed = 1;
	if (t->blend_wait_count == 0 && tsr_unit_push(t->blend, cycle, tag, 1))
		return;
	uint32_t *a = tsr_array_grow(t->blend_wait, &t->blend_wait_cap,
				     t->blend_wait_count + 1, sizeof(*a));
	if (!a) {
		t->failed = TSR_ERR_NOMEM;
		return;
	}
	t->blend_wait = a;
	a[t->blend_wait_count++] = (uint32_t)tag;
}

/* Rasterizer -> Early-Z */
static bool rasterizer_out(void *ctx, uint64_t cycle, uint64_t tag)
{
	struct tsr_timing *t = ctx;
	if (tag & SETUP_ONLY)
		return true;
	return tsr_unit_push(t->early_z, cycle, tag, 1);
}

/* Early-Z -> the quad's core (a killed quad ends here) */
static bool early_z_out(void *ctx, uint64_t cycle, uint64_t tag)
{
	struct tsr_timing *t = ctx;
	const struct tsr_wl_quad *q = &t->l->quads[tag];
	if (q->core < 0)
		return true;
	struct tsr_core *c = t->core[q->core];
	if (!tsr_core_can_accept(c))
		return false;
	const struct tsr_core_item item = {tag, q->alu, q->tex.count, q->ifetch.count};
	if (tsr_core_push(c, cycle, &item, NULL) != TSR_OK) {
		t->failed = TSR_ERR_INTERNAL;
		return true;
	}
	t->quads_in++;
	return true;
}

static bool blend_out(void *ctx, uint64_t cycle, uint64_t tag)
{
	(void)cycle;
	(void)tag;
	struct tsr_timing *t = ctx;
	t->quads_out++;
	return true;
}

/* ---- creation ---- */

enum tsr_status tsr_timing_create(struct tsr_gpu *g, struct tsr_error *err)
{
	struct tsr_timing *t = calloc(1, sizeof(*t));
	if (!t)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the timing model");
	g->timing = t;
	t->g = g;
	t->cfg = g->cfg.timing;
	t->cores = g->cfg.mem.cores;
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
	if (t->cfg.dram_model == TSR_DRAM_LPDDR4)
		tsr_dram_params_default_lpddr4(&dp);
	else
		tsr_dram_params_default_lpddr3(&dp);
	TSR_TRY(tsr_memtime_create(t->cache_params, n, &dp, t->cfg.gpu_mhz, &t->mem, err));
	tsr_memtime_set_completion(t->mem, mem_done, t);
	const struct tsr_unit_params rp = {"rasterizer", t->cfg.triangle_queue_entries, 1, 0, 1};
	const struct tsr_unit_params zp = {"early_z", t->cfg.triangle_queue_entries, 1, 1,
					   t->cfg.early_z_inflight};
	const struct tsr_unit_params bp = {"blending", t->cfg.fragment_queue_entries, 1, 0, 1};
	TSR_TRY(tsr_unit_create(&rp, rasterizer_out, NULL, t, &t->rasterizer, err));
	TSR_TRY(tsr_unit_create(&zp, early_z_out, NULL, t, &t->early_z, err));
	TSR_TRY(tsr_unit_create(&bp, blend_out, NULL, t, &t->blend, err));
	struct tsr_core_params cp;
	tsr_core_params_default(&cp);
	cp.warp_slots = t->cfg.warp_slots;
	cp.sched = t->cfg.warp_scheduler;
	cp.alu_before_sample = t->cfg.alu_before_sample;
	cp.sample_issue_cycles = t->cfg.sample_issue_cycles;
	for (uint32_t c = 0; c < t->cores; c++) {
		TSR_TRY(tsr_core_create(&cp, &t->core[c], err));
		tsr_core_set_memory(t->core[c], core_issue, t);
		tsr_core_set_retire(t->core[c], core_retire, t);
	}
	g->log = &t->log;
	tsr_memsys_set_path_sink(g->mem, tsr_worklog_path, &t->log);
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
	tsr_unit_destroy(t->rasterizer);
	tsr_unit_destroy(t->early_z);
	tsr_unit_destroy(t->blend);
	for (uint32_t c = 0; c < t->cores; c++)
		tsr_core_destroy(t->core[c]);
	tsr_worklog_release(&t->log);
	free(t->cache_params);
	free(t->blend_wait);
	free(t);
	g->timing = NULL;
}

/* ---- simulation ---- */

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * A fixed-function unit to `cycle` if it has something to do by then. A
 * unit with no event up to `cycle` only counts idle or stalled cycles,
 * which it does the same when it is next advanced (by this, a push or a
 * wake, each of which brings it up to date first; unit.h); what the
 * driver reads of it (items, room in its queue) does not change.
 */
static void advance_unit(struct tsr_unit *u, uint64_t cycle)
{
	if (tsr_unit_next_event(u) <= cycle)
		tsr_unit_advance(u, cycle);
}

/* Every unit to `cycle`, in dataflow order, then the waits it freed;
 * units and cores with nothing due by `cycle` are left behind. */
static void advance_all(struct tsr_timing *t, uint64_t cycle)
{
	tsr_memtime_advance(t->mem, cycle);
	advance_unit(t->rasterizer, cycle);
	advance_unit(t->early_z, cycle);
	t->core_freed = 0;
	/* A core whose next output (a request, a retirement) lies beyond
	 * `cycle` is left behind: nothing it would do up to `cycle` is seen
	 * here, and a push or a completion brings it up to date first
	 * (core.h). Its instructions in between are simulated when it is
	 * next advanced, with the same result. */
	for (uint32_t c = 0; c < t->cores; c++)
		if (tsr_core_next_event(t->core[c]) <= cycle)
			tsr_core_advance(t->core[c], cycle);
	while (t->blend_wait_count && tsr_unit_push(t->blend, cycle, t->blend_wait[0], 1)) {
		memmove(t->blend_wait, t->blend_wait + 1,
			--t->blend_wait_count * sizeof(*t->blend_wait));
	}
	advance_unit(t->blend, cycle);
	/* a freed warp slot or queue entry lets a blocked producer go on */
	if (t->core_freed)
		tsr_unit_wake(t->early_z, cycle);
	if (tsr_unit_can_accept(t->early_z))
		tsr_unit_wake(t->rasterizer, cycle);
}

/* The earliest next event of the units. Of the memory timing only its
 * completions matter: its DRAM decisions in between are run by the next
 * advance or issue (memtime.h). */
static uint64_t next_event(struct tsr_timing *t)
{
	uint64_t n = tsr_memtime_next_completion(t->mem);
	n = min64(n, tsr_unit_next_event(t->rasterizer));
	n = min64(n, tsr_unit_next_event(t->early_z));
	n = min64(n, tsr_unit_next_event(t->blend));
	for (uint32_t c = 0; c < t->cores; c++)
		n = min64(n, tsr_core_next_event(t->core[c]));
	return n;
}

/* Feeds released primitives' quads to the Rasterizer while it takes them. */
static int feed_rasterizer(struct tsr_timing *t, uint64_t cycle)
{
	const struct tsr_worklog *l = t->l;
	int fed = 0;
	while (t->prim_next < t->prims_released) {
		const struct tsr_wl_prim *p = &l->prims[t->prim_next];
		uint32_t setup = (p->attributes + t->cfg.rasterizer_attributes_per_cycle - 1) /
				 t->cfg.rasterizer_attributes_per_cycle;
		uint64_t tag;
		uint32_t work;
		if (p->quad_count == 0) {
			tag = SETUP_ONLY | t->prim_next;
			work = setup ? setup : 1;
		} else {
			tag = p->quad_first + t->quad_next;
			work = 1 + (t->quad_next == 0 ? setup : 0);
		}
		if (!tsr_unit_push(t->rasterizer, cycle, tag, work))
			break;
		fed = 1;
		if (p->quad_count == 0 || ++t->quad_next == p->quad_count) {
			t->prim_next++;
			t->quad_next = 0;
		}
	}
	return fed;
}

/* Primitives released by the Tile Fetcher's completed reads. */
static void release_primitives(struct tsr_timing *t)
{
	const struct tsr_worklog *l = t->l;
	const uint32_t f = l->fetch.count;
	if (f == 0 || t->fetch_done >= f) {
		t->prims_released = l->prim_count;
		return;
	}
	t->prims_released = (uint32_t)((uint64_t)t->fetch_done * l->prim_count / f);
}

/* Simulates the recorded tile from t->now; t->now becomes its end. */
static enum tsr_status run_tile(struct tsr_timing *t, struct tsr_error *err)
{
	const struct tsr_worklog *l = t->l;
	uint64_t now = t->now;
	t->fetch_next = t->fetch_done = 0;
	t->prim_next = t->quad_next = 0;
	t->prims_released = 0;
	t->quads_in = t->quads_out = 0;
	uint32_t survivors = 0;
	for (uint32_t i = 0; i < l->quad_count; i++)
		survivors += l->quads[i].core >= 0;
	for (uint32_t c = 0; c < t->cores; c++)
		tsr_core_mark(t->core[c], now);
	const uint64_t start = now;
	for (;;) {
		/* Tile Fetcher: this cycle's requests */
		for (uint32_t k = 0; k < t->cfg.tile_fetch_requests_per_cycle &&
				     t->fetch_next < l->fetch.count; k++, t->fetch_next++)
			issue_path(t, now, &l->paths[l->fetch.first + t->fetch_next],
				   (uint64_t)TAG_FETCH << TAG_KIND_SHIFT | t->fetch_next);
		advance_all(t, now);
		release_primitives(t);
		feed_rasterizer(t, now);
		if (t->failed)
			return tsr_error_set(err, t->failed, "the timing model failed in tile %u: %s",
					     l->tile, t->err.msg);
		if (t->fetch_done == l->fetch.count && t->prim_next == l->prim_count &&
		    t->quads_out == survivors && !tsr_unit_items(t->rasterizer) &&
		    !tsr_unit_items(t->early_z) && !t->blend_wait_count)
			break;
		uint64_t next = next_event(t);
		/* the Tile Fetcher issues every cycle; released primitives wait
		 * only while the Rasterizer's queue is full (feed_rasterizer()
		 * stops at that), and it gets room only at one of its own
		 * events, where the loop stops anyway */
		if (t->fetch_next < l->fetch.count ||
		    (t->prim_next < t->prims_released && tsr_unit_can_accept(t->rasterizer)))
			next = min64(next, now + 1);
		if (next == UINT64_MAX)
			return tsr_error_set(err, TSR_ERR_INTERNAL,
					     "the timing model of tile %u stopped with work left "
					     "(%u of %u quads blended)", l->tile, t->quads_out,
					     survivors);
		now = next > now ? next : now;
	}
	t->st->tile_fetch_reads += l->fetch.count;
	/* per core: its execution time in this tile (DTexL Fig. 14) */
	for (uint32_t c = 0; c < t->cores; c++) {
		const struct tsr_core_window *w = tsr_core_window(t->core[c]);
		if (w->quads_retired)
			t->st->core_tile_cycles[c] += w->last_retire_cycle - w->first_push_cycle;
	}
	/* the flush: one color write a cycle, posted */
	for (uint32_t i = 0; i < l->flush.count; i++) {
		issue_path(t, now, &l->paths[l->flush.first + i], (uint64_t)TAG_POSTED << TAG_KIND_SHIFT);
		now++;
	}
	t->st->tile_cycles += now - start;
	t->now = now;
	return TSR_OK;
}

/*
 * Advances the memory timing alone, event by event from `now`, while at
 * least `in_flight` requests are outstanding or (until_idle) anything is
 * pending (posted writes included); returns the cycle reached.
 */
static uint64_t wait_memory(struct tsr_timing *t, uint64_t now, uint64_t in_flight,
			    int until_idle)
{
	for (;;) {
		const uint64_t n = tsr_memtime_next_event(t->mem);
		if (n == UINT64_MAX ||
		    (tsr_memtime_in_flight(t->mem) < in_flight && !until_idle))
			return now;
		now = n > now ? n : now;
		tsr_memtime_advance(t->mem, now);
	}
}

void tsr_timing_frame_begin(struct tsr_gpu *g)
{
	tsr_worklog_begin(&g->timing->log, UINT32_MAX);
}

/*
 * The geometry phase (recorded since tsr_timing_frame_begin): its paths
 * issued one a cycle, at most GEOMETRY_IN_FLIGHT outstanding, as long as
 * primitive assembly and vertex processing take at least.
 */
enum tsr_status tsr_timing_geometry_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
					struct tsr_error *err)
{
	struct tsr_timing *t = g->timing;
	t->st = &st->timing;
	TSR_TRY(tsr_worklog_status(&t->log, err));
	uint64_t start = t->now, now = start;
	for (uint32_t i = 0; i < t->log.path_count; i++) {
		/* at most GEOMETRY_IN_FLIGHT requests outstanding: the vertex
		 * queues (RE Table I: 2 x 16 entries) stall the fetcher */
		now = wait_memory(t, now, GEOMETRY_IN_FLIGHT, 0);
		issue_path(t, now, &t->log.paths[i], (uint64_t)TAG_POSTED << TAG_KIND_SHIFT);
		tsr_memtime_advance(t->mem, ++now);
	}
	/* reads must have arrived: wait for the last one */
	now = wait_memory(t, now, 1, 0);
	uint64_t bound = start + min64(UINT64_MAX - start, st->geometry.primitives_in);
	bound = bound > start + st->geometry.vertices_fetched ? bound
							      : start + st->geometry.vertices_fetched;
	now = now > bound ? now : bound;
	if (t->failed)
		return tsr_error_set(err, t->failed, "the timing model failed in the geometry "
				     "phase: %s", t->err.msg);
	st->timing.geometry_cycles += now - start;
	t->now = now;
	return TSR_OK;
}

void tsr_timing_tile_begin(struct tsr_gpu *g, uint32_t tile)
{
	tsr_worklog_begin(&g->timing->log, tile);
}

enum tsr_status tsr_timing_tile_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
				    struct tsr_error *err)
{
	struct tsr_timing *t = g->timing;
	t->st = &st->timing;
	TSR_TRY(tsr_worklog_status(&t->log, err));
	t->l = &t->log;
	return run_tile(t, err);
}

/* The counters the units keep themselves, cumulative since creation. */
static void cumulative(struct tsr_timing *t, struct tsr_timing_stats *c)
{
	memset(c, 0, sizeof(*c));
	const struct tsr_memtime_counters *m = tsr_memtime_counters(t->mem);
	c->memory_latency = m->latency_sum;
	c->mshr_stall_cycles = m->mshr_stall_cycles;
	c->rasterizer_busy = tsr_unit_counters(t->rasterizer)->busy;
	c->early_z_busy = tsr_unit_counters(t->early_z)->busy;
	c->early_z_stalled = tsr_unit_counters(t->early_z)->stalled_output;
	c->blend_busy = tsr_unit_counters(t->blend)->busy;
	for (uint32_t i = 0; i < t->cores; i++) {
		const struct tsr_core_counters *k = tsr_core_counters(t->core[i]);
		c->core_busy[i] = k->busy_cycles;
		c->core_stalled_memory[i] = k->stall_mem_cycles;
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

/* Adds the memory timing's per-cache and per-stream counters since the
 * last frame end to st's, and keeps them for the next frame. */
static void cache_stream_deltas(struct tsr_timing *t, struct tsr_frame_stats *st)
{
	const uint32_t n = tsr_memsys_cache_count(t->g->mem);
	for (uint32_t i = 0; i < n; i++) {
		const struct tsr_memtime_cache_counters *k = tsr_memtime_cache_counters(t->mem, i);
		struct tsr_cache_timing_stats c = {
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
		}, d;
		memcpy(c.latency_hist, k->latency_hist, sizeof(c.latency_hist));
		tsr_counters_delta(&tsr_counters_cache_timing, &d, &c, &t->prev_cache[i]);
		tsr_counters_add(&tsr_counters_cache_timing, &st->cache_timing[i], &d);
		t->prev_cache[i] = c;
	}
	const struct tsr_memtime_counters *m = tsr_memtime_counters(t->mem);
	for (int i = 0; i < TSR_STREAM_COUNT; i++) {
		struct tsr_stream_timing_stats c = {
			.requests = m->stream[i].completed,
			.latency = m->stream[i].latency_sum,
		}, d;
		memcpy(c.latency_hist, m->stream[i].latency_hist, sizeof(c.latency_hist));
		tsr_counters_delta(&tsr_counters_stream_timing, &d, &c, &t->prev_stream[i]);
		tsr_counters_add(&tsr_counters_stream_timing, &st->stream_timing[i], &d);
		t->prev_stream[i] = c;
	}
}

/* Waits for every write of the frame to reach DRAM; fills the frame's totals. */
enum tsr_status tsr_timing_frame_end(struct tsr_gpu *g, uint64_t frame_start,
				     struct tsr_frame_stats *st, struct tsr_error *err)
{
	struct tsr_timing *t = g->timing;
	const uint64_t now = wait_memory(t, t->now, 1, 1);
	if (t->failed)
		return tsr_error_set(err, t->failed, "the timing model failed: %s", t->err.msg);
	t->now = now;
	st->timing.cycles += now - frame_start;
	for (uint32_t c = 0; c < t->cores; c++)
		tsr_core_advance(t->core[c], now);
	tsr_unit_advance(t->rasterizer, now);
	tsr_unit_advance(t->early_z, now);
	tsr_unit_advance(t->blend, now);
	/* this frame's share of what the units count themselves */
	struct tsr_timing_stats cum;
	cumulative(t, &cum);
	struct tsr_timing_stats *s = &st->timing;
#define DELTA(f) s->f += cum.f - t->prev.f
	DELTA(memory_latency);
	DELTA(mshr_stall_cycles);
	DELTA(rasterizer_busy);
	DELTA(early_z_busy);
	DELTA(early_z_stalled);
	DELTA(blend_busy);
	for (uint32_t i = 0; i < t->cores; i++) {
		DELTA(core_busy[i]);
		DELTA(core_stalled_memory[i]);
	}
	DELTA(dram_requests);
	DELTA(dram_row_hits);
	DELTA(dram_row_misses);
	DELTA(dram_row_conflicts);
	DELTA(dram_latency);
	DELTA(dram_occupancy);
	DELTA(dram_activates);
	DELTA(dram_precharges);
	DELTA(dram_read_bursts);
	DELTA(dram_write_bursts);
	DELTA(dram_refreshes);
	DELTA(dram_io_bytes);
	for (uint32_t i = 0; i < TSR_LATENCY_HIST_BUCKETS; i++)
		DELTA(memory_latency_hist[i]);
#undef DELTA
	t->prev = cum;
	/* what the DRAM could have moved in the frame (dram_bandwidth_utilisation's base) */
	s->dram_peak_bytes += (uint64_t)((double)(now - frame_start) *
					 tsr_dram_peak_bytes_per_gpu_cycle(tsr_memtime_dram(t->mem)));
	cache_stream_deltas(t, st);
	return TSR_OK;
}

uint64_t tsr_timing_now(const struct tsr_gpu *g)
{
	return g->timing->now;
}
