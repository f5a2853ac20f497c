/*
 * analysis.h - offline analyses of a line trace (cachesim/linetrace.h):
 * the measurements behind the papers' motivation figures, computed from
 * a recorded cache input stream.
 *
 *   reuse      reuse and stack (LRU) distance histograms per set
 *              (boustrophedonic III-D, Fig. 6 and 7);
 *   frames     new / intra-frame / inter-frame reuse (III-A: 1% / 55% /
 *              44%) and the inter-iteration reuse distance between
 *              consecutive frames, last-first and last-last, with its
 *              bounds (s-1)/2 and s-1 (III-D, Fig. 5);
 *   tile-sets  accesses per cache set per tile (III-E, Fig. 8);
 *   epochs     GSPC Section 2.3: hits from epochs E0, E1, E2, E>=3, the
 *              death ratio of each epoch and render-target to texture
 *              consumption, for one cache geometry and policy.
 *
 * Every function is a pure computation: it reads the trace, allocates its
 * working memory once (nothing per access), fills a plain-data result and
 * prints nothing. Distances use a Fenwick tree over per-set positions
 * (Bennett and Kruskal, 1975), so each analysis is O(N log N) in time and
 * O(N + distinct lines + sets) in space.
 *
 * A set of a line is (line address) mod sets, the cache's own mapping
 * (low bits of the line address) when sets is a power of two; sets = 1
 * is a fully associative cache.
 *
 * Left out: per-access outputs other than tsr_stack_distances(), and
 * analyses of several caches at once (run one per recorded cache).
 */
#ifndef TSR_ANALYSIS_ANALYSIS_H
#define TSR_ANALYSIS_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "cachesim/linetrace.h"
#include "core/status.h"
#include "core/stream.h"
#include "memory/cache.h"

/* A params.stream value: analyse every stream. */
#define TSR_ANALYSIS_ALL_STREAMS TSR_STREAM_COUNT

/* Most sets an analysis takes. */
#define TSR_ANALYSIS_MAX_SETS (1u << 24)

/* ---- reuse and stack distances ---- */

/*
 * Distance bins: bin 0 holds distance 0, bin 1 distance 1, bin k (k >= 1)
 * the distances 2^(k-1) .. 2^k - 1, and the last bin everything from
 * 2^24 up. First accesses to a line (cold) are counted apart.
 */
#define TSR_REUSE_BINS 26

/* Bin of distance d. */
uint32_t tsr_reuse_bin(uint64_t d);
/* Smallest distance of bin b. */
uint64_t tsr_reuse_bin_low(uint32_t b);
/* Largest distance of bin b; UINT64_MAX for the last bin. */
uint64_t tsr_reuse_bin_high(uint32_t b);

struct tsr_reuse_params {
	uint32_t sets;    /* >= 1; 1 = fully associative */
	uint32_t ways;    /* 0, or the ways of an LRU cache whose hits to count (lru_hits) */
	uint32_t stream;  /* enum tsr_stream to keep only that stream's accesses,
			     or TSR_ANALYSIS_ALL_STREAMS */
};

struct tsr_distance_hist {
	uint64_t bins[TSR_REUSE_BINS];
	uint64_t cold;    /* first accesses to their line */
};

/* The histograms of one stream (or of all). */
struct tsr_reuse_stats {
	uint64_t accesses;
	/* accesses to the same set between an access and the previous access to its line */
	struct tsr_distance_hist reuse;
	/* distinct lines of the set accessed in between: the LRU stack depth */
	struct tsr_distance_hist stack;
	/*
	 * Accesses whose stack distance is below params.ways: exactly the hits
	 * of an LRU cache with `sets` sets of `ways` ways (0 if ways is 0).
	 */
	uint64_t lru_hits;
};

struct tsr_reuse_result {
	uint32_t sets;
	uint32_t ways;
	uint64_t distinct_lines;  /* lines the analysed accesses touch */
	struct tsr_reuse_stats total;
	struct tsr_reuse_stats streams[TSR_STREAM_COUNT];  /* by the access's stream */
};

