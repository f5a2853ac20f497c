/*
 * 140-shader-compile.c - compiling and linking GLSL ES 1.00: every shader
 * glmark2 installs (/usr/share/glmark2/shaders, package glmark2-data),
 * completed as glmark2 completes them at run time; compile errors with
 * glslang's log; what tessera cannot lower refused with a log naming the
 * construct; link errors; active attributes and uniforms as
 * glGetActiveAttrib/Uniform report them; the ISA's encoding. The pairs glmark2
 * links are linked and run once each.
 */
#include <ctype.h>
#include <dirent.h>
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

#define GLMARK2_SHADERS "/usr/share/glmark2/shaders"

/* ---- glmark2's shaders, completed as glmark2 2023.01 completes them ---- */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *b = malloc((size_t)n + 1);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	if (b)
		b[n] = '\0';
	fclose(f);
	return b;
}

/* text growing by appends */
struct buf {
	char *s;
	size_t n, cap;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		assert_non_null(b->s);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

/* src with every "$KEY$" of subs (pairs, NULL-terminated) replaced */
static char *substitute(const char *src, const char *const *subs)
{
	struct buf b = {0};
	const char *p = src;
	while (*p) {
		bool done = false;
		for (int i = 0; subs[i]; i += 2)
			if (strncmp(p, subs[i], strlen(subs[i])) == 0) {
				puts_(&b, subs[i + 1]);
				p += strlen(subs[i]);
				done = true;
				break;
			}
		if (!done)
			put(&b, p++, 1);
	}
	if (!b.s)
		puts_(&b, "");
	return b.s;
}

/* name appears as a whole word in src */
static bool has_word(const char *src, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strstr(src, name); p; p = strstr(p + 1, name)) {
		bool left = p == src || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
		bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_');
		if (left && right)
			return true;
	}
	return false;
}

/* a declaration "const|uniform TYPE name" */
static bool declares(const char *src, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strstr(src, name); p; p = strstr(p + 1, name)) {
		const char *q = p;
		while (q > src && q[-1] == ' ')
			q--;
		while (q > src && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
			q--;
		while (q > src && q[-1] == ' ')
			q--;
		const char *kw = q;
		while (kw > src && isalpha((unsigned char)kw[-1]))
			kw--;
		if ((strncmp(kw, "const", 5) == 0 || strncmp(kw, "uniform", 7) == 0) &&
		    !(isalnum((unsigned char)p[n]) || p[n] == '_'))
			return true;
	}
	return false;
}

/*
 * What glmark2 adds to a file before compiling it (libmatrix's
 * ShaderSource): a precision preamble (mediump float in fragment shaders,
 * highp where the GPU has it in jellyfish's,
 * the *_OR_DEFAULT macros), the constants its scenes add with add_const()
 * (values of the scenes' defaults), and its $KEY$ substitutions (the
 * loop, conditionals and function scenes' step snippets, a 3x3
 * convolution, one light).
 */
