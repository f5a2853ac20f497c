#include "report/stats_read.h"

#include <jansson.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"
#include "memory/cache.h"
#include "memory/memsys.h"

/* One read: the file (for messages) and the error. */
struct reader {
	const char *file;
	struct tsr_error *err;
};

/* Appends s at buf[*len] (n bytes in all), truncating; buf stays NUL-terminated. */
static void append(char *buf, size_t n, size_t *len, const char *s)
{
	size_t k = strlen(s);
	if (k > n - 1 - *len)
		k = n - 1 - *len;
	memcpy(buf + *len, s, k);
	*len += k;
	buf[*len] = '\0';
}

/* "parent.key" (or "key" at the top) into buf (n > 0 bytes): a JSON path for messages. */
static void path_join(char *buf, size_t n, const char *parent, const char *key)
{
	size_t len = 0;
	buf[0] = '\0';
	append(buf, n, &len, parent);
	if (*parent)
		append(buf, n, &len, ".");
	append(buf, n, &len, key);
}

/* "parent[i]" into buf (n > 0 bytes). */
static void path_index(char *buf, size_t n, const char *parent, size_t i)
{
	char idx[32];
	size_t len = 0;
	snprintf(idx, sizeof(idx), "[%zu]", i);
	buf[0] = '\0';
	append(buf, n, &len, parent);
	append(buf, n, &len, idx);
}

static enum tsr_status bad(const struct reader *r, const char *path, const char *what)
{
	return tsr_error_set(r->err, TSR_ERR_PARSE, "'%s' in '%s' %s", path, r->file, what);
}

/* An unsigned 64-bit counter: a non-negative JSON integer. */
static enum tsr_status read_u64(const struct reader *r, const json_t *v, const char *path,
				uint64_t *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return bad(r, path, "must be a non-negative integer");
	*out = (uint64_t)json_integer_value(v);
	return TSR_OK;
}

/* The object member key of o (at path), which must be an object; NULL when absent
 * and not required. */
static enum tsr_status get_object(const struct reader *r, const json_t *o, const char *path,
				  const char *key, int required, const json_t **out)
{
	char p[256];
	path_join(p, sizeof(p), path, key);
	*out = json_object_get(o, key);
	if (!*out)
		return required ? bad(r, p, "is missing") : TSR_OK;
	if (!json_is_object(*out))
		return bad(r, p, "must be an object");
	return TSR_OK;
}

/*
 * The counters of group g from the object o (at path) into the struct s,
 * by the descriptor table that wrote them (report.c's group_json), nested
 * groups too. Keys the table does not name (derived figures) are skipped.
 */
static enum tsr_status read_group(const struct reader *r, const struct tsr_counter_group *g,
				  const json_t *o, const char *path, void *s)
{
	char p[256];
	for (size_t i = 0; i < g->count; i++) {
		const struct tsr_counter_desc *d = &g->counters[i];
		uint64_t *v = (uint64_t *)((char *)s + d->offset);
		const json_t *j = json_object_get(o, d->name);
		path_join(p, sizeof(p), path, d->name);
		if (d->length == 1) {
			if (!j && (d->flags & TSR_CTR_NONZERO)) {
				*v = 0;
				continue;
			}
			if (!j)
				return bad(r, p, "is missing");
			TSR_TRY(read_u64(r, j, p, v));
			continue;
		}
		/* an array: per core (the run's cores' entries) or of fixed length */
		if (!j)
			return bad(r, p, "is missing");
		if (!json_is_array(j) || json_array_size(j) > d->length)
			return tsr_error_set(r->err, TSR_ERR_PARSE,
					     "'%s' in '%s' must be an array of at most %u integers",
					     p, r->file, d->length);
		memset(v, 0, d->length * sizeof(*v));
		for (size_t k = 0; k < json_array_size(j); k++) {
			char pk[256];
			path_index(pk, sizeof(pk), p, k);
			TSR_TRY(read_u64(r, json_array_get(j, k), pk, &v[k]));
		}
	}
	if (g->sub) {
		const json_t *so;
		TSR_TRY(get_object(r, o, path, g->sub->name, 1, &so));
		path_join(p, sizeof(p), path, g->sub->name);
		TSR_TRY(read_group(r, g->sub, so, p, (char *)s + g->sub_offset));
	}
	return TSR_OK;
}

