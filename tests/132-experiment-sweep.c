/*
 * 132-experiment-sweep.c - the experiments over sweeps (issue 17, point
 * 3): every shipped experiments/NAME.json loads, expands to the points the
 * in-process experiment runs (count, frames) and hashes its first point as
 * the experiment looks it up; tcor (timing model on: energy through
 * tsr_stats_file_energy()), re (each workload's own frame count) and
 * workloads (the texture footprint counter) read from a sweep the CLI ran
 * give every table and the report byte for byte as the in-process run, and
 * so do boustrophedonic and gspc, whose points also record the L2 or LLC
 * trace they replay; a missing point names the workload, the configuration,
 * the hash and the folder; the CLI's --from, and its refusals (a folder
 * that is no sweep's, --sweep with --frames). Tiny points: tests/data's
 * sprites-tiny.json (3 frames, three small textured quads; and
 * two-quads.json where two workloads are compared) at 128x96.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <jansson.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/datadir.h"
#include "experiment/experiment.h"
#include "experiment/table.h"
#include "sweep/sweep.h"
#include "test_cli.h"
#include "test_main.h"


static int setup(void **state)
{
	(void)state;
	return tsr_cli_tmp_setup("tessera-xpsweep");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_cli_tmp_teardown();
}

/* The shipped workloads with one pass (re's default list): their files'
 * "passes" arrays (the scenes' pass counts, without loading their assets). */
static size_t single_pass_workloads(size_t *all)
{
	char **list = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_data_list("workloads", ".json", &list, all, &err), TSR_OK);
	size_t n = 0;
	for (size_t i = 0; i < *all; i++) {
		char path[4096];
		assert_int_equal(tsr_data_path(list[i], path, sizeof(path), &err), TSR_OK);
		json_error_t je;
		json_t *w = json_load_file(path, 0, &je);
		assert_non_null(w);
		const json_t *passes = json_object_get(w, "passes");
		assert_true(json_is_array(passes) && json_array_size(passes) >= 1);
		n += json_array_size(passes) == 1;
		json_decref(w);
	}
	tsr_data_list_free(list);
	return n;
}

/* The hash in "(hash XXXXXXXXXXXXXXXX," of a missing-point message, or 0. */
static uint64_t missing_hash(const char *msg)
{
	const char *p = strstr(msg, "(hash ");
	return p ? strtoull(p + 6, NULL, 16) : 0;
}

/*
 * Every experiment with a spec has experiments/NAME.json and no other:
 * it loads, its point count and frames are the in-process experiment's,
 * and the first point the experiment looks up (the error of an empty
 * sweep folder names its hash) is a point of the spec.
 */
static void test_shipped_specs(void **state)
{
	(void)state;
	size_t all = 0;
	const size_t single = single_pass_workloads(&all);
	const struct {
		const char *name;
		size_t points;
		uint32_t frames;
	} want[] = {
		{"tcor", 10 * 6, 4},
		{"attribute-cache", 4 * 8 * 4 * 4, 4},
		{"re", single * 4, 0},
		{"timing", all, 4},
		{"dtexl", all * 21, 2},
		{"workloads", all, 3},
		{"boustrophedonic", all * 5, 30},
		{"gspc", 6 * 15, 2},
	};
	size_t with_spec = 0;
	for (size_t i = 0; i < tsr_experiment_count(); i++) {
		const struct tsr_experiment *x = tsr_experiment_at(i);
		char path[512];
		snprintf(path, sizeof(path), "%s/experiments/%s.json", TSR_SOURCE_DIR,
			 tsr_experiment_name(x));
		assert_int_equal(access(path, F_OK) == 0, tsr_experiment_has_spec(x));
		with_spec += (size_t)tsr_experiment_has_spec(x);
	}
	assert_int_equal(with_spec, sizeof(want) / sizeof(want[0]));
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		char path[512];
		struct tsr_error err = {{0}};
		struct tsr_sweep *sw = NULL;
		snprintf(path, sizeof(path), "%s/experiments/%s.json", TSR_SOURCE_DIR, want[k].name);
		assert_int_equal(tsr_sweep_load(path, &sw, &err), TSR_OK);
		assert_string_equal(tsr_sweep_name(sw), want[k].name);
		assert_int_equal(tsr_sweep_point_count(sw), want[k].points);
		assert_int_equal(tsr_sweep_point(sw, 0)->frames, want[k].frames);
		/* the experiment's first lookup, in an empty sweep folder */
		char empty[300];
		snprintf(empty, sizeof(empty), "%s/empty", tmpdir);
		snprintf(path, sizeof(path), "%s/points", empty);
		assert_int_equal(tsr_sweep_mkdirs(path, &err), TSR_OK);
		const struct tsr_xp_options o = {.sweep_dir = empty, .jobs = 1};
		struct tsr_xp_result r;
		assert_int_equal(tsr_experiment_run(tsr_experiment_find(want[k].name), &o, &r, &err),
				 TSR_ERR_IO);
		tsr_xp_result_release(&r);
		const uint64_t h = missing_hash(err.msg);
		int found = 0;
		for (size_t i = 0; i < tsr_sweep_point_count(sw); i++)
			found |= tsr_sweep_point(sw, i)->hash == h;
		assert_true(found);
		tsr_sweep_destroy(sw);
	}
}

