/*
 * 171-gles-framebuffer-blit.c - GL_NV_framebuffer_blit's BlitFramebufferNV
 * on the GL ES device, TBR and IMR: a 16x16 source of known pixels (R =
 * 16 x, G = 16 y) blitted into the 32x32 window flipped and scaled
 * (NEAREST), scaled with LINEAR, under a scissor box, partly outside the
 * source (clipped), each pixel checked against values this file computes
 * on its own (integer arithmetic for NEAREST, the bilinear mix in double
 * for LINEAR); draws, a blit and draws after it in one frame, in order;
 * a depth blit between two depth textures that a later pass depth-tests
 * against; the error cases and the buffers ignored when one
 * side lacks them; the images of TBR and IMR identical, and the same again
 * in the timing mode; and stats.json counting the blit's traffic (its
 * render target reads and writes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "test_main.h"
#include "test_shader.h"
#include "test_gles.h"

#define W 32   /* the window */
#define H 32
#define S 16   /* the source framebuffer object */

static const char VS[] = "attribute vec3 pos;\nvoid main() { gl_Position = vec4(pos, 1.0); }\n";
/* R = 16 x, G = 16 y (bytes), B = 128, A = 255: every pixel of the
 * source different */
static const char FS_GRAD[] = "precision highp float;\n"
			      "void main() { vec2 p = floor(gl_FragCoord.xy) * 16.0 / 255.0;\n"
			      "  gl_FragColor = vec4(p, 128.0 / 255.0, 1.0); }\n";
static const char FS_COL[] = "precision highp float;\nuniform vec4 col;\n"
			     "void main() { gl_FragColor = col; }\n";
static const char *const ATTRIBS[] = {"pos", NULL};

/* The fixture (imr: the IMR, else the TBR; timing: the timing mode;
 * out_dir: stats.json goes there, NULL: none). */
static void fix_new_mode(struct gl_fix *f, int imr, int timing, const char *out_dir)
{
	const struct tsr_gles_config bits = {8, 8, 8, 8, 24, 0};
	gl_fix_new(f, W, H, imr, NULL, bits, VS, FS_GRAD, ATTRIBS);
	if (!out_dir && !timing)
		return;
	struct tsr_gpu_config cfg;
	gl_fix_config(&cfg, imr);
	cfg.timing.enabled = timing != 0;
	const struct tsr_gles_device_params p = {.width = W, .height = H, .bits = bits,
						 .config = &cfg, .out_dir = out_dir,
						 .frame_images = "none"};
	gl_fix_device(f, &p);
}

static void fix_new(struct gl_fix *f, int imr, const char *out_dir)
{
	fix_new_mode(f, imr, 0, out_dir);
}

/* A full-target quad at NDC depth z. */
static void quad(struct gl_fix *f, float z)
{
	const float v[18] = {-1, -1, z, 1, -1, z, 1, 1, z, -1, -1, z, 1, 1, z, -1, 1, z};
	tsr_gles_BindBuffer(f->ctx, GL_ARRAY_BUFFER, 0);
	tsr_gles_VertexAttribPointer(f->ctx, 0, 3, GL_FLOAT, GL_FALSE, 0, v);
	tsr_gles_EnableVertexAttribArray(f->ctx, 0);
	gl_fix_draw(f, GL_TRIANGLES, 0, 6);
}

/* A quad over window pixels [x0, x1) x [y0, y1) (of the W x H window). */
static void quad_px(struct gl_fix *f, int x0, int y0, int x1, int y1)
{
	const float a = 2.0f * (float)x0 / W - 1, b = 2.0f * (float)y0 / H - 1;
	const float c = 2.0f * (float)x1 / W - 1, d = 2.0f * (float)y1 / H - 1;
	const float v[18] = {a, b, 0, c, b, 0, c, d, 0, a, b, 0, c, d, 0, a, d, 0};
	tsr_gles_BindBuffer(f->ctx, GL_ARRAY_BUFFER, 0);
	tsr_gles_VertexAttribPointer(f->ctx, 0, 3, GL_FLOAT, GL_FALSE, 0, v);
	tsr_gles_EnableVertexAttribArray(f->ctx, 0);
	gl_fix_draw(f, GL_TRIANGLES, 0, 6);
}

