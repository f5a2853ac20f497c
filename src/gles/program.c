/*
 * program.c - GL ES 2.0 shader and program objects (2.10) through
 * src/shader: sources, compiling, attaching, linking, the current
 * program, validation, active attributes and uniforms, uniform values with
 * GL's type-matching errors (2.10.4), and their queries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gles/gles_priv.h"

/* The shader named `name`: INVALID_VALUE when the name is nothing,
 * INVALID_OPERATION when it is a program. */
static struct gles_shader *get_shader(struct tsr_gles_context *ctx, GLuint name)
{
	struct gles_shader *s = gles_names_get(&ctx->shprogs, name);
	if (!s)
		gles_error(ctx, GL_INVALID_VALUE);
	else if (s->kind != GLES_SHADER)
		gles_error(ctx, GL_INVALID_OPERATION);
	return s && s->kind == GLES_SHADER ? s : NULL;
}

static struct gles_program *get_program(struct tsr_gles_context *ctx, GLuint name)
{
	struct gles_program *p = gles_names_get(&ctx->shprogs, name);
	if (!p)
		gles_error(ctx, GL_INVALID_VALUE);
	else if (p->kind != GLES_PROGRAM)
		gles_error(ctx, GL_INVALID_OPERATION);
	return p && p->kind == GLES_PROGRAM ? p : NULL;
}

/* Copies s into buf (bufsize bytes, NUL-terminated) as GL's Get*Log do. */
static void copy_string(const char *s, GLsizei bufsize, GLsizei *length, GLchar *buf)
{
	size_t n = strlen(s);
	if (bufsize <= 0) {
		if (length)
			*length = 0;
		return;
	}
	if (n > (size_t)bufsize - 1)
		n = (size_t)bufsize - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (length)
		*length = (GLsizei)n;
}

