/*
 * policy_fifo.c - first-in, first-out replacement: each line keeps the
 * stamp of its fill, which hits leave alone; the victim is the line filled
 * longest ago (stamps are unique, so there are no ties). libCacheSim
 * FIFO. No parameters.
 */
#include <stdlib.h>

#include "memory/policy.h"

struct fifo_state {
	uint32_t ways;
	uint64_t clock;
	uint64_t stamp[];  /* sets x ways: fill order */
};

static enum tsr_status fifo_create(const struct tsr_policy_config *cfg,
				   void **state, struct tsr_error *err)
{
	static const char *const keys[] = {NULL};
	TSR_TRY(tsr_policy_params_parse(cfg, "fifo", keys, NULL, NULL, NULL, err));
	struct fifo_state *s = calloc(1, sizeof(*s) + (size_t)cfg->sets * cfg->ways * sizeof(uint64_t));
	if (!s)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for FIFO state");
	s->ways = cfg->ways;
	*state = s;
	return TSR_OK;
}

static void fifo_destroy(void *state)
{
	free(state);
}

static uint32_t fifo_victim(void *state, uint32_t set,
			    const struct tsr_line *set_lines,
			    const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct fifo_state *s = state;
	const uint64_t *st = &s->stamp[(size_t)set * s->ways];
	uint32_t best = 0;
	for (uint32_t w = 1; w < s->ways; w++)
		if (st[w] < st[best])
			best = w;
	return best;
}

static void fifo_hit(void *state, uint32_t set, uint32_t way,
		     const struct tsr_line *set_lines,
		     const struct tsr_access *a)
{
	(void)state;
	(void)set;
	(void)way;
	(void)set_lines;
	(void)a;
}

static void fifo_fill(void *state, uint32_t set, uint32_t way,
		      const struct tsr_line *set_lines,
		      const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct fifo_state *s = state;
	s->stamp[(size_t)set * s->ways + way] = ++s->clock;
}

const struct tsr_policy_ops tsr_policy_fifo = {
	.name = "fifo",
	.create = fifo_create,
	.destroy = fifo_destroy,
	.victim = fifo_victim,
	.on_hit = fifo_hit,
	.on_fill = fifo_fill,
};
