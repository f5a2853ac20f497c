/*
 * 035-tiling-attribute-cache.c - TCOR's Attribute Cache
 * (src/techniques/tcor_attribute_cache.h): the worked example of TCOR III-C-7
 * (Fig. 9 and 10) replayed access by access with OPT, LRU and MRU, the
 * write bypass rule (III-C-4), locks (III-C-3, III-C-5), Attribute Buffer
 * shortage, XOR set indexing, and the lower bound of V-A on generated
 * frames. The lower level is a recorder, so every L2 access is checked.
 * LRU, MRU and DRRIP are memory/'s policy modules: with nothing locked
 * the Attribute Cache holds what a plain cache under the same module
 * holds, and under locks it never evicts a locked primitive.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory/cache.h"
#include "techniques/tcor_attribute_cache.h"
#include "tiling/parameter_buffer.h"

/* ------------------------------------------------------ the lower level */

#define LOG_MAX 64

struct op {
	char kind;        /* 'r' or 'w' */
	uint64_t addr;
	uint32_t bytes, meta;
};

struct recorder {
	struct op log[LOG_MAX];  /* the first LOG_MAX accesses */
	uint32_t n;              /* accesses, also beyond LOG_MAX */
	uint32_t reads, writes;
};

static void rec(struct recorder *r, char kind, uint64_t addr, uint32_t bytes, uint32_t meta)
{
	if (r->n < LOG_MAX)
		r->log[r->n] = (struct op){kind, addr, bytes, meta};
	r->n++;
	if (kind == 'r')
		r->reads++;
	else
		r->writes++;
}

static void rec_read(void *ctx, uint64_t addr, uint32_t bytes, uint32_t meta)
{
	rec(ctx, 'r', addr, bytes, meta);
}

static void rec_write(void *ctx, uint64_t addr, uint32_t bytes, uint32_t meta)
{
	rec(ctx, 'w', addr, bytes, meta);
}

static void assert_op(const struct recorder *r, uint32_t i, char kind, uint64_t addr)
{
	assert_true(i < r->n && i < LOG_MAX);
	if (r->log[i].kind != kind || r->log[i].addr != addr)
		print_error("lower access %u: %c 0x%llx, want %c 0x%llx\n", i, r->log[i].kind,
			    (unsigned long long)r->log[i].addr, kind, (unsigned long long)addr);
	assert_int_equal(r->log[i].kind, kind);
	assert_int_equal(r->log[i].addr, addr);
	assert_int_equal(r->log[i].bytes, 48);
}

/* A cache of `lines` lines in sets of `ways` (0: fully associative) and
 * `entries` 64-byte Attribute Buffer entries. */
static struct tsr_attr_cache *ac_new(uint32_t lines, uint32_t ways, uint32_t entries,
				     uint32_t max_attributes, int xor_index,
				     enum tsr_ac_policy policy, struct recorder *r)
{
	struct tsr_ac_config c;
	tsr_ac_config_defaults(&c);
	c.size_bytes = entries * 64;
	c.lines = lines;
	c.ways = ways;
	c.max_attributes = max_attributes;
	c.xor_index = (uint32_t)xor_index;
	c.policy = policy;
	struct tsr_ac_lower lower = {rec_read, rec_write, r};
	struct tsr_attr_cache *ac = NULL;
	struct tsr_error err = {{0}};
	enum tsr_status s = tsr_ac_create(&c, r ? &lower : NULL, &ac, &err);
	if (s != TSR_OK)
		print_error("%s\n", err.msg);
	assert_int_equal(s, TSR_OK);
	return ac;
}

static void read_consume(struct tsr_attr_cache *ac, uint64_t id, uint32_t n, uint32_t opt,
			 enum tsr_ac_result want)
{
	assert_int_equal(tsr_ac_read(ac, id, n, opt, 0), want);
	assert_int_equal(tsr_ac_consume(ac, id), TSR_OK);
}

/* ------------------------------------------------- TCOR III-C-7 example */

/*
 * Fig. 9 reconstructed. Tiles are numbered 1..9 as in the text and
 * visited in scanline order; each tile is overlapped by exactly one
 * primitive:
 *
 *     1 blue    2 yellow  3 pink
 *     4 blue    5 blue    6 pink
 *     7 blue    8 blue    9 pink
 *
 * The Polygon List Builder writes yellow, blue, pink (in that order; one
 * attribute each), so their write OPT Numbers (first tiles) are 2, 1, 3.
 * This is what the narrative of Fig. 10 requires: LRU's third write
 * evicts the first primitive written, which is missed in tile 2 (yellow);
 * LRU then evicts pink in tile 2, so the other primitive (blue) was read
 * in tile 1; pink is first read in tile 3; yellow is not used after tile
 * 2; LRU re-reads blue in tile 4. Tiles 5 to 9 are not in the text. OPT
 * Numbers use the paper's tile numbers: only their order matters.
 */
enum { YELLOW = 0x1000, BLUE = 0x1040, PINK = 0x1080 };
#define NEVER TSR_PB_NEVER

struct step {
	int write;          /* 1: Polygon List Builder write, 0: Tile Fetcher read */
	uint64_t prim;
	uint32_t opt;       /* the request's OPT Number */
};

static const struct step example[12] = {
	{1, YELLOW, 2}, {1, BLUE, 1}, {1, PINK, 3},
	{0, BLUE, 4},   /* tile 1 */
	{0, YELLOW, NEVER}, /* tile 2 */
	{0, PINK, 6},   /* tile 3 */
	{0, BLUE, 5},   /* tile 4 */
	{0, BLUE, 7},   /* tile 5 */
	{0, PINK, 9},   /* tile 6 */
	{0, BLUE, 8},   /* tile 7 */
	{0, BLUE, NEVER}, /* tile 8 */
	{0, PINK, NEVER}, /* tile 9 */
};

struct expect {
	enum tsr_ac_result result;
	uint32_t l2_reads, l2_writes;   /* cumulative, in attributes */
	uint64_t present[2];            /* the two lines afterwards (0: none), any order */
};

