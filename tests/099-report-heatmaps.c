/*
 * 099-report-heatmaps.c - `tessera run --heatmaps` (report/heatmap.h,
 * pipeline/gpu.h's per-tile counters): on short real runs (sprites-2d
 * and glmark-scene at 256x128, 3 frames) each dumped frame gets a PNG and
 * a CSV per counter; the CSV's values sum to the frame's counters in
 * stats.json (quads_shaded, line_requests and tiles_skipped exactly,
 * tile_cycles to timing.tile_cycles in the timing mode; l2_misses and
 * pb_read_bytes, the raster phase's, to at most the frame's, and
 * pb_read_bytes to all of it with an 8 KiB L2), with overlapping frames and
 * over a multi-pass frame's passes too; the PNG is
 * the tile grid plus the bar and its labels, the hottest tile has the
 * bar's top colour and the coldest its bottom colour; the same run gives
 * the same bytes; an unknown counter, tile_cycles without the timing
 * mode, tiles_skipped without Rendering Elimination and pipeline.mode imr
 * are usage errors (exit 2) that leave no output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/heatmap.h"
#include "report/stats_read.h"
#include "test_cli.h"

#define FRAMES 3
#define SMALL \
	"--set screen.width=256 --set screen.height=128 --frames 3 --dump-frames all --quiet"

static int setup(void **state)
{
	(void)state;
	return tsr_cli_tmp_setup("tessera-heatmaps");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_cli_tmp_teardown();
}

/* A heatmap CSV read back. */
struct heat_csv {
	uint32_t n, tiles_x, tiles_y;
	uint64_t sum, max, min;
	uint32_t max_x, max_y, min_x, min_y;  /* the hottest (coldest) tile's top-left pixel, first */
};

static void read_csv(const char *dir, const char *counter, uint32_t frame, struct heat_csv *c)
{
	char name[256];
	snprintf(name, sizeof(name), "%s/heatmap-%s-%04u.csv", dir, counter, frame);
	const char *s = slurp(name);
	assert_true(strncmp(s, "tile,tile_x,tile_y,x,y,value\n", 29) == 0);
	memset(c, 0, sizeof(*c));
	c->min = UINT64_MAX;
	s = strchr(s, '\n') + 1;
	while (*s) {
		unsigned t, tx, ty, x, y;
		unsigned long long v;
		assert_int_equal(sscanf(s, "%u,%u,%u,%u,%u,%llu", &t, &tx, &ty, &x, &y, &v), 6);
		assert_int_equal(t, c->n);
		c->n++;
		c->sum += v;
		c->tiles_x = tx + 1 > c->tiles_x ? tx + 1 : c->tiles_x;
		c->tiles_y = ty + 1;
		if (v > c->max || c->n == 1) {
			c->max = v;
			c->max_x = x;
			c->max_y = y;
		}
		if (v < c->min) {
			c->min = v;
			c->min_x = x;
			c->min_y = y;
		}
		s = strchr(s, '\n');
		assert_non_null(s);
		s++;
	}
	assert_int_equal(c->n, c->tiles_x * c->tiles_y);
}

/* The PNG at tmpdir/dir/name as RGBA (malloc'ed) and its size. */
static uint8_t *read_png(const char *dir, const char *name, uint32_t *w, uint32_t *h)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s/%s", tmpdir, dir, name);
	png_image pi;
	memset(&pi, 0, sizeof(pi));
	pi.version = PNG_IMAGE_VERSION;
	assert_true(png_image_begin_read_from_file(&pi, path));
	pi.format = PNG_FORMAT_RGBA;
	uint8_t *px = malloc(PNG_IMAGE_SIZE(pi));
	assert_non_null(px);
	assert_true(png_image_finish_read(&pi, NULL, px, 0, NULL));
	*w = pi.width;
	*h = pi.height;
	return px;
}

