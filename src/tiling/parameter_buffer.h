/*
 * parameter_buffer.h - the Tiling Engine: the Polygon List Builder writes
 * the Parameter Buffer and the Tile Fetcher reads it back, tile by tile,
 * both through the Tile Cache (TCOR II-A to II-C, Fig. 3 and 4).
 *
 * Baseline layout (TCOR II-B):
 *  - PB-Lists: tile t's list starts at lists_base + t * capacity * 4 bytes
 *    (capacity = 1024 PMDs, i.e. 64 blocks of 16 four-byte PMDs); PMD i of
 *    the list is at + i * 4. A PMD holds the Primitive ID (the address of
 *    the primitive's first attribute) and its number of attributes.
 *  - PB-Attributes: primitives in arrival order, each attribute 48 bytes
 *    (3 vertices x 16 bytes) starting a new 64-byte block, so primitive p's
 *    attribute a is at its Primitive ID + a * 64.
 * The Polygon List Builder bins a primitive into every tile it truly
 * overlaps (separating-axis test of the triangle against the rectangle of
 * the tile's pixel centres), writes one PMD per overlapped tile (4-byte
 * writes, stream pb_lists), then its attributes (48-byte writes, stream
 * pb_attributes).
 *
 * Full lists: the paper fixes 1024 PMDs per list and does not say what
 * happens beyond. tessera does what chunked tile lists in real drivers do:
 * the list continues in an overflow chunk of the same size taken from an
 * overflow pool (region "pb_lists_overflow"); the on-chip list header keeps
 * the chunk numbers, so no PMD is dropped. Each chunk allocated is counted
 * in tiling.list_overflows. An exhausted pool is TSR_ERR_LIMIT.
 *
 * The Tile Fetcher reads a tile's list one 64-byte PMD block at a time and,
 * after each block, the attribute blocks of each of its primitives
 * (48-byte reads), then hands the primitives to the Raster Pipeline in
 * program order.
 *
 * TCOR (Section III): while binning, each PMD gets its OPT Number, the
 * position in this frame's tile order of the next tile that uses the
 * primitive (III-A); every Parameter Buffer access carries the position
 * of the last tile that reads its block and the frame (III-D,
 * memory/pb_meta.h), for the L2 policy tcor-l2. Optionally PB-Lists are
 * interleaved (III-B) and PB-Attributes go through the Attribute Cache
 * (III-C, techniques/tcor_attribute_cache.h, plugged in through struct
 * tsr_pb_attribute_port by techniques/tcor.c) instead of the Tile Cache.
 */
#ifndef TSR_TILING_PARAMETER_BUFFER_H
#define TSR_TILING_PARAMETER_BUFFER_H

#include <stdint.h>

#include "core/status.h"
#include "geometry/primitive.h"
#include "memory/addrmap.h"
#include "memory/memsys.h"
#include "stats/counters.h"

#define TSR_PMD_BYTES 4
#define TSR_PB_BLOCK_BYTES 64

/* OPT Number of a PMD whose primitive is used by no later tile. */
#define TSR_PB_NEVER UINT32_MAX

struct tsr_pb_layout {
	uint32_t screen_width, screen_height;  /* pixels */
	uint32_t tile_width, tile_height;      /* pixels */
	uint32_t capacity;                     /* PMDs per list (chunk) */
	uint32_t attribute_bytes;              /* bytes of one attribute */
	uint32_t attribute_write_bytes;        /* bytes of one attribute write: attribute_bytes,
						  or the whole 64-byte block (TCOR III-D-1) */
	uint64_t lists_base;                   /* PB-Lists Pointer */
	uint64_t overflow_base;                /* overflow chunk pool */
	uint32_t overflow_chunks;              /* chunks in the pool */
	uint64_t attributes_base;              /* PB-Attributes Pointer */
	uint64_t attributes_bytes;             /* size of the PB-Attributes region */
	uint32_t interleaved;                  /* 1: TCOR III-B interleaved PB-Lists */
	/*
	 * Address map the regions grow into (NULL: fixed sizes, a full region
	 * is TSR_ERR_LIMIT). When a frame needs more PB-Attributes or overflow
	 * chunks than the regions above hold, a region twice the size in use
	 * ("pb_attributes.grow<N>", "pb_lists_overflow.grow<N>") is appended
	 * after every other region, and kept for later frames: the map stays
	 * deterministic and the regions given here keep their addresses.
	 */
	struct tsr_addrmap *map;
	/* Most bytes the three regions may take with their grown parts
	 * (tiling.pb_max_mib); a frame that needs more is TSR_ERR_LIMIT.
	 * 0: no limit. */
	uint64_t max_bytes;
};

