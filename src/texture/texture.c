#include "texture/texture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct tsr_level {
	uint32_t width, height;
	uint32_t blocks_w;       /* blocks per row */
	uint64_t offset;         /* byte offset of the level from level 0 */
	uint64_t addr;           /* base + offset: the level's byte address */
	float fw, fh;            /* width, height as floats */
	uint8_t *texels;         /* width * height * 4, row-major */
	float *depth;            /* a depth texture's depths (width * height, row-major,
	                            0..1) that samples read; texels then hold them as
	                            grey (the image a dump or a read shows); NULL: none */
};

struct tsr_texture {
	uint32_t levels;
	uint8_t bottom_up;       /* tsr_image.bottom_up */
	uint8_t depth;           /* tsr_image.depth: levels have depth planes */
	uint64_t base;
	uint64_t footprint;
	struct tsr_level level[TSR_TEXTURE_MAX_LEVELS];
};

/* One axis of tsr_texture_downsample_rgba8: destination texel d's first
 * source texel and the second's weight (1/256). */
static inline void blit_axis(uint32_t d, uint32_t dsize, uint32_t ssize, uint32_t *i0,
			     uint32_t *i1, uint32_t *w)
{
	const float c = ((float)d + 0.5f) / (float)dsize;
	const int32_t s = (int32_t)lrintf(c * (float)(ssize * 256u)) - 128;
	const int32_t i = s < 0 ? -1 : s >> 8;
	*w = (uint32_t)s & 255u;
	*i0 = i < 0 ? 0 : (uint32_t)i >= ssize ? ssize - 1 : (uint32_t)i;
	*i1 = i + 1 < 0 ? 0 : (uint32_t)(i + 1) >= ssize ? ssize - 1 : (uint32_t)(i + 1);
}

/* The texels of destination row y: its source rows r0 and r1 lerped by
 * fy, each destination texel x from source texels xs[2x], xs[2x + 1]
 * (byte offsets) lerped by fx[x]. */
static void downsample_row(const uint8_t *restrict r0, const uint8_t *restrict r1, int32_t fy,
			   const uint32_t *restrict xs, const int32_t *restrict fx,
			   uint8_t *restrict out, uint32_t dw)
{
	for (uint32_t x = 0; x < dw; x++) {
		const uint32_t a = xs[2 * x], b = xs[2 * x + 1];
		for (int c = 0; c < 4; c++) {
			const int32_t top = tsr_lerp8(r0[a + c], r0[b + c], fx[x]);
			const int32_t bot = tsr_lerp8(r1[a + c], r1[b + c], fx[x]);
			out[4 * x + c] = (uint8_t)tsr_lerp8(top, bot, fy);
		}
	}
}

/* Destination columns a chunk of downsample's x table holds (on the stack). */
#define DOWNSAMPLE_CHUNK 512u

/*
 * downsample's exact halving (sw = 2 dw, sh = 2 dh): every weight is
 * 128, and tsr_lerp8(a, b, 128) = a + floor((b - a + 1) / 2) =
 * (a + b + 1) >> 1, the rounded mean (SSE2's pavgb): the same bytes as
 * the general path, four destination texels at a time.
 */
static void halve_rgba8(const uint8_t *src, uint32_t sw, uint8_t *dst, uint32_t dw, uint32_t dh)
{
	for (uint32_t y = 0; y < dh; y++) {
		const uint8_t *r0 = &src[(size_t)2 * y * sw * 4], *r1 = r0 + (size_t)sw * 4;
		uint8_t *out = &dst[(size_t)y * dw * 4];
		uint32_t x = 0;
#ifdef __SSE2__
		for (; x + 4 <= dw; x += 4) {
			const __m128 a0 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)&r0[8 * x]));
			const __m128 a1 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)&r0[8 * x + 16]));
			const __m128 b0 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)&r1[8 * x]));
			const __m128 b1 = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)&r1[8 * x + 16]));
			/* even and odd source texels of each row */
			const __m128i top = _mm_avg_epu8(
				_mm_castps_si128(_mm_shuffle_ps(a0, a1, _MM_SHUFFLE(2, 0, 2, 0))),
				_mm_castps_si128(_mm_shuffle_ps(a0, a1, _MM_SHUFFLE(3, 1, 3, 1))));
			const __m128i bot = _mm_avg_epu8(
				_mm_castps_si128(_mm_shuffle_ps(b0, b1, _MM_SHUFFLE(2, 0, 2, 0))),
				_mm_castps_si128(_mm_shuffle_ps(b0, b1, _MM_SHUFFLE(3, 1, 3, 1))));
			_mm_storeu_si128((__m128i *)&out[4 * x], _mm_avg_epu8(top, bot));
		}
#endif
		for (; x < dw; x++)
			for (int c = 0; c < 4; c++) {
				const uint32_t top = (r0[8 * x + c] + r0[8 * x + 4 + c] + 1u) >> 1;
				const uint32_t bot = (r1[8 * x + c] + r1[8 * x + 4 + c] + 1u) >> 1;
				out[4 * x + c] = (uint8_t)((top + bot + 1u) >> 1);
			}
	}
}

void tsr_texture_downsample_rgba8(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst,
				  uint32_t dw, uint32_t dh)
{
	if (sw == 2 * dw && sh == 2 * dh) {
		halve_rgba8(src, sw, dst, dw, dh);
		return;
	}
	/* the x axis's source texels and weights, the same for every row:
	 * computed once a chunk of columns, not once a texel */
	uint32_t xs[2 * DOWNSAMPLE_CHUNK];
	int32_t fx[DOWNSAMPLE_CHUNK];
	for (uint32_t x0 = 0; x0 < dw; x0 += DOWNSAMPLE_CHUNK) {
		const uint32_t n = dw - x0 < DOWNSAMPLE_CHUNK ? dw - x0 : DOWNSAMPLE_CHUNK;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t a, b, w;
			blit_axis(x0 + i, dw, sw, &a, &b, &w);
			xs[2 * i] = a * 4;
			xs[2 * i + 1] = b * 4;
			fx[i] = (int32_t)w;
		}
		for (uint32_t y = 0; y < dh; y++) {
			uint32_t y0, y1, fy;
			blit_axis(y, dh, sh, &y0, &y1, &fy);
			downsample_row(&src[(size_t)y0 * sw * 4], &src[(size_t)y1 * sw * 4],
				       (int32_t)fy, xs, fx, &dst[((size_t)y * dw + x0) * 4], n);
		}
	}
}

