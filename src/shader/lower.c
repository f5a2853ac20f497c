/*
 * lower.c - SPIR-V (one function in SSA form, structured control flow:
 * frontend.c) to tessera's shader ISA (isa.h, docs/shader-isa.md).
 *
 * Every SSA value of scalar or vector type is a register with a swizzle
 * (scalars replicate their component), so extracts, shuffles of one
 * vector, splats, and loads of uniforms and inputs cost no instruction;
 * matrices, arrays and structs are runs of registers (a column, element
 * or member per register). Variables (function, private, output) are
 * registers too, loads and stores moves; a dynamic index becomes LDX/STX.
 * Structured selections become IF/ELSE/ENDIF, loops LOOP/ENDLOOP with
 * BRK/CONT/CJOIN, the single-case OpSwitch that --merge-return wraps a
 * function in a breakable block (ENDLOOP ONCE). A phi has a register and a
 * shadow: each incoming edge writes the shadow with that edge's lanes
 * active, the phi's block copies the shadow at its start. GLSL.std.450
 * functions lower to sequences (docs/shader-isa.md lists them). Whatever
 * else is met is refused with TSR_ERR_UNSUPPORTED naming the SPIR-V
 * instruction.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include "shader/shader_priv.h"

enum ty_kind { T_NONE = 0, T_VOID, T_BOOL, T_INT, T_FLOAT, T_VEC, T_MAT, T_ARRAY, T_STRUCT,
	       T_PTR, T_IMAGE, T_SAMPLED, T_SAMPLER, T_FUNC };

struct ty {
	uint8_t kind;
	uint8_t n;          /* vector components, matrix columns */
	uint8_t cube;       /* image / sampled image: cube map */
	uint32_t elem;      /* component, column, element, pointee or image type id */
	uint32_t len;       /* array length */
	uint32_t sc;        /* pointer storage class */
	uint32_t first;     /* struct: first member in members[] */
	uint32_t nmem;      /* struct: member count */
	uint32_t regs;      /* registers of a value of this type */
};

enum val_kind { V_NONE = 0, V_REG, V_CONST, V_PTR, V_SAMPLER };

struct val {
	uint8_t kind;
	uint8_t swz;        /* V_REG scalar/vector: swizzle from reg */
	uint8_t comp;       /* V_PTR: component within the register, 0xff: whole registers */
	uint8_t sc;         /* V_PTR: storage class of the variable (SpvStorageClass, < 256 here) */
	uint16_t reg;       /* V_REG / V_PTR / V_SAMPLER: register (bank bit included) */
	uint16_t creg;      /* V_CONST: materialized constant register, 0xffff none */
	uint32_t type;      /* value type id (V_PTR: the pointee's) */
	uint32_t cidx;      /* V_CONST: first register of its data in cdata */
	uint32_t dyn;       /* V_PTR: 1 when a dynamic register offset is in register creg */
	uint16_t dyn_max;   /* V_PTR: largest dynamic offset, registers */
	uint16_t dcomp;     /* V_PTR: register whose x is a dynamic component index (comp 0xfe) */
};

struct block {
	uint32_t label;
	uint32_t start, end;      /* words of the instructions after OpLabel; end = terminator */
	uint32_t merge;           /* OpSelectionMerge / OpLoopMerge merge block id */
	uint32_t cont;            /* OpLoopMerge continue target id (0: not a header) */
	uint8_t is_loop;
};

enum con_kind { C_LOOP, C_BLOCK };

struct construct {
	uint8_t kind;
	uint32_t header, merge, cont;
	uint32_t first_inst;      /* the LOOP instruction */
	uint32_t id;              /* patch tag of its BRK/CONT */
	int entered;              /* the header block's own code was emitted */
};

struct lower {
	enum tsr_shader_stage stage;
	const uint32_t *w;
	size_t nw;
	uint32_t bound;
	struct ty *types;
	struct val *vals;
	uint32_t *members, nmembers, cap_members;
	char **names;             /* OpName per id */
	uint32_t *builtin;        /* BuiltIn decoration per id (+1), 0 none */
	uint8_t *relaxed;         /* RelaxedPrecision decoration per id (mediump, lowp) */
	uint8_t *invariant;       /* Invariant decoration per id */
	unsigned half;            /* TSR_SH_F_HALF while lowering a relaxed result's instruction */
	uint32_t glsl_ext;        /* GLSL.std.450 import id */
	/* per struct type: member BuiltIn decorations (+1) */
	uint32_t (*member_builtin)[2];
	uint32_t n_member_builtin, cap_member_builtin;
	float (*cdata)[4];        /* constants, a register each */
	uint32_t n_cdata, cap_cdata;
	struct block *blocks;
	uint32_t n_blocks;
	uint32_t *block_of;       /* label id -> block index + 1 */
	uint8_t *var_used;        /* global variable referenced by the function */
	/* output */
	struct tsr_sh_inst *code;
	uint32_t n_code, cap_code;
	uint32_t *patch;          /* per instruction: construct tag of BRK/CONT */
	uint32_t regs;            /* per-lane registers allocated */
	float (*consts)[4];       /* constant bank */
	uint32_t n_consts, cap_consts, uniform_regs;
	uint32_t scalar_fill_reg; /* literal register being filled with scalars, 0xffffffff none */
	uint32_t scalar_fill_n;
	/* phis: per id, its shadow register */
	uint16_t *phi_shadow;
	struct construct cons[TSR_SH_MAX_NESTING + 1];
	int n_cons;
	int if_depth;
	uint32_t next_tag;
	uint32_t visits;          /* blocks emitted: each once in structured code */
	struct tsr_sh_stage *out;
	struct tsr_error *err;
};

/* ---------- helpers ---------- */

static enum tsr_status unsupported(struct lower *L, const char *what, uint32_t op)
{
	return tsr_error_set(L->err, TSR_ERR_UNSUPPORTED,
			     "%s: SPIR-V instruction '%s' (opcode %u) cannot be lowered to tessera's ISA",
			     L->stage == TSR_SHADER_VERTEX ? "vertex shader" : "fragment shader", what, op);
}

static enum tsr_status malformed(struct lower *L, const char *what)
{
	return tsr_error_set(L->err, TSR_ERR_PARSE, "malformed SPIR-V: %s", what);
}

static enum tsr_status grow(void **p, uint32_t *cap, uint32_t need, size_t elem,
			    struct tsr_error *err)
{
	if (need <= *cap)
		return TSR_OK;
	uint32_t c = *cap ? *cap : 64;
	while (c < need)
		c *= 2;
	void *n = realloc(*p, (size_t)c * elem);
	if (!n)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory lowering a shader");
	*p = n;
	*cap = c;
	return TSR_OK;
}

static uint8_t swz_rep(uint8_t swz, unsigned c)
{
	unsigned s = (swz >> (2 * c)) & 3u;
	return (uint8_t)(s | s << 2 | s << 4 | s << 6);
}

/* swizzle reading component sel[i] of a value whose swizzle is swz */
static uint8_t swz_compose(uint8_t swz, const unsigned sel[4])
{
	uint8_t r = 0;
	for (unsigned i = 0; i < 4; i++)
		r |= (uint8_t)(((swz >> (2 * (sel[i] & 3u))) & 3u) << (2 * i));
	return r;
}

static const struct tsr_sh_src NOSRC = {0, TSR_SH_SWZ_XYZW, 0};

static struct tsr_sh_src mksrc(uint16_t reg, uint8_t swz, uint8_t mod)
{
	struct tsr_sh_src s = {reg, swz, mod};
	return s;
}

static struct tsr_sh_src neg(struct tsr_sh_src s)
{
	s.mod ^= TSR_SH_MOD_NEG;
	return s;
}

static struct tsr_sh_src absm(struct tsr_sh_src s)
{
	s.mod = TSR_SH_MOD_ABS;
	return s;
}

static struct tsr_sh_src rep(struct tsr_sh_src s, unsigned c)
{
	s.swz = swz_rep(s.swz, c);
	return s;
}

static enum tsr_status emit(struct lower *L, unsigned op, unsigned wmask, uint16_t dst,
			    struct tsr_sh_src a, struct tsr_sh_src b, struct tsr_sh_src c)
{
	if (L->n_code >= 65535)
		return tsr_error_set(L->err, TSR_ERR_LIMIT, "shader longer than 65535 instructions");
	if (L->n_code + 1 > L->cap_code) {
		uint32_t cap = L->cap_code;
		TSR_TRY(grow((void **)&L->code, &L->cap_code, L->n_code + 1, sizeof(*L->code), L->err));
		TSR_TRY(grow((void **)&L->patch, &cap, L->cap_code, sizeof(*L->patch), L->err));
	}
	L->patch[L->n_code] = 0;
	struct tsr_sh_inst *in = &L->code[L->n_code++];
	in->op = (uint8_t)op;
	/* a relaxed result's arithmetic runs at half precision (isa.h) */
	if (L->half && op != TSR_SH_MOV && op != TSR_SH_SEL && op != TSR_SH_LDX && op != TSR_SH_STX &&
	    (tsr_sh_op_class(op) == TSR_SH_CLASS_ALU || tsr_sh_op_class(op) == TSR_SH_CLASS_SFU))
		wmask |= TSR_SH_F_HALF;
	in->wmask = (uint8_t)wmask;
	in->dst = dst;
	in->src[0] = a;
	in->src[1] = b;
	in->src[2] = c;
	return TSR_OK;
}

static enum tsr_status new_regs(struct lower *L, uint32_t n, uint16_t *reg)
{
	*reg = 0;
	if (L->regs + n > TSR_SH_REG_MASK)
		return tsr_error_set(L->err, TSR_ERR_LIMIT, "shader needs more than %u registers",
				     TSR_SH_REG_MASK);
	*reg = (uint16_t)L->regs;
	L->regs += n;
	return TSR_OK;
}

static enum tsr_status new_consts(struct lower *L, uint32_t n, uint16_t *reg)
{
	*reg = TSR_SH_CONST_BANK;
	if (L->n_consts + n > TSR_SH_REG_MASK)
		return tsr_error_set(L->err, TSR_ERR_LIMIT, "shader needs more than %u constants",
				     TSR_SH_REG_MASK);
	TSR_TRY(grow((void **)&L->consts, &L->cap_consts, L->n_consts + n, sizeof(*L->consts), L->err));
	memset(L->consts[L->n_consts], 0, n * sizeof(*L->consts));
	*reg = (uint16_t)(L->n_consts | TSR_SH_CONST_BANK);
	L->n_consts += n;
	return TSR_OK;
}

/* a scalar literal: a component of a shared constant register */
static enum tsr_status lit(struct lower *L, float f, struct tsr_sh_src *s)
{
	*s = NOSRC;
	uint32_t bits;
	memcpy(&bits, &f, 4);
	for (uint32_t r = L->uniform_regs; r < L->n_consts; r++)
		for (unsigned c = 0; c < 4; c++) {
			uint32_t b;
			memcpy(&b, &L->consts[r][c], 4);
			if (b == bits && (r != L->scalar_fill_reg || c < L->scalar_fill_n)) {
				*s = mksrc((uint16_t)(r | TSR_SH_CONST_BANK), swz_rep(TSR_SH_SWZ_XYZW, c), 0);
				return TSR_OK;
			}
		}
	if (L->scalar_fill_reg == 0xffffffffu || L->scalar_fill_n == 4) {
		uint16_t reg;
		TSR_TRY(new_consts(L, 1, &reg));
		L->scalar_fill_reg = reg & TSR_SH_REG_MASK;
		L->scalar_fill_n = 0;
	}
	unsigned c = L->scalar_fill_n++;
	L->consts[L->scalar_fill_reg][c] = f;
	*s = mksrc((uint16_t)(L->scalar_fill_reg | TSR_SH_CONST_BANK), swz_rep(TSR_SH_SWZ_XYZW, c), 0);
	return TSR_OK;
}

/* a vector literal of n components (identity swizzle) */
static enum tsr_status lit_vec(struct lower *L, const float *v, unsigned n, struct tsr_sh_src *s)
{
	bool same = true;
	for (unsigned i = 1; i < n; i++)
		same &= memcmp(&v[i], &v[0], 4) == 0;
	if (same)
		return lit(L, v[0], s);
	for (uint32_t r = L->uniform_regs; r < L->n_consts; r++) {
		if (r == L->scalar_fill_reg)
			continue;
		if (memcmp(L->consts[r], v, n * 4) == 0) {
			*s = mksrc((uint16_t)(r | TSR_SH_CONST_BANK), TSR_SH_SWZ_XYZW, 0);
			return TSR_OK;
		}
	}
	uint16_t reg;
	TSR_TRY(new_consts(L, 1, &reg));
	memcpy(L->consts[reg & TSR_SH_REG_MASK], v, n * 4);
	for (unsigned i = n; i < 4; i++)
		L->consts[reg & TSR_SH_REG_MASK][i] = v[n - 1];
	*s = mksrc(reg, TSR_SH_SWZ_XYZW, 0);
	return TSR_OK;
}

static enum tsr_status flit(struct lower *L, float f, struct tsr_sh_src *s)
{
	return lit(L, f, s);
}

/* ---------- types ---------- */

static const struct ty *ty(struct lower *L, uint32_t id)
{
	static const struct ty none;
	return id < L->bound ? &L->types[id] : &none;
}

/* components of a scalar or vector type (0 otherwise) */
static unsigned comps(struct lower *L, uint32_t id)
{
	const struct ty *t = ty(L, id);
	if (t->kind == T_FLOAT || t->kind == T_INT || t->kind == T_BOOL)
		return 1;
	if (t->kind == T_VEC)
		return t->n;
	return 0;
}

static uint32_t type_regs(struct lower *L, uint32_t id)
{
	return ty(L, id)->regs;
}

/* ---------- values ---------- */

/* the type of value id (0 for an id out of range) */
static uint32_t vtype(struct lower *L, uint32_t id)
{
	return id < L->bound ? L->vals[id].type : 0;
}

static enum tsr_status get(struct lower *L, uint32_t id, struct val **v)
{
	*v = &L->vals[0];
	if (id == 0 || id >= L->bound || L->vals[id].kind == V_NONE)
		return tsr_error_set(L->err, TSR_ERR_UNSUPPORTED,
				     "SPIR-V value %%%u is used before it is defined (unstructured code?)", id);
	*v = &L->vals[id];
	return TSR_OK;
}

/* the constant register(s) holding a constant value */
static enum tsr_status const_src(struct lower *L, struct val *v, struct tsr_sh_src *s)
{
	unsigned n = comps(L, v->type);
	if (n) {
		if (n == 1)
			return lit(L, L->cdata[v->cidx][0], s);
		return lit_vec(L, L->cdata[v->cidx], n, s);
	}
	if (v->creg == 0xffff) {
		uint32_t r = type_regs(L, v->type);
		uint16_t reg;
		TSR_TRY(new_consts(L, r, &reg));
		memcpy(L->consts[reg & TSR_SH_REG_MASK], L->cdata[v->cidx], r * sizeof(*L->cdata));
		v->creg = reg;
	}
	*s = mksrc(v->creg, TSR_SH_SWZ_XYZW, 0);
	return TSR_OK;
}

/* source operand of register k of a value (scalar/vector: k = 0) */
static enum tsr_status src_k(struct lower *L, uint32_t id, uint32_t k, struct tsr_sh_src *s)
{
	*s = NOSRC;
	struct val *v;
	TSR_TRY(get(L, id, &v));
	if (v->kind == V_CONST) {
		TSR_TRY(const_src(L, v, s));
		if (!comps(L, v->type))
			s->reg = (uint16_t)(s->reg + k);
		return TSR_OK;
	}
	if (v->kind != V_REG)
		return tsr_error_set(L->err, TSR_ERR_UNSUPPORTED,
				     "SPIR-V value %%%u (a pointer or sampler) used as an operand", id);
	*s = mksrc((uint16_t)(v->reg + k), comps(L, v->type) ? v->swz : TSR_SH_SWZ_XYZW, 0);
	return TSR_OK;
}

static enum tsr_status src(struct lower *L, uint32_t id, struct tsr_sh_src *s)
{
	return src_k(L, id, 0, s);
}

