/*
 * 092-experiment.c - the papers' experiments in-process (experiment/):
 * each on a short, small input (1-3 frames at 256x128 through --set
 * overrides), asserting the tables' shape and values: TCOR's Parameter
 * Buffer traffic below the baseline's, the Attribute Cache's lower bound
 * LB = TP + max(0, TP - CP) and no policy below it, RE's equal-input tiles
 * on a static workload and no false positives, the workload
 * characterization against an independent run's counters and the papers'
 * ranges, every shipped workload by default, the boustrophedonic
 * texture-only L2 (no non-texture access, LRU replay = run, OPTPT <= OPT
 * <= LRU per order) and its stream shares, the timing columns of tcor, re
 * and boustrophedonic, and the timing experiment's rows (frames per
 * second, energy shares adding up to 100%), and dtexl's tables (CG-square
 * below FG-xshift2 in L2 accesses, the upper bound the lowest), and gspc's
 * tables (Belady the fewest LLC misses, render targets consumed in a
 * multi-pass workload). Also --csv-dir's folder (every table, the report,
 * the manifest), the table module, the
 * name table, errors that name their subject, and shipped workloads found
 * through the data directory from another current folder.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "core/datadir.h"
#include "experiment/experiment.h"
#include "experiment/table.h"
#include "scene/scene.h"
#include "sim/sim.h"
#include "test_main.h"

/* 256x128 screens: 8 x 4 tiles of 32x32, fast runs */
static const char *const small[] = {"screen.width=256", "screen.height=128"};
/* 64x64 for the 128 runs of attribute-cache and the -j comparisons */
static const char *const tiny[] = {"screen.width=64", "screen.height=64"};

/* Runs experiment `name` on one workload for `frames` frames with n --set overrides. */
static void run_n_sets(const char *name, const char *workload, uint32_t frames,
		       const char *const *sets, size_t n, struct tsr_xp_result *r)
{
	const struct tsr_experiment *x = tsr_experiment_find(name);
	assert_non_null(x);
	const struct tsr_xp_options o = {
		.frames = frames, .workloads = &workload, .workload_count = 1,
		.sets = sets, .set_count = n,
	};
	struct tsr_error err = {{0}};
	enum tsr_status s = tsr_experiment_run(x, &o, r, &err);
	if (s != TSR_OK)
		fail_msg("experiment %s: %s", name, err.msg);
}

/* The same with two --set overrides. */
static void run_sets(const char *name, const char *workload, uint32_t frames,
		     const char *const *sets, struct tsr_xp_result *r)
{
	run_n_sets(name, workload, frames, sets, 2, r);
}

/* The same at 256x128. */
static void run_small(const char *name, const char *workload, uint32_t frames,
		      struct tsr_xp_result *r)
{
	run_sets(name, workload, frames, small, r);
}

/* The cell of row `row`, column `col` as a number (the cell must be one). */
static double num(const struct tsr_table *t, uint32_t row, const char *col)
{
	const char *s = tsr_table_cell(t, row, col);
	if (!s)
		fail_msg("table '%s' has no cell (%u, %s)", t->name, row, col);
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end)
		fail_msg("table '%s' cell (%u, %s) = '%s' is not a number", t->name, row, col, s);
	return v;
}

static void test_table(void **state)
{
	(void)state;
	struct tsr_table t;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_table_init(&t, "t", "a,b,c", &err), TSR_OK);
	assert_int_equal(t.cols, 3);
	assert_int_equal(tsr_table_column(&t, "c"), 2);
	assert_int_equal(tsr_table_column(&t, "d"), -1);
	for (int r = 0; r < 40; r++) {  /* past the first allocation */
		tsr_table_row(&t);
		tsr_table_cellf(&t, "row%d", r);
		tsr_table_cellf(&t, "%d", r * 2);
	}
	tsr_table_row(&t);
	tsr_table_cellf(&t, "x,y");
	tsr_table_cellf(&t, "say \"hi\"");
	tsr_table_cellf(&t, "3");
	tsr_table_cellf(&t, "dropped");  /* past the last column */
	assert_int_equal(tsr_table_status(&t, &err), TSR_OK);
	assert_int_equal(t.rows, 41);
	assert_string_equal(tsr_table_cell(&t, 39, "b"), "78");
	assert_string_equal(tsr_table_cell(&t, 39, "c"), "");  /* never set */
	assert_null(tsr_table_cell(&t, 41, "a"));
	assert_null(tsr_table_cell(&t, 0, "zz"));
	assert_int_equal(tsr_table_find_row(&t, "a", "row7"), 7);
	assert_int_equal(tsr_table_find_row(&t, "a", "nope"), -1);
	struct tsr_text csv = {0};
	tsr_table_csv(&t, &csv);
	assert_int_equal(tsr_text_status(&csv, "csv", &err), TSR_OK);
	assert_memory_equal(csv.buf, "a,b,c\nrow0,0,\nrow1,2,\n", 22);
	static const char last[] = "\"x,y\",\"say \"\"hi\"\"\",3\n";
	assert_true(csv.len > sizeof(last));
	assert_string_equal(csv.buf + csv.len - (sizeof(last) - 1), last);
	tsr_text_release(&csv);
	tsr_table_release(&t);
}

static void test_names(void **state)
{
	(void)state;
	static const char *const names[] = {"tcor", "attribute-cache", "re", "workloads",
					    "boustrophedonic", "timing", "dtexl", "gspc"};
	assert_int_equal(tsr_experiment_count(), 8);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct tsr_experiment *x = tsr_experiment_find(names[i]);
		assert_non_null(x);
		assert_ptr_equal(x, tsr_experiment_at(i));
		assert_string_equal(tsr_experiment_name(x), names[i]);
		assert_true(strlen(tsr_experiment_summary(x)) > 10);
	}
	assert_null(tsr_experiment_find("nonsense"));
	assert_null(tsr_experiment_find(NULL));
	assert_null(tsr_experiment_at(sizeof(names) / sizeof(names[0])));
}

/* TCOR V-B: six configurations; TCOR sends fewer Parameter Buffer accesses to the L2 and DRAM. */
static void test_tcor(void **state)
{
	(void)state;
	struct tsr_xp_result r;
	run_small("tcor", "sprites-2d", 1, &r);
	const struct tsr_table *t = tsr_xp_result_table(&r, "tcor");
	assert_ptr_equal(t, &r.tables[0]);
	assert_int_equal(t->cols, 15);
	assert_int_equal(t->rows, 6);
	assert_string_equal(tsr_table_cell(t, 0, "cycles"), "");  /* no timing model */
	static const char *const cfgs[] = {"tcor-table1", "tcor-l2-only", "tcor-64k-no-l2",
					   "tcor-64k", "tcor-table1-128k", "tcor-128k"};
	static const int base_of[] = {0, 0, 0, 0, 4, 4};
	for (uint32_t i = 0; i < 6; i++) {
		assert_string_equal(tsr_table_cell(t, i, "workload"), "sprites-2d");
		assert_string_equal(tsr_table_cell(t, i, "config"), cfgs[i]);
		/* the change columns are the change against the row's baseline */
		static const char *const v[] = {"pb_l2_accesses", "pb_dram_bytes", "dram_bytes"};
		static const char *const c[] = {"pb_l2_change_pct", "pb_dram_change_pct",
						"dram_change_pct"};
		for (int k = 0; k < 3; k++) {
			/* a baseline of 0 (the whole PB stays on chip) shows no change */
			double base = num(t, (uint32_t)base_of[i], v[k]);
			double want = base > 0 ? 100.0 * (num(t, i, v[k]) - base) / base : 0.0;
			assert_true(fabs(num(t, i, c[k]) - want) < 0.0005 + 1e-9);
		}
	}
	assert_string_equal(tsr_table_cell(t, 0, "pb_l2_change_pct"), "0.000");
	/* the Attribute Cache keeps attributes out of the L2 and of DRAM */
	assert_true(num(t, 3, "pb_l2_accesses") < num(t, 0, "pb_l2_accesses"));
	assert_true(num(t, 3, "pb_dram_bytes") < num(t, 0, "pb_dram_bytes"));
	assert_true(num(t, 5, "pb_l2_accesses") < num(t, 4, "pb_l2_accesses"));
	assert_true(num(t, 3, "dram_bytes") <= num(t, 0, "dram_bytes"));
	/* Table II: one row per workload; a binned primitive lands in >= 1 tile */
	const struct tsr_table *t2 = tsr_xp_result_table(&r, "tcor-table2");
	assert_non_null(t2);
	assert_int_equal(t2->rows, 1);
	assert_true(num(t2, 0, "primitive_reuse_tiles") >= 1.0);
	assert_true(num(t2, 0, "pb_footprint_mib_per_frame") > 0.0);
	/* the report holds the table and the footprint line */
	assert_non_null(strstr(r.text.buf, "tcor-64k-no-l2"));
	assert_non_null(strstr(r.text.buf, "Parameter Buffer footprint"));
	/* the paper's averages (V-B, Figs. 14-19) beside tessera's means (one workload: its rows) */
	const struct tsr_table *paper = tsr_xp_result_table(&r, "tcor-paper");
	assert_non_null(paper);
	assert_int_equal(paper->rows, 6);
	int row = tsr_table_find_row(paper, "figure", "16");
	assert_true(row >= 0);
	assert_true(fabs(num(paper, (uint32_t)row, "paper_pct") + 93.0) < 1e-9);
	assert_true(fabs(num(paper, (uint32_t)row, "tessera_mean_pct") -
			 num(t, 3, "pb_dram_change_pct")) < 0.0005 + 1e-9);
	row = tsr_table_find_row(paper, "figure", "19");
	assert_true(row >= 0);
	assert_true(fabs(num(paper, (uint32_t)row, "tessera_mean_pct") -
			 num(t, 5, "dram_change_pct")) < 0.0005 + 1e-9);
	assert_non_null(strstr(r.text.buf, "change against the baseline"));
	tsr_xp_result_release(&r);

	/* with the timing model: cycles, energy and their changes, and Figs. 20-22 */
	static const char *const timed[] = {"screen.width=256", "screen.height=128",
					    "timing.enabled=true"};
	run_n_sets("tcor", "sprites-2d", 1, timed, 3, &r);
	t = tsr_xp_result_table(&r, "tcor");
	for (uint32_t i = 0; i < 6; i++) {
		assert_true(num(t, i, "cycles") > 0);
		assert_true(num(t, i, "energy_nj") > 0);
		/* the Tile Fetcher outputs at most one primitive a cycle (TCOR V-B-3) */
		assert_true(num(t, i, "tf_prims_per_cycle") > 0);
		assert_true(num(t, i, "tf_prims_per_cycle") <= 1.0);
	}
	assert_true(fabs(num(t, 0, "energy_change_pct")) < 1e-9);
	/* the frames per second change is that of the inverse cycles */
	double fps = 100.0 * (num(t, 0, "cycles") / num(t, 3, "cycles") - 1.0);
	assert_true(fabs(num(t, 3, "fps_change_pct") - fps) < 0.0005 + 1e-6);
	paper = tsr_xp_result_table(&r, "tcor-paper");
	assert_int_equal(paper->rows, 13);
	row = tsr_table_find_row(paper, "figure", "20");
	assert_true(row >= 0);
	assert_true(fabs(num(paper, (uint32_t)row, "paper_pct") + 14.1) < 1e-9);
	tsr_xp_result_release(&r);
}

