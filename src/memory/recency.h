/*
 * recency.h - per-line stamps, the state LRU, MRU, FIFO and DIP share:
 * each line keeps the tick of a per-cache clock at its last access (LRU,
 * MRU, DIP) or its fill (FIFO); the oldest or newest stamp of a set is
 * the victim. Stamps are unique, so there are no ties. Internal to the
 * memory subsystem.
 *
 * Sets of more than TSR_RECENCY_LIST_MIN_WAYS ways (fully associative
 * caches) also keep their stamped ways in a doubly linked list in stamp
 * order (a touch moves its way to the tail), so the oldest and newest
 * line of a full set are its list's head and tail: a victim costs O(1)
 * instead of a scan of the set, with the very same choice (stamps are
 * unique, and every way of a full set has been stamped by its fill).
 * Narrow sets keep the scan, which is faster there.
 */
#ifndef TSR_MEMORY_RECENCY_H
#define TSR_MEMORY_RECENCY_H

#include <stdint.h>

#include "memory/policy.h"

/*
 * The way with the oldest (smallest) of the `ways` stamps of a set, among
 * the eligible ways (eligible[w] != 0; NULL: every way); `ways` if none is
 * eligible.
 */
static inline uint32_t tsr_recency_oldest_among(const uint64_t *stamp, uint32_t ways,
						const uint8_t *eligible)
{
	uint32_t best = 0;  /* the first eligible way, then the loop (the plain case: way 0) */
	if (eligible)
		while (best < ways && !eligible[best])
			best++;
	for (uint32_t w = best + 1; w < ways; w++)
		if ((!eligible || eligible[w]) && stamp[w] < stamp[best])
			best = w;
	return best;
}

/* The eligible way with the newest (largest) stamp; `ways` if none is eligible. */
static inline uint32_t tsr_recency_newest_among(const uint64_t *stamp, uint32_t ways,
						const uint8_t *eligible)
{
	uint32_t best = 0;  /* the first eligible way, then the loop (the plain case: way 0) */
	if (eligible)
		while (best < ways && !eligible[best])
			best++;
	for (uint32_t w = best + 1; w < ways; w++)
		if ((!eligible || eligible[w]) && stamp[w] > stamp[best])
			best = w;
	return best;
}

/* The way with the oldest stamp of a set (every way eligible). */
static inline uint32_t tsr_recency_oldest(const uint64_t *stamp, uint32_t ways)
{
	return tsr_recency_oldest_among(stamp, ways, NULL);
}

/* The way with the newest stamp. */
static inline uint32_t tsr_recency_newest(const uint64_t *stamp, uint32_t ways)
{
	return tsr_recency_newest_among(stamp, ways, NULL);
}

/* Sets wider than this keep the stamp-ordered list (see the top of this file). */
#define TSR_RECENCY_LIST_MIN_WAYS 64u

/* No way (an empty list end). */
#define TSR_RECENCY_NONE UINT32_MAX

/* The state of LRU, MRU and FIFO: a clock and sets x ways stamps. */
struct tsr_recency {
	uint32_t ways;
	uint64_t clock;
	/* sets wider than TSR_RECENCY_LIST_MIN_WAYS, else NULL: */
	uint32_t *link;      /* sets x ways x 2: previous (older) and next (newer) way */
	uint32_t *ends;      /* sets x 2: head (oldest) and tail (newest) way */
	uint64_t stamp[];
};

/* Allocates it; the policy takes no parameters. Errors: TSR_ERR_CONFIG, TSR_ERR_NOMEM. */
enum tsr_status tsr_recency_create(const struct tsr_policy_config *cfg, const char *name,
				   void **state, struct tsr_error *err);
void tsr_recency_destroy(void *state);

/* Hook: stamps `way` with the next tick. */
void tsr_recency_touch(void *state, uint32_t set, uint32_t way,
		       const struct tsr_line *set_lines, const struct tsr_access *a);

/* Hooks: the oldest (LRU, FIFO) or newest (MRU) line of a full set. */
uint32_t tsr_recency_victim_oldest(void *state, uint32_t set,
				   const struct tsr_line *set_lines,
				   const struct tsr_access *a);
uint32_t tsr_recency_victim_newest(void *state, uint32_t set,
				   const struct tsr_line *set_lines,
				   const struct tsr_access *a);

/* Version 2 hooks (policy.h): the oldest or newest eligible line. */
uint32_t tsr_recency_victim_oldest_among(void *state, uint32_t set,
					 const struct tsr_line *set_lines,
					 const struct tsr_access *a, const uint8_t *eligible);
uint32_t tsr_recency_victim_newest_among(void *state, uint32_t set,
					 const struct tsr_line *set_lines,
					 const struct tsr_access *a, const uint8_t *eligible);

/* Version 2 rank hooks: older is evicted sooner (LRU), newer sooner (MRU). */
uint64_t tsr_recency_rank_old(const void *state, uint32_t set, uint32_t way);
uint64_t tsr_recency_rank_new(const void *state, uint32_t set, uint32_t way);

/* The stamps of one set. */
static inline uint64_t *tsr_recency_set(struct tsr_recency *r, uint32_t set)
{
	return &r->stamp[(uint64_t)set * r->ways];
}

#endif
