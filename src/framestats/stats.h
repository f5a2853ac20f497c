/*
 * stats.h - one frame's (or the total's) statistics: every counter group
 * of stats/counters.h, the caches' per-stream counters, DRAM and perfect
 * routes per stream. Every counter is declared once, in stats/counters.h;
 * the functions here are driven by its descriptor tables. docs/statistics.md
 * ("Statistics") says what each one means.
 */
#ifndef TSR_FRAMESTATS_STATS_H
#define TSR_FRAMESTATS_STATS_H

#include <stdint.h>

#include "core/status.h"
#include "core/stream.h"
#include "memory/memsys.h"
#include "stats/counters.h"

/*
 * Quad-distribution imbalance (DTexL V-B, Figs. 12 and 15), only with
 * raster.quad_imbalance_stats: for each tile with shaded quads, the mean
 * absolute deviation of the quads each shader core shaded from their mean,
 * normalised to the mean, in 1/1000 (rounded). With n cores it is at most
 * 2 (n - 1) / n (every quad on one core), so 2001 buckets hold every
 * value; histograms of frames add up exactly to the run's.
 */
#define TSR_QUAD_IMBALANCE_BUCKETS 2001
struct tsr_quad_imbalance {
	uint64_t tiles;                                /* tiles counted */
	uint64_t permille_sum;                         /* sum of their values, 1/1000 */
	uint32_t histogram[TSR_QUAD_IMBALANCE_BUCKETS];  /* tiles per value, 1/1000 */
};

/* A distribution of struct tsr_quad_imbalance, in percent of the mean. */
struct tsr_quad_imbalance_summary {
	uint64_t tiles;
	double mean_pct, min_pct, q1_pct, median_pct, q3_pct, max_pct;
};

struct tsr_frame_stats {
	uint32_t frame;
	struct tsr_geometry_stats geometry;
	struct tsr_tiling_stats tiling;
	struct tsr_raster_stats raster;
	struct tsr_texture_stats texture;
	uint32_t cache_count;
	struct tsr_cache_counters caches[TSR_MEMSYS_MAX_CACHES][TSR_STREAM_COUNT];
	struct tsr_dram_counters dram[TSR_STREAM_COUNT];
	struct tsr_dram_counters perfect[TSR_STREAM_COUNT];  /* bytes of perfect routes */
	uint64_t memory_accesses;      /* accesses served by all caches */
	struct tsr_ac_counters attribute_cache;  /* TCOR Attribute Cache (zero when off) */
	struct tsr_elimination_stats elim;       /* RE and TE (zero when off) */
	struct tsr_timing_stats timing;          /* the timing model (zero when off) */
	/* the timing model per cache (indexed as caches[]) and per stream (zero when off) */
	struct tsr_cache_timing_stats cache_timing[TSR_MEMSYS_MAX_CACHES];
	struct tsr_stream_timing_stats stream_timing[TSR_STREAM_COUNT];
	struct tsr_quad_imbalance quad_imbalance;  /* zero unless raster.quad_imbalance_stats */
	/* the same of the cores' execution time per tile (DTexL Fig. 14): zero
	 * unless raster.quad_imbalance_stats and timing.enabled */
	struct tsr_quad_imbalance time_imbalance;
};

/*
 * Counts one tile in h: quads[c] is the number of quads shader core c
 * shaded in the tile (c < cores). A tile without shaded quads is not
 * counted. DTexL V-B (Fig. 15): sum_c |quads[c] - mean| / cores / mean.
 * The timing driver counts the cores' execution times in a tile (cycles
 * from a core's first quad in to its last quad out, 0 for a core without
 * quads) the same way (Fig. 14): with non-negative values the bound holds.
 */
void tsr_quad_imbalance_add_tile(struct tsr_quad_imbalance *h, const uint64_t *quads,
				 uint32_t cores);

/*
 * h += b, tile by tile (the histograms add up exactly).
 */
void tsr_quad_imbalance_add(struct tsr_quad_imbalance *h, const struct tsr_quad_imbalance *b);

/*
 * The distribution of h: mean, min, quartiles (nearest rank: the value of
 * the ceil(p * tiles)-th smallest tile) and max, in percent; all zero
 * when no tile was counted.
 */
void tsr_quad_imbalance_summarise(const struct tsr_quad_imbalance *h,
				  struct tsr_quad_imbalance_summary *out);

/* The groups of struct tsr_frame_stats with one struct each, and where they are. */
struct tsr_stats_group {
	const struct tsr_counter_group *group;
	size_t offset;   /* in struct tsr_frame_stats */
};
extern const struct tsr_stats_group tsr_stats_groups[];
extern const size_t tsr_stats_group_count;

/* a += b, counter by counter, by each counter's merge rule. */
void tsr_frame_stats_add(struct tsr_frame_stats *a, const struct tsr_frame_stats *b);

/* Snapshot of the hierarchy's cumulative counters into s. */
void tsr_frame_stats_snapshot_memory(struct tsr_frame_stats *s,
				     const struct tsr_memsys *m);

/* s = s - base, for the memory counters only (per-frame deltas). */
void tsr_frame_stats_sub_memory(struct tsr_frame_stats *s,
				const struct tsr_frame_stats *base);

/* s = s + d, for the memory counters only (a frame's phases; d has s's caches). */
void tsr_frame_stats_add_memory(struct tsr_frame_stats *s, const struct tsr_frame_stats *d);

/*
 * Looks a counter up by its dotted name, as in stats.json:
 * "geometry.primitives_in", "raster.quads_per_core.2",
 * "elimination.signature_unit.ot_max", "caches.l2.texture.read_misses",
 * "caches.l2.all.reads", "caches.texture.all.read_misses" (a per-core
 * instance: the sum over its copies), "dram.color.write_bytes",
 * "dram.all.read_bytes", "perfect.vertex.read_bytes", "memory_accesses",
 * "timing.caches.l2.mshr_occupancy", "timing.caches.texture.latency_hist.3"
 * (per-core copies summed), "timing.streams.texture.latency".
 * mem names the caches (the hierarchy s was taken from). Units: those of
 * the counter (stats/counters.h). With mem NULL any cache name is taken
 * (its counters read 0): a check of a name before the hierarchy is built.
 * Errors: TSR_ERR_CONFIG naming the unknown part.
 */
enum tsr_status tsr_stats_lookup(const struct tsr_frame_stats *s,
				 const struct tsr_memsys *mem, const char *name,
				 uint64_t *out, struct tsr_error *err);

/*
 * The statistics table of docs/statistics.md as Markdown (one row per counter:
 * name as in stats.json, unit, meaning), from the declarations of
 * stats/counters.h. Writes at most n bytes (NUL included) and returns the
 * length of the whole table, as snprintf does.
 */
size_t tsr_stats_markdown(char *buf, size_t n);

#endif
