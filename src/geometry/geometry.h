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
 *
 * Stages and work items (files of this folder; geometry_priv.h):
 *   Command Processor (command_processor.c): a draw call -> its constants,
 *     then its index stream, one index position per work item;
 *   Vertex Fetch (vertex_fetch.c): an index position -> the index read,
 *     the post-transform cache looked up; on a miss the vertex's attributes
 *     read: a vertex to shade, or a post-transform-cache hit;
 *   Vertex Shader (vertex_shader.c): a vertex on a core -> a shaded vertex
 *     (a hit passes through, already shaded);
 *   Primitive Assembly (assembly.c): 3 shaded vertices -> a triangle (of
 *     a list, strip or fan); a point or a line segment (GL_POINTS, LINES,
 *     LINE_STRIP, LINE_LOOP: geometry.c, functional mode only) -> its
 *     square or parallelogram as two triangles (points_lines.c: a point
 *     clipped by its vertex, a segment against the frustum first; neither
 *     face culled), which go on through the Clipper and culling;
 *   Clipper (clip.c): a triangle -> 0 (outside), 1 or up to 10 triangles;
 *   Culling and viewport (cull.c): a clip-space triangle -> a screen-space
 *     primitive appended to the frame's primitives, or culled.
 * Between consecutive stages is a bounded queue (queue.h) allocated at
 * creation. Each stage can run one work item at a time
 * (tsr_geometry_stage_step), for a timing model to schedule; every stage
 * is in order, so any schedule computes the same primitives. The
 * functional mode (tsr_geometry_draw) runs each index through every stage
 * before the next (the stages' work back to back, the queues left empty),
 * which keeps the memory accesses in the model's order: per index, the
 * index read, then on a miss the vertex read and the vertex shader's
 * instruction fetch. The Polygon List Builder
 * (tiling/parameter_buffer.h) consumes the primitives after the draw call.
 *
 * Left out: several draw calls in
 * flight (one at a time: the post-transform cache is flushed between them),
 * the stages' latencies (a timing model's business).
 */
#ifndef TSR_GEOMETRY_GEOMETRY_H
#define TSR_GEOMETRY_GEOMETRY_H

#include <stdint.h>

#include "core/status.h"
#include "core/vecmath.h"
#include "geometry/primitive.h"
#include "memory/memsys.h"
#include "stats/counters.h"
#include "command/resources.h"
#include "command/state.h"
#include "shader/shader.h"

#define TSR_VERTEX_STRIDE 32     /* bytes: position 12 + normal 12 + texcoord 8 */
#define TSR_GUARD_BAND 4.0f      /* guard band, in viewport widths/heights */
#define TSR_DEPTH_RESOLUTION (1.0 / 16777216.0) /* polygon offset's r: a 24-bit depth
                                                   buffer's smallest step */

/* One generic vertex attribute array of a program draw (GL ES 2.0 2.8). */
struct tsr_vertex_stream {
	const uint8_t *data;     /* host bytes of element 0 (the draw's snapshot); NULL:
	                            the array is disabled, `value` is the attribute */
	uint64_t address;        /* element 0's byte address (its buffer's region) */
	uint32_t stride;         /* bytes between elements (resolved: never 0) */
	uint8_t components;      /* 1..4 */
	uint8_t type;            /* enum tsr_attrib_type */
	uint8_t normalized;
	float value[4];          /* CURRENT_VERTEX_ATTRIB, for a disabled array */
};

/*
 * What a program draw adds to a draw call: the linked program's vertex
 * stage and its attribute arrays. The mesh then gives the index stream
 * only (its indices as u32 values, its vertex_count the largest index + 1;
 * positions, normals and texcoords unused) and index_bytes the size of
 * one index in memory (1, 2 or 4; 0 for glDrawArrays: no index read).
 */
