/*
 * isa.h - tessera's shader instruction set (docs/shader-isa.md).
 *
 * A register machine of 4 lanes (a quad's 4 pixels, or 4 vertices): every
 * register holds one vec4 per lane, stored component-major (x of lanes
 * 0..3, then y, ...). Two register banks: the per-lane bank (inputs,
 * outputs, temporaries; written by instructions) and the constant bank
 * (uniforms and literals, the same in every lane; read only). Floats only:
 * GLSL ES 1.00 ints are floats holding integers (its Section 4.1.3 allows
 * it: highp ints need only 16 bits) and bools are 0.0 or 1.0, so the ALU has
 * one data type, as GPUs of that generation did (Mali-400's fragment
 * processor, shader-model-2 desktop GPUs).
 *
 * Every instruction is 16 bytes (TSR_SH_INST_BYTES): opcode, a write mask
 * with flags, a destination register and three source operands, each a
 * register, a swizzle and negate/absolute modifiers. Flow control is
 * structured (IF/ELSE/ENDIF, LOOP/ENDLOOP with BRK/CONT) and runs with a
 * per-lane execution mask; a jump target, where an instruction has one,
 * is an instruction index in the dst field.
 *
 * Left out: integer and double types, indirect jumps, calls (every
 * function is inlined before lowering), predicates other than the
 * execution mask.
 */
#ifndef TSR_SHADER_ISA_H
#define TSR_SHADER_ISA_H

#include <stddef.h>
#include <stdint.h>

#define TSR_SH_INST_BYTES 16          /* size of one encoded instruction */
#define TSR_SH_CONST_BANK 0x8000u     /* register bit: the constant bank */
#define TSR_SH_REG_MASK 0x7fffu       /* register index within its bank */
#define TSR_SH_SWZ_XYZW 0xe4u         /* identity swizzle (x=0,y=1,z=2,w=3; 2 bits each) */
#define TSR_SH_MOD_NEG 1u             /* source modifier: negate (after abs) */
#define TSR_SH_MOD_ABS 2u             /* source modifier: absolute value */
#define TSR_SH_MAX_NESTING 32         /* IF and LOOP nesting depth, each */
#define TSR_SH_LOOP_LIMIT (1u << 20)  /* iterations of one loop entry before it is left */

/* wmask byte: bits 0-3 the write mask (x, y, z, w); flags above */
#define TSR_SH_F_INVERT 0x10u   /* IF, BRK, CONT, KILL: test src0.x == 0 instead of != 0 */
#define TSR_SH_F_COND 0x20u     /* BRK, CONT, KILL: conditional on src0.x (else unconditional) */
#define TSR_SH_F_PROJ 0x10u     /* TEX: divide s, t by the coordinate's z (after swizzle) */
#define TSR_SH_F_CUBE 0x20u     /* TEX: cube map (s, t, r); else 2D (s, t) */
#define TSR_SH_F_ONCE 0x10u     /* ENDLOOP: a breakable block, never repeated */
#define TSR_SH_F_HALF 0x40u     /* ALU and SFU arithmetic (not MOV, SEL, LDX, STX): a mediump or lowp operation
				 * (SPIR-V RelaxedPrecision): run at half precision, each
				 * source and the result rounded to IEEE binary16, when the
				 * execution state runs mediump as fp16 (docs/shader-isa.md) */

/* Instruction classes, as counted (struct tsr_shader_counts). */
enum tsr_sh_class {
	TSR_SH_CLASS_ALU,     /* arithmetic, compare, select, move, derivative, indexed access */
	TSR_SH_CLASS_SFU,     /* special function unit: rcp, rsq, sqrt, exp2, log2, sin, cos, div */
	TSR_SH_CLASS_TEX,     /* texture sample */
	TSR_SH_CLASS_FLOW,    /* flow control and kill */
};

/*
 * Opcodes. Operands: d = dst (per-lane bank), a b c = src[0..2]. Results
 * are computed per component of the write mask from the same component of
 * the swizzled sources; the dot products write their one result to every
 * component of the mask. Lanes outside the execution mask keep their
 * values.
 */
