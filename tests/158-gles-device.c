/*
 * 158-gles-device.c - the GL ES device (src/gles/device.h) rendering a
 * context's draws on the modelled GPU: a program drawing from a buffer
 * object and from client-side arrays, with glDrawArrays and glDrawElements,
 * its uniforms as of each draw (two draws of one frame with different
 * colors), a texture sampled through the texture caches, the frame's first
 * glClear; clears after a draw, scissored, masked and of another depth
 * (drawn as quads); a framebuffer object's NPOT color and depth textures
 * rendered, mipmapped by glGenerateMipmap after the pass, sampled; a color
 * renderbuffer drawn, read and copied into a texture; pixels
 * read back where GL puts them (rows from the bottom); the same in TBR and
 * IMR; what the device does not implement refused with its name, the draw
 * skipped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_main.h"
#include "gles/device.h"

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

struct fix {
	struct tsr_gles_context *ctx;
	struct tsr_gles_device *dev;
	GLuint prog;
};

static void fix_new(struct fix *f, int imr)
{
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(W, H, NULL, &f->ctx, &err), TSR_OK);
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	cfg.tile_width = 16;
	cfg.tile_height = 16;
	cfg.pipeline_mode = imr ? TSR_PIPELINE_IMR : TSR_PIPELINE_TBR;
	const struct tsr_gles_device_params p = {.width = W, .height = H,
						 .bits = {8, 8, 8, 8, 24, 0}, .config = &cfg};
	if (tsr_gles_device_create(&p, &f->dev, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	struct tsr_gles_context *c = f->ctx;
	GLuint vs = tsr_gles_CreateShader(c, GL_VERTEX_SHADER);
	GLuint fs = tsr_gles_CreateShader(c, GL_FRAGMENT_SHADER);
	tsr_gles_ShaderSource(c, vs, 1, &VS, NULL);
	tsr_gles_ShaderSource(c, fs, 1, &FS, NULL);
	tsr_gles_CompileShader(c, vs);
	tsr_gles_CompileShader(c, fs);
	f->prog = tsr_gles_CreateProgram(c);
	tsr_gles_AttachShader(c, f->prog, vs);
	tsr_gles_AttachShader(c, f->prog, fs);
	tsr_gles_BindAttribLocation(c, f->prog, 0, "pos");
	tsr_gles_BindAttribLocation(c, f->prog, 1, "uv");
	tsr_gles_LinkProgram(c, f->prog);
	tsr_gles_UseProgram(c, f->prog);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
}

static void fix_free(struct fix *f)
{
	assert_int_equal(tsr_gles_device_destroy(f->dev, NULL), TSR_OK);
	tsr_gles_context_destroy(f->ctx);
}

static void uniform4(struct fix *f, const char *name, float r, float g, float b, float a)
{
	tsr_gles_Uniform4f(f->ctx, tsr_gles_GetUniformLocation(f->ctx, f->prog, name), r, g, b, a);
}

static void draw_arrays(struct fix *f, GLint first, GLsizei n)
{
	struct tsr_gles_draw d;
	struct tsr_error err;
	assert_true(tsr_gles_draw_arrays_state(f->ctx, GL_TRIANGLES, first, n, &d));
	if (tsr_gles_device_draw(f->dev, f->ctx, &d, &err) != TSR_OK)
		fail_msg("%s", err.msg);
}

static void clear(struct fix *f, float r, float g, float b)
{
	struct tsr_clear_state c;
	struct tsr_error err;
	tsr_gles_ClearColor(f->ctx, r, g, b, 1.0f);
	assert_true(tsr_gles_clear_state(f->ctx, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT, &c));
	assert_int_equal(tsr_gles_device_clear(f->dev, f->ctx, &c, &err), TSR_OK);
}

/* The pixel at GL window coordinates (x, y) after rendering what is pending. */
static void pixel(struct fix *f, int x, int y, uint8_t out[4])
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
		struct fix f;
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
		fix_free(&f);
	}
}

/* Client-side arrays and indices, a texture through unit 0; rows come
 * back bottom first. */
static void test_client_arrays_and_texture(void **state)
{
	(void)state;
	struct fix f;
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
	/* refused, the draw skipped: another mode */
	assert_true(tsr_gles_draw_arrays_state(c, GL_POINTS, 0, 3, &d));
	assert_int_equal(tsr_gles_device_draw(f.dev, c, &d, &err), TSR_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.msg, "primitive mode"));
	assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
	fix_free(&f);
}

/* glClear as the pass's clear, then after a draw (a quad), scissored
 * (a quad over the box), color-masked, and with a depth other than 1.0
 * that the depth test then sees; TBR and IMR alike. */
