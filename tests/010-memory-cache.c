/*
 * 010-memory-cache.c - the cache model (src/memory/cache.c) and the
 * hierarchy that wires caches together (src/memory/memsys.c).
 *
 * Most tests replay short, hand-computed access sequences on a tiny cache:
 * 2 sets x 2 ways x 64-byte lines (256 bytes), LRU. With that geometry the
 * set of an address is bit 6, so lines 0x1000, 0x1080, 0x1100, 0x1180 all
 * map to set 0 and 0x1040, 0x10c0 to set 1. Every expected count below is
 * worked out by hand in the comments next to the accesses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "memory/cache.h"
#include "memory/memsys.h"
#include "timing/mempath.h"

/* Lines of the tiny cache (see the file comment). */
#define SET0_A 0x1000u
#define SET0_B 0x1080u
#define SET0_C 0x1100u
#define SET1_D 0x1040u

static struct tsr_cache_geometry geometry(uint32_t size, uint32_t ways,
					  uint32_t line, uint32_t fetch_on_write,
					  const char *policy)
{
	struct tsr_cache_geometry g;
	memset(&g, 0, sizeof(g));
	g.size_bytes = size;
	g.ways = ways;
	g.line_bytes = line;
	g.latency_cycles = 1;
	g.fetch_on_write = fetch_on_write;
	snprintf(g.policy, sizeof(g.policy), "%s", policy);
	return g;
}

/* The 2-set x 2-way, 64-byte-line LRU cache most tests use. */
static struct tsr_cache *tiny_cache(uint32_t fetch_on_write)
{
	struct tsr_cache_geometry g = geometry(256, 2, 64, fetch_on_write, "lru");
	struct tsr_cache *c = NULL;
	struct tsr_error err;
	enum tsr_status s = tsr_cache_create(&g, "tiny", &c, &err);
	if (s != TSR_OK)
		print_error("%s\n", err.msg);
	assert_int_equal(s, TSR_OK);
	assert_non_null(c);
	assert_int_equal(tsr_cache_sets(c), 2);
	return c;
}

/* One access; returns its outcome. */
static struct tsr_cache_outcome acc(struct tsr_cache *c, uint64_t addr,
				    uint32_t size, int write,
				    enum tsr_stream s)
{
	struct tsr_access a = {.addr = addr, .size = size, .write = (uint8_t)write,
			       .stream = (uint8_t)s, .next_use = TSR_NEVER};
	struct tsr_cache_outcome o;
	memset(&o, 0xa5, sizeof(o));
	tsr_cache_access(c, &a, &o);
	return o;
}

static int rd_hit(struct tsr_cache *c, uint64_t addr)
{
	return acc(c, addr, 4, 0, TSR_STREAM_OTHER).hit;
}

/* Checks a counter set; failures are reported at the caller's line. */
static void check_counters(const struct tsr_cache_counters *k, uint64_t reads,
			   uint64_t writes, uint64_t read_misses,
			   uint64_t write_misses, uint64_t writebacks,
			   const char *file, int line)
{
	_assert_int_equal(k->reads, reads, file, line);
	_assert_int_equal(k->writes, writes, file, line);
	_assert_int_equal(k->read_misses, read_misses, file, line);
	_assert_int_equal(k->write_misses, write_misses, file, line);
	_assert_int_equal(k->writebacks, writebacks, file, line);
	_assert_int_equal(k->bypasses, 0, file, line);
}

/* reads, writes, read misses, write misses, write-backs (no bypasses) */
#define assert_counters(k, r, w, rm, wm, wb) \
	check_counters((k), (r), (w), (rm), (wm), (wb), __FILE__, __LINE__)

/* ---------------------------------------------------------------- cache */

static void test_read_hits_and_misses(void **state)
{
	(void)state;
	struct tsr_cache *c = tiny_cache(1);
	assert_false(rd_hit(c, SET0_A));        /* miss: set0 = {A} */
	assert_true(rd_hit(c, SET0_A + 60));    /* hit, same line */
	assert_false(rd_hit(c, SET1_D));        /* miss: set1 = {D} */
	assert_false(rd_hit(c, SET0_B));        /* miss: set0 = {A, B} */
	assert_true(rd_hit(c, SET0_A + 8));     /* hit (A now MRU) */
	assert_true(rd_hit(c, SET0_B));         /* hit (B now MRU) */
	assert_true(rd_hit(c, SET1_D + 32));    /* hit */
	const struct tsr_cache_counters *k = tsr_cache_counters_of(c, TSR_STREAM_OTHER);
	assert_counters(k, 7, 0, 3, 0, 0);
	tsr_cache_destroy(c);
}

static void test_lru_victim(void **state)
{
	(void)state;
	struct tsr_cache *c = tiny_cache(1);
	rd_hit(c, SET0_A);                      /* miss {A} */
	rd_hit(c, SET0_B);                      /* miss {A, B}, LRU = A */
	assert_true(rd_hit(c, SET0_A));         /* hit, LRU = B */
	struct tsr_cache_outcome o = acc(c, SET0_C, 4, 0, TSR_STREAM_OTHER);
	assert_false(o.hit);                    /* C evicts B (LRU), not A */
	assert_true(o.fetch);
	assert_false(o.writeback);              /* B was clean */
	assert_false(o.bypass);
	assert_true(rd_hit(c, SET0_A));         /* A survived; LRU = C */
	assert_false(rd_hit(c, SET0_B));        /* B was evicted; evicts C */
	assert_true(rd_hit(c, SET0_A));         /* A still there; LRU = B */
	assert_false(rd_hit(c, SET0_C));        /* C was evicted; evicts B */
	assert_false(rd_hit(c, SET0_B));        /* evicts A (LRU) */
	assert_false(rd_hit(c, SET0_A));
	/* set 1 was never touched */
	assert_false(rd_hit(c, SET1_D));
	const struct tsr_cache_counters *k = tsr_cache_counters_of(c, TSR_STREAM_OTHER);
	assert_counters(k, 11, 0, 8, 0, 0);

	/* invalidate_all empties the cache without write-backs */
	tsr_cache_invalidate_all(c);
	assert_false(rd_hit(c, SET0_A));
	assert_int_equal(k->read_misses, 9);
	tsr_cache_destroy(c);
}

static void test_write_miss_and_dirty_writeback(void **state)
{
	(void)state;
	struct tsr_cache *c = tiny_cache(1);
	/* partial write miss, write-allocate: the line must be fetched */
	struct tsr_cache_outcome o = acc(c, SET0_A + 0x10, 4, 1, TSR_STREAM_VERTEX);
	assert_false(o.hit);
	assert_true(o.fetch);
	assert_false(o.writeback);
	o = acc(c, SET0_B, 8, 0, TSR_STREAM_TEXTURE);        /* read miss {A*, B} */
	assert_false(o.hit);
	assert_false(o.writeback);
	o = acc(c, SET0_B + 4, 4, 1, TSR_STREAM_TEXTURE);    /* write hit: B dirty, MRU */
	assert_true(o.hit);
	assert_false(o.fetch);
	/* C evicts A (LRU, dirty, filled by the vertex stream) */
	o = acc(c, SET0_C, 4, 0, TSR_STREAM_INDEX);
	assert_false(o.hit);
	assert_true(o.fetch);
	assert_true(o.writeback);
	assert_int_equal(o.victim_addr, SET0_A);             /* line address */
	assert_int_equal(o.victim_stream, TSR_STREAM_VERTEX);
	/* A evicts B (dirty through a texture write) */
	o = acc(c, SET0_A, 4, 0, TSR_STREAM_INDEX);
	assert_true(o.writeback);
	assert_int_equal(o.victim_addr, SET0_B);
	assert_int_equal(o.victim_stream, TSR_STREAM_TEXTURE);
	/* B evicts C, which is clean */
	o = acc(c, SET0_B, 4, 0, TSR_STREAM_INDEX);
	assert_false(o.writeback);

	assert_counters(tsr_cache_counters_of(c, TSR_STREAM_VERTEX), 0, 1, 0, 1, 1);
	assert_counters(tsr_cache_counters_of(c, TSR_STREAM_TEXTURE), 1, 1, 1, 0, 1);
	assert_counters(tsr_cache_counters_of(c, TSR_STREAM_INDEX), 3, 0, 3, 0, 0);
	tsr_cache_destroy(c);
}

