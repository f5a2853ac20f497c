/*
 * 061-memory-gspc-policies.c - the graphics stream-aware LLC policies of
 * GSPC (Gaur et al., MICRO 2013, Section 3, Tables 2-6): GS-DRRIP,
 * GSPZTC, GSPZTC+TSE, GSPC (memory/gspc.h, memory/policy_gs_drrip.c,
 * policy_gspztc.c, policy_gspztc_tse.c, policy_gspc.c) and the uncached
 * displayable color option "+ucd" (memory/policy.h, memory/cache.c).
 *
 *   - sample sets (16 of every 1024), banks (2 MB) and the stream classes;
 *   - Tables 3, 4 and 5 replayed event by event on hand-made sequences
 *     through the policy hooks (ChampSim style, no cache): the insertion
 *     and promotion RRPVs of sample and non-sample sets, every counter,
 *     the threshold t at its boundary, halving when ACC(ALL) saturates,
 *     the state bits and epoch transitions, per-bank counters;
 *   - GS-DRRIP's per-stream set dueling;
 *   - UCD: no display-stream access is ever allocated, with any policy;
 *   - Belady's OPT (and OPTPT for the +ucd variants, which bypass) is
 *     never beaten, on an L2 trace recorded by a run and on synthetic
 *     multi-stream traces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachesim/linetrace.h"
#include "cachesim/replay.h"
#include "core/rng.h"
#include "memory/cache.h"
#include "memory/gspc.h"
#include "memory/policy.h"
#include "trace/trace.h"

#define LINE 64u

/* A sample set and a non-sample set of every cache below (1 bank). */
#define S 0u
#define N 1u

/* ---- helpers: drive the hooks with a stream, read a line's RRPV and state ---- */

struct rig {
	const struct tsr_policy_ops *ops;
	struct tsr_gspc *g;
	struct tsr_line lines[4];
};

static void rig_init(struct rig *r, const char *name, const char *params)
{
	memset(r, 0, sizeof(*r));
	/* 128 sets x 4 ways x 64 B = 32 KiB: one bank unless bank_bytes says less */
	r->g = tsr_test_policy_state(name, 128, 4, LINE, params, &r->ops);
	for (int w = 0; w < 4; w++)
		r->lines[w].valid = 1;
}

static void rig_release(struct rig *r)
{
	r->ops->destroy(r->g);
}

static void ev(struct rig *r, uint32_t set, uint32_t way, enum tsr_stream s, int fill)
{
	struct tsr_access a = {.addr = (uint64_t)set * LINE, .size = 4, .stream = (uint8_t)s,
			       .next_use = TSR_NEVER};
	if (fill)
		r->ops->on_fill(r->g, set, way, r->lines, &a);
	else
		r->ops->on_hit(r->g, set, way, r->lines, &a);
}

static unsigned rrpv(const struct rig *r, uint32_t set, uint32_t way)
{
	return r->g->r.rrpv[set * 4 + way];
}

static unsigned st(const struct rig *r, uint32_t set, uint32_t way)
{
	return r->g->state[set * 4 + way];
}

static struct tsr_gspc_bank *bank(struct rig *r, uint32_t set)
{
	return &r->g->bank[tsr_gspc_bank_of(r->g, set)];
}

#define FILL 1
#define HIT 0
#define ZS TSR_STREAM_Z
#define TEX TSR_STREAM_TEXTURE
#define RT TSR_STREAM_RENDER_TARGET
#define OTH TSR_STREAM_VERTEX

/* ---- structure ---- */

