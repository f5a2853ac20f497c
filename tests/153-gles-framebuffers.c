/*
 * 153-gles-framebuffers.c - GL ES 2.0 framebuffer and renderbuffer objects
 * (OpenGL ES 2.0.25, 4.4): RenderbufferStorage and its queries,
 * attachments, CheckFramebufferStatus's rules (4.4.5), the bits of the
 * bound framebuffer (table 6.21), deletion of attached objects.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_main.h"
#include "gles/gles.h"

static struct tsr_gles_context *ctx_new(void)
{
	struct tsr_gles_context *ctx = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(64, 32, NULL, &ctx, &err), TSR_OK);
	return ctx;
}

static GLint rb_param(struct tsr_gles_context *ctx, GLenum pname)
{
	GLint v = -1;
	tsr_gles_GetRenderbufferParameteriv(ctx, GL_RENDERBUFFER, pname, &v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	return v;
}

static GLint att_param(struct tsr_gles_context *ctx, GLenum att, GLenum pname)
{
	GLint v = -1;
	tsr_gles_GetFramebufferAttachmentParameteriv(ctx, GL_FRAMEBUFFER, att, pname, &v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	return v;
}

static void test_renderbuffer_storage(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	GLint v;
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_RGBA4, 4, 4);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);  /* 0 bound */
	tsr_gles_GetRenderbufferParameteriv(ctx, GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, &v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_BindRenderbuffer(ctx, GL_RENDERBUFFER, 1);
	/* table 6.23's initial values */
	assert_int_equal(rb_param(ctx, GL_RENDERBUFFER_WIDTH), 0);
	assert_int_equal(rb_param(ctx, GL_RENDERBUFFER_HEIGHT), 0);
	assert_int_equal(rb_param(ctx, GL_RENDERBUFFER_INTERNAL_FORMAT), GL_RGBA4);
	assert_int_equal(rb_param(ctx, GL_RENDERBUFFER_RED_SIZE), 0);
	static const struct { GLenum format; GLint bits[6]; } formats[] = {
		{ GL_RGBA4, { 4, 4, 4, 4, 0, 0 } }, { GL_RGB5_A1, { 5, 5, 5, 1, 0, 0 } },
		{ GL_RGB565, { 5, 6, 5, 0, 0, 0 } }, { GL_RGB8_OES, { 8, 8, 8, 0, 0, 0 } },
		{ GL_RGBA8_OES, { 8, 8, 8, 8, 0, 0 } }, { GL_DEPTH_COMPONENT16, { 0, 0, 0, 0, 16, 0 } },
		{ GL_DEPTH_COMPONENT24_OES, { 0, 0, 0, 0, 24, 0 } },
		{ GL_STENCIL_INDEX8, { 0, 0, 0, 0, 0, 8 } },
	};
	static const GLenum sizes[6] = { GL_RENDERBUFFER_RED_SIZE, GL_RENDERBUFFER_GREEN_SIZE,
		GL_RENDERBUFFER_BLUE_SIZE, GL_RENDERBUFFER_ALPHA_SIZE, GL_RENDERBUFFER_DEPTH_SIZE,
		GL_RENDERBUFFER_STENCIL_SIZE };
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, formats[i].format, 16, 8);
		assert_int_equal(rb_param(ctx, GL_RENDERBUFFER_WIDTH), 16);
		assert_int_equal(rb_param(ctx, GL_RENDERBUFFER_HEIGHT), 8);
		assert_int_equal(rb_param(ctx, GL_RENDERBUFFER_INTERNAL_FORMAT), formats[i].format);
		for (int c = 0; c < 6; c++)
			assert_int_equal(rb_param(ctx, sizes[c]), formats[i].bits[c]);
	}
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_RGBA, 4, 4);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_RGBA4, 4097, 4);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_RGBA4, 4, -1);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_RenderbufferStorage(ctx, GL_FRAMEBUFFER, GL_RGBA4, 4, 4);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	assert_int_equal(rb_param(ctx, GL_RENDERBUFFER_INTERNAL_FORMAT), GL_STENCIL_INDEX8);
	tsr_gles_GetRenderbufferParameteriv(ctx, GL_RENDERBUFFER, GL_TEXTURE_2D, &v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_context_destroy(ctx);
}