static void test_fetch_on_write(void **state)
{
	(void)state;
	struct tsr_cache *c = tiny_cache(1);
	/* a full-line write miss needs no fetch even with fetch_on_write */
	struct tsr_cache_outcome o = acc(c, SET0_A, 64, 1, TSR_STREAM_COLOR);
	assert_false(o.hit);
	assert_false(o.fetch);
	/* a partial write miss does */
	o = acc(c, SET1_D + 4, 60, 1, TSR_STREAM_COLOR);
	assert_false(o.hit);
	assert_true(o.fetch);
	/* a read miss always fetches */
	o = acc(c, SET0_B, 64, 0, TSR_STREAM_COLOR);
	assert_true(o.fetch);
	assert_counters(tsr_cache_counters_of(c, TSR_STREAM_COLOR), 1, 2, 1, 2, 0);
	tsr_cache_destroy(c);

	/* fetch_on_write = 0: no write miss fetches */
	c = tiny_cache(0);
	o = acc(c, SET0_A + 4, 4, 1, TSR_STREAM_COLOR);
	assert_false(o.hit);
	assert_false(o.fetch);
	o = acc(c, SET0_A + 4, 4, 0, TSR_STREAM_COLOR);      /* written bytes: hit */
	assert_true(o.hit);
	o = acc(c, SET0_B, 4, 0, TSR_STREAM_COLOR);
	assert_true(o.fetch);
	tsr_cache_destroy(c);
}

/*
 * Byte-masked write-allocate (fetch_on_write = 0, TCOR Fig. 10): a line
 * filled only by writes is never read from below; a read of bytes never
 * written merges; a partly written dirty victim carries its mask.
 */
static void test_byte_masked_write_allocate(void **state)
{
	(void)state;
	struct tsr_cache *c = tiny_cache(0);
	/* sixteen 4-byte writes fill line A: no fetch, then every read hits */
	for (uint32_t i = 0; i < 16; i++) {
		struct tsr_cache_outcome o = acc(c, SET0_A + 4 * i, 4, 1, TSR_STREAM_PB_LISTS);
		assert_false(o.fetch);
		assert_int_equal(o.hit, i > 0);
	}
	struct tsr_cache_outcome o = acc(c, SET0_A, 64, 0, TSR_STREAM_PB_LISTS);
	assert_true(o.hit);
	assert_false(o.fetch);
	/* line B: bytes 0-47 written (one 48-byte write), 48-63 never */
	o = acc(c, SET0_B, 48, 1, TSR_STREAM_PB_ATTRIBUTES);
	assert_false(o.fetch);
	o = acc(c, SET0_B + 16, 32, 0, TSR_STREAM_PB_ATTRIBUTES);  /* inside the mask */
	assert_true(o.hit);
	/* a read that needs byte 48 merges: fetched, no victim, then whole */
	o = acc(c, SET0_B + 40, 16, 0, TSR_STREAM_PB_ATTRIBUTES);
	assert_false(o.hit);
	assert_true(o.fetch);
	assert_true(o.merge);
	assert_false(o.evicted);
	o = acc(c, SET0_B + 60, 4, 0, TSR_STREAM_PB_ATTRIBUTES);
	assert_true(o.hit);
	const struct tsr_cache_counters *k = tsr_cache_counters_of(c, TSR_STREAM_PB_ATTRIBUTES);
	assert_counters(k, 3, 1, 1, 1, 0);
	assert_int_equal(k->merges, 1);
	assert_int_equal(tsr_cache_counters_of(c, TSR_STREAM_PB_LISTS)->merges, 0);
	/* line C: two runs written (0-7, 32-35); evicting it reports the mask */
	acc(c, SET0_C, 8, 1, TSR_STREAM_PB_LISTS);         /* evicts A (LRU), whole */
	acc(c, SET0_C + 32, 4, 1, TSR_STREAM_PB_LISTS);
	o = acc(c, SET0_A, 4, 0, TSR_STREAM_TEXTURE);        /* evicts B, whole */
	assert_true(o.writeback);
	assert_int_equal(o.victim_mask, 0);
	o = acc(c, SET0_B, 4, 0, TSR_STREAM_TEXTURE);        /* evicts C, partial */
	assert_true(o.writeback);
	assert_int_equal(o.victim_addr, SET0_C);
	assert_int_equal(o.victim_mask, UINT64_C(0xf000000ff));
	uint32_t offs[32], sizes[32];
	assert_int_equal(tsr_cache_mask_runs(c, o.victim_mask, offs, sizes), 2);
	assert_int_equal(offs[0], 0);
	assert_int_equal(sizes[0], 8);
	assert_int_equal(offs[1], 32);
	assert_int_equal(sizes[1], 4);
	tsr_cache_destroy(c);

	/* 256-byte lines: 4-byte granules; a write of part of one fetches */
	struct tsr_cache_geometry g = geometry(1024, 2, 256, 0, "lru");
	assert_int_equal(tsr_cache_create(&g, "wide", &c, NULL), TSR_OK);
	o = acc(c, 0x400, 8, 1, TSR_STREAM_PB_LISTS);
	assert_false(o.fetch);
	o = acc(c, 0x40a, 2, 1, TSR_STREAM_PB_LISTS);         /* half a granule */
	assert_true(o.merge);
	o = acc(c, 0x800, 6, 1, TSR_STREAM_PB_LISTS);         /* miss, half a granule */
	assert_true(o.fetch);
	assert_false(o.merge);
	tsr_cache_destroy(c);
}

static void test_per_stream_counters_and_total(void **state)
{
	(void)state;
	struct tsr_cache *c = tiny_cache(1);
	acc(c, SET0_A, 4, 0, TSR_STREAM_INDEX);       /* miss */
	acc(c, SET0_A + 4, 4, 0, TSR_STREAM_VERTEX);  /* hit (line filled by index) */
	acc(c, SET1_D, 4, 1, TSR_STREAM_VERTEX);      /* write miss: D dirty, vertex */
	acc(c, SET0_B, 4, 0, TSR_STREAM_PB_LISTS);    /* miss {A, B} */
	acc(c, SET0_C, 4, 1, TSR_STREAM_PB_LISTS);    /* write miss, evicts A (clean) */
	acc(c, SET1_D + 0x80, 4, 0, TSR_STREAM_PB_LISTS); /* 0x10c0: set1 {D, E} */
	acc(c, SET1_D + 0x100, 4, 0, TSR_STREAM_PB_LISTS); /* 0x1140: evicts D, dirty */
	acc(c, SET0_C, 4, 0, TSR_STREAM_TEXTURE);     /* hit */

	assert_counters(tsr_cache_counters_of(c, TSR_STREAM_INDEX), 1, 0, 1, 0, 0);
	/* D's write-back is counted on the vertex stream that dirtied it */
	assert_counters(tsr_cache_counters_of(c, TSR_STREAM_VERTEX), 1, 1, 0, 1, 1);
	assert_counters(tsr_cache_counters_of(c, TSR_STREAM_PB_LISTS), 3, 1, 3, 1, 0);
	assert_counters(tsr_cache_counters_of(c, TSR_STREAM_TEXTURE), 1, 0, 0, 0, 0);
	assert_counters(tsr_cache_counters_of(c, TSR_STREAM_COLOR), 0, 0, 0, 0, 0);
	struct tsr_cache_counters t = tsr_cache_counters_total(c);
	assert_counters(&t, 6, 2, 4, 2, 1);
	tsr_cache_destroy(c);
}

/* Checks that creating a cache with g fails with want, naming `name`. */
static void create_fails(const struct tsr_cache_geometry *g, const char *name,
			 enum tsr_status want)
{
	struct tsr_error err;
	memset(&err, 0, sizeof(err));
	assert_int_equal(tsr_cache_geometry_check(g, name, &err), want);
	assert_non_null(strstr(err.msg, name));
	memset(&err, 0, sizeof(err));
	struct tsr_cache *c = (struct tsr_cache *)&err;  /* must become NULL */
	assert_int_equal(tsr_cache_create(g, name, &c, &err), want);
	assert_null(c);
	assert_non_null(strstr(err.msg, name));
}

