/*
 * 170-gles-read-draw-framebuffers.c - GL_NV_framebuffer_blit's two
 * framebuffer bindings (the blit itself: test 171): BindFramebuffer's
 * READ_FRAMEBUFFER_NV and DRAW_FRAMEBUFFER_NV targets and FRAMEBUFFER
 * binding both, their queries, the attachment calls and
 * CheckFramebufferStatus at each target, deletion unbinding both; on the GL
 * ES device (TBR and IMR) draws and clears go to the draw framebuffer while
 * ReadPixels reads the read one, and the read framebuffer's completeness is
 * what ReadPixels and CopyTexImage2D check.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_main.h"
#include "test_shader.h"
#include "test_gles.h"

#define W 16
#define H 16

static GLint geti(struct tsr_gles_context *c, GLenum pname)
{
	GLint v = -1;
	tsr_gles_GetIntegerv(c, pname, &v);
	return v;
}

static void test_bindings(void **state)
{
	(void)state;
	struct tsr_gles_context *c = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(W, H, NULL, &c, &err), TSR_OK);
	GLuint fb[2];
	tsr_gles_GenFramebuffers(c, 2, fb);
	tsr_gles_BindFramebuffer(c, GL_READ_FRAMEBUFFER_NV, fb[0]);
	tsr_gles_BindFramebuffer(c, GL_DRAW_FRAMEBUFFER_NV, fb[1]);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	assert_int_equal(geti(c, GL_READ_FRAMEBUFFER_BINDING_NV), (GLint)fb[0]);
	assert_int_equal(geti(c, GL_DRAW_FRAMEBUFFER_BINDING_NV), (GLint)fb[1]);
	assert_int_equal(geti(c, GL_FRAMEBUFFER_BINDING), (GLint)fb[1]);  /* the same state */
	/* FRAMEBUFFER binds both */
	tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fb[0]);
	assert_int_equal(geti(c, GL_READ_FRAMEBUFFER_BINDING_NV), (GLint)fb[0]);
	assert_int_equal(geti(c, GL_DRAW_FRAMEBUFFER_BINDING_NV), (GLint)fb[0]);
	/* another target: INVALID_ENUM, nothing bound */
	tsr_gles_BindFramebuffer(c, GL_RENDERBUFFER, fb[1]);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
	assert_int_equal(geti(c, GL_FRAMEBUFFER_BINDING), (GLint)fb[0]);
	/* attachments at the read target go to the read framebuffer */
	tsr_gles_BindFramebuffer(c, GL_DRAW_FRAMEBUFFER_NV, fb[1]);
	GLuint rb;
	tsr_gles_GenRenderbuffers(c, 1, &rb);
	tsr_gles_BindRenderbuffer(c, GL_RENDERBUFFER, rb);
	tsr_gles_RenderbufferStorage(c, GL_RENDERBUFFER, GL_RGBA8_OES, W, H);
	tsr_gles_FramebufferRenderbuffer(c, GL_READ_FRAMEBUFFER_NV, GL_COLOR_ATTACHMENT0,
					 GL_RENDERBUFFER, rb);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	GLint type = -1;
	tsr_gles_GetFramebufferAttachmentParameteriv(c, GL_READ_FRAMEBUFFER_NV, GL_COLOR_ATTACHMENT0,
						     GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
	assert_int_equal(type, GL_RENDERBUFFER);
	tsr_gles_GetFramebufferAttachmentParameteriv(c, GL_DRAW_FRAMEBUFFER_NV, GL_COLOR_ATTACHMENT0,
						     GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
	assert_int_equal(type, GL_NONE);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_READ_FRAMEBUFFER_NV),
			 GL_FRAMEBUFFER_COMPLETE);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_DRAW_FRAMEBUFFER_NV),
			 GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_RENDERBUFFER), 0);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
	/* ReadPixels checks the read framebuffer (complete), draws the draw one
	 * (incomplete) */
	size_t row = 0;
	assert_true(tsr_gles_read_pixels_state(c, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, &row));
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	tsr_gles_BindFramebuffer(c, GL_READ_FRAMEBUFFER_NV, fb[1]);
	assert_false(tsr_gles_read_pixels_state(c, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, &row));
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_FRAMEBUFFER_OPERATION);
	/* CopyTexImage2D reads the read framebuffer too */
	GLuint tex;
	tsr_gles_GenTextures(c, 1, &tex);
	tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex);
	tsr_gles_CopyTexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, 0, 0, 4, 4, 0);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_FRAMEBUFFER_OPERATION);
	tsr_gles_BindFramebuffer(c, GL_READ_FRAMEBUFFER_NV, fb[0]);
	tsr_gles_CopyTexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, 0, 0, 4, 4, 0);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	/* deleting a renderbuffer detaches it from the read framebuffer too */
	tsr_gles_DeleteRenderbuffers(c, 1, &rb);
	tsr_gles_GetFramebufferAttachmentParameteriv(c, GL_READ_FRAMEBUFFER_NV, GL_COLOR_ATTACHMENT0,
						     GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
	assert_int_equal(type, GL_NONE);
	/* deleting a framebuffer unbinds it where it is bound */
	tsr_gles_DeleteFramebuffers(c, 1, &fb[0]);
	assert_int_equal(geti(c, GL_READ_FRAMEBUFFER_BINDING_NV), 0);
	assert_int_equal(geti(c, GL_DRAW_FRAMEBUFFER_BINDING_NV), (GLint)fb[1]);
	tsr_gles_DeleteFramebuffers(c, 1, &fb[1]);
	assert_int_equal(geti(c, GL_DRAW_FRAMEBUFFER_BINDING_NV), 0);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	tsr_gles_context_destroy(c);
}