/* A w x h RGBA texture (and, depth: a 32-bit depth texture) attached to a
 * new framebuffer object, bound at FRAMEBUFFER. */
static GLuint fbo(struct tsr_gles_context *c, GLsizei w, GLsizei h, int depth, GLuint tex[2])
{
	GLuint fb;
	tsr_gles_GenTextures(c, 2, tex);
	tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex[0]);
	tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	tsr_gles_GenFramebuffers(c, 1, &fb);
	tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fb);
	tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
				      tex[0], 0);
	if (depth) {
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex[1]);
		tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, w, h, 0,
				    GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, NULL);
		tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D,
					      tex[1], 0);
	}
	assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_COMPLETE);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	return fb;
}

/* The source: framebuffer object of S x S drawn with the gradient. */
static GLuint source(struct gl_fix *f)
{
	GLuint tex[2];
	const GLuint fb = fbo(f->ctx, S, S, 0, tex);
	tsr_gles_Viewport(f->ctx, 0, 0, S, S);
	quad(f, 0.0f);
	tsr_gles_Viewport(f->ctx, 0, 0, W, H);
	return fb;
}

/* glBlitFramebufferNV as the driver makes it: the context's checks, then
 * the device. */
static void blit(struct gl_fix *f, GLint sx0, GLint sy0, GLint sx1, GLint sy1, GLint dx0,
		 GLint dy0, GLint dx1, GLint dy1, GLbitfield mask, GLenum filter)
{
	const GLbitfield m = tsr_gles_BlitFramebufferNV(f->ctx, sx0, sy0, sx1, sy1, dx0, dy0, dx1,
							dy1, mask, filter);
	assert_int_equal(tsr_gles_GetError(f->ctx), GL_NO_ERROR);
	assert_int_equal(m, mask);
	const GLint src[4] = {sx0, sy0, sx1, sy1}, dst[4] = {dx0, dy0, dx1, dy1};
	struct tsr_error err;
	if (tsr_gles_device_blit(f->dev, f->ctx, src, dst, m, filter, &err) != TSR_OK)
		fail_msg("%s", err.msg);
}

/* The draw framebuffer's w x h pixels (GL's rows, bottom first), read
 * through the read binding. */
static void read_all(struct gl_fix *f, GLsizei w, GLsizei h, uint8_t *img)
{
	struct tsr_error err;
	GLint draw = 0;
	tsr_gles_GetIntegerv(f->ctx, GL_FRAMEBUFFER_BINDING, &draw);
	tsr_gles_BindFramebuffer(f->ctx, GL_READ_FRAMEBUFFER_NV, (GLuint)draw);
	if (tsr_gles_device_read_pixels(f->dev, f->ctx, 0, 0, w, h, img, &err) != TSR_OK)
		fail_msg("%s", err.msg);
}

