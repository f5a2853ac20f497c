/*
 * 095: golden counters. Three short runs on real assets pin every total
 * counter tessera reports (every cache and stream, DRAM, geometry, tiling,
 * raster, texture, Attribute Cache, elimination) and a hash of the last
 * image, exactly:
 *   - glmark-scene (the default workload) on configs/tcor-table1.json
 *   - sprites-2d (2D) on configs/re-table1-re-te.json (RE and TE on)
 *   - gltf-truck on configs/tcor-64k.json (TCOR)
 *   - a capture of glmark2-es2 (its build, texture and shading scenes, one
 *     frame each, 160x120) replayed with `tessera run X.trace` on
 *     configs/tcor-table1.json: the GL ES driver's path (the capture is
 *     made at test time by tests/capture-fixture.sh; the case is skipped
 *     without it, and in a sanitized build, whose driver eglretrace cannot
 *     load)
 *
 * The expected values live in tests/golden/<run>.txt, one "path value"
 * line per counter (the flattened "total" object of stats.json). A
 * refactor keeps them bit-identical. A deliberate change of the model
 * regenerates them with
 *     TSR_GOLDEN_UPDATE=1 ./build/test-095-golden-counters
 * in a commit of its own whose message says why.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#include "config/config.h"
#include "pipeline/gpu.h"
#include "report/compare.h"
#include "scene/image_load.h"
#include "report/report.h"
#include "scene/scene.h"
#include "sim/sim.h"

struct golden_run {
	const char *name;      /* tests/golden/<name>.txt */
	const char *workload;  /* under workloads/ */
	const char *config;    /* under configs/ */
	uint32_t frames;
};

/* A growing text of "path value" lines. */
struct text {
	char *buf;
	size_t len, cap;
};

static void text_add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	assert_true(n >= 0);
	if (t->len + (size_t)n + 1 > t->cap) {
		t->cap = (t->len + (size_t)n + 1) * 2;
		t->buf = realloc(t->buf, t->cap);
		assert_non_null(t->buf);
	}
	va_start(ap, fmt);
	vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

