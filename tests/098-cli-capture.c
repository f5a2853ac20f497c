/*
 * 098-cli-capture.c - `tessera capture` (cli/cmd_capture.c): a real GL ES
 * 2.0 program (glmark2-es2's build scene, Debian's glmark2-es2-x11)
 * recorded with apitrace under a private Xvfb on llvmpipe, trimmed to its
 * first frames, with llvmpipe's images of them; and what fails: a program
 * that never swaps (glmark2 --off-screen), a missing program, a reference
 * folder that is not empty. A failed capture leaves no file behind.
 */
#include <dirent.h>
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

static int setup(void **state)
{
	(void)state;
	return tsr_cli_tmp_setup("tsr-098");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_cli_tmp_teardown();
}

/* The entries of folder tmpdir but out.txt and err.txt (the files of
 * every run): what the failures must not add to. */
static int entries(void)
{
	DIR *d = opendir(tmpdir);
	assert_non_null(d);
	int n = 0;
	for (const struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		     strcmp(e->d_name, "out.txt") && strcmp(e->d_name, "err.txt");
	closedir(d);
	return n;
}

/* glmark2's build scene, 4 frames run, the first 2 kept, with llvmpipe's
 * two images; the images compare identical to themselves. */
static void test_capture_glmark2(void **state)
{
	(void)state;
	assert_int_equal(tessera("capture --out build.trace --frames 2 --reference ref --quiet "
				 "-- glmark2-es2 -b build:nframes=4 --size 160x120"), 0);
	assert_non_null(strstr(slurp("out.txt"),
			       "capture: build.trace: 2 frames, llvmpipe's images in "
			       "ref/frame-0000.png .. frame-0001.png"));
	assert_true(tsr_cli_exists("build.trace"));
	assert_true(tsr_cli_exists("ref/frame-0000.png"));
	assert_true(tsr_cli_exists("ref/frame-0001.png"));
	assert_false(tsr_cli_exists("ref/frame-0002.png"));
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "apitrace info '%s/build.trace' | grep -q '\"FramesCount\": 2,'",
		 tmpdir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(tessera("compare ref ref --min-psnr 99"), 0);
	/* the build scene's frames are not blank: some pixel differs from the first */
	assert_int_equal(tessera("compare ref/frame-0000.png ref/frame-0001.png"), 0);
}

static void test_capture_failures(void **state)
{
	(void)state;
	const int before = entries();
	assert_int_equal(tessera("capture --out off.trace --quiet -- glmark2-es2 -b "
				 "build:nframes=1 --off-screen --size 64x64"), 1);
	assert_non_null(strstr(slurp("err.txt"), "holds no frames: the program never called "
				 "eglSwapBuffers"));
	assert_int_equal(tessera("capture --out x.trace -- no-such-program-tsr"), 1);
	assert_non_null(strstr(slurp("err.txt"), "cannot run 'no-such-program-tsr'"));
	assert_int_equal(tessera("capture --out x.trace"), 2);
	assert_int_equal(tessera("capture -- glmark2-es2"), 2);
	assert_int_equal(tessera("capture --out x.trace --frames 0 -- glmark2-es2"), 2);
	assert_int_equal(entries(), before);
	assert_false(tsr_cli_exists("off.trace"));
	assert_false(tsr_cli_exists("x.trace"));
	write_file("full.txt", "x");
	assert_int_equal(tessera("capture --out y.trace --reference full.txt -- glmark2-es2"), 2);
	assert_non_null(strstr(slurp("err.txt"), "is not an empty folder"));
}

#define ES2GEARS "/usr/bin/es2gears_x11.x86_64-linux-gnu"

/* Frames k of folders a and b: identical files (1) or not (0). */
static int same_frame(const char *a, const char *b, int k)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "cmp -s '%s/%s/frame-%04d.png' '%s/%s/frame-%04d.png'", tmpdir,
		 a, k, tmpdir, b, k);
	return system(cmd) == 0;
}