/* Level lv from level p, its previous one (tsr_texture_downsample_rgba8). */
static void downsample(const struct tsr_level *p, struct tsr_level *lv)
{
	tsr_texture_downsample_rgba8(p->texels, p->width, p->height, lv->texels, lv->width,
				     lv->height);
}

/* downsample's 2x2 box filter of a depth texture's depth plane (the
 * mean of the four depths, in float). */
static void downsample_depth(const struct tsr_level *p, struct tsr_level *lv)
{
	const uint32_t w = lv->width, h = lv->height;
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			uint32_t x0 = 2 * x, y0 = 2 * y;
			uint32_t x1 = x0 + 1 < p->width ? x0 + 1 : x0;
			uint32_t y1 = y0 + 1 < p->height ? y0 + 1 : y0;
			lv->depth[(size_t)y * w + x] = 0.25f * (p->depth[(size_t)y0 * p->width + x0] +
								p->depth[(size_t)y0 * p->width + x1] +
								p->depth[(size_t)y1 * p->width + x0] +
								p->depth[(size_t)y1 * p->width + x1]);
		}
}

void tsr_texture_build_mips(struct tsr_texture *t)
{
	for (uint32_t l = 1; l < t->levels; l++) {
		downsample(&t->level[l - 1], &t->level[l]);
		if (t->depth)
			downsample_depth(&t->level[l - 1], &t->level[l]);
	}
}

uint32_t tsr_texture_pass_row(const struct tsr_texture *t, uint32_t y)
{
	return t->bottom_up ? t->level[0].height - 1 - y : y;
}

enum tsr_status tsr_texture_create(const struct tsr_image *img,
				   struct tsr_texture **out,
				   struct tsr_error *err)
{
	*out = NULL;
	if (!img->width || !img->height || img->width > 32768 || img->height > 32768)
		return tsr_error_set(err, TSR_ERR_ASSET,
				     "texture '%s' has unsupported size %ux%u",
				     img->path ? img->path : "?", img->width, img->height);
	struct tsr_texture *t = calloc(1, sizeof(*t));
	if (!t)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a texture");
	t->bottom_up = img->bottom_up;
	t->depth = img->depth != 0;
	uint32_t w = img->width, h = img->height;
	uint64_t off = 0;
	for (uint32_t l = 0; l < TSR_TEXTURE_MAX_LEVELS; l++) {
		struct tsr_level *lv = &t->level[l];
		lv->width = w;
		lv->height = h;
		lv->blocks_w = (w + TSR_TEXTURE_BLOCK - 1) / TSR_TEXTURE_BLOCK;
		lv->offset = off;
		lv->addr = off;
		lv->fw = (float)w;
		lv->fh = (float)h;
		uint32_t blocks_h = (h + TSR_TEXTURE_BLOCK - 1) / TSR_TEXTURE_BLOCK;
		off += (uint64_t)lv->blocks_w * blocks_h * TSR_TEXTURE_BLOCK_BYTES;
		lv->texels = malloc((size_t)w * h * 4);
		if (!lv->texels) {
			tsr_texture_destroy(t);
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a texture");
		}
		t->levels = l + 1;
		if (l == 0)
			memcpy(lv->texels, img->rgba, (size_t)w * h * 4);
		else if (l <= img->mip_count && img->mip_rgba[l - 1])
			memcpy(lv->texels, img->mip_rgba[l - 1], (size_t)w * h * 4);
		else
			downsample(&t->level[l - 1], lv);
		if (img->depth) {  /* the depths the grey texels show, until a pass writes them */
			lv->depth = malloc((size_t)w * h * sizeof(float));
			if (!lv->depth) {
				tsr_texture_destroy(t);
				return tsr_error_set(err, TSR_ERR_NOMEM,
						     "out of memory for a texture");
			}
			if (l == 0)
				for (size_t i = 0; i < (size_t)w * h; i++)
					lv->depth[i] = (float)img->rgba[4 * i] / 255.0f;
			else
				downsample_depth(&t->level[l - 1], lv);
		}
		if ((w == 1 && h == 1) || (img->render_target && !img->mipmapped))
			break;  /* a render target has level 0 only: a pass writes no mips */
		w = w > 1 ? w / 2 : 1;
		h = h > 1 ? h / 2 : 1;
	}
	t->footprint = off;
	*out = t;
	return TSR_OK;
}

void tsr_texture_destroy(struct tsr_texture *t)
{
	if (!t)
		return;
	for (uint32_t l = 0; l < t->levels; l++) {
		free(t->level[l].texels);
		free(t->level[l].depth);
	}
	free(t);
}

/* The rectangle (x0, y0, *w, *h) clipped to level 0; 0 when empty. */
static int clip_rect(const struct tsr_level *lv, uint32_t x0, uint32_t y0, uint32_t *w,
		     uint32_t *h)
{
	if (x0 >= lv->width || y0 >= lv->height)
		return 0;
	if (*w > lv->width - x0)
		*w = lv->width - x0;
	if (*h > lv->height - y0)
		*h = lv->height - y0;
	return 1;
}

void tsr_texture_write_rect(struct tsr_texture *t, uint32_t x0, uint32_t y0, uint32_t w,
			    uint32_t h, const uint8_t *rgba, uint32_t pitch_bytes)
{
	struct tsr_level *lv = &t->level[0];
	if (!clip_rect(lv, x0, y0, &w, &h))
		return;
	for (uint32_t y = 0; y < h; y++)
		memcpy(&lv->texels[((size_t)tsr_texture_pass_row(t, y0 + y) * lv->width + x0) * 4],
		       &rgba[(size_t)y * pitch_bytes], (size_t)w * 4);
}

