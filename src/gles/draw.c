/*
 * draw.c - what a GL ES 2.0 draw needs: DrawArrays' and DrawElements'
 * arguments validated as the specification says (2.8, 4.4.5), and the
 * context's state translated into the draw state of command/state.h;
 * glClear's mask into a clear state.
 */
#include <string.h>

#include "gles/gles_priv.h"

static uint8_t stencil_op(GLenum op)
{
	switch (op) {
	case GL_ZERO: return TSR_STENCIL_ZERO;
	case GL_REPLACE: return TSR_STENCIL_REPLACE;
	case GL_INCR: return TSR_STENCIL_INCR;
	case GL_DECR: return TSR_STENCIL_DECR;
	case GL_INVERT: return TSR_STENCIL_INVERT;
	case GL_INCR_WRAP: return TSR_STENCIL_INCR_WRAP;
	case GL_DECR_WRAP: return TSR_STENCIL_DECR_WRAP;
	default: return TSR_STENCIL_KEEP;
	}
}

static uint8_t blend_factor(GLenum f)
{
	switch (f) {
	case GL_ZERO: return TSR_BLEND_ZERO;
	case GL_ONE: return TSR_BLEND_ONE;
	case GL_SRC_COLOR: return TSR_BLEND_SRC_COLOR;
	case GL_ONE_MINUS_SRC_COLOR: return TSR_BLEND_ONE_MINUS_SRC_COLOR;
	case GL_DST_COLOR: return TSR_BLEND_DST_COLOR;
	case GL_ONE_MINUS_DST_COLOR: return TSR_BLEND_ONE_MINUS_DST_COLOR;
	case GL_SRC_ALPHA: return TSR_BLEND_SRC_ALPHA;
	case GL_ONE_MINUS_SRC_ALPHA: return TSR_BLEND_ONE_MINUS_SRC_ALPHA;
	case GL_DST_ALPHA: return TSR_BLEND_DST_ALPHA;
	case GL_ONE_MINUS_DST_ALPHA: return TSR_BLEND_ONE_MINUS_DST_ALPHA;
	case GL_CONSTANT_COLOR: return TSR_BLEND_CONSTANT_COLOR;
	case GL_ONE_MINUS_CONSTANT_COLOR: return TSR_BLEND_ONE_MINUS_CONSTANT_COLOR;
	case GL_CONSTANT_ALPHA: return TSR_BLEND_CONSTANT_ALPHA;
	case GL_ONE_MINUS_CONSTANT_ALPHA: return TSR_BLEND_ONE_MINUS_CONSTANT_ALPHA;
	case GL_SRC1_COLOR_EXT: return TSR_BLEND_SRC1_COLOR;
	case GL_ONE_MINUS_SRC1_COLOR_EXT: return TSR_BLEND_ONE_MINUS_SRC1_COLOR;
	case GL_SRC1_ALPHA_EXT: return TSR_BLEND_SRC1_ALPHA;
	case GL_ONE_MINUS_SRC1_ALPHA_EXT: return TSR_BLEND_ONE_MINUS_SRC1_ALPHA;
	default: return TSR_BLEND_SRC_ALPHA_SATURATE;
	}
}

static uint8_t blend_eq(GLenum e)
{
	return e == GL_FUNC_SUBTRACT ? TSR_BLEND_EQ_SUBTRACT
	       : e == GL_FUNC_REVERSE_SUBTRACT ? TSR_BLEND_EQ_REVERSE_SUBTRACT : TSR_BLEND_EQ_ADD;
}

static uint8_t attrib_type(GLenum t)
{
	switch (t) {
	case GL_BYTE: return TSR_ATTRIB_BYTE;
	case GL_UNSIGNED_BYTE: return TSR_ATTRIB_UBYTE;
	case GL_SHORT: return TSR_ATTRIB_SHORT;
	case GL_UNSIGNED_SHORT: return TSR_ATTRIB_USHORT;
	case GL_FIXED: return TSR_ATTRIB_FIXED;
	case GL_HALF_FLOAT_OES: return TSR_ATTRIB_HALF_FLOAT;
	default: return TSR_ATTRIB_FLOAT;
	}
}

static uint8_t wrap(GLenum w)
{
	return w == GL_CLAMP_TO_EDGE ? TSR_TEX_CLAMP_TO_EDGE
	       : w == GL_MIRRORED_REPEAT ? TSR_TEX_MIRRORED_REPEAT : TSR_TEX_REPEAT;
}

static void stencil_face(const struct gles_stencil_face *g, struct tsr_stencil_face *s)
{
	s->func = (uint8_t)(g->func - GL_NEVER);
	s->fail = stencil_op(g->fail);
	s->zfail = stencil_op(g->zfail);
	s->zpass = stencil_op(g->zpass);
	s->ref = g->ref;
	s->value_mask = g->value_mask;
	s->write_mask = g->write_mask;
}

