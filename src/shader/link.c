/*
 * link.c - a program: a vertex and a fragment shader linked (OpenGL ES
 * 2.0, Section 2.10.3; GLSL ES 1.00 Section 10 rules as far as they bind
 * two stages): varyings matched by name and type and given vec4 slots,
 * attributes given locations (glBindAttribLocation's first, then the
 * lowest free ones), uniforms merged by name across the stages and given
 * locations (one per array element), and the uniform storage the driver
 * writes per location (a constant bank per stage, each value broadcast to
 * the 4 lanes, as exec.c reads it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shader/shader_priv.h"

static void stage_free(struct tsr_prog_stage *st)
{
	free(st->code);
	free(st->cbank);
	free(st->in);
	free(st->out);
	memset(st, 0, sizeof(*st));
}

void tsr_program_destroy(struct tsr_program *p)
{
	if (!p)
		return;
	p->destroyed = true;
	if (p->holders)  /* the last snapshot to go frees it (tsr_sh_program_release) */
		return;
	stage_free(&p->st[0]);
	stage_free(&p->st[1]);
	free(p->attribs);
	free(p->uniforms);
	free(p->locs);
	free(p->varyings);
	free(p->log);
	free(p);
}

static bool push_io(struct tsr_sh_io **arr, uint32_t *n, uint16_t reg, uint32_t index, uint8_t kind)
{
	struct tsr_sh_io *a = realloc(*arr, (size_t)(*n + 1) * sizeof(**arr));
	if (!a)
		return false;
	*arr = a;
	a[*n].reg = reg;
	a[*n].index = (uint8_t)index;
	a[*n].kind = kind;
	(*n)++;
	return true;
}

static bool push_var(struct tsr_shader_var **arr, uint32_t *n, const char *name, uint32_t type,
		     uint32_t size, int32_t location)
{
	struct tsr_shader_var *a = realloc(*arr, (size_t)(*n + 1) * sizeof(**arr));
	if (!a)
		return false;
	*arr = a;
	memset(&a[*n], 0, sizeof(a[*n]));
	snprintf(a[*n].name, sizeof(a[*n].name), "%s", name);
	a[*n].type = type;
	a[*n].size = size;
	a[*n].location = location;
	(*n)++;
	return true;
}

static const struct tsr_sh_leaf *find_leaf(const struct tsr_sh_leaf *l, uint32_t n, const char *name)
{
	for (uint32_t i = 0; i < n; i++)
		if (strcmp(l[i].name, name) == 0)
			return &l[i];
	return NULL;
}

/* copies a stage's code and broadcasts its constant bank */
static bool copy_stage(struct tsr_prog_stage *d, const struct tsr_sh_stage *s)
{
	d->code = malloc((size_t)s->count * sizeof(*d->code));
	size_t bytes = ((size_t)(s->const_regs ? s->const_regs : 1) * 16 * sizeof(float) + 15) & ~(size_t)15;
	d->cbank = aligned_alloc(16, bytes);
	if (!d->code || !d->cbank)
		return false;
	memcpy(d->code, s->code, (size_t)s->count * sizeof(*d->code));
	memset(d->cbank, 0, bytes);
	for (uint32_t r = 0; r < s->const_regs; r++)
		for (int c = 0; c < 4; c++)
			for (int l = 0; l < 4; l++)
				d->cbank[r * 16 + c * 4 + l] = s->consts[r][c];
	d->count = s->count;
	d->regs = s->regs;
	d->const_regs = s->const_regs;
	return true;
}

static const char *type_name(uint32_t t)
{
	switch (t) {
	case TSR_GL_FLOAT: return "float";
	case TSR_GL_INT: return "int";
	case TSR_GL_BOOL: return "bool";
	case TSR_GL_FLOAT_VEC2: return "vec2";
	case TSR_GL_FLOAT_VEC3: return "vec3";
	case TSR_GL_FLOAT_VEC4: return "vec4";
	case TSR_GL_INT_VEC2: return "ivec2";
	case TSR_GL_INT_VEC3: return "ivec3";
	case TSR_GL_INT_VEC4: return "ivec4";
	case TSR_GL_BOOL_VEC2: return "bvec2";
	case TSR_GL_BOOL_VEC3: return "bvec3";
	case TSR_GL_BOOL_VEC4: return "bvec4";
	case TSR_GL_FLOAT_MAT2: return "mat2";
	case TSR_GL_FLOAT_MAT3: return "mat3";
	case TSR_GL_FLOAT_MAT4: return "mat4";
	case TSR_GL_SAMPLER_2D: return "sampler2D";
	case TSR_GL_SAMPLER_CUBE: return "samplerCube";
	default: return "?";
	}
}

