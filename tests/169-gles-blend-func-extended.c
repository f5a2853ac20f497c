/*
 * 169-gles-blend-func-extended.c - GL_EXT_blend_func_extended on the GL ES
 * device: a fragment program's gl_SecondaryFragColorEXT (and
 * gl_SecondaryFragDataEXT[0]) blended by the SRC1 factors, and
 * SRC_ALPHA_SATURATE as a destination factor, in TBR and IMR with every
 * pixel checked against values worked out by hand (the images of both
 * pipelines identical); a dual-source blend costs what a one-source blend
 * of the same program costs (stats.json identical: the second color never
 * leaves the shader core); the API's and the shading language's errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_main.h"
#include "test_shader.h"
#include "test_gles.h"

#define W 32
#define H 16

static const char *VS = "attribute vec3 pos;\n"
			"void main() { gl_Position = vec4(pos, 1.0); }\n";

/* Two source colors: c0, and c1 left of x = 16, c2 right of it (a
 * per-pixel second color, as piglit's fbo-extended-blend-pattern). */
static const char FS[] =
	"#extension GL_EXT_blend_func_extended : require\n"
	"precision highp float;\n"
	"uniform vec4 c0, c1, c2;\n"
	"void main() {\n"
	"  gl_FragColor = c0;\n"
	"  gl_SecondaryFragColorEXT = gl_FragCoord.x < 16.0 ? c1 : c2;\n"
	"}\n";

/* The same through the arrays (gl_MaxDualSourceDrawBuffersEXT is 1). */
static const char FS_DATA[] =
	"#extension GL_EXT_blend_func_extended : enable\n"
	"precision mediump float;\n"
	"uniform vec4 c0, c1, c2;\n"
	"void main() {\n"
	"  gl_FragData[0] = c0;\n"
	"  gl_SecondaryFragDataEXT[gl_MaxDualSourceDrawBuffersEXT - 1] =\n"
	"      gl_FragCoord.x < 16.0 ? c1 : c2;\n"
	"}\n";

static void fix_new(struct gl_fix *f, int imr, const char *fs, const char *out_dir)
{
	static const char *const attribs[] = {"pos", NULL};
	const struct tsr_gles_config bits = {8, 8, 8, 8, 24, 0};
	gl_fix_new(f, W, H, imr, NULL, bits, VS, fs, attribs);
	if (!out_dir)
		return;
	/* gl_fix_new()'s device, writing stats.json into out_dir */
	struct tsr_gpu_config cfg;
	gl_fix_config(&cfg, imr);
	const struct tsr_gles_device_params p = {.width = W, .height = H, .bits = bits,
						 .config = &cfg, .out_dir = out_dir,
						 .frame_images = "none"};
	gl_fix_device(f, &p);
}

/* A full-window quad (two triangles) from a client array. */
static void draw_quad(struct gl_fix *f)
{
	static const float v[18] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, -1, 0, 1, 1, 0, -1, 1, 0};
	tsr_gles_BindBuffer(f->ctx, GL_ARRAY_BUFFER, 0);
	tsr_gles_VertexAttribPointer(f->ctx, 0, 3, GL_FLOAT, GL_FALSE, 0, v);
	tsr_gles_EnableVertexAttribArray(f->ctx, 0);
	gl_fix_draw(f, GL_TRIANGLES, 0, 6);
}

static void uniforms(struct gl_fix *f, const float c0[4], const float c1[4], const float c2[4])
{
	struct tsr_gles_context *c = f->ctx;
	tsr_gles_Uniform4fv(c, tsr_gles_GetUniformLocation(c, f->prog, "c0"), 1, c0);
	tsr_gles_Uniform4fv(c, tsr_gles_GetUniformLocation(c, f->prog, "c1"), 1, c1);
	tsr_gles_Uniform4fv(c, tsr_gles_GetUniformLocation(c, f->prog, "c2"), 1, c2);
}

/* Clears to (1, 0.5, 0.25, 1), blends one full-window quad with the factors
 * given and reads the window back into img (W x H RGBA8). */
static void blend_once(struct gl_fix *f, GLenum src_rgb, GLenum dst_rgb, GLenum src_a,
		       GLenum dst_a, uint8_t img[W * H * 4])
{
	struct tsr_gles_context *c = f->ctx;
	tsr_gles_ClearColor(c, 1.0f, 0.5f, 0.25f, 1.0f);
	gl_fix_clear(f, GL_COLOR_BUFFER_BIT);
	tsr_gles_Enable(c, GL_BLEND);
	tsr_gles_BlendFuncSeparate(c, src_rgb, dst_rgb, src_a, dst_a);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	draw_quad(f);
	struct tsr_error err;
	assert_int_equal(tsr_gles_device_read_pixels(f->dev, c, 0, 0, W, H, img, &err), TSR_OK);
}

