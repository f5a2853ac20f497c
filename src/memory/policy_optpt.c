/*
 * policy_optpt.c - OPTPT, optimal replacement with bypass ("pass-through",
 * McFarling 1989), as the boustrophedonic paper II-D describes it: on a
 * miss in a full set, if the incoming line's next use is later than that
 * of every resident line (or it is never used again), the fill is
 * bypassed; otherwise the resident line used farthest in the future is
 * evicted, as in OPT. Fills into free ways are never bypassed.
 *
 * Offline: it reads tsr_access.next_use (cachesim/linetrace.h).
 */
#include "memory/belady.h"

static enum tsr_status optpt_create(const struct tsr_policy_config *cfg,
				    void **state, struct tsr_error *err)
{
	return tsr_belady_policy_create(cfg, "optpt", state, err);
}

static uint32_t optpt_victim(void *state, uint32_t set,
			     const struct tsr_line *set_lines,
			     const struct tsr_access *a)
{
	(void)set_lines;
	uint32_t way = tsr_belady_farthest(state, set);
	if (a->next_use >= tsr_belady_next_use(state, set, way))
		return TSR_POLICY_BYPASS;
	return way;
}

const struct tsr_policy_ops tsr_policy_optpt = {
	.name = "optpt",
	.offline = 1,
	.create = optpt_create,
	.destroy = tsr_belady_policy_destroy,
	.victim = optpt_victim,
	.on_hit = tsr_belady_policy_touch,
	.on_fill = tsr_belady_policy_touch,
};
