/*
 * 042: DTexL's quad groupings (III-B-1, Fig. 6) and subtile assignment
 * across tiles (III-D, Fig. 8), checked by brute force over tiles and
 * frames: each grouping is a partition of a tile's quads into equal
 * subtiles and meets the adjacency constraint the paper states; each
 * assignment is a permutation per tile, the flips keep the shared edge on
 * one core, and over a frame flp2/flp3/Sorder-flp share the edges fairly
 * while flp1 favours one core; images are bit-identical for every
 * grouping and assignment (scheduling changes caching, never colors);
 * the quad-distribution imbalance of Fig. 15 on worked examples and in a
 * run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "framestats/stats.h"
#include "pipeline/gpu.h"
#include "raster/raster.h"
#include "raster/subtile_assign.h"
#include "report/report.h"
#include "sim/sim.h"
#include "tiling/tile_order.h"
#include "test_main.h"
#include "test_util.h"

#define Q 16  /* quads per side of a 32x32-pixel tile */

static uint32_t core_at(enum tsr_quad_grouping g, uint32_t n, int32_t qx, int32_t qy)
{
	return tsr_quad_core(g, n, (uint32_t)qx, (uint32_t)qy, Q, Q);
}

/* Every grouping: subtiles in range, equal in size (the paper's shapes are). */
static void test_groupings_partition_equally(void **state)
{
	(void)state;
	const uint32_t counts[] = {1, 2, 4, 8, 16};
	for (int g = 0; g < TSR_QG_COUNT; g++)
		for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
			uint32_t n = counts[k];
			if (tsr_quad_grouping_check((enum tsr_quad_grouping)g, n, 2 * Q, 2 * Q))
				continue;
			uint32_t per[TSR_MAX_CORES] = {0};
			for (int32_t y = 0; y < Q; y++)
				for (int32_t x = 0; x < Q; x++) {
					uint32_t c = core_at((enum tsr_quad_grouping)g, n, x, y);
					assert_true(c < n);
					per[c]++;
				}
			for (uint32_t c = 0; c < n; c++)
				if (per[c] != Q * Q / n) {
					fprintf(stderr, "%s, %u cores: core %u has %u quads\n",
						tsr_quad_grouping_names[g], n, c, per[c]);
					fail();
				}
		}
	/* the supported core counts */
	assert_null(tsr_quad_grouping_check(TSR_QG_FG_XSHIFT1, 3, 32, 32));
	assert_non_null(tsr_quad_grouping_check(TSR_QG_CG_SQUARE, 2, 32, 32));
	assert_non_null(tsr_quad_grouping_check(TSR_QG_CG_TRIANGLE, 16, 32, 32));
	assert_null(tsr_quad_grouping_check(TSR_QG_CG_TRIANGLE, 1, 32, 32));
	assert_non_null(tsr_quad_grouping_check(TSR_QG_CG_XRECT, 16, 16, 32));
	assert_null(tsr_quad_grouping_check(TSR_QG_CG_YRECT, 16, 16, 32));
}

/* Same-core neighbours of a quad, by kind. */
struct same {
	int orth_h, orth_v, diag;  /* horizontal, vertical, diagonal neighbours on its core */
};

static struct same same_core_neighbours(enum tsr_quad_grouping g, int32_t x, int32_t y)
{
	struct same s = {0, 0, 0};
	uint32_t c = core_at(g, 4, x, y);
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) {
			if ((!dx && !dy) || x + dx < 0 || y + dy < 0 || x + dx >= Q || y + dy >= Q)
				continue;
			if (core_at(g, 4, x + dx, y + dy) != c)
				continue;
			if (dx && dy)
				s.diag++;
			else if (dx)
				s.orth_h++;
			else
				s.orth_v++;
		}
	return s;
}

