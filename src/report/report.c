/* realpath() is XSI: the X/Open level that includes POSIX.1-2008 */
#define _XOPEN_SOURCE 700
#include "report/report.h"

#include <jansson.h>

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <libdeflate.h>
#include <png.h>

#include "config/config.h"
#include "core/json_util.h"

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/*
 * A group's counters as a JSON object (arrays as JSON arrays of `cores`
 * entries when they are per core), nested groups as nested objects.
 */
static json_t *group_json(const struct tsr_counter_group *g, const void *s, uint32_t cores)
{
	json_t *o = json_object();
	for (size_t i = 0; i < g->count; i++) {
		const struct tsr_counter_desc *d = &g->counters[i];
		if (d->length == 1) {
			uint64_t v = tsr_counter_value(d, s, 0);
			if (v || !(d->flags & TSR_CTR_NONZERO))
				json_object_set_new(o, d->name, u64(v));
			continue;
		}
		json_t *a = json_array();
		uint32_t n = d->length == TSR_MAX_CORES && cores <= d->length ? cores : d->length;
		for (uint32_t k = 0; k < n; k++)
			json_array_append_new(a, u64(tsr_counter_value(d, s, k)));
		json_object_set_new(o, d->name, a);
	}
	if (g->sub)
		json_object_set_new(o, g->sub->name,
				    group_json(g->sub, (const char *)s + g->sub_offset, cores));
	return o;
}

/*
 * Per-stream counters (a cache's, DRAM's) as {stream: {...}, all: {...}}:
 * streams with all counters zero are left out, "all" is their sum.
 */
static json_t *streams_json(const struct tsr_counter_group *g, const void *per_stream,
			    size_t stride)
{
	json_t *o = json_object();
	uint64_t all[16] = {0};  /* the group's counters summed (a cache has 10) */
	for (int st = 0; st < TSR_STREAM_COUNT; st++) {
		const void *k = (const char *)per_stream + (size_t)st * stride;
		if (!tsr_counters_any(g, k))
			continue;
		json_object_set_new(o, tsr_stream_name((enum tsr_stream)st), group_json(g, k, 0));
		tsr_counters_add(g, all, k);
	}
	json_object_set_new(o, "all", group_json(g, all, 0));
	return o;
}

/* a / b, 0 when b is 0 (stats.json's derived ratios). */
static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

/*
 * stats.json's timing.caches (every cache instance, as "caches") and
 * timing.streams (streams with requests): the counters of
 * stats/counters.h's cache and stream timing groups and their means.
 */
static void timing_detail_json(json_t *timing, const struct tsr_frame_stats *s,
			       const struct tsr_memsys *mem)
{
	json_t *caches = json_object(), *streams = json_object();
	for (uint32_t c = 0; c < s->cache_count; c++) {
		const struct tsr_cache_timing_stats *k = &s->cache_timing[c];
		json_t *o = group_json(&tsr_counters_cache_timing, k, 0);
		json_object_set_new(o, "mean_latency", json_real(ratio(k->latency, k->latency_count)));
		json_object_set_new(o, "mean_mshr_occupancy",
				    json_real(ratio(k->mshr_occupancy, s->timing.cycles)));
		json_object_set_new(caches, tsr_cache_name(tsr_memsys_cache(mem, c)), o);
	}
	for (int st = 0; st < TSR_STREAM_COUNT; st++) {
		const struct tsr_stream_timing_stats *k = &s->stream_timing[st];
		if (!tsr_counters_any(&tsr_counters_stream_timing, k))
			continue;
		json_t *o = group_json(&tsr_counters_stream_timing, k, 0);
		json_object_set_new(o, "mean_latency", json_real(ratio(k->latency, k->requests)));
		json_object_set_new(streams, tsr_stream_name((enum tsr_stream)st), o);
	}
	json_object_set_new(timing, "caches", caches);
	json_object_set_new(timing, "streams", streams);
}

/*
 * stats.json's derived DRAM figures of the timing object. The GPU port is
 * one each way, so reads and writes together may use up to twice the peak
 * (dram_bandwidth_utilisation up to 2); each direction's share of the pins'
 * bytes (whole bursts) is also given over the same peak.
 */
