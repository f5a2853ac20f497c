#include "framestats/stats.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct tsr_stats_group tsr_stats_groups[] = {
	{&tsr_counters_geometry, offsetof(struct tsr_frame_stats, geometry)},
	{&tsr_counters_tiling, offsetof(struct tsr_frame_stats, tiling)},
	{&tsr_counters_raster, offsetof(struct tsr_frame_stats, raster)},
	{&tsr_counters_texture, offsetof(struct tsr_frame_stats, texture)},
	{&tsr_counters_attribute_cache, offsetof(struct tsr_frame_stats, attribute_cache)},
	{&tsr_counters_elimination, offsetof(struct tsr_frame_stats, elim)},
	{&tsr_counters_timing, offsetof(struct tsr_frame_stats, timing)},
};
const size_t tsr_stats_group_count = sizeof(tsr_stats_groups) / sizeof(tsr_stats_groups[0]);

void tsr_frame_stats_add(struct tsr_frame_stats *a, const struct tsr_frame_stats *b)
{
	for (size_t i = 0; i < tsr_stats_group_count; i++)
		tsr_counters_add(tsr_stats_groups[i].group, (char *)a + tsr_stats_groups[i].offset,
				 (const char *)b + tsr_stats_groups[i].offset);
	for (uint32_t c = 0; c < b->cache_count; c++)
		for (int st = 0; st < TSR_STREAM_COUNT; st++)
			tsr_counters_add(&tsr_counters_cache, &a->caches[c][st], &b->caches[c][st]);
	for (int st = 0; st < TSR_STREAM_COUNT; st++) {
		tsr_counters_add(&tsr_counters_dram, &a->dram[st], &b->dram[st]);
		tsr_counters_add(&tsr_counters_dram, &a->perfect[st], &b->perfect[st]);
	}
	for (uint32_t c = 0; c < b->cache_count; c++)
		tsr_counters_add(&tsr_counters_cache_timing, &a->cache_timing[c], &b->cache_timing[c]);
	for (int st = 0; st < TSR_STREAM_COUNT; st++)
		tsr_counters_add(&tsr_counters_stream_timing, &a->stream_timing[st],
				 &b->stream_timing[st]);
	a->memory_accesses += b->memory_accesses;
	a->cache_count = b->cache_count;
	tsr_quad_imbalance_add(&a->quad_imbalance, &b->quad_imbalance);
	tsr_quad_imbalance_add(&a->time_imbalance, &b->time_imbalance);
}

void tsr_quad_imbalance_add(struct tsr_quad_imbalance *h, const struct tsr_quad_imbalance *b)
{
	if (!b->tiles)
		return;
	h->tiles += b->tiles;
	h->permille_sum += b->permille_sum;
	for (uint32_t i = 0; i < TSR_QUAD_IMBALANCE_BUCKETS; i++)
		h->histogram[i] += b->histogram[i];
}

void tsr_quad_imbalance_add_tile(struct tsr_quad_imbalance *h, const uint64_t *quads,
				 uint32_t cores)
{
	uint64_t total = 0, dev = 0;
	for (uint32_t c = 0; c < cores; c++)
		total += quads[c];
	if (!total || !cores)
		return;
	/* sum |q - total/n| / n / (total/n) = sum |n q - total| / (n total) */
	for (uint32_t c = 0; c < cores; c++) {
		uint64_t nq = (uint64_t)cores * quads[c];
		dev += nq > total ? nq - total : total - nq;
	}
	uint64_t den = (uint64_t)cores * total;
	uint64_t v = (1000 * dev + den / 2) / den;
	if (v >= TSR_QUAD_IMBALANCE_BUCKETS)
		v = TSR_QUAD_IMBALANCE_BUCKETS - 1;
	h->tiles++;
	h->permille_sum += v;
	h->histogram[v]++;
}

/* The value (1/1000) of the rank-th smallest tile (1-based). */
static uint32_t imbalance_rank(const struct tsr_quad_imbalance *h, uint64_t rank)
{
	uint64_t seen = 0;
	for (uint32_t i = 0; i < TSR_QUAD_IMBALANCE_BUCKETS; i++) {
		seen += h->histogram[i];
		if (seen >= rank)
			return i;
	}
	return TSR_QUAD_IMBALANCE_BUCKETS - 1;
}

