/*
 * bench_cachesim.c - `tessera cachesim` throughput on a given trace (not a
 * test), e.g. trace A of issue 16 (shared/bench/gen_trace_a.py: 20 M Zipf
 * requests over 1 M 64-byte lines) through a 16384-line fully associative
 * cache, the setting of libCacheSim's published figures.
 *
 * A text trace is first converted once into a binary one beside it
 * (TRACE.bin, reused when present; the conversion is not timed). Then,
 * REPS times, each policy alone goes through what `tessera cachesim` does
 * (tsr_replay_file(): the next-use pass for OPT/OPTPT, then the trace
 * streamed through the cache) and the bench prints the median seconds of
 * the two parts and requests per second end to end, on one thread in CPU
 * seconds, and alternating with it the same on two threads (a reader
 * thread, tsr_replay_file()'s threads = 2) in wall-clock seconds, the
 * time a user waits (and the misses must agree); then the trace is
 * loaded and prepared in memory once (tsr_line_trace_load() with next
 * uses) and the median replay alone (tsr_replay()) is
 * timed, the figure libraries quote without trace reading. Times are CPU
 * seconds of the process (bench_util.h: the machine is shared). Misses, the
 * bytes held per access for next uses, and the peak resident memory of
 * the streaming runs (measured before the in-memory part) close it.
 *
 * Usage: bench_cachesim TRACE [LINES] [POLICIES] [REPS]
 *   LINES     cache lines of 64 bytes, fully associative (default 16384)
 *   POLICIES  comma-separated specs, each replayed alone (default lru,fifo,opt)
 *   REPS      repetitions, medians printed (default 3)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench_util.h"
#include "cachesim/replay.h"
#include "trace/trace.h"

static void die(const struct tsr_error *err)
{
	fprintf(stderr, "bench_cachesim: %s\n", err->msg);
	exit(1);
}

/* Writes the binary form of a text trace to out (unless it exists). */
static void convert(const char *in, const char *out)
{
	FILE *f = fopen(out, "rb");
	if (f) {
		fclose(f);
		return;
	}
	struct tsr_error err = {{0}};
	struct tsr_trace_reader *r;
	struct tsr_trace_writer *w;
	if (tsr_trace_reader_open(in, &r, &err) != TSR_OK ||
	    tsr_trace_writer_open(out, "bench_cachesim conversion", &w, &err) != TSR_OK)
		die(&err);
	tsr_trace_reader_set_max_records(r, UINT64_MAX / 2);
	for (;;) {
		struct tsr_trace_record rec;
		int eof;
		if (tsr_trace_read(r, &rec, &eof, &err) != TSR_OK)
			die(&err);
		if (eof)
			break;
		tsr_trace_write(w, &rec);
	}
	tsr_trace_reader_close(r);
	if (tsr_trace_writer_close(w, 1, &err) != TSR_OK)
		die(&err);
	printf("converted %s into %s\n", in, out);
}

/*
 * One `tessera cachesim` run of one policy (streamed) on `threads` threads;
 * returns its wall-clock seconds.
 */
static double run(const char *path, const struct tsr_cache_geometry *g, const char *policy,
		  unsigned threads, double *prep_s, double *replay_s, size_t *accesses,
		  uint64_t *misses, double *bytes_per_access)
{
	struct tsr_error err = {{0}};
	struct tsr_replay_result res;
	struct tsr_replay_file_info info;
	double t0 = cpu_seconds(), w0 = now_seconds();
	if (tsr_replay_file(path, 0, g, &policy, 1, threads, &res, &info, &err) != TSR_OK)
		die(&err);
	double wall_all = now_seconds() - w0;
	if (threads > 1 && !info.reader_thread) {
		fprintf(stderr, "bench_cachesim: the reader thread did not start\n");
		exit(1);
	}
	/* CPU seconds, split between the passes as the wall clock splits them */
	double cpu = cpu_seconds() - t0, wall = info.prepare_seconds + info.replay_seconds;
	*prep_s = wall > 0 ? cpu * info.prepare_seconds / wall : 0;
	*replay_s = cpu - *prep_s;
	*accesses = info.accesses;
	*misses = res.total.read_misses + res.total.write_misses;
	*bytes_per_access = (double)info.next_use_bytes / (double)info.accesses;
	return wall_all;
}

