/*
 * 152-gles-textures.c - GL ES 2.0 textures (OpenGL ES 2.0.25, 3.7, 3.8):
 * TexImage2D's format/type pairs converted to RGBA8 (depth textures to
 * floats), unpack alignment, TexSubImage2D, CopyTex[Sub]Image2D through a
 * reader, GenerateMipmap's box filter, parameters and their defaults
 * (table 6.8), completeness (3.7.10) and the 3.8.2 rules with
 * GL_OES_texture_npot (NPOT textures mipmapped and wrapped as any), and
 * the errors of each.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_main.h"
#include "gles/gles.h"

/* a + round(w * (b - a) / 256), halves up: the 8-bit lerp of the GPU's
 * texture unit, which GenerateMipmap's reduction uses */
static int lerp256(int a, int b, int w)
{
	const int p = w * (b - a) + 128;
	return a + (p >= 0 ? p / 256 : -((-p + 255) / 256));
}

static struct tsr_gles_context *ctx_new(void)
{
	struct tsr_gles_context *ctx = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(64, 32, NULL, &ctx, &err), TSR_OK);
	return ctx;
}

static const uint8_t *texel(struct tsr_gles_context *ctx, GLuint tex, GLenum target, GLint level,
			    int x, int y)
{
	GLsizei w, h;
	const uint8_t *t = tsr_gles_texture_image(ctx, tex, target, level, &w, &h, NULL);
	assert_non_null(t);
	assert_true(x < w && y < h);
	return t + ((size_t)y * (size_t)w + (size_t)x) * 4;
}

static void assert_rgba(const uint8_t *t, int r, int g, int b, int a)
{
	if (t[0] != r || t[1] != g || t[2] != b || t[3] != a)
		fail_msg("texel %d %d %d %d, want %d %d %d %d", t[0], t[1], t[2], t[3], r, g, b, a);
}

