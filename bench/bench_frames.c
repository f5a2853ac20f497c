/*
 * bench_frames.c - simulation speed on a real workload (not a test).
 *
 * Renders FRAMES frames (default 10) of a workload (default the shipped
 * glmark-scene) with a configuration (default the shipped tcor-table1,
 * 1960x768) and prints simulated frames per second and simulated memory
 * accesses per second, wall-clock, one core. KEY=VALUE arguments after
 * FRAMES override configuration keys as `tessera run --set` does, e.g.
 * pipeline.mode=imr to time the immediate-mode pipeline on the same
 * workload and resolution.
 * Usage: bench_frames [WORKLOAD] [CONFIG] [FRAMES] [KEY=VALUE...]  (files or
 * shipped names, found through TSR_DATA_DIR, the install or the source tree)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"
#include "config/config.h"
#include "core/datadir.h"
#include "sim/sim.h"

int main(int argc, char **argv)
{
	bench_print_context(argc, argv);
	/* files, or shipped names found through the data directory (core/datadir.h) */
	const char *workload_arg = argc > 1 ? argv[1] : "glmark-scene";
	const char *config_arg = argc > 2 ? argv[2] : "tcor-table1";
	char workload[4096], config[4096];
	unsigned frames = argc > 3 ? (unsigned)atoi(argv[3]) : 10;
	struct tsr_error err = {{0}};
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	struct tsr_sim *sim = NULL;
	if (tsr_data_resolve("workloads", workload_arg, workload, sizeof(workload), &err) != TSR_OK ||
	    tsr_data_resolve("configs", config_arg, config, sizeof(config), &err) != TSR_OK ||
	    tsr_config_apply_sets(&cfg, config, (const char *const *)argv + 4,
				  argc > 4 ? (size_t)argc - 4 : 0, &err) != TSR_OK ||
	    tsr_sim_open(&cfg, workload, &sim, &err) != TSR_OK) {
		fprintf(stderr, "bench_frames: %s\n", err.msg);
		return 1;
	}
	double t0 = now_seconds();
	if (tsr_sim_run(sim, frames, NULL, NULL, &err) != TSR_OK) {
		fprintf(stderr, "bench_frames: %s\n", err.msg);
		tsr_sim_close(sim);
		return 1;
	}
	double s = now_seconds() - t0;
	const struct tsr_frame_stats *t = tsr_sim_total(sim);
	printf("workload %s, config %s (%ux%u, %s), %u frames in %.3f s\n", workload, config,
	       cfg.width, cfg.height, tsr_pipeline_mode_names[cfg.pipeline_mode], frames, s);
	printf("simulated frames/s:          %10.2f\n", frames / s);
	printf("simulated memory accesses/s: %10.2f M\n", (double)t->memory_accesses / s / 1e6);
	printf("shaded quads/s:              %10.2f M\n", (double)t->raster.quads_shaded / s / 1e6);
	tsr_sim_close(sim);
	return 0;
}