/* III-B-1's constraints on the six fine-grained groupings, for 4 cores. */
static void test_fine_grained_constraints(void **state)
{
	(void)state;
	for (int32_t y = 0; y < Q; y++)
		for (int32_t x = 0; x < Q; x++) {
			/* (a), (b): no adjacent quad (of the 8) on the same core */
			struct same a = same_core_neighbours(TSR_QG_FG_XSHIFT2, x, y);
			struct same b = same_core_neighbours(TSR_QG_FG_YSHIFT2, x, y);
			assert_int_equal(a.orth_h + a.orth_v + a.diag, 0);
			assert_int_equal(b.orth_h + b.orth_v + b.diag, 0);
			/* (c), (d): at most 2 diagonal neighbours, no other */
			struct same c = same_core_neighbours(TSR_QG_FG_XSHIFT1, x, y);
			struct same d = same_core_neighbours(TSR_QG_FG_XSHIFT3, x, y);
			assert_int_equal(c.orth_h + c.orth_v, 0);
			assert_int_equal(d.orth_h + d.orth_v, 0);
			assert_true(c.diag <= 2 && d.diag <= 2);
			/* (e): at most 2 vertical neighbours; (f): at most 2 horizontal */
			struct same e = same_core_neighbours(TSR_QG_FG_XSHIFT0, x, y);
			struct same f = same_core_neighbours(TSR_QG_FG_YSHIFT0, x, y);
			assert_int_equal(e.orth_h + e.diag, 0);
			assert_int_equal(f.orth_v + f.diag, 0);
			assert_true(e.orth_v <= 2 && f.orth_h <= 2);
			if (x > 0 && y > 0 && x < Q - 1 && y < Q - 1) {
				/* inside the tile the bounds are reached */
				assert_int_equal(c.diag, 2);
				assert_int_equal(d.diag, 2);
				assert_int_equal(e.orth_v, 2);
				assert_int_equal(f.orth_h, 2);
			}
		}
	/* (c) and (d) differ: c pairs along /, d along \ */
	assert_int_equal(core_at(TSR_QG_FG_XSHIFT1, 4, 5, 5), core_at(TSR_QG_FG_XSHIFT1, 4, 6, 4));
	assert_int_equal(core_at(TSR_QG_FG_XSHIFT3, 4, 5, 5), core_at(TSR_QG_FG_XSHIFT3, 4, 6, 6));
	/* FG-xshift2 is (qx + 2*qy) mod 4 */
	for (int32_t y = 0; y < Q; y++)
		for (int32_t x = 0; x < Q; x++)
			assert_int_equal(core_at(TSR_QG_FG_XSHIFT2, 4, x, y), (uint32_t)(x + 2 * y) % 4);
}

/* The coarse-grained shapes: bands, strips, triangles, squares. */
static void test_coarse_grained_shapes(void **state)
{
	(void)state;
	for (int32_t y = 0; y < Q; y++)
		for (int32_t x = 0; x < Q; x++) {
			assert_int_equal(core_at(TSR_QG_CG_XRECT, 4, x, y), (uint32_t)x / 4);
			assert_int_equal(core_at(TSR_QG_CG_YRECT, 4, x, y), (uint32_t)y / 4);
			assert_int_equal(core_at(TSR_QG_CG_SQUARE, 4, x, y),
					 (uint32_t)(y / 8 * 2 + x / 8));
			/* triangles: strictly inside one, the quad is on its side */
			int32_t u = 2 * x + 1 - Q, v = 2 * y + 1 - Q;
			uint32_t t = core_at(TSR_QG_CG_TRIANGLE, 4, x, y);
			if (abs(v) > abs(u))
				assert_int_equal(t, v < 0 ? 0u : 2u);
			else if (abs(u) > abs(v))
				assert_int_equal(t, u > 0 ? 1u : 3u);
		}
	/* each coarse subtile is one connected region: a quad of a subtile
	 * has a 4-neighbour in it unless the subtile is a single quad */
	for (int g = 0; g < TSR_QG_COUNT; g++) {
		if (!tsr_quad_grouping_coarse((enum tsr_quad_grouping)g))
			continue;
		for (int32_t y = 0; y < Q; y++)
			for (int32_t x = 0; x < Q; x++) {
				struct same s = same_core_neighbours((enum tsr_quad_grouping)g, x, y);
				assert_true(s.orth_h + s.orth_v > 0);
			}
	}
}

