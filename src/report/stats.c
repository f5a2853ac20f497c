#include "report/stats.h"

#include <stddef.h>

/* Every stats struct is a run of uint64_t counters. */
static void add_u64(uint64_t *a, const uint64_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] += b[i];
}

#define ADD_STRUCT(a, b) add_u64((uint64_t *)&(a), (const uint64_t *)&(b), sizeof(a) / (sizeof(uint64_t)))

void tsr_frame_stats_add(struct tsr_frame_stats *a, const struct tsr_frame_stats *b)
{
	ADD_STRUCT(a->geometry, b->geometry);
	ADD_STRUCT(a->tiling, b->tiling);
	ADD_STRUCT(a->raster, b->raster);
	ADD_STRUCT(a->texture, b->texture);
	ADD_STRUCT(a->caches, b->caches);
	ADD_STRUCT(a->dram, b->dram);
	a->memory_accesses += b->memory_accesses;
	ADD_STRUCT(a->attribute_cache, b->attribute_cache);
	uint64_t ot_max = a->elim.su.ot_max > b->elim.su.ot_max ? a->elim.su.ot_max
								 : b->elim.su.ot_max;
	ADD_STRUCT(a->elim, b->elim);
	a->elim.su.ot_max = ot_max;
	a->cache_count = b->cache_count;
}

void tsr_frame_stats_snapshot_memory(struct tsr_frame_stats *s,
				     const struct tsr_memsys *m)
{
	s->cache_count = tsr_memsys_cache_count(m);
	for (uint32_t c = 0; c < s->cache_count; c++)
		for (int st = 0; st < TSR_STREAM_COUNT; st++)
			s->caches[c][st] = *tsr_cache_counters_of(tsr_memsys_cache(m, c),
								  (enum tsr_stream)st);
	for (int st = 0; st < TSR_STREAM_COUNT; st++)
		s->dram[st] = *tsr_memsys_dram(m, (enum tsr_stream)st);
	s->memory_accesses = tsr_memsys_accesses(m);
}

static void sub_u64(uint64_t *a, const uint64_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] -= b[i];
}

void tsr_frame_stats_sub_memory(struct tsr_frame_stats *s,
				const struct tsr_frame_stats *base)
{
	sub_u64((uint64_t *)s->caches, (const uint64_t *)base->caches,
		sizeof(s->caches) / (sizeof(uint64_t)));
	sub_u64((uint64_t *)s->dram, (const uint64_t *)base->dram,
		sizeof(s->dram) / (sizeof(uint64_t)));
	s->memory_accesses -= base->memory_accesses;
}

void tsr_frame_stats_set_attribute_cache(struct tsr_frame_stats *s,
					 const struct tsr_ac_counters *now,
					 const struct tsr_ac_counters *base)
{
	s->attribute_cache = *now;
	sub_u64((uint64_t *)&s->attribute_cache, (const uint64_t *)base,
		sizeof(s->attribute_cache) / sizeof(uint64_t));
}
