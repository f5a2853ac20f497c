#include "core/array.h"

#include <stdlib.h>

void *tsr_array_grow_to(void *arr, uint32_t *cap, uint32_t need, size_t elem_size)
{
	if (need <= *cap && arr)
		return arr;
	uint32_t c = *cap ? *cap : 16;
	while (c < need)
		c *= 2;
	void *n = realloc(arr, (size_t)c * elem_size);
	if (n)
		*cap = c;
	return n;
}
