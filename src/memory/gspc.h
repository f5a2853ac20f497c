/*
 * gspc.h - the state machine shared by the graphics stream-aware LLC
 * policies of Gaur et al., "Efficient Management of Last-level Caches in
 * Graphics Processors for 3D Scene Rendering Workloads" (MICRO 2013),
 * Section 3: GSPZTC (Table 3), GSPZTC+TSE (Table 4 on top of Table 3) and
 * GSPC (Table 5 on top of Table 4), and the pieces GS-DRRIP shares with
 * them (the stream classes and the sample sets). Internal to the memory
 * subsystem; the policy files (policy_gspztc.c, policy_gspztc_tse.c,
 * policy_gspc.c, policy_gs_drrip.c) are thin wrappers around it, and the
 * tests replay the paper's tables event by event on it without a cache.
 *
 * Stream classes (Section 3): every access is tagged with its source,
 * Z, texture sampler (TEX), render target (RT) or anything else (OTHER);
 * tsr_gspc_class_of() is the one place that maps tessera's streams onto
 * these four classes.
 *
 * Sample sets (Section 3, Table 2): 16 of every 1024 sets, chosen by a
 * Boolean function of the set index bits (tsr_gspc_is_sample()). Samples
 * always run 2-bit SRRIP (fill RRPV 2, hit RRPV 0) and update the
 * counters of their bank; the other sets ("non-samples") insert and
 * promote by the counters. Victims are chosen in every set as in SRRIP
 * (memory/rrip.h: the lowest way at RRPV 3 after ageing).
 *
 * Banks (Section 4: 2 MB banks, "four-way banked 8 MB"): the cache has
 * max(1, size / bank_bytes) banks and set s belongs to bank s mod banks
 * (tsr_policy_bank(), low-order interleaving, as SHiP-mem's banks). Each
 * bank keeps its own counters: 8-bit saturating FILL(Z), HIT(Z), FILL(E),
 * HIT(E) for E = 0, 1 (GSPZTC's FILL(TEX), HIT(TEX) are FILL(0), HIT(0)),
 * PROD and CONS, and a 7-bit ACC(ALL) that counts every access to the
 * bank's samples; when ACC(ALL) reaches 127 (saturates), every FILL, HIT,
 * PROD and CONS counter of the bank is halved and ACC(ALL) restarts at 0.
 * The access that makes ACC(ALL) saturate updates its own counters first.
 *
 * Line state (Fig. 10): two bits per line, E0 (00), E1 (01), E>=2 (10)
 * and RT (11). GSPZTC uses only "RT or not" (the RT bit). Choices where
 * the paper is silent: a Z or OTHER fill leaves the line in state 00 (the
 * reset value of the two bits), so that a texture hit on it counts as
 * GSPZTC's "texture hit on a block with the RT bit reset"; Z and OTHER
 * hits leave the state unchanged.
 *
 * Left out: nothing of Tables 2-5; the HiZ and stencil streams are OTHER
 * as in the paper's four-way partition.
 */
#ifndef TSR_MEMORY_GSPC_H
#define TSR_MEMORY_GSPC_H

#include <stdint.h>

#include "core/stream.h"
#include "memory/policy.h"
#include "memory/rrip.h"

/* Which of the three progressively refined policies runs (Section 3). */
enum tsr_gspc_level {
	TSR_GSPC_LEVEL_GSPZTC = 0,  /* Table 3 */
	TSR_GSPC_LEVEL_TSE = 1,     /* Table 3 + Table 4 (texture sampler epochs) */
	TSR_GSPC_LEVEL_GSPC = 2,    /* Tables 3-5 (dynamic render-target insertion) */
};

/* The four stream classes of Section 3. */
enum tsr_gspc_class {
	TSR_GSPC_Z = 0,
	TSR_GSPC_TEX = 1,
	TSR_GSPC_RT = 2,
	TSR_GSPC_OTHER = 3,
	TSR_GSPC_CLASSES = 4,
};

/* The two state bits of a line (Fig. 10). */
enum tsr_gspc_state {
	TSR_GSPC_STATE_E0 = 0,  /* 00: texture epoch E0 (and every non-RT fill) */
	TSR_GSPC_STATE_E1 = 1,  /* 01: texture epoch E1 */
	TSR_GSPC_STATE_E2 = 2,  /* 10: texture epochs E>=2 */
	TSR_GSPC_STATE_RT = 3,  /* 11: a render-target block (the RT bit) */
};

/* Defaults: threshold t (Section 5.1, Fig. 11) and bank size (Section 4). */
#define TSR_GSPC_T_DEFAULT 8u
#define TSR_GSPC_BANK_BYTES_DEFAULT (UINT64_C(2) << 20)
/* ACC(ALL) is 7 bits: it saturates at 127. */
#define TSR_GSPC_ACC_MAX 127u
/* GSPC's render-target thresholds (Table 5): PROD > 16 CONS, PROD > 8 CONS. */
#define TSR_GSPC_PROD_DISTANT 16u
#define TSR_GSPC_PROD_LONG 8u

