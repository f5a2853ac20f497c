/*
 * config.c - the configuration schema: every key is declared once in a
 * table below (dotted path, type, valid range, default, unit, meaning,
 * place in struct tsr_gpu_config). Defaults, parsing (with messages that
 * name the file and key), the effective configuration in stats.json,
 * `--set` overrides and `tessera config --list` all come from the tables.
 *
 * Three tables: `keys` (the fixed keys), `cache_keys` (the keys of every
 * instance under "caches", applied to its struct tsr_cache_config) and the
 * routes (one string key per route of memory/memsys.h, under "routes").
 * The hierarchy's and the Attribute Cache's defaults belong to their
 * modules (tsr_memsys_config_defaults, tsr_ac_config_defaults): keys whose
 * default is NULL below take the module's.
 *
 * No dead keys: a key that some mode (functional or timing, pipeline.mode
 * tbr or imr) does not read declares those modes and why (`ignored`,
 * `why`), and a key that acts only with a boolean key on names it
 * (`needs`). From that one declaration come the description's "ignored
 * in ..." (`config --list`, docs/configuration.md), tsr_config_warnings() (which
 * `tessera run` prints) and test 016, which checks that the key moves
 * nothing in those modes and moves the counters everywhere else.
 *
 * Why one file of over 1,000 lines: it is one concern, the schema and
 * what derives from it (reading, defaults, checks, --set, the listings,
 * the warnings). The tables are static here, so that nothing outside reads
 * or writes a key except through its one declaration; a split would have
 * to export them.
 */
#include "config/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"
#include "core/limits.h"
#include "memory/policy.h"
#include "timing/core.h"
#include "timing/dram.h"
#include "tiling/parameter_buffer.h"

const char *const tsr_pb_layout_names[] = {"baseline", "interleaved", NULL};
const char *const tsr_pipeline_mode_names[] = {"tbr", "imr", NULL};
static const char *const ac_policy_names[] = {"opt", "lru", "mru", "drrip", NULL};
static const char *const dram_model_names[] = {"lpddr3", "lpddr4", "ddr3-1600", "ddr3-1867",
						 NULL};
/* enum tsr_core_sched's names, NULL-terminated for the ENUM keys */
static const char *const warp_scheduler_names[] = {"rr", "gto", NULL};
_Static_assert(TSR_CORE_SCHED_RR == 0 && TSR_CORE_SCHED_GTO == 1 && TSR_CORE_SCHED_COUNT == 2,
	       "warp_scheduler_names follows enum tsr_core_sched");
static const char *const mediump_names[] = {"fp16", "fp32", NULL};
static const char *const barrier_names[] = {"coupled", "decoupled", NULL};
_Static_assert(TSR_BARRIERS_COUPLED == 0 && TSR_BARRIERS_DECOUPLED == 1 &&
	       TSR_BARRIERS_COUNT == 2, "barrier_names follows enum tsr_timing_barriers");
static const char *const write_policy_names[] = {"write-back", "write-through", NULL};

enum key_type {
	KEY_U32,     /* uint32_t in [min, max] */
	KEY_BOOL,    /* int or uint32_t holding 0 or 1 */
	KEY_ENUM,    /* int-sized enum: index into names */
	KEY_STRING,  /* char[size] */
};

struct key {
	const char *path;          /* dotted, relative to the table's object */
	enum key_type type;
	size_t offset;             /* of the field in the table's struct */
	size_t size;               /* KEY_STRING: the buffer's size */
	uint32_t min, max;         /* KEY_U32 */
	const char *const *names;  /* KEY_ENUM */
	const char *def;           /* default as JSON text; NULL: the module's default */
	const char *unit;
	const char *help;
	/*
	 * The modes (TSR_MODE_BIT(enum tsr_config_mode)) in which no model
	 * reads the key, and why: `config --list` says so after help, and a
	 * run in such a mode that sets the key to another value than its
	 * default gets a warning (tsr_config_warnings(); test 016 checks that
	 * the key moves nothing there and something everywhere else).
	 */
	uint32_t ignored;
	const char *why;
	/* a boolean key of `keys` without which no model reads this one (NULL: none) */
	const char *needs;
};

/* Sets of modes for `ignored`. */
#define M_FT TSR_MODE_BIT(TSR_MODE_FUNCTIONAL_TBR)
#define M_FI TSR_MODE_BIT(TSR_MODE_FUNCTIONAL_IMR)
#define M_TT TSR_MODE_BIT(TSR_MODE_TIMING_TBR)
#define M_TI TSR_MODE_BIT(TSR_MODE_TIMING_IMR)
#define M_FUNCTIONAL (M_FT | M_FI)
#define M_TIMING (M_TT | M_TI)
#define M_TBR (M_FT | M_TT)
#define M_IMR (M_FI | M_TI)
#define M_ALL (M_FUNCTIONAL | M_TIMING)

/* The reasons, shared by keys. */
#define WHY_TIMING "only the timing model (timing.enabled true) reads it: the functional " \
		   "model counts events and bytes, not cycles"
#define WHY_IMR_TIMING "only the immediate-mode timing model (pipeline.mode imr, " \
		       "timing.enabled true) reads it"
#define WHY_IMR_NO_PB "the immediate-mode pipeline has no Parameter Buffer: primitives " \
		      "go straight from geometry to the raster pipeline"
#define WHY_IMR_NO_TILE_ORDER "the immediate-mode pipeline draws in submission order, not " \
			      "tile by tile"
#define WHY_IMR_NO_TCOR "the Attribute Cache works on the Parameter Buffer, which the " \
			"immediate-mode pipeline does not have (tcor.attribute_cache is an " \
			"error there)"

#define WHY_IMR_NO_RE "Rendering Elimination works on tiles, which the immediate-mode " \
		      "pipeline does not have (elimination.rendering is an error there)"
#define WHY_BARRIERS "only the TBR timing model reads it: the functional model counts no " \
		     "cycles, and the immediate-mode pipeline has no tiles to wait for (each " \
		     "lane works in order)"
#define WHY_DRAM_LATENCY "no model reads it: the functional model counts no cycles, and " \
			 "the timing model's DRAM latencies come from the device that " \
			 "dram.model names (timing/dram.h); kept so that files stating the " \
			 "papers' latency load"

#define GPU(f) offsetof(struct tsr_gpu_config, f)
#define U32_NEEDS(p, f, lo, hi, d, u, h, ig, why, needs) \
	{p, KEY_U32, GPU(f), 0, lo, hi, NULL, d, u, h, ig, why, needs}
#define BOOL_NEEDS(p, f, d, h, ig, why, needs) \
	{p, KEY_BOOL, GPU(f), 0, 0, 1, NULL, d, "", h, ig, why, needs}
#define ENUM_NEEDS(p, f, n, d, h, ig, why, needs) \
	{p, KEY_ENUM, GPU(f), 0, 0, 0, n, d, "", h, ig, why, needs}
#define U32_IGN(p, f, lo, hi, d, u, h, ig, why) U32_NEEDS(p, f, lo, hi, d, u, h, ig, why, NULL)
#define BOOL_IGN(p, f, d, h, ig, why) BOOL_NEEDS(p, f, d, h, ig, why, NULL)
#define ENUM_IGN(p, f, n, d, h, ig, why) ENUM_NEEDS(p, f, n, d, h, ig, why, NULL)
#define U32(p, f, lo, hi, d, u, h) U32_IGN(p, f, lo, hi, d, u, h, 0, NULL)
#define BOOL(p, f, d, h) BOOL_IGN(p, f, d, h, 0, NULL)
#define ENUM(p, f, n, d, h) ENUM_IGN(p, f, n, d, h, 0, NULL)

