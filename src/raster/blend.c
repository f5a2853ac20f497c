/*
 * blend.c - stage 4 of the Raster Pipeline (raster.h): late Z for
 * programs that discard (the alpha cutoff, then the stencil test with its
 * ops and the depth test with its write mask) and blending into the window's on-chip color buffer by the
 * draw's state (GL ES 2.0 4.1.6, 4.2.2): off (replace), source-over
 * (SSE2), or any factors (GL_EXT_blend_func_extended's SRC1 ones with the
 * quad's second source color, which never leaves the shader core: no
 * traffic of its own), equations and color mask. No memory traffic for a
 * TBR tile (the color buffer is on chip until the tile flush); with a
 * memory backend (immediate mode, target_memory.c) late Z reads and
 * writes the Z buffer (depth, or D24S8 depth and stencil) and blending
 * the color buffer. Each color target the draw writes (GL_EXT_draw_buffers:
 * the window's target 0 and mrt[0..2], selected by the binding's
 * draw_buffers) blends its own color with the one blend state and color
 * mask, and makes its own traffic. A window without a color buffer (color NULL: a pass drawing a depth render target) blends
 * nothing: late Z still writes depth, no color is written nor counted.
 */
#include "raster/raster_priv.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

static inline float clamp01(float v)
{
	return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;  /* NaN -> 0 */
}

/* Blend factor f of channel ch (GL ES 2.0 table 4.1, with
 * GL_EXT_blend_func_extended's SRC1 factors): source s, second source s1,
 * destination d, constant color k, each clamped to [0, 1]. */
static float blend_factor(uint8_t f, int ch, const float s[4], const float s1[4],
			  const float d[4], const float k[4])
{
	switch (f) {
	case TSR_BLEND_ZERO: return 0.0f;
	case TSR_BLEND_ONE: return 1.0f;
	case TSR_BLEND_SRC_COLOR: return s[ch];
	case TSR_BLEND_ONE_MINUS_SRC_COLOR: return 1.0f - s[ch];
	case TSR_BLEND_DST_COLOR: return d[ch];
	case TSR_BLEND_ONE_MINUS_DST_COLOR: return 1.0f - d[ch];
	case TSR_BLEND_SRC_ALPHA: return s[3];
	case TSR_BLEND_ONE_MINUS_SRC_ALPHA: return 1.0f - s[3];
	case TSR_BLEND_DST_ALPHA: return d[3];
	case TSR_BLEND_ONE_MINUS_DST_ALPHA: return 1.0f - d[3];
	case TSR_BLEND_CONSTANT_COLOR: return k[ch];
	case TSR_BLEND_ONE_MINUS_CONSTANT_COLOR: return 1.0f - k[ch];
	case TSR_BLEND_CONSTANT_ALPHA: return k[3];
	case TSR_BLEND_ONE_MINUS_CONSTANT_ALPHA: return 1.0f - k[3];
	case TSR_BLEND_SRC1_COLOR: return s1[ch];
	case TSR_BLEND_ONE_MINUS_SRC1_COLOR: return 1.0f - s1[ch];
	case TSR_BLEND_SRC1_ALPHA: return s1[3];
	case TSR_BLEND_ONE_MINUS_SRC1_ALPHA: return 1.0f - s1[3];
	default: /* SRC_ALPHA_SATURATE: min(As, 1 - Ad) for rgb, 1 for alpha */
		return ch < 3 ? (s[3] < 1.0f - d[3] ? s[3] : 1.0f - d[3]) : 1.0f;
	}
}

/*
 * Blending of one pixel by its draw's factors and equations (GL ES 2.0
 * 4.1.6) and color mask (4.2.2) for what the SSE2 paths do not cover. The
 * color buffer is fixed-point: source, destination and constant color are
 * clamped to [0, 1], and so is the result; with blending off the source
 * is written (the channels the mask keeps stay as they were).
 */
static void blend_general(const struct tsr_shader_binding *b, const float src[4],
			  const float src1[4], float *dst)
{
	float s[4], d[4], k[4], out[4];
	for (int i = 0; i < 4; i++) {
		s[i] = clamp01(src[i]);
		d[i] = clamp01(dst[i]);
		k[i] = clamp01(b->blend.color[i]);
	}
	if (b->blend_path == TSR_BLEND_PATH_REPLACE) {
		memcpy(out, src, sizeof(out));
	} else {
		for (int i = 0; i < 4; i++) {
			const int a = i == 3;
			const float sf = blend_factor(a ? b->blend.src_alpha : b->blend.src_rgb, i, s,
						      src1, d, k);
			const float df = blend_factor(a ? b->blend.dst_alpha : b->blend.dst_rgb, i, s,
						      src1, d, k);
			const uint8_t eq = a ? b->blend.eq_alpha : b->blend.eq_rgb;
			const float v = eq == TSR_BLEND_EQ_SUBTRACT ? s[i] * sf - d[i] * df :
					eq == TSR_BLEND_EQ_REVERSE_SUBTRACT ? d[i] * df - s[i] * sf :
					s[i] * sf + d[i] * df;
			out[i] = clamp01(v);
		}
	}
	for (int i = 0; i < 4; i++)
		if (b->color_mask >> i & 1)
			dst[i] = out[i];
}

static void blend_target(const struct tsr_quad *q, const float rgba[4][4], float *color,
			 const struct tsr_target *t, struct tsr_raster_stats *rs);

