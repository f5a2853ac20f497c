/*
 * context.c - the GL ES 2.0 context: creation with table 6.x's initial
 * values, vertex attributes, and the rasterization and per-fragment state
 * setters (2.7, 2.8, 2.12, 3.4, 3.5, 4.1, 4.2, 3.6.1, 5.2).
 */
#include <stdlib.h>
#include <string.h>

#include "gles/gles_priv.h"

GLint gles_round_int(GLfloat f)
{
	if (!(f == f))
		return 0;
	double d = f < 0 ? (double)f - 0.5 : (double)f + 0.5;
	if (d >= 2147483647.0)
		return INT32_MAX;
	if (d <= -2147483648.0)
		return INT32_MIN;
	return (GLint)d;
}

/* Clamped to [0, 1]; NaN (which no comparison orders) is 0. */
static GLfloat clamp01(GLfloat v)
{
	return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
}

enum tsr_status tsr_gles_context_create(uint32_t width, uint32_t height,
					const struct tsr_gles_config *cfg,
					struct tsr_gles_context **out, struct tsr_error *err)
{
	*out = NULL;
	if (width == 0 || height == 0 || width > TSR_GLES_MAX_VIEWPORT_DIMS ||
	    height > TSR_GLES_MAX_VIEWPORT_DIMS)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "gles context size %ux%u is outside 1..%d pixels", width, height,
				     TSR_GLES_MAX_VIEWPORT_DIMS);
	struct tsr_gles_context *ctx = calloc(1, sizeof *ctx);
	if (!ctx)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory creating a gles context");
	static const struct tsr_gles_config dflt = { 8, 8, 8, 8, 24, 8 };
	ctx->config = cfg ? *cfg : dflt;
	ctx->width = (GLsizei)width;
	ctx->height = (GLsizei)height;
	ctx->error = GL_NO_ERROR;
	for (int i = 0; i < TSR_GLES_MAX_VERTEX_ATTRIBS; i++) {
		struct gles_attrib *a = &ctx->attribs[i];
		a->size = 4;
		a->type = GL_FLOAT;
		a->current[3] = 1.0f;
	}
	ctx->viewport[2] = ctx->scissor[2] = (GLint)width;
	ctx->viewport[3] = ctx->scissor[3] = (GLint)height;
	ctx->depth_range[1] = 1.0f;
	ctx->line_width = 1.0f;
	ctx->cull_face_mode = GL_BACK;
	ctx->front_face = GL_CCW;
	ctx->sample_coverage_value = 1.0f;
	ctx->dither = GL_TRUE;
	for (int f = 0; f < 2; f++) {
		struct gles_stencil_face *s = &ctx->stencil[f];
		s->func = GL_ALWAYS;
		s->value_mask = s->write_mask = ~0u;
		s->fail = s->zfail = s->zpass = GL_KEEP;
	}
	ctx->depth_func = GL_LESS;
	ctx->depth_mask = GL_TRUE;
	ctx->blend_src_rgb = ctx->blend_src_alpha = GL_ONE;
	ctx->blend_dst_rgb = ctx->blend_dst_alpha = GL_ZERO;
	ctx->blend_eq_rgb = ctx->blend_eq_alpha = GL_FUNC_ADD;
	for (int c = 0; c < 4; c++)
		ctx->color_mask[c] = GL_TRUE;
	ctx->clear_depth = 1.0f;
	ctx->pack_alignment = ctx->unpack_alignment = 4;
	ctx->generate_mipmap_hint = ctx->derivative_hint = GL_DONT_CARE;
	ctx->default_2d = calloc(1, sizeof *ctx->default_2d);
	ctx->default_cube = calloc(1, sizeof *ctx->default_cube);
	if (!ctx->default_2d || !ctx->default_cube) {
		tsr_gles_context_destroy(ctx);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory creating a gles context");
	}
	struct gles_texture *defaults[2] = { ctx->default_2d, ctx->default_cube };
	for (int d = 0; d < 2; d++) {
		defaults[d]->target = d ? GL_TEXTURE_CUBE_MAP : GL_TEXTURE_2D;
		defaults[d]->refs = 1;
		defaults[d]->min_filter = GL_NEAREST_MIPMAP_LINEAR;
		defaults[d]->mag_filter = GL_LINEAR;
		defaults[d]->wrap_s = defaults[d]->wrap_t = GL_REPEAT;
	}
	for (int u = 0; u < TSR_GLES_MAX_TEXTURE_UNITS; u++) {
		ctx->bound_2d[u] = ctx->default_2d;
		ctx->bound_cube[u] = ctx->default_cube;
	}
	*out = ctx;
	return TSR_OK;
}

