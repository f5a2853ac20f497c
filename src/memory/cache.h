/*
 * cache.h - a set-associative, write-back, write-allocate cache with
 * per-stream counters and a pluggable replacement policy.
 *
 * Models the L1 caches (vertex, Tile Cache, texture, instruction) and the
 * shared L2 of the baseline GPU (TCOR Section II-D and Table I, DTexL
 * Section II-D and Table II). The cache holds tags only: data lives in the
 * functional model. Each access carries its stream (core/stream.h); every
 * counter is kept per stream so that "all" is their sum.
 *
 * The cache itself does no forwarding: tsr_cache_access() reports a miss,
 * whether the missing line must be fetched, and the dirty victim (if any)
 * to write back; memory/memsys.h wires levels together.
 *
 * Write-back by default; with write_through set, lines never become dirty
 * and memory/memsys.h forwards every write to the next level.
 *
 * Write misses (TCOR Fig. 10: a Parameter Buffer write miss causes a
 * write-back or a bypass, never a read). With fetch_on_write = 0 (the
 * default) a write miss allocates the line without reading it and the line
 * keeps a byte mask of what was written: a read of written bytes hits, a
 * read of bytes never written into a partly written line fetches the line
 * from the next level and merges it (a "merge", counted as a read miss
 * too), and a partly written dirty line is written back as its written
 * byte runs (tsr_cache_written_runs()). The mask has 64 granules: a byte
 * for 64-byte lines, line_bytes / 64 bytes for longer lines; a write that
 * covers a granule only in part is treated as with fetch_on_write = 1.
 * With fetch_on_write = 1 a write miss smaller than a line reads the line
 * first (write-allocate with fetch). A full-line write never fetches.
 * A fill makes the line wholly valid (the next level checks only the bytes
 * of the access that missed, which the fill request carries).
 *
 * Inter-stream reuse (GSPC 2.3): each line keeps the paper's RT bit, set
 * when a render_target or display access fills the line or touches it
 * (counter rt_lines on that stream) and cleared by a texture access or an
 * eviction; a texture read that hits a line with the bit set is a
 * render-target consumption (counter rt_consumed on the texture stream).
 * One byte per line beside the tag store, touched only once the cache has
 * seen a render-target access (bench_replay on a TBR L2 trace: within 3%
 * of the replay speed before, best of 6 runs on a shared machine).
 *
 * Left out: timing (latency is recorded, not simulated yet), MSHRs, banks.
 */
#ifndef TSR_MEMORY_CACHE_H
#define TSR_MEMORY_CACHE_H

#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/status.h"
#include "core/stream.h"
#include "stats/counters.h"

/* Longest policy spec (name plus parameters), including the final NUL. */
#define TSR_POLICY_SPEC_MAX 64

/* next_use of an access whose line is not used again, or when unknown. */
#define TSR_NEVER UINT64_MAX

/* Boundaries the pipeline announces to caches, policies and trace recorders. */
enum tsr_marker {
	TSR_MARKER_FRAME = 1,  /* a frame starts; value = frame number */
	TSR_MARKER_TILE = 2,   /* a tile starts rendering; value = tile id (row-major) */
};

/* Geometry and policy of one cache; plain data filled by the config loader. */
struct tsr_cache_geometry {
	uint32_t size_bytes;      /* capacity in bytes */
	uint32_t ways;            /* associativity; equal to size/line for fully associative */
	uint32_t line_bytes;      /* line size in bytes (power of two) */
	uint32_t latency_cycles;  /* hit latency in cycles (recorded for the timing model) */
	uint32_t fetch_on_write;  /* 1: a partial-line write miss reads the line from the
				     next level; 0: byte-masked write-allocate, no read */
	uint32_t write_through;   /* 1: lines never become dirty (the hierarchy forwards every
				     write to the next level); 0: write-back */
	char policy[TSR_POLICY_SPEC_MAX]; /* policy spec "name[:key=value,...]" (memory/policy.h) */
	uint64_t seed;            /* seed of randomised policies (0: the policy's default) */
};

