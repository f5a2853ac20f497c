/*
 * 065-cachesim-opt.c - offline replay (src/cachesim) and the optimal
 * bounds OPT and OPTPT (src/memory/policy_opt.c, policy_optpt.c).
 *
 * The loop-trace theorems of the boustrophedonic paper (Section III-B,
 * Fig. 4) are checked exactly on generated traces: s distinct blocks
 * repeated in a loop through a fully associative cache of j lines, in
 * forward (circular) order or reversed every other iteration:
 *   forward:  LRU misses every access; OPT's steady-state miss ratio is
 *             (s-j)/(s-1) (exactly s(s-j) misses in every s-1 iterations);
 *             OPTPT's is (s-j)/s (s-j misses per iteration); MRU = OPT;
 *   reversed: LRU, OPT and OPTPT all miss s-j times per iteration.
 *   s <= j:   no misses after the first iteration.
 * The same holds per set in a set-associative cache. OPT and OPTPT are
 * also compared with an exhaustive search over every replacement (and
 * bypass) decision on small random traces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachesim/linetrace.h"
#include "cachesim/looptrace.h"
#include "cachesim/replay.h"
#include "memory/memsys.h"
#include "memory/policy.h"

#define LINE 64u

static struct tsr_access read_line(uint64_t line)
{
	return (struct tsr_access){.addr = line * LINE, .size = 4,
				   .stream = TSR_STREAM_TEXTURE, .next_use = TSR_NEVER};
}

/*
 * The loop trace of cachesim/looptrace.h: `iters` iterations over s blocks
 * in each of `sets` sets, forward, or reversed in odd iterations. Returns
 * the misses of each iteration.
 */
static void loop_misses(const char *policy, uint32_t s, uint32_t j, uint32_t sets,
			uint32_t iters, int reverse_odd, uint32_t *per_iter)
{
	struct tsr_error err;
	enum tsr_status st = tsr_loop_misses(policy, s, j, sets, iters, reverse_odd, per_iter, &err);
	if (st != TSR_OK)
		print_error("%s\n", err.msg);
	assert_int_equal(st, TSR_OK);
}

static uint32_t sum(const uint32_t *v, uint32_t from, uint32_t to)
{
	uint32_t t = 0;
	for (uint32_t i = from; i < to; i++)
		t += v[i];
	return t;
}

/* The theorems for one (s, j) in `sets` sets. */
static void check_loop_theorems(uint32_t s, uint32_t j, uint32_t sets)
{
	enum { ITERS = 64 };
	uint32_t m[ITERS];
	/* iterations after the first: a whole number of OPT periods (s-1) */
	uint32_t periods = s > 1 ? (ITERS - 1) / (s - 1) : 0;
	uint32_t last = 1 + periods * (s - 1);

	/* every policy misses each block once in the first iteration */
	loop_misses("lru", s, j, sets, ITERS, 0, m);
	assert_int_equal(m[0], s * sets);
	if (s > j) {
		for (uint32_t it = 1; it < ITERS; it++)
			assert_int_equal(m[it], s * sets);  /* LRU FO: miss ratio 1 */
		loop_misses("opt", s, j, sets, ITERS, 0, m);
		/* OPT FO: (s-j)/(s-1) of s(s-1) accesses per period */
		assert_int_equal(sum(m, 1, last), periods * s * (s - j) * sets);
		loop_misses("mru", s, j, sets, ITERS, 0, m);
		assert_int_equal(sum(m, 1, last), periods * s * (s - j) * sets);
		loop_misses("optpt", s, j, sets, ITERS, 0, m);
		for (uint32_t it = 1; it < ITERS; it++)
			assert_int_equal(m[it], (s - j) * sets);  /* OPTPT FO: (s-j)/s */
		static const char *const ro[] = {"lru", "opt", "optpt"};
		for (int p = 0; p < 3; p++) {
			loop_misses(ro[p], s, j, sets, ITERS, 1, m);
			for (uint32_t it = 1; it < ITERS; it++)
				assert_int_equal(m[it], (s - j) * sets);  /* RO: (s-j)/s */
		}
	} else {
		static const char *const all[] = {"lru", "opt", "optpt", "mru"};
		for (int p = 0; p < 4; p++)
			for (int rev = 0; rev < 2; rev++) {
				loop_misses(all[p], s, j, sets, ITERS, rev, m);
				assert_int_equal(m[0], s * sets);
				assert_int_equal(sum(m, 1, ITERS), 0);
			}
	}
}

