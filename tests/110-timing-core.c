/*
 * 110-timing-core.c - the shader-core timing model (src/timing/core.c).
 *
 * A fake memory answers the core's requests after a latency the test
 * sets (fixed per kind, or per request from a function of the quad's tag
 * and the request's index), either queued and delivered by the driver
 * loop at the completion cycle (as a memory unit would) or at once with
 * the future completion cycle. The driver pushes quads whenever a slot is
 * free and jumps from event to event (the minimum of the core's and the
 * memory's next events). Notation of the expected cycles: N quads, A ALU
 * instructions per quad, a = alu_before_sample, r = A - a, S =
 * sample_issue_cycles, L the memory latency, W warp slots.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/rng.h"
#include "timing/core.h"

#define MAXQ 2048u
#define MAXPEND 8192u

struct rig {
	struct tsr_core *core;
	int immediate;        /* mem_done at once with the future cycle */
	int step;             /* advance one cycle at a time instead of jumping */
	uint32_t tex_latency, ifetch_latency;
	uint32_t (*latency)(uint64_t tag, uint32_t kind, uint32_t index); /* or NULL */
	struct {
		uint64_t token, done;
	} pend[MAXPEND];
	uint32_t npend;
	uint64_t requests;
	struct {
		uint64_t tag, cycle;
	} ret[MAXQ];
	uint32_t nret;
	uint64_t retired, last_retire;
	int driving;          /* inside drive(): outputs must come at cycle t */
	uint64_t t;
};

static void on_issue(void *ctx, uint64_t cycle, uint64_t tag, uint32_t kind, uint32_t index,
		     uint64_t token)
{
	struct rig *r = ctx;
	uint32_t lat = r->latency ? r->latency(tag, kind, index)
				  : kind == TSR_CORE_MEM_IFETCH ? r->ifetch_latency : r->tex_latency;
	r->requests++;
	/* next_event() is a lower bound on the next output: the driver never
	 * jumps past a request's cycle */
	if (r->driving)
		assert_int_equal(cycle, r->t);
	if (r->immediate || lat == 0) {
		assert_int_equal(tsr_core_mem_done(r->core, token, cycle + lat), TSR_OK);
		return;
	}
	assert_true(r->npend < MAXPEND);
	r->pend[r->npend].token = token;
	r->pend[r->npend].done = cycle + lat;
	r->npend++;
}

static void on_retire(void *ctx, uint64_t tag, uint64_t cycle)
{
	struct rig *r = ctx;
	if (r->nret < MAXQ) {
		r->ret[r->nret].tag = tag;
		r->ret[r->nret].cycle = cycle;
		r->nret++;
	}
	r->retired++;
	if (r->driving)
		assert_int_equal(cycle, r->t);
	assert_true(cycle >= r->last_retire);
	r->last_retire = cycle;
}

static void deliver(struct rig *r, uint64_t t)
{
	uint32_t j = 0;
	for (uint32_t i = 0; i < r->npend; i++) {
		if (r->pend[i].done <= t)
			assert_int_equal(tsr_core_mem_done(r->core, r->pend[i].token, r->pend[i].done),
					 TSR_OK);
		else
			r->pend[j++] = r->pend[i];
	}
	r->npend = j;
}

static uint64_t fake_next(const struct rig *r)
{
	uint64_t m = UINT64_MAX;
	for (uint32_t i = 0; i < r->npend; i++)
		if (r->pend[i].done < m)
			m = r->pend[i].done;
	return m;
}

static struct tsr_core_params params(uint32_t slots, uint32_t sched)
{
	struct tsr_core_params p;
	tsr_core_params_default(&p);
	p.warp_slots = slots;
	p.sched = sched;
	return p;
}

static void rig_init(struct rig *r, const struct tsr_core_params *p)
{
	memset(r, 0, sizeof(*r));
	struct tsr_error err = {{0}};
	enum tsr_status s = tsr_core_create(p, &r->core, &err);
	if (s != TSR_OK)
		print_error("%s\n", err.msg);
	assert_int_equal(s, TSR_OK);
	tsr_core_set_memory(r->core, on_issue, r);
	tsr_core_set_retire(r->core, on_retire, r);
}