/* Counters of one bank (Section 3); all 8-bit saturating except acc. */
struct tsr_gspc_bank {
	uint8_t fill_z, hit_z;    /* FILL(Z), HIT(Z) */
	uint8_t fill_e[2];        /* FILL(0, TEX), FILL(1, TEX); GSPZTC: FILL(TEX) = [0] */
	uint8_t hit_e[2];         /* HIT(0, TEX), HIT(1, TEX); GSPZTC: HIT(TEX) = [0] */
	uint8_t prod, cons;       /* GSPC: render targets produced / consumed as texture */
	uint8_t acc;              /* ACC(ALL), 7 bits */
	uint32_t halvings;        /* times the counters were halved (for tests) */
};

/* The state of one cache; r must stay first (memory/rrip.h hooks). */
struct tsr_gspc {
	struct tsr_rrip r;          /* 2-bit RRPVs, sets x ways */
	enum tsr_gspc_level level;
	uint32_t t;                 /* threshold t: reuse probability 1/(t+1) */
	uint32_t banks;             /* number of banks, >= 1 */
	uint8_t *state;             /* sets x ways: enum tsr_gspc_state */
	struct tsr_gspc_bank *bank; /* banks */
};

/*
 * THE mapping of tessera's streams onto the paper's four classes
 * (Section 3). Z -> Z; texture -> TEX; render_target, color (the TBR's
 * tile flushes, which write render targets) and display (the displayable
 * color "is a render target", Section 5.1) -> RT; everything else
 * (index, vertex, Parameter Buffer, instruction, other) -> OTHER. The
 * paper's HiZ and stencil streams are OTHER too (its four-way partition);
 * when tessera gains them they fall into the default case here.
 */
static inline enum tsr_gspc_class tsr_gspc_class_of(uint8_t stream)
{
	switch (stream) {
	case TSR_STREAM_Z:
		return TSR_GSPC_Z;
	case TSR_STREAM_TEXTURE:
		return TSR_GSPC_TEX;
	case TSR_STREAM_RENDER_TARGET:
	case TSR_STREAM_COLOR:
	case TSR_STREAM_DISPLAY:
		return TSR_GSPC_RT;
	default:
		return TSR_GSPC_OTHER;
	}
}

/*
 * 1 if `set` is a sample set (Section 3: "sixteen sets in every 1024 LLC
 * sets ... identified by simple Boolean functions on the LLC index
 * bits"): index bits [5:4] are 0 and bits [3:0] equal bits [9:6]. So each
 * group of 64 sets holds one sample, at offset (group mod 16), and the
 * 16 samples of every 1024 sets cover every residue mod 16 (thus every
 * bank equally for up to 16 banks). A cache of fewer than 1024 sets has
 * proportionally fewer (set 0 is always a sample). Its number among the
 * 16 samples of its 1024-set block is set & 15.
 */
static inline int tsr_gspc_is_sample(uint32_t set)
{
	return (set & 0x30u) == 0 && (set & 0xfu) == ((set >> 6) & 0xfu);
}

/*
 * Parses the parameters t (threshold, default 8, 1..255) and bank_bytes
 * (default 2 MiB) and allocates the state of a sets x ways cache for
 * `level`; `name` is the policy name for messages. All RRPVs, states and
 * counters start at 0. Errors: TSR_ERR_CONFIG (unknown key, value out of
 * range), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_gspc_create(const struct tsr_policy_config *cfg,
				enum tsr_gspc_level level, const char *name,
				void **state, struct tsr_error *err);

/* Frees a state of tsr_gspc_create(). */
void tsr_gspc_destroy(void *state);

/* Bank of `set` (set mod banks). */
static inline uint32_t tsr_gspc_bank_of(const struct tsr_gspc *g, uint32_t set)
{
	return tsr_policy_bank(set, g->banks);
}

/*
 * One access of class k to line `way` of `set`: a fill (fill = 1, the
 * line was just allocated) or a hit (fill = 0). Sets the line's RRPV and
 * state and updates the bank's counters exactly as Tables 3-5 say for
 * the policy's level, sample or not. O(1), no allocation.
 */
void tsr_gspc_access(struct tsr_gspc *g, uint32_t set, uint32_t way,
		     enum tsr_gspc_class k, int fill);

/* Hooks of the three policies: tsr_gspc_access() with the access's class. */
void tsr_gspc_policy_hit(void *state, uint32_t set, uint32_t way,
			 const struct tsr_line *set_lines, const struct tsr_access *a);
void tsr_gspc_policy_fill(void *state, uint32_t set, uint32_t way,
			  const struct tsr_line *set_lines, const struct tsr_access *a);

#endif