static void test_sample_sets_banks_classes(void **state)
{
	(void)state;
	/* 16 of every 1024 sets, spread over 16 residues (banks) */
	unsigned per_block = 0, residue[16] = {0};
	for (uint32_t set = 0; set < 8192; set++) {
		if (!tsr_gspc_is_sample(set))
			continue;
		if (set < 1024)
			per_block++;
		residue[set % 16]++;
	}
	assert_int_equal(per_block, 16);
	for (int i = 0; i < 16; i++)
		assert_int_equal(residue[i], 8);  /* 128 samples in 8192 sets */
	assert_true(tsr_gspc_is_sample(0));
	assert_true(tsr_gspc_is_sample(65));
	assert_false(tsr_gspc_is_sample(1));
	assert_false(tsr_gspc_is_sample(64));

	/* the paper's LLC: 8 MB, 16 ways, 64 B lines, 2 MB banks -> 4 banks */
	const struct tsr_policy_ops *ops;
	struct tsr_gspc *g = tsr_test_policy_state("gspc", 8192, 16, LINE, NULL, &ops);
	assert_int_equal(g->banks, 4);
	assert_int_equal(g->t, 8);
	assert_int_equal(tsr_gspc_bank_of(g, 4097), 1);
	ops->destroy(g);
	g = tsr_test_policy_state("gspc", 16384, 16, LINE, "t=16", &ops);  /* 16 MB */
	assert_int_equal(g->banks, 8);
	assert_int_equal(g->t, 16);
	ops->destroy(g);
	g = tsr_test_policy_state("gspztc", 16, 4, LINE, NULL, &ops);  /* tiny: one bank */
	assert_int_equal(g->banks, 1);
	ops->destroy(g);

	/* the one mapping function */
	assert_int_equal(tsr_gspc_class_of(TSR_STREAM_Z), TSR_GSPC_Z);
	assert_int_equal(tsr_gspc_class_of(TSR_STREAM_TEXTURE), TSR_GSPC_TEX);
	assert_int_equal(tsr_gspc_class_of(TSR_STREAM_RENDER_TARGET), TSR_GSPC_RT);
	assert_int_equal(tsr_gspc_class_of(TSR_STREAM_DISPLAY), TSR_GSPC_RT);
	assert_int_equal(tsr_gspc_class_of(TSR_STREAM_COLOR), TSR_GSPC_RT);
	static const enum tsr_stream other[] = {TSR_STREAM_INDEX, TSR_STREAM_VERTEX,
						TSR_STREAM_PB_LISTS, TSR_STREAM_PB_ATTRIBUTES,
						TSR_STREAM_INSTRUCTION, TSR_STREAM_OTHER};
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		assert_int_equal(tsr_gspc_class_of((uint8_t)other[i]), TSR_GSPC_OTHER);

	/* names, the alias, parameters and their errors */
	assert_ptr_equal(tsr_policy_find("gs-drrip"), &tsr_policy_gs_drrip);
	assert_ptr_equal(tsr_policy_find("gspztc"), &tsr_policy_gspztc);
	assert_ptr_equal(tsr_policy_find("gspztc+tse"), &tsr_policy_gspztc_tse);
	assert_ptr_equal(tsr_policy_find("gspztc-tse"), &tsr_policy_gspztc_tse);
	assert_ptr_equal(tsr_policy_find("gspc:t=4"), &tsr_policy_gspc);
	struct tsr_cache_geometry geo = tsr_test_geometry(16, 4, LINE, "gspc:t=0");
	struct tsr_error err;
	memset(&err, 0, sizeof(err));
	assert_int_equal(tsr_cache_geometry_check(&geo, "caches.l2", &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "'t'"));
	geo = tsr_test_geometry(16, 4, LINE, "gspztc+tse:x=1");
	assert_int_equal(tsr_cache_geometry_check(&geo, "caches.l2", &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "valid: t, bank_bytes"));
	geo = tsr_test_geometry(16, 4, LINE, "gs-drrip:x=2");
	assert_int_equal(tsr_cache_geometry_check(&geo, "caches.l2", &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "psel_bits, throttle, seed, bits"));
	/* bits (Fig. 14's four-bit GS-DRRIP) within 1..8 */
	geo = tsr_test_geometry(16, 4, LINE, "gs-drrip:bits=9");
	assert_int_equal(tsr_cache_geometry_check(&geo, "caches.l2", &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "'bits'"));
	geo = tsr_test_geometry(16, 4, LINE, "gs-drrip:bits=4");
	assert_int_equal(tsr_cache_geometry_check(&geo, "caches.l2", &err), TSR_OK);
}

/* ---- Table 3: GSPZTC ---- */

