/*
 * config.h - the configuration of the modelled GPU.
 *
 * Defaults are TCOR Table I (1960x768, 32x32 tiles, Z-order, 64 KiB 4-way
 * L1 caches with 64-byte lines, 1 MiB 8-way L2, 50-100 cycle DRAM; 4 shader
 * cores, DTexL II-A); a JSON file (README, "Configuration reference")
 * overrides any of them. Values the papers leave open follow real
 * hardware and are documented in the README: 16 KiB 4-way instruction
 * caches, a 32-entry post-transform vertex cache, 8-byte shader
 * instructions, 1024 PMDs per tile list (TCOR II-B).
 */
#ifndef TSR_CONFIG_CONFIG_H
#define TSR_CONFIG_CONFIG_H

#include <jansson.h>
#include <stdint.h>

#include "core/status.h"
#include "memory/memsys.h"
#include "tiling/attribute_cache.h"

enum tsr_tile_order {
	TSR_ORDER_SCANLINE = 0,  /* row by row, left to right */
	TSR_ORDER_SORDER,        /* rows alternate direction (DTexL Fig. 8(g)) */
	TSR_ORDER_Z,             /* Morton order (DTexL Fig. 7(a)) */
	TSR_ORDER_HILBERT,       /* 8x8-tile Hilbert blocks in an S (DTexL III-C) */
	TSR_ORDER_COUNT
};

enum tsr_quad_grouping {
	TSR_QG_FG_XSHIFT2 = 0,   /* core = (qx + 2*qy) mod cores (DTexL Fig. 6) */
	TSR_QG_CG_SQUARE,        /* the tile's quadrants (DTexL Fig. 6(g)) */
	TSR_QG_COUNT
};

/* PB-Lists layout (TCOR II-B baseline or III-B interleaved). */
enum tsr_pb_list_layout {
	TSR_PB_LAYOUT_BASELINE = 0,     /* tile t's list at t x capacity x 4 bytes */
	TSR_PB_LAYOUT_INTERLEAVED,      /* k-th blocks of all tiles together (Fig. 6) */
	TSR_PB_LAYOUT_COUNT
};

/*
 * Rendering Elimination (RE Section III) and Transaction Elimination (RE
 * IV-C), the "elimination" section of a configuration file.
 */
struct tsr_elimination_config {
	int rendering;            /* RE: skip tiles whose input signature equals the
				     same tile's in the frame two back */
	int transactions;         /* TE: skip color flushes whose color signature equals
				     the same tile's in the back buffer */
	uint32_t refresh_frames;  /* 0: never; N >= 3: RE is off in frames f with
				     f mod N < 2, so both frame buffers are rewritten */
	int verify;               /* render skipped tiles anyway, off the books, and
				     compare their colors (false positives) */
};

struct tsr_gpu_config {
	char name[64];
	uint32_t width, height;              /* screen, pixels */
	uint32_t tile_width, tile_height;    /* pixels, even */
	enum tsr_tile_order tile_order;
	int reverse_every_other_frame;       /* boustrophedonic III-F */
	uint32_t list_capacity_primitives;   /* PMDs per tile list (TCOR II-B: 1024) */
	uint32_t attribute_bytes;            /* bytes of one attribute (TCOR II-B: 48) */
	enum tsr_pb_list_layout pb_layout;   /* PB-Lists layout */
	enum tsr_quad_grouping quad_grouping;
	uint32_t post_transform_cache_entries; /* shaded vertices kept (FIFO), 0 = none */
	uint32_t instruction_bytes;          /* bytes per shader instruction */
	struct tsr_memsys_config mem;        /* cores, caches, DRAM */
	/*
	 * TCOR III-C: 1 splits the Tile Cache into a Primitive List Cache
	 * (caches.tile, then PB-Lists only) and this Attribute Cache, which
	 * sits in front of the L2 for PB-Attributes.
	 */
	int attribute_cache;
	struct tsr_ac_config ac;             /* the Attribute Cache's geometry and policy */
	uint32_t output_queue;               /* Tile Fetcher output queue: primitives kept
						locked until the Rasterizer consumes them */
	struct tsr_elimination_config elim;  /* RE and TE, both off by default */
};

/* Names used in JSON for the enums (NULL-terminated). */
extern const char *const tsr_tile_order_names[];
extern const char *const tsr_pb_layout_names[];
extern const char *const tsr_quad_grouping_names[];

/* Fills cfg with the defaults (TCOR Table I). */
void tsr_config_defaults(struct tsr_gpu_config *cfg);

/*
 * Reads a configuration file over the defaults and checks it (cache
 * geometries, tile sizes). Errors: TSR_ERR_IO, TSR_ERR_PARSE,
 * TSR_ERR_CONFIG naming the key, TSR_ERR_GEOMETRY naming the cache.
 */
enum tsr_status tsr_config_load(const char *file, struct tsr_gpu_config *cfg,
				struct tsr_error *err);

/* Checks a filled configuration (as tsr_config_load does). */
enum tsr_status tsr_config_check(const struct tsr_gpu_config *cfg,
				 struct tsr_error *err);

/* The effective configuration as a JSON object in the file format. */
json_t *tsr_config_to_json(const struct tsr_gpu_config *cfg);

#endif
