/*
 * shader.c - a shader object (shader.h): compiling is the frontend
 * (frontend.c: GLSL ES 1.00 -> flattened SPIR-V) then the lowering
 * (lower.c: SPIR-V -> ISA); a failure of either is COMPILE_STATUS false
 * with its message in the info log, as glCompileShader reports it.
 */
#include <stdlib.h>
#include <string.h>

#include "shader/shader_priv.h"

uint32_t tsr_sh_gltype_comps(uint32_t t)
{
	switch (t) {
	case TSR_GL_FLOAT: case TSR_GL_INT: case TSR_GL_BOOL: case TSR_GL_SAMPLER_2D:
	case TSR_GL_SAMPLER_CUBE:
		return 1;
	case TSR_GL_FLOAT_VEC2: case TSR_GL_INT_VEC2: case TSR_GL_BOOL_VEC2: case TSR_GL_FLOAT_MAT2:
		return 2;
	case TSR_GL_FLOAT_VEC3: case TSR_GL_INT_VEC3: case TSR_GL_BOOL_VEC3: case TSR_GL_FLOAT_MAT3:
		return 3;
	case TSR_GL_FLOAT_VEC4: case TSR_GL_INT_VEC4: case TSR_GL_BOOL_VEC4: case TSR_GL_FLOAT_MAT4:
		return 4;
	default:
		return 0;
	}
}

uint32_t tsr_sh_gltype_cols(uint32_t t)
{
	switch (t) {
	case TSR_GL_FLOAT_MAT2: return 2;
	case TSR_GL_FLOAT_MAT3: return 3;
	case TSR_GL_FLOAT_MAT4: return 4;
	default: return tsr_sh_gltype_comps(t) ? 1 : 0;
	}
}

enum tsr_status tsr_shader_compile(enum tsr_shader_stage stage, const char *source,
				   struct tsr_shader **out, struct tsr_error *err)
{
	*out = NULL;
	if (stage != TSR_SHADER_VERTEX && stage != TSR_SHADER_FRAGMENT)
		return tsr_error_set(err, TSR_ERR_CONFIG, "shader stage %d is neither vertex nor fragment",
				     (int)stage);
	struct tsr_shader *s = calloc(1, sizeof(*s));
	if (!s)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a shader");
	s->stage = stage;
	struct tsr_sh_text log = {0};
	uint32_t *words = NULL;
	size_t n = 0;
	enum tsr_status st = tsr_sh_frontend(stage, source ? source : "", &words, &n, &s->declared,
					     &log, err);
	if (st != TSR_OK) {
		free(s->declared);
		free(log.s);
		free(s);
		return st;
	}
	if (words) {
		struct tsr_error lerr;
		enum tsr_status ls = tsr_sh_lower(stage, words, n, &s->st, &lerr);
		free(words);
		if (ls == TSR_ERR_NOMEM) {
			free(log.s);
			free(s);
			return tsr_error_set(err, TSR_ERR_NOMEM, "%s", lerr.msg);
		}
		if (ls == TSR_OK)
			s->compiled = true;
		else
			tsr_sh_text_add(&log, "ERROR: %s\n", lerr.msg);
	}
	if (log.failed) {
		free(log.s);
		tsr_shader_destroy(s);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a shader info log");
	}
	s->log = log.s;
	*out = s;
	return TSR_OK;
}

void tsr_shader_destroy(struct tsr_shader *s)
{
	if (!s)
		return;
	tsr_sh_stage_release(&s->st);
	free(s->log);
	free(s->declared);
	free(s);
}

bool tsr_shader_compiled(const struct tsr_shader *s)
{
	return s && s->compiled;
}

const char *tsr_shader_info_log(const struct tsr_shader *s)
{
	return s && s->log ? s->log : "";
}

enum tsr_shader_stage tsr_shader_stage(const struct tsr_shader *s)
{
	return s->stage;
}

uint32_t tsr_shader_instruction_count(const struct tsr_shader *s)
{
	return s && s->compiled ? s->st.count : 0;
}

uint32_t tsr_shader_register_count(const struct tsr_shader *s)
{
	return s && s->compiled ? s->st.regs : 0;
}
