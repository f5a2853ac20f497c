#include "cachesim/linetrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "core/u64map.h"

enum tsr_status tsr_line_size_check(uint32_t line_bytes, uint32_t *shift, struct tsr_error *err)
{
	if (line_bytes < 4 || line_bytes > 65536 || (line_bytes & (line_bytes - 1)))
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "line size %u is not a power of two from 4 to 65536 bytes",
				     line_bytes);
	for (*shift = 0; (1u << *shift) < line_bytes;)
		++*shift;
	return TSR_OK;
}

/* Clears out and sets its line size, after checking it. */
static enum tsr_status begin(struct tsr_line_trace *out, uint32_t line_bytes,
			     struct tsr_error *err)
{
	memset(out, 0, sizeof(*out));
	TSR_TRY(tsr_line_size_check(line_bytes, &out->line_shift, err));
	out->line_bytes = line_bytes;
	return TSR_OK;
}

/* Lines [first, last] an access of size bytes at addr touches. */
static uint64_t lines_of(uint64_t addr, uint32_t size, uint32_t shift)
{
	uint64_t end = addr + (size ? size : 1) - 1;
	return (end >> shift) - (addr >> shift) + 1;
}

/*
 * Backward pass with a map from line to its latest position (any trace):
 * returns 0 when out of memory.
 */
static int next_use_by_map(struct tsr_line_trace *lt)
{
	struct tsr_u64map last = {0};
	struct tsr_line_access *acc = lt->accesses;
	const uint32_t shift = lt->line_shift;
	uint64_t *slot = NULL;
	uint64_t prev = 0;
	for (size_t i = lt->count; i-- > 0;) {
		const uint64_t line = acc[i].addr >> shift;
		if (!slot || line != prev) {
			slot = tsr_u64map_upsert(&last, line, TSR_NEVER);
			if (!slot) {
				tsr_u64map_release(&last);
				return 0;
			}
			prev = line;
		}
		acc[i].next_use = (uint32_t)*slot;  /* TSR_NEVER: TSR_LINE_NEVER */
		*slot = (uint32_t)i;
	}
	lt->distinct_lines = last.count;
	tsr_u64map_release(&last);
	return 1;
}

/*
 * The same pass over a table of the latest positions of the lines of each
 * 64-line chunk touched (256 bytes a chunk, found through a map from
 * chunk to table and a direct-mapped cache of NU_RECENT recent chunks,
 * 64 KiB: a trace's streams each walk their own region, and a cache of
 * that size finds the chunk of all but a few in a thousand accesses of
 * recorded L2 traces, 16 chunks a twelfth), which takes far fewer cache
 * misses than a map probe per access. A sparse trace, whose tables would
 * take more than `budget` bytes, is left to next_use_by_map(): returns -1
 * then, 0 when out of memory, 1 done.
 */
#define NU_CHUNK_SHIFT 6
#define NU_RECENT 4096

static int next_use_by_chunks(struct tsr_line_trace *lt, size_t budget)
{
	struct tsr_u64map chunks = {0};
	uint32_t (*tab)[1 << NU_CHUNK_SHIFT] = NULL;
	size_t ntab = 0, cap = 0;
	uint64_t distinct = 0;
	/* recent[r]: chunk + 1 (0: none), recent[NU_RECENT + r] its table */
	uint64_t *recent = calloc(2 * NU_RECENT, sizeof(*recent));
	struct tsr_line_access *acc = lt->accesses;
	const uint32_t shift = lt->line_shift;
	int ret = recent ? 1 : 0;
	for (size_t i = recent ? lt->count : 0; i-- > 0;) {
		const uint64_t line = acc[i].addr >> shift, chunk = line >> NU_CHUNK_SHIFT;
		const size_t r = chunk & (NU_RECENT - 1);
		if (recent[r] != chunk + 1) {
			uint64_t *t = tsr_u64map_upsert(&chunks, chunk, UINT64_MAX);
			if (!t) {
				ret = 0;
				break;
			}
			if (*t == UINT64_MAX) {
				if (ntab == cap) {
					size_t nc = cap ? 2 * cap : 256;
					if (nc * sizeof(*tab) > budget) {
						ret = -1;
						break;
					}
					void *nt = realloc(tab, nc * sizeof(*tab));
					if (!nt) {
						ret = 0;
						break;
					}
					tab = nt;
					cap = nc;
				}
				memset(tab[ntab], 0xff, sizeof(*tab));
				*t = ntab++;
			}
			recent[r] = chunk + 1;
			recent[NU_RECENT + r] = *t;
		}
		uint32_t *slot = &tab[recent[NU_RECENT + r]][line & ((1u << NU_CHUNK_SHIFT) - 1)];
		distinct += *slot == TSR_LINE_NEVER;
		acc[i].next_use = *slot;
		*slot = (uint32_t)i;
	}
	if (ret == 1)
		lt->distinct_lines = distinct;
	tsr_u64map_release(&chunks);
	free(tab);
	free(recent);
	return ret;
}

/*
 * Backward pass: next_use of each access = index of the next access to its
 * line. Releases lt on failure.
 */
static enum tsr_status compute_next_use(struct tsr_line_trace *lt, struct tsr_error *err)
{
	/* the chunk tables may take a quarter of the accesses' bytes, 1 MiB at least */
	int r = next_use_by_chunks(lt, lt->count * sizeof(*lt->accesses) / 4 + (1u << 20));
	if (r < 0)
		r = next_use_by_map(lt);
	if (!r) {
		tsr_line_trace_release(lt);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for next uses");
	}
	lt->no_next_uses = 0;
	return TSR_OK;
}

