/*
 * 120: the timing mode of the whole GPU (pipeline/timing_driver.c,
 * docs/timing.md): every counter but the timing group's equals the
 * functional mode's on every shipped workload; timing runs are
 * deterministic; a fill-rate-bound frame takes the cycles its shader
 * work divided among the cores says, plus its last flush; coupled
 * barriers serialize tiles that load different cores, decoupled ones
 * overlap them; a blending lane waits for its bank's flush; the
 * per-tile execution-time imbalance (DTexL Fig. 14) of a tile one core
 * does alone is the most there is; overlapping frames hide the geometry
 * phase under the last frame's raster phase without changing an image.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "core/datadir.h"
#include "framestats/stats.h"
#include "pipeline/gpu.h"
#include "scene/scene.h"
#include "sim/sim.h"
#include "test_util.h"
#include "test_timing.h"
#include "test_main.h"

/* A small screen, so that every workload runs in a fraction of a second. */
static void small(struct tsr_gpu_config *cfg, int timing)
{
	tsr_config_defaults(cfg);
	cfg->width = 160;
	cfg->height = 96;
	cfg->timing.enabled = timing;
}

/* The TBR's phases fit in the frame. */
static void tbr_phases(const struct tsr_frame_stats *b)
{
	assert_true(b->timing.cycles >= b->timing.geometry_cycles + b->timing.tile_cycles);
}

/*
 * issue 13: the same counters in both modes, on every shipped workload
 * (two frames: the second sees the first's cache contents; one of
 * heavy-3d and postfx-bloom, whose timing runs take seconds); the timing
 * mode counts cycles and its DRAM and memory counters add up (Little's
 * law for the DRAM queue: occupancy summed over cycles = latencies summed).
 * The workloads in SAME_SHARDS shares (every SAME_SHARDS-th of the sorted
 * list), each its own test, so that ctest can run them in parallel
 * (tests/CMakeLists.txt); together they are every workload.
 */
#define SAME_SHARDS 6
static const size_t same_shard[SAME_SHARDS] = {0, 1, 2, 3, 4, 5};
static void test_same_counters_every_workload(void **state)
{
	const size_t *shard = *state;
	tsr_test_same_counters_every_workload(small, tbr_phases, *shard, SAME_SHARDS);
}

/* share k's test, named test_same_counters_every_workload_k */
#define SAME_COUNTERS(k)                                                                \
	{"test_same_counters_every_workload_" #k, test_same_counters_every_workload, NULL,  \
	 NULL, (void *)&same_shard[k]}

/* Two timing runs give bit-identical statistics, timing included. */
static void test_deterministic(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	small(&cfg, 1);
	tsr_test_deterministic(&cfg, "sprites-2d", 3);
}

/* Every route of instructions, the Parameter Buffer, colors and geometry
 * perfect: no memory time but the shaders'. */
static void perfect_routes(struct tsr_gpu_config *cfg)
{
	const char *perfect[] = {"instruction", "pb_lists", "pb_attributes", "color", "index",
				 "vertex"};
	for (size_t i = 0; i < sizeof(perfect) / sizeof(perfect[0]); i++)
		for (uint32_t r = 0; r < TSR_ROUTE_COUNT; r++)
			if (!strcmp(tsr_memsys_route_name(r), perfect[i]))
				snprintf(cfg->mem.routes[r], sizeof(cfg->mem.routes[r]), "%s",
					 TSR_ROUTE_PERFECT);
}

/*
 * Fill-rate bound: one untextured opaque triangle covering a 128 x 64
 * screen of 32 x 32 tiles (8 tiles of 256 quads), A ALU instructions a quad, and
 * perfect routes for instructions, the Parameter Buffer and colors (no
 * memory time). FG-xshift2 gives each of the 4 cores 64 quads a tile, so
 * the cores shade for 8 x 64 A cycles; a tile's flush (32 writes, one a
 * cycle: a perfect route takes a row as one access) overlaps the next
 * tile's shading but the last one's, and the Rasterizer runs ahead, so
 * the raster phase is 8 x 64 A + 32 cycles plus the pipeline's fill
 * (setup, Rasterizer, Early-Z, the last quad's retirement): at most 16.
 */