static void test_gspztc_table3(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, "gspztc", NULL);
	struct tsr_gspc_bank *b = bank(&r, S);
	assert_ptr_equal(b, bank(&r, N));

	/* sample set: SRRIP RRPVs and the counters, event by event */
	ev(&r, S, 0, ZS, FILL);            /* Z fill: RRPV 2, FILL(Z)++, ACC++ */
	assert_int_equal(rrpv(&r, S, 0), 2);
	assert_int_equal(b->fill_z, 1);
	assert_int_equal(b->acc, 1);
	ev(&r, S, 0, ZS, HIT);             /* Z hit: RRPV 0, HIT(Z)++ */
	assert_int_equal(rrpv(&r, S, 0), 0);
	assert_int_equal(b->hit_z, 1);
	assert_int_equal(b->acc, 2);
	ev(&r, S, 1, TEX, FILL);           /* TEX fill: RRPV 2, FILL(TEX)++ */
	assert_int_equal(rrpv(&r, S, 1), 2);
	assert_int_equal(b->fill_e[0], 1);
	assert_int_equal(b->acc, 3);
	ev(&r, S, 2, RT, FILL);            /* RT fill = "other fill": RRPV 2, RT bit set */
	assert_int_equal(rrpv(&r, S, 2), 2);
	assert_int_equal(st(&r, S, 2), TSR_GSPC_STATE_RT);
	assert_int_equal(b->acc, 4);
	assert_int_equal(b->prod, 0);      /* no PROD before GSPC */
	ev(&r, S, 2, TEX, HIT);            /* RT -> TEX hit: RRPV 0, FILL(TEX)++, RT bit reset */
	assert_int_equal(rrpv(&r, S, 2), 0);
	assert_int_equal(b->fill_e[0], 2);
	assert_int_equal(b->hit_e[0], 0);
	assert_int_equal(st(&r, S, 2), TSR_GSPC_STATE_E0);
	assert_int_equal(b->acc, 5);
	ev(&r, S, 2, TEX, HIT);            /* TEX hit (RT bit reset): HIT(TEX)++ */
	assert_int_equal(b->hit_e[0], 1);
	assert_int_equal(b->fill_e[0], 2);
	assert_int_equal(b->acc, 6);
	ev(&r, S, 1, TEX, HIT);            /* GSPZTC keeps no epochs: every such hit counts */
	assert_int_equal(b->hit_e[0], 2);
	assert_int_equal(b->fill_e[1], 0);
	assert_int_equal(b->acc, 7);
	ev(&r, S, 3, OTH, FILL);           /* other fill: RRPV 2, ACC++ only */
	assert_int_equal(rrpv(&r, S, 3), 2);
	ev(&r, S, 3, OTH, HIT);            /* other hit: RRPV 0, ACC++ only */
	assert_int_equal(rrpv(&r, S, 3), 0);
	assert_int_equal(b->acc, 9);
	assert_int_equal(b->fill_z, 1);
	assert_int_equal(b->hit_z, 1);

	/* non-sample set: FILL(Z)=1, HIT(Z)=1, FILL(TEX)=2, HIT(TEX)=2 */
	ev(&r, N, 0, ZS, FILL);
	assert_int_equal(rrpv(&r, N, 0), 2);   /* 1 > 8.1 is false */
	ev(&r, N, 1, TEX, FILL);
	assert_int_equal(rrpv(&r, N, 1), 0);   /* 2 > 8.2 is false: RRPV 0 */
	ev(&r, N, 2, RT, FILL);
	assert_int_equal(rrpv(&r, N, 2), 0);   /* RT fill: 0 */
	ev(&r, N, 3, OTH, FILL);
	assert_int_equal(rrpv(&r, N, 3), 2);   /* other fill: 2 */
	assert_int_equal(b->acc, 9);           /* non-samples count nothing */
	for (int w = 0; w < 4; w++)
		r.g->r.rrpv[N * 4 + w] = 3;
	ev(&r, N, 0, ZS, HIT);
	ev(&r, N, 1, TEX, HIT);
	ev(&r, N, 2, TEX, HIT);                /* RT -> TEX: any hit 0, RT bit reset */
	ev(&r, N, 3, OTH, HIT);
	for (uint32_t w = 0; w < 4; w++)
		assert_int_equal(rrpv(&r, N, w), 0);
	assert_int_equal(st(&r, N, 2), TSR_GSPC_STATE_E0);
	assert_int_equal(b->acc, 9);

	/* the threshold at its boundary: FILL(Z) = 8.HIT(Z) -> 2, one more -> 3 */
	for (int i = 0; i < 7; i++)
		ev(&r, S, 0, ZS, FILL);
	assert_int_equal(b->fill_z, 8);
	ev(&r, N, 0, ZS, FILL);
	assert_int_equal(rrpv(&r, N, 0), 2);
	ev(&r, S, 0, ZS, FILL);
	ev(&r, N, 0, ZS, FILL);
	assert_int_equal(rrpv(&r, N, 0), 3);   /* 9 > 8.1 */
	/* texture: FILL(TEX) 17 > 8.HIT(TEX) 16 -> 3 */
	for (int i = 0; i < 15; i++)
		ev(&r, S, 1, TEX, FILL);
	assert_int_equal(b->fill_e[0], 17);
	ev(&r, N, 1, TEX, FILL);
	assert_int_equal(rrpv(&r, N, 1), 3);
	rig_release(&r);

	/* t is a parameter: with t=2, FILL(Z)=3 > 2.HIT(Z)=2 already gives 3 */
	rig_init(&r, "gspztc", "t=2");
	ev(&r, S, 0, ZS, FILL);
	ev(&r, S, 0, ZS, HIT);
	ev(&r, S, 0, ZS, FILL);
	ev(&r, N, 0, ZS, FILL);
	assert_int_equal(rrpv(&r, N, 0), 2);   /* 2 > 2 is false */
	ev(&r, S, 0, ZS, FILL);
	ev(&r, N, 0, ZS, FILL);
	assert_int_equal(rrpv(&r, N, 0), 3);
	rig_release(&r);
}

