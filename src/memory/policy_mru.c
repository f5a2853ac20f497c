/*
 * policy_mru.c - most-recently-used replacement: each line keeps the stamp
 * of its last access, as in LRU; the victim is the line with the newest
 * stamp (stamps are unique, so there are no ties). The classic foil of
 * LRU: on a cyclic loop larger than a set it keeps all but one line of
 * the loop (libCacheSim MRU). No parameters.
 */
#include <stdlib.h>

#include "memory/policy.h"

struct mru_state {
	uint32_t ways;
	uint64_t clock;
	uint64_t stamp[];  /* sets x ways */
};

static enum tsr_status mru_create(const struct tsr_policy_config *cfg,
				  void **state, struct tsr_error *err)
{
	static const char *const keys[] = {NULL};
	TSR_TRY(tsr_policy_params_parse(cfg, "mru", keys, NULL, NULL, NULL, err));
	struct mru_state *s = calloc(1, sizeof(*s) + (size_t)cfg->sets * cfg->ways * sizeof(uint64_t));
	if (!s)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for MRU state");
	s->ways = cfg->ways;
	*state = s;
	return TSR_OK;
}

static void mru_destroy(void *state)
{
	free(state);
}

static uint32_t mru_victim(void *state, uint32_t set,
			   const struct tsr_line *set_lines,
			   const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct mru_state *s = state;
	const uint64_t *st = &s->stamp[(size_t)set * s->ways];
	uint32_t best = 0;
	for (uint32_t w = 1; w < s->ways; w++)
		if (st[w] > st[best])
			best = w;
	return best;
}

static void mru_touch(void *state, uint32_t set, uint32_t way,
		      const struct tsr_line *set_lines,
		      const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct mru_state *s = state;
	s->stamp[(size_t)set * s->ways + way] = ++s->clock;
}

const struct tsr_policy_ops tsr_policy_mru = {
	.name = "mru",
	.create = mru_create,
	.destroy = mru_destroy,
	.victim = mru_victim,
	.on_hit = mru_touch,
	.on_fill = mru_touch,
};
