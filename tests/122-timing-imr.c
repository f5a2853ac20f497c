/*
 * 122: the timing mode of the immediate-mode pipeline (pipeline.mode imr
 * with timing.enabled; pipeline/timing_driver.c, docs/timing.md
 * "Immediate mode"): every counter but the timing group's equals the IMR
 * functional mode's on every shipped workload, single- and multi-pass;
 * runs are deterministic; a full-screen opaque quad with every route
 * perfect is bound by its shading, Q A / cores cycles plus the pipeline's
 * fill (no flush in an IMR); with its depth and HiZ reads all going to
 * DRAM and one quad per Early-Z lane waiting for them, each lane's quads
 * take at least the unloaded DRAM read latency one after the other; more
 * quads in flight hide it until the DRAM's bandwidth is the bound.
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
#include "memory/memsys.h"
#include "pipeline/gpu.h"
#include "scene/scene.h"
#include "sim/sim.h"
#include "test_util.h"
#include "test_timing.h"
#include "test_main.h"

/* A small IMR screen, so that every workload runs in a fraction of a second. */
static void small(struct tsr_gpu_config *cfg, int timing)
{
	tsr_config_defaults(cfg);
	cfg->pipeline_mode = TSR_PIPELINE_IMR;
	cfg->width = 160;
	cfg->height = 96;
	cfg->timing.enabled = timing;
}

/* The IMR has no separate geometry phase: its raster phase is the frame. */
static void imr_phases(const struct tsr_frame_stats *b)
{
	assert_true(b->timing.cycles >= b->timing.tile_cycles);
	assert_int_equal(b->timing.geometry_cycles, 0);
}

/* The same counters with and without timing, on every shipped workload
 * (two frames: the second sees the first's cache contents; one of
 * heavy-3d and postfx-bloom, whose timing runs take seconds). The workloads
 * in SAME_SHARDS shares (every SAME_SHARDS-th of the sorted list), each its
 * own test, so that ctest can run them in parallel (tests/CMakeLists.txt);
 * together they are every workload. */
#define SAME_SHARDS 6
static const size_t same_shard[SAME_SHARDS] = {0, 1, 2, 3, 4, 5};
static void test_same_counters_every_workload(void **state)
{
	const size_t *shard = *state;
	tsr_test_same_counters_every_workload(small, imr_phases, *shard, SAME_SHARDS);
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
	tsr_test_deterministic(&cfg, "minimap-3d", 2);  /* multi-pass; postfx-bloom's 960x540 targets are slow under ASan */
}

/* Sets the routes named in `names` to `target`. */
static void set_routes(struct tsr_gpu_config *cfg, const char *const *names, size_t n,
		       const char *target)
{
	for (size_t i = 0; i < n; i++)
		for (uint32_t r = 0; r < TSR_ROUTE_COUNT; r++)
			if (!strcmp(tsr_memsys_route_name(r), names[i]))
				snprintf(cfg->mem.routes[r], sizeof(cfg->mem.routes[r]), "%s",
					 target);
}

/* One untextured opaque triangle covering a w x h screen, A ALU instructions
 * a quad, seen by an orthographic camera whose units are pixels. */
static const char *full_screen(uint32_t h, uint32_t A)
{
	/* one triangle larger than the screen: every quad covered once */
	return tsr_test_flat_workload("full", "v -70 -40 0\nv 200 -40 0\nv -70 120 0\nf 1 2 3\n",
				      h, A);
}

/*
 * A 128 x 64 screen (2048 quads, 512 for each of the 4 cores by
 * FG-xshift2), A ALU instructions a quad.
 *
 * Every route perfect: the cores shade 512 A cycles each and nothing
 * else takes time but the pipeline's fill (the Rasterizer's first quads,
 * Early-Z, the last quad's retirement and blend): at most 16 cycles.
 *
 * Depth and HiZ to DRAM (the default routes), the rest perfect, one quad
 * per Early-Z lane waiting for its reads: each lane's 512 quads wait one
 * after the other for a DRAM read, at least the unloaded row-hit latency
 * (55 GPU cycles at the default 600 MHz, timing/dram.h) each; with 16 in
 * flight (the default) they overlap and the frame is faster, close to
 * the DRAM's bandwidth (every access a whole burst).
 */
