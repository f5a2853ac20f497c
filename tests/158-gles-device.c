/*
 * 158-gles-device.c - the GL ES device (src/gles/device.h) rendering a
 * context's draws on the modelled GPU: a program drawing from a buffer
 * object and from client-side arrays, with glDrawArrays and glDrawElements,
 * its uniforms as of each draw (two draws of one frame with different
 * colors), a texture sampled through the texture caches, the frame's first
 * glClear; pixels read back where GL puts them (rows from the bottom); the
 * same in TBR and IMR; what the device does not implement refused with
 * its name, the draw skipped. Points (gl_PointSize, clamped; gl_PointCoord;
 * clipped by their vertex) and lines (width 1 and 3, strips and loops,
 * clipped, varyings along them): every pixel of the frame against the
 * spec's coverage (GL ES 2.0 3.3: centres inside the point's square; 3.4:
 * centres inside the segment's parallelogram, its width along the minor
 * axis, the ends half-open), additive blending counting how many
 * primitives covered each pixel, TBR and IMR images identical. The stencil
 * test (GL ES 2.0 4.1.5): exact pixels of stencilled draws, wrapping and
 * saturating ops, separate front and back state, the write mask in draws
 * and clears, a program's discard (late Z), no stencil buffer; TBR and IMR
 * images alike. Clears after a draw, scissored, masked and of another
 * depth (drawn as quads); a framebuffer object's NPOT color and depth
 * textures rendered, mipmapped by glGenerateMipmap after the pass,
 * sampled; an odd-sized one's levels as llvmpipe's glGenerateMipmap
 * makes them (a LINEAR blit, not a box dropping the last row); a depth
 * texture sampled at full precision (a depth 8 bits cannot hold); a color renderbuffer drawn, read and copied into a texture.
 * Cube maps: textureCube in the fragment and the vertex program, a
 * direction toward each face and near the edges between faces, the
 * exact texel Table 3.21 selects, TBR and IMR.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "framestats/stats.h"
#include "test_main.h"
#include "test_gles.h"

#define W 64
#define H 32

static const char *VS = "attribute vec2 pos;\n"
			"attribute vec2 uv;\n"
			"varying vec2 v_uv;\n"
			"uniform vec2 shift;\n"
			"void main() { v_uv = uv; gl_Position = vec4(pos + shift, 0.0, 1.0); }\n";
static const char *FS = "precision mediump float;\n"
			"uniform vec4 color;\n"
			"uniform sampler2D tex;\n"
			"uniform float use_tex;\n"
			"varying vec2 v_uv;\n"
			"void main() { gl_FragColor = mix(color, texture2D(tex, v_uv), use_tex); }\n";

/* The fixture on a default framebuffer of stencil_bits stencil bits (its
 * EGL config's STENCIL_SIZE). */
static void fix_new_bits(struct gl_fix *f, int imr, GLint stencil_bits)
{
	static const char *const attribs[] = {"pos", "uv", NULL};
	gl_fix_new(f, W, H, imr, NULL, (struct tsr_gles_config){8, 8, 8, 8, 24, stencil_bits}, VS,
		   FS, attribs);
}

static void fix_new(struct gl_fix *f, int imr)
{
	fix_new_bits(f, imr, 0);
}

static void uniform4(struct gl_fix *f, const char *name, float r, float g, float b, float a)
{
	tsr_gles_Uniform4f(f->ctx, tsr_gles_GetUniformLocation(f->ctx, f->prog, name), r, g, b, a);
}

static void draw_arrays(struct gl_fix *f, GLint first, GLsizei n)
{
	gl_fix_draw(f, GL_TRIANGLES, first, n);
}

static void clear(struct gl_fix *f, float r, float g, float b)
{
	tsr_gles_ClearColor(f->ctx, r, g, b, 1.0f);
	gl_fix_clear(f, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
}

/* The pixel at GL window coordinates (x, y) after rendering what is pending. */
static void pixel(struct gl_fix *f, int x, int y, uint8_t out[4])
{
	struct tsr_error err;
	assert_int_equal(tsr_gles_device_read_pixels(f->dev, f->ctx, x, y, 1, 1, out, &err), TSR_OK);
}

/* Two triangles covering the left half (x < 0 in NDC) of the window. */
static const float LEFT[] = {-1, -1, 0, -1, 0, 1, -1, -1, 0, 1, -1, 1};

static void test_buffer_and_uniforms(void **state)
{
	(void)state;
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		fix_new(&f, imr);
		struct tsr_gles_context *c = f.ctx;
		GLuint buf = 0;
		tsr_gles_GenBuffers(c, 1, &buf);
		tsr_gles_BindBuffer(c, GL_ARRAY_BUFFER, buf);
		tsr_gles_BufferData(c, GL_ARRAY_BUFFER, sizeof(LEFT), LEFT, GL_STATIC_DRAW);
		tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
		tsr_gles_EnableVertexAttribArray(c, 0);
		clear(&f, 0.0f, 0.0f, 1.0f);
		/* red on the left half, then green shifted onto the right half:
		 * each draw keeps its uniforms */
		uniform4(&f, "color", 1, 0, 0, 1);
		draw_arrays(&f, 0, 6);
		uniform4(&f, "color", 0, 1, 0, 1);
		tsr_gles_Uniform2f(c, tsr_gles_GetUniformLocation(c, f.prog, "shift"), 1.0f, 0.0f);
		draw_arrays(&f, 0, 6);
		/* the buffer changed after the draws: they keep its old contents */
		const float away[12] = {0};
		tsr_gles_BufferSubData(c, GL_ARRAY_BUFFER, 0, sizeof(away), away);
		uint8_t px[4];
		pixel(&f, 5, 5, px);
		assert_int_equal(px[0], 255);
		assert_int_equal(px[1], 0);
		pixel(&f, W - 5, H - 5, px);
		assert_int_equal(px[0], 0);
		assert_int_equal(px[1], 255);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		/* a frame with only a clear */
		struct tsr_error err;
		clear(&f, 1.0f, 1.0f, 0.0f);
		assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
		pixel(&f, W / 2, H / 2, px);
		assert_int_equal(px[0], 255);
		assert_int_equal(px[1], 255);
		assert_int_equal(px[2], 0);
		assert_int_equal(tsr_gles_device_frames(f.dev), 1);
		gl_fix_free(&f);
	}
}

/* Client-side arrays and indices, a texture through unit 0; rows come
 * back bottom first. */
/*
 * A read of pending work mid-frame is a flush, not a frame: a frame
 * drawing two quads with a glReadPixels between them is one frame (the
 * swap's), whose counters hold both renders (the quads of the frame drawn
 * without the read) and whose image both quads (the window's pass after
 * the flush loads what it drew); the read sees the first quad.
 */
static void test_read_flush(void **state)
{
	(void)state;
	for (int imr = 0; imr < 2; imr++) {
		uint64_t quads[2];
		for (int read = 0; read < 2; read++) {
			struct gl_fix f;
			fix_new(&f, imr);
			struct tsr_gles_context *c = f.ctx;
			tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, LEFT);
			tsr_gles_EnableVertexAttribArray(c, 0);
			clear(&f, 0.0f, 0.0f, 1.0f);
			uniform4(&f, "color", 1, 0, 0, 1);
			draw_arrays(&f, 0, 6);
			if (read) {
				uint8_t px[4];
				pixel(&f, 5, 5, px);
				assert_int_equal(px[0], 255);
				assert_int_equal(px[2], 0);
				assert_int_equal(tsr_gles_device_simulated(f.dev), 0);
			}
			uniform4(&f, "color", 0, 1, 0, 1);
			tsr_gles_Uniform2f(c, tsr_gles_GetUniformLocation(c, f.prog, "shift"), 1.0f,
					   0.0f);
			draw_arrays(&f, 0, 6);
			struct tsr_error err;
			assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
			assert_int_equal(tsr_gles_device_simulated(f.dev), 1);
			const struct tsr_frame_stats *st = tsr_gles_device_last_frame(f.dev);
			assert_non_null(st);
			assert_int_equal(st->frame, 0);
			quads[read] = st->raster.quads_shaded;
			/* the frame holds both quads: the window's pass after the
			 * flush loaded what the flush drew */
			uint8_t px[4];
			pixel(&f, 5, 5, px);
			assert_true(px[0] == 255 && px[1] == 0 && px[2] == 0);
			pixel(&f, W - 5, H - 5, px);
			assert_true(px[0] == 0 && px[1] == 255 && px[2] == 0);
			gl_fix_free(&f);
		}
		assert_true(quads[0] > 0);
		assert_int_equal(quads[1], quads[0]);
	}
}

