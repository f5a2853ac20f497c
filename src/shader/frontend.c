/*
 * frontend.c - GLSL ES 1.00 source to flattened SPIR-V: glslang's C
 * interface parses the source as ES 100 (client and target NONE: the
 * only way glslang 12 emits SPIR-V for ES 100, which it does not
 * officially support; test 140 pins it), links the single stage and
 * generates SPIR-V, whose header version word is 0 and is set to 1.0;
 * SPIRV-Tools then inlines every call and rewrites to SSA
 * (spirv_opt.cpp). docs/shader-isa.md, "Compiling", gives the passes.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>

#include "shader/shader_priv.h"

#include <spirv/unified1/spirv.h>

void tsr_sh_text_add(struct tsr_sh_text *t, const char *fmt, ...)
{
	if (t->failed)
		return;
	va_list ap;
	va_start(ap, fmt);
	char small[256];
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 256;
		while (cap < t->len + (size_t)n + 1)
			cap *= 2;
		char *s = realloc(t->s, cap);
		if (!s) {
			t->failed = true;
			return;
		}
		t->s = s;
		t->cap = cap;
	}
	if ((size_t)n < sizeof(small)) {
		memcpy(t->s + t->len, small, (size_t)n + 1);
	} else {
		va_start(ap, fmt);
		vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	t->len += (size_t)n;
}

static pthread_once_t glslang_once = PTHREAD_ONCE_INIT;
static int glslang_ready;

/* glslang's process state, made once and kept (its symbol tables are
 * rebuilt whenever the last user finalizes, so no one finalizes). */
static void glslang_start(void)
{
	glslang_ready = glslang_initialize_process();
}

/* The version of a #version directive in the source, 100 when there is none. */
static long source_version(const char *src)
{
	const char *p = src;
	while (*p) {
		const char *line = p;
		while (*line == ' ' || *line == '\t')
			line++;
		if (*line == '#') {
			line++;
			while (*line == ' ' || *line == '\t')
				line++;
			if (strncmp(line, "version", 7) == 0 && !isalnum((unsigned char)line[7]))
				return strtol(line + 7, NULL, 10);
		}
		const char *nl = strchr(p, '\n');
		if (!nl)
			break;
		p = nl + 1;
	}
	return 100;
}

/*
 * glslang's log of a failed single-stage link ("ERROR: Linking fragment
 * stage: Missing entry point: ..."), with each such message placed where a
 * compile error is, at a line of the source: its last ("ERROR: 0:N: ..."),
 * where the missing definition was looked for to the end. Other lines are
 * kept as they are.
 */
static void add_link_log(struct tsr_sh_text *log, const char *text, const char *source)
{
	unsigned lines = 1;
	for (const char *p = source; *p; p++)
		if (*p == '\n' && p[1])
			lines++;
	for (const char *p = text ? text : ""; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		static const char pre[] = "ERROR: Linking ";
		const char *stage_end = NULL;
		if (strncmp(p, pre, sizeof pre - 1) == 0) {
			const char *c = strstr(p, " stage: ");
			if (c && c < p + n)
				stage_end = c + 8;
		}
		if (stage_end)
			tsr_sh_text_add(log, "ERROR: 0:%u: %.*s\n", lines, (int)(p + n - stage_end),
					stage_end);
		else if (n)
			tsr_sh_text_add(log, "%.*s\n", (int)n, p);
		p += n + (nl ? 1 : 0);
	}
}

/*
 * The names of the Output variables of a module (glslang's, before the
 * optimizer drops the unused ones), NUL-separated with an empty name last;
 * NULL when there is none or no memory (then the link reports such a
 * varying as undeclared, as before).
 */
static char *declared_outputs(const uint32_t *w, size_t n)
{
	size_t cap = 1, len = 0;
	char *out = NULL;
	for (size_t i = 5; i < n;) {
		const uint32_t op = w[i] & 0xffffu, wc = w[i] >> 16;
		if (wc == 0 || i + wc > n)
			break;
		if (op == SpvOpVariable && wc >= 4 && w[i + 3] == SpvStorageClassOutput) {
			const uint32_t id = w[i + 2];
			for (size_t j = 5; j < n;) {  /* its OpName */
				const uint32_t o = w[j] & 0xffffu, c = w[j] >> 16;
				if (c == 0 || j + c > n)
					break;
				if (o == SpvOpName && c >= 3 && w[j + 1] == id) {
					const char *name = (const char *)&w[j + 2];
					const size_t k = strnlen(name, (size_t)(c - 2) * 4);
					char *grown = realloc(out, cap + len + k + 1);
					if (!grown) {
						free(out);
						return NULL;
					}
					out = grown;
					memcpy(out + len, name, k);
					out[len + k] = '\0';
					len += k + 1;
					break;
				}
				j += c;
			}
		}
		i += wc;
	}
	if (out)
		out[len] = '\0';  /* the empty name: the end */
	return out;
}