static void set_reg(struct lower *L, uint32_t id, uint32_t type, uint16_t reg, uint8_t swz)
{
	struct val *v = &L->vals[id];
	memset(v, 0, sizeof(*v));
	v->kind = V_REG;
	v->type = type;
	v->reg = reg;
	v->swz = swz;
	v->creg = 0xffff;
}

/* a fresh result of the type: its register(s) */
static enum tsr_status result(struct lower *L, uint32_t id, uint32_t type, uint16_t *reg)
{
	*reg = 0;
	uint32_t n = type_regs(L, type);
	if (n == 0)
		return tsr_error_set(L->err, TSR_ERR_UNSUPPORTED, "SPIR-V value %%%u has a type without registers", id);
	TSR_TRY(new_regs(L, n, reg));
	unsigned c = comps(L, type);
	set_reg(L, id, type, *reg, c == 1 ? 0 : TSR_SH_SWZ_XYZW);
	return TSR_OK;
}

static unsigned mask_n(unsigned n)
{
	return (1u << n) - 1u;
}

/* ---------- the module ---------- */

static enum tsr_status add_const(struct lower *L, uint32_t id, uint32_t type, uint32_t nregs,
				 uint32_t *cidx)
{
	TSR_TRY(grow((void **)&L->cdata, &L->cap_cdata, L->n_cdata + nregs, sizeof(*L->cdata), L->err));
	*cidx = L->n_cdata;
	memset(L->cdata[L->n_cdata], 0, nregs * sizeof(*L->cdata));
	L->n_cdata += nregs;
	struct val *v = &L->vals[id];
	memset(v, 0, sizeof(*v));
	v->kind = V_CONST;
	v->type = type;
	v->cidx = *cidx;
	v->creg = 0xffff;
	return TSR_OK;
}

static float const_scalar(struct lower *L, uint32_t type, uint32_t word)
{
	const struct ty *t = ty(L, type);
	if (t->kind == T_FLOAT) {
		float f;
		memcpy(&f, &word, 4);
		return f;
	}
	if (t->kind == T_INT && t->n == 1)
		return (float)(int32_t)word;
	return (float)word;
}

static enum tsr_status parse_module(struct lower *L)
{
	const uint32_t *w = L->w;
	size_t i = 5;
	uint32_t fn_count = 0;
	bool in_fn = false;
	while (i < L->nw) {
		uint32_t op = w[i] & 0xffffu, len = w[i] >> 16;
		if (len == 0 || i + len > L->nw)
			return malformed(L, "instruction length");
		const uint32_t *a = &w[i + 1];
		uint32_t na = len - 1;
		/* the ids a declaration defines must be in range */
		bool is_type = op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer;
		bool is_const = op >= SpvOpConstantTrue && op <= SpvOpSpecConstantOp;
		if ((is_type && (na < 1 || a[0] >= L->bound)) ||
		    ((is_const || op == SpvOpUndef || op == SpvOpVariable) && (na < 2 || a[0] >= L->bound ||
									    a[1] >= L->bound)))
			return malformed(L, "id out of range");
		switch (op) {
		case SpvOpName:
			if (na >= 2 && a[0] < L->bound && !L->names[a[0]]) {
				size_t n = strnlen((const char *)&a[1], (na - 1) * 4);
				char *s = malloc(n + 1);
				if (!s)
					return tsr_error_set(L->err, TSR_ERR_NOMEM, "out of memory");
				memcpy(s, &a[1], n);
				s[n] = '\0';
				L->names[a[0]] = s;
			}
			break;
		case SpvOpMemberName:
			break; /* read again when naming interface leaves */
		case SpvOpExtInstImport:
			if (na >= 2 && strncmp((const char *)&a[1], "GLSL.std.450", (na - 1) * 4) == 0)
				L->glsl_ext = a[0];
			break;
		case SpvOpDecorate:
			if (na >= 3 && a[1] == SpvDecorationBuiltIn && a[0] < L->bound)
				L->builtin[a[0]] = a[2] + 1;
			if (na >= 2 && a[1] == SpvDecorationRelaxedPrecision && a[0] < L->bound)
				L->relaxed[a[0]] = 1;
			if (na >= 2 && a[1] == SpvDecorationInvariant && a[0] < L->bound)
				L->invariant[a[0]] = 1;
			break;
		case SpvOpMemberDecorate:
			if (na >= 4 && a[2] == SpvDecorationBuiltIn) {
				TSR_TRY(grow((void **)&L->member_builtin, &L->cap_member_builtin,
					     L->n_member_builtin + 1, sizeof(*L->member_builtin), L->err));
				/* struct id, member index << 16 | builtin + 1 */
				L->member_builtin[L->n_member_builtin][0] = a[0];
				L->member_builtin[L->n_member_builtin][1] = a[1] << 16 | (a[3] + 1);
				L->n_member_builtin++;
			}
			break;
		case SpvOpTypeVoid:
			L->types[a[0]].kind = T_VOID;
			break;
		case SpvOpTypeBool:
			L->types[a[0]] = (struct ty){.kind = T_BOOL, .regs = 1};
			break;
		case SpvOpTypeInt:
			L->types[a[0]] = (struct ty){.kind = T_INT, .regs = 1, .n = (uint8_t)(na >= 3 && a[2])};
			break;
		case SpvOpTypeFloat:
			if (na >= 2 && a[1] != 32)
				return unsupported(L, "OpTypeFloat (not 32-bit)", op);
			L->types[a[0]] = (struct ty){.kind = T_FLOAT, .regs = 1};
			break;
		case SpvOpTypeVector:
			L->types[a[0]] = (struct ty){.kind = T_VEC, .elem = a[1], .n = (uint8_t)a[2], .regs = 1};
			if (a[2] < 2 || a[2] > 4)
				return malformed(L, "vector size");
			break;
		case SpvOpTypeMatrix:
			L->types[a[0]] = (struct ty){.kind = T_MAT, .elem = a[1], .n = (uint8_t)a[2], .regs = a[2]};
			break;
		case SpvOpTypeArray: {
			struct val *lv = a[2] < L->bound ? &L->vals[a[2]] : NULL;
			if (!lv || lv->kind != V_CONST)
				return unsupported(L, "OpTypeArray with a specialization-constant length", op);
			uint32_t n = (uint32_t)L->cdata[lv->cidx][0];
			uint32_t r = ty(L, a[1])->regs * n;
			if (r > 4096)
				return tsr_error_set(L->err, TSR_ERR_LIMIT, "array of %u registers", r);
			L->types[a[0]] = (struct ty){.kind = T_ARRAY, .elem = a[1], .len = n, .regs = r};
			break;
		}
		case SpvOpTypeRuntimeArray:
			return unsupported(L, "OpTypeRuntimeArray", op);
		case SpvOpTypeStruct: {
			uint32_t r = 0;
			TSR_TRY(grow((void **)&L->members, &L->cap_members, L->nmembers + na, sizeof(uint32_t), L->err));
			uint32_t first = L->nmembers;
			for (uint32_t k = 1; k < na; k++) {
				L->members[L->nmembers++] = a[k];
				r += ty(L, a[k])->regs;
			}
			L->types[a[0]] = (struct ty){.kind = T_STRUCT, .first = first, .nmem = na - 1, .regs = r};
			break;
		}
		case SpvOpTypePointer:
			L->types[a[0]] = (struct ty){.kind = T_PTR, .sc = a[1], .elem = a[2]};
			break;
		case SpvOpTypeImage:
			if (a[2] != SpvDim2D && a[2] != SpvDimCube)
				return unsupported(L, "OpTypeImage (not 2D or cube)", op);
			L->types[a[0]] = (struct ty){.kind = T_IMAGE, .cube = a[2] == SpvDimCube};
			break;
		case SpvOpTypeSampledImage:
			L->types[a[0]] = (struct ty){.kind = T_SAMPLED, .elem = a[1], .cube = ty(L, a[1])->cube, .regs = 1};
			break;
		case SpvOpTypeSampler:
			L->types[a[0]].kind = T_SAMPLER;
			break;
		case SpvOpTypeFunction:
			L->types[a[0]].kind = T_FUNC;
			break;
		case SpvOpConstant: {
			uint32_t ci;
			TSR_TRY(add_const(L, a[1], a[0], 1, &ci));
			float f = const_scalar(L, a[0], a[2]);
			for (int c = 0; c < 4; c++)
				L->cdata[ci][c] = f;
			break;
		}
		case SpvOpConstantTrue:
		case SpvOpConstantFalse: {
			uint32_t ci;
			TSR_TRY(add_const(L, a[1], a[0], 1, &ci));
			for (int c = 0; c < 4; c++)
				L->cdata[ci][c] = op == SpvOpConstantTrue ? 1.0f : 0.0f;
			break;
		}
		case SpvOpConstantNull:
		case SpvOpUndef: {
			if (in_fn && op == SpvOpUndef) {
				/* function-level undef: handled at emission (a zero constant) */
			}
			uint32_t r = type_regs(L, a[0]);
			uint32_t ci;
			TSR_TRY(add_const(L, a[1], a[0], r ? r : 1, &ci));
			break;
		}
		case SpvOpConstantComposite: {
			uint32_t type = a[0], r = type_regs(L, type);
			uint32_t ci;
			TSR_TRY(add_const(L, a[1], type, r ? r : 1, &ci));
			const struct ty *t = ty(L, type);
			if (t->kind == T_VEC) {
				for (uint32_t k = 2; k < na && k - 2 < 4; k++) {
					struct val *cv = a[k] < L->bound ? &L->vals[a[k]] : NULL;
					if (!cv || cv->kind != V_CONST)
						return malformed(L, "constant composite of a non-constant");
					L->cdata[ci][k - 2] = L->cdata[cv->cidx][0];
				}
			} else {
				uint32_t off = 0;
				for (uint32_t k = 2; k < na; k++) {
					struct val *cv = a[k] < L->bound ? &L->vals[a[k]] : NULL;
					if (!cv || cv->kind != V_CONST)
						return malformed(L, "constant composite of a non-constant");
					uint32_t cr = type_regs(L, cv->type);
					if (off + cr > r)
						return malformed(L, "constant composite size");
					memcpy(L->cdata[ci + off], L->cdata[cv->cidx], cr * sizeof(*L->cdata));
					off += cr;
				}
			}
			break;
		}
		case SpvOpSpecConstant:
		case SpvOpSpecConstantTrue:
		case SpvOpSpecConstantFalse:
		case SpvOpSpecConstantComposite:
		case SpvOpSpecConstantOp:
			return unsupported(L, "OpSpecConstant", op);
		case SpvOpFunction:
			fn_count++;
			in_fn = true;
			if (fn_count > 1)
				return unsupported(L, "OpFunction (a second function: calls were not all inlined)", op);
			break;
		case SpvOpFunctionEnd:
			in_fn = false;
			break;
		default:
			break;
		}
		i += len;
	}
	return TSR_OK;
}

/* ---------- interface leaves ---------- */

static uint32_t gltype_of(struct lower *L, uint32_t type)
{
	const struct ty *t = ty(L, type);
	switch (t->kind) {
	case T_FLOAT:
		return TSR_GL_FLOAT;
	case T_INT:
		return TSR_GL_INT;
	case T_BOOL:
		return TSR_GL_BOOL;
	case T_VEC: {
		const struct ty *e = ty(L, t->elem);
		uint32_t base = e->kind == T_FLOAT ? TSR_GL_FLOAT_VEC2 : e->kind == T_INT ? TSR_GL_INT_VEC2
											   : TSR_GL_BOOL_VEC2;
		return base + t->n - 2u;
	}
	case T_MAT:
		if (ty(L, t->elem)->n != t->n)
			return 0;
		return TSR_GL_FLOAT_MAT2 + t->n - 2u;
	case T_SAMPLED:
		return t->cube ? TSR_GL_SAMPLER_CUBE : TSR_GL_SAMPLER_2D;
	default:
		return 0;
	}
}

static enum tsr_status add_leaf(struct lower *L, struct tsr_sh_leaf **arr, uint32_t *n,
				const struct tsr_sh_leaf *leaf)
{
	uint32_t cap = *n;
	/* arrays grow by one: interfaces are small */
	struct tsr_sh_leaf *p = realloc(*arr, (size_t)(cap + 1) * sizeof(**arr));
	if (!p)
		return tsr_error_set(L->err, TSR_ERR_NOMEM, "out of memory");
	*arr = p;
	p[(*n)++] = *leaf;
	return TSR_OK;
}

static const char *member_name(struct lower *L, uint32_t st, uint32_t m, char *buf, size_t cap)
{
	const uint32_t *w = L->w;
	for (size_t i = 5; i < L->nw;) {
		uint32_t op = w[i] & 0xffffu, len = w[i] >> 16;
		if (len == 0)
			break;
		if (op == SpvOpMemberName && len >= 4 && w[i + 1] == st && w[i + 2] == m) {
			size_t n = strnlen((const char *)&w[i + 3], (len - 3) * 4);
			if (n >= cap)
				n = cap - 1;
			memcpy(buf, &w[i + 3], n);
			buf[n] = '\0';
			return buf;
		}
		if (op == SpvOpFunction)
			break;
		i += len;
	}
	snprintf(buf, cap, "_m%u", m);
	return buf;
}

static uint32_t member_builtin(struct lower *L, uint32_t st, uint32_t m)
{
	for (uint32_t i = 0; i < L->n_member_builtin; i++)
		if (L->member_builtin[i][0] == st && (L->member_builtin[i][1] >> 16) == m)
			return L->member_builtin[i][1] & 0xffffu;
	return 0;
}

static uint8_t builtin_of(uint32_t spv_builtin_plus1, const char *name)
{
	if (spv_builtin_plus1) {
		switch (spv_builtin_plus1 - 1) {
		case SpvBuiltInPosition:
			return TSR_SH_BI_POSITION;
		case SpvBuiltInPointSize:
			return TSR_SH_BI_POINT_SIZE;
		case SpvBuiltInFragCoord:
			return TSR_SH_BI_FRAG_COORD;
		case SpvBuiltInFrontFacing:
			return TSR_SH_BI_FRONT_FACING;
		case SpvBuiltInPointCoord:
			return TSR_SH_BI_POINT_COORD;
		case SpvBuiltInFragDepth:
			return TSR_SH_BI_FRAG_DEPTH;
		default:
			return 0xff;
		}
	}
	if (name && strcmp(name, "gl_FragColor") == 0)
		return TSR_SH_BI_FRAG_COLOR;
	if (name && strcmp(name, "gl_FragData") == 0)
		return TSR_SH_BI_FRAG_DATA;
	if (name && strcmp(name, "tsr_LastFragData") == 0)
		return TSR_SH_BI_LAST_FRAG_DATA;  /* frontend.c's name of gl_LastFragData */
	if (name && (strcmp(name, "gl_SecondaryFragColorEXT") == 0 ||
		     strcmp(name, "gl_SecondaryFragDataEXT") == 0))
		return TSR_SH_BI_SECONDARY_COLOR;  /* an array of gl_MaxDualSourceDrawBuffersEXT (1) */
	return TSR_SH_BI_NONE;
}

