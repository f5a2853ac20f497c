/*
 * tilesets.c - accesses per cache set per tile (boustrophedonic III-E,
 * Fig. 8): how far reversing the tile order approximates reversing each
 * set's access stream. One counter per set, cleared after each tile
 * through the list of sets the tile touched, so a tile costs its accesses,
 * not the number of sets.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_priv.h"

struct tile_work {
	uint32_t *count;    /* accesses of each set in the current tile */
	uint32_t *touched;  /* sets with a non-zero count */
	uint32_t ntouched;
};

/* Closes the current tile: histograms its non-zero counts. */
static void close_tile(struct tile_work *w, struct tsr_tile_sets_result *r)
{
	for (uint32_t t = 0; t < w->ntouched; t++) {
		uint32_t s = w->touched[t], c = w->count[s];
		r->pairs++;
		r->hist[c < TSR_TILE_SET_BINS ? c - 1 : TSR_TILE_SET_BINS - 1]++;
		w->count[s] = 0;
	}
	w->ntouched = 0;
}

enum tsr_status tsr_tile_sets_analyze(const struct tsr_line_trace *lt,
				      const struct tsr_tile_sets_params *p,
				      struct tsr_tile_sets_result *out,
				      struct tsr_error *err)
{
	memset(out, 0, sizeof(*out));
	TSR_TRY(tsr_analysis_check(lt, p->sets, p->stream, err));
	out->sets = p->sets;
	struct tile_work w = {calloc(p->sets, sizeof(uint32_t)),
			      malloc(p->sets * sizeof(uint32_t)), 0};
	if (!w.count || !w.touched) {
		free(w.count);
		free(w.touched);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for %u sets", p->sets);
	}
	int in_tile = 0;
	size_t m = 0;
	for (size_t i = 0; i <= lt->count; i++) {
		for (; m < lt->marker_count && lt->markers[m].pos == i; m++) {
			close_tile(&w, out);
			in_tile = lt->markers[m].kind == TSR_MARKER_TILE;
			out->tiles += in_tile;
		}
		if (i == lt->count)
			break;
		const struct tsr_line_access *a = &lt->accesses[i];
		if (p->stream != TSR_ANALYSIS_ALL_STREAMS && a->stream != p->stream)
			continue;
		if (!in_tile) {
			out->outside++;
			continue;
		}
		uint32_t s = (uint32_t)((a->addr >> lt->line_shift) % p->sets);
		if (w.count[s]++ == 0)
			w.touched[w.ntouched++] = s;
		out->accesses++;
	}
	close_tile(&w, out);
	out->multi_fraction = out->pairs ? (double)(out->pairs - out->hist[0]) / (double)out->pairs
					 : 0.0;
	free(w.count);
	free(w.touched);
	return TSR_OK;
}
