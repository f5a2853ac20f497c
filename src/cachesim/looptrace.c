#include "cachesim/looptrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachesim/replay.h"

#define LOOP_LINE 64u

enum tsr_status tsr_loop_trace_build(uint32_t s, uint32_t sets, uint32_t iters,
				     int reverse_odd, uint32_t line_bytes,
				     struct tsr_line_trace *out, struct tsr_error *err)
{
	memset(out, 0, sizeof(*out));
	if (!s || !sets || !iters)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "a loop trace needs s, sets and iterations above 0 "
				     "(s=%u sets=%u iterations=%u)", s, sets, iters);
	size_t n = (size_t)s * sets * iters, i = 0;
	struct tsr_access *acc = malloc(n * sizeof(*acc));
	if (!acc)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a loop trace of %zu accesses", n);
	for (uint32_t it = 0; it < iters; it++)
		for (uint32_t k = 0; k < s; k++) {
			uint32_t b = reverse_odd && it % 2 ? s - 1 - k : k;
			for (uint32_t set = 0; set < sets; set++)
				acc[i++] = (struct tsr_access){
					.addr = ((uint64_t)b * sets + set) * line_bytes, .size = 4,
					.stream = TSR_STREAM_TEXTURE, .next_use = TSR_NEVER};
		}
	enum tsr_status st = tsr_line_trace_from_accesses(acc, n, line_bytes, out, err);
	free(acc);
	TSR_TRY(st);
	out->markers = malloc(iters * sizeof(*out->markers));
	if (!out->markers) {
		tsr_line_trace_release(out);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a loop trace's markers");
	}
	for (uint32_t it = 0; it < iters; it++)
		out->markers[it] = (struct tsr_line_marker){
			.pos = (size_t)it * s * sets, .value = it, .kind = TSR_MARKER_FRAME};
	out->marker_count = iters;
	out->frames = iters;
	return TSR_OK;
}

/* Per-iteration miss counts of a replay. */
struct loop_count {
	size_t per_iter_accesses;
	uint32_t *per_iter;
};

static void count_miss(void *ctx, uint32_t cache, size_t index, const struct tsr_access *a,
		       const struct tsr_cache_outcome *o)
{
	(void)cache;
	(void)a;
	struct loop_count *lc = ctx;
	lc->per_iter[index / lc->per_iter_accesses] += !o->hit;
}

enum tsr_status tsr_loop_misses(const char *policy, uint32_t s, uint32_t j, uint32_t sets,
				uint32_t iters, int reverse_odd, uint32_t *per_iter,
				struct tsr_error *err)
{
	struct tsr_line_trace lt;
	TSR_TRY(tsr_loop_trace_build(s, sets, iters, reverse_odd, LOOP_LINE, &lt, err));
	struct tsr_cache_geometry g;
	memset(&g, 0, sizeof(g));
	g.size_bytes = sets * j * LOOP_LINE;
	g.ways = j;
	g.line_bytes = LOOP_LINE;
	g.latency_cycles = 1;
	g.fetch_on_write = 1;
	snprintf(g.policy, sizeof(g.policy), "%s", policy);
	struct tsr_cache *c = NULL;
	enum tsr_status st = tsr_cache_create(&g, policy, &c, err);
	if (st == TSR_OK) {
		memset(per_iter, 0, iters * sizeof(*per_iter));
		struct loop_count lc = {.per_iter_accesses = (size_t)s * sets, .per_iter = per_iter};
		struct tsr_cache *const caches[] = {c};
		tsr_replay_caches(&lt, caches, 1, count_miss, &lc);
		tsr_cache_destroy(c);
	}
	tsr_line_trace_release(&lt);
	return st;
}
