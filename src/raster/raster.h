/*
 * raster.h - the Raster Pipeline over one render target window (a tile's
 * on-chip buffers in TBR; TCOR II-A, DTexL II-A, RE II), as four stages
 * with explicit work items and bounded queues between them (queue.h):
 *
 *   primitive queue -> Rasterizer -> Early-Z queue -> Early-Z
 *     -> one quad queue per shader core -> fragment shading (core c)
 *     -> blend queue -> blending (late Z first for alpha-tested materials)
 *
 *  1. Rasterizer (rasterizer.c), work item a primitive (struct
 *     tsr_raster_prim): covers it with 2x2 quads (struct tsr_quad) aligned
 *     to the window, a 4-bit coverage mask each, sampling pixel centres in
 *     1/256-pixel fixed point with the top-left fill rule (a pixel on an
 *     edge shared by two triangles belongs to exactly one), and
 *     interpolates depth.
 *  2. Early-Z (early_z.c), work item a quad: per-pixel stencil test (when
 *     the draw enables it: the primitive's face's state, its ops and write
 *     mask) and depth test against the window's on-chip stencil and depth
 *     buffers (no memory traffic), depth written for opaque materials;
 *     quads whose program discards skip both and take them in late Z
 *     after shading. A surviving quad goes to a shader core by the
 *     quad grouping and the tile's subtile assignment (DTexL III-B, Fig. 6).
 *  3. Fragment shading (fragment.c), work item a quad on one core: the
 *     core fetches the fragment shader's instructions through its L1
 *     instruction cache and, for textured materials, issues one sample
 *     instruction whose coalesced line requests go to its L1 texture
 *     cache. Attributes are interpolated perspective-correctly (helper
 *     lanes included, for derivatives).
 *  4. Blending (blend.c), work item a quad: late Z (stencil and depth
 *     tests) for programs that discard, then the on-chip color buffer (opaque: replace; alpha:
 *     source-over).
 *
 * Each stage function consumes at most one work item and reports whether
 * it did (enum tsr_stage_result), so a timing model can schedule the
 * stages and the cores without changing what they compute. Only shading
 * touches memory; to keep the memory hierarchy's access order, a
 * scheduler shades quads in the order they were rasterized
 * (tsr_raster_oldest_core()). Hazards a scheduler need not track itself:
 * a pixel's quads always go to the same core, so per-pixel order is kept
 * by the FIFOs, and Early-Z stalls while quads of an alpha-tested
 * primitive (whose depth is written at blending) are in flight. The
 * functional mode (tsr_raster_drain, tsr_raster_primitive) runs the
 * stages back to back: a primitive's quads are rasterized into the
 * Early-Z queue, then each goes through the other stages in turn.
 *
 * The raster stages know nothing of the tile loop that feeds them: the
 * window is a parameter, so an immediate-mode renderer can drive them too.
 * With a memory backend (struct tsr_target_memory, target_memory.c) the
 * same stages also issue the depth, HiZ and color traffic of an
 * immediate-mode renderer (GSPC Section 2.1).
 * Not modelled: cycles (a timing model's job), multisampling.
 */
#ifndef TSR_RASTER_RASTER_H
#define TSR_RASTER_RASTER_H

#include <stdint.h>

#include "core/status.h"
#include "geometry/primitive.h"
#include "memory/memsys.h"
#include "stats/counters.h"
#include "command/resources.h"
#include "command/state.h"
#include "raster/quad_grouping.h"
#include "texture/texture.h"
#include "shader/shader.h"
#include "texture/texture.h"
#include "timing/worklog.h"

