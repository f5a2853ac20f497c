/*
 * 125: the energy model of the timing mode (energy/energy.h): the energy
 * of a small run equals the counters times the default pJ plus static
 * power times time, computed here from the README's table; one override
 * changes its component only; unknown names are rejected naming the key;
 * no energy without timing.enabled; determinism.
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
#include <unistd.h>

#include "config/config.h"
#include "core/datadir.h"
#include "energy/energy.h"
#include "framestats/stats.h"
#include "pipeline/gpu.h"
#include "sim/sim.h"
#include "test_util.h"

/* A small timing run of glmark-scene (loaded once): its total and the open run (for
 * its hierarchy). */
static struct tsr_sim *run(const struct tsr_gpu_config *cfg, uint32_t frames)
{
	char path[4096];
	struct tsr_error err;
	struct tsr_sim *sim = NULL;
	assert_int_equal(tsr_data_resolve("workloads", "glmark-scene", path, sizeof(path), &err),
			 TSR_OK);
	if (tsr_sim_open_scene(cfg, tsr_test_scene(path), &sim, &err) != TSR_OK ||
	    tsr_sim_run(sim, frames, NULL, NULL, &err) != TSR_OK)
		fail_msg("glmark-scene: %s", err.msg);
	return sim;
}

static void small(struct tsr_gpu_config *cfg, int timing)
{
	tsr_config_defaults(cfg);
	cfg->width = 320;
	cfg->height = 192;
	cfg->timing.enabled = timing;
}