static void test_fill_rate(void **state)
{
	(void)state;
	const uint32_t A = 32;
	/* one triangle larger than the screen: every quad covered once */
	const char *w = tsr_test_flat_workload("big", "v -70 -40 0\nv 200 -40 0\nv -70 120 0\nf 1 2 3\n",
				      64, A);
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	cfg.width = 128;
	cfg.height = 64;
	cfg.timing.enabled = 1;
	perfect_routes(&cfg);
	struct tsr_frame_stats *t = malloc(sizeof(*t));
	assert_non_null(t);
	for (uint32_t b = 0; b < TSR_BARRIERS_COUNT; b++) {
		cfg.timing.barriers = b;
		tsr_test_run(&cfg, w, 1, t);
		assert_int_equal(t->raster.quads_shaded, 8 * 256);
		for (uint32_t c = 0; c < 4; c++)
			assert_int_equal(t->raster.quads_per_core[c], 8 * 64);
		const uint64_t analytic = 8 * 64 * A + 32;
		const uint64_t tiles = t->timing.tile_cycles;
		print_message("fill rate, %s barriers: %llu tile cycles, analytic %llu + fill\n",
			      b ? "decoupled" : "coupled", (unsigned long long)tiles,
			      (unsigned long long)analytic);
		assert_true(tiles >= analytic);
		assert_true(tiles <= analytic + 16);
		for (uint32_t c = 0; c < 4; c++)
			assert_int_equal(t->timing.core_busy[c], 8 * 64 * A);
		/* the shader cores hold every tile up but for the pipeline's fill
		 * and the last flush; the bottleneck shares add up to the phase */
		assert_true(t->timing.bottleneck_fragment >= 8 * 64 * A - 16);
		assert_int_equal(t->timing.bottleneck_tile_fetcher + t->timing.bottleneck_rasterizer +
				 t->timing.bottleneck_early_z + t->timing.bottleneck_fragment +
				 t->timing.bottleneck_blending + t->timing.bottleneck_flush, tiles);
	}
	free(t);
}

/*
 * Barriers (DTexL II-C, III-E): a 64 x 32 screen of two tiles; in each,
 * a 16 x 16 square covers one quadrant, which CG-square gives to one
 * core: the left tile's top-left, the right tile's bottom-right, so each
 * tile's Q quads all go to one core and the two tiles to different cores.
 * Coupled, the fragment stage takes the second tile only when every core
 * has finished the first: 2 Q A cycles of shading one after the other.
 * Decoupled, the second core starts as soon as its quads arrive: the
 * tiles overlap, and the raster phase is Q A plus the first tile's
 * rasterization and the flushes, far below.
 */
static void test_barriers(void **state)
{
	(void)state;
	const uint32_t A = 32;
	const char *w = tsr_test_flat_workload("quadrants",
		"v -32 0 0\nv -16 0 0\nv -16 16 0\nv -32 16 0\n"
		"v 16 -16 0\nv 32 -16 0\nv 32 0 0\nv 16 0 0\n"
		"f 1 2 3\nf 1 3 4\nf 5 6 7\nf 5 7 8\n", 32, A);
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	cfg.width = 64;
	cfg.height = 32;
	cfg.quad_grouping = TSR_QG_CG_SQUARE;
	cfg.timing.enabled = 1;
	/* room for a whole tile's quads in a core and its Early-Z lane, so
	 * that the Rasterizer does not wait on the first core (head-of-line
	 * blocking, which no barrier removes) */
	cfg.timing.warp_slots = 64;
	cfg.timing.triangle_queue_entries = 64;
	perfect_routes(&cfg);
	struct tsr_frame_stats *t = malloc(sizeof(*t));
	assert_non_null(t);
	uint64_t cycles[TSR_BARRIERS_COUNT], Q = 0;
	for (uint32_t b = 0; b < TSR_BARRIERS_COUNT; b++) {
		cfg.timing.barriers = b;
		tsr_test_run(&cfg, w, 1, t);
		/* Q quads a square (the pixel-centre rule may add a row of quads) */
		Q = t->raster.quads_shaded / 2;
		assert_true(Q >= 64);
		uint32_t used = 0;
		for (uint32_t c = 0; c < 4; c++) {
			assert_true(t->raster.quads_per_core[c] == 0 ||
				    t->raster.quads_per_core[c] == Q);
			used += t->raster.quads_per_core[c] == Q;
			assert_int_equal(t->timing.core_busy[c], t->raster.quads_per_core[c] * A);
		}
		assert_int_equal(used, 2);
		cycles[b] = t->timing.tile_cycles;
		print_message("barriers, %s: %llu tile cycles (one core's tile: %llu)\n",
			      b ? "decoupled" : "coupled", (unsigned long long)cycles[b],
			      (unsigned long long)(Q * A));
	}
	assert_true(cycles[TSR_BARRIERS_COUPLED] >= 2 * Q * A);
	assert_true(cycles[TSR_BARRIERS_DECOUPLED] <= Q * A + 256);
	free(t);
}