static void test_client_arrays_and_texture(void **state)
{
	(void)state;
	struct gl_fix f;
	fix_new(&f, 0);
	struct tsr_gles_context *c = f.ctx;
	/* a 2x2 texture: bottom row (t = 0) red, green; top row blue, white */
	const uint8_t tex[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
	GLuint t = 0;
	tsr_gles_GenTextures(c, 1, &t);
	tsr_gles_BindTexture(c, GL_TEXTURE_2D, t);
	tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, tex);
	tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	tsr_gles_Uniform1f(c, tsr_gles_GetUniformLocation(c, f.prog, "use_tex"), 1.0f);
	/* the whole window: x in [-1, 1] */
	const float all[] = {-1, -1, 1, -1, 1, 1, -1, 1};
	const float uv[] = {0, 0, 1, 0, 1, 1, 0, 1};
	const uint16_t idx[] = {0, 1, 2, 0, 2, 3};
	tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, all);
	tsr_gles_VertexAttribPointer(c, 1, 2, GL_FLOAT, GL_FALSE, 0, uv);
	tsr_gles_EnableVertexAttribArray(c, 0);
	tsr_gles_EnableVertexAttribArray(c, 1);
	struct tsr_gles_draw d;
	struct tsr_error err;
	assert_true(tsr_gles_draw_elements_state(c, GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, idx, &d));
	if (tsr_gles_device_draw(f.dev, c, &d, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	uint8_t px[4], rows[2 * W * 4];
	pixel(&f, 2, 2, px);  /* bottom left: red */
	assert_int_equal(px[0], 255);
	assert_int_equal(px[2], 0);
	pixel(&f, W - 2, H - 2, px);  /* top right: white */
	assert_int_equal(px[0] & px[1] & px[2], 255);
	/* rows y = 0 and 1, bottom first: both in the bottom (red, green) half */
	assert_int_equal(tsr_gles_device_read_pixels(f.dev, c, 0, 0, W, 2, rows, &err), TSR_OK);
	assert_int_equal(rows[0], 255);                 /* (0, 0) red */
	assert_int_equal(rows[(W - 1) * 4 + 1], 255);   /* (W-1, 0) green */
	/* a rectangle reaching past INT_MAX: nothing read, nothing overflows */
	uint8_t far[8] = {7, 7, 7, 7, 7, 7, 7, 7};
	assert_int_equal(tsr_gles_device_read_pixels(f.dev, c, 2147483647, 2147483647, 2, 1, far,
						     &err), TSR_OK);
	assert_int_equal(far[0], 7);
	assert_int_equal(far[7], 7);
	assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
	gl_fix_free(&f);
}


/* ---- points and lines ---- */

static const char *PL_VS = "attribute vec2 pos;\n"
			   "attribute float t;\n"
			   "uniform float psize;\n"
			   "varying float v_t;\n"
			   "void main() { v_t = t; gl_PointSize = psize;\n"
			   "  gl_Position = vec4(pos, 0.0, 1.0); }\n";
/* mode 0: 0.25 gray (to count coverage by additive blending); 1:
 * gl_PointCoord in red and green; 2: the varying t in red */
static const char *PL_FS = "precision mediump float;\n"
			   "uniform float mode;\n"
			   "varying float v_t;\n"
			   "void main() {\n"
			   "  if (mode < 0.5) gl_FragColor = vec4(0.25, 0.25, 0.25, 1.0);\n"
			   "  else if (mode < 1.5) gl_FragColor = vec4(gl_PointCoord, 0.0, 1.0);\n"
			   "  else gl_FragColor = vec4(v_t, 0.0, 0.0, 1.0); }\n";

/* A primitive of the frames below, in GL window pixels (y up). */
struct pl_prim {
	int line;              /* 0: a point (x0, y0) of size w; 1: segment (x0, y0)-(x1, y1) */
	double x0, y0, x1, y1, w;
};

/* How many times the spec covers pixel (x, y) with p: a point's square
 * (3.3), a segment's parallelogram of width w along its minor axis
 * (3.4.2; 3.4.1's allowed approximation at w = 1). The frames choose
 * coordinates with no pixel centre on an edge (asserted). */
static int pl_covers(const struct pl_prim *p, int x, int y)
{
	const double cx = x + 0.5, cy = y + 0.5;
	if (!p->line) {
		const double dx = fabs(cx - p->x0), dy = fabs(cy - p->y0);
		assert_true(fabs(dx - p->w / 2) > 1e-6 && fabs(dy - p->w / 2) > 1e-6);
		return dx < p->w / 2 && dy < p->w / 2;
	}
	const int xmajor = fabs(p->x1 - p->x0) >= fabs(p->y1 - p->y0);
	const double a0 = xmajor ? p->x0 : p->y0, a1 = xmajor ? p->x1 : p->y1;
	const double b0 = xmajor ? p->y0 : p->x0, b1 = xmajor ? p->y1 : p->x1;
	const double ca = xmajor ? cx : cy, cb = xmajor ? cy : cx;
	const double lo = a0 < a1 ? a0 : a1, hi = a0 < a1 ? a1 : a0;
	assert_true(fabs(ca - lo) > 1e-6 && fabs(ca - hi) > 1e-6);
	if (ca < lo || ca > hi)
		return 0;
	const double on = b0 + (ca - a0) * (b1 - b0) / (a1 - a0);
	assert_true(fabs(fabs(cb - on) - p->w / 2) > 1e-6);
	return fabs(cb - on) < p->w / 2;
}

static float ndc_x(double x) { return (float)(x / W * 2.0 - 1.0); }
static float ndc_y(double y) { return (float)(y / H * 2.0 - 1.0); }

/* A fixture with the points-and-lines program, cleared to black. */
static GLuint pl_program(struct gl_fix *f)
{
	static const char *const attribs[] = {"pos", "t", NULL};
	f->prog = gl_program(f->ctx, PL_VS, PL_FS, attribs);
	return f->prog;
}

/* Draws n vertices (x, y in window pixels, t) in `mode` from client arrays. */
static void pl_draw(struct gl_fix *f, GLenum mode, const double *xy, const float *t, int n)
{
	float pos[32];
	assert_true(n <= 16);
	for (int i = 0; i < n; i++) {
		pos[2 * i] = ndc_x(xy[2 * i]);
		pos[2 * i + 1] = ndc_y(xy[2 * i + 1]);
	}
	struct tsr_gles_context *c = f->ctx;
	tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, pos);
	tsr_gles_EnableVertexAttribArray(c, 0);
	static const float zero[16] = {0};
	tsr_gles_VertexAttribPointer(c, 1, 1, GL_FLOAT, GL_FALSE, 0, t ? t : zero);
	tsr_gles_EnableVertexAttribArray(c, 1);
	struct tsr_gles_draw d;
	struct tsr_error err;
	assert_true(tsr_gles_draw_arrays_state(c, mode, 0, n, &d));
	if (tsr_gles_device_draw(f->dev, c, &d, &err) != TSR_OK)
		fail_msg("%s", err.msg);
}

/* The pending frame read back (W x H RGBA, rows bottom first). */
static void pl_read(struct gl_fix *f, uint8_t *rgba)
{
	struct tsr_error err;
	assert_int_equal(tsr_gles_device_read_pixels(f->dev, f->ctx, 0, 0, W, H, rgba, &err), TSR_OK);
	assert_int_equal(tsr_gles_device_swap(f->dev, &err), TSR_OK);
}

/* Every pixel covered as many times as prims say (red 64 per cover). */
static void pl_check(const uint8_t *rgba, const struct pl_prim *prims, int n, const char *what)
{
	int covered = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int want = 0;
			for (int i = 0; i < n; i++)
				want += pl_covers(&prims[i], x, y);
			const int r = rgba[((size_t)y * W + x) * 4];
			const int got = (r + 32) / 64;
			if (got != want)
				fail_msg("%s: pixel (%d, %d) covered %d times (red %d), the spec: %d",
					 what, x, y, got, r, want);
			covered += want;
		}
	assert_true(covered > 0);
}

