/*
 * 105-timing-memtime.c - timing of memory requests through cache ports,
 * MSHRs and DRAM (src/timing/memtime.c).
 *
 * The analytic tests use two caches, L1 (hit latency 1, 1 port) and L2
 * (hit latency 10, 2 ports), and the LPDDR3 preset with the GPU clock equal
 * to the DRAM clock, no refresh and no GPU-port limit, as
 * tests/100-timing-dram.c does, so a 64-byte read of a closed bank costs
 * exactly DRAM_MISS = ctrl + tRCD + (n - 1) x tCCD + RL + BL/2 cycles (n
 * bursts). Every expected cycle below is derived from those parameters.
 * The stream, Little's law and determinism tests run random or streaming
 * mixes on the unmodified preset.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/rng.h"
#include "test_util.h"
#include "core/stream.h"
#include "memory/memsys.h"
#include "timing/memtime.h"

#define LINE 64u
#define L1_LAT 1u
#define L2_LAT 10u

struct log {
	uint64_t cycle[256];   /* completion cycle by tag (tags < 256) */
	uint64_t count;
	uint64_t latency_sum;  /* tags >= 256 carry their issue cycle */
	uint64_t *by_issue;    /* if set: completion cycle by tag - 256 */
	int in_issue;          /* set around an issue call */
	uint64_t inside;       /* completions reported from inside one */
};

static void on_done(void *ctx, uint64_t tag, uint64_t cycle)
{
	struct log *l = ctx;
	if (tag < 256) {
		l->cycle[tag] = cycle;
	} else {
		l->latency_sum += cycle - (tag - 256);
		if (l->by_issue)
			l->by_issue[tag - 256] = cycle;
	}
	l->count++;
	l->inside += (uint64_t)l->in_issue;
}

/* Unloaded 64-byte read of a closed bank, GPU clock = DRAM clock. */
static uint64_t dram_miss(const struct tsr_dram_params *p)
{
	uint32_t n = LINE / (p->bus_bits / 8 * p->burst_length);
	return p->ctrl_latency_gpu_cycles + p->t_rcd + (n - 1) * p->t_ccd + p->rl +
	       p->burst_length / 2;
}

static void default_caches(struct tsr_memtime_cache_params c[2])
{
	memset(c, 0, 2 * sizeof(*c));
	c[0] = (struct tsr_memtime_cache_params){.name = "L1", .hit_latency = L1_LAT, .ports = 1,
						  .mshrs = 4};
	c[1] = (struct tsr_memtime_cache_params){.name = "L2", .hit_latency = L2_LAT, .ports = 2,
						  .mshrs = 8};
}

static struct tsr_memtime *make(const struct tsr_memtime_cache_params *c, uint32_t nc,
				const struct tsr_dram_params *d, uint32_t mhz, struct log *l)
{
	struct tsr_memtime *mt = NULL;
	struct tsr_error err = {{0}};
	enum tsr_status s = tsr_memtime_create(c, nc, d, mhz, &mt, &err);
	if (s != TSR_OK)
		print_error("%s\n", err.msg);
	assert_int_equal(s, TSR_OK);
	memset(l, 0, sizeof(*l));
	tsr_memtime_set_completion(mt, on_done, l);
	return mt;
}

/* The analytic setup: default_caches() and tsr_test_dram_analytic() (into
 * *d) at the DRAM's clock. */
static struct tsr_memtime *make_analytic(struct tsr_dram_params *d, struct log *l)
{
	struct tsr_memtime_cache_params c[2];
	default_caches(c);
	*d = tsr_test_dram_analytic();
	return make(c, 2, d, d->dram_mhz, l);
}

/* A read through `levels` caches (0, 1, ...) first held at hit (== levels: DRAM). */
static struct tsr_mem_path rd(uint64_t addr, uint8_t levels, uint8_t hit)
{
	struct tsr_mem_path p;
	memset(&p, 0, sizeof(p));
	p.addr = addr;
	p.bytes = 4;
	p.levels = levels;
	p.hit_level = hit;
	p.fetch = hit > 0;
	for (uint8_t i = 0; i < levels; i++) {
		p.cache[i] = i;
		p.line[i] = addr & ~(uint64_t)(LINE - 1);
	}
	p.dram_bytes = hit == levels ? LINE : 0;
	return p;
}

static void issue(struct tsr_memtime *mt, uint64_t cycle, const struct tsr_mem_path *p,
		  uint64_t tag)
{
	struct tsr_error err = {{0}};
	enum tsr_status s = tsr_memtime_issue(mt, cycle, p, tag, &err);
	if (s != TSR_OK)
		print_error("%s\n", err.msg);
	assert_int_equal(s, TSR_OK);
}

static void drain(struct tsr_memtime *mt)
{
	uint64_t t;
	while ((t = tsr_memtime_next_event(mt)) != UINT64_MAX)
		tsr_memtime_advance(mt, t);
	assert_int_equal(tsr_memtime_in_flight(mt), 0);
}

