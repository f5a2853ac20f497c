/*
 * epochs.c - GSPC Section 2.3: the life of every block between its fill
 * and its eviction, cut into epochs by the hits it enjoys, measured by
 * replaying the trace through one cache (cachesim/replay.h) and keeping
 * the stream and epoch of each (set, way) beside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cachesim/replay.h"

struct epoch_work {
	struct tsr_epoch_result *r;
	uint32_t sets, ways, line_shift;
	uint8_t *valid, *stream, *epoch;  /* per (set, way) */
};

static int is_rt(uint8_t stream)
{
	return stream == TSR_STREAM_COLOR || stream == TSR_STREAM_RENDER_TARGET;
}

static void epoch_visit(void *ctx, uint32_t cache, size_t index, const struct tsr_access *a,
			const struct tsr_cache_outcome *o)
{
	(void)cache;
	(void)index;
	struct epoch_work *w = ctx;
	if (o->bypass)
		return;
	uint8_t as = a->stream < TSR_STREAM_COUNT ? a->stream : TSR_STREAM_OTHER;
	uint32_t set = (uint32_t)(a->addr >> w->line_shift) & (w->sets - 1);
	size_t slot = (size_t)set * w->ways + o->way;
	if (!o->hit) {
		/* a fill (replacing a victim, if any: it died in its epoch) */
		w->valid[slot] = 1;
		w->stream[slot] = as;
		w->epoch[slot] = 0;
		w->r->streams[as].fills++;
		w->r->streams[as].entered[0]++;
		return;
	}
	uint8_t bs = w->stream[slot], k = w->epoch[slot];
	if (as == TSR_STREAM_TEXTURE && is_rt(bs)) {
		/* render target consumed by the texture sampler (RT -> TEX) */
		w->r->inter_stream_hits++;
		w->r->streams[bs].consumed++;
		w->r->streams[TSR_STREAM_TEXTURE].converted++;
		w->r->streams[TSR_STREAM_TEXTURE].entered[0]++;
		w->stream[slot] = TSR_STREAM_TEXTURE;
		w->epoch[slot] = 0;
		return;
	}
	if (as != bs)
		w->r->cross_stream_hits++;
	struct tsr_epoch_stats *st = &w->r->streams[bs];
	st->hits[k]++;
	if (k + 1 < TSR_EPOCHS) {
		w->epoch[slot] = (uint8_t)(k + 1);
		st->entered[k + 1]++;
	}
}

static void finish(struct tsr_epoch_stats *st)
{
	for (int k = 0; k + 1 < TSR_EPOCHS; k++)
		st->death[k] = st->entered[k]
				       ? (double)(st->entered[k] - st->entered[k + 1]) /
						 (double)st->entered[k]
				       : 0.0;
}

enum tsr_status tsr_epochs_analyze(const struct tsr_line_trace *lt,
				   const struct tsr_cache_geometry *g,
				   struct tsr_epoch_result *out, struct tsr_error *err)
{
	memset(out, 0, sizeof(*out));
	if (g->line_bytes != lt->line_bytes)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "cache line of %u bytes does not match the trace's %u-byte lines",
				     g->line_bytes, lt->line_bytes);
	struct tsr_cache *c = NULL;
	TSR_TRY(tsr_cache_create(g, "analyze", &c, err));
	struct epoch_work w = {.r = out, .sets = tsr_cache_sets(c), .ways = g->ways,
			       .line_shift = lt->line_shift};
	size_t slots = (size_t)w.sets * w.ways;
	w.valid = calloc(slots, 1);
	w.stream = calloc(slots, 1);
	w.epoch = calloc(slots, 1);
	if (!w.valid || !w.stream || !w.epoch) {
		free(w.valid);
		free(w.stream);
		free(w.epoch);
		tsr_cache_destroy(c);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for %zu cache blocks", slots);
	}
	snprintf(out->policy, sizeof(out->policy), "%s", g->policy);
	out->sets = w.sets;
	out->ways = w.ways;
	tsr_replay_caches(lt, &c, 1, epoch_visit, &w);

	for (size_t i = 0; i < slots; i++)
		if (w.valid[i])
			out->streams[w.stream[i]].resident[w.epoch[i]]++;
	for (int s = 0; s < TSR_STREAM_COUNT; s++) {
		struct tsr_epoch_stats *st = &out->streams[s];
		out->counters[s] = *tsr_cache_counters_of(c, (enum tsr_stream)s);
		finish(st);
		out->total.fills += st->fills;
		out->total.converted += st->converted;
		out->total.consumed += st->consumed;
		for (int k = 0; k < TSR_EPOCHS; k++) {
			out->total.hits[k] += st->hits[k];
			out->total.entered[k] += st->entered[k];
			out->total.resident[k] += st->resident[k];
		}
	}
	finish(&out->total);
	out->counters_total = tsr_cache_counters_total(c);
	free(w.valid);
	free(w.stream);
	free(w.epoch);
	tsr_cache_destroy(c);
	return TSR_OK;
}