static void test_points_and_lines(void **state)
{
	(void)state;
	uint8_t img[2][7][W * H * 4];
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		fix_new(&f, imr);
		struct tsr_gles_context *c = f.ctx;
		GLfloat range[2];
		tsr_gles_GetFloatv(c, GL_ALIASED_POINT_SIZE_RANGE, range);
		assert_true(range[0] == 1.0f && range[1] == 64.0f);
		tsr_gles_GetFloatv(c, GL_ALIASED_LINE_WIDTH_RANGE, range);
		assert_true(range[0] == 1.0f && range[1] == 16.0f);
		const GLuint p = pl_program(&f);
		const GLint psize = tsr_gles_GetUniformLocation(c, p, "psize");
		const GLint mode = tsr_gles_GetUniformLocation(c, p, "mode");
		tsr_gles_Enable(c, GL_BLEND);
		tsr_gles_BlendFunc(c, GL_ONE, GL_ONE);

		/* frame 0: points of size 1 (at a pixel centre), 5 (at one) and 4
		 * (at a pixel corner); one outside the frustum (its square would
		 * reach into the window) draws nothing */
		clear(&f, 0, 0, 0);
		tsr_gles_Uniform1f(c, psize, 1.0f);
		const double p1[] = {10.5, 7.5};
		pl_draw(&f, GL_POINTS, p1, NULL, 1);
		tsr_gles_Uniform1f(c, psize, 5.0f);
		const double p5[] = {30.5, 15.5, W + 2.0, 16.0};
		pl_draw(&f, GL_POINTS, p5, NULL, 2);
		tsr_gles_Uniform1f(c, psize, 4.0f);
		const double p4[] = {50.0, 16.0};
		pl_draw(&f, GL_POINTS, p4, NULL, 1);
		pl_read(&f, img[imr][0]);
		const struct pl_prim f0[] = {{0, 10.5, 7.5, 0, 0, 1}, {0, 30.5, 15.5, 0, 0, 5},
					     {0, 50, 16, 0, 0, 4}};
		pl_check(img[imr][0], f0, 3, "points");

		/* frame 1: gl_PointSize 1000 clamped to 64 (the square reaches
		 * x = 10.25 + 32); gl_PointCoord of a size-5 point, (0, 0) at its
		 * top left */
		clear(&f, 0, 0, 0);
		tsr_gles_Uniform1f(c, psize, 1000.0f);
		const double pc[] = {10.25, 16.0};
		pl_draw(&f, GL_POINTS, pc, NULL, 1);
		pl_read(&f, img[imr][1]);
		const struct pl_prim f1[] = {{0, 10.25, 16.0, 0, 0, 64}};
		pl_check(img[imr][1], f1, 1, "clamped point");
		tsr_gles_Disable(c, GL_BLEND);
		tsr_gles_Uniform1f(c, mode, 1.0f);
		tsr_gles_Uniform1f(c, psize, 5.0f);
		clear(&f, 0, 0, 0);
		pl_draw(&f, GL_POINTS, p5, NULL, 1);
		pl_read(&f, img[imr][2]);
		const uint8_t *tl = &img[imr][2][((size_t)17 * W + 28) * 4];  /* top left */
		const uint8_t *br = &img[imr][2][((size_t)13 * W + 32) * 4];  /* bottom right */
		const uint8_t *mid = &img[imr][2][((size_t)15 * W + 30) * 4];
		/* s = 1/2 + (x + 1/2 - 30.5) / 5, t = 1/2 - (y + 1/2 - 15.5) / 5 */
		assert_in_range(tl[0], 25, 26);
		assert_in_range(tl[1], 25, 26);
		assert_in_range(br[0], 229, 230);
		assert_in_range(br[1], 229, 230);
		assert_in_range(mid[0], 127, 128);
		assert_in_range(mid[1], 127, 128);
		assert_int_equal(img[imr][2][((size_t)17 * W + 32) * 4 + 1], tl[1]);  /* top right: t */
		tsr_gles_Uniform1f(c, mode, 0.0f);
		tsr_gles_Enable(c, GL_BLEND);

		/* frame 3: lines of width 1: x-major (slope 7/16), y-major, one
		 * drawn right to left, one clipped at the window's left edge */
		clear(&f, 0, 0, 0);
		const double l1[] = {1.75, 2.09375, 17.75, 9.09375,  5.09375, 12.25, 9.09375, 30.75,
				     40.25, 3.3, 20.25, 5.3,  -10.25, 27.3, 30.25, 27.3};
		pl_draw(&f, GL_LINES, l1, NULL, 8);
		pl_read(&f, img[imr][3]);
		const struct pl_prim f3[] = {{1, 1.75, 2.09375, 17.75, 9.09375, 1},
					     {1, 5.09375, 12.25, 9.09375, 30.75, 1},
					     {1, 40.25, 3.3, 20.25, 5.3, 1},
					     {1, -10.25, 27.3, 30.25, 27.3, 1}};
		pl_check(img[imr][3], f3, 4, "lines of width 1");

		/* frame 4: width 3 (2.6 rounds to 3) */
		clear(&f, 0, 0, 0);
		tsr_gles_LineWidth(c, 2.6f);
		pl_draw(&f, GL_LINES, l1, NULL, 6);
		tsr_gles_LineWidth(c, 1.0f);
		pl_read(&f, img[imr][4]);
		struct pl_prim f4[3];
		for (int i = 0; i < 3; i++) {
			f4[i] = f3[i];
			f4[i].w = 3;
		}
		pl_check(img[imr][4], f4, 3, "lines of width 3");

		/* frame 5: a strip (its segments share ends: each covered once)
		 * and a loop (closing back to its first vertex) */
		clear(&f, 0, 0, 0);
		const double strip[] = {2.25, 3.3, 30.25, 10.3, 58.25, 3.3};
		pl_draw(&f, GL_LINE_STRIP, strip, NULL, 3);
		const double loop[] = {4.25, 14.3, 30.25, 28.3, 56.25, 20.3};
		pl_draw(&f, GL_LINE_LOOP, loop, NULL, 3);
		pl_read(&f, img[imr][5]);
		const struct pl_prim f5[] = {{1, 2.25, 3.3, 30.25, 10.3, 1},
					     {1, 30.25, 10.3, 58.25, 3.3, 1},
					     {1, 4.25, 14.3, 30.25, 28.3, 1},
					     {1, 30.25, 28.3, 56.25, 20.3, 1},
					     {1, 56.25, 20.3, 4.25, 14.3, 1}};
		pl_check(img[imr][5], f5, 5, "strip and loop");

		/* frame 6: a varying along a line: t from 0 to 1 over x = 2.25
		 * .. 62.25, at a column's centre (x + 0.5 - 2.25) / 60 */
		tsr_gles_Disable(c, GL_BLEND);
		tsr_gles_Uniform1f(c, mode, 2.0f);
		clear(&f, 0, 0, 0);
		const double ramp[] = {2.25, 20.3, 62.25, 20.3};
		const float ts[] = {0.0f, 1.0f};
		pl_draw(&f, GL_LINES, ramp, ts, 2);
		pl_read(&f, img[imr][6]);
		for (int x = 2; x < 62; x++) {
			const double want = (x + 0.5 - 2.25) / 60.0 * 255.0;
			const int r = img[imr][6][((size_t)20 * W + x) * 4];
			if (fabs(r - want) > 1.0)
				fail_msg("line varying at x = %d: red %d, want %.1f", x, r, want);
		}
		gl_fix_free(&f);
	}
	for (int i = 0; i < 7; i++)
		if (memcmp(img[0][i], img[1][i], sizeof(img[0][i])))
			fail_msg("frame %d: TBR and IMR images differ", i);
}

static const char *FS_DISCARD = "precision mediump float;\n"
				"uniform vec4 color;\n"
				"void main() { if (gl_FragCoord.x < 16.0) discard;\n"
				"  gl_FragColor = color; }\n";

/* A program of VS and fragment shader fs, made current. */
static GLuint use_program(struct gl_fix *f, const char *fs_src)
{
	static const char *const attribs[] = {"pos", NULL};
	return gl_program(f->ctx, VS, fs_src, attribs);
}

/* glClear of color (black), depth and stencil (to s). */
static void clear_all(struct gl_fix *f, GLint s)
{
	struct tsr_clear_state c;
	struct tsr_error err;
	tsr_gles_ClearColor(f->ctx, 0.0f, 0.0f, 0.0f, 1.0f);
	tsr_gles_ClearStencil(f->ctx, s);
	assert_true(tsr_gles_clear_state(f->ctx, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT |
						 GL_STENCIL_BUFFER_BIT, &c));
	assert_int_equal(tsr_gles_device_clear(f->dev, f->ctx, &c, &err), TSR_OK);
}

/* The whole window from vertex array `v` (n vertices) in `color` (the
 * fixture's program: uniform color, no texture). */
static void fill(struct gl_fix *f, const float *v, GLsizei n, float r, float g, float b)
{
	tsr_gles_VertexAttribPointer(f->ctx, 0, 2, GL_FLOAT, GL_FALSE, 0, v);
	tsr_gles_EnableVertexAttribArray(f->ctx, 0);
	tsr_gles_Uniform4f(f->ctx, tsr_gles_GetUniformLocation(f->ctx, f->prog, "color"), r, g, b,
			   1.0f);
	draw_arrays(f, 0, n);
}

static const float ALL[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
/* the right half (x > 0), clockwise: a back face with FRONT_FACE CCW */
static const float RIGHT_CW[] = {0, -1, 1, 1, 1, -1, 0, -1, 0, 1, 1, 1};

/* Every pixel of the window (rows bottom first) is `left` for x < split,
 * `right` from there (RGB). */
static void expect_split(struct gl_fix *f, int split, const uint8_t left[3], const uint8_t right[3],
			 uint8_t *img)
{
	struct tsr_error err;
	assert_int_equal(tsr_gles_device_read_pixels(f->dev, f->ctx, 0, 0, W, H, img, &err),
			 TSR_OK);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *p = &img[((size_t)y * W + (size_t)x) * 4];
			const uint8_t *want = x < split ? left : right;
			if (p[0] != want[0] || p[1] != want[1] || p[2] != want[2])
				fail_msg("pixel (%d, %d): %u %u %u, want %u %u %u", x, y, p[0], p[1],
					 p[2], want[0], want[1], want[2]);
		}
}

