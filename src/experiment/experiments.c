/* realpath() is XSI: the X/Open level that includes POSIX.1-2008 */
#define _XOPEN_SOURCE 700

/*
 * experiments.c - the experiments' name table, tsr_experiment_run() and
 * the helpers every experiment shares (xp_priv.h).
 */
#include <jansson.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/datadir.h"
#include "core/files.h"
#include "core/json_util.h"
#include "energy/energy.h"
#include "cachesim/replay.h"
#include "experiment/xp_priv.h"
#include "memory/memsys.h"
#include "pipeline/gpu.h"
#include "report/report.h"
#include "report/stats_read.h"
#include "sweep/sweep.h"
#include "sim/sim.h"
#include "trace/trace.h"

static const struct tsr_experiment *const experiments[] = {
	&tsr_xp_tcor,
	&tsr_xp_attribute_cache,
	&tsr_xp_re,
	&tsr_xp_workloads,
	&tsr_xp_boustrophedonic,
	&tsr_xp_timing,
	&tsr_xp_dtexl,
	&tsr_xp_gspc,
};

#define XP_COUNT (sizeof(experiments) / sizeof(experiments[0]))

const struct tsr_experiment *tsr_experiment_find(const char *name)
{
	for (size_t i = 0; name && i < XP_COUNT; i++)
		if (!strcmp(experiments[i]->name, name))
			return experiments[i];
	return NULL;
}

size_t tsr_experiment_count(void)
{
	return XP_COUNT;
}

const struct tsr_experiment *tsr_experiment_at(size_t i)
{
	return i < XP_COUNT ? experiments[i] : NULL;
}

const char *tsr_experiment_name(const struct tsr_experiment *x)
{
	return x->name;
}

const char *tsr_experiment_summary(const struct tsr_experiment *x)
{
	return x->summary;
}

int tsr_experiment_has_spec(const struct tsr_experiment *x)
{
	return x->has_spec;
}

uint32_t tsr_experiment_default_frames(const struct tsr_experiment *x)
{
	return x->default_frames;
}

const char *const *tsr_experiment_default_workloads(const struct tsr_experiment *x)
{
	return x->default_workloads;
}

int tsr_xp_is_capture(const char *path)
{
	const size_t n = path ? strlen(path) : 0;
	return n > 6 && !strcmp(path + n - 6, ".trace");
}

enum tsr_status tsr_experiment_run(const struct tsr_experiment *x,
				   const struct tsr_xp_options *o, struct tsr_xp_result *out,
				   struct tsr_error *err)
{
	static const struct tsr_xp_options none;
	if (!o)
		o = &none;
	memset(out, 0, sizeof(*out));
	struct xp_ctx c = {
		.frames = o->frames ? o->frames : x->default_frames,
		.first = o->first_frame,
		.workloads = o->workloads,
		.workload_count = o->workload_count,
		.sets = o->sets,
		.set_count = o->set_count,
		.jobs = o->jobs ? (o->jobs < XP_MAX_THREADS ? o->jobs : XP_MAX_THREADS) : 2,
		.o = o,
		.from = o->sweep_dir,
		.name = x->name,
	};
	if (o->frame_list && (c.first || o->frames || o->session_count))
		return tsr_error_set(err, TSR_ERR_CONFIG, "a frame list (--frames LIST) is the "
				     "frames: no count, range or session beside it");
	if (o->session_count && !c.frames)
		return tsr_error_set(err, TSR_ERR_CONFIG, "experiment '%s' runs each workload's "
				     "own frames: with sessions (--session) give a count "
				     "(--frames N)", x->name);
	if (o->sweep_dir && (o->first_frame || o->frame_list || o->session_count))
		return tsr_error_set(err, TSR_ERR_CONFIG, "experiment '%s': a sweep's points "
				     "are runs from frame 0, so reading them (--from, --sweep) "
				     "takes no range, list or session of frames (--frames A-B, "
				     "--frames LIST, --session)", x->name);
	if (o->sweep_dir && !x->has_spec)
		return tsr_error_set(err, TSR_ERR_CONFIG, "experiment '%s' has no sweep "
				     "specification (experiments/%s.json), so it cannot read its "
				     "points from a sweep", x->name, x->name);
	if (o->sweep_dir) {
		char points[4096];
		snprintf(points, sizeof(points), "%s/points", o->sweep_dir);
		if (access(points, F_OK))
			return tsr_error_set(err, TSR_ERR_IO, "'%s' is not the output folder of a "
					     "sweep (it has no points/): run `tessera sweep "
					     "experiments/%s.json --out %s` or `tessera experiment %s "
					     "--sweep` first", o->sweep_dir, x->name, o->sweep_dir,
					     x->name);
	}
	char **all = NULL;  /* every shipped workload, when the experiment asks for them */
	const char **list = NULL;  /* the shipped list, then o->extra_workloads */
	if (!o->workloads || !o->workload_count) {
		if (x->default_workloads) {
			c.workloads = x->default_workloads;
			c.workload_count = 0;
			while (x->default_workloads[c.workload_count])
				c.workload_count++;
		} else {
			TSR_TRY(tsr_data_list("workloads", ".json", &all, &c.workload_count, err));
			c.workloads = (const char *const *)all;
		}
		c.shipped = 1;
		c.shipped_count = c.workload_count;
		if (o->extra_workloads && o->extra_workload_count) {
			list = malloc((c.workload_count + o->extra_workload_count) * sizeof(*list));
			if (!list) {
				tsr_data_list_free(all);
				return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
			}
			for (size_t i = 0; i < c.workload_count; i++)
				list[i] = c.workloads[i];
			for (size_t i = 0; i < o->extra_workload_count; i++)
				list[c.workload_count++] = o->extra_workloads[i];
			c.workloads = list;
		}
	}
	if (o->frame_list) {  /* --frames LIST: c.list, released at the end */
		struct tsr_error e;
		enum tsr_status ls = tsr_frame_list_parse(o->frame_list, &c.list, &e);
		if (ls == TSR_OK && c.list.kind != TSR_FRAMES_LIST)
			ls = tsr_error_set(&e, TSR_ERR_CONFIG, "'%s': a list of frames and ranges",
					   o->frame_list);
		c.frames = 0;
		for (uint32_t f = 0; ls == TSR_OK && f < c.list.n; f++)
			c.frames += c.list.listed[f];
		if (ls == TSR_OK && !c.frames)
			ls = tsr_error_set(&e, TSR_ERR_CONFIG, "'%s' lists no frame", o->frame_list);
		if (ls != TSR_OK) {
			tsr_frame_list_release(&c.list);
			free(list);
			tsr_data_list_free(all);
			return tsr_error_set(err, ls, "frames %s", e.msg);
		}
	}
	if (c.first)  /* the tables' frame counts are of the frames simulated */
		tsr_text_printf(&out->text, "frames %u-%u of every workload (the %u before "
				"fast-forwarded; the caches start cold at frame %u)\n", c.first,
				c.first + c.frames - 1, c.first, c.first);
	if (c.list.kind == TSR_FRAMES_LIST)
		tsr_text_printf(&out->text, "frames %s of every workload (%u frames; the others "
				"fast-forwarded, no warm-up frame)\n", o->frame_list,
				c.frames);
	if (o->session_count) {  /* --session */
		tsr_text_printf(&out->text, "%u frames from each session's start (the frames "
				"before fast-forwarded; the caches start cold there):", c.frames);
		for (size_t i = 0; i < o->session_count; i++) {
			const char *p = o->session_paths[i];
			tsr_text_printf(&out->text, "%s %s %u-%u", i ? "," : "",
					strrchr(p, '/') ? strrchr(p, '/') + 1 : p, o->session_first[i],
					o->session_first[i] + c.frames - 1);
		}
		tsr_text_printf(&out->text, "\n");
	}
	enum tsr_status s = x->run(&c, out, err);
	xp_flush(&c, out);  /* also the rows before an error */
	free(list);
	tsr_data_list_free(all);
	tsr_frame_list_release(&c.list);
	TSR_TRY(s);
	TSR_TRY(tsr_text_status(&out->text, "the experiment's report", err));
	for (uint32_t i = 0; i < out->table_count; i++)
		TSR_TRY(tsr_table_status(&out->tables[i], err));
	return TSR_OK;
}

