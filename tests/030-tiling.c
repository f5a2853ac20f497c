/*
 * 030-tiling.c - the Tiling Engine (src/tiling): tile orders, the
 * Parameter Buffer layout of TCOR II-B, the Polygon List Builder (which
 * tiles a triangle is binned to, Primitive IDs, PMD and attribute writes
 * through the Tile Cache, list overflow chunks) and the Tile Fetcher.
 *
 * Triangles are made by hand in 1/256-pixel fixed point with the
 * conventions of emit_triangle() in src/geometry/geometry.c: area2 > 0
 * (vertices 1 and 2 swapped otherwise) and an inclusive pixel bounding box
 * of the pixel centres the triangle may cover, clamped to the screen.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "memory/memsys.h"
#include "memory/pb_meta.h"
#include "tiling/parameter_buffer.h"
#include "tiling/tile_order.h"

/* ---------------------------------------------------------- tile orders */

static const enum tsr_tile_order all_orders[] = {
	TSR_ORDER_SCANLINE, TSR_ORDER_SORDER, TSR_ORDER_Z, TSR_ORDER_HILBERT};

/* Grids: 4x4, TCOR 1960x768/32, RE 1196x768/16, 1x1, 3x5, 16x16. */
static const uint32_t grids[][2] = {{4, 4}, {62, 24}, {75, 48}, {1, 1},
				    {3, 5}, {16, 16}, {9, 9}};

/* Builds an order into a new array (poisoned first). */
static uint32_t *build(enum tsr_tile_order o, uint32_t tx, uint32_t ty)
{
	uint32_t *order = malloc((size_t)tx * ty * sizeof(*order));
	assert_non_null(order);
	memset(order, 0xff, (size_t)tx * ty * sizeof(*order));
	tsr_tile_order_build(o, tx, ty, order);
	return order;
}

static void assert_permutation(const uint32_t *order, uint32_t n)
{
	unsigned char *seen = calloc(n, 1);
	assert_non_null(seen);
	for (uint32_t i = 0; i < n; i++) {
		assert_true(order[i] < n);
		assert_false(seen[order[i]]);
		seen[order[i]] = 1;
	}
	free(seen);
}

static void assert_order_equals(enum tsr_tile_order o, uint32_t tx,
				uint32_t ty, const uint32_t *want)
{
	uint32_t *order = build(o, tx, ty);
	for (uint32_t i = 0; i < tx * ty; i++) {
		if (order[i] != want[i])
			print_error("order %d %ux%u: position %u is %u, want %u\n",
				    (int)o, tx, ty, i, order[i], want[i]);
		assert_int_equal(order[i], want[i]);
	}
	free(order);
}

static void test_orders_are_permutations(void **state)
{
	(void)state;
	for (size_t o = 0; o < sizeof(all_orders) / sizeof(all_orders[0]); o++)
		for (size_t g = 0; g < sizeof(grids) / sizeof(grids[0]); g++) {
			uint32_t tx = grids[g][0], ty = grids[g][1];
			uint32_t *order = build(all_orders[o], tx, ty);
			assert_permutation(order, tx * ty);
			free(order);
		}
	/* the TCOR grid is 62 x 24 tiles */
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	assert_int_equal((cfg.width + cfg.tile_width - 1) / cfg.tile_width, 62);
	assert_int_equal((cfg.height + cfg.tile_height - 1) / cfg.tile_height, 24);
}

