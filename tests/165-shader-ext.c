/*
 * 165-shader-ext.c - GLSL ES 1.00 link rules the piglit GLES2 linker
 * tests check (invariance, GLSL ES 1.00 4.6.4; uniform precision, 4.5.3)
 * and the fragment-shader extensions of the driver, rendered by the GL ES
 * device in TBR and IMR with exact pixels: GL_EXT_shader_framebuffer_fetch
 * (gl_LastFragData read back and accumulated, also by overlapping
 * triangles of one draw; the _non_coherent redeclaration and its barrier),
 * GL_EXT_frag_depth (gl_FragDepthEXT deciding the depth test both ways),
 * GL_EXT_draw_buffers (four draw buffers and color attachments:
 * DrawBuffersEXT's errors and state, NONE writing no color, a draw with
 * gl_FragData[1..3] rendering element 0 when only COLOR_ATTACHMENT0 is
 * attached, the device refusing one with COLOR_ATTACHMENT1 drawn) and
 * TexImage2D's RGBA8.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_main.h"
#include "test_shader.h"
#include "test_gles.h"

#define W 32
#define H 16

/* Links vs and fs (both must compile); returns LINK_STATUS, the log in *log
 * (a copy of its first 511 characters). */
static bool links(const char *vs_src, const char *fs_src, char log[512])
{
	struct tsr_shader *vs = tsr_test_compile(TSR_SHADER_VERTEX, vs_src);
	struct tsr_shader *fs = tsr_test_compile(TSR_SHADER_FRAGMENT, fs_src);
	struct tsr_program *p = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_program_link(vs, fs, NULL, 0, &p, &err), TSR_OK);
	bool ok = tsr_program_linked(p);
	snprintf(log, 512, "%s", tsr_program_info_log(p));
	tsr_program_destroy(p);
	tsr_shader_destroy(vs);
	tsr_shader_destroy(fs);
	return ok;
}

static void test_invariance(void **state)
{
	(void)state;
	char log[512];
	static const char vs_plain[] = "void main() { gl_PointSize = 1.0; gl_Position = vec4(0.0); }\n";
	static const char vs_inv[] = "invariant gl_Position;\ninvariant gl_PointSize;\n"
				     "void main() { gl_PointSize = 1.0; gl_Position = vec4(0.0); }\n";
	static const char fs_pc[] = "invariant gl_PointCoord;\n"
				    "void main() { gl_FragColor = vec4(gl_PointCoord.x); }\n";
	static const char fs_fc[] = "invariant gl_FragCoord;\n"
				    "void main() { gl_FragColor = vec4(gl_FragCoord.x); }\n";
	/* gl_PointCoord invariant needs gl_PointSize invariant */
	assert_false(links(vs_plain, fs_pc, log));
	assert_non_null(strstr(log, "gl_PointCoord is invariant"));
	assert_true(links(vs_inv, fs_pc, log));
	/* gl_FragCoord invariant needs gl_Position invariant */
	assert_false(links(vs_plain, fs_fc, log));
	assert_non_null(strstr(log, "gl_FragCoord is invariant"));
	assert_true(links(vs_inv, fs_fc, log));
	/* a varying's invariance must match */
	static const char vs_v[] = "invariant varying vec4 v;\n"
				   "void main() { v = vec4(1.0); gl_Position = vec4(0.0); }\n";
	static const char fs_v[] = "precision mediump float;\nvarying vec4 v;\n"
				   "void main() { gl_FragColor = v; }\n";
	static const char fs_vi[] = "precision mediump float;\ninvariant varying vec4 v;\n"
				    "void main() { gl_FragColor = v; }\n";
	assert_false(links(vs_v, fs_v, log));
	assert_non_null(strstr(log, "varying 'v' is invariant in the vertex shader"));
	assert_true(links(vs_v, fs_vi, log));
}

