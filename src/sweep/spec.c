/* realpath() is XSI: the X/Open level that includes POSIX.1-2008 */
#define _XOPEN_SOURCE 700

/*
 * spec.c - reading a sweep specification and expanding it to points:
 * workloads x configs x override sets, in that order (the last varies
 * fastest); the override sets are the grid's cartesian product (its last
 * key varying fastest) followed by the "points" list, each after "set".
 * Every point's effective configuration is built through
 * tsr_config_apply_sets() here, so a bad override fails before any run.
 */
#include "sweep/sweep.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/datadir.h"
#include "core/json_util.h"
#include "core/limits.h"
#include "memory/memsys.h"
#include "sweep/sweep_priv.h"

static const char *const spec_keys[] = {"name", "workloads", "configs", "set", "grid",
					"points", "frames", "out", "dump_frames", "record_trace",
					NULL};

static enum tsr_status nomem(struct tsr_error *err)
{
	return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory reading a sweep");
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

/* Appends a malloc'd copy of s to a growing array of strings; 0, or -1 out of memory. */
static int push_str(char ***arr, size_t *n, const char *s)
{
	char **a = realloc(*arr, (*n + 1) * sizeof(*a));
	if (!a)
		return -1;
	*arr = a;
	if (!(a[*n] = dup_str(s)))
		return -1;
	(*n)++;
	return 0;
}

static void free_strs(char **a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(a[i]);
	free(a);
}

/*
 * The text of an override value for `--set KEY=VALUE`: strings as they
 * are, integers in decimal, reals with 17 digits, true and false. Errors:
 * TSR_ERR_CONFIG (null, arrays, objects) naming `where` and the key.
 */
static enum tsr_status value_text(const json_t *v, const char *file, const char *where,
				  const char *key, char *buf, size_t n, struct tsr_error *err)
{
	if (json_is_string(v))
		snprintf(buf, n, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, n, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, n, "%.17g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, n, "%s", json_is_true(v) ? "true" : "false");
	else
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "value of '%s' in '%s' of sweep '%s' must be a number, a string "
				     "or true/false", key, where, file);
	if (!buf[0])
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "value of '%s' in '%s' of sweep '%s' is empty", key, where, file);
	return TSR_OK;
}

/* Appends "KEY=text of v" to l. */
static enum tsr_status set_push(struct set_list *l, const char *file, const char *where,
				const char *key, const json_t *v, struct tsr_error *err)
{
	char val[512], kv[768];
	TSR_TRY(value_text(v, file, where, key, val, sizeof(val), err));
	snprintf(kv, sizeof(kv), "%s=%s", key, val);
	return push_str(&l->items, &l->n, kv) ? nomem(err) : TSR_OK;
}

/* Adds key to the sweep's columns unless it is there. */
static enum tsr_status key_note(struct tsr_sweep *sw, const char *key, struct tsr_error *err)
{
	for (size_t i = 0; i < sw->nkeys; i++)
		if (!strcmp(sw->keys[i], key))
			return TSR_OK;
	return push_str(&sw->keys, &sw->nkeys, key) ? nomem(err) : TSR_OK;
}

/* The fixed overrides "set" (an object of values) into l. */
static enum tsr_status read_set(struct tsr_sweep *sw, const json_t *root, struct set_list *l,
				struct tsr_error *err)
{
	const json_t *o = json_object_get(root, "set");
	if (!o)
		return TSR_OK;
	if (!json_is_object(o))
		return tsr_error_set(err, TSR_ERR_CONFIG, "'set' in sweep '%s' must be an object "
				     "of KEY: value", sw->file);
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)o, key, v) {
		TSR_TRY(set_push(l, sw->file, "set", key, v, err));
		TSR_TRY(key_note(sw, key, err));
	}
	return TSR_OK;
}

/* A name usable in a folder name: letters, digits, '.', '_', '-'. */
static int name_ok(const char *s)
{
	if (!s[0] || s[0] == '.')
		return 0;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *s))
			return 0;
	return 1;
}

/* 1 when s is among a[0 .. n). */
static int has_str(char *const *a, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(a[i], s))
			return 1;
	return 0;
}

/*
 * A "record_trace" value (`where`: "record_trace" or "points[3].record_trace"):
 * a non-empty list of cache names, added to l's (a name given twice is
 * recorded once). Whether the configuration has them is checked in expand().
 */
