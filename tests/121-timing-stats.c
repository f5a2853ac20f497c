/*
 * 121: the timing model's statistics (README, "Statistics"; issue 13): on
 * a short real run with timing on, per frame and in total, Little's law
 * holds for the DRAM queue, the latency histograms (total, per stream, per
 * cache) count every request, row hits, misses and conflicts add up to the
 * DRAM requests, per-frame deltas add up to the total; stats.json's
 * derived figures (row-buffer hit rate, bandwidth utilisation, mean
 * occupancy and latencies) are those of its counters; counters are found
 * by name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "core/datadir.h"
#include "pipeline/gpu.h"
#include "framestats/stats.h"
#include "sim/sim.h"
#include "test_util.h"

#define FRAMES 2

static uint64_t hist_sum(const uint64_t *h)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < TSR_LATENCY_HIST_BUCKETS; i++)
		n += h[i];
	return n;
}

/* The invariants of one frame's (or the total's) timing counters. */
static void check_stats(const struct tsr_frame_stats *s)
{
	const struct tsr_timing_stats *t = &s->timing;
	assert_true(t->cycles > 0 && t->dram_requests > 0 && t->memory_requests > 0);
	/* Little's law for the DRAM queue: the frame ends with DRAM idle */
	assert_int_equal(t->dram_occupancy, t->dram_latency);
	/* mean in flight = throughput x mean latency, and within the queues */
	const double in_flight = (double)t->dram_occupancy / (double)t->cycles;
	const double little = (double)t->dram_requests / (double)t->cycles *
			      ((double)t->dram_latency / (double)t->dram_requests);
	assert_true(fabs(in_flight - little) <= 1e-9 * in_flight);
	assert_true(in_flight > 0.0 && in_flight <= 2 * (64 + 64));
	assert_int_equal(t->dram_row_hits + t->dram_row_misses + t->dram_row_conflicts,
			 t->dram_requests);
	/* every request in the histograms */
	assert_int_equal(hist_sum(t->memory_latency_hist), t->memory_requests);
	uint64_t requests = 0, latency = 0;
	for (int st = 0; st < TSR_STREAM_COUNT; st++) {
		assert_int_equal(hist_sum(s->stream_timing[st].latency_hist),
				 s->stream_timing[st].requests);
		requests += s->stream_timing[st].requests;
		latency += s->stream_timing[st].latency;
	}
	assert_int_equal(requests, t->memory_requests);
	assert_int_equal(latency, t->memory_latency);
	uint64_t stall = 0;
	for (uint32_t c = 0; c < s->cache_count; c++) {
		const struct tsr_cache_timing_stats *k = &s->cache_timing[c];
		assert_int_equal(hist_sum(k->latency_hist), k->latency_count);
		assert_true(k->latency_count <= k->lookups);
		/* every lookup hits, misses or merges (a stalled miss may merge later) */
		assert_true(k->hits + k->misses + k->merges >= k->lookups);
		assert_true(k->mshr_allocs <= k->misses);
		stall += k->mshr_stall_cycles;
	}
	assert_int_equal(stall, t->mshr_stall_cycles);
	/* bandwidth: some, and no more than the port one way for each direction */
	assert_true(t->dram_io_bytes > 0 && t->dram_peak_bytes > 0);
	const double util = (double)t->dram_io_bytes / (double)t->dram_peak_bytes;
	const double rd = util * (double)t->dram_read_bursts /
			  (double)(t->dram_read_bursts + t->dram_write_bursts);
	assert_true(util > 0.0 && util <= 2.0);
	assert_true(rd <= 1.0 && util - rd <= 1.0);
}

/* FRAMES frames of glmark-scene on a small screen with timing on. */
static void test_counters(void **state)
{
	(void)state;
	char path[4096];
	struct tsr_error err;
	assert_int_equal(tsr_data_resolve("workloads", "glmark-scene", path, sizeof(path), &err),
			 TSR_OK);
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	cfg.width = 320;
	cfg.height = 192;
	cfg.timing.enabled = 1;
	struct tsr_sim *sim = NULL;
	if (tsr_sim_open(&cfg, path, &sim, &err) != TSR_OK)
		fail_msg("glmark-scene: %s", err.msg);
	struct tsr_frame_stats *sum = calloc(1, sizeof(*sum));
	assert_non_null(sum);
	for (uint32_t f = 0; f < FRAMES; f++) {
		const struct tsr_frame_stats *fs;
		if (tsr_sim_step(sim, &fs, &err) != TSR_OK)
			fail_msg("frame %u: %s", f, err.msg);
		check_stats(fs);
		tsr_frame_stats_add(sum, fs);
	}
	const struct tsr_frame_stats *total = tsr_sim_total(sim);
	check_stats(total);
	/* the frames' deltas add up to the total */
	assert_memory_equal(sum->cache_timing, total->cache_timing, sizeof(sum->cache_timing));
	assert_memory_equal(sum->stream_timing, total->stream_timing, sizeof(sum->stream_timing));
	/* by name: a per-core instance sums its copies; a stream; "all" streams */
	const struct tsr_memsys *mem = tsr_gpu_memsys(tsr_sim_gpu(sim));
	uint64_t v, want = 0;
	for (uint32_t c = 0; c < total->cache_count; c++)
		if (!strcmp(tsr_memsys_cache_group(mem, c), "texture"))
			want += total->cache_timing[c].latency_hist[3];
	assert_int_equal(tsr_stats_lookup(total, mem, "timing.caches.texture.latency_hist.3", &v,
					  &err), TSR_OK);
	assert_int_equal(v, want);
	assert_int_equal(tsr_stats_lookup(total, mem, "timing.streams.texture.requests", &v, &err),
			 TSR_OK);
	assert_int_equal(v, total->stream_timing[TSR_STREAM_TEXTURE].requests);
	assert_int_equal(tsr_stats_lookup(total, mem, "timing.streams.all.requests", &v, &err),
			 TSR_OK);
	assert_int_equal(v, total->timing.memory_requests);
	assert_int_equal(tsr_stats_lookup(total, NULL, "timing.caches.any.mshr_occupancy", &v, &err),
			 TSR_OK);
	assert_int_not_equal(tsr_stats_lookup(total, mem, "timing.caches.l9.lookups", &v, &err),
			     TSR_OK);
	assert_int_not_equal(tsr_stats_lookup(total, mem, "timing.streams.l2.lookups", &v, &err),
			     TSR_OK);
	free(sum);
	tsr_sim_close(sim);
}