struct tsr_param_buffer;

/* Bytes of the PB-Lists region for a layout's tile grid. */
uint64_t tsr_pb_lists_bytes(uint32_t tiles, uint32_t capacity);

enum tsr_status tsr_pb_create(const struct tsr_pb_layout *layout,
			      struct tsr_param_buffer **out,
			      struct tsr_error *err);
void tsr_pb_destroy(struct tsr_param_buffer *pb);

/*
 * Lays the Parameter Buffer out for a larger tile grid, screen_width x
 * screen_height pixels (tiles of the layout's size), its PB-Lists at
 * lists_base (a region of tsr_pb_lists_bytes() for the new grid the caller
 * added to the address map): the tile lists are emptied and renumbered
 * row-major over the new grid; PB-Attributes, the overflow pool and the
 * attribute cache stay. Between frames only. Errors: TSR_ERR_NOMEM (the
 * buffer unchanged).
 */
enum tsr_status tsr_pb_regrid(struct tsr_param_buffer *pb, uint32_t screen_width,
			      uint32_t screen_height, uint64_t lists_base,
			      struct tsr_error *err);

uint32_t tsr_pb_tiles_x(const struct tsr_param_buffer *pb);
uint32_t tsr_pb_tiles_y(const struct tsr_param_buffer *pb);

/*
 * What the Parameter Buffer needs of an attribute cache (TCOR III-C):
 * techniques/tcor.c fills it with TCOR's Attribute Cache
 * (techniques/tcor_attribute_cache.h), so that tiling/ does not depend on
 * techniques/. Every function gets ctx first; prim_id is the primitive's
 * Primitive ID (its PB-Attributes byte address), opt_number an OPT Number
 * (TCOR III-A), meta the Parameter Buffer metadata of its L2 accesses
 * (memory/pb_meta.h).
 */
struct tsr_pb_attribute_port {
	/* Polygon List Builder write (III-C-4): 0, or -1 if the cache refused it. */
	int (*write)(void *ctx, uint64_t prim_id, uint32_t n_attributes,
		     uint32_t opt_number, uint32_t meta);
	/*
	 * Tile Fetcher read (III-C-3), locking the primitive: 0 when served,
	 * 1 when every candidate is locked (nothing changed: let the
	 * Rasterizer consume, then retry).
	 */
	int (*read)(void *ctx, uint64_t prim_id, uint32_t n_attributes,
		    uint32_t opt_number, uint32_t meta);
	/* Rasterizer read (III-C-3): releases one lock of prim_id. */
	void (*consume)(void *ctx, uint64_t prim_id);
	/* A frame starts: drop every primitive without write-back (III-D). */
	void (*reset)(void *ctx);
	void *ctx;
};

/*
 * TCOR III-C: routes PB-Attributes through an attribute cache (port NULL:
 * back to the Tile Cache; the struct is copied). The Polygon List Builder
 * then writes each primitive once with its first tile as OPT Number, and
 * the Tile Fetcher reads it with its PMD's OPT Number and keeps it locked
 * in an output queue of queue_depth primitives until the Rasterizer
 * consumes it (at the latest at the end of its tile). The cache is reset
 * at each frame start. Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_pb_set_attribute_cache(struct tsr_param_buffer *pb,
					   const struct tsr_pb_attribute_port *port,
					   uint32_t queue_depth, struct tsr_error *err);

/*
 * Starts a frame: empties every list and the PB-Attributes cursor, and
 * takes the frame's tile order (tile IDs in visiting order, tiles long;
 * NULL keeps the previous one, initially row-major), from which OPT
 * Numbers and last-use positions are derived, and the frame number that
 * Parameter Buffer metadata carries (memory/pb_meta.h).
 */