/*
 * TCOR V-A: 8 sizes x 4 associativities x 4 policies; LB = TP + max(0, TP - CP)
 * per frame. glmark-scene at 64x64 bins more primitives than the smallest
 * cache holds, so the max() term counts.
 */
static void test_attribute_cache(void **state)
{
	(void)state;
	struct tsr_xp_result r;
	const uint32_t frames = 1;
	run_sets("attribute-cache", "glmark-scene", frames, tiny, &r);
	const struct tsr_table *t = &r.tables[0];
	assert_string_equal(t->name, "attribute-cache");
	assert_int_equal(t->rows, 8 * 4 * 4);
	int policies[4] = {0}, over = 0;
	for (uint32_t i = 0; i < t->rows; i++) {
		double tp = num(t, i, "primitives"), cp = num(t, i, "capacity_primitives");
		double acc = num(t, i, "accesses"), miss = num(t, i, "misses");
		assert_true(tp > 0 && cp > 0 && acc > 0);
		double tpf = floor(tp / frames);
		double lb = frames * (tpf + (tpf > cp ? tpf - cp : 0));
		over += tpf > cp;
		assert_true(fabs(num(t, i, "lower_bound_ratio") - lb / acc) < 1e-6);
		assert_true(fabs(num(t, i, "miss_ratio") - miss / acc) < 1e-6);
		/* every binned primitive is written once and every write misses: none beats LB */
		assert_true(miss >= lb);
		/* capacity: one primitive per line, lines = size / 64-byte entries / 2 */
		assert_true(fabs(cp - floor(num(t, i, "size_bytes") / 64 / 2)) < 1e-9);
		const char *pol = tsr_table_cell(t, i, "policy");
		static const char *const names[] = {"opt", "lru", "mru", "drrip"};
		for (int p = 0; p < 4; p++)
			policies[p] += !strcmp(pol, names[p]);
	}
	assert_true(over > 0);
	for (int p = 0; p < 4; p++)
		assert_int_equal(policies[p], 32);
	/* fully associative OPT meets LB at 4 KiB; LRU needs a larger cache (TCOR V-A) */
	int row = tsr_table_find_row(t, "size_bytes", "4096");
	assert_int_equal(row, 0);
	assert_string_equal(tsr_table_cell(t, 0, "ways"), "full");
	assert_string_equal(tsr_table_cell(t, 0, "policy"), "opt");
	assert_string_equal(tsr_table_cell(t, 0, "miss_ratio"),
			    tsr_table_cell(t, 0, "lower_bound_ratio"));
	const struct tsr_table *reach = tsr_xp_result_table(&r, "attribute-cache-reach");
	assert_non_null(reach);
	assert_int_equal(reach->rows, 4);
	assert_string_equal(tsr_table_cell(reach, 0, "workload"), "glmark-scene");
	assert_string_equal(tsr_table_cell(reach, 0, "ways"), "full");
	assert_string_equal(tsr_table_cell(reach, 0, "paper_opt_kib"), "55");
	assert_string_equal(tsr_table_cell(reach, 0, "paper_lru_kib"), "375");
	assert_true(num(reach, 0, "opt_kib") == 4);
	assert_true(num(reach, 0, "lru_kib") > num(reach, 0, "opt_kib"));
	assert_non_null(strstr(r.text.buf, "TCOR V-A: OPT 55, LRU 375"));
	tsr_xp_result_release(&r);
}

/* RE V on a static camera: RE skips the tiles whose inputs are equal, without false positives. */
static void test_re(void **state)
{
	(void)state;
	struct tsr_xp_result r;
	run_small("re", "static-camera", 3, &r);
	const struct tsr_table *t = &r.tables[0];
	assert_string_equal(t->name, "re");
	assert_int_equal(t->cols, 20);
	assert_int_equal(t->rows, 2);  /* the workload and the mean */
	assert_string_equal(tsr_table_cell(t, 0, "re_speedup"), "");  /* no timing model */
	assert_string_equal(tsr_table_cell(t, 0, "workload"), "static-camera");
	assert_string_equal(tsr_table_cell(t, 0, "frames"), "3");
	assert_string_equal(tsr_table_cell(t, 1, "workload"), "mean");
	assert_string_equal(tsr_table_cell(t, 1, "frames"), "");
	assert_string_equal(tsr_table_cell(t, 0, "false_positives"), "0");
	double eq = num(t, 0, "equal_inputs_pct");
	assert_true(eq > 50.0);
	/* RE skips exactly the equal-input tiles; the rest are false negatives or changed */
	assert_true(fabs(num(t, 0, "tiles_skipped_pct") - eq) < 1e-9);
	assert_true(fabs(eq + num(t, 0, "false_negatives_pct") + num(t, 0, "changed_pct") - 100.0) <
		    1e-6);
	/* skipping tiles removes traffic; TE removes color flushes */
	assert_true(num(t, 0, "re_dram_change_pct") < 0.0);
	assert_true(num(t, 0, "re_color_dram_change_pct") < 0.0);
	assert_true(num(t, 0, "te_flushes_removed_pct") > 0.0);
	/* one workload: the mean is its row */
	assert_string_equal(tsr_table_cell(t, 1, "re_dram_change_pct"),
			    tsr_table_cell(t, 0, "re_dram_change_pct"));
	const struct tsr_table *paper = tsr_xp_result_table(&r, "re-paper");
	assert_non_null(paper);
	int row = tsr_table_find_row(paper, "quantity", "tiles_skipped_pct");
	assert_true(row >= 0);
	assert_true(fabs(num(paper, (uint32_t)row, "paper_pct") - 50.0) < 1e-9);
	assert_true(fabs(num(paper, (uint32_t)row, "tessera_mean_pct") -
			 num(t, 0, "tiles_skipped_pct")) < 1e-9);
	assert_non_null(strstr(r.text.buf, "paper (RE V): 50% of tiles skipped"));
	tsr_xp_result_release(&r);

	/* with the timing model: RE makes the frames faster and cheaper, TE too but less */
	static const char *const timed[] = {"screen.width=256", "screen.height=128",
					    "timing.enabled=true"};
	run_n_sets("re", "static-camera", 4, timed, 3, &r);
	t = &r.tables[0];
	/* at 256x128 the geometry phase, which RE keeps, is most of a frame */
	assert_true(num(t, 0, "re_speedup") > 1.0);
	assert_true(num(t, 0, "re_energy_change_pct") < 0.0);
	assert_true(num(t, 0, "te_energy_change_pct") < 0.0);
	assert_true(num(t, 0, "re_energy_change_pct") < num(t, 0, "te_energy_change_pct"));
	paper = tsr_xp_result_table(&r, "re-paper");
	row = tsr_table_find_row(paper, "quantity", "re_speedup");
	assert_true(row >= 0);
	assert_true(fabs(num(paper, (uint32_t)row, "paper_pct") - 1.74) < 1e-9);
	assert_non_null(strstr(r.text.buf, "paper (RE V-B): re 1.74x faster"));
	tsr_xp_result_release(&r);
}

