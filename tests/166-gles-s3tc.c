/*
 * 166-gles-s3tc.c - GL_EXT_texture_compression_s3tc and
 * GL_EXT_unpack_subimage: the decoded texels of known DXT1 (four-color,
 * three-color with RGB and with RGBA), DXT3 and DXT5 (eight- and six-alpha)
 * blocks, an encode/decode round trip of solid blocks, data the driver
 * compresses (TexImage2D of floats, TexSubImage2D with UNPACK_ROW_LENGTH
 * and the skips), and the extension's errors (imageSize, unknown format,
 * block alignment, another format, a missing level, GenerateMipmap).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_main.h"
#include "gles/gles.h"
#include "texture/dxt.h"

/* c0 red, c1 blue (c0 > c1: four colors), texels 0..3 indices 0..3 */
static const uint8_t DXT1_FOUR[8] = {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0, 0, 0};
/* c0 blue, c1 red (c0 <= c1: three colors and black/transparent) */
static const uint8_t DXT1_THREE[8] = {0x1F, 0x00, 0x00, 0xF8, 0xE4, 0, 0, 0};

static void expect_texel(const uint8_t *t, int r, int g, int b, int a)
{
	assert_int_equal(t[0], r);
	assert_int_equal(t[1], g);
	assert_int_equal(t[2], b);
	assert_int_equal(t[3], a);
}

static void test_decode_blocks(void **state)
{
	(void)state;
	uint8_t rgba[16][4];
	tsr_dxt_decode_block(TSR_DXT1_RGB, DXT1_FOUR, rgba);
	expect_texel(rgba[0], 255, 0, 0, 255);
	expect_texel(rgba[1], 0, 0, 255, 255);
	expect_texel(rgba[2], 170, 0, 85, 255);   /* (2 c0 + c1) / 3 */
	expect_texel(rgba[3], 85, 0, 170, 255);   /* (c0 + 2 c1) / 3 */
	expect_texel(rgba[15], 255, 0, 0, 255);
	tsr_dxt_decode_block(TSR_DXT1_RGB, DXT1_THREE, rgba);
	expect_texel(rgba[2], 127, 0, 127, 255);  /* (c0 + c1) / 2 */
	expect_texel(rgba[3], 0, 0, 0, 255);      /* black, opaque in RGB DXT1 */
	tsr_dxt_decode_block(TSR_DXT1_RGBA, DXT1_THREE, rgba);
	expect_texel(rgba[3], 0, 0, 0, 0);        /* transparent black */
	expect_texel(rgba[0], 0, 0, 255, 255);

	uint8_t dxt3[16] = {0x0F, 0x08};  /* alphas F, 0, 8, 0, ... */
	memcpy(dxt3 + 8, DXT1_THREE, 8);  /* DXT3 colors: always four-color */
	tsr_dxt_decode_block(TSR_DXT3, dxt3, rgba);
	expect_texel(rgba[0], 0, 0, 255, 255);
	expect_texel(rgba[1], 255, 0, 0, 0);
	expect_texel(rgba[2], 85, 0, 170, 136);
	expect_texel(rgba[3], 170, 0, 85, 0);

	/* alphas 200, 100 (eight values): indices 0, 1, 2, 7 */
	uint8_t dxt5[16] = {200, 100, 0x88, 0x0E, 0, 0, 0, 0};
	memcpy(dxt5 + 8, DXT1_FOUR, 8);
	tsr_dxt_decode_block(TSR_DXT5, dxt5, rgba);
	assert_int_equal(rgba[0][3], 200);
	assert_int_equal(rgba[1][3], 100);
	assert_int_equal(rgba[2][3], 185);  /* (6 a0 + a1) / 7 */
	assert_int_equal(rgba[3][3], 114);  /* (a0 + 6 a1) / 7 */
	assert_int_equal(rgba[4][3], 200);
	/* a0 <= a1 (six values): index 6 is 0, 7 is 255 */
	const uint8_t six[16] = {100, 200, 0x80, 0x0F, 0, 0, 0, 0};  /* 0, 0, 6, 7 */
	tsr_dxt_decode_block(TSR_DXT5, six, rgba);
	assert_int_equal(rgba[0][3], 100);
	assert_int_equal(rgba[2][3], 0);
	assert_int_equal(rgba[3][3], 255);
	assert_int_equal(tsr_dxt_block_bytes(TSR_DXT1_RGBA), 8);
	assert_int_equal(tsr_dxt_block_bytes(TSR_DXT5), 16);
}