/* Flattens a JSON value into "path value" lines, object keys sorted. */
static void flatten(struct text *t, const char *path, const json_t *v)
{
	char sub[512];
	if (json_is_object(v)) {
		const char *keys[256];
		size_t n = 0;
		const char *k;
		const json_t *x;
		json_object_foreach((json_t *)v, k, x) {
			assert_true(n < 256);
			keys[n++] = k;
		}
		for (size_t i = 1; i < n; i++)  /* insertion sort: a few dozen keys */
			for (size_t j = i; j > 0 && strcmp(keys[j - 1], keys[j]) > 0; j--) {
				const char *tmp = keys[j];
				keys[j] = keys[j - 1];
				keys[j - 1] = tmp;
			}
		for (size_t i = 0; i < n; i++) {
			snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", keys[i]);
			flatten(t, sub, json_object_get(v, keys[i]));
		}
	} else if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++) {
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			flatten(t, sub, json_array_get(v, i));
		}
	} else if (json_is_integer(v)) {
		text_add(t, "%s %lld\n", path, (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		text_add(t, "%s %.17g\n", path, json_real_value(v));
	} else if (json_is_string(v)) {
		text_add(t, "%s %s\n", path, json_string_value(v));
	} else {
		text_add(t, "%s %s\n", path, json_is_true(v) ? "true" : "false");
	}
}

/* FNV-1a over the image bytes. */
static uint64_t fnv1a(const uint8_t *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

/* Runs one golden run and returns its counters as text (caller frees). */
static char *run_counters(const struct golden_run *r)
{
	char path[1024];
	struct tsr_error err = {{0}};
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	snprintf(path, sizeof(path), "%s/configs/%s", TSR_SOURCE_DIR, r->config);
	if (tsr_config_load(path, &cfg, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	snprintf(path, sizeof(path), "%s/workloads/%s", TSR_SOURCE_DIR, r->workload);
	struct tsr_sim *sim = NULL;
	if (tsr_sim_open(&cfg, path, &sim, &err) != TSR_OK ||
	    tsr_sim_run(sim, r->frames, NULL, NULL, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	struct tsr_gpu *gpu = tsr_sim_gpu(sim);
	char *jtext = NULL;
	if (tsr_stats_object_text(tsr_sim_total(sim), tsr_gpu_memsys(gpu), cfg.mem.cores, &jtext,
				  &err) != TSR_OK)
		fail_msg("%s", err.msg);
	json_t *j = json_loads(jtext, 0, NULL);
	free(jtext);
	assert_non_null(j);
	struct text t = {0};
	text_add(&t, "run %s %s %u frames\n", r->workload, r->config, r->frames);
	flatten(&t, "", j);
	text_add(&t, "image_fnv1a %016llx\n",
		 (unsigned long long)fnv1a(tsr_gpu_frame_image(gpu),
					   (size_t)cfg.width * cfg.height * 4));
	json_decref(j);
	tsr_sim_close(sim);
	return t.buf;
}

/* Prints the first line where got and want differ (with its neighbour lines' paths). */
static void report_difference(const char *want, const char *got)
{
	int line = 1;
	while (*want && *got) {
		const char *we = strchr(want, '\n'), *ge = strchr(got, '\n');
		size_t wn = we ? (size_t)(we - want) : strlen(want);
		size_t gn = ge ? (size_t)(ge - got) : strlen(got);
		if (wn != gn || memcmp(want, got, wn)) {
			print_error("first difference at line %d:\n  golden: %.*s\n  now:    %.*s\n",
				    line, (int)wn, want, (int)gn, got);
			return;
		}
		want += wn + (we != NULL);
		got += gn + (ge != NULL);
		line++;
	}
	print_error("one side ends at line %d\n", line);
}

/* Checks got (freed here) against tests/golden/<name>.txt, or writes it
 * there with TSR_GOLDEN_UPDATE=1. */
static void compare_golden(const char *name, char *got)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/tests/golden/%s.txt", TSR_SOURCE_DIR, name);
	const char *update = getenv("TSR_GOLDEN_UPDATE");
	if (update && *update == '1') {
		FILE *f = fopen(path, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(got, 1, strlen(got), f), strlen(got));
		assert_int_equal(fclose(f), 0);
		print_message("wrote %s\n", path);
		free(got);
		return;
	}
	char *want = tsr_test_read_file(path);
	if (!want)
		fail_msg("no golden file '%s' (TSR_GOLDEN_UPDATE=1 writes it)", path);
	if (strcmp(want, got) != 0) {
		report_difference(want, got);
		free(want);
		free(got);
		fail_msg("counters of run '%s' differ from %s", name, path);
	}
	free(want);
	free(got);
}

static void check_golden(const struct golden_run *r)
{
	compare_golden(r->name, run_counters(r));
}

static void test_default_workload_tcor_table1(void **state)
{
	(void)state;
	const struct golden_run r = {"glmark-scene-tcor-table1", "glmark-scene.json",
				     "tcor-table1.json", 3};
	check_golden(&r);
}

static void test_sprites_2d_re_te(void **state)
{
	(void)state;
	/* 5 frames: RE compares with the frame two back from frame 2 on */
	const struct golden_run r = {"sprites-2d-re-table1-re-te", "sprites-2d.json",
				     "re-table1-re-te.json", 5};
	check_golden(&r);
}

static void test_gltf_truck_tcor_64k(void **state)
{
	(void)state;
	const struct golden_run r = {"gltf-truck-tcor-64k", "gltf-truck.json", "tcor-64k.json",
				     3};
	check_golden(&r);
}

/* The capture: `tessera run` (the binary: eglretrace and the driver), its
 * stats.json's "total" object and its last image. */
static void test_glmark2_capture_tcor_table1(void **state)
{
	(void)state;
#ifdef TSR_SANITIZED
	skip();  /* eglretrace has no sanitizer runtime: it cannot load the driver */
#endif
	const char *trace = TSR_CAPTURE_DIR "/glmark2.trace";
	if (access(trace, R_OK) != 0) {
		print_message("skipped: no capture %s (tests/capture-fixture.sh needs xvfb, "
			      "apitrace and glmark2-es2-x11)\n", trace);
		skip();
	}
	char dir[] = "/tmp/tsr-095-XXXXXX", cmd[2048], path[1024];
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "'%s' run '%s' --config '%s/configs/tcor-table1.json' "
		 "--out '%s/out' --quiet", TSR_BINARY, trace, TSR_SOURCE_DIR, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/out/stats.json", dir);
	json_t *j = json_load_file(path, 0, NULL);
	assert_non_null(j);
	struct text t = {0};
	text_add(&t, "run glmark2.trace (tests/capture-fixture.sh) tcor-table1.json 3 frames\n");
	flatten(&t, "", json_object_get(j, "total"));
	json_decref(j);
	struct tsr_image img;
	struct tsr_error err = {{0}};
	snprintf(path, sizeof(path), "%s/out/frame-0002.png", dir);
	if (tsr_image_read(path, &img, &err) != TSR_OK)
		fail_msg("%s", err.msg);
	text_add(&t, "image_fnv1a %016llx\n",
		 (unsigned long long)fnv1a(img.rgba, (size_t)img.width * img.height * 4));
	tsr_image_release(&img);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	compare_golden("glmark2-capture-tcor-table1", t.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_workload_tcor_table1),
		cmocka_unit_test(test_sprites_2d_re_te),
		cmocka_unit_test(test_gltf_truck_tcor_64k),
		cmocka_unit_test(test_glmark2_capture_tcor_table1),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