static const uint8_t BLACK[3] = {0, 0, 0}, RED[3] = {255, 0, 0}, GREEN[3] = {0, 255, 0},
		     BLUE[3] = {0, 0, 255};

/*
 * The stencil test through the GL ES API, every pixel checked, in TBR and
 * IMR (the same images): REPLACE 1 on the left half (no color written),
 * then a full-window quad at EQUAL 1 is red on the left only; DECR_WRAP
 * from 0 is 255, INCR saturates there, INCR_WRAP wraps to 0; front and
 * back faces take their own StencilOpSeparate; STENCIL_WRITEMASK limits
 * draws and clears; a program's discard (late Z) leaves the discarded
 * pixels' stencil alone; without a stencil buffer the test passes.
 */
static void test_stencil(void **state)
{
	(void)state;
	uint8_t *img[2][6];
	for (int imr = 0; imr < 2; imr++) {
		for (int k = 0; k < 6; k++)
			assert_non_null(img[imr][k] = malloc(W * H * 4));
		struct gl_fix f;
		fix_new_bits(&f, imr, 8);
		struct tsr_gles_context *c = f.ctx;
		struct tsr_error err;
		/* REPLACE 1 where the left half is drawn, EQUAL 1 after */
		clear_all(&f, 0);
		tsr_gles_Enable(c, GL_STENCIL_TEST);
		tsr_gles_StencilFunc(c, GL_ALWAYS, 1, 0xff);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_REPLACE);
		tsr_gles_ColorMask(c, GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
		fill(&f, LEFT, 6, 1, 1, 1);
		tsr_gles_ColorMask(c, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
		tsr_gles_StencilFunc(c, GL_EQUAL, 1, 0xff);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_KEEP);
		fill(&f, ALL, 6, 1, 0, 0);
		expect_split(&f, W / 2, RED, BLACK, img[imr][0]);
		assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
		/* wrapping and saturating: 0 - 1 = 255 (DECR_WRAP), INCR stays at
		 * 255, then INCR_WRAP gives 0 on the left half only */
		clear_all(&f, 0);
		tsr_gles_ColorMask(c, GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
		tsr_gles_StencilFunc(c, GL_ALWAYS, 0, 0xff);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_DECR_WRAP);
		fill(&f, ALL, 6, 1, 1, 1);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_INCR);
		fill(&f, ALL, 6, 1, 1, 1);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_INCR_WRAP);
		fill(&f, LEFT, 6, 1, 1, 1);
		tsr_gles_ColorMask(c, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_KEEP);
		tsr_gles_StencilFunc(c, GL_EQUAL, 255, 0xff);
		fill(&f, ALL, 6, 0, 1, 0);
		tsr_gles_StencilFunc(c, GL_EQUAL, 0, 0xff);
		fill(&f, ALL, 6, 0, 0, 1);
		expect_split(&f, W / 2, BLUE, GREEN, img[imr][1]);
		assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
		/* DECR saturates at 0: DECR then EQUAL 0 everywhere */
		clear_all(&f, 1);
		tsr_gles_ColorMask(c, GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
		tsr_gles_StencilFunc(c, GL_ALWAYS, 0, 0xff);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_DECR);
		fill(&f, ALL, 6, 1, 1, 1);
		fill(&f, LEFT, 6, 1, 1, 1);
		tsr_gles_ColorMask(c, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_KEEP);
		tsr_gles_StencilFunc(c, GL_EQUAL, 0, 0xff);
		fill(&f, ALL, 6, 1, 0, 0);
		expect_split(&f, W, RED, RED, img[imr][2]);
		assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
		/* faces: the left half front-facing (CCW) REPLACE 1, the right half
		 * back-facing (CW) REPLACE 2; EQUAL 2 draws the right half only */
		clear_all(&f, 0);
		tsr_gles_ColorMask(c, GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
		tsr_gles_StencilFuncSeparate(c, GL_FRONT, GL_ALWAYS, 1, 0xff);
		tsr_gles_StencilFuncSeparate(c, GL_BACK, GL_ALWAYS, 2, 0xff);
		tsr_gles_StencilOpSeparate(c, GL_FRONT, GL_KEEP, GL_KEEP, GL_REPLACE);
		tsr_gles_StencilOpSeparate(c, GL_BACK, GL_KEEP, GL_KEEP, GL_REPLACE);
		fill(&f, LEFT, 6, 1, 1, 1);
		fill(&f, RIGHT_CW, 6, 1, 1, 1);
		tsr_gles_ColorMask(c, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_KEEP);
		tsr_gles_StencilFunc(c, GL_EQUAL, 2, 0xff);
		fill(&f, ALL, 6, 0, 1, 0);
		expect_split(&f, W / 2, BLACK, GREEN, img[imr][3]);
		assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
		/* the write mask: a clear to 0xff under 0x0f is 0x0f; REPLACE 0xf0
		 * under 0x30 on the left half makes 0x3f there */
		tsr_gles_StencilMask(c, 0x0f);
		clear_all(&f, 0xff);
		tsr_gles_StencilMask(c, 0x30);
		tsr_gles_ColorMask(c, GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
		tsr_gles_StencilFunc(c, GL_ALWAYS, 0xf0, 0xff);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_REPLACE);
		fill(&f, LEFT, 6, 1, 1, 1);
		tsr_gles_StencilMask(c, 0xff);
		tsr_gles_ColorMask(c, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_KEEP);
		tsr_gles_StencilFunc(c, GL_EQUAL, 0x3f, 0xff);
		fill(&f, ALL, 6, 1, 0, 0);
		tsr_gles_StencilFunc(c, GL_EQUAL, 0x0f, 0xff);
		fill(&f, ALL, 6, 0, 0, 1);
		expect_split(&f, W / 2, RED, BLUE, img[imr][4]);
		assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
		/* a program that discards x < 16: the stencil is tested and written
		 * after it (late Z), so only x >= 16 gets REPLACE 1 */
		const GLuint keep_prog = f.prog;
		f.prog = use_program(&f, FS_DISCARD);
		clear_all(&f, 0);
		tsr_gles_ColorMask(c, GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
		tsr_gles_StencilFunc(c, GL_ALWAYS, 1, 0xff);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_REPLACE);
		fill(&f, ALL, 6, 1, 1, 1);
		tsr_gles_ColorMask(c, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
		f.prog = keep_prog;
		tsr_gles_UseProgram(c, f.prog);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_KEEP);
		tsr_gles_StencilFunc(c, GL_EQUAL, 1, 0xff);
		fill(&f, ALL, 6, 0, 1, 0);
		expect_split(&f, 16, BLACK, GREEN, img[imr][5]);
		assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		gl_fix_free(&f);
		/* no stencil buffer (STENCIL_SIZE 0): the test passes, nothing is
		 * written (4.1.5) */
		fix_new_bits(&f, imr, 0);
		c = f.ctx;
		uint8_t *none = malloc(W * H * 4);
		assert_non_null(none);
		clear_all(&f, 0);
		tsr_gles_Enable(c, GL_STENCIL_TEST);
		tsr_gles_StencilFunc(c, GL_NEVER, 1, 0xff);
		fill(&f, LEFT, 6, 1, 0, 0);
		expect_split(&f, W / 2, RED, BLACK, none);
		free(none);
		gl_fix_free(&f);
	}
	for (int k = 0; k < 6; k++) {
		assert_memory_equal(img[0][k], img[1][k], W * H * 4);  /* TBR and IMR alike */
		free(img[0][k]);
		free(img[1][k]);
	}
}

/* glClear as the pass's clear, then after a draw (a quad), scissored
 * (a quad over the box), color-masked, and with a depth other than 1.0
 * that the depth test then sees; TBR and IMR alike. */