/* The configuration names the key and the problem. */
static void test_config_validation(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	struct tsr_error err = {{0}};
	tsr_config_defaults(&cfg);
	cfg.quad_grouping = TSR_QG_CG_TRIANGLE;
	cfg.mem.cores = 2;
	assert_int_equal(tsr_config_check(&cfg, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "raster.quad_grouping"));
	assert_non_null(strstr(err.msg, "cg-triangle needs 1 or 4 cores"));
	cfg.mem.cores = 4;
	assert_int_equal(tsr_config_check(&cfg, &err), TSR_OK);
	cfg.quad_grouping = TSR_QG_FG_XSHIFT2;
	cfg.subtile_assignment = TSR_SA_FLP2;
	assert_int_equal(tsr_config_check(&cfg, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "raster.subtile_assignment"));
	assert_non_null(strstr(err.msg, "fg-xshift2"));
	cfg.quad_grouping = TSR_QG_CG_YRECT;
	assert_int_equal(tsr_config_check(&cfg, &err), TSR_OK);
	struct tsr_subtile_layout l;
	assert_int_equal(tsr_subtile_layout_init(&l, TSR_QG_FG_XSHIFT1, 4, &err), TSR_ERR_CONFIG);
	assert_int_equal(tsr_subtile_layout_init(&l, TSR_QG_CG_SQUARE, 2, &err), TSR_ERR_CONFIG);
}

/* SCk of the paper (1-based) in 2x2 place order TL, TR, BL, BR. */
static void assert_perm(const uint8_t *p, int tl, int tr, int bl, int br)
{
	assert_int_equal(p[0] + 1, tl);
	assert_int_equal(p[1] + 1, tr);
	assert_int_equal(p[2] + 1, bl);
	assert_int_equal(p[3] + 1, br);
}

/* III-D's worked examples with CG-square: Tile1 -> Tile2 (right), Tile2 -> Tile3 (down). */
static void test_paper_examples(void **state)
{
	(void)state;
	struct tsr_subtile_layout l;
	struct tsr_error err;
	assert_int_equal(tsr_subtile_layout_init(&l, TSR_QG_CG_SQUARE, 4, &err), TSR_OK);
	uint8_t p[4];
	for (int a = TSR_SA_CONST; a < TSR_SA_COUNT; a++) {
		tsr_subtile_assign_step((enum tsr_subtile_assignment)a, &l, p, 0, 0, 0, p);
		assert_perm(p, 1, 2, 3, 4);
	}
	/* HLB-flp1 (8(d)): SC2 and SC4 share the edge from Tile1 to Tile2 ... */
	tsr_subtile_assign_step(TSR_SA_FLP1, &l, p, 1, 1, 0, p);
	assert_perm(p, 2, 1, 4, 3);
	/* ... SC3 and SC4 from Tile2 to Tile3 */
	tsr_subtile_assign_step(TSR_SA_FLP1, &l, p, 2, 0, 1, p);
	assert_perm(p, 4, 3, 2, 1);
	/* HLB-flp2 (8(e)): the same at Tile2 (even), then SC3 and SC4 share
	 * the edge to Tile3 while SC1 and SC2 also interchange their places */
	tsr_subtile_assign_step(TSR_SA_FLP2, &l, p, 0, 0, 0, p);
	tsr_subtile_assign_step(TSR_SA_FLP2, &l, p, 1, 1, 0, p);
	assert_perm(p, 2, 1, 4, 3);
	tsr_subtile_assign_step(TSR_SA_FLP2, &l, p, 2, 0, 1, p);
	assert_perm(p, 4, 3, 1, 2);
	/* const never changes */
	tsr_subtile_assign_step(TSR_SA_CONST, &l, p, 7, 1, 0, p);
	assert_perm(p, 1, 2, 3, 4);
	/* flp3: flp1, and all four flip at tile 17 (position 16) */
	uint8_t f1[4], f3[4];
	tsr_subtile_assign_step(TSR_SA_FLP1, &l, f1, 0, 0, 0, f1);
	tsr_subtile_assign_step(TSR_SA_FLP3, &l, f3, 0, 0, 0, f3);
	for (uint32_t i = 1; i < 16; i++) {
		int32_t dx = i % 2 ? 1 : 0, dy = i % 2 ? 0 : 1;
		tsr_subtile_assign_step(TSR_SA_FLP1, &l, f1, i, dx, dy, f1);
		tsr_subtile_assign_step(TSR_SA_FLP3, &l, f3, i, dx, dy, f3);
		assert_memory_equal(f1, f3, 4);
	}
	tsr_subtile_assign_step(TSR_SA_FLP1, &l, f1, 16, 1, 0, f1);
	tsr_subtile_assign_step(TSR_SA_FLP3, &l, f3, 16, 1, 0, f3);
	assert_int_equal(f3[0], f1[3]);
	assert_int_equal(f3[1], f1[2]);
	assert_int_equal(f3[2], f1[1]);
	assert_int_equal(f3[3], f1[0]);
}