static void test_uniform_precision(void **state)
{
	(void)state;
	char log[512];
	static const char vs_used[] = "precision highp float;\nuniform float f;\n"
				      "void main() { gl_Position = vec4(f); }\n";
	static const char vs_unused[] = "precision highp float;\nuniform float f;\n"
					"void main() { gl_Position = vec4(1.0); }\n";
	static const char fs_med[] = "precision mediump float;\nuniform float f;\n"
				     "void main() { gl_FragColor = vec4(f); }\n";
	static const char fs_high[] = "precision mediump float;\nuniform highp float f;\n"
				      "void main() { gl_FragColor = vec4(f); }\n";
	/* used in both stages with different precisions: a link error */
	assert_false(links(vs_used, fs_med, log));
	assert_non_null(strstr(log, "uniform 'f' is highp in the vertex shader"));
	/* used in one stage only: not compared */
	assert_true(links(vs_unused, fs_med, log));
	/* the same precision: linked, one uniform */
	assert_true(links(vs_used, fs_high, log));
}

static const char *VS3 = "attribute vec3 pos;\n"
			 "void main() { gl_Position = vec4(pos, 1.0); }\n";

/* A context and device (TBR or IMR) W x H with depth 24, and a program of
 * VS3 and fs (attribute pos at 0), current; a client array of vertices. */
static void fix_new(struct gl_fix *f, int imr, const char *fs)
{
	static const char *const attribs[] = {"pos", NULL};
	gl_fix_new(f, W, H, imr, NULL, (struct tsr_gles_config){8, 8, 8, 8, 24, 0}, VS3, fs,
		   attribs);
}

/* Triangles of xyz vertices (n vertices) from a client array. */
static void draw(struct gl_fix *f, const float *xyz, GLsizei n)
{
	tsr_gles_BindBuffer(f->ctx, GL_ARRAY_BUFFER, 0);
	tsr_gles_VertexAttribPointer(f->ctx, 0, 3, GL_FLOAT, GL_FALSE, 0, xyz);
	tsr_gles_EnableVertexAttribArray(f->ctx, 0);
	gl_fix_draw(f, GL_TRIANGLES, 0, n);
}

static void clear(struct gl_fix *f, float r, float g, float b, float a)
{
	struct tsr_clear_state cs;
	struct tsr_error err;
	tsr_gles_ClearColor(f->ctx, r, g, b, a);
	tsr_gles_ClearDepthf(f->ctx, 1.0f);
	if (tsr_gles_clear_state(f->ctx, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT, &cs))
		assert_int_equal(tsr_gles_device_clear(f->dev, f->ctx, &cs, &err), TSR_OK);
}

static void pixel(struct gl_fix *f, int x, int y, uint8_t out[4])
{
	struct tsr_error err;
	assert_int_equal(tsr_gles_device_read_pixels(f->dev, f->ctx, x, y, 1, 1, out, &err), TSR_OK);
}

/* A full-window quad at depth z (NDC), two triangles. */
static void quad(float z, float v[18])
{
	const float q[18] = {-1, -1, z, 1, -1, z, 1, 1, z, -1, -1, z, 1, 1, z, -1, 1, z};
	memcpy(v, q, sizeof q);
}

static void test_framebuffer_fetch(void **state)
{
	(void)state;
	static const char fs[] =
		"#extension GL_EXT_shader_framebuffer_fetch : require\n"
		"precision mediump float;\n"
		"void main() { gl_FragColor = gl_LastFragData[0] + vec4(0.25, 0.0, 0.0, 0.0); }\n";
	static const char fs_nc[] =
		"#extension GL_EXT_shader_framebuffer_fetch_non_coherent : enable\n"
		"layout(noncoherent) highp vec4 gl_LastFragData[gl_MaxDrawBuffers];\n"
		"void main() { gl_FragData[0] = gl_LastFragData[0].bgra; }\n";
	uint8_t img[2][W * H * 4];
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		fix_new(&f, imr, fs);
		const char *ext = (const char *)tsr_gles_GetString(f.ctx, GL_EXTENSIONS);
		assert_non_null(strstr(ext, "GL_EXT_shader_framebuffer_fetch "));
		assert_non_null(strstr(ext, "GL_EXT_shader_framebuffer_fetch_non_coherent"));
		clear(&f, 0.0f, 0.0f, 1.0f, 0.0f);
		float v[36];
		quad(0.0f, v);
		draw(&f, v, 6);
		uint8_t px[4];
		/* then one draw covering every pixel twice: each fragment sees the
		 * one before it (coherent); read back at the end only */
		quad(0.0f, v);
		quad(0.0f, v + 18);
		draw(&f, v, 12);
		for (int y = 0; y < H; y += 5)
			for (int x = 0; x < W; x += 7) {
				pixel(&f, x, y, px);
				assert_int_equal(px[0], 191);  /* 0.75 */
				assert_int_equal(px[1], 0);
				assert_int_equal(px[2], 255);
				assert_int_equal(px[3], 0);
			}
		struct tsr_error err;
		assert_int_equal(tsr_gles_device_read_pixels(f.dev, f.ctx, 0, 0, W, H, img[imr], &err),
				 TSR_OK);
		gl_fix_free(&f);
		/* the non-coherent form: a redeclaration, the barrier (no error) */
		fix_new(&f, imr, fs_nc);
		clear(&f, 1.0f, 0.0f, 0.0f, 1.0f);
		tsr_gles_FramebufferFetchBarrierEXT(f.ctx);
		assert_int_equal(tsr_gles_GetError(f.ctx), GL_NO_ERROR);
		quad(0.0f, v);
		draw(&f, v, 6);
		pixel(&f, W - 1, H - 1, px);
		assert_int_equal(px[0], 0);
		assert_int_equal(px[2], 255);
		gl_fix_free(&f);
	}
	assert_memory_equal(img[0], img[1], sizeof img[0]);  /* TBR = IMR */
	/* without the directive gl_LastFragData is undeclared */
	struct tsr_shader *s = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_shader_compile(TSR_SHADER_FRAGMENT, fs + 53, &s, &err), TSR_OK);
	assert_false(tsr_shader_compiled(s));
	tsr_shader_destroy(s);
}

