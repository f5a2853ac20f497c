/*
 * stats.h - the statistics tessera reports, per frame and in total.
 * Every counter is a count of events (no units) unless its name says
 * bytes. The README ("Statistics") says what each one means.
 */
#ifndef TSR_REPORT_STATS_H
#define TSR_REPORT_STATS_H

#include <stdint.h>

#include "core/stream.h"
#include "memory/cache.h"
#include "memory/memsys.h"
#include "tiling/attribute_cache.h"

#define TSR_STATS_MAX_CACHES (3 + 2 * TSR_MAX_CORES)

struct tsr_geometry_stats {
	uint64_t draws;
	uint64_t indices_fetched;
	uint64_t vertices_fetched;     /* post-transform cache misses: vertices fetched and shaded */
	uint64_t primitives_in;        /* triangles assembled */
	uint64_t primitives_culled;    /* back-face, zero-area or outside the frustum */
	uint64_t primitives_clipped;   /* triangles that crossed the near plane or guard band */
	uint64_t primitives_binned;    /* primitives sent to the Polygon List Builder that overlap a tile */
};

struct tsr_tiling_stats {
	uint64_t tiles;
	uint64_t pmds_written;
	uint64_t pmds_read;            /* by the Tile Fetcher */
	uint64_t pb_lists_bytes;       /* PMD bytes written */
	uint64_t pb_attributes_bytes;  /* attribute bytes written */
	uint64_t list_overflows;       /* overflow chunks allocated for full tile lists */
	uint64_t empty_tiles;          /* tiles with no primitive */
};

struct tsr_raster_stats {
	uint64_t quads_rasterized;     /* quads with at least one covered pixel */
	uint64_t quads_early_z_killed;
	uint64_t quads_late_z_killed;  /* alpha-tested quads whose pixels all failed */
	uint64_t quads_shaded;
	uint64_t fragments_shaded;     /* covered pixels shaded (helper lanes excluded) */
	uint64_t fragments_discarded;  /* alpha test */
	uint64_t pixels_written;       /* color buffer writes after blending */
	uint64_t quads_per_core[TSR_MAX_CORES];
	uint64_t instructions_fetched; /* instruction-cache accesses */
};

struct tsr_texture_stats {
	uint64_t sample_instructions;  /* one per textured quad per sample */
	uint64_t texel_fetches;        /* texels read by all lanes */
	uint64_t line_requests;        /* coalesced line requests to the L1 texture caches */
};

struct tsr_frame_stats {
	uint32_t frame;
	struct tsr_geometry_stats geometry;
	struct tsr_tiling_stats tiling;
	struct tsr_raster_stats raster;
	struct tsr_texture_stats texture;
	uint32_t cache_count;
	struct tsr_cache_counters caches[TSR_STATS_MAX_CACHES][TSR_STREAM_COUNT];
	struct tsr_dram_counters dram[TSR_STREAM_COUNT];
	uint64_t memory_accesses;      /* accesses served by all caches */
	struct tsr_ac_counters attribute_cache;  /* TCOR Attribute Cache (zero when off) */
};

/* a += b, counter by counter. */
void tsr_frame_stats_add(struct tsr_frame_stats *a, const struct tsr_frame_stats *b);

/* Snapshot of the hierarchy's cumulative counters into s. */
void tsr_frame_stats_snapshot_memory(struct tsr_frame_stats *s,
				     const struct tsr_memsys *m);

/* s = s - base, for the memory counters only (per-frame deltas). */
void tsr_frame_stats_sub_memory(struct tsr_frame_stats *s,
				const struct tsr_frame_stats *base);

/*
 * Sets s's Attribute Cache counters to now - base (the cache's cumulative
 * counters at the end and at the start of the frame).
 */
void tsr_frame_stats_set_attribute_cache(struct tsr_frame_stats *s,
					 const struct tsr_ac_counters *now,
					 const struct tsr_ac_counters *base);

#endif