void tsr_depth_grey_row(uint8_t *restrict dst, const float *restrict depth, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		float v = depth[i] * 255.0f + 0.5f;  /* as a color channel's RGBA8 */
		v = v >= 0.5f ? v : 0.5f;            /* NaN becomes 0.5 */
		v = v > 255.5f ? 255.5f : v;
		const uint8_t grey = (uint8_t)(int32_t)v;
		dst[4 * i] = dst[4 * i + 1] = dst[4 * i + 2] = grey;
		dst[4 * i + 3] = 255;
	}
}

void tsr_texture_write_depth_rect(struct tsr_texture *t, uint32_t x0, uint32_t y0, uint32_t w,
				  uint32_t h, const float *depth, size_t pitch)
{
	struct tsr_level *lv = &t->level[0];
	if (!clip_rect(lv, x0, y0, &w, &h))
		return;
	for (uint32_t y = 0; y < h; y++) {
		const size_t row = (size_t)tsr_texture_pass_row(t, y0 + y) * lv->width + x0;
		const float *src = &depth[(size_t)y * pitch];
		tsr_depth_grey_row(&lv->texels[row * 4], src, w);
		if (!lv->depth)
			continue;
		for (uint32_t x = 0; x < w; x++) {  /* clamped to 0..1, NaN as 0 (the grey's) */
			const float d = src[x];
			lv->depth[row + x] = d > 0.0f ? (d < 1.0f ? d : 1.0f) : 0.0f;
		}
	}
}

void tsr_texture_read_depth_rect(const struct tsr_texture *t, uint32_t x0, uint32_t y0,
				 uint32_t w, uint32_t h, float *depth, size_t pitch)
{
	const struct tsr_level *lv = &t->level[0];
	if (!clip_rect(lv, x0, y0, &w, &h))
		return;
	for (uint32_t y = 0; y < h; y++) {
		float *dst = &depth[(size_t)y * pitch];
		if (!lv->depth) {
			for (uint32_t x = 0; x < w; x++)
				dst[x] = 1.0f;
			continue;
		}
		const size_t row = (size_t)tsr_texture_pass_row(t, y0 + y) * lv->width + x0;
		memcpy(dst, &lv->depth[row], (size_t)w * sizeof(float));
	}
}

void tsr_texture_read_rect(const struct tsr_texture *t, uint32_t x0, uint32_t y0, uint32_t w,
			   uint32_t h, uint8_t *rgba, uint32_t pitch_bytes)
{
	const struct tsr_level *lv = &t->level[0];
	if (!clip_rect(lv, x0, y0, &w, &h))
		return;
	for (uint32_t y = 0; y < h; y++)
		memcpy(&rgba[(size_t)y * pitch_bytes],
		       &lv->texels[((size_t)tsr_texture_pass_row(t, y0 + y) * lv->width + x0) * 4],
		       (size_t)w * 4);
}

uint64_t tsr_texture_footprint_bytes(const struct tsr_texture *t)
{
	return t->footprint;
}

void tsr_texture_set_base(struct tsr_texture *t, uint64_t base)
{
	t->base = base;
	for (uint32_t l = 0; l < t->levels; l++)
		t->level[l].addr = base + t->level[l].offset;
}

uint64_t tsr_texture_base(const struct tsr_texture *t)
{
	return t->base;
}

uint32_t tsr_texture_levels(const struct tsr_texture *t)
{
	return t->levels;
}

uint32_t tsr_texture_width(const struct tsr_texture *t, uint32_t level)
{
	return t->level[level].width;
}

uint32_t tsr_texture_height(const struct tsr_texture *t, uint32_t level)
{
	return t->level[level].height;
}

static inline uint64_t texel_addr(const struct tsr_texture *t,
				  const struct tsr_level *lv, uint32_t x,
				  uint32_t y)
{
	uint64_t block = (uint64_t)(y / TSR_TEXTURE_BLOCK) * lv->blocks_w +
			 x / TSR_TEXTURE_BLOCK;
	uint32_t in_block = (y % TSR_TEXTURE_BLOCK) * TSR_TEXTURE_BLOCK +
			    x % TSR_TEXTURE_BLOCK;
	return t->base + lv->offset + block * TSR_TEXTURE_BLOCK_BYTES +
	       in_block * TSR_TEXEL_BYTES;
}

uint64_t tsr_texel_address(const struct tsr_texture *t, uint32_t level,
			   uint32_t x, uint32_t y)
{
	return texel_addr(t, &t->level[level], x, y);
}

/* The squared footprint of the quad, in texels (level 0): tsr_texture_lod's rho^2. */
static inline float lod_rho2(const struct tsr_texture *t, const float u[4], const float v[4])
{
	float w = (float)t->level[0].width, h = (float)t->level[0].height;
	float dudx = (u[1] - u[0]) * w, dvdx = (v[1] - v[0]) * h;
	float dudy = (u[2] - u[0]) * w, dvdy = (v[2] - v[0]) * h;
	float rx = dudx * dudx + dvdx * dvdx;
	float ry = dudy * dudy + dvdy * dvdy;
	return rx > ry ? rx : ry;
}

float tsr_texture_lod(const struct tsr_texture *t, const float u[4],
		      const float v[4])
{
	float rho2 = lod_rho2(t, u, v);
	if (!(rho2 > 0.0f))
		return -16.0f;
	return 0.5f * log2f(rho2);
}

static inline int32_t wrap_coord(int32_t c, uint32_t size, enum tsr_wrap wrap)
{
	if (wrap == TSR_WRAP_CLAMP)
		return c < 0 ? 0 : (c >= (int32_t)size ? (int32_t)size - 1 : c);
	if ((size & (size - 1)) == 0)  /* a power of two: the same modulo, without a division */
		return (int32_t)((uint32_t)c & (size - 1));
	int32_t m = c % (int32_t)size;
	return m < 0 ? m + (int32_t)size : m;
}

/*
 * floorf(x) for any x, exact (signed zeros included), without the libm
 * sequence: truncation through int32_t where that is defined (|x| < 2^23,
 * where every float with a fraction lives), floorf itself otherwise.
 */