static void test_frag_depth(void **state)
{
	(void)state;
	static const char fs[] =
		"#extension GL_EXT_frag_depth : enable\n"
		"precision mediump float;\n"
		"uniform vec4 color;\nuniform float depth;\n"
		"void main() { gl_FragColor = color;\n"
		"  gl_FragDepthEXT = depth < 0.0 ? gl_FragCoord.z : depth; }\n";
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		fix_new(&f, imr, fs);
		struct tsr_gles_context *c = f.ctx;
		assert_non_null(strstr((const char *)tsr_gles_GetString(c, GL_EXTENSIONS),
				       "GL_EXT_frag_depth"));
		const GLint color = tsr_gles_GetUniformLocation(c, f.prog, "color");
		const GLint depth = tsr_gles_GetUniformLocation(c, f.prog, "depth");
		tsr_gles_Enable(c, GL_DEPTH_TEST);
		tsr_gles_DepthFunc(c, GL_LESS);
		clear(&f, 0.0f, 0.0f, 0.0f, 1.0f);
		float v[18];
		/* red at z 0 (window depth 0.5), its depth written as 0.9 */
		quad(0.0f, v);
		tsr_gles_Uniform4f(c, color, 1, 0, 0, 1);
		tsr_gles_Uniform1f(c, depth, 0.9f);
		draw(&f, v, 6);
		/* green at depth 0.7 (its own): nearer than 0.9, drawn (with the
		 * interpolated 0.5 it would fail) */
		quad(0.4f, v);
		tsr_gles_Uniform4f(c, color, 0, 1, 0, 1);
		tsr_gles_Uniform1f(c, depth, -1.0f);
		draw(&f, v, 6);
		uint8_t px[4];
		pixel(&f, 5, 5, px);
		assert_int_equal(px[0], 0);
		assert_int_equal(px[1], 255);
		/* blue at z 0.9 (window 0.95) but writing 0.1: drawn; then red at
		 * z -0.9 (window 0.05) writing 0.2: hidden */
		quad(0.9f, v);
		tsr_gles_Uniform4f(c, color, 0, 0, 1, 1);
		tsr_gles_Uniform1f(c, depth, 0.1f);
		draw(&f, v, 6);
		quad(-0.9f, v);
		tsr_gles_Uniform4f(c, color, 1, 0, 0, 1);
		tsr_gles_Uniform1f(c, depth, 0.2f);
		draw(&f, v, 6);
		pixel(&f, W - 2, H - 2, px);
		assert_int_equal(px[0], 0);
		assert_int_equal(px[1], 0);
		assert_int_equal(px[2], 255);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		gl_fix_free(&f);
	}
}

