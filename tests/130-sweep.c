/*
 * 130-sweep.c - `tessera sweep`: the point hash (stable, changed by every
 * effective setting, not by an explicit default), and end to end on tiny
 * points (tests/data's sprites-tiny.json and two-quads.json at 128x96, one
 * or two frames): serial and
 * parallel runs give the same results, resumption runs exactly the
 * missing points (a deleted point, a leftover temporary folder, a sweep
 * killed midway), a failing point is recorded while the others finish,
 * bad specifications fail before anything runs, "record_trace" (parsed,
 * outside the hash, traces written and required for completeness, unknown
 * caches refused), the Slurm script is valid and its array tasks plus
 * --collect equal the local run.
 */
#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/config.h"
#include "sweep/sweep.h"
#include "test_cli.h"


/* the tiny workloads (a sweep names them by these paths) */
#define TINY TSR_SOURCE_DIR "/tests/data/sprites-tiny.json"
#define QUADS TSR_SOURCE_DIR "/tests/data/two-quads.json"

/* The tiny sweep: 2 workloads x 2 tile orders = 4 points of 2 frames. */
static const char tiny_spec[] =
	"{\"name\": \"tiny\", \"workloads\": [\"" TINY "\", \"" QUADS "\"],\n"
	" \"set\": {\"screen.width\": 128, \"screen.height\": 96},\n"
	" \"grid\": {\"tiling.order\": [\"z-order\", \"hilbert\"]}, \"frames\": 2}\n";

/* tmpdir/name into buf. */
static const char *tpath(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", tmpdir, name);
	return buf;
}

/* 1 when tmpdir/a and tmpdir/b hold the same bytes. */
static int same_file(const char *a, const char *b)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "cd '%s' && cmp -s '%s' '%s'", tmpdir, a, b);
	return system(cmd) == 0;
}

static int exists(const char *name)
{
	char p[512];
	struct stat sb;
	return stat(tpath(p, sizeof(p), name), &sb) == 0;
}

/* Number of occurrences of needle in haystack after the last occurrence of `after`. */
static int count_after(const char *hay, const char *after, const char *needle)
{
	const char *p = hay, *q;
	while ((q = strstr(p, after)))
		p = q + 1;
	int n = 0;
	while ((p = strstr(p, needle))) {
		n++;
		p++;
	}
	return n;
}

/* Complete point folders (no ".tmp-") under tmpdir/dir/points. */
static int count_points(const char *dir, int tmp)
{
	char p[1024], q[600];
	snprintf(q, sizeof(q), "%s/points", dir);
	DIR *d = opendir(tpath(p, sizeof(p), q));
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			n += (strstr(e->d_name, ".tmp-") != NULL) == tmp;
	if (d)
		closedir(d);
	return n;
}

static int setup(void **state)
{
	(void)state;
	if (tsr_cli_tmp_setup("tessera-sweep"))
		return -1;
	write_file("tiny.json", tiny_spec);
	/* the reference: a serial run */
	return tessera("sweep tiny.json -j 1 --out ref --quiet") == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return tsr_cli_tmp_teardown();
}

/* The hash of the defaults with `sets` applied (asserted to load). */
static uint64_t hash_of(const char *const *sets, size_t n)
{
	struct tsr_gpu_config cfg;
	struct tsr_error err;
	uint64_t h = 0;
	tsr_config_defaults(&cfg);
	assert_int_equal(tsr_config_apply_sets(&cfg, NULL, sets, n, &err), TSR_OK);
	assert_int_equal(tsr_sweep_point_hash(&cfg, 42, 2, &h, &err), TSR_OK);
	return h;
}

