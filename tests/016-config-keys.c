/*
 * 016-config-keys.c - no dead configuration keys: every key of the schema
 * (`tessera config --list`, tsr_config_entries()) set to a second valid
 * value on a short run moves the counters in every mode that reads it,
 * and moves nothing, with a warning, in the modes its schema entry
 * declares it ignored in ("ignored in ...": tsr_config_warnings()).
 *
 * The four modes: functional and timing, each with pipeline.mode tbr and
 * imr. The run: tests/data/two-quads.json, one frame, 128x64 pixels, in
 * process (one scene load; one baseline run per mode and prerequisite).
 * The second value comes from the schema: an integer's value halved,
 * doubled, plus or minus one, its range's bottom (and top, when near) (the first that the
 * configuration check accepts), a boolean flipped, an enumeration's next
 * name, a route "perfect" (or "dram"). Energy overrides (energy.*) change
 * the energy of the same counters in the timing modes.
 *
 * Declared once below: the prerequisites a key needs to show (the
 * Attribute Cache's keys need tcor.attribute_cache), the counter a key is
 * tied to (it must move), and the exempted keys with the reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "energy/energy.h"
#include "framestats/stats.h"
#include "pipeline/gpu.h"
#include "scene/scene.h"
#include "sim/sim.h"

#ifndef TSR_SOURCE_DIR
#error "TSR_SOURCE_DIR must name the repository root"
#endif

#define WORKLOAD TSR_SOURCE_DIR "/tests/data/two-quads.json"

#define M_TBR (TSR_MODE_BIT(TSR_MODE_FUNCTIONAL_TBR) | TSR_MODE_BIT(TSR_MODE_TIMING_TBR))
#define M_IMR (TSR_MODE_BIT(TSR_MODE_FUNCTIONAL_IMR) | TSR_MODE_BIT(TSR_MODE_TIMING_IMR))
#define M_FUNCTIONAL (TSR_MODE_BIT(TSR_MODE_FUNCTIONAL_TBR) | TSR_MODE_BIT(TSR_MODE_FUNCTIONAL_IMR))
#define M_TIMING (TSR_MODE_BIT(TSR_MODE_TIMING_TBR) | TSR_MODE_BIT(TSR_MODE_TIMING_IMR))

/* The base of every run: small and short. */
static const char *const base_sets[] = {
	"screen.width=128", "screen.height=64",
	/* caches small enough for two-quads to miss in, so their geometry shows */
	"caches.vertex.size_bytes=512", "caches.tile.size_bytes=1K", "caches.texture.size_bytes=512",
	"caches.instruction.size_bytes=256", "caches.l2.size_bytes=8K",
};
#define NBASE (sizeof(base_sets) / sizeof(base_sets[0]))

/* The sets that select each mode (enum tsr_config_mode). */
static const char *const mode_sets[TSR_MODE_COUNT][2] = {
	{NULL, NULL},
	{"pipeline.mode=imr", NULL},
	{"timing.enabled=true", NULL},
	{"timing.enabled=true", "pipeline.mode=imr"},
};

/* Keys that need another key set to show (in the modes that read them). */
static const struct {
	const char *prefix;  /* a key, or the start of keys ("tcor.attribute_cache_") */
	const char *set;
} prerequisites[] = {
	{"tcor.attribute_cache_", "tcor.attribute_cache=true"},
	{"tcor.xor_index", "tcor.attribute_cache=true"},
	{"tcor.output_queue", "tcor.attribute_cache=true"},
	{"routes.attribute_cache", "tcor.attribute_cache=true"},
	{"raster.subtile_assignment", "raster.quad_grouping=cg-square"},
	/* uncached accesses move whole bursts */
	{"dram.burst_bytes", "routes.texture=dram"},
	/* a partial write miss fetches the line, a whole-block write does not (TCOR III-D-1) */
	{"tiling.attribute_block_writes", "caches.tile.fetch_on_write=true"},
};