/* TSR_ERR_LIMIT when a line trace of n accesses could not number them. */
static enum tsr_status count_check(size_t n, struct tsr_error *err)
{
	if (n > TSR_LINE_TRACE_MAX)
		return tsr_error_set(err, TSR_ERR_LIMIT,
				     "a trace of %zu line accesses is more than a line trace holds "
				     "(%zu)", n, TSR_LINE_TRACE_MAX);
	return TSR_OK;
}

enum tsr_status tsr_line_trace_build(const struct tsr_trace *t, uint32_t line_bytes,
				     struct tsr_line_trace *out,
				     struct tsr_error *err)
{
	TSR_TRY(begin(out, line_bytes, err));
	size_t n = 0, markers = 0;
	for (size_t i = 0; i < t->count; i++) {
		const struct tsr_trace_record *r = &t->records[i];
		if (r->kind == TSR_TRACE_ACCESS)
			n += lines_of(r->addr, r->size, out->line_shift);
		else
			markers++;
	}
	char what[96];
	snprintf(what, sizeof(what), "a trace of %zu line accesses", n);
	enum tsr_status s = count_check(n, err);
	if (s == TSR_OK)
		s = tsr_memory_check(what, (uint64_t)n * sizeof(*out->accesses) +
						   (uint64_t)markers * sizeof(*out->markers),
				     err);
	if (s != TSR_OK) {
		tsr_line_trace_release(out);
		return s;
	}
	size_t metas = 0;
	for (size_t i = 0; i < t->count; i++)
		if (t->records[i].kind == TSR_TRACE_ACCESS && t->records[i].meta)
			metas += lines_of(t->records[i].addr, t->records[i].size, out->line_shift);
	out->accesses = malloc((n ? n : 1) * sizeof(*out->accesses));
	out->metas = malloc((metas ? metas : 1) * sizeof(*out->metas));
	out->markers = malloc((markers ? markers : 1) * sizeof(*out->markers));
	if (!out->accesses || !out->metas || !out->markers) {
		tsr_line_trace_release(out);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a trace of %zu accesses", n);
	}
	for (size_t i = 0; i < t->count; i++) {
		const struct tsr_trace_record *r = &t->records[i];
		if (r->kind != TSR_TRACE_ACCESS) {
			struct tsr_line_marker *m = &out->markers[out->marker_count++];
			m->pos = out->count;
			m->value = r->addr;
			m->kind = r->kind == TSR_TRACE_FRAME ? TSR_MARKER_FRAME : TSR_MARKER_TILE;
			out->frames += r->kind == TSR_TRACE_FRAME;
			continue;
		}
		/* by the last byte, so that an access ending at 2^64 - 1 is kept */
		const uint64_t mask = ((uint64_t)1 << out->line_shift) - 1;
		const uint64_t last = r->addr + ((r->size ? r->size : 1) - 1);
		for (uint64_t addr = r->addr;;) {
			const uint64_t chunk_last = (addr | mask) < last ? (addr | mask) : last;
			out->accesses[out->count++] = (struct tsr_line_access){
				.addr = addr,
				.next_use = TSR_LINE_NEVER,
				.size_m1 = (uint16_t)(chunk_last - addr),
				.stream = r->stream,
				.flags = tsr_line_flags(r->write, r->meta)};
			if (r->meta)
				out->metas[out->meta_count++] = r->meta;
			if (chunk_last == last)
				break;
			addr = chunk_last + 1;
		}
	}
	return compute_next_use(out, err);
}

enum tsr_status tsr_line_trace_from_accesses(const struct tsr_access *acc, size_t n,
					     uint32_t line_bytes,
					     struct tsr_line_trace *out,
					     struct tsr_error *err)
{
	TSR_TRY(begin(out, line_bytes, err));
	TSR_TRY(count_check(n, err));
	out->accesses = malloc((n ? n : 1) * sizeof(*out->accesses));
	out->metas = malloc((n ? n : 1) * sizeof(*out->metas));
	if (!out->accesses || !out->metas) {
		tsr_line_trace_release(out);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a trace of %zu accesses", n);
	}
	for (size_t i = 0; i < n; i++) {
		out->accesses[i] = tsr_line_access_of(&acc[i]);
		if (acc[i].meta)
			out->metas[out->meta_count++] = acc[i].meta;
	}
	out->count = n;
	return compute_next_use(out, err);
}

enum tsr_status tsr_line_trace_index(struct tsr_line_trace *lt, struct tsr_error *err)
{
	return compute_next_use(lt, err);
}

enum tsr_status tsr_line_trace_append(struct tsr_line_trace *lt, size_t *cap, size_t *meta_cap,
				      const struct tsr_access *a, struct tsr_error *err)
{
	if (lt->count == *cap) {
		size_t nc = *cap ? *cap * 2 : 1u << 16;
		if (nc > TSR_LINE_TRACE_MAX)
			nc = TSR_LINE_TRACE_MAX;
		TSR_TRY(count_check(lt->count + 1, err));
		struct tsr_line_access *p = realloc(lt->accesses, nc * sizeof(*p));
		if (!p)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a line trace");
		lt->accesses = p;
		*cap = nc;
	}
	if (a->meta && lt->meta_count == *meta_cap) {
		size_t nc = *meta_cap ? *meta_cap * 2 : 1u << 14;
		uint32_t *p = realloc(lt->metas, nc * sizeof(*p));
		if (!p)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a line trace");
		lt->metas = p;
		*meta_cap = nc;
	}
	if (a->meta)
		lt->metas[lt->meta_count++] = a->meta;
	lt->accesses[lt->count++] = tsr_line_access_of(a);
	return TSR_OK;
}

void tsr_line_trace_release(struct tsr_line_trace *lt)
{
	free(lt->accesses);
	free(lt->metas);
	free(lt->markers);
	memset(lt, 0, sizeof(*lt));
}
