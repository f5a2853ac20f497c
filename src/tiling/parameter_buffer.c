#include "tiling/parameter_buffer.h"

#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "core/array.h"
#include "memory/pb_meta.h"

struct tile_list {
	uint32_t *prims;      /* primitive indices, program order */
	uint32_t *opt;        /* OPT Number of each PMD: position of the primitive's
				 next tile, TSR_PB_NEVER if this is its last */
	uint32_t count, cap, opt_cap;
	uint32_t *chunks;     /* overflow chunk numbers of this list */
	uint32_t chunk_count, chunk_cap;
};

/*
 * A piece of a growable region: the layout's region first, then the ones
 * appended to the address map (parameter_buffer.h).
 */
struct segment {
	uint64_t base;   /* byte address */
	uint64_t size;   /* PB-Attributes: bytes; overflow pool: chunks */
	uint64_t first;  /* overflow pool: number of its first chunk */
};

struct segments {
	struct segment *s;
	uint32_t count, cap;
	uint64_t total;  /* bytes or chunks in all segments */
};

struct tsr_param_buffer {
	struct tsr_pb_layout l;
	uint32_t tiles_x, tiles_y;
	struct tile_list *lists;
	uint32_t chunks_used;
	struct segments attr;  /* PB-Attributes */
	struct segments pool;  /* list overflow chunks */
	uint32_t attr_seg;     /* PB-Attributes segment being filled ... */
	uint64_t attr_cursor;  /* ... and the bytes used in it */
	uint32_t frame;        /* frame being binned and fetched */
	uint32_t *pos;         /* tiles: position of each tile in this frame's order */
	uint32_t *scratch;     /* tiles: the tiles (then positions) of one primitive */
	struct prim_use {
		uint32_t first, last;  /* positions of its first and last tiles */
	} *use;                /* per primitive index */
	uint32_t use_cap;
	struct tsr_pb_attribute_port ac;  /* TCOR Attribute Cache (ac.read non-NULL) */
	uint32_t queue_depth;       /* Tile Fetcher output queue (locked primitives) */
	uint64_t *queue;            /* Primitive IDs in the output queue (ring) */
	uint32_t q_head, q_len;
};

uint64_t tsr_pb_lists_bytes(uint32_t tiles, uint32_t capacity)
{
	return (uint64_t)tiles * capacity * TSR_PMD_BYTES;
}

static enum tsr_status segments_add(struct segments *g, uint64_t base, uint64_t size,
				    struct tsr_error *err)
{
	struct segment *n = tsr_array_grow(g->s, &g->cap, g->count + 1, sizeof(*n));
	if (!n)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the Parameter Buffer");
	g->s = n;
	g->s[g->count++] = (struct segment){base, size, g->total};
	g->total += size;
	return TSR_OK;
}

/*
 * Appends a segment of at least `need` units (bytes or chunks), twice what
 * the region holds so far, as a new address-map region after all others.
 */
static enum tsr_status segments_grow(struct tsr_param_buffer *pb, struct segments *g,
				     const char *name, uint64_t need, uint64_t unit_bytes,
				     enum tsr_stream stream, struct tsr_error *err)
{
	uint64_t size = g->total > need ? g->total : need;
	const struct tsr_pb_layout *l = &pb->l;
	uint64_t chunk = tsr_pb_lists_bytes(1, l->capacity);
	uint64_t now = tsr_pb_lists_bytes(pb->tiles_x * pb->tiles_y, l->capacity) +
		       pb->pool.total * chunk + pb->attr.total;
	if (l->max_bytes && now + size * unit_bytes > l->max_bytes) {
		/* grow by what is needed only, if that still fits */
		size = need;
		if (now + size * unit_bytes > l->max_bytes)
			return tsr_error_set(err, TSR_ERR_LIMIT,
					     "the Parameter Buffer needs more than its limit of "
					     "%llu MiB in frame %u (%llu MiB in use; raise "
					     "'tiling.pb_max_mib')",
					     (unsigned long long)(l->max_bytes >> 20), pb->frame,
					     (unsigned long long)(now >> 20));
	}
	char region[64];
	snprintf(region, sizeof(region), "%s.grow%u", name, g->count);
	uint64_t base;
	TSR_TRY(tsr_addrmap_add(pb->l.map, region, size * unit_bytes, stream, &base, err));
	return segments_add(g, base, size, err);
}

