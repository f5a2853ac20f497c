/*
 * 060-memory-policies.c - the online replacement policies
 * (src/memory/policy_*.c): MRU, FIFO, Random, NRU, SRRIP, BRRIP, DRRIP,
 * SHiP-mem and DIP, the RRPV helpers they share (memory/rrip.h), the
 * seeded generator (core/rng.h), their parameters and the name table.
 *
 * Most tests replay short, hand-computed sequences on real caches with
 * 64-byte lines, where line k of a one-set cache is address k x 64; the
 * expected RRPVs after each step are written next to the accesses as
 * {way0, way1, way2, way3}. The dueling tests (DRRIP, DIP) build a
 * 256-set x 4-way cache, train the leader sets with a pattern that one
 * competitor handles better, and then read the winner from how a fresh
 * follower set treats a new line. The randomised insertions (BRRIP, BIP)
 * are deterministic for the default seed; the observations are chosen so
 * that they would only change if three (BRRIP) or one (BIP) of a handful
 * of 1-in-32 draws came out the other way.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <string.h>

#include "core/rng.h"
#include "memory/cache.h"
#include "memory/policy.h"
#include "memory/rrip.h"

#define LINE 64u

static struct tsr_cache_geometry geometry(uint32_t sets, uint32_t ways, const char *policy)
{
	return tsr_test_geometry(sets, ways, LINE, policy);
}

static struct tsr_cache *make_cache_seeded(uint32_t sets, uint32_t ways,
					   const char *policy, uint64_t seed)
{
	struct tsr_cache_geometry g = geometry(sets, ways, policy);
	g.seed = seed;
	struct tsr_cache *c = NULL;
	struct tsr_error err;
	memset(&err, 0, sizeof(err));
	enum tsr_status s = tsr_cache_create(&g, "test", &c, &err);
	if (s != TSR_OK)
		print_error("%s: %s\n", policy, err.msg);
	assert_int_equal(s, TSR_OK);
	assert_non_null(c);
	assert_int_equal(tsr_cache_sets(c), sets);
	return c;
}

static struct tsr_cache *make_cache(uint32_t sets, uint32_t ways, const char *policy)
{
	return make_cache_seeded(sets, ways, policy, 0);
}

static struct tsr_cache_outcome acc(struct tsr_cache *c, uint64_t addr)
{
	struct tsr_access a = {.addr = addr, .size = 4, .stream = TSR_STREAM_OTHER,
			       .next_use = TSR_NEVER};
	struct tsr_cache_outcome o;
	tsr_cache_access(c, &a, &o);
	return o;
}

/* Line k of a one-set cache. */
static uint64_t L(uint64_t k)
{
	return k * LINE;
}

/* A hit; failures are reported at the caller's line. */
static void check_hit(struct tsr_cache *c, uint64_t addr, const char *file, int line)
{
	struct tsr_cache_outcome o = acc(c, addr);
	_assert_true(o.hit, "hit", file, line);
}

/* A miss that fills `way` of a set not yet full. */
static void check_fill(struct tsr_cache *c, uint64_t addr, uint32_t way,
		       const char *file, int line)
{
	struct tsr_cache_outcome o = acc(c, addr);
	_assert_true(!o.hit, "miss", file, line);
	_assert_true(!o.evicted, "no eviction", file, line);
	_assert_int_equal(o.way, way, file, line);
}

/* A miss that evicts `victim` from `way`. */
static void check_evict(struct tsr_cache *c, uint64_t addr, uint32_t way,
			uint64_t victim, const char *file, int line)
{
	struct tsr_cache_outcome o = acc(c, addr);
	_assert_true(!o.hit, "miss", file, line);
	_assert_true(o.evicted, "eviction", file, line);
	_assert_int_equal(o.way, way, file, line);
	_assert_int_equal(o.victim_addr, victim, file, line);
}

#define HIT(c, addr) check_hit((c), (addr), __FILE__, __LINE__)
#define FILL(c, addr, way) check_fill((c), (addr), (way), __FILE__, __LINE__)
#define EVICT(c, addr, way, victim) \
	check_evict((c), (addr), (way), (victim), __FILE__, __LINE__)

/* ------------------------------------------------------------ generator */

static void test_rng_reference_and_range(void **state)
{
	(void)state;
	struct tsr_rng r;
	tsr_rng_seed(&r, 0);
	/* SplitMix64's published reference outputs for seed 0 */
	assert_int_equal(tsr_rng_next(&r), UINT64_C(0xe220a8397b1dcdaf));
	assert_int_equal(tsr_rng_next(&r), UINT64_C(0x6e789e6aa1b965f4));
	assert_int_equal(tsr_rng_next(&r), UINT64_C(0x06c45d188009454f));

	/* below(n) stays in [0, n), hits every value, and is reproducible */
	struct tsr_rng a, b;
	tsr_rng_seed(&a, 42);
	tsr_rng_seed(&b, 42);
	unsigned seen[7] = {0};
	for (int i = 0; i < 700; i++) {
		uint32_t x = tsr_rng_below(&a, 7);
		assert_true(x < 7);
		assert_int_equal(x, tsr_rng_below(&b, 7));
		seen[x]++;
	}
	for (int v = 0; v < 7; v++)
		assert_true(seen[v] > 50 && seen[v] < 150);
	for (int i = 0; i < 100; i++)
		assert_int_equal(tsr_rng_below(&a, 1), 0);
	/* n = 2^32 - 1 exercises the rejection path's threshold */
	assert_true(tsr_rng_below(&a, UINT32_MAX) < UINT32_MAX);
}

/* ------------------------------------------------------------------ RRPV */