void tsr_gles_ShaderSource(struct tsr_gles_context *ctx, GLuint shader, GLsizei count,
			   const GLchar *const *string, const GLint *length)
{
	struct gles_shader *s = get_shader(ctx, shader);
	if (!s)
		return;
	if (count < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	size_t total = 0;
	for (GLsizei i = 0; i < count; i++)
		total += length && length[i] >= 0 ? (size_t)length[i] : strlen(string[i]);
	char *src = malloc(total + 1);
	if (!src) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	size_t at = 0;
	for (GLsizei i = 0; i < count; i++) {
		size_t n = length && length[i] >= 0 ? (size_t)length[i] : strlen(string[i]);
		memcpy(src + at, string[i], n);
		at += n;
	}
	src[at] = '\0';
	free(s->source);
	s->source = src;
}

void tsr_gles_CompileShader(struct tsr_gles_context *ctx, GLuint shader)
{
	struct gles_shader *s = get_shader(ctx, shader);
	if (!s)
		return;
	struct tsr_shader *out = NULL;
	struct tsr_error err;
	enum tsr_status st = tsr_shader_compile(s->type == GL_VERTEX_SHADER ? TSR_SHADER_VERTEX
									 : TSR_SHADER_FRAGMENT,
						s->source ? s->source : "", &out, &err);
	if (st != TSR_OK) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	tsr_shader_destroy(s->compiled);
	s->compiled = out;
}

static GLint log_length(const char *log)
{
	return log && log[0] ? (GLint)strlen(log) + 1 : 0;
}

void tsr_gles_GetShaderiv(struct tsr_gles_context *ctx, GLuint shader, GLenum pname,
			  GLint *params)
{
	struct gles_shader *s = get_shader(ctx, shader);
	if (!s)
		return;
	switch (pname) {
	case GL_SHADER_TYPE: *params = (GLint)s->type; break;
	case GL_DELETE_STATUS: *params = s->delete_pending; break;
	case GL_COMPILE_STATUS: *params = s->compiled && tsr_shader_compiled(s->compiled); break;
	case GL_INFO_LOG_LENGTH:
		*params = s->compiled ? log_length(tsr_shader_info_log(s->compiled)) : 0;
		break;
	case GL_SHADER_SOURCE_LENGTH: *params = log_length(s->source); break;
	default: gles_error(ctx, GL_INVALID_ENUM); break;
	}
}

void tsr_gles_GetShaderInfoLog(struct tsr_gles_context *ctx, GLuint shader, GLsizei bufsize,
			       GLsizei *length, GLchar *infolog)
{
	struct gles_shader *s = get_shader(ctx, shader);
	if (!s)
		return;
	if (bufsize < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	copy_string(s->compiled ? tsr_shader_info_log(s->compiled) : "", bufsize, length, infolog);
}

void tsr_gles_GetShaderSource(struct tsr_gles_context *ctx, GLuint shader, GLsizei bufsize,
			      GLsizei *length, GLchar *source)
{
	struct gles_shader *s = get_shader(ctx, shader);
	if (!s)
		return;
	if (bufsize < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	copy_string(s->source ? s->source : "", bufsize, length, source);
}

void tsr_gles_AttachShader(struct tsr_gles_context *ctx, GLuint program, GLuint shader)
{
	struct gles_program *p = get_program(ctx, program);
	if (!p)
		return;
	struct gles_shader *s = get_shader(ctx, shader);
	if (!s)
		return;
	struct gles_shader **slot = s->type == GL_VERTEX_SHADER ? &p->vs : &p->fs;
	if (*slot) {  /* already attached, or another of its type is */
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	*slot = s;
	s->attached++;
}

void tsr_gles_DetachShader(struct tsr_gles_context *ctx, GLuint program, GLuint shader)
{
	struct gles_program *p = get_program(ctx, program);
	if (!p)
		return;
	struct gles_shader *s = get_shader(ctx, shader);
	if (!s)
		return;
	struct gles_shader **slot = p->vs == s ? &p->vs : p->fs == s ? &p->fs : NULL;
	if (!slot) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	*slot = NULL;
	s->attached--;
	if (s->delete_pending && s->attached == 0) {
		gles_names_remove(&ctx->shprogs, s->name);
		gles_shader_free(s);
	}
}

void tsr_gles_GetAttachedShaders(struct tsr_gles_context *ctx, GLuint program, GLsizei maxcount,
				 GLsizei *count, GLuint *shaders)
{
	struct gles_program *p = get_program(ctx, program);
	if (!p)
		return;
	if (maxcount < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	GLsizei n = 0;
	if (p->vs && n < maxcount)
		shaders[n++] = p->vs->name;
	if (p->fs && n < maxcount)
		shaders[n++] = p->fs->name;
	if (count)
		*count = n;
}

void tsr_gles_BindAttribLocation(struct tsr_gles_context *ctx, GLuint program, GLuint index,
				 const GLchar *name)
{
	struct gles_program *p = get_program(ctx, program);
	if (!p)
		return;
	if (index >= TSR_GLES_MAX_VERTEX_ATTRIBS) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (strncmp(name, "gl_", 3) == 0) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	for (uint32_t i = 0; i < p->binding_count; i++)
		if (strcmp(p->bindings[i].name, name) == 0) {
			p->bindings[i].index = index;
			return;
		}
	struct gles_binding *b = realloc(p->bindings, (p->binding_count + 1) * sizeof *b);
	char *copy = strdup(name);
	if (b)
		p->bindings = b;
	if (!b || !copy) {
		free(copy);
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	b[p->binding_count].name = copy;
	b[p->binding_count].index = index;
	p->binding_count++;
}

void tsr_gles_LinkProgram(struct tsr_gles_context *ctx, GLuint program)
{
	struct gles_program *p = get_program(ctx, program);
	if (!p)
		return;
	struct tsr_attrib_binding *bindings = NULL;
	if (p->binding_count) {
		bindings = malloc(p->binding_count * sizeof *bindings);
		if (!bindings) {
			gles_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
		for (uint32_t i = 0; i < p->binding_count; i++) {
			bindings[i].name = p->bindings[i].name;
			bindings[i].location = p->bindings[i].index;
		}
	}
	struct tsr_program *out = NULL;
	struct tsr_error err;
	enum tsr_status st = tsr_program_link(p->vs ? p->vs->compiled : NULL,
					      p->fs ? p->fs->compiled : NULL, bindings,
					      p->binding_count, &out, &err);
	free(bindings);
	if (st != TSR_OK) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	struct tsr_program *old_linked = p->linked, *old_exe = p->exe;
	p->linked = out;
	p->link_status = tsr_program_linked(out);
	/* 2.10.3: a current program relinked unsuccessfully keeps its executable
	 * until it is no longer current */
	if (p->link_status)
		p->exe = out;
	else if (ctx->program != p)
		p->exe = NULL;
	if (old_linked && old_linked != p->exe)
		tsr_program_destroy(old_linked);
	if (old_exe && old_exe != old_linked && old_exe != p->exe)
		tsr_program_destroy(old_exe);
	p->validate_status = false;
	free(p->validate_log);
	p->validate_log = NULL;
}

void tsr_gles_UseProgram(struct tsr_gles_context *ctx, GLuint program)
{
	struct gles_program *p = NULL;
	if (program != 0) {
		p = get_program(ctx, program);
		if (!p)
			return;
		if (!p->link_status) {
			gles_error(ctx, GL_INVALID_OPERATION);
			return;
		}
	}
	struct gles_program *old = ctx->program;
	ctx->program = p;
	if (old != p)
		gles_program_uncurrent(ctx, old);
}

/* The reason program p cannot draw in the current state (two sampler
 * types on one unit, 2.10.5), or NULL. */
static const char *program_invalid(const struct gles_program *p)
{
	if (!p->link_status)
		return "the program is not linked";
	for (uint32_t u = 0; u < TSR_GLES_MAX_TEXTURE_UNITS; u++)
		if (tsr_program_unit_usage(p->linked, u) == 3)
			return "a sampler2D and a samplerCube use one texture unit";
	return NULL;
}

void tsr_gles_ValidateProgram(struct tsr_gles_context *ctx, GLuint program)
{
	struct gles_program *p = get_program(ctx, program);
	if (!p)
		return;
	const char *why = program_invalid(p);
	p->validate_status = why == NULL;
	free(p->validate_log);
	p->validate_log = why ? strdup(why) : NULL;
}

/* The program's info log: the link's, then the validation's. */
static void program_log(const struct gles_program *p, char *buf, size_t cap)
{
	const char *link = p->linked ? tsr_program_info_log(p->linked) : "";
	snprintf(buf, cap, "%s%s%s", link, link[0] && p->validate_log ? "\n" : "",
		 p->validate_log ? p->validate_log : "");
}

static GLint max_name_length(const struct tsr_program *lp, bool uniforms)
{
	GLint m = 0;
	uint32_t n = uniforms ? tsr_program_uniform_count(lp) : tsr_program_attrib_count(lp);
	for (uint32_t i = 0; i < n; i++) {
		const struct tsr_shader_var *v = uniforms ? tsr_program_uniform(lp, i)
							  : tsr_program_attrib(lp, i);
		GLint len = (GLint)strlen(v->name) + 1;
		if (len > m)
			m = len;
	}
	return m;
}

void tsr_gles_GetProgramiv(struct tsr_gles_context *ctx, GLuint program, GLenum pname,
			   GLint *params)
{
	struct gles_program *p = get_program(ctx, program);
	if (!p)
		return;
	const struct tsr_program *lp = p->link_status ? p->linked : NULL;
	char log[4096];
	switch (pname) {
	case GL_DELETE_STATUS: *params = p->delete_pending; break;
	case GL_LINK_STATUS: *params = p->link_status; break;
	case GL_VALIDATE_STATUS: *params = p->validate_status; break;
	case GL_INFO_LOG_LENGTH:
		program_log(p, log, sizeof log);
		*params = log_length(log);
		break;
	case GL_ATTACHED_SHADERS: *params = (p->vs != NULL) + (p->fs != NULL); break;
	case GL_ACTIVE_ATTRIBUTES: *params = lp ? (GLint)tsr_program_attrib_count(lp) : 0; break;
	case GL_ACTIVE_ATTRIBUTE_MAX_LENGTH: *params = lp ? max_name_length(lp, false) : 0; break;
	case GL_ACTIVE_UNIFORMS: *params = lp ? (GLint)tsr_program_uniform_count(lp) : 0; break;
	case GL_ACTIVE_UNIFORM_MAX_LENGTH: *params = lp ? max_name_length(lp, true) : 0; break;
	default: gles_error(ctx, GL_INVALID_ENUM); break;
	}
}

void tsr_gles_GetProgramInfoLog(struct tsr_gles_context *ctx, GLuint program, GLsizei bufsize,
				GLsizei *length, GLchar *infolog)
{
	struct gles_program *p = get_program(ctx, program);
	if (!p)
		return;
	if (bufsize < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	char log[4096];
	program_log(p, log, sizeof log);
	copy_string(log, bufsize, length, infolog);
}

static void get_active(struct tsr_gles_context *ctx, GLuint program, GLuint index,
		       GLsizei bufsize, GLsizei *length, GLint *size, GLenum *type, GLchar *name,
		       bool uniforms)
{
	struct gles_program *p = get_program(ctx, program);
	if (!p)
		return;
	const struct tsr_shader_var *v = NULL;
	if (p->link_status)
		v = uniforms ? tsr_program_uniform(p->linked, index) : tsr_program_attrib(p->linked, index);
	if (!v || bufsize < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	copy_string(v->name, bufsize, length, name);
	*size = (GLint)v->size;
	*type = v->type;
}

void tsr_gles_GetActiveAttrib(struct tsr_gles_context *ctx, GLuint program, GLuint index,
			      GLsizei bufsize, GLsizei *length, GLint *size, GLenum *type,
			      GLchar *name)
{
	get_active(ctx, program, index, bufsize, length, size, type, name, false);
}

void tsr_gles_GetActiveUniform(struct tsr_gles_context *ctx, GLuint program, GLuint index,
			       GLsizei bufsize, GLsizei *length, GLint *size, GLenum *type,
			       GLchar *name)
{
	get_active(ctx, program, index, bufsize, length, size, type, name, true);
}

GLint tsr_gles_GetAttribLocation(struct tsr_gles_context *ctx, GLuint program, const GLchar *name)
{
	struct gles_program *p = get_program(ctx, program);
	if (!p)
		return -1;
	if (!p->link_status) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return -1;
	}
	return tsr_program_attrib_location(p->linked, name);
}

GLint tsr_gles_GetUniformLocation(struct tsr_gles_context *ctx, GLuint program,
				  const GLchar *name)
{
	struct gles_program *p = get_program(ctx, program);
	if (!p)
		return -1;
	if (!p->link_status) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return -1;
	}
	return tsr_program_uniform_location(p->linked, name);
}

/* ---- uniform values ---- */

enum ukind { U_FLOAT, U_INT, U_BOOL, U_SAMPLER, U_MATRIX };

/* The kind and components (per element) of a uniform's GL type. */
static enum ukind type_kind(GLenum type, int *comps)
{
	switch (type) {
	case GL_FLOAT: *comps = 1; return U_FLOAT;
	case GL_FLOAT_VEC2: *comps = 2; return U_FLOAT;
	case GL_FLOAT_VEC3: *comps = 3; return U_FLOAT;
	case GL_FLOAT_VEC4: *comps = 4; return U_FLOAT;
	case GL_INT: *comps = 1; return U_INT;
	case GL_INT_VEC2: *comps = 2; return U_INT;
	case GL_INT_VEC3: *comps = 3; return U_INT;
	case GL_INT_VEC4: *comps = 4; return U_INT;
	case GL_BOOL: *comps = 1; return U_BOOL;
	case GL_BOOL_VEC2: *comps = 2; return U_BOOL;
	case GL_BOOL_VEC3: *comps = 3; return U_BOOL;
	case GL_BOOL_VEC4: *comps = 4; return U_BOOL;
	case GL_FLOAT_MAT2: *comps = 4; return U_MATRIX;
	case GL_FLOAT_MAT3: *comps = 9; return U_MATRIX;
	case GL_FLOAT_MAT4: *comps = 16; return U_MATRIX;
	default: *comps = 1; return U_SAMPLER; /* SAMPLER_2D, SAMPLER_CUBE, EXTERNAL_OES */
	}
}

/* The active uniform whose elements include location loc, and the
 * elements from loc to its end; NULL when none. */
static const struct tsr_shader_var *uniform_at(const struct tsr_program *lp, GLint loc,
					       GLsizei *remaining)
{
	uint32_t n = tsr_program_uniform_count(lp);
	for (uint32_t i = 0; i < n; i++) {
		const struct tsr_shader_var *v = tsr_program_uniform(lp, i);
		if (loc >= v->location && loc < v->location + (GLint)v->size) {
			*remaining = (GLsizei)v->size - (loc - v->location);
			return v;
		}
	}
	return NULL;
}

enum call_kind { C_FLOAT, C_INT, C_MATRIX };

/* Checks a Uniform* call against 2.10.4's rules and writes it:
 * values (floats, or ints when ints) are `count` elements of `comps`
 * components. */
static void uniform_set(struct tsr_gles_context *ctx, GLint location, GLsizei count, int comps,
			enum call_kind call, const GLfloat *fv, const GLint *iv)
{
	struct gles_program *p = ctx->program;
	if (!p) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (count < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (location == -1)
		return;
	GLsizei remaining;
	const struct tsr_shader_var *v = uniform_at(p->exe, location, &remaining);
	if (!v) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	int ucomps;
	enum ukind k = type_kind(v->type, &ucomps);
	bool ok = ucomps == comps;
	switch (k) {
	case U_FLOAT: ok = ok && call == C_FLOAT; break;
	case U_INT: ok = ok && call == C_INT; break;
	case U_BOOL: ok = ok && call != C_MATRIX; break;
	case U_SAMPLER: ok = ok && call == C_INT; break;
	case U_MATRIX: ok = ok && call == C_MATRIX; break;
	}
	if (!ok || (count > 1 && v->size == 1)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (count > remaining)
		count = remaining;
	if (k == U_SAMPLER)
		for (GLsizei e = 0; e < count; e++)
			if (iv[e] < 0 || iv[e] >= TSR_GLES_MAX_TEXTURE_UNITS) {
				gles_error(ctx, GL_INVALID_VALUE);
				return;
			}
	/* converted to floats a chunk at a time (no allocation) */
	float buf[256];
	GLsizei per = (GLsizei)(sizeof buf / sizeof buf[0]) / comps;
	for (GLsizei e0 = 0; e0 < count; e0 += per) {
		GLsizei n = count - e0 < per ? count - e0 : per;
		for (GLsizei j = 0; j < n * comps; j++)
			buf[j] = iv ? (float)iv[(size_t)e0 * (size_t)comps + (size_t)j]
				    : fv[(size_t)e0 * (size_t)comps + (size_t)j];
		tsr_program_uniform_write(p->exe, location + e0, (uint32_t)n, buf, NULL);
	}
}

void tsr_gles_Uniform1f(struct tsr_gles_context *ctx, GLint location, GLfloat x)
{
	const GLfloat v[1] = { x };
	uniform_set(ctx, location, 1, 1, C_FLOAT, v, NULL);
}

void tsr_gles_Uniform2f(struct tsr_gles_context *ctx, GLint location, GLfloat x, GLfloat y)
{
	const GLfloat v[2] = { x, y };
	uniform_set(ctx, location, 1, 2, C_FLOAT, v, NULL);
}

void tsr_gles_Uniform3f(struct tsr_gles_context *ctx, GLint location, GLfloat x, GLfloat y,
			GLfloat z)
{
	const GLfloat v[3] = { x, y, z };
	uniform_set(ctx, location, 1, 3, C_FLOAT, v, NULL);
}

void tsr_gles_Uniform4f(struct tsr_gles_context *ctx, GLint location, GLfloat x, GLfloat y,
			GLfloat z, GLfloat w)
{
	const GLfloat v[4] = { x, y, z, w };
	uniform_set(ctx, location, 1, 4, C_FLOAT, v, NULL);
}

void tsr_gles_Uniform1i(struct tsr_gles_context *ctx, GLint location, GLint x)
{
	const GLint v[1] = { x };
	uniform_set(ctx, location, 1, 1, C_INT, NULL, v);
}

void tsr_gles_Uniform2i(struct tsr_gles_context *ctx, GLint location, GLint x, GLint y)
{
	const GLint v[2] = { x, y };
	uniform_set(ctx, location, 1, 2, C_INT, NULL, v);
}

void tsr_gles_Uniform3i(struct tsr_gles_context *ctx, GLint location, GLint x, GLint y, GLint z)
{
	const GLint v[3] = { x, y, z };
	uniform_set(ctx, location, 1, 3, C_INT, NULL, v);
}

void tsr_gles_Uniform4i(struct tsr_gles_context *ctx, GLint location, GLint x, GLint y, GLint z,
			GLint w)
{
	const GLint v[4] = { x, y, z, w };
	uniform_set(ctx, location, 1, 4, C_INT, NULL, v);
}

void tsr_gles_Uniform1fv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLfloat *v)
{
	uniform_set(ctx, location, count, 1, C_FLOAT, v, NULL);
}

void tsr_gles_Uniform2fv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLfloat *v)
{
	uniform_set(ctx, location, count, 2, C_FLOAT, v, NULL);
}

void tsr_gles_Uniform3fv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLfloat *v)
{
	uniform_set(ctx, location, count, 3, C_FLOAT, v, NULL);
}

void tsr_gles_Uniform4fv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLfloat *v)
{
	uniform_set(ctx, location, count, 4, C_FLOAT, v, NULL);
}

void tsr_gles_Uniform1iv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLint *v)
{
	uniform_set(ctx, location, count, 1, C_INT, NULL, v);
}

void tsr_gles_Uniform2iv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLint *v)
{
	uniform_set(ctx, location, count, 2, C_INT, NULL, v);
}

void tsr_gles_Uniform3iv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLint *v)
{
	uniform_set(ctx, location, count, 3, C_INT, NULL, v);
}

void tsr_gles_Uniform4iv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLint *v)
{
	uniform_set(ctx, location, count, 4, C_INT, NULL, v);
}

static void uniform_matrix(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			   GLboolean transpose, int comps, const GLfloat *v)
{
	if (transpose != GL_FALSE) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	uniform_set(ctx, location, count, comps, C_MATRIX, v, NULL);
}

void tsr_gles_UniformMatrix2fv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			       GLboolean transpose, const GLfloat *value)
{
	uniform_matrix(ctx, location, count, transpose, 4, value);
}

