/*
 * memtime.h - cycle-level timing of memory requests through the cache
 * hierarchy (issue 13, "Memory timing"; docs/timing.md).
 *
 * Functional first: the functional model (memory/memsys.h) has already
 * decided which caches held each line; it hands over the path each line
 * access took (timing/mempath.h). This module only decides WHEN each
 * request completes, given per-cache hit latencies, lookup ports and
 * MSHRs (non-blocking caches as in TCOR Section V-B-3: a miss takes an
 * MSHR, later misses to the same line merge into it) and the DRAM model
 * of timing/dram.h, which it owns. It never changes what the caches hold.
 * Defaults from the papers: RE Table I (L1s 1 cycle and 1 bank, the Tile
 * Cache 8 banks, L2 2 cycles and 8 banks), TCOR Table I (L2 12 cycles);
 * the papers give no MSHR counts, so they are the caller's.
 *
 * Semantics of one request issued at cycle c with path p (levels 0 ..
 * p->levels - 1 are the caches looked up, p->hit_level the first that held
 * the line, == levels when DRAM served it):
 *   Lookup. Each level's lookup takes a port slot of that cache: at most
 *     `ports` lookups start per cycle per cache, in arrival order; a lookup
 *     that finds the cycle's slots taken starts in the next cycle with a
 *     free slot (port wait). The lookup ends `hit_latency` cycles after it
 *     starts; hit, miss and merge are decided then.
 *   Hit level. If an MSHR of that cache holds the line (a fill still in
 *     flight), the request merges into it and its data is there when the
 *     fill is; else its data is there at the end of the lookup.
 *   Missed level. If an MSHR of that cache holds the line, the request
 *     merges (a secondary miss: no request goes below). Else it takes a
 *     free MSHR (the lowest-numbered) and its lookup continues at the next
 *     level in the same cycle, or goes to DRAM (a read of p->dram_bytes at
 *     the last level's line, split into interleave granules; without
 *     caches at p->addr aligned down to the largest power of two not above
 *     dram_bytes or the granule). With no free
 *     MSHR it waits, in arrival order per cache, until one frees (stall
 *     cycles); when one frees, waiters to the freed or another in-flight
 *     line merge and the first other waiter takes it.
 *   Return. Data available at level j is available at level j - 1
 *     fill_latency cycles of cache j - 1 later (0 by default: the fill is
 *     forwarded to the level above in the cycle it arrives, so an L1 miss
 *     that hits L2 completes L1 + L2 hit latencies after issue). When a
 *     fill is available at a level, that level's MSHR frees and every
 *     request merged into it gets the data in the same cycle, then returns
 *     up its own levels the same way. A DRAM read's data is at the last
 *     level when its last piece completes. Fills take no lookup port.
 *   Completion. The requester's completion is reported when the data is
 *     available at level 0 (a path without caches: when DRAM completes, or
 *     at c when nothing is read).
 *   Writes are posted. A write that fetches (p->fetch) runs like a read
 *     (MSHRs, merges, the fill) but its requester's completion is reported
 *     at the end of its first lookup (at c without caches). A write that
 *     does not fetch takes a port slot and the hit latency at every level
 *     of its path in turn, no MSHR, and then, if p->dram_bytes > 0, a DRAM
 *     write of those bytes at the last level's line (a bypassed or
 *     written-through write); its completion is also reported at the end
 *     of its first lookup.
 *   Write-backs (p->wb[]) are posted writes issued at c plus the hit
 *     latencies of levels 0 .. from_level (when the evicting lookup ends,
 *     unloaded): to DRAM (to_dram) a write of `bytes` at `addr`; else one
 *     port slot of the cache at level from_level + 1 (none if the path
 *     does not name it). Nobody waits for them.
 *   DRAM. Requests wait in one in-order queue in front of the controller:
 *     when the controller refuses one (its queue is full), it and every
 *     later one wait and are retried each time a DRAM request completes.
 *
 * Time is in GPU cycles. The unit protocol is dram.h's: events only,
 * tsr_memtime_next_event() says when anything can next happen and
 * tsr_memtime_advance() brings the model there; idle time costs nothing.
 * Pending events are kept ordered by (cycle, sequence
 * number), so equal-cycle events run in the order they were created and
 * runs are deterministic. Requests, the events and the DRAM wait queue are
 * preallocated and grow by doubling; the steady state allocates nothing.
 *
 * Left out: port or bank conflicts of fills and write-backs into the
 * cache that receives them (write-backs to a cache take one port slot),
 * per-bank address interleaving (`ports` are bank-oblivious), write
 * buffers of bounded size (posted writes never block), MSHR targets per
 * entry (unbounded merges), the interconnect between levels (no wire or
 * queueing latency beyond ports), and coherence. A merged secondary miss
 * sends nothing below, so when the functional model re-fetched a line that
 * was evicted while its fill was still in flight, the owned DRAM device
 * counts fewer reads than the functional model; time-independent counters
 * (accesses, misses, DRAM bytes) should be taken from the functional model.
 */