/* Runs items to the last retirement; returns its cycle. */
static uint64_t drive(struct rig *r, const struct tsr_core_item *items, size_t n)
{
	uint64_t t = tsr_core_now(r->core), guard = 0, base = r->retired;
	size_t i = 0;
	r->driving = 1;
	for (;;) {
		r->t = t;
		deliver(r, t);
		tsr_core_advance(r->core, t);
		while (i < n && tsr_core_can_accept(r->core)) {
			assert_int_equal(tsr_core_push(r->core, t, &items[i], NULL), TSR_OK);
			i++;
		}
		if (i == n && r->retired - base == n)
			break;
		/* the core's state did not change since the last advance: the
		 * bound must not move back */
		assert_true(tsr_core_next_event(r->core) >= t);
		uint64_t a = tsr_core_next_event(r->core), b = fake_next(r);
		/* stepping: one cycle on, unless the core has events at t itself
		 * (a quad pushed with nothing to do retires at once) */
		uint64_t nx = r->step ? (a == t ? t : t + 1) : (a < b ? a : b);
		assert_true(nx != UINT64_MAX);
		assert_true(nx >= t);
		t = nx;
		assert_true(++guard < 10000000);
	}
	r->driving = 0;
	return r->last_retire;
}

static void fill(struct tsr_core_item *it, size_t n, uint32_t alu, uint32_t tex, uint32_t ifetch)
{
	for (size_t i = 0; i < n; i++) {
		it[i].tag = i;
		it[i].alu_instructions = alu;
		it[i].tex_requests = tex;
		it[i].ifetch_requests = ifetch;
		it[i].seg_count = 0;
		it[i].segs = NULL;
	}
}

/* The counters' invariants. */
static void check_sums(struct tsr_core *c)
{
	const struct tsr_core_counters *k = tsr_core_counters(c);
	assert_int_equal(k->busy_cycles + k->idle_cycles + k->stall_mem_cycles +
				 k->stall_dep_cycles,
			 k->cycles);
	uint64_t occ = 0, occ_time = 0, slots = 0;
	for (uint32_t j = 0; j <= TSR_CORE_MAX_WARP_SLOTS; j++) {
		occ += j * k->occupancy_cycles[j];
		occ_time += k->occupancy_cycles[j];
	}
	for (uint32_t j = 0; j < TSR_CORE_MAX_WARP_SLOTS; j++)
		slots += k->slot_resident_cycles[j];
	assert_int_equal(occ_time, k->cycles);
	assert_int_equal(occ, k->resident_warp_cycles);
	assert_int_equal(slots, k->resident_warp_cycles);
	assert_int_equal(k->late_completions, 0);
}

/* N untextured quads of A instructions, ALU latency 1: the issue port is
 * busy every cycle from 0, so the last quad retires at N x A (fill 0),
 * with any number of slots (a freed slot is refilled the cycle it frees). */
static void test_throughput(void **state)
{
	(void)state;
	const uint32_t n = 50, a = 6;
	static struct tsr_core_item it[50];
	fill(it, n, a, 0, 0);
	uint32_t slots[] = {1, 4, 16};
	for (uint32_t sc = 0; sc < TSR_CORE_SCHED_COUNT; sc++)
		for (size_t i = 0; i < 3; i++) {
			struct tsr_core_params p = params(slots[i], sc);
			struct rig r;
			rig_init(&r, &p);
			assert_int_equal(drive(&r, it, n), n * a);
			const struct tsr_core_counters *k = tsr_core_counters(r.core);
			assert_int_equal(k->busy_cycles, n * a);
			assert_int_equal(k->instructions, n * a);
			assert_int_equal(k->idle_cycles + k->stall_mem_cycles + k->stall_dep_cycles, 0);
			assert_int_equal(k->quads_retired, n);
			check_sums(r.core);
			tsr_core_destroy(r.core);
		}
	/* ALU latency 2, one slot: a quad's instructions issue every other
	 * cycle and it retires 2 cycles after its last: 2A per quad, half of
	 * it stalled on the dependency; two slots fill the gaps again. */
	struct tsr_core_params p = params(1, TSR_CORE_SCHED_GTO);
	p.alu_latency_cycles = 2;
	struct rig r;
	rig_init(&r, &p);
	assert_int_equal(drive(&r, it, n), n * 2 * a);
	const struct tsr_core_counters *k = tsr_core_counters(r.core);
	assert_int_equal(k->busy_cycles, n * a);
	assert_int_equal(k->stall_dep_cycles, n * a);
	check_sums(r.core);
	tsr_core_destroy(r.core);
	p.warp_slots = 2;
	rig_init(&r, &p);
	/* both warps alternate; the last quad alone runs its tail at half
	 * rate: at most A extra cycles */
	uint64_t t = drive(&r, it, n);
	assert_true(t >= n * a && t <= n * a + a);
	check_sums(r.core);
	tsr_core_destroy(r.core);
}