/* Every pixel of img is left (x < 16) or right. */
static void expect_halves(const uint8_t img[W * H * 4], const uint8_t left[4],
			  const uint8_t right[4])
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *px = &img[(y * W + x) * 4];
			const uint8_t *e = x < 16 ? left : right;
			for (int i = 0; i < 4; i++)
				if (px[i] != e[i])
					fail_msg("pixel (%d, %d) channel %d: %u, expected %u", x, y, i,
						 px[i], e[i]);
		}
}

static void test_dual_source_blend(void **state)
{
	(void)state;
	/* destination (1, 0.5, 0.25, 1); source c0 (1, 1, 0.75, 0.5); second
	 * source c1 (0.5, 0.25, 1, 0.75) left, c2 (2, -1, 0.5, 0.25) right,
	 * clamped to (1, 0, 0.5, 0.25) as the color buffer is fixed-point */
	static const float c0[4] = {1.0f, 1.0f, 0.75f, 0.5f};
	static const float c1[4] = {0.5f, 0.25f, 1.0f, 0.75f};
	static const float c2[4] = {2.0f, -1.0f, 0.5f, 0.25f};
	uint8_t img[2][4][W * H * 4];
	for (int imr = 0; imr < 2; imr++) {
		for (int prog = 0; prog < 2; prog++) {
			struct gl_fix f;
			fix_new(&f, imr, prog ? FS_DATA : FS, NULL);
			uniforms(&f, c0, c1, c2);
			/* 1. SRC1_COLOR, ONE_MINUS_SRC1_COLOR (subpixel text's blend),
			 * alpha SRC1_ALPHA, ONE_MINUS_SRC1_ALPHA:
			 * left:  r 1 * 0.5 + 1 * 0.5 = 1 -> 255
			 *        g 1 * 0.25 + 0.5 * 0.75 = 0.625 -> 159.375 -> 159
			 *        b 0.75 * 1 + 0.25 * 0 = 0.75 -> 191.25 -> 191
			 *        a 0.5 * 0.75 + 1 * 0.25 = 0.625 -> 159
			 * right: r 1 * 1 + 1 * 0 = 1 -> 255
			 *        g 1 * 0 + 0.5 * 1 = 0.5 -> 128 (127.5 + 0.5 truncated)
			 *        b 0.75 * 0.5 + 0.25 * 0.5 = 0.5 -> 128
			 *        a 0.5 * 0.25 + 1 * 0.75 = 0.875 -> 223.125 -> 223 */
			blend_once(&f, GL_SRC1_COLOR_EXT, GL_ONE_MINUS_SRC1_COLOR_EXT, GL_SRC1_ALPHA_EXT,
				   GL_ONE_MINUS_SRC1_ALPHA_EXT, img[imr][prog * 2]);
			expect_halves(img[imr][prog * 2], (const uint8_t[4]){255, 159, 191, 159},
				      (const uint8_t[4]){255, 128, 128, 223});
			/* 2. ONE_MINUS_SRC1_ALPHA, SRC1_ALPHA for rgb; alpha ZERO and
			 * SRC_ALPHA_SATURATE as the destination factor (1 for alpha):
			 * left (As1 0.75):  r 1 * 0.25 + 1 * 0.75 = 1 -> 255
			 *                   g 1 * 0.25 + 0.5 * 0.75 = 0.625 -> 159
			 *                   b 0.75 * 0.25 + 0.25 * 0.75 = 0.375 -> 95.625 -> 96
			 *                   a 0 + 1 * 1 = 1 -> 255
			 * right (As1 0.25): r 1 * 0.75 + 1 * 0.25 = 1 -> 255
			 *                   g 1 * 0.75 + 0.5 * 0.25 = 0.875 -> 223
			 *                   b 0.75 * 0.75 + 0.25 * 0.25 = 0.625 -> 159
			 *                   a 255 */
			blend_once(&f, GL_ONE_MINUS_SRC1_ALPHA_EXT, GL_SRC1_ALPHA_EXT, GL_ZERO,
				   GL_SRC_ALPHA_SATURATE, img[imr][prog * 2 + 1]);
			expect_halves(img[imr][prog * 2 + 1], (const uint8_t[4]){255, 159, 96, 255},
				      (const uint8_t[4]){255, 223, 159, 255});
			assert_int_equal(tsr_gles_GetError(f.ctx), GL_NO_ERROR);
			gl_fix_free(&f);
		}
	}
	/* TBR and IMR give the same images */
	assert_memory_equal(img[0], img[1], sizeof img[0]);
}

