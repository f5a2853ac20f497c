#include "memory/recency.h"

#include <stdlib.h>

enum tsr_status tsr_recency_create(const struct tsr_policy_config *cfg, const char *name,
				   void **state, struct tsr_error *err)
{
	static const char *const keys[] = {NULL};
	TSR_TRY(tsr_policy_params_parse(cfg, name, keys, NULL, NULL, NULL, err));
	struct tsr_recency *r = calloc(1, sizeof(*r) + (size_t)cfg->sets * cfg->ways * sizeof(uint64_t));
	if (!r)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for %s state", name);
	r->ways = cfg->ways;
	*state = r;
	return TSR_OK;
}

void tsr_recency_destroy(void *state)
{
	free(state);
}

void tsr_recency_touch(void *state, uint32_t set, uint32_t way,
		       const struct tsr_line *set_lines, const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct tsr_recency *r = state;
	tsr_recency_set(r, set)[way] = ++r->clock;
}

uint32_t tsr_recency_victim_oldest(void *state, uint32_t set,
				   const struct tsr_line *set_lines,
				   const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct tsr_recency *r = state;
	return tsr_recency_oldest(tsr_recency_set(r, set), r->ways);
}

uint32_t tsr_recency_victim_newest(void *state, uint32_t set,
				   const struct tsr_line *set_lines,
				   const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct tsr_recency *r = state;
	return tsr_recency_newest(tsr_recency_set(r, set), r->ways);
}

uint32_t tsr_recency_victim_oldest_among(void *state, uint32_t set,
					 const struct tsr_line *set_lines,
					 const struct tsr_access *a, const uint8_t *eligible)
{
	(void)set_lines;
	(void)a;
	struct tsr_recency *r = state;
	return tsr_recency_oldest_among(tsr_recency_set(r, set), r->ways, eligible);
}

uint32_t tsr_recency_victim_newest_among(void *state, uint32_t set,
					 const struct tsr_line *set_lines,
					 const struct tsr_access *a, const uint8_t *eligible)
{
	(void)set_lines;
	(void)a;
	struct tsr_recency *r = state;
	return tsr_recency_newest_among(tsr_recency_set(r, set), r->ways, eligible);
}

uint64_t tsr_recency_rank_old(const void *state, uint32_t set, uint32_t way)
{
	const struct tsr_recency *r = state;
	return UINT64_MAX - r->stamp[(uint64_t)set * r->ways + way];
}

uint64_t tsr_recency_rank_new(const void *state, uint32_t set, uint32_t way)
{
	const struct tsr_recency *r = state;
	return r->stamp[(uint64_t)set * r->ways + way];
}