static void test_clears(void **state)
{
	(void)state;
	uint8_t img[2][W * H * 4];
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		fix_new(&f, imr);
		struct tsr_gles_context *c = f.ctx;
		struct tsr_error err;
		tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, LEFT);
		tsr_gles_EnableVertexAttribArray(c, 0);
		clear(&f, 0.0f, 0.0f, 1.0f);
		uniform4(&f, "color", 1, 0, 0, 1);
		draw_arrays(&f, 0, 6);
		/* after the draw, scissored to x 4..11, y 4..11: green there only */
		tsr_gles_Enable(c, GL_SCISSOR_TEST);
		tsr_gles_Scissor(c, 4, 4, 8, 8);
		clear(&f, 0.0f, 1.0f, 0.0f);
		tsr_gles_Disable(c, GL_SCISSOR_TEST);
		/* color-masked: only red written, over the whole window */
		tsr_gles_ColorMask(c, GL_TRUE, GL_FALSE, GL_FALSE, GL_FALSE);
		tsr_gles_ClearColor(c, 0.5f, 1.0f, 1.0f, 1.0f);
		struct tsr_clear_state cs;
		assert_true(tsr_gles_clear_state(c, GL_COLOR_BUFFER_BIT, &cs));
		assert_int_equal(tsr_gles_device_clear(f.dev, c, &cs, &err), TSR_OK);
		tsr_gles_ColorMask(c, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
		uint8_t px[4];
		pixel(&f, 6, 6, px);   /* green, then red 128 */
		assert_int_equal(px[0], 128);
		assert_int_equal(px[1], 255);
		assert_int_equal(px[2], 0);
		pixel(&f, 20, 20, px); /* the draw's red, then red 128 */
		assert_int_equal(px[0], 128);
		assert_int_equal(px[1], 0);
		assert_int_equal(px[2], 0);
		pixel(&f, W - 5, 5, px); /* the first clear's blue, then red 128 */
		assert_int_equal(px[0], 128);
		assert_int_equal(px[2], 255);
		assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
		/* depth cleared to 0.25: a draw at depth 0.5 fails LESS, one at
		 * 0.1 passes */
		tsr_gles_Enable(c, GL_DEPTH_TEST);
		tsr_gles_ClearDepthf(c, 0.25f);
		clear(&f, 0.0f, 0.0f, 0.0f);
		uniform4(&f, "color", 1, 1, 1, 1);
		draw_arrays(&f, 0, 6);          /* depth 0.5: hidden */
		pixel(&f, 5, 5, px);
		assert_int_equal(px[0], 0);
		tsr_gles_DepthRangef(c, 0.0f, 0.2f);  /* depth 0.1 */
		uniform4(&f, "color", 0, 1, 1, 1);
		draw_arrays(&f, 0, 6);
		tsr_gles_DepthRangef(c, 0.0f, 1.0f);
		assert_int_equal(tsr_gles_device_read_pixels(f.dev, c, 0, 0, W, H, img[imr], &err),
				 TSR_OK);
		assert_int_equal(img[imr][(5 * W + 5) * 4 + 0], 0);
		assert_int_equal(img[imr][(5 * W + 5) * 4 + 1], 255);
		assert_int_equal(img[imr][(5 * W + W - 5) * 4 + 1], 0);  /* right: the clear */
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		gl_fix_free(&f);
	}
	assert_memory_equal(img[0], img[1], sizeof(img[0]));  /* TBR and IMR alike */
}

/* A framebuffer object of w x h texels bound, complete, with an RGBA
 * texture tex[0] and a DEPTH_COMPONENT texture tex[1] (NEAREST), the
 * viewport on it and the depth test on. */
static void fbo_color_depth(struct tsr_gles_context *c, GLsizei w, GLsizei h, GLuint tex[2],
			    GLuint *fb)
{
	tsr_gles_GenTextures(c, 2, tex);
	tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex[1]);
	tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, w, h, 0, GL_DEPTH_COMPONENT,
			    GL_UNSIGNED_INT, NULL);
	tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex[0]);
	tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	tsr_gles_GenFramebuffers(c, 1, fb);
	tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, *fb);
	tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
				      tex[0], 0);
	tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D,
				      tex[1], 0);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_COMPLETE);
	tsr_gles_Viewport(c, 0, 0, w, h);
	tsr_gles_Enable(c, GL_DEPTH_TEST);
}

/* A 6x4 (NPOT) framebuffer object texture: rendered (rows GL's, bottom
 * first), mipmapped by glGenerateMipmap after the pass (its 1x1 level the
 * average of what the pass drew), sampled with REPEAT; its depth texture
 * holds the pass's depths. TBR and IMR alike. */
static void test_framebuffer_object_npot(void **state)
{
	(void)state;
	uint8_t img[2][W * H * 4];
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		fix_new(&f, imr);
		struct tsr_gles_context *c = f.ctx;
		struct tsr_error err;
		GLuint tex[2], fb;
		fbo_color_depth(c, 6, 4, tex, &fb);
		clear(&f, 1.0f, 0.0f, 0.0f);  /* red, depth 1 */
		/* green over the bottom half (rows 0 and 1), at depth 0.5 */
		const float bottom[] = {-1, -1, 1, -1, 1, 0, -1, -1, 1, 0, -1, 0};
		tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, bottom);
		tsr_gles_EnableVertexAttribArray(c, 0);
		uniform4(&f, "color", 0, 1, 0, 1);
		draw_arrays(&f, 0, 6);
		tsr_gles_Disable(c, GL_DEPTH_TEST);
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, 0);
		tsr_gles_GenerateMipmap(c, GL_TEXTURE_2D);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		assert_int_equal(tsr_gles_device_generate_mipmap(f.dev, c, GL_TEXTURE_2D, &err),
				 TSR_OK);
		/* the window: left half the texture as is (NEAREST), right half
		 * minified 16 times a side with REPEAT (its 1x1 level) */
		tsr_gles_Viewport(c, 0, 0, W, H);
		/* 3 texels a pixel across (16 repeats of 6 texels in 32 pixels):
		 * lod log2 3 = 1.585, level 2 when rounded */
		tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
				       GL_NEAREST_MIPMAP_NEAREST);
		tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
		tsr_gles_Uniform1f(c, tsr_gles_GetUniformLocation(c, f.prog, "use_tex"), 1.0f);
		const float right[] = {0, -1, 1, -1, 1, 1, 0, -1, 1, 1, 0, 1};
		const float uv_far[] = {0, 0, 16, 0, 16, 16, 0, 0, 16, 16, 0, 16};
		tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, right);
		tsr_gles_VertexAttribPointer(c, 1, 2, GL_FLOAT, GL_FALSE, 0, uv_far);
		tsr_gles_EnableVertexAttribArray(c, 1);
		draw_arrays(&f, 0, 6);
		uint8_t px[4];
		pixel(&f, W - 8, H / 2, px);  /* level 2: level 1's rows G and R lerped by 1/2 */
		assert_int_equal(px[0], 128);
		assert_int_equal(px[1], 128);
		assert_int_equal(px[2], 0);
		/* LINEAR_MIPMAP_LINEAR with the NEAREST mag filter: minified, so
		 * the min filter's two levels; lod 0.5 * (3 + 9 / 8 - 1) = 1.5625
		 * (the piecewise-linear log2), weight 144/256 between level 1 at
		 * (u, v) = (12.25, 8.25) (its green bottom row) and level 2:
		 * red round(144 * 128 / 256) = 72, green 255 - 71 = 184 */
		tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
				       GL_LINEAR_MIPMAP_LINEAR);
		draw_arrays(&f, 0, 6);
		pixel(&f, W - 8, H / 2, px);
		assert_int_equal(px[0], 72);
		assert_int_equal(px[1], 184);
		assert_int_equal(px[2], 0);
		tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		const float uv[] = {0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1};
		tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, LEFT);
		tsr_gles_VertexAttribPointer(c, 1, 2, GL_FLOAT, GL_FALSE, 0, uv);
		draw_arrays(&f, 0, 6);
		pixel(&f, 4, 2, px);       /* the bottom: green */
		assert_int_equal(px[0], 0);
		assert_int_equal(px[1], 255);
		pixel(&f, 4, H - 3, px);   /* the top: red */
		assert_int_equal(px[0], 255);
		assert_int_equal(px[1], 0);
		/* the depth texture: 0.5 (grey 128) below, 1.0 above */
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex[1]);
		draw_arrays(&f, 0, 6);
		pixel(&f, 4, 2, px);
		assert_int_equal(px[0], 128);
		pixel(&f, 4, H - 3, px);
		assert_int_equal(px[0], 255);
		assert_int_equal(tsr_gles_device_read_pixels(f.dev, c, 0, 0, W, H, img[imr], &err),
				 TSR_OK);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		gl_fix_free(&f);
	}
	assert_memory_equal(img[0], img[1], sizeof(img[0]));  /* TBR and IMR alike */
}

/* glGenerateMipmap of a framebuffer object texture of odd sizes, 3x5,
 * black with a white top row (row 4), through the GPU's chain of a render
 * target (the pass's mipmap; glmark2's refract mipmaps an 800x600 one,
 * whose 100x75 level halves to 50x37): each level the LINEAR sample of the
 * one above at its texel centres (tsr_texture_downsample_rgba8(), as
 * Mesa's util_gen_mipmap blits through llvmpipe's sampler). Level 1 (1x2):
 * x round(0.5 * 3 * 256) - 128 = 256, column 1 alone; y of row 1
 * round(0.75 * 5 * 256) - 128 = 832, rows 3|4 by 64/256: 255 * 64 / 256 =
 * 63.75, so 64; row 0 rows 0|1: black. Level 2 (1x1): rows 0|1 of level 1
 * by 128/256: 32. (The 2x2 box that dropped the odd row and column made
 * level 1 from rows 0|1 and 2|3: black everywhere, which cost refract
 * 32.6 dB.) Sampled NEAREST_MIPMAP_NEAREST at LOD 1 (12.8 x 12.8 repeats
 * over 32x32 pixels: 2 texels of level 0 a pixel vertically, 1.2
 * across) and beyond the last level; TBR and IMR alike. */