/* Another valid value of entry e, tried in turn (k = 0, 1, ...); 0 when none is left. */
static int alternative(const struct tsr_config_entry *e, int k, char *buf, size_t n)
{
	if (!strcmp(e->value, "true") || !strcmp(e->value, "false")) {
		snprintf(buf, n, "%s", strcmp(e->value, "true") ? "true" : "false");
		return k == 0;
	}
	if (!strncmp(e->kind, "one of ", 7)) {  /* "one of a, b, c": the k-th name */
		const char *p = e->kind + 7;
		for (int i = 0; i < k && p; i++)
			p = strstr(p, ", ") ? strstr(p, ", ") + 2 : NULL;
		if (!p)
			return 0;
		snprintf(buf, n, "%.*s", (int)strcspn(p, ","), p);
		return 1;
	}
	if (e->value[0] == '"')
		return 0;  /* names and routes: structural, covered by the tests of config */
	double v = atof(e->value);
	const double mul[] = {2, 0.5, 4, 1.5};
	if (k >= 4)
		return 0;
	if (strchr(e->value, '.') || !strncmp(e->key, "energy.", 7))
		snprintf(buf, n, "%.6g", v * mul[k] + (v == 0));
	else
		snprintf(buf, n, "%llu", (unsigned long long)(v * mul[k]) + (v == 0 ? 1 : 0));
	return 1;
}

/*
 * Every key of the configuration (`tessera config --list`), set to
 * another valid value, changes the hash; set to its own value, does not.
 */
static void test_hash_every_setting(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	struct tsr_config_entry *e = NULL;
	struct tsr_error err;
	size_t n = 0, changed = 0, tried = 0;
	tsr_config_defaults(&cfg);
	assert_int_equal(tsr_config_entries(&cfg, &e, &n, &err), TSR_OK);
	const uint64_t base = hash_of(NULL, 0);
	assert_int_equal(base, hash_of(NULL, 0));  /* stable */
	for (size_t i = 0; i < n; i++) {
		char kv[256], val[96];
		if (e[i].value[0] == '"')
			continue;
		snprintf(kv, sizeof(kv), "%s=%s", e[i].key, e[i].value);
		const char *same[] = {kv};
		/* an explicit default (energy values are shown rounded: below, exactly) */
		if (strncmp(e[i].key, "energy.", 7) && hash_of(same, 1) != base)
			fail_msg("setting %s to its default changes the hash", kv);
		for (int k = 0; alternative(&e[i], k, val, sizeof(val)); k++) {
			struct tsr_gpu_config c2;
			snprintf(kv, sizeof(kv), "%s=%s", e[i].key, val);
			const char *set[] = {kv};
			tsr_config_defaults(&c2);
			if (!strcmp(val, e[i].value) ||
			    tsr_config_apply_sets(&c2, NULL, set, 1, &err) != TSR_OK)
				continue;  /* the default itself, or invalid alone */
			tried++;
			if (hash_of(set, 1) == base)
				fail_msg("setting %s does not change the hash", kv);
			changed++;
			break;
		}
	}
	free(e);
	struct tsr_energy_row *rows = NULL;
	size_t nrows = 0;
	assert_int_equal(tsr_energy_table(&cfg, &rows, &nrows, &err), TSR_OK);
	for (size_t i = 0; i < nrows; i++) {
		char kv[256];
		snprintf(kv, sizeof(kv), "energy.%s=%.17g", rows[i].name, rows[i].value);
		const char *same[] = {kv};
		if (hash_of(same, 1) != base)
			fail_msg("setting %s to its default changes the hash", kv);
	}
	free(rows);
	/* most keys have a valid alternative alone: the loop really covered them */
	assert_true(tried == changed);
	print_message("%zu of %zu configuration keys set to another value: each changed the hash\n",
		      changed, n);
	assert_true(changed > n / 2);
	/* the same value written two ways, frames and the workload digest */
	const char *a[] = {"caches.l2.size_bytes=2M"}, *b[] = {"caches.l2.size_bytes=2097152"};
	assert_int_equal(hash_of(a, 1), hash_of(b, 1));
	uint64_t h1, h2;
	tsr_config_defaults(&cfg);
	assert_int_equal(tsr_sweep_point_hash(&cfg, 42, 3, &h1, &err), TSR_OK);
	assert_int_equal(tsr_sweep_point_hash(&cfg, 43, 2, &h2, &err), TSR_OK);
	assert_true(h1 != base && h2 != base && h1 != h2);
}

/* FNV-1a 64 of known strings (the reference values of its authors). */
static void test_fnv1a(void **state)
{
	(void)state;
	assert_true(tsr_fnv1a64(TSR_FNV1A64_INIT, "", 0) == 0xcbf29ce484222325ull);
	assert_true(tsr_fnv1a64(TSR_FNV1A64_INIT, "a", 1) == 0xaf63dc4c8601ec8cull);
	assert_true(tsr_fnv1a64(TSR_FNV1A64_INIT, "foobar", 6) == 0x85944171f73967e8ull);
}

