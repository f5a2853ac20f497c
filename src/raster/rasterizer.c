/*
 * rasterizer.c - stage 1 of the Raster Pipeline (raster.h): a primitive
 * becomes the 2x2 quads that cover it inside the window, with depth and
 * screen-space barycentrics per pixel (TCOR II-A). Edge functions in
 * 1/256-pixel fixed point, top-left fill rule (bottom-left in a bottom-up
 * target's rows: GL's rule in its window coordinates, y up).
 */
#include "raster/raster_priv.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum tsr_stage_result tsr_raster_rasterize(struct tsr_raster *r,
					   const struct tsr_raster_ctx *c)
{
	const struct tsr_raster_prim *item = tsr_prim_queue_front(&r->prims);
	if (!item)
		return TSR_STAGE_IDLE;
	const struct tsr_primitive *p = item->prim;
	const struct tsr_target *t = c->target;
	const int64_t one = 1 << TSR_SUBPIXEL_BITS, half = one / 2;
	int32_t x0 = p->min_x > t->x0 ? p->min_x : t->x0;
	int32_t y0 = p->min_y > t->y0 ? p->min_y : t->y0;
	int32_t x1 = p->max_x < t->x0 + (int32_t)t->width - 1 ? p->max_x : t->x0 + (int32_t)t->width - 1;
	int32_t y1 = p->max_y < t->y0 + (int32_t)t->height - 1 ? p->max_y : t->y0 + (int32_t)t->height - 1;
	const struct tsr_shader_binding *sb = item->shader;
	if (sb->scissor) {  /* the scissor test (GL ES 2.0 4.1.2): outside the box, no quad */
		x0 = x0 > sb->scissor_x0 ? x0 : sb->scissor_x0;
		y0 = y0 > sb->scissor_y0 ? y0 : sb->scissor_y0;
		x1 = x1 < sb->scissor_x1 ? x1 : sb->scissor_x1;
		y1 = y1 < sb->scissor_y1 ? y1 : sb->scissor_y1;
	}
	if (x0 > x1 || y0 > y1) {
		if (c->log)
			tsr_worklog_prim(c->log, p->attributes, 0);
		tsr_prim_queue_pop(&r->prims);
		return TSR_STAGE_DONE;
	}
	/* align to the window's quad grid */
	x0 -= (x0 - t->x0) & 1;
	y0 -= (y0 - t->y0) & 1;
	/* room for every quad of the bounding box, or stall */
	uint32_t box = (uint32_t)((x1 - x0) / 2 + 1) * (uint32_t)((y1 - y0) / 2 + 1);
	if (tsr_ring_room(&r->early_z) < box)
		return TSR_STAGE_STALLED;
	tsr_prim_queue_pop(&r->prims);
	/* item's slot may be reused from here on: keep what the quads need */
	const struct tsr_shader_binding *shader = sb;
	const uint8_t mode = shader->quad_mode, depth_func = shader->depth_func;
	int64_t dx[3], dy[3], bias[3], row[3];
	for (int i = 0; i < 3; i++) {
		int j = (i + 1) % 3;
		dx[i] = p->X[j] - p->X[i];
		dy[i] = p->Y[j] - p->Y[i];
		/* a pixel centre on an edge is the left edge's, and the top
		 * (bottom, in a bottom-up target's rows) horizontal edge's */
		int top_left = (dy[i] == 0 && (shader->fill_bottom ? dx[i] < 0 : dx[i] > 0)) ||
			       dy[i] < 0;
		bias[i] = top_left ? 0 : -1;
		int64_t px = (int64_t)x0 * one + half, py = (int64_t)y0 * one + half;
		row[i] = dx[i] * (py - p->Y[i]) - dy[i] * (px - p->X[i]) + bias[i];
	}
	uint32_t n = 0, seq = r->next_seq;
	const double inv_area = 1.0 / (double)p->area2;  /* once, not per pixel */
	/* each lane's edge offsets from the quad's first pixel, and the
	 * window's last column and row (odd-sized edges: lanes beyond are
	 * not covered) */
	int64_t off[4][3];
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < 3; i++)
			off[k][i] = -dy[i] * one * (k & 1) + dx[i] * one * (k >> 1);
	int64_t bary[4][2];
	for (int k = 0; k < 4; k++) {
		bary[k][0] = off[k][1] - bias[1];
		bary[k][1] = off[k][2] - bias[2];
	}
	const int32_t x_end = t->x0 + (int32_t)t->width, y_end = t->y0 + (int32_t)t->height;