static void test_framebuffer_object_odd_mipmap(void **state)
{
	(void)state;
	uint8_t img[2][W * H * 4];
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		fix_new(&f, imr);
		struct tsr_gles_context *c = f.ctx;
		struct tsr_error err;
		GLuint tex[2], fb;
		fbo_color_depth(c, 3, 5, tex, &fb);
		clear(&f, 0.0f, 0.0f, 0.0f);
		const float top[] = {-1, 0.6f, 1, 0.6f, 1, 1, -1, 0.6f, 1, 1, -1, 1};
		tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, top);
		tsr_gles_EnableVertexAttribArray(c, 0);
		uniform4(&f, "color", 1, 1, 1, 1);
		draw_arrays(&f, 0, 6);
		tsr_gles_Disable(c, GL_DEPTH_TEST);
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, 0);
		tsr_gles_GenerateMipmap(c, GL_TEXTURE_2D);
		assert_int_equal(tsr_gles_device_generate_mipmap(f.dev, c, GL_TEXTURE_2D, &err),
				 TSR_OK);
		tsr_gles_Viewport(c, 0, 0, W, H);
		tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
				       GL_NEAREST_MIPMAP_NEAREST);
		tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
		tsr_gles_Uniform1f(c, tsr_gles_GetUniformLocation(c, f.prog, "use_tex"), 1.0f);
		/* the right half at LOD 1: v = (y + 0.5) * 0.4 at window row y */
		const float right[] = {0, -1, 1, -1, 1, 1, 0, -1, 1, 1, 0, 1};
		const float uv_lod1[] = {0,    0,    12.8f, 0, 12.8f, 12.8f,
					 0,    0,    12.8f, 12.8f, 0, 12.8f};
		tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, right);
		tsr_gles_VertexAttribPointer(c, 1, 2, GL_FLOAT, GL_FALSE, 0, uv_lod1);
		tsr_gles_EnableVertexAttribArray(c, 1);
		draw_arrays(&f, 0, 6);
		/* the left half beyond the last level (64 repeats: LOD 3.3) */
		const float uv_far[] = {0, 0, 64, 0, 64, 64, 0, 0, 64, 64, 0, 64};
		tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, LEFT);
		tsr_gles_VertexAttribPointer(c, 1, 2, GL_FLOAT, GL_FALSE, 0, uv_far);
		draw_arrays(&f, 0, 6);
		uint8_t px[4];
		pixel(&f, W - 8, 1, px);   /* v 0.6: level 1 row 1 */
		for (int ch = 0; ch < 3; ch++)
			assert_int_equal(px[ch], 64);
		assert_int_equal(px[3], 255);
		pixel(&f, W - 8, 0, px);   /* v 0.2: level 1 row 0, black */
		assert_int_equal(px[0], 0);
		pixel(&f, W - 8, 4, px);   /* v 1.8: row 1 again (REPEAT) */
		assert_int_equal(px[0], 64);
		pixel(&f, 8, H / 2, px);   /* level 2 */
		for (int ch = 0; ch < 3; ch++)
			assert_int_equal(px[ch], 32);
		assert_int_equal(tsr_gles_device_read_pixels(f.dev, c, 0, 0, W, H, img[imr], &err),
				 TSR_OK);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		gl_fix_free(&f);
	}
	assert_memory_equal(img[0], img[1], sizeof(img[0]));  /* TBR and IMR alike */
}

/* A depth texture keeps its depths at full precision (GL_OES_depth_texture
 * with UNSIGNED_INT: 32 bits), sampled as (d, d, d, 1): a pass at depth
 * 0.5 + 1/1024 (between two 8-bit greys: 128/255 is 0.50196), sampled
 * NEAREST by a program writing (d - 0.5) * 256 (0.25: 64 of 255; the
 * 8-bit grey would give 0.502: 128) and d itself (128), alpha 1. TBR and
 * IMR alike. */
static void test_depth_texture_precision(void **state)
{
	(void)state;
	static const char *FS_D = "precision highp float;\n"
				  "uniform sampler2D tex;\n"
				  "varying vec2 v_uv;\n"
				  "void main() { vec4 t = texture2D(tex, v_uv);\n"
				  "  gl_FragColor = vec4((t.r - 0.5) * 256.0, t.g, (t.b - 0.5) * 256.0,"
				  " t.a); }\n";
	uint8_t img[2][W * H * 4];
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		fix_new(&f, imr);
		struct tsr_gles_context *c = f.ctx;
		struct tsr_error err;
		GLuint tex[2], fb;
		fbo_color_depth(c, 8, 8, tex, &fb);
		clear(&f, 0.0f, 0.0f, 0.0f);
		/* the whole target at NDC z = 1/512: window depth 0.5 + 1/1024 */
		const float zq = 1.0f / 512.0f;
		const float quad3[] = {-1, -1, zq, 1, -1, zq, 1, 1, zq,
				       -1, -1, zq, 1, 1, zq, -1, 1, zq};
		static const char *VS3 = "attribute vec3 pos;\n"
					 "attribute vec2 uv;\n"
					 "varying vec2 v_uv;\n"
					 "void main() { v_uv = uv; gl_Position = vec4(pos, 1.0); }\n";
		static const char *const attribs3[] = {"pos", "uv", NULL};
		gl_program(c, VS3, FS_D, attribs3);
		const float uv[] = {0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1};
		tsr_gles_VertexAttribPointer(c, 0, 3, GL_FLOAT, GL_FALSE, 0, quad3);
		tsr_gles_VertexAttribPointer(c, 1, 2, GL_FLOAT, GL_FALSE, 0, uv);
		tsr_gles_EnableVertexAttribArray(c, 0);
		tsr_gles_EnableVertexAttribArray(c, 1);
		draw_arrays(&f, 0, 6);  /* (the program's output into tex[0] is not looked at) */
		tsr_gles_Disable(c, GL_DEPTH_TEST);
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, 0);
		/* the window: the depth texture through the program, at z 0 */
		tsr_gles_Viewport(c, 0, 0, W, H);
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex[1]);
		const float quad0[] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, -1, 0, 1, 1, 0, -1, 1, 0};
		tsr_gles_VertexAttribPointer(c, 0, 3, GL_FLOAT, GL_FALSE, 0, quad0);
		draw_arrays(&f, 0, 6);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		uint8_t px[4];
		pixel(&f, W / 2, H / 2, px);
		assert_int_equal(px[0], 64);   /* (d - 0.5) * 256 = 0.25: not 8 bits' 128 */
		assert_int_equal(px[1], 128);  /* d itself as a color */
		assert_int_equal(px[2], 64);   /* B = R (LUMINANCE-like) */
		assert_int_equal(px[3], 255);  /* A = 1 */
		assert_int_equal(tsr_gles_device_read_pixels(f.dev, c, 0, 0, W, H, img[imr], &err),
				 TSR_OK);
		for (int i = 0; i < W * H; i++)  /* every pixel the same */
			assert_memory_equal(&img[imr][4 * i], px, 4);
		gl_fix_free(&f);
	}
	assert_memory_equal(img[0], img[1], sizeof(img[0]));  /* TBR and IMR alike */
}

/* Draws a frame of the window, a framebuffer object, the window again:
 * left half red, then the object (4x4, green, red over its left half),
 * then the object's texture on the window's right half; swaps and reads
 * the image into img. */
static void window_fbo_frame(struct gl_fix *f, uint8_t *img)
{
	struct tsr_gles_context *c = f->ctx;
	struct tsr_error err;
	tsr_gles_Uniform1f(c, tsr_gles_GetUniformLocation(c, f->prog, "use_tex"), 0.0f);
	tsr_gles_DisableVertexAttribArray(c, 1);
	clear(f, 0.0f, 0.0f, 1.0f);
	tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, LEFT);
	tsr_gles_EnableVertexAttribArray(c, 0);
	uniform4(f, "color", 1, 0, 0, 1);
	draw_arrays(f, 0, 6);
	GLuint fb = 0;
	GLuint t = gl_render_target(c, 4, 4, &fb);
	tsr_gles_Viewport(c, 0, 0, 4, 4);
	clear(f, 0.0f, 1.0f, 0.0f);
	draw_arrays(f, 0, 6);  /* red over the object's left half */
	tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, 0);
	tsr_gles_Viewport(c, 0, 0, W, H);
	static const float right[] = {0, -1, 1, -1, 1, 1, 0, -1, 1, 1, 0, 1};
	static const float uv[] = {0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1};
	tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, right);
	tsr_gles_VertexAttribPointer(c, 1, 2, GL_FLOAT, GL_FALSE, 0, uv);
	tsr_gles_EnableVertexAttribArray(c, 1);
	tsr_gles_Uniform1f(c, tsr_gles_GetUniformLocation(c, f->prog, "use_tex"), 1.0f);
	draw_arrays(f, 0, 6);
	assert_int_equal(tsr_gles_device_swap(f->dev, &err), TSR_OK);
	assert_int_equal(tsr_gles_device_read_pixels(f->dev, c, 0, 0, W, H, img, &err), TSR_OK);
	tsr_gles_DeleteFramebuffers(c, 1, &fb);
	tsr_gles_DeleteTextures(c, 1, &t);
}

