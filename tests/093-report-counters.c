/*
 * 093: the counter registry (src/stats/counters.h, framestats/stats.h): every
 * counter is declared once with a unit and a meaning, names are unique,
 * the generic accumulation follows each counter's merge rule, the lookup
 * by name returns the struct's field, and docs/statistics.md's table
 * is the one the declarations generate; the outputs of a run are
 * committed as one transaction (report/report.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <png.h>

#include "test_util.h"

#include "framestats/stats.h"
#include "memory/memsys.h"
#include "report/report.h"

static void check_group(const struct tsr_counter_group *g)
{
	assert_non_null(g->name);
	assert_true(g->help && g->help[0]);
	assert_true(g->count > 0);
	size_t words = 0;
	for (size_t i = 0; i < g->count; i++) {
		const struct tsr_counter_desc *d = &g->counters[i];
		assert_true(d->help && d->help[0]);
		assert_true(!strcmp(d->unit, "count") || !strcmp(d->unit, "bytes") ||
			    !strcmp(d->unit, "cycles") ||
			    !strcmp(d->unit, "cycles^2"));  /* tile sampling's variance */
		assert_true(d->length >= 1);
		assert_int_equal(d->offset % sizeof(uint64_t), 0);
		words += d->length;
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(d->name, g->counters[j].name);
		assert_ptr_equal(tsr_counters_find(g, d->name), d);
	}
	/* every uint64_t of the struct is a declared counter (nested groups aside) */
	size_t sub = g->sub ? g->sub->size : 0;
	assert_int_equal(words * sizeof(uint64_t) + sub, g->size);
	if (g->sub)
		check_group(g->sub);
}

static void test_declarations(void **state)
{
	(void)state;
	for (size_t i = 0; i < tsr_stats_group_count; i++)
		check_group(tsr_stats_groups[i].group);
	check_group(&tsr_counters_cache);
	check_group(&tsr_counters_dram);
	assert_int_equal(tsr_counters_find(&tsr_counters_signature_unit, "ot_max")->merge,
			 TSR_MERGE_MAX);
	assert_null(tsr_counters_find(&tsr_counters_geometry, "nonsense"));
}

/* Sums sum, high-water marks keep the largest, deltas subtract sums only. */
static void test_merge_rules(void **state)
{
	(void)state;
	struct tsr_frame_stats *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	assert_non_null(a);
	assert_non_null(b);
	a->geometry.draws = 3;
	b->geometry.draws = 4;
	a->raster.quads_per_core[2] = 5;
	b->raster.quads_per_core[2] = 6;
	a->elim.su.ot_max = 9;
	b->elim.su.ot_max = 7;
	a->elim.su.ot_pushes = 1;
	b->elim.su.ot_pushes = 2;
	b->cache_count = 1;
	b->caches[0][TSR_STREAM_TEXTURE].read_misses = 11;
	b->perfect[TSR_STREAM_VERTEX].read_bytes = 64;
	tsr_frame_stats_add(a, b);
	assert_int_equal(a->geometry.draws, 7);
	assert_int_equal(a->raster.quads_per_core[2], 11);
	assert_int_equal(a->elim.su.ot_max, 9);
	assert_int_equal(a->elim.su.ot_pushes, 3);
	assert_int_equal(a->caches[0][TSR_STREAM_TEXTURE].read_misses, 11);
	assert_int_equal(a->perfect[TSR_STREAM_VERTEX].read_bytes, 64);
	struct tsr_su_counters now = {.ot_pushes = 10, .ot_max = 4}, base = {.ot_pushes = 7,
									    .ot_max = 8}, d;
	tsr_counters_delta(&tsr_counters_signature_unit, &d, &now, &base);
	assert_int_equal(d.ot_pushes, 3);
	assert_int_equal(d.ot_max, 4);
	assert_true(tsr_counters_any(&tsr_counters_elimination, &a->elim));
	struct tsr_elimination_stats zero;
	memset(&zero, 0, sizeof(zero));
	assert_false(tsr_counters_any(&tsr_counters_elimination, &zero));
	free(a);
	free(b);
}

