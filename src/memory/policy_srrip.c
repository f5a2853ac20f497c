/*
 * policy_srrip.c - static re-reference interval prediction, SRRIP-HP
 * (Jaleel et al., ISCA 2010; GSPC Section 1): every line has
 * an M-bit RRPV; a fill gets 2^M-2 ("long" re-reference interval), a hit
 * 0; the victim is the lowest way at 2^M-1, after aging the set if no
 * line is there (memory/rrip.h). Lines that are never re-used thus leave
 * before lines that were, which makes SRRIP resistant to scans.
 *
 * Parameters: bits (M, default 2, from 1 to 8; M = 1 is NRU).
 */
#include <stdlib.h>

#include "memory/policy.h"
#include "memory/rrip.h"

struct srrip_state {
	struct tsr_rrip r;  /* first: the shared hooks see it */
	uint8_t mem[];      /* sets x ways RRPVs */
};

static enum tsr_status srrip_create(const struct tsr_policy_config *cfg,
				    void **state, struct tsr_error *err)
{
	static const char *const keys[] = {"bits", NULL};
	static const uint64_t min[] = {TSR_RRIP_BITS_MIN};
	static const uint64_t max[] = {TSR_RRIP_BITS_MAX};
	uint64_t vals[] = {2};
	TSR_TRY(tsr_policy_params_parse(cfg, "srrip", keys, min, max, vals, err));
	struct srrip_state *s = calloc(1, sizeof(*s) + (size_t)cfg->sets * cfg->ways);
	if (!s)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for SRRIP state");
	s->r.ways = cfg->ways;
	s->r.distant = tsr_rrip_distant(vals[0]);
	s->r.rrpv = s->mem;
	*state = s;
	return TSR_OK;
}

static void srrip_destroy(void *state)
{
	free(state);
}

static void srrip_fill(void *state, uint32_t set, uint32_t way,
		       const struct tsr_line *set_lines,
		       const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct srrip_state *s = state;
	s->r.rrpv[(size_t)set * s->r.ways + way] = (uint8_t)(s->r.distant - 1);
}

const struct tsr_policy_ops tsr_policy_srrip = {
	.name = "srrip",
	.create = srrip_create,
	.destroy = srrip_destroy,
	.victim = tsr_rrip_policy_victim,
	.on_hit = tsr_rrip_policy_hit,
	.on_fill = srrip_fill,
};