/* The report reaches on_text as rows complete, in order, whole. */
static void collect(void *ctx, const char *text, size_t len)
{
	tsr_text_printf(ctx, "%.*s", (int)len, text);
}

/* |a - b| within the 6 decimals the table keeps (relative for large values) */
static void assert_close(double a, double b)
{
	if (fabs(a - b) > 5e-7 + 1e-9 * fabs(b))
		fail_msg("%.9f != %.9f", a, b);
}

/*
 * The characterization against the counters of an independent run of the
 * same configuration (tcor-table1 at 256x128) and workload, one frame.
 */
static void check_against_run(const struct tsr_table *t, uint32_t row, const char *workload)
{
	struct tsr_gpu_config cfg;
	struct tsr_error err = {{0}};
	tsr_config_defaults(&cfg);
	assert_int_equal(tsr_config_apply_sets(&cfg, TSR_SOURCE_DIR "/configs/tcor-table1.json",
					       small, 2, &err), TSR_OK);
	char path[1024];
	snprintf(path, sizeof(path), TSR_SOURCE_DIR "/workloads/%s.json", workload);
	struct tsr_scene *sc = NULL;
	assert_int_equal(tsr_scene_load(path, &sc, &err), TSR_OK);
	struct tsr_frame_stats *st = malloc(sizeof(*st));
	assert_non_null(st);
	assert_int_equal(tsr_simulate(&cfg, sc, 1, st, &err), TSR_OK);
	tsr_scene_destroy(sc);
	assert_string_equal(tsr_table_cell(t, row, "workload"), workload);
	assert_string_equal(tsr_table_cell(t, row, "frames"), "1");
	double binned = (double)st->geometry.primitives_binned;
	assert_true(binned > 0);
	assert_close(num(t, row, "primitives_per_frame"), (double)st->geometry.primitives_in);
	assert_close(num(t, row, "binned_per_frame"), binned);
	assert_close(num(t, row, "tiles_per_binned_primitive"),
		     (double)st->tiling.pmds_written / binned);
	assert_close(num(t, row, "attributes_per_primitive"),
		     (double)st->tiling.pb_attributes_bytes / cfg.attribute_bytes / binned);
	/* every primitive carries its position and at least one varying */
	assert_true(num(t, row, "attributes_per_primitive") >= 2.0);
	assert_close(num(t, row, "pb_footprint_mib"),
		     ((double)st->tiling.pb_attributes_bytes / cfg.attribute_bytes * 64.0 +
		      (double)st->tiling.pb_lists_bytes) / 1048576.0);
	assert_close(num(t, row, "fragments_per_pixel"),
		     (double)st->raster.fragments_shaded / (256.0 * 128.0));
	assert_close(num(t, row, "empty_tiles_pct"),
		     100.0 * (double)st->tiling.empty_tiles / (double)st->tiling.tiles);
	/* texture footprint: some lines, at most every line request a distinct line */
	double tex = num(t, row, "texture_footprint_mib");
	assert_true(tex > 0.0);
	assert_true(tex * 1048576.0 <= (double)st->texture.line_requests * 64.0 + 1e-6);
	/* DRAM: the total, the texture share, and shares that add up to 100% */
	uint64_t all = 0;
	for (int k = 0; k < TSR_STREAM_COUNT; k++)
		all += st->dram[k].read_bytes + st->dram[k].write_bytes;
	assert_true(all > 0);
	assert_close(num(t, row, "dram_mib_per_frame"), (double)all / 1048576.0);
	const struct tsr_dram_counters *d = st->dram;
	assert_close(num(t, row, "dram_texture_pct"),
		     100.0 * (double)(d[TSR_STREAM_TEXTURE].read_bytes +
				      d[TSR_STREAM_TEXTURE].write_bytes) / (double)all);
	assert_close(num(t, row, "dram_pb_pct"),
		     100.0 * (double)(d[TSR_STREAM_PB_LISTS].read_bytes +
				      d[TSR_STREAM_PB_LISTS].write_bytes +
				      d[TSR_STREAM_PB_ATTRIBUTES].read_bytes +
				      d[TSR_STREAM_PB_ATTRIBUTES].write_bytes) / (double)all);
	static const char *const shares[] = {"dram_pb_pct", "dram_texture_pct", "dram_color_pct",
					     "dram_vertex_index_pct", "dram_instruction_pct",
					     "dram_other_pct"};
	double sum = 0;
	for (size_t i = 0; i < sizeof(shares) / sizeof(shares[0]); i++)
		sum += num(t, row, shares[i]);
	assert_true(fabs(sum - 100.0) < 1e-4);
	/* the shaders: a JSON workload's materials are no GL ES programs (fs_instructions 0) */
	const double quads = (double)st->raster.quads_shaded;
	assert_true(quads > 0 && st->geometry.vertices_fetched > 0);
	assert_close(num(t, row, "fs_instructions_per_fragment"),
		     (double)st->raster.fs_instructions / quads);
	assert_close(num(t, row, "vs_instructions_per_vertex"),
		     (double)st->geometry.vertex_instructions /
		     (double)st->geometry.vertices_fetched);
	assert_true(num(t, row, "vs_instructions_per_vertex") > 0);
	assert_close(num(t, row, "texture_instructions_per_fragment"),
		     (double)st->texture.sample_instructions / quads);
	free(st);
}

/* The papers' range of `quantity` from `paper` (-1 if absent). */
static int paper_row(const struct tsr_table *p, const char *quantity, const char *paper)
{
	for (uint32_t r = 0; r < p->rows; r++)
		if (!strcmp(tsr_table_cell(p, r, "quantity"), quantity) &&
		    !strcmp(tsr_table_cell(p, r, "paper"), paper))
			return (int)r;
	return -1;
}

/*
 * `workloads`: each cell against an independent run's counters, and the
 * papers' ranges (TCOR Table II, DTexL Table I, boustrophedonic Table I)
 * beside tessera's range over the workloads run.
 */
static void test_workloads(void **state)
{
	(void)state;
	static const char *const w[] = {"sprites-2d", "glmark-scene"};
	const struct tsr_xp_options o = {.frames = 1, .workloads = w, .workload_count = 2,
					 .sets = small, .set_count = 2};
	struct tsr_xp_result r;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_experiment_run(tsr_experiment_find("workloads"), &o, &r, &err),
			 TSR_OK);
	const struct tsr_table *t = tsr_xp_result_table(&r, "workloads");
	assert_ptr_equal(t, &r.tables[0]);
	assert_int_equal(t->rows, 2);
	assert_int_equal(t->cols, 20);
	check_against_run(t, 0, "sprites-2d");
	check_against_run(t, 1, "glmark-scene");
	const struct tsr_table *p = tsr_xp_result_table(&r, "workloads-paper");
	assert_non_null(p);
	assert_int_equal(p->rows, 9);
	static const struct {
		const char *quantity, *paper, *table;
		double min, max;
		const char *min_games, *max_games;
	} want[] = {
		{"tiles_per_binned_primitive", "TCOR", "Table II", 1.4, 6.9, "DDS", "SoD, GTr"},
		{"pb_footprint_mib", "TCOR", "Table II", 0.12, 1.81, "GTr", "DDS"},
		{"texture_footprint_mib", "DTexL", "Table I", 0.2, 6.8, "SWa", "RoK"},
		{"texture_footprint_mib", "boustrophedonic", "Table I", 0.7, 6.9, "CrS, GrT", "RoK"},
		{"dram_texture_pct", "boustrophedonic", "Table I", 3.9, 74.5, "GrT", "RoK"},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int row = paper_row(p, want[i].quantity, want[i].paper);
		assert_true(row >= 0);
		uint32_t u = (uint32_t)row;
		assert_string_equal(tsr_table_cell(p, u, "table"), want[i].table);
		assert_true(fabs(num(p, u, "paper_min") - want[i].min) < 1e-9);
		assert_true(fabs(num(p, u, "paper_max") - want[i].max) < 1e-9);
		assert_string_equal(tsr_table_cell(p, u, "paper_min_games"), want[i].min_games);
		assert_string_equal(tsr_table_cell(p, u, "paper_max_games"), want[i].max_games);
		/* tessera's range: the smaller and the larger of the two workloads' cells */
		double a = num(t, 0, want[i].quantity), b = num(t, 1, want[i].quantity);
		assert_close(num(p, u, "tessera_min"), a < b ? a : b);
		assert_close(num(p, u, "tessera_max"), a > b ? a : b);
		assert_string_equal(tsr_table_cell(p, u, "tessera_max_workload"), w[a > b ? 0 : 1]);
	}
	assert_int_equal(num(p, 0, "games"), 10);   /* TCOR Table II: ten games */
	assert_int_equal(num(p, 4, "games"), 12);   /* boustrophedonic Table I: twelve */
	/* tessera's range alone where no paper gives a figure: overdraw and the shaders */
	static const char *const alone[] = {"fragments_per_pixel", "fs_instructions_per_fragment",
					    "vs_instructions_per_vertex",
					    "texture_instructions_per_fragment"};
	for (size_t i = 0; i < sizeof(alone) / sizeof(alone[0]); i++) {
		int row = paper_row(p, alone[i], "-");
		assert_true(row >= 0);
		uint32_t u = (uint32_t)row;
		assert_string_equal(tsr_table_cell(p, u, "paper_min"), "");
		assert_int_equal(num(p, u, "games"), 0);
		double a = num(t, 0, alone[i]), b = num(t, 1, alone[i]);
		assert_close(num(p, u, "tessera_min"), a < b ? a : b);
		assert_close(num(p, u, "tessera_max"), a > b ? a : b);
	}
	assert_non_null(strstr(r.text.buf, "papers' ranges"));
	assert_non_null(strstr(r.text.buf, "6.9 (SoD, GTr)"));
	tsr_xp_result_release(&r);
}