/* tsr_rrip_victim() on RRPV arrays written as in the papers' figures. */
static void test_rrip_victim_and_aging(void **state)
{
	(void)state;
	/* M = 2: a line at 3 is taken at once, lowest way first, no aging */
	uint8_t a[4] = {3, 1, 3, 0};
	assert_int_equal(tsr_rrip_victim(a, 4, 3), 0);
	assert_memory_equal(a, ((uint8_t[]){3, 1, 3, 0}), 4);
	uint8_t b[4] = {0, 2, 1, 3};
	assert_int_equal(tsr_rrip_victim(b, 4, 3), 3);
	assert_memory_equal(b, ((uint8_t[]){0, 2, 1, 3}), 4);
	/* none at 3: all age by one; the tie between ways 1 and 3 -> way 1 */
	uint8_t c[4] = {0, 2, 1, 2};
	assert_int_equal(tsr_rrip_victim(c, 4, 3), 1);
	assert_memory_equal(c, ((uint8_t[]){1, 3, 2, 3}), 4);
	/* all at 0: three increments, way 0 */
	uint8_t d[4] = {0, 0, 0, 0};
	assert_int_equal(tsr_rrip_victim(d, 4, 3), 0);
	assert_memory_equal(d, ((uint8_t[]){3, 3, 3, 3}), 4);
	/* M = 3 (distant 7): {6,0,4,6} ages by one to {7,1,5,7} */
	uint8_t e[4] = {6, 0, 4, 6};
	assert_int_equal(tsr_rrip_victim(e, 4, 7), 0);
	assert_memory_equal(e, ((uint8_t[]){7, 1, 5, 7}), 4);
	uint8_t f[4] = {2, 5, 0, 1};
	assert_int_equal(tsr_rrip_victim(f, 4, 7), 1);
	assert_memory_equal(f, ((uint8_t[]){4, 7, 2, 3}), 4);
	/* M = 1 (NRU): no bit set -> all set, way 0 */
	uint8_t g[2] = {0, 0};
	assert_int_equal(tsr_rrip_victim(g, 2, 1), 0);
	assert_memory_equal(g, ((uint8_t[]){1, 1}), 2);
	/* M = 8 */
	uint8_t h[3] = {17, 200, 200};
	assert_int_equal(tsr_rrip_victim(h, 3, 255), 1);
	assert_memory_equal(h, ((uint8_t[]){72, 255, 255}), 3);

	/* the distant RRPV and the bimodal fill */
	assert_int_equal(tsr_rrip_distant(1), 1);
	assert_int_equal(tsr_rrip_distant(2), 3);
	assert_int_equal(tsr_rrip_distant(8), 255);
	struct tsr_rng r;
	tsr_rng_seed(&r, 9);
	unsigned long_fills = 0;
	for (int i = 0; i < 3200; i++) {
		uint8_t v = tsr_rrip_bimodal(&r, 32, 3);
		assert_true(v == 2 || v == 3);
		long_fills += v == 2;
	}
	assert_true(long_fills > 50 && long_fills < 150);  /* ~1/32 of 3200 */
	assert_int_equal(tsr_rrip_bimodal(&r, 1, 3), 2);   /* throttle 1: always long */
}

/*
 * SRRIP on one 4-way set: fills at 2^M-2, a hit promotes to 0, the victim
 * is the lowest way at 2^M-1 after aging. The same first steps hold for
 * M = 2 and M = 3 (RRPVs in the comments for M = 2); what differs is how
 * long the promoted line B survives a scan. From {2,0,3,3} the scan
 * first takes ways 2 and 3; from {2,0,2,2} each round of three scan
 * misses ages B by one until B and the others reach 2^M-2 together, and
 * the next round evicts way 0, then B. B leaves at scan miss
 * 2 + 3 x (2^M - 2) + 2: 10 for M = 2, 22 for M = 3.
 */
static void srrip_worked_example(const char *spec, unsigned b_evicted_at)
{
	struct tsr_cache *c = make_cache(1, 4, spec);
	uint64_t A = L(0), B = L(1), C = L(2), D = L(3);
	FILL(c, A, 0);
	FILL(c, B, 1);
	FILL(c, C, 2);
	FILL(c, D, 3);          /* {2,2,2,2} (M=2) / {6,6,6,6} (M=3) */
	HIT(c, B);              /* {2,0,2,2} / {6,0,6,6} */
	/* scan: none distant -> +1: {3,1,3,3}; A (way 0) goes; E fills at 2 */
	EVICT(c, L(10), 0, A);  /* {2,1,3,3} / {6,1,7,7} */
	/* C in way 2 is distant; E, filled at 2, is not */
	EVICT(c, L(11), 2, C);  /* {2,1,2,3} */
	EVICT(c, L(12), 3, D);  /* {2,1,2,2} */
	EVICT(c, L(13), 0, L(10)); /* +1: {3,2,3,3} -> {2,2,3,3} */
	HIT(c, B);              /* B survived 4 scan misses: {2,0,3,3} */
	/* count the scan misses until B leaves */
	unsigned n = 0;
	uint64_t k = 100;
	for (;;) {
		struct tsr_cache_outcome o = acc(c, L(k++));
		assert_false(o.hit);
		assert_true(o.evicted);
		n++;
		if (o.victim_addr == B) {
			assert_int_equal(o.way, 1);
			break;
		}
		assert_true(n < 100);
	}
	assert_int_equal(n, b_evicted_at);
	tsr_cache_destroy(c);
}

static void test_srrip_worked_example(void **state)
{
	(void)state;
	srrip_worked_example("srrip", 10);
	srrip_worked_example("srrip:bits=2", 10);
	srrip_worked_example("srrip:bits=3", 22);
}

/* The same SRRIP steps, driving the hooks on a hand-made tag store. */
static void test_srrip_hooks_directly(void **state)
{
	(void)state;
	const struct tsr_policy_ops *ops;
	void *st = tsr_test_policy_state("srrip", 1, 4, LINE, "bits=3", &ops);
	struct tsr_line lines[4];
	memset(lines, 0, sizeof(lines));
	struct tsr_access a = {.size = 4, .next_use = TSR_NEVER};
	for (uint32_t w = 0; w < 4; w++) {
		lines[w].tag = w;
		lines[w].valid = 1;
		ops->on_fill(st, 0, w, lines, &a);         /* {6,6,6,6} */
	}
	ops->on_hit(st, 0, 2, lines, &a);                  /* {6,6,0,6} */
	assert_int_equal(ops->victim(st, 0, lines, &a), 0); /* {7,7,1,7} */
	ops->on_fill(st, 0, 0, lines, &a);                 /* {6,7,1,7} */
	assert_int_equal(ops->victim(st, 0, lines, &a), 1);
	ops->on_fill(st, 0, 1, lines, &a);                 /* {6,6,1,7} */
	assert_int_equal(ops->victim(st, 0, lines, &a), 3);
	ops->on_fill(st, 0, 3, lines, &a);                 /* {6,6,1,6} */
	assert_int_equal(ops->victim(st, 0, lines, &a), 0); /* {7,7,2,7} */
	ops->destroy(st);
}

