/*
 * gpu_priv.h - the TBR GPU's state, shared by the pipeline's files (not
 * part of the public API): the GPU (gpu.c: resources, address map, units,
 * techniques, and the frame entry points), the two pipelines' frames
 * behind struct tsr_pipeline_driver (frame_loop.c: the TBR's;
 * imr_driver.c: the immediate mode's), what both do alike for a pass
 * (pass.c) and for a blit between passes (blit.c), the TBR's stages (stages.c: a draw call; tile_stages.c: a
 * tile, tile_stages.h) and the timing mode (timing_driver.c).
 */
#ifndef TSR_PIPELINE_GPU_PRIV_H
#define TSR_PIPELINE_GPU_PRIV_H

#include "command/command.h"
#include "geometry/geometry.h"
#include "memory/memsys.h"
#include "pipeline/gpu.h"
#include "raster/raster.h"
#include "raster/subtile_assign.h"
#include "techniques/technique.h"
#include "texture/texture.h"
#include "tiling/parameter_buffer.h"

struct mesh_buffers {
	uint64_t ib_base, vb_base;
	uint32_t index_bytes;
};

struct material_programs {
	uint64_t vs_base, fs_base;
	uint32_t vs_bytes, fs_bytes;
};

/*
 * A frame from its geometry phase to the end of its raster phase: the
 * Parameter Buffer it bins into, the primitives it made and what its
 * raster phase needs. One slot, or two with timing.overlap_frames (the
 * geometry of frame N+1 runs before the raster of frame N ends, into the
 * other Parameter Buffer, as Mali's double-buffered tiler heaps allow).
 */
struct frame_slot {
	struct tsr_param_buffer *pb;
	struct tsr_prim_array prims;          /* the frame's primitives, program order */
	uint32_t binned;                      /* prims[binned, count): the Polygon List
	                                         Builder's queue (not yet binned) */
	uint32_t frame;                       /* the frame's number */
	float clear[4];                       /* its pass's clear color */
	uint8_t load_color;                   /* 1: its pass keeps the color buffer's
	                                         contents: each tile loads them first */
	uint8_t load_depth;                   /* 1: its pass keeps the depth an earlier pass
	                                         stored into its depth texture (store_depth,
	                                         depth neither cleared nor invalidated): each
	                                         tile loads it first */
	uint8_t stencil;                      /* 1: a draw of its pass tests stencil: each
	                                         tile's on-chip stencil starts cleared */
	uint8_t stencil_clear;                /* the value it is cleared to */
	struct tsr_shader_binding *bindings;  /* per draw of its pass (the primitive's
	                                         draw): its state latched (tsr_gpu_bind_pass) */
	uint32_t binding_cap;
	struct tsr_frame_stats *st;           /* its counters (tsr_gpu_begin_frame()) */
	uint64_t *heat;                       /* tsr_gpu_enable_heat(): TSR_HEAT_COUNT arrays
	                                         of `tiles` per-tile counters, or NULL */
	uint8_t heat_done;                    /* heat holds a completed frame's */
};

#define TSR_FRAME_SLOTS 2

