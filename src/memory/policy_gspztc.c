/*
 * policy_gspztc.c - GSPZTC, graphics stream-aware probabilistic Z and
 * texture caching (Gaur et al., MICRO 2013, Section 3, Tables 2 and 3).
 * Sample sets (16 of every 1024) run 2-bit SRRIP and count, per bank,
 * Z fills and hits (FILL(Z), HIT(Z)), texture fills and render-target
 * consumptions (FILL(TEX)) and texture hits on non-render-target blocks
 * (HIT(TEX)); the 7-bit ACC(ALL) halves them when it saturates. In the
 * other sets a Z fill gets RRPV 3 if FILL(Z) > t.HIT(Z), else 2; a texture
 * fill RRPV 3 if FILL(TEX) > t.HIT(TEX), else 0; a render-target fill 0;
 * any other fill 2; every hit 0. The RT bit is set by a render-target
 * access and reset by a texture hit or the eviction. The state machine
 * lives in memory/gspc.h (stream classes, sample sets, banks).
 *
 * Parameters: t (default 8, 1..255; Section 5.1, Fig. 11), bank_bytes
 * (default 2097152: banks = cache size / bank_bytes, set s in bank
 * s mod banks; Section 4).
 */
#include "memory/gspc.h"

static enum tsr_status gspztc_create(const struct tsr_policy_config *cfg,
				     void **state, struct tsr_error *err)
{
	return tsr_gspc_create(cfg, TSR_GSPC_LEVEL_GSPZTC, "gspztc", state, err);
}

const struct tsr_policy_ops tsr_policy_gspztc = {
	.name = "gspztc",
	.create = gspztc_create,
	.destroy = tsr_gspc_destroy,
	.victim = tsr_rrip_policy_victim,
	.on_hit = tsr_gspc_policy_hit,
	.on_fill = tsr_gspc_policy_fill,
};