/* Frees the tile lists of pb's grid. */
static void lists_free(struct tile_list *lists, size_t tiles)
{
	for (size_t t = 0; lists && t < tiles; t++) {
		free(lists[t].prims);
		free(lists[t].opt);
		free(lists[t].chunks);
	}
	free(lists);
}

/* The tile lists, tile positions and scratch of a screen_width x
 * screen_height grid, replacing pb's when all are allocated. */
static enum tsr_status grid_alloc(struct tsr_param_buffer *pb, uint32_t screen_width,
				  uint32_t screen_height, struct tsr_error *err)
{
	const struct tsr_pb_layout *l = &pb->l;
	const uint32_t tx = (screen_width + l->tile_width - 1) / l->tile_width;
	const uint32_t ty = (screen_height + l->tile_height - 1) / l->tile_height;
	const size_t tiles = (size_t)tx * ty;
	struct tile_list *lists = calloc(tiles, sizeof(*lists));
	uint32_t *pos = malloc(tiles * sizeof(*pos));
	uint32_t *scratch = malloc(2 * tiles * sizeof(*scratch));
	if (!lists || !pos || !scratch) {
		free(lists);
		free(pos);
		free(scratch);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the Parameter Buffer");
	}
	for (size_t t = 0; t < tiles; t++)
		pos[t] = (uint32_t)t;
	lists_free(pb->lists, (size_t)pb->tiles_x * pb->tiles_y);
	free(pb->pos);
	free(pb->scratch);
	pb->lists = lists;
	pb->pos = pos;
	pb->scratch = scratch;
	pb->tiles_x = tx;
	pb->tiles_y = ty;
	return TSR_OK;
}

enum tsr_status tsr_pb_create(const struct tsr_pb_layout *layout,
			      struct tsr_param_buffer **out,
			      struct tsr_error *err)
{
	struct tsr_param_buffer *pb = calloc(1, sizeof(*pb));
	if (!pb)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	pb->l = *layout;
	enum tsr_status s = grid_alloc(pb, layout->screen_width, layout->screen_height, err);
	if (s == TSR_OK)
		s = segments_add(&pb->attr, layout->attributes_base, layout->attributes_bytes, err);
	if (s == TSR_OK)
		s = segments_add(&pb->pool, layout->overflow_base, layout->overflow_chunks, err);
	if (s != TSR_OK) {
		tsr_pb_destroy(pb);
		return s;
	}
	*out = pb;
	return TSR_OK;
}

enum tsr_status tsr_pb_regrid(struct tsr_param_buffer *pb, uint32_t screen_width,
			      uint32_t screen_height, uint64_t lists_base,
			      struct tsr_error *err)
{
	TSR_TRY(grid_alloc(pb, screen_width, screen_height, err));
	pb->l.screen_width = screen_width;
	pb->l.screen_height = screen_height;
	pb->l.lists_base = lists_base;
	return TSR_OK;
}

