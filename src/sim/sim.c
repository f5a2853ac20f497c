/*
 * sim.c - a simulation run: the workload frontend (frontend/frontend.h)
 * turns the scene into one command list per frame, and the GPU
 * (pipeline/gpu.h) renders it. The run owns the frontend's side (the
 * scene, its resources, the reused command list); the GPU sees only
 * resources and command lists.
 */
#include "sim/sim.h"

#include <stdlib.h>
#include <string.h>

#include "frontend/frontend.h"
#include "sim/footprint.h"

struct tsr_sim {
	struct tsr_scene *owned;        /* the scene, when the run loaded it */
	const struct tsr_scene *scene;
	struct tsr_resources res;       /* the scene's, as the command lists name them */
	struct tsr_frame_commands cmds; /* the frame's command list (storage reused) */
	struct tsr_frame_commands next_cmds; /* the next frame's, begun ahead of it
					    (timing.overlap_frames) */
	uint32_t width, height;         /* screen, pixels: the frame buffer's viewport */
	struct tsr_gpu *gpu;
	struct tsr_footprint *footprint; /* stats.texture_footprint's counter, or NULL */
	uint32_t frames_done;
	uint32_t frames_begun;          /* frames whose geometry phase ran */
	uint32_t limit;                 /* frames the run renders (the scene's, or tsr_sim_run's) */
	int overlap;                    /* timing.overlap_frames: begin the next frame early */
	struct tsr_frame_stats frame[2]; /* frame f's counters in frame[f % 2] */
	unsigned char *select;          /* tsr_sim_select(): 1 for each frame simulated
					   fully, or NULL: all */
	uint32_t select_n;
	uint32_t warmup;                /* frames before a selected one that warm up */
	int last_ff;                    /* the last step fast-forwarded its frame */
	struct tsr_frame_stats total;
};

enum tsr_status tsr_sim_open_scene(const struct tsr_gpu_config *cfg,
				   const struct tsr_scene *scene, struct tsr_sim **out,
				   struct tsr_error *err)
{
	*out = NULL;
	struct tsr_sim *s = calloc(1, sizeof(*s));
	if (!s)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	s->scene = scene;
	s->res = tsr_workload_resources(scene);
	s->width = cfg->width;
	s->height = cfg->height;
	s->limit = scene->frames;
	s->overlap = cfg->timing.overlap_frames;
	enum tsr_status st = tsr_gpu_create(cfg, &s->res, &s->gpu, err);
	if (st != TSR_OK) {
		free(s);
		return st;
	}
	if (cfg->texture_footprint_stats) {
		st = tsr_footprint_create(s->gpu, &s->footprint, err);
		if (st != TSR_OK) {
			tsr_sim_close(s);
			return st;
		}
	}
	*out = s;
	return TSR_OK;
}

enum tsr_status tsr_sim_open(const struct tsr_gpu_config *cfg, const char *workload,
			     struct tsr_sim **out, struct tsr_error *err)
{
	struct tsr_scene *sc = NULL;
	*out = NULL;
	TSR_TRY(tsr_scene_load(workload, &sc, err));
	enum tsr_status st = tsr_sim_open_scene(cfg, sc, out, err);
	if (st != TSR_OK) {
		tsr_scene_destroy(sc);
		return st;
	}
	(*out)->owned = sc;
	return TSR_OK;
}

void tsr_sim_close(struct tsr_sim *s)
{
	if (!s)
		return;
	tsr_gpu_destroy(s->gpu);  /* the caches and their observer first, then its set */
	tsr_footprint_destroy(s->footprint);
	tsr_commands_release(&s->cmds);
	tsr_commands_release(&s->next_cmds);
	tsr_scene_destroy(s->owned);
	free(s->select);
	free(s);
}

enum tsr_status tsr_sim_select(struct tsr_sim *s, const unsigned char *sel, uint32_t n,
			       uint32_t warmup, struct tsr_error *err)
{
	s->warmup = warmup;
	free(s->select);
	s->select = NULL;
	s->select_n = 0;
	if (!sel)
		return TSR_OK;
	s->select = malloc(n ? n : 1);
	if (!s->select)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	memcpy(s->select, sel, n);
	s->select_n = n;
	return TSR_OK;
}

/* Whether frame f is simulated fully (tsr_sim_select()). */
static int selected(const struct tsr_sim *s, uint32_t f)
{
	return !s->select || (f < s->select_n && s->select[f]);
}

