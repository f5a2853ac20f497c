/*
 * 141-shader-exec.c - lowered programs compute the right values: arithmetic,
 * every GLSL ES 1.00 built-in function against libm (tolerances of ES's
 * highp: a few ULP for the arithmetic ones, 1e-5 for the transcendental
 * ones tessera lowers to sequences), matrices, relational functions,
 * control flow with divergent lanes, discard, derivatives, texture sample
 * requests, vertex shaders, uniform arrays and structs, sqrt and
 * inversesqrt bit for bit against C's sqrtf(), instruction counts.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_main.h"
#include "test_shader.h"

#define FS_HEAD "precision highp float;\nvarying vec4 v0;\n"
#define PI_D 3.14159265358979323846

/* a fragment program from its body; returns the program and its exec state */
static struct tsr_program *fs_program(const char *fs, struct tsr_shader_exec **x,
				      tsr_shader_sample_fn sample, void *user)
{
	struct tsr_program *p = tsr_test_program(TSR_TEST_VS, fs);
	struct tsr_error err;
	assert_int_equal(tsr_shader_exec_create(p, TSR_SHADER_FRAGMENT, sample, user, x, &err), TSR_OK);
	return p;
}

static int close_enough(double got, double want, double abs_tol, double rel_tol)
{
	if (isnan(want))
		return 1; /* undefined in GLSL */
	double d = fabs(got - want);
	return d <= abs_tol || d <= rel_tol * fabs(want);
}

