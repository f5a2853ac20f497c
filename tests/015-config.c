/*
 * 015-config.c - the GPU configuration (src/config): the defaults are TCOR
 * Table I, the configuration files shipped in configs/ hold the papers'
 * tables, and broken files fail with the right status and a message that
 * names the key (or cache) at fault.
 *
 * Temporary configuration files are written into a mkdtemp() folder that
 * is removed at the end. TSR_SOURCE_DIR (the repository root) comes from
 * CMake.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dirent.h>

#include "config/config.h"
#include "core/json_util.h"
#include "pipeline/gpu.h"
#include "scene/scene.h"
#include "sim/sim.h"

#ifndef TSR_SOURCE_DIR
#error "TSR_SOURCE_DIR must name the repository root"
#endif

#define KIB 1024u

/* The geometry of cache instance `name` of a configuration. */
static const struct tsr_cache_geometry *cache_of(const struct tsr_gpu_config *c,
						 const char *name)
{
	struct tsr_cache_config *k =
		tsr_memsys_config_cache((struct tsr_memsys_config *)&c->mem, name);
	assert_non_null(k);
	return &k->geom;
}


static int group_setup(void **state)
{
	(void)state;
	return tsr_test_tmp_setup("tsr-015");
}

static int group_teardown(void **state)
{
	(void)state;
	return tsr_test_tmp_teardown();
}

/* Loads file over the defaults; must succeed. */
static void load_ok(const char *file, struct tsr_gpu_config *cfg)
{
	struct tsr_error err;
	tsr_config_defaults(cfg);
	memset(&err, 0, sizeof(err));
	enum tsr_status s = tsr_config_load(file, cfg, &err);
	if (s != TSR_OK)
		print_error("%s: %s\n", file, err.msg);
	assert_int_equal(s, TSR_OK);
}

/* Loads file over the defaults; must fail with want; returns the message. */
static const char *load_fails(const char *file, enum tsr_status want)
{
	static struct tsr_error err;
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	memset(&err, 0, sizeof(err));
	enum tsr_status s = tsr_config_load(file, &cfg, &err);
	if (s != want)
		print_error("%s: status %s, want %s: %s\n", file, tsr_status_str(s),
			    tsr_status_str(want), err.msg);
	assert_int_equal(s, want);
	assert_true(err.msg[0] != '\0');
	return err.msg;
}

static void assert_contains(const char *msg, const char *part)
{
	if (!strstr(msg, part))
		print_error("message \"%s\" does not contain \"%s\"\n", msg, part);
	assert_non_null(strstr(msg, part));
}

static void assert_cache(const struct tsr_cache_geometry *g, uint32_t size,
			 uint32_t ways, uint32_t latency)
{
	assert_int_equal(g->size_bytes, size);
	assert_int_equal(g->ways, ways);
	assert_int_equal(g->line_bytes, 64);
	assert_int_equal(g->latency_cycles, latency);
	assert_string_equal(g->policy, "lru");
	assert_int_equal(g->fetch_on_write, 0);  /* byte-masked write-allocate */
}

/* TCOR Table I: the baseline every other configuration starts from. */
static void assert_tcor_table1(const struct tsr_gpu_config *c)
{
	assert_int_equal(c->width, 1960);
	assert_int_equal(c->height, 768);
	assert_int_equal(c->tile_width, 32);
	assert_int_equal(c->tile_height, 32);
	assert_int_equal(c->tile_order, TSR_ORDER_Z);
	assert_int_equal(c->reverse_every_other_frame, 0);
	assert_int_equal(c->list_capacity_primitives, 1024);
	assert_int_equal(c->attribute_bytes, 48);
	assert_int_equal(c->quad_grouping, TSR_QG_FG_XSHIFT2);
	assert_int_equal(c->mem.cores, 4);
	assert_cache(cache_of(c, "vertex"), 64 * KIB, 4, 1);
	assert_cache(cache_of(c, "tile"), 64 * KIB, 4, 1);
	assert_cache(cache_of(c, "texture"), 64 * KIB, 4, 1);
	assert_cache(cache_of(c, "instruction"), 16 * KIB, 4, 1);
	assert_cache(cache_of(c, "l2"), 1024 * KIB, 8, 12);
	assert_true(c->mem.dram_latency_cycles >= 50 && c->mem.dram_latency_cycles <= 100);
}