/*
 * The counter each key is tied to ("%s": the cache instance of a
 * caches.* key): it must move wherever the key is read.
 */
static const struct {
	const char *key;      /* a key, or "caches.*.<leaf>" */
	uint32_t modes;       /* TSR_MODE_BIT()s where it is checked; 0: all */
	const char *counter;  /* tsr_stats_lookup() name */
} ties[] = {
	{"screen.width", 0, "raster.quads_rasterized"},
	{"screen.height", 0, "raster.quads_rasterized"},
	{"tiling.tile_width", M_TBR, "tiling.tiles"},
	{"tiling.tile_height", M_TBR, "tiling.tiles"},
	{"tiling.attribute_bytes", 0, "tiling.pb_attributes_bytes"},
	{"raster.cores", 0, "raster.quads_per_core.0"},
	{"shader.instruction_bytes", 0, "caches.instruction.all.reads"},
	{"timing.gpu_mhz", 0, "timing.cycles"},
	{"timing.sample_issue_cycles", 0, "timing.core_busy.0"},
	{"timing.tiles_in_flight", 0, "timing.cycles"},
	{"timing.vertex_processors", 0, "timing.geometry_busy_cycles"},
	{"timing.rasterizer_attributes_per_cycle", 0, "timing.rasterizer_busy"},
	{"dram.burst_bytes", 0, "dram.all.read_bytes"},
	{"caches.*.size_bytes", 0, "caches.%s.all.read_misses"},
	{"caches.*.ways", 0, "caches.%s.all.read_misses"},
	{"caches.*.line_bytes", 0, "caches.%s.all.read_misses"},
	{"caches.*.latency_cycles", 0, "timing.memory_latency"},
};

/*
 * Keys not checked to move (the modes that read them), with the reason.
 * Checked all the same: the effective configuration changes, and in the
 * modes that ignore them, nothing moves and a warning names them.
 */