static char *glmark2_source(const char *file, const char *raw)
{
	static const char *const consts[][2] = {
		{"LightSourcePosition", "const vec4 LightSourcePosition = vec4(20.0, 20.0, 10.0, 1.0);\n"},
		{"LightSourceHalfVector", "const vec3 LightSourceHalfVector = vec3(0.4, 0.4, 0.8);\n"},
		{"MaterialDiffuse", "const vec4 MaterialDiffuse = vec4(0.7, 0.7, 0.7, 1.0);\n"},
		{"TextureSize", "const vec2 TextureSize = vec2(512.0, 512.0);\n"},
		{"TextureStepX", "const float TextureStepX = 0.001953;\n"},
		{"TextureStepY", "const float TextureStepY = 0.001953;\n"},
		{"RefractiveIndex", "const float RefractiveIndex = 1.2;\n"},
		{"PI", "const float PI = 3.141593;\n"},
		{"LightColor0", "const vec4 LightColor0 = vec4(0.8, 0.8, 0.8, 1.0);\n"},
		{"LightSourcePosition0", "const vec4 LightSourcePosition0 = vec4(20.0, 20.0, 10.0, 1.0);\n"},
	};
	bool process = strstr(raw, "process(") != NULL;
	const char *main_step = process
		? "    if (d >= 0.5)\n        d = fract(2.0 * d);\n    else\n        d = fract(3.0 * d);\n"
		  "    for (int i = 0; i < 5; i++)\n        d = fract(3.0 * d);\n    d = process(d);\n"
		: "    if (d >= 0.5)\n        d = fract(2.0 * d);\n    else\n        d = fract(3.0 * d);\n"
		  "    for (int i = 0; i < 5; i++)\n        d = fract(3.0 * d);\n";
	struct buf conv = {0};
	puts_(&conv, "result = vec4(0.0);\n");
	for (int y = -1; y <= 1; y++)
		for (int x = -1; x <= 1; x++) {
			char line[160];
			snprintf(line, sizeof(line), "    result += texture2D(Texture0, TextureCoord + "
				 "vec2(%d.0 * 0.001, %d.0 * 0.001)) * 0.111;\n", x, y);
			puts_(&conv, line);
		}
	const char *subs[] = {"$MAIN$", main_step, "$PROCESS$", "    d = fract(3.0 * d);\n",
			      "$CONVOLUTION$", conv.s,
			      "$DO_LIGHTS$", "    gl_FragColor = compute_color(LightSourcePosition0, LightColor0);\n",
			      "$NLOOPS$", "5", NULL};
	char *body = substitute(raw, subs);
	struct buf out = {0};
	bool frag = strstr(file, ".frag") != NULL;
	/* the jellyfish scene's fragment shader asks for highp where the GPU has
	 * it (as in glmark2's captures): its uCurrentTime, used in both stages,
	 * must have the vertex shader's precision (GLSL ES 1.00 4.5.3) */
	if (frag && strstr(file, "jellyfish"))
		puts_(&out, "#ifdef GL_FRAGMENT_PRECISION_HIGH\nprecision highp float;\n#else\n"
		      "precision mediump float;\n#endif\n");
	else
		puts_(&out, frag ? "#ifdef GL_ES\nprecision mediump float;\n#endif\n" : "");
	puts_(&out, "#define HIGHP_OR_DEFAULT highp\n#define MEDIUMP_OR_DEFAULT mediump\n");
	for (size_t i = 0; i < sizeof(consts) / sizeof(consts[0]); i++)
		if (has_word(body, consts[i][0]) && !declares(body, consts[i][0]))
			puts_(&out, consts[i][1]);
	puts_(&out, body);
	free(body);
	free(conv.s);
	return out.s;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void sample_grey(void *user, const struct tsr_shader_tex_request *req, float rgba[4][4])
{
	(void)user;
	(void)req;
	for (int l = 0; l < 4; l++)
		for (int c = 0; c < 4; c++)
			rgba[l][c] = 0.5f;
}

/* runs a linked program once: its vertex shader on 4 vertices, its
 * fragment shader on a quad, every uniform 0.5 (samplers on unit 0) */
static void run_pair(struct tsr_program *p)
{
	struct tsr_error err;
	float half[4 * 4 * 64];
	for (size_t i = 0; i < sizeof(half) / sizeof(half[0]); i++)
		half[i] = 0.5f;
	for (uint32_t i = 0; i < tsr_program_uniform_count(p); i++) {
		const struct tsr_shader_var *u = tsr_program_uniform(p, i);
		float zero[64] = {0};
		bool sampler = u->type == 0x8B5E || u->type == 0x8B60;
		assert_true(u->size <= 64);
		assert_int_equal(tsr_program_uniform_write(p, u->location, u->size, sampler ? zero : half, &err),
				 TSR_OK);
	}
	struct tsr_shader_exec *vx, *fx;
	assert_int_equal(tsr_shader_exec_create(p, TSR_SHADER_VERTEX, sample_grey, NULL, &vx, &err), TSR_OK);
	assert_int_equal(tsr_shader_exec_create(p, TSR_SHADER_FRAGMENT, sample_grey, NULL, &fx, &err), TSR_OK);
	struct tsr_vs_in vin;
	for (int k = 0; k < 4; k++)
		for (int a = 0; a < TSR_SHADER_MAX_ATTRIBS; a++)
			for (int c = 0; c < 4; c++)
				vin.attribs[k][a][c] = 0.25f * (float)(k + c) + 0.1f;
	struct tsr_vs_out vout;
	struct tsr_shader_counts counts;
	memset(&counts, 0, sizeof(counts));
	tsr_shader_exec_vertices(vx, &vin, 4, &vout, &counts);
	assert_int_equal(counts.executions, 1);
	assert_true(counts.instructions > 0);
	struct tsr_fs_quad_in fin;
	memset(&fin, 0, sizeof(fin));
	for (int l = 0; l < 4; l++) {
		memcpy(fin.varyings[l], vout.varyings[l], sizeof(fin.varyings[l]));
		fin.frag_coord[l][0] = 100.5f + (float)(l & 1);
		fin.frag_coord[l][1] = 50.5f + (float)(l >> 1);
		fin.frag_coord[l][2] = 0.5f;
		fin.frag_coord[l][3] = 1.0f;
	}
	fin.front_facing = 1;
	struct tsr_fs_quad_out fout;
	tsr_shader_exec_quad(fx, &fin, &fout, &counts);
	assert_int_equal(counts.executions, 2);
	assert_int_equal(counts.loop_limit_hits, 0);
	tsr_shader_exec_destroy(vx);
	tsr_shader_exec_destroy(fx);
}

static void test_glmark2_shaders(void **state)
{
	(void)state;
	DIR *d = opendir(GLMARK2_SHADERS);
	if (!d) {
		/* glmark2-data is installed by scripts/setup.sh: its absence is a failure */
		fprintf(stderr, "no %s (scripts/setup.sh installs glmark2-data)\n", GLMARK2_SHADERS);
		fail();
	}
	char *names[256];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 256) {
		size_t l = strlen(e->d_name);
		if ((l > 5 && strcmp(e->d_name + l - 5, ".vert") == 0) || (l > 5 && strcmp(e->d_name + l - 5, ".frag") == 0))
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), cmp_str);
	int ok = 0, instructions = 0, linked = 0, pairs = 0, max_regs = 0;
	const char *max_regs_name = "";
	struct tsr_shader *shaders[256];
	for (int i = 0; i < n; i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", GLMARK2_SHADERS, names[i]);
		char *raw = slurp(path);
		assert_non_null(raw);
		char *src = glmark2_source(names[i], raw);
		enum tsr_shader_stage st = strstr(names[i], ".frag") ? TSR_SHADER_FRAGMENT : TSR_SHADER_VERTEX;
		struct tsr_error err;
		assert_int_equal(tsr_shader_compile(st, src, &shaders[i], &err), TSR_OK);
		if (tsr_shader_compiled(shaders[i])) {
			ok++;
			instructions += (int)tsr_shader_instruction_count(shaders[i]);
			if ((int)tsr_shader_register_count(shaders[i]) > max_regs) {
				max_regs = (int)tsr_shader_register_count(shaders[i]);
				max_regs_name = names[i];
			}
		} else {
			fprintf(stderr, "%s:\n%s\n", names[i], tsr_shader_info_log(shaders[i]));
		}
		free(raw);
		free(src);
	}
	/* the pairs glmark2 links (same name, .vert and .frag) */
	for (int i = 0; i + 1 < n; i++) {
		size_t l = strlen(names[i]);
		if (strncmp(names[i], names[i + 1], l - 5) != 0 || strlen(names[i + 1]) != l ||
		    strcmp(names[i] + l - 5, ".frag") != 0)
			continue;
		struct tsr_program *p;
		struct tsr_error err;
		pairs++;
		assert_int_equal(tsr_program_link(shaders[i + 1], shaders[i], NULL, 0, &p, &err), TSR_OK);
		if (tsr_program_linked(p)) {
			linked++;
			run_pair(p);
		} else {
			fprintf(stderr, "%.*s: %s\n", (int)(l - 5), names[i], tsr_program_info_log(p));
		}
		tsr_program_destroy(p);
	}
	printf("glmark2: %d of %d shaders of %s compiled (%d instructions, at most %d registers: %s), "
	       "%d of %d pairs linked\n", ok, n, GLMARK2_SHADERS, instructions, max_regs, max_regs_name, linked,
	       pairs);
	for (int i = 0; i < n; i++) {
		tsr_shader_destroy(shaders[i]);
		free(names[i]);
	}
	assert_true(n >= 70); /* glmark2-data 2023.01 installs 71 */
	assert_int_equal(ok, n);
	assert_true(pairs >= 25);
	/* allocated registers (terrain-noise's 700 instructions had about 1000
	 * before allocation; the most, 78, is ideas-lamp-lit.frag's private
	 * array of 3 light structs, which no pass folds) */
	assert_true(max_regs > 0 && max_regs <= 128);
	assert_int_equal(linked, pairs);
}

