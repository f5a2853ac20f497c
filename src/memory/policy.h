/*
 * policy.h - the replacement-policy interface of every cache.
 *
 * One policy per file (memory/policy_*.c); each keeps its hooks static and
 * exports one const struct tsr_policy_ops. policy_table.c maps names and
 * aliases to policies; the config loader and CLI only look names up there
 * (libCacheSim / ChampSim style, see shared/conventions.md).
 *
 * A policy sees, on every hit, fill, eviction and victim choice, the
 * access (address, read/write, stream, requester, upper-level metadata)
 * and the tag store of the set (valid, dirty, stream, metadata of each
 * line). It may decline a fill by returning TSR_POLICY_BYPASS from victim().
 * The cache fills an invalid way (the lowest) before it asks for a victim.
 * Ties are broken by the lowest way.
 */
#ifndef TSR_MEMORY_POLICY_H
#define TSR_MEMORY_POLICY_H

#include <stdint.h>

#include "core/status.h"
#include "memory/cache.h"

#define TSR_POLICY_BYPASS UINT32_MAX

struct tsr_policy_ops {
	const char *name;
	/* Allocates per-cache state for sets x ways lines; params may be NULL. */
	enum tsr_status (*create)(uint32_t sets, uint32_t ways,
				  const char *params, void **state,
				  struct tsr_error *err);
	void (*destroy)(void *state);
	/* Chooses the way to evict in a full set, or TSR_POLICY_BYPASS. */
	uint32_t (*victim)(void *state, uint32_t set,
			   const struct tsr_line *set_lines,
			   const struct tsr_access *a);
	void (*on_hit)(void *state, uint32_t set, uint32_t way,
		       const struct tsr_access *a);
	void (*on_fill)(void *state, uint32_t set, uint32_t way,
			const struct tsr_access *a);
	/* Called before a valid line is replaced (optional: may be NULL). */
	void (*on_evict)(void *state, uint32_t set, uint32_t way,
			 const struct tsr_line *line);
};

/* Looks a policy up by name or alias (case-sensitive); NULL if unknown. */
const struct tsr_policy_ops *tsr_policy_find(const char *name);

/* Writes the comma-separated list of policy names into buf. */
void tsr_policy_list(char *buf, unsigned n);

/* The policies (one file each). */
extern const struct tsr_policy_ops tsr_policy_lru;

#endif
