/*
 * 097-report-compare.c - how far one image is from another
 * (report/compare.h) and `tessera compare`: PSNR of the RGB channels,
 * the worst pixel and the box of differing pixels, folders paired in name
 * order, --min-psnr, and the errors (sizes, counts, missing files).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include <math.h>

#include "report/compare.h"
#include "scene/image_load.h"
#include "test_cli.h"

/* A w x h grey image (level 100, alpha 255) as P6 PPM at tmpdir/name,
 * with pixel (x, y)'s red raised by `delta` when delta != 0. */
static void write_ppm(const char *name, uint32_t w, uint32_t h, uint32_t x, uint32_t y,
		      int delta)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	fprintf(f, "P6\n%u %u\n255\n", w, h);
	for (uint32_t j = 0; j < h; j++)
		for (uint32_t i = 0; i < w; i++) {
			const unsigned char px[3] = {
				(unsigned char)(100 + (i == x && j == y ? delta : 0)), 100, 100};
			fwrite(px, 1, 3, f);
		}
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	return tsr_cli_tmp_setup("tsr-097");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_cli_tmp_teardown();
}

/* One red channel 10 levels off in a 4 x 2 image: MSE 100 / 24, the
 * pixel and its box; the same image: infinite PSNR; another size: an error. */
static void test_diff(void **state)
{
	(void)state;
	write_ppm("a.ppm", 4, 2, 0, 0, 0);
	write_ppm("b.ppm", 4, 2, 3, 1, 10);
	write_ppm("c.ppm", 2, 2, 0, 0, 0);
	char pa[512], pb[512], pc[512];
	snprintf(pa, sizeof(pa), "%s/a.ppm", tmpdir);
	snprintf(pb, sizeof(pb), "%s/b.ppm", tmpdir);
	snprintf(pc, sizeof(pc), "%s/c.ppm", tmpdir);
	struct tsr_image a, b, c;
	struct tsr_error err;
	assert_int_equal(tsr_image_read(pa, &a, &err), TSR_OK);
	assert_int_equal(tsr_image_read(pb, &b, &err), TSR_OK);
	assert_int_equal(tsr_image_read(pc, &c, &err), TSR_OK);
	struct tsr_image_diff d;
	assert_int_equal(tsr_image_diff(&a, &a, &d, &err), TSR_OK);
	assert_true(isinf(d.psnr_db));
	assert_int_equal(d.pixels_differing, 0);
	assert_int_equal(tsr_image_diff(&a, &b, &d, &err), TSR_OK);
	assert_true(fabs(d.mse - 100.0 / 24.0) < 1e-12);
	assert_true(fabs(d.psnr_db - 10.0 * log10(65025.0 * 24.0 / 100.0)) < 1e-9);
	assert_int_equal(d.max_diff, 10);
	assert_int_equal(d.worst_x, 3);
	assert_int_equal(d.worst_y, 1);
	assert_int_equal(d.pixels_differing, 1);
	assert_int_equal(d.box_x0, 3);
	assert_int_equal(d.box_x1, 3);
	assert_int_equal(d.box_y0, 1);
	assert_int_equal(d.box_y1, 1);
	assert_int_equal(tsr_image_diff(&a, &c, &d, &err), TSR_ERR_PARSE);
	assert_non_null(strstr(err.msg, "differ in size (4 x 2 against 2 x 2)"));
	struct tsr_image missing;
	assert_int_equal(tsr_image_read("/nonexistent/x.png", &missing, &err), TSR_ERR_IO);
	assert_non_null(strstr(err.msg, "cannot open image '/nonexistent/x.png'"));
	tsr_image_release(&a);
	tsr_image_release(&b);
	tsr_image_release(&c);
}

/* The command: files, folders in name order, --min-psnr, and its errors. */
static void test_command(void **state)
{
	(void)state;
	char p[512];
	snprintf(p, sizeof(p), "%s/A", tmpdir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/B", tmpdir);
	mkdir(p, 0755);
	write_ppm("A/frame-0000.ppm", 8, 8, 0, 0, 0);
	write_ppm("A/frame-0001.ppm", 8, 8, 0, 0, 0);
	write_ppm("B/0000000100.ppm", 8, 8, 0, 0, 0);
	write_ppm("B/0000000200.ppm", 8, 8, 5, 6, 40);
	assert_int_equal(tessera("compare A B"), 0);
	const char *out = slurp("out.txt");
	assert_non_null(strstr(out, "frame-0000.ppm  0000000100.ppm  psnr inf (identical)"));
	assert_non_null(strstr(out, "frame-0001.ppm  0000000200.ppm  psnr "));
	assert_non_null(strstr(out, "max 40 at (5, 6)  differing 1 px in (5, 6)-(5, 6)"));
	assert_non_null(strstr(out, "compare: 2 pairs, PSNR min "));
	/* 40 levels in one channel of 64 pixels: 10 log10(65025 * 192 / 1600) = 38.92 dB */
	assert_non_null(strstr(out, "psnr 38.92 dB"));
	assert_int_equal(tessera("compare A B --min-psnr 38"), 0);
	assert_int_equal(tessera("compare A B --min-psnr 39"), 1);
	assert_non_null(strstr(slurp("err.txt"), "1 of 2 pairs below --min-psnr 39.00 dB"));
	write_ppm("B/0000000300.ppm", 8, 8, 0, 0, 0);
	assert_int_equal(tessera("compare A B"), 1);
	assert_non_null(strstr(slurp("err.txt"), "'A' holds 2 images and 'B' 3"));
	write_ppm("small.ppm", 4, 4, 0, 0, 0);
	assert_int_equal(tessera("compare A/frame-0000.ppm small.ppm"), 1);
	assert_non_null(strstr(slurp("err.txt"), "differ in size (8 x 8 against 4 x 4)"));
	assert_int_equal(tessera("compare A small.ppm"), 2);
	assert_int_equal(tessera("compare A/frame-0000.ppm missing.png"), 1);
	assert_non_null(strstr(slurp("err.txt"), "cannot open 'missing.png'"));
	assert_int_equal(tessera("compare A B --min-psnr x"), 2);
	assert_int_equal(tessera("compare A"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_command),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