/*
 * Walks a frame of tx x ty tiles in order o with assignment a over
 * grouping g with n cores: checks each tile's map is a permutation and
 * that the flips keep the shared edge on one core, and counts per core
 * the quads along shared edges whose neighbour across the edge (in the
 * previous tile) is on the same core.
 */
static void walk_frame(enum tsr_tile_order o, enum tsr_quad_grouping g, uint32_t n,
		       enum tsr_subtile_assignment a, uint32_t tx, uint32_t ty,
		       uint64_t shared[TSR_MAX_CORES])
{
	struct tsr_subtile_layout l;
	struct tsr_error err;
	assert_int_equal(tsr_subtile_layout_init(&l, g, n, &err), TSR_OK);
	assert_int_equal(l.n, n);
	uint32_t *order = malloc(tx * ty * sizeof(*order));
	assert_non_null(order);
	tsr_tile_order_build(o, tx, ty, order);
	uint8_t prev[TSR_MAX_CORES], cur[TSR_MAX_CORES];
	memset(shared, 0, TSR_MAX_CORES * sizeof(shared[0]));
	for (uint32_t i = 0; i < tx * ty; i++) {
		uint32_t t = order[i], p = order[i ? i - 1 : 0];
		int32_t dx = (int32_t)(t % tx) - (int32_t)(p % tx);
		int32_t dy = (int32_t)(t / tx) - (int32_t)(p / tx);
		tsr_subtile_assign_step(a, &l, prev, i, dx, dy, cur);
		uint32_t seen = 0;
		for (uint32_t s = 0; s < n; s++) {
			assert_true(cur[s] < n);
			seen |= 1u << cur[s];
		}
		assert_int_equal(seen, (1u << n) - 1);  /* one subtile per core */
		if (i && abs(dx) + abs(dy) == 1) {
			uint32_t kept = 0;
			for (int32_t k = 0; k < Q; k++) {
				/* the quad of this tile on the shared edge and its neighbour */
				int32_t cx = dx == 1 ? 0 : dx == -1 ? Q - 1 : k;
				int32_t cy = dy == 1 ? 0 : dy == -1 ? Q - 1 : k;
				int32_t px = dx ? Q - 1 - cx : cx, py = dy ? Q - 1 - cy : cy;
				uint32_t c = cur[core_at(g, n, cx, cy)];
				if (c == prev[core_at(g, n, px, py)]) {
					shared[c]++;
					kept++;
				}
			}
			int all = a == TSR_SA_FLP1 || a == TSR_SA_FLP2 ||
				  (a == TSR_SA_FLP3 && i % 16);
			/* the whole edge on the same cores; cg-triangle's pinwheel
			 * gives the edge's two corner quads to other triangles */
			if (all && g == TSR_QG_CG_TRIANGLE && n == 4)
				assert_true(kept >= Q - 2);
			else if (all)
				assert_int_equal(kept, Q);
		}
		memcpy(prev, cur, n);
	}
	free(order);
}