static void test_arithmetic(void **state)
{
	(void)state;
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(FS_HEAD
		"void main() { vec4 a = v0;\n"
		"  gl_FragColor = vec4(a.x + a.y, a.x * a.y - a.z, a.w / a.x, -a.y * 3.0 + a.z); }\n",
		&x, NULL, NULL);
	const float in[4][4] = {{1, 2, 3, 4}, {-2, 0.5f, 8, 1}, {3, -3, 0, 9}, {0.25f, 4, -1, 2}};
	struct tsr_fs_quad_out out;
	tsr_test_quad(x, p, in, &out, NULL);
	for (int l = 0; l < 4; l++) {
		const float *a = in[l];
		assert_float_equal(out.color[l][0], a[0] + a[1], 0);
		assert_float_equal(out.color[l][1], a[0] * a[1] - a[2], 1e-6);
		assert_float_equal(out.color[l][2], a[3] / a[0], 0);
		assert_float_equal(out.color[l][3], -a[1] * 3.0f + a[2], 1e-6);
	}
	assert_int_equal(out.kill_mask, 0);
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

/* ---- the built-in functions ---- */

struct fn1 {
	const char *glsl;
	double (*ref)(double);
	double lo, hi, abs_tol, rel_tol;
};

static double ref_radians(double x) { return x * PI_D / 180.0; }
static double ref_degrees(double x) { return x * 180.0 / PI_D; }
static double ref_inversesqrt(double x) { return 1.0 / sqrt(x); }
static double ref_sign(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }
static double ref_fract(double x) { return x - floor(x); }

static const struct fn1 unary[] = {
	{"radians", ref_radians, -400, 400, 1e-6, 1e-6},
	{"degrees", ref_degrees, -7, 7, 1e-5, 1e-6},
	{"sin", sin, -3.14, 3.14, 2e-6, 0},
	{"cos", cos, -3.14, 3.14, 2e-6, 0},
	{"tan", tan, -1.2, 1.2, 1e-5, 1e-5},
	{"asin", asin, -0.99, 0.99, 1e-5, 0},
	{"acos", acos, -0.99, 0.99, 1e-5, 0},
	{"atan", atan, -20, 20, 1e-5, 0},
	{"exp", exp, -5, 5, 1e-6, 1e-5},
	{"log", log, 0.01, 100, 1e-5, 1e-6},
	{"exp2", exp2, -10, 10, 1e-6, 1e-6},
	{"log2", log2, 0.001, 1000, 1e-5, 1e-6},
	{"sqrt", sqrt, 0, 100, 1e-6, 1e-6},
	{"inversesqrt", ref_inversesqrt, 0.01, 100, 1e-6, 1e-6},
	{"abs", fabs, -5, 5, 0, 0},
	{"sign", ref_sign, -2, 2, 0, 0},
	{"floor", floor, -20, 20, 0, 0},
	{"ceil", ceil, -20, 20, 0, 0},
	{"fract", ref_fract, -20, 20, 1e-6, 0},
	{"length", fabs, -5, 5, 0, 0},
	{"normalize", ref_sign, -5, 5, 0, 0},
};

/* 16 inputs per quad, spread over [lo, hi], a quad at a time */
static float sample_input(double lo, double hi, int i, int n)
{
	return (float)(lo + (hi - lo) * (i + 0.5) / n);
}

static void test_builtins_unary(void **state)
{
	(void)state;
	for (size_t f = 0; f < sizeof(unary) / sizeof(unary[0]); f++) {
		const struct fn1 *fn = &unary[f];
		char src[512];
		snprintf(src, sizeof(src), FS_HEAD "void main() { gl_FragColor = vec4(%s(v0.x), %s(v0.y), "
			 "%s(v0.z), %s(v0.w)); }\n", fn->glsl, fn->glsl, fn->glsl, fn->glsl);
		struct tsr_shader_exec *x;
		struct tsr_program *p = fs_program(src, &x, NULL, NULL);
		const int n = 64;
		for (int q = 0; q < n / 16; q++) {
			float in[4][4];
			for (int l = 0; l < 4; l++)
				for (int c = 0; c < 4; c++)
					in[l][c] = sample_input(fn->lo, fn->hi, q * 16 + l * 4 + c, n);
			struct tsr_fs_quad_out out;
			tsr_test_quad(x, p, in, &out, NULL);
			for (int l = 0; l < 4; l++)
				for (int c = 0; c < 4; c++) {
					double want = fn->ref(in[l][c]);
					if (!close_enough(out.color[l][c], want, fn->abs_tol, fn->rel_tol)) {
						fprintf(stderr, "%s(%.9g) = %.9g, libm %.9g\n", fn->glsl, in[l][c],
							out.color[l][c], want);
						fail();
					}
				}
		}
		tsr_shader_exec_destroy(x);
		tsr_program_destroy(p);
	}
}

struct fn2 {
	const char *glsl;
	double (*ref)(double, double);
	double lo0, hi0, lo1, hi1, abs_tol, rel_tol;
};

static double ref_atan2(double y, double x) { return atan2(y, x); }
static double ref_mod(double x, double y) { return x - y * floor(x / y); }
static double ref_min(double a, double b) { return b < a ? b : a; }
static double ref_max(double a, double b) { return a < b ? b : a; }
static double ref_step(double e, double x) { return x < e ? 0.0 : 1.0; }
static double ref_distance(double a, double b) { return fabs(a - b); }
static double ref_dot(double a, double b) { return a * b; }
static double ref_reflect(double i, double n) { return i - 2.0 * n * i * n; }

static const struct fn2 binary[] = {
	{"atan", ref_atan2, -5, 5, -5, 5, 1e-5, 0},
	{"pow", pow, 0.1, 10, -3, 3, 1e-6, 2e-5},
	{"mod", ref_mod, -10, 10, 0.5, 5, 1e-5, 0},
	{"mod", ref_mod, -10, 10, -5, -0.5, 1e-5, 0},
	{"min", ref_min, -5, 5, -3, 3, 0, 0},
	{"max", ref_max, -5, 5, -3, 3, 0, 0},
	{"step", ref_step, -5, 5, -3, 3, 0, 0},
	{"distance", ref_distance, -5, 5, -3, 3, 0, 0},
	{"dot", ref_dot, -5, 5, -3, 3, 0, 0},
	{"reflect", ref_reflect, -5, 5, -1, 1, 1e-5, 1e-6},
};

static void test_builtins_binary(void **state)
{
	(void)state;
	for (size_t f = 0; f < sizeof(binary) / sizeof(binary[0]); f++) {
		const struct fn2 *fn = &binary[f];
		char src[512];
		snprintf(src, sizeof(src), FS_HEAD "void main() { gl_FragColor = vec4(%s(v0.x, v0.y), "
			 "%s(v0.z, v0.w), 0.0, 1.0); }\n", fn->glsl, fn->glsl);
		struct tsr_shader_exec *x;
		struct tsr_program *p = fs_program(src, &x, NULL, NULL);
		const int n = 8;
		for (int q = 0; q < n * n / 8; q++) {
			float in[4][4];
			for (int l = 0; l < 4; l++)
				for (int h = 0; h < 2; h++) {
					int i = q * 8 + l * 2 + h;
					in[l][2 * h] = sample_input(fn->lo0, fn->hi0, i / n, n);
					in[l][2 * h + 1] = sample_input(fn->lo1, fn->hi1, i % n, n);
				}
			struct tsr_fs_quad_out out;
			tsr_test_quad(x, p, in, &out, NULL);
			for (int l = 0; l < 4; l++)
				for (int h = 0; h < 2; h++) {
					double want = fn->ref(in[l][2 * h], in[l][2 * h + 1]);
					if (!close_enough(out.color[l][h], want, fn->abs_tol, fn->rel_tol)) {
						fprintf(stderr, "%s(%.9g, %.9g) = %.9g, libm %.9g\n", fn->glsl,
							in[l][2 * h], in[l][2 * h + 1], out.color[l][h], want);
						fail();
					}
				}
		}
		tsr_shader_exec_destroy(x);
		tsr_program_destroy(p);
	}
}

static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

static void test_builtins_ternary(void **state)
{
	(void)state;
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(FS_HEAD
		"void main() { float e1 = v0.y + 0.5 + abs(v0.z);\n"
		"  gl_FragColor = vec4(clamp(v0.x, v0.y, e1), mix(v0.x, v0.y, v0.w),\n"
		"                      smoothstep(v0.y, e1, v0.x), faceforward(v0.x, v0.y, v0.z)); }\n",
		&x, NULL, NULL);
	for (int q = 0; q < 16; q++) {
		float in[4][4];
		for (int l = 0; l < 4; l++)
			for (int c = 0; c < 4; c++)
				in[l][c] = sample_input(-3, 3, (q * 16 + l * 4 + c) * 7 % 256, 256);
		struct tsr_fs_quad_out out;
		tsr_test_quad(x, p, in, &out, NULL);
		for (int l = 0; l < 4; l++) {
			double a = in[l][0], b = in[l][1], c = in[l][2], w = in[l][3];
			double e1 = (double)(in[l][1] + 0.5f + fabsf(in[l][2]));
			double t = clampd((a - b) / (e1 - b), 0, 1);
			assert_true(close_enough(out.color[l][0], clampd(a, b, e1), 0, 0));
			assert_true(close_enough(out.color[l][1], a + w * (b - a), 1e-5, 1e-6));
			assert_true(close_enough(out.color[l][2], t * t * (3 - 2 * t), 1e-5, 0));
			assert_true(close_enough(out.color[l][3], c * b < 0 ? a : -a, 0, 0));
		}
	}
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

static void test_builtins_geometric(void **state)
{
	(void)state;
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(FS_HEAD
		"uniform vec3 b;\nuniform int which;\n"
		"void main() { vec3 a = v0.xyz; vec4 r;\n"
		"  if (which == 0) r = vec4(length(a), distance(a, b), dot(a, b), 0.0);\n"
		"  else if (which == 1) r = vec4(cross(a, b), 0.0);\n"
		"  else if (which == 2) r = vec4(normalize(a), 0.0);\n"
		"  else if (which == 3) r = vec4(reflect(a, normalize(b)), 0.0);\n"
		"  else if (which == 4) r = vec4(refract(normalize(a), normalize(b), v0.w), 0.0);\n"
		"  else r = vec4(faceforward(a, b, vec3(1.0, 0.0, 0.0)), 0.0);\n"
		"  gl_FragColor = r; }\n",
		&x, NULL, NULL);
	const float bv[3] = {0.3f, -0.7f, 0.4f};
	struct tsr_error err;
	assert_int_equal(tsr_program_uniform_write(p, tsr_program_uniform_location(p, "b"), 1, bv, &err), TSR_OK);
	const float in[4][4] = {{1, 2, 3, 0.5f}, {-2, 0.5f, 1, 0.9f}, {0.1f, -3, 2, 1.5f}, {4, 1, -1, 0.66f}};
	double bl = sqrt(0.09 + 0.49 + 0.16), nb[3] = {bv[0] / bl, bv[1] / bl, bv[2] / bl};
	for (int which = 0; which < 6; which++) {
		float wf = (float)which;
		assert_int_equal(tsr_program_uniform_write(p, tsr_program_uniform_location(p, "which"), 1, &wf,
							   &err), TSR_OK);
		struct tsr_fs_quad_out out;
		tsr_test_quad(x, p, in, &out, NULL);
		for (int l = 0; l < 4; l++) {
			double a[3] = {in[l][0], in[l][1], in[l][2]}, want[3] = {0, 0, 0};
			double al = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
			double d = a[0] * bv[0] + a[1] * bv[1] + a[2] * bv[2];
			switch (which) {
			case 0:
				want[0] = al;
				want[1] = sqrt(pow(a[0] - bv[0], 2) + pow(a[1] - bv[1], 2) + pow(a[2] - bv[2], 2));
				want[2] = d;
				break;
			case 1:
				want[0] = a[1] * bv[2] - a[2] * bv[1];
				want[1] = a[2] * bv[0] - a[0] * bv[2];
				want[2] = a[0] * bv[1] - a[1] * bv[0];
				break;
			case 2:
				for (int k = 0; k < 3; k++)
					want[k] = a[k] / al;
				break;
			case 3: {
				double dn = a[0] * nb[0] + a[1] * nb[1] + a[2] * nb[2];
				for (int k = 0; k < 3; k++)
					want[k] = a[k] - 2 * dn * nb[k];
				break;
			}
			case 4: {
				double eta = in[l][3], ni = 0, na[3];
				for (int k = 0; k < 3; k++)
					na[k] = a[k] / al;
				for (int k = 0; k < 3; k++)
					ni += nb[k] * na[k];
				double kk = 1 - eta * eta * (1 - ni * ni);
				for (int k = 0; k < 3; k++)
					want[k] = kk < 0 ? 0 : eta * na[k] - (eta * ni + sqrt(kk)) * nb[k];
				break;
			}
			default:
				for (int k = 0; k < 3; k++)
					want[k] = bv[0] < 0 ? a[k] : -a[k];
			}
			for (int k = 0; k < 3; k++) {
				if (!close_enough(out.color[l][k], want[k], 2e-6, 1e-5)) {
					fprintf(stderr, "case %d lane %d comp %d: %.9g, want %.9g\n", which, l, k,
						out.color[l][k], want[k]);
					fail();
				}
			}
		}
	}
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

static void test_matrices(void **state)
{
	(void)state;
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(FS_HEAD
		"uniform mat4 m;\nuniform mat3 n;\nuniform mat2 o;\nuniform int which;\n"
		"void main() { vec4 r;\n"
		"  if (which == 0) r = m * v0;\n"
		"  else if (which == 1) r = v0 * m;\n"
		"  else if (which == 2) r = (m * m)[1];\n"
		"  else if (which == 3) r = vec4(n * v0.xyz, (o * v0.zw).y);\n"
		"  else r = matrixCompMult(m, m)[2] + (m * 2.0)[3];\n"
		"  gl_FragColor = r; }\n",
		&x, NULL, NULL);
	float m[16], nm[9], om[4];
	for (int i = 0; i < 16; i++)
		m[i] = (float)(i % 5) - 1.5f + 0.25f * (float)i;
	for (int i = 0; i < 9; i++)
		nm[i] = (float)i * 0.5f - 2.0f;
	for (int i = 0; i < 4; i++)
		om[i] = (float)i + 1.0f;
	struct tsr_error err;
	assert_int_equal(tsr_program_uniform_write(p, tsr_program_uniform_location(p, "m"), 1, m, &err), TSR_OK);
	assert_int_equal(tsr_program_uniform_write(p, tsr_program_uniform_location(p, "n"), 1, nm, &err), TSR_OK);
	assert_int_equal(tsr_program_uniform_write(p, tsr_program_uniform_location(p, "o"), 1, om, &err), TSR_OK);
	float back[16];
	assert_int_equal(tsr_program_uniform_read(p, tsr_program_uniform_location(p, "m"), back), 16);
	assert_memory_equal(back, m, sizeof(m));
	const float in[4][4] = {{1, 2, 3, 4}, {-1, 0.5f, 2, -3}, {0, 1, 0, 1}, {2, -2, 1, 0.5f}};
	for (int which = 0; which < 5; which++) {
		float wf = (float)which;
		tsr_program_uniform_write(p, tsr_program_uniform_location(p, "which"), 1, &wf, &err);
		struct tsr_fs_quad_out out;
		tsr_test_quad(x, p, in, &out, NULL);
		for (int l = 0; l < 4; l++) {
			const float *v = in[l];
			for (int r = 0; r < 4; r++) {
				double want = 0;
				if (which == 0)
					for (int k = 0; k < 4; k++)
						want += m[k * 4 + r] * v[k];
				else if (which == 1)
					for (int k = 0; k < 4; k++)
						want += v[k] * m[r * 4 + k];
				else if (which == 2)
					for (int k = 0; k < 4; k++)
						want += m[k * 4 + r] * m[1 * 4 + k];
				else if (which == 3 && r < 3)
					for (int k = 0; k < 3; k++)
						want += nm[k * 3 + r] * v[k];
				else if (which == 3)
					want = om[0 * 2 + 1] * v[2] + om[1 * 2 + 1] * v[3];
				else
					want = m[2 * 4 + r] * m[2 * 4 + r] + 2.0 * m[3 * 4 + r];
				if (!close_enough(out.color[l][r], want, 1e-5, 1e-6)) {
					fprintf(stderr, "case %d lane %d row %d: %.9g, want %.9g\n", which, l, r,
						out.color[l][r], want);
					fail();
				}
			}
		}
	}
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

static void test_relational(void **state)
{
	(void)state;
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(FS_HEAD
		"void main() { vec2 a = v0.xy, b = v0.zw;\n"
		"  bvec2 lt = lessThan(a, b), ge = greaterThanEqual(a, b);\n"
		"  bvec2 eq = equal(a, b), ne = notEqual(a, b);\n"
		"  float r0 = float(any(lt)) + 2.0 * float(all(lt)) + 4.0 * float(any(not(ge)));\n"
		"  float r1 = float(lessThanEqual(a, b).x) + 2.0 * float(greaterThan(a, b).y);\n"
		"  float r2 = float(all(eq)) + 2.0 * float(any(ne)) + 4.0 * float(equal(lt, ge).x);\n"
		"  int i = int(v0.x); int j = int(v0.y);\n"
		"  float r3 = float(i * j + i / 2 - (j - i));\n"
		"  gl_FragColor = vec4(r0, r1, r2, r3); }\n",
		&x, NULL, NULL);
	const float in[4][4] = {{1, 2, 3, 0}, {5, 5, 5, 5}, {-3.5f, 7.9f, 2, 7.9f}, {4, -1, 4, -2}};
	struct tsr_fs_quad_out out;
	tsr_test_quad(x, p, in, &out, NULL);
	for (int l = 0; l < 4; l++) {
		float a0 = in[l][0], a1 = in[l][1], b0 = in[l][2], b1 = in[l][3];
		int lt0 = a0 < b0, lt1 = a1 < b1, ge0 = a0 >= b0, ge1 = a1 >= b1;
		float r0 = (float)((lt0 || lt1) + 2 * (lt0 && lt1) + 4 * (!ge0 || !ge1));
		float r1 = (float)((a0 <= b0) + 2 * (a1 > b1));
		float r2 = (float)((a0 == b0 && a1 == b1) + 2 * (a0 != b0 || a1 != b1) + 4 * (lt0 == ge0));
		int i = (int)a0, j = (int)a1;
		assert_float_equal(out.color[l][0], r0, 0);
		assert_float_equal(out.color[l][1], r1, 0);
		assert_float_equal(out.color[l][2], r2, 0);
		assert_float_equal(out.color[l][3], (float)(i * j + i / 2 - (j - i)), 0);
	}
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

/* ---- control flow ---- */

static void test_control_flow_divergent(void **state)
{
	(void)state;
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(FS_HEAD
		"void main() {\n"
		"  float acc = 0.0, side;\n"
		"  if (v0.x > 2.0) side = 10.0; else side = 20.0;\n"
		"  for (int i = 0; i < 16; i++) {\n"
		"    if (float(i) >= v0.y) break;\n"
		"    if (mod(float(i), 2.0) == 0.0) continue;\n"
		"    acc += float(i);\n"
		"  }\n"
		"  float x = -1.0, carried = 0.0;\n"
		"  for (int i = 0; i < 4; i++) {\n"
		"    if (v0.w > float(i)) x = float(i);\n"
		"    float t = x * 2.0 + 1.0;\n"
		"    carried += t;\n"
		"  }\n"
		"  float nested = 0.0;\n"
		"  for (int i = 0; i < 3; i++)\n"
		"    for (int j = 0; j < 4; j++) {\n"
		"      if (j > i) break;\n"
		"      nested += 1.0;\n"
		"    }\n"
		"  gl_FragColor = vec4(side, acc, nested + 100.0 * carried, v0.z > 0.0 ? 1.0 : -1.0); }\n",
		&x, NULL, NULL);
	const float in[4][4] = {{1, 5, 1, 0}, {3, 0, -1, 2.5f}, {2.5f, 16, 0, 9}, {-1, 9.5f, 2, 1}};
	struct tsr_shader_counts counts;
	memset(&counts, 0, sizeof(counts));
	struct tsr_fs_quad_out out;
	tsr_test_quad(x, p, in, &out, &counts);
	for (int l = 0; l < 4; l++) {
		float acc = 0;
		for (int i = 0; i < 16; i++) {
			if ((float)i >= in[l][1])
				break;
			if (i % 2 == 0)
				continue;
			acc += (float)i;
		}
		assert_float_equal(out.color[l][0], in[l][0] > 2 ? 10 : 20, 0);
		assert_float_equal(out.color[l][1], acc, 0);
		/* x keeps its value in the iterations whose test fails: carried over */
		float xv = -1, carried = 0;
		for (int i = 0; i < 4; i++) {
			if (in[l][3] > (float)i)
				xv = (float)i;
			carried += xv * 2 + 1;
		}
		assert_float_equal(out.color[l][2], 6 + 100 * carried, 0); /* nested: 1 + 2 + 3 */
		assert_float_equal(out.color[l][3], in[l][2] > 0 ? 1 : -1, 0);
	}
	assert_int_equal(counts.executions, 1);
	assert_true(counts.branch > 0);
	/* the side test and the break differ between lanes */
	assert_true(counts.divergent_branches >= 2);
	assert_int_equal(counts.instructions, counts.alu + counts.sfu + counts.tex + counts.branch);
	/* all lanes alike: no divergence */
	const float same[4][4] = {{1, 5, 1, 9}, {1, 5, 1, 9}, {1, 5, 1, 9}, {1, 5, 1, 9}};
	memset(&counts, 0, sizeof(counts));
	tsr_test_quad(x, p, same, &out, &counts);
	assert_int_equal(counts.divergent_branches, 0);
	assert_float_equal(out.color[2][1], 1 + 3, 0);
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

/* while, do-while, early returns from main and from a function (inlined
 * into breakable blocks), discard inside a loop */
static void test_more_flow(void **state)
{
	(void)state;
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(FS_HEAD
		"float f(float x) {\n"
		"  if (x > 2.0) return 1.0;\n"
		"  for (int i = 0; i < 8; i++) { if (float(i) * 0.5 > x) return float(i); }\n"
		"  return -1.0;\n"
		"}\n"
		"void main() {\n"
		"  float w = 0.0; float k = v0.y;\n"
		"  while (k > 0.0) { w += k; k -= 1.0; }\n"
		"  float d = 0.0;\n"
		"  do { d += 2.0; } while (d < v0.z);\n"
		"  if (v0.w > 5.0) { gl_FragColor = vec4(9.0); return; }\n"
		"  for (int i = 0; i < 4; i++) { if (v0.w < -float(i)) discard; }\n"
		"  gl_FragColor = vec4(w, d, f(v0.x), f(v0.x + 0.3)); }\n",
		&x, NULL, NULL);
	const float in[4][4] = {{1, 2.5f, 3, 0}, {3, 0, -1, 6}, {0.7f, 1, 7, -2.5f}, {-1, 4, 2, 1}};
	struct tsr_fs_quad_out out;
	tsr_test_quad(x, p, in, &out, NULL);
	const float want[4][4] = {{4.5f, 4, 3, 3}, {9, 9, 9, 9}, {0, 0, 0, 0}, {10, 2, 0, 0}};
	assert_int_equal(out.kill_mask, 0x4);
	for (int l = 0; l < 4; l++)
		if (l != 2)
			for (int c = 0; c < 4; c++)
				assert_float_equal(out.color[l][c], want[l][c], 0);
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

static void test_discard(void **state)
{
	(void)state;
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(FS_HEAD
		"void main() { if (v0.x > 0.5) discard; gl_FragColor = vec4(v0.x, 0.0, 0.0, 1.0); }\n",
		&x, NULL, NULL);
	const float in[4][4] = {{0.1f, 0, 0, 0}, {0.9f, 0, 0, 0}, {0.7f, 0, 0, 0}, {0.2f, 0, 0, 0}};
	struct tsr_shader_counts counts;
	memset(&counts, 0, sizeof(counts));
	struct tsr_fs_quad_out out;
	tsr_test_quad(x, p, in, &out, &counts);
	assert_int_equal(out.kill_mask, 0x6);
	assert_int_equal(counts.lanes_killed, 2);
	assert_float_equal(out.color[0][0], 0.1f, 0);
	assert_float_equal(out.color[3][0], 0.2f, 0);
	/* the whole quad discarded */
	const float all[4][4] = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
	tsr_test_quad(x, p, all, &out, &counts);
	assert_int_equal(out.kill_mask, 0xf);
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

static void test_derivatives(void **state)
{
	(void)state;
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program("#extension GL_OES_standard_derivatives : enable\n" FS_HEAD
		"void main() { float f = v0.x * v0.x;\n"
		"  gl_FragColor = vec4(dFdx(f), dFdy(f), fwidth(v0.y), gl_FragCoord.x + 10.0 * gl_FragCoord.y); }\n",
		&x, NULL, NULL);
	/* lanes: 0 (0,0) 1 (1,0) 2 (0,1) 3 (1,1) */
	const float in[4][4] = {{1, 0, 0, 0}, {2, 3, 0, 0}, {4, -1, 0, 0}, {7, 5, 0, 0}};
	struct tsr_fs_quad_out out;
	tsr_test_quad(x, p, in, &out, NULL);
	const float f[4] = {1, 4, 16, 49};
	for (int l = 0; l < 4; l++) {
		int row = l >> 1, col = l & 1;
		assert_float_equal(out.color[l][0], f[row * 2 + 1] - f[row * 2], 0);
		assert_float_equal(out.color[l][1], f[2 + col] - f[col], 0);
		float dx = in[row * 2 + 1][1] - in[row * 2][1], dy = in[2 + col][1] - in[col][1];
		assert_float_equal(out.color[l][2], fabsf(dx) + fabsf(dy), 0);
		assert_float_equal(out.color[l][3], (float)col + 0.5f + 10.0f * ((float)row + 0.5f), 1e-5);
	}
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

/* gl_FrontFacing, gl_PointCoord, gl_FragCoord.z, written through gl_FragData[0] */
/* A snapshot execution state (tsr_shader_exec_create_snapshot()) keeps the
 * uniforms of its creation, sampler units included, and its program past
 * the program's destruction; an ordinary one sees every later glUniform*. */
static void test_snapshot_uniforms(void **state)
{
	(void)state;
	struct tsr_shader_exec *live = NULL, *snap = NULL;
	struct tsr_program *p = fs_program(FS_HEAD "uniform vec4 c;\n"
					   "void main() { gl_FragColor = c; }\n", &live, NULL, NULL);
	struct tsr_error err;
	const int32_t loc = tsr_program_uniform_location(p, "c");
	const float one[4] = {1, 2, 3, 4}, two[4] = {5, 6, 7, 8};
	assert_int_equal(tsr_program_uniform_write(p, loc, 1, one, &err), TSR_OK);
	assert_int_equal(tsr_shader_exec_create_snapshot(p, TSR_SHADER_FRAGMENT, &snap, &err),
			 TSR_OK);
	assert_ptr_equal(tsr_shader_exec_program(snap), p);
	assert_int_equal(tsr_program_uniform_write(p, loc, 1, two, &err), TSR_OK);
	struct tsr_fs_quad_in in;
	memset(&in, 0, sizeof(in));
	struct tsr_fs_quad_out a, b;
	tsr_shader_exec_quad(snap, &in, &a, NULL);
	tsr_shader_exec_quad(live, &in, &b, NULL);
	for (int l = 0; l < 4; l++)
		for (int c = 0; c < 4; c++) {
			assert_float_equal(a.color[l][c], one[c], 0);
			assert_float_equal(b.color[l][c], two[c], 0);
		}
	/* the program destroyed (relinked, deleted): the snapshot still runs */
	tsr_shader_exec_destroy(live);
	tsr_program_destroy(p);
	memset(&a, 0, sizeof(a));
	tsr_shader_exec_quad(snap, &in, &a, NULL);
	assert_float_equal(a.color[3][3], one[3], 0);
	tsr_shader_exec_destroy(snap);
}

static void test_builtin_inputs(void **state)
{
	(void)state;
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(FS_HEAD
		"void main() { gl_FragData[0] = vec4(gl_PointCoord, gl_FrontFacing ? 1.0 : -1.0, gl_FragCoord.z); }\n",
		&x, NULL, NULL);
	struct tsr_fs_quad_in q;
	memset(&q, 0, sizeof(q));
	for (int l = 0; l < 4; l++) {
		q.point_coord[l][0] = 0.25f * (float)l;
		q.point_coord[l][1] = 1.0f - 0.25f * (float)l;
		q.frag_coord[l][2] = 0.1f * (float)l;
	}
	struct tsr_fs_quad_out out;
	for (int face = 0; face < 2; face++) {
		q.front_facing = (uint8_t)face;
		tsr_shader_exec_quad(x, &q, &out, NULL);
		for (int l = 0; l < 4; l++) {
			assert_float_equal(out.color[l][0], 0.25f * (float)l, 0);
			assert_float_equal(out.color[l][1], 1.0f - 0.25f * (float)l, 0);
			assert_float_equal(out.color[l][2], face ? 1.0f : -1.0f, 0);
			assert_float_equal(out.color[l][3], 0.1f * (float)l, 0);
		}
	}
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

/* ---- texture requests ---- */

struct tex_log {
	int n;
	struct tsr_shader_tex_request req[8];
};

static void record_sample(void *user, const struct tsr_shader_tex_request *req, float rgba[4][4])
{
	struct tex_log *log = user;
	if (log->n < 8)
		log->req[log->n] = *req;
	log->n++;
	for (int l = 0; l < 4; l++) {
		rgba[l][0] = req->coord[0][l];
		rgba[l][1] = req->coord[1][l];
		rgba[l][2] = (float)req->unit;
		rgba[l][3] = req->lod[l];
	}
}

static void test_texture_requests(void **state)
{
	(void)state;
	struct tex_log log;
	memset(&log, 0, sizeof(log));
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(FS_HEAD
		"uniform sampler2D a;\nuniform sampler2D b;\nuniform samplerCube c;\nuniform int which;\n"
		"void main() { vec4 r;\n"
		"  if (which == 0) r = texture2D(a, v0.xy);\n"
		"  else if (which == 1) r = texture2D(b, v0.xy, 1.5);\n"
		"  else if (which == 2) r = texture2DProj(a, vec3(v0.xy, 2.0));\n"
		"  else if (which == 3) r = texture2DProj(a, vec4(v0.xy, 7.0, 4.0));\n"
		"  else r = textureCube(c, v0.xyz);\n"
		"  gl_FragColor = r; }\n",
		&x, record_sample, &log);
	struct tsr_error err;
	float unit = 3;
	assert_int_equal(tsr_program_uniform_write(p, tsr_program_uniform_location(p, "b"), 1, &unit, &err), TSR_OK);
	unit = 5;
	assert_int_equal(tsr_program_uniform_write(p, tsr_program_uniform_location(p, "c"), 1, &unit, &err), TSR_OK);
	unit = 99;
	assert_int_equal(tsr_program_uniform_write(p, tsr_program_uniform_location(p, "c"), 1, &unit, &err),
			 TSR_ERR_CONFIG);
	assert_int_equal(tsr_program_unit_usage(p, 0), 1);
	assert_int_equal(tsr_program_unit_usage(p, 3), 1);
	assert_int_equal(tsr_program_unit_usage(p, 5), 2);
	assert_int_equal(tsr_program_unit_usage(p, 1), 0);
	const float in[4][4] = {{0.0f, 0.0f, 1, 0}, {0.5f, 0.0f, 1, 0}, {0.0f, 0.25f, 1, 0}, {0.5f, 0.25f, 1, 0}};
	for (int which = 0; which < 5; which++) {
		float wf = (float)which;
		tsr_program_uniform_write(p, tsr_program_uniform_location(p, "which"), 1, &wf, &err);
		log.n = 0;
		struct tsr_fs_quad_out out;
		tsr_test_quad(x, p, in, &out, NULL);
		assert_int_equal(log.n, 1);
		const struct tsr_shader_tex_request *r = &log.req[0];
		assert_int_equal(r->lane_mask, 0xf);
		float div = which == 2 ? 2.0f : which == 3 ? 4.0f : 1.0f;
		for (int l = 0; l < 4; l++) {
			assert_float_equal(r->coord[0][l], in[l][0] / div, 0);
			assert_float_equal(r->coord[1][l], in[l][1] / div, 0);
			assert_float_equal(r->ddx[0][l], 0.5f / div, 0);
			assert_float_equal(r->ddy[1][l], 0.25f / div, 0);
			assert_float_equal(r->ddx[1][l], 0.0f, 0);
			assert_float_equal(out.color[l][0], in[l][0] / div, 0);
		}
		assert_int_equal(r->unit, which == 1 ? 3 : which == 4 ? 5 : 0);
		assert_int_equal(r->cube, which == 4);
		assert_int_equal(r->lod_mode, which == 1 ? TSR_SHADER_LOD_BIAS : TSR_SHADER_LOD_IMPLICIT);
		if (which == 1)
			assert_float_equal(r->lod[2], 1.5f, 0);
		if (which == 4)
			assert_float_equal(r->coord[2][1], 1.0f, 0);
	}
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

/* a sampler array indexed by a loop index */
static void test_sampler_array(void **state)
{
	(void)state;
	struct tex_log log;
	memset(&log, 0, sizeof(log));
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(FS_HEAD "uniform sampler2D s[3];\n"
		"struct M { float k; sampler2D t; };\nuniform M m;\n"
		"void main() { vec4 c = vec4(0.0);\n"
		"  for (int i = 0; i < 3; i++) c += texture2D(s[i], v0.xy);\n"
		"  gl_FragColor = c + texture2D(m.t, v0.xy) * m.k; }\n",
		&x, record_sample, &log);
	int32_t loc = tsr_program_uniform_location(p, "s");
	assert_true(loc >= 0);
	bool found = false;
	for (uint32_t i = 0; i < tsr_program_uniform_count(p); i++) {
		const struct tsr_shader_var *u = tsr_program_uniform(p, i);
		if (strcmp(u->name, "s[0]") == 0) {
			assert_int_equal(u->size, 3);
			assert_int_equal(u->type, 0x8B5E);
			found = true;
		}
	}
	assert_true(found);
	const float units[3] = {3, 6, 1};
	struct tsr_error err;
	assert_int_equal(tsr_program_uniform_write(p, loc, 3, units, &err), TSR_OK);
	const float mt = 4, mk = 0;
	assert_int_equal(tsr_program_uniform_write(p, tsr_program_uniform_location(p, "m.t"), 1, &mt, &err), TSR_OK);
	assert_int_equal(tsr_program_uniform_write(p, tsr_program_uniform_location(p, "m.k"), 1, &mk, &err), TSR_OK);
	assert_int_equal(tsr_program_unit_usage(p, 6), 1);
	const float in[4][4] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {1, 1, 0, 0}};
	struct tsr_fs_quad_out out;
	tsr_test_quad(x, p, in, &out, NULL);
	assert_int_equal(log.n, 4);
	for (int i = 0; i < 3; i++)
		assert_int_equal(log.req[i].unit, (uint32_t)units[i]);
	assert_int_equal(log.req[3].unit, 4);
	/* the callback returns the unit in blue: summed over the three samples */
	assert_float_equal(out.color[0][2], 10.0f, 0);
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

/* ---- vertex shaders ---- */

static void test_vertex_shader(void **state)
{
	(void)state;
	struct tex_log log;
	memset(&log, 0, sizeof(log));
	static const char vs[] =
		"attribute vec3 position;\nattribute vec2 uv;\nattribute mat2 rot;\n"
		"uniform mat4 mvp;\nuniform sampler2D height;\n"
		"varying vec2 tc;\nvarying float h;\n"
		"void main() { tc = rot * uv; h = texture2DLod(height, uv, 2.0).x;\n"
		"  gl_PointSize = 3.0; gl_Position = mvp * vec4(position, 1.0); }\n";
	static const char fs[] = "precision mediump float;\nvarying vec2 tc;\nvarying float h;\n"
				 "void main() { gl_FragColor = vec4(tc, h, 1.0); }\n";
	struct tsr_shader *v = tsr_test_compile(TSR_SHADER_VERTEX, vs);
	struct tsr_shader *f = tsr_test_compile(TSR_SHADER_FRAGMENT, fs);
	struct tsr_program *p;
	struct tsr_error err;
	const struct tsr_attrib_binding bind[] = {{"uv", 5}};
	assert_int_equal(tsr_program_link(v, f, bind, 1, &p, &err), TSR_OK);
	assert_true(tsr_program_linked(p));
	assert_int_equal(tsr_program_attrib_location(p, "uv"), 5);
	int32_t lpos = tsr_program_attrib_location(p, "position"), lrot = tsr_program_attrib_location(p, "rot");
	assert_true(lpos >= 0 && lpos != 5);
	assert_true(lrot >= 0 && lrot + 1 != 5 && lrot != 5 && lrot != lpos && lrot + 1 != lpos);
	float mvp[16] = {2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1};
	tsr_program_uniform_write(p, tsr_program_uniform_location(p, "mvp"), 1, mvp, &err);
	struct tsr_shader_exec *x;
	assert_int_equal(tsr_shader_exec_create(p, TSR_SHADER_VERTEX, record_sample, &log, &x, &err), TSR_OK);
	struct tsr_vs_in in;
	memset(&in, 0, sizeof(in));
	for (int k = 0; k < 3; k++) {
		in.attribs[k][lpos][0] = (float)k;
		in.attribs[k][lpos][1] = (float)k + 1;
		in.attribs[k][lpos][2] = -1;
		in.attribs[k][lpos][3] = 1;
		in.attribs[k][5][0] = 0.25f * (float)k;
		in.attribs[k][5][1] = 0.5f;
		in.attribs[k][lrot][0] = 0;     /* rot = [[0, 1], [-1, 0]] (columns) */
		in.attribs[k][lrot][1] = 1;
		in.attribs[k][lrot + 1][0] = -1;
		in.attribs[k][lrot + 1][1] = 0;
	}
	struct tsr_vs_out out;
	memset(&out, 0, sizeof(out));
	struct tsr_shader_counts counts;
	memset(&counts, 0, sizeof(counts));
	tsr_shader_exec_vertices(x, &in, 3, &out, &counts);
	int stc = tsr_program_varying_slot(p, "tc"), sh = tsr_program_varying_slot(p, "h");
	assert_true(stc >= 0 && sh >= 0 && stc != sh);
	for (int k = 0; k < 3; k++) {
		assert_float_equal(out.position[k][0], 2.0f * (float)k + 1, 0);
		assert_float_equal(out.position[k][1], 3.0f * ((float)k + 1) + 2, 0);
		assert_float_equal(out.position[k][2], -1 + 3, 0);
		assert_float_equal(out.position[k][3], 1, 0);
		assert_float_equal(out.point_size[k], 3, 0);
		assert_float_equal(out.varyings[k][stc][0], -0.5f, 0);
		assert_float_equal(out.varyings[k][stc][1], 0.25f * (float)k, 0);
		assert_float_equal(out.varyings[k][sh][0], 0.25f * (float)k, 0); /* the callback's s */
	}
	assert_int_equal(log.n, 1);
	assert_int_equal(log.req[0].lod_mode, TSR_SHADER_LOD_EXPLICIT);
	assert_int_equal(log.req[0].lane_mask, 0x7);
	assert_float_equal(log.req[0].lod[0], 2.0f, 0);
	assert_float_equal(log.req[0].ddx[0][1], 0.0f, 0);
	assert_int_equal(counts.tex, 1);
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
	tsr_shader_destroy(v);
	tsr_shader_destroy(f);
}

/* texture2DProjLod and textureCubeLod, in a vertex shader */
static void test_vertex_texture_lod(void **state)
{
	(void)state;
	struct tex_log log;
	memset(&log, 0, sizeof(log));
	static const char vs[] =
		"attribute vec4 a;\nuniform sampler2D t;\nuniform samplerCube c;\nvarying vec4 r;\n"
		"void main() { r = texture2DProjLod(t, vec3(a.xy, 4.0), a.z) + textureCubeLod(c, a.xyz, 1.0);\n"
		"  gl_Position = a; }\n";
	static const char fs[] = "precision mediump float;\nvarying vec4 r;\nvoid main() { gl_FragColor = r; }\n";
	struct tsr_program *p = tsr_test_program(vs, fs);
	struct tsr_error err;
	float unit = 2;
	tsr_program_uniform_write(p, tsr_program_uniform_location(p, "c"), 1, &unit, &err);
	struct tsr_shader_exec *x;
	assert_int_equal(tsr_shader_exec_create(p, TSR_SHADER_VERTEX, record_sample, &log, &x, &err), TSR_OK);
	struct tsr_vs_in in;
	memset(&in, 0, sizeof(in));
	int la = tsr_program_attrib_location(p, "a");
	for (int k = 0; k < 4; k++) {
		in.attribs[k][la][0] = 1.0f + (float)k;
		in.attribs[k][la][1] = 2.0f;
		in.attribs[k][la][2] = 0.5f * (float)k;
		in.attribs[k][la][3] = 1.0f;
	}
	struct tsr_vs_out out;
	tsr_shader_exec_vertices(x, &in, 4, &out, NULL);
	assert_int_equal(log.n, 2);
	const struct tsr_shader_tex_request *r2d = &log.req[0], *rc = &log.req[1];
	if (r2d->cube) {
		r2d = &log.req[1];
		rc = &log.req[0];
	}
	assert_int_equal(r2d->cube, 0);
	assert_int_equal(r2d->unit, 0);
	assert_int_equal(r2d->lod_mode, TSR_SHADER_LOD_EXPLICIT);
	assert_int_equal(rc->cube, 1);
	assert_int_equal(rc->unit, 2);
	assert_int_equal(rc->lod_mode, TSR_SHADER_LOD_EXPLICIT);
	for (int k = 0; k < 4; k++) {
		assert_float_equal(r2d->coord[0][k], (1.0f + (float)k) / 4.0f, 0);
		assert_float_equal(r2d->coord[1][k], 0.5f, 0);
		assert_float_equal(r2d->lod[k], 0.5f * (float)k, 0);
		assert_float_equal(rc->coord[2][k], 0.5f * (float)k, 0);
		assert_float_equal(rc->lod[k], 1.0f, 0);
	}
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

static void test_arrays_and_structs(void **state)
{
	(void)state;
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(FS_HEAD
		"struct Light { vec3 color; float power; };\n"
		"uniform Light lights[2];\nuniform vec4 table[4];\n"
		"void main() {\n"
		"  float loc[4];\n"
		"  for (int i = 0; i < 4; i++) loc[i] = float(i * i);\n"
		"  int k = int(v0.x);\n"
		"  loc[k] = 100.0;\n"
		"  Light l = lights[1];\n"
		"  gl_FragColor = vec4(table[k].y, loc[int(v0.y)], l.color.z * l.power, lights[0].power); }\n",
		&x, NULL, NULL);
	struct tsr_error err;
	float table[16];
	for (int i = 0; i < 16; i++)
		table[i] = (float)i;
	assert_int_equal(tsr_program_uniform_write(p, tsr_program_uniform_location(p, "table"), 4, table, &err),
			 TSR_OK);
	float c1[3] = {0.5f, 0.25f, 2.0f}, pw1 = 3.0f, pw0 = 7.0f;
	assert_true(tsr_program_uniform_location(p, "lights[1].color") >= 0);
	tsr_program_uniform_write(p, tsr_program_uniform_location(p, "lights[1].color"), 1, c1, &err);
	tsr_program_uniform_write(p, tsr_program_uniform_location(p, "lights[1].power"), 1, &pw1, &err);
	tsr_program_uniform_write(p, tsr_program_uniform_location(p, "lights[0].power"), 1, &pw0, &err);
	const float in[4][4] = {{0, 0, 0, 0}, {1, 1, 0, 0}, {3, 2, 0, 0}, {2, 2, 0, 0}};
	struct tsr_fs_quad_out out;
	tsr_test_quad(x, p, in, &out, NULL);
	for (int l = 0; l < 4; l++) {
		int k = (int)in[l][0], j = (int)in[l][1];
		assert_float_equal(out.color[l][0], table[k * 4 + 1], 0);
		assert_float_equal(out.color[l][1], j == k ? 100.0f : (float)(j * j), 0);
		assert_float_equal(out.color[l][2], 6.0f, 0);
		assert_float_equal(out.color[l][3], 7.0f, 0);
	}
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

/*
 * mediump arithmetic runs at fp16 by default (each source and result
 * rounded to binary16: glmark2's conditionals scene matches llvmpipe only
 * so) and at fp32 after tsr_shader_exec_set_mediump(x, false); highp
 * arithmetic and a mediump value only moved (a constructor) stay fp32.
 */
static void test_mediump_precision(void **state)
{
	(void)state;
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(
		"precision mediump float;\nvarying highp vec4 v0;\n"
		"void main() { highp float h = v0.x * 3.0;\n"
		"  float y = v0.y;\n"
		"  float m = y * 3.0;\n"
		"  float z = v0.z;\n"
		"  float k = fract(z);\n"
		"  float w = v0.w;\n"
		"  gl_FragColor = vec4(h, m, k, w * 40000.0); }\n",
		&x, NULL, NULL);
	/* 0.1 * 3 in fp32: 0.3 (0x3e99999a); in fp16 0.1 is 0.0999755859375,
	 * the product 0.2999267578125 a tie between multiples of 2^-12 that
	 * rounds to even: 0.2998046875 */
	const float in[4][4] = {{0.1f, 0.1f, 1.0009765625f, 1}, {0.1f, 0.1f, 2.3333f, 2},
				{0.1f, 0.1f, 0.0001f, 1e-3f}, {0.1f, 0.1f, 5.5f, -3}};
	struct tsr_fs_quad_out out;
	tsr_test_quad(x, p, in, &out, NULL);
	for (int l = 0; l < 4; l++) {
		assert_true(out.color[l][0] == 0.1f * 3.0f);          /* highp: fp32 */
		assert_true(out.color[l][1] == 0.2998046875f);        /* fp16 source and result */
	}
	assert_true(out.color[0][2] == 0.0009765625f);  /* exact in fp16 */
	assert_true(out.color[1][2] == 0.333984375f);   /* 2.3333 is 2.333984375 in fp16 */
	assert_true(out.color[2][2] == 1678.0f / 16777216.0f); /* 1e-4: an fp16 subnormal */
	assert_true(out.color[3][2] == 0.5f);
	assert_true(out.color[0][3] == 40000.0f);       /* a multiple of 32: exact */
	assert_true(isinf(out.color[1][3]) && out.color[1][3] > 0); /* past 65504: infinity */
	assert_true(out.color[2][3] == 40.03125f);      /* 1e-3 is 0.00100040... in fp16 */
	assert_true(isinf(out.color[3][3]) && out.color[3][3] < 0);
	/* a snapshot (a draw's state) reads its constants from a rounded copy
	 * of its bank: the same bits */
	struct tsr_error err;
	struct tsr_shader_exec *snap;
	assert_int_equal(tsr_shader_exec_create_snapshot(p, TSR_SHADER_FRAGMENT, &snap, &err), TSR_OK);
	struct tsr_fs_quad_out out2;
	tsr_test_quad(snap, p, in, &out2, NULL);
	assert_memory_equal(out.color, out2.color, sizeof(out.color));
	/* the portable rounding gives F16C's bits, here and on 4096 quads of
	 * inputs of every exponent (where the CPU has F16C to compare with) */
	if (tsr_shader_exec_use_f16c(x, true)) {
		assert_false(tsr_shader_exec_use_f16c(snap, false));
		tsr_test_quad(snap, p, in, &out2, NULL);
		assert_memory_equal(out.color, out2.color, sizeof(out.color));
		uint32_t seed = 12345;
		for (int q = 0; q < 4096; q++) {
			float rin[4][4];
			for (int l = 0; l < 4; l++)
				for (int c = 0; c < 4; c++) {
					seed = seed * 1664525u + 1013904223u;
					uint32_t b = seed;
					memcpy(&rin[l][c], &b, 4);
				}
			tsr_test_quad(x, p, rin, &out, NULL);
			tsr_test_quad(snap, p, rin, &out2, NULL);
			assert_memory_equal(out.color, out2.color, sizeof(out.color));
		}
		tsr_test_quad(x, p, in, &out, NULL);
	}
	assert_int_equal(tsr_shader_exec_set_mediump(snap, false, &err), TSR_OK);
	tsr_test_quad(snap, p, in, &out2, NULL);
	assert_true(out2.color[1][3] == 80000.0f);  /* fp32: the bank's own constants again */
	tsr_shader_exec_destroy(snap);
	assert_int_equal(tsr_shader_exec_set_mediump(x, false, &err), TSR_OK);
	tsr_test_quad(x, p, in, &out, NULL);
	for (int l = 0; l < 4; l++) {
		assert_true(out.color[l][0] == 0.1f * 3.0f);
		assert_true(out.color[l][1] == 0.1f * 3.0f);
	}
	assert_true(out.color[1][3] == 80000.0f);
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

/*
 * mediump chains run in the order of Mesa's lowering for llvmpipe (docs/
 * shader-isa.md "Precision"): a product with two constants uses the
 * constants' product, folded at fp32 and rounded to fp16 once (glmark2
 * terrain's p * ns.z * ns.z, ns.z = 1/7: floor(49 (1/49)) = 0 with fp16's
 * 0.020401 where (49 x 0.142822) x 0.142822 rounded twice gives 1); a dot
 * product with a shared factor is that factor times the sum from the last
 * component, each operation rounded (c ((z + y) + x)); mod's
 * x - y floor(x / y) rounds the product y floor(x / y) before the sum.
 */
static void test_mediump_mesa_order(void **state)
{
	(void)state;
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(
		"precision mediump float;\nvarying highp vec4 v0;\n"
		"void main() { float n_ = 1.0 / 7.0;\n"
		"  vec3 ns = n_ * vec3(2.0, 0.5, 1.0) - vec3(0.0, 1.0, 0.0);\n"
		"  vec4 q = v0.xxxx;\n"
		"  vec4 j = floor(q * ns.z * ns.z);\n"
		"  vec3 v = v0.yzw;\n"
		"  float a = v0.y, b = v0.z;\n"
		"  gl_FragColor = vec4(j.x, dot(v, vec3(1.0 / 3.0)), mod(a, b), 1.0); }\n",
		&x, NULL, NULL);
	const float in[4][4] = {{49, -5.8515625f, 5.55859375f, 4.21875f},
				{98, 45.96875f, 0.87646484375f, 0},
				{147, 1, 1, 1},
				{196, 2, 2, 2}};
	struct tsr_fs_quad_out out;
	tsr_test_quad(x, p, in, &out, NULL);
	for (int l = 0; l < 4; l++)
		assert_true(out.color[l][0] == (float)l);  /* floor(49 (l + 1) x 0.020401) */
	/* 0.333252 ((4.21875 + 5.55859375) - 5.8515625): 1.3095703125; the
	 * rounded products summed at fp32 would give 1.30859375 */
	assert_true(out.color[0][1] == 1.3095703125f);
	/* 45.96875 - fp16(0.87646484375 x 52): 0.40625 (0.392578125 unrounded) */
	assert_true(out.color[1][2] == 0.40625f);
	/* at fp32 the folded constant is 0.0204081647: 49 of it is 1 */
	struct tsr_error err;
	assert_int_equal(tsr_shader_exec_set_mediump(x, false, &err), TSR_OK);
	tsr_test_quad(x, p, in, &out, NULL);
	assert_true(out.color[0][0] == 1.0f);
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

/*
 * sqrt() and inversesqrt() (SQRT, RSQ: SSE's sqrtps on 4 lanes) give the
 * bits of C's sqrtf() and 1.0f / sqrtf() lane by lane, special values too:
 * zeros of both signs, negatives (NaN), infinity, NaNs, subnormals.
 */
static uint32_t float_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	return u;
}

static void test_sqrt_bits(void **state)
{
	(void)state;
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(FS_HEAD
		"void main() { gl_FragColor = vec4(sqrt(v0.x), inversesqrt(v0.y), sqrt(v0.z), "
		"inversesqrt(v0.w)); }\n", &x, NULL, NULL);
	const uint32_t qnan = 0x7fc12345u, neg_nan = 0xffc00001u;
	float nan1, nan2;
	memcpy(&nan1, &qnan, sizeof(nan1));
	memcpy(&nan2, &neg_nan, sizeof(nan2));
	const float v[16] = {-1.0f, -0.0f, 0.0f, INFINITY, -INFINITY, nan1, nan2, 1e-40f,
			     1e-45f, 2.0f, 3.0f, 1e30f, 0.5f, 1.17549435e-38f, 65504.0f, -1e-40f};
	for (int rot = 0; rot < 16; rot += 4) {  /* each value in each component */
		float in[4][4];
		for (int l = 0; l < 4; l++)
			for (int c = 0; c < 4; c++)
				in[l][c] = v[(l * 4 + c + rot) & 15];
		struct tsr_fs_quad_out out;
		tsr_test_quad(x, p, in, &out, NULL);
		for (int l = 0; l < 4; l++)
			for (int c = 0; c < 4; c++) {
				volatile float a = in[l][c];  /* computed at run time, as the interpreter did */
				const float want = c & 1 ? 1.0f / sqrtf(a) : sqrtf(a);
				if (float_bits(out.color[l][c]) != float_bits(want)) {
					fprintf(stderr, "%s(%#x) = %#x, C %#x\n", c & 1 ? "inversesqrt" : "sqrt",
						float_bits(in[l][c]), float_bits(out.color[l][c]), float_bits(want));
					fail();
				}
			}
	}
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

static void test_counts_straight_line(void **state)
{
	(void)state;
	struct tsr_shader_exec *x;
	struct tsr_program *p = fs_program(FS_HEAD "uniform sampler2D t;\n"
		"void main() { vec4 c = texture2D(t, v0.xy); gl_FragColor = c * inversesqrt(v0.z) + v0; }\n",
		&x, NULL, NULL);
	const struct tsr_sh_inst *code;
	uint32_t n = tsr_program_code(p, TSR_SHADER_FRAGMENT, &code);
	assert_true(n >= 4);
	assert_int_equal(code[n - 1].op, TSR_SH_END);
	const float in[4][4] = {{1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}};
	struct tsr_shader_counts counts;
	memset(&counts, 0, sizeof(counts));
	struct tsr_fs_quad_out out;
	tsr_test_quad(x, p, in, &out, &counts);
	tsr_test_quad(x, p, in, &out, &counts);
	/* every instruction but END, twice */
	assert_int_equal(counts.executions, 2);
	assert_int_equal(counts.instructions, 2 * (n - 1));
	assert_int_equal(counts.tex, 2);
	assert_int_equal(counts.sfu, 2);
	assert_int_equal(counts.branch, 0);
	/* no sampler callback: (0, 0, 0, 1) */
	assert_float_equal(out.color[0][3], 2.0f, 0);
	assert_float_equal(out.color[0][0], 1.0f, 0);
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(p);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arithmetic),
		cmocka_unit_test(test_builtins_unary),
		cmocka_unit_test(test_builtins_binary),
		cmocka_unit_test(test_builtins_ternary),
		cmocka_unit_test(test_builtins_geometric),
		cmocka_unit_test(test_matrices),
		cmocka_unit_test(test_relational),
		cmocka_unit_test(test_control_flow_divergent),
		cmocka_unit_test(test_more_flow),
		cmocka_unit_test(test_discard),
		cmocka_unit_test(test_derivatives),
		cmocka_unit_test(test_builtin_inputs),
		cmocka_unit_test(test_snapshot_uniforms),
		cmocka_unit_test(test_texture_requests),
		cmocka_unit_test(test_sampler_array),
		cmocka_unit_test(test_vertex_shader),
		cmocka_unit_test(test_vertex_texture_lod),
		cmocka_unit_test(test_arrays_and_structs),
		cmocka_unit_test(test_mediump_precision),
		cmocka_unit_test(test_mediump_mesa_order),
		cmocka_unit_test(test_sqrt_bits),
		cmocka_unit_test(test_counts_straight_line),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
