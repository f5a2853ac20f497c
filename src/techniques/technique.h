/*
 * technique.h - the hook table through which techniques plug into the TBR
 * pipeline, instead of edits in its frame loop.
 *
 * A technique (Rendering and Transaction Elimination, RE III and IV-C;
 * TCOR's Attribute Cache, TCOR III-C) is one file under techniques/ that
 * exports one `const struct tsr_technique_ops`; techniques.c lists them.
 * The pipeline creates those whose configuration enables them and calls
 * their hooks at defined points of a frame, in list order:
 *   frame_begin   the frame's command list is known (events: uploads)
 *   draw          the Command Processor issues a draw call (its constants)
 *   bin           the Polygon List Builder binned a primitive into tiles
 *   geometry_end  every draw of the frame is binned
 *   tile_begin    before the Tile Fetcher reads a tile: may skip the tile
 *   tile_flush    the tile's colors are final: may skip the flush
 *   frame_end     after the last tile (stats of the frame are complete)
 * In a multi-pass frame (render to texture) draw, bin, tile_begin and
 * tile_flush run for the last pass, the one into the frame buffer, only:
 * the passes into render targets are rendered in full and not signed
 * (their targets' contents versions move on: image_version below).
 * Every hook is optional (NULL). Hooks see the pipeline through struct
 * tsr_tbr_view (the Parameter Buffer, the primitives, the memory
 * hierarchy, and two services the pipeline provides); they never touch
 * the pipeline's memory accesses except through those.
 *
 * To add a technique: a file with its ops, a line in techniques.c, its
 * configuration keys (config/config.c) and its counters (stats/counters.h).
 */
#ifndef TSR_TECHNIQUES_TECHNIQUE_H
#define TSR_TECHNIQUES_TECHNIQUE_H

#include <stdint.h>

#include "command/command.h"
#include "config/config.h"
#include "framestats/stats.h"
#include "geometry/geometry.h"
#include "tiling/parameter_buffer.h"

/* A tile's colors as a flush writes them, and the back buffer's colors there. */
struct tsr_tile_colors {
	uint32_t tile;            /* row-major tile ID */
	uint32_t width, height;   /* pixels (edge tiles may be smaller) */
	const uint8_t *rgba;      /* the tile's colors, RGBA8, rows packed (width * 4 bytes) */
	const uint8_t *back;      /* the back buffer at the tile's origin */
	uint32_t back_pitch;      /* bytes between the back buffer's rows */
	uint64_t dram_bytes;      /* DRAM bytes the flush writes (whole bursts per row) */
};

/* What hooks see of the pipeline. */
struct tsr_tbr_view {
	const struct tsr_gpu_config *cfg;
	uint32_t tiles;                       /* tiles of the screen */
	struct tsr_memsys *mem;               /* the modelled hierarchy */
	struct tsr_param_buffer *pb;          /* the frame's bins */
	const struct tsr_prim_array *prims;   /* the frame's primitives, by index */
	uint32_t max_attributes;              /* most attributes of one primitive */
	void *gpu;                            /* for the services below */
	/* DRAM bytes the flush of `tile` writes. */
	uint64_t (*flush_bytes)(void *gpu, uint32_t tile);
	/*
	 * Renders `tile` again through `mem` (not the modelled hierarchy), into
	 * the on-chip buffers, counting into rs and ts; *out describes its
	 * colors (valid until the next tile). For checks such as RE's
	 * verification.
	 */
	void (*render_tile)(void *gpu, uint32_t tile, struct tsr_memsys *mem,
			    struct tsr_raster_stats *rs, struct tsr_texture_stats *ts,
			    struct tsr_tile_colors *out);
	/*
	 * The version of image `image`'s contents (resources.images): a count
	 * the GPU moves on whenever the image's texels change (an update by
	 * the driver, a mipmap build, a pass rendering into it), so that a
	 * signature holding it changes with them; 0 for an image that does
	 * not exist.
	 */
	uint32_t (*image_version)(void *gpu, uint32_t image);
};