void tsr_pb_destroy(struct tsr_param_buffer *pb)
{
	if (!pb)
		return;
	lists_free(pb->lists, (size_t)pb->tiles_x * pb->tiles_y);
	free(pb->pos);
	free(pb->scratch);
	free(pb->use);
	free(pb->queue);
	free(pb->attr.s);
	free(pb->pool.s);
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

enum tsr_status tsr_pb_set_attribute_cache(struct tsr_param_buffer *pb,
					   const struct tsr_pb_attribute_port *port,
					   uint32_t queue_depth, struct tsr_error *err)
{
	free(pb->queue);
	pb->queue = NULL;
	memset(&pb->ac, 0, sizeof(pb->ac));
	if (port)
		pb->ac = *port;
	pb->queue_depth = queue_depth ? queue_depth : 1;
	pb->q_head = pb->q_len = 0;
	if (pb->ac.read && !(pb->queue = malloc(pb->queue_depth * sizeof(*pb->queue))))
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the output queue");
	return TSR_OK;
}

void tsr_pb_begin_frame(struct tsr_param_buffer *pb, const uint32_t *order, uint32_t frame)
{
	if (pb->ac.read)
		pb->ac.reset(pb->ac.ctx);  /* last frame's Parameter Buffer is dead */
	pb->q_head = pb->q_len = 0;
	uint32_t tiles = pb->tiles_x * pb->tiles_y;
	for (uint32_t i = 0; order && i < tiles; i++)
		pb->pos[order[i]] = i;
	pb->frame = frame;
	for (uint32_t t = 0; t < pb->tiles_x * pb->tiles_y; t++) {
		pb->lists[t].count = 0;
		pb->lists[t].chunk_count = 0;
	}
	pb->chunks_used = 0;
	pb->attr_seg = 0;
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
	if (chunk == 0 && pb->l.interleaved) {
		/* TCOR III-B: section k holds the k-th block of every tile's list */
		const uint32_t per_block = TSR_PB_BLOCK_BYTES / TSR_PMD_BYTES;
		uint64_t k = slot / per_block, tiles = (uint64_t)pb->tiles_x * pb->tiles_y;
		return pb->l.lists_base + (k * tiles + tile) * TSR_PB_BLOCK_BYTES +
		       (uint64_t)(slot % per_block) * TSR_PMD_BYTES;
	}
	if (chunk == 0)
		return pb->l.lists_base + ((uint64_t)tile * cap + slot) * TSR_PMD_BYTES;
	uint32_t c = pb->lists[tile].chunks[chunk - 1];
	const struct segment *g = pb->pool.s;
	while (c >= g->first + g->size)
		g++;
	return g->base + ((c - g->first) * cap + slot) * TSR_PMD_BYTES;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Most primitives overlap a few tiles: below this, sorting and searching
 * a primitive's tile positions need no library call. */
#define FEW_TILES 16u

static void sort_u32(uint32_t *a, uint32_t n)
{
	if (n > FEW_TILES) {
		qsort(a, n, sizeof(*a), cmp_u32);
		return;
	}
	for (uint32_t i = 1; i < n; i++) {
		const uint32_t x = a[i];
		uint32_t j = i;
		for (; j > 0 && a[j - 1] > x; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

/* The index of key in sorted[0, n) (it is there). */
static uint32_t rank_u32(const uint32_t *sorted, uint32_t n, uint32_t key)
{
	if (n > FEW_TILES)
		return (uint32_t)((const uint32_t *)bsearch(&key, sorted, n, sizeof(*sorted), cmp_u32) -
				  sorted);
	uint32_t k = 0;
	while (sorted[k] != key)
		k++;
	return k;
}

enum tsr_status tsr_plb_bin(struct tsr_param_buffer *pb,
			    struct tsr_primitive *p, uint32_t index,
			    struct tsr_memsys *mem,
			    uint32_t *tiles, struct tsr_tiling_stats *st,
			    struct tsr_error *err)
{
	const uint32_t lists_port = tsr_memsys_port(mem, TSR_STREAM_PB_LISTS, 0);
	const uint32_t attr_port = tsr_memsys_port(mem, TSR_STREAM_PB_ATTRIBUTES, 0);
	const struct tsr_pb_layout *l = &pb->l;
	uint64_t attr_bytes = (uint64_t)p->attributes * TSR_PB_BLOCK_BYTES;
	*tiles = 0;
	/* a primitive's attributes stay in one segment */
	while (pb->attr_cursor + attr_bytes > pb->attr.s[pb->attr_seg].size) {
		if (pb->attr_seg + 1 == pb->attr.count) {
			if (!l->map)
				return tsr_error_set(err, TSR_ERR_LIMIT,
						     "the PB-Attributes region (%llu bytes) is full",
						     (unsigned long long)l->attributes_bytes);
			TSR_TRY(segments_grow(pb, &pb->attr, "pb_attributes", attr_bytes, 1,
					      TSR_STREAM_PB_ATTRIBUTES, err));
		}
		pb->attr_seg++;
		pb->attr_cursor = 0;
	}
	p->pb_addr = pb->attr.s[pb->attr_seg].base + pb->attr_cursor;
	/* the tiles the primitive truly overlaps, row-major */
	uint32_t n = 0;
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
			if (tsr_triangle_overlaps_rect(p, x0, y0, x1, y1))
				pb->scratch[n++] = ty * pb->tiles_x + tx;
		}
	if (n == 0)
		return TSR_OK;
	/*
	 * OPT Numbers (TCOR III-A): the positions of those tiles in this
	 * frame's order, sorted, give each PMD the position of the primitive's
	 * next tile; the first is the attribute writes' OPT Number, the last
	 * the tile after which the primitive is dead (III-D).
	 */
	uint32_t *sorted = pb->scratch + pb->tiles_x * pb->tiles_y;
	for (uint32_t i = 0; i < n; i++)
		sorted[i] = pb->pos[pb->scratch[i]];
	sort_u32(sorted, n);
	struct prim_use *use = tsr_array_grow(pb->use, &pb->use_cap, index + 1, sizeof(*use));
	if (!use)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for tile lists");
	pb->use = use;
	use[index].first = sorted[0];
	use[index].last = sorted[n - 1];
	enum tsr_status s;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t t = pb->scratch[i];
		struct tile_list *tl = &pb->lists[t];
		s = grow(&tl->prims, &tl->cap, tl->count + 1, err);
		if (s == TSR_OK)
			s = grow(&tl->opt, &tl->opt_cap, tl->count + 1, err);
		if (s != TSR_OK)
			return s;
		if (tl->count && tl->count % l->capacity == 0) {
			if (pb->chunks_used == pb->pool.total) {
				if (!l->map)
					return tsr_error_set(err, TSR_ERR_LIMIT,
							     "the Parameter Buffer list overflow pool (%u chunks of %u PMDs) is exhausted",
							     l->overflow_chunks, l->capacity);
				s = segments_grow(pb, &pb->pool, "pb_lists_overflow", 16,
						  tsr_pb_lists_bytes(1, l->capacity),
						  TSR_STREAM_PB_LISTS, err);
				if (s != TSR_OK)
					return s;
			}
			s = grow(&tl->chunks, &tl->chunk_cap, tl->chunk_count + 1, err);
			if (s != TSR_OK)
				return s;
			tl->chunks[tl->chunk_count++] = pb->chunks_used++;
			st->list_overflows++;
		}
		const uint32_t k = rank_u32(sorted, n, pb->pos[t]);
		tl->prims[tl->count] = index;
		tl->opt[tl->count] = k + 1 < n ? sorted[k + 1] : TSR_PB_NEVER;
		tsr_mem_access(mem, lists_port, tsr_pb_pmd_address(pb, t, tl->count),
			       TSR_PMD_BYTES, 1, TSR_STREAM_PB_LISTS, 0,
			       tsr_pb_meta(TSR_PB_LISTS, pb->pos[t], pb->frame), NULL);
		tl->count++;
		st->pmds_written++;
		st->pb_lists_bytes += TSR_PMD_BYTES;
	}
	*tiles = n;
	uint32_t attr_meta = tsr_pb_meta(TSR_PB_ATTRIBUTES, sorted[n - 1], pb->frame);
	if (pb->ac.read) {
		/* TCOR III-C-4: one write per primitive, OPT Number = its first tile */
		if (pb->ac.write(pb->ac.ctx, p->pb_addr, p->attributes, sorted[0], attr_meta) < 0)
			return tsr_error_set(err, TSR_ERR_INTERNAL,
					     "the Attribute Cache refused primitive %u (%u attributes)",
					     index, p->attributes);
	} else {
		for (uint32_t a = 0; a < p->attributes; a++)
		tsr_mem_access(mem, attr_port, p->pb_addr + (uint64_t)a * TSR_PB_BLOCK_BYTES,
				       l->attribute_write_bytes ? l->attribute_write_bytes
								: l->attribute_bytes,
				       1, TSR_STREAM_PB_ATTRIBUTES, 0, attr_meta, NULL);
	}
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

/* The Rasterizer consumes the oldest primitive of the output queue. */
static void consume_oldest(struct tsr_param_buffer *pb)
{
	pb->ac.consume(pb->ac.ctx, pb->queue[pb->q_head]);
	pb->q_head = (pb->q_head + 1) % pb->queue_depth;
	pb->q_len--;
}

/*
 * TCOR III-C-3: the Tile Fetcher reads a primitive through the Attribute
 * Cache (OPT Number from its PMD) and pushes it on the output queue, where
 * it stays locked until the Rasterizer consumes it. A full queue, or a
 * read that finds every candidate locked, makes the Rasterizer consume
 * the oldest first.
 */
static void fetch_to_queue(struct tsr_param_buffer *pb, const struct tsr_primitive *p,
			   uint32_t opt, uint32_t meta)
{
	if (pb->q_len == pb->queue_depth)
		consume_oldest(pb);
	while (pb->ac.read(pb->ac.ctx, p->pb_addr, p->attributes, opt, meta) == 1 &&
	       pb->q_len)
		consume_oldest(pb);
	pb->queue[(pb->q_head + pb->q_len++) % pb->queue_depth] = p->pb_addr;
}

/* primitives ahead of the one read whose state the host prefetches */
#define TILE_FETCH_AHEAD 2u

const uint32_t *tsr_tile_fetch(struct tsr_param_buffer *pb,
			       uint32_t tile, const struct tsr_primitive *prims,
			       struct tsr_memsys *mem,
			       uint32_t *count, struct tsr_tiling_stats *st)
{
	const uint32_t lists_port = tsr_memsys_port(mem, TSR_STREAM_PB_LISTS, 0);
	const uint32_t attr_port = tsr_memsys_port(mem, TSR_STREAM_PB_ATTRIBUTES, 0);
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
			tsr_mem_access(mem, lists_port, addr, n * TSR_PMD_BYTES, 0,
				       TSR_STREAM_PB_LISTS, 0,
				       tsr_pb_meta(TSR_PB_LISTS, pb->pos[tile], pb->frame), NULL);
			left_in_read = n;
		}
		left_in_read--;
		if (i + 2 * TILE_FETCH_AHEAD < tl->count)
			__builtin_prefetch(&prims[tl->prims[i + 2 * TILE_FETCH_AHEAD]]);
		if (i + TILE_FETCH_AHEAD < tl->count && !pb->ac.read) {
			/* the host's caches only: the sets the attribute reads of
			 * a primitive a few ahead will look up (most miss), that
			 * primitive prefetched as many steps before */
			const struct tsr_primitive *q = &prims[tl->prims[i + TILE_FETCH_AHEAD]];
			for (uint32_t a = 0; a < q->attributes; a++)
				tsr_mem_prefetch_miss(mem, attr_port,
						      q->pb_addr + (uint64_t)a * TSR_PB_BLOCK_BYTES);
			__builtin_prefetch(&pb->use[tl->prims[i + TILE_FETCH_AHEAD]]);
		}
		const struct tsr_primitive *p = &prims[tl->prims[i]];
		uint32_t meta = tsr_pb_meta(TSR_PB_ATTRIBUTES, pb->use[tl->prims[i]].last, pb->frame);
		st->pmds_read++;
		if (pb->ac.read) {
			fetch_to_queue(pb, p, tl->opt[i], meta);
			continue;
		}
		for (uint32_t a = 0; a < p->attributes; a++)
			tsr_mem_access(mem, attr_port, p->pb_addr + (uint64_t)a * TSR_PB_BLOCK_BYTES,
				       pb->l.attribute_bytes, 0, TSR_STREAM_PB_ATTRIBUTES, 0, meta, NULL);
	}
	/* the Rasterizer consumes the tile's last primitives */
	while (pb->ac.read && pb->q_len)
		consume_oldest(pb);
	*count = tl->count;
	return tl->prims;
}

const uint32_t *tsr_plb_overlapped_tiles(const struct tsr_param_buffer *pb)
{
	return pb->scratch;
}

const uint32_t *tsr_pb_opt_numbers(const struct tsr_param_buffer *pb, uint32_t tile)
{
	return pb->lists[tile].opt;
}

uint32_t tsr_pb_first_use(const struct tsr_param_buffer *pb, uint32_t index)
{
	return pb->use[index].first;
}

uint32_t tsr_pb_last_use(const struct tsr_param_buffer *pb, uint32_t index)
{
	return pb->use[index].last;
}

uint32_t tsr_pb_tile_position(const struct tsr_param_buffer *pb, uint32_t tile)
{
	return pb->pos[tile];
}
