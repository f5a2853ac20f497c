/*
 * 133-experiment-capture.c - an apitrace capture as an experiment's
 * workload (`tessera experiment NAME --workload X.trace`, experiment.h's
 * tsr_xp_options.replay, cli/run_capture.c's tsr_cli_xp_replay()):
 *   - without a replay callback the library refuses a capture
 *     (TSR_ERR_UNSUPPORTED naming the file), as it does with a sweep
 *     (--from); an experiment whose configurations switch on a technique
 *     (tcor: TCOR's Attribute Cache) runs on the capture's program draws,
 *     and more frames than the capture holds are refused;
 *   - `tessera experiment workloads` on the capture computes its row from
 *     the same counters as `tessera run X.trace` with the same
 *     configuration gives (every column, printed alike), the row named
 *     after the capture's stem;
 *   - boustrophedonic records the capture's L2 input through the driver
 *     (TESSERA_RECORD_TRACE): its LRU replay gives the run's misses ("LRU
 *     replay = run: ok") and the run's L2 read misses are `tessera run`'s;
 *   - `tessera run X.trace --record-trace CACHE=FILE` writes the trace
 *     through the same driver recording, changing no statistic; an unknown
 *     cache or a second --record-trace exits 2.
 * The capture is the fixture glmark2_capture's (tests/capture-fixture.sh:
 * glmark2-es2's build, texture and shading scenes, one 160x120 frame
 * each); without it (no xvfb, apitrace or glmark2-es2) those cases skip.
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

#include "experiment/experiment.h"
#include "report/stats_read.h"
#include "test_cli.h"

#define CAPTURE TSR_CAPTURE_DIR "/glmark2.trace"

static int setup(void **state)
{
	(void)state;
	return tsr_cli_tmp_setup("tsr-133");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_cli_tmp_teardown();
}

/* Skips the test when the fixture made no capture, or the driver cannot
 * be loaded by eglretrace (a sanitized build). */
static void need_capture(void)
{
#ifdef TSR_SANITIZED
	skip();  /* eglretrace has no sanitizer runtime: it cannot load the driver */
#endif
	if (access(CAPTURE, R_OK) != 0) {
		fprintf(stderr, "skipped: no capture %s (the fixture glmark2_capture needs xvfb, "
			"apitrace and glmark2-es2-x11)\n", CAPTURE);
		skip();
	}
}

/* The library without a replay callback, and with a sweep: refused, naming the capture. */
static void test_refused_without_replay(void **state)
{
	(void)state;
	const char *w = "/nonexistent/some-game.trace";
	const struct tsr_experiment *x = tsr_experiment_find("workloads");
	struct tsr_xp_options o = {.frames = 1, .workloads = &w, .workload_count = 1};
	struct tsr_xp_result r;
	struct tsr_error err = {{0}};
	assert_true(tsr_xp_is_capture(w));
	assert_false(tsr_xp_is_capture("workloads/glmark-scene.json"));
	assert_false(tsr_xp_is_capture(".trace"));
	assert_int_equal(tsr_experiment_run(x, &o, &r, &err), TSR_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.msg, w));
	assert_non_null(strstr(err.msg, "tsr_xp_options.replay"));
	tsr_xp_result_release(&r);
	/* a sweep's points are JSON workloads */
	o.sweep_dir = tmpdir;
	x = tsr_experiment_find("timing");
	char points[512];
	snprintf(points, sizeof(points), "%s/points", tmpdir);
	assert_int_equal(mkdir(points, 0777), 0);
	assert_int_equal(tsr_experiment_run(x, &o, &r, &err), TSR_ERR_UNSUPPORTED);
	assert_non_null(strstr(err.msg, w));
	assert_non_null(strstr(err.msg, "--from"));
	tsr_xp_result_release(&r);
}

/* tcor's configurations switch on TCOR's Attribute Cache, which caches
 * program draws' attributes: a row per configuration, the 64 KiB cache
 * taking fewer Parameter Buffer accesses to the L2 than the baseline. */