/* Each level alone: L1 hit, L2 hit, DRAM; without caches; with a fill latency. */
static void test_unloaded_latencies(void **state)
{
	(void)state;
	struct tsr_memtime_cache_params c[2];
	default_caches(c);
	struct tsr_dram_params d = tsr_test_dram_analytic();
	struct log l;
	struct tsr_memtime *mt = make(c, 2, &d, d.dram_mhz, &l);
	const uint64_t dm = dram_miss(&d);

	struct tsr_mem_path p = rd(0x1000, 2, 0);
	issue(mt, 5, &p, 1);
	drain(mt);
	assert_int_equal(l.cycle[1], 5 + L1_LAT);

	p = rd(0x2000, 2, 1);
	issue(mt, 100, &p, 2);
	drain(mt);
	assert_int_equal(l.cycle[2], 100 + L1_LAT + L2_LAT);

	p = rd(0x3000, 2, 2);
	issue(mt, 200, &p, 3);
	drain(mt);
	assert_int_equal(l.cycle[3], 200 + L1_LAT + L2_LAT + dm);

	p = rd(0x100000, 0, 0);  /* uncached: DRAM alone (another bank) */
	issue(mt, 400, &p, 4);
	drain(mt);
	assert_int_equal(l.cycle[4], 400 + dm);

	p.dram_bytes = 0;  /* a perfect port: done in the cycle issued, reported by advance */
	issue(mt, 500, &p, 5);
	assert_int_equal(l.count, 4);
	assert_int_equal(tsr_memtime_next_event(mt), 500);
	drain(mt);
	assert_int_equal(l.cycle[5], 500);
	print_message("L1 hit %u, L2 hit %u, DRAM %llu (DRAM alone %llu) cycles\n", L1_LAT,
		      L1_LAT + L2_LAT, (unsigned long long)(L1_LAT + L2_LAT + dm),
		      (unsigned long long)dm);

	const struct tsr_memtime_cache_counters *k1 = tsr_memtime_cache_counters(mt, 0);
	const struct tsr_memtime_cache_counters *k2 = tsr_memtime_cache_counters(mt, 1);
	assert_int_equal(k1->lookups, 3);
	assert_int_equal(k1->hits, 1);
	assert_int_equal(k1->misses, 2);
	assert_int_equal(k2->lookups, 2);
	assert_int_equal(k2->hits, 1);
	assert_int_equal(k2->misses, 1);
	assert_int_equal(k1->latency_count, 3);
	assert_int_equal(k1->latency_sum, L1_LAT + (L1_LAT + L2_LAT) + (L1_LAT + L2_LAT + dm));
	assert_int_equal(k2->latency_sum, L2_LAT + (L2_LAT + dm));
	assert_int_equal(k1->mshr_occupancy_sum, (L2_LAT) + (L2_LAT + dm));
	const struct tsr_memtime_counters *k = tsr_memtime_counters(mt);
	assert_int_equal(k->completed, 5);
	assert_int_equal(k->dram_reads, 2);
	assert_int_equal(k->latency_hist[0], 2);  /* the L1 hit (1) and the perfect port (0) */
	assert_int_equal(tsr_memtime_dram_counters(mt)->reads, 2);
	tsr_memtime_destroy(mt);

	/* a fill latency at L1 adds to every fill that returns through it */
	c[0].fill_latency = 3;
	mt = make(c, 2, &d, d.dram_mhz, &l);
	p = rd(0x2000, 2, 1);
	issue(mt, 0, &p, 1);
	p = rd(0x4000, 2, 0);
	issue(mt, 0, &p, 2);
	drain(mt);
	assert_int_equal(l.cycle[1], L1_LAT + L2_LAT + 3);
	assert_int_equal(l.cycle[2], 1 + L1_LAT);  /* a hit: no fill (second port slot) */
	tsr_memtime_destroy(mt);
}

/* Two misses to one line a cycle apart: one DRAM read, both done together;
 * a hit on a line whose fill is in flight waits for the fill. */
static void test_merging(void **state)
{
	(void)state;
	struct tsr_dram_params d;
	struct log l;
	struct tsr_memtime *mt = make_analytic(&d, &l);
	const uint64_t dm = dram_miss(&d);
	struct tsr_mem_path p = rd(0x3000, 2, 2);
	issue(mt, 0, &p, 1);
	issue(mt, 1, &p, 2);
	drain(mt);
	assert_int_equal(l.cycle[1], L1_LAT + L2_LAT + dm);
	assert_int_equal(l.cycle[2], l.cycle[1]);
	assert_int_equal(tsr_memtime_dram_counters(mt)->reads, 1);
	assert_int_equal(tsr_memtime_counters(mt)->dram_reads, 1);
	assert_int_equal(tsr_memtime_cache_counters(mt, 0)->merges, 1);
	assert_int_equal(tsr_memtime_cache_counters(mt, 0)->mshr_allocs, 1);
	assert_int_equal(tsr_memtime_cache_counters(mt, 1)->lookups, 1);

	/* the functional model says the second access hits L1 (the first
	 * allocated the line), but the line's fill from L2 is still in flight */
	uint64_t t0 = 1000;
	p = rd(0x5000, 2, 1);
	issue(mt, t0, &p, 3);
	p = rd(0x5000 + 8, 2, 0);
	issue(mt, t0 + 2, &p, 4);
	p = rd(0x5000, 2, 0);  /* after the fill: a plain hit */
	issue(mt, t0 + L1_LAT + L2_LAT, &p, 5);
	drain(mt);
	assert_int_equal(l.cycle[3], t0 + L1_LAT + L2_LAT);
	assert_int_equal(l.cycle[4], l.cycle[3]);
	assert_int_equal(l.cycle[5], t0 + L1_LAT + L2_LAT + L1_LAT);
	const struct tsr_memtime_cache_counters *k1 = tsr_memtime_cache_counters(mt, 0);
	assert_int_equal(k1->merges, 2);
	assert_int_equal(k1->hits, 1);
	/* the merged hit's latency at L1 counts from its own arrival */
	assert_int_equal(tsr_memtime_counters(mt)->merges, 2);

	/* merging at L2: two L1 lines of one 128-byte L2 line, both missing L2 */
	p = rd(0x9000, 2, 2);
	struct tsr_mem_path q = rd(0x9040, 2, 2);
	q.line[1] = p.line[1];
	issue(mt, 2000, &p, 6);
	issue(mt, 2000, &q, 7);
	drain(mt);
	assert_int_equal(l.cycle[6], 2000 + L1_LAT + L2_LAT + dm);
	/* q reached L2 a cycle later (one L1 port) and merged: the fill serves both */
	assert_int_equal(l.cycle[7], l.cycle[6]);
	assert_int_equal(tsr_memtime_cache_counters(mt, 1)->merges, 1);
	assert_int_equal(tsr_memtime_dram_counters(mt)->reads, 2);
	tsr_memtime_destroy(mt);
}