static const struct key keys[] = {
	{"name", KEY_STRING, GPU(name), sizeof(((struct tsr_gpu_config *)0)->name), 0, 0,
	 NULL, "\"default\"", "", "label copied into stats.json", 0, NULL, NULL},
	ENUM("pipeline.mode", pipeline_mode, tsr_pipeline_mode_names, "\"tbr\"",
	     "tbr: tile-based rendering (TCOR II-A); imr: immediate mode, draws rasterized in "
	     "submission order against depth, HiZ and color buffers in memory through the "
	     "routes z, hiz and display (GSPC Section 2.1, Figs. 2-3); timing mode: docs/timing.md, "
	     "\"Immediate mode\""),
	U32("screen.width", width, 1, 16384, "1960", "pixels",
	    "screen width (width x height at most 8192 x 8192 pixels)"),
	U32("screen.height", height, 1, 16384, "768", "pixels", "screen height"),
	U32("tiling.tile_width", tile_width, 2, 256, "32", "pixels", "tile width (even)"),
	U32("tiling.tile_height", tile_height, 2, 256, "32", "pixels", "tile height (even)"),
	ENUM_IGN("tiling.order", tile_order, tsr_tile_order_names, "\"z-order\"",
	     "order in which the Tile Fetcher visits tiles (DTexL III-C)",
	     M_IMR, WHY_IMR_NO_TILE_ORDER),
	BOOL_IGN("tiling.reverse_every_other_frame", reverse_every_other_frame, "false",
	     "visit tiles in reverse order on odd frames (boustrophedonic III-F)",
	     M_IMR, WHY_IMR_NO_TILE_ORDER),
	U32("tiling.list_capacity_primitives", list_capacity_primitives, 16, 1u << 20, "1024",
	    "PMDs", "PMDs per tile list (TCOR II-B); pipeline.mode imr has no Parameter Buffer, "
	    "but lays its depth, HiZ and color buffers out after the Parameter Buffer's unused "
	    "regions, whose size this sets: there it moves only those buffers' addresses (cache "
	    "sets, DRAM banks and rows)"),
	U32_IGN("tiling.attribute_bytes", attribute_bytes, 16, 64, "48", "bytes",
	    "bytes of one attribute, 3 vertices x 16 bytes (TCOR II-B)",
	    M_IMR, WHY_IMR_NO_PB),
	BOOL_IGN("tiling.attribute_block_writes", attribute_block_writes, "true",
	     "the Polygon List Builder writes each attribute's whole 64-byte block, the "
	     "spare bytes holding the last tile's ID (TCOR III-D-1); false: only its bytes",
	     M_IMR, WHY_IMR_NO_PB),
	ENUM_IGN("tiling.pb_layout", pb_layout, tsr_pb_layout_names, "\"baseline\"",
	     "PB-Lists layout: baseline (TCOR II-B) or interleaved (III-B, Fig. 6; list "
	     "capacity a multiple of 16)",
	     M_IMR, WHY_IMR_NO_PB),
	U32_IGN("tiling.pb_max_mib", pb_max_mib, 1, 65536, "1024", "MiB",
	    "most bytes the Parameter Buffer (lists, overflow pool, attributes) may take, its "
	    "regions grown for a frame included (a driver's tiler-heap limit)",
	    M_IMR, WHY_IMR_NO_PB),
	U32("raster.cores", mem.cores, 1, TSR_MAX_CORES, "4", "cores",
	    "shader cores; per-core caches get one copy each"),
	ENUM("raster.quad_grouping", quad_grouping, tsr_quad_grouping_names, "\"fg-xshift2\"",
	     "quads to subtiles, one per shader core: fine-grained fg-* or coarse-grained cg-* "
	     "(DTexL III-B-1, Fig. 6; docs/raster.md)"),
	BOOL("raster.quad_imbalance_stats", quad_imbalance_stats, "false",
	     "stats.json gets raster.quad_imbalance: per tile, the mean deviation of quads per "
	     "shader core normalised to the mean, as a distribution per frame (DTexL Figs. 12, 15); "
	     "with timing.enabled also timing.execution_imbalance, the same of the cores' "
	     "execution times per tile (Fig. 14)"),
	ENUM("raster.subtile_assignment", subtile_assignment, tsr_subtile_assignment_names,
	     "\"const\"",
	     "subtiles to shader cores, tile by tile: const (subtile s on core s), or flips "
	     "across the edge shared with the previous tile (cg-* groupings only; DTexL III-D, "
	     "Fig. 8; docs/raster.md)"),
	U32("geometry.post_transform_cache_entries", post_transform_cache_entries, 0, 1024,
	    "32", "vertices", "shaded vertices kept (FIFO, per drawcall); 0 disables"),
	U32("shader.instruction_bytes", instruction_bytes, 1, 64, "8", "bytes",
	    "bytes per shader instruction"),
	ENUM("shader.mediump", shader_mediump, mediump_names, "\"fp16\"",
	     "precision of GLSL ES mediump and lowp arithmetic in programs: fp16 (each result "
	     "rounded to IEEE binary16, as Mali, Adreno and Mesa's llvmpipe run it) or fp32 "
	     "(as highp); GLSL ES 1.00 4.5.2 allows both (docs/shader-isa.md)"),
	BOOL("tcor.attribute_cache", attribute_cache, "false",
	     "TCOR III-C: split the Tile Cache; caches.tile becomes the Primitive List Cache "
	     "and PB-Attributes go through the Attribute Cache to routes.attribute_cache"),
	U32_NEEDS("tcor.attribute_cache_bytes", ac.size_bytes, 64, 1u << 26, NULL, "bytes",
	    "Attribute Buffer capacity (64-byte entries)",
	    M_IMR, WHY_IMR_NO_TCOR, "tcor.attribute_cache"),
	U32_NEEDS("tcor.attribute_cache_lines", ac.lines, 1, 1u << 20, NULL, "lines",
	    "Primitive Buffer lines (one primitive each)",
	    M_IMR, WHY_IMR_NO_TCOR, "tcor.attribute_cache"),
	U32_NEEDS("tcor.attribute_cache_ways", ac.ways, 0, 1u << 20, NULL, "ways",
	    "Primitive Buffer associativity (0: fully associative)",
	    M_IMR, WHY_IMR_NO_TCOR, "tcor.attribute_cache"),
	ENUM_NEEDS("tcor.attribute_cache_policy", ac.policy, ac_policy_names, NULL,
	     "opt (OPT Numbers, III-C-6), lru, mru or drrip (V-A comparisons)",
	     M_IMR, WHY_IMR_NO_TCOR, "tcor.attribute_cache"),
	BOOL_NEEDS("tcor.xor_index", ac.xor_index, NULL,
	     "XOR-folded set index of the Primitive Buffer (III-C-2)",
	     M_IMR, WHY_IMR_NO_TCOR, "tcor.attribute_cache"),
	U32_NEEDS("tcor.output_queue", output_queue, 1, 1024, "3", "primitives",
	    "Tile Fetcher output queue: fetched primitives kept locked until rasterized",
	    M_IMR, WHY_IMR_NO_TCOR, "tcor.attribute_cache"),
	BOOL("elimination.rendering", elim.rendering, "false",
	     "Rendering Elimination (RE III): skip tiles whose input signature equals the "
	     "frame two back"),
	BOOL("elimination.transactions", elim.transactions, "false",
	     "Transaction Elimination (RE IV-C): skip color flushes equal to the back buffer's"),
	U32_NEEDS("elimination.refresh_frames", elim.refresh_frames, 0, 1000000, "0", "frames",
	    "0: never; N >= 3: RE off in frames f with f mod N < 2 (RE III-E)",
	    M_IMR, WHY_IMR_NO_RE, "elimination.rendering"),
	BOOL("elimination.verify", elim.verify, "false",
	     "render skipped tiles anyway, uncounted, and compare colors (false positives)"),
	BOOL("timing.enabled", timing.enabled, "false",
	     "count cycles (docs/timing.md): frames per second, unit and core activity, memory "
	     "latencies; every other counter is the same as without"),
	U32_IGN("timing.gpu_mhz", timing.gpu_mhz, 1, 10000, "600", "MHz",
	    "GPU clock (TCOR, DTexL, boustrophedonic Table I/II: 600; RE Table I: 400)",
	    M_FUNCTIONAL, WHY_TIMING),
	U32_IGN("timing.warp_slots", timing.warp_slots, 1, 64, "16", "quads",
	    "warps (one quad each) resident per shader core (an assumption: the papers give none)",
	    M_FUNCTIONAL, WHY_TIMING),
	U32_IGN("timing.issue_width", timing.issue_width, 1, 64, "1", "instructions",
	    "instructions a shader core issues per cycle, each from a different warp (1: the "
	    "papers' mobile cores; configs/gspc-*.json: 16, GSPC Section 4's 8 cores x 2 SIMD4 "
	    "pipelines per texture sampler)",
	    M_FUNCTIONAL, WHY_TIMING),
	ENUM_IGN("timing.warp_scheduler", timing.warp_scheduler, warp_scheduler_names, "\"gto\"",
	     "rr (round-robin) or gto (greedy-then-oldest) over ready warps",
	     M_FUNCTIONAL, WHY_TIMING),
	U32_IGN("timing.alu_before_sample", timing.alu_before_sample, 0, 4096, "2", "instructions",
	    "ALU instructions of a JSON material's quad before its sample instruction "
	    "(interpolation); a GL ES program's quad issues the instructions it executed, in "
	    "their order (timing.sfu_latency_cycles)",
	    M_FUNCTIONAL, WHY_TIMING),
	U32_IGN("timing.sfu_latency_cycles", timing.sfu_latency_cycles, 1, 1024, "4", "cycles",
	    "cycles from a GL ES program's special-function instruction (rcp, rsq, sqrt, exp2, "
	    "log2, sin, cos, div) to its warp's next instruction (an assumption: the papers give "
	    "none; ALU instructions issue back to back)",
	    M_FUNCTIONAL, WHY_TIMING),
	U32_IGN("timing.sample_issue_cycles", timing.sample_issue_cycles, 1, 64, "1", "cycles",
	    "issue cycles of a sample instruction (address computation, coalescing)",
	    M_FUNCTIONAL, WHY_TIMING),
	U32_IGN("timing.tile_fetch_requests_per_cycle", timing.tile_fetch_requests_per_cycle, 1, 64,
	    "1", "requests", "memory requests the Tile Fetcher issues per cycle (TCOR V-B-3)",
	    M_FUNCTIONAL, WHY_TIMING),
	U32_IGN("timing.tile_fetch_primitives_per_cycle", timing.tile_fetch_primitives_per_cycle, 1,
	    64, "1", "primitives", "primitives the Tile Fetcher outputs per cycle (TCOR V-B-3: 1)",
	    M_FUNCTIONAL, WHY_TIMING),
	U32_IGN("timing.triangle_queue_entries", timing.triangle_queue_entries, 0, 1u << 20, "16",
	    "primitives", "the Tile Fetcher's output queue to the Rasterizer (RE Table I: "
	    "triangle and tile queues, 16); 0: unlimited (TCOR V-B-3's throughput experiment)",
	    M_FUNCTIONAL, WHY_TIMING),
	ENUM_IGN("timing.barriers", timing.barriers, barrier_names, "\"coupled\"",
	     "coupled: Early-Z, the cores and blending start a tile when all their lanes "
	     "finished the previous one (DTexL II-C); decoupled: each lane waits only for its "
	     "own previous subtile, color-buffer banks flush one by one (DTexL III-E)",
	     M_FUNCTIONAL | M_IMR, WHY_BARRIERS),
	U32_IGN("timing.tiles_in_flight", timing.tiles_in_flight, 2, 16, "4", "tiles",
	    "tiles the raster pipeline holds at once, Tile Fetcher to flush (how far a lane "
	    "or the Tile Fetcher may run ahead of the oldest tile)",
	    M_FUNCTIONAL, WHY_TIMING),
	U32_IGN("timing.tile_sampling", timing.tile_sampling, 0, 1024, "0", "tiles",
	    "0: every tile simulated cycle by cycle; P >= 2: in a raster phase of at least "
	    "32 x P tiles, one tile at random in each P of the frame's tile order (and the "
	    "phase's first) is, and the others' cycles are estimated by a regression on their "
	    "functional counters, fitted to the simulated tiles; a geometry phase's memory "
	    "paths past its first 32 x P chunks of 256 accesses, one chunk in each P "
	    "(docs/timing.md, \"Tile sampling\"; 4: the setting measured there)",
	    M_FUNCTIONAL, WHY_TIMING),
	BOOL("timing.overlap_frames", timing.overlap_frames, "false",
	     "the geometry phase of frame N+1 runs during the raster phase of frame N, into a "
	     "second Parameter Buffer, as Mali-class GPUs pipeline frames (docs/timing.md); "
	     "the functional model's accesses follow that order, timing on or off"),
	U32_IGN("timing.vertex_processors", timing.vertex_processors, 1, 64, "1", "processors",
	    "vertex processors, one vertex shader instruction a cycle each (RE Table I: 1)",
	    M_FUNCTIONAL, WHY_TIMING),
	U32_IGN("timing.rasterizer_attributes_per_cycle", timing.rasterizer_attributes_per_cycle, 1,
	    1024, "16", "attributes", "primitive setup throughput (RE Table I: 16 per cycle)",
	    M_FUNCTIONAL, WHY_TIMING),
	U32_IGN("timing.early_z_inflight", timing.early_z_inflight, 1, 4096, "32", "quads",
	    "quads in flight in Early-Z (RE Table I: 32)",
	    M_FUNCTIONAL, WHY_TIMING),
	U32_IGN("timing.fragment_queue_entries", timing.fragment_queue_entries, 1, 4096, "64",
	    "entries", "blending input queue (RE Table I: fragment queue, 64)",
	    M_FUNCTIONAL, WHY_TIMING),
	U32_IGN("timing.imr_z_quads_in_flight", timing.imr_z_quads_in_flight, 1, 4096, "16",
	    "quads", "pipeline.mode imr: quads per Early-Z lane whose HiZ and depth reads are "
	    "outstanding (a quad leaves Early-Z when its reads complete; depth writes are "
	    "posted); an assumption, GSPC gives no Z-cache miss queue",
	    M_ALL & ~M_TI, WHY_IMR_TIMING),
	U32_IGN("timing.imr_color_quads_in_flight", timing.imr_color_quads_in_flight, 1, 4096, "16",
	    "quads", "pipeline.mode imr: quads per blending lane whose color (alpha blending) "
	    "and late-Z reads are outstanding (color writes are posted); an assumption",
	    M_ALL & ~M_TI, WHY_IMR_TIMING),
	U32_IGN("timing.imr_batch_quads", timing.imr_batch_quads, 1, 1u << 20, "1024", "quads",
	    "pipeline.mode imr: a batch of primitive windows (the timing model's unit in "
	    "flight, timing.tiles_in_flight of them) ends at a draw's end or at the end of the "
	    "primitive that brings it to this many quads",
	    M_ALL & ~M_TI, WHY_IMR_TIMING),
	ENUM_IGN("dram.model", timing.dram_model, dram_model_names, "\"lpddr3\"",
	     "timing mode: the DRAM device, lpddr3 (dual-channel LPDDR3-1600 behind a 4 "
	     "bytes/cycle port, RE Table I), lpddr4 (dual-channel LPDDR4-3200), ddr3-1600 "
	     "(dual-channel 64-bit DDR3-1600 15-15-15, GSPC Section 4) or ddr3-1867 (10-10-10, "
	     "GSPC Fig. 17); energy figures stay LPDDR3's",
	     M_FUNCTIONAL, WHY_TIMING),
	U32_IGN("dram.latency_cycles", mem.dram_latency_cycles, 0, 100000, NULL, "cycles",
	    "DRAM latency as the papers state it (TCOR Table I: 50-100 cycles)",
	    M_ALL, WHY_DRAM_LATENCY),
	U32("dram.burst_bytes", mem.dram_burst_bytes, 4, 4096, NULL, "bytes",
	    "bytes of one DRAM burst: uncached accesses move whole bursts (power of two)"),
	BOOL("stats.texture_footprint", texture_footprint_stats, "false",
	     "count texture.footprint_lines, the distinct 64-byte lines the texture stream "
	     "touches per frame at the caches its route enters (DTexL Table I, boustrophedonic "
	     "Table I; experiment workloads); off by default: a hash-set insert per texture "
	     "line access"),
};

