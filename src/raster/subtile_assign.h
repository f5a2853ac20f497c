/*
 * subtile_assign.h - subtile assignment across tiles (DTexL III-D,
 * Fig. 8): which shader core each subtile of a coarse-grained quad
 * grouping (raster.h: cg-xrect, cg-yrect, cg-triangle, cg-square) goes to,
 * tile by tile, so that subtiles sharing an edge with the previous tile in
 * the visiting order go to the same core (and so the same L1 texture
 * cache). A pure state machine, one step per tile: the pipeline keeps the
 * current permutation and hands it to the raster unit when a tile begins
 * (tsr_raster_set_subtile_cores); the tests replay the paper's examples.
 *
 *   const  subtile s on core s in every tile (Fig. 8(a), 8(c), 8(g))
 *   flp1   flip the previous tile's assignment across the edge it shares
 *          with this tile (Fig. 8(b), 8(d)); one core keeps the shared
 *          edge at every step over a frame
 *   flp2   flp1, and on entering an odd tile (1-based tile IDs, as the
 *          figure numbers them) the subtiles off the shared edge also
 *          swap among themselves, mirrored along the edge (Fig. 8(e))
 *   flp3   flp1, and every 16 tiles all subtiles flip (a 180-degree turn
 *          of the assignment, which swaps the favoured core with its
 *          opposite; Fig. 8(f))
 *
 * The paper's eight assignments are these combined with a tile order
 * (tiling.order) and a grouping: Zorder-const = z-order + const,
 * the Z-order flip of Fig. 8(b) = z-order + flp1, HLB-const/flp1/flp2/flp3
 * = hilbert + const/flp1/flp2/flp3 (all cg-square), Sorder-const and
 * Sorder-flp = s-order + cg-yrect + const / flp1. Consecutive tiles that
 * share no edge (Z-order's jumps) keep the previous assignment (flp3 still
 * counts them). Fine-grained groupings have no subtile regions: only
 * "const" applies to them.
 */
#ifndef TSR_RASTER_SUBTILE_ASSIGN_H
#define TSR_RASTER_SUBTILE_ASSIGN_H

#include <stdint.h>

#include "core/status.h"
#include "stats/counters.h"
#include "raster/quad_grouping.h"

enum tsr_subtile_assignment {
	TSR_SA_CONST = 0,  /* the same subtile -> core map in every tile */
	TSR_SA_FLP1,       /* flip across the shared edge */
	TSR_SA_FLP2,       /* flp1, and the far subtiles swap entering odd tiles */
	TSR_SA_FLP3,       /* flp1, and a 180-degree turn every 16 tiles */
	TSR_SA_COUNT
};

/* Names of the assignments in the configuration (NULL-terminated), by enum value. */
extern const char *const tsr_subtile_assignment_names[];

/* Tile edges, as bits of struct tsr_subtile_layout's edges[]. */
enum {
	TSR_EDGE_LEFT = 1,
	TSR_EDGE_RIGHT = 2,
	TSR_EDGE_TOP = 4,
	TSR_EDGE_BOTTOM = 8,
};

/*
 * The shape of a coarse-grained grouping's subtiles, as the flips need
 * it: the subtile at the mirror image of each subtile's place, and the
 * tile edges each touches. Plain data.
 */
struct tsr_subtile_layout {
	uint32_t n;                        /* subtiles (= shader cores) */
	uint8_t mirror_x[TSR_MAX_CORES];   /* subtile mirrored left <-> right */
	uint8_t mirror_y[TSR_MAX_CORES];   /* subtile mirrored top <-> bottom */
	uint8_t edges[TSR_MAX_CORES];      /* TSR_EDGE_* bits of the edges it touches */
};

/*
 * Fills l with the subtile layout of grouping g with `cores` subtiles
 * (subtile numbering as tsr_quad_core()). Errors: TSR_ERR_CONFIG for a
 * fine-grained grouping or a core count the grouping does not support
 * (tsr_quad_grouping_check() with a tile large enough).
 */
enum tsr_status tsr_subtile_layout_init(struct tsr_subtile_layout *l,
					enum tsr_quad_grouping g, uint32_t cores,
					struct tsr_error *err);

/*
 * One step of assignment a (DTexL III-D): the subtile -> core permutation
 * of the tile at position pos (0-based) of the visiting order, from the
 * previous tile's (prev; ignored at pos 0, where every assignment starts
 * with the identity) and the offset (dx, dy) in tiles from the previous
 * tile to this one (dx = 1: this tile is right of it). Writes l->n
 * entries to out, which may be prev. Pure; allocates nothing.
 */
void tsr_subtile_assign_step(enum tsr_subtile_assignment a,
			     const struct tsr_subtile_layout *l, const uint8_t *prev,
			     uint32_t pos, int32_t dx, int32_t dy, uint8_t *out);

#endif
