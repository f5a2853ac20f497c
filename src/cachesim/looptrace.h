/*
 * looptrace.h - the loop traces of the boustrophedonic paper (Section
 * III-B, Figs. 3, 4 and 9), generated in memory: s distinct blocks per
 * set, accessed once each per iteration, repeated; in forward order every
 * iteration (a circular trace, "FO") or reversed every other iteration
 * (the alternate reverse order, "RO"). Block b of set k is line
 * b * sets + k, so every set of a set-associative cache sees the same
 * loop. A frame marker (value = iteration) starts each iteration, so
 * OPTPT and per-iteration counts see iteration boundaries as frames.
 *
 * The paper's theorems on these traces (LRU FO misses every access; OPT
 * FO's steady-state miss ratio (s-j)/(s-1); OPTPT FO's and every RO
 * policy's (s-j)/s; none after the first iteration when s <= j) are
 * checked exactly by test 065; the `boustrophedonic` experiment prints
 * Fig. 9's fraction of decrease in misses from them.
 */
#ifndef TSR_CACHESIM_LOOPTRACE_H
#define TSR_CACHESIM_LOOPTRACE_H

#include <stdint.h>

#include "cachesim/linetrace.h"
#include "core/status.h"

/*
 * Builds the loop trace of s blocks in each of `sets` sets, `iters`
 * iterations, reversed on odd iterations when reverse_odd, as reads of
 * 4 bytes at the start of each line_bytes line (stream texture), with
 * next uses. Errors: those of tsr_line_trace_build(), TSR_ERR_CONFIG for
 * s, sets or iters of 0.
 */
enum tsr_status tsr_loop_trace_build(uint32_t s, uint32_t sets, uint32_t iters,
				     int reverse_odd, uint32_t line_bytes,
				     struct tsr_line_trace *out, struct tsr_error *err);

/*
 * Replays that loop trace (64-byte lines) through one cache of `sets`
 * sets and j ways with policy spec `policy`, and writes the misses of
 * each iteration into per_iter[0..iters-1]. Errors: those of
 * tsr_loop_trace_build() and tsr_cache_create().
 */
enum tsr_status tsr_loop_misses(const char *policy, uint32_t s, uint32_t j, uint32_t sets,
				uint32_t iters, int reverse_odd, uint32_t *per_iter,
				struct tsr_error *err);

#endif