#define CACHE(f) offsetof(struct tsr_cache_config, f)

/* Keys of each instance under "caches" (defaults: a new instance's). */
static const struct key cache_keys[] = {
	{"size_bytes", KEY_U32, CACHE(geom.size_bytes), 0, 1, 1u << 31, NULL, NULL, "bytes",
	 "capacity (required for a new instance)", 0, NULL, NULL},
	{"ways", KEY_U32, CACHE(geom.ways), 0, 1, TSR_LIMIT_CACHE_WAYS, NULL, NULL, "ways",
	 "associativity (required for a new instance)", 0, NULL, NULL},
	{"line_bytes", KEY_U32, CACHE(geom.line_bytes), 0, 4, 4096, NULL, "64", "bytes",
	 "line size (power of two; 64 for the Parameter Buffer's and textures' paths)", 0, NULL,
	 NULL},
	{"latency_cycles", KEY_U32, CACHE(geom.latency_cycles), 0, 0, 100000, NULL, "1",
	 "cycles", "hit latency", M_FUNCTIONAL, WHY_TIMING,
	 NULL},
	{"policy", KEY_STRING, CACHE(geom.policy), TSR_POLICY_SPEC_MAX, 0, 0, NULL, "\"lru\"",
	 "", "replacement policy spec name[:key=value,...] (OPT/OPTPT only in cachesim)", 0, NULL,
	 NULL},
	{"fetch_on_write", KEY_BOOL, CACHE(geom.fetch_on_write), 0, 0, 1, NULL, "false", "",
	 "true: a partial-line write miss reads the line from the parent; false: "
	 "write-allocate with a byte mask, no read (TCOR Fig. 10)", 0, NULL, NULL},
	{"write_policy", KEY_ENUM, CACHE(write_policy), 0, 0, 0, write_policy_names,
	 "\"write-back\"", "", "write-back or write-through (every write goes on to the parent)",
	 0, NULL, NULL},
	{"per_core", KEY_BOOL, CACHE(per_core), 0, 0, 1, NULL, "false", "",
	 "one private copy per shader core, named <name><core>", 0, NULL, NULL},
	{"parent", KEY_STRING, CACHE(parent), TSR_CACHE_NAME_MAX, 0, 0, NULL, "\"dram\"", "",
	 "the next level: another instance, or \"dram\"", 0, NULL, NULL},
	{"mshrs", KEY_U32, CACHE(mshrs), 0, 1, 65535, NULL, "16", "entries",
	 "timing mode: miss status holding registers; later misses to a line in one merge "
	 "(the papers give none: 16 is an assumption)", M_FUNCTIONAL, WHY_TIMING, NULL},
	{"ports", KEY_U32, CACHE(ports), 0, 1, 64, NULL, "1", "lookups/cycle",
	 "timing mode: lookups that may start per cycle (ports or banks, RE Table I)",
	 M_FUNCTIONAL, WHY_TIMING, NULL},
};

