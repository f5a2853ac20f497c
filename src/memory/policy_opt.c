/*
 * policy_opt.c - Belady's OPT (MIN; Mattson et al. 1970), as the
 * boustrophedonic paper II-D and TCOR V-A use it: on a miss in a full set,
 * evict the line whose next use is farthest in the future (a line never
 * used again first; lowest way among equals). Every miss fills.
 *
 * Offline: it reads tsr_access.next_use, which only trace replay knows
 * (cachesim/linetrace.h). State and heap: memory/belady.h.
 */
#include "memory/belady.h"

static enum tsr_status opt_create(const struct tsr_policy_config *cfg,
				  void **state, struct tsr_error *err)
{
	return tsr_belady_policy_create(cfg, "opt", state, err);
}

static uint32_t opt_victim(void *state, uint32_t set,
			   const struct tsr_line *set_lines,
			   const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	return tsr_belady_farthest(state, set);
}

const struct tsr_policy_ops tsr_policy_opt = {
	.name = "opt",
	.offline = 1,
	.create = opt_create,
	.destroy = tsr_belady_policy_destroy,
	.victim = opt_victim,
	.on_hit = tsr_belady_policy_touch,
	.on_fill = tsr_belady_policy_touch,
};
