/*
 * 062-memory-tcor-l2.c - the TCOR L2 replacement policy
 * (src/memory/policy_tcor_l2.c, TCOR Section III-D): dead Parameter
 * Buffer lines go first and are dropped without a write-back, then lines
 * that are not Parameter Buffer data, then live Parameter Buffer lines,
 * LRU within each class.
 *
 * The tests replay short, hand-computed sequences on a real 1-set x
 * 4-way cache with 64-byte lines (line k is address k x 64). Accesses
 * carry metadata built by tsr_pb_meta(); attribute and list lines are
 * written (dirty) except with EVICT_READ. The comments after each
 * step give the set as {way0, way1, way2, way3} with LRU order oldest
 * first; "A0:t1" is line 0 as PB-Attributes with last tile 1, "L3:t2" a
 * PB-Lists line, "N1" a line that is not Parameter Buffer data. Tile
 * markers mean "a tile starts", so after the c-th one of a frame c-1
 * tiles are finished.
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
#include "memory/pb_meta.h"
#include "memory/policy.h"

#define LINE 64u

static struct tsr_cache *make_cache(uint32_t sets, uint32_t ways)
{
	struct tsr_cache_geometry g = tsr_test_geometry(sets, ways, LINE, "tcor-l2");
	struct tsr_cache *c = NULL;
	struct tsr_error err;
	memset(&err, 0, sizeof(err));
	enum tsr_status s = tsr_cache_create(&g, "l2", &c, &err);
	if (s != TSR_OK)
		print_error("%s\n", err.msg);
	assert_int_equal(s, TSR_OK);
	assert_non_null(c);
	return c;
}

/* Line k of a one-set cache. */
static uint64_t L(uint64_t k)
{
	return k * LINE;
}

/* Metadata of this frame's lines. */
static uint32_t attr(uint32_t last_tile, uint32_t frame)
{
	return tsr_pb_meta(TSR_PB_ATTRIBUTES, last_tile, frame);
}

static uint32_t lists(uint32_t last_tile, uint32_t frame)
{
	return tsr_pb_meta(TSR_PB_LISTS, last_tile, frame);
}

/* The stream that goes with a metadata word. */
static enum tsr_stream stream_of(uint32_t meta)
{
	switch (tsr_pb_meta_type(meta)) {
	case TSR_PB_LISTS:
		return TSR_STREAM_PB_LISTS;
	case TSR_PB_ATTRIBUTES:
		return TSR_STREAM_PB_ATTRIBUTES;
	default:
		return TSR_STREAM_TEXTURE;
	}
}

/* One access; Parameter Buffer accesses write, the others read. */
static struct tsr_cache_outcome acc_rw(struct tsr_cache *c, uint64_t addr,
				       uint32_t meta, int write)
{
	struct tsr_access a = {.addr = addr, .size = 4, .write = (uint8_t)write,
			       .stream = (uint8_t)stream_of(meta), .meta = meta,
			       .next_use = TSR_NEVER};
	struct tsr_cache_outcome o;
	tsr_cache_access(c, &a, &o);
	return o;
}

static struct tsr_cache_outcome acc(struct tsr_cache *c, uint64_t addr, uint32_t meta)
{
	return acc_rw(c, addr, meta, tsr_pb_meta_type(meta) != TSR_PB_NONE);
}

static void frame(struct tsr_cache *c, uint64_t f)
{
	tsr_cache_marker(c, TSR_MARKER_FRAME, f);
}

/* n tiles start (the marker's value, a tile id, does not matter). */
static void tiles(struct tsr_cache *c, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		tsr_cache_marker(c, TSR_MARKER_TILE, 1000 + i);
}

static uint64_t discards(const struct tsr_cache *c, enum tsr_stream s)
{
	return tsr_cache_counters_of(c, s)->discards;
}

static uint64_t writebacks(const struct tsr_cache *c, enum tsr_stream s)
{
	return tsr_cache_counters_of(c, s)->writebacks;
}