static void test_geometry_errors(void **state)
{
	(void)state;
	struct tsr_error err;
	struct tsr_cache_geometry g = geometry(256, 2, 64, 1, "lru");
	assert_int_equal(tsr_cache_geometry_check(&g, "caches.ok", &err), TSR_OK);

	g = geometry(200, 2, 64, 1, "lru");       /* 200 % 128 != 0 */
	create_fails(&g, "caches.vertex", TSR_ERR_GEOMETRY);
	g = geometry(384, 2, 64, 1, "lru");       /* 3 sets */
	create_fails(&g, "caches.texture", TSR_ERR_GEOMETRY);
	g = geometry(3 * 64, 3, 64, 1, "lru");    /* 1 set of 3 ways is fine */
	assert_int_equal(tsr_cache_geometry_check(&g, "caches.ok", &err), TSR_OK);
	g = geometry(256, 2, 48, 1, "lru");       /* line not a power of two */
	create_fails(&g, "caches.l2", TSR_ERR_GEOMETRY);
	g = geometry(0, 2, 64, 1, "lru");
	create_fails(&g, "caches.tile", TSR_ERR_GEOMETRY);
	g = geometry(256, 2, 64, 1, "no-such-policy");
	create_fails(&g, "caches.instruction", TSR_ERR_CONFIG);
	memset(&err, 0, sizeof(err));
	tsr_cache_geometry_check(&g, "caches.instruction", &err);
	assert_non_null(strstr(err.msg, "no-such-policy"));
	assert_non_null(strstr(err.msg, "lru"));   /* lists the valid policies */

	/* issue 12 item 3: at most TSR_LIMIT_CACHE_WAYS ways (a lookup scans them) */
	g = geometry(16384 * 64, 16384, 64, 1, "lru");
	assert_int_equal(tsr_cache_geometry_check(&g, "caches.ok", &err), TSR_OK);
	g = geometry(32768 * 64, 32768, 64, 1, "lru");
	create_fails(&g, "caches.full", TSR_ERR_GEOMETRY);
	assert_int_equal(tsr_cache_geometry_check(&g, "caches.full", &err), TSR_ERR_GEOMETRY);
	assert_non_null(strstr(err.msg, "32768 ways is more than the limit of 16384"));
	/* a tag store over the memory budget is an error before any allocation */
	setenv("TESSERA_MEMORY_LIMIT", "1M", 1);
	g = geometry(1u << 30, 8, 64, 1, "lru");  /* 16 M lines */
	create_fails(&g, "caches.huge", TSR_ERR_LIMIT);
	assert_int_equal(tsr_cache_geometry_check(&g, "caches.huge", &err), TSR_ERR_LIMIT);
	unsetenv("TESSERA_MEMORY_LIMIT");
	assert_non_null(strstr(err.msg, "the tag store of cache 'caches.huge' needs"));
	assert_non_null(strstr(err.msg, "memory limit of 1.0 MiB"));
}

/*
 * Caches of more than 64 ways find lines through a hash index (issue 12
 * item 3: a fully associative cache's lookup cost is bounded). Checked
 * access by access against a reference LRU that scans: hits, fills into
 * the first invalid way, victims and write-backs, across two sets, with
 * evictions that reorder the index's probe chains, and after
 * tsr_cache_invalidate_all().
 */
static void test_indexed_lookup_matches_scan(void **state)
{
	(void)state;
	enum { WAYS = 128, SETS = 2, LINES = 300 };
	struct tsr_cache_geometry g = geometry(WAYS * SETS * 64, WAYS, 64, 1, "lru");
	struct tsr_cache *c = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_cache_create(&g, "wide", &c, &err), TSR_OK);
	struct {
		uint64_t tag, stamp;
		int valid, dirty;
	} ref[SETS][WAYS];
	uint64_t x = 88172645463325252ull, clock = 0;
	for (int round = 0; round < 2; round++) {
		memset(ref, 0, sizeof(ref));
		for (int i = 0; i < 40000; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			uint64_t tag = (x >> 8) % LINES * 7919;  /* spread over the index */
			int write = (x >> 3) % 4 == 0;
			struct tsr_cache_outcome o = acc(c, tag * 64, 64, write, TSR_STREAM_OTHER);
			uint32_t set = (uint32_t)(tag % SETS);
			int way = -1, inv = -1, old = -1;
			for (int w = 0; w < WAYS; w++) {
				if (ref[set][w].valid && ref[set][w].tag == tag)
					way = w;
				else if (!ref[set][w].valid && inv < 0)
					inv = w;
				if (ref[set][w].valid &&
				    (old < 0 || ref[set][w].stamp < ref[set][old].stamp))
					old = w;
			}
			assert_int_equal(o.hit, way >= 0);
			if (way < 0) {
				way = inv >= 0 ? inv : old;
				assert_int_equal(o.evicted, inv < 0);
				if (inv < 0) {
					assert_int_equal(o.victim_addr, ref[set][old].tag * 64);
					assert_int_equal(o.writeback, ref[set][old].dirty);
				}
				ref[set][way].tag = tag;
				ref[set][way].valid = 1;
				ref[set][way].dirty = 0;
			}
			assert_int_equal(o.way, way);
			ref[set][way].dirty |= write;
			ref[set][way].stamp = ++clock;
		}
		tsr_cache_invalidate_all(c);
	}
	tsr_cache_destroy(c);
}

/* --------------------------------------------------------------- memsys */

/*
 * The default tree (tsr_memsys_config_defaults) for `cores` cores with the
 * given geometries of vertex, tile, texture, instruction and l2.
 */
static void tree_config(struct tsr_memsys_config *cfg, uint32_t cores,
			struct tsr_cache_geometry vertex, struct tsr_cache_geometry tile,
			struct tsr_cache_geometry texture, struct tsr_cache_geometry instruction,
			struct tsr_cache_geometry l2)
{
	tsr_memsys_config_defaults(cfg, cores);
	tsr_memsys_config_cache(cfg, "vertex")->geom = vertex;
	tsr_memsys_config_cache(cfg, "tile")->geom = tile;
	tsr_memsys_config_cache(cfg, "texture")->geom = texture;
	tsr_memsys_config_cache(cfg, "instruction")->geom = instruction;
	tsr_memsys_config_cache(cfg, "l2")->geom = l2;
}

/*
 * A one-core hierarchy whose L1s are the tiny cache, with the given L2
 * (tiny_memsys: 4 KiB 4-way, 16 sets). Caches: 0 vertex, 1 tile, 2 texture0, 3 instruction0,
 * 4 l2.
 */
static struct tsr_memsys *memsys_with_l2(uint32_t l2_size, uint32_t l2_ways)
{
	struct tsr_memsys_config cfg;
	const struct tsr_cache_geometry l1 = geometry(256, 2, 64, 1, "lru");
	tree_config(&cfg, 1, l1, l1, l1, l1, geometry(l2_size, l2_ways, 64, 1, "lru"));
	struct tsr_memsys *m = NULL;
	struct tsr_error err;
	enum tsr_status s = tsr_memsys_create(&cfg, &m, &err);
	if (s != TSR_OK)
		print_error("%s\n", err.msg);
	assert_int_equal(s, TSR_OK);
	assert_int_equal(tsr_memsys_cache_count(m), 5);
	assert_int_equal(tsr_memsys_port(m, TSR_STREAM_VERTEX, 0), 0);
	assert_int_equal(tsr_memsys_port(m, TSR_STREAM_INDEX, 0), 0);
	assert_int_equal(tsr_memsys_port(m, TSR_STREAM_PB_LISTS, 0), 1);
	assert_int_equal(tsr_memsys_port(m, TSR_STREAM_TEXTURE, 0), 2);
	assert_int_equal(tsr_memsys_port(m, TSR_STREAM_INSTRUCTION, 0), 3);
	assert_int_equal(tsr_memsys_port(m, TSR_STREAM_COLOR, 0), TSR_PORT_DRAM);
	assert_int_equal(tsr_memsys_port(m, TSR_ROUTE_ATTRIBUTE_CACHE, 0), 4);
	assert_int_equal(tsr_memsys_cache_level(m, 0), 1);
	assert_int_equal(tsr_memsys_cache_level(m, 4), 2);
	assert_string_equal(tsr_cache_name(tsr_memsys_cache(m, 4)), "l2");
	return m;
}

static struct tsr_memsys *tiny_memsys(void)
{
	return memsys_with_l2(4096, 4);
}

static const struct tsr_cache_counters *mcnt(const struct tsr_memsys *m,
					     uint32_t cache, enum tsr_stream s)
{
	return tsr_cache_counters_of(tsr_memsys_cache(m, cache), s);
}

static void test_memsys_read_miss_goes_to_l2_and_dram(void **state)
{
	(void)state;
	struct tsr_memsys *m = tiny_memsys();
	tsr_mem_access(m, 0, SET0_A + 8, 4, 0, TSR_STREAM_VERTEX, 0, 0, NULL);
	assert_counters(mcnt(m, 0, TSR_STREAM_VERTEX), 1, 0, 1, 0, 0);
	assert_counters(mcnt(m, 4, TSR_STREAM_VERTEX), 1, 0, 1, 0, 0);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_VERTEX)->read_bytes, 64);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_VERTEX)->write_bytes, 0);
	assert_int_equal(tsr_memsys_accesses(m), 2);
	/* an L1 hit goes no further */
	tsr_mem_access(m, 0, SET0_A + 40, 8, 0, TSR_STREAM_VERTEX, 0, 0, NULL);
	assert_counters(mcnt(m, 0, TSR_STREAM_VERTEX), 2, 0, 1, 0, 0);
	assert_counters(mcnt(m, 4, TSR_STREAM_VERTEX), 1, 0, 1, 0, 0);
	assert_int_equal(tsr_memsys_accesses(m), 3);
	/* another L1 (texture0) missing on the same line hits in the L2 */
	tsr_mem_access(m, 2, SET0_A, 4, 0, TSR_STREAM_TEXTURE, 0, 0, NULL);
	assert_counters(mcnt(m, 2, TSR_STREAM_TEXTURE), 1, 0, 1, 0, 0);
	assert_counters(mcnt(m, 4, TSR_STREAM_TEXTURE), 1, 0, 0, 0, 0);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_TEXTURE)->read_bytes, 0);
	assert_int_equal(tsr_memsys_accesses(m), 5);
	tsr_memsys_destroy(m);
}