/* Writes the shipped workload `from` as <dir>/workloads/<file> with its name replaced. */
static void copy_workload(const char *dir, const char *from, const char *file, const char *name)
{
	char path[1024], key[128];
	snprintf(path, sizeof(path), TSR_SOURCE_DIR "/workloads/%s.json", from);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char text[1 << 16];
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	snprintf(key, sizeof(key), "\"name\": \"%s\"", from);
	char *at = strstr(text, key);
	assert_non_null(at);
	snprintf(path, sizeof(path), "%s/workloads/%s", dir, file);
	f = fopen(path, "wb");
	assert_non_null(f);
	fprintf(f, "%.*s\"name\": \"%s\"%s", (int)(at - text), text, name, at + strlen(key));
	fclose(f);
}

/*
 * --frames A-B (tsr_xp_options.first_frame): frames 2-3 of glmark-scene,
 * frames 0-1 fast-forwarded, no warm-up frame: the means are those of a
 * simulation selecting frames 2 and 3 (tsr_sim_select(), as `tessera run
 * --frames 2-3 --warmup 0`), not of frames 0-1; --frames LIST
 * (tsr_xp_options.frame_list) likewise of the frames it lists.
 */
static void test_workloads_range(void **state)
{
	(void)state;
	static const char *const w[] = {"glmark-scene"};
	const struct tsr_xp_options o = {.frames = 2, .first_frame = 2, .workloads = w,
					 .workload_count = 1, .sets = small, .set_count = 2};
	struct tsr_xp_result r;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_experiment_run(tsr_experiment_find("workloads"), &o, &r, &err),
			 TSR_OK);
	const struct tsr_table *t = tsr_xp_result_table(&r, "workloads");
	assert_non_null(t);
	assert_string_equal(tsr_table_cell(t, 0, "frames"), "2");
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	assert_int_equal(tsr_config_apply_sets(&cfg, TSR_SOURCE_DIR "/configs/tcor-table1.json",
					       small, 2, &err), TSR_OK);
	struct tsr_scene *sc = NULL;
	assert_int_equal(tsr_scene_load(TSR_SOURCE_DIR "/workloads/glmark-scene.json", &sc, &err),
			 TSR_OK);
	double dram[3];
	for (int k = 0; k < 3; k++) {  /* frames 2-3, then 0-1, then 1 and 3 */
		struct tsr_sim *s;
		assert_int_equal(tsr_sim_open_scene(&cfg, sc, &s, &err), TSR_OK);
		static const unsigned char sel[2][4] = {{0, 0, 1, 1}, {0, 1, 0, 1}};
		if (k != 1)
			assert_int_equal(tsr_sim_select(s, sel[k / 2], 4, 0, &err), TSR_OK);
		assert_int_equal(tsr_sim_run(s, k == 1 ? 2 : 4, NULL, NULL, &err), TSR_OK);
		const struct tsr_frame_stats *st = tsr_sim_total(s);
		uint64_t all = 0;
		for (int i = 0; i < TSR_STREAM_COUNT; i++)
			all += st->dram[i].read_bytes + st->dram[i].write_bytes;
		dram[k] = (double)all / 2.0 / 1048576.0;
		tsr_sim_close(s);
	}
	tsr_scene_destroy(sc);
	assert_close(num(t, 0, "dram_mib_per_frame"), dram[0]);
	assert_true(fabs(dram[0] - dram[1]) > 1e-6);
	assert_true(strstr(r.text.buf, "frames 2-3 of every workload") != NULL);
	tsr_xp_result_release(&r);
	/* --frames LIST (tsr_xp_options.frame_list): frames 1 and 3 */
	struct tsr_xp_options l = {.frame_list = "1,3", .workloads = w, .workload_count = 1,
				   .sets = small, .set_count = 2};
	assert_int_equal(tsr_experiment_run(tsr_experiment_find("workloads"), &l, &r, &err),
			 TSR_OK);
	t = tsr_xp_result_table(&r, "workloads");
	assert_string_equal(tsr_table_cell(t, 0, "frames"), "2");
	assert_close(num(t, 0, "dram_mib_per_frame"), dram[2]);
	assert_true(fabs(dram[2] - dram[0]) > 1e-6);
	assert_true(strstr(r.text.buf, "frames 1,3 of every workload") != NULL);
	tsr_xp_result_release(&r);
	/* a list beside a count, or no list at all: one message each */
	l.frames = 2;
	assert_int_equal(tsr_experiment_run(tsr_experiment_find("workloads"), &l, &r, &err),
			 TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "no count, range or session"));
	l.frames = 0;
	l.frame_list = "all";
	assert_int_equal(tsr_experiment_run(tsr_experiment_find("workloads"), &l, &r, &err),
			 TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "'all'"));
}

/*
 * `workloads` runs every shipped workload by default: workloads/ *.json of
 * the data directory sorted by name, so a new file appears without editing
 * the experiment (a data directory with two workloads added shows them).
 */
static void test_workloads_default(void **state)
{
	(void)state;
	char **list = NULL;
	size_t n = 0;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_data_list("workloads", ".json", &list, &n, &err), TSR_OK);
	assert_true(n >= 8);
	assert_null(list[n]);
	for (size_t i = 0; i < n; i++) {
		assert_memory_equal(list[i], "workloads/", 10);
		assert_string_equal(list[i] + strlen(list[i]) - 5, ".json");
		assert_true(i == 0 || strcmp(list[i - 1], list[i]) < 0);
	}
	const struct tsr_experiment *x = tsr_experiment_find("workloads");
	struct tsr_xp_options o = {.frames = 1, .sets = small, .set_count = 2};
	struct tsr_xp_result r;
	assert_int_equal(tsr_experiment_run(x, &o, &r, &err), TSR_OK);
	const struct tsr_table *t = &r.tables[0];
	assert_int_equal(t->rows, n);
	for (size_t i = 0; i < n; i++) {  /* shipped names are their files' names */
		char want[256];
		snprintf(want, sizeof(want), "%.*s", (int)(strlen(list[i]) - 15), list[i] + 10);
		assert_string_equal(tsr_table_cell(t, (uint32_t)i, "workload"), want);
	}
	tsr_xp_result_release(&r);
	tsr_data_list_free(list);
	/* a data directory of its own: two workloads added, found and run in name order */
	char dir[] = "/tmp/tsr092-XXXXXX", sub[64], a[128], b[128];
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/workloads", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	copy_workload(dir, "sprites-2d", "zz-new.json", "zz-new");
	copy_workload(dir, "ui-2d", "aa-new.json", "aa-new");
	assert_int_equal(setenv("TSR_DATA_DIR", dir, 1), 0);
	enum tsr_status s = tsr_experiment_run(x, &o, &r, &err);
	assert_int_equal(setenv("TSR_DATA_DIR", TSR_SOURCE_DIR, 1), 0);
	snprintf(a, sizeof(a), "%s/aa-new.json", sub);
	snprintf(b, sizeof(b), "%s/zz-new.json", sub);
	unlink(a);
	unlink(b);
	rmdir(sub);
	rmdir(dir);
	if (s != TSR_OK)
		fail_msg("workloads: %s", err.msg);
	assert_int_equal(r.tables[0].rows, 2);
	assert_string_equal(tsr_table_cell(&r.tables[0], 0, "workload"), "aa-new");
	assert_string_equal(tsr_table_cell(&r.tables[0], 1, "workload"), "zz-new");
	tsr_xp_result_release(&r);
	/* no workload folder anywhere: an error that names it */
	assert_int_equal(tsr_data_list("no-such-folder", ".json", &list, &n, &err), TSR_ERR_IO);
	assert_null(list);
	assert_non_null(strstr(err.msg, "no-such-folder"));
}

