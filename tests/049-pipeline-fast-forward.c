/*
 * 049: fast-forward (tsr_gpu_set_fast_forward(), tsr_sim_select(): `run
 * --frames A-B`):
 *   - the frames simulated after fast-forwarded ones render the images
 *     and functional counters (geometry, tiling, raster, texture) of a
 *     full run, bit for bit: an animated scene and a render-to-texture
 *     one (its render targets are exact across fast-forwarded frames);
 *   - a fast-forwarded frame reaches no cache, no DRAM counter and no
 *     timing cycle, and is in no total; the simulated ones are; a warm-up
 *     frame (TSR_GPU_WARM) reaches the caches, no timing cycle, no total;
 *   - with timing.overlap_frames, a switch waits for the frame in flight;
 *     tsr_gpu_set_fast_forward() mid-frame is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "config/config.h"
#include "frontend/frontend.h"
#include "pipeline/gpu.h"
#include "sim/sim.h"
#include "test_main.h"

#define FRAMES 4

static void small_config(struct tsr_gpu_config *cfg, const char *const *extra, size_t n)
{
	const char *sets[8] = {"screen.width=160", "screen.height=96"};
	for (size_t i = 0; i < n; i++)
		sets[2 + i] = extra[i];
	struct tsr_error err = {{0}};
	tsr_config_defaults(cfg);
	if (tsr_config_apply_sets(cfg, NULL, sets, 2 + n, &err) != TSR_OK)
		fail_msg("%s", err.msg);
}

struct run {
	uint8_t *image[FRAMES];
	struct tsr_frame_stats fs[FRAMES];
	int ff[FRAMES];
	struct tsr_frame_stats total;
};

/* FRAMES frames of workload with cfg, frames with sel[f] 0 fast-forwarded
 * (sel NULL: all simulated). */
static void run(const struct tsr_gpu_config *cfg, const char *workload,
		const unsigned char *sel, uint32_t warmup, struct run *r)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/workloads/%s", TSR_SOURCE_DIR, workload);
	struct tsr_sim *sim = NULL;
	struct tsr_error err = {{0}};
	if (tsr_sim_open_scene(cfg, tsr_test_scene(path), &sim, &err) != TSR_OK)
		fail_msg("%s: %s", workload, err.msg);
	if (sel)
		assert_int_equal(tsr_sim_select(sim, sel, FRAMES, warmup, &err), TSR_OK);
	const size_t bytes = (size_t)cfg->width * cfg->height * 4;
	for (uint32_t f = 0; f < FRAMES; f++) {
		const struct tsr_frame_stats *fs;
		if (tsr_sim_step(sim, &fs, &err) != TSR_OK)
			fail_msg("%s frame %u: %s", workload, f, err.msg);
		r->fs[f] = *fs;
		r->ff[f] = tsr_sim_fast_forwarded(sim);
		r->image[f] = malloc(bytes);
		assert_non_null(r->image[f]);
		memcpy(r->image[f], tsr_gpu_frame_image(tsr_sim_gpu(sim)), bytes);
	}
	r->total = *tsr_sim_total(sim);
	tsr_sim_close(sim);
}

static void release(struct run *r)
{
	for (uint32_t f = 0; f < FRAMES; f++)
		free(r->image[f]);
}

static uint64_t memory_traffic(const struct tsr_frame_stats *s)
{
	uint64_t n = s->memory_accesses;
	for (int k = 0; k < TSR_STREAM_COUNT; k++)
		n += s->dram[k].read_bytes + s->dram[k].write_bytes + s->perfect[k].read_bytes +
		     s->perfect[k].write_bytes;
	for (uint32_t c = 0; c < TSR_MEMSYS_MAX_CACHES; c++)
		for (int k = 0; k < TSR_STREAM_COUNT; k++)
			n += s->caches[c][k].reads + s->caches[c][k].writes;
	return n;
}

/* Frames 2 and 3 after two fast-forwarded ones (the second one warming
 * the caches up with warmup 1) against a full run. */
