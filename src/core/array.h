/*
 * array.h - growth of the library's dynamic arrays (capacity doubling).
 * Used off the hot paths or amortised over frames: arrays keep their
 * capacity from frame to frame, so steady-state frames allocate nothing.
 */
#ifndef TSR_CORE_ARRAY_H
#define TSR_CORE_ARRAY_H

#include <stddef.h>
#include <stdint.h>

/*
 * Returns arr (elements of elem_size bytes) with room for at least `need`
 * elements, doubling *cap from 16, and updates *cap. Returns NULL when out
 * of memory; arr and *cap are then untouched and still the caller's.
 */
void *tsr_array_grow_to(void *arr, uint32_t *cap, uint32_t need, size_t elem_size);

/* tsr_array_grow_to(), its common case (room already) inline. */
static inline void *tsr_array_grow(void *arr, uint32_t *cap, uint32_t need, size_t elem_size)
{
	if (need <= *cap && arr)
		return arr;
	return tsr_array_grow_to(arr, cap, need, elem_size);
}

#endif
