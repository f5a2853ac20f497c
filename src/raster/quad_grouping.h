/*
 * quad_grouping.h - which shader core a quad goes to (DTexL III-B-1,
 * Fig. 6): the quad groupings that split a tile window into one subtile
 * per shader core. Early-Z (early_z.c) sends each surviving quad to the
 * core of its subtile; the subtile -> core permutation of a tile is the
 * subtile assignment's (subtile_assign.h). Pure functions: no state.
 */
#ifndef TSR_RASTER_QUAD_GROUPING_H
#define TSR_RASTER_QUAD_GROUPING_H

#include <stdint.h>

/*
 * Quad groupings (DTexL III-B-1, Fig. 6): which subtile a quad at quad
 * coordinates (qx, qy) of a tile window of quads_w x quads_h quads falls
 * in; with n shader cores there are n subtiles and subtile s goes to the
 * core the subtile assignment gives it (raster/subtile_assign.h; "const":
 * core s). The paper's figures are not in its text; the fine-grained ones
 * follow from the constraints it states, for 4 cores (docs/raster.md draws
 * each on a 4x4 quad block):
 *
 *   fg-xshift2  (qx + 2*qy) mod n   (a): no quad of its 8 neighbours on the same core
 *   fg-yshift2  (2*qx + qy) mod n   (b): the same, transposed
 *   fg-xshift1  (qx + qy) mod n     (c): 2 diagonal neighbours (along /) on the same core
 *   fg-xshift3  (qx + 3*qy) mod n   (d): 2 diagonal neighbours (along \) on the same core
 *   fg-xshift0  qx mod n            (e): 2 vertical neighbours on the same core (columns)
 *   fg-yshift0  qy mod n            (f): 2 horizontal neighbours on the same core (rows)
 *
 *   cg-xrect    n rectangles side by side along x (full height), any n up to quads_w
 *   cg-yrect    n rectangles stacked along y (full width), any n up to quads_h
 *   cg-triangle the 4 triangles the tile's diagonals cut (top, right,
 *               bottom, left = subtiles 0..3); 1 or 4 cores
 *   cg-square   side x side squares, side*side = n (1, 4 or 16 cores);
 *               subtile = row * side + column
 *
 * Cores of a 4x4 quad block with 4 cores:
 *   fg-xshift2  fg-yshift2  fg-xshift1  fg-xshift3  fg-xshift0  fg-yshift0
 *    0 1 2 3     0 2 0 2     0 1 2 3     0 1 2 3     0 1 2 3     0 0 0 0
 *    2 3 0 1     1 3 1 3     1 2 3 0     3 0 1 2     0 1 2 3     1 1 1 1
 *    0 1 2 3     2 0 2 0     2 3 0 1     2 3 0 1     0 1 2 3     2 2 2 2
 *    2 3 0 1     3 1 3 1     3 0 1 2     1 2 3 0     0 1 2 3     3 3 3 3
 * and of an 8x8 quad tile (every other row shown):
 *   cg-xrect          cg-yrect          cg-triangle       cg-square
 *   0 0 1 1 2 2 3 3   0 0 0 0 0 0 0 0   0 0 0 0 0 0 0 1   0 0 0 0 1 1 1 1
 *   0 0 1 1 2 2 3 3   1 1 1 1 1 1 1 1   3 3 0 0 0 1 1 1   0 0 0 0 1 1 1 1
 *   0 0 1 1 2 2 3 3   2 2 2 2 2 2 2 2   3 3 3 3 2 1 1 1   2 2 2 2 3 3 3 3
 *   0 0 1 1 2 2 3 3   3 3 3 3 3 3 3 3   3 3 2 2 2 2 2 1   2 2 2 2 3 3 3 3
 * cg-triangle's diagonal quads go round a pinwheel so that the four
 * triangles of a square tile are equal; cg-yrect is the horizontal bands
 * (docs/raster.md says why).
 */
enum tsr_quad_grouping {
	TSR_QG_FG_XSHIFT2 = 0,   /* (qx + 2*qy) mod n: Fig. 6(a), the paper's baseline */
	TSR_QG_FG_YSHIFT2,       /* (2*qx + qy) mod n: Fig. 6(b) */
	TSR_QG_FG_XSHIFT1,       /* (qx + qy) mod n: Fig. 6(c) */
	TSR_QG_FG_XSHIFT3,       /* (qx + 3*qy) mod n: Fig. 6(d) */
	TSR_QG_FG_XSHIFT0,       /* qx mod n: Fig. 6(e) */
	TSR_QG_FG_YSHIFT0,       /* qy mod n: Fig. 6(f) */
	TSR_QG_CG_XRECT,         /* qx * n / quads_w: Fig. 6(g) */
	TSR_QG_CG_YRECT,         /* qy * n / quads_h: Fig. 6(g) */
	TSR_QG_CG_TRIANGLE,      /* the diagonals' 4 triangles: Fig. 6(i) */
	TSR_QG_CG_SQUARE,        /* the tile's quadrants (4x4 squares for 16): Fig. 6(j) */
	TSR_QG_COUNT
};