/*
 * Issue width W (GSPC Section 4's sampler clusters): untextured quads of
 * A instructions on S slots finish in n A / min(W, S) cycles, rounded up
 * per group; each instruction counted once; the busy cycles are the
 * cycles with any issue. Stepping one cycle at a time gives the same
 * result as jumping between events. Textured quads with W > 1 still
 * retire every quad once.
 */
static void test_issue_width(void **state)
{
	(void)state;
	const uint32_t n = 48, a = 6;
	static struct tsr_core_item it[48];
	fill(it, n, a, 0, 0);
	static const struct {
		uint32_t slots, width;
		uint64_t cycles;
	} cases[] = {
		{16, 1, 48 * 6}, {16, 2, 24 * 6}, {16, 4, 12 * 6}, {16, 16, 3 * 6},
		{4, 8, 12 * 6},  /* four warps: four a cycle at most */
		{1, 4, 48 * 6},  /* one warp issues one a cycle */
	};
	for (uint32_t sc = 0; sc < TSR_CORE_SCHED_COUNT; sc++)
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			for (int step = 0; step < 2; step++) {
				struct tsr_core_params p = params(cases[i].slots, sc);
				p.issue_width = cases[i].width;
				struct rig r;
				rig_init(&r, &p);
				r.step = step;
				assert_int_equal(drive(&r, it, n), cases[i].cycles);
				const struct tsr_core_counters *k = tsr_core_counters(r.core);
				assert_int_equal(k->instructions, n * a);
				assert_int_equal(k->busy_cycles, cases[i].cycles);
				assert_int_equal(k->quads_retired, n);
				check_sums(r.core);
				tsr_core_destroy(r.core);
			}
	/* textured: the same quads finish sooner with a wider port, and the
	 * stepped and event-driven runs agree */
	fill(it, n, a, 2, 0);
	uint64_t prev = UINT64_MAX;
	for (uint32_t w = 1; w <= 8; w *= 2) {
		uint64_t t[2];
		for (int step = 0; step < 2; step++) {
			struct tsr_core_params p = params(16, TSR_CORE_SCHED_GTO);
			p.issue_width = w;
			struct rig r;
			rig_init(&r, &p);
			r.step = step;
			t[step] = drive(&r, it, n);
			assert_int_equal(tsr_core_counters(r.core)->instructions, n * (a + 1));
			check_sums(r.core);
			tsr_core_destroy(r.core);
		}
		assert_int_equal(t[0], t[1]);
		assert_true(t[0] <= prev);
		prev = t[0];
	}
}

/* One slot, textured quads: each costs a + S + L + r, serialised. */
static void test_one_warp_textured(void **state)
{
	(void)state;
	const uint32_t n = 10, alu = 6, lat = 20;
	static struct tsr_core_item it[10];
	fill(it, n, alu, 1, 0);
	for (uint32_t sic = 1; sic <= 3; sic += 2) {
		struct tsr_core_params p = params(1, TSR_CORE_SCHED_GTO);
		p.sample_issue_cycles = sic;
		struct rig r;
		rig_init(&r, &p);
		r.tex_latency = lat;
		uint32_t a = p.alu_before_sample, rest = alu - a;
		assert_int_equal(drive(&r, it, n), n * (a + sic + lat + rest));
		const struct tsr_core_counters *k = tsr_core_counters(r.core);
		assert_int_equal(k->busy_cycles, n * (alu + sic));
		assert_int_equal(k->stall_mem_cycles, n * lat);
		assert_int_equal(k->instructions, n * (alu + 1));
		assert_int_equal(k->sample_instructions, n);
		assert_int_equal(k->tex_requests, n);
		check_sums(r.core);
		tsr_core_destroy(r.core);
	}
	/* alu_instructions below alu_before_sample: the sample is the last
	 * instruction and the quad retires when its data is back */
	struct tsr_core_params p = params(1, TSR_CORE_SCHED_GTO);
	struct rig r;
	rig_init(&r, &p);
	r.tex_latency = lat;
	fill(it, n, 1, 3, 0);
	assert_int_equal(drive(&r, it, n), n * (1 + 1 + lat));
	tsr_core_destroy(r.core);
}