/* A full-target quad of color (r, g, b, 1) into the draw framebuffer. */
static void fill_color(struct gl_fix *f, float r, float g, float b)
{
	static const float v[12] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
	struct tsr_gles_context *c = f->ctx;
	tsr_gles_Uniform4f(c, tsr_gles_GetUniformLocation(c, f->prog, "col"), r, g, b, 1.0f);
	tsr_gles_BindBuffer(c, GL_ARRAY_BUFFER, 0);
	tsr_gles_VertexAttribPointer(c, 0, 2, GL_FLOAT, GL_FALSE, 0, v);
	tsr_gles_EnableVertexAttribArray(c, 0);
	gl_fix_draw(f, GL_TRIANGLES, 0, 6);
}

static void read_px(struct gl_fix *f, uint8_t px[4])
{
	struct tsr_error err;
	size_t row = 0;
	assert_true(tsr_gles_read_pixels_state(f->ctx, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, &row));
	assert_int_equal(tsr_gles_device_read_pixels(f->dev, f->ctx, 3, 3, 1, 1, px, &err), TSR_OK);
}

static void test_device_reads_the_read_framebuffer(void **state)
{
	(void)state;
	static const char vs[] = "attribute vec4 pos;\nvoid main() { gl_Position = pos; }\n";
	static const char fs[] = "precision mediump float;\nuniform vec4 col;\n"
				 "void main() { gl_FragColor = col; }\n";
	static const char *const attribs[] = {"pos", NULL};
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		gl_fix_new(&f, W, H, imr, NULL, (struct tsr_gles_config){8, 8, 8, 8, 24, 0}, vs, fs,
			   attribs);
		struct tsr_gles_context *c = f.ctx;
		GLuint tex[2], fb[2];
		tsr_gles_GenTextures(c, 2, tex);
		tsr_gles_GenFramebuffers(c, 2, fb);
		for (int i = 0; i < 2; i++) {
			tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex[i]);
			tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_RGBA,
					    GL_UNSIGNED_BYTE, NULL);
			tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fb[i]);
			tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
						      GL_TEXTURE_2D, tex[i], 0);
			fill_color(&f, i ? 0.0f : 1.0f, i ? 1.0f : 0.0f, 0.0f);  /* red, green */
		}
		/* the window blue, read back; then framebuffer 0 (red) read
		 * while the window is the draw framebuffer */
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, 0);
		fill_color(&f, 0.0f, 0.0f, 1.0f);
		uint8_t px[4];
		read_px(&f, px);  /* the window */
		assert_int_equal(px[0], 0);
		assert_int_equal(px[2], 255);
		tsr_gles_BindFramebuffer(c, GL_READ_FRAMEBUFFER_NV, fb[0]);
		read_px(&f, px);
		assert_int_equal(px[0], 255);
		assert_int_equal(px[1], 0);
		assert_int_equal(px[2], 0);
		/* draw framebuffer 1 drawn white, read from 1: white; the
		 * read framebuffer 0 still red */
		tsr_gles_BindFramebuffer(c, GL_DRAW_FRAMEBUFFER_NV, fb[1]);
		fill_color(&f, 1.0f, 1.0f, 1.0f);
		tsr_gles_BindFramebuffer(c, GL_READ_FRAMEBUFFER_NV, fb[1]);
		read_px(&f, px);
		assert_int_equal(px[0], 255);
		assert_int_equal(px[1], 255);
		assert_int_equal(px[2], 255);
		tsr_gles_BindFramebuffer(c, GL_READ_FRAMEBUFFER_NV, fb[0]);
		read_px(&f, px);
		assert_int_equal(px[1], 0);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		gl_fix_free(&f);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bindings),
		cmocka_unit_test(test_device_reads_the_read_framebuffer),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
