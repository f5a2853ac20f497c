/*
 * 027: a draw's GL ES 2.0 state (command/state.h): the workload frontend's
 * states for every frame of every shipped workload are what the pipelines
 * implement; each state they do not implement is refused with
 * TSR_ERR_UNSUPPORTED naming it, by the check and by both pipelines
 * before any work (tsr_gpu_render_commands()).
 *
 * The scene: one textured, single-sided, opaque quad on a 64 x 32 screen.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "frontend/frontend.h"
#include "pipeline/gpu.h"
#include "scene/scene.h"
#include "shader/shader.h"
#include "test_util.h"

#define TEX "/usr/share/glmark2/textures/"

static const char *scene_file(void)
{
	return tsr_test_write_tmp("scene.json",
		"{\"version\": 1, \"frames\": 1, \"passes\": [{\n"
		" \"clear_color\": [0.2, 0.3, 0.4, 1],\n"
		" \"camera\": {\"projection\": \"orthographic\", \"ortho_height\": 32,\n"
		"   \"near\": 1, \"far\": 20, \"eye\": [0, 0, 10], \"target\": [0, 0, 0]},\n"
		" \"objects\": [\n"
		"  {\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"" TEX "crate-base.png\",\n"
		"    \"lit\": false}, \"transform\": {\"scale\": [40, 20, 1]}}]}]}\n");
}

static int setup(void **state)
{
	(void)state;
	return tsr_test_tmp_setup("tsr-027");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_test_tmp_teardown();
}

/* Every pass's clear and every draw's state of c pass the check (name: for
 * the failure message). */
static void check_commands(const struct tsr_frame_commands *c, const struct tsr_resources *r,
			   uint32_t width, uint32_t height, const char *name)
{
	struct tsr_error err;
	for (uint32_t p = 0; p < c->pass_count; p++) {
		const struct tsr_cmd_pass *pass = &c->passes[p];
		uint32_t w, h;
		struct tsr_framebuffer_state fb = tsr_pass_framebuffer(pass, r, width, height, &w, &h);
		if (tsr_clear_state_check(&pass->clear, "TBR", p, &err) != TSR_OK)
			fail_msg("%s frame %u: %s", name, c->frame, err.msg);
		assert_false(tsr_pass_loads_color(pass, fb));  /* the frontend clears */
		for (uint32_t i = pass->first_draw; i < pass->first_draw + pass->draw_count; i++) {
			const struct tsr_cmd_draw *d = &c->draws[i];
			if (tsr_draw_state_check(&d->state, "TBR", i, r, d->mesh, d->material, w, h,
						 fb, &err) != TSR_OK)
				fail_msg("%s frame %u: %s", name, c->frame, err.msg);
		}
	}
}

/* The frontend's states of every frame of every shipped workload pass. */
static void test_shipped_workloads_pass(void **state)
{
	(void)state;
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s/workloads", TSR_SOURCE_DIR);
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *e;
	uint32_t workloads = 0;
	uint64_t draws = 0, blended = 0, culled = 0, discarding = 0;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".json"))
			continue;
		char path[2048];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		struct tsr_error err;
		struct tsr_scene *sc = NULL;
		if (tsr_scene_load(path, &sc, &err) != TSR_OK)
			fail_msg("%s: %s", path, err.msg);
		const struct tsr_resources r = tsr_workload_resources(sc);
		struct tsr_frame_commands c;
		memset(&c, 0, sizeof(c));
		for (uint32_t f = 0; f < sc->frames; f++) {
			assert_int_equal(tsr_workload_commands(sc, f, 320, 180, &c, &err), TSR_OK);
			check_commands(&c, &r, 320, 180, e->d_name);
			for (uint32_t i = 0; i < c.draw_count; i++) {
				const struct tsr_draw_state *s = &c.draws[i].state;
				assert_int_equal(s->mode, TSR_PRIM_TRIANGLES);
				blended += s->blend.enable;
				culled += s->cull.enable;
				discarding += s->discard;
			}
			draws += c.draw_count;
		}
		tsr_commands_release(&c);
		tsr_scene_destroy(sc);
		workloads++;
	}
	closedir(d);
	assert_true(workloads >= 10);
	/* the shipped workloads use blending, culling and discard somewhere */
	assert_true(draws > 0 && blended > 0 && culled > 0 && discarding > 0);
	assert_true(culled < draws && blended < draws);
}

/* The tiny scene, its resources and frame 0's commands. */
struct fixture {
	struct tsr_scene *sc;
	struct tsr_resources r;
	struct tsr_frame_commands c;
};

