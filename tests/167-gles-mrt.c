/*
 * 167-gles-mrt: several render targets (GL_EXT_draw_buffers) rendered
 * through the GL ES device in TBR and IMR: a program writing four
 * different gl_FragData values into a framebuffer object with four color
 * textures; each attachment read back (bound alone as COLOR_ATTACHMENT0 of
 * another framebuffer object); a clear reaching every draw buffer; draw
 * buffers set to NONE leaving their targets as they were (loaded and
 * stored unchanged); gl_FragColor broadcast to every draw buffer; and the
 * render-target stores counted per attachment (four targets store four
 * times the bytes of one for the same draw).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "framestats/stats.h"
#include "test_main.h"
#include "test_gles.h"

#define W 32
#define H 16

static const char VS[] = "attribute vec3 pos;\n"
			 "void main() { gl_Position = vec4(pos, 1.0); }\n";

/* four different colors, one per draw buffer */
static const char FS4[] = "precision mediump float;\n"
			  "void main() {\n"
			  "  gl_FragData[0] = vec4(1.0, 0.0, 0.0, 1.0);\n"
			  "  gl_FragData[1] = vec4(0.0, 1.0, 0.0, 1.0);\n"
			  "  gl_FragData[2] = vec4(0.0, 0.0, 1.0, 1.0);\n"
			  "  gl_FragData[3] = vec4(1.0, 0.0, 1.0, 1.0);\n"
			  "}\n";

static const uint8_t WANT[4][4] = {
	{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 0, 255, 255}};
static const uint8_t CLEARED[4] = {64, 128, 191, 255};  /* (0.25, 0.5, 0.75, 1) */

/* A W x H context and device (TBR or IMR, 16x16 tiles) with program
 * VS/fs current; the render target route uncached ("dram"), so that a
 * frame's render-target stores are its DRAM writes on that stream. */
static void mrt_fix_new(struct gl_fix *f, int imr, const char *fs)
{
	static const char *const attribs[] = {"pos", NULL};
	const struct tsr_gles_config bits = {8, 8, 8, 8, 0, 0};
	gl_fix_new(f, W, H, imr, NULL, bits, VS, fs, attribs);
	struct tsr_gpu_config cfg;
	gl_fix_config(&cfg, imr);
	snprintf(cfg.mem.routes[TSR_STREAM_RENDER_TARGET], TSR_CACHE_NAME_MAX, "%s",
		 TSR_ROUTE_DRAM);
	const struct tsr_gles_device_params p = {.width = W, .height = H, .bits = bits,
						 .config = &cfg};
	gl_fix_device(f, &p);
}

/* A quad over x in [x0, x1] (NDC), the full height. */
static void draw_quad(struct gl_fix *f, float x0, float x1)
{
	static float v[18];
	const float q[18] = {x0, -1, 0, x1, -1, 0, x1, 1, 0, x0, -1, 0, x1, 1, 0, x0, 1, 0};
	memcpy(v, q, sizeof q);
	tsr_gles_BindBuffer(f->ctx, GL_ARRAY_BUFFER, 0);
	tsr_gles_VertexAttribPointer(f->ctx, 0, 3, GL_FLOAT, GL_FALSE, 0, v);
	tsr_gles_EnableVertexAttribArray(f->ctx, 0);
	gl_fix_draw(f, GL_TRIANGLES, 0, 6);
}

/* Texture tex's pixel (x, y), read through framebuffer object rd (tex
 * its COLOR_ATTACHMENT0); fb bound again after. */
static void tex_pixel(struct gl_fix *f, GLuint rd, GLuint fb, GLuint tex, int x, int y,
		      uint8_t out[4])
{
	struct tsr_gles_context *c = f->ctx;
	struct tsr_error err;
	tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, rd);
	tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex,
				      0);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_COMPLETE);
	if (tsr_gles_device_read_pixels(f->dev, c, x, y, 1, 1, out, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fb);
}

static void assert_px(const uint8_t got[4], const uint8_t want[4], int imr, int att)
{
	for (int i = 0; i < 4; i++)
		if (got[i] != want[i])
			fail_msg("%s attachment %d: got %u %u %u %u, want %u %u %u %u",
				 imr ? "IMR" : "TBR", att, got[0], got[1], got[2], got[3], want[0],
				 want[1], want[2], want[3]);
}

/* Render-target bytes written in the frame rendered last. */
static uint64_t rt_writes(const struct gl_fix *f)
{
	const struct tsr_frame_stats *s = tsr_gles_device_last_frame(f->dev);
	assert_non_null(s);
	return s->dram[TSR_STREAM_RENDER_TARGET].write_bytes;
}

static void rgba_textures(struct tsr_gles_context *c, GLuint *tex, int n)
{
	tsr_gles_GenTextures(c, n, tex);
	for (int i = 0; i < n; i++) {
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex[i]);
		tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_RGBA,
				    GL_UNSIGNED_BYTE, NULL);
	}
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
}