/* NRU: lowest way with the bit set; none -> set all, way 0. */
static void test_nru(void **state)
{
	(void)state;
	struct tsr_cache *c = make_cache(1, 4, "nru");
	FILL(c, L(0), 0);
	FILL(c, L(1), 1);
	FILL(c, L(2), 2);
	FILL(c, L(3), 3);          /* {0,0,0,0} */
	EVICT(c, L(4), 0, L(0));   /* all set, way 0: {0,1,1,1} */
	HIT(c, L(2));              /* {0,1,0,1} */
	EVICT(c, L(5), 1, L(1));   /* {0,0,0,1} */
	EVICT(c, L(6), 3, L(3));   /* {0,0,0,0} */
	EVICT(c, L(7), 0, L(4));   /* all set, way 0: {0,1,1,1} */
	EVICT(c, L(8), 1, L(5));
	HIT(c, L(2));
	tsr_cache_destroy(c);

	/* NRU is SRRIP with M = 1: identical outcomes on a mixed stream */
	struct tsr_cache *n = make_cache(4, 4, "nru");
	struct tsr_cache *s = make_cache(4, 4, "srrip:bits=1");
	struct tsr_rng r;
	tsr_rng_seed(&r, 3);
	for (int i = 0; i < 2000; i++) {
		uint64_t addr = L(tsr_rng_below(&r, 40));
		struct tsr_cache_outcome on = acc(n, addr), os = acc(s, addr);
		assert_int_equal(on.hit, os.hit);
		assert_int_equal(on.way, os.way);
		assert_int_equal(on.victim_addr, os.victim_addr);
	}
	tsr_cache_destroy(n);
	tsr_cache_destroy(s);
}

/* MRU evicts the line used last; on a loop it keeps the rest. */
static void test_mru(void **state)
{
	(void)state;
	struct tsr_cache *c = make_cache(1, 4, "mru");
	FILL(c, L(0), 0);
	FILL(c, L(1), 1);
	FILL(c, L(2), 2);
	FILL(c, L(3), 3);
	EVICT(c, L(4), 3, L(3));   /* D was used last */
	HIT(c, L(0));
	HIT(c, L(1));
	EVICT(c, L(5), 1, L(1));   /* B was used last */
	EVICT(c, L(6), 1, L(5));   /* F, just filled, is now the MRU line */
	HIT(c, L(2));
	tsr_cache_destroy(c);

	/*
	 * A loop over 5 lines in 4 ways, 10 times (50 accesses): after the 4
	 * cold misses, every miss evicts the line used just before it, which
	 * comes back 4 accesses later and misses in turn: misses at accesses
	 * 1-4 and 5, 9, ..., 49, 16 in all, where LRU misses all 50.
	 */
	c = make_cache(1, 4, "mru");
	struct tsr_cache *lru = make_cache(1, 4, "lru");
	unsigned misses = 0, lru_misses = 0;
	for (int pass = 0; pass < 10; pass++)
		for (uint64_t k = 0; k < 5; k++) {
			misses += !acc(c, L(k)).hit;
			lru_misses += !acc(lru, L(k)).hit;
		}
	assert_int_equal(misses, 16);
	assert_int_equal(lru_misses, 50);
	tsr_cache_destroy(c);
	tsr_cache_destroy(lru);
}

/* FIFO evicts in fill order whatever the hits. */
static void test_fifo(void **state)
{
	(void)state;
	struct tsr_cache *c = make_cache(1, 4, "fifo");
	FILL(c, L(0), 0);
	FILL(c, L(1), 1);
	FILL(c, L(2), 2);
	FILL(c, L(3), 3);
	HIT(c, L(0));
	HIT(c, L(0));
	HIT(c, L(0));
	EVICT(c, L(4), 0, L(0));   /* oldest fill, despite three hits */
	HIT(c, L(1));
	EVICT(c, L(5), 1, L(1));
	EVICT(c, L(6), 2, L(2));
	HIT(c, L(4));
	EVICT(c, L(7), 3, L(3));
	EVICT(c, L(8), 0, L(4));   /* E, the oldest fill now */
	tsr_cache_destroy(c);
}

/* The victim ways of 64 misses on a full 8-way set. */
static void random_victims(const char *spec, uint64_t cache_seed, uint32_t out[64])
{
	struct tsr_cache *c = make_cache_seeded(1, 8, spec, cache_seed);
	for (uint64_t k = 0; k < 8; k++)
		FILL(c, L(k), (uint32_t)k);
	for (int i = 0; i < 64; i++) {
		struct tsr_cache_outcome o = acc(c, L(100 + (uint64_t)i));
		assert_false(o.hit);
		assert_true(o.evicted);
		assert_true(o.way < 8);
		out[i] = o.way;
	}
	tsr_cache_destroy(c);
}

/* Random: exactly the generator's draws; same seed, same victims. */
static void test_random(void **state)
{
	(void)state;
	uint32_t a[64], b[64], d[64], e[64];
	random_victims("random", 0, a);   /* cache seed 0 -> 1 */
	random_victims("random:seed=1", 0, b);
	random_victims("random:seed=2", 0, d);
	random_victims("random", 2, e);   /* the cache's seed is the default */
	assert_memory_equal(a, b, sizeof(a));
	assert_memory_equal(d, e, sizeof(d));
	assert_memory_not_equal(a, d, sizeof(a));
	/* victim i is the i-th draw below 8 of SplitMix64 seeded with 1 */
	struct tsr_rng r;
	tsr_rng_seed(&r, 1);
	unsigned seen[8] = {0};
	for (int i = 0; i < 64; i++) {
		assert_int_equal(a[i], tsr_rng_below(&r, 8));
		seen[a[i]]++;
	}
	for (int w = 0; w < 8; w++)
		assert_true(seen[w] > 0);
}

