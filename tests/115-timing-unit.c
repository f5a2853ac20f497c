/*
 * 115: the fixed-function timing unit (timing/unit.h): throughput, the
 * pipelined latency and its in-flight bound, back-pressure from a full
 * input queue and from a refusing consumer, gates (barriers), and cycle
 * accounting; every expected cycle follows from the parameters.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "timing/unit.h"

/* What the consumer saw, and whether it takes items. */
struct sink {
	uint32_t count;
	uint64_t cycle[64], tag[64];
	int refuse;          /* 1: refuse every item */
	uint64_t open_from;  /* gate: tags >= gate_tag start only from this cycle */
	uint64_t gate_tag;
};

static bool take(void *ctx, uint64_t cycle, uint64_t tag)
{
	struct sink *s = ctx;
	if (s->refuse)
		return false;
	if (s->count < 64) {
		s->cycle[s->count] = cycle;
		s->tag[s->count] = tag;
	}
	s->count++;
	return true;
}

static bool gate(void *ctx, uint64_t cycle, uint64_t tag)
{
	struct sink *s = ctx;
	return tag < s->gate_tag || cycle >= s->open_from;
}

static struct tsr_unit *unit(uint32_t queue, uint32_t rate, uint32_t latency,
			     uint32_t inflight, struct sink *s, int gated)
{
	struct tsr_unit_params p = {"test", queue, rate, latency, inflight};
	struct tsr_unit *u = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_unit_create(&p, take, gated ? gate : NULL, s, &u, &err), TSR_OK);
	return u;
}

/* Runs u until it has nothing to do by itself; returns the last cycle. */
static uint64_t run(struct tsr_unit *u)
{
	uint64_t t, last = 0;
	while ((t = tsr_unit_next_event(u)) != UINT64_MAX) {
		tsr_unit_advance(u, t);
		last = t;
	}
	return last;
}

static void check_accounting(const struct tsr_unit *u, uint64_t cycles)
{
	const struct tsr_unit_counters *c = tsr_unit_counters(u);
	assert_int_equal(c->busy + c->stalled_output + c->stalled_gate + c->starved, cycles);
}

/* rate 1, no latency: one item per cycle, each out the cycle after it starts */
static void test_throughput(void **state)
{
	(void)state;
	struct sink s = {0};
	struct tsr_unit *u = unit(16, 1, 0, 1, &s, 0);
	for (uint64_t i = 0; i < 10; i++)
		assert_true(tsr_unit_push(u, 0, i, 1));
	assert_int_equal(run(u), 10);
	assert_int_equal(s.count, 10);
	for (uint32_t i = 0; i < 10; i++) {
		assert_int_equal(s.cycle[i], i + 1);
		assert_int_equal(s.tag[i], i);
	}
	const struct tsr_unit_counters *c = tsr_unit_counters(u);
	assert_int_equal(c->items, 10);
	assert_int_equal(c->busy, 10);
	/* the queue held 10, 9, ..., 1 items at the end of cycles 0..9 */
	assert_int_equal(c->queue_occupancy, 9 + 8 + 7 + 6 + 5 + 4 + 3 + 2 + 1);
	check_accounting(u, 10);
	tsr_unit_destroy(u);
}

/* 16 work units per cycle (the Rasterizer's attributes): ceil(work / 16) cycles */
static void test_rate(void **state)
{
	(void)state;
	struct sink s = {0};
	struct tsr_unit *u = unit(16, 16, 0, 1, &s, 0);
	const uint32_t work[] = {48, 16, 17, 1};  /* 3, 1, 2, 1 cycles */
	for (uint64_t i = 0; i < 4; i++)
		assert_true(tsr_unit_push(u, 0, i, work[i]));
	run(u);
	assert_int_equal(s.cycle[0], 3);
	assert_int_equal(s.cycle[1], 4);
	assert_int_equal(s.cycle[2], 6);
	assert_int_equal(s.cycle[3], 7);
	assert_int_equal(tsr_unit_counters(u)->work, 82);
	tsr_unit_destroy(u);
}

/*
 * latency L: with L items in flight the unit stays pipelined (out at
 * i + 1 + L); with one in flight each item holds the server until the one
 * before leaves, one item per L cycles (out at 1 + L + i L).
 */
