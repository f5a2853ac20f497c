/*
 * 150-gles-objects.c - the GL ES 2.0 context's object namespaces (Gen*,
 * Delete*, Is*, Bind*, CreateShader/Program with GL's deletion rules) and
 * buffer objects (BufferData, BufferSubData, GL_OES_mapbuffer), per the
 * OpenGL ES 2.0.25 specification (2.9, 2.10.1, 2.10.3, 3.7.13, 4.4).
 */
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
	assert_non_null(ctx);
	return ctx;
}

static void test_create_errors(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = (void *)1;
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(0, 32, NULL, &ctx, &err), TSR_ERR_CONFIG);
	assert_null(ctx);
	assert_int_equal(tsr_gles_context_create(64, 100000, NULL, &ctx, &err), TSR_ERR_CONFIG);
	tsr_gles_context_destroy(NULL);
}

static void test_get_error_keeps_first(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_BindBuffer(ctx, GL_TEXTURE_2D, 1);      /* INVALID_ENUM */
	tsr_gles_GenBuffers(ctx, -1, NULL);               /* INVALID_VALUE, not kept */
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_context_destroy(ctx);
}

static void test_buffer_names(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	GLuint b[3];
	tsr_gles_GenBuffers(ctx, 3, b);
	assert_int_equal(b[0], 1);
	assert_int_equal(b[1], 2);
	assert_int_equal(b[2], 3);
	/* generated but never bound: no object yet */
	assert_false(tsr_gles_IsBuffer(ctx, b[0]));
	tsr_gles_BindBuffer(ctx, GL_ARRAY_BUFFER, b[0]);
	assert_true(tsr_gles_IsBuffer(ctx, b[0]));
	GLint v;
	tsr_gles_GetIntegerv(ctx, GL_ARRAY_BUFFER_BINDING, &v);
	assert_int_equal(v, 1);
	/* a name never generated is accepted by Bind (GL ES 2.0 2.9) */
	tsr_gles_BindBuffer(ctx, GL_ELEMENT_ARRAY_BUFFER, 77);
	assert_true(tsr_gles_IsBuffer(ctx, 77));
	/* Gen skips names in use */
	GLuint more[2];
	tsr_gles_GenBuffers(ctx, 2, more);
	assert_int_equal(more[0], 4);
	assert_int_equal(more[1], 5);
	/* deleting a bound buffer unbinds it, attrib arrays included */
	tsr_gles_VertexAttribPointer(ctx, 3, 2, GL_FLOAT, GL_FALSE, 0, (const void *)16);
	tsr_gles_GetVertexAttribiv(ctx, 3, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &v);
	assert_int_equal(v, 1);
	tsr_gles_DeleteBuffers(ctx, 1, b);
	assert_false(tsr_gles_IsBuffer(ctx, b[0]));
	tsr_gles_GetIntegerv(ctx, GL_ARRAY_BUFFER_BINDING, &v);
	assert_int_equal(v, 0);
	tsr_gles_GetVertexAttribiv(ctx, 3, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &v);
	assert_int_equal(v, 0);
	tsr_gles_GetIntegerv(ctx, GL_ELEMENT_ARRAY_BUFFER_BINDING, &v);
	assert_int_equal(v, 77);
	/* deleting 0 and unused names is silently ignored */
	GLuint junk[2] = { 0, 999 };
	tsr_gles_DeleteBuffers(ctx, 2, junk);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_DeleteBuffers(ctx, -1, junk);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	/* the freed name is handed out again */
	GLuint again;
	tsr_gles_GenBuffers(ctx, 1, &again);
	assert_int_equal(again, 1);
	/* a name beyond the namespace */
	tsr_gles_BindBuffer(ctx, GL_ARRAY_BUFFER, TSR_GLES_MAX_NAME + 5);
	assert_int_equal(tsr_gles_GetError(ctx), GL_OUT_OF_MEMORY);
	tsr_gles_context_destroy(ctx);
}

