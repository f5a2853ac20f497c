/*
 * raster_priv.h - the raster unit's state and the helpers its stages
 * share (rasterizer.c, early_z.c, fragment.c, blend.c, raster.c); not
 * part of the public API (raster.h).
 */
#ifndef TSR_RASTER_RASTER_PRIV_H
#define TSR_RASTER_RASTER_PRIV_H

#include <string.h>

#include "raster/queue.h"
#include "raster/raster.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct tsr_raster {
	struct tsr_raster_config cfg;
	uint32_t window_quads;          /* quads of the largest window */
	uint32_t next_seq;              /* sequence number of the next quad rasterized */
	uint32_t late_z_in_flight;      /* alpha-tested quads past Early-Z, not yet blended */
	uint8_t subtile_core[TSR_MAX_CORES];  /* the tile's subtile assignment (DTexL III-D) */
	struct tsr_ring prims;    /* Tile Fetcher -> Rasterizer */
	struct tsr_ring early_z;  /* Rasterizer -> Early-Z */
	struct tsr_ring *cores;   /* Early-Z -> shader core c (cfg.cores queues) */
	struct tsr_ring blend;    /* shader cores -> blending */
};

/* 1 when the quad's program discards, so that its depth is tested after
 * shading (late Z). */
static inline int tsr_quad_late_z(const struct tsr_quad *q)
{
	return (q->mode & TSR_QUAD_LATE_Z) != 0;
}

/* Whether depth z passes DEPTH_FUNC func against the buffer's d (GL ES
 * 2.0 4.1.5; a NaN passes only NOTEQUAL and ALWAYS). */
static inline int tsr_depth_passes(uint8_t func, float z, float d)
{
	switch (func) {
	case TSR_FUNC_NEVER: return 0;
	case TSR_FUNC_LESS: return z < d;
	case TSR_FUNC_EQUAL: return z == d;
	case TSR_FUNC_LEQUAL: return z <= d;
	case TSR_FUNC_GREATER: return z > d;
	case TSR_FUNC_NOTEQUAL: return z != d;
	case TSR_FUNC_GEQUAL: return z >= d;
	default: return 1;
	}
}

#ifdef __SSE2__
/* tsr_depth_passes() of four lanes: all ones where z passes against d. */
static inline __m128 tsr_depth_passes4(uint8_t func, __m128 z, __m128 d)
{
	switch (func) {
	case TSR_FUNC_NEVER: return _mm_setzero_ps();
	case TSR_FUNC_LESS: return _mm_cmplt_ps(z, d);
	case TSR_FUNC_EQUAL: return _mm_cmpeq_ps(z, d);
	case TSR_FUNC_LEQUAL: return _mm_cmple_ps(z, d);
	case TSR_FUNC_GREATER: return _mm_cmpgt_ps(z, d);
	case TSR_FUNC_NOTEQUAL: return _mm_cmpneq_ps(z, d);
	case TSR_FUNC_GEQUAL: return _mm_cmpge_ps(z, d);
	default: return _mm_castsi128_ps(_mm_set1_epi32(-1));
	}
}
#endif

static inline int tsr_popcount4(uint8_t m)
{
	return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1);
}

/*
 * Per-pixel depth test (the quad's draw's DEPTH_FUNC, q->depth_func) of
 * the quad's pixels in `mask` against the window's depth buffer, writing
 * the depth of the pixels that pass when `write`. Returns the mask of the
 * pixels that passed. Early-Z and late Z (blending) share it.
 */
static inline uint8_t tsr_quad_depth_test(struct tsr_target *t, const struct tsr_quad *q,
					  uint8_t mask, int write)
{
#ifdef __SSE2__
	/* a quad inside the window: its two rows' pairs of depths at once (the
	 * same compares; lanes not tested or failing keep their depth bits) */
	if (q->x + 1 < t->x0 + (int32_t)t->width && q->y + 1 < t->y0 + (int32_t)t->height) {
		float *d0 = &t->depth[(uint32_t)(q->y - t->y0) * t->stride + (uint32_t)(q->x - t->x0)];
		float *d1 = d0 + t->stride;
		const __m128 d = _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)d0),
					      (const __m64 *)d1);
		const __m128 z = _mm_loadu_ps(q->z);
		const uint8_t pass = (uint8_t)(_mm_movemask_ps(tsr_depth_passes4(q->depth_func, z, d)) & mask);
		if (write && pass) {
			const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
			const __m128 m = _mm_castsi128_ps(_mm_cmpeq_epi32(
				_mm_and_si128(_mm_set1_epi32(pass), bit), bit));
			const __m128 out = _mm_or_ps(_mm_and_ps(m, z), _mm_andnot_ps(m, d));
			_mm_storel_pi((__m64 *)d0, out);
			_mm_storeh_pi((__m64 *)d1, out);
		}
		return pass;
	}
