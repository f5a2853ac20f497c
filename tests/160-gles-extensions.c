/*
 * 160-gles-extensions.c - the GL ES extensions of the context (gles.h)
 * beyond GL ES 2.0, each as its spec says: GL_EXT_polygon_offset_clamp
 * (the clamp limits the offset: exact pixels of piglit's draw test, TBR
 * and IMR), GL_OES_vertex_half_float (positions as binary16 from a buffer
 * object and from a client array: the covered pixels, TBR and IMR),
 * GL_EXT_discard_framebuffer's errors, GL_KHR_debug (labels of each kind
 * of object, the message log, the volume control of nested debug groups,
 * the callback, the errors), GL_OES_packed_depth_stencil (DEPTH_STENCIL
 * textures and their errors, a DEPTH24_STENCIL8 renderbuffer as depth and
 * stencil of a framebuffer object: stencilled pixels), and every one of
 * them in GL_EXTENSIONS.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_main.h"
#include "test_gles.h"

#define W 32
#define H 32

static const char *VS = "attribute vec4 pos;\n"
			"uniform float zflip;\n"
			"void main() { gl_Position = pos * vec4(1.0, 1.0, zflip, 1.0); }\n";
static const char *FS = "precision mediump float;\n"
			"uniform vec4 color;\n"
			"void main() { gl_FragColor = color; }\n";

static void fix_new(struct gl_fix *f, int imr, GLint stencil_bits)
{
	static const char *const attribs[] = {"pos", NULL};
	const struct tsr_gles_config bits = {8, 8, 8, 8, 24, stencil_bits};
	gl_fix_new(f, W, H, imr, &bits, bits, VS, FS, attribs);
	tsr_gles_Uniform1f(f->ctx, tsr_gles_GetUniformLocation(f->ctx, f->prog, "zflip"), 1.0f);
	assert_int_equal(tsr_gles_GetError(f->ctx), GL_NO_ERROR);
}

static void color(struct gl_fix *f, float r, float g, float b)
{
	tsr_gles_Uniform4f(f->ctx, tsr_gles_GetUniformLocation(f->ctx, f->prog, "color"), r, g, b,
			   1.0f);
}

static void draw(struct gl_fix *f, GLenum mode, GLsizei n)
{
	gl_fix_draw(f, mode, 0, n);
}

static void clear(struct gl_fix *f, GLbitfield mask)
{
	gl_fix_clear(f, mask);
}

/* Every pixel of the w x h framebuffer is (r, g, b). */
static void expect_all(struct gl_fix *f, int w, int h, uint8_t r, uint8_t g, uint8_t b)
{
	uint8_t *px = malloc((size_t)w * h * 4);
	assert_non_null(px);
	struct tsr_error err;
	assert_int_equal(tsr_gles_device_read_pixels(f->dev, f->ctx, 0, 0, w, h, px, &err),
			 TSR_OK);
	for (int i = 0; i < w * h; i++) {
		if (px[4 * i] != r || px[4 * i + 1] != g || px[4 * i + 2] != b)
			fail_msg("pixel (%d, %d) is (%u, %u, %u), not (%u, %u, %u)", i % w, i / w,
				 px[4 * i], px[4 * i + 1], px[4 * i + 2], r, g, b);
	}
	free(px);
}

static void test_extension_string(void **state)
{
	(void)state;
	struct tsr_gles_context *c;
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(4, 4, NULL, &c, &err), TSR_OK);
	const char *ext = (const char *)tsr_gles_GetString(c, GL_EXTENSIONS);
	const char *want[] = {"GL_EXT_discard_framebuffer", "GL_EXT_polygon_offset_clamp",
			      "GL_OES_vertex_half_float", "GL_KHR_debug",
			      "GL_OES_packed_depth_stencil"};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		assert_non_null(strstr(ext, want[i]));
	tsr_gles_context_destroy(c);
}

/* Binds a new framebuffer object of an RGBA texture and a DEPTH_STENCIL
 * texture at its depth and stencil attachments (piglit's -fbo framework). */
static void bind_fbo_with_depth_stencil(struct tsr_gles_context *c)
{
	GLuint t[2], fbo = 0;
	tsr_gles_GenTextures(c, 2, t);
	tsr_gles_BindTexture(c, GL_TEXTURE_2D, t[0]);
	tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE,
			    NULL);
	tsr_gles_BindTexture(c, GL_TEXTURE_2D, t[1]);
	tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_DEPTH_STENCIL_OES, W, H, 0,
			    GL_DEPTH_STENCIL_OES, GL_UNSIGNED_INT_24_8_OES, NULL);
	tsr_gles_BindTexture(c, GL_TEXTURE_2D, 0);
	tsr_gles_GenFramebuffers(c, 1, &fbo);
	tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fbo);
	tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t[0],
				      0);
	tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, t[1],
				      0);
	tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_TEXTURE_2D,
				      t[1], 0);
	assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_FRAMEBUFFER),
			 GL_FRAMEBUFFER_COMPLETE);
}

/* piglit's ext_polygon_offset_clamp-draw: a quad sloping from depth 1 to
 * 0.55 over a depth buffer cleared to 0.5, drawn with a huge negative
 * factor: clamped to -0.05 it stays behind everywhere, clamped to -0.51
 * it covers everything; then mirrored (GREATER, positive offsets). */