/* Halving when the 7-bit ACC(ALL) saturates; 8-bit counters saturate. */
static void test_halving_and_saturation(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, "gspc", NULL);
	struct tsr_gspc_bank *b = bank(&r, S);
	for (int i = 0; i < 100; i++)
		ev(&r, S, 0, ZS, FILL);
	for (int i = 0; i < 20; i++)
		ev(&r, S, 1, RT, FILL);            /* PROD 20 */
	ev(&r, S, 1, TEX, HIT);                    /* CONS 1, FILL(0) 1 */
	ev(&r, S, 1, TEX, HIT);                    /* HIT(0) 1, FILL(1) 1 */
	ev(&r, S, 1, TEX, HIT);                    /* HIT(1) 1 */
	for (int i = 0; i < 3; i++)
		ev(&r, S, 0, ZS, HIT);             /* HIT(Z) 3 */
	assert_int_equal(b->acc, 126);
	assert_int_equal(b->halvings, 0);
	ev(&r, S, 0, ZS, FILL);                    /* the 127th: FILL(Z) 101, then halve */
	assert_int_equal(b->acc, 0);
	assert_int_equal(b->halvings, 1);
	assert_int_equal(b->fill_z, 50);
	assert_int_equal(b->hit_z, 1);
	assert_int_equal(b->prod, 10);
	assert_int_equal(b->cons, 0);
	assert_int_equal(b->fill_e[0], 0);
	assert_int_equal(b->hit_e[0], 0);
	assert_int_equal(b->fill_e[1], 0);
	assert_int_equal(b->hit_e[1], 0);
	/* the next halving comes 127 sample accesses later */
	for (int i = 0; i < 126; i++)
		ev(&r, S, 3, OTH, HIT);
	assert_int_equal(b->halvings, 1);
	ev(&r, S, 3, OTH, HIT);
	assert_int_equal(b->halvings, 2);
	assert_int_equal(b->fill_z, 25);
	/* 8-bit counters saturate at 255 */
	b->fill_z = 255;
	b->prod = 255;
	ev(&r, S, 0, ZS, FILL);
	ev(&r, S, 1, RT, FILL);
	assert_int_equal(b->fill_z, 255);
	assert_int_equal(b->prod, 255);
	rig_release(&r);
}

/* Counters are per bank: 2 banks of 16 KiB, set s in bank s mod 2. */
static void test_per_bank_counters(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, "gspztc", "bank_bytes=16384");
	assert_int_equal(r.g->banks, 2);
	/* samples 0 (bank 0) and 65 (bank 1); non-samples 2 (bank 0), 3 (bank 1) */
	for (int i = 0; i < 9; i++)
		ev(&r, 65, 0, ZS, FILL);
	assert_int_equal(bank(&r, 65)->fill_z, 9);
	assert_int_equal(bank(&r, 0)->fill_z, 0);
	ev(&r, 3, 0, ZS, FILL);
	assert_int_equal(rrpv(&r, 3, 0), 3);   /* bank 1: 9 > 8.0 */
	ev(&r, 2, 0, ZS, FILL);
	assert_int_equal(rrpv(&r, 2, 0), 2);   /* bank 0: 0 > 0 is false */
	rig_release(&r);
}

/* ---- Table 4: GSPZTC+TSE ---- */