static void test_buffer_data(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	GLint v;
	/* no buffer bound */
	tsr_gles_BufferData(ctx, GL_ARRAY_BUFFER, 4, NULL, GL_STATIC_DRAW);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_BindBuffer(ctx, GL_ARRAY_BUFFER, 5);
	tsr_gles_GetBufferParameteriv(ctx, GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &v);
	assert_int_equal(v, 0);
	tsr_gles_GetBufferParameteriv(ctx, GL_ARRAY_BUFFER, GL_BUFFER_USAGE, &v);
	assert_int_equal(v, GL_STATIC_DRAW);
	tsr_gles_BufferData(ctx, GL_ARRAY_BUFFER, 8, NULL, GL_BUFFER_SIZE);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_BufferData(ctx, GL_ARRAY_BUFFER, -1, NULL, GL_STATIC_DRAW);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	const uint8_t bytes[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	tsr_gles_BufferData(ctx, GL_ARRAY_BUFFER, 8, bytes, GL_DYNAMIC_DRAW);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_GetBufferParameteriv(ctx, GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &v);
	assert_int_equal(v, 8);
	tsr_gles_GetBufferParameteriv(ctx, GL_ARRAY_BUFFER, GL_BUFFER_USAGE, &v);
	assert_int_equal(v, GL_DYNAMIC_DRAW);
	const uint8_t two[2] = { 42, 43 };
	tsr_gles_BufferSubData(ctx, GL_ARRAY_BUFFER, 6, 2, two);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_BufferSubData(ctx, GL_ARRAY_BUFFER, 7, 2, two);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_BufferSubData(ctx, GL_ARRAY_BUFFER, -1, 1, two);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	GLsizeiptr size;
	const uint8_t *d = tsr_gles_buffer_data(ctx, 5, &size);
	assert_int_equal(size, 8);
	const uint8_t want[8] = { 1, 2, 3, 4, 5, 6, 42, 43 };
	assert_memory_equal(d, want, 8);
	tsr_gles_GetBufferParameteriv(ctx, GL_ARRAY_BUFFER, GL_TEXTURE_2D, &v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_context_destroy(ctx);
}

static void test_mapbuffer(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	GLint v;
	void *p = (void *)1;
	tsr_gles_BindBuffer(ctx, GL_ELEMENT_ARRAY_BUFFER, 2);
	tsr_gles_BufferData(ctx, GL_ELEMENT_ARRAY_BUFFER, 4, NULL, GL_STATIC_DRAW);
	tsr_gles_GetBufferParameteriv(ctx, GL_ELEMENT_ARRAY_BUFFER, GL_BUFFER_MAPPED_OES, &v);
	assert_int_equal(v, GL_FALSE);
	tsr_gles_GetBufferParameteriv(ctx, GL_ELEMENT_ARRAY_BUFFER, GL_BUFFER_ACCESS_OES, &v);
	assert_int_equal(v, GL_WRITE_ONLY_OES);
	tsr_gles_GetBufferPointervOES(ctx, GL_ELEMENT_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER_OES, &p);
	assert_null(p);
	assert_null(tsr_gles_MapBufferOES(ctx, GL_ELEMENT_ARRAY_BUFFER, GL_TEXTURE_2D));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	uint8_t *m = tsr_gles_MapBufferOES(ctx, GL_ELEMENT_ARRAY_BUFFER, GL_WRITE_ONLY_OES);
	assert_non_null(m);
	m[0] = 9;
	tsr_gles_GetBufferPointervOES(ctx, GL_ELEMENT_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER_OES, &p);
	assert_ptr_equal(p, m);
	tsr_gles_GetBufferParameteriv(ctx, GL_ELEMENT_ARRAY_BUFFER, GL_BUFFER_MAPPED_OES, &v);
	assert_int_equal(v, GL_TRUE);
	/* mapped twice; SubData while mapped */
	assert_null(tsr_gles_MapBufferOES(ctx, GL_ELEMENT_ARRAY_BUFFER, GL_WRITE_ONLY_OES));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_BufferSubData(ctx, GL_ELEMENT_ARRAY_BUFFER, 0, 1, m);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	assert_true(tsr_gles_UnmapBufferOES(ctx, GL_ELEMENT_ARRAY_BUFFER));
	assert_false(tsr_gles_UnmapBufferOES(ctx, GL_ELEMENT_ARRAY_BUFFER));
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	const uint8_t *d = tsr_gles_buffer_data(ctx, 2, NULL);
	assert_int_equal(d[0], 9);
	tsr_gles_context_destroy(ctx);
}

static void test_texture_names(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	GLuint t[2];
	GLint v;
	tsr_gles_GenTextures(ctx, 2, t);
	assert_false(tsr_gles_IsTexture(ctx, t[0]));
	tsr_gles_BindTexture(ctx, GL_TEXTURE_2D, t[0]);
	assert_true(tsr_gles_IsTexture(ctx, t[0]));
	tsr_gles_BindTexture(ctx, GL_TEXTURE_CUBE_MAP, t[0]);  /* wrong target */
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_BindTexture(ctx, GL_TEXTURE_3D_OES, t[1]);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_ActiveTexture(ctx, GL_TEXTURE3);
	tsr_gles_BindTexture(ctx, GL_TEXTURE_2D, t[0]);
	tsr_gles_BindTexture(ctx, GL_TEXTURE_CUBE_MAP, t[1]);
	tsr_gles_GetIntegerv(ctx, GL_TEXTURE_BINDING_CUBE_MAP, &v);
	assert_int_equal(v, (GLint)t[1]);
	/* deleting unbinds from every unit: the units revert to texture 0 */
	tsr_gles_DeleteTextures(ctx, 1, t);
	assert_false(tsr_gles_IsTexture(ctx, t[0]));
	tsr_gles_GetIntegerv(ctx, GL_TEXTURE_BINDING_2D, &v);
	assert_int_equal(v, 0);
	tsr_gles_ActiveTexture(ctx, GL_TEXTURE0);
	tsr_gles_GetIntegerv(ctx, GL_TEXTURE_BINDING_2D, &v);
	assert_int_equal(v, 0);
	tsr_gles_ActiveTexture(ctx, GL_TEXTURE3);
	tsr_gles_GetIntegerv(ctx, GL_TEXTURE_BINDING_CUBE_MAP, &v);
	assert_int_equal(v, (GLint)t[1]);
	tsr_gles_ActiveTexture(ctx, GL_TEXTURE0 + TSR_GLES_MAX_TEXTURE_UNITS);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_GetIntegerv(ctx, GL_ACTIVE_TEXTURE, &v);
	assert_int_equal(v, GL_TEXTURE3);
	tsr_gles_context_destroy(ctx);
}

static void test_renderbuffer_framebuffer_names(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	GLuint r, f;
	GLint v;
	tsr_gles_GenRenderbuffers(ctx, 1, &r);
	tsr_gles_GenFramebuffers(ctx, 1, &f);
	assert_false(tsr_gles_IsRenderbuffer(ctx, r));
	assert_false(tsr_gles_IsFramebuffer(ctx, f));
	tsr_gles_BindRenderbuffer(ctx, GL_FRAMEBUFFER, r);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_BindRenderbuffer(ctx, GL_RENDERBUFFER, r);
	tsr_gles_BindFramebuffer(ctx, GL_RENDERBUFFER, f);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_BindFramebuffer(ctx, GL_FRAMEBUFFER, f);
	assert_true(tsr_gles_IsRenderbuffer(ctx, r));
	assert_true(tsr_gles_IsFramebuffer(ctx, f));
	tsr_gles_GetIntegerv(ctx, GL_RENDERBUFFER_BINDING, &v);
	assert_int_equal(v, (GLint)r);
	tsr_gles_GetIntegerv(ctx, GL_FRAMEBUFFER_BINDING, &v);
	assert_int_equal(v, (GLint)f);
	tsr_gles_DeleteRenderbuffers(ctx, 1, &r);
	tsr_gles_DeleteFramebuffers(ctx, 1, &f);
	tsr_gles_GetIntegerv(ctx, GL_RENDERBUFFER_BINDING, &v);
	assert_int_equal(v, 0);
	tsr_gles_GetIntegerv(ctx, GL_FRAMEBUFFER_BINDING, &v);
	assert_int_equal(v, 0);
	assert_false(tsr_gles_IsRenderbuffer(ctx, r));
	assert_false(tsr_gles_IsFramebuffer(ctx, f));
	tsr_gles_context_destroy(ctx);
}

static void test_shader_program_names(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	assert_int_equal(tsr_gles_CreateShader(ctx, GL_TEXTURE_2D), 0);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	GLuint vs = tsr_gles_CreateShader(ctx, GL_VERTEX_SHADER);
	GLuint prog = tsr_gles_CreateProgram(ctx);
	GLuint fs = tsr_gles_CreateShader(ctx, GL_FRAGMENT_SHADER);
	/* one namespace */
	assert_int_equal(vs, 1);
	assert_int_equal(prog, 2);
	assert_int_equal(fs, 3);
	assert_true(tsr_gles_IsShader(ctx, vs));
	assert_false(tsr_gles_IsProgram(ctx, vs));
	assert_true(tsr_gles_IsProgram(ctx, prog));
	assert_false(tsr_gles_IsShader(ctx, prog));
	tsr_gles_DeleteShader(ctx, prog);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_DeleteProgram(ctx, 99);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_DeleteProgram(ctx, 0);
	tsr_gles_DeleteShader(ctx, 0);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_DeleteShader(ctx, fs);
	assert_false(tsr_gles_IsShader(ctx, fs));
	tsr_gles_DeleteProgram(ctx, prog);
	assert_false(tsr_gles_IsProgram(ctx, prog));
	tsr_gles_context_destroy(ctx);  /* vs still alive: freed here */
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_errors),
		cmocka_unit_test(test_get_error_keeps_first),
		cmocka_unit_test(test_buffer_names),
		cmocka_unit_test(test_buffer_data),
		cmocka_unit_test(test_mapbuffer),
		cmocka_unit_test(test_texture_names),
		cmocka_unit_test(test_renderbuffer_framebuffer_names),
		cmocka_unit_test(test_shader_program_names),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
