/*
 * regalloc.c - per-lane register allocation of a lowered stage: lower.c
 * gives every SSA value, phi, shadow and variable a register of its own;
 * this pass renames them so that registers whose live ranges do not
 * overlap share one (linear scan over the instruction order, Poletto and
 * Sarkar 1999). A register used inside a loop (LOOP..ENDLOOP, not the
 * breakable blocks of ENDLOOP ONCE, which run once) is kept for the whole
 * loop: under an execution mask a lane may read in one iteration what it
 * wrote in an earlier one. Interface registers (inputs, outputs) and the
 * arrays LDX/STX index are pinned, numbered first in their order.
 */
#include <stdlib.h>
#include <string.h>

#include "shader/shader_priv.h"

struct range {
	uint32_t first, last; /* instructions; first > last: never used */
};

/* the sources an opcode reads (bit k: src[k]) */
static unsigned src_mask(unsigned op, uint8_t wmask)
{
	switch (op) {
	case TSR_SH_MOV: case TSR_SH_FLR: case TSR_SH_FRC: case TSR_SH_TRC: case TSR_SH_SGN:
	case TSR_SH_DDX: case TSR_SH_DDY: case TSR_SH_RCP: case TSR_SH_RSQ: case TSR_SH_SQRT:
	case TSR_SH_EXP2: case TSR_SH_LOG2: case TSR_SH_SIN: case TSR_SH_COS: case TSR_SH_IF:
		return 1;
	case TSR_SH_TEX:
		return 5; /* coordinate and sampler unit (a register when loaded from a sampler array) */
	case TSR_SH_MAD: case TSR_SH_SEL: case TSR_SH_TXB: case TSR_SH_TXL:
		return 7;
	case TSR_SH_BRK: case TSR_SH_CONT: case TSR_SH_KILL:
		return (wmask & TSR_SH_F_COND) ? 1 : 0;
	case TSR_SH_ELSE: case TSR_SH_ENDIF: case TSR_SH_LOOP: case TSR_SH_ENDLOOP: case TSR_SH_CJOIN:
	case TSR_SH_END: case TSR_SH_NOP:
		return 0;
	default:
		return 3; /* ADD ... DIV, DP*, LDX, STX (src[2] of LDX, STX is a count) */
	}
}

static void touch(struct range *r, uint32_t reg, uint32_t i)
{
	if (r[reg].first > r[reg].last) {
		r[reg].first = r[reg].last = i;
		return;
	}
	if (i < r[reg].first)
		r[reg].first = i;
	if (i > r[reg].last)
		r[reg].last = i;
}

static void pin_leaves(uint8_t *pinned, uint32_t n_regs, const struct tsr_sh_leaf *l, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t k = 0; k < l[i].array_size * l[i].cols && l[i].reg + k < n_regs; k++)
			pinned[l[i].reg + k] = 1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

