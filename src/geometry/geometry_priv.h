/*
 * geometry_priv.h - the Geometry Pipeline's internals shared by its stage
 * files (not part of the public API; geometry.h is): the pipeline's state,
 * the work items that flow between the stages, the bounded queues that
 * hold them and each stage's step and readiness functions.
 *
 * A stage's step takes one work item from its input queue and pushes what
 * it produces into its output queue; its readiness says whether a work
 * item waits and the output queue has room for the most one item makes.
 * Steps assume readiness (geometry.c checks it for outside callers).
 */
#ifndef TSR_GEOMETRY_GEOMETRY_PRIV_H
#define TSR_GEOMETRY_GEOMETRY_PRIV_H

#include "geometry/geometry.h"
#include "core/ring.h"

/* A vertex in clip space with its varyings, as the Vertex Shader outputs it. */
struct tsr_clip_vertex {
	float p[4];          /* clip-space position */
	union {
		struct {
			float u, v, shade; /* the fixed vertex shading's varyings */
		};
		struct {
			uint32_t vary;  /* a program draw: its varyings' entry in the
			                   geometry's store (g->vary, varying_slots vec4s) */
			float psize;    /* and gl_PointSize as the vertex program wrote it
			                   (1 when it did not) */
		};
	};
	uint32_t codes;      /* clip codes (tsr_geo_clip_codes), 0 when not needed,
				and TSR_GEO_UNPROJECTED (tsr_geo_viewport) */
	/* the viewport transform of p (tsr_geo_viewport), once per vertex */
	int32_t sx, sy;      /* window position, 1/2^TSR_SUBPIXEL_BITS pixels, rounded */
	float z;             /* window depth, clamped to [0, 1] */
	float iw;            /* 1 / w */
};

/* Command Processor -> Vertex Fetch: one position of the draw's index buffer. */
struct tsr_geo_index_item {
	uint32_t position;   /* the index's position in the index buffer */
};

/* Vertex Fetch -> Vertex Shader: a vertex to shade, or a post-transform-cache hit. */
struct tsr_geo_vertex_item {
	uint32_t vertex;     /* the vertex's index in the mesh */
	uint32_t hit;        /* 1: shaded already (post-transform cache hit) */
};

/* Vertex Shader -> Primitive Assembly: a shaded vertex. */
struct tsr_geo_shaded_item {
	struct tsr_clip_vertex v;
};

/* Primitive Assembly -> Clipper, Clipper -> Culling and viewport: a triangle. */
struct tsr_geo_triangle_item {
	struct tsr_clip_vertex v[3];
};

#define TSR_GEO_CLIP_MAX_VERTICES 12  /* a triangle clipped by 6 planes, with room */
#define TSR_GEO_CLIP_MAX_TRIANGLES (TSR_GEO_CLIP_MAX_VERTICES - 2)  /* its fan */
#define TSR_GEO_QUEUE_ITEMS 32        /* capacity of each queue, work items */

struct tsr_geometry {
	struct tsr_geometry_config cfg;

	/* the draw call in flight (latched by the Command Processor) */
	struct tsr_draw draw;
	struct tsr_mesh mesh;                 /* its mesh's descriptor (draw.mesh) */
	struct tsr_memsys *mem;
	struct tsr_prim_array *out;           /* Culling and viewport's output */
	struct tsr_geometry_stats *st;
	uint32_t index_port, vertex_port;     /* memory ports of the index and vertex streams */
	uint32_t instruction_port[TSR_MAX_CORES]; /* per core: its instruction stream's port */

	/* Command Processor: the next index position to send */
	uint32_t next_index;

	/* Vertex Fetch: the post-transform cache, a FIFO of vertex indices */
	uint32_t ptc_entries;
	uint32_t *ptc;
	uint32_t ptc_next, ptc_fill;
	uint8_t *ptc_held;                    /* per vertex of the mesh: 1 if in the FIFO */
	uint32_t ptc_held_cap;