struct tsr_technique_ops {
	const char *name;
	/* 1 when cfg switches the technique on. */
	int (*enabled)(const struct tsr_gpu_config *cfg);
	/* Builds its state (after the Parameter Buffer exists). Errors: its own. */
	enum tsr_status (*create)(const struct tsr_tbr_view *v, void **state,
				  struct tsr_error *err);
	void (*destroy)(void *state);
	void (*frame_begin)(void *state, const struct tsr_frame_commands *c,
			    struct tsr_frame_stats *fs);
	void (*draw)(void *state, const struct tsr_cmd_draw *d, const struct tsr_material *m);
	/* Primitive number `index` was binned into tiles[0..n-1] (n > 0). */
	void (*bin)(void *state, uint32_t index, const uint32_t *tiles, uint32_t n);
	void (*geometry_end)(void *state, struct tsr_frame_stats *fs);
	/* Returns 1 to skip the tile: nothing is fetched, rendered or flushed. */
	int (*tile_begin)(void *state, uint32_t tile, struct tsr_frame_stats *fs);
	/* Returns 1 to skip the flush: the back buffer keeps its colors. */
	int (*tile_flush)(void *state, const struct tsr_tile_colors *c, struct tsr_frame_stats *fs);
	void (*frame_end)(void *state, struct tsr_frame_stats *fs);
};

/* The techniques, NULL-terminated, in the order their hooks run. */
extern const struct tsr_technique_ops *const tsr_techniques[];

#define TSR_MAX_TECHNIQUES 8

/*
 * The techniques a configuration switched on, with their states: the one
 * place the pipeline calls hooks through (both pipelines' stages call the
 * tsr_technique_set_* functions below, which run each hook that is not
 * NULL in list order). Plain data, embedded in the GPU.
 */
struct tsr_technique_set {
	const struct tsr_tbr_view *view;      /* what the hooks see (kept by the caller) */
	uint32_t count;
	struct {
		const struct tsr_technique_ops *ops;
		void *state;
	} active[TSR_MAX_TECHNIQUES];
};

/*
 * Creates every technique of tsr_techniques[] that v->cfg switches on, in
 * list order, into the zeroed set s; v must outlive s. Errors: those of a
 * technique's create (TSR_ERR_NOMEM, TSR_ERR_CONFIG); the techniques
 * created before the failing one stay in s for tsr_technique_set_release().
 */
enum tsr_status tsr_technique_set_create(struct tsr_technique_set *s,
					 const struct tsr_tbr_view *v, struct tsr_error *err);
/* Destroys every technique of s; s is empty afterwards. */
void tsr_technique_set_release(struct tsr_technique_set *s);

/* The hooks of technique.h's list, each technique's in list order. */
void tsr_technique_set_frame_begin(const struct tsr_technique_set *s,
				   const struct tsr_frame_commands *c, struct tsr_frame_stats *fs);
void tsr_technique_set_draw(const struct tsr_technique_set *s, const struct tsr_cmd_draw *d,
			    const struct tsr_material *m);
void tsr_technique_set_bin(const struct tsr_technique_set *s, uint32_t index,
			   const uint32_t *tiles, uint32_t n);
void tsr_technique_set_geometry_end(const struct tsr_technique_set *s,
				    struct tsr_frame_stats *fs);
/* 1 when a technique skips the tile (the techniques after it are not asked). */
int tsr_technique_set_tile_begin(const struct tsr_technique_set *s, uint32_t tile,
				 struct tsr_frame_stats *fs);
/*
 * 1 when a technique skips the flush (every technique is asked). c's
 * dram_bytes, when 0, is filled from the view's flush_bytes service
 * before the first tile_flush hook.
 */
int tsr_technique_set_tile_flush(const struct tsr_technique_set *s, struct tsr_tile_colors *c,
				 struct tsr_frame_stats *fs);
void tsr_technique_set_frame_end(const struct tsr_technique_set *s, struct tsr_frame_stats *fs);

extern const struct tsr_technique_ops tsr_technique_tcor;         /* TCOR III-C */
extern const struct tsr_technique_ops tsr_technique_elimination;  /* RE III, IV-C */

#endif
