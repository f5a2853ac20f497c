/*
 * 090-cli-e2e.c - end-to-end tests of `tessera run` on real assets:
 * invariants of stats.json, the rendered image, determinism, and the
 * handling of bad input (message, exit code, no partial output).
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
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>
#include <stb/stb_image.h>

#include "test_util.h"
#include "test_main.h"

static char tmpdir[256];

/* Runs the CLI with args (a shell fragment); returns the exit code. */
static int run(const char *args, const char *stderr_file)
{
	char cmd[12288];
	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' %s >/dev/null 2>'%s'", TSR_SOURCE_DIR,
		 TSR_BINARY, args, stderr_file);
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Runs the CLI with args, stdout to out_file; returns the exit code. */
static int run_out(const char *args, const char *out_file, const char *stderr_file)
{
	char cmd[4096];
	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' %s >'%s' 2>'%s'", TSR_SOURCE_DIR,
		 TSR_BINARY, args, out_file, stderr_file);
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int exists(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0;
}

static json_int_t jint(json_t *root, const char *path)
{
	/* dotted path lookup */
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", path);
	json_t *cur = root;
	for (char *tok = strtok(buf, "."); tok && cur; tok = strtok(NULL, "."))
		cur = json_object_get(cur, tok);
	assert_non_null(cur);
	return json_integer_value(cur);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/tessera-e2e-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_default_workload_invariants(void **state)
{
	(void)state;
	char args[1024], err[512], path[512];
	snprintf(err, sizeof(err), "%s/err.txt", tmpdir);
	snprintf(args, sizeof(args),
		 "run workloads/glmark-scene.json --config configs/re-table1.json --frames 2 --out '%s/a' --quiet",
		 tmpdir);
	assert_int_equal(run(args, err), 0);
	snprintf(path, sizeof(path), "%s/a/stats.json", tmpdir);
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	assert_non_null(root);
	json_t *total = json_object_get(root, "total");
	assert_int_equal(json_array_size(json_object_get(root, "frames")), 2);
	/* the Tile Fetcher reads every PMD the Polygon List Builder wrote */
	assert_true(jint(total, "tiling.pmds_written") > 0);
	assert_int_equal(jint(total, "tiling.pmds_read"), jint(total, "tiling.pmds_written"));
	/* PB-Lists writes at the Tile Cache are one per PMD */
	assert_int_equal(jint(total, "caches.tile.pb_lists.writes"), jint(total, "tiling.pmds_written"));
	/* every quad goes to one core */
	json_t *qpc = json_object_get(json_object_get(total, "raster"), "quads_per_core");
	json_int_t sum = 0, tex = 0;
	for (size_t i = 0; i < json_array_size(qpc); i++)
		sum += json_integer_value(json_array_get(qpc, i));
	assert_int_equal(sum, jint(total, "raster.quads_shaded"));
	/* every texture line request is attributed to exactly one core's L1 */
	for (int c = 0; c < 4; c++) {
		char key[64];
		snprintf(key, sizeof(key), "caches.texture%d.all.reads", c);
		tex += jint(total, key);
	}
	assert_true(tex > 0);
	assert_int_equal(tex, jint(total, "texture.line_requests"));
	/* L2 reads = misses of the L1s that fetch (read misses everywhere here) */
	assert_true(jint(total, "caches.l2.all.reads") > 0);
	/* the color flush writes the whole frame buffer each frame, in 64-byte lines */
	json_int_t fb = jint(total, "dram.color.write_bytes");
	assert_true(fb >= 2LL * 1196 * 768 * 4);
	/* tiles: 75 x 48 per frame */
	assert_int_equal(jint(total, "tiling.tiles"), 2 * 75 * 48);
	assert_non_null(json_object_get(root, "address_map"));
	assert_non_null(json_object_get(root, "config"));
	json_decref(root);
	/* last frame dumped by default, CSV has a header and 2 rows */
	snprintf(path, sizeof(path), "%s/a/frame-0001.png", tmpdir);
	assert_true(exists(path));
	snprintf(path, sizeof(path), "%s/a/frames.csv", tmpdir);
	char *csv = tsr_test_read_file(path);
	assert_non_null(csv);
	int lines = 0;
	for (char *p = csv; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 3);
	free(csv);
}

/*
 * A trace recorded during a run, replayed by cachesim with the same
 * geometry and policy, gives exactly the counters the run reported for
 * that cache.
 */
static void test_record_and_replay(void **state)
{
	(void)state;
	char args[2048], err[512], out[512], path[512];
	snprintf(err, sizeof(err), "%s/err.txt", tmpdir);
	snprintf(out, sizeof(out), "%s/out.txt", tmpdir);
	snprintf(args, sizeof(args),
		 "run workloads/glmark-scene.json --config configs/re-table1.json --frames 2 "
		 "--out '%s/rec' --quiet --record-trace l2='%s/l2.trace' "
		 "--record-trace tile='%s/tile.trace'", tmpdir, tmpdir, tmpdir);
	assert_int_equal(run(args, err), 0);
	snprintf(path, sizeof(path), "%s/rec/stats.json", tmpdir);
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	assert_non_null(root);
	json_t *total = json_object_get(root, "total");
	static const struct {
		const char *cache, *size, *ways;
	} caches[] = {{"l2", "256K", "8"}, {"tile", "128K", "8"}};
	for (int c = 0; c < 2; c++) {
		/* one thread and a reader thread: the same output */
		char text[2][1 << 14];
		for (int th = 1; th <= 2; th++) {
			snprintf(args, sizeof(args),
				 "cachesim '%s/%s.trace' --size %s --ways %s --policy lru,opt --json "
				 "--threads %d",
				 tmpdir, caches[c].cache, caches[c].size, caches[c].ways, th);
			assert_int_equal(run_out(args, out, err), 0);
			FILE *f = fopen(out, "rb");
			assert_non_null(f);
			size_t got = fread(text[th - 1], 1, sizeof(text[0]) - 1, f);
			fclose(f);
			assert_true(got > 0 && got < sizeof(text[0]) - 1);
			text[th - 1][got] = '\0';
		}
		assert_string_equal(text[0], text[1]);
		json_t *sim = json_load_file(out, 0, &je);
		assert_non_null(sim);
		json_t *lru = json_object_get(json_array_get(json_object_get(sim, "policies"), 0),
					      "total");
		json_t *opt = json_object_get(json_array_get(json_object_get(sim, "policies"), 1),
					      "total");
		char key[128];
		snprintf(key, sizeof(key), "caches.%s.all.reads", caches[c].cache);
		json_int_t reads = jint(total, key);
		snprintf(key, sizeof(key), "caches.%s.all.writes", caches[c].cache);
		json_int_t writes = jint(total, key);
		snprintf(key, sizeof(key), "caches.%s.all.read_misses", caches[c].cache);
		json_int_t rmiss = jint(total, key);
		snprintf(key, sizeof(key), "caches.%s.all.write_misses", caches[c].cache);
		json_int_t wmiss = jint(total, key);
		snprintf(key, sizeof(key), "caches.%s.all.writebacks", caches[c].cache);
		json_int_t wb = jint(total, key);
		assert_true(reads > 0);
		assert_int_equal(jint(lru, "reads"), reads);
		assert_int_equal(jint(lru, "writes"), writes);
		assert_int_equal(jint(lru, "read_misses"), rmiss);
		assert_int_equal(jint(lru, "write_misses"), wmiss);
		assert_int_equal(jint(lru, "writebacks"), wb);
		/* nothing beats OPT */
		assert_true(jint(opt, "misses") <= jint(lru, "misses"));
		assert_int_equal(jint(opt, "accesses"), reads + writes);
		json_decref(sim);
	}
	json_decref(root);
	/* a policy that needs the future is refused by run, with a hint */
	snprintf(path, sizeof(path), "%s/opt.json", tmpdir);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs("{\"caches\": {\"l2\": {\"policy\": \"opt\"}}}\n", f);
	fclose(f);
	snprintf(args, sizeof(args), "run workloads/sprites-2d.json --config '%s' --frames 1 "
		 "--out '%s/optrun' --quiet", path, tmpdir);
	assert_int_equal(run(args, err), 2);
	char *msg = tsr_test_read_file(err);
	assert_non_null(strstr(msg, "cachesim"));
	free(msg);
	/* an unknown cache name for --record-trace is a usage error, and no trace is left */
	snprintf(args, sizeof(args), "run workloads/sprites-2d.json --frames 1 --out '%s/x' "
		 "--quiet --record-trace l3='%s/l3.trace'", tmpdir, tmpdir);
	assert_int_equal(run(args, err), 2);
	msg = tsr_test_read_file(err);
	assert_non_null(strstr(msg, "l3"));
	free(msg);
	snprintf(path, sizeof(path), "%s/l3.trace", tmpdir);
	assert_false(exists(path));
}

/*
 * Run = replay for every shipped configuration's L2 (issue 12 item 5): a
 * one-frame run on a small screen records the L2's input, and cachesim
 * with the L2's geometry, policy and write-allocate mode gives exactly the
 * run's L2 counters. The L2 is shrunk to 16 KiB so that its sets fill and
 * the policy decides victims (at 1 MiB a small frame evicts nothing and
 * any policy would match); tcor-l2 needs the trace's Parameter Buffer
 * metadata and tile markers for that.
 */
static void test_replay_every_config(void **state)
{
	(void)state;
	char args[2048], err[512], out[512], path[512];
	snprintf(err, sizeof(err), "%s/err.txt", tmpdir);
	snprintf(out, sizeof(out), "%s/out.txt", tmpdir);
	DIR *d = opendir(TSR_SOURCE_DIR "/configs");
	assert_non_null(d);
	struct dirent *e;
	int checked = 0, tcor = 0;
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
			continue;
		/* the shared last level: "l2", or "llc" in the GSPC configurations */
		snprintf(path, sizeof(path), "%s/configs/%s", TSR_SOURCE_DIR, e->d_name);
		json_t *file = json_load_file(path, 0, NULL);
		assert_non_null(file);
		const char *last = json_object_get(json_object_get(file, "caches"), "llc") ? "llc"
											  : "l2";
		json_decref(file);
		snprintf(args, sizeof(args),
			 "run workloads/glmark-scene.json --config 'configs/%s' --frames 1 "
			 "--set screen.width=256 --set screen.height=128 "
			 "--set caches.%s.size_bytes=16384 --out '%s/every' --quiet "
			 "--record-trace %s='%s/every.trace'", e->d_name, last, tmpdir, last, tmpdir);
		assert_int_equal(run(args, err), 0);
		snprintf(path, sizeof(path), "%s/every/stats.json", tmpdir);
		json_error_t je;
		json_t *root = json_load_file(path, 0, &je);
		assert_non_null(root);
		json_t *l2cfg = json_object_get(json_object_get(json_object_get(root, "config"),
								"caches"), last);
		if (!l2cfg) {  /* a configuration without an L2: nothing to replay */
			json_decref(root);
			continue;
		}
		const char *policy = json_string_value(json_object_get(l2cfg, "policy"));
		int fow = json_is_true(json_object_get(l2cfg, "fetch_on_write"));
		assert_string_equal(json_string_value(json_object_get(l2cfg, "write_policy")),
				    "write-back");
		tcor += policy && strcmp(policy, "tcor-l2") == 0;
		snprintf(args, sizeof(args),
			 "cachesim '%s/every.trace' --size %lld --ways %lld --line %lld "
			 "--policy '%s'%s --json", tmpdir,
			 (long long)jint(l2cfg, "size_bytes"), (long long)jint(l2cfg, "ways"),
			 (long long)jint(l2cfg, "line_bytes"), policy ? policy : "lru",
			 fow ? " --fetch-on-write" : "");
		assert_int_equal(run_out(args, out, err), 0);
		json_t *sim = json_load_file(out, 0, &je);
		assert_non_null(sim);
		json_t *rep = json_object_get(json_array_get(json_object_get(sim, "policies"), 0),
					      "total");
		json_t *l2 = json_object_get(json_object_get(json_object_get(json_object_get(
						     root, "total"), "caches"), last), "all");
		static const char *const keys[] = {"reads", "writes", "read_misses",
						   "write_misses", "writebacks"};
		assert_true(jint(l2, "reads") > 0);
		assert_true(jint(l2, "read_misses") > 0);
		for (int k = 0; k < 5; k++) {
			if (jint(rep, keys[k]) != jint(l2, keys[k]))
				fail_msg("%s: L2 %s: run %lld, replay %lld", e->d_name, keys[k],
					 (long long)jint(l2, keys[k]), (long long)jint(rep, keys[k]));
		}
		json_decref(sim);
		json_decref(root);
		checked++;
	}
	closedir(d);
	assert_true(checked >= 13);
	assert_true(tcor >= 3);  /* tcor-64k, tcor-128k, tcor-l2-only */
}

