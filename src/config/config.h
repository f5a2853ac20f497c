/*
 * config.h - the configuration of the modelled GPU.
 *
 * Defaults are TCOR Table I (1960x768, 32x32 tiles, Z-order, 64 KiB 4-way
 * L1 caches with 64-byte lines, 1 MiB 8-way L2, 50-100 cycle DRAM; 4 shader
 * cores, DTexL II-A); a JSON file (docs/configuration.md)
 * overrides any of them. Values the papers leave open follow real
 * hardware and are documented in docs/configuration.md: 16 KiB 4-way instruction
 * caches, a 32-entry post-transform vertex cache, 8-byte shader
 * instructions, 1024 PMDs per tile list (TCOR II-B).
 */
#ifndef TSR_CONFIG_CONFIG_H
#define TSR_CONFIG_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "config/energy_config.h"
#include "config/tcor_config.h"
#include "core/status.h"
#include "memory/memsys.h"
#include "raster/raster.h"
#include "raster/subtile_assign.h"
#include "tiling/tile_order.h"

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

/* The timing model's parameters (keys timing.*, dram.model; docs/timing.md). */
struct tsr_timing_config {
	int enabled;                          /* 1: cycles, not only counts */
	uint32_t gpu_mhz;                     /* GPU clock, MHz */
	uint32_t warp_slots;                  /* quads resident per shader core */
	uint32_t issue_width;                 /* instructions per cycle per shader core */
	uint32_t warp_scheduler;              /* enum tsr_core_sched */
	uint32_t alu_before_sample;           /* instructions before the sample */
	uint32_t sfu_latency_cycles;          /* special-function instruction latency */
	uint32_t sample_issue_cycles;         /* issue cycles of a sample instruction */
	uint32_t tile_fetch_requests_per_cycle; /* Tile Fetcher's memory requests per cycle */
	uint32_t tile_fetch_primitives_per_cycle; /* Tile Fetcher's output rate */
	uint32_t triangle_queue_entries;      /* Tile Fetcher's output queue, primitives;
						 0: unlimited (TCOR V-B-3) */
	uint32_t barriers;                    /* enum tsr_timing_barriers */
	uint32_t tiles_in_flight;             /* tiles the raster pipeline holds at once */
	uint32_t tile_sampling;               /* 0: every tile timed; P >= 2: one tile in P
						 timed, the others' cycles estimated
						 (docs/timing.md, "Tile sampling") */
	int overlap_frames;                   /* 1: frame N+1's geometry overlaps frame N's
						 raster phase (docs/timing.md) */
	uint32_t vertex_processors;           /* vertex shader instructions per cycle */
	uint32_t rasterizer_attributes_per_cycle; /* primitive setup throughput */
	uint32_t early_z_inflight;            /* quads in flight in Early-Z */
	uint32_t fragment_queue_entries;      /* blending input queue, quads */
	uint32_t imr_z_quads_in_flight;       /* imr: quads per Early-Z lane waiting for
						 their HiZ and depth reads */
	uint32_t imr_color_quads_in_flight;   /* imr: quads per blending lane waiting for
						 their color (and late-Z) reads */
	uint32_t imr_batch_quads;             /* imr: quads after which a batch (the
						 timing model's unit of work in flight)
						 ends at a primitive's end */
	uint32_t dram_model;                  /* enum tsr_dram_model */
};

/* The raster pipeline's barriers (DTexL II-C, III-E). */
enum tsr_timing_barriers {
	TSR_BARRIERS_COUPLED = 0,  /* a stage starts a tile when all its lanes finished the last */
	TSR_BARRIERS_DECOUPLED,    /* each lane waits only for its own previous subtile */
	TSR_BARRIERS_COUNT
};

/*
 * The pipeline that renders frames (key pipeline.mode): the tile-based
 * renderer (TCOR II-A, the default) or the immediate-mode renderer of
 * GSPC Section 2.1, Figs. 2-3 (pipeline/imr_driver.c).
 */
enum tsr_pipeline_mode { TSR_PIPELINE_TBR = 0, TSR_PIPELINE_IMR, TSR_PIPELINE_MODE_COUNT };

/* Names of the pipeline modes in the configuration (NULL-terminated), by enum value. */
extern const char *const tsr_pipeline_mode_names[];

