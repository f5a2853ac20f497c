/*
 * 025: command lists (src/command), the workload frontend (src/frontend)
 * and the pipeline consuming only command lists (pipeline/gpu.h), with the
 * technique hook table (techniques/technique.h).
 *
 * The scene: a full-screen background quad and a sprite quad on a 128 x 64
 * screen of 16 x 16 tiles, orthographic camera one world unit per pixel;
 * the sprite's texture is uploaded anew at frame 3.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "frontend/frontend.h"
#include "memory/addrmap.h"
#include "pipeline/gpu.h"
#include "scene/scene.h"
#include "sim/sim.h"
#include "techniques/technique.h"
#include "test_util.h"

#define TEX "/usr/share/glmark2/textures/"

static const char *scene_file(void)
{
	return tsr_test_write_tmp("scene.json",
		"{\"version\": 1, \"frames\": 6, \"passes\": [{\n"
		" \"clear_color\": [0.2, 0.3, 0.4, 1],\n"
		" \"camera\": {\"projection\": \"orthographic\", \"ortho_height\": 64,\n"
		"   \"near\": 1, \"far\": 20, \"eye\": [0, 0, 10], \"target\": [0, 0, 0]},\n"
		" \"objects\": [\n"
		"  {\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"" TEX "terrain-grasslight-512.jpg\",\n"
		"    \"lit\": false}, \"transform\": {\"translate\": [0, 0, -1], \"scale\": [128, 64, 1]}},\n"
		"  {\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"" TEX "crate-base.png\",\n"
		"    \"lit\": false}, \"transform\": {\"translate\": [-34, 0, 0.5], \"scale\": [20, 12, 1]},\n"
		"    \"animation\": {\"translate_per_frame\": [2, 0, 0]}}],\n"
		" \"events\": [{\"frame\": 3, \"type\": \"texture_upload\", \"object\": 1,\n"
		"   \"texture\": \"" TEX "effect-2d.png\"}]}]}\n");
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
	return tsr_test_tmp_setup("tsr-025");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_test_tmp_teardown();
}

/* The frontend: one pass into the frame buffer, a draw per mesh, uploads as events. */
static void test_workload_frontend(void **state)
{
	(void)state;
	struct tsr_error err;
	struct tsr_scene *sc = NULL;
	if (tsr_scene_load(scene_file(), &sc, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	struct tsr_resources r = tsr_workload_resources(sc);
	assert_int_equal(r.mesh_count, sc->mesh_count);
	struct tsr_frame_commands c;
	memset(&c, 0, sizeof(c));
	assert_int_equal(tsr_workload_commands(sc, 0, 128, 64, &c, &err), TSR_OK);
	assert_int_equal(c.frame, 0);
	assert_int_equal(c.pass_count, 1);
	assert_int_equal(c.passes[0].target, TSR_TARGET_FRAMEBUFFER);
	assert_true(c.passes[0].clear.color[2] == 0.4f);
	assert_int_equal(c.passes[0].draw_count, 2);
	assert_int_equal(c.draw_count, 2);
	assert_int_equal(c.event_count, 0);
	uint32_t sprite_material = c.draws[1].material;
	/* frame 1: the sprite moved (its constants changed), the background did not */
	struct tsr_mat4 bg = c.draws[0].mvp, sprite = c.draws[1].mvp;
	assert_int_equal(tsr_workload_commands(sc, 1, 128, 64, &c, &err), TSR_OK);
	assert_memory_equal(&bg, &c.draws[0].mvp, sizeof(bg));
	assert_memory_not_equal(&sprite, &c.draws[1].mvp, sizeof(sprite));
	/* frame 3: the upload is an event, and the sprite draws with the new material */
	assert_int_equal(tsr_workload_commands(sc, 3, 128, 64, &c, &err), TSR_OK);
	assert_int_equal(c.event_count, 1);
	assert_int_equal(c.events[0].kind, TSR_EVENT_TEXTURE_UPLOAD);
	assert_true(c.events[0].image < r.image_count);
	assert_int_not_equal(c.draws[1].material, sprite_material);
	assert_int_equal(tsr_workload_commands(sc, 4, 128, 64, &c, &err), TSR_OK);
	assert_int_equal(c.event_count, 0);
	tsr_commands_release(&c);
	tsr_scene_destroy(sc);
}

/* What tsr_gpu_set_progress() reported during one frame. */
struct progress_log {
	uint32_t calls, binning, rendering, bad;
	uint32_t last_done[2], last_total[2];
};

static void log_progress(void *ctx, uint32_t frame, enum tsr_frame_phase phase,
			 uint32_t done, uint32_t total)
{
	struct progress_log *l = ctx;
	l->calls++;
	if (frame != 0 || done == 0 || done > total || done <= l->last_done[phase] ||
	    (phase == TSR_PHASE_BINNING && l->rendering))
		l->bad++;
	*(phase == TSR_PHASE_BINNING ? &l->binning : &l->rendering) += 1;
	l->last_done[phase] = done;
	l->last_total[phase] = total;
}

/*
 * The pipeline renders what the command list says: the workload's frame
 * equals its command list rendered directly; a list with no draws renders
 * only the clear color; passes it cannot render yet are refused.
 */
static void test_pipeline_consumes_command_lists(void **state)
{
	(void)state;
	struct tsr_error err;
	struct tsr_scene *sc = NULL;
	assert_int_equal(tsr_scene_load(scene_file(), &sc, &err), TSR_OK);
	struct tsr_gpu_config cfg;
	small_config(&cfg);
	/* a: a simulation run (the frontend inside); b: a bare GPU fed by hand */
	struct tsr_sim *run = NULL;
	struct tsr_gpu *b = NULL;
	assert_int_equal(tsr_sim_open_scene(&cfg, sc, &run, &err), TSR_OK);
	const struct tsr_resources res = tsr_workload_resources(sc);
	assert_int_equal(tsr_gpu_create(&cfg, &res, &b, &err), TSR_OK);
	const struct tsr_frame_stats *sa = NULL;
	struct tsr_frame_stats *sb = calloc(1, sizeof(*sb));
	assert_non_null(sb);
	struct tsr_frame_commands c;
	memset(&c, 0, sizeof(c));
	assert_int_equal(tsr_workload_commands(sc, 0, 128, 64, &c, &err), TSR_OK);
	assert_int_equal(tsr_sim_step(run, &sa, &err), TSR_OK);
	assert_int_equal(tsr_sim_commands(run)->draw_count, c.draw_count);
	/* progress: each draw binned, then every 64 tiles and the last */
	struct progress_log pl;
	memset(&pl, 0, sizeof(pl));
	tsr_gpu_set_progress(b, log_progress, &pl);
	assert_int_equal(tsr_gpu_render_commands(b, &c, sb, &err), TSR_OK);
	tsr_gpu_set_progress(b, NULL, NULL);
	assert_int_equal(pl.bad, 0);
	assert_int_equal(pl.binning, c.draw_count);
	assert_int_equal(pl.last_done[TSR_PHASE_BINNING], c.draw_count);
	assert_int_equal(pl.rendering, 1);  /* 32 tiles */
	assert_int_equal(pl.last_done[TSR_PHASE_RENDERING], tsr_gpu_tile_count(b));
	assert_int_equal(pl.last_total[TSR_PHASE_RENDERING], 32);
	assert_memory_equal(tsr_gpu_frame_image(tsr_sim_gpu(run)), tsr_gpu_frame_image(b),
			    128 * 64 * 4);
	assert_int_equal(sa->memory_accesses, sb->memory_accesses);
	assert_int_equal(sa->raster.quads_shaded, sb->raster.quads_shaded);

	/* no draws: every tile empty, every pixel the clear color */
	c.frame = 1;
	c.passes[0].draw_count = 0;
	assert_int_equal(tsr_gpu_render_commands(b, &c, sb, &err), TSR_OK);
	assert_int_equal(sb->geometry.draws, 0);
	assert_int_equal(sb->tiling.empty_tiles, 32);
	const uint8_t *img = tsr_gpu_frame_image(b);
	for (int p = 0; p < 128 * 64; p++)
		assert_int_equal(img[p * 4 + 2], 102);  /* 0.4 x 255, rounded */

	/* a second pass, or a pass into a texture, is not rendered yet */
	struct tsr_cmd_pass extra = {.target = TSR_TARGET_FRAMEBUFFER};
	assert_int_equal(tsr_commands_pass(&c, &extra, &err), TSR_OK);
	assert_int_equal(tsr_gpu_render_commands(b, &c, sb, &err), TSR_ERR_UNSUPPORTED);
	c.pass_count = 1;
	c.passes[0].target = TSR_TARGET_TEXTURE;
	assert_int_equal(tsr_gpu_render_commands(b, &c, sb, &err), TSR_ERR_UNSUPPORTED);
	/* a draw naming a mesh that does not exist */
	c.passes[0].target = TSR_TARGET_FRAMEBUFFER;
	c.passes[0].draw_count = 1;
	c.draws[0].mesh = 999;
	assert_int_equal(tsr_gpu_render_commands(b, &c, sb, &err), TSR_ERR_INTERNAL);

	tsr_commands_release(&c);
	free(sb);
	tsr_sim_close(run);
	tsr_gpu_destroy(b);
	tsr_scene_destroy(sc);
}

/* Runs frame 0 of a workload on the small GPU; returns the simulation. */
static struct tsr_sim *run_one_frame(const char *path, struct tsr_scene **sc,
				     const struct tsr_frame_stats **st)
{
	struct tsr_error err = {{0}};
	if (tsr_scene_load(path, sc, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	struct tsr_gpu_config cfg;
	small_config(&cfg);
	struct tsr_sim *run = NULL;
	if (tsr_sim_open_scene(&cfg, *sc, &run, &err) != TSR_OK ||
	    tsr_sim_step(run, st, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	return run;
}

static const struct tsr_region *region(const struct tsr_addrmap *m, const char *name)
{
	for (uint32_t i = 0; i < m->count; i++)
		if (strcmp(m->regions[i].name, name) == 0)
			return &m->regions[i];
	return NULL;
}

static const char *grid_workload(const char *name, uint32_t n)
{
	char buf[1024];
	snprintf(buf, sizeof(buf),
		 "{\"version\": 1, \"frames\": 1, \"passes\": [{\n"
		 " \"camera\": {\"projection\": \"orthographic\", \"ortho_height\": 110,\n"
		 "   \"eye\": [50, 50, 5], \"target\": [50, 50, 0]},\n"
		 " \"objects\": [{\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"" TEX
		 "crate-base.png\", \"lit\": false},\n"
		 "   \"grid\": {\"count\": [%u, %u, 1]}}]}]}\n", n, n);
	return tsr_test_write_tmp(name, buf);
}

/*
 * issue 12: 10,000 textured quads (a 100 x 100 grid of instances) used to
 * fill the PB-Attributes region (133632 bytes); the Parameter Buffer's
 * regions now grow after every other region, and the regions of a small
 * scene keep their addresses.
 */
static void test_regions_grow(void **state)
{
	(void)state;
	struct tsr_scene *small = NULL, *big = NULL;
	const struct tsr_frame_stats *st = NULL;
	struct tsr_sim *a = run_one_frame(grid_workload("grid1.json", 1), &small, &st);
	const struct tsr_addrmap *ma = tsr_gpu_address_map(tsr_sim_gpu(a));
	assert_null(region(ma, "pb_attributes.grow1"));
	struct tsr_sim *b = run_one_frame(grid_workload("grid100.json", 100), &big, &st);
	assert_int_equal(st->geometry.draws, 10000);
	print_message("100 x 100 quads: %llu primitives binned\n",
		      (unsigned long long)st->geometry.primitives_binned);
	assert_true(st->geometry.primitives_binned > 3000);
	const struct tsr_addrmap *mb = tsr_gpu_address_map(tsr_sim_gpu(b));
	const struct tsr_region *g1 = region(mb, "pb_attributes.grow1");
	assert_non_null(g1);
	/* everything the small scene has is where it was; growth comes after */
	assert_true(mb->count > ma->count);
	for (uint32_t i = 0; i < ma->count; i++) {
		assert_string_equal(ma->regions[i].name, mb->regions[i].name);
		assert_int_equal(ma->regions[i].base, mb->regions[i].base);
		assert_int_equal(ma->regions[i].size_bytes, mb->regions[i].size_bytes);
		assert_true(g1->base >= ma->regions[i].base + ma->regions[i].size_bytes);
	}
	/* each growth doubles what the region held */
	const struct tsr_region *pa = region(mb, "pb_attributes");
	const struct tsr_region *g2 = region(mb, "pb_attributes.grow2");
	assert_non_null(g2);
	assert_int_equal(g1->size_bytes, pa->size_bytes);
	assert_int_equal(g2->size_bytes, pa->size_bytes + g1->size_bytes);
	tsr_sim_close(a);
	tsr_sim_close(b);
	tsr_scene_destroy(small);
	tsr_scene_destroy(big);
}

/*
 * issue 12: vertices huge but finite as floats (1e30, 3e38) overflow to
 * infinity in the transforms; those triangles are culled, with no
 * undefined float-to-int conversion (UBSan halts the sanitizer build).
 */
static void test_huge_vertices_culled(void **state)
{
	(void)state;
	const char *p = tsr_test_write_tmp("huge.json",
		"{\"version\": 1, \"frames\": 1, \"passes\": [{\n"
		" \"objects\": [{\"mesh\": \"" TSR_SOURCE_DIR "/tests/data/vertex-huge.obj\",\n"
		"   \"material\": {\"double_sided\": true}},\n"
		"  {\"mesh\": \"builtin:quad\", \"transform\": {\"scale\": [3e38, 3e38, 1]}}]}]}\n");
	struct tsr_scene *sc = NULL;
	const struct tsr_frame_stats *st = NULL;
	struct tsr_sim *run = run_one_frame(p, &sc, &st);
	assert_int_equal(st->geometry.primitives_in, 5);
	assert_true(st->geometry.primitives_culled >= 2);
	tsr_sim_close(run);
	tsr_scene_destroy(sc);
}

/* The technique table: named, complete, switched on by the configuration. */
static void test_technique_table(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	int n = 0, on = 0;
	for (const struct tsr_technique_ops *const *t = tsr_techniques; *t; t++, n++) {
		assert_non_null((*t)->name);
		assert_non_null((*t)->enabled);
		assert_non_null((*t)->create);
		assert_non_null((*t)->destroy);
		on += (*t)->enabled(&cfg);
	}
	assert_int_equal(n, 2);
	assert_int_equal(on, 0);  /* all off by default */
	cfg.attribute_cache = 1;
	cfg.elim.transactions = 1;
	assert_true(tsr_technique_tcor.enabled(&cfg));
	assert_true(tsr_technique_elimination.enabled(&cfg));
}

/* Skybox, screen-space and scrolling objects become draw constants. */
static void test_frontend_game_objects(void **state)
{
	(void)state;
	const char *path = tsr_test_write_tmp("game.json",
		"{\"version\": 1, \"passes\": [{\n"
		" \"camera\": {\"keyframes\": [{\"frame\": 0, \"eye\": [0, 1, 5], \"target\": [0, 1, 0]},\n"
		"   {\"frame\": 4, \"eye\": [0, 1, -3], \"target\": [0, 1, -8]}]},\n"
		" \"objects\": [\n"
		"  {\"mesh\": \"builtin:quad\", \"skybox\": true, \"transform\": {\"translate\": [0, 0, -1]}},\n"
		"  {\"mesh\": \"builtin:quad\", \"screen_space\": true,\n"
		"    \"transform\": {\"translate\": [1, 0.5, -0.9], \"scale\": [0.5, 0.25, 1]}},\n"
		"  {\"mesh\": \"builtin:quad\", \"animation\": {\"uv_scroll_per_frame\": [0.125, 0]}}]}]}\n");
	struct tsr_error err;
	struct tsr_scene *sc = NULL;
	if (tsr_scene_load(path, &sc, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	struct tsr_frame_commands c;
	memset(&c, 0, sizeof(c));
	assert_int_equal(tsr_workload_commands(sc, 2, 128, 64, &c, &err), TSR_OK);
	assert_int_equal(c.draw_count, 3);
	/* the skybox follows the eye (0, 1, 1 at frame 2) and lies at the far plane */
	const struct tsr_cmd_draw *sky = &c.draws[0];
	assert_float_equal(sky->model.m[12], 0.0f, 1e-5);
	assert_float_equal(sky->model.m[13], 1.0f, 1e-5);
	assert_float_equal(sky->model.m[14], 0.0f, 1e-5);   /* eye z 1, then -1 */
	for (int col = 0; col < 4; col++)
		assert_float_equal(sky->mvp.m[col * 4 + 2],
				   sky->mvp.m[col * 4 + 3] * (1.0f - 1.0f / 131072.0f), 1e-6);
	/* screen space: no camera, x divided by the aspect */
	const struct tsr_cmd_draw *hud = &c.draws[1];
	assert_float_equal(hud->mvp.m[0], 0.25f, 1e-6);
	assert_float_equal(hud->mvp.m[5], 0.25f, 1e-6);
	assert_float_equal(hud->mvp.m[12], 0.5f, 1e-6);
	assert_float_equal(hud->mvp.m[13], 0.5f, 1e-6);
	assert_float_equal(hud->mvp.m[14], -0.9f, 1e-6);
	assert_float_equal(hud->mvp.m[15], 1.0f, 1e-6);
	/* scrolling: a texture coordinate offset, none on the others */
	assert_float_equal(c.draws[2].uv_offset[0], 0.25f, 1e-6);
	assert_float_equal(c.draws[2].uv_offset[1], 0.0f, 0.0);
	assert_float_equal(c.draws[0].uv_offset[0], 0.0f, 0.0);
	tsr_commands_release(&c);
	tsr_scene_destroy(sc);
}

/*
 * The game-like workloads, one frame each at 1960 x 768 with 32 x 32
 * tiles (TCOR Table I): the 2D ones leave no tile empty (their background
 * is drawn geometry), the 3D ones bin primitives that cover 1.4 to 6.9
 * tiles on average (the papers' games). Skipped without the game data.
 */
static void test_game_workload_invariants(void **state)
{
	(void)state;
	const char *missing = tsr_test_missing_game_data();
	if (missing) {
		print_message("skipped: '%s' is missing (scripts/setup.sh installs it)\n", missing);
		skip();
	}
	static const char *const games[] = {"bubble-match-2d", "kingdom-map-2d",
					    "parallax-runner-2d", "snow-run-3d",
					    "city-racing-3d", "sniper-3d"};
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	for (size_t i = 0; i < sizeof(games) / sizeof(games[0]); i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/workloads/%s.json", TSR_SOURCE_DIR, games[i]);
		struct tsr_error err;
		struct tsr_scene *sc = NULL;
		struct tsr_sim *run = NULL;
		if (tsr_scene_load(path, &sc, &err) != TSR_OK ||
		    tsr_sim_open_scene(&cfg, sc, &run, &err) != TSR_OK)
			fail_msg("%s", err.msg);
		const struct tsr_frame_stats *fs = NULL;
		assert_int_equal(tsr_sim_step(run, &fs, &err), TSR_OK);
		double reuse = (double)fs->tiling.pmds_written / (double)fs->geometry.primitives_binned;
		print_message("%s: %llu binned, %.2f tiles per binned primitive, %llu empty tiles\n",
			      games[i], (unsigned long long)fs->geometry.primitives_binned, reuse,
			      (unsigned long long)fs->tiling.empty_tiles);
		assert_true(fs->geometry.primitives_binned > 500);
		if (strstr(games[i], "-2d"))
			assert_int_equal(fs->tiling.empty_tiles, 0);
		else
			assert_true(reuse >= 1.4 && reuse <= 6.9);
		tsr_sim_close(run);
		tsr_scene_destroy(sc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_workload_frontend),
		cmocka_unit_test(test_pipeline_consumes_command_lists),
		cmocka_unit_test(test_technique_table),
		cmocka_unit_test(test_frontend_game_objects),
		cmocka_unit_test(test_game_workload_invariants),
		cmocka_unit_test(test_regions_grow),
		cmocka_unit_test(test_huge_vertices_culled),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
