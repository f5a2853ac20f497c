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
 * (memory/rrip.h) in every set. Offers the pinned-line hooks (policy.h
 * version 2: victim_among, rank), so TCOR's Attribute Cache runs it
 * among its unlocked lines (TCOR V-A, Fig. 13).
 *
 * Parameters: leaders (sets per competitor, default 32), psel_bits
 * (default 10, from 1 to 31), bits (M, default 2, from 1 to 8), throttle
 * (BRRIP's 1/throttle, default 32), seed (default: the cache's seed).
 */
#include <stdlib.h>

#include "core/rng.h"
#include "memory/duel.h"
#include "memory/policy.h"
#include "memory/rrip.h"

struct drrip_state {
	struct tsr_rrip r;     /* first: the shared hooks see it */
	uint32_t throttle;
	struct tsr_duel duel;  /* A = SRRIP, B = BRRIP */
	struct tsr_rng rng;
	uint8_t mem[];         /* set roles, then sets x ways RRPVs */
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
	s->r.ways = cfg->ways;
	s->r.distant = tsr_rrip_distant(vals[2]);
	s->throttle = (uint32_t)vals[3];
	tsr_rng_seed(&s->rng, vals[4]);
	tsr_duel_init(&s->duel, s->mem, cfg->sets, (uint32_t)vals[0], (uint32_t)vals[1]);
	s->r.rrpv = s->mem + cfg->sets;
	*state = s;
	return TSR_OK;
}

static void drrip_destroy(void *state)
{
	free(state);
}

static void drrip_fill(void *state, uint32_t set, uint32_t way,
		       const struct tsr_line *set_lines,
		       const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct drrip_state *s = state;
	int bimodal = tsr_duel_miss(&s->duel, set);
	s->r.rrpv[(size_t)set * s->r.ways + way] = bimodal
		? tsr_rrip_bimodal(&s->rng, s->throttle, s->r.distant)
		: (uint8_t)(s->r.distant - 1);
}

const struct tsr_policy_ops tsr_policy_drrip = {
	.name = "drrip",
	.create = drrip_create,
	.destroy = drrip_destroy,
	.victim = tsr_rrip_policy_victim,
	.on_hit = tsr_rrip_policy_hit,
	.on_fill = drrip_fill,
	.victim_among = tsr_rrip_policy_victim_among,
	.rank = tsr_rrip_policy_rank,
};