const struct tsr_table *tsr_xp_result_table(const struct tsr_xp_result *r, const char *name)
{
	for (uint32_t i = 0; i < r->table_count; i++)
		if (!strcmp(r->tables[i].name, name))
			return &r->tables[i];
	return NULL;
}

void tsr_xp_table_file(const char *experiment, const char *table, char *buf, size_t n)
{
	size_t len = 0, el = strlen(experiment);
	int prefixed = !strncmp(table, experiment, el) && (table[el] == '\0' || table[el] == '-');
	char src[160];
	snprintf(src, sizeof(src), "%s%s%s", prefixed ? "" : experiment, prefixed ? "" : "-", table);
	int dash = 0;  /* a '-' is pending: written before the next letter or digit */
	for (const char *p = src; *p && n && len + 1 < n; p++) {
		unsigned char ch = (unsigned char)*p;
		if (isalnum(ch)) {
			if (dash && len && len + 2 < n)
				buf[len++] = '-';
			dash = 0;
			buf[len++] = (char)tolower(ch);
		} else {
			dash = 1;
		}
	}
	if (n)
		buf[len] = '\0';
}

enum tsr_status tsr_xp_result_write_dir(const struct tsr_xp_result *r, const char *experiment,
					const char *dir, const char *command,
					const char *commit, struct tsr_error *err)
{
	enum tsr_status s = tsr_text_status(&r->text, "the report", err);
	if (s != TSR_OK)
		return s;
	struct tsr_output out;
	s = tsr_output_open(&out, dir, err);
	if (s != TSR_OK)
		return s;
	json_t *root = json_object(), *tables = json_array();
	char file[96], name[112];
	/* plan every output first: two tables of one slug fail before any write */
	for (uint32_t i = 0; s == TSR_OK && i < r->table_count; i++) {
		tsr_xp_table_file(experiment, r->tables[i].name, file, sizeof(file) - 4);
		snprintf(name, sizeof(name), "%s.csv", file);
		s = tsr_output_plan(&out, name, 1, err);
	}
	const char *ext[] = {"txt", "json"};
	for (int i = 0; s == TSR_OK && i < 2; i++) {
		snprintf(name, sizeof(name), "%s.%s", experiment, ext[i]);
		s = tsr_output_plan(&out, name, 1, err);
	}
	for (uint32_t i = 0; s == TSR_OK && i < r->table_count; i++) {
		tsr_xp_table_file(experiment, r->tables[i].name, file, sizeof(file) - 4);
		snprintf(name, sizeof(name), "%s.csv", file);
		struct tsr_text csv = {0};
		tsr_table_csv(&r->tables[i], &csv);
		s = tsr_text_status(&csv, "the CSV", err);
		if (s == TSR_OK)
			s = tsr_output_write(&out, name, csv.buf ? csv.buf : "", csv.len, err);
		tsr_text_release(&csv);
		json_t *t = s == TSR_OK ? json_pack("{s:s,s:s}", "name", r->tables[i].name,
						    "file", name) : NULL;
		if (s == TSR_OK && (!t || json_array_append_new(tables, t)))  /* steals t */
			s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for %s.json", experiment);
	}
	if (s == TSR_OK) {
		snprintf(name, sizeof(name), "%s.txt", experiment);
		s = tsr_output_write(&out, name, r->text.buf ? r->text.buf : "", r->text.len, err);
	}
	char *text = NULL;
	if (s == TSR_OK && root && tables) {
		json_object_set_new(root, "experiment", tsr_json_string(experiment));
		json_object_set_new(root, "command", command ? tsr_json_string(command) : json_null());
		json_object_set_new(root, "commit", commit ? tsr_json_string(commit) : json_null());
		json_object_set_new(root, "tessera_version", json_string(TSR_VERSION));
		json_object_set(root, "tables", tables);
		text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	}
	if (s == TSR_OK && !text)
		s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for %s.json", experiment);
	if (s == TSR_OK) {
		snprintf(name, sizeof(name), "%s.json", experiment);
		size_t len = strlen(text);
		char *nl = realloc(text, len + 2);  /* a final newline */
		if (!nl) {
			s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for %s.json", experiment);
		} else {
			text = nl;
			memcpy(text + len, "\n", 2);
			s = tsr_output_write(&out, name, text, len + 1, err);
		}
	}
	free(text);
	json_decref(tables);
	json_decref(root);
	if (s == TSR_OK)
		s = tsr_output_commit(&out, err);
	if (s != TSR_OK)
		tsr_output_abort(&out);
	return s;
}