/* BRRIP: fills at 2^M-1 but 1 in `throttle` at 2^M-2. */
static void test_brrip(void **state)
{
	(void)state;
	/* throttle=1: every fill is long, so BRRIP replays SRRIP exactly */
	struct tsr_cache *b = make_cache(4, 4, "brrip:throttle=1");
	struct tsr_cache *s = make_cache(4, 4, "srrip");
	struct tsr_rng r;
	tsr_rng_seed(&r, 5);
	for (int i = 0; i < 2000; i++) {
		uint64_t addr = L(tsr_rng_below(&r, 40));
		struct tsr_cache_outcome ob = acc(b, addr), os = acc(s, addr);
		assert_int_equal(ob.hit, os.hit);
		assert_int_equal(ob.way, os.way);
	}
	tsr_cache_destroy(b);
	tsr_cache_destroy(s);

	/*
	 * A huge throttle: every fill is distant, so a new line is the next
	 * victim and a loop of 5 lines in 4 ways keeps B, C, D: after the
	 * first pass, 2 misses (A, E) per pass of 5, where SRRIP misses all.
	 */
	b = make_cache(1, 4, "brrip:throttle=4000000000");
	s = make_cache(1, 4, "srrip");
	unsigned bm = 0, sm = 0;
	for (int pass = 0; pass < 10; pass++)
		for (uint64_t k = 0; k < 5; k++) {
			bm += !acc(b, L(k)).hit;
			sm += !acc(s, L(k)).hit;
		}
	assert_int_equal(bm, 5 + 9 * 2);
	assert_int_equal(sm, 50);
	/* the set is {A/E churn, B, C, D}: a new line evicts way 0 */
	EVICT(b, L(20), 0, L(4));
	EVICT(b, L(21), 0, L(20));
	HIT(b, L(1));
	tsr_cache_destroy(b);
	tsr_cache_destroy(s);
}

/* ------------------------------------------------------- set dueling */

#define DUEL_SETS 256u

/* Line k of `set` in the 256-set cache. */
static uint64_t S(uint32_t set, uint64_t k)
{
	return (k * DUEL_SETS + set) * LINE;
}

/*
 * Feeds every leader set of the 256-set cache (32 leaders per competitor)
 * `passes` passes of `pattern` (line numbers), interleaving the sets.
 */
static void train_leaders(struct tsr_cache *c, const uint64_t *pattern,
			  unsigned len, unsigned passes)
{
	for (unsigned p = 0; p < passes; p++)
		for (unsigned i = 0; i < len; i++)
			for (uint32_t set = 0; set < DUEL_SETS; set++)
				if (tsr_policy_set_role(set, DUEL_SETS, 32) != TSR_SET_FOLLOWER)
					acc(c, S(set, pattern[i]));
}

/* A loop of 5 lines: thrashes SRRIP and LRU (all miss), not BRRIP or BIP. */
static const uint64_t loop5[] = {100, 101, 102, 103, 104};

/*
 * Two lines accessed alternately, a fresh pair every 8 accesses: SRRIP and
 * LRU keep both once filled (about 2 misses per 8); BRRIP and BIP fill the
 * second into the distant / LRU slot the first was just given and thrash
 * (about 8 of 8).
 */
static const uint64_t pairs[] = {
	200, 201, 200, 201, 200, 201, 200, 201,
	202, 203, 202, 203, 202, 203, 202, 203,
	204, 205, 204, 205, 204, 205, 204, 205,
	206, 207, 206, 207, 206, 207, 206, 207,
};

/*
 * How a fresh follower set inserts under DRRIP: fill A B C D, hit B C D,
 * then four new lines. SRRIP insertion ({2,0,0,0}) ages B to 3 by the
 * fourth new line, which evicts B from way 1; BRRIP insertion ({3,0,0,0})
 * evicts each new line in turn from way 0. Returns the way of the fourth.
 */
static uint32_t drrip_follower_probe(struct tsr_cache *c, uint32_t set)
{
	assert_int_equal(tsr_policy_set_role(set, DUEL_SETS, 32), TSR_SET_FOLLOWER);
	for (uint32_t w = 0; w < 4; w++)
		FILL(c, S(set, w), w);
	for (uint32_t w = 1; w < 4; w++)
		HIT(c, S(set, w));
	struct tsr_cache_outcome o;
	memset(&o, 0, sizeof(o));
	for (uint64_t k = 4; k < 8; k++) {
		o = acc(c, S(set, k));
		assert_false(o.hit);
		assert_true(o.evicted);
		if (k < 7)
			assert_int_equal(o.way, 0);
	}
	if (o.way == 1)
		assert_int_equal(o.victim_addr, S(set, 1));
	return o.way;
}

/* Both specs give the same outcomes on the loop and the pairs in every set. */
static void duel_matches(const char *spec, const char *same_as)
{
	struct tsr_cache *a = make_cache(DUEL_SETS, 4, spec);
	struct tsr_cache *b = make_cache(DUEL_SETS, 4, same_as);
	for (int round = 0; round < 3; round++)
		for (unsigned i = 0; i < 5 + 32; i++)
			for (uint32_t set = 0; set < DUEL_SETS; set += 3) {
				uint64_t k = i < 5 ? loop5[i] : pairs[i - 5];
				struct tsr_cache_outcome oa = acc(a, S(set, k));
				struct tsr_cache_outcome ob = acc(b, S(set, k));
				assert_int_equal(oa.hit, ob.hit);
				assert_int_equal(oa.way, ob.way);
			}
	tsr_cache_destroy(a);
	tsr_cache_destroy(b);
}

/* A one-set cache of 8 ways under `spec` decides as under `same_as` on a random trace. */
static void one_set_matches(const char *spec, const char *same_as, uint64_t seed)
{
	struct tsr_cache *a = make_cache(1, 8, spec);
	struct tsr_cache *b = make_cache(1, 8, same_as);
	struct tsr_rng r;
	tsr_rng_seed(&r, seed);
	for (int i = 0; i < 2000; i++) {
		uint64_t addr = L(tsr_rng_below(&r, 20));
		struct tsr_cache_outcome oa = acc(a, addr), ob = acc(b, addr);
		assert_int_equal(oa.hit, ob.hit);
		assert_int_equal(oa.way, ob.way);
	}
	tsr_cache_destroy(a);
	tsr_cache_destroy(b);
}

/*
 * tsr_cache_rank() (GSPC Fig. 8): the RRPV of a line just filled or hit.
 * One set (no leaders): DRRIP fills as SRRIP at 2 (M = 2) or 14 (M = 4);
 * a hit sets 0; FIFO has no rank hook.
 */
static void test_cache_rank(void **state)
{
	(void)state;
	static const struct {
		const char *spec;
		uint64_t fill;
	} cases[] = {
		{"drrip", 2}, {"drrip:bits=4", 14}, {"fifo", UINT64_MAX},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tsr_cache *c = make_cache(1, 4, cases[i].spec);
		struct tsr_cache_outcome o = acc(c, L(1));
		assert_int_equal(tsr_cache_rank(c, L(1), o.way), cases[i].fill);
		o = acc(c, L(1));
		assert_true(o.hit);
		assert_int_equal(tsr_cache_rank(c, L(1), o.way),
				 cases[i].fill == UINT64_MAX ? UINT64_MAX : 0);
		assert_int_equal(tsr_cache_rank(c, L(1), 4), UINT64_MAX);  /* no such way */
		tsr_cache_destroy(c);
	}
}