/* The lookup by name returns the fields, and sums per-core copies and streams. */
static void test_lookup(void **state)
{
	(void)state;
	struct tsr_memsys_config mc;
	tsr_memsys_config_defaults(&mc, 4);
	struct tsr_memsys *m = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_memsys_create(&mc, &m, &err), TSR_OK);
	struct tsr_frame_stats *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	s->cache_count = tsr_memsys_cache_count(m);
	s->geometry.primitives_in = 42;
	s->raster.quads_per_core[3] = 5;
	s->elim.su.ot_max = 6;
	s->memory_accesses = 99;
	uint32_t t1 = tsr_memsys_cache_port(m, "texture1"), l2 = tsr_memsys_cache_port(m, "l2");
	s->caches[t1][TSR_STREAM_TEXTURE].reads = 7;
	s->caches[t1 + 1][TSR_STREAM_TEXTURE].reads = 8;
	s->caches[l2][TSR_STREAM_TEXTURE].read_misses = 3;
	s->caches[l2][TSR_STREAM_PB_LISTS].read_misses = 4;
	s->dram[TSR_STREAM_COLOR].write_bytes = 640;
	s->dram[TSR_STREAM_TEXTURE].read_bytes = 64;
	static const struct {
		const char *name;
		uint64_t want;
	} cases[] = {
		{"geometry.primitives_in", 42},
		{"raster.quads_per_core.3", 5},
		{"elimination.signature_unit.ot_max", 6},
		{"memory_accesses", 99},
		{"caches.texture1.texture.reads", 7},
		{"caches.texture.all.reads", 15},
		{"caches.l2.all.read_misses", 7},
		{"caches.l2.pb_lists.read_misses", 4},
		{"dram.color.write_bytes", 640},
		{"dram.all.read_bytes", 64},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0;
		enum tsr_status st = tsr_stats_lookup(s, m, cases[i].name, &v, &err);
		if (st != TSR_OK)
			print_error("%s: %s\n", cases[i].name, err.msg);
		assert_int_equal(st, TSR_OK);
		assert_int_equal(v, cases[i].want);
	}
	static const char *const bad[] = {"geometry.nonsense", "caches.l3.all.reads",
					   "caches.l2.colour.reads", "raster.quads_per_core.16",
					   "raster.quads_per_core", "dram.all", "frobs.x"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v;
		assert_int_equal(tsr_stats_lookup(s, m, bad[i], &v, &err), TSR_ERR_CONFIG);
	}
	free(s);
	tsr_memsys_destroy(m);
}

/* docs/statistics.md's table of counters is the generated one. */
static void test_doc_table(void **state)
{
	(void)state;
	char *section = tsr_test_doc_block("docs/statistics.md",
					     "tessera counters --markdown");
	assert_non_null(section);
	size_t len = tsr_stats_markdown(NULL, 0);
	char *table = malloc(len + 1);
	assert_non_null(table);
	tsr_stats_markdown(table, len + 1);
	if (strcmp(section, table))
		fail_msg("docs/statistics.md's table of counters differs from "
			 "`tessera counters --markdown`");
	free(table);
	free(section);
}

/* 1 when <tmp dir>/<name> holds exactly `text` (NULL: does not exist). */
static int holds(const char *name, const char *text)
{
	char path[256], buf[64] = {0};
	tsr_test_tmp_path(name, path, sizeof(path));
	FILE *f = fopen(path, "rb");
	if (!f)
		return text == NULL;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	return text && n == strlen(text) && memcmp(buf, text, n) == 0;
}

/* Writes a.txt, b.txt and c.txt through a tsr_output of the tmp dir. */
static void write_three(struct tsr_output *o, const char *tag)
{
	struct tsr_error err;
	memset(o, 0, sizeof(*o));
	assert_int_equal(tsr_output_open(o, tsr_test_tmp()->dir, &err), TSR_OK);
	const char *names[] = {"a.txt", "b.txt", "c.txt"};
	for (int i = 0; i < 3; i++) {
		char text[32];
		snprintf(text, sizeof(text), "%s %c", tag, 'a' + i);
		assert_int_equal(tsr_output_write(o, names[i], text, strlen(text), &err), TSR_OK);
	}
}

/*
 * issue 12: a commit replaces every output or none: when its second rename
 * fails, the first output gets its old file back, the third (new) does not
 * appear, and no temporary or backup is left after abort; a commit that
 * succeeds replaces all three and leaves no backup.
 */
static void test_output_commit_transaction(void **state)
{
	(void)state;
	tsr_test_write_tmp("a.txt", "old a");
	tsr_test_write_tmp("b.txt", "old b");
	struct tsr_output o;
	struct tsr_error err;
	for (uint32_t fail = 1; fail <= 3; fail++) {
		write_three(&o, "new");
		tsr_output_test_fail_rename(fail);
		assert_int_equal(tsr_output_commit(&o, &err), TSR_ERR_IO);
		assert_non_null(strstr(err.msg, "cannot rename"));
		tsr_output_abort(&o);
		assert_true(holds("a.txt", "old a"));
		assert_true(holds("b.txt", "old b"));
		assert_true(holds("c.txt", NULL));
		const char *left[] = {"a.txt.tmp", "b.txt.tmp", "c.txt.tmp", "a.txt.old.tmp",
				      "b.txt.old.tmp"};
		for (int i = 0; i < 5; i++)
			assert_true(holds(left[i], NULL));
	}
	write_three(&o, "new");
	assert_int_equal(tsr_output_commit(&o, &err), TSR_OK);
	assert_true(holds("a.txt", "new a"));
	assert_true(holds("b.txt", "new b"));
	assert_true(holds("c.txt", "new c"));
	assert_true(holds("a.txt.old.tmp", NULL));
	tsr_test_write_tmp("c.txt", ""); /* removed at teardown */
}

/* Reads file `name` of the tmp dir whole into buf; its length, or -1. */
static long read_tmp(const char *name, char *buf, size_t cap)
{
	char path[16640];
	snprintf(path, sizeof(path), "%s/%s", tsr_test_tmp()->dir, name);
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, cap, f);
	fclose(f);
	return (long)n;
}