static void test_scanline_and_sorder(void **state)
{
	(void)state;
	static const uint32_t scan[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
	assert_order_equals(TSR_ORDER_SCANLINE, 3, 5, scan);
	static const uint32_t s35[] = {0, 1, 2, 5, 4, 3, 6, 7, 8, 11, 10, 9, 12, 13, 14};
	assert_order_equals(TSR_ORDER_SORDER, 3, 5, s35);
	static const uint32_t one[] = {0};
	assert_order_equals(TSR_ORDER_SORDER, 1, 1, one);
}

static void test_zorder(void **state)
{
	(void)state;
	static const uint32_t morton44[] = {0, 1, 4, 5, 2, 3, 6, 7,
					    8, 9, 12, 13, 10, 11, 14, 15};
	assert_order_equals(TSR_ORDER_Z, 4, 4, morton44);
	/* 3x5: Morton order of the 8x8 square, tiles outside skipped */
	static const uint32_t z35[] = {0, 1, 3, 4, 2, 5, 6, 7, 9, 10, 8, 11,
				       12, 13, 14};
	assert_order_equals(TSR_ORDER_Z, 3, 5, z35);
	static const uint32_t one[] = {0};
	assert_order_equals(TSR_ORDER_Z, 1, 1, one);
}

static int adjacent4(uint32_t a, uint32_t b, uint32_t tiles_x)
{
	uint32_t ax = a % tiles_x, ay = a / tiles_x, bx = b % tiles_x, by = b / tiles_x;
	uint32_t dx = ax > bx ? ax - bx : bx - ax, dy = ay > by ? ay - by : by - ay;
	return dx + dy == 1;
}

/* Checks the Hilbert order's full 8x8 blocks on a grid. */
static void check_hilbert_blocks(uint32_t tx, uint32_t ty)
{
	const uint32_t B = TSR_HILBERT_BLOCK;
	uint32_t *order = build(TSR_ORDER_HILBERT, tx, ty);
	uint32_t *pos = malloc((size_t)tx * ty * sizeof(*pos));
	assert_non_null(pos);
	for (uint32_t i = 0; i < tx * ty; i++)
		pos[order[i]] = i;
	uint32_t full_blocks = 0;
	for (uint32_t by = 0; by + 1 <= ty / B; by++)
		for (uint32_t bx = 0; bx + 1 <= tx / B; bx++) {
			/* contiguous: the block's positions span exactly 64 */
			uint32_t lo = UINT32_MAX, hi = 0;
			for (uint32_t y = 0; y < B; y++)
				for (uint32_t x = 0; x < B; x++) {
					uint32_t p = pos[(by * B + y) * tx + bx * B + x];
					lo = p < lo ? p : lo;
					hi = p > hi ? p : hi;
				}
			assert_int_equal(hi - lo, B * B - 1);
			/* consecutive tiles inside the block are 4-adjacent */
			for (uint32_t i = lo; i < hi; i++) {
				if (!adjacent4(order[i], order[i + 1], tx))
					print_error("%ux%u: tiles %u and %u at %u are not adjacent\n",
						    tx, ty, order[i], order[i + 1], i);
				assert_true(adjacent4(order[i], order[i + 1], tx));
			}
			full_blocks++;
		}
	assert_int_equal(full_blocks, (tx / B) * (ty / B));
	free(pos);
	free(order);
}

static void test_hilbert_blocks(void **state)
{
	(void)state;
	check_hilbert_blocks(8, 8);
	check_hilbert_blocks(16, 16);
	check_hilbert_blocks(62, 24);   /* 7 x 3 full blocks, a partial column */
	check_hilbert_blocks(75, 48);   /* 9 x 6 full blocks */
	/* blocks go in an S: on a 16x16 grid, (0,0), (1,0), then (1,1), (0,1) */
	uint32_t *order = build(TSR_ORDER_HILBERT, 16, 16);
	const uint32_t want_block[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t x = order[i] % 16, y = order[i] / 16;
		assert_int_equal(x / 8, want_block[i / 64][0]);
		assert_int_equal(y / 8, want_block[i / 64][1]);
	}
	/* the curve starts at the top-left tile */
	assert_int_equal(order[0], 0);
	free(order);
}

static void test_hilbert_d2xy(void **state)
{
	(void)state;
	unsigned char seen[64] = {0};
	uint32_t px = 0, py = 0;
	for (uint32_t d = 0; d < 64; d++) {
		uint32_t x = 99, y = 99;
		tsr_hilbert_d2xy(8, d, &x, &y);
		assert_true(x < 8 && y < 8);
		assert_false(seen[y * 8 + x]);
		seen[y * 8 + x] = 1;
		if (d) {
			uint32_t dx = x > px ? x - px : px - x, dy = y > py ? y - py : py - y;
			assert_int_equal(dx + dy, 1);
		}
		px = x;
		py = y;
	}
	uint32_t x, y;
	tsr_hilbert_d2xy(8, 0, &x, &y);
	assert_int_equal(x, 0);
	assert_int_equal(y, 0);
	/* the side-2 curve is the U: (0,0) (0,1) (1,1) (1,0) */
	static const uint32_t u[4][2] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}};
	for (uint32_t d = 0; d < 4; d++) {
		tsr_hilbert_d2xy(2, d, &x, &y);
		assert_int_equal(x, u[d][0]);
		assert_int_equal(y, u[d][1]);
	}
}

/* ----------------------------------------------------- Parameter Buffer */

#define LISTS_BASE 0x10000000ull
#define OVERFLOW_BASE 0x20000000ull
#define ATTR_BASE 0x30000000ull

static struct tsr_pb_layout layout(uint32_t w, uint32_t h, uint32_t tile,
				   uint32_t capacity, uint32_t overflow_chunks,
				   uint64_t attributes_bytes)
{
	struct tsr_pb_layout l;
	memset(&l, 0, sizeof(l));
	l.screen_width = w;
	l.screen_height = h;
	l.tile_width = l.tile_height = tile;
	l.capacity = capacity;
	l.attribute_bytes = 48;
	l.lists_base = LISTS_BASE;
	l.overflow_base = OVERFLOW_BASE;
	l.overflow_chunks = overflow_chunks;
	l.attributes_base = ATTR_BASE;
	l.attributes_bytes = attributes_bytes;
	return l;
}

static struct tsr_param_buffer *pb_new(const struct tsr_pb_layout *l)
{
	struct tsr_param_buffer *pb = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_pb_create(l, &pb, &err), TSR_OK);
	assert_non_null(pb);
	tsr_pb_begin_frame(pb, NULL, 0);
	return pb;
}

/* The default (TCOR Table I) hierarchy; the Tile Cache is L1 number 1. */
static struct tsr_memsys *memsys_new(void)
{
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	struct tsr_memsys *m = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_memsys_create(&cfg.mem, &m, &err), TSR_OK);
	assert_int_equal(tsr_memsys_port(m, TSR_STREAM_PB_LISTS, 0), 1);
	return m;
}

/*
 * A screen-space triangle from pixel coordinates, on a w x h screen, as
 * emit_triangle() makes it (2 attributes: position + one varying).
 */
static struct tsr_primitive tri(double x0, double y0, double x1, double y1,
				double x2, double y2, uint32_t w, uint32_t h)
{
	struct tsr_primitive p;
	memset(&p, 0, sizeof(p));
	const double sub = 1 << TSR_SUBPIXEL_BITS;
	double xs[3] = {x0, x1, x2}, ys[3] = {y0, y1, y2};
	for (int i = 0; i < 3; i++) {
		p.X[i] = llround(xs[i] * sub);
		p.Y[i] = llround(ys[i] * sub);
		p.z[i] = 0.5f;
		p.inv_w[i] = 1.0f;
		p.shade[i] = 1.0f;
	}
	int64_t a = (p.X[1] - p.X[0]) * (p.Y[2] - p.Y[0]) -
		    (p.Y[1] - p.Y[0]) * (p.X[2] - p.X[0]);
	assert_true(a != 0);
	if (a < 0) {
		int64_t t = p.X[1]; p.X[1] = p.X[2]; p.X[2] = t;
		t = p.Y[1]; p.Y[1] = p.Y[2]; p.Y[2] = t;
		a = -a;
	}
	p.area2 = a;
	assert_true(tsr_primitive_bbox(&p, w, h));
	p.attributes = 2;
	return p;
}