#ifdef __SSE2__
	/* the four lanes' barycentrics at once: an integer n with |n| < 2^51
	 * converts to double exactly as n + 1.5 * 2^52 in the bits of 1.5 *
	 * 2^52, less 1.5 * 2^52. With every vertex within 2^23 subpixels
	 * (32768 pixels) of the origin and the window within 32768 pixels,
	 * every edge value is below 2^50 (any screen up to 6553 pixels wide
	 * with its guard band of 4 widths; others take the scalar loop). Then
	 * the same IEEE operations as the scalar loop, lane by lane. */
	int wide = t->x0 + (int32_t)t->width < 32768 && t->y0 + (int32_t)t->height < 32768;
	for (int i = 0; i < 3; i++)
		wide &= p->X[i] > -(1 << 23) && p->X[i] < (1 << 23) &&
			p->Y[i] > -(1 << 23) && p->Y[i] < (1 << 23);
	const __m128i magic_i = _mm_set1_epi64x(0x4338000000000000LL);
	const __m128d magic_d = _mm_set1_pd(6755399441055744.0), inv_d = _mm_set1_pd(inv_area);
	const __m128i b1lo = _mm_set_epi64x(bary[1][0], bary[0][0]);
	const __m128i b1hi = _mm_set_epi64x(bary[3][0], bary[2][0]);
	const __m128i b2lo = _mm_set_epi64x(bary[1][1], bary[0][1]);
	const __m128i b2hi = _mm_set_epi64x(bary[3][1], bary[2][1]);
	const __m128 z0 = _mm_set1_ps(p->z[0]), z1 = _mm_set1_ps(p->z[1]), z2 = _mm_set1_ps(p->z[2]);
#define TSR_BARY(e, b) _mm_cvtpd_ps(_mm_mul_pd(_mm_sub_pd(_mm_castsi128_pd( \
		_mm_add_epi64(_mm_add_epi64(e, b), magic_i)), magic_d), inv_d))
