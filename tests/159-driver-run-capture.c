/*
 * 159-driver-run-capture.c - `tessera run X.trace` (cli/run_capture.c):
 * an apitrace capture replayed on the drop-in driver with eglretrace.
 * The captures are made at test time by the fixture glmark2_capture
 * (tests/capture-fixture.sh: glmark2-es2's build, texture and shading
 * scenes, one frame each, with llvmpipe's images; and the helper
 * egl-context's OpenGL ES 3.0 and desktop OpenGL captures); without them
 * (no xvfb, apitrace or glmark2-es2) every test here is skipped.
 *   - the same capture and configuration give bit-identical stats.json,
 *     frames.csv and images, TBR and IMR, at 35 dB or more against
 *     llvmpipe; a run writes what a workload run writes;
 *   - a missing, corrupt or truncated capture, one of desktop OpenGL (GLX
 *     or EGL) and one asking for OpenGL ES 3.0 give one message naming
 *     the file and the problem, exit 1 and no output folder; a replay that
 *     fails leaves no folder either; a bad configuration exits 2 before
 *     anything is replayed;
 *   - --heatmaps: the driver writes the kept frames' heatmaps (the last
 *     one's when the device goes), the quads summing to stats.json's; an
 *     unknown counter exits 2 before the replay.
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
#include <unistd.h>

#include <cmocka.h>

#include "test_cli.h"

#define CAPTURE TSR_CAPTURE_DIR "/glmark2.trace"

static int setup(void **state)
{
	(void)state;
	return tsr_cli_tmp_setup("tsr-159");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_cli_tmp_teardown();
}

/* Skips the test when the fixture made no capture, or the driver cannot
 * be loaded by eglretrace (a sanitized build). */
static void need_capture(const char *path)
{
#ifdef TSR_SANITIZED
	skip();  /* eglretrace has no sanitizer runtime: it cannot load the driver */
#endif
	if (access(path, R_OK) != 0) {
		fprintf(stderr, "skipped: no capture %s (the fixture glmark2_capture needs xvfb, "
			"apitrace and glmark2-es2-x11)\n", path);
		skip();
	}
}

/* The bytes of tmpdir/name (malloc'd, *n of them); fails the test when absent. */
static char *bytes(const char *name, size_t *n)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
	FILE *f = fopen(p, "rb");
	if (!f)
		fail_msg("no file %s", p);
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)len + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	b[len] = '\0';
	*n = (size_t)len;
	return b;
}

static void assert_same_file(const char *a, const char *b)
{
	size_t na, nb;
	char *x = bytes(a, &na), *y = bytes(b, &nb);
	if (na != nb || memcmp(x, y, na))
		fail_msg("%s and %s differ", a, b);
	free(x);
	free(y);
}

