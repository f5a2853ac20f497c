/*
 * ring.c - allocation of the bounded work-item rings (ring.h); pushing and
 * popping are inline there.
 */
#include "core/ring.h"

#include <stdlib.h>

enum tsr_status tsr_ring_init(struct tsr_ring *r, uint32_t min_capacity, uint32_t item_bytes,
			      struct tsr_error *err)
{
	r->slots = NULL;
	r->item_bytes = item_bytes;
	r->mask = r->head = r->count = 0;
	if (min_capacity == 0 || min_capacity > (UINT32_C(1) << 31) || item_bytes == 0)
		return tsr_error_set(err, TSR_ERR_LIMIT,
				     "queue of %u items of %u bytes: out of range", min_capacity,
				     item_bytes);
	uint32_t cap = 1;
	while (cap < min_capacity)
		cap <<= 1;
	r->slots = calloc(cap, item_bytes);
	if (!r->slots)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a queue of %u items",
				     cap);
	r->mask = cap - 1;
	return TSR_OK;
}

void tsr_ring_release(struct tsr_ring *r)
{
	free(r->slots);
	r->slots = NULL;
	r->mask = r->head = r->count = 0;
}