static void fixture_load(struct fixture *x)
{
	struct tsr_error err;
	x->sc = NULL;
	if (tsr_scene_load(scene_file(), &x->sc, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	x->r = tsr_workload_resources(x->sc);
	memset(&x->c, 0, sizeof(x->c));
	assert_int_equal(tsr_workload_commands(x->sc, 0, 64, 32, &x->c, &err), TSR_OK);
	assert_int_equal(x->c.draw_count, 1);
}

static void fixture_free(struct fixture *x)
{
	tsr_commands_release(&x->c);
	tsr_scene_destroy(x->sc);
}

/* One refused state: a change to the frontend's state and the words the
 * message must contain. */
struct refusal {
	const char *words;
	void (*change)(struct tsr_draw_state *s);
};

#define CHANGE(name, body) static void name(struct tsr_draw_state *s) { body; }
CHANGE(points, s->mode = TSR_PRIM_POINTS)
CHANGE(lines, s->mode = TSR_PRIM_LINES)
CHANGE(line_strip, s->mode = TSR_PRIM_LINE_STRIP)
CHANGE(line_loop, s->mode = TSR_PRIM_LINE_LOOP)
CHANGE(strip, s->mode = TSR_PRIM_TRIANGLE_STRIP)
CHANGE(fan, s->mode = TSR_PRIM_TRIANGLE_FAN)
CHANGE(unindexed, s->index.type = TSR_INDEX_NONE)
CHANGE(u8, s->index.type = TSR_INDEX_U8)
CHANGE(u32, s->index.type = TSR_INDEX_U32)
CHANGE(index_offset, s->index.offset = 6)
CHANGE(attr_off, s->attribs[2].enabled = 0)
CHANGE(attr_extra, s->attribs[3].enabled = 1)
CHANGE(attr_value, s->attribs[5].value[0] = 1.0f)
CHANGE(attr_type, s->attribs[0].type = TSR_ATTRIB_FIXED)
CHANGE(attr_normalized, s->attribs[1].normalized = 1)
CHANGE(attr_stride, s->attribs[1].stride = 24)
CHANGE(viewport, s->viewport.width = 32)
CHANGE(depth_range, s->viewport.depth_far = 0.5f)
CHANGE(scissor, s->scissor.enable = 1)
CHANGE(poly_offset, s->polygon_offset.enable = 1)
CHANGE(depth_off, s->depth.test = 0)
CHANGE(depth_lequal, s->depth.func = TSR_FUNC_LEQUAL)
CHANGE(depth_nowrite, s->depth.write = 0)
CHANGE(stencil, {  /* every func, op and mask of both faces is implemented */
	s->stencil.test = 1;
	s->stencil.front.func = TSR_FUNC_EQUAL;
	s->stencil.front.zpass = TSR_STENCIL_INCR_WRAP;
	s->stencil.back.fail = TSR_STENCIL_INVERT;
	s->stencil.back.write_mask = 0x0f;
})
CHANGE(blend_on, {  /* the implemented blend, on an opaque material */
	s->blend.enable = 1;
	s->blend.src_rgb = TSR_BLEND_SRC_ALPHA;
	s->blend.dst_rgb = s->blend.dst_alpha = TSR_BLEND_ONE_MINUS_SRC_ALPHA;
})
CHANGE(blend_factors_default, s->blend.enable = 1)
CHANGE(blend_subtract, {
	s->blend.enable = 1;
	s->blend.src_rgb = TSR_BLEND_SRC_ALPHA;
	s->blend.dst_rgb = s->blend.dst_alpha = TSR_BLEND_ONE_MINUS_SRC_ALPHA;
	s->blend.eq_rgb = TSR_BLEND_EQ_REVERSE_SUBTRACT;
})
CHANGE(blend_add, {
	s->blend.enable = 1;
	s->blend.src_rgb = TSR_BLEND_ONE;
	s->blend.dst_rgb = TSR_BLEND_ONE;
})
CHANGE(blend_constant, s->blend.color[1] = 0.5f)
CHANGE(color_mask, s->color_mask = TSR_COLOR_MASK_R | TSR_COLOR_MASK_G)
CHANGE(tex_unit1, s->textures[1].image = s->textures[0].image)
CHANGE(tex_mirror, s->textures[0].wrap_s = TSR_TEX_MIRRORED_REPEAT)
CHANGE(tex_filter, s->textures[0].min_filter = TSR_TEX_NEAREST_MIPMAP_LINEAR)
CHANGE(framebuffer, s->framebuffer.color = 0)
CHANGE(discard, s->discard = 1)

static const struct refusal refusals[] = {
	{"primitive mode 'points'", points},
	{"primitive mode 'lines'", lines},
	{"primitive mode 'line strip'", line_strip},
	{"primitive mode 'line loop'", line_loop},
	{"primitive mode 'triangle strip'", strip},
	{"primitive mode 'triangle fan'", fan},
	{"index type 'none'", unindexed},
	{"index type 'u8'", u8},
	{"index type 'u32'", u32},
	{"index range", index_offset},
	{"vertex attribute 2 disabled", attr_off},
	{"vertex attribute 3 enabled", attr_extra},
	{"vertex attribute 5's constant value", attr_value},
	{"vertex attribute 0 of type 'fixed'", attr_type},
	{"vertex attribute 1's layout", attr_normalized},
	{"vertex attribute 1's layout", attr_stride},
	{"texture unit 1", tex_unit1},
	{"texture unit 0 wraps 'mirrored_repeat'", tex_mirror},
	{"texture unit 0 filters min 'nearest_mipmap_linear'", tex_filter},
	{"framebuffer other than its pass's", framebuffer},
	{"fragment discard", discard},
};

/* States both pipelines implement beyond the frontend's (raster/binding.c). */
static void (*const accepted[])(struct tsr_draw_state *) = {
	scissor, depth_off, depth_lequal, depth_nowrite, blend_on, blend_factors_default,
	blend_subtract, blend_add, blend_constant, color_mask, viewport, depth_range, poly_offset,
	stencil,
};

/* Each refused state: TSR_ERR_UNSUPPORTED, the draw, the state and the
 * pipeline named; each accepted one TSR_OK. */
static void test_check_refuses_each_state(void **state)
{
	(void)state;
	struct fixture x;
	fixture_load(&x);
	const struct tsr_cmd_draw *d = &x.c.draws[0];
	const struct tsr_framebuffer_state fb = {TSR_ATTACH_DEFAULT, TSR_ATTACH_DEFAULT};
	struct tsr_error err;
	assert_int_equal(tsr_draw_state_check(&d->state, "TBR", 0, &x.r, d->mesh, d->material, 64,
					      32, fb, &err), TSR_OK);
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		struct tsr_draw_state s = d->state;
		refusals[i].change(&s);
		err.msg[0] = 0;
		enum tsr_status st = tsr_draw_state_check(&s, i % 2 ? "IMR" : "TBR", 7, &x.r,
							  d->mesh, d->material, 64, 32, fb, &err);
		if (st != TSR_ERR_UNSUPPORTED || !strstr(err.msg, refusals[i].words) ||
		    !strstr(err.msg, "draw 7: ") ||
		    !strstr(err.msg, i % 2 ? "by the IMR pipeline" : "by the TBR pipeline"))
			fail_msg("refusal %zu ('%s'): status %d, message '%s'", i,
				 refusals[i].words, (int)st, err.msg);
	}
	for (size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
		struct tsr_draw_state s = d->state;
		accepted[i](&s);
		if (tsr_draw_state_check(&s, "TBR", 7, &x.r, d->mesh, d->material, 64, 32, fb,
					 &err) != TSR_OK)
			fail_msg("accepted state %zu refused: %s", i, err.msg);
	}
	/* a value out of its enum: the frontend's bug, not a refused state */
	struct tsr_draw_state s = d->state;
	s.depth.func = TSR_FUNC_COUNT;
	assert_int_equal(tsr_draw_state_check(&s, "TBR", 0, &x.r, d->mesh, d->material, 64, 32,
					      fb, &err), TSR_ERR_INTERNAL);
	fixture_free(&x);
}

/* The pass starts: color cleared, loaded or invalidated; depth cleared
 * to 1.0 or invalidated; stencil cleared or invalidated (a loaded one is
 * refused by tsr_gpu_check_passes() only when a draw tests it: test 048);
 * unscissored; anything else refused. */
static void test_clear_refusals(void **state)
{
	(void)state;
	struct tsr_error err;
	const struct tsr_clear_state ok = {TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH, 0, {0, 0, 0, 1},
					   1.0f, 0, 0};
	static const struct {
		uint8_t mask, invalidate;
	} fine[] = {
		{TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH, 0},
		{TSR_CLEAR_DEPTH, 0},                        /* color loaded */
		{TSR_CLEAR_DEPTH, TSR_CLEAR_COLOR},          /* color invalidated */
		{0, TSR_CLEAR_DEPTH},                        /* color loaded, depth invalidated */
		{TSR_CLEAR_COLOR, TSR_CLEAR_DEPTH | TSR_CLEAR_STENCIL},
		{TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH | TSR_CLEAR_STENCIL, 0}, /* a stencil clear */
	};
	for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++) {
		struct tsr_clear_state c = ok;
		c.mask = fine[i].mask;
		c.invalidate = fine[i].invalidate;
		if (tsr_clear_state_check(&c, "TBR", 0, &err) != TSR_OK)
			fail_msg("pass start %zu refused: %s", i, err.msg);
	}
	static const struct {
		uint8_t mask, scissored;
		float depth;
		const char *words;
	} bad[] = {
		{TSR_CLEAR_COLOR, 0, 1.0f, "depth buffer loaded from memory"},
		{0, 0, 1.0f, "depth buffer loaded from memory"},
		{TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH, 1, 1.0f, "scissored clear"},
		{TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH, 0, 0.5f, "depth clear value"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct tsr_clear_state c = ok;
		c.mask = bad[i].mask;
		c.scissored = bad[i].scissored;
		c.depth = bad[i].depth;
		err.msg[0] = 0;
		enum tsr_status st = tsr_clear_state_check(&c, "IMR", 2, &err);
		if (st != TSR_ERR_UNSUPPORTED || !strstr(err.msg, bad[i].words) ||
		    !strstr(err.msg, "pass 2: ") || !strstr(err.msg, "IMR pipeline yet"))
			fail_msg("clear %zu: status %d, message '%s'", i, (int)st, err.msg);
	}
}

/* Both pipelines refuse a state they do not implement before drawing, and
 * render the frontend's state. */
/* A 64x32 GPU of 16x16 tiles over resources r: TBR (mode 0) or IMR (1),
 * Rendering Elimination on when re. */
static struct tsr_gpu *small_gpu_with(const struct tsr_resources *r, int mode, int re)
{
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	cfg.width = 64;
	cfg.height = 32;
	cfg.tile_width = 16;
	cfg.tile_height = 16;
	cfg.pipeline_mode = mode ? TSR_PIPELINE_IMR : TSR_PIPELINE_TBR;
	cfg.elim.rendering = (uint8_t)re;
	struct tsr_gpu *g = NULL;
	struct tsr_error err;
	if (tsr_gpu_create(&cfg, r, &g, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	return g;
}

/* The same over the fixture's resources, RE off. */
static struct tsr_gpu *small_gpu(const struct fixture *x, int mode)
{
	return small_gpu_with(&x->r, mode, 0);
}

static void test_pipelines_refuse(void **state)
{
	(void)state;
	struct fixture x;
	fixture_load(&x);
	struct tsr_frame_stats *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	for (int mode = 0; mode < 2; mode++) {
		struct tsr_gpu *g = small_gpu(&x, mode);
		struct tsr_error err;
		x.c.frame = 0;
		assert_int_equal(tsr_gpu_render_commands(g, &x.c, st, &err), TSR_OK);
		assert_true(st->raster.quads_shaded > 0);
		struct tsr_draw_state keep = x.c.draws[0].state;
		x.c.draws[0].state.mode = TSR_PRIM_TRIANGLE_STRIP;
		x.c.frame = 1;
		assert_int_equal(tsr_gpu_render_commands(g, &x.c, st, &err), TSR_ERR_UNSUPPORTED);
		assert_non_null(strstr(err.msg, "draw 0: primitive mode 'triangle strip'"));
		assert_non_null(strstr(err.msg, mode ? "IMR" : "TBR"));
		x.c.draws[0].state = keep;
		x.c.passes[0].clear.mask = TSR_CLEAR_COLOR;  /* depth loaded */
		assert_int_equal(tsr_gpu_render_commands(g, &x.c, st, &err), TSR_ERR_UNSUPPORTED);
		assert_non_null(strstr(err.msg, "pass 0: a depth buffer loaded from memory"));
		x.c.passes[0].clear.mask = TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH;
		/* refused before any work: the GPU renders the next frame */
		assert_int_equal(tsr_gpu_render_commands(g, &x.c, st, &err), TSR_OK);
		assert_true(st->raster.quads_shaded > 0);
		tsr_gpu_destroy(g);
	}
	free(st);
	fixture_free(&x);
}

/*
 * Face culling, read from the draw state (geometry/cull.c): the quad faces
 * the camera counter-clockwise, so it is drawn with culling off, BACK
 * culled, or FRONT culled with a CW front face, and culled (both its
 * triangles) with FRONT, FRONT_AND_BACK, or BACK with a CW front face; in
 * both pipelines, the state accepted by the check.
 */
static void test_cull_state(void **state)
{
	(void)state;
	struct fixture x;
	fixture_load(&x);
	struct tsr_frame_stats *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	static const struct {
		uint8_t enable, face, front_face;
		int drawn;
	} cases[] = {
		{1, TSR_CULL_BACK, TSR_FRONT_CCW, 1},  /* the frontend's */
		{0, TSR_CULL_BACK, TSR_FRONT_CCW, 1},
		{0, TSR_CULL_FRONT_AND_BACK, TSR_FRONT_CW, 1},
		{1, TSR_CULL_FRONT, TSR_FRONT_CW, 1},
		{1, TSR_CULL_FRONT, TSR_FRONT_CCW, 0},
		{1, TSR_CULL_FRONT_AND_BACK, TSR_FRONT_CCW, 0},
		{1, TSR_CULL_BACK, TSR_FRONT_CW, 0},
	};
	for (int mode = 0; mode < 2; mode++) {
		struct tsr_gpu *g = small_gpu(&x, mode);
		struct tsr_error err;
		assert_int_equal(x.c.draws[0].state.cull.enable, 1);
		const struct tsr_cull_state keep = x.c.draws[0].state.cull;
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			x.c.frame = (uint32_t)i;
			x.c.draws[0].state.cull = (struct tsr_cull_state){
				cases[i].enable, cases[i].face, cases[i].front_face};
			if (tsr_gpu_render_commands(g, &x.c, st, &err) != TSR_OK)
				fail_msg("case %zu: %s", i, err.msg);
			if (cases[i].drawn) {
				assert_int_equal(st->geometry.primitives_culled, 0);
				assert_true(st->raster.quads_shaded > 0);
			} else {
				assert_int_equal(st->geometry.primitives_culled, 2);
				assert_int_equal(st->raster.quads_shaded, 0);
			}
		}
		x.c.draws[0].state.cull = keep;
		tsr_gpu_destroy(g);
	}
	free(st);
	fixture_free(&x);
}


/* The fixture's frame with a second draw of the quad over the first, at
 * the same depth, whose state `change` alters; rendered by g into *st.
 * Returns the frame's image (64 x 32 RGBA8). */
static const uint8_t *render_pair(struct tsr_gpu *g, const struct fixture *x, uint32_t frame,
				  void (*change)(struct tsr_draw_state *s),
				  struct tsr_frame_stats *st)
{
	struct tsr_frame_commands c;
	struct tsr_error err;
	memset(&c, 0, sizeof(c));
	tsr_commands_reset(&c, frame);
	assert_int_equal(tsr_commands_pass(&c, &x->c.passes[0], &err), TSR_OK);
	struct tsr_cmd_draw d = x->c.draws[0];
	assert_int_equal(tsr_commands_draw(&c, &d, &err), TSR_OK);
	if (change) {
		change(&d.state);
		assert_int_equal(tsr_commands_draw(&c, &d, &err), TSR_OK);
	}
	if (tsr_gpu_render_commands(g, &c, st, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	tsr_commands_release(&c);
	return tsr_gpu_frame_image(g);
}

CHANGE(same, (void)s)
CHANGE(lequal, s->depth.func = TSR_FUNC_LEQUAL)
CHANGE(test_off, s->depth.test = 0)
CHANGE(never, s->depth.func = TSR_FUNC_NEVER)
CHANGE(add_lequal, {
	s->depth.func = TSR_FUNC_LEQUAL;
	s->blend.enable = 1;
	s->blend.src_rgb = s->blend.dst_rgb = TSR_BLEND_ONE;
	s->blend.src_alpha = s->blend.dst_alpha = TSR_BLEND_ONE;
})
CHANGE(add_red_only, {
	add_lequal(s);
	s->color_mask = TSR_COLOR_MASK_R;
})
CHANGE(add_bottom_half, {  /* GL's scissor box: y up, rows 0..15 are the bottom */
	add_lequal(s);
	s->scissor.enable = 1;
	s->scissor.height = 16;
})
CHANGE(near_range, s->depth.func = TSR_FUNC_LESS; s->viewport.depth_far = 0.5f)
CHANGE(offset_nearer, {
	s->polygon_offset.enable = 1;
	s->polygon_offset.units = -4.0f;
})
CHANGE(offset_farther, {
	s->polygon_offset.enable = 1;
	s->polygon_offset.units = 4.0f;
})
CHANGE(subtract_all, {  /* dst - src, with src = dst: black, alpha 0 */
	add_lequal(s);
	s->blend.eq_rgb = s->blend.eq_alpha = TSR_BLEND_EQ_REVERSE_SUBTRACT;
})

/*
 * Per-fragment state read from the draw (raster/binding.c), in both
 * pipelines alike: a second draw of the quad at the same depth is killed
 * by DEPTH_FUNC LESS and NEVER or a positive polygon offset, drawn with
 * LEQUAL, the test off, a nearer depth range or a negative offset; ONE,
 * ONE blending doubles the colors, only red with a red color mask, only
 * in the bottom half with a scissor box there; REVERSE_SUBTRACT of the
 * same color gives black. TBR and IMR images are the same bit for bit.
 */
static void test_fragment_state(void **state)
{
	(void)state;
	struct fixture x;
	fixture_load(&x);
	struct tsr_frame_stats *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	const size_t bytes = 64 * 32 * 4;
	uint8_t *base = malloc(bytes), *img[2] = {malloc(bytes), malloc(bytes)};
	assert_true(base && img[0] && img[1]);
	static void (*const changes[])(struct tsr_draw_state *) = {
		same, lequal, test_off, never, add_lequal, add_red_only, add_bottom_half,
		subtract_all, near_range, offset_nearer, offset_farther,
	};
	for (size_t i = 0; i < sizeof(changes) / sizeof(changes[0]); i++) {
		for (int mode = 0; mode < 2; mode++) {
			struct tsr_gpu *g = small_gpu(&x, mode);
			memcpy(base, render_pair(g, &x, 0, NULL, st), bytes);
			const uint64_t quads = st->raster.quads_rasterized;
			assert_true(quads > 20);
			memcpy(img[mode], render_pair(g, &x, 1, changes[i], st), bytes);
			const uint64_t shaded = st->raster.quads_shaded,
				       killed = st->raster.quads_early_z_killed;
			tsr_gpu_destroy(g);
			if (changes[i] == same || changes[i] == never ||
			    changes[i] == offset_farther) {
				assert_int_equal(shaded, quads);
				assert_int_equal(killed, quads);
				assert_memory_equal(img[mode], base, bytes);
				continue;
			}
			if (changes[i] == add_bottom_half) {
				assert_true(shaded > quads && shaded < 2 * quads);
			} else {
				assert_int_equal(shaded, 2 * quads);
				assert_int_equal(killed, 0);
			}
			if (changes[i] == lequal || changes[i] == test_off ||
			    changes[i] == near_range || changes[i] == offset_nearer) {
				assert_memory_equal(img[mode], base, bytes);
				continue;
			}
			/* blended pixels: inside the quad, where the base differs from the clear */
			const uint8_t *clear = &base[0];  /* pixel (0, 0): outside the quad */
			uint32_t blended = 0;
			for (uint32_t p = 0; p < 64 * 32; p++) {
				const uint8_t *b = &base[p * 4], *o = &img[mode][p * 4];
				if (!memcmp(b, clear, 4)) {
					assert_memory_equal(o, b, 4);
					continue;
				}
				const int bottom = p / 64 >= 16;
				for (int ch = 0; ch < 3; ch++) {
					int want = b[ch];
					if (changes[i] == subtract_all)
						want = 0;
					else if (ch == 0 || changes[i] != add_red_only)
						if (changes[i] != add_bottom_half || bottom)
							want = 2 * b[ch] > 255 ? 255 : 2 * b[ch];
					if (abs((int)o[ch] - want) > 1)
						fail_msg("change %zu, %s, pixel %u channel %d: %u, want %d "
							 "(base %u)", i, mode ? "IMR" : "TBR", p, ch,
							 o[ch], want, b[ch]);
				}
				blended++;
			}
			assert_true(blended > 100);
		}
		assert_memory_equal(img[0], img[1], bytes);  /* TBR and IMR alike */
	}
	free(base);
	free(img[0]);
	free(img[1]);
	free(st);
	fixture_free(&x);
}

/* stencil_case's mark draw (the quad again, no color written, depth test
 * off unless `depth`) and test draw (ONE, ONE blending at LEQUAL: the
 * quad's colors doubled where it passes). */
static void stencil_mark(struct tsr_draw_state *s, uint8_t func, uint8_t op, int32_t ref,
			 uint32_t write_mask)
{
	s->color_mask = 0;
	s->depth.test = 0;
	s->stencil.test = 1;
	s->stencil.front = (struct tsr_stencil_face){func, op, op, op, ref, 0xff, write_mask};
	s->stencil.back = s->stencil.front;
}

static void stencil_test(struct tsr_draw_state *s, uint8_t func, int32_t ref, uint32_t mask)
{
	add_lequal(s);
	s->stencil.test = 1;
	s->stencil.front = (struct tsr_stencil_face){func, TSR_STENCIL_KEEP, TSR_STENCIL_KEEP,
						     TSR_STENCIL_KEEP, ref, mask, 0xff};
	s->stencil.back = s->stencil.front;
}

/* The fixture's frame: its quad, then the quad with state *mark, then
 * with *test (NULL: not drawn), the pass clearing stencil to clear_s.
 * Returns the image (64 x 32 RGBA8). */
static const uint8_t *render_stencil(struct tsr_gpu *g, const struct fixture *x,
				     uint32_t frame, int32_t clear_s,
				     const struct tsr_draw_state *mark,
				     const struct tsr_draw_state *test, struct tsr_frame_stats *st)
{
	struct tsr_frame_commands c;
	struct tsr_error err;
	memset(&c, 0, sizeof(c));
	tsr_commands_reset(&c, frame);
	struct tsr_cmd_pass p = x->c.passes[0];
	p.clear.mask |= TSR_CLEAR_STENCIL;
	p.clear.stencil = clear_s;
	assert_int_equal(tsr_commands_pass(&c, &p, &err), TSR_OK);
	struct tsr_cmd_draw d = x->c.draws[0];
	assert_int_equal(tsr_commands_draw(&c, &d, &err), TSR_OK);
	d.state = *mark;
	assert_int_equal(tsr_commands_draw(&c, &d, &err), TSR_OK);
	if (test) {
		d.state = *test;
		assert_int_equal(tsr_commands_draw(&c, &d, &err), TSR_OK);
	}
	if (tsr_gpu_render_commands(g, &c, st, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	tsr_commands_release(&c);
	return tsr_gpu_frame_image(g);
}

CHANGE(add_top_half, {  /* rows 0..15 from the top: GL's y 16..31 */
	add_lequal(s);
	s->scissor.enable = 1;
	s->scissor.y = 16;
	s->scissor.height = 16;
})

/*
 * The stencil test (GL ES 2.0 4.1.5) in both pipelines, pixel for pixel:
 * a mark draw sets the quad's stencil values (no color written), a test
 * draw adds the quad's colors again where its stencil test passes, and
 * the image must be the unstencilled add's (everywhere, or where a
 * scissor box limits it) or the quad's alone (nowhere). Cases: REPLACE
 * under a scissor then EQUAL / NOTEQUAL; every func; INCR, DECR
 * saturating and INCR_WRAP, DECR_WRAP wrapping at 0 and 255; INVERT,
 * ZERO, KEEP; the write mask and the value mask; the reference clamped to
 * 255; the back face's state for a back-facing quad; sfail and dpfail.
 * TBR and IMR alike; the stencil costs the TBR no memory traffic (on
 * chip) and the IMR Z traffic (D24S8) even with the depth test off.
 */
static void test_stencil(void **state)
{
	(void)state;
	struct fixture x;
	fixture_load(&x);
	struct tsr_frame_stats *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	const size_t bytes = 64 * 32 * 4;
	uint8_t *ref[4], *img[2];
	for (int i = 0; i < 4; i++)
		assert_non_null(ref[i] = malloc(bytes));
	img[0] = malloc(bytes);
	img[1] = malloc(bytes);
	assert_true(img[0] && img[1]);
	enum { NONE, ALL, BOTTOM, TOP };
	static const struct {
		int32_t clear;
		uint8_t mark_func, op;
		int32_t mark_ref;
		uint32_t write_mask;
		uint8_t func;
		int32_t ref;
		uint32_t value_mask;
		int bottom_only;  /* the mark draw scissored to the bottom half */
		int want;         /* where the test draw adds: NONE, ALL, BOTTOM, TOP */
	} cases[] = {
		{0, TSR_FUNC_ALWAYS, TSR_STENCIL_REPLACE, 1, 0xff, TSR_FUNC_EQUAL, 1, 0xff, 1, BOTTOM},
		{0, TSR_FUNC_ALWAYS, TSR_STENCIL_REPLACE, 1, 0xff, TSR_FUNC_NOTEQUAL, 1, 0xff, 1, TOP},
		{0, TSR_FUNC_ALWAYS, TSR_STENCIL_DECR_WRAP, 0, 0xff, TSR_FUNC_EQUAL, 255, 0xff, 0, ALL},
		{0, TSR_FUNC_ALWAYS, TSR_STENCIL_DECR, 0, 0xff, TSR_FUNC_EQUAL, 0, 0xff, 0, ALL},
		{0, TSR_FUNC_ALWAYS, TSR_STENCIL_DECR, 0, 0xff, TSR_FUNC_EQUAL, 255, 0xff, 0, NONE},
		{255, TSR_FUNC_ALWAYS, TSR_STENCIL_INCR, 0, 0xff, TSR_FUNC_EQUAL, 255, 0xff, 0, ALL},
		{255, TSR_FUNC_ALWAYS, TSR_STENCIL_INCR_WRAP, 0, 0xff, TSR_FUNC_EQUAL, 0, 0xff, 0, ALL},
		{6, TSR_FUNC_ALWAYS, TSR_STENCIL_INCR, 0, 0xff, TSR_FUNC_EQUAL, 7, 0xff, 0, ALL},
		{7, TSR_FUNC_ALWAYS, TSR_STENCIL_INVERT, 0, 0xff, TSR_FUNC_EQUAL, 0xf8, 0xff, 0, ALL},
		{5, TSR_FUNC_ALWAYS, TSR_STENCIL_ZERO, 0, 0xff, TSR_FUNC_EQUAL, 0, 0xff, 0, ALL},
		{5, TSR_FUNC_ALWAYS, TSR_STENCIL_KEEP, 0, 0xff, TSR_FUNC_EQUAL, 5, 0xff, 0, ALL},
		/* the write mask: 0xff written under 0x0f is 0x0f */
		{0, TSR_FUNC_ALWAYS, TSR_STENCIL_REPLACE, 0xff, 0x0f, TSR_FUNC_EQUAL, 0x0f, 0xff, 0, ALL},
		{0, TSR_FUNC_ALWAYS, TSR_STENCIL_REPLACE, 0xff, 0x0f, TSR_FUNC_EQUAL, 0xff, 0xff, 0, NONE},
		{0x30, TSR_FUNC_ALWAYS, TSR_STENCIL_INVERT, 0, 0x0f, TSR_FUNC_EQUAL, 0x3f, 0xff, 0, ALL},
		{0, TSR_FUNC_ALWAYS, TSR_STENCIL_REPLACE, 1, 0x00, TSR_FUNC_EQUAL, 0, 0xff, 0, ALL},
		/* the value mask: (ref & mask) against (s & mask) */
		{0, TSR_FUNC_ALWAYS, TSR_STENCIL_REPLACE, 0xff, 0x0f, TSR_FUNC_EQUAL, 0xff, 0x0f, 0, ALL},
		{0x12, TSR_FUNC_ALWAYS, TSR_STENCIL_KEEP, 0, 0xff, TSR_FUNC_EQUAL, 0x32, 0x0f, 0, ALL},
		/* the reference clamped to 0..255 */
		{0, TSR_FUNC_ALWAYS, TSR_STENCIL_REPLACE, 300, 0xff, TSR_FUNC_EQUAL, 255, 0xff, 0, ALL},
		{3, TSR_FUNC_ALWAYS, TSR_STENCIL_KEEP, 0, 0xff, TSR_FUNC_EQUAL, -5, 0xff, 0, NONE},
		/* every func, reference on the left: ref FUNC stencil (3) */
		{3, TSR_FUNC_ALWAYS, TSR_STENCIL_KEEP, 0, 0xff, TSR_FUNC_NEVER, 3, 0xff, 0, NONE},
		{3, TSR_FUNC_ALWAYS, TSR_STENCIL_KEEP, 0, 0xff, TSR_FUNC_LESS, 2, 0xff, 0, ALL},
		{3, TSR_FUNC_ALWAYS, TSR_STENCIL_KEEP, 0, 0xff, TSR_FUNC_LESS, 3, 0xff, 0, NONE},
		{3, TSR_FUNC_ALWAYS, TSR_STENCIL_KEEP, 0, 0xff, TSR_FUNC_LEQUAL, 3, 0xff, 0, ALL},
		{3, TSR_FUNC_ALWAYS, TSR_STENCIL_KEEP, 0, 0xff, TSR_FUNC_LEQUAL, 4, 0xff, 0, NONE},
		{3, TSR_FUNC_ALWAYS, TSR_STENCIL_KEEP, 0, 0xff, TSR_FUNC_GREATER, 4, 0xff, 0, ALL},
		{3, TSR_FUNC_ALWAYS, TSR_STENCIL_KEEP, 0, 0xff, TSR_FUNC_GREATER, 3, 0xff, 0, NONE},
		{3, TSR_FUNC_ALWAYS, TSR_STENCIL_KEEP, 0, 0xff, TSR_FUNC_GEQUAL, 3, 0xff, 0, ALL},
		{3, TSR_FUNC_ALWAYS, TSR_STENCIL_KEEP, 0, 0xff, TSR_FUNC_GEQUAL, 2, 0xff, 0, NONE},
		{3, TSR_FUNC_ALWAYS, TSR_STENCIL_KEEP, 0, 0xff, TSR_FUNC_NOTEQUAL, 3, 0xff, 0, NONE},
		{3, TSR_FUNC_ALWAYS, TSR_STENCIL_KEEP, 0, 0xff, TSR_FUNC_ALWAYS, 9, 0xff, 0, ALL},
		/* a failing stencil test's op (sfail; the mark's func NEVER) */
		{0, TSR_FUNC_NEVER, TSR_STENCIL_REPLACE, 4, 0xff, TSR_FUNC_EQUAL, 4, 0xff, 0, ALL},
	};
	for (int mode = 0; mode < 2; mode++) {
		struct tsr_gpu *g = small_gpu(&x, mode);
		memcpy(ref[NONE], render_pair(g, &x, 0, NULL, st), bytes);
		memcpy(ref[ALL], render_pair(g, &x, 1, add_lequal, st), bytes);
		memcpy(ref[BOTTOM], render_pair(g, &x, 2, add_bottom_half, st), bytes);
		memcpy(ref[TOP], render_pair(g, &x, 3, add_top_half, st), bytes);
		assert_memory_not_equal(ref[ALL], ref[NONE], bytes);
		assert_memory_not_equal(ref[BOTTOM], ref[TOP], bytes);
		const struct tsr_draw_state base = x.c.draws[0].state;
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct tsr_draw_state mark = base, test = base;
			stencil_mark(&mark, cases[i].mark_func, cases[i].op, cases[i].mark_ref,
				     cases[i].write_mask);
			if (cases[i].bottom_only) {
				mark.scissor.enable = 1;
				mark.scissor.height = 16;
			}
			stencil_test(&test, cases[i].func, cases[i].ref, cases[i].value_mask);
			const uint8_t *im = render_stencil(g, &x, 10 + (uint32_t)i, cases[i].clear,
							   &mark, &test, st);
			if (memcmp(im, ref[cases[i].want], bytes))
				fail_msg("%s, case %zu: not the image of a test passing %s", mode ?
					 "IMR" : "TBR", i, (const char *[]){"nowhere", "everywhere",
					 "in the bottom half", "in the top half"}[cases[i].want]);
			/* D24S8: the IMR's stencil is in its Z buffer's words (the
			 * mark draw tests no depth); the TBR's stays on chip */
			const uint64_t z = st->dram[TSR_STREAM_Z].read_bytes +
					   st->dram[TSR_STREAM_Z].write_bytes;
			uint64_t zc = 0;
			for (uint32_t c = 0; c < TSR_MEMSYS_MAX_CACHES; c++)
				zc += st->caches[c][TSR_STREAM_Z].reads + st->caches[c][TSR_STREAM_Z].writes;
			if (mode)
				assert_true(z + zc > 0);
			else
				assert_int_equal(z + zc, 0);
			uint64_t sc = 0;
			for (uint32_t c = 0; c < TSR_MEMSYS_MAX_CACHES; c++)
				sc += st->caches[c][TSR_STREAM_STENCIL].reads;
			assert_int_equal(sc + st->dram[TSR_STREAM_STENCIL].read_bytes, 0);
		}
		/* faces: the quad is counter-clockwise; with FRONT_FACE CW it is a
		 * back face and takes the back state (REPLACE 2, the front's 1) */
		for (int cw = 0; cw < 2; cw++) {
			struct tsr_draw_state mark = base, test = base;
			stencil_mark(&mark, TSR_FUNC_ALWAYS, TSR_STENCIL_REPLACE, 1, 0xff);
			mark.stencil.back.zpass = TSR_STENCIL_REPLACE;
			mark.stencil.back.ref = 2;
			mark.cull.enable = 0;
			mark.cull.front_face = cw ? TSR_FRONT_CW : TSR_FRONT_CCW;
			stencil_test(&test, TSR_FUNC_EQUAL, 2, 0xff);
			const uint8_t *im = render_stencil(g, &x, 50 + (uint32_t)cw, 0, &mark, &test, st);
			assert_memory_equal(im, ref[cw ? ALL : NONE], bytes);
			/* the test draw back-facing too: its back func (EQUAL 2 passes
			 * only after the back face's mark), its front one NEVER */
			test.cull.enable = 0;
			test.cull.front_face = TSR_FRONT_CW;
			test.stencil.front.func = TSR_FUNC_NEVER;
			im = render_stencil(g, &x, 52 + (uint32_t)cw, 0, &mark, &test, st);
			assert_memory_equal(im, ref[cw ? ALL : NONE], bytes);
		}
		/* dpfail: the mark draw fails LESS at the quad's own depth: its
		 * dpfail op (REPLACE 3) runs, not its dppass one (REPLACE 9) */
		{
			struct tsr_draw_state mark = base, test = base;
			stencil_mark(&mark, TSR_FUNC_ALWAYS, TSR_STENCIL_REPLACE, 3, 0xff);
			mark.depth.test = 1;
			mark.depth.func = TSR_FUNC_LESS;
			mark.stencil.front.zpass = mark.stencil.back.zpass = TSR_STENCIL_ZERO;
			stencil_test(&test, TSR_FUNC_EQUAL, 3, 0xff);
			assert_memory_equal(render_stencil(g, &x, 60, 9, &mark, &test, st), ref[ALL],
					    bytes);
			assert_true(st->raster.quads_early_z_killed > 0);
			/* dppass: at LEQUAL it passes: ZERO */
			mark.depth.func = TSR_FUNC_LEQUAL;
			assert_memory_equal(render_stencil(g, &x, 61, 9, &mark, &test, st), ref[NONE],
					    bytes);
			stencil_test(&test, TSR_FUNC_EQUAL, 0, 0xff);
			assert_memory_equal(render_stencil(g, &x, 62, 9, &mark, &test, st), ref[ALL],
					    bytes);
		}
		/* a stencil test in a pass whose stencil is loaded: refused (no
		 * pass stores its stencil) */
		{
			struct tsr_frame_commands c;
			struct tsr_error err;
			memset(&c, 0, sizeof(c));
			tsr_commands_reset(&c, 70);
			assert_int_equal(tsr_commands_pass(&c, &x.c.passes[0], &err), TSR_OK);
			struct tsr_cmd_draw d = x.c.draws[0];
			stencil_test(&d.state, TSR_FUNC_EQUAL, 0, 0xff);
			assert_int_equal(tsr_commands_draw(&c, &d, &err), TSR_OK);
			c.passes[0].clear.invalidate &= (uint8_t)~TSR_CLEAR_STENCIL;
			c.passes[0].clear.mask &= (uint8_t)~TSR_CLEAR_STENCIL;
			assert_int_equal(tsr_gpu_render_commands(g, &c, st, &err), TSR_ERR_UNSUPPORTED);
			assert_non_null(strstr(err.msg, "stencil buffer loaded"));
			c.passes[0].clear.invalidate |= TSR_CLEAR_STENCIL;  /* undefined: cleared to 0 */
			assert_int_equal(tsr_gpu_render_commands(g, &c, st, &err), TSR_OK);
			tsr_commands_release(&c);
		}
		memcpy(img[mode], ref[BOTTOM], bytes);
		tsr_gpu_destroy(g);
	}
	assert_memory_equal(img[0], img[1], bytes);
	for (int i = 0; i < 4; i++)
		free(ref[i]);
	free(img[0]);
	free(img[1]);
	free(st);
	fixture_free(&x);
}

/* The fixture's frame `frame` whose pass starts with clear mask `mask`
 * (invalidating `invalidate`), drawing the quad unless `no_draw`, with
 * ONE, ONE blending when `add`; rendered by g into *st. */
static const uint8_t *render_start(struct tsr_gpu *g, const struct fixture *x, uint32_t frame,
				   uint8_t mask, uint8_t invalidate, int no_draw, int add,
				   struct tsr_frame_stats *st)
{
	struct tsr_frame_commands c;
	struct tsr_error err;
	memset(&c, 0, sizeof(c));
	tsr_commands_reset(&c, frame);
	struct tsr_cmd_pass p = x->c.passes[0];
	p.clear.mask = mask;
	p.clear.invalidate = invalidate;
	assert_int_equal(tsr_commands_pass(&c, &p, &err), TSR_OK);
	struct tsr_cmd_draw d = x->c.draws[0];
	if (add)
		add_lequal(&d.state);
	if (!no_draw)
		assert_int_equal(tsr_commands_draw(&c, &d, &err), TSR_OK);
	if (tsr_gpu_render_commands(g, &c, st, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	tsr_commands_release(&c);
	return tsr_gpu_frame_image(g);
}

/* Reads of `stream` at every cache and DRAM bytes read. */
static uint64_t reads_of(const struct tsr_frame_stats *st, int stream)
{
	uint64_t n = st->dram[stream].read_bytes;
	for (uint32_t i = 0; i < st->cache_count; i++)
		n += st->caches[i][stream].reads;
	return n;
}

/*
 * A pass that keeps its color buffer (neither cleared nor invalidated)
 * starts from the previous frame's image (EGL_BUFFER_PRESERVED): with no
 * draw the image is the previous one; drawing the quad again with ONE,
 * ONE blending doubles its colors. The TBR loads every tile (the screen's
 * 8 KiB read from DRAM on the color stream), the IMR copies the front
 * buffer into the back one (a read of each 8x8 block, display stream); a cleared or invalidated color
 * buffer reads nothing. Both pipelines give the same images.
 */
static void test_tile_load(void **state)
{
	(void)state;
	struct fixture x;
	fixture_load(&x);
	struct tsr_frame_stats *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	const size_t bytes = 64 * 32 * 4;
	uint8_t *base = malloc(bytes), *img[2][3];
	assert_non_null(base);
	const uint8_t cd = TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH;
	for (int mode = 0; mode < 2; mode++) {
		struct tsr_gpu *g = small_gpu(&x, mode);
		const int stream = mode ? TSR_STREAM_DISPLAY : TSR_STREAM_COLOR;
		memcpy(base, render_start(g, &x, 0, cd, 0, 0, 0, st), bytes);
		assert_int_equal(reads_of(st, stream), 0);
		/* loaded, nothing drawn: the previous image */
		img[mode][0] = malloc(bytes);
		memcpy(img[mode][0], render_start(g, &x, 1, TSR_CLEAR_DEPTH, 0, 1, 0, st), bytes);
		assert_memory_equal(img[mode][0], base, bytes);
		if (mode == 0)
			assert_int_equal(st->dram[TSR_STREAM_COLOR].read_bytes, 64 * 32 * 4);
		else
			assert_true(reads_of(st, TSR_STREAM_DISPLAY) >= 32);  /* 8x8 blocks */
		/* the quad drawn again, ONE, ONE over the loaded image */
		img[mode][1] = malloc(bytes);
		memcpy(img[mode][1], render_start(g, &x, 2, TSR_CLEAR_DEPTH, 0, 0, 1, st), bytes);
		uint32_t doubled = 0;
		for (uint32_t p = 0; p < 64 * 32; p++) {
			const uint8_t *b = &base[p * 4], *o = &img[mode][1][p * 4];
			if (!memcmp(b, base, 4)) {  /* the clear color, pixel (0, 0)'s */
				assert_memory_equal(o, b, 4);
				continue;
			}
			for (int ch = 0; ch < 3; ch++) {
				const int want = 2 * b[ch] > 255 ? 255 : 2 * b[ch];
				if (abs((int)o[ch] - want) > 1)
					fail_msg("%s pixel %u channel %d: %u, want %d", mode ? "IMR" : "TBR",
						 p, ch, o[ch], want);
			}
			doubled++;
		}
		assert_true(doubled > 100);
		/* invalidated: as cleared, nothing read */
		img[mode][2] = malloc(bytes);
		memcpy(img[mode][2], render_start(g, &x, 3, TSR_CLEAR_DEPTH, TSR_CLEAR_COLOR, 0, 0, st),
		       bytes);
		assert_memory_equal(img[mode][2], base, bytes);
		assert_int_equal(reads_of(st, stream), 0);
		tsr_gpu_destroy(g);
	}
	for (int i = 0; i < 3; i++) {
		assert_memory_equal(img[0][i], img[1][i], bytes);  /* TBR and IMR alike */
		free(img[0][i]);
		free(img[1][i]);
	}
	free(base);
	free(st);
	fixture_free(&x);
}

/* small_gpu() over the resources r instead of the fixture's. */

/*
 * Resources added after the GPU was made (tsr_gpu_add_resources(), as a GL
 * driver adds a program's buffers and textures as it runs) render as the
 * same resources given at creation; an image's new contents
 * (tsr_gpu_update_image()) are sampled from the next frame, at the same
 * address; adding during a frame is refused, and the GPU then has no new
 * resource. Both pipelines.
 */
static void test_added_resources(void **state)
{
	(void)state;
	struct fixture x;
	fixture_load(&x);
	struct tsr_frame_stats *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	const size_t bytes = 64 * 32 * 4;
	uint8_t *want = malloc(bytes);
	assert_non_null(want);
	struct tsr_error err;
	for (int mode = 0; mode < 2; mode++) {
		struct tsr_gpu *ref = small_gpu(&x, mode);
		memcpy(want, render_start(ref, &x, 0, TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH, 0, 0, 0, st),
		       bytes);
		const uint64_t quads = st->raster.quads_shaded;
		tsr_gpu_destroy(ref);
		const struct tsr_resources none = {0};
		struct tsr_gpu *g = small_gpu_with(&none, mode, 0);
		assert_int_equal(tsr_gpu_add_resources(g, &x.r, &err), TSR_OK);
		const struct tsr_region *last =
			&tsr_gpu_address_map(g)->regions[tsr_gpu_address_map(g)->count - 1];
		assert_non_null(strstr(last->name, "texture0:crate-base.png"));
		const uint8_t *got = render_start(g, &x, 0, TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH, 0, 0,
						  0, st);
		assert_memory_equal(got, want, bytes);
		assert_int_equal(st->raster.quads_shaded, quads);
		/* refused during a frame */
		assert_int_equal(tsr_gpu_begin_frame(g, &x.c, st, &err), TSR_OK);
		assert_int_equal(tsr_gpu_add_resources(g, &x.r, &err), TSR_ERR_INTERNAL);
		assert_int_equal(tsr_gpu_update_image(g, 0, &err), TSR_ERR_INTERNAL);
		assert_int_equal(tsr_gpu_finish_frame(g, &err), TSR_OK);
		/* new texels: the inverted texture is sampled, at the same address */
		struct tsr_image *im = (struct tsr_image *)&x.r.images[0];
		const size_t texels = (size_t)im->width * im->height * 4;
		for (size_t i = 0; i < texels; i++)
			if (i % 4 != 3)
				im->rgba[i] = (uint8_t)(255 - im->rgba[i]);
		assert_int_equal(tsr_gpu_update_image(g, 0, &err), TSR_OK);
		assert_int_equal(tsr_gpu_update_image(g, 7, &err), TSR_ERR_INTERNAL);
		got = render_start(g, &x, 1, TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH, 0, 0, 0, st);
		ref = small_gpu(&x, mode);
		const uint8_t *inv = render_start(ref, &x, 1, TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH, 0, 0,
						  0, st);
		assert_memory_equal(got, inv, bytes);
		assert_memory_not_equal(got, want, bytes);
		tsr_gpu_destroy(ref);
		for (size_t i = 0; i < texels; i++)  /* the texture as loaded, for the next mode */
			if (i % 4 != 3)
				im->rgba[i] = (uint8_t)(255 - im->rgba[i]);
		tsr_gpu_destroy(g);
	}
	free(want);
	free(st);
	fixture_free(&x);
}

/* The fixture's quad drawn into render target `target` (w x h, cleared),
 * then the fixture's frame on the screen; the target's texels into rgba. */
static const uint8_t *render_into(struct tsr_gpu *g, const struct fixture *x, uint32_t target,
				  uint32_t w, uint32_t h, uint8_t *rgba, struct tsr_frame_stats *st)
{
	struct tsr_frame_commands c;
	struct tsr_error err;
	memset(&c, 0, sizeof(c));
	tsr_commands_reset(&c, 0);
	struct tsr_cmd_pass p = x->c.passes[0];
	p.target = TSR_TARGET_TEXTURE;
	p.target_image = target;
	p.clear.mask = TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH;
	struct tsr_cmd_draw d = x->c.draws[0];
	d.state.viewport.width = w;
	d.state.viewport.height = h;
	d.state.framebuffer.color = (int32_t)target;
	assert_int_equal(tsr_commands_pass(&c, &p, &err), TSR_OK);
	assert_int_equal(tsr_commands_draw(&c, &d, &err), TSR_OK);
	assert_int_equal(tsr_commands_pass(&c, &x->c.passes[0], &err), TSR_OK);
	assert_int_equal(tsr_commands_draw(&c, &x->c.draws[0], &err), TSR_OK);
	if (tsr_gpu_render_commands(g, &c, st, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	tsr_commands_release(&c);
	assert_int_equal(tsr_gpu_read_image(g, target, 0, 0, w, h, rgba, &err), TSR_OK);
	return tsr_gpu_frame_image(g);
}

/*
 * A render target larger than the tile grid, added after the GPU was made
 * (a GL ES program's framebuffer object larger than the grid its device
 * made), grows the grid to cover it: a new PB-Lists region, the tiles
 * renumbered; frames drawing into it render the target and the screen as
 * a GPU made with the target from the start does. Both pipelines, the TBR
 * with Rendering Elimination (its per-tile signatures made again); a grid
 * beyond the limits is refused with the size in the message.
 */
static void test_grid_grows(void **state)
{
	(void)state;
	struct fixture x;
	fixture_load(&x);
	struct tsr_frame_stats *st = calloc(1, sizeof(*st));
	const uint32_t w = 128, h = 48;
	uint8_t *texels = calloc((size_t)w * h, 4);
	uint8_t *got = malloc((size_t)w * h * 4), *want = malloc((size_t)w * h * 4);
	uint8_t *screen = malloc(64 * 32 * 4);
	struct tsr_image *images = calloc(x.r.image_count + 1, sizeof(*images));
	assert_true(st && texels && got && want && screen && images);
	memcpy(images, x.r.images, x.r.image_count * sizeof(*images));
	const uint32_t target = x.r.image_count;
	images[target] = (struct tsr_image){.path = "rendertarget:big", .width = w, .height = h,
					    .rgba = texels, .render_target = 1};
	struct tsr_resources all = x.r;
	all.images = images;
	all.image_count = target + 1;
	struct tsr_error err;
	for (int mode = 0; mode < 2; mode++) {
		struct tsr_gpu *ref = small_gpu_with(&all, mode, !mode);
		memcpy(screen, render_into(ref, &x, target, w, h, want, st), 64 * 32 * 4);
		const uint64_t quads = st->raster.quads_shaded;
		int drawn = 0;  /* the crate's texels, not one clear color */
		for (size_t i = 4; i < (size_t)w * h * 4; i += 4)
			drawn |= memcmp(&want[i], want, 4) != 0;
		assert_true(drawn);
		struct tsr_gpu *g = small_gpu_with(&x.r, mode, !mode);
		uint32_t tx, ty;
		tsr_gpu_tile_grid(g, &tx, &ty);
		assert_true(tx == 4 && ty == 2);
		render_start(g, &x, 0, TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH, 0, 0, 0, st);
		const struct tsr_resources more = {.image_count = 1, .images = &images[target]};
		assert_int_equal(tsr_gpu_add_resources(g, &more, &err), TSR_OK);
		tsr_gpu_tile_grid(g, &tx, &ty);
		assert_true(tx == 8 && ty == 3);
		const struct tsr_addrmap *map = tsr_gpu_address_map(g);
		int found = 0;
		for (uint32_t i = 0; i < map->count; i++)
			found |= !strcmp(map->regions[i].name, "pb_lists.grid128x48");
		assert_true(found);
		for (int frame = 0; frame < 2; frame++) {  /* the second: RE has signatures */
			memset(got, 0, (size_t)w * h * 4);
			const uint8_t *img = render_into(g, &x, target, w, h, got, st);
			assert_memory_equal(img, screen, 64 * 32 * 4);
			assert_memory_equal(got, want, (size_t)w * h * 4);
			if (frame == 0)
				assert_int_equal(st->raster.quads_shaded, quads);
		}
		/* beyond the limits: one message, nothing added */
		struct tsr_image huge = {.path = "rendertarget:huge", .width = 16384,
					 .height = 16384, .render_target = 1};
		const struct tsr_resources more2 = {.image_count = 1, .images = &huge};
		const uint32_t regions = map->count;
		assert_int_equal(tsr_gpu_add_resources(g, &more2, &err), TSR_ERR_CONFIG);
		assert_non_null(strstr(err.msg, "16384x16384"));
		assert_int_equal(tsr_gpu_address_map(g)->count, regions);
		tsr_gpu_destroy(ref);
		tsr_gpu_destroy(g);
	}
	free(images);
	free(screen);
	free(want);
	free(got);
	free(texels);
	free(st);
	fixture_free(&x);
}

/*
 * A program draw (struct tsr_cmd_program) through both pipelines: the
 * fixture's textured quad drawn by a GLSL program (the draw's matrix as a
 * uniform, positions and texture coordinates from two raw buffers added
 * with tsr_gpu_add_resources(), the texture sampled on unit 0) gives the
 * fixed material's image to within one step of 255 per channel (the
 * program multiplies the matrix in its own order), reads the raw buffers'
 * regions and counts its programs' instruction mix; unequal wraps on a
 * unit it samples are refused.
 */
static void test_program_draw(void **state)
{
	(void)state;
	struct fixture x;
	fixture_load(&x);
	struct tsr_frame_stats *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	const size_t bytes = 64 * 32 * 4;
	uint8_t *want = malloc(bytes);
	assert_non_null(want);
	struct tsr_error err;
	static const char *vs = "uniform mat4 mvp;\n"
				"attribute vec3 pos;\n"
				"attribute vec2 uv;\n"
				"varying vec2 v_uv;\n"
				"void main() { v_uv = uv; gl_Position = mvp * vec4(pos, 1.0); }\n";
	static const char *fs = "precision mediump float;\n"
				"uniform sampler2D tex;\n"
				"varying vec2 v_uv;\n"
				"void main() { gl_FragColor = texture2D(tex, v_uv); }\n";
	struct tsr_shader *sv = NULL, *sf = NULL;
	struct tsr_program *pr = NULL;
	assert_int_equal(tsr_shader_compile(TSR_SHADER_VERTEX, vs, &sv, &err), TSR_OK);
	assert_int_equal(tsr_shader_compile(TSR_SHADER_FRAGMENT, fs, &sf, &err), TSR_OK);
	const struct tsr_attrib_binding bind[2] = {{"pos", 0}, {"uv", 1}};
	assert_int_equal(tsr_program_link(sv, sf, bind, 2, &pr, &err), TSR_OK);
	assert_true(tsr_program_linked(pr));
	const struct tsr_cmd_draw *fixed = &x.c.draws[0];
	assert_int_equal(tsr_program_uniform_write(pr, tsr_program_uniform_location(pr, "mvp"), 1,
						   fixed->mvp.m, &err), TSR_OK);
	const struct tsr_mesh *quad = &x.r.meshes[fixed->mesh];
	const struct tsr_sh_inst *code;
	struct tsr_material mat = {.texture = -1, .texture_object = -1, .varyings = 1,
				   .vertex_shader_instructions =
					   tsr_program_code(pr, TSR_SHADER_VERTEX, &code),
				   .shader_alu_instructions =
					   tsr_program_code(pr, TSR_SHADER_FRAGMENT, &code)};
	struct tsr_mesh raw[2] = {{.raw_bytes = quad->vertex_count * 12u},
				  {.raw_bytes = quad->vertex_count * 8u}};
	for (int mode = 0; mode < 3; mode++) {
		struct tsr_gpu *g = small_gpu(&x, mode == 1);
		memcpy(want, render_start(g, &x, 0, TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH, 0, 0, 0, st),
		       bytes);
		const struct tsr_resources more = {.mesh_count = 2, .meshes = raw,
						   .material_count = 1, .materials = &mat};
		const uint32_t first_mesh = x.r.mesh_count, material = x.r.material_count;
		assert_int_equal(tsr_gpu_add_resources(g, &more, &err), TSR_OK);
		struct tsr_shader_exec *ev = NULL, *ef = NULL;
		assert_int_equal(tsr_shader_exec_create(pr, TSR_SHADER_VERTEX, NULL, NULL, &ev, &err),
				 TSR_OK);
		assert_int_equal(tsr_shader_exec_create(pr, TSR_SHADER_FRAGMENT, NULL, NULL, &ef,
							&err), TSR_OK);
		struct tsr_cmd_program prog = {.vertex = ev, .fragment = ef,
					       .varying_slots = tsr_program_varying_count(pr),
					       .attrib_count = 2, .indices = *quad,
					       .index_buffer = first_mesh, .index_bytes = 4};
		prog.indices.positions = NULL;
		prog.indices.normals = NULL;
		prog.indices.texcoords = NULL;
		prog.attribs[0] = (struct tsr_cmd_attrib){.data = (const uint8_t *)quad->positions,
							  .buffer = first_mesh, .stride = 12,
							  .components = 3, .type = TSR_ATTRIB_FLOAT};
		prog.attribs[1] = (struct tsr_cmd_attrib){.data = (const uint8_t *)quad->texcoords,
							  .buffer = first_mesh + 1, .stride = 8,
							  .components = 2, .type = TSR_ATTRIB_FLOAT};
		for (int u = 0; u < TSR_SHADER_MAX_TEXTURE_UNITS; u++)
			prog.textures[u] = u == 0 ? fixed->state.textures[0].image : -1;
		struct tsr_frame_commands c;
		memset(&c, 0, sizeof(c));
		tsr_commands_reset(&c, 1);
		assert_int_equal(tsr_commands_pass(&c, &x.c.passes[0], &err), TSR_OK);
		struct tsr_cmd_draw d = *fixed;
		d.material = material;
		d.program = &prog;
		assert_int_equal(tsr_commands_draw(&c, &d, &err), TSR_OK);
		if (mode == 2) {  /* the texture unit's wraps differ, one mirrored: drawn */
			c.draws[0].state.textures[0].wrap_s = TSR_TEX_MIRRORED_REPEAT;
			c.draws[0].state.textures[0].wrap_t = TSR_TEX_CLAMP_TO_EDGE;
			if (tsr_gpu_render_commands(g, &c, st, &err) != TSR_OK)
				fail_msg("%s", err.msg);
			assert_int_equal(st->raster.fs_tex, st->raster.quads_shaded);
			assert_true(st->texture.line_requests > 0);
		} else {
			if (tsr_gpu_render_commands(g, &c, st, &err) != TSR_OK)
				fail_msg("%s", err.msg);
			const uint8_t *got = tsr_gpu_frame_image(g);
			for (size_t i = 0; i < bytes; i++)
				if (abs((int)got[i] - (int)want[i]) > 1)
					fail_msg("%s byte %zu: %u, fixed %u", mode ? "IMR" : "TBR", i,
						 got[i], want[i]);
			assert_true(st->raster.fs_tex > 0);
			assert_int_equal(st->raster.fs_tex, st->raster.quads_shaded);
			assert_true(st->geometry.vertex_instructions > 0);
			assert_true(st->dram[TSR_STREAM_VERTEX].read_bytes > 0);
		}
		tsr_commands_release(&c);
		tsr_gpu_destroy(g);
		tsr_shader_exec_destroy(ev);
		tsr_shader_exec_destroy(ef);
	}
	tsr_program_destroy(pr);
	tsr_shader_destroy(sv);
	tsr_shader_destroy(sf);
	free(want);
	free(st);
	fixture_free(&x);
}

/*
 * The viewport (GL ES 2.0 2.12): the quad drawn into the left half of the
 * target (x 0..31) lands there, narrower; the right half keeps the clear
 * color, also where the quad's clip-space extent goes past the viewport's
 * edge (a wider quad, cut at x = 32). Both pipelines alike.
 */
static void test_viewport(void **state)
{
	(void)state;
	struct fixture x;
	fixture_load(&x);
	struct tsr_frame_stats *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	const size_t bytes = 64 * 32 * 4;
	uint8_t *img[2] = {malloc(bytes), malloc(bytes)};
	for (int wide = 0; wide < 2; wide++) {
		for (int mode = 0; mode < 2; mode++) {
			struct tsr_gpu *g = small_gpu(&x, mode);
			struct tsr_frame_commands c;
			struct tsr_error err;
			memset(&c, 0, sizeof(c));
			tsr_commands_reset(&c, 0);
			assert_int_equal(tsr_commands_pass(&c, &x.c.passes[0], &err), TSR_OK);
			struct tsr_cmd_draw d = x.c.draws[0];
			d.state.viewport.width = 32;
			if (wide)  /* stretched to 4x its width in clip space */
				d.mvp.m[0] *= 4.0f;
			assert_int_equal(tsr_commands_draw(&c, &d, &err), TSR_OK);
			if (tsr_gpu_render_commands(g, &c, st, &err) != TSR_OK)
				fail_msg("%s", err.msg);
			memcpy(img[mode], tsr_gpu_frame_image(g), bytes);
			tsr_commands_release(&c);
			tsr_gpu_destroy(g);
			const uint8_t *clear = img[mode];  /* pixel (0, 0): outside the quad */
			uint32_t inside = 0;
			for (uint32_t p = 0; p < 64 * 32; p++) {
				if (p % 64 >= 32)
					assert_memory_equal(&img[mode][p * 4], clear, 4);
				else
					inside += memcmp(&img[mode][p * 4], clear, 4) != 0;
			}
			assert_true(inside > (wide ? 500u : 200u));
		}
		assert_memory_equal(img[0], img[1], bytes);
	}
	free(img[0]);
	free(img[1]);
	free(st);
	fixture_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_workloads_pass),
		cmocka_unit_test(test_check_refuses_each_state),
		cmocka_unit_test(test_clear_refusals),
		cmocka_unit_test(test_pipelines_refuse),
		cmocka_unit_test(test_cull_state),
		cmocka_unit_test(test_fragment_state),
		cmocka_unit_test(test_stencil),
		cmocka_unit_test(test_tile_load),
		cmocka_unit_test(test_viewport),
		cmocka_unit_test(test_added_resources),
		cmocka_unit_test(test_grid_grows),
		cmocka_unit_test(test_program_draw),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