void tsr_quad_imbalance_summarise(const struct tsr_quad_imbalance *h,
				  struct tsr_quad_imbalance_summary *out)
{
	memset(out, 0, sizeof(*out));
	const uint64_t n = h->tiles;
	if (!n)
		return;
	out->tiles = n;
	out->mean_pct = (double)h->permille_sum / (double)n / 10.0;
	out->min_pct = imbalance_rank(h, 1) / 10.0;
	out->q1_pct = imbalance_rank(h, (n + 3) / 4) / 10.0;
	out->median_pct = imbalance_rank(h, (n + 1) / 2) / 10.0;
	out->q3_pct = imbalance_rank(h, (3 * n + 3) / 4) / 10.0;
	out->max_pct = imbalance_rank(h, n) / 10.0;
}

void tsr_frame_stats_snapshot_memory(struct tsr_frame_stats *s,
				     const struct tsr_memsys *m)
{
	s->cache_count = tsr_memsys_cache_count(m);
	for (uint32_t c = 0; c < s->cache_count; c++)
		for (int st = 0; st < TSR_STREAM_COUNT; st++)
			s->caches[c][st] = *tsr_cache_counters_of(tsr_memsys_cache(m, c),
								  (enum tsr_stream)st);
	for (int st = 0; st < TSR_STREAM_COUNT; st++) {
		s->dram[st] = *tsr_memsys_dram(m, (enum tsr_stream)st);
		s->perfect[st] = *tsr_memsys_perfect(m, (enum tsr_stream)st);
	}
	s->memory_accesses = tsr_memsys_accesses(m);
}

void tsr_frame_stats_sub_memory(struct tsr_frame_stats *s,
				const struct tsr_frame_stats *base)
{
	for (uint32_t c = 0; c < s->cache_count; c++)
		for (int st = 0; st < TSR_STREAM_COUNT; st++)
			tsr_counters_delta(&tsr_counters_cache, &s->caches[c][st], &s->caches[c][st],
					   &base->caches[c][st]);
	for (int st = 0; st < TSR_STREAM_COUNT; st++) {
		tsr_counters_delta(&tsr_counters_dram, &s->dram[st], &s->dram[st], &base->dram[st]);
		tsr_counters_delta(&tsr_counters_dram, &s->perfect[st], &s->perfect[st],
				   &base->perfect[st]);
	}
	s->memory_accesses -= base->memory_accesses;
}

void tsr_frame_stats_add_memory(struct tsr_frame_stats *s, const struct tsr_frame_stats *d)
{
	for (uint32_t c = 0; c < s->cache_count; c++)
		for (int st = 0; st < TSR_STREAM_COUNT; st++)
			tsr_counters_add(&tsr_counters_cache, &s->caches[c][st], &d->caches[c][st]);
	for (int st = 0; st < TSR_STREAM_COUNT; st++) {
		tsr_counters_add(&tsr_counters_dram, &s->dram[st], &d->dram[st]);
		tsr_counters_add(&tsr_counters_dram, &s->perfect[st], &d->perfect[st]);
	}
	s->memory_accesses += d->memory_accesses;
}

/* Splits the next dotted part of *name into part; 0 when none is left. */
static int next_part(const char **name, char *part, size_t n)
{
	const char *p = *name;
	if (!*p)
		return 0;
	const char *dot = strchr(p, '.');
	size_t len = dot ? (size_t)(dot - p) : strlen(p);
	if (len >= n)
		len = n - 1;
	memcpy(part, p, len);
	part[len] = '\0';
	*name = dot ? dot + 1 : p + strlen(p);
	return 1;
}

/* Counter `rest` ("name" or "name.i") of group g in struct base. */
static enum tsr_status lookup_group(const struct tsr_counter_group *g, const void *base,
				    const char *full, const char *rest, uint64_t *out,
				    struct tsr_error *err)
{
	char part[64];
	if (!next_part(&rest, part, sizeof(part)))
		return tsr_error_set(err, TSR_ERR_CONFIG, "counter '%s' names a group, not a counter",
				     full);
	if (g->sub && !strcmp(part, g->sub->name))
		return lookup_group(g->sub, (const char *)base + g->sub_offset, full, rest, out,
				    err);
	const struct tsr_counter_desc *d = tsr_counters_find(g, part);
	if (!d)
		return tsr_error_set(err, TSR_ERR_CONFIG, "no counter '%s' in group '%s' (in '%s')",
				     part, g->name, full);
	uint32_t i = 0;
	if (d->length > 1) {
		char *end;
		if (!next_part(&rest, part, sizeof(part)))
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "counter '%s' is an array: give an index", full);
		unsigned long v = strtoul(part, &end, 10);
		if (*end || v >= d->length)
			return tsr_error_set(err, TSR_ERR_CONFIG, "index '%s' of '%s' out of range",
					     part, full);
		i = (uint32_t)v;
	}
	if (*rest)
		return tsr_error_set(err, TSR_ERR_CONFIG, "counter '%s': nothing follows '%s'", full,
				     d->name);
	*out = tsr_counter_value(d, base, i);
	return TSR_OK;
}