void tsr_xp_result_release(struct tsr_xp_result *r)
{
	for (uint32_t i = 0; i < r->table_count; i++)
		tsr_table_release(&r->tables[i]);
	tsr_text_release(&r->text);
	r->table_count = 0;
}

void xp_flush(struct xp_ctx *c, const struct tsr_xp_result *out)
{
	if (c->o->on_text && !out->text.nomem && out->text.len > c->text_sent)
		c->o->on_text(c->o->on_text_ctx, out->text.buf + c->text_sent,
			      out->text.len - c->text_sent);
	c->text_sent = out->text.len;
}

struct tsr_table *xp_add_table(struct tsr_xp_result *out, const char *name,
			       const char *header, struct tsr_error *err)
{
	if (out->table_count == TSR_XP_MAX_TABLES) {
		tsr_error_set(err, TSR_ERR_INTERNAL, "too many tables in one experiment ('%s')", name);
		return NULL;
	}
	struct tsr_table *t = &out->tables[out->table_count++];
	return tsr_table_init(t, name, header, err) == TSR_OK ? t : NULL;
}

enum tsr_status xp_load_config(const struct xp_ctx *c, const char *name,
			       struct tsr_gpu_config *cfg, struct tsr_error *err)
{
	return xp_load_config_extra(c, name, NULL, cfg, err);
}

enum tsr_status xp_load_config_extra(const struct xp_ctx *c, const char *name,
				     const char *extra, struct tsr_gpu_config *cfg,
				     struct tsr_error *err)
{
	return xp_load_config_sets(c, name, &extra, extra ? 1 : 0, cfg, err);
}

enum tsr_status xp_load_config_sets(const struct xp_ctx *c, const char *name,
				    const char *const *extra, size_t extra_count,
				    struct tsr_gpu_config *cfg, struct tsr_error *err)
{
	char path[4096];
	if (name) {
		char rel[256];
		snprintf(rel, sizeof(rel), "configs/%s.json", name);
		TSR_TRY(tsr_data_path(rel, path, sizeof(path), err));
	}
	const char **sets = malloc((c->set_count + extra_count + 1) * sizeof(*sets));
	if (!sets)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	size_t n = 0;
	for (size_t i = 0; i < c->set_count; i++)
		sets[n++] = c->sets[i];
	for (size_t i = 0; i < extra_count; i++)
		sets[n++] = extra[i];
	tsr_config_defaults(cfg);
	enum tsr_status s = tsr_config_apply_sets(cfg, name ? path : NULL, sets, n, err);
	free(sets);
	return s;
}

/* "suite" for "/tmp/suite.trace" into buf. */
static const char *capture_stem(const char *path, char *buf, size_t n)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t len = strlen(base);
	if (len > 6 && !strcmp(base + len - 6, ".trace"))
		len -= 6;
	snprintf(buf, n, "%.*s", (int)len, base);
	return buf;
}