/* One memory access as every level sees it. */
struct tsr_access {
	uint64_t addr;        /* byte address */
	uint32_t size;        /* bytes; must not cross a line boundary at cache level */
	uint8_t write;        /* 1 for a write */
	uint8_t stream;       /* enum tsr_stream */
	uint16_t requester;   /* unit that issued it (e.g. shader core number) */
	uint32_t meta;        /* per-line metadata an upper level attaches (policies) */
	uint64_t next_use;    /* position of the next access to this line in the
				 cache's input stream, TSR_NEVER if none or unknown
				 (filled by trace replay for OPT and OPTPT) */
};

/* Tag-store entry of one line, visible to replacement policies. */
struct tsr_line {
	uint64_t tag;         /* line address (byte address / line size) */
	uint32_t meta;        /* metadata from the last access that touched it */
	uint8_t valid;
	uint8_t dirty;
	uint8_t stream;       /* stream of the access that filled the line */
	uint8_t partial;      /* 1: only the bytes of the line's write mask are valid
				 (fetch_on_write = 0 caches) */
};

/* Counters of one stream at one cache (or of all streams): struct tsr_cache_counters,
 * declared in stats/counters.h (TSR_CACHE_COUNTERS). */

/* Adds every counter of b to a. */
void tsr_cache_counters_add(struct tsr_cache_counters *a, const struct tsr_cache_counters *b);

/* What one access did. */
struct tsr_cache_outcome {
	uint32_t way;           /* way hit or filled; TSR_POLICY_BYPASS if bypassed */
	uint8_t evicted;        /* 1: a valid line (victim_addr) was replaced */
	uint8_t hit;
	uint8_t fetch;          /* 1: the line must be read from the next level */
	uint8_t merge;          /* 1: the fetch completes a partly written line
				   (the line was present: nothing was evicted) */
	uint8_t writeback;      /* 1: victim_addr must be written to the next level */
	uint8_t bypass;         /* 1: the line was not allocated */
	uint8_t victim_stream;  /* stream of the replaced line */
	uint32_t victim_meta;   /* upper-level metadata of the replaced line */
	uint64_t victim_mask;   /* written granules of a partly written victim; 0: the
				   victim was wholly valid */
	uint64_t victim_addr;   /* byte address of the replaced line */
};

/*
 * An observer sees every access a cache receives, before the lookup, and
 * every marker (used to record traces, trace/trace.h). Hot path: one
 * branch per access when none is set.
 */
struct tsr_cache_observer {
	void (*access)(void *ctx, const struct tsr_access *a);
	void (*marker)(void *ctx, enum tsr_marker kind, uint64_t value);
	void *ctx;
};

struct tsr_cache;

/*
 * Checks a geometry: sizes non-zero, line a power of two, size a multiple
 * of ways x line, a power-of-two number of sets, a known policy whose
 * parameters are valid. `name` is the config key path used in the
 * message. Errors: TSR_ERR_GEOMETRY, TSR_ERR_CONFIG (unknown policy or
 * parameter), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_cache_geometry_check(const struct tsr_cache_geometry *g,
					 const char *name,
					 struct tsr_error *err);

/*
 * Creates an empty cache. Allocates sets x ways lines once; accesses
 * allocate nothing. Errors: those of tsr_cache_geometry_check(),
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_cache_create(const struct tsr_cache_geometry *g,
				 const char *name, struct tsr_cache **out,
				 struct tsr_error *err);

void tsr_cache_destroy(struct tsr_cache *c);

/*
 * Looks up one line-contained access, updates replacement state and
 * counters, allocates on a miss (write-allocate) unless the policy
 * bypasses, and reports what the next level must do. Hot path: no
 * allocation.
 */
void tsr_cache_access(struct tsr_cache *c, const struct tsr_access *a,
		      struct tsr_cache_outcome *out);

/*
 * tsr_cache_access(), for the memory system's node_access(), split by the
 * cache's fast.simple: _simple, a copy of the access specialised for a
 * cache with fast.simple set (plain LRU), inlined where it is called
 * (always_inline under link-time optimisation: no call, no outcome through
 * memory); _general, any cache. absent = 1: the line's
 * tsr_cache_fast_lookup() has just answered TSR_CACHE_ABSENT (nothing
 * done to the cache since), and the same effects and outcome follow
 * without a second lookup.
 */
void tsr_cache_access_simple(struct tsr_cache *c, const struct tsr_access *a,
			     struct tsr_cache_outcome *out, int absent);
