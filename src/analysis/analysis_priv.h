/*
 * analysis_priv.h - what the analyses share inside the library: dense line
 * ids and the stack-distance engine (Bennett and Kruskal's method: a
 * Fenwick tree marks, for every line, the position of its latest
 * occurrence; the stack distance of an access is the number of marks
 * between the line's previous position and its own).
 *
 * Positions are per set, laid out in one array partitioned by set (the
 * sets of a sequence get consecutive ranges in the order they first
 * appear), so a single tree serves every set: a query never leaves the
 * range of its set.
 */
#ifndef TSR_ANALYSIS_PRIV_H
#define TSR_ANALYSIS_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"

/* A line id that is not part of the sequence (filtered out). */
#define TSR_SD_SKIP UINT32_MAX

/* Largest trace the engine takes: positions and ids are 32-bit. */
#define TSR_SD_MAX_ITEMS ((size_t)UINT32_MAX - 1)

/* Checks sets, the stream filter and the trace length (messages for callers). */
enum tsr_status tsr_analysis_check(const struct tsr_line_trace *lt, uint32_t sets,
				   uint32_t stream, struct tsr_error *err);

/*
 * Dense line ids (0 .. *lines - 1, in order of first use) of lt's
 * accesses; accesses of other streams than `stream` get TSR_SD_SKIP.
 * (*line_set)[id] = line mod sets. The caller frees both arrays.
 */
enum tsr_status tsr_analysis_line_ids(const struct tsr_line_trace *lt, uint32_t stream,
				      uint32_t sets, uint32_t **ids, uint32_t **line_set,
				      uint32_t *lines, struct tsr_error *err);

/* Reports one item of a sequence: reuse and stack distance, or TSR_NEVER (cold). */
typedef void (*tsr_sd_emit)(void *ctx, size_t item, uint32_t id, uint64_t reuse,
			    uint64_t stack);

struct tsr_sd_engine {
	size_t cap;               /* longest sequence */
	uint32_t *tree;           /* Fenwick tree over positions, 1-based, cap + 1 */
	const uint32_t *line_set; /* set of each line id */
	uint32_t *line_pos;       /* latest position of a line in the current run */
	uint32_t *line_run;       /* run that wrote line_pos (0: never) */
	uint32_t *set_next;       /* next free position of a set in the current run */
	uint32_t *set_run;
	uint32_t *touched;        /* sets of the current run */
	uint32_t run;
};

/* Allocates an engine for sequences of up to cap items over `lines` ids. */
enum tsr_status tsr_sd_init(struct tsr_sd_engine *e, size_t cap, uint32_t lines,
			    const uint32_t *line_set, uint32_t sets,
			    struct tsr_error *err);

/*
 * Stack and reuse distances of the sequence a[0..na) ++ b[0..nb) (b read
 * backwards if reverse_b), within each line's set; na + nb <= cap. Items
 * equal to TSR_SD_SKIP are left out. emit() gets the item's index in the
 * concatenation. Allocates nothing.
 */
void tsr_sd_run(struct tsr_sd_engine *e, const uint32_t *a, size_t na, const uint32_t *b,
		size_t nb, int reverse_b, tsr_sd_emit emit, void *ctx);

void tsr_sd_release(struct tsr_sd_engine *e);

#endif