/* Median seconds of the in-memory replay alone of a prepared trace. */
static double replay_in_memory(const struct tsr_line_trace *lt,
			       const struct tsr_cache_geometry *g, const char *policy, int reps)
{
	double secs[99];
	for (int i = 0; i < reps; i++) {
		struct tsr_error err = {{0}};
		struct tsr_replay_result res;
		double t0 = cpu_seconds();
		if (tsr_replay(lt, g, &policy, 1, &res, &err) != TSR_OK)
			die(&err);
		secs[i] = cpu_seconds() - t0;
	}
	return bench_median(secs, reps);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench_cachesim TRACE [LINES] [POLICIES] [REPS]\n");
		return 2;
	}
	bench_print_context(argc, argv);
	const char *trace = argv[1];
	unsigned lines = argc > 2 ? (unsigned)atoi(argv[2]) : 16384;
	char *list = strdup(argc > 3 ? argv[3] : "lru,fifo,opt");
	int reps = argc > 4 ? atoi(argv[4]) : 3;
	if (!list || lines == 0 || reps < 1 || reps > 99) {
		fprintf(stderr, "usage: bench_cachesim TRACE [LINES] [POLICIES] [REPS]\n");
		return 2;
	}

	/* a text trace is converted once (zstd's magic number marks a binary one) */
	char path[4096];
	snprintf(path, sizeof(path), "%s", trace);
	FILE *f = fopen(trace, "rb");
	unsigned char magic[4] = {0};
	if (!f || fread(magic, 1, 4, f) != 4) {
		fprintf(stderr, "bench_cachesim: cannot read '%s'\n", trace);
		return 1;
	}
	fclose(f);
	if (!(magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd)) {
		snprintf(path, sizeof(path), "%s.bin", trace);
		convert(trace, path);
	}

	struct tsr_cache_geometry g = {.size_bytes = lines * 64u, .ways = lines, .line_bytes = 64};
	printf("%s: %u-line (%u KiB) fully associative cache, 64-byte lines, medians of %d, "
	       "CPU seconds\n",
	       path, lines, lines / 16, reps);
	printf("%-8s %12s %10s %14s %12s %14s %14s %14s\n", "policy", "next uses s", "stream s",
	       "M req/s total", "misses", "B/access held", "2 threads wall", "M req/s replay");
	char *pols[32];
	int np = 0;
	for (char *pol = strtok(list, ","); pol && np < 32; pol = strtok(NULL, ","))
		pols[np++] = pol;
	double totals[32], held[32];
	size_t n = 0;
	uint64_t misses[32];
	for (int p = 0; p < np; p++) {
		double prep[99], rep[99], tot[99], wall2[99], p2, r2;
		uint64_t misses2;
		for (int i = 0; i < reps; i++) {
			run(path, &g, pols[p], 1, &prep[i], &rep[i], &n, &misses[p], &held[p]);
			tot[i] = prep[i] + rep[i];
			wall2[i] = run(path, &g, pols[p], 2, &p2, &r2, &n, &misses2, &held[p]);
			if (misses2 != misses[p]) {
				fprintf(stderr, "bench_cachesim: %s on 2 threads disagrees\n", pols[p]);
				return 1;
			}
		}
		totals[p] = bench_median(tot, reps);
		printf("%-8s %12.3f %10.3f %14.1f %12llu %14.1f %14.1f\n", pols[p],
		       bench_median(prep, reps), bench_median(rep, reps),
		       (double)n / totals[p] / 1e6, (unsigned long long)misses[p], held[p],
		       (double)n / bench_median(wall2, reps) / 1e6);
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS of the streamed runs %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);

	struct tsr_error err = {{0}};
	struct tsr_line_trace lt;
	double t0 = cpu_seconds();
	if (tsr_line_trace_load(path, 0, 64, 1, &lt, NULL, &err) != TSR_OK)
		die(&err);
	double prep = cpu_seconds() - t0;
	printf("in memory: load + prepare %.3f s (%.1f M accesses/s); replay alone:\n", prep,
	       (double)lt.count / prep / 1e6);
	for (int p = 0; p < np; p++)
		printf("%-8s %12s %10s %14s %12s %14s %14s %14.1f\n", pols[p], "", "", "", "", "", "",
		       (double)lt.count / replay_in_memory(&lt, &g, pols[p], reps) / 1e6);
	tsr_line_trace_release(&lt);
	free(list);
	return 0;
}