static const struct {
	const char *key;  /* a key, "caches.*.<leaf>" or a prefix ending in '.' or '_' */
	uint32_t modes;   /* TSR_MODE_BIT()s where it is exempted; 0: all */
	const char *reason;
} exempt[] = {
	{"name", 0, "a label: only stats.json's config echo shows it"},
	{"shader.mediump", 0, "the precision of GL ES programs' mediump arithmetic: the runs "
			      "here execute no program (test 141 covers it)"},
	{"timing.sfu_latency_cycles", 0, "the latency of GL ES programs' special-function "
					 "instructions: the runs here execute no program (test 110 "
					 "covers it)"},
	{"tiling.pb_max_mib", 0, "a limit: only a frame whose Parameter Buffer outgrows it fails"},
	{"tiling.list_capacity_primitives", 0,
	 "only a tile with more primitives than a list holds (an overflow) shows it; "
	 "two-quads has 8 primitives"},
	{"tiling.reverse_every_other_frame", 0, "acts on odd frames: the runs here render frame 0"},
	{"timing.overlap_frames", 0, "overlaps frame 1's geometry with frame 0: the runs here "
				     "render one frame"},
	{"elimination.", 0, "Rendering and Transaction Elimination compare with frames before: "
			    "a one-frame run skips nothing (test 085 covers them)"},
	{"stats.texture_footprint", 0, "adds a counter to stats.json, not to the total checked "
				       "here (test 096 covers it)"},
	{"raster.quad_imbalance_stats", 0, "fills the imbalance histograms, not counters of the "
					   "total (test 042 covers it)"},
	{"tcor.", 0, "two-quads' 8 primitives fit any Attribute Cache: nothing is evicted "
		     "(tests 035 and 062 cover it)"},
	{"routes.attribute_cache", 0, "two-quads' 8 primitives fit any Attribute Cache: nothing "
				      "misses into its route"},
	{"geometry.post_transform_cache_entries", 0,
	 "two-quads' meshes have 4 vertices each: any cache of them keeps all"},
	{"timing.warp_scheduler", 0, "two-quads' shaders have one sample and no dependent "
				     "loads: rr and gto issue alike"},
	{"timing.triangle_queue_entries", 0, "8 primitives never fill the triangle queue"},
	{"timing.fragment_queue_entries", 0, "a 128x64 run never fills the blending queue"},
	{"timing.early_z_inflight", 0, "a 128x64 run never fills Early-Z"},
	{"timing.tile_fetch_primitives_per_cycle", 0, "8 primitives: the Tile Fetcher never has "
						      "more than one ready a cycle"},
	{"timing.imr_", 0, "a 128x64 run of 8 primitives never fills the immediate-mode queues"},
	{"caches.*.mshrs", 0, "a 128x64 run never has 16 misses outstanding at a cache"},
	{"caches.*.policy", 0, "structural (a policy spec): tests 060-062 cover the policies"},
	{"caches.*.parent", 0, "structural (the tree): test 015 covers it"},
	{"routes.render_target", 0, "two-quads has no render-to-texture pass"},
	{"caches.vertex.size_bytes", 0, "two-quads' index and vertex data fit any vertex cache"},
	{"caches.vertex.ports", 0, "two-quads' vertex lookups never collide"},
	{"caches.tile.ports", 0, "the Parameter Buffer's lookups never collide in this run"},
	{"timing.vertex_processors", TSR_MODE_BIT(TSR_MODE_TIMING_TBR),
	 "two-quads' geometry phase is bound by its vertex fetches, not its vertex instructions"},
	{"caches.l2.", M_IMR, "in immediate mode only the vertex, texture and instruction "
			      "misses reach the L2 (default routes), and they fit it"},
	{"caches.instruction.size_bytes", M_IMR, "two-quads' shaders fit any instruction cache"},
	{"caches.instruction.ways", M_IMR, "two-quads' shaders fit any instruction cache"},
	/* the vertex, texture and instruction streams only read: no write policy acts there */
	{"caches.vertex.fetch_on_write", 0, "the vertex and index streams only read"},
	{"caches.vertex.write_policy", 0, "the vertex and index streams only read"},
	{"caches.texture.fetch_on_write", 0, "the texture stream only reads"},
	{"caches.texture.write_policy", 0, "the texture stream only reads"},
	{"caches.instruction.fetch_on_write", 0, "the instruction stream only reads"},
	{"caches.instruction.write_policy", 0, "the instruction stream only reads"},
};

/* 1 when pattern (exact key, "caches.*.leaf", or a prefix ending in '.' or '_') matches key. */
static int matches(const char *pattern, const char *key)
{
	if (!strncmp(pattern, "caches.*.", 9)) {
		const char *dot = strrchr(key, '.');
		return !strncmp(key, "caches.", 7) && dot && !strcmp(dot + 1, pattern + 9);
	}
	size_t n = strlen(pattern);
	if (pattern[n - 1] == '.' || pattern[n - 1] == '_')
		return !strncmp(pattern, key, n);
	return !strcmp(pattern, key);
}

/* The cache instance of a caches.<name>.<leaf> key into buf ("" otherwise). */
static void instance_of(const char *key, char *buf, size_t n)
{
	buf[0] = '\0';
	if (strncmp(key, "caches.", 7))
		return;
	const char *dot = strchr(key + 7, '.');
	if (dot)
		snprintf(buf, n, "%.*s", (int)(dot - key - 7), key + 7);
}

/* ---- runs ---- */

static struct tsr_scene *scene;

/* One finished run: its configuration, counters and hierarchy. */
struct run {
	struct tsr_gpu_config cfg;
	struct tsr_sim *sim;
	struct tsr_frame_stats total;
	char *json;   /* tsr_config_json_text() */
};