/* The frame's L2 misses and Parameter Buffer DRAM reads in stats.json. */
static void memory_totals(const struct tsr_stats_file *sf, uint32_t f, uint64_t *l2,
			  uint64_t *pb)
{
	const struct tsr_frame_stats *fs = tsr_stats_file_frame(sf, f);
	*l2 = 0;
	for (uint32_t c = 0; c < sf->cache_count; c++)
		if (!strcmp(sf->cache_names[c], "l2"))
			for (int s = 0; s < TSR_STREAM_COUNT; s++)
				*l2 += fs->caches[c][s].read_misses + fs->caches[c][s].write_misses;
	*pb = fs->dram[TSR_STREAM_PB_LISTS].read_bytes + fs->dram[TSR_STREAM_PB_ATTRIBUTES].read_bytes;
}

/* The image's layout, the hottest and coldest tiles' colours against the bar's ends. */
static void check_png(const char *dir, const char *counter, uint32_t frame,
		      const struct heat_csv *c, uint32_t tw, uint32_t th)
{
	char name[128];
	snprintf(name, sizeof(name), "heatmap-%s-%04u.png", counter, frame);
	uint32_t w, h;
	uint8_t *px = read_png(dir, name, &w, &h);
	char hi[32], lo[32];
	snprintf(hi, sizeof(hi), "%llu", (unsigned long long)c->max);
	snprintf(lo, sizeof(lo), "%llu", (unsigned long long)c->min);
	const size_t chars = strlen(hi) > strlen(lo) ? strlen(hi) : strlen(lo);
	const uint32_t bar = tsr_heatmap_bar_x(c->tiles_x, tw);
	assert_int_equal(bar, c->tiles_x * tw + 8);
	assert_int_equal(w, bar + 16 + 4 + chars * 8);
	assert_int_equal(h, c->tiles_y * th > 24 ? c->tiles_y * th : 24);
	const uint8_t *top = &px[((size_t)0 * w + bar + 8) * 4];
	const uint8_t *bottom = &px[((size_t)(h - 1) * w + bar + 8) * 4];
	const uint8_t *hot = &px[((size_t)(c->max_y + th / 2) * w + c->max_x + tw / 2) * 4];
	const uint8_t *cold = &px[((size_t)(c->min_y + th / 2) * w + c->min_x + tw / 2) * 4];
	uint8_t rgb[3];
	tsr_heatmap_color(255, rgb);
	assert_memory_equal(top, rgb, 3);
	if (c->max > 0) {
		assert_memory_equal(hot, top, 4);
	} else {  /* every tile 0 (a counter the run does not exercise): the bottom colour */
		tsr_heatmap_color(0, rgb);
		assert_memory_equal(hot, rgb, 3);
	}
	if (c->max > c->min) {
		assert_memory_equal(cold, bottom, 4);
		tsr_heatmap_color(0, rgb);
		assert_memory_equal(bottom, rgb, 3);
	}
	/* the panel's gap is white */
	assert_int_equal(px[((size_t)(h / 2) * w + bar - 4) * 4], 255);
	free(px);
}

/* Functional mode: quads, texture lines and RE's skipped tiles sum to the
 * frame's counters; the memory counters to at most the frame's. */
static void test_sums_functional(void **state)
{
	(void)state;
	const char *wl[] = {"sprites-2d", "glmark-scene"};
	for (int k = 0; k < 2; k++) {
		char dir[32];
		snprintf(dir, sizeof(dir), "f%d", k);
		assert_int_equal(tessera("run %s " SMALL " --set elimination.rendering=true "
					 "--heatmaps quads_shaded,line_requests,l2_misses,"
					 "pb_read_bytes,tiles_skipped --out %s", wl[k], dir), 0);
		char path[512];
		snprintf(path, sizeof(path), "%s/%s/stats.json", tmpdir, dir);
		struct tsr_stats_file sf;
		struct tsr_error err;
		assert_int_equal(tsr_stats_read(path, &sf, &err), TSR_OK);
		assert_int_equal(sf.frame_count, FRAMES);
		const uint32_t tw = sf.config.tile_width, th = sf.config.tile_height;
		uint64_t quads = 0;
		for (uint32_t f = 0; f < FRAMES; f++) {
			const struct tsr_frame_stats *fs = tsr_stats_file_frame(&sf, f);
			struct heat_csv c;
			read_csv(dir, "quads_shaded", f, &c);
			assert_int_equal(c.tiles_x, (256 + tw - 1) / tw);
			assert_int_equal(c.tiles_y, (128 + th - 1) / th);
			assert_int_equal(c.sum, fs->raster.quads_shaded);
			quads += c.sum;
			check_png(dir, "quads_shaded", f, &c, tw, th);
			read_csv(dir, "line_requests", f, &c);
			assert_int_equal(c.sum, fs->texture.line_requests);
			check_png(dir, "line_requests", f, &c, tw, th);
			read_csv(dir, "tiles_skipped", f, &c);
			assert_int_equal(c.sum, fs->elim.tiles_skipped);
			assert_true(c.max <= 1);
			uint64_t l2, pb;
			memory_totals(&sf, f, &l2, &pb);
			read_csv(dir, "l2_misses", f, &c);
			assert_true(c.sum <= l2);
			assert_true(c.sum > 0);
			check_png(dir, "l2_misses", f, &c, tw, th);
			read_csv(dir, "pb_read_bytes", f, &c);
			assert_true(c.sum <= pb);
			check_png(dir, "pb_read_bytes", f, &c, tw, th);
		}
		assert_true(quads > 0);
		tsr_stats_file_release(&sf);
	}
}