/* The row of table t whose cells in columns c1 and c2 are v1 and v2 (it must exist). */
static uint32_t row2(const struct tsr_table *t, const char *c1, const char *v1, const char *c2,
		     const char *v2)
{
	for (uint32_t r = 0; r < t->rows; r++)
		if (!strcmp(tsr_table_cell(t, r, c1), v1) && !strcmp(tsr_table_cell(t, r, c2), v2))
			return r;
	fail_msg("table '%s' has no row %s=%s, %s=%s", t->name, c1, v1, c2, v2);
	return 0;
}

/*
 * Boustrophedonic V: 3 frames (FO, RO, FO) of sprites-2d at 256x128. The
 * texture-only hierarchy sends no non-texture access to the L2; replaying
 * the recorded L2 input under LRU gives the run's L2 read misses; OPT is
 * optimal for a given order (OPT <= LRU) and OPTPT, with bypassing too,
 * is at most OPT; the shared L2's stream shares sum to 100%; Fig. 9's FDM
 * equals j / s exactly on loop traces; the paper table's rows.
 */
static void test_boustrophedonic(void **state)
{
	(void)state;
	struct tsr_xp_result r;
	run_small("boustrophedonic", "sprites-2d", 3, &r);
	const struct tsr_table *t = tsr_xp_result_table(&r, "boustrophedonic");
	assert_ptr_equal(t, &r.tables[0]);
	static const char *const pols[] = {"lru-fo", "lru-ro", "opt-fo", "optpt-fo",
					   "opt-ro", "optpt-ro", "mru-fo"};
	assert_int_equal(t->rows, 14);  /* 7 policies, then their means */
	uint32_t p[7];
	for (int i = 0; i < 7; i++) {
		p[i] = row2(t, "workload", "sprites-2d", "policy", pols[i]);
		assert_true(num(t, p[i], "texture_footprint_mib") > 0.0);
		double base = num(t, p[0], "l2_misses");
		assert_true(base > 0);
		assert_true(fabs(num(t, p[i], "change_pct") -
				 100.0 * (num(t, p[i], "l2_misses") - base) / base) < 0.0005 + 1e-9);
	}
	for (int i = 0; i < 2; i++) {  /* LRU FO and RO: the runs */
		assert_true(num(t, p[i], "l2_misses") == num(t, p[i], "run_l2_read_misses"));
		assert_true(num(t, p[i], "l2_non_texture_accesses") == 0.0);
		assert_true(num(t, p[i], "trace_line_accesses") >= num(t, p[i], "l2_misses"));
	}
	assert_true(num(t, p[2], "l2_misses") <= num(t, p[0], "l2_misses"));  /* OPT-FO <= LRU-FO */
	assert_true(num(t, p[4], "l2_misses") <= num(t, p[1], "l2_misses"));  /* OPT-RO <= LRU-RO */
	assert_true(num(t, p[3], "l2_misses") <= num(t, p[2], "l2_misses"));  /* OPTPT <= OPT */
	assert_true(num(t, p[5], "l2_misses") <= num(t, p[4], "l2_misses"));
	assert_non_null(strstr(r.text.buf, "ok"));
	assert_null(strstr(r.text.buf, "MISMATCH"));
	uint32_t mean_ro = row2(t, "workload", "mean", "policy", "lru-ro");
	assert_true(fabs(num(t, mean_ro, "change_pct") - num(t, p[1], "change_pct")) < 1e-9);

	/* Fig. 9: FDM = j / s for s > j, 0 below, exactly */
	const struct tsr_table *f = tsr_xp_result_table(&r, "boustrophedonic-fdm");
	assert_non_null(f);
	assert_true(f->rows > 10);
	for (uint32_t i = 0; i < f->rows; i++)
		assert_true(fabs(num(f, i, "fdm_pct") - num(f, i, "paper_fdm_pct")) < 1e-4);
	int s9 = tsr_table_find_row(f, "s", "9");
	assert_true(s9 >= 0);
	assert_true(fabs(num(f, (uint32_t)s9, "fdm_pct") - 800.0 / 9.0) < 1e-4);

	/* V-B: the L2's misses per stream sum to 100%; DRAM change against LRU FO */
	const struct tsr_table *sh = tsr_xp_result_table(&r, "boustrophedonic-shared");
	assert_non_null(sh);
	assert_int_equal(sh->rows, 6);
	static const char *const groups[] = {"texture_pct", "pb_pct", "geometry_pct",
					     "instruction_pct", "other_pct"};
	for (uint32_t i = 0; i < sh->rows; i++) {
		double sum = 0.0;
		for (int g = 0; g < 5; g++)
			sum += num(sh, i, groups[g]);
		assert_true(fabs(sum - 100.0) < 1e-3);
	}
	uint32_t fo = row2(sh, "workload", "sprites-2d", "run", "lru-fo");
	uint32_t ro = row2(sh, "workload", "sprites-2d", "run", "lru-ro");
	assert_true(num(sh, fo, "texture_pct") > 0.0);
	assert_string_equal(tsr_table_cell(sh, fo, "dram_change_pct"), "0.000");
	double base = num(sh, fo, "dram_bytes");
	assert_true(fabs(num(sh, ro, "dram_change_pct") -
			 100.0 * (num(sh, ro, "dram_bytes") - base) / base) < 0.0005 + 1e-9);

	/* the paper's figures beside tessera's means (one workload: its rows) */
	const struct tsr_table *paper = tsr_xp_result_table(&r, "boustrophedonic-paper");
	assert_non_null(paper);
	assert_int_equal(paper->rows, 10);
	static const struct { const char *q; double v; } want[] = {
		{"texture-only L2 misses lru-ro vs lru-fo", -43.6},
		{"texture-only L2 misses opt-fo vs lru-fo", -47.7},
		{"texture-only L2 misses optpt-fo vs lru-fo", -50.4},
		{"texture-only L2 misses opt-ro vs lru-fo", -52.9},
		{"texture-only L2 misses optpt-ro vs lru-fo", -55.0},
		{"texture-only L2 misses mru-fo vs lru-fo", 3.6},
	};
	for (int i = 0; i < 6; i++) {
		int row = tsr_table_find_row(paper, "quantity", want[i].q);
		assert_true(row >= 0);
		assert_true(fabs(num(paper, (uint32_t)row, "paper_pct") - want[i].v) < 1e-9);
		assert_true(fabs(num(paper, (uint32_t)row, "tessera_pct") -
				 num(t, p[i + 1], "change_pct")) < 0.0005 + 1e-9);
	}
	int row = tsr_table_find_row(paper, "figure", "12");
	assert_true(row >= 0);
	assert_true(fabs(num(paper, (uint32_t)row, "paper_pct") + 5.6) < 1e-9);
	assert_true(fabs(num(paper, (uint32_t)row, "tessera_pct") -
			 num(sh, ro, "dram_change_pct")) < 0.0005 + 1e-9);
	row = tsr_table_find_row(paper, "figure", "11");
	assert_true(row >= 0);
	assert_true(fabs(num(paper, (uint32_t)row, "paper_pct") - 63.6) < 1e-9);
	assert_true(fabs(num(paper, (uint32_t)row, "tessera_pct") -
			 num(sh, fo, "texture_pct")) < 1e-6);
	assert_string_equal(tsr_table_cell(sh, fo, "cycles"), "");  /* no timing model */
	assert_int_equal(tsr_table_find_row(paper, "figure", "13"), -1);
	tsr_xp_result_release(&r);

	/* with the timing model: the shared-L2 runs' cycles and energy, and Figs. 13-14 */
	static const char *const timed[] = {"screen.width=256", "screen.height=128",
					    "timing.enabled=true"};
	run_n_sets("boustrophedonic", "sprites-2d", 2, timed, 3, &r);
	sh = tsr_xp_result_table(&r, "boustrophedonic-shared");
	fo = row2(sh, "workload", "sprites-2d", "run", "lru-fo");
	ro = row2(sh, "workload", "sprites-2d", "run", "lru-ro");
	for (uint32_t i = 0; i < 3; i++) {
		assert_true(num(sh, i, "cycles") > 0);
		assert_true(num(sh, i, "energy_nj") > 0);
	}
	assert_string_equal(tsr_table_cell(sh, fo, "speedup_pct"), "0.000");
	double speedup = 100.0 * (num(sh, fo, "cycles") / num(sh, ro, "cycles") - 1.0);
	assert_true(fabs(num(sh, ro, "speedup_pct") - speedup) < 0.0005 + 1e-6);
	double energy = 100.0 * (num(sh, ro, "energy_nj") / num(sh, fo, "energy_nj") - 1.0);
	assert_true(fabs(num(sh, ro, "energy_change_pct") - energy) < 0.0005 + 1e-6);
	paper = tsr_xp_result_table(&r, "boustrophedonic-paper");
	assert_int_equal(paper->rows, 13);
	static const struct { const char *figure, *col; double v; } tw[] = {
		{"13", "speedup_pct", 2.0},
		{"14", "memory_energy_change_pct", -9.9},
		{"V-B", "energy_change_pct", -2.6},
	};
	for (int i = 0; i < 3; i++) {
		row = tsr_table_find_row(paper, "figure", tw[i].figure);
		assert_true(row >= 0);
		assert_true(fabs(num(paper, (uint32_t)row, "paper_pct") - tw[i].v) < 1e-9);
		assert_true(fabs(num(paper, (uint32_t)row, "tessera_pct") -
				 num(sh, ro, tw[i].col)) < 0.0005 + 1e-9);
	}
	tsr_xp_result_release(&r);
}