static void test_gspztc_tse_table4(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, "gspztc+tse", NULL);
	struct tsr_gspc_bank *b = bank(&r, S);

	/* sample set: state transitions of Fig. 10 and FILL(E)/HIT(E) */
	ev(&r, S, 0, TEX, FILL);           /* TEX fill: FILL(0)++, state 00 */
	assert_int_equal(st(&r, S, 0), TSR_GSPC_STATE_E0);
	assert_int_equal(b->fill_e[0], 1);
	assert_int_equal(rrpv(&r, S, 0), 2);
	ev(&r, S, 0, TEX, HIT);            /* 00: HIT(0)++, FILL(1)++, state 01 */
	assert_int_equal(st(&r, S, 0), TSR_GSPC_STATE_E1);
	assert_int_equal(b->hit_e[0], 1);
	assert_int_equal(b->fill_e[1], 1);
	assert_int_equal(rrpv(&r, S, 0), 0);
	ev(&r, S, 0, TEX, HIT);            /* 01: HIT(1)++, state 10 */
	assert_int_equal(st(&r, S, 0), TSR_GSPC_STATE_E2);
	assert_int_equal(b->hit_e[1], 1);
	ev(&r, S, 0, TEX, HIT);            /* 10: stays 10, no counter */
	assert_int_equal(st(&r, S, 0), TSR_GSPC_STATE_E2);
	assert_int_equal(b->fill_e[0], 1);
	assert_int_equal(b->hit_e[0], 1);
	assert_int_equal(b->fill_e[1], 1);
	assert_int_equal(b->hit_e[1], 1);
	assert_int_equal(b->acc, 4);
	ev(&r, S, 0, RT, HIT);             /* RT hit on a texture block: state 11 */
	assert_int_equal(st(&r, S, 0), TSR_GSPC_STATE_RT);
	ev(&r, S, 1, RT, FILL);            /* RT fill: state 11 */
	assert_int_equal(st(&r, S, 1), TSR_GSPC_STATE_RT);
	ev(&r, S, 1, TEX, HIT);            /* RT -> TEX: FILL(0)++, state 00 */
	assert_int_equal(st(&r, S, 1), TSR_GSPC_STATE_E0);
	assert_int_equal(b->fill_e[0], 2);
	assert_int_equal(b->hit_e[0], 1);
	assert_int_equal(b->prod + b->cons, 0);  /* no PROD/CONS before GSPC */

	/* non-sample: FILL(0)=2, HIT(0)=1, FILL(1)=1, HIT(1)=1 */
	ev(&r, N, 0, TEX, FILL);           /* 2 > 8 false: RRPV 0, state 00 */
	assert_int_equal(rrpv(&r, N, 0), 0);
	assert_int_equal(st(&r, N, 0), TSR_GSPC_STATE_E0);
	r.g->r.rrpv[N * 4] = 3;
	ev(&r, N, 0, TEX, HIT);            /* 00 -> 01: 1 > 8 false: RRPV 0 */
	assert_int_equal(rrpv(&r, N, 0), 0);
	assert_int_equal(st(&r, N, 0), TSR_GSPC_STATE_E1);
	r.g->r.rrpv[N * 4] = 3;
	ev(&r, N, 0, TEX, HIT);            /* 01 -> 10: RRPV 0 */
	assert_int_equal(rrpv(&r, N, 0), 0);
	assert_int_equal(st(&r, N, 0), TSR_GSPC_STATE_E2);
	ev(&r, N, 1, RT, FILL);            /* RT fill: RRPV 0 (Table 3), state 11 */
	assert_int_equal(rrpv(&r, N, 1), 0);
	assert_int_equal(st(&r, N, 1), TSR_GSPC_STATE_RT);
	assert_int_equal(b->acc, 7);       /* non-samples count nothing */
	rig_release(&r);

	/* epochs learned apart: E0 likely reused, E1 not (FILL(1)=1 > 8.HIT(1)=0) */
	rig_init(&r, "gspztc+tse", NULL);
	b = bank(&r, S);
	ev(&r, S, 0, TEX, FILL);
	ev(&r, S, 0, TEX, HIT);
	ev(&r, N, 0, TEX, FILL);
	assert_int_equal(rrpv(&r, N, 0), 0);   /* FILL(0)=1 > 8.HIT(0)=8 false */
	ev(&r, N, 0, TEX, HIT);
	assert_int_equal(rrpv(&r, N, 0), 3);   /* entering E1: FILL(1)=1 > 0 */
	assert_int_equal(st(&r, N, 0), TSR_GSPC_STATE_E1);
	ev(&r, N, 0, TEX, HIT);
	assert_int_equal(rrpv(&r, N, 0), 0);   /* E>=2: always 0 */
	/* E0 unlikely: FILL(0) 10 > 8.HIT(0) 1 -> fills and RT -> TEX hits at 3 */
	for (int i = 0; i < 9; i++)
		ev(&r, S, 1, TEX, FILL);
	ev(&r, N, 1, TEX, FILL);
	assert_int_equal(rrpv(&r, N, 1), 3);
	ev(&r, N, 2, RT, FILL);
	ev(&r, N, 2, TEX, HIT);
	assert_int_equal(rrpv(&r, N, 2), 3);
	assert_int_equal(st(&r, N, 2), TSR_GSPC_STATE_E0);
	ev(&r, N, 2, RT, HIT);             /* RT hit: 11, RRPV 0 */
	assert_int_equal(rrpv(&r, N, 2), 0);
	assert_int_equal(st(&r, N, 2), TSR_GSPC_STATE_RT);
	rig_release(&r);
}

/* ---- Table 5: GSPC ---- */

static void test_gspc_table5(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, "gspc", NULL);
	struct tsr_gspc_bank *b = bank(&r, S);

	/* non-sample RT fill with PROD = CONS = 0: 0 > 0 false -> RRPV 0 */
	ev(&r, N, 0, RT, FILL);
	assert_int_equal(rrpv(&r, N, 0), 0);

	ev(&r, S, 0, RT, FILL);            /* RT fill: state 11, PROD++ */
	assert_int_equal(st(&r, S, 0), TSR_GSPC_STATE_RT);
	assert_int_equal(b->prod, 1);
	assert_int_equal(rrpv(&r, S, 0), 2);
	ev(&r, S, 0, RT, HIT);             /* RT hit (blending): state 11, no PROD */
	assert_int_equal(b->prod, 1);
	assert_int_equal(rrpv(&r, S, 0), 0);
	ev(&r, S, 0, TEX, HIT);            /* RT -> TEX: state 00, CONS++, FILL(0)++ */
	assert_int_equal(st(&r, S, 0), TSR_GSPC_STATE_E0);
	assert_int_equal(b->cons, 1);
	assert_int_equal(b->fill_e[0], 1);

	/* non-sample RT fills against PROD / CONS (CONS = 1) */
	static const struct {
		unsigned prod, rrpv;
	} steps[] = {{1, 0}, {8, 0}, {9, 2}, {16, 2}, {17, 3}};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		while (b->prod < steps[i].prod)
			ev(&r, S, 1, RT, FILL);
		assert_int_equal(b->prod, steps[i].prod);
		ev(&r, N, 1, RT, FILL);
		assert_int_equal(rrpv(&r, N, 1), steps[i].rrpv);
		assert_int_equal(st(&r, N, 1), TSR_GSPC_STATE_RT);
	}
	ev(&r, N, 1, RT, HIT);             /* RT hit (blending): RRPV 0, state 11 */
	assert_int_equal(rrpv(&r, N, 1), 0);
	assert_int_equal(st(&r, N, 1), TSR_GSPC_STATE_RT);
	/* RT -> TEX in a non-sample: state 00, RRPV as Table 4: FILL(0)=1 > 0 -> 3 */
	ev(&r, N, 1, TEX, HIT);
	assert_int_equal(st(&r, N, 1), TSR_GSPC_STATE_E0);
	assert_int_equal(rrpv(&r, N, 1), 3);
	/* the displayable color is a render target (Section 5.1) */
	ev(&r, N, 2, TSR_STREAM_DISPLAY, FILL);
	assert_int_equal(rrpv(&r, N, 2), 3);
	assert_int_equal(st(&r, N, 2), TSR_GSPC_STATE_RT);
	assert_int_equal(b->cons, 1);
	rig_release(&r);
}