static enum tsr_status walk_leaves(struct lower *L, uint32_t type, const char *name, uint32_t reg,
				   uint8_t bi, struct tsr_sh_leaf **arr, uint32_t *n, int depth)
{
	const struct ty *t = ty(L, type);
	if (depth > 16)
		return malformed(L, "types nested deeper than 16");
	char buf[TSR_SHADER_MAX_NAME * 2];
	if (t->kind == T_STRUCT) {
		uint32_t off = 0;
		for (uint32_t m = 0; m < t->nmem; m++) {
			uint32_t mt = L->members[t->first + m];
			char mn[TSR_SHADER_MAX_NAME];
			uint32_t mb = member_builtin(L, type, m);
			uint8_t mbi = bi;
			if (mb) {
				mbi = builtin_of(mb, NULL);
				if (mbi == 0xff)
					goto next; /* gl_ClipDistance and the like: never written in ES 1.00 */
				snprintf(buf, sizeof(buf), "%s", mbi == TSR_SH_BI_POSITION ? "gl_Position"
								  : "gl_PointSize");
			} else if (name[0] == '\0') {
				snprintf(buf, sizeof(buf), "%s", member_name(L, type, m, mn, sizeof(mn)));
			} else {
				snprintf(buf, sizeof(buf), "%s.%s", name, member_name(L, type, m, mn, sizeof(mn)));
			}
			TSR_TRY(walk_leaves(L, mt, buf, reg + off, mbi, arr, n, depth + 1));
		next:
			off += ty(L, mt)->regs;
		}
		return TSR_OK;
	}
	if (t->kind == T_ARRAY && ty(L, t->elem)->kind == T_STRUCT) {
		uint32_t er = ty(L, t->elem)->regs;
		for (uint32_t e = 0; e < t->len; e++) {
			snprintf(buf, sizeof(buf), "%s[%u]", name, e);
			TSR_TRY(walk_leaves(L, t->elem, buf, reg + e * er, bi, arr, n, depth + 1));
		}
		return TSR_OK;
	}
	struct tsr_sh_leaf leaf;
	memset(&leaf, 0, sizeof(leaf));
	uint32_t et = type;
	if (t->kind == T_ARRAY) {
		if (ty(L, t->elem)->kind == T_ARRAY)
			return unsupported(L, "OpTypeArray of arrays in an interface", SpvOpTypeArray);
		leaf.array_size = t->len;
		leaf.is_array = 1;
		et = t->elem;
	} else {
		leaf.array_size = 1;
	}
	leaf.gltype = gltype_of(L, et);
	if (!leaf.gltype)
		return tsr_error_set(L->err, TSR_ERR_UNSUPPORTED, "interface variable '%s' has a type GL ES 2.0 has not",
				     name);
	leaf.cols = (uint8_t)tsr_sh_gltype_cols(leaf.gltype);
	leaf.comps = (uint8_t)tsr_sh_gltype_comps(leaf.gltype);
	leaf.reg = (uint16_t)reg;
	leaf.builtin = bi;
	leaf.sampler = leaf.gltype == TSR_GL_SAMPLER_2D ? 1 : leaf.gltype == TSR_GL_SAMPLER_CUBE ? 2 : 0;
	if (strlen(name) >= TSR_SHADER_MAX_NAME)
		return tsr_error_set(L->err, TSR_ERR_LIMIT, "interface name '%s' longer than %d characters",
				     name, TSR_SHADER_MAX_NAME - 1);
	snprintf(leaf.name, sizeof(leaf.name), "%s", name);
	return add_leaf(L, arr, n, &leaf);
}

/* Global variables: registers and interface leaves. Uniforms first (the
 * constant bank's registers 0..uniform_regs-1). */
static enum tsr_status place_globals(struct lower *L)
{
	const uint32_t *w = L->w;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 5; i < L->nw;) {
			uint32_t op = w[i] & 0xffffu, len = w[i] >> 16;
			if (op == SpvOpFunction)
				break;
			if (op == SpvOpVariable && len >= 4) {
				uint32_t ptype = w[i + 1], id = w[i + 2], sc = w[i + 3];
				uint32_t vt = ty(L, ptype)->elem;
				bool uniform = sc == SpvStorageClassUniformConstant;
				if (uniform != (pass == 0) || !L->var_used[id]) {
					i += len;
					continue;
				}
				if (sc == SpvStorageClassUniform || sc == SpvStorageClassStorageBuffer ||
				    sc == SpvStorageClassPushConstant || sc == SpvStorageClassWorkgroup)
					return unsupported(L, "OpVariable (uniform block or buffer storage)", op);
				uint32_t r = type_regs(L, vt);
				uint16_t reg;
				if (uniform) {
					TSR_TRY(new_consts(L, r, &reg));
					L->uniform_regs = L->n_consts;
				} else {
					TSR_TRY(new_regs(L, r, &reg));
				}
				struct val *v = &L->vals[id];
				memset(v, 0, sizeof(*v));
				/* samplers, and arrays of them */
				uint32_t et = vt;
				for (int d = 0; d < 8 && ty(L, et)->kind == T_ARRAY; d++)
					et = ty(L, et)->elem;
				v->kind = ty(L, et)->kind == T_SAMPLED ? V_SAMPLER : V_PTR;
				if (v->kind == V_SAMPLER && !uniform)
					return unsupported(L, "OpVariable (a sampler outside uniform storage)", op);
				v->type = vt;
				v->reg = reg;
				v->comp = 0xff;
				v->sc = (uint8_t)sc;
				v->creg = 0xffff;
				const char *name = L->names[id] ? L->names[id] : "";
				uint8_t bi = builtin_of(L->builtin[id], name);
				if (bi == 0xff)
					return unsupported(L, "OpVariable of a built-in GLSL ES 1.00 has not", op);
				struct tsr_sh_stage *o = L->out;
				const uint32_t first[3] = {o->n_uniforms, o->n_inputs, o->n_outputs};
				if (uniform)
					TSR_TRY(walk_leaves(L, vt, name, reg, bi, &o->uniforms, &o->n_uniforms, 0));
				else if (sc == SpvStorageClassInput)
					TSR_TRY(walk_leaves(L, vt, name, reg, bi, &o->inputs, &o->n_inputs, 0));
				else if (sc == SpvStorageClassOutput)
					TSR_TRY(walk_leaves(L, vt, name, reg, bi, &o->outputs, &o->n_outputs, 0));
				/* the variable's precision and invariance, for the link's checks */
				for (uint32_t k = first[0]; k < o->n_uniforms; k++)
					o->uniforms[k].relaxed = L->relaxed[id], o->uniforms[k].invariant = L->invariant[id];
				for (uint32_t k = first[1]; k < o->n_inputs; k++)
					o->inputs[k].relaxed = L->relaxed[id], o->inputs[k].invariant = L->invariant[id];
				for (uint32_t k = first[2]; k < o->n_outputs; k++)
					o->outputs[k].relaxed = L->relaxed[id], o->outputs[k].invariant = L->invariant[id];
				if (len >= 5 && sc == SpvStorageClassPrivate) {
					/* initializer: copied at the start (emit_function) */
				}
			}
			i += len;
		}
	}
	return TSR_OK;
}

/* ---------- blocks ---------- */

static enum tsr_status find_blocks(struct lower *L, size_t *fn_start, size_t *fn_end)
{
	const uint32_t *w = L->w;
	size_t i = 5;
	*fn_start = *fn_end = 0;
	uint32_t cap = 0;
	while (i < L->nw) {
		uint32_t op = w[i] & 0xffffu, len = w[i] >> 16;
		if (op == SpvOpFunction)
			*fn_start = i;
		if (op == SpvOpFunctionEnd)
			*fn_end = i;
		if (op == SpvOpLabel) {
			TSR_TRY(grow((void **)&L->blocks, &cap, L->n_blocks + 1, sizeof(*L->blocks), L->err));
			struct block *b = &L->blocks[L->n_blocks++];
			memset(b, 0, sizeof(*b));
			b->label = w[i + 1];
			b->start = (uint32_t)(i + len);
			if (b->label >= L->bound)
				return malformed(L, "label id");
			L->block_of[b->label] = L->n_blocks;
		}
		if (L->n_blocks && (op == SpvOpBranch || op == SpvOpBranchConditional || op == SpvOpSwitch ||
				    op == SpvOpReturn || op == SpvOpReturnValue || op == SpvOpKill ||
				    op == SpvOpUnreachable))
			L->blocks[L->n_blocks - 1].end = (uint32_t)i;
		if (L->n_blocks && op == SpvOpSelectionMerge)
			L->blocks[L->n_blocks - 1].merge = w[i + 1];
		if (L->n_blocks && op == SpvOpLoopMerge) {
			L->blocks[L->n_blocks - 1].merge = w[i + 1];
			L->blocks[L->n_blocks - 1].cont = w[i + 2];
			L->blocks[L->n_blocks - 1].is_loop = 1;
		}
		/* global variables the function references */
		if (*fn_start && op != SpvOpFunction && op != SpvOpLabel && len > 1)
			for (uint32_t k = 1; k < len; k++)
				if (w[i + k] < L->bound)
					L->var_used[w[i + k]] = 1;
		i += len;
	}
	if (!*fn_start || !*fn_end || !L->n_blocks)
		return malformed(L, "no function body");
	for (uint32_t b = 0; b < L->n_blocks; b++)
		if (!L->blocks[b].end)
			return malformed(L, "block without terminator");
	return TSR_OK;
}

static struct block *blk(struct lower *L, uint32_t label)
{
	if (label >= L->bound || !L->block_of[label])
		return NULL;
	return &L->blocks[L->block_of[label] - 1];
}

/* ---------- phis ---------- */

static enum tsr_status alloc_phis(struct lower *L)
{
	for (uint32_t b = 0; b < L->n_blocks; b++) {
		for (uint32_t i = L->blocks[b].start; i < L->blocks[b].end;) {
			uint32_t op = L->w[i] & 0xffffu, len = L->w[i] >> 16;
			if (op == SpvOpPhi) {
				uint32_t type = L->w[i + 1], id = L->w[i + 2];
				if (len < 3 || id >= L->bound || type >= L->bound)
					return malformed(L, "phi id out of range");
				uint16_t reg, shadow;
				TSR_TRY(result(L, id, type, &reg));
				TSR_TRY(new_regs(L, type_regs(L, type), &shadow));
				L->phi_shadow[id] = shadow;
			}
			i += len;
		}
	}
	return TSR_OK;
}

static enum tsr_status mov_regs(struct lower *L, uint16_t dst, uint32_t id, uint32_t type)
{
	uint32_t n = type_regs(L, type);
	unsigned c = comps(L, type);
	for (uint32_t k = 0; k < n; k++) {
		struct tsr_sh_src s;
		TSR_TRY(src_k(L, id, k, &s));
		unsigned m = c ? mask_n(c) : 0xfu;
		if (!c && ty(L, type)->kind == T_MAT)
			m = mask_n(ty(L, ty(L, type)->elem)->n);
		TSR_TRY(emit(L, TSR_SH_MOV, m, (uint16_t)(dst + k), s, NOSRC, NOSRC));
	}
	return TSR_OK;
}

/* at the start of block b: each phi takes its shadow */
static enum tsr_status phi_moves(struct lower *L, struct block *b)
{
	for (uint32_t i = b->start; i < b->end;) {
		uint32_t op = L->w[i] & 0xffffu, len = L->w[i] >> 16;
		if (op == SpvOpPhi) {
			uint32_t type = L->w[i + 1], id = L->w[i + 2];
			uint32_t n = type_regs(L, type);
			for (uint32_t k = 0; k < n; k++)
				TSR_TRY(emit(L, TSR_SH_MOV, 0xf, (uint16_t)(L->vals[id].reg + k),
					     mksrc((uint16_t)(L->phi_shadow[id] + k), TSR_SH_SWZ_XYZW, 0), NOSRC, NOSRC));
		}
		i += len;
	}
	return TSR_OK;
}

/* on the edge from -> to: the phis of `to` get their shadows written */
static enum tsr_status edge_copies(struct lower *L, uint32_t from, uint32_t to)
{
	struct block *b = blk(L, to);
	if (!b)
		return malformed(L, "branch to an unknown block");
	for (uint32_t i = b->start; i < b->end;) {
		uint32_t op = L->w[i] & 0xffffu, len = L->w[i] >> 16;
		if (op == SpvOpPhi) {
			uint32_t type = L->w[i + 1], id = L->w[i + 2];
			for (uint32_t k = 3; k + 1 < len; k += 2)
				if (L->w[i + k + 1] == from) {
					uint32_t v = L->w[i + k];
					if (v >= L->bound || L->vals[v].kind == V_NONE)
						return tsr_error_set(L->err, TSR_ERR_UNSUPPORTED,
								     "phi %%%u reads %%%u before it is defined", id, v);
					TSR_TRY(mov_regs(L, L->phi_shadow[id], v, type));
				}
		}
		i += len;
	}
	return TSR_OK;
}

/* ---------- instructions ---------- */

/* a component-wise operation of n components into a new result */
static enum tsr_status cw(struct lower *L, uint32_t id, uint32_t type, unsigned op, uint32_t a,
			  uint32_t b, uint32_t c)
{
	struct tsr_sh_src sa = NOSRC, sb = NOSRC, sc = NOSRC;
	if (a)
		TSR_TRY(src(L, a, &sa));
	if (b)
		TSR_TRY(src(L, b, &sb));
	if (c)
		TSR_TRY(src(L, c, &sc));
	uint16_t reg;
	TSR_TRY(result(L, id, type, &reg));
	return emit(L, op, mask_n(comps(L, type)), reg, sa, sb, sc);
}

static enum tsr_status cw_src(struct lower *L, uint32_t id, uint32_t type, unsigned op,
			      struct tsr_sh_src a, struct tsr_sh_src b, struct tsr_sh_src c)
{
	uint16_t reg;
	TSR_TRY(result(L, id, type, &reg));
	return emit(L, op, mask_n(comps(L, type)), reg, a, b, c);
}

static enum tsr_status tmp(struct lower *L, uint16_t *reg)
{
	return new_regs(L, 1, reg);
}

static struct tsr_sh_src R(uint16_t reg)
{
	return mksrc(reg, TSR_SH_SWZ_XYZW, 0);
}

/* atan2(y, x) per component (x absent: atan(y)); docs/shader-isa.md */
static enum tsr_status atan2_seq(struct lower *L, uint16_t d, unsigned m, struct tsr_sh_src y,
				 struct tsr_sh_src x, bool have_x)
{
	/* atan on [0, 1]: Abramowitz and Stegun 4.4.49, an odd polynomial of
	 * degree 15, error at most 2e-8 rad */
	static const float c[8] = {0.9999993329f, -0.3332985605f, 0.1994653599f, -0.1390853351f,
				   0.0964200441f, -0.0559098861f, 0.0218612288f, -0.0040540580f};
	struct tsr_sh_src one, k[8], half_pi, pi, zero;
	TSR_TRY(flit(L, 1.0f, &one));
	TSR_TRY(flit(L, 0.0f, &zero));
	TSR_TRY(flit(L, 1.5707963705062866f, &half_pi));
	TSR_TRY(flit(L, 3.1415927410125732f, &pi));
	for (int i = 0; i < 8; i++)
		TSR_TRY(flit(L, c[i], &k[i]));
	if (!have_x)
		x = one;
	uint16_t mx, mn, t, t2, p, r2, cond;
	TSR_TRY(tmp(L, &mx));
	TSR_TRY(tmp(L, &mn));
	TSR_TRY(tmp(L, &t));
	TSR_TRY(tmp(L, &t2));
	TSR_TRY(tmp(L, &p));
	TSR_TRY(tmp(L, &r2));
	TSR_TRY(tmp(L, &cond));
	TSR_TRY(emit(L, TSR_SH_MAX, m, mx, absm(x), absm(y), NOSRC));
	TSR_TRY(emit(L, TSR_SH_MIN, m, mn, absm(x), absm(y), NOSRC));
	TSR_TRY(emit(L, TSR_SH_DIV, m, t, R(mn), R(mx), NOSRC));
	TSR_TRY(emit(L, TSR_SH_MUL, m, t2, R(t), R(t), NOSRC));
	TSR_TRY(emit(L, TSR_SH_MAD, m, p, R(t2), k[7], k[6]));
	for (int i = 5; i >= 0; i--)
		TSR_TRY(emit(L, TSR_SH_MAD, m, p, R(t2), R(p), k[i]));
	TSR_TRY(emit(L, TSR_SH_MUL, m, p, R(p), R(t), NOSRC));
	/* |y| > |x|: pi/2 - r */
	TSR_TRY(emit(L, TSR_SH_SLT, m, cond, absm(x), absm(y), NOSRC));
	TSR_TRY(emit(L, TSR_SH_ADD, m, r2, half_pi, neg(R(p)), NOSRC));
	TSR_TRY(emit(L, TSR_SH_SEL, m, p, R(cond), R(r2), R(p)));
	if (have_x) {
		/* x < 0: pi - r */
		TSR_TRY(emit(L, TSR_SH_SLT, m, cond, x, zero, NOSRC));
		TSR_TRY(emit(L, TSR_SH_ADD, m, r2, pi, neg(R(p)), NOSRC));
		TSR_TRY(emit(L, TSR_SH_SEL, m, p, R(cond), R(r2), R(p)));
	}
	/* y < 0: -r */
	TSR_TRY(emit(L, TSR_SH_SLT, m, cond, y, zero, NOSRC));
	return emit(L, TSR_SH_SEL, m, d, R(cond), neg(R(p)), R(p));
}

