/*
 * 155-gles-draw.c - what a GL ES 2.0 draw needs: DrawArrays' and
 * DrawElements' errors (OpenGL ES 2.0.25, 2.8, 4.4.5), no program drawing
 * nothing, and the context's state translated into command/state.h's draw
 * state (the defaults equal tsr_draw_state_default(), every changed state
 * arrives); glClear's mask and values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_main.h"
#include "gles/gles.h"

static const char *VS = "attribute vec4 pos; void main() { gl_Position = pos; }\n";
static const char *FS =
	"precision mediump float;\n"
	"uniform sampler2D tex;\n"
	"uniform samplerCube cube;\n"
	"void main() { gl_FragColor = texture2D(tex, vec2(0.5)) + textureCube(cube, vec3(1.0)); }\n";

static struct tsr_gles_context *ctx_new(void)
{
	struct tsr_gles_context *ctx = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(64, 32, NULL, &ctx, &err), TSR_OK);
	return ctx;
}

static GLuint use_program(struct tsr_gles_context *ctx)
{
	GLuint vs = tsr_gles_CreateShader(ctx, GL_VERTEX_SHADER);
	GLuint fs = tsr_gles_CreateShader(ctx, GL_FRAGMENT_SHADER);
	tsr_gles_ShaderSource(ctx, vs, 1, &VS, NULL);
	tsr_gles_ShaderSource(ctx, fs, 1, &FS, NULL);
	tsr_gles_CompileShader(ctx, vs);
	tsr_gles_CompileShader(ctx, fs);
	GLuint p = tsr_gles_CreateProgram(ctx);
	tsr_gles_AttachShader(ctx, p, vs);
	tsr_gles_AttachShader(ctx, p, fs);
	tsr_gles_LinkProgram(ctx, p);
	tsr_gles_UseProgram(ctx, p);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	return p;
}

static void test_errors(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	struct tsr_gles_draw d;
	/* no program: nothing drawn, no error */
	assert_false(tsr_gles_draw_arrays_state(ctx, GL_TRIANGLES, 0, 3, &d));
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	/* argument errors come first */
	assert_false(tsr_gles_draw_arrays_state(ctx, 0x0007 /* GL_QUADS */, 0, 3, &d));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	assert_false(tsr_gles_draw_arrays_state(ctx, GL_TRIANGLES, 0, -1, &d));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	assert_false(tsr_gles_draw_arrays_state(ctx, GL_TRIANGLES, -1, 3, &d));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	assert_false(tsr_gles_draw_elements_state(ctx, GL_TRIANGLES, 3, GL_INT, NULL, &d));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	assert_false(tsr_gles_draw_elements_state(ctx, GL_TRIANGLES, 3, GL_FLOAT, NULL, &d));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	/* OES_element_index_uint: UNSIGNED_INT is an index type (no program: nothing drawn) */
	assert_false(tsr_gles_draw_elements_state(ctx, GL_TRIANGLES, 3, GL_UNSIGNED_INT, NULL, &d));
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	assert_false(tsr_gles_draw_elements_state(ctx, GL_TRIANGLES, -1, GL_UNSIGNED_INT, NULL, &d));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	assert_false(tsr_gles_draw_elements_state(ctx, GL_TRIANGLES, -3, GL_UNSIGNED_SHORT, NULL, &d));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	use_program(ctx);
	assert_true(tsr_gles_draw_arrays_state(ctx, GL_TRIANGLES, 0, 3, &d));
	assert_false(tsr_gles_draw_arrays_state(ctx, GL_TRIANGLES, 0, 0, &d));
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	/* an incomplete framebuffer */
	tsr_gles_BindFramebuffer(ctx, GL_FRAMEBUFFER, 1);
	assert_false(tsr_gles_draw_arrays_state(ctx, GL_TRIANGLES, 0, 3, &d));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_FRAMEBUFFER_OPERATION);
	tsr_gles_BindFramebuffer(ctx, GL_FRAMEBUFFER, 0);
	/* a mapped buffer */
	tsr_gles_BindBuffer(ctx, GL_ARRAY_BUFFER, 2);
	tsr_gles_BufferData(ctx, GL_ARRAY_BUFFER, 48, NULL, GL_STATIC_DRAW);
	tsr_gles_VertexAttribPointer(ctx, 0, 4, GL_FLOAT, GL_FALSE, 0, NULL);
	tsr_gles_EnableVertexAttribArray(ctx, 0);
	tsr_gles_MapBufferOES(ctx, GL_ARRAY_BUFFER, GL_WRITE_ONLY_OES);
	assert_false(tsr_gles_draw_arrays_state(ctx, GL_TRIANGLES, 0, 3, &d));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_UnmapBufferOES(ctx, GL_ARRAY_BUFFER);
	assert_true(tsr_gles_draw_arrays_state(ctx, GL_TRIANGLES, 0, 3, &d));
	tsr_gles_context_destroy(ctx);
}

