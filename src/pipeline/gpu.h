/*
 * gpu.h - the whole modelled tile-based GPU, frame by frame: it consumes
 * command lists (command/command.h) that a frontend produces, and only
 * those: no file of the pipeline reads a scene graph, a camera or an
 * animation, nor calls a frontend (the simulation run, sim/sim.h, does).
 *
 * Per frame (TCOR II-A, Fig. 2): for each drawcall in program order, the
 * Geometry Pipeline produces primitives and the Polygon List Builder bins
 * them into the Parameter Buffer; then the Tile Fetcher visits the tiles
 * in the configured order (reversed every other frame if asked), and for
 * each tile the Raster Pipeline renders its primitives into on-chip depth
 * and color buffers, which are flushed to the back frame buffer in DRAM
 * (straight to DRAM, TCOR Fig. 2). Front and back frame buffers live at
 * different addresses and swap every frame.
 *
 * Techniques (TCOR's Attribute Cache, Rendering and Transaction
 * Elimination) plug in through the hooks of techniques/technique.h. The
 * pipeline's files: gpu.c (units, resources, address map, the frame entry
 * points), frame_loop.c (the TBR's frames and passes), imr_driver.c (the
 * immediate mode's, pipeline.mode imr), pass.c (what both do alike for a
 * pass), blit.c (framebuffer blits between passes, both alike), stages.c (the work items: a draw call through the geometry
 * stages of geometry/geometry.h, a primitive for the Polygon List
 * Builder), tile_stages.c (a tile: Tile Fetcher, the Raster Pipeline of
 * raster/raster.h, tile flush), timing_driver.c (the timing mode).
 *
 * tsr_gpu owns the memory hierarchy, the address map and the per-frame
 * state; it allocates at creation and reuses its buffers from frame to
 * frame.
 */
#ifndef TSR_PIPELINE_GPU_H
#define TSR_PIPELINE_GPU_H

#include <stdint.h>

#include "command/command.h"
#include "config/config.h"
#include "core/status.h"
#include "framestats/stats.h"
#include "memory/addrmap.h"

struct tsr_gpu;

/*
 * Builds the GPU for a configuration and the resources its command lists
 * will name (command/command.h: meshes, materials, images; a frontend
 * provides them): memory hierarchy, textures (mip chains), address map.
 * The descriptors of res are copied; the data they point to (vertices,
 * indices, texels) must outlive the GPU. Errors:
 * TSR_ERR_GEOMETRY / TSR_ERR_CONFIG (caches), TSR_ERR_ASSET (a texture),
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_gpu_create(const struct tsr_gpu_config *cfg,
			       const struct tsr_resources *res,
			       struct tsr_gpu **out, struct tsr_error *err);
void tsr_gpu_destroy(struct tsr_gpu *g);

/*
 * Adds resources after creation, between frames, as a driver does when a
 * program creates buffers and textures as it runs: more's meshes,
 * materials and images get the next indices (the first is the count
 * before the call) and regions appended to the address map in that order
 * (so addresses depend only on the order of the calls). The descriptors
 * are copied; the data they point to (vertices, indices, texels) must
 * outlive the GPU, as for tsr_gpu_create(). A render target larger than
 * the tile grid grows the grid to cover it (gpu.c grow_grid(): the tiles
 * renumbered, new PB-Lists regions, per-tile state afresh). Errors:
 * TSR_ERR_INTERNAL during a frame; TSR_ERR_UNSUPPORTED for a material
 * with more varyings than the Parameter Buffer was laid out for;
 * TSR_ERR_CONFIG for a grid beyond the limits (8192 x 8192 pixels, 65535
 * tiles); those of tsr_gpu_create(); on an error no resource is added.
 */
enum tsr_status tsr_gpu_add_resources(struct tsr_gpu *g, const struct tsr_resources *more,
				      struct tsr_error *err);

/* Resources of each kind the GPU has (the next one added gets this index). */
enum tsr_resource_kind { TSR_RESOURCE_MESHES, TSR_RESOURCE_MATERIALS, TSR_RESOURCE_IMAGES };
uint32_t tsr_gpu_resource_count(const struct tsr_gpu *g, enum tsr_resource_kind kind);

/*
 * New contents for image `image` (its rgba, same size, changed in place by
 * the caller, as glTexSubImage2D writes a texture): the mip chain is built
 * again at the same address. Errors: TSR_ERR_INTERNAL (no such image, a
 * size change, or during a frame), those of tsr_texture_create().
 */
enum tsr_status tsr_gpu_update_image(struct tsr_gpu *g, uint32_t image, struct tsr_error *err);

