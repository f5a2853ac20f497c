/*
 * bench_shader.c - speed of the shader subsystem (src/shader; not a test),
 * one core:
 *   - compile time of representative GLSL ES 1.00 shaders (glslang,
 *     SPIRV-Tools and the lowering), milliseconds each;
 *   - the interpreter: quads (fragment) or groups of 4 vertices per second
 *     and quad-instructions per second (instructions issued, counted by
 *     struct tsr_shader_counts) for a Phong fragment shader, a textured
 *     blur, a shader with divergent loops and discard, glmark2's terrain
 *     noise (700 instructions) and a skinning-like vertex shader. The
 *     texture callback returns a constant color: the texture sampler's
 *     own cost is not measured here.
 * Usage: bench_shader [QUADS] [REPEATS]  (default 200000 quads, 5 repeats;
 * the median is reported)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "shader/shader.h"

static const char vs_generic[] =
	"attribute vec4 pos;\nvarying vec4 v0;\nvarying vec4 v1;\nvarying vec3 n;\n"
	"void main() { v0 = pos; v1 = pos * 2.0; n = pos.xyz; gl_Position = pos; }\n";

static const char fs_phong[] =
	"precision mediump float;\nvarying vec4 v0;\nvarying vec3 n;\n"
	"uniform vec4 light;\nuniform vec4 diffuse;\n"
	"void main() { vec3 e = normalize(-v0.xyz);\n"
	"  vec3 l = normalize(light.xyz / light.w - v0.xyz / v0.w);\n"
	"  vec3 nn = normalize(n);\n"
	"  vec3 r = reflect(-l, nn);\n"
	"  float spec = pow(max(0.0, dot(r, e)), 100.0);\n"
	"  float diff = max(0.0, dot(nn, l));\n"
	"  gl_FragColor = vec4(0.8) * spec + vec4(0.02, 0.02, 0.02, 1.0) + diffuse * diff; }\n";

static const char fs_blur[] =
	"precision mediump float;\nvarying vec4 v0;\nuniform sampler2D tex;\n"
	"void main() { vec4 r = vec4(0.0);\n"
	"  r += texture2D(tex, v0.xy + vec2(-0.001, -0.001)) * 0.0625;\n"
	"  r += texture2D(tex, v0.xy + vec2(0.0, -0.001)) * 0.125;\n"
	"  r += texture2D(tex, v0.xy + vec2(0.001, -0.001)) * 0.0625;\n"
	"  r += texture2D(tex, v0.xy + vec2(-0.001, 0.0)) * 0.125;\n"
	"  r += texture2D(tex, v0.xy) * 0.25;\n"
	"  r += texture2D(tex, v0.xy + vec2(0.001, 0.0)) * 0.125;\n"
	"  r += texture2D(tex, v0.xy + vec2(-0.001, 0.001)) * 0.0625;\n"
	"  r += texture2D(tex, v0.xy + vec2(0.0, 0.001)) * 0.125;\n"
	"  r += texture2D(tex, v0.xy + vec2(0.001, 0.001)) * 0.0625;\n"
	"  gl_FragColor = vec4(r.rgb, 1.0); }\n";

static const char fs_loops[] =
	"precision highp float;\nvarying vec4 v0;\n"
	"void main() { float acc = 0.0;\n"
	"  for (int i = 0; i < 16; i++) {\n"
	"    if (float(i) >= v0.y * 16.0) break;\n"
	"    if (mod(float(i), 3.0) == 0.0) continue;\n"
	"    acc += sin(float(i) * v0.x);\n"
	"  }\n"
	"  if (acc < -1.0) discard;\n"
	"  gl_FragColor = vec4(acc, fract(acc), v0.z, 1.0); }\n";

/* glmark2's terrain noise (terrain-noise.frag), as glmark2 completes it */
static char *glmark2_noise(void)
{
	FILE *f = fopen("/usr/share/glmark2/shaders/terrain-noise.frag", "rb");
	if (!f)
		return NULL;
	static const char pre[] = "precision mediump float;\n#define HIGHP_OR_DEFAULT highp\n"
				  "#define MEDIUMP_OR_DEFAULT mediump\n";
	char *b = malloc(65536);
	if (!b) {
		fclose(f);
		return NULL;
	}
	size_t n = strlen(pre);
	memcpy(b, pre, n);
	n += fread(b + n, 1, 65536 - n - 1, f);
	b[n] = '\0';
	fclose(f);
	return b;
}

static const char vs_skin[] =
	"attribute vec4 pos;\nattribute vec3 normal;\nattribute vec4 weights;\nattribute vec4 bones;\n"
	"uniform mat4 mvp;\nuniform mat4 palette[8];\nuniform mat3 nmat;\n"
	"varying vec3 n;\nvarying vec4 v0;\nvarying vec4 v1;\n"
	"void main() { mat4 m = palette[int(bones.x)] * weights.x + palette[int(bones.y)] * weights.y;\n"
	"  vec4 p = m * pos;\n"
	"  n = normalize(nmat * normal);\n"
	"  v0 = p; v1 = vec4(dot(n, vec3(0.3, 0.7, 0.5)));\n"
	"  gl_Position = mvp * p; }\n";

