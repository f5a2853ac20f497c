/*
 * policy_mru.c - most-recently-used replacement: each line keeps the stamp
 * of its last access, as in LRU; the victim is the line with the newest
 * stamp (memory/recency.h). The classic foil of LRU: on a cyclic loop
 * larger than a set it keeps all but one line of the loop, and behaves
 * like OPT on a circular trace (boustrophedonic III-C). No parameters.
 * Offers the pinned-line hooks (policy.h version 2), so TCOR's Attribute
 * Cache runs it among its unlocked lines.
 */
#include "memory/recency.h"

static enum tsr_status mru_create(const struct tsr_policy_config *cfg,
				  void **state, struct tsr_error *err)
{
	return tsr_recency_create(cfg, "mru", state, err);
}

const struct tsr_policy_ops tsr_policy_mru = {
	.name = "mru",
	.create = mru_create,
	.destroy = tsr_recency_destroy,
	.victim = tsr_recency_victim_newest,
	.on_hit = tsr_recency_touch,
	.on_fill = tsr_recency_touch,
	.victim_among = tsr_recency_victim_newest_among,
	.rank = tsr_recency_rank_new,
};