/* The sets of a run: base, mode, an optional prerequisite, an optional key=value. */
static size_t run_sets(enum tsr_config_mode m, const char *pre, const char *kv,
		       const char **sets)
{
	size_t n = 0;
	for (size_t i = 0; i < NBASE; i++)
		sets[n++] = base_sets[i];
	for (int i = 0; i < 2; i++)
		if (mode_sets[m][i])
			sets[n++] = mode_sets[m][i];
	if (pre)
		sets[n++] = pre;
	if (kv)
		sets[n++] = kv;
	return n;
}

/* The configuration of a run; TSR_OK when it is valid. */
static enum tsr_status run_config(enum tsr_config_mode m, const char *pre, const char *kv,
				  struct tsr_gpu_config *cfg)
{
	const char *sets[16];
	struct tsr_error err;
	size_t n = run_sets(m, pre, kv, sets);
	tsr_config_defaults(cfg);
	return tsr_config_apply_sets(cfg, NULL, sets, n, &err);
}

/* Runs one frame; 0 when the configuration is invalid or the run fails. */
static int run_open(enum tsr_config_mode m, const char *pre, const char *kv, struct run *r)
{
	struct tsr_error err;
	memset(r, 0, sizeof(*r));
	if (run_config(m, pre, kv, &r->cfg) != TSR_OK)
		return 0;
	assert_int_equal(tsr_config_mode(&r->cfg), m);
	if (tsr_sim_open_scene(&r->cfg, scene, &r->sim, &err) != TSR_OK)
		return 0;
	if (tsr_sim_run(r->sim, 1, NULL, NULL, &err) != TSR_OK) {
		print_error("%s: %s\n", kv ? kv : "base", err.msg);
		tsr_sim_close(r->sim);
		r->sim = NULL;
		return 0;
	}
	memcpy(&r->total, tsr_sim_total(r->sim), sizeof(r->total));
	r->json = tsr_config_json_text(&r->cfg);
	assert_non_null(r->json);
	return 1;
}

static void run_close(struct run *r)
{
	tsr_sim_close(r->sim);
	free(r->json);
	r->sim = NULL;
	r->json = NULL;
}

/* Baselines by mode and prerequisite (NULL: none), opened on first use. */
#define MAX_BASES 16
static struct {
	enum tsr_config_mode mode;
	const char *pre;
	struct run *run;
} bases[MAX_BASES];
static size_t nbases;

static struct run *baseline(enum tsr_config_mode m, const char *pre)
{
	for (size_t i = 0; i < nbases; i++)
		if (bases[i].mode == m && bases[i].pre == pre)
			return bases[i].run;
	assert_true(nbases < MAX_BASES);
	struct run *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	if (!run_open(m, pre, NULL, r)) {
		free(r);
		r = NULL;  /* the prerequisite is an error in this mode */
	}
	bases[nbases].mode = m;
	bases[nbases].pre = pre;
	bases[nbases++].run = r;
	return r;
}

static int bases_teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < nbases; i++)
		if (bases[i].run) {
			run_close(bases[i].run);
			free(bases[i].run);
		}
	nbases = 0;
	tsr_scene_destroy(scene);
	return 0;
}

static int bases_setup(void **state)
{
	(void)state;
	struct tsr_error err;
	return tsr_scene_load(WORKLOAD, &scene, &err) == TSR_OK ? 0 : -1;
}

/* ---- second values from the schema ---- */

/*
 * The k-th candidate for another value of entry e (k = 0, 1, ...) into
 * buf; 0 when none is left. The caller keeps the first the configuration
 * accepts.
 */