/* A capture's scene: nothing to draw, its path, stem and frames (xp_load_scene()). */
static enum tsr_status load_capture(const struct xp_ctx *c, const char *path,
				    struct tsr_scene **out, struct tsr_error *err)
{
	char stem[256];
	capture_stem(path, stem, sizeof(stem));
	if (c->from)
		return tsr_error_set(err, TSR_ERR_UNSUPPORTED, "experiment '%s': workload '%s' is "
				     "an apitrace capture, and a sweep's points (--from, --sweep) "
				     "are JSON workloads: run the experiment without --from/--sweep "
				     "to replay it", c->name, path);
	if (!c->o->replay)
		return tsr_error_set(err, TSR_ERR_UNSUPPORTED, "experiment '%s': workload '%s' is "
				     "an apitrace capture, which the library replays only through "
				     "a replay callback (tsr_xp_options.replay); `tessera "
				     "experiment` replays it on tessera's driver", c->name, path);
	if (access(path, R_OK))
		return tsr_error_set(err, TSR_ERR_IO, "cannot read capture '%s': %s", path,
				     strerror(errno));
	struct tsr_xp_replay r = {.capture = path};
	TSR_TRY(c->o->replay(c->o->replay_ctx, &r, err));
	struct tsr_scene *sc = calloc(1, sizeof(*sc));
	if (sc) {
		sc->path = strdup(path);
		sc->name = strdup(stem);
		sc->frames = r.capture_frames;
	}
	if (!sc || !sc->path || !sc->name) {
		tsr_scene_destroy(sc);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	*out = sc;
	return TSR_OK;
}

int xp_scene_is_capture(const struct tsr_scene *sc)
{
	/* a JSON workload has a format version (1 or more) */
	return sc->version == 0 && tsr_xp_is_capture(sc->path);
}

enum tsr_status xp_load_scene(const struct xp_ctx *c, size_t w, struct tsr_scene **out,
			      struct tsr_error *err)
{
	char path[4096];
	*out = NULL;
	if (c->shipped && w < c->shipped_count)
		TSR_TRY(tsr_data_path(c->workloads[w], path, sizeof(path), err));
	else if (tsr_xp_is_capture(c->workloads[w]))
		return load_capture(c, c->workloads[w], out, err);
	else
		TSR_TRY(tsr_data_resolve("workloads", c->workloads[w], path, sizeof(path), err));
	return tsr_scene_load(path, out, err);
}

const char *xp_workload_name(const struct xp_ctx *c, size_t w, const struct tsr_scene *sc)
{
	return sc->name ? sc->name : c->workloads[w];
}

const char *xp_workload_label(const struct xp_ctx *c, size_t w, char *buf, size_t n)
{
	if (tsr_xp_is_capture(c->workloads[w]))
		return capture_stem(c->workloads[w], buf, n);
	return c->workloads[w];
}

/* cycles and the memory hierarchy's energy of timing->energy, computed for t */
static void timing_fill(const struct tsr_frame_stats *t, struct xp_timing *timing)
{
	const struct tsr_energy_result *r = &timing->energy;
	timing->cycles = t->timing.cycles;
	timing->energy_nj = r->total_nj;
	for (uint32_t i = 0; i < r->count; i++)
		if (!strncmp(r->parts[i].name, "caches.", 7) || !strcmp(r->parts[i].name, "dram"))
			timing->memory_energy_nj += r->parts[i].dynamic_nj + r->parts[i].static_nj;
}

enum tsr_status xp_timing_of(const struct tsr_gpu_config *cfg, struct tsr_sim *s,
			     struct xp_timing *timing, struct tsr_error *err)
{
	memset(timing, 0, sizeof(*timing));
	if (!cfg->timing.enabled)
		return TSR_OK;
	const struct tsr_frame_stats *t = tsr_sim_total(s);
	struct tsr_energy *e = NULL;
	enum tsr_status st = tsr_energy_create(cfg, tsr_gpu_memsys(tsr_sim_gpu(s)), &e, err);
	if (st == TSR_OK)
		st = tsr_energy_compute(e, t, &timing->energy, err);
	tsr_energy_destroy(e);
	if (st != TSR_OK)
		return st;
	timing_fill(t, timing);
	return TSR_OK;
}

/* The error for a configuration without cache `cache`, which the experiment `does`. */
static enum tsr_status no_cache(const struct tsr_gpu_config *cfg, const char *cache,
				const char *does, struct tsr_error *err)
{
	return tsr_error_set(err, TSR_ERR_CONFIG, "configuration '%s' has no cache '%s' (the "
			     "experiment %s)", cfg->name, cache, does);
}

#define L2_USE "counts its accesses there"    /* xp_simulate()'s l2 */
#define RECORD_USE "replays its input"         /* xp_record()'s cache */

/*
 * The folder of the sweep point of (cfg, sc, frames) in c->from,
 * from/points/<hash>, into dir (PATH_MAX bytes); TSR_ERR_IO when it has
 * no stats.json (the message says how to run the sweep).
 */
static enum tsr_status point_dir(const struct xp_ctx *c, const struct tsr_gpu_config *cfg,
				 const struct tsr_scene *sc, uint32_t frames, char *dir,
				 struct tsr_error *err)
{
	/* the workload as the sweep names it: its absolute path (spec.c resolves it so) */
	char wpath[PATH_MAX], path[PATH_MAX + 64];
	if (!realpath(sc->path, wpath))
		snprintf(wpath, sizeof(wpath), "%s", sc->path);
	uint64_t digest = 0, hash = 0;
	TSR_TRY(tsr_sweep_workload_digest(wpath, &digest, err));
	TSR_TRY(tsr_sweep_point_hash(cfg, digest, frames, &hash, err));
	snprintf(dir, PATH_MAX, "%s/points/%016llx", c->from, (unsigned long long)hash);
	snprintf(path, sizeof(path), "%s/stats.json", dir);
	if (access(path, F_OK)) {
		char fr[32] = "its own frame count";
		if (frames)
			snprintf(fr, sizeof(fr), "%u frames", frames);
		return tsr_error_set(err, TSR_ERR_IO, "experiment '%s': the sweep in '%s' has no "
				     "point for workload '%s', config '%s', %s (hash %016llx, "
				     "folder %s/points/%016llx): run `tessera sweep "
				     "experiments/%s.json` (with --out %s) first, or `tessera "
				     "experiment %s --sweep`", c->name, c->from,
				     sc->name ? sc->name : sc->path, cfg->name, fr,
				     (unsigned long long)hash, c->from, (unsigned long long)hash,
				     c->name, c->from, c->name);
	}
	return TSR_OK;
}

/*
 * xp_simulate() from a sweep: the point of cfg in folder dir (point_dir()),
 * its stats.json; *port (if not NULL) the index of cache `cache` in
 * total->caches (`does`: what the experiment does with it).
 */
static enum tsr_status read_point(const char *dir, const struct tsr_gpu_config *cfg,
				  struct tsr_frame_stats *total, const char *cache,
				  const char *does, uint32_t *port, struct xp_timing *timing,
				  uint32_t *size, struct tsr_error *err)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/stats.json", dir);
	struct tsr_stats_file *f = calloc(1, sizeof(*f));
	if (!f)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	enum tsr_status st = tsr_stats_read(path, f, err);
	if (st == TSR_OK && port) {
		*port = TSR_PORT_DRAM;
		for (uint32_t i = 0; i < f->cache_count; i++)
			if (!strcmp(f->cache_names[i], cache))
				*port = i;
		if (*port == TSR_PORT_DRAM)
			st = no_cache(cfg, cache, does, err);
	}
	if (st == TSR_OK && timing && cfg->timing.enabled) {
		st = tsr_stats_file_energy(f, f->total, &timing->energy, err);
		if (st == TSR_OK)
			timing_fill(f->total, timing);
	}
	if (st == TSR_OK)
		*total = *f->total;
	if (st == TSR_OK && size) {  /* the run's frame size (a capture's: its surface's) */
		size[0] = f->config.width;
		size[1] = f->config.height;
	}
	tsr_stats_file_release(f);
	free(f);
	return st;
}

