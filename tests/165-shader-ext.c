/*
 * 165-shader-ext.c - GLSL ES 1.00 link rules the piglit GLES2 linker
 * tests check (invariance, GLSL ES 1.00 4.6.4; uniform precision, 4.5.3)
 * and the fragment-shader extensions of the driver.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_main.h"
#include "test_shader.h"

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

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invariance),
		cmocka_unit_test(test_uniform_precision),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