/* tsr_memtime_issue_early(): a certain L1 hit is reported from inside the
 * call, at the end of its lookup; a hit behind a queued lookup of its line
 * that misses is not certain (it will merge into that miss's MSHR) and
 * completes with the fill, as with tsr_memtime_issue(). */
static void test_early_known_hits(void **state)
{
	(void)state;
	struct tsr_dram_params d;
	struct log l;
	struct tsr_memtime *mt = make_analytic(&d, &l);
	struct tsr_error err = {{0}};
	struct tsr_mem_path p = rd(0x1000, 2, 0);
	l.in_issue = 1;
	assert_int_equal(tsr_memtime_issue_early(mt, 5, &p, 1, &err), TSR_OK);
	l.in_issue = 0;
	assert_int_equal(l.inside, 1);
	assert_int_equal(l.cycle[1], 5 + L1_LAT);
	assert_int_equal(tsr_memtime_in_flight(mt), 0);
	assert_true(tsr_memtime_next_event(mt) == UINT64_MAX);
	const struct tsr_memtime_cache_counters *k = tsr_memtime_cache_counters(mt, 0);
	assert_int_equal(k->lookups, 1);
	assert_int_equal(k->hits, 1);
	assert_int_equal(k->latency_sum, L1_LAT);

	const uint64_t t0 = 100;
	p = rd(0x2000, 2, 1);  /* misses L1, hits L2 */
	issue(mt, t0, &p, 2);
	p = rd(0x2000 + 8, 2, 0);  /* the functional model: a hit (the miss filled it) */
	l.in_issue = 1;
	assert_int_equal(tsr_memtime_issue_early(mt, t0, &p, 3, &err), TSR_OK);
	l.in_issue = 0;
	assert_int_equal(l.inside, 1);  /* its lookup waits for the port behind the miss's */
	drain(mt);
	assert_int_equal(l.cycle[2], t0 + L1_LAT + L2_LAT);
	assert_int_equal(l.cycle[3], l.cycle[2]);
	assert_int_equal(tsr_memtime_cache_counters(mt, 0)->merges, 1);
	tsr_memtime_destroy(mt);
}

/* A write that fetches (write-allocate) is done after its L1 lookup, but its
 * fill holds the MSHR and a read of the line waits for it; a 128-byte line
 * is read from DRAM as two 64-byte granules (two channels, in parallel). */
static void test_fetching_write_and_split_fill(void **state)
{
	(void)state;
	struct tsr_dram_params d;
	struct log l;
	struct tsr_memtime *mt = make_analytic(&d, &l);
	const uint64_t dm = dram_miss(&d);
	struct tsr_mem_path w = rd(0x3000, 2, 2);
	w.write = 1;
	w.fetch = 1;
	issue(mt, 0, &w, 1);
	struct tsr_mem_path p = rd(0x3000, 2, 0);
	issue(mt, 3, &p, 2);
	drain(mt);
	assert_int_equal(l.cycle[1], L1_LAT);
	assert_int_equal(l.cycle[2], L1_LAT + L2_LAT + dm);
	assert_int_equal(tsr_memtime_counters(mt)->posted, 1);
	assert_int_equal(tsr_memtime_dram_counters(mt)->reads, 1);

	p = rd(0x10000, 2, 2);
	p.line[1] = 0x10000;
	p.dram_bytes = 2 * LINE;
	issue(mt, 1000, &p, 3);
	drain(mt);
	assert_int_equal(l.cycle[3], 1000 + L1_LAT + L2_LAT + dm);
	assert_int_equal(tsr_memtime_dram_counters(mt)->reads, 3);
	assert_int_equal(tsr_memtime_counters(mt)->dram_reads, 3);
	tsr_memtime_destroy(mt);
}