/* -j 2 gives byte-identical results to -j 1; rows in spec order with every column. */
static void test_parallel_equals_serial(void **state)
{
	(void)state;
	assert_int_equal(tessera("sweep tiny.json -j 2 --out par"), 0);
	assert_true(same_file("ref/results.csv", "par/results.csv"));
	assert_true(same_file("ref/results.jsonl", "par/results.jsonl"));
	assert_int_equal(count_points("par", 0), 4);
	const char *csv = slurp("ref/results.csv");
	assert_true(!strncmp(csv, "point,workload,config,screen.width,screen.height,tiling.order,"
			     "frame,geometry.draws,", 81));
	/* 4 points x (2 frames + total) rows and a header */
	int lines = 0;
	for (const char *p = csv; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 1 + 4 * 3);
	const char *second = strchr(csv, '\n') + 1;
	assert_non_null(strstr(second, "," TINY ",default,128,96,z-order,0,"));
	assert_non_null(strstr(csv, "," QUADS ",default,128,96,hilbert,total,"));
	assert_non_null(strstr(slurp("err.txt"), "4 points: 0 already complete, 4 ran, 0 failed"));
}

/* Deleted points and leftover temporaries: exactly the missing points run again. */
static void test_resume(void **state)
{
	(void)state;
	assert_int_equal(tessera("sweep tiny.json -j 2 --out res --quiet"), 0);
	/* delete one point, leave an interrupted run of another */
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "cd '%s/res/points' && set -- $(ls | sort) && rm -rf \"$1\" && "
		 "rm -rf \"$2\" && mkdir \"$2.tmp-999999\" && echo partial > \"$2.tmp-999999/stats.json\"",
		 tmpdir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(count_points("res", 0), 2);
	assert_int_equal(tessera("sweep tiny.json -j 2 --out res"), 0);
	const char *log = slurp("res/sweep.log");
	assert_non_null(strstr(log, "complete=2 to_run=2"));
	assert_int_equal(count_after(log, "start ", "ran "), 2);
	assert_int_equal(count_points("res", 1), 0);
	assert_true(same_file("ref/results.csv", "res/results.csv"));
	/* complete: nothing runs */
	assert_int_equal(tessera("sweep tiny.json --out res"), 0);
	assert_non_null(strstr(slurp("res/sweep.log"), "complete=4 to_run=0"));
	assert_non_null(strstr(slurp("err.txt"), "4 already complete, 0 ran"));
}

