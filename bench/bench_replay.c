/*
 * bench_replay.c - trace replay throughput (not a test).
 *
 * Records the L2 input stream of a real workload (default the shipped
 * glmark-scene on tcor-table1, FRAMES frames, default 30) into a binary trace with `tessera run --record-trace`'s
 * machinery, then measures on one core:
 *   - loading the trace (zstd decode) and preparing it (line split, next uses);
 *   - replaying it through a 1 MiB 8-way cache with LRU, DRRIP and OPT alone;
 *   - replaying all three in one pass, against running them one by one
 *     (each paying for its own load and preparation, as three separate
 *     `tessera cachesim` runs would).
 * Usage: bench_replay [WORKLOAD] [CONFIG] [FRAMES] [TRACE]  (files or shipped
 * names, found through TSR_DATA_DIR, the install or the source tree)
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

/* Load + prepare + replay `n` policies; returns seconds, fills the parts. */
static double run(const char *path, const char *const *pol, uint32_t n,
		  double *load_s, double *replay_s, size_t *accesses,
		  struct tsr_replay_result *res)
{
	struct tsr_error err;
	struct tsr_trace t;
	struct tsr_line_trace lt;
	struct tsr_cache_geometry g = {.size_bytes = 1u << 20, .ways = 8, .line_bytes = 64};
	double t0 = now_seconds();
	if (tsr_trace_load(path, &t, &err) != TSR_OK ||
	    tsr_line_trace_build(&t, 64, &lt, &err) != TSR_OK) {
		fprintf(stderr, "bench_replay: %s\n", err.msg);
		exit(1);
	}
	double t1 = now_seconds();
	if (tsr_replay(&lt, &g, pol, n, res, &err) != TSR_OK) {
		fprintf(stderr, "bench_replay: %s\n", err.msg);
		exit(1);
	}
	double t2 = now_seconds();
	*load_s = t1 - t0;
	*replay_s = t2 - t1;
	*accesses = lt.count;
	tsr_line_trace_release(&lt);
	tsr_trace_release(&t);
	return t2 - t0;
}

int main(int argc, char **argv)
{
	/* files, or shipped names found through the data directory (core/datadir.h) */
	const char *workload_arg = argc > 1 ? argv[1] : "glmark-scene";
	const char *config_arg = argc > 2 ? argv[2] : "tcor-table1";
	char workload[4096], config[4096];
	unsigned frames = argc > 3 ? (unsigned)atoi(argv[3]) : 30;
	const char *path = argc > 4 ? argv[4] : "/tmp/tessera-bench-l2.trace";
	struct tsr_error err = {{0}};
	double t0 = now_seconds();
	if (tsr_data_resolve("workloads", workload_arg, workload, sizeof(workload), &err) != TSR_OK ||
	    tsr_data_resolve("configs", config_arg, config, sizeof(config), &err) != TSR_OK ||
	    !record(workload, config, frames, path, &err)) {
		fprintf(stderr, "bench_replay: %s\n", err.msg);
		return 1;
	}
	printf("recorded the L2 input of %u frames of %s (%s) in %.2f s: %s\n", frames,
	       workload, config, now_seconds() - t0, path);

	static const char *const pol[] = {"lru", "drrip", "opt"};
	struct tsr_replay_result res[3];
	double load, rep, alone_total = 0;
	size_t n = 0;
	printf("\n%-22s %10s %10s %14s %10s\n", "1 MiB 8-way", "load s", "replay s",
	       "M accesses/s", "miss");
	for (int p = 0; p < 3; p++) {
		alone_total += run(path, &pol[p], 1, &load, &rep, &n, &res[p]);
		uint64_t acc = res[p].total.reads + res[p].total.writes;
		uint64_t miss = res[p].total.read_misses + res[p].total.write_misses;
		printf("%-22s %10.3f %10.3f %14.1f %9.2f%%\n", pol[p], load, rep,
		       (double)n / rep / 1e6, 100.0 * (double)miss / (double)acc);
	}
	double together = run(path, pol, 3, &load, &rep, &n, res);
	printf("%-22s %10.3f %10.3f %14.1f\n", "lru+drrip+opt, 1 pass", load, rep,
	       (double)n * 3 / rep / 1e6);
	printf("\n%zu line accesses; trace load + preparation %.1f M accesses/s\n", n,
	       (double)n / load / 1e6);
	printf("three policies one by one: %.3f s; in one pass: %.3f s (%.0f%% of it)\n",
	       alone_total, together, 100.0 * together / alone_total);
	remove(path);
	return 0;
}