/*
 * The Color Buffer's bank gate (DTexL III-E): a blending lane starts a
 * subtile only when its bank has been flushed of the last one. A 64 x 256
 * screen of two 32 x 256 tiles, CG-square (quadrants of 16 x 128 pixels),
 * one ALU instruction a quad, perfect routes (a flush write is a row: 256
 * a tile, 64 a bank, one a cycle for the whole Color Buffer). The left
 * tile has one small triangle in its top-left quadrant (core 0), so its
 * banks 1-3 join the write-out queue as soon as it is rasterized and bank
 * 0 last, after its few quads are blended; in the right tile a 16 x 96
 * rectangle in the top-left quadrant gives core 0 again Q quads. Core 0's
 * blending lane may take them only after its bank's flush of the left
 * tile, the 256th write: so the raster phase lasts at least 256 cycles,
 * then Q quads blended one a cycle, then the bank's 64 writes, with either
 * barrier mode. Without the gate the Q quads would be blended during the
 * left tile's flush (the Rasterizer and the core take them one a cycle
 * from the start): with the gate removed from the driver the runs took
 * 683 (coupled) and 679 (decoupled) cycles against a bound of 723, and
 * with it 936 and 740.
 */
static void test_flush_gate(void **state)
{
	(void)state;
	const char *w = tsr_test_flat_workload("gate",
		"v -30 126 0\nv -26 126 0\nv -30 122 0\n"
		"v 0 32 0\nv 16 32 0\nv 16 128 0\nv 0 128 0\n"
		"f 1 2 3\nf 4 5 6\nf 4 6 7\n", 256, 1);
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	cfg.width = 64;
	cfg.height = 256;
	cfg.tile_width = 32;
	cfg.tile_height = 256;
	cfg.quad_grouping = TSR_QG_CG_SQUARE;
	cfg.timing.enabled = 1;
	cfg.timing.warp_slots = 64;
	cfg.timing.triangle_queue_entries = 64;
	perfect_routes(&cfg);
	struct tsr_frame_stats *t = malloc(sizeof(*t));
	assert_non_null(t);
	for (uint32_t b = 0; b < TSR_BARRIERS_COUNT; b++) {
		cfg.timing.barriers = b;
		tsr_test_run(&cfg, w, 1, t);
		/* every quad on core 0: the small triangle's few, the rectangle's Q */
		assert_int_equal(t->raster.quads_shaded, t->raster.quads_per_core[0]);
		const uint64_t q = t->raster.quads_per_core[0];
		/* the rectangle's 384 quads, a row and a column more by the
		 * pixel-centre rule; the small triangle's at most 16 */
		assert_true(q >= 384 && q <= 384 + 8 + 48 + 16);
		const uint64_t bound = 256 + (q - 16) + 64;
		print_message("flush gate, %s: %llu tile cycles, bound %llu\n",
			      b ? "decoupled" : "coupled",
			      (unsigned long long)t->timing.tile_cycles, (unsigned long long)bound);
		assert_true(t->timing.tile_cycles >= bound);
		/* DTexL Fig. 14: with raster.quad_imbalance_stats, each tile's cores'
		 * execution times deviate by the most there is (one core works:
		 * 150%), and the timing counters are the same */
		struct tsr_frame_stats *u = malloc(sizeof(*u));
		assert_non_null(u);
		cfg.quad_imbalance_stats = 1;
		tsr_test_run(&cfg, w, 1, u);
		cfg.quad_imbalance_stats = 0;
		assert_int_equal(t->time_imbalance.tiles, 0);
		assert_int_equal(u->time_imbalance.tiles, 2);
		assert_int_equal(u->time_imbalance.permille_sum, 2 * 1500);
		assert_memory_equal(&t->timing, &u->timing, sizeof(t->timing));
		free(u);
	}
	free(t);
}

/* Per frame of a run: its counters and image. */
#define OV_FRAMES 3
struct frames_seen {
	struct tsr_frame_stats st[OV_FRAMES];
	uint8_t *image[OV_FRAMES];
	size_t image_bytes;
	uint32_t n;
};