/* The geometry of cache `cache` as a run of cfg builds it (write_through from its write policy). */
static enum tsr_status cache_geometry(const struct tsr_gpu_config *cfg, const char *cache,
				      struct tsr_cache_geometry *geom, struct tsr_error *err)
{
	struct tsr_memsys *m = NULL;
	TSR_TRY(tsr_memsys_create(&cfg->mem, &m, err));
	const struct tsr_cache *k = tsr_memsys_cache_by_name(m, cache);
	if (k)
		*geom = *tsr_cache_geometry_of(k);
	tsr_memsys_destroy(m);
	return k ? TSR_OK : no_cache(cfg, cache, RECORD_USE, err);
}

/* The first frame simulated of the workload given as path: its session's
 * (tsr_xp_options.session_*), else --frames A-B's A (c->first). */
static uint32_t first_of(const struct xp_ctx *c, const char *path)
{
	for (size_t i = 0; c && path && i < c->o->session_count; i++)
		if (!strcmp(c->o->session_paths[i], path))
			return c->o->session_first[i];
	return c ? c->first : 0;
}

/*
 * xp_simulate() and xp_record() of a capture's scene: replays it through
 * c->o->replay with cfg for `frames` frames (0: all) into a temporary
 * folder ($TMPDIR or /tmp, removed after), recording cache `cache` when
 * lt is not NULL (then *geom too), and reads the run back as a sweep's
 * point is (read_point(), tsr_line_trace_load()): *total, *port (if not
 * NULL: cache's index; `does` for its error), *timing and size[2].
 */
