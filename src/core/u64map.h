/*
 * u64map.h - an open-addressing hash map from 64-bit keys to 64-bit
 * values (linear probing, multiplicative hashing, no deletion), for the
 * per-line bookkeeping of trace analyses: last position of a line, next
 * uses. Grows by doubling at 50% load; lookups allocate nothing.
 */
#ifndef TSR_CORE_U64MAP_H
#define TSR_CORE_U64MAP_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

/* Plain data; zero-initialise, then use. */
struct tsr_u64map {
	uint64_t *keys;    /* key + 1 (0 marks an empty slot) */
	uint64_t *vals;
	size_t cap;        /* a power of two, or 0 */
	size_t count;
};

/*
 * Returns a pointer to the value of key, inserting it with `init` if
 * absent; NULL when growing runs out of memory. The pointer is valid until
 * the next insertion. key must not be UINT64_MAX.
 */
uint64_t *tsr_u64map_upsert(struct tsr_u64map *m, uint64_t key, uint64_t init);

/* The value of key, or NULL if absent. */
uint64_t *tsr_u64map_find(const struct tsr_u64map *m, uint64_t key);

/* Empties the map and keeps its tables (a set reused frame after frame). */
void tsr_u64map_clear(struct tsr_u64map *m);

/* Frees the tables; the map is empty and reusable afterwards. */
void tsr_u64map_release(struct tsr_u64map *m);

#endif