/*
 * The memory backend of a render target (GSPC Section 2.1, Fig. 3: the
 * immediate-mode renderer's depth, HiZ and color buffers live in memory
 * and are reached through the Z, HiZ and render-target caches). The
 * stages compute on the window's float buffers exactly as on chip, and
 * with a backend they also issue the buffers' memory accesses:
 *
 *  - HiZ (Early-Z, opaque and alpha-blended materials): one 4-byte entry
 *    per 8x8-pixel block holding the largest depth of the block; a quad
 *    none of whose covered pixels is nearer than it is killed before the
 *    per-pixel test (it would fail it anyway: the result is the same).
 *    An entry whose block had depth written since is recomputed from the
 *    depth buffer and written back (the HiZ unit's update), then read.
 *  - Z: the quad's 16 bytes (4 bytes per pixel: depth, or depth and
 *    stencil packed as D24S8) are read for the per-pixel test (Early-Z,
 *    or late Z for programs that discard; a stencil test reads them even
 *    with the depth test off) and written back when a pixel's depth or
 *    stencil value changed. The stencil adds no traffic of its own (the
 *    stencil stream stays idle): it lives in the depth buffer's words.
 *  - color: 4 bytes per pixel (RGBA8), a quad's 16 bytes written after
 *    blending; alpha blending reads them first.
 *
 * Depth and color are laid out in 8x8-pixel blocks of 256 bytes (four
 * 64-byte lines), quads row-major inside a block, blocks row-major over
 * the screen: a quad is one 16-byte access, a line holds 8x2 pixels.
 * Clears are fast clears (no traffic). The values kept are the window's
 * floats (depth 32-bit float; color at float precision, as the TBR's
 * on-chip buffers: an RGBA8 target rounding after every blend would
 * differ from the TBR's image under alpha blending).
 */
struct tsr_target_memory {
	uint64_t depth_base;    /* Z buffer's byte address (stream z) */
	uint64_t hiz_base;      /* HiZ buffer's byte address (stream hiz) */
	uint64_t color_base;    /* color buffer's byte address (color_stream) */
	uint64_t mrt_base[TSR_MAX_DRAW_BUFFERS - 1]; /* color targets 1..3's byte
	                           addresses (laid out as color; color_stream), when
	                           struct tsr_target's mrt[i] are set */
	uint32_t blocks_x;      /* 8x8-pixel blocks per screen row */
	uint32_t width, height; /* screen, pixels */
	uint32_t z_port, hiz_port, color_port;  /* tsr_memsys_port() of each route */
	uint32_t color_stream;  /* enum tsr_stream: display (frame buffer) or render_target */
	int hiz;                /* 1: test HiZ before the per-pixel depth test */
	const float *depth;     /* the screen's depth buffer, width per row */
	float *hiz_max;         /* per block: the largest depth of its pixels */
	uint8_t *hiz_dirty;     /* per block: 1 when depth was written since hiz_max */
	struct tsr_memsys *mem; /* where the accesses go */
};

/*
 * A render target window: on-chip depth and color buffers for a tile
 * (TBR), or a window over the screen-sized buffers of an immediate-mode
 * renderer, whose memory traffic `memory` describes.
 */
struct tsr_target {
	int32_t x0, y0;         /* screen position of the window's top-left pixel */
	uint32_t width, height; /* pixels (edge tiles may be partial) */
	uint32_t stride;        /* pixels per buffer row */
	float *depth;           /* stride * height, window depth 0..1 */
	float *color;           /* stride * height * 4, RGBA 0..1; NULL: no color
	                           output (a depth render target's pass: blending
	                           writes nothing) */
	uint8_t *stencil;       /* stride * height, 8-bit stencil values; NULL
	                           when no draw of the pass tests stencil */
	float *mrt[TSR_MAX_DRAW_BUFFERS - 1]; /* color targets 1..3 (GL_EXT_draw_buffers),
	                           each laid out as color; NULL: none (a pass of
	                           one color target leaves them all NULL) */
	struct tsr_target_memory *memory;  /* NULL: on-chip buffers, no memory traffic */
};

/*
 * HiZ test of a quad at screen position (x, y) (even) whose pixels in
 * `mask` have depths z (GSPC Section 2.1), for DEPTH_FUNC LESS (lequal 0)
 * or LEQUAL (lequal 1), the funcs whose failure a block's largest depth
 * proves (the others skip HiZ): recomputes the block's entry if depth was
 * written since (one HiZ write), reads it (one HiZ read) and returns 1
 * when no covered pixel is nearer than the block's largest depth (LEQUAL:
 * nearer or equal; the quad would fail the per-pixel test: kill it), else
 * 0. Hot path: no allocation.
 */
int tsr_target_hiz_kills(struct tsr_target_memory *m, int32_t x, int32_t y, uint8_t mask,
			 const float z[4], int lequal);

/*
 * The Z buffer's traffic of one per-pixel depth (and stencil) test of the
 * quad at (x, y): a 16-byte read, and a 16-byte write when `written` is
 * not 0: bit 0 (1) a depth was written (which also marks the block's HiZ
 * entry stale), bit 1 (2) a stencil value changed (D24S8: the same words).
 * Hot path: no allocation.
 */
void tsr_target_depth_traffic(struct tsr_target_memory *m, int32_t x, int32_t y, int written);