void tsr_gles_UniformMatrix3fv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			       GLboolean transpose, const GLfloat *value)
{
	uniform_matrix(ctx, location, count, transpose, 9, value);
}

void tsr_gles_UniformMatrix4fv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			       GLboolean transpose, const GLfloat *value)
{
	uniform_matrix(ctx, location, count, transpose, 16, value);
}

/* The components of the uniform element at location of program, or -1
 * (error recorded). */
static int uniform_get(struct tsr_gles_context *ctx, GLuint program, GLint location,
		       float values[16])
{
	struct gles_program *p = get_program(ctx, program);
	if (!p)
		return -1;
	GLsizei remaining;
	if (!p->link_status || !uniform_at(p->linked, location, &remaining)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return -1;
	}
	return (int)tsr_program_uniform_read(p->linked, location, values);
}

void tsr_gles_GetUniformfv(struct tsr_gles_context *ctx, GLuint program, GLint location,
			   GLfloat *params)
{
	float v[16];
	int n = uniform_get(ctx, program, location, v);
	for (int i = 0; i < n; i++)
		params[i] = v[i];
}

void tsr_gles_GetUniformiv(struct tsr_gles_context *ctx, GLuint program, GLint location,
			   GLint *params)
{
	float v[16];
	int n = uniform_get(ctx, program, location, v);
	for (int i = 0; i < n; i++)
		params[i] = gles_round_int(v[i]);
}