static void test_memsys_split_across_lines(void **state)
{
	(void)state;
	struct tsr_memsys *m = tiny_memsys();
	/* 0x1030..0x104f: bytes 0x30..0x3f of line 0x1000 and 0x00..0x0f of 0x1040 */
	tsr_mem_access(m, 0, SET0_A + 0x30, 32, 0, TSR_STREAM_INDEX, 0, 0, NULL);
	assert_counters(mcnt(m, 0, TSR_STREAM_INDEX), 2, 0, 2, 0, 0);
	assert_counters(mcnt(m, 4, TSR_STREAM_INDEX), 2, 0, 2, 0, 0);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_INDEX)->read_bytes, 128);
	/* 0x103c..0x1043 is split too; both lines are now in the L1: 2 hits */
	tsr_mem_access(m, 0, SET0_A + 0x3c, 8, 0, TSR_STREAM_INDEX, 0, 0, NULL);
	assert_counters(mcnt(m, 0, TSR_STREAM_INDEX), 4, 0, 2, 0, 0);
	assert_counters(mcnt(m, 4, TSR_STREAM_INDEX), 2, 0, 2, 0, 0);
	/* a line-aligned 64-byte access is one access */
	tsr_mem_access(m, 0, SET0_A, 64, 0, TSR_STREAM_INDEX, 0, 0, NULL);
	assert_counters(mcnt(m, 0, TSR_STREAM_INDEX), 5, 0, 2, 0, 0);
	/* 130 bytes from 0x10fe touch three lines: 0x10c0, 0x1100, 0x1140 */
	tsr_mem_access(m, 1, 0x10fe, 130, 0, TSR_STREAM_PB_LISTS, 0, 0, NULL);
	assert_counters(mcnt(m, 1, TSR_STREAM_PB_LISTS), 3, 0, 3, 0, 0);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_PB_LISTS)->read_bytes, 192);
	tsr_memsys_destroy(m);
}

static void test_memsys_dirty_eviction_becomes_l2_write(void **state)
{
	(void)state;
	struct tsr_memsys *m = tiny_memsys();
	/* partial write miss: L1 fetches the line (L2 read miss, DRAM 64) */
	tsr_mem_access(m, 1, SET0_A + 4, 4, 1, TSR_STREAM_PB_LISTS, 0, 0, NULL);
	assert_counters(mcnt(m, 1, TSR_STREAM_PB_LISTS), 0, 1, 0, 1, 0);
	assert_counters(mcnt(m, 4, TSR_STREAM_PB_LISTS), 1, 0, 1, 0, 0);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_PB_LISTS)->read_bytes, 64);
	/* two more lines of set 0 evict the dirty line */
	tsr_mem_access(m, 1, SET0_B, 4, 0, TSR_STREAM_PB_ATTRIBUTES, 0, 0, NULL);
	tsr_mem_access(m, 1, SET0_C, 4, 0, TSR_STREAM_PB_ATTRIBUTES, 0, 0, NULL);
	assert_counters(mcnt(m, 1, TSR_STREAM_PB_LISTS), 0, 1, 0, 1, 1);
	/* the write-back is a full-line L2 write on the victim's stream; the
	 * line is still in the L2, so it hits */
	assert_counters(mcnt(m, 4, TSR_STREAM_PB_LISTS), 1, 1, 1, 0, 0);
	assert_counters(mcnt(m, 4, TSR_STREAM_PB_ATTRIBUTES), 2, 0, 2, 0, 0);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_PB_LISTS)->write_bytes, 0);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_PB_ATTRIBUTES)->read_bytes, 128);
	/* L1: 3 accesses; L2: 1 fill + 2 fills + 1 write-back */
	assert_int_equal(tsr_memsys_accesses(m), 7);
	tsr_memsys_destroy(m);
}

/* The paths a memsys reported (tsr_memsys_set_path_sink). */
struct path_log {
	uint32_t count;
	struct tsr_mem_path p[16];
};

static void log_path(void *ctx, const struct tsr_mem_path *p)
{
	struct path_log *l = ctx;
	if (l->count < 16)
		l->p[l->count] = *p;
	l->count++;
}

/*
 * The timing model's path of each line access (timing/mempath.h): the
 * levels looked up, the first that held the line, DRAM fill bytes and
 * write-backs, one path per line of a split access; the counters are
 * those of the same accesses without a sink.
 */
static void test_memsys_paths(void **state)
{
	(void)state;
	struct tsr_memsys *m = tiny_memsys(), *ref = tiny_memsys();
	struct path_log l = {0};
	tsr_memsys_set_path_sink(m, log_path, &l);
	for (int k = 0; k < 2; k++) {
		struct tsr_memsys *x = k ? ref : m;
		tsr_mem_access(x, 1, SET0_A + 4, 4, 1, TSR_STREAM_PB_LISTS, 0, 0, NULL);
		tsr_mem_access(x, 1, SET0_A + 8, 4, 0, TSR_STREAM_PB_LISTS, 0, 0, NULL);
		tsr_mem_access(x, 1, SET0_B, 4, 0, TSR_STREAM_PB_ATTRIBUTES, 0, 0, NULL);
		tsr_mem_access(x, 1, SET0_C, 4, 0, TSR_STREAM_PB_ATTRIBUTES, 0, 0, NULL);
		tsr_mem_access(x, 0, SET0_A + 0x30, 32, 0, TSR_STREAM_INDEX, 0, 0, NULL);
		tsr_mem_access(x, TSR_PORT_DRAM, 0x9000, 16, 1, TSR_STREAM_COLOR, 0, 0, NULL);
	}
	assert_int_equal(l.count, 7);
	/* write miss, fetch on write: L1 and L2 miss, a 64-byte DRAM fill */
	assert_int_equal(l.p[0].levels, 2);
	assert_int_equal(l.p[0].hit_level, 2);
	assert_int_equal(l.p[0].cache[0], 1);
	assert_int_equal(l.p[0].cache[1], 4);
	assert_int_equal(l.p[0].line[0], SET0_A);
	assert_true(l.p[0].write && l.p[0].fetch);
	assert_int_equal(l.p[0].dram_bytes, 64);
	/* an L1 hit */
	assert_int_equal(l.p[1].levels, 1);
	assert_int_equal(l.p[1].hit_level, 0);
	assert_int_equal(l.p[1].dram_bytes, 0);
	/* the third line of set 0 evicts the dirty SET0_A line into the L2 */
	assert_int_equal(l.p[2].wb_count, 0);
	assert_int_equal(l.p[3].wb_count, 1);
	assert_int_equal(l.p[3].wb[0].addr, SET0_A);
	assert_int_equal(l.p[3].wb[0].from_level, 0);
	assert_int_equal(l.p[3].wb[0].to_dram, 0);
	assert_int_equal(l.p[3].stream, TSR_STREAM_PB_ATTRIBUTES);
	/* a split access: one path per line */
	assert_int_equal(l.p[4].addr, SET0_A + 0x30);
	assert_int_equal(l.p[4].bytes, 16);
	assert_int_equal(l.p[5].addr, SET0_A + 0x40);
	assert_int_equal(l.p[5].line[1], SET0_A + 0x40);
	/* uncached: no level, whole DRAM bursts */
	assert_int_equal(l.p[6].levels, 0);
	assert_int_equal(l.p[6].hit_level, 0);
	assert_int_equal(l.p[6].dram_bytes, 64);
	for (uint32_t c = 0; c < tsr_memsys_cache_count(m); c++) {
		struct tsr_cache_counters a = tsr_cache_counters_total(tsr_memsys_cache(m, c));
		struct tsr_cache_counters b = tsr_cache_counters_total(tsr_memsys_cache(ref, c));
		assert_memory_equal(&a, &b, sizeof(a));
	}
	assert_int_equal(tsr_memsys_accesses(m), tsr_memsys_accesses(ref));
	tsr_memsys_destroy(m);
	tsr_memsys_destroy(ref);
}