static void test_defaults_are_tcor_table1(void **state)
{
	(void)state;
	struct tsr_gpu_config c;
	memset(&c, 0x5a, sizeof(c));
	tsr_config_defaults(&c);
	assert_tcor_table1(&c);
	/* documented values the papers leave open */
	assert_int_equal(c.post_transform_cache_entries, 32);
	assert_int_equal(c.instruction_bytes, 8);
	assert_string_equal(c.name, "default");
	struct tsr_error err;
	assert_int_equal(tsr_config_check(&c, &err), TSR_OK);
}

static void test_load_tcor_table1(void **state)
{
	(void)state;
	struct tsr_gpu_config c;
	load_ok(TSR_SOURCE_DIR "/configs/tcor-table1.json", &c);
	assert_tcor_table1(&c);
	assert_int_equal(c.mem.dram_latency_cycles, 100);
	assert_string_equal(c.name, "tcor-table1");
}

static void test_load_dtexl_table2(void **state)
{
	(void)state;
	struct tsr_gpu_config c;
	load_ok(TSR_SOURCE_DIR "/configs/dtexl-table2.json", &c);
	assert_string_equal(c.name, "dtexl-table2");
	assert_int_equal(c.width, 1960);
	assert_int_equal(c.height, 768);
	assert_int_equal(c.tile_width, 32);
	assert_int_equal(c.tile_height, 32);
	assert_int_equal(c.mem.cores, 4);
	assert_cache(cache_of(&c, "vertex"), 8 * KIB, 4, 1);
	assert_cache(cache_of(&c, "tile"), 64 * KIB, 4, 1);
	assert_cache(cache_of(&c, "texture"), 16 * KIB, 4, 1);
	assert_cache(cache_of(&c, "instruction"), 16 * KIB, 4, 1);
	assert_cache(cache_of(&c, "l2"), 1024 * KIB, 8, 12);
	/* DTexL V-C-1's upper bound: one shader core, its L1 texture cache 4x
	 * Table II's private one, the rest as Table II */
	struct tsr_gpu_config u;
	load_ok(TSR_SOURCE_DIR "/configs/dtexl-upper-bound.json", &u);
	assert_int_equal(u.mem.cores, 1);
	assert_cache(cache_of(&u, "texture"), 4 * 16 * KIB, 4, 1);
	assert_int_equal(u.width, c.width);
	assert_int_equal(u.tile_width, c.tile_width);
	assert_int_equal(u.tile_order, c.tile_order);
	assert_cache(cache_of(&u, "instruction"), 16 * KIB, 4, 1);
	assert_cache(cache_of(&u, "l2"), 1024 * KIB, 8, 12);
}

static void test_load_re_table1(void **state)
{
	(void)state;
	struct tsr_gpu_config c;
	load_ok(TSR_SOURCE_DIR "/configs/re-table1.json", &c);
	assert_string_equal(c.name, "re-table1");
	assert_int_equal(c.width, 1196);
	assert_int_equal(c.height, 768);
	assert_int_equal(c.tile_width, 16);
	assert_int_equal(c.tile_height, 16);
	assert_int_equal(c.tile_order, TSR_ORDER_Z);
	assert_cache(cache_of(&c, "texture"), 8 * KIB, 2, 1);
	assert_cache(cache_of(&c, "tile"), 128 * KIB, 8, 1);
	assert_int_equal(cache_of(&c, "l2")->size_bytes, 256 * KIB);
	assert_int_equal(cache_of(&c, "l2")->ways, 8);
	assert_int_equal(cache_of(&c, "l2")->line_bytes, 64);
}