#ifndef TSR_TIMING_MEMTIME_H
#define TSR_TIMING_MEMTIME_H

#include <stdint.h>

#include "core/status.h"
#include "timing/dram.h"
#include "timing/mempath.h"

/* Latency histograms: bucket 0 holds latencies 0-1 cycles, bucket i
 * (0 < i < last) [2^i, 2^(i+1)), the last one everything above (as dram.h). */
#define TSR_MEMTIME_HIST_BUCKETS 20

/* Streams with their own latency counters (p->stream); larger stream
 * numbers are counted in the last one. */
#define TSR_MEMTIME_STREAMS 16

/* Timing of one cache (plain data), indexed like tsr_mem_path.cache[]. */
struct tsr_memtime_cache_params {
	const char *name;        /* for messages; NULL: "cache <index>" (not copied:
				    must outlive the model) */
	uint32_t hit_latency;    /* cycles from a lookup's start to its hit or miss
				    decision (>= 1) */
	uint32_t ports;          /* lookups that may start per cycle (ports or banks, >= 1) */
	uint32_t mshrs;          /* miss status holding registers (1 .. 65535) */
	uint32_t fill_latency;   /* cycles for a fill from below to become available
				    at this cache (0: forwarded the cycle it arrives) */
};

/* Counters of one cache (plain data). */
struct tsr_memtime_cache_counters {
	uint64_t lookups;            /* request lookups (write-backs not included) */
	uint64_t hits;               /* lookups served here from the array */
	uint64_t misses;             /* lookups that went below (took an MSHR or bypassed) */
	uint64_t merges;             /* lookups merged into an in-flight MSHR: secondary
					misses and hits on lines being filled */
	uint64_t mshr_allocs;        /* MSHRs taken */
	uint64_t mshr_stalls;        /* misses that found no free MSHR */
	uint64_t mshr_stall_cycles;  /* cycles those waited for one */
	uint64_t mshr_occupancy_sum; /* sum over cycles of busy MSHRs (mean occupancy =
					this / cycles) */
	uint64_t mshr_busy_max;      /* most MSHRs busy at once */
	uint64_t port_wait_cycles;   /* cycles lookups (write-backs included) waited for
					a port slot */
	uint64_t writebacks;         /* write-backs received (one port slot each) */
	uint64_t latency_count;      /* read-like lookups whose data came back here */
	uint64_t latency_sum;        /* their cycles from arrival at this cache (port
					wait included) to the data available here */
	uint64_t latency_hist[TSR_MEMTIME_HIST_BUCKETS];
};

/* Requester-visible latency of one stream (plain data). */
struct tsr_memtime_stream_counters {
	uint64_t completed;
	uint64_t latency_sum;        /* cycles from issue to the completion */
	uint64_t latency_hist[TSR_MEMTIME_HIST_BUCKETS];
};

/*
 * Totals (plain data). Requester latency is issue to completion (a posted
 * write's is its first lookup). Little's law over [0, cycles]:
 * occupancy_sum == latency_sum once every request has completed.
 */
struct tsr_memtime_counters {
	uint64_t cycles;             /* GPU cycles advanced to */
	uint64_t issued;             /* requests issued */
	uint64_t completed;          /* requester completions reported */
	uint64_t posted;             /* of those, writes */
	uint64_t occupancy_sum;      /* sum over cycles of issued, uncompleted requests */
	uint64_t latency_sum;        /* sum of requester latencies */
	uint64_t latency_max;
	uint64_t latency_hist[TSR_MEMTIME_HIST_BUCKETS];
	uint64_t merges;             /* sum over caches */
	uint64_t mshr_stall_cycles;  /* sum over caches */
	uint64_t writebacks;         /* p->wb[] entries issued */
	uint64_t dram_reads;         /* DRAM read requests (granule pieces) sent */
	uint64_t dram_writes;        /* DRAM write requests (granule pieces) sent */
	uint64_t dram_refusals;      /* times the controller refused the queue's head */
	struct tsr_memtime_stream_counters stream[TSR_MEMTIME_STREAMS];
};

struct tsr_memtime;

/* Called once per requester completion, from inside tsr_memtime_advance(),
 * in (cycle, creation order of the completing event) order; must not call
 * the model (queue new requests and issue them after advance returns). */
typedef void (*tsr_memtime_done_fn)(void *ctx, uint64_t tag, uint64_t cycle);

/*
 * Checks the cache parameters: hit_latency >= 1, ports >= 1, 1 <= mshrs
 * <= 65535, ports and latencies below 2^20. Errors: TSR_ERR_CONFIG naming
 * the cache and the parameter.
 */
enum tsr_status tsr_memtime_params_check(const struct tsr_memtime_cache_params *caches,
					 uint32_t ncaches, struct tsr_error *err);