/*
 * Per-stream counters {stream: {...}, all: {...}} (report.c's streams_json)
 * into per_stream[TSR_STREAM_COUNT] (stride bytes apart): streams left out
 * stay 0, "all" (their sum) is skipped.
 */
static enum tsr_status read_streams(const struct reader *r, const struct tsr_counter_group *g,
				    const json_t *o, const char *path, void *per_stream,
				    size_t stride)
{
	const char *key;
	const json_t *v;
	char p[256];
	json_object_foreach((json_t *)o, key, v) {
		if (!strcmp(key, "all"))
			continue;
		path_join(p, sizeof(p), path, key);
		enum tsr_stream st = tsr_stream_from_name(key);
		if (st == TSR_STREAM_COUNT)
			return bad(r, p, "names no stream this tessera knows");
		if (!json_is_object(v))
			return bad(r, p, "must be an object");
		TSR_TRY(read_group(r, g, v, p, (char *)per_stream + (size_t)st * stride));
	}
	return TSR_OK;
}

/* A real as written, 0 when absent; an error when of another type. */
static enum tsr_status read_real(const struct reader *r, const json_t *o, const char *path,
				 const char *key, double *out)
{
	const json_t *v = json_object_get(o, key);
	*out = 0.0;
	if (!v)
		return TSR_OK;
	char p[256];
	path_join(p, sizeof(p), path, key);
	if (!json_is_number(v))
		return bad(r, p, "must be a number");
	*out = json_number_value(v);
	return TSR_OK;
}

/* An imbalance distribution (report.c's imbalance_json): tiles, the summary. */
static enum tsr_status read_imbalance(const struct reader *r, const json_t *o, const char *path,
				      struct tsr_quad_imbalance *h,
				      struct tsr_quad_imbalance_summary *q)
{
	char p[256];
	path_join(p, sizeof(p), path, "tiles");
	const json_t *t = json_object_get(o, "tiles");
	if (!t)
		return bad(r, p, "is missing");
	TSR_TRY(read_u64(r, t, p, &h->tiles));
	q->tiles = h->tiles;
	TSR_TRY(read_real(r, o, path, "mean_pct", &q->mean_pct));
	TSR_TRY(read_real(r, o, path, "min_pct", &q->min_pct));
	TSR_TRY(read_real(r, o, path, "q1_pct", &q->q1_pct));
	TSR_TRY(read_real(r, o, path, "median_pct", &q->median_pct));
	TSR_TRY(read_real(r, o, path, "q3_pct", &q->q3_pct));
	TSR_TRY(read_real(r, o, path, "max_pct", &q->max_pct));
	/* the exact distribution: [value in 1/1000, tiles] pairs of the non-empty buckets */
	path_join(p, sizeof(p), path, "permille_sum");
	const json_t *sum = json_object_get(o, "permille_sum");
	if (!sum)
		return bad(r, p, "is missing");
	TSR_TRY(read_u64(r, sum, p, &h->permille_sum));
	path_join(p, sizeof(p), path, "histogram_permille");
	const json_t *hist = json_object_get(o, "histogram_permille");
	if (!json_is_array(hist))
		return bad(r, p, "must be an array of [value, tiles] pairs");
	size_t i;
	const json_t *pair;
	json_array_foreach(hist, i, pair) {
		uint64_t b = 0, n = 0;
		if (!json_is_array(pair) || json_array_size(pair) != 2)
			return bad(r, p, "must be an array of [value, tiles] pairs");
		TSR_TRY(read_u64(r, json_array_get(pair, 0), p, &b));
		TSR_TRY(read_u64(r, json_array_get(pair, 1), p, &n));
		if (b >= TSR_QUAD_IMBALANCE_BUCKETS || n > UINT32_MAX)
			return bad(r, p, "has a value or count out of range");
		h->histogram[b] = (uint32_t)n;
	}
	return TSR_OK;
}

/* Index of cache `name` in f's cache list, or f->cache_count. */
static uint32_t cache_index(const struct tsr_stats_file *f, const char *name)
{
	uint32_t c = 0;
	while (c < f->cache_count && strcmp(f->cache_names[c], name))
		c++;
	return c;
}

