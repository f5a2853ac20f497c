/*
 * footprint.h - the texture footprint of a frame: the distinct 64-byte
 * lines the texture stream touches, as DTexL (Table I) and
 * boustrophedonic (Table I) characterize their benchmarks. Counted by a
 * cache observer (memory/cache.h) on every cache the texture route enters
 * (one per shader core when the texture caches are per core), in a hash
 * set of line addresses emptied after each frame; the run's statistics get
 * it as texture.footprint_lines (stats/counters.h) when
 * stats.texture_footprint is on (sim/sim.h does this).
 *
 * Left out: a texture route that is `perfect` or `dram` (no cache sees
 * those accesses; the footprint is 0). The set costs a hash insert per
 * line of every texture access, which is why the statistic is opt-in.
 */
#ifndef TSR_SIM_FOOTPRINT_H
#define TSR_SIM_FOOTPRINT_H

#include <stdint.h>

#include "core/status.h"
#include "pipeline/gpu.h"

/* The footprint's line: 64 bytes, the texture caches' and DRAM's granule. */
#define TSR_FOOTPRINT_LINE_SHIFT 6

struct tsr_footprint;

/*
 * Attaches a footprint counter to every cache the texture route of g
 * enters (none when the route is perfect or dram), replacing any observer
 * they had. The caches keep a pointer to it: destroy the GPU before it.
 * Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_footprint_create(struct tsr_gpu *g, struct tsr_footprint **out,
				     struct tsr_error *err);

/* 1 when f observes cache c (a cache has one observer: a trace recorder would replace f). */
int tsr_footprint_observes(const struct tsr_footprint *f, const struct tsr_cache *c);

/*
 * Ends a frame: *lines = the distinct 64-byte texture lines since the last
 * call (or since creation), and starts a new set. Errors: TSR_ERR_NOMEM
 * (the set could not grow during the frame).
 */
enum tsr_status tsr_footprint_frame_end(struct tsr_footprint *f, uint64_t *lines,
					struct tsr_error *err);

/* Frees f; does not touch the caches (destroy the GPU first, or detach them). */
void tsr_footprint_destroy(struct tsr_footprint *f);

#endif
