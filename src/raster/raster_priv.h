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

struct tsr_raster {
	struct tsr_raster_config cfg;
	uint32_t window_quads;          /* quads of the largest window */
	uint32_t next_seq;              /* sequence number of the next quad rasterized */
	uint32_t late_z_in_flight;      /* alpha-tested quads past Early-Z, not yet blended */
	int last_core;                  /* core Early-Z sent its last quad to, -1 if killed */
	struct tsr_ring prims;    /* Tile Fetcher -> Rasterizer */
	struct tsr_ring early_z;  /* Rasterizer -> Early-Z */
	struct tsr_ring *cores;   /* Early-Z -> shader core c (cfg.cores queues) */
	struct tsr_ring blend;    /* shader cores -> blending */
};

/* tsr_quad_core(), inline for Early-Z. */
static inline uint32_t tsr_quad_core_inline(enum tsr_quad_grouping g, uint32_t cores,
					    uint32_t qx, uint32_t qy, uint32_t quads_w,
					    uint32_t quads_h)
{
	if (g == TSR_QG_CG_SQUARE) {
		uint32_t side = 1;
		while (side * side < cores)
			side++;
		return (qy * side / quads_h) * side + qx * side / quads_w;
	}
	/* a mask when cores is a power of two: the same result, without a
	 * division on Early-Z's path to the core's queue */
	return cores & (cores - 1) ? (qx + 2 * qy) % cores : (qx + 2 * qy) & (cores - 1);
}

/* 1 when the quad's material tests depth after shading (alpha test). */
static inline int tsr_quad_late_z(const struct tsr_quad *q)
{
	return q->blend == TSR_BLEND_ALPHA_TEST;
}

static inline int tsr_popcount4(uint8_t m)
{
	return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1);
}

/*
 * Per-pixel depth test (less) of the quad's pixels in `mask` against the
 * window's depth buffer, writing the depth of the pixels that pass when
 * `write`. Returns the mask of the pixels that passed. Early-Z and late Z
 * (blending) share it.
 */
static inline uint8_t tsr_quad_depth_test(struct tsr_target *t, const struct tsr_quad *q,
					  uint8_t mask, int write)
{
	uint8_t pass = 0;
	for (int k = 0; k < 4; k++) {
		if (!(mask >> k & 1))
			continue;
		uint32_t bx = (uint32_t)(q->x + (k & 1) - t->x0);
		uint32_t by = (uint32_t)(q->y + (k >> 1) - t->y0);
		float *d = &t->depth[by * t->stride + bx];
		if (q->z[k] < *d) {
			pass |= (uint8_t)(1 << k);
			if (write)
				*d = q->z[k];
		}
	}
	return pass;
}

/*
 * Copies a quad's header (position, sequence, primitive, shader) to the
 * next queue's slot with its new mask and core. Field by field, not one
 * wide copy: a wide load of fields just written narrowly (mask, core)
 * stalls the host's store forwarding.
 */
static inline void tsr_quad_copy_head(struct tsr_quad *d, const struct tsr_quad *s,
				      uint8_t mask, uint8_t core)
{
	d->x = s->x;
	d->y = s->y;
	d->seq = s->seq;
	d->mask = mask;
	d->core = core;
	d->blend = s->blend;
	d->prim = s->prim;
	d->shader = s->shader;
}

#endif