/* "all" or a stream name; the stream range [*lo, *hi). */
static enum tsr_status stream_range(const char *part, const char *full, int *lo, int *hi,
				    struct tsr_error *err)
{
	if (!strcmp(part, "all")) {
		*lo = 0;
		*hi = TSR_STREAM_COUNT;
		return TSR_OK;
	}
	enum tsr_stream s = tsr_stream_from_name(part);
	if (s == TSR_STREAM_COUNT)
		return tsr_error_set(err, TSR_ERR_CONFIG, "no stream '%s' (in '%s')", part, full);
	*lo = (int)s;
	*hi = (int)s + 1;
	return TSR_OK;
}

/* "timing.caches.<cache>.<counter>" or "timing.streams.<stream|all>.<counter>"
 * (rest: from "caches" or "streams" on). */
static enum tsr_status lookup_timing(const struct tsr_frame_stats *s,
				     const struct tsr_memsys *mem, const char *name,
				     const char *rest, uint64_t *out, struct tsr_error *err)
{
	char kind[16], sub[64];
	next_part(&rest, kind, sizeof(kind));
	if (!next_part(&rest, sub, sizeof(sub)))
		return tsr_error_set(err, TSR_ERR_CONFIG, "counter '%s' needs a %s", name,
				     kind[0] == 'c' ? "cache" : "stream");
	if (kind[0] == 's') {
		int lo = 0, hi = 0;
		TSR_TRY(stream_range(sub, name, &lo, &hi, err));
		for (int st = lo; st < hi; st++) {
			uint64_t v;
			TSR_TRY(lookup_group(&tsr_counters_stream_timing, &s->stream_timing[st], name,
					     rest, &v, err));
			*out += v;
		}
		return TSR_OK;
	}
	if (!mem) {  /* a check of the name: any cache, its counter must exist */
		static const struct tsr_cache_timing_stats zero;
		return lookup_group(&tsr_counters_cache_timing, &zero, name, rest, out, err);
	}
	int found = 0;
	for (uint32_t c = 0; c < s->cache_count; c++) {
		if (strcmp(tsr_cache_name(tsr_memsys_cache(mem, c)), sub) &&
		    strcmp(tsr_memsys_cache_group(mem, c), sub))
			continue;
		found = 1;
		uint64_t v;
		TSR_TRY(lookup_group(&tsr_counters_cache_timing, &s->cache_timing[c], name, rest, &v,
				     err));
		*out += v;
	}
	if (!found)
		return tsr_error_set(err, TSR_ERR_CONFIG, "no cache '%s' (in '%s')", sub, name);
	return TSR_OK;
}

