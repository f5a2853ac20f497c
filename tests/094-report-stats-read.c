/*
 * 094: reading stats.json back (report/stats_read.h; issue 17). Short real
 * runs, written as `tessera run` writes stats.json, read back: every
 * counter of the total and of each frame is bit-identical to the
 * simulation's struct tsr_frame_stats (the imbalance distributions
 * included), the configuration loads back to the
 * same one, the cache names are the hierarchy's in order, and the energy
 * recomputed from what was read is the run's, bit for bit. Functional
 * mode on a single-pass and a multi-pass workload, timing mode with the
 * imbalance statistics, TCOR's Attribute Cache, RE+TE. Errors name the
 * file and the JSON path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "core/datadir.h"
#include "energy/energy.h"
#include "framestats/stats.h"
#include "memory/cache.h"
#include "pipeline/gpu.h"
#include "report/report.h"
#include "report/stats_read.h"
#include "sim/sim.h"
#include "test_util.h"

#define MAX_FRAMES 4

/* One run: its frames' counters as the simulation held them. */
struct run {
	struct tsr_stats_json *json;
	struct tsr_frame_stats *frames;  /* MAX_FRAMES */
	uint32_t count;
};

static enum tsr_status on_frame(void *ctx, struct tsr_sim *s, const struct tsr_frame_stats *fs,
				struct tsr_error *err)
{
	(void)s;
	struct run *r = ctx;
	assert_true(r->count < MAX_FRAMES);
	r->frames[r->count++] = *fs;
	return tsr_stats_json_add_frame(r->json, fs, err);
}

/* Every counter stats.json holds, member by member (padding left out). */
static void assert_stats_equal(const struct tsr_frame_stats *want,
			       const struct tsr_frame_stats *got)
{
	assert_int_equal(got->frame, want->frame);
	assert_int_equal(got->cache_count, want->cache_count);
#define SAME(m) assert_memory_equal(&got->m, &want->m, sizeof(want->m))
	SAME(geometry);
	SAME(tiling);
	SAME(raster);
	SAME(texture);
	SAME(caches);
	SAME(dram);
	SAME(perfect);
	SAME(memory_accesses);
	SAME(attribute_cache);
	SAME(elim);
	SAME(timing);
	SAME(cache_timing);
	SAME(stream_timing);
	SAME(quad_imbalance);  /* tiles, sum and the histogram, exact */
	SAME(time_imbalance);
#undef SAME
}

/* The imbalance summary read (10 digits) is the distribution's. */
static void assert_summary(const struct tsr_quad_imbalance *h,
			   const struct tsr_quad_imbalance_summary *got)
{
	struct tsr_quad_imbalance_summary q;
	tsr_quad_imbalance_summarise(h, &q);
	assert_int_equal(got->tiles, q.tiles);
	assert_true(fabs(got->mean_pct - q.mean_pct) <= 1e-9 * (q.mean_pct + 1));
	assert_true(fabs(got->median_pct - q.median_pct) <= 1e-9 * (q.median_pct + 1));
	assert_true(fabs(got->max_pct - q.max_pct) <= 1e-9 * (q.max_pct + 1));
}