/* The whole of file path (malloc'ed, NUL-terminated). */
static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	const long n = ftell(fp);
	assert_true(n > 0);
	rewind(fp);
	char *s = malloc((size_t)n + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)n, fp), (size_t)n);
	s[n] = '\0';
	fclose(fp);
	return s;
}

static void test_no_extra_cost(void **state)
{
	(void)state;
	static const float c0[4] = {1.0f, 1.0f, 0.75f, 0.5f};
	static const float c1[4] = {0.5f, 0.25f, 1.0f, 0.75f};
	static const float c2[4] = {2.0f, -1.0f, 0.5f, 0.25f};
	/* the same program blended with SRC1_COLOR or with SRC_COLOR (both
	 * the general blend path): every counter of stats.json the same, in
	 * TBR and IMR (in IMR both read and write the color buffer) */
	for (int imr = 0; imr < 2; imr++) {
		char *stats[2];
		for (int src1 = 0; src1 < 2; src1++) {
			char dir[] = "/tmp/tsr-169-XXXXXX";
			assert_non_null(mkdtemp(dir));
			struct gl_fix f;
			fix_new(&f, imr, FS, dir);
			uniforms(&f, c0, c1, c2);
			uint8_t img[W * H * 4];
			blend_once(&f, src1 ? GL_SRC1_COLOR_EXT : GL_SRC_COLOR,
				   src1 ? GL_ONE_MINUS_SRC1_COLOR_EXT : GL_ONE_MINUS_SRC_COLOR,
				   GL_ONE, GL_ZERO, img);
			struct tsr_error err;
			assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
			gl_fix_free(&f);
			char path[64];
			snprintf(path, sizeof path, "%s/stats.json", dir);
			stats[src1] = slurp(path);
			unlink(path);
			snprintf(path, sizeof path, "%s/frames.csv", dir);
			unlink(path);
			assert_int_equal(rmdir(dir), 0);
		}
		assert_non_null(strstr(stats[0], "\"dram\""));
		assert_string_equal(stats[0], stats[1]);
		free(stats[0]);
		free(stats[1]);
	}
}

/* Whether fs compiles (with a vertex shader, linked, when it does). */
static bool compiles(const char *fs)
{
	struct tsr_shader *s = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_shader_compile(TSR_SHADER_FRAGMENT, fs, &s, &err), TSR_OK);
	const bool ok = tsr_shader_compiled(s);
	tsr_shader_destroy(s);
	return ok;
}

