/*
 * bench_cachesim.c - `tessera cachesim` throughput on a given trace (not a
 * test), e.g. trace A of issue 16 (shared/bench/gen_trace_a.py: 20 M Zipf
 * requests over 1 M 64-byte lines) through a 16384-line fully associative
 * cache, the setting of libCacheSim's published figures.
 *
 * A text trace is first converted once into a binary one beside it
 * (TRACE.bin, reused when present; the conversion is not timed). Then,
 * REPS times, each policy alone goes through what `tessera cachesim` does
 * (load and prepare the trace, replay it) and the bench prints the median
 * seconds of the two parts, requests per second (replay alone and end to
 * end), the misses, and the peak resident memory of the process.
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

/* One `tessera cachesim` run of one policy: load + prepare, then replay. */
static void run(const char *path, const struct tsr_cache_geometry *g, const char *policy,
		double *prep_s, double *replay_s, size_t *accesses, uint64_t *misses)
{
	struct tsr_error err = {{0}};
	struct tsr_trace t;
	struct tsr_line_trace lt;
	struct tsr_replay_result res;
	double t0 = now_seconds();
	if (tsr_trace_load(path, &t, &err) != TSR_OK ||
	    tsr_line_trace_build(&t, g->line_bytes, &lt, &err) != TSR_OK)
		die(&err);
	double t1 = now_seconds();
	if (tsr_replay(&lt, g, &policy, 1, &res, &err) != TSR_OK)
		die(&err);
	double t2 = now_seconds();
	*prep_s = t1 - t0;
	*replay_s = t2 - t1;
	*accesses = lt.count;
	*misses = res.total.read_misses + res.total.write_misses;
	tsr_line_trace_release(&lt);
	tsr_trace_release(&t);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench_cachesim TRACE [LINES] [POLICIES] [REPS]\n");
		return 2;
	}
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
	printf("%s: %u-line (%u KiB) fully associative cache, 64-byte lines, medians of %d\n",
	       path, lines, lines / 16, reps);
	printf("%-8s %10s %10s %14s %14s %12s\n", "policy", "prepare s", "replay s",
	       "M req/s replay", "M req/s total", "misses");
	for (char *pol = strtok(list, ","); pol; pol = strtok(NULL, ",")) {
		double prep[99], rep[99], tot[99];
		size_t n = 0;
		uint64_t misses = 0;
		for (int i = 0; i < reps; i++) {
			run(path, &g, pol, &prep[i], &rep[i], &n, &misses);
			tot[i] = prep[i] + rep[i];
		}
		double p = bench_median(prep, reps), r = bench_median(rep, reps);
		double t = bench_median(tot, reps);
		printf("%-8s %10.3f %10.3f %14.1f %14.1f %12llu\n", pol, p, r, (double)n / r / 1e6,
		       (double)n / t / 1e6, (unsigned long long)misses);
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);
	free(list);
	return 0;
}