static enum tsr_status read_traces(const struct tsr_sweep *sw, const json_t *v,
				   const char *where, struct set_list *l, struct tsr_error *err)
{
	if (!json_is_array(v) || !json_array_size(v))
		return tsr_error_set(err, TSR_ERR_CONFIG, "'%s' in sweep '%s' must be a non-empty "
				     "list of cache names (\"l2\", \"llc\", as `tessera run "
				     "--record-trace CACHE=FILE` takes them)", where, sw->file);
	size_t i;
	json_t *e;
	json_array_foreach(v, i, e) {
		const char *name = json_string_value(e);
		if (!name || !name_ok(name) || strlen(name) >= TSR_CACHE_NAME_MAX)
			return tsr_error_set(err, TSR_ERR_CONFIG, "'%s[%zu]' in sweep '%s' must be a "
					     "cache name (letters, digits, '.', '_', '-')", where, i,
					     sw->file);
		if (has_str(l->traces, l->ntraces, name))
			continue;
		if (l->ntraces == TSR_SWEEP_MAX_TRACES)
			return tsr_error_set(err, TSR_ERR_CONFIG, "'%s' in sweep '%s' records more than "
					     "%d caches", where, sw->file, TSR_SWEEP_MAX_TRACES);
		if (push_str(&l->traces, &l->ntraces, name))
			return nomem(err);
	}
	return TSR_OK;
}

/* Appends a new override set holding a copy of base to the sweep's list. */
static enum tsr_status sets_add(struct tsr_sweep *sw, const struct set_list *base,
				struct tsr_error *err)
{
	struct set_list *a = realloc(sw->sets, (sw->nsets + 1) * sizeof(*a));
	if (!a)
		return nomem(err);
	sw->sets = a;
	struct set_list *l = &a[sw->nsets++];
	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < base->n; i++)
		if (push_str(&l->items, &l->n, base->items[i]))
			return nomem(err);
	for (size_t i = 0; i < base->ntraces; i++)
		if (push_str(&l->traces, &l->ntraces, base->traces[i]))
			return nomem(err);
	return TSR_OK;
}

/* The grid's cartesian product: one set per combination, the last key fastest. */
static enum tsr_status read_grid(struct tsr_sweep *sw, const json_t *grid,
				 const struct set_list *base, struct tsr_error *err)
{
	const size_t nk = json_object_size(grid);
	const char *keys[64];
	const json_t *vals[64];
	size_t k = 0, combos = 1;
	const char *key;
	json_t *v;
	if (nk > 64)
		return tsr_error_set(err, TSR_ERR_CONFIG, "'grid' in sweep '%s' has %zu keys "
				     "(at most 64)", sw->file, nk);
	json_object_foreach((json_t *)grid, key, v) {
		if (!json_is_array(v) || !json_array_size(v))
			return tsr_error_set(err, TSR_ERR_CONFIG, "'grid.%s' in sweep '%s' must be a "
					     "non-empty list of values", key, sw->file);
		keys[k] = key;
		vals[k++] = v;
		combos *= json_array_size(v);
		if (combos > TSR_SWEEP_MAX_POINTS)
			return tsr_error_set(err, TSR_ERR_CONFIG, "'grid' in sweep '%s' has more "
					     "than %d points", sw->file, TSR_SWEEP_MAX_POINTS);
		TSR_TRY(key_note(sw, key, err));
	}
	for (size_t c = 0; c < combos; c++) {
		TSR_TRY(sets_add(sw, base, err));
		struct set_list *l = &sw->sets[sw->nsets - 1];
		size_t rest = c;
		size_t idx[64];
		for (size_t j = nk; j-- > 0;) {
			idx[j] = rest % json_array_size(vals[j]);
			rest /= json_array_size(vals[j]);
		}
		for (size_t j = 0; j < nk; j++)
			TSR_TRY(set_push(l, sw->file, "grid", keys[j],
					 json_array_get(vals[j], idx[j]), err));
	}
	return TSR_OK;
}

static enum tsr_status resolve(const struct tsr_sweep *sw, const char *kind, const char *name,
			       char **out, struct tsr_error *err);

/* The "points" list: one set per object, after base; an entry's "config" names the
 * configuration of that point (in place of the spec's "configs"). */