struct tsr_vertex_input {
	struct tsr_shader_exec *program;   /* vertex stage (its uniforms as of the draw) */
	uint32_t varying_slots;            /* vec4 varyings the program passes on */
	uint32_t attrib_count;             /* locations 0..attrib_count-1 */
	struct tsr_vertex_stream attribs[TSR_SHADER_MAX_ATTRIBS];
};

/* How Primitive Assembly makes primitives of the vertex stream (GL ES 2.0
 * 2.6.1): TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN, POINTS, LINES,
 * LINE_STRIP, LINE_LOOP. Points and lines become triangles in the
 * functional mode (tsr_geometry_draw) only: points_lines.c. */
enum tsr_assembly {
	TSR_ASSEMBLE_LIST = 0,
	TSR_ASSEMBLE_STRIP,
	TSR_ASSEMBLE_FAN,
	TSR_ASSEMBLE_POINTS,
	TSR_ASSEMBLE_LINES,
	TSR_ASSEMBLE_LINE_STRIP,
	TSR_ASSEMBLE_LINE_LOOP,
};

/* One drawcall: a mesh instance with its matrices and buffer addresses. */
struct tsr_draw {
	const struct tsr_mesh *mesh;
	const struct tsr_material *material;
	uint32_t material_index;
	uint32_t draw_id;
	struct tsr_mat4 mvp;        /* projection * view * model */
	struct tsr_mat4 model;      /* for normals (uniform scale assumed) */
	float uv_offset[2];         /* added to the texture coordinates */
	uint64_t ib_base;           /* index buffer address */
	uint32_t index_bytes;       /* 2 or 4 */
	uint64_t vb_base;           /* vertex buffer address */
	uint64_t vs_base;           /* vertex shader address */
	uint32_t vs_bytes;          /* vertex shader size in bytes */
	struct tsr_cull_state cull; /* face culling (GL ES CULL_FACE, CULL_FACE_MODE,
	                               FRONT_FACE): the draw state's (cull.c) */
	struct tsr_viewport_state viewport; /* VIEWPORT and DEPTH_RANGE, pixels of the
	                                       target (y up, as GL): the draw state's */
	struct tsr_polygon_offset_state polygon_offset; /* POLYGON_OFFSET_FILL: the draw state's */
	uint8_t assembly;           /* enum tsr_assembly (0: triangle lists) */
	uint8_t line_width;         /* lines: pixels, 1..TSR_LINE_WIDTH_MAX (the draw
	                               state's rounded and clamped); 0 is taken as 1 */
	const struct tsr_vertex_input *input; /* a program draw (kept alive until the draw
	                                          call drains); NULL: the material's fixed
	                                          vertex shading of the mesh */
};

/* Storage of program draws' primitive varyings: fixed-size chunks, so
 * that the primitives' pointers stay valid as it grows. */
#define TSR_VARY_CHUNK_FLOATS (1u << 16)
struct tsr_vary_arena {
	float **chunks;
	uint32_t chunk_count, chunk_cap;
	uint32_t current;        /* the chunk being filled */
	uint32_t used;           /* floats used in it */
};

/* A growable array of primitives, reused from frame to frame. */
struct tsr_prim_array {
	struct tsr_primitive *prims;
	uint32_t count, capacity;
	struct tsr_vary_arena vary; /* their varyings (program draws) */
};

/* Empties a primitive array for a new frame (keeps its storage). */
void tsr_prim_array_reset(struct tsr_prim_array *a);

/* What the Geometry Pipeline needs of the GPU configuration. */
struct tsr_geometry_config {
	uint32_t width, height;                 /* screen, pixels */
	uint32_t cores;                         /* shader cores that shade vertices */
	uint32_t post_transform_cache_entries;  /* shaded vertices kept (FIFO), 0 = none */
};

struct tsr_geometry;

