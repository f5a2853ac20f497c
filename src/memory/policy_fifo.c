/*
 * policy_fifo.c - first-in, first-out replacement: each line keeps the
 * stamp of its fill, which hits leave alone; the victim is the line filled
 * longest ago (memory/recency.h). No parameters.
 */
#include "memory/recency.h"

static enum tsr_status fifo_create(const struct tsr_policy_config *cfg,
				   void **state, struct tsr_error *err)
{
	return tsr_recency_create(cfg, "fifo", state, err);
}

const struct tsr_policy_ops tsr_policy_fifo = {
	.name = "fifo",
	.create = fifo_create,
	.destroy = tsr_recency_destroy,
	.victim = tsr_recency_victim_oldest,
	.on_hit = tsr_policy_ignore,
	.on_fill = tsr_recency_touch,
};
