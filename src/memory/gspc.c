/*
 * gspc.c - the state machine of GSPZTC, GSPZTC+TSE and GSPC (GSPC paper
 * Section 3, Tables 2-5); see memory/gspc.h.
 */
#include <stdlib.h>

#include "memory/gspc.h"

enum tsr_status tsr_gspc_create(const struct tsr_policy_config *cfg,
				enum tsr_gspc_level level, const char *name,
				void **state, struct tsr_error *err)
{
	enum { T, BANK_BYTES };
	static const char *const keys[] = {"t", "bank_bytes", NULL};
	static const uint64_t min[] = {1, 1};
	static const uint64_t max[] = {255, UINT64_C(1) << 40};
	uint64_t vals[] = {TSR_GSPC_T_DEFAULT, TSR_GSPC_BANK_BYTES_DEFAULT};
	TSR_TRY(tsr_policy_params_parse(cfg, name, keys, min, max, vals, err));
	uint64_t size = (uint64_t)cfg->sets * cfg->ways * cfg->line_bytes;
	uint64_t banks = size / vals[BANK_BYTES];
	if (banks < 1)
		banks = 1;
	if (banks > cfg->sets)
		banks = cfg->sets;
	size_t lines = (size_t)cfg->sets * cfg->ways;
	struct tsr_gspc *g = calloc(1, sizeof(*g));
	if (g) {
		g->r.rrpv = calloc(lines ? lines : 1, 2);
		g->bank = calloc((size_t)banks, sizeof(*g->bank));
	}
	if (!g || !g->r.rrpv || !g->bank) {
		tsr_gspc_destroy(g);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for %s state", name);
	}
	g->state = g->r.rrpv + lines;
	g->r.ways = cfg->ways;
	g->r.distant = tsr_rrip_distant(2);
	g->level = level;
	g->t = (uint32_t)vals[T];
	g->banks = (uint32_t)banks;
	*state = g;
	return TSR_OK;
}

void tsr_gspc_destroy(void *state)
{
	struct tsr_gspc *g = state;
	if (!g)
		return;
	free(g->r.rrpv);
	free(g->bank);
	free(g);
}

/* An 8-bit saturating increment. */
static void inc8(uint8_t *c)
{
	if (*c < UINT8_MAX)
		(*c)++;
}

/* ACC(ALL)++; at saturation every FILL/HIT/PROD/CONS is halved (Section 3). */
static void count_access(struct tsr_gspc_bank *b)
{
	if (++b->acc < TSR_GSPC_ACC_MAX)
		return;
	b->fill_z >>= 1;
	b->hit_z >>= 1;
	for (int e = 0; e < 2; e++) {
		b->fill_e[e] >>= 1;
		b->hit_e[e] >>= 1;
	}
	b->prod >>= 1;
	b->cons >>= 1;
	b->acc = 0;
	b->halvings++;
}

/* FILL > t.HIT: reuse probability below 1/(t+1), insert at RRPV 3. */
static int unlikely_reuse(const struct tsr_gspc *g, uint8_t fill, uint8_t hit)
{
	return (uint32_t)fill > g->t * (uint32_t)hit;
}

/* Sample sets: SRRIP RRPVs, counters of Tables 3-5, state bits of Tables 4-5. */
static void sample_access(struct tsr_gspc *g, struct tsr_gspc_bank *b, uint8_t *rrpv,
			  uint8_t *st, enum tsr_gspc_class k, int fill)
{
	*rrpv = fill ? 2 : 0;
	switch (k) {
	case TSR_GSPC_Z:
		if (fill) {
			inc8(&b->fill_z);
			*st = TSR_GSPC_STATE_E0;
		} else {
			inc8(&b->hit_z);
		}
		break;
	case TSR_GSPC_TEX:
		if (fill) {                             /* TEX fill */
			inc8(&b->fill_e[0]);
			*st = TSR_GSPC_STATE_E0;
		} else if (*st == TSR_GSPC_STATE_RT) {  /* RT -> TEX hit */
			inc8(&b->fill_e[0]);
			if (g->level >= TSR_GSPC_LEVEL_GSPC)
				inc8(&b->cons);
			*st = TSR_GSPC_STATE_E0;
		} else if (g->level == TSR_GSPC_LEVEL_GSPZTC) {  /* TEX hit, RT bit reset */
			inc8(&b->hit_e[0]);
		} else if (*st == TSR_GSPC_STATE_E0) {  /* Table 4 TEX hit */
			inc8(&b->hit_e[0]);
			inc8(&b->fill_e[1]);
			*st = TSR_GSPC_STATE_E1;
		} else if (*st == TSR_GSPC_STATE_E1) {
			inc8(&b->hit_e[1]);
			*st = TSR_GSPC_STATE_E2;
		} else {
			*st = TSR_GSPC_STATE_E2;
		}
		break;
	case TSR_GSPC_RT:
		if (fill && g->level >= TSR_GSPC_LEVEL_GSPC)
			inc8(&b->prod);               /* Table 5: RT fill, PROD++ */
		*st = TSR_GSPC_STATE_RT;
		break;
	default:
		if (fill)
			*st = TSR_GSPC_STATE_E0;
		break;
	}
	count_access(b);
}