/*
 * Issue 12 item 3: resources bounded before any work starts. Each
 * refusal is one line naming the option or key and the limit, with the
 * exit code of its kind (2 usage, 1 runtime), and leaves no output.
 */
static void test_resource_limits(void **state)
{
	(void)state;
	char args[2048], err[512], out[512];
	snprintf(err, sizeof(err), "%s/err.txt", tmpdir);
	snprintf(out, sizeof(out), "%s/out.txt", tmpdir);
	static const struct {
		const char *args;
		int rc;
		const char *msg;
	} cases[] = {
		{"cachesim tests/data/trace-basic.txt --size 1G --ways full --policy lru", 2,
		 "--ways full is 16777216 ways, more than the limit of 16384"},
		{"cachesim tests/data/trace-basic.txt --size 1M --ways 16777216 --policy lru", 2,
		 "more than the limit of 16384"},
		{"cachesim tests/data/trace-basic.txt --size 1M --ways 8 --policy lru "
		 "--max-records 5", 1, "'tests/data/trace-basic.txt' has more than 5 records"},
		{"cachesim tests/data/trace-basic.txt --size 1M --ways 8 --policy lru "
		 "--max-records x", 2, "--max-records"},
		{"cachesim tests/data/trace-basic.txt --size 1M --ways 8 --policy lru "
		 "--threads 3", 2, "invalid --threads (1 or 2) '3'"},
		{"cachesim tests/data/trace-basic.txt --size 1M --ways 8 --policy lru "
		 "--max-records 5 --threads 2", 1, "has more than 5 records"},
		{"analyze reuse tests/data/trace-basic.txt --max-records 3", 1, "more than 3 records"},
		{"run workloads/sprites-2d.json --frames 1 --set screen.width=16384 "
		 "--set screen.height=8192 --quiet --out '%s/lim'", 2,
		 "more than the limit of 67108864 pixels"},
		{"run workloads/sprites-2d.json --frames 100001 --quiet --out '%s/lim'", 2,
		 "1 to 100000"},
		{"run workloads/sprites-2d.json --frames 1 --set caches.l2.ways=32768 "
		 "--quiet --out '%s/lim'", 2, "caches.l2.ways"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(args, sizeof(args), cases[i].args, tmpdir);
		int rc = run_out(args, out, err);
		char *msg = tsr_test_read_file(err);
		assert_non_null(msg);
		if (rc != cases[i].rc || !strstr(msg, cases[i].msg))
			fail_msg("'%s': exit %d, stderr \"%s\"", args, rc, msg);
		free(msg);
	}
	/* memory: structures over the budget are errors, not an OOM kill */
	snprintf(args, sizeof(args),
		 "cachesim tests/data/trace-basic.txt --size 1G --ways 8 --policy lru");
	setenv("TESSERA_MEMORY_LIMIT", "16M", 1);
	int rc = run_out(args, out, err);
	char *msg = tsr_test_read_file(err);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(msg, "the tag store of cache 'cachesim' needs"));
	assert_non_null(strstr(msg, "memory limit of 16.0 MiB (TESSERA_MEMORY_LIMIT)"));
	free(msg);
	snprintf(args, sizeof(args),
		 "run workloads/sprites-2d.json --frames 1 --set screen.width=4096 "
		 "--set screen.height=4096 --quiet --out '%s/lim'", tmpdir);
	rc = run_out(args, out, err);
	unsetenv("TESSERA_MEMORY_LIMIT");
	msg = tsr_test_read_file(err);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(msg, "the frame buffer pair"));
	free(msg);
	snprintf(args, sizeof(args), "%s/lim", tmpdir);
	assert_false(exists(args));
}