/* A sweep killed (SIGKILL, with its running child) after its first point resumes. */
static void test_resume_after_kill(void **state)
{
	(void)state;
	char spec[512], out[512];
	tpath(spec, sizeof(spec), "tiny.json");
	tpath(out, sizeof(out), "kill");
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		setpgid(0, 0);  /* its own group: killed with its child, as a job is */
		freopen("/dev/null", "w", stderr);
		execl(TSR_BINARY, "tessera", "sweep", spec, "-j", "1", "--out", out, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	int done = 0;
	for (int i = 0; i < 20000 && !done; i++) {  /* up to 20 s */
		done = count_points("kill", 0);
		if (!done)
			nanosleep(&(struct timespec){0, 1000 * 1000}, NULL);
	}
	kill(-pid, SIGKILL);
	int st;
	waitpid(pid, &st, 0);
	assert_true(WIFSIGNALED(st));
	int before = count_points("kill", 0);
	assert_true(before >= 1);
	if (before == 4)
		skip();  /* the machine ran all four before the kill landed: nothing to resume */
	assert_int_equal(tessera("sweep tiny.json -j 2 --out kill --quiet"), 0);
	char want[64];
	snprintf(want, sizeof(want), "complete=%d to_run=%d", before, 4 - before);
	const char *log = slurp("kill/sweep.log");
	assert_non_null(strstr(log, want));
	assert_int_equal(count_after(log, "start ", "ran "), 4 - before);
	assert_int_equal(count_points("kill", 1), 0);
	assert_true(same_file("ref/results.csv", "kill/results.csv"));
}

/* A point whose texture is corrupt fails (recorded, reported); the others finish. */
static void test_failing_point(void **state)
{
	(void)state;
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/bad' && head -c 200 /usr/share/glmark2/textures/"
		 "crate-base.png > '%s/bad/broken.png'", tmpdir, tmpdir);
	assert_int_equal(system(cmd), 0);
	write_file("bad/broken.json",
		   "{\"version\": 1, \"name\": \"broken\", \"frames\": 1, \"passes\": [{\"name\": "
		   "\"main\", \"target\": \"framebuffer\", \"camera\": {\"projection\": "
		   "\"orthographic\", \"ortho_height\": 2, \"near\": 0.1, \"far\": 10, \"eye\": "
		   "[0, 0, 5], \"target\": [0, 0, 0], \"up\": [0, 1, 0]}, \"objects\": [{\"mesh\": "
		   "\"builtin:quad\", \"material\": {\"texture\": \"broken.png\"}}]}]}\n");
	write_file("fail.json",
		   "{\"name\": \"fail\", \"workloads\": [\"" TINY "\", \"bad/broken.json\"],\n"
		   " \"set\": {\"screen.width\": 128, \"screen.height\": 96},\n"
		   " \"grid\": {\"tiling.order\": [\"z-order\", \"hilbert\"]}, \"frames\": 1}\n");
	assert_int_equal(tessera("sweep fail.json -j 2 --out fail"), 1);
	const char *err = slurp("err.txt");
	assert_non_null(strstr(err, "failed (workload bad/broken.json"));
	assert_non_null(strstr(err, "broken.png"));
	assert_non_null(strstr(err, "4 points: 0 already complete, 2 ran, 2 failed"));
	assert_int_equal(count_points("fail", 0), 2);
	char cmd2[1024];
	snprintf(cmd2, sizeof(cmd2), "cd '%s/fail/failed' && test $(ls | wc -l) -eq 2 && "
		 "grep -q '\"exit_code\": 1' */failed.json && grep -q 'broken.png' */failed.json",
		 tmpdir);
	assert_int_equal(system(cmd2), 0);
	/* the good points are in the results, the failed ones are not */
	const char *csv = slurp("fail/results.csv");
	assert_non_null(strstr(csv, "," TINY ","));
	assert_null(strstr(csv, ",bad/broken.json,"));
	/* rerun: only the failed points run again (and fail again) */
	assert_int_equal(tessera("sweep fail.json --out fail --quiet"), 1);
	assert_non_null(strstr(slurp("fail/sweep.log"), "complete=2 to_run=2"));
}

/* Spec case i is refused: exit 2, a message naming bad.json and needle, no output folder. */
static void bad_spec(size_t i, const char *spec, const char *needle)
{
	write_file("bad.json", spec);
	assert_int_equal(tessera("sweep bad.json --out never"), 2);
	const char *err = slurp("err.txt");
	if (!strstr(err, needle) || !strstr(err, "bad.json"))
		fail_msg("case %zu: message '%s' lacks '%s' or the file", i, err, needle);
	assert_false(exists("never"));
}