/*
 * The "caches" object of a statistics object: its instances must be f's
 * (the first object read, "total", sets them), in the same order.
 */
static enum tsr_status read_caches(const struct reader *r, struct tsr_stats_file *f,
				   const json_t *caches, const char *path,
				   struct tsr_frame_stats *s, int first)
{
	const char *name;
	const json_t *v;
	char p[256];
	uint32_t c = 0;
	json_object_foreach((json_t *)caches, name, v) {
		path_join(p, sizeof(p), path, name);
		if (first) {
			if (c == TSR_MEMSYS_MAX_CACHES || strlen(name) >= TSR_STATS_CACHE_NAME_MAX)
				return bad(r, p, "is one cache too many, or its name too long");
			memcpy(f->cache_names[c], name, strlen(name) + 1);
			f->cache_count = c + 1;
		} else if (c >= f->cache_count || strcmp(f->cache_names[c], name)) {
			return bad(r, p, "is not the cache of the same place in \"total\"");
		}
		if (!json_is_object(v))
			return bad(r, p, "must be an object");
		TSR_TRY(read_streams(r, &tsr_counters_cache, v, p, s->caches[c],
				     sizeof(s->caches[c][0])));
		c++;
	}
	if (c != f->cache_count)
		return bad(r, path, "does not hold the caches of \"total\"");
	s->cache_count = c;
	return TSR_OK;
}

/* timing.caches and timing.streams (report.c's timing_detail_json). */
static enum tsr_status read_timing_detail(const struct reader *r,
					  const struct tsr_stats_file *f, const json_t *timing,
					  const char *path, struct tsr_frame_stats *s)
{
	const json_t *o, *v;
	const char *name;
	char p[256], q[256];
	TSR_TRY(get_object(r, timing, path, "caches", 0, &o));
	path_join(p, sizeof(p), path, "caches");
	if (o)
		json_object_foreach((json_t *)o, name, v) {
			path_join(q, sizeof(q), p, name);
			uint32_t c = cache_index(f, name);
			if (c == f->cache_count)
				return bad(r, q, "names no cache of \"caches\"");
			if (!json_is_object(v))
				return bad(r, q, "must be an object");
			TSR_TRY(read_group(r, &tsr_counters_cache_timing, v, q, &s->cache_timing[c]));
		}
	TSR_TRY(get_object(r, timing, path, "streams", 0, &o));
	path_join(p, sizeof(p), path, "streams");
	if (o)
		TSR_TRY(read_streams(r, &tsr_counters_stream_timing, o, p, s->stream_timing,
				     sizeof(s->stream_timing[0])));
	return TSR_OK;
}