static enum tsr_status ext_inst(struct lower *L, const uint32_t *a, uint32_t na)
{
	uint32_t type = a[0], id = a[1], fn = a[3];
	const uint32_t *x = &a[4];
	uint32_t nx = na - 4;
	unsigned n = comps(L, type);
	unsigned m = mask_n(n ? n : 1);
	struct tsr_sh_src s[3] = {NOSRC, NOSRC, NOSRC};
	for (uint32_t k = 0; k < nx && k < 3; k++)
		TSR_TRY(src(L, x[k], &s[k]));
	uint16_t d = 0, t1, t2, t3;
	switch (fn) {
	case GLSLstd450Trunc:
		return cw_src(L, id, type, TSR_SH_TRC, s[0], NOSRC, NOSRC);
	case GLSLstd450FAbs:
	case GLSLstd450SAbs:
		return cw_src(L, id, type, TSR_SH_MOV, absm(s[0]), NOSRC, NOSRC);
	case GLSLstd450FSign:
	case GLSLstd450SSign:
		return cw_src(L, id, type, TSR_SH_SGN, s[0], NOSRC, NOSRC);
	case GLSLstd450Floor:
		return cw_src(L, id, type, TSR_SH_FLR, s[0], NOSRC, NOSRC);
	case GLSLstd450Ceil:
		TSR_TRY(tmp(L, &t1));
		TSR_TRY(emit(L, TSR_SH_FLR, m, t1, neg(s[0]), NOSRC, NOSRC));
		return cw_src(L, id, type, TSR_SH_MOV, neg(R(t1)), NOSRC, NOSRC);
	case GLSLstd450Fract:
		return cw_src(L, id, type, TSR_SH_FRC, s[0], NOSRC, NOSRC);
	case GLSLstd450Radians:
	case GLSLstd450Degrees: {
		struct tsr_sh_src k;
		TSR_TRY(flit(L, fn == GLSLstd450Radians ? 0.017453292519943295f : 57.29577951308232f, &k));
		return cw_src(L, id, type, TSR_SH_MUL, s[0], k, NOSRC);
	}
	case GLSLstd450Sin:
		return cw_src(L, id, type, TSR_SH_SIN, s[0], NOSRC, NOSRC);
	case GLSLstd450Cos:
		return cw_src(L, id, type, TSR_SH_COS, s[0], NOSRC, NOSRC);
	case GLSLstd450Tan:
		TSR_TRY(tmp(L, &t1));
		TSR_TRY(tmp(L, &t2));
		TSR_TRY(emit(L, TSR_SH_SIN, m, t1, s[0], NOSRC, NOSRC));
		TSR_TRY(emit(L, TSR_SH_COS, m, t2, s[0], NOSRC, NOSRC));
		return cw_src(L, id, type, TSR_SH_DIV, R(t1), R(t2), NOSRC);
	case GLSLstd450Asin:
	case GLSLstd450Acos: {
		/* asin x = atan2(x, sqrt(1 - x^2)), acos x = atan2(sqrt(1 - x^2), x) */
		struct tsr_sh_src one;
		TSR_TRY(flit(L, 1.0f, &one));
		TSR_TRY(tmp(L, &t1));
		TSR_TRY(emit(L, TSR_SH_MAD, m, t1, neg(s[0]), s[0], one));
		TSR_TRY(emit(L, TSR_SH_SQRT, m, t1, R(t1), NOSRC, NOSRC));
		TSR_TRY(result(L, id, type, &d));
		if (fn == GLSLstd450Asin)
			return atan2_seq(L, d, m, s[0], R(t1), true);
		return atan2_seq(L, d, m, R(t1), s[0], true);
	}
	case GLSLstd450Atan:
		TSR_TRY(result(L, id, type, &d));
		return atan2_seq(L, d, m, s[0], NOSRC, false);
	case GLSLstd450Atan2:
		TSR_TRY(result(L, id, type, &d));
		return atan2_seq(L, d, m, s[0], s[1], true);
	case GLSLstd450Pow:
		TSR_TRY(tmp(L, &t1));
		TSR_TRY(emit(L, TSR_SH_LOG2, m, t1, s[0], NOSRC, NOSRC));
		TSR_TRY(emit(L, TSR_SH_MUL, m, t1, R(t1), s[1], NOSRC));
		return cw_src(L, id, type, TSR_SH_EXP2, R(t1), NOSRC, NOSRC);
	case GLSLstd450Exp: {
		struct tsr_sh_src k;
		TSR_TRY(flit(L, 1.4426950408889634f, &k));
		TSR_TRY(tmp(L, &t1));
		TSR_TRY(emit(L, TSR_SH_MUL, m, t1, s[0], k, NOSRC));
		return cw_src(L, id, type, TSR_SH_EXP2, R(t1), NOSRC, NOSRC);
	}
	case GLSLstd450Log: {
		struct tsr_sh_src k;
		TSR_TRY(flit(L, 0.6931471805599453f, &k));
		TSR_TRY(tmp(L, &t1));
		TSR_TRY(emit(L, TSR_SH_LOG2, m, t1, s[0], NOSRC, NOSRC));
		return cw_src(L, id, type, TSR_SH_MUL, R(t1), k, NOSRC);
	}
	case GLSLstd450Exp2:
		return cw_src(L, id, type, TSR_SH_EXP2, s[0], NOSRC, NOSRC);
	case GLSLstd450Log2:
		return cw_src(L, id, type, TSR_SH_LOG2, s[0], NOSRC, NOSRC);
	case GLSLstd450Sqrt:
		return cw_src(L, id, type, TSR_SH_SQRT, s[0], NOSRC, NOSRC);
	case GLSLstd450InverseSqrt:
		return cw_src(L, id, type, TSR_SH_RSQ, s[0], NOSRC, NOSRC);
	case GLSLstd450FMin:
	case GLSLstd450SMin:
	case GLSLstd450UMin:
	case GLSLstd450NMin:
		return cw_src(L, id, type, TSR_SH_MIN, s[0], s[1], NOSRC);
	case GLSLstd450FMax:
	case GLSLstd450SMax:
	case GLSLstd450UMax:
	case GLSLstd450NMax:
		return cw_src(L, id, type, TSR_SH_MAX, s[0], s[1], NOSRC);
	case GLSLstd450FClamp:
	case GLSLstd450SClamp:
	case GLSLstd450UClamp:
	case GLSLstd450NClamp:
		TSR_TRY(tmp(L, &t1));
		TSR_TRY(emit(L, TSR_SH_MAX, m, t1, s[0], s[1], NOSRC));
		return cw_src(L, id, type, TSR_SH_MIN, R(t1), s[2], NOSRC);
	case GLSLstd450FMix:
		/* x + a (y - x) */
		TSR_TRY(tmp(L, &t1));
		TSR_TRY(emit(L, TSR_SH_ADD, m, t1, s[1], neg(s[0]), NOSRC));
		return cw_src(L, id, type, TSR_SH_MAD, s[2], R(t1), s[0]);
	case GLSLstd450Step:
		/* step(edge, x) = x >= edge */
		return cw_src(L, id, type, TSR_SH_SGE, s[1], s[0], NOSRC);
	case GLSLstd450SmoothStep: {
		/* t = clamp((x - e0) / (e1 - e0), 0, 1); t t (3 - 2 t) */
		struct tsr_sh_src zero, one, two, three;
		TSR_TRY(flit(L, 0.0f, &zero));
		TSR_TRY(flit(L, 1.0f, &one));
		TSR_TRY(flit(L, -2.0f, &two));
		TSR_TRY(flit(L, 3.0f, &three));
		TSR_TRY(tmp(L, &t1));
		TSR_TRY(tmp(L, &t2));
		TSR_TRY(emit(L, TSR_SH_ADD, m, t1, s[1], neg(s[0]), NOSRC));
		TSR_TRY(emit(L, TSR_SH_ADD, m, t2, s[2], neg(s[0]), NOSRC));
		TSR_TRY(emit(L, TSR_SH_DIV, m, t1, R(t2), R(t1), NOSRC));
		TSR_TRY(emit(L, TSR_SH_MAX, m, t1, R(t1), zero, NOSRC));
		TSR_TRY(emit(L, TSR_SH_MIN, m, t1, R(t1), one, NOSRC));
		TSR_TRY(emit(L, TSR_SH_MAD, m, t2, R(t1), two, three));
		TSR_TRY(emit(L, TSR_SH_MUL, m, t1, R(t1), R(t1), NOSRC));
		return cw_src(L, id, type, TSR_SH_MUL, R(t1), R(t2), NOSRC);
	}
	case GLSLstd450Fma:
		return cw_src(L, id, type, TSR_SH_MAD, s[0], s[1], s[2]);
	case GLSLstd450Length: {
		unsigned an = comps(L, vtype(L, x[0]));
		if (an == 1)
			return cw_src(L, id, type, TSR_SH_MOV, absm(s[0]), NOSRC, NOSRC);
		TSR_TRY(tmp(L, &t1));
		TSR_TRY(emit(L, TSR_SH_DP2 + an - 2, 1, t1, s[0], s[0], NOSRC));
		return cw_src(L, id, type, TSR_SH_SQRT, rep(R(t1), 0), NOSRC, NOSRC);
	}
	case GLSLstd450Distance: {
		unsigned an = comps(L, vtype(L, x[0]));
		TSR_TRY(tmp(L, &t1));
		TSR_TRY(emit(L, TSR_SH_ADD, mask_n(an), t1, s[0], neg(s[1]), NOSRC));
		if (an == 1)
			return cw_src(L, id, type, TSR_SH_MOV, absm(rep(R(t1), 0)), NOSRC, NOSRC);
		TSR_TRY(emit(L, TSR_SH_DP2 + an - 2, 1, t1, R(t1), R(t1), NOSRC));
		return cw_src(L, id, type, TSR_SH_SQRT, rep(R(t1), 0), NOSRC, NOSRC);
	}
	case GLSLstd450Cross: {
		/* a.yzx b.zxy - a.zxy b.yzx */
		static const unsigned yzx[4] = {1, 2, 0, 0}, zxy[4] = {2, 0, 1, 0};
		struct tsr_sh_src ay = s[0], az = s[0], by = s[1], bz = s[1];
		ay.swz = swz_compose(s[0].swz, yzx);
		az.swz = swz_compose(s[0].swz, zxy);
		by.swz = swz_compose(s[1].swz, yzx);
		bz.swz = swz_compose(s[1].swz, zxy);
		TSR_TRY(tmp(L, &t1));
		TSR_TRY(emit(L, TSR_SH_MUL, 7, t1, az, by, NOSRC));
		return cw_src(L, id, type, TSR_SH_MAD, ay, bz, neg(R(t1)));
	}
	case GLSLstd450Normalize:
		if (n == 1)
			return cw_src(L, id, type, TSR_SH_SGN, s[0], NOSRC, NOSRC);
		TSR_TRY(tmp(L, &t1));
		TSR_TRY(emit(L, TSR_SH_DP2 + n - 2, 1, t1, s[0], s[0], NOSRC));
		TSR_TRY(emit(L, TSR_SH_RSQ, 1, t1, R(t1), NOSRC, NOSRC));
		return cw_src(L, id, type, TSR_SH_MUL, s[0], rep(R(t1), 0), NOSRC);
	case GLSLstd450FaceForward: {
		/* dot(Nref, I) < 0 ? N : -N */
		struct tsr_sh_src zero;
		TSR_TRY(flit(L, 0.0f, &zero));
		TSR_TRY(tmp(L, &t1));
		if (n == 1)
			TSR_TRY(emit(L, TSR_SH_MUL, 1, t1, s[2], s[1], NOSRC));
		else
			TSR_TRY(emit(L, TSR_SH_DP2 + n - 2, 1, t1, s[2], s[1], NOSRC));
		TSR_TRY(emit(L, TSR_SH_SLT, 1, t1, rep(R(t1), 0), zero, NOSRC));
		return cw_src(L, id, type, TSR_SH_SEL, rep(R(t1), 0), s[0], neg(s[0]));
	}
	case GLSLstd450Reflect:
		/* I - 2 dot(N, I) N */
		TSR_TRY(tmp(L, &t1));
		if (n == 1)
			TSR_TRY(emit(L, TSR_SH_MUL, 1, t1, s[1], s[0], NOSRC));
		else
			TSR_TRY(emit(L, TSR_SH_DP2 + n - 2, 1, t1, s[1], s[0], NOSRC));
		TSR_TRY(emit(L, TSR_SH_ADD, 1, t1, R(t1), R(t1), NOSRC));
		return cw_src(L, id, type, TSR_SH_MAD, neg(s[1]), rep(R(t1), 0), s[0]);
	case GLSLstd450Refract: {
		/* k = 1 - eta^2 (1 - dot(N, I)^2); k < 0 ? 0 : eta I - (eta dot(N, I) + sqrt(k)) N */
		struct tsr_sh_src zero, one;
		TSR_TRY(flit(L, 0.0f, &zero));
		TSR_TRY(flit(L, 1.0f, &one));
		TSR_TRY(tmp(L, &t1));
		TSR_TRY(tmp(L, &t2));
		TSR_TRY(tmp(L, &t3));
		struct tsr_sh_src eta = rep(s[2], 0);
		if (n == 1)
			TSR_TRY(emit(L, TSR_SH_MUL, 1, t1, s[1], s[0], NOSRC)); /* t1.x = d */
		else
			TSR_TRY(emit(L, TSR_SH_DP2 + n - 2, 1, t1, s[1], s[0], NOSRC));
		TSR_TRY(emit(L, TSR_SH_MAD, 2, t1, neg(rep(R(t1), 0)), rep(R(t1), 0), one)); /* y = 1 - d^2 */
		TSR_TRY(emit(L, TSR_SH_MUL, 4, t1, eta, eta, NOSRC));                         /* z = eta^2 */
		TSR_TRY(emit(L, TSR_SH_MAD, 8, t1, neg(rep(R(t1), 2)), rep(R(t1), 1), one));  /* w = k */
		TSR_TRY(emit(L, TSR_SH_SQRT, 1, t2, rep(R(t1), 3), NOSRC, NOSRC));          /* sqrt k */
		TSR_TRY(emit(L, TSR_SH_MAD, 1, t2, eta, rep(R(t1), 0), rep(R(t2), 0)));     /* u */
		TSR_TRY(emit(L, TSR_SH_MUL, m, t3, eta, s[0], NOSRC));
		TSR_TRY(emit(L, TSR_SH_MAD, m, t3, neg(s[1]), rep(R(t2), 0), R(t3)));
		TSR_TRY(emit(L, TSR_SH_SLT, 2, t2, rep(R(t1), 3), zero, NOSRC));
		return cw_src(L, id, type, TSR_SH_SEL, rep(R(t2), 1), zero, R(t3));
	}
	default:
		return tsr_error_set(L->err, TSR_ERR_UNSUPPORTED,
				     "%s shader: GLSL.std.450 function %u cannot be lowered to tessera's ISA",
				     L->stage == TSR_SHADER_VERTEX ? "vertex" : "fragment", fn);
	}
}

/* compare: d = (a OP b) as SLT/SGE/SEQ/SNE, swapping for > and <= */
static enum tsr_status compare(struct lower *L, const uint32_t *a, unsigned op, bool swap)
{
	return cw(L, a[1], a[0], op, swap ? a[3] : a[2], swap ? a[2] : a[3], 0);
}

