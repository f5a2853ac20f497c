/*
 * 048: the immediate-mode pipeline (pipeline.mode imr; GSPC Section 2.1,
 * pipeline/imr_driver.c) against the TBR:
 *   - every shipped workload renders bit-identical images in both modes
 *     at a small resolution whose edges cut tiles and 8x8 HiZ blocks
 *     (same rasterization, same per-pixel depth-test and blend order);
 *   - depth (z, hiz) and display traffic appear only in IMR mode,
 *     Parameter Buffer traffic and tile flushes only in TBR mode;
 *   - the shipped configs gspc-8mb and gspc-16mb load, and the config
 *     errors of pipeline.mode name their key.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "config/config.h"
#include "pipeline/gpu.h"
#include "sim/sim.h"
#include "test_main.h"

#define FRAMES 2

/* The gspc-8mb config at a small screen, in pipeline mode `mode`. */
static void small_config(struct tsr_gpu_config *cfg, const char *mode)
{
	char path[1024], set[64];
	snprintf(path, sizeof(path), "%s/configs/gspc-8mb.json", TSR_SOURCE_DIR);
	snprintf(set, sizeof(set), "pipeline.mode=%s", mode);
	const char *sets[] = {set, "screen.width=202", "screen.height=126"};
	struct tsr_error err = {{0}};
	tsr_config_defaults(cfg);
	if (tsr_config_apply_sets(cfg, path, sets, 3, &err) != TSR_OK)
		fail_msg("%s", err.msg);
}

/* A run of cfg on shipped workload `workload` (both modes read one scene). */
static struct tsr_sim *open_sim(const struct tsr_gpu_config *cfg, const char *workload)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/workloads/%s", TSR_SOURCE_DIR, workload);
	struct tsr_sim *sim = NULL;
	struct tsr_error err = {{0}};
	if (tsr_sim_open_scene(cfg, tsr_test_scene(path), &sim, &err) != TSR_OK)
		fail_msg("%s: %s", workload, err.msg);
	return sim;
}

/* Accesses of stream s at every cache, plus its DRAM bytes. */
static uint64_t stream_traffic(const struct tsr_frame_stats *t, enum tsr_stream s)
{
	uint64_t n = t->dram[s].read_bytes + t->dram[s].write_bytes;
	for (uint32_t i = 0; i < TSR_MEMSYS_MAX_CACHES; i++)
		n += t->caches[i][s].reads + t->caches[i][s].writes;
	return n;
}