/* After each of the 12 accesses (Fig. 10's twelve states). */
static const struct expect opt_states[12] = {
	{TSR_AC_ALLOCATED, 0, 0, {YELLOW, 0}},
	{TSR_AC_ALLOCATED, 0, 0, {YELLOW, BLUE}},
	{TSR_AC_BYPASSED, 0, 1, {YELLOW, BLUE}},  /* pink's 3 > 2 and 1 */
	{TSR_AC_HIT, 0, 1, {YELLOW, BLUE}},       /* 1 */
	{TSR_AC_HIT, 0, 1, {YELLOW, BLUE}},       /* 2: yellow was retained */
	{TSR_AC_MISS, 1, 2, {PINK, BLUE}},        /* 3: evicts dead, dirty yellow */
	{TSR_AC_HIT, 1, 2, {PINK, BLUE}},         /* 4 */
	{TSR_AC_HIT, 1, 2, {PINK, BLUE}},
	{TSR_AC_HIT, 1, 2, {PINK, BLUE}},
	{TSR_AC_HIT, 1, 2, {PINK, BLUE}},
	{TSR_AC_HIT, 1, 2, {PINK, BLUE}},
	{TSR_AC_HIT, 1, 2, {PINK, BLUE}},
};

static const struct expect lru_states[12] = {
	{TSR_AC_ALLOCATED, 0, 0, {YELLOW, 0}},
	{TSR_AC_ALLOCATED, 0, 0, {YELLOW, BLUE}},
	{TSR_AC_ALLOCATED, 0, 1, {PINK, BLUE}},   /* write-back of yellow */
	{TSR_AC_HIT, 0, 1, {PINK, BLUE}},         /* 1 */
	{TSR_AC_MISS, 1, 2, {YELLOW, BLUE}},      /* 2: evicts dirty pink */
	{TSR_AC_MISS, 2, 3, {YELLOW, PINK}},      /* 3: evicts dirty blue, keeps yellow */
	{TSR_AC_MISS, 3, 3, {BLUE, PINK}},        /* 4: evicts clean yellow */
	{TSR_AC_HIT, 3, 3, {BLUE, PINK}},
	{TSR_AC_HIT, 3, 3, {BLUE, PINK}},
	{TSR_AC_HIT, 3, 3, {BLUE, PINK}},
	{TSR_AC_HIT, 3, 3, {BLUE, PINK}},
	{TSR_AC_HIT, 3, 3, {BLUE, PINK}},
};

/* Not in the paper: MRU on the same frame, for comparison. */
static const struct expect mru_states[12] = {
	{TSR_AC_ALLOCATED, 0, 0, {YELLOW, 0}},
	{TSR_AC_ALLOCATED, 0, 0, {YELLOW, BLUE}},
	{TSR_AC_ALLOCATED, 0, 1, {YELLOW, PINK}}, /* write-back of blue */
	{TSR_AC_MISS, 1, 2, {YELLOW, BLUE}},      /* 1: evicts dirty pink */
	{TSR_AC_HIT, 1, 2, {YELLOW, BLUE}},       /* 2 */
	{TSR_AC_MISS, 2, 3, {PINK, BLUE}},        /* 3: evicts dirty yellow */
	{TSR_AC_HIT, 2, 3, {PINK, BLUE}},
	{TSR_AC_HIT, 2, 3, {PINK, BLUE}},
	{TSR_AC_HIT, 2, 3, {PINK, BLUE}},
	{TSR_AC_HIT, 2, 3, {PINK, BLUE}},
	{TSR_AC_HIT, 2, 3, {PINK, BLUE}},
	{TSR_AC_HIT, 2, 3, {PINK, BLUE}},
};

static void replay_example(enum tsr_ac_policy policy, const struct expect *want,
			   struct recorder *r, struct tsr_attr_cache **out)
{
	struct tsr_attr_cache *ac = ac_new(2, 0, 2, 1, 0, policy, r);
	for (int i = 0; i < 12; i++) {
		const struct step *s = &example[i];
		enum tsr_ac_result got = s->write ? tsr_ac_write(ac, s->prim, 1, s->opt, 0)
						  : tsr_ac_read(ac, s->prim, 1, s->opt, 0);
		if (got != want[i].result || r->reads != want[i].l2_reads ||
		    r->writes != want[i].l2_writes)
			print_error("%s, state %d: %s with %u L2 reads and %u writes, want %s, %u, %u\n",
				    tsr_ac_policy_name(policy), i + 1, tsr_ac_result_str(got),
				    r->reads, r->writes, tsr_ac_result_str(want[i].result),
				    want[i].l2_reads, want[i].l2_writes);
		assert_int_equal(got, want[i].result);
		assert_int_equal(r->reads, want[i].l2_reads);
		assert_int_equal(r->writes, want[i].l2_writes);
		if (!s->write)  /* the Rasterizer reads it before the next tile */
			assert_int_equal(tsr_ac_consume(ac, s->prim), TSR_OK);
		static const uint64_t all[3] = {YELLOW, BLUE, PINK};
		for (int p = 0; p < 3; p++) {
			int in = all[p] == want[i].present[0] || all[p] == want[i].present[1];
			assert_int_equal(tsr_ac_lookup(ac, all[p], NULL), in);
		}
	}
	*out = ac;
}

static void test_paper_example(void **state)
{
	(void)state;
	struct recorder ro = {0}, rl = {0}, rm = {0};
	struct tsr_attr_cache *opt, *lru, *mru;
	replay_example(TSR_AC_OPT, opt_states, &ro, &opt);
	replay_example(TSR_AC_LRU, lru_states, &rl, &lru);
	replay_example(TSR_AC_MRU, mru_states, &rm, &mru);

	/* OPT: the bypass of pink, then tile 3's write-back of yellow and read of pink */
	assert_int_equal(ro.n, 3);
	assert_op(&ro, 0, 'w', PINK);
	assert_op(&ro, 1, 'w', YELLOW);
	assert_op(&ro, 2, 'r', PINK);
	/* LRU: yellow written back; tile 2: pink out, yellow in; tile 3: blue
	 * out, pink in; tile 4: blue in (yellow is clean) */
	static const struct op lru_ops[] = {{'w', YELLOW, 48, 0}, {'w', PINK, 48, 0},
					    {'r', YELLOW, 48, 0}, {'w', BLUE, 48, 0},
					    {'r', PINK, 48, 0},   {'r', BLUE, 48, 0}};
	assert_int_equal(rl.n, 6);
	for (uint32_t i = 0; i < 6; i++)
		assert_op(&rl, i, lru_ops[i].kind, lru_ops[i].addr);

	/* totals per policy */
	const struct tsr_ac_counters *o = tsr_ac_counters_of(opt), *l = tsr_ac_counters_of(lru),
				     *m = tsr_ac_counters_of(mru);
	assert_int_equal(o->writes, 3);
	assert_int_equal(o->write_allocations, 2);
	assert_int_equal(o->write_bypasses, 1);
	assert_int_equal(o->reads, 9);
	assert_int_equal(o->read_hits, 8);
	assert_int_equal(o->read_misses, 1);
	assert_int_equal(o->evictions, 1);
	assert_int_equal(o->writeback_primitives, 1);
	assert_int_equal(o->writeback_attributes, 1);
	assert_int_equal(o->lower_reads, 1);
	assert_int_equal(o->lower_writes, 2);
	assert_int_equal(o->stalls, 0);

	assert_int_equal(l->writes, 3);
	assert_int_equal(l->write_allocations, 3);
	assert_int_equal(l->write_bypasses, 0);
	assert_int_equal(l->reads, 9);
	assert_int_equal(l->read_hits, 6);
	assert_int_equal(l->read_misses, 3);
	assert_int_equal(l->evictions, 4);
	assert_int_equal(l->writeback_primitives, 3);
	assert_int_equal(l->writeback_attributes, 3);
	assert_int_equal(l->lower_reads, 3);
	assert_int_equal(l->lower_writes, 3);

	assert_int_equal(m->read_misses, 2);
	assert_int_equal(m->evictions, 3);
	assert_int_equal(m->lower_reads, 2);
	assert_int_equal(m->lower_writes, 3);

	/* V-A: OPT reaches LB = TP + (TP - CP) = 3 + 1 misses, LRU does not */
	assert_int_equal(o->writes + o->read_misses, 4);
	assert_int_equal(l->writes + l->read_misses, 6);
	tsr_ac_destroy(opt);
	tsr_ac_destroy(lru);
	tsr_ac_destroy(mru);
}