/*
 * TCOR on a real workload: the Attribute Cache sees one write per binned
 * primitive and one read per PMD, every miss reads the primitive's
 * attributes from the L2, the default output queue never stalls, and the
 * image equals the baseline's (the caches change traffic, not pixels).
 */
static void test_tcor_run(void **state)
{
	(void)state;
	char args[2048], err[512], path[512];
	snprintf(err, sizeof(err), "%s/err.txt", tmpdir);
	static const char *const cfgs[] = {"tcor-table1", "tcor-64k"};
	json_int_t l2_pb[2];
	for (int k = 0; k < 2; k++) {
		snprintf(args, sizeof(args),
			 "run workloads/glmark-scene.json --config configs/%s.json --frames 2 "
			 "--out '%s/%s' --quiet", cfgs[k], tmpdir, cfgs[k]);
		assert_int_equal(run(args, err), 0);
		snprintf(path, sizeof(path), "%s/%s/stats.json", tmpdir, cfgs[k]);
		json_error_t je;
		json_t *root = json_load_file(path, 0, &je);
		assert_non_null(root);
		json_t *t = json_object_get(root, "total");
		l2_pb[k] = jint(t, "caches.l2.pb_attributes.reads") +
			   jint(t, "caches.l2.pb_attributes.writes");
		if (k == 1) {
			assert_int_equal(jint(t, "attribute_cache.writes"),
					 jint(t, "geometry.primitives_binned"));
			assert_int_equal(jint(t, "attribute_cache.reads"), jint(t, "tiling.pmds_read"));
			assert_int_equal(jint(t, "attribute_cache.read_hits") +
					 jint(t, "attribute_cache.read_misses"),
					 jint(t, "attribute_cache.reads"));
			assert_int_equal(jint(t, "attribute_cache.stalls"), 0);
			assert_true(jint(t, "attribute_cache.write_bypasses") > 0);
			/* every attribute is one 48-byte access inside one L2 line */
			assert_int_equal(jint(t, "caches.l2.pb_attributes.reads"),
					 jint(t, "attribute_cache.lower_reads"));
			/* PB-Attributes no longer go through the Tile Cache */
			json_t *tile = json_object_get(json_object_get(t, "caches"), "tile");
			assert_null(json_object_get(tile, "pb_attributes"));
			assert_true(jint(t, "caches.l2.all.discards") > 0);
		}
		json_decref(root);
	}
	/* fewer Parameter Buffer accesses reach the L2 (TCOR V-B: -33.5% on average) */
	assert_true(l2_pb[1] < l2_pb[0]);
	char cmd[1400];
	snprintf(cmd, sizeof(cmd), "cmp -s '%s/tcor-table1/frame-0001.png' '%s/tcor-64k/frame-0001.png'",
		 tmpdir, tmpdir);
	assert_int_equal(system(cmd), 0);
}

