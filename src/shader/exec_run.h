/*
 * The interpreter's loop, compiled twice by src/shader/exec.c (the way
 * Mesa's templates are): EXEC_FN(name) names this copy's functions,
 * EXEC_ATTR gives their attributes (a target), EXEC_HALF(v) rounds a vector
 * to binary16 and back (vhalf(), or x86's F16C conversions: the same bits).
 * With F16C the rounding of the mediump instructions (docs/shader-isa.md
 * "Precision") is two instructions inlined into the loop instead of a call.
 * Not a header of its own: included by exec.c only, after its helpers.
 */

/* source k of a decoded instruction, for written component c: a modifier
 * or a rounded read takes the long way */
static inline __attribute__((always_inline)) EXEC_ATTR v4f EXEC_FN(rd)(const struct dinst *d, unsigned k, unsigned c)
{
	v4f v = d->src[k][d->sw[k][c]];
	if (__builtin_expect(d->slow != 0, 0)) {
		if (d->rnd[k] & (1u << c))
			v = EXEC_HALF(v);
		if (d->mod[k] & TSR_SH_MOD_ABS)
			v = vabs(v);
		if (d->mod[k] & TSR_SH_MOD_NEG)
			v = -v;
	}
	return v;
}

/* a half dot product of n terms, in the order decode_dot() gives, its
 * result rounded */
static inline __attribute__((always_inline)) EXEC_ATTR v4f EXEC_FN(dot_half)(const struct dinst *d, unsigned n)
{
	const unsigned last = n - 1;
	const v4f a = EXEC_FN(rd)(d, 0, last), b = EXEC_FN(rd)(d, 1, last);
	if (!d->dp_fac) {  /* no shared factor (most dot products): a plain chain */
		v4f acc = EXEC_HALF(a * b);
		for (int i = (int)n - 2; i >= 0; i--)
			acc = EXEC_HALF(acc + EXEC_HALF(EXEC_FN(rd)(d, 0, (unsigned)i) *
							 EXEC_FN(rd)(d, 1, (unsigned)i)));
		return acc;
	}
	const v4f shared = d->dp_cy ? b : a, other = d->dp_cy ? a : b;
	int state = 0;  /* 0: the product a b, 1: shared * acc, 2: acc */
	v4f acc = a;
	for (int i = (int)n - 2; i >= 0; i--) {
		const v4f ai = EXEC_FN(rd)(d, 0, (unsigned)i), bi = EXEC_FN(rd)(d, 1, (unsigned)i);
		if (d->dp_fac >> i & 1u) {
			const v4f rest = d->dp_rest >> i & 1u ? bi : ai;
			acc = EXEC_HALF((state == 1 ? acc : other) + rest);
			state = 1;
		} else {
			const v4f cur = state == 2 ? acc : state == 1 ? EXEC_HALF(shared * acc) : EXEC_HALF(a * b);
			acc = EXEC_HALF(cur + EXEC_HALF(ai * bi));
			state = 2;
		}
	}
	return state == 2 ? acc : state == 1 ? EXEC_HALF(shared * acc) : EXEC_HALF(a * b);
}

/* lanes whose src0.x is nonzero (or zero when inverted) */
static inline EXEC_ATTR unsigned EXEC_FN(cond_bits)(const struct dinst *d)
{
	unsigned b = bits_of(EXEC_FN(rd)(d, 0, 0) != (v4f){0, 0, 0, 0});
	return d->flags & TSR_SH_F_INVERT ? ~b & 0xfu : b;
}