/*
 * Rebuilds levels 1.. of render target `image` (tsr_image.mipmapped) from
 * its level 0 as the passes left it (glGenerateMipmap between frames; a
 * pass's `mipmap` does it within one). No memory traffic is counted.
 * Errors: TSR_ERR_INTERNAL (no such image, or during a frame).
 */
enum tsr_status tsr_gpu_generate_mipmap(struct tsr_gpu *g, uint32_t image,
					struct tsr_error *err);

/*
 * Copies texel rows y..y+h-1 (texel row order: a bottom-up render target's
 * row 0 is its bottom row), columns x..x+w-1, of image `image`'s level 0
 * into rgba (RGBA8, w * 4 bytes a row), between frames: what the passes
 * drew into a render target. The rectangle must lie in the image. Errors:
 * TSR_ERR_INTERNAL (no such image, a rectangle outside it, or during a
 * frame).
 */
enum tsr_status tsr_gpu_read_image(const struct tsr_gpu *g, uint32_t image, uint32_t x,
				   uint32_t y, uint32_t w, uint32_t h, uint8_t *rgba,
				   struct tsr_error *err);

/*
 * Renders one frame's command list (command/command.h; its frame number
 * drives the tile order's direction) and fills st with the frame's
 * counters: tsr_gpu_begin_frame() then tsr_gpu_finish_frame(). The
 * resources it names are those given to tsr_gpu_create().
 * Errors: TSR_ERR_UNSUPPORTED (more than one pass, or a pass into a
 * texture: multi-pass frames come later), TSR_ERR_LIMIT (Parameter Buffer
 * full), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_gpu_render_commands(struct tsr_gpu *g, const struct tsr_frame_commands *c,
					struct tsr_frame_stats *st, struct tsr_error *err);

/*
 * Fast-forward (`tessera run --frames A-B`, docs/sample.md), mode
 * TSR_GPU_FAST_FORWARD: the frames rendered next run functionally only:
 * every stage runs as before (the images, render targets, textures,
 * Parameter Buffer and techniques' state stay exact, and the functional
 * counters of struct tsr_frame_stats are counted: draws, primitives,
 * quads, instructions, texel fetches), but the memory hierarchy drops
 * every access (tsr_memsys_set_bypass(): no cache, DRAM or memory counter
 * changes) and the timing mode is parked (no cycles; it resumes from
 * where it was). TSR_GPU_WARM: the memory hierarchy runs (caches warm up
 * for the frames that follow), the timing mode stays parked.
 * TSR_GPU_FULL: everything (the default). Switched between frames only.
 * Errors: TSR_ERR_INTERNAL (a frame begun and not finished, e.g. with
 * timing.overlap_frames; an unknown mode).
 */
#define TSR_GPU_FULL 0
#define TSR_GPU_FAST_FORWARD 1
#define TSR_GPU_WARM 2
enum tsr_status tsr_gpu_set_fast_forward(struct tsr_gpu *g, int mode, struct tsr_error *err);

/* tsr_gpu_set_fast_forward()'s mode. */
int tsr_gpu_fast_forwarding(const struct tsr_gpu *g);

/*
 * The geometry phase of a frame (TCOR II-A): the Command Processor, the
 * geometry stages and the Polygon List Builder bin every draw call into a
 * free frame slot's Parameter Buffer; st is zeroed and gets the frame's
 * counters, now and at tsr_gpu_finish_frame() (keep it until then). One
 * frame at a time waits for its raster phase, or two with
 * timing.overlap_frames (the geometry of frame N+1 before the raster of
 * frame N: docs/timing.md, "Frames"). Errors: those of
 * tsr_gpu_render_commands(); TSR_ERR_INTERNAL when no slot is free.
 */
enum tsr_status tsr_gpu_begin_frame(struct tsr_gpu *g, const struct tsr_frame_commands *c,
				    struct tsr_frame_stats *st, struct tsr_error *err);

/*
 * The raster phase of the oldest frame begun: every tile through the Tile
 * Fetcher, the Raster Pipeline and the flush, then the buffer swap; its
 * counters go to the st given to tsr_gpu_begin_frame(). Errors:
 * TSR_ERR_INTERNAL (no frame begun), the timing model's.
 */
enum tsr_status tsr_gpu_finish_frame(struct tsr_gpu *g, struct tsr_error *err);

/* The last completed frame, RGBA8, width x height, rows top to bottom. */
const uint8_t *tsr_gpu_frame_image(const struct tsr_gpu *g);