/* The entries of folder tmpdir/dir (-1: no folder). */
static int entries(const char *dir)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", tmpdir, dir);
	DIR *d = opendir(p);
	if (!d)
		return -1;
	int n = 0;
	for (const struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* Twice the same capture and configuration: the same bytes, every frame
 * at 35 dB or more against llvmpipe's; pipeline mode `mode`. */
static void replay_twice(const char *mode)
{
	need_capture(CAPTURE);
	static const char *const files[] = {"stats.json", "frames.csv", "frame-0000.png",
					     "frame-0001.png", "frame-0002.png"};
	for (int k = 0; k < 2; k++)
		assert_int_equal(tessera("run %s --set pipeline.mode=%s --out %s-%d "
					 "--dump-frames all --quiet", CAPTURE, mode, mode, k), 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char a[64], b[64];
		snprintf(a, sizeof(a), "%s-0/%s", mode, files[i]);
		snprintf(b, sizeof(b), "%s-1/%s", mode, files[i]);
		assert_same_file(a, b);
	}
	/* three frames, no fourth; the statistics count three */
	char n[64];
	snprintf(n, sizeof(n), "%s-0/frame-0003.png", mode);
	assert_false(tsr_cli_exists(n));
	size_t len;
	char j[64];
	snprintf(j, sizeof(j), "%s-0/stats.json", mode);
	char *stats = bytes(j, &len);
	assert_non_null(strstr(stats, "\"frames\": 3"));
	free(stats);
	assert_int_equal(tessera("compare '%s/ref' %s-0 --min-psnr 35", TSR_CAPTURE_DIR, mode), 0);
	assert_non_null(strstr(slurp("out.txt"), "compare: 3 pairs"));
}

static void test_replay_deterministic_tbr(void **state)
{
	(void)state;
	replay_twice("tbr");
}

static void test_replay_deterministic_imr(void **state)
{
	(void)state;
	replay_twice("imr");
}

/* What a workload run writes: stats.json, frames.csv (the same columns as
 * a workload's with the same configuration) and the last frame's image;
 * --frames stops the replay early. */
static void test_outputs_as_workload_run(void **state)
{
	(void)state;
	need_capture(CAPTURE);
	assert_int_equal(tessera("run %s --config tcor-table1 --out cap", CAPTURE), 0);
	assert_non_null(strstr(slurp("out.txt"), "3 frames replayed"));
	assert_int_equal(entries("cap"), 3);
	assert_true(tsr_cli_exists("cap/frame-0002.png"));
	assert_int_equal(tessera("run sprites-2d --config tcor-table1 --frames 1 --out wl --quiet"), 0);
	size_t na, nb;
	char *a = bytes("cap/frames.csv", &na), *b = bytes("wl/frames.csv", &nb);
	const size_t ha = strcspn(a, "\n"), hb = strcspn(b, "\n");
	assert_int_equal(ha, hb);
	assert_memory_equal(a, b, ha);
	int rows = 0;
	for (size_t i = 0; i < na; i++)
		rows += a[i] == '\n';
	assert_int_equal(rows, 4);  /* the header and three frames */
	free(a);
	free(b);
	assert_int_equal(tessera("run %s --frames 2 --dump-frames all --out two --quiet", CAPTURE),
			 0);
	assert_int_equal(entries("two"), 4);
	assert_true(tsr_cli_exists("two/frame-0001.png"));
	assert_false(tsr_cli_exists("two/frame-0002.png"));
	/* the same first two frames as the whole replay's */
	assert_int_equal(tessera("run %s --dump-frames all --out all --quiet", CAPTURE), 0);
	assert_same_file("two/frame-0001.png", "all/frame-0001.png");
	/* the driver encodes only the images kept (TESSERA_DUMP_FRAMES): a
	 * list, and the default, the last frame's; the same images */
	assert_int_equal(tessera("run %s --dump-frames 0,2 --out list --quiet", CAPTURE), 0);
	assert_int_equal(entries("list"), 4);
	assert_same_file("list/frame-0000.png", "all/frame-0000.png");
	assert_same_file("list/frame-0002.png", "all/frame-0002.png");
	assert_same_file("list/stats.json", "all/stats.json");
	assert_int_equal(tessera("run %s --out last --quiet", CAPTURE), 0);
	assert_int_equal(entries("last"), 3);
	assert_same_file("last/frame-0002.png", "all/frame-0002.png");
}

/* The sum of a heatmap CSV's values (tmpdir/name), -1 when absent. */
static long long heat_sum(const char *name)
{
	const char *s = slurp(name);
	if (strncmp(s, "tile,tile_x,tile_y,x,y,value\n", 29))
		return -1;
	long long sum = 0;
	for (s = strchr(s, '\n') + 1; *s; s = strchr(s, '\n') + 1) {
		const char *v = s, *e = strchr(s, '\n');
		assert_non_null(e);
		for (const char *c = s; c < e; c++)  /* the row's last comma */
			if (*c == ',')
				v = c;
		sum += atoll(v + 1);
	}
	return sum;
}

/* --heatmaps on a capture: the driver collects the per-tile counters
 * (TESSERA_HEATMAPS) and writes them for the frames kept, the last one's
 * when the device is destroyed; the quads sum to stats.json's; an unknown
 * counter exits 2 before anything is replayed. */
static void test_heatmaps(void **state)
{
	(void)state;
	need_capture(CAPTURE);
	assert_int_equal(tessera("run %s --dump-frames 0,2 --heatmaps quads_shaded,l2_misses "
				 "--out heat --quiet", CAPTURE), 0);
	assert_int_equal(entries("heat"), 12);
	for (int f = 0; f < 3; f += 2) {
		char name[64];
		snprintf(name, sizeof(name), "heat/heatmap-quads_shaded-%04d.csv", f);
		const long long sum = heat_sum(name);
		assert_true(sum > 0);
		/* frame f's raster.quads_shaded in stats.json's frames array */
		char *text = strdup(slurp("heat/stats.json"));
		const char *at = strstr(text, "\"frames\"");
		for (int k = 0; k <= f; k++)
			at = strstr(at + 1, "\"quads_shaded\"");
		assert_non_null(at);
		assert_int_equal(atoll(strchr(at, ':') + 1), sum);
		free(text);
		snprintf(name, sizeof(name), "heat/heatmap-l2_misses-%04d.png", f);
		assert_true(tsr_cli_exists(name));
		/* the image: the window's tiles (the CSV: the whole grid, twice the window a side) */
		snprintf(name, sizeof(name), "heat/heatmap-quads_shaded-%04d.png", f);
		size_t n;
		unsigned char *png = (unsigned char *)bytes(name, &n);
		assert_true(n > 24);
		const uint32_t w = (uint32_t)png[16] << 24 | (uint32_t)png[17] << 16 |
				   (uint32_t)png[18] << 8 | png[19];
		const uint32_t h = (uint32_t)png[20] << 24 | (uint32_t)png[21] << 16 |
				   (uint32_t)png[22] << 8 | png[23];
		free(png);
		assert_int_equal(h, 4 * 32);  /* 120 pixels: 4 tiles of 32 */
		assert_true(w > 5 * 32 && w < 5 * 32 + 8 + 16 + 4 + 8 * 8);  /* 160: 5 tiles */
	}
	assert_int_equal(tessera("run %s --heatmaps line_requests,quads_shaded --out last --quiet",
				 CAPTURE), 0);
	assert_true(tsr_cli_exists("last/heatmap-line_requests-0002.csv"));
	assert_true(tsr_cli_exists("last/heatmap-line_requests-0002.png"));
	assert_int_equal(entries("last"), 7);
	assert_same_file("last/heatmap-quads_shaded-0002.csv", "heat/heatmap-quads_shaded-0002.csv");
	assert_int_equal(tessera("run %s --heatmaps bogus --out bad", CAPTURE), 2);
	assert_non_null(strstr(slurp("err.txt"), "'bogus'"));
	assert_false(tsr_cli_exists("bad"));
}

/* One message naming the file and the problem, exit 1, no output folder. */
static void refused(const char *trace, const char *what)
{
	assert_int_equal(tessera("run '%s' --out bad", trace), 1);
	const char *err = slurp("err.txt");
	assert_non_null(strstr(err, trace));
	if (!strstr(err, what))
		fail_msg("no '%s' in: %s", what, err);
	/* one line */
	assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
	assert_int_equal(entries("bad"), -1);
	/* nor the driver's temporary folder */
	DIR *d = opendir(tmpdir);
	assert_non_null(d);
	for (const struct dirent *e; (e = readdir(d));)
		assert_null(strstr(e->d_name, ".replay-"));
	closedir(d);
}

static void test_bad_captures(void **state)
{
	(void)state;
	need_capture(CAPTURE);
	refused("no-such.trace", "No such file or directory");
	/* cut short inside its compressed stream */
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "head -c $(( $(stat -c %%s '%s') / 2 + 777 )) '%s' > '%s/cut.trace'",
		 CAPTURE, CAPTURE, tmpdir);
	assert_int_equal(system(cmd), 0);
	refused("cut.trace", "it is truncated");
	write_file("junk.trace", "this is not a capture\n");
	refused("junk.trace", "is not an apitrace capture, or is corrupt");
	snprintf(cmd, sizeof(cmd), "head -c 3000 /dev/zero > '%s/zero.trace'", tmpdir);
	assert_int_equal(system(cmd), 0);
	refused("zero.trace", "is not an apitrace capture, or is corrupt");
	if (access(TSR_CAPTURE_DIR "/es3.trace", R_OK) == 0) {
		refused(TSR_CAPTURE_DIR "/es3.trace",
			"asks for an OpenGL ES 3.0 context (eglCreateContext)");
		refused(TSR_CAPTURE_DIR "/gl.trace",
			"makes a desktop OpenGL context (eglBindAPI(EGL_OPENGL_API))");
		refused(TSR_CAPTURE_DIR "/glx.trace",
			"records desktop OpenGL (apitrace's API: 'OpenGL + GLX/WGL/CGL')");
		/* the helper's GL ES 2.0 frame replays */
		assert_int_equal(tessera("run '%s/es2.trace' --out es2 --quiet", TSR_CAPTURE_DIR), 0);
		assert_true(tsr_cli_exists("es2/frame-0000.png"));
	}
	/* a replay that fails (today: the device refuses the techniques with
	 * program draws, so tcor-64k's Attribute Cache renders no frame; pick
	 * another failure when it no longer does): exit 1, neither the output
	 * folders it made nor the driver's temporary folder left */
	assert_int_equal(tessera("run %s --config tcor-64k --out deep/er", CAPTURE), 1);
	assert_non_null(strstr(slurp("err.txt"), "rendered 0 of its 3 frames"));
	assert_int_equal(entries("deep"), -1);
	/* a bad configuration: exit 2 before the replay, nothing written */
	assert_int_equal(tessera("run %s --set caches.l2.size_bytes=zero --out bad", CAPTURE), 2);
	assert_int_equal(entries("bad"), -1);
	/* the driver records one cache (test 133 records one) */
	assert_int_equal(tessera("run %s --record-trace l2=l2.trace --record-trace tile=t.trace "
				 "--out bad", CAPTURE), 2);
	assert_int_equal(tessera("run %s --dump-frames 3 --out bad", CAPTURE), 2);
	assert_non_null(strstr(slurp("err.txt"), "past the last frame"));
	assert_int_equal(entries("bad"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_deterministic_tbr),
		cmocka_unit_test(test_replay_deterministic_imr),
		cmocka_unit_test(test_outputs_as_workload_run),
		cmocka_unit_test(test_heatmaps),
		cmocka_unit_test(test_bad_captures),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
