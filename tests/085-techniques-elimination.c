/*
 * 085: Rendering Elimination and Transaction Elimination in the pipeline
 * (RE III, IV-C): which tiles are skipped, and that skipping never changes
 * an image.
 *
 * The small scenes are drawn on a 128 x 64 screen of 16 x 16 tiles (8 x 4
 * tiles) with an orthographic camera one world unit per pixel: world x
 * -64..64 is pixels 0..128, world y 32..-32 is pixel rows 0..64. A
 * full-screen background quad is behind a 20 x 12 sprite at world
 * (-34, 0), pixels x 20..39 and rows 26..37: tiles (1..2, 1..2).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "frontend/frontend.h"
#include "pipeline/gpu.h"
#include "scene/scene.h"
#include "sim/sim.h"
#include "test_util.h"

#define TILES_X 8
#define TILES_Y 4
#define TILES (TILES_X * TILES_Y)
#define TEX "/usr/share/glmark2/textures/"

/* A workload: background and sprite; `anim` and `events` are JSON fragments. */
static const char *small_scene(const char *name, const char *anim, const char *events)
{
	static char buf[4096];
	snprintf(buf, sizeof(buf),
		 "{\"version\": 1, \"frames\": 8, \"passes\": [{\n"
		 " \"clear_color\": [0.2, 0.3, 0.4, 1],\n"
		 " \"camera\": {\"projection\": \"orthographic\", \"ortho_height\": 64,\n"
		 "   \"near\": 1, \"far\": 20, \"eye\": [0, 0, 10], \"target\": [0, 0, 0]},\n"
		 " \"objects\": [\n"
		 "  {\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"" TEX "terrain-grasslight-512.jpg\",\n"
		 "    \"lit\": false}, \"transform\": {\"translate\": [0, 0, -1], \"scale\": [128, 64, 1]}},\n"
		 "  {\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"" TEX "crate-base.png\",\n"
		 "    \"lit\": false}, \"transform\": {\"translate\": [-34, 0, 0.5], \"scale\": [20, 12, 1]}\n"
		 "    %s}]%s}]}\n",
		 anim ? anim : "", events ? events : "");
	return tsr_test_write_tmp(name, buf);
}

static void small_config(struct tsr_gpu_config *cfg, int re, int te)
{
	tsr_config_defaults(cfg);
	cfg->width = 128;
	cfg->height = 64;
	cfg->tile_width = 16;
	cfg->tile_height = 16;
	cfg->elim.rendering = re;
	cfg->elim.transactions = te;
	cfg->elim.verify = re;
}

/* A GPU and its scene, rendered frame by frame. */
struct run {
	struct tsr_sim *sim;
	struct tsr_gpu *gpu;
	struct tsr_frame_stats st;   /* the last frame's counters */
};

static void run_open(struct run *r, const char *workload, const struct tsr_gpu_config *cfg)
{
	struct tsr_error err;
	memset(r, 0, sizeof(*r));
	enum tsr_status s = tsr_sim_open(cfg, workload, &r->sim, &err);
	if (s != TSR_OK)
		fail_msg("%s", err.msg);
	r->gpu = tsr_sim_gpu(r->sim);
}

/* Renders the next frame, which must be `frame`. */
static void run_frame(struct run *r, uint32_t frame)
{
	struct tsr_error err;
	const struct tsr_frame_stats *fs;
	assert_int_equal(tsr_sim_frames_done(r->sim), frame);
	enum tsr_status s = tsr_sim_step(r->sim, &fs, &err);
	if (s != TSR_OK)
		fail_msg("%s", err.msg);
	r->st = *fs;
}

static void run_close(struct run *r)
{
	tsr_sim_close(r->sim);
}

/* The skipped-tile map of the last frame as a bit set (tile i is bit i). */
static uint64_t skipped_set(const struct run *r)
{
	const uint8_t *sk = tsr_gpu_skipped_tiles(r->gpu);
	uint64_t set = 0;
	for (uint32_t t = 0; t < TILES; t++)
		set |= (uint64_t)(sk[t] != 0) << t;
	return set;
}

