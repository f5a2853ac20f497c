/*
 * 151-gles-state.c - the GL ES 2.0 context's non-drawing state: every Get
 * after create equals the initial value of tables 6.2-6.22 (OpenGL ES
 * 2.0.25), each setter's round trip and errors, 6.1.2's type conversions,
 * vertex attributes, Enable/Disable/IsEnabled, GetString.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_main.h"
#include "gles/gles.h"

static struct tsr_gles_context *ctx_new(void)
{
	struct tsr_gles_context *ctx = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(64, 32, NULL, &ctx, &err), TSR_OK);
	return ctx;
}

static GLint geti(struct tsr_gles_context *ctx, GLenum pname)
{
	GLint v[16] = { -12345 };
	tsr_gles_GetIntegerv(ctx, pname, v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	return v[0];
}

static GLfloat getf(struct tsr_gles_context *ctx, GLenum pname)
{
	GLfloat v[16] = { -12345.0f };
	tsr_gles_GetFloatv(ctx, pname, v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	return v[0];
}

static GLboolean getb(struct tsr_gles_context *ctx, GLenum pname)
{
	GLboolean v[16] = { 7 };
	tsr_gles_GetBooleanv(ctx, pname, v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	return v[0];
}

static void test_defaults(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	static const struct { GLenum pname; GLint value; } ints[] = {
		{ GL_ARRAY_BUFFER_BINDING, 0 }, { GL_ELEMENT_ARRAY_BUFFER_BINDING, 0 },
		{ GL_CULL_FACE_MODE, GL_BACK }, { GL_FRONT_FACE, GL_CCW },
		{ GL_LINE_WIDTH, 1 }, { GL_POLYGON_OFFSET_FACTOR, 0 }, { GL_POLYGON_OFFSET_UNITS, 0 },
		{ GL_TEXTURE_BINDING_2D, 0 }, { GL_TEXTURE_BINDING_CUBE_MAP, 0 },
		{ GL_ACTIVE_TEXTURE, GL_TEXTURE0 },
		{ GL_STENCIL_FUNC, GL_ALWAYS }, { GL_STENCIL_VALUE_MASK, -1 }, { GL_STENCIL_REF, 0 },
		{ GL_STENCIL_FAIL, GL_KEEP }, { GL_STENCIL_PASS_DEPTH_FAIL, GL_KEEP },
		{ GL_STENCIL_PASS_DEPTH_PASS, GL_KEEP }, { GL_STENCIL_BACK_FUNC, GL_ALWAYS },
		{ GL_STENCIL_BACK_VALUE_MASK, -1 }, { GL_STENCIL_BACK_REF, 0 },
		{ GL_STENCIL_BACK_FAIL, GL_KEEP }, { GL_STENCIL_BACK_PASS_DEPTH_FAIL, GL_KEEP },
		{ GL_STENCIL_BACK_PASS_DEPTH_PASS, GL_KEEP }, { GL_DEPTH_FUNC, GL_LESS },
		{ GL_BLEND_SRC_RGB, GL_ONE }, { GL_BLEND_SRC_ALPHA, GL_ONE },
		{ GL_BLEND_DST_RGB, GL_ZERO }, { GL_BLEND_DST_ALPHA, GL_ZERO },
		{ GL_BLEND_EQUATION_RGB, GL_FUNC_ADD }, { GL_BLEND_EQUATION_ALPHA, GL_FUNC_ADD },
		{ GL_STENCIL_WRITEMASK, -1 }, { GL_STENCIL_BACK_WRITEMASK, -1 },
		{ GL_STENCIL_CLEAR_VALUE, 0 }, { GL_DEPTH_CLEAR_VALUE, 2147483647 },
		{ GL_UNPACK_ALIGNMENT, 4 }, { GL_PACK_ALIGNMENT, 4 },
		{ GL_FRAMEBUFFER_BINDING, 0 }, { GL_RENDERBUFFER_BINDING, 0 },
		{ GL_CURRENT_PROGRAM, 0 }, { GL_GENERATE_MIPMAP_HINT, GL_DONT_CARE },
		{ GL_FRAGMENT_SHADER_DERIVATIVE_HINT_OES, GL_DONT_CARE },
		{ GL_SUBPIXEL_BITS, 4 }, { GL_MAX_TEXTURE_SIZE, 4096 },
		{ GL_MAX_CUBE_MAP_TEXTURE_SIZE, 4096 }, { GL_SAMPLE_BUFFERS, 0 }, { GL_SAMPLES, 0 },
		{ GL_NUM_COMPRESSED_TEXTURE_FORMATS, 4 }, { GL_NUM_SHADER_BINARY_FORMATS, 0 },
		{ GL_MAX_RENDERBUFFER_SIZE, 4096 }, { GL_MAX_VERTEX_ATTRIBS, 16 },
		{ GL_MAX_VERTEX_UNIFORM_VECTORS, 256 }, { GL_MAX_FRAGMENT_UNIFORM_VECTORS, 256 },
		{ GL_MAX_VARYING_VECTORS, 16 }, { GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, 16 },
		{ GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS, 16 }, { GL_MAX_TEXTURE_IMAGE_UNITS, 16 },
		{ GL_IMPLEMENTATION_COLOR_READ_TYPE, GL_UNSIGNED_BYTE },
		{ GL_IMPLEMENTATION_COLOR_READ_FORMAT, GL_RGBA },
		{ GL_RED_BITS, 8 }, { GL_GREEN_BITS, 8 }, { GL_BLUE_BITS, 8 }, { GL_ALPHA_BITS, 8 },
		{ GL_DEPTH_BITS, 24 }, { GL_STENCIL_BITS, 8 },
	};
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
		if (geti(ctx, ints[i].pname) != ints[i].value)
			fail_msg("pname 0x%04x: %d, want %d", ints[i].pname, geti(ctx, ints[i].pname),
				 ints[i].value);
	}
	static const struct { GLenum pname; GLboolean value; } bools[] = {
		{ GL_CULL_FACE, GL_FALSE }, { GL_POLYGON_OFFSET_FILL, GL_FALSE },
		{ GL_SAMPLE_ALPHA_TO_COVERAGE, GL_FALSE }, { GL_SAMPLE_COVERAGE, GL_FALSE },
		{ GL_SAMPLE_COVERAGE_INVERT, GL_FALSE }, { GL_SCISSOR_TEST, GL_FALSE },
		{ GL_STENCIL_TEST, GL_FALSE }, { GL_DEPTH_TEST, GL_FALSE }, { GL_BLEND, GL_FALSE },
		{ GL_DITHER, GL_TRUE }, { GL_DEPTH_WRITEMASK, GL_TRUE }, { GL_SHADER_COMPILER, GL_TRUE },
	};
	for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++) {
		assert_int_equal(getb(ctx, bools[i].pname), bools[i].value);
		if (bools[i].pname != GL_SAMPLE_COVERAGE_INVERT && bools[i].pname != GL_DEPTH_WRITEMASK &&
		    bools[i].pname != GL_SHADER_COMPILER)
			assert_int_equal(tsr_gles_IsEnabled(ctx, bools[i].pname), bools[i].value);
	}
	GLint v4[4];
	tsr_gles_GetIntegerv(ctx, GL_VIEWPORT, v4);
	assert_int_equal(v4[0], 0);
	assert_int_equal(v4[1], 0);
	assert_int_equal(v4[2], 64);
	assert_int_equal(v4[3], 32);
	tsr_gles_GetIntegerv(ctx, GL_SCISSOR_BOX, v4);
	assert_int_equal(v4[2], 64);
	assert_int_equal(v4[3], 32);
	GLfloat f4[4];
	tsr_gles_GetFloatv(ctx, GL_DEPTH_RANGE, f4);
	assert_true(f4[0] == 0.0f && f4[1] == 1.0f);
	tsr_gles_GetFloatv(ctx, GL_COLOR_CLEAR_VALUE, f4);
	assert_true(f4[0] == 0.0f && f4[3] == 0.0f);
	tsr_gles_GetFloatv(ctx, GL_BLEND_COLOR, f4);
	assert_true(f4[0] == 0.0f && f4[3] == 0.0f);
	assert_true(getf(ctx, GL_SAMPLE_COVERAGE_VALUE) == 1.0f);
	assert_true(getf(ctx, GL_DEPTH_CLEAR_VALUE) == 1.0f);
	GLboolean b4[4];
	tsr_gles_GetBooleanv(ctx, GL_COLOR_WRITEMASK, b4);
	assert_true(b4[0] && b4[1] && b4[2] && b4[3]);
	tsr_gles_GetFloatv(ctx, GL_ALIASED_LINE_WIDTH_RANGE, f4);
	assert_true(f4[0] == 1.0f && f4[1] >= 1.0f);
	tsr_gles_GetFloatv(ctx, GL_ALIASED_POINT_SIZE_RANGE, f4);
	assert_true(f4[0] == 1.0f && f4[1] >= 1.0f);
	tsr_gles_GetIntegerv(ctx, GL_MAX_VIEWPORT_DIMS, v4);
	assert_true(v4[0] >= 64 && v4[1] >= 32);
	/* table 6.2 and 6.3 per attribute */
	for (GLuint a = 0; a < 16; a++) {
		GLint v;
		tsr_gles_GetVertexAttribiv(ctx, a, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &v);
		assert_int_equal(v, GL_FALSE);
		tsr_gles_GetVertexAttribiv(ctx, a, GL_VERTEX_ATTRIB_ARRAY_SIZE, &v);
		assert_int_equal(v, 4);
		tsr_gles_GetVertexAttribiv(ctx, a, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &v);
		assert_int_equal(v, 0);
		tsr_gles_GetVertexAttribiv(ctx, a, GL_VERTEX_ATTRIB_ARRAY_TYPE, &v);
		assert_int_equal(v, GL_FLOAT);
		tsr_gles_GetVertexAttribiv(ctx, a, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED, &v);
		assert_int_equal(v, GL_FALSE);
		tsr_gles_GetVertexAttribfv(ctx, a, GL_CURRENT_VERTEX_ATTRIB, f4);
		assert_true(f4[0] == 0 && f4[1] == 0 && f4[2] == 0 && f4[3] == 1);
		void *p = (void *)1;
		tsr_gles_GetVertexAttribPointerv(ctx, a, GL_VERTEX_ATTRIB_ARRAY_POINTER, &p);
		assert_null(p);
	}
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_GetIntegerv(ctx, GL_TEXTURE_3D_OES, v4);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_context_destroy(ctx);
}