/* Two MSHRs, three misses to different lines: the third waits for the first fill. */
static void test_mshr_exhaustion(void **state)
{
	(void)state;
	struct tsr_memtime_cache_params c[2];
	default_caches(c);
	c[0].mshrs = 2;
	c[0].ports = 4;
	struct tsr_dram_params d = tsr_test_dram_analytic();
	struct log l;
	struct tsr_memtime *mt = make(c, 2, &d, d.dram_mhz, &l);
	for (uint64_t i = 0; i < 3; i++) {
		struct tsr_mem_path p = rd(0x1000 + i * LINE, 2, 1);
		issue(mt, 0, &p, i);
	}
	drain(mt);
	/* L2 has 2 ports: the first two start there together */
	assert_int_equal(l.cycle[0], L1_LAT + L2_LAT);
	assert_int_equal(l.cycle[1], L1_LAT + L2_LAT);
	assert_int_equal(l.cycle[2], L1_LAT + L2_LAT + L2_LAT);
	const struct tsr_memtime_cache_counters *k1 = tsr_memtime_cache_counters(mt, 0);
	assert_int_equal(k1->mshr_stalls, 1);
	assert_int_equal(k1->mshr_stall_cycles, L2_LAT);
	assert_int_equal(k1->mshr_busy_max, 2);
	assert_int_equal(k1->mshr_occupancy_sum, 3 * L2_LAT);
	assert_int_equal(tsr_memtime_counters(mt)->mshr_stall_cycles, L2_LAT);
	tsr_memtime_destroy(mt);
}

/* One port: two hits issued together complete a cycle apart. */
static void test_port_contention(void **state)
{
	(void)state;
	struct tsr_memtime_cache_params c[2];
	default_caches(c);
	c[0].hit_latency = 3;
	struct tsr_dram_params d = tsr_test_dram_analytic();
	struct log l;
	struct tsr_memtime *mt = make(c, 2, &d, d.dram_mhz, &l);
	struct tsr_mem_path p = rd(0x1000, 2, 0), q = rd(0x2000, 2, 0);
	issue(mt, 10, &p, 1);
	issue(mt, 10, &q, 2);
	drain(mt);
	assert_int_equal(l.cycle[1], 13);
	assert_int_equal(l.cycle[2], 14);
	assert_int_equal(tsr_memtime_cache_counters(mt, 0)->port_wait_cycles, 1);
	tsr_memtime_destroy(mt);

	/* two ports: together */
	c[0].ports = 2;
	mt = make(c, 2, &d, d.dram_mhz, &l);
	issue(mt, 10, &p, 1);
	issue(mt, 10, &q, 2);
	drain(mt);
	assert_int_equal(l.cycle[1], 13);
	assert_int_equal(l.cycle[2], 13);
	tsr_memtime_destroy(mt);
}

/* Posted writes and write-backs take DRAM bandwidth, but nobody waits. */
static void test_posted_writes(void **state)
{
	(void)state;
	struct tsr_memtime_cache_params c[2];
	default_caches(c);
	struct tsr_dram_params d = tsr_test_dram_analytic();
	struct log l;
	struct tsr_memtime *mt = make(c, 2, &d, d.dram_mhz, &l);
	const uint64_t dm = dram_miss(&d);

	/* a read that misses both levels and evicts a dirty L2 line to DRAM (on
	 * the other channel) and a dirty L1 line into L2 */
	struct tsr_mem_path p = rd(0x3000, 2, 2);
	p.wb_count = 2;
	p.wb[0] = (struct tsr_mem_writeback){.from_level = 0, .to_dram = 0, .bytes = LINE,
					     .addr = 0x7000};
	p.wb[1] = (struct tsr_mem_writeback){.from_level = 1, .to_dram = 1, .bytes = LINE,
					     .addr = 0x8040};
	issue(mt, 0, &p, 1);
	drain(mt);
	assert_int_equal(l.count, 1);
	assert_int_equal(l.cycle[1], L1_LAT + L2_LAT + dm);
	const struct tsr_dram_device_counters *dk = tsr_memtime_dram_counters(mt);
	assert_int_equal(dk->writes, 1);
	assert_int_equal(dk->bytes_written, LINE);
	assert_int_equal(tsr_memtime_cache_counters(mt, 1)->writebacks, 1);
	assert_int_equal(tsr_memtime_counters(mt)->writebacks, 2);
	tsr_memtime_destroy(mt);

	/* 200 writes that bypass L1 to DRAM: each requester is done after its L1
	 * lookup (one port: a cycle apart); DRAM keeps writing long after */
	mt = make(c, 2, &d, d.dram_mhz, &l);
	for (uint64_t i = 0; i < 200; i++) {
		struct tsr_mem_path w = rd(i * LINE, 1, 1);
		w.write = 1;
		w.fetch = 0;
		issue(mt, 0, &w, i);
	}
	uint64_t last = 0;
	while (l.count < 200)
		tsr_memtime_advance(mt, tsr_memtime_next_event(mt));
	for (uint64_t i = 0; i < 200; i++)
		assert_int_equal(l.cycle[i], i + L1_LAT);
	last = l.cycle[199];
	assert_true(tsr_memtime_next_event(mt) != UINT64_MAX);  /* DRAM still busy */
	drain(mt);
	dk = tsr_memtime_dram_counters(mt);
	assert_int_equal(dk->writes, 200);
	assert_int_equal(dk->bytes_written, 200 * LINE);
	assert_true(dk->cycles > last);
	assert_int_equal(tsr_memtime_counters(mt)->posted, 200);
	assert_true(tsr_memtime_counters(mt)->dram_refusals > 0);  /* 2 x 32 write entries */
	print_message("200 posted writes: requesters done by cycle %llu, DRAM by %llu\n",
		      (unsigned long long)last, (unsigned long long)dk->cycles);
	tsr_memtime_destroy(mt);
}