/* One statistics object (a frame's or the total, at path) into s and d. */
static enum tsr_status read_stats(const struct reader *r, struct tsr_stats_file *f,
				  const json_t *o, const char *path, struct tsr_frame_stats *s,
				  struct tsr_stats_derived *d, int first)
{
	char p[256];
	const json_t *go;
	memset(s, 0, sizeof(*s));
	memset(d, 0, sizeof(*d));
	if (!json_is_object(o))
		return bad(r, path, "must be an object");
	/* geometry, tiling, raster and texture always; the techniques' groups when used */
	for (size_t i = 0; i < tsr_stats_group_count; i++) {
		const struct tsr_counter_group *g = tsr_stats_groups[i].group;
		TSR_TRY(get_object(r, o, path, g->name, i < 4, &go));
		if (!go)
			continue;
		path_join(p, sizeof(p), path, g->name);
		TSR_TRY(read_group(r, g, go, p, (char *)s + tsr_stats_groups[i].offset));
	}
	const json_t *raster = json_object_get(o, "raster"), *timing = json_object_get(o, "timing");
	path_join(p, sizeof(p), path, "raster");
	TSR_TRY(get_object(r, raster, p, "quad_imbalance", 0, &go));
	path_join(p, sizeof(p), path, "raster.quad_imbalance");
	if (go)
		TSR_TRY(read_imbalance(r, go, p, &s->quad_imbalance, &d->quad_imbalance));
	const json_t *caches, *dram, *perfect, *energy;
	TSR_TRY(get_object(r, o, path, "caches", 1, &caches));
	path_join(p, sizeof(p), path, "caches");
	TSR_TRY(read_caches(r, f, caches, p, s, first));
	TSR_TRY(get_object(r, o, path, "dram", 1, &dram));
	path_join(p, sizeof(p), path, "dram");
	TSR_TRY(read_streams(r, &tsr_counters_dram, dram, p, s->dram, sizeof(s->dram[0])));
	TSR_TRY(get_object(r, o, path, "perfect", 0, &perfect));
	path_join(p, sizeof(p), path, "perfect");
	if (perfect)
		TSR_TRY(read_streams(r, &tsr_counters_dram, perfect, p, s->perfect,
				     sizeof(s->perfect[0])));
	path_join(p, sizeof(p), path, "memory_accesses");
	const json_t *ma = json_object_get(o, "memory_accesses");
	if (!ma)
		return bad(r, p, "is missing");
	TSR_TRY(read_u64(r, ma, p, &s->memory_accesses));
	if (timing) {
		path_join(p, sizeof(p), path, "timing");
		TSR_TRY(read_timing_detail(r, f, timing, p, s));
		TSR_TRY(get_object(r, timing, p, "execution_imbalance", 0, &go));
		path_join(p, sizeof(p), path, "timing.execution_imbalance");
		if (go)
			TSR_TRY(read_imbalance(r, go, p, &s->time_imbalance, &d->time_imbalance));
	}
	TSR_TRY(get_object(r, o, path, "energy", 0, &energy));
	if (energy) {
		path_join(p, sizeof(p), path, "energy");
		d->has_energy = 1;
		TSR_TRY(read_real(r, energy, p, "total_nj", &d->energy_total_nj));
		TSR_TRY(read_real(r, energy, p, "dynamic_nj", &d->energy_dynamic_nj));
		TSR_TRY(read_real(r, energy, p, "static_nj", &d->energy_static_nj));
	}
	return TSR_OK;
}

/* The major number of a "MAJOR.MINOR.PATCH" version, or -1. */
static long version_major(const char *v)
{
	char *end;
	long m = strtol(v, &end, 10);
	return end != v && m >= 0 && (*end == '.' || !*end) ? m : -1;
}

/* tessera_version, config and workload of the document root. */
static enum tsr_status read_header(const struct reader *r, struct tsr_stats_file *f,
				   const json_t *root)
{
	const json_t *v = json_object_get(root, "tessera_version");
	if (!v)
		return bad(r, "tessera_version", "is missing");
	if (!json_is_string(v) || json_string_length(v) >= sizeof(f->version) ||
	    version_major(json_string_value(v)) < 0)
		return bad(r, "tessera_version", "must be a version string \"MAJOR.MINOR.PATCH\"");
	snprintf(f->version, sizeof(f->version), "%s", json_string_value(v));
	if (version_major(f->version) > version_major(TSR_VERSION))
		return tsr_error_set(r->err, TSR_ERR_PARSE,
				     "'%s' was written by tessera %s, newer than this one (%s): "
				     "its format may differ", r->file, f->version, TSR_VERSION);
	const json_t *cfg, *w;
	TSR_TRY(get_object(r, root, "", "config", 1, &cfg));
	char *text = json_dumps(cfg, JSON_COMPACT);
	if (!text)
		return tsr_error_set(r->err, TSR_ERR_NOMEM, "out of memory");
	char label[4200];
	snprintf(label, sizeof(label), "%s: config", r->file);
	tsr_config_defaults(&f->config);
	enum tsr_status s = tsr_config_load_text(text, label, &f->config, r->err);
	free(text);
	TSR_TRY(s);
	TSR_TRY(get_object(r, root, "", "workload", 1, &w));
	const char *wp = "", *wn = "";
	TSR_TRY(tsr_json_get_string(w, r->file, "workload", "path", &wp, r->err));
	TSR_TRY(tsr_json_get_string(w, r->file, "workload", "name", &wn, r->err));
	f->workload_path = strdup(wp);
	f->workload_name = strdup(wn);
	if (!f->workload_path || !f->workload_name)
		return tsr_error_set(r->err, TSR_ERR_NOMEM, "out of memory");
	return TSR_OK;
}