static void test_partial_file_keeps_defaults(void **state)
{
	(void)state;
	struct tsr_gpu_config c;
	load_ok(tsr_test_write_tmp("partial.json",
			  "{\"tiling\": {\"order\": \"hilbert\"},\n"
			  " \"raster\": {\"quad_grouping\": \"cg-square\"},\n"
			  " \"caches\": {\"l2\": {\"ways\": 16, \"fetch_on_write\": true}}}\n"),
		&c);
	assert_int_equal(c.tile_order, TSR_ORDER_HILBERT);
	assert_int_equal(c.quad_grouping, TSR_QG_CG_SQUARE);
	assert_int_equal(cache_of(&c, "l2")->ways, 16);
	assert_int_equal(cache_of(&c, "l2")->fetch_on_write, 1);
	assert_int_equal(cache_of(&c, "l2")->size_bytes, 1024 * KIB);  /* untouched */
	assert_int_equal(c.width, 1960);
	assert_cache(cache_of(&c, "texture"), 64 * KIB, 4, 1);
}

static void test_unknown_key(void **state)
{
	(void)state;
	const char *msg = load_fails(tsr_test_write_tmp("unknown.json",
		"{\"caches\": {\"l2\": {\"sise_bytes\": 1}}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "caches.l2.sise_bytes");
	assert_contains(msg, "size_bytes");   /* lists the valid keys */
	msg = load_fails(tsr_test_write_tmp("unknown-top.json",
		"{\"screen\": {\"width\": 640}, \"scren\": {}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "scren");
	msg = load_fails(tsr_test_write_tmp("unknown-cache.json",
		"{\"caches\": {\"l3\": {\"size_bytes\": 1024}}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "caches.l3");
}

static void test_wrong_type(void **state)
{
	(void)state;
	const char *msg = load_fails(tsr_test_write_tmp("type1.json",
		"{\"caches\": {\"texture\": {\"ways\": \"four\"}}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "caches.texture.ways");
	msg = load_fails(tsr_test_write_tmp("type2.json",
		"{\"screen\": {\"width\": true}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "screen.width");
	msg = load_fails(tsr_test_write_tmp("type3.json",
		"{\"tiling\": {\"reverse_every_other_frame\": 1}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "tiling.reverse_every_other_frame");
	msg = load_fails(tsr_test_write_tmp("type4.json",
		"{\"tiling\": {\"order\": \"zigzag\"}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "tiling.order");
	msg = load_fails(tsr_test_write_tmp("range.json",
		"{\"raster\": {\"cores\": 0}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "raster.cores");
	msg = load_fails(tsr_test_write_tmp("notobj.json",
		"{\"caches\": {\"l2\": 5}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "caches.l2");
}

static void test_impossible_geometry(void **state)
{
	(void)state;
	const char *msg = load_fails(tsr_test_write_tmp("geom.json",
		"{\"caches\": {\"texture\": {\"size_bytes\": 3000}}}\n"), TSR_ERR_GEOMETRY);
	assert_contains(msg, "caches.texture");
	/* 3 sets: 3 x 4 ways x 64 bytes */
	msg = load_fails(tsr_test_write_tmp("sets.json",
		"{\"caches\": {\"vertex\": {\"size_bytes\": 768, \"ways\": 4}}}\n"),
		TSR_ERR_GEOMETRY);
	assert_contains(msg, "caches.vertex");
	msg = load_fails(tsr_test_write_tmp("policy.json",
		"{\"caches\": {\"l2\": {\"policy\": \"clairvoyant\"}}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "caches.l2");
	assert_contains(msg, "clairvoyant");
	/* odd tiles cannot hold 2x2 quads */
	msg = load_fails(tsr_test_write_tmp("odd.json",
		"{\"tiling\": {\"tile_width\": 15}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "tiling.tile_width");
	/* issue 12 item 3: at most 8192 x 8192 pixels, however they are shaped */
	msg = load_fails(tsr_test_write_tmp("screen.json",
		"{\"screen\": {\"width\": 16384, \"height\": 8192}, "
		"\"tiling\": {\"tile_width\": 256, \"tile_height\": 256}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "screen.width");
	assert_contains(msg, "more than the limit of 67108864 pixels");
}

/* TCOR configurations: the Attribute Cache, the L2 policy, the interleaved layout. */
static void test_tcor_configs(void **state)
{
	(void)state;
	struct tsr_gpu_config c;
	load_ok(TSR_SOURCE_DIR "/configs/tcor-64k.json", &c);
	assert_true(c.attribute_cache);
	assert_int_equal(c.ac.size_bytes, 48 * 1024);
	assert_int_equal(c.ac.lines, 384);
	assert_int_equal(c.ac.ways, 6);
	assert_int_equal(c.ac.policy, TSR_AC_OPT);
	assert_int_equal(c.output_queue, 3);
	assert_int_equal(cache_of(&c, "tile")->size_bytes, 16 * 1024);
	assert_int_equal(c.pb_layout, TSR_PB_LAYOUT_INTERLEAVED);
	assert_string_equal(cache_of(&c, "l2")->policy, "tcor-l2");
	load_ok(TSR_SOURCE_DIR "/configs/tcor-64k-no-l2.json", &c);
	assert_true(c.attribute_cache);
	assert_string_equal(cache_of(&c, "l2")->policy, "lru");
	load_ok(TSR_SOURCE_DIR "/configs/tcor-128k.json", &c);
	assert_int_equal(c.ac.size_bytes, 112 * 1024);
	load_ok(TSR_SOURCE_DIR "/configs/tcor-l2-only.json", &c);
	assert_false(c.attribute_cache);
	assert_string_equal(cache_of(&c, "l2")->policy, "tcor-l2");
	/* an impossible Attribute Cache names the key and the field */
	const char *msg = load_fails(tsr_test_write_tmp("ac.json",
		"{\"tcor\": {\"attribute_cache\": true, \"attribute_cache_lines\": 100, "
		"\"attribute_cache_ways\": 6}}\n"), TSR_ERR_GEOMETRY);
	assert_contains(msg, "tcor");
	assert_contains(msg, "lines");
	msg = load_fails(tsr_test_write_tmp("acpol.json",
		"{\"tcor\": {\"attribute_cache_policy\": \"belady\"}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "attribute_cache_policy");
	msg = load_fails(tsr_test_write_tmp("layout.json",
		"{\"tiling\": {\"pb_layout\": \"interleaved\", \"list_capacity_primitives\": 20}}\n"),
		TSR_ERR_CONFIG);
	assert_contains(msg, "list_capacity_primitives");
}

/* Rendering and Transaction Elimination: off by default, the shipped configs, errors. */
static void test_elimination(void **state)
{
	(void)state;
	struct tsr_gpu_config c;
	tsr_config_defaults(&c);
	assert_false(c.elim.rendering || c.elim.transactions || c.elim.verify);
	assert_int_equal(c.elim.refresh_frames, 0);
	load_ok(TSR_SOURCE_DIR "/configs/re-table1-re.json", &c);
	assert_true(c.elim.rendering && !c.elim.transactions);
	load_ok(TSR_SOURCE_DIR "/configs/re-table1-te.json", &c);
	assert_true(!c.elim.rendering && c.elim.transactions);
	load_ok(TSR_SOURCE_DIR "/configs/re-table1-re-te.json", &c);
	assert_true(c.elim.rendering && c.elim.transactions);
	assert_int_equal(c.width, 1196);
	load_ok(tsr_test_write_tmp("elim.json",
		"{\"elimination\": {\"rendering\": true, \"transactions\": true, "
		"\"refresh_frames\": 30, \"verify\": true}}\n"), &c);
	assert_true(c.elim.rendering && c.elim.transactions && c.elim.verify);
	assert_int_equal(c.elim.refresh_frames, 30);
	const char *msg = load_fails(tsr_test_write_tmp("elim-bad.json",
		"{\"elimination\": {\"refresh_frames\": 2}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "elimination.refresh_frames");
	msg = load_fails(tsr_test_write_tmp("elim-key.json",
		"{\"elimination\": {\"renderin\": true}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "renderin");
	msg = load_fails(tsr_test_write_tmp("elim-type.json",
		"{\"elimination\": {\"rendering\": \"yes\"}}\n"), TSR_ERR_CONFIG);
	assert_contains(msg, "elimination.rendering");
}

static void test_malformed_and_missing(void **state)
{
	(void)state;
	load_fails(tsr_test_write_tmp("bad.json", "{\"screen\": {\"width\": 640,}\n"),
		   TSR_ERR_PARSE);
	load_fails(tsr_test_write_tmp("array.json", "[1, 2, 3]\n"), TSR_ERR_PARSE);
	load_fails(tsr_test_write_tmp("empty.json", ""), TSR_ERR_PARSE);
	char path[160];
	tsr_test_tmp_path("does-not-exist.json", path, sizeof(path));
	const char *msg = load_fails(path, TSR_ERR_IO);
	assert_contains(msg, "does-not-exist.json");
}

/*
 * The schema: every key's default round-trips (defaults -> JSON -> file
 * -> load gives the same configuration), and config --list names every key.
 */
static void test_schema_round_trip(void **state)
{
	(void)state;
	struct tsr_gpu_config a, b;
	tsr_config_defaults(&a);
	char *text = tsr_config_json_text(&a);
	assert_non_null(text);
	load_ok(tsr_test_write_tmp("roundtrip.json", text), &b);
	char *again = tsr_config_json_text(&b);
	assert_string_equal(text, again);
	free(text);
	free(again);
	/* a changed configuration round-trips too */
	const char *sets[] = {"tiling.order=hilbert", "caches.l2.size_bytes=2M",
			      "caches.l3.size_bytes=4M", "caches.l3.ways=16",
			      "caches.l2.parent=l3", "caches.texture.write_policy=write-through",
			      "routes.vertex=perfect", "tcor.attribute_cache_policy=lru"};
	struct tsr_error err;
	tsr_config_defaults(&a);
	assert_int_equal(tsr_config_apply_sets(&a, NULL, sets, 8, &err), TSR_OK);
	text = tsr_config_json_text(&a);
	assert_non_null(strstr(text, "\"l3\""));
	load_ok(tsr_test_write_tmp("roundtrip2.json", text), &b);
	again = tsr_config_json_text(&b);
	assert_string_equal(text, again);
	free(text);
	free(again);

	struct tsr_config_entry *e = NULL;
	size_t n = 0;
	tsr_config_defaults(&a);
	assert_int_equal(tsr_config_entries(&a, &e, &n, &err), TSR_OK);
	int seen = 0;
	for (size_t i = 0; i < n; i++) {
		assert_true(e[i].help[0] != '\0');
		assert_true(e[i].kind[0] != '\0');
		if (!strcmp(e[i].key, "caches.l2.size_bytes"))
			seen += !strcmp(e[i].value, "1048576");
		if (!strcmp(e[i].key, "tiling.order"))
			seen += !strcmp(e[i].value, "\"z-order\"");
		if (!strcmp(e[i].key, "routes.texture"))
			seen += !strcmp(e[i].value, "\"texture\"");
	}
	assert_int_equal(seen, 3);
	free(e);
}

/* --set overrides any key with the file's validation and messages. */
static void test_set_overrides(void **state)
{
	(void)state;
	struct tsr_gpu_config c;
	struct tsr_error err;
	const char *ok[] = {"caches.l2.size_bytes=2M", "tiling.order=hilbert",
			    "elimination.rendering=true", "name=\"sweep 1\"",
			    "caches.l2.policy=srrip:bits=3", "screen.width=640"};
	tsr_config_defaults(&c);
	assert_int_equal(tsr_config_apply_sets(&c, TSR_SOURCE_DIR "/configs/re-table1.json", ok,
					       6, &err), TSR_OK);
	assert_int_equal(cache_of(&c, "l2")->size_bytes, 2048 * KIB);
	assert_string_equal(cache_of(&c, "l2")->policy, "srrip:bits=3");
	assert_int_equal(c.tile_order, TSR_ORDER_HILBERT);
	assert_true(c.elim.rendering);
	assert_string_equal(c.name, "sweep 1");
	assert_int_equal(c.width, 640);
	assert_int_equal(c.height, 768);                       /* from the file */
	assert_int_equal(cache_of(&c, "tile")->size_bytes, 128 * KIB);  /* from the file */

	static const struct {
		const char *set, *part;
	} bad[] = {
		{"caches.l2.ways=three", "caches.l2.ways"},
		{"caches.l2.ways=0", "caches.l2.ways"},
		{"tiling.order=zigzag", "tiling.order"},
		{"tiling.ordr=hilbert", "tiling.ordr"},
		{"screen=5", "screen"},
		{"caches.l2", "KEY=VALUE"},
		{"screen.width.x=1", "screen.width"},
		{"caches.l2.size_bytes=3000", "caches.l2"},
		{"routes.texture=l9", "routes.texture"},
		{"caches.l2.ways=16385", "caches.l2.ways"},  /* TSR_LIMIT_CACHE_WAYS */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		tsr_config_defaults(&c);
		memset(&err, 0, sizeof(err));
		enum tsr_status s = tsr_config_apply_sets(&c, NULL, &bad[i].set, 1, &err);
		if (s == TSR_OK)
			print_error("--set '%s' was accepted\n", bad[i].set);
		assert_int_not_equal(s, TSR_OK);
		assert_contains(err.msg, bad[i].part);
	}
}

/* Every shipped configuration loads. */
static void test_every_shipped_config_loads(void **state)
{
	(void)state;
	DIR *d = opendir(TSR_SOURCE_DIR "/configs");
	assert_non_null(d);
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 5, ".json"))
			continue;
		char path[512];
		snprintf(path, sizeof(path), "%s/configs/%s", TSR_SOURCE_DIR, e->d_name);
		struct tsr_gpu_config c;
		load_ok(path, &c);
		n++;
	}
	closedir(d);
	assert_true(n >= 13);
}

/*
 * The boustrophedonic paper's V-A hierarchy: on a real frame, the L2
 * receives texture accesses only; Table II's L2 is 18 cycles.
 */
static void test_texture_only_l2(void **state)
{
	(void)state;
	struct tsr_gpu_config c;
	struct tsr_error err;
	const char *small[] = {"screen.width=320", "screen.height=192"};
	tsr_config_defaults(&c);
	assert_int_equal(tsr_config_apply_sets(&c, TSR_SOURCE_DIR
					       "/configs/boustrophedonic-texture-l2.json",
					       small, 2, &err), TSR_OK);
	assert_int_equal(cache_of(&c, "l2")->latency_cycles, 18);
	struct tsr_scene *sc = NULL;
	assert_int_equal(tsr_scene_load(TSR_SOURCE_DIR "/workloads/glmark-scene.json", &sc, &err),
			 TSR_OK);
	struct tsr_sim *run = NULL;
	assert_int_equal(tsr_sim_open_scene(&c, sc, &run, &err), TSR_OK);
	const struct tsr_frame_stats *st = NULL;
	assert_int_equal(tsr_sim_step(run, &st, &err), TSR_OK);
	const struct tsr_memsys *m = tsr_gpu_memsys(tsr_sim_gpu(run));
	const struct tsr_cache *l2 = tsr_memsys_cache_by_name((struct tsr_memsys *)m, "l2");
	assert_non_null(l2);
	for (int s = 0; s < TSR_STREAM_COUNT; s++) {
		const struct tsr_cache_counters *k = tsr_cache_counters_of(l2, (enum tsr_stream)s);
		if (s == TSR_STREAM_TEXTURE)
			assert_true(k->reads > 0);
		else
			assert_int_equal(k->reads + k->writes, 0);
	}
	assert_int_equal(tsr_memsys_cache_count(m), 5);  /* texture0..3 and l2 */
	assert_true(tsr_memsys_perfect(m, TSR_STREAM_PB_LISTS)->write_bytes > 0);
	assert_int_equal(tsr_memsys_dram(m, TSR_STREAM_PB_LISTS)->read_bytes, 0);
	tsr_sim_close(run);
	tsr_scene_destroy(sc);
}

/* docs/configuration.md's table of keys is `tessera config --list --markdown`. */
static void test_doc_reference(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	struct tsr_error err;
	tsr_config_defaults(&cfg);
	char *md = NULL;
	assert_int_equal(tsr_config_markdown(&cfg, &md, &err), TSR_OK);
	assert_non_null(strstr(md, "| `caches.l2.size_bytes` | `1048576` |"));
	char *section = tsr_test_doc_block("docs/configuration.md",
					     "tessera config --list --markdown");
	assert_non_null(section);
	if (strcmp(section, md))
		fail_msg("docs/configuration.md's table of keys differs from "
			 "`tessera config --list --markdown`");
	free(section);
	free(md);
}

/* issue 12: invalid UTF-8 becomes U+FFFD in JSON; long quoted subjects are shortened */
static void test_json_utf8_and_short_messages(void **state)
{
	(void)state;
	json_t *j = tsr_json_string("a\xff" "b\xc3\xa9" "c\xe2\x82" "d\xed\xa0\x80");
	assert_non_null(j);
	assert_string_equal(json_string_value(j),
			    "a\xef\xbf\xbd" "b\xc3\xa9" "c\xef\xbf\xbd\xef\xbf\xbd"
			    "d\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	json_decref(j);
	j = tsr_json_string(NULL);
	assert_string_equal(json_string_value(j), "");
	json_decref(j);
	char path[3001];
	memset(path, 'p', 3000);
	path[3000] = '\0';
	struct tsr_error err;
	tsr_error_set(&err, TSR_ERR_IO, "cannot write '%s': disk full", path);
	assert_true(strlen(err.msg) < 200);
	if (!strstr(err.msg, "ppp...ppp") || !strstr(err.msg, "ppp': disk full"))
		fail_msg("message: %s", err.msg);
	/* short subjects are untouched */
	tsr_error_set(&err, TSR_ERR_IO, "cannot write '%s': disk full", "a.json");
	assert_string_equal(err.msg, "cannot write 'a.json': disk full");
	char buf[TSR_SHORT_BUF];
	assert_int_equal(strlen(tsr_short(path, buf, sizeof(buf))), 123);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_are_tcor_table1),
		cmocka_unit_test(test_json_utf8_and_short_messages),
		cmocka_unit_test(test_load_tcor_table1),
		cmocka_unit_test(test_load_dtexl_table2),
		cmocka_unit_test(test_load_re_table1),
		cmocka_unit_test(test_partial_file_keeps_defaults),
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_wrong_type),
		cmocka_unit_test(test_impossible_geometry),
		cmocka_unit_test(test_tcor_configs),
		cmocka_unit_test(test_elimination),
		cmocka_unit_test(test_malformed_and_missing),
		cmocka_unit_test(test_schema_round_trip),
		cmocka_unit_test(test_set_overrides),
		cmocka_unit_test(test_every_shipped_config_loads),
		cmocka_unit_test(test_texture_only_l2),
		cmocka_unit_test(test_doc_reference),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
