/*
 * queue.c - allocation of the Geometry Pipeline's bounded queues
 * (queue.h); pushing and popping are inline there.
 */
#include "geometry/queue.h"

#include <stdlib.h>

enum tsr_status tsr_geo_queue_init(struct tsr_geo_queue *q, uint32_t capacity,
				   uint32_t item_bytes, struct tsr_error *err)
{
	uint32_t cap = 1;
	while (cap < capacity)
		cap <<= 1;
	q->items = calloc(cap, item_bytes);
	if (!q->items)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a queue of %u items",
				     cap);
	q->item_bytes = item_bytes;
	q->capacity = cap;
	q->head = q->count = 0;
	return TSR_OK;
}

void tsr_geo_queue_release(struct tsr_geo_queue *q)
{
	free(q->items);
	q->items = NULL;
	q->capacity = q->count = q->head = 0;
}
