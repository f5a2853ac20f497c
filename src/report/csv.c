/*
 * csv.c - frames.csv (report/report.h): its header line and one row per
 * frame, the scalar counters of every group and per cache instance.
 */
#include "report/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
