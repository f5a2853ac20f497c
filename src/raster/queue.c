/*
 * queue.c - allocation of the raster stages' bounded queues (queue.h);
 * pushing and popping are inline there.
 */
#include "raster/queue.h"

#include <stdlib.h>

/* The smallest power of two >= n (1 <= n <= 2^31), in *cap; 0 if out of range. */
static int ring_capacity(uint32_t n, uint32_t *cap)
{
	if (n == 0 || n > (UINT32_C(1) << 31))
		return 0;
	uint32_t c = 1;
	while (c < n)
		c <<= 1;
	*cap = c;
	return 1;
}

enum tsr_status tsr_quad_queue_init(struct tsr_quad_queue *q, uint32_t min_capacity,
				    struct tsr_error *err)
{
	uint32_t cap;
	q->slots = NULL;
	q->mask = q->head = q->count = 0;
	if (!ring_capacity(min_capacity, &cap))
		return tsr_error_set(err, TSR_ERR_LIMIT, "quad queue capacity %u out of range",
				     min_capacity);
	q->slots = malloc((size_t)cap * sizeof(*q->slots));
	if (!q->slots)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	q->mask = cap - 1;
	return TSR_OK;
}

void tsr_quad_queue_release(struct tsr_quad_queue *q)
{
	free(q->slots);
	q->slots = NULL;
	q->mask = q->head = q->count = 0;
}

enum tsr_status tsr_prim_queue_init(struct tsr_prim_queue *q, uint32_t min_capacity,
				    struct tsr_error *err)
{
	uint32_t cap;
	q->slots = NULL;
	q->mask = q->head = q->count = 0;
	if (!ring_capacity(min_capacity, &cap))
		return tsr_error_set(err, TSR_ERR_LIMIT,
				     "primitive queue capacity %u out of range", min_capacity);
	q->slots = malloc((size_t)cap * sizeof(*q->slots));
	if (!q->slots)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	q->mask = cap - 1;
	return TSR_OK;
}

void tsr_prim_queue_release(struct tsr_prim_queue *q)
{
	free(q->slots);
	q->slots = NULL;
	q->mask = q->head = q->count = 0;
}