#endif
	/* rows of 8 quads or more walk only the span of quads j (from x0)
	 * that every edge leaves possible: with offmax[i] the largest of the
	 * lanes' offsets (no pixel of a quad is inside edge i where
	 * e + offmax < 0) and S = 2 * dy pixels its decrease a quad,
	 * E + offmax - j * S >= 0 solved exactly in integers; the quads
	 * outside the span are empty */
	const int span = x1 - x0 >= 14;
	int64_t offmax[3] = {0, 0, 0};
	if (span)
		for (int i = 0; i < 3; i++)
			offmax[i] = (dy[i] < 0 ? -dy[i] * one : 0) + (dx[i] > 0 ? dx[i] * one : 0);
	for (int32_t y = y0; y <= y1; y += 2) {
		int64_t e[3] = {row[0], row[1], row[2]};
		/* lanes 2, 3 (the quad's second row) outside the window */
		const uint8_t row_keep = y + 1 >= y_end ? 0x3 : 0xf;
		int32_t xs = x0, xe = x1;
		if (span) {
			int64_t jlo = 0, jhi = (x1 - x0) / 2;
			for (int i = 0; i < 3; i++) {
				const int64_t E = row[i] + offmax[i], S = dy[i] * 2 * one;
				if (S >= 0) {
					if (E < 0)
						jhi = -1;
					else if (S > 0 && E / S < jhi)
						jhi = E / S;
				} else if (E < 0) {
					const int64_t need = (-E - S - 1) / -S;  /* ceil(-E / -S) */
					jlo = need > jlo ? need : jlo;
				}
			}
			if (jlo > jhi)
				jlo = jhi + 1;  /* an empty row: no quad walked */
			for (int i = 0; i < 3; i++)
				e[i] -= jlo * dy[i] * 2 * one;
			xs = x0 + 2 * (int32_t)jlo;
			xe = x0 + 2 * (int32_t)jhi;
		}
		for (int32_t x = xs; x <= xe; x += 2) {
			uint8_t mask = 0;
			for (int k = 0; k < 4; k++) {
				int in = (e[0] + off[k][0] >= 0) & (e[1] + off[k][1] >= 0) &
					 (e[2] + off[k][2] >= 0);
				mask |= (uint8_t)(in << k);
			}
			/* the quad's own pixel (x, y) is always in the window */
			mask &= row_keep & (x + 1 >= x_end ? 0x5 : 0xf);
			if (sb->scissor) {  /* the lanes of an edge quad outside the box */
				if (x < sb->scissor_x0)
					mask &= 0xa;
				if (x + 1 > sb->scissor_x1)
					mask &= 0x5;
				if (y < sb->scissor_y0)
					mask &= 0xc;
				if (y + 1 > sb->scissor_y1)
					mask &= 0x3;
			}
			if (mask) {
				struct tsr_quad *q = tsr_quad_queue_push(&r->early_z);
				q->x = x;
				q->y = y;
				q->seq = seq++;
				q->mask = mask;
				q->prim = p;
				q->shader = shader;
				q->mode = mode;
				q->depth_func = depth_func;
#ifdef __SSE2__
				if (wide) {
					const __m128i e1 = _mm_set1_epi64x(e[1]), e2 = _mm_set1_epi64x(e[2]);
					const __m128 l0 = _mm_movelh_ps(TSR_BARY(e1, b1lo), TSR_BARY(e1, b1hi));
					const __m128 l1 = _mm_movelh_ps(TSR_BARY(e2, b2lo), TSR_BARY(e2, b2hi));
					const __m128 l2 = _mm_sub_ps(_mm_sub_ps(_mm_set1_ps(1.0f), l0), l1);
					_mm_storeu_ps(q->z, _mm_add_ps(_mm_add_ps(_mm_mul_ps(l0, z0),
										  _mm_mul_ps(l1, z1)),
								       _mm_mul_ps(l2, z2)));
					_mm_storeu_ps(q->l[0], l0);
					_mm_storeu_ps(q->l[1], l1);
					_mm_storeu_ps(q->l[2], l2);
				} else
#endif
				for (int k = 0; k < 4; k++) {
					/* the barycentric edge values are the edge
					 * functions of edges 1 and 2 at the lane,
					 * without the fill-rule bias: the same
					 * integers, without the multiplications */
					float l[3];
					l[0] = (float)((double)(e[1] + bary[k][0]) * inv_area);
					l[1] = (float)((double)(e[2] + bary[k][1]) * inv_area);
					l[2] = 1.0f - l[0] - l[1];
					q->z[k] = l[0] * p->z[0] + l[1] * p->z[1] + l[2] * p->z[2];
					q->l[0][k] = l[0];
					q->l[1][k] = l[1];
					q->l[2][k] = l[2];
				}
				n++;
			}
			for (int i = 0; i < 3; i++)
				e[i] -= dy[i] * 2 * one;
		}
		for (int i = 0; i < 3; i++)
			row[i] += dx[i] * 2 * one;
	}
#ifdef __SSE2__
#undef TSR_BARY
#endif
	if (c->log)
		tsr_worklog_prim(c->log, p->attributes, n);
	r->next_seq = seq;
	c->rs->quads_rasterized += n;
	return TSR_STAGE_DONE;
}
