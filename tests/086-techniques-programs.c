/*
 * 086: the techniques on GL ES program draws (the GL ES device's draws,
 * as a replayed capture makes them): Rendering Elimination signs a
 * program draw's uniforms and the contents of the textures it samples
 * (a frame that changes only a uniform, or only a texture's texels, is
 * rendered; a frame identical to the one two back is skipped), and the
 * Attribute Cache holds a program primitive's attributes as the Parameter
 * Buffer stores them (position and one attribute per varying slot). In a
 * render-to-texture frame RE and TE sign the window's pass, the tiles
 * that sample the render target are rendered every frame.
 *
 * The window is 64 x 32 pixels of 16 x 16 tiles (4 x 2 tiles); the draws
 * cover its left half, tiles x 0..1: 4 tiles, the other 4 only cleared.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "test_main.h"
#include "test_gles.h"

#include "framestats/stats.h"

#define W 64
#define H 32
#define TILES 8

static const char *VS = "attribute vec2 pos;\n"
			"attribute vec2 uv;\n"
			"varying vec2 v_uv;\n"
			"void main() { v_uv = uv; gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char *FS = "precision mediump float;\n"
			"uniform vec4 color;\n"
			"uniform sampler2D tex;\n"
			"varying vec2 v_uv;\n"
			"void main() { gl_FragColor = color * texture2D(tex, v_uv); }\n";

/* Two triangles covering the left half of the window, and their uv. */
static const float LEFT[] = {-1, -1, 0, -1, 0, 1, -1, -1, 0, 1, -1, 1};
static const float LEFT_UV[] = {0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1};

/* A context and a device on cfg with vs/fs current (attributes pos, uv). */
static void fix_new(struct gl_fix *f, const struct tsr_gpu_config *cfg, const char *vs,
		    const char *fs)
{
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(W, H, NULL, &f->ctx, &err), TSR_OK);
	const struct tsr_gles_device_params p = {
		.width = W, .height = H, .bits = {8, 8, 8, 8, 24, 0}, .config = cfg};
	f->dev = NULL;
	gl_fix_device(f, &p);
	static const char *const attribs[] = {"pos", "uv", NULL};
	f->prog = gl_program(f->ctx, vs, fs, attribs);
	tsr_gles_VertexAttribPointer(f->ctx, 0, 2, GL_FLOAT, GL_FALSE, 0, LEFT);
	tsr_gles_VertexAttribPointer(f->ctx, 1, 2, GL_FLOAT, GL_FALSE, 0, LEFT_UV);
	tsr_gles_EnableVertexAttribArray(f->ctx, 0);
	tsr_gles_EnableVertexAttribArray(f->ctx, 1);
}

/* RE and TE with verification (every skipped tile rendered anyway and compared). */
static void re_config(struct tsr_gpu_config *cfg)
{
	gl_fix_config(cfg, 0);
	cfg->elim.rendering = 1;
	cfg->elim.transactions = 1;
	cfg->elim.verify = 1;
}