/* ---- errors ---- */

static struct tsr_shader *compile_any(enum tsr_shader_stage st, const char *src)
{
	struct tsr_shader *s;
	struct tsr_error err;
	assert_int_equal(tsr_shader_compile(st, src, &s, &err), TSR_OK);
	return s;
}

static void test_compile_errors(void **state)
{
	(void)state;
	struct tsr_shader *s = compile_any(TSR_SHADER_FRAGMENT,
		"precision mediump float;\nvarying vec2 uv;\nvoid main() {\n  gl_FragColor = vec4(nothere, 1.0);\n}\n");
	assert_false(tsr_shader_compiled(s));
	const char *log = tsr_shader_info_log(s);
	assert_non_null(strstr(log, "0:4"));
	assert_non_null(strstr(log, "nothere"));
	assert_int_equal(tsr_shader_instruction_count(s), 0);
	tsr_shader_destroy(s);
	/* fragment shaders need a default float precision in GLSL ES 1.00 */
	s = compile_any(TSR_SHADER_FRAGMENT, "void main() { float x = 1.0; gl_FragColor = vec4(x); }\n");
	assert_false(tsr_shader_compiled(s));
	assert_non_null(strstr(tsr_shader_info_log(s), "precision"));
	tsr_shader_destroy(s);
	/* #version 100 accepted, others refused */
	s = compile_any(TSR_SHADER_VERTEX, "#version 100\nattribute vec4 p;\nvoid main() { gl_Position = p; }\n");
	assert_true(tsr_shader_compiled(s));
	tsr_shader_destroy(s);
	s = compile_any(TSR_SHADER_VERTEX, "#version 300 es\nin vec4 p;\nvoid main() { gl_Position = p; }\n");
	assert_false(tsr_shader_compiled(s));
	assert_non_null(strstr(tsr_shader_info_log(s), "version 300"));
	tsr_shader_destroy(s);
	/* a construct tessera cannot lower: a log naming it, no crash */
	s = compile_any(TSR_SHADER_FRAGMENT,
		"precision highp float;\nvarying vec4 v;\n"
		"void main() { vec4 a[2]; a[0] = v; a[1] = v; int i = int(v.x); int j = int(v.y);\n"
		"  a[i][j] = 2.0; gl_FragColor = a[0] + a[1]; }\n");
	assert_false(tsr_shader_compiled(s));
	assert_non_null(strstr(tsr_shader_info_log(s), "OpStore to a vector component chosen by a variable"));
	tsr_shader_destroy(s);
	/* an empty source, a NULL one */
	s = compile_any(TSR_SHADER_VERTEX, "");
	assert_false(tsr_shader_compiled(s));
	tsr_shader_destroy(s);
	s = compile_any(TSR_SHADER_VERTEX, NULL);
	assert_false(tsr_shader_compiled(s));
	tsr_shader_destroy(s);
}