static EXEC_ATTR void EXEC_FN(texture)(struct tsr_shader_exec *x, const struct dinst *in, unsigned exec, v4f res[4],
				       uint64_t alu, uint64_t sfu, uint64_t flow)
{
	struct tsr_shader_tex_request q;
	q.issued_alu = alu;
	q.issued_sfu = sfu;
	q.issued_flow = flow;
	v4f s = EXEC_FN(rd)(in, 0, 0), t = EXEC_FN(rd)(in, 0, 1), r = EXEC_FN(rd)(in, 0, 2);
	bool cube = (in->flags & TSR_SH_F_CUBE) != 0;
	if (in->flags & TSR_SH_F_PROJ) {
		v4f q4 = EXEC_FN(rd)(in, 0, 2);
		s /= q4;
		t /= q4;
		r = (v4f){0, 0, 0, 0};
	}
	if (!cube)
		r = (v4f){0, 0, 0, 0};
	/* the sampler's unit: a constant, or a per-lane register that LDX
	 * filled from a sampler array (read in the first active lane) */
	float unit = in->src[2][0][exec ? __builtin_ctz(exec) : 0];
	q.unit = unit >= 0.0f && unit < 65536.0f ? (uint32_t)unit : 0;
	q.cube = cube;
	q.lane_mask = (uint8_t)exec;
	memcpy(q.coord[0], &s, 16);
	memcpy(q.coord[1], &t, 16);
	memcpy(q.coord[2], &r, 16);
	if (in->op == TSR_SH_TXL) {
		q.lod_mode = TSR_SHADER_LOD_EXPLICIT;
	} else {
		q.lod_mode = in->op == TSR_SH_TXB ? TSR_SHADER_LOD_BIAS : TSR_SHADER_LOD_IMPLICIT;
	}
	if (in->op != TSR_SH_TEX) {
		v4f l = EXEC_FN(rd)(in, 1, 0);
		memcpy(q.lod, &l, 16);
	} else {
		memset(q.lod, 0, sizeof(q.lod));
	}
	if (x->stage == TSR_SHADER_FRAGMENT && in->op != TSR_SH_TXL) {
		const v4f c3[3] = {s, t, r};
		for (int k = 0; k < 3; k++) {
			v4f v = c3[k];
			v4f dx = __builtin_shufflevector(v, v, 1, 1, 3, 3) - __builtin_shufflevector(v, v, 0, 0, 2, 2);
			v4f dy = __builtin_shufflevector(v, v, 2, 3, 2, 3) - __builtin_shufflevector(v, v, 0, 1, 0, 1);
			memcpy(q.ddx[k], &dx, 16);
			memcpy(q.ddy[k], &dy, 16);
		}
	} else {
		memset(q.ddx, 0, sizeof(q.ddx));
		memset(q.ddy, 0, sizeof(q.ddy));
	}
	float rgba[4][4] = {{0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}};
	if (x->sample)
		x->sample(x->user, &q, rgba);
	for (int c = 0; c < 4; c++)
		res[c] = (v4f){rgba[0][c], rgba[1][c], rgba[2][c], rgba[3][c]};
}