static void test_drrip_dueling(void **state)
{
	(void)state;
	/* sets 0 and 7 lead (A, B) the first constituency of 8 sets */
	assert_int_equal(tsr_policy_set_role(0, DUEL_SETS, 32), TSR_SET_LEADER_A);
	assert_int_equal(tsr_policy_set_role(7, DUEL_SETS, 32), TSR_SET_LEADER_B);

	struct tsr_cache *c = make_cache(DUEL_SETS, 4, "drrip");
	/* PSEL starts just below the midpoint: followers run SRRIP */
	assert_int_equal(drrip_follower_probe(c, 1), 1);
	/*
	 * The loop: pass 1 misses 5 times in every leader (cold); from pass 2
	 * SRRIP leaders miss 5 and BRRIP leaders 2 per pass, so PSEL gains
	 * 32 x 3 per pass and its MSB is set: followers switch to BRRIP.
	 */
	train_leaders(c, loop5, 5, 4);
	assert_int_equal(drrip_follower_probe(c, 2), 0);
	/* pairs favour SRRIP: PSEL falls back below the midpoint */
	train_leaders(c, pairs, sizeof(pairs) / sizeof(pairs[0]), 2);
	assert_int_equal(drrip_follower_probe(c, 3), 1);
	/* ... and the loop wins it back */
	train_leaders(c, loop5, 5, 8);
	assert_int_equal(drrip_follower_probe(c, 4), 0);
	tsr_cache_destroy(c);

	/*
	 * PSEL saturates: with 4 bits it stops at 15, so one group of pairs
	 * after a long loop brings it below 8 (unbounded, it would have
	 * climbed to about 1900 and stay above).
	 */
	c = make_cache(DUEL_SETS, 4, "drrip:psel_bits=4");
	train_leaders(c, loop5, 5, 20);
	assert_int_equal(drrip_follower_probe(c, 1), 0);
	train_leaders(c, pairs, 8, 1);
	assert_int_equal(drrip_follower_probe(c, 2), 1);
	tsr_cache_destroy(c);

	/* throttle=1 makes BRRIP SRRIP: the whole cache is SRRIP */
	duel_matches("drrip:throttle=1", "srrip");

	/* without leader sets, followers keep SRRIP whatever the pattern */
	c = make_cache(DUEL_SETS, 4, "drrip:leaders=0");
	train_leaders(c, loop5, 5, 8);
	assert_int_equal(drrip_follower_probe(c, 2), 1);
	tsr_cache_destroy(c);

	/* a one-set (fully associative) DRRIP is SRRIP */
	one_set_matches("drrip", "srrip", 11);
}

/*
 * How a fresh follower set inserts under DIP: fill A B C D, hit B C D, then
 * two new lines. The first evicts A (LRU) either way; with LRU insertion
 * it is MRU and the second evicts B from way 1; with BIP insertion it is
 * at the LRU position and the second evicts it from way 0.
 */
static uint32_t dip_follower_probe(struct tsr_cache *c, uint32_t set)
{
	assert_int_equal(tsr_policy_set_role(set, DUEL_SETS, 32), TSR_SET_FOLLOWER);
	for (uint32_t w = 0; w < 4; w++)
		FILL(c, S(set, w), w);
	for (uint32_t w = 1; w < 4; w++)
		HIT(c, S(set, w));
	EVICT(c, S(set, 4), 0, S(set, 0));
	struct tsr_cache_outcome o = acc(c, S(set, 5));
	assert_true(o.evicted);
	assert_int_equal(o.victim_addr, o.way == 1 ? S(set, 1) : S(set, 4));
	return o.way;
}

static void test_dip_dueling(void **state)
{
	(void)state;
	struct tsr_cache *c = make_cache(DUEL_SETS, 4, "dip");
	assert_int_equal(dip_follower_probe(c, 1), 1);   /* starts with LRU */
	train_leaders(c, loop5, 5, 4);                   /* LRU leaders thrash */
	assert_int_equal(dip_follower_probe(c, 2), 0);   /* followers: BIP */
	train_leaders(c, pairs, sizeof(pairs) / sizeof(pairs[0]), 2);
	assert_int_equal(dip_follower_probe(c, 3), 1);   /* back to LRU */
	tsr_cache_destroy(c);

	c = make_cache(DUEL_SETS, 4, "dip:psel_bits=4");   /* saturation */
	train_leaders(c, loop5, 5, 20);
	assert_int_equal(dip_follower_probe(c, 1), 0);
	train_leaders(c, pairs, 8, 1);
	assert_int_equal(dip_follower_probe(c, 2), 1);
	tsr_cache_destroy(c);

	/* throttle=1 makes BIP insert at MRU too: the whole cache is LRU */
	duel_matches("dip:throttle=1", "lru");

	c = make_cache(DUEL_SETS, 4, "dip:leaders=0");
	train_leaders(c, loop5, 5, 8);
	assert_int_equal(dip_follower_probe(c, 2), 1);
	tsr_cache_destroy(c);

	/*
	 * On the loop, BIP leaders (set 7) keep 3 lines and miss 2 per pass
	 * after the first, LRU leaders (set 0) miss all; a huge throttle
	 * takes the MRU draws of BIP out of the count.
	 */
	c = make_cache(DUEL_SETS, 4, "dip:throttle=4000000000");
	unsigned lru_misses = 0, bip_misses = 0;
	for (int pass = 0; pass < 10; pass++)
		for (unsigned i = 0; i < 5; i++) {
			lru_misses += !acc(c, S(0, loop5[i])).hit;
			bip_misses += !acc(c, S(7, loop5[i])).hit;
		}
	assert_int_equal(lru_misses, 50);
	assert_int_equal(bip_misses, 5 + 9 * 2);
	tsr_cache_destroy(c);

	/* a one-set DIP is LRU */
	one_set_matches("dip", "lru", 12);
}

/* ---------------------------------------------------------------- SHiP */

/*
 * The SHiP tests use 2 sets x 4 ways; with 16 KiB regions and 64-byte
 * lines, line k of region R in set s is R x 16384 + (2k + s) x 64. Lines
 * of "neutral" regions, each used once, fill at RRPV 2 (counter 1).
 */
