/*
 * 154-gles-programs.c - GL ES 2.0 shader and program objects (OpenGL ES
 * 2.0.25, 2.10) through src/shader: sources, compile and link status and
 * logs, attach/detach and deletion flags, attribute bindings, the current
 * program, validation, active attributes/uniforms, Uniform* with GL's
 * type-matching errors and GetUniform round trips.
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

static const char *VS =
	"attribute vec4 pos;\n"
	"attribute vec2 uv;\n"
	"uniform mat4 mvp;\n"
	"varying vec2 v_uv;\n"
	"void main() { v_uv = uv; gl_Position = mvp * pos; }\n";
static const char *FS_HEAD = "precision mediump float;\n";
static const char *FS_BODY =
	"varying vec2 v_uv;\n"
	"uniform sampler2D tex;\n"
	"uniform samplerCube cube;\n"
	"uniform vec4 tint[3];\n"
	"uniform int mode;\n"
	"uniform bool flag;\n"
	"void main() {\n"
	"  vec4 c = texture2D(tex, v_uv) * tint[0] + tint[1] + tint[2];\n"
	"  if (flag) c += textureCube(cube, vec3(v_uv, 1.0));\n"
	"  gl_FragColor = c * float(mode);\n"
	"}\n";

static struct tsr_gles_context *ctx_new(void)
{
	struct tsr_gles_context *ctx = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(64, 32, NULL, &ctx, &err), TSR_OK);
	return ctx;
}

static GLint shader_iv(struct tsr_gles_context *ctx, GLuint s, GLenum pname)
{
	GLint v = -7;
	tsr_gles_GetShaderiv(ctx, s, pname, &v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	return v;
}

static GLint program_iv(struct tsr_gles_context *ctx, GLuint p, GLenum pname)
{
	GLint v = -7;
	tsr_gles_GetProgramiv(ctx, p, pname, &v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	return v;
}

/* A linked program of VS and FS, current. */
static GLuint build(struct tsr_gles_context *ctx, GLuint *vs, GLuint *fs)
{
	*vs = tsr_gles_CreateShader(ctx, GL_VERTEX_SHADER);
	*fs = tsr_gles_CreateShader(ctx, GL_FRAGMENT_SHADER);
	tsr_gles_ShaderSource(ctx, *vs, 1, &VS, NULL);
	const GLchar *parts[2] = { FS_HEAD, FS_BODY };
	tsr_gles_ShaderSource(ctx, *fs, 2, parts, NULL);
	tsr_gles_CompileShader(ctx, *vs);
	tsr_gles_CompileShader(ctx, *fs);
	assert_int_equal(shader_iv(ctx, *vs, GL_COMPILE_STATUS), GL_TRUE);
	assert_int_equal(shader_iv(ctx, *fs, GL_COMPILE_STATUS), GL_TRUE);
	GLuint p = tsr_gles_CreateProgram(ctx);
	tsr_gles_AttachShader(ctx, p, *vs);
	tsr_gles_AttachShader(ctx, p, *fs);
	tsr_gles_BindAttribLocation(ctx, p, 5, "uv");
	tsr_gles_LinkProgram(ctx, p);
	assert_int_equal(program_iv(ctx, p, GL_LINK_STATUS), GL_TRUE);
	tsr_gles_UseProgram(ctx, p);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	return p;
}