/* Bins p as primitive `index`; returns the number of tiles. */
static uint32_t bin(struct tsr_param_buffer *pb, struct tsr_primitive *p,
		    uint32_t index, struct tsr_memsys *m,
		    struct tsr_tiling_stats *st)
{
	uint32_t tiles = 999;
	struct tsr_error err;
	enum tsr_status s = tsr_plb_bin(pb, p, index, m, &tiles, st, &err);
	if (s != TSR_OK)
		print_error("%s\n", err.msg);
	assert_int_equal(s, TSR_OK);
	return tiles;
}

static void assert_list(const struct tsr_param_buffer *pb, uint32_t tile,
			const uint32_t *want, uint32_t n)
{
	if (tsr_pb_list_length(pb, tile) != n)
		print_error("tile %u has %u primitives, want %u\n", tile,
			    tsr_pb_list_length(pb, tile), n);
	assert_int_equal(tsr_pb_list_length(pb, tile), n);
	const uint32_t *l = tsr_pb_list(pb, tile);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(l[i], want[i]);
}

/* Counters of the Tile Cache (L1 1) for one stream. */
static const struct tsr_cache_counters *tile_cache(const struct tsr_memsys *m,
						   enum tsr_stream s)
{
	return tsr_cache_counters_of(tsr_memsys_cache(m, 1), s);
}

/* 1 when a 4-byte read of addr hits in the Tile Cache. */
static int tile_cache_holds(struct tsr_memsys *m, uint64_t addr)
{
	uint64_t before = tile_cache(m, TSR_STREAM_OTHER)->read_misses;
	tsr_mem_access(m, 1, addr, 4, 0, TSR_STREAM_OTHER, 0, 0, NULL);
	return tile_cache(m, TSR_STREAM_OTHER)->read_misses == before;
}

static void test_pmd_addresses_tcor(void **state)
{
	(void)state;
	/* TCOR: 1960x768, 32x32 tiles, 1024 PMDs per list */
	struct tsr_pb_layout l = layout(1960, 768, 32, 1024, 0, 1 << 20);
	struct tsr_param_buffer *pb = pb_new(&l);
	assert_int_equal(tsr_pb_tiles_x(pb), 62);
	assert_int_equal(tsr_pb_tiles_y(pb), 24);
	assert_int_equal(tsr_pb_lists_bytes(62 * 24, 1024), 1488ull * 4096);
	static const uint32_t ts[] = {0, 1, 2, 61, 62, 700, 1487};
	static const uint32_t is[] = {0, 1, 15, 16, 17, 1000, 1023};
	for (size_t a = 0; a < sizeof(ts) / sizeof(ts[0]); a++)
		for (size_t b = 0; b < sizeof(is) / sizeof(is[0]); b++)
			assert_int_equal(tsr_pb_pmd_address(pb, ts[a], is[b]),
					 LISTS_BASE + ts[a] * 4096ull + is[b] * 4ull);
	/* a few spelled out */
	assert_int_equal(tsr_pb_pmd_address(pb, 0, 0), 0x10000000ull);
	assert_int_equal(tsr_pb_pmd_address(pb, 1, 0), 0x10001000ull);
	assert_int_equal(tsr_pb_pmd_address(pb, 3, 5), 0x10003014ull);
	assert_int_equal(tsr_pb_pmd_address(pb, 1487, 1023), 0x105cfffcull);
	tsr_pb_destroy(pb);

	/* RE: 1196x768 with 16x16 tiles is 75 x 48 tiles */
	l = layout(1196, 768, 16, 1024, 0, 1 << 20);
	pb = pb_new(&l);
	assert_int_equal(tsr_pb_tiles_x(pb), 75);
	assert_int_equal(tsr_pb_tiles_y(pb), 48);
	tsr_pb_destroy(pb);
}

/*
 * The scene of the binning tests: a 128x64 screen of 32x32 tiles (4 x 2
 * tiles, ids 0-3 on the top row, 4-7 below).
 */
#define SW 128
#define SH 64

static void make_scene(struct tsr_primitive p[5])
{
	/* P0: small, inside tile 0 */
	p[0] = tri(2, 2, 10, 2, 2, 10, SW, SH);
	/* P1: the half-plane x + 2y <= 128: a tile is overlapped when its
	 * top-left pixel centre (x0+.5, y0+.5) is inside: tiles 0-3 on the
	 * top row (97.5 + 1 <= 128), tiles 4 and 5 below (32.5 + 65 <= 128)
	 * but not 6 (64.5 + 65 > 128) or 7; its bounding box is all 8 */
	p[1] = tri(0, 0, 128, 0, 0, 64, SW, SH);
	/* P2: a thin sliver along y = 1 + (x - 1) * 49/126 (to y + 1 at the
	 * right end). It crosses y = 31.5 at x = 79.4 and y = 32.5 at x = 82:
	 * tiles 0, 1, 2 (x 64.5..79.4), 6 (x 82..95.5) and 7. Its bounding
	 * box covers all 8 tiles; 3, 4 and 5 must not get it. */
	p[2] = tri(1, 1, 127, 50, 127, 51, SW, SH);
	/* P3: x + y <= 2.9 from (0.6, 0.6): its box is pixel (1, 1) whose
	 * centre (1.5, 1.5) is outside: no tile */
	p[3] = tri(0.6, 0.6, 2.3, 0.6, 0.6, 2.3, SW, SH);
	/* P4: small, inside tile 3 */
	p[4] = tri(100, 4, 110, 4, 100, 14, SW, SH);
}

