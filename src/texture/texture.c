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

/* Level lv from level p, its previous one: the 2x2 box filter, edges
 * clamped (an odd size's last row or column is dropped, as floor(size / 2)
 * leaves it out). */
static void downsample(const struct tsr_level *p, struct tsr_level *lv)
{
	const uint32_t w = lv->width, h = lv->height;
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			uint32_t x0 = 2 * x, y0 = 2 * y;
			uint32_t x1 = x0 + 1 < p->width ? x0 + 1 : x0;
			uint32_t y1 = y0 + 1 < p->height ? y0 + 1 : y0;
			for (int c = 0; c < 4; c++) {
				uint32_t s = p->texels[((size_t)y0 * p->width + x0) * 4 + c] +
					     p->texels[((size_t)y0 * p->width + x1) * 4 + c] +
					     p->texels[((size_t)y1 * p->width + x0) * 4 + c] +
					     p->texels[((size_t)y1 * p->width + x1) * 4 + c];
				lv->texels[((size_t)y * w + x) * 4 + c] = (uint8_t)((s + 2) / 4);
			}
		}
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

#ifndef __SSE2__
/* (int32_t)floorf(x) for -2^23 < x < 2^23 */
static inline int32_t ifloor_small(float x)
{
	int32_t i = (int32_t)x;
	return i - ((float)i > x);
}
#endif

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

/*
 * acc[c] += wgt * (float)p[c] for the four channels: four lanes of one
 * SSE2 multiply and add (the same IEEE single-precision operations, each
 * rounded, in the same order per channel, as the scalar code).
 */
#ifdef __SSE2__
typedef __m128 acc4;
static inline acc4 acc_zero(void)
{
	return _mm_setzero_ps();
}
static inline acc4 acc_texel(acc4 acc, const uint8_t *p, float wgt)
{
	uint32_t word;
	memcpy(&word, p, 4);
	__m128i z = _mm_setzero_si128();
	__m128i b = _mm_cvtsi32_si128((int)word);
	__m128i d = _mm_unpacklo_epi16(_mm_unpacklo_epi8(b, z), z);
	return _mm_add_ps(acc, _mm_mul_ps(_mm_set1_ps(wgt), _mm_cvtepi32_ps(d)));
}
static inline void acc_store(float out[4], acc4 acc, float k)
{
	_mm_storeu_ps(out, _mm_mul_ps(acc, _mm_set1_ps(k)));
}
#else
typedef struct { float c[4]; } acc4;
static inline acc4 acc_zero(void)
{
	acc4 a = {{0, 0, 0, 0}};
	return a;
}
static inline acc4 acc_texel(acc4 acc, const uint8_t *p, float wgt)
{
	for (int c = 0; c < 4; c++)
		acc.c[c] += wgt * (float)p[c];
	return acc;
}
static inline void acc_store(float out[4], acc4 acc, float k)
{
	for (int c = 0; c < 4; c++)
		out[c] = acc.c[c] * k;
}
#endif

#ifndef __SSE2__
/*
 * Filters one level for one lane; accumulates weight * color into acc (a
 * depth texture: weight * depth into *dacc, acc untouched) and adds the
 * texels' lines to L in texel order. Always inlined so that the filter and
 * the wrap mode are constants in each specialisation.
 */