static void test_shader_objects(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	GLuint s = tsr_gles_CreateShader(ctx, GL_FRAGMENT_SHADER);
	assert_int_equal(shader_iv(ctx, s, GL_SHADER_TYPE), GL_FRAGMENT_SHADER);
	assert_int_equal(shader_iv(ctx, s, GL_COMPILE_STATUS), GL_FALSE);
	assert_int_equal(shader_iv(ctx, s, GL_DELETE_STATUS), GL_FALSE);
	assert_int_equal(shader_iv(ctx, s, GL_SHADER_SOURCE_LENGTH), 0);
	assert_int_equal(shader_iv(ctx, s, GL_INFO_LOG_LENGTH), 0);
	/* lengths: -1 is NUL-terminated, else that many characters */
	const GLchar *parts[3] = { "void main() ", "{ gl_FragColor = vec4(1.0); }XXXX", "\n" };
	const GLint lens[3] = { -1, 29, 1 };
	tsr_gles_ShaderSource(ctx, s, 3, parts, lens);
	char buf[128];
	GLsizei len;
	tsr_gles_GetShaderSource(ctx, s, sizeof buf, &len, buf);
	assert_string_equal(buf, "void main() { gl_FragColor = vec4(1.0); }\n");
	assert_int_equal(len, 42);
	assert_int_equal(shader_iv(ctx, s, GL_SHADER_SOURCE_LENGTH), 43);
	tsr_gles_GetShaderSource(ctx, s, 5, &len, buf);
	assert_string_equal(buf, "void");
	assert_int_equal(len, 4);
	tsr_gles_CompileShader(ctx, s);
	assert_int_equal(shader_iv(ctx, s, GL_COMPILE_STATUS), GL_TRUE);
	/* a compile error with a log */
	const GLchar *bad = "void main() { undeclared_thing = 1.0; }";
	tsr_gles_ShaderSource(ctx, s, 1, &bad, NULL);
	tsr_gles_CompileShader(ctx, s);
	assert_int_equal(shader_iv(ctx, s, GL_COMPILE_STATUS), GL_FALSE);
	GLint loglen = shader_iv(ctx, s, GL_INFO_LOG_LENGTH);
	assert_true(loglen > 1);
	tsr_gles_GetShaderInfoLog(ctx, s, sizeof buf, &len, buf);
	assert_int_equal(len, loglen - 1 < (GLint)sizeof buf - 1 ? loglen - 1 : (GLint)sizeof buf - 1);
	assert_non_null(strstr(buf, "undeclared_thing"));
	/* errors */
	tsr_gles_ShaderSource(ctx, s, -1, parts, NULL);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_GetShaderInfoLog(ctx, s, -1, &len, buf);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_CompileShader(ctx, 77);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	GLuint p = tsr_gles_CreateProgram(ctx);
	tsr_gles_CompileShader(ctx, p);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	GLint v;
	tsr_gles_GetShaderiv(ctx, s, GL_LINK_STATUS, &v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	/* precision, binaries, the compiler */
	GLint range[2], precision;
	tsr_gles_GetShaderPrecisionFormat(ctx, GL_FRAGMENT_SHADER, GL_MEDIUM_FLOAT, range, &precision);
	assert_true(range[0] >= 14 && range[1] >= 14 && precision >= 10);
	tsr_gles_GetShaderPrecisionFormat(ctx, GL_VERTEX_SHADER, GL_HIGH_INT, range, &precision);
	assert_true(range[0] >= 16 && precision == 0);
	tsr_gles_GetShaderPrecisionFormat(ctx, GL_TEXTURE_2D, GL_HIGH_INT, range,
					  &precision);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_ShaderBinary(ctx, 1, &s, 0, buf, 4);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_ENUM);
	tsr_gles_ReleaseShaderCompiler(ctx);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_context_destroy(ctx);
}