/* --------------------------------------------------- write bypass rule */

/* TCOR III-C-4: 2 sets x 2 ways, modulo index: set = Primitive ID / 64 mod 2. */
static void test_write_bypass_rule(void **state)
{
	(void)state;
	struct recorder r = {0};
	struct tsr_attr_cache *ac = ac_new(4, 2, 16, 4, 0, TSR_AC_OPT, &r);
	enum { A = 0x000, B = 0x080, C = 0x040, D = 0x100, E = 0x180, F = 0x200,
	       G = 0x280, H = 0x300 };
	assert_int_equal(tsr_ac_set_index(ac, A), 0);
	assert_int_equal(tsr_ac_set_index(ac, C), 1);
	assert_int_equal(tsr_ac_write(ac, A, 1, 4, 0), TSR_AC_ALLOCATED);
	assert_int_equal(tsr_ac_write(ac, B, 1, 6, 0), TSR_AC_ALLOCATED);
	assert_int_equal(tsr_ac_write(ac, C, 1, 9, 0), TSR_AC_ALLOCATED);  /* set 1 */
	assert_int_equal(r.n, 0);

	/* greater in the set (B's 6 > 5): B is evicted (written back), D kept;
	 * C's 9 is greater still but in the other set */
	assert_int_equal(tsr_ac_write(ac, D, 1, 5, 0x77), TSR_AC_ALLOCATED);
	assert_int_equal(r.n, 1);
	assert_op(&r, 0, 'w', B);
	assert_false(tsr_ac_lookup(ac, B, NULL));
	assert_true(tsr_ac_lookup(ac, C, NULL));
	struct tsr_ac_line_info li;
	assert_true(tsr_ac_lookup(ac, D, &li));
	assert_int_equal(li.set, 0);
	assert_int_equal(li.opt_number, 5);
	assert_int_equal(li.meta, 0x77);
	assert_true(li.dirty);

	/* smaller (greatest in the set is D's 5 < 6): bypass */
	assert_int_equal(tsr_ac_write(ac, E, 1, 6, 0x55), TSR_AC_BYPASSED);
	assert_int_equal(r.n, 2);
	assert_op(&r, 1, 'w', E);
	assert_int_equal(r.log[1].meta, 0x55);
	assert_false(tsr_ac_lookup(ac, E, NULL));

	/* equal (5 == 5, both first used by the same tile): bypass */
	assert_int_equal(tsr_ac_write(ac, F, 1, 5, 0), TSR_AC_BYPASSED);
	assert_int_equal(r.n, 3);
	assert_op(&r, 2, 'w', F);

	/* a locked line is no candidate: A read (its next use 7, locked) */
	assert_int_equal(tsr_ac_read(ac, A, 1, 7, 0), TSR_AC_HIT);
	assert_int_equal(tsr_ac_write(ac, G, 1, 6, 0), TSR_AC_BYPASSED);  /* D's 5 < 6 */
	assert_true(tsr_ac_lookup(ac, A, NULL));
	assert_int_equal(tsr_ac_consume(ac, A), TSR_OK);
	/* unlocked, A's 7 > 6: A (still dirty from its write) goes */
	assert_int_equal(tsr_ac_write(ac, H, 1, 6, 0), TSR_AC_ALLOCATED);
	assert_int_equal(r.n, 5);
	assert_op(&r, 3, 'w', G);
	assert_op(&r, 4, 'w', A);
	assert_false(tsr_ac_lookup(ac, A, NULL));

	const struct tsr_ac_counters *c = tsr_ac_counters_of(ac);
	assert_int_equal(c->writes, 8);
	assert_int_equal(c->write_allocations, 5);
	assert_int_equal(c->write_bypasses, 3);
	assert_int_equal(c->evictions, 2);
	assert_int_equal(c->writeback_primitives, 2);
	assert_int_equal(c->lower_writes, 5);
	assert_int_equal(c->lower_reads, 0);
	tsr_ac_destroy(ac);
}

/* --------------------------------------------------------------- locks */

