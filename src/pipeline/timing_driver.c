/*
 * timing_driver.c - the timing mode of the TBR GPU (docs/timing.md): the
 * functional model runs each tile as in the functional mode, recording
 * its work items (timing/worklog.h) and their memory paths (the memory
 * system's path sink) into one of timing.tiles_in_flight work logs; the
 * recorded tiles are then simulated cycle by cycle on the timing units,
 * several at once, as the raster pipeline of DTexL II-A/C holds them:
 *
 *   Tile Fetcher: each tile's Parameter Buffer reads in tile order,
 *     tile_fetch_requests_per_cycle a cycle, through the memory timing
 *     (timing/memtime.h); a tile's primitives become ready in proportion
 *     to its reads completed (a primitive's PMD and attributes are read
 *     before it) and leave at tile_fetch_primitives_per_cycle into the
 *     triangle queue (triangle_queue_entries primitives; the Tile Fetcher
 *     stops reading while it is full). The next tile's reads start as soon
 *     as the last one's are issued, so fetching overlaps rasterization.
 *   Rasterizer (timing/unit.h): one quad per cycle, a primitive's first
 *     quad also taking its setup, attributes / rasterizer_attributes_per_cycle
 *     cycles (RE Table I); a primitive covering no quad takes the setup
 *     only. Its quads go to the Early-Z lane of their core.
 *   Early-Z: one lane per core (the Z-Buffer's bank, DTexL II-A), one
 *     quad per cycle each, early_z_inflight / cores quads in flight; a
 *     killed quad ends there, a survivor goes to its shader core and
 *     waits (blocking its lane, which is in order) while the core has no
 *     free warp slot.
 *   Shader cores (timing/core.h): warps of one quad, the quad's
 *     instruction fetch and texture paths through the memory timing.
 *   Blending: one lane per core (the Color Buffer's bank), one quad per
 *     cycle each, fragment_queue_entries / cores entries of queue.
 *   Flush: a bank's color writes, one a cycle for the whole Color Buffer
 *     (posted: they take DRAM bandwidth, nobody waits). A tile's flush
 *     lines are shared among the banks in equal contiguous parts.
 *
 * Barriers (DTexL II-C, III-E; timing.barriers): coupled, Early-Z, the
 * cores and blending each take a tile's quads only when every lane of the
 * stage has finished every earlier tile, and the whole Color Buffer is
 * flushed when all blending lanes have finished the tile, before any
 * lane blends the next; decoupled, each lane waits only for its own
 * earlier subtiles and each bank flushes when its lane is done. A tile
 * leaves the pipeline when its last flush write is issued; at most
 * tiles_in_flight tiles are in it (the functional model runs that far
 * ahead), so a window that is full stops the Tile Fetcher until the
 * oldest tile leaves.
 *
 * The geometry phase of a frame runs before its tiles (binning must be
 * complete), bounded by its memory traffic (its paths issued one a cycle,
 * at most 32 outstanding: the vertex queues of RE Table I), primitive
 * assembly's 1 triangle per cycle, the vertex fetcher's 1 vertex per cycle
 * and the vertex processors' vertex_instructions / vertex_processors
 * cycles (RE Table I: 1 vertex processor). It is a job the simulation
 * runs beside the tiles: the Tile Fetcher starts a frame's tiles when the
 * frame's job is done. Without timing.overlap_frames a frame's job starts
 * when the last frame has ended, and a frame ends when its last write has
 * reached DRAM; with it, the next frame's job starts as soon as this
 * frame's is done (its Parameter Buffer is the other one), so it runs
 * during this frame's raster phase, and a frame ends when its last tile
 * leaves (the last frame, when its writes have reached DRAM too).
 *
 * The immediate-mode pipeline (pipeline.mode imr; docs/timing.md,
 * "Immediate mode") runs on the same units: its unit in flight is a batch
 * of primitive windows (a draw's, cut after timing.imr_batch_quads quads)
 * instead of a tile, with no flush and no barriers (each lane is in
 * order and owns its pixels); its Tile Fetcher reads are the batch's
 * share of its draws' index and vertex paths, its primitives ready also
 * in proportion to the draws' vertex-stage bound (no geometry jobs). A
 * quad's HiZ and depth reads wait in a queue before its Early-Z lane
 * (timing.imr_z_quads_in_flight), its color and late-Z reads in a queue
 * before its blending lane (timing.imr_color_quads_in_flight), which
 * takes retired quads in Early-Z order; their writes are posted.
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

/* Where the oldest tile in flight waits (the bottleneck_* counters). */
enum stage {
	ST_GEOMETRY, ST_FETCH, ST_RASTER, ST_EARLY_Z, ST_FRAGMENT, ST_BLEND, ST_FLUSH, ST_NONE
};

/* A frame's geometry phase: its recorded paths and its units' bound. */
struct geometry_job {
	struct tsr_worklog log;
	struct tsr_timing_stats *st; /* its frame's counters (geometry_busy_cycles) */
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
	int flush_dirty;             /* what a bank's flush waits on changed (flush()) */
	int fetch_dirty;             /* the Tile Fetcher acted in its last call, or what
					it waits on changed since (tile_fetcher()) */
	uint64_t raster_start;       /* the frame's raster phase began */
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
};

/* The tile i (<= count <= window) places after the oldest; head < window,
 * so one subtraction wraps (a division here cost 3% of the timing mode). */
static struct tile_run *run_at(struct tsr_timing *t, uint32_t i)
{
	const uint32_t k = t->head + i;
	return &t->runs[k >= t->window ? k - t->window : k];
}

