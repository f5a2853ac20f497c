/*
 * event_heap.h - the binary min-heap of pending events that the timing
 * units share (timing/dram.c's completions, timing/memtime.c's lookups
 * and fills), ordered by time, then by a sequence number the caller
 * increments, so that events of one cycle come out in the order they were
 * made and runs are deterministic.
 *
 * TSR_EVENT_HEAP_DEFINE(prefix, type, time) defines, for an event struct
 * `type` with a uint64_t member `time` (named by the caller) and a
 * uint64_t member `seq`:
 *   static void prefix_push(type *heap, uint32_t *n, type e);  room assumed
 *   static type prefix_pop(type *heap, uint32_t *n);           *n > 0
 * typed (klib style), so the compiler copies and compares the struct's
 * own fields: a version over bytes and memcpy was 8-13% slower on
 * bench_memtime. The caller owns the array and its capacity; nothing here
 * allocates.
 */
#ifndef TSR_CORE_EVENT_HEAP_H
#define TSR_CORE_EVENT_HEAP_H

#include <stdint.h>

#define TSR_EVENT_HEAP_DEFINE(prefix, type, time)                                          \
	static inline int prefix##_before(const type *a, const type *b)                    \
	{                                                                                  \
		return a->time != b->time ? a->time < b->time : a->seq < b->seq;           \
	}                                                                                  \
	static inline void prefix##_push(type *h, uint32_t *n, type e)                     \
	{                                                                                  \
		uint32_t i = (*n)++;                                                       \
		while (i > 0) {                                                            \
			uint32_t parent = (i - 1) / 2;                                     \
			if (!prefix##_before(&e, &h[parent]))                              \
				break;                                                     \
			h[i] = h[parent];                                                  \
			i = parent;                                                        \
		}                                                                          \
		h[i] = e;                                                                  \
	}                                                                                  \
	static inline type prefix##_pop(type *h, uint32_t *n)                              \
	{                                                                                  \
		type top = h[0], last = h[--(*n)];                                         \
		uint32_t i = 0, m = *n;                                                    \
		for (;;) {                                                                 \
			uint32_t c = 2 * i + 1;                                            \
			if (c >= m)                                                        \
				break;                                                     \
			if (c + 1 < m && prefix##_before(&h[c + 1], &h[c]))                \
				c++;                                                       \
			if (!prefix##_before(&h[c], &last))                                \
				break;                                                     \
			h[i] = h[c];                                                       \
			i = c;                                                             \
		}                                                                          \
		if (m)                                                                     \
			h[i] = last;                                                       \
		return top;                                                                \
	}

#endif