/*
 * The color buffer's traffic of blending the quad at (x, y): a 16-byte
 * read when `read` (alpha blending), then a 16-byte write. Hot path: no
 * allocation.
 */
void tsr_target_color_traffic(struct tsr_target_memory *m, int32_t x, int32_t y, int read);

/*
 * The same traffic for color target i (1..3, GL_EXT_draw_buffers) at
 * m->mrt_base[i - 1]: a 16-byte read when `read`, then a 16-byte write.
 * Hot path: no allocation.
 */
void tsr_target_mrt_traffic(struct tsr_target_memory *m, uint32_t i, int32_t x, int32_t y,
			    int read);

/* struct tsr_quad's mode bits: what Early-Z, late Z and blending do with
 * the quad, from its draw's state (tsr_shader_binding_init()). */
#define TSR_QUAD_DEPTH_TEST 1u   /* DEPTH_TEST on */
#define TSR_QUAD_DEPTH_WRITE 2u  /* depth written where the test passes (DEPTH_TEST and DEPTH_WRITEMASK on) */
#define TSR_QUAD_LATE_Z 4u       /* the program discards or writes gl_FragDepthEXT: depth tested after shading */
#define TSR_QUAD_READS_COLOR 8u  /* blending or a partial color mask reads the color buffer */
#define TSR_QUAD_SRC_OVER 16u    /* blending TSR_BLEND_PATH_SRC_OVER, all channels written */
#define TSR_QUAD_GENERAL 32u     /* blending TSR_BLEND_PATH_GENERAL or a partial color mask */
#define TSR_QUAD_STENCIL 64u     /* STENCIL_TEST on (with the depth test: Early-Z or late Z) */
#define TSR_QUAD_FETCH_COLOR 128u /* the program reads the color buffer (gl_LastFragData) */

/*
 * One face's stencil state as the raster stages apply it (GL ES 2.0
 * 4.1.5, on an 8-bit stencil buffer): func, the ops (enum tsr_stencil_op)
 * of a failed stencil test, a failed depth test and a passed one, the
 * reference clamped to 0..255, the value and write masks' low 8 bits.
 */
struct tsr_stencil_bits {
	uint8_t func;          /* enum tsr_compare_func */
	uint8_t ops[3];        /* sfail, dpfail, dppass */
	uint8_t ref, value_mask, write_mask;
};

/* The blending stage's path for a draw (tsr_shader_binding_init()). */
enum tsr_blend_path {
	TSR_BLEND_PATH_REPLACE = 0,  /* blending off: the fragment's color replaces the pixel's */
	TSR_BLEND_PATH_SRC_OVER,     /* rgb SRC_ALPHA / ONE_MINUS_SRC_ALPHA, alpha ONE /
	                                ONE_MINUS_SRC_ALPHA, both ADD: the common case, in SSE2 */
	TSR_BLEND_PATH_GENERAL,      /* any other factors and equations (GL ES 2.0 4.1.6) */
};

/*
 * What the raster stages need of one draw call, latched by the Command
 * Processor from the draw's state (command/state.h) and its program: the
 * program's (the material: color, lighting, ALU instructions; its
 * fragment shader's address and size), texture unit 0's texture and
 * sampler, and the per-fragment operations (scissor, depth, the
 * program's discard, stencil, blending, color mask). Filled by
 * tsr_shader_binding_init(); plain data.
 */
