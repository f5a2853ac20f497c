/*
 * policy_gspztc_tse.c - GSPZTC+TSE, GSPZTC with texture sampler epochs
 * (Gaur et al., MICRO 2013, Section 3, Fig. 10, Table 4 on top of Table
 * 3). Two state bits per line: E0 (00), E1 (01), E>=2 (10), render target
 * (11). FILL(TEX)/HIT(TEX) become FILL(E)/HIT(E) for epochs E = 0, 1:
 * in the sample sets a texture fill or a render-target-to-texture hit
 * counts FILL(0) and enters E0; a texture hit in E0 counts HIT(0) and
 * FILL(1) and enters E1; in E1 counts HIT(1) and enters E>=2. In the other
 * sets a block entering E0 gets RRPV 3 if FILL(0) > t.HIT(0), else 0; one
 * entering E1 RRPV 3 if FILL(1) > t.HIT(1), else 0; any other texture hit
 * 0 (state E>=2). Z, render-target and other accesses as in GSPZTC. The
 * state machine lives in memory/gspc.h.
 *
 * Parameters: t (default 8, 1..255), bank_bytes (default 2097152), as
 * policy_gspztc.c.
 */
#include "memory/gspc.h"

static enum tsr_status gspztc_tse_create(const struct tsr_policy_config *cfg,
					 void **state, struct tsr_error *err)
{
	return tsr_gspc_create(cfg, TSR_GSPC_LEVEL_TSE, "gspztc+tse", state, err);
}

const struct tsr_policy_ops tsr_policy_gspztc_tse = {
	.name = "gspztc+tse",
	.create = gspztc_tse_create,
	.destroy = tsr_gspc_destroy,
	.victim = tsr_rrip_policy_victim,
	.on_hit = tsr_gspc_policy_hit,
	.on_fill = tsr_gspc_policy_fill,
};