static void timing_dram_json(json_t *timing, const struct tsr_timing_stats *ts)
{
	const uint64_t bursts = ts->dram_read_bursts + ts->dram_write_bursts;
	const double peak = (double)ts->dram_peak_bytes;
	const double rd = bursts ? (double)ts->dram_io_bytes * (double)ts->dram_read_bursts /
					   (double)bursts
				 : 0.0;
	const double wr = (double)ts->dram_io_bytes - rd;
	json_object_set_new(timing, "mean_dram_latency",
			    json_real(ratio(ts->dram_latency, ts->dram_requests)));
	json_object_set_new(timing, "mean_dram_in_flight",
			    json_real(ratio(ts->dram_occupancy, ts->cycles)));
	json_object_set_new(timing, "dram_row_hit_rate",
			    json_real(ratio(ts->dram_row_hits, ts->dram_requests)));
	json_object_set_new(timing, "dram_bandwidth_utilisation",
			    json_real(ratio(ts->dram_io_bytes, ts->dram_peak_bytes)));
	json_object_set_new(timing, "dram_read_utilisation", json_real(peak > 0 ? rd / peak : 0.0));
	json_object_set_new(timing, "dram_write_utilisation", json_real(peak > 0 ? wr / peak : 0.0));
}

double tsr_frames_per_second(uint64_t frames, uint64_t cycles, uint32_t gpu_mhz)
{
	return cycles ? (double)frames * (double)gpu_mhz * 1e6 / (double)cycles : 0.0;
}

/*
 * The "energy" object of s (energy/energy.h): total, dynamic and static nJ,
 * per frame, and each component's; NULL when it cannot be computed.
 */
static json_t *energy_json(const struct tsr_energy *e, const struct tsr_frame_stats *s,
			   uint64_t frames)
{
	struct tsr_energy_result r;
	struct tsr_error err;
	if (tsr_energy_compute(e, s, &r, &err) != TSR_OK)
		return NULL;
	json_t *o = json_object(), *parts = json_object();
	json_object_set_new(o, "total_nj", json_real(r.total_nj));
	json_object_set_new(o, "dynamic_nj", json_real(r.dynamic_nj));
	json_object_set_new(o, "static_nj", json_real(r.static_nj));
	json_object_set_new(o, "per_frame_nj",
			    json_real(frames ? r.total_nj / (double)frames : 0.0));
	for (uint32_t p = 0; p < r.count; p++)
		json_object_set_new(parts, r.parts[p].name,
				    json_pack("{s:f,s:f,s:f}", "dynamic_nj", r.parts[p].dynamic_nj,
					      "static_nj", r.parts[p].static_nj, "total_nj",
					      r.parts[p].dynamic_nj + r.parts[p].static_nj));
	json_object_set_new(o, "components", parts);
	return o;
}

/* A per-tile imbalance distribution (DTexL Figs. 14, 15) as JSON, in percent. */
static json_t *imbalance_json(const struct tsr_quad_imbalance *h)
{
	struct tsr_quad_imbalance_summary q;
	tsr_quad_imbalance_summarise(h, &q);
	json_t *qi = json_object();
	json_object_set_new(qi, "tiles", u64(q.tiles));
	json_object_set_new(qi, "mean_pct", json_real(q.mean_pct));
	json_object_set_new(qi, "min_pct", json_real(q.min_pct));
	json_object_set_new(qi, "q1_pct", json_real(q.q1_pct));
	json_object_set_new(qi, "median_pct", json_real(q.median_pct));
	json_object_set_new(qi, "q3_pct", json_real(q.q3_pct));
	json_object_set_new(qi, "max_pct", json_real(q.max_pct));
	/* the distribution itself, exact (tsr_stats_read() gives it back): the sum and
	 * the non-empty buckets as [value in 1/1000, tiles] pairs */
	json_object_set_new(qi, "permille_sum", u64(h->permille_sum));
	json_t *hist = json_array();
	for (uint32_t b = 0; b < TSR_QUAD_IMBALANCE_BUCKETS; b++)
		if (h->histogram[b]) {
			json_t *pair = json_array();
			json_array_append_new(pair, u64(b));
			json_array_append_new(pair, u64(h->histogram[b]));
			json_array_append_new(hist, pair);
		}
	json_object_set_new(qi, "histogram_permille", hist);
	return qi;
}

