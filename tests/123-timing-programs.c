/*
 * 123-timing-programs.c - the timing mode issuing a GL ES program's
 * instructions (timing/core.h, docs/timing.md "Shader cores"): a
 * fragment program whose loop samples a texture three times and whose
 * result goes through special functions (sqrt, inversesqrt), drawn over
 * the window on the GL ES device in the TBR and the IMR pipeline.
 *   - The cores issue exactly the special-function instructions the
 *     functional model executed (core_sfu_instructions = raster.fs_sfu),
 *     and every quad samples three times (fs_tex = 3 x quads shaded).
 *   - The special functions' latency is what the cores wait on when the
 *     warps cannot hide it: one warp slot, sfu latency 1 against 64: more
 *     cycles, more dependency stalls, the same instructions.
 *   - A warp's samples are not one: the same program with the loop's
 *     samples cut to one takes fewer cycles at a long DRAM latency.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_main.h"
#include "test_gles.h"
#include "framestats/stats.h"

#define W 32
#define H 32

static const char VS[] = "attribute vec2 pos;\n"
			 "varying vec2 v_uv;\n"
			 "void main() { v_uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }\n";

/* N samples in a loop, then special functions (sqrt of a vector: one instruction) */
#define FS(N)                                                                          \
	"precision highp float;\n"                                                     \
	"uniform sampler2D tex;\n"                                                     \
	"varying vec2 v_uv;\n"                                                         \
	"void main() {\n"                                                              \
	"  vec4 c = vec4(0.0);\n"                                                      \
	"  for (int i = 0; i < " #N "; i++)\n"                                         \
	"    c += texture2D(tex, v_uv * 3.0 + vec2(float(i) * 0.37, 0.0));\n"          \
	"  gl_FragColor = vec4(sqrt(c.rgb / 3.0), inversesqrt(c.a + 1.0));\n"          \
	"}\n"

static const char *const ATTRIBS[] = {"pos", NULL};

struct run {
	uint64_t cycles, quads, fs_tex, fs_sfu, core_sfu, stall_dep, busy;
};

/* One frame of the program fs over the window on a 64x64 texture, in the
 * timing mode with `slots` warp slots and SFU latency `sfu`. */
static struct run frame(int imr, const char *fs, uint32_t slots, uint32_t sfu)
{
	struct gl_fix f;
	const struct tsr_gles_config bits = {8, 8, 8, 8, 24, 0};
	gl_fix_new(&f, W, H, imr, NULL, bits, VS, fs, ATTRIBS);
	struct tsr_gpu_config cfg;
	gl_fix_config(&cfg, imr);
	cfg.timing.enabled = 1;
	cfg.timing.warp_slots = slots;
	cfg.timing.sfu_latency_cycles = sfu;
	const struct tsr_gles_device_params p = {.width = W, .height = H, .bits = bits,
						 .config = &cfg, .frame_images = "none"};
	gl_fix_device(&f, &p);
	static uint8_t texels[64 * 64 * 4];
	for (size_t i = 0; i < sizeof(texels); i++)
		texels[i] = (uint8_t)(i * 37u + (i >> 8));
	GLuint tex;
	tsr_gles_GenTextures(f.ctx, 1, &tex);
	tsr_gles_BindTexture(f.ctx, GL_TEXTURE_2D, tex);
	tsr_gles_TexImage2D(f.ctx, GL_TEXTURE_2D, 0, GL_RGBA, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE,
			    texels);
	tsr_gles_TexParameteri(f.ctx, GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	const float v[12] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
	tsr_gles_BindBuffer(f.ctx, GL_ARRAY_BUFFER, 0);
	tsr_gles_VertexAttribPointer(f.ctx, 0, 2, GL_FLOAT, GL_FALSE, 0, v);
	tsr_gles_EnableVertexAttribArray(f.ctx, 0);
	gl_fix_clear(&f, GL_COLOR_BUFFER_BIT);
	gl_fix_draw(&f, GL_TRIANGLES, 0, 6);
	assert_int_equal(tsr_gles_GetError(f.ctx), GL_NO_ERROR);
	struct tsr_error err;
	if (tsr_gles_device_swap(f.dev, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	const struct tsr_frame_stats *s = tsr_gles_device_last_frame(f.dev);
	assert_non_null(s);
	struct run r = {s->timing.cycles, s->raster.quads_shaded, s->raster.fs_tex,
			s->raster.fs_sfu, 0, 0, 0};
	for (uint32_t c = 0; c < TSR_MAX_CORES; c++) {
		r.core_sfu += s->timing.core_sfu_instructions[c];
		r.stall_dep += s->timing.core_stalled_dependency[c];
		r.busy += s->timing.core_busy[c];
	}
	gl_fix_free(&f);
	return r;
}

static void test_sfu_and_samples(void **state)
{
	(void)state;
	for (int imr = 0; imr < 2; imr++) {
		const struct run a = frame(imr, FS(3), 16, 4);
		/* (the quads along the diagonal twice: once per triangle) */
		assert_true(a.quads >= (W / 2) * (H / 2));
		assert_int_equal(a.fs_tex, 3 * a.quads);
		assert_true(a.fs_sfu >= 2 * a.quads);  /* sqrt, inversesqrt */
		assert_int_equal(a.core_sfu, a.fs_sfu);
		assert_true(a.cycles > 0);
		/* one warp slot: nothing hides a special function's latency */
		const struct run fast = frame(imr, FS(3), 1, 1);
		const struct run slow = frame(imr, FS(3), 1, 64);
		assert_int_equal(slow.core_sfu, fast.core_sfu);
		assert_int_equal(slow.busy, fast.busy);
		assert_true(slow.stall_dep >= fast.stall_dep + 60 * slow.core_sfu);
		assert_true(slow.cycles > fast.cycles);
		/* one sample a quad instead of three: fewer instructions and
		 * fewer waits on memory */
		const struct run one = frame(imr, FS(1), 1, 1);
		assert_int_equal(one.fs_tex, one.quads);
		assert_true(one.cycles < fast.cycles);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sfu_and_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