static inline float fast_floorf(float x)
{
	if (!(fabsf(x) < 8388608.0f))
		return floorf(x);
	float t = (float)(int32_t)x;
	if (t > x)
		t -= 1.0f;
	return copysignf(t, x);
}

/* The request list in registers while a quad is sampled. */
struct line_list {
	uint32_t fetches, count;
	uint64_t last;     /* lines[count - 1]; UINT64_MAX (no line's address) when count is 0 */
	uint64_t *lines;
};

/* add_line's coalescing (first-use order) for one texel's line */
static inline void list_add(struct line_list *L, uint64_t line)
{
	L->fetches++;
	/* neighbouring texels mostly share the line added last: look there first */
	if (L->last == line)
		return;
	for (uint32_t i = 0; i < L->count; i++)
		if (L->lines[i] == line)
			return;
	L->lines[L->count++] = line;
	L->last = line;
}

/*
 * Adds the lines of a bilinear 2x2 footprint, texels (x0|x1, y0|y1) of a
 * level whose 4x4 blocks (one line each) start at byte lbase, bw blocks a
 * row: four fetches, coalesced at once when they fall in one line.
 */
static inline void add_footprint_lines(struct line_list *L, uint64_t lbase, uint64_t bw,
				       uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1)
{
	uint32_t bx0 = x0 >> 2, bx1 = x1 >> 2, by0 = y0 >> 2, by1 = y1 >> 2;
	uint64_t row0 = lbase + (uint64_t)by0 * bw * TSR_TEXTURE_BLOCK_BYTES;
	uint64_t l00 = row0 + (uint64_t)bx0 * TSR_TEXTURE_BLOCK_BYTES;
	if (bx0 == bx1 && by0 == by1) {
		/* one line: the first add coalesces the other three */
		list_add(L, l00);
		L->fetches += 3;
		return;
	}
	uint64_t row1 = lbase + (uint64_t)by1 * bw * TSR_TEXTURE_BLOCK_BYTES;
	list_add(L, l00);
	list_add(L, row0 + (uint64_t)bx1 * TSR_TEXTURE_BLOCK_BYTES);
	list_add(L, row1 + (uint64_t)bx0 * TSR_TEXTURE_BLOCK_BYTES);
	list_add(L, row1 + (uint64_t)bx1 * TSR_TEXTURE_BLOCK_BYTES);
}

/* The line of texel (x, y) of a level. */
static inline uint64_t texel_line(const struct tsr_level *lv, uint32_t x, uint32_t y)
{
	return lv->addr + ((uint64_t)(y >> 2) * lv->blocks_w + (x >> 2)) * TSR_TEXTURE_BLOCK_BYTES;
}

/* ---- the level of detail (llvmpipe's lp_build_lod_selector, lp_bld_sample.c) ---- */

enum mip_mode { MIP_NONE, MIP_NEAREST, MIP_LINEAR };

/* The float's exponent field unbiased: floor(log2 |x|) for a normal x. */
static inline int32_t f32_exponent(float x)
{
	uint32_t b;
	memcpy(&b, &x, 4);
	return (int32_t)((b >> 23) & 255u) - 127;
}

/*
 * log2 x approximated piecewise linearly between powers of two, exact at
 * them: floor(log2 x) + x / 2^floor(log2 x) - 1 (llvmpipe's
 * lp_build_fast_log2; up to 0.086 below log2 x).
 */
static inline float fast_log2(float x)
{
	uint32_t b;
	memcpy(&b, &x, 4);
	b = (b & 0x7fffffu) | 0x3f800000u;
	float m;
	memcpy(&m, &b, 4);
	return (float)(f32_exponent(x) - 1) + m;
}

/* One sample's levels and image filter. */
struct level_choice {
	uint32_t l0, l1;   /* the level, and the second one blended when w8 (frac) > 0 */
	int linear;        /* the image filter: 1 LINEAR (2x2 texels), 0 NEAREST */
	float frac;        /* l1's weight, 0 when one level (the depth path) */
	uint32_t w8;       /* frac in 1/256, truncated (the color path) */
};

/*
 * The levels and image filter of a quad's sample (OpenGL ES 2.0.25
 * 3.7.7-3.7.8) as llvmpipe chooses them: rho2 the squared scale factor
 * (lod_rho2), lod = log2 rho with fast_log2 where the mipmap is LINEAR or
 * a bias or explicit LOD is given, and exactly rounded from the exponent
 * otherwise; magnification (lod <= 0) takes the mag filter at level 0
 * when it differs from the min filter's, else the min filter's levels
 * clamp to 0; levels clamp to the chain, and a LINEAR mipmap blends two
 * with weight frac (8 bits in the color path).
 */