static void test_binning(void **state)
{
	(void)state;
	struct tsr_pb_layout l = layout(SW, SH, 32, 1024, 4, 1 << 20);
	struct tsr_param_buffer *pb = pb_new(&l);
	struct tsr_memsys *m = memsys_new();
	struct tsr_tiling_stats st;
	memset(&st, 0, sizeof(st));
	struct tsr_primitive p[5];
	make_scene(p);
	assert_int_equal(p[2].min_x, 1);
	assert_int_equal(p[2].max_x, 126);
	assert_int_equal(p[2].min_y, 1);
	assert_int_equal(p[2].max_y, 50);

	static const uint32_t want_tiles[5] = {1, 6, 5, 0, 1};
	for (uint32_t i = 0; i < 5; i++)
		assert_int_equal(bin(pb, &p[i], i, m, &st), want_tiles[i]);

	/* Primitive IDs: 2 attributes x 64 bytes each, in arrival order; P3
	 * was binned nowhere and takes no space */
	assert_int_equal(p[0].pb_addr, ATTR_BASE);
	assert_int_equal(p[1].pb_addr, ATTR_BASE + 128);
	assert_int_equal(p[2].pb_addr, ATTR_BASE + 256);
	assert_int_equal(p[4].pb_addr, ATTR_BASE + 384);

	static const uint32_t t0[] = {0, 1, 2}, t1[] = {1, 2}, t2[] = {1, 2},
			      t3[] = {1, 4}, t4[] = {1}, t5[] = {1}, t6[] = {2},
			      t7[] = {2};
	assert_list(pb, 0, t0, 3);
	assert_list(pb, 1, t1, 2);
	assert_list(pb, 2, t2, 2);
	assert_list(pb, 3, t3, 2);
	assert_list(pb, 4, t4, 1);
	assert_list(pb, 5, t5, 1);
	assert_list(pb, 6, t6, 1);
	assert_list(pb, 7, t7, 1);

	assert_int_equal(st.pmds_written, 13);
	assert_int_equal(st.pb_lists_bytes, 13 * 4);
	assert_int_equal(st.pb_attributes_bytes, 4 * 2 * 48);
	assert_int_equal(st.list_overflows, 0);
	assert_int_equal(tile_cache(m, TSR_STREAM_PB_LISTS)->writes, 13);
	assert_int_equal(tile_cache(m, TSR_STREAM_PB_LISTS)->reads, 0);
	assert_int_equal(tile_cache(m, TSR_STREAM_PB_ATTRIBUTES)->writes, 8);
	assert_int_equal(tile_cache(m, TSR_STREAM_PB_ATTRIBUTES)->reads, 0);
	/* each list is in its own 4 KiB: one line per tile was written */
	assert_int_equal(tile_cache(m, TSR_STREAM_PB_LISTS)->write_misses, 8);
	/* the PMDs went where TCOR II-B puts them */
	assert_true(tile_cache_holds(m, LISTS_BASE + 0 * 4096 + 2 * 4));
	assert_true(tile_cache_holds(m, LISTS_BASE + 7 * 4096));
	assert_true(tile_cache_holds(m, ATTR_BASE + 384 + 64));
	assert_false(tile_cache_holds(m, LISTS_BASE + 7 * 4096 + 64));

	/* the Tile Fetcher reads it all back */
	struct tsr_tiling_stats fs;
	memset(&fs, 0, sizeof(fs));
	uint64_t attr_reads = 0;
	for (uint32_t t = 0; t < 8; t++) {
		uint32_t n = 999;
		const uint32_t *list = tsr_tile_fetch(pb, t, p, m, &n, &fs);
		assert_int_equal(n, tsr_pb_list_length(pb, t));
		assert_ptr_equal(list, tsr_pb_list(pb, t));
		attr_reads += 2ull * n;
	}
	assert_int_equal(fs.pmds_read, 13);
	assert_int_equal(fs.pmds_written, 0);
	/* one 64-byte PMD block per tile (every list holds <= 16 PMDs) */
	assert_int_equal(tile_cache(m, TSR_STREAM_PB_LISTS)->reads, 8);
	assert_int_equal(tile_cache(m, TSR_STREAM_PB_ATTRIBUTES)->reads, attr_reads);
	assert_int_equal(attr_reads, 26);

	/* a new frame empties the lists and restarts PB-Attributes */
	tsr_pb_begin_frame(pb, NULL, 0);
	for (uint32_t t = 0; t < 8; t++)
		assert_int_equal(tsr_pb_list_length(pb, t), 0);
	assert_int_equal(bin(pb, &p[4], 0, m, &st), 1);
	assert_int_equal(p[4].pb_addr, ATTR_BASE);

	tsr_memsys_destroy(m);
	tsr_pb_destroy(pb);
}

/* Sizes of the attribute writes the Tile Cache receives. */
struct write_sizes {
	uint64_t attr_writes, attr_write_bytes;
};

static void log_write_size(void *ctx, const struct tsr_access *a)
{
	struct write_sizes *w = ctx;
	if (a->stream == TSR_STREAM_PB_ATTRIBUTES && a->write) {
		w->attr_writes++;
		w->attr_write_bytes += a->size;
	}
}

/*
 * TCOR III-D-1: the Polygon List Builder writes each attribute's whole
 * 64-byte block (the last tile's ID in the spare bytes). Whole blocks need
 * no fetch even in a fetch-on-write cache; 48-byte writes do, unless the
 * cache allocates with a byte mask (the default): then nothing of the
 * Parameter Buffer is ever read from DRAM.
 */