/*
 * Creates the Geometry Pipeline with its queues. Errors: TSR_ERR_CONFIG
 * (cores not 1..TSR_MAX_CORES), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_geometry_create(const struct tsr_geometry_config *cfg,
				    struct tsr_geometry **out,
				    struct tsr_error *err);

/*
 * Sets the viewport (pixels) the following draws map to and clip against:
 * the screen's, or a render target's for a render-to-texture pass.
 */
void tsr_geometry_set_viewport(struct tsr_geometry *g, uint32_t width, uint32_t height);
/* Frees the pipeline, its queues and buffers (NULL is fine). */
void tsr_geometry_destroy(struct tsr_geometry *g);

/* Starts a frame: resets the shaded-vertex counter that picks cores. */
void tsr_geometry_begin_frame(struct tsr_geometry *g);

/*
 * Runs one drawcall back to back (the functional mode): fetches, shades,
 * assembles, clips and culls, and appends the surviving screen-space
 * primitives to out in program order. Same as tsr_geometry_begin_draw()
 * followed by steps of every stage until tsr_geometry_busy() is 0, in the
 * order that keeps the memory accesses of the model (index by index).
 * Errors: TSR_ERR_NOMEM, TSR_ERR_INTERNAL (a draw call is in flight).
 */
enum tsr_status tsr_geometry_draw(struct tsr_geometry *g,
				  const struct tsr_draw *d,
				  struct tsr_memsys *mem,
				  struct tsr_prim_array *out,
				  struct tsr_geometry_stats *st,
				  struct tsr_error *err);

/* ---- the stages one work item at a time (for a timing model) ---- */

/* The Geometry Pipeline's stages, upstream first (work items above). */
enum tsr_geometry_stage {
	TSR_GEO_COMMAND_PROCESSOR = 0,
	TSR_GEO_VERTEX_FETCH,
	TSR_GEO_VERTEX_SHADER,
	TSR_GEO_ASSEMBLY,
	TSR_GEO_CLIP,
	TSR_GEO_CULL,
	TSR_GEO_STAGE_COUNT
};

/* The stage's name ("vertex_fetch", ...), NULL past the last. */
const char *tsr_geometry_stage_name(enum tsr_geometry_stage s);

/*
 * The Command Processor takes draw call d (copied: its constants are
 * latched), flushes the post-transform cache and counts the draw; the
 * index stream then flows from the Command Processor's steps. mem, out
 * and st are kept until the draw call drains: the stages read memory
 * through mem, append primitives to out and count into st. Errors:
 * TSR_ERR_INTERNAL (the previous draw call has not drained),
 * TSR_ERR_NOMEM (shaded-vertex storage).
 */
enum tsr_status tsr_geometry_begin_draw(struct tsr_geometry *g, const struct tsr_draw *d,
					struct tsr_memsys *mem, struct tsr_prim_array *out,
					struct tsr_geometry_stats *st, struct tsr_error *err);

/*
 * 1 when stage s can run one work item: one waits at its input (for the
 * Command Processor: an index of the draw call not yet sent) and its
 * output queue has room for the most that one work item produces.
 */
int tsr_geometry_stage_ready(const struct tsr_geometry *g, enum tsr_geometry_stage s);

/*
 * Runs one work item of stage s: takes it from the stage's input queue,
 * does its memory accesses and counting, and pushes its results to the
 * next stage's queue (Culling and viewport: to the primitives). Errors:
 * TSR_ERR_INTERNAL (the stage is not ready), TSR_ERR_NOMEM (primitives).
 */
enum tsr_status tsr_geometry_stage_step(struct tsr_geometry *g, enum tsr_geometry_stage s,
					struct tsr_error *err);

/* Work items waiting at the input of stage s (the Command Processor: indices left). */
uint32_t tsr_geometry_stage_pending(const struct tsr_geometry *g, enum tsr_geometry_stage s);

/* 1 while the current draw call has work left in any stage. */
int tsr_geometry_busy(const struct tsr_geometry *g);

/* Frees the array's storage and empties it. */
void tsr_prim_array_release(struct tsr_prim_array *a);

#endif