/* Whether name is in a shader's list of declared outputs. */
static bool declared_in(const char *list, const char *name)
{
	for (const char *d = list; d && *d; d += strlen(d) + 1)
		if (strcmp(d, name) == 0)
			return true;
	return false;
}

/* vs_declared: the vertex shader's declared outputs (struct tsr_shader) */
static bool link_varyings(struct tsr_program *p, const struct tsr_sh_stage *vs,
			  const struct tsr_sh_stage *fs, const char *vs_declared,
			  struct tsr_sh_text *log)
{
	bool ok = true;
	uint32_t slot = 0;
	for (uint32_t i = 0; i < fs->n_inputs; i++) {
		const struct tsr_sh_leaf *in = &fs->inputs[i];
		if (in->builtin != TSR_SH_BI_NONE)
			continue;
		const struct tsr_sh_leaf *o = find_leaf(vs->outputs, vs->n_outputs, in->name);
		if (!o && declared_in(vs_declared, in->name))
			continue;  /* declared, never written: undefined (GLSL ES 4.3.5), read as 0 */
		if (!o) {
			tsr_sh_text_add(log, "ERROR: varying '%s' is read by the fragment shader but not "
				       "declared by the vertex shader\n", in->name);
			ok = false;
			continue;
		}
		if (o->invariant != in->invariant) {
			/* GLSL ES 1.00 Section 4.6.4: invariance of a varying must match */
			tsr_sh_text_add(log, "ERROR: varying '%s' is %sinvariant in the vertex shader and "
				       "%sinvariant in the fragment shader\n", in->name,
				       o->invariant ? "" : "not ", in->invariant ? "" : "not ");
			ok = false;
			continue;
		}
		if (o->gltype != in->gltype || o->array_size != in->array_size) {
			tsr_sh_text_add(log, "ERROR: varying '%s' is %s%s in the vertex shader and %s%s in the "
				       "fragment shader\n", in->name, type_name(o->gltype),
				       o->array_size > 1 ? "[]" : "", type_name(in->gltype),
				       in->array_size > 1 ? "[]" : "");
			ok = false;
			continue;
		}
		uint32_t n = in->array_size * in->cols;
		if (slot + n > TSR_SHADER_MAX_VARYINGS) {
			tsr_sh_text_add(log, "ERROR: too many varyings: '%s' needs slots %u..%u, the limit "
				       "is %d vec4 slots\n", in->name, slot, slot + n - 1, TSR_SHADER_MAX_VARYINGS);
			ok = false;
			continue;
		}
		for (uint32_t k = 0; k < n; k++) {
			if (!push_io(&p->st[0].out, &p->st[0].n_out, (uint16_t)(o->reg + k), slot + k, TSR_SH_BI_NONE) ||
			    !push_io(&p->st[1].in, &p->st[1].n_in, (uint16_t)(in->reg + k), slot + k, TSR_SH_BI_NONE))
				return log->failed = true, false;
		}
		if (!push_var(&p->varyings, &p->n_varyings, in->name, in->gltype, in->array_size, (int32_t)slot))
			return log->failed = true, false;
		slot += n;
	}
	p->n_slots = slot;
	/* GLSL ES 1.00 Section 4.6.4: gl_FragCoord may be invariant only if
	 * gl_Position is, gl_PointCoord only if gl_PointSize is */
	for (uint32_t i = 0; i < fs->n_inputs; i++) {
		const struct tsr_sh_leaf *in = &fs->inputs[i];
		if (!in->invariant || (in->builtin != TSR_SH_BI_FRAG_COORD &&
				       in->builtin != TSR_SH_BI_POINT_COORD))
			continue;
		const uint8_t want = in->builtin == TSR_SH_BI_FRAG_COORD ? TSR_SH_BI_POSITION
									 : TSR_SH_BI_POINT_SIZE;
		bool inv = false;
		for (uint32_t k = 0; k < vs->n_outputs; k++)
			if (vs->outputs[k].builtin == want && vs->outputs[k].invariant)
				inv = true;
		if (!inv) {
			tsr_sh_text_add(log, "ERROR: %s is invariant in the fragment shader but %s is not "
				       "invariant in the vertex shader (GLSL ES 1.00 4.6.4)\n",
				       want == TSR_SH_BI_POSITION ? "gl_FragCoord" : "gl_PointCoord",
				       want == TSR_SH_BI_POSITION ? "gl_Position" : "gl_PointSize");
			ok = false;
		}
	}
	/* the built-ins */
	for (uint32_t i = 0; i < vs->n_outputs; i++) {
		const struct tsr_sh_leaf *o = &vs->outputs[i];
		if ((o->builtin == TSR_SH_BI_POSITION || o->builtin == TSR_SH_BI_POINT_SIZE) &&
		    !push_io(&p->st[0].out, &p->st[0].n_out, o->reg, 0, o->builtin))
			return log->failed = true, false;
	}
	for (uint32_t i = 0; i < fs->n_inputs; i++) {
		const struct tsr_sh_leaf *in = &fs->inputs[i];
		if (in->builtin == TSR_SH_BI_NONE)
			continue;
		/* gl_LastFragData[k]: element k, register reg + k, index k */
		const uint32_t n = in->builtin == TSR_SH_BI_LAST_FRAG_DATA ? in->array_size : 1;
		for (uint32_t k = 0; k < n; k++)
			if (!push_io(&p->st[1].in, &p->st[1].n_in, (uint16_t)(in->reg + k), k, in->builtin))
				return log->failed = true, false;
	}
	for (uint32_t i = 0; i < fs->n_outputs; i++) {
		const struct tsr_sh_leaf *o = &fs->outputs[i];
		if (o->builtin == TSR_SH_BI_FRAG_COLOR &&
		    !push_io(&p->st[1].out, &p->st[1].n_out, o->reg, 0, TSR_SH_BI_FRAG_COLOR))
			return log->failed = true, false;
		/* gl_FragData[k]: element k (draw buffer k), register reg + k */
		for (uint32_t k = 0; o->builtin == TSR_SH_BI_FRAG_DATA && k < o->array_size && k < 4;
		     k++)
			if (!push_io(&p->st[1].out, &p->st[1].n_out, (uint16_t)(o->reg + k), k,
				     TSR_SH_BI_FRAG_DATA))
				return log->failed = true, false;
		if (o->builtin == TSR_SH_BI_FRAG_DEPTH &&
		    !push_io(&p->st[1].out, &p->st[1].n_out, o->reg, 0, TSR_SH_BI_FRAG_DEPTH))
			return log->failed = true, false;
		/* gl_SecondaryFragColorEXT or gl_SecondaryFragDataEXT[0]: draw buffer 0's
		 * second blend source */
		if (o->builtin == TSR_SH_BI_SECONDARY_COLOR &&
		    !push_io(&p->st[1].out, &p->st[1].n_out, o->reg, 0, TSR_SH_BI_SECONDARY_COLOR))
			return log->failed = true, false;
	}
	return ok;
}