static void test_attribute_block_writes(void **state)
{
	(void)state;
	for (int whole = 0; whole <= 1; whole++) {
		for (int fetch = 0; fetch <= 1; fetch++) {
			struct tsr_pb_layout l = layout(SW, SH, 32, 1024, 4, 1 << 20);
			l.attribute_write_bytes = whole ? 64 : 48;
			struct tsr_param_buffer *pb = pb_new(&l);
			struct tsr_gpu_config cfg;
			tsr_config_defaults(&cfg);
			tsr_memsys_config_cache(&cfg.mem, "tile")->geom.fetch_on_write = (uint32_t)fetch;
			tsr_memsys_config_cache(&cfg.mem, "l2")->geom.fetch_on_write = (uint32_t)fetch;
			struct tsr_memsys *m = NULL;
			assert_int_equal(tsr_memsys_create(&cfg.mem, &m, NULL), TSR_OK);
			struct write_sizes w = {0};
			struct tsr_cache_observer ob = {log_write_size, NULL, &w};
			tsr_cache_set_observer(tsr_memsys_cache_by_name(m, "tile"), &ob);
			struct tsr_tiling_stats st;
			memset(&st, 0, sizeof(st));
			struct tsr_primitive p[5];
			make_scene(p);
			for (uint32_t i = 0; i < 5; i++)
				bin(pb, &p[i], i, m, &st);
			/* 4 binned primitives x 2 attributes */
			assert_int_equal(w.attr_writes, 8);
			assert_int_equal(w.attr_write_bytes, 8 * (whole ? 64 : 48));
			/* the footprint counts attribute bytes either way */
			assert_int_equal(st.pb_attributes_bytes, 8 * 48);
			const uint64_t dram_reads =
				tsr_memsys_dram(m, TSR_STREAM_PB_ATTRIBUTES)->read_bytes +
				tsr_memsys_dram(m, TSR_STREAM_PB_LISTS)->read_bytes;
			/* only 48-byte writes into a fetch-on-write cache read lines:
			 * 8 attribute blocks and 8 PMD blocks */
			assert_int_equal(dram_reads, fetch ? (whole ? 8 : 16) * 64 : 0);
			tsr_memsys_destroy(m);
			tsr_pb_destroy(pb);
		}
	}
}

static void test_overlap_test(void **state)
{
	(void)state;
	struct tsr_primitive p[5];
	make_scene(p);
	/* P1 against single pixels: (63, 31) has centre 63.5 + 63 = 126.5 <= 128 */
	assert_true(tsr_triangle_overlaps_rect(&p[1], 63, 31, 63, 31));
	/* (64, 32): 64.5 + 65 > 128 */
	assert_false(tsr_triangle_overlaps_rect(&p[1], 64, 32, 64, 32));
	/* a rectangle that only straddles the edge overlaps */
	assert_true(tsr_triangle_overlaps_rect(&p[1], 60, 30, 70, 40));
	assert_false(tsr_triangle_overlaps_rect(&p[3], 1, 1, 1, 1));
	assert_true(tsr_triangle_overlaps_rect(&p[3], 0, 0, 1, 1));
}

static void test_list_overflow(void **state)
{
	(void)state;
	/* 16 PMDs per list, a pool of 2 overflow chunks */
	struct tsr_pb_layout l = layout(SW, SH, 32, 16, 2, 1 << 20);
	struct tsr_param_buffer *pb = pb_new(&l);
	struct tsr_memsys *m = memsys_new();
	struct tsr_tiling_stats st;
	memset(&st, 0, sizeof(st));
	enum { N = 40 };
	struct tsr_primitive p[N];
	uint32_t n = 0;
	/* 20 triangles in tile 0 */
	for (; n < 20; n++) {
		p[n] = tri(2, 2, 10, 2, 2, 10, SW, SH);
		assert_int_equal(bin(pb, &p[n], n, m, &st), 1);
		if (n == 15)
			assert_int_equal(st.list_overflows, 0);
		if (n == 16) {
			/* the 17th PMD opened chunk 0 of the pool */
			assert_int_equal(st.list_overflows, 1);
			assert_int_equal(tsr_pb_pmd_address(pb, 0, 16), OVERFLOW_BASE);
			assert_true(tile_cache_holds(m, OVERFLOW_BASE));
		}
	}
	assert_int_equal(tsr_pb_pmd_address(pb, 0, 15), LISTS_BASE + 60);
	assert_int_equal(tsr_pb_pmd_address(pb, 0, 19), OVERFLOW_BASE + 12);
	assert_int_equal(st.list_overflows, 1);
	assert_int_equal(tsr_pb_list_length(pb, 0), 20);
	/* 17 in tile 5: the 17th lands at chunk 1 of the pool */
	for (uint32_t k = 0; k < 17; k++, n++) {
		p[n] = tri(40, 40, 50, 40, 40, 50, SW, SH);
		assert_int_equal(bin(pb, &p[n], n, m, &st), 1);
	}
	assert_int_equal(st.list_overflows, 2);
	assert_int_equal(tsr_pb_pmd_address(pb, 5, 16), OVERFLOW_BASE + 16 * 4);
	assert_true(tile_cache_holds(m, OVERFLOW_BASE + 64));
	assert_int_equal(st.pmds_written, 37);
	assert_int_equal(tile_cache(m, TSR_STREAM_PB_LISTS)->writes, 37);
	assert_int_equal(tile_cache(m, TSR_STREAM_PB_ATTRIBUTES)->writes, 2 * 37);

	/* the Tile Fetcher: ceil(20/16) = 2 and ceil(17/16) = 2 block reads */
	struct tsr_tiling_stats fs;
	memset(&fs, 0, sizeof(fs));
	uint32_t count = 0;
	const uint32_t *list = tsr_tile_fetch(pb, 0, p, m, &count, &fs);
	assert_int_equal(count, 20);
	for (uint32_t i = 0; i < 20; i++)
		assert_int_equal(list[i], i);
	assert_int_equal(tile_cache(m, TSR_STREAM_PB_LISTS)->reads, 2);
	tsr_tile_fetch(pb, 5, p, m, &count, &fs);
	assert_int_equal(count, 17);
	assert_int_equal(fs.pmds_read, 37);
	assert_int_equal(tile_cache(m, TSR_STREAM_PB_LISTS)->reads, 4);
	assert_int_equal(tile_cache(m, TSR_STREAM_PB_ATTRIBUTES)->reads, 2 * 37);
	/* an empty tile reads nothing */
	tsr_tile_fetch(pb, 7, p, m, &count, &fs);
	assert_int_equal(count, 0);
	assert_int_equal(tile_cache(m, TSR_STREAM_PB_LISTS)->reads, 4);

	/* a third full list finds the pool exhausted */
	struct tsr_error err;
	uint32_t tiles = 0;
	enum tsr_status s = TSR_OK;
	for (uint32_t k = 0; k < 17 && s == TSR_OK; k++) {
		struct tsr_primitive q = tri(100, 40, 110, 40, 100, 50, SW, SH);
		memset(&err, 0, sizeof(err));
		s = tsr_plb_bin(pb, &q, 100 + k, m, &tiles, &st, &err);
		if (k < 16)
			assert_int_equal(s, TSR_OK);
	}
	assert_int_equal(s, TSR_ERR_LIMIT);
	assert_true(err.msg[0] != '\0');
	assert_int_equal(st.list_overflows, 2);

	tsr_memsys_destroy(m);
	tsr_pb_destroy(pb);
}