/* Sequential misses through both levels reach the DRAM's bandwidth (the
 * papers' 4 bytes/cycle port at 400 MHz). */
static void test_stream_reaches_dram_bandwidth(void **state)
{
	(void)state;
	struct tsr_memtime_cache_params c[2];
	default_caches(c);
	c[0].mshrs = 32;
	c[1].mshrs = 32;
	struct tsr_dram_params d;
	tsr_dram_params_default_lpddr3(&d);
	struct log l;
	struct tsr_memtime *mt = make(c, 2, &d, 400, &l);
	const uint32_t n = 4000;
	for (uint32_t i = 0; i < n; i++) {
		struct tsr_mem_path p = rd((uint64_t)i * LINE, 2, 2);
		issue(mt, 0, &p, 256);
	}
	drain(mt);
	const struct tsr_dram_device_counters *dk = tsr_memtime_dram_counters(mt);
	assert_int_equal(dk->bytes_read, (uint64_t)n * LINE);
	double bw = (double)dk->bytes_read / (double)dk->cycles;
	double peak = tsr_dram_peak_bytes_per_gpu_cycle(tsr_memtime_dram(mt));
	const struct tsr_memtime_cache_counters *k1 = tsr_memtime_cache_counters(mt, 0);
	print_message("stream of %u misses: %.3f bytes/cycle of %.3f peak, L1 MSHRs mean %.1f "
		      "of %u, stall cycles %llu\n", n, bw, peak,
		      (double)k1->mshr_occupancy_sum / (double)dk->cycles, c[0].mshrs,
		      (unsigned long long)k1->mshr_stall_cycles);
	assert_true(bw >= 0.97 * peak && bw <= peak);
	assert_true(k1->mshr_stalls > 0);
	tsr_memtime_destroy(mt);
}

/* A random mix; how the caller steps: 0 issue only, 1 every event, 2 every cycle. */
struct mixrun {
	struct tsr_memtime_counters k;
	struct tsr_memtime_cache_counters c[2];
	struct tsr_dram_device_counters d;
	uint64_t count, latency_sum;
};

static void random_run(int step, uint32_t n, struct mixrun *out)
{
	struct tsr_memtime_cache_params c[2];
	default_caches(c);
	c[0].ports = 2;
	c[0].mshrs = 4;
	c[1].mshrs = 12;
	c[1].fill_latency = 1;
	struct tsr_dram_params d;
	tsr_dram_params_default_lpddr3(&d);
	struct log l;
	struct tsr_memtime *mt = make(c, 2, &d, 600, &l);
	memset(out, 0, sizeof(*out));
	struct tsr_rng rng;
	tsr_rng_seed(&rng, 7);
	uint64_t t = 0;
	for (uint32_t i = 0; i < n; i++) {
		t += tsr_rng_below(&rng, 12);
		uint64_t addr = (uint64_t)tsr_rng_below(&rng, 1024) * LINE;
		uint32_t kind = tsr_rng_below(&rng, 10);
		struct tsr_mem_path p = rd(addr, 2, kind < 5 ? 0 : kind < 7 ? 1 : 2);
		p.stream = (uint8_t)tsr_rng_below(&rng, 4);
		if (kind == 9) {  /* a write that allocates in L1 without a fetch */
			p = rd(addr, 1, 0);
			p.write = 1;
			p.fetch = 0;
		}
		if (kind == 8 && tsr_rng_below(&rng, 4) == 0) {
			p.wb_count = 1;
			p.wb[0] = (struct tsr_mem_writeback){
				.from_level = 1, .to_dram = 1, .bytes = LINE,
				.addr = (uint64_t)tsr_rng_below(&rng, 1u << 20) * LINE};
		}
		if (step == 1)
			while (tsr_memtime_next_event(mt) < t)
				tsr_memtime_advance(mt, tsr_memtime_next_event(mt));
		else if (step == 2)
			for (uint64_t x = tsr_memtime_now(mt) + 1; x < t; x++)
				tsr_memtime_advance(mt, x);
		issue(mt, t, &p, 256 + t);
	}
	drain(mt);
	out->k = *tsr_memtime_counters(mt);
	for (uint32_t i = 0; i < 2; i++)
		out->c[i] = *tsr_memtime_cache_counters(mt, i);
	out->d = *tsr_memtime_dram_counters(mt);
	out->count = l.count;
	out->latency_sum = l.latency_sum;
	tsr_memtime_destroy(mt);
}

