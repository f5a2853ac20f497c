/*
 * 050-texture.c - textures (src/texture): the block-linear layout of the
 * mip chain (4x4 texels per 64-byte block, levels back to back), its
 * reduction, the level of detail of a quad, nearest, bilinear and
 * trilinear sampling in 8-bit fixed point, the sampler state (min and
 * mag filters, every mipmap mode, REPEAT, CLAMP_TO_EDGE and
 * MIRRORED_REPEAT per axis), and the coalescing of a quad's texel addresses into
 * cache-line requests; cube maps (face selection, face coordinates, their
 * level of detail across an edge, each face at its own address).
 *
 * Test images are generated here; expected values are worked out by hand
 * in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "texture/texture.h"

#define BASE 0x40000000ull

/* A w x h texture whose texel (x, y) is (16x, 32y, x + y, 255). */
static struct tsr_texture *gradient_texture(uint32_t w, uint32_t h)
{
	uint8_t *rgba = malloc((size_t)w * h * 4);
	assert_non_null(rgba);
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			uint8_t *p = &rgba[((size_t)y * w + x) * 4];
			p[0] = (uint8_t)(16 * x);
			p[1] = (uint8_t)(32 * y);
			p[2] = (uint8_t)(x + y);
			p[3] = 255;
		}
	char name[] = "gradient";
	struct tsr_image img = {.path = name, .width = w, .height = h, .rgba = rgba};
	struct tsr_texture *t = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_texture_create(&img, &t, &err), TSR_OK);
	free(rgba);  /* the texture keeps its own copy */
	tsr_texture_set_base(t, BASE);
	return t;
}

static struct tsr_texture *texture_from(uint32_t w, uint32_t h, const uint8_t *rgba)
{
	char name[] = "hand-made";
	struct tsr_image img = {.path = name, .width = w, .height = h, .rgba = (uint8_t *)rgba};
	struct tsr_texture *t = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_texture_create(&img, &t, &err), TSR_OK);
	tsr_texture_set_base(t, BASE);
	return t;
}

/* Lanes of a quad: lane 0 at (u0, v0), +du along x, +dv along y. */
static void quad_uv(float u0, float v0, float dux, float dvy, float u[4], float v[4])
{
	u[0] = u0;       v[0] = v0;
	u[1] = u0 + dux; v[1] = v0;
	u[2] = u0;       v[2] = v0 + dvy;
	u[3] = u0 + dux; v[3] = v0 + dvy;
}

static void sample(const struct tsr_texture *t, enum tsr_filter f,
		   const float u[4], const float v[4], float rgba[4][4],
		   struct tsr_texel_requests *req)
{
	memset(req, 0xa5, sizeof(*req));
	const struct tsr_sampler smp = tsr_sampler_of_filter(f, TSR_WRAP_CLAMP);
	tsr_texture_sample_quad(t, &smp, u, v, TSR_LOD_IMPLICIT, 0.0f, rgba, req);
}

static void assert_rgba(const float got[4], float r, float g, float b, float a)
{
	assert_float_equal(got[0], r / 255.0f, 1e-5);
	assert_float_equal(got[1], g / 255.0f, 1e-5);
	assert_float_equal(got[2], b / 255.0f, 1e-5);
	assert_float_equal(got[3], a / 255.0f, 1e-5);
}

static void test_mip_chain_levels(void **state)
{
	(void)state;
	struct tsr_texture *t = gradient_texture(16, 8);
	static const uint32_t w[] = {16, 8, 4, 2, 1}, h[] = {8, 4, 2, 1, 1};
	assert_int_equal(tsr_texture_levels(t), 5);
	for (uint32_t l = 0; l < 5; l++) {
		assert_int_equal(tsr_texture_width(t, l), w[l]);
		assert_int_equal(tsr_texture_height(t, l), h[l]);
	}
	/* blocks: 4x2 + 2x1 + 1 + 1 + 1 = 13, 64 bytes each */
	assert_int_equal(tsr_texture_footprint_bytes(t), 13 * 64);
	tsr_texture_destroy(t);

	t = gradient_texture(1, 1);
	assert_int_equal(tsr_texture_levels(t), 1);
	assert_int_equal(tsr_texture_footprint_bytes(t), 64);
	tsr_texture_destroy(t);

	t = gradient_texture(5, 3);   /* 5x3, 2x1, 1x1 */
	assert_int_equal(tsr_texture_levels(t), 3);
	assert_int_equal(tsr_texture_width(t, 1), 2);
	assert_int_equal(tsr_texture_height(t, 1), 1);
	assert_int_equal(tsr_texture_footprint_bytes(t), (2 * 1 + 1 + 1) * 64);
	tsr_texture_destroy(t);

	t = gradient_texture(1, 64);  /* 7 levels down the height */
	assert_int_equal(tsr_texture_levels(t), 7);
	assert_int_equal(tsr_texture_width(t, 6), 1);
	assert_int_equal(tsr_texture_height(t, 6), 1);
	tsr_texture_destroy(t);

	/* an empty image is rejected */
	struct tsr_image empty = {.width = 0, .height = 4};
	struct tsr_texture *bad = (struct tsr_texture *)&empty;
	struct tsr_error err;
	assert_int_equal(tsr_texture_create(&empty, &bad, &err), TSR_ERR_ASSET);
	assert_null(bad);
}