struct tsr_shader_binding {
	const struct tsr_material *material;  /* the program: color, lighting, ALU count */
	const struct tsr_texture *texture;    /* unit 0's texture, NULL when none bound */
	uint64_t fs_base;                     /* fragment shader address, bytes */
	uint32_t fs_bytes;                    /* fragment shader size, bytes */
	struct tsr_sampler sampler;           /* unit 0's filters and wraps */
	uint8_t quad_mode;                    /* TSR_QUAD_* bits */
	uint8_t depth_func;                   /* enum tsr_compare_func (DEPTH_FUNC) */
	uint8_t blend_path;                   /* enum tsr_blend_path */
	uint8_t color_mask;                   /* TSR_COLOR_MASK_* bits */
	uint8_t draw_buffers;                 /* bit i: the window's color target i
	                                         written (GL_EXT_draw_buffers: the draw
	                                         state's draw_buffers; 1: target 0
	                                         alone), each with this blend state
	                                         and color mask */
	uint8_t fill_bottom;                  /* 1: the fill rule's horizontal edges are the
	                                         bottom ones (a bottom-up target: GL's
	                                         lower-left rule in its rows), not the
	                                         top ones (tsr_gpu_bind_pass() sets it) */
	uint8_t scissor;                      /* 1: the box below bounds rasterization (the
	                                         scissor box, and a partial viewport's) */
	float alpha_cutoff;                   /* the program's discard: alpha below it */
	int32_t scissor_x0, scissor_y0, scissor_x1, scissor_y1; /* pixels, inclusive,
	                                                          window coordinates y down */
	struct tsr_blend_state blend;         /* factors, equations, constant color */
	struct tsr_stencil_bits stencil[2];   /* [0] front faces', [1] back faces'
	                                         (with TSR_QUAD_STENCIL) */
	uint8_t blend_src1;                   /* 1: a blend factor is a SRC1 one
	                                         (GL_EXT_blend_func_extended): shading
	                                         keeps the second source color,
	                                         struct tsr_quad's src1 */
	uint8_t stencil_hiz;                  /* 1: a quad the HiZ proves failing its depth
	                                         test changes no stencil value (no face's
	                                         sfail nor dpfail op writes): HiZ may kill it */
	/* a linked fragment program instead of the material's fixed shading
	 * (tsr_shader_binding_set_program()); NULL: the material's */
	struct tsr_shader_exec *program;
	uint32_t target_height;               /* pixels: gl_FragCoord's y is flipped */
	const struct tsr_texture *units[TSR_SHADER_MAX_TEXTURE_UNITS]; /* per texture
	                                         unit the program samples, NULL: none
	                                         (samples (0, 0, 0, 1)) */
	struct tsr_sampler unit_sampler[TSR_SHADER_MAX_TEXTURE_UNITS]; /* per unit: its
	                                         filters and wraps */
	const struct tsr_texture *const *unit_faces[TSR_SHADER_MAX_TEXTURE_UNITS]; /* a
	                                         cube map unit's six faces (+X, -X, +Y,
	                                         -Y, +Z, -Z; tsr_shader_binding_set_cube()),
	                                         NULL: a 2D unit */
};

/*
 * Fills *b for a draw with state s (command/state.h; the caller checked it
 * with tsr_draw_state_check()) whose program is `material` with its
 * fragment shader at fs_base (fs_bytes bytes), sampling `texture` (unit
 * 0's, or NULL) into a target of target_width x target_height pixels
 * (GL's scissor and viewport boxes have y up: they are flipped to the
 * window's y down). Pure; no errors.
 */
void tsr_shader_binding_init(struct tsr_shader_binding *b, const struct tsr_draw_state *s,
			     const struct tsr_material *material,
			     const struct tsr_texture *texture, uint64_t fs_base,
			     uint32_t fs_bytes, uint32_t target_width, uint32_t target_height);

/*
 * Makes b's draw (initialised by tsr_shader_binding_init()) run the linked
 * fragment program whose execution state is exec (the caller's, alive
 * while the draw is rendered) instead of the material's fixed shading:
 * each shaded quad's varyings (the primitive's, struct tsr_primitive) are
 * interpolated perspective-correctly, the program runs on its four lanes
 * (OpenGL ES 2.0.25 3.8), each sample instruction samples textures[u]
 * (count entries; NULL or beyond: none) with unit u's filters and wraps of
 * s (units past TSR_MAX_TEXTURE_UNITS: LINEAR, REPEAT) through the core's
 * L1 texture cache, a discard removes lanes before the depth test
 * (TSR_QUAD_LATE_Z when the program can discard), and the color is
 * clamped to [0, 1]. The material keeps giving the instruction fetch's
 * size. Every unit is a 2D one (a cube map sample of it reads (0, 0, 0,
 * 1)) until tsr_shader_binding_set_cube() makes it a cube map. Pure; no
 * errors.
 */
void tsr_shader_binding_set_program(struct tsr_shader_binding *b, struct tsr_shader_exec *exec,
				    const struct tsr_draw_state *s,
				    const struct tsr_texture *const *textures, uint32_t count);

/*
 * Makes unit u (< TSR_SHADER_MAX_TEXTURE_UNITS) of b's program draw
 * (tsr_shader_binding_set_program() first) a cube map whose faces are
 * faces[0..5] (+X, -X, +Y, -Y, +Z, -Z; the caller's array, read when the
 * draw samples, alive while it is rendered): its cube map samples
 * (textureCube) sample them with the unit's filters
 * (tsr_texture_sample_cube_quad(): CLAMP_TO_EDGE whatever its wraps), its
 * 2D samples read (0, 0, 0, 1). Pure; no errors.
 */