/* One frame: cleared, the left half drawn with `color`; its counters. */
static const struct tsr_frame_stats *frame(struct gl_fix *f, const float color[4])
{
	tsr_gles_ClearColor(f->ctx, 0.0f, 0.0f, 1.0f, 1.0f);
	gl_fix_clear(f, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	tsr_gles_Uniform4f(f->ctx, tsr_gles_GetUniformLocation(f->ctx, f->prog, "color"),
			   color[0], color[1], color[2], color[3]);
	gl_fix_draw(f, GL_TRIANGLES, 0, 6);
	struct tsr_error err;
	assert_int_equal(tsr_gles_device_swap(f->dev, &err), TSR_OK);
	const struct tsr_frame_stats *st = tsr_gles_device_last_frame(f->dev);
	assert_non_null(st);
	assert_int_equal(st->elim.false_positives, 0);  /* verify: a skip never changes colors */
	return st;
}

/* A 2x2 texture of texels t (RGBA8) bound to unit 0, NEAREST. */
static GLuint texture(struct gl_fix *f, const uint8_t t[16])
{
	GLuint name = 0;
	tsr_gles_GenTextures(f->ctx, 1, &name);
	tsr_gles_BindTexture(f->ctx, GL_TEXTURE_2D, name);
	tsr_gles_TexImage2D(f->ctx, GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE,
			    t);
	tsr_gles_TexParameteri(f->ctx, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	tsr_gles_TexParameteri(f->ctx, GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	return name;
}

static const uint8_t GREY[16] = {128, 128, 128, 255, 200, 200, 200, 255,
				 64, 64, 64, 255, 255, 255, 255, 255};

/* Frames that change only a uniform are rendered; repeated frames are skipped. */
static void test_uniform_change_not_eliminated(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	re_config(&cfg);
	struct gl_fix f;
	fix_new(&f, &cfg, VS, FS);
	texture(&f, GREY);
	const float red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 1};
	const struct tsr_frame_stats *st;
	/* frames 0, 1: nothing to compare with yet */
	for (int i = 0; i < 2; i++) {
		st = frame(&f, red);
		assert_int_equal(st->elim.tiles_skipped, 0);
	}
	/* frames 2, 3: identical to the frame two back: every tile skipped */
	for (int i = 0; i < 2; i++) {
		st = frame(&f, red);
		assert_int_equal(st->elim.tiles_compared, TILES);
		assert_int_equal(st->elim.tiles_equal_inputs, TILES);
		assert_int_equal(st->elim.tiles_skipped, TILES);
		assert_int_equal(st->elim.tiles_verified, TILES);
	}
	/* frames 4, 5: only the color uniform changed: the drawn half's 4
	 * tiles are rendered (and their colors differ), the cleared ones
	 * skipped */
	for (int i = 0; i < 2; i++) {
		st = frame(&f, green);
		assert_int_equal(st->elim.tiles_skipped, TILES / 2);
		assert_int_equal(st->elim.tiles_equal_inputs, TILES / 2);
		assert_int_equal(st->elim.tiles_changed, TILES / 2);
		assert_int_equal(st->elim.false_negatives, 0);
		assert_int_equal(st->raster.pixels_written, (W / 2) * H);
	}
	/* frame 6: as frame 4 */
	st = frame(&f, green);
	assert_int_equal(st->elim.tiles_skipped, TILES);
	assert_int_equal(tsr_gles_GetError(f.ctx), GL_NO_ERROR);
	gl_fix_free(&f);
}

/* A frame that changes only the texels of the texture the program samples
 * (TexSubImage2D, same size: the image's contents version) is rendered. */
static void test_texture_contents_change_not_eliminated(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	re_config(&cfg);
	struct gl_fix f;
	fix_new(&f, &cfg, VS, FS);
	texture(&f, GREY);
	const float white[4] = {1, 1, 1, 1};
	const struct tsr_frame_stats *st;
	for (int i = 0; i < 4; i++)
		st = frame(&f, white);
	assert_int_equal(st->elim.tiles_skipped, TILES);
	const uint8_t dark[16] = {0};
	tsr_gles_TexSubImage2D(f.ctx, GL_TEXTURE_2D, 0, 0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE,
			       dark);
	for (int i = 0; i < 2; i++) {
		st = frame(&f, white);
		assert_int_equal(st->elim.tiles_skipped, TILES / 2);
		assert_int_equal(st->elim.tiles_changed, TILES / 2);
	}
	st = frame(&f, white);
	assert_int_equal(st->elim.tiles_skipped, TILES);
	gl_fix_free(&f);
}

/*
 * A multi-pass frame: a 16x16 render target drawn (the grey texture) in
 * a first pass, then sampled by the window's left half. RE and TE sign
 * the window's pass; the render target's pass is rendered in full each
 * frame, so its contents version moves on and the left half's tiles,
 * which sample it, are rendered every frame, while the right half's
 * (only cleared) are skipped; verify finds no false positive.
 */
static void test_render_to_texture_frame(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	re_config(&cfg);
	struct gl_fix f;
	fix_new(&f, &cfg, VS, FS);
	struct tsr_gles_context *c = f.ctx;
	const GLuint grey = texture(&f, GREY);
	GLuint fb = 0;
	const GLuint rt = gl_render_target(c, 16, 16, &fb);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_COMPLETE);
	static const float all[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
	tsr_gles_Uniform4f(c, tsr_gles_GetUniformLocation(c, f.prog, "color"), 1, 1, 1, 1);
	for (int i = 0; i < 5; i++) {
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fb);
		tsr_gles_Viewport(c, 0, 0, 16, 16);
		tsr_gles_ClearColor(c, 1.0f, 0.0f, 0.0f, 1.0f);
		gl_fix_clear(&f, GL_COLOR_BUFFER_BIT);
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, grey);
		tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, all);
		gl_fix_draw(&f, GL_TRIANGLES, 0, 6);
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, 0);
		tsr_gles_Viewport(c, 0, 0, W, H);
		tsr_gles_ClearColor(c, 0.0f, 0.0f, 1.0f, 1.0f);
		gl_fix_clear(&f, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, rt);
		tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, LEFT);
		gl_fix_draw(&f, GL_TRIANGLES, 0, 6);
		struct tsr_error err;
		if (tsr_gles_device_swap(f.dev, &err) != TSR_OK)
			fail_msg("%s", err.msg);
		const struct tsr_frame_stats *st = tsr_gles_device_last_frame(f.dev);
		assert_non_null(st);
		assert_int_equal(st->elim.false_positives, 0);
		assert_int_equal(st->elim.te_false_positives, 0);
		/* the render target's tiles (1) and the window's (8) */
		assert_int_equal(st->tiling.tiles, 1 + TILES);
		if (i >= 2) {
			assert_int_equal(st->elim.tiles_compared, TILES);
			assert_int_equal(st->elim.tiles_skipped, TILES / 2);
			/* rendered again to the same colors: TE removes their flushes */
			assert_int_equal(st->elim.te_flushes_removed, TILES / 2);
		}
	}
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	gl_fix_free(&f);
}