static void test_block_linear_addresses(void **state)
{
	(void)state;
	struct tsr_texture *t = gradient_texture(16, 8);
	for (uint32_t y = 0; y < 8; y++)
		for (uint32_t x = 0; x < 16; x++)
			assert_int_equal(tsr_texel_address(t, 0, x, y),
					 BASE + ((y / 4) * 4 + x / 4) * 64 +
						 ((y % 4) * 4 + x % 4) * 4);
	/* spelled out: (5, 6) is block (1, 1) = 5, texel (1, 2) = 9 */
	assert_int_equal(tsr_texel_address(t, 0, 5, 6), BASE + 5 * 64 + 9 * 4);
	assert_int_equal(tsr_texel_address(t, 0, 15, 7), BASE + 7 * 64 + 15 * 4);
	/* level 1 (8x4, 2 blocks a row) starts after level 0's 8 blocks */
	const uint64_t l1 = BASE + 8 * 64;
	for (uint32_t y = 0; y < 4; y++)
		for (uint32_t x = 0; x < 8; x++)
			assert_int_equal(tsr_texel_address(t, 1, x, y),
					 l1 + (x / 4) * 64 + (y * 4 + x % 4) * 4);
	/* level 2 (4x2) after level 1's 2 blocks, then 3 (2x1) and 4 (1x1) */
	assert_int_equal(tsr_texel_address(t, 2, 0, 0), BASE + 10 * 64);
	assert_int_equal(tsr_texel_address(t, 2, 3, 1), BASE + 10 * 64 + 7 * 4);
	assert_int_equal(tsr_texel_address(t, 3, 1, 0), BASE + 11 * 64 + 4);
	assert_int_equal(tsr_texel_address(t, 4, 0, 0), BASE + 12 * 64);
	/* a new base moves everything */
	tsr_texture_set_base(t, 0x1000);
	assert_int_equal(tsr_texel_address(t, 1, 0, 0), 0x1000 + 8 * 64);
	tsr_texture_destroy(t);
}

