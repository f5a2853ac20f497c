/*
 * 076: representative frames (sample/sample.h, MEGsim):
 *   - three well-separated groups of frames give three clusters by the
 *     BIC rule, each group's frames in one cluster, its representative
 *     one of them (the closest to the centroid), its weight its size;
 *   - the clustering is deterministic, --clusters K is obeyed (K above
 *     the frames: one cluster a distinct frame), identical frames are
 *     one cluster;
 *   - the estimate is the weighted sum, exact for homogeneous clusters
 *     (bound 0), and the bound is two stratified standard errors;
 *   - features.csv round-trips, and a malformed one names its line;
 *   - frame lists take ranges (report/report.h: --frames, --dump-frames).
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

#include "report/report.h"
#include "sample/sample.h"
#include "test_main.h"

#define D TSR_SAMPLE_FEATURES

/* A fixed pseudo-random number in [0, 1) (a 32-bit integer hash). */
static double jitter(uint32_t v)
{
	v ^= v >> 16;
	v *= 0x7feb352du;
	v ^= v >> 15;
	v *= 0x846ca68bu;
	v ^= v >> 16;
	return (v % 100000) / 100000.0;
}

/* n frames: frame i in group i % 3 (centres 1x, 10x, 100x), +-1% jitter (pseudo-random). */
static double *groups(uint32_t n)
{
	double *x = calloc((size_t)n * D, sizeof(*x));
	assert_non_null(x);
	static const double centre[3] = {1000, 10000, 100000};
	for (uint32_t i = 0; i < n; i++)
		for (int q = 0; q < D; q++)
			x[(size_t)i * D + q] = centre[i % 3] * (1 + 0.02 * (jitter(i * D + q) - 0.5));
	return x;
}

static void test_three_groups(void **state)
{
	(void)state;
	const uint32_t n = 30;
	double *x = groups(n);
	struct tsr_sample s, again;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_sample_choose(x, n, 0, &s, &err), TSR_OK);
	assert_int_equal(s.n, n);
	assert_int_equal(s.k, 3);
	uint32_t total = 0;
	for (uint32_t j = 0; j < s.k; j++) {
		const struct tsr_sample_cluster *c = &s.clusters[j];
		assert_int_equal(c->weight, 10);
		assert_int_equal(s.assign[c->rep], j);
		total += c->weight;
		/* its frames are one group's */
		for (uint32_t i = 0; i < n; i++)
			assert_int_equal(s.assign[i] == j, i % 3 == c->rep % 3);
		if (!(c->cv > 0 && c->cv < 0.02))
			fail_msg("cluster %u: cv %g", j, c->cv);
	}
	assert_int_equal(total, n);
	/* the BIC of 3 is above that of 1 and 2 */
	assert_true(s.bic[3] > s.bic[1] && s.bic[3] > s.bic[2]);
	/* deterministic */
	assert_int_equal(tsr_sample_choose(x, n, 0, &again, &err), TSR_OK);
	assert_int_equal(again.k, s.k);
	assert_memory_equal(again.assign, s.assign, n * sizeof(*s.assign));
	for (uint32_t j = 0; j < s.k; j++)
		assert_int_equal(again.clusters[j].rep, s.clusters[j].rep);
	tsr_sample_release(&again);
	tsr_sample_release(&s);
	free(x);
}

static void test_given_k(void **state)
{
	(void)state;
	const uint32_t n = 12;
	double *x = groups(n);
	struct tsr_sample s;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_sample_choose(x, n, 2, &s, &err), TSR_OK);
	assert_int_equal(s.k, 2);
	assert_int_equal(s.bic[2], 0);  /* not computed when K is given */
	tsr_sample_release(&s);
	/* more clusters than frames: a cluster a distinct frame (frames 0 and 3
	 * made equal: one cluster) */
	memcpy(x + 3 * D, x, D * sizeof(*x));
	assert_int_equal(tsr_sample_choose(x, 4, 50, &s, &err), TSR_OK);
	assert_int_equal(s.k, 3);
	assert_int_equal(s.clusters[0].weight, 2);
	assert_int_equal(s.clusters[1].weight, 1);
	assert_int_equal(s.clusters[2].weight, 1);
	assert_int_equal(s.assign[3], 0);
	tsr_sample_release(&s);
	/* identical frames: one cluster, whatever K the rule tries */
	for (uint32_t i = 0; i < n * D; i++)
		x[i] = 5;
	assert_int_equal(tsr_sample_choose(x, n, 0, &s, &err), TSR_OK);
	assert_int_equal(s.k, 1);
	assert_int_equal(s.clusters[0].weight, n);
	assert_int_equal(s.clusters[0].rep, 0);
	assert_true(s.clusters[0].cv == 0);
	tsr_sample_release(&s);
	assert_int_equal(tsr_sample_choose(x, 0, 0, &s, &err), TSR_ERR_CONFIG);
	free(x);
}

