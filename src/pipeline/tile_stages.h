/*
 * tile_stages.h - the tile half of a TBR frame's stages (TCOR II-A,
 * Fig. 2) as work items, private to the pipeline (tile_stages.c): a tile
 * enters (technique hooks, on-chip buffers cleared), the Tile Fetcher
 * reads its primitive list and attributes from the Parameter Buffer, its
 * primitives are issued to the Raster Pipeline's input queue
 * (raster/raster.h) as room allows, and the tile flush writes the colors
 * to the back frame buffer. tsr_stage_tile() (gpu_priv.h) runs them back
 * to back; a timing model calls them one at a time, interleaving the
 * raster stages in between.
 */
#ifndef TSR_PIPELINE_TILE_STAGES_H
#define TSR_PIPELINE_TILE_STAGES_H

#include "pipeline/gpu_priv.h"

/* The work item of the Tile Fetcher and the tile flush: a tile in flight. */
struct tsr_tile_work {
	uint32_t tile;             /* row-major tile ID */
	struct tsr_target target;  /* the tile's window over the on-chip buffers */
	const uint32_t *list;      /* its primitives (Parameter Buffer order), once fetched */
	uint32_t count;            /* primitives in list */
	uint32_t issued;           /* primitives issued to the Rasterizer so far */
	uint8_t colors_ready;      /* 1: the GPU's tile_rgba holds the tile's colors
				      already (an empty tile's, in the functional mode) */
};

/*
 * Tile entry: marks the tile in the memory trace, counts it and calls the
 * techniques' tile_begin hooks. Returns 0 when a technique skipped the
 * tile (it is then done: no fetch, raster or flush); else sets up the
 * tile's window, clears its depth and colors and returns 1.
 */
int tsr_stage_tile_begin(struct tsr_gpu *g, uint32_t tile, struct tsr_frame_stats *st,
			 struct tsr_tile_work *w);

/*
 * Tile Fetcher: reads the tile's PMD blocks and its primitives'
 * attributes from the Parameter Buffer (tiling/parameter_buffer.h,
 * tsr_tile_fetch) and keeps its primitive list in w. Counts empty tiles.
 */
void tsr_stage_tile_fetch(struct tsr_gpu *g, struct tsr_tile_work *w,
			  struct tsr_frame_stats *st);

/*
 * Issues the tile's next fetched primitives, with their materials'
 * shader bindings, to the Rasterizer's input queue while it has room.
 * Returns the number issued (0 when the queue is full or all are issued).
 */
uint32_t tsr_stage_tile_issue(struct tsr_gpu *g, struct tsr_tile_work *w);

/*
 * Tile flush, once every primitive is issued and the Raster Pipeline is
 * drained: converts the colors to RGBA8, calls the techniques'
 * tile_flush hooks and, unless one skips it, writes the tile to the back
 * frame buffer (one write per row through routes.color).
 */
void tsr_stage_tile_flush(struct tsr_gpu *g, struct tsr_tile_work *w,
			  struct tsr_frame_stats *st);

#endif