/* A framebuffer object drawn after the window's pass in one frame: the
 * window's next pass continues its image (left half red, drawn first;
 * right half the object's green texture, drawn after it); TBR and IMR. */
static void test_window_then_framebuffer_object(void **state)
{
	(void)state;
	uint8_t img[2][W * H * 4];
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		fix_new(&f, imr);
		window_fbo_frame(&f, img[imr]);
		const uint8_t *l = &img[imr][(5 * W + 5) * 4];
		const uint8_t *rl = &img[imr][(5 * W + W / 2 + 3) * 4];
		const uint8_t *rr = &img[imr][(5 * W + W - 3) * 4];
		assert_int_equal(l[0], 255);   /* the window's first pass: red */
		assert_int_equal(l[2], 0);
		assert_int_equal(rl[0], 255);  /* the object's red half */
		assert_int_equal(rr[1], 255);  /* and its green clear */
		assert_int_equal(rr[0], 0);
		assert_int_equal(tsr_gles_GetError(f.ctx), GL_NO_ERROR);
		gl_fix_free(&f);
	}
	assert_memory_equal(img[0], img[1], sizeof(img[0]));
}

/* The frame `draw` makes (its image into out) four times with Rendering
 * and Transaction Elimination on (TBR): every frame renders the image of a
 * run without them, no tile skipped and no flush removed. */
static void elimination_off_for(void (*draw)(struct gl_fix *f, uint8_t *out))
{
	uint8_t want[W * H * 4], got[W * H * 4];
	struct gl_fix f;
	fix_new(&f, 0);
	draw(&f, want);
	gl_fix_free(&f);
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(W, H, NULL, &f.ctx, &err), TSR_OK);
	struct tsr_gpu_config cfg;
	gl_fix_config(&cfg, 0);
	cfg.elim.rendering = 1;
	cfg.elim.transactions = 1;
	const struct tsr_gles_device_params p = {.width = W, .height = H,
						 .bits = {8, 8, 8, 8, 24, 0}, .config = &cfg};
	f.dev = NULL;
	gl_fix_device(&f, &p);
	static const char *const attribs[] = {"pos", "uv", NULL};
	f.prog = gl_program(f.ctx, VS, FS, attribs);
	for (int frame = 0; frame < 4; frame++) {
		draw(&f, got);
		assert_memory_equal(got, want, sizeof(want));
		const struct tsr_frame_stats *st = tsr_gles_device_last_frame(f.dev);
		assert_int_equal(st->elim.tiles_skipped, 0);
		assert_int_equal(st->elim.te_flushes_removed, 0);
	}
	gl_fix_free(&f);
}

/* A frame whose window an earlier pass draws too runs with both off. */
static void test_window_twice_elimination_off(void **state)
{
	(void)state;
	elimination_off_for(window_fbo_frame);
}

/* One frame of test_read_flush's: a quad, a read (a flush), another quad
 * (the window's pass after the flush loads); its image into out. */
static void read_flush_frame(struct gl_fix *f, uint8_t *out)
{
	struct tsr_gles_context *c = f->ctx;
	tsr_gles_UseProgram(c, f->prog);
	tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, LEFT);
	tsr_gles_EnableVertexAttribArray(c, 0);
	clear(f, 0.0f, 0.0f, 1.0f);
	uniform4(f, "color", 1, 0, 0, 1);
	tsr_gles_Uniform2f(c, tsr_gles_GetUniformLocation(c, f->prog, "shift"), 0.0f, 0.0f);
	draw_arrays(f, 0, 6);
	uint8_t px[4];
	pixel(f, 5, 5, px);
	uniform4(f, "color", 0, 1, 0, 1);
	tsr_gles_Uniform2f(c, tsr_gles_GetUniformLocation(c, f->prog, "shift"), 1.0f, 0.0f);
	draw_arrays(f, 0, 6);
	struct tsr_error err;
	assert_int_equal(tsr_gles_device_swap(f->dev, &err), TSR_OK);
	assert_int_equal(tsr_gles_device_read_pixels(f->dev, f->ctx, 0, 0, W, H, out, &err),
			 TSR_OK);
}

/* A frame rendered in two parts (a mid-frame read's flush, then the rest,
 * whose window pass loads) runs with Rendering and Transaction
 * Elimination off, as they sign a whole frame's window (they refused the
 * rest's loading pass before). */
static void test_read_flush_elimination_off(void **state)
{
	(void)state;
	elimination_off_for(read_flush_frame);
}

/* CopyTex[Sub]Image2D's reader, as the driver's: the device's pixels. */
static void read_fb(void *user, GLint x, GLint y, GLsizei w, GLsizei h, uint8_t *rgba)
{
	struct gl_fix *f = user;
	struct tsr_error err;
	assert_int_equal(tsr_gles_device_read_pixels(f->dev, f->ctx, x, y, w, h, rgba, &err),
			 TSR_OK);
}

/* A color renderbuffer as a framebuffer object's color: cleared and drawn
 * (a pass), read back with glReadPixels (rows bottom first) and copied
 * into a texture with CopyTexImage2D, which the window then samples. */
static void test_color_renderbuffer(void **state)
{
	(void)state;
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		fix_new(&f, imr);
		struct tsr_gles_context *c = f.ctx;
		struct tsr_error err;
		tsr_gles_set_read_pixels(c, read_fb, &f);
		GLuint rb = 0, fb = 0;
		tsr_gles_GenRenderbuffers(c, 1, &rb);
		tsr_gles_BindRenderbuffer(c, GL_RENDERBUFFER, rb);
		tsr_gles_RenderbufferStorage(c, GL_RENDERBUFFER, GL_RGBA8_OES, 10, 6);
		tsr_gles_GenFramebuffers(c, 1, &fb);
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fb);
		tsr_gles_FramebufferRenderbuffer(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
						 GL_RENDERBUFFER, rb);
		assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_FRAMEBUFFER),
				 GL_FRAMEBUFFER_COMPLETE);
		tsr_gles_Viewport(c, 0, 0, 10, 6);
		clear(&f, 0.0f, 0.0f, 1.0f);
		/* red over its left half (columns 0..4) */
		tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, LEFT);
		tsr_gles_EnableVertexAttribArray(c, 0);
		uniform4(&f, "color", 1, 0, 0, 1);
		draw_arrays(&f, 0, 6);
		uint8_t px[10 * 6 * 4];
		memset(px, 7, sizeof(px));
		assert_int_equal(tsr_gles_device_read_pixels(f.dev, c, 0, 0, 10, 6, px, &err), TSR_OK);
		for (int y = 0; y < 6; y++)
			for (int x = 0; x < 10; x++) {
				assert_int_equal(px[(y * 10 + x) * 4 + 0], x < 5 ? 255 : 0);
				assert_int_equal(px[(y * 10 + x) * 4 + 2], x < 5 ? 0 : 255);
			}
		/* the framebuffer object's pixels into a texture, then sampled */
		GLuint t = 0;
		tsr_gles_GenTextures(c, 1, &t);
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, t);
		tsr_gles_CopyTexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, 3, 0, 4, 4, 0);
		tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
		GLsizei tw = 0, th = 0;
		const uint8_t *texels = tsr_gles_texture_image(c, t, GL_TEXTURE_2D, 0, &tw, &th, NULL);
		assert_non_null(texels);
		assert_int_equal(texels[0], 255);                /* (3, 0): red */
		assert_int_equal(texels[3 * 4 + 2], 255);        /* (6, 0): blue */
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, 0);
		tsr_gles_Viewport(c, 0, 0, W, H);
		tsr_gles_Uniform1f(c, tsr_gles_GetUniformLocation(c, f.prog, "use_tex"), 1.0f);
		const float uv[] = {0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1};
		tsr_gles_VertexAttribPointer(c, 1, 2, GL_FLOAT, GL_FALSE, 0, uv);
		tsr_gles_EnableVertexAttribArray(c, 1);
		draw_arrays(&f, 0, 6);  /* the left half of the window: the 4x4 copy */
		uint8_t p1[4];
		pixel(&f, 2, 2, p1);
		assert_int_equal(p1[0], 255);
		pixel(&f, W / 2 - 2, 2, p1);
		assert_int_equal(p1[2], 255);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		gl_fix_free(&f);
	}
}

/* ---- cube maps (GL ES 2.0 3.7.5) ---- */

static const char *CUBE_VS = "attribute vec2 pos;\n"
			     "uniform vec4 rect;\n"
			     "uniform vec3 dir;\n"
			     "uniform samplerCube vtex;\n"
			     "uniform float vertex_fetch;\n"
			     "varying vec4 v_color;\n"
			     "varying vec3 v_dir;\n"
			     "void main() {\n"
			     "  v_color = vertex_fetch > 0.5 ? textureCube(vtex, dir) : vec4(0.0);\n"
			     "  v_dir = dir;\n"
			     "  gl_Position = vec4(rect.xy + pos * rect.zw, 0.0, 1.0); }\n";