static void test_locked_lines_are_never_evicted(void **state)
{
	(void)state;
	struct recorder r = {0};
	struct tsr_attr_cache *ac = ac_new(2, 0, 4, 2, 0, TSR_AC_OPT, &r);
	enum { A = 0x000, B = 0x040, C = 0x080, D = 0x0c0 };
	assert_int_equal(tsr_ac_read(ac, A, 1, 3, 0), TSR_AC_MISS);
	assert_int_equal(tsr_ac_read(ac, B, 1, NEVER, 0), TSR_AC_MISS);
	struct tsr_ac_line_info li;
	assert_true(tsr_ac_lookup(ac, B, &li));
	assert_int_equal(li.locks, 1);
	assert_false(li.dirty);

	/* both lines locked (B even has the greatest OPT Number): stall */
	assert_int_equal(tsr_ac_read(ac, C, 1, 1, 0), TSR_AC_STALL);
	const struct tsr_ac_counters *c = tsr_ac_counters_of(ac);
	assert_int_equal(c->stalls, 1);
	assert_int_equal(c->evictions, 0);
	assert_int_equal(c->reads, 2);
	assert_int_equal(r.n, 2);
	assert_true(tsr_ac_lookup(ac, A, NULL) && tsr_ac_lookup(ac, B, NULL));
	assert_false(tsr_ac_lookup(ac, C, NULL));
	/* a write never stalls: it bypasses, although its OPT Number is the smallest */
	assert_int_equal(tsr_ac_write(ac, D, 1, 0, 0), TSR_AC_BYPASSED);
	assert_int_equal(r.n, 3);

	/* counted locks: A read again for a second tile while still queued */
	assert_int_equal(tsr_ac_read(ac, A, 1, 5, 0), TSR_AC_HIT);
	assert_true(tsr_ac_lookup(ac, A, &li));
	assert_int_equal(li.locks, 2);
	assert_int_equal(li.opt_number, 5);
	assert_int_equal(tsr_ac_consume(ac, A), TSR_OK);
	assert_int_equal(tsr_ac_read(ac, C, 1, 1, 0), TSR_AC_STALL);  /* A still queued once */
	assert_int_equal(tsr_ac_consume(ac, A), TSR_OK);
	/* A unlocked: C proceeds and evicts A, the only candidate (clean: no write) */
	assert_int_equal(tsr_ac_read(ac, C, 1, 1, 0), TSR_AC_MISS);
	assert_false(tsr_ac_lookup(ac, A, NULL));
	assert_true(tsr_ac_lookup(ac, B, NULL));
	assert_int_equal(c->stalls, 2);
	assert_int_equal(c->evictions, 1);
	assert_int_equal(c->writeback_primitives, 0);
	assert_int_equal(r.n, 4);
	assert_op(&r, 3, 'r', C);

	/* consuming more than was read is the caller's bug */
	assert_int_equal(tsr_ac_consume(ac, A), TSR_ERR_INTERNAL);  /* absent */
	assert_int_equal(tsr_ac_consume(ac, B), TSR_OK);
	assert_int_equal(tsr_ac_consume(ac, B), TSR_ERR_INTERNAL);  /* not locked */
	tsr_ac_destroy(ac);

	/* a stall for want of Attribute Buffer entries: free lines, 4 entries */
	struct recorder r2 = {0};
	ac = ac_new(4, 0, 4, 4, 0, TSR_AC_OPT, &r2);
	assert_int_equal(tsr_ac_read(ac, A, 2, 5, 0), TSR_AC_MISS);   /* stays locked */
	read_consume(ac, B, 1, 7, TSR_AC_MISS);
	assert_int_equal(tsr_ac_free_entries(ac), 1);
	/* 3 needed: 1 free + B's 1 unlocked: stall, B kept */
	assert_int_equal(tsr_ac_read(ac, C, 3, 1, 0), TSR_AC_STALL);
	assert_true(tsr_ac_lookup(ac, B, NULL));
	assert_int_equal(tsr_ac_counters_of(ac)->evictions, 0);
	assert_int_equal(tsr_ac_consume(ac, A), TSR_OK);
	/* now B (7) then A (5) go: 1 + 1 + 2 >= 3 */
	assert_int_equal(tsr_ac_read(ac, C, 3, 1, 0), TSR_AC_MISS);
	assert_false(tsr_ac_lookup(ac, A, NULL) || tsr_ac_lookup(ac, B, NULL));
	assert_int_equal(tsr_ac_counters_of(ac)->evictions, 2);
	assert_int_equal(tsr_ac_free_entries(ac), 1);
	tsr_ac_destroy(ac);
}

/* ------------------------------------------- Attribute Buffer shortage */

static void test_attribute_buffer_shortage(void **state)
{
	(void)state;
	struct recorder r = {0};
	/* 8 lines, 8 entries, fully associative: entries run out first */
	struct tsr_attr_cache *ac = ac_new(8, 0, 8, 8, 0, TSR_AC_OPT, &r);
	enum { P1 = 0x1000, P2 = 0x1080, P3 = 0x1100, P4 = 0x1180, X = 0x2000,
	       Y = 0x3000, Z = 0x4000 };
	assert_int_equal(tsr_ac_write(ac, P1, 2, 5, 0), TSR_AC_ALLOCATED);
	assert_int_equal(tsr_ac_write(ac, P2, 2, 9, 0), TSR_AC_ALLOCATED);
	assert_int_equal(tsr_ac_write(ac, P4, 2, 3, 0), TSR_AC_ALLOCATED);
	read_consume(ac, P3, 2, 7, TSR_AC_MISS);   /* clean */
	assert_int_equal(tsr_ac_free_entries(ac), 0);
	assert_int_equal(r.n, 2);
	assert_op(&r, 0, 'r', P3);
	assert_op(&r, 1, 'r', P3 + 64);

	/* 5 attributes, a free line but no free entry: P2 (9), P3 (7), P1 (5)
	 * go, greatest OPT Number first; dirty P2 and P1 are written back
	 * attribute by attribute, clean P3 is not; P4 (3) stays */
	assert_int_equal(tsr_ac_read(ac, X, 5, 1, 0), TSR_AC_MISS);
	static const struct op want[] = {
		{'w', P2, 48, 0}, {'w', P2 + 64, 48, 0}, {'w', P1, 48, 0}, {'w', P1 + 64, 48, 0},
		{'r', X, 48, 0},  {'r', X + 64, 48, 0},  {'r', X + 128, 48, 0},
		{'r', X + 192, 48, 0}, {'r', X + 256, 48, 0}};
	assert_int_equal(r.n, 2 + 9);
	for (uint32_t i = 0; i < 9; i++)
		assert_op(&r, 2 + i, want[i].kind, want[i].addr);
	assert_true(tsr_ac_lookup(ac, P4, NULL));
	assert_false(tsr_ac_lookup(ac, P1, NULL) || tsr_ac_lookup(ac, P2, NULL) ||
		     tsr_ac_lookup(ac, P3, NULL));
	const struct tsr_ac_counters *c = tsr_ac_counters_of(ac);
	assert_int_equal(c->evictions, 3);
	assert_int_equal(c->writeback_primitives, 2);
	assert_int_equal(c->writeback_attributes, 4);
	assert_int_equal(c->lower_reads, 2 + 5);
	assert_int_equal(tsr_ac_free_entries(ac), 1);
	/* X's five entries are one list from its ABP */
	struct tsr_ac_line_info li;
	assert_true(tsr_ac_lookup(ac, X, &li));
	assert_int_equal(li.n_attributes, 5);
	assert_int_equal(li.locks, 1);
	uint32_t len = 0;
	for (uint32_t e = li.abp; e != TSR_AC_NIL; e = tsr_ac_next_entry(ac, e))
		len++;
	assert_int_equal(len, 5);
	assert_int_equal(tsr_ac_consume(ac, X), TSR_OK);

	/* a write short of entries evicts by the same rule: P4's 3 > 2 */
	assert_int_equal(tsr_ac_write(ac, Y, 3, 2, 0), TSR_AC_ALLOCATED);
	assert_false(tsr_ac_lookup(ac, P4, NULL));
	assert_int_equal(c->writeback_primitives, 3);
	assert_int_equal(tsr_ac_free_entries(ac), 0);
	/* 4 needed: Y's 2 > 1 would give 3, X's 1 is not > 1: bypass, and
	 * nothing is evicted */
	uint32_t before = r.n;
	assert_int_equal(tsr_ac_write(ac, Z, 4, 1, 0), TSR_AC_BYPASSED);
	assert_true(tsr_ac_lookup(ac, Y, NULL) && tsr_ac_lookup(ac, X, NULL));
	assert_int_equal(c->evictions, 4);
	assert_int_equal(r.n, before + 4);
	for (uint32_t a = 0; a < 4; a++)
		assert_op(&r, before + a, 'w', Z + a * 64);

	/* a new frame drops everything without write-back */
	tsr_ac_reset(ac);
	assert_int_equal(tsr_ac_free_entries(ac), 8);
	assert_false(tsr_ac_lookup(ac, Y, NULL) || tsr_ac_lookup(ac, X, NULL));
	assert_int_equal(r.n, before + 4);
	assert_int_equal(tsr_ac_write(ac, Y, 8, 0, 0), TSR_AC_ALLOCATED);
	assert_int_equal(tsr_ac_free_entries(ac), 0);
	tsr_ac_destroy(ac);
}

