/*
 * debug.c - GL_KHR_debug (the GL ES 2.0 form, entry points with the KHR
 * suffix): object labels, the debug message log, its volume control
 * (DebugMessageControl) per debug group, and the group stack.
 *
 * The volume control is kept as the ordered list of the group's
 * DebugMessageControl calls (rules): a message is enabled when the last
 * rule that matches it says so, else by default (every severity but LOW).
 * That is the spec's per-message state, as each call sets the state of
 * every message it names. PushDebugGroup copies the list, PopDebugGroup
 * drops the copy. The context sends no messages of its own (its errors
 * are not logged): the log holds what DebugMessageInsert and the group
 * stack send, while DEBUG_OUTPUT is enabled (disabled by default: these
 * are not debug contexts).
 */
#include <stdlib.h>
#include <string.h>

#include "gles/gles_priv.h"

static bool valid_source(GLenum s, bool dont_care)
{
	switch (s) {
	case GL_DEBUG_SOURCE_API_KHR: case GL_DEBUG_SOURCE_WINDOW_SYSTEM_KHR:
	case GL_DEBUG_SOURCE_SHADER_COMPILER_KHR: case GL_DEBUG_SOURCE_THIRD_PARTY_KHR:
	case GL_DEBUG_SOURCE_APPLICATION_KHR: case GL_DEBUG_SOURCE_OTHER_KHR:
		return true;
	default: return dont_care && s == GL_DONT_CARE;
	}
}

static bool valid_type(GLenum t, bool dont_care)
{
	switch (t) {
	case GL_DEBUG_TYPE_ERROR_KHR: case GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR_KHR:
	case GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR_KHR: case GL_DEBUG_TYPE_PORTABILITY_KHR:
	case GL_DEBUG_TYPE_PERFORMANCE_KHR: case GL_DEBUG_TYPE_OTHER_KHR:
	case GL_DEBUG_TYPE_MARKER_KHR: case GL_DEBUG_TYPE_PUSH_GROUP_KHR:
	case GL_DEBUG_TYPE_POP_GROUP_KHR:
		return true;
	default: return dont_care && t == GL_DONT_CARE;
	}
}

static bool valid_severity(GLenum s, bool dont_care)
{
	switch (s) {
	case GL_DEBUG_SEVERITY_HIGH_KHR: case GL_DEBUG_SEVERITY_MEDIUM_KHR:
	case GL_DEBUG_SEVERITY_LOW_KHR: case GL_DEBUG_SEVERITY_NOTIFICATION_KHR:
		return true;
	default: return dont_care && s == GL_DONT_CARE;
	}
}

/* The current group's volume control. */
static struct gles_debug_group *group(struct tsr_gles_context *ctx)
{
	return &ctx->debug.groups[ctx->debug.depth];
}

static bool enabled(const struct gles_debug_group *g, GLenum source, GLenum type, GLuint id,
		    GLenum severity)
{
	for (uint32_t i = g->rule_count; i-- > 0;) {
		const struct gles_debug_rule *r = &g->rules[i];
		if ((r->source == GL_DONT_CARE || r->source == source) &&
		    (r->type == GL_DONT_CARE || r->type == type) &&
		    (r->severity == GL_DONT_CARE || r->severity == severity) &&
		    (!r->has_id || r->id == id))
			return r->enabled;
	}
	return severity != GL_DEBUG_SEVERITY_LOW_KHR;
}

static bool add_rule(struct gles_debug_group *g, const struct gles_debug_rule *r)
{
	if (g->rule_count == g->rule_cap) {
		const uint32_t cap = g->rule_cap ? 2 * g->rule_cap : 16;
		struct gles_debug_rule *n = realloc(g->rules, cap * sizeof *n);
		if (!n)
			return false;
		g->rules = n;
		g->rule_cap = cap;
	}
	g->rules[g->rule_count++] = *r;
	return true;
}

/* Sends a message (length characters of text) through the current group's
 * control: to the callback when there is one, else into the log (dropped
 * when the log is full). */