/* ---- the rest of 2.10 ---- */

void tsr_gles_ReleaseShaderCompiler(struct tsr_gles_context *ctx)
{
	(void)ctx;
}

void tsr_gles_ShaderBinary(struct tsr_gles_context *ctx, GLsizei n, const GLuint *shaders,
			   GLenum binaryformat, const void *binary, GLsizei length)
{
	(void)n;
	(void)shaders;
	(void)binaryformat;
	(void)binary;
	(void)length;
	gles_error(ctx, GL_INVALID_ENUM);
}

void tsr_gles_GetShaderPrecisionFormat(struct tsr_gles_context *ctx, GLenum shadertype,
				       GLenum precisiontype, GLint *range, GLint *precision)
{
	if (shadertype != GL_VERTEX_SHADER && shadertype != GL_FRAGMENT_SHADER) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	switch (precisiontype) {
	case GL_LOW_FLOAT: case GL_MEDIUM_FLOAT: case GL_HIGH_FLOAT:
		/* every precision is IEEE single precision */
		range[0] = 127;
		range[1] = 127;
		*precision = 23;
		return;
	case GL_LOW_INT: case GL_MEDIUM_INT: case GL_HIGH_INT:
		/* integers are kept in floats: exact to 2^24 */
		range[0] = 24;
		range[1] = 24;
		*precision = 0;
		return;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
	}
}