/*
 * Whether a fragment shader's outputs (declared_outputs()' list, NULL: none)
 * take from both sets GL_EXT_blend_func_extended keeps apart, {gl_FragColor,
 * gl_SecondaryFragColorEXT} and {gl_FragData, gl_SecondaryFragDataEXT}: a
 * compile error (the extension's GLSL ES 1.00 7.2, sixth paragraph). glslang
 * 12 refuses gl_FragColor with gl_FragData itself, not the mixes with the
 * secondary outputs; glslang only declares the outputs a shader uses, so
 * this is its static use.
 */
static bool mixes_color_and_data(const char *declared)
{
	bool color = false, data = false;
	for (const char *p = declared; p && *p; p += strlen(p) + 1) {
		if (strcmp(p, "gl_FragColor") == 0 || strcmp(p, "gl_SecondaryFragColorEXT") == 0)
			color = true;
		else if (strcmp(p, "gl_FragData") == 0 || strcmp(p, "gl_SecondaryFragDataEXT") == 0)
			data = true;
	}
	return color && data;
}

/* Whether line (up to its end) is the directive "#extension NAME : BEHAVIOR"
 * for GL_EXT_shader_framebuffer_fetch or its _non_coherent variant with a
 * behavior other than disable. */
static bool fbfetch_directive(const char *line, const char *end)
{
	const char *p = line;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p != '#')
		return false;
	p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(end - p) < 9 || strncmp(p, "extension", 9) != 0)
		return false;
	p += 9;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	static const char ext[] = "GL_EXT_shader_framebuffer_fetch";
	if ((size_t)(end - p) < sizeof ext - 1 || strncmp(p, ext, sizeof ext - 1) != 0)
		return false;
	p += sizeof ext - 1;
	if ((size_t)(end - p) >= 13 && strncmp(p, "_non_coherent", 13) == 0)
		p += 13;
	if (p < end && (isalnum((unsigned char)*p) || *p == '_'))
		return false;
	const char *colon = memchr(p, ':', (size_t)(end - p));
	if (!colon)
		return false;
	for (const char *q = colon + 1; q + 7 <= end; q++)
		if (strncmp(q, "disable", 7) == 0)
			return false;
	return true;
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/*
 * GL_EXT_shader_framebuffer_fetch(_non_coherent) in a fragment shader,
 * which glslang 12 does not know: a source whose #extension directive
 * enables either gets a copy (*out, malloc'ed) where that directive's line
 * declares "varying P vec4 tsr_LastFragData[gl_MaxDrawBuffers];" (the
 * precision P of a redeclaration of gl_LastFragData, mediump without one),
 * the redeclarations' lines ("[layout(noncoherent)] [P] vec4
 * gl_LastFragData[...];") are blanked and every other gl_LastFragData is
 * renamed tsr_LastFragData, which the lowering reads as the color buffer
 * (TSR_SH_BI_LAST_FRAG_DATA). Line numbers are kept. *out NULL: no such
 * directive (or no memory: the source then fails to compile as before).
 */