static const char fs_flat[] = "precision mediump float;\nvarying vec4 v0;\nvarying vec3 n;\nvarying vec4 v1;\n"
			      "void main() { gl_FragColor = v0 * v1 + vec4(n, 0.0); }\n";

static void sample_const(void *user, const struct tsr_shader_tex_request *req, float rgba[4][4])
{
	(void)user;
	for (int l = 0; l < 4; l++) {
		rgba[l][0] = req->coord[0][l];
		rgba[l][1] = req->coord[1][l];
		rgba[l][2] = 0.5f;
		rgba[l][3] = 1.0f;
	}
}

static struct tsr_program *build(const char *vs, const char *fs, double *compile_ms)
{
	struct tsr_shader *v, *f;
	struct tsr_error err;
	double t0 = now_seconds();
	if (tsr_shader_compile(TSR_SHADER_VERTEX, vs, &v, &err) != TSR_OK ||
	    tsr_shader_compile(TSR_SHADER_FRAGMENT, fs, &f, &err) != TSR_OK) {
		fprintf(stderr, "bench_shader: %s\n", err.msg);
		exit(1);
	}
	*compile_ms = (now_seconds() - t0) * 1e3 / 2;
	if (!tsr_shader_compiled(v) || !tsr_shader_compiled(f)) {
		fprintf(stderr, "bench_shader: compile failed:\n%s%s\n", tsr_shader_info_log(v),
			tsr_shader_info_log(f));
		exit(1);
	}
	struct tsr_program *p;
	if (tsr_program_link(v, f, NULL, 0, &p, &err) != TSR_OK || !tsr_program_linked(p)) {
		fprintf(stderr, "bench_shader: link failed: %s\n", p ? tsr_program_info_log(p) : err.msg);
		exit(1);
	}
	tsr_shader_destroy(v);
	tsr_shader_destroy(f);
	return p;
}

static void set_uniforms(struct tsr_program *p)
{
	struct tsr_error err;
	float v[16 * 8];
	for (int i = 0; i < 16 * 8; i++)
		v[i] = (i % 5 == 0) ? 1.0f : 0.01f * (float)(i % 7);
	for (uint32_t i = 0; i < tsr_program_uniform_count(p); i++) {
		const struct tsr_shader_var *u = tsr_program_uniform(p, i);
		if (u->type == 0x8B5E || u->type == 0x8B60)
			continue; /* samplers stay on unit 0 */
		tsr_program_uniform_write(p, u->location, u->size, v, &err);
	}
}

/* how mediump runs: at fp16 (rounded with F16C where the CPU has it, or
 * with the portable code), or at fp32 (shader.mediump) */
enum mediump { FP16, FP16_PORTABLE, FP32 };

static void run_fragment(const char *name, struct tsr_program *p, uint64_t quads, int reps,
			 enum mediump mode)
{
	struct tsr_shader_exec *x;
	struct tsr_error err;
	set_uniforms(p);
	/* a snapshot, as a draw of the GL ES device runs it */
	if (tsr_shader_exec_create_snapshot(p, TSR_SHADER_FRAGMENT, &x, &err) != TSR_OK ||
	    tsr_shader_exec_set_mediump(x, mode != FP32, &err) != TSR_OK) {
		fprintf(stderr, "bench_shader: %s\n", err.msg);
		exit(1);
	}
	tsr_shader_exec_use_f16c(x, mode == FP16);
	tsr_shader_exec_set_sampler(x, sample_const, NULL);
	struct tsr_fs_quad_in in;
	memset(&in, 0, sizeof(in));
	struct tsr_fs_quad_out out;
	double secs[99];
	struct tsr_shader_counts c;
	float sink = 0;
	for (int r = 0; r < reps; r++) {
		memset(&c, 0, sizeof(c));
		double t0 = cpu_seconds();
		for (uint64_t q = 0; q < quads; q++) {
			for (int l = 0; l < 4; l++) {
				float f = (float)(((q * 4 + (uint64_t)l) * 389) % 1024) / 1024.0f; /* lanes differ: divergence */
				for (int s = 0; s < 3; s++) {
					in.varyings[l][s][0] = f;
					in.varyings[l][s][1] = 1.0f - f;
					in.varyings[l][s][2] = 0.5f + f;
					in.varyings[l][s][3] = 1.0f;
				}
			}
			tsr_shader_exec_quad(x, &in, &out, &c);
			sink += out.color[q & 3][0];
		}
		secs[r] = cpu_seconds() - t0;
	}
	double t = bench_median(secs, reps);
	printf("%-26s %8.1f %10.2f %10.1f %8.2f %8.2f %6.2f\n", name, (double)c.instructions / (double)quads,
	       (double)quads / t / 1e6, (double)c.instructions / t / 1e6, (double)c.tex / (double)quads,
	       (double)c.branch / (double)quads, (double)c.divergent_branches / (double)quads);
	if (sink == 12345.0f)
		printf("(sink)\n");
	tsr_shader_exec_destroy(x);
}