/* Every table as CSV and the report, concatenated. */
static void result_text(const struct tsr_xp_result *r, struct tsr_text *all)
{
	for (uint32_t i = 0; i < r->table_count; i++) {
		tsr_text_printf(all, "== %s\n", r->tables[i].name);
		tsr_table_csv(&r->tables[i], all);
	}
	tsr_text_printf(all, "== report\n%.*s", (int)r->text.len, r->text.buf ? r->text.buf : "");
}

/* Experiment `name` in-process and from sweep folder `from`: the same bytes. */
static void compare(const char *name, const char *from, const char *const *workloads,
		    size_t nw, uint32_t frames, const char *const *sets, size_t nsets)
{
	struct tsr_xp_options o = {.workloads = workloads, .workload_count = nw,
				   .frames = frames, .sets = sets, .set_count = nsets, .jobs = 2};
	struct tsr_xp_result a, b;
	struct tsr_error err = {{0}};
	const struct tsr_experiment *x = tsr_experiment_find(name);
	assert_int_equal(tsr_experiment_run(x, &o, &a, &err), TSR_OK);
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/%s", tmpdir, from);
	o.sweep_dir = dir;
	enum tsr_status s = tsr_experiment_run(x, &o, &b, &err);
	if (s != TSR_OK)
		fprintf(stderr, "%s\n", err.msg);
	assert_int_equal(s, TSR_OK);
	struct tsr_text ta = {0}, tb = {0};
	result_text(&a, &ta);
	result_text(&b, &tb);
	assert_int_equal(ta.len, tb.len);
	assert_memory_equal(ta.buf, tb.buf, ta.len);
	assert_true(a.table_count >= 2);
	tsr_text_release(&ta);
	tsr_text_release(&tb);
	tsr_xp_result_release(&a);
	tsr_xp_result_release(&b);
}

static const char *const tiny_sets[] = {"screen.width=128", "screen.height=96",
					"timing.enabled=true"};
/* the tiny workloads (a sweep's workloads and the in-process experiment's
 * are these paths) */
#define TINY TSR_SOURCE_DIR "/tests/data/sprites-tiny.json"
#define QUADS TSR_SOURCE_DIR "/tests/data/two-quads.json"
static const char *const sprites[] = {TINY};

/* tcor's six configurations with the timing model, as a sweep: identical tables. */
static void test_tcor(void **state)
{
	(void)state;
	write_file("tcor.json",
		   "{\"name\": \"tcor-tiny\", \"workloads\": [\"" TINY "\"],\n"
		   " \"configs\": [\"tcor-table1\", \"tcor-l2-only\", \"tcor-64k-no-l2\", "
		   "\"tcor-64k\", \"tcor-table1-128k\", \"tcor-128k\"],\n"
		   " \"set\": {\"screen.width\": 128, \"screen.height\": 96, "
		   "\"timing.enabled\": true}, \"frames\": 2, \"out\": \"tcor-sweep\"}\n");
	assert_int_equal(tessera("sweep tcor.json -j 2 --quiet"), 0);
	compare("tcor", "tcor-sweep", sprites, 1, 2, tiny_sets, 3);
	/* the CLI: --from writes the same CSV as the in-process run */
	const char *args = "experiment tcor --workload " TINY " --frames 2 --set "
			   "screen.width=128 --set screen.height=96 --set timing.enabled=true -j 2";
	assert_int_equal(tessera("%s --csv a.csv", args), 0);
	assert_int_equal(tessera("%s --from tcor-sweep --csv b.csv", args), 0);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "cmp -s '%s/a.csv' '%s/b.csv'", tmpdir, tmpdir);
	assert_int_equal(system(cmd), 0);
	/* a point the sweep did not run (3 frames): the clear error */
	assert_int_equal(tessera("experiment tcor --workload " TINY " --frames 3 --set "
				 "screen.width=128 --set screen.height=96 --from tcor-sweep"), 1);
	const char *e = slurp("err.txt");
	assert_non_null(strstr(e, "no point for workload 'sprites-tiny', config 'tcor-table1', "
				  "3 frames (hash "));
	assert_non_null(strstr(e, "tcor-sweep/points/"));
	assert_non_null(strstr(e, "tessera sweep experiments/tcor.json"));
}

