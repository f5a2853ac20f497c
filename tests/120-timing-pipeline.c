/*
 * 120: the timing mode of the whole GPU (pipeline/timing_driver.c,
 * docs/timing.md): every counter but the timing group's equals the
 * functional mode's on every shipped workload; timing runs are
 * deterministic; a fill-rate-bound frame takes the cycles its shader
 * work divided among the cores says, plus its flushes.
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
#include "report/stats.h"
#include "scene/scene.h"
#include "sim/sim.h"
#include "test_util.h"

/* One frame of `workload` on cfg; the total. */
static void run(const struct tsr_gpu_config *cfg, const char *workload, uint32_t frames,
		struct tsr_frame_stats *total)
{
	struct tsr_scene *sc = NULL;
	struct tsr_error err;
	enum tsr_status s = tsr_scene_load(workload, &sc, &err);
	if (s == TSR_OK)
		s = tsr_simulate(cfg, sc, frames, total, &err);
	if (s != TSR_OK)
		fail_msg("%s: %s", workload, err.msg);
	tsr_scene_destroy(sc);
}

/* A small screen, so that every workload runs in a fraction of a second. */
static void small(struct tsr_gpu_config *cfg, int timing)
{
	tsr_config_defaults(cfg);
	cfg->width = 320;
	cfg->height = 192;
	cfg->timing.enabled = timing;
}

/*
 * issue 13: the same counters in both modes, on every shipped workload
 * (two frames: the second sees the first's cache contents); the timing
 * mode counts cycles and its DRAM and memory counters add up (Little's
 * law for the DRAM queue: occupancy summed over cycles = latencies summed).
 */
static void test_same_counters_every_workload(void **state)
{
	(void)state;
	char **list = NULL;
	size_t n = 0;
	struct tsr_error err;
	assert_int_equal(tsr_data_list("workloads", ".json", &list, &n, &err), TSR_OK);
	assert_true(n >= 10);
	struct tsr_frame_stats *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	assert_non_null(a);
	assert_non_null(b);
	for (size_t i = 0; i < n; i++) {
		char path[4096];
		assert_int_equal(tsr_data_resolve("workloads", list[i], path, sizeof(path), &err),
				 TSR_OK);
		struct tsr_gpu_config cfg;
		small(&cfg, 0);
		run(&cfg, path, 2, a);
		small(&cfg, 1);
		run(&cfg, path, 2, b);
		assert_true(b->timing.cycles > 0);
		assert_true(b->timing.cycles >= b->timing.geometry_cycles + b->timing.tile_cycles);
		assert_int_equal(b->timing.dram_occupancy, b->timing.dram_latency);
		assert_true(b->timing.memory_requests > 0);
		for (uint32_t c = 0; c < cfg.mem.cores; c++)
			assert_true(b->timing.core_busy[c] > 0 || b->raster.quads_per_core[c] == 0);
		memset(&b->timing, 0, sizeof(b->timing));
		memset(b->cache_timing, 0, sizeof(b->cache_timing));
		memset(b->stream_timing, 0, sizeof(b->stream_timing));
		if (memcmp(a, b, sizeof(*a)) != 0)
			fail_msg("%s: the timing mode changed a counter", list[i]);
	}
	free(a);
	free(b);
	tsr_data_list_free(list);
}

/* Two timing runs give bit-identical statistics, timing included. */
static void test_deterministic(void **state)
{
	(void)state;
	struct tsr_frame_stats *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	assert_non_null(a);
	assert_non_null(b);
	char path[4096];
	struct tsr_error err;
	assert_int_equal(tsr_data_resolve("workloads", "sprites-2d", path, sizeof(path), &err),
			 TSR_OK);
	struct tsr_gpu_config cfg;
	small(&cfg, 1);
	run(&cfg, path, 3, a);
	run(&cfg, path, 3, b);
	assert_memory_equal(a, b, sizeof(*a));
	free(a);
	free(b);
}

/*
 * Fill-rate bound: one untextured opaque triangle covering a 128 x 64
 * screen of 32 x 32 tiles (8 tiles of 256 quads), A ALU instructions a quad, and
 * perfect routes for instructions, the Parameter Buffer and colors (no
 * memory time). FG-xshift2 gives each of the 4 cores 64 quads a tile, so
 * a tile takes 64 A cycles of shading plus its flush, one write a cycle
 * (32 rows: a perfect route takes a row as one access), plus a few cycles of pipeline fill
 * (setup, Rasterizer, Early-Z, the last quad's retirement): at most 16.
 */
static void test_fill_rate(void **state)
{
	(void)state;
	const uint32_t A = 32;
	/* one triangle larger than the screen: every quad covered once */
	const char *mesh = tsr_test_write_tmp("big.obj",
		"v -70 -40 0\nv 200 -40 0\nv -70 120 0\nf 1 2 3\n");
	char obj[1024];
	snprintf(obj, sizeof(obj),
		 "{\"version\": 1, \"frames\": 1, \"passes\": [{\n"
		 " \"camera\": {\"projection\": \"orthographic\", \"ortho_height\": 64,\n"
		 "   \"near\": 1, \"far\": 20, \"eye\": [0, 0, 10], \"target\": [0, 0, 0]},\n"
		 " \"objects\": [{\"mesh\": \"%s\", \"material\": {\"lit\": false,\n"
		 "   \"double_sided\": true, \"shader_alu_instructions\": %u}}]}]}\n",
		 mesh, A);
	const char *w = tsr_test_write_tmp("fill.json", obj);
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	cfg.width = 128;
	cfg.height = 64;
	cfg.timing.enabled = 1;
	const char *perfect[] = {"instruction", "pb_lists", "pb_attributes", "color", "index",
				 "vertex"};
	for (size_t i = 0; i < sizeof(perfect) / sizeof(perfect[0]); i++)
		for (uint32_t r = 0; r < TSR_ROUTE_COUNT; r++)
			if (!strcmp(tsr_memsys_route_name(r), perfect[i]))
				snprintf(cfg.mem.routes[r], sizeof(cfg.mem.routes[r]), "%s",
					 TSR_ROUTE_PERFECT);
	struct tsr_frame_stats *t = malloc(sizeof(*t));
	assert_non_null(t);
	run(&cfg, w, 1, t);
	assert_int_equal(t->raster.quads_shaded, 8 * 256);
	for (uint32_t c = 0; c < 4; c++)
		assert_int_equal(t->raster.quads_per_core[c], 8 * 64);
	const uint64_t per_tile = 64 * A + 32;
	const uint64_t tiles = t->timing.tile_cycles;
	print_message("fill rate: %llu tile cycles, analytic %llu + fill\n",
		      (unsigned long long)tiles, (unsigned long long)(8 * per_tile));
	assert_true(tiles >= 8 * per_tile);
	assert_true(tiles <= 8 * (per_tile + 16));
	for (uint32_t c = 0; c < 4; c++)
		assert_int_equal(t->timing.core_busy[c], 8 * 64 * A);
	free(t);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill_rate),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_same_counters_every_workload),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
