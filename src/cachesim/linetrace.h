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

/* Plain data, built by tsr_line_trace_build(). */
struct tsr_line_trace {
	struct tsr_access *accesses;  /* line-contained; next_use = index of the
					 next access to the same line or TSR_NEVER */
	size_t count;
	struct tsr_line_marker *markers;
	size_t marker_count;
	size_t frames;                /* frame markers */
	uint32_t line_bytes;
	uint32_t line_shift;          /* log2(line_bytes) */
	uint64_t distinct_lines;      /* lines touched */
	int no_next_uses;             /* 1: next uses not computed (tsr_line_trace_load()
					 without them): every next_use is TSR_NEVER until
					 tsr_line_trace_index() */
};

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
 * next uses; markers none. Errors: as tsr_line_trace_build().
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

void tsr_line_trace_release(struct tsr_line_trace *lt);

#endif