static void test_estimate_and_bound(void **state)
{
	(void)state;
	struct tsr_sample_cluster c[2] = {{0, 10, 0.0}, {1, 5, 0.1}};
	struct tsr_sample s = {.n = 15, .k = 2, .clusters = c};
	const double v[2] = {100, 40};
	double bound;
	assert_true(fabs(tsr_sample_estimate(&s, v, &bound) - (10 * 100 + 5 * 40)) < 1e-9);
	/* 2 sqrt(sum w (w - 1) (v cv)^2): only the second cluster spreads */
	assert_true(fabs(bound - 2 * sqrt(5.0 * 4 * (40 * 0.1) * (40 * 0.1))) < 1e-9);
	c[1].cv = 0;
	tsr_sample_estimate(&s, v, &bound);
	assert_true(bound == 0);
}

static void test_features_csv(void **state)
{
	(void)state;
	struct tsr_frame_stats fs[2];
	memset(fs, 0, sizeof(fs));
	fs[0].frame = 7;
	fs[0].geometry.draws = 3;
	fs[0].raster.fragments_shaded = 1234;
	fs[0].tiling.pb_lists_bytes = 10;
	fs[0].tiling.pb_attributes_bytes = 22;
	fs[0].tiling.tiles = 480;
	fs[1].frame = 9;
	fs[1].texture.texel_fetches = 99;
	struct tsr_text t = {0};
	tsr_sample_features_csv_header(&t);
	tsr_sample_features_csv_row(&t, &fs[0]);
	tsr_sample_features_csv_row(&t, &fs[1]);
	char path[] = "/tmp/tsr-076-XXXXXX";
	const int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, t.buf, t.len), (ssize_t)t.len);
	close(fd);
	uint32_t *frames, n;
	double *x;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_sample_features_read(path, &frames, &x, &n, &err), TSR_OK);
	assert_int_equal(n, 2);
	assert_int_equal(frames[0], 7);
	assert_int_equal(frames[1], 9);
	double want[D];
	tsr_sample_features(&fs[0], want);
	assert_memory_equal(x, want, sizeof(want));
	assert_true(want[0] == 3 && want[3] == 1234 && want[7] == 32 && want[8] == 480);
	assert_true(x[D + 5] == 99);
	free(frames);
	free(x);
	/* a row cut short names its line */
	FILE *f = fopen(path, "a");
	fputs("10,1,2\n", f);
	fclose(f);
	assert_int_equal(tsr_sample_features_read(path, &frames, &x, &n, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "line 4"));
	unlink(path);
	tsr_text_release(&t);
}

static void test_frame_ranges(void **state)
{
	(void)state;
	struct tsr_frame_list l;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_frame_list_parse("10-12,40,3-3", &l, &err), TSR_OK);
	assert_int_equal(l.kind, TSR_FRAMES_LIST);
	assert_int_equal(l.n, 41);
	for (uint32_t f = 0; f < 45; f++)
		assert_int_equal(tsr_frame_list_has(&l, f, 45),
				 f == 3 || (f >= 10 && f <= 12) || f == 40);
	tsr_frame_list_release(&l);
	assert_int_equal(tsr_frame_list_parse("5-2", &l, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "ends before it begins"));
	const char *bad[] = {"1-", "-3", "1-2-3", "a-2", "2-b"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		assert_int_equal(tsr_frame_list_parse(bad[i], &l, &err), TSR_ERR_CONFIG);
		assert_non_null(strstr(err.msg, "is not a frame number"));
	}
	assert_int_equal(tsr_frame_list_parse("0-4000000000", &l, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "past the most frames"));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_groups),
		cmocka_unit_test(test_given_k),
		cmocka_unit_test(test_estimate_and_bound),
		cmocka_unit_test(test_features_csv),
		cmocka_unit_test(test_frame_ranges),
	};
	return TSR_TEST_MAIN(argc, argv, tests, NULL, NULL);
}