static void test_attach_link_delete(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	GLuint vs, fs;
	GLuint p = build(ctx, &vs, &fs);
	GLint v;
	tsr_gles_GetIntegerv(ctx, GL_CURRENT_PROGRAM, &v);
	assert_int_equal(v, (GLint)p);
	assert_int_equal(program_iv(ctx, p, GL_ATTACHED_SHADERS), 2);
	GLuint shaders[2];
	GLsizei n;
	tsr_gles_GetAttachedShaders(ctx, p, 2, &n, shaders);
	assert_int_equal(n, 2);
	assert_int_equal(shaders[0], vs);
	assert_int_equal(shaders[1], fs);
	tsr_gles_GetAttachedShaders(ctx, p, 1, &n, shaders);
	assert_int_equal(n, 1);
	tsr_gles_AttachShader(ctx, p, vs);  /* twice */
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	GLuint vs2 = tsr_gles_CreateShader(ctx, GL_VERTEX_SHADER);
	tsr_gles_AttachShader(ctx, p, vs2);  /* a second vertex shader */
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_DetachShader(ctx, p, vs2);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_BindAttribLocation(ctx, p, 16, "pos");
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_BindAttribLocation(ctx, p, 1, "gl_Vertex");
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	/* attributes: uv bound to 5 */
	assert_int_equal(tsr_gles_GetAttribLocation(ctx, p, "uv"), 5);
	assert_true(tsr_gles_GetAttribLocation(ctx, p, "pos") >= 0);
	assert_int_equal(tsr_gles_GetAttribLocation(ctx, p, "nope"), -1);
	assert_int_equal(program_iv(ctx, p, GL_ACTIVE_ATTRIBUTES), 2);
	assert_int_equal(program_iv(ctx, p, GL_ACTIVE_ATTRIBUTE_MAX_LENGTH), 4);
	char name[64];
	GLsizei len;
	GLint size;
	GLenum type;
	int found = 0;
	for (GLuint i = 0; i < 2; i++) {
		tsr_gles_GetActiveAttrib(ctx, p, i, sizeof name, &len, &size, &type, name);
		if (strcmp(name, "uv") == 0) {
			assert_int_equal(type, GL_FLOAT_VEC2);
			assert_int_equal(size, 1);
			assert_int_equal(len, 2);
			found++;
		}
	}
	assert_int_equal(found, 1);
	tsr_gles_GetActiveAttrib(ctx, p, 2, sizeof name, &len, &size, &type, name);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	/* uniforms: mvp, tex, cube, tint[0], mode, flag */
	assert_int_equal(program_iv(ctx, p, GL_ACTIVE_UNIFORMS), 6);
	assert_int_equal(program_iv(ctx, p, GL_ACTIVE_UNIFORM_MAX_LENGTH), 8); /* "tint[0]" */
	/* deleting attached shaders only flags them */
	tsr_gles_DeleteShader(ctx, vs);
	assert_true(tsr_gles_IsShader(ctx, vs));
	assert_int_equal(shader_iv(ctx, vs, GL_DELETE_STATUS), GL_TRUE);
	/* deleting the current program flags it */
	tsr_gles_DeleteProgram(ctx, p);
	assert_true(tsr_gles_IsProgram(ctx, p));
	assert_int_equal(program_iv(ctx, p, GL_DELETE_STATUS), GL_TRUE);
	tsr_gles_UseProgram(ctx, 0);
	assert_false(tsr_gles_IsProgram(ctx, p));
	assert_false(tsr_gles_IsShader(ctx, vs));  /* went with the program */
	assert_true(tsr_gles_IsShader(ctx, fs));
	/* a failed link: no fragment shader */
	GLuint q = tsr_gles_CreateProgram(ctx);
	tsr_gles_LinkProgram(ctx, q);
	assert_int_equal(program_iv(ctx, q, GL_LINK_STATUS), GL_FALSE);
	assert_int_equal(program_iv(ctx, q, GL_ACTIVE_UNIFORMS), 0);
	tsr_gles_UseProgram(ctx, q);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	assert_int_equal(tsr_gles_GetUniformLocation(ctx, q, "mvp"), -1);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_UseProgram(ctx, fs);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_context_destroy(ctx);
}

