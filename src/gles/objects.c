/*
 * objects.c - the GL ES 2.0 object namespaces (Gen*, Delete*, Is*, Bind*,
 * CreateShader/Program) and buffer objects (2.9, GL_OES_mapbuffer).
 */
#include <stdlib.h>
#include <string.h>

#include "gles/gles_priv.h"

/* ---- namespaces ---- */

void *gles_names_get(const struct gles_names *ns, GLuint name)
{
	return name > 0 && name < ns->cap ? ns->objs[name] : NULL;
}

static bool names_reserved(const struct gles_names *ns, GLuint name)
{
	return name > 0 && name < ns->cap && ns->reserved[name];
}

static bool names_grow(struct gles_names *ns, uint64_t need)
{
	if (need <= ns->cap)
		return true;
	if (need > (uint64_t)TSR_GLES_MAX_NAME + 1)
		return false;
	uint64_t cap = ns->cap ? ns->cap : 64;
	while (cap < need)
		cap *= 2;
	void **objs = realloc(ns->objs, cap * sizeof *objs);
	if (!objs)
		return false;
	ns->objs = objs;
	uint8_t *res = realloc(ns->reserved, cap);
	if (!res)
		return false;
	ns->reserved = res;
	memset(objs + ns->cap, 0, (cap - ns->cap) * sizeof *objs);
	memset(res + ns->cap, 0, cap - ns->cap);
	ns->cap = (uint32_t)cap;
	return true;
}

bool gles_names_gen(struct gles_names *ns, GLsizei n, GLuint *names)
{
	GLuint next = 1;
	for (GLsizei i = 0; i < n; i++) {
		while (names_reserved(ns, next))
			next++;
		if (!names_grow(ns, (uint64_t)next + 1)) {
			for (GLsizei j = 0; j < i; j++)
				ns->reserved[names[j]] = 0;
			return false;
		}
		ns->reserved[next] = 1;
		names[i] = next;
	}
	return true;
}

bool gles_names_put(struct gles_names *ns, GLuint name, void *obj)
{
	if (name == 0 || !names_grow(ns, (uint64_t)name + 1))
		return false;
	ns->objs[name] = obj;
	ns->reserved[name] = 1;
	return true;
}

void gles_names_remove(struct gles_names *ns, GLuint name)
{
	if (name > 0 && name < ns->cap) {
		ns->objs[name] = NULL;
		ns->reserved[name] = 0;
	}
}

void gles_names_release(struct gles_names *ns)
{
	free(ns->objs);
	free(ns->reserved);
	memset(ns, 0, sizeof *ns);
}

void gles_error(struct tsr_gles_context *ctx, GLenum e)
{
	if (ctx->error == GL_NO_ERROR)
		ctx->error = e;
}

GLenum tsr_gles_GetError(struct tsr_gles_context *ctx)
{
	GLenum e = ctx->error;
	ctx->error = GL_NO_ERROR;
	return e;
}

static void gen(struct tsr_gles_context *ctx, struct gles_names *ns, GLsizei n, GLuint *names)
{
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!gles_names_gen(ns, n, names))
		gles_error(ctx, GL_OUT_OF_MEMORY);
}

/* ---- buffers ---- */

void tsr_gles_GenBuffers(struct tsr_gles_context *ctx, GLsizei n, GLuint *buffers)
{
	gen(ctx, &ctx->buffers, n, buffers);
}

void tsr_gles_DeleteBuffers(struct tsr_gles_context *ctx, GLsizei n, const GLuint *buffers)
{
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < n; i++) {
		GLuint name = buffers[i];
		struct gles_buffer *b = gles_names_get(&ctx->buffers, name);
		if (!b) {
			gles_names_remove(&ctx->buffers, name);
			continue;
		}
		if (ctx->array_buffer == name)
			ctx->array_buffer = 0;
		if (ctx->element_array_buffer == name)
			ctx->element_array_buffer = 0;
		for (int a = 0; a < TSR_GLES_MAX_VERTEX_ATTRIBS; a++)
			if (ctx->attribs[a].buffer == name)
				ctx->attribs[a].buffer = 0;
		free(b->data);
		free(b->label);
		free(b);
		gles_names_remove(&ctx->buffers, name);
	}
}