/* A small L2 (8 KiB) so that the Tile Fetcher's reads reach DRAM: the tiles'
 * Parameter Buffer DRAM reads are all of the frame's (binning reads none). */
static void test_pb_dram_reads(void **state)
{
	(void)state;
	assert_int_equal(tessera("run glmark-scene " SMALL " --set caches.l2.size_bytes=8K "
				 "--heatmaps pb_read_bytes --out pb"), 0);
	char path[512];
	snprintf(path, sizeof(path), "%s/pb/stats.json", tmpdir);
	struct tsr_stats_file sf;
	struct tsr_error err;
	assert_int_equal(tsr_stats_read(path, &sf, &err), TSR_OK);
	for (uint32_t f = 0; f < FRAMES; f++) {
		uint64_t l2, pb;
		memory_totals(&sf, f, &l2, &pb);
		struct heat_csv c;
		read_csv("pb", "pb_read_bytes", f, &c);
		assert_true(pb > 0);
		assert_int_equal(c.sum, pb);
		assert_true(c.max > c.min);
		check_png("pb", "pb_read_bytes", f, &c, sf.config.tile_width, sf.config.tile_height);
	}
	tsr_stats_file_release(&sf);
}

/* Timing mode: each tile's cycles as the oldest in flight sum to timing.tile_cycles. */
static void test_sums_timing(void **state)
{
	(void)state;
	assert_int_equal(tessera("run sprites-2d " SMALL " --timing on "
				 "--heatmaps tile_cycles,quads_shaded --out t"), 0);
	char path[512];
	snprintf(path, sizeof(path), "%s/t/stats.json", tmpdir);
	struct tsr_stats_file sf;
	struct tsr_error err;
	assert_int_equal(tsr_stats_read(path, &sf, &err), TSR_OK);
	for (uint32_t f = 0; f < FRAMES; f++) {
		const struct tsr_frame_stats *fs = tsr_stats_file_frame(&sf, f);
		struct heat_csv c;
		read_csv("t", "tile_cycles", f, &c);
		assert_true(fs->timing.tile_cycles > 0);
		assert_int_equal(c.sum, fs->timing.tile_cycles);
		check_png("t", "tile_cycles", f, &c, sf.config.tile_width, sf.config.tile_height);
		read_csv("t", "quads_shaded", f, &c);
		assert_int_equal(c.sum, fs->raster.quads_shaded);
	}
	tsr_stats_file_release(&sf);
}

/* Overlapping frames (the next frame's geometry before this one's raster:
 * two frame slots) and a multi-pass workload (shadow-depth-3d: a depth pass
 * into a texture, then the screen; the tiles sum over both): the sums hold. */