static void test_mip_reduction(void **state)
{
	(void)state;
	/* 2x2 -> 1x1: LINEAR at the centre in 8 bits, each row's pair lerped
	 * by 128/256 (a + round((b - a) / 2), halves up), then the rows */
	static const uint8_t two[16] = {10, 20, 30, 40,    50, 60, 70, 80,
					90, 100, 110, 120, 200, 210, 220, 254};
	/* r 10|50 -> 30, 90|200 -> 145, 30|145 -> 88; g 40, 155 -> 98;
	 * b 50, 165 -> 108; a 60, 187 -> 124 */
	struct tsr_texture *t = texture_from(2, 2, two);
	assert_int_equal(tsr_texture_levels(t), 2);
	float u[4], v[4], rgba[4][4];
	struct tsr_texel_requests req;
	/* u steps by one texture width per pixel: rho = 2, lod 1 = level 1 */
	quad_uv(0.25f, 0.25f, 1.0f, 0.0f, u, v);
	assert_float_equal(tsr_texture_lod(t, u, v), 1.0f, 1e-5);
	sample(t, TSR_FILTER_NEAREST, u, v, rgba, &req);
	for (int lane = 0; lane < 4; lane++)
		assert_rgba(rgba[lane], 88, 98, 108, 124);
	/* level 0 still has the texels */
	quad_uv(0.25f, 0.25f, 0.5f, 0.5f, u, v);   /* rho 1: lod 0 */
	sample(t, TSR_FILTER_NEAREST, u, v, rgba, &req);
	assert_rgba(rgba[0], 10, 20, 30, 40);
	assert_rgba(rgba[1], 50, 60, 70, 80);
	assert_rgba(rgba[2], 90, 100, 110, 120);
	assert_rgba(rgba[3], 200, 210, 220, 254);
	tsr_texture_destroy(t);

	/* 4x1 -> 2x1 -> 1x1 with the height clamped: red 0 100 200 255 gives
	 * 0|100 -> 50, 200|255 -> 228, then 50|228 -> 139 */
	static const uint8_t row[16] = {0, 0, 0, 255, 100, 0, 0, 255,
					200, 0, 0, 255, 255, 0, 0, 255};
	t = texture_from(4, 1, row);
	assert_int_equal(tsr_texture_levels(t), 3);
	quad_uv(0.1f, 0.5f, 0.5f, 0.0f, u, v);     /* 2 texels a pixel: lod 1 */
	sample(t, TSR_FILTER_NEAREST, u, v, rgba, &req);
	assert_rgba(rgba[0], 50, 0, 0, 255);
	assert_rgba(rgba[1], 228, 0, 0, 255);
	quad_uv(0.1f, 0.5f, 1.0f, 0.0f, u, v);     /* 4 texels a pixel: lod 2 */
	sample(t, TSR_FILTER_NEAREST, u, v, rgba, &req);
	assert_rgba(rgba[0], 139, 0, 0, 255);
	assert_int_equal(req.line_count, 1);
	assert_int_equal(req.lines[0], BASE + 2 * 64);  /* level 2's block */
	tsr_texture_destroy(t);

	/* an odd size: 3x1 -> 1x1 samples the centre, u = 0.5: round(0.5 *
	 * 3 * 256) - 128 = 256, texel 1 with weight 0 (a box filter that
	 * drops the last column would give 50) */
	uint8_t out[4];
	tsr_texture_downsample_rgba8(row, 3, 1, out, 1, 1);
	assert_int_equal(out[0], 100);
	/* 3x3 -> 1x1 likewise: the centre texel */
	uint8_t nine[9 * 4];
	for (int k = 0; k < 9 * 4; k++)
		nine[k] = (uint8_t)(k * 7);
	tsr_texture_downsample_rgba8(nine, 3, 3, out, 1, 1);
	for (int c = 0; c < 4; c++)
		assert_int_equal(out[c], nine[4 * 4 + c]);

	/* an exact halving (its own path: four texels at a time, then the
	 * rest) gives each texel the lerps by 128 of the definition above:
	 * 22x6 -> 11x3 of varied bytes (odd sums round up) */
	enum { SW = 22, SH = 6, DW = 11, DH = 3 };
	uint8_t src[SW * SH * 4], half[DW * DH * 4];
	for (int k = 0; k < SW * SH * 4; k++)
		src[k] = (uint8_t)(k * 97 + (k >> 3) * 31);
	tsr_texture_downsample_rgba8(src, SW, SH, half, DW, DH);
	for (int y = 0; y < DH; y++)
		for (int x = 0; x < DW; x++)
			for (int c = 0; c < 4; c++) {
				const uint8_t *r0 = &src[(2 * y * SW + 2 * x) * 4 + c];
				const uint8_t *r1 = r0 + SW * 4;
				const int32_t top = tsr_lerp8(r0[0], r0[4], 128);
				const int32_t bot = tsr_lerp8(r1[0], r1[4], 128);
				assert_int_equal(half[(y * DW + x) * 4 + c], tsr_lerp8(top, bot, 128));
			}
}

static void test_lod(void **state)
{
	(void)state;
	struct tsr_texture *t = gradient_texture(16, 8);
	float u[4], v[4];
	/* one texel per pixel in both directions: lod 0 */
	quad_uv(0.1f, 0.2f, 1.0f / 16, 1.0f / 8, u, v);
	assert_float_equal(tsr_texture_lod(t, u, v), 0.0f, 1e-5);
	/* four texels per pixel: lod 2 */
	quad_uv(0.1f, 0.2f, 4.0f / 16, 0.0f, u, v);
	assert_float_equal(tsr_texture_lod(t, u, v), 2.0f, 1e-5);
	/* rho is the longer of the two derivatives: 1 along x, 2 along y */
	quad_uv(0.1f, 0.2f, 1.0f / 16, 2.0f / 8, u, v);
	assert_float_equal(tsr_texture_lod(t, u, v), 1.0f, 1e-5);
	/* a derivative with both u and v: (3, 4) texels has length 5 */
	u[0] = 0.0f; v[0] = 0.0f;
	u[1] = 3.0f / 16; v[1] = 4.0f / 8;
	u[2] = 0.0f; v[2] = 0.0f;
	u[3] = u[1]; v[3] = v[1];
	assert_float_equal(tsr_texture_lod(t, u, v), log2f(5.0f), 1e-5);
	/* magnification: half a texel per pixel is lod -1 */
	quad_uv(0.1f, 0.2f, 0.5f / 16, 0.0f, u, v);
	assert_float_equal(tsr_texture_lod(t, u, v), -1.0f, 1e-5);
	tsr_texture_destroy(t);
}

