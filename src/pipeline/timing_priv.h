/*
 * timing_priv.h - the timing mode's state, shared by its files (private
 * to the pipeline; docs/timing.md). The functional model runs each tile
 * as in the functional mode, recording its work items (timing/worklog.h)
 * and their memory paths (the memory system's path sink) into one of
 * timing.tiles_in_flight work logs; the recorded tiles are then simulated
 * cycle by cycle on the timing units, several at once, as the raster
 * pipeline of DTexL II-A/C holds them. The caches see the functional
 * order, so every counter but the timing group's is the functional
 * mode's.
 *
 * The files (the timing mode's part of gpu_priv.h is defined across
 * them: tsr_timing_create, _destroy, _frame_end and _now in
 * timing_driver.c; _frame_begin and _geometry_end in timing_geometry.c;
 * _tile_begin, _tile_end and _pass_end in timing_tiles.c; _imr_* in
 * timing_imr.c):
 *
 *   timing_driver.c     creation and destruction, a frame's end
 *   timing_imr.c        pipeline.mode imr: draws cut into batches, which
 *                       join the window in place of tiles
 *   timing_tiles.c      the tile window: tiles join, run and leave; the
 *                       Tile Fetcher, the units' callbacks, the barriers,
 *                       the flush and the simulation loop
 *   timing_geometry.c   a frame's geometry phase, a job beside the tiles
 *   timing_imr_lanes.c  imr: the quads' read queues before Early-Z and
 *                       blending, the vertex stages' readiness
 *   timing_stats.c      the counters: bottleneck attribution, a tile's
 *                       and a frame's share of the units' counters
 *
 * Calls go one way, down this list, never back up:
 *
 *   timing_driver.c -> timing_imr.c, timing_tiles.c, timing_stats.c
 *   timing_imr.c    -> timing_tiles.c
 *   timing_tiles.c  -> timing_geometry.c, timing_imr_lanes.c, timing_stats.c
 *
 * and the last three call none of the others. The helpers below are
 * static (a copy in each file that uses them).
 */
#ifndef TSR_PIPELINE_TIMING_PRIV_H
#define TSR_PIPELINE_TIMING_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h"
#include "pipeline/gpu_priv.h"
#include "timing/core.h"
#include "timing/memtime.h"
#include "timing/unit.h"
#include "timing/worklog.h"

/* Memory request tags: what completed. */
#define TAG_KIND_SHIFT 60
#define TAG_CORE_SHIFT 56
#define TAG_LOW_MASK ((1ull << TAG_CORE_SHIFT) - 1)
enum tag_kind { TAG_CORE = 1, TAG_FETCH, TAG_POSTED, TAG_GEOMETRY, TAG_IMR_Z, TAG_IMR_COLOR };

/* Quad and primitive tags: the tile's slot in the window, then the index. */
#define SLOT_SHIFT 32
#define INDEX_MASK 0xffffffffull
/* A Rasterizer item with no quad: a primitive's setup only. */
#define SETUP_ONLY (1ull << 63)

/* Requests the geometry phase keeps outstanding (RE Table I: vertex queues 2 x 16). */
#define GEOMETRY_IN_FLIGHT 32

/* Most tiles in flight (timing.tiles_in_flight's maximum). */
#define MAX_WINDOW 16

/* A frame's geometry phase: its recorded paths and its units' bound. */
struct geometry_job {
	struct tsr_worklog log;
	struct tsr_frame_stats *fs;  /* its frame's counters (geometry_busy_cycles) */
	double ratio;                /* the phase's memory accesses over those of its
					recorded paths (1: all recorded; > 1: tile
					sampling recorded chunks, timing_geometry.c) */
	uint32_t prefix_paths;       /* then: the paths before the chunks */
	uint64_t chunks_start;       /* the cycle the first chunk's first path issued */
	uint64_t busy;               /* cycles its units need at least */
	uint64_t start;              /* the cycle it started */
	uint64_t issue_at;           /* the first cycle it may issue again */
	uint32_t next;               /* paths issued */
	uint32_t in_flight;          /* of them, not completed */
};