/*
 * The timing model on every workload given: a row each and the means, timing
 * forced on (even against --set), energy shares that add up to 100%.
 */
static void test_timing(void **state)
{
	(void)state;
	static const char *const w[] = {"sprites-2d", "static-camera"};
	static const char *const sets[] = {"screen.width=256", "screen.height=128",
					   "timing.enabled=false"};
	const struct tsr_xp_options o = {.frames = 1, .workloads = w, .workload_count = 2,
					 .sets = sets, .set_count = 3};
	struct tsr_xp_result r;
	struct tsr_error err = {{0}};
	if (tsr_experiment_run(tsr_experiment_find("timing"), &o, &r, &err) != TSR_OK)
		fail_msg("experiment timing: %s", err.msg);
	const struct tsr_table *t = tsr_xp_result_table(&r, "timing");
	assert_ptr_equal(t, &r.tables[0]);
	assert_int_equal(t->rows, 3);  /* the workloads, then the mean */
	static const char *const shares[] = {
		"energy_dram_pct", "energy_caches_pct", "energy_shader_cores_pct",
		"energy_texture_units_pct", "energy_raster_pct", "energy_geometry_pct",
		"energy_tiling_pct", "energy_other_pct"};
	for (uint32_t i = 0; i < 3; i++) {
		assert_string_equal(tsr_table_cell(t, i, "workload"), i < 2 ? w[i] : "mean");
		assert_string_equal(tsr_table_cell(t, i, "frames"), i < 2 ? "1" : "");
		assert_true(num(t, i, "fps") > 0.0);
		assert_true(num(t, i, "cycles_per_frame") > 0.0);
		/* frames per second are the clock over the cycles of a frame (600 MHz);
		 * the mean row's product is at least that (the mean of 1/x times the
		 * mean of x is at least 1) */
		const double clk = num(t, i, "fps") * num(t, i, "cycles_per_frame");
		assert_true(i < 2 ? fabs(clk - 600e6) < 1e-3 : clk >= 600e6 * (1 - 1e-12));
		assert_true(num(t, i, "mean_memory_latency_cycles") > 0.0);
		assert_true(num(t, i, "mean_dram_latency_cycles") > 0.0);
		double hit = num(t, i, "dram_row_hit_pct"), bw = num(t, i, "dram_bandwidth_pct");
		assert_true(hit > 0.0 && hit <= 100.0);
		assert_true(bw > 0.0 && bw <= 200.0);  /* the port is one each way */
		double geo = num(t, i, "geometry_cycles_pct");
		assert_true(geo > 0.0 && geo < 100.0);
		assert_true(num(t, i, "energy_mj_per_frame") > 0.0);
		double sum = 0.0;
		for (size_t k = 0; k < sizeof(shares) / sizeof(shares[0]); k++)
			sum += num(t, i, shares[k]);
		assert_true(fabs(sum - 100.0) < 1e-6);
		assert_true(num(t, i, "energy_dram_pct") > 0.0);
		assert_true(num(t, i, "energy_caches_pct") > 0.0);
	}
	for (size_t k = 0; k < sizeof(shares) / sizeof(shares[0]); k++)
		assert_true(fabs(num(t, 2, shares[k]) -
				 (num(t, 0, shares[k]) + num(t, 1, shares[k])) / 2) < 1e-9);
	/* the units' shares of the cycles add up to them, per workload */
	const struct tsr_table *bn = tsr_xp_result_table(&r, "timing-bottlenecks");
	assert_non_null(bn);
	assert_int_equal(bn->rows, 2);
	static const char *const units[] = {"geometry_pct", "tile_fetcher_pct",
					    "rasterizer_pct", "early_z_pct", "fragment_pct",
					    "blending_pct", "flush_pct", "drain_pct"};
	for (uint32_t i = 0; i < 2; i++) {
		double sum = 0.0;
		for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++)
			sum += num(bn, i, units[k]);
		assert_true(fabs(sum - 100.0) < 1e-6);
		assert_true(fabs(num(bn, i, "geometry_pct") - num(t, i, "geometry_cycles_pct")) <
			    1e-9);
	}
	const struct tsr_table *paper = tsr_xp_result_table(&r, "timing-paper");
	assert_non_null(paper);
	int row = tsr_table_find_row(paper, "paper", "50-100");
	assert_true(row >= 0);
	assert_true(fabs(num(paper, (uint32_t)row, "tessera_mean") -
			 num(t, 2, "mean_dram_latency_cycles")) < 1e-9);
	assert_non_null(strstr(r.text.buf, "DRAM peak 4.00 bytes/cycle"));
	tsr_xp_result_release(&r);
}

/*
 * dtexl on two workloads at 256x128, one frame: the tables and their
 * rows; every point's L2 accesses, CG-square below FG-xshift2 and the
 * upper bound (one core, a 4x L1) the fewest; the figures' values finite;
 * the means rows; the paper's table.
 */
static void test_dtexl(void **state)
{
	(void)state;
	static const char *const w[] = {"sprites-2d", "ui-2d"};
	const struct tsr_xp_options o = {.frames = 1, .workloads = w, .workload_count = 2,
					 .sets = small, .set_count = 2};
	struct tsr_xp_result r;
	struct tsr_error err = {{0}};
	if (tsr_experiment_run(tsr_experiment_find("dtexl"), &o, &r, &err) != TSR_OK)
		fail_msg("experiment dtexl: %s", err.msg);
	const struct tsr_table *t = tsr_xp_result_table(&r, "dtexl");
	assert_ptr_equal(t, &r.tables[0]);
	const uint32_t points = 21;
	assert_int_equal(t->rows, 2 * points);
	for (uint32_t k = 0; k < 2; k++) {
		int fg = -1, sq = -1, ub = -1;
		for (uint32_t i = k * points; i < (k + 1) * points; i++) {
			assert_string_equal(tsr_table_cell(t, i, "workload"), w[k]);
			const char *p = tsr_table_cell(t, i, "point");
			assert_true(num(t, i, "l2_accesses") > 0);
			const int timed = (int)num(t, i, "timed");
			assert_true(timed ? num(t, i, "cycles") > 0 : num(t, i, "cycles") == 0);
			assert_true(!timed || num(t, i, "time_dev_mean_pct") > 0);
			fg = !strcmp(p, "fg-xshift2") ? (int)i : fg;
			sq = !strcmp(p, "cg-square") ? (int)i : sq;
			ub = !strcmp(p, "upper-bound") ? (int)i : ub;
		}
		assert_true(fg >= 0 && sq >= 0 && ub >= 0);
		assert_true(num(t, (uint32_t)sq, "l2_accesses") < num(t, (uint32_t)fg, "l2_accesses"));
		assert_true(num(t, (uint32_t)sq, "quad_dev_mean_pct") >
			    num(t, (uint32_t)fg, "quad_dev_mean_pct"));
		for (uint32_t i = k * points; i < (k + 1) * points; i++)
			assert_true(num(t, (uint32_t)ub, "l2_accesses") <= num(t, i, "l2_accesses"));
	}
	/* the figures: a row per workload and the means, every cell a finite number */
	static const struct {
		const char *table;
		uint32_t cols;
	} figs[] = {{"dtexl-fig11", 11}, {"dtexl-fig12", 11}, {"dtexl-fig13-15", 27},
		    {"dtexl-fig16", 18}, {"dtexl-fig17-18", 9}};
	for (size_t f = 0; f < sizeof(figs) / sizeof(figs[0]); f++) {
		const struct tsr_table *g = tsr_xp_result_table(&r, figs[f].table);
		assert_non_null(g);
		assert_int_equal(g->rows, 3);
		assert_int_equal(g->cols, figs[f].cols);
		assert_string_equal(tsr_table_cell(g, 2, "workload"), "mean");
		for (uint32_t i = 0; i < g->rows; i++)
			for (uint32_t c = 1; c < g->cols; c++)
				assert_true(isfinite(num(g, i, g->cells[c])));
	}
	const struct tsr_table *f11 = tsr_xp_result_table(&r, "dtexl-fig11");
	for (uint32_t i = 0; i < 3; i++) {
		assert_true(fabs(num(f11, i, "fg-xshift2") - 1.0) < 1e-12);
		assert_true(num(f11, i, "cg-square") < 1.0);
	}
	/* Fig. 16: the upper bound decreases the most; its own gap is not a column */
	const struct tsr_table *f16 = tsr_xp_result_table(&r, "dtexl-fig16");
	assert_true(num(f16, 2, "dec_upper-bound_pct") >= num(f16, 2, "dec_hlb-flp2_pct"));
	assert_true(num(f16, 2, "dec_zorder-const_pct") > 0);
	assert_int_equal(tsr_table_column(f16, "gap_upper-bound_pct"), -1);
	/* the geometric mean of the speedups lies between the two workloads' */
	const struct tsr_table *f17 = tsr_xp_result_table(&r, "dtexl-fig17-18");
	const double a = num(f17, 0, "speedup_dtexl"), b = num(f17, 1, "speedup_dtexl");
	assert_true(fabs(num(f17, 2, "speedup_dtexl") - sqrt(a * b)) < 1e-9);
	const struct tsr_table *paper = tsr_xp_result_table(&r, "dtexl-paper");
	assert_non_null(paper);
	assert_true(paper->rows >= 20);
	assert_non_null(strstr(r.text.buf, "Fig. 16"));
	tsr_xp_result_release(&r);
}

