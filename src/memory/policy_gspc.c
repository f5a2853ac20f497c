/*
 * policy_gspc.c - GSPC, graphics stream-aware probabilistic caching
 * (Gaur et al., MICRO 2013, Section 3, Table 5 on top of Tables 3 and 4):
 * GSPZTC+TSE plus per-bank 8-bit counters PROD (render-target fills into
 * sample sets) and CONS (texture hits on render-target blocks in sample
 * sets), halved with the FILL and HIT counters. A render-target fill into
 * another set gets RRPV 3 if PROD > 16.CONS, 2 if PROD > 8.CONS, else 0;
 * a render-target hit (blending) RRPV 0; both set the state to 11. The
 * state machine lives in memory/gspc.h. With the uncached displayable
 * color option, "gspc+ucd" (policy.h), is the paper's GSPC+UCD.
 *
 * Parameters: t (default 8, 1..255), bank_bytes (default 2097152), as
 * policy_gspztc.c.
 */
#include "memory/gspc.h"

static enum tsr_status gspc_create(const struct tsr_policy_config *cfg,
				   void **state, struct tsr_error *err)
{
	return tsr_gspc_create(cfg, TSR_GSPC_LEVEL_GSPC, "gspc", state, err);
}

const struct tsr_policy_ops tsr_policy_gspc = {
	.name = "gspc",
	.create = gspc_create,
	.destroy = tsr_gspc_destroy,
	.victim = tsr_rrip_policy_victim,
	.on_hit = tsr_gspc_policy_hit,
	.on_fill = tsr_gspc_policy_fill,
};