static enum tsr_status replay_point(const struct xp_ctx *c, const struct tsr_gpu_config *cfg,
				    const struct tsr_scene *sc, uint32_t frames,
				    const char *cache, const char *does, uint32_t *port,
				    struct tsr_frame_stats *total, struct xp_timing *timing,
				    struct tsr_line_trace *lt, struct tsr_cache_geometry *geom,
				    uint32_t *size, struct tsr_error *err)
{
	if (!c || !c->o->replay)  /* xp_load_scene() refuses those first */
		return tsr_error_set(err, TSR_ERR_UNSUPPORTED, "workload '%s' is an apitrace "
				     "capture, replayed only through tsr_xp_options.replay",
				     sc->path);
	/* means per frame divide by the frames asked for: a capture must hold them */
	const uint32_t first = first_of(c, sc->path);
	const int listed = c->list.kind == TSR_FRAMES_LIST;
	if (listed ? c->list.n > sc->frames : (uint64_t)first + frames > sc->frames)
		return tsr_error_set(err, TSR_ERR_CONFIG, "experiment '%s': capture '%s' holds %u "
				     "frame%s, fewer than the %llu asked for (--frames)", c->name,
				     sc->path, sc->frames, sc->frames == 1 ? "" : "s",
				     listed ? (unsigned long long)c->list.n
					    : (unsigned long long)first + frames);
	if (lt)
		TSR_TRY(cache_geometry(cfg, cache, geom, err));
	const char *tmp = getenv("TMPDIR");
	char dir[PATH_MAX], name[64], path[PATH_MAX + 80];
	snprintf(dir, sizeof(dir), "%s/tessera-xp-XXXXXX", tmp && tmp[0] == '/' ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return tsr_error_set(err, TSR_ERR_IO, "cannot create a folder for the replay of "
				     "capture '%s' ('%s'): %s", sc->path, dir, strerror(errno));
	struct tsr_xp_replay r = {.capture = sc->path, .cfg = cfg, .frames = frames,
				  .first = listed ? 0 : first, .out_dir = dir,
				  .select = listed ? c->o->frame_list : NULL,
				  .select_end = listed ? c->list.n : 0,
				  .record_cache = lt ? cache : NULL};
	enum tsr_status st = c->o->replay(c->o->replay_ctx, &r, err);
	if (st == TSR_OK)
		st = read_point(dir, cfg, total, cache, does, port, timing, size, err);
	if (st == TSR_OK && lt) {
		tsr_sweep_trace_name(cache, name, sizeof(name));
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (access(path, F_OK))
			st = tsr_error_set(err, TSR_ERR_IO, "experiment '%s': the replay of capture "
					   "'%s' wrote no trace of cache '%s' ('%s')", c->name,
					   sc->path, cache, path);
		else
			st = tsr_line_trace_load(path, 0, geom->line_bytes, 1, lt, NULL, err);
	}
	tsr_remove_tree(dir);
	return st;
}

/*
 * Runs `frames` frames of s (0: the scene's own) from frame c->first, the
 * frames before it fast-forwarded (tsr_sim_select(), as `tessera run
 * --frames A-B --warmup 0`): no warm-up frame, so that the caches start
 * cold at frame A as they do at frame 0 of a run from the start, and a
 * cache's recorded input (xp_record()) is the input of the frames counted,
 * which its replay must match. Errors: those of tsr_sim_select() and
 * tsr_sim_run().
 */
static enum tsr_status run_frames(const struct xp_ctx *c, const struct tsr_scene *sc,
				  struct tsr_sim *s, uint32_t frames, struct tsr_error *err)
{
	if (c && c->list.kind == TSR_FRAMES_LIST) {  /* --frames LIST */
		TSR_TRY(tsr_sim_select(s, c->list.listed, c->list.n, 0, err));
		return tsr_sim_run(s, c->list.n, NULL, NULL, err);
	}
	const uint32_t first = first_of(c, sc->path);
	if (!first || !frames)
		return tsr_sim_run(s, frames, NULL, NULL, err);
	unsigned char *sel = calloc((size_t)first + frames, 1);
	if (!sel)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a frame selection");
	memset(sel + first, 1, frames);
	enum tsr_status st = tsr_sim_select(s, sel, first + frames, 0, err);
	free(sel);
	if (st == TSR_OK)
		st = tsr_sim_run(s, first + frames, NULL, NULL, err);
	return st;
}

/* xp_simulate(), and the frames' size (size[2]: cfg's, or a capture's surface; may be NULL). */
static enum tsr_status simulate(const struct xp_ctx *c, const struct tsr_gpu_config *cfg,
				const struct tsr_scene *sc, uint32_t frames,
				struct tsr_frame_stats *total, uint32_t *l2,
				struct xp_timing *timing, uint32_t *size, struct tsr_error *err)
{
	if (timing)
		memset(timing, 0, sizeof(*timing));
	if (size) {
		size[0] = cfg->width;
		size[1] = cfg->height;
	}
	if (xp_scene_is_capture(sc))
		return replay_point(c, cfg, sc, frames, "l2", L2_USE, l2, total, timing, NULL, NULL,
				    size, err);
	return xp_simulate(c, cfg, sc, frames, total, l2, timing, err);
}

enum tsr_status xp_simulate(const struct xp_ctx *c, const struct tsr_gpu_config *cfg,
			    const struct tsr_scene *sc, uint32_t frames,
			    struct tsr_frame_stats *total, uint32_t *l2,
			    struct xp_timing *timing, struct tsr_error *err)
{
	if (timing)
		memset(timing, 0, sizeof(*timing));
	if (xp_scene_is_capture(sc))
		return simulate(c, cfg, sc, frames, total, l2, timing, NULL, err);
	if (c && c->from) {
		char dir[PATH_MAX];
		TSR_TRY(point_dir(c, cfg, sc, frames, dir, err));
		return read_point(dir, cfg, total, "l2", L2_USE, l2, timing, NULL, err);
	}
	struct tsr_sim *s;
	TSR_TRY(tsr_sim_open_scene(cfg, sc, &s, err));
	enum tsr_status st = run_frames(c, sc, s, frames, err);
	if (timing)
		memset(timing, 0, sizeof(*timing));
	if (st == TSR_OK && timing)
		st = xp_timing_of(cfg, s, timing, err);
	if (st == TSR_OK && l2) {
		const struct tsr_memsys *m = tsr_gpu_memsys(tsr_sim_gpu(s));
		uint32_t port = tsr_memsys_cache_port(m, "l2");
		if (port == TSR_PORT_DRAM)
			st = no_cache(cfg, "l2", L2_USE, err);
		else
			*l2 = port;
	}
	if (st == TSR_OK)
		*total = *tsr_sim_total(s);
	tsr_sim_close(s);
	return st;
}

/* ---- recording a cache's input in memory (xp_record()) ---- */

/*
 * Records a cache's input in memory, each access split into lines as
 * replay does (cachesim/linetrace.h); the caller sets lt.line_bytes and
 * lt.line_shift first and frees lt's arrays. nomem: a growth failed
 * (the recording stopped there).
 */
struct xp_recorder {
	struct tsr_line_trace lt;
	size_t cap, meta_cap, mcap;
	int nomem;
};

static void xp_rec_push(struct xp_recorder *r, const struct tsr_access *a)
{
	if (tsr_line_trace_append(&r->lt, &r->cap, &r->meta_cap, a, NULL) != TSR_OK)
		r->nomem = 1;
}

static void xp_rec_access(void *ctx, const struct tsr_access *a)
{
	struct xp_recorder *r = ctx;
	uint32_t sh = r->lt.line_shift;
	uint64_t addr = a->addr, end = a->addr + (a->size ? a->size : 1);
	while (addr < end && !r->nomem) {
		uint64_t line_end = ((addr >> sh) + 1) << sh;
		uint64_t chunk_end = line_end < end ? line_end : end;
		struct tsr_access c = *a;
		c.addr = addr;
		c.size = (uint32_t)(chunk_end - addr);
		xp_rec_push(r, &c);
		addr = chunk_end;
	}
}

static void xp_rec_marker(void *ctx, enum tsr_marker kind, uint64_t value)
{
	struct xp_recorder *r = ctx;
	if (r->nomem)
		return;
	if (r->lt.marker_count == r->mcap) {
		size_t cap = r->mcap ? r->mcap * 2 : 4096;
		struct tsr_line_marker *p = realloc(r->lt.markers, cap * sizeof(*p));
		if (!p) {
			r->nomem = 1;
			return;
		}
		r->lt.markers = p;
		r->mcap = cap;
	}
	r->lt.markers[r->lt.marker_count++] =
		(struct tsr_line_marker){.pos = r->lt.count, .value = value, .kind = (uint8_t)kind};
	r->lt.frames += kind == TSR_MARKER_FRAME;
}

/* The cache observer that records into r (tsr_cache_set_observer()). */
static struct tsr_cache_observer xp_recorder_observer(struct xp_recorder *r)
{
	return (struct tsr_cache_observer){.access = xp_rec_access, .marker = xp_rec_marker,
					   .ctx = r};
}

/*
 * xp_record() from a sweep: the point's totals (read_point()) and its
 * trace of `cache` (trace-CACHE.bin, written by the point's `tessera run
 * --record-trace`), read with the trace reader and split into lines of
 * the geometry the run's cache has.
 */
static enum tsr_status load_recording(const struct xp_ctx *c, const struct tsr_gpu_config *cfg,
				      const struct tsr_scene *sc, uint32_t frames,
				      const char *cache, struct tsr_line_trace *lt,
				      struct tsr_cache_geometry *geom,
				      struct tsr_frame_stats *total, uint32_t *port,
				      struct xp_timing *timing, struct tsr_error *err)
{
	TSR_TRY(cache_geometry(cfg, cache, geom, err));
	char dir[PATH_MAX], name[64], path[PATH_MAX + 80];
	TSR_TRY(point_dir(c, cfg, sc, frames, dir, err));
	TSR_TRY(read_point(dir, cfg, total, cache, RECORD_USE, port, timing, NULL, err));
	tsr_sweep_trace_name(cache, name, sizeof(name));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (access(path, F_OK))
		return tsr_error_set(err, TSR_ERR_IO, "experiment '%s': the point in '%s' has no "
				     "trace of cache '%s' ('%s'): its spec must record it "
				     "(\"record_trace\": [\"%s\"]); run `tessera sweep "
				     "experiments/%s.json` (with --out %s) again, or `tessera "
				     "experiment %s --sweep`", c->name, dir, cache, path, cache,
				     c->name, c->from, c->name);
	/* straight into the line trace, next uses included, without holding the records */
	return tsr_line_trace_load(path, 0, geom->line_bytes, 1, lt, NULL, err);
}

enum tsr_status xp_record(const struct xp_ctx *c, const struct tsr_gpu_config *cfg,
			  const struct tsr_scene *sc, uint32_t frames, const char *cache,
			  struct tsr_line_trace *lt, struct tsr_cache_geometry *geom,
			  struct tsr_frame_stats *total, uint32_t *port,
			  struct xp_timing *timing, struct tsr_error *err)
{
	memset(lt, 0, sizeof(*lt));
	if (timing)
		memset(timing, 0, sizeof(*timing));
	if (xp_scene_is_capture(sc))
		return replay_point(c, cfg, sc, frames, cache, RECORD_USE, port, total, timing, lt,
				    geom, NULL, err);
	if (c && c->from)
		return load_recording(c, cfg, sc, frames, cache, lt, geom, total, port, timing,
				      err);
	struct tsr_sim *s;
	TSR_TRY(tsr_sim_open_scene(cfg, sc, &s, err));
	struct tsr_gpu *gpu = tsr_sim_gpu(s);
	struct tsr_cache *k = tsr_gpu_cache_by_name(gpu, cache);
	*port = tsr_memsys_cache_port(tsr_gpu_memsys(gpu), cache);
	struct xp_recorder rec;
	memset(&rec, 0, sizeof(rec));
	enum tsr_status st = TSR_OK;
	if (!k || *port == TSR_PORT_DRAM) {
		st = no_cache(cfg, cache, RECORD_USE, err);
	} else {
		*geom = *tsr_cache_geometry_of(k);
		rec.lt.line_bytes = geom->line_bytes;
		while ((1u << rec.lt.line_shift) < geom->line_bytes)
			rec.lt.line_shift++;
		struct tsr_cache_observer ob = xp_recorder_observer(&rec);
		tsr_cache_set_observer(k, &ob);
		st = run_frames(c, sc, s, frames, err);
		tsr_cache_set_observer(k, NULL);
	}
	if (st == TSR_OK && timing)
		st = xp_timing_of(cfg, s, timing, err);
	if (st == TSR_OK)
		*total = *tsr_sim_total(s);
	tsr_sim_close(s);
	if (st == TSR_OK && rec.nomem)
		st = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory recording the input of "
				   "cache '%s' (%zu line accesses)", cache, rec.lt.count);
	if (st == TSR_OK)
		st = tsr_line_trace_index(&rec.lt, err);  /* releases rec.lt on failure */
	else
		tsr_line_trace_release(&rec.lt);
	if (st == TSR_OK)
		*lt = rec.lt;
	return st;
}