#define NKEYS(t) (sizeof(t) / sizeof((t)[0]))

/* ---- one typed field ---- */

static void *field(void *base, const struct key *k)
{
	return (char *)base + k->offset;
}

/* Stores v at k's field; the value was checked. */
static void set_u32(void *base, const struct key *k, uint32_t v)
{
	if (k->type == KEY_ENUM) {
		int e = (int)v;
		memcpy(field(base, k), &e, sizeof(e));
	} else {
		memcpy(field(base, k), &v, sizeof(v));  /* uint32_t, int: 4 bytes */
	}
}

static uint32_t get_u32(const void *base, const struct key *k)
{
	uint32_t v;
	memcpy(&v, (const char *)base + k->offset, sizeof(v));
	return v;
}

/* Reads key `name` of obj (at dotted `path`) into k's field, if present. */
static enum tsr_status read_key(const json_t *obj, const char *file, const char *path,
				const char *name, const struct key *k, void *base,
				struct tsr_error *err)
{
	switch (k->type) {
	case KEY_U32: {
		uint32_t v = get_u32(base, k);
		TSR_TRY(tsr_json_get_u32(obj, file, path, name, k->min, k->max, &v, err));
		set_u32(base, k, v);
		return TSR_OK;
	}
	case KEY_BOOL: {
		int v = (int)get_u32(base, k);
		TSR_TRY(tsr_json_get_bool(obj, file, path, name, &v, err));
		set_u32(base, k, (uint32_t)v);
		return TSR_OK;
	}
	case KEY_ENUM: {
		int v = (int)get_u32(base, k);
		TSR_TRY(tsr_json_get_enum(obj, file, path, name, k->names, &v, err));
		set_u32(base, k, (uint32_t)v);
		return TSR_OK;
	}
	case KEY_STRING: {
		const char *v = NULL;
		TSR_TRY(tsr_json_get_string(obj, file, path, name, &v, err));
		if (!v)
			return TSR_OK;
		if (strlen(v) >= k->size) {
			char full[256];
			tsr_json_path(full, sizeof(full), path, name);
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' is longer than %zu characters", full,
					     file, k->size - 1);
		}
		snprintf(field(base, k), k->size, "%s", v);
		return TSR_OK;
	}
	}
	return TSR_OK;
}

static json_t *key_json(const void *base, const struct key *k)
{
	switch (k->type) {
	case KEY_U32:
		return json_integer((json_int_t)get_u32(base, k));
	case KEY_BOOL:
		return json_boolean(get_u32(base, k) != 0);
	case KEY_ENUM:
		return json_string(k->names[get_u32(base, k)]);
	case KEY_STRING:
		return tsr_json_string((const char *)base + k->offset);
	}
	return json_null();
}

/* Applies the declared defaults of a table to base. */
static void apply_defaults(const struct key *t, size_t n, void *base)
{
	for (size_t i = 0; i < n; i++) {
		if (!t[i].def)
			continue;
		json_t *root = json_object();
		json_object_set_new(root, "v", json_loads(t[i].def, JSON_DECODE_ANY, NULL));
		struct tsr_error err;
		/* the declared defaults are valid: test 015 checks each one */
		(void)read_key(root, "defaults", "", "v", &t[i], base, &err);
		json_decref(root);
	}
}

/* ---- the document: objects along dotted paths ---- */

/* The last component of a dotted path. */
static const char *leaf(const char *path)
{
	const char *dot = strrchr(path, '.');
	return dot ? dot + 1 : path;
}

/* Copies the section of a dotted path (everything before the last dot) into buf. */
static void section(const char *path, char *buf, size_t n)
{
	const char *dot = strrchr(path, '.');
	size_t len = dot ? (size_t)(dot - path) : 0;
	if (len >= n)
		len = n - 1;
	memcpy(buf, path, len);
	buf[len] = '\0';
}

/* The names of a table's keys inside section sec ("" for the top), NULL-terminated. */
static void names_in(const struct key *t, size_t n, const char *sec, const char **out,
		     size_t cap)
{
	size_t c = 0;
	for (size_t i = 0; i < n && c + 1 < cap; i++) {
		char s[64];
		section(t[i].path, s, sizeof(s));
		if (strcmp(s, sec) == 0)
			out[c++] = leaf(t[i].path);
	}
	out[c] = NULL;
}

/*
 * The top-level names: the sections of `keys` and its top-level keys (kept
 * in store), then caches and routes; NULL-terminated.
 */
static void top_names(char store[][32], const char **out, size_t cap)
{
	size_t c = 0;
	for (size_t i = 0; i < NKEYS(keys) && c + 3 < cap; i++) {
		char s[32];
		section(keys[i].path, s, sizeof(s));
		const char *name = s[0] ? s : keys[i].path;
		int dup = 0;
		for (size_t j = 0; j < c; j++)
			dup |= strcmp(out[j], name) == 0;
		if (dup)
			continue;
		snprintf(store[c], 32, "%s", name);
		out[c] = store[c];
		c++;
	}
	out[c++] = "caches";
	out[c++] = "routes";
	out[c++] = "energy";
	out[c] = NULL;
}

static enum tsr_status read_cache(const json_t *o, const char *file, const char *name,
				  struct tsr_gpu_config *cfg, struct tsr_error *err)
{
	char path[80];
	snprintf(path, sizeof(path), "caches.%s", name);
	const char *allowed[NKEYS(cache_keys) + 1];
	names_in(cache_keys, NKEYS(cache_keys), "", allowed, NKEYS(cache_keys) + 1);
	TSR_TRY(tsr_json_check_keys(o, file, path, allowed, err));
	struct tsr_memsys_config *m = &cfg->mem;
	struct tsr_cache_config *k = tsr_memsys_config_cache(m, name);
	if (!k) {  /* a new instance: its size and ways are required */
		if (m->cache_count == TSR_MEMSYS_MAX_INSTANCES)
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "key '%s' in '%s': at most %d cache instances", path,
					     file, TSR_MEMSYS_MAX_INSTANCES);
		if (strlen(name) >= TSR_CACHE_NAME_MAX)
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "key '%s' in '%s': instance names have at most %d "
					     "characters", path, file, TSR_CACHE_NAME_MAX - 1);
		if (!json_object_get(o, "size_bytes") || !json_object_get(o, "ways"))
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' is a new cache instance: give its "
					     "'size_bytes' and 'ways' (the instances are %s)",
					     path, file, "vertex, tile, texture, instruction, l2 "
					     "and those the file adds");
		k = &m->caches[m->cache_count++];
		memset(k, 0, sizeof(*k));
		snprintf(k->name, sizeof(k->name), "%s", name);
		apply_defaults(cache_keys, NKEYS(cache_keys), k);
	}
	for (size_t i = 0; i < NKEYS(cache_keys); i++)
		TSR_TRY(read_key(o, file, path, cache_keys[i].path, &cache_keys[i], k, err));
	return TSR_OK;
}

static enum tsr_status read_routes(const json_t *o, const char *file,
				   struct tsr_gpu_config *cfg, struct tsr_error *err)
{
	const char *allowed[TSR_ROUTE_COUNT + 1];
	for (uint32_t r = 0; r < TSR_ROUTE_COUNT; r++)
		allowed[r] = tsr_memsys_route_name(r);
	allowed[TSR_ROUTE_COUNT] = NULL;
	TSR_TRY(tsr_json_check_keys(o, file, "routes", allowed, err));
	for (uint32_t r = 0; r < TSR_ROUTE_COUNT; r++) {
		const struct key k = {allowed[r], KEY_STRING, 0, TSR_CACHE_NAME_MAX, 0, 0, NULL,
				      NULL, "", "", 0, NULL, NULL};
		TSR_TRY(read_key(o, file, "routes", allowed[r], &k, cfg->mem.routes[r], err));
	}
	return TSR_OK;
}