/*
 * Runs `tessera experiment ARGS --csv <tmp>/<name>.csv` (exit 0 expected)
 * and returns the CSV's text (free it) and its number of lines.
 */
static char *experiment_csv(const char *args, const char *name, int *lines)
{
	char cmd[1024], err[512], out[512], path[512];
	snprintf(err, sizeof(err), "%s/err.txt", tmpdir);
	snprintf(out, sizeof(out), "%s/%s.txt", tmpdir, name);
	snprintf(path, sizeof(path), "%s/%s.csv", tmpdir, name);
	snprintf(cmd, sizeof(cmd), "experiment %s --csv '%s'", args, path);
	assert_int_equal(run_out(cmd, out, err), 0);
	char *csv = tsr_test_read_file(path);
	assert_non_null(csv);
	*lines = 0;
	for (char *p = csv; *p; p++)
		*lines += *p == '\n';
	return csv;
}

/*
 * `tessera experiment` from the command line (the values are checked
 * in-process by test 092): a CSV with the header and one row per
 * configuration, a workload by shipped name, a bad name (exit 2), a missing
 * workload (one line naming it, exit 1, no CSV).
 */
static void test_experiment_cli(void **state)
{
	(void)state;
	char args[1024], err[512], out[512], path[512];
	int lines;
	char *csv = experiment_csv("tcor --frames 1 --workload sprites-2d "
				   "--set screen.width=256 --set screen.height=128", "exp", &lines);
	snprintf(err, sizeof(err), "%s/err.txt", tmpdir);
	snprintf(out, sizeof(out), "%s/exp.txt", tmpdir);
	snprintf(path, sizeof(path), "%s/exp.csv", tmpdir);
	static const char header[] = "workload,config,pb_l2_accesses,pb_dram_bytes,dram_bytes,"
				     "pb_l2_change_pct,pb_dram_change_pct,dram_change_pct,cycles,"
				     "energy_nj,fps_change_pct,memory_energy_change_pct,"
				     "energy_change_pct,tf_prims_per_cycle,tf_throughput_change_pct\n";
	assert_memory_equal(csv, header, strlen(header));
	assert_int_equal(lines, 7);  /* header + 6 configurations */
	assert_non_null(strstr(csv, "\nsprites-2d,tcor-64k,"));
	free(csv);
	char *text = tsr_test_read_file(out);
	assert_non_null(text);
	assert_non_null(strstr(text, "Parameter Buffer footprint"));
	free(text);
	/* workloads: one row per workload, the papers' ranges in the report */
	csv = experiment_csv("workloads --frames 1 --workload sprites-2d --workload ui-2d "
			     "--set screen.width=256 --set screen.height=128", "char", &lines);
	static const char char_header[] = "workload,frames,primitives_per_frame,binned_per_frame,"
		"tiles_per_binned_primitive,attributes_per_primitive,pb_footprint_mib,"
		"texture_footprint_mib,fragments_per_pixel,empty_tiles_pct,dram_mib_per_frame,"
		"dram_pb_pct,dram_texture_pct,dram_color_pct,dram_vertex_index_pct,"
		"dram_instruction_pct,dram_other_pct,fs_instructions_per_fragment,"
		"vs_instructions_per_vertex,texture_instructions_per_fragment\n";
	assert_memory_equal(csv, char_header, strlen(char_header));
	assert_int_equal(lines, 3);  /* header + 2 workloads */
	assert_non_null(strstr(csv, "\nsprites-2d,1,"));
	assert_non_null(strstr(csv, "\nui-2d,1,"));
	free(csv);
	snprintf(out, sizeof(out), "%s/char.txt", tmpdir);
	text = tsr_test_read_file(out);
	assert_non_null(text);
	assert_non_null(strstr(text, "papers' ranges"));
	assert_non_null(strstr(text, "boustrophedonic Table I"));
	free(text);
	snprintf(out, sizeof(out), "%s/exp.txt", tmpdir);
	assert_int_equal(run_out("experiment nonsense", out, err), 2);
	/* a bad workload: one line naming it, exit 1, no CSV */
	assert_int_equal(unlink(path), 0);
	snprintf(args, sizeof(args), "experiment re --frames 3 --workload workloads/no-such.json "
		 "--csv '%s'", path);
	assert_int_equal(run_out(args, out, err), 1);
	char *msg = tsr_test_read_file(err);
	assert_non_null(msg);
	assert_non_null(strstr(msg, "no-such.json"));
	assert_int_equal(strchr(msg, '\n') - msg + 1, (long)strlen(msg));
	free(msg);
	assert_false(exists(path));
}