void tsr_gles_context_destroy(struct tsr_gles_context *ctx)
{
	if (!ctx)
		return;
	/* framebuffers first: they hold references to textures and renderbuffers */
	ctx->framebuffer = ctx->read_framebuffer = NULL;
	for (uint32_t i = 0; i < ctx->framebuffers.cap; i++)
		if (ctx->framebuffers.objs[i]) {
			GLuint name = i;
			tsr_gles_DeleteFramebuffers(ctx, 1, &name);
		}
	for (uint32_t i = 0; i < ctx->buffers.cap; i++) {
		struct gles_buffer *b = ctx->buffers.objs[i];
		if (b) {
			free(b->data);
			free(b->label);
			free(b);
		}
	}
	for (uint32_t i = 0; i < ctx->textures.cap; i++)
		gles_texture_unref(ctx->textures.objs[i]);
	for (uint32_t i = 0; i < ctx->renderbuffers.cap; i++)
		gles_renderbuffer_unref(ctx->renderbuffers.objs[i]);
	for (uint32_t i = 0; i < ctx->shprogs.cap; i++) {
		void *o = ctx->shprogs.objs[i];
		if (!o)
			continue;
		if (*(enum gles_sp_kind *)o == GLES_SHADER)
			gles_shader_free(o);
		else
			gles_program_free(o);
	}
	gles_texture_unref(ctx->default_2d);
	gles_texture_unref(ctx->default_cube);
	gles_debug_release(ctx);
	gles_names_release(&ctx->buffers);
	gles_names_release(&ctx->textures);
	gles_names_release(&ctx->renderbuffers);
	gles_names_release(&ctx->framebuffers);
	gles_names_release(&ctx->shprogs);
	free(ctx);
}

/* ---- vertex attributes ---- */