/* The tiles with x in [x0, x1] and y in [y0, y1]. */
static uint64_t tile_rect(int x0, int x1, int y0, int y1)
{
	uint64_t set = 0;
	for (int y = y0; y <= y1; y++)
		for (int x = x0; x <= x1; x++)
			if (x >= 0 && x < TILES_X && y >= 0 && y < TILES_Y)
				set |= 1ull << (y * TILES_X + x);
	return set;
}

static const uint64_t ALL = (1ull << TILES) - 1;

/* Nothing changes: from the third frame every tile is skipped, and nothing is read. */
static void test_identical_frame_fully_skipped(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	small_config(&cfg, 1, 0);
	struct run r;
	run_open(&r, small_scene("static.json", NULL, NULL), &cfg);
	assert_int_equal(tsr_gpu_tile_count(r.gpu), TILES);
	for (uint32_t f = 0; f < 5; f++) {
		run_frame(&r, f);
		const struct tsr_elimination_stats *e = &r.st.elim;
		if (f < 2) {
			/* no frame two back yet */
			assert_int_equal(skipped_set(&r), 0);
			assert_int_equal(e->tiles_compared, 0);
			continue;
		}
		assert_int_equal(skipped_set(&r), ALL);
		assert_int_equal(e->re_frames, 1);
		assert_int_equal(e->tiles_compared, TILES);
		assert_int_equal(e->tiles_skipped, TILES);
		assert_int_equal(e->tiles_verified, TILES);
		assert_int_equal(e->false_positives, 0);
		assert_int_equal(e->color_bytes_removed, 128 * 64 * 4);
		assert_true(e->pb_bytes_removed > 0);
		assert_true(e->texture_requests_removed > 0);
		/* the raster side made no access: no quads, no color writes */
		assert_int_equal(r.st.raster.quads_rasterized, 0);
		assert_int_equal(r.st.texture.line_requests, 0);
		assert_int_equal(r.st.dram[TSR_STREAM_COLOR].write_bytes, 0);
		assert_int_equal(r.st.tiling.pmds_read, 0);
		/* but the geometry was binned and signed */
		assert_int_equal(r.st.elim.su.constant_blocks, 2);
		assert_int_equal(r.st.elim.su.primitive_blocks, 4);
	}
	run_close(&r);
}

/*
 * The sprite moves one tile right per frame: the tiles it covers now or
 * covered two frames ago (whose lists lost it) render, nothing else.
 */
static void test_moving_primitives_render_exactly_their_tiles(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	small_config(&cfg, 1, 0);
	struct run r;
	run_open(&r, small_scene("moving.json",
				 ", \"animation\": {\"translate_per_frame\": [16, 0, 0]}", NULL), &cfg);
	for (int f = 0; f < 6; f++) {
		run_frame(&r, (uint32_t)f);
		if (f < 2)
			continue;
		uint64_t rendered = tile_rect(1 + f, 2 + f, 1, 2) | tile_rect(f - 1, f, 1, 2);
		assert_int_equal(skipped_set(&r), ALL & ~rendered);
		assert_int_equal(r.st.elim.false_positives, 0);
		assert_int_equal(r.st.elim.false_negatives + r.st.elim.tiles_changed,
				 (uint64_t)__builtin_popcountll(rendered));
	}
	run_close(&r);
}

/*
 * Only the sprite's constants change (its model matrix scales z, which a
 * flat quad does not see): exactly the tiles its primitives overlap render,
 * and their colors are the same (false negatives).
 */
static void test_changed_constants_render_exactly_their_tiles(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	small_config(&cfg, 1, 0);
	struct run r;
	run_open(&r, small_scene("constants.json",
				 ", \"animation\": {\"scale_per_frame\": [0, 0, 1]}", NULL), &cfg);
	for (uint32_t f = 0; f < 4; f++) {
		run_frame(&r, f);
		if (f < 2)
			continue;
		uint64_t rendered = tile_rect(1, 2, 1, 2);
		assert_int_equal(skipped_set(&r), ALL & ~rendered);
		assert_int_equal(r.st.elim.false_negatives, 4);
		assert_int_equal(r.st.elim.tiles_changed, 0);
	}
	run_close(&r);
}

