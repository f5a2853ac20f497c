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
 * tsr_timing_frame_end in timing_driver.c).
 */
#include "pipeline/timing_priv.h"

/* The frame's first geometry phase records into the next job's log. */
void tsr_timing_frame_begin(struct tsr_gpu *g)
{
	struct tsr_timing *t = g->timing;
	t->geom_prims = t->geom_vertices = t->geom_instructions = 0;
	record_into(g, next_job_log(t), UINT32_MAX);
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
	j->st = &st->timing;
	j->next = j->in_flight = 0;
	t->jobs_queued++;
	return TSR_OK;
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
