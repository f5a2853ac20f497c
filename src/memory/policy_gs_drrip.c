/*
 * policy_gs_drrip.c - GS-DRRIP, graphics stream-aware DRRIP (Gaur et al.,
 * MICRO 2013, Section 3 after Table 3, and Table 6): thread-aware DRRIP
 * (Jaleel et al., ISCA 2010) with the paper's four stream classes in place
 * of threads (memory/gspc.h, tsr_gspc_class_of(): Z, texture, render
 * target, other). Each class k has its own PSEL and its own leader sets:
 * in an SRRIP leader of k, fills of class k get RRPV 2 and move PSEL(k)
 * up; in a BRRIP leader of k, fills of class k get BRRIP's RRPV (3, or 2
 * with probability 1/throttle) and move PSEL(k) down; every other fill of
 * class k (in followers, and in the leaders of other classes) uses BRRIP
 * while PSEL(k)'s most significant bit is set, SRRIP otherwise (PSEL
 * starts just below the midpoint: SRRIP). Hits set the RRPV to 0; victims
 * as in SRRIP (memory/rrip.h), M-bit RRPVs (M = 2; Fig. 14's four-bit
 * GS-DRRIP is bits=4: SRRIP fills at 2^M - 2, BRRIP at 2^M - 1).
 *
 * Leader sets: the sample sets of the paper's policies (16 of every 1024,
 * tsr_gspc_is_sample()), split among the 4 classes x 2 competitors: the
 * sample numbered n = set & 15 leads class (n >> 1) & 3, SRRIP if n is
 * even, BRRIP if odd. So each class has 2 leaders of each kind per 1024
 * sets (16 each in an 8 MB, 16-way LLC of 8192 sets). A cache of fewer
 * than 1024 sets has fewer leaders; a class without leaders stays SRRIP.
 *
 * Parameters: psel_bits (default 10, 1..31), bits (M, default 2, 1..8),
 * throttle (default 32), seed (default: the cache's seed).
 */
#include <stdlib.h>

#include "core/rng.h"
#include "memory/duel.h"
#include "memory/gspc.h"

struct gs_drrip_state {
	struct tsr_rrip r;                     /* first: the shared hooks see it */
	uint32_t throttle;
	struct tsr_duel duel[TSR_GSPC_CLASSES]; /* A = SRRIP, B = BRRIP, per class */
	struct tsr_rng rng;
	uint8_t mem[];  /* TSR_GSPC_CLASSES x sets roles, then sets x ways RRPVs */
};

static enum tsr_status gs_drrip_create(const struct tsr_policy_config *cfg,
				       void **state, struct tsr_error *err)
{
	static const char *const keys[] = {"psel_bits", "throttle", "seed", "bits", NULL};
	static const uint64_t min[] = {1, 1, 0, TSR_RRIP_BITS_MIN};
	static const uint64_t max[] = {31, UINT32_MAX, UINT64_MAX, TSR_RRIP_BITS_MAX};
	uint64_t vals[] = {10, 32, cfg->seed, 2};
	TSR_TRY(tsr_policy_params_parse(cfg, "gs-drrip", keys, min, max, vals, err));
	size_t lines = (size_t)cfg->sets * cfg->ways;
	size_t roles = (size_t)TSR_GSPC_CLASSES * cfg->sets;
	struct gs_drrip_state *s = calloc(1, sizeof(*s) + roles + lines);
	if (!s)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for GS-DRRIP state");
	s->r.ways = cfg->ways;
	s->r.distant = tsr_rrip_distant(vals[3]);
	s->r.rrpv = s->mem + roles;
	s->throttle = (uint32_t)vals[1];
	tsr_rng_seed(&s->rng, vals[2]);
	for (uint32_t k = 0; k < TSR_GSPC_CLASSES; k++) {
		uint8_t *role = s->mem + (size_t)k * cfg->sets;
		tsr_duel_init(&s->duel[k], role, cfg->sets, 0, (uint32_t)vals[0]);
		for (uint32_t set = 0; set < cfg->sets; set++) {
			uint32_t n = set & 15u;
			if (tsr_gspc_is_sample(set) && ((n >> 1) & 3u) == k)
				role[set] = (uint8_t)((n & 1u) ? TSR_SET_LEADER_B
							      : TSR_SET_LEADER_A);
		}
	}
	*state = s;
	return TSR_OK;
}

static void gs_drrip_destroy(void *state)
{
	free(state);
}

static void gs_drrip_fill(void *state, uint32_t set, uint32_t way,
			  const struct tsr_line *set_lines,
			  const struct tsr_access *a)
{
	(void)set_lines;
	struct gs_drrip_state *s = state;
	int bimodal = tsr_duel_miss(&s->duel[tsr_gspc_class_of(a->stream)], set);
	s->r.rrpv[(size_t)set * s->r.ways + way] = bimodal
		? tsr_rrip_bimodal(&s->rng, s->throttle, s->r.distant)
		: (uint8_t)(s->r.distant - 1);
}

const struct tsr_policy_ops tsr_policy_gs_drrip = {
	.name = "gs-drrip",
	.create = gs_drrip_create,
	.destroy = gs_drrip_destroy,
	.victim = tsr_rrip_policy_victim,
	.on_hit = tsr_rrip_policy_hit,
	.on_fill = gs_drrip_fill,
};
