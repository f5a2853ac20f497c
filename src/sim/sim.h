/*
 * sim.h - a simulation run: a GPU configuration rendering a workload frame
 * by frame, with the per-frame and total statistics. The one frame loop
 * that `tessera run`, the experiments, the benchmarks and the tests use.
 * The run owns the workload frontend (frontend/frontend.h): each frame,
 * the frontend turns the scene into a command list (command/command.h)
 * and the GPU (pipeline/gpu.h) renders that list, and only that.
 */
#ifndef TSR_SIM_SIM_H
#define TSR_SIM_SIM_H

#include <stdint.h>

#include "config/config.h"
#include "core/status.h"
#include "framestats/stats.h"
#include "pipeline/gpu.h"
#include "scene/scene.h"

struct tsr_sim;

/*
 * Opens a run of cfg on the workload file (loaded here and owned by the
 * run). Errors: those of tsr_scene_load(), tsr_gpu_create() and (with
 * stats.texture_footprint) tsr_footprint_create().
 */
enum tsr_status tsr_sim_open(const struct tsr_gpu_config *cfg, const char *workload,
			     struct tsr_sim **out, struct tsr_error *err);

/* Opens a run on a scene the caller keeps alive (experiments reuse one scene). */
enum tsr_status tsr_sim_open_scene(const struct tsr_gpu_config *cfg,
				   const struct tsr_scene *scene, struct tsr_sim **out,
				   struct tsr_error *err);

void tsr_sim_close(struct tsr_sim *s);

/*
 * Renders the next frame (the frontend's command list for it, through
 * tsr_gpu_begin_frame() and tsr_gpu_finish_frame()), with
 * stats.texture_footprint sets its texture.footprint_lines (the distinct
 * texture lines since the last frame ended, sim/footprint.h), and adds its
 * counters to the total; *fs (if fs is not NULL) points at the frame's
 * counters until the next step. With timing.overlap_frames, the geometry
 * phase of the frame after it runs first too, unless the run ends with
 * this frame (the scene's frame count, or the count given to
 * tsr_sim_run()). Errors: those of tsr_workload_commands(), of the GPU's
 * calls and of tsr_footprint_frame_end().
 */
enum tsr_status tsr_sim_step(struct tsr_sim *s, const struct tsr_frame_stats **fs,
			     struct tsr_error *err);

/*
 * `tessera run --frames LIST` (docs/sample.md): from the next frame on, a
 * frame f is simulated fully when sel is NULL or f < n and sel[f] (copied);
 * the others are fast-forwarded (tsr_gpu_set_fast_forward(): rendered
 * exactly, no memory or timing model), but the `warmup` frames before a
 * selected one, which run the memory hierarchy (TSR_GPU_WARM: its caches
 * warm up, no timing); their counters are in *fs but not in the total,
 * and tsr_sim_run() calls no fn for them. With timing.overlap_frames, a frame's geometry phase runs
 * early only when it is treated as the frame before it. Errors:
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_sim_select(struct tsr_sim *s, const unsigned char *sel, uint32_t n,
			       uint32_t warmup, struct tsr_error *err);

/* Whether the last tsr_sim_step() fast-forwarded its frame. */
int tsr_sim_fast_forwarded(const struct tsr_sim *s);

/* Called after each frame; a status other than TSR_OK stops the run with it. */
typedef enum tsr_status (*tsr_sim_frame_fn)(void *ctx, struct tsr_sim *s,
					     const struct tsr_frame_stats *fs,
					     struct tsr_error *err);

/*
 * Renders frames until `frames` have been rendered in all (0: the
 * workload's own count), calling fn (if not NULL) after each. Errors:
 * those of tsr_sim_step() and of fn.
 */
enum tsr_status tsr_sim_run(struct tsr_sim *s, uint32_t frames, tsr_sim_frame_fn fn,
			    void *ctx, struct tsr_error *err);

/*
 * Renders `frames` frames (0: the workload's count) of scene with cfg and
 * copies the total into *total. Errors: those of tsr_sim_run().
 */
enum tsr_status tsr_simulate(const struct tsr_gpu_config *cfg, const struct tsr_scene *scene,
			     uint32_t frames, struct tsr_frame_stats *total,
			     struct tsr_error *err);

/*
 * 1 when the run observes cache c itself (stats.texture_footprint watches
 * the caches the texture route enters, sim/footprint.h): a cache has one
 * observer, so a trace recorder attached there would replace it.
 */
struct tsr_cache;
int tsr_sim_cache_observed(const struct tsr_sim *s, const struct tsr_cache *c);

/* The counters of all frames rendered so far. */
const struct tsr_frame_stats *tsr_sim_total(const struct tsr_sim *s);
uint32_t tsr_sim_frames_done(const struct tsr_sim *s);
struct tsr_gpu *tsr_sim_gpu(const struct tsr_sim *s);
const struct tsr_scene *tsr_sim_scene(const struct tsr_sim *s);

/* The command list of the last frame rendered (valid until the next step). */
const struct tsr_frame_commands *tsr_sim_commands(const struct tsr_sim *s);

#endif