static bool link_attribs(struct tsr_program *p, const struct tsr_sh_stage *vs,
			 const struct tsr_attrib_binding *b, uint32_t nb, struct tsr_sh_text *log)
{
	int32_t owner[TSR_SHADER_MAX_ATTRIBS];
	for (int i = 0; i < TSR_SHADER_MAX_ATTRIBS; i++)
		owner[i] = -1;
	bool ok = true;
	int32_t *loc = calloc(vs->n_inputs ? vs->n_inputs : 1, sizeof(*loc));
	if (!loc)
		return log->failed = true, false;
	/* bound ones first */
	for (uint32_t i = 0; i < vs->n_inputs; i++) {
		const struct tsr_sh_leaf *a = &vs->inputs[i];
		loc[i] = -1;
		if (a->builtin != TSR_SH_BI_NONE)
			continue;
		for (uint32_t k = 0; k < nb; k++)
			if (b[k].name && strcmp(b[k].name, a->name) == 0)
				loc[i] = (int32_t)b[k].location;
		if (loc[i] < 0)
			continue;
		if ((uint32_t)loc[i] + a->cols > TSR_SHADER_MAX_ATTRIBS) {
			tsr_sh_text_add(log, "ERROR: attribute '%s' bound to location %d: it needs %u "
				       "locations, the limit is %d\n", a->name, loc[i], a->cols, TSR_SHADER_MAX_ATTRIBS);
			ok = false;
			continue;
		}
		for (uint32_t k = 0; k < a->cols; k++) {
			if (owner[loc[i] + (int32_t)k] >= 0) {
				tsr_sh_text_add(log, "ERROR: attributes '%s' and '%s' are bound to the same "
					       "location %d\n", vs->inputs[owner[loc[i] + (int32_t)k]].name, a->name,
					       loc[i] + (int32_t)k);
				ok = false;
			}
			owner[loc[i] + (int32_t)k] = (int32_t)i;
		}
	}
	/* then the lowest free locations, in declaration order */
	for (uint32_t i = 0; i < vs->n_inputs && ok; i++) {
		const struct tsr_sh_leaf *a = &vs->inputs[i];
		if (a->builtin != TSR_SH_BI_NONE || loc[i] >= 0)
			continue;
		for (int32_t l = 0; l + (int32_t)a->cols <= TSR_SHADER_MAX_ATTRIBS && loc[i] < 0; l++) {
			bool free_run = true;
			for (uint32_t k = 0; k < a->cols; k++)
				free_run &= owner[l + (int32_t)k] < 0;
			if (free_run) {
				loc[i] = l;
				for (uint32_t k = 0; k < a->cols; k++)
					owner[l + (int32_t)k] = (int32_t)i;
			}
		}
		if (loc[i] < 0) {
			tsr_sh_text_add(log, "ERROR: too many attributes: no room for '%s' in %d locations\n",
				       a->name, TSR_SHADER_MAX_ATTRIBS);
			ok = false;
		}
	}
	for (uint32_t i = 0; i < vs->n_inputs && ok; i++) {
		const struct tsr_sh_leaf *a = &vs->inputs[i];
		if (a->builtin != TSR_SH_BI_NONE)
			continue;
		for (uint32_t k = 0; k < a->cols; k++)
			if (!push_io(&p->st[0].in, &p->st[0].n_in, (uint16_t)(a->reg + k), (uint32_t)loc[i] + k,
				     TSR_SH_BI_NONE)) {
				free(loc);
				return log->failed = true, false;
			}
		if (!push_var(&p->attribs, &p->n_attribs, a->name, a->gltype, 1, loc[i])) {
			free(loc);
			return log->failed = true, false;
		}
	}
	free(loc);
	return ok;
}