static inline void choose_levels(const struct tsr_texture *t, const struct tsr_sampler *s,
				 float rho2, enum tsr_lod_mode mode, float lod_in,
				 struct level_choice *c)
{
	const uint8_t mf = s->min_filter;
	const int mip = mf <= TSR_TEX_LINEAR ? MIP_NONE
			: (mf == TSR_TEX_NEAREST_MIPMAP_NEAREST || mf == TSR_TEX_LINEAR_MIPMAP_NEAREST)
				? MIP_NEAREST : MIP_LINEAR;
	const int min_linear = mf == TSR_TEX_LINEAR || mf == TSR_TEX_LINEAR_MIPMAP_NEAREST ||
			       mf == TSR_TEX_LINEAR_MIPMAP_LINEAR;
	const int mag_linear = s->mag_filter == TSR_TEX_LINEAR;
	const int32_t maxl = (int32_t)t->levels - 1;
	int positive;
	int32_t ilod;
	float frac = 0.0f;
	if (mode == TSR_LOD_IMPLICIT && mip != MIP_LINEAR) {
		/* round(log2 sqrt(rho2)) = (floor(log2 rho2) + 1) >> 1, exact */
		positive = rho2 > 1.0f;
		ilod = (f32_exponent(rho2) + 1 + 256) / 2 - 128;
	} else {
		float lod = mode == TSR_LOD_EXPLICIT ? lod_in : 0.5f * fast_log2(rho2);
		if (mode == TSR_LOD_BIAS)
			lod += lod_in;
		if (!(lod == lod))  /* NaN: level 0 */
			lod = 0.0f;
		lod = lod < -1024.0f ? -1024.0f : lod > 1024.0f ? 1024.0f : lod;
		positive = lod > 0.0f;
		if (mip == MIP_LINEAR) {
			const float fl = floorf(lod);
			ilod = (int32_t)fl;
			frac = lod - fl;
		} else {
			ilod = (int32_t)lrintf(lod);
		}
	}
	c->l1 = 0;
	c->frac = 0.0f;
	c->w8 = 0;
	if (min_linear != mag_linear && !positive) {
		c->linear = mag_linear;
		c->l0 = 0;
		return;
	}
	c->linear = min_linear;
	if (mip == MIP_NONE || ilod < 0) {
		c->l0 = 0;
		return;
	}
	if (ilod >= maxl) {
		c->l0 = (uint32_t)maxl;
		return;
	}
	c->l0 = (uint32_t)ilod;
	if (mip == MIP_LINEAR) {
		c->l1 = (uint32_t)ilod + 1;
		c->frac = frac;
		c->w8 = (uint32_t)(frac * 256.0f);
	}
}

/*
 * One axis's coordinate made ready for a level's texel coordinates:
 * REPEAT keeps its fraction, MIRRORED_REPEAT mirrors every other unit
 * (GL ES 2.0.25 3.7.6) and then clamps as CLAMP_TO_EDGE does, which keeps
 * [-1, 2] (enough for the edge texels at any size); non-finite: 0. Returns
 * the wrap its texel coordinates then take (REPEAT or CLAMP).
 */
static inline enum tsr_wrap axis_prepare(float c[4], uint8_t wrap)
{
	for (int k = 0; k < 4; k++) {
		float x = isfinite(c[k]) ? c[k] : 0.0f;
		if (wrap == TSR_TEX_REPEAT) {
			x -= fast_floorf(x);
		} else {
			if (wrap == TSR_TEX_MIRRORED_REPEAT) {
				x = x < -16777216.0f ? -16777216.0f : x > 16777216.0f ? 16777216.0f : x;
				const float fl = fast_floorf(x);
				x -= fl;
				if ((int32_t)fl & 1)
					x = 1.0f - x;
			}
			x = x < -1.0f ? -1.0f : (x > 2.0f ? 2.0f : x);
		}
		c[k] = x;
	}
	return wrap == TSR_TEX_REPEAT ? TSR_WRAP_REPEAT : TSR_WRAP_CLAMP;
}

/* ---- texel coordinates of one level for the four lanes ---- */

/* One level's texels for the four lanes. */
struct level_lanes {
	uint32_t x0[4], y0[4];  /* the wrapped texel (nearest) or first texel (linear) */
	uint32_t x1[4], y1[4];  /* linear: the wrapped second column and row */
	int32_t fx[4], fy[4];   /* linear, color: the second column's and row's weights, 1/256 */
	float w[4][4];          /* linear, depth: w[texel][lane], the 2x2 weights in float */
};

#ifdef __SSE2__
/* (int32_t)floorf(x) per lane for |x| < 2^23 */
static inline __m128i v_ifloor(__m128 x)
{
	__m128i i = _mm_cvttps_epi32(x);
	return _mm_add_epi32(i, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(i), x)));
}

/* wrap_coord for four lanes, stored to out */
static inline __attribute__((always_inline)) void
v_wrap(__m128i c, uint32_t size, enum tsr_wrap wrap, uint32_t out[4])
{
	const __m128i last = _mm_set1_epi32((int32_t)size - 1);
	if (wrap == TSR_WRAP_CLAMP) {
		c = _mm_andnot_si128(_mm_cmpgt_epi32(_mm_setzero_si128(), c), c);  /* < 0: 0 */
		const __m128i over = _mm_cmpgt_epi32(c, last);                     /* >= size */
		c = _mm_or_si128(_mm_and_si128(over, last), _mm_andnot_si128(over, c));
	} else if ((size & (size - 1)) == 0) {
		c = _mm_and_si128(c, last);
	} else {
		int32_t v[4];
		_mm_storeu_si128((__m128i *)v, c);
		for (int k = 0; k < 4; k++)
			out[k] = (uint32_t)wrap_coord(v[k], size, wrap);
		return;
	}
	_mm_storeu_si128((__m128i *)out, c);
}

/*
 * One axis of a level's texel coordinates (c: prepared coordinates, size
 * texels): NEAREST floor(c * size); LINEAR the color path's 8.8 fixed
 * point of llvmpipe's AoS sampling (lp_bld_sample_aos.c), round(c * size
 * * 256) - 128, its integer part the first texel and its low 8 bits the
 * second's weight, or (depth) c * size - 0.5 in float.
 */
static inline __attribute__((always_inline)) void
axis_coords(const float c[4], uint32_t size, float fsize, int linear, int depth,
	    enum tsr_wrap wrap, uint32_t i0[4], uint32_t i1[4], int32_t f[4], float a[4])
{
	const __m128 C = _mm_loadu_ps(c);
	if (!linear) {
		v_wrap(v_ifloor(_mm_mul_ps(C, _mm_set1_ps(fsize))), size, wrap, i0);
		return;
	}
	__m128i I;
	if (depth) {
		const __m128 S = _mm_sub_ps(_mm_mul_ps(C, _mm_set1_ps(fsize)), _mm_set1_ps(0.5f));
		I = v_ifloor(S);
		_mm_storeu_ps(a, _mm_sub_ps(S, _mm_cvtepi32_ps(I)));
	} else {
		const __m128i S = _mm_sub_epi32(_mm_cvtps_epi32(_mm_mul_ps(C, _mm_set1_ps(fsize * 256.0f))),
						_mm_set1_epi32(128));
		I = _mm_srai_epi32(S, 8);
		_mm_storeu_si128((__m128i *)f, _mm_and_si128(S, _mm_set1_epi32(255)));
	}
	v_wrap(I, size, wrap, i0);
	v_wrap(_mm_add_epi32(I, _mm_set1_epi32(1)), size, wrap, i1);
}
#else
/* (int32_t)floorf(x) for -2^23 < x < 2^23 */
static inline int32_t ifloor_small(float x)
{
	int32_t i = (int32_t)x;
	return i - ((float)i > x);
}