static void test_littles_law(void **state)
{
	(void)state;
	struct mixrun a;
	const uint32_t n = 20000;
	random_run(1, n, &a);
	const struct tsr_memtime_counters *k = &a.k;
	assert_int_equal(a.count, n);
	assert_int_equal(k->issued, n);
	assert_int_equal(k->completed, n);
	assert_int_equal(k->latency_sum, a.latency_sum);
	/* L = lambda W over [0, cycles], exactly: sum of in-flight over cycles
	 * equals the sum of latencies once all are done */
	assert_int_equal(k->occupancy_sum, k->latency_sum);
	double T = (double)k->cycles, L = (double)k->occupancy_sum / T;
	double lambda = (double)k->completed / T, W = (double)k->latency_sum / (double)k->completed;
	print_message("random mix at 600 MHz: L %.3f, lambda %.4f /cycle, W %.2f cycles; merges "
		      "%llu, MSHR stall cycles %llu, L1 MSHRs mean %.2f, L2 %.2f; DRAM reads %llu "
		      "writes %llu\n", L, lambda, W, (unsigned long long)k->merges,
		      (unsigned long long)k->mshr_stall_cycles,
		      (double)a.c[0].mshr_occupancy_sum / T, (double)a.c[1].mshr_occupancy_sum / T,
		      (unsigned long long)a.d.reads, (unsigned long long)a.d.writes);
	assert_true(L / (lambda * W) > 0.999 && L / (lambda * W) < 1.001);
	uint64_t hist = 0, streams = 0;
	for (int i = 0; i < TSR_MEMTIME_HIST_BUCKETS; i++)
		hist += k->latency_hist[i];
	for (int s = 0; s < TSR_MEMTIME_STREAMS; s++)
		streams += k->stream[s].completed;
	assert_int_equal(hist, n);
	assert_int_equal(streams, n);
	assert_true(k->stream[3].completed > 0 && k->stream[4].completed == 0);
	assert_true(k->merges > 0 && k->mshr_stall_cycles > 0);
	/* every MSHR was freed: allocations equal the misses that took one */
	assert_true(a.c[0].mshr_occupancy_sum <= (uint64_t)4 * k->cycles);
	assert_int_equal(a.d.reads, k->dram_reads);
	assert_int_equal(a.d.writes, k->dram_writes);
	/* the DRAM's own Little's law on the same run */
	assert_int_equal(a.d.occupancy_sum, a.d.latency_sum);
}

/* Identical runs give identical counters, however the caller steps. */
static void test_determinism(void **state)
{
	(void)state;
	struct mixrun a, b, c, e;
	random_run(0, 5000, &a);
	random_run(0, 5000, &b);
	random_run(1, 5000, &c);
	random_run(2, 5000, &e);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_memory_equal(&a, &c, sizeof(a));
	assert_memory_equal(&a, &e, sizeof(a));
}

/* The functional model's own paths (TCOR Table I tree, two cores) replayed. */
struct replay {
	struct tsr_memtime *mt;
	struct log *l;
	uint64_t cycle, paths;
	int early;  /* tsr_memtime_issue_early() */
	uint64_t (*tag)(const struct replay *r);
};

/* Tags: 256 + the issue cycle (the log's latency sum), or 256 + the path's
 * number (by_issue: paths issued in one cycle told apart). */
static uint64_t tag_cycle(const struct replay *r)
{
	return 256 + r->cycle;
}

static uint64_t tag_path(const struct replay *r)
{
	return 256 + r->paths;
}

static void replay_path(void *ctx, const struct tsr_mem_path *p)
{
	struct replay *r = ctx;
	if (r->early) {
		struct tsr_error err = {{0}};
		r->l->in_issue = 1;
		assert_int_equal(tsr_memtime_issue_early(r->mt, r->cycle, p, r->tag(r), &err),
				 TSR_OK);
		r->l->in_issue = 0;
	} else {
		issue(r->mt, r->cycle, p, r->tag(r));
	}
	r->paths++;
}

/* gap: cycles between accesses (0: four a cycle); words: 4-byte words
 * they spread over; early: issued with tsr_memtime_issue_early(); by_issue:
 * if set, each completion's cycle by the path's number. Returns the model
 * (caller destroys). */