/* DRAM presets of the timing model (timing/dram.h). */
enum tsr_dram_model {
	TSR_DRAM_LPDDR3 = 0,
	TSR_DRAM_LPDDR4,
	TSR_DRAM_DDR3_1600,
	TSR_DRAM_DDR3_1867,
	TSR_DRAM_MODEL_COUNT
};

struct tsr_gpu_config {
	char name[64];
	enum tsr_pipeline_mode pipeline_mode;  /* tbr (default) or imr (GSPC Section 2.1) */
	uint32_t width, height;              /* screen, pixels */
	uint32_t tile_width, tile_height;    /* pixels, even */
	enum tsr_tile_order tile_order;
	int reverse_every_other_frame;       /* boustrophedonic III-F */
	int attribute_block_writes;          /* 1: attribute writes cover their 64-byte block
						(TCOR III-D-1) */
	uint32_t list_capacity_primitives;   /* PMDs per tile list (TCOR II-B: 1024) */
	uint32_t attribute_bytes;            /* bytes of one attribute (TCOR II-B: 48) */
	enum tsr_pb_list_layout pb_layout;   /* PB-Lists layout */
	uint32_t pb_max_mib;                 /* Parameter Buffer growth limit, MiB */
	enum tsr_quad_grouping quad_grouping;  /* quads to subtiles (DTexL III-B-1) */
	enum tsr_subtile_assignment subtile_assignment;  /* subtiles to cores, tile by tile (III-D) */
	int quad_imbalance_stats;            /* 1: per-tile quad imbalance in stats (DTexL Fig. 15) */
	int texture_footprint_stats;         /* 1: count texture.footprint_lines (sim/footprint.h) */
	uint32_t post_transform_cache_entries; /* shaded vertices kept (FIFO), 0 = none */
	uint32_t instruction_bytes;          /* bytes per shader instruction */
	uint32_t shader_mediump;             /* 0: mediump/lowp at fp16, 1: at fp32 (shader.mediump) */
	struct tsr_memsys_config mem;        /* cores, cache tree, routes, DRAM */
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
	struct tsr_timing_config timing;     /* the timing model (docs/timing.md) */
	struct tsr_energy_config energy;     /* energy table overrides (config/energy_config.h) */
};

/* Names used in JSON for the enums (NULL-terminated). */
extern const char *const tsr_pb_layout_names[];

/*
 * Fills cfg with the defaults: every key's declared default (`tessera
 * config --list`), TCOR Table I; the memory hierarchy from
 * tsr_memsys_config_defaults() and the Attribute Cache from
 * tsr_ac_config_defaults().
 */
void tsr_config_defaults(struct tsr_gpu_config *cfg);

/*
 * Bytes of one attribute write of the Polygon List Builder (and of the
 * Attribute Cache's write-backs): the whole 64-byte block when
 * tiling.attribute_block_writes is set (its spare bytes hold the last
 * tile's ID, TCOR III-D-1), else tiling.attribute_bytes.
 */
uint32_t tsr_config_attribute_write_bytes(const struct tsr_gpu_config *cfg);

/*
 * Reads a configuration file over the defaults and checks it (cache
 * geometries, tile sizes). Equal to tsr_config_apply_sets(cfg, file, NULL,
 * 0, err). Errors: TSR_ERR_IO, TSR_ERR_PARSE, TSR_ERR_CONFIG naming the
 * key, TSR_ERR_GEOMETRY naming the cache.
 */
enum tsr_status tsr_config_load(const char *file, struct tsr_gpu_config *cfg,
				struct tsr_error *err);

/*
 * Reads a configuration file (or none, when file is NULL) over the
 * defaults in cfg, with n command-line overrides "KEY=VALUE" applied on
 * top (`--set caches.l2.size_bytes=2M --set tiling.order=hilbert`), then
 * checks it. KEY is a dotted path of the file format; VALUE is a JSON
 * literal (number, true, false, "string"), an integer with a K, M or G
 * suffix (x1024), or else a bare string. The overrides are edits of the
 * file's JSON document, which is then read exactly as a file is, so an
 * override gets the same validation and messages as the file. Errors:
 * those of tsr_config_load(); TSR_ERR_CONFIG for a malformed override.
 */
enum tsr_status tsr_config_apply_sets(struct tsr_gpu_config *cfg, const char *file,
				      const char *const *sets, size_t n,
				      struct tsr_error *err);

/*
 * Reads a configuration from JSON text in the file format (as
 * tsr_config_json_text() writes it, e.g. stats.json's "config") over cfg,
 * then checks it; label names the text in messages ("run/stats.json:
 * config"). Errors: TSR_ERR_PARSE (not JSON), those of tsr_config_load().
 */