/* Names of the groupings in the configuration (NULL-terminated), by enum value. */
extern const char *const tsr_quad_grouping_names[];

/* 1 for the coarse-grained groupings (cg-*), whose subtiles are regions. */
int tsr_quad_grouping_coarse(enum tsr_quad_grouping g);

/*
 * Checks that grouping g can split a tile of tile_w x tile_h pixels among
 * `cores` shader cores. Returns NULL when it can, else a static message
 * saying why (for instance "cg-square needs 1, 4 or 16 cores"); the
 * config loader names the key around it.
 */
const char *tsr_quad_grouping_check(enum tsr_quad_grouping g, uint32_t cores,
				    uint32_t tile_w, uint32_t tile_h);

/*
 * Subtile (0..cores-1) of the quad at quad coordinates (qx, qy) of a
 * window of quads_w x quads_h quads under grouping g (DTexL III-B-1); with
 * the "const" subtile assignment it is the quad's shader core. g and
 * cores must pass tsr_quad_grouping_check(). Pure.
 */
uint32_t tsr_quad_core(enum tsr_quad_grouping g, uint32_t cores, uint32_t qx,
		       uint32_t qy, uint32_t quads_w, uint32_t quads_h);

/* ---- inline, for Early-Z's path to the core's queue ---- */

/* Triangle (0 top, 1 right, 2 bottom, 3 left) of a quad in cg-triangle. */
static inline uint32_t tsr_quad_triangle(uint32_t qx, uint32_t qy, uint32_t quads_w,
					 uint32_t quads_h)
{
	/* quad centre relative to the window's, in half quads; the
	 * diagonals are where |u| * quads_h == |v| * quads_w */
	int64_t u = 2 * (int64_t)qx + 1 - quads_w, v = 2 * (int64_t)qy + 1 - quads_h;
	int64_t a = (u < 0 ? -u : u) * quads_h, b = (v < 0 ? -v : v) * quads_w;
	if (b > a)
		return v < 0 ? 0 : 2;
	if (a > b)
		return u > 0 ? 1 : 3;
	/* on a diagonal: a pinwheel, so that the four triangles of a square
	 * window are equal (top takes the top-left half-diagonal, right the
	 * top-right one, and so on) */
	if (v <= 0)
		return u <= 0 ? 0 : 1;
	return u > 0 ? 2 : 3;
}

/* tsr_quad_core(), inline for Early-Z: the quad's subtile. */
static inline uint32_t tsr_quad_core_inline(enum tsr_quad_grouping g, uint32_t cores,
					    uint32_t qx, uint32_t qy, uint32_t quads_w,
					    uint32_t quads_h)
{
	uint32_t v;
	switch (g) {
	case TSR_QG_CG_SQUARE: {
		uint32_t side = 1;
		while (side * side < cores)
			side++;
		return (qy * side / quads_h) * side + qx * side / quads_w;
	}
	case TSR_QG_CG_XRECT:
		return qx * cores / quads_w;
	case TSR_QG_CG_YRECT:
		return qy * cores / quads_h;
	case TSR_QG_CG_TRIANGLE:
		return cores == 1 ? 0 : tsr_quad_triangle(qx, qy, quads_w, quads_h);
	case TSR_QG_FG_YSHIFT2: v = 2 * qx + qy; break;
	case TSR_QG_FG_XSHIFT1: v = qx + qy; break;
	case TSR_QG_FG_XSHIFT3: v = qx + 3 * qy; break;
	case TSR_QG_FG_XSHIFT0: v = qx; break;
	case TSR_QG_FG_YSHIFT0: v = qy; break;
	default: v = qx + 2 * qy; break;  /* TSR_QG_FG_XSHIFT2 */
	}
	/* a mask when cores is a power of two: the same result, without a
	 * division on Early-Z's path to the core's queue */
	return cores & (cores - 1) ? v % cores : v & (cores - 1);
}

#endif