static enum tsr_status read_points(struct tsr_sweep *sw, const json_t *pts,
				   const struct set_list *base, struct tsr_error *err)
{
	size_t i;
	json_t *o;
	json_array_foreach(pts, i, o) {
		if (!json_is_object(o))
			return tsr_error_set(err, TSR_ERR_CONFIG, "'points[%zu]' in sweep '%s' must be "
					     "an object of KEY: value", i, sw->file);
		TSR_TRY(sets_add(sw, base, err));
		const char *key;
		json_t *v;
		json_object_foreach(o, key, v) {
			struct set_list *l = &sw->sets[sw->nsets - 1];
			if (!strcmp(key, "config")) {
				/* this point's configuration instead of the spec's "configs" */
				if (!json_is_string(v))
					return tsr_error_set(err, TSR_ERR_CONFIG, "'points[%zu].config' "
							     "in sweep '%s' must be a configuration "
							     "name or file", i, sw->file);
				if (!(l->config_name = dup_str(json_string_value(v))))
					return nomem(err);
				TSR_TRY(resolve(sw, "configs", l->config_name, &l->config_path, err));
				continue;
			}
			if (!strcmp(key, "record_trace")) {  /* this point's recordings, not a --set */
				char where[64];
				snprintf(where, sizeof(where), "points[%zu].record_trace", i);
				TSR_TRY(read_traces(sw, v, where, l, err));
				continue;
			}
			TSR_TRY(set_push(l, sw->file, "points", key, v, err));
			TSR_TRY(key_note(sw, key, err));
		}
	}
	return TSR_OK;
}

/* The override sets of the spec: grid, then points; just "set" when neither is given. */
static enum tsr_status read_overrides(struct tsr_sweep *sw, const json_t *root,
				      struct tsr_error *err)
{
	struct set_list base = {0};
	enum tsr_status s = read_set(sw, root, &base, err);
	const json_t *rec = json_object_get(root, "record_trace");
	if (s == TSR_OK && rec)
		s = read_traces(sw, rec, "record_trace", &base, err);
	const json_t *grid = json_object_get(root, "grid"), *pts = json_object_get(root, "points");
	if (s == TSR_OK && grid && (!json_is_object(grid) || !json_object_size(grid)))
		s = tsr_error_set(err, TSR_ERR_CONFIG, "'grid' in sweep '%s' must be a non-empty "
				  "object of KEY: [values]", sw->file);
	if (s == TSR_OK && pts && (!json_is_array(pts) || !json_array_size(pts)))
		s = tsr_error_set(err, TSR_ERR_CONFIG, "'points' in sweep '%s' must be a non-empty "
				  "list of objects", sw->file);
	if (s == TSR_OK && grid)
		s = read_grid(sw, grid, &base, err);
	if (s == TSR_OK && pts)
		s = read_points(sw, pts, &base, err);
	if (s == TSR_OK && !grid && !pts)
		s = sets_add(sw, &base, err);
	free_strs(base.items, base.n);
	free_strs(base.traces, base.ntraces);
	return s;
}

/*
 * Resolves a workload or configuration the spec names: a file relative to
 * the spec's folder, else as `tessera run` does (a file, a shipped name);
 * *out is its absolute path (malloc'd).
 */
static enum tsr_status resolve(const struct tsr_sweep *sw, const char *kind, const char *name,
			       char **out, struct tsr_error *err)
{
	char path[PATH_MAX + 256], abs_path[PATH_MAX];
	const char *label = strcmp(kind, "workloads") ? "config" : "workload";
	struct stat sb;
	snprintf(path, sizeof(path), "%s/%s", sw->dir, name);
	if (name[0] == '/' || stat(path, &sb) || !S_ISREG(sb.st_mode)) {
		struct tsr_error e2;
		if (tsr_data_resolve(kind, name, path, sizeof(path), &e2) != TSR_OK)
			return tsr_error_set(err, TSR_ERR_CONFIG, "%s '%s' of sweep '%s' not found: "
					     "%s", label, name, sw->file, e2.msg);
	}
	if (!realpath(path, abs_path))
		return tsr_error_set(err, TSR_ERR_CONFIG, "%s '%s' of sweep '%s' not found",
				     label, name, sw->file);
	*out = dup_str(abs_path);
	return *out ? TSR_OK : nomem(err);
}