static int candidate(const struct tsr_config_entry *e, int k, char *buf, size_t n)
{
	if (e->integer) {
		const uint64_t v = strtoull(e->value, NULL, 10);
		/* the range's top only when near: a 2 GiB cache would take the memory */
		const uint64_t top = e->max <= 4 * v + 4 ? e->max : v;
		const uint64_t c[] = {v / 2, v * 2, v + 1, v ? v - 1 : 0, e->min, top};
		if (k >= (int)(sizeof(c) / sizeof(c[0])))
			return 0;
		if (c[k] < e->min || c[k] > e->max || c[k] == v)
			snprintf(buf, n, "%s", e->value);  /* skipped: the same value */
		else
			snprintf(buf, n, "%llu", (unsigned long long)c[k]);
		return 1;
	}
	if (!strcmp(e->value, "true") || !strcmp(e->value, "false")) {
		snprintf(buf, n, "%s", strcmp(e->value, "true") ? "true" : "false");
		return k == 0;
	}
	if (!strncmp(e->kind, "one of ", 7)) {  /* the names after the value's, in turn */
		char names[16][48];
		int count = 0, at = 0;
		for (const char *p = e->kind + 7; *p && count < 16; count++) {
			size_t len = strcspn(p, ",");
			snprintf(names[count], sizeof(names[count]), "%.*s", (int)len, p);
			p += len;
			p += *p ? 2 : 0;  /* ", " */
		}
		for (int i = 0; i < count; i++)
			if (!strncmp(e->value + 1, names[i], strlen(names[i])) &&
			    e->value[1 + strlen(names[i])] == '"')
				at = i;
		if (k + 1 >= count)
			return 0;
		snprintf(buf, n, "%s", names[(at + 1 + k) % count]);
		return 1;
	}
	if (!strncmp(e->key, "routes.", 7)) {
		const char *name = k == 0 ? "perfect" : "dram";
		const size_t len = strlen(name);
		if (strlen(e->value) == len + 2 && !strncmp(e->value + 1, name, len))
			snprintf(buf, n, "%s", e->value);  /* skipped: the same value */
		else
			snprintf(buf, n, "%s", name);
		return k < 2;
	}
	return 0;  /* other strings: structural */
}

/* ---- the check ---- */

static const char *prerequisite_of(const char *key)
{
	for (size_t i = 0; i < sizeof(prerequisites) / sizeof(prerequisites[0]); i++)
		if (matches(prerequisites[i].prefix, key))
			return prerequisites[i].set;
	return NULL;
}

static const char *exemption_of(const char *key, enum tsr_config_mode m)
{
	for (size_t i = 0; i < sizeof(exempt) / sizeof(exempt[0]); i++)
		if (matches(exempt[i].key, key) &&
		    (!exempt[i].modes || (exempt[i].modes & TSR_MODE_BIT(m))))
			return exempt[i].reason;
	return NULL;
}

/* 1 when the warnings of cfg name key. */
static int warned(const struct tsr_gpu_config *cfg, const char *key)
{
	struct tsr_config_warning *w = NULL;
	struct tsr_error err;
	size_t n = 0;
	assert_int_equal(tsr_config_warnings(cfg, &w, &n, &err), TSR_OK);
	int found = 0;
	for (size_t i = 0; i < n; i++) {
		found += !strcmp(w[i].key, key);
		assert_non_null(strstr(w[i].msg, " is ignored "));
	}
	free(w);
	assert_true(found <= 1);  /* once */
	return found;
}

/* The counter `name` of run r (0 when the name is unknown there). */
static uint64_t counter(const struct run *r, const char *name)
{
	uint64_t v = 0;
	struct tsr_error err;
	if (tsr_stats_lookup(&r->total, tsr_gpu_memsys(tsr_sim_gpu(r->sim)), name, &v, &err) !=
	    TSR_OK)
		fail_msg("counter '%s': %s", name, err.msg);
	return v;
}

struct tally {
	size_t moved, tied, ignored, exempted, rejected, failures;
};