/* One statistics object (a frame's or the total's, of `frames` frames) as JSON. */
static json_t *stats_json(const struct tsr_frame_stats *s, const struct tsr_memsys *mem,
			  uint32_t cores, uint32_t gpu_mhz, uint64_t frames,
			  const struct tsr_energy *energy)
{
	json_t *o = json_object();
	/* geometry, tiling, raster and texture always; the techniques' groups when used */
	for (size_t i = 0; i < tsr_stats_group_count; i++) {
		const struct tsr_counter_group *g = tsr_stats_groups[i].group;
		const void *gs = (const char *)s + tsr_stats_groups[i].offset;
		if (i >= 4 && !tsr_counters_any(g, gs))
			continue;
		json_object_set_new(o, g->name, group_json(g, gs, cores));
	}
	if (s->quad_imbalance.tiles)  /* raster.quad_imbalance_stats (DTexL Figs. 12, 15) */
		json_object_set_new(json_object_get(o, "raster"), "quad_imbalance",
				    imbalance_json(&s->quad_imbalance));
	if (s->time_imbalance.tiles && json_object_get(o, "timing"))  /* and timing (Fig. 14) */
		json_object_set_new(json_object_get(o, "timing"), "execution_imbalance",
				    imbalance_json(&s->time_imbalance));
	const struct tsr_tiling_stats *t = &s->tiling;
	json_object_set_new(json_object_get(o, "tiling"), "avg_primitives_per_tile",
			    json_real(t->tiles ? (double)t->pmds_written / (double)t->tiles : 0.0));
	json_t *caches = json_object();
	for (uint32_t c = 0; c < s->cache_count; c++)
		json_object_set_new(caches, tsr_cache_name(tsr_memsys_cache(mem, c)),
				    streams_json(&tsr_counters_cache, s->caches[c],
						 sizeof(s->caches[c][0])));
	json_object_set_new(o, "caches", caches);
	json_object_set_new(o, "dram", streams_json(&tsr_counters_dram, s->dram, sizeof(s->dram[0])));
	int perfect = 0;
	for (int st = 0; st < TSR_STREAM_COUNT; st++)
		perfect |= tsr_counters_any(&tsr_counters_dram, &s->perfect[st]);
	if (perfect)
		json_object_set_new(o, "perfect", streams_json(&tsr_counters_dram, s->perfect,
							       sizeof(s->perfect[0])));
	json_object_set_new(o, "memory_accesses", u64(s->memory_accesses));
	json_t *timing = gpu_mhz ? json_object_get(o, "timing") : NULL;
	if (timing) {
		const struct tsr_timing_stats *ts = &s->timing;
		json_object_set_new(timing, "frames_per_second",
				    json_real(tsr_frames_per_second(frames, ts->cycles, gpu_mhz)));
		json_object_set_new(timing, "mean_memory_latency",
				    json_real(ratio(ts->memory_latency, ts->memory_requests)));
		timing_dram_json(timing, ts);
		timing_detail_json(timing, s, mem);
		if (energy)
			json_object_set_new(o, "energy", energy_json(energy, s, frames));
	}
	return o;
}

/* The address map as a JSON array of {name, base, size_bytes, stream}. */
static json_t *addrmap_json(const struct tsr_addrmap *m)
{
	json_t *a = json_array();
	for (uint32_t i = 0; i < m->count; i++) {
		const struct tsr_region *r = &m->regions[i];
		json_array_append_new(a, json_pack("{s:o,s:o,s:o,s:s}", "name", tsr_json_string(r->name),
						   "base", u64(r->base), "size_bytes",
						   u64(r->size_bytes), "stream",
						   tsr_stream_name((enum tsr_stream)r->stream)));
	}
	return a;
}

/* stats.json's formatting: one-space indent, 10 significant digits for reals. */
#define STATS_JSON_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(10))

struct tsr_stats_json {
	const struct tsr_memsys *mem;
	uint32_t cores;
	uint32_t gpu_mhz;
	const struct tsr_energy *energy;  /* NULL: no "energy" objects */
	json_t *frames;  /* "frames" */
};

void tsr_stats_json_set_energy(struct tsr_stats_json *j, const struct tsr_energy *e)
{
	j->energy = e;
}

enum tsr_status tsr_stats_json_create(const struct tsr_memsys *mem, uint32_t cores,
				      uint32_t gpu_mhz, struct tsr_stats_json **out,
				      struct tsr_error *err)
{
	struct tsr_stats_json *j = calloc(1, sizeof(*j));
	if (j)
		j->frames = json_array();
	if (!j || !j->frames) {
		free(j);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for stats.json");
	}
	j->mem = mem;
	j->cores = cores;
	j->gpu_mhz = gpu_mhz;
	*out = j;
	return TSR_OK;
}

enum tsr_status tsr_stats_json_add_frame(struct tsr_stats_json *j,
					 const struct tsr_frame_stats *fs, struct tsr_error *err)
{
	json_t *jf = stats_json(fs, j->mem, j->cores, j->gpu_mhz, 1, j->energy);
	if (!jf || json_object_set_new(jf, "frame", json_integer(fs->frame)) ||
	    json_array_append_new(j->frames, jf))
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for stats.json");
	return TSR_OK;
}

