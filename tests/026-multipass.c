/*
 * 026: multi-pass frames and render to texture (workload format version
 * 2, docs/workloads.md): a render target drawn by one pass and sampled by
 * a later one shows the earlier pass's pixels; the render-target pass's
 * tile flushes are render_target stream traffic over the target's region,
 * where the sampling pass's texture reads go; the shipped multi-pass
 * workloads run deterministically; bad files get one clear message. A
 * depth render target ("format": "depth32f") sampled later shows the
 * earlier pass's depth as grey, its pass writes no color, and the TBR and
 * IMR pipelines agree on it bit for bit.
 *
 * The hand-made scene: a 32 x 32 render target cleared to red with a blue
 * quad over its right half, sampled (nearest, clamp) by a full-screen
 * quad on a 128 x 64 screen of 16 x 16 tiles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "memory/addrmap.h"
#include "memory/cache.h"
#include "pipeline/gpu.h"
#include "scene/scene.h"
#include "sim/sim.h"
#include "test_util.h"

#define ORTHO(h) "{\"projection\": \"orthographic\", \"ortho_height\": " #h ", " \
		 "\"near\": 1, \"far\": 20, \"eye\": [0, 0, 10], \"target\": [0, 0, 0]}"

/* A version 2 workload with the render target "rt" and `sampler` as the final pass's texture. */
static const char *rtt_file(const char *name, const char *sampler, const char *rt_size)
{
	static char text[4096];
	snprintf(text, sizeof(text),
		 "{\"version\": 2, \"frames\": 2,\n"
		 " \"render_targets\": [{\"name\": \"rt\", %s}],\n"
		 " \"passes\": [\n"
		 "  {\"name\": \"offscreen\", \"target\": \"rt\", \"clear_color\": [1, 0, 0, 1],\n"
		 "   \"camera\": " ORTHO(32) ",\n"
		 "   \"objects\": [{\"mesh\": \"builtin:quad\", \"material\": {\"color\": [0, 0, 1, 1],\n"
		 "     \"lit\": false}, \"transform\": {\"translate\": [8, 0, 0], \"scale\": [16, 32, 1]}}]},\n"
		 "  {\"name\": \"main\", \"target\": \"framebuffer\", \"clear_color\": [0, 0, 0, 1],\n"
		 "   \"camera\": " ORTHO(64) ",\n"
		 "   \"objects\": [{\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"%s\",\n"
		 "     \"filter\": \"nearest\", \"wrap\": \"clamp\", \"lit\": false},\n"
		 "     \"transform\": {\"scale\": [128, 64, 1]}}]}]}\n",
		 rt_size, sampler);
	return tsr_test_write_tmp(name, text);
}

/*
 * A version 2 workload with the depth render target "rt" (32 x 32, format
 * `format`): the offscreen pass draws a quad over the target's right half
 * at z = 0 under an orthographic camera from z = 10 with near 1 and far
 * 20 (window depth (10 - 1) / 19), the final pass samples the target
 * (nearest) on a full-screen quad.
 */
static const char *depth_file(const char *name, const char *format)
{
	return rtt_file(name, "target:rt", format);
}

static void small_config(struct tsr_gpu_config *cfg)
{
	tsr_config_defaults(cfg);
	cfg->width = 128;
	cfg->height = 64;
	cfg->tile_width = 16;
	cfg->tile_height = 16;
}

static int setup(void **state)
{
	(void)state;
	return tsr_test_tmp_setup("tsr-026");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_test_tmp_teardown();
}

/* The texture lines the texture caches receive inside [lo, hi). */
struct seen {
	uint64_t lo, hi;
	uint64_t inside, outside_stream;  /* reads of the region; of it not tagged texture */
};

static void observe(void *ctx, const struct tsr_access *a)
{
	struct seen *s = ctx;
	if (a->addr >= s->lo && a->addr < s->hi) {
		s->inside++;
		if (a->stream != TSR_STREAM_TEXTURE)
			s->outside_stream++;
	}
}

static const struct tsr_region *region(const struct tsr_addrmap *m, const char *prefix)
{
	for (uint32_t i = 0; i < m->count; i++)
		if (strncmp(m->regions[i].name, prefix, strlen(prefix)) == 0)
			return &m->regions[i];
	return NULL;
}