/* Checks entry e in mode m. */
static void check_key(const struct tsr_config_entry *e, enum tsr_config_mode m,
		      struct tally *t)
{
	const int declared = (e->ignored_modes & TSR_MODE_BIT(m)) != 0;
	const char *pre = declared ? NULL : prerequisite_of(e->key);
	struct run *base = baseline(m, pre);
	if (!base && pre)  /* the prerequisite is an error in this mode */
		base = baseline(m, pre = NULL);
	assert_non_null(base);
	char val[96], kv[256];
	struct run r;
	int ok = 0, moved = 0, ignored = 0;
	/* the first valid value; while it moves nothing where the key is read,
	 * the next ones (a key may show in one direction only) */
	for (int k = 0; !moved && candidate(e, k, val, sizeof(val)); k++) {
		struct run x;
		if (!strcmp(val, e->value))
			continue;
		char xkv[256];
		snprintf(xkv, sizeof(xkv), "%s=%s", e->key, val);
		if (!run_open(m, pre, xkv, &x))
			continue;
		if (!strcmp(x.json, base->json)) {
			print_error("%s in %s: the effective configuration does not change\n",
				    xkv, tsr_config_mode_name(m));
			t->failures++;
		}
		const int x_moved = memcmp(&x.total, &base->total, sizeof(x.total)) != 0;
		/* ignored: declared for the mode, or found so (a key another key
		 * switches off, a cache no stream of the mode reaches) */
		const int x_ignored = warned(&x.cfg, e->key);
		if (ok && x_ignored != ignored) {
			print_error("%s in %s: warned of for one value, not another\n", xkv,
				    tsr_config_mode_name(m));
			t->failures++;
		}
		if (ok && !x_moved) {
			run_close(&x);
			continue;
		}
		if (ok)
			run_close(&r);
		r = x;
		ok = 1;
		moved = x_moved;
		ignored = x_ignored;
		snprintf(kv, sizeof(kv), "%s", xkv);
		if (!ignored && exemption_of(e->key, m))
			break;  /* checked with one value (an ignored key: with every one) */
	}
	if (!ok) {  /* no other value is valid in this mode: the check rejects it loudly */
		t->rejected++;
		return;
	}
	if (declared && !ignored) {
		print_error("%s in %s: no warning\n", kv, tsr_config_mode_name(m));
		t->failures++;
	}
	if (ignored) {
		t->ignored++;
		if (moved) {
			print_error("%s moves counters in %s, where a warning says it is "
				    "ignored\n", kv, tsr_config_mode_name(m));
			t->failures++;
		}
	} else {
		const char *why = exemption_of(e->key, m);
		if (why) {
			t->exempted++;
		} else if (!moved) {
			print_error("%s in %s moves no counter, nor does any other value: a dead "
				    "key (declare the mode in its schema entry's 'ignored', or exempt "
				    "it here)\n", kv, tsr_config_mode_name(m));
			t->failures++;
		} else {
			t->moved++;
		}
		for (size_t i = 0; moved && i < sizeof(ties) / sizeof(ties[0]); i++) {
			if (!matches(ties[i].key, e->key) ||
			    (ties[i].modes && !(ties[i].modes & TSR_MODE_BIT(m))))
				continue;
			char inst[64], name[160];
			instance_of(e->key, inst, sizeof(inst));
			snprintf(name, sizeof(name), ties[i].counter, inst);
			const uint64_t a = counter(base, name), b = counter(&r, name);
			if (a == b) {
				print_error("%s in %s: its counter %s stays %llu\n", kv,
					    tsr_config_mode_name(m), name, (unsigned long long)a);
				t->failures++;
			}
			t->tied++;
		}
	}
	run_close(&r);
}