enum tsr_status tsr_stats_lookup(const struct tsr_frame_stats *s,
				 const struct tsr_memsys *mem, const char *name,
				 uint64_t *out, struct tsr_error *err)
{
	const char *rest = name;
	char part[64];
	*out = 0;
	if (!next_part(&rest, part, sizeof(part)))
		return tsr_error_set(err, TSR_ERR_CONFIG, "empty counter name");
	if (!strcmp(part, "memory_accesses") && !*rest) {
		*out = s->memory_accesses;
		return TSR_OK;
	}
	if (!strcmp(part, "timing") && (!strncmp(rest, "caches.", 7) || !strncmp(rest, "streams.", 8)))
		return lookup_timing(s, mem, name, rest, out, err);
	for (size_t i = 0; i < tsr_stats_group_count; i++)
		if (!strcmp(part, tsr_stats_groups[i].group->name))
			return lookup_group(tsr_stats_groups[i].group,
					    (const char *)s + tsr_stats_groups[i].offset, name,
					    rest, out, err);
	int lo = 0, hi = 0;
	if (!strcmp(part, "dram") || !strcmp(part, "perfect")) {
		const struct tsr_dram_counters *d = part[0] == 'd' ? s->dram : s->perfect;
		if (!next_part(&rest, part, sizeof(part)))
			return tsr_error_set(err, TSR_ERR_CONFIG, "counter '%s' needs a stream", name);
		TSR_TRY(stream_range(part, name, &lo, &hi, err));
		for (int st = lo; st < hi; st++) {
			uint64_t v;
			TSR_TRY(lookup_group(&tsr_counters_dram, &d[st], name, rest, &v, err));
			*out += v;
		}
		return TSR_OK;
	}
	if (!strcmp(part, "caches")) {
		char cache[64], stream[64];
		if (!next_part(&rest, cache, sizeof(cache)) || !next_part(&rest, stream, sizeof(stream)))
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "counter '%s' needs a cache and a stream "
					     "(caches.l2.all.reads)", name);
		TSR_TRY(stream_range(stream, name, &lo, &hi, err));
		if (!mem) {  /* a check of the name: any cache, its counter must exist */
			static const struct tsr_cache_counters zero;
			return lookup_group(&tsr_counters_cache, &zero, name, rest, out, err);
		}
		int found = 0;
		for (uint32_t c = 0; c < s->cache_count; c++) {
			if (strcmp(tsr_cache_name(tsr_memsys_cache(mem, c)), cache) &&
			    strcmp(tsr_memsys_cache_group(mem, c), cache))
				continue;
			found = 1;
			for (int st = lo; st < hi; st++) {
				uint64_t v;
				TSR_TRY(lookup_group(&tsr_counters_cache, &s->caches[c][st], name, rest,
						     &v, err));
				*out += v;
			}
		}
		if (!found)
			return tsr_error_set(err, TSR_ERR_CONFIG, "no cache '%s' (in '%s')", cache,
					     name);
		return TSR_OK;
	}
	return tsr_error_set(err, TSR_ERR_CONFIG, "no counter group '%s' (in '%s')", part, name);
}

/* snprintf at buf + *len, counting the length even past n. */
static void md_add(char *buf, size_t n, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void md_add(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(*len < n ? buf + *len : NULL, *len < n ? n - *len : 0, fmt, ap);
	va_end(ap);
	if (w > 0)
		*len += (size_t)w;
}

static void md_group(char *buf, size_t n, size_t *len, const char *prefix,
		     const struct tsr_counter_group *g)
{
	for (size_t i = 0; i < g->count; i++) {
		const struct tsr_counter_desc *d = &g->counters[i];
		md_add(buf, n, len, "| `%s%s%s` | %s | %s%s |\n", prefix, d->name,
		       d->length > 1 ? "[]" : "", d->unit, d->help,
		       d->merge == TSR_MERGE_MAX ? " (total: the largest frame's)" : "");
	}
	if (g->sub) {
		char p[96];
		snprintf(p, sizeof(p), "%s%s.", prefix, g->sub->name);
		md_group(buf, n, len, p, g->sub);
	}
}

size_t tsr_stats_markdown(char *buf, size_t n)
{
	size_t len = 0;
	if (n)
		buf[0] = '\0';
	md_add(buf, n, &len, "| counter | unit | meaning |\n| --- | --- | --- |\n");
	for (size_t i = 0; i < tsr_stats_group_count; i++) {
		const struct tsr_counter_group *g = tsr_stats_groups[i].group;
		char prefix[64];
		snprintf(prefix, sizeof(prefix), "%s.", g->name);
		md_add(buf, n, &len, "| **`%s`** | | %s |\n", g->name, g->help);
		md_group(buf, n, &len, prefix, g);
	}
	md_add(buf, n, &len, "| **`timing.caches.<cache>`** | | %s |\n",
	       tsr_counters_cache_timing.help);
	md_group(buf, n, &len, "timing.caches.<cache>.", &tsr_counters_cache_timing);
	md_add(buf, n, &len, "| **`timing.streams.<stream>`** | | %s |\n",
	       tsr_counters_stream_timing.help);
	md_group(buf, n, &len, "timing.streams.<stream>.", &tsr_counters_stream_timing);
	md_add(buf, n, &len, "| **`caches.<cache>.<stream>`** | | %s |\n", tsr_counters_cache.help);
	md_group(buf, n, &len, "caches.<cache>.<stream>.", &tsr_counters_cache);
	md_add(buf, n, &len, "| **`dram.<stream>`** | | %s |\n", tsr_counters_dram.help);
	md_group(buf, n, &len, "dram.<stream>.", &tsr_counters_dram);
	md_add(buf, n, &len, "| `memory_accesses` | count | accesses served by all caches "
	       "(the simulated accesses of the speed figures) |\n");
	return len;
}