static struct tsr_memtime *replay_run_with(uint32_t gap, uint32_t n, uint32_t words, int early,
					   uint64_t *by_issue, struct tsr_memsys **out_m,
					   struct log *l, struct replay *r)
{
	struct tsr_memsys_config cfg;
	tsr_memsys_config_defaults(&cfg, 2);
	struct tsr_memsys *m = NULL;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_memsys_create(&cfg, &m, &err), TSR_OK);
	struct tsr_memtime_cache_params c[TSR_MEMSYS_MAX_CACHES];
	uint32_t nc = tsr_memsys_cache_count(m);
	for (uint32_t i = 0; i < nc; i++) {
		int l1 = tsr_memsys_cache_level(m, i) == 1;
		c[i] = (struct tsr_memtime_cache_params){
			.name = tsr_memsys_cache_group(m, i),
			.hit_latency = tsr_cache_geometry_of(tsr_memsys_cache(m, i))->latency_cycles,
			.ports = l1 ? 1 : 8, .mshrs = l1 ? 8 : 32};
	}
	struct tsr_dram_params d;
	tsr_dram_params_default_lpddr3(&d);
	struct tsr_memtime *mt = make(c, nc, &d, 600, l);
	l->by_issue = by_issue;
	memset(r, 0, sizeof(*r));
	r->mt = mt;
	r->l = l;
	r->early = early;
	r->tag = by_issue ? tag_path : tag_cycle;
	tsr_memsys_set_path_sink(m, replay_path, r);
	struct tsr_rng rng;
	tsr_rng_seed(&rng, 3);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t x = tsr_rng_below(&rng, 10), core = tsr_rng_below(&rng, 2);
		uint64_t addr = (uint64_t)tsr_rng_below(&rng, words) * 4;
		enum tsr_stream s = x < 5 ? TSR_STREAM_TEXTURE : x < 9 ? TSR_STREAM_PB_LISTS
							      : TSR_STREAM_COLOR;
		int write = s == TSR_STREAM_COLOR || (s == TSR_STREAM_PB_LISTS && x == 8);
		tsr_mem_access(m, tsr_memsys_port(m, s, core), addr, 4, write, s, 0, 0, NULL);
		r->cycle += gap ? gap : (i % 4 == 3);
	}
	uint64_t t;
	while ((t = tsr_memtime_next_event(mt)) != UINT64_MAX)
		tsr_memtime_advance(mt, t);
	*out_m = m;
	return mt;
}

static struct tsr_memtime *replay_run(uint32_t gap, uint32_t n, struct tsr_memsys **out_m,
				      struct log *l, struct replay *r)
{
	return replay_run_with(gap, n, 1u << 20, 0, NULL, out_m, l, r);  /* 4 MiB */
}

static void test_replay_functional_paths(void **state)
{
	(void)state;
	struct tsr_memsys *m;
	struct log l;
	struct replay r;
	/* spaced out: nothing overlaps, so the DRAM moves what the functional
	 * model counted, and every latency is a sum of hit latencies plus DRAM */
	struct tsr_memtime *mt = replay_run(1000, 3000, &m, &l, &r);
	uint64_t fr = 0, fw = 0;
	for (int s = 0; s < TSR_STREAM_COUNT; s++) {
		fr += tsr_memsys_dram(m, (enum tsr_stream)s)->read_bytes;
		fw += tsr_memsys_dram(m, (enum tsr_stream)s)->write_bytes;
	}
	const struct tsr_dram_device_counters *dk = tsr_memtime_dram_counters(mt);
	const struct tsr_memtime_counters *k = tsr_memtime_counters(mt);
	print_message("spaced replay: %llu paths, DRAM read %llu B (functional %llu), written "
		      "%llu B (functional %llu), mean latency %.1f\n", (unsigned long long)r.paths,
		      (unsigned long long)dk->bytes_read, (unsigned long long)fr,
		      (unsigned long long)dk->bytes_written, (unsigned long long)fw,
		      (double)k->latency_sum / (double)k->completed);
	assert_int_equal(l.count, r.paths);
	assert_int_equal(dk->bytes_read, fr);
	assert_int_equal(dk->bytes_written, fw);
	assert_int_equal(k->merges, 0);
	assert_int_equal(k->mshr_stall_cycles, 0);
	assert_true(fr > 0 && fw > 0);
	tsr_memtime_destroy(mt);
	tsr_memsys_destroy(m);

	/* one access per cycle, far beyond the DRAM port (overloaded on purpose):
	 * every path completes, Little holds, merged lines never add DRAM reads */
	mt = replay_run(1, 3000, &m, &l, &r);
	fr = 0;
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		fr += tsr_memsys_dram(m, (enum tsr_stream)s)->read_bytes;
	dk = tsr_memtime_dram_counters(mt);
	k = tsr_memtime_counters(mt);
	print_message("dense replay: %llu paths, DRAM read %llu B (functional %llu), merges "
		      "%llu, MSHR stall cycles %llu, mean latency %.1f\n",
		      (unsigned long long)r.paths, (unsigned long long)dk->bytes_read,
		      (unsigned long long)fr, (unsigned long long)k->merges,
		      (unsigned long long)k->mshr_stall_cycles,
		      (double)k->latency_sum / (double)k->completed);
	assert_int_equal(l.count, r.paths);
	assert_true(dk->bytes_read <= fr);
	assert_int_equal(k->occupancy_sum, k->latency_sum);
	tsr_memtime_destroy(mt);
	tsr_memsys_destroy(m);
}

/*
 * tsr_memtime_issue_early() on dense replays, one access a cycle over 4 MiB
 * and four a cycle over 16 KiB (hits on lines whose fill is still in
 * flight, merges, MSHR stalls, lookups queued for the port; leaving out
 * the early path's MSHR or stall condition fails it, its queued-lookup
 * condition fails test_early_known_hits): every request completes
 * at the cycle tsr_memtime_issue() gives it, every counter is the same,
 * and first-level hits whose outcome is certain are reported from inside
 * the call, at a later cycle.
 */