void tsr_shader_binding_set_cube(struct tsr_shader_binding *b, uint32_t u,
				 const struct tsr_texture *const *faces);

/*
 * The Rasterizer's work item: a primitive and its shader. Both must stay
 * valid until the primitive's last quad is blended (in TBR: the frame's
 * primitive array and the GPU's bindings).
 */
struct tsr_raster_prim {
	const struct tsr_primitive *prim;
	const struct tsr_shader_binding *shader;
};

/*
 * The work item of Early-Z, shading and blending: a quad in flight. A
 * quad moving to the next queue copies only what the next stages need:
 * not its colors to shading (which writes them into its output slot), not
 * its barycentrics to blending.
 */
struct tsr_quad {
	int32_t x, y;           /* screen position of the top-left pixel (even) */
	uint32_t seq;           /* rasterization order (wraps), for in-order shading */
	uint8_t mask;           /* bit i: pixel i covered (0=(0,0) 1=(1,0) 2=(0,1) 3=(1,1)) */
	uint8_t core;           /* shader core (set by Early-Z) */
	uint8_t mode;           /* its draw's TSR_QUAD_* bits (no pointer chase per stage) */
	uint8_t depth_func;     /* its draw's enum tsr_compare_func */
	const struct tsr_primitive *prim;
	const struct tsr_shader_binding *shader;
	float z[4];             /* window depth per pixel (Rasterizer; Early-Z, late Z) */
	float l[3][4];          /* l[i][k]: screen-space barycentric i of pixel k (Rasterizer;
				   shading), a vector of the four pixels per i */
	float src1[4][4];       /* second source colors per pixel, clamped (shading, only
				   for a draw whose blend takes them: blend_src1;
				   blending's SRC1 factors) */
	float rgba[4][4];       /* shaded colors per pixel (shading; blending) */
	float mrt[TSR_MAX_DRAW_BUFFERS - 1][4][4]; /* color targets 1..3's shaded colors
	                           per pixel (GL_EXT_draw_buffers' gl_FragData[1..3],
	                           or gl_FragColor's); written only for draws whose
	                           draw_buffers select a target past 0 */
};

/* What the Raster Pipeline needs of the GPU configuration. */
struct tsr_raster_config {
	uint32_t cores;                      /* shader cores */
	enum tsr_quad_grouping quad_grouping;
};

struct tsr_raster;

/*
 * Where the raster stages work: the window, the memory hierarchy shading
 * fetches through, and the counters every stage adds to. Plain data the
 * caller fills; the same for every stage call of one window.
 */
struct tsr_raster_ctx {
	struct tsr_target *target;
	struct tsr_memsys *mem;
	struct tsr_raster_stats *rs;
	struct tsr_texture_stats *ts;
	struct tsr_worklog *log;  /* timing mode: the stages record their work items
				     (timing/worklog.h); NULL: not recorded */
};

/* What a stage did with one call. */
enum tsr_stage_result {
	TSR_STAGE_DONE = 0,  /* consumed one work item (and pushed its outputs) */
	TSR_STAGE_IDLE,      /* its input queue is empty */
	TSR_STAGE_STALLED,   /* an output queue is full, or a hazard: retry later */
};

/*
 * Creates a raster pipeline for windows of at most max_width x max_height
 * pixels. The Early-Z queue holds a whole window's quads (the Rasterizer
 * pushes a primitive's quads at once), each core's queue and the blend
 * queue at most TSR_RASTER_QUAD_QUEUE, the primitive queue
 * TSR_RASTER_PRIM_QUEUE primitives; all are allocated here. Errors:
 * TSR_ERR_CONFIG (cores not in 1..TSR_MAX_CORES), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_raster_create(const struct tsr_raster_config *cfg,
				  uint32_t max_width, uint32_t max_height,
				  struct tsr_raster **out,
				  struct tsr_error *err);
void tsr_raster_destroy(struct tsr_raster *r);

/*
 * Sets the subtile -> shader core permutation Early-Z uses from now on
 * (DTexL III-D: the current tile's subtile assignment, from
 * tsr_subtile_assign_step()); subtile_core[s] < cores for s < cores, a
 * permutation. The raster unit starts with the identity. Call it between
 * tiles, when no quad of the previous tile waits for Early-Z.
 */
