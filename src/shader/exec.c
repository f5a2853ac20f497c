/*
 * exec.c - the interpreter of the shader ISA (isa.h, docs/shader-isa.md):
 * one program stage on 4 lanes. Registers are [register][component][lane]
 * floats, so a component of a register is one 4-lane vector (GCC/clang
 * vector extensions: SSE on x86-64) and a swizzle only picks rows. The
 * execution mask is 4 bits; writes blend with it unless every lane is on.
 * Flow control keeps a stack of IF and LOOP entries (TSR_SH_MAX_NESTING of
 * each at most, which the lowering guarantees). Hot path: no allocation;
 * the counters are kept in locals and added to the caller's struct at the
 * end.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#endif

#include "shader/shader_priv.h"

typedef float v4f __attribute__((vector_size(16)));
typedef int32_t v4i __attribute__((vector_size(16)));

/*
 * An instruction decoded once, at creation, for this state's registers:
 * operand pointers instead of bank and index, swizzles as component
 * indices, the class for the counters.
 */
struct dinst {
	uint8_t op, wm, flags, cls;
	uint8_t sw[3][4];         /* component read for each written component, per source */
	uint8_t mod[3];           /* TSR_SH_MOD_* per source */
	uint8_t any_mod;
	uint8_t half;             /* TSR_SH_F_HALF honoured: the result rounded to binary16 */
	uint8_t rnd[3];           /* per source: bit c, its read for component c rounded too */
	uint8_t slow;             /* a modifier or a rounded read: rd() takes the long way */
	/* a half DP2-4 (docs/shader-isa.md "Precision"): the terms summed from
	 * the last; bit i of dp_fac: term i shares a factor with the sum so
	 * far and is added inside it, bit i of dp_rest: term i's other factor
	 * is its src1 (else src0); dp_cy: the shared factor is the last
	 * term's src1 (else src0) */
	uint8_t dp_fac, dp_rest, dp_cy;
	uint16_t target;          /* jump target (flow), max offset (LDX, STX) */
	const v4f *src[3];        /* the sources' registers */
	v4f *dst;                 /* the destination register */
};

struct tsr_shader_exec {
	const struct tsr_program *p;
	const struct tsr_prog_stage *ps;
	enum tsr_shader_stage stage;
	tsr_shader_sample_fn sample;
	void *user;
	v4f *regs;                /* [regs][4] */
	float *cbank;             /* a snapshot's own constant bank, NULL: the program's */
	float *cbank_half;        /* a snapshot's: its constants rounded to binary16 (the
				     half instructions' constant reads), NULL: none */
	bool holds;               /* a snapshot: it holds its program (tsr_sh_program_hold) */
	bool f16c;                /* the CPU runs F16C: run_f16c(), the same bits faster */
	bool straight;            /* no flow control, kill or texture (tsr_shader_exec_straight) */
	struct dinst *code;       /* the stage's code, decoded */
};

/* lane masks as vectors: all bits of lane k set when bit k is */
static const v4i lane_mask[16] = {
#define M(k) {((k) & 1) ? -1 : 0, ((k) & 2) ? -1 : 0, ((k) & 4) ? -1 : 0, ((k) & 8) ? -1 : 0}
	M(0), M(1), M(2), M(3), M(4), M(5), M(6), M(7),
	M(8), M(9), M(10), M(11), M(12), M(13), M(14), M(15),
#undef M
};

static enum tsr_status exec_new(const struct tsr_program *p, enum tsr_shader_stage stage,
				tsr_shader_sample_fn sample, void *user, int snapshot,
				struct tsr_shader_exec **out, struct tsr_error *err);
static enum tsr_status decode_precision(struct tsr_shader_exec *x, bool fp16,
					struct tsr_error *err);
static bool cpu_f16c(void);
static inline v4f vhalf(v4f v);

enum tsr_status tsr_shader_exec_create(const struct tsr_program *p, enum tsr_shader_stage stage,
				       tsr_shader_sample_fn sample, void *user,
				       struct tsr_shader_exec **out, struct tsr_error *err)
{
	return exec_new(p, stage, sample, user, 0, out, err);
}

