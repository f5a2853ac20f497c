#include "texture/texture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct tsr_level {
	uint32_t width, height;
	uint32_t blocks_w;       /* blocks per row */
	uint64_t offset;         /* byte offset of the level from level 0 */
	uint8_t *texels;         /* width * height * 4, row-major */
};

struct tsr_texture {
	uint32_t levels;
	uint64_t base;
	uint64_t footprint;
	struct tsr_level level[TSR_TEXTURE_MAX_LEVELS];
};

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
	uint32_t w = img->width, h = img->height;
	uint64_t off = 0;
	for (uint32_t l = 0; l < TSR_TEXTURE_MAX_LEVELS; l++) {
		struct tsr_level *lv = &t->level[l];
		lv->width = w;
		lv->height = h;
		lv->blocks_w = (w + TSR_TEXTURE_BLOCK - 1) / TSR_TEXTURE_BLOCK;
		lv->offset = off;
		uint32_t blocks_h = (h + TSR_TEXTURE_BLOCK - 1) / TSR_TEXTURE_BLOCK;
		off += (uint64_t)lv->blocks_w * blocks_h * TSR_TEXTURE_BLOCK_BYTES;
		lv->texels = malloc((size_t)w * h * 4);
		if (!lv->texels) {
			tsr_texture_destroy(t);
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a texture");
		}
		t->levels = l + 1;
		if (l == 0) {
			memcpy(lv->texels, img->rgba, (size_t)w * h * 4);
		} else {
			/* 2x2 box filter of the previous level, edges clamped */
			const struct tsr_level *p = &t->level[l - 1];
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
		if ((w == 1 && h == 1) || img->render_target)
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
	for (uint32_t l = 0; l < t->levels; l++)
		free(t->level[l].texels);
	free(t);
}

void tsr_texture_write_rect(struct tsr_texture *t, uint32_t x0, uint32_t y0, uint32_t w,
			    uint32_t h, const uint8_t *rgba, uint32_t pitch_bytes)
{
	struct tsr_level *lv = &t->level[0];
	if (x0 >= lv->width || y0 >= lv->height)
		return;
	if (w > lv->width - x0)
		w = lv->width - x0;
	if (h > lv->height - y0)
		h = lv->height - y0;
	for (uint32_t y = 0; y < h; y++)
		memcpy(&lv->texels[((size_t)(y0 + y) * lv->width + x0) * 4],
		       &rgba[(size_t)y * pitch_bytes], (size_t)w * 4);
}

uint64_t tsr_texture_footprint_bytes(const struct tsr_texture *t)
{
	return t->footprint;
}

void tsr_texture_set_base(struct tsr_texture *t, uint64_t base)
{
	t->base = base;
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

float tsr_texture_lod(const struct tsr_texture *t, const float u[4],
		      const float v[4])
{
	float w = (float)t->level[0].width, h = (float)t->level[0].height;
	float dudx = (u[1] - u[0]) * w, dvdx = (v[1] - v[0]) * h;
	float dudy = (u[2] - u[0]) * w, dvdy = (v[2] - v[0]) * h;
	float rx = dudx * dudx + dvdx * dvdx;
	float ry = dudy * dudy + dvdy * dvdy;
	float rho2 = rx > ry ? rx : ry;
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

static inline void add_line(struct tsr_texel_requests *req, uint64_t addr)
{
	uint64_t line = addr & ~(uint64_t)(TSR_TEXTURE_BLOCK_BYTES - 1);
	req->texel_fetches++;
	/* neighbouring texels mostly share the line added last: look there first */
	if (req->line_count && req->lines[req->line_count - 1] == line)
		return;
	for (uint32_t i = 0; i < req->line_count; i++)
		if (req->lines[i] == line)
			return;
	req->lines[req->line_count++] = line;
}

/* Filters one level for one lane; accumulates weight * color into acc. */
static void sample_level(const struct tsr_texture *t, uint32_t level,
			 int bilinear, enum tsr_wrap wrap, float u, float v,
			 float weight, float acc[4],
			 struct tsr_texel_requests *req)
{
	const struct tsr_level *lv = &t->level[level];
	if (!isfinite(u))
		u = 0.0f;
	if (!isfinite(v))
		v = 0.0f;
	/* keep coordinates in a range where float->int is defined */
	if (wrap == TSR_WRAP_REPEAT) {
		u -= floorf(u);
		v -= floorf(v);
	} else {
		u = u < -1.0f ? -1.0f : (u > 2.0f ? 2.0f : u);
		v = v < -1.0f ? -1.0f : (v > 2.0f ? 2.0f : v);
	}
	float s = u * (float)lv->width, tt = v * (float)lv->height;
	if (!bilinear) {
		int32_t x = wrap_coord((int32_t)floorf(s), lv->width, wrap);
		int32_t y = wrap_coord((int32_t)floorf(tt), lv->height, wrap);
		const uint8_t *p = &lv->texels[((size_t)y * lv->width + x) * 4];
		for (int c = 0; c < 4; c++)
			acc[c] += weight * (float)p[c];
		add_line(req, texel_addr(t, lv, (uint32_t)x, (uint32_t)y));
		return;
	}
	s -= 0.5f;
	tt -= 0.5f;
	float fx0 = floorf(s), fy0 = floorf(tt);
	float ax = s - fx0, ay = tt - fy0;
	int32_t xs[2] = {wrap_coord((int32_t)fx0, lv->width, wrap),
			 wrap_coord((int32_t)fx0 + 1, lv->width, wrap)};
	int32_t ys[2] = {wrap_coord((int32_t)fy0, lv->height, wrap),
			 wrap_coord((int32_t)fy0 + 1, lv->height, wrap)};
	float wx[2] = {1.0f - ax, ax}, wy[2] = {1.0f - ay, ay};
	for (int j = 0; j < 2; j++)
		for (int i = 0; i < 2; i++) {
			const uint8_t *p = &lv->texels[((size_t)ys[j] * lv->width + xs[i]) * 4];
			float wgt = weight * wx[i] * wy[j];
			for (int c = 0; c < 4; c++)
				acc[c] += wgt * (float)p[c];
			add_line(req, texel_addr(t, lv, (uint32_t)xs[i], (uint32_t)ys[j]));
		}
}

void tsr_texture_sample_quad(const struct tsr_texture *t,
			     enum tsr_filter filter, enum tsr_wrap wrap,
			     const float u[4], const float v[4],
			     float rgba[4][4], struct tsr_texel_requests *req)
{
	float lod = tsr_texture_lod(t, u, v);
	float maxl = (float)(t->levels - 1);
	uint32_t l0, l1 = 0;
	float frac = 0.0f;
	int bilinear = filter != TSR_FILTER_NEAREST;
	int two = 0;
	if (filter == TSR_FILTER_TRILINEAR && lod > 0.0f && lod < maxl) {
		l0 = (uint32_t)floorf(lod);
		l1 = l0 + 1;
		frac = lod - (float)l0;
		two = 1;
	} else {
		float r = floorf(lod + 0.5f);
		r = r < 0.0f ? 0.0f : (r > maxl ? maxl : r);
		l0 = (uint32_t)r;
	}
	req->texel_fetches = 0;
	req->line_count = 0;
	const float k = 1.0f / 255.0f;
	for (int lane = 0; lane < 4; lane++) {
		float acc[4] = {0, 0, 0, 0};
		sample_level(t, l0, bilinear, wrap, u[lane], v[lane],
			     two ? 1.0f - frac : 1.0f, acc, req);
		if (two)
			sample_level(t, l1, bilinear, wrap, u[lane], v[lane], frac,
				     acc, req);
		for (int c = 0; c < 4; c++)
			rgba[lane][c] = acc[c] * k;
	}
}
