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
 * Backward pass: next_use of each access = index of the next access to its
 * line. Releases lt on failure.
 */
static enum tsr_status compute_next_use(struct tsr_line_trace *lt, struct tsr_error *err)
{
	struct tsr_u64map last = {0};
	for (size_t i = lt->count; i-- > 0;) {
		uint64_t *slot = tsr_u64map_upsert(&last, lt->accesses[i].addr >> lt->line_shift,
						   TSR_NEVER);
		if (!slot) {
			tsr_u64map_release(&last);
			tsr_line_trace_release(lt);
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for next uses");
		}
		lt->accesses[i].next_use = *slot;
		*slot = i;
	}
	lt->distinct_lines = last.count;
	lt->no_next_uses = 0;
	tsr_u64map_release(&last);
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
	enum tsr_status s = tsr_memory_check(what, (uint64_t)n * sizeof(*out->accesses) +
						   (uint64_t)markers * sizeof(*out->markers),
					     err);
	if (s != TSR_OK) {
		tsr_line_trace_release(out);
		return s;
	}
	out->accesses = malloc((n ? n : 1) * sizeof(*out->accesses));
	out->markers = malloc((markers ? markers : 1) * sizeof(*out->markers));
	if (!out->accesses || !out->markers) {
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
			struct tsr_access *a = &out->accesses[out->count++];
			*a = (struct tsr_access){.addr = addr,
						 .size = (uint32_t)(chunk_last - addr + 1),
						 .write = r->write,
						 .stream = r->stream,
						 .requester = r->requester,
						 .meta = r->meta,
						 .next_use = TSR_NEVER};
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
	out->accesses = malloc((n ? n : 1) * sizeof(*out->accesses));
	if (!out->accesses)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a trace of %zu accesses", n);
	if (n)
		memcpy(out->accesses, acc, n * sizeof(*acc));
	out->count = n;
	return compute_next_use(out, err);
}

enum tsr_status tsr_line_trace_index(struct tsr_line_trace *lt, struct tsr_error *err)
{
	return compute_next_use(lt, err);
}

void tsr_line_trace_release(struct tsr_line_trace *lt)
{
	free(lt->accesses);
	free(lt->markers);
	memset(lt, 0, sizeof(*lt));
}