static struct gles_attrib *attrib(struct tsr_gles_context *ctx, GLuint index)
{
	if (index >= TSR_GLES_MAX_VERTEX_ATTRIBS) {
		gles_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	return &ctx->attribs[index];
}

void tsr_gles_VertexAttribPointer(struct tsr_gles_context *ctx, GLuint index, GLint size,
				  GLenum type, GLboolean normalized, GLsizei stride,
				  const void *pointer)
{
	switch (type) {
	case GL_BYTE: case GL_UNSIGNED_BYTE: case GL_SHORT: case GL_UNSIGNED_SHORT:
	case GL_FIXED: case GL_FLOAT: case GL_HALF_FLOAT_OES:
		break;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (size < 1 || size > 4 || stride < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	struct gles_attrib *a = attrib(ctx, index);
	if (!a)
		return;
	a->size = size;
	a->type = type;
	a->normalized = normalized ? GL_TRUE : GL_FALSE;
	a->stride = stride;
	a->pointer = pointer;
	a->buffer = ctx->array_buffer;
}

void tsr_gles_EnableVertexAttribArray(struct tsr_gles_context *ctx, GLuint index)
{
	struct gles_attrib *a = attrib(ctx, index);
	if (a)
		a->enabled = GL_TRUE;
}

void tsr_gles_DisableVertexAttribArray(struct tsr_gles_context *ctx, GLuint index)
{
	struct gles_attrib *a = attrib(ctx, index);
	if (a)
		a->enabled = GL_FALSE;
}

static void set_current(struct tsr_gles_context *ctx, GLuint index, GLfloat x, GLfloat y,
			GLfloat z, GLfloat w)
{
	struct gles_attrib *a = attrib(ctx, index);
	if (!a)
		return;
	a->current[0] = x;
	a->current[1] = y;
	a->current[2] = z;
	a->current[3] = w;
}

void tsr_gles_VertexAttrib1f(struct tsr_gles_context *ctx, GLuint index, GLfloat x)
{
	set_current(ctx, index, x, 0.0f, 0.0f, 1.0f);
}

void tsr_gles_VertexAttrib2f(struct tsr_gles_context *ctx, GLuint index, GLfloat x, GLfloat y)
{
	set_current(ctx, index, x, y, 0.0f, 1.0f);
}

void tsr_gles_VertexAttrib3f(struct tsr_gles_context *ctx, GLuint index, GLfloat x, GLfloat y,
			     GLfloat z)
{
	set_current(ctx, index, x, y, z, 1.0f);
}

void tsr_gles_VertexAttrib4f(struct tsr_gles_context *ctx, GLuint index, GLfloat x, GLfloat y,
			     GLfloat z, GLfloat w)
{
	set_current(ctx, index, x, y, z, w);
}

void tsr_gles_VertexAttrib1fv(struct tsr_gles_context *ctx, GLuint index, const GLfloat *v)
{
	set_current(ctx, index, v[0], 0.0f, 0.0f, 1.0f);
}

void tsr_gles_VertexAttrib2fv(struct tsr_gles_context *ctx, GLuint index, const GLfloat *v)
{
	set_current(ctx, index, v[0], v[1], 0.0f, 1.0f);
}

void tsr_gles_VertexAttrib3fv(struct tsr_gles_context *ctx, GLuint index, const GLfloat *v)
{
	set_current(ctx, index, v[0], v[1], v[2], 1.0f);
}

void tsr_gles_VertexAttrib4fv(struct tsr_gles_context *ctx, GLuint index, const GLfloat *v)
{
	set_current(ctx, index, v[0], v[1], v[2], v[3]);
}

/* The integer value of an attribute state; false for an unknown pname. */
static bool attrib_int(const struct gles_attrib *a, GLenum pname, GLint *v)
{
	switch (pname) {
	case GL_VERTEX_ATTRIB_ARRAY_ENABLED: *v = a->enabled; return true;
	case GL_VERTEX_ATTRIB_ARRAY_SIZE: *v = a->size; return true;
	case GL_VERTEX_ATTRIB_ARRAY_STRIDE: *v = a->stride; return true;
	case GL_VERTEX_ATTRIB_ARRAY_TYPE: *v = (GLint)a->type; return true;
	case GL_VERTEX_ATTRIB_ARRAY_NORMALIZED: *v = a->normalized; return true;
	case GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING: *v = (GLint)a->buffer; return true;
	default: return false;
	}
}

void tsr_gles_GetVertexAttribfv(struct tsr_gles_context *ctx, GLuint index, GLenum pname,
				GLfloat *params)
{
	GLint v;
	if (pname != GL_CURRENT_VERTEX_ATTRIB && !attrib_int(&ctx->attribs[0], pname, &v)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	struct gles_attrib *a = attrib(ctx, index);
	if (!a)
		return;
	if (pname == GL_CURRENT_VERTEX_ATTRIB) {
		memcpy(params, a->current, sizeof a->current);
		return;
	}
	attrib_int(a, pname, &v);
	*params = (GLfloat)v;
}

void tsr_gles_GetVertexAttribiv(struct tsr_gles_context *ctx, GLuint index, GLenum pname,
				GLint *params)
{
	GLint v;
	if (pname != GL_CURRENT_VERTEX_ATTRIB && !attrib_int(&ctx->attribs[0], pname, &v)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	struct gles_attrib *a = attrib(ctx, index);
	if (!a)
		return;
	if (pname == GL_CURRENT_VERTEX_ATTRIB) {
		/* 6.1.2: floats to integers by rounding */
		for (int c = 0; c < 4; c++)
			params[c] = gles_round_int(a->current[c]);
		return;
	}
	attrib_int(a, pname, &v);
	*params = v;
}

void tsr_gles_GetVertexAttribPointerv(struct tsr_gles_context *ctx, GLuint index, GLenum pname,
				      void **pointer)
{
	if (pname != GL_VERTEX_ATTRIB_ARRAY_POINTER) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	struct gles_attrib *a = attrib(ctx, index);
	if (a)
		*pointer = (void *)(uintptr_t)a->pointer;
}

/* ---- rasterization and per-fragment state ---- */

void tsr_gles_Viewport(struct tsr_gles_context *ctx, GLint x, GLint y, GLsizei width,
		       GLsizei height)
{
	if (width < 0 || height < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	ctx->viewport[0] = x;
	ctx->viewport[1] = y;
	ctx->viewport[2] = width < TSR_GLES_MAX_VIEWPORT_DIMS ? width : TSR_GLES_MAX_VIEWPORT_DIMS;
	ctx->viewport[3] = height < TSR_GLES_MAX_VIEWPORT_DIMS ? height : TSR_GLES_MAX_VIEWPORT_DIMS;
}

void tsr_gles_DepthRangef(struct tsr_gles_context *ctx, GLfloat n, GLfloat f)
{
	ctx->depth_range[0] = clamp01(n);
	ctx->depth_range[1] = clamp01(f);
}

static bool is_face(GLenum face)
{
	return face == GL_FRONT || face == GL_BACK || face == GL_FRONT_AND_BACK;
}

void tsr_gles_CullFace(struct tsr_gles_context *ctx, GLenum mode)
{
	if (!is_face(mode)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->cull_face_mode = mode;
}

void tsr_gles_FrontFace(struct tsr_gles_context *ctx, GLenum mode)
{
	if (mode != GL_CW && mode != GL_CCW) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->front_face = mode;
}

void tsr_gles_LineWidth(struct tsr_gles_context *ctx, GLfloat width)
{
	if (!(width > 0.0f)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	ctx->line_width = width;
}

void tsr_gles_PolygonOffset(struct tsr_gles_context *ctx, GLfloat factor, GLfloat units)
{
	ctx->polygon_offset_factor = factor;
	ctx->polygon_offset_units = units;
	ctx->polygon_offset_clamp = 0.0f;
}

void tsr_gles_PolygonOffsetClampEXT(struct tsr_gles_context *ctx, GLfloat factor, GLfloat units,
				    GLfloat clamp)
{
	ctx->polygon_offset_factor = factor;
	ctx->polygon_offset_units = units;
	ctx->polygon_offset_clamp = clamp != clamp ? 0.0f : clamp; /* NaN: no clamp */
}

void tsr_gles_Scissor(struct tsr_gles_context *ctx, GLint x, GLint y, GLsizei width,
		      GLsizei height)
{
	if (width < 0 || height < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	ctx->scissor[0] = x;
	ctx->scissor[1] = y;
	ctx->scissor[2] = width;
	ctx->scissor[3] = height;
}

void tsr_gles_SampleCoverage(struct tsr_gles_context *ctx, GLfloat value, GLboolean invert)
{
	ctx->sample_coverage_value = clamp01(value);
	ctx->sample_coverage_invert = invert ? GL_TRUE : GL_FALSE;
}

static bool is_func(GLenum f)
{
	return f >= GL_NEVER && f <= GL_ALWAYS;
}

void tsr_gles_StencilFuncSeparate(struct tsr_gles_context *ctx, GLenum face, GLenum func,
				  GLint ref, GLuint mask)
{
	if (!is_face(face) || !is_func(func)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	for (int f = 0; f < 2; f++) {
		if ((f == 0 && face == GL_BACK) || (f == 1 && face == GL_FRONT))
			continue;
		ctx->stencil[f].func = func;
		ctx->stencil[f].ref = ref;
		ctx->stencil[f].value_mask = mask;
	}
}

void tsr_gles_StencilFunc(struct tsr_gles_context *ctx, GLenum func, GLint ref, GLuint mask)
{
	tsr_gles_StencilFuncSeparate(ctx, GL_FRONT_AND_BACK, func, ref, mask);
}

static bool is_stencil_op(GLenum op)
{
	switch (op) {
	case GL_KEEP: case GL_ZERO: case GL_REPLACE: case GL_INCR: case GL_DECR:
	case GL_INVERT: case GL_INCR_WRAP: case GL_DECR_WRAP:
		return true;
	default:
		return false;
	}
}

void tsr_gles_StencilOpSeparate(struct tsr_gles_context *ctx, GLenum face, GLenum fail,
				GLenum zfail, GLenum zpass)
{
	if (!is_face(face) || !is_stencil_op(fail) || !is_stencil_op(zfail) ||
	    !is_stencil_op(zpass)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	for (int f = 0; f < 2; f++) {
		if ((f == 0 && face == GL_BACK) || (f == 1 && face == GL_FRONT))
			continue;
		ctx->stencil[f].fail = fail;
		ctx->stencil[f].zfail = zfail;
		ctx->stencil[f].zpass = zpass;
	}
}

void tsr_gles_StencilOp(struct tsr_gles_context *ctx, GLenum fail, GLenum zfail, GLenum zpass)
{
	tsr_gles_StencilOpSeparate(ctx, GL_FRONT_AND_BACK, fail, zfail, zpass);
}

void tsr_gles_StencilMaskSeparate(struct tsr_gles_context *ctx, GLenum face, GLuint mask)
{
	if (!is_face(face)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (face != GL_BACK)
		ctx->stencil[0].write_mask = mask;
	if (face != GL_FRONT)
		ctx->stencil[1].write_mask = mask;
}

void tsr_gles_StencilMask(struct tsr_gles_context *ctx, GLuint mask)
{
	tsr_gles_StencilMaskSeparate(ctx, GL_FRONT_AND_BACK, mask);
}

void tsr_gles_DepthFunc(struct tsr_gles_context *ctx, GLenum func)
{
	if (!is_func(func)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->depth_func = func;
}

void tsr_gles_DepthMask(struct tsr_gles_context *ctx, GLboolean flag)
{
	ctx->depth_mask = flag ? GL_TRUE : GL_FALSE;
}

/* GL ES 2.0 table 4.1's factors, SRC_ALPHA_SATURATE a destination one too
 * and the SRC1 ones (GL_EXT_blend_func_extended), for source and
 * destination alike. */
static bool is_blend_factor(GLenum f)
{
	switch (f) {
	case GL_ZERO: case GL_ONE: case GL_SRC_COLOR: case GL_ONE_MINUS_SRC_COLOR:
	case GL_DST_COLOR: case GL_ONE_MINUS_DST_COLOR: case GL_SRC_ALPHA:
	case GL_ONE_MINUS_SRC_ALPHA: case GL_DST_ALPHA: case GL_ONE_MINUS_DST_ALPHA:
	case GL_CONSTANT_COLOR: case GL_ONE_MINUS_CONSTANT_COLOR: case GL_CONSTANT_ALPHA:
	case GL_ONE_MINUS_CONSTANT_ALPHA: case GL_SRC_ALPHA_SATURATE:
	case GL_SRC1_COLOR_EXT: case GL_ONE_MINUS_SRC1_COLOR_EXT: case GL_SRC1_ALPHA_EXT:
	case GL_ONE_MINUS_SRC1_ALPHA_EXT:
		return true;
	default:
		return false;
	}
}

void tsr_gles_BlendFuncSeparate(struct tsr_gles_context *ctx, GLenum src_rgb, GLenum dst_rgb,
				GLenum src_alpha, GLenum dst_alpha)
{
	if (!is_blend_factor(src_rgb) || !is_blend_factor(dst_rgb) ||
	    !is_blend_factor(src_alpha) || !is_blend_factor(dst_alpha)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->blend_src_rgb = src_rgb;
	ctx->blend_dst_rgb = dst_rgb;
	ctx->blend_src_alpha = src_alpha;
	ctx->blend_dst_alpha = dst_alpha;
}

void tsr_gles_BlendFunc(struct tsr_gles_context *ctx, GLenum sfactor, GLenum dfactor)
{
	tsr_gles_BlendFuncSeparate(ctx, sfactor, dfactor, sfactor, dfactor);
}

static bool is_blend_eq(GLenum e)
{
	return e == GL_FUNC_ADD || e == GL_FUNC_SUBTRACT || e == GL_FUNC_REVERSE_SUBTRACT;
}

void tsr_gles_BlendEquationSeparate(struct tsr_gles_context *ctx, GLenum mode_rgb,
				    GLenum mode_alpha)
{
	if (!is_blend_eq(mode_rgb) || !is_blend_eq(mode_alpha)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->blend_eq_rgb = mode_rgb;
	ctx->blend_eq_alpha = mode_alpha;
}

void tsr_gles_BlendEquation(struct tsr_gles_context *ctx, GLenum mode)
{
	tsr_gles_BlendEquationSeparate(ctx, mode, mode);
}

void tsr_gles_BlendColor(struct tsr_gles_context *ctx, GLfloat r, GLfloat g, GLfloat b,
			 GLfloat a)
{
	ctx->blend_color[0] = clamp01(r);
	ctx->blend_color[1] = clamp01(g);
	ctx->blend_color[2] = clamp01(b);
	ctx->blend_color[3] = clamp01(a);
}

void tsr_gles_ColorMask(struct tsr_gles_context *ctx, GLboolean r, GLboolean g, GLboolean b,
			GLboolean a)
{
	ctx->color_mask[0] = r ? GL_TRUE : GL_FALSE;
	ctx->color_mask[1] = g ? GL_TRUE : GL_FALSE;
	ctx->color_mask[2] = b ? GL_TRUE : GL_FALSE;
	ctx->color_mask[3] = a ? GL_TRUE : GL_FALSE;
}

void tsr_gles_ClearColor(struct tsr_gles_context *ctx, GLfloat r, GLfloat g, GLfloat b,
			 GLfloat a)
{
	ctx->clear_color[0] = clamp01(r);
	ctx->clear_color[1] = clamp01(g);
	ctx->clear_color[2] = clamp01(b);
	ctx->clear_color[3] = clamp01(a);
}

void tsr_gles_ClearDepthf(struct tsr_gles_context *ctx, GLfloat d)
{
	ctx->clear_depth = clamp01(d);
}

void tsr_gles_ClearStencil(struct tsr_gles_context *ctx, GLint s)
{
	ctx->clear_stencil = s;
}

static GLboolean *capability(struct tsr_gles_context *ctx, GLenum cap)
{
	switch (cap) {
	case GL_CULL_FACE: return &ctx->cull_face;
	case GL_POLYGON_OFFSET_FILL: return &ctx->polygon_offset_fill;
	case GL_SAMPLE_ALPHA_TO_COVERAGE: return &ctx->sample_alpha_to_coverage;
	case GL_SAMPLE_COVERAGE: return &ctx->sample_coverage;
	case GL_SCISSOR_TEST: return &ctx->scissor_test;
	case GL_STENCIL_TEST: return &ctx->stencil_test;
	case GL_DEPTH_TEST: return &ctx->depth_test;
	case GL_BLEND: return &ctx->blend;
	case GL_DITHER: return &ctx->dither;
	case GL_DEBUG_OUTPUT_KHR: return &ctx->debug.output;
	case GL_DEBUG_OUTPUT_SYNCHRONOUS_KHR: return &ctx->debug.synchronous;
	default: return NULL;
	}
}

void tsr_gles_Enable(struct tsr_gles_context *ctx, GLenum cap)
{
	GLboolean *c = capability(ctx, cap);
	if (!c)
		gles_error(ctx, GL_INVALID_ENUM);
	else
		*c = GL_TRUE;
}

void tsr_gles_Disable(struct tsr_gles_context *ctx, GLenum cap)
{
	GLboolean *c = capability(ctx, cap);
	if (!c)
		gles_error(ctx, GL_INVALID_ENUM);
	else
		*c = GL_FALSE;
}

GLboolean tsr_gles_IsEnabled(struct tsr_gles_context *ctx, GLenum cap)
{
	GLboolean *c = capability(ctx, cap);
	if (!c) {
		gles_error(ctx, GL_INVALID_ENUM);
		return GL_FALSE;
	}
	return *c;
}

void tsr_gles_PixelStorei(struct tsr_gles_context *ctx, GLenum pname, GLint param)
{
	if (pname == GL_UNPACK_ROW_LENGTH_EXT || pname == GL_UNPACK_SKIP_ROWS_EXT ||
	    pname == GL_UNPACK_SKIP_PIXELS_EXT) {
		if (param < 0) {
			gles_error(ctx, GL_INVALID_VALUE);
			return;
		}
		if (pname == GL_UNPACK_ROW_LENGTH_EXT)
			ctx->unpack_row_length = param;
		else if (pname == GL_UNPACK_SKIP_ROWS_EXT)
			ctx->unpack_skip_rows = param;
		else
			ctx->unpack_skip_pixels = param;
		return;
	}
	if (pname != GL_PACK_ALIGNMENT && pname != GL_UNPACK_ALIGNMENT) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (param != 1 && param != 2 && param != 4 && param != 8) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (pname == GL_PACK_ALIGNMENT)
		ctx->pack_alignment = param;
	else
		ctx->unpack_alignment = param;
}

void tsr_gles_Hint(struct tsr_gles_context *ctx, GLenum target, GLenum mode)
{
	if ((target != GL_GENERATE_MIPMAP_HINT && target != GL_FRAGMENT_SHADER_DERIVATIVE_HINT_OES) ||
	    (mode != GL_FASTEST && mode != GL_NICEST && mode != GL_DONT_CARE)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (target == GL_GENERATE_MIPMAP_HINT)
		ctx->generate_mipmap_hint = mode;
	else
		ctx->derivative_hint = mode;
}

void tsr_gles_ActiveTexture(struct tsr_gles_context *ctx, GLenum texture)
{
	if (texture < GL_TEXTURE0 || texture >= GL_TEXTURE0 + TSR_GLES_MAX_TEXTURE_UNITS) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	ctx->active_texture = texture - GL_TEXTURE0;
}
