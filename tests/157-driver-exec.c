/*
 * 157-driver-exec.c - `tessera exec` (cli/cmd_exec.c, docs/driver.md): an
 * unmodified GL ES 2.0 program (es2gears of Debian's mesa-utils-bin) run
 * on the drop-in driver under a private Xvfb and ended after 2 frames;
 * the environment a program gets; its exit status passed on; a bad
 * configuration refused before the program starts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_cli.h"
#include "test_main.h"

#define ES2GEARS "/usr/bin/es2gears_x11.x86_64-linux-gnu"

static int setup(void **state)
{
	(void)state;
	/* exec starts its own X server only without one */
	unsetenv("DISPLAY");
	return tsr_cli_tmp_setup("tsr-157");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_cli_tmp_teardown();
}

/* es2gears (X11 window, eglGetDisplay of its Display*, a window surface)
 * for 2 frames: the driver ends it after the second eglSwapBuffers, exit
 * status 0. What the renderer says of its draws goes to stderr, once per
 * message, and does not stop the program. */
static void test_es2gears_two_frames(void **state)
{
	(void)state;
#ifdef TSR_SANITIZED
	skip();  /* a program without the sanitizer runtime cannot load the driver */
#endif
	if (access(ES2GEARS, X_OK) != 0 || system("command -v xvfb-run >/dev/null") != 0) {
		fprintf(stderr, "skipped: needs %s (mesa-utils-bin) and xvfb-run (xvfb)\n",
			ES2GEARS);
		skip();
	}
	assert_int_equal(tessera("exec --frames 2 --out run -- " ES2GEARS), 0);
	const char *err = slurp("err.txt");
	assert_non_null(strstr(err, "tessera: the program was ended after 2 frames "
				    "(TESSERA_FRAMES)\n"));
	/* every line of stderr is the driver's ("tessera: ..."), each once */
	for (const char *l = err; *l; l = strchr(l, '\n') + 1) {
		assert_memory_equal(l, "tessera: ", 9);
		const char *e = strchr(l, '\n');
		assert_non_null(e);
		char line[1024];
		snprintf(line, sizeof(line), "%.*s", (int)(e - l + 1), l);
		assert_ptr_equal(strstr(err, line), l);
	}
	assert_true(tsr_cli_exists("run"));  /* TESSERA_OUT: the device's folder */
}

/* The program's environment: the driver first on LD_LIBRARY_PATH, the
 * configuration in TESSERA_*, nothing left from tessera's own
 * environment; the program's exit status is exec's. */
static void test_environment_and_status(void **state)
{
	(void)state;
	setenv("TESSERA_CONFIG", "/nonexistent.json", 1);  /* exec's options replace it */
	int rc = tessera("exec --headless --frames 3 --set tiling.order=hilbert "
			 "--set caches.l2.size_bytes=2M --out o -- sh -c "
			 "'printf \"%%s|%%s|%%s|%%s|%%s\" \"$TESSERA_SET\" \"$TESSERA_FRAMES\" "
			 "\"$TESSERA_OUT\" \"${TESSERA_CONFIG-unset}\" \"$LD_LIBRARY_PATH\" "
			 "> env.txt; exit 7'");
	unsetenv("TESSERA_CONFIG");
	assert_int_equal(rc, 7);
	char want[1024];
	snprintf(want, sizeof(want), "tiling.order=hilbert\ncaches.l2.size_bytes=2M|3|%s/o|unset|",
		 tmpdir);
	const char *env = slurp("env.txt");
	assert_memory_equal(env, want, strlen(want));
	const char *ld = env + strlen(want);
	assert_non_null(strstr(ld, "/driver"));
	char lib[1024];
	snprintf(lib, sizeof(lib), "%.*s/libEGL.so.1", (int)strcspn(ld, ":"), ld);
	assert_int_equal(access(lib, R_OK), 0);
	/* a shipped configuration by name, made absolute */
	assert_int_equal(tessera("exec --headless --config tcor-table1 -- sh -c "
				 "'printf %%s \"$TESSERA_CONFIG\" > cfg.txt'"), 0);
	assert_non_null(strstr(slurp("cfg.txt"), "/configs/tcor-table1.json"));
	assert_int_equal(slurp("cfg.txt")[0], '/');
}

/* A bad value: one line naming the key, before the program starts. */
static void test_bad_configuration(void **state)
{
	(void)state;
	int rc = tessera("exec --headless --set caches.l2.sise_bytes=2M -- touch ran");
	assert_int_equal(rc, 2);  /* a configuration error, as in every command */
	const char *err = slurp("err.txt");
	assert_memory_equal(err, "tessera: ", 9);
	assert_non_null(strstr(err, "sise_bytes"));
	assert_string_equal(strchr(err, '\n'), "\n");
	assert_false(tsr_cli_exists("ran"));
	assert_int_equal(tessera("exec --headless --set tiling.order=spiral -- touch ran"), 2);
	assert_non_null(strstr(slurp("err.txt"), "tiling.order"));
	assert_int_equal(tessera("exec --headless --set 'tiling.order=hilbert;x=1' -- touch ran"),
			 2);
	assert_int_equal(tessera("exec --headless --frames 0 -- touch ran"), 2);
	assert_int_equal(tessera("exec --headless --config nonexistent-gpu -- touch ran"), 1);
	assert_false(tsr_cli_exists("ran"));
	assert_int_equal(tessera("exec --headless -- no-such-program-tsr157"), 1);
	assert_non_null(strstr(slurp("err.txt"), "cannot run 'no-such-program-tsr157'"));
	assert_int_equal(tessera("exec --headless"), 2);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_es2gears_two_frames),
		cmocka_unit_test(test_environment_and_status),
		cmocka_unit_test(test_bad_configuration),
	};
	return tsr_test_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]), setup, teardown);
}