static void test_formats(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	tsr_gles_BindTexture(ctx, GL_TEXTURE_2D, 1);
	const uint8_t rgba[4] = { 10, 20, 30, 40 };
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
	assert_rgba(texel(ctx, 1, GL_TEXTURE_2D, 0, 0, 0), 10, 20, 30, 40);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGB, 1, 1, 0, GL_RGB, GL_UNSIGNED_BYTE, rgba);
	assert_rgba(texel(ctx, 1, GL_TEXTURE_2D, 0, 0, 0), 10, 20, 30, 255);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_ALPHA, 1, 1, 0, GL_ALPHA, GL_UNSIGNED_BYTE, rgba);
	assert_rgba(texel(ctx, 1, GL_TEXTURE_2D, 0, 0, 0), 0, 0, 0, 10);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_LUMINANCE, 1, 1, 0, GL_LUMINANCE,
			    GL_UNSIGNED_BYTE, rgba);
	assert_rgba(texel(ctx, 1, GL_TEXTURE_2D, 0, 0, 0), 10, 10, 10, 255);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_LUMINANCE_ALPHA, 1, 1, 0, GL_LUMINANCE_ALPHA,
			    GL_UNSIGNED_BYTE, rgba);
	assert_rgba(texel(ctx, 1, GL_TEXTURE_2D, 0, 0, 0), 10, 10, 10, 20);
	const uint16_t p565 = (31 << 11) | (0 << 5) | 16, p4444 = 0xF08F, p5551 = (31 << 11) | 1;
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGB, 1, 1, 0, GL_RGB, GL_UNSIGNED_SHORT_5_6_5,
			    &p565);
	assert_rgba(texel(ctx, 1, GL_TEXTURE_2D, 0, 0, 0), 255, 0, 131, 255);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 0, GL_RGBA,
			    GL_UNSIGNED_SHORT_4_4_4_4, &p4444);
	assert_rgba(texel(ctx, 1, GL_TEXTURE_2D, 0, 0, 0), 255, 0, 136, 255);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 0, GL_RGBA,
			    GL_UNSIGNED_SHORT_5_5_5_1, &p5551);
	assert_rgba(texel(ctx, 1, GL_TEXTURE_2D, 0, 0, 0), 255, 0, 0, 255);
	/* depth: one float per texel */
	const uint16_t d16[2] = { 0, 65535 };
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, 2, 1, 0, GL_DEPTH_COMPONENT,
			    GL_UNSIGNED_SHORT, d16);
	GLenum format;
	const float *d = tsr_gles_texture_image(ctx, 1, GL_TEXTURE_2D, 0, NULL, NULL, &format);
	assert_int_equal(format, GL_DEPTH_COMPONENT);
	assert_true(d[0] == 0.0f && d[1] == 1.0f);
	const uint32_t d32 = 0x80000000u;
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, 1, 1, 0, GL_DEPTH_COMPONENT,
			    GL_UNSIGNED_INT, &d32);
	d = tsr_gles_texture_image(ctx, 1, GL_TEXTURE_2D, 0, NULL, NULL, NULL);
	assert_true(d[0] > 0.4999f && d[0] < 0.5001f);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	/* pairs GL ES 2.0 refuses */
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 0, GL_RGBA, GL_UNSIGNED_SHORT_5_6_5,
			    NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGB, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 0, GL_RGBA, GL_FLOAT, NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	/* RGBA8 and RGB8 of unsigned bytes are RGBA and RGB (as
	 * GL_OES_required_internalformat has it); with other data, or other
	 * sized formats, INVALID_VALUE (on texture 9: texture 1 keeps its image) */
	tsr_gles_BindTexture(ctx, GL_TEXTURE_2D, 9);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA8_OES, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
			    NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGB8_OES, 1, 1, 0, GL_RGB, GL_UNSIGNED_BYTE,
			    NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA8_OES, 1, 1, 0, GL_RGBA,
			    GL_UNSIGNED_SHORT_4_4_4_4, NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGB565, 1, 1, 0, GL_RGB, GL_UNSIGNED_BYTE,
			    NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	d = tsr_gles_texture_image(ctx, 9, GL_TEXTURE_2D, 0, NULL, NULL, &format);
	assert_int_equal(format, GL_RGB);
	tsr_gles_BindTexture(ctx, GL_TEXTURE_2D, 1);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, -1, GL_RGBA, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 1, GL_RGBA, 4096, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
			    NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_CUBE_MAP, 0, GL_RGBA, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
			    NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_BindTexture(ctx, GL_TEXTURE_CUBE_MAP, 2);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_CUBE_MAP_POSITIVE_Y, 0, GL_RGBA, 2, 1, 0, GL_RGBA,
			    GL_UNSIGNED_BYTE, NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_CUBE_MAP_POSITIVE_Y, 0, GL_DEPTH_COMPONENT, 1, 1, 0,
			    GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	/* no compressed formats */
	tsr_gles_CompressedTexImage2D(ctx, GL_TEXTURE_2D, 0, GL_ETC1_RGB8_OES, 4, 4, 0, 8, rgba);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_CompressedTexSubImage2D(ctx, GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_ETC1_RGB8_OES, 8, rgba);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	/* an error changes nothing */
	d = tsr_gles_texture_image(ctx, 1, GL_TEXTURE_2D, 0, NULL, NULL, &format);
	assert_int_equal(format, GL_DEPTH_COMPONENT);
	tsr_gles_context_destroy(ctx);
}

