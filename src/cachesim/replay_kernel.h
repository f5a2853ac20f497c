/*
 * replay_kernel.h - a replay-only cache model for the common policies
 * (LRU, MRU, FIFO, NRU, SRRIP, BRRIP, DRRIP and OPT, "+ucd" or not) of a
 * set-associative cache (NRU and RRIP up to 64 ways; the others any, fully
 * associative included), producing the very counters, per stream,
 * that memory/cache.h's tsr_cache_access() would for the same accesses.
 * Internal to cachesim (replay.c, replay_file.c).
 *
 * Only what the counters depend on is kept, laid out for the replay: per
 * set its tags (UINT64_MAX for a way not filled yet: ways fill in order
 * and are never invalidated one by one, so a set's valid ways are
 * [0, filled)), one flag byte per line (dirty, partly written, GSPC's RT
 * bit, stream), the write masks of partly written lines, and the
 * policy's state: for the recency policies the set's ways in recency
 * order, one nibble each (a touch moves a nibble to the front, the victim
 * is the last or the first nibble: the same choice as unique stamps), for
 * the RRIP family the RRPVs, for OPT the next uses (the farthest, lowest
 * way among equals, as memory/belady.h's heap). Sets of more than 16 ways
 * (LRU, MRU, FIFO) or 64 (OPT) find a line through a hash index from tag to
 * line instead of comparing the set's tags, and keep the recency order as a
 * doubly linked list of the set's ways (newest first) and OPT's in the
 * cache model's own per-set heaps (memory/belady.h): O(1) and O(log W)
 * an access. Policies never see a
 * marker here (none of these has on_marker), nor a visitor: replays with
 * either, or with other policies, keep the generic path.
 */
#ifndef TSR_CACHESIM_REPLAY_KERNEL_H
#define TSR_CACHESIM_REPLAY_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "core/stream.h"
#include "memory/cache.h"
#include "cachesim/replay.h"

struct tsr_rk;

/*
 * A kernel for geometry g (already checked by tsr_cache_geometry_check())
 * with policy spec `spec`, or NULL (*out) when the kernel does not model
 * that policy or geometry (the caller keeps the generic cache). Errors:
 * TSR_ERR_NOMEM, TSR_ERR_CONFIG (a parameter the policy refuses).
 */
enum tsr_status tsr_rk_create(const struct tsr_cache_geometry *g, const char *spec,
			      struct tsr_rk **out, struct tsr_error *err);

void tsr_rk_destroy(struct tsr_rk *k);

/* Feeds n line accesses, in order (OPT reads their next_use). */
void tsr_rk_run(struct tsr_rk *k, const struct tsr_line_access *a, size_t n);

/* The counters of one stream. */
const struct tsr_cache_counters *tsr_rk_counters_of(const struct tsr_rk *k, enum tsr_stream s);

/*
 * The caches of one replay: the generic caches (tsr_replay_caches_create())
 * and beside each, when the kernel models its policy, a kernel that
 * replaces it (kernels[i], else NULL).
 */
struct tsr_rk_set {
	struct tsr_cache **caches;
	struct tsr_rk **kernels;
	uint32_t n;
};

/* Creates them; errors as tsr_replay_caches_create(). */
enum tsr_status tsr_rk_set_create(const struct tsr_cache_geometry *g,
				  const char *const *policies, uint32_t n,
				  struct tsr_rk_set *out, struct tsr_error *err);

/*
 * Feeds a block of `count` line accesses, the metas of those flagged
 * TSR_LINE_META (in order) and the markers among them (positions relative
 * to the block, in order; a marker at `count` comes after the block's
 * last access) to every cache, each cache through the whole block in
 * turn.
 */
void tsr_rk_set_run(struct tsr_rk_set *rs, const struct tsr_line_access *a, size_t count,
		    const uint32_t *metas, const struct tsr_line_marker *markers,
		    size_t marker_count);

/* Fills out[i] with the counters of the i-th cache (kernel or generic). */
void tsr_rk_set_results(const struct tsr_rk_set *rs, const char *const *policies,
			struct tsr_replay_result *out);

void tsr_rk_set_destroy(struct tsr_rk_set *rs);

#endif