static void test_nearest_and_coalescing(void **state)
{
	(void)state;
	struct tsr_texture *t = gradient_texture(16, 8);
	float u[4], v[4], rgba[4][4];
	struct tsr_texel_requests req;
	/* texel centres of (4,4) (5,4) (4,5) (5,5): all in block (1, 1) */
	quad_uv(4.5f / 16, 4.5f / 8, 1.0f / 16, 1.0f / 8, u, v);
	sample(t, TSR_FILTER_NEAREST, u, v, rgba, &req);
	assert_rgba(rgba[0], 64, 128, 8, 255);
	assert_rgba(rgba[1], 80, 128, 9, 255);
	assert_rgba(rgba[2], 64, 160, 9, 255);
	assert_rgba(rgba[3], 80, 160, 10, 255);
	assert_int_equal(req.texel_fetches, 4);
	assert_int_equal(req.line_count, 1);
	assert_int_equal(req.lines[0], BASE + 5 * 64);
	/* (3,0) (4,0) (3,1) (4,1): blocks 0 and 1, in first-use order */
	quad_uv(3.5f / 16, 0.5f / 8, 1.0f / 16, 1.0f / 8, u, v);
	sample(t, TSR_FILTER_NEAREST, u, v, rgba, &req);
	assert_rgba(rgba[0], 48, 0, 3, 255);
	assert_rgba(rgba[3], 64, 32, 5, 255);
	assert_int_equal(req.texel_fetches, 4);
	assert_int_equal(req.line_count, 2);
	assert_int_equal(req.lines[0], BASE);
	assert_int_equal(req.lines[1], BASE + 64);
	/* (15,3) (16->15 clamped) (15,4) ...: blocks 3 and 7 */
	quad_uv(15.5f / 16, 3.5f / 8, 1.0f / 16, 1.0f / 8, u, v);
	sample(t, TSR_FILTER_NEAREST, u, v, rgba, &req);
	assert_rgba(rgba[0], 240, 96, 18, 255);
	assert_rgba(rgba[1], 240, 96, 18, 255);
	assert_rgba(rgba[2], 240, 128, 19, 255);
	assert_int_equal(req.line_count, 2);
	assert_int_equal(req.lines[0], BASE + 3 * 64);
	assert_int_equal(req.lines[1], BASE + 7 * 64);
	tsr_texture_destroy(t);
}

static void test_bilinear(void **state)
{
	(void)state;
	struct tsr_texture *t = gradient_texture(16, 8);
	float u[4], v[4], rgba[4][4];
	struct tsr_texel_requests req;
	/* at texel centres bilinear returns the texel itself */
	quad_uv(5.5f / 16, 2.5f / 8, 1.0f / 16, 1.0f / 8, u, v);
	sample(t, TSR_FILTER_BILINEAR, u, v, rgba, &req);
	assert_rgba(rgba[0], 80, 64, 7, 255);
	assert_rgba(rgba[1], 96, 64, 8, 255);
	assert_rgba(rgba[2], 80, 96, 8, 255);
	assert_rgba(rgba[3], 96, 96, 9, 255);
	assert_int_equal(req.texel_fetches, 16);
	/* lanes read texels x 5..7, y 2..4: blocks 1 (y < 4) and 5 */
	assert_int_equal(req.line_count, 2);
	assert_int_equal(req.lines[0], BASE + 64);
	assert_int_equal(req.lines[1], BASE + 5 * 64);
	/* halfway between (5,2) and (6,2): the average in 8 bits, halves up
	 * (blue 7 and 8: 8) */
	quad_uv(6.0f / 16, 2.5f / 8, 1.0f / 16, 1.0f / 8, u, v);
	sample(t, TSR_FILTER_BILINEAR, u, v, rgba, &req);
	assert_rgba(rgba[0], 88, 64, 8, 255);
	/* centre of (5,2) (6,2) (5,3) (6,3): rows first (blue 7|8 -> 8, 8|9
	 * -> 9), then the rows (9) */
	quad_uv(6.0f / 16, 3.0f / 8, 1.0f / 16, 1.0f / 8, u, v);
	sample(t, TSR_FILTER_BILINEAR, u, v, rgba, &req);
	assert_rgba(rgba[0], 88, 80, 9, 255);
	/* a quarter of the way from (5,2) to (6,2): weight 64/256, red 80 +
	 * round(16 / 4) = 84, blue 7 + round(0.25) = 7 */
	quad_uv(5.75f / 16, 2.5f / 8, 1.0f / 16, 1.0f / 8, u, v);
	sample(t, TSR_FILTER_BILINEAR, u, v, rgba, &req);
	assert_rgba(rgba[0], 84, 64, 7, 255);
	tsr_texture_destroy(t);
}