/* axis_coords of the SSE2 build, lane by lane: the same operations (lrintf
 * rounds to nearest even, as cvtps2dq does in the default mode). */
static inline __attribute__((always_inline)) void
axis_coords(const float c[4], uint32_t size, float fsize, int linear, int depth,
	    enum tsr_wrap wrap, uint32_t i0[4], uint32_t i1[4], int32_t f[4], float a[4])
{
	for (int k = 0; k < 4; k++) {
		if (!linear) {
			i0[k] = (uint32_t)wrap_coord(ifloor_small(c[k] * fsize), size, wrap);
			continue;
		}
		int32_t i;
		if (depth) {
			const float s = c[k] * fsize - 0.5f;
			i = ifloor_small(s);
			a[k] = s - (float)i;
		} else {
			const int32_t s = (int32_t)lrintf(c[k] * (fsize * 256.0f)) - 128;
			i = (int32_t)((uint32_t)s >> 8 | (s < 0 ? 0xff000000u : 0u));  /* s >> 8, floor */
			f[k] = s & 255;
		}
		i0[k] = (uint32_t)wrap_coord(i, size, wrap);
		i1[k] = (uint32_t)wrap_coord(i + 1, size, wrap);
	}
}
#endif

/* A level's texel coordinates (and weights) for the four lanes. */
static inline __attribute__((always_inline)) void
level_coords(const struct tsr_level *lv, int linear, int depth, enum tsr_wrap ws,
	     enum tsr_wrap wt, const float u[4], const float v[4], struct level_lanes *o)
{
	float ax[4], ay[4];
	axis_coords(u, lv->width, lv->fw, linear, depth, ws, o->x0, o->x1, o->fx, ax);
	axis_coords(v, lv->height, lv->fh, linear, depth, wt, o->y0, o->y1, o->fy, ay);
	if (linear && depth)
		for (int k = 0; k < 4; k++) {
			o->w[0][k] = (1.0f - ax[k]) * (1.0f - ay[k]);
			o->w[1][k] = ax[k] * (1.0f - ay[k]);
			o->w[2][k] = (1.0f - ax[k]) * ay[k];
			o->w[3][k] = ax[k] * ay[k];
		}
}

/* ---- filtering: the color path in 8-bit fixed point, the depth path in float ---- */

/*
 * lerp8_1 in SSE2: eight 16-bit lanes whose products wrap, the low 8 bits
 * exact.
 */
#ifdef __SSE2__
typedef __m128i color8;  /* channels in 16-bit lanes 0..3 */
static inline __m128i lerp8(__m128i a, __m128i b, __m128i w)
{
	__m128i m = _mm_mullo_epi16(_mm_sub_epi16(b, a), w);
	m = _mm_srli_epi16(_mm_add_epi16(m, _mm_set1_epi16(128)), 8);
	return _mm_and_si128(_mm_add_epi16(a, m), _mm_set1_epi16(255));
}
static inline color8 texel8(const uint8_t *p)
{
	uint32_t word;
	memcpy(&word, p, 4);
	return _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)word), _mm_setzero_si128());
}
/* the 2x2 footprint: rows lerped by fx at once (lanes 0..3 row 0, 4..7 row 1), then by fy */
static inline color8 bilerp8(const uint8_t *t00, const uint8_t *t01, const uint8_t *t10,
			     const uint8_t *t11, int32_t fx, int32_t fy)
{
	const __m128i a = _mm_unpacklo_epi64(texel8(t00), texel8(t10));
	const __m128i b = _mm_unpacklo_epi64(texel8(t01), texel8(t11));
	const __m128i rows = lerp8(a, b, _mm_set1_epi16((short)fx));
	return lerp8(rows, _mm_unpackhi_epi64(rows, rows), _mm_set1_epi16((short)fy));
}
static inline color8 mip_lerp8(color8 c0, color8 c1, uint32_t w8)
{
	return lerp8(c0, c1, _mm_set1_epi16((short)w8));
}
static inline void store8(float out[4], color8 c)
{
	const __m128 f = _mm_cvtepi32_ps(_mm_unpacklo_epi16(c, _mm_setzero_si128()));
	_mm_storeu_ps(out, _mm_mul_ps(f, _mm_set1_ps(1.0f / 255.0f)));
}
#else
typedef struct { int32_t c[4]; } color8;
static inline color8 texel8(const uint8_t *p)
{
	color8 r = {{p[0], p[1], p[2], p[3]}};
	return r;
}
static inline color8 bilerp8(const uint8_t *t00, const uint8_t *t01, const uint8_t *t10,
			     const uint8_t *t11, int32_t fx, int32_t fy)
{
	color8 r;
	for (int c = 0; c < 4; c++)
		r.c[c] = tsr_lerp8(tsr_lerp8(t00[c], t01[c], fx), tsr_lerp8(t10[c], t11[c], fx), fy);
	return r;
}
static inline color8 mip_lerp8(color8 c0, color8 c1, uint32_t w8)
{
	for (int c = 0; c < 4; c++)
		c0.c[c] = tsr_lerp8(c0.c[c], c1.c[c], (int32_t)w8);
	return c0;
}
static inline void store8(float out[4], color8 c)
{
	for (int k = 0; k < 4; k++)
		out[k] = (float)c.c[k] * (1.0f / 255.0f);
}
#endif

