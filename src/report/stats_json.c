/*
 * stats_json.c - stats.json (report/report.h): the statistics objects of
 * the frames and the total, built with jansson as frames complete, and the
 * document rendered at the end of a run. The format is docs/statistics.md's
 * ("Statistics").
 */
#include "report/report.h"

#include <jansson.h>

#include <stdlib.h>
#include <string.h>

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
		json_t *wo = json_object_get(root, "workload");
		if (wo && w->selected) {
			json_object_set_new(wo, "selected_frames", json_string(w->selected));
			json_object_set_new(wo, "fast_forwarded_frames",
					    json_integer((json_int_t)w->fast_forwarded));
		}
		if (w->sample)
			json_object_set_new(root, "sample", json_loads(w->sample, 0, NULL));
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