static void test_polygon_offset_clamp(void **state)
{
	(void)state;
	static const float quad[] = {-1, -1, 1, 1, 1, -1, 1, 1, -1, 1, 0.1f, 1, 1, 1, 0.1f, 1};
	for (int run = 0; run < 4; run++) {
		const int imr = run & 1;
		struct gl_fix f;
		fix_new(&f, imr, 0);
		struct tsr_gles_context *c = f.ctx;
		if (run >= 2)  /* into a framebuffer object, as piglit's -fbo */
			bind_fbo_with_depth_stencil(c);
		tsr_gles_VertexAttribPointer(c, 0, 4, GL_FLOAT, GL_FALSE, 0, quad);
		tsr_gles_EnableVertexAttribArray(c, 0);
		tsr_gles_Enable(c, GL_DEPTH_TEST);
		tsr_gles_Enable(c, GL_POLYGON_OFFSET_FILL);
		tsr_gles_ClearColor(c, 0, 0, 1, 1);
		tsr_gles_ClearDepthf(c, 0.5f);
		clear(&f, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
		/* a read ends the frame: the window's depth is not kept (each draw
		 * gets its own clear there); a framebuffer object's depth texture
		 * is (the next pass loads what the last one stored), so there the
		 * second draw tests against the first clear, as in piglit */
		tsr_gles_PolygonOffsetClampEXT(c, -1000, 0, -0.05f);
		color(&f, 1, 0, 0);
		draw(&f, GL_TRIANGLE_STRIP, 4);
		expect_all(&f, W, H, 0, 0, 255);
		if (run < 2)
			clear(&f, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
		tsr_gles_PolygonOffsetClampEXT(c, -1000, 0, -0.51f);
		color(&f, 0, 1, 0);
		draw(&f, GL_TRIANGLE_STRIP, 4);
		expect_all(&f, W, H, 0, 255, 0);
		/* positive clamps */
		tsr_gles_Uniform1f(c, tsr_gles_GetUniformLocation(c, f.prog, "zflip"), -1.0f);
		clear(&f, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
		tsr_gles_DepthFunc(c, GL_GREATER);
		tsr_gles_PolygonOffsetClampEXT(c, 1000, 0, 0.05f);
		color(&f, 1, 0, 0);
		draw(&f, GL_TRIANGLE_STRIP, 4);
		expect_all(&f, W, H, 0, 0, 255);
		if (run < 2)
			clear(&f, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
		tsr_gles_PolygonOffsetClampEXT(c, 1000, 0, 0.51f);
		color(&f, 0, 1, 0);
		draw(&f, GL_TRIANGLE_STRIP, 4);
		expect_all(&f, W, H, 0, 255, 0);
		/* the state: PolygonOffset sets the clamp back to 0 (no clamp) */
		GLfloat v = 0;
		tsr_gles_GetFloatv(c, GL_POLYGON_OFFSET_CLAMP_EXT, &v);
		assert_true(v == 0.51f);
		tsr_gles_PolygonOffset(c, 2, 3);
		tsr_gles_GetFloatv(c, GL_POLYGON_OFFSET_CLAMP_EXT, &v);
		assert_true(v == 0.0f);
		tsr_gles_GetFloatv(c, GL_POLYGON_OFFSET_UNITS, &v);
		assert_true(v == 3.0f);
		/* without a clamp the huge factor moves the quad in front */
		tsr_gles_PolygonOffset(c, 1000, 0);
		clear(&f, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
		color(&f, 1, 1, 0);
		draw(&f, GL_TRIANGLE_STRIP, 4);
		expect_all(&f, W, H, 255, 255, 0);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		gl_fix_free(&f);
	}
}

/* binary16 of small integers and halves: exact. */
static uint16_t half(float v)
{
	/* the values used: 0, +-0.5, +-1 */
	if (v == 0.0f)
		return 0;
	uint16_t s = v < 0 ? 0x8000 : 0;
	float a = v < 0 ? -v : v;
	return (uint16_t)(s | (a == 1.0f ? 0x3c00 : 0x3800));
}

/* A triangle of binary16 positions covering the left half of the window
 * (x from -1 to 0), from a buffer object (stride 8: x, y, z, pad) and a
 * client array (2 components, offset by one half). */
static void test_vertex_half_float(void **state)
{
	(void)state;
	const float xy[6][2] = {{-1, -1}, {0, -1}, {0, 1}, {-1, -1}, {0, 1}, {-1, 1}};
	uint16_t four[6][4], two[1 + 12];
	two[0] = 0x7c00;  /* +inf: skipped by the offset */
	for (int i = 0; i < 6; i++) {
		four[i][0] = half(xy[i][0]);
		four[i][1] = half(xy[i][1]);
		four[i][2] = half(0.5f);
		four[i][3] = 0xffff;  /* NaN: not read (size 3) */
		two[1 + 2 * i] = half(xy[i][0]);
		two[2 + 2 * i] = half(xy[i][1]);
	}
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		fix_new(&f, imr, 0);
		struct tsr_gles_context *c = f.ctx;
		uint8_t px[4];
		struct tsr_error err;
		for (int client = 0; client < 2; client++) {
			GLuint buf = 0;
			if (!client) {
				tsr_gles_GenBuffers(c, 1, &buf);
				tsr_gles_BindBuffer(c, GL_ARRAY_BUFFER, buf);
				tsr_gles_BufferData(c, GL_ARRAY_BUFFER, sizeof four, four,
						    GL_STATIC_DRAW);
				tsr_gles_VertexAttribPointer(c, 0, 3, GL_HALF_FLOAT_OES, GL_FALSE, 8,
							     NULL);
			} else {
				tsr_gles_BindBuffer(c, GL_ARRAY_BUFFER, 0);
				tsr_gles_VertexAttribPointer(c, 0, 2, GL_HALF_FLOAT_OES, GL_TRUE, 0,
							     two + 1);
			}
			tsr_gles_EnableVertexAttribArray(c, 0);
			GLint type = 0;
			tsr_gles_GetVertexAttribiv(c, 0, GL_VERTEX_ATTRIB_ARRAY_TYPE, &type);
			assert_int_equal(type, GL_HALF_FLOAT_OES);
			tsr_gles_ClearColor(c, 0, 0, 0, 1);
			clear(&f, GL_COLOR_BUFFER_BIT);
			color(&f, 1, 1, 1);
			draw(&f, GL_TRIANGLES, 6);
			for (int y = 0; y < H; y++)
				for (int x = 0; x < W; x++) {
					assert_int_equal(tsr_gles_device_read_pixels(
								 f.dev, c, x, y, 1, 1, px, &err),
							 TSR_OK);
					assert_int_equal(px[0], x < W / 2 ? 255 : 0);
				}
			assert_int_equal(tsr_gles_device_swap(f.dev, &err), TSR_OK);
		}
		/* other types stay refused */
		tsr_gles_VertexAttribPointer(c, 0, 2, GL_HALF_FLOAT_OES + 1, GL_FALSE, 0, two);
		assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		gl_fix_free(&f);
	}
}

/* GL_EXT_discard_framebuffer's Errors section, as piglit's fbo_discard. */
static void test_discard_framebuffer(void **state)
{
	(void)state;
	struct tsr_gles_context *c;
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(4, 4, NULL, &c, &err), TSR_OK);
	const GLenum fbo_att[] = {GL_COLOR_ATTACHMENT0, GL_DEPTH_ATTACHMENT, GL_STENCIL_ATTACHMENT};
	const GLenum def_att[] = {GL_COLOR_EXT, GL_DEPTH_EXT, GL_STENCIL_EXT};
	const GLenum bad = GL_COMPILE_STATUS;
	assert_int_equal(tsr_gles_DiscardFramebufferEXT(c, GL_RENDERBUFFER, 1, fbo_att), 0);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
	assert_int_equal(tsr_gles_DiscardFramebufferEXT(c, GL_FRAMEBUFFER, -1, fbo_att), 0);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);
	/* the default framebuffer */
	assert_int_equal(tsr_gles_DiscardFramebufferEXT(c, GL_FRAMEBUFFER, 3, def_att),
			 GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	assert_int_equal(tsr_gles_DiscardFramebufferEXT(c, GL_FRAMEBUFFER, 1, &def_att[1]),
			 GL_DEPTH_BUFFER_BIT);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	for (int i = 0; i < 3; i++) {
		tsr_gles_DiscardFramebufferEXT(c, GL_FRAMEBUFFER, 1, &fbo_att[i]);
		assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
	}
	tsr_gles_DiscardFramebufferEXT(c, GL_FRAMEBUFFER, 1, &bad);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
	/* a framebuffer object */
	GLuint fbo = 0;
	tsr_gles_GenFramebuffers(c, 1, &fbo);
	tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fbo);
	assert_int_equal(tsr_gles_DiscardFramebufferEXT(c, GL_FRAMEBUFFER, 3, fbo_att),
			 GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	assert_int_equal(tsr_gles_DiscardFramebufferEXT(c, GL_FRAMEBUFFER, 0, NULL), 0);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	for (int i = 0; i < 3; i++) {
		tsr_gles_DiscardFramebufferEXT(c, GL_FRAMEBUFFER, 1, &def_att[i]);
		assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
	}
	tsr_gles_context_destroy(c);
}

/* On the device: a framebuffer object's depth texture keeps its depth
 * from pass to pass (a read ends the frame between them), unless the
 * application discards it, which also saves the pass's depth store. */
static void test_discard_depth_on_device(void **state)
{
	(void)state;
	static const float at_half[] = {-1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1, 1, 1, 0, 1};
	static const float at_3q[] = {-1, -1, 0.5f, 1, 1, -1, 0.5f, 1, -1, 1, 0.5f, 1,
				      1, 1, 0.5f, 1};
	for (int run = 0; run < 4; run++) {
		const int imr = run & 1, discard = run >= 2;
		struct gl_fix f;
		fix_new(&f, imr, 0);
		struct tsr_gles_context *c = f.ctx;
		bind_fbo_with_depth_stencil(c);
		tsr_gles_EnableVertexAttribArray(c, 0);
		tsr_gles_Enable(c, GL_DEPTH_TEST);
		tsr_gles_ClearColor(c, 0, 0, 0, 1);
		clear(&f, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
		tsr_gles_VertexAttribPointer(c, 0, 4, GL_FLOAT, GL_FALSE, 0, at_half);
		color(&f, 0, 1, 0);
		draw(&f, GL_TRIANGLE_STRIP, 4);
		if (discard) {
			const GLenum depth = GL_DEPTH_ATTACHMENT;
			assert_int_equal(tsr_gles_DiscardFramebufferEXT(c, GL_FRAMEBUFFER, 1, &depth),
					 GL_DEPTH_BUFFER_BIT);
			struct tsr_error err;
			assert_int_equal(tsr_gles_device_discard(f.dev, c, GL_DEPTH_BUFFER_BIT, &err),
					 TSR_OK);
		}
		expect_all(&f, W, H, 0, 255, 0);
		/* behind the kept depth (0.5): nothing drawn; over a discarded
		 * (undefined: the far plane) one: drawn */
		tsr_gles_VertexAttribPointer(c, 0, 4, GL_FLOAT, GL_FALSE, 0, at_3q);
		color(&f, 1, 0, 0);
		draw(&f, GL_TRIANGLE_STRIP, 4);
		if (discard)
			expect_all(&f, W, H, 255, 0, 0);
		else
			expect_all(&f, W, H, 0, 255, 0);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		gl_fix_free(&f);
	}
}

static void label_round_trip(struct tsr_gles_context *c, GLenum kind, GLuint name)
{
	char got[16];
	GLsizei n = -1;
	tsr_gles_ObjectLabelKHR(c, kind, name, -1, "Test Label");
	tsr_gles_GetObjectLabelKHR(c, kind, name, sizeof got, &n, got);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	assert_int_equal(n, 10);
	assert_string_equal(got, "Test Label");
}

static void test_debug_labels(void **state)
{
	(void)state;
	struct tsr_gles_context *c;
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(4, 4, NULL, &c, &err), TSR_OK);
	GLuint buf = 0, tex = 0, rb = 0, fbo = 0;
	tsr_gles_GenBuffers(c, 1, &buf);
	tsr_gles_BindBuffer(c, GL_ARRAY_BUFFER, buf);
	label_round_trip(c, GL_BUFFER_KHR, buf);
	GLuint sh = tsr_gles_CreateShader(c, GL_FRAGMENT_SHADER);
	label_round_trip(c, GL_SHADER_KHR, sh);
	GLuint prog = tsr_gles_CreateProgram(c);
	label_round_trip(c, GL_PROGRAM_KHR, prog);
	tsr_gles_GenTextures(c, 1, &tex);
	tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex);
	label_round_trip(c, GL_TEXTURE, tex);
	tsr_gles_GenRenderbuffers(c, 1, &rb);
	tsr_gles_BindRenderbuffer(c, GL_RENDERBUFFER, rb);
	label_round_trip(c, GL_RENDERBUFFER, rb);
	tsr_gles_GenFramebuffers(c, 1, &fbo);
	tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fbo);
	label_round_trip(c, GL_FRAMEBUFFER, fbo);
	/* a shader is no program */
	tsr_gles_ObjectLabelKHR(c, GL_PROGRAM_KHR, sh, -1, "x");
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);
	/* bufsize limits the copy; NULL label: the length only; no label: "" */
	char got[16];
	GLsizei n = -1;
	tsr_gles_GetObjectLabelKHR(c, GL_BUFFER_KHR, buf, 10, &n, got);
	assert_int_equal(n, 9);
	assert_string_equal(got, "Test Labe");
	tsr_gles_GetObjectLabelKHR(c, GL_BUFFER_KHR, buf, 10, &n, NULL);
	assert_int_equal(n, 10);
	tsr_gles_ObjectLabelKHR(c, GL_BUFFER_KHR, buf, 4, "Testing");
	tsr_gles_GetObjectLabelKHR(c, GL_BUFFER_KHR, buf, sizeof got, &n, got);
	assert_string_equal(got, "Test");
	tsr_gles_ObjectLabelKHR(c, GL_BUFFER_KHR, buf, -1, NULL);
	tsr_gles_GetObjectLabelKHR(c, GL_BUFFER_KHR, buf, sizeof got, &n, got);
	assert_int_equal(n, 0);
	assert_string_equal(got, "");
	/* errors */
	GLint max = 0;
	tsr_gles_GetIntegerv(c, GL_MAX_LABEL_LENGTH_KHR, &max);
	assert_int_equal(max, 256);
	char *big = malloc((size_t)max + 1);
	assert_non_null(big);
	memset(big, 'a', (size_t)max);
	big[max] = '\0';
	tsr_gles_ObjectLabelKHR(c, GL_BUFFER_KHR, buf, -1, big);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);
	tsr_gles_ObjectLabelKHR(c, GL_BUFFER_KHR, buf, max - 1, big);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	free(big);
	tsr_gles_ObjectLabelKHR(c, GL_ARRAY_BUFFER, buf, -1, "x");
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
	tsr_gles_GetObjectLabelKHR(c, GL_ARRAY_BUFFER, buf, sizeof got, &n, got);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
	tsr_gles_GetObjectLabelKHR(c, GL_BUFFER_KHR, buf, -1, &n, got);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);
	tsr_gles_ObjectPtrLabelKHR(c, NULL, -1, "x");
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);
	/* a deleted object's name names nothing; a new object under it has no label */
	tsr_gles_DeleteBuffers(c, 1, &buf);
	tsr_gles_ObjectLabelKHR(c, GL_BUFFER_KHR, buf, -1, "x");
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);
	tsr_gles_BindBuffer(c, GL_ARRAY_BUFFER, buf);
	tsr_gles_GetObjectLabelKHR(c, GL_BUFFER_KHR, buf, sizeof got, &n, got);
	assert_int_equal(n, 0);
	tsr_gles_DeleteTextures(c, 1, &tex);
	tsr_gles_GetObjectLabelKHR(c, GL_TEXTURE, tex, sizeof got, &n, got);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);
	tsr_gles_context_destroy(c);
}