/* One lane's color at one level (its texels' lines added to L). */
static inline __attribute__((always_inline)) color8
lane_color(const struct tsr_level *lv, int linear, const struct level_lanes *c, int lane,
	   struct line_list *L)
{
	const uint32_t width = lv->width;
	if (!linear) {
		const uint32_t x = c->x0[lane], y = c->y0[lane];
		list_add(L, texel_line(lv, x, y));
		return texel8(&lv->texels[((size_t)y * width + x) * 4]);
	}
	const uint32_t x0 = c->x0[lane], x1 = c->x1[lane], y0 = c->y0[lane], y1 = c->y1[lane];
	const uint8_t *r0 = &lv->texels[(size_t)y0 * width * 4];
	const uint8_t *r1 = &lv->texels[(size_t)y1 * width * 4];
	add_footprint_lines(L, lv->addr, lv->blocks_w, x0, x1, y0, y1);
	return bilerp8(r0 + x0 * 4, r0 + x1 * 4, r1 + x0 * 4, r1 + x1 * 4, c->fx[lane],
		       c->fy[lane]);
}

/* One lane's depth at one level, times weight. */
static inline __attribute__((always_inline)) float
lane_depth(const struct tsr_level *lv, int linear, const struct level_lanes *c, int lane,
	   float weight, struct line_list *L)
{
	const uint32_t width = lv->width;
	if (!linear) {
		const uint32_t x = c->x0[lane], y = c->y0[lane];
		list_add(L, texel_line(lv, x, y));
		return weight * lv->depth[(size_t)y * width + x];
	}
	const uint32_t x0 = c->x0[lane], x1 = c->x1[lane], y0 = c->y0[lane], y1 = c->y1[lane];
	const float *r0 = &lv->depth[(size_t)y0 * width], *r1 = &lv->depth[(size_t)y1 * width];
	add_footprint_lines(L, lv->addr, lv->blocks_w, x0, x1, y0, y1);
	float d = 0.0f;
	d += weight * c->w[0][lane] * r0[x0];
	d += weight * c->w[1][lane] * r0[x1];
	d += weight * c->w[2][lane] * r1[x0];
	d += weight * c->w[3][lane] * r1[x1];
	return d;
}

/*
 * The quad's sample at the chosen levels, coordinates prepared
 * (axis_prepare); the lines of each lane in texel order, level l0 before
 * l1. Always inlined so that the filter and the wraps are constants in
 * each specialisation.
 */
static inline __attribute__((always_inline)) void
sample_lanes(const struct tsr_texture *t, const struct level_choice *ch, int linear,
	     enum tsr_wrap ws, enum tsr_wrap wt, const float u[4], const float v[4],
	     float rgba[4][4], struct line_list *L)
{
	struct level_lanes c0, c1;
	const struct tsr_level *lv0 = &t->level[ch->l0], *lv1 = &t->level[ch->l1];
	if (t->depth) {  /* (d, d, d, 1): GL_OES_depth_texture's LUMINANCE-like result */
		const int two = ch->frac > 0.0f;
		level_coords(lv0, linear, 1, ws, wt, u, v, &c0);
		if (two)
			level_coords(lv1, linear, 1, ws, wt, u, v, &c1);
		for (int lane = 0; lane < 4; lane++) {
			float d = lane_depth(lv0, linear, &c0, lane, two ? 1.0f - ch->frac : 1.0f, L);
			if (two)
				d += lane_depth(lv1, linear, &c1, lane, ch->frac, L);
			rgba[lane][0] = rgba[lane][1] = rgba[lane][2] = d;
			rgba[lane][3] = 1.0f;
		}
		return;
	}
	const int two = ch->w8 > 0;
	level_coords(lv0, linear, 0, ws, wt, u, v, &c0);
	if (two)
		level_coords(lv1, linear, 0, ws, wt, u, v, &c1);
	for (int lane = 0; lane < 4; lane++) {
		color8 c = lane_color(lv0, linear, &c0, lane, L);
		if (two)
			c = mip_lerp8(c, lane_color(lv1, linear, &c1, lane, L), ch->w8);
		store8(rgba[lane], c);
	}
}

/*
 * The sample of a quad at the chosen levels: u, v the lanes' coordinates,
 * prepared for the sampler's wraps here.
 */
static inline void sample_quad_at(const struct tsr_texture *t, const struct tsr_sampler *s,
				  const struct level_choice *ch, const float u[4],
				  const float v[4], float rgba[4][4], struct tsr_texel_requests *req)
{
	float pu[4], pv[4];
	memcpy(pu, u, sizeof(pu));
	memcpy(pv, v, sizeof(pv));
	const enum tsr_wrap ws = axis_prepare(pu, s->wrap_s), wt = axis_prepare(pv, s->wrap_t);
	struct line_list L = {0, 0, UINT64_MAX, req->lines};
	/* specialised for the usual wraps (s and t alike) and filters */
	if (ws == TSR_WRAP_REPEAT && wt == TSR_WRAP_REPEAT) {
		if (ch->linear)
			sample_lanes(t, ch, 1, TSR_WRAP_REPEAT, TSR_WRAP_REPEAT, pu, pv, rgba, &L);
		else
			sample_lanes(t, ch, 0, TSR_WRAP_REPEAT, TSR_WRAP_REPEAT, pu, pv, rgba, &L);
	} else if (ws == TSR_WRAP_CLAMP && wt == TSR_WRAP_CLAMP) {
		if (ch->linear)
			sample_lanes(t, ch, 1, TSR_WRAP_CLAMP, TSR_WRAP_CLAMP, pu, pv, rgba, &L);
		else
			sample_lanes(t, ch, 0, TSR_WRAP_CLAMP, TSR_WRAP_CLAMP, pu, pv, rgba, &L);
	} else {
		sample_lanes(t, ch, ch->linear, ws, wt, pu, pv, rgba, &L);
	}
	req->texel_fetches = L.fetches;
	req->line_count = L.count;
}

struct tsr_sampler tsr_sampler_of_filter(enum tsr_filter filter, enum tsr_wrap wrap)
{
	struct tsr_sampler s;
	s.mag_filter = filter == TSR_FILTER_NEAREST ? TSR_TEX_NEAREST : TSR_TEX_LINEAR;
	s.min_filter = filter == TSR_FILTER_NEAREST ? TSR_TEX_NEAREST_MIPMAP_NEAREST
		       : filter == TSR_FILTER_BILINEAR ? TSR_TEX_LINEAR_MIPMAP_NEAREST
						       : TSR_TEX_LINEAR_MIPMAP_LINEAR;
	s.wrap_s = s.wrap_t = wrap == TSR_WRAP_CLAMP ? TSR_TEX_CLAMP_TO_EDGE : TSR_TEX_REPEAT;
	return s;
}