/*
 * A paused path sink (tsr_memsys_pause_path_sink, tile sampling's
 * geometry chunks): the accesses until the count are reported to none,
 * plain hits past it neither; the first access past it that misses sets
 * the sink again and is reported; the paused accesses are counted; a
 * paused sink is still the sink, and setting one ends the pause.
 */
static void test_memsys_path_sink_pause(void **state)
{
	(void)state;
	struct tsr_memsys *m = tiny_memsys();
	struct path_log l = {0};
	tsr_memsys_set_path_sink(m, log_path, &l);
	tsr_mem_access(m, 1, SET0_A, 4, 0, TSR_STREAM_PB_LISTS, 0, 0, NULL);  /* miss */
	assert_int_equal(l.count, 1);
	const uint64_t at = tsr_memsys_accesses(m);
	tsr_memsys_pause_path_sink(m, at + 2);
	tsr_mem_path_fn fn;
	void *ctx;
	tsr_memsys_path_sink(m, &fn, &ctx);
	assert_ptr_equal(fn, log_path);
	assert_ptr_equal(ctx, &l);
	tsr_mem_access(m, 1, SET0_A + 8, 4, 0, TSR_STREAM_PB_LISTS, 0, 0, NULL);   /* hit */
	tsr_mem_access(m, 1, SET0_A + 16, 4, 0, TSR_STREAM_PB_LISTS, 0, 0, NULL);  /* hit, count reached */
	tsr_mem_access(m, 1, SET0_A + 24, 4, 0, TSR_STREAM_PB_LISTS, 0, 0, NULL);  /* hit */
	assert_int_equal(l.count, 1);
	assert_int_equal(tsr_memsys_paused_accesses(m), 3);
	tsr_mem_access(m, 1, SET0_B, 4, 0, TSR_STREAM_PB_LISTS, 0, 0, NULL);  /* miss: resumes */
	assert_int_equal(l.count, 2);
	assert_int_equal(l.p[1].addr, SET0_B);
	assert_int_equal(tsr_memsys_paused_accesses(m), 3);
	tsr_mem_access(m, 1, SET0_B + 4, 4, 0, TSR_STREAM_PB_LISTS, 0, 0, NULL);  /* recorded hit */
	assert_int_equal(l.count, 3);
	/* a count already passed: no pause; setting a sink ends one */
	tsr_memsys_pause_path_sink(m, tsr_memsys_accesses(m));
	tsr_mem_access(m, 1, SET0_B + 8, 4, 0, TSR_STREAM_PB_LISTS, 0, 0, NULL);
	assert_int_equal(l.count, 4);
	tsr_memsys_pause_path_sink(m, tsr_memsys_accesses(m) + 100);
	tsr_mem_access(m, 1, SET0_A + 8, 4, 0, TSR_STREAM_PB_LISTS, 0, 0, NULL);
	tsr_memsys_set_path_sink(m, log_path, &l);
	assert_int_equal(tsr_memsys_paused_accesses(m), 4);
	tsr_mem_access(m, 1, SET0_A + 8, 4, 0, TSR_STREAM_PB_LISTS, 0, 0, NULL);
	assert_int_equal(l.count, 5);
	tsr_memsys_destroy(m);
}

/*
 * The Parameter Buffer's writes through a byte-masked L1 and L2: partial
 * lines are written back as their written runs, and the only DRAM reads
 * are those of bytes nobody wrote.
 */
static void test_memsys_byte_masked_writes(void **state)
{
	(void)state;
	struct tsr_memsys_config cfg;
	const struct tsr_cache_geometry l1 = geometry(256, 2, 64, 0, "lru");
	tree_config(&cfg, 1, l1, l1, l1, l1, geometry(4096, 4, 64, 0, "lru"));
	struct tsr_memsys *m = NULL;
	assert_int_equal(tsr_memsys_create(&cfg, &m, NULL), TSR_OK);
	/* PMDs 0-2 of a list (12 bytes), one attribute block written whole */
	for (uint32_t i = 0; i < 3; i++)
		tsr_mem_access(m, 1, SET0_A + 4 * i, 4, 1, TSR_STREAM_PB_LISTS, 0, 0, NULL);
	tsr_mem_access(m, 1, SET0_B, 64, 1, TSR_STREAM_PB_ATTRIBUTES, 0, 0, NULL);
	/* line C evicts A (partial, dirty): one 12-byte write to the L2, a miss
	 * that allocates without a read */
	tsr_mem_access(m, 1, SET0_C, 64, 1, TSR_STREAM_PB_ATTRIBUTES, 0, 0, NULL);
	assert_counters(mcnt(m, 4, TSR_STREAM_PB_LISTS), 0, 1, 0, 1, 0);
	/* the Tile Fetcher reads the 3 PMDs: L1 miss, the fill asks the L2 for
	 * the 12 bytes it holds: a hit */
	tsr_mem_access(m, 1, SET0_A, 12, 0, TSR_STREAM_PB_LISTS, 0, 0, NULL);
	assert_counters(mcnt(m, 4, TSR_STREAM_PB_LISTS), 1, 1, 0, 1, 0);
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		assert_int_equal(tsr_memsys_dram(m, (enum tsr_stream)s)->read_bytes, 0);
	/* a fill makes the L1 line whole; a partly written L1 line merges:
	 * 4 bytes written at D, bytes 4-7 read: the fill misses in the L2 */
	tsr_mem_access(m, 1, SET1_D, 4, 1, TSR_STREAM_PB_LISTS, 0, 0, NULL);
	tsr_mem_access(m, 1, SET1_D + 4, 4, 0, TSR_STREAM_PB_LISTS, 0, 0, NULL);
	assert_int_equal(mcnt(m, 1, TSR_STREAM_PB_LISTS)->merges, 1);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_PB_LISTS)->read_bytes, 64);
	/* L1 set 0 is {C*, A}: reading B evicts C (whole, to the L2), reading C
	 * evicts A (clean); then PMD 3 of A, never written, merges in the L2 */
	tsr_mem_access(m, 1, SET0_B, 4, 0, TSR_STREAM_PB_ATTRIBUTES, 0, 0, NULL);
	tsr_mem_access(m, 1, SET0_C, 4, 0, TSR_STREAM_PB_ATTRIBUTES, 0, 0, NULL);
	tsr_mem_access(m, 1, SET0_A + 12, 4, 0, TSR_STREAM_PB_LISTS, 0, 0, NULL);
	assert_int_equal(mcnt(m, 4, TSR_STREAM_PB_LISTS)->merges, 1);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_PB_LISTS)->read_bytes, 128);
	/* attribute blocks were written whole: never read from DRAM */
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_PB_ATTRIBUTES)->read_bytes, 0);
	tsr_memsys_destroy(m);
}

/* Every counter of every cache and stream, DRAM's bytes and the access count agree. */
static void assert_memsys_equal(const struct tsr_memsys *a, const struct tsr_memsys *b)
{
	for (uint32_t c = 0; c < tsr_memsys_cache_count(a); c++)
		for (int s = 0; s < TSR_STREAM_COUNT; s++)
			assert_memory_equal(mcnt(a, c, (enum tsr_stream)s), mcnt(b, c, (enum tsr_stream)s),
					    sizeof(struct tsr_cache_counters));
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		assert_memory_equal(tsr_memsys_dram(a, (enum tsr_stream)s),
				    tsr_memsys_dram(b, (enum tsr_stream)s),
				    sizeof(struct tsr_dram_counters));
	assert_int_equal(tsr_memsys_accesses(a), tsr_memsys_accesses(b));
}

/*
 * An access of several lines has the effects of its lines' parts one by
 * one, also when it repeats an access that hit throughout (memsys.c's
 * run memo) after fills and invalidations in between: random reads and
 * writes of 1-5 lines, mostly over 4 lines that the L1s hold, against a
 * second hierarchy that gets each line's part as an access of its own.
 */