static void test_trilinear(void **state)
{
	(void)state;
	struct tsr_texture *t = gradient_texture(16, 8);
	float u[4], v[4], rgba[4][4];
	struct tsr_texel_requests req;
	/* 1.5 texels per pixel: lod 0.585, levels 0 and 1, 2 x 4 texels a lane */
	quad_uv(5.5f / 16, 2.5f / 8, 1.5f / 16, 1.5f / 8, u, v);
	sample(t, TSR_FILTER_TRILINEAR, u, v, rgba, &req);
	assert_int_equal(req.texel_fetches, 32);
	assert_true(req.line_count >= 2 && req.line_count <= TSR_QUAD_MAX_LINES);
	/* the same quad bilinear: 16; nearest: 4 */
	sample(t, TSR_FILTER_BILINEAR, u, v, rgba, &req);
	assert_int_equal(req.texel_fetches, 16);
	sample(t, TSR_FILTER_NEAREST, u, v, rgba, &req);
	assert_int_equal(req.texel_fetches, 4);
	/* magnified, trilinear samples level 0 only */
	quad_uv(5.5f / 16, 2.5f / 8, 0.5f / 16, 0.5f / 8, u, v);
	sample(t, TSR_FILTER_TRILINEAR, u, v, rgba, &req);
	assert_int_equal(req.texel_fetches, 16);
	tsr_texture_destroy(t);

	/* the blend: the 2x2 image at lod 0.5 mixes level 0 (bilinear at the
	 * centre in 8 bits: red rows 10|50 -> 30, 90|200 -> 145, then 88) and
	 * level 1 (the same reduction: 88) half and half */
	static const uint8_t two[16] = {10, 20, 30, 40,    50, 60, 70, 80,
					90, 100, 110, 120, 200, 210, 220, 254};
	t = texture_from(2, 2, two);
	const float d = sqrtf(0.5f);  /* rho = 2 d = sqrt 2 */
	quad_uv(0.5f, 0.5f, d, 0.0f, u, v);
	assert_float_equal(tsr_texture_lod(t, u, v), 0.5f, 1e-4);
	sample(t, TSR_FILTER_TRILINEAR, u, v, rgba, &req);
	assert_int_equal(req.texel_fetches, 32);
	assert_float_equal(rgba[0][0], 88.0f / 255.0f, 1e-6);
	/* lines: level 0's block and level 1's block */
	assert_int_equal(req.line_count, 2);
	assert_int_equal(req.lines[0], BASE);
	assert_int_equal(req.lines[1], BASE + 64);
	tsr_texture_destroy(t);
}

/* ---- the sampler state: min and mag filters, mipmap modes, wraps ---- */

static void sample_with(const struct tsr_texture *t, struct tsr_sampler smp, const float u[4],
			const float v[4], float rgba[4][4], struct tsr_texel_requests *req)
{
	memset(req, 0xa5, sizeof(*req));
	tsr_texture_sample_quad(t, &smp, u, v, TSR_LOD_IMPLICIT, 0.0f, rgba, req);
}