/*
 * Enough slots hide the latency: N = W quads all resident, GTO. Warp k
 * runs its a + S cycles before the sample in [k(a+S), (k+1)(a+S)), its
 * data is back L later; with L >= (N-1)(a+S) every warp's before-part is
 * done by then and with r <= a+S the rests never collide: the last quad
 * retires at N(a+S) + L + r, against N(a+S+L+r) with one slot.
 */
static void test_latency_hidden(void **state)
{
	(void)state;
	const uint32_t n = 8, alu = 4, lat = 100;
	static struct tsr_core_item it[8];
	fill(it, n, alu, 1, 0);
	struct tsr_core_params p = params(n, TSR_CORE_SCHED_GTO);
	struct rig r;
	rig_init(&r, &p);
	r.tex_latency = lat;
	uint32_t a = p.alu_before_sample, s = p.sample_issue_cycles, rest = alu - a;
	assert_true(lat >= (n - 1) * (a + s) && rest <= a + s);
	assert_int_equal(drive(&r, it, n), n * (a + s) + lat + rest);
	check_sums(r.core);
	tsr_core_destroy(r.core);
}

/*
 * Latency hiding against warp slots, GTO, quads of A = a ALU
 * instructions then the sample (r = 0), S = 1, L = 40, N = 32. A quad
 * holds the issue port for a + S cycles and then waits L. While W(a+S)
 * <= a+S+L the core is latency bound: warps run in W staggered windows of
 * period a+S+L, and the last quad retires at (W-1)(a+S) + (N/W)(a+S+L);
 * beyond, the port never idles after the start: N(a+S) + L.
 */
static void test_latency_hiding_table(void **state)
{
	(void)state;
	const uint32_t n = 32, a = 3, lat = 40, s = 1;
	static struct tsr_core_item it[32];
	fill(it, n, a, 1, 0);
	const uint32_t ws[] = {1, 2, 4, 8, 16};
	print_message("slots  expected  gto  rr  (a=%u S=%u L=%u N=%u)\n", a, s, lat, n);
	for (size_t i = 0; i < sizeof(ws) / sizeof(ws[0]); i++) {
		uint32_t w = ws[i];
		uint64_t expect = w * (a + s) <= a + s + lat
					  ? (uint64_t)(w - 1) * (a + s) + (n / w) * (a + s + lat)
					  : (uint64_t)n * (a + s) + lat;
		uint64_t got[2];
		for (uint32_t sc = 0; sc < 2; sc++) {
			struct tsr_core_params p = params(w, sc);
			p.alu_before_sample = a;
			struct rig r;
			rig_init(&r, &p);
			r.tex_latency = lat;
			got[sc] = drive(&r, it, n);
			check_sums(r.core);
			tsr_core_destroy(r.core);
		}
		print_message("%5u  %8llu  %llu  %llu\n", w, (unsigned long long)expect,
			      (unsigned long long)got[TSR_CORE_SCHED_GTO],
			      (unsigned long long)got[TSR_CORE_SCHED_RR]);
		assert_int_equal(got[TSR_CORE_SCHED_GTO], expect);
		/* round-robin interleaves the before-parts, so no better here */
		assert_true(got[TSR_CORE_SCHED_RR] >= expect);
	}
}

/*
 * Two slots, quad 0 of 4 instructions, quad 1 of 2, both at cycle 0.
 * GTO: quad 0 issues at 0-3 and retires at 4, quad 1 at 4-5, retires at 6.
 * RR alternates: 0:q0 1:q1 2:q0 3:q1 (q1 retires at 4) 4:q0 5:q0 (q0 at 6).
 */
static void test_rr_vs_gto(void **state)
{
	(void)state;
	struct tsr_core_item it[2] = {{.tag = 0, .alu_instructions = 4},
				      {.tag = 1, .alu_instructions = 2}};
	const uint64_t expect[2][2][2] = {
		[TSR_CORE_SCHED_RR] = {{1, 4}, {0, 6}},
		[TSR_CORE_SCHED_GTO] = {{0, 4}, {1, 6}},
	};
	for (uint32_t sc = 0; sc < 2; sc++) {
		struct tsr_core_params p = params(2, sc);
		struct rig r;
		rig_init(&r, &p);
		assert_int_equal(drive(&r, it, 2), 6);
		assert_int_equal(r.nret, 2);
		for (int q = 0; q < 2; q++) {
			assert_int_equal(r.ret[q].tag, expect[sc][q][0]);
			assert_int_equal(r.ret[q].cycle, expect[sc][q][1]);
		}
		tsr_core_destroy(r.core);
	}
}