/* The three levels differ exactly where the tables say. */
static void test_levels_agree_elsewhere(void **state)
{
	(void)state;
	static const char *const names[] = {"gspztc", "gspztc+tse", "gspc"};
	struct rig r[3];
	for (int i = 0; i < 3; i++)
		rig_init(&r[i], names[i], NULL);
	/* Z and other accesses: identical RRPVs and Z counters at every level */
	struct tsr_rng rng;
	tsr_rng_seed(&rng, 3);
	for (int n = 0; n < 500; n++) {
		uint32_t set = tsr_rng_below(&rng, 2) ? S : N;
		uint32_t way = (uint32_t)tsr_rng_below(&rng, 4);
		enum tsr_stream s = tsr_rng_below(&rng, 2) ? ZS : OTH;
		int fill = (int)tsr_rng_below(&rng, 2);
		for (int i = 0; i < 3; i++)
			ev(&r[i], set, way, s, fill);
		for (int i = 1; i < 3; i++) {
			assert_memory_equal(r[i].g->r.rrpv, r[0].g->r.rrpv, 128 * 4);
			assert_int_equal(bank(&r[i], S)->fill_z, bank(&r[0], S)->fill_z);
			assert_int_equal(bank(&r[i], S)->hit_z, bank(&r[0], S)->hit_z);
		}
	}
	for (int i = 0; i < 3; i++)
		rig_release(&r[i]);
}

/* ---- GS-DRRIP: per-stream set dueling ---- */

static void test_gs_drrip_dueling(void **state)
{
	(void)state;
	const struct tsr_policy_ops *ops;
	/* BRRIP never picks 2 with throttle 2^32-1 in so few fills */
	void *g = tsr_test_policy_state("gs-drrip", 1024, 4, LINE, "throttle=4294967295", &ops);
	struct tsr_line lines[4];
	memset(lines, 0, sizeof(lines));
	uint8_t *rr = ((struct tsr_rrip *)g)->rrpv;
	struct tsr_access a = {.size = 4, .next_use = TSR_NEVER};
#define GFILL(set, s) (a.stream = (uint8_t)(s), ops->on_fill(g, (set), 0, lines, &a), \
		       rr[(set) * 4u])
	/* leaders of sample n = set & 15: class (n >> 1) & 3, SRRIP if n even */
	const uint32_t z_a = 0, z_b = 65, tex_a = 130, rt_b = 325, follower = 1;
	assert_int_equal(GFILL(z_a, ZS), 2);        /* Z SRRIP leader; PSEL(Z) 511 -> 512 */
	assert_int_equal(GFILL(follower, ZS), 3);   /* Z followers now BRRIP */
	assert_int_equal(GFILL(follower, TEX), 2);  /* other classes unaffected */
	assert_int_equal(GFILL(follower, RT), 2);
	assert_int_equal(GFILL(follower, OTH), 2);
	assert_int_equal(GFILL(tex_a, ZS), 3);      /* a TEX leader: Z follows its PSEL */
	assert_int_equal(GFILL(tex_a, TEX), 2);     /* TEX SRRIP leader */
	assert_int_equal(GFILL(rt_b, RT), 3);       /* RT BRRIP leader; PSEL(RT) 511 -> 510 */
	assert_int_equal(GFILL(follower, RT), 2);
	assert_int_equal(GFILL(z_b, ZS), 3);        /* Z BRRIP leader; PSEL(Z) 512 -> 511 */
	assert_int_equal(GFILL(follower, ZS), 2);   /* Z followers back to SRRIP */
	assert_int_equal(GFILL(z_b, TEX), 3);       /* TEX in a Z leader follows PSEL(TEX),
							 * 512 since the TEX leader's miss: BRRIP */
	/* a hit sets RRPV 0 */
	a.stream = TEX;
	ops->on_hit(g, follower, 0, lines, &a);
	assert_int_equal(rr[follower * 4], 0);
#undef GFILL
	ops->destroy(g);
}

