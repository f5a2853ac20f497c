/*
 * geometry.h - the Geometry Pipeline (TCOR II-A, RE II): index and vertex
 * fetch through the L1 vertex cache, vertex shading, primitive assembly in
 * program order, clipping, culling and the viewport transform.
 *
 * Vertex fetch is index-driven, as in current mobile GPUs: for each index
 * (read from the index buffer through the vertex cache, stream "index") a
 * post-transform cache of the last N shaded vertices (FIFO, flushed between
 * drawcalls) is looked up; on a miss the vertex's interleaved attributes
 * (position, normal, texcoord: 32-byte stride, stream "vertex") are read
 * through the vertex cache and the vertex shader's instructions through the
 * instruction cache of the core that shades it (groups of 4 vertices go
 * round-robin to the cores, as a unified-shader GPU would).
 *
 * Clipping: triangles wholly outside one frustum plane are culled; the
 * others are clipped (Sutherland-Hodgman in clip space) against the near
 * and far planes and a guard band of 4x the viewport in x and y, and the
 * resulting polygon is fanned into triangles. Back faces (counter-clockwise
 * is front, as OpenGL's default) and zero-area triangles are culled.
 * Lighting: one fixed directional light (README), computed per vertex.
 */
#ifndef TSR_GEOMETRY_GEOMETRY_H
#define TSR_GEOMETRY_GEOMETRY_H

#include <stdint.h>

#include "core/status.h"
#include "core/vecmath.h"
#include "geometry/primitive.h"
#include "memory/memsys.h"
#include "stats/counters.h"
#include "scene/scene.h"

#define TSR_VERTEX_STRIDE 32     /* bytes: position 12 + normal 12 + texcoord 8 */
#define TSR_GUARD_BAND 4.0f      /* guard band, in viewport widths/heights */

/* One drawcall: a mesh instance with its matrices and buffer addresses. */
struct tsr_draw {
	const struct tsr_mesh *mesh;
	const struct tsr_material *material;
	uint32_t material_index;
	uint32_t draw_id;
	struct tsr_mat4 mvp;        /* projection * view * model */
	struct tsr_mat4 model;      /* for normals (uniform scale assumed) */
	uint64_t ib_base;           /* index buffer address */
	uint32_t index_bytes;       /* 2 or 4 */
	uint64_t vb_base;           /* vertex buffer address */
	uint64_t vs_base;           /* vertex shader address */
	uint32_t vs_bytes;          /* vertex shader size in bytes */
};

/* A growable array of primitives, reused from frame to frame. */
struct tsr_prim_array {
	struct tsr_primitive *prims;
	uint32_t count, capacity;
};

/* What the Geometry Pipeline needs of the GPU configuration. */
struct tsr_geometry_config {
	uint32_t width, height;                 /* screen, pixels */
	uint32_t cores;                         /* shader cores that shade vertices */
	uint32_t post_transform_cache_entries;  /* shaded vertices kept (FIFO), 0 = none */
};

struct tsr_geometry;

/* Creates the Geometry Pipeline. Errors: TSR_ERR_NOMEM. */
enum tsr_status tsr_geometry_create(const struct tsr_geometry_config *cfg,
				    struct tsr_geometry **out,
				    struct tsr_error *err);
void tsr_geometry_destroy(struct tsr_geometry *g);

/* Starts a frame: resets the shaded-vertex counter that picks cores. */
void tsr_geometry_begin_frame(struct tsr_geometry *g);

/*
 * Runs one drawcall: fetches, shades, assembles, clips and culls, and
 * appends the surviving screen-space primitives to out in program order.
 * Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_geometry_draw(struct tsr_geometry *g,
				  const struct tsr_draw *d,
				  struct tsr_memsys *mem,
				  struct tsr_prim_array *out,
				  struct tsr_geometry_stats *st,
				  struct tsr_error *err);

void tsr_prim_array_release(struct tsr_prim_array *a);

#endif