static bool link_uniforms(struct tsr_program *p, const struct tsr_sh_stage *st[2], struct tsr_sh_text *log)
{
	bool ok = true;
	for (int s = 0; s < 2; s++)
		if (st[s]->uniform_regs > TSR_SHADER_MAX_UNIFORM_VECTORS) {
			tsr_sh_text_add(log, "ERROR: the %s shader uses %u uniform vectors, the limit is %d\n",
				       s ? "fragment" : "vertex", st[s]->uniform_regs, TSR_SHADER_MAX_UNIFORM_VECTORS);
			ok = false;
		}
	for (int s = 0; s < 2; s++) {
		for (uint32_t i = 0; i < st[s]->n_uniforms; i++) {
			const struct tsr_sh_leaf *u = &st[s]->uniforms[i];
			const struct tsr_sh_leaf *other = s == 1 ? find_leaf(st[0]->uniforms, st[0]->n_uniforms, u->name)
								 : find_leaf(st[1]->uniforms, st[1]->n_uniforms, u->name);
			if (s == 1 && other)
				continue; /* placed with the vertex shader's */
			if (other && (other->gltype != u->gltype || other->array_size != u->array_size)) {
				tsr_sh_text_add(log, "ERROR: uniform '%s' is %s%s in the vertex shader and %s%s in "
					       "the fragment shader\n", u->name, type_name(u->gltype),
					       u->array_size > 1 ? "[]" : "", type_name(other->gltype),
					       other->array_size > 1 ? "[]" : "");
				ok = false;
				continue;
			}
			/* GLSL ES 1.00 Section 4.5.3: a uniform declared in both stages
			 * must have the same precision; checked for the uniforms both
			 * stages use, as Mesa does (those the optimizer removed from a
			 * stage are not compared). mediump and lowp are both
			 * RelaxedPrecision in the SPIR-V: only highp against the other two
			 * is told apart. */
			if (other && other->relaxed != u->relaxed) {
				tsr_sh_text_add(log, "ERROR: uniform '%s' is %s in the vertex shader and %s in "
					       "the fragment shader (GLSL ES 1.00 4.5.3: precisions must "
					       "match)\n", u->name, u->relaxed ? "mediump or lowp" : "highp",
					       other->relaxed ? "mediump or lowp" : "highp");
				ok = false;
				continue;
			}
			char name[TSR_SHADER_MAX_NAME + 4];
			snprintf(name, sizeof(name), "%s%s", u->name, u->is_array ? "[0]" : "");
			if (strlen(name) >= TSR_SHADER_MAX_NAME) {
				tsr_sh_text_add(log, "ERROR: uniform name '%s' is too long\n", name);
				ok = false;
				continue;
			}
			if (!push_var(&p->uniforms, &p->n_uniforms, name, u->gltype, u->array_size, (int32_t)p->n_locs))
				return log->failed = true, false;
			struct tsr_sh_uloc *l = realloc(p->locs, (size_t)(p->n_locs + u->array_size) * sizeof(*l));
			if (!l)
				return log->failed = true, false;
			p->locs = l;
			for (uint32_t e = 0; e < u->array_size; e++) {
				struct tsr_sh_uloc *x = &p->locs[p->n_locs++];
				x->gltype = u->gltype;
				x->comps = u->comps;
				x->cols = u->cols;
				x->sampler = u->sampler;
				x->remaining = (uint16_t)(u->array_size - e);
				const struct tsr_sh_leaf *vs_leaf = s == 0 ? u : other, *fs_leaf = s == 0 ? other : u;
				x->reg[0] = vs_leaf ? (uint16_t)((vs_leaf->reg & TSR_SH_REG_MASK) + e * u->cols) : 0xffff;
				x->reg[1] = fs_leaf ? (uint16_t)((fs_leaf->reg & TSR_SH_REG_MASK) + e * u->cols) : 0xffff;
			}
		}
	}
	return ok;
}

