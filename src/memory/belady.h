/*
 * belady.h - the state Belady's OPT (MIN) and McFarling's OPTPT share: the
 * next use of every resident line and, per set, a max-heap of the ways
 * ordered by next use (farthest first, lowest way first among equals), so
 * that a victim costs O(1) and an update O(log ways), and a fully
 * associative cache of thousands of lines replays as fast as an 8-way one
 * (boustrophedonic II-D, TCOR V-A). Internal to the memory subsystem and
 * the replay kernel's wide OPT sets (cachesim/replay_kernel.c).
 */
#ifndef TSR_MEMORY_BELADY_H
#define TSR_MEMORY_BELADY_H

#include <stdint.h>

#include "core/status.h"
#include "memory/policy.h"

struct tsr_belady;

/* Errors: TSR_ERR_NOMEM. */
enum tsr_status tsr_belady_create(uint32_t sets, uint32_t ways,
				  struct tsr_belady **out, struct tsr_error *err);
void tsr_belady_destroy(struct tsr_belady *b);

/* Sets the next use of `way` (inserting it in its set's heap if absent). */
void tsr_belady_update(struct tsr_belady *b, uint32_t set, uint32_t way,
		       uint64_t next_use);

/* The way of `set` re-used farthest in the future (the set must be full). */
uint32_t tsr_belady_farthest(const struct tsr_belady *b, uint32_t set);

/* The next use recorded for `way`. */
uint64_t tsr_belady_next_use(const struct tsr_belady *b, uint32_t set, uint32_t way);

/* Shared hooks of OPT and OPTPT (both only differ in victim()). */
enum tsr_status tsr_belady_policy_create(const struct tsr_policy_config *cfg,
					 const char *name, void **state,
					 struct tsr_error *err);
void tsr_belady_policy_destroy(void *state);
void tsr_belady_policy_touch(void *state, uint32_t set, uint32_t way,
			     const struct tsr_line *set_lines,
			     const struct tsr_access *a);

#endif