static void test_encode_round_trip(void **state)
{
	(void)state;
	static const uint8_t colors[4][4] = {
		{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}};
	for (int f = TSR_DXT1_RGB; f <= TSR_DXT5; f++)
		for (int c = 0; c < 4; c++) {
			uint8_t in[16][4], out[16][4], block[16];
			for (int i = 0; i < 16; i++)
				memcpy(in[i], colors[c], 4);
			tsr_dxt_encode_block((enum tsr_dxt_format)f, (const uint8_t(*)[4])in, block);
			tsr_dxt_decode_block((enum tsr_dxt_format)f, block, out);
			assert_memory_equal(in, out, sizeof(in));  /* solid blocks: exact */
		}
	/* two colors and transparent texels in RGBA DXT1 */
	uint8_t in[16][4], out[16][4], block[8];
	for (int i = 0; i < 16; i++) {
		const uint8_t red[4] = {255, 0, 0, 255}, blue[4] = {0, 0, 255, 255}, clear[4] = {0};
		memcpy(in[i], i % 3 == 0 ? red : i % 3 == 1 ? blue : clear, 4);
	}
	tsr_dxt_encode_block(TSR_DXT1_RGBA, (const uint8_t(*)[4])in, block);
	tsr_dxt_decode_block(TSR_DXT1_RGBA, block, out);
	assert_memory_equal(in, out, sizeof(in));
}

static struct tsr_gles_context *context(void)
{
	struct tsr_error err;
	const struct tsr_gles_config bits = {8, 8, 8, 8, 24, 8};
	struct tsr_gles_context *c = NULL;
	assert_int_equal(tsr_gles_context_create(16, 16, &bits, &c, &err), TSR_OK);
	GLuint tex;
	tsr_gles_GenTextures(c, 1, &tex);
	tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex);
	return c;
}

static const uint8_t *texel(struct tsr_gles_context *c, GLint level, int x, int y)
{
	GLint tex = 0;
	GLsizei w = 0;
	tsr_gles_GetIntegerv(c, GL_TEXTURE_BINDING_2D, &tex);
	const uint8_t *t = tsr_gles_texture_image(c, (GLuint)tex, GL_TEXTURE_2D, level, &w, NULL,
						  NULL);
	assert_non_null(t);
	return t + ((size_t)y * (size_t)w + (size_t)x) * 4;
}