enum tsr_stage_result tsr_raster_blend(struct tsr_raster *r,
				       const struct tsr_raster_ctx *c)
{
	struct tsr_quad *q = tsr_quad_queue_front(&r->blend);
	if (!q)
		return TSR_STAGE_IDLE;
	tsr_quad_queue_pop(&r->blend);  /* the slot stays valid until the next push */
	tsr_raster_blend_quad(r, q, c);
	return TSR_STAGE_DONE;
}

void tsr_raster_blend_quad(struct tsr_raster *r, struct tsr_quad *q,
			   const struct tsr_raster_ctx *c)
{
	struct tsr_target *t = c->target;
	struct tsr_raster_stats *rs = c->rs;
	/* timing mode with a memory backend: the quad's late-Z and color paths
	 * are its color range (its record follows from seq, as in shading) */
	struct tsr_wl_quad *wq = NULL;
	if (t->memory && c->log && (uint32_t)(q->seq - c->log->seq_base) < c->log->quad_count) {
		wq = &c->log->quads[q->seq - c->log->seq_base];
		tsr_worklog_mark(c->log);
	}
	if (tsr_quad_late_z(q)) {
		const float cutoff = q->shader->alpha_cutoff;
		r->late_z_in_flight--;
		uint8_t keep = 0;
		for (int k = 0; k < 4; k++)
			if ((q->mask >> k & 1) && q->rgba[k][3] >= cutoff)
				keep |= (uint8_t)(1 << k);
		rs->fragments_discarded += (uint64_t)(tsr_popcount4(q->mask) - tsr_popcount4(keep));
		q->mask = keep;
		if (keep && (q->mode & TSR_QUAD_STENCIL)) {
			int written = 0;
			q->mask = tsr_quad_depth_stencil_test(t, q, keep, &written);
			if (t->memory)
				tsr_target_depth_traffic(t->memory, q->x, q->y, written);
		} else if (keep && (q->mode & TSR_QUAD_DEPTH_TEST)) {
			const int write = (q->mode & TSR_QUAD_DEPTH_WRITE) != 0;
			q->mask = tsr_quad_depth_test(t, q, keep, write);
			if (t->memory)
				tsr_target_depth_traffic(t->memory, q->x, q->y, write && q->mask != 0);
		}
		if (!keep || !q->mask) {
			rs->quads_late_z_killed++;
			if (wq)
				wq->color = tsr_worklog_since_mark(c->log);
			return;
		}
	}
	/* each color target the draw writes (GL_EXT_draw_buffers: one blend
	 * state and color mask for all; a pass of one target has target 0
	 * alone), its own colors; none in a depth-only pass (a depth render
	 * target: no color attachment) */
	const uint8_t targets = q->shader->draw_buffers;
	if (t->color && (targets & 1)) {
		blend_target(q, q->rgba, t->color, t, rs);
		if (t->memory && q->mask)
			tsr_target_color_traffic(t->memory, q->x, q->y,
						 (q->mode & TSR_QUAD_READS_COLOR) != 0);
	}
	for (uint32_t i = 1; (targets >> 1) && i < TSR_MAX_DRAW_BUFFERS; i++) {
		if (!t->mrt[i - 1] || !(targets >> i & 1))
			continue;
		blend_target(q, q->mrt[i - 1], t->mrt[i - 1], t, rs);
		if (t->memory && q->mask)
			tsr_target_mrt_traffic(t->memory, i, q->x, q->y,
					       (q->mode & TSR_QUAD_READS_COLOR) != 0);
	}
	if (wq)
		wq->color = tsr_worklog_since_mark(c->log);
}

/* Blends quad q's surviving pixels, of colors rgba, into color buffer
 * `color` (laid out as the window's: stride pixels a row, RGBA floats)
 * by its draw's blend state and color mask; counts pixels_written. */
static void blend_target(const struct tsr_quad *q, const float rgba[4][4], float *color,
			 const struct tsr_target *t, struct tsr_raster_stats *rs)
{
	for (int k = 0; k < 4; k++) {
		if (!(q->mask >> k & 1))
			continue;
		uint32_t bx = (uint32_t)(q->x + (k & 1) - t->x0);
		uint32_t by = (uint32_t)(q->y + (k >> 1) - t->y0);
		float *dst = &color[((size_t)by * t->stride + bx) * 4];
		if (q->mode & TSR_QUAD_SRC_OVER) {
			float a = rgba[k][3];
			a = a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
#ifdef __SSE2__
			/* (rgb * a, a) + dst * (1 - a): the same products and
			 * sums per channel (an IEEE sum is commutative) */
			const __m128 alpha_lane = _mm_castsi128_ps(_mm_setr_epi32(0, 0, 0, -1));
			__m128 src = _mm_mul_ps(_mm_loadu_ps(rgba[k]), _mm_set1_ps(a));
			src = _mm_or_ps(_mm_andnot_ps(alpha_lane, src),
					_mm_and_ps(alpha_lane, _mm_set1_ps(a)));
			_mm_storeu_ps(dst, _mm_add_ps(src, _mm_mul_ps(_mm_loadu_ps(dst),
								      _mm_set1_ps(1.0f - a))));
#else
			for (int i = 0; i < 3; i++)
				dst[i] = rgba[k][i] * a + dst[i] * (1.0f - a);
			dst[3] = a + dst[3] * (1.0f - a);
#endif
		} else if (q->mode & TSR_QUAD_GENERAL) {
			blend_general(q->shader, rgba[k], q->src1[k], dst);
		} else {
			memcpy(dst, rgba[k], sizeof(rgba[k]));
		}
		rs->pixels_written++;
	}
}