/*
 * Only the sprite's fixed-function state changes (its color mask drops
 * blue in frames 3 and later): the Signature Unit signs the draw state,
 * so exactly the sprite's tiles render in frames 3 and 4 (their frame two
 * back had the other mask) and no skipped tile's colors differ (verify:
 * no false positive); from frame 5 every tile is skipped again.
 */
static void test_changed_state_renders_its_tiles(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	small_config(&cfg, 1, 0);
	struct tsr_error err;
	struct tsr_scene *sc = NULL;
	if (tsr_scene_load(small_scene("state.json", NULL, NULL), &sc, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	const struct tsr_resources res = tsr_workload_resources(sc);
	struct tsr_gpu *g = NULL;
	if (tsr_gpu_create(&cfg, &res, &g, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	struct tsr_frame_commands c;
	memset(&c, 0, sizeof(c));
	struct tsr_frame_stats *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	struct run r = {.gpu = g};
	for (uint32_t f = 0; f < 7; f++) {
		assert_int_equal(tsr_workload_commands(sc, f, 128, 64, &c, &err), TSR_OK);
		assert_int_equal(c.draw_count, 2);
		if (f >= 3)
			c.draws[1].state.color_mask = TSR_COLOR_MASK_R | TSR_COLOR_MASK_G |
						      TSR_COLOR_MASK_A;
		if (tsr_gpu_render_commands(g, &c, st, &err) != TSR_OK)
			fail_msg("%s", err.msg);
		if (f < 2)
			continue;
		const uint64_t want = f == 3 || f == 4 ? ALL & ~tile_rect(1, 2, 1, 2) : ALL;
		assert_int_equal(skipped_set(&r), want);
		assert_int_equal(st->elim.false_positives, 0);
		if (f == 3)
			assert_int_equal(st->elim.tiles_changed, 4);  /* blue dropped */
	}
	free(st);
	tsr_commands_release(&c);
	tsr_gpu_destroy(g);
	tsr_scene_destroy(sc);
}

/* Renders `frames` frames with and without elimination; images must be identical. */
static void compare_images(const char *workload, const struct tsr_gpu_config *on,
			   uint32_t frames, struct tsr_elimination_stats *sum)
{
	struct tsr_gpu_config off = *on;
	off.elim.rendering = off.elim.transactions = off.elim.verify = 0;
	off.elim.refresh_frames = 0;
	struct run a, b;
	run_open(&a, workload, &off);
	run_open(&b, workload, on);
	size_t bytes = (size_t)on->width * on->height * 4;
	memset(sum, 0, sizeof(*sum));
	for (uint32_t f = 0; f < frames; f++) {
		run_frame(&a, f);
		run_frame(&b, f);
		if (memcmp(tsr_gpu_frame_image(a.gpu), tsr_gpu_frame_image(b.gpu), bytes))
			fail_msg("%s: frame %u differs with elimination on", workload, f);
		const struct tsr_elimination_stats *e = &b.st.elim;
		sum->tiles_skipped += e->tiles_skipped;
		sum->false_positives += e->false_positives;
		sum->te_flushes_removed += e->te_flushes_removed;
		sum->te_false_positives += e->te_false_positives;
		sum->stale_inputs += e->stale_inputs;
		/* what RE and TE remove is never written */
		assert_int_equal(a.st.dram[TSR_STREAM_COLOR].write_bytes,
				 b.st.dram[TSR_STREAM_COLOR].write_bytes + e->color_bytes_removed);
	}
	run_close(&a);
	run_close(&b);
}

static void test_images_identical_re_and_te(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	small_config(&cfg, 1, 1);
	struct tsr_elimination_stats e;
	compare_images(small_scene("moving.json",
				   ", \"animation\": {\"translate_per_frame\": [16, 0, 0]}", NULL),
		       &cfg, 6, &e);
	assert_true(e.tiles_skipped > 0);
	assert_int_equal(e.false_positives, 0);
	assert_int_equal(e.te_false_positives, 0);
	/* TE alone: the tiles the sprite leaves and enters change color, the rest not */
	small_config(&cfg, 0, 1);
	compare_images(small_scene("moving.json",
				   ", \"animation\": {\"translate_per_frame\": [16, 0, 0]}", NULL),
		       &cfg, 6, &e);
	assert_int_equal(e.tiles_skipped, 0);
	assert_int_equal(e.te_flushes_removed, 4 * (TILES - 8));
}

/*
 * A texture upload at frame 3 changes colors without changing any input:
 * RE is off in frames 3 and 4 (the back buffer of frame 4 still holds colors
 * from before the upload) and the images stay right.
 */
static void test_texture_upload_disables_two_frames(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	small_config(&cfg, 1, 0);
	const char *w = small_scene("upload.json", NULL,
				    ", \"events\": [{\"frame\": 3, \"type\": \"texture_upload\", "
				    "\"object\": 1, \"texture\": \"" TEX "nasa1.png\"}]");
	struct run r;
	run_open(&r, w, &cfg);
	static const int skipped[7] = {0, 0, TILES, 0, 0, TILES, TILES};
	static const int stale[7] = {0, 0, 0, 4, 4, 0, 0};
	for (uint32_t f = 0; f < 7; f++) {
		run_frame(&r, f);
		assert_int_equal(r.st.elim.tiles_skipped, skipped[f]);
		assert_int_equal(r.st.elim.stale_inputs, stale[f]);
		assert_int_equal(r.st.elim.false_positives, 0);
	}
	run_close(&r);
	struct tsr_elimination_stats e;
	compare_images(w, &cfg, 7, &e);
	assert_int_equal(e.stale_inputs, 8);
}

/* refresh_frames N: RE is off in frames f with f mod N < 2. */
static void test_refresh_frames(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	small_config(&cfg, 1, 0);
	cfg.elim.refresh_frames = 4;
	struct run r;
	run_open(&r, small_scene("static.json", NULL, NULL), &cfg);
	static const int skipped[8] = {0, 0, TILES, TILES, 0, 0, TILES, TILES};
	for (uint32_t f = 0; f < 8; f++) {
		run_frame(&r, f);
		assert_int_equal(r.st.elim.tiles_skipped, skipped[f]);
		assert_int_equal(r.st.elim.re_frames, skipped[f] ? 1 : 0);
	}
	run_close(&r);
}

/*
 * End to end on a real workload (the UI-like 2D one, with a texture upload
 * at frame 16) on the RE paper's configuration at half its screen's width
 * and height (598 x 384: a quarter of the work, the same tiles, caches and
 * frames): every frame's image with RE and TE on equals the image with
 * them off, with no false positive.
 */
static void test_real_workload_images_identical(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	struct tsr_error err;
	tsr_config_defaults(&cfg);
	assert_int_equal(tsr_config_load(TSR_SOURCE_DIR "/configs/re-table1.json", &cfg, &err),
			 TSR_OK);
	cfg.elim.rendering = cfg.elim.transactions = cfg.elim.verify = 1;
	cfg.width /= 2;
	cfg.height /= 2;
	struct tsr_elimination_stats e;
	compare_images(TSR_SOURCE_DIR "/workloads/ui-2d.json", &cfg, 19, &e);
	assert_true(e.tiles_skipped > 0);
	assert_true(e.stale_inputs > 0);
	assert_int_equal(e.false_positives, 0);
	assert_int_equal(e.te_false_positives, 0);
}

static int setup(void **state)
{
	(void)state;
	return tsr_test_tmp_setup("tsr085");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_test_tmp_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identical_frame_fully_skipped),
		cmocka_unit_test(test_moving_primitives_render_exactly_their_tiles),
		cmocka_unit_test(test_changed_constants_render_exactly_their_tiles),
		cmocka_unit_test(test_changed_state_renders_its_tiles),
		cmocka_unit_test(test_images_identical_re_and_te),
		cmocka_unit_test(test_texture_upload_disables_two_frames),
		cmocka_unit_test(test_refresh_frames),
		cmocka_unit_test(test_real_workload_images_identical),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