/*
 * SRC BUG (src/tiling/parameter_buffer.c, tsr_tile_fetch): the config
 * accepts any list capacity from 16 up, but the Tile Fetcher reads each
 * block of 16 PMDs as one contiguous access from the block's first PMD.
 * When the capacity is not a multiple of 16 a block straddles the end of
 * a chunk, and the PMDs past it (which live in an overflow chunk) are read
 * from the bytes after the chunk (the next tile's list) instead. Every PMD
 * must be read from its own address, tsr_pb_pmd_address().
 */
static void test_fetch_reads_pmds_from_overflow_chunk(void **state)
{
	(void)state;
	struct tsr_pb_layout l = layout(SW, SH, 32, 20, 2, 1 << 20);
	struct tsr_param_buffer *pb = pb_new(&l);
	struct tsr_memsys *m = memsys_new();
	struct tsr_tiling_stats st;
	memset(&st, 0, sizeof(st));
	struct tsr_primitive p[30];
	for (uint32_t n = 0; n < 30; n++) {
		p[n] = tri(2, 2, 10, 2, 2, 10, SW, SH);
		assert_int_equal(bin(pb, &p[n], n, m, &st), 1);
	}
	/* PMDs 0-19 in the list, 20-29 at the start of overflow chunk 0 */
	assert_int_equal(st.list_overflows, 1);
	assert_int_equal(tsr_pb_pmd_address(pb, 0, 19), LISTS_BASE + 76);
	assert_int_equal(tsr_pb_pmd_address(pb, 0, 20), OVERFLOW_BASE);
	assert_int_equal(tsr_pb_pmd_address(pb, 0, 29), OVERFLOW_BASE + 36);
	/* fetch through a cold hierarchy: what it holds afterwards was read.
	 * Results are collected and everything freed before the checks, so
	 * that the expected failure leaks nothing under the sanitizers. */
	struct tsr_memsys *cold = memsys_new();
	struct tsr_tiling_stats fs;
	memset(&fs, 0, sizeof(fs));
	uint32_t count = 0;
	tsr_tile_fetch(pb, 0, p, cold, &count, &fs);
	int pmd0 = tile_cache_holds(cold, LISTS_BASE);
	int pmd19 = tile_cache_holds(cold, LISTS_BASE + 76);
	int pmd20 = tile_cache_holds(cold, OVERFLOW_BASE);
	int pmd29 = tile_cache_holds(cold, OVERFLOW_BASE + 36);
	int tile1 = tile_cache_holds(cold, LISTS_BASE + 128);
	tsr_memsys_destroy(cold);
	tsr_memsys_destroy(m);
	tsr_pb_destroy(pb);

	assert_int_equal(count, 30);
	assert_int_equal(fs.pmds_read, 30);
	assert_true(pmd0);
	assert_true(pmd19);
	assert_true(pmd20);
	assert_true(pmd29);
	/* tile 1's list (from LISTS_BASE + 80) must not be read beyond the
	 * line it shares with tile 0's PMDs 16-19 */
	assert_false(tile1);
}

static void test_attributes_region_full(void **state)
{
	(void)state;
	/* room for 3 primitives of 2 attributes */
	struct tsr_pb_layout l = layout(SW, SH, 32, 1024, 0, 3 * 128);
	struct tsr_param_buffer *pb = pb_new(&l);
	struct tsr_memsys *m = memsys_new();
	struct tsr_tiling_stats st;
	memset(&st, 0, sizeof(st));
	struct tsr_primitive p[4];
	for (uint32_t i = 0; i < 3; i++) {
		p[i] = tri(2, 2, 10, 2, 2, 10, SW, SH);
		assert_int_equal(bin(pb, &p[i], i, m, &st), 1);
		assert_int_equal(p[i].pb_addr, ATTR_BASE + 128 * i);
	}
	p[3] = tri(2, 2, 10, 2, 2, 10, SW, SH);
	struct tsr_error err;
	memset(&err, 0, sizeof(err));
	uint32_t tiles = 7;
	assert_int_equal(tsr_plb_bin(pb, &p[3], 3, m, &tiles, &st, &err),
			 TSR_ERR_LIMIT);
	assert_int_equal(tiles, 0);
	assert_non_null(strstr(err.msg, "PB-Attributes"));
	assert_int_equal(st.pmds_written, 3);
	tsr_memsys_destroy(m);
	tsr_pb_destroy(pb);
}


/*
 * issue 12: with an address map to grow into, a full PB-Attributes region
 * or overflow pool appends a region after every other one (twice what the
 * region held, at least what is needed) and binning goes on; the next frame
 * reuses the grown regions.
 */
static const struct tsr_region *named_region(const struct tsr_addrmap *m, const char *name)
{
	for (uint32_t i = 0; i < m->count; i++)
		if (strcmp(m->regions[i].name, name) == 0)
			return &m->regions[i];
	fail_msg("no region '%s'", name);
	return NULL;
}