static void check_hit(struct tsr_cache *c, uint64_t addr, uint32_t meta,
		      const char *file, int line)
{
	struct tsr_cache_outcome o = acc(c, addr, meta);
	_assert_true(o.hit, "hit", file, line);
}

static void check_fill(struct tsr_cache *c, uint64_t addr, uint32_t meta, uint32_t way,
		       const char *file, int line)
{
	struct tsr_cache_outcome o = acc(c, addr, meta);
	_assert_true(!o.hit, "miss", file, line);
	_assert_true(!o.evicted, "no eviction", file, line);
	_assert_int_equal(o.way, way, file, line);
}

/*
 * A miss that evicts `victim` from `way`; wb: whether the victim is
 * written back (a dirty live line) or not (clean, or dead).
 */
static void check_evict(struct tsr_cache *c, uint64_t addr, uint32_t meta, int write,
			uint32_t way, uint64_t victim, int wb, const char *file, int line)
{
	struct tsr_cache_outcome o = acc_rw(c, addr, meta, write);
	_assert_true(!o.hit, "miss", file, line);
	_assert_true(o.evicted, "eviction", file, line);
	_assert_int_equal(o.way, way, file, line);
	_assert_int_equal(o.victim_addr, victim, file, line);
	_assert_int_equal(o.writeback, wb, file, line);
}

#define HIT(c, addr, meta) check_hit((c), (addr), (meta), __FILE__, __LINE__)
#define FILL(c, addr, meta, way) check_fill((c), (addr), (meta), (way), __FILE__, __LINE__)
#define EVICT(c, addr, meta, way, victim, wb)                                    \
	check_evict((c), (addr), (meta), tsr_pb_meta_type(meta) != TSR_PB_NONE, (way), \
		    (victim), (wb), __FILE__, __LINE__)
/* The same with a read: the new line is clean. */
#define EVICT_READ(c, addr, meta, way, victim, wb) \
	check_evict((c), (addr), (meta), 0, (way), (victim), (wb), __FILE__, __LINE__)

/*
 * The three classes in one frame: with no tile finished nothing is dead,
 * so the non-PB line goes first (although older PB lines exist), then
 * live PB lines by LRU with their write-back; once positions 0 and 1 are
 * finished their lines go first, LRU among them, without write-back and
 * counted as discards.
 */