/* Geometry jobs held at once: the running one and the next frame's. */
#define JOBS 2

/* One tile in the raster pipeline. */
struct tile_run {
	struct tsr_worklog log;      /* its work items, as the functional model ran them */
	uint32_t fetch_next, fetch_done;  /* reads issued, completed */
	uint32_t prims_out;          /* primitives the Tile Fetcher has output */
	uint32_t prim_next, quad_next;    /* next primitive (and quad) for the Rasterizer */
	uint32_t raster_in, raster_out;   /* Rasterizer items pushed, finished */
	/* per lane: its quads at Early-Z, its survivors (cores and blending),
	 * its flush lines; and the totals of the tiles before it */
	uint32_t n_ez[TSR_MAX_CORES], n_frag[TSR_MAX_CORES], n_flush[TSR_MAX_CORES];
	uint32_t flush_first[TSR_MAX_CORES];  /* the bank's first line in the flush range */
	uint64_t ez_before[TSR_MAX_CORES], frag_before[TSR_MAX_CORES],
		flush_before[TSR_MAX_CORES];
	uint64_t core_first[TSR_MAX_CORES], core_last[TSR_MAX_CORES];  /* DTexL Fig. 14 */
	uint32_t core_quads[TSR_MAX_CORES];   /* quads its cores have taken */
	uint32_t banks_flushed;      /* Color Buffer banks whose flush has been issued */
	uint64_t busy;               /* imr: the vertex stages' bound of its geometry, cycles */
	uint64_t geo_start;          /* imr: the cycle its vertex processing started */
	int geo_started;             /* imr: geo_start is set */
	uint64_t *heat;              /* tsr_gpu_enable_heat(): its frame's per-tile cycles
					(TSR_HEAT_TILE_CYCLES), or NULL */
	uint32_t sample;             /* timing.tile_sampling: its record's index + 1 in
					t->samples, or 0 */
};

/* The functional counters a tile's estimate is fitted on (timing_sampling.c). */
#define SAMPLE_FEATURES 8

/* timing.tile_sampling: one tile of a sampled raster phase. */
struct tile_sample {
	double x[SAMPLE_FEATURES];   /* its functional counters (x[0] = 1) */
	uint64_t retired;            /* timed: the cycle it left the pipeline */
	uint32_t tile;
	uint32_t timed;              /* 1: simulated cycle by cycle */
};

/* imr: a quad waiting in a lane for its reads (Early-Z: HiZ and depth;
 * blending: color and late Z), oldest first. */
struct imr_entry {
	uint64_t tag;                /* the quad's */
	uint32_t pending;            /* its reads not completed */
};

/* imr: a lane's quads waiting for reads, a ring of cap entries. */
struct imr_fifo {
	struct imr_entry *e;
	uint32_t head, count, cap;
};

/* A bank's flush in the Color Buffer's write-out queue. */
struct flush_job {
	uint32_t slot, lane, next;
};

/* Retired quads a blending lane has not taken yet, in retirement order. */
struct wait_list {
	uint64_t *tags;
	uint32_t head, count, cap;
};

/* timing.tile_sampling: the counters at a sampled raster phase's start
 * (tsr_timing_stats_mark()). */
struct sample_mark {
	struct tsr_timing_stats cum;     /* the units' cumulative ones */
	struct tsr_timing_stats direct;  /* the frame's, counted where they happen */
	struct tsr_cache_timing_stats cache[TSR_MEMSYS_MAX_CACHES];
	struct tsr_stream_timing_stats stream[TSR_STREAM_COUNT];
};