#define REGION 16384u

static uint64_t R(uint64_t region, uint32_t set, uint64_t k)
{
	return region * REGION + (2 * k + set) * LINE;
}

static uint64_t next_neutral = 1000;

static uint64_t neutral(uint32_t set)
{
	return R(next_neutral++, set, 0);
}

/*
 * The RRPV a fill of line `probe` gets in `set` (3 if its region's counter
 * is 0, else 2), read without changing that counter: the set holds three
 * neutral lines at 2 (ways 0-2) and the probed line (way 3); a new
 * neutral line evicts way 3 if the probed line is at 3, otherwise ages
 * the set and evicts way 0 (a neutral line).
 */
static unsigned ship_fill_rrpv(struct tsr_cache *c, uint32_t set, uint64_t probe)
{
	tsr_cache_invalidate_all(c);
	for (uint32_t w = 0; w < 3; w++)
		FILL(c, neutral(set), w);
	FILL(c, probe, 3);
	struct tsr_cache_outcome o = acc(c, neutral(set));
	assert_true(o.evicted);
	assert_true(o.way == 0 || o.way == 3);
	return o.way == 3 ? 3 : 2;
}

/* Fills `line` and evicts it unused (its region's counter - 1). */
static void ship_evict_unused(struct tsr_cache *c, uint32_t set, uint64_t line)
{
	tsr_cache_invalidate_all(c);
	FILL(c, line, 0);
	for (uint32_t w = 1; w < 4; w++)
		FILL(c, neutral(set), w);
	/* line at 2 or 3, the others at 2: line (way 0) goes first */
	EVICT(c, neutral(set), 0, line);
}

/* Fills `line` and hits it n times (its region's counter + n, saturating). */
static void ship_hits(struct tsr_cache *c, uint64_t line, unsigned n)
{
	tsr_cache_invalidate_all(c);
	FILL(c, line, 0);
	for (unsigned i = 0; i < n; i++)
		HIT(c, line);
}

static void test_ship_mem_counters(void **state)
{
	(void)state;
	struct tsr_cache *c = make_cache(2, 4, "ship-mem");

	/* untrained (counter 1): fills at 2, like SRRIP */
	assert_int_equal(ship_fill_rrpv(c, 0, R(1, 0, 0)), 2);
	/* one unused eviction: counter 0, fills at 3 */
	ship_evict_unused(c, 0, R(1, 0, 1));
	assert_int_equal(ship_fill_rrpv(c, 0, R(1, 0, 2)), 3);
	assert_int_equal(ship_fill_rrpv(c, 1, R(1, 1, 3)), 3);  /* one bank: both sets */
	/* the floor is 0: another unused eviction, then one hit -> 1 */
	ship_evict_unused(c, 0, R(1, 0, 4));
	ship_hits(c, R(1, 0, 5), 1);
	assert_int_equal(ship_fill_rrpv(c, 0, R(1, 0, 6)), 2);
	ship_evict_unused(c, 0, R(1, 0, 7));
	assert_int_equal(ship_fill_rrpv(c, 0, R(1, 0, 8)), 3);
	/* a line filled at 3 can still earn a hit (counter back to 1) */
	ship_hits(c, R(1, 0, 9), 1);
	assert_int_equal(ship_fill_rrpv(c, 0, R(1, 0, 10)), 2);

	/* hits saturate at 7: 1 + 10 hits -> 7; 6 unused evictions -> 1 */
	ship_hits(c, R(2, 1, 0), 10);
	for (uint64_t k = 1; k <= 6; k++)
		ship_evict_unused(c, 1, R(2, 1, k));
	assert_int_equal(ship_fill_rrpv(c, 1, R(2, 1, 20)), 2);
	ship_evict_unused(c, 1, R(2, 1, 7));                 /* 7th: -> 0 */
	assert_int_equal(ship_fill_rrpv(c, 1, R(2, 1, 21)), 3);

	/*
	 * A re-used line's eviction leaves its counter alone: fill W, one hit
	 * (1 -> 2), evict W through a scan; then two unused evictions are
	 * needed to reach 0.
	 */
	tsr_cache_invalidate_all(c);
	uint64_t w = R(3, 0, 0);
	FILL(c, w, 0);
	HIT(c, w);
	for (uint32_t k = 1; k < 4; k++)
		FILL(c, neutral(0), k);
	int evicted = 0;
	for (int i = 0; i < 20 && !evicted; i++) {
		struct tsr_cache_outcome o = acc(c, neutral(0));
		evicted = o.evicted && o.victim_addr == w;
	}
	assert_true(evicted);
	ship_evict_unused(c, 0, R(3, 0, 1));
	assert_int_equal(ship_fill_rrpv(c, 0, R(3, 0, 2)), 2);
	ship_evict_unused(c, 0, R(3, 0, 3));
	assert_int_equal(ship_fill_rrpv(c, 0, R(3, 0, 4)), 3);
	/* other regions were not touched */
	assert_int_equal(ship_fill_rrpv(c, 0, R(4, 0, 0)), 2);
	tsr_cache_destroy(c);

	/* "ship" is an alias; counter_bits=2 saturates at 3 */
	c = make_cache(2, 4, "ship:counter_bits=2");
	ship_hits(c, R(1, 0, 0), 10);
	ship_evict_unused(c, 0, R(1, 0, 1));
	ship_evict_unused(c, 0, R(1, 0, 2));
	assert_int_equal(ship_fill_rrpv(c, 0, R(1, 0, 3)), 2);
	ship_evict_unused(c, 0, R(1, 0, 4));
	assert_int_equal(ship_fill_rrpv(c, 0, R(1, 0, 5)), 3);
	tsr_cache_destroy(c);

	/*
	 * init=0: every untrained region fills at 3, so a new line is the
	 * next victim (way 0 twice), not the oldest line as under SRRIP.
	 */
	c = make_cache(2, 4, "ship-mem:init=0");
	for (uint32_t k = 0; k < 4; k++)
		FILL(c, R(5 + k, 0, 0), k);          /* {3,3,3,3} */
	EVICT(c, R(9, 0, 0), 0, R(5, 0, 0));   /* {3,3,3,3} */
	EVICT(c, R(10, 0, 0), 0, R(9, 0, 0));
	tsr_cache_destroy(c);
}

