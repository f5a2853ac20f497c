/*
 * test_util.h - helpers the cmocka tests share (header only: the tests
 * are one executable per tests/NNN-*.c file).
 */
#ifndef TSR_TESTS_TEST_UTIL_H
#define TSR_TESTS_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memory/cache.h"
#include "memory/policy.h"
#include "scene/scene.h"
#include "timing/dram.h"

/* sets x ways lines of line_bytes, the given policy spec, fetch on write. */
static inline struct tsr_cache_geometry tsr_test_geometry(uint32_t sets, uint32_t ways,
							  uint32_t line_bytes,
							  const char *policy)
{
	struct tsr_cache_geometry g;
	memset(&g, 0, sizeof(g));
	g.size_bytes = sets * ways * line_bytes;
	g.ways = ways;
	g.line_bytes = line_bytes;
	g.latency_cycles = 1;
	g.fetch_on_write = 1;
	snprintf(g.policy, sizeof(g.policy), "%s", policy);
	return g;
}

/*
 * LPDDR3 for analytic DRAM latencies (tests 100, 105): with a GPU clock
 * equal to the DRAM clock one tick is one cycle; no refresh, no GPU-port
 * limit, a 7-cycle controller latency.
 */
static inline struct tsr_dram_params tsr_test_dram_analytic(void)
{
	struct tsr_dram_params p;
	tsr_dram_params_default_lpddr3(&p);
	p.t_refi = 0;
	p.port_bytes_per_gpu_cycle = 0;
	p.ctrl_latency_gpu_cycles = 7;
	return p;
}

/* ---- temporary files of one test program (a mkdtemp() folder) ---- */

struct tsr_test_tmp {
	char dir[64];
	char files[128][128];
	int count;
};

/* The program's temporary-file state (one per test executable). */
static inline struct tsr_test_tmp *tsr_test_tmp(void)
{
	static struct tsr_test_tmp t;
	return &t;
}

/* Creates /tmp/<prefix>-XXXXXX; a cmocka group setup. Returns 0 on success. */
static inline int tsr_test_tmp_setup(const char *prefix)
{
	struct tsr_test_tmp *t = tsr_test_tmp();
	snprintf(t->dir, sizeof(t->dir), "/tmp/%s-XXXXXX", prefix);
	return mkdtemp(t->dir) ? 0 : -1;
}

/* Removes the files written and the folder; a cmocka group teardown. */
static inline int tsr_test_tmp_teardown(void)
{
	struct tsr_test_tmp *t = tsr_test_tmp();
	for (int i = 0; i < t->count; i++)
		unlink(t->files[i]);
	rmdir(t->dir);
	return 0;
}

/* <dir>/<name> into path (n bytes). Include after <cmocka.h>. */
static inline void tsr_test_tmp_path(const char *name, char *path, size_t n)
{
	const char *dir = tsr_test_tmp()->dir;
	size_t nd = strlen(dir), nn = strlen(name);
	assert_true(nd + 1 + nn < n);
	memcpy(path, dir, nd);
	path[nd] = '/';
	memcpy(path + nd + 1, name, nn + 1);
}

/*
 * Writes `text` to <dir>/<name> (again if the name was used before) and
 * returns the full path (static). Include after <cmocka.h>.
 */
static inline const char *tsr_test_write_tmp(const char *name, const char *text)
{
	struct tsr_test_tmp *t = tsr_test_tmp();
	char path[sizeof(t->files[0])];
	tsr_test_tmp_path(name, path, sizeof(path));
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	for (int i = 0; i < t->count; i++)
		if (strcmp(t->files[i], path) == 0)
			return t->files[i];
	assert_true(t->count < 128);
	memcpy(t->files[t->count], path, sizeof(path));
	return t->files[t->count++];
}

/*
 * The state of policy `name` for sets x ways (seed 1, parameters params or
 * NULL), to drive its hooks directly on a hand-made tag store (ChampSim
 * style); *ops receives its operations. Include after <cmocka.h>.
 */
static inline void *tsr_test_policy_state(const char *name, uint32_t sets, uint32_t ways,
					  uint32_t line_bytes, const char *params,
					  const struct tsr_policy_ops **ops)
{
	*ops = tsr_policy_find(name);
	assert_non_null(*ops);
	struct tsr_policy_config cfg = {.sets = sets, .ways = ways, .line_bytes = line_bytes,
					.seed = 1, .params = params, .cache = "hooks"};
	void *st = NULL;
	struct tsr_error err;
	assert_int_equal((*ops)->create(&cfg, &st, &err), TSR_OK);
	return st;
}

/*
 * The first folder of the game data packages the game-like workloads use
 * that is missing (scripts/setup.sh installs them), or NULL when all are
 * there: tests that need them skip with a message naming it.
 */
static inline const char *tsr_test_missing_game_data(void)
{
	static const char *const dirs[] = {"/usr/share/games/etr", "/usr/share/games/frozen-bubble",
					   "/usr/share/games/pingus", "/usr/share/games/neverball"};
	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++)
		if (access(dirs[d], R_OK) != 0)
			return dirs[d];
	return NULL;
}

/*
 * The scene of the workload file at `path` (a shipped workload: a file
 * that does not change while the tests run), loaded on its first use and
 * kept until the program ends. A test that runs many configurations of
 * one workload loads it once: a run only reads its scene
 * (tsr_sim_open_scene, tsr_simulate), and loading the assets (assimp in
 * a child process, texture decoding) took more time than the short runs.
 * Include after <cmocka.h>.
 */
static inline const struct tsr_scene *tsr_test_scene(const char *path)
{
	static struct {
		char *path;
		struct tsr_scene *scene;
	} kept[64];
	static size_t count;
	for (size_t i = 0; i < count; i++)
		if (strcmp(kept[i].path, path) == 0)
			return kept[i].scene;
	assert_true(count < sizeof(kept) / sizeof(kept[0]));
	struct tsr_error err;
	struct tsr_scene *sc = NULL;
	if (tsr_scene_load(path, &sc, &err) != TSR_OK)
		fail_msg("%s: %s", path, err.msg);
	kept[count].path = strdup(path);
	assert_non_null(kept[count].path);
	kept[count].scene = sc;
	return kept[count++].scene;
}

/* The whole file at path, NUL-terminated and malloc'd (free() it), or NULL if unreadable. */
static inline char *tsr_test_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
	size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
	fclose(f);
	if (!buf || got != (size_t)n) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/*
 * The generated block of documentation file `doc` (relative to the source
 * tree, e.g. "docs/configuration.md") whose command is `command`: the text
 * between the lines "<!-- generated by: COMMAND -->" and
 * "<!-- end of generated block -->", malloc'd (free() it), or NULL when
 * the file or a marker is missing. Needs TSR_SOURCE_DIR.
 */
static inline char *tsr_test_doc_block(const char *doc, const char *command)
{
	char path[4096], begin_mark[256];
	const char *end_mark = "<!-- end of generated block -->";
	snprintf(path, sizeof(path), "%s/%s", TSR_SOURCE_DIR, doc);
	snprintf(begin_mark, sizeof(begin_mark), "<!-- generated by: %s -->\n", command);
	char *text = tsr_test_read_file(path);
	char *begin = text ? strstr(text, begin_mark) : NULL;
	char *end = begin ? strstr(begin, end_mark) : NULL;
	char *out = NULL;
	if (end) {
		begin += strlen(begin_mark);
		out = strndup(begin, (size_t)(end - begin));
	}
	free(text);
	return out;
}

#endif
