/*
 * get.c - GetBooleanv, GetIntegerv, GetFloatv and GetString (6.1): every
 * state of tables 6.2-6.22 that has a Get pname and the
 * implementation-dependent values, converted as 6.1.2 says.
 */
#include <math.h>
#include <string.h>

#include "gles/gles_priv.h"

enum val_kind {
	V_INT,   /* integers and enums */
	V_BOOL,  /* booleans */
	V_FLOAT, /* floats: rounded to integers */
	V_NORM,  /* colors, depth range, depth clear: [0, 1] -> [0, 2^31 - 1] */
};

struct val {
	enum val_kind kind;
	int n;
	GLint i[16];
	GLfloat f[16];
};

static void put_i(struct val *v, enum val_kind kind, int n, const GLint *x)
{
	v->kind = kind;
	v->n = n;
	memcpy(v->i, x, (size_t)n * sizeof *x);
}

static void put_f(struct val *v, enum val_kind kind, int n, const GLfloat *x)
{
	v->kind = kind;
	v->n = n;
	memcpy(v->f, x, (size_t)n * sizeof *x);
}

#define I1(x) do { GLint t_ = (GLint)(x); put_i(v, V_INT, 1, &t_); } while (0)
#define B1(x) do { GLint t_ = (x) ? 1 : 0; put_i(v, V_BOOL, 1, &t_); } while (0)
#define F1(x) do { GLfloat t_ = (x); put_f(v, V_FLOAT, 1, &t_); } while (0)

void gles_framebuffer_bits(const struct tsr_gles_context *ctx, const struct gles_framebuffer *fb,
			   GLint bits[6])
{
	if (!fb) {
		const struct tsr_gles_config *c = &ctx->config;
		GLint b[6] = { c->red_bits, c->green_bits, c->blue_bits, c->alpha_bits,
			       c->depth_bits, c->stencil_bits };
		memcpy(bits, b, sizeof b);
		return;
	}
	memset(bits, 0, 6 * sizeof *bits);
	for (int a = 0; a < GLES_ATTACH_COUNT; a++) {
		const struct gles_attachment *at = &fb->att[a];
		GLenum format = GL_NONE, type = GL_NONE;
		if (at->type == GL_RENDERBUFFER && at->rb) {
			format = at->rb->format;
		} else if (at->type == GL_TEXTURE && at->tex) {
			int face = at->face ? (int)(at->face - GL_TEXTURE_CUBE_MAP_POSITIVE_X) : 0;
			const struct gles_image *im = &at->tex->images[face][at->level];
			format = im->format;
			type = im->type;
		}
		GLint r = 0, g = 0, b = 0, al = 0, d = 0, s = 0;
		switch (format) {
		case GL_RGBA4: r = g = b = al = 4; break;
		case GL_RGB5_A1: r = g = b = 5; al = 1; break;
		case GL_RGB565: r = 5; g = 6; b = 5; break;
		case GL_RGBA8_OES: case GL_RGBA: r = g = b = al = 8; break;
		case GL_RGB8_OES: case GL_RGB: r = g = b = 8; break;
		case GL_DEPTH_COMPONENT16: d = 16; break;
		case GL_DEPTH_COMPONENT24_OES: d = 24; break;
		case GL_DEPTH_COMPONENT: d = type == GL_UNSIGNED_INT ? 32 : 16; break;
		case GL_STENCIL_INDEX8: s = 8; break;
		case GL_DEPTH24_STENCIL8_OES: d = 24; s = 8; break;
		case GL_DEPTH_STENCIL_OES: d = 24; s = 8; break;
		default: break;
		}
		if (format == GL_RGB && type == GL_UNSIGNED_SHORT_5_6_5) {
			r = 5; g = 6; b = 5;
		} else if (format == GL_RGBA && type == GL_UNSIGNED_SHORT_4_4_4_4) {
			r = g = b = al = 4;
		} else if (format == GL_RGBA && type == GL_UNSIGNED_SHORT_5_5_5_1) {
			r = g = b = 5; al = 1;
		}
		if (a == GLES_ATTACH_COLOR0) {
			bits[0] = r; bits[1] = g; bits[2] = b; bits[3] = al;
		} else if (a == GLES_ATTACH_DEPTH) {
			bits[4] = d;
		} else if (a == GLES_ATTACH_STENCIL) {
			bits[5] = s;
		}
	}
}