/* the pointer an access chain yields */
static enum tsr_status access_chain(struct lower *L, const uint32_t *a, uint32_t na)
{
	uint32_t id = a[1];
	struct val *base;
	TSR_TRY(get(L, a[2], &base));
	if (base->kind != V_PTR && base->kind != V_SAMPLER)
		return malformed(L, "access chain of a non-pointer");
	struct val p = *base;
	uint32_t t = p.type;
	for (uint32_t k = 3; k < na; k++) {
		const struct ty *tt = ty(L, t);
		struct val *iv;
		TSR_TRY(get(L, a[k], &iv));
		bool is_const = iv->kind == V_CONST;
		uint32_t idx = is_const ? (uint32_t)L->cdata[iv->cidx][0] : 0;
		if (tt->kind == T_STRUCT) {
			if (!is_const || idx >= tt->nmem)
				return malformed(L, "struct index");
			for (uint32_t m = 0; m < idx; m++)
				p.reg = (uint16_t)(p.reg + ty(L, L->members[tt->first + m])->regs);
			t = L->members[tt->first + idx];
		} else if (tt->kind == T_ARRAY || tt->kind == T_MAT) {
			uint32_t et = tt->elem, er = ty(L, et)->regs, len = tt->kind == T_ARRAY ? tt->len : tt->n;
			if (is_const) {
				if (idx >= len)
					idx = len - 1; /* out of range: clamped, as the dynamic case */
				p.reg = (uint16_t)(p.reg + idx * er);
			} else {
				/* a sampler array indexed by a loop index (GLSL ES 1.00
				 * Appendix A's constant-index-expressions): the load
				 * reads the unit with LDX (load) */
				/* register offset = idx * er (+ an earlier dynamic offset) */
				struct tsr_sh_src si, ks;
				TSR_TRY(src(L, a[k], &si));
				uint16_t off;
				TSR_TRY(tmp(L, &off));
				TSR_TRY(flit(L, (float)er, &ks));
				if (p.dyn) {
					TSR_TRY(emit(L, TSR_SH_MAD, 1, off, si, ks, R(p.creg)));
				} else if (er != 1) {
					TSR_TRY(emit(L, TSR_SH_MUL, 1, off, si, ks, NOSRC));
				} else {
					TSR_TRY(emit(L, TSR_SH_MOV, 1, off, si, NOSRC, NOSRC));
				}
				/* the offset register is kept in the pointer (creg) */
				p.dyn = 1;
				p.dyn_max = (uint16_t)(p.dyn_max + (len - 1) * er);
				p.creg = off; /* V_PTR: creg holds the offset register */
			}
			t = et;
		} else if (tt->kind == T_VEC) {
			if (is_const) {
				p.comp = (uint8_t)(idx & 3u);
			} else {
				/* a component chosen per lane: selects (load) or
				 * masked moves (store) over the components */
				struct tsr_sh_src si;
				TSR_TRY(src(L, a[k], &si));
				p.comp = 0xfe;
				p.dcomp = si.reg;
				if (si.swz != 0 || (si.reg & TSR_SH_CONST_BANK)) {
					uint16_t r;
					TSR_TRY(tmp(L, &r));
					TSR_TRY(emit(L, TSR_SH_MOV, 1, r, si, NOSRC, NOSRC));
					p.dcomp = r;
				}
			}
			t = tt->elem;
		} else {
			return malformed(L, "access chain into a scalar");
		}
	}
	p.type = t;
	L->vals[id] = p;
	return TSR_OK;
}

static enum tsr_status load(struct lower *L, const uint32_t *a)
{
	uint32_t type = a[0], id = a[1];
	struct val *p;
	TSR_TRY(get(L, a[2], &p));
	if (p->kind == V_SAMPLER || (p->kind == V_PTR && ty(L, type)->kind == T_SAMPLED)) {
		/* a sampler, of an array or a struct member: its unit's register */
		if (p->sc != SpvStorageClassUniformConstant)
			return unsupported(L, "OpLoad of a sampler outside uniform storage", SpvOpLoad);
		L->vals[id] = *p;
		L->vals[id].kind = V_SAMPLER;
		L->vals[id].type = type;
		if (p->dyn) {
			/* the unit into a per-lane register, which TEX reads */
			uint16_t reg;
			TSR_TRY(tmp(L, &reg));
			TSR_TRY(emit(L, TSR_SH_LDX, 1, reg, R(p->creg), mksrc(p->reg, 0, 0), mksrc(p->dyn_max, 0, 0)));
			L->vals[id].reg = reg;
			L->vals[id].dyn = 0;
		}
		return TSR_OK;
	}
	if (p->kind != V_PTR)
		return malformed(L, "load from a non-pointer");
	bool readonly = p->sc == SpvStorageClassUniformConstant || p->sc == SpvStorageClassInput;
	uint32_t n = type_regs(L, type);
	unsigned c = comps(L, type);
	if (p->comp == 0xfe) {
		/* v[i]: the register (through LDX when also dynamically indexed), then a select per component */
		struct tsr_sh_src whole = mksrc(p->reg, TSR_SH_SWZ_XYZW, 0);
		if (p->dyn) {
			uint16_t w;
			TSR_TRY(tmp(L, &w));
			TSR_TRY(emit(L, TSR_SH_LDX, 0xf, w, R(p->creg), whole, mksrc(p->dyn_max, 0, 0)));
			whole = R(w);
		}
		uint16_t reg, cnd;
		TSR_TRY(result(L, id, type, &reg));
		TSR_TRY(tmp(L, &cnd));
		TSR_TRY(emit(L, TSR_SH_MOV, 1, reg, rep(whole, 0), NOSRC, NOSRC));
		for (unsigned k = 1; k < 4; k++) {
			struct tsr_sh_src ks;
			TSR_TRY(flit(L, (float)k, &ks));
			TSR_TRY(emit(L, TSR_SH_SEQ, 1, cnd, mksrc(p->dcomp, 0, 0), ks, NOSRC));
			TSR_TRY(emit(L, TSR_SH_SEL, 1, reg, R(cnd), rep(whole, k), R(reg)));
		}
		return TSR_OK;
	}
	if (p->dyn) {
		uint16_t reg;
		TSR_TRY(result(L, id, type, &reg));
		for (uint32_t k = 0; k < n; k++) {
			uint8_t swz = p->comp == 0xff ? TSR_SH_SWZ_XYZW : swz_rep(TSR_SH_SWZ_XYZW, p->comp);
			TSR_TRY(emit(L, TSR_SH_LDX, c ? mask_n(c) : 0xf, (uint16_t)(reg + k), R(p->creg),
				     mksrc((uint16_t)(p->reg + k), swz, 0), mksrc(p->dyn_max, 0, 0)));
		}
		return TSR_OK;
	}
	if (readonly) {
		uint8_t swz = p->comp == 0xff ? (c == 1 ? 0 : TSR_SH_SWZ_XYZW) : swz_rep(TSR_SH_SWZ_XYZW, p->comp);
		set_reg(L, id, type, p->reg, swz);
		return TSR_OK;
	}
	uint16_t reg;
	TSR_TRY(result(L, id, type, &reg));
	for (uint32_t k = 0; k < n; k++) {
		uint8_t swz = p->comp == 0xff ? TSR_SH_SWZ_XYZW : swz_rep(TSR_SH_SWZ_XYZW, p->comp);
		TSR_TRY(emit(L, TSR_SH_MOV, c ? mask_n(c) : 0xf, (uint16_t)(reg + k),
			     mksrc((uint16_t)(p->reg + k), swz, 0), NOSRC, NOSRC));
	}
	return TSR_OK;
}

static enum tsr_status store(struct lower *L, uint32_t ptr, uint32_t value)
{
	struct val *p;
	TSR_TRY(get(L, ptr, &p));
	if (p->kind != V_PTR)
		return malformed(L, "store to a non-pointer");
	if (p->sc == SpvStorageClassUniformConstant || p->sc == SpvStorageClassInput)
		return malformed(L, "store to read-only storage");
	struct val *v;
	TSR_TRY(get(L, value, &v));
	uint32_t type = v->type;
	uint32_t n = type_regs(L, type);
	unsigned c = comps(L, type);
	if (p->comp == 0xfe) {
		if (p->dyn)
			return unsupported(L, "OpStore to a vector component chosen by a variable in an array "
					   "element chosen by a variable", SpvOpStore);
		struct tsr_sh_src s;
		TSR_TRY(src(L, value, &s));
		uint16_t cnd;
		TSR_TRY(tmp(L, &cnd));
		for (unsigned k = 0; k < 4; k++) {
			struct tsr_sh_src ks;
			TSR_TRY(flit(L, (float)k, &ks));
			TSR_TRY(emit(L, TSR_SH_SEQ, 1, cnd, mksrc(p->dcomp, 0, 0), ks, NOSRC));
			TSR_TRY(emit(L, TSR_SH_SEL, 1u << k, p->reg, rep(R(cnd), 0), rep(s, 0), R(p->reg)));
		}
		return TSR_OK;
	}
	for (uint32_t k = 0; k < n; k++) {
		struct tsr_sh_src s;
		TSR_TRY(src_k(L, value, k, &s));
		unsigned m = c ? mask_n(c) : 0xf;
		if (p->comp != 0xff)
			m = 1u << p->comp, s = rep(s, 0);
		if (p->dyn)
			TSR_TRY(emit(L, TSR_SH_STX, m, (uint16_t)(p->reg + k), R(p->creg), s,
				     mksrc(p->dyn_max, 0, 0)));
		else
			TSR_TRY(emit(L, TSR_SH_MOV, m, (uint16_t)(p->reg + k), s, NOSRC, NOSRC));
	}
	return TSR_OK;
}

static enum tsr_status composite_construct(struct lower *L, const uint32_t *a, uint32_t na)
{
	uint32_t type = a[0], id = a[1];
	unsigned n = comps(L, type);
	if (n) {
		/* one register and a swizzle when every part reads the same register */
		uint16_t reg0 = 0;
		unsigned sel[4] = {0, 0, 0, 0};
		uint8_t swz = 0;
		bool same = true;
		unsigned o = 0;
		for (uint32_t k = 2; k < na && same; k++) {
			struct val *v;
			TSR_TRY(get(L, a[k], &v));
			if (v->kind != V_REG) {
				same = false;
				break;
			}
			if (k == 2)
				reg0 = v->reg;
			if (v->reg != reg0)
				same = false;
			unsigned vn = comps(L, v->type);
			for (unsigned i = 0; i < vn && o < 4; i++, o++)
				swz |= (uint8_t)(((v->swz >> (2 * i)) & 3u) << (2 * o));
		}
		(void)sel;
		if (same && o == n) {
			for (unsigned i = n; i < 4; i++)
				swz |= (uint8_t)(((swz >> (2 * (n - 1))) & 3u) << (2 * i));
			set_reg(L, id, type, reg0, swz);
			return TSR_OK;
		}
		uint16_t reg;
		TSR_TRY(result(L, id, type, &reg));
		o = 0;
		for (uint32_t k = 2; k < na; k++) {
			struct tsr_sh_src s;
			TSR_TRY(src(L, a[k], &s));
			unsigned vn = comps(L, vtype(L, a[k]));
			uint8_t sw = 0;
			unsigned m = 0;
			for (unsigned i = 0; i < vn && o + i < 4; i++) {
				sw |= (uint8_t)(((s.swz >> (2 * i)) & 3u) << (2 * (o + i)));
				m |= 1u << (o + i);
			}
			s.swz = sw;
			TSR_TRY(emit(L, TSR_SH_MOV, m, reg, s, NOSRC, NOSRC));
			o += vn;
		}
		return TSR_OK;
	}
	/* matrix, array, struct: each part into its registers */
	uint16_t reg;
	TSR_TRY(result(L, id, type, &reg));
	uint32_t off = 0;
	for (uint32_t k = 2; k < na; k++) {
		struct val *v;
		TSR_TRY(get(L, a[k], &v));
		TSR_TRY(mov_regs(L, (uint16_t)(reg + off), a[k], v->type));
		off += type_regs(L, v->type);
	}
	return TSR_OK;
}

/* register offset and type of a constant-index path into a composite type */
static enum tsr_status composite_path(struct lower *L, uint32_t t, const uint32_t *idx, uint32_t n,
				      uint32_t *off, int *comp, uint32_t *rt)
{
	*off = 0;
	*comp = -1;
	for (uint32_t k = 0; k < n; k++) {
		const struct ty *tt = ty(L, t);
		if (tt->kind == T_STRUCT) {
			if (idx[k] >= tt->nmem)
				return malformed(L, "struct index");
			for (uint32_t m = 0; m < idx[k]; m++)
				*off += ty(L, L->members[tt->first + m])->regs;
			t = L->members[tt->first + idx[k]];
		} else if (tt->kind == T_ARRAY || tt->kind == T_MAT) {
			*off += idx[k] * ty(L, tt->elem)->regs;
			t = tt->elem;
		} else if (tt->kind == T_VEC) {
			*comp = (int)(idx[k] & 3u);
			t = tt->elem;
		} else {
			return malformed(L, "composite index into a scalar");
		}
	}
	*rt = t;
	return TSR_OK;
}

static enum tsr_status composite_extract(struct lower *L, const uint32_t *a, uint32_t na)
{
	if (na < 3)
		return malformed(L, "OpCompositeExtract operands");
	uint32_t type = a[0], id = a[1];
	struct val *v;
	TSR_TRY(get(L, a[2], &v));
	uint32_t off, rt;
	int comp;
	TSR_TRY(composite_path(L, v->type, &a[3], na - 3, &off, &comp, &rt));
	struct tsr_sh_src s;
	TSR_TRY(src_k(L, a[2], off, &s));
	if (comp >= 0)
		set_reg(L, id, type, s.reg, swz_rep(s.swz, (unsigned)comp));
	else
		set_reg(L, id, type, s.reg, comps(L, type) ? s.swz : TSR_SH_SWZ_XYZW);
	return TSR_OK;
}

static enum tsr_status composite_insert(struct lower *L, const uint32_t *a, uint32_t na)
{
	if (na < 4)
		return malformed(L, "OpCompositeInsert operands");
	uint32_t type = a[0], id = a[1];
	uint16_t reg;
	TSR_TRY(result(L, id, type, &reg));
	TSR_TRY(mov_regs(L, reg, a[3], type));
	uint32_t off, rt;
	int comp;
	TSR_TRY(composite_path(L, type, &a[4], na - 4, &off, &comp, &rt));
	struct val *obj;
	TSR_TRY(get(L, a[2], &obj));
	if (comp >= 0) {
		struct tsr_sh_src s;
		TSR_TRY(src(L, a[2], &s));
		return emit(L, TSR_SH_MOV, 1u << comp, (uint16_t)(reg + off), rep(s, 0), NOSRC, NOSRC);
	}
	return mov_regs(L, (uint16_t)(reg + off), a[2], obj->type);
}

static enum tsr_status vector_shuffle(struct lower *L, const uint32_t *a, uint32_t na)
{
	if (na < 5)
		return malformed(L, "OpVectorShuffle operands");
	uint32_t type = a[0], id = a[1];
	unsigned n1 = comps(L, vtype(L, a[2]));
	struct tsr_sh_src s1, s2;
	TSR_TRY(src(L, a[2], &s1));
	TSR_TRY(src(L, a[3], &s2));
	unsigned n = na - 4;
	bool from1 = true, from2 = true;
	for (unsigned i = 0; i < n; i++) {
		uint32_t c = a[4 + i];
		if (c == 0xffffffffu)
			continue;
		if (c < n1)
			from2 = false;
		else
			from1 = false;
	}
	if (a[2] == a[3] || from1 || from2) {
		const struct tsr_sh_src *s = from2 && !from1 ? &s2 : &s1;
		unsigned base = from2 && !from1 ? n1 : 0;
		unsigned sel[4];
		for (unsigned i = 0; i < 4; i++) {
			uint32_t c = a[4 + (i < n ? i : n - 1)];
			sel[i] = c == 0xffffffffu ? 0 : (a[2] == a[3] && c >= n1 ? c - n1 : c - base);
		}
		set_reg(L, id, type, s->reg, swz_compose(s->swz, sel));
		return TSR_OK;
	}
	uint16_t reg;
	TSR_TRY(result(L, id, type, &reg));
	for (int part = 0; part < 2; part++) {
		unsigned m = 0;
		unsigned sel[4] = {0, 0, 0, 0};
		for (unsigned i = 0; i < n; i++) {
			uint32_t c = a[4 + i];
			if (c == 0xffffffffu)
				continue;
			if ((part == 0) == (c < n1)) {
				m |= 1u << i;
				sel[i] = part == 0 ? c : c - n1;
			}
		}
		if (m) {
			struct tsr_sh_src s = part == 0 ? s1 : s2;
			s.swz = swz_compose(s.swz, sel);
			TSR_TRY(emit(L, TSR_SH_MOV, m, reg, s, NOSRC, NOSRC));
		}
	}
	return TSR_OK;
}