static void test_loop_theorems_fully_associative(void **state)
{
	(void)state;
	check_loop_theorems(7, 3, 1);   /* Fig. 4 */
	check_loop_theorems(10, 4, 1);
	check_loop_theorems(33, 32, 1);
	check_loop_theorems(100, 16, 1);
	check_loop_theorems(3, 3, 1);   /* s = j */
	check_loop_theorems(2, 8, 1);   /* s < j */
}

static void test_loop_theorems_per_set(void **state)
{
	(void)state;
	check_loop_theorems(7, 3, 4);
	check_loop_theorems(12, 8, 16);
	check_loop_theorems(4, 8, 8);
}

/* ---- exhaustive search ---- */

struct search {
	const struct tsr_access *acc;
	size_t n;
	uint32_t sets, ways;
	int bypass;   /* OPTPT: a miss may also leave the cache unchanged */
	uint32_t best;
};

/* Fewest misses from position i with resident lines res[set][way] (UINT64_MAX = empty). */
static void dfs(struct search *s, size_t i, uint64_t *res, uint32_t misses)
{
	if (misses >= s->best)
		return;
	if (i == s->n) {
		s->best = misses;
		return;
	}
	uint64_t line = s->acc[i].addr / LINE;
	uint64_t *set = &res[(line % s->sets) * s->ways];
	for (uint32_t w = 0; w < s->ways; w++)
		if (set[w] == line) {
			dfs(s, i + 1, res, misses);
			return;
		}
	for (uint32_t w = 0; w < s->ways; w++)
		if (set[w] == UINT64_MAX) {  /* a free way: filling it is never worse */
			set[w] = line;
			dfs(s, i + 1, res, misses + 1);
			set[w] = UINT64_MAX;
			return;
		}
	for (uint32_t w = 0; w < s->ways; w++) {
		uint64_t old = set[w];
		set[w] = line;
		dfs(s, i + 1, res, misses + 1);
		set[w] = old;
	}
	if (s->bypass)
		dfs(s, i + 1, res, misses + 1);
}

static uint32_t replay_misses(const char *policy, const struct tsr_line_trace *lt,
			      uint32_t sets, uint32_t ways)
{
	struct tsr_cache_geometry g = tsr_test_geometry(sets, ways, LINE, policy);
	const char *specs[] = {policy};
	struct tsr_replay_result r;
	struct tsr_error err;
	assert_int_equal(tsr_replay(lt, &g, specs, 1, &r, &err), TSR_OK);
	return (uint32_t)(r.total.read_misses + r.total.write_misses);
}

static void test_opt_equals_exhaustive_minimum(void **state)
{
	(void)state;
	srand(12345);
	for (int trial = 0; trial < 60; trial++) {
		uint32_t sets = trial % 3 == 0 ? 2 : 1, ways = 2 + trial % 2;
		size_t n = 11;
		struct tsr_access acc[16];
		for (size_t i = 0; i < n; i++)
			acc[i] = read_line((uint64_t)(rand() % 6));
		struct tsr_line_trace lt;
		struct tsr_error err;
		assert_int_equal(tsr_line_trace_from_accesses(acc, n, LINE, &lt, &err), TSR_OK);
		uint64_t res[8];
		for (int bypass = 0; bypass < 2; bypass++) {
			for (int k = 0; k < 8; k++)
				res[k] = UINT64_MAX;
			struct search s = {acc, n, sets, ways, bypass, UINT32_MAX};
			dfs(&s, 0, res, 0);
			assert_int_equal(replay_misses(bypass ? "optpt" : "opt", &lt, sets, ways),
					 s.best);
		}
		/* nothing beats OPT: every online policy misses at least as often */
		assert_true(replay_misses("lru", &lt, sets, ways) >=
			    replay_misses("opt", &lt, sets, ways));
		tsr_line_trace_release(&lt);
	}
}