/* ---------------------------------------------------------- XOR index */

static void test_xor_index(void **state)
{
	(void)state;
	/* 4 sets x 2 ways; 8 primitives a stride of 4 sets x 64 bytes apart */
	uint64_t ids[8];
	for (uint32_t i = 0; i < 8; i++)
		ids[i] = 0x10000 + (uint64_t)i * 4 * 64;
	uint32_t hits[2], bypasses[2];
	for (int x = 0; x < 2; x++) {
		struct tsr_attr_cache *ac = ac_new(8, 2, 64, 1, x, TSR_AC_OPT, NULL);
		uint32_t per_set[4] = {0};
		for (uint32_t i = 0; i < 8; i++) {
			uint32_t s = tsr_ac_set_index(ac, ids[i]);
			/* block 0x400 + 4i: XOR of its 2-bit chunks is (i & 3) ^ (i >> 2) ^ 1 */
			assert_int_equal(s, x ? ((i & 3) ^ (i >> 2) ^ 1) : 0);
			per_set[s]++;
		}
		if (x)
			for (int s = 0; s < 4; s++)
				assert_int_equal(per_set[s], 2);
		for (uint32_t i = 0; i < 8; i++)  /* first used in order */
			tsr_ac_write(ac, ids[i], 1, i, 0);
		for (uint32_t i = 0; i < 8; i++) {  /* each read once, then consumed */
			enum tsr_ac_result res = tsr_ac_read(ac, ids[i], 1, NEVER, 0);
			assert_true(res == TSR_AC_HIT || res == TSR_AC_MISS);
			assert_int_equal(tsr_ac_consume(ac, ids[i]), TSR_OK);
		}
		hits[x] = (uint32_t)tsr_ac_counters_of(ac)->read_hits;
		bypasses[x] = (uint32_t)tsr_ac_counters_of(ac)->write_bypasses;
		tsr_ac_destroy(ac);
	}
	/* modulo: one set; 2 kept, 6 bypassed and missed later */
	assert_int_equal(bypasses[0], 6);
	assert_int_equal(hits[0], 2);
	/* XOR: every primitive fits */
	assert_int_equal(bypasses[1], 0);
	assert_int_equal(hits[1], 8);

	/* one set (fully associative): the index is always 0 */
	struct tsr_attr_cache *fa = ac_new(8, 0, 64, 1, 1, TSR_AC_OPT, NULL);
	assert_int_equal(tsr_ac_sets(fa), 1);
	assert_int_equal(tsr_ac_set_index(fa, 0x123456789c0ull), 0);
	tsr_ac_destroy(fa);
}

/* ------------------------------------------------- V-A: the lower bound */

#define TILES_X 8
#define TILES_Y 8
#define TILES (TILES_X * TILES_Y)
#define TP 300

/* One generated frame: TP primitives of one attribute, each overlapping a
 * random rectangle of up to 3 x 3 tiles; tiles in scanline order, so a
 * tile's position is its number. */
struct frame {
	uint32_t list[TILES][TP];    /* primitives of each tile, program order */
	uint32_t opt[TILES][TP];     /* their OPT Numbers (next tile) */
	uint32_t count[TILES];
	uint32_t first[TP];          /* write OPT Number (first tile) */
};

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void make_frame(struct frame *f, uint64_t seed)
{
	memset(f, 0, sizeof(*f));
	for (uint32_t p = 0; p < TP; p++) {
		uint32_t w = 1 + (uint32_t)(rng_next(&seed) % 3), h = 1 + (uint32_t)(rng_next(&seed) % 3);
		uint32_t x0 = (uint32_t)(rng_next(&seed) % (TILES_X - w + 1));
		uint32_t y0 = (uint32_t)(rng_next(&seed) % (TILES_Y - h + 1));
		for (uint32_t y = y0; y < y0 + h; y++)
			for (uint32_t x = x0; x < x0 + w; x++) {
				uint32_t t = y * TILES_X + x;
				f->list[t][f->count[t]++] = p;
			}
	}
	/* OPT Numbers by scanning the tiles backwards */
	uint32_t next[TP];
	for (uint32_t p = 0; p < TP; p++)
		next[p] = NEVER;
	for (uint32_t t = TILES; t-- > 0;)
		for (uint32_t i = 0; i < f->count[t]; i++) {
			uint32_t p = f->list[t][i];
			f->opt[t][i] = next[p];
			next[p] = t;
		}
	for (uint32_t p = 0; p < TP; p++) {
		assert_true(next[p] != NEVER);
		f->first[p] = next[p];
	}
}