/* Bad specifications: a message naming the spec and the key, exit 2, no output folder. */
static void test_bad_specs(void **state)
{
	(void)state;
	static const struct {
		const char *spec, *needle;
	} cases[] = {
		{"{\"name\": \"b\", \"workloads\": [\"ui-2d\"], \"gird\": {}}", "unknown key 'gird'"},
		{"{\"name\": \"b\", \"workloads\": [\"ui-2d\"], \"grid\": {\"tiling.order\": []}}",
		 "'grid.tiling.order'"},
		{"{\"name\": \"b\", \"workloads\": [\"ui-2d\"], \"grid\": {}}", "'grid'"},
		{"{\"name\": \"b\", \"workloads\": [\"ui-2d\"], \"points\": []}", "'points'"},
		{"{\"name\": \"b\", \"workloads\": []}", "'workloads'"},
		{"{\"name\": \"b\", \"workloads\": [\"no-such-workload\"]}", "'no-such-workload'"},
		{"{\"name\": \"b\", \"workloads\": [\"ui-2d\"], \"configs\": [\"no-such-config\"]}",
		 "'no-such-config'"},
		{"{\"name\": \"b\", \"workloads\": [\"ui-2d\"], \"grid\": {\"caches.l2.sise_bytes\": "
		 "[1024]}}", "sise_bytes"},
		{"{\"name\": \"b\", \"workloads\": [\"ui-2d\"], \"points\": [{\"tiling.order\": "
		 "\"zigzag\"}]}", "'zigzag'"},
		{"{\"name\": \"b\", \"workloads\": [\"ui-2d\"], \"frames\": 0}", "frames"},
		{"{\"name\": \"b c\", \"workloads\": [\"ui-2d\"]}", "'name'"},
		{"{\"name\": \"b\", \"workloads\": [\"ui-2d\"], \"set\": {\"screen.width\": [1]}}",
		 "screen.width"},
		{"{\"name\": \"b\", \"workloads\": [\"ui-2d\"]", "malformed JSON"},
		/* a point's own configuration: a name or file that exists */
		{"{\"name\": \"b\", \"workloads\": [\"ui-2d\"], \"points\": [{\"config\": 1}]}",
		 "'points[0].config'"},
		{"{\"name\": \"b\", \"workloads\": [\"ui-2d\"], \"points\": [{\"config\": "
		 "\"no-such-config\"}]}", "'no-such-config'"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		bad_spec(i, cases[i].spec, cases[i].needle);
	assert_int_equal(tessera("sweep tiny.json --task 1"), 2);
	assert_int_equal(tessera("sweep tiny.json --collect --slurm"), 2);
}

/* A spec of 2 points recording caches ("record_trace"), at the spec's level and a point's. */
static const char rec_spec[] =
	"{\"name\": \"rec\", \"workloads\": [\"" TINY "\"], \"frames\": 1,\n"
	" \"set\": {\"screen.width\": 128, \"screen.height\": 96}, \"record_trace\": [\"l2\"],\n"
	" \"points\": [{\"tiling.order\": \"z-order\"},\n"
	"  {\"tiling.order\": \"hilbert\", \"record_trace\": [\"tile\", \"l2\", \"texture1\"]},\n"
	"  {\"tiling.order\": \"hilbert\"}]}\n";

/*
 * "record_trace": parsed into each point (the spec's, then the entry's,
 * united over the points of one hash), not in the hash; each point's run
 * writes trace-CACHE.bin, listed in point.json; a point without one of its
 * traces is incomplete and runs again; bad values and unknown caches fail
 * before anything runs.
 */
static void test_record_trace(void **state)
{
	(void)state;
	write_file("rec.json", rec_spec);
	char path[512];
	struct tsr_error err = {{0}};
	struct tsr_sweep *sw = NULL;
	assert_int_equal(tsr_sweep_load(tpath(path, sizeof(path), "rec.json"), &sw, &err), TSR_OK);
	assert_int_equal(tsr_sweep_point_count(sw), 3);
	const struct tsr_sweep_point *p0 = tsr_sweep_point(sw, 0), *p1 = tsr_sweep_point(sw, 1),
				     *p2 = tsr_sweep_point(sw, 2);
	assert_int_equal(p0->ntraces, 1);
	assert_string_equal(p0->traces[0], "l2");
	assert_int_equal(p1->ntraces, 3);  /* l2 once */
	assert_string_equal(p1->traces[0], "l2");
	assert_string_equal(p1->traces[1], "tile");
	assert_string_equal(p1->traces[2], "texture1");
	assert_int_equal(p2->first, 1);  /* the same run: it records what point 1 records */
	assert_int_equal(p2->ntraces, 3);
	assert_int_equal(p0->nsets, 3);  /* no override and no column for record_trace */
	size_t nkeys = 0;
	tsr_sweep_keys(sw, &nkeys);
	assert_int_equal(nkeys, 3);
	char name[64];
	tsr_sweep_trace_name("l2", name, sizeof(name));
	assert_string_equal(name, "trace-l2.bin");
	/* recording does not enter the hash: the same spec without it hashes the same */
	write_file("norec.json",
		   "{\"name\": \"rec\", \"workloads\": [\"" TINY "\"], \"frames\": 1,\n"
		   " \"set\": {\"screen.width\": 128, \"screen.height\": 96},\n"
		   " \"points\": [{\"tiling.order\": \"z-order\"}]}\n");
	struct tsr_sweep *plain = NULL;
	assert_int_equal(tsr_sweep_load(tpath(path, sizeof(path), "norec.json"), &plain, &err),
			 TSR_OK);
	assert_int_equal(tsr_sweep_point(plain, 0)->hash, p0->hash);
	assert_int_equal(tsr_sweep_point(plain, 0)->ntraces, 0);
	tsr_sweep_destroy(plain);

	/* the runs write the traces; point.json lists them */
	assert_int_equal(tessera("sweep rec.json -j 2 --out rec --quiet"), 0);
	char f[256];
	snprintf(f, sizeof(f), "rec/points/%s/trace-l2.bin", p0->hex);
	assert_true(exists(f));
	snprintf(f, sizeof(f), "rec/points/%s/trace-tile.bin", p0->hex);
	assert_false(exists(f));
	for (size_t i = 0; i < 3; i++) {
		snprintf(f, sizeof(f), "rec/points/%s/trace-%s.bin", p1->hex, p1->traces[i]);
		assert_true(exists(f));
	}
	snprintf(f, sizeof(f), "rec/points/%s/point.json", p1->hex);
	const char *pj = slurp(f);
	assert_non_null(strstr(pj, "\"traces\""));
	assert_non_null(strstr(pj, "\"texture1\": \"trace-texture1.bin\""));
	assert_true(tsr_sweep_point_complete(tpath(path, sizeof(path), "rec"), p1));
	/* the recorded L2 trace is a whole trace (the reader checks its end record and checksum) */
	snprintf(f, sizeof(f), "rec/points/%s/trace-l2.bin", p0->hex);
	assert_int_equal(tessera("cachesim %s/%s --size 1M --ways 16 --policy lru", tmpdir, f), 0);
	/* a trace missing: the point is incomplete and exactly it runs again */
	snprintf(f, sizeof(f), "rec/points/%s/trace-tile.bin", p1->hex);
	assert_int_equal(unlink(tpath(path, sizeof(path), f)), 0);
	assert_false(tsr_sweep_point_complete(tpath(path, sizeof(path), "rec"), p1));
	assert_true(tsr_sweep_point_complete(tpath(path, sizeof(path), "rec"), p0));
	assert_int_equal(tessera("sweep rec.json -j 2 --out rec"), 0);
	assert_non_null(strstr(slurp("rec/sweep.log"), "complete=1 to_run=1"));
	snprintf(f, sizeof(f), "rec/points/%s/trace-tile.bin", p1->hex);
	assert_true(exists(f));
	/* a spec that gains record_trace: its complete points without traces run again */
	assert_int_equal(tessera("sweep norec.json --out gain --quiet"), 0);
	write_file("gain.json",
		   "{\"name\": \"rec\", \"workloads\": [\"" TINY "\"], \"frames\": 1,\n"
		   " \"set\": {\"screen.width\": 128, \"screen.height\": 96},\n"
		   " \"points\": [{\"tiling.order\": \"z-order\", \"record_trace\": [\"l2\"]}]}\n");
	assert_int_equal(tessera("sweep gain.json --out gain"), 0);
	assert_non_null(strstr(slurp("gain/sweep.log"), "complete=0 to_run=1"));
	snprintf(f, sizeof(f), "gain/points/%s/trace-l2.bin", p0->hex);
	assert_true(exists(f));
	tsr_sweep_destroy(sw);

	/* bad values and unknown caches: one message, exit 2, nothing written */
	static const struct {
		const char *rec, *needle;
	} bad[] = {
		{"\"record_trace\": \"l2\"", "'record_trace' in sweep"},
		{"\"record_trace\": []", "'record_trace' in sweep"},
		{"\"record_trace\": [\"l2\", 3]", "'record_trace[1]'"},
		{"\"record_trace\": [\"../l2\"]", "'record_trace[0]'"},
		{"\"record_trace\": [\"l9\"]", "names cache 'l9', which config 'default' does not "
		 "have (its caches: vertex, tile, texture0"},
		{"\"points\": [{\"record_trace\": [\"texture\"]}]", "names cache 'texture'"},
		{"\"points\": [{\"record_trace\": {}}]", "'points[0].record_trace'"},
		{"\"configs\": [\"gspc-8mb\"], \"record_trace\": [\"l2\"]", "config 'gspc-8mb'"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char spec[512];
		snprintf(spec, sizeof(spec), "{\"name\": \"b\", \"workloads\": [\"ui-2d\"], %s}",
			 bad[i].rec);
		bad_spec(i, spec, bad[i].needle);
	}
}

/* The Slurm script: valid bash (and sbatch --test-only when sbatch is here); tasks + collect. */
static void test_slurm(void **state)
{
	(void)state;
	assert_int_equal(tessera("sweep tiny.json --slurm --dry-run --chunk 3 --partition debug "
				 "--time 5 --mem 500M --out slurm"), 0);
	const char *s = slurp("slurm/sweep.sbatch");
	assert_non_null(strstr(s, "#SBATCH --array=0-1\n"));
	assert_non_null(strstr(s, "#SBATCH --partition=debug\n"));
	assert_non_null(strstr(s, "#SBATCH --time=5\n"));
	assert_non_null(strstr(s, "#SBATCH --mem=500M\n"));
	assert_non_null(strstr(s, "#SBATCH --cpus-per-task=1\n"));
	assert_non_null(strstr(s, "/slurm/slurm/%A_%a.out\n"));
	assert_non_null(strstr(s, "--task \"$SLURM_ARRAY_TASK_ID\" --chunk 3"));
	assert_non_null(strstr(s, "module load"));
	assert_true(exists("slurm/slurm"));
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "bash -n '%s/slurm/sweep.sbatch'", tmpdir);
	assert_int_equal(system(cmd), 0);
	/* no sbatch on PATH: written, not submitted, success */
	snprintf(cmd, sizeof(cmd), "cd '%s' && PATH=/nonexistent '%s' sweep tiny.json --slurm "
		 "--out slurm2 >out.txt 2>&1", tmpdir, TSR_BINARY);
	assert_int_equal(system(cmd), 0);
	assert_non_null(strstr(slurp("out.txt"), "sbatch is not on PATH"));
	assert_true(exists("slurm2/sweep.sbatch"));
	/* the array tasks by hand, then --collect: the local run's results */
	assert_int_equal(tessera("sweep tiny.json --out slurm --collect"), 1);
	assert_non_null(strstr(slurp("err.txt"), "is missing"));
	for (int t = 0; t < 3; t++)  /* task 2 is past the end: nothing to do */
		assert_int_equal(tessera("sweep tiny.json --out slurm --task %d --chunk 3 -j 1", t),
				 0);
	assert_int_equal(count_points("slurm", 0), 4);
	assert_int_equal(tessera("sweep tiny.json --out slurm --collect"), 0);
	assert_true(same_file("ref/results.csv", "slurm/results.csv"));
	assert_true(same_file("ref/results.jsonl", "slurm/results.jsonl"));
	if (system("command -v sbatch >/dev/null 2>&1") != 0) {
		print_message("sbatch not found: skipped sbatch --test-only\n");
		return;
	}
	/* the cluster's default partition, time and memory */
	snprintf(cmd, sizeof(cmd), "sbatch --test-only '%s/slurm2/sweep.sbatch' >'%s/sb.txt' 2>&1",
		 tmpdir, tmpdir);
	if (system(cmd) != 0) {
		const char *o = slurp("sb.txt");
		/* sbatch without a reachable cluster cannot test: not the script's fault */
		if (strstr(o, "configuration source") || strstr(o, "Unable to contact") ||
		    strstr(o, "slurm.conf") || strstr(o, "Connection refused")) {
			print_message("sbatch has no cluster here: skipped --test-only (%s)\n", o);
			return;
		}
		fail_msg("sbatch --test-only rejected the script: %s", o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fnv1a),
		cmocka_unit_test(test_hash_every_setting),
		cmocka_unit_test(test_parallel_equals_serial),
		cmocka_unit_test(test_resume),
		cmocka_unit_test(test_resume_after_kill),
		cmocka_unit_test(test_failing_point),
		cmocka_unit_test(test_bad_specs),
		cmocka_unit_test(test_record_trace),
		cmocka_unit_test(test_slurm),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