static void test_technique_runs(void **state)
{
	(void)state;
	need_capture();
	assert_int_equal(tessera("experiment tcor --workload %s --no-corpus --frames 1 -j 1 "
				 "--csv %s/tcor.csv", CAPTURE, tmpdir), 0);
	const char *csv = slurp("tcor.csv");
	char base[64], tcor[64];
	static const char kb[] = "\nglmark2,tcor-table1,", kt[] = "\nglmark2,tcor-64k,";
	const char *b = strstr(csv, kb);
	const char *t = strstr(csv, kt);
	assert_non_null(b);
	assert_non_null(t);
	/* the PB's L2 accesses: the column after the configuration */
	b += sizeof(kb) - 1;
	t += sizeof(kt) - 1;
	snprintf(base, sizeof(base), "%.*s", (int)strcspn(b, ",\n"), b);
	snprintf(tcor, sizeof(tcor), "%.*s", (int)strcspn(t, ",\n"), t);
	assert_true(strtod(base, NULL) > 0);
	assert_true(strtod(tcor, NULL) < strtod(base, NULL));
	/* means per frame need the frames asked for: the capture holds 3 */
	assert_int_equal(tessera("experiment workloads --workload %s --frames 4 -j 1", CAPTURE), 2);
	assert_non_null(strstr(slurp("err.txt"), "holds 3 frames, fewer than the 4 asked for"));
	/* --session: a capture named as a corpus entry starts at its session's
	 * first frame (blockattack's: 30, past what this capture holds);
	 * not with a range */
	char link[4096];
	snprintf(link, sizeof(link), "%s/blockattack.trace", tmpdir);
	assert_int_equal(symlink(CAPTURE, link), 0);
	assert_int_equal(tessera("experiment workloads --workload %s --session --frames 1 -j 1",
				 link), 2);
	assert_non_null(strstr(slurp("err.txt"), "holds 3 frames, fewer than the 31 asked for"));
	assert_int_equal(tessera("experiment workloads --workload %s --session --frames 1 -j 1",
				 CAPTURE), 0);
	assert_non_null(strstr(slurp("out.txt"), "glmark2.trace 0-0"));
	assert_int_equal(tessera("experiment workloads --workload %s --session --frames 1-2",
				 CAPTURE), 2);
	assert_non_null(strstr(slurp("err.txt"), "--session and --frames A-B"));
}

/* Field k (0-based) of the CSV line that starts with `key,` in text, into buf. */
static const char *csv_field(const char *text, const char *key, int k, char *buf, size_t n)
{
	char start[128];
	snprintf(start, sizeof(start), "\n%s,", key);
	const char *p = strstr(text, start);
	if (!p)
		fail_msg("no row '%s' in:\n%s", key, text);
	p++;
	for (int i = 0; i < k; i++) {
		p = strpbrk(p, ",\n");
		if (!p || *p == '\n')
			fail_msg("row '%s' has no field %d", key, k);
		p++;
	}
	size_t len = strcspn(p, ",\n");
	snprintf(buf, n, "%.*s", (int)len, p);
	return buf;
}

/* Reads tmpdir/dir/stats.json (asserted). */
static void read_stats(const char *dir, struct tsr_stats_file *f)
{
	char p[512];
	struct tsr_error err = {{0}};
	snprintf(p, sizeof(p), "%s/%s/stats.json", tmpdir, dir);
	if (tsr_stats_read(p, f, &err) != TSR_OK)
		fail_msg("%s", err.msg);
}

static double ratio(double a, double b)
{
	return b ? a / b : 0.0;
}

/* experiment workloads --frames `frames` against run --frames `frames` (n
 * frames simulated; run_dir: its output folder): the table's row of the
 * capture, the columns computed from `tessera run`'s counters */
static void workloads_same_as_run(const char *frames, double n, const char *run_dir)
{
	assert_int_equal(tessera("experiment workloads --workload %s --frames %s -j 2 --csv w.csv",
				 CAPTURE, frames), 0);
	const char *csv = slurp("w.csv");
	char *table = strdup(csv);
	assert_non_null(table);
	assert_int_equal(tessera("run %s --config %s/configs/tcor-table1.json --set "
				 "stats.texture_footprint=true --frames %s --warmup 0 --out %s "
				 "--dump-frames none --quiet", CAPTURE, TSR_SOURCE_DIR, frames, run_dir),
			 0);
	struct tsr_stats_file *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	read_stats(run_dir, f);
	const struct tsr_frame_stats *t = f->total;
	const double mib = 1048576.0, binned = (double)t->geometry.primitives_binned;
	const double quads = (double)t->raster.quads_shaded;
	uint64_t dram = 0;
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		dram += t->dram[s].read_bytes + t->dram[s].write_bytes;
	const struct {
		int field;
		double v;
	} cols[] = {
		{2, ratio((double)t->geometry.primitives_in, n)},
		{3, ratio(binned, n)},
		{4, ratio((double)t->tiling.pmds_written, binned)},
		{5, ratio((double)t->tiling.pb_attributes_bytes, f->config.attribute_bytes * binned)},
		{7, ratio((double)(t->texture.footprint_lines << 6), n) / mib},
		{8, ratio((double)t->raster.fragments_shaded, n * f->config.width * f->config.height)},
		{10, ratio((double)dram, n) / mib},
		{17, ratio((double)t->raster.fs_instructions, quads)},
		{18, ratio((double)t->geometry.vertex_instructions,
			   (double)t->geometry.vertices_fetched)},
		{19, ratio((double)t->texture.sample_instructions, quads)},
	};
	/* the frames drawn are the capture's, at its surface size (160x120) */
	assert_int_equal(f->config.width, 160);
	assert_true(t->raster.fs_instructions > 0 && t->texture.footprint_lines > 0);
	char got[64], want[64];
	snprintf(want, sizeof(want), "%.0f", n);
	assert_string_equal(csv_field(table, "glmark2", 1, got, sizeof(got)), want);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		snprintf(want, sizeof(want), "%.6f", cols[i].v);
		csv_field(table, "glmark2", cols[i].field, got, sizeof(got));
		if (strcmp(got, want))
			fail_msg("column %d: experiment %s, run %s", cols[i].field, got, want);
	}
	tsr_stats_file_release(f);
	free(f);
	free(table);
}

