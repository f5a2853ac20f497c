/*
 * queue.h - the bounded FIFO queues between the raster stages: a quad
 * queue (struct tsr_quad: Rasterizer -> Early-Z, Early-Z -> each shader
 * core, shader cores -> blending) and the primitive queue that feeds the
 * Rasterizer (Tile Fetcher -> Rasterizer).
 *
 * Each queue is a ring buffer whose slots are allocated once, when the
 * raster unit is created; pushing and popping allocate nothing. A
 * producer reserves the tail slot and fills it in place
 * (tsr_quad_queue_push), a consumer reads the head slot in place
 * (tsr_quad_queue_front) and then drops it (tsr_quad_queue_pop), so a
 * quad is copied only when it moves from one queue to the next. A full
 * queue is how a stage tells its producer to stall: a timing model sizes
 * the queues, the functional mode only needs them large enough for one
 * primitive's quads. Capacities are rounded up to a power of two.
 */
#ifndef TSR_RASTER_QUEUE_H
#define TSR_RASTER_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "raster/raster.h"

/* A FIFO of quads with a fixed capacity. */
struct tsr_quad_queue {
	struct tsr_quad *slots;  /* capacity of them */
	uint32_t mask;           /* capacity - 1 (capacity a power of two) */
	uint32_t head;           /* slot of the oldest quad */
	uint32_t count;          /* quads queued */
};

/*
 * Allocates the slots of an empty queue holding at least min_capacity
 * (>= 1) quads. Errors: TSR_ERR_NOMEM, TSR_ERR_LIMIT (min_capacity 0 or
 * above 2^31).
 */
enum tsr_status tsr_quad_queue_init(struct tsr_quad_queue *q, uint32_t min_capacity,
				    struct tsr_error *err);

/* Frees the slots (the struct itself is the caller's). */
void tsr_quad_queue_release(struct tsr_quad_queue *q);

/* Quads the queue holds at most. */
static inline uint32_t tsr_quad_queue_capacity(const struct tsr_quad_queue *q)
{
	return q->mask + 1;
}

/* Quads queued. */
static inline uint32_t tsr_quad_queue_count(const struct tsr_quad_queue *q)
{
	return q->count;
}

/* Free slots. */
static inline uint32_t tsr_quad_queue_room(const struct tsr_quad_queue *q)
{
	return q->mask + 1 - q->count;
}

/* The oldest quad, to read or update in place; NULL when empty. */
static inline struct tsr_quad *tsr_quad_queue_front(const struct tsr_quad_queue *q)
{
	return q->count ? &q->slots[q->head] : NULL;
}

/*
 * Appends a quad and returns its slot for the producer to fill; NULL
 * (nothing appended) when full.
 */
static inline struct tsr_quad *tsr_quad_queue_push(struct tsr_quad_queue *q)
{
	if (q->count > q->mask)
		return NULL;
	return &q->slots[(q->head + q->count++) & q->mask];
}

/*
 * Drops the oldest quad (the queue must not be empty). An emptied queue
 * starts again at its first slot, so a queue that the functional mode
 * keeps nearly empty reuses the same few slots (hot in the host's cache).
 */
static inline void tsr_quad_queue_pop(struct tsr_quad_queue *q)
{
	q->count--;
	q->head = q->count ? (q->head + 1) & q->mask : 0;
}

/* A FIFO of primitives for the Rasterizer, with a fixed capacity. */
struct tsr_prim_queue {
	struct tsr_raster_prim *slots;
	uint32_t mask, head, count;  /* as in struct tsr_quad_queue */
};

/* As tsr_quad_queue_init(), for primitives. */
enum tsr_status tsr_prim_queue_init(struct tsr_prim_queue *q, uint32_t min_capacity,
				    struct tsr_error *err);
void tsr_prim_queue_release(struct tsr_prim_queue *q);

/* The oldest primitive; NULL when empty. */
static inline const struct tsr_raster_prim *tsr_prim_queue_front(const struct tsr_prim_queue *q)
{
	return q->count ? &q->slots[q->head] : NULL;
}

/* Appends a primitive; 0 (nothing appended) when full, else 1. */
static inline int tsr_prim_queue_push(struct tsr_prim_queue *q, const struct tsr_raster_prim *p)
{
	if (q->count > q->mask)
		return 0;
	q->slots[(q->head + q->count++) & q->mask] = *p;
	return 1;
}

/* Drops the oldest primitive (the queue must not be empty; as tsr_quad_queue_pop()). */
static inline void tsr_prim_queue_pop(struct tsr_prim_queue *q)
{
	q->count--;
	q->head = q->count ? (q->head + 1) & q->mask : 0;
}

#endif