/* A program of three varying slots (vec4, vec4, vec2): 4 attributes a primitive. */
static const char *VS3 = "attribute vec2 pos;\n"
			 "attribute vec2 uv;\n"
			 "varying vec4 a;\n"
			 "varying vec4 b;\n"
			 "varying vec2 c;\n"
			 "void main() { a = vec4(uv, 0.0, 1.0); b = a.yxzw; c = uv * 2.0;\n"
			 "  gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char *FS3 = "precision mediump float;\n"
			 "varying vec4 a;\n"
			 "varying vec4 b;\n"
			 "varying vec2 c;\n"
			 "void main() { gl_FragColor = a * 0.5 + b * 0.25 + vec4(c, 0.0, 0.0); }\n";

/* The Attribute Cache (TCOR III-C) on a program draw: its primitives'
 * attributes are the program's varying slots plus the position. */
static void test_attribute_cache_program_draw(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	gl_fix_config(&cfg, 0);
	cfg.attribute_cache = 1;
	struct gl_fix f;
	fix_new(&f, &cfg, VS3, FS3);
	tsr_gles_ClearColor(f.ctx, 0.0f, 0.0f, 0.0f, 1.0f);
	gl_fix_clear(&f, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	gl_fix_draw(&f, GL_TRIANGLES, 0, 6);
	struct tsr_error err;
	assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
	const struct tsr_frame_stats *st = tsr_gles_device_last_frame(f.dev);
	assert_non_null(st);
	const uint64_t prims = st->geometry.primitives_binned;
	assert_int_equal(prims, 2);
	/* each binned primitive written once into the cache (or past it) */
	assert_int_equal(st->attribute_cache.writes, prims);
	assert_int_equal(st->tiling.pb_attributes_bytes, prims * 4 * cfg.attribute_bytes);
	/* each tile's PMDs read its primitives through the cache */
	assert_int_equal(st->attribute_cache.reads, st->tiling.pmds_read);
	assert_true(st->attribute_cache.reads > prims);  /* the triangles span 2+ tiles */
	assert_int_equal(st->attribute_cache.read_hits + st->attribute_cache.read_misses,
			 st->attribute_cache.reads);
	/* a miss reads the primitive's 4 attributes from the lower level */
	assert_int_equal(st->attribute_cache.lower_reads, 4 * st->attribute_cache.read_misses);
	gl_fix_free(&f);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uniform_change_not_eliminated),
		cmocka_unit_test(test_texture_contents_change_not_eliminated),
		cmocka_unit_test(test_render_to_texture_frame),
		cmocka_unit_test(test_attribute_cache_program_draw),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