static void test_ship_mem_signature_and_banks(void **state)
{
	(void)state;
	/* two banks: set 0 trains bank 0 only */
	struct tsr_cache *c = make_cache(2, 4, "ship-mem:banks=2");
	ship_evict_unused(c, 0, R(1, 0, 0));
	assert_int_equal(ship_fill_rrpv(c, 0, R(1, 0, 1)), 3);
	assert_int_equal(ship_fill_rrpv(c, 1, R(1, 1, 1)), 2);
	tsr_cache_destroy(c);

	/* entries=4096: regions 1 and 4097 share a counter, 2 does not */
	c = make_cache(2, 4, "ship-mem:entries=4096");
	ship_evict_unused(c, 0, R(1, 0, 0));
	assert_int_equal(ship_fill_rrpv(c, 0, R(4097, 0, 0)), 3);
	assert_int_equal(ship_fill_rrpv(c, 0, R(2, 0, 0)), 2);
	tsr_cache_destroy(c);

	/*
	 * region_bytes=4096: lines 0 and 6 of 16 KiB region 1 (bytes 0 and
	 * 768) share a 4 KiB region, line 127 (byte 16320) does not.
	 */
	c = make_cache(2, 4, "ship-mem:region_bytes=4096");
	ship_evict_unused(c, 0, R(1, 0, 0));
	assert_int_equal(ship_fill_rrpv(c, 0, R(1, 0, 6)), 3);
	assert_int_equal(ship_fill_rrpv(c, 0, R(1, 0, 127)), 2);
	tsr_cache_destroy(c);
	/* with 16 KiB regions all three lines share one counter */
	c = make_cache(2, 4, "ship-mem");
	ship_evict_unused(c, 0, R(1, 0, 0));
	assert_int_equal(ship_fill_rrpv(c, 0, R(1, 0, 127)), 3);
	tsr_cache_destroy(c);
}

/* ------------------------------------------------- parameters and table */

static void check_param_error(const char *spec, const char *key, const char *also)
{
	struct tsr_cache_geometry g = geometry(4, 4, spec);
	struct tsr_error err;
	memset(&err, 0, sizeof(err));
	assert_int_equal(tsr_cache_geometry_check(&g, "caches.l2", &err), TSR_ERR_CONFIG);
	if (!strstr(err.msg, key) || !strstr(err.msg, "caches.l2") ||
	    (also && !strstr(err.msg, also)))
		print_error("%s: %s\n", spec, err.msg);
	assert_non_null(strstr(err.msg, key));
	assert_non_null(strstr(err.msg, "caches.l2"));
	if (also)
		assert_non_null(strstr(err.msg, also));
}

static void test_parameter_errors(void **state)
{
	(void)state;
	check_param_error("srrip:bits=0", "'bits'", "from 1 to 8");
	check_param_error("srrip:bits=9", "'bits'", NULL);
	check_param_error("srrip:nope=1", "'nope'", "valid: bits");
	check_param_error("drrip:psel_bits=x", "'psel_bits'", "'x'");
	check_param_error("drrip:psel_bits=0", "'psel_bits'", NULL);
	check_param_error("drrip:leaders", "'leaders'", "needs a value");
	check_param_error("brrip:throttle=0", "'throttle'", NULL);
	check_param_error("brrip:bits=2,seed=-1", "'seed'", NULL);
	check_param_error("random:ways=2", "'ways'", "valid: seed");
	check_param_error("mru:bits=2", "'bits'", "valid: none");
	check_param_error("fifo:x=1", "'x'", "valid: none");
	check_param_error("nru:bits=1", "'bits'", "valid: none");
	check_param_error("dip:bits=2", "'bits'", "leaders, psel_bits, throttle, seed");
	check_param_error("ship-mem:counter_bits=2,init=4", "'init'", "from 0 to 3");
	check_param_error("ship-mem:entries=0", "'entries'", NULL);
	check_param_error("ship-mem:pc=1", "'pc'",
			  "region_bytes, entries, counter_bits, banks, init, bits");

	/* valid specs, including the edges of each range */
	static const char *const ok[] = {
		"srrip:bits=1", "srrip:bits=8", "brrip:bits=3,throttle=1,seed=0",
		"drrip:leaders=0,psel_bits=1", "drrip:psel_bits=31,bits=8,throttle=16,seed=0x10",
		"dip:leaders=64,psel_bits=12,throttle=64,seed=5", "random:seed=0",
		"ship-mem:counter_bits=8,init=255,banks=4", "ship:bits=3", "nru", "mru", "fifo",
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct tsr_cache_geometry g = geometry(4, 4, ok[i]);
		struct tsr_error err;
		memset(&err, 0, sizeof(err));
		enum tsr_status s = tsr_cache_geometry_check(&g, "ok", &err);
		if (s != TSR_OK)
			print_error("%s: %s\n", ok[i], err.msg);
		assert_int_equal(s, TSR_OK);
	}
}

static const char *const all_names[] = {
	"lru", "mru", "fifo", "random", "nru", "srrip", "brrip", "drrip",
	"ship-mem", "dip", "opt", "optpt", "tcor-l2", "gs-drrip", "gspztc", "gspztc+tse",
	"gspc",
};
#define NAMES (sizeof(all_names) / sizeof(all_names[0]))

static void test_table_round_trip(void **state)
{
	(void)state;
	char list[256];
	tsr_policy_list(list, sizeof(list));
	for (size_t i = 0; i < NAMES; i++) {
		const struct tsr_policy_ops *ops = tsr_policy_find(all_names[i]);
		assert_non_null(ops);
		assert_string_equal(ops->name, all_names[i]);
		assert_non_null(strstr(list, all_names[i]));
		/* a spec with parameters finds the same policy */
		char spec[64];
		snprintf(spec, sizeof(spec), "%s:x=1", all_names[i]);
		assert_ptr_equal(tsr_policy_find(spec), ops);
	}
	assert_ptr_equal(tsr_policy_find("ship"), &tsr_policy_ship_mem);
	assert_ptr_equal(tsr_policy_find("belady"), &tsr_policy_opt);
	assert_ptr_equal(tsr_policy_find("min"), &tsr_policy_opt);
	assert_null(tsr_policy_find("ship-me"));
	assert_null(tsr_policy_find("rrip"));
	assert_null(strstr(list, "ship,"));   /* aliases are not listed */
	assert_null(strstr(list, "belady"));
}