struct tsr_gpu {
	struct tsr_gpu_config cfg;
	struct tsr_worklog *log;              /* timing mode: the tile's work items, or NULL */
	struct tsr_timing *timing;            /* timing mode (timing_driver.c), or NULL */
	struct tsr_timing *timing_parked;     /* tsr_gpu_set_fast_forward(): the timing mode
	                                         and its work log while fast-forwarding */
	struct tsr_worklog *log_parked;
	tsr_mem_path_fn sink_parked;          /* and the memory's path sink */
	void *sink_ctx_parked;
	int fast_forward;                     /* tsr_gpu_set_fast_forward()'s mode */
	tsr_gpu_progress_fn progress;         /* tsr_gpu_set_progress(), or NULL */
	void *progress_ctx;
	struct tsr_resources res;             /* meshes, materials, images: the arrays below */
	struct tsr_mesh *own_meshes;          /* the GPU's copies of the resources'
	                                         descriptors (their data stays the
	                                         caller's), grown by tsr_gpu_add_resources */
	struct tsr_material *own_materials;
	struct tsr_image *own_images;
	uint32_t mesh_cap, material_cap, image_cap; /* of the arrays above and of
	                                         meshes, programs and textures below */
	struct tsr_memsys *mem;
	struct tsr_addrmap map;
	struct tsr_geometry *geom;
	struct tsr_raster *raster;
	struct tsr_subtile_layout subtiles;   /* the grouping's subtiles (cg-*; DTexL III-D) */
	uint8_t subtile_core[TSR_MAX_CORES];  /* the current tile's subtile -> core */
	struct tsr_texture **textures;        /* per image */
	uint32_t *image_versions;             /* per image: its contents' version, counted
	                                         up by each update (tsr_gpu_update_image,
	                                         tsr_gpu_generate_mipmap); the techniques
	                                         sign it (tsr_tbr_view image_version) */
	struct mesh_buffers *meshes;
	struct material_programs *programs;
	struct frame_slot slots[TSR_FRAME_SLOTS];
	uint32_t slot_count;                  /* 1, or 2 with timing.overlap_frames */
	uint32_t frames_begun, frames_finished;
	struct frame_slot *geo;               /* the frame in its geometry phase */
	struct frame_slot *ras;               /* the frame in its raster phase */
	const struct tsr_frame_commands *cmds; /* the frame in its geometry phase's commands */
	struct tsr_texture *target_tex;       /* the pass's render target, NULL: frame buffer */
	int target_depth;                     /* 1: target_tex is a depth target (depth32f):
	                                         the pass has no color output */
	uint8_t fb_drawn;                     /* a pass of the frame drew the frame buffer: a
	                                         later one that keeps its color loads this
	                                         frame's (the back buffer), not the front */
	struct tsr_texture *store_depth_tex;  /* a color target pass's depth target too
	                                         (struct tsr_cmd_pass store_depth), or NULL */
	uint32_t target_width, target_height; /* the pass's target, pixels (<= the screen) */
	struct tsr_frame_stats *mem_base;     /* memory counters at a phase's start */
	struct tsr_frame_stats *mem_phase;    /* and a raster phase's share */
	uint32_t max_attributes;              /* most attributes of one primitive */
	uint32_t grid_width, grid_height;     /* pixels the tile grid covers: the screen and
	                                         every render target */
	uint32_t tiles_x, tiles_y, tiles;
	uint32_t *order, *order_reversed;
	float *tile_depth, *tile_color;
	float *tile_mrt;                      /* the tile's color planes of targets 1..3
	                                         (GL_EXT_draw_buffers), one after the
	                                         other, each laid out as tile_color */
	struct tsr_texture *target_mrt[TSR_MAX_DRAW_BUFFERS - 1]; /* the pass's color
	                                         targets 1..3 (struct tsr_cmd_pass mrt),
	                                         NULL: none */
	uint8_t target_mrt_clear;             /* bits 1..3: that target starts cleared
	                                         (else loaded) */
	uint8_t *tile_stencil;                /* the tile's on-chip stencil (with depth:
	                                         D24S8), 1 byte a pixel */
	uint8_t *image[2];                    /* front and back buffers */
	uint64_t fb_base[2];
	uint32_t fb_pitch;                    /* bytes per frame-buffer row */
	uint32_t back;                        /* index of the back buffer */
	uint8_t *tile_rgba;                   /* the tile's colors as flushed (RGBA8) */
	uint8_t *skipped;                     /* per tile: 1 if a technique skipped it */
	struct tsr_cache *heat_l2;            /* tsr_gpu_enable_heat(): cache "l2", or NULL */
	int heat;                             /* tsr_gpu_enable_heat() was called */
	struct tsr_tbr_view view;             /* what techniques see */
	struct tsr_technique_set techniques;  /* those the configuration switched on */
	const struct tsr_pipeline_driver *driver; /* pipeline.mode's: tsr_tbr_driver or
	                                          tsr_imr_driver */
	struct tsr_imr *imr;                  /* pipeline.mode imr (imr_driver.c), or NULL */
	struct tsr_vertex_input vertex_input; /* the program draw in the geometry stages
	                                         (tsr_stage_decode_draw) */
	struct {                              /* its vertex program's texture samples */
		const struct tsr_shader_binding *binding; /* the draw's units */
		struct tsr_memsys *mem;
	} vs_sampling;
};