/*
 * tsr_output_png(): an image whose alphas are all 255 is written as RGB,
 * any other as RGBA, and libpng decodes both (taller than one IDAT chunk
 * of compressed noise) back to exactly the pixels given, as RGBA.
 */
static void test_output_png_pixels(void **state)
{
	(void)state;
	enum { W = 301, H = 1207 };
	static uint8_t img[W * H * 4], back[W * H * 4];
	uint32_t x = 12345;
	for (size_t i = 0; i < sizeof(img); i++) {
		x = x * 1103515245u + 12345u;
		img[i] = (uint8_t)(i % 4 == 3 ? 255 : x >> 24);
	}
	for (int translucent = 0; translucent < 2; translucent++) {
		if (translucent)
			img[(size_t)(W * H / 2) * 4 + 3] = 7;
		struct tsr_output o;
		struct tsr_error err;
		assert_int_equal(tsr_output_open(&o, tsr_test_tmp()->dir, &err), TSR_OK);
		assert_int_equal(tsr_output_png(&o, "pixels.png", W, H, img, &err), TSR_OK);
		assert_int_equal(tsr_output_commit(&o, &err), TSR_OK);
		char path[16640];
		snprintf(path, sizeof(path), "%s/pixels.png", tsr_test_tmp()->dir);
		png_image pi;
		memset(&pi, 0, sizeof(pi));
		pi.version = PNG_IMAGE_VERSION;
		assert_true(png_image_begin_read_from_file(&pi, path));
		assert_int_equal(pi.width, W);
		assert_int_equal(pi.height, H);
		assert_int_equal((pi.format & PNG_FORMAT_FLAG_ALPHA) != 0, translucent);
		pi.format = PNG_FORMAT_RGBA;
		memset(back, 0, sizeof(back));
		assert_true(png_image_finish_read(&pi, NULL, back, 0, NULL));
		assert_memory_equal(back, img, sizeof(img));
		remove(path);
	}
}

/*
 * tsr_output_png_async(): the same file as tsr_output_png() (the image is
 * copied, so changing it after the call changes nothing), two in a row,
 * an abort with one in flight leaves no file and no temporary, and a
 * temporary that cannot be created is reported as the image's error.
 */
static void test_output_png_async(void **state)
{
	(void)state;
	enum { W = 67, H = 33 };
	static uint8_t img[W * H * 4];
	for (size_t i = 0; i < sizeof(img); i++)
		img[i] = (uint8_t)(i * 7 + i / 97);
	struct tsr_output o;
	struct tsr_error err;
	assert_int_equal(tsr_output_open(&o, tsr_test_tmp()->dir, &err), TSR_OK);
	assert_int_equal(tsr_output_png(&o, "sync.png", W, H, img, &err), TSR_OK);
	assert_int_equal(tsr_output_png_async(&o, "async.png", W, H, img, &err), TSR_OK);
	memset(img, 0, 64);  /* the write has its own copy */
	assert_int_equal(tsr_output_png_async(&o, "zero.png", W, H, img, &err), TSR_OK);
	assert_int_equal(tsr_output_commit(&o, &err), TSR_OK);
	static char a[65536], b[65536];
	const long na = read_tmp("sync.png", a, sizeof(a)), nb = read_tmp("async.png", b, sizeof(b));
	assert_true(na > 0 && na == nb);
	assert_memory_equal(a, b, (size_t)na);
	assert_true(read_tmp("zero.png", b, sizeof(b)) > 0);
	/* an abort waits for the write in flight and removes its temporary */
	assert_int_equal(tsr_output_open(&o, tsr_test_tmp()->dir, &err), TSR_OK);
	assert_int_equal(tsr_output_png_async(&o, "gone.png", W, H, img, &err), TSR_OK);
	tsr_output_abort(&o);
	assert_true(holds("gone.png", NULL));
	assert_true(holds("gone.png.tmp", NULL));
	/* a temporary that cannot be written (a folder in its place) */
	char dir[16640];
	snprintf(dir, sizeof(dir), "%s/bad.png.tmp", tsr_test_tmp()->dir);
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(tsr_output_open(&o, tsr_test_tmp()->dir, &err), TSR_OK);
	enum tsr_status s = tsr_output_png_async(&o, "bad.png", W, H, img, &err);
	if (s == TSR_OK)
		s = tsr_output_png_wait(&o, &err);
	assert_int_equal(s, TSR_ERR_IO);
	assert_non_null(strstr(err.msg, "bad.png"));
	tsr_output_abort(&o);
	rmdir(dir);
	const char *made[] = {"sync.png", "async.png", "zero.png"};
	for (int i = 0; i < 3; i++) {
		char path[16640];
		snprintf(path, sizeof(path), "%s/%s", tsr_test_tmp()->dir, made[i]);
		remove(path);
	}
}

static int setup(void **state)
{
	(void)state;
	return tsr_test_tmp_setup("tsr-093");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_test_tmp_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_declarations),
		cmocka_unit_test(test_merge_rules),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_doc_table),
		cmocka_unit_test(test_output_commit_transaction),
		cmocka_unit_test(test_output_png_pixels),
		cmocka_unit_test(test_output_png_async),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