static struct tile_run *run_of(struct tsr_timing *t, uint64_t tag)
{
	return &t->runs[(tag & ~SETUP_ONLY) >> SLOT_SHIFT];
}

static const struct tsr_wl_quad *quad_of(struct tsr_timing *t, uint64_t tag)
{
	return &run_of(t, tag)->log.quads[tag & INDEX_MASK];
}

/*
 * Whether a barrier lets lane `lane` take a tile whose earlier tiles
 * brought the lanes `before` work: coupled, every lane has done its share
 * (`done`); decoupled, this lane has.
 */
static bool barrier_open(const struct tsr_timing *t, const uint64_t *done,
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
		t->runs[(tag & TAG_LOW_MASK) >> SLOT_SHIFT].fetch_done++;
		t->flush_dirty = t->fetch_dirty = 1;
		break;
	case TAG_GEOMETRY:  /* only the oldest job issues */
		t->jobs[t->jobs_done % JOBS].in_flight--;
		break;
	case TAG_IMR_Z:
	case TAG_IMR_COLOR: {
		const uint32_t lane = (uint32_t)(tag >> TAG_CORE_SHIFT) & 0xf;
		struct imr_fifo *f = (tag >> TAG_KIND_SHIFT) == TAG_IMR_Z ? &t->zq[lane]
										: &t->cq[lane];
		f->e[(tag & TAG_LOW_MASK) % f->cap].pending--;
		break;
	}
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
	const struct tile_run *r = run_of(t, quad);
	const struct tsr_wl_quad *q = &r->log.quads[quad & INDEX_MASK];
	const struct tsr_wl_range *rg = kind == TSR_CORE_MEM_IFETCH ? &q->ifetch : &q->tex;
	issue_path(t, cycle, &r->log.paths[rg->first + index],
		   (uint64_t)TAG_CORE << TAG_KIND_SHIFT | (uint64_t)q->core << TAG_CORE_SHIFT |
		   (token & TAG_LOW_MASK));
}

/* Whether blending lane `lane` may take `tag`: its barrier, and its bank
 * flushed of every earlier tile. */
static bool blend_gate(void *ctx, uint64_t cycle, uint64_t tag)
{
	(void)cycle;
	struct tsr_timing *t = ctx;
	const struct tile_run *r = run_of(t, tag);
	const uint32_t lane = quad_of(t, tag)->core;
	return barrier_open(t, t->blend_done, r->frag_before, lane) &&
	       barrier_open(t, t->flush_done, r->flush_before, lane);
}

/* Appends tag to w (growing it: rare, its size is bounded by the warp slots). */
static void wait_push(struct tsr_timing *t, struct wait_list *w, uint64_t tag)
{
	if (w->head + w->count == w->cap) {
		if (w->head) {  /* slide to the front before growing */
			memmove(w->tags, w->tags + w->head, w->count * sizeof(*w->tags));
			w->head = 0;
		} else {
			uint64_t *a = tsr_array_grow(w->tags, &w->cap, w->count + 1,
						     sizeof(*a));
			if (!a) {
				t->failed = TSR_ERR_NOMEM;
				return;
			}
			w->tags = a;
		}
	}
	w->tags[w->head + w->count++] = tag;
}

static void core_retire(void *ctx, uint64_t tag, uint64_t cycle)
{
	struct tsr_timing *t = ctx;
	struct tile_run *r = run_of(t, tag);
	struct tsr_wl_quad *q = &r->log.quads[tag & INDEX_MASK];
	const uint32_t lane = q->core;
	t->frag_done[lane]++;
	r->core_last[lane] = cycle;
	t->retired = 1;
	if (t->imr) {  /* blending takes it in its lane's order (imr_step()) */
		q->retired = 1;
		return;
	}
	struct wait_list *w = &t->blend_wait[lane];
	if (w->count == 0 && tsr_unit_push(t->blend[lane], cycle, tag, 1))
		return;
	wait_push(t, w, tag);
}

/*
 * imr: issues the reads of path range rg at `cycle`, tagged for entry
 * `index` of lane `lane`'s fifo of kind `kind`, counting them in *pending.
 */
static void issue_reads(struct tsr_timing *t, uint64_t cycle, const struct tsr_worklog *l,
			struct tsr_wl_range rg, uint64_t kind, uint32_t lane, uint32_t index,
			uint32_t *pending)
{
	for (uint32_t i = 0; i < rg.count; i++) {
		const struct tsr_mem_path *p = &l->paths[rg.first + i];
		if (p->write)
			continue;
		/* counted first: an issue runs the memory timing up to its cycle,
		 * which may complete an earlier read of the quad */
		(*pending)++;
		issue_path(t, cycle, p, kind << TAG_KIND_SHIFT | (uint64_t)lane << TAG_CORE_SHIFT |
			   index);
	}
}

/* imr: issues the writes of path range rg at `cycle`, posted. */
static void issue_writes(struct tsr_timing *t, uint64_t cycle, const struct tsr_worklog *l,
			 struct tsr_wl_range rg)
{
	for (uint32_t i = 0; i < rg.count; i++)
		if (l->paths[rg.first + i].write)
			issue_path(t, cycle, &l->paths[rg.first + i],
				   (uint64_t)TAG_POSTED << TAG_KIND_SHIFT);
}

/* imr: queues quad `tag` in f, issuing the reads of its range rg; false
 * when f is full (the producer keeps it). */