/* ---- UCD: uncached displayable color ---- */

static struct tsr_cache_outcome cache_acc(struct tsr_cache *c, uint64_t line,
					  enum tsr_stream s, int write)
{
	struct tsr_access a = {.addr = line * LINE, .size = write ? LINE : 4, .write = (uint8_t)write,
			       .stream = (uint8_t)s, .next_use = TSR_NEVER};
	struct tsr_cache_outcome o;
	tsr_cache_access(c, &a, &o);
	return o;
}

static void test_ucd_no_display_fill(void **state)
{
	(void)state;
	assert_true(tsr_policy_spec_ucd("gspc+ucd"));
	assert_true(tsr_policy_spec_ucd("drrip+ucd:psel_bits=8"));
	assert_false(tsr_policy_spec_ucd("gspc"));
	assert_false(tsr_policy_spec_ucd("gspc:x=+ucd"));
	assert_false(tsr_policy_spec_ucd("+ucd"));
	assert_ptr_equal(tsr_policy_find("gspc+ucd:t=4"), &tsr_policy_gspc);
	assert_ptr_equal(tsr_policy_find("drrip+ucd"), &tsr_policy_drrip);
	assert_null(tsr_policy_find("nope+ucd"));

	static const char *const specs[] = {"gspc+ucd", "drrip+ucd", "lru+ucd", "gspztc+tse+ucd",
					    "gs-drrip+ucd:psel_bits=8"};
	for (size_t p = 0; p < sizeof(specs) / sizeof(specs[0]); p++) {
		struct tsr_cache_geometry g = tsr_test_geometry(16, 4, LINE, specs[p]);
		struct tsr_cache *c = NULL;
		struct tsr_error err;
		assert_int_equal(tsr_cache_create(&g, "llc", &c, &err), TSR_OK);
		/* display reads and writes, into an empty cache: never allocated */
		for (uint64_t k = 0; k < 200; k++) {
			struct tsr_cache_outcome o = cache_acc(c, k % 40, TSR_STREAM_DISPLAY,
							       (int)(k & 1));
			assert_false(o.hit);
			assert_true(o.bypass);
			assert_false(o.evicted);
		}
		const struct tsr_cache_counters *d = tsr_cache_counters_of(c, TSR_STREAM_DISPLAY);
		assert_int_equal(d->bypasses, 200);
		assert_int_equal(d->read_misses + d->write_misses, 200);
		/* other streams fill as usual; a display access hits their lines */
		assert_false(cache_acc(c, 3, TSR_STREAM_RENDER_TARGET, 1).bypass);
		assert_true(cache_acc(c, 3, TSR_STREAM_DISPLAY, 0).hit);
		assert_true(cache_acc(c, 3, TSR_STREAM_RENDER_TARGET, 0).hit);
		tsr_cache_destroy(c);
	}
	/* without +ucd the display stream is cached */
	struct tsr_cache_geometry g = tsr_test_geometry(16, 4, LINE, "gspc");
	struct tsr_cache *c = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_cache_create(&g, "llc", &c, &err), TSR_OK);
	assert_false(cache_acc(c, 5, TSR_STREAM_DISPLAY, 1).bypass);
	assert_true(cache_acc(c, 5, TSR_STREAM_DISPLAY, 0).hit);
	tsr_cache_destroy(c);
}

/* ---- Belady's OPT is never beaten ---- */

static const char *const online[] = {
	"drrip", "nru", "srrip", "lru", "ship-mem", "gs-drrip", "gspztc", "gspztc+tse", "gspc",
	"gspztc:t=2", "gspc:t=16",
};
static const char *const online_ucd[] = {"gspc+ucd", "drrip+ucd", "gs-drrip+ucd", "gspztc+ucd"};
#define COUNT(x) (sizeof(x) / sizeof((x)[0]))

static uint64_t replay_misses(const struct tsr_line_trace *lt, uint32_t sets, uint32_t ways,
			      const char *spec)
{
	struct tsr_cache_geometry g = tsr_test_geometry(sets, ways, LINE, spec);
	const char *specs[] = {spec};
	struct tsr_replay_result r;
	struct tsr_error err;
	memset(&err, 0, sizeof(err));
	enum tsr_status s = tsr_replay(lt, &g, specs, 1, &r, &err);
	if (s != TSR_OK)
		print_error("%s: %s\n", spec, err.msg);
	assert_int_equal(s, TSR_OK);
	return r.total.read_misses + r.total.write_misses;
}

/* OPT <= every online policy; OPTPT <= every +ucd policy (they bypass). */
static void check_bounds(const struct tsr_line_trace *lt, uint32_t sets, uint32_t ways)
{
	uint64_t opt = replay_misses(lt, sets, ways, "opt");
	uint64_t optpt = replay_misses(lt, sets, ways, "optpt");
	assert_true(optpt <= opt);
	for (size_t i = 0; i < COUNT(online); i++) {
		uint64_t m = replay_misses(lt, sets, ways, online[i]);
		if (m < opt)
			print_error("%s: %llu misses < OPT %llu\n", online[i],
				    (unsigned long long)m, (unsigned long long)opt);
		assert_true(m >= opt);
	}
	for (size_t i = 0; i < COUNT(online_ucd); i++)
		assert_true(replay_misses(lt, sets, ways, online_ucd[i]) >= optpt);
}