void tsr_cache_access_general(struct tsr_cache *c, const struct tsr_access *a,
			      struct tsr_cache_outcome *out, int absent);

/*
 * The common case of tsr_cache_access, for the memory system's hot path:
 * when the line at addr is present and wholly valid, and the access needs
 * nothing else (no observer, no render-target bookkeeping, an inline
 * recency policy, a narrow cache), does exactly what tsr_cache_access does
 * for that hit and returns 1; otherwise changes nothing and returns 0.
 */
int tsr_cache_fast_hit(struct tsr_cache *c, uint64_t addr, int write, uint8_t stream,
		       uint32_t meta);

/*
 * What tsr_cache_fast_hit reads and writes, kept by cache.c, so that the
 * memory system's hot path runs it inline (tsr_cache_fast_hit_inline).
 * tagv holds each way's tag contiguously (8 bytes a way, the scan's only
 * load): a valid way's tag, TSR_CACHE_NO_TAG for an invalid way (a tag
 * equal to TSR_CACHE_NO_TAG, possible only with one-byte lines, is
 * declined and looked up by tsr_cache_access through struct tsr_line).
 */
#define TSR_CACHE_NO_TAG UINT64_MAX
struct tsr_cache_fast {
	uint32_t fast_off;            /* bit `stream` set: decline (see cache.c) */
	uint32_t line_shift;
	uint32_t set_mask;            /* sets - 1 */
	uint32_t ways;
	const uint64_t *tagv;         /* sets x ways */
	struct tsr_line *lines;       /* sets x ways */
	uint32_t *hint;               /* per set: the way last hit or filled (a search hint) */
	uint64_t *stamp;              /* the inline recency policy's stamps, sets x ways */
	uint64_t *clock;              /* its clock */
	struct tsr_cache_counters *counters;  /* per stream */
	uint8_t dirty_on_write;
	uint8_t has_masks;            /* lines may be partial (fetch_on_write = 0) */
	/* 1: every access can take the cache's plain path (cache.c): the
	 * policy's hit, fill and victim hooks are the inline recency ones
	 * (LRU), no on_evict hook, no observer, no hash index, no +ucd */
	uint8_t simple;
	/* lines filled or invalidated so far (any way's tag changed): while
	 * it stays the same, a line found at a way is still there */
	uint64_t fills;
};

/* The cache's fast-hit view (stable for the cache's lifetime). */
struct tsr_cache_fast *tsr_cache_fast_view(struct tsr_cache *c);

/*
 * The first of the `ways` tags tv[] equal to tag, or `ways` if none: two
 * ways a compare with SSE2 (where the host has it), else one by one.
 */
static inline uint32_t tsr_cache_tag_find(const uint64_t *tv, uint32_t ways, uint64_t tag)
{
	uint32_t w = 0;
#ifdef __SSE2__
	const __m128i t = _mm_set1_epi64x((long long)tag);
	for (; w + 4 <= ways; w += 4) {
		/* a 64-bit lane matches when both of its 32-bit halves do */
		__m128i a = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(tv + w)), t);
		__m128i b = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(tv + w + 2)), t);
		a = _mm_and_si128(a, _mm_shuffle_epi32(a, 0xb1));
		b = _mm_and_si128(b, _mm_shuffle_epi32(b, 0xb1));
		const int hit = _mm_movemask_pd(_mm_castsi128_pd(a)) |
				_mm_movemask_pd(_mm_castsi128_pd(b)) << 2;
		if (hit)
			return w + (uint32_t)__builtin_ctz((unsigned)hit);
	}
#endif
	while (w < ways && tv[w] != tag)
		w++;
	return w;
}

/* tsr_cache_fast_lookup's answers besides a hit (1). */
#define TSR_CACHE_DECLINED 0  /* not looked up, or present but partly written */
#define TSR_CACHE_ABSENT (-1) /* looked up: the line is not in the cache */

/*
 * tsr_cache_fast_hit, inline, telling why it declined: 1 after the very
 * same effects as a plain hit; TSR_CACHE_ABSENT when the line is not in
 * the cache (nothing changed: tsr_cache_access_simple() and _general()
 * may then skip the lookup); TSR_CACHE_DECLINED otherwise (nothing
 * changed).
 */