enum tsr_status tsr_sh_regalloc(struct tsr_sh_stage *st, struct tsr_error *err)
{
	const uint32_t n = st->regs, count = st->count;
	struct range *r = malloc((size_t)n * sizeof(*r));
	uint8_t *pinned = calloc(n, 1);
	uint32_t *map = malloc((size_t)n * sizeof(*map));
	uint64_t *order = malloc((size_t)n * sizeof(*order));
	uint32_t *free_until = NULL;
	enum tsr_status s = TSR_OK;
	if (!r || !pinned || !map || !order) {
		s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory allocating registers");
		goto done;
	}
	for (uint32_t i = 0; i < n; i++) {
		r[i].first = 1;
		r[i].last = 0;
		map[i] = UINT32_MAX;
	}
	pin_leaves(pinned, n, st->inputs, st->n_inputs);
	pin_leaves(pinned, n, st->outputs, st->n_outputs);
	for (uint32_t i = 0; i < count; i++) {
		const struct tsr_sh_inst *in = &st->code[i];
		unsigned sm = src_mask(in->op, in->wmask);
		for (unsigned k = 0; k < 3; k++)
			if ((sm >> k & 1u) && !(in->src[k].reg & TSR_SH_CONST_BANK) && in->src[k].reg < n)
				touch(r, in->src[k].reg, i);
		if (in->op < TSR_SH_IF && in->dst < n)
			touch(r, in->dst, i);
		/* indexed arrays: the whole range, pinned */
		if (in->op == TSR_SH_LDX && !(in->src[1].reg & TSR_SH_CONST_BANK))
			for (uint32_t k = 0; k <= in->src[2].reg && in->src[1].reg + k < n; k++)
				pinned[in->src[1].reg + k] = 1;
		if (in->op == TSR_SH_STX)
			for (uint32_t k = 0; k <= in->src[2].reg && in->dst + k < n; k++)
				pinned[in->dst + k] = 1;
	}
	/* loops: a range that meets a loop covers it (to a fixed point: nested loops) */
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t i = 0; i < count; i++) {
			const struct tsr_sh_inst *in = &st->code[i];
			if (in->op != TSR_SH_ENDLOOP || (in->wmask & TSR_SH_F_ONCE) || in->dst == 0)
				continue;
			uint32_t ls = in->dst - 1u, le = i;
			for (uint32_t g = 0; g < n; g++) {
				if (r[g].first > r[g].last || r[g].last < ls || r[g].first > le)
					continue;
				if (r[g].first > ls || r[g].last < le) {
					if (r[g].first > ls)
						r[g].first = ls;
					if (r[g].last < le)
						r[g].last = le;
					changed = true;
				}
			}
		}
	}
	/* pinned registers first, in order; then linear scan */
	uint32_t next = 0;
	for (uint32_t g = 0; g < n; g++)
		if (pinned[g])
			map[g] = next++;
	/* ranges by their first instruction (then register): first << 32 | register */
	uint32_t m = 0;
	for (uint32_t g = 0; g < n; g++)
		if (!pinned[g] && r[g].first <= r[g].last)
			order[m++] = (uint64_t)r[g].first << 32 | g;
	qsort(order, m, sizeof(*order), cmp_u64);
	/* free_until[k]: the last instruction of the range register next + k holds */
	free_until = malloc((size_t)(m ? m : 1) * sizeof(*free_until));
	if (!free_until) {
		s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory allocating registers");
		goto done;
	}
	uint32_t used = 0;
	for (uint32_t j = 0; j < m; j++) {
		uint32_t g = (uint32_t)order[j];
		uint32_t k = 0;
		/* the first register whose range ended before this one starts */
		while (k < used && free_until[k] >= r[g].first)
			k++;
		if (k == used)
			used++;
		free_until[k] = r[g].last;
		map[g] = next + k;
	}
	uint32_t total = next + used;
	/* rename */
	for (uint32_t i = 0; i < count; i++) {
		struct tsr_sh_inst *in = &st->code[i];
		unsigned sm = src_mask(in->op, in->wmask);
		for (unsigned k = 0; k < 3; k++)
			if ((sm >> k & 1u) && !(in->src[k].reg & TSR_SH_CONST_BANK) && in->src[k].reg < n &&
			    map[in->src[k].reg] != UINT32_MAX)
				in->src[k].reg = (uint16_t)map[in->src[k].reg];
		if (in->op < TSR_SH_IF && in->dst < n && map[in->dst] != UINT32_MAX)
			in->dst = (uint16_t)map[in->dst];
	}
	struct tsr_sh_leaf *ls[2] = {st->inputs, st->outputs};
	uint32_t lc[2] = {st->n_inputs, st->n_outputs};
	for (int a = 0; a < 2; a++)
		for (uint32_t i = 0; i < lc[a]; i++)
			if (ls[a][i].reg < n && map[ls[a][i].reg] != UINT32_MAX)
				ls[a][i].reg = (uint16_t)map[ls[a][i].reg];
	st->regs = total ? total : 1;
done:
	free(r);
	free(pinned);
	free(map);
	free(order);
	free(free_until);
	return s;
}