static int is_json(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && strcmp(name + n - 5, ".json") == 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The shipped workloads in IDENTICAL_SHARDS shares: share k is every
 * IDENTICAL_SHARDS-th of the sorted list from the k-th, each share its own
 * test, so that ctest can run them in parallel (tests/CMakeLists.txt);
 * together they are every workload.
 */
#define IDENTICAL_SHARDS 4
static const size_t identical_shard[IDENTICAL_SHARDS] = {0, 1, 2, 3};

static void test_images_identical_every_workload(void **state)
{
	const size_t shard = *(const size_t *)*state;
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s/workloads", TSR_SOURCE_DIR);
	DIR *d = opendir(dir);
	assert_non_null(d);
	char *names[256];
	size_t count = 0;
	for (struct dirent *e; (e = readdir(d));)
		if (is_json(e->d_name)) {
			assert_true(count < sizeof(names) / sizeof(names[0]));
			names[count] = strdup(e->d_name);
			assert_non_null(names[count]);
			count++;
		}
	closedir(d);
	assert_true(count >= 10);
	qsort(names, count, sizeof(names[0]), by_name);
	struct tsr_gpu_config tbr, imr;
	small_config(&tbr, "tbr");
	small_config(&imr, "imr");
	const size_t bytes = (size_t)tbr.width * tbr.height * 4;
	for (size_t i = shard; i < count; i += IDENTICAL_SHARDS) {
		const char *name = names[i];
		struct tsr_sim *a = open_sim(&tbr, name), *b = open_sim(&imr, name);
		struct tsr_error err = {{0}};
		for (uint32_t f = 0; f < FRAMES; f++) {
			if (tsr_sim_step(a, NULL, &err) != TSR_OK || tsr_sim_step(b, NULL, &err) != TSR_OK)
				fail_msg("%s frame %u: %s", name, f, err.msg);
			const uint8_t *ia = tsr_gpu_frame_image(tsr_sim_gpu(a));
			const uint8_t *ib = tsr_gpu_frame_image(tsr_sim_gpu(b));
			if (memcmp(ia, ib, bytes) != 0) {
				size_t p = 0;
				while (ia[p] == ib[p])
					p++;
				fail_msg("%s frame %u: IMR and TBR images differ first at pixel (%zu, %zu) "
					 "channel %zu: %u vs %u", name, f, p / 4 % tbr.width,
					 p / 4 / tbr.width, p % 4, ia[p], ib[p]);
			}
		}
		/* the images are not trivially blank: some pixel differs from the first */
		const uint8_t *img = tsr_gpu_frame_image(tsr_sim_gpu(b));
		size_t p = 4;
		while (p < bytes && !memcmp(&img[p], img, 4))
			p += 4;
		if (p == bytes)
			print_message("note: %s renders a uniform image at %ux%u\n", name,
				      tbr.width, tbr.height);
		tsr_sim_close(a);
		tsr_sim_close(b);
	}
	for (size_t i = 0; i < count; i++)
		free(names[i]);
}

/* share k's test, named test_images_identical_every_workload_k */
#define IDENTICAL(k)                                                                  \
	{"test_images_identical_every_workload_" #k, test_images_identical_every_workload, \
	 NULL, NULL, (void *)&identical_shard[k]}

static void test_depth_traffic_only_in_imr(void **state)
{
	(void)state;
	struct tsr_gpu_config tbr, imr;
	small_config(&tbr, "tbr");
	small_config(&imr, "imr");
	struct tsr_sim *a = open_sim(&tbr, "glmark-scene.json"),
		       *b = open_sim(&imr, "glmark-scene.json");
	struct tsr_error err = {{0}};
	if (tsr_sim_run(a, FRAMES, NULL, NULL, &err) != TSR_OK ||
	    tsr_sim_run(b, FRAMES, NULL, NULL, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	const struct tsr_frame_stats *ta = tsr_sim_total(a), *tb = tsr_sim_total(b);
	/* IMR: depth, HiZ and displayable color, no Parameter Buffer or tile flush */
	assert_true(stream_traffic(tb, TSR_STREAM_Z) > 0);
	assert_true(stream_traffic(tb, TSR_STREAM_HIZ) > 0);
	assert_true(stream_traffic(tb, TSR_STREAM_DISPLAY) > 0);
	assert_int_equal(stream_traffic(tb, TSR_STREAM_PB_LISTS), 0);
	assert_int_equal(stream_traffic(tb, TSR_STREAM_PB_ATTRIBUTES), 0);
	assert_int_equal(stream_traffic(tb, TSR_STREAM_COLOR), 0);
	assert_int_equal(tb->tiling.tiles, 0);
	/* TBR: the opposite */
	assert_int_equal(stream_traffic(ta, TSR_STREAM_Z), 0);
	assert_int_equal(stream_traffic(ta, TSR_STREAM_HIZ), 0);
	assert_int_equal(stream_traffic(ta, TSR_STREAM_DISPLAY), 0);
	assert_true(stream_traffic(ta, TSR_STREAM_PB_LISTS) > 0);
	assert_true(stream_traffic(ta, TSR_STREAM_PB_ATTRIBUTES) > 0);
	assert_true(stream_traffic(ta, TSR_STREAM_COLOR) > 0);
	/* both fetch vertices and indices and sample textures through their routes */
	for (int s = TSR_STREAM_INDEX; s <= TSR_STREAM_VERTEX; s++)
		assert_int_equal(stream_traffic(ta, (enum tsr_stream)s) > 0,
				 stream_traffic(tb, (enum tsr_stream)s) > 0);
	assert_true(stream_traffic(tb, TSR_STREAM_TEXTURE) > 0);
	/* the same quads are shaded: HiZ and Early-Z kill only what would fail */
	assert_int_equal(ta->raster.pixels_written, tb->raster.pixels_written);
	assert_int_equal(ta->raster.fragments_shaded, tb->raster.fragments_shaded);
	tsr_sim_close(a);
	tsr_sim_close(b);
}

static void test_shipped_configs(void **state)
{
	(void)state;
	static const char *const names[] = {"gspc-8mb.json", "gspc-16mb.json"};
	static const uint32_t llc_mib[] = {8, 16};
	for (int i = 0; i < 2; i++) {
		char path[1024];
		snprintf(path, sizeof(path), "%s/configs/%s", TSR_SOURCE_DIR, names[i]);
		struct tsr_gpu_config cfg;
		struct tsr_error err = {{0}};
		tsr_config_defaults(&cfg);
		if (tsr_config_load(path, &cfg, &err) != TSR_OK)
			fail_msg("%s: %s", names[i], err.msg);
		assert_int_equal(cfg.pipeline_mode, TSR_PIPELINE_IMR);
		assert_int_equal(cfg.width, 1920);  /* GSPC Table 1 */
		assert_int_equal(cfg.height, 1200);
		const struct tsr_cache_config *llc = tsr_memsys_config_cache(&cfg.mem, "llc");
		assert_non_null(llc);
		assert_int_equal(llc->geom.size_bytes, (uint64_t)llc_mib[i] << 20);
		assert_int_equal(llc->geom.ways, 16);
		assert_int_equal(llc->geom.line_bytes, 64);
		/* GSPC Section 4's render caches */
		static const struct {
			const char *name;
			uint32_t bytes, ways;
		} rc[] = {{"index", 1024, 16},  {"vertex", 16384, 128},        {"hiz", 12288, 24},
			  {"stencil", 16384, 16}, {"render_target", 24576, 24}, {"z", 32768, 32},
			  {"texture_l3", 393216, 48}};
		for (size_t k = 0; k < sizeof(rc) / sizeof(rc[0]); k++) {
			const struct tsr_cache_config *c = tsr_memsys_config_cache(&cfg.mem, rc[k].name);
			assert_non_null(c);
			assert_int_equal(c->geom.size_bytes, rc[k].bytes);
			assert_int_equal(c->geom.ways, rc[k].ways);
		}
		assert_string_equal(cfg.mem.routes[TSR_STREAM_Z], "z");
		assert_string_equal(cfg.mem.routes[TSR_STREAM_HIZ], "hiz");
		assert_string_equal(cfg.mem.routes[TSR_STREAM_STENCIL], "stencil");
		assert_string_equal(cfg.mem.routes[TSR_STREAM_DISPLAY], "render_target");
		assert_string_equal(cfg.mem.routes[TSR_STREAM_RENDER_TARGET], "render_target");
	}
}

/* The error of loading the defaults with `set`, which must name `key`. */
static void expect_config_error(const char *const *sets, size_t n, const char *key)
{
	struct tsr_gpu_config cfg;
	struct tsr_error err = {{0}};
	tsr_config_defaults(&cfg);
	assert_int_equal(tsr_config_apply_sets(&cfg, NULL, sets, n, &err), TSR_ERR_CONFIG);
	if (!strstr(err.msg, key))
		fail_msg("message '%s' does not name key '%s'", err.msg, key);
}

static void test_config_errors_name_the_key(void **state)
{
	(void)state;
	expect_config_error((const char *[]){"pipeline.mode=deferred"}, 1, "pipeline.mode");
	expect_config_error((const char *[]){"pipeline.mode=imr", "timing.enabled=true",
					     "timing.overlap_frames=true"}, 3,
			    "timing.overlap_frames");
	expect_config_error((const char *[]){"pipeline.mode=imr", "elimination.rendering=true"},
			    2, "elimination.rendering");
	expect_config_error((const char *[]){"pipeline.mode=imr", "tcor.attribute_cache=true"}, 2,
			    "tcor.attribute_cache");
	expect_config_error((const char *[]){"pipeline.mode=imr", "routes.hiz=nowhere"}, 2,
			    "routes.hiz");
	/* and the default stays the TBR */
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	assert_int_equal(cfg.pipeline_mode, TSR_PIPELINE_TBR);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		IDENTICAL(0),
		IDENTICAL(1),
		IDENTICAL(2),
		IDENTICAL(3),
		cmocka_unit_test(test_depth_traffic_only_in_imr),
		cmocka_unit_test(test_shipped_configs),
		cmocka_unit_test(test_config_errors_name_the_key),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