static void test_memsys_multi_line_equals_lines(void **state)
{
	(void)state;
	struct tsr_memsys *whole = tiny_memsys(), *parts = tiny_memsys();
	struct tsr_rng rng;
	tsr_rng_seed(&rng, 16);
	uint64_t prev_addr = 0x4000;
	uint32_t prev_size = 1;
	for (int i = 0; i < 20000; i++) {
		const uint64_t r = tsr_rng_next(&rng);
		/* instruction0 (port 3) mostly, vertex (port 0) sometimes */
		const uint32_t port = (r & 7) ? 3 : 0;
		const enum tsr_stream s = port ? TSR_STREAM_INSTRUCTION : TSR_STREAM_VERTEX;
		/* lines 0-3 fit in the L1s (2 sets x 2 ways); lines 4-7 now and
		 * then evict some */
		const uint64_t line = ((r >> 44) % 16 == 0 ? 4 : 0) + (r >> 3) % 4;
		uint64_t addr = 0x4000 + line * 64 + ((r >> 8) & 1 ? (r >> 9) % 64 : 0);
		uint32_t size = 1 + (uint32_t)((r >> 16) % (4 - line % 4) * 64 + (r >> 24) % 64);
		if ((r >> 50) & 1) {  /* the previous access again (a program fetched twice) */
			addr = prev_addr;
			size = prev_size;
		}
		prev_addr = addr;
		prev_size = size;
		const int write = ((r >> 32) % 11) == 0;
		if (((r >> 40) % 997) == 0) {
			const char *name = port ? "instruction0" : "vertex";
			tsr_cache_invalidate_all(tsr_memsys_cache_by_name(whole, name));
			tsr_cache_invalidate_all(tsr_memsys_cache_by_name(parts, name));
		}
		tsr_mem_access(whole, port, addr, size, write, s, 0, (uint32_t)i, NULL);
		for (uint64_t a = addr; a < addr + size;) {
			const uint64_t end = (a | 63) + 1 < addr + size ? (a | 63) + 1 : addr + size;
			tsr_mem_access(parts, port, a, (uint32_t)(end - a), write, s, 0, (uint32_t)i, NULL);
			a = end;
		}
		assert_memsys_equal(whole, parts);
	}
	tsr_memsys_destroy(whole);
	tsr_memsys_destroy(parts);
}

/*
 * Issue 12: accesses at the top of the 64-bit address space (the last
 * byte, the last line, two lines ending at 2^64 - 1) reach the caches.
 */
static void test_memsys_top_of_address_space(void **state)
{
	(void)state;
	struct tsr_memsys *m = tiny_memsys();
	tsr_mem_access(m, 0, UINT64_MAX, 1, 0, TSR_STREAM_VERTEX, 0, 0, NULL);
	tsr_mem_access(m, 0, UINT64_MAX - 63, 64, 0, TSR_STREAM_VERTEX, 0, 0, NULL);
	tsr_mem_access(m, 0, UINT64_MAX - 127, 128, 0, TSR_STREAM_VERTEX, 0, 0, NULL);
	/* 1 + 1 + 2 L1 reads: the first misses, then the line hits, then the
	 * line below it misses */
	assert_counters(mcnt(m, 0, TSR_STREAM_VERTEX), 4, 0, 2, 0, 0);
	tsr_memsys_destroy(m);
}

static void test_memsys_l2_dirty_eviction_goes_to_dram(void **state)
{
	(void)state;
	/* the L2 is the tiny cache too: L1 and L2 sets coincide */
	struct tsr_memsys *m = memsys_with_l2(256, 2);
	tsr_mem_access(m, 1, SET0_A + 4, 4, 1, TSR_STREAM_PB_LISTS, 0, 0, NULL);
	/* L1 {A*}, L2 {A} */
	tsr_mem_access(m, 1, SET0_B, 4, 0, TSR_STREAM_PB_ATTRIBUTES, 0, 0, NULL);
	/* L1 {A*, B}, L2 {A, B} */
	tsr_mem_access(m, 1, SET0_C, 4, 0, TSR_STREAM_PB_ATTRIBUTES, 0, 0, NULL);
	/* L1 evicts A: L2 write hit, A dirty and MRU in the L2; the L2 read
	 * of C evicts B (clean): L1 {C, B}, L2 {A*, C} */
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_PB_LISTS)->write_bytes, 0);
	assert_counters(mcnt(m, 4, TSR_STREAM_PB_LISTS), 1, 1, 1, 0, 0);
	tsr_mem_access(m, 2, SET0_B, 4, 0, TSR_STREAM_TEXTURE, 0, 0, NULL);
	/* texture0 misses; the L2 read of B evicts its LRU line A, dirty */
	assert_counters(mcnt(m, 4, TSR_STREAM_PB_LISTS), 1, 1, 1, 0, 1);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_PB_LISTS)->write_bytes, 64);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_PB_LISTS)->read_bytes, 64);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_PB_ATTRIBUTES)->read_bytes, 128);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_TEXTURE)->read_bytes, 64);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_TEXTURE)->write_bytes, 0);
	tsr_memsys_destroy(m);
}

/* A one-core hierarchy whose texture L1 has its own line size. */
static struct tsr_memsys *memsys_with_texture(uint32_t size, uint32_t ways,
					      uint32_t line)
{
	struct tsr_memsys_config cfg;
	const struct tsr_cache_geometry l1 = geometry(256, 2, 64, 1, "lru");
	tree_config(&cfg, 1, l1, l1, geometry(size, ways, line, 1, "lru"), l1,
		    geometry(4096, 4, 64, 1, "lru"));
	struct tsr_memsys *m = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_memsys_create(&cfg, &m, &err), TSR_OK);
	return m;
}

static void test_memsys_l1_line_smaller_than_l2_line(void **state)
{
	(void)state;
	/* texture L1: 2 sets x 2 ways x 32 bytes; set = bit 5 */
	struct tsr_memsys *m = memsys_with_texture(128, 2, 32);
	const enum tsr_stream T = TSR_STREAM_TEXTURE;
	tsr_mem_access(m, 2, 0x1000, 4, 0, T, 0, 0, NULL);  /* L1 miss, L2 miss: DRAM 64 */
	tsr_mem_access(m, 2, 0x1020, 4, 0, T, 0, 0, NULL);  /* L1 miss, L2 hit (same 64) */
	tsr_mem_access(m, 2, 0x1004, 4, 1, T, 0, 0, NULL);  /* L1 write hit: 0x1000 dirty */
	tsr_mem_access(m, 2, 0x1040, 4, 0, T, 0, 0, NULL);  /* L1 set 0 {0x1000*, 0x1040}; L2 miss */
	tsr_mem_access(m, 2, 0x1080, 4, 0, T, 0, 0, NULL);  /* evicts 0x1000: 32-byte L2 write
						       * (hit), then L2 miss */
	assert_counters(mcnt(m, 2, T), 4, 1, 4, 0, 1);
	assert_counters(mcnt(m, 4, T), 4, 1, 3, 0, 0);
	assert_int_equal(tsr_memsys_dram(m, T)->read_bytes, 3 * 64);
	assert_int_equal(tsr_memsys_dram(m, T)->write_bytes, 0);
	tsr_memsys_destroy(m);
}

/*
 * SRC BUG (src/memory/memsys.c, l1_access): an L1 whose lines are longer
 * than the L2's (allowed by the config: only the tile cache and L2 must
 * use 64-byte lines) sends its whole line to the L2 as ONE access, which
 * crosses L2 lines (cache.h forbids that); the L2 and DRAM then see half
 * the traffic. The fill and the write-back of a 128-byte L1 line must be
 * two 64-byte L2 accesses each.
 */
static void test_memsys_l1_line_larger_than_l2_line(void **state)
{
	(void)state;
	/* texture L1: 2 sets x 2 ways x 128 bytes; set = bit 7. Counters are
	 * copied and the hierarchy freed before the checks, so that the
	 * expected failure leaks nothing under the sanitizers. */
	struct tsr_memsys *m = memsys_with_texture(512, 2, 128);
	const enum tsr_stream T = TSR_STREAM_TEXTURE;
	tsr_mem_access(m, 2, 0x1000, 4, 1, T, 0, 0, NULL);  /* write miss: fetch 0x1000-0x107f */
	struct tsr_cache_counters l1_first = *mcnt(m, 2, T), l2_first = *mcnt(m, 4, T);
	uint64_t dram_first = tsr_memsys_dram(m, T)->read_bytes;
	tsr_mem_access(m, 2, 0x1100, 4, 0, T, 0, 0, NULL);  /* set 0 {0x1000*, 0x1100} */
	tsr_mem_access(m, 2, 0x1200, 4, 0, T, 0, 0, NULL);  /* evicts 0x1000, dirty */
	struct tsr_cache_counters l1 = *mcnt(m, 2, T), l2 = *mcnt(m, 4, T);
	uint64_t dram = tsr_memsys_dram(m, T)->read_bytes;
	tsr_memsys_destroy(m);

	assert_counters(&l1_first, 0, 1, 0, 1, 0);
	assert_counters(&l2_first, 2, 0, 2, 0, 0);     /* two 64-byte L2 lines */
	assert_int_equal(dram_first, 128);
	assert_counters(&l1, 2, 1, 2, 1, 1);
	/* 3 fills x 2 L2 reads; the write-back is 2 L2 writes that hit */
	assert_counters(&l2, 6, 2, 6, 0, 0);
	assert_int_equal(dram, 6 * 64);
}

