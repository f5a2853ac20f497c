/*
 * bench_libcachesim.c - `tessera cachesim` against libCacheSim's
 * `cachesim` on one oracleGeneral file, whole processes side by side
 * (not a test: libCacheSim is not packaged; build it by hand from its
 * public source, docs/performance.md).
 *
 * For each policy pair (tessera lru / libCacheSim LRU, tessera opt /
 * libCacheSim Belady) it runs PAIRS alternating pairs of processes (the
 * first of a pair alternates too, so that neither tool always runs on a
 * warmer or quieter machine), each with its standard output in a
 * temporary file, and takes from wait4() each process's wall-clock time
 * and CPU time (user + system, every thread). It prints every run, the
 * medians and the ratios libCacheSim / tessera (above 1: tessera
 * faster), and checks the misses: tessera's (its JSON) against the
 * expected figures when given, and libCacheSim's printed miss ratio
 * (4 decimals) against tessera's count.
 *
 * Usage: bench_libcachesim TESSERA LIBCACHESIM_CACHESIM TRACE.oracleGeneral
 *                          [PAIRS] [LINES] [LRU_MISSES OPT_MISSES] [THREADS]
 *   PAIRS   alternating pairs per policy (default 5)
 *   LINES   objects the cache holds: a fully associative cache of LINES
 *           64-byte lines for tessera, LINES unit-size objects for
 *           libCacheSim (--ignore-obj-size 1; default 16384)
 *   LRU_MISSES OPT_MISSES  the exact misses expected (trace A: 11207796
 *           7680781); a mismatch is an error (exit 1)
 *   THREADS tessera's --threads: 1 (read and replay on one thread, the
 *           least CPU time) or 2 (a reader thread beside the replay, the
 *           least wall time; the default); libCacheSim runs one thread
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "bench_util.h"

struct run {
	double wall, cpu;
	long long misses;      /* tessera: exact; libCacheSim: -1 */
	double miss_ratio;     /* libCacheSim's printed ratio; tessera: misses / requests */
};

static char out_path[64];

/* Runs argv with stdout into out_path, stderr discarded; fills *r; 0 on success. */
static int run_process(char *const *argv, struct run *r)
{
	fflush(stdout);  /* or the child's freopen() writes our buffer again */
	double t0 = now_seconds();
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (!freopen(out_path, "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	int st;
	struct rusage ru;
	if (wait4(pid, &st, 0, &ru) != pid)
		return -1;
	r->wall = now_seconds() - t0;
	r->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
		 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "bench_libcachesim: %s failed (status %d)\n", argv[0], st);
		return -1;
	}
	/* the output */
	static char buf[1 << 16];
	FILE *f = fopen(out_path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	r->misses = -1;
	r->miss_ratio = -1;
	const char *p = strstr(buf, "\"total\"");
	if (p && (p = strstr(p, "\"misses\": "))) {
		r->misses = atoll(p + 10);
		const char *q = strstr(buf, "\"accesses\": ");
		long long acc = q ? atoll(q + 12) : 0;
		r->miss_ratio = acc ? (double)r->misses / (double)acc : -1;
	} else if ((p = strstr(buf, "miss ratio "))) {
		r->miss_ratio = atof(p + 11);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: bench_libcachesim TESSERA LIBCACHESIM_CACHESIM "
				"TRACE.oracleGeneral [PAIRS] [LINES] [LRU_MISSES OPT_MISSES]\n");
		return 2;
	}
	bench_print_context(argc, argv);
	const int pairs = argc > 4 ? atoi(argv[4]) : 5;
	const long lines = argc > 5 ? atol(argv[5]) : 16384;
	const long long expect[2] = {argc > 7 ? atoll(argv[6]) : -1, argc > 7 ? atoll(argv[7]) : -1};
	char *threads = argc > 8 ? argv[8] : "2";
	if (pairs < 1 || pairs > 99 || lines < 1 || (strcmp(threads, "1") && strcmp(threads, "2"))) {
		fprintf(stderr, "bench_libcachesim: PAIRS 1-99, LINES >= 1, THREADS 1 or 2\n");
		return 2;
	}
	snprintf(out_path, sizeof(out_path), "/tmp/bench_libcachesim-XXXXXX");
	int fd = mkstemp(out_path);
	if (fd < 0)
		return 1;
	close(fd);
	char size[32], count[32];
	snprintf(size, sizeof(size), "%ld", lines * 64);
	snprintf(count, sizeof(count), "%ld", lines);
	const char *tpol[2] = {"lru", "opt"}, *lpol[2] = {"LRU", "Belady"};
	int bad = 0;
	printf("\n%-8s %-12s %9s %9s %12s\n", "policy", "tool", "wall s", "CPU s", "misses");
	double med[2][2][2];  /* policy, tool (0 tessera, 1 libCacheSim), wall / cpu */
	for (int p = 0; p < 2; p++) {
		char *targv[] = {argv[1], "cachesim", argv[3], "--size", size, "--ways", "full",
				 "--policy", (char *)tpol[p], "--threads", threads, "--json", NULL};
		char *largv[] = {argv[2], argv[3], "oracleGeneral", (char *)lpol[p], count,
				 "--ignore-obj-size", "1", "--num-thread", "1", "-o", "/dev/null",
				 NULL};
		double w[2][99], c[2][99];
		for (int i = 0; i < pairs; i++) {
			for (int k = 0; k < 2; k++) {
				const int tool = (i + k) & 1;  /* tessera first in even pairs */
				struct run r;
				if (run_process(tool ? largv : targv, &r) != 0) {
					unlink(out_path);
					return 1;
				}
				w[tool][i] = r.wall;
				c[tool][i] = r.cpu;
				printf("%-8s %-12s %9.2f %9.2f %12lld  (ratio %.4f)\n", tpol[p],
				       tool ? "libCacheSim" : "tessera", r.wall, r.cpu, r.misses,
				       r.miss_ratio);
				if (!tool && expect[p] >= 0 && r.misses != expect[p]) {
					fprintf(stderr, "%s: tessera %lld misses, expected %lld\n",
						tpol[p], r.misses, expect[p]);
					bad = 1;
				}
				static double tratio[2];
				if (!tool)
					tratio[p] = r.miss_ratio;
				else if (tratio[p] >= 0 && (r.miss_ratio < tratio[p] - 5.1e-5 ||
							    r.miss_ratio > tratio[p] + 5.1e-5)) {
					fprintf(stderr, "%s: libCacheSim's miss ratio %.4f is not "
							"tessera's %.6f\n", tpol[p], r.miss_ratio,
						tratio[p]);
					bad = 1;
				}
				fflush(stdout);
			}
		}
		for (int tool = 0; tool < 2; tool++) {
			med[p][tool][0] = bench_median(w[tool], pairs);
			med[p][tool][1] = bench_median(c[tool], pairs);
		}
	}
	unlink(out_path);
	printf("\nmedians of %d alternating pairs (seconds); ratio = libCacheSim / tessera\n", pairs);
	printf("%-18s %9s %9s %9s %9s %8s %8s\n", "policy", "t wall", "t CPU", "lcs wall",
	       "lcs CPU", "x wall", "x CPU");
	for (int p = 0; p < 2; p++)
		printf("%-6s / %-9s %9.2f %9.2f %9.2f %9.2f %8.2f %8.2f\n", tpol[p], lpol[p],
		       med[p][0][0], med[p][0][1], med[p][1][0], med[p][1][1],
		       med[p][1][0] / med[p][0][0], med[p][1][1] / med[p][0][1]);
	return bad;
}
