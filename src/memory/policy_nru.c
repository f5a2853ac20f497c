/*
 * policy_nru.c - not-recently-used replacement, the single-bit baseline of
 * GSPC (Section 1 and Figure 1, Table 6): one bit per line, 1 meaning "not
 * recently used". A hit or a fill clears it; the victim is the lowest way
 * whose bit is set; if none is, every bit of the set is set and way 0 is
 * taken. That is RRIP with M = 1 and fills at RRPV 0, so NRU runs on the
 * shared RRPV helpers (memory/rrip.h). No parameters.
 */
#include <stdlib.h>

#include "memory/policy.h"
#include "memory/rrip.h"

struct nru_state {
	uint32_t ways;
	uint8_t bit[];  /* sets x ways: 1 = not recently used */
};

static enum tsr_status nru_create(const struct tsr_policy_config *cfg,
				  void **state, struct tsr_error *err)
{
	static const char *const keys[] = {NULL};
	TSR_TRY(tsr_policy_params_parse(cfg, "nru", keys, NULL, NULL, NULL, err));
	struct nru_state *s = calloc(1, sizeof(*s) + (size_t)cfg->sets * cfg->ways);
	if (!s)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for NRU state");
	s->ways = cfg->ways;
	*state = s;
	return TSR_OK;
}

static void nru_destroy(void *state)
{
	free(state);
}

static uint32_t nru_victim(void *state, uint32_t set,
			   const struct tsr_line *set_lines,
			   const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct nru_state *s = state;
	return tsr_rrip_victim(&s->bit[(size_t)set * s->ways], s->ways, 1);
}

static void nru_touch(void *state, uint32_t set, uint32_t way,
		      const struct tsr_line *set_lines,
		      const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct nru_state *s = state;
	s->bit[(size_t)set * s->ways + way] = 0;
}

const struct tsr_policy_ops tsr_policy_nru = {
	.name = "nru",
	.create = nru_create,
	.destroy = nru_destroy,
	.victim = nru_victim,
	.on_hit = nru_touch,
	.on_fill = nru_touch,
};