/*
 * gspc on a multi-pass and a single-pass workload at 256x128, one frame:
 * the tables and their rows and columns; the DRRIP replay equals the run;
 * Belady (opt) has the fewest misses of every policy that caches every
 * miss, and OPTPT (with bypass) of every policy; values finite; the
 * multi-pass workload's render targets are consumed by texture hits under
 * Belady; the threshold table is relative to t = 16.
 */
static void test_gspc(void **state)
{
	(void)state;
	/* tests/data's rtt-tiny: a 128x128 target drawn, then sampled twice, so
	 * that its 14 timing runs are quick (minimap-3d's took 2.6 s in all,
	 * postfx-bloom's 960x540 targets take seconds each) */
	static const char *const w[] = {TSR_SOURCE_DIR "/tests/data/rtt-tiny.json",
					"glmark-scene"};
	static const char *const names[] = {"rtt-tiny", "glmark-scene"};
	const struct tsr_xp_options o = {.frames = 1, .workloads = w, .workload_count = 2,
					 .sets = small, .set_count = 2};
	struct tsr_xp_result r;
	struct tsr_error err = {{0}};
	if (tsr_experiment_run(tsr_experiment_find("gspc"), &o, &r, &err) != TSR_OK)
		fail_msg("experiment gspc: %s", err.msg);
	const struct tsr_table *t = tsr_xp_result_table(&r, "gspc");
	assert_ptr_equal(t, &r.tables[0]);
	/* 8 MB: 17 policies per workload and the means; 16 MB: 11 and the means */
	assert_int_equal(t->rows, 3 * 17 + 3 * 11);
	static const char *const cols[] = {
		"misses", "change_vs_drrip_pct", "texture_hit_pct", "render_target_hit_pct",
		"color_hit_pct", "z_hit_pct", "display_hit_pct", "rt_consumption_pct",
		"rt_consumption_render_target_only_pct", "texture_inter_stream_hit_pct"};
	for (uint32_t i = 0; i < t->rows; i++)
		for (size_t k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
			assert_true(isfinite(num(t, i, cols[k])));
	static const uint32_t first[] = {0, 17, 51, 62};  /* each workload's first row */
	for (int b = 0; b < 4; b++) {
		const uint32_t f = first[b], n = b < 2 ? 17 : 11;
		assert_string_equal(tsr_table_cell(t, f, "workload"), names[b % 2]);
		assert_string_equal(tsr_table_cell(t, f, "policy"), "drrip");
		assert_true(num(t, f, "change_vs_drrip_pct") == 0.0);
		if (b < 2)
			assert_true(num(t, f, "replay_matches_run") == 1);
		int opt = -1, optpt = -1;
		for (uint32_t i = f; i < f + n; i++) {
			opt = !strcmp(tsr_table_cell(t, i, "policy"), "opt") ? (int)i : opt;
			optpt = !strcmp(tsr_table_cell(t, i, "policy"), "optpt") ? (int)i : optpt;
		}
		assert_true(opt >= 0 && optpt >= 0);
		for (uint32_t i = f; i < f + n; i++) {
			const int ucd = strstr(tsr_table_cell(t, i, "policy"), "+ucd") != NULL;
			if (!ucd)
				assert_true(num(t, (uint32_t)opt, "misses") <= num(t, i, "misses"));
			assert_true(num(t, (uint32_t)optpt, "misses") <= num(t, i, "misses"));
		}
		if (b == 0)  /* rtt-tiny samples its target: some consumed under Belady */
			assert_true(num(t, (uint32_t)opt, "rt_consumption_pct") > 0);
		if (b == 1)  /* glmark-scene has one pass: nothing to consume */
			assert_true(num(t, (uint32_t)opt, "rt_consumption_pct") == 0);
	}
	assert_string_equal(tsr_table_cell(t, 34, "workload"), "mean");
	assert_string_equal(tsr_table_cell(t, 34, "llc_mb"), "8");
	assert_string_equal(tsr_table_cell(t, 73, "llc_mb"), "16");
	/* Fig. 8 and 14: a row per workload and the mean, shares in [0, 100] */
	const struct tsr_table *ins = tsr_xp_result_table(&r, "gspc-insertions-iso-overhead");
	assert_non_null(ins);
	assert_int_equal(ins->rows, 3);
	for (uint32_t i = 0; i < ins->rows; i++) {
		const double tex = num(ins, i, "texture_fills_rrpv3_pct");
		assert_true(tex >= 0 && tex <= 100);
		assert_true(isfinite(num(ins, i, "gs_drrip4_change_pct")));
	}
	/* Figs. 15-17: 4 + 4 + 3 + 3 timing runs per workload and the means;
	 * every run counted cycles; DRRIP is the reference of its machine */
	const struct tsr_table *perf = tsr_xp_result_table(&r, "gspc-performance");
	assert_non_null(perf);
	assert_int_equal(perf->rows, 3 * 14);
	for (uint32_t i = 0; i < perf->rows; i++) {
		if (strcmp(tsr_table_cell(perf, i, "workload"), "mean") != 0)
			assert_true(num(perf, i, "cycles") > 0 && num(perf, i, "fps") > 0);
		if (!strcmp(tsr_table_cell(perf, i, "policy"), "drrip"))
			assert_true(num(perf, i, "perf_vs_drrip_pct") == 0.0);
	}
	const struct tsr_table *st = tsr_xp_result_table(&r, "gspc-streams");
	assert_non_null(st);
	assert_int_equal(st->rows, 3 * 10);
	double share = 0;
	for (uint32_t i = 0; i < 10; i++)
		share += num(st, i, "share_pct");
	assert_true(fabs(share - 100.0) < 1e-4);  /* ten cells of 6 decimals */
	const struct tsr_table *ep = tsr_xp_result_table(&r, "gspc-epochs");
	assert_non_null(ep);
	assert_int_equal(ep->rows, 2 * 3);
	assert_int_equal(ep->cols, 9);
	for (uint32_t i = 0; i < ep->rows; i++)
		for (uint32_t c = 2; c < ep->cols; c++) {
			const double v = num(ep, i, ep->cells[c]);
			assert_true(isfinite(v) && v >= 0);
		}
	const struct tsr_table *th = tsr_xp_result_table(&r, "gspc-threshold");
	assert_non_null(th);
	assert_int_equal(th->rows, 3 * 4);
	assert_true(num(th, 3, "t") == 16 && num(th, 3, "change_vs_t16_pct") == 0.0);
	const struct tsr_table *paper = tsr_xp_result_table(&r, "gspc-paper");
	assert_non_null(paper);
	assert_true(paper->rows >= 40);
	for (uint32_t i = 0; i < paper->rows; i++)
		assert_true(isfinite(num(paper, i, "tessera_pct")));
	assert_non_null(strstr(r.text.buf, "Figs. 1 and 12"));
	tsr_xp_result_release(&r);
}

/* -j: gspc and workloads on one thread and on three give the same report and tables
 * (tests/data's two tiny workloads at 64x64: the threads' work is what is compared,
 * not its size). */
static void jobs_compare(const char *name)
{
	static const char *const w[] = {TSR_SOURCE_DIR "/tests/data/sprites-tiny.json",
					TSR_SOURCE_DIR "/tests/data/two-quads.json"};
	struct tsr_xp_result r[2];
	for (int i = 0; i < 2; i++) {
		const struct tsr_xp_options o = {.frames = 1, .workloads = w, .workload_count = 2,
						 .sets = tiny, .set_count = 2,
						 .jobs = i ? 3 : 1};
		struct tsr_error err = {{0}};
		if (tsr_experiment_run(tsr_experiment_find(name), &o, &r[i], &err) != TSR_OK)
			fail_msg("experiment %s: %s", name, err.msg);
	}
	assert_string_equal(r[0].text.buf, r[1].text.buf);
	assert_int_equal(r[0].table_count, r[1].table_count);
	for (uint32_t t = 0; t < r[0].table_count; t++) {
		struct tsr_text a = {0}, b = {0};
		tsr_table_csv(&r[0].tables[t], &a);
		tsr_table_csv(&r[1].tables[t], &b);
		assert_string_equal(a.buf, b.buf);
		tsr_text_release(&a);
		tsr_text_release(&b);
	}
	tsr_xp_result_release(&r[0]);
	tsr_xp_result_release(&r[1]);
}

/* two tests, so that ctest can run them in parallel (tests/CMakeLists.txt) */
static void test_jobs_gspc(void **state)
{
	(void)state;
	jobs_compare("gspc");
}

static void test_jobs_workloads(void **state)
{
	(void)state;
	jobs_compare("workloads");
}

static void test_on_text(void **state)
{
	(void)state;
	const char *w = "sprites-2d";
	struct tsr_text got = {0};
	const struct tsr_xp_options o = {.frames = 1, .workloads = &w, .workload_count = 1,
					 .sets = small, .set_count = 2, .on_text = collect,
					 .on_text_ctx = &got};
	struct tsr_xp_result r;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_experiment_run(tsr_experiment_find("tcor"), &o, &r, &err), TSR_OK);
	assert_int_equal(got.len, r.text.len);
	assert_memory_equal(got.buf, r.text.buf, r.text.len);
	tsr_text_release(&got);
	tsr_xp_result_release(&r);
}