static void test_clears(void **state)
{
	(void)state;
	uint8_t img[2][W * H * 4];
	for (int imr = 0; imr < 2; imr++) {
		struct fix f;
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
		fix_free(&f);
	}
	assert_memory_equal(img[0], img[1], sizeof(img[0]));  /* TBR and IMR alike */
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
		struct fix f;
		fix_new(&f, imr);
		struct tsr_gles_context *c = f.ctx;
		struct tsr_error err;
		GLuint tex[2] = {0, 0}, fb = 0;
		tsr_gles_GenTextures(c, 2, tex);
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex[1]);
		tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, 6, 4, 0,
				    GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, NULL);
		tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex[0]);
		tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, 6, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
				    NULL);
		tsr_gles_GenFramebuffers(c, 1, &fb);
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fb);
		tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
					      tex[0], 0);
		tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D,
					      tex[1], 0);
		assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_FRAMEBUFFER),
				 GL_FRAMEBUFFER_COMPLETE);
		tsr_gles_Viewport(c, 0, 0, 6, 4);
		tsr_gles_Enable(c, GL_DEPTH_TEST);
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
		tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
				       GL_LINEAR_MIPMAP_LINEAR);
		tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
		tsr_gles_Uniform1f(c, tsr_gles_GetUniformLocation(c, f.prog, "use_tex"), 1.0f);
		const float right[] = {0, -1, 1, -1, 1, 1, 0, -1, 1, 1, 0, 1};
		const float uv_far[] = {0, 0, 16, 0, 16, 16, 0, 0, 16, 16, 0, 16};
		tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, right);
		tsr_gles_VertexAttribPointer(c, 1, 2, GL_FLOAT, GL_FALSE, 0, uv_far);
		tsr_gles_EnableVertexAttribArray(c, 1);
		draw_arrays(&f, 0, 6);
		uint8_t px[4];
		pixel(&f, W - 8, H / 2, px);  /* level 2: (G G R R) of level 1 */
		assert_int_equal(px[0], 128);
		assert_int_equal(px[1], 128);
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
		fix_free(&f);
	}
	assert_memory_equal(img[0], img[1], sizeof(img[0]));  /* TBR and IMR alike */
}

/* A framebuffer object drawn after the window's pass in one frame: the
 * window's next pass continues its image (left half red, drawn first;
 * right half the object's green texture, drawn after it); TBR and IMR. */
static void test_window_then_framebuffer_object(void **state)
{
	(void)state;
	uint8_t img[2][W * H * 4];
	for (int imr = 0; imr < 2; imr++) {
		struct fix f;
		fix_new(&f, imr);
		struct tsr_gles_context *c = f.ctx;
		struct tsr_error err;
		clear(&f, 0.0f, 0.0f, 1.0f);
		tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, LEFT);
		tsr_gles_EnableVertexAttribArray(c, 0);
		uniform4(&f, "color", 1, 0, 0, 1);
		draw_arrays(&f, 0, 6);
		GLuint t = 0, fb = 0;
		tsr_gles_GenTextures(c, 1, &t);
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, t);
		tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
				    NULL);
		tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
		tsr_gles_GenFramebuffers(c, 1, &fb);
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fb);
		tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
					      t, 0);
		tsr_gles_Viewport(c, 0, 0, 4, 4);
		clear(&f, 0.0f, 1.0f, 0.0f);
		draw_arrays(&f, 0, 6);  /* red over the object's left half */
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, 0);
		tsr_gles_Viewport(c, 0, 0, W, H);
		const float right[] = {0, -1, 1, -1, 1, 1, 0, -1, 1, 1, 0, 1};
		const float uv[] = {0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1};
		tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, right);
		tsr_gles_VertexAttribPointer(c, 1, 2, GL_FLOAT, GL_FALSE, 0, uv);
		tsr_gles_EnableVertexAttribArray(c, 1);
		tsr_gles_Uniform1f(c, tsr_gles_GetUniformLocation(c, f.prog, "use_tex"), 1.0f);
		draw_arrays(&f, 0, 6);
		assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
		assert_int_equal(tsr_gles_device_read_pixels(f.dev, c, 0, 0, W, H, img[imr], &err),
				 TSR_OK);
		const uint8_t *l = &img[imr][(5 * W + 5) * 4];
		const uint8_t *rl = &img[imr][(5 * W + W / 2 + 3) * 4];
		const uint8_t *rr = &img[imr][(5 * W + W - 3) * 4];
		assert_int_equal(l[0], 255);   /* the window's first pass: red */
		assert_int_equal(l[2], 0);
		assert_int_equal(rl[0], 255);  /* the object's red half */
		assert_int_equal(rr[1], 255);  /* and its green clear */
		assert_int_equal(rr[0], 0);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		fix_free(&f);
	}
	assert_memory_equal(img[0], img[1], sizeof(img[0]));
}

/* CopyTex[Sub]Image2D's reader, as the driver's: the device's pixels. */
static void read_fb(void *user, GLint x, GLint y, GLsizei w, GLsizei h, uint8_t *rgba)
{
	struct fix *f = user;
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
		struct fix f;
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
		fix_free(&f);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buffer_and_uniforms),
		cmocka_unit_test(test_client_arrays_and_texture),
		cmocka_unit_test(test_clears),
		cmocka_unit_test(test_framebuffer_object_npot),
		cmocka_unit_test(test_color_renderbuffer),
		cmocka_unit_test(test_window_then_framebuffer_object),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
