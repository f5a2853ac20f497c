/*
 * 096-stats-texture-footprint.c - texture.footprint_lines, the opt-in
 * texture footprint (stats.texture_footprint, src/sim/footprint.c): per
 * frame it equals the distinct 64-byte texture lines an independent
 * observer (this test's own, sorted and deduplicated) sees at the caches
 * the texture route enters; every other counter is the same with the key
 * off, where the counter stays 0; the total is the sum of the frames';
 * the `workloads` experiment's texture_footprint_mib is it in MiB per
 * frame. Through the CLI: frames.csv has its column only with the key,
 * stats.json's total holds it and tsr_stats_read() gives it back, and
 * --record-trace refuses a cache the footprint observes. Small runs:
 * sprites-2d and glmark-scene at 256x128.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment/experiment.h"
#include "experiment/table.h"
#include "memory/cache.h"
#include "report/report.h"
#include "report/stats_read.h"
#include "sim/footprint.h"
#include "sim/sim.h"
#include "test_cli.h"

#define FRAMES 2

static int setup(void **state)
{
	(void)state;
	return tsr_cli_tmp_setup("tessera-footprint");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_cli_tmp_teardown();
}

/* The test's own footprint: every texture line address of a frame, kept in full. */
struct lines {
	uint64_t *v;
	size_t n, cap;
	uint64_t distinct[FRAMES];
	uint32_t frames;
};

static void lines_access(void *ctx, const struct tsr_access *a)
{
	struct lines *l = ctx;
	if (a->stream != TSR_STREAM_TEXTURE || !a->size)
		return;
	for (uint64_t x = a->addr / 64; x <= (a->addr + a->size - 1) / 64; x++) {
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 4096;
			l->v = realloc(l->v, l->cap * sizeof(*l->v));
			assert_non_null(l->v);
		}
		l->v[l->n++] = x;
	}
}