enum tsr_status tsr_stats_json_render(struct tsr_stats_json *j,
				      const struct tsr_gpu_config *cfg,
				      const struct tsr_stats_workload *w,
				      const struct tsr_addrmap *map,
				      const struct tsr_frame_stats *total, char **text,
				      struct tsr_error *err)
{
	json_t *root = json_object();
	if (root) {
		json_object_set_new(root, "tessera_version", json_string(TSR_VERSION));
		char *cfg_text = tsr_config_json_text(cfg);
		json_object_set_new(root, "config",
				    cfg_text ? json_loads(cfg_text, 0, NULL) : NULL);
		free(cfg_text);
		json_object_set_new(root, "workload",
				    json_pack("{s:o,s:o,s:i,s:i,s:i,s:i}", "path",
					      tsr_json_string(w->path), "name",
					      tsr_json_string(w->name),
					      "frames", (json_int_t)w->frames, "meshes",
					      (json_int_t)w->meshes, "materials",
					      (json_int_t)w->materials, "images",
					      (json_int_t)w->images));
		json_object_set_new(root, "address_map", addrmap_json(map));
		json_object_set(root, "frames", j->frames);
		json_object_set_new(root, "total", stats_json(total, j->mem, j->cores, j->gpu_mhz,
							      json_array_size(j->frames), j->energy));
	}
	*text = root ? json_dumps(root, STATS_JSON_FLAGS) : NULL;
	json_decref(root);
	return *text ? TSR_OK : tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for stats.json");
}

void tsr_stats_json_destroy(struct tsr_stats_json *j)
{
	if (!j)
		return;
	json_decref(j->frames);
	free(j);
}

enum tsr_status tsr_stats_object_text(const struct tsr_frame_stats *s,
				      const struct tsr_memsys *mem, uint32_t cores,
				      char **text, struct tsr_error *err)
{
	json_t *o = stats_json(s, mem, cores, 0, 1, NULL);
	/* reals with 17 digits: parsing the text gives back the exact doubles */
	*text = o ? json_dumps(o, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) : NULL;
	json_decref(o);
	return *text ? TSR_OK : tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for statistics");
}

/* Appends printf-style text at buf[*len] (bounded by n). */
static void csv_add(char *buf, size_t n, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void csv_add(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
	if (*len >= n)
		return;
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(buf + *len, n - *len, fmt, ap);
	va_end(ap);
	if (w > 0)
		*len += (size_t)w;
}

/* The cache groups (configured instances) of mem, in order: their first caches. */
static uint32_t cache_groups(const struct tsr_memsys *mem, uint32_t *first)
{
	uint32_t n = 0;
	for (uint32_t c = 0; c < tsr_memsys_cache_count(mem); c++)
		if (!n || strcmp(tsr_memsys_cache_group(mem, c),
				 tsr_memsys_cache_group(mem, first[n - 1])))
			first[n++] = c;
	return n;
}

/* 1 when counter d is a column of frames.csv: a scalar, counted (opt_in: the opt-in ones too). */
static int csv_column(const struct tsr_counter_desc *d, int opt_in)
{
	return d->length == 1 && (opt_in || !(d->flags & TSR_CTR_OPTIN));
}

void tsr_csv_header(char *buf, size_t n, const struct tsr_memsys *mem, int opt_in)
{
	size_t len = 0;
	buf[0] = '\0';
	csv_add(buf, n, &len, "frame");
	for (size_t i = 0; i < tsr_stats_group_count; i++) {
		const struct tsr_counter_group *g = tsr_stats_groups[i].group;
		for (size_t k = 0; k < g->count; k++)
			if (csv_column(&g->counters[k], opt_in))
				csv_add(buf, n, &len, ",%s.%s", g->name, g->counters[k].name);
	}
	uint32_t first[TSR_MEMSYS_MAX_CACHES];
	uint32_t groups = cache_groups(mem, first);
	for (uint32_t k = 0; k < groups; k++) {
		const char *name = tsr_memsys_cache_group(mem, first[k]);
		csv_add(buf, n, &len, ",%s.accesses,%s.misses", name, name);
	}
	csv_add(buf, n, &len, ",dram.read_bytes,dram.write_bytes,memory_accesses");
}

void tsr_csv_row(char *buf, size_t n, const struct tsr_frame_stats *s,
		 const struct tsr_memsys *mem, int opt_in)
{
	size_t len = 0;
	buf[0] = '\0';
	csv_add(buf, n, &len, "%u", s->frame);
	for (size_t i = 0; i < tsr_stats_group_count; i++) {
		const struct tsr_counter_group *g = tsr_stats_groups[i].group;
		const void *gs = (const char *)s + tsr_stats_groups[i].offset;
		for (size_t k = 0; k < g->count; k++)
			if (csv_column(&g->counters[k], opt_in))
				csv_add(buf, n, &len, ",%llu",
					(unsigned long long)tsr_counter_value(&g->counters[k], gs, 0));
	}
	/* per configured instance (the per-core copies summed): accesses and misses */
	uint32_t first[TSR_MEMSYS_MAX_CACHES];
	uint32_t groups = cache_groups(mem, first);
	for (uint32_t k = 0; k < groups; k++) {
		uint32_t end = k + 1 < groups ? first[k + 1] : s->cache_count;
		uint64_t acc = 0, miss = 0;
		for (uint32_t c = first[k]; c < end; c++)
			for (int st = 0; st < TSR_STREAM_COUNT; st++) {
				const struct tsr_cache_counters *x = &s->caches[c][st];
				acc += x->reads + x->writes;
				miss += x->read_misses + x->write_misses;
			}
		csv_add(buf, n, &len, ",%llu,%llu", (unsigned long long)acc,
			(unsigned long long)miss);
	}
	uint64_t dr = 0, dw = 0;
	for (int st = 0; st < TSR_STREAM_COUNT; st++) {
		dr += s->dram[st].read_bytes;
		dw += s->dram[st].write_bytes;
	}
	csv_add(buf, n, &len, ",%llu,%llu,%llu", (unsigned long long)dr, (unsigned long long)dw,
		(unsigned long long)s->memory_accesses);
}

/* Appends a copy of s to the list *v of *n strings; 0 when out of memory. */
static int list_add(char ***v, uint32_t *n, const char *s)
{
	char *c = strdup(s);
	char **nv = c ? realloc(*v, (*n + 1) * sizeof(**v)) : NULL;
	if (!nv) {
		free(c);
		return 0;
	}
	nv[(*n)++] = c;
	*v = nv;
	return 1;
}

static void list_free(char ***v, uint32_t *n)
{
	for (uint32_t i = 0; i < *n; i++)
		free((*v)[i]);
	free(*v);
	*v = NULL;
	*n = 0;
}

/* "<a>/<b>" (malloc), or NULL when out of memory. */
static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p = malloc(la + lb + 2);
	if (p) {
		memcpy(p, a, la);
		p[la] = '/';
		memcpy(p + la + 1, b, lb + 1);
	}
	return p;
}