static void test_status(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_RENDERBUFFER), 0);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	/* attaching to framebuffer 0 */
	tsr_gles_FramebufferRenderbuffer(ctx, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, 0);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_BindFramebuffer(ctx, GL_FRAMEBUFFER, 1);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT);
	assert_int_equal(att_param(ctx, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
			 GL_NONE);
	GLint v;
	tsr_gles_GetFramebufferAttachmentParameteriv(ctx, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
						     GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	/* a color texture */
	tsr_gles_BindTexture(ctx, GL_TEXTURE_2D, 7);
	tsr_gles_FramebufferTexture2D(ctx, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 7, 0);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);  /* no image yet */
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGB, 16, 8, 0, GL_RGB, GL_UNSIGNED_SHORT_5_6_5,
			    NULL);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	GLint bits;
	tsr_gles_GetIntegerv(ctx, GL_GREEN_BITS, &bits);
	assert_int_equal(bits, 6);
	tsr_gles_GetIntegerv(ctx, GL_DEPTH_BITS, &bits);
	assert_int_equal(bits, 0);
	assert_int_equal(att_param(ctx, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
			 GL_TEXTURE);
	assert_int_equal(att_param(ctx, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME), 7);
	assert_int_equal(att_param(ctx, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL),
			 0);
	assert_int_equal(att_param(ctx, GL_COLOR_ATTACHMENT0,
				   GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE), 0);
	/* a depth renderbuffer of another size */
	tsr_gles_BindRenderbuffer(ctx, GL_RENDERBUFFER, 3);
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, 16, 4);
	tsr_gles_FramebufferRenderbuffer(ctx, GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, 3);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS);
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, 16, 8);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	tsr_gles_GetIntegerv(ctx, GL_DEPTH_BITS, &bits);
	assert_int_equal(bits, 16);
	assert_int_equal(att_param(ctx, GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
			 GL_RENDERBUFFER);
	tsr_gles_GetFramebufferAttachmentParameteriv(ctx, GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
						     GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, &v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	/* a color format at the depth point */
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_RGBA4, 16, 8);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, 16, 8);
	/* depth and stencil both: a DEPTH_COMPONENT16 and a STENCIL_INDEX8
	 * renderbuffer are two buffers, complete */
	tsr_gles_BindRenderbuffer(ctx, GL_RENDERBUFFER, 4);
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_STENCIL_INDEX8, 16, 8);
	tsr_gles_FramebufferRenderbuffer(ctx, GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER, 4);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	tsr_gles_GetIntegerv(ctx, GL_DEPTH_BITS, &bits);
	assert_int_equal(bits, 16);
	tsr_gles_GetIntegerv(ctx, GL_STENCIL_BITS, &bits);
	assert_int_equal(bits, 8);
	assert_int_equal(att_param(ctx, GL_STENCIL_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME), 4);
	/* one of another size: incomplete dimensions; a depth format at the stencil point */
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_STENCIL_INDEX8, 8, 8);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS);
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, 16, 8);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_STENCIL_INDEX8, 16, 8);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	/* with a 24-bit depth renderbuffer too */
	tsr_gles_BindRenderbuffer(ctx, GL_RENDERBUFFER, 3);
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_DEPTH_COMPONENT24_OES, 16, 8);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, 16, 8);
	tsr_gles_FramebufferRenderbuffer(ctx, GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER, 0);
	tsr_gles_GetIntegerv(ctx, GL_STENCIL_BITS, &bits);
	assert_int_equal(bits, 0);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	/* a luminance texture is not color-renderable */
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_LUMINANCE, 16, 8, 0, GL_LUMINANCE,
			    GL_UNSIGNED_BYTE, NULL);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
	tsr_gles_context_destroy(ctx);
}

static void test_attach_errors_and_deletion(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	tsr_gles_BindFramebuffer(ctx, GL_FRAMEBUFFER, 2);
	tsr_gles_FramebufferTexture2D(ctx, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 9, 0);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);  /* no such texture */
	tsr_gles_BindTexture(ctx, GL_TEXTURE_CUBE_MAP, 5);
	tsr_gles_BindTexture(ctx, GL_TEXTURE_2D, 6);
	tsr_gles_FramebufferTexture2D(ctx, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 5, 0);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);  /* a cube map */
	tsr_gles_FramebufferTexture2D(ctx, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 6, 1);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	/* GL_EXT_draw_buffers: COLOR_ATTACHMENT1..3_EXT, not 4 */
	tsr_gles_FramebufferTexture2D(ctx, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1_EXT + 3, GL_TEXTURE_2D,
				      6, 0);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_FramebufferTexture2D(ctx, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_CUBE_MAP,
				      5, 0);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_FramebufferRenderbuffer(ctx, GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, 8);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	/* a cube face */
	for (int f = 0; f < 6; f++)
		tsr_gles_TexImage2D(ctx, GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f, 0, GL_RGBA, 8, 8, 0,
				    GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	tsr_gles_FramebufferTexture2D(ctx, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
				      GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, 5, 0);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	assert_int_equal(att_param(ctx, GL_COLOR_ATTACHMENT0,
				   GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE),
			 GL_TEXTURE_CUBE_MAP_NEGATIVE_Y);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	/* deleting an attached texture detaches it from the bound framebuffer */
	GLuint five = 5;
	tsr_gles_DeleteTextures(ctx, 1, &five);
	assert_int_equal(att_param(ctx, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
			 GL_NONE);
	/* attached to a framebuffer not bound: the object lives on there */
	tsr_gles_BindRenderbuffer(ctx, GL_RENDERBUFFER, 3);
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, 8, 8);
	tsr_gles_FramebufferRenderbuffer(ctx, GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, 3);
	tsr_gles_BindFramebuffer(ctx, GL_FRAMEBUFFER, 0);
	GLuint three = 3;
	tsr_gles_DeleteRenderbuffers(ctx, 1, &three);
	assert_false(tsr_gles_IsRenderbuffer(ctx, 3));
	tsr_gles_BindFramebuffer(ctx, GL_FRAMEBUFFER, 2);
	assert_int_equal(att_param(ctx, GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE),
			 GL_RENDERBUFFER);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	/* deleting the bound framebuffer reverts to the default one */
	GLuint two = 2;
	tsr_gles_DeleteFramebuffers(ctx, 1, &two);
	GLint v;
	tsr_gles_GetIntegerv(ctx, GL_FRAMEBUFFER_BINDING, &v);
	assert_int_equal(v, 0);
	tsr_gles_GetIntegerv(ctx, GL_DEPTH_BITS, &v);
	assert_int_equal(v, 24);
	tsr_gles_context_destroy(ctx);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_renderbuffer_storage),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_attach_errors_and_deletion),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