/*
 * Two slots, three textured quads of 2 ALU instructions, L = 10 (GTO):
 * quad 0 issues at 0, 1, its sample at 2, requests at 3, back and retired
 * at 13; quad 1 at 3, 4, 5, requests at 6, retired at 16.
 */
static void test_backpressure(void **state)
{
	(void)state;
	struct tsr_core_params p = params(2, TSR_CORE_SCHED_GTO);
	struct rig r;
	rig_init(&r, &p);
	r.tex_latency = 10;
	struct tsr_core_item it[3];
	fill(it, 3, 2, 1, 0);
	assert_true(tsr_core_can_accept(r.core));
	assert_int_equal(tsr_core_push(r.core, 0, &it[0], NULL), TSR_OK);
	assert_int_equal(tsr_core_push(r.core, 0, &it[1], NULL), TSR_OK);
	assert_false(tsr_core_can_accept(r.core));
	assert_int_equal(tsr_core_push(r.core, 0, &it[2], NULL), TSR_ERR_LIMIT);
	assert_int_equal(tsr_core_resident(r.core), 2);
	/* both blocked on memory from cycle 6: the core has nothing to do */
	tsr_core_advance(r.core, 7);
	assert_int_equal(tsr_core_next_event(r.core), UINT64_MAX);
	assert_int_equal(fake_next(&r), 13);
	deliver(&r, 12);
	tsr_core_advance(r.core, 12);
	assert_false(tsr_core_can_accept(r.core));
	deliver(&r, 13);
	assert_int_equal(tsr_core_next_event(r.core), 13);
	tsr_core_advance(r.core, 13);
	assert_true(tsr_core_can_accept(r.core));
	assert_int_equal(r.nret, 1);
	assert_int_equal(r.ret[0].tag, 0);
	assert_int_equal(r.ret[0].cycle, 13);
	assert_int_equal(tsr_core_push(r.core, 13, &it[2], NULL), TSR_OK);
	assert_false(tsr_core_can_accept(r.core));
	const struct tsr_core_counters *k = tsr_core_counters(r.core);
	assert_int_equal(k->refused, 1);
	/* cycles 6-12: both warps wait on memory */
	assert_int_equal(k->stall_mem_cycles, 7);
	assert_int_equal(k->busy_cycles, 6);
	check_sums(r.core);
	tsr_core_destroy(r.core);
}

static uint32_t ifetch_lat(uint64_t tag, uint32_t kind, uint32_t index)
{
	(void)tag;
	return kind == TSR_CORE_MEM_IFETCH ? (index == 0 ? 7 : 12) : 0;
}

/* A quad's instruction fetches block its first instruction until the
 * slowest is back: two fetches of 7 and 12 cycles, 5 instructions:
 * first issue at 12, retirement at 17; a hit of latency 0 costs nothing. */
static void test_ifetch(void **state)
{
	(void)state;
	struct tsr_core_params p = params(1, TSR_CORE_SCHED_GTO);
	struct rig r;
	rig_init(&r, &p);
	r.latency = ifetch_lat;
	struct tsr_core_item it = {.tag = 9, .alu_instructions = 5, .ifetch_requests = 2};
	assert_int_equal(drive(&r, &it, 1), 12 + 5);
	const struct tsr_core_counters *k = tsr_core_counters(r.core);
	assert_int_equal(k->stall_mem_cycles, 12);
	assert_int_equal(k->busy_cycles, 5);
	assert_int_equal(k->ifetch_requests, 2);
	check_sums(r.core);
	tsr_core_destroy(r.core);

	rig_init(&r, &p);
	r.ifetch_latency = 0;
	it.ifetch_requests = 1;
	assert_int_equal(drive(&r, &it, 1), 5);
	tsr_core_destroy(r.core);
}

/* Per-tile windows: a quad pushed at 10 after 10 idle cycles, two quads
 * of 4 instructions on two slots: 10-13, 14-17, last retirement at 18. */