static void test_full_screen(void **state)
{
	(void)state;
	const uint32_t A = 4, Q = 2048;
	const char *w = full_screen(64, A);
	static const char *const rest[] = {"instruction", "color", "index", "vertex",
					   "render_target", "display", "texture"};
	static const char *const depth[] = {"z", "hiz"};
	struct tsr_gpu_config cfg;
	small(&cfg, 1);
	cfg.width = 128;
	cfg.height = 64;
	set_routes(&cfg, rest, sizeof(rest) / sizeof(rest[0]), TSR_ROUTE_PERFECT);
	struct tsr_frame_stats *t = malloc(sizeof(*t));
	assert_non_null(t);

	struct tsr_gpu_config perfect = cfg;
	set_routes(&perfect, depth, 2, TSR_ROUTE_PERFECT);
	tsr_test_run(&perfect, w, 1, t);
	assert_int_equal(t->raster.quads_shaded, Q);
	for (uint32_t c = 0; c < 4; c++)
		assert_int_equal(t->raster.quads_per_core[c], Q / 4);
	const uint64_t analytic = (uint64_t)Q / 4 * A;
	print_message("imr, perfect routes: %llu tile cycles, analytic %llu + fill\n",
		      (unsigned long long)t->timing.tile_cycles, (unsigned long long)analytic);
	assert_true(t->timing.tile_cycles >= analytic);
	assert_true(t->timing.tile_cycles <= analytic + 16);
	for (uint32_t c = 0; c < 4; c++)
		assert_int_equal(t->timing.core_busy[c], analytic);

	struct tsr_gpu_config serial = cfg;
	serial.timing.imr_z_quads_in_flight = 1;
	tsr_test_run(&serial, w, 1, t);
	const uint64_t bound = (uint64_t)Q / 4 * 55;
	const uint64_t serial_cycles = t->timing.tile_cycles;
	print_message("imr, depth from DRAM, 1 quad in flight a lane: %llu tile cycles, "
		      "at least %llu\n", (unsigned long long)serial_cycles,
		      (unsigned long long)bound);
	assert_true(serial_cycles >= bound);
	assert_true(serial_cycles <= 3 * bound);  /* four lanes' reads share the DRAM */
	assert_true(t->timing.bottleneck_early_z > serial_cycles / 2);

	tsr_test_run(&cfg, w, 1, t);
	print_message("imr, depth from DRAM, %u quads in flight a lane: %llu tile cycles, "
		      "DRAM bandwidth utilisation %.2f\n", cfg.timing.imr_z_quads_in_flight,
		      (unsigned long long)t->timing.tile_cycles,
		      (double)t->timing.dram_io_bytes / (double)t->timing.dram_peak_bytes);
	/* the reads overlap, until the DRAM's bandwidth bounds the frame */
	assert_true(t->timing.tile_cycles < serial_cycles);
	assert_true(t->timing.dram_io_bytes > t->timing.dram_peak_bytes / 2);
	free(t);
}

static int setup(void **state)
{
	(void)state;
	/* the shipped workloads by absolute path, wherever ctest runs */
	if (setenv("TSR_DATA_DIR", TSR_SOURCE_DIR, 1) != 0)
		return -1;
	return tsr_test_tmp_setup("tsr-122");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_test_tmp_teardown();
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_screen),
		cmocka_unit_test(test_deterministic),
		SAME_COUNTERS(0),
		SAME_COUNTERS(1),
		SAME_COUNTERS(2),
		SAME_COUNTERS(3),
		SAME_COUNTERS(4),
		SAME_COUNTERS(5),
	};
	return TSR_TEST_MAIN(argc, argv, tests, setup, teardown);
}