static void test_strings(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	assert_string_equal((const char *)tsr_gles_GetString(ctx, GL_VENDOR), "tessera");
	assert_string_equal((const char *)tsr_gles_GetString(ctx, GL_VERSION),
			    "OpenGL ES 2.0 tessera");
	assert_string_equal((const char *)tsr_gles_GetString(ctx, GL_SHADING_LANGUAGE_VERSION),
			    "OpenGL ES GLSL ES 1.00");
	assert_non_null(strstr((const char *)tsr_gles_GetString(ctx, GL_EXTENSIONS),
			       "GL_OES_mapbuffer"));
	assert_non_null(strstr((const char *)tsr_gles_GetString(ctx, GL_EXTENSIONS),
			       "GL_OES_element_index_uint"));
	assert_non_null(strstr((const char *)tsr_gles_GetString(ctx, GL_EXTENSIONS),
			       "GL_OES_texture_npot"));
	assert_non_null(tsr_gles_GetString(ctx, GL_RENDERER));
	assert_null(tsr_gles_GetString(ctx, GL_BLEND));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_context_destroy(ctx);
}

static void test_round_trips(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	GLint v4[4];
	GLfloat f4[4];
	tsr_gles_Viewport(ctx, -3, 5, 100, 9000);
	tsr_gles_GetIntegerv(ctx, GL_VIEWPORT, v4);
	assert_int_equal(v4[0], -3);
	assert_int_equal(v4[1], 5);
	assert_int_equal(v4[2], 100);
	assert_int_equal(v4[3], 4096);  /* clamped to MAX_VIEWPORT_DIMS */
	tsr_gles_Viewport(ctx, 0, 0, -1, 1);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_DepthRangef(ctx, -1.0f, 0.25f);
	tsr_gles_GetFloatv(ctx, GL_DEPTH_RANGE, f4);
	assert_true(f4[0] == 0.0f && f4[1] == 0.25f);
	tsr_gles_CullFace(ctx, GL_FRONT_AND_BACK);
	assert_int_equal(geti(ctx, GL_CULL_FACE_MODE), GL_FRONT_AND_BACK);
	tsr_gles_CullFace(ctx, GL_CCW);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_FrontFace(ctx, GL_CW);
	assert_int_equal(geti(ctx, GL_FRONT_FACE), GL_CW);
	tsr_gles_FrontFace(ctx, GL_BACK);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_LineWidth(ctx, 0.0f);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_LineWidth(ctx, 2.5f);
	assert_true(getf(ctx, GL_LINE_WIDTH) == 2.5f);
	assert_int_equal(geti(ctx, GL_LINE_WIDTH), 3);  /* rounded */
	tsr_gles_PolygonOffset(ctx, 1.5f, -2.0f);
	assert_true(getf(ctx, GL_POLYGON_OFFSET_FACTOR) == 1.5f);
	assert_true(getf(ctx, GL_POLYGON_OFFSET_UNITS) == -2.0f);
	tsr_gles_Scissor(ctx, 1, 2, 3, 4);
	tsr_gles_GetIntegerv(ctx, GL_SCISSOR_BOX, v4);
	assert_true(v4[0] == 1 && v4[1] == 2 && v4[2] == 3 && v4[3] == 4);
	tsr_gles_Scissor(ctx, 0, 0, 1, -4);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_SampleCoverage(ctx, 2.0f, GL_TRUE);
	assert_true(getf(ctx, GL_SAMPLE_COVERAGE_VALUE) == 1.0f);
	assert_true(getb(ctx, GL_SAMPLE_COVERAGE_INVERT));
	/* stencil: separate faces */
	tsr_gles_StencilFuncSeparate(ctx, GL_BACK, GL_GEQUAL, 3, 0x0f);
	assert_int_equal(geti(ctx, GL_STENCIL_FUNC), GL_ALWAYS);
	assert_int_equal(geti(ctx, GL_STENCIL_BACK_FUNC), GL_GEQUAL);
	assert_int_equal(geti(ctx, GL_STENCIL_BACK_REF), 3);
	assert_int_equal(geti(ctx, GL_STENCIL_BACK_VALUE_MASK), 0x0f);
	tsr_gles_StencilFunc(ctx, GL_EQUAL, 1, 0xff);
	assert_int_equal(geti(ctx, GL_STENCIL_FUNC), GL_EQUAL);
	assert_int_equal(geti(ctx, GL_STENCIL_BACK_FUNC), GL_EQUAL);
	tsr_gles_StencilFunc(ctx, GL_KEEP, 1, 0xff);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_StencilOpSeparate(ctx, GL_FRONT, GL_ZERO, GL_INCR_WRAP, GL_INVERT);
	assert_int_equal(geti(ctx, GL_STENCIL_FAIL), GL_ZERO);
	assert_int_equal(geti(ctx, GL_STENCIL_PASS_DEPTH_FAIL), GL_INCR_WRAP);
	assert_int_equal(geti(ctx, GL_STENCIL_PASS_DEPTH_PASS), GL_INVERT);
	assert_int_equal(geti(ctx, GL_STENCIL_BACK_FAIL), GL_KEEP);
	tsr_gles_StencilOp(ctx, GL_REPLACE, GL_DECR, GL_LESS);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	assert_int_equal(geti(ctx, GL_STENCIL_FAIL), GL_ZERO);  /* unchanged */
	tsr_gles_StencilMaskSeparate(ctx, GL_FRONT, 0x3);
	assert_int_equal(geti(ctx, GL_STENCIL_WRITEMASK), 3);
	assert_int_equal(geti(ctx, GL_STENCIL_BACK_WRITEMASK), -1);
	tsr_gles_StencilMask(ctx, 0x5);
	assert_int_equal(geti(ctx, GL_STENCIL_BACK_WRITEMASK), 5);
	tsr_gles_DepthFunc(ctx, GL_GEQUAL);
	assert_int_equal(geti(ctx, GL_DEPTH_FUNC), GL_GEQUAL);
	tsr_gles_DepthFunc(ctx, GL_ZERO);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_DepthMask(ctx, GL_FALSE);
	assert_false(getb(ctx, GL_DEPTH_WRITEMASK));
	/* blending */
	tsr_gles_BlendFuncSeparate(ctx, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE,
				   GL_ONE_MINUS_SRC_ALPHA);
	assert_int_equal(geti(ctx, GL_BLEND_SRC_RGB), GL_SRC_ALPHA);
	assert_int_equal(geti(ctx, GL_BLEND_DST_RGB), GL_ONE_MINUS_SRC_ALPHA);
	assert_int_equal(geti(ctx, GL_BLEND_SRC_ALPHA), GL_ONE);
	assert_int_equal(geti(ctx, GL_BLEND_DST_ALPHA), GL_ONE_MINUS_SRC_ALPHA);
	tsr_gles_BlendFunc(ctx, GL_ONE, GL_BLEND_COLOR);  /* not a factor */
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	/* GL_EXT_blend_func_extended: SRC_ALPHA_SATURATE a destination factor too
	 * (test 169 has the SRC1 factors) */
	tsr_gles_BlendFunc(ctx, GL_ONE, GL_SRC_ALPHA_SATURATE);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	assert_int_equal(geti(ctx, GL_BLEND_DST_RGB), GL_SRC_ALPHA_SATURATE);
	tsr_gles_BlendFunc(ctx, GL_SRC_ALPHA_SATURATE, GL_CONSTANT_COLOR);
	assert_int_equal(geti(ctx, GL_BLEND_SRC_ALPHA), GL_SRC_ALPHA_SATURATE);
	assert_int_equal(geti(ctx, GL_BLEND_DST_ALPHA), GL_CONSTANT_COLOR);
	tsr_gles_BlendEquationSeparate(ctx, GL_FUNC_SUBTRACT, GL_FUNC_REVERSE_SUBTRACT);
	assert_int_equal(geti(ctx, GL_BLEND_EQUATION), GL_FUNC_SUBTRACT);
	assert_int_equal(geti(ctx, GL_BLEND_EQUATION_ALPHA), GL_FUNC_REVERSE_SUBTRACT);
	tsr_gles_BlendEquation(ctx, GL_MIN_EXT);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_BlendColor(ctx, 0.5f, 2.0f, -1.0f, 1.0f);
	tsr_gles_GetFloatv(ctx, GL_BLEND_COLOR, f4);
	assert_true(f4[0] == 0.5f && f4[1] == 1.0f && f4[2] == 0.0f && f4[3] == 1.0f);
	/* 6.1.2: colors to integers map [0, 1] onto [0, 2^31 - 1] */
	tsr_gles_GetIntegerv(ctx, GL_BLEND_COLOR, v4);
	assert_int_equal(v4[1], 2147483647);
	assert_int_equal(v4[2], 0);
	assert_int_equal(v4[0], 1073741823);
	tsr_gles_ColorMask(ctx, GL_TRUE, GL_FALSE, 5, GL_FALSE);
	GLboolean b4[4];
	tsr_gles_GetBooleanv(ctx, GL_COLOR_WRITEMASK, b4);
	assert_true(b4[0] == GL_TRUE && b4[1] == GL_FALSE && b4[2] == GL_TRUE && b4[3] == GL_FALSE);
	tsr_gles_ClearColor(ctx, 0.25f, 0.5f, 0.75f, 3.0f);
	tsr_gles_GetFloatv(ctx, GL_COLOR_CLEAR_VALUE, f4);
	assert_true(f4[0] == 0.25f && f4[1] == 0.5f && f4[2] == 0.75f && f4[3] == 1.0f);
	tsr_gles_ClearDepthf(ctx, 0.5f);
	assert_true(getf(ctx, GL_DEPTH_CLEAR_VALUE) == 0.5f);
	tsr_gles_ClearStencil(ctx, 9);
	assert_int_equal(geti(ctx, GL_STENCIL_CLEAR_VALUE), 9);
	assert_true(getf(ctx, GL_STENCIL_CLEAR_VALUE) == 9.0f);
	assert_true(getb(ctx, GL_STENCIL_CLEAR_VALUE));
	/* pixel store and hints */
	tsr_gles_PixelStorei(ctx, GL_UNPACK_ALIGNMENT, 1);
	tsr_gles_PixelStorei(ctx, GL_PACK_ALIGNMENT, 8);
	assert_int_equal(geti(ctx, GL_UNPACK_ALIGNMENT), 1);
	assert_int_equal(geti(ctx, GL_PACK_ALIGNMENT), 8);
	tsr_gles_PixelStorei(ctx, GL_PACK_ALIGNMENT, 3);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	/* GL_EXT_unpack_subimage's (test 166 unpacks with them) */
	tsr_gles_PixelStorei(ctx, GL_UNPACK_ROW_LENGTH_EXT, 1);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	assert_int_equal(geti(ctx, GL_UNPACK_ROW_LENGTH_EXT), 1);
	tsr_gles_PixelStorei(ctx, GL_UNPACK_ROW_LENGTH_EXT, 0);
	tsr_gles_PixelStorei(ctx, 0x0D02 /* PACK_ROW_LENGTH: not ES 2.0 */, 1);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_Hint(ctx, GL_GENERATE_MIPMAP_HINT, GL_NICEST);
	tsr_gles_Hint(ctx, GL_FRAGMENT_SHADER_DERIVATIVE_HINT_OES, GL_FASTEST);
	assert_int_equal(geti(ctx, GL_GENERATE_MIPMAP_HINT), GL_NICEST);
	assert_int_equal(geti(ctx, GL_FRAGMENT_SHADER_DERIVATIVE_HINT_OES), GL_FASTEST);
	tsr_gles_Hint(ctx, GL_GENERATE_MIPMAP_HINT, GL_LESS);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_context_destroy(ctx);
}

