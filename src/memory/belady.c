#include "memory/belady.h"

#include <stdlib.h>

#define NOT_IN_HEAP UINT32_MAX

struct tsr_belady {
	uint32_t ways;
	uint64_t *next;    /* sets x ways: next use of each line */
	uint32_t *heap;    /* sets x ways: per set, ways in heap order */
	uint32_t *pos;     /* sets x ways: index of each way in its heap */
	uint32_t *size;    /* sets: ways in the heap */
};

enum tsr_status tsr_belady_create(uint32_t sets, uint32_t ways,
				  struct tsr_belady **out, struct tsr_error *err)
{
	size_t n = (size_t)sets * ways;
	struct tsr_belady *b = calloc(1, sizeof(*b));
	if (b) {
		b->ways = ways;
		b->next = malloc(n * sizeof(*b->next));
		b->heap = malloc(n * sizeof(*b->heap));
		b->pos = malloc(n * sizeof(*b->pos));
		b->size = calloc(sets, sizeof(*b->size));
	}
	if (!b || !b->next || !b->heap || !b->pos || !b->size) {
		tsr_belady_destroy(b);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for OPT state");
	}
	for (size_t i = 0; i < n; i++) {
		b->next[i] = TSR_NEVER;
		b->pos[i] = NOT_IN_HEAP;
	}
	*out = b;
	return TSR_OK;
}

void tsr_belady_destroy(struct tsr_belady *b)
{
	if (!b)
		return;
	free(b->next);
	free(b->heap);
	free(b->pos);
	free(b->size);
	free(b);
}

/* Does way x rank above way y (farther next use; lower way on a tie)? */
static int above(const uint64_t *next, uint32_t x, uint32_t y)
{
	return next[x] > next[y] || (next[x] == next[y] && x < y);
}

static void place(uint32_t *heap, uint32_t *pos, uint32_t i, uint32_t way)
{
	heap[i] = way;
	pos[way] = i;
}

void tsr_belady_update(struct tsr_belady *b, uint32_t set, uint32_t way,
		       uint64_t next_use)
{
	size_t base = (size_t)set * b->ways;
	uint64_t *next = &b->next[base];
	uint32_t *heap = &b->heap[base], *pos = &b->pos[base];
	uint32_t n = b->size[set];
	next[way] = next_use;
	uint32_t i = pos[way];
	if (i == NOT_IN_HEAP) {
		i = n++;
		b->size[set] = n;
		place(heap, pos, i, way);
	}
	/* sift up */
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (!above(next, way, heap[p]))
			break;
		place(heap, pos, i, heap[p]);
		i = p;
	}
	/* sift down */
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		uint32_t mw = way;
		if (l < n && above(next, heap[l], mw)) {
			m = l;
			mw = heap[l];
		}
		if (r < n && above(next, heap[r], mw)) {
			m = r;
			mw = heap[r];
		}
		if (m == i)
			break;
		place(heap, pos, i, mw);
		i = m;
	}
	place(heap, pos, i, way);
}

uint32_t tsr_belady_farthest(const struct tsr_belady *b, uint32_t set)
{
	return b->heap[(size_t)set * b->ways];
}

uint64_t tsr_belady_next_use(const struct tsr_belady *b, uint32_t set, uint32_t way)
{
	return b->next[(size_t)set * b->ways + way];
}

enum tsr_status tsr_belady_policy_create(const struct tsr_policy_config *cfg,
					 const char *name, void **state,
					 struct tsr_error *err)
{
	static const char *const keys[] = {NULL};
	TSR_TRY(tsr_policy_params_parse(cfg, name, keys, NULL, NULL, NULL, err));
	return tsr_belady_create(cfg->sets, cfg->ways, (struct tsr_belady **)state, err);
}

void tsr_belady_policy_destroy(void *state)
{
	tsr_belady_destroy(state);
}

void tsr_belady_policy_touch(void *state, uint32_t set, uint32_t way,
			     const struct tsr_line *set_lines,
			     const struct tsr_access *a)
{
	(void)set_lines;
	tsr_belady_update(state, set, way, a->next_use);
}