/*
 * Every online policy on a long mixed stream, in a 16-set x 4-way and a
 * fully associative 32-line cache: each victim is a resident line of the
 * way reported (shadow tag store), runs are reproducible, and nothing
 * leaks or overflows (ASan build).
 */
static unsigned run_stream(const char *spec, uint32_t sets, uint32_t ways)
{
	struct tsr_cache *c = make_cache(sets, ways, spec);
	uint64_t shadow[64];
	memset(shadow, 0xff, sizeof(shadow));
	struct tsr_rng r;
	tsr_rng_seed(&r, 77);
	unsigned misses = 0;
	for (int i = 0; i < 4000; i++) {
		/* a hot set of 24 lines and a cold range of 1000 */
		uint64_t k = tsr_rng_below(&r, 4) ? tsr_rng_below(&r, 24)
						  : 100 + tsr_rng_below(&r, 1000);
		uint32_t set = (uint32_t)(k % sets);
		struct tsr_cache_outcome o = acc(c, L(k));
		assert_true(o.way < ways);
		uint64_t *sh = &shadow[set * ways + o.way];
		if (o.hit) {
			assert_int_equal(*sh, L(k));
			continue;
		}
		misses++;
		if (o.evicted)
			assert_int_equal(o.victim_addr, *sh);
		else
			assert_int_equal(*sh, UINT64_MAX);
		*sh = L(k);
	}
	tsr_cache_destroy(c);
	return misses;
}

static void test_every_policy_on_a_stream(void **state)
{
	(void)state;
	for (size_t i = 0; i < NAMES; i++) {
		if (tsr_policy_find(all_names[i])->offline)
			continue;
		unsigned a = run_stream(all_names[i], 16, 4);
		assert_int_equal(run_stream(all_names[i], 16, 4), a);
		unsigned b = run_stream(all_names[i], 1, 32);
		assert_int_equal(run_stream(all_names[i], 1, 32), b);
		/* some hits, some misses (MRU misses most on this stream) */
		assert_true(a > 0 && a < 4000);
		assert_true(b > 0 && b < 4000);
	}
}

/*
 * Version 2 hooks (pinned lines). tsr_rrip_victim_among() with every way
 * eligible is tsr_rrip_victim() (same way, same ageing) on random RRPVs;
 * with a pinned way it picks among the others, and a pinned line near
 * distant saturates at distant instead of overflowing. Through the ops:
 * for LRU, MRU and DRRIP, victim_among() with every way eligible returns
 * victim()'s way on a state trained by hits and fills, and rank() orders
 * the ways as the victim choice does; the others offer neither hook.
 */
static void test_pinned_line_hooks(void **state)
{
	(void)state;
	struct tsr_rng rng;
	tsr_rng_seed(&rng, 7);
	static const uint8_t all[8] = {1, 1, 1, 1, 1, 1, 1, 1};
	for (int i = 0; i < 2000; i++) {
		uint8_t a[8], b[8];
		for (int w = 0; w < 8; w++)
			a[w] = b[w] = (uint8_t)tsr_rng_below(&rng, 4);
		assert_int_equal(tsr_rrip_victim_among(a, 8, 3, all), tsr_rrip_victim(b, 8, 3));
		assert_memory_equal(a, b, 8);
	}
	uint8_t rr[4] = {3, 1, 2, 0};
	const uint8_t unpinned[4] = {0, 1, 1, 1};
	assert_int_equal(tsr_rrip_victim_among(rr, 4, 3, unpinned), 2);
	assert_int_equal(rr[0], 3);  /* saturated, not 4 */
	assert_int_equal(rr[1], 2);
	assert_int_equal(rr[2], 3);
	assert_int_equal(rr[3], 1);

	static const char *const pinnable[] = {"lru", "mru", "drrip"};
	for (size_t p = 0; p < 3; p++) {
		const struct tsr_policy_ops *ops = tsr_policy_find(pinnable[p]);
		assert_non_null(ops->victim_among);
		assert_non_null(ops->rank);
		struct tsr_policy_config cfg = {.sets = 4, .ways = 8, .line_bytes = LINE,
						.seed = 1, .cache = "test"};
		void *st = NULL;
		struct tsr_error err;
		memset(&err, 0, sizeof(err));
		assert_int_equal(ops->create(&cfg, &st, &err), TSR_OK);
		struct tsr_line lines[8];
		memset(lines, 0, sizeof(lines));
		struct tsr_access acc = {.size = 4, .next_use = TSR_NEVER};
		for (int w = 0; w < 8; w++) {
			lines[w].valid = 1;
			ops->on_fill(st, 1, (uint32_t)w, lines, &acc);
		}
		for (int i = 0; i < 200; i++) {
			uint32_t w = (uint32_t)tsr_rng_below(&rng, 8);
			if (tsr_rng_below(&rng, 3))
				ops->on_hit(st, 1, w, lines, &acc);
			else
				ops->on_fill(st, 1, w, lines, &acc);
			/* rank(): the victim is the lowest way of greatest rank */
			uint32_t best = 0;
			for (uint32_t k = 1; k < 8; k++)
				if (ops->rank(st, 1, k) > ops->rank(st, 1, best))
					best = k;
			uint32_t v = ops->victim_among(st, 1, lines, &acc, all);
			assert_int_equal(v, best);
			/* after DRRIP's ageing the victim is distant: victim() agrees */
			assert_int_equal(ops->victim(st, 1, lines, &acc), v);
		}
		ops->destroy(st);
	}
	assert_null(tsr_policy_find("srrip")->victim_among);
	assert_null(tsr_policy_find("tcor-l2")->victim_among);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng_reference_and_range),
		cmocka_unit_test(test_rrip_victim_and_aging),
		cmocka_unit_test(test_pinned_line_hooks),
		cmocka_unit_test(test_srrip_worked_example),
		cmocka_unit_test(test_srrip_hooks_directly),
		cmocka_unit_test(test_nru),
		cmocka_unit_test(test_mru),
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_brrip),
		cmocka_unit_test(test_cache_rank),
		cmocka_unit_test(test_drrip_dueling),
		cmocka_unit_test(test_dip_dueling),
		cmocka_unit_test(test_ship_mem_counters),
		cmocka_unit_test(test_ship_mem_signature_and_banks),
		cmocka_unit_test(test_parameter_errors),
		cmocka_unit_test(test_table_round_trip),
		cmocka_unit_test(test_every_policy_on_a_stream),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