static uint64_t prim_id(uint32_t p)
{
	return 0x100000 + (uint64_t)p * TSR_PB_BLOCK_BYTES;
}

/*
 * Writes every primitive, then reads tile by tile. The Tile Fetcher's
 * output queue holds up to `queue` primitives; the Rasterizer consumes the
 * oldest when it is full (and, on a stall, before the read is retried).
 * Returns the total misses: TP compulsory writes + read misses.
 */
static uint64_t run_frame(const struct frame *f, uint32_t lines, uint32_t ways,
			  enum tsr_ac_policy policy, uint32_t queue, uint64_t *stalls)
{
	struct tsr_attr_cache *ac = ac_new(lines, ways, lines, 1, 1, policy, NULL);
	for (uint32_t p = 0; p < TP; p++)
		assert_int_not_equal(tsr_ac_write(ac, prim_id(p), 1, f->first[p], 0),
				     TSR_AC_INVALID);
	uint64_t fifo[64];
	uint32_t head = 0, len = 0;
	assert_true(queue < 64);
	for (uint32_t t = 0; t < TILES; t++)
		for (uint32_t i = 0; i < f->count[t]; i++) {
			uint64_t id = prim_id(f->list[t][i]);
			enum tsr_ac_result res;
			while ((res = tsr_ac_read(ac, id, 1, f->opt[t][i], 0)) == TSR_AC_STALL) {
				assert_true(len > 0);
				assert_int_equal(tsr_ac_consume(ac, fifo[head]), TSR_OK);
				head = (head + 1) % 64;
				len--;
			}
			assert_true(res == TSR_AC_HIT || res == TSR_AC_MISS);
			fifo[(head + len++) % 64] = id;
			while (len > queue) {
				assert_int_equal(tsr_ac_consume(ac, fifo[head]), TSR_OK);
				head = (head + 1) % 64;
				len--;
			}
		}
	const struct tsr_ac_counters *c = tsr_ac_counters_of(ac);
	assert_int_equal(c->writes, TP);
	assert_int_equal(c->write_allocations + c->write_bypasses, TP);
	assert_int_equal(c->read_hits + c->read_misses, c->reads);
	uint64_t misses = c->writes + c->read_misses;
	*stalls = c->stalls;
	tsr_ac_destroy(ac);
	return misses;
}

static uint64_t lower_bound(uint64_t cp)
{
	return TP + (TP > cp ? TP - cp : 0);
}

static void test_lower_bound(void **state)
{
	(void)state;
	struct frame *f = malloc(sizeof(*f));
	assert_non_null(f);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		make_frame(f, 0x9e3779b97f4a7c15ull * seed);
		uint64_t stalls;
		/* CP = lines (one attribute per primitive, as many entries) */
		static const uint32_t sizes[] = {8, 16, 32, 64, 128, 256, 512};
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			uint32_t cp = sizes[k];
			uint64_t opt = run_frame(f, cp, 0, TSR_AC_OPT, 0, &stalls);
			uint64_t lru = run_frame(f, cp, 0, TSR_AC_LRU, 0, &stalls);
			uint64_t opt4 = run_frame(f, cp, 4, TSR_AC_OPT, 0, &stalls);
			uint64_t lb = lower_bound(cp);
			if (opt < lb || lru < lb || opt4 < lb || opt > lru)
				print_error("seed %llu, CP %u: OPT %llu, LRU %llu, 4-way OPT %llu, LB %llu\n",
					    (unsigned long long)seed, cp, (unsigned long long)opt,
					    (unsigned long long)lru, (unsigned long long)opt4,
					    (unsigned long long)lb);
			assert_true(opt >= lb);
			assert_true(opt4 >= lb);
			assert_true(lru >= lb);
			assert_true(opt <= lru);
			/* golden, as Fig. 11: fully associative OPT already sits on
			 * the bound at CP = 128 on these frames, LRU does not */
			if (cp == 128 || cp == 256) {
				assert_int_equal(opt, lb);
				assert_true(lru > lb);
			}
			if (cp >= TP) {  /* everything fits: only the compulsory writes */
				assert_int_equal(opt, lb);
				assert_int_equal(lru, lb);
				assert_int_equal(opt, TP);
			}
		}
		/* a queue of up to ways - 1 primitives never stalls the 4-way cache
		 * (there is always an unlocked line in the set and entries for it) */
		uint64_t queued = run_frame(f, 64, 4, TSR_AC_OPT, 3, &stalls);
		assert_int_equal(stalls, 0);
		assert_true(queued >= lower_bound(64));
		/* a deeper queue may stall; draining one primitive and retrying serves it */
		uint64_t deep = run_frame(f, 8, 2, TSR_AC_OPT, 12, &stalls);
		assert_true(stalls > 0);
		assert_true(deep >= lower_bound(8));
	}
	free(f);
}

/* ------------------------------------------------ configuration errors */

static void expect_geometry_error(const struct tsr_ac_config *c, const char *field)
{
	struct tsr_error err = {{0}};
	struct tsr_attr_cache *ac = NULL;
	assert_int_equal(tsr_ac_create(c, NULL, &ac, &err), TSR_ERR_GEOMETRY);
	assert_null(ac);
	if (!strstr(err.msg, field))
		print_error("'%s' does not name %s\n", err.msg, field);
	assert_non_null(strstr(err.msg, field));
}