static void test_enable(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	static const GLenum caps[] = { GL_CULL_FACE, GL_POLYGON_OFFSET_FILL,
		GL_SAMPLE_ALPHA_TO_COVERAGE, GL_SAMPLE_COVERAGE, GL_SCISSOR_TEST, GL_STENCIL_TEST,
		GL_DEPTH_TEST, GL_BLEND, GL_DITHER };
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		tsr_gles_Enable(ctx, caps[i]);
		assert_true(tsr_gles_IsEnabled(ctx, caps[i]));
		assert_true(getb(ctx, caps[i]));
		assert_int_equal(geti(ctx, caps[i]), 1);
		tsr_gles_Disable(ctx, caps[i]);
		assert_false(tsr_gles_IsEnabled(ctx, caps[i]));
	}
	tsr_gles_Enable(ctx, GL_TEXTURE_2D);  /* not a GL ES 2.0 capability */
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	assert_false(tsr_gles_IsEnabled(ctx, GL_TEXTURE_2D));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_Disable(ctx, 0x0B20 /* GL_LINE_SMOOTH */);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_context_destroy(ctx);
}

static void test_vertex_attribs(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	GLint v;
	GLfloat f4[4];
	static const float client[8];
	/* no buffer bound: a client pointer */
	tsr_gles_VertexAttribPointer(ctx, 2, 3, GL_UNSIGNED_BYTE, GL_TRUE, 12, client);
	void *p;
	tsr_gles_GetVertexAttribPointerv(ctx, 2, GL_VERTEX_ATTRIB_ARRAY_POINTER, &p);
	assert_ptr_equal(p, client);
	tsr_gles_GetVertexAttribiv(ctx, 2, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &v);
	assert_int_equal(v, 0);
	tsr_gles_GetVertexAttribiv(ctx, 2, GL_VERTEX_ATTRIB_ARRAY_SIZE, &v);
	assert_int_equal(v, 3);
	tsr_gles_GetVertexAttribiv(ctx, 2, GL_VERTEX_ATTRIB_ARRAY_TYPE, &v);
	assert_int_equal(v, GL_UNSIGNED_BYTE);
	tsr_gles_GetVertexAttribiv(ctx, 2, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED, &v);
	assert_int_equal(v, GL_TRUE);
	tsr_gles_GetVertexAttribfv(ctx, 2, GL_VERTEX_ATTRIB_ARRAY_STRIDE, f4);
	assert_true(f4[0] == 12.0f);
	/* a buffer bound: captured with the offset */
	tsr_gles_BindBuffer(ctx, GL_ARRAY_BUFFER, 4);
	tsr_gles_VertexAttribPointer(ctx, 2, 4, GL_FLOAT, GL_FALSE, 0, (const void *)8);
	tsr_gles_BindBuffer(ctx, GL_ARRAY_BUFFER, 0);
	tsr_gles_GetVertexAttribiv(ctx, 2, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &v);
	assert_int_equal(v, 4);
	tsr_gles_GetVertexAttribPointerv(ctx, 2, GL_VERTEX_ATTRIB_ARRAY_POINTER, &p);
	assert_ptr_equal(p, (void *)8);
	/* errors change nothing */
	tsr_gles_VertexAttribPointer(ctx, 2, 5, GL_FLOAT, GL_FALSE, 0, NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_VertexAttribPointer(ctx, 2, 4, GL_FLOAT, GL_FALSE, -4, NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_VertexAttribPointer(ctx, 2, 4, 0x140A /* GL_DOUBLE */, GL_FALSE, 0, NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_VertexAttribPointer(ctx, 16, 4, GL_FLOAT, GL_FALSE, 0, NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_GetVertexAttribiv(ctx, 2, GL_VERTEX_ATTRIB_ARRAY_SIZE, &v);
	assert_int_equal(v, 4);
	tsr_gles_EnableVertexAttribArray(ctx, 2);
	tsr_gles_GetVertexAttribiv(ctx, 2, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &v);
	assert_int_equal(v, GL_TRUE);
	tsr_gles_DisableVertexAttribArray(ctx, 2);
	tsr_gles_GetVertexAttribiv(ctx, 2, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &v);
	assert_int_equal(v, GL_FALSE);
	tsr_gles_EnableVertexAttribArray(ctx, 16);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	/* current values */
	tsr_gles_VertexAttrib2f(ctx, 5, 3.0f, 4.0f);
	tsr_gles_GetVertexAttribfv(ctx, 5, GL_CURRENT_VERTEX_ATTRIB, f4);
	assert_true(f4[0] == 3 && f4[1] == 4 && f4[2] == 0 && f4[3] == 1);
	const GLfloat four[4] = { 1.4f, -2.6f, 5, 6 };
	tsr_gles_VertexAttrib4fv(ctx, 5, four);
	GLint i4[4];
	tsr_gles_GetVertexAttribiv(ctx, 5, GL_CURRENT_VERTEX_ATTRIB, i4);
	assert_true(i4[0] == 1 && i4[1] == -3 && i4[2] == 5 && i4[3] == 6);
	tsr_gles_VertexAttrib3fv(ctx, 5, four);
	tsr_gles_GetVertexAttribfv(ctx, 5, GL_CURRENT_VERTEX_ATTRIB, f4);
	assert_true(f4[2] == 5 && f4[3] == 1);
	tsr_gles_VertexAttrib1f(ctx, 5, 7.0f);
	tsr_gles_GetVertexAttribfv(ctx, 5, GL_CURRENT_VERTEX_ATTRIB, f4);
	assert_true(f4[0] == 7 && f4[1] == 0 && f4[2] == 0 && f4[3] == 1);
	tsr_gles_VertexAttrib4f(ctx, 16, 0, 0, 0, 0);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_GetVertexAttribiv(ctx, 0, GL_VERTEX_ATTRIB_ARRAY_POINTER, &v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_GetVertexAttribPointerv(ctx, 0, GL_VERTEX_ATTRIB_ARRAY_SIZE, &p);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_context_destroy(ctx);
}

/* GetVertexAttribiv(CURRENT_VERTEX_ATTRIB) of values no GLint holds:
 * rounded and clamped (it converted 1e30 to int: undefined behaviour;
 * found by fuzz_gles). */
static void test_current_attrib_int_range(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	tsr_gles_VertexAttrib4f(ctx, 2, 1e30f, -3e9f, NAN, -2.5f);
	GLint v[4];
	tsr_gles_GetVertexAttribiv(ctx, 2, GL_CURRENT_VERTEX_ATTRIB, v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	assert_int_equal(v[0], INT32_MAX);
	assert_int_equal(v[1], INT32_MIN);
	assert_int_equal(v[2], 0);
	assert_int_equal(v[3], -3);
	tsr_gles_context_destroy(ctx);
}

/* GetIntegerv of a float state no GLint holds: rounded and clamped (3e9
 * came back negative, 1e30 as 0; found by fuzz_gles). */
static void test_get_integer_float_range(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	GLint v = 0;
	tsr_gles_PolygonOffset(ctx, 3e9f, -1e30f);
	tsr_gles_GetIntegerv(ctx, GL_POLYGON_OFFSET_FACTOR, &v);
	assert_int_equal(v, INT32_MAX);
	tsr_gles_GetIntegerv(ctx, GL_POLYGON_OFFSET_UNITS, &v);
	assert_int_equal(v, INT32_MIN);
	tsr_gles_LineWidth(ctx, 2.5f);
	tsr_gles_GetIntegerv(ctx, GL_LINE_WIDTH, &v);
	assert_int_equal(v, 3);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_context_destroy(ctx);
}

/* A NaN given to a state clamped to [0, 1] (clear color and depth, blend
 * color, depth range, sample coverage) is stored as 0: it was kept as NaN
 * (clamp01 compared it to nothing), reached the draw state and made
 * GetIntegerv convert NaN to int (undefined behaviour; found by
 * fuzz_gles). */
static void test_nan_clamped(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	tsr_gles_ClearColor(ctx, NAN, 0.5f, NAN, 2.0f);
	tsr_gles_ClearDepthf(ctx, NAN);
	tsr_gles_BlendColor(ctx, NAN, NAN, NAN, NAN);
	tsr_gles_DepthRangef(ctx, NAN, NAN);
	tsr_gles_SampleCoverage(ctx, NAN, GL_FALSE);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	GLfloat f[4];
	GLint i[4];
	tsr_gles_GetFloatv(ctx, GL_COLOR_CLEAR_VALUE, f);
	assert_true(f[0] == 0.0f && f[1] == 0.5f && f[2] == 0.0f && f[3] == 1.0f);
	tsr_gles_GetIntegerv(ctx, GL_COLOR_CLEAR_VALUE, i);
	assert_int_equal(i[0], 0);
	assert_int_equal(i[3], INT32_MAX);
	const GLenum pnames[] = { GL_DEPTH_CLEAR_VALUE, GL_BLEND_COLOR, GL_DEPTH_RANGE,
				  GL_SAMPLE_COVERAGE_VALUE };
	for (size_t p = 0; p < sizeof pnames / sizeof pnames[0]; p++) {
		tsr_gles_GetFloatv(ctx, pnames[p], f);
		assert_true(f[0] == 0.0f);
		tsr_gles_GetIntegerv(ctx, pnames[p], i);
		assert_int_equal(i[0], 0);
	}
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_context_destroy(ctx);
}

/* GL_MAX_CLIP_PLANES (0x0D32, = GL_MAX_CLIP_DISTANCES_EXT) is 0 with no
 * error: piglit's shader_runner_gles2 queries it on every GLES2 context and
 * failed every shader test on the INVALID_ENUM it left pending. */
static void test_max_clip_planes(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	assert_int_equal(geti(ctx, GL_MAX_CLIP_DISTANCES_EXT), 0);
	assert_int_equal(getf(ctx, GL_MAX_CLIP_DISTANCES_EXT), 0);
	assert_int_equal(getb(ctx, GL_MAX_CLIP_DISTANCES_EXT), GL_FALSE);
	tsr_gles_context_destroy(ctx);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_enable),
		cmocka_unit_test(test_vertex_attribs),
		cmocka_unit_test(test_current_attrib_int_range),
		cmocka_unit_test(test_get_integer_float_range),
		cmocka_unit_test(test_nan_clamped),
		cmocka_unit_test(test_max_clip_planes),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