/* "workloads" (required) or "configs" (optional: the built-in one) into names and paths. */
static enum tsr_status read_names(struct tsr_sweep *sw, const json_t *root, const char *key,
				  struct tsr_sweep_files *f, struct tsr_error *err)
{
	const json_t *a = json_object_get(root, key);
	const int is_wl = !strcmp(key, "workloads");
	if (!a && !is_wl) {  /* the built-in configuration */
		if (push_str(&f->names, &f->n, "default") || push_str(&f->paths, &f->npaths, ""))
			return nomem(err);
		return TSR_OK;
	}
	if (!a || !json_is_array(a) || !json_array_size(a))
		return tsr_error_set(err, TSR_ERR_CONFIG, "'%s' in sweep '%s' must be a non-empty "
				     "list of names or paths", key, sw->file);
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v) {
		if (!json_is_string(v) || !json_string_length(v))
			return tsr_error_set(err, TSR_ERR_CONFIG, "'%s[%zu]' in sweep '%s' must be a "
					     "name or a path", key, i, sw->file);
		char *path = NULL;
		TSR_TRY(resolve(sw, key, json_string_value(v), &path, err));
		int bad = push_str(&f->names, &f->n, json_string_value(v)) ||
			  push_str(&f->paths, &f->npaths, path);
		free(path);
		if (bad)
			return nomem(err);
	}
	return TSR_OK;
}

/* "name", "frames", "out", "dump_frames". */
static enum tsr_status read_scalars(struct tsr_sweep *sw, const json_t *root,
				    struct tsr_error *err)
{
	const char *name = NULL, *out = NULL, *dump = "none";
	TSR_TRY(tsr_json_get_string(root, sw->file, "", "name", &name, err));
	if (!name)
		return tsr_error_set(err, TSR_ERR_CONFIG, "sweep '%s' needs a \"name\"", sw->file);
	if (!name_ok(name))
		return tsr_error_set(err, TSR_ERR_CONFIG, "'name' in sweep '%s' must be letters, "
				     "digits, '.', '_' or '-', not '%s'", sw->file, name);
	TSR_TRY(tsr_json_get_u32(root, sw->file, "", "frames", 1, TSR_LIMIT_FRAMES, &sw->frames,
				 err));
	TSR_TRY(tsr_json_get_string(root, sw->file, "", "out", &out, err));
	TSR_TRY(tsr_json_get_string(root, sw->file, "", "dump_frames", &dump, err));
	if (strspn(dump, "0123456789,") != strlen(dump) && strcmp(dump, "none") &&
	    strcmp(dump, "last") && strcmp(dump, "all"))
		return tsr_error_set(err, TSR_ERR_CONFIG, "'dump_frames' in sweep '%s' must be "
				     "none, last, all or a list like 0,5, not '%s'", sw->file, dump);
	char def[256];
	snprintf(def, sizeof(def), "out/sweep-%s", name);
	sw->name = dup_str(name);
	sw->out = dup_str(out && out[0] ? out : def);
	sw->dump_frames = dup_str(dump);
	return sw->name && sw->out && sw->dump_frames ? TSR_OK : nomem(err);
}

/*
 * The effective configuration of config c with override set s, checked;
 * the error names the sweep, the configuration and the overrides.
 */
static enum tsr_status build_config(const struct tsr_sweep *sw, size_t c, size_t s,
				    struct tsr_gpu_config *cfg, struct tsr_error *err)
{
	const struct set_list *l = &sw->sets[s];
	const char *path = l->config_path ? l->config_path
			 : sw->configs.paths[c][0] ? sw->configs.paths[c] : NULL;
	struct tsr_error e2;
	tsr_config_defaults(cfg);
	if (tsr_config_apply_sets(cfg, path, (const char *const *)l->items, l->n, &e2) == TSR_OK)
		return TSR_OK;
	char sets[256] = "";
	for (size_t i = 0, len = 0; i < l->n && len < sizeof(sets); i++)
		len += (size_t)snprintf(sets + len, sizeof(sets) - len, "%s%s", i ? " " : "",
					l->items[i]);
	return tsr_error_set(err, TSR_ERR_CONFIG, "sweep '%s', config '%s' with {%s}: %s",
			     sw->file, l->config_name ? l->config_name : sw->configs.names[c], sets,
			     e2.msg);
}

/*
 * The caches that set s records exist in cfg (config c's effective one):
 * the instances of its memory hierarchy as a run builds it (a shared cache
 * by its name, a per-core one as NAME0, NAME1, ...; a cache nothing
 * routes to is not built), so `tessera run --record-trace` finds them.
 */
