/*
 * 089-cli-corpus.c - `tessera capture --corpus` (cli/cmd_corpus.c): the
 * shipped captures/corpus.json parses and lists its entries; a corpus
 * file with an unknown key, a missing or ill-typed one, an input script
 * with an unknown verb or bad arguments (mousemove, click, frame steps
 * not ascending or without the virtual clock), a bad vclock or a duplicate
 * name is refused with a message naming the entry and the key; and,
 * where xvfb-run, apitrace and glmark2-es2 are installed, a tiny entry
 * (glmark2's build scene, 2 frames at 160x120) is recorded into a
 * temporary data folder with llvmpipe's images, then skipped by a second
 * call; the same entry driven by an input script through xdotool (when
 * installed: a key, a pointer move and a click) records too.
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

static int setup(void **state)
{
	(void)state;
	return tsr_cli_tmp_setup("tsr-089");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_cli_tmp_teardown();
}

static int have(const char *prog)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
	return system(cmd) == 0;
}

static void test_shipped_corpus(void **state)
{
	(void)state;
	assert_int_equal(tessera("capture --corpus --list --data data --corpus-file "
				 "'%s/captures/corpus.json'", TSR_SOURCE_DIR), 0);
	const char *out = slurp("out.txt");
	assert_non_null(strstr(out, "glmark2 "));
	assert_non_null(strstr(out, "blockattack "));
	assert_non_null(strstr(out, "supertux "));
	/* every game keeps at least 300 frames of its session */
	assert_non_null(strstr(out, "frames 30-599"));
	assert_non_null(strstr(out, "frames 100-499"));
	/* the shipped file is found without --corpus-file; one entry listed */
	assert_int_equal(tessera("capture --corpus supertux --list --data data"), 0);
	assert_non_null(strstr(slurp("out.txt"), "supertux"));
	assert_null(strstr(slurp("out.txt"), "glmark2"));
	assert_int_equal(tessera("capture --corpus no-such-entry --list --data data"), 2);
	assert_non_null(strstr(slurp("err.txt"), "no entry 'no-such-entry'"));
}

/* Writes c.json holding one entry whose keys are `keys` (JSON members
 * without braces) and runs `capture --corpus --list` on it: the exit code. */
static int corpus_with(const char *keys)
{
	char json[2048];
	snprintf(json, sizeof(json), "{\"entries\": [{%s}]}", keys);
	write_file("c.json", json);
	return tessera("capture --corpus --list --corpus-file c.json --data data");
}

#define GOOD "\"name\": \"t\", \"program\": \"glmark2-es2\", \"screen\": \"64x64\", "

static void expect_error(const char *keys, const char *message)
{
	assert_int_equal(corpus_with(keys), 2);
	const char *err = slurp("err.txt");
	if (!strstr(err, message))
		fail_msg("error '%s' lacks '%s'", err, message);
}