/* OPT through the heap agrees with a plain O(N x W) MIN on a large fully associative cache. */
static void test_opt_heap_matches_linear_min(void **state)
{
	(void)state;
	enum { N = 20000, WAYS = 64, LINES = 200 };
	struct tsr_access *acc = malloc(N * sizeof(*acc));
	assert_non_null(acc);
	srand(7);
	for (int i = 0; i < N; i++)
		acc[i] = read_line((uint64_t)(rand() % (i % 2 ? LINES : 40)));
	struct tsr_line_trace lt;
	struct tsr_error err;
	assert_int_equal(tsr_line_trace_from_accesses(acc, N, LINE, &lt, &err), TSR_OK);
	uint64_t res[WAYS];
	uint32_t used = 0, misses = 0;
	for (int i = 0; i < N; i++) {
		uint64_t line = lt.accesses[i].addr / LINE;
		int hit = 0;
		for (uint32_t w = 0; w < used; w++)
			hit |= res[w] == line;
		if (hit)
			continue;
		misses++;
		if (used < WAYS) {
			res[used++] = line;
			continue;
		}
		/* evict the resident line whose next use is farthest (brute force) */
		uint32_t victim = 0;
		size_t far = 0;
		for (uint32_t w = 0; w < WAYS; w++) {
			size_t k = (size_t)i + 1;
			while (k < N && lt.accesses[k].addr / LINE != res[w])
				k++;
			if (k > far) {
				far = k;
				victim = w;
			}
		}
		res[victim] = line;
	}
	assert_int_equal(replay_misses("opt", &lt, 1, WAYS), misses);
	tsr_line_trace_release(&lt);
	free(acc);
}

static void test_next_use_positions(void **state)
{
	(void)state;
	/* an access spanning two lines is split; next uses point at line accesses */
	struct tsr_trace_record rec[] = {
		{.addr = 0, .size = 4, .kind = TSR_TRACE_FRAME},
		{.addr = 0x100, .size = 4, .kind = TSR_TRACE_ACCESS},
		{.addr = 0x13c, .size = 8, .kind = TSR_TRACE_ACCESS},  /* lines 0x100 and 0x140 */
		{.addr = 7, .kind = TSR_TRACE_TILE},
		{.addr = 0x144, .size = 4, .kind = TSR_TRACE_ACCESS, .write = 1},
		{.addr = 0x200, .size = 4, .kind = TSR_TRACE_ACCESS},
	};
	struct tsr_trace t = {.records = rec, .count = 6, .accesses = 4};
	struct tsr_line_trace lt;
	struct tsr_error err;
	assert_int_equal(tsr_line_trace_build(&t, LINE, &lt, &err), TSR_OK);
	assert_int_equal(lt.count, 5);
	assert_int_equal(lt.distinct_lines, 3);
	assert_int_equal(lt.accesses[0].next_use, 1);         /* 0x100 -> 0x13c */
	assert_int_equal(lt.accesses[1].next_use, TSR_NEVER);
	assert_int_equal(lt.accesses[1].size, 4);
	assert_int_equal(lt.accesses[2].addr, 0x140);
	assert_int_equal(lt.accesses[2].size, 4);
	assert_int_equal(lt.accesses[2].next_use, 3);         /* 0x140 -> 0x144 */
	assert_int_equal(lt.accesses[3].write, 1);
	assert_int_equal(lt.accesses[4].next_use, TSR_NEVER);
	assert_int_equal(lt.marker_count, 2);
	assert_int_equal(lt.frames, 1);
	assert_int_equal(lt.markers[0].pos, 0);
	assert_int_equal(lt.markers[1].pos, 3);
	assert_int_equal(lt.markers[1].kind, TSR_MARKER_TILE);
	assert_int_equal(lt.markers[1].value, 7);
	tsr_line_trace_release(&lt);
	assert_int_equal(tsr_line_trace_build(&t, 48, &lt, &err), TSR_ERR_CONFIG);
}