/* Energy overrides: warned about in the functional modes, moving the energy in the timing ones. */
static void check_energy(const struct tsr_config_entry *e, enum tsr_config_mode m,
			 struct tally *t)
{
	char kv[256];
	snprintf(kv, sizeof(kv), "%s=%.6g", e->key, atof(e->value) * 2 + 1);
	struct tsr_gpu_config cfg;
	assert_int_equal(run_config(m, NULL, kv, &cfg), TSR_OK);
	const int warns = warned(&cfg, e->key);
	if (e->ignored_modes & TSR_MODE_BIT(m)) {
		t->ignored++;
		if (!warns) {
			print_error("%s in %s: no warning\n", kv, tsr_config_mode_name(m));
			t->failures++;
		}
		return;
	}
	assert_false(warns);
	struct run *base = baseline(m, NULL);
	assert_non_null(base);
	const struct tsr_memsys *mem = tsr_gpu_memsys(tsr_sim_gpu(base->sim));
	struct tsr_energy *ea = NULL, *eb = NULL;
	struct tsr_energy_result ra, rb;
	struct tsr_error err;
	assert_int_equal(tsr_energy_create(&base->cfg, mem, &ea, &err), TSR_OK);
	assert_int_equal(tsr_energy_create(&cfg, mem, &eb, &err), TSR_OK);
	assert_int_equal(tsr_energy_compute(ea, &base->total, &ra, &err), TSR_OK);
	assert_int_equal(tsr_energy_compute(eb, &base->total, &rb, &err), TSR_OK);
	if (ra.total_nj == rb.total_nj) {
		t->exempted++;  /* a row whose counter is zero here (e.g. a stream two-quads lacks) */
	} else {
		t->moved++;
		t->tied++;
	}
	tsr_energy_destroy(ea);
	tsr_energy_destroy(eb);
}

/*
 * Every key in every mode: moves what it should where it is read, moves
 * nothing and warns where its schema entry says it is ignored.
 */
static void test_no_dead_keys(void **state)
{
	(void)state;
	struct tally t = {0};
	for (int m = 0; m < TSR_MODE_COUNT; m++) {
		struct run *base = baseline((enum tsr_config_mode)m, NULL);
		assert_non_null(base);
		/* the base itself warns of nothing: it sets no ignored key */
		struct tsr_config_warning *w = NULL;
		struct tsr_error err;
		size_t nw = 0;
		assert_int_equal(tsr_config_warnings(&base->cfg, &w, &nw, &err), TSR_OK);
		for (size_t i = 0; i < nw; i++) {  /* only of what the base sets */
			size_t j = 0;
			while (j < NBASE && strncmp(base_sets[j], w[i].key, strlen(w[i].key)))
				j++;
			if (j == NBASE)
				fail_msg("the base of %s warns: %s", tsr_config_mode_name(m), w[i].msg);
		}
		free(w);
		struct tsr_config_entry *e = NULL;
		size_t n = 0;
		assert_int_equal(tsr_config_entries(&base->cfg, &e, &n, &err), TSR_OK);
		for (size_t i = 0; i < n; i++) {
			if (!strcmp(e[i].key, "pipeline.mode") || !strcmp(e[i].key, "timing.enabled"))
				continue;  /* the mode itself */
			if (!strncmp(e[i].key, "energy.", 7))
				check_energy(&e[i], (enum tsr_config_mode)m, &t);
			else
				check_key(&e[i], (enum tsr_config_mode)m, &t);
		}
		free(e);
	}
	print_message("keys x modes: %zu moved (%zu tied counters moved), %zu ignored (warned of) "
		      "as declared or found, %zu exempted, %zu with no other valid value; %zu failures\n",
		      t.moved, t.tied, t.ignored, t.exempted, t.rejected, t.failures);
	for (size_t i = 0; i < sizeof(exempt) / sizeof(exempt[0]); i++)
		print_message("exempted: %s%s: %s\n", exempt[i].key,
			      exempt[i].modes == M_IMR ? " (immediate mode)"
			      : exempt[i].modes ? " (timing tbr)" : "", exempt[i].reason);
	assert_int_equal(t.failures, 0);
	assert_true(t.moved > 100);
	assert_true(t.tied > 30);
	assert_true(t.ignored > 50);
}

