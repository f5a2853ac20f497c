/*
 * blend.c - stage 4 of the Raster Pipeline (raster.h): late Z for
 * alpha-tested materials (alpha cutoff, then the depth test with depth
 * write) and blending into the window's on-chip color buffer (opaque and
 * alpha-tested: replace; alpha: source-over). No memory traffic for a
 * TBR tile (the color buffer is on chip until the tile flush); with a
 * memory backend (immediate mode, target_memory.c) late Z reads and
 * writes the Z buffer and blending the color buffer. A window without a
 * color buffer (color NULL: a pass drawing a depth render target) blends
 * nothing: late Z still writes depth, no color is written nor counted.
 */
#include "raster/raster_priv.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
	if (q->blend == TSR_BLEND_ALPHA_TEST) {
		const struct tsr_material *mat = q->shader->material;
		r->late_z_in_flight--;
		uint8_t keep = 0;
		for (int k = 0; k < 4; k++)
			if ((q->mask >> k & 1) && q->rgba[k][3] >= mat->alpha_cutoff)
				keep |= (uint8_t)(1 << k);
		rs->fragments_discarded += (uint64_t)(tsr_popcount4(q->mask) - tsr_popcount4(keep));
		q->mask = keep;
		if (keep) {
			q->mask = tsr_quad_depth_test(t, q, keep, 1);
			if (t->memory)
				tsr_target_depth_traffic(t->memory, q->x, q->y, q->mask != 0);
		}
		if (!keep || !q->mask) {
			rs->quads_late_z_killed++;
			if (wq)
				wq->color = tsr_worklog_since_mark(c->log);
			return;
		}
	}
	if (!t->color) {  /* a depth-only pass (depth render target): no color attachment */
		if (wq)
			wq->color = tsr_worklog_since_mark(c->log);
		return;
	}
	for (int k = 0; k < 4; k++) {
		if (!(q->mask >> k & 1))
			continue;
		uint32_t bx = (uint32_t)(q->x + (k & 1) - t->x0);
		uint32_t by = (uint32_t)(q->y + (k >> 1) - t->y0);
		float *dst = &t->color[((size_t)by * t->stride + bx) * 4];
		if (q->blend == TSR_BLEND_ALPHA) {
			float a = q->rgba[k][3];
			a = a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
#ifdef __SSE2__
			/* (rgb * a, a) + dst * (1 - a): the same products and
			 * sums per channel (an IEEE sum is commutative) */
			const __m128 alpha_lane = _mm_castsi128_ps(_mm_setr_epi32(0, 0, 0, -1));
			__m128 src = _mm_mul_ps(_mm_loadu_ps(q->rgba[k]), _mm_set1_ps(a));
			src = _mm_or_ps(_mm_andnot_ps(alpha_lane, src),
					_mm_and_ps(alpha_lane, _mm_set1_ps(a)));
			_mm_storeu_ps(dst, _mm_add_ps(src, _mm_mul_ps(_mm_loadu_ps(dst),
								      _mm_set1_ps(1.0f - a))));
#else
			for (int i = 0; i < 3; i++)
				dst[i] = q->rgba[k][i] * a + dst[i] * (1.0f - a);
			dst[3] = a + dst[3] * (1.0f - a);
#endif
		} else {
			memcpy(dst, q->rgba[k], sizeof(q->rgba[k]));
		}
		rs->pixels_written++;
	}
	if (t->memory && q->mask)
		tsr_target_color_traffic(t->memory, q->x, q->y, q->blend == TSR_BLEND_ALPHA);
	if (wq)
		wq->color = tsr_worklog_since_mark(c->log);
}