/* Energy recomputed from the file is the run's, bit for bit; the file's (10 digits) close. */
static void assert_energy(const struct tsr_energy *e, const struct tsr_stats_file *f,
			  const struct tsr_frame_stats *mem_s, const struct tsr_frame_stats *file_s,
			  const struct tsr_stats_derived *d)
{
	struct tsr_energy_result want, got;
	struct tsr_error err;
	assert_int_equal(tsr_energy_compute(e, mem_s, &want, &err), TSR_OK);
	if (tsr_stats_file_energy(f, file_s, &got, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	assert_memory_equal(&got.total_nj, &want.total_nj, sizeof(double));
	assert_memory_equal(&got.dynamic_nj, &want.dynamic_nj, sizeof(double));
	assert_memory_equal(&got.static_nj, &want.static_nj, sizeof(double));
	assert_int_equal(got.count, want.count);
	for (uint32_t p = 0; p < want.count; p++) {
		assert_string_equal(got.parts[p].name, want.parts[p].name);
		assert_memory_equal(&got.parts[p].dynamic_nj, &want.parts[p].dynamic_nj,
				    sizeof(double));
	}
	assert_true(d->has_energy);
	assert_true(want.total_nj > 0);
	assert_true(fabs(d->energy_total_nj - want.total_nj) <= 1e-9 * want.total_nj);
}

/*
 * Runs `frames` frames of workload with config file cfg_name (NULL: the
 * defaults) and sets on a 256x128 screen, writes stats.json as `tessera
 * run` does, reads it back and compares. *out gets the total (for the
 * callers' coverage checks).
 */
static void round_trip(const char *workload, const char *cfg_name, const char *const *sets,
		       size_t nsets, uint32_t frames, struct tsr_frame_stats *out)
{
	char wpath[4096], cpath[4096];
	struct tsr_error err;
	assert_int_equal(tsr_data_resolve("workloads", workload, wpath, sizeof(wpath), &err),
			 TSR_OK);
	if (cfg_name)
		assert_int_equal(tsr_data_resolve("configs", cfg_name, cpath, sizeof(cpath), &err),
				 TSR_OK);
	const char *all[16] = {"screen.width=256", "screen.height=128"};
	assert_true(nsets + 2 <= 16);
	for (size_t i = 0; i < nsets; i++)
		all[2 + i] = sets[i];
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	if (tsr_config_apply_sets(&cfg, cfg_name ? cpath : NULL, all, nsets + 2, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	struct tsr_sim *sim = NULL;
	if (tsr_sim_open_scene(&cfg, tsr_test_scene(wpath), &sim, &err) != TSR_OK)
		fail_msg("%s: %s", workload, err.msg);
	struct tsr_gpu *gpu = tsr_sim_gpu(sim);
	const struct tsr_memsys *mem = tsr_gpu_memsys(gpu);
	struct tsr_energy *energy = NULL;
	if (cfg.timing.enabled)
		assert_int_equal(tsr_energy_create(&cfg, mem, &energy, &err), TSR_OK);
	struct run r = {.frames = calloc(MAX_FRAMES, sizeof(struct tsr_frame_stats))};
	assert_non_null(r.frames);
	assert_int_equal(tsr_stats_json_create(mem, cfg.mem.cores, cfg.timing.gpu_mhz, &r.json,
					       &err), TSR_OK);
	tsr_stats_json_set_energy(r.json, energy);
	if (tsr_sim_run(sim, frames, on_frame, &r, &err) != TSR_OK)
		fail_msg("%s: %s", workload, err.msg);
	const struct tsr_frame_stats *total = tsr_sim_total(sim);
	const struct tsr_scene *scene = tsr_sim_scene(sim);
	const struct tsr_stats_workload w = {
		.path = wpath, .name = scene->name ? scene->name : "", .frames = frames,
		.meshes = scene->mesh_count, .materials = scene->material_count,
		.images = scene->image_count,
	};
	char *text = NULL;
	assert_int_equal(tsr_stats_json_render(r.json, &cfg, &w, tsr_gpu_address_map(gpu), total,
					       &text, &err), TSR_OK);
	const char *file = tsr_test_write_tmp("stats.json", text);
	free(text);

	struct tsr_stats_file f;
	if (tsr_stats_read(file, &f, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	assert_string_equal(f.version, TSR_VERSION);
	assert_string_equal(f.workload_path, wpath);
	/* the configuration loads back to the run's */
	char *want_cfg = tsr_config_json_text(&cfg), *got_cfg = tsr_config_json_text(&f.config);
	assert_string_equal(got_cfg, want_cfg);
	free(want_cfg);
	free(got_cfg);
	/* the caches in the hierarchy's order */
	assert_int_equal(f.cache_count, tsr_memsys_cache_count(mem));
	for (uint32_t c = 0; c < f.cache_count; c++)
		assert_string_equal(f.cache_names[c], tsr_cache_name(tsr_memsys_cache(mem, c)));
	assert_int_equal(f.frame_count, frames);
	assert_int_equal(r.count, frames);
	assert_stats_equal(total, f.total);
	assert_summary(&total->quad_imbalance, &f.total_derived.quad_imbalance);
	for (uint32_t i = 0; i < frames; i++) {
		assert_stats_equal(&r.frames[i], tsr_stats_file_frame(&f, i));
		assert_summary(&r.frames[i].time_imbalance, &f.frames_derived[i].time_imbalance);
		if (energy)
			assert_energy(energy, &f, &r.frames[i], &f.frames[i], &f.frames_derived[i]);
		else
			assert_false(f.frames_derived[i].has_energy);
	}
	if (energy)
		assert_energy(energy, &f, total, f.total, &f.total_derived);
	assert_null(tsr_stats_file_frame(&f, frames));
	*out = *total;
	tsr_stats_file_release(&f);
	tsr_stats_file_release(&f);  /* released twice: harmless */
	tsr_stats_json_destroy(r.json);
	tsr_energy_destroy(energy);
	free(r.frames);
	tsr_sim_close(sim);
}

static struct tsr_frame_stats *total_buf(void)
{
	static struct tsr_frame_stats t;
	memset(&t, 0, sizeof(t));
	return &t;
}

static void test_functional_single_pass(void **state)
{
	(void)state;
	struct tsr_frame_stats *t = total_buf();
	round_trip("glmark-scene", NULL, NULL, 0, 2, t);
	assert_true(t->raster.quads_shaded > 0 && t->raster.quads_per_core[3] > 0);
	assert_int_equal(t->timing.cycles, 0);
}

static void test_functional_multi_pass(void **state)
{
	(void)state;
	struct tsr_frame_stats *t = total_buf();
	round_trip("postfx-bloom", NULL, NULL, 0, 2, t);
	assert_true(t->dram[TSR_STREAM_RENDER_TARGET].write_bytes > 0);
}

static void test_timing(void **state)
{
	(void)state;
	static const char *const sets[] = {"timing.enabled=true", "raster.quad_imbalance_stats=true"};
	struct tsr_frame_stats *t = total_buf();
	round_trip("glmark-scene", NULL, sets, 2, 2, t);
	assert_true(t->timing.cycles > 0 && t->timing.memory_latency_hist[1] + 1 > 0);
	assert_true(t->stream_timing[TSR_STREAM_TEXTURE].requests > 0);
	assert_true(t->cache_timing[0].lookups > 0);
	assert_true(t->quad_imbalance.tiles > 0 && t->time_imbalance.tiles > 0);
}

static void test_tcor_attribute_cache(void **state)
{
	(void)state;
	struct tsr_frame_stats *t = total_buf();
	round_trip("glmark-scene", "tcor-64k", NULL, 0, 2, t);
	assert_true(t->attribute_cache.reads > 0 && t->attribute_cache.writes > 0);
}

static void test_re_te(void **state)
{
	(void)state;
	struct tsr_frame_stats *t = total_buf();
	round_trip("static-camera", "re-table1-re-te", NULL, 0, 3, t);
	assert_true(t->elim.tiles_compared > 0 && t->elim.te_tiles_signed > 0);
	assert_true(t->elim.su.primitive_blocks > 0 && t->elim.su.ot_max > 0);
}

/* The immediate-mode pipeline with GSPC's caches (functional): its depth streams. */
static void test_imr_gspc(void **state)
{
	(void)state;
	struct tsr_frame_stats *t = total_buf();
	round_trip("postfx-bloom", "gspc-8mb", NULL, 0, 2, t);
	uint64_t z = 0;
	for (uint32_t c = 0; c < t->cache_count; c++)
		z += t->caches[c][TSR_STREAM_Z].reads + t->caches[c][TSR_STREAM_HIZ].reads;
	assert_true(z > 0);
}

/* Reads text as a stats.json; returns the status, the message in err. */
static enum tsr_status read_text(const char *text, struct tsr_error *err)
{
	struct tsr_stats_file f;
	const char *file = tsr_test_write_tmp("bad.json", text);
	enum tsr_status s = tsr_stats_read(file, &f, err);
	tsr_stats_file_release(&f);
	return s;
}

/* A real stats.json (2 frames, functional) as text, malloc'd. */
static char *good_text(void)
{
	char wpath[4096];
	struct tsr_error err;
	assert_int_equal(tsr_data_resolve("workloads", "glmark-scene", wpath, sizeof(wpath), &err),
			 TSR_OK);
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	cfg.width = 128;
	cfg.height = 64;
	struct tsr_sim *sim = NULL;
	assert_int_equal(tsr_sim_open_scene(&cfg, tsr_test_scene(wpath), &sim, &err), TSR_OK);
	struct run r = {.frames = calloc(MAX_FRAMES, sizeof(struct tsr_frame_stats))};
	const struct tsr_memsys *mem = tsr_gpu_memsys(tsr_sim_gpu(sim));
	assert_int_equal(tsr_stats_json_create(mem, cfg.mem.cores, 0, &r.json, &err), TSR_OK);
	assert_int_equal(tsr_sim_run(sim, 2, on_frame, &r, &err), TSR_OK);
	const struct tsr_stats_workload w = {.path = wpath, .name = "", .frames = 2};
	char *text = NULL;
	assert_int_equal(tsr_stats_json_render(r.json, &cfg, &w,
					       tsr_gpu_address_map(tsr_sim_gpu(sim)),
					       tsr_sim_total(sim), &text, &err), TSR_OK);
	tsr_stats_json_destroy(r.json);
	free(r.frames);
	tsr_sim_close(sim);
	return text;
}

/* text with the first occurrence of `from` after `after` replaced by `to`, malloc'd. */
static char *edit(const char *text, const char *after, const char *from, const char *to)
{
	const char *a = strstr(text, after);
	assert_non_null(a);
	const char *p = strstr(a, from);
	assert_non_null(p);
	size_t n = strlen(text), k = strlen(from), m = strlen(to);
	char *o = malloc(n - k + m + 1);
	assert_non_null(o);
	memcpy(o, text, (size_t)(p - text));
	memcpy(o + (p - text), to, m);
	memcpy(o + (p - text) + m, p + k, n - (size_t)(p - text) - k + 1);
	return o;
}

static void assert_error(const char *text, enum tsr_status want, const char *part1,
			 const char *part2)
{
	struct tsr_error err = {{0}};
	assert_int_equal(read_text(text, &err), want);
	if (!strstr(err.msg, part1) || (part2 && !strstr(err.msg, part2)))
		fail_msg("message '%s' does not name '%s'%s%s", err.msg, part1,
			 part2 ? " and " : "", part2 ? part2 : "");
}

static void test_errors(void **state)
{
	(void)state;
	struct tsr_error err = {{0}};
	struct tsr_stats_file f;
	char missing[256];
	tsr_test_tmp_path("none.json", missing, sizeof(missing));
	assert_int_equal(tsr_stats_read(missing, &f, &err), TSR_ERR_IO);
	assert_non_null(strstr(err.msg, "none.json"));
	tsr_stats_file_release(&f);

	char *good = good_text();
	assert_int_equal(read_text(good, &err), TSR_OK);
	/* truncated */
	char *cut = strdup(good);
	cut[strlen(cut) / 2] = '\0';
	assert_error(cut, TSR_ERR_PARSE, "bad.json", "malformed JSON");
	free(cut);
	assert_error("[1, 2]", TSR_ERR_PARSE, "bad.json", NULL);
	/* a counter of the wrong type, named by its path */
	char *e = edit(good, "\"frames\"", "\"primitives_in\": ", "\"primitives_in\": \"x\", \"y\": ");
	assert_error(e, TSR_ERR_PARSE, "frames[0].geometry.primitives_in", "bad.json");
	free(e);
	e = edit(good, "\"total\"", "\"reads\": ", "\"reads\": -1, \"y\": ");
	assert_error(e, TSR_ERR_PARSE, "total.caches.vertex.", "reads");
	free(e);
	e = edit(good, "\"total\"", "\"quads_per_core\": [", "\"quads_per_core\": [1.5, ");
	assert_error(e, TSR_ERR_PARSE, "total.raster.quads_per_core[0]", NULL);
	free(e);
	/* a missing required object, a missing counter */
	e = edit(good, "\"total\"", "\"tiling\"", "\"tiling_gone\"");
	assert_error(e, TSR_ERR_PARSE, "total.tiling", "missing");
	free(e);
	e = edit(good, "\"frames\"", "\"pmds_read\"", "\"pmds_gone\"");
	assert_error(e, TSR_ERR_PARSE, "frames[0].tiling.pmds_read", "missing");
	free(e);
	/* an unknown stream cannot be placed */
	e = edit(good, "\"total\"", "\"index\": {", "\"warp\": {");
	assert_error(e, TSR_ERR_PARSE, "total.caches.", "warp");
	free(e);
	/* an unknown extra key is fine; a newer major version is not */
	e = edit(good, "\"total\"", "\"memory_accesses\"", "\"new_counter\": 3, \"memory_accesses\"");
	assert_int_equal(read_text(e, &err), TSR_OK);
	free(e);
	e = edit(good, "\"tessera_version\"", TSR_VERSION, "999.0.0");
	assert_error(e, TSR_ERR_PARSE, "999.0.0", "newer");
	free(e);
	/* a bad configuration names the file */
	e = edit(good, "\"config\"", "\"width\": ", "\"width\": \"wide\", \"w\": ");
	assert_int_not_equal(read_text(e, &err), TSR_OK);
	assert_non_null(strstr(err.msg, "bad.json"));
	free(e);
	free(good);
}

static int setup(void **state)
{
	(void)state;
	return tsr_test_tmp_setup("tsr-094");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_test_tmp_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_functional_single_pass),
		cmocka_unit_test(test_functional_multi_pass),
		cmocka_unit_test(test_timing),
		cmocka_unit_test(test_tcor_attribute_cache),
		cmocka_unit_test(test_re_te),
		cmocka_unit_test(test_imr_gspc),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