/* The schema's declarations: descriptions say where a key is ignored, and the known cases. */
static void test_declarations(void **state)
{
	(void)state;
	struct tsr_gpu_config cfg;
	struct tsr_config_entry *e = NULL;
	struct tsr_error err;
	size_t n = 0;
	tsr_config_defaults(&cfg);
	assert_int_equal(tsr_config_entries(&cfg, &e, &n, &err), TSR_OK);
	int seen = 0;
	for (size_t i = 0; i < n; i++) {
		if (!e[i].ignored_modes) {
			assert_string_equal(e[i].ignored, "");
			continue;
		}
		/* every declared set of modes has words, and a reason */
		assert_null(strstr(e[i].ignored, "some modes"));
		assert_true(strlen(e[i].ignored_why) > 20);
		assert_non_null(strstr(e[i].ignored, e[i].ignored_why));
		if (!strcmp(e[i].key, "dram.latency_cycles")) {
			assert_int_equal(e[i].ignored_modes, (1u << TSR_MODE_COUNT) - 1);
			assert_non_null(strstr(e[i].ignored, "ignored in every mode"));
			seen++;
		}
		if (!strcmp(e[i].key, "caches.l2.mshrs")) {
			assert_int_equal(e[i].ignored_modes,
					 TSR_MODE_BIT(TSR_MODE_FUNCTIONAL_TBR) |
					 TSR_MODE_BIT(TSR_MODE_FUNCTIONAL_IMR));
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	free(e);
	/* the Markdown reference carries the same words */
	char *md = NULL;
	assert_int_equal(tsr_config_markdown(&cfg, &md, &err), TSR_OK);
	assert_non_null(strstr(md, "| `dram.latency_cycles` | `100` |"));
	assert_non_null(strstr(md, "; ignored in every mode: no model reads it"));
	free(md);
	/* a warning names the run's mode: functional here, timing.gpu_mhz set */
	const char *sets[] = {"timing.gpu_mhz=400", "dram.latency_cycles=400",
			      "caches.l2.latency_cycles=20"};
	assert_int_equal(tsr_config_apply_sets(&cfg, NULL, sets, 3, &err), TSR_OK);
	struct tsr_config_warning *w = NULL;
	assert_int_equal(tsr_config_warnings(&cfg, &w, &n, &err), TSR_OK);
	assert_int_equal(n, 3);
	assert_string_equal(w[0].key, "timing.gpu_mhz");
	assert_non_null(strstr(w[0].msg, "timing.gpu_mhz is ignored in functional mode "
					 "(timing.enabled false): "));
	assert_string_equal(w[1].key, "dram.latency_cycles");
	assert_string_equal(w[2].key, "caches.l2.latency_cycles");
	free(w);
	/* in timing mode only dram.latency_cycles is left */
	const char *timing[] = {"timing.enabled=true"};
	assert_int_equal(tsr_config_apply_sets(&cfg, NULL, timing, 1, &err), TSR_OK);
	assert_int_equal(tsr_config_warnings(&cfg, &w, &n, &err), TSR_OK);
	assert_int_equal(n, 1);
	assert_non_null(strstr(w[0].msg, "dram.latency_cycles is ignored in every mode: "));
	free(w);
	/* a value equal to the default is no warning */
	const char *same[] = {"dram.latency_cycles=100", "timing.gpu_mhz=600"};
	tsr_config_defaults(&cfg);
	assert_int_equal(tsr_config_apply_sets(&cfg, NULL, same, 2, &err), TSR_OK);
	assert_int_equal(tsr_config_warnings(&cfg, &w, &n, &err), TSR_OK);
	assert_int_equal(n, 0);
	assert_null(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_declarations),
		cmocka_unit_test(test_no_dead_keys),
	};
	return cmocka_run_group_tests(tests, bases_setup, bases_teardown);
}