void tsr_raster_set_subtile_cores(struct tsr_raster *r, const uint8_t *subtile_core);

/* Primitives the Rasterizer's input queue holds. */
#define TSR_RASTER_PRIM_QUEUE 64

/* Most quads a shader core's queue and the blend queue hold. */
#define TSR_RASTER_QUAD_QUEUE 256

/* ---- one work item at a time (a timing model's interface) ---- */

/*
 * Appends a primitive to the Rasterizer's input queue (the Tile Fetcher's
 * output). Returns 1, or 0 when the queue is full (nothing appended).
 */
int tsr_raster_submit(struct tsr_raster *r, const struct tsr_raster_prim *item);

/*
 * Rasterizer: takes the oldest queued primitive and pushes the quads that
 * cover it inside c->target to the Early-Z queue, in scan order (rows of
 * quads top to bottom, left to right), with depth and barycentrics. The
 * window must be no larger than the one given at creation. Stalls unless
 * the Early-Z queue has room for every quad of the primitive's bounding
 * box in the window. Counts quads_rasterized. Hot path: no allocation.
 */
enum tsr_stage_result tsr_raster_rasterize(struct tsr_raster *r,
					   const struct tsr_raster_ctx *c);

/*
 * Early-Z: takes the oldest quad of the Early-Z queue, stencil-tests
 * (when its draw enables it, updating the stencil values) and
 * depth-tests it against c->target (writing depth for opaque materials;
 * quads whose program discards pass untested) and pushes it, if any pixel survives, to the queue
 * of its shader core (tsr_quad_core()). Stalls when that queue is full,
 * or when the quad is not alpha-tested and quads of an alpha-tested
 * primitive have not been blended yet (their depth writes are pending).
 * Counts quads_early_z_killed.
 */
enum tsr_stage_result tsr_raster_early_z(struct tsr_raster *r,
					 const struct tsr_raster_ctx *c);

/*
 * Fragment shading on shader core `core` (< cores): takes the oldest quad
 * of the core's queue, fetches the fragment shader through the core's L1
 * instruction cache, interpolates the varyings, samples the texture
 * through the core's L1 texture cache (memory accesses through c->mem)
 * and pushes the shaded quad to the blend queue. Stalls when it is full.
 * Counts quads_shaded, quads_per_core, fragments_shaded,
 * instruction_fetches and the texture counters.
 */
enum tsr_stage_result tsr_raster_shade(struct tsr_raster *r, uint32_t core,
				       const struct tsr_raster_ctx *c);

/*
 * Blending: takes the oldest quad of the blend queue; for alpha-tested
 * materials, discards pixels under the alpha cutoff, and for every
 * program that discards stencil- and depth-tests the rest (late Z,
 * writing stencil and depth); blends the survivors into c->target's
 * color buffer. Counts fragments_discarded, quads_late_z_killed and
 * pixels_written.
 */
enum tsr_stage_result tsr_raster_blend(struct tsr_raster *r,
				       const struct tsr_raster_ctx *c);

/*
 * The shader core whose queue holds the oldest quad (the next to shade to
 * keep rasterization order), or -1 when every core's queue is empty.
 */
int tsr_raster_oldest_core(const struct tsr_raster *r);

/* Work items waiting: primitives queued plus quads in every quad queue. */
uint32_t tsr_raster_pending(const struct tsr_raster *r);

/* ---- the functional mode: back to back ---- */

/*
 * Runs the stages back to back until every queue is empty: for each
 * queued primitive in order, rasterizes it, then takes its quads one by
 * one through Early-Z, shading and blending (quads a stepping caller left
 * in the queues go first). Memory accesses go through c->mem in the order
 * of the unpipelined model: each quad shaded in scan order. Hot path: no
 * allocation.
 */
void tsr_raster_drain(struct tsr_raster *r, const struct tsr_raster_ctx *c);

/*
 * Renders one primitive into the window: all four stages, through
 * tsr_raster_submit() and tsr_raster_drain(). Memory accesses go through
 * `mem`; counters into rs and ts. Hot path: no allocation.
 */
void tsr_raster_primitive(struct tsr_raster *r, const struct tsr_primitive *p,
			  const struct tsr_shader_binding *shader,
			  struct tsr_target *t, struct tsr_memsys *mem,
			  struct tsr_raster_stats *rs,
			  struct tsr_texture_stats *ts);

#endif
