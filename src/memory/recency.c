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
	if (cfg->ways > TSR_RECENCY_LIST_MIN_WAYS) {
		size_t lines = (size_t)cfg->sets * cfg->ways;
		r->link = malloc(lines * 2 * sizeof(*r->link));
		r->ends = malloc((size_t)cfg->sets * 2 * sizeof(*r->ends));
		if (!r->link || !r->ends) {
			tsr_recency_destroy(r);
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for %s state", name);
		}
		for (size_t i = 0; i < (size_t)cfg->sets * 2; i++)
			r->ends[i] = TSR_RECENCY_NONE;
	}
	*state = r;
	return TSR_OK;
}

void tsr_recency_destroy(void *state)
{
	struct tsr_recency *r = state;
	if (r) {
		free(r->link);
		free(r->ends);
	}
	free(r);
}

/* Moves `way` (stamped before iff its stamp is non-zero) to its set's list tail. */
static void list_touch(struct tsr_recency *r, uint32_t set, uint32_t way, int linked)
{
	uint32_t *link = &r->link[(size_t)set * r->ways * 2];
	uint32_t *ends = &r->ends[(size_t)set * 2];
	if (linked) {
		if (ends[1] == way)
			return;  /* already the newest */
		uint32_t prev = link[2 * way], next = link[2 * way + 1];
		/* not the tail, so next is a way */
		link[2 * next] = prev;
		if (prev == TSR_RECENCY_NONE)
			ends[0] = next;
		else
			link[2 * prev + 1] = next;
	}
	link[2 * way] = ends[1];
	link[2 * way + 1] = TSR_RECENCY_NONE;
	if (ends[1] == TSR_RECENCY_NONE)
		ends[0] = way;
	else
		link[2 * ends[1] + 1] = way;
	ends[1] = way;
}

void tsr_recency_touch(void *state, uint32_t set, uint32_t way,
		       const struct tsr_line *set_lines, const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct tsr_recency *r = state;
	uint64_t *st = &tsr_recency_set(r, set)[way];
	if (r->link)
		list_touch(r, set, way, *st != 0);
	*st = ++r->clock;
}

uint32_t tsr_recency_victim_oldest(void *state, uint32_t set,
				   const struct tsr_line *set_lines,
				   const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct tsr_recency *r = state;
	if (r->link && r->ends[(size_t)set * 2] != TSR_RECENCY_NONE)
		return r->ends[(size_t)set * 2];
	return tsr_recency_oldest(tsr_recency_set(r, set), r->ways);
}

uint32_t tsr_recency_victim_newest(void *state, uint32_t set,
				   const struct tsr_line *set_lines,
				   const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct tsr_recency *r = state;
	if (r->link && r->ends[(size_t)set * 2 + 1] != TSR_RECENCY_NONE)
		return r->ends[(size_t)set * 2 + 1];
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