static bool imr_enter(struct tsr_timing *t, struct imr_fifo *f, uint64_t cycle, uint64_t tag,
		      struct tsr_wl_range rg, uint64_t kind, uint32_t lane)
{
	if (f->count == f->cap)
		return false;
	uint32_t i = f->head + f->count;
	i = i >= f->cap ? i - f->cap : i;
	f->e[i].tag = tag;
	f->e[i].pending = 0;
	f->count++;
	issue_reads(t, cycle, &run_of(t, tag)->log, rg, kind, lane, i, &f->e[i].pending);
	return true;
}

/*
 * imr at `now`: each lane's quads whose reads have completed enter its
 * Early-Z or blending unit in order (their writes issued then, posted),
 * and the quads its core has retired leave the lane's reorder list in
 * Early-Z order for the blending fifo, issuing their reads.
 */
static void imr_step(struct tsr_timing *t, uint64_t now)
{
	t->fetch_dirty = 1;  /* the vertex stages may have made primitives ready */
	for (uint32_t lane = 0; lane < t->lanes; lane++) {
		struct imr_fifo *f = &t->zq[lane];
		while (f->count && f->e[f->head].pending == 0 &&
		       tsr_unit_push(t->early_z[lane], now, f->e[f->head].tag, 1)) {
			const uint64_t tag = f->e[f->head].tag;
			issue_writes(t, now, &run_of(t, tag)->log, quad_of(t, tag)->z);
			f->head = f->head + 1 == f->cap ? 0 : f->head + 1;
			f->count--;
			t->ez_moved = 1;  /* room: the Rasterizer may go on */
		}
		struct wait_list *w = &t->blend_wait[lane];
		f = &t->cq[lane];
		while (w->count) {
			const uint64_t tag = w->tags[w->head];
			const struct tsr_wl_quad *q = quad_of(t, tag);
			if (!q->retired ||
			    !imr_enter(t, f, now, tag, q->color, TAG_IMR_COLOR, lane))
				break;
			w->head++;
			if (--w->count == 0)
				w->head = 0;
		}
		while (f->count && f->e[f->head].pending == 0 &&
		       tsr_unit_push(t->blend[lane], now, f->e[f->head].tag, 1)) {
			const uint64_t tag = f->e[f->head].tag;
			issue_writes(t, now, &run_of(t, tag)->log, quad_of(t, tag)->color);
			f->head = f->head + 1 == f->cap ? 0 : f->head + 1;
			f->count--;
		}
	}
}

/* Rasterizer -> the quad's Early-Z lane (imr: its fifo, which issues its reads) */
static bool rasterizer_out(void *ctx, uint64_t cycle, uint64_t tag)
{
	struct tsr_timing *t = ctx;
	struct tile_run *r = run_of(t, tag);
	if (!(tag & SETUP_ONLY)) {
		const struct tsr_wl_quad *q = quad_of(t, tag);
		if (t->imr ? !imr_enter(t, &t->zq[q->core], cycle, tag, q->z, TAG_IMR_Z, q->core)
			   : !tsr_unit_push(t->early_z[q->core], cycle, tag, 1))
			return false;
	}
	r->raster_out++;
	t->flush_dirty = 1;
	return true;
}

/* Whether Early-Z lane `lane` may take `tag` (its barrier). */
static bool early_z_gate(void *ctx, uint64_t cycle, uint64_t tag)
{
	(void)cycle;
	struct tsr_timing *t = ctx;
	return barrier_open(t, t->ez_done, run_of(t, tag)->ez_before, quad_of(t, tag)->core);
}

/* Early-Z -> the quad's core, past the fragment stage's barrier (a killed
 * quad ends here) */
static bool early_z_out(void *ctx, uint64_t cycle, uint64_t tag)
{
	struct tsr_timing *t = ctx;
	struct tile_run *r = run_of(t, tag);
	const struct tsr_wl_quad *q = &r->log.quads[tag & INDEX_MASK];
	const uint32_t lane = q->core;
	if (!q->killed) {
		struct tsr_core *c = t->core[lane];
		/* (the cheaper test first: a full core refuses most quads) */
		if (!tsr_core_can_accept(c) || !barrier_open(t, t->frag_done, r->frag_before, lane))
			return false;
		const struct tsr_core_item item = {tag, q->alu, q->tex.count, q->ifetch.count};
		if (tsr_core_push(c, cycle, &item, NULL) != TSR_OK) {
			t->failed = TSR_ERR_INTERNAL;
			return true;
		}
		if (r->core_quads[lane]++ == 0)
			r->core_first[lane] = cycle;
		if (t->imr)  /* its lane's reorder list: blending in Early-Z order */
			wait_push(t, &t->blend_wait[lane], tag);
	}
	t->ez_done[lane]++;
	t->ez_moved = t->flush_dirty = 1;
	return true;
}

static bool blend_out(void *ctx, uint64_t cycle, uint64_t tag)
{
	(void)cycle;
	struct tsr_timing *t = ctx;
	t->blend_done[quad_of(t, tag)->core]++;
	t->blended = t->flush_dirty = 1;
	return true;
}

/* ---- creation ---- */

static uint32_t at_least_1(uint32_t x)
{
	return x ? x : 1;
}