/* An attachment as tsr_framebuffer_state has it: the object's name. */
static int32_t attachment_name(const struct gles_attachment *at, GLenum *type)
{
	*type = at->type;
	if (at->type == GL_TEXTURE)
		return (int32_t)at->tex->name;
	if (at->type == GL_RENDERBUFFER)
		return (int32_t)at->rb->name;
	return TSR_ATTACH_NONE;
}

/* Fills out from the context; the caller sets mode and the index state. */
/*
 * GL_EXT_draw_buffers: bit i set when the bound framebuffer object's draw
 * buffer i is COLOR_ATTACHMENTi and an image is attached there, when one
 * of buffers 1..3 is (several render targets: struct tsr_draw_state
 * draw_buffers); 0 otherwise (the default framebuffer, or target 0 alone).
 */
static uint8_t mrt_buffers(const struct tsr_gles_context *ctx)
{
	const struct gles_framebuffer *fb = ctx->framebuffer;
	if (!fb)
		return 0;
	static const int att[4] = {GLES_ATTACH_COLOR0, GLES_ATTACH_COLOR1, GLES_ATTACH_COLOR2,
				   GLES_ATTACH_COLOR3};
	uint8_t m = 0;
	for (int i = 0; i < 4; i++)
		if ((fb->draw_buffers >> i & 1) && fb->att[att[i]].type != GL_NONE)
			m |= (uint8_t)(1u << i);
	return m & ~1u ? m : 0;
}