enum tsr_status tsr_program_link(const struct tsr_shader *vs, const struct tsr_shader *fs,
				 const struct tsr_attrib_binding *bindings, uint32_t binding_count,
				 struct tsr_program **out, struct tsr_error *err)
{
	*out = NULL;
	static _Atomic uint64_t next_serial = 1;
	struct tsr_program *p = calloc(1, sizeof(*p));
	if (!p)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a program");
	p->serial = next_serial++;
	struct tsr_sh_text log = {0};
	bool ok = true;
	if (!vs || vs->stage != TSR_SHADER_VERTEX) {
		tsr_sh_text_add(&log, "ERROR: no vertex shader attached\n");
		ok = false;
	} else if (!vs->compiled) {
		tsr_sh_text_add(&log, "ERROR: the vertex shader is not compiled\n");
		ok = false;
	}
	if (!fs || fs->stage != TSR_SHADER_FRAGMENT) {
		tsr_sh_text_add(&log, "ERROR: no fragment shader attached\n");
		ok = false;
	} else if (!fs->compiled) {
		tsr_sh_text_add(&log, "ERROR: the fragment shader is not compiled\n");
		ok = false;
	}
	if (ok) {
		const struct tsr_sh_stage *st[2] = {&vs->st, &fs->st};
		ok = link_varyings(p, st[0], st[1], vs->declared, &log);
		ok = link_attribs(p, st[0], bindings, binding_count, &log) && ok;
		ok = link_uniforms(p, st, &log) && ok;
		if (ok && !log.failed) {
			if (!copy_stage(&p->st[0], st[0]) || !copy_stage(&p->st[1], st[1]))
				log.failed = true;
		}
	}
	if (log.failed) {
		free(log.s);
		tsr_program_destroy(p);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory linking a program");
	}
	p->linked = ok;
	p->log = log.s;
	if (!ok) {
		/* a program that does not link reports nothing */
		p->n_attribs = p->n_uniforms = p->n_locs = p->n_varyings = p->n_slots = 0;
	}
	*out = p;
	return TSR_OK;
}