/* The value of pname; false for an unknown one. */
static bool get_value(const struct tsr_gles_context *ctx, GLenum pname, struct val *v)
{
	const struct gles_stencil_face *sf = &ctx->stencil[0], *sb = &ctx->stencil[1];
	GLint bits[6];
	switch (pname) {
	/* 6.2, 6.3 */
	case GL_ARRAY_BUFFER_BINDING: I1(ctx->array_buffer); return true;
	case GL_ELEMENT_ARRAY_BUFFER_BINDING: I1(ctx->element_array_buffer); return true;
	/* 6.4 */
	case GL_VIEWPORT: put_i(v, V_INT, 4, ctx->viewport); return true;
	case GL_DEPTH_RANGE: put_f(v, V_NORM, 2, ctx->depth_range); return true;
	/* 6.5 */
	case GL_LINE_WIDTH: F1(ctx->line_width); return true;
	case GL_CULL_FACE: B1(ctx->cull_face); return true;
	case GL_CULL_FACE_MODE: I1(ctx->cull_face_mode); return true;
	case GL_FRONT_FACE: I1(ctx->front_face); return true;
	case GL_POLYGON_OFFSET_FACTOR: F1(ctx->polygon_offset_factor); return true;
	case GL_POLYGON_OFFSET_UNITS: F1(ctx->polygon_offset_units); return true;
	case GL_POLYGON_OFFSET_CLAMP_EXT: F1(ctx->polygon_offset_clamp); return true;
	case GL_POLYGON_OFFSET_FILL: B1(ctx->polygon_offset_fill); return true;
	/* 6.6 */
	case GL_SAMPLE_ALPHA_TO_COVERAGE: B1(ctx->sample_alpha_to_coverage); return true;
	case GL_SAMPLE_COVERAGE: B1(ctx->sample_coverage); return true;
	case GL_SAMPLE_COVERAGE_VALUE: F1(ctx->sample_coverage_value); return true;
	case GL_SAMPLE_COVERAGE_INVERT: B1(ctx->sample_coverage_invert); return true;
	/* 6.7 */
	case GL_TEXTURE_BINDING_2D: I1(ctx->bound_2d[ctx->active_texture]->name); return true;
	case GL_TEXTURE_BINDING_CUBE_MAP: I1(ctx->bound_cube[ctx->active_texture]->name); return true;
	case GL_ACTIVE_TEXTURE: I1(GL_TEXTURE0 + ctx->active_texture); return true;
	/* 6.11 */
	case GL_SCISSOR_TEST: B1(ctx->scissor_test); return true;
	case GL_SCISSOR_BOX: put_i(v, V_INT, 4, ctx->scissor); return true;
	case GL_STENCIL_TEST: B1(ctx->stencil_test); return true;
	case GL_STENCIL_FUNC: I1(sf->func); return true;
	case GL_STENCIL_VALUE_MASK: I1(sf->value_mask); return true;
	case GL_STENCIL_REF: I1(sf->ref); return true;
	case GL_STENCIL_FAIL: I1(sf->fail); return true;
	case GL_STENCIL_PASS_DEPTH_FAIL: I1(sf->zfail); return true;
	case GL_STENCIL_PASS_DEPTH_PASS: I1(sf->zpass); return true;
	case GL_STENCIL_BACK_FUNC: I1(sb->func); return true;
	case GL_STENCIL_BACK_VALUE_MASK: I1(sb->value_mask); return true;
	case GL_STENCIL_BACK_REF: I1(sb->ref); return true;
	case GL_STENCIL_BACK_FAIL: I1(sb->fail); return true;
	case GL_STENCIL_BACK_PASS_DEPTH_FAIL: I1(sb->zfail); return true;
	case GL_STENCIL_BACK_PASS_DEPTH_PASS: I1(sb->zpass); return true;
	case GL_DEPTH_TEST: B1(ctx->depth_test); return true;
	case GL_DEPTH_FUNC: I1(ctx->depth_func); return true;
	case GL_BLEND: B1(ctx->blend); return true;
	case GL_BLEND_SRC_RGB: I1(ctx->blend_src_rgb); return true;
	case GL_BLEND_SRC_ALPHA: I1(ctx->blend_src_alpha); return true;
	case GL_BLEND_DST_RGB: I1(ctx->blend_dst_rgb); return true;
	case GL_BLEND_DST_ALPHA: I1(ctx->blend_dst_alpha); return true;
	case GL_BLEND_EQUATION_RGB: I1(ctx->blend_eq_rgb); return true; /* = BLEND_EQUATION */
	case GL_BLEND_EQUATION_ALPHA: I1(ctx->blend_eq_alpha); return true;
	case GL_BLEND_COLOR: put_f(v, V_NORM, 4, ctx->blend_color); return true;
	case GL_DITHER: B1(ctx->dither); return true;
	/* 6.12 */
	case GL_COLOR_WRITEMASK: {
		GLint m[4] = { ctx->color_mask[0], ctx->color_mask[1], ctx->color_mask[2],
			       ctx->color_mask[3] };
		put_i(v, V_BOOL, 4, m);
		return true;
	}
	case GL_DEPTH_WRITEMASK: B1(ctx->depth_mask); return true;
	case GL_STENCIL_WRITEMASK: I1(sf->write_mask); return true;
	case GL_STENCIL_BACK_WRITEMASK: I1(sb->write_mask); return true;
	case GL_COLOR_CLEAR_VALUE: put_f(v, V_NORM, 4, ctx->clear_color); return true;
	case GL_DEPTH_CLEAR_VALUE: put_f(v, V_NORM, 1, &ctx->clear_depth); return true;
	case GL_STENCIL_CLEAR_VALUE: I1(ctx->clear_stencil); return true;
	/* 6.13 */
	case GL_UNPACK_ALIGNMENT: I1(ctx->unpack_alignment); return true;
	case GL_PACK_ALIGNMENT: I1(ctx->pack_alignment); return true;
	case GL_UNPACK_ROW_LENGTH_EXT: I1(ctx->unpack_row_length); return true;
	case GL_UNPACK_SKIP_ROWS_EXT: I1(ctx->unpack_skip_rows); return true;
	case GL_UNPACK_SKIP_PIXELS_EXT: I1(ctx->unpack_skip_pixels); return true;
	/* 6.14 */
	case GL_FRAMEBUFFER_BINDING: I1(ctx->framebuffer ? ctx->framebuffer->name : 0); return true;
	case GL_READ_FRAMEBUFFER_BINDING_NV:
		I1(ctx->read_framebuffer ? ctx->read_framebuffer->name : 0);
		return true;
	case GL_RENDERBUFFER_BINDING: I1(ctx->renderbuffer); return true;
	/* 6.15 */
	case GL_CURRENT_PROGRAM: I1(ctx->program ? ctx->program->name : 0); return true;
	/* 6.16 */
	case GL_GENERATE_MIPMAP_HINT: I1(ctx->generate_mipmap_hint); return true;
	case GL_FRAGMENT_SHADER_DERIVATIVE_HINT_OES: I1(ctx->derivative_hint); return true;
	/* 6.18 - 6.20: implementation-dependent */
	case GL_SUBPIXEL_BITS: I1(4); return true;
	case GL_MAX_TEXTURE_SIZE: I1(TSR_GLES_MAX_TEXTURE_SIZE); return true;
	case GL_MAX_CUBE_MAP_TEXTURE_SIZE: I1(TSR_GLES_MAX_TEXTURE_SIZE); return true;
	case GL_MAX_VIEWPORT_DIMS: {
		GLint d[2] = { TSR_GLES_MAX_VIEWPORT_DIMS, TSR_GLES_MAX_VIEWPORT_DIMS };
		put_i(v, V_INT, 2, d);
		return true;
	}
	case GL_ALIASED_POINT_SIZE_RANGE: {
		GLfloat r[2] = { 1.0f, TSR_POINT_SIZE_MAX };
		put_f(v, V_FLOAT, 2, r);
		return true;
	}
	case GL_ALIASED_LINE_WIDTH_RANGE: {
		GLfloat r[2] = { 1.0f, TSR_LINE_WIDTH_MAX };
		put_f(v, V_FLOAT, 2, r);
		return true;
	}
	case GL_SAMPLE_BUFFERS: I1(0); return true;
	case GL_SAMPLES: I1(0); return true;
	case GL_NUM_COMPRESSED_TEXTURE_FORMATS: I1(4); return true;
	case GL_COMPRESSED_TEXTURE_FORMATS: {  /* GL_EXT_texture_compression_s3tc's */
		static const GLint s3tc[4] = {
			GL_COMPRESSED_RGB_S3TC_DXT1_EXT, GL_COMPRESSED_RGBA_S3TC_DXT1_EXT,
			GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, GL_COMPRESSED_RGBA_S3TC_DXT5_EXT};
		put_i(v, V_INT, 4, s3tc);
		return true;
	}
	case GL_NUM_SHADER_BINARY_FORMATS: I1(0); return true;
	case GL_SHADER_BINARY_FORMATS: v->kind = V_INT; v->n = 0; return true;
	case GL_SHADER_COMPILER: B1(1); return true;
	case GL_MAX_RENDERBUFFER_SIZE: I1(TSR_GLES_MAX_RENDERBUFFER_SIZE); return true;
	case 0x8824: /* GL_MAX_DRAW_BUFFERS_EXT */
	case 0x8CDF: /* GL_MAX_COLOR_ATTACHMENTS_EXT */
		I1(TSR_GLES_MAX_DRAW_BUFFERS);
		return true;
	case GL_MAX_DUAL_SOURCE_DRAW_BUFFERS_EXT: I1(TSR_GLES_MAX_DUAL_SOURCE_DRAW_BUFFERS); return true;
	case 0x8825: /* GL_DRAW_BUFFER0_EXT */
		I1(ctx->framebuffer ? (ctx->framebuffer->draw_buffers & 1 ? GL_COLOR_ATTACHMENT0
								   : GL_NONE)
				    : ctx->default_draw_none ? GL_NONE : GL_BACK);
		return true;
	case 0x8826: case 0x8827: case 0x8828: { /* GL_DRAW_BUFFER1..3_EXT */
		const unsigned i = pname - 0x8825;
		I1(ctx->framebuffer && ctx->framebuffer->draw_buffers >> i & 1
			   ? (GLint)(GL_COLOR_ATTACHMENT0 + i) : GL_NONE);
		return true;
	}
	case GL_MAX_VERTEX_ATTRIBS: I1(TSR_GLES_MAX_VERTEX_ATTRIBS); return true;
	case GL_MAX_VERTEX_UNIFORM_VECTORS: I1(TSR_SHADER_MAX_UNIFORM_VECTORS); return true;
	case GL_MAX_FRAGMENT_UNIFORM_VECTORS: I1(TSR_SHADER_MAX_UNIFORM_VECTORS); return true;
	case GL_MAX_VARYING_VECTORS: I1(TSR_SHADER_MAX_VARYINGS); return true;
	case GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS: I1(TSR_GLES_MAX_TEXTURE_UNITS); return true;
	case GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS: I1(TSR_GLES_MAX_TEXTURE_UNITS); return true;
	case GL_MAX_TEXTURE_IMAGE_UNITS: I1(TSR_GLES_MAX_TEXTURE_UNITS); return true;
	case GL_IMPLEMENTATION_COLOR_READ_TYPE: I1(GL_UNSIGNED_BYTE); return true;
	case GL_IMPLEMENTATION_COLOR_READ_FORMAT: I1(GL_RGBA); return true;
	/* 0x0D32: GL_MAX_CLIP_PLANES of desktop GL and ES 1.x, GL_MAX_CLIP_DISTANCES_EXT
	 * of EXT_clip_cull_distance. Not GL ES 2.0 state (strictly INVALID_ENUM), but
	 * piglit's shader_runner_gles2 queries it unconditionally and takes the error
	 * left pending for a failed glUseProgram: answered 0 (no user clip planes). */
	case GL_MAX_CLIP_DISTANCES_EXT: I1(0); return true;
	/* 6.21: the bound framebuffer's */
	case GL_RED_BITS: gles_framebuffer_bits(ctx, ctx->framebuffer, bits); I1(bits[0]); return true;
	case GL_GREEN_BITS: gles_framebuffer_bits(ctx, ctx->framebuffer, bits); I1(bits[1]); return true;
	case GL_BLUE_BITS: gles_framebuffer_bits(ctx, ctx->framebuffer, bits); I1(bits[2]); return true;
	case GL_ALPHA_BITS: gles_framebuffer_bits(ctx, ctx->framebuffer, bits); I1(bits[3]); return true;
	case GL_DEPTH_BITS: gles_framebuffer_bits(ctx, ctx->framebuffer, bits); I1(bits[4]); return true;
	case GL_STENCIL_BITS: gles_framebuffer_bits(ctx, ctx->framebuffer, bits); I1(bits[5]); return true;
	/* GL_KHR_debug */
	case GL_DEBUG_OUTPUT_KHR: B1(ctx->debug.output); return true;
	case GL_DEBUG_OUTPUT_SYNCHRONOUS_KHR: B1(ctx->debug.synchronous); return true;
	default: {
		GLint d;
		if (!gles_debug_get(ctx, pname, &d))
			return false;
		I1(d);
		return true;
	}
	}
}