static void test_determinism(void **state)
{
	(void)state;
	char args[1024], err[512], p1[512], p2[512];
	snprintf(err, sizeof(err), "%s/err.txt", tmpdir);
	for (int i = 0; i < 2; i++) {
		snprintf(args, sizeof(args),
			 "run workloads/sprites-2d.json --config tests/data/small-gpu.json --frames 3 --out '%s/d%d' --quiet",
			 tmpdir, i);
		assert_int_equal(run(args, err), 0);
	}
	snprintf(p1, sizeof(p1), "%s/d0/stats.json", tmpdir);
	snprintf(p2, sizeof(p2), "%s/d1/stats.json", tmpdir);
	char *a = tsr_test_read_file(p1), *b = tsr_test_read_file(p2);
	assert_non_null(a);
	assert_non_null(b);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

static void pixel(const unsigned char *img, int w, int x, int y, int rgb[3])
{
	for (int c = 0; c < 3; c++)
		rgb[c] = img[((size_t)y * w + x) * 4 + c];
}

static void test_known_image(void **state)
{
	(void)state;
	char args[1024], err[512], path[512];
	snprintf(err, sizeof(err), "%s/err.txt", tmpdir);
	snprintf(args, sizeof(args),
		 "run tests/data/two-quads.json --config tests/data/small-gpu.json --out '%s/img' --quiet",
		 tmpdir);
	assert_int_equal(run(args, err), 0);
	snprintf(path, sizeof(path), "%s/img/frame-0001.png", tmpdir);
	int w, h, n;
	unsigned char *img = stbi_load(path, &w, &h, &n, 4);
	assert_non_null(img);
	assert_int_equal(w, 256);
	assert_int_equal(h, 128);
	int rgb[3];
	pixel(img, w, 64, 64, rgb);            /* red quad */
	assert_int_equal(rgb[0], 255);
	assert_int_equal(rgb[1], 0);
	assert_int_equal(rgb[2], 0);
	pixel(img, w, 192, 64, rgb);           /* green quad in front of the white one */
	assert_int_equal(rgb[0], 0);
	assert_int_equal(rgb[1], 255);
	assert_int_equal(rgb[2], 0);
	pixel(img, w, 233, 64, rgb);           /* white quad behind, visible at its rim */
	assert_int_equal(rgb[0], 255);
	assert_int_equal(rgb[1], 255);
	assert_int_equal(rgb[2], 255);
	pixel(img, w, 2, 2, rgb);              /* clear color */
	assert_int_equal(rgb[0], 0);
	assert_int_equal(rgb[1], 0);
	assert_int_equal(rgb[2], 255);
	/* the textured crate is neither clear color nor flat: texels vary */
	int distinct = 0, prev[3] = {-1, -1, -1};
	for (int x = 116; x < 140; x++) {
		pixel(img, w, x, 8, rgb);
		if (rgb[0] != prev[0] || rgb[1] != prev[1] || rgb[2] != prev[2])
			distinct++;
		memcpy(prev, rgb, sizeof(prev));
		assert_false(rgb[0] == 0 && rgb[1] == 0 && rgb[2] == 255);
	}
	assert_true(distinct > 4);
	stbi_image_free(img);
	/* the white quad lost quads to Early-Z behind the green one */
	snprintf(path, sizeof(path), "%s/img/stats.json", tmpdir);
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	assert_non_null(root);
	assert_true(jint(json_object_get(root, "total"), "raster.quads_early_z_killed") > 0);
	json_decref(root);
}

/* Runs a failing command; checks exit code, message and no output left. */
static void expect_failure(const char *args_fmt, const char *arg, int code,
			   const char *needle)
{
	char args[2048], err[512], out[512], cmd[1024];
	snprintf(err, sizeof(err), "%s/err.txt", tmpdir);
	snprintf(out, sizeof(out), "%s/bad", tmpdir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", out);
	assert_int_equal(system(cmd), 0);
	char a[1024];
	snprintf(a, sizeof(a), args_fmt, arg);
	snprintf(args, sizeof(args), "%s --out '%s' --quiet", a, out);
	assert_int_equal(run(args, err), code);
	char *msg = tsr_test_read_file(err);
	assert_non_null(msg);
	if (!strstr(msg, needle))
		fail_msg("stderr '%s' does not mention '%s'", msg, needle);
	/* exactly one line */
	int nl = 0;
	for (char *p = msg; *p; p++)
		nl += *p == '\n';
	assert_int_equal(nl, 1);
	free(msg);
	char p[600];
	snprintf(p, sizeof(p), "%s/stats.json", out);
	assert_false(exists(p));
	snprintf(p, sizeof(p), "%s/frames.csv", out);
	assert_false(exists(p));
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_bad_input(void **state)
{
	(void)state;
	char path[512], text[2048];
	expect_failure("run %s", "workloads/no-such-workload.json", 1, "no-such-workload.json");
	expect_failure("run workloads/sprites-2d.json --config %s", "configs/missing.json", 1,
		       "missing.json");
	/* unknown config key */
	snprintf(path, sizeof(path), "%s/badkey.json", tmpdir);
	write_file(path, "{\"caches\": {\"l2\": {\"sise_bytes\": 1024}}}");
	expect_failure("run workloads/sprites-2d.json --config %s", path, 2, "caches.l2.sise_bytes");
	/* impossible geometry */
	snprintf(path, sizeof(path), "%s/badgeom.json", tmpdir);
	write_file(path, "{\"caches\": {\"texture\": {\"size_bytes\": 3000, \"ways\": 4}}}");
	expect_failure("run workloads/sprites-2d.json --config %s", path, 2, "caches.texture");
	/* malformed JSON */
	snprintf(path, sizeof(path), "%s/malformed.json", tmpdir);
	write_file(path, "{\"version\": 1, \"passes\": [");
	expect_failure("run %s", path, 1, "malformed.json");
	/* corrupt texture */
	char png[512];
	snprintf(png, sizeof(png), "%s/corrupt.png", tmpdir);
	write_file(png, "this is not a png file at all");
	snprintf(path, sizeof(path), "%s/corrupt-tex.json", tmpdir);
	snprintf(text, sizeof(text),
		 "{\"version\": 1, \"frames\": 1, \"passes\": [{\"name\": \"main\", \"target\": \"framebuffer\","
		 "\"camera\": {\"eye\": [0,0,3], \"target\": [0,0,0]},"
		 "\"objects\": [{\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"%s\"}}]}]}",
		 png);
	write_file(path, text);
	expect_failure("run %s", path, 1, "corrupt.png");
	/* missing mesh */
	snprintf(path, sizeof(path), "%s/missing-mesh.json", tmpdir);
	write_file(path,
		   "{\"version\": 1, \"frames\": 1, \"passes\": [{\"name\": \"main\", \"target\": \"framebuffer\","
		   "\"camera\": {\"eye\": [0,0,3], \"target\": [0,0,0]},"
		   "\"objects\": [{\"mesh\": \"/nonexistent/model.obj\"}]}]}");
	expect_failure("run %s", path, 1, "model.obj");
	/* a glTF whose indices are out of range */
	snprintf(path, sizeof(path), "%s/oor.json", tmpdir);
	write_file(path,
		   "{\"version\": 1, \"frames\": 1, \"passes\": [{\"name\": \"main\", \"target\": \"framebuffer\","
		   "\"camera\": {\"eye\": [0,0,3], \"target\": [0,0,0]},"
		   "\"objects\": [{\"mesh\": \"/usr/share/assimp/models/glTF2/IndexOutOfRange/IndexOutOfRange.gltf\"}]}]}");
	expect_failure("run %s", path, 1, "IndexOutOfRange.gltf");
	/* usage errors */
	expect_failure("run workloads/sprites-2d.json --frames %s", "zero", 2, "--frames");
	expect_failure("run workloads/sprites-2d.json %s", "--bogus", 2, "--bogus");
}

/* Runs args (small workload and config added) expecting exit code; returns stderr (free it). */
static char *small_run(const char *args, int code)
{
	char err[512], full[10240];
	snprintf(err, sizeof(err), "%s/err.txt", tmpdir);
	snprintf(full, sizeof(full), "%s%s", args, strncmp(args, "run ", 4) ? "" : " --quiet");
	int rc = run(full, err);
	char *msg = tsr_test_read_file(err);
	assert_non_null(msg);
	if (rc != code)
		fail_msg("'%s' exited %d, not %d: %s", args, rc, code, msg);
	return msg;
}

static void expect_msg(char *msg, const char *needle)
{
	if (!strstr(msg, needle))
		fail_msg("stderr '%s' does not mention '%s'", msg, needle);
	free(msg);
}

/* Files in dir (not . and ..), -1 if it cannot be read. */
static int count_files(const char *dir)
{
	char cmd[1024], out[512];
	snprintf(out, sizeof(out), "%s/count.txt", tmpdir);
	snprintf(cmd, sizeof(cmd), "ls -A '%s' 2>/dev/null | wc -l > '%s'", dir, out);
	assert_int_equal(system(cmd), 0);
	char *t = tsr_test_read_file(out);
	int n = t ? atoi(t) : -1;
	free(t);
	return n;
}

/* issue 12: outputs all or nothing, collisions found before the run, valid UTF-8 JSON */
static void test_outputs_all_or_nothing(void **state)
{
	(void)state;
	const char *w = "tests/data/two-quads.json --config tests/data/small-gpu.json";
	char args[2048], d[600], p[700];
	/* stats.json is a folder: exit 2 before the run, nothing else written */
	snprintf(d, sizeof(d), "%s/o-dir", tmpdir);
	snprintf(p, sizeof(p), "%s/stats.json", d);
	assert_int_equal(mkdir(d, 0777), 0);
	assert_int_equal(mkdir(p, 0777), 0);
	snprintf(args, sizeof(args), "run %s --out '%s' --dump-frames all", w, d);
	expect_msg(small_run(args, 2), "stats.json' is a folder");
	assert_int_equal(count_files(d), 1);
	/* frames.csv a folder beside an old stats.json: the old file stays */
	snprintf(d, sizeof(d), "%s/o-csv", tmpdir);
	assert_int_equal(mkdir(d, 0777), 0);
	snprintf(p, sizeof(p), "%s/frames.csv", d);
	assert_int_equal(mkdir(p, 0777), 0);
	snprintf(p, sizeof(p), "%s/stats.json", d);
	write_file(p, "old");
	snprintf(args, sizeof(args), "run %s --out '%s'", w, d);
	expect_msg(small_run(args, 2), "frames.csv' is a folder");
	assert_int_equal(count_files(d), 2);
	char *old = tsr_test_read_file(p);
	assert_string_equal(old, "old");
	free(old);
	/* a trace named like stats.json, or the same file twice: both paths named, nothing left */
	snprintf(d, sizeof(d), "%s/o-same", tmpdir);
	snprintf(args, sizeof(args), "run %s --out '%s' --record-trace l2='%s/stats.json'", w, d, d);
	expect_msg(small_run(args, 2), "are the same file");
	assert_false(exists(d));
	snprintf(args, sizeof(args),
		 "run %s --out '%s' --record-trace l2='%s/a.trace' --record-trace tile='%s/./a.trace'",
		 w, d, tmpdir, tmpdir);
	expect_msg(small_run(args, 2), "a.trace' are the same file");
	/* one cache recorded twice would leave the first trace empty */
	snprintf(args, sizeof(args),
		 "run %s --out '%s' --record-trace l2='%s/a.trace' --record-trace l2='%s/b.trace'",
		 w, d, tmpdir, tmpdir);
	expect_msg(small_run(args, 2), "cache 'l2' is recorded twice");
	snprintf(p, sizeof(p), "%s/a.trace", tmpdir);
	assert_false(exists(p));
	/* a trace into the --out folder that does not exist yet */
	snprintf(d, sizeof(d), "%s/o-new", tmpdir);
	snprintf(args, sizeof(args), "run %s --out '%s' --record-trace l2='%s/l2.trace'", w, d, d);
	free(small_run(args, 0));
	snprintf(p, sizeof(p), "%s/l2.trace", d);
	assert_true(exists(p));
	assert_int_equal(count_files(d), 4);  /* stats.json, frames.csv, frame-0001.png, l2.trace */
	/* --dump-frames checked against the run */
	snprintf(d, sizeof(d), "%s/o-dump", tmpdir);
	snprintf(args, sizeof(args), "run %s --out '%s' --dump-frames 5", w, d);
	expect_msg(small_run(args, 2), "--dump-frames '5': frame 5 is past the last frame");
	snprintf(args, sizeof(args), "run %s --out '%s' --dump-frames ,", w, d);
	expect_msg(small_run(args, 2), "item '' is not a frame number");
	snprintf(args, sizeof(args), "run %s --out '%s' --dump-frames 1,x", w, d);
	expect_msg(small_run(args, 2), "item 'x'");
	assert_false(exists(d));
	/* a workload path that is not valid UTF-8: stats.json keeps its workload (U+FFFD) */
	char wl[600];
	snprintf(wl, sizeof(wl), "%s/w\xff.json", tmpdir);
	char *text = tsr_test_read_file(TSR_SOURCE_DIR "/tests/data/two-quads.json");
	assert_non_null(text);
	write_file(wl, text);
	free(text);
	snprintf(d, sizeof(d), "%s/o-utf8", tmpdir);
	snprintf(args, sizeof(args),
		 "run '%s' --config tests/data/small-gpu.json --out '%s' --record-trace l2='%s/t\xfe.trace'",
		 wl, d, d);
	free(small_run(args, 0));
	snprintf(p, sizeof(p), "%s/stats.json", d);
	json_error_t je;
	json_t *root = json_load_file(p, 0, &je);
	assert_non_null(root);
	const char *wp = json_string_value(json_object_get(json_object_get(root, "workload"), "path"));
	assert_non_null(wp);
	assert_non_null(strstr(wp, "w\xef\xbf\xbd.json"));
	json_decref(root);
	/* cachesim --json on that trace (path not UTF-8, description neither): valid JSON */
	char out[600], err[600];
	snprintf(out, sizeof(out), "%s/cs.json", tmpdir);
	snprintf(err, sizeof(err), "%s/err.txt", tmpdir);
	snprintf(args, sizeof(args), "cachesim '%s/t\xfe.trace' --size 4K --ways 4 --policy lru --json", d);
	assert_int_equal(run_out(args, out, err), 0);
	root = json_load_file(out, 0, &je);
	if (!root)
		fail_msg("cachesim --json is not valid JSON: %s", je.text);
	assert_non_null(strstr(json_string_value(json_object_get(root, "description")), "\xef\xbf\xbd"));
	json_decref(root);
}

/* issue 12: messages that say what is wrong, exit codes as the README's table */
static void test_clear_messages(void **state)
{
	(void)state;
	const char *w = "tests/data/two-quads.json --config tests/data/small-gpu.json";
	char args[8192], d[600], p[700];
	/* a folder as config or workload */
	snprintf(args, sizeof(args), "run tests/data/two-quads.json --config tests/data --out '%s/o'",
		 tmpdir);
	expect_msg(small_run(args, 1), "is a folder, not a configuration file");
	snprintf(args, sizeof(args), "run tests/data --out '%s/o'", tmpdir);
	expect_msg(small_run(args, 1), "is a folder, not a workload file");
	/* a corrupt config and a corrupt workload: both runtime errors (1), as the README says */
	snprintf(p, sizeof(p), "%s/corrupt.json", tmpdir);
	write_file(p, "{\"caches\": ");
	snprintf(args, sizeof(args), "run %s --config '%s' --out '%s/o'",
		 "tests/data/two-quads.json", p, tmpdir);
	expect_msg(small_run(args, 1), "malformed JSON");
	snprintf(args, sizeof(args), "run '%s' --out '%s/o'", p, tmpdir);
	expect_msg(small_run(args, 1), "malformed JSON");
	/* a 5000-character output path: shortened, the explanation kept */
	int n = snprintf(d, sizeof(d), "%s/", tmpdir);
	char *longp = malloc(5200);
	assert_non_null(longp);
	memcpy(longp, d, (size_t)n);
	memset(longp + n, 'x', 5000);
	longp[n + 5000] = '\0';
	snprintf(args, sizeof(args), "run %s --out '%s'", w, longp);
	char *msg = small_run(args, 1);
	assert_true(strlen(msg) < 300);
	assert_non_null(strstr(msg, "xxx...xxx"));
	expect_msg(msg, "name too long");
	free(longp);
	/* --ways full smaller than a line */
	snprintf(args, sizeof(args), "cachesim tests/data/trace-basic.txt --size 32 --ways full "
		 "--line 64 --policy lru");
	expect_msg(small_run(args, 2), "smaller than one 64-byte line");
	/* a policy spec past 63 characters is refused, not truncated */
	snprintf(args, sizeof(args), "cachesim tests/data/trace-basic.txt --size 4K --ways 4 "
		 "--policy srrip:bits=2,seed=1234567890123456789012345678901234567890123456789");
	expect_msg(small_run(args, 2), "longer than 63 characters");
}

/*
 * Keys the mode ignores warn once each, those ignored for the same reason
 * on one line, and the run goes on (exit 0).
 */
static void test_ignored_key_warnings(void **state)
{
	(void)state;
	char args[2048];
	snprintf(args, sizeof(args), "run tests/data/two-quads.json --config tests/data/small-gpu.json "
		 "--frames 1 --out '%s/warn' --set dram.latency_cycles=400 --set timing.gpu_mhz=500 "
		 "--set timing.warp_slots=8", tmpdir);
	char *msg = small_run(args, 0);
	/* one line for dram.latency_cycles, one for the two timing keys together */
	assert_non_null(strstr(msg, "tessera: warning: dram.latency_cycles is ignored in every mode"));
	assert_non_null(strstr(msg, "tessera: warning: timing.gpu_mhz and timing.warp_slots are "
				    "ignored in functional mode"));
	size_t lines = 0;
	for (const char *p = msg; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 2);
	free(msg);
	/* the defaults warn about nothing */
	snprintf(args, sizeof(args), "run tests/data/two-quads.json --config tests/data/small-gpu.json "
		 "--frames 1 --out '%s/nowarn'", tmpdir);
	msg = small_run(args, 0);
	assert_null(strstr(msg, "warning"));
	free(msg);
}

/* `run --frames LIST` (fast-forward), `run --sample` and `tessera sample`: the outputs cover
 * the frames simulated; the estimate's stats.json says how it was made */
static void test_frames_and_sample(void **state)
{
	(void)state;
	static const char small[] = "camera-pan --set screen.width=160 --set screen.height=96";
	char args[2048], d[512], p[600];
	snprintf(d, sizeof(d), "%s/o-frames", tmpdir);
	snprintf(args, sizeof(args), "run %s --frames 3-4,7 --dump-frames all --out '%s'", small,
		 d);
	free(small_run(args, 0));
	assert_int_equal(count_files(d), 5);  /* stats.json, frames.csv, frames 3, 4 and 7 */
	snprintf(p, sizeof(p), "%s/frame-0007.png", d);
	assert_true(exists(p));
	snprintf(p, sizeof(p), "%s/stats.json", d);
	json_t *root = json_load_file(p, 0, NULL);
	assert_non_null(root);
	assert_int_equal(jint(root, "workload.frames"), 3);
	assert_int_equal(jint(root, "workload.fast_forwarded_frames"), 5);
	assert_string_equal(json_string_value(json_object_get(json_object_get(root, "workload"),
							      "selected_frames")), "3-4,7");
	json_t *frames = json_object_get(root, "frames");
	assert_int_equal(json_array_size(frames), 3);
	assert_int_equal(jint(json_array_get(frames, 2), "frame"), 7);
	json_decref(root);
	snprintf(args, sizeof(args), "run %s --frames 0 --out '%s'", small, d);
	expect_msg(small_run(args, 2), "invalid --frames '0'");
	snprintf(args, sizeof(args), "run %s --frames 4-2 --out '%s'", small, d);
	expect_msg(small_run(args, 2), "ends before it begins");
	/* --sample 2 over 6 frames: 2 simulated, the totals estimated */
	snprintf(d, sizeof(d), "%s/o-sample", tmpdir);
	snprintf(args, sizeof(args), "run %s --frames 6 --sample 2 --out '%s'", small, d);
	free(small_run(args, 0));
	snprintf(p, sizeof(p), "%s/stats.json", d);
	root = json_load_file(p, 0, NULL);
	assert_non_null(root);
	assert_int_equal(jint(root, "workload.frames"), 2);
	assert_int_equal(jint(root, "sample.frames"), 6);
	assert_int_equal(jint(root, "sample.clusters"), 2);
	json_t *reps = json_object_get(json_object_get(root, "sample"), "representatives");
	assert_int_equal(json_array_size(reps), 2);
	assert_int_equal(jint(json_array_get(reps, 0), "weight") +
			 jint(json_array_get(reps, 1), "weight"), 6);
	assert_non_null(json_object_get(json_object_get(json_object_get(root, "sample"), "bounds"),
					"raster.quads_shaded"));
	json_decref(root);
	snprintf(args, sizeof(args), "run %s --sample 0 --out '%s'", small, d);
	expect_msg(small_run(args, 2), "invalid --sample '0'");
	/* tessera sample: a line per cluster, and the JSON */
	snprintf(p, sizeof(p), "%s/sample.json", tmpdir);
	snprintf(args, sizeof(args), "sample %s --frames 6 --clusters 3 --out '%s'", small, p);
	free(small_run(args, 0));
	root = json_load_file(p, 0, NULL);
	assert_non_null(root);
	assert_int_equal(jint(root, "frames"), 6);
	assert_int_equal(json_array_size(json_object_get(root, "representatives")), 3);
	json_decref(root);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_workload_invariants),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_record_and_replay),
		cmocka_unit_test(test_replay_every_config),
		cmocka_unit_test(test_resource_limits),
		cmocka_unit_test(test_tcor_run),
		cmocka_unit_test(test_experiment_cli),
		cmocka_unit_test(test_known_image),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_outputs_all_or_nothing),
		cmocka_unit_test(test_clear_messages),
		cmocka_unit_test(test_ignored_key_warnings),
		cmocka_unit_test(test_frames_and_sample),
	};
	return TSR_TEST_MAIN(argc, argv, tests, setup, teardown);
}
