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
#include "trace/trace.h"

#define LINE 64u

/* golden misses of test_fully_associative_brute_force */
#define GOLDEN_LRU 179931
#define GOLDEN_FIFO 180349
#define GOLDEN_MRU 187842
#define GOLDEN_OPT 121379
#define GOLDEN_OPTPT 121358

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

/*
 * Next uses against a quadratic search, on a dense trace (lines of a few
 * regions: the 64-line chunk tables) and on a sparse one (every line in a
 * chunk of its own, more chunks than the tables may take: the line map),
 * with runs of accesses to one line; and distinct_lines.
 */
static void check_next_uses(uint64_t spacing, size_t n, uint64_t lines)
{
	struct tsr_access *acc = malloc(n * sizeof(*acc));
	assert_non_null(acc);
	srand(7);
	for (size_t i = 0; i < n; i++)
		acc[i] = i && rand() % 4 == 0 ? acc[i - 1]
					      : read_line((uint64_t)(rand() % lines) * spacing);
	struct tsr_line_trace lt;
	struct tsr_error err;
	assert_int_equal(tsr_line_trace_from_accesses(acc, n, LINE, &lt, &err), TSR_OK);
	uint8_t *seen = calloc(lines, 1);
	assert_non_null(seen);
	uint64_t distinct = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t line = lt.accesses[i].addr / LINE;
		size_t k = i + 1;
		while (k < n && lt.accesses[k].addr / LINE != line)
			k++;
		assert_int_equal(lt.accesses[i].next_use, k < n ? (uint32_t)k : TSR_LINE_NEVER);
		distinct += !seen[line / spacing];
		seen[line / spacing] = 1;
	}
	assert_int_equal(lt.distinct_lines, distinct);
	free(seen);
	tsr_line_trace_release(&lt);
	free(acc);
}

