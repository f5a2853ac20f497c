/*
 * dxt.c - S3TC block decoding and a simple encoding (dxt.h).
 */
#include "texture/dxt.h"

#include <string.h>

unsigned tsr_dxt_block_bytes(enum tsr_dxt_format f)
{
	return f == TSR_DXT1_RGB || f == TSR_DXT1_RGBA ? 8u : 16u;
}

static void rgb565(uint16_t c, uint8_t out[4])
{
	const unsigned r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
	out[0] = (uint8_t)((r << 3) | (r >> 2));
	out[1] = (uint8_t)((g << 2) | (g >> 4));
	out[2] = (uint8_t)((b << 3) | (b >> 2));
	out[3] = 255;
}

/* The four colors of a color block with endpoints c0, c1; four-color mode
 * when c0 > c1 or always (DXT3, DXT5); else index 3 is black, transparent
 * for RGBA DXT1. */
static void color_palette(enum tsr_dxt_format f, uint16_t c0, uint16_t c1, uint8_t pal[4][4])
{
	rgb565(c0, pal[0]);
	rgb565(c1, pal[1]);
	const int four = c0 > c1 || f == TSR_DXT3 || f == TSR_DXT5;
	for (int k = 0; k < 3; k++) {
		const unsigned a = pal[0][k], b = pal[1][k];
		if (four) {
			pal[2][k] = (uint8_t)((2 * a + b) / 3);
			pal[3][k] = (uint8_t)((a + 2 * b) / 3);
		} else {
			pal[2][k] = (uint8_t)((a + b) / 2);
			pal[3][k] = 0;
		}
	}
	pal[2][3] = 255;
	pal[3][3] = (uint8_t)(!four && f == TSR_DXT1_RGBA ? 0 : 255);
}

/* The eight alphas of a DXT5 alpha block. */
static void alpha_palette(unsigned a0, unsigned a1, uint8_t pal[8])
{
	pal[0] = (uint8_t)a0;
	pal[1] = (uint8_t)a1;
	if (a0 > a1) {
		for (unsigned k = 2; k < 8; k++)
			pal[k] = (uint8_t)(((8 - k) * a0 + (k - 1) * a1) / 7);
	} else {
		for (unsigned k = 2; k < 6; k++)
			pal[k] = (uint8_t)(((6 - k) * a0 + (k - 1) * a1) / 5);
		pal[6] = 0;
		pal[7] = 255;
	}
}