/* floor(a / b) for b > 0 */
static int64_t floordiv(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* NEAREST's source texel along one axis of destination pixel d:
 * floor(s0 + (d + 1/2 - d0) (s1 - s0) / (d1 - d0)), in integers. */
static int64_t nearest(int64_t d, int64_t d0, int64_t d1, int64_t s0, int64_t s1)
{
	int64_t num = (2 * (d - d0) + 1) * (s1 - s0), den = 2 * (d1 - d0);
	if (den < 0) {
		num = -num;
		den = -den;
	}
	return s0 + floordiv(num, den);
}

/* The source's pixel (x, y) (the gradient). */
static void src_px(int64_t x, int64_t y, uint8_t px[4])
{
	px[0] = (uint8_t)(16 * x);
	px[1] = (uint8_t)(16 * y);
	px[2] = 128;
	px[3] = 255;
}

static void expect_px(const uint8_t *img, int w, int x, int y, const uint8_t e[4],
		      const char *what)
{
	const uint8_t *p = &img[((size_t)y * (size_t)w + (size_t)x) * 4];
	for (int i = 0; i < 4; i++)
		if (p[i] != e[i])
			fail_msg("%s: pixel (%d, %d) channel %d is %u, expected %u", what, x, y, i,
				 p[i], e[i]);
}

/* The window after a NEAREST blit of src (x0, y0, x1, y1) into dst (and
 * the scissor box sc, NULL: none), the other pixels the clear color bg. */
static void expect_nearest(const uint8_t *img, const GLint s[4], const GLint d[4],
			   const GLint *sc, const uint8_t bg[4], const char *what)
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint8_t e[4];
			memcpy(e, bg, 4);
			const int in_x = x >= (d[0] < d[2] ? d[0] : d[2]) &&
					 x < (d[0] < d[2] ? d[2] : d[0]);
			const int in_y = y >= (d[1] < d[3] ? d[1] : d[3]) &&
					 y < (d[1] < d[3] ? d[3] : d[1]);
			const int in_sc = !sc || (x >= sc[0] && x < sc[0] + sc[2] && y >= sc[1] &&
						  y < sc[1] + sc[3]);
			if (in_x && in_y && in_sc) {
				const int64_t u = nearest(x, d[0], d[2], s[0], s[2]);
				const int64_t v = nearest(y, d[1], d[3], s[1], s[3]);
				if (u >= 0 && u < S && v >= 0 && v < S)  /* else clipped */
					src_px(u, v, e);
			}
			expect_px(img, W, x, y, e, what);
		}
}

static const uint8_t BLUE[4] = {0, 0, 255, 255};

/* Clears the window blue (the blit's background). */
static void clear_window(struct gl_fix *f)
{
	tsr_gles_BindFramebuffer(f->ctx, GL_FRAMEBUFFER, 0);
	tsr_gles_ClearColor(f->ctx, 0.0f, 0.0f, 1.0f, 1.0f);
	gl_fix_clear(f, GL_COLOR_BUFFER_BIT);
}

/* NEAREST flipped in x and scaled 2x into the whole window. */
static void case_nearest_flip(struct gl_fix *f, uint8_t *img)
{
	const GLuint src = source(f);
	clear_window(f);
	tsr_gles_BindFramebuffer(f->ctx, GL_READ_FRAMEBUFFER_NV, src);
	const GLint s[4] = {0, 0, S, S}, d[4] = {W, 0, 0, H};
	blit(f, s[0], s[1], s[2], s[3], d[0], d[1], d[2], d[3], GL_COLOR_BUFFER_BIT, GL_NEAREST);
	read_all(f, W, H, img);
	expect_nearest(img, s, d, NULL, BLUE, "NEAREST, flipped in x, 2x");
	/* and flipped in y by the source rectangle, scaled down: the source's
	 * 16x16 into 8x8 at (4, 20) */
	const GLint s2[4] = {0, S, S, 0}, d2[4] = {4, 20, 12, 28};
	clear_window(f);
	tsr_gles_BindFramebuffer(f->ctx, GL_READ_FRAMEBUFFER_NV, src);
	blit(f, s2[0], s2[1], s2[2], s2[3], d2[0], d2[1], d2[2], d2[3], GL_COLOR_BUFFER_BIT,
	     GL_NEAREST);
	read_all(f, W, H, img + W * H * 4);
	expect_nearest(img + W * H * 4, s2, d2, NULL, BLUE, "NEAREST, flipped in y, 1/2");
}

/* LINEAR scaled 2x into the whole window: the bilinear mix of the four
 * texels around (u - 1/2, v - 1/2), clamped at the edges. */
