/*
 * bench_replay.c - trace replay throughput (not a test).
 *
 * Records the L2 input stream of a real workload (default the shipped
 * glmark-scene on tcor-table1, FRAMES frames, default 30) into a binary trace with `tessera run --record-trace`'s
 * machinery, then measures on one core, medians of REPS runs (default 5) of
 * CPU time (bench_util.h: the machine is shared):
 *   - in memory: loading the trace (zstd decode) straight into a line trace
 *     (tsr_line_trace_load(): line split, counted with and without the next
 *     uses OPT needs), then replaying the prepared trace through a 1 MiB
 *     8-way cache with LRU, DRRIP and OPT alone, and all three in one pass;
 *   - streamed, as `tessera cachesim` runs (cachesim/replay.h,
 *     tsr_replay_file()): reading and splitting alone (no cache), the
 *     next-use pass, each policy alone end to end, and the three in one
 *     pass against running them one by one (three `tessera cachesim` runs).
 * Usage: bench_replay [WORKLOAD] [CONFIG] [FRAMES] [TRACE] [REPS]  (files or
 * shipped names, found through TSR_DATA_DIR, the install or the source
 * tree; an existing TRACE is reused, not recorded again, and kept)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"
#include "cachesim/replay.h"
#include "config/config.h"
#include "core/datadir.h"
#include "sim/sim.h"
#include "scene/scene.h"
#include "trace/trace.h"

static int record(const char *workload, const char *config, unsigned frames,
		  const char *path, struct tsr_error *err)
{
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	struct tsr_sim *sim = NULL;
	struct tsr_trace_writer *w = NULL;
	enum tsr_status s = tsr_config_load(config, &cfg, err);
	if (s == TSR_OK)
		s = tsr_sim_open(&cfg, workload, &sim, err);
	if (s == TSR_OK)
		s = tsr_trace_writer_open(path, "cache=l2 bench_replay", &w, err);
	if (s == TSR_OK) {
		struct tsr_cache_observer ob = tsr_trace_observer(w);
		tsr_cache_set_observer(tsr_gpu_cache_by_name(tsr_sim_gpu(sim), "l2"), &ob);
		s = tsr_sim_run(sim, frames, NULL, NULL, err);
	}
	if (w) {
		enum tsr_status cs = tsr_trace_writer_close(w, s == TSR_OK, err);
		if (s == TSR_OK)
			s = cs;
	}
	tsr_sim_close(sim);
	return s == TSR_OK;
}

static void die(const struct tsr_error *err)
{
	fprintf(stderr, "bench_replay: %s\n", err->msg);
	exit(1);
}

static const struct tsr_cache_geometry geom = {.size_bytes = 1u << 20, .ways = 8,
					       .line_bytes = 64};

/*
 * Streamed replay of n policies; returns its CPU seconds and in *prep
 * those of the next-use pass (the pass's share of the wall clock).
 */
static double streamed(const char *path, const char *const *pol, uint32_t n,
		       struct tsr_replay_file_info *info, struct tsr_replay_result *res,
		       double *prep)
{
	struct tsr_error err;
	double t0 = cpu_seconds();
	if (tsr_replay_file(path, 0, &geom, pol, n, 1, res, info, &err) != TSR_OK)
		die(&err);
	double cpu = cpu_seconds() - t0;
	double wall = info->prepare_seconds + info->replay_seconds;
	*prep = wall > 0 ? cpu * info->prepare_seconds / wall : 0;
	return cpu;
}