static inline __attribute__((always_inline)) void
sample_level(const struct tsr_texture *t, uint32_t level, int bilinear, enum tsr_wrap wrap,
	     float u, float v, float weight, acc4 *acc, float *dacc, struct line_list *L)
{
	const struct tsr_level *lv = &t->level[level];
	if (!isfinite(u))
		u = 0.0f;
	if (!isfinite(v))
		v = 0.0f;
	/* keep coordinates in a range where float->int is defined */
	if (wrap == TSR_WRAP_REPEAT) {
		u -= fast_floorf(u);
		v -= fast_floorf(v);
	} else {
		u = u < -1.0f ? -1.0f : (u > 2.0f ? 2.0f : u);
		v = v < -1.0f ? -1.0f : (v > 2.0f ? 2.0f : v);
	}
	/* |s|, |tt| <= 2 * 32768: integer floors are exact */
	float s = u * lv->fw, tt = v * lv->fh;
	const uint32_t width = lv->width;
	const uint64_t lbase = lv->addr;
	const uint32_t bw = lv->blocks_w;
	if (!bilinear) {
		int32_t x = wrap_coord(ifloor_small(s), width, wrap);
		int32_t y = wrap_coord(ifloor_small(tt), lv->height, wrap);
		if (dacc)
			*dacc += weight * lv->depth[(size_t)y * width + (uint32_t)x];
		else
			*acc = acc_texel(*acc, &lv->texels[((size_t)y * width + (uint32_t)x) * 4],
					 weight);
		list_add(L, lbase + ((uint64_t)((uint32_t)y >> 2) * bw + ((uint32_t)x >> 2)) *
					    TSR_TEXTURE_BLOCK_BYTES);
		return;
	}
	s -= 0.5f;
	tt -= 0.5f;
	/* s, tt >= -1.5 - 0.5 and never -0: (float)floor is floorf exactly */
	int32_t ix0 = ifloor_small(s), iy0 = ifloor_small(tt);
	float ax = s - (float)ix0, ay = tt - (float)iy0;
	uint32_t x0 = (uint32_t)wrap_coord(ix0, width, wrap);
	uint32_t x1 = (uint32_t)wrap_coord(ix0 + 1, width, wrap);
	uint32_t y0 = (uint32_t)wrap_coord(iy0, lv->height, wrap);
	uint32_t y1 = (uint32_t)wrap_coord(iy0 + 1, lv->height, wrap);
	float wx0 = 1.0f - ax, wy0 = 1.0f - ay;
	if (dacc) {
		const float *d0 = &lv->depth[(size_t)y0 * width], *d1 = &lv->depth[(size_t)y1 * width];
		*dacc += weight * wx0 * wy0 * d0[x0];
		*dacc += weight * ax * wy0 * d0[x1];
		*dacc += weight * wx0 * ay * d1[x0];
		*dacc += weight * ax * ay * d1[x1];
		add_footprint_lines(L, lbase, bw, x0, x1, y0, y1);
		return;
	}
	const uint8_t *r0 = &lv->texels[(size_t)y0 * width * 4];
	const uint8_t *r1 = &lv->texels[(size_t)y1 * width * 4];
	*acc = acc_texel(*acc, r0 + x0 * 4, weight * wx0 * wy0);
	*acc = acc_texel(*acc, r0 + x1 * 4, weight * ax * wy0);
	*acc = acc_texel(*acc, r1 + x0 * 4, weight * wx0 * ay);
	*acc = acc_texel(*acc, r1 + x1 * 4, weight * ax * ay);
	add_footprint_lines(L, lbase, bw, x0, x1, y0, y1);
}

#endif

#ifdef __SSE2__
/*
 * The four lanes' coordinate arithmetic of sample_level in SSE2, lane by
 * lane the same IEEE operations: non-finite coordinates become +0, floorf
 * is truncation corrected by one where it rounded up, with floorf's sign
 * of zero (and x itself where |x| >= 2^23, every such float being an
 * integer), the clamps are max/min (equal results for finite values).
 */
static inline __m128 v_floorf(__m128 x)
{
	const __m128 sign = _mm_set1_ps(-0.0f);
	const __m128 big = _mm_cmpnlt_ps(_mm_andnot_ps(sign, x), _mm_set1_ps(8388608.0f));
	__m128 t = _mm_cvtepi32_ps(_mm_cvttps_epi32(x));
	t = _mm_sub_ps(t, _mm_and_ps(_mm_cmpgt_ps(t, x), _mm_set1_ps(1.0f)));
	t = _mm_or_ps(_mm_andnot_ps(sign, t), _mm_and_ps(sign, x));
	return _mm_or_ps(_mm_and_ps(big, x), _mm_andnot_ps(big, t));
}

/* (int32_t)floorf(x) per lane for |x| < 2^23 */
static inline __m128i v_ifloor(__m128 x)
{
	__m128i i = _mm_cvttps_epi32(x);
	return _mm_add_epi32(i, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(i), x)));
}