/* ---- pass.c: what both pipelines do alike for a render pass ---- */

/*
 * Checks a frame's passes: one into the frame buffer, or passes into
 * render targets (images with render_target set) before a last one into
 * the frame buffer; a multi-pass frame without timing.overlap_frames and
 * Rendering/Transaction Elimination (TCOR's Attribute Cache runs on any
 * frame, GL ES program draws included); that every draw names an existing
 * mesh and material;
 * and that the pipeline implements every pass's clear and every draw's
 * state (tsr_clear_state_check(), tsr_draw_state_check()).
 * Errors: TSR_ERR_UNSUPPORTED (a malformed pass list, or a clear or draw
 * state the pipeline does not implement, named), TSR_ERR_CONFIG (a
 * mode multi-pass frames do not run with), TSR_ERR_INTERNAL (a draw
 * naming no resource: the frontend's bug).
 */
enum tsr_status tsr_gpu_check_passes(const struct tsr_gpu *g, const struct tsr_frame_commands *c,
				     struct tsr_error *err);

/*
 * Makes pass p the one the stages draw: the geometry's viewport and
 * g->target_width/height (the frame buffer's, or the render target's),
 * g->target_tex (the render target's texture, or NULL).
 */
void tsr_gpu_set_target(struct tsr_gpu *g, const struct tsr_cmd_pass *p);

/*
 * The Command Processor latches the state of pass p's draws (of c) into frame
 * slot f (struct tsr_shader_binding, one per draw, indexed by the draw's
 * number in the pass as its primitives carry it): after
 * tsr_gpu_set_target(g, p). Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_gpu_bind_pass(struct tsr_gpu *g, struct frame_slot *f,
				  const struct tsr_frame_commands *c, const struct tsr_cmd_pass *p,
				  struct tsr_error *err);

/*
 * Colors as a flush writes them (both pipelines: the TBR's tile flush,
 * the IMR's frame buffer and render targets): each of the n channels of
 * src clamped to 0..1, scaled to 0..255 and rounded (NaN -> 0); dst holds
 * n bytes. SSE2 where the host has it, the same operations as the scalar
 * loop, so that every image is the same bit for bit.
 */
void tsr_rgba8_row(uint8_t *restrict dst, const float *restrict src, size_t n);

/* ---- blit.c: framebuffer blits between passes (struct tsr_cmd_blit) ---- */

/*
 * The memory traffic of the rectangle (x0, y0, w, h) of render target
 * tex, in the pass's rows (tsr_texture_pass_row(); w, h > 0): one access
 * per row of 4x4 blocks it covers (the block-linear layout of
 * texture/texture.h) through routes.render_target, stream render_target; a
 * write (a flush) or a read (a tile load).
 */
void tsr_gpu_rt_rect_traffic(struct tsr_gpu *g, const struct tsr_texture *tex, uint32_t x0,
			     uint32_t y0, uint32_t w, uint32_t h, int write);

/*
 * Checks a frame's blits (tsr_gpu_check_passes() calls it): each before a
 * pass of the frame, in order, of images that exist and are of their
 * kind (command.h); a frame with blits runs without timing.overlap_frames
 * and Rendering/Transaction Elimination. Errors: TSR_ERR_CONFIG (those modes),
 * TSR_ERR_INTERNAL (a malformed blit: the driver's bug).
 */
enum tsr_status tsr_gpu_check_blits(const struct tsr_gpu *g, const struct tsr_frame_commands *c,
				    struct tsr_error *err);

/*
 * Runs the blits of frame c that come before pass before_pass (both
 * pipelines call it before each pass's geometry): their pixels, their
 * traffic (the source's reads, then the destination's writes). A blit
 * into the frame buffer makes g->fb_drawn 1 (the back buffer holds the
 * frame's image). Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_gpu_run_blits(struct tsr_gpu *g, const struct tsr_frame_commands *c,
				  uint32_t before_pass, struct tsr_error *err);

/* ---- stages.c and tile_stages.c: one work item at a time ---- */