enum tsr_status tsr_shader_exec_create_snapshot(const struct tsr_program *p,
						enum tsr_shader_stage stage,
						struct tsr_shader_exec **out,
						struct tsr_error *err)
{
	return exec_new(p, stage, NULL, NULL, 1, out, err);
}

static enum tsr_status exec_new(const struct tsr_program *p, enum tsr_shader_stage stage,
				tsr_shader_sample_fn sample, void *user, int snapshot,
				struct tsr_shader_exec **out, struct tsr_error *err)
{
	*out = NULL;
	if (!p || !p->linked)
		return tsr_error_set(err, TSR_ERR_CONFIG, "the program is not linked");
	if (stage != TSR_SHADER_VERTEX && stage != TSR_SHADER_FRAGMENT)
		return tsr_error_set(err, TSR_ERR_CONFIG, "shader stage %d is neither vertex nor fragment",
				     (int)stage);
	struct tsr_shader_exec *x = calloc(1, sizeof(*x));
	if (!x)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a shader execution state");
	x->p = p;
	x->ps = &p->st[stage == TSR_SHADER_FRAGMENT];
	x->stage = stage;
	x->f16c = cpu_f16c();
	x->sample = sample;
	x->user = user;
	size_t bytes = (size_t)x->ps->regs * sizeof(v4f) * 4;
	x->regs = aligned_alloc(16, bytes);
	if (!x->regs) {
		free(x);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for %zu bytes of registers", bytes);
	}
	memset(x->regs, 0, bytes);
	x->code = calloc(x->ps->count ? x->ps->count : 1, sizeof(*x->code));
	if (!x->code) {
		tsr_shader_exec_destroy(x);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for decoded code");
	}
	if (snapshot) {  /* the uniforms as of now: a copy of the constant bank */
		const size_t cb = (size_t)(x->ps->const_regs ? x->ps->const_regs : 1) * 16 *
				  sizeof(float);
		x->cbank = aligned_alloc(16, cb);
		x->cbank_half = aligned_alloc(16, cb);
		if (!x->cbank || !x->cbank_half) {
			tsr_shader_exec_destroy(x);
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for constants");
		}
		memcpy(x->cbank, x->ps->cbank, (size_t)x->ps->const_regs * 16 * sizeof(float));
		for (uint32_t i = 0; i < x->ps->const_regs * 4; i++)
			((v4f *)x->cbank_half)[i] = vhalf(((const v4f *)x->cbank)[i]);
		tsr_sh_program_hold((struct tsr_program *)p);
		x->holds = true;
	}
	v4f *bank[2] = {x->regs, (v4f *)(x->cbank ? x->cbank : x->ps->cbank)};
	x->straight = true;
	for (uint32_t i = 0; i < x->ps->count; i++) {
		const struct tsr_sh_inst *in = &x->ps->code[i];
		struct dinst *d = &x->code[i];
		d->op = in->op;
		d->wm = in->wmask & 0xfu;
		d->flags = in->wmask & 0xf0u;
		d->cls = (uint8_t)tsr_sh_op_class(in->op);
		if ((in->op >= TSR_SH_IF && in->op != TSR_SH_END) || d->cls == TSR_SH_CLASS_TEX ||
		    in->op == TSR_SH_DDX || in->op == TSR_SH_DDY)
			x->straight = false;
		for (int k = 0; k < 3; k++) {
			const struct tsr_sh_src *s = &in->src[k];
			uint32_t reg = s->reg & TSR_SH_REG_MASK;
			uint32_t limit = s->reg & TSR_SH_CONST_BANK ? x->ps->const_regs : x->ps->regs;
			if (reg >= limit)
				reg = 0; /* unused operand fields (jump targets, limits) */
			d->src[k] = bank[s->reg >> 15] + (size_t)reg * 4;
			for (int c = 0; c < 4; c++)
				d->sw[k][c] = (uint8_t)((s->swz >> (2 * c)) & 3u);
			d->mod[k] = s->mod;
			d->any_mod |= s->mod;
		}
		d->target = in->dst;
		if (in->op == TSR_SH_LDX || in->op == TSR_SH_STX)
			d->target = in->src[2].reg;
		d->dst = in->op < TSR_SH_IF && in->dst < x->ps->regs ? x->regs + (size_t)in->dst * 4 : x->regs;
	}
	enum tsr_status st = decode_precision(x, true, err);
	if (st != TSR_OK) {
		tsr_shader_exec_destroy(x);
		return st;
	}
	*out = x;
	return TSR_OK;
}

