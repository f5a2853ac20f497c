/*
 * bench_dram.c - speed of the DRAM model (timing/dram.h), not a test.
 *
 * Simulates REQUESTS requests (default 1,000,000) of 64 bytes on one core
 * for each of two mixes and each preset, the caller keeping the queues
 * full and jumping from event to event (tsr_dram_next_event()):
 *   - stream: sequential reads;
 *   - random: random lines of 1 GiB, one in three a write.
 * Prints the median of REPEATS runs (default 5) of simulated requests per
 * wall-clock second, with the simulated bandwidth and mean latency.
 * Usage: bench_dram [REQUESTS] [REPEATS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"
#include "core/rng.h"
#include "timing/dram.h"

/* One run; returns seconds and fills the device's final counters. */
static double run(const struct tsr_dram_params *p, uint32_t gpu_mhz, int random, uint64_t n,
		  struct tsr_dram_device_counters *k)
{
	struct tsr_dram *d = NULL;
	struct tsr_error err;
	if (tsr_dram_create(p, gpu_mhz, &d, &err) != TSR_OK) {
		fprintf(stderr, "bench_dram: %s\n", err.msg);
		exit(1);
	}
	struct tsr_rng rng;
	tsr_rng_seed(&rng, 1);
	struct tsr_dram_request r = {.bytes = 64};
	uint64_t sent = 0, t = 0;
	int have = 0;
	double t0 = now_seconds();
	while (sent < n || tsr_dram_occupancy(d)) {
		for (;;) {
			if (!have && sent < n) {
				r.addr = random ? (uint64_t)tsr_rng_below(&rng, 1u << 24) * 64 : sent * 64;
				r.write = random && tsr_rng_below(&rng, 3) == 0;
				r.tag = sent;
				have = 1;
			}
			if (!have || tsr_dram_enqueue(d, t, &r, NULL) != TSR_OK)
				break;
			have = 0;
			sent++;
		}
		t = tsr_dram_next_event(d);
		tsr_dram_advance(d, t);
	}
	double s = now_seconds() - t0;
	*k = *tsr_dram_device_counters(d);
	tsr_dram_destroy(d);
	return s;
}

int main(int argc, char **argv)
{
	bench_print_context(argc, argv);
	uint64_t n;
	int reps;
	if (!bench_count_args(argc, argv, "bench_dram", "REQUESTS", &n, &reps))
		return 1;
	struct {
		const char *name;
		void (*preset)(struct tsr_dram_params *p);
		uint32_t gpu_mhz;
		int no_port;
	} setups[] = {
		{"lpddr3 400 MHz, 4 B/cycle port", tsr_dram_params_default_lpddr3, 400, 0},
		{"lpddr3 600 MHz, no port limit", tsr_dram_params_default_lpddr3, 600, 1},
		{"lpddr4 600 MHz", tsr_dram_params_default_lpddr4, 600, 0},
	};
	printf("%llu requests of 64 bytes per run, median of %d runs\n\n",
	       (unsigned long long)n, reps);
	printf("%-32s %-7s %12s %12s %12s %10s\n", "setup", "mix", "M req/s", "GPU cycles",
	       "bytes/cycle", "mean lat");
	for (size_t s = 0; s < sizeof(setups) / sizeof(setups[0]); s++) {
		struct tsr_dram_params p;
		setups[s].preset(&p);
		if (setups[s].no_port)
			p.port_bytes_per_gpu_cycle = 0;
		for (int random = 0; random < 2; random++) {
			double secs[99];
			struct tsr_dram_device_counters k;
			for (int i = 0; i < reps; i++)
				secs[i] = run(&p, setups[s].gpu_mhz, random, n, &k);
			double med = bench_median(secs, reps);
			printf("%-32s %-7s %12.2f %12llu %12.2f %10.1f\n", setups[s].name,
			       random ? "random" : "stream", (double)n / med / 1e6,
			       (unsigned long long)k.cycles,
			       (double)(k.bytes_read + k.bytes_written) / (double)k.cycles,
			       (double)k.latency_sum / (double)k.completed);
		}
	}
	return 0;
}