/*
 * A synthetic multi-pass frame: a pass writes a render target that a
 * later pass samples as a texture, Z read-modify-writes, static textures,
 * vertices, and the final pass writes the displayable color.
 */
static size_t synthetic_frame(struct tsr_access *acc, size_t max, uint64_t seed)
{
	struct tsr_rng rng;
	tsr_rng_seed(&rng, seed);
	size_t n = 0;
#define PUT(line, s, w) do { if (n < max) acc[n++] = (struct tsr_access){ \
	.addr = (uint64_t)(line) * LINE, .size = 4, .write = (uint8_t)(w), \
	.stream = (uint8_t)(s), .next_use = TSR_NEVER}; } while (0)
	for (int frame = 0; frame < 2; frame++) {
		/* pass 1: shadow/render target 0..299, Z 1000..1199 */
		for (int i = 0; i < 600; i++) {
			uint64_t px = tsr_rng_below(&rng, 300);
			PUT(1000 + px % 200, TSR_STREAM_Z, 0);
			PUT(1000 + px % 200, TSR_STREAM_Z, 1);
			PUT(px, TSR_STREAM_RENDER_TARGET, 1);
			if (tsr_rng_below(&rng, 4) == 0)
				PUT(5000 + tsr_rng_below(&rng, 60), TSR_STREAM_VERTEX, 0);
		}
		/* pass 2: samples the render target, static textures, Z, display */
		for (int i = 0; i < 800; i++) {
			uint64_t px = tsr_rng_below(&rng, 400);
			PUT(2000 + px % 250, TSR_STREAM_Z, 0);
			PUT(tsr_rng_below(&rng, 300), TSR_STREAM_TEXTURE, 0);
			PUT(3000 + tsr_rng_below(&rng, tsr_rng_below(&rng, 2) ? 64 : 900),
			    TSR_STREAM_TEXTURE, 0);
			PUT(4000 + px, TSR_STREAM_DISPLAY, 1);
		}
	}
#undef PUT
	return n;
}

static void test_opt_never_beaten_synthetic(void **state)
{
	(void)state;
	static struct tsr_access acc[16384];
	for (uint64_t seed = 1; seed <= 3; seed++) {
		size_t n = synthetic_frame(acc, sizeof(acc) / sizeof(acc[0]), seed);
		struct tsr_line_trace lt;
		struct tsr_error err;
		assert_int_equal(tsr_line_trace_from_accesses(acc, n, LINE, &lt, &err), TSR_OK);
		check_bounds(&lt, 64, 4);
		check_bounds(&lt, 16, 16);
		check_bounds(&lt, 1024, 1);
		tsr_line_trace_release(&lt);
	}
}

/* The L2 input of a real run (glmark-scene, one frame), recorded by the CLI. */
static void test_opt_never_beaten_recorded(void **state)
{
	(void)state;
	char dir[] = "/tmp/tsr-061-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char cmd[1024], path[256];
	snprintf(path, sizeof(path), "%s/l2.trace", dir);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && '%s' run workloads/glmark-scene.json --config configs/re-table1.json "
		 "--frames 1 --out '%s/rec' --quiet --record-trace l2='%s' >/dev/null 2>&1",
		 TSR_SOURCE_DIR, TSR_BINARY, dir, path);
	int rc = system(cmd);
	struct tsr_trace t;
	struct tsr_error err;
	memset(&err, 0, sizeof(err));
	enum tsr_status s = rc == 0 ? tsr_trace_load(path, &t, &err) : TSR_ERR_IO;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(rc, 0);
	assert_int_equal(s, TSR_OK);
	struct tsr_line_trace lt;
	assert_int_equal(tsr_line_trace_build(&t, LINE, &lt, &err), TSR_OK);
	tsr_trace_release(&t);
	assert_true(lt.count > 10000);
	check_bounds(&lt, 64, 16);     /* 64 KiB */
	check_bounds(&lt, 1024, 4);    /* 256 KiB, 16 sample sets */
	tsr_line_trace_release(&lt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_sets_banks_classes),
		cmocka_unit_test(test_gspztc_table3),
		cmocka_unit_test(test_halving_and_saturation),
		cmocka_unit_test(test_per_bank_counters),
		cmocka_unit_test(test_gspztc_tse_table4),
		cmocka_unit_test(test_gspc_table5),
		cmocka_unit_test(test_levels_agree_elsewhere),
		cmocka_unit_test(test_gs_drrip_dueling),
		cmocka_unit_test(test_ucd_no_display_fill),
		cmocka_unit_test(test_opt_never_beaten_synthetic),
		cmocka_unit_test(test_opt_never_beaten_recorded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