/* The contents of file path (NUL-terminated; the caller frees it), or a failure. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("no file '%s'", path);
	char *buf = NULL;
	size_t n = 0, cap = 0, got;
	do {
		if (n + 4096 + 1 > cap) {
			cap = (n + 4096 + 1) * 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/*
 * --csv-dir (tsr_xp_result_write_dir): every table of tcor as its own CSV,
 * byte for byte tsr_table_csv(), the report as <experiment>.txt and the
 * manifest <experiment>.json naming each table and file, the command and
 * the commit; the file names' slugs; a folder in a file's place fails
 * and leaves nothing behind.
 */
static void test_csv_dir(void **state)
{
	(void)state;
	char buf[64];
	tsr_xp_table_file("tcor", "tcor", buf, sizeof(buf));
	assert_string_equal(buf, "tcor");
	tsr_xp_table_file("tcor", "tcor-table2", buf, sizeof(buf));
	assert_string_equal(buf, "tcor-table2");
	tsr_xp_table_file("dtexl", "dtexl-fig13-15", buf, sizeof(buf));
	assert_string_equal(buf, "dtexl-fig13-15");
	tsr_xp_table_file("re", "Summary: per Stream", buf, sizeof(buf));
	assert_string_equal(buf, "re-summary-per-stream");
	tsr_xp_table_file("tcorx", "tcor", buf, sizeof(buf));  /* not a prefix of a word */
	assert_string_equal(buf, "tcorx-tcor");
	tsr_xp_table_file("tcor", "tcor-paper", buf, 5);
	assert_string_equal(buf, "tcor");

	struct tsr_xp_result r;
	run_small("tcor", "sprites-2d", 1, &r);
	assert_true(r.table_count >= 3);
	char dir[] = "/tmp/tsr092-XXXXXX", path[256];
	assert_non_null(mkdtemp(dir));
	struct tsr_error err = {{0}};
	const char *cmd = "tessera experiment tcor --csv-dir x";
	if (tsr_xp_result_write_dir(&r, "tcor", dir, cmd, "abc1234", &err) != TSR_OK)
		fail_msg("write_dir: %s", err.msg);
	size_t len;
	snprintf(path, sizeof(path), "%s/tcor.json", dir);
	char *json = slurp(path, &len);
	assert_non_null(strstr(json, "\"experiment\": \"tcor\""));
	assert_non_null(strstr(json, "\"command\": \"tessera experiment tcor --csv-dir x\""));
	assert_non_null(strstr(json, "\"commit\": \"abc1234\""));
	assert_non_null(strstr(json, "\"tessera_version\": \"" TSR_VERSION "\""));
	const char *at = json;
	for (uint32_t i = 0; i < r.table_count; i++) {
		char want[160];
		tsr_xp_table_file("tcor", r.tables[i].name, buf, sizeof(buf));
		snprintf(want, sizeof(want), "\"name\": \"%s\",\n      \"file\": \"%s.csv\"",
			 r.tables[i].name, buf);
		at = strstr(at, want);  /* in the result's order */
		if (!at)
			fail_msg("tcor.json lacks %s after table %u", want, i);
		snprintf(path, sizeof(path), "%s/%s.csv", dir, buf);
		struct tsr_text csv = {0};
		tsr_table_csv(&r.tables[i], &csv);
		char *got = slurp(path, &len);
		assert_int_equal(len, csv.len);
		assert_memory_equal(got, csv.buf, len);
		unlink(path);
		free(got);
		tsr_text_release(&csv);
	}
	free(json);
	snprintf(path, sizeof(path), "%s/tcor.txt", dir);
	char *txt = slurp(path, &len);
	assert_int_equal(len, r.text.len);
	assert_memory_equal(txt, r.text.buf, len);
	free(txt);
	unlink(path);
	snprintf(path, sizeof(path), "%s/tcor.json", dir);
	unlink(path);
	/* tcor.txt a folder: an error naming it, no file written */
	snprintf(path, sizeof(path), "%s/tcor.txt", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_not_equal(tsr_xp_result_write_dir(&r, "tcor", dir, cmd, NULL, &err), TSR_OK);
	assert_non_null(strstr(err.msg, "tcor.txt"));
	snprintf(path, sizeof(path), "%s/tcor.csv", dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/tcor.txt", dir);
	rmdir(path);
	assert_int_equal(rmdir(dir), 0);  /* nothing else left */
	tsr_xp_result_release(&r);
}

/* Errors name their subject; nothing is left to release but the result. */
static void test_errors(void **state)
{
	(void)state;
	struct tsr_xp_result r;
	struct tsr_error err = {{0}};
	const char *w = "no-such-workload";
	struct tsr_xp_options o = {.frames = 1, .workloads = &w, .workload_count = 1};
	assert_int_equal(tsr_experiment_run(tsr_experiment_find("re"), &o, &r, &err), TSR_ERR_IO);
	assert_non_null(strstr(err.msg, "no-such-workload"));
	tsr_xp_result_release(&r);
	static const char *const bad[] = {"caches.l2.sise_bytes=1M"};
	w = "sprites-2d";
	o.sets = bad;
	o.set_count = 1;
	assert_int_equal(tsr_experiment_run(tsr_experiment_find("tcor"), &o, &r, &err),
			 TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "sise_bytes"));
	tsr_xp_result_release(&r);
}

int main(int argc, char **argv)
{
	/* shipped data through the data directory, not the current folder */
	if (setenv("TSR_DATA_DIR", TSR_SOURCE_DIR, 1) != 0 || chdir("/") != 0)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_tcor),
		cmocka_unit_test(test_attribute_cache),
		cmocka_unit_test(test_re),
		cmocka_unit_test(test_workloads),
		cmocka_unit_test(test_workloads_range),
		cmocka_unit_test(test_workloads_default),
		cmocka_unit_test(test_boustrophedonic),
		cmocka_unit_test(test_timing),
		cmocka_unit_test(test_dtexl),
		cmocka_unit_test(test_gspc),
		cmocka_unit_test(test_jobs_gspc),
		cmocka_unit_test(test_jobs_workloads),
		cmocka_unit_test(test_on_text),
		cmocka_unit_test(test_csv_dir),
		cmocka_unit_test(test_errors),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