/*
 * Reuse and stack distance histograms of lt's accesses, per set, overall
 * and per stream. A distance is measured within the analysed accesses
 * (after the stream filter). Errors: TSR_ERR_CONFIG (sets 0 or above
 * TSR_ANALYSIS_MAX_SETS, unknown stream), TSR_ERR_LIMIT (2^32 - 1
 * accesses or more), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_reuse_analyze(const struct tsr_line_trace *lt,
				  const struct tsr_reuse_params *p,
				  struct tsr_reuse_result *out, struct tsr_error *err);

/*
 * Per-access distances for `sets` sets: stack[i] and reuse[i] (either may
 * be NULL; lt->count entries each) receive the stack and reuse distance of
 * access i, TSR_NEVER for a first access. An LRU cache with W ways hits
 * access i exactly when stack[i] < W. Errors: as tsr_reuse_analyze().
 */
enum tsr_status tsr_stack_distances(const struct tsr_line_trace *lt, uint32_t sets,
				    uint64_t *stack, uint64_t *reuse,
				    struct tsr_error *err);

/* ---- frames: intra / inter-frame reuse and IIRD ---- */

struct tsr_frames_params {
	uint32_t sets;    /* sets of the IIRD (>= 1; 1 = fully associative) */
	uint32_t stream;  /* as in tsr_reuse_params */
};

/* How the accesses of a frame (or stream) reuse lines. */
struct tsr_frame_reuse {
	uint64_t accesses;
	uint64_t new_lines;  /* the line was never accessed before */
	uint64_t intra;      /* its previous access is in the same frame */
	uint64_t inter;      /* its previous access is in an earlier frame */
};

/*
 * Inter-iteration reuse distances (boustrophedonic III-D) between frames f
 * and f+1, per set, or their sum over all pairs of frames. L_f is the
 * sub-trace of the last access to each line in frame f, F_f that of the
 * first accesses. A line of both frames is a reuse; its last-first IIRD is
 * the number of distinct lines between its two occurrences in
 * L_f ++ F_{f+1}, its last-last IIRD the same in L_f ++ reverse(L_{f+1})
 * (the order frame f+1 would have if it ran reversed), both within the
 * line's set. For a circular trace last-first = max = s - 1; when frame
 * f+1 is frame f reversed, last-first = min = (s - 1) / 2.
 */
struct tsr_iird {
	uint64_t reuses;          /* lines (per set) present in both frames */
	uint64_t insertions;      /* lines of f+1 absent from f */
	uint64_t deletions;       /* lines of f absent from f+1 */
	uint64_t sum_last_first;  /* sums over the reuses */
	uint64_t sum_last_last;
	uint64_t sum_max;         /* sum of s_set - 1, s_set = distinct lines of the
				     reuse's set in frame f */
	/* averages over the reuses (0 when there are none); min = max / 2 */
	double last_first;
	double last_last;
	double max;
	double min;
};

struct tsr_frames_result {
	uint32_t sets;
	/*
	 * Frames: a frame marker starts a frame; accesses before the first
	 * marker form frame 0 (when there are any); markers with no access
	 * after them open no frame. Two markers at one position make an empty
	 * frame.
	 */
	size_t frame_count;
	struct tsr_frame_reuse *frames;  /* [frame_count] */
	struct tsr_iird *pairs;          /* [frame_count - 1]; pairs[f]: frames f and f+1 */
	struct tsr_frame_reuse total;
	struct tsr_frame_reuse streams[TSR_STREAM_COUNT];
	struct tsr_iird iird;            /* summed over all pairs, with averages */
};

/*
 * Classifies every access as new, intra- or inter-frame reuse (overall,
 * per frame, per stream) and measures the IIRD of every pair of
 * consecutive frames. Release the result with tsr_frames_result_release().
 * Errors: as tsr_reuse_analyze().
 */
enum tsr_status tsr_frames_analyze(const struct tsr_line_trace *lt,
				   const struct tsr_frames_params *p,
				   struct tsr_frames_result *out, struct tsr_error *err);

void tsr_frames_result_release(struct tsr_frames_result *r);

/* ---- accesses per set per tile ---- */

/* Histogram bins: 1, 2, ..., 15 accesses, and 16 or more. */
#define TSR_TILE_SET_BINS 16