int main(int argc, char **argv)
{
	/* files, or shipped names found through the data directory (core/datadir.h) */
	const char *workload_arg = argc > 1 ? argv[1] : "glmark-scene";
	const char *config_arg = argc > 2 ? argv[2] : "tcor-table1";
	char workload[4096], config[4096];
	unsigned frames = argc > 3 ? (unsigned)atoi(argv[3]) : 30;
	const char *path = argc > 4 ? argv[4] : "/tmp/tessera-bench-l2.trace";
	int reps = argc > 5 ? atoi(argv[5]) : 5;
	if (reps < 1 || reps > 99)
		reps = 5;
	bench_print_context(argc, argv);
	struct tsr_error err = {{0}};
	double t0 = now_seconds();
	FILE *old = argc > 4 ? fopen(path, "rb") : NULL;
	if (old) {
		fclose(old);
		printf("reusing %s\n", path);
	} else if (tsr_data_resolve("workloads", workload_arg, workload, sizeof(workload), &err) != TSR_OK ||
	    tsr_data_resolve("configs", config_arg, config, sizeof(config), &err) != TSR_OK ||
	    !record(workload, config, frames, path, &err)) {
		fprintf(stderr, "bench_replay: %s\n", err.msg);
		return 1;
	} else {
		printf("recorded the L2 input of %u frames of %s (%s) in %.2f s: %s\n", frames,
		       workload, config, now_seconds() - t0, path);
	}

	static const char *const pol[] = {"lru", "drrip", "opt"};
	struct tsr_replay_result res[3];
	double load[99], load_online[99], rep[4][99], st_read[99], st_prep[99], st_alone[3][99], st_all[99];
	double st_sum[99];
	size_t n = 0;
	uint64_t miss[3] = {0}, acc[3] = {0};
	for (int r = 0; r < reps; r++) {
		/* in memory */
		struct tsr_line_trace lt;
		double a = cpu_seconds();
		if (tsr_line_trace_load(path, 0, 64, 0, &lt, NULL, &err) != TSR_OK)
			die(&err);
		load_online[r] = cpu_seconds() - a;
		tsr_line_trace_release(&lt);
		a = cpu_seconds();
		if (tsr_line_trace_load(path, 0, 64, 1, &lt, NULL, &err) != TSR_OK)
			die(&err);
		load[r] = cpu_seconds() - a;
		n = lt.count;
		for (int p = 0; p < 4; p++) {
			a = cpu_seconds();
			if (tsr_replay(&lt, &geom, p < 3 ? &pol[p] : pol, p < 3 ? 1 : 3, res, &err) !=
			    TSR_OK)
				die(&err);
			rep[p][r] = cpu_seconds() - a;
			if (p < 3) {
				acc[p] = res[0].total.reads + res[0].total.writes;
				miss[p] = res[0].total.read_misses + res[0].total.write_misses;
			}
		}
		tsr_line_trace_release(&lt);
		/* streamed */
		struct tsr_replay_file_info info;
		double prep;
		st_read[r] = streamed(path, pol, 0, &info, res, &prep);
		st_sum[r] = 0;
		for (int p = 0; p < 3; p++) {
			st_alone[p][r] = streamed(path, &pol[p], 1, &info, res, &prep);
			st_sum[r] += st_alone[p][r];
			if (p == 2)
				st_prep[r] = prep;
			if (res[0].total.read_misses + res[0].total.write_misses != miss[p]) {
				fprintf(stderr, "bench_replay: streamed %s disagrees\n", pol[p]);
				return 1;
			}
		}
		st_all[r] = streamed(path, pol, 3, &info, res, &prep);
	}
	double M = (double)n / 1e6;
	printf("\n%zu line accesses, 1 MiB 8-way, medians of %d, CPU seconds\n", n, reps);
	printf("in memory: load + split %.3f s (%.1f M accesses/s); with next uses %.3f s "
	       "(%.1f M accesses/s)\n", bench_median(load_online, reps),
	       M / bench_median(load_online, reps), bench_median(load, reps),
	       M / bench_median(load, reps));
	printf("%-24s %10s %14s %10s\n", "replay alone", "s", "M accesses/s", "miss");
	for (int p = 0; p < 3; p++) {
		double s = bench_median(rep[p], reps);
		printf("%-24s %10.3f %14.1f %9.2f%%\n", pol[p], s, M / s,
		       100.0 * (double)miss[p] / (double)acc[p]);
	}
	double s3 = bench_median(rep[3], reps);
	printf("%-24s %10.3f %14.1f (per policy)\n", "lru+drrip+opt, 1 pass", s3, 3 * M / s3);
	printf("\nstreamed (tessera cachesim): read + split alone %.3f s (%.1f M accesses/s); "
	       "next uses %.3f s (%.1f M accesses/s)\n", bench_median(st_read, reps),
	       M / bench_median(st_read, reps), bench_median(st_prep, reps),
	       M / bench_median(st_prep, reps));
	printf("%-24s %10s %14s\n", "end to end", "s", "M accesses/s");
	for (int p = 0; p < 3; p++) {
		double s = bench_median(st_alone[p], reps);
		printf("%-24s %10.3f %14.1f\n", pol[p], s, M / s);
	}
	double sa = bench_median(st_all, reps), ss = bench_median(st_sum, reps);
	printf("%-24s %10.3f %14.1f (per policy)\n", "lru+drrip+opt, 1 pass", sa, 3 * M / sa);
	printf("three policies one by one: %.3f s; in one pass: %.3f s (%.0f%% of it)\n", ss, sa,
	       100.0 * sa / ss);
	if (argc <= 4)
		remove(path);
	return 0;
}
