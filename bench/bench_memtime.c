/*
 * bench_memtime.c - speed of the memory timing model (timing/memtime.h),
 * not a test.
 *
 * Two caches (L1: 1 cycle, 1 port, 16 MSHRs; L2: 12 cycles as TCOR Table
 * I, 8 ports as RE Table I's 8 banks, 64 MSHRs) over the LPDDR3 preset at
 * 600 MHz. The caller issues one random-path request per cycle while fewer
 * than WINDOW (128) are in flight, else jumps to the next event. Mixes of
 * random 64-byte lines of 1 GiB:
 *   - hit-heavy:  90% L1 hits, 8% L2 hits, 2% DRAM reads;
 *   - miss-heavy: 20% L1 hits, 30% L2 hits, 40% DRAM reads (one in four
 *     with a dirty L2 victim written back), 10% posted writes to DRAM.
 * Prints the median of REPEATS runs (default 5) of simulated requests per
 * wall-clock second, with simulated cycles and mean latency.
 * Usage: bench_memtime [REQUESTS] [REPEATS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "core/rng.h"
#include "timing/memtime.h"

#define WINDOW 128

static void make_path(struct tsr_rng *rng, int miss_heavy, struct tsr_mem_path *p)
{
	uint64_t addr = (uint64_t)tsr_rng_below(rng, 1u << 24) * 64;
	uint32_t x = tsr_rng_below(rng, 100);
	uint8_t hit;
	int write = 0;
	if (miss_heavy) {
		hit = x < 20 ? 0 : x < 50 ? 1 : 2;
		write = x >= 90;
	} else {
		hit = x < 90 ? 0 : x < 98 ? 1 : 2;
	}
	memset(p, 0, sizeof(*p));
	p->addr = addr;
	p->bytes = 4;
	p->stream = (uint8_t)(x & 7);
	p->levels = 2;
	p->hit_level = hit;
	p->fetch = hit > 0 && !write;
	p->write = (uint8_t)write;
	for (int i = 0; i < 2; i++) {
		p->cache[i] = (uint16_t)i;
		p->line[i] = addr;
	}
	p->dram_bytes = hit == 2 ? 64 : 0;
	if (hit == 2 && !write && tsr_rng_below(rng, 4) == 0) {
		p->wb_count = 1;
		p->wb[0] = (struct tsr_mem_writeback){
			.from_level = 1, .to_dram = 1, .bytes = 64,
			.addr = (uint64_t)tsr_rng_below(rng, 1u << 24) * 64};
	}
}

/* One run; returns seconds and fills the final counters. */
static double run(int miss_heavy, uint64_t n, struct tsr_memtime_counters *k)
{
	static const struct tsr_memtime_cache_params caches[2] = {
		{.name = "L1", .hit_latency = 1, .ports = 1, .mshrs = 16},
		{.name = "L2", .hit_latency = 12, .ports = 8, .mshrs = 64},
	};
	struct tsr_dram_params d;
	tsr_dram_params_default_lpddr3(&d);
	struct tsr_memtime *mt = NULL;
	struct tsr_error err;
	if (tsr_memtime_create(caches, 2, &d, 600, &mt, &err) != TSR_OK) {
		fprintf(stderr, "bench_memtime: %s\n", err.msg);
		exit(1);
	}
	struct tsr_rng rng;
	tsr_rng_seed(&rng, 1);
	struct tsr_mem_path p;
	uint64_t sent = 0, t = 0;
	double t0 = now_seconds();
	while (sent < n) {
		if (tsr_memtime_in_flight(mt) < WINDOW) {
			make_path(&rng, miss_heavy, &p);
			if (tsr_memtime_issue(mt, t, &p, sent, &err) != TSR_OK) {
				fprintf(stderr, "bench_memtime: %s\n", err.msg);
				exit(1);
			}
			sent++;
			t++;
		} else {
			uint64_t e = tsr_memtime_next_event(mt);
			tsr_memtime_advance(mt, e);
			if (e + 1 > t)
				t = e + 1;
		}
	}
	uint64_t e;
	while ((e = tsr_memtime_next_event(mt)) != UINT64_MAX)
		tsr_memtime_advance(mt, e);
	double s = now_seconds() - t0;
	*k = *tsr_memtime_counters(mt);
	tsr_memtime_destroy(mt);
	return s;
}

int main(int argc, char **argv)
{
	bench_print_context(argc, argv);
	uint64_t n;
	int reps;
	if (!bench_count_args(argc, argv, "bench_memtime", "REQUESTS", &n, &reps))
		return 1;
	printf("%llu requests per run, median of %d runs, L1 + L2 + LPDDR3 at 600 MHz\n\n",
	       (unsigned long long)n, reps);
	printf("%-11s %12s %12s %10s %10s %14s\n", "mix", "M req/s", "GPU cycles", "mean lat",
	       "merges", "stall cycles");
	for (int miss_heavy = 0; miss_heavy < 2; miss_heavy++) {
		double secs[99];
		struct tsr_memtime_counters k;
		for (int i = 0; i < reps; i++)
			secs[i] = run(miss_heavy, n, &k);
		double med = bench_median(secs, reps);
		printf("%-11s %12.2f %12llu %10.1f %10llu %14llu\n",
		       miss_heavy ? "miss-heavy" : "hit-heavy", (double)n / med / 1e6,
		       (unsigned long long)k.cycles, (double)k.latency_sum / (double)k.completed,
		       (unsigned long long)k.merges, (unsigned long long)k.mshr_stall_cycles);
	}
	return 0;
}
