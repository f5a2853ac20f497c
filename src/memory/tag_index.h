/*
 * tag_index.h - a hash index from a line's tag to a 32-bit value (its way,
 * or its line number), for sets too wide to scan: the cache model's sets
 * of more than 64 ways and the replay kernel's wide sets. Open addressing
 * with linear probing, at most half full (slots: a power of two at least
 * twice the entries), key = tag + 1 (0: an empty slot), backward-shift
 * deletion so that no tombstone lengthens a probe. Every operation is
 * O(1) expected and allocates nothing; the caller keeps at most the
 * entries it sized the index for.
 */
#ifndef TSR_MEMORY_TAG_INDEX_H
#define TSR_MEMORY_TAG_INDEX_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Plain data; all zero: no index. */
struct tsr_tag_index {
	uint64_t *key;   /* tag + 1, 0: empty */
	uint32_t *val;
	uint64_t mask;   /* slots - 1 */
};

/* Allocates an index for up to `entries` tags; 0 when out of memory (nothing left allocated). */
static inline int tsr_tag_index_init(struct tsr_tag_index *ix, uint64_t entries)
{
	uint64_t slots = 2;
	while (slots < 2 * entries)
		slots <<= 1;
	ix->mask = slots - 1;
	ix->key = calloc(slots, sizeof(*ix->key));
	ix->val = calloc(slots, sizeof(*ix->val));
	if (ix->key && ix->val)
		return 1;
	free(ix->key);
	free(ix->val);
	memset(ix, 0, sizeof(*ix));
	return 0;
}

static inline void tsr_tag_index_release(struct tsr_tag_index *ix)
{
	free(ix->key);
	free(ix->val);
	memset(ix, 0, sizeof(*ix));
}

/* Empties it (keeps its slots). */
static inline void tsr_tag_index_clear(struct tsr_tag_index *ix)
{
	if (ix->key)
		memset(ix->key, 0, (ix->mask + 1) * sizeof(*ix->key));
}

static inline uint64_t tsr_tag_index_slot(const struct tsr_tag_index *ix, uint64_t tag)
{
	return (tag * 0x9e3779b97f4a7c15ull >> 17) & ix->mask;
}

/* The value of tag, or UINT32_MAX when absent. */
static inline uint32_t tsr_tag_index_find(const struct tsr_tag_index *ix, uint64_t tag)
{
	for (uint64_t h = tsr_tag_index_slot(ix, tag);; h = (h + 1) & ix->mask) {
		if (ix->key[h] == tag + 1)
			return ix->val[h];
		if (!ix->key[h])
			return UINT32_MAX;
	}
}

/* Adds tag (absent) with value val. */
static inline void tsr_tag_index_insert(struct tsr_tag_index *ix, uint64_t tag, uint32_t val)
{
	uint64_t h = tsr_tag_index_slot(ix, tag);
	while (ix->key[h])
		h = (h + 1) & ix->mask;
	ix->key[h] = tag + 1;
	ix->val[h] = val;
}

/* Removes tag (present); backward-shift deletion keeps every probe chain whole. */
static inline void tsr_tag_index_remove(struct tsr_tag_index *ix, uint64_t tag)
{
	uint64_t h = tsr_tag_index_slot(ix, tag);
	while (ix->key[h] != tag + 1)
		h = (h + 1) & ix->mask;
	for (uint64_t j = (h + 1) & ix->mask; ix->key[j]; j = (j + 1) & ix->mask) {
		const uint64_t home = tsr_tag_index_slot(ix, ix->key[j] - 1);
		/* move j's entry into the hole at h unless its home lies in (h, j] */
		if (((j - home) & ix->mask) >= ((j - h) & ix->mask)) {
			ix->key[h] = ix->key[j];
			ix->val[h] = ix->val[j];
			h = j;
		}
	}
	ix->key[h] = 0;
}

#endif