struct tsr_timing {
	struct tsr_gpu *g;
	struct tsr_timing_config cfg;
	uint32_t lanes;              /* cores = Early-Z and blending lanes = banks */
	int decoupled;
	struct tsr_memtime *mem;
	struct tsr_memtime_cache_params *cache_params;
	struct tsr_unit *rasterizer, *early_z[TSR_MAX_CORES], *blend[TSR_MAX_CORES];
	struct tsr_core *core[TSR_MAX_CORES];
	/* geometry jobs: jobs[i % JOBS] for i in [jobs_done, jobs_queued), the
	 * oldest running (started) unless none is queued */
	struct geometry_job jobs[JOBS];
	uint32_t jobs_queued, jobs_done;
	int job_started;             /* jobs[jobs_done % JOBS] has started */
	uint32_t rasters_ended;      /* raster phases ended (a frame's, or a render
					pass's): the window holds the next one's
					tiles, and its job is the one of that index */
	uint64_t geom_prims, geom_vertices, geom_instructions; /* the frame's geometry
					counters at its last geometry phase's end */
	uint64_t frame_start;        /* the cycle the last frame ended */
	uint64_t now;                /* the current cycle */
	/* the window: runs[(head + i) % window], i < count, oldest first */
	struct tile_run runs[MAX_WINDOW];
	uint32_t window, head, count;
	uint32_t fetch_pos;          /* window index of the tile the Tile Fetcher reads */
	uint32_t raster_pos;         /* window index of the tile the Rasterizer is fed from */
	uint64_t fetch_cycle;        /* cycle after the Tile Fetcher's last issue and output */
	uint32_t fetch_issued, fetch_out;  /* its reads and primitives in that cycle */
	uint64_t fetch_acted;        /* cycle after the last it issued or output in */
	uint64_t prims_queued;       /* primitives output and not yet fed to the Rasterizer */
	/* per lane, since creation: quads assigned, and finished by each stage;
	 * flush lines queued, issued */
	uint64_t ez_total[TSR_MAX_CORES], ez_done[TSR_MAX_CORES];
	uint64_t frag_total[TSR_MAX_CORES], frag_done[TSR_MAX_CORES], blend_done[TSR_MAX_CORES];
	uint64_t flush_total[TSR_MAX_CORES], flush_done[TSR_MAX_CORES];
	uint32_t flush_seq[TSR_MAX_CORES];  /* window index of the bank's next tile to flush */
	struct flush_job flushq[MAX_WINDOW * TSR_MAX_CORES];
	uint32_t fq_head, fq_count;
	uint64_t flush_cycle;        /* cycle of the last flush write */
	struct wait_list blend_wait[TSR_MAX_CORES];
	int retired, ez_moved, blended;  /* what changed this step: whom to wake */
	int flush_dirty;             /* what a bank's flush waits on changed
					(flush(), timing_tiles.c) */
	int fetch_dirty;             /* the Tile Fetcher acted in its last call, or what
					it waits on changed since (tile_fetcher(),
					timing_tiles.c) */
	uint64_t raster_start;       /* the frame's raster phase began */
	uint64_t heat_left;          /* the cycle the last tile left (per-tile cycles) */
	enum tsr_status failed;      /* a callback's error */
	struct tsr_timing_stats *st; /* the frame's timing counters */
	struct tsr_quad_imbalance *time_imbalance;  /* the frame's (DTexL Fig. 14), or NULL */
	struct tsr_timing_stats prev; /* the units' cumulative counters at the last frame end */
	/* the memory timing's per-cache and per-stream ones, likewise */
	struct tsr_cache_timing_stats prev_cache[TSR_MEMSYS_MAX_CACHES];
	struct tsr_stream_timing_stats prev_stream[TSR_STREAM_COUNT];
	struct tsr_error err;        /* the first callback error's message */
	/* pipeline.mode imr: batches of primitive windows for tiles, no
	 * geometry jobs, barriers or flushes; quads' Z and color traffic */
	int imr;
	struct imr_fifo zq[TSR_MAX_CORES];  /* before each Early-Z lane */
	struct imr_fifo cq[TSR_MAX_CORES];  /* before each blending lane */
	struct tsr_worklog geo;      /* the current draw's geometry paths */
	uint32_t geo_prims;          /* its primitives */
	uint32_t geo_prims_given, geo_paths_given;  /* of them, in batches cut so far */
	uint64_t geo_busy, geo_busy_given;  /* its vertex stages' bound, cycles; given */
	uint64_t geo_free;           /* the cycle the vertex stages finish their last draw */
	uint64_t geo_before[3];      /* the frame's geometry counters at the draw's start */
	uint64_t next_busy;          /* the bound of the batch tsr_timing_tile_end() adds */
	uint32_t batches;            /* batches cut since creation */
	/* timing.tile_sampling (timing_sampling.c): the raster phase's tiles so
	 * far, whether it samples, whether the tile being run is simulated,
	 * which, its counters at its start */
	struct tile_sample *samples;
	uint32_t sample_count, sample_cap;
	int sampling, timed;
	uint32_t sample_tile;
	uint32_t sample_offset;          /* the simulated tile's place in this period */
	struct tsr_rng sample_rng;       /* those places, seeded per phase */
	uint32_t sample_frame, sample_phase;  /* the frame (none: UINT32_MAX), its
						 phases begun */
	double sample_mark[SAMPLE_FEATURES];
	uint64_t core_mark[TSR_MAX_CORES];
	struct sample_mark phase_mark;   /* the counters at the phase's start, */
	uint64_t sample_start;           /* and its cycle (its geometry done) */
	/* the geometry phase being recorded in chunks (timing_geometry.c):
	 * its log, the memory system's access count and paused accesses at
	 * its start, the running chunk's (or prefix's) end (0: not begun),
	 * the prefix's paths and accesses (0: not over), the next period's
	 * start, the chunks' places; the running job's counters at its
	 * first chunk */
	struct tsr_worklog *geom_log;
	uint64_t geom_from, geom_paused_from, geom_chunk_end, geom_period;
	uint32_t geom_prefix_paths;
	uint64_t geom_prefix_accesses;
	struct tsr_rng geom_rng;
	struct sample_mark geom_mark;
};