static void check_same(const char *workload, const char *const *extra, size_t n,
		       uint32_t warmup)
{
	struct tsr_gpu_config cfg;
	small_config(&cfg, extra, n);
	struct run full = {0}, ff = {0};
	run(&cfg, workload, NULL, 0, &full);
	static const unsigned char sel[FRAMES] = {0, 0, 1, 1};
	run(&cfg, workload, sel, warmup, &ff);
	const size_t bytes = (size_t)cfg.width * cfg.height * 4;
	for (uint32_t f = 0; f < FRAMES; f++) {
		/* every frame's image is exact, fast-forwarded or not */
		if (memcmp(full.image[f], ff.image[f], bytes))
			fail_msg("%s: frame %u's image differs after fast-forward", workload, f);
		assert_int_equal(ff.ff[f], !sel[f]);
		assert_false(full.ff[f]);
		/* the functional counters too */
		assert_memory_equal(&full.fs[f].geometry, &ff.fs[f].geometry,
				    sizeof(full.fs[f].geometry));
		assert_memory_equal(&full.fs[f].tiling, &ff.fs[f].tiling, sizeof(full.fs[f].tiling));
		assert_memory_equal(&full.fs[f].raster, &ff.fs[f].raster, sizeof(full.fs[f].raster));
		assert_int_equal(full.fs[f].texture.texel_fetches, ff.fs[f].texture.texel_fetches);
		assert_int_equal(full.fs[f].texture.line_requests, ff.fs[f].texture.line_requests);
		if (sel[f]) {  /* simulated: memory and timing counted */
			assert_true(memory_traffic(&ff.fs[f]) > 0);
			assert_int_equal(ff.fs[f].timing.cycles > 0, cfg.timing.enabled);
		} else if (warmup && f == 1) {  /* warming up: memory, no cycles */
			assert_true(memory_traffic(&ff.fs[f]) > 0);
			assert_int_equal(ff.fs[f].timing.cycles, 0);
		} else {  /* fast-forwarded: no memory, no cycles */
			assert_int_equal(memory_traffic(&ff.fs[f]), 0);
			assert_int_equal(ff.fs[f].timing.cycles, 0);
		}
	}
	assert_true(full.fs[0].raster.quads_shaded > 0);
	/* the total holds the simulated frames only */
	assert_int_equal(ff.total.raster.quads_shaded,
			 full.fs[2].raster.quads_shaded + full.fs[3].raster.quads_shaded);
	assert_int_equal(ff.total.geometry.draws,
			 full.fs[2].geometry.draws + full.fs[3].geometry.draws);
	release(&full);
	release(&ff);
}

static void test_animated_scene(void **state)
{
	(void)state;
	check_same("camera-pan.json", NULL, 0, 0);
	check_same("camera-pan.json", NULL, 0, 1);
}

static void test_render_to_texture(void **state)
{
	(void)state;
	check_same("postfx-bloom.json", NULL, 0, 0);
}

static void test_timing(void **state)
{
	(void)state;
	static const char *const timing[] = {"timing.enabled=true"};
	check_same("glmark-scene.json", timing, 1, 1);
}

static void test_timing_overlap(void **state)
{
	(void)state;
	static const char *const overlap[] = {"timing.enabled=true", "timing.overlap_frames=true"};
	check_same("camera-pan.json", overlap, 2, 1);
}

/* A switch during a frame (begun, not finished) is refused. */
static void test_switch_between_frames_only(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	small_config(&cfg, NULL, 0);
	char path[1024];
	snprintf(path, sizeof(path), "%s/workloads/sprites-2d.json", TSR_SOURCE_DIR);
	struct tsr_sim *sim = NULL;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_sim_open_scene(&cfg, tsr_test_scene(path), &sim, &err), TSR_OK);
	struct tsr_gpu *g = tsr_sim_gpu(sim);
	assert_false(tsr_gpu_fast_forwarding(g));
	assert_int_equal(tsr_gpu_set_fast_forward(g, 1, &err), TSR_OK);
	assert_true(tsr_gpu_fast_forwarding(g));
	assert_true(tsr_memsys_bypassed(tsr_gpu_memsys(g)));
	assert_int_equal(tsr_gpu_set_fast_forward(g, TSR_GPU_WARM, &err), TSR_OK);
	assert_int_equal(tsr_gpu_fast_forwarding(g), TSR_GPU_WARM);
	assert_false(tsr_memsys_bypassed(tsr_gpu_memsys(g)));
	assert_int_equal(tsr_gpu_set_fast_forward(g, 7, &err), TSR_ERR_INTERNAL);
	assert_int_equal(tsr_gpu_set_fast_forward(g, 0, &err), TSR_OK);
	assert_false(tsr_memsys_bypassed(tsr_gpu_memsys(g)));
	/* a frame begun and not finished */
	struct tsr_frame_commands c = {0};
	struct tsr_frame_stats st;
	assert_int_equal(tsr_workload_commands(tsr_sim_scene(sim), 0, cfg.width, cfg.height, &c,
					       &err), TSR_OK);
	assert_int_equal(tsr_gpu_begin_frame(g, &c, &st, &err), TSR_OK);
	assert_int_equal(tsr_gpu_set_fast_forward(g, 1, &err), TSR_ERR_INTERNAL);
	assert_non_null(strstr(err.msg, "between frames"));
	assert_int_equal(tsr_gpu_finish_frame(g, &err), TSR_OK);
	assert_int_equal(tsr_gpu_set_fast_forward(g, 1, &err), TSR_OK);
	tsr_commands_release(&c);
	tsr_sim_close(sim);  /* fast-forward still on: the parked timing mode goes too */
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_animated_scene),
		cmocka_unit_test(test_render_to_texture),
		cmocka_unit_test(test_timing),
		cmocka_unit_test(test_timing_overlap),
		cmocka_unit_test(test_switch_between_frames_only),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