void tsr_shader_exec_set_sampler(struct tsr_shader_exec *x, tsr_shader_sample_fn sample,
				 void *user)
{
	x->sample = sample;
	x->user = user;
}

/* the same operand: source k's component for term i and source l's for term j */
static bool same_operand(const struct tsr_sh_inst *in, const struct dinst *d, unsigned k,
			 unsigned i, unsigned l, unsigned j)
{
	return in->src[k].reg == in->src[l].reg && in->src[k].mod == in->src[l].mod &&
	       d->sw[k][i] == d->sw[l][j];
}

/*
 * The order of a half dot product's operations, as Mesa's lowering gives
 * them: the terms a_i b_i summed from the last (n - 1) to the first, each
 * product and sum rounded, and where the sum so far is still a product
 * that shares a factor with the next term (a_j c + a_i c, as dot(v,
 * vec3(k)) has), the factor taken out: c (a_j + a_i).
 */
static void decode_dot(const struct tsr_sh_inst *in, struct dinst *d)
{
	d->dp_fac = d->dp_rest = d->dp_cy = 0;
	if (!d->half || in->op < TSR_SH_DP2 || in->op > TSR_SH_DP4)
		return;
	const unsigned n = in->op - TSR_SH_DP2 + 2u, last = n - 1;
	int state = 0;       /* 0: the last term's product, 1: factored, 2: a sum */
	unsigned cs = 0;     /* the shared factor: the last term's source cs */
	for (int i = (int)n - 2; i >= 0 && state != 2; i--) {
		int rest = -1;   /* term i's source that is not the shared factor */
		for (unsigned c = state == 1 ? cs : 0; rest < 0 && c <= (state == 1 ? cs : 1u); c++)
			for (unsigned k = 0; rest < 0 && k < 2; k++)
				if (same_operand(in, d, c, last, k, (unsigned)i)) {
					rest = (int)(1u - k);
					cs = c;
				}
		if (rest < 0) {
			state = 2;
			break;
		}
		state = 1;
		d->dp_fac |= (uint8_t)(1u << i);
		d->dp_rest |= (uint8_t)((unsigned)rest << i);
		d->dp_cy = (uint8_t)cs;
	}
}

/*
 * Which reads of the half-precision instructions (TSR_SH_F_HALF) round
 * their source: those of a register component that may hold a value no
 * half instruction rounded (an input, a constant, a value some other
 * instruction writes). A component that only half instructions write holds
 * binary16 values already (registers start at 0), so its reads skip the
 * rounding, which leaves the result bit-identical and most reads cheap.
 */