static GLuint called_id;
static char called_text[32];

static void GL_APIENTRY callback(GLenum source, GLenum type, GLuint id, GLenum severity,
				 GLsizei length, const GLchar *message, const void *user)
{
	(void)source;
	(void)type;
	(void)severity;
	assert_int_equal(length, (GLsizei)strlen(message));
	assert_ptr_equal(user, &called_id);
	called_id = id;
	snprintf(called_text, sizeof called_text, "%s", message);
}

static void insert(struct tsr_gles_context *c, GLuint id)
{
	char text[16];
	snprintf(text, sizeof text, "message %u", id);
	tsr_gles_DebugMessageInsertKHR(c, GL_DEBUG_SOURCE_APPLICATION_KHR,
				       GL_DEBUG_TYPE_MARKER_KHR, id,
				       GL_DEBUG_SEVERITY_NOTIFICATION_KHR, -1, text);
}

/* The ids in the log, fetched (n of them expected). */
static void expect_log(struct tsr_gles_context *c, GLuint n, const GLuint *want)
{
	GLuint ids[8];
	GLsizei lengths[8];
	char log[512];
	GLuint got = tsr_gles_GetDebugMessageLogKHR(c, 8, sizeof log, NULL, NULL, ids, NULL,
						    lengths, log);
	assert_int_equal(got, n);
	for (GLuint i = 0; i < n; i++)
		assert_int_equal(ids[i], want[i]);
}