static void test_overlap_and_passes(void **state)
{
	(void)state;
	const char *runs[] = {
		"run sprites-2d " SMALL " --timing on --set timing.overlap_frames=true "
		"--heatmaps tile_cycles,quads_shaded,line_requests --out ov",
		"run shadow-depth-3d " SMALL " --timing on "
		"--heatmaps tile_cycles,quads_shaded,line_requests --out mp",
	};
	const char *dirs[] = {"ov", "mp"};
	for (int k = 0; k < 2; k++) {
		assert_int_equal(tessera("%s", runs[k]), 0);
		char path[512];
		snprintf(path, sizeof(path), "%s/%s/stats.json", tmpdir, dirs[k]);
		struct tsr_stats_file sf;
		struct tsr_error err;
		assert_int_equal(tsr_stats_read(path, &sf, &err), TSR_OK);
		for (uint32_t f = 0; f < FRAMES; f++) {
			const struct tsr_frame_stats *fs = tsr_stats_file_frame(&sf, f);
			struct heat_csv c;
			read_csv(dirs[k], "tile_cycles", f, &c);
			assert_true(c.sum > 0);
			assert_int_equal(c.sum, fs->timing.tile_cycles);
			read_csv(dirs[k], "quads_shaded", f, &c);
			assert_int_equal(c.sum, fs->raster.quads_shaded);
			read_csv(dirs[k], "line_requests", f, &c);
			assert_int_equal(c.sum, fs->texture.line_requests);
		}
		tsr_stats_file_release(&sf);
	}
}

/* The same run twice: the same PNG and CSV bytes; only the dumped frames get heatmaps. */
static void test_deterministic(void **state)
{
	(void)state;
	for (int k = 0; k < 2; k++)
		assert_int_equal(tessera("run glmark-scene --set screen.width=256 --set screen.height=128 "
					 "--frames 2 --dump-frames 1 --quiet "
					 "--heatmaps l2_misses,quads_shaded --out d%d", k), 0);
	const char *names[] = {"heatmap-l2_misses-0001.png", "heatmap-l2_misses-0001.csv",
			       "heatmap-quads_shaded-0001.png", "heatmap-quads_shaded-0001.csv"};
	for (int i = 0; i < 4; i++) {
		char a[64], b[64];
		snprintf(a, sizeof(a), "d0/%s", names[i]);
		snprintf(b, sizeof(b), "d1/%s", names[i]);
		char cmd[2048];
		snprintf(cmd, sizeof(cmd), "test -s '%s/%s' && cmp -s '%s/%s' '%s/%s'", tmpdir, a,
			 tmpdir, a, tmpdir, b);
		assert_int_equal(system(cmd), 0);
	}
	struct stat st;
	char p[512];
	snprintf(p, sizeof(p), "%s/d0/heatmap-l2_misses-0000.png", tmpdir);
	assert_int_not_equal(stat(p, &st), 0);
}

/* Usage errors: exit 2, one message, nothing written. */
static void test_errors(void **state)
{
	(void)state;
	char p[512];
	struct stat st;
	assert_int_equal(tessera("run sprites-2d --frames 1 --heatmaps quads_shaded,bogus "
				 "--out e1"), 2);
	const char *e = slurp("err.txt");
	assert_non_null(strstr(e, "'bogus'"));
	assert_non_null(strstr(e, "quads_shaded, tile_cycles, l2_misses, pb_read_bytes, "
				  "line_requests, tiles_skipped"));
	snprintf(p, sizeof(p), "%s/e1", tmpdir);
	assert_int_not_equal(stat(p, &st), 0);

	assert_int_equal(tessera("run sprites-2d --frames 1 --heatmaps tile_cycles --out e2"), 2);
	assert_non_null(strstr(slurp("err.txt"), "timing"));
	snprintf(p, sizeof(p), "%s/e2", tmpdir);
	assert_int_not_equal(stat(p, &st), 0);

	assert_int_equal(tessera("run sprites-2d --frames 1 --heatmaps tiles_skipped --out e3"), 2);
	assert_non_null(strstr(slurp("err.txt"), "elimination.rendering"));

	assert_int_equal(tessera("run sprites-2d --frames 1 --set pipeline.mode=imr "
				 "--heatmaps quads_shaded --out e4"), 2);
	assert_non_null(strstr(slurp("err.txt"), "imr"));
	snprintf(p, sizeof(p), "%s/e4", tmpdir);
	assert_int_not_equal(stat(p, &st), 0);

	assert_int_equal(tessera("run sprites-2d --frames 1 --heatmaps '' --out e5"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sums_functional),
		cmocka_unit_test(test_pb_dram_reads),
		cmocka_unit_test(test_sums_timing),
		cmocka_unit_test(test_overlap_and_passes),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
