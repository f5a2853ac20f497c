/*
 * bench_core.c - speed of the shader-core timing model (timing/core.h),
 * not a test.
 *
 * Simulates QUADS quads (default 1,000,000) on one core of 16 warp slots
 * for two mixes and both schedulers, against a fake memory of fixed
 * latency (texture requests 60 cycles, instruction fetches 1 cycle, one
 * fetch per quad), the caller keeping every slot full and jumping from
 * event to event (the minimum of the core's and the memory's next
 * events), as a top-level loop would:
 *   - alu: 32 ALU instructions, 1 texture request per quad;
 *   - tex: 4 ALU instructions, 4 texture requests per quad.
 * Prints the median of REPEATS runs (default 5) of simulated quads per
 * wall-clock second, with the simulated cycles, instructions per cycle
 * and the share of busy cycles.
 * Usage: bench_core [QUADS] [REPEATS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"
#include "timing/core.h"

#define RING 1024u  /* > warp slots x requests per quad */
#define TEX_LATENCY 60u
#define IFETCH_LATENCY 1u

/* Fixed latencies per kind, but fetches are shorter than texture
 * requests: two FIFOs, each in completion order. */
struct fifo {
	uint64_t token[RING], done[RING];
	uint32_t head, n;
};

struct mem {
	struct tsr_core *core;
	struct fifo f[2];
	uint64_t retired;
};

static void on_issue(void *ctx, uint64_t cycle, uint64_t tag, uint32_t kind, uint32_t index,
		     uint64_t token)
{
	(void)tag;
	(void)index;
	struct mem *m = ctx;
	struct fifo *f = &m->f[kind];
	uint32_t i = (f->head + f->n++) % RING;
	f->token[i] = token;
	f->done[i] = cycle + (kind == TSR_CORE_MEM_IFETCH ? IFETCH_LATENCY : TEX_LATENCY);
}

static void on_retire(void *ctx, uint64_t tag, uint64_t cycle)
{
	(void)tag;
	(void)cycle;
	((struct mem *)ctx)->retired++;
}

/* One run; returns seconds and fills the core's final counters. */
static double run(uint32_t sched, const struct tsr_core_item *q, uint64_t n,
		  struct tsr_core_counters *k)
{
	static struct mem m;
	struct tsr_core_params p;
	tsr_core_params_default(&p);
	p.sched = sched;
	struct tsr_error err;
	m = (struct mem){0};
	if (tsr_core_create(&p, &m.core, &err) != TSR_OK) {
		fprintf(stderr, "bench_core: %s\n", err.msg);
		exit(1);
	}
	tsr_core_set_memory(m.core, on_issue, &m);
	tsr_core_set_retire(m.core, on_retire, &m);
	struct tsr_core_item item = *q;
	uint64_t sent = 0, t = 0;
	double t0 = now_seconds();
	for (;;) {
		for (int kind = 0; kind < 2; kind++) {
			struct fifo *f = &m.f[kind];
			while (f->n && f->done[f->head] <= t) {
				tsr_core_mem_done(m.core, f->token[f->head], f->done[f->head]);
				f->head = (f->head + 1) % RING;
				f->n--;
			}
		}
		tsr_core_advance(m.core, t);
		if (m.retired == n)
			break;
		while (sent < n && tsr_core_can_accept(m.core)) {
			item.tag = sent++;
			tsr_core_push(m.core, t, &item, NULL);
		}
		uint64_t nx = tsr_core_next_event(m.core);
		for (int kind = 0; kind < 2; kind++)
			if (m.f[kind].n && m.f[kind].done[m.f[kind].head] < nx)
				nx = m.f[kind].done[m.f[kind].head];
		if (nx == UINT64_MAX) {
			fprintf(stderr, "bench_core: stuck at cycle %llu (%llu sent, %llu retired, %u resident)\n", (unsigned long long)t, (unsigned long long)sent, (unsigned long long)m.retired, tsr_core_resident(m.core));
			exit(1);
		}
		t = nx;
	}
	double s = now_seconds() - t0;
	*k = *tsr_core_counters(m.core);
	tsr_core_destroy(m.core);
	return s;
}

int main(int argc, char **argv)
{
	bench_print_context(argc, argv);
	uint64_t n;
	int reps;
	if (!bench_count_args(argc, argv, "bench_core", "QUADS", &n, &reps))
		return 1;
	const struct {
		const char *name;
		struct tsr_core_item q;
	} mixes[] = {
		{"alu", {.alu_instructions = 32, .tex_requests = 1, .ifetch_requests = 1}},
		{"tex", {.alu_instructions = 4, .tex_requests = 4, .ifetch_requests = 1}},
	};
	printf("%llu quads per run, 16 warp slots, texture latency %u, fetch latency %u, "
	       "median of %d runs\n\n",
	       (unsigned long long)n, TEX_LATENCY, IFETCH_LATENCY, reps);
	printf("%-5s %-5s %12s %14s %8s %8s\n", "mix", "sched", "M quads/s", "GPU cycles", "IPC",
	       "busy %");
	for (size_t x = 0; x < sizeof(mixes) / sizeof(mixes[0]); x++)
		for (uint32_t sc = 0; sc < TSR_CORE_SCHED_COUNT; sc++) {
			double secs[99];
			struct tsr_core_counters k;
			for (int i = 0; i < reps; i++)
				secs[i] = run(sc, &mixes[x].q, n, &k);
			double med = bench_median(secs, reps);
			printf("%-5s %-5s %12.2f %14llu %8.3f %8.1f\n", mixes[x].name,
			       tsr_core_sched_names[sc], (double)n / med / 1e6,
			       (unsigned long long)k.cycles,
			       (double)k.instructions / (double)k.cycles,
			       100.0 * (double)k.busy_cycles / (double)k.cycles);
		}
	return 0;
}
