/*
 * timing_tiles.c - the tile window of the timing mode (docs/timing.md;
 * the shared state is timing_priv.h): recorded tiles join it
 * (tsr_timing_tile_begin/_end), at most timing.tiles_in_flight at once,
 * and are simulated cycle by cycle on the timing units as the raster
 * pipeline of DTexL II-A/C holds them:
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
 * The simulation loop (tsr_timing_simulate) advances the memory timing
 * and the units event by event, runs the geometry jobs
 * (timing_geometry.c), imr's read queues (timing_imr_lanes.c), the Tile
 * Fetcher, the Rasterizer's feed and the flush, and counts each stretch
 * of cycles by what holds it up (timing_stats.c).
 */
#include <string.h>

#include "core/array.h"
#include "pipeline/timing_priv.h"

/* ---- the units' callbacks ---- */

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
	if (t->imr) {  /* blending takes it in its lane's order (tsr_timing_imr_step()) */
		q->retired = 1;
		return;
	}
	struct wait_list *w = &t->blend_wait[lane];
	if (w->count == 0 && tsr_unit_push(t->blend[lane], cycle, tag, 1))
		return;
	wait_push(t, w, tag);
}

/* Rasterizer -> the quad's Early-Z lane (imr: its fifo, which issues its reads) */
static bool rasterizer_out(void *ctx, uint64_t cycle, uint64_t tag)
{
	struct tsr_timing *t = ctx;
	struct tile_run *r = run_of(t, tag);
	if (!(tag & SETUP_ONLY)) {
		const struct tsr_wl_quad *q = quad_of(t, tag);
		if (t->imr ? !tsr_timing_imr_enter(t, &t->zq[q->core], cycle, tag, q->z, TAG_IMR_Z,
						   q->core)
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
		/* (a log with no program quad has no segment array: no offset into NULL) */
		const struct tsr_core_item item = {tag, q->alu, q->tex.count, q->ifetch.count,
						   q->seg_count,
						   q->seg_count ? r->log.segs + q->seg_first : NULL};
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

/* ---- the units ---- */

enum tsr_status tsr_timing_units_create(struct tsr_timing *t, struct tsr_error *err)
{
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
	cp.sfu_latency_cycles = t->cfg.sfu_latency_cycles;
	cp.sample_issue_cycles = t->cfg.sample_issue_cycles;
	for (uint32_t c = 0; c < t->lanes; c++) {
		TSR_TRY(tsr_unit_create(&zp, early_z_out, early_z_gate, t, &t->early_z[c], err));
		TSR_TRY(tsr_unit_create(&bp, blend_out, blend_gate, t, &t->blend[c], err));
		TSR_TRY(tsr_core_create(&cp, &t->core[c], err));
		tsr_core_set_memory(t->core[c], core_issue, t);
		tsr_core_set_retire(t->core[c], core_retire, t);
	}
	return TSR_OK;
}

void tsr_timing_units_destroy(struct tsr_timing *t)
{
	tsr_unit_destroy(t->rasterizer);
	for (uint32_t c = 0; c < t->lanes; c++) {
		tsr_unit_destroy(t->early_z[c]);
		tsr_unit_destroy(t->blend[c]);
		tsr_core_destroy(t->core[c]);
	}
}

/* ---- simulation ---- */

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

/* Quads that left core c and wait for its blending lane enter it while it
 * takes them (imr: the list is the lane's reorder list,
 * tsr_timing_imr_step() drains it). */
static void drain_blend_wait(struct tsr_timing *t, uint32_t c, uint64_t cycle)
{
	struct wait_list *w = &t->blend_wait[c];
	while (!t->imr && w->count && tsr_unit_push(t->blend[c], cycle, w->tags[w->head], 1)) {
		w->head++;
		if (--w->count == 0)
			w->head = 0;
	}
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
		drain_blend_wait(t, c, cycle);
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
		for (uint32_t c = 0; c < t->lanes; c++) {
			tsr_unit_wake(t->blend[c], cycle);
			drain_blend_wait(t, c, cycle);  /* in the cycle its gate opens */
		}
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

/* Primitives of run r its completed reads (imr: and its vertex stages)
 * have made ready by `now`. */
static uint32_t prims_ready(const struct tile_run *r, uint64_t now)
{
	const uint32_t f = r->log.fetch.count;
	uint32_t n = f == 0 || r->fetch_done >= f
		     ? r->log.prim_count
		     : (uint32_t)((uint64_t)r->fetch_done * r->log.prim_count / f);
	if (r->busy) {
		const uint32_t v = tsr_timing_imr_prims_processed(r, now);
		n = v < n ? v : n;
	}
	return n;
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

/* Whether the Tile Fetcher would act at `now` (tile_fetcher() reads the
 * tiles the same way): reads to issue (a tile's once every earlier tile's
 * are issued), an imr batch's vertex processing to start, or ready
 * primitives to output (a tile's once every earlier tile's are out). */
static bool fetcher_has_work(struct tsr_timing *t, uint64_t now)
{
	if (!geometry_done(t))
		return false;
	bool in_order = true;
	for (uint32_t i = t->fetch_pos; i < t->count; i++) {
		const struct tile_run *r = run_at(t, i);
		if (r->fetch_next < r->log.fetch.count || (r->busy && !r->geo_started))
			return true;
		if (in_order && r->prims_out < prims_ready(r, now))
			return true;
		in_order &= r->prims_out == r->log.prim_count;
	}
	return false;
}

/* Feeds output primitives' quads to the Rasterizer while it takes them;
 * returns whether a primitive left the triangle queue (room for the Tile
 * Fetcher). */
static bool feed_rasterizer(struct tsr_timing *t, uint64_t cycle)
{
	bool room = false;
	while (t->raster_pos < t->count) {
		struct tile_run *r = run_at(t, t->raster_pos);
		const struct tsr_worklog *l = &r->log;
		if (r->prim_next == l->prim_count) {
			if (t->raster_pos + 1 == t->count)
				return room;  /* stay on the newest tile */
			t->raster_pos++;  /* every primitive fed: the next tile */
			continue;
		}
		if (r->prim_next == r->prims_out)
			return room;
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
			return room;
		r->raster_in++;
		if (p->quad_count == 0 || ++r->quad_next == p->quad_count) {
			r->prim_next++;
			r->quad_next = 0;
			t->prims_queued--;
			room = true;
			/* raster_done() may hold, the triangle queue has room */
			t->flush_dirty = t->fetch_dirty = 1;
		}
	}
	return room;
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

/* Retires the oldest tiles that have left every stage by `now`. */
static void retire(struct tsr_timing *t, uint64_t now)
{
	while (t->count) {
		struct tile_run *r = run_at(t, 0);
		/* every bank flushed (which needs every quad blended) */
		if (r->banks_flushed < t->lanes)
			return;
		tsr_timing_stats_tile_left(t, r);
		if (r->heat) {  /* its cycles as the oldest tile of its raster phase */
			const uint64_t from = t->heat_left > t->raster_start ? t->heat_left
									     : t->raster_start;
			r->heat[r->log.tile] += now > from ? now - from : 0;
		}
		t->heat_left = now;
		if (r->sample)  /* timing.tile_sampling's record of it */
			t->samples[r->sample - 1].retired = now;
		t->head = (t->head + 1) % t->window;
		t->count--;
		t->fetch_pos -= t->fetch_pos > 0;
		t->raster_pos -= t->raster_pos > 0;
		for (uint32_t c = 0; c < t->lanes; c++)
			t->flush_seq[c] -= t->flush_seq[c] > 0;
	}
}

/*
 * Simulates the tiles in flight until at most `keep` remain (and, with
 * `geometry`, until the window's frame has its geometry done); the
 * simulation stops at the cycle the last one needed leaves and resumes
 * there on the next call.
 */
static enum tsr_status run(struct tsr_timing *t, uint32_t keep, bool geometry,
			   struct tsr_error *err)
{
	uint64_t now = t->now;
	for (;;) {
		advance_all(t, now);
		if (t->imr)
			tsr_timing_imr_step(t, now);
		tsr_timing_geometry_step(t, now);
		if (t->fetch_dirty)
			tile_fetcher(t, now);
		/* room the Rasterizer makes in the triangle queue is the Tile
		 * Fetcher's in the same cycle, within its budget of the cycle */
		while (feed_rasterizer(t, now))
			tile_fetcher(t, now);
		flush(t, now);
		wake(t, now);
		retire(t, now);
		if (t->failed)
			return tsr_error_set(err, t->failed, "the timing model failed: %s",
					     t->err.msg);
		if (t->count <= keep && (!geometry || geometry_done(t)))
			break;
		uint64_t next = next_event(t);
		/* the Tile Fetcher and the flush act every cycle while they have
		 * work; fed primitives wait only while the Rasterizer's queue is
		 * full, and it gets room only at one of its own events */
		if (t->fq_count || (t->fetch_dirty && triangle_room(t) && fetcher_has_work(t, now)))
			next = min64(next, now + 1);
		next = min64(next, tsr_timing_geometry_next(t));
		if (t->imr)
			next = min64(next, tsr_timing_imr_vertex_next(t, now));
		if (next == UINT64_MAX) {
			const struct tile_run *r = run_at(t, 0);
			return tsr_error_set(err, TSR_ERR_INTERNAL,
					     "the timing model of tile %u stopped with work left "
					     "(%u of %u primitives fed)", r->log.tile, r->prim_next,
					     r->log.prim_count);
		}
		next = next > now ? next : now;
		tsr_timing_account(t, now, next);
		now = next;
	}
	t->now = now;
	return TSR_OK;
}

enum tsr_status tsr_timing_simulate(struct tsr_timing *t, uint32_t keep,
				    struct tsr_error *err)
{
	return run(t, keep, false, err);
}

/* ---- the window ---- */

void tsr_timing_tile_begin(struct tsr_gpu *g, uint32_t tile)
{
	struct tsr_timing *t = g->timing;
	if (t->cfg.tile_sampling) {
		tsr_timing_sample_begin(t, tile);
		if (!t->timed) {  /* run on the functional model alone */
			g->log = NULL;
			tsr_memsys_set_path_sink(g->mem, NULL, NULL);
			return;
		}
	}
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
	if (!t->timed)  /* a tile that tile sampling skips */
		return tsr_timing_sample_end(t, NULL, err);
	struct tile_run *r = run_at(t, t->count);
	TSR_TRY(tsr_worklog_status(&r->log, err));
	const struct tsr_worklog log = r->log;
	memset(r, 0, sizeof(*r));
	r->log = log;
	r->busy = t->next_busy;  /* imr: its geometry's bound (0 for a tile) */
	r->heat = g->ras && g->ras->heat ? &g->ras->heat[(size_t)TSR_HEAT_TILE_CYCLES * g->tiles]
					 : NULL;
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
	if (t->sampling && t->sample_count == 0) {
		/* a sampled phase's first tile: the counters the skipped tiles'
		 * share is extrapolated from start when the phase's geometry
		 * is done (the window is empty, and the Tile Fetcher would wait
		 * for it) */
		TSR_TRY(run(t, 0, true, err));
		tsr_timing_stats_mark(t, g->ras->st, &t->phase_mark);
		t->sample_start = t->now;
	}
	if (t->cfg.tile_sampling)
		TSR_TRY(tsr_timing_sample_end(t, r, err));
	t->count++;
	t->flush_dirty = t->fetch_dirty = 1;
	if (t->count < t->window)
		return TSR_OK;
	return tsr_timing_simulate(t, t->window - 1, err);
}

/* Runs a raster phase's last tiles (a pass's, or the frame's:
 * tsr_timing_frame_end) into the frame's counters st; the next phase's
 * geometry records into the next job's log. */
enum tsr_status tsr_timing_pass_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
				    struct tsr_error *err)
{
	struct tsr_timing *t = g->timing;
	t->st = &st->timing;
	t->time_imbalance = g->cfg.quad_imbalance_stats ? &st->time_imbalance : NULL;
	TSR_TRY(tsr_timing_simulate(t, 0, err));
	if (t->cfg.tile_sampling)  /* the skipped tiles' cycles */
		tsr_timing_sample_phase_end(t, st);
	st->timing.tile_cycles += t->now - t->raster_start;
	/* the next phase's tiles start now, or when its geometry is done */
	t->raster_start = t->now;
	t->rasters_ended++;
	tsr_timing_pass_geometry_begin(g);
	return TSR_OK;
}