static void case_linear(struct gl_fix *f, uint8_t *img)
{
	const GLuint src = source(f);
	clear_window(f);
	tsr_gles_BindFramebuffer(f->ctx, GL_READ_FRAMEBUFFER_NV, src);
	blit(f, 0, 0, S, S, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_LINEAR);
	read_all(f, W, H, img);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			/* u - 1/2 = (x + 1/2) / 2 - 1/2 */
			const double bu = (x + 0.5) / 2.0 - 0.5, bv = (y + 0.5) / 2.0 - 0.5;
			const double iu = bu < 0 ? -1 : (double)(int)bu, iv = bv < 0 ? -1 : (double)(int)bv;
			const double fx = bu - iu, fy = bv - iv;
			const int u0 = iu < 0 ? 0 : (int)iu, u1 = (int)iu + 1 > S - 1 ? S - 1 : (int)iu + 1;
			const int v0 = iv < 0 ? 0 : (int)iv, v1 = (int)iv + 1 > S - 1 ? S - 1 : (int)iv + 1;
			/* R depends on u alone, G on v alone */
			const double r = 16.0 * (u0 * (1 - fx) + u1 * fx);
			const double g = 16.0 * (v0 * (1 - fy) + v1 * fy);
			const uint8_t e[4] = {(uint8_t)(r + 0.5), (uint8_t)(g + 0.5), 128, 255};
			expect_px(img, W, x, y, e, "LINEAR, 2x");
		}
	/* a sample: pixel 1 is 3/4 of texel 0 and 1/4 of texel 1: R = 4 */
	assert_int_equal(img[4], 4);
	assert_int_equal(img[(W * 1 + 0) * 4 + 1], 4);
}

/* Under a scissor box, and a source rectangle half outside the source
 * (the destination pixels it maps outside are not written). */
static void case_scissor_and_clip(struct gl_fix *f, uint8_t *img)
{
	const GLuint src = source(f);
	clear_window(f);
	tsr_gles_BindFramebuffer(f->ctx, GL_READ_FRAMEBUFFER_NV, src);
	const GLint sc[4] = {4, 6, 8, 5};
	tsr_gles_Scissor(f->ctx, sc[0], sc[1], sc[2], sc[3]);
	tsr_gles_Enable(f->ctx, GL_SCISSOR_TEST);
	const GLint s[4] = {0, 0, S, S}, d[4] = {0, 0, S, S};
	blit(f, s[0], s[1], s[2], s[3], d[0], d[1], d[2], d[3], GL_COLOR_BUFFER_BIT, GL_NEAREST);
	tsr_gles_Disable(f->ctx, GL_SCISSOR_TEST);
	read_all(f, W, H, img);
	expect_nearest(img, s, d, sc, BLUE, "scissored");
	clear_window(f);
	tsr_gles_BindFramebuffer(f->ctx, GL_READ_FRAMEBUFFER_NV, src);
	const GLint s2[4] = {-8, 8, 8, 24}, d2[4] = {8, 8, 24, 24};
	blit(f, s2[0], s2[1], s2[2], s2[3], d2[0], d2[1], d2[2], d2[3], GL_COLOR_BUFFER_BIT,
	     GL_NEAREST);
	read_all(f, W, H, img + W * H * 4);
	expect_nearest(img + W * H * 4, s2, d2, NULL, BLUE, "clipped to the source");
	/* the pixel mapping to source (0, 8) written, the one to (-1, 8) not */
	uint8_t e[4];
	src_px(0, 8, e);
	expect_px(img + W * H * 4, W, 16, 8, e, "clip edge");
	expect_px(img + W * H * 4, W, 15, 8, BLUE, "clip edge");
}

/*
 * A depth blit: object A (color + depth texture) drawn at window depth
 * 0.25, its left half's depth blitted into object B (cleared to depth 1,
 * red); B then drawn green at depth 0.5 with LESS: the left half keeps
 * red (0.5 is behind the blitted 0.25), the right half turns green.
 */