static void test_classes_and_discards(void **state)
{
	(void)state;
	const uint32_t F = 5;
	struct tsr_cache *c = make_cache(1, 4);
	frame(c, F);
	tiles(c, 1);                                   /* tile 0 starts: none finished */
	FILL(c, L(0), attr(0, F), 0);
	FILL(c, L(1), 0, 1);
	FILL(c, L(2), attr(1, F), 2);
	FILL(c, L(3), lists(2, F), 3);
	/* {A0:t0 N1 A2:t1 L3:t2}, LRU A0 N1 A2 L3 */
	EVICT(c, L(4), 0, 1, L(1), 0);                 /* the non-PB line, not older A0 */
	/* {A0:t0 N4 A2:t1 L3:t2}, LRU A0 A2 L3 N4 */
	EVICT_READ(c, L(5), attr(3, F), 1, L(4), 0);   /* the non-PB line although MRU */
	/* {A0:t0 A5:t3 A2:t1 L3:t2}: all live PB (A5 clean), LRU A0 A2 L3 A5 */
	HIT(c, L(0), attr(0, F));
	/* LRU A2 L3 A5 A0 */
	EVICT(c, L(6), 0, 2, L(2), 1);                 /* live and dirty: written back */
	assert_int_equal(writebacks(c, TSR_STREAM_PB_ATTRIBUTES), 1);
	assert_int_equal(discards(c, TSR_STREAM_PB_ATTRIBUTES), 0);
	EVICT(c, L(7), attr(1, F), 2, L(6), 0);        /* the non-PB line again */
	/* {A0:t0 A5:t3 A7:t1 L3:t2}, LRU L3 A5 A0 A7 */

	tiles(c, 2);                                   /* 3 started: positions 0, 1 finished */
	/* dead: A0 (t0), A7 (t1) */
	EVICT(c, L(8), 0, 0, L(0), 0);                 /* dead LRU, dirty: discarded */
	assert_int_equal(discards(c, TSR_STREAM_PB_ATTRIBUTES), 1);
	assert_int_equal(writebacks(c, TSR_STREAM_PB_ATTRIBUTES), 1);
	/* {N8 A5:t3 A7:t1 L3:t2}: the other dead line before the non-PB one */
	EVICT(c, L(9), 0, 2, L(7), 0);
	assert_int_equal(discards(c, TSR_STREAM_PB_ATTRIBUTES), 2);
	assert_int_equal(writebacks(c, TSR_STREAM_PB_ATTRIBUTES), 1);
	/* {N8 A5:t3 N9 L3:t2}, LRU L3 A5 N8 N9: no dead line, non-PB LRU */
	EVICT(c, L(10), attr(4, F), 0, L(8), 0);
	/* {A10:t4 A5:t3 N9 L3:t2} */
	tiles(c, 1);                                   /* position 2 finished: L3 dead */
	EVICT(c, L(11), attr(5, F), 3, L(3), 0);       /* dead before non-PB N9 */
	assert_int_equal(discards(c, TSR_STREAM_PB_LISTS), 1);
	assert_int_equal(writebacks(c, TSR_STREAM_PB_LISTS), 0);
	/* {A10:t4 A5:t3 N9 A11:t5}, LRU A5 N9 A10 A11; A5 (t3) live */
	EVICT(c, L(12), attr(6, F), 2, L(9), 0);
	/* all live, LRU A5 A10 A11 A12; A5 is clean: no write-back */
	EVICT(c, L(13), attr(6, F), 1, L(5), 0);
	assert_int_equal(writebacks(c, TSR_STREAM_PB_ATTRIBUTES), 1);
	/* LRU A10 A11 A12 A13: A10 dirty and live */
	EVICT(c, L(14), attr(6, F), 0, L(10), 1);
	assert_int_equal(writebacks(c, TSR_STREAM_PB_ATTRIBUTES), 2);
	assert_int_equal(discards(c, TSR_STREAM_PB_ATTRIBUTES), 2);

	struct tsr_cache_counters t = tsr_cache_counters_total(c);
	assert_int_equal(t.discards, 3);
	assert_int_equal(t.writebacks, 2);
	assert_int_equal(t.bypasses, 0);
	tsr_cache_destroy(c);
}

/*
 * The Parameter Buffer of an earlier frame is dead (tessera's choice),
 * whatever its last tile; frames compare mod 2^14 like the metadata.
 */