static enum tsr_status keep_frame(void *ctx, struct tsr_sim *s, const struct tsr_frame_stats *fs,
				  struct tsr_error *err)
{
	(void)err;
	struct frames_seen *f = ctx;
	assert_true(f->n < OV_FRAMES);
	f->st[f->n] = *fs;
	f->image[f->n] = malloc(f->image_bytes);
	assert_non_null(f->image[f->n]);
	memcpy(f->image[f->n], tsr_gpu_frame_image(tsr_sim_gpu(s)), f->image_bytes);
	f->n++;
	return TSR_OK;
}

/* The frames of shipped `workload` on cfg (its scene loaded once). */
static void run_frames(const struct tsr_gpu_config *cfg, const char *workload,
		       struct frames_seen *f)
{
	struct tsr_sim *s = NULL;
	struct tsr_error err;
	f->n = 0;
	f->image_bytes = (size_t)cfg->width * cfg->height * 4;
	if (tsr_sim_open_scene(cfg, tsr_test_scene(workload), &s, &err) != TSR_OK ||
	    tsr_sim_run(s, OV_FRAMES, keep_frame, f, &err) != TSR_OK)
		fail_msg("%s: %s", workload, err.msg);
	tsr_sim_close(s);
	assert_int_equal(f->n, OV_FRAMES);
}

/*
 * timing.overlap_frames: the geometry of frame N+1 runs during the raster
 * of frame N. Every image and every counter of the stages is the same as
 * without it (only the caches see another order); the first frame waits
 * for all of its geometry, the later ones for less than theirs took; each
 * frame's cycles are still its geometry wait, its raster phase and its
 * drain. A configuration with state that is one frame's is refused.
 */
static void test_overlap_frames(void **state)
{
	(void)state;
	char path[4096];
	struct tsr_error err;
	assert_int_equal(tsr_data_resolve("workloads", "glmark-scene", path, sizeof(path), &err),
			 TSR_OK);
	struct frames_seen *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	assert_non_null(a);
	assert_non_null(b);
	struct tsr_gpu_config cfg;
	small(&cfg, 1);
	run_frames(&cfg, path, a);
	cfg.timing.overlap_frames = 1;
	run_frames(&cfg, path, b);
	for (uint32_t i = 0; i < OV_FRAMES; i++) {
		const struct tsr_frame_stats *x = &a->st[i], *y = &b->st[i];
		assert_memory_equal(a->image[i], b->image[i], a->image_bytes);
		assert_memory_equal(&x->geometry, &y->geometry, sizeof(x->geometry));
		assert_memory_equal(&x->raster, &y->raster, sizeof(x->raster));
		assert_memory_equal(&x->texture, &y->texture, sizeof(x->texture));
		assert_int_equal(x->timing.geometry_cycles, x->timing.geometry_busy_cycles);
		for (const struct tsr_frame_stats *z = x; z; z = z == x ? y : NULL)
			assert_true(z->timing.geometry_cycles + z->timing.tile_cycles <=
				    z->timing.cycles);
		if (i == 0)
			assert_int_equal(y->timing.geometry_cycles, y->timing.geometry_busy_cycles);
		else
			assert_true(y->timing.geometry_cycles < y->timing.geometry_busy_cycles);
		free(a->image[i]);
		free(b->image[i]);
	}
	free(a);
	free(b);
	cfg.attribute_cache = 1;
	assert_int_equal(tsr_config_check(&cfg, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "'timing.overlap_frames'"));
}

static int setup(void **state)
{
	(void)state;
	/* the shipped workloads by absolute path, wherever ctest runs */
	if (setenv("TSR_DATA_DIR", TSR_SOURCE_DIR, 1) != 0)
		return -1;
	return tsr_test_tmp_setup("tsr-120");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_test_tmp_teardown();
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill_rate),
		cmocka_unit_test(test_barriers),
		cmocka_unit_test(test_flush_gate),
		cmocka_unit_test(test_deterministic),
		SAME_COUNTERS(0),
		SAME_COUNTERS(1),
		SAME_COUNTERS(2),
		SAME_COUNTERS(3),
		SAME_COUNTERS(4),
		SAME_COUNTERS(5),
		cmocka_unit_test(test_overlap_frames),
	};
	return TSR_TEST_MAIN(argc, argv, tests, setup, teardown);
}
