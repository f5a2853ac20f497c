/*
 * policy_brrip.c - bimodal re-reference interval prediction (Jaleel et
 * al., ISCA 2010): SRRIP (memory/policy_srrip.c) except that
 * a fill gets the distant RRPV 2^M-1, and only with probability
 * 1/throttle the long one, 2^M-2. Lines of a working set larger than the
 * cache then mostly leave right after their fill while a part of the set
 * stays and hits (thrash resistance). The coin comes from one seeded
 * generator per cache (core/rng.h).
 *
 * Parameters: bits (M, default 2, from 1 to 8), throttle (default 32, the
 * paper's 1/32; 1 makes BRRIP SRRIP), seed (default: the cache's seed).
 */
#include <stdlib.h>

#include "core/rng.h"
#include "memory/policy.h"
#include "memory/rrip.h"

struct brrip_state {
	struct tsr_rrip r;  /* first: the shared hooks see it */
	uint32_t throttle;
	struct tsr_rng rng;
	uint8_t mem[];      /* sets x ways RRPVs */
};

static enum tsr_status brrip_create(const struct tsr_policy_config *cfg,
				    void **state, struct tsr_error *err)
{
	static const char *const keys[] = {"bits", "throttle", "seed", NULL};
	static const uint64_t min[] = {TSR_RRIP_BITS_MIN, 1, 0};
	static const uint64_t max[] = {TSR_RRIP_BITS_MAX, UINT32_MAX, UINT64_MAX};
	uint64_t vals[] = {2, 32, cfg->seed};
	TSR_TRY(tsr_policy_params_parse(cfg, "brrip", keys, min, max, vals, err));
	struct brrip_state *s = calloc(1, sizeof(*s) + (size_t)cfg->sets * cfg->ways);
	if (!s)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for BRRIP state");
	s->r.ways = cfg->ways;
	s->r.distant = tsr_rrip_distant(vals[0]);
	s->r.rrpv = s->mem;
	s->throttle = (uint32_t)vals[1];
	tsr_rng_seed(&s->rng, vals[2]);
	*state = s;
	return TSR_OK;
}

static void brrip_destroy(void *state)
{
	free(state);
}

static void brrip_fill(void *state, uint32_t set, uint32_t way,
		       const struct tsr_line *set_lines,
		       const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct brrip_state *s = state;
	s->r.rrpv[(size_t)set * s->r.ways + way] =
		tsr_rrip_bimodal(&s->rng, s->throttle, s->r.distant);
}

const struct tsr_policy_ops tsr_policy_brrip = {
	.name = "brrip",
	.create = brrip_create,
	.destroy = brrip_destroy,
	.victim = tsr_rrip_policy_victim,
	.on_hit = tsr_rrip_policy_hit,
	.on_fill = brrip_fill,
};
