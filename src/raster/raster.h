/*
 * raster.h - the Raster Pipeline for one primitive over one render target
 * window (a tile's on-chip buffers in TBR; TCOR II-A, DTexL II-A, RE II).
 *
 * Stages, each with explicit work items so a timing model can be layered
 * on them later:
 *  1. Rasterizer: covers the primitive with 2x2 quads (struct tsr_quad)
 *     aligned to the window, a 4-bit coverage mask each, sampling pixel
 *     centres in 1/256-pixel fixed point with the top-left fill rule (a
 *     pixel on an edge shared by two triangles belongs to exactly one).
 *  2. Early-Z: per-pixel depth test (less) against the window's on-chip
 *     depth buffer (no memory traffic), depth written for opaque materials;
 *     alpha-tested materials skip it and use late Z after shading.
 *  3. Fragment stage: the quad goes to a shader core by the quad grouping
 *     (FG-xshift2 or CG-square, DTexL III-B, Fig. 6); the core fetches the
 *     fragment shader's instructions through its L1 instruction cache and,
 *     for textured materials, issues one sample instruction whose coalesced
 *     line requests go to its L1 texture cache. Attributes are interpolated
 *     perspective-correctly (helper lanes included, for derivatives).
 *  4. Blending into the on-chip color buffer (opaque: replace; alpha:
 *     source-over).
 * The raster stages know nothing of the tile loop that feeds them: the
 * window is a parameter, so an immediate-mode renderer can drive them too.
 */
#ifndef TSR_RASTER_RASTER_H
#define TSR_RASTER_RASTER_H

#include <stdint.h>

#include "core/status.h"
#include "geometry/primitive.h"
#include "memory/memsys.h"
#include "stats/counters.h"
#include "scene/scene.h"
#include "texture/texture.h"

/* A render target window: on-chip depth and color buffers for a tile. */
struct tsr_target {
	int32_t x0, y0;         /* screen position of the window's top-left pixel */
	uint32_t width, height; /* pixels (edge tiles may be partial) */
	uint32_t stride;        /* pixels per buffer row */
	float *depth;           /* stride * height, window depth 0..1 */
	float *color;           /* stride * height * 4, RGBA 0..1 */
};

/* A quad in flight. */
struct tsr_quad {
	int32_t x, y;           /* screen position of the top-left pixel (even) */
	uint8_t mask;           /* bit i: pixel i covered (0=(0,0) 1=(1,0) 2=(0,1) 3=(1,1)) */
	uint8_t core;
	float z[4];
	float rgba[4][4];
};

/* Per-material state the fragment stage needs. */
struct tsr_shader_binding {
	const struct tsr_material *material;
	const struct tsr_texture *texture;  /* NULL when untextured */
	uint64_t fs_base;                   /* fragment shader address */
	uint32_t fs_bytes;                  /* fragment shader size, bytes */
};

enum tsr_quad_grouping {
	TSR_QG_FG_XSHIFT2 = 0,   /* core = (qx + 2*qy) mod cores (DTexL Fig. 6) */
	TSR_QG_CG_SQUARE,        /* the tile's quadrants (DTexL Fig. 6(g)) */
	TSR_QG_COUNT
};

/* Names of the groupings in the configuration (NULL-terminated). */
extern const char *const tsr_quad_grouping_names[];

/* What the Raster Pipeline needs of the GPU configuration. */
struct tsr_raster_config {
	uint32_t cores;                      /* shader cores */
	enum tsr_quad_grouping quad_grouping;
};

struct tsr_raster;

/*
 * Creates a raster pipeline for windows of at most max_width x max_height
 * pixels. Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_raster_create(const struct tsr_raster_config *cfg,
				  uint32_t max_width, uint32_t max_height,
				  struct tsr_raster **out,
				  struct tsr_error *err);
void tsr_raster_destroy(struct tsr_raster *r);

/* Core a quad at quad coordinates (qx, qy) of a window goes to. */
uint32_t tsr_quad_core(enum tsr_quad_grouping g, uint32_t cores, uint32_t qx,
		       uint32_t qy, uint32_t quads_w, uint32_t quads_h);

/*
 * Renders one primitive into the window: all four stages. Memory accesses
 * go through `mem`; counters into rs and ts. Hot path: no allocation.
 */
void tsr_raster_primitive(struct tsr_raster *r, const struct tsr_primitive *p,
			  const struct tsr_shader_binding *shader,
			  struct tsr_target *t, struct tsr_memsys *mem,
			  struct tsr_raster_stats *rs,
			  struct tsr_texture_stats *ts);

#endif
