/*
 * policy_random.c - random replacement: the victim is drawn uniformly
 * among the ways of the set (libCacheSim Random), from one seeded
 * deterministic generator per cache (core/rng.h), so that one seed always
 * gives one sequence of victims. Hits and fills keep no state.
 *
 * Parameters: seed (default: the cache's seed, tsr_policy_config.seed).
 */
#include <stdlib.h>

#include "core/rng.h"
#include "memory/policy.h"

struct random_state {
	uint32_t ways;
	struct tsr_rng rng;
};

static enum tsr_status random_create(const struct tsr_policy_config *cfg,
				     void **state, struct tsr_error *err)
{
	static const char *const keys[] = {"seed", NULL};
	static const uint64_t min[] = {0};
	static const uint64_t max[] = {UINT64_MAX};
	uint64_t vals[] = {cfg->seed};
	TSR_TRY(tsr_policy_params_parse(cfg, "random", keys, min, max, vals, err));
	struct random_state *s = calloc(1, sizeof(*s));
	if (!s)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for Random state");
	s->ways = cfg->ways;
	tsr_rng_seed(&s->rng, vals[0]);
	*state = s;
	return TSR_OK;
}

static void random_destroy(void *state)
{
	free(state);
}

static uint32_t random_victim(void *state, uint32_t set,
			      const struct tsr_line *set_lines,
			      const struct tsr_access *a)
{
	(void)set;
	(void)set_lines;
	(void)a;
	struct random_state *s = state;
	return tsr_rng_below(&s->rng, s->ways);
}

const struct tsr_policy_ops tsr_policy_random = {
	.name = "random",
	.create = random_create,
	.destroy = random_destroy,
	.victim = random_victim,
	.on_hit = tsr_policy_ignore,
	.on_fill = tsr_policy_ignore,
};
