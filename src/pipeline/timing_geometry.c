/*
 * timing_geometry.c - the geometry phase of a frame in the timing mode
 * (docs/timing.md; the shared state is timing_priv.h). A frame's (or a
 * render pass's) geometry phase is recorded from tsr_timing_frame_begin()
 * (or the last raster phase's end) to tsr_timing_geometry_end() and runs
 * before its tiles (binning must be complete), bounded by its memory
 * traffic (its paths issued one a cycle, at most 32 outstanding: the
 * vertex queues of RE Table I), primitive assembly's 1 triangle per
 * cycle, the vertex fetcher's 1 vertex per cycle and the vertex
 * processors' vertex_instructions / vertex_processors cycles (RE Table I:
 * 1 vertex processor). It is a job the simulation (timing_tiles.c) runs
 * beside the tiles: the Tile Fetcher starts a frame's tiles when the
 * frame's job is done. Without timing.overlap_frames a frame's job starts
 * when the last frame has ended, and a frame ends when its last write has
 * reached DRAM; with it, the next frame's job starts as soon as this
 * frame's is done (its Parameter Buffer is the other one), so it runs
 * during this frame's raster phase, and a frame ends when its last tile
 * leaves (the last frame, when its writes have reached DRAM too;
 * tsr_timing_frame_end in timing_driver.c). With timing.tile_sampling, a
 * long phase's paths are recorded in chunks past a prefix and the job's
 * memory time estimated from them (geometry_path(), estimate();
 * docs/timing.md, "Tile sampling").
 */
#include "pipeline/timing_priv.h"

/* Memory accesses (tsr_memsys_accesses(): lookups at every level) of a
 * geometry chunk that tile sampling records, and the periods of P chunks
 * recorded whole at a geometry phase's start (its prefix): a phase that
 * short is recorded and simulated whole. Measured on sprites-2d, whose
 * phases have 5.4 K accesses: chunked from the start, the 3 chunks of its
 * 3 periods ran at twice the whole phase's rate. */
#define GEOMETRY_CHUNK 256
#define GEOMETRY_PREFIX_PERIODS 32

/*
 * The path sink of a geometry phase that tile sampling records in chunks:
 * the path joins the job's log; once the prefix, or a chunk, has its
 * accesses, the sink pauses until the next chunk's start, at random in
 * the next period of P chunks (stratified as the tiles are,
 * timing_sampling.c).
 */
static void geometry_path(void *ctx, const struct tsr_mem_path *p)
{
	struct tsr_timing *t = ctx;
	struct tsr_memsys *mem = t->g->mem;
	tsr_worklog_path(t->geom_log, p);
	const uint64_t now = tsr_memsys_accesses(mem);
	if (!t->geom_chunk_end)  /* the first path since the sink resumed */
		t->geom_chunk_end = now + GEOMETRY_CHUNK;
	if (now < t->geom_chunk_end)
		return;
	const uint32_t period = t->cfg.tile_sampling;
	if (!t->geom_prefix_paths) {  /* the prefix's end: the periods start */
		t->geom_prefix_paths = t->geom_log->path_count;
		t->geom_prefix_accesses = now - t->geom_from;
		t->geom_period = now;
	}
	uint64_t resume;
	do {  /* the next period that has not begun (a late chunk skips none) */
		resume = t->geom_period + tsr_rng_below(&t->geom_rng, period) * GEOMETRY_CHUNK;
		t->geom_period += (uint64_t)period * GEOMETRY_CHUNK;
	} while (resume <= now);
	t->geom_chunk_end = 0;
	tsr_memsys_pause_path_sink(mem, resume);
}

/* The next geometry phase records into the next job's log: every path,
 * or with tile sampling, a prefix and chunks (geometry_path()). */
static void record_geometry(struct tsr_gpu *g)
{
	struct tsr_timing *t = g->timing;
	struct tsr_worklog *log = next_job_log(t);
	record_into(g, log, UINT32_MAX);
	if (t->cfg.tile_sampling < 2)
		return;
	t->geom_log = log;
	t->geom_from = tsr_memsys_accesses(g->mem);
	t->geom_paused_from = tsr_memsys_paused_accesses(g->mem);
	t->geom_chunk_end = t->geom_from + (uint64_t)GEOMETRY_PREFIX_PERIODS *
						   t->cfg.tile_sampling * GEOMETRY_CHUNK;
	t->geom_prefix_paths = 0;
	t->geom_prefix_accesses = 0;
	/* its own sequence: the frame and the phase */
	tsr_rng_seed(&t->geom_rng, (uint64_t)g->frames_begun << 16 | t->rasters_ended | 1ull << 63);
	tsr_memsys_set_path_sink(g->mem, geometry_path, t);
}

