/*
 * subtile_assign.c - subtile assignment across tiles (subtile_assign.h,
 * DTexL III-D, Fig. 8).
 */
#include "raster/subtile_assign.h"

#include <string.h>

const char *const tsr_subtile_assignment_names[] = {"const", "flp1", "flp2", "flp3", NULL};
_Static_assert(sizeof(tsr_subtile_assignment_names) / sizeof(tsr_subtile_assignment_names[0]) ==
		       TSR_SA_COUNT + 1,
	       "one name per assignment");

/* A gx x gy grid of rectangles, subtile = row * gx + column (cg-square, cg-*rect). */
static void grid_layout(struct tsr_subtile_layout *l, uint32_t gx, uint32_t gy)
{
	l->n = gx * gy;
	for (uint32_t y = 0; y < gy; y++)
		for (uint32_t x = 0; x < gx; x++) {
			uint32_t s = y * gx + x;
			l->mirror_x[s] = (uint8_t)(y * gx + (gx - 1 - x));
			l->mirror_y[s] = (uint8_t)((gy - 1 - y) * gx + x);
			l->edges[s] = (uint8_t)((x == 0 ? TSR_EDGE_LEFT : 0) |
						(x == gx - 1 ? TSR_EDGE_RIGHT : 0) |
						(y == 0 ? TSR_EDGE_TOP : 0) |
						(y == gy - 1 ? TSR_EDGE_BOTTOM : 0));
		}
}

enum tsr_status tsr_subtile_layout_init(struct tsr_subtile_layout *l,
					enum tsr_quad_grouping g, uint32_t cores,
					struct tsr_error *err)
{
	memset(l, 0, sizeof(*l));
	if (!tsr_quad_grouping_coarse(g))
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "quad grouping '%s' is fine-grained: it has no subtile regions to "
				     "assign across tiles",
				     tsr_quad_grouping_names[g]);
	const char *why = tsr_quad_grouping_check(g, cores, 256, 256);
	if (cores == 0 || cores > TSR_MAX_CORES || why)
		return tsr_error_set(err, TSR_ERR_CONFIG, "%u cores: %s", cores,
				     why ? why : "not in 1..16");
	switch (g) {
	case TSR_QG_CG_XRECT:
		grid_layout(l, cores, 1);
		break;
	case TSR_QG_CG_YRECT:
		grid_layout(l, 1, cores);
		break;
	case TSR_QG_CG_TRIANGLE:
		if (cores == 1) {
			grid_layout(l, 1, 1);
			break;
		}
		/* 0 top, 1 right, 2 bottom, 3 left: each touches its own edge */
		l->n = 4;
		memcpy(l->mirror_x, (const uint8_t[]){0, 3, 2, 1}, 4);
		memcpy(l->mirror_y, (const uint8_t[]){2, 1, 0, 3}, 4);
		memcpy(l->edges, (const uint8_t[]){TSR_EDGE_TOP, TSR_EDGE_RIGHT, TSR_EDGE_BOTTOM,
						   TSR_EDGE_LEFT}, 4);
		break;
	default: {  /* TSR_QG_CG_SQUARE */
		uint32_t side = cores == 16 ? 4 : cores == 4 ? 2 : 1;
		grid_layout(l, side, side);
		break;
	}
	}
	return TSR_OK;
}

void tsr_subtile_assign_step(enum tsr_subtile_assignment a,
			     const struct tsr_subtile_layout *l, const uint8_t *prev,
			     uint32_t pos, int32_t dx, int32_t dy, uint8_t *out)
{
	uint8_t p[TSR_MAX_CORES], f[TSR_MAX_CORES];
	const uint32_t n = l->n;
	if (pos == 0 || a == TSR_SA_CONST) {
		for (uint32_t s = 0; s < n; s++)
			out[s] = (uint8_t)s;
		return;
	}
	memcpy(p, prev, n);
	const int horizontal = (dx == 1 || dx == -1) && dy == 0;
	const int vertical = (dy == 1 || dy == -1) && dx == 0;
	/* flp1: this tile's subtile s takes the core of the previous tile's
	 * subtile at its mirror image across the shared edge, so the two
	 * subtiles either side of the edge share a core */
	for (uint32_t s = 0; s < n; s++)
		f[s] = horizontal ? p[l->mirror_x[s]] : vertical ? p[l->mirror_y[s]] : p[s];
	memcpy(out, f, n);
	if (a == TSR_SA_FLP2 && (horizontal || vertical) && pos % 2 == 0) {
		/* entering an odd tile (1-based): the subtiles off the shared
		 * edge swap among themselves, mirrored along the edge */
		uint8_t near = (uint8_t)(dx == 1 ? TSR_EDGE_LEFT : dx == -1 ? TSR_EDGE_RIGHT :
					 dy == 1 ? TSR_EDGE_TOP : TSR_EDGE_BOTTOM);
		const uint8_t *along = horizontal ? l->mirror_y : l->mirror_x;
		for (uint32_t s = 0; s < n; s++)
			if (!(l->edges[s] & near))
				out[s] = f[along[s]];
	} else if (a == TSR_SA_FLP3 && pos % 16 == 0) {
		/* every 16 tiles: all subtiles flip (both mirrors) */
		for (uint32_t s = 0; s < n; s++)
			out[s] = f[l->mirror_x[l->mirror_y[s]]];
	}
}