/* Several policies in one pass give exactly what separate replays give. */
static void test_one_pass_equals_separate(void **state)
{
	(void)state;
	enum { N = 30000 };
	struct tsr_access *acc = malloc(N * sizeof(*acc));
	assert_non_null(acc);
	srand(99);
	for (int i = 0; i < N; i++) {
		acc[i] = read_line((uint64_t)(rand() % 3000));
		acc[i].write = rand() % 4 == 0;
		acc[i].stream = (uint8_t)(rand() % TSR_STREAM_COUNT);
	}
	struct tsr_line_trace lt;
	struct tsr_error err;
	assert_int_equal(tsr_line_trace_from_accesses(acc, N, LINE, &lt, &err), TSR_OK);
	const char *specs[] = {"lru", "opt", "optpt"};
	struct tsr_cache_geometry g = {.size_bytes = 64 * 1024, .ways = 8, .line_bytes = LINE};
	struct tsr_replay_result together[3], alone;
	assert_int_equal(tsr_replay(&lt, &g, specs, 3, together, &err), TSR_OK);
	for (int p = 0; p < 3; p++) {
		assert_int_equal(tsr_replay(&lt, &g, &specs[p], 1, &alone, &err), TSR_OK);
		assert_memory_equal(&alone, &together[p], sizeof(alone));
		assert_int_equal(together[p].total.reads + together[p].total.writes, N);
	}
	/* OPT <= LRU, OPTPT <= OPT in misses; only OPTPT bypasses */
	uint64_t m[3];
	for (int p = 0; p < 3; p++)
		m[p] = together[p].total.read_misses + together[p].total.write_misses;
	assert_true(m[1] <= m[0]);
	assert_true(m[2] <= m[1]);
	assert_int_equal(together[0].total.bypasses, 0);
	assert_int_equal(together[1].total.bypasses, 0);
	assert_true(together[2].total.bypasses > 0);
	/* a geometry with another line size is refused */
	g.line_bytes = 128;
	assert_int_equal(tsr_replay(&lt, &g, specs, 1, &alone, &err), TSR_ERR_CONFIG);
	tsr_line_trace_release(&lt);
	free(acc);
}

static void test_offline_policies_refused_online(void **state)
{
	(void)state;
	const struct tsr_policy_ops *ops = tsr_policy_find("opt");
	assert_non_null(ops);
	assert_true(ops->offline);
	assert_ptr_equal(tsr_policy_find("belady"), ops);
	assert_true(tsr_policy_find("optpt")->offline);
	assert_false(tsr_policy_find("lru")->offline);
	struct tsr_cache_geometry g = {.size_bytes = 1024, .ways = 4, .line_bytes = LINE};
	snprintf(g.policy, sizeof(g.policy), "opt:x=1");
	struct tsr_error err;
	assert_int_equal(tsr_cache_geometry_check(&g, "caches.l2", &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "'x'"));

	/* the online hierarchy refuses a policy that needs the future */
	struct tsr_memsys_config mc;
	tsr_memsys_config_defaults(&mc, 1);
	struct tsr_cache_config *l2 = tsr_memsys_config_cache(&mc, "l2");
	snprintf(l2->geom.policy, sizeof(l2->geom.policy), "opt");
	struct tsr_memsys *m = NULL;
	assert_int_equal(tsr_memsys_create(&mc, &m, &err), TSR_ERR_CONFIG);
	assert_null(m);
	assert_non_null(strstr(err.msg, "future"));
	assert_non_null(strstr(err.msg, "l2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop_theorems_fully_associative),
		cmocka_unit_test(test_loop_theorems_per_set),
		cmocka_unit_test(test_opt_equals_exhaustive_minimum),
		cmocka_unit_test(test_opt_heap_matches_linear_min),
		cmocka_unit_test(test_next_use_positions),
		cmocka_unit_test(test_one_pass_equals_separate),
		cmocka_unit_test(test_offline_policies_refused_online),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
