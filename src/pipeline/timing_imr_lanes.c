/*
 * timing_imr_lanes.c - the immediate-mode pipeline's lanes on the timing
 * units (pipeline.mode imr; docs/timing.md, "Immediate mode"; the shared
 * state is timing_priv.h). Each lane is in order and owns its pixels, so
 * there are no barriers and no flush: a quad's HiZ and depth reads wait
 * in a queue before its Early-Z lane (timing.imr_z_quads_in_flight), its
 * color and late-Z reads in a queue before its blending lane
 * (timing.imr_color_quads_in_flight), which takes retired quads in
 * Early-Z order; their writes are posted. A batch's primitives become
 * ready also in proportion to its draws' vertex-stage bound (no geometry
 * jobs). The tile window (timing_tiles.c) calls these; they call none of
 * the other timing files.
 */
#include "pipeline/timing_priv.h"

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
bool tsr_timing_imr_enter(struct tsr_timing *t, struct imr_fifo *f, uint64_t cycle,
			  uint64_t tag, struct tsr_wl_range rg, uint64_t kind, uint32_t lane)
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
void tsr_timing_imr_step(struct tsr_timing *t, uint64_t now)
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
			    !tsr_timing_imr_enter(t, f, now, tag, q->color, TAG_IMR_COLOR,
						  lane))
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

/* imr: primitives of run r its vertex stages have made ready by `now`
 * (in proportion to the time since they started, over their bound). */
uint32_t tsr_timing_imr_prims_processed(const struct tile_run *r, uint64_t now)
{
	if (!r->geo_started || now < r->geo_start)
		return 0;
	if (now - r->geo_start >= r->busy)
		return r->log.prim_count;
	return (uint32_t)((now - r->geo_start) * r->log.prim_count / r->busy);
}

/*
 * imr: the cycle after `now` at which the vertex stages make the Tile
 * Fetcher's next primitive ready, when that is what it waits for;
 * UINT64_MAX otherwise.
 */
uint64_t tsr_timing_imr_vertex_next(struct tsr_timing *t, uint64_t now)
{
	for (uint32_t i = t->fetch_pos; i < t->count; i++) {
		const struct tile_run *r = run_at(t, i);
		const uint32_t n = r->log.prim_count;
		if (r->prims_out == n)
			continue;
		if (!r->busy || !r->geo_started ||
		    tsr_timing_imr_prims_processed(r, now) > r->prims_out)
			return UINT64_MAX;
		return r->geo_start + ((uint64_t)(r->prims_out + 1) * r->busy + n - 1) / n;
	}
	return UINT64_MAX;
}