/*
 * The virtual clock (driver/vclock.c): es2gears turns its gears by the
 * clock, so two recordings differ; under --vclock they are the same, and
 * an input script's "frame" steps reach it at the same frame every time:
 * a held Left key from frame 3 to 6 turns the view in frames 3 on, and
 * frames 0-2 are those of a recording without input. The clock stops
 * es2gears after its 8th frame (--frames 8; --seconds 3 is only a bound).
 */
static void test_capture_vclock(void **state)
{
	(void)state;
	if (access(ES2GEARS, X_OK) != 0 || system("command -v xdotool >/dev/null") != 0) {
		fprintf(stderr, "skipped: needs %s (mesa-utils-bin) and xdotool\n", ES2GEARS);
		skip();
	}
	write_file("turn.json", "[[\"frame\", 3], [\"keydown\", \"Left\"], [\"frame\", 6], "
		   "[\"keyup\", \"Left\"]]");
	static const char *const cmds[] = {
		"capture --out a.trace --frames 8 --seconds 3 --screen 200x200 --vclock 60 "
		"--input turn.json --reference a --quiet -- " ES2GEARS,
		"capture --out b.trace --frames 8 --seconds 3 --screen 200x200 --vclock 60 "
		"--input turn.json --reference b --quiet -- " ES2GEARS,
		"capture --out c.trace --frames 8 --seconds 3 --screen 200x200 --vclock 60 "
		"--reference c --quiet -- " ES2GEARS,
	};
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		assert_int_equal(tessera(cmds[i]), 0);
	for (int k = 0; k < 8; k++) {
		assert_true(same_frame("a", "b", k));
		assert_int_equal(same_frame("a", "c", k), k < 3);
	}
	/* the gears turn: frames 1 and 2 differ */
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "cmp -s '%s/c/frame-0001.png' '%s/c/frame-0002.png'", tmpdir,
		 tmpdir);
	assert_int_not_equal(system(cmd), 0);
	/* "frame" steps need the virtual clock; a bad clock rate is refused */
	assert_int_equal(tessera("capture --out d.trace --input turn.json -- " ES2GEARS), 2);
	assert_non_null(strstr(slurp("err.txt"), "\"frame\" steps need --vclock"));
	assert_int_equal(tessera("capture --out d.trace --vclock 0 -- " ES2GEARS), 2);
	assert_non_null(strstr(slurp("err.txt"), "invalid --vclock '0'"));
	assert_false(tsr_cli_exists("d.trace"));
}

/*
 * The virtual clock's SDL timers: tests/helpers/sdl-timer adds a 40 ms
 * timer, waits 10 ms for nothing, then for 5 of the timer's events; under
 * the clock its SDL_GetTicks() are exact and the same every time (on the
 * real clock they would be about those, 200 ms later).
 */
static void test_vclock_sdl_timers(void **state)
{
	(void)state;
#ifdef TSR_SANITIZED
	fprintf(stderr, "skipped: a sanitized program's runtime must come first, before "
		"the preloaded clock\n");
	skip();
#endif
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "cd '%s' && LD_PRELOAD='" TSR_VCLOCK_LIB "' '" TSR_SDL_TIMER
		 "' > ticks.txt", tmpdir);
	int st = system(cmd);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77) {
		fprintf(stderr, "skipped: needs SDL2 (libsdl2-2.0-0)\n");
		skip();
	}
	assert_int_equal(st, 0);
	assert_string_equal(slurp("ticks.txt"), "10 40 80 120 160 200\n");
	assert_int_equal(system(cmd), 0);
	assert_string_equal(slurp("ticks.txt"), "10 40 80 120 160 200\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_glmark2),
		cmocka_unit_test(test_capture_failures),
		cmocka_unit_test(test_capture_vclock),
		cmocka_unit_test(test_vclock_sdl_timers),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
