/*
 * bench_timing.c - speed of the timing mode against the functional mode
 * on a real workload (not a test).
 *
 * Renders FRAMES frames (default 4) of a workload (default the shipped
 * glmark-scene) with a configuration (default the shipped tcor-table1),
 * once with timing.enabled off and once on, alternating the two REPS
 * times (default 3) so that a noisy machine slows both alike. A run's
 * time per frame is the median over its frames but the first (which
 * warms the caches of the host); the figure printed per mode is the
 * median over the runs, wall-clock, one core: seconds per frame, frames
 * per second, and the timing mode's slowdown. It also prints the
 * simulated cycles of the timing runs, which must not change between
 * builds unless the model does. KEY=VALUE arguments after REPS override
 * configuration keys, as `tessera run --set` does, in both modes (for
 * instance timing.tile_sampling=4).
 * Usage: bench_timing [WORKLOAD] [CONFIG] [FRAMES] [REPS] [KEY=VALUE...]
 * (files or shipped names, found through TSR_DATA_DIR, the install or
 * the source tree)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "config/config.h"
#include "core/datadir.h"
#include "sim/sim.h"

#define MAX_FRAMES 256u
#define MAX_REPS 64u

/* Per-frame wall-clock times of one run. */
struct run {
	double last;                /* time of the previous frame's end */
	double frame[MAX_FRAMES];   /* seconds of each frame */
	unsigned n;
};

static enum tsr_status on_frame(void *ctx, struct tsr_sim *s, const struct tsr_frame_stats *fs,
				struct tsr_error *err)
{
	(void)s;
	(void)fs;
	(void)err;
	struct run *r = ctx;
	double t = now_seconds();
	if (r->n < MAX_FRAMES)
		r->frame[r->n++] = t - r->last;
	r->last = t;
	return TSR_OK;
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One run of `frames` frames; *per_frame its median seconds per frame
 * (frames after the first), *cycles the timing mode's simulated cycles. */
static int run_once(const struct tsr_gpu_config *cfg, const char *workload, unsigned frames,
		    double *per_frame, uint64_t *cycles)
{
	struct tsr_error err = {{0}};
	struct tsr_sim *sim = NULL;
	static struct run r;
	r.n = 0;
	if (tsr_sim_open(cfg, workload, &sim, &err) != TSR_OK) {
		fprintf(stderr, "bench_timing: %s\n", err.msg);
		return 1;
	}
	r.last = now_seconds();
	if (tsr_sim_run(sim, frames, on_frame, &r, &err) != TSR_OK) {
		fprintf(stderr, "bench_timing: %s\n", err.msg);
		tsr_sim_close(sim);
		return 1;
	}
	*cycles = tsr_sim_total(sim)->timing.cycles;
	tsr_sim_close(sim);
	*per_frame = r.n > 1 ? median(r.frame + 1, r.n - 1) : r.frame[0];
	return 0;
}

int main(int argc, char **argv)
{
	bench_print_context(argc, argv);
	const char *workload_arg = argc > 1 ? argv[1] : "glmark-scene";
	const char *config_arg = argc > 2 ? argv[2] : "tcor-table1";
	unsigned frames = argc > 3 ? (unsigned)atoi(argv[3]) : 4;
	unsigned reps = argc > 4 ? (unsigned)atoi(argv[4]) : 3;
	if (frames < 1 || frames > MAX_FRAMES || reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "bench_timing: FRAMES 1..%u, REPS 1..%u\n", MAX_FRAMES, MAX_REPS);
		return 2;
	}
	char workload[4096], config[4096];
	struct tsr_error err = {{0}};
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	if (tsr_data_resolve("workloads", workload_arg, workload, sizeof(workload), &err) != TSR_OK ||
	    tsr_data_resolve("configs", config_arg, config, sizeof(config), &err) != TSR_OK ||
	    tsr_config_apply_sets(&cfg, config, (const char *const *)argv + 5,
				  argc > 5 ? (size_t)argc - 5 : 0, &err) != TSR_OK) {
		fprintf(stderr, "bench_timing: %s\n", err.msg);
		return 1;
	}
	double s[2][MAX_REPS];
	uint64_t cycles[2] = {0, 0};
	for (unsigned i = 0; i < reps; i++)
		for (int mode = 0; mode < 2; mode++) {
			cfg.timing.enabled = mode;
			if (run_once(&cfg, workload, frames, &s[mode][i], &cycles[mode]))
				return 1;
		}
	double func = median(s[0], reps), timed = median(s[1], reps);
	printf("workload %s, config %s (%ux%u), %u frames x %u runs per mode\n", workload,
	       config, cfg.width, cfg.height, frames, reps);
	printf("                  s/frame   frames/s\n");
	printf("functional     %10.4f %10.2f\n", func, 1 / func);
	printf("timing         %10.4f %10.2f\n", timed, 1 / timed);
	printf("timing / functional: %.2fx slower\n", timed / func);
	printf("simulated cycles (timing, %u frames): %" PRIu64 "\n", frames, cycles[1]);
	return 0;
}