static void case_depth(struct gl_fix *f, uint8_t *img)
{
	struct tsr_gles_context *c = f->ctx;
	f->prog = gl_program(c, VS, FS_COL, ATTRIBS);
	GLuint ta[2], tb[2];
	const GLuint fa = fbo(c, S, S, 1, ta), fb = fbo(c, S, S, 1, tb);
	tsr_gles_Viewport(c, 0, 0, S, S);
	tsr_gles_Enable(c, GL_DEPTH_TEST);
	tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fa);
	tsr_gles_ClearColor(c, 0, 0, 0, 1);
	gl_fix_clear(f, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	tsr_gles_Uniform4f(c, tsr_gles_GetUniformLocation(c, f->prog, "col"), 0, 0, 1, 1);
	quad(f, -0.5f);  /* NDC -0.5: window depth 0.25 */
	tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fb);
	tsr_gles_ClearColor(c, 1, 0, 0, 1);
	gl_fix_clear(f, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	tsr_gles_BindFramebuffer(c, GL_READ_FRAMEBUFFER_NV, fa);
	blit(f, 0, 0, S / 2, S, 0, 0, S / 2, S, GL_DEPTH_BUFFER_BIT, GL_NEAREST);
	tsr_gles_Uniform4f(c, tsr_gles_GetUniformLocation(c, f->prog, "col"), 0, 1, 0, 1);
	quad(f, 0.0f);  /* window depth 0.5 */
	tsr_gles_Disable(c, GL_DEPTH_TEST);
	read_all(f, S, S, img);
	static const uint8_t red[4] = {255, 0, 0, 255}, green[4] = {0, 255, 0, 255};
	for (int y = 0; y < S; y++)
		for (int x = 0; x < S; x++)
			expect_px(img, S, x, y, x < S / 2 ? red : green, "depth blit");
	tsr_gles_Viewport(c, 0, 0, W, H);
}

/*
 * The order of draws and blits in one frame: the window cleared blue and
 * its left half drawn red (a window pass), the source drawn (its own
 * pass), the source blitted 1:1 into the window at (16, 8) (after both
 * passes: it reads the source's draw, and the window pass that follows
 * keeps what it wrote), then the bottom 12 rows drawn green over it all
 * (rows 8..11 of the blit's too: the draw after it wins).
 */
static void case_order(struct gl_fix *f, uint8_t *img)
{
	struct tsr_gles_context *c = f->ctx;
	const GLuint prog_grad = f->prog;
	const GLuint prog_col = gl_program(c, VS, FS_COL, ATTRIBS);
	clear_window(f);
	tsr_gles_Uniform4f(c, tsr_gles_GetUniformLocation(c, prog_col, "col"), 1, 0, 0, 1);
	quad_px(f, 0, 0, W / 2, H);
	tsr_gles_UseProgram(c, prog_grad);
	const GLuint src = source(f);
	tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, 0);
	tsr_gles_BindFramebuffer(c, GL_READ_FRAMEBUFFER_NV, src);
	blit(f, 0, 0, S, S, 16, 8, 32, 24, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	tsr_gles_UseProgram(c, prog_col);
	tsr_gles_Uniform4f(c, tsr_gles_GetUniformLocation(c, prog_col, "col"), 0, 1, 0, 1);
	quad_px(f, 0, 0, W, 12);
	read_all(f, W, H, img);
	static const uint8_t red[4] = {255, 0, 0, 255}, green[4] = {0, 255, 0, 255};
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint8_t e[4];
			if (y < 12)
				memcpy(e, green, 4);
			else if (x < W / 2)
				memcpy(e, red, 4);
			else if (y < 24)
				src_px(x - 16, y - 8, e);
			else
				memcpy(e, BLUE, 4);
			expect_px(img, W, x, y, e, "draws and a blit in order");
		}
	tsr_gles_UseProgram(c, prog_grad);
}

