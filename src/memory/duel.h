/*
 * duel.h - set dueling (Qureshi et al., ISCA 2007), shared by DRRIP and
 * DIP: leader sets of competitor A and of competitor B are chosen by
 * tsr_policy_set_role(); a saturating counter PSEL goes up for a miss
 * (fill) in an A leader and down for one in a B leader; followers use B
 * while PSEL's most significant bit is set, A otherwise. PSEL starts at
 * 2^(psel_bits-1) - 1, just below the midpoint, so followers start with A
 * (the static policy: SRRIP, LRU). Internal to the memory subsystem.
 */
#ifndef TSR_MEMORY_DUEL_H
#define TSR_MEMORY_DUEL_H

#include <stdint.h>

#include "memory/policy.h"

struct tsr_duel {
	uint32_t psel;
	uint32_t psel_max;   /* 2^psel_bits - 1 */
	uint32_t psel_msb;   /* 2^(psel_bits-1): followers use B from here */
	uint8_t *role;       /* sets: enum tsr_set_role (the caller's memory) */
};

/* Sets up PSEL (psel_bits 1..31) and the roles of `sets` sets in role[sets]. */
static inline void tsr_duel_init(struct tsr_duel *d, uint8_t *role, uint32_t sets,
				 uint32_t leaders, uint32_t psel_bits)
{
	d->psel_msb = UINT32_C(1) << (psel_bits - 1);
	d->psel_max = 2 * d->psel_msb - 1;
	d->psel = d->psel_msb - 1;
	d->role = role;
	for (uint32_t set = 0; set < sets; set++)
		role[set] = (uint8_t)tsr_policy_set_role(set, sets, leaders);
}

/*
 * A miss (fill) in `set`: moves PSEL if the set leads, and returns 1 if
 * this fill must follow competitor B, 0 for A.
 */
static inline int tsr_duel_miss(struct tsr_duel *d, uint32_t set)
{
	switch (d->role[set]) {
	case TSR_SET_LEADER_A:
		if (d->psel < d->psel_max)
			d->psel++;
		return 0;
	case TSR_SET_LEADER_B:
		if (d->psel > 0)
			d->psel--;
		return 1;
	default:
		return d->psel >= d->psel_msb;
	}
}

#endif
