/*
 * bench_util.h - what the benchmarks of bench/ share (header only: each
 * bench is one executable): a monotonic clock and the comparison that
 * sorts run times for their median.
 */
#ifndef TSR_BENCH_UTIL_H
#define TSR_BENCH_UTIL_H

#include <stdlib.h>
#include <time.h>

/* Seconds on the monotonic clock. */
static inline double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* qsort() order of doubles, for the median of repeated runs. */
static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#endif