/*
 * The "energy" section: numbers under dotted names, written flat
 * ("caches.l2.all.reads": 300) or nested as --set makes them; each becomes
 * an override of the energy table (replacing an earlier one of the same
 * name). The names are checked by tsr_config_check().
 */
static enum tsr_status read_energy(const json_t *o, const char *file, const char *prefix,
				   struct tsr_gpu_config *cfg, struct tsr_error *err)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)o, k, v) {
		char name[TSR_ENERGY_NAME_MAX + 8];
		snprintf(name, sizeof(name), "%s%s%s", prefix, prefix[0] ? "." : "", k);
		if (strlen(name) >= TSR_ENERGY_NAME_MAX)
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "key 'energy.%s' in '%s' is longer than %d characters",
					     name, file, TSR_ENERGY_NAME_MAX - 1);
		if (json_is_object(v)) {
			TSR_TRY(read_energy(v, file, name, cfg, err));
			continue;
		}
		if (!json_is_number(v))
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "key 'energy.%s' in '%s' must be a number (pJ per event; "
					     "mW under energy.static_mw)", name, file);
		struct tsr_energy_config *ec = &cfg->energy;
		uint32_t i = 0;
		while (i < ec->count && strcmp(ec->items[i].name, name))
			i++;
		if (i == TSR_ENERGY_MAX_OVERRIDES)
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "key 'energy.%s' in '%s': at most %d energy keys", name,
					     file, TSR_ENERGY_MAX_OVERRIDES);
		if (i == ec->count)  /* name is shorter than TSR_ENERGY_NAME_MAX (checked above) */
			memcpy(ec->items[ec->count++].name, name, strlen(name) + 1);
		ec->items[i].value = json_number_value(v);
	}
	return TSR_OK;
}

static enum tsr_status read_config(const json_t *root, const char *file,
				   struct tsr_gpu_config *cfg, struct tsr_error *err)
{
	char store[40][32];
	const char *top[40];
	top_names(store, top, 40);
	TSR_TRY(tsr_json_check_keys(root, file, "", top, err));
	/* every section's keys first (unknown keys are errors), then the values */
	for (size_t i = 0; top[i]; i++) {
		const json_t *o = json_object_get(root, top[i]);
		if (!o || !strcmp(top[i], "caches") || !strcmp(top[i], "routes") ||
		    !strcmp(top[i], "energy"))
			continue;
		const char *allowed[32];
		names_in(keys, NKEYS(keys), top[i], allowed, 32);
		if (allowed[0])
			TSR_TRY(tsr_json_check_keys(o, file, top[i], allowed, err));
	}
	for (size_t i = 0; i < NKEYS(keys); i++) {
		char sec[64];
		section(keys[i].path, sec, sizeof(sec));
		const json_t *o = sec[0] ? json_object_get(root, sec) : root;
		if (o)
			TSR_TRY(read_key(o, file, sec, leaf(keys[i].path), &keys[i], cfg, err));
	}
	const json_t *o = json_object_get(root, "caches");
	if (o) {
		if (!json_is_object(o))
			return tsr_error_set(err, TSR_ERR_CONFIG, "'caches' in '%s' must be an object",
					     file);
		const char *name;
		json_t *c;
		json_object_foreach((json_t *)o, name, c)
			TSR_TRY(read_cache(c, file, name, cfg, err));
	}
	if ((o = json_object_get(root, "routes")))
		TSR_TRY(read_routes(o, file, cfg, err));
	if ((o = json_object_get(root, "energy"))) {
		if (!json_is_object(o))
			return tsr_error_set(err, TSR_ERR_CONFIG, "'energy' in '%s' must be an object",
					     file);
		TSR_TRY(read_energy(o, file, "", cfg, err));
	}
	return TSR_OK;
}

void tsr_config_defaults(struct tsr_gpu_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	tsr_ac_config_defaults(&cfg->ac);
	apply_defaults(keys, NKEYS(keys), cfg);
	tsr_memsys_config_defaults(&cfg->mem, cfg->mem.cores);
}

/* The pipeline's demands on the hierarchy (beyond memory/'s own checks). */
static enum tsr_status check_lines(const struct tsr_gpu_config *cfg, struct tsr_error *err)
{
	/*
	 * The Parameter Buffer layout (TCOR II-B) and texel blocks assume
	 * 64-byte lines: the Parameter Buffer's caches and everything below
	 * them, and everything below the texture caches.
	 */
	static const uint32_t routes[] = {TSR_STREAM_PB_LISTS, TSR_STREAM_PB_ATTRIBUTES,
					  TSR_STREAM_TEXTURE, TSR_ROUTE_ATTRIBUTE_CACHE};
	struct tsr_memsys_config *m = (struct tsr_memsys_config *)&cfg->mem;
	for (size_t r = 0; r < sizeof(routes) / sizeof(routes[0]); r++) {
		struct tsr_cache_config *k = tsr_memsys_config_cache(m, m->routes[routes[r]]);
		int first = routes[r] == TSR_STREAM_TEXTURE;  /* the texture L1 may differ */
		for (uint32_t depth = 0; k && depth <= m->cache_count; depth++) {
			if (!first && k->geom.line_bytes != 64)
				return tsr_error_set(err, TSR_ERR_CONFIG,
						     "key 'caches.%s.line_bytes' must be 64: the "
						     "Parameter Buffer layout (TCOR II-B) and texel "
						     "blocks assume 64-byte lines below the %s route",
						     k->name, tsr_memsys_route_name(routes[r]));
			first = 0;
			k = tsr_memsys_config_cache(m, k->parent);
		}
	}
	return TSR_OK;
}

/*
 * What the immediate-mode pipeline (pipeline.mode imr) does not model:
 * the TBR techniques, which work on tiles and the Parameter Buffer, and
 * overlapped frames (it has no separate geometry phase). Each message
 * names the key to change.
 */
static enum tsr_status check_imr(const struct tsr_gpu_config *cfg, struct tsr_error *err)
{
	if (cfg->pipeline_mode != TSR_PIPELINE_IMR)
		return TSR_OK;
	const char *key = cfg->timing.overlap_frames      ? "timing.overlap_frames"
			  : cfg->timing.tile_sampling     ? "timing.tile_sampling"
			  : cfg->attribute_cache          ? "tcor.attribute_cache"
			  : cfg->elim.rendering           ? "elimination.rendering"
			  : cfg->elim.transactions        ? "elimination.transactions"
			  : cfg->elim.verify              ? "elimination.verify"
			  : cfg->quad_imbalance_stats     ? "raster.quad_imbalance_stats"
			  : cfg->subtile_assignment != TSR_SA_CONST ? "raster.subtile_assignment"
							  : NULL;
	if (key)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key '%s' is not supported with key 'pipeline.mode' \"imr\": "
				     "the immediate-mode pipeline has no tiles, Parameter Buffer, "
				     "tile techniques or geometry phase to overlap (switch it off, "
				     "or use \"tbr\")", key);
	return TSR_OK;
}