/* Every case on one pipeline (and in the timing mode), the images read
 * into img (7 windows). */
static void run_cases(int imr, int timing, uint8_t *img)
{
	struct gl_fix f;
	fix_new_mode(&f, imr, timing, NULL);
	case_nearest_flip(&f, img);
	case_linear(&f, img + 2 * W * H * 4);
	case_scissor_and_clip(&f, img + 3 * W * H * 4);
	case_order(&f, img + 5 * W * H * 4);
	case_depth(&f, img + 6 * W * H * 4);
	assert_int_equal(tsr_gles_GetError(f.ctx), GL_NO_ERROR);
	gl_fix_free(&f);
}

static void test_blits_tbr_imr(void **state)
{
	(void)state;
	enum { BYTES = 7 * W * H * 4 };
	uint8_t *img[4];
	for (int k = 0; k < 4; k++) {  /* TBR, IMR, each in the timing mode too */
		img[k] = calloc(1, BYTES);
		assert_non_null(img[k]);
		run_cases(k & 1, k >> 1, img[k]);
	}
	for (int k = 1; k < 4; k++)
		assert_memory_equal(img[0], img[k], BYTES);  /* all alike */
	for (int k = 0; k < 4; k++)
		free(img[k]);
}

static void test_errors(void **state)
{
	(void)state;
	struct tsr_gles_context *c = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(W, H, NULL, &c, &err), TSR_OK);
	const char *ext = (const char *)tsr_gles_GetString(c, GL_EXTENSIONS);
	assert_non_null(strstr(ext, "GL_NV_framebuffer_blit"));
	/* the window to itself: valid, color depth and stencil (D24S8) */
	assert_int_equal(tsr_gles_BlitFramebufferNV(c, 0, 0, 4, 4, 4, 4, 8, 8,
						    GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT |
						    GL_STENCIL_BUFFER_BIT, GL_NEAREST),
			 GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	/* a mask bit of no buffer: INVALID_VALUE */
	assert_int_equal(tsr_gles_BlitFramebufferNV(c, 0, 0, 4, 4, 0, 0, 4, 4,
						    GL_COLOR_BUFFER_BIT | 0x2, GL_NEAREST), 0);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);
	/* a filter other than NEAREST and LINEAR: INVALID_ENUM */
	assert_int_equal(tsr_gles_BlitFramebufferNV(c, 0, 0, 4, 4, 0, 0, 4, 4,
						    GL_COLOR_BUFFER_BIT, GL_LINEAR_MIPMAP_LINEAR), 0);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
	/* LINEAR with depth or stencil: INVALID_OPERATION; color alone is fine */
	assert_int_equal(tsr_gles_BlitFramebufferNV(c, 0, 0, 4, 4, 0, 0, 8, 8,
						    GL_DEPTH_BUFFER_BIT, GL_LINEAR), 0);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);
	assert_int_equal(tsr_gles_BlitFramebufferNV(c, 0, 0, 4, 4, 0, 0, 8, 8,
						    GL_STENCIL_BUFFER_BIT, GL_LINEAR), 0);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);
	assert_int_equal(tsr_gles_BlitFramebufferNV(c, 0, 0, 4, 4, 0, 0, 8, 8,
						    GL_COLOR_BUFFER_BIT, GL_LINEAR),
			 GL_COLOR_BUFFER_BIT);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	/* an incomplete read or draw framebuffer: INVALID_FRAMEBUFFER_OPERATION */
	GLuint fb[2], rb[3];
	tsr_gles_GenFramebuffers(c, 2, fb);
	tsr_gles_GenRenderbuffers(c, 3, rb);
	tsr_gles_BindFramebuffer(c, GL_READ_FRAMEBUFFER_NV, fb[0]);  /* nothing attached */
	assert_int_equal(tsr_gles_BlitFramebufferNV(c, 0, 0, 4, 4, 0, 0, 4, 4,
						    GL_COLOR_BUFFER_BIT, GL_NEAREST), 0);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_FRAMEBUFFER_OPERATION);
	tsr_gles_BindFramebuffer(c, GL_READ_FRAMEBUFFER_NV, 0);
	tsr_gles_BindFramebuffer(c, GL_DRAW_FRAMEBUFFER_NV, fb[0]);
	assert_int_equal(tsr_gles_BlitFramebufferNV(c, 0, 0, 4, 4, 0, 0, 4, 4,
						    GL_COLOR_BUFFER_BIT, GL_NEAREST), 0);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_FRAMEBUFFER_OPERATION);
	/* depth formats that differ (16 and 24 bits): INVALID_OPERATION */
	const GLenum formats[3] = {GL_RGBA8_OES, GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT24_OES};
	for (int i = 0; i < 3; i++) {
		tsr_gles_BindRenderbuffer(c, GL_RENDERBUFFER, rb[i]);
		tsr_gles_RenderbufferStorage(c, GL_RENDERBUFFER, formats[i], W, H);
	}
	for (int i = 0; i < 2; i++) {
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fb[i]);
		tsr_gles_FramebufferRenderbuffer(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
						 GL_RENDERBUFFER, rb[0]);
		tsr_gles_FramebufferRenderbuffer(c, GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
						 GL_RENDERBUFFER, rb[1 + i]);
	}
	tsr_gles_BindFramebuffer(c, GL_READ_FRAMEBUFFER_NV, fb[0]);
	tsr_gles_BindFramebuffer(c, GL_DRAW_FRAMEBUFFER_NV, fb[1]);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	assert_int_equal(tsr_gles_BlitFramebufferNV(c, 0, 0, 4, 4, 0, 0, 4, 4,
						    GL_DEPTH_BUFFER_BIT, GL_NEAREST), 0);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);
	/* (color alone is fine between them) */
	assert_int_equal(tsr_gles_BlitFramebufferNV(c, 0, 0, 4, 4, 0, 0, 4, 4,
						    GL_COLOR_BUFFER_BIT, GL_NEAREST),
			 GL_COLOR_BUFFER_BIT);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	/* a buffer one side lacks is ignored: framebuffer 1's depth detached,
	 * a depth blit copies nothing (no error), color and depth copies color;
	 * stencil, which neither object has, likewise */
	tsr_gles_FramebufferRenderbuffer(c, GL_DRAW_FRAMEBUFFER_NV, GL_DEPTH_ATTACHMENT,
					 GL_RENDERBUFFER, 0);
	assert_int_equal(tsr_gles_BlitFramebufferNV(c, 0, 0, 4, 4, 0, 0, 4, 4,
						    GL_DEPTH_BUFFER_BIT, GL_NEAREST), 0);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	assert_int_equal(tsr_gles_BlitFramebufferNV(c, 0, 0, 4, 4, 0, 0, 4, 4,
						    GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT |
						    GL_STENCIL_BUFFER_BIT, GL_NEAREST),
			 GL_COLOR_BUFFER_BIT);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	/* a draw buffer of NONE: no color to write */
	const GLenum none = GL_NONE;
	tsr_gles_DrawBuffersEXT(c, 1, &none);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	assert_int_equal(tsr_gles_BlitFramebufferNV(c, 0, 0, 4, 4, 0, 0, 4, 4,
						    GL_COLOR_BUFFER_BIT, GL_NEAREST), 0);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	tsr_gles_context_destroy(c);
}