static const char *CUBE_FS = "precision highp float;\n"
			     "uniform samplerCube env;\n"
			     "uniform float vertex_fetch;\n"
			     "varying vec4 v_color;\n"
			     "varying vec3 v_dir;\n"
			     "void main() { gl_FragColor = vertex_fetch > 0.5 ? v_color\n"
			     "                                 : textureCube(env, v_dir); }\n";

/* The directions drawn and the texel each samples of 2x2 faces whose
 * texel (x, y) of face f is cube_texel(f, x, y): Table 3.21 by hand, x =
 * (sc >= 0), y = (tc >= 0). Faces +X, -X, +Y, -Y, +Z, -Z = 0..5. */
static const struct {
	float d[3];
	int face, x, y;
} CUBE_DIRS[] = {
	{{1, .2f, -.3f}, 0, 1, 0},      /* sc = -rz = .3, tc = -ry = -.2 */
	{{-1, .1f, .4f}, 1, 1, 0},      /* sc = rz = .4, tc = -ry = -.1 */
	{{-.3f, 1, .2f}, 2, 0, 1},      /* sc = rx = -.3, tc = rz = .2 */
	{{-.2f, -1, .3f}, 3, 0, 0},     /* sc = rx = -.2, tc = -rz = -.3 */
	{{.1f, -.3f, 1}, 4, 1, 1},      /* sc = rx = .1, tc = -ry = .3 */
	{{.4f, .2f, -1}, 5, 0, 0},      /* sc = -rx = -.4, tc = -ry = -.2 */
	/* near the edges between faces */
	{{1, .99f, .01f}, 0, 0, 0},     /* +X: sc = -.01, tc = -.99 */
	{{.99f, 1, .01f}, 2, 1, 1},     /* +Y: sc = .99, tc = .01 */
	{{.01f, -.98f, -1}, 5, 0, 1},   /* -Z: sc = -.01, tc = .98 */
	{{-1, -.01f, .999f}, 1, 1, 1},  /* -X: sc = .999, tc = .01 */
	{{.999f, -.01f, 1}, 4, 1, 1},   /* +Z: sc = .999, tc = .01 */
	{{.5f, -1, .995f}, 3, 1, 0},    /* -Y: sc = .5, tc = -.995 */
	{{5, 1, -1}, 0, 1, 0},          /* not of unit length: +X, sc = 1, tc = -1 */
};
#define CUBE_DIR_COUNT (int)(sizeof(CUBE_DIRS) / sizeof(CUBE_DIRS[0]))

static void cube_texel(int f, int x, int y, uint8_t out[4])
{
	out[0] = (uint8_t)(40 * f + 20);
	out[1] = (uint8_t)(x ? 200 : 40);
	out[2] = (uint8_t)(y ? 220 : 60);
	out[3] = 255;
}

/* Each direction of CUBE_DIRS drawn as a 4x4-pixel square (its own cell
 * of the window, 8 pixels apart), the fragment program's textureCube
 * (vertex_fetch 0) or the vertex program's (1); the cells' pixels
 * against the texel the direction selects, TBR and IMR alike. */
static void test_cube_map(void **state)
{
	(void)state;
	for (int imr = 0; imr < 2; imr++)
		for (int vertex_fetch = 0; vertex_fetch < 2; vertex_fetch++) {
			struct gl_fix f;
			fix_new(&f, imr);
			struct tsr_gles_context *c = f.ctx;
			static const char *const attribs[] = {"pos", NULL};
			const GLuint p = f.prog = gl_program(c, CUBE_VS, CUBE_FS, attribs);
			/* the cube map on unit 1 (unit 0's 2D texture: none) */
			GLuint t = 0;
			tsr_gles_GenTextures(c, 1, &t);
			tsr_gles_ActiveTexture(c, GL_TEXTURE1);
			tsr_gles_BindTexture(c, GL_TEXTURE_CUBE_MAP, t);
			for (int face = 0; face < 6; face++) {
				uint8_t texels[16];
				for (int k = 0; k < 4; k++)
					cube_texel(face, k & 1, k >> 1, &texels[k * 4]);
				tsr_gles_TexImage2D(c, GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)face, 0,
						    GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
			}
			tsr_gles_TexParameteri(c, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER,
					       GL_NEAREST);
			tsr_gles_TexParameteri(c, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER,
					       GL_NEAREST);
			tsr_gles_ActiveTexture(c, GL_TEXTURE0);
			tsr_gles_Uniform1i(c, tsr_gles_GetUniformLocation(c, p, "env"), 1);
			tsr_gles_Uniform1i(c, tsr_gles_GetUniformLocation(c, p, "vtex"), 1);
			tsr_gles_Uniform1f(c, tsr_gles_GetUniformLocation(c, p, "vertex_fetch"),
					   (float)vertex_fetch);
			static const float unit[] = {0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1};
			tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, unit);
			tsr_gles_EnableVertexAttribArray(c, 0);
			clear(&f, 0.0f, 0.0f, 0.0f);
			for (int i = 0; i < CUBE_DIR_COUNT; i++) {
				const int cx = (i % 8) * 8, cy = (i / 8) * 8;  /* GL window cell */
				tsr_gles_Uniform4f(c, tsr_gles_GetUniformLocation(c, p, "rect"),
						   ndc_x(cx), ndc_y(cy), 4.0f * 2 / W, 4.0f * 2 / H);
				tsr_gles_Uniform3f(c, tsr_gles_GetUniformLocation(c, p, "dir"),
						   CUBE_DIRS[i].d[0], CUBE_DIRS[i].d[1],
						   CUBE_DIRS[i].d[2]);
				draw_arrays(&f, 0, 6);
			}
			assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
			uint8_t img[W * H * 4];
			struct tsr_error err;
			assert_int_equal(tsr_gles_device_read_pixels(f.dev, c, 0, 0, W, H, img, &err),
					 TSR_OK);
			for (int i = 0; i < CUBE_DIR_COUNT; i++) {
				const int cx = (i % 8) * 8, cy = (i / 8) * 8;
				uint8_t want[4];
				cube_texel(CUBE_DIRS[i].face, CUBE_DIRS[i].x, CUBE_DIRS[i].y, want);
				for (int y = cy; y < cy + 4; y++)
					for (int x = cx; x < cx + 4; x++) {
						const uint8_t *got = &img[(y * W + x) * 4];
						if (memcmp(got, want, 4))
							fail_msg("%s %s direction %d pixel (%d, %d): "
								 "%u %u %u %u, want %u %u %u %u",
								 imr ? "IMR" : "TBR",
								 vertex_fetch ? "vertex" : "fragment", i,
								 x, y, got[0], got[1], got[2], got[3],
								 want[0], want[1], want[2], want[3]);
					}
				/* outside the square: the clear */
				assert_int_equal(img[((cy + 5) * W + cx + 5) * 4 + 0], 0);
			}
			/* the -Y face's texel (0, 0) changed in the next frame: that
			 * face's image is updated, the others kept */
			assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
			const uint8_t grey[4] = {128, 129, 130, 255};
			tsr_gles_ActiveTexture(c, GL_TEXTURE1);
			tsr_gles_TexSubImage2D(c, GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, 0, 0, 0, 1, 1, GL_RGBA,
					       GL_UNSIGNED_BYTE, grey);
			tsr_gles_ActiveTexture(c, GL_TEXTURE0);
			clear(&f, 0.0f, 0.0f, 0.0f);
			for (int i = 3; i <= 4; i++) {  /* -Y's (0, 0), +Z's (1, 1) */
				tsr_gles_Uniform4f(c, tsr_gles_GetUniformLocation(c, p, "rect"),
						   ndc_x(8 * i), ndc_y(0), 4.0f * 2 / W, 4.0f * 2 / H);
				tsr_gles_Uniform3f(c, tsr_gles_GetUniformLocation(c, p, "dir"),
						   CUBE_DIRS[i].d[0], CUBE_DIRS[i].d[1],
						   CUBE_DIRS[i].d[2]);
				draw_arrays(&f, 0, 6);
			}
			uint8_t px[4], want[4];
			pixel(&f, 8 * 3 + 1, 1, px);
			assert_memory_equal(px, grey, 4);
			pixel(&f, 8 * 4 + 1, 1, px);
			cube_texel(4, 1, 1, want);
			assert_memory_equal(px, want, 4);
			gl_fix_free(&f);
		}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buffer_and_uniforms),
		cmocka_unit_test(test_read_flush),
		cmocka_unit_test(test_client_arrays_and_texture),
		cmocka_unit_test(test_points_and_lines),
		cmocka_unit_test(test_stencil),
		cmocka_unit_test(test_clears),
		cmocka_unit_test(test_framebuffer_object_npot),
		cmocka_unit_test(test_framebuffer_object_odd_mipmap),
		cmocka_unit_test(test_depth_texture_precision),
		cmocka_unit_test(test_color_renderbuffer),
		cmocka_unit_test(test_window_then_framebuffer_object),
		cmocka_unit_test(test_window_twice_elimination_off),
		cmocka_unit_test(test_read_flush_elimination_off),
		cmocka_unit_test(test_cube_map),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
