#include "stats/counters.h"

#include <string.h>

#define DESC(type, name, unit, merge, flags, help) \
	{#name, unit, help, offsetof(struct type, name), 1, merge, flags},
#define DESC_ARRAY(type, name, n, unit, merge, flags, help) \
	{#name, unit, help, offsetof(struct type, name), n, merge, flags},

#define GROUP(var, tag, gname, ghelp, LIST, SUB, SUB_OFFSET)                              \
	static const struct tsr_counter_desc var##_desc[] = {                             \
		LIST(var##_X, var##_XA)};                                                  \
	const struct tsr_counter_group var = {gname, ghelp, var##_desc,                   \
					      sizeof(var##_desc) / sizeof(var##_desc[0]),  \
					      sizeof(struct tag), SUB, SUB_OFFSET}

#define tsr_counters_geometry_X(...) DESC(tsr_geometry_stats, __VA_ARGS__)
#define tsr_counters_geometry_XA(...) DESC_ARRAY(tsr_geometry_stats, __VA_ARGS__)
GROUP(tsr_counters_geometry, tsr_geometry_stats, "geometry",
      "Geometry Pipeline: vertex fetch and shading, primitive assembly, clipping, culling",
      TSR_GEOMETRY_COUNTERS, NULL, 0);

#define tsr_counters_tiling_X(...) DESC(tsr_tiling_stats, __VA_ARGS__)
#define tsr_counters_tiling_XA(...) DESC_ARRAY(tsr_tiling_stats, __VA_ARGS__)
GROUP(tsr_counters_tiling, tsr_tiling_stats, "tiling",
      "Tiling Engine: Polygon List Builder and Tile Fetcher (also avg_primitives_per_tile "
      "= pmds_written / tiles in stats.json)",
      TSR_TILING_COUNTERS, NULL, 0);

#define tsr_counters_raster_X(...) DESC(tsr_raster_stats, __VA_ARGS__)
#define tsr_counters_raster_XA(...) DESC_ARRAY(tsr_raster_stats, __VA_ARGS__)
GROUP(tsr_counters_raster, tsr_raster_stats, "raster",
      "Raster Pipeline: rasterizer, Early-Z, fragment shading, blending",
      TSR_RASTER_COUNTERS, NULL, 0);

#define tsr_counters_texture_X(...) DESC(tsr_texture_stats, __VA_ARGS__)
#define tsr_counters_texture_XA(...) DESC_ARRAY(tsr_texture_stats, __VA_ARGS__)
GROUP(tsr_counters_texture, tsr_texture_stats, "texture",
      "texture units: sampling and coalescing", TSR_TEXTURE_COUNTERS, NULL, 0);

#define tsr_counters_attribute_cache_X(...) DESC(tsr_ac_counters, __VA_ARGS__)
#define tsr_counters_attribute_cache_XA(...) DESC_ARRAY(tsr_ac_counters, __VA_ARGS__)
GROUP(tsr_counters_attribute_cache, tsr_ac_counters, "attribute_cache",
      "TCOR's Attribute Cache (only with tcor.attribute_cache)",
      TSR_ATTRIBUTE_CACHE_COUNTERS, NULL, 0);

#define tsr_counters_signature_unit_X(...) DESC(tsr_su_counters, __VA_ARGS__)
#define tsr_counters_signature_unit_XA(...) DESC_ARRAY(tsr_su_counters, __VA_ARGS__)
GROUP(tsr_counters_signature_unit, tsr_su_counters, "signature_unit",
      "Rendering Elimination's Signature Unit (inside elimination)",
      TSR_SIGNATURE_UNIT_COUNTERS, NULL, 0);

#define tsr_counters_timing_X(...) DESC(tsr_timing_stats, __VA_ARGS__)
#define tsr_counters_timing_XA(...) DESC_ARRAY(tsr_timing_stats, __VA_ARGS__)
GROUP(tsr_counters_timing, tsr_timing_stats, "timing",
      "the timing model (only with timing.enabled; docs/timing.md; stats.json adds "
      "frames_per_second, mean_memory_latency, mean_dram_latency, mean_dram_in_flight, "
      "dram_row_hit_rate, dram_bandwidth_utilisation, dram_read_utilisation, "
      "dram_write_utilisation)", TSR_TIMING_COUNTERS,
      NULL, 0);

#define tsr_counters_cache_timing_X(...) DESC(tsr_cache_timing_stats, __VA_ARGS__)
#define tsr_counters_cache_timing_XA(...) DESC_ARRAY(tsr_cache_timing_stats, __VA_ARGS__)
GROUP(tsr_counters_cache_timing, tsr_cache_timing_stats, "caches",
      "per cache instance (texture0, l2, ...) as in \"caches\" (only with timing.enabled; also "
      "mean_latency and mean_mshr_occupancy in stats.json)",
      TSR_CACHE_TIMING_COUNTERS, NULL, 0);

#define tsr_counters_stream_timing_X(...) DESC(tsr_stream_timing_stats, __VA_ARGS__)
#define tsr_counters_stream_timing_XA(...) DESC_ARRAY(tsr_stream_timing_stats, __VA_ARGS__)
GROUP(tsr_counters_stream_timing, tsr_stream_timing_stats, "streams",
      "per stream with requests (only with timing.enabled; also mean_latency in stats.json)",
      TSR_STREAM_TIMING_COUNTERS, NULL, 0);

#define tsr_counters_elimination_X(...) DESC(tsr_elimination_stats, __VA_ARGS__)
#define tsr_counters_elimination_XA(...) DESC_ARRAY(tsr_elimination_stats, __VA_ARGS__)
GROUP(tsr_counters_elimination, tsr_elimination_stats, "elimination",
      "Rendering and Transaction Elimination (only with elimination.rendering or "
      ".transactions; RE V, Fig. 14)",
      TSR_ELIMINATION_COUNTERS, &tsr_counters_signature_unit,
      offsetof(struct tsr_elimination_stats, su));

#define tsr_counters_cache_X(...) DESC(tsr_cache_counters, __VA_ARGS__)
#define tsr_counters_cache_XA(...) DESC_ARRAY(tsr_cache_counters, __VA_ARGS__)
GROUP(tsr_counters_cache, tsr_cache_counters, "caches",
      "per cache instance (texture0, l2, ...), per stream with traffic and \"all\"",
      TSR_CACHE_COUNTERS, NULL, 0);

#define tsr_counters_dram_X(...) DESC(tsr_dram_counters, __VA_ARGS__)
#define tsr_counters_dram_XA(...) DESC_ARRAY(tsr_dram_counters, __VA_ARGS__)
GROUP(tsr_counters_dram, tsr_dram_counters, "dram",
      "DRAM per stream with traffic and \"all\"; \"perfect\" holds the same for perfect routes",
      TSR_DRAM_COUNTERS, NULL, 0);

static uint64_t *at(void *s, const struct tsr_counter_desc *d)
{
	return (uint64_t *)((char *)s + d->offset);
}

static const uint64_t *cat(const void *s, const struct tsr_counter_desc *d)
{
	return (const uint64_t *)((const char *)s + d->offset);
}

void tsr_counters_add(const struct tsr_counter_group *g, void *a, const void *b)
{
	for (size_t i = 0; i < g->count; i++) {
		const struct tsr_counter_desc *d = &g->counters[i];
		uint64_t *x = at(a, d);
		const uint64_t *y = cat(b, d);
		for (uint32_t k = 0; k < d->length; k++)
			x[k] = d->merge == TSR_MERGE_MAX ? (x[k] > y[k] ? x[k] : y[k]) : x[k] + y[k];
	}
	if (g->sub)
		tsr_counters_add(g->sub, (char *)a + g->sub_offset,
				 (const char *)b + g->sub_offset);
}

void tsr_counters_scale(const struct tsr_counter_group *g, void *s, double factor)
{
	for (size_t i = 0; i < g->count; i++) {
		const struct tsr_counter_desc *d = &g->counters[i];
		uint64_t *x = at(s, d);
		if (d->merge != TSR_MERGE_MAX)
			for (uint32_t k = 0; k < d->length; k++)
				x[k] = (uint64_t)((double)x[k] * factor + 0.5);
	}
	if (g->sub)
		tsr_counters_scale(g->sub, (char *)s + g->sub_offset, factor);
}

void tsr_counters_delta(const struct tsr_counter_group *g, void *d, const void *now,
			const void *base)
{
	for (size_t i = 0; i < g->count; i++) {
		const struct tsr_counter_desc *c = &g->counters[i];
		uint64_t *x = at(d, c);
		const uint64_t *n = cat(now, c), *b = cat(base, c);
		for (uint32_t k = 0; k < c->length; k++)
			x[k] = c->merge == TSR_MERGE_MAX ? n[k] : n[k] - b[k];
	}
	if (g->sub)
		tsr_counters_delta(g->sub, (char *)d + g->sub_offset,
				   (const char *)now + g->sub_offset,
				   (const char *)base + g->sub_offset);
}

int tsr_counters_any(const struct tsr_counter_group *g, const void *s)
{
	for (size_t i = 0; i < g->count; i++)
		for (uint32_t k = 0; k < g->counters[i].length; k++)
			if (cat(s, &g->counters[i])[k])
				return 1;
	return g->sub && tsr_counters_any(g->sub, (const char *)s + g->sub_offset);
}

const struct tsr_counter_desc *tsr_counters_find(const struct tsr_counter_group *g,
						 const char *name)
{
	for (size_t i = 0; i < g->count; i++)
		if (strcmp(g->counters[i].name, name) == 0)
			return &g->counters[i];
	return NULL;
}