bool tsr_program_linked(const struct tsr_program *p)
{
	return p && p->linked;
}

const char *tsr_program_info_log(const struct tsr_program *p)
{
	return p && p->log ? p->log : "";
}

uint32_t tsr_program_attrib_count(const struct tsr_program *p)
{
	return p->n_attribs;
}

uint32_t tsr_program_uniform_count(const struct tsr_program *p)
{
	return p->n_uniforms;
}

const struct tsr_shader_var *tsr_program_attrib(const struct tsr_program *p, uint32_t index)
{
	return index < p->n_attribs ? &p->attribs[index] : NULL;
}

const struct tsr_shader_var *tsr_program_uniform(const struct tsr_program *p, uint32_t index)
{
	return index < p->n_uniforms ? &p->uniforms[index] : NULL;
}

int32_t tsr_program_attrib_location(const struct tsr_program *p, const char *name)
{
	for (uint32_t i = 0; i < p->n_attribs; i++)
		if (strcmp(p->attribs[i].name, name) == 0)
			return p->attribs[i].location;
	return -1;
}

/* "a[3]" -> base "a", index 3 (1 when subscripted); else index 0 */
static int32_t lookup(const struct tsr_shader_var *v, uint32_t n, const char *name)
{
	size_t len = strlen(name);
	long sub = -1;
	size_t base_len = len;
	if (len > 3 && name[len - 1] == ']') {
		const char *open = strrchr(name, '[');
		if (open && open[1] != ']') {
			char *end;
			sub = strtol(open + 1, &end, 10);
			if (end != name + len - 1 || sub < 0)
				return -1;
			base_len = (size_t)(open - name);
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		const char *vn = v[i].name;
		size_t vl = strlen(vn);
		bool arr = vl > 3 && strcmp(vn + vl - 3, "[0]") == 0;
		size_t vbase = arr ? vl - 3 : vl;
		if (sub >= 0 && arr && vbase == base_len && strncmp(vn, name, base_len) == 0)
			return (uint32_t)sub < v[i].size ? v[i].location + (int32_t)sub : -1;
		if (sub < 0 && vbase == len && strncmp(vn, name, len) == 0)
			return v[i].location;
		if (strcmp(vn, name) == 0)
			return v[i].location;
	}
	return -1;
}

int32_t tsr_program_uniform_location(const struct tsr_program *p, const char *name)
{
	return lookup(p->uniforms, p->n_uniforms, name);
}

int32_t tsr_program_varying_slot(const struct tsr_program *p, const char *name)
{
	return lookup(p->varyings, p->n_varyings, name);
}

uint32_t tsr_program_varying_count(const struct tsr_program *p)
{
	return p->n_slots;
}

enum tsr_status tsr_program_uniform_write(struct tsr_program *p, int32_t location,
					  uint32_t count, const float *values,
					  struct tsr_error *err)
{
	if (location == -1)
		return TSR_OK;
	if (location < 0 || (uint32_t)location >= p->n_locs)
		return tsr_error_set(err, TSR_ERR_CONFIG, "uniform location %d is not an active uniform's",
				     location);
	const struct tsr_sh_uloc *first = &p->locs[location];
	if (count > first->remaining)
		count = first->remaining;
	for (uint32_t e = 0; e < count; e++) {
		const struct tsr_sh_uloc *l = &p->locs[(uint32_t)location + e];
		const float *v = values + (size_t)e * l->comps * l->cols;
		if (l->sampler && (v[0] < 0.0f || v[0] >= (float)TSR_SHADER_MAX_TEXTURE_UNITS || v[0] != (float)(int)v[0]))
			return tsr_error_set(err, TSR_ERR_CONFIG, "sampler unit %g out of range 0..%d", (double)v[0],
					     TSR_SHADER_MAX_TEXTURE_UNITS - 1);
		bool is_bool = l->gltype == TSR_GL_BOOL || (l->gltype >= TSR_GL_BOOL_VEC2 && l->gltype <= TSR_GL_BOOL_VEC4);
		for (int s = 0; s < 2; s++) {
			if (l->reg[s] == 0xffff)
				continue;
			for (uint32_t k = 0; k < l->cols; k++) {
				float *r = &p->st[s].cbank[(size_t)(l->reg[s] + k) * 16];
				for (uint32_t c = 0; c < l->comps; c++) {
					float x = v[k * l->comps + c];
					if (is_bool)
						x = x != 0.0f ? 1.0f : 0.0f;
					for (int lane = 0; lane < 4; lane++)
						r[c * 4 + lane] = x;
				}
			}
		}
	}
	return TSR_OK;
}

uint32_t tsr_program_uniform_read(const struct tsr_program *p, int32_t location, float *values)
{
	if (location < 0 || (uint32_t)location >= p->n_locs)
		return 0;
	const struct tsr_sh_uloc *l = &p->locs[location];
	int s = l->reg[0] != 0xffff ? 0 : 1;
	for (uint32_t k = 0; k < l->cols; k++)
		for (uint32_t c = 0; c < l->comps; c++)
			values[k * l->comps + c] = p->st[s].cbank[(size_t)(l->reg[s] + k) * 16 + c * 4];
	return (uint32_t)l->comps * l->cols;
}

uint32_t tsr_program_unit_usage(const struct tsr_program *p, uint32_t unit)
{
	uint32_t use = 0;
	for (uint32_t i = 0; i < p->n_locs; i++) {
		const struct tsr_sh_uloc *l = &p->locs[i];
		if (!l->sampler)
			continue;
		int s = l->reg[0] != 0xffff ? 0 : 1;
		if ((uint32_t)p->st[s].cbank[(size_t)l->reg[s] * 16] == unit)
			use |= l->sampler;
	}
	return use;
}

uint32_t tsr_program_code(const struct tsr_program *p, enum tsr_shader_stage stage,
			  const struct tsr_sh_inst **code)
{
	const struct tsr_prog_stage *st = &p->st[stage == TSR_SHADER_FRAGMENT];
	*code = st->code;
	return p->linked ? st->count : 0;
}

void tsr_sh_program_hold(struct tsr_program *p)
{
	p->holders++;
}

void tsr_sh_program_release(struct tsr_program *p)
{
	if (--p->holders == 0 && p->destroyed)
		tsr_program_destroy(p);
}

int tsr_program_discards(const struct tsr_program *p)
{
	const struct tsr_sh_inst *code;
	const uint32_t n = tsr_program_code(p, TSR_SHADER_FRAGMENT, &code);
	for (uint32_t i = 0; i < n; i++)
		if (code[i].op == TSR_SH_KILL)
			return 1;
	return 0;
}

int tsr_program_writes_depth(const struct tsr_program *p)
{
	if (!p->linked)
		return 0;
	for (uint32_t i = 0; i < p->st[1].n_out; i++)
		if (p->st[1].out[i].kind == TSR_SH_BI_FRAG_DEPTH)
			return 1;
	return 0;
}

int tsr_program_writes_secondary(const struct tsr_program *p)
{
	if (!p->linked)
		return 0;
	for (uint32_t i = 0; i < p->st[1].n_out; i++)
		if (p->st[1].out[i].kind == TSR_SH_BI_SECONDARY_COLOR)
			return 1;
	return 0;
}

int tsr_program_fetches_color(const struct tsr_program *p)
{
	if (!p->linked)
		return 0;
	for (uint32_t i = 0; i < p->st[1].n_in; i++)
		if (p->st[1].in[i].kind == TSR_SH_BI_LAST_FRAG_DATA)
			return 1;
	return 0;
}

uint64_t tsr_program_serial(const struct tsr_program *p)
{
	return p->serial;
}