/* re's four elimination modes as a sweep's points, each workload's own frames. */
static void test_re(void **state)
{
	(void)state;
	write_file("re.json",
		   "{\"name\": \"re-tiny\", \"workloads\": [\"" TINY "\"], \"configs\": "
		   "[\"re-table1\"],\n"
		   " \"set\": {\"screen.width\": 128, \"screen.height\": 96, "
		   "\"timing.enabled\": true},\n"
		   " \"points\": [\n"
		   "  {\"elimination.rendering\": false, \"elimination.transactions\": false, "
		   "\"elimination.verify\": false, \"elimination.refresh_frames\": 0},\n"
		   "  {\"elimination.rendering\": false, \"elimination.transactions\": true, "
		   "\"elimination.verify\": false, \"elimination.refresh_frames\": 0},\n"
		   "  {\"elimination.rendering\": true, \"elimination.transactions\": false, "
		   "\"elimination.verify\": true, \"elimination.refresh_frames\": 0},\n"
		   "  {\"elimination.rendering\": true, \"elimination.transactions\": true, "
		   "\"elimination.verify\": true, \"elimination.refresh_frames\": 0}],\n"
		   " \"out\": \"re-sweep\"}\n");
	assert_int_equal(tessera("sweep re.json -j 2 --quiet"), 0);
	compare("re", "re-sweep", sprites, 1, 0, tiny_sets, 3);
}

/*
 * dtexl's shipped spec (21 points, the upper bound's with its own config)
 * narrowed to two small workloads: every point the experiment looks up is
 * one of the spec's, and the tables come out identical (the imbalance
 * distributions read back exact).
 */
static void test_dtexl(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof(path), "%s/experiments/dtexl.json", TSR_SOURCE_DIR);
	json_error_t je;
	json_t *spec = json_load_file(path, 0, &je);
	assert_non_null(spec);
	json_object_set_new(spec, "workloads", json_pack("[ss]", TINY, QUADS));
	json_t *set = json_object_get(spec, "set");
	json_object_set_new(set, "screen.width", json_integer(128));
	json_object_set_new(set, "screen.height", json_integer(96));
	json_object_set_new(spec, "out", json_string("dtexl-sweep"));
	char *text = json_dumps(spec, JSON_INDENT(1));
	json_decref(spec);
	assert_non_null(text);
	write_file("dtexl.json", text);
	free(text);
	assert_int_equal(tessera("sweep dtexl.json -j 2 --quiet"), 0);
	static const char *const two[] = {TINY, QUADS};
	compare("dtexl", "dtexl-sweep", two, 2, 0, tiny_sets, 2);
}

/*
 * workloads' shipped spec (stats.texture_footprint: the texture footprint
 * a point's stats.json holds) narrowed to two small workloads: identical
 * tables, the footprint column included.
 */
static void test_workloads(void **state)
{
	(void)state;
	write_file("workloads.json",
		   "{\"name\": \"workloads-tiny\", \"workloads\": [\"" TINY "\", \"" QUADS "\"],\n"
		   " \"configs\": [\"tcor-table1\"],\n"
		   " \"set\": {\"screen.width\": 128, \"screen.height\": 96, "
		   "\"stats.texture_footprint\": true}, \"frames\": 3, "
		   "\"out\": \"workloads-sweep\"}\n");
	assert_int_equal(tessera("sweep workloads.json -j 2 --quiet"), 0);
	static const char *const two[] = {TINY, QUADS};
	compare("workloads", "workloads-sweep", two, 2, 0, tiny_sets, 2);
}

/*
 * A shipped spec narrowed to `workloads` (a JSON array), `frames` and the
 * settings `set` (a JSON object), written as tmpdir/NAME.json with its
 * output folder NAME-sweep, then run by the CLI.
 */
static void narrowed_sweep(const char *name, json_t *workloads, int frames, json_t *set)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/experiments/%s.json", TSR_SOURCE_DIR, name);
	json_error_t je;
	json_t *spec = json_load_file(path, 0, &je);
	assert_non_null(spec);
	json_object_set_new(spec, "workloads", workloads);
	json_object_set_new(spec, "frames", json_integer(frames));
	json_object_set_new(spec, "set", set);
	snprintf(path, sizeof(path), "%s-sweep", name);
	json_object_set_new(spec, "out", json_string(path));
	char *text = json_dumps(spec, JSON_INDENT(1));
	json_decref(spec);
	assert_non_null(text);
	char file[64];
	snprintf(file, sizeof(file), "%s.json", name);
	write_file(file, text);
	free(text);
	assert_int_equal(tessera("sweep %s -j 2 --quiet", file), 0);
}