#endif
	uint8_t pass = 0;
	for (int k = 0; k < 4; k++) {
		if (!(mask >> k & 1))
			continue;
		uint32_t bx = (uint32_t)(q->x + (k & 1) - t->x0);
		uint32_t by = (uint32_t)(q->y + (k >> 1) - t->y0);
		float *d = &t->depth[by * t->stride + bx];
		if (tsr_depth_passes(q->depth_func, q->z[k], *d)) {
			pass |= (uint8_t)(1 << k);
			if (write)
				*d = q->z[k];
		}
	}
	return pass;
}

/*
 * Per-pixel stencil and depth tests (GL ES 2.0 4.1.5) of the quad's
 * pixels in `mask`, for a quad whose draw tests stencil (TSR_QUAD_STENCIL):
 * the primitive's face's stencil state (q->shader->stencil[0] front, [1]
 * back) against the window's stencil buffer, then, where it passes, the
 * depth test (DEPTH_FUNC; with DEPTH_TEST off it passes), each pixel's
 * stencil value updated by the face's sfail, dpfail or dppass op under its
 * write mask, and its depth written where both pass when
 * TSR_QUAD_DEPTH_WRITE. Returns the mask of the pixels that passed both;
 * *written gets bit 0 when a depth was written, bit 1 when a stencil value
 * changed (the Z/S memory write of tsr_target_depth_traffic()). Early-Z
 * and late Z share it (stencil.c).
 */
uint8_t tsr_quad_depth_stencil_test(struct tsr_target *t, const struct tsr_quad *q,
				    uint8_t mask, int *written);

/*
 * Copies a quad's header (position, sequence, primitive, shader) to the
 * next queue's slot with its new mask and core. Field by field, not one
 * wide copy: a wide load of fields just written narrowly (mask, core)
 * stalls the host's store forwarding.
 */
/*
 * Fragment shading of quad q on core (fragment.c): its instruction fetch,
 * varyings from l (the screen-space barycentrics, l[i][k] for pixel k) and
 * texture sample, the shaded colors written to q->rgba. q holds the quad's
 * header and depth; l may be another copy of the quad's (Early-Z's).
 */
void tsr_raster_shade_quad(const float l[3][4], struct tsr_quad *q, uint32_t core,
			   const struct tsr_raster_ctx *c);

/* Late Z and blending of shaded quad q (blend.c); q->mask may change. */
void tsr_raster_blend_quad(struct tsr_raster *r, struct tsr_quad *q,
			   const struct tsr_raster_ctx *c);

/*
 * The functional mode's Early-Z (early_z.c): the oldest quad of the
 * Early-Z queue goes through Early-Z and, if any pixel survives, straight
 * on to shading and blending, without the queues between them: the same
 * work, counters and work-log records as tsr_raster_early_z(),
 * tsr_raster_shade() and tsr_raster_blend() one after the other. Only
 * while the shader cores' queues and the blend queue are empty (so Early-Z
 * cannot stall). TSR_STAGE_IDLE when the Early-Z queue is empty.
 */
enum tsr_stage_result tsr_raster_quad_direct(struct tsr_raster *r,
					     const struct tsr_raster_ctx *c);

static inline void tsr_quad_copy_head(struct tsr_quad *d, const struct tsr_quad *s,
				      uint8_t mask, uint8_t core)
{
	d->x = s->x;
	d->y = s->y;
	d->seq = s->seq;
	d->mask = mask;
	d->core = core;
	d->mode = s->mode;
	d->depth_func = s->depth_func;
	d->prim = s->prim;
	d->shader = s->shader;
}

#endif