/*
 * Creates an idle model at cycle 0 with ncaches caches (0 allowed: only
 * paths without caches) and a DRAM device of dram at gpu_mhz. Errors:
 * those of tsr_memtime_params_check() and tsr_dram_create(),
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_memtime_create(const struct tsr_memtime_cache_params *caches,
				   uint32_t ncaches, const struct tsr_dram_params *dram,
				   uint32_t gpu_mhz, struct tsr_memtime **out,
				   struct tsr_error *err);

void tsr_memtime_destroy(struct tsr_memtime *mt);

/* Sets (or with fn NULL removes) the completion callback. */
void tsr_memtime_set_completion(struct tsr_memtime *mt, tsr_memtime_done_fn fn, void *ctx);

/*
 * Advances to `cycle` (tsr_memtime_advance()) and issues a request whose
 * first lookup arrives then (see the file comment); its completion comes
 * with `tag` through the callback, never from this call. The path is
 * copied. Errors: TSR_ERR_INTERNAL for a cycle before the current one or a
 * malformed path (levels or wb_count above the limits, hit_level above
 * levels, a write-back from a level the path lacks), TSR_ERR_CONFIG for a
 * path naming a cache the model lacks, TSR_ERR_NOMEM when growing the
 * request pool fails, or a failure recorded inside an earlier advance (see
 * tsr_memtime_status()); nothing is issued on error.
 */
enum tsr_status tsr_memtime_issue(struct tsr_memtime *mt, uint64_t cycle,
				  const struct tsr_mem_path *p, uint64_t tag,
				  struct tsr_error *err);

/*
 * As tsr_memtime_issue(), but a read that hits its first level and whose
 * outcome is already certain (no fill of its line in flight there, no
 * lookup of it queued, no miss waiting for an MSHR) is completed at once:
 * its completion, at the end of its lookup (a later cycle), is reported
 * from inside this call, and no event is left pending for it. Every
 * counter and every other request's timing are the same as
 * tsr_memtime_issue()'s; only the completion comes earlier in the
 * caller's time, for a requester that can take a completion in its
 * future (timing/core.h). It saves the event and, for a caller that
 * stops at each completion, the stop. The completion's cycle is the
 * lookup's port slot plus the cache's hit latency (GPU cycles), as the
 * events would give it. Errors: as tsr_memtime_issue().
 */
enum tsr_status tsr_memtime_issue_early(struct tsr_memtime *mt, uint64_t cycle,
					const struct tsr_mem_path *p, uint64_t tag,
					struct tsr_error *err);

/*
 * Brings the model to `cycle`: runs every event at or before it (lookups
 * ending, fills, DRAM commands and completions), reporting completions.
 * A cycle before the current one, or UINT64_MAX, does nothing. The result
 * does not depend on how the caller steps (tests/105 checks it).
 */
void tsr_memtime_advance(struct tsr_memtime *mt, uint64_t cycle);

/*
 * The earliest cycle (>= current) at which tsr_memtime_advance() has
 * something to do; UINT64_MAX when nothing is in flight (posted writes
 * and write-backs included).
 */
uint64_t tsr_memtime_next_event(const struct tsr_memtime *mt);

/*
 * A lower bound on the next cycle at which
 * a requester's completion is reported, if no request is issued before:
 * the earliest pending event, or the DRAM device's
 * tsr_dram_next_completion(). Until then the model only makes DRAM
 * decisions, which nobody outside sees; a caller that reacts only to
 * completions need not stop at them: tsr_memtime_advance() and
 * tsr_memtime_issue() run them in order when they bring the model to a
 * later cycle.
 */
uint64_t tsr_memtime_next_completion(const struct tsr_memtime *mt);

/* TSR_OK, or the failure (TSR_ERR_NOMEM growing the DRAM wait queue)
 * that an advance met and could not return; the model's timing is
 * unreliable after one. */
enum tsr_status tsr_memtime_status(const struct tsr_memtime *mt, struct tsr_error *err);

/* Issued requests whose completion has not been reported. */
uint64_t tsr_memtime_in_flight(const struct tsr_memtime *mt);

/* Current cycle (the last advanced to). */
uint64_t tsr_memtime_now(const struct tsr_memtime *mt);

/* Totals, with the occupancy integrals brought up to the current cycle. */
const struct tsr_memtime_counters *tsr_memtime_counters(struct tsr_memtime *mt);

/* Counters of cache i (< ncaches), integrals brought up to the current cycle. */
const struct tsr_memtime_cache_counters *tsr_memtime_cache_counters(struct tsr_memtime *mt,
								    uint32_t i);

/* The DRAM device's counters. */
const struct tsr_dram_device_counters *tsr_memtime_dram_counters(struct tsr_memtime *mt);

/* The owned DRAM device (read-only use: decode, peak bandwidth). */
const struct tsr_dram *tsr_memtime_dram(const struct tsr_memtime *mt);

#endif