static void send(struct tsr_gles_context *ctx, GLenum source, GLenum type, GLuint id,
		 GLenum severity, GLsizei length, const char *text)
{
	struct gles_debug *d = &ctx->debug;
	if (!d->output || !enabled(group(ctx), source, type, id, severity))
		return;
	if (d->callback) {
		char *z = malloc((size_t)length + 1);
		if (!z) {
			gles_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
		memcpy(z, text, (size_t)length);
		z[length] = '\0';
		d->callback(source, type, id, severity, length, z, d->user);
		free(z);
		return;
	}
	if (d->log_count == TSR_GLES_MAX_DEBUG_LOGGED_MESSAGES)
		return;
	struct gles_debug_message *m =
		&d->log[(d->log_first + d->log_count) % TSR_GLES_MAX_DEBUG_LOGGED_MESSAGES];
	m->text = malloc((size_t)length + 1);
	if (!m->text) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	memcpy(m->text, text, (size_t)length);
	m->text[length] = '\0';
	m->length = length;
	m->source = source;
	m->type = type;
	m->id = id;
	m->severity = severity;
	d->log_count++;
}

/* The characters of message/label s given its length argument (negative:
 * NUL-terminated). */
static GLsizei text_length(GLsizei length, const char *s)
{
	if (!s)
		return 0;
	return length < 0 ? (GLsizei)strnlen(s, (size_t)1 << 30) : length;
}

void tsr_gles_DebugMessageInsertKHR(struct tsr_gles_context *ctx, GLenum source, GLenum type,
				    GLuint id, GLenum severity, GLsizei length, const GLchar *buf)
{
	if ((source != GL_DEBUG_SOURCE_APPLICATION_KHR &&
	     source != GL_DEBUG_SOURCE_THIRD_PARTY_KHR) ||
	    !valid_type(type, false) || !valid_severity(severity, false)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	const GLsizei n = text_length(length, buf);
	if (n >= TSR_GLES_MAX_DEBUG_MESSAGE_LENGTH) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	send(ctx, source, type, id, severity, n, buf ? buf : "");
}

void tsr_gles_DebugMessageControlKHR(struct tsr_gles_context *ctx, GLenum source, GLenum type,
				     GLenum severity, GLsizei count, const GLuint *ids,
				     GLboolean enable)
{
	if (!valid_source(source, true) || !valid_type(type, true) ||
	    !valid_severity(severity, true)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (count < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (count > 0 && (source == GL_DONT_CARE || type == GL_DONT_CARE ||
			  severity != GL_DONT_CARE)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	struct gles_debug_group *g = group(ctx);
	struct gles_debug_rule r = {source, type, severity, 0, false, enable ? true : false};
	if (count == 0 || !ids) {
		if (!add_rule(g, &r))
			gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	r.has_id = true;
	for (GLsizei i = 0; i < count; i++) {
		r.id = ids[i];
		if (!add_rule(g, &r)) {
			gles_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
	}
}

void tsr_gles_DebugMessageCallbackKHR(struct tsr_gles_context *ctx, GLDEBUGPROCKHR callback,
				      const void *user)
{
	ctx->debug.callback = callback;
	ctx->debug.user = user;
}

GLuint tsr_gles_GetDebugMessageLogKHR(struct tsr_gles_context *ctx, GLuint count,
				      GLsizei bufsize, GLenum *sources, GLenum *types, GLuint *ids,
				      GLenum *severities, GLsizei *lengths, GLchar *log)
{
	struct gles_debug *d = &ctx->debug;
	if (log && bufsize < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return 0;
	}
	GLuint n = 0;
	GLsizei used = 0;
	while (n < count && d->log_count > 0) {
		struct gles_debug_message *m = &d->log[d->log_first];
		if (log) {
			if (m->length + 1 > bufsize - used)
				break;
			memcpy(log + used, m->text, (size_t)m->length + 1);
			used += m->length + 1;
		}
		if (sources)
			sources[n] = m->source;
		if (types)
			types[n] = m->type;
		if (ids)
			ids[n] = m->id;
		if (severities)
			severities[n] = m->severity;
		if (lengths)
			lengths[n] = m->length + 1;
		free(m->text);
		m->text = NULL;
		d->log_first = (d->log_first + 1) % TSR_GLES_MAX_DEBUG_LOGGED_MESSAGES;
		d->log_count--;
		n++;
	}
	return n;
}

void tsr_gles_PushDebugGroupKHR(struct tsr_gles_context *ctx, GLenum source, GLuint id,
				GLsizei length, const GLchar *message)
{
	struct gles_debug *d = &ctx->debug;
	if (source != GL_DEBUG_SOURCE_APPLICATION_KHR && source != GL_DEBUG_SOURCE_THIRD_PARTY_KHR) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	const GLsizei n = text_length(length, message);
	if (n >= TSR_GLES_MAX_DEBUG_MESSAGE_LENGTH) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (d->depth + 1 >= TSR_GLES_MAX_DEBUG_GROUP_STACK_DEPTH) {
		gles_error(ctx, GL_STACK_OVERFLOW_KHR);
		return;
	}
	struct gles_debug_group *parent = group(ctx), *g = &d->groups[d->depth + 1];
	char *text = malloc((size_t)n + 1);
	struct gles_debug_rule *rules =
		parent->rule_count ? malloc(parent->rule_count * sizeof *rules) : NULL;
	if (!text || (parent->rule_count && !rules)) {
		free(text);
		free(rules);
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	if (n)
		memcpy(text, message, (size_t)n);
	text[n] = '\0';
	if (rules)
		memcpy(rules, parent->rules, parent->rule_count * sizeof *rules);
	send(ctx, source, GL_DEBUG_TYPE_PUSH_GROUP_KHR, id, GL_DEBUG_SEVERITY_NOTIFICATION_KHR, n,
	     text);
	g->rules = rules;
	g->rule_count = g->rule_cap = parent->rule_count;
	g->source = source;
	g->id = id;
	g->message = text;
	g->length = n;
	d->depth++;
}

static void group_free(struct gles_debug_group *g)
{
	free(g->rules);
	free(g->message);
	memset(g, 0, sizeof *g);
}

void tsr_gles_PopDebugGroupKHR(struct tsr_gles_context *ctx)
{
	struct gles_debug *d = &ctx->debug;
	if (d->depth == 0) {
		gles_error(ctx, GL_STACK_UNDERFLOW_KHR);
		return;
	}
	struct gles_debug_group g = d->groups[d->depth];
	memset(&d->groups[d->depth], 0, sizeof g);
	d->depth--;
	send(ctx, g.source, GL_DEBUG_TYPE_POP_GROUP_KHR, g.id, GL_DEBUG_SEVERITY_NOTIFICATION_KHR,
	     g.length, g.message);
	group_free(&g);
}

void gles_debug_release(struct tsr_gles_context *ctx)
{
	struct gles_debug *d = &ctx->debug;
	for (uint32_t i = 0; i <= d->depth; i++)
		group_free(&d->groups[i]);
	for (uint32_t i = 0; i < TSR_GLES_MAX_DEBUG_LOGGED_MESSAGES; i++)
		free(d->log[i].text);
	memset(d, 0, sizeof *d);
}

bool gles_debug_get(const struct tsr_gles_context *ctx, GLenum pname, GLint *v)
{
	const struct gles_debug *d = &ctx->debug;
	switch (pname) {
	case GL_MAX_DEBUG_MESSAGE_LENGTH_KHR: *v = TSR_GLES_MAX_DEBUG_MESSAGE_LENGTH; return true;
	case GL_MAX_DEBUG_LOGGED_MESSAGES_KHR: *v = TSR_GLES_MAX_DEBUG_LOGGED_MESSAGES; return true;
	case GL_MAX_DEBUG_GROUP_STACK_DEPTH_KHR:
		*v = TSR_GLES_MAX_DEBUG_GROUP_STACK_DEPTH;
		return true;
	case GL_MAX_LABEL_LENGTH_KHR: *v = TSR_GLES_MAX_LABEL_LENGTH; return true;
	case GL_DEBUG_LOGGED_MESSAGES_KHR: *v = (GLint)d->log_count; return true;
	case GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH_KHR:
		*v = d->log_count ? d->log[d->log_first].length + 1 : 0;
		return true;
	case GL_DEBUG_GROUP_STACK_DEPTH_KHR: *v = (GLint)d->depth + 1; return true;
	default: return false;
	}
}

void tsr_gles_GetPointervKHR(struct tsr_gles_context *ctx, GLenum pname, void **params)
{
	switch (pname) {
	case GL_DEBUG_CALLBACK_FUNCTION_KHR:
		memcpy(params, &ctx->debug.callback, sizeof *params);
		return;
	case GL_DEBUG_CALLBACK_USER_PARAM_KHR:
		*params = (void *)ctx->debug.user;
		return;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
	}
}

/* ---- object labels ---- */

/* The label slot of object name of kind identifier; NULL with the error
 * recorded (INVALID_ENUM for a kind, INVALID_VALUE for a name). */
static char **label_of(struct tsr_gles_context *ctx, GLenum identifier, GLuint name)
{
	switch (identifier) {
	case GL_BUFFER_KHR: {
		struct gles_buffer *b = gles_names_get(&ctx->buffers, name);
		if (b)
			return &b->label;
		break;
	}
	case GL_SHADER_KHR: case GL_PROGRAM_KHR: {
		void *o = gles_names_get(&ctx->shprogs, name);
		if (!o)
			break;
		const enum gles_sp_kind k = *(const enum gles_sp_kind *)o;
		if (k == GLES_SHADER && identifier == GL_SHADER_KHR)
			return &((struct gles_shader *)o)->label;
		if (k == GLES_PROGRAM && identifier == GL_PROGRAM_KHR)
			return &((struct gles_program *)o)->label;
		break;
	}
	case GL_TEXTURE: {
		struct gles_texture *t = gles_names_get(&ctx->textures, name);
		if (t)
			return &t->label;
		break;
	}
	case GL_RENDERBUFFER: {
		struct gles_renderbuffer *rb = gles_names_get(&ctx->renderbuffers, name);
		if (rb)
			return &rb->label;
		break;
	}
	case GL_FRAMEBUFFER: {
		struct gles_framebuffer *fb = gles_names_get(&ctx->framebuffers, name);
		if (fb)
			return &fb->label;
		break;
	}
	/* kinds of objects GL ES 2.0 has none of: no name names one */
	case GL_VERTEX_ARRAY_KHR: case GL_QUERY_KHR: case GL_PROGRAM_PIPELINE_KHR:
	case GL_SAMPLER_KHR:
		break;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	gles_error(ctx, GL_INVALID_VALUE);
	return NULL;
}

static void set_label(struct tsr_gles_context *ctx, char **slot, GLsizei length,
		      const GLchar *label)
{
	const GLsizei n = text_length(length, label);
	if (n >= TSR_GLES_MAX_LABEL_LENGTH) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	char *copy = NULL;
	if (label) {
		copy = malloc((size_t)n + 1);
		if (!copy) {
			gles_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
		memcpy(copy, label, (size_t)n);
		copy[n] = '\0';
	}
	free(*slot);
	*slot = copy;
}

static void get_label(struct tsr_gles_context *ctx, const char *have, GLsizei bufsize,
		      GLsizei *length, GLchar *label)
{
	if (bufsize < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	const GLsizei n = have ? (GLsizei)strlen(have) : 0;
	if (!label) {
		if (length)
			*length = n;
		return;
	}
	GLsizei k = 0;
	if (bufsize > 0) {
		k = n < bufsize - 1 ? n : bufsize - 1;
		if (k)
			memcpy(label, have, (size_t)k);
		label[k] = '\0';
	}
	if (length)
		*length = k;
}

void tsr_gles_ObjectLabelKHR(struct tsr_gles_context *ctx, GLenum identifier, GLuint name,
			     GLsizei length, const GLchar *label)
{
	char **slot = label_of(ctx, identifier, name);
	if (slot)
		set_label(ctx, slot, length, label);
}

void tsr_gles_GetObjectLabelKHR(struct tsr_gles_context *ctx, GLenum identifier, GLuint name,
				GLsizei bufsize, GLsizei *length, GLchar *label)
{
	char **slot = label_of(ctx, identifier, name);
	if (slot)
		get_label(ctx, *slot, bufsize, length, label);
}

/* GL ES 2.0 has no sync objects: no pointer names one. */
void tsr_gles_ObjectPtrLabelKHR(struct tsr_gles_context *ctx, const void *ptr, GLsizei length,
				const GLchar *label)
{
	(void)ptr;
	(void)length;
	(void)label;
	gles_error(ctx, GL_INVALID_VALUE);
}

void tsr_gles_GetObjectPtrLabelKHR(struct tsr_gles_context *ctx, const void *ptr,
				   GLsizei bufsize, GLsizei *length, GLchar *label)
{
	(void)ptr;
	(void)bufsize;
	(void)length;
	(void)label;
	gles_error(ctx, GL_INVALID_VALUE);
}