/* Every assignment, grouping, core count and order: permutations, edges kept. */
static void test_assignments_all(void **state)
{
	(void)state;
	uint64_t shared[TSR_MAX_CORES];
	const uint32_t counts[] = {1, 2, 4, 8, 16};
	for (int o = 0; o < TSR_ORDER_COUNT; o++)
		for (int g = 0; g < TSR_QG_COUNT; g++)
			for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
				if (!tsr_quad_grouping_coarse((enum tsr_quad_grouping)g) ||
				    tsr_quad_grouping_check((enum tsr_quad_grouping)g, counts[k],
							    2 * Q, 2 * Q))
					continue;
				for (int a = 0; a < TSR_SA_COUNT; a++)
					walk_frame((enum tsr_tile_order)o, (enum tsr_quad_grouping)g,
						   counts[k], (enum tsr_subtile_assignment)a, 13, 7,
						   shared);
			}
}

/* (max - min) / mean of the cores' shared-edge counts, in percent. */
static double spread_pct(const uint64_t *shared, uint32_t n)
{
	uint64_t lo = shared[0], hi = shared[0], sum = 0;
	for (uint32_t c = 0; c < n; c++) {
		lo = shared[c] < lo ? shared[c] : lo;
		hi = shared[c] > hi ? shared[c] : hi;
		sum += shared[c];
	}
	return sum ? 100.0 * (double)(hi - lo) * n / (double)sum : 0.0;
}

/* Over a frame (DTexL Table II: 1960x768 in 32x32 tiles), who gets the shared edges. */
static void test_fair_share_over_a_frame(void **state)
{
	(void)state;
	uint64_t s[TSR_MAX_CORES];
	const uint32_t tx = 62, ty = 24;
	walk_frame(TSR_ORDER_HILBERT, TSR_QG_CG_SQUARE, 4, TSR_SA_CONST, tx, ty, s);
	assert_int_equal(s[0] + s[1] + s[2] + s[3], 0);  /* const: no edge kept */
	walk_frame(TSR_ORDER_HILBERT, TSR_QG_CG_SQUARE, 4, TSR_SA_FLP1, tx, ty, s);
	double flp1 = spread_pct(s, 4);
	uint32_t favoured = 0;
	for (uint32_t c = 1; c < 4; c++)
		favoured = s[c] > s[favoured] ? c : favoured;
	walk_frame(TSR_ORDER_HILBERT, TSR_QG_CG_SQUARE, 4, TSR_SA_FLP2, tx, ty, s);
	double flp2 = spread_pct(s, 4);
	walk_frame(TSR_ORDER_HILBERT, TSR_QG_CG_SQUARE, 4, TSR_SA_FLP3, tx, ty, s);
	double flp3 = spread_pct(s, 4);
	walk_frame(TSR_ORDER_SORDER, TSR_QG_CG_YRECT, 4, TSR_SA_FLP1, tx, ty, s);
	double sorder_flp = spread_pct(s, 4);
	walk_frame(TSR_ORDER_SORDER, TSR_QG_CG_YRECT, 4, TSR_SA_CONST, tx, ty, s);
	double sorder_const = spread_pct(s, 4);
	print_message("shared-edge spread (max-min)/mean: HLB-flp1 %.1f%% (core %u favoured), "
		      "HLB-flp2 %.1f%%, HLB-flp3 %.1f%%, Sorder-const %.1f%%, Sorder-flp %.1f%%\n",
		      flp1, favoured, flp2, flp3, sorder_const, sorder_flp);
	/* 16 cores (4x4 squares) */
	double w16[TSR_SA_COUNT];
	for (int a = 0; a < TSR_SA_COUNT; a++) {
		walk_frame(TSR_ORDER_HILBERT, TSR_QG_CG_SQUARE, 16, (enum tsr_subtile_assignment)a, tx,
			   ty, s);
		/* the four inner squares touch no tile edge, and mirrors keep
		 * them inner: their cores never share an edge; spread over the
		 * twelve others */
		uint64_t border[TSR_MAX_CORES];
		uint32_t nb = 0, inner = 0;
		for (uint32_t c = 0; c < 16; c++) {
			if (s[c])
				border[nb++] = s[c];
			else
				inner++;
		}
		w16[a] = spread_pct(border, nb);
		if (a != TSR_SA_CONST)
			assert_int_equal(inner, 4);
	}
	/* corner squares touch two edges, side squares one: the flips halve
	 * flp1's spread but cannot even it out (the paper draws 4 cores only) */
	assert_true(w16[TSR_SA_FLP2] < w16[TSR_SA_FLP1] / 2 && w16[TSR_SA_FLP3] < w16[TSR_SA_FLP1] / 2);
	walk_frame(TSR_ORDER_HILBERT, TSR_QG_CG_TRIANGLE, 4, TSR_SA_FLP2, tx, ty, s);
	double tri2 = spread_pct(s, 4);
	print_message("16 cores, HLB, over the 12 border squares' cores: flp1 %.1f%%, flp2 %.1f%%, "
		      "flp3 %.1f%%; cg-triangle HLB-flp2 "
		      "%.1f%%\n", w16[TSR_SA_FLP1], w16[TSR_SA_FLP2], w16[TSR_SA_FLP3], tri2);
	assert_true(flp1 > 100.0);
	assert_true(flp2 < 20.0);
	assert_true(flp3 < 20.0);
	assert_true(sorder_flp < 20.0);
}