enum tsr_status tsr_timing_create(struct tsr_gpu *g, struct tsr_error *err)
{
	struct tsr_timing *t = calloc(1, sizeof(*t));
	if (!t)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the timing model");
	g->timing = t;
	t->g = g;
	t->cfg = g->cfg.timing;
	t->lanes = g->cfg.mem.cores;
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
	tsr_memtime_set_completion(t->mem, mem_done, t);
	const struct tsr_unit_params rp = {"rasterizer", t->cfg.triangle_queue_entries
					   ? t->cfg.triangle_queue_entries : 16, 1, 0, 1};
	const struct tsr_unit_params zp = {"early_z", rp.queue_entries, 1, 1,
					   at_least_1(t->cfg.early_z_inflight / t->lanes)};
	const struct tsr_unit_params bp = {"blending",
					   at_least_1(t->cfg.fragment_queue_entries / t->lanes), 1,
					   0, 1};
	TSR_TRY(tsr_unit_create(&rp, rasterizer_out, NULL, t, &t->rasterizer, err));
	struct tsr_core_params cp;
	tsr_core_params_default(&cp);
	cp.warp_slots = t->cfg.warp_slots;
	cp.issue_width = t->cfg.issue_width;
	cp.sched = t->cfg.warp_scheduler;
	cp.alu_before_sample = t->cfg.alu_before_sample;
	cp.sample_issue_cycles = t->cfg.sample_issue_cycles;
	for (uint32_t c = 0; c < t->lanes; c++) {
		TSR_TRY(tsr_unit_create(&zp, early_z_out, early_z_gate, t, &t->early_z[c], err));
		TSR_TRY(tsr_unit_create(&bp, blend_out, blend_gate, t, &t->blend[c], err));
		TSR_TRY(tsr_core_create(&cp, &t->core[c], err));
		tsr_core_set_memory(t->core[c], core_issue, t);
		tsr_core_set_retire(t->core[c], core_retire, t);
	}
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
	tsr_unit_destroy(t->rasterizer);
	for (uint32_t c = 0; c < t->lanes; c++) {
		tsr_unit_destroy(t->early_z[c]);
		tsr_unit_destroy(t->blend[c]);
		tsr_core_destroy(t->core[c]);
		free(t->blend_wait[c].tags);
		free(t->zq[c].e);
		free(t->cq[c].e);
	}
	tsr_worklog_release(&t->geo);
	for (uint32_t i = 0; i < JOBS; i++)
		tsr_worklog_release(&t->jobs[i].log);
	for (uint32_t i = 0; i < MAX_WINDOW; i++)
		tsr_worklog_release(&t->runs[i].log);
	free(t->cache_params);
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
	for (uint32_t c = 0; c < t->lanes; c++)
		advance_unit(t->early_z[c], cycle);
	/* A core whose next output (a request, a retirement) lies beyond
	 * `cycle` is left behind: nothing it would do up to `cycle` is seen
	 * here, and a push or a completion brings it up to date first
	 * (core.h). Its instructions in between are simulated when it is
	 * next advanced, with the same result. */
	for (uint32_t c = 0; c < t->lanes; c++)
		if (tsr_core_next_event(t->core[c]) <= cycle)
			tsr_core_advance(t->core[c], cycle);
	for (uint32_t c = 0; c < t->lanes; c++) {
		struct wait_list *w = &t->blend_wait[c];
		/* (imr: the list is the lane's reorder list, imr_step() drains it) */
		while (!t->imr && w->count &&
		       tsr_unit_push(t->blend[c], cycle, w->tags[w->head], 1)) {
			w->head++;
			if (--w->count == 0)
				w->head = 0;
		}
		advance_unit(t->blend[c], cycle);
	}
}

/* Wakes the units whose output or barrier may have opened this step. */
static void wake(struct tsr_timing *t, uint64_t cycle)
{
	/* a freed warp slot, or a core's progress through the fragment
	 * stage's barrier, or Early-Z's own barrier */
	if (t->retired || t->ez_moved)
		for (uint32_t c = 0; c < t->lanes; c++)
			tsr_unit_wake(t->early_z[c], cycle);
	/* room in an Early-Z lane */
	if (t->ez_moved && tsr_unit_blocked(t->rasterizer))
		tsr_unit_wake(t->rasterizer, cycle);
	if (t->blended)
		for (uint32_t c = 0; c < t->lanes; c++)
			tsr_unit_wake(t->blend[c], cycle);
	t->retired = t->ez_moved = t->blended = 0;
}

/* The earliest next event of the units. Of the memory timing only its
 * completions matter: its DRAM decisions in between are run by the next
 * advance or issue (memtime.h). */
static uint64_t next_event(struct tsr_timing *t)
{
	uint64_t n = tsr_memtime_next_completion(t->mem);
	n = min64(n, tsr_unit_next_event(t->rasterizer));
	for (uint32_t c = 0; c < t->lanes; c++) {
		n = min64(n, tsr_unit_next_event(t->early_z[c]));
		n = min64(n, tsr_unit_next_event(t->blend[c]));
		n = min64(n, tsr_core_next_event(t->core[c]));
	}
	return n;
}

/* Whether the frame whose tiles the window holds has its geometry done. */
static bool geometry_done(const struct tsr_timing *t)
{
	return t->imr || t->jobs_done > t->rasters_ended;  /* imr: no geometry phase */
}

/*
 * The geometry jobs at `now`: the oldest starts if it has not (when the
 * last one is done), issues its next path if fewer than
 * GEOMETRY_IN_FLIGHT are outstanding and it did not issue this cycle,
 * and is done when every path has completed, a cycle after its last
 * issue at the earliest, and its units' bound has passed.
 */