enum tsr_status tsr_config_check(const struct tsr_gpu_config *cfg,
				 struct tsr_error *err)
{
	if (cfg->tile_width % 2 || cfg->tile_height % 2)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'tiling.tile_width'/'tiling.tile_height' must be even (quads are 2x2)");
	const char *why = tsr_quad_grouping_check(cfg->quad_grouping, cfg->mem.cores,
						  cfg->tile_width, cfg->tile_height);
	if (why)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'raster.quad_grouping': %s, not %u cores (key 'raster.cores') "
				     "with %ux%u-pixel tiles",
				     why, cfg->mem.cores, cfg->tile_width, cfg->tile_height);
	if (cfg->subtile_assignment != TSR_SA_CONST &&
	    !tsr_quad_grouping_coarse(cfg->quad_grouping))
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'raster.subtile_assignment' %s needs a coarse-grained "
				     "'raster.quad_grouping' (cg-*), not %s",
				     tsr_subtile_assignment_names[cfg->subtile_assignment],
				     tsr_quad_grouping_names[cfg->quad_grouping]);
	uint64_t pixels = (uint64_t)cfg->width * cfg->height;
	if (pixels > TSR_LIMIT_SCREEN_PIXELS)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "keys 'screen.width' x 'screen.height' (%u x %u = %llu pixels) "
				     "are more than the limit of %llu pixels (8192 x 8192)",
				     cfg->width, cfg->height, (unsigned long long)pixels,
				     (unsigned long long)TSR_LIMIT_SCREEN_PIXELS);
	uint64_t tiles = (uint64_t)((cfg->width + cfg->tile_width - 1) / cfg->tile_width) *
			 ((cfg->height + cfg->tile_height - 1) / cfg->tile_height);
	if (tiles > 65535)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "%llu tiles is more than 65535: choose larger tiles",
				     (unsigned long long)tiles);
	TSR_TRY(tsr_memsys_config_check(&cfg->mem, err));
	if (cfg->timing.overlap_frames && (cfg->attribute_cache || cfg->elim.rendering ||
					   cfg->elim.transactions))
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'timing.overlap_frames' needs %s off: its state is "
				     "one frame's, not double-buffered",
				     cfg->attribute_cache ? "the Attribute Cache (TCOR)"
				     : "Rendering and Transaction Elimination");
	if (cfg->timing.tile_sampling == 1)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'timing.tile_sampling' is 1: give 0 (every tile timed) "
				     "or a period of at least 2 tiles");
	if (cfg->timing.tile_sampling && cfg->timing.overlap_frames)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'timing.tile_sampling' needs 'timing.overlap_frames' "
				     "false: the skipped tiles' cycles are added at the end of "
				     "each raster phase, which would also hide the next frame's "
				     "geometry phase");
	if (cfg->attribute_cache) {
		struct tsr_ac_config ac = cfg->ac;
		ac.attribute_bytes = cfg->attribute_bytes;
		enum tsr_status s = tsr_ac_config_check(&ac, err);
		if (s != TSR_OK) {
			char msg[sizeof(err->msg)];
			snprintf(msg, sizeof(msg), "%s", err->msg);
			return tsr_error_set(err, s, "key 'tcor': Attribute Cache: %s", msg);
		}
	}
	if (cfg->elim.refresh_frames == 1 || cfg->elim.refresh_frames == 2)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'elimination.refresh_frames' must be 0 (never) or at least 3: "
				     "a refresh switches Rendering Elimination off for two frames");
	if (cfg->pb_layout == TSR_PB_LAYOUT_INTERLEAVED && cfg->list_capacity_primitives % 16)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'tiling.list_capacity_primitives' must be a multiple of 16 "
				     "with the interleaved PB-Lists layout (whole 64-byte blocks)");
	TSR_TRY(check_lines(cfg, err));
	TSR_TRY(check_imr(cfg, err));
	return tsr_energy_config_check(cfg, err);
}

/* ---- --set: edits of the document ---- */

/* Parses an override's value: a JSON literal, an integer with K/M/G, or a string. */
static json_t *set_value(const char *v)
{
	json_t *j = json_loads(v, JSON_DECODE_ANY, NULL);
	if (j)
		return j;
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	if (end != v && !errno && *v != '-' && end[0] && !end[1]) {
		unsigned long long mul = end[0] == 'K' || end[0] == 'k'   ? 1024ull
					 : end[0] == 'M' || end[0] == 'm' ? 1024ull * 1024
					 : end[0] == 'G' || end[0] == 'g' ? 1024ull * 1024 * 1024
									  : 0;
		if (mul && n <= (unsigned long long)INT64_MAX / mul)
			return json_integer((json_int_t)(n * mul));
	}
	return tsr_json_string(v);
}

/* Applies one "KEY=VALUE" to the document root. */
static enum tsr_status apply_set(json_t *root, const char *set, struct tsr_error *err)
{
	const char *eq = strchr(set, '=');
	if (!eq || eq == set)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "--set '%s' must be KEY=VALUE (e.g. caches.l2.size_bytes=2M; "
				     "see 'tessera config --list')", set);
	char key[256];
	size_t klen = (size_t)(eq - set);
	if (klen >= sizeof(key))
		return tsr_error_set(err, TSR_ERR_CONFIG, "--set key is too long");
	memcpy(key, set, klen);
	key[klen] = '\0';
	json_t *obj = root;
	char *part = key;
	for (;;) {
		char *dot = strchr(part, '.');
		if (dot)
			*dot = '\0';
		if (!*part)
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "--set '%s': empty component in the key", set);
		if (!dot) {
			json_t *v = set_value(eq + 1);
			if (!v || json_object_set_new(obj, part, v))
				return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
			return TSR_OK;
		}
		json_t *next = json_object_get(obj, part);
		if (!next) {
			next = json_object();
			if (!next || json_object_set_new(obj, part, next))
				return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
		} else if (!json_is_object(next)) {
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "--set '%s': '%s' is not a section", set, part);
		}
		obj = next;
		part = dot + 1;
	}
}

/* read_config() of root, then tsr_config_check(), whose message then names `label`. */
static enum tsr_status read_and_check(json_t *root, const char *label,
				      struct tsr_gpu_config *cfg, struct tsr_error *err)
{
	TSR_TRY(read_config(root, label, cfg, err));
	enum tsr_status s = tsr_config_check(cfg, err);
	if (s != TSR_OK) {
		/* name the file in the message */
		char buf[sizeof(err->msg)];
		snprintf(buf, sizeof(buf), "%s", err->msg);
		tsr_error_set(err, s, "%s (in '%s')", buf, label);
	}
	return s;
}

enum tsr_status tsr_config_apply_sets(struct tsr_gpu_config *cfg, const char *file,
				      const char *const *sets, size_t n,
				      struct tsr_error *err)
{
	json_t *root = NULL;
	if (file)
		TSR_TRY(tsr_json_load_file(file, &root, err));
	else if (!(root = json_object()))
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	enum tsr_status s = TSR_OK;
	for (size_t i = 0; s == TSR_OK && i < n; i++)
		s = apply_set(root, sets[i], err);
	char label[4200];
	if (file && n)
		snprintf(label, sizeof(label), "%s with --set", file);
	else
		snprintf(label, sizeof(label), "%s", file ? file : "--set");
	if (s == TSR_OK)
		s = read_and_check(root, label, cfg, err);
	json_decref(root);
	return s;
}

enum tsr_status tsr_config_load(const char *file, struct tsr_gpu_config *cfg,
				struct tsr_error *err)
{
	return tsr_config_apply_sets(cfg, file, NULL, 0, err);
}

enum tsr_status tsr_config_load_text(const char *text, const char *label,
				     struct tsr_gpu_config *cfg, struct tsr_error *err)
{
	json_error_t je;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return tsr_error_set(err, TSR_ERR_PARSE,
				     "malformed JSON in '%s' at line %d, column %d: %s", label,
				     je.line, je.column, je.text);
	enum tsr_status s = TSR_OK;
	if (!json_is_object(root))
		s = tsr_error_set(err, TSR_ERR_CONFIG, "'%s' must be a JSON object", label);
	if (s == TSR_OK)
		s = read_and_check(root, label, cfg, err);
	json_decref(root);
	return s;
}

/* ---- modes and the keys they ignore ---- */

enum tsr_config_mode tsr_config_mode(const struct tsr_gpu_config *cfg)
{
	const int imr = cfg->pipeline_mode == TSR_PIPELINE_IMR;
	return cfg->timing.enabled ? (imr ? TSR_MODE_TIMING_IMR : TSR_MODE_TIMING_TBR)
				   : (imr ? TSR_MODE_FUNCTIONAL_IMR : TSR_MODE_FUNCTIONAL_TBR);
}

const char *tsr_config_mode_name(enum tsr_config_mode m)
{
	static const char *const names[TSR_MODE_COUNT] = {"functional tbr", "functional imr",
							  "timing tbr", "timing imr"};
	return (unsigned)m < TSR_MODE_COUNT ? names[m] : "invalid";
}

/*
 * The modes of `modes` as words, for a key's description; when `run` is a
 * mode (not TSR_MODE_COUNT), the narrowest of those words that holds it,
 * for a run's warning ("functional mode (timing.enabled false)").
 */
static const char *modes_text(uint32_t modes, enum tsr_config_mode run)
{
	static const struct {
		uint32_t modes;
		const char *text;
	} sets[] = {
		{M_ALL, "every mode"},
		{M_FUNCTIONAL, "functional mode (timing.enabled false)"},
		{M_TIMING, "timing mode (timing.enabled true)"},
		{M_IMR, "immediate mode (pipeline.mode imr)"},
		{M_TBR, "tile-based mode (pipeline.mode tbr)"},
		{M_ALL & ~M_TI, "every mode but timing with pipeline.mode imr"},
		{M_FUNCTIONAL | M_IMR, "functional mode and immediate mode"},
		{M_FT, "functional mode with pipeline.mode tbr"},
		{M_FI, "functional mode with pipeline.mode imr"},
		{M_TT, "timing mode with pipeline.mode tbr"},
		{M_TI, "timing mode with pipeline.mode imr"},
	};
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		const uint32_t m = sets[i].modes;
		if (run == TSR_MODE_COUNT ? m == modes
					  : (m & modes) == m && (m & TSR_MODE_BIT(run)) &&
					    (m == M_ALL || m == M_FUNCTIONAL || m == M_TIMING ||
					     m == M_IMR || m == M_TBR || m == TSR_MODE_BIT(run)))
			return sets[i].text;
	}
	return "some modes";  /* a set the table lacks: test 016 checks none is declared */
}

