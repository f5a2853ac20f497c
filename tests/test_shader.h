/*
 * test_shader.h - helpers of the shader tests (140-149): compile and link a
 * pair of GLSL ES 1.00 sources, run a fragment program on quads.
 */
#ifndef TSR_TESTS_TEST_SHADER_H
#define TSR_TESTS_TEST_SHADER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shader/shader.h"

/* A vertex shader that declares the varyings v0 and v1 (vec4). */
#define TSR_TEST_VS \
	"attribute vec4 pos;\nvarying vec4 v0;\nvarying vec4 v1;\n" \
	"void main() { v0 = pos; v1 = pos * 2.0; gl_Position = pos; }\n"

/* Compiles one stage; fails the test (printing the log) unless it compiles. */
static inline struct tsr_shader *tsr_test_compile(enum tsr_shader_stage stage, const char *src)
{
	struct tsr_shader *s = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_shader_compile(stage, src, &s, &err), TSR_OK);
	if (!tsr_shader_compiled(s))
		fprintf(stderr, "compile failed:\n%s\n--- source:\n%s\n", tsr_shader_info_log(s), src);
	assert_true(tsr_shader_compiled(s));
	return s;
}

/* Compiles and links; fails the test unless the program links. */
static inline struct tsr_program *tsr_test_program(const char *vs_src, const char *fs_src)
{
	struct tsr_shader *vs = tsr_test_compile(TSR_SHADER_VERTEX, vs_src);
	struct tsr_shader *fs = tsr_test_compile(TSR_SHADER_FRAGMENT, fs_src);
	struct tsr_program *p = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_program_link(vs, fs, NULL, 0, &p, &err), TSR_OK);
	if (!tsr_program_linked(p))
		fprintf(stderr, "link failed:\n%s\n", tsr_program_info_log(p));
	assert_true(tsr_program_linked(p));
	tsr_shader_destroy(vs);
	tsr_shader_destroy(fs);
	return p;
}

/* Runs the fragment program on one quad whose lane k has v0 = in[k] (and
 * v1 = 2 in[k] when the program reads it). */
static inline void tsr_test_quad(struct tsr_shader_exec *x, const struct tsr_program *p,
				 const float in[4][4], struct tsr_fs_quad_out *out,
				 struct tsr_shader_counts *counts)
{
	struct tsr_fs_quad_in q;
	memset(&q, 0, sizeof(q));
	int s0 = tsr_program_varying_slot(p, "v0"), s1 = tsr_program_varying_slot(p, "v1");
	for (int l = 0; l < 4; l++) {
		for (int c = 0; c < 4; c++) {
			if (s0 >= 0)
				q.varyings[l][s0][c] = in[l][c];
			if (s1 >= 0)
				q.varyings[l][s1][c] = 2.0f * in[l][c];
		}
		q.frag_coord[l][0] = (float)(l & 1) + 0.5f;
		q.frag_coord[l][1] = (float)(l >> 1) + 0.5f;
		q.frag_coord[l][2] = 0.5f;
		q.frag_coord[l][3] = 1.0f;
	}
	q.front_facing = 1;
	tsr_shader_exec_quad(x, &q, out, counts);
}

#endif
