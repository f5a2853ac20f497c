#include "tiling/parameter_buffer.h"

#include <stdlib.h>

#include "core/array.h"
#include <string.h>

struct tile_list {
	uint32_t *prims;      /* primitive indices, program order */
	uint32_t count, cap;
	uint32_t *chunks;     /* overflow chunk numbers of this list */
	uint32_t chunk_count, chunk_cap;
};

struct tsr_param_buffer {
	struct tsr_pb_layout l;
	uint32_t tiles_x, tiles_y;
	struct tile_list *lists;
	uint32_t chunks_used;
	uint64_t attr_cursor;  /* bytes used in PB-Attributes */
};

uint64_t tsr_pb_lists_bytes(uint32_t tiles, uint32_t capacity)
{
	return (uint64_t)tiles * capacity * TSR_PMD_BYTES;
}

enum tsr_status tsr_pb_create(const struct tsr_pb_layout *layout,
			      struct tsr_param_buffer **out,
			      struct tsr_error *err)
{
	struct tsr_param_buffer *pb = calloc(1, sizeof(*pb));
	if (!pb)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	pb->l = *layout;
	pb->tiles_x = (layout->screen_width + layout->tile_width - 1) / layout->tile_width;
	pb->tiles_y = (layout->screen_height + layout->tile_height - 1) / layout->tile_height;
	pb->lists = calloc((size_t)pb->tiles_x * pb->tiles_y, sizeof(*pb->lists));
	if (!pb->lists) {
		free(pb);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	*out = pb;
	return TSR_OK;
}

void tsr_pb_destroy(struct tsr_param_buffer *pb)
{
	if (!pb)
		return;
	for (uint32_t t = 0; t < pb->tiles_x * pb->tiles_y; t++) {
		free(pb->lists[t].prims);
		free(pb->lists[t].chunks);
	}
	free(pb->lists);
	free(pb);
}

uint32_t tsr_pb_tiles_x(const struct tsr_param_buffer *pb)
{
	return pb->tiles_x;
}

uint32_t tsr_pb_tiles_y(const struct tsr_param_buffer *pb)
{
	return pb->tiles_y;
}

void tsr_pb_begin_frame(struct tsr_param_buffer *pb)
{
	for (uint32_t t = 0; t < pb->tiles_x * pb->tiles_y; t++) {
		pb->lists[t].count = 0;
		pb->lists[t].chunk_count = 0;
	}
	pb->chunks_used = 0;
	pb->attr_cursor = 0;
}

int tsr_triangle_overlaps_rect(const struct tsr_primitive *p, int32_t x0,
			       int32_t y0, int32_t x1, int32_t y1)
{
	/* rectangle of pixel centres, fixed point */
	const int64_t one = 1 << TSR_SUBPIXEL_BITS, half = one / 2;
	int64_t rx0 = (int64_t)x0 * one + half, rx1 = (int64_t)x1 * one + half;
	int64_t ry0 = (int64_t)y0 * one + half, ry1 = (int64_t)y1 * one + half;
	for (int i = 0; i < 3; i++) {
		int j = (i + 1) % 3;
		int64_t dx = p->X[j] - p->X[i], dy = p->Y[j] - p->Y[i];
		/* E(P) = dx (Py - Yi) - dy (Px - Xi): take the corner maximising it */
		int64_t px = -dy > 0 ? rx1 : rx0;
		int64_t py = dx > 0 ? ry1 : ry0;
		int64_t e = dx * (py - p->Y[i]) - dy * (px - p->X[i]);
		if (e < 0)
			return 0;
	}
	return 1;
}

/* Makes room for `need` entries in a tile's uint32_t array. */
static enum tsr_status grow(uint32_t **a, uint32_t *cap, uint32_t need,
			    struct tsr_error *err)
{
	uint32_t *r = tsr_array_grow(*a, cap, need, sizeof(**a));
	if (!r)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for tile lists");
	*a = r;
	return TSR_OK;
}

uint64_t tsr_pb_pmd_address(const struct tsr_param_buffer *pb, uint32_t tile,
			    uint32_t i)
{
	uint32_t cap = pb->l.capacity;
	uint32_t chunk = i / cap, slot = i % cap;
	if (chunk == 0)
		return pb->l.lists_base + ((uint64_t)tile * cap + slot) * TSR_PMD_BYTES;
	uint32_t c = pb->lists[tile].chunks[chunk - 1];
	return pb->l.overflow_base + ((uint64_t)c * cap + slot) * TSR_PMD_BYTES;
}

enum tsr_status tsr_plb_bin(struct tsr_param_buffer *pb,
			    struct tsr_primitive *p, uint32_t index,
			    struct tsr_memsys *mem, uint32_t tile_cache,
			    uint32_t *tiles, struct tsr_tiling_stats *st,
			    struct tsr_error *err)
{
	const struct tsr_pb_layout *l = &pb->l;
	uint64_t attr_bytes = (uint64_t)p->attributes * TSR_PB_BLOCK_BYTES;
	*tiles = 0;
	if (pb->attr_cursor + attr_bytes > l->attributes_bytes)
		return tsr_error_set(err, TSR_ERR_LIMIT,
				     "the PB-Attributes region (%llu bytes) is full",
				     (unsigned long long)l->attributes_bytes);
	p->pb_addr = l->attributes_base + pb->attr_cursor;
	uint32_t tx0 = (uint32_t)p->min_x / l->tile_width, tx1 = (uint32_t)p->max_x / l->tile_width;
	uint32_t ty0 = (uint32_t)p->min_y / l->tile_height, ty1 = (uint32_t)p->max_y / l->tile_height;
	for (uint32_t ty = ty0; ty <= ty1; ty++)
		for (uint32_t tx = tx0; tx <= tx1; tx++) {
			int32_t x0 = (int32_t)(tx * l->tile_width), y0 = (int32_t)(ty * l->tile_height);
			int32_t x1 = x0 + (int32_t)l->tile_width - 1, y1 = y0 + (int32_t)l->tile_height - 1;
			x0 = x0 < p->min_x ? p->min_x : x0;
			y0 = y0 < p->min_y ? p->min_y : y0;
			x1 = x1 > p->max_x ? p->max_x : x1;
			y1 = y1 > p->max_y ? p->max_y : y1;
			if (!tsr_triangle_overlaps_rect(p, x0, y0, x1, y1))
				continue;
			uint32_t t = ty * pb->tiles_x + tx;
			struct tile_list *tl = &pb->lists[t];
			enum tsr_status s = grow(&tl->prims, &tl->cap, tl->count + 1, err);
			if (s != TSR_OK)
				return s;
			if (tl->count && tl->count % l->capacity == 0) {
				if (pb->chunks_used == l->overflow_chunks)
					return tsr_error_set(err, TSR_ERR_LIMIT,
							     "the Parameter Buffer list overflow pool (%u chunks of %u PMDs) is exhausted",
							     l->overflow_chunks, l->capacity);
				s = grow(&tl->chunks, &tl->chunk_cap, tl->chunk_count + 1, err);
				if (s != TSR_OK)
					return s;
				tl->chunks[tl->chunk_count++] = pb->chunks_used++;
				st->list_overflows++;
			}
			tl->prims[tl->count] = index;
			tsr_mem_access(mem, tile_cache, tsr_pb_pmd_address(pb, t, tl->count),
				       TSR_PMD_BYTES, 1, TSR_STREAM_PB_LISTS, 0, 0);
			tl->count++;
			st->pmds_written++;
			st->pb_lists_bytes += TSR_PMD_BYTES;
			(*tiles)++;
		}
	if (*tiles == 0)
		return TSR_OK;
	for (uint32_t a = 0; a < p->attributes; a++)
		tsr_mem_access(mem, tile_cache, p->pb_addr + (uint64_t)a * TSR_PB_BLOCK_BYTES,
			       l->attribute_bytes, 1, TSR_STREAM_PB_ATTRIBUTES, 0, 0);
	st->pb_attributes_bytes += (uint64_t)p->attributes * l->attribute_bytes;
	pb->attr_cursor += attr_bytes;
	return TSR_OK;
}

uint32_t tsr_pb_list_length(const struct tsr_param_buffer *pb, uint32_t tile)
{
	return pb->lists[tile].count;
}

const uint32_t *tsr_pb_list(const struct tsr_param_buffer *pb, uint32_t tile)
{
	return pb->lists[tile].prims;
}

const uint32_t *tsr_tile_fetch(const struct tsr_param_buffer *pb,
			       uint32_t tile, const struct tsr_primitive *prims,
			       struct tsr_memsys *mem, uint32_t tile_cache,
			       uint32_t *count, struct tsr_tiling_stats *st)
{
	const struct tile_list *tl = &pb->lists[tile];
	const uint32_t cap = pb->l.capacity;
	uint32_t left_in_read = 0;
	for (uint32_t i = 0; i < tl->count; i++) {
		if (left_in_read == 0) {
			/* one read per run of PMDs sharing a 64-byte block of one chunk */
			uint64_t addr = tsr_pb_pmd_address(pb, tile, i);
			uint32_t n = (uint32_t)(TSR_PB_BLOCK_BYTES - addr % TSR_PB_BLOCK_BYTES) /
				     TSR_PMD_BYTES;
			if (n > cap - i % cap)
				n = cap - i % cap;
			if (n > tl->count - i)
				n = tl->count - i;
			tsr_mem_access(mem, tile_cache, addr, n * TSR_PMD_BYTES, 0,
				       TSR_STREAM_PB_LISTS, 0, 0);
			left_in_read = n;
		}
		left_in_read--;
		const struct tsr_primitive *p = &prims[tl->prims[i]];
		st->pmds_read++;
		for (uint32_t a = 0; a < p->attributes; a++)
			tsr_mem_access(mem, tile_cache, p->pb_addr + (uint64_t)a * TSR_PB_BLOCK_BYTES,
				       pb->l.attribute_bytes, 0, TSR_STREAM_PB_ATTRIBUTES, 0, 0);
	}
	*count = tl->count;
	return tl->prims;
}
