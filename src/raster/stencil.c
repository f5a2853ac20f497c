/*
 * stencil.c - the per-pixel stencil test (GL ES 2.0 4.1.5; OpenGL ES
 * 2.0.25 specification) of the Raster Pipeline (raster.h) on the window's
 * 8-bit stencil buffer, with the depth test after it: the face's func of
 * the masked reference and value, its sfail, dpfail and dppass ops under
 * the write mask. Early-Z (early_z.c) and late Z (blend.c) call it for
 * the quads of draws that enable the stencil test; the others take the
 * depth test alone (raster_priv.h, tsr_quad_depth_test()).
 */
#include "raster/raster_priv.h"

/* Whether stencil value s passes func against ref, both masked (4.1.5:
 * the reference is the left operand, "ref < s" for LESS). */
static inline int stencil_passes(uint8_t func, uint8_t ref, uint8_t s)
{
	switch (func) {
	case TSR_FUNC_NEVER: return 0;
	case TSR_FUNC_LESS: return ref < s;
	case TSR_FUNC_EQUAL: return ref == s;
	case TSR_FUNC_LEQUAL: return ref <= s;
	case TSR_FUNC_GREATER: return ref > s;
	case TSR_FUNC_NOTEQUAL: return ref != s;
	case TSR_FUNC_GEQUAL: return ref >= s;
	default: return 1;
	}
}

/* Stencil op `op` on value s (8 bits; INCR and DECR saturate, the _WRAP
 * ones wrap), before the write mask. */
static inline uint8_t stencil_op(uint8_t op, uint8_t s, uint8_t ref)
{
	switch (op) {
	case TSR_STENCIL_ZERO: return 0;
	case TSR_STENCIL_REPLACE: return ref;
	case TSR_STENCIL_INCR: return s == 255 ? 255 : (uint8_t)(s + 1);
	case TSR_STENCIL_DECR: return s == 0 ? 0 : (uint8_t)(s - 1);
	case TSR_STENCIL_INVERT: return (uint8_t)~s;
	case TSR_STENCIL_INCR_WRAP: return (uint8_t)(s + 1);
	case TSR_STENCIL_DECR_WRAP: return (uint8_t)(s - 1);
	default: return s;  /* KEEP */
	}
}

uint8_t tsr_quad_depth_stencil_test(struct tsr_target *t, const struct tsr_quad *q,
				    uint8_t mask, int *written)
{
	const struct tsr_stencil_bits *f = &q->shader->stencil[q->prim->front_facing ? 0 : 1];
	const int depth_test = (q->mode & TSR_QUAD_DEPTH_TEST) != 0;
	const int depth_write = (q->mode & TSR_QUAD_DEPTH_WRITE) != 0;
	const uint8_t ref = (uint8_t)(f->ref & f->value_mask), wm = f->write_mask;
	uint8_t pass = 0;
	int w = 0;
	for (int k = 0; k < 4; k++) {
		if (!(mask >> k & 1))
			continue;
		const uint32_t bx = (uint32_t)(q->x + (k & 1) - t->x0);
		const uint32_t by = (uint32_t)(q->y + (k >> 1) - t->y0);
		const size_t i = (size_t)by * t->stride + bx;
		const uint8_t s = t->stencil[i];
		uint8_t op;
		if (!stencil_passes(f->func, ref, (uint8_t)(s & f->value_mask))) {
			op = f->ops[0];
		} else if (depth_test && !tsr_depth_passes(q->depth_func, q->z[k], t->depth[i])) {
			op = f->ops[1];
		} else {
			op = f->ops[2];
			pass |= (uint8_t)(1 << k);
			if (depth_write) {
				t->depth[i] = q->z[k];
				w |= 1;
			}
		}
		const uint8_t ns = (uint8_t)((s & ~wm) | (stencil_op(op, s, f->ref) & wm));
		if (ns != s) {
			t->stencil[i] = ns;
			w |= 2;
		}
	}
	*written = w;
	return pass;
}
