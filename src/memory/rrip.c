#include "memory/rrip.h"

uint32_t tsr_rrip_policy_victim(void *state, uint32_t set,
				const struct tsr_line *set_lines,
				const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct tsr_rrip *r = state;
	return tsr_rrip_victim(&r->rrpv[(size_t)set * r->ways], r->ways, r->distant);
}

void tsr_rrip_policy_hit(void *state, uint32_t set, uint32_t way,
			 const struct tsr_line *set_lines,
			 const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct tsr_rrip *r = state;
	r->rrpv[(size_t)set * r->ways + way] = 0;
}

uint32_t tsr_rrip_policy_victim_among(void *state, uint32_t set,
				      const struct tsr_line *set_lines,
				      const struct tsr_access *a, const uint8_t *eligible)
{
	(void)set_lines;
	(void)a;
	struct tsr_rrip *r = state;
	return tsr_rrip_victim_among(&r->rrpv[(size_t)set * r->ways], r->ways, r->distant,
				     eligible);
}

uint64_t tsr_rrip_policy_rank(const void *state, uint32_t set, uint32_t way)
{
	const struct tsr_rrip *r = state;
	return r->rrpv[(size_t)set * r->ways + way];
}