static uint64_t jint(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	if (!json_is_integer(v))
		fail_msg("no integer '%s' in stats.json", key);
	return (uint64_t)json_integer_value(v);
}

static double jreal(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	if (!json_is_real(v))
		fail_msg("no real '%s' in stats.json", key);
	return json_real_value(v);
}

/* a / b as stats.json prints it (10 significant digits). */
static void assert_ratio(double got, uint64_t a, uint64_t b)
{
	const double want = b ? (double)a / (double)b : 0.0;
	if (fabs(got - want) > 1e-9 * (fabs(want) + 1e-300))
		fail_msg("%.12g is not %llu / %llu", got, (unsigned long long)a,
			 (unsigned long long)b);
}

/* One timing object of stats.json: its derived figures are its counters'. */
static void check_json(const json_t *timing)
{
	assert_non_null(timing);
	const uint64_t cycles = jint(timing, "cycles"), req = jint(timing, "dram_requests");
	assert_ratio(jreal(timing, "dram_row_hit_rate"), jint(timing, "dram_row_hits"), req);
	assert_ratio(jreal(timing, "mean_dram_latency"), jint(timing, "dram_latency"), req);
	assert_ratio(jreal(timing, "mean_dram_in_flight"), jint(timing, "dram_occupancy"), cycles);
	assert_ratio(jreal(timing, "dram_bandwidth_utilisation"), jint(timing, "dram_io_bytes"),
		     jint(timing, "dram_peak_bytes"));
	const double u = jreal(timing, "dram_bandwidth_utilisation");
	const double r = jreal(timing, "dram_read_utilisation");
	const double w = jreal(timing, "dram_write_utilisation");
	assert_true(u > 0.0 && r > 0.0 && w > 0.0 && r <= 1.0 && w <= 1.0);
	assert_true(fabs(r + w - u) <= 1e-9);
	assert_true(json_array_size(json_object_get(timing, "memory_latency_hist")) ==
		    TSR_LATENCY_HIST_BUCKETS);
	const json_t *caches = json_object_get(timing, "caches");
	assert_non_null(json_object_get(caches, "l2"));
	assert_non_null(json_object_get(caches, "texture0"));
	const char *name;
	const json_t *c;
	json_object_foreach((json_t *)caches, name, c) {
		assert_ratio(jreal(c, "mean_latency"), jint(c, "latency"), jint(c, "latency_count"));
		assert_ratio(jreal(c, "mean_mshr_occupancy"), jint(c, "mshr_occupancy"), cycles);
		assert_int_equal(json_array_size(json_object_get(c, "latency_hist")),
				 TSR_LATENCY_HIST_BUCKETS);
		(void)jint(c, "mshr_stall_cycles");
	}
	const json_t *streams = json_object_get(timing, "streams");
	assert_non_null(json_object_get(streams, "texture"));
	json_object_foreach((json_t *)streams, name, c)
		assert_ratio(jreal(c, "mean_latency"), jint(c, "latency"), jint(c, "requests"));
}

/* `tessera run --timing on`: stats.json's timing objects, per frame and in total. */
static void test_stats_json(void **state)
{
	(void)state;
	char dir[64], cmd[4096], path[512];
	snprintf(dir, sizeof(dir), "%.63s", tsr_test_tmp()->dir);
	snprintf(cmd, sizeof(cmd),
		 "%s run glmark-scene --frames %d --out %s/out --dump-frames none --quiet "
		 "--set screen.width=320 --set screen.height=192 --timing on",
		 TSR_BINARY, FRAMES, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/out/stats.json", dir);
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	if (!root)
		fail_msg("%s: %s", path, je.text);
	const json_t *frames = json_object_get(root, "frames");
	assert_int_equal(json_array_size(frames), FRAMES);
	for (size_t f = 0; f < FRAMES; f++)
		check_json(json_object_get(json_array_get(frames, f), "timing"));
	check_json(json_object_get(json_object_get(root, "total"), "timing"));
	json_decref(root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/out/frames.csv", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/out", dir);
	rmdir(path);
}

static int setup(void **state)
{
	(void)state;
	/* the shipped workloads by absolute path, wherever ctest runs */
	if (setenv("TSR_DATA_DIR", TSR_SOURCE_DIR, 1) != 0)
		return -1;
	return tsr_test_tmp_setup("tsr-121");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_test_tmp_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_stats_json),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