static struct tsr_program *link_any(const char *vs, const char *fs, const struct tsr_attrib_binding *b,
				    uint32_t nb)
{
	struct tsr_shader *v = tsr_test_compile(TSR_SHADER_VERTEX, vs);
	struct tsr_shader *f = tsr_test_compile(TSR_SHADER_FRAGMENT, fs);
	struct tsr_program *p;
	struct tsr_error err;
	assert_int_equal(tsr_program_link(v, f, b, nb, &p, &err), TSR_OK);
	tsr_shader_destroy(v);
	tsr_shader_destroy(f);
	return p;
}

static void test_link_errors(void **state)
{
	(void)state;
	/* a varying the fragment shader reads, the vertex shader lacks */
	struct tsr_program *p = link_any("attribute vec4 p;\nvoid main() { gl_Position = p; }\n",
		"precision mediump float;\nvarying vec2 uv;\nvoid main() { gl_FragColor = vec4(uv, 0.0, 1.0); }\n",
		NULL, 0);
	assert_false(tsr_program_linked(p));
	assert_non_null(strstr(tsr_program_info_log(p), "varying 'uv'"));
	assert_int_equal(tsr_program_uniform_count(p), 0);
	tsr_program_destroy(p);
	/* declared by the vertex shader but never written: links (GLSL ES 1.00
	 * 4.3.5: its value is undefined; piglit's glsl-undefined-varying), no
	 * slot, the fragment shader reads 0 */
	p = link_any("attribute vec4 p;\nvarying vec2 uv;\nvoid main() { gl_Position = p; }\n",
		"precision mediump float;\nvarying vec2 uv;\nvoid main() { gl_FragColor = vec4(uv, 0.0, 1.0); }\n",
		NULL, 0);
	assert_true(tsr_program_linked(p));
	assert_int_equal(tsr_program_varying_slot(p, "uv"), -1);
	struct tsr_shader_exec *ux = NULL;
	struct tsr_error uerr;
	assert_int_equal(tsr_shader_exec_create(p, TSR_SHADER_FRAGMENT, NULL, NULL, &ux, &uerr),
			 TSR_OK);
	struct tsr_fs_quad_in qin;
	memset(&qin, 0, sizeof(qin));
	struct tsr_fs_quad_out qout;
	tsr_shader_exec_quad(ux, &qin, &qout, NULL);
	assert_true(qout.color[0][0] == 0.0f && qout.color[3][1] == 0.0f && qout.color[2][3] == 1.0f);
	tsr_shader_exec_destroy(ux);
	tsr_program_destroy(p);
	/* types differ */
	p = link_any("attribute vec4 p;\nvarying vec3 uv;\nvoid main() { uv = p.xyz; gl_Position = p; }\n",
		"precision mediump float;\nvarying vec2 uv;\nvoid main() { gl_FragColor = vec4(uv, 0.0, 1.0); }\n",
		NULL, 0);
	assert_false(tsr_program_linked(p));
	assert_non_null(strstr(tsr_program_info_log(p), "vec3 in the vertex shader and vec2"));
	tsr_program_destroy(p);
	/* a uniform declared differently in the two stages */
	p = link_any("attribute vec4 p;\nuniform vec4 k;\nvoid main() { gl_Position = p * k; }\n",
		"precision mediump float;\nuniform vec3 k;\nvoid main() { gl_FragColor = vec4(k, 1.0); }\n",
		NULL, 0);
	assert_false(tsr_program_linked(p));
	assert_non_null(strstr(tsr_program_info_log(p), "uniform 'k'"));
	tsr_program_destroy(p);
	/* two attributes bound to one location */
	const struct tsr_attrib_binding bind[] = {{"a", 2}, {"b", 2}};
	p = link_any("attribute vec4 a;\nattribute vec4 b;\nvoid main() { gl_Position = a + b; }\n",
		     "precision mediump float;\nvoid main() { gl_FragColor = vec4(1.0); }\n", bind, 2);
	assert_false(tsr_program_linked(p));
	assert_non_null(strstr(tsr_program_info_log(p), "same location 2"));
	tsr_program_destroy(p);
	/* a mat4 attribute bound where it does not fit */
	const struct tsr_attrib_binding far[] = {{"m", TSR_SHADER_MAX_ATTRIBS - 2}};
	p = link_any("attribute mat4 m;\nvoid main() { gl_Position = m[0]; }\n",
		     "precision mediump float;\nvoid main() { gl_FragColor = vec4(1.0); }\n", far, 1);
	assert_false(tsr_program_linked(p));
	tsr_program_destroy(p);
	/* a stage missing or not compiled */
	struct tsr_shader *bad = compile_any(TSR_SHADER_FRAGMENT, "void main() { oops }\n");
	struct tsr_shader *v = tsr_test_compile(TSR_SHADER_VERTEX, TSR_TEST_VS);
	struct tsr_error err;
	assert_int_equal(tsr_program_link(v, bad, NULL, 0, &p, &err), TSR_OK);
	assert_false(tsr_program_linked(p));
	assert_non_null(strstr(tsr_program_info_log(p), "fragment shader is not compiled"));
	struct tsr_shader_exec *x;
	assert_int_equal(tsr_shader_exec_create(p, TSR_SHADER_FRAGMENT, NULL, NULL, &x, &err), TSR_ERR_CONFIG);
	tsr_program_destroy(p);
	assert_int_equal(tsr_program_link(v, NULL, NULL, 0, &p, &err), TSR_OK);
	assert_false(tsr_program_linked(p));
	tsr_program_destroy(p);
	tsr_shader_destroy(bad);
	tsr_shader_destroy(v);
}