static void test_sampler_state(void **state)
{
	(void)state;
	struct tsr_texture *t = gradient_texture(16, 8);
	float u[4], v[4], rgba[4][4];
	struct tsr_texel_requests req;
	/* mag NEAREST, min LINEAR (no mipmap): magnified (half a texel a
	 * pixel), lane 0 at x 5.75 takes texel 5; minified (2 texels a
	 * pixel), the bilinear sample of level 0: red 80 + round(16 / 4) */
	const struct tsr_sampler mix = {TSR_TEX_LINEAR, TSR_TEX_NEAREST, TSR_TEX_CLAMP_TO_EDGE,
					TSR_TEX_CLAMP_TO_EDGE};
	quad_uv(5.75f / 16, 2.5f / 8, 0.5f / 16, 0.5f / 8, u, v);
	sample_with(t, mix, u, v, rgba, &req);
	assert_rgba(rgba[0], 80, 64, 7, 255);
	assert_int_equal(req.texel_fetches, 4);
	quad_uv(5.75f / 16, 2.5f / 8, 2.0f / 16, 2.0f / 8, u, v);
	sample_with(t, mix, u, v, rgba, &req);
	assert_rgba(rgba[0], 84, 64, 7, 255);
	assert_int_equal(req.texel_fetches, 16);
	/* MIRRORED_REPEAT on s, REPEAT on t: u 1.26 mirrors to 0.74 (texel
	 * 11, red 176), v 1.3 repeats to 0.3 (texel 2, green 64) */
	const struct tsr_sampler mirror = {TSR_TEX_NEAREST, TSR_TEX_NEAREST,
					   TSR_TEX_MIRRORED_REPEAT, TSR_TEX_REPEAT};
	quad_uv(1.26f, 1.3f, 0.01f, 0.01f, u, v);
	sample_with(t, mirror, u, v, rgba, &req);
	assert_rgba(rgba[0], 176, 64, 13, 255);
	/* u 2.26 is in an even unit: 0.26, texel 4 */
	quad_uv(2.26f, 1.3f, 0.01f, 0.01f, u, v);
	sample_with(t, mirror, u, v, rgba, &req);
	assert_rgba(rgba[0], 64, 64, 6, 255);
	tsr_texture_destroy(t);

	/* the 2x2 image, rho 1.5 (u 0.75 a pixel): lod 0.5 * log2 2.25 =
	 * 0.585 exactly, 0.5 * (1 + 2.25 / 2 - 1) = 0.5625 as the
	 * piecewise-linear log2 of a LINEAR mipmap gives it */
	static const uint8_t two[16] = {10, 20, 30, 40,    50, 60, 70, 80,
					90, 100, 110, 120, 200, 210, 220, 254};
	t = texture_from(2, 2, two);
	quad_uv(0.25f, 0.25f, 0.75f, 0.0f, u, v);
	/* LINEAR_MIPMAP_LINEAR: level 0 at texel (0, 0)'s centre (red 10),
	 * level 1 88, blended by trunc(0.5625 * 256) = 144: 10 +
	 * round(144 * 78 / 256) = 54 (the exact log2's 149 would give 55) */
	const struct tsr_sampler tri = {TSR_TEX_LINEAR_MIPMAP_LINEAR, TSR_TEX_LINEAR,
					TSR_TEX_CLAMP_TO_EDGE, TSR_TEX_CLAMP_TO_EDGE};
	sample_with(t, tri, u, v, rgba, &req);
	assert_float_equal(rgba[0][0], 54.0f / 255.0f, 1e-6);
	assert_int_equal(req.texel_fetches, 32);
	/* NEAREST_MIPMAP_LINEAR: one texel from each level, the same blend */
	const struct tsr_sampler nml = {TSR_TEX_NEAREST_MIPMAP_LINEAR, TSR_TEX_LINEAR,
					TSR_TEX_CLAMP_TO_EDGE, TSR_TEX_CLAMP_TO_EDGE};
	sample_with(t, nml, u, v, rgba, &req);
	assert_float_equal(rgba[0][0], 54.0f / 255.0f, 1e-6);
	assert_int_equal(req.texel_fetches, 8);
	/* LINEAR_MIPMAP_NEAREST rounds the exact lod 0.585 to level 1 */
	const struct tsr_sampler lmn = {TSR_TEX_LINEAR_MIPMAP_NEAREST, TSR_TEX_LINEAR,
					TSR_TEX_CLAMP_TO_EDGE, TSR_TEX_CLAMP_TO_EDGE};
	sample_with(t, lmn, u, v, rgba, &req);
	assert_float_equal(rgba[0][0], 88.0f / 255.0f, 1e-6);
	/* an explicit lod of 0.25 (a *Lod function) blends by 64: 10 +
	 * round(64 * 78 / 256) = 30 */
	memset(&req, 0xa5, sizeof(req));
	tsr_texture_sample_quad(t, &tri, u, v, TSR_LOD_EXPLICIT, 0.25f, rgba, &req);
	assert_float_equal(rgba[0][0], 30.0f / 255.0f, 1e-6);
	/* a bias of -1 makes it magnified: level 0 alone */
	tsr_texture_sample_quad(t, &tri, u, v, TSR_LOD_BIAS, -1.0f, rgba, &req);
	assert_float_equal(rgba[0][0], 10.0f / 255.0f, 1e-6);
	assert_int_equal(req.texel_fetches, 16);
	tsr_texture_destroy(t);
}

/* ---- cube maps (OpenGL ES 2.0.25 3.7.5) ---- */

#define FACE_BASE(f) (BASE + (uint64_t)(f) * 0x1000)

/* Six 8x8 faces, face f at FACE_BASE(f), texel (x, y) = (40f + 20, 16x,
 * 16y, 255). Level 0 is 4 blocks (256 bytes), level 1 (4x4) one block at
 * +256, level 2 (2x2) at +320. */