static void test_memsys_uncached_writes_whole_bursts(void **state)
{
	(void)state;
	struct tsr_memsys *m = tiny_memsys();
	const struct tsr_dram_counters *d = tsr_memsys_dram(m, TSR_STREAM_COLOR);
	tsr_mem_access(m, TSR_PORT_DRAM, 0x2000, 64, 1, TSR_STREAM_COLOR, 0, 0, NULL);    /* 1 line */
	assert_int_equal(d->write_bytes, 64);
	tsr_mem_access(m, TSR_PORT_DRAM, 0x2000, 65, 1, TSR_STREAM_COLOR, 0, 0, NULL);    /* 2 lines */
	assert_int_equal(d->write_bytes, 64 + 128);
	tsr_mem_access(m, TSR_PORT_DRAM, 0x2010, 100, 1, TSR_STREAM_COLOR, 0, 0, NULL);   /* 0x2010..0x2073: 2 */
	assert_int_equal(d->write_bytes, 64 + 128 + 128);
	tsr_mem_access(m, TSR_PORT_DRAM, 0x203f, 2, 1, TSR_STREAM_COLOR, 0, 0, NULL);     /* 0x203f, 0x2040: 2 */
	assert_int_equal(d->write_bytes, 64 + 128 + 128 + 128);
	tsr_mem_access(m, TSR_PORT_DRAM, 0x2004, 4, 1, TSR_STREAM_COLOR, 0, 0, NULL);     /* 1 */
	assert_int_equal(d->write_bytes, 64 + 128 + 128 + 128 + 64);
	tsr_mem_access(m, TSR_PORT_DRAM, 0x4000, 32 * 32 * 4, 1, TSR_STREAM_COLOR, 0, 0, NULL); /* a tile: 64 lines */
	assert_int_equal(d->write_bytes, 512 + 4096);
	assert_int_equal(d->read_bytes, 0);
	/* no cache saw these writes */
	assert_int_equal(tsr_memsys_accesses(m), 0);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_OTHER)->write_bytes, 0);
	tsr_memsys_destroy(m);
}

static void test_memsys_bad_cache_is_named(void **state)
{
	(void)state;
	struct tsr_memsys_config cfg;
	const struct tsr_cache_geometry l1 = geometry(256, 2, 64, 1, "lru");
	tree_config(&cfg, 2, l1, l1, geometry(3000, 4, 64, 1, "lru"), l1,
		    geometry(4096, 4, 64, 1, "lru"));
	struct tsr_memsys *m = NULL;
	struct tsr_error err;
	memset(&err, 0, sizeof(err));
	assert_int_equal(tsr_memsys_create(&cfg, &m, &err), TSR_ERR_GEOMETRY);
	assert_null(m);
	assert_non_null(strstr(err.msg, "texture"));
}

/* ---- hierarchies built from the configuration ---- */

/* Adds instance `name` (geometry sets x 2 ways x 64 bytes, LRU) under `parent`. */
static struct tsr_cache_config *add_instance(struct tsr_memsys_config *c, const char *name,
					     uint32_t size, const char *parent, int per_core)
{
	struct tsr_cache_config *k = &c->caches[c->cache_count++];
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->geom = geometry(size, 2, 64, 1, "lru");
	k->per_core = (uint32_t)per_core;
	snprintf(k->parent, sizeof(k->parent), "%s", parent);
	return k;
}

/* Routes every stream to `to` (an instance, "perfect" or "dram"). */
static void route_all(struct tsr_memsys_config *c, const char *to)
{
	for (uint32_t r = 0; r < TSR_ROUTE_COUNT; r++)
		snprintf(c->routes[r], sizeof(c->routes[r]), "%s", to);
}

/*
 * Three levels: per-core l1 (256 B) -> l2 (512 B) -> l3 (1 KiB) -> DRAM;
 * texture enters at l1. The result names the level that held the line.
 */
static void test_hierarchy_three_levels(void **state)
{
	(void)state;
	struct tsr_memsys_config c;
	memset(&c, 0, sizeof(c));
	c.cores = 2;
	c.dram_burst_bytes = 64;
	add_instance(&c, "l1", 256, "l2", 1);
	add_instance(&c, "l2", 512, "l3", 0);
	add_instance(&c, "l3", 1024, "dram", 0);
	route_all(&c, "dram");
	snprintf(c.routes[TSR_STREAM_TEXTURE], sizeof(c.routes[0]), "l1");
	struct tsr_memsys *m = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_memsys_create(&c, &m, &err), TSR_OK);
	assert_int_equal(tsr_memsys_cache_count(m), 4);  /* l10, l11, l2, l3 */
	assert_string_equal(tsr_cache_name(tsr_memsys_cache(m, 1)), "l11");
	assert_string_equal(tsr_memsys_cache_group(m, 1), "l1");
	assert_int_equal(tsr_memsys_cache_level(m, 0), 1);
	assert_int_equal(tsr_memsys_cache_level(m, 2), 2);
	assert_int_equal(tsr_memsys_cache_level(m, 3), 3);
	const uint32_t p0 = tsr_memsys_port(m, TSR_STREAM_TEXTURE, 0);
	const uint32_t p1 = tsr_memsys_port(m, TSR_STREAM_TEXTURE, 1);
	assert_int_equal(p0, 0);
	assert_int_equal(p1, 1);
	struct tsr_mem_result r;
	const enum tsr_stream T = TSR_STREAM_TEXTURE;
	tsr_mem_access(m, p0, 0x1000, 4, 0, T, 0, 0, &r);  /* cold: from DRAM */
	assert_int_equal(r.level, 4);
	assert_int_equal(r.served_by, TSR_PORT_DRAM);
	assert_int_equal(r.complete_cycle, 0);
	tsr_mem_access(m, p0, 0x1008, 4, 0, T, 0, 0, &r);  /* l10 hit */
	assert_int_equal(r.level, 1);
	assert_int_equal(r.served_by, p0);
	tsr_mem_access(m, p1, 0x1000, 4, 0, T, 0, 0, &r);  /* the other core: l2 holds it */
	assert_int_equal(r.level, 2);
	assert_int_equal(r.served_by, 2);
	assert_int_equal(tsr_memsys_dram(m, T)->read_bytes, 64);
	/* l10 has 2 sets x 2 ways: three more lines of set 0 evict 0x1000 */
	tsr_mem_access(m, p0, 0x1080, 4, 0, T, 0, 0, NULL);
	tsr_mem_access(m, p0, 0x1100, 4, 0, T, 0, 0, NULL);
	tsr_mem_access(m, p0, 0x1000, 4, 0, T, 0, 0, &r);  /* l2 (4 sets x 2 ways) still has it */
	assert_int_equal(r.level, 2);
	/* a line that crosses into the next: both parts, deepest reported */
	tsr_mem_access(m, p0, 0x103e, 4, 0, T, 0, 0, &r);
	assert_int_equal(r.level, 4);
	assert_int_equal(tsr_cache_counters_of(tsr_memsys_cache(m, 0), T)->reads, 7);  /* the last split in two */
	tsr_memsys_destroy(m);
}

/* Perfect routes count bytes but touch no cache; dram routes move whole bursts. */
static void test_hierarchy_perfect_and_dram_routes(void **state)
{
	(void)state;
	struct tsr_memsys_config c;
	tsr_memsys_config_defaults(&c, 1);
	snprintf(c.routes[TSR_STREAM_VERTEX], sizeof(c.routes[0]), "perfect");
	snprintf(c.routes[TSR_STREAM_INDEX], sizeof(c.routes[0]), "perfect");
	snprintf(c.routes[TSR_STREAM_TEXTURE], sizeof(c.routes[0]), "dram");
	c.dram_burst_bytes = 32;
	struct tsr_memsys *m = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_memsys_create(&c, &m, &err), TSR_OK);
	/* vertex is reached by no route any more: not built */
	assert_null(tsr_memsys_cache_by_name(m, "vertex"));
	assert_null(tsr_memsys_cache_by_name(m, "texture0"));
	assert_non_null(tsr_memsys_cache_by_name(m, "tile"));
	struct tsr_mem_result r;
	uint32_t pv = tsr_memsys_port(m, TSR_STREAM_VERTEX, 0);
	assert_int_equal(pv, TSR_PORT_PERFECT);
	tsr_mem_access(m, pv, 0x40, 16, 0, TSR_STREAM_VERTEX, 0, 0, &r);
	assert_int_equal(r.level, 0);
	assert_int_equal(r.served_by, TSR_PORT_PERFECT);
	assert_int_equal(tsr_memsys_perfect(m, TSR_STREAM_VERTEX)->read_bytes, 16);
	assert_int_equal(tsr_memsys_accesses(m), 0);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_VERTEX)->read_bytes, 0);
	uint32_t pt = tsr_memsys_port(m, TSR_STREAM_TEXTURE, 0);
	assert_int_equal(pt, TSR_PORT_DRAM);
	tsr_mem_access(m, pt, 0x1010, 40, 0, TSR_STREAM_TEXTURE, 0, 0, &r);  /* 0x1000-0x103f */
	assert_int_equal(r.served_by, TSR_PORT_DRAM);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_TEXTURE)->read_bytes, 64);
	tsr_memsys_destroy(m);
}

