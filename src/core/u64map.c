#include "core/u64map.h"

#include <stdlib.h>
#include <string.h>

static size_t slot_of(uint64_t key, size_t cap)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

static int grow(struct tsr_u64map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 1024;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	uint64_t *vals = malloc(cap * sizeof(*vals));
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return 0;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		size_t j = slot_of(m->keys[i] - 1, cap);
		while (keys[j])
			j = (j + 1) & (cap - 1);
		keys[j] = m->keys[i];
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 1;
}

/* The slot holding key, or the empty slot where it would go (cap > 0). */
static size_t probe(const struct tsr_u64map *m, uint64_t key)
{
	size_t j = slot_of(key, m->cap);
	while (m->keys[j] && m->keys[j] != key + 1)
		j = (j + 1) & (m->cap - 1);
	return j;
}

uint64_t *tsr_u64map_upsert(struct tsr_u64map *m, uint64_t key, uint64_t init)
{
	if ((m->count + 1) * 2 > m->cap && !grow(m))
		return NULL;
	size_t j = probe(m, key);
	if (m->keys[j])
		return &m->vals[j];
	m->keys[j] = key + 1;
	m->vals[j] = init;
	m->count++;
	return &m->vals[j];
}

uint64_t *tsr_u64map_find(const struct tsr_u64map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	size_t j = probe(m, key);
	return m->keys[j] ? &m->vals[j] : NULL;
}

void tsr_u64map_release(struct tsr_u64map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = m->vals = NULL;
	m->cap = m->count = 0;
}

void tsr_u64map_clear(struct tsr_u64map *m)
{
	if (m->cap)
		memset(m->keys, 0, m->cap * sizeof(*m->keys));
	m->count = 0;
}