static void test_compressed_tex_image(void **state)
{
	(void)state;
	struct tsr_gles_context *c = context();
	GLint n = 0;
	tsr_gles_GetIntegerv(c, GL_NUM_COMPRESSED_TEXTURE_FORMATS, &n);
	assert_int_equal(n, 4);
	assert_non_null(strstr((const char *)tsr_gles_GetString(c, GL_EXTENSIONS),
			       "GL_EXT_texture_compression_s3tc"));
	/* 8x4: two blocks, the second the three-color one */
	uint8_t data[16];
	memcpy(data, DXT1_FOUR, 8);
	memcpy(data + 8, DXT1_THREE, 8);
	tsr_gles_CompressedTexImage2D(c, GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 8, 4,
				      0, 16, data);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	expect_texel(texel(c, 0, 2, 0), 170, 0, 85, 255);
	expect_texel(texel(c, 0, 7, 0), 0, 0, 0, 0);
	expect_texel(texel(c, 0, 4, 0), 0, 0, 255, 255);

	/* errors */
	tsr_gles_CompressedTexImage2D(c, GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 8, 4,
				      0, 15, data);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);  /* imageSize */
	tsr_gles_CompressedTexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, 8, 4, 0, 16, data);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
	tsr_gles_CompressedTexSubImage2D(c, GL_TEXTURE_2D, 0, 2, 0, 4, 4,
					 GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 8, data);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);  /* not on a block */
	tsr_gles_CompressedTexSubImage2D(c, GL_TEXTURE_2D, 0, 4, 0, 4, 4,
					 GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, 16, data);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);  /* another format */
	tsr_gles_CompressedTexSubImage2D(c, GL_TEXTURE_2D, 1, 0, 0, 4, 4,
					 GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 8, data);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);  /* no level 1 */
	tsr_gles_CompressedTexSubImage2D(c, GL_TEXTURE_2D, 0, 4, 0, 8, 4,
					 GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 16, data);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);  /* outside */
	tsr_gles_CompressedTexSubImage2D(c, GL_TEXTURE_2D, 0, 4, 0, 4, 4,
					 GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 16, data);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);  /* imageSize */
	tsr_gles_GenerateMipmap(c, GL_TEXTURE_2D);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);
	tsr_gles_TexSubImage2D(c, GL_TEXTURE_2D, 0, 2, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, data);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);  /* not on a block */

	/* the first block into the second place */
	tsr_gles_CompressedTexSubImage2D(c, GL_TEXTURE_2D, 0, 4, 0, 4, 4,
					 GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 8, data);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	expect_texel(texel(c, 0, 7, 0), 85, 0, 170, 255);
	/* a 1x1 level: one block, its top-left texel */
	tsr_gles_CompressedTexImage2D(c, GL_TEXTURE_2D, 3, GL_COMPRESSED_RGB_S3TC_DXT1_EXT, 1, 1,
				      0, 8, DXT1_THREE);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	expect_texel(texel(c, 3, 0, 0), 0, 0, 255, 255);
	/* uploaded levels, which the device hands the GPU instead of its own */
	GLint tex = 0;
	tsr_gles_GetIntegerv(c, GL_TEXTURE_BINDING_2D, &tex);
	assert_true(tsr_gles_texture_level_uploaded(c, (GLuint)tex, 3));
	assert_false(tsr_gles_texture_level_uploaded(c, (GLuint)tex, 1));
	tsr_gles_context_destroy(c);
}

static void test_driver_compresses(void **state)
{
	(void)state;
	struct tsr_gles_context *c = context();
	/* 8x8 floats: left half red, right half green */
	float img[8 * 8 * 4];
	for (int i = 0; i < 64; i++) {
		const float px[4] = {i % 8 < 4 ? 1.0f : 0.0f, i % 8 < 4 ? 0.0f : 1.0f, 0, 1};
		memcpy(img + i * 4, px, sizeof(px));
	}
	tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, 8, 8, 0,
			    GL_RGBA, GL_FLOAT, img);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	expect_texel(texel(c, 0, 1, 6), 255, 0, 0, 255);
	expect_texel(texel(c, 0, 6, 1), 0, 255, 0, 255);
	/* floats into an uncompressed format: still refused */
	tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 1, GL_RGBA, 4, 4, 0, GL_RGBA, GL_FLOAT, img);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);

	/* the right 4x4 of rows 4..7 (green) into block (0, 0), through
	 * UNPACK_ROW_LENGTH 8, SKIP_PIXELS 4, SKIP_ROWS 4 */
	tsr_gles_PixelStorei(c, GL_UNPACK_ROW_LENGTH_EXT, 8);
	tsr_gles_PixelStorei(c, GL_UNPACK_SKIP_PIXELS_EXT, 4);
	tsr_gles_PixelStorei(c, GL_UNPACK_SKIP_ROWS_EXT, 4);
	GLint v = 0;
	tsr_gles_GetIntegerv(c, GL_UNPACK_SKIP_ROWS_EXT, &v);
	assert_int_equal(v, 4);
	tsr_gles_TexSubImage2D(c, GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_FLOAT, img);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	expect_texel(texel(c, 0, 1, 1), 0, 255, 0, 255);
	expect_texel(texel(c, 0, 1, 6), 255, 0, 0, 255);
	tsr_gles_PixelStorei(c, GL_UNPACK_ROW_LENGTH_EXT, -1);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);
	tsr_gles_context_destroy(c);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_blocks),
		cmocka_unit_test(test_encode_round_trip),
		cmocka_unit_test(test_compressed_tex_image),
		cmocka_unit_test(test_driver_compresses),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