static void test_unpack_and_sub(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	tsr_gles_BindTexture(ctx, GL_TEXTURE_2D, 3);
	/* 3x2 RGB, rows padded to 4 bytes: 9 bytes + 3 of padding */
	const uint8_t rgb[2][12] = { { 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xEE, 0xEE, 0xEE },
				     { 11, 12, 13, 14, 15, 16, 17, 18, 19, 0xEE, 0xEE, 0xEE } };
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGB, 3, 2, 0, GL_RGB, GL_UNSIGNED_BYTE, rgb);
	assert_rgba(texel(ctx, 3, GL_TEXTURE_2D, 0, 2, 0), 7, 8, 9, 255);
	assert_rgba(texel(ctx, 3, GL_TEXTURE_2D, 0, 0, 1), 11, 12, 13, 255);
	tsr_gles_PixelStorei(ctx, GL_UNPACK_ALIGNMENT, 1);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGB, 3, 2, 0, GL_RGB, GL_UNSIGNED_BYTE, rgb);
	assert_rgba(texel(ctx, 3, GL_TEXTURE_2D, 0, 0, 1), 0xEE, 0xEE, 0xEE, 255);
	/* sub image: RGB at (1, 1), 2 x 1 */
	const uint8_t six[6] = { 91, 92, 93, 94, 95, 96 };
	tsr_gles_TexSubImage2D(ctx, GL_TEXTURE_2D, 0, 1, 1, 2, 1, GL_RGB, GL_UNSIGNED_BYTE, six);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	assert_rgba(texel(ctx, 3, GL_TEXTURE_2D, 0, 2, 1), 94, 95, 96, 255);
	assert_rgba(texel(ctx, 3, GL_TEXTURE_2D, 0, 0, 1), 0xEE, 0xEE, 0xEE, 255);
	/* 565 into an RGB image is allowed (the format matches) */
	const uint16_t p565 = 0xFFFF;
	tsr_gles_TexSubImage2D(ctx, GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGB, GL_UNSIGNED_SHORT_5_6_5,
			       &p565);
	assert_rgba(texel(ctx, 3, GL_TEXTURE_2D, 0, 0, 0), 255, 255, 255, 255);
	tsr_gles_TexSubImage2D(ctx, GL_TEXTURE_2D, 0, 2, 1, 2, 1, GL_RGB, GL_UNSIGNED_BYTE, six);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_TexSubImage2D(ctx, GL_TEXTURE_2D, 0, -1, 0, 1, 1, GL_RGB, GL_UNSIGNED_BYTE, six);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_TexSubImage2D(ctx, GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, six);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_TexSubImage2D(ctx, GL_TEXTURE_2D, 1, 0, 0, 1, 1, GL_RGB, GL_UNSIGNED_BYTE, six);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);  /* no level 1 */
	tsr_gles_context_destroy(ctx);
}

static void fill_reader(void *user, GLint x, GLint y, GLsizei w, GLsizei h, uint8_t *rgba)
{
	int *calls = user;
	++*calls;
	for (GLsizei j = 0; j < h; j++)
		for (GLsizei i = 0; i < w; i++) {
			uint8_t *p = rgba + ((size_t)j * (size_t)w + (size_t)i) * 4;
			p[0] = (uint8_t)(x + i);
			p[1] = (uint8_t)(y + j);
			p[2] = 7;
			p[3] = 200;
		}
}

static void test_copy(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	int calls = 0;
	tsr_gles_set_read_pixels(ctx, fill_reader, &calls);
	tsr_gles_BindTexture(ctx, GL_TEXTURE_2D, 1);
	tsr_gles_CopyTexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA, 5, 6, 4, 4, 0);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	assert_int_equal(calls, 1);
	assert_rgba(texel(ctx, 1, GL_TEXTURE_2D, 0, 1, 2), 6, 8, 7, 200);
	tsr_gles_CopyTexSubImage2D(ctx, GL_TEXTURE_2D, 0, 2, 2, 0, 0, 2, 2);
	assert_rgba(texel(ctx, 1, GL_TEXTURE_2D, 0, 3, 3), 1, 1, 7, 200);
	tsr_gles_CopyTexImage2D(ctx, GL_TEXTURE_2D, 0, GL_LUMINANCE, 0, 0, 2, 2, 0);
	assert_rgba(texel(ctx, 1, GL_TEXTURE_2D, 0, 1, 0), 1, 1, 1, 255);
	tsr_gles_CopyTexImage2D(ctx, GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, 0, 0, 2, 2, 0);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_CopyTexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA, 0, 0, 2, 2, 1);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_CopyTexSubImage2D(ctx, GL_TEXTURE_2D, 0, 1, 1, 0, 0, 2, 2);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	/* an incomplete framebuffer */
	tsr_gles_BindFramebuffer(ctx, GL_FRAMEBUFFER, 1);
	tsr_gles_CopyTexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA, 0, 0, 2, 2, 0);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_FRAMEBUFFER_OPERATION);
	/* RGB framebuffer: no alpha to copy */
	tsr_gles_BindFramebuffer(ctx, GL_FRAMEBUFFER, 0);
	struct tsr_gles_context *rgb = NULL;
	struct tsr_gles_config cfg = { 5, 6, 5, 0, 16, 0 };
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(8, 8, &cfg, &rgb, &err), TSR_OK);
	tsr_gles_CopyTexImage2D(rgb, GL_TEXTURE_2D, 0, GL_ALPHA, 0, 0, 2, 2, 0);
	assert_int_equal(tsr_gles_GetError(rgb), GL_INVALID_OPERATION);
	tsr_gles_CopyTexImage2D(rgb, GL_TEXTURE_2D, 0, GL_RGB, 0, 0, 2, 2, 0);
	assert_int_equal(tsr_gles_GetError(rgb), GL_NO_ERROR);
	assert_rgba(texel(rgb, 0, GL_TEXTURE_2D, 0, 1, 1), 0, 0, 0, 255);  /* no reader: zeros */
	tsr_gles_context_destroy(rgb);
	tsr_gles_context_destroy(ctx);
}