/* "<path>.tmp" (malloc), or NULL when out of memory. */

/* <path><suffix>, malloc'd; NULL when out of memory. */
static char *suffixed(const char *path, const char *suffix)
{
	size_t n = strlen(path), k = strlen(suffix);
	char *p = malloc(n + k + 1);
	if (p) {
		memcpy(p, path, n);
		memcpy(p + n, suffix, k + 1);
	}
	return p;
}

/* <path>.tmp, the name an output is written under; NULL when out of memory. */
static char *tmp_name(const char *path)
{
	return suffixed(path, ".tmp");
}

static int is_folder(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

enum tsr_status tsr_output_open(struct tsr_output *o, const char *dir,
				struct tsr_error *err)
{
	memset(o, 0, sizeof(*o));
	if (!*dir)
		return tsr_error_set(err, TSR_ERR_CONFIG, "the output folder name is empty");
	o->dir = strdup(dir);
	char *path = strdup(dir);
	if (!o->dir || !path) {
		free(path);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	/* mkdir -p, remembering what it made so that abort can take it back */
	enum tsr_status s = TSR_OK;
	for (char *p = path + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(path, 0777) == 0) {
			if (!list_add(&o->created, &o->ncreated, path))
				s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
		} else if (errno != EEXIST) {
			s = tsr_error_set(err, TSR_ERR_IO, "cannot create folder '%s': %s", path,
					  strerror(errno));
		}
		*p = c;
		if (s != TSR_OK || !c)
			break;
	}
	if (s == TSR_OK && !is_folder(path))
		s = tsr_error_set(err, TSR_ERR_IO, "output folder '%s' is not a folder", path);
	free(path);
	return s;
}

/* path with its folder resolved (symbolic links, "..", "."), for comparing outputs. */
static char *canonical(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
	if (dir && !*dir) {
		free(dir);
		dir = strdup("/");
	}
	char *real = dir ? realpath(dir, NULL) : NULL;
	free(dir);
	if (!real || !*base) {
		free(real);
		return strdup(path);
	}
	char *c = join(strcmp(real, "/") ? real : "", base);
	free(real);
	return c;
}

enum tsr_status tsr_output_plan(struct tsr_output *o, const char *path, int in_dir,
				struct tsr_error *err)
{
	char *full = in_dir ? join(o->dir, path) : strdup(path);
	char *tmp = full ? tmp_name(full) : NULL;
	char *c = full ? canonical(full) : NULL;
	enum tsr_status s = TSR_OK;
	if (!tmp || !c)
		s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	else if (!*path || path[strlen(path) - 1] == '/' || is_folder(full))
		s = tsr_error_set(err, TSR_ERR_CONFIG, "output '%s' is a folder, not a file", full);
	else if (is_folder(tmp))
		s = tsr_error_set(err, TSR_ERR_CONFIG,
				  "output '%s' cannot be written: its temporary '%s' is a folder",
				  full, tmp);
	for (uint32_t i = 0; s == TSR_OK && i < o->nplanned; i++)
		if (strcmp(o->planned[i], c) == 0)
			s = tsr_error_set(err, TSR_ERR_CONFIG,
					  "outputs '%s' and '%s' are the same file; give each its own "
					  "name", o->shown[i], full);
	if (s == TSR_OK && (!list_add(&o->planned, &o->nplanned, c) ||
			    !list_add(&o->shown, &o->nshown, full)))
		s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	free(full);
	free(tmp);
	free(c);
	return s;
}

enum tsr_status tsr_output_adopt(struct tsr_output *o, const char *path,
				 struct tsr_error *err)
{
	if (!list_add(&o->names, &o->count, path))
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	return TSR_OK;
}

/* Registers <dir>/<name>; *tmp is its temporary name (free() it). */
static enum tsr_status add_name(struct tsr_output *o, const char *name, char **tmp,
				struct tsr_error *err)
{
	char *full = join(o->dir, name);
	*tmp = full ? tmp_name(full) : NULL;
	if (!*tmp || !list_add(&o->names, &o->count, full)) {
		free(full);
		free(*tmp);
		*tmp = NULL;
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	free(full);
	return TSR_OK;
}

enum tsr_status tsr_output_write(struct tsr_output *o, const char *name,
				 const void *data, size_t size,
				 struct tsr_error *err)
{
	char *tmp;
	TSR_TRY(add_name(o, name, &tmp, err));
	enum tsr_status s = TSR_OK;
	FILE *f = fopen(tmp, "wb");
	if (!f) {
		s = tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': %s", tmp, strerror(errno));
	} else {
		size_t w = fwrite(data, 1, size, f);
		if (fclose(f) != 0 || w != size)
			s = tsr_error_set(err, TSR_ERR_IO, "cannot write '%s'", tmp);
	}
	free(tmp);
	return s;
}

/* An IDAT chunk's most bytes: a long image's data is written as several. */
#define PNG_IDAT_BYTES ((size_t)1 << 20)

/*
 * Writes through libpng to f a PNG of width x height 8-bit pixels of
 * color type color whose IDAT data is z (zbytes of a zlib stream): the
 * signature, IHDR, IDAT chunks of at most PNG_IDAT_BYTES and IEND. 0 on
 * any error (libpng reports its errors by longjmp).
 */
static int write_png_chunks(FILE *f, uint32_t width, uint32_t height, int color,
			    const uint8_t *z, size_t zbytes)
{
	png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = p ? png_create_info_struct(p) : NULL;
	volatile int ok = 0;
	if (p && info && !setjmp(png_jmpbuf(p))) {
		png_init_io(p, f);
		png_set_IHDR(p, info, width, height, 8, color, PNG_INTERLACE_NONE,
			     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
		png_write_info(p, info);
		for (size_t at = 0; at < zbytes; at += PNG_IDAT_BYTES) {
			const size_t n = zbytes - at < PNG_IDAT_BYTES ? zbytes - at : PNG_IDAT_BYTES;
			png_write_chunk(p, (png_const_bytep)"IDAT", z + at, n);
		}
		png_write_chunk(p, (png_const_bytep)"IEND", NULL, 0);
		ok = 1;
	}
	png_destroy_write_struct(&p, &info);
	return ok;
}

/* 1 if all pixels of rgba (8-bit RGBA) have alpha 255. */
static int all_opaque(const uint8_t *rgba, size_t pixels)
{
	for (size_t i = 0; i < pixels; i++)
		if (rgba[i * 4 + 3] != 255)
			return 0;
	return 1;
}

/*
 * Writes rgba (width x height, 8-bit RGBA rows) to path as a PNG. The
 * image is RGB when every alpha is 255 (a rendered frame's usual case;
 * decoded as RGBA it gives the same pixels) and RGBA otherwise. Each row
 * takes the Sub filter; the filtered rows are compressed in one call to
 * libdeflate at level 1 (a zlib stream, about twice zlib's level-1 speed at
 * a similar size), and libpng writes the chunks (write_png_chunks()).
 * 0 on any error.
 */
static int write_png(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba)
{
	const int opaque = all_opaque(rgba, (size_t)width * height);
	const size_t bpp = opaque ? 3 : 4, row = 1 + (size_t)width * bpp, raw = row * height;
	uint8_t *filtered = malloc(raw ? raw : 1);
	struct libdeflate_compressor *c = libdeflate_alloc_compressor(1);
	const size_t cap = c ? libdeflate_zlib_compress_bound(c, raw) : 0;
	uint8_t *z = c ? malloc(cap) : NULL;
	size_t zbytes = 0;
	if (filtered && z) {
		for (uint32_t y = 0; y < height; y++) {
			const uint8_t *src = rgba + (size_t)y * width * 4;
			uint8_t *dst = filtered + (size_t)y * row;
			uint8_t prev[4] = {0, 0, 0, 0};
			*dst++ = 1;  /* filter type Sub: each byte minus the one bpp before */
			for (uint32_t x = 0; x < width; x++, src += 4, dst += bpp)
				for (size_t k = 0; k < bpp; k++) {
					dst[k] = (uint8_t)(src[k] - prev[k]);
					prev[k] = src[k];
				}
		}
		zbytes = libdeflate_zlib_compress(c, filtered, raw, z, cap);
	}
	libdeflate_free_compressor(c);
	free(filtered);
	const int color = opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA;
	FILE *f = zbytes ? fopen(path, "wb") : NULL;
	const int ok = f && write_png_chunks(f, width, height, color, z, zbytes);
	free(z);
	return f && fclose(f) == 0 && ok;
}

enum tsr_status tsr_output_png(struct tsr_output *o, const char *name,
			       uint32_t width, uint32_t height,
			       const uint8_t *rgba, struct tsr_error *err)
{
	char *tmp;
	TSR_TRY(add_name(o, name, &tmp, err));
	enum tsr_status s = TSR_OK;
	if (!write_png(tmp, width, height, rgba))
		s = tsr_error_set(err, TSR_ERR_IO, "cannot write image '%s'", tmp);
	free(tmp);
	return s;
}

/* The background PNG write of tsr_output_png_async(). */
struct tsr_png_writer {
	pthread_t thread;
	int busy;                /* a thread is running (join it) */
	int ok;                  /* its write_png() result */
	char *path;              /* the temporary it writes */
	uint32_t width, height;
	uint8_t *rgba;           /* the copied image */
	size_t cap;              /* bytes allocated at rgba */
};

static void *png_thread(void *arg)
{
	struct tsr_png_writer *w = arg;
	w->ok = write_png(w->path, w->width, w->height, w->rgba);
	return NULL;
}

/* The status of w's finished write (naming its file); frees its path. */
static enum tsr_status png_finish(struct tsr_png_writer *w, struct tsr_error *err)
{
	enum tsr_status s = w->ok ? TSR_OK
		: tsr_error_set(err, TSR_ERR_IO, "cannot write image '%s'", w->path);
	free(w->path);
	w->path = NULL;
	return s;
}

enum tsr_status tsr_output_png_wait(struct tsr_output *o, struct tsr_error *err)
{
	struct tsr_png_writer *w = o->png;
	if (!w || !w->busy)
		return TSR_OK;
	pthread_join(w->thread, NULL);
	w->busy = 0;
	return png_finish(w, err);
}

enum tsr_status tsr_output_png_async(struct tsr_output *o, const char *name,
				     uint32_t width, uint32_t height,
				     const uint8_t *rgba, struct tsr_error *err)
{
	TSR_TRY(tsr_output_png_wait(o, err));
	if (!o->png && !(o->png = calloc(1, sizeof(*o->png))))
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for an image");
	struct tsr_png_writer *w = o->png;
	const size_t bytes = (size_t)width * height * 4;
	if (w->cap < bytes) {
		uint8_t *b = realloc(w->rgba, bytes);
		if (!b)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for image '%s'", name);
		w->rgba = b;
		w->cap = bytes;
	}
	char *tmp;
	TSR_TRY(add_name(o, name, &tmp, err));
	memcpy(w->rgba, rgba, bytes);
	w->path = tmp;
	w->width = width;
	w->height = height;
	if (pthread_create(&w->thread, NULL, png_thread, w) == 0) {
		w->busy = 1;
		return TSR_OK;
	}
	/* no thread: write it now */
	png_thread(w);
	return png_finish(w, err);
}

/* Waits for a background image write and frees the writer (errors ignored: abort). */
static void png_writer_release(struct tsr_output *o)
{
	struct tsr_error ignored;
	tsr_output_png_wait(o, &ignored);
	if (o->png) {
		free(o->png->rgba);
		free(o->png);
		o->png = NULL;
	}
}

static void output_release(struct tsr_output *o)
{
	png_writer_release(o);
	list_free(&o->names, &o->count);
	list_free(&o->planned, &o->nplanned);
	list_free(&o->shown, &o->nshown);
	list_free(&o->created, &o->ncreated);
	free(o->dir);
	o->dir = NULL;
}

/* tsr_output_test_fail_rename(): the rename of a commit that fails (1-based), 0: none */
static uint32_t fail_rename_at;

void tsr_output_test_fail_rename(uint32_t n)
{
	fail_rename_at = n;
}


/*
 * Puts back the files of outputs [0, n) as they were before the commit:
 * the previous file from its backup, else no file.
 */
static void roll_back(struct tsr_output *o, uint32_t n, char **backup)
{
	for (uint32_t j = 0; j < n; j++) {
		if (backup[j])
			rename(backup[j], o->names[j]);
		else
			remove(o->names[j]);
	}
}

enum tsr_status tsr_output_commit(struct tsr_output *o, struct tsr_error *err)
{
	TSR_TRY(tsr_output_png_wait(o, err));
	/* first every check, then every rename: a failure leaves the old files */
	for (uint32_t i = 0; i < o->count; i++) {
		if (is_folder(o->names[i]))
			return tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': it is a folder",
					     o->names[i]);
		char *tmp = tmp_name(o->names[i]);
		struct stat sb;
		int ok = tmp && stat(tmp, &sb) == 0 && S_ISREG(sb.st_mode);
		free(tmp);
		if (!ok)
			return tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': its temporary "
					     "file is missing", o->names[i]);
	}
	/*
	 * One transaction: each existing file is kept as <path>.old.tmp (a
	 * hard link, so it stays in place meanwhile; a rename where links are
	 * not supported), then every temporary is renamed into place; if one
	 * rename fails, those done are undone and the old files put back.
	 */
	enum tsr_status st = TSR_OK;
	char **backup = calloc(o->count ? o->count : 1, sizeof(*backup));
	if (!backup)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	uint32_t kept = 0, renamed = 0, attempt = 0;
	for (; st == TSR_OK && kept < o->count; kept++) {
		struct stat sb;
		if (lstat(o->names[kept], &sb) != 0)
			continue; /* a new file */
		char *b = suffixed(o->names[kept], ".old.tmp");
		if (!b) {
			st = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
			break;
		}
		remove(b);
		if (link(o->names[kept], b) != 0 && rename(o->names[kept], b) != 0) {
			int e = errno;
			st = tsr_error_set(err, TSR_ERR_IO, "cannot keep '%s' while replacing it: %s",
					   o->names[kept], strerror(e));
			free(b);
			break;
		}
		backup[kept] = b;
	}
	for (; st == TSR_OK && renamed < o->count; renamed++) {
		char *tmp = tmp_name(o->names[renamed]);
		if (!tmp) {
			st = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
			break;
		}
		int r = ++attempt == fail_rename_at ? (errno = EIO, -1)
						    : rename(tmp, o->names[renamed]);
		if (r != 0) {
			int e = errno;
			st = tsr_error_set(err, TSR_ERR_IO, "cannot rename '%s': %s", tmp,
					   strerror(e));
			free(tmp);
			break;
		}
		free(tmp);
	}
	if (st != TSR_OK) {
		roll_back(o, renamed, backup);
		/* backups of outputs not renamed: put back those that were moved */
		for (uint32_t j = renamed; j < kept; j++)
			if (backup[j]) {
				if (access(o->names[j], F_OK) == 0)
					remove(backup[j]);
				else
					rename(backup[j], o->names[j]);
			}
	}
	for (uint32_t j = 0; j < o->count; j++) {
		if (st == TSR_OK && backup[j])
			remove(backup[j]);
		free(backup[j]);
	}
	free(backup);
	fail_rename_at = 0;
	if (st != TSR_OK)
		return st;  /* o kept: abort removes the temporaries left */
	for (uint32_t i = 0; i < o->count; i++) {
		/* renamed: abort must not touch it */
		free(o->names[i]);
		o->names[i] = NULL;
	}
	output_release(o);
	return TSR_OK;
}

void tsr_output_abort(struct tsr_output *o)
{
	png_writer_release(o);  /* its file is a temporary removed below */
	for (uint32_t i = 0; i < o->count; i++) {
		if (!o->names[i])
			continue;
		char *tmp = tmp_name(o->names[i]);
		if (tmp)
			remove(tmp);
		free(tmp);
	}
	/* the folders open made, deepest first (rmdir fails on a folder not empty) */
	for (uint32_t i = o->ncreated; i-- > 0;)
		rmdir(o->created[i]);
	output_release(o);
}
