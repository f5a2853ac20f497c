/*
 * queue.h - the bounded queues between the Geometry Pipeline's stages
 * (TCOR II-A Fig. 2; RE II): a fixed-capacity FIFO ring of work items of
 * one size, allocated once when the pipeline is created, so that pushing
 * and popping a work item allocate nothing. A stage takes its work item
 * from the front of its input queue and writes its results into slots it
 * reserves at the back of its output queue; when the output queue is full
 * the stage stalls (back-pressure), which is what a timing model needs to
 * schedule stages one work item at a time.
 *
 * Single-threaded: a reserved slot must be filled before the next pop of
 * that queue. The capacity is rounded up to a power of two (the ring
 * index is a mask). Nothing here is specific to geometry; the prefix
 * says where it lives until another subsystem needs it (then core/).
 */
#ifndef TSR_GEOMETRY_QUEUE_H
#define TSR_GEOMETRY_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct tsr_geo_queue {
	unsigned char *items;   /* capacity * item_bytes bytes */
	uint32_t item_bytes;    /* size of one work item, bytes */
	uint32_t capacity;      /* work items, a power of two */
	uint32_t head;          /* ring index of the front item */
	uint32_t count;         /* work items waiting */
};

/*
 * Allocates a queue of at least `capacity` (>= 1) work items of
 * item_bytes bytes each (rounded up to a power of two items). Errors:
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_geo_queue_init(struct tsr_geo_queue *q, uint32_t capacity,
				   uint32_t item_bytes, struct tsr_error *err);

/* Frees the queue's storage (q can be zeroed or initialised). */
void tsr_geo_queue_release(struct tsr_geo_queue *q);

/* Drops every waiting work item. */
static inline void tsr_geo_queue_clear(struct tsr_geo_queue *q)
{
	q->head = 0;
	q->count = 0;
}

/* Work items waiting, and room left (work items). */
static inline uint32_t tsr_geo_queue_length(const struct tsr_geo_queue *q)
{
	return q->count;
}

static inline uint32_t tsr_geo_queue_room(const struct tsr_geo_queue *q)
{
	return q->capacity - q->count;
}

/*
 * Reserves the slot at the back of the queue and returns it for the
 * caller to fill, or NULL when the queue is full.
 */
static inline void *tsr_geo_queue_push(struct tsr_geo_queue *q)
{
	if (q->count == q->capacity)
		return NULL;
	uint32_t slot = (q->head + q->count) & (q->capacity - 1);
	q->count++;
	return q->items + (size_t)slot * q->item_bytes;
}

/*
 * The free slot at the back, where the next push lands, or NULL when the
 * queue is full: a stage that is the queue's only producer can build a
 * work item there over several steps and push it when complete (the
 * slot does not move when items are popped).
 */
static inline void *tsr_geo_queue_back(const struct tsr_geo_queue *q)
{
	if (q->count == q->capacity)
		return NULL;
	return q->items + (size_t)((q->head + q->count) & (q->capacity - 1)) * q->item_bytes;
}

/* The work item at the front, or NULL when the queue is empty. */
static inline void *tsr_geo_queue_front(const struct tsr_geo_queue *q)
{
	return q->count ? q->items + (size_t)q->head * q->item_bytes : NULL;
}

/* Removes the front work item (the queue must not be empty). */
static inline void tsr_geo_queue_pop(struct tsr_geo_queue *q)
{
	q->head = (q->head + 1) & (q->capacity - 1);
	q->count--;
}

#endif
