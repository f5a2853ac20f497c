/*
 * isa.c - the opcode table of the shader ISA (isa.h): mnemonics, classes
 * and the disassembler used by tests, benchmarks and error messages.
 */
#include <stdio.h>
#include <string.h>

#include "shader/isa.h"

static const struct {
	const char *name;
	enum tsr_sh_class cls;
} ops[TSR_SH_OP_COUNT] = {
	[TSR_SH_NOP] = {"nop", TSR_SH_CLASS_ALU},
	[TSR_SH_MOV] = {"mov", TSR_SH_CLASS_ALU},
	[TSR_SH_ADD] = {"add", TSR_SH_CLASS_ALU},
	[TSR_SH_MUL] = {"mul", TSR_SH_CLASS_ALU},
	[TSR_SH_MAD] = {"mad", TSR_SH_CLASS_ALU},
	[TSR_SH_DP2] = {"dp2", TSR_SH_CLASS_ALU},
	[TSR_SH_DP3] = {"dp3", TSR_SH_CLASS_ALU},
	[TSR_SH_DP4] = {"dp4", TSR_SH_CLASS_ALU},
	[TSR_SH_MIN] = {"min", TSR_SH_CLASS_ALU},
	[TSR_SH_MAX] = {"max", TSR_SH_CLASS_ALU},
	[TSR_SH_SLT] = {"slt", TSR_SH_CLASS_ALU},
	[TSR_SH_SGE] = {"sge", TSR_SH_CLASS_ALU},
	[TSR_SH_SEQ] = {"seq", TSR_SH_CLASS_ALU},
	[TSR_SH_SNE] = {"sne", TSR_SH_CLASS_ALU},
	[TSR_SH_SEL] = {"sel", TSR_SH_CLASS_ALU},
	[TSR_SH_FLR] = {"flr", TSR_SH_CLASS_ALU},
	[TSR_SH_FRC] = {"frc", TSR_SH_CLASS_ALU},
	[TSR_SH_TRC] = {"trc", TSR_SH_CLASS_ALU},
	[TSR_SH_SGN] = {"sgn", TSR_SH_CLASS_ALU},
	[TSR_SH_DDX] = {"ddx", TSR_SH_CLASS_ALU},
	[TSR_SH_DDY] = {"ddy", TSR_SH_CLASS_ALU},
	[TSR_SH_LDX] = {"ldx", TSR_SH_CLASS_ALU},
	[TSR_SH_STX] = {"stx", TSR_SH_CLASS_ALU},
	[TSR_SH_RCP] = {"rcp", TSR_SH_CLASS_SFU},
	[TSR_SH_RSQ] = {"rsq", TSR_SH_CLASS_SFU},
	[TSR_SH_SQRT] = {"sqrt", TSR_SH_CLASS_SFU},
	[TSR_SH_EXP2] = {"exp2", TSR_SH_CLASS_SFU},
	[TSR_SH_LOG2] = {"log2", TSR_SH_CLASS_SFU},
	[TSR_SH_SIN] = {"sin", TSR_SH_CLASS_SFU},
	[TSR_SH_COS] = {"cos", TSR_SH_CLASS_SFU},
	[TSR_SH_DIV] = {"div", TSR_SH_CLASS_SFU},
	[TSR_SH_TEX] = {"tex", TSR_SH_CLASS_TEX},
	[TSR_SH_TXB] = {"txb", TSR_SH_CLASS_TEX},
	[TSR_SH_TXL] = {"txl", TSR_SH_CLASS_TEX},
	[TSR_SH_IF] = {"if", TSR_SH_CLASS_FLOW},
	[TSR_SH_ELSE] = {"else", TSR_SH_CLASS_FLOW},
	[TSR_SH_ENDIF] = {"endif", TSR_SH_CLASS_FLOW},
	[TSR_SH_LOOP] = {"loop", TSR_SH_CLASS_FLOW},
	[TSR_SH_ENDLOOP] = {"endloop", TSR_SH_CLASS_FLOW},
	[TSR_SH_BRK] = {"brk", TSR_SH_CLASS_FLOW},
	[TSR_SH_CONT] = {"cont", TSR_SH_CLASS_FLOW},
	[TSR_SH_CJOIN] = {"cjoin", TSR_SH_CLASS_FLOW},
	[TSR_SH_KILL] = {"kill", TSR_SH_CLASS_FLOW},
	[TSR_SH_END] = {"end", TSR_SH_CLASS_FLOW},
};

const char *tsr_sh_op_name(unsigned op)
{
	return op < TSR_SH_OP_COUNT && ops[op].name ? ops[op].name : "?";
}