/* The device's refusals: a depth blit from the window (its depth never
 * leaves the chip), a stencil blit. */
static void test_device_unsupported(void **state)
{
	(void)state;
	struct gl_fix f;
	fix_new(&f, 0, NULL);
	struct tsr_error err;
	const GLint r[4] = {0, 0, 4, 4};
	GLuint t[2];
	fbo(f.ctx, S, S, 1, t);
	tsr_gles_BindFramebuffer(f.ctx, GL_READ_FRAMEBUFFER_NV, 0);
	assert_int_equal(tsr_gles_device_blit(f.dev, f.ctx, r, r, GL_DEPTH_BUFFER_BIT, GL_NEAREST,
					      &err), TSR_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.msg, "depth blit"));
	assert_int_equal(tsr_gles_device_blit(f.dev, f.ctx, r, r, GL_STENCIL_BUFFER_BIT,
					      GL_NEAREST, &err), TSR_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.msg, "stencil blit"));
	gl_fix_free(&f);
}

/* Stream `stream`'s traffic in stats.json's totals: its accesses at each
 * cache ("reads" / "writes" summed over total.caches) and its DRAM bytes
 * (total.dram: read_bytes / write_bytes); t[0] reads, t[1] writes, t[2]
 * DRAM bytes read, t[3] written. */