/* the texture request indices seen (bit i: index i) by seg_latency() */
static uint64_t seg_indices;

static uint32_t seg_latency(uint64_t tag, uint32_t kind, uint32_t index)
{
	(void)tag;
	if (kind == TSR_CORE_MEM_TEXTURE && index < 64)
		seg_indices |= 1ull << index;
	return 40;
}

/*
 * A GL ES program's instruction stream (struct tsr_core_seg): one quad of
 * segments {2 ALU, 1 SFU, sample of 3}, {1 ALU, sample of 2}, {3 ALU,
 * 2 SFU}, texture latency 40, SFU latency 4: ALU at 0, 1; SFU at 2; the
 * sample at 6, its requests out at 7, back at 47; ALU at 47, the sample
 * at 48, out at 49, back at 89; ALU at 89-91, SFU at 92 and 96, retired
 * at 100. 11 issue cycles, 80 on memory, 9 on the SFU's latency; request
 * indices 0..4 across the two samples. The same stepping one cycle at a
 * time. A sample with no request as the last instruction retires when
 * its requests would leave.
 */
static void test_segments(void **state)
{
	(void)state;
	static const struct tsr_core_seg segs[] = {{2, 1, 1, 3}, {1, 0, 1, 2}, {3, 2, 0, 0}};
	for (int step = 0; step < 2; step++) {
		struct tsr_core_params p = params(1, TSR_CORE_SCHED_GTO);
		assert_int_equal(p.sfu_latency_cycles, 4);
		struct rig r;
		rig_init(&r, &p);
		r.step = step;
		r.latency = seg_latency;
		seg_indices = 0;
		const struct tsr_core_item it = {.tag = 7, .alu_instructions = 99,
						 .tex_requests = 99, .seg_count = 3, .segs = segs};
		assert_int_equal(drive(&r, &it, 1), 100);
		const struct tsr_core_counters *k = tsr_core_counters(r.core);
		assert_int_equal(k->instructions, 11);
		assert_int_equal(k->sample_instructions, 2);
		assert_int_equal(k->sfu_instructions, 3);
		assert_int_equal(k->tex_requests, 5);
		assert_int_equal(seg_indices, 0x1f);
		assert_int_equal(k->busy_cycles, 11);
		assert_int_equal(k->stall_mem_cycles, 80);
		assert_int_equal(k->stall_dep_cycles, 9);
		check_sums(r.core);
		tsr_core_destroy(r.core);
	}
	static const struct tsr_core_seg none[] = {{1, 0, 1, 0}};
	struct tsr_core_params p = params(2, TSR_CORE_SCHED_RR);
	struct rig r;
	rig_init(&r, &p);
	const struct tsr_core_item it = {.tag = 1, .seg_count = 1, .segs = none};
	assert_int_equal(drive(&r, &it, 1), 2);
	assert_int_equal(tsr_core_counters(r.core)->tex_requests, 0);
	check_sums(r.core);
	tsr_core_destroy(r.core);
}

static void test_tile_window(void **state)
{
	(void)state;
	struct tsr_core_params p = params(2, TSR_CORE_SCHED_GTO);
	struct rig r;
	rig_init(&r, &p);
	struct tsr_core_item it[3];
	fill(it, 3, 4, 0, 0);
	tsr_core_mark(r.core, 10);
	assert_int_equal(drive(&r, it, 2), 18);
	const struct tsr_core_window *w = tsr_core_window(r.core);
	assert_int_equal(w->mark_cycle, 10);
	assert_int_equal(w->first_push_cycle, 10);
	assert_int_equal(w->last_retire_cycle, 18);
	assert_int_equal(w->quads_pushed, 2);
	assert_int_equal(w->quads_retired, 2);
	assert_int_equal(w->busy_cycles, 8);
	/* next tile: marked at 20, one quad at 25 */
	tsr_core_mark(r.core, 20);
	assert_int_equal(tsr_core_window(r.core)->quads_pushed, 0);
	tsr_core_advance(r.core, 25);
	assert_int_equal(drive(&r, &it[2], 1), 29);
	w = tsr_core_window(r.core);
	assert_int_equal(w->last_retire_cycle - w->first_push_cycle, 4);
	assert_int_equal(tsr_core_counters(r.core)->idle_cycles, 10 + 7);
	check_sums(r.core);
	tsr_core_destroy(r.core);
}