static void geometry(struct tsr_timing *t, uint64_t now)
{
	while (t->jobs_done < t->jobs_queued) {
		struct geometry_job *j = &t->jobs[t->jobs_done % JOBS];
		if (!t->job_started) {
			t->job_started = 1;
			j->start = j->issue_at = now;
		}
		if (j->next < j->log.path_count && j->in_flight < GEOMETRY_IN_FLIGHT &&
		    j->issue_at <= now) {
					issue_path(t, now, &j->log.paths[j->next++],
				   (uint64_t)TAG_GEOMETRY << TAG_KIND_SHIFT);
			j->in_flight++;
			j->issue_at = now + 1;
		}
		if (j->next < j->log.path_count || j->in_flight || now < j->issue_at ||
		    now < j->start + j->busy)
			return;
		j->st->geometry_busy_cycles += now - j->start;
		if (t->jobs_done++ == t->rasters_ended)
			t->raster_start = now;  /* the window's frame may start now */
		t->flush_dirty = t->fetch_dirty = 1;
		t->job_started = 0;
	}
}

/* The next cycle the running geometry job acts at without a completion. */
static uint64_t geometry_next(const struct tsr_timing *t)
{
	if (t->jobs_done == t->jobs_queued)
		return UINT64_MAX;
	const struct geometry_job *j = &t->jobs[t->jobs_done % JOBS];
	if (j->next < j->log.path_count)
		return j->in_flight < GEOMETRY_IN_FLIGHT ? j->issue_at : UINT64_MAX;
	if (j->in_flight)
		return UINT64_MAX;  /* its completions are the memory timing's events */
	return j->issue_at > j->start + j->busy ? j->issue_at : j->start + j->busy;
}

/* imr: primitives of run r its vertex stages have made ready by `now`
 * (in proportion to the time since they started, over their bound). */
static uint32_t prims_processed(const struct tile_run *r, uint64_t now)
{
	if (!r->geo_started || now < r->geo_start)
		return 0;
	if (now - r->geo_start >= r->busy)
		return r->log.prim_count;
	return (uint32_t)((now - r->geo_start) * r->log.prim_count / r->busy);
}

/* Primitives of run r its completed reads (imr: and its vertex stages)
 * have made ready by `now`. */
static uint32_t prims_ready(const struct tile_run *r, uint64_t now)
{
	const uint32_t f = r->log.fetch.count;
	uint32_t n = f == 0 || r->fetch_done >= f
		     ? r->log.prim_count
		     : (uint32_t)((uint64_t)r->fetch_done * r->log.prim_count / f);
	if (r->busy) {
		const uint32_t v = prims_processed(r, now);
		n = v < n ? v : n;
	}
	return n;
}

/* Whether the triangle queue has room for another primitive. */
static bool triangle_room(const struct tsr_timing *t)
{
	return !t->cfg.triangle_queue_entries || t->prims_queued < t->cfg.triangle_queue_entries;
}

/*
 * The Tile Fetcher at `now`: its reads (in tile order, a tile's after the
 * last one's are all issued, none while the triangle queue is full) and
 * its output of ready primitives, up to its budget a cycle.
 */
static void tile_fetcher(struct tsr_timing *t, uint64_t now)
{
	if (!geometry_done(t))
		return;  /* the frame's binning is not complete */
	/* a call again in the same cycle (the simulation resumed there with
	 * new tiles) goes on with what is left of the cycle's budget */
	if (t->fetch_cycle != now + 1) {  /* a new cycle: a new budget */
		t->fetch_cycle = now + 1;
		t->fetch_issued = t->fetch_out = 0;
	}
	uint32_t issued = t->fetch_issued, out = t->fetch_out;
	const uint32_t out0 = out;
	int in_order = 1;  /* every earlier tile's primitives are out: this one's may go */
	for (uint32_t i = t->fetch_pos; i < t->count; i++) {
		struct tile_run *r = run_at(t, i);
		const struct tsr_wl_range *f = &r->log.fetch;
		const uint64_t slot = (uint64_t)(r - t->runs) << SLOT_SHIFT;
		while (issued < t->cfg.tile_fetch_requests_per_cycle && r->fetch_next < f->count &&
		       triangle_room(t)) {
			issue_path(t, now, &r->log.paths[f->first + r->fetch_next],
				   (uint64_t)TAG_FETCH << TAG_KIND_SHIFT | slot | r->fetch_next);
			r->fetch_next++;
			issued++;
		}
		if (r->busy && !r->geo_started) {  /* imr: its draws' vertex processing */
			r->geo_started = 1;
			r->geo_start = now > t->geo_free ? now : t->geo_free;
			t->geo_free = r->geo_start + r->busy;
		}
		const uint32_t ready = in_order ? prims_ready(r, now) : 0;
		while (out < t->cfg.tile_fetch_primitives_per_cycle && r->prims_out < ready &&
		       triangle_room(t)) {
			r->prims_out++;
			t->prims_queued++;
			out++;
		}
		const int all_out = r->prims_out == r->log.prim_count;
		/* (a run without primitives may still have reads: an imr batch
		 * of a draw whose primitives were all culled) */
		if (all_out && in_order && r->fetch_next == f->count && i == t->fetch_pos &&
		    i + 1 < t->count)
			t->fetch_pos++;
		in_order &= all_out;
		/* the next tile's reads once this one's are all issued */
		if (r->fetch_next < f->count)
			break;
	}
	t->st->tile_fetch_primitives += out - out0;
	if (issued + out > t->fetch_issued + out0)
		t->fetch_acted = now + 1;
	/* one that did nothing this cycle cannot do more until what it waits
	 * on changes (fetch_dirty is set again then); one that did may go on
	 * next cycle */
	t->fetch_dirty = issued + out > 0;
	t->fetch_issued = issued;
	t->fetch_out = out;
}