/* A write-through cache forwards every write and never writes back. */
static void test_hierarchy_write_through(void **state)
{
	(void)state;
	struct tsr_memsys_config c;
	memset(&c, 0, sizeof(c));
	c.cores = 1;
	c.dram_burst_bytes = 64;
	struct tsr_cache_config *l1 = add_instance(&c, "l1", 256, "l2", 0);
	l1->write_policy = TSR_WRITE_THROUGH;
	add_instance(&c, "l2", 4096, "dram", 0);
	route_all(&c, "l1");
	struct tsr_memsys *m = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_memsys_create(&c, &m, &err), TSR_OK);
	const enum tsr_stream S = TSR_STREAM_OTHER;
	const struct tsr_cache_counters *k1 = tsr_cache_counters_of(tsr_memsys_cache(m, 0), S);
	const struct tsr_cache_counters *k2 = tsr_cache_counters_of(tsr_memsys_cache(m, 1), S);
	tsr_mem_access(m, 0, 0x1000, 4, 0, S, 0, 0, NULL);  /* fill */
	tsr_mem_access(m, 0, 0x1004, 4, 1, S, 0, 0, NULL);  /* write hit: on to l2 */
	assert_int_equal(k2->writes, 1);
	assert_int_equal(k2->reads, 1);
	/* evict 0x1000 from l1's set 0 (2 ways): no write-back, it is clean */
	tsr_mem_access(m, 0, 0x1080, 4, 0, S, 0, 0, NULL);
	tsr_mem_access(m, 0, 0x1100, 4, 0, S, 0, 0, NULL);
	assert_int_equal(k1->writebacks, 0);
	assert_int_equal(k2->writes, 1);
	/* a write miss (fetch on write): the fill, then the write on to l2 */
	tsr_mem_access(m, 0, 0x2000, 4, 1, S, 0, 0, NULL);
	assert_int_equal(k2->writes, 2);
	assert_int_equal(k2->reads, 4);
	tsr_memsys_destroy(m);
}

/* Configuration errors name the key. */
static void test_hierarchy_errors(void **state)
{
	(void)state;
	struct tsr_memsys_config c;
	struct tsr_error err;
	struct tsr_memsys *m = NULL;

	tsr_memsys_config_defaults(&c, 4);
	snprintf(tsr_memsys_config_cache(&c, "tile")->parent, TSR_CACHE_NAME_MAX, "l3");
	assert_int_equal(tsr_memsys_create(&c, &m, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "caches.tile.parent"));
	assert_non_null(strstr(err.msg, "l3"));

	tsr_memsys_config_defaults(&c, 4);
	snprintf(tsr_memsys_config_cache(&c, "l2")->parent, TSR_CACHE_NAME_MAX, "tile");
	assert_int_equal(tsr_memsys_create(&c, &m, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "cycle"));

	tsr_memsys_config_defaults(&c, 4);
	snprintf(tsr_memsys_config_cache(&c, "tile")->parent, TSR_CACHE_NAME_MAX, "texture");
	assert_int_equal(tsr_memsys_create(&c, &m, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "per-core"));

	tsr_memsys_config_defaults(&c, 4);
	snprintf(c.routes[TSR_STREAM_TEXTURE], sizeof(c.routes[0]), "txt");
	assert_int_equal(tsr_memsys_create(&c, &m, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "routes.texture"));

	tsr_memsys_config_defaults(&c, 4);
	tsr_memsys_config_cache(&c, "l2")->geom.ways = 3;
	assert_int_equal(tsr_memsys_create(&c, &m, &err), TSR_ERR_GEOMETRY);
	assert_non_null(strstr(err.msg, "caches.l2"));
	assert_null(m);
}

/*
 * Inter-stream reuse (GSPC 2.3): a render-target write sets the line's RT
 * bit (rt_lines on render_target); a texture read hitting it is a
 * render-target consumption (rt_consumed on texture) and clears the bit,
 * so a second texture read is an ordinary hit; display counts as a
 * render target; an eviction clears the bit (the refill by texture is a
 * miss, not a consumption); a write to a texture line makes it a render
 * target again. The tiny LRU cache of the file comment.
 */
static void test_render_target_consumption(void **state)
{
	(void)state;
	struct tsr_cache *c = tiny_cache(1);
	const struct tsr_cache_counters *tex = tsr_cache_counters_of(c, TSR_STREAM_TEXTURE);
	const struct tsr_cache_counters *rt = tsr_cache_counters_of(c, TSR_STREAM_RENDER_TARGET);
	const struct tsr_cache_counters *dp = tsr_cache_counters_of(c, TSR_STREAM_DISPLAY);
	acc(c, SET0_A, 64, 1, TSR_STREAM_RENDER_TARGET);  /* fill A: RT line 1 */
	acc(c, SET0_A, 64, 1, TSR_STREAM_RENDER_TARGET);  /* still an RT line: no count */
	assert_int_equal(rt->rt_lines, 1);
	assert_int_equal(acc(c, SET0_A, 4, 0, TSR_STREAM_TEXTURE).hit, 1);  /* consumed */
	assert_int_equal(tex->rt_consumed, 1);
	assert_int_equal(acc(c, SET0_A, 4, 0, TSR_STREAM_TEXTURE).hit, 1);  /* a texture line now */
	assert_int_equal(tex->rt_consumed, 1);
	acc(c, SET0_A, 64, 1, TSR_STREAM_RENDER_TARGET);  /* written again: RT line 2 */
	assert_int_equal(rt->rt_lines, 2);
	acc(c, SET1_D, 64, 1, TSR_STREAM_DISPLAY);        /* display is a render target */
	assert_int_equal(dp->rt_lines, 1);
	assert_int_equal(acc(c, SET1_D, 4, 0, TSR_STREAM_TEXTURE).hit, 1);
	assert_int_equal(tex->rt_consumed, 2);
	/* set 0 holds A (RT); B and C evict it (LRU), A comes back by texture: no consumption */
	acc(c, SET0_B, 4, 0, TSR_STREAM_OTHER);
	acc(c, SET0_C, 4, 0, TSR_STREAM_OTHER);
	assert_int_equal(acc(c, SET0_A, 4, 0, TSR_STREAM_TEXTURE).hit, 0);
	assert_int_equal(acc(c, SET0_A, 4, 0, TSR_STREAM_TEXTURE).hit, 1);
	assert_int_equal(tex->rt_consumed, 2);
	/* other streams neither set nor count */
	assert_int_equal(tsr_cache_counters_of(c, TSR_STREAM_OTHER)->rt_lines, 0);
	assert_int_equal(tsr_cache_counters_total(c).rt_lines, 3);
	tsr_cache_destroy(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_hits_and_misses),
		cmocka_unit_test(test_lru_victim),
		cmocka_unit_test(test_write_miss_and_dirty_writeback),
		cmocka_unit_test(test_fetch_on_write),
		cmocka_unit_test(test_byte_masked_write_allocate),
		cmocka_unit_test(test_memsys_byte_masked_writes),
		cmocka_unit_test(test_memsys_top_of_address_space),
		cmocka_unit_test(test_memsys_multi_line_equals_lines),
		cmocka_unit_test(test_per_stream_counters_and_total),
		cmocka_unit_test(test_geometry_errors),
		cmocka_unit_test(test_indexed_lookup_matches_scan),
		cmocka_unit_test(test_memsys_read_miss_goes_to_l2_and_dram),
		cmocka_unit_test(test_memsys_split_across_lines),
		cmocka_unit_test(test_memsys_dirty_eviction_becomes_l2_write),
		cmocka_unit_test(test_memsys_paths),
		cmocka_unit_test(test_memsys_path_sink_pause),
		cmocka_unit_test(test_memsys_l2_dirty_eviction_goes_to_dram),
		cmocka_unit_test(test_memsys_l1_line_smaller_than_l2_line),
		cmocka_unit_test(test_memsys_l1_line_larger_than_l2_line),  /* SRC BUG */
		cmocka_unit_test(test_memsys_uncached_writes_whole_bursts),
		cmocka_unit_test(test_memsys_bad_cache_is_named),
		cmocka_unit_test(test_hierarchy_three_levels),
		cmocka_unit_test(test_hierarchy_perfect_and_dram_routes),
		cmocka_unit_test(test_hierarchy_write_through),
		cmocka_unit_test(test_hierarchy_errors),
		cmocka_unit_test(test_render_target_consumption),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