static void test_uniforms(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	GLuint vs, fs;
	GLuint p = build(ctx, &vs, &fs);
	GLint mvp = tsr_gles_GetUniformLocation(ctx, p, "mvp");
	GLint tex = tsr_gles_GetUniformLocation(ctx, p, "tex");
	GLint cube = tsr_gles_GetUniformLocation(ctx, p, "cube");
	GLint tint = tsr_gles_GetUniformLocation(ctx, p, "tint");
	GLint tint2 = tsr_gles_GetUniformLocation(ctx, p, "tint[2]");
	GLint mode = tsr_gles_GetUniformLocation(ctx, p, "mode");
	GLint flag = tsr_gles_GetUniformLocation(ctx, p, "flag");
	assert_true(mvp >= 0 && tex >= 0 && cube >= 0 && tint >= 0 && mode >= 0 && flag >= 0);
	assert_int_equal(tint2, tint + 2);
	assert_int_equal(tsr_gles_GetUniformLocation(ctx, p, "nope"), -1);
	/* round trips */
	GLfloat m[16], out[16];
	for (int i = 0; i < 16; i++)
		m[i] = (GLfloat)i * 0.5f;
	tsr_gles_UniformMatrix4fv(ctx, mvp, 1, GL_FALSE, m);
	tsr_gles_GetUniformfv(ctx, p, mvp, out);
	assert_memory_equal(m, out, sizeof m);
	const GLfloat tints[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	tsr_gles_Uniform4fv(ctx, tint + 1, 5, tints);  /* clipped to the array's end */
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_GetUniformfv(ctx, p, tint2, out);
	assert_true(out[0] == 5 && out[3] == 8);
	tsr_gles_Uniform1i(ctx, mode, -3);
	GLint iv[4];
	tsr_gles_GetUniformiv(ctx, p, mode, iv);
	assert_int_equal(iv[0], -3);
	tsr_gles_Uniform1f(ctx, flag, 2.0f);  /* bools take floats or ints */
	tsr_gles_GetUniformiv(ctx, p, flag, iv);
	assert_int_equal(iv[0], 1);
	tsr_gles_Uniform1i(ctx, flag, 0);
	tsr_gles_GetUniformiv(ctx, p, flag, iv);
	assert_int_equal(iv[0], 0);
	tsr_gles_Uniform1i(ctx, tex, 3);
	tsr_gles_GetUniformiv(ctx, p, tex, iv);
	assert_int_equal(iv[0], 3);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	/* type-matching errors change nothing */
	tsr_gles_Uniform1f(ctx, tex, 1.0f);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_Uniform2i(ctx, tex, 1, 2);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_Uniform1i(ctx, tex, 16);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_GetUniformiv(ctx, p, tex, iv);
	assert_int_equal(iv[0], 3);
	tsr_gles_Uniform1i(ctx, mode + 1000, 1);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_Uniform1f(ctx, mode, 1.0f);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_Uniform4i(ctx, tint, 1, 2, 3, 4);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_Uniform3f(ctx, tint, 1, 2, 3);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_Uniform4f(ctx, mvp, 1, 2, 3, 4);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_UniformMatrix3fv(ctx, mvp, 1, GL_FALSE, m);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_UniformMatrix4fv(ctx, mvp, 1, GL_TRUE, m);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_UniformMatrix4fv(ctx, mvp, 2, GL_FALSE, m);  /* not an array */
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_Uniform4fv(ctx, tint, -1, tints);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_VALUE);
	tsr_gles_Uniform4fv(ctx, -1, 1, tints);  /* ignored */
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_GetUniformfv(ctx, p, mvp, out);
	assert_memory_equal(m, out, sizeof m);
	tsr_gles_GetUniformfv(ctx, p, 999, out);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	/* validation: tex and cube on one unit */
	tsr_gles_ValidateProgram(ctx, p);
	assert_int_equal(program_iv(ctx, p, GL_VALIDATE_STATUS), GL_TRUE);
	tsr_gles_Uniform1i(ctx, cube, 3);
	tsr_gles_ValidateProgram(ctx, p);
	assert_int_equal(program_iv(ctx, p, GL_VALIDATE_STATUS), GL_FALSE);
	char log[256];
	tsr_gles_GetProgramInfoLog(ctx, p, sizeof log, NULL, log);
	assert_non_null(strstr(log, "sampler"));
	assert_true(program_iv(ctx, p, GL_INFO_LOG_LENGTH) == (GLint)strlen(log) + 1);
	/* relinked unsuccessfully while current (2.10.3): the executable stays in
	 * use until the program is no longer current */
	tsr_gles_DetachShader(ctx, p, fs);
	tsr_gles_LinkProgram(ctx, p);
	assert_int_equal(program_iv(ctx, p, GL_LINK_STATUS), GL_FALSE);
	assert_int_equal(program_iv(ctx, p, GL_ACTIVE_UNIFORMS), 0);
	tsr_gles_Uniform1i(ctx, mode, 9);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	GLint cur;
	tsr_gles_GetIntegerv(ctx, GL_CURRENT_PROGRAM, &cur);
	assert_int_equal(cur, (GLint)p);
	tsr_gles_GetUniformiv(ctx, p, mode, iv);  /* the program's queries: not linked */
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	/* no current program */
	tsr_gles_UseProgram(ctx, 0);
	tsr_gles_Uniform1i(ctx, mode, 1);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	tsr_gles_UseProgram(ctx, p);
	assert_int_equal(tsr_gles_GetError(ctx), GL_INVALID_OPERATION);
	/* linked again: a fresh executable */
	tsr_gles_AttachShader(ctx, p, fs);
	tsr_gles_LinkProgram(ctx, p);
	tsr_gles_UseProgram(ctx, p);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	tsr_gles_GetUniformiv(ctx, p, mode, iv);
	assert_int_equal(iv[0], 0);
	tsr_gles_context_destroy(ctx);
}