void tsr_gles_GetBooleanv(struct tsr_gles_context *ctx, GLenum pname, GLboolean *params)
{
	struct val v = { .n = 0 };
	if (!get_value(ctx, pname, &v)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	for (int k = 0; k < v.n; k++)
		params[k] = (v.kind == V_INT || v.kind == V_BOOL ? v.i[k] != 0 : v.f[k] != 0.0f)
				    ? GL_TRUE : GL_FALSE;
}

void tsr_gles_GetIntegerv(struct tsr_gles_context *ctx, GLenum pname, GLint *params)
{
	struct val v = { .n = 0 };
	if (!get_value(ctx, pname, &v)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	for (int k = 0; k < v.n; k++) {
		switch (v.kind) {
		case V_INT: case V_BOOL: params[k] = v.i[k]; break;
		case V_FLOAT: params[k] = gles_round_int(v.f[k]); break;
		case V_NORM:
			params[k] = (GLint)floor((4294967295.0 * v.f[k] - 1.0) / 2.0 + 0.5);
			break;
		}
	}
}

void tsr_gles_GetFloatv(struct tsr_gles_context *ctx, GLenum pname, GLfloat *params)
{
	struct val v = { .n = 0 };
	if (!get_value(ctx, pname, &v)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	for (int k = 0; k < v.n; k++)
		params[k] = v.kind == V_INT || v.kind == V_BOOL ? (GLfloat)v.i[k] : v.f[k];
}

const GLubyte *tsr_gles_GetString(struct tsr_gles_context *ctx, GLenum name)
{
	switch (name) {
	case GL_VENDOR: return (const GLubyte *)"tessera";
	case GL_RENDERER: return (const GLubyte *)"tessera tile-based GPU simulator";
	case GL_VERSION: return (const GLubyte *)"OpenGL ES 2.0 tessera";
	case GL_SHADING_LANGUAGE_VERSION: return (const GLubyte *)"OpenGL ES GLSL ES 1.00";
	case GL_EXTENSIONS: return (const GLubyte *)TSR_GLES_EXTENSIONS;
	default:
		gles_error(ctx, GL_INVALID_ENUM);
		return NULL;
	}
}
