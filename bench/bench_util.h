/*
 * bench_util.h - what the benchmarks of bench/ share (header only: each
 * bench is one executable): monotonic and CPU clocks, the median of
 * repeated runs, the context printed beside figures (command, machine,
 * commit), and the [COUNT] [REPEATS] arguments of the timing-unit benches.
 */
#ifndef TSR_BENCH_UTIL_H
#define TSR_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* Seconds on the monotonic clock. */
static inline double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * CPU seconds of this process (one thread): what the single-threaded
 * replay benches report, since on the shared machine the wall clock also
 * counts the time other jobs hold the core.
 */
static inline double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Prints the process's peak resident set (getrusage: the largest RSS, MiB). */
static inline void bench_print_peak_rss(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		printf("peak RSS: %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);
}

/*
 * Prints what a figure needs beside it: the command line, the machine
 * (processor model and online processors) and the commit of the source
 * tree (git describe, "-dirty" for local changes; "unknown" without git),
 * and makes the process print its peak RSS when it exits (the issue's
 * memory figure).
 */
static inline void bench_print_context(int argc, char **argv)
{
	atexit(bench_print_peak_rss);
	printf("command:");
	for (int i = 0; i < argc; i++)
		printf(" %s", argv[i]);
	char model[256] = "unknown";
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (f) {
		char line[512];
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');
			if (!strncmp(line, "model name", 10) && colon) {
				snprintf(model, sizeof(model), "%s", colon + 2);
				model[strcspn(model, "\n")] = '\0';
				break;
			}
		}
		fclose(f);
	}
	char commit[128] = "unknown";
#ifdef TSR_BENCH_SOURCE_DIR
	FILE *p = popen("git -C '" TSR_BENCH_SOURCE_DIR "' describe --always --dirty 2>/dev/null", "r");
	if (p) {
		if (fgets(commit, sizeof(commit), p))
			commit[strcspn(commit, "\n")] = '\0';
		else
			snprintf(commit, sizeof(commit), "unknown");
		pclose(p);
	}
#endif
	printf("\nmachine: %s, %ld processors online; commit %s\n", model,
	       sysconf(_SC_NPROCESSORS_ONLN), commit);
}

/* qsort() order of doubles, for the median of repeated runs. */
static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Sorts secs[0 .. n) (n >= 1) and returns the median (the upper one for even n). */
static inline double bench_median(double *secs, int n)
{
	qsort(secs, (size_t)n, sizeof(secs[0]), bench_cmp_double);
	return secs[n / 2];
}

/*
 * Reads "[COUNT] [REPEATS (1-99)]" (defaults 1000000 and 5) into *count
 * and *reps; prints the usage, naming the bench and what it counts, and
 * returns 0 when they are out of range.
 */
static inline int bench_count_args(int argc, char **argv, const char *bench, const char *what,
				   uint64_t *count, int *reps)
{
	*count = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	*reps = argc > 2 ? atoi(argv[2]) : 5;
	if (*count == 0 || *reps < 1 || *reps > 99) {
		fprintf(stderr, "usage: %s [%s] [REPEATS (1-99)]\n", bench, what);
		return 0;
	}
	return 1;
}

#endif