/* The tile i (<= count <= window) places after the oldest; head < window,
 * so one subtraction wraps (a division here cost 3% of the timing mode). */
static inline struct tile_run *run_at(struct tsr_timing *t, uint32_t i)
{
	const uint32_t k = t->head + i;
	return &t->runs[k >= t->window ? k - t->window : k];
}

/* The run and the quad of a Rasterizer, Early-Z, core or blending tag. */
static inline struct tile_run *run_of(struct tsr_timing *t, uint64_t tag)
{
	return &t->runs[(tag & ~SETUP_ONLY) >> SLOT_SHIFT];
}

static inline const struct tsr_wl_quad *quad_of(struct tsr_timing *t, uint64_t tag)
{
	return &run_of(t, tag)->log.quads[tag & INDEX_MASK];
}

/*
 * Whether a barrier lets lane `lane` take a tile whose earlier tiles
 * brought the lanes `before` work: coupled, every lane has done its share
 * (`done`); decoupled, this lane has.
 */
static inline bool barrier_open(const struct tsr_timing *t, const uint64_t *done,
				const uint64_t *before, uint32_t lane)
{
	if (t->imr)
		return true;  /* no tiles: each lane is in order, nothing else waits */
	if (t->decoupled)
		return done[lane] >= before[lane];
	for (uint32_t i = 0; i < t->lanes; i++)
		if (done[i] < before[i])
			return false;
	return true;
}

/*
 * Issues path p to the memory timing at `cycle` with `tag` (its TAG_*
 * kind and what mem_done() in timing_tiles.c needs), counting it; an
 * error is kept in t->failed and t->err for the simulation to return.
 * Not inlined, as when it was a static function of one file: inlined at
 * its five call sites, it made the simulation loop too large for GCC
 * to inline the units' advance into it (heavy-3d, timing mode: +0.2%
 * instructions against -1.1% with it a function of its own). `unused`:
 * a file including this header need not call it.
 */
static __attribute__((noinline, unused)) void issue_path(struct tsr_timing *t, uint64_t cycle,
							  const struct tsr_mem_path *p,
							  uint64_t tag)
{
	/* a core's request: the core takes a completion in its future
	 * (timing/core.h), so a certain first-level hit completes at once */
	enum tsr_status st = tag >> TAG_KIND_SHIFT == TAG_CORE
				     ? tsr_memtime_issue_early(t->mem, cycle, p, tag, &t->err)
				     : tsr_memtime_issue(t->mem, cycle, p, tag, &t->err);
	if (st != TSR_OK && !t->failed)
		t->failed = st;
	t->st->memory_requests++;
}