static void test_corpus_errors(void **state)
{
	(void)state;
	assert_int_equal(corpus_with(GOOD "\"drive\": \"none\""), 0);
	assert_non_null(strstr(slurp("out.txt"), "t                64x64     none"));
	expect_error(GOOD "\"drive\": \"none\", \"colour\": 1", "entry 1 ('t'): unknown key 'colour'");
	expect_error("\"name\": \"t\", \"screen\": \"64x64\", \"drive\": \"none\"",
		     "entry 1 ('t'): key 'program' (a string) is missing");
	expect_error(GOOD "\"drive\": \"sometimes\"", "key 'drive' must be");
	expect_error(GOOD "\"drive\": \"input\", \"seconds\": 1",
		     "key 'input' is missing (\"drive\": \"input\" needs it)");
	expect_error(GOOD "\"drive\": \"none\", \"input\": []", "key 'input' is only for");
	expect_error(GOOD "\"drive\": \"input\", \"seconds\": 1, \"input\": [[\"jump\"]]",
		     "key 'input': input step 1: unknown verb 'jump'");
	expect_error(GOOD "\"drive\": \"input\", \"seconds\": 1, \"input\": [[\"sleep\", -1]]",
		     "input step 1: \"sleep\" takes one number");
	expect_error(GOOD "\"drive\": \"input\", \"input\": [[\"key\", \"a\"]]",
		     "key 'seconds' is missing");
	/* the pointer: whole pixels, a button number */
	assert_int_equal(corpus_with(GOOD "\"drive\": \"input\", \"seconds\": 1, \"input\": "
				     "[[\"mousemove\", 0, 32767], [\"click\", 3]]"), 0);
	expect_error(GOOD "\"drive\": \"input\", \"seconds\": 1, \"input\": [[\"mousemove\", 1.5, 2]]",
		     "input step 1: \"mousemove\" takes two whole numbers");
	expect_error(GOOD "\"drive\": \"input\", \"seconds\": 1, \"input\": [[\"mousemove\", 10]]",
		     "input step 1: \"mousemove\" takes two whole numbers");
	expect_error(GOOD "\"drive\": \"input\", \"seconds\": 1, \"input\": "
			  "[[\"sleep\", 1], [\"mousemove\", -1, 2]]",
		     "input step 2: \"mousemove\" takes two whole numbers");
	expect_error(GOOD "\"drive\": \"input\", \"seconds\": 1, \"input\": [[\"click\", 0]]",
		     "input step 1: \"click\" takes one button number");
	expect_error(GOOD "\"drive\": \"input\", \"seconds\": 1, \"input\": [[\"click\", \"1\"]]",
		     "input step 1: \"click\" takes one button number");
	/* frame steps: ascending, under the virtual clock */
	assert_int_equal(corpus_with(GOOD "\"drive\": \"input\", \"seconds\": 1, \"vclock\": 30, "
				     "\"input\": [[\"frame\", 1], [\"key\", \"a\"], [\"frame\", 9]]"), 0);
	expect_error(GOOD "\"drive\": \"input\", \"seconds\": 1, \"input\": [[\"frame\", 3]]",
		     "key 'input' has \"frame\" steps, which need key 'vclock'");
	expect_error(GOOD "\"drive\": \"input\", \"seconds\": 1, \"vclock\": 30, \"input\": "
			  "[[\"frame\", 3], [\"frame\", 3]]",
		     "input step 2: \"frame\" takes one frame count, above the last step's");
	expect_error(GOOD "\"drive\": \"input\", \"seconds\": 1, \"vclock\": 30, \"input\": "
			  "[[\"frame\", 0]]", "input step 1: \"frame\" takes one frame count");
	expect_error(GOOD "\"drive\": \"none\", \"vclock\": 0",
		     "key 'vclock' must be frames per second");
	expect_error(GOOD "\"drive\": \"none\", \"frames\": [5, 2]", "key 'frames' must be");
	expect_error(GOOD "\"drive\": \"none\", \"packages\": [\"Not A Package\"]",
		     "'Not A Package' is not a Debian package name");
	expect_error(GOOD "\"drive\": \"none\", \"env\": {\"A\": 1}", "key 'env': 'A' must be");
	expect_error("\"name\": \"t\", \"program\": \"x\", \"screen\": \"64\", \"drive\": \"none\"",
		     "key 'screen' must be");
	expect_error("\"name\": \"Bad Name\", \"program\": \"x\", \"screen\": \"64x64\", "
		     "\"drive\": \"none\"", "key 'name' must be");
	write_file("c.json", "{\"entries\": [{" GOOD "\"drive\": \"none\"}, {" GOOD
			     "\"drive\": \"none\"}]}");
	assert_int_equal(tessera("capture --corpus --list --corpus-file c.json"), 2);
	assert_non_null(strstr(slurp("err.txt"), "entry 2: name 't' is also entry 1's"));
	write_file("c.json", "{\"entries\": [], \"extra\": 1}");
	assert_int_equal(tessera("capture --corpus --list --corpus-file c.json"), 2);
	assert_non_null(strstr(slurp("err.txt"), "unknown key 'extra'"));
	write_file("c.json", "{\"entries\": [");
	assert_int_equal(tessera("capture --corpus --list --corpus-file c.json"), 2);
	assert_non_null(strstr(slurp("err.txt"), "c.json:1:"));
	/* capture --input checks its script before anything runs */
	write_file("in.json", "[[\"press\", \"a\"]]");
	assert_int_equal(tessera("capture --out x.trace --input in.json -- glmark2-es2"), 2);
	assert_non_null(strstr(slurp("err.txt"), "unknown verb 'press'"));
	assert_false(tsr_cli_exists("x.trace"));
}