/* Frame f's tsr_gpu_set_fast_forward() mode. */
static int mode_of(const struct tsr_sim *s, uint32_t f)
{
	if (selected(s, f))
		return TSR_GPU_FULL;
	for (uint32_t k = 1; k <= s->warmup; k++)
		if (selected(s, f + k))
			return TSR_GPU_WARM;
	return TSR_GPU_FAST_FORWARD;
}

int tsr_sim_fast_forwarded(const struct tsr_sim *s)
{
	return s->last_ff;
}

enum tsr_status tsr_sim_step(struct tsr_sim *s, const struct tsr_frame_stats **fs,
			     struct tsr_error *err)
{
	const uint32_t f = s->frames_done;
	struct tsr_frame_stats *st = &s->frame[f % 2];
	const int full = selected(s, f), mode = mode_of(s, f);
	if (s->frames_begun == f) {
		TSR_TRY(tsr_gpu_set_fast_forward(s->gpu, mode, err));
		TSR_TRY(tsr_workload_commands(s->scene, f, s->width, s->height, &s->cmds, err));
		TSR_TRY(tsr_gpu_begin_frame(s->gpu, &s->cmds, st, err));
		s->frames_begun++;
	} else {  /* begun by the last step: its command list is the next one */
		struct tsr_frame_commands c = s->cmds;
		s->cmds = s->next_cmds;
		s->next_cmds = c;
	}
	/* with overlapping frames, the next frame's geometry before this one's
	 * raster (not across a switch of fast-forward, made between frames) */
	if (s->overlap && f + 1 < s->limit && mode_of(s, f + 1) == mode) {
		TSR_TRY(tsr_workload_commands(s->scene, f + 1, s->width, s->height, &s->next_cmds, err));
		TSR_TRY(tsr_gpu_begin_frame(s->gpu, &s->next_cmds, &s->frame[(f + 1) % 2], err));
		s->frames_begun++;
	}
	TSR_TRY(tsr_gpu_finish_frame(s->gpu, err));
	if (s->footprint)
		TSR_TRY(tsr_footprint_frame_end(s->footprint, &st->texture.footprint_lines, err));
	if (full)
		tsr_frame_stats_add(&s->total, st);
	s->last_ff = !full;
	s->frames_done++;
	if (fs)
		*fs = st;
	return TSR_OK;
}

enum tsr_status tsr_sim_run(struct tsr_sim *s, uint32_t frames, tsr_sim_frame_fn fn,
			    void *ctx, struct tsr_error *err)
{
	const uint32_t n = frames ? frames : s->scene->frames;
	/* every frame's view before the first frame is simulated */
	TSR_TRY(tsr_scene_check_cameras(s->scene, s->frames_done, n, err));
	s->limit = n;
	while (s->frames_done < n) {
		const struct tsr_frame_stats *fs;
		TSR_TRY(tsr_sim_step(s, &fs, err));
		if (fn && !s->last_ff)
			TSR_TRY(fn(ctx, s, fs, err));
	}
	return TSR_OK;
}

enum tsr_status tsr_simulate(const struct tsr_gpu_config *cfg, const struct tsr_scene *scene,
			     uint32_t frames, struct tsr_frame_stats *total,
			     struct tsr_error *err)
{
	struct tsr_sim *s;
	TSR_TRY(tsr_sim_open_scene(cfg, scene, &s, err));
	enum tsr_status st = tsr_sim_run(s, frames, NULL, NULL, err);
	if (st == TSR_OK)
		*total = s->total;
	tsr_sim_close(s);
	return st;
}

const struct tsr_frame_stats *tsr_sim_total(const struct tsr_sim *s)
{
	return &s->total;
}

uint32_t tsr_sim_frames_done(const struct tsr_sim *s)
{
	return s->frames_done;
}

int tsr_sim_cache_observed(const struct tsr_sim *s, const struct tsr_cache *c)
{
	return s->footprint && tsr_footprint_observes(s->footprint, c);
}

struct tsr_gpu *tsr_sim_gpu(const struct tsr_sim *s)
{
	return s->gpu;
}

const struct tsr_frame_commands *tsr_sim_commands(const struct tsr_sim *s)
{
	return &s->cmds;
}

const struct tsr_scene *tsr_sim_scene(const struct tsr_sim *s)
{
	return s->scene;
}