static void test_four_targets(void **state)
{
	(void)state;
	static const GLenum all[4] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT0 + 1,
				      GL_COLOR_ATTACHMENT0 + 2, GL_COLOR_ATTACHMENT0 + 3};
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		mrt_fix_new(&f, imr, FS4);
		struct tsr_gles_context *c = f.ctx;
		GLuint tex[5], fb[3];
		rgba_textures(c, tex, 5);
		tsr_gles_GenFramebuffers(c, 3, fb);
		/* fb[0]: tex[0..3] at COLOR_ATTACHMENT0..3, every draw buffer */
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fb[0]);
		for (int i = 0; i < 4; i++)
			tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, all[i], GL_TEXTURE_2D,
						      tex[i], 0);
		tsr_gles_DrawBuffersEXT(c, 4, all);
		assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_FRAMEBUFFER),
				 GL_FRAMEBUFFER_COMPLETE);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		/* the clear reaches all four; the left half drawn */
		tsr_gles_ClearColor(c, 0.25f, 0.5f, 0.75f, 1.0f);
		gl_fix_clear(&f, GL_COLOR_BUFFER_BIT);
		draw_quad(&f, -1.0f, 0.0f);
		uint8_t px[4];
		tex_pixel(&f, fb[2], fb[0], tex[0], 4, 4, px);
		const uint64_t four = rt_writes(&f);
		assert_px(px, WANT[0], imr, 0);
		for (int i = 1; i < 4; i++) {
			tex_pixel(&f, fb[2], fb[0], tex[i], 4, 4, px);
			assert_px(px, WANT[i], imr, i);
		}
		for (int i = 0; i < 4; i++) {
			tex_pixel(&f, fb[2], fb[0], tex[i], W - 4, H - 3, px);
			assert_px(px, CLEARED, imr, i);
		}
		/* draw buffers 1 and 3 NONE: the right half drawn into 0 and 2
		 * only, targets 1 and 3 keep the clear color (and 0..3 their
		 * left halves: the pass loads what it does not clear) */
		const GLenum some[4] = {GL_COLOR_ATTACHMENT0, GL_NONE, GL_COLOR_ATTACHMENT0 + 2,
					GL_NONE};
		tsr_gles_DrawBuffersEXT(c, 4, some);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		draw_quad(&f, 0.0f, 1.0f);
		for (int i = 0; i < 4; i++) {
			tex_pixel(&f, fb[2], fb[0], tex[i], W - 4, H - 3, px);
			assert_px(px, i == 1 || i == 3 ? CLEARED : WANT[i], imr, i);
			tex_pixel(&f, fb[2], fb[0], tex[i], 4, 4, px);
			assert_px(px, WANT[i], imr, i);
		}
		/* fb[1]: tex[4] alone, the same clear and draw: one target's
		 * stores, a quarter of four's */
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fb[1]);
		tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
					      GL_TEXTURE_2D, tex[4], 0);
		gl_fix_clear(&f, GL_COLOR_BUFFER_BIT);
		draw_quad(&f, -1.0f, 0.0f);
		tex_pixel(&f, fb[2], fb[1], tex[4], 4, 4, px);
		const uint64_t one = rt_writes(&f);
		assert_px(px, WANT[0], imr, 0);
		assert_true(one > 0);
		assert_int_equal(four, 4 * one);
		gl_fix_free(&f);
	}
}

/* gl_FragColor goes to every draw buffer (EXT_draw_buffers); with
 * blending (one blend state for all) each target blends its own color:
 * ONE, ONE adds the fragment to what each holds. */
static void test_broadcast_blend(void **state)
{
	(void)state;
	static const char fs[] = "precision mediump float;\n"
				 "void main() { gl_FragColor = vec4(0.25, 0.0, 0.5, 0.0); }\n";
	static const GLenum all[3] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT0 + 1,
				      GL_COLOR_ATTACHMENT0 + 2};
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		mrt_fix_new(&f, imr, fs);
		struct tsr_gles_context *c = f.ctx;
		GLuint tex[3], fb[2];
		rgba_textures(c, tex, 3);
		tsr_gles_GenFramebuffers(c, 2, fb);
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fb[0]);
		for (int i = 0; i < 3; i++)
			tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, all[i], GL_TEXTURE_2D,
						      tex[i], 0);
		tsr_gles_DrawBuffersEXT(c, 3, all);
		tsr_gles_ClearColor(c, 0.25f, 0.5f, 0.25f, 1.0f);
		gl_fix_clear(&f, GL_COLOR_BUFFER_BIT);
		tsr_gles_Enable(c, GL_BLEND);
		tsr_gles_BlendFunc(c, GL_ONE, GL_ONE);
		draw_quad(&f, -1.0f, 1.0f);
		static const uint8_t want[4] = {128, 128, 191, 255};  /* (0.5, 0.5, 0.75, 1) */
		for (int i = 0; i < 3; i++) {
			uint8_t px[4];
			tex_pixel(&f, fb[1], fb[0], tex[i], 7, 9, px);
			assert_px(px, want, imr, i);
		}
		gl_fix_free(&f);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_four_targets),
		cmocka_unit_test(test_broadcast_blend),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