/* Whether the Tile Fetcher has reads to issue or ready primitives to output at `now`. */
static bool fetcher_has_work(struct tsr_timing *t, uint64_t now)
{
	if (!geometry_done(t))
		return false;
	for (uint32_t i = t->fetch_pos; i < t->count; i++) {
		const struct tile_run *r = run_at(t, i);
		if (r->fetch_next < r->log.fetch.count || r->prims_out < prims_ready(r, now))
			return true;
		if (r->prims_out < r->log.prim_count)
			return false;  /* its primitives wait for reads; the next tile's too */
	}
	return false;
}

/*
 * imr: the cycle after `now` at which the vertex stages make the Tile
 * Fetcher's next primitive ready, when that is what it waits for;
 * UINT64_MAX otherwise.
 */
static uint64_t imr_vertex_next(struct tsr_timing *t, uint64_t now)
{
	for (uint32_t i = t->fetch_pos; i < t->count; i++) {
		const struct tile_run *r = run_at(t, i);
		const uint32_t n = r->log.prim_count;
		if (r->prims_out == n)
			continue;
		if (!r->busy || !r->geo_started || prims_processed(r, now) > r->prims_out)
			return UINT64_MAX;
		return r->geo_start + ((uint64_t)(r->prims_out + 1) * r->busy + n - 1) / n;
	}
	return UINT64_MAX;
}

/* Feeds output primitives' quads to the Rasterizer while it takes them. */
static void feed_rasterizer(struct tsr_timing *t, uint64_t cycle)
{
	while (t->raster_pos < t->count) {
		struct tile_run *r = run_at(t, t->raster_pos);
		const struct tsr_worklog *l = &r->log;
		if (r->prim_next == l->prim_count) {
			if (t->raster_pos + 1 == t->count)
				return;  /* stay on the newest tile */
			t->raster_pos++;  /* every primitive fed: the next tile */
			continue;
		}
		if (r->prim_next == r->prims_out)
			return;
		const struct tsr_wl_prim *p = &l->prims[r->prim_next];
		const uint32_t setup = (p->attributes + t->cfg.rasterizer_attributes_per_cycle - 1) /
				       t->cfg.rasterizer_attributes_per_cycle;
		const uint64_t slot = (uint64_t)(r - t->runs) << SLOT_SHIFT;
		uint64_t tag;
		uint32_t work;
		if (p->quad_count == 0) {
			tag = SETUP_ONLY | slot | r->prim_next;
			work = at_least_1(setup);
		} else {
			tag = slot | (p->quad_first + r->quad_next);
			work = 1 + (r->quad_next == 0 ? setup : 0);
		}
		if (!tsr_unit_push(t->rasterizer, cycle, tag, work))
			return;
		r->raster_in++;
		if (p->quad_count == 0 || ++r->quad_next == p->quad_count) {
			r->prim_next++;
			r->quad_next = 0;
			t->prims_queued--;
			/* raster_done() may hold, the triangle queue has room */
			t->flush_dirty = t->fetch_dirty = 1;
		}
	}
}

/* Whether run r's primitives have all left the Rasterizer. */
static bool raster_done(const struct tile_run *r)
{
	return r->fetch_done == r->log.fetch.count && r->prim_next == r->log.prim_count &&
	       r->raster_out == r->raster_in;
}

/* Whether lane `lane` (every lane, coupled) has blended run r's quads. */
static bool blended(const struct tsr_timing *t, const struct tile_run *r, uint32_t lane)
{
	for (uint32_t i = t->decoupled ? lane : 0; i < (t->decoupled ? lane + 1 : t->lanes); i++)
		if (t->ez_done[i] < r->ez_before[i] + r->n_ez[i] ||
		    t->blend_done[i] < r->frag_before[i] + r->n_frag[i])
			return false;
	return true;
}

/*
 * The Color Buffer's write-out at `now`: banks whose tile is blended join
 * its queue (each bank in tile order), and one line a cycle leaves.
 */
static void flush(struct tsr_timing *t, uint64_t now)
{
	/* only when what it waits on changed (a tile with nothing to fetch
	 * is done as soon as its frame's geometry is) */
	if (t->flush_dirty && geometry_done(t)) {
		t->flush_dirty = 0;
		for (uint32_t lane = 0; lane < t->lanes; lane++) {
			while (t->flush_seq[lane] < t->count) {
				const uint32_t i = t->flush_seq[lane];
				const struct tile_run *r = run_at(t, i);
				if (!raster_done(r) || !blended(t, r, lane))
					break;
				t->flushq[(t->fq_head + t->fq_count++) %
					  (MAX_WINDOW * TSR_MAX_CORES)] =
					(struct flush_job){(uint32_t)(r - t->runs), lane, 0};
				t->flush_seq[lane]++;
			}
		}
	}
	while (t->fq_count && t->flush_cycle <= now) {
		struct flush_job *j = &t->flushq[t->fq_head];
		const struct tile_run *r = &t->runs[j->slot];
		if (j->next < r->n_flush[j->lane]) {
			issue_path(t, now, &r->log.paths[r->log.flush.first + r->flush_first[j->lane] +
							  j->next],
				   (uint64_t)TAG_POSTED << TAG_KIND_SHIFT);
			j->next++;
			t->flush_cycle = now + 1;
		}
		if (j->next >= r->n_flush[j->lane]) {
			t->flush_done[j->lane] += r->n_flush[j->lane];
			t->runs[j->slot].banks_flushed++;
			t->fq_head = (t->fq_head + 1) % (MAX_WINDOW * TSR_MAX_CORES);
			t->fq_count--;
			t->blended = 1;  /* a bank is free: blending may go on */
		}
	}
}