static void fill(struct tsr_gles_context *ctx, struct tsr_gles_draw *out)
{
	struct tsr_draw_state *s = &out->state;
	tsr_draw_state_default(s, (uint32_t)ctx->width, (uint32_t)ctx->height);
	out->program = ctx->program->exe;
	for (int i = 0; i < TSR_GLES_MAX_VERTEX_ATTRIBS; i++) {
		const struct gles_attrib *g = &ctx->attribs[i];
		struct tsr_vertex_attrib *a = &out->attribs[i];
		a->enabled = g->enabled;
		a->components = (uint8_t)g->size;
		a->type = attrib_type(g->type);
		a->normalized = g->normalized;
		a->buffer = g->buffer;
		a->offset = g->buffer ? (uint32_t)(uintptr_t)g->pointer : 0;
		a->stride = (uint32_t)g->stride;
		memcpy(a->value, g->current, sizeof a->value);
		out->attrib_pointers[i] = g->buffer ? NULL : g->pointer;
		if (i < TSR_MAX_VERTEX_ATTRIBS)
			s->attribs[i] = *a;
	}
	s->viewport.x = ctx->viewport[0];
	s->viewport.y = ctx->viewport[1];
	s->viewport.width = (uint32_t)ctx->viewport[2];
	s->viewport.height = (uint32_t)ctx->viewport[3];
	s->viewport.depth_near = ctx->depth_range[0];
	s->viewport.depth_far = ctx->depth_range[1];
	s->scissor.enable = ctx->scissor_test;
	s->scissor.x = ctx->scissor[0];
	s->scissor.y = ctx->scissor[1];
	s->scissor.width = (uint32_t)ctx->scissor[2];
	s->scissor.height = (uint32_t)ctx->scissor[3];
	s->cull.enable = ctx->cull_face;
	s->cull.face = ctx->cull_face_mode == GL_FRONT ? TSR_CULL_FRONT
		       : ctx->cull_face_mode == GL_BACK ? TSR_CULL_BACK : TSR_CULL_FRONT_AND_BACK;
	s->cull.front_face = ctx->front_face == GL_CW ? TSR_FRONT_CW : TSR_FRONT_CCW;
	s->polygon_offset.enable = ctx->polygon_offset_fill;
	s->polygon_offset.factor = ctx->polygon_offset_factor;
	s->polygon_offset.units = ctx->polygon_offset_units;
	s->polygon_offset.clamp = ctx->polygon_offset_clamp;
	s->line_width = ctx->line_width;
	s->depth.test = ctx->depth_test;
	s->depth.write = ctx->depth_mask;
	s->depth.func = (uint8_t)(ctx->depth_func - GL_NEVER);
	s->stencil.test = ctx->stencil_test;
	stencil_face(&ctx->stencil[0], &s->stencil.front);
	stencil_face(&ctx->stencil[1], &s->stencil.back);
	s->blend.enable = ctx->blend;
	s->blend.src_rgb = blend_factor(ctx->blend_src_rgb);
	s->blend.dst_rgb = blend_factor(ctx->blend_dst_rgb);
	s->blend.src_alpha = blend_factor(ctx->blend_src_alpha);
	s->blend.dst_alpha = blend_factor(ctx->blend_dst_alpha);
	s->blend.eq_rgb = blend_eq(ctx->blend_eq_rgb);
	s->blend.eq_alpha = blend_eq(ctx->blend_eq_alpha);
	memcpy(s->blend.color, ctx->blend_color, sizeof s->blend.color);
	s->color_mask = (uint8_t)((ctx->color_mask[0] ? TSR_COLOR_MASK_R : 0) |
				  (ctx->color_mask[1] ? TSR_COLOR_MASK_G : 0) |
				  (ctx->color_mask[2] ? TSR_COLOR_MASK_B : 0) |
				  (ctx->color_mask[3] ? TSR_COLOR_MASK_A : 0));
	s->draw_buffers = mrt_buffers(ctx);
	if (!s->draw_buffers &&
	    (ctx->framebuffer ? !(ctx->framebuffer->draw_buffers & 1) : ctx->default_draw_none))
		s->color_mask = 0;  /* DrawBuffersEXT(1, {NONE}) */
	for (uint32_t u = 0; u < TSR_GLES_MAX_TEXTURE_UNITS; u++) {
		struct tsr_gles_unit *gu = &out->units[u];
		struct tsr_texture_unit *tu = &gu->unit;
		uint32_t use = tsr_program_unit_usage(ctx->program->exe, u);
		const struct gles_texture *t = use & 2 ? ctx->bound_cube[u] : ctx->bound_2d[u];
		gu->target = use == 0 ? GL_NONE : use & 2 ? GL_TEXTURE_CUBE_MAP : GL_TEXTURE_2D;
		gu->texture = t->name;
		gu->complete = use && gles_texture_complete(t);
		tu->image = gu->complete ? (int32_t)t->name : -1;
		tu->min_filter = (uint8_t)(t->min_filter == GL_NEAREST ? TSR_TEX_NEAREST
					   : t->min_filter == GL_LINEAR ? TSR_TEX_LINEAR
					   : TSR_TEX_NEAREST_MIPMAP_NEAREST +
						     (t->min_filter - GL_NEAREST_MIPMAP_NEAREST));
		tu->mag_filter = t->mag_filter == GL_NEAREST ? TSR_TEX_NEAREST : TSR_TEX_LINEAR;
		tu->wrap_s = wrap(t->wrap_s);
		tu->wrap_t = wrap(t->wrap_t);
		if (u < TSR_MAX_TEXTURE_UNITS)
			s->textures[u] = *tu;
	}
	out->framebuffer = ctx->framebuffer ? ctx->framebuffer->name : 0;
	if (ctx->framebuffer) {
		s->framebuffer.color = attachment_name(&ctx->framebuffer->att[GLES_ATTACH_COLOR0],
						       &out->color_type);
		s->framebuffer.depth = attachment_name(&ctx->framebuffer->att[GLES_ATTACH_DEPTH],
						       &out->depth_type);
		out->stencil = attachment_name(&ctx->framebuffer->att[GLES_ATTACH_STENCIL],
					       &out->stencil_type);
	} else {
		out->color_type = out->depth_type = out->stencil_type = GL_NONE;
		out->stencil = TSR_ATTACH_DEFAULT;
	}
	tsr_gles_GetIntegerv(ctx, GL_DEPTH_BITS, &out->depth_bits);
	tsr_gles_GetIntegerv(ctx, GL_STENCIL_BITS, &out->stencil_bits);
}

static bool is_src1(GLenum f)
{
	return f == GL_SRC1_COLOR_EXT || f == GL_ONE_MINUS_SRC1_COLOR_EXT ||
	       f == GL_SRC1_ALPHA_EXT || f == GL_ONE_MINUS_SRC1_ALPHA_EXT;
}

/*
 * GL_EXT_blend_func_extended's draw error (15.1.5.X): blending with a SRC1
 * factor while a draw buffer at or above MAX_DUAL_SOURCE_DRAW_BUFFERS_EXT is
 * other than NONE. Blending off takes no second color (as Mesa checks it).
 * With MAX_DRAW_BUFFERS_EXT at MAX_DUAL_SOURCE_DRAW_BUFFERS_EXT there is no
 * such draw buffer.
 */
static bool dual_source_conflict(struct tsr_gles_context *ctx)
{
	if (!ctx->blend || !(is_src1(ctx->blend_src_rgb) || is_src1(ctx->blend_dst_rgb) ||
			     is_src1(ctx->blend_src_alpha) || is_src1(ctx->blend_dst_alpha)))
		return false;
	for (GLint i = TSR_GLES_MAX_DUAL_SOURCE_DRAW_BUFFERS; i < TSR_GLES_MAX_DRAW_BUFFERS; i++) {
		GLint buf = GL_NONE;
		tsr_gles_GetIntegerv(ctx, (GLenum)(0x8825 + i), &buf);  /* GL_DRAW_BUFFERi_EXT */
		if (buf != GL_NONE)
			return true;
	}
	return false;
}