static struct tsr_energy_result energy_of(const struct tsr_gpu_config *cfg,
					  const struct tsr_sim *sim)
{
	struct tsr_error err;
	struct tsr_energy *e = NULL;
	struct tsr_energy_result r;
	if (tsr_energy_create(cfg, tsr_gpu_memsys(tsr_sim_gpu(sim)), &e, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	assert_int_equal(tsr_energy_compute(e, tsr_sim_total(sim), &r, &err), TSR_OK);
	tsr_energy_destroy(e);
	return r;
}

static const struct tsr_energy_part *part(const struct tsr_energy_result *r, const char *name)
{
	for (uint32_t p = 0; p < r->count; p++)
		if (!strcmp(r->parts[p].name, name))
			return &r->parts[p];
	return NULL;
}

/* The SRAM formula, written again from its definition (README "Energy"). */
static double sram_pj(double kib, double ways, double line)
{
	double e64 = kib <= 32 ? 10.0 * pow(kib / 8.0, log(2.0) / log(4.0))
			       : 20.0 * pow(kib / 32.0, log(5.0) / log(32.0));
	return e64 * sqrt(line / 8.0) * (1.0 + 0.05 * (ways - 1.0));
}

static void assert_close(double got, double want)
{
	if (fabs(got - want) > 1e-9 * fabs(want) + 1e-9)
		fail_msg("energy %.12g nJ, expected %.12g nJ", got, want);
}

/* The total is the default table applied to the counters, counted here by hand. */
static void test_sum_of_counts(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	small(&cfg, 1);
	struct tsr_sim *sim = run(&cfg, 1);
	const struct tsr_frame_stats *s = tsr_sim_total(sim);
	const struct tsr_memsys *mem = tsr_gpu_memsys(tsr_sim_gpu(sim));
	assert_true(s->timing.cycles > 0 && s->timing.dram_activates > 0 &&
		    s->timing.dram_read_bursts > 0 && s->timing.dram_io_bytes > 0);
	const uint32_t cores = cfg.mem.cores;
	double pj = 0;
	for (uint32_t c = 0; c < cores; c++)
		pj += 58.0 * (double)s->timing.core_busy[c];
	pj += 20.0 * (double)s->texture.sample_instructions + 3.0 * (double)s->texture.texel_fetches;
	pj += 30.0 * (double)s->raster.quads_rasterized + 20.0 * (double)s->raster.quads_shaded;
	pj += 14.5 * (double)s->geometry.vertex_instructions + 20.0 * (double)s->geometry.primitives_in;
	pj += 10.0 * (double)s->geometry.primitives_binned + 5.0 * (double)s->tiling.pmds_written +
	      3.0 * (double)s->tiling.pmds_read;
	double cache_mw = 0;
	for (uint32_t c = 0; c < s->cache_count; c++) {
		const struct tsr_cache_config *k = tsr_memsys_cache_config(mem, c);
		double e = sram_pj(k->geom.size_bytes / 1024.0, k->geom.ways, k->geom.line_bytes);
		for (int st = 0; st < TSR_STREAM_COUNT; st++) {
			const struct tsr_cache_counters *x = &s->caches[c][st];
			pj += e * (double)(x->reads + x->writes + x->read_misses + x->write_misses +
					   x->writebacks);
		}
		cache_mw += 0.02 * k->geom.size_bytes / 1024.0;  /* each copy */
	}
	const struct tsr_timing_stats *t = &s->timing;
	double dram_pj = 2943.0 * (double)t->dram_activates + 1383.75 * (double)t->dram_precharges +
			 1317.0 * (double)t->dram_read_bursts + 1506.0 * (double)t->dram_write_bursts +
			 26832.0 * (double)t->dram_refreshes + 14.4 * (double)t->dram_io_bytes;
	pj += dram_pj;
	double mw = 10.0 * cores + 2.0 * cores + 5 + 3 + 5 + cache_mw + 115.2;
	double us = (double)t->cycles / cfg.timing.gpu_mhz;
	struct tsr_energy_result r = energy_of(&cfg, sim);
	assert_close(r.dynamic_nj, pj * 1e-3);
	assert_close(r.static_nj, mw * us);
	assert_close(r.total_nj, pj * 1e-3 + mw * us);
	const struct tsr_energy_part *d = part(&r, "dram");
	assert_non_null(d);
	assert_close(d->dynamic_nj, dram_pj * 1e-3);
	assert_close(d->static_nj, 115.2 * us);
	/* the components add up */
	double sum = 0;
	for (uint32_t p = 0; p < r.count; p++)
		sum += r.parts[p].dynamic_nj + r.parts[p].static_nj;
	assert_close(sum, r.total_nj);
	tsr_sim_close(sim);
}

/* One key changes exactly its component; a new counter adds to its group's. */
static void test_override(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg, over;
	struct tsr_error err;
	small(&cfg, 1);
	struct tsr_sim *sim = run(&cfg, 1);
	const struct tsr_frame_stats *s = tsr_sim_total(sim);
	struct tsr_energy_result a = energy_of(&cfg, sim);
	static const struct {
		const char *set, *component;
		int is_static;
	} cases[] = {
		{"energy.raster.quads_shaded=100", "raster", 0},
		{"energy.caches.l2.all.reads=1000", "caches.l2", 0},
		{"energy.static_mw.dram=7", "dram", 1},
		{"energy.geometry.draws=5000", "geometry", 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		over = cfg;
		const char *set[] = {cases[i].set};
		if (tsr_config_apply_sets(&over, NULL, set, 1, &err) != TSR_OK)
			fail_msg("%s: %s", cases[i].set, err.msg);
		struct tsr_energy_result b = energy_of(&over, sim);
		assert_int_equal(a.count, b.count);
		for (uint32_t p = 0; p < a.count; p++) {
			assert_string_equal(a.parts[p].name, b.parts[p].name);
			int mine = !strcmp(a.parts[p].name, cases[i].component);
			if (mine && cases[i].is_static)
				assert_true(a.parts[p].static_nj != b.parts[p].static_nj);
			else
				assert_true(a.parts[p].static_nj == b.parts[p].static_nj);
			if (mine && !cases[i].is_static)
				assert_true(a.parts[p].dynamic_nj != b.parts[p].dynamic_nj);
			else
				assert_true(a.parts[p].dynamic_nj == b.parts[p].dynamic_nj);
		}
	}
	/* the first case by its numbers */
	over = cfg;
	const char *set[] = {"energy.raster.quads_shaded=100"};
	assert_int_equal(tsr_config_apply_sets(&over, NULL, set, 1, &err), TSR_OK);
	struct tsr_energy_result b = energy_of(&over, sim);
	assert_close(part(&b, "raster")->dynamic_nj - part(&a, "raster")->dynamic_nj,
		     80.0 * (double)s->raster.quads_shaded * 1e-3);
	/* a file's section, flat or nested, does the same */
	const char *file = tsr_test_write_tmp(
		"energy.json", "{\"energy\": {\"raster.quads_shaded\": 100, \"static_mw\": {\"dram\": 7}}}");
	tsr_config_defaults(&over);
	assert_int_equal(tsr_config_load(file, &over, &err), TSR_OK);
	assert_int_equal(over.energy.count, 2);
	assert_string_equal(over.energy.items[1].name, "static_mw.dram");
	assert_true(over.energy.items[0].value == 100.0);
	tsr_sim_close(sim);
}

/* Every bad key is rejected with a message naming it. */
static void test_bad_keys(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"energy.raster.quads_shadded=1",     /* no such counter */
		"energy.caches.l9.all.reads=1",      /* no such cache */
		"energy.caches.l2.all.nonsense=1",   /* no such cache counter */
		"energy.static_mw.fan=1",            /* no such component */
		"energy.frobs.x=1",                  /* no such group */
		"energy.raster.quads_shaded=-1",     /* negative */
		"energy.raster.quads_shaded=\"a\"",  /* not a number */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct tsr_gpu_config cfg;
		struct tsr_error err;
		tsr_config_defaults(&cfg);
		const char *set[] = {bad[i]};
		assert_int_equal(tsr_config_apply_sets(&cfg, NULL, set, 1, &err), TSR_ERR_CONFIG);
		char key[96];
		snprintf(key, sizeof(key), "'%.*s'", (int)strcspn(bad[i], "="), bad[i]);
		if (!strstr(err.msg, key))
			fail_msg("%s: message '%s' does not name the key", bad[i], err.msg);
	}
	/* per-core copies and a configured instance are fine */
	struct tsr_gpu_config cfg;
	struct tsr_error err;
	tsr_config_defaults(&cfg);
	const char *ok[] = {"energy.caches.texture2.texture.reads=1", "energy.static_mw.caches.l2=1",
			    "energy.timing.core_busy.3=1", "energy.memory_accesses=0.5"};
	if (tsr_config_apply_sets(&cfg, NULL, ok, 4, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	/* the effective configuration keeps the overrides and loads back the same */
	char *text = tsr_config_json_text(&cfg);
	struct tsr_gpu_config back;
	tsr_config_defaults(&back);
	assert_int_equal(tsr_config_load(tsr_test_write_tmp("back.json", text), &back, &err), TSR_OK);
	char *again = tsr_config_json_text(&back);
	assert_string_equal(text, again);
	free(text);
	free(again);
}

/* Without timing.enabled: no time, no DRAM events, and stats.json has no energy. */
static void test_no_timing(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	small(&cfg, 0);
	struct tsr_sim *sim = run(&cfg, 1);
	struct tsr_energy_result r = energy_of(&cfg, sim);
	assert_true(r.static_nj == 0.0);
	assert_true(part(&r, "dram")->dynamic_nj == 0.0);
	assert_true(part(&r, "shader_cores")->dynamic_nj > 0.0);  /* sample instructions */
	tsr_sim_close(sim);
	/* the CLI: an energy object and CSV column only in timing mode */
	char dir[64];
	snprintf(dir, sizeof(dir), "%.63s", tsr_test_tmp()->dir);
	for (int timing = 0; timing < 2; timing++) {
		char cmd[4096], path[512];
		snprintf(cmd, sizeof(cmd),
			 "%s run sprites-2d --frames 1 --out %s/t%d --dump-frames none --quiet "
			 "--set screen.width=320 --set screen.height=192 --timing %s",
			 TSR_BINARY, dir, timing, timing ? "on" : "off");
		assert_int_equal(system(cmd), 0);
		snprintf(path, sizeof(path), "%s/t%d/stats.json", dir, timing);
		char *text = tsr_test_read_file(path);
		assert_int_equal(strstr(text, "\"energy\"") != NULL, timing);
		assert_int_equal(strstr(text, "\"per_frame_nj\"") != NULL, timing);
		free(text);
		unlink(path);
		snprintf(path, sizeof(path), "%s/t%d/frames.csv", dir, timing);
		text = tsr_test_read_file(path);
		assert_int_equal(strstr(text, ",energy_nj\n") != NULL, timing);
		free(text);
		unlink(path);
		snprintf(path, sizeof(path), "%s/t%d", dir, timing);
		rmdir(path);
	}
}

/* Two runs, the same energy to the bit. */
static void test_deterministic(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	small(&cfg, 1);
	cfg.elim.rendering = 1;  /* the Signature Unit's rows too */
	struct tsr_sim *a = run(&cfg, 3), *b = run(&cfg, 3);
	struct tsr_energy_result ra = energy_of(&cfg, a), rb = energy_of(&cfg, b);
	assert_non_null(part(&ra, "signature_unit"));
	assert_true(part(&ra, "signature_unit")->dynamic_nj > 0.0);
	assert_memory_equal(&ra, &rb, sizeof(ra));
	tsr_sim_close(a);
	tsr_sim_close(b);
}

static int setup(void **state)
{
	(void)state;
	return tsr_test_tmp_setup("tsr-125");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_test_tmp_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sum_of_counts),
		cmocka_unit_test(test_override),
		cmocka_unit_test(test_bad_keys),
		cmocka_unit_test(test_no_timing),
		cmocka_unit_test(test_deterministic),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