static void test_earlier_frame_is_dead(void **state)
{
	(void)state;
	struct tsr_cache *c = make_cache(1, 4);
	frame(c, 4);
	tiles(c, 1);
	FILL(c, L(0), attr(9, 4), 0);
	FILL(c, L(1), 0, 1);
	FILL(c, L(2), lists(9, 4), 2);
	FILL(c, L(3), attr(9, 4), 3);
	/* frame 4 current, nothing finished beyond position 8: only N1 goes */
	EVICT(c, L(4), 0, 1, L(1), 0);
	/* {A0:t9/4 N4 L2:t9/4 A3:t9/4}, LRU A0 L2 A3 N4 */
	frame(c, 5);                                   /* no tile started yet */
	EVICT(c, L(5), attr(0, 5), 0, L(0), 0);        /* frame 4: dead, discarded */
	EVICT(c, L(6), 0, 2, L(2), 0);                 /* dead before non-PB N4 */
	/* {A5:t0/5 N4 N6 A3:t9/4}, LRU A3 N4 A5 N6 */
	HIT(c, L(3), attr(9, 4));                      /* a hit keeps frame 4's tag */
	/* LRU N4 A5 N6 A3: the dead MRU line before older ones */
	EVICT(c, L(7), attr(0, 5), 3, L(3), 0);
	assert_int_equal(discards(c, TSR_STREAM_PB_ATTRIBUTES), 2);
	assert_int_equal(discards(c, TSR_STREAM_PB_LISTS), 1);
	assert_int_equal(tsr_cache_counters_total(c).writebacks, 0);
	/* {A5:t0/5 N4 N6 A7:t0/5}: frame 5 + 2^14 is frame 5 again */
	frame(c, 5 + (TSR_PB_META_FRAME_MASK + 1));
	EVICT(c, L(8), 0, 1, L(4), 0);                 /* A5 and A7 live: non-PB LRU */
	EVICT(c, L(9), 0, 2, L(6), 0);
	/* {A5 N8 N9 A7}, both PB live, LRU A5 A7 N8 N9 */
	EVICT(c, L(10), attr(0, 5), 1, L(8), 0);
	EVICT(c, L(11), attr(0, 5), 2, L(9), 0);
	/* all live PB: LRU A5 (dirty) */
	EVICT(c, L(12), attr(0, 5), 0, L(5), 1);
	tiles(c, 2);                                   /* position 0 finished: all dead */
	EVICT(c, L(13), 0, 3, L(7), 0);                /* LRU of the dead */
	assert_int_equal(tsr_cache_counters_total(c).discards, 4);
	assert_int_equal(tsr_cache_counters_total(c).writebacks, 1);
	tsr_cache_destroy(c);
}

/* Before any frame marker the frame is unknown: nothing is dead. */
static void test_no_frame_nothing_dead(void **state)
{
	(void)state;
	struct tsr_cache *c = make_cache(1, 4);
	tiles(c, 5);
	FILL(c, L(0), attr(0, 0), 0);
	FILL(c, L(1), lists(0, 0), 1);
	FILL(c, L(2), 0, 2);
	FILL(c, L(3), attr(1, 0), 3);
	EVICT(c, L(4), attr(0, 0), 2, L(2), 0);        /* non-PB first */
	EVICT(c, L(5), attr(0, 0), 0, L(0), 1);        /* then live LRU, written back */
	EVICT(c, L(6), attr(0, 0), 1, L(1), 1);
	assert_int_equal(tsr_cache_counters_total(c).discards, 0);
	assert_int_equal(tsr_cache_counters_total(c).writebacks, 2);
	/* the first frame marker starts counting from none finished */
	frame(c, 0);
	tiles(c, 1);
	EVICT(c, L(7), 0, 3, L(3), 1);                 /* still live */
	tiles(c, 1);                                   /* position 0 finished */
	EVICT(c, L(8), 0, 2, L(4), 0);                 /* dead A4:t0, LRU of the dead */
	assert_int_equal(tsr_cache_counters_total(c).discards, 1);
	tsr_cache_destroy(c);
}

/* LRU within each class, reordered by hits. */
static void test_lru_within_class(void **state)
{
	(void)state;
	const uint32_t F = 7;
	struct tsr_cache *c = make_cache(1, 4);
	frame(c, F);
	tiles(c, 3);                                   /* positions 0, 1 finished */
	FILL(c, L(0), 0, 0);
	FILL(c, L(1), 0, 1);
	FILL(c, L(2), attr(0, F), 2);
	FILL(c, L(3), lists(1, F), 3);
	/* {N0 N1 D2 D3}, dead D2 D3 */
	HIT(c, L(2), attr(0, F));                      /* dead LRU now D3 */
	EVICT(c, L(4), attr(9, F), 3, L(3), 0);
	EVICT(c, L(5), attr(9, F), 2, L(2), 0);
	/* {N0 N1 A5 A4}, LRU N0 N1 A4 A5 */
	HIT(c, L(0), 0);                               /* non-PB LRU now N1 */
	EVICT(c, L(6), attr(9, F), 1, L(1), 0);
	EVICT(c, L(7), attr(9, F), 0, L(0), 0);
	/* {A7 A6 A5 A4}, all live, LRU A4 A5 A6 A7 */
	HIT(c, L(4), attr(9, F));
	HIT(c, L(6), attr(9, F));
	/* LRU A5 A7 A4 A6 */
	EVICT(c, L(8), attr(9, F), 2, L(5), 1);
	EVICT(c, L(9), attr(9, F), 0, L(7), 1);
	EVICT(c, L(10), attr(9, F), 3, L(4), 1);
	EVICT(c, L(11), attr(9, F), 1, L(6), 1);
	/* a line's class follows its last access: A9 re-tagged with tile 0 is dead */
	HIT(c, L(9), attr(0, F));
	EVICT(c, L(12), attr(9, F), 0, L(9), 0);
	assert_int_equal(tsr_cache_counters_total(c).discards, 3);
	tsr_cache_destroy(c);
}