struct tsr_tile_sets_params {
	uint32_t sets;    /* >= 1 */
	uint32_t stream;  /* as in tsr_reuse_params (Fig. 8 counts texture accesses) */
};

struct tsr_tile_sets_result {
	uint32_t sets;
	/*
	 * A tile marker starts a tile; the next tile marker or a frame marker
	 * ends it. Accesses after a frame marker and before the frame's first
	 * tile (geometry work) are in no tile.
	 */
	uint64_t tiles;      /* tile markers */
	uint64_t accesses;   /* analysed accesses inside tiles */
	uint64_t outside;    /* analysed accesses in no tile */
	uint64_t pairs;      /* (tile, set) pairs with at least one access */
	uint64_t hist[TSR_TILE_SET_BINS];  /* hist[k]: pairs with k + 1 accesses
					      (hist[15]: 16 or more) */
	double multi_fraction;  /* pairs with more than one access / pairs */
};

/*
 * Counts the accesses each set receives in each tile and histograms the
 * non-zero counts (boustrophedonic Fig. 8). Errors: as
 * tsr_reuse_analyze().
 */
enum tsr_status tsr_tile_sets_analyze(const struct tsr_line_trace *lt,
				      const struct tsr_tile_sets_params *p,
				      struct tsr_tile_sets_result *out,
				      struct tsr_error *err);

/* ---- GSPC epochs ---- */

/* Epoch bins: E0, E1, E2 and E>=3. */
#define TSR_EPOCHS 4

/*
 * Epochs of the blocks of one stream (GSPC 2.3). A block belongs to the
 * stream of the access that filled it; a texture hit on a color or
 * render_target block is an inter-stream reuse (render target consumed by
 * the texture sampler): the block leaves its stream there and enters E0 of
 * texture. Every other hit on a block in E_k is a hit from E_k of the
 * block's stream and moves it to E_k+1.
 */
struct tsr_epoch_stats {
	uint64_t fills;        /* blocks filled: they enter E0 */
	uint64_t converted;    /* texture: blocks that entered E0 by consumption */
	uint64_t consumed;     /* color, render_target: blocks consumed by texture */
	uint64_t hits[TSR_EPOCHS];     /* hits from E0, E1, E2, E>=3 */
	uint64_t entered[TSR_EPOCHS];  /* |E0|, |E1|, |E2|, |E3|: blocks that ever entered */
	uint64_t resident[TSR_EPOCHS]; /* blocks still cached at the end, by epoch */
	/*
	 * Death ratio (|E_k| - |E_k+1|) / |E_k| of E0, E1, E2 (0 when |E_k| is
	 * 0). Blocks still cached at the end count as died in their epoch, and
	 * a consumed render-target block as died in its render-target epoch.
	 */
	double death[TSR_EPOCHS - 1];
};

struct tsr_epoch_result {
	char policy[TSR_POLICY_SPEC_MAX];
	uint32_t sets;
	uint32_t ways;
	/* the cache's own counters, by the access's stream */
	struct tsr_cache_counters counters[TSR_STREAM_COUNT];
	struct tsr_cache_counters counters_total;
	uint64_t inter_stream_hits;  /* color / render_target -> texture consumptions */
	uint64_t cross_stream_hits;  /* other hits by a stream other than the block's
				        (counted in the block's stream) */
	struct tsr_epoch_stats streams[TSR_STREAM_COUNT];  /* by the block's stream */
	struct tsr_epoch_stats total;  /* sums; a converted block counts in both streams */
};

/*
 * Replays lt through one cache of geometry g (its policy spec included;
 * offline policies such as "opt" work, the trace carries next uses) and
 * tracks the epoch of every cached block. Total hits = sum of hits[] over
 * streams + inter_stream_hits. Errors: TSR_ERR_GEOMETRY / TSR_ERR_CONFIG
 * (bad geometry or policy, line size other than the trace's),
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_epochs_analyze(const struct tsr_line_trace *lt,
				   const struct tsr_cache_geometry *g,
				   struct tsr_epoch_result *out, struct tsr_error *err);

#endif