/* Non-sample sets: insertion and promotion by the bank's counters. */
static void follower_access(const struct tsr_gspc *g, const struct tsr_gspc_bank *b,
			    uint8_t *rrpv, uint8_t *st, enum tsr_gspc_class k, int fill)
{
	switch (k) {
	case TSR_GSPC_Z:
		if (fill) {
			*rrpv = unlikely_reuse(g, b->fill_z, b->hit_z) ? 3 : 2;
			*st = TSR_GSPC_STATE_E0;
		} else {
			*rrpv = 0;
		}
		break;
	case TSR_GSPC_TEX:
		if (fill || *st == TSR_GSPC_STATE_RT) {  /* TEX fill, RT -> TEX hit */
			if (fill || g->level > TSR_GSPC_LEVEL_GSPZTC)
				*rrpv = unlikely_reuse(g, b->fill_e[0], b->hit_e[0]) ? 3 : 0;
			else
				*rrpv = 0;             /* GSPZTC: any hit -> 0 */
			*st = TSR_GSPC_STATE_E0;
		} else if (g->level > TSR_GSPC_LEVEL_GSPZTC && *st == TSR_GSPC_STATE_E0) {
			*rrpv = unlikely_reuse(g, b->fill_e[1], b->hit_e[1]) ? 3 : 0;
			*st = TSR_GSPC_STATE_E1;
		} else {
			*rrpv = 0;
			if (g->level > TSR_GSPC_LEVEL_GSPZTC)
				*st = TSR_GSPC_STATE_E2;
		}
		break;
	case TSR_GSPC_RT:
		if (fill && g->level >= TSR_GSPC_LEVEL_GSPC) {
			uint32_t prod = b->prod, cons = b->cons;
			if (prod > TSR_GSPC_PROD_DISTANT * cons)
				*rrpv = 3;
			else if (prod > TSR_GSPC_PROD_LONG * cons)
				*rrpv = 2;
			else
				*rrpv = 0;
		} else {
			*rrpv = 0;  /* Table 3: RT fill 0; any hit 0 */
		}
		*st = TSR_GSPC_STATE_RT;
		break;
	default:
		if (fill) {
			*rrpv = 2;
			*st = TSR_GSPC_STATE_E0;
		} else {
			*rrpv = 0;
		}
		break;
	}
}

void tsr_gspc_access(struct tsr_gspc *g, uint32_t set, uint32_t way,
		     enum tsr_gspc_class k, int fill)
{
	size_t i = (size_t)set * g->r.ways + way;
	struct tsr_gspc_bank *b = &g->bank[tsr_gspc_bank_of(g, set)];
	if (tsr_gspc_is_sample(set))
		sample_access(g, b, &g->r.rrpv[i], &g->state[i], k, fill);
	else
		follower_access(g, b, &g->r.rrpv[i], &g->state[i], k, fill);
}

void tsr_gspc_policy_hit(void *state, uint32_t set, uint32_t way,
			 const struct tsr_line *set_lines, const struct tsr_access *a)
{
	(void)set_lines;
	tsr_gspc_access(state, set, way, tsr_gspc_class_of(a->stream), 0);
}

void tsr_gspc_policy_fill(void *state, uint32_t set, uint32_t way,
			  const struct tsr_line *set_lines, const struct tsr_access *a)
{
	(void)set_lines;
	tsr_gspc_access(state, set, way, tsr_gspc_class_of(a->stream), 1);
}
