/*
 * quad_grouping.c - the quad groupings' names, checks and core function
 * (quad_grouping.h; DTexL III-B-1, Fig. 6).
 */
#include "raster/quad_grouping.h"

#include <stddef.h>

const char *const tsr_quad_grouping_names[] = {
	"fg-xshift2", "fg-yshift2", "fg-xshift1", "fg-xshift3", "fg-xshift0", "fg-yshift0",
	"cg-xrect",   "cg-yrect",   "cg-triangle", "cg-square", NULL};
_Static_assert(sizeof(tsr_quad_grouping_names) / sizeof(tsr_quad_grouping_names[0]) ==
		       TSR_QG_COUNT + 1,
	       "one name per grouping");

int tsr_quad_grouping_coarse(enum tsr_quad_grouping g)
{
	return g == TSR_QG_CG_XRECT || g == TSR_QG_CG_YRECT || g == TSR_QG_CG_TRIANGLE ||
	       g == TSR_QG_CG_SQUARE;
}

const char *tsr_quad_grouping_check(enum tsr_quad_grouping g, uint32_t cores,
				    uint32_t tile_w, uint32_t tile_h)
{
	if ((unsigned)g >= TSR_QG_COUNT)
		return "unknown quad grouping";
	switch (g) {
	case TSR_QG_CG_SQUARE:
		if (cores != 1 && cores != 4 && cores != 16)
			return "cg-square needs 1, 4 or 16 cores (a square number of squares)";
		if ((cores == 4 && (tile_w < 4 || tile_h < 4)) ||
		    (cores == 16 && (tile_w < 8 || tile_h < 8)))
			return "cg-square needs a tile of at least sqrt(cores) quads a side";
		return NULL;
	case TSR_QG_CG_TRIANGLE:
		if (cores != 1 && cores != 4)
			return "cg-triangle needs 1 or 4 cores (the four triangles of the diagonals)";
		if (cores == 4 && (tile_w < 4 || tile_h < 4))
			return "cg-triangle needs a tile of at least 2x2 quads";
		return NULL;
	case TSR_QG_CG_XRECT:
		if (cores > tile_w / 2)
			return "cg-xrect needs at most one core per quad column (tile_width / 2)";
		return NULL;
	case TSR_QG_CG_YRECT:
		if (cores > tile_h / 2)
			return "cg-yrect needs at most one core per quad row (tile_height / 2)";
		return NULL;
	default:
		return NULL;  /* the fine-grained ones take any number of cores */
	}
}

uint32_t tsr_quad_core(enum tsr_quad_grouping g, uint32_t cores, uint32_t qx,
		       uint32_t qy, uint32_t quads_w, uint32_t quads_h)
{
	return tsr_quad_core_inline(g, cores, qx, qy, quads_w, quads_h);
}