/* runs the stage's code; returns the lanes killed */
static EXEC_ATTR unsigned EXEC_FN(run)(struct tsr_shader_exec *x, unsigned exec, struct tsr_shader_counts *counts)
{
	const struct dinst *code = x->code;
	struct entry stk[2 * TSR_SH_MAX_NESTING + 2];
	int sp = 0, loop = -1;
	unsigned killed = 0;
	uint64_t cls_n[4] = {0, 0, 0, 0}, div = 0, limit = 0, killed_lanes = 0;
	/* the ALU instructions issued (low 32 bits) and the SFU ones (high 32
	 * bits) since the last flush into cls_n, kept in one register: flushed
	 * at each jump back (fewer instructions than the code's between two) */
	uint64_t as_n = 0;
	for (uint32_t pc = 0;;) {
		const struct dinst *in = &code[pc++];
		const unsigned op = in->op;
		if (op < TSR_SH_IF) {
			if (!exec)
				continue;
			const unsigned wm = in->wm;
			unsigned half = in->half;  /* the result still to round */
			v4f r0 = {0, 0, 0, 0}, r1 = r0, r2 = r0, r3 = r0;
			switch (op) {
#define CW1(K, R, EXPR)                                                 \
	if (wm & (1u << K)) {                                           \
		const v4f A = EXEC_FN(rd)(in, 0, K);                    \
		const v4f B = EXEC_FN(rd)(in, 1, K);                    \
		const v4f C = EXEC_FN(rd)(in, 2, K);                    \
		(void)A; (void)B; (void)C;                              \
		R = (EXPR);                                             \
	}
#define CW(EXPR) CW1(0, r0, EXPR) CW1(1, r1, EXPR) CW1(2, r2, EXPR) CW1(3, r3, EXPR) break
			case TSR_SH_MOV:
				CW(A);
			case TSR_SH_ADD:
				CW(A + B);
			case TSR_SH_MUL:
				CW(A * B);
			case TSR_SH_MAD:
				/* half: the product rounded too, as fp16 hardware's mul and
				 * add (a branch of its own: the fp32 loop stays as it was) */
				if (__builtin_expect(in->half, 0)) {
					CW(EXEC_HALF(A * B) + C);
				}
				CW(A * B + C);
			case TSR_SH_MIN:
				CW(vsel(B < A, B, A));
			case TSR_SH_MAX:
				CW(vsel(A < B, B, A));
			case TSR_SH_SLT:
				CW(bool_f(A < B));
			case TSR_SH_SGE:
				CW(bool_f(A >= B));
			case TSR_SH_SEQ:
				CW(bool_f(A == B));
			case TSR_SH_SNE:
				CW(bool_f(A != B));
			case TSR_SH_SEL:
				CW(vsel(A != (v4f){0, 0, 0, 0}, B, C));
			case TSR_SH_FLR:
				CW(vfloor(A));
			case TSR_SH_FRC:
				CW(A - vfloor(A));
			case TSR_SH_TRC:
				CW(vtrunc(A));
			case TSR_SH_SGN:
				CW(bool_f(A > (v4f){0, 0, 0, 0}) - bool_f(A < (v4f){0, 0, 0, 0}));
			case TSR_SH_DDX:
				CW(__builtin_shufflevector(A, A, 1, 1, 3, 3) - __builtin_shufflevector(A, A, 0, 0, 2, 2));
			case TSR_SH_DDY:
				CW(__builtin_shufflevector(A, A, 2, 3, 2, 3) - __builtin_shufflevector(A, A, 0, 1, 0, 1));
			case TSR_SH_RCP:
				CW(vone() / A);
			case TSR_SH_RSQ:
				CW(vone() / vsqrt(A));
			case TSR_SH_SQRT:
				CW(vsqrt(A));
			case TSR_SH_EXP2:
				CW(lanes_apply(A, exp2f));
			case TSR_SH_LOG2:
				CW(lanes_apply(A, log2f));
			case TSR_SH_SIN:
				CW(lanes_apply(A, sinf));
			case TSR_SH_COS:
				CW(lanes_apply(A, cosf));
			case TSR_SH_DIV:
				CW(A / B);
#undef CW
#undef CW1
			case TSR_SH_DP2:
			case TSR_SH_DP3:
			case TSR_SH_DP4: {
				if (in->half) {
					v4f s = EXEC_FN(dot_half)(in, op - TSR_SH_DP2 + 2u);
					r0 = r1 = r2 = r3 = s;
					half = 0;  /* rounded already */
					break;
				}
				v4f s = EXEC_FN(rd)(in, 0, 0) * EXEC_FN(rd)(in, 1, 0);
				s += EXEC_FN(rd)(in, 0, 1) * EXEC_FN(rd)(in, 1, 1);
				if (op != TSR_SH_DP2)
					s += EXEC_FN(rd)(in, 0, 2) * EXEC_FN(rd)(in, 1, 2);
				if (op == TSR_SH_DP4)
					s += EXEC_FN(rd)(in, 0, 3) * EXEC_FN(rd)(in, 1, 3);
				r0 = r1 = r2 = r3 = s;
				break;
			}
			case TSR_SH_LDX: {
				/* per lane: register b + clamp(int(a.x), 0, max); each
				 * component built from 4 lanes in registers (lane stores
				 * read back as a vector would stall store forwarding) */
				v4f idx = EXEC_FN(rd)(in, 0, 0);
				const uint32_t max = in->target;
				const v4f *rl[4];
				for (int lane = 0; lane < 4; lane++) {
					float f = idx[lane];
					uint32_t o = f > 0.0f ? (f < (float)max ? (uint32_t)f : max) : 0;
					rl[lane] = in->src[1] + (size_t)o * 4;
				}
#define LDX_C(K) ((v4f){rl[0][in->sw[1][K]][0], rl[1][in->sw[1][K]][1], \
			rl[2][in->sw[1][K]][2], rl[3][in->sw[1][K]][3]})
				r0 = LDX_C(0);
				r1 = LDX_C(1);
				r2 = LDX_C(2);
				r3 = LDX_C(3);
#undef LDX_C
				break;
			}
			case TSR_SH_STX: {
				v4f idx = EXEC_FN(rd)(in, 0, 0);
				const uint32_t max = in->target;
				for (int lane = 0; lane < 4; lane++) {
					if (!(exec & (1u << lane)))
						continue;
					float f = idx[lane];
					uint32_t o = f > 0.0f ? (f < (float)max ? (uint32_t)f : max) : 0;
					v4f *r = in->dst + (size_t)o * 4;
					for (unsigned k = 0; k < 4; k++)
						if (wm & (1u << k))
							r[k][lane] = EXEC_FN(rd)(in, 1, k)[lane];
				}
				as_n++;
				continue;
			}
			case TSR_SH_TEX:
			case TSR_SH_TXB:
			case TSR_SH_TXL: {
				v4f t[4];
				EXEC_FN(texture)(x, in, exec, t,
						 cls_n[TSR_SH_CLASS_ALU] + (uint32_t)as_n,
						 cls_n[TSR_SH_CLASS_SFU] + (as_n >> 32),
						 cls_n[TSR_SH_CLASS_FLOW]);
				cls_n[TSR_SH_CLASS_TEX]++;
				r0 = t[0], r1 = t[1], r2 = t[2], r3 = t[3];
				break;
			}
			default:
				r0 = r1 = r2 = r3 = (v4f){0, 0, 0, 0};
				break;
			}
			as_n += cls_inc[in->cls];
			if (__builtin_expect(half, 0)) {
				if (wm & 1u) r0 = EXEC_HALF(r0);
				if (wm & 2u) r1 = EXEC_HALF(r1);
				if (wm & 4u) r2 = EXEC_HALF(r2);
				if (wm & 8u) r3 = EXEC_HALF(r3);
			}
			v4f *d = in->dst;
			if (exec == 0xfu) {
				if (wm & 1u) d[0] = r0;
				if (wm & 2u) d[1] = r1;
				if (wm & 4u) d[2] = r2;
				if (wm & 8u) d[3] = r3;
			} else {
				const v4i m = lane_mask[exec];
				if (wm & 1u) d[0] = vsel(m, r0, d[0]);
				if (wm & 2u) d[1] = vsel(m, r1, d[1]);
				if (wm & 4u) d[2] = vsel(m, r2, d[2]);
				if (wm & 8u) d[3] = vsel(m, r3, d[3]);
			}
			continue;
		}
		if (op == TSR_SH_END)
			break;
		cls_n[TSR_SH_CLASS_FLOW]++;
		struct entry *lp = loop >= 0 ? &stk[loop] : NULL;
		unsigned gone = killed | (lp ? (unsigned)(lp->brk | lp->cont) : 0u);
		switch (op) {
		case TSR_SH_IF: {
			unsigned t = exec & EXEC_FN(cond_bits)(in);
			if (t && t != exec)
				div++;
			struct entry *e = &stk[sp++];
			e->kind = E_IF;
			e->saved = (uint8_t)exec;
			e->then = (uint8_t)t;
			exec = t;
			if (!exec)
				pc = in->target;
			break;
		}
		case TSR_SH_ELSE: {
			struct entry *e = &stk[sp - 1];
			exec = e->saved & ~e->then & ~gone & 0xfu;
			if (!exec)
				pc = in->target;
			break;
		}
		case TSR_SH_ENDIF: {
			struct entry *e = &stk[--sp];
			exec = e->saved & ~gone & 0xfu;
			break;
		}
		case TSR_SH_LOOP: {
			if (!exec) {
				pc = in->target;
				break;
			}
			struct entry *e = &stk[sp];
			e->kind = E_LOOP;
			e->brk = e->cont = 0;
			e->live = (uint8_t)exec;
			e->iter = 0;
			e->prev_loop = (int8_t)loop;
			loop = sp++;
			break;
		}
		case TSR_SH_BRK:
		case TSR_SH_CONT:
		case TSR_SH_KILL: {
			unsigned c = in->flags & TSR_SH_F_COND ? EXEC_FN(cond_bits)(in) : 0xfu;
			unsigned leave = exec & c;
			if (leave && leave != exec)
				div++;
			exec &= ~leave;
			if (op == TSR_SH_KILL) {
				killed |= leave;
				killed_lanes += (uint64_t)__builtin_popcount(leave);
				break;
			}
			if (op == TSR_SH_BRK)
				lp->brk = (uint8_t)(lp->brk | leave);
			else
				lp->cont = (uint8_t)(lp->cont | leave);
			/* no lane of the iteration left (lanes of an enclosing IF's
			 * other side would still be): on to the continue block */
			if (!(lp->live & ~(lp->brk | lp->cont | killed) & 0xfu))
				pc = in->target;
			break;
		}
		case TSR_SH_CJOIN:
			sp = loop + 1;
			exec = (exec | lp->cont) & ~killed & 0xfu;
			lp->cont = 0;
			break;
		case TSR_SH_ENDLOOP: {
			sp = loop + 1;
			exec = (exec | lp->cont) & ~killed & 0xfu;
			lp->cont = 0;
			if (!(in->flags & TSR_SH_F_ONCE) && exec) {
				if (++lp->iter < TSR_SH_LOOP_LIMIT) {
					cls_n[TSR_SH_CLASS_ALU] += (uint32_t)as_n;
					cls_n[TSR_SH_CLASS_SFU] += as_n >> 32;
					as_n = 0;
					lp->live = (uint8_t)exec;
					pc = in->target;
					break;
				}
				limit++;
			}
			exec = (exec | lp->brk) & ~killed & 0xfu;
			sp = loop;
			loop = lp->prev_loop;
			break;
		}
		default:
			break;
		}
	}
	cls_n[TSR_SH_CLASS_ALU] += (uint32_t)as_n;
	cls_n[TSR_SH_CLASS_SFU] += as_n >> 32;
	if (counts) {
		counts->executions++;
		counts->alu += cls_n[TSR_SH_CLASS_ALU];
		counts->sfu += cls_n[TSR_SH_CLASS_SFU];
		counts->tex += cls_n[TSR_SH_CLASS_TEX];
		counts->branch += cls_n[TSR_SH_CLASS_FLOW];
		counts->divergent_branches += div;
		counts->instructions += cls_n[0] + cls_n[1] + cls_n[2] + cls_n[3];
		counts->lanes_killed += killed_lanes;
		counts->loop_limit_hits += limit;
	}
	return killed;
}

#undef EXEC_FN
#undef EXEC_ATTR
#undef EXEC_HALF