static enum tsr_status read_document(const struct reader *r, struct tsr_stats_file *f,
				     const json_t *root)
{
	TSR_TRY(read_header(r, f, root));
	const json_t *total = json_object_get(root, "total"), *frames = json_object_get(root, "frames");
	if (!total)
		return bad(r, "total", "is missing");
	if (!frames)
		return bad(r, "frames", "is missing");
	if (!json_is_array(frames))
		return bad(r, "frames", "must be an array");
	f->total = calloc(1, sizeof(*f->total));
	size_t n = json_array_size(frames);
	if (n > UINT32_MAX)
		return bad(r, "frames", "holds too many frames");
	f->frames = calloc(n ? n : 1, sizeof(*f->frames));
	f->frames_derived = calloc(n ? n : 1, sizeof(*f->frames_derived));
	if (!f->total || !f->frames || !f->frames_derived)
		return tsr_error_set(r->err, TSR_ERR_NOMEM, "out of memory for '%s'", r->file);
	/* the total first: it names the caches every frame must have */
	TSR_TRY(read_stats(r, f, total, "total", f->total, &f->total_derived, 1));
	for (size_t i = 0; i < n; i++) {
		char p[32];
		path_index(p, sizeof(p), "frames", i);
		const json_t *jf = json_array_get(frames, i);
		TSR_TRY(read_stats(r, f, jf, p, &f->frames[i], &f->frames_derived[i], 0));
		uint64_t frame = 0;
		char pf[48];
		path_join(pf, sizeof(pf), p, "frame");
		const json_t *v = json_object_get(jf, "frame");
		if (!v)
			return bad(r, pf, "is missing");
		TSR_TRY(read_u64(r, v, pf, &frame));
		if (frame > UINT32_MAX)
			return bad(r, pf, "is out of range");
		f->frames[i].frame = (uint32_t)frame;
		f->frame_count = (uint32_t)(i + 1);
	}
	return TSR_OK;
}

enum tsr_status tsr_stats_read(const char *path, struct tsr_stats_file *out,
			       struct tsr_error *err)
{
	memset(out, 0, sizeof(*out));
	json_t *root;
	TSR_TRY(tsr_json_load_file(path, &root, err));
	const struct reader r = {path, err};
	enum tsr_status s = read_document(&r, out, root);
	json_decref(root);
	return s;
}

const struct tsr_frame_stats *tsr_stats_file_frame(const struct tsr_stats_file *f, uint32_t i)
{
	return i < f->frame_count ? &f->frames[i] : NULL;
}

enum tsr_status tsr_stats_file_energy(const struct tsr_stats_file *f,
				      const struct tsr_frame_stats *s,
				      struct tsr_energy_result *r, struct tsr_error *err)
{
	struct tsr_memsys *mem = NULL;
	struct tsr_energy *e = NULL;
	TSR_TRY(tsr_memsys_create(&f->config.mem, &mem, err));
	enum tsr_status st = TSR_OK;
	if (tsr_memsys_cache_count(mem) != f->cache_count)
		st = tsr_error_set(err, TSR_ERR_CONFIG,
				   "the configuration builds %u caches, the statistics hold %u",
				   tsr_memsys_cache_count(mem), f->cache_count);
	for (uint32_t c = 0; st == TSR_OK && c < f->cache_count; c++) {
		const char *name = tsr_cache_name(tsr_memsys_cache(mem, c));
		if (strcmp(name, f->cache_names[c]))
			st = tsr_error_set(err, TSR_ERR_CONFIG,
					   "cache %u of the configuration is '%s', of the "
					   "statistics '%s'", c, name, f->cache_names[c]);
	}
	if (st == TSR_OK)
		st = tsr_energy_create(&f->config, mem, &e, err);
	if (st == TSR_OK)
		st = tsr_energy_compute(e, s, r, err);
	tsr_energy_destroy(e);
	tsr_memsys_destroy(mem);
	return st;
}

void tsr_stats_file_release(struct tsr_stats_file *f)
{
	free(f->workload_path);
	free(f->workload_name);
	free(f->total);
	free(f->frames);
	free(f->frames_derived);
	memset(f, 0, sizeof(*f));
}