static enum tsr_status sample(struct lower *L, const uint32_t *a, uint32_t na, uint32_t op)
{
	uint32_t type = a[0], id = a[1];
	struct val *sv;
	TSR_TRY(get(L, a[2], &sv));
	if (sv->kind != V_SAMPLER)
		return unsupported(L, "OpImageSample* (the sampled image is not a uniform sampler)", op);
	struct tsr_sh_src coord;
	TSR_TRY(src(L, a[3], &coord));
	uint32_t operands = na > 4 ? a[4] : 0;
	unsigned top = TSR_SH_TEX;
	struct tsr_sh_src lod = NOSRC;
	if (operands & ~(uint32_t)(SpvImageOperandsBiasMask | SpvImageOperandsLodMask))
		return unsupported(L, "OpImageSample* with image operands other than Bias and Lod", op);
	if (operands & SpvImageOperandsBiasMask) {
		top = TSR_SH_TXB;
		TSR_TRY(src(L, a[5], &lod));
	} else if (operands & SpvImageOperandsLodMask) {
		top = TSR_SH_TXL;
		TSR_TRY(src(L, a[5], &lod));
	}
	unsigned flags = ty(L, sv->type)->cube ? TSR_SH_F_CUBE : 0;
	if (op == SpvOpImageSampleProjImplicitLod || op == SpvOpImageSampleProjExplicitLod) {
		flags |= TSR_SH_F_PROJ;
		/* the q of a 2D projective coordinate is its third component */
		static const unsigned xyzz[4] = {0, 1, 2, 2};
		coord.swz = swz_compose(coord.swz, xyzz);
	}
	uint16_t reg;
	TSR_TRY(result(L, id, type, &reg));
	return emit(L, top, (mask_n(comps(L, type)) & 0xfu) | flags, reg, coord, lod,
		    mksrc(sv->reg, 0, 0));
}

static enum tsr_status matrix_op(struct lower *L, const uint32_t *a, uint32_t op)
{
	uint32_t type = a[0], id = a[1];
	uint16_t reg;
	switch (op) {
	case SpvOpMatrixTimesScalar: {
		const struct ty *t = ty(L, type);
		unsigned rows = ty(L, t->elem)->n;
		struct tsr_sh_src s;
		TSR_TRY(src(L, a[3], &s));
		TSR_TRY(result(L, id, type, &reg));
		for (unsigned k = 0; k < t->n; k++) {
			struct tsr_sh_src col;
			TSR_TRY(src_k(L, a[2], k, &col));
			TSR_TRY(emit(L, TSR_SH_MUL, mask_n(rows), (uint16_t)(reg + k), col, s, NOSRC));
		}
		return TSR_OK;
	}
	case SpvOpVectorTimesMatrix: {
		/* result[k] = dot(v, M[k]) */
		const struct ty *mt = ty(L, vtype(L, a[3]));
		unsigned rows = ty(L, mt->elem)->n;
		struct tsr_sh_src v;
		TSR_TRY(src(L, a[2], &v));
		TSR_TRY(result(L, id, type, &reg));
		for (unsigned k = 0; k < mt->n; k++) {
			struct tsr_sh_src col;
			TSR_TRY(src_k(L, a[3], k, &col));
			TSR_TRY(emit(L, TSR_SH_DP2 + rows - 2, 1u << k, reg, v, col, NOSRC));
		}
		return TSR_OK;
	}
	case SpvOpMatrixTimesVector: {
		/* sum_k M[k] v[k] */
		const struct ty *mt = ty(L, vtype(L, a[2]));
		unsigned rows = ty(L, mt->elem)->n;
		struct tsr_sh_src v;
		TSR_TRY(src(L, a[3], &v));
		TSR_TRY(result(L, id, type, &reg));
		for (unsigned k = 0; k < mt->n; k++) {
			struct tsr_sh_src col;
			TSR_TRY(src_k(L, a[2], k, &col));
			if (k == 0)
				TSR_TRY(emit(L, TSR_SH_MUL, mask_n(rows), reg, col, rep(v, k), NOSRC));
			else
				TSR_TRY(emit(L, TSR_SH_MAD, mask_n(rows), reg, col, rep(v, k), R(reg)));
		}
		return TSR_OK;
	}
	case SpvOpMatrixTimesMatrix: {
		/* C[j] = A B[j] */
		const struct ty *at = ty(L, vtype(L, a[2])), *bt = ty(L, vtype(L, a[3]));
		unsigned rows = ty(L, at->elem)->n;
		TSR_TRY(result(L, id, type, &reg));
		for (unsigned j = 0; j < bt->n; j++) {
			struct tsr_sh_src bj;
			TSR_TRY(src_k(L, a[3], j, &bj));
			for (unsigned k = 0; k < at->n; k++) {
				struct tsr_sh_src col;
				TSR_TRY(src_k(L, a[2], k, &col));
				if (k == 0)
					TSR_TRY(emit(L, TSR_SH_MUL, mask_n(rows), (uint16_t)(reg + j), col,
						     rep(bj, k), NOSRC));
				else
					TSR_TRY(emit(L, TSR_SH_MAD, mask_n(rows), (uint16_t)(reg + j), col,
						     rep(bj, k), R((uint16_t)(reg + j))));
			}
		}
		return TSR_OK;
	}
	default:
		return unsupported(L, "matrix operation", op);
	}
}

/* ops on matrices that SPIR-V allows component-wise: per column */
static enum tsr_status per_column(struct lower *L, const uint32_t *a, unsigned isa_op, bool negb)
{
	uint32_t type = a[0], id = a[1];
	const struct ty *t = ty(L, type);
	unsigned rows = ty(L, t->elem)->n;
	uint16_t reg;
	TSR_TRY(result(L, id, type, &reg));
	for (unsigned k = 0; k < t->n; k++) {
		struct tsr_sh_src x, y;
		TSR_TRY(src_k(L, a[2], k, &x));
		TSR_TRY(src_k(L, a[3], k, &y));
		TSR_TRY(emit(L, isa_op, mask_n(rows), (uint16_t)(reg + k), x, negb ? neg(y) : y, NOSRC));
	}
	return TSR_OK;
}

static const char *op_name(uint32_t op)
{
	switch (op) {
	case SpvOpFunctionCall: return "OpFunctionCall";
	case SpvOpOuterProduct: return "OpOuterProduct";
	case SpvOpTranspose: return "OpTranspose";
	case SpvOpBitcast: return "OpBitcast";
	case SpvOpSMod: return "OpSMod";
	case SpvOpSRem: return "OpSRem";
	case SpvOpUMod: return "OpUMod";
	case SpvOpFRem: return "OpFRem";
	case SpvOpVectorInsertDynamic: return "OpVectorInsertDynamic";
	case SpvOpImageSampleDrefImplicitLod: return "OpImageSampleDrefImplicitLod";
	case SpvOpImageFetch: return "OpImageFetch";
	case SpvOpShiftLeftLogical: return "OpShiftLeftLogical";
	case SpvOpBitwiseAnd: return "OpBitwiseAnd";
	default: return "an instruction";
	}
}

static enum tsr_status instruction(struct lower *L, uint32_t op, const uint32_t *a, uint32_t na)
{
	/* every instruction handled below but these has a result type and id */
	if (op != SpvOpNop && op != SpvOpLine && op != SpvOpNoLine && op != SpvOpSelectionMerge &&
	    op != SpvOpLoopMerge && op != SpvOpStore && op != SpvOpCopyMemory &&
	    (na < 2 || a[0] >= L->bound || a[1] >= L->bound))
		return malformed(L, "result id out of range");
	switch (op) {
	case SpvOpNop:
	case SpvOpLine:
	case SpvOpNoLine:
	case SpvOpSelectionMerge:
	case SpvOpLoopMerge:
	case SpvOpPhi:
		return TSR_OK;
	case SpvOpVariable: {
		/* a function variable: registers; an initializer is stored */
		uint32_t vt = ty(L, a[0])->elem;
		uint16_t reg;
		TSR_TRY(new_regs(L, type_regs(L, vt), &reg));
		struct val *v = &L->vals[a[1]];
		memset(v, 0, sizeof(*v));
		v->kind = V_PTR;
		v->type = vt;
		v->reg = reg;
		v->comp = 0xff;
		v->sc = SpvStorageClassFunction;
		v->creg = 0xffff;
		if (na >= 4)
			return store(L, a[1], a[3]);
		return TSR_OK;
	}
	case SpvOpUndef: {
		uint32_t ci;
		uint32_t r = type_regs(L, a[0]);
		return add_const(L, a[1], a[0], r ? r : 1, &ci);
	}
	case SpvOpLoad:
		return load(L, a);
	case SpvOpStore:
		return store(L, a[0], a[1]);
	case SpvOpCopyMemory:
		return unsupported(L, "OpCopyMemory", op);
	case SpvOpAccessChain:
	case SpvOpInBoundsAccessChain:
		return access_chain(L, a, na);
	case SpvOpCopyObject: {
		struct val *v;
		TSR_TRY(get(L, a[2], &v));
		L->vals[a[1]] = *v;
		L->vals[a[1]].type = a[0];
		return TSR_OK;
	}
	case SpvOpCompositeConstruct:
		return composite_construct(L, a, na);
	case SpvOpCompositeExtract:
		return composite_extract(L, a, na);
	case SpvOpCompositeInsert:
		return composite_insert(L, a, na);
	case SpvOpVectorShuffle:
		return vector_shuffle(L, a, na);
	case SpvOpVectorExtractDynamic: {
		/* d = v[i]: a select per component */
		unsigned n = comps(L, vtype(L, a[2]));
		struct tsr_sh_src v, i;
		TSR_TRY(src(L, a[2], &v));
		TSR_TRY(src(L, a[3], &i));
		uint16_t reg, c;
		TSR_TRY(result(L, a[1], a[0], &reg));
		TSR_TRY(tmp(L, &c));
		TSR_TRY(emit(L, TSR_SH_MOV, 1, reg, rep(v, 0), NOSRC, NOSRC));
		for (unsigned k = 1; k < n; k++) {
			struct tsr_sh_src ks;
			TSR_TRY(flit(L, (float)k, &ks));
			TSR_TRY(emit(L, TSR_SH_SEQ, 1, c, i, ks, NOSRC));
			TSR_TRY(emit(L, TSR_SH_SEL, 1, reg, R(c), rep(v, k), R(reg)));
		}
		return TSR_OK;
	}
	case SpvOpFAdd:
	case SpvOpIAdd:
		if (ty(L, a[0])->kind == T_MAT)
			return per_column(L, a, TSR_SH_ADD, false);
		return cw(L, a[1], a[0], TSR_SH_ADD, a[2], a[3], 0);
	case SpvOpFSub:
	case SpvOpISub: {
		if (ty(L, a[0])->kind == T_MAT)
			return per_column(L, a, TSR_SH_ADD, true);
		struct tsr_sh_src x, y;
		TSR_TRY(src(L, a[2], &x));
		TSR_TRY(src(L, a[3], &y));
		return cw_src(L, a[1], a[0], TSR_SH_ADD, x, neg(y), NOSRC);
	}
	case SpvOpFMul:
	case SpvOpIMul:
		if (ty(L, a[0])->kind == T_MAT)
			return per_column(L, a, TSR_SH_MUL, false);
		return cw(L, a[1], a[0], TSR_SH_MUL, a[2], a[3], 0);
	case SpvOpFDiv:
		if (ty(L, a[0])->kind == T_MAT)
			return per_column(L, a, TSR_SH_DIV, false);
		return cw(L, a[1], a[0], TSR_SH_DIV, a[2], a[3], 0);
	case SpvOpSDiv:
	case SpvOpUDiv: {
		struct tsr_sh_src x, y;
		TSR_TRY(src(L, a[2], &x));
		TSR_TRY(src(L, a[3], &y));
		uint16_t t;
		TSR_TRY(tmp(L, &t));
		TSR_TRY(emit(L, TSR_SH_DIV, mask_n(comps(L, a[0])), t, x, y, NOSRC));
		return cw_src(L, a[1], a[0], TSR_SH_TRC, R(t), NOSRC, NOSRC);
	}
	case SpvOpFMod: {
		/* x - y floor(x / y) */
		struct tsr_sh_src x, y;
		TSR_TRY(src(L, a[2], &x));
		TSR_TRY(src(L, a[3], &y));
		unsigned m = mask_n(comps(L, a[0]));
		uint16_t t;
		TSR_TRY(tmp(L, &t));
		TSR_TRY(emit(L, TSR_SH_DIV, m, t, x, y, NOSRC));
		TSR_TRY(emit(L, TSR_SH_FLR, m, t, R(t), NOSRC, NOSRC));
		return cw_src(L, a[1], a[0], TSR_SH_MAD, neg(y), R(t), x);
	}
	case SpvOpFNegate:
	case SpvOpSNegate: {
		if (ty(L, a[0])->kind == T_MAT) {
			const struct ty *t = ty(L, a[0]);
			uint16_t reg;
			TSR_TRY(result(L, a[1], a[0], &reg));
			for (unsigned k = 0; k < t->n; k++) {
				struct tsr_sh_src col;
				TSR_TRY(src_k(L, a[2], k, &col));
				TSR_TRY(emit(L, TSR_SH_MOV, mask_n(ty(L, t->elem)->n), (uint16_t)(reg + k), neg(col),
					     NOSRC, NOSRC));
			}
			return TSR_OK;
		}
		struct tsr_sh_src x;
		TSR_TRY(src(L, a[2], &x));
		return cw_src(L, a[1], a[0], TSR_SH_MOV, neg(x), NOSRC, NOSRC);
	}
	case SpvOpVectorTimesScalar:
		return cw(L, a[1], a[0], TSR_SH_MUL, a[2], a[3], 0);
	case SpvOpMatrixTimesScalar:
	case SpvOpVectorTimesMatrix:
	case SpvOpMatrixTimesVector:
	case SpvOpMatrixTimesMatrix:
		return matrix_op(L, a, op);
	case SpvOpDot: {
		unsigned n = comps(L, vtype(L, a[2]));
		if (n < 2)
			return cw(L, a[1], a[0], TSR_SH_MUL, a[2], a[3], 0);
		return cw(L, a[1], a[0], TSR_SH_DP2 + n - 2, a[2], a[3], 0);
	}
	case SpvOpConvertSToF:
	case SpvOpConvertUToF:
	case SpvOpSConvert:
	case SpvOpFConvert:
	case SpvOpUConvert: {
		struct val *v;
		TSR_TRY(get(L, a[2], &v));
		L->vals[a[1]] = *v;
		L->vals[a[1]].type = a[0];
		return TSR_OK;
	}
	case SpvOpConvertFToS:
	case SpvOpConvertFToU:
		return cw(L, a[1], a[0], TSR_SH_TRC, a[2], 0, 0);
	case SpvOpFOrdLessThan:
	case SpvOpFUnordLessThan:
	case SpvOpSLessThan:
	case SpvOpULessThan:
		return compare(L, a, TSR_SH_SLT, false);
	case SpvOpFOrdGreaterThan:
	case SpvOpFUnordGreaterThan:
	case SpvOpSGreaterThan:
	case SpvOpUGreaterThan:
		return compare(L, a, TSR_SH_SLT, true);
	case SpvOpFOrdLessThanEqual:
	case SpvOpFUnordLessThanEqual:
	case SpvOpSLessThanEqual:
	case SpvOpULessThanEqual:
		return compare(L, a, TSR_SH_SGE, true);
	case SpvOpFOrdGreaterThanEqual:
	case SpvOpFUnordGreaterThanEqual:
	case SpvOpSGreaterThanEqual:
	case SpvOpUGreaterThanEqual:
		return compare(L, a, TSR_SH_SGE, false);
	case SpvOpFOrdEqual:
	case SpvOpFUnordEqual:
	case SpvOpIEqual:
	case SpvOpLogicalEqual:
		return compare(L, a, TSR_SH_SEQ, false);
	case SpvOpFOrdNotEqual:
	case SpvOpFUnordNotEqual:
	case SpvOpINotEqual:
	case SpvOpLogicalNotEqual:
		return compare(L, a, TSR_SH_SNE, false);
	case SpvOpLogicalAnd:
		return cw(L, a[1], a[0], TSR_SH_MUL, a[2], a[3], 0);
	case SpvOpLogicalOr:
		return cw(L, a[1], a[0], TSR_SH_MAX, a[2], a[3], 0);
	case SpvOpLogicalNot: {
		struct tsr_sh_src x, zero;
		TSR_TRY(src(L, a[2], &x));
		TSR_TRY(flit(L, 0.0f, &zero));
		return cw_src(L, a[1], a[0], TSR_SH_SEQ, x, zero, NOSRC);
	}
	case SpvOpAny:
	case SpvOpAll: {
		unsigned n = comps(L, vtype(L, a[2]));
		struct tsr_sh_src x, one, k;
		TSR_TRY(src(L, a[2], &x));
		TSR_TRY(flit(L, 1.0f, &one));
		uint16_t t;
		TSR_TRY(tmp(L, &t));
		if (n == 1)
			TSR_TRY(emit(L, TSR_SH_MOV, 1, t, x, NOSRC, NOSRC));
		else
			TSR_TRY(emit(L, TSR_SH_DP2 + n - 2, 1, t, x, one, NOSRC));
		if (op == SpvOpAny) {
			TSR_TRY(flit(L, 0.0f, &k));
			return cw_src(L, a[1], a[0], TSR_SH_SNE, rep(R(t), 0), k, NOSRC);
		}
		TSR_TRY(flit(L, (float)n, &k));
		return cw_src(L, a[1], a[0], TSR_SH_SEQ, rep(R(t), 0), k, NOSRC);
	}
	case SpvOpSelect: {
		if (!comps(L, a[0])) {
			/* composite select: per register */
			struct tsr_sh_src c;
			TSR_TRY(src(L, a[2], &c));
			uint16_t reg;
			TSR_TRY(result(L, a[1], a[0], &reg));
			for (uint32_t k = 0; k < type_regs(L, a[0]); k++) {
				struct tsr_sh_src x, y;
				TSR_TRY(src_k(L, a[3], k, &x));
				TSR_TRY(src_k(L, a[4], k, &y));
				TSR_TRY(emit(L, TSR_SH_SEL, 0xf, (uint16_t)(reg + k), rep(c, 0), x, y));
			}
			return TSR_OK;
		}
		return cw(L, a[1], a[0], TSR_SH_SEL, a[2], a[3], a[4]);
	}
	case SpvOpDPdx:
	case SpvOpDPdxFine:
	case SpvOpDPdxCoarse:
		return cw(L, a[1], a[0], TSR_SH_DDX, a[2], 0, 0);
	case SpvOpDPdy:
	case SpvOpDPdyFine:
	case SpvOpDPdyCoarse:
		return cw(L, a[1], a[0], TSR_SH_DDY, a[2], 0, 0);
	case SpvOpFwidth:
	case SpvOpFwidthFine:
	case SpvOpFwidthCoarse: {
		struct tsr_sh_src x;
		TSR_TRY(src(L, a[2], &x));
		unsigned m = mask_n(comps(L, a[0]));
		uint16_t t1, t2;
		TSR_TRY(tmp(L, &t1));
		TSR_TRY(tmp(L, &t2));
		TSR_TRY(emit(L, TSR_SH_DDX, m, t1, x, NOSRC, NOSRC));
		TSR_TRY(emit(L, TSR_SH_DDY, m, t2, x, NOSRC, NOSRC));
		return cw_src(L, a[1], a[0], TSR_SH_ADD, absm(R(t1)), absm(R(t2)), NOSRC);
	}
	case SpvOpExtInst:
		if (a[2] != L->glsl_ext)
			return unsupported(L, "OpExtInst (not GLSL.std.450)", op);
		return ext_inst(L, a, na);
	case SpvOpSampledImage:
	case SpvOpImage: {
		struct val *v;
		TSR_TRY(get(L, a[2], &v));
		L->vals[a[1]] = *v;
		return TSR_OK;
	}
	case SpvOpImageSampleImplicitLod:
	case SpvOpImageSampleExplicitLod:
	case SpvOpImageSampleProjImplicitLod:
	case SpvOpImageSampleProjExplicitLod:
		if (L->stage == TSR_SHADER_VERTEX &&
		    (op == SpvOpImageSampleImplicitLod || op == SpvOpImageSampleProjImplicitLod))
			return unsupported(L, "OpImageSampleImplicitLod in a vertex shader", op);
		return sample(L, a, na, op);
	default:
		return unsupported(L, op_name(op), op);
	}
}