GLboolean tsr_gles_IsBuffer(struct tsr_gles_context *ctx, GLuint buffer)
{
	return gles_names_get(&ctx->buffers, buffer) ? GL_TRUE : GL_FALSE;
}

static GLuint *buffer_binding(struct tsr_gles_context *ctx, GLenum target)
{
	switch (target) {
	case GL_ARRAY_BUFFER: return &ctx->array_buffer;
	case GL_ELEMENT_ARRAY_BUFFER: return &ctx->element_array_buffer;
	default: return NULL;
	}
}

void tsr_gles_BindBuffer(struct tsr_gles_context *ctx, GLenum target, GLuint buffer)
{
	GLuint *binding = buffer_binding(ctx, target);
	if (!binding) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (buffer != 0 && !gles_names_get(&ctx->buffers, buffer)) {
		struct gles_buffer *b = calloc(1, sizeof *b);
		if (!b || !gles_names_put(&ctx->buffers, buffer, b)) {
			free(b);
			gles_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
		b->name = buffer;
		b->usage = GL_STATIC_DRAW;
	}
	*binding = buffer;
}

/* The buffer bound to target; records INVALID_ENUM (bad target) or
 * INVALID_OPERATION (none bound) and returns NULL otherwise. */
static struct gles_buffer *bound_buffer(struct tsr_gles_context *ctx, GLenum target)
{
	GLuint *binding = buffer_binding(ctx, target);
	if (!binding) {
		gles_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	struct gles_buffer *b = gles_names_get(&ctx->buffers, *binding);
	if (!b)
		gles_error(ctx, GL_INVALID_OPERATION);
	return b;
}

void tsr_gles_BufferData(struct tsr_gles_context *ctx, GLenum target, GLsizeiptr size,
			 const void *data, GLenum usage)
{
	if (!buffer_binding(ctx, target) ||
	    (usage != GL_STREAM_DRAW && usage != GL_STATIC_DRAW && usage != GL_DYNAMIC_DRAW)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (size < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	struct gles_buffer *b = bound_buffer(ctx, target);
	if (!b)
		return;
	uint8_t *bytes = NULL;
	if (size > 0) {
		bytes = malloc((size_t)size);
		if (!bytes) {
			gles_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
		if (data)
			memcpy(bytes, data, (size_t)size);
		else
			memset(bytes, 0, (size_t)size);
	}
	free(b->data);
	b->data = bytes;
	b->size = size;
	b->usage = usage;
	b->mapped = false;
}

void tsr_gles_BufferSubData(struct tsr_gles_context *ctx, GLenum target, GLintptr offset,
			    GLsizeiptr size, const void *data)
{
	struct gles_buffer *b = bound_buffer(ctx, target);
	if (!b)
		return;
	if (offset < 0 || size < 0 || offset > b->size || size > b->size - offset) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (b->mapped) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (size > 0 && data)
		memcpy(b->data + offset, data, (size_t)size);
}

void tsr_gles_GetBufferParameteriv(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
				   GLint *params)
{
	if (!buffer_binding(ctx, target)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (pname != GL_BUFFER_SIZE && pname != GL_BUFFER_USAGE && pname != GL_BUFFER_ACCESS_OES &&
	    pname != GL_BUFFER_MAPPED_OES) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	struct gles_buffer *b = bound_buffer(ctx, target);
	if (!b)
		return;
	switch (pname) {
	case GL_BUFFER_SIZE: *params = (GLint)b->size; break;
	case GL_BUFFER_USAGE: *params = (GLint)b->usage; break;
	case GL_BUFFER_ACCESS_OES: *params = GL_WRITE_ONLY_OES; break;
	default: *params = b->mapped ? GL_TRUE : GL_FALSE; break;
	}
}

void *tsr_gles_MapBufferOES(struct tsr_gles_context *ctx, GLenum target, GLenum access)
{
	if (!buffer_binding(ctx, target) || access != GL_WRITE_ONLY_OES) {
		gles_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
	struct gles_buffer *b = bound_buffer(ctx, target);
	if (!b)
		return NULL;
	if (b->mapped) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	b->mapped = true;
	return b->data;
}

GLboolean tsr_gles_UnmapBufferOES(struct tsr_gles_context *ctx, GLenum target)
{
	struct gles_buffer *b = bound_buffer(ctx, target);
	if (!b)
		return GL_FALSE;
	if (!b->mapped) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return GL_FALSE;
	}
	b->mapped = false;
	return GL_TRUE;
}

void tsr_gles_FramebufferFetchBarrierEXT(struct tsr_gles_context *ctx)
{
	(void)ctx;
}

void tsr_gles_DrawBuffersEXT(struct tsr_gles_context *ctx, GLsizei n, const GLenum *bufs)
{
	if (n < 0 || n > TSR_GLES_MAX_DRAW_BUFFERS) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (ctx->framebuffer) {
		/* buffer i: COLOR_ATTACHMENTi_EXT or NONE; those past n NONE */
		uint8_t on = 0;
		for (GLsizei i = 0; i < n && bufs; i++) {
			if (bufs[i] == GL_COLOR_ATTACHMENT0 + (GLenum)i)
				on |= (uint8_t)(1u << i);
			else if (bufs[i] != GL_NONE) {
				gles_error(ctx, GL_INVALID_OPERATION);
				return;
			}
		}
		ctx->framebuffer->draw_buffers = on;
		return;
	}
	if (n != 1 || !bufs) {  /* the default framebuffer: one buffer */
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	const GLenum b = bufs[0];
	if (b != GL_NONE && b != GL_BACK) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	ctx->default_draw_none = b == GL_NONE;
}

void tsr_gles_GetBufferPointervOES(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
				   void **params)
{
	if (!buffer_binding(ctx, target) || pname != GL_BUFFER_MAP_POINTER_OES) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	struct gles_buffer *b = bound_buffer(ctx, target);
	if (b)
		*params = b->mapped ? b->data : NULL;
}

const void *tsr_gles_buffer_data(const struct tsr_gles_context *ctx, GLuint buffer,
				 GLsizeiptr *size_bytes)
{
	const struct gles_buffer *b = gles_names_get(&ctx->buffers, buffer);
	if (!b)
		return NULL;
	if (size_bytes)
		*size_bytes = b->size;
	return b->data;
}

/* ---- textures ---- */

void gles_texture_unref(struct gles_texture *t)
{
	if (!t || --t->refs > 0)
		return;
	for (int f = 0; f < 6; f++)
		for (int l = 0; l < TSR_GLES_MAX_LEVELS; l++)
			free(t->images[f][l].texels);
	free(t->label);
	free(t);
}

void tsr_gles_GenTextures(struct tsr_gles_context *ctx, GLsizei n, GLuint *textures)
{
	gen(ctx, &ctx->textures, n, textures);
}

/* Detaches every attachment of the bound framebuffers (draw and read) that
 * holds t or rb. */
static void detach_from_bound(struct tsr_gles_context *ctx, const struct gles_texture *t,
			      const struct gles_renderbuffer *rb)
{
	for (int k = 0; k < 2; k++) {
	struct gles_framebuffer *fb = k ? ctx->read_framebuffer : ctx->framebuffer;
	if (!fb || (k && fb == ctx->framebuffer))
		continue;
	for (int a = 0; a < GLES_ATTACH_COUNT; a++) {
		struct gles_attachment *at = &fb->att[a];
		if ((t && at->tex == t) || (rb && at->rb == rb)) {
			gles_texture_unref(at->tex);
			gles_renderbuffer_unref(at->rb);
			memset(at, 0, sizeof *at);
			at->type = GL_NONE;
		}
	}
	}
}

void tsr_gles_DeleteTextures(struct tsr_gles_context *ctx, GLsizei n, const GLuint *textures)
{
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < n; i++) {
		struct gles_texture *t = gles_names_get(&ctx->textures, textures[i]);
		gles_names_remove(&ctx->textures, textures[i]);
		if (!t)
			continue;
		for (int u = 0; u < TSR_GLES_MAX_TEXTURE_UNITS; u++) {
			if (ctx->bound_2d[u] == t)
				ctx->bound_2d[u] = ctx->default_2d;
			if (ctx->bound_cube[u] == t)
				ctx->bound_cube[u] = ctx->default_cube;
		}
		detach_from_bound(ctx, t, NULL);
		gles_texture_unref(t);
	}
}

GLboolean tsr_gles_IsTexture(struct tsr_gles_context *ctx, GLuint texture)
{
	const struct gles_texture *t = gles_names_get(&ctx->textures, texture);
	return t && t->target ? GL_TRUE : GL_FALSE;
}

/* A new texture object with GL's initial parameters (table 6.8). */
static struct gles_texture *texture_new(GLuint name, GLenum target)
{
	struct gles_texture *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	static uint64_t serials;
	t->name = name;
	t->target = target;
	t->refs = 1;
	t->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
	t->min_filter = GL_NEAREST_MIPMAP_LINEAR;
	t->mag_filter = GL_LINEAR;
	t->wrap_s = GL_REPEAT;
	t->wrap_t = GL_REPEAT;
	return t;
}

void tsr_gles_BindTexture(struct tsr_gles_context *ctx, GLenum target, GLuint texture)
{
	if (target != GL_TEXTURE_2D && target != GL_TEXTURE_CUBE_MAP) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	struct gles_texture *t;
	if (texture == 0) {
		t = target == GL_TEXTURE_2D ? ctx->default_2d : ctx->default_cube;
	} else {
		t = gles_names_get(&ctx->textures, texture);
		if (t && t->target != target) {
			gles_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		if (!t) {
			t = texture_new(texture, target);
			if (!t || !gles_names_put(&ctx->textures, texture, t)) {
				free(t);
				gles_error(ctx, GL_OUT_OF_MEMORY);
				return;
			}
		}
	}
	if (target == GL_TEXTURE_2D)
		ctx->bound_2d[ctx->active_texture] = t;
	else
		ctx->bound_cube[ctx->active_texture] = t;
}

/* ---- renderbuffers ---- */

void gles_renderbuffer_unref(struct gles_renderbuffer *rb)
{
	if (rb && --rb->refs == 0) {
		free(rb->label);
		free(rb);
	}
}

void tsr_gles_GenRenderbuffers(struct tsr_gles_context *ctx, GLsizei n, GLuint *renderbuffers)
{
	gen(ctx, &ctx->renderbuffers, n, renderbuffers);
}

void tsr_gles_DeleteRenderbuffers(struct tsr_gles_context *ctx, GLsizei n,
				  const GLuint *renderbuffers)
{
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < n; i++) {
		struct gles_renderbuffer *rb = gles_names_get(&ctx->renderbuffers, renderbuffers[i]);
		gles_names_remove(&ctx->renderbuffers, renderbuffers[i]);
		if (!rb)
			continue;
		if (ctx->renderbuffer == renderbuffers[i])
			ctx->renderbuffer = 0;
		detach_from_bound(ctx, NULL, rb);
		gles_renderbuffer_unref(rb);
	}
}

GLboolean tsr_gles_IsRenderbuffer(struct tsr_gles_context *ctx, GLuint renderbuffer)
{
	return gles_names_get(&ctx->renderbuffers, renderbuffer) ? GL_TRUE : GL_FALSE;
}

void tsr_gles_BindRenderbuffer(struct tsr_gles_context *ctx, GLenum target, GLuint renderbuffer)
{
	if (target != GL_RENDERBUFFER) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (renderbuffer != 0 && !gles_names_get(&ctx->renderbuffers, renderbuffer)) {
		struct gles_renderbuffer *rb = calloc(1, sizeof *rb);
		if (!rb || !gles_names_put(&ctx->renderbuffers, renderbuffer, rb)) {
			free(rb);
			gles_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
		static uint64_t serials;
		rb->name = renderbuffer;
		rb->serial = (1ull << 63) | __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
		rb->refs = 1;
		rb->format = GL_RGBA4;
	}
	ctx->renderbuffer = renderbuffer;
}

/* ---- framebuffers ---- */

static void framebuffer_free(struct gles_framebuffer *fb)
{
	for (int a = 0; a < GLES_ATTACH_COUNT; a++) {
		gles_texture_unref(fb->att[a].tex);
		gles_renderbuffer_unref(fb->att[a].rb);
	}
	free(fb->label);
	free(fb);
}

void tsr_gles_GenFramebuffers(struct tsr_gles_context *ctx, GLsizei n, GLuint *framebuffers)
{
	gen(ctx, &ctx->framebuffers, n, framebuffers);
}

void tsr_gles_DeleteFramebuffers(struct tsr_gles_context *ctx, GLsizei n,
				 const GLuint *framebuffers)
{
	if (n < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	for (GLsizei i = 0; i < n; i++) {
		struct gles_framebuffer *fb = gles_names_get(&ctx->framebuffers, framebuffers[i]);
		gles_names_remove(&ctx->framebuffers, framebuffers[i]);
		if (!fb)
			continue;
		if (ctx->framebuffer == fb)
			ctx->framebuffer = NULL;
		if (ctx->read_framebuffer == fb)
			ctx->read_framebuffer = NULL;
		framebuffer_free(fb);
	}
}

GLboolean tsr_gles_IsFramebuffer(struct tsr_gles_context *ctx, GLuint framebuffer)
{
	return gles_names_get(&ctx->framebuffers, framebuffer) ? GL_TRUE : GL_FALSE;
}

void tsr_gles_BindFramebuffer(struct tsr_gles_context *ctx, GLenum target, GLuint framebuffer)
{
	/* FRAMEBUFFER binds both (GL_NV_framebuffer_blit) */
	struct gles_framebuffer **binding = gles_fb_binding(ctx, target);
	if (!binding) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (framebuffer == 0) {
		*binding = NULL;
		if (target == GL_FRAMEBUFFER)
			ctx->read_framebuffer = NULL;
		return;
	}
	struct gles_framebuffer *fb = gles_names_get(&ctx->framebuffers, framebuffer);
	if (!fb) {
		fb = calloc(1, sizeof *fb);
		if (!fb || !gles_names_put(&ctx->framebuffers, framebuffer, fb)) {
			free(fb);
			gles_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
		fb->name = framebuffer;
		fb->draw_buffers = 1;  /* DRAW_BUFFER0_EXT COLOR_ATTACHMENT0, the others NONE */
		for (int a = 0; a < GLES_ATTACH_COUNT; a++)
			fb->att[a].type = GL_NONE;
	}
	*binding = fb;
	if (target == GL_FRAMEBUFFER)
		ctx->read_framebuffer = fb;
}

/* ---- shaders and programs: the shared namespace ---- */

void gles_shader_free(struct gles_shader *s)
{
	if (!s)
		return;
	free(s->source);
	tsr_shader_destroy(s->compiled);
	free(s->label);
	free(s);
}

/* Frees a shader flagged for deletion once no program holds it. */
static void shader_release(struct tsr_gles_context *ctx, struct gles_shader *s)
{
	if (s && s->delete_pending && s->attached == 0) {
		gles_names_remove(&ctx->shprogs, s->name);
		gles_shader_free(s);
	}
}

void gles_program_free(struct gles_program *p)
{
	if (!p)
		return;
	if (p->exe != p->linked)
		tsr_program_destroy(p->exe);
	tsr_program_destroy(p->linked);
	free(p->validate_log);
	for (uint32_t i = 0; i < p->binding_count; i++)
		free(p->bindings[i].name);
	free(p->bindings);
	free(p->label);
	free(p);
}

GLuint tsr_gles_CreateShader(struct tsr_gles_context *ctx, GLenum type)
{
	if (type != GL_VERTEX_SHADER && type != GL_FRAGMENT_SHADER) {
		gles_error(ctx, GL_INVALID_ENUM);
		return 0;
	}
	GLuint name;
	struct gles_shader *s = calloc(1, sizeof *s);
	if (!s || !gles_names_gen(&ctx->shprogs, 1, &name)) {
		free(s);
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return 0;
	}
	s->kind = GLES_SHADER;
	s->name = name;
	s->type = type;
	gles_names_put(&ctx->shprogs, name, s);
	return name;
}

GLuint tsr_gles_CreateProgram(struct tsr_gles_context *ctx)
{
	GLuint name;
	struct gles_program *p = calloc(1, sizeof *p);
	if (!p || !gles_names_gen(&ctx->shprogs, 1, &name)) {
		free(p);
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return 0;
	}
	p->kind = GLES_PROGRAM;
	p->name = name;
	gles_names_put(&ctx->shprogs, name, p);
	return name;
}

void tsr_gles_DeleteShader(struct tsr_gles_context *ctx, GLuint shader)
{
	if (shader == 0)
		return;
	struct gles_shader *s = gles_names_get(&ctx->shprogs, shader);
	if (!s || s->kind != GLES_SHADER) {
		gles_error(ctx, s ? GL_INVALID_OPERATION : GL_INVALID_VALUE);
		return;
	}
	s->delete_pending = true;
	shader_release(ctx, s);
}

/* Frees program p, detaching its shaders. */
static void program_delete_now(struct tsr_gles_context *ctx, struct gles_program *p)
{
	struct gles_shader *vs = p->vs, *fs = p->fs;
	if (vs)
		vs->attached--;
	if (fs)
		fs->attached--;
	gles_names_remove(&ctx->shprogs, p->name);
	gles_program_free(p);
	shader_release(ctx, vs);
	shader_release(ctx, fs);
}

void tsr_gles_DeleteProgram(struct tsr_gles_context *ctx, GLuint program)
{
	if (program == 0)
		return;
	struct gles_program *p = gles_names_get(&ctx->shprogs, program);
	if (!p || p->kind != GLES_PROGRAM) {
		gles_error(ctx, p ? GL_INVALID_OPERATION : GL_INVALID_VALUE);
		return;
	}
	if (ctx->program == p)
		p->delete_pending = true;
	else
		program_delete_now(ctx, p);
}

void gles_program_uncurrent(struct tsr_gles_context *ctx, struct gles_program *p)
{
	if (!p)
		return;
	if (!p->link_status && p->exe) {
		/* relinked unsuccessfully while current: its executable goes now */
		if (p->exe != p->linked)
			tsr_program_destroy(p->exe);
		p->exe = NULL;
	}
	if (p->delete_pending)
		program_delete_now(ctx, p);
}

GLboolean tsr_gles_IsShader(struct tsr_gles_context *ctx, GLuint shader)
{
	const struct gles_shader *s = gles_names_get(&ctx->shprogs, shader);
	return s && s->kind == GLES_SHADER ? GL_TRUE : GL_FALSE;
}

GLboolean tsr_gles_IsProgram(struct tsr_gles_context *ctx, GLuint program)
{
	const struct gles_program *p = gles_names_get(&ctx->shprogs, program);
	return p && p->kind == GLES_PROGRAM ? GL_TRUE : GL_FALSE;
}

uint64_t tsr_gles_renderbuffer_info(const struct tsr_gles_context *ctx, GLuint renderbuffer,
				    GLsizei *width, GLsizei *height, GLenum *format)
{
	const struct gles_renderbuffer *rb = gles_names_get(&ctx->renderbuffers, renderbuffer);
	if (!rb)
		return 0;
	*width = rb->width;
	*height = rb->height;
	*format = rb->format;
	return rb->serial;
}