	/* Vertex Shader: shaded vertices of the current mesh, by vertex index
	 * (the post-transform cache's data: a hit reads its vertex here) */
	struct tsr_clip_vertex *shaded;
	uint32_t shaded_cap;
	uint32_t shading_core;                /* the core of the current group of 4 */
	uint32_t shading_group_fill;          /* vertices of the group shaded (0..3);
	                                         both restart every frame */

	/* program draws: the varyings of the draw's shaded vertices (entry v
	 * for vertex v) and of the Clipper's new vertices (after them) */
	float *vary;
	uint32_t vary_cap;            /* floats */
	uint32_t vary_count;          /* entries used */
	uint32_t vary_floats;         /* floats an entry holds (4 x varying_slots) */
	int vary_failed;              /* the store could not grow: the draw fails */
	struct tsr_vs_in vs_in;       /* the vertex program's inputs, reused */
	uint8_t *vs_done;             /* per vertex of the mesh (shaded_cap): 1 once shaded
	                                 in this draw (straight programs, shaded 4 at a time) */
	int vs_straight;              /* the draw's vertex program is straight
	                                 (tsr_shader_exec_straight) */
	uint64_t vs_run_instructions; /* a straight program's instructions a run */

	/* Primitive Assembly: corners of the triangle being assembled, which
	 * are staged in the free slot at the back of the Clipper's queue; for
	 * strips and fans the vertices kept (the fan's first, the last two)
	 * and the vertices seen */
	uint32_t corners;
	struct tsr_clip_vertex pa_keep[2], pa_first;
	uint32_t pa_seen;

	/* points and lines (points_lines.c): the kind of the triangles being
	 * culled (enum tsr_prim_kind: a point's or a line's are neither face
	 * culled nor offset, and front-facing) and a point's position and size */
	uint8_t expand_kind;
	float expand_point[3];

	/* queue[s]: the input queue of stage s (none for the Command Processor) */
	struct tsr_ring queue[TSR_GEO_STAGE_COUNT];
};

/*
 * The stages, one file each. *_begin prepares the stage for the draw call
 * just latched in g->draw; *_step runs one work item (the stage must be
 * ready: tsr_geometry_stage_ready()). A step is its stage's work on one
 * item (the functions below without _step, which the functional mode of
 * geometry.c calls back to back without the queues) between the pop of
 * its input and the push of its output.
 */
/* command_processor.c: sends the next index position to Vertex Fetch. */
void tsr_geo_cp_begin(struct tsr_geometry *g);
void tsr_geo_cp_step(struct tsr_geometry *g);
/* vertex_fetch.c: index read, post-transform cache, vertex read (Errors of begin: TSR_ERR_NOMEM). */
enum tsr_status tsr_geo_vf_begin(struct tsr_geometry *g, struct tsr_error *err);
void tsr_geo_vf_step(struct tsr_geometry *g);
/* Vertex Fetch of index position i: the index read, the post-transform
 * cache lookup (*hit = 1 on a hit), else the vertex read; the vertex index. */
uint32_t tsr_geo_vf_fetch(struct tsr_geometry *g, uint32_t i, uint32_t *hit);
/* vertex_shader.c: instruction fetch and shading (Errors of begin: TSR_ERR_NOMEM). */
enum tsr_status tsr_geo_vs_begin(struct tsr_geometry *g, struct tsr_error *err);
void tsr_geo_vs_step(struct tsr_geometry *g);
/* Shades vertex `vertex` (a post-transform-cache miss) on the next core of
 * the round-robin, with its instruction fetch, into g->shaded[vertex]. */
void tsr_geo_vs_shade(struct tsr_geometry *g, uint32_t vertex);
/* assembly.c: triangle lists, in program order. */
void tsr_geo_pa_begin(struct tsr_geometry *g);
void tsr_geo_pa_step(struct tsr_geometry *g);
/* A strip's or fan's next shaded vertex v: 1 with the triangle it closes
 * in out, else 0 (the first two). */
int tsr_geo_pa_strip(struct tsr_geometry *g, const struct tsr_clip_vertex *v,
		     struct tsr_clip_vertex out[3]);