static void test_regions_grow_into_map(void **state)
{
	(void)state;
	struct tsr_addrmap map;
	tsr_addrmap_init(&map);
	map.next = 0x40000000ull;
	/* room for 3 primitives of 2 attributes, 16 PMDs per list, 1 pool chunk */
	struct tsr_pb_layout l = layout(SW, SH, 32, 16, 1, 3 * 128);
	l.map = &map;
	struct tsr_param_buffer *pb = pb_new(&l);
	struct tsr_memsys *m = memsys_new();
	struct tsr_tiling_stats st;
	memset(&st, 0, sizeof(st));
	enum { N = 40 };
	struct tsr_primitive p[N];
	for (int frame = 0; frame < 2; frame++) {
		tsr_pb_begin_frame(pb, NULL, (uint32_t)frame);
		for (uint32_t n = 0; n < N; n++) {
			p[n] = tri(2, 2, 10, 2, 2, 10, SW, SH);
			assert_int_equal(bin(pb, &p[n], n, m, &st), 1);
		}
		assert_int_equal(p[2].pb_addr, ATTR_BASE + 256);
		assert_int_equal(p[3].pb_addr, 0x40000000ull);  /* pb_attributes.grow1 */
		/* PMD 16: the layout's pool chunk; PMD 32: the pool's first growth */
		assert_int_equal(tsr_pb_pmd_address(pb, 0, 16), OVERFLOW_BASE);
		assert_int_equal(tsr_pb_pmd_address(pb, 0, 33),
				 named_region(&map, "pb_lists_overflow.grow1")->base + 4);
		assert_int_equal(tsr_pb_list_length(pb, 0), N);
	}
	/* grown in frame 0 only: each attribute growth twice what the region
	 * held (384, 768, 1536, 3072 bytes), the pool by 16 chunks of 64 bytes */
	assert_int_equal(map.count, 5);
	const uint64_t sizes[] = {384, 768, 1536, 3072};
	const uint32_t first_prim[] = {3, 6, 12, 24};
	for (int i = 0; i < 4; i++) {
		char name[64];
		snprintf(name, sizeof(name), "pb_attributes.grow%d", i + 1);
		const struct tsr_region *r = named_region(&map, name);
		assert_non_null(r);
		assert_int_equal(r->size_bytes, sizes[i]);
		assert_int_equal(p[first_prim[i]].pb_addr, r->base);
	}
	assert_int_equal(named_region(&map, "pb_lists_overflow.grow1")->size_bytes, 16 * 16 * 4);
	tsr_addrmap_release(&map);
	tsr_memsys_destroy(m);
	tsr_pb_destroy(pb);
}

/*
 * issue 12: growth stops at tsr_pb_layout.max_bytes (tiling.pb_max_mib):
 * a growth that would pass it shrinks to what the primitive needs, and
 * one that cannot fit at all is TSR_ERR_LIMIT naming the key.
 */
static void test_regions_growth_limit(void **state)
{
	(void)state;
	struct tsr_addrmap map;
	tsr_addrmap_init(&map);
	map.next = 0x40000000ull;
	struct tsr_pb_layout l = layout(SW, SH, 32, 16, 1, 3 * 128);
	l.map = &map;
	const uint32_t tiles = ((SW + 31) / 32) * ((SH + 31) / 32);
	/* the layout's regions, then 384 + 128 bytes of attribute growth */
	l.max_bytes = tsr_pb_lists_bytes(tiles, 16) + tsr_pb_lists_bytes(1, 16) + 384 + 512;
	struct tsr_param_buffer *pb = pb_new(&l);
	struct tsr_memsys *m = memsys_new();
	struct tsr_tiling_stats st;
	memset(&st, 0, sizeof(st));
	struct tsr_primitive p[8];
	tsr_pb_begin_frame(pb, NULL, 0);
	for (uint32_t n = 0; n < 7; n++) {
		p[n] = tri(2, 2, 10, 2, 2, 10, SW, SH);
		assert_int_equal(bin(pb, &p[n], n, m, &st), 1);
	}
	/* grow1: 384 bytes (3 primitives); grow2: 128 bytes, all that fits */
	assert_int_equal(named_region(&map, "pb_attributes.grow1")->size_bytes, 384);
	assert_int_equal(named_region(&map, "pb_attributes.grow2")->size_bytes, 128);
	p[7] = tri(2, 2, 10, 2, 2, 10, SW, SH);
	struct tsr_error err;
	uint32_t t = 0;
	assert_int_equal(tsr_plb_bin(pb, &p[7], 7, m, &t, &st, &err), TSR_ERR_LIMIT);
	assert_non_null(strstr(err.msg, "'tiling.pb_max_mib'"));
	assert_non_null(strstr(err.msg, "frame 0"));
	tsr_addrmap_release(&map);
	tsr_memsys_destroy(m);
	tsr_pb_destroy(pb);
}

/* Records the metadata of every access the Tile Cache sees. */
struct meta_log {
	uint32_t attr_reads, bad;
	const struct tsr_param_buffer *pb;
	uint32_t frame;
	uint32_t *last_read_pos;  /* per Primitive ID slot: position of the last read */
};

static void log_access(void *ctx, const struct tsr_access *a)
{
	struct meta_log *lg = ctx;
	enum tsr_pb_type type = tsr_pb_meta_type(a->meta);
	if (a->stream == TSR_STREAM_PB_LISTS && type != TSR_PB_LISTS)
		lg->bad++;
	if (a->stream == TSR_STREAM_PB_ATTRIBUTES && type != TSR_PB_ATTRIBUTES)
		lg->bad++;
	if (tsr_pb_meta_frame(a->meta) != lg->frame)
		lg->bad++;
	if (a->stream == TSR_STREAM_PB_ATTRIBUTES && !a->write) {
		lg->attr_reads++;
		/* the last tile of an attribute block is never before this read */
		if (tsr_pb_meta_last_tile(a->meta) < lg->last_read_pos[0])
			lg->bad++;
	}
}

/*
 * OPT Numbers (TCOR III-A) and last uses (III-D) equal what the Tile
 * Fetcher's actual read sequence shows, for every tile order, forward and
 * reversed, and with both PB-Lists layouts; every Parameter Buffer access
 * carries its type, last tile and frame.
 */