static void test_errors(void **state)
{
	(void)state;
	struct gl_fix f;
	fix_new(&f, 0, FS, NULL);
	struct tsr_gles_context *c = f.ctx;
	const char *ext = (const char *)tsr_gles_GetString(c, GL_EXTENSIONS);
	assert_non_null(strstr(ext, "GL_EXT_blend_func_extended"));
	GLint n = 0;
	tsr_gles_GetIntegerv(c, GL_MAX_DUAL_SOURCE_DRAW_BUFFERS_EXT, &n);
	assert_int_equal(n, 1);
	/* every SRC1 factor as a source and a destination factor, read back */
	static const GLenum src1[4] = {GL_SRC1_COLOR_EXT, GL_ONE_MINUS_SRC1_COLOR_EXT,
				       GL_SRC1_ALPHA_EXT, GL_ONE_MINUS_SRC1_ALPHA_EXT};
	for (int i = 0; i < 4; i++) {
		tsr_gles_BlendFuncSeparate(c, src1[i], src1[3 - i], src1[(i + 1) % 4],
					   GL_SRC_ALPHA_SATURATE_EXT);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		GLint v[4];
		tsr_gles_GetIntegerv(c, GL_BLEND_SRC_RGB, &v[0]);
		tsr_gles_GetIntegerv(c, GL_BLEND_DST_RGB, &v[1]);
		tsr_gles_GetIntegerv(c, GL_BLEND_SRC_ALPHA, &v[2]);
		tsr_gles_GetIntegerv(c, GL_BLEND_DST_ALPHA, &v[3]);
		assert_int_equal(v[0], src1[i]);
		assert_int_equal(v[1], src1[3 - i]);
		assert_int_equal(v[2], src1[(i + 1) % 4]);
		assert_int_equal(v[3], GL_SRC_ALPHA_SATURATE);
	}
	/* a value next to them is no factor: INVALID_ENUM, nothing changed */
	tsr_gles_BlendFunc(c, GL_MAX_DUAL_SOURCE_DRAW_BUFFERS_EXT, GL_ZERO);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
	tsr_gles_GetIntegerv(c, GL_BLEND_SRC_RGB, &n);
	assert_int_equal(n, GL_ONE_MINUS_SRC1_ALPHA_EXT);
	/* with one draw buffer a dual-source blend draws (no INVALID_OPERATION) */
	tsr_gles_Enable(c, GL_BLEND);
	draw_quad(&f);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	/* with draw buffer 1 (past MAX_DUAL_SOURCE_DRAW_BUFFERS_EXT) not NONE
	 * the draw is INVALID_OPERATION; draw buffer 1 NONE again: it draws */
	GLuint tex[2], fb;
	tsr_gles_GenTextures(c, 2, tex);
	for (int i = 0; i < 2; i++) {
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex[i]);
		tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_RGBA,
				    GL_UNSIGNED_BYTE, NULL);
	}
	tsr_gles_GenFramebuffers(c, 1, &fb);
	tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fb);
	tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
				      tex[0], 0);
	tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1_EXT, GL_TEXTURE_2D,
				      tex[1], 0);
	const GLenum two[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1_EXT};
	tsr_gles_DrawBuffersEXT(c, 2, two);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	struct tsr_gles_draw d;
	assert_false(tsr_gles_draw_arrays_state(c, GL_TRIANGLES, 0, 6, &d));
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);
	tsr_gles_Disable(c, GL_BLEND);  /* the factors count only with blending on */
	assert_true(tsr_gles_draw_arrays_state(c, GL_TRIANGLES, 0, 6, &d));
	tsr_gles_Enable(c, GL_BLEND);
	const GLenum first[2] = {GL_COLOR_ATTACHMENT0, GL_NONE};
	tsr_gles_DrawBuffersEXT(c, 2, first);
	assert_true(tsr_gles_draw_arrays_state(c, GL_TRIANGLES, 0, 6, &d));
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	gl_fix_free(&f);

	/* the shading language: the built-ins need the directive */
	assert_true(compiles(FS));
	assert_false(compiles(FS + 48));  /* FS without its #extension line */
	assert_int_equal(strncmp(FS + 48, "precision", 9), 0);
	assert_true(compiles("#extension GL_EXT_blend_func_extended : enable\n"
			     "void main() { gl_FragColor = vec4(float(gl_MaxDualSourceDrawBuffersEXT)); }\n"));
	/* gl_SecondaryFragDataEXT has one element */
	assert_false(compiles("#extension GL_EXT_blend_func_extended : enable\n"
			      "void main() { gl_FragData[0] = vec4(0); "
			      "gl_SecondaryFragDataEXT[1] = vec4(0); }\n"));
	/* either {gl_FragColor, gl_SecondaryFragColorEXT} or {gl_FragData,
	 * gl_SecondaryFragDataEXT}, not both (as piglit's builtins_gles2) */
	struct tsr_shader *s = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_shader_compile(TSR_SHADER_FRAGMENT,
					    "#extension GL_EXT_blend_func_extended : enable\n"
					    "void main() {\n  gl_FragColor = vec4(0);\n"
					    "  gl_SecondaryFragDataEXT[0] = vec4(0);\n}\n",
					    &s, &err),
			 TSR_OK);
	assert_false(tsr_shader_compiled(s));
	assert_non_null(strstr(tsr_shader_info_log(s), "ERROR: 0:5: Cannot use both"));
	tsr_shader_destroy(s);
	assert_false(compiles("#extension GL_EXT_blend_func_extended : enable\n"
			      "void main() { gl_FragData[0] = vec4(0); "
			      "gl_SecondaryFragColorEXT = vec4(0); }\n"));
	/* a use in code never run is a static use too */
	assert_false(compiles("#extension GL_EXT_blend_func_extended : enable\n"
			      "uniform bool b;\n"
			      "void main() { gl_FragColor = vec4(0); "
			      "if (b) gl_SecondaryFragDataEXT[0] = vec4(0); }\n"));
	/* the sets' own pairs compile */
	assert_true(compiles("#extension GL_EXT_blend_func_extended : enable\n"
			     "void main() { gl_FragData[0] = vec4(0); "
			     "gl_SecondaryFragDataEXT[0] = vec4(0); }\n"));
	assert_true(compiles("#extension GL_EXT_blend_func_extended : enable\n"
			     "void main() { gl_SecondaryFragColorEXT = vec4(0); }\n"));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dual_source_blend),
		cmocka_unit_test(test_no_extra_cost),
		cmocka_unit_test(test_errors),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