static inline uint32_t at_least_1(uint32_t x)
{
	return x ? x : 1;
}

static inline uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Advances the memory timing alone, event by event from `now`, until
 * nothing is pending (posted writes included); returns the cycle reached. */
static inline uint64_t tsr_timing_wait_memory_idle(struct tsr_timing *t, uint64_t now)
{
	for (;;) {
		const uint64_t n = tsr_memtime_next_event(t->mem);
		if (n == UINT64_MAX)
			return now;
		now = n > now ? n : now;
		tsr_memtime_advance(t->mem, now);
	}
}

/* Whether the frame whose tiles the window holds has its geometry done. */
static inline bool geometry_done(const struct tsr_timing *t)
{
	return t->imr || t->jobs_done > t->rasters_ended;  /* imr: no geometry phase */
}

/* Whether the triangle queue has room for another primitive. */
static inline bool triangle_room(const struct tsr_timing *t)
{
	return !t->cfg.triangle_queue_entries || t->prims_queued < t->cfg.triangle_queue_entries;
}

/* Makes the functional model record into `log` (the stages and the memory's paths). */
static inline void record_into(struct tsr_gpu *g, struct tsr_worklog *log, uint32_t tile)
{
	tsr_worklog_begin(log, tile);
	g->log = log;
	tsr_memsys_set_path_sink(g->mem, tsr_worklog_path, log);
}

/* The log the next frame's geometry phase records into: a job slot no
 * job holds (the frame two back has ended, so its job is done). */
static inline struct tsr_worklog *next_job_log(struct tsr_timing *t)
{
	return &t->jobs[t->jobs_queued % JOBS].log;
}

/* timing_geometry.c: the next geometry phase (a render pass's, after the
 * last one's raster phase) records into the next job's log. */
void tsr_timing_pass_geometry_begin(struct tsr_gpu *g);

/* ---- timing_sampling.c ---- */

/*
 * timing.tile_sampling: whether the raster phase's next tile, `tile` (of
 * the pass's target, in the frame's order), is simulated (sets t->timed),
 * and its functional counters' start. Not sampling (timing.tile_sampling 0,
 * or a phase of fewer than 32 periods), every tile is.
 */
void tsr_timing_sample_begin(struct tsr_timing *t, uint32_t tile);

/* Records the tile just run (its counters since tsr_timing_sample_begin());
 * a simulated one's record is r->sample. Errors: TSR_ERR_NOMEM. */
enum tsr_status tsr_timing_sample_end(struct tsr_timing *t, struct tile_run *r,
				      struct tsr_error *err);

/*
 * At a sampled raster phase's end (its simulated tiles all retired):
 * fits the simulated tiles' cycles to their counters, adds the others'
 * estimate to t->now and to st (estimated_*), their share of the phase's
 * other timing counters (tsr_timing_stats_extrapolate()) and their
 * per-tile cycles to the frame's heatmap; forgets the phase's records.
 */
void tsr_timing_sample_phase_end(struct tsr_timing *t, struct tsr_frame_stats *st);

/* ---- timing_tiles.c ---- */

/*
 * Creates the Rasterizer, each lane's Early-Z and blending units and its
 * shader core from t->cfg, wired to the tile window's callbacks, and
 * makes the memory timing (t->mem, created) report its completions to
 * them. Errors: TSR_ERR_NOMEM, TSR_ERR_CONFIG (a unit's parameter).
 */
enum tsr_status tsr_timing_units_create(struct tsr_timing *t, struct tsr_error *err);

/* Destroys what tsr_timing_units_create() made (NULL ones skipped). */
void tsr_timing_units_destroy(struct tsr_timing *t);