static void test_mipmaps_and_completeness(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	tsr_gles_BindTexture(ctx, GL_TEXTURE_2D, 4);
	/* defaults: table 6.8 */
	GLint v;
	tsr_gles_GetTexParameteriv(ctx, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, &v);
	assert_int_equal(v, GL_NEAREST_MIPMAP_LINEAR);
	tsr_gles_GetTexParameteriv(ctx, GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, &v);
	assert_int_equal(v, GL_LINEAR);
	tsr_gles_GetTexParameteriv(ctx, GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, &v);
	assert_int_equal(v, GL_REPEAT);
	GLfloat f;
	tsr_gles_GetTexParameterfv(ctx, GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, &f);
	assert_true(f == (GLfloat)GL_REPEAT);
	assert_false(tsr_gles_texture_complete(ctx, 0, GL_TEXTURE_2D));  /* no image */
	/* 4x2: level 0 only is incomplete with a mipmap filter */
	uint8_t px[4 * 2 * 4];
	for (int i = 0; i < 32; i++)
		px[i] = (uint8_t)(i * 8);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA, 4, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
	assert_false(tsr_gles_texture_complete(ctx, 0, GL_TEXTURE_2D));
	tsr_gles_TexParameteri(ctx, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	assert_true(tsr_gles_texture_complete(ctx, 0, GL_TEXTURE_2D));
	tsr_gles_TexParameterf(ctx, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
	tsr_gles_GenerateMipmap(ctx, GL_TEXTURE_2D);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	assert_true(tsr_gles_texture_complete(ctx, 0, GL_TEXTURE_2D));
	GLsizei w, h;
	assert_non_null(tsr_gles_texture_image(ctx, 4, GL_TEXTURE_2D, 2, &w, &h, NULL));
	assert_int_equal(w, 1);
	assert_int_equal(h, 1);
	/* level 1 (2x1): texel 0 is LINEAR at the centre of texels (0,0) (1,0)
	 * (0,1) (1,1): each row's pair by 128/256, then the rows */
	const uint8_t *t = texel(ctx, 4, GL_TEXTURE_2D, 1, 0, 0);
	for (int c = 0; c < 4; c++)
		assert_int_equal(t[c], lerp256(lerp256(px[c], px[4 + c], 128),
					       lerp256(px[16 + c], px[20 + c], 128), 128));
	/* a level of another format breaks mipmap completeness */
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 1, GL_RGB, 2, 1, 0, GL_RGB, GL_UNSIGNED_BYTE, NULL);
	assert_false(tsr_gles_texture_complete(ctx, 0, GL_TEXTURE_2D));
	/* NPOT (GL_OES_texture_npot): REPEAT, mipmaps, GenerateMipmap, levels
	 * floor(size / 2) down to 1 */
	tsr_gles_BindTexture(ctx, GL_TEXTURE_2D, 5);
	uint8_t npot[5 * 3 * 4];
	for (size_t i = 0; i < sizeof(npot); i++)
		npot[i] = (uint8_t)(i * 37 + 11);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA, 5, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE,
			    npot);
	tsr_gles_TexParameteri(ctx, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	assert_true(tsr_gles_texture_complete(ctx, 0, GL_TEXTURE_2D));  /* REPEAT */
	const GLint clamp = GL_CLAMP_TO_EDGE;
	tsr_gles_TexParameteriv(ctx, GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, &clamp);
	const GLfloat fclamp = GL_CLAMP_TO_EDGE;
	tsr_gles_TexParameterfv(ctx, GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, &fclamp);
	assert_true(tsr_gles_texture_complete(ctx, 0, GL_TEXTURE_2D));
	tsr_gles_TexParameteri(ctx, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
	assert_false(tsr_gles_texture_complete(ctx, 0, GL_TEXTURE_2D));  /* no levels yet */
	tsr_gles_GenerateMipmap(ctx, GL_TEXTURE_2D);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	assert_true(tsr_gles_texture_complete(ctx, 0, GL_TEXTURE_2D));
	tsr_gles_TexParameteri(ctx, GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_MIRRORED_REPEAT);
	assert_true(tsr_gles_texture_complete(ctx, 0, GL_TEXTURE_2D));
	const GLsizei npot_w[] = {5, 2, 1}, npot_h[] = {3, 1, 1};
	for (GLint l = 0; l < 3; l++) {
		assert_non_null(tsr_gles_texture_image(ctx, 5, GL_TEXTURE_2D, l, &w, &h, NULL));
		assert_int_equal(w, npot_w[l]);
		assert_int_equal(h, npot_h[l]);
	}
	assert_null(tsr_gles_texture_image(ctx, 5, GL_TEXTURE_2D, 3, &w, &h, NULL));
	/* level 1 texel (1, 0): LINEAR at its centre (0.75, 0.5) of level 0:
	 * x round(0.75 * 5 * 256) - 128 = 832, texels 3|4 by 64/256; y
	 * round(0.5 * 3 * 256) - 128 = 256, row 1 alone (weight 0) */
	t = texel(ctx, 5, GL_TEXTURE_2D, 1, 1, 0);
	for (int c = 0; c < 4; c++)
		assert_int_equal(t[c], lerp256(npot[(5 + 3) * 4 + c], npot[(5 + 4) * 4 + c], 64));
	tsr_gles_TexParameteri(ctx, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	tsr_gles_TexParameteriv(ctx, GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, &clamp);
	/* a texture without level 0 has nothing to generate from */
	tsr_gles_BindTexture(ctx, GL_TEXTURE_2D, 9);
	tsr_gles_GenerateMipmap(ctx, GL_TEXTURE_2D);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_BindTexture(ctx, GL_TEXTURE_2D, 5);
	/* parameter errors */
	tsr_gles_TexParameteri(ctx, GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR_MIPMAP_LINEAR);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_TexParameteri(ctx, GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER_EXT);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_TexParameteri(ctx, GL_TEXTURE_CUBE_MAP_POSITIVE_X, GL_TEXTURE_WRAP_S, GL_REPEAT);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_TexParameteri(ctx, GL_TEXTURE_2D, GL_TEXTURE_WRAP_R_OES, GL_REPEAT);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_TexParameteri(ctx, GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_MIRRORED_REPEAT);
	tsr_gles_GetTexParameteriv(ctx, GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, &v);
	assert_int_equal(v, GL_MIRRORED_REPEAT);
	tsr_gles_GenerateMipmap(ctx, GL_TEXTURE_CUBE_MAP_POSITIVE_X);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	/* a bad query writes nothing, even with an error pending */
	tsr_gles_GenerateMipmap(ctx, GL_TEXTURE_CUBE_MAP_POSITIVE_X);
	f = -1.0f;
	tsr_gles_GetTexParameterfv(ctx, GL_TEXTURE_2D, GL_TEXTURE_WRAP_R_OES, &f);
	assert_true(f == -1.0f);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_context_destroy(ctx);
}

static void test_cube(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	tsr_gles_ActiveTexture(ctx, GL_TEXTURE2);
	tsr_gles_BindTexture(ctx, GL_TEXTURE_CUBE_MAP, 6);
	tsr_gles_TexParameteri(ctx, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	for (int f = 0; f < 5; f++)
		tsr_gles_TexImage2D(ctx, GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f, 0, GL_RGBA, 4, 4, 0,
				    GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	assert_false(tsr_gles_texture_complete(ctx, 2, GL_TEXTURE_CUBE_MAP));
	tsr_gles_GenerateMipmap(ctx, GL_TEXTURE_CUBE_MAP);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);  /* not cube complete */
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, 0, GL_RGBA, 2, 2, 0, GL_RGBA,
			    GL_UNSIGNED_BYTE, NULL);
	assert_false(tsr_gles_texture_complete(ctx, 2, GL_TEXTURE_CUBE_MAP));  /* sizes differ */
	const uint8_t red[4 * 4 * 4] = { 255, 0, 0, 255 };
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, 0, GL_RGBA, 4, 4, 0, GL_RGBA,
			    GL_UNSIGNED_BYTE, red);
	assert_true(tsr_gles_texture_complete(ctx, 2, GL_TEXTURE_CUBE_MAP));
	assert_false(tsr_gles_texture_complete(ctx, 0, GL_TEXTURE_CUBE_MAP));
	tsr_gles_TexParameteri(ctx, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER,
			       GL_NEAREST_MIPMAP_NEAREST);
	assert_false(tsr_gles_texture_complete(ctx, 2, GL_TEXTURE_CUBE_MAP));
	tsr_gles_GenerateMipmap(ctx, GL_TEXTURE_CUBE_MAP);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	assert_true(tsr_gles_texture_complete(ctx, 2, GL_TEXTURE_CUBE_MAP));
	/* level 2 of -Z: 1x1, a quarter of the red texel averaged down twice */
	assert_rgba(texel(ctx, 6, GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, 1, 0, 0), 64, 0, 0, 64);
	assert_rgba(texel(ctx, 6, GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, 2, 0, 0), 16, 0, 0, 16);
	tsr_gles_context_destroy(ctx);
}

/* The default cube map's +X face (face index 0) is the cube map's, not the
 * default 2D texture's (found by fuzz_gles). */
static void test_default_cube_face_image(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	const uint8_t px[4] = { 1, 2, 3, 4 };
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA, 2, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_CUBE_MAP_POSITIVE_X, 0, GL_RGBA, 1, 1, 0, GL_RGBA,
			    GL_UNSIGNED_BYTE, px);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	GLsizei w = 0, h = 0;
	const uint8_t *t = tsr_gles_texture_image(ctx, 0, GL_TEXTURE_CUBE_MAP_POSITIVE_X, 0, &w, &h,
						  NULL);
	assert_non_null(t);
	assert_int_equal(w, 1);
	assert_int_equal(h, 1);
	assert_rgba(t, 1, 2, 3, 4);
	t = tsr_gles_texture_image(ctx, 0, GL_TEXTURE_2D, 0, &w, &h, NULL);
	assert_int_equal(w, 2);
	tsr_gles_context_destroy(ctx);
}

/* TexParameterf[v] with a float no integer holds (infinity, NaN, 1e30)
 * records INVALID_ENUM and changes nothing (it was converted to an int:
 * undefined behaviour; found by fuzz_gles). */
static void test_tex_parameter_float_range(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	const GLfloat bad[] = { INFINITY, -INFINITY, NAN, 1e30f, -3e9f, 2147483648.0f };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		tsr_gles_TexParameterf(ctx, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, bad[i]);
		assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
		tsr_gles_TexParameterfv(ctx, GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, &bad[i]);
		assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	}
	GLint v = 0;
	tsr_gles_GetTexParameteriv(ctx, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, &v);
	assert_int_equal(v, GL_NEAREST_MIPMAP_LINEAR);
	tsr_gles_GetTexParameteriv(ctx, GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, &v);
	assert_int_equal(v, GL_REPEAT);
	tsr_gles_TexParameterf(ctx, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, (GLfloat)GL_LINEAR);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_context_destroy(ctx);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_unpack_and_sub),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_mipmaps_and_completeness),
		cmocka_unit_test(test_cube),
		cmocka_unit_test(test_default_cube_face_image),
		cmocka_unit_test(test_tex_parameter_float_range),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