static void run_vertex(const char *name, struct tsr_program *p, uint64_t groups, int reps)
{
	struct tsr_shader_exec *x;
	struct tsr_error err;
	if (tsr_shader_exec_create(p, TSR_SHADER_VERTEX, sample_const, NULL, &x, &err) != TSR_OK) {
		fprintf(stderr, "bench_shader: %s\n", err.msg);
		exit(1);
	}
	set_uniforms(p);
	struct tsr_vs_in in;
	memset(&in, 0, sizeof(in));
	struct tsr_vs_out out;
	double secs[99];
	struct tsr_shader_counts c;
	float sink = 0;
	for (int r = 0; r < reps; r++) {
		memset(&c, 0, sizeof(c));
		double t0 = cpu_seconds();
		for (uint64_t g = 0; g < groups; g++) {
			for (int l = 0; l < 4; l++)
				for (int a = 0; a < 4; a++) {
					in.attribs[l][a][0] = (float)((g + (uint64_t)l) % 8);
					in.attribs[l][a][1] = 0.25f * (float)a;
					in.attribs[l][a][2] = 0.5f;
					in.attribs[l][a][3] = 1.0f;
				}
			tsr_shader_exec_vertices(x, &in, 4, &out, &c);
			sink += out.position[g & 3][0];
		}
		secs[r] = cpu_seconds() - t0;
	}
	double t = bench_median(secs, reps);
	printf("%-26s %8.1f %10.2f %10.1f %8.2f %8.2f %6.2f\n", name, (double)c.instructions / (double)groups,
	       (double)groups / t / 1e6, (double)c.instructions / t / 1e6, (double)c.tex / (double)groups,
	       (double)c.branch / (double)groups, (double)c.divergent_branches / (double)groups);
	if (sink == 12345.0f)
		printf("(sink)\n");
	tsr_shader_exec_destroy(x);
}

int main(int argc, char **argv)
{
	bench_print_context(argc, argv);
	uint64_t quads;
	int reps;
	if (argc > 1 && atoi(argv[1]) <= 0) {
		fprintf(stderr, "usage: bench_shader [QUADS] [REPEATS (1-99)]\n");
		return 2;
	}
	quads = argc > 1 ? strtoull(argv[1], NULL, 10) : 200000;
	reps = argc > 2 ? atoi(argv[2]) : 5;
	if (reps < 1 || reps > 99) {
		fprintf(stderr, "usage: bench_shader [QUADS] [REPEATS (1-99)]\n");
		return 2;
	}
	char *noise = glmark2_noise();
	double ms[5];
	struct tsr_program *progs[5];
	progs[0] = build(vs_generic, fs_phong, &ms[0]);
	progs[1] = build(vs_generic, fs_blur, &ms[1]);
	progs[2] = build(vs_generic, fs_loops, &ms[2]);
	progs[3] = noise ? build("attribute vec2 p;\nvarying vec2 vUv;\nvoid main() { vUv = p; gl_Position = vec4(p, 0.0, 1.0); }\n",
				 noise, &ms[3]) : NULL;
	progs[4] = build(vs_skin, fs_flat, &ms[4]);
	printf("compile (ms per shader, glslang + SPIRV-Tools + lowering): phong %.1f, blur %.1f, loops %.1f, "
	       "terrain-noise %.1f, skinning %.1f\n", ms[0], ms[1], ms[2], noise ? ms[3] : 0.0, ms[4]);
	printf("%-26s %8s %10s %10s %8s %8s %6s\n", "program", "inst/run", "M runs/s", "M inst/s",
	       "tex/run", "br/run", "div");
	run_fragment("fragment: phong", progs[0], quads, reps, FP16);
	run_fragment("  the same, portable fp16", progs[0], quads, reps, FP16_PORTABLE);
	run_fragment("  the same, mediump fp32", progs[0], quads, reps, FP32);
	run_fragment("fragment: 9-tap blur", progs[1], quads, reps, FP16);
	run_fragment("  the same, mediump fp32", progs[1], quads, reps, FP32);
	run_fragment("fragment: loops, discard", progs[2], quads, reps, FP16);
	if (progs[3]) {
		run_fragment("fragment: terrain-noise", progs[3], quads / 20 + 1, reps, FP16);
		run_fragment("  the same, mediump fp32", progs[3], quads / 20 + 1, reps, FP32);
	}
	run_vertex("vertex: skinning", progs[4], quads, reps);
	printf("(a run is a quad, or a group of 4 vertices; M inst/s: quad-instructions, i.e. each "
	       "instruction on 4 lanes, per second of CPU time)\n");
	for (int i = 0; i < 5; i++)
		tsr_program_destroy(progs[i]);
	free(noise);
	return 0;
}