/* ---------- structured control flow ---------- */

static enum tsr_status emit_seq(struct lower *L, uint32_t label, uint32_t stop);

static struct construct *top_con(struct lower *L)
{
	return L->n_cons ? &L->cons[L->n_cons - 1] : NULL;
}

/* innermost construct a branch to `target` leaves (break), or continues */
static int exit_kind(struct lower *L, uint32_t target)
{
	struct construct *c = top_con(L);
	if (!c)
		return 0;
	if (target == c->merge)
		return 1; /* break */
	if (c->kind == C_LOOP && target == c->cont && c->cont != c->header)
		return 2; /* continue */
	if (c->kind == C_LOOP && target == c->header && c->cont == c->header)
		return 2; /* the header is its own continue target: continue */
	for (int i = 0; i < L->n_cons - 1; i++)
		if (target == L->cons[i].merge || (L->cons[i].kind == C_LOOP && target == L->cons[i].cont))
			return -1;
	return 0;
}

static enum tsr_status emit_exit(struct lower *L, int kind, struct tsr_sh_src cond, unsigned flags)
{
	struct construct *c = top_con(L);
	if (kind < 0)
		return tsr_error_set(L->err, TSR_ERR_UNSUPPORTED,
				     "a branch out of nested constructs (break or continue of an outer loop)");
	TSR_TRY(emit(L, kind == 1 ? TSR_SH_BRK : TSR_SH_CONT, flags, 0, cond, NOSRC, NOSRC));
	L->patch[L->n_code - 1] = c->id;
	return TSR_OK;
}

static enum tsr_status body(struct lower *L, struct block *b)
{
	for (uint32_t i = b->start; i < b->end;) {
		uint32_t op = L->w[i] & 0xffffu, len = L->w[i] >> 16;
		/* the arithmetic of a RelaxedPrecision result (not its loads,
		 * stores, addressing or samples) runs at half precision */
		L->half = len >= 3 && L->w[i + 2] < L->bound && L->relaxed[L->w[i + 2]] &&
			  op != SpvOpLoad && op != SpvOpStore && op != SpvOpVariable &&
			  op != SpvOpAccessChain && op != SpvOpInBoundsAccessChain &&
			  op != SpvOpCopyMemory && !(op >= SpvOpSampledImage && op <= SpvOpImageFetch);
		enum tsr_status st = instruction(L, op, &L->w[i + 1], len - 1);
		L->half = 0;
		TSR_TRY(st);
		i += len;
	}
	return TSR_OK;
}

/* the edge from -> to inside an arm that ends at merge */
static enum tsr_status emit_arm(struct lower *L, uint32_t from, uint32_t to, uint32_t merge)
{
	TSR_TRY(edge_copies(L, from, to));
	if (to == merge)
		return TSR_OK;
	int k = exit_kind(L, to);
	if (k)
		return emit_exit(L, k, NOSRC, 0);
	return emit_seq(L, to, merge);
}

static enum tsr_status push_if(struct lower *L)
{
	if (++L->if_depth > TSR_SH_MAX_NESTING)
		return tsr_error_set(L->err, TSR_ERR_LIMIT, "selections nested deeper than %d",
				     TSR_SH_MAX_NESTING);
	return TSR_OK;
}

static bool has_phi_from(struct lower *L, uint32_t to, uint32_t from)
{
	struct block *b = blk(L, to);
	if (!b)
		return false;
	for (uint32_t i = b->start; i < b->end;) {
		uint32_t op = L->w[i] & 0xffffu, len = L->w[i] >> 16;
		if (op == SpvOpPhi)
			for (uint32_t k = 3; k + 1 < len; k += 2)
				if (L->w[i + k + 1] == from)
					return true;
		i += len;
	}
	return false;
}

static enum tsr_status emit_loop(struct lower *L, struct block *h);

/* emits the blocks from label until stop (exclusive) */
static enum tsr_status emit_seq(struct lower *L, uint32_t label, uint32_t stop)
{
	bool first = true;
	while (first || label != stop) {
		struct block *b = blk(L, label);
		if (!b)
			return malformed(L, "branch to an unknown block");
		if (++L->visits > 2 * L->n_blocks + 8)
			return tsr_error_set(L->err, TSR_ERR_UNSUPPORTED,
					     "unstructured control flow (a block reached twice)");
		struct construct *c = top_con(L);
		if (b->is_loop && !(c && c->kind == C_LOOP && c->header == label && !c->entered)) {
			TSR_TRY(emit_loop(L, b));
			label = b->merge;
			first = false;
			continue;
		}
		if (c && c->kind == C_LOOP && c->header == label)
			c->entered = 1;
		first = false;
		TSR_TRY(phi_moves(L, b));
		TSR_TRY(body(L, b));
		const uint32_t *t = &L->w[b->end];
		uint32_t op = t[0] & 0xffffu, len = t[0] >> 16;
		const uint32_t *a = &t[1];
		switch (op) {
		case SpvOpBranch: {
			uint32_t to = a[0];
			TSR_TRY(edge_copies(L, label, to));
			if (to == stop)
				return TSR_OK;
			int k = exit_kind(L, to);
			if (k)
				return emit_exit(L, k, NOSRC, 0);
			label = to;
			break;
		}
		case SpvOpBranchConditional: {
			uint32_t tt = a[1], ff = a[2];
			struct tsr_sh_src cond;
			TSR_TRY(src(L, a[0], &cond));
			cond = rep(cond, 0);
			if (tt == ff) {
				TSR_TRY(edge_copies(L, label, tt));
				if (tt == stop)
					return TSR_OK;
				label = tt;
				break;
			}
			if (b->merge && !b->is_loop) {
				uint32_t m = b->merge;
				TSR_TRY(push_if(L));
				uint32_t if_at = L->n_code;
				TSR_TRY(emit(L, TSR_SH_IF, 0, 0, cond, NOSRC, NOSRC));
				TSR_TRY(emit_arm(L, label, tt, m));
				uint32_t else_at = 0;
				bool else_needed = ff != m || has_phi_from(L, m, label);
				if (else_needed) {
					else_at = L->n_code;
					TSR_TRY(emit(L, TSR_SH_ELSE, 0, 0, NOSRC, NOSRC, NOSRC));
					TSR_TRY(emit_arm(L, label, ff, m));
				}
				uint32_t endif_at = L->n_code;
				TSR_TRY(emit(L, TSR_SH_ENDIF, 0, 0, NOSRC, NOSRC, NOSRC));
				L->code[if_at].dst = (uint16_t)(else_needed ? else_at : endif_at);
				if (else_needed)
					L->code[else_at].dst = (uint16_t)endif_at;
				L->if_depth--;
				if (m == stop)
					return TSR_OK;
				int k = exit_kind(L, m);
				if (k)
					return emit_exit(L, k, NOSRC, 0);
				label = m;
				break;
			}
			/* no selection merge: one side leaves the construct (loop test, break, continue) */
			bool tstop = tt == stop, fstop = ff == stop;
			int kt = tstop ? 0 : exit_kind(L, tt), kf = fstop ? 0 : exit_kind(L, ff);
			if (kf && !kt && !has_phi_from(L, ff, label)) {
				/* lanes with !cond leave */
				TSR_TRY(emit_exit(L, kf, cond, TSR_SH_F_COND | TSR_SH_F_INVERT));
				TSR_TRY(edge_copies(L, label, tt));
				if (tstop)
					return TSR_OK;
				label = tt;
				break;
			}
			if (kt && !kf && !has_phi_from(L, tt, label)) {
				TSR_TRY(emit_exit(L, kt, cond, TSR_SH_F_COND));
				TSR_TRY(edge_copies(L, label, ff));
				if (fstop)
					return TSR_OK;
				label = ff;
				break;
			}
			/* general: both arms in an IF; each must leave or reach stop */
			TSR_TRY(push_if(L));
			uint32_t if_at = L->n_code;
			TSR_TRY(emit(L, TSR_SH_IF, 0, 0, cond, NOSRC, NOSRC));
			TSR_TRY(emit_arm(L, label, tt, stop));
			uint32_t else_at = L->n_code;
			TSR_TRY(emit(L, TSR_SH_ELSE, 0, 0, NOSRC, NOSRC, NOSRC));
			TSR_TRY(emit_arm(L, label, ff, stop));
			uint32_t endif_at = L->n_code;
			TSR_TRY(emit(L, TSR_SH_ENDIF, 0, 0, NOSRC, NOSRC, NOSRC));
			L->code[if_at].dst = (uint16_t)else_at;
			L->code[else_at].dst = (uint16_t)endif_at;
			L->if_depth--;
			return TSR_OK;
		}
		case SpvOpSwitch: {
			if (len != 3 || !b->merge)
				return unsupported(L, "OpSwitch with cases (GLSL ES 1.00 has no switch)", op);
			/* --merge-return's breakable block */
			if (L->n_cons >= TSR_SH_MAX_NESTING)
				return tsr_error_set(L->err, TSR_ERR_LIMIT, "loops nested deeper than %d",
						     TSR_SH_MAX_NESTING);
			struct construct *nc = &L->cons[L->n_cons++];
			memset(nc, 0, sizeof(*nc));
			nc->kind = C_BLOCK;
			nc->merge = b->merge;
			nc->first_inst = L->n_code;
			nc->id = ++L->next_tag;
			TSR_TRY(emit(L, TSR_SH_LOOP, 0, 0, NOSRC, NOSRC, NOSRC));
			TSR_TRY(edge_copies(L, label, a[1]));
			if (a[1] != b->merge)
				TSR_TRY(emit_seq(L, a[1], b->merge));
			uint32_t end_at = L->n_code;
			TSR_TRY(emit(L, TSR_SH_ENDLOOP, TSR_SH_F_ONCE, (uint16_t)(nc->first_inst + 1), NOSRC, NOSRC,
				     NOSRC));
			L->code[nc->first_inst].dst = (uint16_t)(end_at + 1);
			for (uint32_t i = nc->first_inst; i < end_at; i++)
				if ((L->code[i].op == TSR_SH_BRK || L->code[i].op == TSR_SH_CONT) && L->patch[i] == nc->id)
					L->code[i].dst = (uint16_t)end_at;
			L->n_cons--;
			if (b->merge == stop)
				return TSR_OK;
			label = b->merge;
			break;
		}
		case SpvOpKill:
			return emit(L, TSR_SH_KILL, 0, 0, NOSRC, NOSRC, NOSRC);
		case SpvOpReturn:
		case SpvOpUnreachable:
			return TSR_OK;
		case SpvOpReturnValue:
			return unsupported(L, "OpReturnValue (a function was not inlined)", op);
		default:
			return malformed(L, "unknown block terminator");
		}
	}
	return TSR_OK;
}

