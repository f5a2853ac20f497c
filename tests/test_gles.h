/*
 * test_gles.h - helpers of the GL ES device tests (158, 160, 165): a
 * context and a device (TBR or IMR, 16x16 tiles) with a program current,
 * draws and clears of the context's state through the device.
 */
#ifndef TSR_TESTS_TEST_GLES_H
#define TSR_TESTS_TEST_GLES_H

#include "gles/device.h"

struct gl_fix {
	struct tsr_gles_context *ctx;
	struct tsr_gles_device *dev;
	GLuint prog;
};

/*
 * The program of vs and fs, attribute attribs[i] (NULL-terminated; NULL:
 * none) at location i, linked and made current in c. Fails the test (with
 * the info log) unless both compile and it links.
 */
static inline GLuint gl_program(struct tsr_gles_context *c, const char *vs, const char *fs,
				const char *const *attribs)
{
	const char *src[2] = {vs, fs};
	GLuint sh[2];
	for (int k = 0; k < 2; k++) {
		sh[k] = tsr_gles_CreateShader(c, k ? GL_FRAGMENT_SHADER : GL_VERTEX_SHADER);
		tsr_gles_ShaderSource(c, sh[k], 1, &src[k], NULL);
		tsr_gles_CompileShader(c, sh[k]);
		GLint ok = 0;
		tsr_gles_GetShaderiv(c, sh[k], GL_COMPILE_STATUS, &ok);
		if (!ok) {
			char log[1024];
			tsr_gles_GetShaderInfoLog(c, sh[k], sizeof log, NULL, log);
			fail_msg("%s", log);
		}
	}
	const GLuint p = tsr_gles_CreateProgram(c);
	tsr_gles_AttachShader(c, p, sh[0]);
	tsr_gles_AttachShader(c, p, sh[1]);
	for (GLuint i = 0; attribs && attribs[i]; i++)
		tsr_gles_BindAttribLocation(c, p, i, attribs[i]);
	tsr_gles_LinkProgram(c, p);
	GLint linked = 0;
	tsr_gles_GetProgramiv(c, p, GL_LINK_STATUS, &linked);
	if (!linked) {
		char log[1024];
		tsr_gles_GetProgramInfoLog(c, p, sizeof log, NULL, log);
		fail_msg("%s", log);
	}
	tsr_gles_UseProgram(c, p);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	return p;
}

/*
 * A w x h context (ctx_bits: its config's bits, NULL: the defaults) and
 * device (dev_bits; imr: the IMR pipeline, else TBR), and the program of
 * vs and fs current (gl_program()).
 */
/* The tests' GPU: the defaults with 16x16 tiles, the IMR pipeline (imr) or TBR. */
static inline void gl_fix_config(struct tsr_gpu_config *cfg, int imr)
{
	tsr_config_defaults(cfg);
	cfg->tile_width = 16;
	cfg->tile_height = 16;
	cfg->pipeline_mode = imr ? TSR_PIPELINE_IMR : TSR_PIPELINE_TBR;
}

/* f's device (if any) replaced by one made with p; fails the test with
 * the device's message if it cannot be made. */
static inline void gl_fix_device(struct gl_fix *f, const struct tsr_gles_device_params *p)
{
	if (f->dev)
		assert_int_equal(tsr_gles_device_destroy(f->dev, NULL), TSR_OK);
	struct tsr_error err;
	if (tsr_gles_device_create(p, &f->dev, &err) != TSR_OK)
		fail_msg("%s", err.msg);
}

static inline void gl_fix_new(struct gl_fix *f, uint32_t w, uint32_t h, int imr,
			      const struct tsr_gles_config *ctx_bits,
			      struct tsr_gles_config dev_bits, const char *vs, const char *fs,
			      const char *const *attribs)
{
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(w, h, ctx_bits, &f->ctx, &err), TSR_OK);
	struct tsr_gpu_config cfg;
	gl_fix_config(&cfg, imr);
	const struct tsr_gles_device_params p = {.width = w, .height = h, .bits = dev_bits,
						 .config = &cfg};
	f->dev = NULL;
	gl_fix_device(f, &p);
	f->prog = gl_program(f->ctx, vs, fs, attribs);
}

static inline void gl_fix_free(struct gl_fix *f)
{
	assert_int_equal(tsr_gles_device_destroy(f->dev, NULL), TSR_OK);
	tsr_gles_context_destroy(f->ctx);
}

/* DrawArrays(mode, first, n) of the context's state on the device. */
static inline void gl_fix_draw(struct gl_fix *f, GLenum mode, GLint first, GLsizei n)
{
	struct tsr_gles_draw d;
	struct tsr_error err;
	assert_true(tsr_gles_draw_arrays_state(f->ctx, mode, first, n, &d));
	if (tsr_gles_device_draw(f->dev, f->ctx, &d, &err) != TSR_OK)
		fail_msg("%s", err.msg);
}

/* A w x h GL_RGBA texture without data (NEAREST filters), left bound to
 * GL_TEXTURE_2D, as the color attachment of a new framebuffer object,
 * left bound to GL_FRAMEBUFFER: a render target. Returns the texture,
 * the framebuffer object in *fb. */
static inline GLuint gl_render_target(struct tsr_gles_context *c, GLsizei w, GLsizei h,
				      GLuint *fb)
{
	GLuint t = 0;
	tsr_gles_GenTextures(c, 1, &t);
	tsr_gles_BindTexture(c, GL_TEXTURE_2D, t);
	tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	tsr_gles_TexParameteri(c, GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	tsr_gles_GenFramebuffers(c, 1, fb);
	tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, *fb);
	tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
	return t;
}

/* Clear(mask) with the context's clear values on the device. */
static inline void gl_fix_clear(struct gl_fix *f, GLbitfield mask)
{
	struct tsr_clear_state c;
	struct tsr_error err;
	assert_true(tsr_gles_clear_state(f->ctx, mask, &c));
	assert_int_equal(tsr_gles_device_clear(f->dev, f->ctx, &c, &err), TSR_OK);
}

#endif