/* The Attribute Cache's route and the streams' routes whose stream a mode never issues. */
static uint32_t route_ignored(uint32_t r, const char **why)
{
	switch (r) {
	case TSR_STREAM_PB_LISTS:
	case TSR_STREAM_PB_ATTRIBUTES:
		*why = WHY_IMR_NO_PB;
		return M_IMR;
	case TSR_ROUTE_ATTRIBUTE_CACHE:
		*why = WHY_IMR_NO_TCOR;
		return M_IMR;
	case TSR_STREAM_COLOR:
		*why = "the immediate-mode pipeline's frame buffer traffic is stream display "
		       "(routes.display); color carries the TBR's tile flushes";
		return M_IMR;
	case TSR_STREAM_Z:
	case TSR_STREAM_HIZ:
	case TSR_STREAM_DISPLAY:
		*why = "the TBR keeps depth on chip and flushes its tiles' colors through "
		       "routes.color: only the immediate-mode pipeline has depth, HiZ and display "
		       "traffic";
		return M_TBR;
	case TSR_STREAM_STENCIL:
		*why = "no model issues stencil accesses (the stencil lives with depth: on chip "
		       "in the TBR, packed D24S8 in the immediate-mode Z buffer's words, stream "
		       "z): the stream is routed but idle";
		return M_ALL;
	case TSR_STREAM_OTHER:
		*why = "the pipeline issues no access of stream other (only text traces replayed "
		       "by tessera cachesim do)";
		return M_ALL;
	default:
		*why = NULL;
		return 0;
	}
}

/* The schema's key of route r, named `key`. */
static struct key route_key(uint32_t r, const char *key)
{
	const char *why;
	const uint32_t ignored = route_ignored(r, &why);
	return (struct key){key, KEY_STRING, 0, TSR_CACHE_NAME_MAX, 0, 0, NULL, NULL, "",
			    r == TSR_ROUTE_ATTRIBUTE_CACHE
				    ? "where the Attribute Cache sends misses and "
				      "write-backs: an instance, \"perfect\" or \"dram\""
				    : "first level of this stream: an instance, "
				      "\"perfect\" (always hits) or \"dram\" (uncached)",
			    ignored, why, r == TSR_ROUTE_ATTRIBUTE_CACHE ? "tcor.attribute_cache" : NULL};
}

/* Energy overrides: the energy model runs on the timing model's activity. */
#define ENERGY_IGNORED M_FUNCTIONAL
#define WHY_ENERGY "energy is computed from the timing model's activity and cycles " \
		   "(timing.enabled true); a functional run reports none"

/* The entry of `keys` at path (NULL if none). */
static const struct key *key_named(const char *path)
{
	for (size_t i = 0; i < NKEYS(keys); i++)
		if (!strcmp(keys[i].path, path))
			return &keys[i];
	return NULL;
}

/* Whether k needs a boolean key that cfg leaves false. */
static int needs_unmet(const struct key *k, const struct tsr_gpu_config *cfg)
{
	const struct key *n = k->needs ? key_named(k->needs) : NULL;
	return n && !get_u32(cfg, n);
}

/*
 * Adds a warning for key (of table entry k, its values in base and, by
 * default, in def) when the values differ and no model reads the key in
 * cfg's mode: the schema's declaration (mode, then k->needs), else
 * `unread` (a cache instance no stream of the mode reaches; NULL: read).
 */
static void warn_key(struct tsr_config_warning *w, size_t *n, const char *key,
		     const struct key *k, const void *base, const void *def,
		     const struct tsr_gpu_config *cfg, const char *unread)
{
	const enum tsr_config_mode mode = tsr_config_mode(cfg);
	const int in_mode = (k->ignored & TSR_MODE_BIT(mode)) != 0;
	const int needs = !in_mode && needs_unmet(k, cfg);
	if (!in_mode && !needs && !unread)
		return;
	json_t *a = key_json(base, k), *b = key_json(def, k);
	const int same = a && b && json_equal(a, b);
	json_decref(a);
	json_decref(b);
	if (same)
		return;
	snprintf(w[*n].key, sizeof(w[*n].key), "%s", key);
	if (in_mode)
		snprintf(w[*n].msg, sizeof(w[*n].msg), "%s is ignored in %s: %s", key,
			 modes_text(k->ignored, mode), k->why);
	else if (needs)
		snprintf(w[*n].msg, sizeof(w[*n].msg), "%s is ignored with %s false: only %s "
			 "true makes a model read it", key, k->needs, k->needs);
	else
		snprintf(w[*n].msg, sizeof(w[*n].msg), "%s is ignored in %s: %s", key,
			 modes_text(TSR_MODE_BIT(mode), mode), unread ? unread : "");
	(*n)++;
}

/* The streams' routes that cfg's mode uses (a mask of route numbers). */
static uint64_t routes_used(const struct tsr_gpu_config *cfg)
{
	const enum tsr_config_mode mode = tsr_config_mode(cfg);
	uint64_t used = 0;
	for (uint32_t r = 0; r < TSR_ROUTE_COUNT; r++) {
		const char *why;
		const struct key k = route_key(r, "");
		if (!(route_ignored(r, &why) & TSR_MODE_BIT(mode)) && !needs_unmet(&k, cfg))
			used |= 1ull << r;
	}
	return used;
}

enum tsr_status tsr_config_warnings(const struct tsr_gpu_config *cfg,
				    struct tsr_config_warning **out, size_t *n,
				    struct tsr_error *err)
{
	_Static_assert(TSR_ROUTE_COUNT <= 64, "routes_used() is a 64-bit mask");
	_Static_assert(TSR_MEMSYS_MAX_INSTANCES <= 64, "reached is a 64-bit mask");
	*out = NULL;
	*n = 0;
	const enum tsr_config_mode mode = tsr_config_mode(cfg);
	const size_t cap = NKEYS(keys) + cfg->mem.cache_count * NKEYS(cache_keys) +
			   TSR_ROUTE_COUNT + cfg->energy.count;
	struct tsr_config_warning *w = calloc(cap, sizeof(*w));
	struct tsr_gpu_config *def = malloc(sizeof(*def));
	if (!w || !def) {
		free(w);
		free(def);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	tsr_config_defaults(def);
	size_t c = 0;
	for (size_t i = 0; i < NKEYS(keys); i++)
		warn_key(w, &c, keys[i].path, &keys[i], cfg, def, cfg, NULL);
	/* the instances some route of the mode reaches, parents included */
	struct tsr_memsys_config *m = (struct tsr_memsys_config *)&cfg->mem;
	const uint64_t used = routes_used(cfg);
	uint64_t reached = 0;
	for (uint32_t r = 0; r < TSR_ROUTE_COUNT; r++) {
		const struct tsr_cache_config *k = (used >> r & 1)
						   ? tsr_memsys_config_cache(m, m->routes[r]) : NULL;
		for (uint32_t depth = 0; k && depth <= m->cache_count; depth++) {
			reached |= 1ull << (k - m->caches);
			k = tsr_memsys_config_cache(m, k->parent);
		}
	}
	struct tsr_cache_config fresh;  /* a new instance's defaults */
	memset(&fresh, 0, sizeof(fresh));
	apply_defaults(cache_keys, NKEYS(cache_keys), &fresh);
	for (uint32_t j = 0; j < cfg->mem.cache_count; j++) {
		const struct tsr_cache_config *k = &cfg->mem.caches[j];
		const struct tsr_cache_config *d = tsr_memsys_config_cache(&def->mem, k->name);
		char unread[320];
		snprintf(unread, sizeof(unread), "no stream of this mode reaches cache '%s' (see "
			 "the routes and the caches' parents)", k->name);
		for (size_t i = 0; i < NKEYS(cache_keys); i++) {
			char key[96];
			snprintf(key, sizeof(key), "caches.%s.%s", k->name, cache_keys[i].path);
			/* parent and per_core still matter: they make the instances
			 * stats.json lists */
			const int read = (reached >> j & 1) || !strcmp(cache_keys[i].path, "parent") ||
					 !strcmp(cache_keys[i].path, "per_core");
			warn_key(w, &c, key, &cache_keys[i], k, d ? d : &fresh, cfg,
				 read ? NULL : unread);
		}
	}
	for (uint32_t r = 0; r < TSR_ROUTE_COUNT; r++) {
		char key[96];
		snprintf(key, sizeof(key), "routes.%s", tsr_memsys_route_name(r));
		const struct key k = route_key(r, key);
		warn_key(w, &c, key, &k, cfg->mem.routes[r], def->mem.routes[r], cfg, NULL);
	}
	for (uint32_t i = 0; (ENERGY_IGNORED & TSR_MODE_BIT(mode)) && i < cfg->energy.count; i++) {
		struct tsr_config_warning *x = &w[c++];
		snprintf(x->key, sizeof(x->key), "energy.%s", cfg->energy.items[i].name);
		snprintf(x->msg, sizeof(x->msg), "%s is ignored in %s: %s", x->key,
			 modes_text(ENERGY_IGNORED, mode), WHY_ENERGY);
	}
	free(def);
	if (!c) {
		free(w);
		w = NULL;
	}
	*out = w;
	*n = c;
	return TSR_OK;
}

/* ---- output ---- */

/* The object at section sec of o, created if needed ("" is o itself). */
static json_t *section_object(json_t *o, const char *sec)
{
	if (!sec[0])
		return o;
	json_t *s = json_object_get(o, sec);
	if (!s) {
		s = json_object();
		json_object_set_new(o, sec, s);
	}
	return s;
}

static json_t *cache_json(const struct tsr_cache_config *k)
{
	json_t *o = json_object();
	for (size_t i = 0; i < NKEYS(cache_keys); i++)
		json_object_set_new(o, cache_keys[i].path, key_json(k, &cache_keys[i]));
	return o;
}

/* The configuration as a JSON object in the file format; NULL when out of memory. */
static json_t *config_to_json(const struct tsr_gpu_config *cfg)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	for (size_t i = 0; i < NKEYS(keys); i++) {
		char sec[64];
		section(keys[i].path, sec, sizeof(sec));
		json_object_set_new(section_object(o, sec), leaf(keys[i].path),
				    key_json(cfg, &keys[i]));
	}
	json_t *caches = json_object(), *routes = json_object();
	for (uint32_t i = 0; i < cfg->mem.cache_count; i++)
		json_object_set_new(caches, cfg->mem.caches[i].name, cache_json(&cfg->mem.caches[i]));
	for (uint32_t r = 0; r < TSR_ROUTE_COUNT; r++)
		json_object_set_new(routes, tsr_memsys_route_name(r),
				    tsr_json_string(cfg->mem.routes[r]));
	json_object_set_new(o, "caches", caches);
	json_object_set_new(o, "routes", routes);
	if (cfg->energy.count) {  /* the overrides only: the defaults follow from the rest */
		json_t *energy = json_object();
		for (uint32_t i = 0; i < cfg->energy.count; i++)
			json_object_set_new(energy, cfg->energy.items[i].name,
					    json_real(cfg->energy.items[i].value));
		json_object_set_new(o, "energy", energy);
	}
	return o;
}