/* Known pixels, and the render target's traffic where the sampler reads. */
static void test_render_target_sampled(void **state)
{
	(void)state;
	struct tsr_error err = {{0}};
	struct tsr_scene *sc = NULL;
	const char *p = rtt_file("rtt.json", "target:rt", "\"width\": 32, \"height\": 32");
	if (tsr_scene_load(p, &sc, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	assert_int_equal(sc->pass_count, 2);
	assert_true(sc->passes[0].target_image >= 0);
	assert_int_equal(sc->passes[1].target_image, -1);
	assert_true(sc->images[sc->passes[0].target_image].render_target);

	struct tsr_gpu_config cfg;
	small_config(&cfg);
	struct tsr_sim *run = NULL;
	if (tsr_sim_open_scene(&cfg, sc, &run, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	struct tsr_gpu *g = tsr_sim_gpu(run);
	const struct tsr_region *rt = region(tsr_gpu_address_map(g), "rendertarget");
	assert_non_null(rt);
	assert_int_equal(rt->stream, TSR_STREAM_RENDER_TARGET);
	assert_int_equal(rt->size_bytes, 4096);  /* 32 x 32 RGBA8, level 0 only */
	struct seen seen = {rt->base, rt->base + 32 * 32 * 4, 0, 0};
	struct tsr_cache_observer o = {observe, NULL, &seen};
	char name[32];
	for (uint32_t c = 0; c < cfg.mem.cores; c++) {
		snprintf(name, sizeof(name), "texture%u", c);
		struct tsr_cache *tc = tsr_gpu_cache_by_name(g, name);
		if (tc)
			tsr_cache_set_observer(tc, &o);
	}
	const struct tsr_frame_stats *st;
	if (tsr_sim_step(run, &st, &err) != TSR_OK)
		fail_msg("%s", err.msg);

	/* the final image: red on the left, blue on the right (RGBA8) */
	const uint8_t *img = tsr_gpu_frame_image(g);
	const uint8_t *left = &img[(32 * 128 + 16) * 4], *right = &img[(32 * 128 + 112) * 4];
	print_message("left %u %u %u, right %u %u %u\n", left[0], left[1], left[2], right[0],
		      right[1], right[2]);
	assert_int_equal(left[0], 255);
	assert_int_equal(left[2], 0);
	assert_int_equal(right[0], 0);
	assert_int_equal(right[2], 255);

	/* the offscreen pass wrote every block of the target once, as render_target
	 * traffic; the main pass read those addresses as texture traffic */
	assert_int_equal(st->dram[TSR_STREAM_RENDER_TARGET].write_bytes, 4096);
	assert_int_equal(st->dram[TSR_STREAM_COLOR].write_bytes, 128 * 64 * 4);
	assert_true(seen.inside > 0);
	assert_int_equal(seen.outside_stream, 0);
	assert_true(st->tiling.tiles == 4 + 32);  /* 2 x 2 tiles of the target, 8 x 4 of the screen */
	tsr_sim_close(run);
	tsr_scene_destroy(sc);
}

/* Every shipped multi-pass workload: two runs of 2 frames (on one loaded scene),
 * identical counters. */
static void test_multipass_workloads_deterministic(void **state)
{
	(void)state;
	static const char *const names[] = {"shadow-map-3d", "postfx-bloom", "minimap-3d",
					    "shadow-depth-3d"};
	for (size_t w = 0; w < sizeof(names) / sizeof(names[0]); w++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/workloads/%s.json", TSR_SOURCE_DIR, names[w]);
		struct tsr_frame_stats totals[2];
		uint8_t first_pixels[16];
		for (int r = 0; r < 2; r++) {
			struct tsr_error err = {{0}};
			struct tsr_gpu_config cfg;
			tsr_config_defaults(&cfg);
			struct tsr_sim *run = NULL;
			if (tsr_sim_open_scene(&cfg, tsr_test_scene(path), &run, &err) != TSR_OK ||
			    tsr_sim_run(run, 2, NULL, NULL, &err) != TSR_OK)
				fail_msg("%s: %s", names[w], err.msg);
			totals[r] = *tsr_sim_total(run);
			const uint8_t *img = tsr_gpu_frame_image(tsr_sim_gpu(run));
			if (r == 0)
				memcpy(first_pixels, &img[(size_t)cfg.width * cfg.height * 2], 16);
			else
				assert_memory_equal(first_pixels,
						    &img[(size_t)cfg.width * cfg.height * 2], 16);
			tsr_sim_close(run);
		}
		assert_memory_equal(&totals[0], &totals[1], sizeof(totals[0]));
		assert_true(totals[0].dram[TSR_STREAM_RENDER_TARGET].write_bytes > 0);
		print_message("%s: render_target writes %llu bytes, texture reads %llu bytes (DRAM)\n",
			      names[w],
			      (unsigned long long)totals[0].dram[TSR_STREAM_RENDER_TARGET].write_bytes,
			      (unsigned long long)totals[0].dram[TSR_STREAM_TEXTURE].read_bytes);
	}
}

/* Accesses to [lo, hi) that one cache receives, per stream. */
struct region_seen {
	uint64_t lo, hi;
	uint64_t by_stream[TSR_STREAM_COUNT];
};

static void observe_region(void *ctx, const struct tsr_access *a)
{
	struct region_seen *s = ctx;
	if (a->addr >= s->lo && a->addr < s->hi && a->stream < TSR_STREAM_COUNT)
		s->by_stream[a->stream]++;
}

/* Runs frame 0 of file p in pipeline `mode`; its image into img (128 x 64 RGBA8). */
static void run_depth_frame(const char *p, const char *mode, int timing, uint8_t *img,
			    struct tsr_frame_stats *out, struct region_seen *z_seen,
			    struct region_seen *rt_seen)
{
	struct tsr_error err = {{0}};
	struct tsr_gpu_config cfg;
	small_config(&cfg);
	if (strcmp(mode, "imr") == 0) {  /* the GSPC configuration: a z and a render_target cache */
		char path[1024];
		snprintf(path, sizeof(path), "%s/configs/gspc-8mb.json", TSR_SOURCE_DIR);
		const char *sets[] = {"screen.width=128", "screen.height=64",
				      "tiling.tile_width=16", "tiling.tile_height=16"};
		if (tsr_config_apply_sets(&cfg, path, sets, 4, &err) != TSR_OK)
			fail_msg("%s", err.msg);
	}
	cfg.timing.enabled = timing;
	struct tsr_sim *run = NULL;
	if (tsr_sim_open(&cfg, p, &run, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	struct tsr_gpu *g = tsr_sim_gpu(run);
	const struct tsr_region *rt = region(tsr_gpu_address_map(g), "rendertarget");
	assert_non_null(rt);
	assert_int_equal(rt->size_bytes, 4096);  /* 32 x 32 x 4 bytes: depth32f */
	struct tsr_cache_observer oz = {observe_region, NULL, z_seen},
				  ort = {observe_region, NULL, rt_seen};
	if (z_seen) {
		*z_seen = (struct region_seen){rt->base, rt->base + rt->size_bytes, {0}};
		*rt_seen = (struct region_seen){rt->base, rt->base + rt->size_bytes, {0}};
		assert_non_null(tsr_gpu_cache_by_name(g, "z"));
		assert_non_null(tsr_gpu_cache_by_name(g, "render_target"));
		tsr_cache_set_observer(tsr_gpu_cache_by_name(g, "z"), &oz);
		tsr_cache_set_observer(tsr_gpu_cache_by_name(g, "render_target"), &ort);
	}
	const struct tsr_frame_stats *st;
	if (tsr_sim_step(run, &st, &err) != TSR_OK)
		fail_msg("%s: %s", mode, err.msg);
	*out = *st;
	memcpy(img, tsr_gpu_frame_image(g), 128 * 64 * 4);
	tsr_sim_close(run);
}

/*
 * A depth target sampled by the final pass: known pixels (the quad's
 * depth, the cleared 1.0), no color output in the depth pass, the stored
 * depth as render_target traffic on the TBR and as z traffic on the IMR,
 * and the two pipelines' images bit for bit equal (timing mode too).
 */
static void test_depth_target_sampled(void **state)
{
	(void)state;
	const char *p = depth_file("depth.json", "\"width\": 32, \"height\": 32, "
				   "\"format\": \"depth32f\"");
	struct tsr_error err = {{0}};
	struct tsr_scene *sc = NULL;
	if (tsr_scene_load(p, &sc, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	assert_true(sc->images[sc->passes[0].target_image].render_target);
	assert_true(sc->images[sc->passes[0].target_image].depth);
	tsr_scene_destroy(sc);

	static uint8_t tbr[128 * 64 * 4], imr[128 * 64 * 4], timed[128 * 64 * 4];
	struct tsr_frame_stats st, st_imr, st_timed;
	run_depth_frame(p, "tbr", 0, tbr, &st, NULL, NULL);
	/* left: the target's cleared depth 1.0 -> 255; right: the quad's depth
	 * (10 - 1) / 19 -> 0.4737 * 255 + 0.5 = 121.29 -> 121; grey, opaque */
	const uint8_t *left = &tbr[(32 * 128 + 16) * 4], *right = &tbr[(32 * 128 + 112) * 4];
	print_message("left %u %u %u %u, right %u %u %u %u\n", left[0], left[1], left[2],
		      left[3], right[0], right[1], right[2], right[3]);
	const uint8_t want_left[4] = {255, 255, 255, 255}, want_right[4] = {121, 121, 121, 255};
	assert_memory_equal(left, want_left, 4);
	assert_memory_equal(right, want_right, 4);
	/* TBR: the depth pass's flushes store 32 x 32 x 4 bytes of depth
	 * (stream render_target); only the final pass writes color, once per
	 * screen pixel; no z traffic */
	assert_int_equal(st.dram[TSR_STREAM_RENDER_TARGET].write_bytes, 4096);
	assert_int_equal(st.dram[TSR_STREAM_COLOR].write_bytes, 128 * 64 * 4);
	assert_int_equal(st.raster.pixels_written, 128 * 64);
	assert_int_equal(st.dram[TSR_STREAM_Z].read_bytes + st.dram[TSR_STREAM_Z].write_bytes, 0);

	/* IMR: the same image; the depth pass's Z traffic goes to the target's
	 * region (stream z), no color (render_target) access touches it */
	struct region_seen z_seen, rt_seen;
	run_depth_frame(p, "imr", 0, imr, &st_imr, &z_seen, &rt_seen);
	assert_memory_equal(tbr, imr, sizeof(tbr));
	print_message("imr: z accesses in the target %llu, render_target %llu\n",
		      (unsigned long long)z_seen.by_stream[TSR_STREAM_Z],
		      (unsigned long long)rt_seen.by_stream[TSR_STREAM_RENDER_TARGET]);
	assert_true(z_seen.by_stream[TSR_STREAM_Z] > 0);
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		assert_int_equal(rt_seen.by_stream[s], 0);
	assert_int_equal(st_imr.raster.pixels_written, 128 * 64);

	/* the timing mode, in both pipelines, renders the same image */
	run_depth_frame(p, "tbr", 1, timed, &st_timed, NULL, NULL);
	assert_memory_equal(tbr, timed, sizeof(tbr));
	run_depth_frame(p, "imr", 1, timed, &st_timed, NULL, NULL);
	assert_memory_equal(tbr, timed, sizeof(tbr));

	/* the alias "depth" loads the same target */
	p = depth_file("depth-alias.json", "\"width\": 32, \"height\": 32, \"format\": \"depth\"");
	run_depth_frame(p, "tbr", 0, timed, &st_timed, NULL, NULL);
	assert_memory_equal(tbr, timed, sizeof(tbr));
}

static const char *load_fails(const char *path, enum tsr_status want)
{
	static struct tsr_error err;
	struct tsr_scene *sc = NULL;
	memset(&err, 0, sizeof(err));
	enum tsr_status st = tsr_scene_load(path, &sc, &err);
	if (st != want)
		fail_msg("status %s, want %s: %s", tsr_status_str(st), tsr_status_str(want),
			 err.msg);
	assert_null(sc);
	assert_non_null(strstr(err.msg, path));
	return err.msg;
}

/* Bad files: one message naming the file and the key. */
static void test_bad_files(void **state)
{
	(void)state;
	const char *msg;
	/* the offscreen pass samples its own target (not an earlier pass's) */
	const char *p = tsr_test_write_tmp("self.json",
		"{\"version\": 2, \"render_targets\": [{\"name\": \"rt\", \"width\": 8, \"height\": 8}],\n"
		" \"passes\": [{\"target\": \"rt\", \"objects\": [{\"mesh\": \"builtin:quad\",\n"
		"   \"material\": {\"texture\": \"target:rt\"}}]},\n"
		"  {\"objects\": []}]}");
	msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "passes[0].objects[0].material.texture"));
	assert_non_null(strstr(msg, "samples only targets of earlier passes"));

	/* a missing target, sampled or drawn */
	msg = load_fails(rtt_file("missing.json", "target:nope", "\"width\": 8, \"height\": 8"),
			 TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "'nope'"));
	assert_non_null(strstr(msg, "passes[1].objects[0].material.texture"));
	p = tsr_test_write_tmp("nodecl.json",
		"{\"version\": 2, \"passes\": [{\"target\": \"shadow\", \"objects\": []},"
		" {\"objects\": []}]}");
	msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "passes[0].target"));

	/* @previous from a pass after the one that draws it */
	msg = load_fails(rtt_file("prev.json", "target:rt@previous", "\"width\": 8, \"height\": 8"),
			 TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "@previous"));

	/* impossible sizes and formats */
	msg = load_fails(rtt_file("zero.json", "target:rt", "\"width\": 0, \"height\": 8"),
			 TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "render_targets[0].width"));
	msg = load_fails(rtt_file("fmt.json", "target:rt",
				  "\"width\": 8, \"height\": 8, \"format\": \"r11g11b10f\""),
			 TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "render_targets[0].format"));
	msg = load_fails(rtt_file("rgb565.json", "target:rt",
				  "\"width\": 8, \"height\": 8, \"format\": \"rgb565\""),
			 TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "render_targets[0].format"));
	assert_non_null(strstr(msg, "'rgb565'"));
	assert_non_null(strstr(msg, "'rgba8'"));
	assert_non_null(strstr(msg, "'depth32f'"));

	/* a depth target drawn by the final pass (the frame buffer is color) */
	p = tsr_test_write_tmp("depthlast.json",
		"{\"version\": 2, \"render_targets\": [{\"name\": \"sm\", \"width\": 8,\n"
		"   \"height\": 8, \"format\": \"depth32f\"}],\n"
		" \"passes\": [{\"target\": \"sm\", \"objects\": []},\n"
		"  {\"target\": \"sm\", \"objects\": []}]}");
	msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "passes[1].target"));
	assert_non_null(strstr(msg, "depth render target"));

	/* a target wider than the screen: the tile grid covers it too, and
	 * the frame renders (in the timing mode too) */
	struct tsr_error err = {{0}};
	struct tsr_scene *sc = NULL;
	p = rtt_file("big.json", "target:rt", "\"width\": 256, \"height\": 16");
	assert_int_equal(tsr_scene_load(p, &sc, &err), TSR_OK);
	struct tsr_gpu_config cfg;
	small_config(&cfg);
	assert_true(cfg.width < 256);
	cfg.timing.enabled = 1;
	struct tsr_sim *run = NULL;
	const struct tsr_frame_stats *st;
	assert_int_equal(tsr_sim_open_scene(&cfg, sc, &run, &err), TSR_OK);
	assert_int_equal(tsr_sim_step(run, &st, &err), TSR_OK);
	assert_true(st->timing.cycles >= st->timing.geometry_cycles + st->timing.tile_cycles);
	tsr_sim_close(run);
	tsr_scene_destroy(sc);

	/* a multi-pass frame refuses overlapped frames with a config message */
	sc = NULL;
	p = rtt_file("ok.json", "target:rt", "\"width\": 8, \"height\": 8");
	assert_int_equal(tsr_scene_load(p, &sc, &err), TSR_OK);
	cfg.timing.overlap_frames = 1;
	enum tsr_status s = tsr_sim_open_scene(&cfg, sc, &run, &err);
	if (s == TSR_OK)
		s = tsr_sim_step(run, &st, &err);
	assert_int_equal(s, TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "overlap_frames"));
	tsr_sim_close(run);
	tsr_scene_destroy(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_target_sampled),
		cmocka_unit_test(test_depth_target_sampled),
		cmocka_unit_test(test_multipass_workloads_deterministic),
		cmocka_unit_test(test_bad_files),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