static inline int tsr_cache_fast_lookup(struct tsr_cache_fast *f, uint64_t addr, int write,
					uint8_t stream, uint32_t meta)
{
	if (stream >= 32 || (f->fast_off >> stream & 1))
		return TSR_CACHE_DECLINED;
	const uint64_t tag = addr >> f->line_shift;
	if (tag == TSR_CACHE_NO_TAG)
		return TSR_CACHE_DECLINED;
	const uint32_t set = (uint32_t)tag & f->set_mask;
	const size_t base = (size_t)set * f->ways;
	const uint64_t *tv = &f->tagv[base];
	uint32_t w = f->hint[set];  /* mostly right: a predictable branch */
	if (tv[w] != tag) {
		w = tsr_cache_tag_find(tv, f->ways, tag);
		if (w == f->ways)
			return TSR_CACHE_ABSENT;
		f->hint[set] = w;
	}
	struct tsr_line *l = &f->lines[base + w];
	if (f->has_masks && l->partial)
		return TSR_CACHE_DECLINED;
	struct tsr_cache_counters *cnt = &f->counters[stream];
	if (write)
		cnt->writes++;
	else
		cnt->reads++;
	f->stamp[base + w] = ++*f->clock;
	if (write && f->dirty_on_write)
		l->dirty = 1;
	l->meta = meta;
	return 1;
}

/* tsr_cache_fast_hit, inline: the very same effects and result. */
static inline int tsr_cache_fast_hit_inline(struct tsr_cache_fast *f, uint64_t addr, int write,
					    uint8_t stream, uint32_t meta)
{
	return tsr_cache_fast_lookup(f, addr, write, stream, meta) > 0;
}

/* Prefetches (host caches) the tags, recency stamps and lines of addr's set. */
static inline void tsr_cache_prefetch(const struct tsr_cache_fast *f, uint64_t addr)
{
	const size_t base = (size_t)((uint32_t)(addr >> f->line_shift) & f->set_mask) * f->ways;
	__builtin_prefetch(&f->tagv[base]);
	if (f->stamp)
		__builtin_prefetch(&f->stamp[base]);
	/* the set's lines: a miss reads its victim's, a hit writes its own */
	__builtin_prefetch(&f->lines[base]);
	__builtin_prefetch(&f->lines[base + f->ways - 1]);
}

/*
 * Announces a frame or tile boundary to the cache's policy (on_marker) and
 * observer. Does not change the cache's contents or counters.
 */
void tsr_cache_marker(struct tsr_cache *c, enum tsr_marker kind, uint64_t value);

/* Sets (or with NULL removes) the observer; the struct is copied. */
void tsr_cache_set_observer(struct tsr_cache *c, const struct tsr_cache_observer *o);

/* Invalidates every line without write-back (e.g. between experiments). */
void tsr_cache_invalidate_all(struct tsr_cache *c);

/*
 * The replacement rank the policy gives way `way` of the set of byte
 * address addr (policy.h's version 2 hook: for the RRIP family, the
 * line's RRPV), e.g. just after a fill (tsr_cache_outcome.way), as GSPC
 * Fig. 8 counts DRRIP's insertions at RRPV 3. UINT64_MAX when the policy
 * has no rank hook or way is out of range.
 */
uint64_t tsr_cache_rank(const struct tsr_cache *c, uint64_t addr, uint32_t way);

const char *tsr_cache_name(const struct tsr_cache *c);
const struct tsr_cache_geometry *tsr_cache_geometry_of(const struct tsr_cache *c);
uint32_t tsr_cache_sets(const struct tsr_cache *c);

/*
 * The byte runs of a write mask (struct tsr_cache_outcome.victim_mask of a
 * partly written victim): fills offs[i], sizes[i] (bytes from the line's
 * start, in address order) and returns their number (at most 32). Used to
 * write a partly written line back as byte-masked writes.
 */
uint32_t tsr_cache_mask_runs(const struct tsr_cache *c, uint64_t mask,
			     uint32_t offs[32], uint32_t sizes[32]);

/* Counters of one stream (s < TSR_STREAM_COUNT) since creation. */
const struct tsr_cache_counters *tsr_cache_counters_of(const struct tsr_cache *c,
						       enum tsr_stream s);

/* Sum of the counters of all streams. */
struct tsr_cache_counters tsr_cache_counters_total(const struct tsr_cache *c);

#endif