/* GetUniformiv of a float uniform holding a value no GLint holds: rounded
 * and clamped (it converted -inf to int: undefined behaviour; found by
 * fuzz_gles). */
static void test_get_uniform_int_range(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	GLuint vs, fs;
	GLuint p = build(ctx, &vs, &fs);
	GLint tint = tsr_gles_GetUniformLocation(ctx, p, "tint");
	assert_true(tint >= 0);
	tsr_gles_Uniform4f(ctx, tint, -INFINITY, 1e30f, NAN, 2.5f);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	GLint v[4];
	tsr_gles_GetUniformiv(ctx, p, tint, v);
	assert_int_equal(tsr_gles_GetError(ctx), GL_NO_ERROR);
	assert_int_equal(v[0], INT32_MIN);
	assert_int_equal(v[1], INT32_MAX);
	assert_int_equal(v[2], 0);
	assert_int_equal(v[3], 3);
	tsr_gles_context_destroy(ctx);
}

/* A shader without main() fails to compile with an info log that names a
 * line, as every other compile error does ("ERROR: 0:N: ..."; it said
 * "ERROR: Linking fragment stage: Missing entry point", no line; found by
 * fuzz_gles). */
static void test_missing_main_log_line(void **state)
{
	(void)state;
	struct tsr_gles_context *ctx = ctx_new();
	static const char *const srcs[] = {
		"precision mediump float;\nvoid mian() {\n  gl_FragColor = vec4(1.0);\n}\n",
		"",
	};
	static const char *const lines[] = { "0:4: ", "0:1: " };
	for (int i = 0; i < 2; i++) {
		GLuint s = tsr_gles_CreateShader(ctx, GL_FRAGMENT_SHADER);
		tsr_gles_ShaderSource(ctx, s, 1, &srcs[i], NULL);
		tsr_gles_CompileShader(ctx, s);
		assert_int_equal(shader_iv(ctx, s, GL_COMPILE_STATUS), GL_FALSE);
		char log[512];
		GLsizei len = 0;
		tsr_gles_GetShaderInfoLog(ctx, s, sizeof log, &len, log);
		assert_int_equal(len + 1, shader_iv(ctx, s, GL_INFO_LOG_LENGTH));
		assert_non_null(strstr(log, lines[i]));
		assert_non_null(strstr(log, "entry point"));
		assert_null(strstr(log, "Linking"));
	}
	tsr_gles_context_destroy(ctx);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shader_objects),
		cmocka_unit_test(test_attach_link_delete),
		cmocka_unit_test(test_uniforms),
		cmocka_unit_test(test_get_uniform_int_range),
		cmocka_unit_test(test_missing_main_log_line),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