/* FNV-1a over the image bytes. */
static uint64_t fnv1a(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* The last image of a short run of workload w with the given overrides (the
 * scene loaded once: tsr_test_scene). */
static uint64_t run_image(const char *w, const char *const *sets, size_t n)
{
	char path[1024];
	struct tsr_error err = {{0}};
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	if (tsr_config_apply_sets(&cfg, NULL, sets, n, &err) != TSR_OK) {
		fprintf(stderr, "%s\n", err.msg);
		fail();
	}
	snprintf(path, sizeof(path), "%s/workloads/%s", TSR_SOURCE_DIR, w);
	struct tsr_sim *sim = NULL;
	if (tsr_sim_open_scene(&cfg, tsr_test_scene(path), &sim, &err) != TSR_OK ||
	    tsr_sim_run(sim, 2, NULL, NULL, &err) != TSR_OK) {
		fprintf(stderr, "%s\n", err.msg);
		fail();
	}
	uint64_t h = fnv1a(tsr_gpu_frame_image(tsr_sim_gpu(sim)),
			   (size_t)cfg.width * cfg.height * 4);
	tsr_sim_close(sim);
	return h;
}

/*
 * Scheduling changes caching, never colors: every grouping and assignment,
 * on glmark-scene and sprites-2d. The runs of a workload are numbered in
 * the order below; a test takes those whose number modulo `shards` is
 * `shard` (glmark-scene's in four tests, so that ctest runs them in
 * parallel: tests/CMakeLists.txt), each against the default's image.
 */
struct identical {
	const char *workload;
	uint32_t shard, shards;
};
static const struct identical identical_runs[] = {
	{"glmark-scene.json", 0, 4}, {"glmark-scene.json", 1, 4},
	{"glmark-scene.json", 2, 4}, {"glmark-scene.json", 3, 4},
	{"sprites-2d.json", 0, 1}};

/* Run *i (then counted) of id's workload with the n overrides, if id's. */
static void same_image(const struct identical *id, uint32_t *i, uint64_t want,
		       const char *const *sets, size_t n)
{
	if ((*i)++ % id->shards == id->shard)
		assert_true(run_image(id->workload, sets, n) == want);
}

static void test_images_identical(void **state)
{
	const struct identical *id = *state;
	const char *base[] = {"screen.width=320", "screen.height=192"};
	uint64_t want = run_image(id->workload, base, 2);
	uint32_t i = 0;
	char grouping[64], order[64], assign[64];
	for (int g = 0; g < TSR_QG_COUNT; g++) {
		snprintf(grouping, sizeof(grouping), "raster.quad_grouping=%s",
			 tsr_quad_grouping_names[g]);
		const char *sets[] = {base[0], base[1], grouping};
		same_image(id, &i, want, sets, 3);
		if (!tsr_quad_grouping_coarse((enum tsr_quad_grouping)g))
			continue;
		for (int a = 1; a < TSR_SA_COUNT; a++)
			for (int o = 0; o < TSR_ORDER_COUNT; o++) {
				snprintf(assign, sizeof(assign), "raster.subtile_assignment=%s",
					 tsr_subtile_assignment_names[a]);
				snprintf(order, sizeof(order), "tiling.order=%s",
					 tsr_tile_order_names[o]);
				const char *s2[] = {base[0], base[1], grouping, assign, order};
				same_image(id, &i, want, s2, 5);
			}
	}
	/* 16 cores and the timing model */
	const char *s16[] = {base[0], base[1], "raster.cores=16", "raster.quad_grouping=cg-square",
			     "raster.subtile_assignment=flp2", "tiling.order=hilbert"};
	same_image(id, &i, want, s16, 6);
	const char *st[] = {base[0], base[1], "raster.quad_grouping=cg-yrect",
			    "raster.subtile_assignment=flp1", "tiling.order=s-order",
			    "timing.enabled=true"};
	same_image(id, &i, want, st, 6);
	/* the shards of a workload: each took its share of the runs */
	assert_true(i >= 2 * id->shards);
}

/* identical_runs[k]'s test, named test_images_identical_NAME */
#define IDENTICAL(k, name) \
	{"test_images_identical_" name, test_images_identical, NULL, NULL, \
	 (void *)&identical_runs[k]}

/* Fig. 15's metric on worked examples, and its distribution. */
static void test_quad_imbalance_metric(void **state)
{
	(void)state;
	struct tsr_quad_imbalance *h = calloc(1, sizeof(*h));
	assert_non_null(h);
	struct tsr_quad_imbalance_summary q;
	tsr_quad_imbalance_summarise(h, &q);
	assert_int_equal(q.tiles, 0);
	tsr_quad_imbalance_add_tile(h, (const uint64_t[]){0, 0, 0, 0}, 4);  /* not counted */
	assert_int_equal(h->tiles, 0);
	tsr_quad_imbalance_add_tile(h, (const uint64_t[]){4, 4, 4, 4}, 4);    /* 0% */
	tsr_quad_imbalance_add_tile(h, (const uint64_t[]){2, 1, 1, 0}, 4);    /* mean 1, MAD 0.5: 50% */
	tsr_quad_imbalance_add_tile(h, (const uint64_t[]){16, 0, 0, 0}, 4);   /* 150%, the most */
	tsr_quad_imbalance_add_tile(h, (const uint64_t[]){3, 3, 3, 1}, 4);    /* mean 2.5, MAD 0.75: 30% */
	tsr_quad_imbalance_add_tile(h, (const uint64_t[]){1, 0}, 2);          /* 100% */
	tsr_quad_imbalance_summarise(h, &q);
	assert_int_equal(q.tiles, 5);
	assert_true(q.min_pct == 0.0);
	assert_true(q.q1_pct == 30.0);     /* rank 2 of 0 30 50 100 150 */
	assert_true(q.median_pct == 50.0); /* rank 3 */
	assert_true(q.q3_pct == 100.0);    /* rank 4 */
	assert_true(q.max_pct == 150.0);
	assert_true(q.mean_pct > 65.99 && q.mean_pct < 66.01);
	/* frames add up to the run */
	struct tsr_frame_stats *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	assert_non_null(a);
	assert_non_null(b);
	b->quad_imbalance = *h;
	tsr_frame_stats_add(a, b);
	tsr_frame_stats_add(a, b);
	tsr_quad_imbalance_summarise(&a->quad_imbalance, &q);
	assert_int_equal(q.tiles, 10);
	assert_true(q.median_pct == 50.0);
	free(a);
	free(b);
	free(h);
}

/* In a run: only when asked for, every tile with quads, counters unchanged. */
static void test_quad_imbalance_in_a_run(void **state)
{
	(void)state;
	const char *sets[] = {"screen.width=320", "screen.height=192",
			      "raster.quad_grouping=cg-square", "raster.quad_imbalance_stats=false"};
	char path[1024];
	snprintf(path, sizeof(path), "%s/workloads/glmark-scene.json", TSR_SOURCE_DIR);
	struct tsr_frame_stats *tot[2];
	for (int on = 0; on < 2; on++) {
		struct tsr_error err = {{0}};
		struct tsr_gpu_config cfg;
		tsr_config_defaults(&cfg);
		sets[3] = on ? "raster.quad_imbalance_stats=true" : "raster.quad_imbalance_stats=false";
		assert_int_equal(tsr_config_apply_sets(&cfg, NULL, sets, 4, &err), TSR_OK);
		struct tsr_sim *sim = NULL;
		assert_int_equal(tsr_sim_open_scene(&cfg, tsr_test_scene(path), &sim, &err), TSR_OK);
		assert_int_equal(tsr_sim_run(sim, 2, NULL, NULL, &err), TSR_OK);
		tot[on] = malloc(sizeof(*tot[on]));
		assert_non_null(tot[on]);
		*tot[on] = *tsr_sim_total(sim);
		/* stats.json's raster.quad_imbalance only when asked for */
		char *text = NULL;
		assert_int_equal(tsr_stats_object_text(tot[on], tsr_gpu_memsys(tsr_sim_gpu(sim)),
						       cfg.mem.cores, &text, &err),
				 TSR_OK);
		const char *qi = strstr(text, "\"quad_imbalance\"");
		if (!on) {
			assert_null(qi);
		} else {
			assert_non_null(qi);
			const char *keys[] = {"tiles", "mean_pct", "min_pct", "q1_pct", "median_pct",
					      "q3_pct", "max_pct"};
			for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
				assert_non_null(strstr(qi, keys[k]));
		}
		free(text);
		tsr_sim_close(sim);
	}
	assert_int_equal(tot[0]->quad_imbalance.tiles, 0);
	assert_true(tot[1]->quad_imbalance.tiles > 0);
	assert_true(tot[1]->quad_imbalance.tiles <= tot[1]->tiling.tiles);
	assert_memory_equal(&tot[0]->raster, &tot[1]->raster, sizeof(tot[0]->raster));
	assert_memory_equal(&tot[0]->texture, &tot[1]->texture, sizeof(tot[0]->texture));
	free(tot[0]);
	free(tot[1]);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groupings_partition_equally),
		cmocka_unit_test(test_fine_grained_constraints),
		cmocka_unit_test(test_coarse_grained_shapes),
		cmocka_unit_test(test_config_validation),
		cmocka_unit_test(test_paper_examples),
		cmocka_unit_test(test_assignments_all),
		cmocka_unit_test(test_fair_share_over_a_frame),
		IDENTICAL(0, "glmark_scene_0"),
		IDENTICAL(1, "glmark_scene_1"),
		IDENTICAL(2, "glmark_scene_2"),
		IDENTICAL(3, "glmark_scene_3"),
		IDENTICAL(4, "sprites_2d"),
		cmocka_unit_test(test_quad_imbalance_metric),
		cmocka_unit_test(test_quad_imbalance_in_a_run),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