static void test_debug_messages(void **state)
{
	(void)state;
	struct tsr_gles_context *c;
	struct tsr_error err;
	assert_int_equal(tsr_gles_context_create(4, 4, NULL, &c, &err), TSR_OK);
	/* DEBUG_OUTPUT is off by default: nothing is logged */
	assert_false(tsr_gles_IsEnabled(c, GL_DEBUG_OUTPUT_KHR));
	insert(c, 1);
	GLint v = -1;
	tsr_gles_GetIntegerv(c, GL_DEBUG_LOGGED_MESSAGES_KHR, &v);
	assert_int_equal(v, 0);
	tsr_gles_Enable(c, GL_DEBUG_OUTPUT_KHR);
	tsr_gles_Enable(c, GL_DEBUG_OUTPUT_SYNCHRONOUS_KHR);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	insert(c, 7);
	tsr_gles_GetIntegerv(c, GL_DEBUG_LOGGED_MESSAGES_KHR, &v);
	assert_int_equal(v, 1);
	tsr_gles_GetIntegerv(c, GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH_KHR, &v);
	assert_int_equal(v, (GLint)strlen("message 7") + 1);
	/* a log buffer too small: nothing fetched, nothing lost */
	char small[4];
	assert_int_equal(tsr_gles_GetDebugMessageLogKHR(c, 1, sizeof small, NULL, NULL, NULL,
							NULL, NULL, small), 0);
	GLenum src = 0, type = 0, sev = 0;
	GLuint id = 0;
	GLsizei len = 0;
	char log[64];
	assert_int_equal(tsr_gles_GetDebugMessageLogKHR(c, 4, sizeof log, &src, &type, &id, &sev,
							&len, log), 1);
	assert_int_equal(src, GL_DEBUG_SOURCE_APPLICATION_KHR);
	assert_int_equal(type, GL_DEBUG_TYPE_MARKER_KHR);
	assert_int_equal(sev, GL_DEBUG_SEVERITY_NOTIFICATION_KHR);
	assert_int_equal(id, 7);
	assert_int_equal(len, 10);
	assert_string_equal(log, "message 7");
	/* LOW severity is off by default */
	tsr_gles_DebugMessageInsertKHR(c, GL_DEBUG_SOURCE_THIRD_PARTY_KHR, GL_DEBUG_TYPE_OTHER_KHR,
				       3, GL_DEBUG_SEVERITY_LOW_KHR, 2, "lowish");
	expect_log(c, 0, NULL);
	/* nested groups, as piglit's push-pop-group: everything off, each group
	 * enables one more id; a pop restores its parent's control */
	const GLuint id1[] = {101}, id2[] = {202}, all[] = {101, 202, 303};
	tsr_gles_DebugMessageControlKHR(c, GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL,
					GL_FALSE);
	tsr_gles_PushDebugGroupKHR(c, GL_DEBUG_SOURCE_APPLICATION_KHR, 1, -1, "group 1");
	tsr_gles_DebugMessageControlKHR(c, GL_DEBUG_SOURCE_APPLICATION_KHR,
					GL_DEBUG_TYPE_MARKER_KHR, GL_DONT_CARE, 1, id1, GL_TRUE);
	for (int k = 0; k < 3; k++)
		insert(c, all[k]);
	expect_log(c, 1, all);
	tsr_gles_PushDebugGroupKHR(c, GL_DEBUG_SOURCE_APPLICATION_KHR, 2, -1, "group 2");
	tsr_gles_DebugMessageControlKHR(c, GL_DEBUG_SOURCE_APPLICATION_KHR,
					GL_DEBUG_TYPE_MARKER_KHR, GL_DONT_CARE, 1, id2, GL_TRUE);
	tsr_gles_GetIntegerv(c, GL_DEBUG_GROUP_STACK_DEPTH_KHR, &v);
	assert_int_equal(v, 3);
	for (int k = 0; k < 3; k++)
		insert(c, all[k]);
	expect_log(c, 2, all);
	tsr_gles_PopDebugGroupKHR(c);
	for (int k = 0; k < 3; k++)
		insert(c, all[k]);
	expect_log(c, 1, id1);
	/* the pop message goes through the restored group's control: enable
	 * POP_GROUP in group 1, then pop it into the default group where
	 * everything is off (nothing), push again with PUSH_GROUP enabled */
	tsr_gles_PopDebugGroupKHR(c);
	expect_log(c, 0, NULL);
	tsr_gles_DebugMessageControlKHR(c, GL_DEBUG_SOURCE_APPLICATION_KHR,
					GL_DEBUG_TYPE_PUSH_GROUP_KHR, GL_DONT_CARE, 0, NULL, GL_TRUE);
	tsr_gles_DebugMessageControlKHR(c, GL_DEBUG_SOURCE_APPLICATION_KHR,
					GL_DEBUG_TYPE_POP_GROUP_KHR, GL_DONT_CARE, 0, NULL, GL_TRUE);
	tsr_gles_PushDebugGroupKHR(c, GL_DEBUG_SOURCE_APPLICATION_KHR, 5, 5, "group 5 here");
	tsr_gles_DebugMessageControlKHR(c, GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL,
					GL_FALSE);
	tsr_gles_PopDebugGroupKHR(c);
	assert_int_equal(tsr_gles_GetDebugMessageLogKHR(c, 1, sizeof log, NULL, &type, NULL, NULL,
							NULL, log), 1);
	assert_int_equal(type, GL_DEBUG_TYPE_PUSH_GROUP_KHR);
	assert_string_equal(log, "group");
	assert_int_equal(tsr_gles_GetDebugMessageLogKHR(c, 1, sizeof log, NULL, &type, NULL, NULL,
							NULL, log), 1);
	assert_int_equal(type, GL_DEBUG_TYPE_POP_GROUP_KHR);
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	/* the callback takes the messages instead of the log */
	tsr_gles_DebugMessageControlKHR(c, GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, NULL,
					GL_TRUE);
	tsr_gles_DebugMessageCallbackKHR(c, callback, &called_id);
	void *p = NULL;
	tsr_gles_GetPointervKHR(c, GL_DEBUG_CALLBACK_USER_PARAM_KHR, &p);
	assert_ptr_equal(p, &called_id);
	insert(c, 42);
	assert_int_equal(called_id, 42);
	assert_string_equal(called_text, "message 42");
	expect_log(c, 0, NULL);
	tsr_gles_DebugMessageCallbackKHR(c, NULL, NULL);
	/* errors */
	tsr_gles_PopDebugGroupKHR(c);
	assert_int_equal(tsr_gles_GetError(c), GL_STACK_UNDERFLOW_KHR);
	for (int k = 0; k < 63; k++)
		tsr_gles_PushDebugGroupKHR(c, GL_DEBUG_SOURCE_APPLICATION_KHR, 0, 1, "g");
	assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
	tsr_gles_PushDebugGroupKHR(c, GL_DEBUG_SOURCE_APPLICATION_KHR, 0, 1, "g");
	assert_int_equal(tsr_gles_GetError(c), GL_STACK_OVERFLOW_KHR);
	tsr_gles_PushDebugGroupKHR(c, GL_DEBUG_SOURCE_API_KHR, 0, 1, "g");
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
	tsr_gles_DebugMessageInsertKHR(c, GL_DEBUG_SOURCE_API_KHR, GL_DEBUG_TYPE_MARKER_KHR, 0,
				       GL_DEBUG_SEVERITY_HIGH_KHR, -1, "x");
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
	tsr_gles_DebugMessageInsertKHR(c, GL_DEBUG_SOURCE_APPLICATION_KHR,
				       GL_DEBUG_TYPE_MARKER_KHR, 0, GL_DEBUG_SEVERITY_HIGH_KHR,
				       TSR_GLES_MAX_DEBUG_MESSAGE_LENGTH, "x");
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);
	tsr_gles_DebugMessageControlKHR(c, GL_DONT_CARE, GL_DEBUG_TYPE_MARKER_KHR, GL_DONT_CARE,
					1, id1, GL_TRUE);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);
	tsr_gles_DebugMessageControlKHR(c, GL_DEBUG_SOURCE_APPLICATION_KHR,
					GL_DEBUG_TYPE_MARKER_KHR, GL_DONT_CARE, -1, id1, GL_TRUE);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);
	tsr_gles_DebugMessageControlKHR(c, GL_TEXTURE_2D, GL_DONT_CARE, GL_DONT_CARE, 0, NULL,
					GL_TRUE);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_ENUM);
	assert_int_equal(tsr_gles_GetDebugMessageLogKHR(c, 1, -1, NULL, NULL, NULL, NULL, NULL,
							log), 0);
	assert_int_equal(tsr_gles_GetError(c), GL_INVALID_VALUE);
	tsr_gles_context_destroy(c);  /* frees 64 groups and their messages */
}

