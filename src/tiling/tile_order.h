/*
 * tile_order.h - the order in which the Tile Fetcher visits tiles.
 *
 * Orders (DTexL III-C, Fig. 7 and 8): scanline (row by row), S-order
 * (rows alternate direction), Z-order (Morton; for grids that are not a
 * power of two square, the Morton order of the enclosing power-of-two
 * square with the tiles outside the screen skipped), and Hilbert adapted to
 * rectangles (the screen is cut into 8x8-tile blocks, each traversed by a
 * Hilbert curve, the blocks visited in an S: left to right on even block
 * rows, right to left, with the curve mirrored, on odd ones; tiles of
 * partial blocks outside the screen are skipped). Reversing the order every
 * other frame (boustrophedonic III-F) is applied by the caller.
 *
 * Tile IDs are row-major: id = ty * tiles_x + tx.
 */
#ifndef TSR_TILING_TILE_ORDER_H
#define TSR_TILING_TILE_ORDER_H

#include <stdint.h>

enum tsr_tile_order {
	TSR_ORDER_SCANLINE = 0,  /* row by row, left to right */
	TSR_ORDER_SORDER,        /* rows alternate direction (DTexL Fig. 8(g)) */
	TSR_ORDER_Z,             /* Morton order (DTexL Fig. 7(a)) */
	TSR_ORDER_HILBERT,       /* 8x8-tile Hilbert blocks in an S (DTexL III-C) */
	TSR_ORDER_COUNT
};

/* Names of the orders in the configuration (NULL-terminated). */
extern const char *const tsr_tile_order_names[];

#define TSR_HILBERT_BLOCK 8  /* tiles per Hilbert block side (DTexL III-C) */

/*
 * Writes the tiles_x * tiles_y tile IDs in visiting order into order[].
 * Pure; allocates nothing.
 */
void tsr_tile_order_build(enum tsr_tile_order o, uint32_t tiles_x,
			  uint32_t tiles_y, uint32_t *order);

/* Position d (0..n*n-1) on a Hilbert curve of side n (power of two) -> (x, y). */
void tsr_hilbert_d2xy(uint32_t n, uint32_t d, uint32_t *x, uint32_t *y);

#endif