/*
 * Command Processor: decodes draw call cd of the command list into what
 * the geometry stages latch (its constants, material, and the GPU
 * addresses of its index and vertex buffers and vertex shader). Pure.
 */
void tsr_stage_decode_draw(struct tsr_gpu *g, const struct tsr_cmd_draw *cd,
			   uint32_t draw_id, struct tsr_draw *d);

/*
 * Command Processor, geometry stages and Polygon List Builder for one
 * draw call: decodes it (its buffers' and programs' addresses), calls the
 * techniques' draw hooks with its constants, runs the geometry stages
 * back to back (fetch, shade, assemble, clip, cull: geometry/geometry.h),
 * then bins each new primitive (tsr_stage_bin). Binning follows the
 * whole draw call's geometry, the model's order of memory accesses.
 * Errors: TSR_ERR_LIMIT (Parameter Buffer full), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_stage_draw(struct tsr_gpu *g, const struct tsr_cmd_draw *cd,
			       uint32_t draw_id, struct tsr_frame_stats *st,
			       struct tsr_error *err);

/*
 * Polygon List Builder, one work item: bins the next primitive of its
 * queue (g->geo->prims[g->geo->binned], which must exist) into the tiles it overlaps
 * (tiling/parameter_buffer.h: the Parameter Buffer's lists and attributes)
 * and calls the techniques' bin hooks; a primitive that overlaps no tile
 * counts as culled. Errors: TSR_ERR_LIMIT (Parameter Buffer full),
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_stage_bin(struct tsr_gpu *g, struct tsr_frame_stats *st,
			      struct tsr_error *err);

/*
 * Tile Fetcher, Raster Pipeline and tile flush for one tile: unless a
 * technique skips it, reads its primitives from the Parameter Buffer,
 * rasterizes and shades them into the on-chip buffers, and flushes the
 * colors to the back frame buffer (unless a technique skips the flush):
 * the stages of tile_stages.h and raster/raster.h back to back.
 */
void tsr_stage_tile(struct tsr_gpu *g, uint32_t tile, struct tsr_frame_stats *st);

/* DRAM bytes the flush of `tile` writes (a service of struct tsr_tbr_view). */
uint64_t tsr_stage_flush_bytes(void *gpu, uint32_t tile);

/* Renders `tile` through mem, uncounted (a service of struct tsr_tbr_view). */
void tsr_stage_render_tile(void *gpu, uint32_t tile, struct tsr_memsys *mem,
			   struct tsr_raster_stats *rs, struct tsr_texture_stats *ts,
			   struct tsr_tile_colors *out);

/*
 * A pipeline's frames, chosen once at creation by pipeline.mode: the TBR's
 * (frame_loop.c: TCOR II-A, Fig. 2) or the immediate mode's (imr_driver.c:
 * GSPC Section 2.1, Figs. 2-3). gpu.c calls them and nothing else of the
 * two. create (NULL: nothing to build) runs after the GPU's units, the
 * address map's TBR regions and the techniques exist; destroy (NULL:
 * nothing) must accept a half-built state. begin_frame renders the
 * frame's geometry phase (the TBR: every pass but the last one's tiles;
 * the IMR: the whole frame) into st; finish_frame its raster phase and
 * swaps the buffers. Errors: TSR_ERR_NOMEM, TSR_ERR_LIMIT (address map),
 * TSR_ERR_UNSUPPORTED / TSR_ERR_CONFIG (a pass list a pipeline cannot
 * render, tsr_gpu_check_passes()), TSR_ERR_INTERNAL (called out of order),
 * those of the stages and of the timing mode.
 */