static void test_packed_depth_stencil(void **state)
{
	(void)state;
	for (int imr = 0; imr < 2; imr++) {
		struct gl_fix f;
		fix_new(&f, imr, 8);
		struct tsr_gles_context *c = f.ctx;
		/* textures: DEPTH_STENCIL_OES with UNSIGNED_INT_24_8_OES, 2D only;
		 * DEPTH24_STENCIL8_OES is no format */
		GLuint tex[2];
		tsr_gles_GenTextures(c, 2, tex);
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, tex[0]);
		const uint32_t texels[4] = {0xffffff00u, 0x80000012u, 0, 0x00000134u};
		tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_DEPTH_STENCIL_OES, 2, 2, 0,
				    GL_DEPTH_STENCIL_OES, GL_UNSIGNED_INT_24_8_OES, texels);
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		GLsizei w = 0, h = 0;
		GLenum format = 0;
		const float *d = (const float *)tsr_gles_texture_image(c, tex[0], GL_TEXTURE_2D, 0,
								       &w, &h, &format);
		assert_non_null(d);
		assert_int_equal(format, GL_DEPTH_STENCIL_OES);
		assert_true(d[0] == 1.0f);
		assert_true(d[1] == (float)(0x800000 / 16777215.0));
		assert_true(d[2] == 0.0f);
		assert_true(d[3] == (float)(1.0 / 16777215.0));
		tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_DEPTH24_STENCIL8_OES, 2, 2, 0,
				    GL_DEPTH_STENCIL_OES, GL_UNSIGNED_INT_24_8_OES, NULL);
		assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);
		tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_DEPTH_STENCIL_OES, 2, 2, 0,
				    GL_DEPTH_STENCIL_OES, GL_UNSIGNED_INT, NULL);
		assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);
		tsr_gles_BindTexture(c, GL_TEXTURE_CUBE_MAP, tex[1]);
		tsr_gles_TexImage2D(c, GL_TEXTURE_CUBE_MAP_POSITIVE_X, 0, GL_DEPTH_STENCIL_OES, 2,
				    2, 0, GL_DEPTH_STENCIL_OES, GL_UNSIGNED_INT_24_8_OES, NULL);
		assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);
		tsr_gles_GenerateMipmap(c, GL_TEXTURE_2D);
		assert_int_equal(tsr_gles_GetError(c), GL_INVALID_OPERATION);
		/* a DEPTH24_STENCIL8 renderbuffer as both attachments of a
		 * framebuffer object with a color texture: the stencil test works */
		GLuint rb = 0, fbo = 0, ctex = 0;
		tsr_gles_GenRenderbuffers(c, 1, &rb);
		tsr_gles_BindRenderbuffer(c, GL_RENDERBUFFER, rb);
		tsr_gles_RenderbufferStorage(c, GL_RENDERBUFFER, GL_DEPTH24_STENCIL8_OES, W, H);
		GLint bits = 0;
		tsr_gles_GetRenderbufferParameteriv(c, GL_RENDERBUFFER, GL_RENDERBUFFER_STENCIL_SIZE,
						    &bits);
		assert_int_equal(bits, 8);
		tsr_gles_GetRenderbufferParameteriv(c, GL_RENDERBUFFER, GL_RENDERBUFFER_DEPTH_SIZE,
						    &bits);
		assert_int_equal(bits, 24);
		tsr_gles_GenTextures(c, 1, &ctex);
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, ctex);
		tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_RGBA,
				    GL_UNSIGNED_BYTE, NULL);
		tsr_gles_GenFramebuffers(c, 1, &fbo);
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fbo);
		tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
					      GL_TEXTURE_2D, ctex, 0);
		tsr_gles_FramebufferRenderbuffer(c, GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
						 GL_RENDERBUFFER, rb);
		tsr_gles_FramebufferRenderbuffer(c, GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT,
						 GL_RENDERBUFFER, rb);
		assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_FRAMEBUFFER),
				 GL_FRAMEBUFFER_COMPLETE);
		tsr_gles_GetIntegerv(c, GL_STENCIL_BITS, &bits);
		assert_int_equal(bits, 8);
		tsr_gles_GetIntegerv(c, GL_DEPTH_BITS, &bits);
		assert_int_equal(bits, 24);
		static const float left[] = {-1, -1, 0, 1, 0, -1, 0, 1, -1, 1, 0, 1, 0, 1, 0, 1};
		static const float all[] = {-1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1, 1, 1, 0, 1};
		tsr_gles_ClearColor(c, 0, 0, 0, 1);
		tsr_gles_ClearStencil(c, 0);
		clear(&f, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
		tsr_gles_Enable(c, GL_STENCIL_TEST);
		tsr_gles_StencilFunc(c, GL_ALWAYS, 1, 0xff);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_REPLACE);
		tsr_gles_ColorMask(c, GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
		tsr_gles_VertexAttribPointer(c, 0, 4, GL_FLOAT, GL_FALSE, 0, left);
		tsr_gles_EnableVertexAttribArray(c, 0);
		draw(&f, GL_TRIANGLE_STRIP, 4);
		tsr_gles_ColorMask(c, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
		tsr_gles_StencilFunc(c, GL_EQUAL, 1, 0xff);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_KEEP);
		tsr_gles_VertexAttribPointer(c, 0, 4, GL_FLOAT, GL_FALSE, 0, all);
		color(&f, 0, 1, 0);
		draw(&f, GL_TRIANGLE_STRIP, 4);
		uint8_t px[4];
		struct tsr_error err;
		for (int x = 0; x < W; x++) {
			assert_int_equal(tsr_gles_device_read_pixels(f.dev, c, x, H / 2, 1, 1, px,
								     &err), TSR_OK);
			assert_int_equal(px[1], x < W / 2 ? 255 : 0);
		}
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		/* piglit's -fbo framework: an RGBA texture and one DEPTH_STENCIL
		 * texture at DEPTH_ATTACHMENT and STENCIL_ATTACHMENT: complete,
		 * stencil and depth tested */
		GLuint ds = 0, fbo2 = 0, ctex2 = 0;
		tsr_gles_GenTextures(c, 1, &ds);
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, ds);
		tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_DEPTH_STENCIL_OES, W, H, 0,
				    GL_DEPTH_STENCIL_OES, GL_UNSIGNED_INT_24_8_OES, NULL);
		tsr_gles_GenTextures(c, 1, &ctex2);
		tsr_gles_BindTexture(c, GL_TEXTURE_2D, ctex2);
		tsr_gles_TexImage2D(c, GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_RGBA,
				    GL_UNSIGNED_BYTE, NULL);
		tsr_gles_GenFramebuffers(c, 1, &fbo2);
		tsr_gles_BindFramebuffer(c, GL_FRAMEBUFFER, fbo2);
		tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
					      GL_TEXTURE_2D, ctex2, 0);
		tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT,
					      GL_TEXTURE_2D, ds, 0);
		/* the DEPTH_STENCIL texture alone at STENCIL_ATTACHMENT: complete */
		assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_FRAMEBUFFER),
				 GL_FRAMEBUFFER_COMPLETE);
		tsr_gles_FramebufferTexture2D(c, GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D,
					      ds, 0);
		assert_int_equal(tsr_gles_CheckFramebufferStatus(c, GL_FRAMEBUFFER),
				 GL_FRAMEBUFFER_COMPLETE);
		tsr_gles_GetIntegerv(c, GL_STENCIL_BITS, &bits);
		assert_int_equal(bits, 8);
		tsr_gles_ClearDepthf(c, 1.0f);
		clear(&f, GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
		tsr_gles_StencilFunc(c, GL_ALWAYS, 1, 0xff);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_REPLACE);
		tsr_gles_ColorMask(c, GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
		tsr_gles_VertexAttribPointer(c, 0, 4, GL_FLOAT, GL_FALSE, 0, left);
		draw(&f, GL_TRIANGLE_STRIP, 4);
		tsr_gles_ColorMask(c, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
		tsr_gles_StencilFunc(c, GL_EQUAL, 1, 0xff);
		tsr_gles_StencilOp(c, GL_KEEP, GL_KEEP, GL_KEEP);
		tsr_gles_VertexAttribPointer(c, 0, 4, GL_FLOAT, GL_FALSE, 0, all);
		color(&f, 1, 0, 1);
		tsr_gles_Enable(c, GL_DEPTH_TEST);
		draw(&f, GL_TRIANGLE_STRIP, 4);
		color(&f, 0, 0, 1);  /* same depth, LESS: behind, nothing drawn */
		draw(&f, GL_TRIANGLE_STRIP, 4);
		for (int x = 0; x < W; x++) {
			assert_int_equal(tsr_gles_device_read_pixels(f.dev, c, x, H / 2, 1, 1, px,
								     &err), TSR_OK);
			assert_int_equal(px[0], x < W / 2 ? 255 : 0);
			assert_int_equal(px[2], x < W / 2 ? 255 : 0);
		}
		assert_int_equal(tsr_gles_GetError(c), GL_NO_ERROR);
		gl_fix_free(&f);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extension_string),
		cmocka_unit_test(test_polygon_offset_clamp),
		cmocka_unit_test(test_vertex_half_float),
		cmocka_unit_test(test_discard_framebuffer),
		cmocka_unit_test(test_discard_depth_on_device),
		cmocka_unit_test(test_debug_labels),
		cmocka_unit_test(test_debug_messages),
		cmocka_unit_test(test_packed_depth_stencil),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