static void test_draw_buffers(void **state)
{
	(void)state;
	static const char fs[] = "precision mediump float;\n"
				 "void main() { gl_FragData[0] = vec4(0.0, 1.0, 0.0, 1.0); }\n";
	struct gl_fix f;
	fix_new(&f, 0, fs);
	struct tsr_gles_context *c = f.ctx;
	GLint n = 0;
	tsr_gles_GetIntegerv(c, 0x8824 /* MAX_DRAW_BUFFERS_EXT */, &n);
	assert_int_equal(n, 4);
	tsr_gles_GetIntegerv(c, 0x8CDF /* MAX_COLOR_ATTACHMENTS_EXT */, &n);
	assert_int_equal(n, 4);
	tsr_gles_GetIntegerv(c, 0x8825 /* DRAW_BUFFER0_EXT */, &n);
	assert_int_equal(n, GL_BACK);
	const GLenum five[5] = {GL_BACK, GL_NONE, GL_NONE, GL_NONE, GL_NONE};
	tsr_gles_DrawBuffersEXT(c, 5, five);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);
	tsr_gles_DrawBuffersEXT(c, 2, five);  /* the default framebuffer: one buffer */
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);
	const GLenum att0 = GL_COLOR_ATTACHMENT0;
	tsr_gles_DrawBuffersEXT(c, 1, &att0);  /* not on the default framebuffer */
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);
	tsr_gles_DrawBuffersEXT(c, 0, &att0);  /* nor zero buffers */
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);
	/* NONE: neither draws nor clears write color */
	clear(&f, 1.0f, 0.0f, 0.0f, 1.0f);
	const GLenum none = GL_NONE;
	tsr_gles_DrawBuffersEXT(c, 1, &none);
	tsr_gles_GetIntegerv(c, 0x8825, &n);
	assert_int_equal(n, GL_NONE);
	float v[18];
	quad(0.0f, v);
	draw(&f, v, 6);
	clear(&f, 0.0f, 0.0f, 1.0f, 1.0f);
	uint8_t px[4];
	pixel(&f, 4, 4, px);
	assert_int_equal(px[0], 255);
	assert_int_equal(px[1], 0);
	assert_int_equal(px[2], 0);
	const GLenum back = GL_BACK;
	tsr_gles_DrawBuffersEXT(c, 1, &back);
	draw(&f, v, 6);
	pixel(&f, 4, 4, px);
	assert_int_equal(px[0], 0);
	assert_int_equal(px[1], 255);
	/* a framebuffer object: COLOR_ATTACHMENT0 or NONE; a texture of RGBA8 */
	GLuint tex = 0, fbo = 0;
	tsr_gles_GenTextures(c, 1, &tex);
	tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex);
	tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA8_OES, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE,
			    NULL);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	tsr_gles_GenFramebuffers(c, 1, &fbo);
	tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fbo);
	tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
	tsr_gles_DrawBuffersEXT(c, 1, &att0);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	tsr_gles_DrawBuffersEXT(c, 1, &back);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);
	tsr_gles_GetIntegerv(c, 0x8825, &n);
	assert_int_equal(n, GL_COLOR_ATTACHMENT0);
	/* buffer i is COLOR_ATTACHMENTi or NONE, in order */
	const GLenum swapped[2] = {GL_COLOR_ATTACHMENT0 + 1, GL_COLOR_ATTACHMENT0};
	tsr_gles_DrawBuffersEXT(c, 2, swapped);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);
	const GLenum four[4] = {GL_COLOR_ATTACHMENT0, GL_NONE, GL_COLOR_ATTACHMENT0 + 2,
				GL_COLOR_ATTACHMENT0 + 3};
	tsr_gles_DrawBuffersEXT(c, 4, four);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	const GLint want[4] = {GL_COLOR_ATTACHMENT0, GL_NONE, GL_COLOR_ATTACHMENT0 + 2,
			       GL_COLOR_ATTACHMENT0 + 3};
	for (int i = 0; i < 4; i++) {
		tsr_gles_GetIntegerv(c, (GLenum)(0x8825 + i), &n);
		assert_int_equal(n, want[i]);
	}
	gl_fix_free(&f);
	/* gl_MaxDrawBuffers is 4: gl_FragData[3] compiles, [4] does not */
	struct tsr_shader *s = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_shader_compile(TSR_SHADER_FRAGMENT,
					    "precision mediump float;\n"
					    "void main() { gl_FragData[4] = vec4(1.0); }\n", &s, &err),
			 TSR_OK);
	assert_false(tsr_shader_compiled(s));
	tsr_shader_destroy(s);
}