/* The workloads experiment's means are those of `tessera run`'s stats.json,
 * of the whole capture, of a range past its first frame (--frames 1-2:
 * frame 0 fast-forwarded, as a game's menus are, no warm-up frame) and of
 * a list (--frames 1,2). */
static void test_workloads_same_as_run(void **state)
{
	(void)state;
	need_capture();
	workloads_same_as_run("3", 3.0, "run");
	workloads_same_as_run("1-2", 2.0, "run12");
	workloads_same_as_run("1,2", 2.0, "run1_2");  /* a list (frame 0 fast-forwarded) */
}

/* boustrophedonic records the capture's L2 input through the driver. */
/* boustrophedonic --frames `frames` on the capture: its L2 replay matches
 * the run, whose L2 read misses are `tessera run --frames run_frames`'s
 * (written to run_dir) */
static void recorded_l2(const char *frames, const char *run_frames, const char *run_dir)
{
	assert_int_equal(tessera("experiment boustrophedonic --workload %s --frames %s -j 2 "
				 "--csv b.csv", CAPTURE, frames), 0);
	const char *out = slurp("out.txt");
	assert_non_null(strstr(out, "LRU replay = run"));
	const char *row = strstr(out, "\nglmark2 ");
	assert_non_null(row);
	assert_non_null(strstr(row, " ok\n"));
	char *table = strdup(slurp("b.csv"));
	assert_non_null(table);
	/* the run's L2 read misses (every stream) are those of `tessera run` */
	assert_int_equal(tessera("run %s --config %s/configs/boustrophedonic-texture-l2.json "
				 "--set timing.enabled=false --frames %s --out %s --dump-frames "
				 "none --quiet", CAPTURE, TSR_SOURCE_DIR, run_frames, run_dir), 0);
	struct tsr_stats_file *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	read_stats(run_dir, f);
	uint32_t l2 = 0;
	while (l2 < f->cache_count && strcmp(f->cache_names[l2], "l2"))
		l2++;
	assert_true(l2 < f->cache_count);
	uint64_t misses = 0;
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		misses += f->total->caches[l2][s].read_misses;
	char got[64], want[64], lines[64];
	snprintf(want, sizeof(want), "%llu", (unsigned long long)misses);
	assert_string_equal(csv_field(table, "glmark2", 5, got, sizeof(got)), want);
	assert_true(misses > 0);
	assert_true(atoll(csv_field(table, "glmark2", 7, lines, sizeof(lines))) > 0);
	tsr_stats_file_release(f);
	free(f);
	free(table);
}

/* The L2 input boustrophedonic records through the driver, of the whole
 * capture and of a range (--frames 1-2: frame 0 fast-forwarded, no warm-up
 * frame, so that the recorded input is that of the frames counted). */
static void test_recorded_l2(void **state)
{
	(void)state;
	need_capture();
	recorded_l2("2", "2", "run");
	recorded_l2("1-2", "1-2 --warmup 0", "run12l2");
}

/* `tessera run X.trace --record-trace l2=FILE`: the driver's recording, stats unchanged. */
static void test_run_record_trace(void **state)
{
	(void)state;
	need_capture();
	assert_int_equal(tessera("run %s --record-trace l2=l2.bin --out rec --dump-frames none "
				 "--quiet", CAPTURE), 0);
	assert_int_equal(tessera("run %s --out plain --dump-frames none --quiet", CAPTURE), 0);
	char *a = strdup(slurp("rec/stats.json"));
	assert_non_null(a);
	assert_true(strlen(a) > 1000);
	assert_string_equal(a, slurp("plain/stats.json"));
	free(a);
	assert_true(tsr_cli_exists("l2.bin") && !tsr_cli_exists("rec/l2.bin"));
	/* a trace cachesim reads (its streams: the L2 input of a run) */
	assert_int_equal(tessera("cachesim l2.bin --size 256K --ways 8 --policy lru"), 0);
	assert_non_null(strstr(slurp("out.txt"), "pb_attributes"));
	assert_int_equal(tessera("run %s --record-trace nope=x.bin --out bad --quiet", CAPTURE), 2);
	assert_non_null(strstr(slurp("err.txt"), "no cache 'nope'"));
	assert_int_equal(tessera("run %s --record-trace l2=a.bin --record-trace tile=b.bin --out "
				 "bad --quiet", CAPTURE), 2);
	assert_false(tsr_cli_exists("bad") || tsr_cli_exists("x.bin") || tsr_cli_exists("a.bin"));
}

int main(void)
{
	/* shipped data through the data directory (the library's own calls) */
	if (setenv("TSR_DATA_DIR", TSR_SOURCE_DIR, 1) != 0)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_refused_without_replay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_technique_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_workloads_same_as_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recorded_l2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_record_trace, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