static void test_opt_numbers_match_fetch_sequence(void **state)
{
	(void)state;
	enum { W = 320, H = 192, N = 300 };
	const uint32_t tx = W / 32, ty = H / 32, tiles = tx * ty;
	struct tsr_primitive p[N];
	srand(4242);
	for (int i = 0; i < N; i++) {
		double x = rand() % W, y = rand() % H, sx = 4 + rand() % 120, sy = 4 + rand() % 90;
		p[i] = tri(x, y, fmin(x + sx, W - 1), y + 1, x + 2, fmin(y + sy, H - 1), W, H);
	}
	uint32_t order[64], reversed[64];
	for (int layout_kind = 0; layout_kind < 2; layout_kind++)
		for (int o = 0; o < TSR_ORDER_COUNT; o++)
			for (int rev = 0; rev < 2; rev++) {
				tsr_tile_order_build((enum tsr_tile_order)o, tx, ty, order);
				for (uint32_t i = 0; i < tiles; i++)
					reversed[i] = order[tiles - 1 - i];
				const uint32_t *ord = rev ? reversed : order;
				struct tsr_pb_layout l = layout(W, H, 32, 1024, 4, 1 << 20);
				l.interleaved = (uint32_t)layout_kind;
				struct tsr_param_buffer *pb = pb_new(&l);
				struct tsr_memsys *m = memsys_new();
				uint32_t frame = 7 + (uint32_t)rev;
				tsr_pb_begin_frame(pb, ord, frame);
				uint32_t last_read = 0;
				struct meta_log lg = {0, 0, pb, frame, &last_read};
				struct tsr_cache_observer ob = {log_access, NULL, &lg};
				tsr_cache_set_observer(tsr_memsys_cache_by_name(m, "tile"), &ob);
				struct tsr_tiling_stats st;
				memset(&st, 0, sizeof(st));
				uint32_t binned[N];
				for (uint32_t i = 0; i < N; i++)
					binned[i] = bin(pb, &p[i], i, m, &st) > 0;
				/* the fetch sequence: (position, primitive) in visiting order */
				uint32_t seq_pos[4096], seq_prim[4096], seq_opt[4096], n = 0;
				for (uint32_t k = 0; k < tiles; k++) {
					uint32_t t = ord[k], cnt;
					assert_int_equal(tsr_pb_tile_position(pb, t), k);
					last_read = k;
					const uint32_t *list = tsr_tile_fetch(pb, t, p, m, &cnt, &st);
					const uint32_t *opt = tsr_pb_opt_numbers(pb, t);
					for (uint32_t i = 0; i < cnt; i++) {
						assert_true(n < 4096);
						seq_pos[n] = k;
						seq_prim[n] = list[i];
						seq_opt[n++] = opt[i];
					}
				}
				/* scan the future of each read for the primitive's next read */
				for (uint32_t i = 0; i < n; i++) {
					uint32_t next = TSR_PB_NEVER;
					for (uint32_t j = i + 1; j < n && next == TSR_PB_NEVER; j++)
						if (seq_prim[j] == seq_prim[i])
							next = seq_pos[j];
					assert_int_equal(seq_opt[i], next);
				}
				for (uint32_t q = 0; q < N; q++) {
					if (!binned[q])
						continue;
					uint32_t first = TSR_PB_NEVER, last = 0;
					for (uint32_t i = 0; i < n; i++)
						if (seq_prim[i] == q) {
							if (first == TSR_PB_NEVER)
								first = seq_pos[i];
							last = seq_pos[i];
						}
					assert_int_equal(tsr_pb_first_use(pb, q), first);
					assert_int_equal(tsr_pb_last_use(pb, q), last);
				}
				assert_true(lg.attr_reads > 0);
				assert_int_equal(lg.bad, 0);
				tsr_memsys_destroy(m);
				tsr_pb_destroy(pb);
			}
}

/* TCOR III-B, Fig. 6: tile t's k-th block at PB-Lists + (k x tiles + t) x 64. */
static void test_interleaved_layout(void **state)
{
	(void)state;
	struct tsr_pb_layout l = layout(1960, 768, 32, 1024, 2, 1 << 20);
	l.interleaved = 1;
	struct tsr_param_buffer *pb = pb_new(&l);
	const uint64_t tiles = 62 * 24;
	assert_int_equal(tsr_pb_pmd_address(pb, 0, 0), LISTS_BASE);
	assert_int_equal(tsr_pb_pmd_address(pb, 1, 0), LISTS_BASE + 64);
	assert_int_equal(tsr_pb_pmd_address(pb, 5, 3), LISTS_BASE + 5 * 64 + 12);
	assert_int_equal(tsr_pb_pmd_address(pb, 5, 16), LISTS_BASE + (tiles + 5) * 64);
	assert_int_equal(tsr_pb_pmd_address(pb, 1487, 1023),
			 LISTS_BASE + (63 * tiles + 1487) * 64 + 60);
	/* the last PMD of the last tile ends the region exactly */
	assert_int_equal(tsr_pb_pmd_address(pb, 1487, 1023) + 4,
			 LISTS_BASE + tsr_pb_lists_bytes((uint32_t)tiles, 1024));
	tsr_pb_destroy(pb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_orders_are_permutations),
		cmocka_unit_test(test_scanline_and_sorder),
		cmocka_unit_test(test_zorder),
		cmocka_unit_test(test_hilbert_blocks),
		cmocka_unit_test(test_hilbert_d2xy),
		cmocka_unit_test(test_pmd_addresses_tcor),
		cmocka_unit_test(test_binning),
		cmocka_unit_test(test_attribute_block_writes),
		cmocka_unit_test(test_overlap_test),
		cmocka_unit_test(test_list_overflow),
		cmocka_unit_test(test_fetch_reads_pmds_from_overflow_chunk), /* SRC BUG */
		cmocka_unit_test(test_attributes_region_full),
		cmocka_unit_test(test_regions_grow_into_map),
		cmocka_unit_test(test_regions_growth_limit),
		cmocka_unit_test(test_opt_numbers_match_fetch_sequence),
		cmocka_unit_test(test_interleaved_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