static void test_config(void **state)
{
	(void)state;
	struct tsr_ac_config d, c;
	tsr_ac_config_defaults(&d);
	struct tsr_error err = {{0}};
	struct tsr_attr_cache *ac = NULL;
	assert_int_equal(tsr_ac_create(&d, NULL, &ac, &err), TSR_OK);
	assert_int_equal(tsr_ac_entries(ac), 768);
	assert_int_equal(tsr_ac_free_entries(ac), 768);
	assert_int_equal(tsr_ac_config_of(ac)->lines, 384);
	assert_int_equal(tsr_ac_sets(ac), 64);
	/* malformed requests change nothing */
	assert_int_equal(tsr_ac_write(ac, 0x40, 0, 1, 0), TSR_AC_INVALID);
	assert_int_equal(tsr_ac_read(ac, 0x40, 34, 1, 0), TSR_AC_INVALID);
	assert_int_equal(tsr_ac_write(ac, 0x40, 2, 1, 0), TSR_AC_ALLOCATED);
	assert_int_equal(tsr_ac_write(ac, 0x40, 2, 1, 0), TSR_AC_INVALID);  /* present */
	assert_int_equal(tsr_ac_read(ac, 0x40, 3, 1, 0), TSR_AC_INVALID);   /* 2 stored */
	assert_int_equal(tsr_ac_counters_of(ac)->writes, 1);
	assert_int_equal(tsr_ac_counters_of(ac)->reads, 0);
	tsr_ac_destroy(ac);

	c = d; c.size_bytes = 0;                 expect_geometry_error(&c, "size_bytes");
	c = d; c.attribute_entry_bytes = 0;      expect_geometry_error(&c, "attribute_entry_bytes");
	c = d; c.size_bytes = 1000;              expect_geometry_error(&c, "attribute_entry_bytes");
	c = d; c.attribute_bytes = 0;            expect_geometry_error(&c, "attribute_bytes");
	c = d; c.attribute_entry_bytes = 32;     expect_geometry_error(&c, "attribute_bytes");
	c = d; c.lines = 0;                      expect_geometry_error(&c, "lines");
	c = d; c.ways = 5;                       expect_geometry_error(&c, "ways");
	c = d; c.ways = 1000;                    expect_geometry_error(&c, "ways");
	c = d; c.ways = 4;                       expect_geometry_error(&c, "power of two");
	/* issue 12: a fully associative Primitive Buffer is bounded as caches are */
	c = d; c.lines = 32768; c.ways = 0;      expect_geometry_error(&c, "limit of 16384");
	c = d; c.max_attributes = 0;             expect_geometry_error(&c, "max_attributes");
	c = d; c.size_bytes = 16 * 64;           expect_geometry_error(&c, "max_attributes");
	c = d; c.policy = TSR_AC_POLICY_COUNT;
	assert_int_equal(tsr_ac_config_check(&c, &err), TSR_ERR_CONFIG);
	/* the paper's 10-bit ABP: 48-byte entries give 1024 in 48 KiB */
	c = d; c.attribute_entry_bytes = 48;
	assert_int_equal(tsr_ac_config_check(&c, &err), TSR_OK);

	enum tsr_ac_policy p;
	assert_int_equal(tsr_ac_policy_parse("lru", &p, &err), TSR_OK);
	assert_int_equal(p, TSR_AC_LRU);
	assert_int_equal(tsr_ac_policy_parse("drrip", &p, &err), TSR_OK);
	assert_int_equal(p, TSR_AC_DRRIP);
	assert_int_equal(tsr_ac_policy_parse("belady", &p, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "belady"));
	assert_non_null(strstr(err.msg, "drrip"));
	assert_string_equal(tsr_ac_policy_name(TSR_AC_OPT), "opt");
	assert_string_equal(tsr_ac_result_str(TSR_AC_STALL), "stall");
}

/*
 * DRRIP in a fully associative Attribute Cache (no leader sets: SRRIP).
 * Fills at RRPV 2, a hit promotes to 0, the victim is the lowest unlocked
 * line at the highest RRPV after ageing.
 */
static void test_drrip(void **state)
{
	(void)state;
	struct tsr_attr_cache *ac = ac_new(3, 0, 16, 1, 0, TSR_AC_DRRIP, NULL);
	const uint64_t a = 0x1000, b = 0x1040, c = 0x1080, d = 0x10c0, e = 0x1100;
	struct tsr_ac_line_info info;
	/* writes always allocate under DRRIP, whatever their OPT Numbers */
	assert_int_equal(tsr_ac_write(ac, a, 1, 9, 0), TSR_AC_ALLOCATED);
	assert_int_equal(tsr_ac_write(ac, b, 1, 0, 0), TSR_AC_ALLOCATED);
	assert_int_equal(tsr_ac_write(ac, c, 1, 5, 0), TSR_AC_ALLOCATED);  /* {2,2,2} */
	read_consume(ac, b, 1, 0, TSR_AC_HIT);                            /* {2,0,2} */
	/* D: age by 1 -> {3,1,3}; the lowest distant line, A, goes */
	assert_int_equal(tsr_ac_write(ac, d, 1, 0, 0), TSR_AC_ALLOCATED);  /* {D:2,1,3} */
	assert_false(tsr_ac_lookup(ac, a, &info));
	/* E: C is already distant -> evicted without ageing */
	assert_int_equal(tsr_ac_write(ac, e, 1, 0, 0), TSR_AC_ALLOCATED);  /* {2,1,E:2} */
	assert_false(tsr_ac_lookup(ac, c, &info));
	assert_true(tsr_ac_lookup(ac, b, &info));
	/* A again: age by 1 -> {3,2,3}: D (way 0) goes, B (hit earlier) stays */
	read_consume(ac, a, 1, 0, TSR_AC_MISS);
	assert_false(tsr_ac_lookup(ac, d, &info));
	assert_true(tsr_ac_lookup(ac, b, &info));
	assert_true(tsr_ac_lookup(ac, e, &info));
	tsr_ac_destroy(ac);
}

/* ------------------------------- LRU, MRU, DRRIP: memory/'s policy modules */

/* A plain cache of the Attribute Cache's geometry (64-byte lines) under `policy`. */
static struct tsr_cache *plain_cache(uint32_t sets, uint32_t ways, const char *policy)
{
	struct tsr_cache_geometry g;
	memset(&g, 0, sizeof(g));
	g.size_bytes = sets * ways * 64;
	g.ways = ways;
	g.line_bytes = 64;
	g.fetch_on_write = 1;
	g.seed = 1;  /* the Attribute Cache's seed */
	snprintf(g.policy, sizeof(g.policy), "%s", policy);
	struct tsr_cache *c = NULL;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_cache_create(&g, "plain", &c, &err), TSR_OK);
	return c;
}

#define POOL_MAX 1024

/*
 * Nothing locked (every read consumed at once, one attribute per
 * primitive, an entry per line): the Attribute Cache under LRU, MRU and
 * DRRIP must hold exactly what a plain cache of the same geometry under
 * the same policy module holds, after every access of a random mix of
 * reads and writes (writes only of absent primitives, as the Polygon List
 * Builder issues them). So it picks the same victims, DRRIP's set dueling
 * and random insertions included.
 */