void tsr_pb_begin_frame(struct tsr_param_buffer *pb, const uint32_t *order, uint32_t frame);

/*
 * Polygon List Builder: bins primitive number `index` (its PMDs, then its
 * attributes, through the memory hierarchy's pb_lists and pb_attributes
 * routes), sets p->pb_addr, and returns the
 * number of tiles it overlaps in *tiles (0: nothing written). Errors:
 * TSR_ERR_LIMIT (PB-Attributes region or overflow pool full, only when the
 * layout has no map to grow into), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_plb_bin(struct tsr_param_buffer *pb,
			    struct tsr_primitive *p, uint32_t index,
			    struct tsr_memsys *mem,
			    uint32_t *tiles, struct tsr_tiling_stats *st,
			    struct tsr_error *err);

/*
 * The tiles the last primitive binned by tsr_plb_bin() overlaps (row-major
 * tile IDs, *tiles of them): the list the Polygon List Builder pushes on
 * Rendering Elimination's Overlapped Tiles queue (RE III-F). Valid until
 * the next tsr_plb_bin().
 */
const uint32_t *tsr_plb_overlapped_tiles(const struct tsr_param_buffer *pb);

/*
 * OPT Numbers (TCOR III-A) of tile t's PMDs, parallel to tsr_pb_list():
 * the position, in this frame's tile order, of the next tile that uses the
 * primitive, or TSR_PB_NEVER.
 */
const uint32_t *tsr_pb_opt_numbers(const struct tsr_param_buffer *pb, uint32_t tile);

/*
 * Positions (in this frame's tile order) of the first and last tiles that
 * use binned primitive `index`: the OPT Number of its attribute writes
 * and the tile after which its attributes are dead (TCOR III-A, III-D).
 */
uint32_t tsr_pb_first_use(const struct tsr_param_buffer *pb, uint32_t index);
uint32_t tsr_pb_last_use(const struct tsr_param_buffer *pb, uint32_t index);

/* Position of tile t in this frame's order. */
uint32_t tsr_pb_tile_position(const struct tsr_param_buffer *pb, uint32_t tile);

/* 1 when the triangle overlaps the pixel centres of the rectangle. */
int tsr_triangle_overlaps_rect(const struct tsr_primitive *p, int32_t x0,
			       int32_t y0, int32_t x1, int32_t y1);

/*
 * Byte address of PMD i of tile t's list: baseline layout (t x capacity x
 * 4 + i x 4) or interleaved (TCOR III-B, Fig. 6: tile t's k-th block at
 * PB-Lists + (k x tiles + t) x 64); overflow chunks (beyond capacity) are
 * laid out as in the baseline in both cases.
 */
uint64_t tsr_pb_pmd_address(const struct tsr_param_buffer *pb, uint32_t tile,
			    uint32_t i);

/* The primitives binned to tile t, in program order. */
uint32_t tsr_pb_list_length(const struct tsr_param_buffer *pb, uint32_t tile);
const uint32_t *tsr_pb_list(const struct tsr_param_buffer *pb, uint32_t tile);

/*
 * Tile Fetcher: reads tile t's PMD blocks and its primitives' attributes
 * through the pb_lists and pb_attributes routes; returns the primitive list to rasterize.
 */
const uint32_t *tsr_tile_fetch(struct tsr_param_buffer *pb,
			       uint32_t tile, const struct tsr_primitive *prims,
			       struct tsr_memsys *mem,
			       uint32_t *count, struct tsr_tiling_stats *st);

#endif