static void lines_marker(void *ctx, enum tsr_marker kind, uint64_t value)
{
	(void)ctx;
	(void)kind;
	(void)value;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* After each frame: the distinct lines of the frame, by sorting. */
static enum tsr_status lines_frame(void *ctx, struct tsr_sim *s, const struct tsr_frame_stats *fs,
				   struct tsr_error *err)
{
	(void)s;
	(void)fs;
	(void)err;
	struct lines *l = ctx;
	qsort(l->v, l->n, sizeof(*l->v), cmp_u64);
	uint64_t d = 0;
	for (size_t i = 0; i < l->n; i++)
		d += !i || l->v[i] != l->v[i - 1];
	assert_true(l->frames < FRAMES);
	l->distinct[l->frames++] = d;
	l->n = 0;
	return TSR_OK;
}

/* Per frame, with the key (opt_in) or without it: the frames' JSON and their counters. */
struct run {
	char *json[FRAMES];  /* the frame's statistics object, footprint zeroed */
	uint64_t footprint[FRAMES];
	uint64_t total_footprint;
	int observed;        /* the run observes texture0 itself */
	struct lines *own;   /* the test's count of the frame's lines, or NULL */
};

static enum tsr_status keep_frame(void *ctx, struct tsr_sim *s, const struct tsr_frame_stats *fs,
				  struct tsr_error *err)
{
	struct run *r = ctx;
	if (r->own)
		TSR_TRY(lines_frame(r->own, s, fs, err));
	struct tsr_frame_stats *copy = malloc(sizeof(*copy));
	assert_non_null(copy);
	*copy = *fs;
	r->footprint[fs->frame] = copy->texture.footprint_lines;
	copy->texture.footprint_lines = 0;  /* left out of stats.json while 0 */
	const struct tsr_gpu *g = tsr_sim_gpu(s);
	enum tsr_status st = tsr_stats_object_text(copy, tsr_gpu_memsys(g),
						   tsr_gpu_config_of(g)->mem.cores,
						   &r->json[fs->frame], err);
	free(copy);
	return st;
}

static void load(const char *workload, int opt_in, struct tsr_gpu_config *cfg,
		 struct tsr_scene **sc)
{
	static const char *const sets[] = {"screen.width=256", "screen.height=128",
					   "stats.texture_footprint=false"};
	static const char *const on[] = {"screen.width=256", "screen.height=128",
					 "stats.texture_footprint=true"};
	struct tsr_error err = {{0}};
	tsr_config_defaults(cfg);
	assert_int_equal(tsr_config_apply_sets(cfg, TSR_SOURCE_DIR "/configs/tcor-table1.json",
					       opt_in ? on : sets, 3, &err), TSR_OK);
	char path[1024];
	snprintf(path, sizeof(path), TSR_SOURCE_DIR "/workloads/%s.json", workload);
	assert_int_equal(tsr_scene_load(path, sc, &err), TSR_OK);
}

/* The workload for FRAMES frames with the key on, then off with the test's observer. */
static void check_workload(const char *workload, struct lines *own, struct run *on,
			   struct run *off)
{
	struct tsr_error err = {{0}};
	for (int opt_in = 1; opt_in >= 0; opt_in--) {
		struct tsr_gpu_config cfg;
		struct tsr_scene *sc = NULL;
		struct tsr_sim *s = NULL;
		struct run *r = opt_in ? on : off;
		load(workload, opt_in, &cfg, &sc);
		assert_int_equal(tsr_sim_open_scene(&cfg, sc, &s, &err), TSR_OK);
		struct tsr_gpu *g = tsr_sim_gpu(s);
		r->observed = tsr_sim_cache_observed(s, tsr_gpu_cache_by_name(g, "texture0"));
		assert_false(tsr_sim_cache_observed(s, tsr_gpu_cache_by_name(g, "l2")));
		if (!opt_in) {
			/* the texture route of tcor-table1: the per-core texture caches */
			const struct tsr_cache_observer obs = {lines_access, lines_marker, own};
			for (uint32_t c = 0; c < cfg.mem.cores; c++) {
				char name[32];
				snprintf(name, sizeof(name), "texture%u", c);
				tsr_cache_set_observer(tsr_gpu_cache_by_name(g, name), &obs);
			}
			r->own = own;
		}
		assert_int_equal(tsr_sim_run(s, FRAMES, keep_frame, r, &err), TSR_OK);
		r->total_footprint = tsr_sim_total(s)->texture.footprint_lines;
		tsr_sim_close(s);
		tsr_scene_destroy(sc);
	}
}

static void release(struct run *r)
{
	for (int f = 0; f < FRAMES; f++)
		free(r->json[f]);
}

/*
 * The counter against the test's own count, frame by frame, and every
 * other counter against a run without the key.
 */
static void test_counter(void **state)
{
	(void)state;
	static const char *const w[] = {"sprites-2d", "glmark-scene"};
	for (size_t k = 0; k < sizeof(w) / sizeof(w[0]); k++) {
		struct lines own = {0};
		struct run on = {0}, off = {0};
		check_workload(w[k], &own, &on, &off);
		assert_int_equal(own.frames, FRAMES);
		assert_true(on.observed);
		assert_false(off.observed);
		uint64_t sum = 0;
		for (int f = 0; f < FRAMES; f++) {
			assert_true(own.distinct[f] > 0);
			assert_int_equal(on.footprint[f], own.distinct[f]);
			assert_int_equal(off.footprint[f], 0);
			assert_string_equal(on.json[f], off.json[f]);
			sum += on.footprint[f];
		}
		assert_int_equal(on.total_footprint, sum);
		assert_int_equal(off.total_footprint, 0);
		release(&on);
		release(&off);
		free(own.v);
	}
}

/* The workloads experiment's column is the counter in MiB per frame. */
static void test_experiment_column(void **state)
{
	(void)state;
	static const char *const w[] = {"sprites-2d"};
	static const char *const sets[] = {"screen.width=256", "screen.height=128"};
	const struct tsr_xp_options o = {.frames = FRAMES, .workloads = w, .workload_count = 1,
					 .sets = sets, .set_count = 2, .jobs = 1};
	struct tsr_xp_result r;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_experiment_run(tsr_experiment_find("workloads"), &o, &r, &err),
			 TSR_OK);
	const struct tsr_table *t = tsr_xp_result_table(&r, "workloads");
	assert_non_null(t);
	struct lines own = {0};
	struct run on = {0}, off = {0};
	check_workload("sprites-2d", &own, &on, &off);
	char want[64];
	snprintf(want, sizeof(want), "%.6f",
		 (double)(on.total_footprint * 64) / FRAMES / 1048576.0);
	assert_string_equal(tsr_table_cell(t, 0, "texture_footprint_mib"), want);
	release(&on);
	release(&off);
	free(own.v);
	tsr_xp_result_release(&r);
}