/* Retires the oldest tiles that have left every stage. */
static void retire(struct tsr_timing *t)
{
	while (t->count) {
		struct tile_run *r = run_at(t, 0);
		/* every bank flushed (which needs every quad blended) */
		if (r->banks_flushed < t->lanes)
			return;
		t->st->tile_fetch_reads += r->log.fetch.count;
		uint64_t busy[TSR_MAX_CORES];  /* each core's execution time in the tile */
		for (uint32_t c = 0; c < t->lanes; c++) {
			busy[c] = r->core_quads[c] ? r->core_last[c] - r->core_first[c] : 0;
			t->st->core_tile_cycles[c] += busy[c];
		}
		if (t->time_imbalance)  /* raster.quad_imbalance_stats */
			tsr_quad_imbalance_add_tile(t->time_imbalance, busy, t->lanes);
		t->head = (t->head + 1) % t->window;
		t->count--;
		t->fetch_pos -= t->fetch_pos > 0;
		t->raster_pos -= t->raster_pos > 0;
		for (uint32_t c = 0; c < t->lanes; c++)
			t->flush_seq[c] -= t->flush_seq[c] > 0;
	}
}

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
static void account(struct tsr_timing *t, uint64_t from, uint64_t to)
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

/*
 * Simulates the tiles in flight until at most `keep` remain; the
 * simulation stops at the cycle the last one needed leaves and resumes
 * there on the next call.
 */
static enum tsr_status simulate(struct tsr_timing *t, uint32_t keep, struct tsr_error *err)
{
	uint64_t now = t->now;
	for (;;) {
		advance_all(t, now);
		if (t->imr)
			imr_step(t, now);
		geometry(t, now);
		if (t->fetch_dirty)
			tile_fetcher(t, now);
		feed_rasterizer(t, now);
		flush(t, now);
		wake(t, now);
		retire(t);
		if (t->failed)
			return tsr_error_set(err, t->failed, "the timing model failed: %s",
					     t->err.msg);
		if (t->count <= keep)
			break;
		uint64_t next = next_event(t);
		/* the Tile Fetcher and the flush act every cycle while they have
		 * work; fed primitives wait only while the Rasterizer's queue is
		 * full, and it gets room only at one of its own events */
		if (t->fq_count || (t->fetch_dirty && triangle_room(t) && fetcher_has_work(t, now)))
			next = min64(next, now + 1);
		next = min64(next, geometry_next(t));
		if (t->imr)
			next = min64(next, imr_vertex_next(t, now));
		if (next == UINT64_MAX) {
			const struct tile_run *r = run_at(t, 0);
			return tsr_error_set(err, TSR_ERR_INTERNAL,
					     "the timing model of tile %u stopped with work left "
					     "(%u of %u primitives fed)", r->log.tile, r->prim_next,
					     r->log.prim_count);
		}
		next = next > now ? next : now;
		account(t, now, next);
		now = next;
	}
	t->now = now;
	return TSR_OK;
}

/* Advances the memory timing alone, event by event from `now`, until
 * nothing is pending (posted writes included); returns the cycle reached. */
static uint64_t wait_memory_idle(struct tsr_timing *t, uint64_t now)
{
	for (;;) {
		const uint64_t n = tsr_memtime_next_event(t->mem);
		if (n == UINT64_MAX)
			return now;
		now = n > now ? n : now;
		tsr_memtime_advance(t->mem, now);
	}
}

/* Makes the functional model record into `log` (the stages and the memory's paths). */
static void record_into(struct tsr_gpu *g, struct tsr_worklog *log, uint32_t tile)
{
	tsr_worklog_begin(log, tile);
	g->log = log;
	tsr_memsys_set_path_sink(g->mem, tsr_worklog_path, log);
}

/* The log the next frame's geometry phase records into: a job slot no
 * job holds (the frame two back has ended, so its job is done). */
static struct tsr_worklog *next_job_log(struct tsr_timing *t)
{
	return &t->jobs[t->jobs_queued % JOBS].log;
}

void tsr_timing_frame_begin(struct tsr_gpu *g)
{
	struct tsr_timing *t = g->timing;
	t->geom_prims = t->geom_vertices = t->geom_instructions = 0;
	record_into(g, next_job_log(t), UINT32_MAX);
}

/*
 * The geometry phase just recorded becomes a job (run by simulate(), see
 * geometry()): its paths, and the bound of primitive assembly and the
 * vertex fetcher (one a cycle each) and of the vertex processors
 * (timing.vertex_processors instructions a cycle): the phase is bounded
 * by the slowest, not simulated stage by stage.
 */
enum tsr_status tsr_timing_geometry_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
					struct tsr_error *err)
{
	struct tsr_timing *t = g->timing;
	struct geometry_job *j = &t->jobs[t->jobs_queued % JOBS];
	TSR_TRY(tsr_worklog_status(&j->log, err));
	if (t->jobs_queued - t->jobs_done >= JOBS)
		return tsr_error_set(err, TSR_ERR_INTERNAL, "a geometry phase recorded while %u "
				     "wait", t->jobs_queued - t->jobs_done);
	/* this phase's share of the frame's counters (a frame of several
	 * passes has a geometry phase per pass) */
	const struct tsr_geometry_stats *gs = &st->geometry;
	const uint64_t prims = gs->primitives_in - t->geom_prims,
		       vertices = gs->vertices_fetched - t->geom_vertices,
		       vp = (gs->vertex_instructions - t->geom_instructions +
			     t->cfg.vertex_processors - 1) / t->cfg.vertex_processors;
	t->geom_prims = gs->primitives_in;
	t->geom_vertices = gs->vertices_fetched;
	t->geom_instructions = gs->vertex_instructions;
	const uint64_t busy = prims > vertices ? prims : vertices;
	j->busy = busy > vp ? busy : vp;
	j->st = &st->timing;
	j->next = j->in_flight = 0;
	t->jobs_queued++;
	return TSR_OK;
}