static enum tsr_status check_traces(const struct tsr_sweep *sw, size_t c, size_t s,
				    const struct tsr_gpu_config *cfg, struct tsr_error *err)
{
	const struct set_list *l = &sw->sets[s];
	if (!l->ntraces)
		return TSR_OK;
	struct tsr_memsys *m = NULL;
	TSR_TRY(tsr_memsys_create(&cfg->mem, &m, err));
	enum tsr_status st = TSR_OK;
	for (size_t i = 0; st == TSR_OK && i < l->ntraces; i++) {
		if (tsr_memsys_cache_port(m, l->traces[i]) != TSR_PORT_DRAM)
			continue;
		char names[512] = "";
		size_t len = 0;
		for (uint32_t k = 0; k < tsr_memsys_cache_count(m) && len < sizeof(names); k++)
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", k ? ", " : "",
						tsr_cache_name(tsr_memsys_cache(m, k)));
		st = tsr_error_set(err, TSR_ERR_CONFIG, "sweep '%s': 'record_trace' names cache "
				   "'%s', which config '%s' does not have (its caches: %s)",
				   sw->file, l->traces[i],
				   l->config_name ? l->config_name : sw->configs.names[c], names);
	}
	tsr_memsys_destroy(m);
	return st;
}

/* Adds the caches point q records to point p's (p and q share a hash). */
static enum tsr_status traces_unite(const struct tsr_sweep *sw, struct tsr_sweep_point *p,
				    const struct tsr_sweep_point *q, struct tsr_error *err)
{
	for (size_t i = 0; i < q->ntraces; i++) {
		int have = 0;
		for (size_t j = 0; j < p->ntraces; j++)
			have |= !strcmp(p->traces[j], q->traces[i]);
		if (have)
			continue;
		if (p->ntraces == TSR_SWEEP_MAX_TRACES)
			return tsr_error_set(err, TSR_ERR_CONFIG, "sweep '%s': points %zu and %zu are "
					     "the same run and record more than %d caches together",
					     sw->file, p->index, q->index, TSR_SWEEP_MAX_TRACES);
		p->traces[p->ntraces++] = q->traces[i];
	}
	return TSR_OK;
}

void tsr_sweep_trace_name(const char *cache, char *buf, size_t n)
{
	snprintf(buf, n, "trace-%s.bin", cache);
}

/* Fills point (w, c, s) with its hash. */
static void point_fill(struct tsr_sweep *sw, size_t w, size_t c, size_t s, uint64_t hash)
{
	const size_t i = (w * sw->configs.n + c) * sw->nsets + s;
	struct tsr_sweep_point *p = &sw->points[i];
	p->index = i;
	p->workload = sw->workloads.names[w];
	p->workload_path = sw->workloads.paths[w];
	const struct set_list *l = &sw->sets[s];
	p->config = l->config_name ? l->config_name : sw->configs.names[c];
	p->config_path = l->config_path ? l->config_path
		       : sw->configs.paths[c][0] ? sw->configs.paths[c] : NULL;
	p->sets = (const char *const *)sw->sets[s].items;
	p->nsets = sw->sets[s].n;
	p->frames = sw->frames;
	p->ntraces = 0;
	for (size_t k = 0; k < l->ntraces && k < TSR_SWEEP_MAX_TRACES; k++)
		p->traces[p->ntraces++] = l->traces[k];
	p->hash = hash;
	snprintf(p->hex, sizeof(p->hex), "%016llx", (unsigned long long)hash);
}