enum tsr_status tsr_config_load_text(const char *text, const char *label,
				     struct tsr_gpu_config *cfg, struct tsr_error *err);
struct tsr_dram_params;
/* The DRAM device's parameters of the preset dram.model names (timing/dram.h). */
void tsr_config_dram_params(const struct tsr_gpu_config *cfg, struct tsr_dram_params *p);

/* Checks a filled configuration (as tsr_config_load does). */
enum tsr_status tsr_config_check(const struct tsr_gpu_config *cfg,
				 struct tsr_error *err);

/*
 * The four ways a configuration renders: pipeline.mode (tbr, imr) times
 * timing.enabled (functional: counts only; timing: cycles too). Some keys
 * are ignored in some of them (the schema declares which and why).
 */
enum tsr_config_mode {
	TSR_MODE_FUNCTIONAL_TBR = 0,  /* timing.enabled false, pipeline.mode tbr */
	TSR_MODE_FUNCTIONAL_IMR,      /* timing.enabled false, pipeline.mode imr */
	TSR_MODE_TIMING_TBR,          /* timing.enabled true, pipeline.mode tbr */
	TSR_MODE_TIMING_IMR,          /* timing.enabled true, pipeline.mode imr */
	TSR_MODE_COUNT
};
#define TSR_MODE_BIT(m) (1u << (m))

/* The mode cfg renders in (its pipeline.mode and timing.enabled). */
enum tsr_config_mode tsr_config_mode(const struct tsr_gpu_config *cfg);

/* "functional tbr", "functional imr", "timing tbr", "timing imr". */
const char *tsr_config_mode_name(enum tsr_config_mode m);

/* One key of the configuration with its value, for `tessera config --list`. */
struct tsr_config_entry {
	char key[96];          /* dotted path: "caches.l2.size_bytes" */
	char value[96];        /* its value in cfg, as JSON text */
	char kind[160];        /* type and valid range: "integer 1..16384", "one of a, b" */
	const char *unit;      /* "pixels", "bytes", "cycles", "" */
	const char *help;      /* what it means */
	int integer;           /* 1: an integer key, valid from min to max */
	uint32_t min, max;
	uint32_t ignored_modes;   /* TSR_MODE_BIT() of each mode that ignores the key */
	const char *ignored_why;  /* why they do ("" when none does) */
	char ignored[512];     /* "ignored in <modes>: <why>" ("" when no mode ignores
				  it): `config --list` prints it after help */
};

/* A key cfg sets that its mode ignores (tsr_config_warnings()). */
struct tsr_config_warning {
	char key[96];          /* "dram.latency_cycles", "caches.l2.mshrs", "energy.dram.read" */
	char msg[512];         /* "<key> is ignored in <mode>: <why>" (no final period) */
};

/*
 * The keys cfg sets to a value other than their default (so set by a
 * configuration file or --set) that the mode cfg renders in ignores, as
 * the schema declares (`tessera config --list`: "ignored in ..."), one
 * warning per key, in schema order; *out is malloc'd (free() it; NULL
 * when *n is 0). The library never prints: the CLI shows each warning
 * once. Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_config_warnings(const struct tsr_gpu_config *cfg,
				    struct tsr_config_warning **out, size_t *n,
				    struct tsr_error *err);

/*
 * Every key of the schema with its value in cfg (the defaults when cfg
 * holds tsr_config_defaults()): the declared keys, then each cache
 * instance's keys, then the routes. *out is malloc'd (free() it).
 * Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_config_entries(const struct tsr_gpu_config *cfg,
				   struct tsr_config_entry **out, size_t *n,
				   struct tsr_error *err);

/*
 * The effective configuration as compact JSON text in the file format
 * (every key, the cache instances and the routes): what stats.json echoes
 * as "config"; a file holding it loads to the same configuration.
 * malloc'd (free() it); NULL when out of memory.
 */
char *tsr_config_json_text(const struct tsr_gpu_config *cfg);

/*
 * The entries of tsr_config_entries(cfg) as a Markdown table (docs/configuration.md's
 * configuration reference, `tessera config --list --markdown`): one header
 * and one row per key, its meaning followed by the modes that ignore it.
 * *out is a malloc'd NUL-terminated string (free() it). Errors:
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_config_markdown(const struct tsr_gpu_config *cfg, char **out,
				    struct tsr_error *err);

#endif