/* The frame's first geometry phase records into the next job's log. */
void tsr_timing_frame_begin(struct tsr_gpu *g)
{
	struct tsr_timing *t = g->timing;
	t->geom_prims = t->geom_vertices = t->geom_instructions = 0;
	record_geometry(g);
}

void tsr_timing_pass_geometry_begin(struct tsr_gpu *g)
{
	record_geometry(g);
}

/*
 * The geometry phase just recorded becomes a job (run by the simulation,
 * see tsr_timing_geometry_step()): its paths, and the bound of primitive
 * assembly and the vertex fetcher (one a cycle each) and of the vertex
 * processors (timing.vertex_processors instructions a cycle): the phase
 * is bounded by the slowest, not simulated stage by stage.
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
	j->fs = st;
	j->ratio = 1;
	j->prefix_paths = 0;
	if (t->cfg.tile_sampling >= 2 && t->geom_prefix_paths) {
		/* recorded in chunks after its prefix: the accesses since the
		 * prefix over the chunks' */
		const uint64_t all = tsr_memsys_accesses(g->mem) - t->geom_from -
				     t->geom_prefix_accesses,
			       paused = tsr_memsys_paused_accesses(g->mem) - t->geom_paused_from;
		if (paused && all > paused) {
			j->ratio = (double)all / (double)(all - paused);
			j->prefix_paths = t->geom_prefix_paths;
		}
	}
	j->next = j->in_flight = 0;
	t->jobs_queued++;
	return TSR_OK;
}

/*
 * A job whose paths tile sampling recorded in chunks, at its last path's
 * completion (`now`): its memory took the prefix's cycles and the
 * chunks' times the ratio of the accesses since the prefix to theirs (the
 * chunks' stream stands for the phase's, as the sampled tiles' does for
 * theirs), and its other timing counters get the skipped accesses' share
 * at the chunks' rates (the writes that drain after `now` are not
 * scaled). The job then ends when that time or its units' bound has
 * passed.
 */
static void estimate(struct tsr_timing *t, struct geometry_job *j, uint64_t now)
{
	const double extra = (double)(now - j->chunks_start) * (j->ratio - 1);
	tsr_timing_stats_extrapolate(t, j->fs, &t->geom_mark, j->ratio - 1);
	const uint64_t end = now + (uint64_t)(extra + 0.5),
		       bound = j->start + j->busy > now ? j->start + j->busy : now;
	if (end > bound) {
		j->fs->timing.estimated_geometry_cycles += end - bound;
		j->busy = end - j->start;
	}
	j->ratio = 1;  /* done */
}

/*
 * The geometry jobs at `now`: the oldest starts if it has not (when the
 * last one is done), issues its next path if fewer than
 * GEOMETRY_IN_FLIGHT are outstanding and it did not issue this cycle,
 * and is done when every path has completed, a cycle after its last
 * issue at the earliest, and its units' bound has passed.
 */
void tsr_timing_geometry_step(struct tsr_timing *t, uint64_t now)
{
	while (t->jobs_done < t->jobs_queued) {
		struct geometry_job *j = &t->jobs[t->jobs_done % JOBS];
		if (!t->job_started) {
			t->job_started = 1;
			j->start = j->issue_at = now;
		}
		if (j->next < j->log.path_count && j->in_flight < GEOMETRY_IN_FLIGHT &&
		    j->issue_at <= now) {
			if (j->ratio > 1 && j->next == j->prefix_paths) {  /* the chunks start */
				j->chunks_start = now;
				tsr_timing_stats_mark(t, j->fs, &t->geom_mark);
			}
			issue_path(t, now, &j->log.paths[j->next++],
				   (uint64_t)TAG_GEOMETRY << TAG_KIND_SHIFT);
			j->in_flight++;
			j->issue_at = now + 1;
		}
		if (j->next < j->log.path_count || j->in_flight || now < j->issue_at)
			return;
		if (j->ratio > 1)
			estimate(t, j, now);
		if (now < j->start + j->busy)
			return;
		j->fs->timing.geometry_busy_cycles += now - j->start;
		if (t->jobs_done++ == t->rasters_ended)
			t->raster_start = now;  /* the window's frame may start now */
		t->flush_dirty = t->fetch_dirty = 1;
		t->job_started = 0;
	}
}

/* The next cycle the running geometry job acts at without a completion. */
uint64_t tsr_timing_geometry_next(const struct tsr_timing *t)
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
