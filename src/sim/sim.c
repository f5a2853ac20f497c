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

struct tsr_sim {
	struct tsr_scene *owned;        /* the scene, when the run loaded it */
	const struct tsr_scene *scene;
	struct tsr_resources res;       /* the scene's, as the command lists name them */
	struct tsr_frame_commands cmds; /* the frame's command list (storage reused) */
	float aspect;                   /* screen width / height, for the camera */
	struct tsr_gpu *gpu;
	uint32_t frames_done;
	struct tsr_frame_stats frame;   /* the last frame's counters */
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
	s->aspect = (float)cfg->width / (float)cfg->height;
	enum tsr_status st = tsr_gpu_create(cfg, &s->res, &s->gpu, err);
	if (st != TSR_OK) {
		free(s);
		return st;
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
	tsr_gpu_destroy(s->gpu);
	tsr_commands_release(&s->cmds);
	tsr_scene_destroy(s->owned);
	free(s);
}

enum tsr_status tsr_sim_step(struct tsr_sim *s, const struct tsr_frame_stats **fs,
			     struct tsr_error *err)
{
	TSR_TRY(tsr_workload_commands(s->scene, s->frames_done, s->aspect, &s->cmds, err));
	TSR_TRY(tsr_gpu_render_commands(s->gpu, &s->cmds, &s->frame, err));
	tsr_frame_stats_add(&s->total, &s->frame);
	s->frames_done++;
	if (fs)
		*fs = &s->frame;
	return TSR_OK;
}

enum tsr_status tsr_sim_run(struct tsr_sim *s, uint32_t frames, tsr_sim_frame_fn fn,
			    void *ctx, struct tsr_error *err)
{
	const uint32_t n = frames ? frames : s->scene->frames;
	/* every frame's view before the first frame is simulated */
	TSR_TRY(tsr_scene_check_cameras(s->scene, s->frames_done, n, err));
	while (s->frames_done < n) {
		const struct tsr_frame_stats *fs;
		TSR_TRY(tsr_sim_step(s, &fs, err));
		if (fn)
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
