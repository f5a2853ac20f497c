/*
 * policy_drrip.c - dynamic re-reference interval prediction (Jaleel et
 * al., ISCA 2010; the baseline of GSPC, Section 1): set dueling
 * (Qureshi et al., ISCA 2007) between SRRIP and BRRIP insertion. Leader
 * sets of SRRIP (role A) and of BRRIP (role B) are chosen by
 * tsr_policy_set_role(); a saturating counter PSEL counts their misses, up
 * for a miss (fill) in an SRRIP leader and down for one in a BRRIP
 * leader, and the other sets (followers) fill as BRRIP while PSEL's most
 * significant bit is set, as SRRIP otherwise. PSEL starts at
 * 2^(psel_bits-1) - 1, just below the midpoint, so followers start with
 * SRRIP; a cache with fewer than 4 sets has no leaders and stays SRRIP.
 * Hits set the RRPV to 0 and victims are chosen as in SRRIP
 * (memory/rrip.h) in every set.
 *
 * Parameters: leaders (sets per competitor, default 32), psel_bits
 * (default 10, from 1 to 31), bits (M, default 2, from 1 to 8), throttle
 * (BRRIP's 1/throttle, default 32), seed (default: the cache's seed).
 */
#include <stdlib.h>

#include "core/rng.h"
#include "memory/policy.h"
#include "memory/rrip.h"

struct drrip_state {
	uint32_t ways;
	uint32_t throttle;
	uint32_t psel;
	uint32_t psel_max;   /* 2^psel_bits - 1 */
	uint32_t psel_msb;   /* 2^(psel_bits-1): followers run BRRIP from here */
	uint8_t distant;     /* 2^M - 1 */
	struct tsr_rng rng;
	uint8_t *role;       /* sets: enum tsr_set_role */
	uint8_t *rrpv;       /* sets x ways */
	uint8_t mem[];       /* role, then rrpv */
};

static enum tsr_status drrip_create(const struct tsr_policy_config *cfg,
				    void **state, struct tsr_error *err)
{
	static const char *const keys[] = {"leaders", "psel_bits", "bits",
					   "throttle", "seed", NULL};
	static const uint64_t min[] = {0, 1, TSR_RRIP_BITS_MIN, 1, 0};
	static const uint64_t max[] = {UINT32_MAX, 31, TSR_RRIP_BITS_MAX,
				       UINT32_MAX, UINT64_MAX};
	uint64_t vals[] = {32, 10, 2, 32, cfg->seed};
	TSR_TRY(tsr_policy_params_parse(cfg, "drrip", keys, min, max, vals, err));
	size_t lines = (size_t)cfg->sets * cfg->ways;
	struct drrip_state *s = calloc(1, sizeof(*s) + cfg->sets + lines);
	if (!s)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for DRRIP state");
	s->ways = cfg->ways;
	s->psel_msb = UINT32_C(1) << (vals[1] - 1);
	s->psel_max = 2 * s->psel_msb - 1;
	s->psel = s->psel_msb - 1;
	s->distant = tsr_rrip_distant(vals[2]);
	s->throttle = (uint32_t)vals[3];
	tsr_rng_seed(&s->rng, vals[4]);
	s->role = s->mem;
	s->rrpv = s->mem + cfg->sets;
	for (uint32_t set = 0; set < cfg->sets; set++)
		s->role[set] = (uint8_t)tsr_policy_set_role(set, cfg->sets, (uint32_t)vals[0]);
	*state = s;
	return TSR_OK;
}

static void drrip_destroy(void *state)
{
	free(state);
}

static uint32_t drrip_victim(void *state, uint32_t set,
			     const struct tsr_line *set_lines,
			     const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct drrip_state *s = state;
	return tsr_rrip_victim(&s->rrpv[(size_t)set * s->ways], s->ways, s->distant);
}

static void drrip_hit(void *state, uint32_t set, uint32_t way,
		      const struct tsr_line *set_lines,
		      const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct drrip_state *s = state;
	s->rrpv[(size_t)set * s->ways + way] = 0;
}

static void drrip_fill(void *state, uint32_t set, uint32_t way,
		       const struct tsr_line *set_lines,
		       const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct drrip_state *s = state;
	int bimodal;
	switch (s->role[set]) {
	case TSR_SET_LEADER_A:  /* an SRRIP leader missed */
		if (s->psel < s->psel_max)
			s->psel++;
		bimodal = 0;
		break;
	case TSR_SET_LEADER_B:  /* a BRRIP leader missed */
		if (s->psel > 0)
			s->psel--;
		bimodal = 1;
		break;
	default:
		bimodal = s->psel >= s->psel_msb;
		break;
	}
	s->rrpv[(size_t)set * s->ways + way] = bimodal
		? tsr_rrip_bimodal(&s->rng, s->throttle, s->distant)
		: (uint8_t)(s->distant - 1);
}

const struct tsr_policy_ops tsr_policy_drrip = {
	.name = "drrip",
	.create = drrip_create,
	.destroy = drrip_destroy,
	.victim = drrip_victim,
	.on_hit = drrip_hit,
	.on_fill = drrip_fill,
};