/* ---- reflection ---- */

static const struct tsr_shader_var *uniform_named(const struct tsr_program *p, const char *name)
{
	for (uint32_t i = 0; i < tsr_program_uniform_count(p); i++)
		if (strcmp(tsr_program_uniform(p, i)->name, name) == 0)
			return tsr_program_uniform(p, i);
	return NULL;
}

static void test_active_uniforms_and_attributes(void **state)
{
	(void)state;
	static const char vs[] =
		"struct Material { vec4 color; float shininess; };\n"
		"struct Light { vec3 position; vec3 color; };\n"
		"attribute vec3 position;\nattribute vec3 normal;\nattribute vec2 texcoord;\n"
		"attribute vec4 unused_attrib;\n"
		"uniform mat4 mvp;\nuniform mat3 normal_matrix;\nuniform Light lights[2];\n"
		"uniform float weights[3];\nuniform float unused_uniform;\nuniform sampler2D heights;\n"
		"varying vec3 n;\nvarying vec2 uv;\n"
		"void main() { n = normal_matrix * normal + lights[0].color + lights[1].position;\n"
		"  uv = texcoord * (weights[0] + weights[2]);\n"
		"  float h = texture2DLod(heights, texcoord, 0.0).x;\n"
		"  gl_Position = mvp * vec4(position + vec3(h), 1.0); }\n";
	static const char fs[] =
		"precision mediump float;\n"
		"struct Material { vec4 color; float shininess; };\n"
		"uniform Material material;\nuniform sampler2D tex;\nuniform samplerCube env;\n"
		"uniform highp mat4 mvp;\nuniform bool flip;\nuniform ivec2 counts;\n"
		"varying vec3 n;\nvarying vec2 uv;\n"
		"void main() { vec4 c = texture2D(tex, uv) * material.color * material.shininess;\n"
		"  c += textureCube(env, n) + mvp[0] + vec4(float(counts.x + counts.y));\n"
		"  if (flip) c = c.wzyx;\n"
		"  gl_FragColor = c; }\n";
	const struct tsr_attrib_binding bind[] = {{"texcoord", 7}};
	struct tsr_program *p = link_any(vs, fs, bind, 1);
	if (!tsr_program_linked(p))
		fprintf(stderr, "%s\n", tsr_program_info_log(p));
	assert_true(tsr_program_linked(p));
	/* attributes: the three used ones */
	assert_int_equal(tsr_program_attrib_count(p), 3);
	assert_int_equal(tsr_program_attrib_location(p, "texcoord"), 7);
	assert_int_equal(tsr_program_attrib_location(p, "unused_attrib"), -1);
	int32_t lp = tsr_program_attrib_location(p, "position"), ln = tsr_program_attrib_location(p, "normal");
	assert_true(lp >= 0 && ln >= 0 && lp != ln && lp != 7 && ln != 7);
	for (uint32_t i = 0; i < 3; i++) {
		const struct tsr_shader_var *a = tsr_program_attrib(p, i);
		assert_int_equal(a->size, 1);
		assert_int_equal(a->type, strcmp(a->name, "texcoord") == 0 ? 0x8B50 : 0x8B51);
	}
	assert_null(tsr_program_attrib(p, 3));
	/* uniforms: GL ES 2.0 naming */
	static const struct {
		const char *name;
		uint32_t type, size;
	} want[] = {
		{"mvp", 0x8B5C, 1}, {"normal_matrix", 0x8B5B, 1}, {"lights[0].color", 0x8B51, 1},
		{"lights[0].position", 0x8B51, 1}, {"lights[1].position", 0x8B51, 1},
		{"lights[1].color", 0x8B51, 1}, {"weights[0]", 0x1406, 3}, {"heights", 0x8B5E, 1},
		{"material.color", 0x8B52, 1}, {"material.shininess", 0x1406, 1}, {"tex", 0x8B5E, 1},
		{"env", 0x8B60, 1}, {"flip", 0x8B56, 1}, {"counts", 0x8B53, 1},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct tsr_shader_var *u = uniform_named(p, want[i].name);
		if (!u)
			fprintf(stderr, "no active uniform '%s'\n", want[i].name);
		assert_non_null(u);
		assert_int_equal(u->type, want[i].type);
		assert_int_equal(u->size, want[i].size);
		assert_int_equal(tsr_program_uniform_location(p, want[i].name), u->location);
	}
	assert_null(uniform_named(p, "unused_uniform"));
	/* every element its own location, distinct */
	int32_t seen[64];
	int nseen = 0;
	for (uint32_t i = 0; i < tsr_program_uniform_count(p); i++) {
		const struct tsr_shader_var *u = tsr_program_uniform(p, i);
		for (uint32_t e = 0; e < u->size; e++) {
			for (int k = 0; k < nseen; k++)
				assert_int_not_equal(seen[k], u->location + (int32_t)e);
			seen[nseen++] = u->location + (int32_t)e;
		}
	}
	int32_t w0 = tsr_program_uniform_location(p, "weights[0]");
	assert_int_equal(tsr_program_uniform_location(p, "weights"), w0);
	assert_int_equal(tsr_program_uniform_location(p, "weights[2]"), w0 + 2);
	assert_int_equal(tsr_program_uniform_location(p, "weights[3]"), -1);
	assert_int_equal(tsr_program_uniform_location(p, "nothing"), -1);
	/* storage: writes read back, arrays clipped at their end, bools normalized */
	struct tsr_error err;
	const float w[4] = {0.5f, 1.5f, 2.5f, 99.0f};
	assert_int_equal(tsr_program_uniform_write(p, w0 + 1, 4, w, &err), TSR_OK);
	float back[16];
	assert_int_equal(tsr_program_uniform_read(p, w0 + 2, back), 1);
	assert_float_equal(back[0], 1.5f, 0);
	float t = 3.0f;
	tsr_program_uniform_write(p, tsr_program_uniform_location(p, "flip"), 1, &t, &err);
	tsr_program_uniform_read(p, tsr_program_uniform_location(p, "flip"), back);
	assert_float_equal(back[0], 1.0f, 0);
	assert_int_equal(tsr_program_uniform_write(p, -1, 1, w, &err), TSR_OK);
	assert_int_equal(tsr_program_uniform_write(p, 1000, 1, w, &err), TSR_ERR_CONFIG);
	/* a uniform both stages use shares one location and is written to both */
	float m[16];
	for (int i = 0; i < 16; i++)
		m[i] = (float)i;
	assert_int_equal(tsr_program_uniform_write(p, tsr_program_uniform_location(p, "mvp"), 1, m, &err), TSR_OK);
	/* varyings: the fragment shader's, each its slots */
	assert_int_equal(tsr_program_varying_count(p), 2);
	assert_true(tsr_program_varying_slot(p, "n") >= 0);
	assert_true(tsr_program_varying_slot(p, "uv") >= 0);
	tsr_program_destroy(p);
}

