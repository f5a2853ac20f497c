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
#include "techniques/signature_unit.h"
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

/*
 * Rendering Elimination (RE III, V: Fig. 14) and Transaction Elimination
 * (RE IV-C). Tiles are classified against the frame two back, whose colors
 * the back buffer holds, from the third frame the GPU renders on; the
 * classification needs RE's signatures, so it is counted only with
 * elimination.rendering on.
 */
struct tsr_elimination_stats {
	uint64_t re_frames;              /* frames in which RE was on (not refresh, upload, warm-up) */
	uint64_t tiles_compared;         /* tiles classified (below) */
	uint64_t tiles_equal_inputs;     /* signature equal to the frame two back */
	uint64_t tiles_skipped;          /* equal inputs in an RE frame: not rendered */
	uint64_t false_negatives;        /* inputs differ, rendered colors equal the back buffer's */
	uint64_t tiles_changed;          /* inputs differ and colors differ */
	uint64_t stale_inputs;           /* equal inputs, rendered with RE off, colors differ
					    (what RE would have got wrong: texture uploads) */
	uint64_t tiles_verified;         /* skipped tiles rendered anyway (elimination.verify) */
	uint64_t false_positives;        /* verified skipped tiles whose colors differ: must be 0 */
	uint64_t pb_bytes_removed;       /* PMD and attribute bytes the Tile Fetcher did not read */
	uint64_t texture_requests_removed; /* L1 texture line requests of skipped tiles (verify) */
	uint64_t instructions_removed;   /* instruction fetches of skipped tiles (verify) */
	uint64_t fragments_removed;      /* fragments skipped tiles would have shaded (verify) */
	uint64_t te_tiles_signed;        /* color buffers signed at flush (TE) */
	uint64_t te_subblocks_signed;    /* 64-bit subblocks of color signed */
	uint64_t te_flushes_removed;     /* flushes skipped: color signature equal */
	uint64_t te_false_positives;     /* of those, flushes whose colors differed: must be 0 */
	uint64_t color_bytes_removed;    /* DRAM bytes of the color flushes RE and TE removed */
	struct tsr_su_counters su;       /* Signature Unit work (ot_max: a maximum) */
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
	struct tsr_elimination_stats elim;       /* RE and TE (zero when off) */
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