static void cube_faces(struct tsr_texture *faces[6])
{
	uint8_t rgba[8 * 8 * 4];
	for (int f = 0; f < 6; f++) {
		for (int y = 0; y < 8; y++)
			for (int x = 0; x < 8; x++) {
				uint8_t *p = &rgba[(y * 8 + x) * 4];
				p[0] = (uint8_t)(40 * f + 20);
				p[1] = (uint8_t)(16 * x);
				p[2] = (uint8_t)(16 * y);
				p[3] = 255;
			}
		faces[f] = texture_from(8, 8, rgba);
		tsr_texture_set_base(faces[f], FACE_BASE(f));
	}
}

static void cube_sample(struct tsr_texture *faces[6], enum tsr_filter f, const float d[4][3],
			float lod, int relative, float rgba[4][4], struct tsr_texel_requests *req)
{
	float s[4], t[4], r[4];
	for (int k = 0; k < 4; k++) {
		s[k] = d[k][0];
		t[k] = d[k][1];
		r[k] = d[k][2];
	}
	memset(req, 0xa5, sizeof(*req));
	const struct tsr_sampler smp = tsr_sampler_of_filter(f, TSR_WRAP_CLAMP);
	tsr_texture_sample_cube_quad((const struct tsr_texture *const *)faces, &smp, s, t, r, 0,
				     relative ? TSR_LOD_BIAS : TSR_LOD_EXPLICIT, lod, rgba, req);
}

/* Face selection and Table 3.21's (sc, tc, ma), worked by hand: s = (sc /
 * |ma| + 1) / 2 and t = (tc / |ma| + 1) / 2 times 8 texels, floored. */
static void test_cube_faces(void **state)
{
	(void)state;
	struct tsr_texture *faces[6];
	cube_faces(faces);
	float rgba[4][4];
	struct tsr_texel_requests req;
	/* +X (1, .2, -.3): sc = .3, tc = -.2: (5.2, 3.2) -> texel (5, 3), block 1;
	 * -X (-1, .1, .4): sc = .4, tc = -.1: (5.6, 3.6) -> (5, 3), block 1;
	 * +Y (-.3, 1, .2): sc = -.3, tc = .2: (2.8, 4.8) -> (2, 4), block 2;
	 * -Y (-.2, -1, .3): sc = -.2, tc = -.3: (3.2, 2.8) -> (3, 2), block 0 */
	const float q1[4][3] = {{1, .2f, -.3f}, {-1, .1f, .4f}, {-.3f, 1, .2f}, {-.2f, -1, .3f}};
	cube_sample(faces, TSR_FILTER_NEAREST, q1, 0.0f, 0, rgba, &req);
	assert_rgba(rgba[0], 20, 80, 48, 255);
	assert_rgba(rgba[1], 60, 80, 48, 255);
	assert_rgba(rgba[2], 100, 32, 64, 255);
	assert_rgba(rgba[3], 140, 48, 32, 255);
	assert_int_equal(req.texel_fetches, 4);
	assert_int_equal(req.line_count, 4);  /* each face's block at its own address */
	assert_int_equal(req.lines[0], FACE_BASE(0) + 64);
	assert_int_equal(req.lines[1], FACE_BASE(1) + 64);
	assert_int_equal(req.lines[2], FACE_BASE(2) + 128);
	assert_int_equal(req.lines[3], FACE_BASE(3));
	/* +Z (.1, -.3, 1): sc = .1, tc = .3: (4.4, 5.2) -> (4, 5), block 3;
	 * -Z (.4, .2, -1): sc = -.4, tc = -.2: (2.4, 3.2) -> (2, 3), block 0;
	 * lane 2 as lane 0 (its line coalesced); lane 3 (2, .4, -.6), not of
	 * unit length: +X's (5, 3) as (1, .2, -.3) */
	const float q2[4][3] = {{.1f, -.3f, 1}, {.4f, .2f, -1}, {.1f, -.3f, 1}, {2, .4f, -.6f}};
	cube_sample(faces, TSR_FILTER_NEAREST, q2, 0.0f, 0, rgba, &req);
	assert_rgba(rgba[0], 180, 64, 80, 255);
	assert_rgba(rgba[1], 220, 32, 48, 255);
	assert_rgba(rgba[2], 180, 64, 80, 255);
	assert_rgba(rgba[3], 20, 80, 48, 255);
	assert_int_equal(req.texel_fetches, 4);
	assert_int_equal(req.line_count, 3);
	assert_int_equal(req.lines[0], FACE_BASE(4) + 192);
	assert_int_equal(req.lines[1], FACE_BASE(5));
	assert_int_equal(req.lines[2], FACE_BASE(0) + 64);
	/* a face's edge clamps (no wrap to the far side): +X (1, -.9999, 1)
	 * ties x and z (x wins): sc = -1 -> s = 0, tc = .9999 -> t ~ 1: texel
	 * (0, 7); bilinear at the corner reads that texel alone */
	const float q3[4][3] = {{1, -.9999f, 1}, {1, -.9999f, 1}, {1, -.9999f, 1}, {1, -.9999f, 1}};
	cube_sample(faces, TSR_FILTER_BILINEAR, q3, 0.0f, 0, rgba, &req);
	for (int k = 0; k < 4; k++)
		assert_rgba(rgba[k], 20, 0, 112, 255);
	assert_int_equal(req.texel_fetches, 16);
	assert_int_equal(req.line_count, 1);
	assert_int_equal(req.lines[0], FACE_BASE(0) + 128);
	for (int f = 0; f < 6; f++)
		tsr_texture_destroy(faces[f]);
}