/* clip.c: trivial reject, guard-band clipping, the fan. */
void tsr_geo_clip_step(struct tsr_geometry *g);
#define TSR_GEO_CLIP_PASS UINT32_MAX  /* tsr_geo_clip_triangle: passes unchanged */
/*
 * The Clipper on triangle v: 0 when it is culled (counted),
 * TSR_GEO_CLIP_PASS when it passes unchanged, else the n >= 3 vertices of
 * the clipped polygon in poly, to be fanned from poly[0].
 */
uint32_t tsr_geo_clip_triangle(struct tsr_geometry *g, const struct tsr_clip_vertex *const v[3],
			       struct tsr_clip_vertex poly[TSR_GEO_CLIP_MAX_VERTICES]);
/*
 * The clip codes of a shaded vertex, computed once per vertex for the
 * Clipper: bit k (0..5) set when it is outside plane k of the frustum
 * (near, far, x, -x, y, -y), bit 8 + k when outside plane k widened to the
 * guard band.
 */
uint32_t tsr_geo_clip_codes(const struct tsr_clip_vertex *v);
/* cull.c: viewport transform, setup, culling (Errors: TSR_ERR_NOMEM). */
enum tsr_status tsr_geo_cull_step(struct tsr_geometry *g, struct tsr_error *err);
/* codes: the viewport transform is out of range (w = 0, or beyond the
 * screen coordinate bound): a triangle with this vertex is culled */
#define TSR_GEO_UNPROJECTED (1u << 16)
/*
 * The viewport transform of clip vertex v into its sx, sy, z and iw, for
 * Culling and viewport (done once per vertex: by the Vertex Shader, and by
 * the Clipper for the vertices it makes); sets TSR_GEO_UNPROJECTED in
 * v->codes instead when it is out of range.
 */
void tsr_geo_viewport(const struct tsr_geometry *g, struct tsr_clip_vertex *v);
/* Setup checks and culling of triangle cv, whose vertices' viewport
 * transform (tsr_geo_viewport) is done; appends the primitive that passes
 * (Errors: TSR_ERR_NOMEM). */
enum tsr_status tsr_geo_cull_triangle(struct tsr_geometry *g,
				      const struct tsr_clip_vertex *const cv[3],
				      struct tsr_error *err);

/*
 * The Clipper on line segment a-b (GL ES 2.0 2.13: against the frustum
 * itself, no guard band): 0 when it is wholly outside, else 1 with the
 * segment's ends in out (a's and b's, or the vertices clipping made, with
 * their viewport transform). Sets g->vary_failed when the varyings' store
 * cannot grow.
 */
int tsr_geo_clip_line(struct tsr_geometry *g, const struct tsr_clip_vertex *a,
		      const struct tsr_clip_vertex *b, struct tsr_clip_vertex out[2]);
/* The Clipper then culling of triangle v (the functional mode's), counted
 * in primitives_in (Errors: TSR_ERR_NOMEM). */
enum tsr_status tsr_geo_clip_and_cull(struct tsr_geometry *g,
				      const struct tsr_clip_vertex *const v[3],
				      struct tsr_error *err);
/* points_lines.c: point v's square, or line segment a-b's parallelogram,
 * as two triangles through tsr_geo_clip_and_cull (Errors: TSR_ERR_NOMEM). */
enum tsr_status tsr_geo_point(struct tsr_geometry *g, const struct tsr_clip_vertex *v,
			      struct tsr_error *err);
enum tsr_status tsr_geo_line(struct tsr_geometry *g, const struct tsr_clip_vertex *a,
			     const struct tsr_clip_vertex *b, struct tsr_error *err);

/* Room for `entries` entries in g->vary (its pointer may change):
 * 0, or -1 when out of memory. */
int tsr_geo_vary_reserve(struct tsr_geometry *g, uint64_t entries);

/* A chunk of `floats` floats from a primitive array's varying storage;
 * NULL when out of memory. */
float *tsr_vary_alloc(struct tsr_vary_arena *v, uint32_t floats);

/* Room each stage needs in its output queue for one work item. */
static inline uint32_t tsr_geo_output_need(enum tsr_geometry_stage s)
{
	return s == TSR_GEO_CLIP ? TSR_GEO_CLIP_MAX_TRIANGLES : 1;
}

#endif