/* xp_simulate() of one run, for xp_parallel(). */
static void simulate_run(void *item)
{
	struct xp_run *r = item;
	/* frames 0 (the scene's own) as given: a sweep without "frames" hashes it so */
	uint32_t size[2];
	r->status = simulate(r->c, &r->cfg, r->sc, r->frames, r->total,
			     r->want_l2 ? &r->l2 : NULL, &r->timing, size, &r->err);
	r->width = size[0];
	r->height = size[1];
}

enum tsr_status xp_simulate_all(const struct xp_ctx *c, struct xp_run *runs, size_t n,
				struct tsr_error *err)
{
	for (size_t i = 0; i < n; i++) {
		runs[i].c = c;
		runs[i].total = malloc(sizeof(*runs[i].total));
		if (!runs[i].total)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	TSR_TRY(xp_parallel(runs, n, sizeof(*runs), simulate_run, c->jobs, err));
	for (size_t i = 0; i < n; i++)
		if (runs[i].status != TSR_OK) {
			*err = runs[i].err;
			return runs[i].status;
		}
	return TSR_OK;
}

void xp_runs_release(struct xp_run *runs, size_t n)
{
	for (size_t i = 0; runs && i < n; i++) {
		free(runs[i].total);
		runs[i].total = NULL;
	}
}

enum tsr_status xp_simulate_batch(const struct xp_ctx *c, size_t w0,
				  const struct tsr_gpu_config *cfg, uint32_t frames,
				  struct xp_run *runs, struct tsr_scene **scenes, size_t *n,
				  struct tsr_error *err)
{
	for (*n = 0; *n < c->jobs && w0 + *n < c->workload_count; ++*n) {
		TSR_TRY(xp_load_scene(c, w0 + *n, &scenes[*n], err));
		runs[*n].cfg = *cfg;
		runs[*n].sc = scenes[*n];
		runs[*n].frames = frames ? frames : scenes[*n]->frames;
	}
	return xp_simulate_all(c, runs, *n, err);
}

void xp_batch_release(const struct xp_ctx *c, struct xp_run *runs, struct tsr_scene **scenes)
{
	xp_runs_release(runs, c->jobs);
	for (size_t i = 0; i < c->jobs; i++) {
		tsr_scene_destroy(scenes[i]);
		scenes[i] = NULL;
	}
}

uint64_t xp_dram_bytes(const struct tsr_frame_stats *t, int pb_only)
{
	uint64_t b = 0;
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		if (!pb_only || s == TSR_STREAM_PB_LISTS || s == TSR_STREAM_PB_ATTRIBUTES)
			b += t->dram[s].read_bytes + t->dram[s].write_bytes;
	return b;
}

double xp_pb_footprint_bytes(const struct tsr_frame_stats *t, const struct tsr_gpu_config *cfg)
{
	return (double)t->tiling.pb_attributes_bytes / cfg->attribute_bytes * 64.0 +
	       (double)t->tiling.pb_lists_bytes;
}

struct tsr_table *xp_add_paper_table(struct tsr_xp_result *out, const char *name,
				     const char *tessera_col, struct tsr_error *err)
{
	char header[128];
	snprintf(header, sizeof(header), "figure,quantity,paper_pct,%s", tessera_col);
	return xp_add_table(out, name, header, err);
}

void xp_paper_row(struct tsr_table *paper, struct tsr_text *txt, int width, const char *figure,
		  const char *quantity, double paper_value, double tessera)
{
	if (txt)
		tsr_text_printf(txt, "%-6s %-*s %7.1f%% %7.1f%%\n", figure, width, quantity,
				paper_value, tessera);
	tsr_table_row(paper);
	tsr_table_cellf(paper, "%s", figure);
	tsr_table_cellf(paper, "%s", quantity);
	tsr_table_cellf(paper, "%g", paper_value);  /* 1.74 (a speedup), -33.5 */
	tsr_table_cellf(paper, "%.17g", tessera);
}

double xp_change_pct(double v, double base)
{
	return base > 0 ? 100.0 * (v - base) / base : 0.0;
}

double xp_pct(uint64_t v, uint64_t base)
{
	return xp_change_pct((double)v, (double)base);
}

/* ---- running points on several threads (xp_priv.h) ---- */

/* The workers' shared queue: item next is the next to take. */
struct xp_queue {
	pthread_mutex_t lock;
	char *items;
	size_t size, next, count;
	void (*fn)(void *item);
};

static void *xp_worker(void *arg)
{
	struct xp_queue *q = arg;
	for (;;) {
		pthread_mutex_lock(&q->lock);
		const size_t i = q->next < q->count ? q->next++ : SIZE_MAX;
		pthread_mutex_unlock(&q->lock);
		if (i == SIZE_MAX)
			return NULL;
		q->fn(q->items + i * q->size);
	}
}

enum tsr_status xp_parallel(void *items, size_t count, size_t size, void (*fn)(void *item),
			    unsigned threads, struct tsr_error *err)
{
	struct xp_queue q = {.items = items, .size = size, .count = count, .fn = fn};
	if (pthread_mutex_init(&q.lock, NULL))
		return tsr_error_set(err, TSR_ERR_INTERNAL, "cannot create a mutex");
	pthread_t th[XP_MAX_THREADS];
	unsigned started = 0;
	for (unsigned i = 1; i < threads && i < XP_MAX_THREADS; i++)
		if (!pthread_create(&th[started], NULL, xp_worker, &q))
			started++;
	xp_worker(&q);
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&q.lock);
	return TSR_OK;
}