/* COLOR_ATTACHMENT1..3: attachable, part of completeness; with draw
 * buffers 1..3 selecting nothing attached a gl_FragData[0..3] program
 * draws element 0 into COLOR_ATTACHMENT0 (real pixels, TBR and IMR); with
 * COLOR_ATTACHMENT1 attached and drawn the device draws and clears both
 * (test 167 reads the other attachments back). */
static void test_color_attachments(void **state)
{
	(void)state;
	static const char fs[] = "precision mediump float;\n"
				 "void main() {\n"
				 "  gl_FragData[0] = vec4(0.0, 1.0, 0.0, 1.0);\n"
				 "  gl_FragData[1] = vec4(1.0, 0.0, 0.0, 1.0);\n"
				 "  gl_FragData[3] = vec4(0.0, 0.0, 1.0, 1.0);\n"
				 "}\n";
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		fix_new(&f, imr, fs);
		struct tsr_gles_context *c = f.ctx;
		GLuint tex[2] = {0, 0}, fbo = 0;
		tsr_gles_GenTextures(c, 2, tex);
		for (int i = 0; i < 2; i++) {
			tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex[i]);
			tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_RGBA,
					    GL_UNSIGNED_BYTE, NULL);
		}
		tsr_gles_GenFramebuffers(c, 1, &fbo);
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fbo);
		tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
					      tex[0], 0);
		tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, 0x8CE4 /* ATTACHMENT4 */,
					      GL_TEXTURE_2D, tex[1], 0);
		assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
		const GLenum all[4] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT0 + 1,
				       GL_COLOR_ATTACHMENT0 + 2, GL_COLOR_ATTACHMENT0 + 3};
		tsr_gles_DrawBuffersEXT(c, 4, all);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		/* 1..3 unattached: only attachment 0 is drawn */
		clear(&f, 1.0f, 1.0f, 1.0f, 1.0f);
		float v[18];
		quad(0.0f, v);
		draw(&f, v, 6);
		uint8_t px[4];
		pixel(&f, 4, 4, px);
		assert_int_equal(px[0], 0);
		assert_int_equal(px[1], 255);
		assert_int_equal(px[2], 0);
		/* COLOR_ATTACHMENT1: its object and completeness (a size
		 * mismatch is INCOMPLETE_DIMENSIONS) */
		tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + 1,
					      GL_TEXTURE_2D, tex[1], 0);
		GLint v1 = 0;
		tsr_gles_GetFramebufferAttachmentParameteriv(c, GL_FRAMEBUFFER,
							     GL_COLOR_ATTACHMENT0 + 1,
							     GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &v1);
		assert_int_equal(v1, (GLint)tex[1]);
		assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_FRAMEBUFFER),
				 GL_FRAMEBUFFER_COMPLETE);
		tsr_gles_GetIntegerv(c, GL_RED_BITS, &v1);
		assert_int_equal(v1, 8);
		tsr_gles_GetIntegerv(c, GL_STENCIL_BITS, &v1);
		assert_int_equal(v1, 0);
		/* drawn into both (test 167 reads every attachment back) */
		clear(&f, 0.0f, 0.0f, 1.0f, 1.0f);
		draw(&f, v, 6);
		pixel(&f, 4, 4, px);
		assert_int_equal(px[1], 255);
		assert_int_equal(px[2], 0);
		/* draw buffer 1 NONE: drawn again (red over green is not) */
		const GLenum first[1] = {GL_COLOR_ATTACHMENT0};
		tsr_gles_DrawBuffersEXT(c, 1, first);
		clear(&f, 1.0f, 0.0f, 0.0f, 1.0f);
		draw(&f, v, 6);
		pixel(&f, 4, 4, px);
		assert_int_equal(px[0], 0);
		assert_int_equal(px[1], 255);
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex[1]);
		tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, W / 2, H, 0, GL_RGBA,
				    GL_UNSIGNED_BYTE, NULL);
		assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_FRAMEBUFFER),
				 GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		gl_fix_free(&f);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invariance),
		cmocka_unit_test(test_uniform_precision),
		cmocka_unit_test(test_framebuffer_fetch),
		cmocka_unit_test(test_frag_depth),
		cmocka_unit_test(test_draw_buffers),
		cmocka_unit_test(test_color_attachments),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
