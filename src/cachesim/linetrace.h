/*
 * linetrace.h - a trace prepared for replay through caches of one line
 * size: accesses split so that none crosses a line, each carrying the
 * position of the next access to the same line (the "next use" that
 * Belady's OPT and McFarling's OPTPT need, boustrophedonic II-D), plus
 * the frame and tile markers at their positions.
 *
 * Next uses are computed in one backward pass with a hash map from line
 * to its last position (O(N) expected time, O(distinct lines) space), so
 * no policy ever scans the future.
 */
#ifndef TSR_CACHESIM_LINETRACE_H
#define TSR_CACHESIM_LINETRACE_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "memory/cache.h"
#include "trace/trace.h"

/* A marker and the index of the first access after it. */
struct tsr_line_marker {
	size_t pos;          /* index into accesses[] of the next access */
	uint64_t value;      /* frame number or tile id */
	uint8_t kind;        /* enum tsr_marker */
};

/* next_use of an access whose line is not accessed again (or not computed) */
#define TSR_LINE_NEVER UINT32_MAX
/* the most line accesses a line trace holds (positions fit next_use) */
#define TSR_LINE_TRACE_MAX ((size_t)UINT32_MAX - 1)

/* tsr_line_access.flags */
enum {
	TSR_LINE_WRITE = 1,  /* a write */
	TSR_LINE_META = 2    /* its meta is the next entry of the trace's metas[] */
};

/*
 * One line-contained access, 16 bytes: what struct tsr_access carries
 * that a replay or an analysis reads (the requester is not kept; a meta,
 * which most accesses lack, sits in the trace's metas[] array, in access
 * order, for the accesses flagged TSR_LINE_META).
 */
struct tsr_line_access {
	uint64_t addr;       /* byte address */
	uint32_t next_use;   /* index of the next access to the same line, or
				TSR_LINE_NEVER */
	uint16_t size_m1;    /* bytes - 1 (a size of 0 is taken as 1) */
	uint8_t stream;      /* enum tsr_stream */
	uint8_t flags;       /* TSR_LINE_WRITE, TSR_LINE_META */
};

/* Plain data, built by tsr_line_trace_build(). */
struct tsr_line_trace {
	struct tsr_line_access *accesses;  /* line-contained, in order */
	size_t count;
	uint32_t *metas;              /* the meta of each access flagged TSR_LINE_META,
					 in access order */
	size_t meta_count;
	struct tsr_line_marker *markers;
	size_t marker_count;
	size_t frames;                /* frame markers */
	uint32_t line_bytes;
	uint32_t line_shift;          /* log2(line_bytes) */
	uint64_t distinct_lines;      /* lines touched */
	int no_next_uses;             /* 1: next uses not computed (tsr_line_trace_load()
					 without them): every next_use is TSR_LINE_NEVER
					 until tsr_line_trace_index() */
};

/* The flags of a line access that writes (write != 0) and carries meta (0: none). */
static inline uint8_t tsr_line_flags(int write, uint32_t meta)
{
	return (uint8_t)((write ? TSR_LINE_WRITE : 0) | (meta ? TSR_LINE_META : 0));
}

/* The line access of a (line-contained, size at most 65536 bytes), next use none. */
static inline struct tsr_line_access tsr_line_access_of(const struct tsr_access *a)
{
	return (struct tsr_line_access){
		.addr = a->addr,
		.next_use = TSR_LINE_NEVER,
		.size_m1 = (uint16_t)((a->size ? a->size : 1) - 1),
		.stream = a->stream,
		.flags = tsr_line_flags(a->write, a->meta)};
}

/*
 * The struct tsr_access of a line access (requester 0); *meta_at is the
 * index in metas[] of the next flagged access's meta, advanced past
 * this one's.
 */
static inline struct tsr_access tsr_line_access_full(const struct tsr_line_access *a,
						     const uint32_t *metas, size_t *meta_at)
{
	uint32_t meta = 0;
	if (a->flags & TSR_LINE_META)
		meta = metas[(*meta_at)++];
	return (struct tsr_access){.addr = a->addr,
				   .size = (uint32_t)a->size_m1 + 1,
				   .write = (uint8_t)(a->flags & TSR_LINE_WRITE),
				   .stream = a->stream,
				   .meta = meta,
				   .next_use = a->next_use == TSR_LINE_NEVER ? TSR_NEVER
									 : a->next_use};
}

/*
 * Checks a line size (a power of two, 4..65536 bytes) and sets *shift to
 * its log2. Errors: TSR_ERR_CONFIG naming the size.
 */
enum tsr_status tsr_line_size_check(uint32_t line_bytes, uint32_t *shift, struct tsr_error *err);

/*
 * Splits t's accesses into line_bytes lines (a power of two, 4..65536)
 * and computes next uses. Errors: TSR_ERR_CONFIG (bad line size),
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_line_trace_build(const struct tsr_trace *t, uint32_t line_bytes,
				     struct tsr_line_trace *out,
				     struct tsr_error *err);

/*
 * Builds a line trace straight from line-contained accesses (tests and
 * generated traces: loops, random sequences), copying them and computing
 * next uses; markers none. Errors: as tsr_line_trace_build(), and
 * TSR_ERR_LIMIT over TSR_LINE_TRACE_MAX accesses.
 */
enum tsr_status tsr_line_trace_from_accesses(const struct tsr_access *acc, size_t n,
					     uint32_t line_bytes,
					     struct tsr_line_trace *out,
					     struct tsr_error *err);

/*
 * Computes next uses and distinct_lines in place for a line trace the
 * caller assembled (accesses line-contained, markers in position order,
 * line_bytes and line_shift set): e.g. a cache's input recorded in memory
 * by an observer, without the copy of tsr_line_trace_from_accesses().
 * Errors: TSR_ERR_NOMEM, after which lt is released.
 */
enum tsr_status tsr_line_trace_index(struct tsr_line_trace *lt, struct tsr_error *err);

/*
 * Appends one line-contained access (next use none) to lt, growing its
 * arrays: *cap and *meta_cap are their capacities (0 for arrays not
 * allocated yet). Errors: TSR_ERR_NOMEM, TSR_ERR_LIMIT (TSR_LINE_TRACE_MAX
 * accesses); lt is unchanged then.
 */
enum tsr_status tsr_line_trace_append(struct tsr_line_trace *lt, size_t *cap, size_t *meta_cap,
				      const struct tsr_access *a, struct tsr_error *err);

void tsr_line_trace_release(struct tsr_line_trace *lt);

#endif
