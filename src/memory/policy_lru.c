/*
 * policy_lru.c - least-recently-used replacement: each line keeps the
 * stamp of its last access; the victim is the line with the oldest stamp
 * (memory/recency.h). Offers the pinned-line hooks (policy.h version 2),
 * so TCOR's Attribute Cache runs it among its unlocked lines. No parameters.
 */
#include "memory/recency.h"

static enum tsr_status lru_create(const struct tsr_policy_config *cfg,
				  void **state, struct tsr_error *err)
{
	return tsr_recency_create(cfg, "lru", state, err);
}

const struct tsr_policy_ops tsr_policy_lru = {
	.name = "lru",
	.create = lru_create,
	.destroy = tsr_recency_destroy,
	.victim = tsr_recency_victim_oldest,
	.on_hit = tsr_recency_touch,
	.on_fill = tsr_recency_touch,
	.victim_among = tsr_recency_victim_oldest_among,
	.rank = tsr_recency_rank_old,
};