static void test_corpus_record(void **state)
{
	(void)state;
	if (!have("xvfb-run") || !have("apitrace") || !have("eglretrace") || !have("glmark2-es2"))
		skip();
	const int xdotool = have("xdotool");
	char json[2048];
	snprintf(json, sizeof(json),
		 "{\"entries\": ["
		 "{\"name\": \"build\", \"packages\": [\"glmark2-es2-x11\"], "
		 "\"program\": \"glmark2-es2\", \"args\": [\"-b\", \"build:nframes=3\", \"--size\", "
		 "\"160x120\"], \"env\": {\"TSR_101\": \"{tmp}/x\"}, \"screen\": \"160x120\", "
		 "\"frames\": [1, 1], \"drive\": \"arguments\"}%s]}",
		 xdotool ? ", {\"name\": \"driven\", \"program\": \"glmark2-es2\", \"args\": [\"-b\", "
			   "\"build:nframes=2\", \"--size\", \"160x120\"], \"screen\": \"160x120\", "
			   "\"drive\": \"input\", \"input\": [[\"sleep\", 0.2], [\"key\", \"a\"], "
			   "[\"mousemove\", 80, 60], [\"click\", 1]], "
			   "\"seconds\": 30}"
			 : "");
	write_file("c.json", json);
	assert_int_equal(tessera("capture --corpus --corpus-file c.json --data data"), 0);
	const char *out = slurp("out.txt");
	assert_non_null(strstr(out, "corpus: build: 2 frames in"));
	assert_non_null(strstr(out, xdotool ? "corpus: 2 recorded, 0 present, 0 failed"
					    : "corpus: 1 recorded, 0 present, 0 failed"));
	assert_true(tsr_cli_exists("data/build.trace"));
	assert_true(tsr_cli_exists("data/build/frame-0000.png"));
	assert_true(tsr_cli_exists("data/build/frame-0001.png"));
	assert_false(tsr_cli_exists("data/build/frame-0002.png"));
	if (xdotool) {
		assert_true(tsr_cli_exists("data/driven.trace"));
		assert_true(tsr_cli_exists("data/driven/frame-0001.png"));
	}
	/* the second call records nothing */
	assert_int_equal(tessera("capture --corpus build --corpus-file c.json --data data"), 0);
	out = slurp("out.txt");
	assert_non_null(strstr(out, "corpus: build: present, skipped"));
	assert_non_null(strstr(out, "corpus: 0 recorded, 1 present, 0 failed"));
	assert_int_equal(tessera("capture --corpus --list --corpus-file c.json --data data"), 0);
	assert_non_null(strstr(slurp("out.txt"), "(present)"));
	/* an entry that keeps more frames than the program drew is removed */
	write_file("c2.json", "{\"entries\": [{\"name\": \"short\", \"program\": \"glmark2-es2\", "
			      "\"args\": [\"-b\", \"build:nframes=2\", \"--size\", \"64x64\"], "
			      "\"screen\": \"64x64\", \"frames\": [0, 9], \"drive\": \"arguments\"}]}");
	assert_int_equal(tessera("capture --corpus --corpus-file c2.json --data data"), 1);
	assert_non_null(strstr(slurp("err.txt"), "the program drew 2 frames, the entry keeps "
				 "frames up to 9"));
	assert_false(tsr_cli_exists("data/short.trace"));
	assert_false(tsr_cli_exists("data/short"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_corpus),
		cmocka_unit_test(test_corpus_errors),
		cmocka_unit_test(test_corpus_record),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