void tsr_texture_sample_quad(const struct tsr_texture *t, const struct tsr_sampler *s,
			     const float u[4], const float v[4], enum tsr_lod_mode mode,
			     float lod, float rgba[4][4], struct tsr_texel_requests *req)
{
	struct level_choice ch;
	choose_levels(t, s, mode == TSR_LOD_EXPLICIT ? 0.0f : lod_rho2(t, u, v), mode, lod, &ch);
	sample_quad_at(t, s, &ch, u, v, rgba, req);
}

/* ---- cube maps (OpenGL ES 2.0.25 3.7.5) ---- */

/*
 * The face of direction (rx, ry, rz): the major axis, ties to x before y
 * before z, its sign (>= 0: the positive face); faces in GL's order
 * (+X, -X, +Y, -Y, +Z, -Z). NaN directions fall to -Z.
 */
static inline uint32_t cube_face(float rx, float ry, float rz)
{
	const float ax = fabsf(rx), ay = fabsf(ry), az = fabsf(rz);
	if (ax >= ay && ax >= az)
		return rx >= 0.0f ? 0 : 1;
	if (ay >= az)
		return ry >= 0.0f ? 2 : 3;
	return rz >= 0.0f ? 4 : 5;
}

/*
 * The (s, t) of direction (rx, ry, rz) on face f: Table 3.21's sc, tc and
 * ma (here the signed component along the face's outward axis, |ma| for
 * directions whose face f is), s = (sc / ma + 1) / 2, t = (tc / ma + 1) / 2;
 * returns ma.
 */
static inline float cube_face_st(uint32_t f, float rx, float ry, float rz, float *s, float *t)
{
	float sc, tc, ma;
	switch (f) {
	case 0: sc = -rz; tc = -ry; ma = rx; break;
	case 1: sc = rz; tc = -ry; ma = -rx; break;
	case 2: sc = rx; tc = rz; ma = ry; break;
	case 3: sc = rx; tc = -rz; ma = -ry; break;
	case 4: sc = rx; tc = -ry; ma = rz; break;
	default: sc = -rx; tc = -ry; ma = -rz; break;
	}
	*s = 0.5f * (sc / ma + 1.0f);
	*t = 0.5f * (tc / ma + 1.0f);
	return ma;
}

void tsr_texture_sample_cube_quad(const struct tsr_texture *const faces[6],
				  const struct tsr_sampler *smp, const float s[4], const float t[4],
				  const float r[4], int ref_lane, enum tsr_lod_mode mode, float lod,
				  float rgba[4][4], struct tsr_texel_requests *req)
{
	uint32_t face[4];
	float u[4], v[4];
	for (int k = 0; k < 4; k++) {
		face[k] = cube_face(s[k], t[k], r[k]);
		cube_face_st(face[k], s[k], t[k], r[k], &u[k], &v[k]);
	}
	const uint32_t fr = face[ref_lane & 3];
	float rho2 = 0.0f;
	if (mode != TSR_LOD_EXPLICIT) {
		/* the derivatives of the lanes' coordinates projected on the
		 * reference lane's face (continuous across its edges); a lane
		 * behind that face's plane keeps its own */
		float pu[4], pv[4];
		for (int k = 0; k < 4; k++) {
			const float ma = cube_face_st(fr, s[k], t[k], r[k], &pu[k], &pv[k]);
			if (!(ma > 0.0f && isfinite(pu[k]) && isfinite(pv[k]))) {
				pu[k] = u[k];
				pv[k] = v[k];
			}
		}
		rho2 = lod_rho2(faces[fr], pu, pv);
	}
	/* a direction's texels stay on its face: CLAMP_TO_EDGE whatever the wraps */
	struct tsr_sampler clamped = *smp;
	clamped.wrap_s = clamped.wrap_t = TSR_TEX_CLAMP_TO_EDGE;
	struct level_choice ch;
	choose_levels(faces[fr], &clamped, rho2, mode, lod, &ch);
	if (face[0] == face[1] && face[0] == face[2] && face[0] == face[3]) {
		sample_quad_at(faces[face[0]], &clamped, &ch, u, v, rgba, req);
		return;
	}
	/* lanes on several faces: each face sampled for its lanes (the others
	 * repeat its first lane's coordinates, whose lines coalesce with it),
	 * the lines merged in first-use order */
	req->texel_fetches = 0;
	req->line_count = 0;
	uint32_t done = 0;
	for (int k = 0; k < 4; k++) {
		if (done >> k & 1)
			continue;
		const uint32_t f = face[k];
		float fu[4], fv[4], frgba[4][4];
		uint32_t lanes = 0, n = 0;
		for (int j = 0; j < 4; j++) {
			const int on = face[j] == f;
			fu[j] = on ? u[j] : u[k];
			fv[j] = on ? v[j] : v[k];
			lanes |= (uint32_t)on << j;
			n += (uint32_t)on;
		}
		done |= lanes;
		struct tsr_texel_requests fq;
		sample_quad_at(faces[f], &clamped, &ch, fu, fv, frgba, &fq);
		for (int j = 0; j < 4; j++)
			if (lanes >> j & 1)
				memcpy(rgba[j], frgba[j], sizeof(frgba[j]));
		/* every lane reads as many texels (one level choice a quad) */
		req->texel_fetches += fq.texel_fetches / 4 * n;
		for (uint32_t i = 0; i < fq.line_count; i++) {
			uint32_t m = 0;
			while (m < req->line_count && req->lines[m] != fq.lines[i])
				m++;
			if (m == req->line_count && m < TSR_QUAD_MAX_LINES)
				req->lines[req->line_count++] = fq.lines[i];
		}
	}
}
