/*
 * bench_frames.c - simulation speed on a real workload (not a test).
 *
 * Renders FRAMES frames (default 10) of a workload (default
 * workloads/glmark-scene.json) with a configuration (default
 * configs/tcor-table1.json, 1960x768) and prints simulated frames per
 * second and simulated memory accesses per second, wall-clock, one core.
 * Usage: bench_frames [WORKLOAD] [CONFIG] [FRAMES]  (run from the repo root)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "config/config.h"
#include "pipeline/gpu.h"
#include "scene/scene.h"

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	const char *workload = argc > 1 ? argv[1] : "workloads/glmark-scene.json";
	const char *config = argc > 2 ? argv[2] : "configs/tcor-table1.json";
	unsigned frames = argc > 3 ? (unsigned)atoi(argv[3]) : 10;
	struct tsr_error err = {{0}};
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	struct tsr_scene *scene = NULL;
	struct tsr_gpu *gpu = NULL;
	if (tsr_config_load(config, &cfg, &err) != TSR_OK ||
	    tsr_scene_load(workload, &scene, &err) != TSR_OK ||
	    tsr_gpu_create(&cfg, scene, &gpu, &err) != TSR_OK) {
		fprintf(stderr, "bench_frames: %s\n", err.msg);
		tsr_scene_destroy(scene);
		return 1;
	}
	struct tsr_frame_stats *st = calloc(1, sizeof(*st));
	uint64_t accesses = 0, quads = 0;
	double t0 = now_seconds();
	for (unsigned f = 0; f < frames; f++) {
		if (tsr_gpu_render_frame(gpu, f, st, &err) != TSR_OK) {
			fprintf(stderr, "bench_frames: %s\n", err.msg);
			return 1;
		}
		accesses += st->memory_accesses;
		quads += st->raster.quads_shaded;
	}
	double s = now_seconds() - t0;
	printf("workload %s, config %s (%ux%u), %u frames in %.3f s\n", workload, config,
	       cfg.width, cfg.height, frames, s);
	printf("simulated frames/s:          %10.2f\n", frames / s);
	printf("simulated memory accesses/s: %10.2f M\n", (double)accesses / s / 1e6);
	printf("shaded quads/s:              %10.2f M\n", (double)quads / s / 1e6);
	free(st);
	tsr_gpu_destroy(gpu);
	tsr_scene_destroy(scene);
	return 0;
}