static void test_next_uses_dense_and_sparse(void **state)
{
	(void)state;
	check_next_uses(1, 20000, 3000);     /* 47 chunks */
	check_next_uses(1000, 20000, 6000);  /* ~6000 chunks: over 1 MiB of tables */
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
	assert_int_equal(lt.accesses[1].next_use, TSR_LINE_NEVER);
	assert_int_equal(lt.accesses[1].size_m1 + 1, 4);
	assert_int_equal(lt.accesses[2].addr, 0x140);
	assert_int_equal(lt.accesses[2].size_m1 + 1, 4);
	assert_int_equal(lt.accesses[2].next_use, 3);         /* 0x140 -> 0x144 */
	assert_int_equal(lt.accesses[3].flags, TSR_LINE_WRITE);
	assert_int_equal(lt.accesses[4].next_use, TSR_LINE_NEVER);
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

/* xorshift64: the tests' own deterministic generator */
static uint64_t xs(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * The streaming replay of a file (what `tessera cachesim` runs) gives the
 * counters of load + line split + in-memory replay: a text trace with
 * reads and writes of several sizes, accesses crossing lines, streams,
 * metadata, frame and tile markers (tcor-l2 counts tiles), through an
 * 8-way and a 128-way cache, online and offline policies in one pass.
 */
static void test_streamed_file_equals_in_memory(void **state)
{
	(void)state;
	char path[] = "/tmp/tessera-test-065-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	uint64_t x = 0x1234567u;
	for (int i = 0; i < 40000; i++) {
		uint64_t r = xs(&x);
		if (r % 997 == 0) {
			fprintf(f, "F\n");
			continue;
		}
		if (r % 61 == 0) {
			fprintf(f, "T %u\n", (unsigned)(r >> 40) % 300);
			continue;
		}
		uint64_t line = (r >> 8) % (r % 3 ? 700 : 9000);
		uint32_t off = (uint32_t)(r >> 30) % 64, size = 1u << ((r >> 40) % 8);
		fprintf(f, "%c 0x%llx %s size=%u meta=0x%x\n", (r >> 50) % 4 ? 'R' : 'W',
			(unsigned long long)(line * 64 + off),
			(r >> 52) % 2 ? "texture" : "pb_lists", size, (unsigned)(r >> 56) % 4);
	}
	fclose(f);

	/* the same trace in binary form (tsr_trace_read_many's fast path) */
	char bin[sizeof(path) + 4];
	snprintf(bin, sizeof(bin), "%s.bin", path);
	{
		struct tsr_error err;
		struct tsr_trace t;
		struct tsr_trace_writer *w;
		assert_int_equal(tsr_trace_load(path, &t, &err), TSR_OK);
		assert_int_equal(tsr_trace_writer_open(bin, "test", &w, &err), TSR_OK);
		for (size_t i = 0; i < t.count; i++)
			tsr_trace_write(w, &t.records[i]);
		assert_int_equal(tsr_trace_writer_close(w, 1, &err), TSR_OK);
		tsr_trace_release(&t);
	}

	static const char *const pol[] = {"lru", "fifo", "mru", "drrip", "tcor-l2", "opt",
					  "optpt"};
	enum { NP = 7 };
	for (int form = 0; form < 4; form++) {
		const int wide = form & 1;
		const char *file = form & 2 ? bin : path;
		struct tsr_cache_geometry g = {.size_bytes = wide ? 128 * 2 * 64 : 64 * 1024,
					       .ways = wide ? 128 : 8, .line_bytes = 64};
		struct tsr_error err;
		struct tsr_trace t;
		struct tsr_line_trace lt;
		struct tsr_replay_result a[NP], b[NP];
		struct tsr_replay_file_info info;
		assert_int_equal(tsr_trace_load(file, &t, &err), TSR_OK);
		assert_int_equal(tsr_line_trace_build(&t, 64, &lt, &err), TSR_OK);
		assert_int_equal(tsr_replay(&lt, &g, pol, NP, a, &err), TSR_OK);
		/* all together, and the online ones alone (no next-use pass); on one
		 * thread and with a reader thread (records split across its blocks) */
		for (unsigned th = 1; th <= 2; th++) {
			assert_int_equal(tsr_replay_file(file, 0, &g, pol, NP, th, b, &info, &err),
					 TSR_OK);
			assert_int_equal(info.reader_thread, th == 2);
			assert_memory_equal(a, b, sizeof(a));
			assert_int_equal(info.records, t.count);
			assert_int_equal(info.accesses, lt.count);
			assert_int_equal(info.frames, lt.frames);
			assert_int_equal(info.distinct_lines, lt.distinct_lines);
			assert_true(info.next_use_bytes >= 8 * lt.count);
			assert_true(info.next_use_bytes <= 12 * lt.count + (8u << 16));
			assert_int_equal(tsr_replay_file(file, 0, &g, pol, 5, th, b, &info, &err),
					 TSR_OK);
			assert_memory_equal(a, b, 5 * sizeof(a[0]));
			assert_int_equal(info.records, t.count);
			assert_int_equal(info.accesses, lt.count);
			assert_int_equal(info.distinct_lines, lt.distinct_lines);
			assert_int_equal(info.next_use_bytes, 0);
		}
		/* the file straight into a line trace: the same line trace, with next
		 * uses or without (then OPT is refused until they are computed) */
		for (int nu = 1; nu >= 0; nu--) {
			struct tsr_line_trace l2;
			assert_int_equal(tsr_line_trace_load(file, 0, 64, nu, &l2, &info, &err),
					 TSR_OK);
			assert_int_equal(l2.count, lt.count);
			assert_int_equal(l2.marker_count, lt.marker_count);
			assert_int_equal(l2.frames, lt.frames);
			assert_int_equal(l2.distinct_lines, lt.distinct_lines);
			assert_int_equal(info.records, t.count);
			assert_int_equal(info.accesses, lt.count);
			assert_int_equal(l2.no_next_uses, !nu);
			for (size_t i = 0; i < lt.marker_count; i++) {
				assert_int_equal(l2.markers[i].pos, lt.markers[i].pos);
				assert_int_equal(l2.markers[i].value, lt.markers[i].value);
				assert_int_equal(l2.markers[i].kind, lt.markers[i].kind);
			}
			for (size_t i = 0; i < lt.count; i++) {
				const struct tsr_line_access *got = &l2.accesses[i], *want = &lt.accesses[i];
				assert_int_equal(got->addr, want->addr);
				assert_int_equal(got->size_m1, want->size_m1);
				assert_int_equal(got->flags, want->flags);
				assert_int_equal(got->stream, want->stream);
				assert_int_equal(got->next_use, nu ? want->next_use : TSR_LINE_NEVER);
			}
			assert_int_equal(l2.meta_count, lt.meta_count);
			for (size_t i = 0; i < lt.meta_count; i++)
				assert_int_equal(l2.metas[i], lt.metas[i]);
			if (!nu) {
				assert_int_equal(tsr_replay(&l2, &g, pol, NP, b, &err), TSR_ERR_CONFIG);
				assert_non_null(strstr(err.msg, "next uses"));
				assert_int_equal(tsr_replay(&l2, &g, pol, 5, b, &err), TSR_OK);
				assert_memory_equal(a, b, 5 * sizeof(a[0]));
				assert_int_equal(tsr_line_trace_index(&l2, &err), TSR_OK);
				assert_int_equal(tsr_replay(&l2, &g, pol, NP, b, &err), TSR_OK);
				assert_memory_equal(a, b, sizeof(a));
			}
			tsr_line_trace_release(&l2);
		}
		tsr_line_trace_release(&lt);
		tsr_trace_release(&t);
	}
	struct tsr_cache_geometry g = {.size_bytes = 4096, .ways = 8, .line_bytes = 64};
	{
		struct tsr_line_trace l2;
		struct tsr_error err;
		assert_int_equal(tsr_line_trace_load(path, 5, 64, 1, &l2, NULL, &err), TSR_ERR_LIMIT);
		assert_null(l2.accesses);
		assert_int_equal(tsr_line_trace_load(path, 0, 48, 1, &l2, NULL, &err),
				 TSR_ERR_CONFIG);
	}
	struct tsr_replay_result r;
	struct tsr_error err;
	for (unsigned th = 1; th <= 2; th++) {
		/* the reader thread's error reaches the caller */
		assert_int_equal(tsr_replay_file(path, 5, &g, pol, 1, th, &r, NULL, &err),
				 TSR_ERR_LIMIT);
		assert_non_null(strstr(err.msg, path));
		assert_int_equal(tsr_replay_file(bin, 5, &g, pol, 1, th, &r, NULL, &err),
				 TSR_ERR_LIMIT);
	}
	remove(path);
	remove(bin);
	assert_int_equal(tsr_replay_file(path, 0, &g, pol, 1, 2, &r, NULL, &err), TSR_ERR_IO);
}

/*
 * Exact misses of LRU, FIFO, MRU, OPT and OPTPT on a skewed random trace
 * through a 1024-line fully associative cache (the hash index, the
 * recency lists and the OPT heap at work), against plain brute force: an
 * array of resident lines scanned on every access, the victim found by
 * scanning it for the oldest stamp, and for OPT/OPTPT the next use of
 * every resident line looked up in per-line position lists. The golden
 * figures were also computed by an independent Python script
 * (tests/data/065-fa-bruteforce.py), so they pin the counts.
 */
static void test_fully_associative_brute_force(void **state)
{
	(void)state;
	enum { N = 200000, LINES = 20000, WAYS = 1024 };
	struct tsr_access *acc = malloc(N * sizeof(*acc));
	uint32_t *id = malloc(N * sizeof(*id));
	assert_non_null(acc);
	assert_non_null(id);
	uint64_t x = 42;
	for (int i = 0; i < N; i++) {
		/* skewed: a uniform draw below a uniform bound favours small ids */
		uint64_t bound = 1 + xs(&x) % LINES;
		id[i] = (uint32_t)(xs(&x) % bound);
		acc[i] = read_line(id[i] * 7919u % LINES);
	}
	/* per-line position lists (counting sort), then brute force */
	uint32_t *start = calloc(LINES + 1, sizeof(*start)), *pos = malloc(N * sizeof(*pos));
	uint32_t *fill = calloc(LINES, sizeof(*fill));
	assert_true(start && pos && fill);
	for (int i = 0; i < N; i++)
		start[id[i] + 1]++;
	for (int l = 0; l < LINES; l++)
		start[l + 1] += start[l];
	for (int i = 0; i < N; i++)
		pos[start[id[i]] + fill[id[i]]++] = (uint32_t)i;
	static const char *const names[] = {"lru", "fifo", "mru", "opt", "optpt"};
	uint64_t brute[5];
	uint32_t *res = malloc(WAYS * sizeof(*res));
	uint64_t *stamp = malloc(WAYS * sizeof(*stamp));
	assert_true(res && stamp);
	for (int p = 0; p < 5; p++) {
		uint32_t used = 0;
		uint64_t misses = 0;
		memset(fill, 0, LINES * sizeof(*fill));  /* next position index of each line */
		for (int i = 0; i < N; i++) {
			uint32_t l = id[i];
			fill[l]++;  /* pos[start[l] + fill[l]] is now l's next use after i */
			int w = -1;
			for (uint32_t k = 0; k < used; k++)
				if (res[k] == l)
					w = (int)k;
			if (w >= 0) {
				if (p != 1)
					stamp[w] = (uint64_t)i + 1;  /* FIFO keeps the fill's stamp */
				continue;
			}
			misses++;
			if (used < WAYS) {
				res[used] = l;
				stamp[used++] = (uint64_t)i + 1;
				continue;
			}
			uint32_t v = 0;
			uint64_t best = 0;
			for (uint32_t k = 0; k < WAYS; k++) {
				uint64_t key;
				if (p <= 1)
					key = UINT64_MAX - stamp[k];  /* oldest */
				else if (p == 2)
					key = stamp[k];               /* newest */
				else {
					uint32_t r = res[k];
					key = start[r] + fill[r] < start[r + 1]
						      ? pos[start[r] + fill[r]] : UINT64_MAX;
				}
				if (k == 0 || key > best) {
					best = key;
					v = k;
				}
			}
			if (p == 4) {  /* OPTPT: bypass a line re-used no sooner than the victim */
				uint64_t mine = start[l] + fill[l] < start[l + 1]
							? pos[start[l] + fill[l]] : UINT64_MAX;
				if (mine >= best)
					continue;
			}
			res[v] = l;
			stamp[v] = (uint64_t)i + 1;
		}
		brute[p] = misses;
	}
	/* the same figures from tests/data/065-fa-bruteforce.py */
	static const uint64_t golden[5] = {GOLDEN_LRU, GOLDEN_FIFO, GOLDEN_MRU, GOLDEN_OPT,
					   GOLDEN_OPTPT};
	struct tsr_line_trace lt;
	struct tsr_error err;
	assert_int_equal(tsr_line_trace_from_accesses(acc, N, LINE, &lt, &err), TSR_OK);
	for (int p = 0; p < 5; p++) {
		assert_int_equal(brute[p], golden[p]);
		assert_int_equal(replay_misses(names[p], &lt, 1, WAYS), golden[p]);
	}
	tsr_line_trace_release(&lt);
	free(res);
	free(stamp);
	free(start);
	free(pos);
	free(fill);
	free(id);
	free(acc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop_theorems_fully_associative),
		cmocka_unit_test(test_loop_theorems_per_set),
		cmocka_unit_test(test_opt_equals_exhaustive_minimum),
		cmocka_unit_test(test_opt_heap_matches_linear_min),
		cmocka_unit_test(test_next_use_positions),
		cmocka_unit_test(test_next_uses_dense_and_sparse),
		cmocka_unit_test(test_one_pass_equals_separate),
		cmocka_unit_test(test_offline_policies_refused_online),
		cmocka_unit_test(test_streamed_file_equals_in_memory),
		cmocka_unit_test(test_fully_associative_brute_force),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