/*
 * Simulates the tiles (imr: batches) in flight until at most `keep`
 * remain; the simulation stops at the cycle the last one needed leaves
 * and resumes there on the next call. Errors: TSR_ERR_NOMEM (a wait
 * list), TSR_ERR_INTERNAL (a unit's invariant broken, or no event left
 * with work in flight: a bug).
 */
enum tsr_status tsr_timing_simulate(struct tsr_timing *t, uint32_t keep, struct tsr_error *err);

/* ---- timing_geometry.c ---- */

/*
 * The geometry jobs at cycle `now`: the oldest starts if it has not,
 * issues its next path when it may, and is done when its paths have
 * completed and its units' bound has passed (then the window's frame's
 * raster phase may start).
 */
void tsr_timing_geometry_step(struct tsr_timing *t, uint64_t now);

/* The next cycle the running geometry job acts at without a memory
 * completion; UINT64_MAX when none runs or it waits on completions. */
uint64_t tsr_timing_geometry_next(const struct tsr_timing *t);

/* ---- timing_imr_lanes.c ---- */

/* imr: queues quad `tag` in f (lane `lane`'s Early-Z or blending queue,
 * `kind` TAG_IMR_Z or TAG_IMR_COLOR) at `cycle`, issuing the reads of
 * its path range rg; false when f is full (the producer keeps it). */
bool tsr_timing_imr_enter(struct tsr_timing *t, struct imr_fifo *f, uint64_t cycle,
			  uint64_t tag, struct tsr_wl_range rg, uint64_t kind, uint32_t lane);

/* imr at cycle `now`: moves each lane's quads whose reads have completed
 * into its Early-Z or blending unit, and its retired quads (in Early-Z
 * order) into its blending queue. */
void tsr_timing_imr_step(struct tsr_timing *t, uint64_t now);

/* imr: the primitives of run r its vertex stages have made ready by
 * cycle `now`: none before they start (r->geo_start), all once their
 * bound r->busy has passed, in proportion in between. */
uint32_t tsr_timing_imr_prims_processed(const struct tile_run *r, uint64_t now);

/* imr: the cycle after `now` at which the vertex stages make the Tile
 * Fetcher's next primitive ready, when that is what it waits for;
 * UINT64_MAX otherwise. */
uint64_t tsr_timing_imr_vertex_next(struct tsr_timing *t, uint64_t now);

/* ---- timing_stats.c ---- */

/* Counts the cycles [from, to) of the raster phase into t->st by what
 * holds it up (bottleneck_*, geometry_cycles) and the Tile Fetcher's
 * active and stalled cycles. */
void tsr_timing_account(struct tsr_timing *t, uint64_t from, uint64_t to);

/* Counts run r, which leaves the window, into t->st: its Tile Fetcher
 * reads and its cores' execution time (and t->time_imbalance's tile). */
void tsr_timing_stats_tile_left(struct tsr_timing *t, const struct tile_run *r);

/* Adds to st the frame's share of the counters the units and the memory
 * timing keep themselves (cumulative since creation, brought up to the
 * frame's end by the caller), and the DRAM's peak bytes over the frame's
 * frame_cycles cycles; keeps them for the next frame's share. */
void tsr_timing_stats_frame_end(struct tsr_timing *t, struct tsr_frame_stats *st,
				uint64_t frame_cycles);

/* timing.tile_sampling: keeps in m the counters at a sampled raster
 * phase's start (st: its frame's). */
void tsr_timing_stats_mark(struct tsr_timing *t, const struct tsr_frame_stats *st,
			   struct sample_mark *m);

/*
 * timing.tile_sampling: adds to st factor times each timing counter's
 * change since the mark m (the units', the memory timing's per cache and
 * per stream, and those counted where they happen): the skipped tiles'
 * share at the simulated tiles' rates. The clock's counters (cycles,
 * geometry and tile cycles, DRAM refreshes and peak bytes) and the
 * sampling's own are left out.
 */
void tsr_timing_stats_extrapolate(struct tsr_timing *t, struct tsr_frame_stats *st,
				  const struct sample_mark *m, double factor);

#endif
