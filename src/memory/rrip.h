/*
 * rrip.h - re-reference prediction values (RRPVs), the per-line state that
 * NRU, SRRIP, BRRIP, DRRIP and SHiP-mem share (Jaleel et al., ISCA 2010,
 * as GSPC Section 1 describes it). Internal to the memory subsystem.
 *
 * An M-bit RRPV predicts when a line will be re-referenced: 0 soon, 2^M-1
 * ("distant") not in the foreseeable future. The policies differ only in
 * the RRPV they give a line on a fill (and SHiP-mem in what it learns);
 * all of them set it to 0 on a hit and pick the victim the same way:
 * the lowest way whose RRPV is 2^M-1; if there is none, every RRPV of the
 * set is incremented until one reaches 2^M-1. NRU is the 1-bit case with
 * fills at 0.
 *
 * The helpers work on the RRPVs of one set (a plain uint8_t array, M <= 8)
 * and allocate nothing.
 */
#ifndef TSR_MEMORY_RRIP_H
#define TSR_MEMORY_RRIP_H

#include <stdint.h>

#include "core/rng.h"
#include "memory/policy.h"

/* Range of M, the RRPV width in bits (parameter "bits"). */
#define TSR_RRIP_BITS_MIN 1
#define TSR_RRIP_BITS_MAX 8

/* The distant RRPV, 2^bits - 1. */
static inline uint8_t tsr_rrip_distant(uint64_t bits)
{
	return (uint8_t)((1u << bits) - 1);
}

/*
 * The victim among the eligible ways (eligible[w] != 0, at least one;
 * NULL: every way) of a full set: the lowest eligible way at `distant`;
 * if none is, the lowest eligible way of highest RRPV, after the set is
 * aged by (distant - its RRPV) in one pass, which is the paper's
 * "increment all until one reaches distant". RRPVs are M-bit saturating
 * counters (Jaleel et al. 2010): a pinned (ineligible) line already near
 * distant stops at distant; with every way eligible nothing saturates.
 * Returns `ways` if no way is eligible.
 */
static inline uint32_t tsr_rrip_victim_among(uint8_t *rrpv, uint32_t ways,
					     uint8_t distant, const uint8_t *eligible)
{
	uint32_t best = ways;
	for (uint32_t w = 0; w < ways; w++) {
		if (eligible && !eligible[w])
			continue;
		if (rrpv[w] >= distant)  /* RRPVs never exceed distant: the highest */
			return w;
		if (best == ways || rrpv[w] > rrpv[best])
			best = w;
	}
	if (best == ways)
		return best;
	uint8_t age = (uint8_t)(distant - rrpv[best]);
	for (uint32_t w = 0; w < ways; w++)
		rrpv[w] = rrpv[w] >= distant - age ? distant : (uint8_t)(rrpv[w] + age);
	return best;
}

/* tsr_rrip_victim_among() with every way eligible. */
static inline uint32_t tsr_rrip_victim(uint8_t *rrpv, uint32_t ways, uint8_t distant)
{
	return tsr_rrip_victim_among(rrpv, ways, distant, NULL);
}

/*
 * The bimodal fill RRPV of BRRIP: `distant` - 1 ("long") with probability
 * 1/throttle, `distant` otherwise (Jaleel et al., ISCA 2010; throttle 32
 * in the paper). Draws one number from rng.
 */
static inline uint8_t tsr_rrip_bimodal(struct tsr_rng *rng, uint32_t throttle,
				       uint8_t distant)
{
	return tsr_rng_below(rng, throttle) == 0 ? (uint8_t)(distant - 1) : distant;
}

/*
 * The RRPV state every RRIP policy keeps; it must be the first member of
 * the policy's state so that the shared hooks below can see it.
 */
struct tsr_rrip {
	uint32_t ways;
	uint8_t distant;  /* 2^M - 1 */
	uint8_t *rrpv;    /* sets x ways */
};

/* Hook: the victim of a full set (tsr_rrip_victim()). */
uint32_t tsr_rrip_policy_victim(void *state, uint32_t set,
				const struct tsr_line *set_lines,
				const struct tsr_access *a);

/* Version 2 hooks (policy.h): tsr_rrip_victim_among(); rank = the RRPV. */
uint32_t tsr_rrip_policy_victim_among(void *state, uint32_t set,
				      const struct tsr_line *set_lines,
				      const struct tsr_access *a, const uint8_t *eligible);
uint64_t tsr_rrip_policy_rank(const void *state, uint32_t set, uint32_t way);

/* Hook: a hit sets the line's RRPV to 0 ("near-immediate" re-reference). */
void tsr_rrip_policy_hit(void *state, uint32_t set, uint32_t way,
			 const struct tsr_line *set_lines,
			 const struct tsr_access *a);

#endif