struct tsr_pipeline_driver {
	const char *name;  /* pipeline.mode's value */
	enum tsr_status (*create)(struct tsr_gpu *g, struct tsr_error *err);
	void (*destroy)(struct tsr_gpu *g);
	enum tsr_status (*begin_frame)(struct tsr_gpu *g, const struct tsr_frame_commands *c,
				       struct tsr_frame_stats *st, struct tsr_error *err);
	enum tsr_status (*finish_frame)(struct tsr_gpu *g, struct tsr_error *err);
	/* a blit's traffic on the frame buffer (front or back: buf): the
	 * rectangle (x0, y0, w, h) of its rows (0 the top; w, h > 0) read or
	 * written as the pipeline's tile loads and flushes do (the TBR: a row
	 * access each, routes.color, stream color; the IMR: each 8x8 block of
	 * its color buffer, stream display) */
	void (*window_traffic)(struct tsr_gpu *g, uint32_t buf, uint32_t x0, uint32_t y0,
			       uint32_t w, uint32_t h, int write);
};

extern const struct tsr_pipeline_driver tsr_tbr_driver;  /* frame_loop.c */
/* The immediate-mode pipeline's state (imr_driver.c): screen-sized depth,
 * HiZ and color buffers, their regions in the address map placed after
 * every TBR region, so the TBR's addresses do not move. */
struct tsr_imr;
extern const struct tsr_pipeline_driver tsr_imr_driver;  /* imr_driver.c */

/*
 * The timing mode (timing_driver.c, docs/timing.md). tsr_timing_create()
 * builds the timing units when cfg.timing.enabled and makes the stages
 * record their work; the frame loop brackets the geometry phase and each
 * tile with the calls below, which simulate what was recorded and add the
 * cycles to st->timing. Errors: TSR_ERR_NOMEM, TSR_ERR_CONFIG (a timing
 * parameter), TSR_ERR_INTERNAL (a unit's invariant broken: a bug).
 */
struct tsr_timing;
enum tsr_status tsr_timing_create(struct tsr_gpu *g, struct tsr_error *err);
void tsr_timing_destroy(struct tsr_gpu *g);
uint64_t tsr_timing_now(const struct tsr_gpu *g);
void tsr_timing_frame_begin(struct tsr_gpu *g);
enum tsr_status tsr_timing_geometry_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
					struct tsr_error *err);
void tsr_timing_tile_begin(struct tsr_gpu *g, uint32_t tile);
enum tsr_status tsr_timing_tile_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
				    struct tsr_error *err);
/* A render pass's tiles are all in (a frame of several passes): runs
 * them out before the next pass's geometry phase. */
enum tsr_status tsr_timing_pass_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
				    struct tsr_error *err);
/*
 * The timing mode of the immediate-mode pipeline (timing_driver.c,
 * docs/timing.md "Immediate mode"): the IMR driver records each draw's
 * geometry paths between tsr_timing_imr_draw_begin() (st: the frame's
 * counters, whose geometry group gives the vertex stages' bound) and
 * tsr_timing_imr_draw_geometry() (the draw's primitive count), then its
 * primitive windows into batches: tsr_timing_imr_primitive_end() after
 * each primitive (`prims` of the draw done; ends the batch when it holds
 * timing.imr_batch_quads quads), tsr_timing_imr_draw_end() after the
 * draw; a batch joins the window of timing.tiles_in_flight, which may run
 * the simulation. tsr_timing_imr_pass_end() runs a pass's batches to the
 * end; tsr_timing_frame_end() ends the frame as for the TBR. Errors:
 * TSR_ERR_NOMEM (a work log), TSR_ERR_INTERNAL (the simulation).
 */
void tsr_timing_imr_draw_begin(struct tsr_gpu *g, const struct tsr_frame_stats *st);
enum tsr_status tsr_timing_imr_draw_geometry(struct tsr_gpu *g, uint32_t prims,
					     struct tsr_frame_stats *st, struct tsr_error *err);
enum tsr_status tsr_timing_imr_primitive_end(struct tsr_gpu *g, uint32_t prims,
					     struct tsr_frame_stats *st, struct tsr_error *err);
enum tsr_status tsr_timing_imr_draw_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
					struct tsr_error *err);
enum tsr_status tsr_timing_imr_pass_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
					struct tsr_error *err);
enum tsr_status tsr_timing_frame_end(struct tsr_gpu *g, struct tsr_frame_stats *st,
				     struct tsr_error *err);

#endif
