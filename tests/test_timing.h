/*
 * test_timing.h - what the timing-mode tests (120 the TBR, 122 the
 * immediate-mode pipeline) share: running a workload, a one-mesh flat
 * workload, the same-counters check over every shipped workload and the
 * determinism check. Include after cmocka.h and test_util.h.
 */
#ifndef TSR_TEST_TIMING_H
#define TSR_TEST_TIMING_H

#include "config/config.h"
#include "core/datadir.h"
#include "framestats/stats.h"
#include "scene/scene.h"
#include "sim/sim.h"

/* `frames` frames of `workload` on cfg; the total. */
static inline void tsr_test_run(const struct tsr_gpu_config *cfg, const char *workload,
				uint32_t frames, struct tsr_frame_stats *total)
{
	struct tsr_scene *sc = NULL;
	struct tsr_error err;
	enum tsr_status s = tsr_scene_load(workload, &sc, &err);
	if (s == TSR_OK)
		s = tsr_simulate(cfg, sc, frames, total, &err);
	if (s != TSR_OK)
		fail_msg("%s: %s", workload, err.msg);
	tsr_scene_destroy(sc);
}

/* The same on a shipped workload, whose scene is loaded once (tsr_test_scene). */
static inline void tsr_test_run_shipped(const struct tsr_gpu_config *cfg, const char *workload,
					uint32_t frames, struct tsr_frame_stats *total)
{
	struct tsr_error err;
	if (tsr_simulate(cfg, tsr_test_scene(workload), frames, total, &err) != TSR_OK)
		fail_msg("%s: %s", workload, err.msg);
}

/* A one-pass workload of `mesh` (OBJ text) seen by an orthographic camera
 * whose world units are pixels of a screen h pixels high, A ALU
 * instructions a quad; written as name.obj and name.json in the tests'
 * temporary folder. */
static inline const char *tsr_test_flat_workload(const char *name, const char *mesh_text,
						 uint32_t h, uint32_t A)
{
	char file[64];
	snprintf(file, sizeof(file), "%s.obj", name);
	const char *mesh = tsr_test_write_tmp(file, mesh_text);
	char obj[1024];
	snprintf(obj, sizeof(obj),
		 "{\"version\": 1, \"frames\": 1, \"passes\": [{\n"
		 " \"camera\": {\"projection\": \"orthographic\", \"ortho_height\": %u,\n"
		 "   \"near\": 1, \"far\": 20, \"eye\": [0, 0, 10], \"target\": [0, 0, 0]},\n"
		 " \"objects\": [{\"mesh\": \"%s\", \"material\": {\"lit\": false,\n"
		 "   \"double_sided\": true, \"shader_alu_instructions\": %u}}]}]}\n",
		 h, mesh, A);
	snprintf(file, sizeof(file), "%s.json", name);
	return tsr_test_write_tmp(file, obj);
}

/*
 * The shipped workloads whose timing runs take seconds (heavy-3d's geometry,
 * postfx-bloom's 960x540 render targets, whatever the screen): the
 * same-counters check runs one frame of them.
 */
static inline int tsr_test_costly_workload(const char *name)
{
	return strstr(name, "heavy-3d.json") || strstr(name, "postfx-bloom.json");
}

/*
 * On every shipped workload, two frames (the second sees the first's cache
 * contents; one of the costly two, tsr_test_costly_workload) with
 * small(cfg, 0) and small(cfg, 1): the timed run counts
 * cycles, its DRAM and memory counters add up (Little's law for the DRAM
 * queue: occupancy summed over cycles = latencies summed), each core with
 * quads was busy, check() (the mode's own invariants) holds, and every
 * counter outside the timing groups equals the untimed run's.
 * Share `shard` of `shards` (0 <= shard < shards): the workloads i of the
 * sorted list with i % shards == shard, so that the shares, each its own
 * test, run in parallel and together cover every workload.
 */
static inline void tsr_test_same_counters_every_workload(
	void (*small)(struct tsr_gpu_config *cfg, int timing),
	void (*check)(const struct tsr_frame_stats *timed), size_t shard, size_t shards)
{
	char **list = NULL;
	size_t n = 0;
	struct tsr_error err;
	assert_int_equal(tsr_data_list("workloads", ".json", &list, &n, &err), TSR_OK);
	assert_true(n >= 10);
	struct tsr_frame_stats *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	assert_non_null(a);
	assert_non_null(b);
	assert_true(shard < shards);
	for (size_t i = shard; i < n; i += shards) {
		char path[4096];
		assert_int_equal(tsr_data_resolve("workloads", list[i], path, sizeof(path), &err),
				 TSR_OK);
		const uint32_t frames = tsr_test_costly_workload(list[i]) ? 1 : 2;
		struct tsr_gpu_config cfg;
		small(&cfg, 0);
		tsr_test_run_shipped(&cfg, path, frames, a);
		small(&cfg, 1);
		tsr_test_run_shipped(&cfg, path, frames, b);
		assert_true(b->timing.cycles > 0);
		check(b);
		assert_int_equal(b->timing.dram_occupancy, b->timing.dram_latency);
		assert_true(b->timing.memory_requests > 0);
		for (uint32_t c = 0; c < cfg.mem.cores; c++)
			assert_true(b->timing.core_busy[c] > 0 || b->raster.quads_per_core[c] == 0);
		memset(&b->timing, 0, sizeof(b->timing));
		memset(b->cache_timing, 0, sizeof(b->cache_timing));
		memset(b->stream_timing, 0, sizeof(b->stream_timing));
		if (memcmp(a, b, sizeof(*a)) != 0)
			fail_msg("%s: the timing mode changed a counter", list[i]);
	}
	free(a);
	free(b);
	tsr_data_list_free(list);
}

/* Two runs of `frames` frames of the shipped `workload` on cfg give
 * bit-identical statistics, timing included. */
static inline void tsr_test_deterministic(const struct tsr_gpu_config *cfg, const char *workload,
					  uint32_t frames)
{
	struct tsr_frame_stats *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	assert_non_null(a);
	assert_non_null(b);
	char path[4096];
	struct tsr_error err;
	assert_int_equal(tsr_data_resolve("workloads", workload, path, sizeof(path), &err),
			 TSR_OK);
	tsr_test_run_shipped(cfg, path, frames, a);
	tsr_test_run_shipped(cfg, path, frames, b);
	assert_memory_equal(a, b, sizeof(*a));
	free(a);
	free(b);
}

#endif