static uint32_t hashed_lat(uint64_t tag, uint32_t kind, uint32_t index)
{
	uint64_t x = (tag * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)kind << 40) ^ (index * 0xbf58476d1ce4e5b9ull);
	x ^= x >> 29;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 32;
	return (uint32_t)(x % 150);
}

static void run_mix(struct rig *r, const struct tsr_core_params *p, int immediate, int step,
		    struct tsr_core_counters *out)
{
	enum { N = 400 };
	static struct tsr_core_item it[N];
	struct tsr_rng rng;
	tsr_rng_seed(&rng, 7);
	for (uint32_t i = 0; i < N; i++) {
		it[i].tag = i;
		it[i].alu_instructions = tsr_rng_below(&rng, 24);
		it[i].tex_requests = tsr_rng_below(&rng, 3) ? tsr_rng_below(&rng, 5) : 0;
		it[i].ifetch_requests = tsr_rng_below(&rng, 8) == 0 ? 1 + tsr_rng_below(&rng, 2) : 0;
	}
	rig_init(r, p);
	r->latency = hashed_lat;
	r->immediate = immediate;
	r->step = step;
	drive(r, it, N);
	check_sums(r->core);
	*out = *tsr_core_counters(r->core);
	tsr_core_destroy(r->core);
}

/* Same inputs, same result: run twice, with completions reported at once
 * (future cycle) or at their cycle, and stepping one cycle at a time. */
static void test_determinism(void **state)
{
	(void)state;
	static struct rig r1, r2;
	for (uint32_t sc = 0; sc < 2; sc++) {
		struct tsr_core_params p = params(6, sc);
		p.alu_latency_cycles = 2;
		p.sample_issue_cycles = 2;
		struct tsr_core_counters k1, k2;
		run_mix(&r1, &p, 0, 0, &k1);
		for (int mode = 0; mode < 3; mode++) {
			run_mix(&r2, &p, mode == 1, mode == 2, &k2);
			for (uint32_t q = 0; q < r1.nret; q++)
				if (r1.ret[q].tag != r2.ret[q].tag ||
				    r1.ret[q].cycle != r2.ret[q].cycle) {
					print_message("mode %d, %s: retirement %u: %llu at %llu "
						      "against %llu at %llu\n",
						      mode, tsr_core_sched_names[sc], q,
						      (unsigned long long)r1.ret[q].tag,
						      (unsigned long long)r1.ret[q].cycle,
						      (unsigned long long)r2.ret[q].tag,
						      (unsigned long long)r2.ret[q].cycle);
					break;
				}
			assert_memory_equal(&k1, &k2, sizeof(k1));
			assert_int_equal(r1.nret, r2.nret);
			assert_memory_equal(r1.ret, r2.ret, sizeof(r1.ret[0]) * r1.nret);
		}
		print_message("%s: %llu cycles, busy %llu, mem stall %llu, dep stall %llu, "
			      "mean quad %.1f cycles\n",
			      tsr_core_sched_names[sc], (unsigned long long)k1.cycles,
			      (unsigned long long)k1.busy_cycles,
			      (unsigned long long)k1.stall_mem_cycles,
			      (unsigned long long)k1.stall_dep_cycles,
			      (double)k1.quad_cycles_sum / (double)k1.quads_retired);
	}
}

/* Unknown or stale tokens and completions before their request. */
static void test_bad_tokens(void **state)
{
	(void)state;
	struct tsr_core_params p = params(2, TSR_CORE_SCHED_GTO);
	struct rig r;
	rig_init(&r, &p);
	r.ifetch_latency = 10;
	struct tsr_core_item it = {.tag = 1, .alu_instructions = 1, .ifetch_requests = 1};
	tsr_core_advance(r.core, 5);
	assert_int_equal(tsr_core_push(r.core, 5, &it, NULL), TSR_OK);
	assert_int_equal(r.npend, 1);
	uint64_t tok = r.pend[0].token;
	assert_int_equal(tsr_core_mem_done(r.core, tok + 1, 15), TSR_ERR_INTERNAL);
	assert_int_equal(tsr_core_mem_done(r.core, tok ^ (1u << 12), 15), TSR_ERR_INTERNAL);
	assert_int_equal(tsr_core_mem_done(r.core, tok, 4), TSR_ERR_INTERNAL);
	assert_int_equal(tsr_core_mem_done(r.core, tok, 15), TSR_OK);
	assert_int_equal(tsr_core_mem_done(r.core, tok, 15), TSR_ERR_INTERNAL);
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_core_push(r.core, 3, &it, &err), TSR_ERR_INTERNAL);
	tsr_core_destroy(r.core);
}

