/*
 * queue.h - the bounded queues between the raster stages, as typed views
 * of the work-item rings of core/ring.h: quad queues (struct tsr_quad:
 * Rasterizer -> Early-Z, Early-Z -> each shader core, shader cores ->
 * blending) and the primitive queue that feeds the Rasterizer (Tile
 * Fetcher -> Rasterizer). The item size is a compile-time constant here,
 * so the hot path indexes its slots without a multiply by a loaded size;
 * popping rewinds an emptied queue to its first slot (tsr_ring_pop_rewind).
 */
#ifndef TSR_RASTER_QUEUE_H
#define TSR_RASTER_QUEUE_H

#include "core/ring.h"
#include "raster/raster.h"

/* A quad queue of at least min_capacity quads. Errors: those of tsr_ring_init(). */
static inline enum tsr_status tsr_quad_queue_init(struct tsr_ring *q, uint32_t min_capacity,
						  struct tsr_error *err)
{
	return tsr_ring_init(q, min_capacity, sizeof(struct tsr_quad), err);
}

/* The oldest quad, to read or update in place; NULL when empty. */
static inline struct tsr_quad *tsr_quad_queue_front(const struct tsr_ring *q)
{
	return (struct tsr_quad *)tsr_ring_front_sized(q, sizeof(struct tsr_quad));
}

/* Appends a quad and returns its slot to fill; NULL (nothing appended) when full. */
static inline struct tsr_quad *tsr_quad_queue_push(struct tsr_ring *q)
{
	return (struct tsr_quad *)tsr_ring_push_sized(q, sizeof(struct tsr_quad));
}

/* Drops the oldest quad (the queue must not be empty). */
static inline void tsr_quad_queue_pop(struct tsr_ring *q)
{
	tsr_ring_pop_rewind(q);
}

/* A primitive queue of at least min_capacity primitives. Errors: those of tsr_ring_init(). */
static inline enum tsr_status tsr_prim_queue_init(struct tsr_ring *q, uint32_t min_capacity,
						  struct tsr_error *err)
{
	return tsr_ring_init(q, min_capacity, sizeof(struct tsr_raster_prim), err);
}

/* The oldest primitive; NULL when empty. */
static inline const struct tsr_raster_prim *tsr_prim_queue_front(const struct tsr_ring *q)
{
	return (const struct tsr_raster_prim *)tsr_ring_front_sized(
		q, sizeof(struct tsr_raster_prim));
}

/* Appends a copy of *p; 0 (nothing appended) when full, else 1. */
static inline int tsr_prim_queue_push(struct tsr_ring *q, const struct tsr_raster_prim *p)
{
	struct tsr_raster_prim *slot = tsr_ring_push_sized(q, sizeof(*slot));
	if (!slot)
		return 0;
	*slot = *p;
	return 1;
}

/* Drops the oldest primitive (the queue must not be empty). */
static inline void tsr_prim_queue_pop(struct tsr_ring *q)
{
	tsr_ring_pop_rewind(q);
}

#endif