static void rewrite_fbfetch(const char *src, char **out)
{
	*out = NULL;
	const char *dir = NULL;
	const char *prec = "mediump";
	for (const char *p = src; *p;) {
		const char *nl = strchr(p, '\n');
		const char *end = nl ? nl : p + strlen(p);
		if (!dir && fbfetch_directive(p, end))
			dir = p;
		const char *g = strstr(p, "gl_LastFragData");
		if (g && g < end && memchr(p, ';', (size_t)(end - p)) && strstr(p, "vec4") &&
		    strstr(p, "vec4") < g) {
			for (const char *q = p; q < g; q++) {
				if (strncmp(q, "highp", 5) == 0)
					prec = "highp";
				else if (strncmp(q, "lowp", 4) == 0)
					prec = "lowp";
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (!dir)
		return;
	const size_t n = strlen(src);
	char *o = malloc(n * 2 + 128);
	if (!o)
		return;
	size_t len = 0;
	for (const char *p = src; *p;) {
		const char *nl = strchr(p, '\n');
		const char *end = nl ? nl : p + strlen(p);
		const char *g = strstr(p, "gl_LastFragData");
		const char *v = strstr(p, "vec4");
		if (p == dir) {
			len += (size_t)sprintf(o + len, "varying %s vec4 tsr_LastFragData[gl_MaxDrawBuffers];",
					       prec);
		} else if (g && g < end && v && v < g && memchr(g, ';', (size_t)(end - g)) &&
			   !memchr(p, '=', (size_t)(end - p))) {
			/* a redeclaration: blank */
		} else {
			for (const char *q = p; q < end;) {
				if (strncmp(q, "gl_LastFragData", 15) == 0 &&
				    (q == p || !ident_char(q[-1])) && !ident_char(q[15])) {
					memcpy(o + len, "tsr", 3);
					len += 3;
					q += 2;  /* "gl" becomes "tsr" */
				} else {
					o[len++] = *q++;
				}
			}
		}
		if (nl)
			o[len++] = '\n';
		p = nl ? nl + 1 : end;
	}
	o[len] = '\0';
	*out = o;
}

enum tsr_status tsr_sh_frontend(enum tsr_shader_stage stage, const char *source,
				uint32_t **words, size_t *word_count, char **declared,
				struct tsr_sh_text *log, struct tsr_error *err)
{
	*words = NULL;
	*word_count = 0;
	*declared = NULL;
	long version = source_version(source);
	if (version != 100) {
		tsr_sh_text_add(log, "ERROR: 0:1: '#version' : version %ld is not GLSL ES 1.00 "
			       "(OpenGL ES 2.0 accepts #version 100 only)\n", version);
		return TSR_OK;
	}
	pthread_once(&glslang_once, glslang_start);
	if (!glslang_ready)
		return tsr_error_set(err, TSR_ERR_INTERNAL, "glslang failed to initialize");
	char *rewritten = NULL;
	if (stage == TSR_SHADER_FRAGMENT)
		rewrite_fbfetch(source, &rewritten);
	if (rewritten)
		source = rewritten;
	const glslang_stage_t gstage = stage == TSR_SHADER_VERTEX ? GLSLANG_STAGE_VERTEX
								 : GLSLANG_STAGE_FRAGMENT;
	glslang_input_t in;
	memset(&in, 0, sizeof(in));
	in.language = GLSLANG_SOURCE_GLSL;
	in.stage = gstage;
	in.client = GLSLANG_CLIENT_NONE;
	in.target_language = GLSLANG_TARGET_NONE;
	in.code = source;
	in.default_version = 100;
	in.default_profile = GLSLANG_ES_PROFILE;
	in.messages = GLSLANG_MSG_DEFAULT_BIT;
	/* glslang's limits, but gl_MaxDrawBuffers that of the device
	 * (MAX_DRAW_BUFFERS_EXT 4: gl_FragData and gl_LastFragData have four
	 * elements; only element 0 reaches a color buffer, the driver refusing
	 * draws with another draw buffer enabled) */
	glslang_resource_t res = *glslang_default_resource();
	res.max_draw_buffers = 4;
	in.resource = &res;
	/* GL_EXT_blend_func_extended: gl_SecondaryFragDataEXT has
	 * MAX_DUAL_SOURCE_DRAW_BUFFERS_EXT (1) elements */
	res.max_dual_source_draw_buffers_ext = 1;
	glslang_shader_t *sh = glslang_shader_create(&in);
	if (!sh) {
		free(rewritten);
		return tsr_error_set(err, TSR_ERR_NOMEM, "glslang could not create a shader");
	}
	enum tsr_status st = TSR_OK;
	glslang_program_t *prog = NULL;
	if (!glslang_shader_preprocess(sh, &in) || !glslang_shader_parse(sh, &in)) {
		tsr_sh_text_add(log, "%s", glslang_shader_get_info_log(sh));
		goto done;
	}
	prog = glslang_program_create();
	if (!prog) {
		st = tsr_error_set(err, TSR_ERR_NOMEM, "glslang could not create a program");
		goto done;
	}
	glslang_program_add_shader(prog, sh);
	if (!glslang_program_link(prog, GLSLANG_MSG_DEFAULT_BIT)) {
		add_link_log(log, glslang_program_get_info_log(prog), source);
		goto done;
	}
	/* warnings of a successful compile are kept in the log */
	const char *warn = glslang_shader_get_info_log(sh);
	if (warn && *warn)
		tsr_sh_text_add(log, "%s", warn);
	glslang_program_SPIRV_generate(prog, gstage);
	size_t n = glslang_program_SPIRV_get_size(prog);
	if (n < 5) {
		tsr_sh_text_add(log, "ERROR: glslang generated no SPIR-V: %s\n",
				glslang_program_SPIRV_get_messages(prog) ? glslang_program_SPIRV_get_messages(prog) : "");
		goto done;
	}
	uint32_t *raw = malloc(n * sizeof(uint32_t));
	if (!raw) {
		st = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for %zu SPIR-V words", n);
		goto done;
	}
	glslang_program_SPIRV_get(prog, raw);
	raw[1] = 0x00010000u; /* glslang leaves the version 0 for target NONE */
	*declared = declared_outputs(raw, n);
	if (stage == TSR_SHADER_FRAGMENT && mixes_color_and_data(*declared)) {
		add_link_log(log, "ERROR: Linking fragment stage: Cannot use both gl_FragColor or "
			     "gl_SecondaryFragColorEXT and gl_FragData or gl_SecondaryFragDataEXT\n",
			     source);
		free(raw);
		goto done;
	}
	char msg[256];
	if (tsr_sh_spirv_optimize(raw, n, words, word_count, msg, sizeof(msg)) != 0) {
		tsr_sh_text_add(log, "ERROR: SPIR-V optimizer: %s\n", msg);
		*words = NULL;
		*word_count = 0;
	}
	free(raw);
done:
	if (prog)
		glslang_program_delete(prog);
	glslang_shader_delete(sh);
	free(rewritten);
	if (log->failed && st == TSR_OK)
		st = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a shader info log");
	return st;
}