/* The level of detail from the face coordinates' derivatives, continuous
 * across an edge between faces. */
static void test_cube_lod(void **state)
{
	(void)state;
	struct tsr_texture *faces[6];
	cube_faces(faces);
	float rgba[4][4];
	struct tsr_texel_requests req;
	/* +Z, lanes at rx, ry = +-.5: s and t step .5 (4 texels) a pixel:
	 * LOD 2, level 2 (2x2, one block at +320) */
	const float q1[4][3] = {{-.5f, .5f, 1}, {.5f, .5f, 1}, {-.5f, -.5f, 1}, {.5f, -.5f, 1}};
	cube_sample(faces, TSR_FILTER_NEAREST, q1, 0.0f, 1, rgba, &req);
	assert_int_equal(req.line_count, 1);
	assert_int_equal(req.lines[0], FACE_BASE(4) + 320);
	/* a bias of -1: level 1 (+256) */
	cube_sample(faces, TSR_FILTER_NEAREST, q1, -1.0f, 1, rgba, &req);
	assert_int_equal(req.line_count, 1);
	assert_int_equal(req.lines[0], FACE_BASE(4) + 256);
	/* straddling the +Z / +X edge (lanes 0, 2 on +Z, 1, 3 on +X): on
	 * +Z's plane the lanes are .0005 apart (LOD < 0: level 0), on their
	 * own faces s jumps from ~1 to ~0. +Z (.999, 0, 1): s = .9995, t = .5:
	 * (7, 4), block 3; +X (1.001, 0, 1): sc = -1, ma = 1.001: s = .0005:
	 * (0, 4), block 2; ry = .001: t = .4995 -> row 3 (blocks 1 and 0) */
	const float q2[4][3] = {{.999f, 0, 1}, {1.001f, 0, 1}, {.999f, .001f, 1},
				{1.001f, .001f, 1}};
	cube_sample(faces, TSR_FILTER_NEAREST, q2, 0.0f, 1, rgba, &req);
	assert_rgba(rgba[0], 180, 112, 64, 255);
	assert_rgba(rgba[1], 20, 0, 64, 255);
	assert_rgba(rgba[2], 180, 112, 48, 255);
	assert_rgba(rgba[3], 20, 0, 48, 255);
	assert_int_equal(req.texel_fetches, 4);
	assert_int_equal(req.line_count, 4);
	assert_int_equal(req.lines[0], FACE_BASE(4) + 192);
	assert_int_equal(req.lines[1], FACE_BASE(4) + 64);
	assert_int_equal(req.lines[2], FACE_BASE(0) + 128);
	assert_int_equal(req.lines[3], FACE_BASE(0));
	/* trilinear on two faces: 8 texels a lane */
	cube_sample(faces, TSR_FILTER_TRILINEAR, q2, 0.5f, 0, rgba, &req);
	assert_int_equal(req.texel_fetches, 32);
	for (int f = 0; f < 6; f++)
		tsr_texture_destroy(faces[f]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mip_chain_levels),
		cmocka_unit_test(test_block_linear_addresses),
		cmocka_unit_test(test_mip_reduction),
		cmocka_unit_test(test_lod),
		cmocka_unit_test(test_nearest_and_coalescing),
		cmocka_unit_test(test_bilinear),
		cmocka_unit_test(test_trilinear),
		cmocka_unit_test(test_sampler_state),
		cmocka_unit_test(test_cube_faces),
		cmocka_unit_test(test_cube_lod),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