static uint64_t le64(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void tsr_dxt_decode_block(enum tsr_dxt_format f, const uint8_t *block, uint8_t rgba[16][4])
{
	const uint8_t *color = f == TSR_DXT3 || f == TSR_DXT5 ? block + 8 : block;
	uint8_t pal[4][4];
	color_palette(f, (uint16_t)le64(color, 2), (uint16_t)le64(color + 2, 2), pal);
	const uint32_t idx = (uint32_t)le64(color + 4, 4);
	for (int i = 0; i < 16; i++)
		memcpy(rgba[i], pal[(idx >> (2 * i)) & 3], 4);
	if (f == TSR_DXT3) {
		const uint64_t a = le64(block, 8);
		for (int i = 0; i < 16; i++)
			rgba[i][3] = (uint8_t)(((a >> (4 * i)) & 15) * 17);
	} else if (f == TSR_DXT5) {
		uint8_t apal[8];
		alpha_palette(block[0], block[1], apal);
		const uint64_t a = le64(block + 2, 6);
		for (int i = 0; i < 16; i++)
			rgba[i][3] = apal[(a >> (3 * i)) & 7];
	}
}

static uint16_t to565(const uint8_t c[3])
{
	const unsigned r = (c[0] * 31u + 127) / 255, g = (c[1] * 63u + 127) / 255,
		       b = (c[2] * 31u + 127) / 255;
	return (uint16_t)((r << 11) | (g << 5) | b);
}

static unsigned dist2(const uint8_t a[4], const uint8_t b[4])
{
	unsigned d = 0;
	for (int k = 0; k < 3; k++) {
		const int e = (int)a[k] - (int)b[k];
		d += (unsigned)(e * e);
	}
	return d;
}

void tsr_dxt_encode_block(enum tsr_dxt_format f, const uint8_t rgba[16][4], uint8_t *block)
{
	uint8_t *color = f == TSR_DXT3 || f == TSR_DXT5 ? block + 8 : block;
	/* the endpoints: the two (opaque) texels farthest apart */
	int transparent = 0, e0 = -1, e1 = -1;
	unsigned far = 0;
	for (int i = 0; i < 16; i++) {
		if (f == TSR_DXT1_RGBA && rgba[i][3] < 128) {
			transparent = 1;
			continue;
		}
		if (e0 < 0)
			e0 = e1 = i;
		for (int j = 0; j < i; j++) {
			if (f == TSR_DXT1_RGBA && rgba[j][3] < 128)
				continue;
			const unsigned d = dist2(rgba[i], rgba[j]);
			if (d > far) {
				far = d;
				e0 = j;
				e1 = i;
			}
		}
	}
	static const uint8_t black[4] = {0, 0, 0, 0};
	uint16_t c0 = to565(e0 < 0 ? black : rgba[e0]), c1 = to565(e1 < 0 ? black : rgba[e1]);
	/* four-color mode: c0 > c1 (or equal: one color); three-color mode for
	 * transparent texels: c0 <= c1 */
	if ((c0 < c1) != (transparent != 0) && c0 != c1) {
		const uint16_t t = c0;
		c0 = c1;
		c1 = t;
	}
	uint8_t pal[4][4];
	color_palette(f, c0, c1, pal);
	const int three = !(c0 > c1 || f == TSR_DXT3 || f == TSR_DXT5);
	uint32_t idx = 0;
	for (int i = 0; i < 16; i++) {
		unsigned best = 0;
		if (transparent && rgba[i][3] < 128) {
			best = 3;
		} else {
			unsigned bd = ~0u;
			/* index 3 of the three-color mode is black: transparent
			 * for RGBA DXT1, kept for its opaque texels */
			const unsigned n = three && f == TSR_DXT1_RGBA ? 3 : 4;
			for (unsigned k = 0; k < n; k++) {
				const unsigned d = dist2(rgba[i], pal[k]);
				if (d < bd) {
					bd = d;
					best = k;
				}
			}
		}
		idx |= (uint32_t)best << (2 * i);
	}
	put_le(color, c0, 2);
	put_le(color + 2, c1, 2);
	put_le(color + 4, idx, 4);
	if (f == TSR_DXT3) {
		uint64_t a = 0;
		for (int i = 0; i < 16; i++)
			a |= (uint64_t)((rgba[i][3] * 15u + 127) / 255) << (4 * i);
		put_le(block, a, 8);
	} else if (f == TSR_DXT5) {
		unsigned amin = 255, amax = 0;
		for (int i = 0; i < 16; i++) {
			if (rgba[i][3] < amin)
				amin = rgba[i][3];
			if (rgba[i][3] > amax)
				amax = rgba[i][3];
		}
		uint8_t apal[8];
		alpha_palette(amax, amin, apal);
		uint64_t a = 0;
		for (int i = 0; i < 16; i++) {
			unsigned best = 0, bd = ~0u;
			for (unsigned k = 0; k < 8; k++) {
				const int e = (int)rgba[i][3] - (int)apal[k];
				const unsigned d = (unsigned)(e * e);
				if (d < bd) {
					bd = d;
					best = k;
				}
			}
			a |= (uint64_t)best << (3 * i);
		}
		block[0] = (uint8_t)amax;
		block[1] = (uint8_t)amin;
		put_le(block + 2, a, 6);
	}
}