/* "integer 1..16384", "true or false", "one of a, b" */
static void kind_text(const struct key *k, char *buf, size_t n)
{
	switch (k->type) {
	case KEY_U32:
		snprintf(buf, n, "integer %u..%u", k->min, k->max);
		return;
	case KEY_BOOL:
		snprintf(buf, n, "true or false");
		return;
	case KEY_ENUM: {
		char names[128];
		tsr_names_join(names, sizeof(names), k->names);
		snprintf(buf, n, "one of %s", names);
		return;
	}
	case KEY_STRING:
		snprintf(buf, n, "string");
		return;
	}
}

static void entry(struct tsr_config_entry *e, const char *key, const struct key *k,
		  const void *base)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->key, sizeof(e->key), "%s", key);
	json_t *v = key_json(base, k);
	char *text = v ? json_dumps(v, JSON_ENCODE_ANY) : NULL;
	snprintf(e->value, sizeof(e->value), "%s", text ? text : "?");
	free(text);
	json_decref(v);
	kind_text(k, e->kind, sizeof(e->kind));
	e->unit = k->unit;
	e->help = k->help;
	e->integer = k->type == KEY_U32;
	e->min = k->type == KEY_U32 ? k->min : 0;
	e->max = k->type == KEY_U32 ? k->max : 0;
	e->ignored_modes = k->ignored;
	e->ignored_why = k->ignored ? k->why : "";
	size_t len = 0;
	if (k->ignored)
		len = (size_t)snprintf(e->ignored, sizeof(e->ignored), "ignored in %s: %s",
				       modes_text(k->ignored, TSR_MODE_COUNT), k->why);
	if (k->needs && len < sizeof(e->ignored))
		snprintf(e->ignored + len, sizeof(e->ignored) - len, "%signored unless %s is true",
			 len ? "; " : "", k->needs);
}

enum tsr_status tsr_config_entries(const struct tsr_gpu_config *cfg,
				   struct tsr_config_entry **out, size_t *n,
				   struct tsr_error *err)
{
	struct tsr_energy_row *rows = NULL;
	size_t nrows = 0;
	TSR_TRY(tsr_energy_table(cfg, &rows, &nrows, err));
	size_t cap = NKEYS(keys) + cfg->mem.cache_count * NKEYS(cache_keys) + TSR_ROUTE_COUNT +
		     nrows;
	struct tsr_config_entry *e = calloc(cap, sizeof(*e));
	if (!e) {
		free(rows);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	size_t c = 0;
	for (size_t i = 0; i < NKEYS(keys); i++)
		entry(&e[c++], keys[i].path, &keys[i], cfg);
	for (uint32_t j = 0; j < cfg->mem.cache_count; j++)
		for (size_t i = 0; i < NKEYS(cache_keys); i++) {
			char key[96];
			snprintf(key, sizeof(key), "caches.%s.%s", cfg->mem.caches[j].name,
				 cache_keys[i].path);
			entry(&e[c++], key, &cache_keys[i], &cfg->mem.caches[j]);
		}
	for (uint32_t r = 0; r < TSR_ROUTE_COUNT; r++) {
		char key[96];
		snprintf(key, sizeof(key), "routes.%s", tsr_memsys_route_name(r));
		const struct key k = route_key(r, key);
		entry(&e[c++], key, &k, cfg->mem.routes[r]);
	}
	/* the effective energy table (config/energy_config.h): defaults with their sources */
	for (size_t i = 0; i < nrows; i++) {
		struct tsr_config_entry *x = &e[c++];
		snprintf(x->key, sizeof(x->key), "energy.%s", rows[i].name);
		snprintf(x->value, sizeof(x->value), "%.6g", rows[i].value);
		snprintf(x->kind, sizeof(x->kind), "number >= 0");
		x->unit = rows[i].is_static ? "mW" : "pJ";
		x->help = rows[i].source;
		x->ignored_modes = ENERGY_IGNORED;
		x->ignored_why = WHY_ENERGY;
		snprintf(x->ignored, sizeof(x->ignored), "ignored in %s: %s",
			 modes_text(ENERGY_IGNORED, TSR_MODE_COUNT), WHY_ENERGY);
	}
	free(rows);
	*out = e;
	*n = c;
	return TSR_OK;
}

char *tsr_config_json_text(const struct tsr_gpu_config *cfg)
{
	json_t *o = config_to_json(cfg);
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return text;
}

enum tsr_status tsr_config_markdown(const struct tsr_gpu_config *cfg, char **out,
				    struct tsr_error *err)
{
	static const char head[] = "| key | value | valid values | unit | meaning |\n"
				   "| --- | --- | --- | --- | --- |\n";
	struct tsr_config_entry *e = NULL;
	size_t n = 0;
	*out = NULL;
	TSR_TRY(tsr_config_entries(cfg, &e, &n, err));
	size_t cap = sizeof(head);
	for (size_t i = 0; i < n; i++)
		cap += sizeof(*e) + strlen(e[i].unit) + strlen(e[i].help) + 40;
	char *md = malloc(cap);
	if (!md) {
		free(e);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	size_t len = (size_t)snprintf(md, cap, "%s", head);
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(md + len, cap - len, "| `%s` | `%s` | %s | %s | %s%s%s |\n",
					e[i].key, e[i].value, e[i].kind, e[i].unit, e[i].help,
					e[i].ignored[0] ? "; " : "", e[i].ignored);
	free(e);
	*out = md;
	return TSR_OK;
}

uint32_t tsr_config_attribute_write_bytes(const struct tsr_gpu_config *cfg)
{
	return cfg->attribute_block_writes ? TSR_PB_BLOCK_BYTES : cfg->attribute_bytes;
}

void tsr_config_dram_params(const struct tsr_gpu_config *cfg, struct tsr_dram_params *p)
{
	switch (cfg->timing.dram_model) {
	case TSR_DRAM_LPDDR4: tsr_dram_params_default_lpddr4(p); break;
	case TSR_DRAM_DDR3_1600: tsr_dram_params_default_ddr3_1600(p); break;
	case TSR_DRAM_DDR3_1867: tsr_dram_params_default_ddr3_1867(p); break;
	default: tsr_dram_params_default_lpddr3(p); break;
	}
}