/*
 * boustrophedonic's shipped spec (5 points per workload; the two
 * texture-only ones record the L2) on two small workloads, 2 frames, a
 * 16 KiB L2 (so that the policies differ) and the timing model: the
 * tables from the sweep's traces are the in-process run's, byte for byte.
 */
static void test_boustrophedonic(void **state)
{
	(void)state;
	narrowed_sweep("boustrophedonic", json_pack("[ss]", TINY, "minimap-3d"), 2,
		       json_pack("{s:i,s:i,s:b,s:s}", "screen.width", 128, "screen.height", 96,
				 "timing.enabled", 1, "caches.l2.size_bytes", "16K"));
	static const char *const two[] = {TINY, "minimap-3d"};
	static const char *const sets[] = {"screen.width=128", "screen.height=96",
					   "timing.enabled=true", "caches.l2.size_bytes=16K"};
	compare("boustrophedonic", "boustrophedonic-sweep", two, 2, 2, sets, 4);
	/* without its traces the experiment says which trace and how to record it */
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm '%s'/boustrophedonic-sweep/points/*/trace-l2.bin", tmpdir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(tessera("experiment boustrophedonic --workload " TINY " --frames 2 "
				 "--set screen.width=128 --set screen.height=96 --set "
				 "timing.enabled=true --set caches.l2.size_bytes=16K --from "
				 "boustrophedonic-sweep"), 1);
	const char *e = slurp("err.txt");
	assert_non_null(strstr(e, "has no trace of cache 'l2'"));
	assert_non_null(strstr(e, "\"record_trace\": [\"l2\"]"));
}

/*
 * gspc's shipped spec (per workload the LLC recording and 14 timing runs)
 * on sprites-tiny, 1 frame, a 16 KiB LLC (so that the policies differ): the
 * tables from the sweep's LLC trace and timing points are the in-process
 * run's, byte for byte.
 */
static void test_gspc(void **state)
{
	(void)state;
	narrowed_sweep("gspc", json_pack("[s]", TINY), 1,
		       json_pack("{s:i,s:i,s:s}", "screen.width", 128, "screen.height", 96,
				 "caches.llc.size_bytes", "16K"));
	static const char *const sets[] = {"screen.width=128", "screen.height=96",
					   "caches.llc.size_bytes=16K"};
	compare("gspc", "gspc-sweep", sprites, 1, 1, sets, 3);
}

/* Library and CLI refusals. */
static void test_errors(void **state)
{
	(void)state;
	struct tsr_xp_result r;
	struct tsr_error err = {{0}};
	/* a folder that is no sweep's (every experiment has a spec: none to refuse) */
	char none[300];
	snprintf(none, sizeof(none), "%s/none", tmpdir);
	struct tsr_xp_options o = {.sweep_dir = none};
	assert_int_equal(tsr_experiment_run(tsr_experiment_find("tcor"), &o, &r, &err),
			 TSR_ERR_IO);
	assert_non_null(strstr(err.msg, "is not the output folder of a sweep"));
	tsr_xp_result_release(&r);
	/* a sweep's points are runs from frame 0: no range or list read from them */
	o.first_frame = 2;
	o.frames = 2;
	assert_int_equal(tsr_experiment_run(tsr_experiment_find("tcor"), &o, &r, &err),
			 TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "takes no range, list or session"));
	o.first_frame = o.frames = 0;
	o.frame_list = "1,3";
	assert_int_equal(tsr_experiment_run(tsr_experiment_find("tcor"), &o, &r, &err),
			 TSR_ERR_CONFIG);
	assert_int_equal(tessera("experiment tcor --sweep --frames 2"), 2);
	assert_non_null(strstr(slurp("err.txt"), "no --frames, --workload or --set"));
	assert_int_equal(tessera("experiment tcor --sweep --from ."), 2);
	assert_int_equal(tessera("experiment tcor --out x"), 2);
}

int main(int argc, char **argv)
{
	if (setenv("TSR_DATA_DIR", TSR_SOURCE_DIR, 1) != 0)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_specs),
		cmocka_unit_test(test_tcor),
		cmocka_unit_test(test_re),
		cmocka_unit_test(test_dtexl),
		cmocka_unit_test(test_workloads),
		cmocka_unit_test(test_boustrophedonic),
		cmocka_unit_test(test_gspc),
		cmocka_unit_test(test_errors),
	};
	return TSR_TEST_MAIN(argc, argv, tests, setup, teardown);
}