/* Column `name` of frames.csv's header line in `csv`: its index, or -1. */
static int csv_column(const char *csv, const char *name)
{
	int col = 0;
	size_t n = strlen(name);
	for (const char *p = csv; *p && *p != '\n'; col++) {
		const char *e = p + strcspn(p, ",\n");
		if ((size_t)(e - p) == n && !strncmp(p, name, n))
			return col;
		p = *e == ',' ? e + 1 : e;
	}
	return -1;
}

/* tessera run: the column, stats.json and its read-back, the refused trace. */
static void test_cli(void **state)
{
	(void)state;
	const char *run = "run " TSR_SOURCE_DIR "/workloads/sprites-2d.json --config "
			  TSR_SOURCE_DIR "/configs/tcor-table1.json --frames 2 --quiet "
			  "--set screen.width=256 --set screen.height=128";
	assert_int_equal(tessera("%s --out off", run), 0);
	assert_int_equal(csv_column(slurp("off/frames.csv"), "texture.footprint_lines"), -1);
	assert_null(strstr(slurp("off/stats.json"), "footprint_lines"));
	assert_int_equal(tessera("%s --out on --set stats.texture_footprint=true", run), 0);
	const int col = csv_column(slurp("on/frames.csv"), "texture.footprint_lines");
	assert_true(col > 0);
	assert_int_equal(col, csv_column(slurp("on/frames.csv"), "texture.line_requests") + 1);

	/* the in-process counters, read back from stats.json */
	struct lines own = {0};
	struct run on = {0}, off = {0};
	check_workload("sprites-2d", &own, &on, &off);
	char path[512];
	snprintf(path, sizeof(path), "%s/on/stats.json", tmpdir);
	struct tsr_stats_file *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_stats_read(path, f, &err), TSR_OK);
	assert_true(f->config.texture_footprint_stats);
	assert_int_equal(f->frame_count, FRAMES);
	assert_int_equal(f->total->texture.footprint_lines, on.total_footprint);
	for (uint32_t i = 0; i < FRAMES; i++)
		assert_int_equal(tsr_stats_file_frame(f, i)->texture.footprint_lines,
				 on.footprint[i]);
	uint64_t v = 0;
	assert_int_equal(tsr_stats_lookup(f->total, NULL, "texture.footprint_lines", &v, &err),
			 TSR_OK);
	assert_int_equal(v, on.total_footprint);
	tsr_stats_file_release(f);
	free(f);
	release(&on);
	release(&off);
	free(own.v);

	/* frame 0's row holds frame 0's count */
	const char *csv = slurp("on/frames.csv");
	const char *row = strchr(csv, '\n') + 1;
	for (int c = 0; c < col; c++)
		row = strchr(row, ',') + 1;
	assert_int_equal(strtoull(row, NULL, 10), on.footprint[0]);

	/* a trace recorder would replace the footprint's observer: refused */
	assert_int_equal(tessera("%s --out rec --set stats.texture_footprint=true "
				 "--record-trace texture1=t.trace", run), 2);
	assert_non_null(strstr(slurp("err.txt"), "cache 'texture1' is observed for key "
				   "'stats.texture_footprint'"));
	snprintf(path, sizeof(path), "%s/rec", tmpdir);
	assert_int_equal(access(path, F_OK), -1);  /* nothing written */
	assert_int_equal(tessera("%s --out rec --record-trace texture1=t.trace", run), 0);
}

int main(void)
{
	if (setenv("TSR_DATA_DIR", TSR_SOURCE_DIR, 1) != 0)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter),
		cmocka_unit_test(test_experiment_column),
		cmocka_unit_test(test_cli),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
