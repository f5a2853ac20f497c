/*
 * ring.h - a bounded FIFO of fixed-size work items in a ring buffer: the
 * queue between two pipeline stages (geometry/: Vertex Fetch -> Vertex
 * Shader -> ...; raster/: Rasterizer -> Early-Z -> each shader core ->
 * blending). Its slots are allocated once, when the ring is created, so
 * pushing and popping allocate nothing. A producer reserves the back slot
 * and fills it in place (tsr_ring_push); a consumer reads the front slot
 * in place (tsr_ring_front) and then drops it (tsr_ring_pop), so a work
 * item is copied only when it moves from one queue to the next. A full
 * ring is how a stage tells its producer to stall: a timing model sizes
 * the queues and schedules the stages one work item at a time; the
 * functional mode only needs room for what one input item produces.
 *
 * Single-threaded. The capacity is rounded up to a power of two (the ring
 * index is a mask). The *_sized variants take the item size from the
 * caller (a sizeof, folded by the compiler in the hot paths); the others
 * read it from the ring.
 */
#ifndef TSR_CORE_RING_H
#define TSR_CORE_RING_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct tsr_ring {
	unsigned char *slots;  /* (mask + 1) * item_bytes bytes */
	uint32_t item_bytes;   /* bytes of one work item */
	uint32_t mask;         /* capacity - 1 */
	uint32_t head;         /* slot of the front (oldest) item */
	uint32_t count;        /* items queued */
};

/*
 * Allocates an empty ring of at least min_capacity (1..2^31) items of
 * item_bytes (>= 1) bytes each. On failure the ring is left empty
 * (releasing it is harmless). Errors: TSR_ERR_LIMIT (a capacity or item
 * size out of range), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_ring_init(struct tsr_ring *r, uint32_t min_capacity, uint32_t item_bytes,
			      struct tsr_error *err);

/* Frees the slots (the struct is the caller's); the ring is then empty. */
void tsr_ring_release(struct tsr_ring *r);

/* Items the ring holds at most, holds now, and has room for. */
static inline uint32_t tsr_ring_capacity(const struct tsr_ring *r)
{
	return r->mask + 1;
}

static inline uint32_t tsr_ring_count(const struct tsr_ring *r)
{
	return r->count;
}

static inline uint32_t tsr_ring_room(const struct tsr_ring *r)
{
	return r->mask + 1 - r->count;
}

/* Drops every queued item. */
static inline void tsr_ring_clear(struct tsr_ring *r)
{
	r->head = r->count = 0;
}

/* The slot of the i-th item from the front (i == count: the back slot). */
static inline void *tsr_ring_at(const struct tsr_ring *r, uint32_t i, size_t item_bytes)
{
	return r->slots + (size_t)((r->head + i) & r->mask) * item_bytes;
}

/* The front item, to read or update in place; NULL when empty. */
static inline void *tsr_ring_front_sized(const struct tsr_ring *r, size_t item_bytes)
{
	return r->count ? r->slots + (size_t)r->head * item_bytes : NULL;
}

static inline void *tsr_ring_front(const struct tsr_ring *r)
{
	return tsr_ring_front_sized(r, r->item_bytes);
}

/*
 * The free slot at the back, where the next push lands; NULL when full. A
 * stage that is a ring's only producer may build a work item there over
 * several steps and push it when complete (tsr_ring_pop() does not move
 * the back slot; tsr_ring_pop_rewind() may).
 */
static inline void *tsr_ring_back_sized(const struct tsr_ring *r, size_t item_bytes)
{
	return r->count > r->mask ? NULL : tsr_ring_at(r, r->count, item_bytes);
}

static inline void *tsr_ring_back(const struct tsr_ring *r)
{
	return tsr_ring_back_sized(r, r->item_bytes);
}

/* Appends an item and returns its slot for the producer to fill; NULL (nothing appended) when full. */
static inline void *tsr_ring_push_sized(struct tsr_ring *r, size_t item_bytes)
{
	if (r->count > r->mask)
		return NULL;
	return tsr_ring_at(r, r->count++, item_bytes);
}

static inline void *tsr_ring_push(struct tsr_ring *r)
{
	return tsr_ring_push_sized(r, r->item_bytes);
}

/* Drops the front item (the ring must not be empty). */
static inline void tsr_ring_pop(struct tsr_ring *r)
{
	r->head = (r->head + 1) & r->mask;
	r->count--;
}

/*
 * As tsr_ring_pop(), and an emptied ring starts again at its first slot,
 * so a ring that the functional mode keeps nearly empty reuses the same
 * few slots (hot in the host's cache). Not for a ring whose producer is
 * building an item in its back slot.
 */
static inline void tsr_ring_pop_rewind(struct tsr_ring *r)
{
	r->count--;
	r->head = r->count ? (r->head + 1) & r->mask : 0;
}

#endif