static void test_early_completion(void **state)
{
	(void)state;
	enum { N = 3000 };
	static uint64_t late[N * 2], early[N * 2];
	const uint32_t words[2] = {1u << 20, 1u << 12}, gap[2] = {1, 0};
	for (int w = 0; w < 2; w++) {
	struct tsr_memsys *m[2];
	struct log l[2];
	struct replay r[2];
	struct tsr_memtime *mt[2];
	memset(late, 0, sizeof(late));
	memset(early, 0, sizeof(early));
	mt[0] = replay_run_with(gap[w], N, words[w], 0, late, &m[0], &l[0], &r[0]);
	mt[1] = replay_run_with(gap[w], N, words[w], 1, early, &m[1], &l[1], &r[1]);
	assert_int_equal(r[0].paths, r[1].paths);
	assert_true(r[0].paths < N * 2);
	assert_int_equal(l[0].count, r[0].paths);
	assert_int_equal(l[1].count, r[1].paths);
	assert_memory_equal(late, early, sizeof(late));
	const struct tsr_memtime_counters *k0 = tsr_memtime_counters(mt[0]),
					   *k1 = tsr_memtime_counters(mt[1]);
	assert_memory_equal(k0, k1, sizeof(*k0));
	for (uint32_t i = 0; i < tsr_memsys_cache_count(m[0]); i++)
		assert_memory_equal(tsr_memtime_cache_counters(mt[0], i),
				    tsr_memtime_cache_counters(mt[1], i),
				    sizeof(struct tsr_memtime_cache_counters));
	assert_memory_equal(tsr_memtime_dram_counters(mt[0]), tsr_memtime_dram_counters(mt[1]),
			    sizeof(struct tsr_dram_device_counters));
	print_message("early completion over %u words: %llu of %llu requests reported at "
		      "issue, %llu merges, %llu MSHR stall cycles\n", words[w],
		      (unsigned long long)l[1].inside, (unsigned long long)r[1].paths,
		      (unsigned long long)k1->merges, (unsigned long long)k1->mshr_stall_cycles);
	assert_int_equal(l[0].inside, 0);
	assert_true(l[1].inside > 0 && l[1].inside < r[1].paths);
	for (int i = 0; i < 2; i++) {
		tsr_memtime_destroy(mt[i]);
		tsr_memsys_destroy(m[i]);
	}
	}
}

static void expect_bad(const struct tsr_memtime_cache_params *c, uint32_t nc,
		       const struct tsr_dram_params *d, const char *what)
{
	struct tsr_memtime *mt = (struct tsr_memtime *)1;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_memtime_create(c, nc, d, 400, &mt, &err), TSR_ERR_CONFIG);
	assert_null(mt);
	if (!strstr(err.msg, what))
		print_error("message '%s' lacks '%s'\n", err.msg, what);
	assert_non_null(strstr(err.msg, what));
}

static void test_bad_params(void **state)
{
	(void)state;
	struct tsr_memtime_cache_params c[2];
	struct tsr_dram_params d = tsr_test_dram_analytic();
	default_caches(c);
	c[1].ports = 0;
	expect_bad(c, 2, &d, "cache 'L2' parameter 'ports'");
	default_caches(c);
	c[0].mshrs = 0;
	expect_bad(c, 2, &d, "cache 'L1' parameter 'mshrs'");
	default_caches(c);
	c[0].mshrs = 70000;
	expect_bad(c, 2, &d, "'mshrs' must be from 1 to 65535");
	default_caches(c);
	c[1].hit_latency = 0;
	c[1].name = NULL;
	expect_bad(c, 2, &d, "cache 1 parameter 'hit_latency'");
	default_caches(c);
	d.channels = 3;
	expect_bad(c, 2, &d, "'channels'");

	/* paths that do not fit the model */
	d = tsr_test_dram_analytic();
	struct log l;
	struct tsr_memtime *mt = make(c, 2, &d, d.dram_mhz, &l);
	struct tsr_error err = {{0}};
	struct tsr_mem_path p = rd(0, 2, 0);
	p.cache[1] = 5;
	assert_int_equal(tsr_memtime_issue(mt, 0, &p, 1, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "cache 5"));
	p = rd(0, 2, 3);
	assert_int_equal(tsr_memtime_issue(mt, 0, &p, 1, &err), TSR_ERR_INTERNAL);
	p = rd(0, 1, 0);
	p.wb_count = 1;
	p.wb[0].from_level = 1;
	assert_int_equal(tsr_memtime_issue(mt, 0, &p, 1, &err), TSR_ERR_INTERNAL);
	p = rd(0, 2, 0);
	issue(mt, 50, &p, 1);
	assert_int_equal(tsr_memtime_issue(mt, 49, &p, 2, &err), TSR_ERR_INTERNAL);
	drain(mt);
	assert_int_equal(l.count, 1);
	assert_int_equal(tsr_memtime_status(mt, &err), TSR_OK);
	tsr_memtime_destroy(mt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unloaded_latencies),
		cmocka_unit_test(test_merging),
		cmocka_unit_test(test_early_known_hits),
		cmocka_unit_test(test_fetching_write_and_split_fill),
		cmocka_unit_test(test_mshr_exhaustion),
		cmocka_unit_test(test_port_contention),
		cmocka_unit_test(test_posted_writes),
		cmocka_unit_test(test_stream_reaches_dram_bandwidth),
		cmocka_unit_test(test_littles_law),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_replay_functional_paths),
		cmocka_unit_test(test_early_completion),
		cmocka_unit_test(test_bad_params),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