/*
 * The hooks on a hand-made tag store: the returned way carries
 * TSR_POLICY_DISCARD exactly when the victim is dead, and equal stamps
 * (lines never stamped) go to the lowest way.
 */
static void test_hooks_directly(void **state)
{
	(void)state;
	const struct tsr_policy_ops *ops;
	void *st = tsr_test_policy_state("tcor-l2", 2, 4, LINE, NULL, &ops);
	struct tsr_line lines[4];
	memset(lines, 0, sizeof(lines));
	struct tsr_access a = {.size = 4, .next_use = TSR_NEVER};
	for (uint32_t w = 0; w < 4; w++) {
		lines[w].tag = w;
		lines[w].valid = 1;
		lines[w].meta = attr(w, 3);
	}
	/* no stamps, no frame: all live, tie to way 0 */
	assert_int_equal(ops->victim(st, 1, lines, &a), 0);
	ops->on_marker(st, TSR_MARKER_FRAME, 3);
	ops->on_marker(st, TSR_MARKER_TILE, 0);
	ops->on_marker(st, TSR_MARKER_TILE, 1);
	ops->on_marker(st, TSR_MARKER_TILE, 2);
	/* positions 0, 1 finished: ways 0, 1 dead, tie to way 0 */
	assert_int_equal(ops->victim(st, 1, lines, &a), 0 | TSR_POLICY_DISCARD);
	ops->on_fill(st, 1, 0, lines, &a);
	assert_int_equal(ops->victim(st, 1, lines, &a), 1 | TSR_POLICY_DISCARD);
	ops->on_hit(st, 1, 1, lines, &a);
	assert_int_equal(ops->victim(st, 1, lines, &a), 0 | TSR_POLICY_DISCARD);
	/* set 0 has its own stamps */
	ops->on_fill(st, 0, 0, lines, &a);
	assert_int_equal(ops->victim(st, 0, lines, &a), 1 | TSR_POLICY_DISCARD);
	/* no dead line: a non-PB line, without the flag */
	lines[0].meta = attr(5, 3);
	lines[1].meta = lists(5, 3);
	lines[3].meta = 0;
	assert_int_equal(ops->victim(st, 1, lines, &a), 3);
	ops->on_marker(st, TSR_MARKER_FRAME, 4);       /* frame 3's lines are dead */
	assert_int_equal(ops->victim(st, 1, lines, &a), 2 | TSR_POLICY_DISCARD);
	ops->destroy(st);
}