enum tsr_sh_op {
	TSR_SH_NOP = 0,
	/* ALU */
	TSR_SH_MOV,    /* d = a */
	TSR_SH_ADD,    /* d = a + b */
	TSR_SH_MUL,    /* d = a * b */
	TSR_SH_MAD,    /* d = a * b + c (two roundings) */
	TSR_SH_DP2,    /* d = a.x*b.x + a.y*b.y (scalar result) */
	TSR_SH_DP3,    /* d = dot of xyz (scalar result) */
	TSR_SH_DP4,    /* d = dot of xyzw (scalar result) */
	TSR_SH_MIN,    /* d = min(a, b) (b when either is NaN, as GLSL's min: b < a ? b : a) */
	TSR_SH_MAX,    /* d = max(a, b) (a < b ? b : a) */
	TSR_SH_SLT,    /* d = a < b ? 1 : 0 */
	TSR_SH_SGE,    /* d = a >= b ? 1 : 0 */
	TSR_SH_SEQ,    /* d = a == b ? 1 : 0 */
	TSR_SH_SNE,    /* d = a != b ? 1 : 0 */
	TSR_SH_SEL,    /* d = a != 0 ? b : c */
	TSR_SH_FLR,    /* d = floor(a) */
	TSR_SH_FRC,    /* d = a - floor(a) */
	TSR_SH_TRC,    /* d = trunc(a) (float to int conversion) */
	TSR_SH_SGN,    /* d = sign(a): -1, 0 or 1 */
	TSR_SH_DDX,    /* d = a(right pixel) - a(left pixel) of the lane's quad row */
	TSR_SH_DDY,    /* d = a(lower row) - a(upper row) of the lane's quad column */
	TSR_SH_LDX,    /* d = register b.reg + clamp(int(a.x), 0, c.reg) of b's bank, per lane, swizzled by b */
	TSR_SH_STX,    /* register dst + clamp(int(a.x), 0, c.reg) = b per lane, under the write mask */
	/* SFU: per component of the write mask, like the ALU */
	TSR_SH_RCP,    /* d = 1 / a */
	TSR_SH_RSQ,    /* d = 1 / sqrt(a) */
	TSR_SH_SQRT,   /* d = sqrt(a) */
	TSR_SH_EXP2,   /* d = 2^a */
	TSR_SH_LOG2,   /* d = log2(a) */
	TSR_SH_SIN,    /* d = sin(a) (radians) */
	TSR_SH_COS,    /* d = cos(a) (radians) */
	TSR_SH_DIV,    /* d = a / b (IEEE division) */
	/* texture */
	TSR_SH_TEX,    /* d = sample(unit = int(c.x), coordinate a); implicit LOD from the quad;
			* c per-lane (a unit LDX read from a sampler array): its first active lane */
	TSR_SH_TXB,    /* same, LOD biased by b.x */
	TSR_SH_TXL,    /* same, explicit LOD b.x (vertex shaders) */
	/* flow control; dst is the jump target where noted */
	TSR_SH_IF,     /* lanes with a.x != 0 stay active; none: jump to dst (ELSE+1 or ENDIF) */
	TSR_SH_ELSE,   /* the IF's other lanes; none: jump to dst (ENDIF) */
	TSR_SH_ENDIF,  /* lanes active before the IF (less those killed, broken or continued) */
	TSR_SH_LOOP,   /* begins a loop; no lane active: jump to dst (after ENDLOOP) */
	TSR_SH_ENDLOOP,/* continued lanes rejoin; any active: jump to dst (LOOP+1); else broken lanes resume */
	TSR_SH_BRK,    /* active lanes (with a.x != 0 if COND) leave the loop; no lane of the
			* iteration left: jump to dst (the loop's CJOIN, else its ENDLOOP) */
	TSR_SH_CONT,   /* active lanes (with a.x != 0 if COND) wait for CJOIN/ENDLOOP; same jump */
	TSR_SH_CJOIN,  /* continued lanes rejoin (start of the loop's continue block) */
	TSR_SH_KILL,   /* active lanes (with a.x != 0 if COND) are discarded for good */
	TSR_SH_END,    /* end of the program */
	TSR_SH_OP_COUNT
};

struct tsr_sh_src {
	uint16_t reg;     /* register; TSR_SH_CONST_BANK set: constant bank */
	uint8_t swz;      /* component read for x, y, z, w: 2 bits each, x lowest */
	uint8_t mod;      /* TSR_SH_MOD_* */
};

/* One instruction as placed in memory: 16 bytes, little-endian fields. */
struct tsr_sh_inst {
	uint8_t op;       /* enum tsr_sh_op */
	uint8_t wmask;    /* write mask (bits 0-3) and flags (TSR_SH_F_*) */
	uint16_t dst;     /* destination register (per-lane bank), or jump target */
	struct tsr_sh_src src[3];
};

_Static_assert(sizeof(struct tsr_sh_inst) == TSR_SH_INST_BYTES, "16-byte instructions");

/* Mnemonic of an opcode ("mov"), "?" when out of range. */
const char *tsr_sh_op_name(unsigned op);

/* Source operands an opcode reads as values (0-3; the flow-control
 * instructions' condition is not counted). */
unsigned tsr_sh_op_sources(unsigned op);

/* Class of an opcode (enum tsr_sh_class). */
enum tsr_sh_class tsr_sh_op_class(unsigned op);

/*
 * Writes one instruction as text ("mad r3.xy, r1.xxxx, -c2.yzwx, r0") into
 * buf (cap bytes, NUL-terminated, truncated if short). Returns buf.
 */
char *tsr_sh_disasm(const struct tsr_sh_inst *in, char *buf, size_t cap);

#endif