static enum tsr_status decode_precision(struct tsr_shader_exec *x, bool fp16,
					struct tsr_error *err)
{
	const struct tsr_prog_stage *ps = x->ps;
	uint8_t *pure = malloc(ps->regs ? ps->regs : 1);  /* bit c: component c rounded */
	if (!pure)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory decoding a program");
	memset(pure, 0xf, ps->regs);
	for (uint32_t i = 0; i < ps->n_in; i++)
		if (ps->in[i].reg < ps->regs)
			pure[ps->in[i].reg] = 0;
	for (uint32_t i = 0; i < ps->count; i++) {
		const struct tsr_sh_inst *in = &ps->code[i];
		x->code[i].half = fp16 && (in->wmask & TSR_SH_F_HALF) && in->op < TSR_SH_TEX &&
				  in->op != TSR_SH_LDX && in->op != TSR_SH_STX;
		decode_dot(in, &x->code[i]);
	}
	/* the largest set of components whose every write is rounded: a half
	 * instruction's, or a move's or select's of such components (a fixed
	 * point from all: by induction over the writes, each value written
	 * into the set is a binary16 value) */
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t i = 0; i < ps->count; i++) {
			const struct tsr_sh_inst *in = &ps->code[i];
			const struct dinst *d = &x->code[i];
			if (in->op >= TSR_SH_IF || d->half)
				continue;
			const uint32_t wm = in->wmask & 0xfu;
			uint32_t kept = 0;  /* written components that stay rounded */
			if (in->op == TSR_SH_MOV || in->op == TSR_SH_SEL)
				for (unsigned c = 0; c < 4; c++) {
					bool ok = (wm >> c) & 1u;
					for (int k = in->op == TSR_SH_SEL; ok && k < (in->op == TSR_SH_SEL ? 3 : 1); k++) {
						const uint32_t reg = in->src[k].reg;
						ok = !(reg & TSR_SH_CONST_BANK) && reg < ps->regs &&
						     (pure[reg] >> d->sw[k][c] & 1u);
					}
					kept |= (uint32_t)ok << c;
				}
			const uint8_t cleared = (uint8_t)(wm & ~kept);
			uint32_t lo = in->dst, hi = in->dst;
			if (in->op == TSR_SH_STX)  /* writes registers dst .. dst + max */
				hi = (uint32_t)in->dst + in->src[2].reg;
			for (uint32_t r = lo; r <= hi && r < ps->regs; r++)
				if (pure[r] & cleared) {
					pure[r] &= (uint8_t)~cleared;
					changed = true;
				}
		}
	}
	/* walking the code: the components known rounded here, exactly within
	 * a straight run of instructions (one execution mask), the fixed
	 * point above after any flow-control instruction (a join) */
	uint8_t *now = malloc(ps->regs ? ps->regs : 1);
	if (!now) {
		free(pure);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory decoding a program");
	}
	memcpy(now, pure, ps->regs);
	for (uint32_t i = 0; i < ps->count; i++) {
		const struct tsr_sh_inst *in = &ps->code[i];
		struct dinst *d = &x->code[i];
		memset(d->rnd, 0, sizeof(d->rnd));
		if (in->op >= TSR_SH_IF) {
			memcpy(now, pure, ps->regs);
			d->slow = d->any_mod;
			continue;
		}
		const unsigned wm = in->wmask & 0xfu, nsrc = tsr_sh_op_sources(in->op);
		/* the dot products read components 0-3 whatever they write */
		const unsigned reads = in->op >= TSR_SH_DP2 && in->op <= TSR_SH_DP4 ? 0xfu : wm;
		unsigned kept = 0;  /* a move's or select's written components read rounded */
		for (unsigned c = 0; c < 4; c++) {
			if (!(reads & (1u << c)))
				continue;
			bool all = true;
			for (unsigned k = in->op == TSR_SH_SEL; k < nsrc && k < 3; k++) {
				const uint32_t reg = in->src[k].reg;
				bool known = !(reg & TSR_SH_CONST_BANK) && reg < ps->regs &&
					     (now[reg] >> d->sw[k][c] & 1u);
				if ((reg & TSR_SH_CONST_BANK) && d->half && x->cbank_half)
					known = true;  /* read from the rounded bank */
				if (d->half && !known)
					d->rnd[k] |= (uint8_t)(1u << c);
				all &= known;
			}
			kept |= (unsigned)all << c;
		}
		d->slow = d->any_mod | d->rnd[0] | d->rnd[1] | d->rnd[2];
		/* a snapshot's half instructions read constants rounded already */
		for (unsigned k = 0; k < 3; k++) {
			const uint32_t reg = in->src[k].reg;
			if ((reg & TSR_SH_CONST_BANK) && x->cbank_half &&
			    (reg & TSR_SH_REG_MASK) < ps->const_regs)
				d->src[k] = (const v4f *)(d->half ? x->cbank_half : x->cbank) +
					    (size_t)(reg & TSR_SH_REG_MASK) * 4;
		}
		uint8_t set = 0;
		if (d->half)
			set = (uint8_t)wm;
		else if (in->op == TSR_SH_MOV || in->op == TSR_SH_SEL)
			set = (uint8_t)(wm & kept);
		uint32_t hi = in->dst;
		if (in->op == TSR_SH_STX)
			hi = (uint32_t)in->dst + in->src[2].reg;
		for (uint32_t r = in->dst; r <= hi && r < ps->regs; r++)
			now[r] = (uint8_t)((now[r] & ~wm) | set);
	}
	free(now);
	free(pure);
	/* values computed before a change of precision are not rounded */
	memset(x->regs, 0, (size_t)ps->regs * 4 * sizeof(v4f));
	return TSR_OK;
}