/* One level's texel coordinates and weights for the four lanes. */
struct level_lanes {
	uint32_t x0[4], y0[4];  /* the wrapped texel (nearest) or first texel (bilinear) */
	uint32_t x1[4], y1[4];  /* bilinear: the wrapped second column and row */
	float w[4][4];          /* w[texel][lane]: the 2x2 weights (w[0]: nearest's) */
};

/* wrap_coord for four lanes, stored to out */
static inline __attribute__((always_inline)) void
v_wrap(__m128i c, uint32_t size, enum tsr_wrap wrap, uint32_t out[4])
{
	const __m128i last = _mm_set1_epi32((int32_t)size - 1);
	if (wrap == TSR_WRAP_CLAMP) {
		c = _mm_andnot_si128(_mm_cmpgt_epi32(_mm_setzero_si128(), c), c);  /* < 0: 0 */
		const __m128i over = _mm_cmpgt_epi32(c, last);                     /* >= size */
		c = _mm_or_si128(_mm_and_si128(over, last), _mm_andnot_si128(over, c));
	} else if (wrap == TSR_WRAP_REPEAT && (size & (size - 1)) == 0) {
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

static inline __attribute__((always_inline)) void
lanes_coords(const struct tsr_level *lv, int bilinear, enum tsr_wrap wrap, __m128 U, __m128 V,
	     float weight, struct level_lanes *o)
{
	if (wrap == TSR_WRAP_REPEAT) {
		U = _mm_sub_ps(U, v_floorf(U));
		V = _mm_sub_ps(V, v_floorf(V));
	} else {
		U = _mm_min_ps(_mm_max_ps(U, _mm_set1_ps(-1.0f)), _mm_set1_ps(2.0f));
		V = _mm_min_ps(_mm_max_ps(V, _mm_set1_ps(-1.0f)), _mm_set1_ps(2.0f));
	}
	__m128 S = _mm_mul_ps(U, _mm_set1_ps(lv->fw)), T = _mm_mul_ps(V, _mm_set1_ps(lv->fh));
	if (!bilinear) {
		v_wrap(v_ifloor(S), lv->width, wrap, o->x0);
		v_wrap(v_ifloor(T), lv->height, wrap, o->y0);
		_mm_storeu_ps(o->w[0], _mm_set1_ps(weight));
		return;
	}
	S = _mm_sub_ps(S, _mm_set1_ps(0.5f));
	T = _mm_sub_ps(T, _mm_set1_ps(0.5f));
	const __m128i IX = v_ifloor(S), IY = v_ifloor(T);
	const __m128 AX = _mm_sub_ps(S, _mm_cvtepi32_ps(IX)), AY = _mm_sub_ps(T, _mm_cvtepi32_ps(IY));
	const __m128 one = _mm_set1_ps(1.0f), W = _mm_set1_ps(weight);
	const __m128 WX0 = _mm_sub_ps(one, AX), WY0 = _mm_sub_ps(one, AY);
	const __m128i one_i = _mm_set1_epi32(1);
	v_wrap(IX, lv->width, wrap, o->x0);
	v_wrap(_mm_add_epi32(IX, one_i), lv->width, wrap, o->x1);
	v_wrap(IY, lv->height, wrap, o->y0);
	v_wrap(_mm_add_epi32(IY, one_i), lv->height, wrap, o->y1);
	_mm_storeu_ps(o->w[0], _mm_mul_ps(_mm_mul_ps(W, WX0), WY0));
	_mm_storeu_ps(o->w[1], _mm_mul_ps(_mm_mul_ps(W, AX), WY0));
	_mm_storeu_ps(o->w[2], _mm_mul_ps(_mm_mul_ps(W, WX0), AY));
	_mm_storeu_ps(o->w[3], _mm_mul_ps(_mm_mul_ps(W, AX), AY));
}

/* sample_level's texel reads and line requests for one lane. */
static inline __attribute__((always_inline)) void
lane_texels(const struct tsr_level *lv, int bilinear, enum tsr_wrap wrap,
	    const struct level_lanes *c, int lane, acc4 *acc, struct line_list *L)
{
	const uint32_t width = lv->width;
	const uint64_t lbase = lv->addr;
	const uint32_t bw = lv->blocks_w;
	(void)wrap;  /* applied in lanes_coords */
	if (!bilinear) {
		const uint32_t x = c->x0[lane], y = c->y0[lane];
		*acc = acc_texel(*acc, &lv->texels[((size_t)y * width + x) * 4], c->w[0][lane]);
		list_add(L, lbase + ((uint64_t)(y >> 2) * bw + (x >> 2)) * TSR_TEXTURE_BLOCK_BYTES);
		return;
	}
	const uint32_t x0 = c->x0[lane], x1 = c->x1[lane], y0 = c->y0[lane], y1 = c->y1[lane];
	const uint8_t *r0 = &lv->texels[(size_t)y0 * width * 4];
	const uint8_t *r1 = &lv->texels[(size_t)y1 * width * 4];
	*acc = acc_texel(*acc, r0 + x0 * 4, c->w[0][lane]);
	*acc = acc_texel(*acc, r0 + x1 * 4, c->w[1][lane]);
	*acc = acc_texel(*acc, r1 + x0 * 4, c->w[2][lane]);
	*acc = acc_texel(*acc, r1 + x1 * 4, c->w[3][lane]);
	add_footprint_lines(L, lbase, bw, x0, x1, y0, y1);
}

/* lane_texels of a depth texture: weight * depth into *d (its plane, in
 * float), the same lines. */
static inline __attribute__((always_inline)) void
lane_depth(const struct tsr_level *lv, int bilinear, const struct level_lanes *c, int lane,
	   float *d, struct line_list *L)
{
	const uint32_t width = lv->width;
	const uint64_t lbase = lv->addr;
	const uint32_t bw = lv->blocks_w;
	if (!bilinear) {
		const uint32_t x = c->x0[lane], y = c->y0[lane];
		*d += c->w[0][lane] * lv->depth[(size_t)y * width + x];
		list_add(L, lbase + ((uint64_t)(y >> 2) * bw + (x >> 2)) * TSR_TEXTURE_BLOCK_BYTES);
		return;
	}
	const uint32_t x0 = c->x0[lane], x1 = c->x1[lane], y0 = c->y0[lane], y1 = c->y1[lane];
	const float *r0 = &lv->depth[(size_t)y0 * width], *r1 = &lv->depth[(size_t)y1 * width];
	*d += c->w[0][lane] * r0[x0];
	*d += c->w[1][lane] * r0[x1];
	*d += c->w[2][lane] * r1[x0];
	*d += c->w[3][lane] * r1[x1];
	add_footprint_lines(L, lbase, bw, x0, x1, y0, y1);
}

static inline __attribute__((always_inline)) void
sample_lanes(const struct tsr_texture *t, int bilinear, enum tsr_wrap wrap, uint32_t l0,
	     uint32_t l1, int two, float frac, const float u[4], const float v[4],
	     float rgba[4][4], struct line_list *L, int depth)
{
	const float k = 1.0f / 255.0f;
	const __m128 sign = _mm_set1_ps(-0.0f), fmax = _mm_set1_ps(3.40282347e+38f);
	__m128 U = _mm_loadu_ps(u), V = _mm_loadu_ps(v);
	/* isfinite: |x| <= FLT_MAX (false for NaN and infinities) */
	U = _mm_and_ps(_mm_cmple_ps(_mm_andnot_ps(sign, U), fmax), U);
	V = _mm_and_ps(_mm_cmple_ps(_mm_andnot_ps(sign, V), fmax), V);
	struct level_lanes c0, c1;
	/* the levels' fields in locals: the request list's stores cannot
	 * alias them, so they are read once, not once a lane */
	const struct tsr_level lv0 = t->level[l0], lv1 = t->level[two ? l1 : l0];
	lanes_coords(&lv0, bilinear, wrap, U, V, two ? 1.0f - frac : 1.0f, &c0);
	if (two)
		lanes_coords(&lv1, bilinear, wrap, U, V, frac, &c1);
	if (depth) {  /* (d, d, d, 1): GL_OES_depth_texture's LUMINANCE-like result */
		for (int lane = 0; lane < 4; lane++) {
			float d = 0.0f;
			lane_depth(&lv0, bilinear, &c0, lane, &d, L);
			if (two)
				lane_depth(&lv1, bilinear, &c1, lane, &d, L);
			rgba[lane][0] = rgba[lane][1] = rgba[lane][2] = d;
			rgba[lane][3] = 1.0f;
		}
		return;
	}
	for (int lane = 0; lane < 4; lane++) {
		acc4 acc = acc_zero();
		lane_texels(&lv0, bilinear, wrap, &c0, lane, &acc, L);
		if (two)
			lane_texels(&lv1, bilinear, wrap, &c1, lane, &acc, L);
		acc_store(rgba[lane], acc, k);
	}
}
#else
static inline __attribute__((always_inline)) void
sample_lanes(const struct tsr_texture *t, int bilinear, enum tsr_wrap wrap, uint32_t l0,
	     uint32_t l1, int two, float frac, const float u[4], const float v[4],
	     float rgba[4][4], struct line_list *L, int depth)
{
	const float k = 1.0f / 255.0f;
	for (int lane = 0; lane < 4; lane++) {
		acc4 acc = acc_zero();
		float d = 0.0f, *dacc = depth ? &d : NULL;
		sample_level(t, l0, bilinear, wrap, u[lane], v[lane],
			     two ? 1.0f - frac : 1.0f, &acc, dacc, L);
		if (two)
			sample_level(t, l1, bilinear, wrap, u[lane], v[lane], frac, &acc, dacc, L);
		acc_store(rgba[lane], acc, k);
		if (dacc) {  /* (d, d, d, 1): GL_OES_depth_texture's LUMINANCE-like result */
			rgba[lane][0] = rgba[lane][1] = rgba[lane][2] = d;
			rgba[lane][3] = 1.0f;
		}
	}
}
#endif

/* The sample of tsr_texture_sample_quad() at a given level of detail. */
static inline void sample_quad_at(const struct tsr_texture *t, enum tsr_filter filter,
				  enum tsr_wrap wrap, const float u[4], const float v[4], float lod,
				  float rgba[4][4], struct tsr_texel_requests *req)
{
	float maxl = (float)(t->levels - 1);
	uint32_t l0, l1 = 0;
	float frac = 0.0f;
	int bilinear = filter != TSR_FILTER_NEAREST;
	int two = 0;
	if (filter == TSR_FILTER_TRILINEAR && lod > 0.0f && lod < maxl) {
		l0 = (uint32_t)fast_floorf(lod);
		l1 = l0 + 1;
		frac = lod - (float)l0;
		two = 1;
	} else {
		float r = fast_floorf(lod + 0.5f);
		r = r < 0.0f ? 0.0f : (r > maxl ? maxl : r);
		l0 = (uint32_t)r;
	}
	struct line_list L = {0, 0, UINT64_MAX, req->lines};
	/* specialised per filter, wrap mode and level count (two: trilinear
	 * between two levels, always bilinear) */
	if (t->depth) {  /* rare: one generic instance samples the depth plane */
		sample_lanes(t, bilinear, wrap, l0, l1, two, frac, u, v, rgba, &L, 1);
	} else if (wrap == TSR_WRAP_REPEAT) {
		if (two)
			sample_lanes(t, 1, TSR_WRAP_REPEAT, l0, l1, 1, frac, u, v, rgba, &L, 0);
		else if (bilinear)
			sample_lanes(t, 1, TSR_WRAP_REPEAT, l0, l1, 0, frac, u, v, rgba, &L, 0);
		else
			sample_lanes(t, 0, TSR_WRAP_REPEAT, l0, l1, 0, frac, u, v, rgba, &L, 0);
	} else if (wrap == TSR_WRAP_CLAMP) {
		if (two)
			sample_lanes(t, 1, TSR_WRAP_CLAMP, l0, l1, 1, frac, u, v, rgba, &L, 0);
		else if (bilinear)
			sample_lanes(t, 1, TSR_WRAP_CLAMP, l0, l1, 0, frac, u, v, rgba, &L, 0);
		else
			sample_lanes(t, 0, TSR_WRAP_CLAMP, l0, l1, 0, frac, u, v, rgba, &L, 0);
	} else {
		sample_lanes(t, bilinear, wrap, l0, l1, two, frac, u, v, rgba, &L, 0);
	}
	req->texel_fetches = L.fetches;
	req->line_count = L.count;
}

/* The quad's level of detail from its lanes (0 when rho^2 <= 1 or NaN). */
static inline float quad_lod(const struct tsr_texture *t, const float u[4], const float v[4])
{
	/* rho^2 <= 1 (or NaN): the LOD is at most 0 (log2f is monotonic and
	 * exact at 1), so level 0 alone whatever the filter, without log2f */
	const float rho2 = lod_rho2(t, u, v);
	return rho2 > 1.0f ? 0.5f * log2f(rho2) : 0.0f;
}

void tsr_texture_sample_quad(const struct tsr_texture *t,
			     enum tsr_filter filter, enum tsr_wrap wrap,
			     const float u[4], const float v[4],
			     float rgba[4][4], struct tsr_texel_requests *req)
{
	sample_quad_at(t, filter, wrap, u, v, quad_lod(t, u, v), rgba, req);
}

void tsr_texture_sample_quad_lod(const struct tsr_texture *t, enum tsr_filter filter,
				 enum tsr_wrap wrap, const float u[4], const float v[4],
				 float lod, int relative, float rgba[4][4],
				 struct tsr_texel_requests *req)
{
	if (relative)
		lod += quad_lod(t, u, v);
	if (!(lod == lod))  /* NaN: level 0 */
		lod = 0.0f;
	sample_quad_at(t, filter, wrap, u, v, lod, rgba, req);
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
				  enum tsr_filter filter, const float s[4], const float t[4],
				  const float r[4], int ref_lane, float lod, int relative,
				  float rgba[4][4], struct tsr_texel_requests *req)
{
	uint32_t face[4];
	float u[4], v[4];
	for (int k = 0; k < 4; k++) {
		face[k] = cube_face(s[k], t[k], r[k]);
		cube_face_st(face[k], s[k], t[k], r[k], &u[k], &v[k]);
	}
	if (relative) {
		/* the derivatives of the lanes' coordinates projected on the
		 * reference lane's face (continuous across its edges); a lane
		 * behind that face's plane keeps its own */
		float pu[4], pv[4];
		const uint32_t fr = face[ref_lane & 3];
		for (int k = 0; k < 4; k++) {
			const float ma = cube_face_st(fr, s[k], t[k], r[k], &pu[k], &pv[k]);
			if (!(ma > 0.0f && isfinite(pu[k]) && isfinite(pv[k]))) {
				pu[k] = u[k];
				pv[k] = v[k];
			}
		}
		lod += quad_lod(faces[fr], pu, pv);
	}
	if (!(lod == lod))  /* NaN: level 0 */
		lod = 0.0f;
	if (face[0] == face[1] && face[0] == face[2] && face[0] == face[3]) {
		sample_quad_at(faces[face[0]], filter, TSR_WRAP_CLAMP, u, v, lod, rgba, req);
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
		struct tsr_texel_requests fr;
		sample_quad_at(faces[f], filter, TSR_WRAP_CLAMP, fu, fv, lod, frgba, &fr);
		for (int j = 0; j < 4; j++)
			if (lanes >> j & 1)
				memcpy(rgba[j], frgba[j], sizeof(frgba[j]));
		/* every lane reads as many texels (one level choice a quad) */
		req->texel_fetches += fr.texel_fetches / 4 * n;
		for (uint32_t i = 0; i < fr.line_count; i++) {
			uint32_t m = 0;
			while (m < req->line_count && req->lines[m] != fr.lines[i])
				m++;
			if (m == req->line_count && m < TSR_QUAD_MAX_LINES)
				req->lines[req->line_count++] = fr.lines[i];
		}
	}
}