/* The checks both draws share after their own: the framebuffer, the
 * program, mapped buffers, dual-source blending with several draw buffers.
 * false: nothing to draw (an error recorded, or none when there is no
 * program or nothing to draw). */
static bool draw_common(struct tsr_gles_context *ctx, GLsizei count, bool elements)
{
	if (tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
		gles_error(ctx, GL_INVALID_FRAMEBUFFER_OPERATION);
		return false;
	}
	for (int i = 0; i < TSR_GLES_MAX_VERTEX_ATTRIBS; i++) {
		const struct gles_attrib *a = &ctx->attribs[i];
		const struct gles_buffer *b = a->enabled ? gles_names_get(&ctx->buffers, a->buffer)
							 : NULL;
		if (b && b->mapped) {
			gles_error(ctx, GL_INVALID_OPERATION);
			return false;
		}
	}
	const struct gles_buffer *ib = elements ? gles_names_get(&ctx->buffers,
								 ctx->element_array_buffer)
						: NULL;
	if (ib && ib->mapped) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return false;
	}
	if (dual_source_conflict(ctx)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return false;
	}
	return ctx->program && count > 0;
}

static bool is_mode(GLenum mode)
{
	return mode <= GL_TRIANGLE_FAN;
}

GLboolean tsr_gles_draw_arrays_state(struct tsr_gles_context *ctx, GLenum mode, GLint first,
				     GLsizei count, struct tsr_gles_draw *out)
{
	if (!is_mode(mode)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return GL_FALSE;
	}
	if (first < 0 || count < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return GL_FALSE;
	}
	if (!draw_common(ctx, count, false))
		return GL_FALSE;
	fill(ctx, out);
	out->state.mode = (uint8_t)mode;
	out->state.index.type = TSR_INDEX_NONE;
	out->state.index.buffer = 0;
	out->state.index.offset = 0;
	out->state.index.count = (uint32_t)count;
	out->first = first;
	out->indices = NULL;
	return GL_TRUE;
}

GLboolean tsr_gles_draw_elements_state(struct tsr_gles_context *ctx, GLenum mode, GLsizei count,
				       GLenum type, const void *indices,
				       struct tsr_gles_draw *out)
{
	if (!is_mode(mode) || (type != GL_UNSIGNED_BYTE && type != GL_UNSIGNED_SHORT &&
				type != GL_UNSIGNED_INT /* OES_element_index_uint */)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return GL_FALSE;
	}
	if (count < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return GL_FALSE;
	}
	if (!draw_common(ctx, count, true))
		return GL_FALSE;
	fill(ctx, out);
	out->state.mode = (uint8_t)mode;
	out->state.index.type = type == GL_UNSIGNED_BYTE    ? TSR_INDEX_U8
				: type == GL_UNSIGNED_SHORT ? TSR_INDEX_U16
							    : TSR_INDEX_U32;
	out->state.index.buffer = ctx->element_array_buffer;
	out->state.index.offset = ctx->element_array_buffer ? (uint32_t)(uintptr_t)indices : 0;
	out->state.index.count = (uint32_t)count;
	out->first = 0;
	out->indices = ctx->element_array_buffer ? NULL : indices;
	return GL_TRUE;
}

GLboolean tsr_gles_clear_state(struct tsr_gles_context *ctx, GLbitfield mask,
			       struct tsr_clear_state *out)
{
	if (mask & ~(GLbitfield)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return GL_FALSE;
	}
	if (tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
		gles_error(ctx, GL_INVALID_FRAMEBUFFER_OPERATION);
		return GL_FALSE;
	}
	memset(out, 0, sizeof *out);
	out->mask = (uint8_t)((mask & GL_COLOR_BUFFER_BIT ? TSR_CLEAR_COLOR : 0) |
			      (mask & GL_DEPTH_BUFFER_BIT ? TSR_CLEAR_DEPTH : 0) |
			      (mask & GL_STENCIL_BUFFER_BIT ? TSR_CLEAR_STENCIL : 0));
	if (!mrt_buffers(ctx) &&
	    (ctx->framebuffer ? !(ctx->framebuffer->draw_buffers & 1) : ctx->default_draw_none))
		out->mask &= (uint8_t)~TSR_CLEAR_COLOR;  /* DrawBuffersEXT(1, {NONE}) */
	out->scissored = ctx->scissor_test;
	memcpy(out->color, ctx->clear_color, sizeof out->color);
	out->depth = ctx->clear_depth;
	out->stencil = ctx->clear_stencil;
	return out->mask != 0 ? GL_TRUE : GL_FALSE;
}