enum tsr_sh_class tsr_sh_op_class(unsigned op)
{
	return op < TSR_SH_OP_COUNT ? ops[op].cls : TSR_SH_CLASS_ALU;
}

unsigned tsr_sh_op_sources(unsigned op)
{
	switch (op) {
	case TSR_SH_MOV: case TSR_SH_FLR: case TSR_SH_FRC: case TSR_SH_TRC: case TSR_SH_SGN:
	case TSR_SH_DDX: case TSR_SH_DDY: case TSR_SH_RCP: case TSR_SH_RSQ: case TSR_SH_SQRT:
	case TSR_SH_EXP2: case TSR_SH_LOG2: case TSR_SH_SIN: case TSR_SH_COS:
		return 1;
	case TSR_SH_MAD: case TSR_SH_SEL: case TSR_SH_LDX: case TSR_SH_STX:
	case TSR_SH_TEX: case TSR_SH_TXB: case TSR_SH_TXL:
		return 3;
	case TSR_SH_END: case TSR_SH_NOP:
		return 0;
	default:
		return tsr_sh_op_class(op) == TSR_SH_CLASS_FLOW ? 0 : 2;
	}
}

static int put_src(char *buf, size_t cap, const struct tsr_sh_src *s)
{
	static const char xyzw[] = "xyzw";
	char sw[5];
	for (int i = 0; i < 4; i++)
		sw[i] = xyzw[(s->swz >> (2 * i)) & 3u];
	sw[4] = '\0';
	return snprintf(buf, cap, "%s%s%c%u%s.%s", s->mod & TSR_SH_MOD_NEG ? "-" : "",
			s->mod & TSR_SH_MOD_ABS ? "|" : "", s->reg & 0x8000u ? 'c' : 'r',
			(unsigned)(s->reg & 0x7fffu), s->mod & TSR_SH_MOD_ABS ? "|" : "", sw);
}

char *tsr_sh_disasm(const struct tsr_sh_inst *in, char *buf, size_t cap)
{
	if (cap == 0)
		return buf;
	buf[0] = '\0';
	size_t n = 0;
#define PUT(...) do { int k_ = snprintf(buf + n, n < cap ? cap - n : 0, __VA_ARGS__); \
		if (k_ > 0) n += (size_t)k_; } while (0)
	PUT("%s", tsr_sh_op_name(in->op));
	enum tsr_sh_class cls = tsr_sh_op_class(in->op);
	const unsigned nsrc = tsr_sh_op_sources(in->op);
	if (cls == TSR_SH_CLASS_FLOW) {
		if (in->op == TSR_SH_IF || ((in->op == TSR_SH_BRK || in->op == TSR_SH_CONT ||
					     in->op == TSR_SH_KILL) && (in->wmask & TSR_SH_F_COND))) {
			PUT(" %s", in->wmask & TSR_SH_F_INVERT ? "!" : "");
			char s[40];
			put_src(s, sizeof(s), &in->src[0]);
			PUT("%s", s);
		}
		if (in->op != TSR_SH_ENDIF && in->op != TSR_SH_CJOIN && in->op != TSR_SH_KILL &&
		    in->op != TSR_SH_END)
			PUT(" -> %u", in->dst);
		if (in->op == TSR_SH_ENDLOOP && (in->wmask & TSR_SH_F_ONCE))
			PUT(" once");
		return buf;
	}
	if (cls == TSR_SH_CLASS_TEX)
		PUT("%s%s", in->wmask & TSR_SH_F_PROJ ? ".proj" : "", in->wmask & TSR_SH_F_CUBE ? ".cube" : "");
	else if (in->wmask & TSR_SH_F_HALF)
		PUT(".f16");
	PUT(" r%u.", in->dst);
	for (int i = 0; i < 4; i++)
		if (in->wmask & (1u << i))
			PUT("%c", "xyzw"[i]);
	for (unsigned k = 0; k < nsrc; k++) {
		char s[40];
		if ((in->op == TSR_SH_LDX || in->op == TSR_SH_STX) && k == 2) {
			PUT(", max %u", in->src[2].reg);
			continue;
		}
		if (cls == TSR_SH_CLASS_TEX && k == 2) {
			PUT(", unit c%u", (unsigned)(in->src[2].reg & 0x7fffu));
			continue;
		}
		if (in->op == TSR_SH_TEX && k == 1)
			continue;
		put_src(s, sizeof(s), &in->src[k]);
		PUT(", %s", s);
	}
#undef PUT
	return buf;
}