static void test_default_state(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	use_program(ctx);
	struct tsr_gles_draw d;
	assert_true(tsr_gles_draw_arrays_state(ctx, GL_TRIANGLE_STRIP, 2, 4, &d));
	struct tsr_draw_state want;
	tsr_draw_state_default(&want, 64, 32);
	want.mode = TSR_PRIM_TRIANGLE_STRIP;
	want.index.count = 4;
	assert_memory_equal(&d.state, &want, sizeof want);
	assert_int_equal(d.first, 2);
	assert_non_null(d.program);
	assert_int_equal(d.framebuffer, 0);
	/* the program samples unit 0 as 2D and as a cube: both default textures,
	 * incomplete */
	assert_int_equal(d.units[0].target, GL_TEXTURE_CUBE_MAP);
	assert_false(d.units[0].complete);
	assert_int_equal(d.units[1].target, GL_NONE);
	tsr_gles_context_destroy(ctx);
}

static void test_state_arrives(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	GLuint p = use_program(ctx);
	static const float client[12];
	tsr_gles_VertexAttribPointer(ctx, 9, 2, GL_SHORT, GL_TRUE, 8, client);
	tsr_gles_EnableVertexAttribArray(ctx, 9);
	tsr_gles_BindBuffer(ctx, GL_ARRAY_BUFFER, 3);
	tsr_gles_VertexAttribPointer(ctx, 1, 3, GL_UNSIGNED_BYTE, GL_TRUE, 4, (const void *)12);
	tsr_gles_EnableVertexAttribArray(ctx, 1);
	tsr_gles_VertexAttrib4f(ctx, 2, 1, 2, 3, 4);
	tsr_gles_Viewport(ctx, 1, 2, 30, 20);
	tsr_gles_DepthRangef(ctx, 0.25f, 0.75f);
	tsr_gles_Enable(ctx, GL_SCISSOR_TEST);
	tsr_gles_Scissor(ctx, 3, 4, 5, 6);
	tsr_gles_Enable(ctx, GL_CULL_FACE);
	tsr_gles_CullFace(ctx, GL_FRONT);
	tsr_gles_FrontFace(ctx, GL_CW);
	tsr_gles_Enable(ctx, GL_POLYGON_OFFSET_FILL);
	tsr_gles_PolygonOffset(ctx, 2, 3);
	tsr_gles_Enable(ctx, GL_DEPTH_TEST);
	tsr_gles_DepthFunc(ctx, GL_LEQUAL);
	tsr_gles_DepthMask(ctx, GL_FALSE);
	tsr_gles_Enable(ctx, GL_STENCIL_TEST);
	tsr_gles_StencilFuncSeparate(ctx, GL_BACK, GL_NOTEQUAL, 5, 0xf0);
	tsr_gles_StencilOpSeparate(ctx, GL_FRONT, GL_INVERT, GL_DECR_WRAP, GL_REPLACE);
	tsr_gles_Enable(ctx, GL_BLEND);
	tsr_gles_BlendFuncSeparate(ctx, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE_MINUS_DST_COLOR,
				   GL_CONSTANT_ALPHA);
	tsr_gles_BlendEquationSeparate(ctx, GL_FUNC_REVERSE_SUBTRACT, GL_FUNC_SUBTRACT);
	tsr_gles_BlendColor(ctx, 0.5f, 0.25f, 0, 1);
	tsr_gles_ColorMask(ctx, GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
	/* a complete mipmapped texture on unit 0's 2D target; cube on unit 1 */
	GLint cube = tsr_gles_GetUniformLocation(ctx, p, "cube");
	tsr_gles_Uniform1i(ctx, cube, 1);
	tsr_gles_BindTexture(ctx, GL_TEXTURE_2D, 7);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	tsr_gles_GenerateMipmap(ctx, GL_TEXTURE_2D);
	tsr_gles_TexParameteri(ctx, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_NEAREST);
	tsr_gles_TexParameteri(ctx, GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	tsr_gles_TexParameteri(ctx, GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_MIRRORED_REPEAT);
	/* an index buffer */
	tsr_gles_BindBuffer(ctx, GL_ELEMENT_ARRAY_BUFFER, 4);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	struct tsr_gles_draw d;
	assert_true(tsr_gles_draw_elements_state(ctx, GL_LINES, 6, GL_UNSIGNED_BYTE, (const void *)2,
						 &d));
	const struct tsr_draw_state *s = &d.state;
	assert_int_equal(s->mode, TSR_PRIM_LINES);
	assert_int_equal(s->index.type, TSR_INDEX_U8);
	assert_int_equal(s->index.buffer, 4);
	assert_int_equal(s->index.offset, 2);
	assert_int_equal(s->index.count, 6);
	assert_null(d.indices);
	assert_int_equal(s->attribs[1].enabled, 1);
	assert_int_equal(s->attribs[1].components, 3);
	assert_int_equal(s->attribs[1].type, TSR_ATTRIB_UBYTE);
	assert_int_equal(s->attribs[1].normalized, 1);
	assert_int_equal(s->attribs[1].buffer, 3);
	assert_int_equal(s->attribs[1].offset, 12);
	assert_int_equal(s->attribs[1].stride, 4);
	assert_true(s->attribs[2].value[0] == 1 && s->attribs[2].value[3] == 4);
	assert_int_equal(d.attribs[9].enabled, 1);
	assert_int_equal(d.attribs[9].type, TSR_ATTRIB_SHORT);
	assert_ptr_equal(d.attrib_pointers[9], client);
	assert_null(d.attrib_pointers[1]);
	assert_int_equal(s->viewport.x, 1);
	assert_int_equal(s->viewport.height, 20);
	assert_true(s->viewport.depth_near == 0.25f && s->viewport.depth_far == 0.75f);
	assert_int_equal(s->scissor.enable, 1);
	assert_int_equal(s->scissor.width, 5);
	assert_int_equal(s->cull.enable, 1);
	assert_int_equal(s->cull.face, TSR_CULL_FRONT);
	assert_int_equal(s->cull.front_face, TSR_FRONT_CW);
	assert_int_equal(s->polygon_offset.enable, 1);
	assert_true(s->polygon_offset.factor == 2 && s->polygon_offset.units == 3);
	assert_int_equal(s->depth.test, 1);
	assert_int_equal(s->depth.write, 0);
	assert_int_equal(s->depth.func, TSR_FUNC_LEQUAL);
	assert_int_equal(s->stencil.test, 1);
	assert_int_equal(s->stencil.back.func, TSR_FUNC_NOTEQUAL);
	assert_int_equal(s->stencil.back.ref, 5);
	assert_int_equal(s->stencil.back.value_mask, 0xf0);
	assert_int_equal(s->stencil.front.func, TSR_FUNC_ALWAYS);
	assert_int_equal(s->stencil.front.fail, TSR_STENCIL_INVERT);
	assert_int_equal(s->stencil.front.zfail, TSR_STENCIL_DECR_WRAP);
	assert_int_equal(s->stencil.front.zpass, TSR_STENCIL_REPLACE);
	assert_int_equal(s->stencil.back.fail, TSR_STENCIL_KEEP);
	assert_int_equal(s->blend.enable, 1);
	assert_int_equal(s->blend.src_rgb, TSR_BLEND_SRC_ALPHA);
	assert_int_equal(s->blend.dst_rgb, TSR_BLEND_ONE_MINUS_SRC_ALPHA);
	assert_int_equal(s->blend.src_alpha, TSR_BLEND_ONE_MINUS_DST_COLOR);
	assert_int_equal(s->blend.dst_alpha, TSR_BLEND_CONSTANT_ALPHA);
	assert_int_equal(s->blend.eq_rgb, TSR_BLEND_EQ_REVERSE_SUBTRACT);
	assert_int_equal(s->blend.eq_alpha, TSR_BLEND_EQ_SUBTRACT);
	assert_true(s->blend.color[0] == 0.5f && s->blend.color[1] == 0.25f);
	assert_int_equal(s->color_mask, TSR_COLOR_MASK_R | TSR_COLOR_MASK_B);
	assert_int_equal(d.units[0].target, GL_TEXTURE_2D);
	assert_true(d.units[0].complete);
	assert_int_equal(s->textures[0].image, 7);
	assert_int_equal(s->textures[0].min_filter, TSR_TEX_LINEAR_MIPMAP_NEAREST);
	assert_int_equal(s->textures[0].mag_filter, TSR_TEX_NEAREST);
	assert_int_equal(s->textures[0].wrap_s, TSR_TEX_REPEAT);
	assert_int_equal(s->textures[0].wrap_t, TSR_TEX_MIRRORED_REPEAT);
	assert_int_equal(d.units[1].target, GL_TEXTURE_CUBE_MAP);
	assert_false(d.units[1].complete);
	assert_int_equal(s->textures[1].image, -1);
	/* client indices */
	tsr_gles_BindBuffer(ctx, GL_ELEMENT_ARRAY_BUFFER, 0);
	static const uint16_t idx[3] = { 0, 1, 2 };
	assert_true(tsr_gles_draw_elements_state(ctx, GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, idx, &d));
	assert_ptr_equal(d.indices, idx);
	assert_int_equal(d.state.index.type, TSR_INDEX_U16);
	assert_int_equal(d.state.index.buffer, 0);
	/* 32-bit indices (OES_element_index_uint), client and in a buffer */
	static const uint32_t idx32[4] = { 0, 1, 2, 70000 };
	assert_true(tsr_gles_draw_elements_state(ctx, GL_TRIANGLE_STRIP, 4, GL_UNSIGNED_INT, idx32,
						 &d));
	assert_ptr_equal(d.indices, idx32);
	assert_int_equal(d.state.mode, TSR_PRIM_TRIANGLE_STRIP);
	assert_int_equal(d.state.index.type, TSR_INDEX_U32);
	assert_int_equal(d.state.index.count, 4);
	tsr_gles_BindBuffer(ctx, GL_ELEMENT_ARRAY_BUFFER, 4);
	assert_true(tsr_gles_draw_elements_state(ctx, GL_TRIANGLES, 3, GL_UNSIGNED_INT,
						 (const void *)8, &d));
	assert_null(d.indices);
	assert_int_equal(d.state.index.type, TSR_INDEX_U32);
	assert_int_equal(d.state.index.buffer, 4);
	assert_int_equal(d.state.index.offset, 8);
	tsr_gles_BindBuffer(ctx, GL_ELEMENT_ARRAY_BUFFER, 0);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	/* a framebuffer object */
	tsr_gles_BindFramebuffer(ctx, GL_FRAMEBUFFER, 5);
	tsr_gles_FramebufferTexture2D(ctx, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 7, 0);
	assert_true(tsr_gles_draw_arrays_state(ctx, GL_POINTS, 0, 1, &d));
	assert_int_equal(d.framebuffer, 5);
	assert_int_equal(d.state.framebuffer.color, 7);
	assert_int_equal(d.color_type, GL_TEXTURE);
	assert_int_equal(d.state.framebuffer.depth, TSR_ATTACH_NONE);
	assert_int_equal(d.depth_type, GL_NONE);
	assert_int_equal(d.stencil, TSR_ATTACH_NONE);
	assert_int_equal(d.stencil_type, GL_NONE);
	assert_int_equal(d.depth_bits, 0);
	assert_int_equal(d.stencil_bits, 0);
	tsr_gles_context_destroy(ctx);
}

/* A framebuffer object with a DEPTH_COMPONENT16 depth and a STENCIL_INDEX8
 * stencil renderbuffer draws (complete), and the draw says both are there;
 * the default framebuffer's come from its config. */
static void test_depth_stencil_attachments(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	use_program(ctx);
	struct tsr_gles_draw d;
	assert_true(tsr_gles_draw_arrays_state(ctx, GL_TRIANGLES, 0, 3, &d));
	assert_int_equal(d.stencil, TSR_ATTACH_DEFAULT);
	assert_int_equal(d.stencil_type, GL_NONE);
	assert_int_equal(d.depth_bits, 24);
	assert_int_equal(d.stencil_bits, 8);
	tsr_gles_BindFramebuffer(ctx, GL_FRAMEBUFFER, 1);
	tsr_gles_BindTexture(ctx, GL_TEXTURE_2D, 2);
	tsr_gles_TexImage2D(ctx, GL_TEXTURE_2D, 0, GL_RGBA, 32, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	tsr_gles_FramebufferTexture2D(ctx, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 2, 0);
	tsr_gles_BindRenderbuffer(ctx, GL_RENDERBUFFER, 3);
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, 32, 16);
	tsr_gles_FramebufferRenderbuffer(ctx, GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, 3);
	tsr_gles_BindRenderbuffer(ctx, GL_RENDERBUFFER, 4);
	tsr_gles_RenderbufferStorage(ctx, GL_RENDERBUFFER, GL_STENCIL_INDEX8, 32, 16);
	tsr_gles_FramebufferRenderbuffer(ctx, GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER, 4);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_Enable(ctx, GL_STENCIL_TEST);
	tsr_gles_StencilFunc(ctx, GL_EQUAL, 1, 0xff);
	assert_true(tsr_gles_draw_arrays_state(ctx, GL_TRIANGLES, 0, 3, &d));
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	assert_int_equal(d.framebuffer, 1);
	assert_int_equal(d.state.framebuffer.color, 2);
	assert_int_equal(d.state.framebuffer.depth, 3);
	assert_int_equal(d.depth_type, GL_RENDERBUFFER);
	assert_int_equal(d.stencil, 4);
	assert_int_equal(d.stencil_type, GL_RENDERBUFFER);
	assert_int_equal(d.depth_bits, 16);
	assert_int_equal(d.stencil_bits, 8);
	assert_true(d.state.stencil.test);
	assert_int_equal(d.state.stencil.front.func, TSR_FUNC_EQUAL);
	/* a clear of all three buffers is allowed */
	struct tsr_clear_state c;
	assert_true(tsr_gles_clear_state(ctx, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT |
						      GL_STENCIL_BUFFER_BIT, &c));
	assert_int_equal(c.mask, TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH | TSR_CLEAR_STENCIL);
	/* the stencil renderbuffer deleted: detached from the bound framebuffer */
	GLuint rb = 4;
	tsr_gles_DeleteRenderbuffers(ctx, 1, &rb);
	assert_true(tsr_gles_draw_arrays_state(ctx, GL_TRIANGLES, 0, 3, &d));
	assert_int_equal(d.stencil, TSR_ATTACH_NONE);
	assert_int_equal(d.stencil_type, GL_NONE);
	assert_int_equal(d.stencil_bits, 0);
	tsr_gles_context_destroy(ctx);
}

static void test_clear(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	struct tsr_clear_state c;
	tsr_gles_ClearColor(ctx, 0.5f, 0, 1, 1);
	tsr_gles_ClearDepthf(ctx, 0.25f);
	tsr_gles_ClearStencil(ctx, 3);
	assert_true(tsr_gles_clear_state(ctx, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT, &c));
	assert_int_equal(c.mask, TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH);
	assert_int_equal(c.scissored, 0);
	assert_true(c.color[0] == 0.5f && c.color[2] == 1.0f && c.depth == 0.25f);
	assert_int_equal(c.stencil, 3);
	tsr_gles_Enable(ctx, GL_SCISSOR_TEST);
	assert_true(tsr_gles_clear_state(ctx, GL_STENCIL_BUFFER_BIT, &c));
	assert_int_equal(c.mask, TSR_CLEAR_STENCIL);
	assert_int_equal(c.scissored, 1);
	assert_false(tsr_gles_clear_state(ctx, 0x1, &c));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	assert_false(tsr_gles_clear_state(ctx, 0, &c));
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_context_destroy(ctx);
}

/* glReadPixels' arguments (4.3.1) and its rows in the program's memory. */
static void test_read_pixels(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	size_t row = 0;
	assert_true(tsr_gles_read_pixels_state(ctx, 3, 2, GL_RGBA, GL_UNSIGNED_BYTE, &row));
	assert_int_equal(row, 12);
	tsr_gles_PixelStorei(ctx, GL_PACK_ALIGNMENT, 8);
	assert_true(tsr_gles_read_pixels_state(ctx, 3, 2, GL_RGBA, GL_UNSIGNED_BYTE, &row));
	assert_int_equal(row, 16);
	assert_false(tsr_gles_read_pixels_state(ctx, 0, 2, GL_RGBA, GL_UNSIGNED_BYTE, &row));
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	/* the errors in the specification's order: enums, values, the pair */
	assert_false(tsr_gles_read_pixels_state(ctx, -1, 2, GL_LUMINANCE, GL_UNSIGNED_BYTE, &row));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	assert_false(tsr_gles_read_pixels_state(ctx, 1, 1, GL_RGBA, GL_FLOAT, &row));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	assert_false(tsr_gles_read_pixels_state(ctx, -1, 2, GL_RGB, GL_UNSIGNED_BYTE, &row));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	assert_false(tsr_gles_read_pixels_state(ctx, 1, 1, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, &row));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	/* an incomplete framebuffer */
	GLuint fb = 0;
	tsr_gles_GenFramebuffers(ctx, 1, &fb);
	tsr_gles_BindFramebuffer(ctx, GL_FRAMEBUFFER, fb);
	assert_false(tsr_gles_read_pixels_state(ctx, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, &row));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_FRAMEBUFFER_OPERATION);
	tsr_gles_context_destroy(ctx);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_default_state),
		cmocka_unit_test(test_state_arrives),
		cmocka_unit_test(test_clear),
		cmocka_unit_test(test_read_pixels),
		cmocka_unit_test(test_depth_stencil_attachments),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