static void test_policies_match_plain_cache(void **state)
{
	(void)state;
	static const enum tsr_ac_policy pols[] = {TSR_AC_LRU, TSR_AC_MRU, TSR_AC_DRRIP};
	static const uint32_t geo[][2] = {{1, 8}, {16, 4}, {128, 4}};  /* sets, ways */
	for (size_t p = 0; p < sizeof(pols) / sizeof(pols[0]); p++)
		for (size_t g = 0; g < sizeof(geo) / sizeof(geo[0]); g++) {
			uint32_t sets = geo[g][0], ways = geo[g][1], lines = sets * ways;
			uint32_t pool = 2 * lines < POOL_MAX ? 2 * lines : POOL_MAX;
			struct tsr_attr_cache *ac = ac_new(lines, ways, lines, 1, 0, pols[p], NULL);
			struct tsr_cache *c = plain_cache(sets, ways, tsr_ac_policy_name(pols[p]));
			static uint8_t in[POOL_MAX];  /* the plain cache's contents */
			memset(in, 0, sizeof(in));
			uint64_t seed = 42 + p * 7 + g;
			for (int i = 0; i < 20000; i++) {
				uint32_t k = (uint32_t)(rng_next(&seed) % pool);
				uint64_t id = 0x10000 + (uint64_t)k * 64;
				int write = !in[k] && rng_next(&seed) % 4 == 0;
				struct tsr_access a = {.addr = id, .size = 48, .write = (uint8_t)write,
						       .next_use = TSR_NEVER};
				struct tsr_cache_outcome o;
				tsr_cache_access(c, &a, &o);
				if (o.evicted)
					in[(o.victim_addr - 0x10000) / 64] = 0;
				in[k] = 1;
				if (write) {
					assert_int_equal(tsr_ac_write(ac, id, 1, 0, 0), TSR_AC_ALLOCATED);
				} else {
					assert_int_equal(tsr_ac_read(ac, id, 1, 0, 0),
							 o.hit ? TSR_AC_HIT : TSR_AC_MISS);
					assert_int_equal(tsr_ac_consume(ac, id), TSR_OK);
				}
				for (uint32_t q = 0; q < pool; q++)
					if (tsr_ac_lookup(ac, 0x10000 + (uint64_t)q * 64, NULL) != in[q]) {
						print_error("%s, %u x %u, access %d: primitive %u %s\n",
							    tsr_ac_policy_name(pols[p]), sets, ways, i, q,
							    in[q] ? "missing" : "present");
						fail();
					}
			}
			tsr_cache_destroy(c);
			tsr_ac_destroy(ac);
		}
}

/*
 * Locks under LRU, MRU, DRRIP (and OPT): primitives of 1 to 3 attributes
 * in an Attribute Buffer too small for every line, read through an output
 * queue of `depth` primitives that stay locked until consumed (deeper
 * than ways - 1 in some runs, so that reads stall). A locked primitive is
 * never evicted, neither as the set's victim nor as an extra victim that
 * frees entries, and a stall changes nothing.
 */
static void test_policies_never_evict_locked(void **state)
{
	(void)state;
	static const enum tsr_ac_policy pols[] = {TSR_AC_LRU, TSR_AC_MRU, TSR_AC_DRRIP,
						  TSR_AC_OPT};
	static const uint32_t depths[] = {3, 8};
	for (size_t p = 0; p < sizeof(pols) / sizeof(pols[0]); p++)
		for (size_t d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
			enum { SETS = 4, WAYS = 4, LINES = SETS * WAYS, POOL = 48, Q = 8 };
			struct tsr_attr_cache *ac = ac_new(LINES, WAYS, LINES + 8, 3, 0, pols[p],
							   NULL);
			uint64_t queue[Q];
			uint32_t head = 0, len = 0, depth = depths[d];
			uint64_t seed = 1234 + p + 10 * d;
			uint64_t stalls = 0;
			for (int i = 0; i < 20000; i++) {
				uint32_t k = (uint32_t)(rng_next(&seed) % POOL);
				uint64_t id = 0x20000 + (uint64_t)k * 64;
				uint32_t n = 1 + k % 3;  /* a primitive keeps its attribute count */
				uint32_t opt = (uint32_t)(rng_next(&seed) % 16);
				if (!tsr_ac_lookup(ac, id, NULL) && rng_next(&seed) % 4 == 0) {
					enum tsr_ac_result w = tsr_ac_write(ac, id, n, opt, 0);
					assert_true(w == TSR_AC_ALLOCATED || w == TSR_AC_BYPASSED);
				} else {
					if (len == depth) {
						assert_int_equal(tsr_ac_consume(ac, queue[head]), TSR_OK);
						head = (head + 1) % Q;
						len--;
					}
					uint32_t before = tsr_ac_free_entries(ac);
					uint64_t ev = tsr_ac_counters_of(ac)->evictions;
					enum tsr_ac_result r;
					while ((r = tsr_ac_read(ac, id, n, opt, 0)) == TSR_AC_STALL) {
						stalls++;
						assert_int_equal(tsr_ac_free_entries(ac), before);
						assert_int_equal(tsr_ac_counters_of(ac)->evictions, ev);
						assert_true(len > 0);
						assert_int_equal(tsr_ac_consume(ac, queue[head]), TSR_OK);
						head = (head + 1) % Q;
						len--;
					}
					assert_true(r == TSR_AC_HIT || r == TSR_AC_MISS);
					queue[(head + len++) % Q] = id;
				}
				/* every queued (locked) primitive is still present */
				for (uint32_t j = 0; j < len; j++) {
					struct tsr_ac_line_info li;
					if (!tsr_ac_lookup(ac, queue[(head + j) % Q], &li)) {
						print_error("%s, depth %u, access %d: locked primitive "
							    "0x%llx evicted\n", tsr_ac_policy_name(pols[p]),
							    depth, i,
							    (unsigned long long)queue[(head + j) % Q]);
						fail();
					}
					assert_true(li.locks > 0);
				}
			}
			if (depth > WAYS - 1)
				assert_true(stalls > 0);  /* the deep queue did lock whole sets */
			tsr_ac_destroy(ac);
		}
}

/* A policy of memory/ without the pinned-line hooks is refused, with the valid list. */
static void test_policy_refused(void **state)
{
	(void)state;
	enum tsr_ac_policy p;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_ac_policy_parse("srrip", &p, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "srrip"));
	assert_non_null(strstr(err.msg, "unlocked"));
	assert_non_null(strstr(err.msg, "opt, lru, mru, drrip"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paper_example),
		cmocka_unit_test(test_drrip),
		cmocka_unit_test(test_write_bypass_rule),
		cmocka_unit_test(test_locked_lines_are_never_evicted),
		cmocka_unit_test(test_attribute_buffer_shortage),
		cmocka_unit_test(test_xor_index),
		cmocka_unit_test(test_lower_bound),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_policies_match_plain_cache),
		cmocka_unit_test(test_policies_never_evict_locked),
		cmocka_unit_test(test_policy_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