bool tsr_shader_exec_straight(const struct tsr_shader_exec *x)
{
	return x->straight;
}

bool tsr_shader_exec_use_f16c(struct tsr_shader_exec *x, bool on)
{
	x->f16c = on && cpu_f16c();
	return x->f16c;
}

enum tsr_status tsr_shader_exec_set_mediump(struct tsr_shader_exec *x, bool fp16,
					    struct tsr_error *err)
{
	return decode_precision(x, fp16, err);
}

const float *tsr_shader_exec_constants(const struct tsr_shader_exec *x, uint32_t *regs)
{
	*regs = x->ps->const_regs;
	return x->cbank ? x->cbank : x->ps->cbank;
}

const struct tsr_program *tsr_shader_exec_program(const struct tsr_shader_exec *x)
{
	return x->p;
}

void tsr_shader_exec_destroy(struct tsr_shader_exec *x)
{
	if (!x)
		return;
	free(x->regs);
	free(x->code);
	free(x->cbank);
	free(x->cbank_half);
	if (x->holds)
		tsr_sh_program_release((struct tsr_program *)x->p);
	free(x);
}

static inline v4f vabs(v4f v)
{
	return (v4f)((v4i)v & (v4i){0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff});
}

/*
 * v rounded to the nearest IEEE binary16 value (ties to even), as floats:
 * past 65504 infinity, below 2^-14 binary16's subnormals (multiples of
 * 2^-24, the sign kept), infinity kept, a NaN quiet with the low 13 bits of
 * its payload cleared. What a GPU running mediump at fp16 holds, and bit
 * for bit what x86's F16C conversions give (checked on all 2^32 floats),
 * so that the two paths below agree.
 */
static inline v4f vhalf(v4f v)
{
	const v4i sign = (v4i)v & INT32_MIN;
	const v4i b = (v4i)v, a = b & 0x7fffffff;
	/* the normal range: 10 mantissa bits kept, ties to even */
	v4i o = (a + 0x0fff + ((a >> 13) & 1)) & ~0x1fff;
	const v4i big = o > 0x477fe000;
	o = ((big & 0x7f800000) | (~big & o)) | sign;
	/* below 2^-14: |v| 2^24 < 1024, which adding 1.5 2^23 rounds to an
	 * integer (ties to even) */
	v4f t = v * 16777216.0f;
	t = (t + 12582912.0f) - 12582912.0f;
	const v4i sub = (v4i)(t * (1.0f / 16777216.0f)) | sign;
	const v4i small = a < 0x38800000, naninf = a >= 0x7f800000, nan = a > 0x7f800000;
	const v4i special = (nan & ((b & ~0x1fff) | 0x00400000)) | (~nan & b);
	const v4i r = (small & sub) | (~small & o);
	return (v4f)((naninf & special) | (~naninf & r));
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* whether this CPU runs F16C (and the OS keeps AVX state, which its VEX
 * encoding needs) */
static bool cpu_f16c(void)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_F16C) || !(c & bit_AVX) ||
	    !(c & bit_OSXSAVE))
		return false;
	uint32_t lo, hi;
	__asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (lo & 6u) == 6u;
}
#else
static bool cpu_f16c(void)
{
	return false;
}
#endif

static inline v4f vone(void)
{
	return (v4f){1, 1, 1, 1};
}

static inline v4f bool_f(v4i m)
{
	return (v4f)(m & (v4i){0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000});
}

static inline v4f vsel(v4i m, v4f a, v4f b)
{
	return (v4f)((m & (v4i)a) | (~m & (v4i)b));
}