static void test_latency_and_inflight(void **state)
{
	(void)state;
	const uint32_t L = 3;
	struct sink s = {0};
	struct tsr_unit *u = unit(16, 1, L, L, &s, 0);
	for (uint64_t i = 0; i < 5; i++)
		assert_true(tsr_unit_push(u, 0, i, 1));
	run(u);
	for (uint32_t i = 0; i < 5; i++)
		assert_int_equal(s.cycle[i], i + 1 + L);
	tsr_unit_destroy(u);

	struct sink s1 = {0};
	u = unit(16, 1, L, 1, &s1, 0);
	for (uint64_t i = 0; i < 5; i++)
		assert_true(tsr_unit_push(u, 0, i, 1));
	uint64_t end = run(u);
	for (uint32_t i = 0; i < 5; i++)
		assert_int_equal(s1.cycle[i], 1 + L + i * L);
	const struct tsr_unit_counters *c = tsr_unit_counters(u);
	assert_int_equal(c->busy, 5);
	/* items 1..4 each waited L - 1 cycles for the pipeline, after its service */
	assert_int_equal(c->stalled_output, 4 * (L - 1));
	check_accounting(u, end);
	tsr_unit_destroy(u);
}

/* a full queue refuses; a refusing consumer stalls the unit until woken */
static void test_back_pressure(void **state)
{
	(void)state;
	struct sink s = {.refuse = 1};
	struct tsr_unit *u = unit(2, 1, 0, 1, &s, 0);
	assert_true(tsr_unit_push(u, 0, 0, 1));
	assert_true(tsr_unit_push(u, 0, 1, 1));    /* item 0 went into service */
	assert_true(tsr_unit_push(u, 0, 2, 1));
	assert_false(tsr_unit_push(u, 0, 3, 1));   /* the queue: 2 entries */
	assert_false(tsr_unit_can_accept(u));
	run(u);
	/* item 0 in the pipeline refused, item 1 served and held, item 2 queued */
	assert_int_equal(tsr_unit_items(u), 3);
	assert_int_equal(tsr_unit_next_event(u), UINT64_MAX);
	assert_true(tsr_unit_push(u, 5, 3, 1));
	assert_false(tsr_unit_push(u, 5, 4, 1));
	s.refuse = 0;
	tsr_unit_wake(u, 20);
	uint64_t end = run(u);
	assert_int_equal(s.count, 4);
	assert_int_equal(s.cycle[0], 20);
	assert_int_equal(s.cycle[1], 20);  /* held finished: into the pipeline, out */
	assert_int_equal(s.cycle[2], 21);
	assert_int_equal(s.cycle[3], 22);
	assert_int_equal(end, 22);
	const struct tsr_unit_counters *c = tsr_unit_counters(u);
	assert_int_equal(c->busy, 4);
	assert_int_equal(c->stalled_output, 18);  /* cycles 2..19: item 1 held */
	check_accounting(u, end);
	tsr_unit_destroy(u);
}

/* a closed gate holds the queue (a barrier) until a wake finds it open */
static void test_gate(void **state)
{
	(void)state;
	struct sink s = {.gate_tag = 2, .open_from = 50};
	struct tsr_unit *u = unit(8, 1, 0, 1, &s, 1);
	for (uint64_t i = 0; i < 4; i++)
		assert_true(tsr_unit_push(u, 0, i, 1));
	run(u);
	assert_int_equal(s.count, 2);
	assert_int_equal(tsr_unit_next_event(u), UINT64_MAX);
	tsr_unit_wake(u, 30);   /* still closed */
	run(u);
	assert_int_equal(s.count, 2);
	tsr_unit_wake(u, 50);
	uint64_t end = run(u);
	assert_int_equal(s.count, 4);
	assert_int_equal(s.cycle[2], 51);
	assert_int_equal(s.cycle[3], 52);
	const struct tsr_unit_counters *c = tsr_unit_counters(u);
	assert_int_equal(c->stalled_gate, 48);  /* cycles 2..49 */
	check_accounting(u, end);
	tsr_unit_destroy(u);
}

static void test_bad_params(void **state)
{
	(void)state;
	struct tsr_unit *u = NULL;
	struct tsr_error err;
	struct tsr_unit_params p = {"rasterizer", 16, 0, 0, 1};
	assert_int_equal(tsr_unit_create(&p, take, NULL, NULL, &u, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "'rasterizer'"));
	assert_non_null(strstr(err.msg, "rate"));
	assert_null(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_throughput),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_latency_and_inflight),
		cmocka_unit_test(test_back_pressure),
		cmocka_unit_test(test_gate),
		cmocka_unit_test(test_bad_params),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