static void test_isa_encoding(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct tsr_sh_inst), TSR_SH_INST_BYTES);
	assert_int_equal(TSR_SH_INST_BYTES, 16);
	struct tsr_sh_inst in;
	memset(&in, 0, sizeof(in));
	in.op = TSR_SH_MAD;
	in.wmask = 0x3;
	in.dst = 3;
	in.src[0] = (struct tsr_sh_src){1, 0x00, 0};
	in.src[1] = (struct tsr_sh_src){(uint16_t)(2 | TSR_SH_CONST_BANK), 0x39, TSR_SH_MOD_NEG};
	in.src[2] = (struct tsr_sh_src){0, TSR_SH_SWZ_XYZW, TSR_SH_MOD_ABS};
	char buf[96];
	assert_string_equal(tsr_sh_disasm(&in, buf, sizeof(buf)), "mad r3.xy, r1.xxxx, -c2.yzwx, |r0|.xyzw");
	/* every opcode has a name and a class */
	for (unsigned op = 0; op < TSR_SH_OP_COUNT; op++)
		assert_string_not_equal(tsr_sh_op_name(op), "?");
	assert_int_equal(tsr_sh_op_class(TSR_SH_RSQ), TSR_SH_CLASS_SFU);
	assert_int_equal(tsr_sh_op_class(TSR_SH_TXL), TSR_SH_CLASS_TEX);
	assert_int_equal(tsr_sh_op_class(TSR_SH_KILL), TSR_SH_CLASS_FLOW);
	assert_int_equal(tsr_sh_op_class(TSR_SH_DDX), TSR_SH_CLASS_ALU);
	/* a compiled loop: structured flow, every jump inside the code */
	struct tsr_program *p = tsr_test_program(TSR_TEST_VS,
		"precision highp float;\nvarying vec4 v0;\n"
		"void main() { float s = 0.0; for (int i = 0; i < 4; i++) { if (v0.x > float(i)) break; s += 1.0; }\n"
		"  if (s > 2.0) discard; gl_FragColor = vec4(s); }\n");
	const struct tsr_sh_inst *code;
	uint32_t n = tsr_program_code(p, TSR_SHADER_FRAGMENT, &code);
	int loops = 0, kills = 0;
	for (uint32_t i = 0; i < n; i++) {
		loops += code[i].op == TSR_SH_LOOP;
		kills += code[i].op == TSR_SH_KILL;
		if (code[i].op == TSR_SH_IF || code[i].op == TSR_SH_ELSE || code[i].op == TSR_SH_LOOP ||
		    code[i].op == TSR_SH_ENDLOOP || code[i].op == TSR_SH_BRK || code[i].op == TSR_SH_CONT)
			assert_true(code[i].dst <= n);
	}
	assert_int_equal(loops, 1);
	assert_int_equal(kills, 1);
	tsr_program_destroy(p);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glmark2_shaders),
		cmocka_unit_test(test_compile_errors),
		cmocka_unit_test(test_link_errors),
		cmocka_unit_test(test_active_uniforms_and_attributes),
		cmocka_unit_test(test_isa_encoding),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