/* floor for every float (|x| >= 2^23 and NaN are already integral / kept) */
static inline v4f vfloor(v4f x)
{
	const v4f big = {8388608.0f, 8388608.0f, 8388608.0f, 8388608.0f};
	v4i i = __builtin_convertvector(x, v4i);
	v4f t = __builtin_convertvector(i, v4f);
	t -= bool_f(t > x);
	return vsel(vabs(x) < big, t, x);
}

static inline v4f vtrunc(v4f x)
{
	const v4f big = {8388608.0f, 8388608.0f, 8388608.0f, 8388608.0f};
	v4f t = __builtin_convertvector(__builtin_convertvector(x, v4i), v4f);
	/* trunc keeps the sign of zero: -0.5 -> -0 */
	t = (v4f)((v4i)t | ((v4i)x & (v4i){INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN}));
	return vsel(vabs(x) < big, t, x);
}

static inline unsigned bits_of(v4i m)
{
	return (unsigned)((m[0] & 1) | (m[1] & 2) | (m[2] & 4) | (m[3] & 8));
}

static inline v4f lanes_apply(v4f v, float (*f)(float))
{
	return (v4f){f(v[0]), f(v[1]), f(v[2]), f(v[3])};
}

/* the square roots of 4 lanes, correctly rounded (IEEE): SSE's sqrtps on
 * x86-64, sqrtf() per lane elsewhere (the same bits) */
static inline v4f vsqrt(v4f v)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	return (v4f)_mm_sqrt_ps((__m128)v);
#else
	return lanes_apply(v, sqrtf);
#endif
}

/* what an instruction of each class (enum tsr_sh_class) adds to run()'s
 * packed ALU and SFU counter (the texture and flow ones are counted apart) */
static const uint64_t cls_inc[4] = {1, (uint64_t)1 << 32, 0, 0};

enum { E_IF, E_LOOP };

struct entry {
	uint8_t kind;
	uint8_t saved;     /* IF: lanes active before; LOOP: unused */
	uint8_t then;      /* IF: lanes of the then side */
	uint8_t brk, cont; /* LOOP: lanes that left it, lanes waiting for the continue block */
	uint8_t live;      /* LOOP: lanes that began this iteration */
	int8_t prev_loop;  /* LOOP: the enclosing loop's entry */
	uint32_t iter;
};

#define EXEC_FN(name) name##_generic
#define EXEC_ATTR
#define EXEC_HALF(v) vhalf(v)
#include "exec_run.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EXEC_FN(name) name##_f16c
#define EXEC_ATTR __attribute__((target("f16c")))
#define EXEC_HALF(v) ((v4f)_mm_cvtph_ps(_mm_cvtps_ph((__m128)(v), _MM_FROUND_TO_NEAREST_INT)))
#include "exec_run.h"
#else
#define run_f16c run_generic
#endif

/* runs the stage's code with the copy this CPU runs fastest; returns the
 * lanes killed */
static unsigned run(struct tsr_shader_exec *x, unsigned exec, struct tsr_shader_counts *counts)
{
	return x->f16c ? run_f16c(x, exec, counts) : run_generic(x, exec, counts);
}