static void test_name_parameters_online(void **state)
{
	(void)state;
	const struct tsr_policy_ops *ops = tsr_policy_find("tcor-l2");
	assert_ptr_equal(ops, &tsr_policy_tcor_l2);
	assert_string_equal(ops->name, "tcor-l2");
	assert_ptr_equal(tsr_policy_find(ops->name), ops);
	assert_ptr_equal(tsr_policy_find("tcor-l2:x=1"), ops);
	assert_false(ops->offline);
	assert_null(tsr_policy_find("tcor"));
	char list[256];
	tsr_policy_list(list, sizeof(list));
	assert_non_null(strstr(list, "tcor-l2"));

	struct tsr_error err;
	memset(&err, 0, sizeof(err));
	assert_int_equal(tsr_policy_check_online("tcor-l2", "caches.l2.policy", "l2", &err),
			 TSR_OK);

	struct tsr_cache_geometry g = tsr_test_geometry(4, 4, LINE, "tcor-l2:x=1");
	struct tsr_cache *c = NULL;
	assert_int_equal(tsr_cache_create(&g, "l2", &c, &err), TSR_ERR_CONFIG);
	assert_null(c);
	assert_non_null(strstr(err.msg, "'x'"));
	assert_non_null(strstr(err.msg, "tcor-l2"));
	assert_non_null(strstr(err.msg, "valid: none"));
	g = tsr_test_geometry(4, 4, LINE, "tcor-l2");
	assert_int_equal(tsr_cache_geometry_check(&g, "l2", &err), TSR_OK);
}

/*
 * A long mixed stream with markers on a 16-set x 4-way cache: a dirty
 * victim is discarded exactly when it is dead (an earlier frame's, or its
 * last tile finished) and written back otherwise; runs are reproducible
 * (and clean under ASan).
 */
static uint64_t run_stream(void)
{
	struct tsr_cache *c = make_cache(16, 4);
	struct tsr_rng r;
	tsr_rng_seed(&r, 62);
	uint32_t f = 0, started = 0;
	uint64_t misses = 0, dead_victims = 0;
	frame(c, f);
	for (int i = 0; i < 6000; i++) {
		if (i % 1500 == 0 && i) {
			frame(c, ++f);
			started = 0;
		}
		if (i % 100 == 0) {
			tsr_cache_marker(c, TSR_MARKER_TILE, 15 - started);
			started++;
		}
		uint32_t kind = tsr_rng_below(&r, 3);
		uint32_t meta = kind == 0 ? 0 : tsr_pb_meta((enum tsr_pb_type)kind,
							       tsr_rng_below(&r, 16), f);
		uint64_t k = tsr_rng_below(&r, 200);
		struct tsr_access a = {.addr = L(k), .size = 4,
				       .write = (uint8_t)(kind != 0 && tsr_rng_below(&r, 2)),
				       .stream = (uint8_t)stream_of(meta), .meta = meta,
				       .next_use = TSR_NEVER};
		uint64_t before = tsr_cache_counters_total(c).discards;
		struct tsr_cache_outcome o;
		tsr_cache_access(c, &a, &o);
		assert_true(o.way < 4);
		if (o.hit)
			continue;
		misses++;
		if (!o.evicted)
			continue;
		uint32_t vm = o.victim_meta;
		int dead = tsr_pb_meta_type(vm) != TSR_PB_NONE &&
			   (tsr_pb_meta_frame(vm) != f || tsr_pb_meta_last_tile(vm) + 1 < started);
		dead_victims += (uint64_t)dead;
		uint64_t discarded = tsr_cache_counters_total(c).discards - before;
		if (o.writeback)
			assert_false(dead);
		if (discarded)
			assert_true(dead);
		assert_true(discarded + o.writeback <= 1);
	}
	struct tsr_cache_counters t = tsr_cache_counters_total(c);
	assert_true(t.discards > 0);
	assert_true(t.writebacks > 0);
	assert_true(dead_victims >= t.discards);
	uint64_t sig = misses * 1000003u + t.discards * 1009u + t.writebacks;
	tsr_cache_destroy(c);
	return sig;
}

static void test_stream_reproducible(void **state)
{
	(void)state;
	assert_int_equal(run_stream(), run_stream());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes_and_discards),
		cmocka_unit_test(test_earlier_frame_is_dead),
		cmocka_unit_test(test_no_frame_nothing_dead),
		cmocka_unit_test(test_lru_within_class),
		cmocka_unit_test(test_hooks_directly),
		cmocka_unit_test(test_name_parameters_online),
		cmocka_unit_test(test_stream_reproducible),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