static void traffic(json_t *root, const char *stream, json_int_t t[4])
{
	json_t *total = json_object_get(root, "total");
	json_t *caches = json_object_get(total, "caches");
	assert_true(json_is_object(caches));
	memset(t, 0, 4 * sizeof(*t));
	const char *name;
	json_t *cache;
	json_object_foreach(caches, name, cache) {
		json_t *st = json_object_get(cache, stream);
		t[0] += json_integer_value(json_object_get(st, "reads"));
		t[1] += json_integer_value(json_object_get(st, "writes"));
	}
	json_t *dram = json_object_get(json_object_get(total, "dram"), stream);
	t[2] = json_integer_value(json_object_get(dram, "read_bytes"));
	t[3] = json_integer_value(json_object_get(dram, "write_bytes"));
}

/*
 * stats.json counts a blit's traffic: a frame drawing the source, then
 * (or not) a 1:1 blit of the whole source into a second 16x16 object; the
 * blit reads the source's 16 texel rows as 4 rows of 4x4 blocks (4
 * accesses of 256 bytes) and writes as many into the destination (stream
 * render_target), in TBR and IMR alike.
 */
static void test_stats_count_the_blit(void **state)
{
	(void)state;
	for (int imr = 0; imr < 2; imr++) {
		json_int_t rt[2][4];
		for (int with = 0; with < 2; with++) {
			char dir[] = "/tmp/tsr-171-XXXXXX";
			assert_non_null(mkdtemp(dir));
			struct gl_fix f;
			fix_new(&f, imr, dir);
			const GLuint src = source(&f);
			GLuint t[2];
			fbo(f.ctx, S, S, 0, t);  /* the destination, bound to draw */
			if (with) {
				tsr_gles_BindFramebuffer(f.ctx, GL_READ_FRAMEBUFFER_NV, src);
				blit(&f, 0, 0, S, S, 0, 0, S, S, GL_COLOR_BUFFER_BIT, GL_NEAREST);
			}
			struct tsr_error err;
			assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
			gl_fix_free(&f);
			char path[64];
			snprintf(path, sizeof path, "%s/stats.json", dir);
			json_error_t je;
			json_t *root = json_load_file(path, 0, &je);
			if (!root)
				fail_msg("%s: %s", path, je.text);
			traffic(root, "render_target", rt[with]);
			json_decref(root);
			unlink(path);
			snprintf(path, sizeof path, "%s/frames.csv", dir);
			unlink(path);
			assert_int_equal(rmdir(dir), 0);
		}
		/* 16x16 texels of 4 bytes: 1 KiB more read from the source and
		 * 1 KiB more written into the destination, in DRAM (the defaults
		 * route render_target straight there: no cache sees it) */
		assert_int_equal(rt[1][0], 0);
		assert_int_equal(rt[1][1], 0);
		assert_int_equal(rt[1][2] - rt[0][2], 1024);
		assert_int_equal(rt[1][3] - rt[0][3], 1024);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blits_tbr_imr),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_device_unsupported),
		cmocka_unit_test(test_stats_count_the_blit),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