/*
 * Per tile (row-major tile IDs, tsr_gpu_tile_count() of them): 1 when
 * Rendering Elimination skipped the tile in the last completed frame
 * (RE III-A), else 0.
 */
const uint8_t *tsr_gpu_skipped_tiles(const struct tsr_gpu *g);

const struct tsr_addrmap *tsr_gpu_address_map(const struct tsr_gpu *g);
const struct tsr_memsys *tsr_gpu_memsys(const struct tsr_gpu *g);

/*
 * A cache of the GPU's hierarchy by instance name ("l2", "tile",
 * "texture0", ...), to attach an observer such as a trace recorder; NULL
 * if there is no such cache.
 */
struct tsr_cache *tsr_gpu_cache_by_name(struct tsr_gpu *g, const char *name);
const struct tsr_gpu_config *tsr_gpu_config_of(const struct tsr_gpu *g);

/* Tiles of the screen. */
uint32_t tsr_gpu_tile_count(const struct tsr_gpu *g);

/*
 * Per-tile counters of a frame (`tessera run --heatmaps`, report/heatmap.h),
 * each an array of tsr_gpu_tile_count() values by row-major tile ID,
 * summed over the frame's passes (a render-to-texture pass's tiles are
 * the grid's tiles that cover its target):
 *   TSR_HEAT_QUADS_SHADED   quads fragment-shaded (raster.quads_shaded)
 *   TSR_HEAT_TILE_CYCLES    timing mode: raster-phase cycles the tile was
 *                           the oldest in flight, from the later of the
 *                           previous tile's leaving and the phase's start
 *                           to its own leaving (its last flush write
 *                           issued); they sum to timing.tile_cycles
 *   TSR_HEAT_L2_MISSES      read and write misses of cache "l2", all
 *                           streams, during the tile's stages
 *   TSR_HEAT_PB_READ_BYTES  DRAM bytes read on streams pb_lists and
 *                           pb_attributes during the tile's stages
 *   TSR_HEAT_LINE_REQUESTS  L1 texture line requests (after coalescing:
 *                           texture.line_requests)
 *   TSR_HEAT_TILES_SKIPPED  1 for each pass in which Rendering Elimination
 *                           skipped the tile (elimination.tiles_skipped)
 */
enum tsr_heat_counter {
	TSR_HEAT_QUADS_SHADED = 0,
	TSR_HEAT_TILE_CYCLES,
	TSR_HEAT_L2_MISSES,
	TSR_HEAT_PB_READ_BYTES,
	TSR_HEAT_LINE_REQUESTS,
	TSR_HEAT_TILES_SKIPPED,
	TSR_HEAT_COUNT
};

/*
 * Starts collecting the per-tile counters above, from the next frame
 * begun on: one array per counter and frame slot, allocated here once and
 * zeroed at each frame's start; without this call the frame loop does
 * none of it. Errors: TSR_ERR_UNSUPPORTED (pipeline.mode imr: no tiles),
 * TSR_ERR_INTERNAL (during a frame), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_gpu_enable_heat(struct tsr_gpu *g, struct tsr_error *err);

/*
 * Counter c of every tile (tsr_gpu_tile_count() values, row-major tile
 * IDs) in the last completed frame; NULL before tsr_gpu_enable_heat() or
 * before a frame has completed with it.
 */
const uint64_t *tsr_gpu_heat(const struct tsr_gpu *g, enum tsr_heat_counter c);

/* The tile grid: tiles across and down (tiles_x * tiles_y = tsr_gpu_tile_count()). */
void tsr_gpu_tile_grid(const struct tsr_gpu *g, uint32_t *tiles_x, uint32_t *tiles_y);

/* Where a frame is, for a progress display: in binning, `done` of `total`
 * draw calls; in rendering, `done` of `total` tiles. */
enum tsr_frame_phase { TSR_PHASE_BINNING, TSR_PHASE_RENDERING };
typedef void (*tsr_gpu_progress_fn)(void *ctx, uint32_t frame, enum tsr_frame_phase phase,
				    uint32_t done, uint32_t total);

/*
 * Calls fn (NULL: none) during each frame of tsr_gpu_render_commands():
 * after every draw call binned and every 64 tiles rendered, so that a very
 * long frame (a huge screen, a heavy shader) can show progress. fn must be
 * cheap; the CLI throttles what it prints by time.
 */
void tsr_gpu_set_progress(struct tsr_gpu *g, tsr_gpu_progress_fn fn, void *ctx);

/* The tile order used for a frame (tile IDs, tsr_gpu_tile_count() long). */
const uint32_t *tsr_gpu_tile_order(const struct tsr_gpu *g, uint32_t frame);

#endif