static enum tsr_status emit_loop(struct lower *L, struct block *h)
{
	if (L->n_cons >= TSR_SH_MAX_NESTING)
		return tsr_error_set(L->err, TSR_ERR_LIMIT, "loops nested deeper than %d", TSR_SH_MAX_NESTING);
	struct construct *c = &L->cons[L->n_cons++];
	memset(c, 0, sizeof(*c));
	c->kind = C_LOOP;
	c->header = h->label;
	c->merge = h->merge;
	c->cont = h->cont;
	c->first_inst = L->n_code;
	c->id = ++L->next_tag;
	uint32_t id = c->id;
	TSR_TRY(emit(L, TSR_SH_LOOP, 0, 0, NOSRC, NOSRC, NOSRC));
	uint32_t loop_at = L->n_code - 1;
	uint32_t cjoin_at = 0;
	if (h->cont != h->label) {
		TSR_TRY(emit_seq(L, h->label, h->cont));
		c = &L->cons[L->n_cons - 1];
		/* lanes that continued rejoin for the continue block */
		bool any_cont = false;
		for (uint32_t i = loop_at; i < L->n_code; i++)
			any_cont |= L->code[i].op == TSR_SH_CONT && L->patch[i] == id;
		if (any_cont) {
			cjoin_at = L->n_code;
			TSR_TRY(emit(L, TSR_SH_CJOIN, 0, 0, NOSRC, NOSRC, NOSRC));
		}
		TSR_TRY(emit_seq(L, h->cont, h->label));
	} else {
		TSR_TRY(emit_seq(L, h->label, h->label));
	}
	uint32_t end_at = L->n_code;
	TSR_TRY(emit(L, TSR_SH_ENDLOOP, 0, (uint16_t)(loop_at + 1), NOSRC, NOSRC, NOSRC));
	L->code[loop_at].dst = (uint16_t)(end_at + 1);
	for (uint32_t i = loop_at; i < end_at; i++) {
		if (L->patch[i] != id)
			continue;
		if (L->code[i].op == TSR_SH_BRK || L->code[i].op == TSR_SH_CONT)
			L->code[i].dst = (uint16_t)(cjoin_at && i < cjoin_at ? cjoin_at : end_at);
	}
	L->n_cons--;
	return TSR_OK;
}

/* ---------- constant reassociation ---------- */

/*
 * Mesa's compiler (the reference's: GLSL IR's opt_algebraic, then NIR's)
 * reassociates a chain of products or sums with constants, (x k1) k2 ->
 * x (k1 k2) and (x + k1) + k2 -> x + (k1 + k2), folding the constants at
 * single precision before it lowers mediump to fp16, so that a mediump
 * chain rounds once, with the folded constant rounded to fp16, where
 * tessera's instructions would round the intermediate product. SPIRV-Tools
 * merges such chains of OpFMul and OpFAdd when it sees both constants, but
 * neither OpVectorTimesScalar nor constants that reach an operation through
 * a function variable (glmark2's terrain noise: p * ns.z * ns.z with
 * vec3 ns = const); this pass does it on the lowered code.
 *
 * Within each run of instructions between flow-control instructions (one
 * execution mask), it tracks per register component the instruction that
 * last wrote it and whether a MOV left a literal there (uniforms are not
 * constants). A mediump ADD or MUL one of whose operands is a literal k2
 * and the other (not under ABS) is written by a mediump ADD or MUL of the
 * same opcode whose operands were a register component x and a literal
 * k1, with x not written since, reads x and the folded literal instead,
 * when every component it writes can. The inner instruction is left in
 * place, as is every count of instructions; only values change. Mesa does
 * the same at highp, where it moves a result by an ulp of single
 * precision: tessera leaves highp code as it is.
 */

#define RA_NONE 0xffffffffu

/* a component of an ADD or MUL seen as (-)x op k */
struct ra_form {
	uint32_t xdef;    /* instruction that had last written x (RA_NONE: none in the run) */
	float k;
	uint16_t xreg;
	uint8_t xcomp;
	uint8_t xneg;
	uint8_t ok;
};

/* what a register component holds, valid while gen is the run's */
struct ra_cell {
	uint32_t gen;
	uint32_t def;     /* RA_NONE: not written in the run */
	float k;
	uint8_t is_k;     /* a literal */
};

struct reassoc {
	struct lower *L;
	struct ra_cell *cell;     /* [register * 4 + component] */
	struct ra_form *form;     /* [instruction * 4 + component] */
	uint32_t gen;
};

static struct ra_cell *ra_cell(struct reassoc *A, uint16_t reg, unsigned c)
{
	struct ra_cell *e = &A->cell[(size_t)reg * 4 + c];
	if (e->gen != A->gen) {
		e->gen = A->gen;
		e->def = RA_NONE;
		e->is_k = 0;
	}
	return e;
}

/* component c of source s, if it is a literal: its value (modifiers applied) */
static bool ra_literal(struct reassoc *A, const struct tsr_sh_src *s, unsigned c, float *v)
{
	unsigned comp = (s->swz >> (2 * c)) & 3u;
	uint16_t r = s->reg & TSR_SH_REG_MASK;
	float f;
	if (s->reg & TSR_SH_CONST_BANK) {
		if (r < A->L->uniform_regs || r >= A->L->n_consts)
			return false;
		f = A->L->consts[r][comp];
	} else {
		if (r >= A->L->regs)
			return false;
		const struct ra_cell *e = ra_cell(A, r, comp);
		if (!e->is_k)
			return false;
		f = e->k;
	}
	if (s->mod & TSR_SH_MOD_ABS)
		f = fabsf(f);
	if (s->mod & TSR_SH_MOD_NEG)
		f = -f;
	*v = f;
	return true;
}

/* component c of ADD/MUL instruction i as (-)x op k, or !ok */
static struct ra_form ra_form_of(struct reassoc *A, uint32_t i, unsigned c)
{
	const struct tsr_sh_inst *in = &A->L->code[i];
	struct ra_form f;
	memset(&f, 0, sizeof(f));
	float k0, k1;
	bool c0 = ra_literal(A, &in->src[0], c, &k0), c1 = ra_literal(A, &in->src[1], c, &k1);
	if (c0 == c1)
		return f;
	const struct tsr_sh_src *x = c0 ? &in->src[1] : &in->src[0];
	if ((x->reg & TSR_SH_CONST_BANK) || (x->mod & TSR_SH_MOD_ABS) || x->reg >= A->L->regs)
		return f;
	f.ok = 1;
	f.k = c0 ? k0 : k1;
	f.xreg = x->reg;
	f.xcomp = (uint8_t)((x->swz >> (2 * c)) & 3u);
	f.xneg = (x->mod & TSR_SH_MOD_NEG) != 0;
	f.xdef = ra_cell(A, f.xreg, f.xcomp)->def;
	return f;
}

/* f folded through the instruction that wrote its x, if that is x' op k1
 * of the same opcode and precision with x' unchanged since */
static struct ra_form ra_fold(struct reassoc *A, uint32_t i, struct ra_form f)
{
	struct ra_form none;
	memset(&none, 0, sizeof(none));
	const struct tsr_sh_inst *in = &A->L->code[i];
	uint32_t j = f.xdef;
	if (!f.ok || j == RA_NONE)
		return none;
	const struct tsr_sh_inst *inner = &A->L->code[j];
	if (inner->op != in->op || (inner->wmask & TSR_SH_F_HALF) != (in->wmask & TSR_SH_F_HALF))
		return none;
	struct ra_form g = A->form[(size_t)j * 4 + f.xcomp];
	if (!g.ok || ra_cell(A, g.xreg, g.xcomp)->def != g.xdef)
		return none;
	struct ra_form r = g;
	if (in->op == TSR_SH_MUL) {
		/* (-)((-)y k1) k2 = y (+-k1 k2) */
		r.k = g.k * f.k;
		if (f.xneg != g.xneg)
			r.k = -r.k;
		r.xneg = 0;
	} else {
		/* -((-)y + k1) + k2 = (+-)y + (k2 - k1) */
		r.k = f.xneg ? f.k - g.k : g.k + f.k;
		r.xneg = (uint8_t)(g.xneg ^ f.xneg);
	}
	return r;
}

static enum tsr_status ra_instruction(struct reassoc *A, uint32_t i)
{
	struct lower *L = A->L;
	struct tsr_sh_inst *in = &L->code[i];
	unsigned wm = in->wmask & 0xfu;
	struct ra_form orig[4], fold[4];
	bool all = wm != 0;
	int first = -1;
	for (unsigned c = 0; c < 4; c++) {
		memset(&orig[c], 0, sizeof(orig[c]));
		memset(&fold[c], 0, sizeof(fold[c]));
		if (!(wm & (1u << c)))
			continue;
		orig[c] = ra_form_of(A, i, c);
		fold[c] = ra_fold(A, i, orig[c]);
		if (first < 0)
			first = (int)c;
		all = all && fold[c].ok && fold[c].xreg == fold[first].xreg &&
		      fold[c].xneg == fold[first].xneg;
	}
	if (!all) {
		for (unsigned c = 0; c < 4; c++)
			A->form[(size_t)i * 4 + c] = orig[c];
		return TSR_OK;
	}
	float kv[4];
	uint8_t swz = 0;
	for (unsigned c = 0; c < 4; c++) {
		unsigned fc = wm & (1u << c) ? c : (unsigned)first;
		kv[c] = fold[fc].k;
		swz = (uint8_t)(swz | fold[fc].xcomp << (2 * c));
		A->form[(size_t)i * 4 + c] = fold[c];
	}
	struct tsr_sh_src ks;
	TSR_TRY(lit_vec(L, kv, 4, &ks));
	in->src[0] = mksrc(fold[first].xreg, swz, fold[first].xneg ? TSR_SH_MOD_NEG : 0);
	in->src[1] = ks;
	return TSR_OK;
}

static enum tsr_status reassociate(struct lower *L)
{
	struct reassoc A;
	A.L = L;
	A.gen = 1;
	A.cell = calloc((size_t)(L->regs ? L->regs : 1) * 4, sizeof(*A.cell));
	A.form = calloc((size_t)L->n_code * 4, sizeof(*A.form));
	if (!A.cell || !A.form) {
		free(A.cell);
		free(A.form);
		return tsr_error_set(L->err, TSR_ERR_NOMEM, "out of memory lowering a shader");
	}
	enum tsr_status st = TSR_OK;
	for (uint32_t i = 0; i < L->n_code && st == TSR_OK; i++) {
		struct tsr_sh_inst *in = &L->code[i];
		if (tsr_sh_op_class(in->op) == TSR_SH_CLASS_FLOW || in->op == TSR_SH_STX) {
			/* another execution mask, or a write to a register chosen per lane */
			A.gen++;
			continue;
		}
		if ((in->op == TSR_SH_ADD || in->op == TSR_SH_MUL) && (in->wmask & TSR_SH_F_HALF))
			st = ra_instruction(&A, i);
		/* the components written */
		unsigned wm = in->wmask & 0xfu;
		float k[4];
		bool isk[4];
		for (unsigned c = 0; c < 4; c++)
			isk[c] = (wm & (1u << c)) && in->op == TSR_SH_MOV && ra_literal(&A, &in->src[0], c, &k[c]);
		if (in->dst >= L->regs)
			continue;
		for (unsigned c = 0; c < 4; c++) {
			if (!(wm & (1u << c)))
				continue;
			struct ra_cell *e = ra_cell(&A, in->dst, c);
			e->def = i;
			e->is_k = isk[c];
			e->k = isk[c] ? k[c] : 0.0f;
		}
	}
	free(A.cell);
	free(A.form);
	return st;
}

/* ---------- entry ---------- */

static void lower_free(struct lower *L)
{
	if (L->names)
		for (uint32_t i = 0; i < L->bound; i++)
			free(L->names[i]);
	free(L->names);
	free(L->types);
	free(L->vals);
	free(L->members);
	free(L->builtin);
	free(L->relaxed);
	free(L->invariant);
	free(L->member_builtin);
	free(L->cdata);
	free(L->blocks);
	free(L->block_of);
	free(L->var_used);
	free(L->patch);
	free(L->phi_shadow);
	free(L->code);
	free(L->consts);
	free((void *)L->w);
}

void tsr_sh_stage_release(struct tsr_sh_stage *st)
{
	free(st->code);
	free(st->consts);
	free(st->inputs);
	free(st->outputs);
	free(st->uniforms);
	memset(st, 0, sizeof(*st));
}

/* copies the initializers of private (global) variables at the start */
static enum tsr_status private_initializers(struct lower *L)
{
	for (size_t i = 5; i < L->nw;) {
		uint32_t op = L->w[i] & 0xffffu, len = L->w[i] >> 16;
		if (op == SpvOpFunction)
			break;
		if (op == SpvOpVariable && len >= 5 && L->var_used[L->w[i + 2]] &&
		    L->w[i + 3] != SpvStorageClassUniformConstant)
			TSR_TRY(store(L, L->w[i + 2], L->w[i + 4]));
		i += len;
	}
	return TSR_OK;
}

enum tsr_status tsr_sh_lower(enum tsr_shader_stage stage, const uint32_t *words, size_t count,
			     struct tsr_sh_stage *out, struct tsr_error *err)
{
	memset(out, 0, sizeof(*out));
	if (count < 5 || words[0] != SpvMagicNumber)
		return tsr_error_set(err, TSR_ERR_PARSE, "not a SPIR-V module");
	struct lower L;
	memset(&L, 0, sizeof(L));
	L.stage = stage;
	/* a copy padded with zero words: an instruction shorter than its
	 * opcode implies reads zeros (id 0, never defined), not past the end */
	uint32_t *padded = calloc(count + 16, sizeof(uint32_t));
	if (!padded)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory lowering a shader");
	memcpy(padded, words, count * sizeof(uint32_t));
	L.w = padded;
	L.nw = count;
	L.bound = words[3];
	L.out = out;
	L.err = err;
	L.scalar_fill_reg = 0xffffffffu;
	enum tsr_status st = TSR_OK;
	if (L.bound == 0 || L.bound > (1u << 22)) {
		st = tsr_error_set(err, TSR_ERR_PARSE, "SPIR-V id bound %u out of range", L.bound);
		goto fail;
	}
	L.types = calloc(L.bound, sizeof(*L.types));
	L.vals = calloc(L.bound, sizeof(*L.vals));
	L.names = calloc(L.bound, sizeof(*L.names));
	L.builtin = calloc(L.bound, sizeof(*L.builtin));
	L.relaxed = calloc(L.bound, 1);
	L.invariant = calloc(L.bound, 1);
	L.block_of = calloc(L.bound, sizeof(*L.block_of));
	L.var_used = calloc(L.bound, 1);
	L.phi_shadow = calloc(L.bound, sizeof(*L.phi_shadow));
	if (!L.types || !L.vals || !L.names || !L.builtin || !L.relaxed || !L.invariant || !L.block_of || !L.var_used || !L.phi_shadow) {
		st = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory lowering a shader");
		goto fail;
	}
	size_t fs, fe;
	if ((st = parse_module(&L)) != TSR_OK || (st = find_blocks(&L, &fs, &fe)) != TSR_OK ||
	    (st = place_globals(&L)) != TSR_OK || (st = alloc_phis(&L)) != TSR_OK ||
	    (st = private_initializers(&L)) != TSR_OK)
		goto fail;
	/* the patch array follows the code */
	st = emit_seq(&L, L.blocks[0].label, 0xffffffffu);
	if (st != TSR_OK)
		goto fail;
	if ((st = emit(&L, TSR_SH_END, 0, 0, NOSRC, NOSRC, NOSRC)) != TSR_OK ||
	    (st = reassociate(&L)) != TSR_OK)
		goto fail;
	out->code = L.code;
	out->count = L.n_code;
	out->regs = L.regs ? L.regs : 1;
	out->uniform_regs = L.uniform_regs;
	out->const_regs = L.n_consts;
	out->consts = L.consts;
	L.code = NULL;
	L.consts = NULL;
	lower_free(&L);
	st = tsr_sh_regalloc(out, err);
	if (st != TSR_OK)
		tsr_sh_stage_release(out);
	return st;
fail:
	lower_free(&L);
	tsr_sh_stage_release(out);
	return st;
}