void tsr_shader_exec_quad(struct tsr_shader_exec *x, const struct tsr_fs_quad_in *in,
			  struct tsr_fs_quad_out *out, struct tsr_shader_counts *counts)
{
	const struct tsr_prog_stage *ps = x->ps;
	float *regs = (float *)x->regs;
	for (uint32_t i = 0; i < ps->n_in; i++) {
		const struct tsr_sh_io *io = &ps->in[i];
		float *r = regs + (size_t)io->reg * 16;
		switch (io->kind) {
		case TSR_SH_BI_NONE:
			for (int c = 0; c < 4; c++)
				for (int l = 0; l < 4; l++)
					r[c * 4 + l] = in->varyings[l][io->index][c];
			break;
		case TSR_SH_BI_FRAG_COORD:
			for (int c = 0; c < 4; c++)
				for (int l = 0; l < 4; l++)
					r[c * 4 + l] = in->frag_coord[l][c];
			break;
		case TSR_SH_BI_FRONT_FACING:
			for (int l = 0; l < 4; l++)
				r[l] = in->front_facing ? 1.0f : 0.0f;
			break;
		case TSR_SH_BI_POINT_COORD:
			for (int c = 0; c < 2; c++)
				for (int l = 0; l < 4; l++)
					r[c * 4 + l] = in->point_coord[l][c];
			break;
		case TSR_SH_BI_LAST_FRAG_DATA: {  /* element index: draw buffer 0..3 */
			const float(*src)[4] = io->index == 0 ? in->last_color
					       : in->last_data[(io->index - 1) & 3];
			for (int c = 0; c < 4; c++)
				for (int l = 0; l < 4; l++)
					r[c * 4 + l] = src[l][c];
			break;
		}
		default:
			break;
		}
	}
	unsigned killed = run(x, 0xfu, counts);
	memset(out->color, 0, sizeof(out->color));
	memset(out->secondary, 0, sizeof(out->secondary));
	out->writes_depth = 0;
	out->data_mask = 0;
	out->broadcast = 1;
	for (uint32_t i = 0; i < ps->n_out; i++) {
		const struct tsr_sh_io *io = &ps->out[i];
		const float *r = regs + (size_t)io->reg * 16;
		if (io->kind == TSR_SH_BI_SECONDARY_COLOR) {  /* GL_EXT_blend_func_extended */
			for (int c = 0; c < 4; c++)
				for (int l = 0; l < 4; l++)
					out->secondary[l][c] = r[c * 4 + l];
			continue;
		}
		if (io->kind == TSR_SH_BI_FRAG_DEPTH) {
			for (int l = 0; l < 4; l++)
				out->depth[l] = r[l];
			out->writes_depth = 1;
			continue;
		}
		if (io->kind == TSR_SH_BI_FRAG_DATA) {  /* gl_FragData[index] */
			out->broadcast = 0;
			if (io->index > 0 && io->index < 4) {
				for (int c = 0; c < 4; c++)
					for (int l = 0; l < 4; l++)
						out->data[io->index - 1][l][c] = r[c * 4 + l];
				out->data_mask |= (uint8_t)(1u << io->index);
				continue;
			}
		} else if (io->kind != TSR_SH_BI_FRAG_COLOR) {
			continue;
		}
		for (int c = 0; c < 4; c++)
			for (int l = 0; l < 4; l++)
				out->color[l][c] = r[c * 4 + l];
	}
	out->kill_mask = (uint8_t)killed;
}

void tsr_shader_exec_vertices(struct tsr_shader_exec *x, const struct tsr_vs_in *in, uint32_t nv,
			      struct tsr_vs_out *out, struct tsr_shader_counts *counts)
{
	const struct tsr_prog_stage *ps = x->ps;
	float *regs = (float *)x->regs;
	if (nv == 0)
		return;
	if (nv > 4)
		nv = 4;
	for (uint32_t i = 0; i < ps->n_in; i++) {
		const struct tsr_sh_io *io = &ps->in[i];
		float *r = regs + (size_t)io->reg * 16;
		for (int c = 0; c < 4; c++)
			for (uint32_t l = 0; l < 4; l++)
				r[c * 4 + l] = l < nv ? in->attribs[l][io->index][c] : 0.0f;
	}
	run(x, (1u << nv) - 1u, counts);
	for (uint32_t l = 0; l < nv; l++)
		out->point_size[l] = 1.0f;
	for (uint32_t i = 0; i < ps->n_out; i++) {
		const struct tsr_sh_io *io = &ps->out[i];
		const float *r = regs + (size_t)io->reg * 16;
		for (uint32_t l = 0; l < nv; l++) {
			switch (io->kind) {
			case TSR_SH_BI_NONE:
				for (int c = 0; c < 4; c++)
					out->varyings[l][io->index][c] = r[c * 4 + l];
				break;
			case TSR_SH_BI_POSITION:
				for (int c = 0; c < 4; c++)
					out->position[l][c] = r[c * 4 + l];
				break;
			case TSR_SH_BI_POINT_SIZE:
				out->point_size[l] = r[l];
				break;
			default:
				break;
			}
		}
	}
}