/* Every point: its configuration built and checked, its hash; duplicates noted. */
static enum tsr_status expand(struct tsr_sweep *sw, struct tsr_error *err)
{
	const size_t nw = sw->workloads.n, nc = sw->configs.n;
	if (nw * nc * sw->nsets > TSR_SWEEP_MAX_POINTS)
		return tsr_error_set(err, TSR_ERR_CONFIG, "sweep '%s' has %zu points (at most %d)",
				     sw->file, nw * nc * sw->nsets, TSR_SWEEP_MAX_POINTS);
	sw->npoints = nw * nc * sw->nsets;
	sw->points = calloc(sw->npoints, sizeof(*sw->points));
	uint64_t *digest = calloc(nw, sizeof(*digest));
	enum tsr_status st = sw->points && digest ? TSR_OK : nomem(err);
	for (size_t w = 0; st == TSR_OK && w < nw; w++)
		st = tsr_sweep_workload_digest(sw->workloads.paths[w], &digest[w], err);
	struct tsr_gpu_config cfg;
	for (size_t c = 0; st == TSR_OK && c < nc; c++)
		for (size_t s = 0; st == TSR_OK && s < sw->nsets; s++) {
			st = build_config(sw, c, s, &cfg, err);
			if (st == TSR_OK)
				st = check_traces(sw, c, s, &cfg, err);
			for (size_t w = 0; st == TSR_OK && w < nw; w++) {
				uint64_t h = 0;
				st = tsr_sweep_point_hash(&cfg, digest[w], sw->frames, &h, err);
				point_fill(sw, w, c, s, h);
			}
		}
	free(digest);
	for (size_t i = 0; st == TSR_OK && i < sw->npoints; i++) {
		sw->points[i].first = i;
		for (size_t j = 0; j < i; j++)
			if (sw->points[j].hash == sw->points[i].hash) {
				sw->points[i].first = j;
				break;
			}
	}
	/* one run per hash records what any of its points asks for */
	for (size_t i = 0; st == TSR_OK && i < sw->npoints; i++)
		if (sw->points[i].first != i)
			st = traces_unite(sw, &sw->points[sw->points[i].first], &sw->points[i], err);
	for (size_t i = 0; st == TSR_OK && i < sw->npoints; i++)
		if (sw->points[i].first != i)
			st = traces_unite(sw, &sw->points[i], &sw->points[sw->points[i].first], err);
	return st;
}

/* The spec's folder (for relative workload and config paths). */
static char *spec_dir(const char *file)
{
	char *d = dup_str(file);
	char *slash = d ? strrchr(d, '/') : NULL;
	if (slash == d && d)
		d[1] = '\0';
	else if (slash)
		*slash = '\0';
	else if (d)
		strcpy(d, ".");
	return d;
}

enum tsr_status tsr_sweep_load(const char *file, struct tsr_sweep **out,
			       struct tsr_error *err)
{
	*out = NULL;
	json_t *root = NULL;
	TSR_TRY(tsr_json_load_file(file, &root, err));
	struct tsr_sweep *sw = calloc(1, sizeof(*sw));
	enum tsr_status s = sw ? TSR_OK : nomem(err);
	if (s == TSR_OK && (!(sw->file = dup_str(file)) || !(sw->dir = spec_dir(file))))
		s = nomem(err);
	if (s == TSR_OK)
		s = tsr_json_check_keys(root, file, "", spec_keys, err);
	if (s == TSR_OK)
		s = read_scalars(sw, root, err);
	if (s == TSR_OK)
		s = read_names(sw, root, "workloads", &sw->workloads, err);
	if (s == TSR_OK)
		s = read_names(sw, root, "configs", &sw->configs, err);
	if (s == TSR_OK)
		s = read_overrides(sw, root, err);
	if (s == TSR_OK)
		s = expand(sw, err);
	json_decref(root);
	if (s != TSR_OK) {
		tsr_sweep_destroy(sw);
		return s;
	}
	*out = sw;
	return TSR_OK;
}

void tsr_sweep_destroy(struct tsr_sweep *sw)
{
	if (!sw)
		return;
	for (size_t i = 0; i < sw->nsets; i++) {
		free_strs(sw->sets[i].items, sw->sets[i].n);
		free(sw->sets[i].config_name);
		free(sw->sets[i].config_path);
		free_strs(sw->sets[i].traces, sw->sets[i].ntraces);
	}
	free(sw->sets);
	free_strs(sw->workloads.names, sw->workloads.n);
	free_strs(sw->workloads.paths, sw->workloads.npaths);
	free_strs(sw->configs.names, sw->configs.n);
	free_strs(sw->configs.paths, sw->configs.npaths);
	free_strs(sw->keys, sw->nkeys);
	free(sw->points);
	free(sw->file);
	free(sw->dir);
	free(sw->name);
	free(sw->out);
	free(sw->dump_frames);
	free(sw);
}

const char *tsr_sweep_name(const struct tsr_sweep *sw) { return sw->name; }
const char *tsr_sweep_out(const struct tsr_sweep *sw) { return sw->out; }
const char *tsr_sweep_dump_frames(const struct tsr_sweep *sw) { return sw->dump_frames; }
size_t tsr_sweep_point_count(const struct tsr_sweep *sw) { return sw->npoints; }

const struct tsr_sweep_point *tsr_sweep_point(const struct tsr_sweep *sw, size_t i)
{
	return &sw->points[i];
}

const char *const *tsr_sweep_keys(const struct tsr_sweep *sw, size_t *count)
{
	*count = sw->nkeys;
	return (const char *const *)sw->keys;
}