/*
 * A completion the core learns of after advancing past its cycle counts
 * as late and as happening at the core's current cycle: one quad, one
 * texture request sent at 3 (a = 2, S = 1) and back at 10, reported
 * only once the core is at 20: the last instruction issues at 20.
 */
static void test_late_completion(void **state)
{
	(void)state;
	struct tsr_core_params p = params(1, TSR_CORE_SCHED_GTO);
	struct rig r;
	rig_init(&r, &p);
	r.tex_latency = 7;
	struct tsr_core_item it = {.tag = 3, .alu_instructions = 3, .tex_requests = 1};
	assert_int_equal(tsr_core_push(r.core, 0, &it, NULL), TSR_OK);
	tsr_core_advance(r.core, 20);
	assert_int_equal(r.npend, 1);
	assert_int_equal(r.pend[0].done, 10);
	deliver(&r, 20);
	assert_int_equal(tsr_core_next_event(r.core), 21);
	tsr_core_advance(r.core, 21);
	assert_int_equal(r.nret, 1);
	assert_int_equal(r.ret[0].cycle, 21);
	assert_int_equal(tsr_core_counters(r.core)->late_completions, 1);
	tsr_core_destroy(r.core);
}

static void test_bad_params(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		size_t off;
		uint32_t value;
	} bad[] = {
		{"warp_slots", offsetof(struct tsr_core_params, warp_slots), 0},
		{"warp_slots", offsetof(struct tsr_core_params, warp_slots), TSR_CORE_MAX_WARP_SLOTS + 1},
		{"sched", offsetof(struct tsr_core_params, sched), TSR_CORE_SCHED_COUNT},
		{"issue_width", offsetof(struct tsr_core_params, issue_width),
		 TSR_CORE_MAX_WARP_SLOTS + 1},
		{"issue_width", offsetof(struct tsr_core_params, issue_width), 0},
		{"alu_before_sample", offsetof(struct tsr_core_params, alu_before_sample),
		 TSR_CORE_MAX_ALU_BEFORE + 1},
		{"alu_latency_cycles", offsetof(struct tsr_core_params, alu_latency_cycles), 0},
		{"sample_issue_cycles", offsetof(struct tsr_core_params, sample_issue_cycles), 0},
		{"sample_issue_cycles", offsetof(struct tsr_core_params, sample_issue_cycles),
		 TSR_CORE_MAX_LATENCY + 1},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct tsr_core_params p;
		tsr_core_params_default(&p);
		memcpy((char *)&p + bad[i].off, &bad[i].value, sizeof(uint32_t));
		struct tsr_error err = {{0}};
		struct tsr_core *c = (struct tsr_core *)&p;
		assert_int_equal(tsr_core_create(&p, &c, &err), TSR_ERR_CONFIG);
		assert_null(c);
		if (!strstr(err.msg, bad[i].name))
			print_error("'%s' not in: %s\n", bad[i].name, err.msg);
		assert_non_null(strstr(err.msg, bad[i].name));
	}
	uint32_t s = 99;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_core_sched_from_name("greedy-then-oldest", &s, &err), TSR_OK);
	assert_int_equal(s, TSR_CORE_SCHED_GTO);
	assert_int_equal(tsr_core_sched_from_name("rr", &s, &err), TSR_OK);
	assert_int_equal(s, TSR_CORE_SCHED_RR);
	assert_int_equal(tsr_core_sched_from_name("lrr", &s, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "'lrr'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_throughput),
		cmocka_unit_test(test_issue_width),
		cmocka_unit_test(test_one_warp_textured),
		cmocka_unit_test(test_latency_hidden),
		cmocka_unit_test(test_latency_hiding_table),
		cmocka_unit_test(test_rr_vs_gto),
		cmocka_unit_test(test_backpressure),
		cmocka_unit_test(test_ifetch),
		cmocka_unit_test(test_segments),
		cmocka_unit_test(test_tile_window),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_bad_tokens),
		cmocka_unit_test(test_late_completion),
		cmocka_unit_test(test_bad_params),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
