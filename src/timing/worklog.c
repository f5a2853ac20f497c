/*
 * worklog.c - the work items of one tile (worklog.h).
 */
#include "timing/worklog.h"

#include <stdlib.h>
#include <string.h>

#include "core/array.h"

void tsr_worklog_begin(struct tsr_worklog *l, uint32_t tile)
{
	l->tile = tile;
	l->fetch = l->flush = (struct tsr_wl_range){0, 0};
	l->path_count = l->prim_count = l->quad_count = l->seg_count = 0;
	l->mark = 0;
	l->failed = 0;
}

void tsr_worklog_release(struct tsr_worklog *l)
{
	free(l->paths);
	free(l->prims);
	free(l->quads);
	free(l->segs);
	memset(l, 0, sizeof(*l));
}

/* arr (count elements of `size` bytes, *cap allocated) with room for one
 * more, or NULL with the log marked failed */
static void *grow(struct tsr_worklog *l, void *arr, uint32_t *cap, uint32_t count, size_t size)
{
	void *a = tsr_array_grow(arr, cap, count + 1, size);
	if (!a)
		l->failed = 1;
	return a;
}

void tsr_worklog_path(void *log, const struct tsr_mem_path *p)
{
	struct tsr_worklog *l = log;
	if (l->path_count < l->path_cap) {  /* the common case: room (no call) */
		l->paths[l->path_count++] = *p;
		return;
	}
	struct tsr_mem_path *a = grow(l, l->paths, &l->path_cap, l->path_count, sizeof(*a));
	if (!a)
		return;
	l->paths = a;
	a[l->path_count++] = *p;
}

void tsr_worklog_prim(struct tsr_worklog *l, uint32_t attributes, uint32_t quad_count)
{
	struct tsr_wl_prim *a = grow(l, l->prims, &l->prim_cap, l->prim_count, sizeof(*a));
	if (!a)
		return;
	l->prims = a;
	a[l->prim_count++] = (struct tsr_wl_prim){attributes, l->quad_count, quad_count};
}

struct tsr_wl_quad *tsr_worklog_quad(struct tsr_worklog *l, uint32_t core, int killed,
				     uint32_t alu, int textured, int late_z)
{
	struct tsr_wl_quad *a = grow(l, l->quads, &l->quad_cap, l->quad_count, sizeof(*a));
	if (!a || !l->prim_count) {
		l->failed = 1;
		return NULL;
	}
	l->quads = a;
	struct tsr_wl_quad *q = &a[l->quad_count++];
	*q = (struct tsr_wl_quad){.prim = l->prim_count - 1, .alu = alu, .core = (uint16_t)core,
				  .killed = (uint8_t)(killed != 0),
				  .textured = (uint8_t)(textured != 0),
				  .late_z = (uint8_t)(late_z != 0)};
	return q;
}

void tsr_worklog_seg(struct tsr_worklog *l, uint32_t alu, uint32_t sfu, int sample,
		     uint32_t tex_requests)
{
	struct tsr_core_seg *a = grow(l, l->segs, &l->seg_cap, l->seg_count, sizeof(*a));
	if (!a)
		return;
	l->segs = a;
	a[l->seg_count++] = (struct tsr_core_seg){alu, sfu, sample != 0, tex_requests};
}

enum tsr_status tsr_worklog_status(const struct tsr_worklog *l, struct tsr_error *err)
{
	if (l->failed)
		return tsr_error_set(err, TSR_ERR_NOMEM,
				     "out of memory for the timing model's work log of tile %u",
				     l->tile);
	return TSR_OK;
}