void tsr_timing_tile_begin(struct tsr_gpu *g, uint32_t tile)
{
	struct tsr_timing *t = g->timing;
	/* tsr_timing_tile_end() leaves room for one more */
	record_into(g, &run_at(t, t->count)->log, tile);
}

/*
 * The tile just recorded joins the window: its lanes' shares of the work
 * and of the flush; when the window is full, the pipeline runs until its
 * oldest tile leaves.
 */
enum tsr_status tsr_timing_tile_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
				    struct tsr_error *err)
{
	struct tsr_timing *t = g->timing;
	t->st = &st->timing;
	t->time_imbalance = g->cfg.quad_imbalance_stats ? &st->time_imbalance : NULL;
	struct tile_run *r = run_at(t, t->count);
	TSR_TRY(tsr_worklog_status(&r->log, err));
	const struct tsr_worklog log = r->log;
	memset(r, 0, sizeof(*r));
	r->log = log;
	r->busy = t->next_busy;  /* imr: its geometry's bound (0 for a tile) */
	for (uint32_t i = 0; i < log.quad_count; i++) {
		const struct tsr_wl_quad *q = &log.quads[i];
		if (q->core >= t->lanes)
			return tsr_error_set(err, TSR_ERR_INTERNAL, "tile %u: a quad of core %u "
					     "with %u cores", log.tile, q->core, t->lanes);
		r->n_ez[q->core]++;
		r->n_frag[q->core] += !q->killed;
	}
	for (uint32_t c = 0; c < t->lanes; c++) {
		r->flush_first[c] = (uint32_t)((uint64_t)c * log.flush.count / t->lanes);
		r->n_flush[c] = (uint32_t)((uint64_t)(c + 1) * log.flush.count / t->lanes) -
				r->flush_first[c];
		r->ez_before[c] = t->ez_total[c];
		r->frag_before[c] = t->frag_total[c];
		r->flush_before[c] = t->flush_total[c];
		t->ez_total[c] += r->n_ez[c];
		t->frag_total[c] += r->n_frag[c];
		t->flush_total[c] += r->n_flush[c];
	}
	t->count++;
	t->flush_dirty = t->fetch_dirty = 1;
	if (t->count < t->window)
		return TSR_OK;
	return simulate(t, t->window - 1, err);
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

/* Runs a raster phase's last tiles into the frame's counters st; the
 * next phase's geometry records into the next job's log. */
static enum tsr_status end_raster(struct tsr_gpu *g, struct tsr_frame_stats *st,
				  struct tsr_error *err)
{
	struct tsr_timing *t = g->timing;
	t->st = &st->timing;
	t->time_imbalance = g->cfg.quad_imbalance_stats ? &st->time_imbalance : NULL;
	TSR_TRY(simulate(t, 0, err));
	st->timing.tile_cycles += t->now - t->raster_start;
	/* the next phase's tiles start now, or when its geometry is done */
	t->raster_start = t->now;
	t->rasters_ended++;
	record_into(g, next_job_log(t), UINT32_MAX);
	return TSR_OK;
}

enum tsr_status tsr_timing_pass_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
				    struct tsr_error *err)
{
	return end_raster(g, st, err);
}

/* ---- pipeline.mode imr ---- */

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

/* imr: runs the batches in flight to their end (a pass's or the frame's). */
static enum tsr_status imr_end_raster(struct tsr_gpu *g, struct tsr_frame_stats *st,
				      struct tsr_error *err)
{
	struct tsr_timing *t = g->timing;
	t->st = &st->timing;
	t->time_imbalance = NULL;
	TSR_TRY(simulate(t, 0, err));
	st->timing.tile_cycles += t->now - t->raster_start;
	t->raster_start = t->now;
	return TSR_OK;
}

enum tsr_status tsr_timing_imr_pass_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
					struct tsr_error *err)
{
	return imr_end_raster(g, st, err);
}

/* Runs the frame's last tiles and waits for every write of the frame to
 * reach DRAM; fills the frame's totals. */
enum tsr_status tsr_timing_frame_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
				     struct tsr_error *err)
{
	struct tsr_timing *t = g->timing;
	TSR_TRY(t->imr ? imr_end_raster(g, st, err) : end_raster(g, st, err));
	/* the frame's writes reach DRAM before the next frame's geometry
	 * starts, unless it has (overlapping frames) */
	const uint64_t now = t->jobs_done < t->jobs_queued ? t->now
			     : wait_memory_idle(t, t->now);
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
	/* this frame's share of what the units count themselves */
	struct tsr_timing_stats cum;
	cumulative(t, &cum);
	struct tsr_timing_stats *s = &st->timing, d;
	tsr_counters_delta(&tsr_counters_timing, &d, &cum, &t->prev);
	tsr_counters_add(&tsr_counters_timing, s, &d);
	t->prev = cum;
	/* what the DRAM could have moved in the frame (dram_bandwidth_utilisation's base) */
	s->dram_peak_bytes += (uint64_t)((double)frame_cycles *
					 tsr_dram_peak_bytes_per_gpu_cycle(tsr_memtime_dram(t->mem)));
	cache_stream_deltas(t, st);
	return TSR_OK;
}

uint64_t tsr_timing_now(const struct tsr_gpu *g)
{
	return g->timing->now;
}
