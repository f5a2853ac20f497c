/*
 * frames.c - intra- and inter-frame reuse and the inter-iteration reuse
 * distance between consecutive frames (boustrophedonic III-A and III-D).
 *
 * One forward pass classifies the accesses and collects F_f, the first
 * access to each line in each frame; one backward pass per frame collects
 * L_f, the last accesses. The IIRD of a pair of frames is then the stack
 * distance, per set, of the second occurrence of each line in
 * L_f ++ F_{f+1} (and in L_f ++ reverse(L_{f+1})): every line occurs at
 * most once in each half, so a line's second occurrence is exactly its
 * reuse across the frames, and its stack distance the number of distinct
 * lines in between.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_priv.h"

/* Start of every frame (see struct tsr_frames_result), starts[frames] = count. */
static size_t *frame_starts(const struct tsr_line_trace *lt, size_t *frames)
{
	size_t n = 0;
	int at_zero = 0;
	for (size_t m = 0; m < lt->marker_count; m++) {
		const struct tsr_line_marker *mk = &lt->markers[m];
		if (mk->kind == TSR_MARKER_FRAME && mk->pos < lt->count) {
			n++;
			at_zero |= mk->pos == 0;
		}
	}
	int leading = lt->count > 0 && !at_zero;
	size_t *starts = malloc((n + leading + 1) * sizeof(*starts));
	if (!starts)
		return NULL;
	size_t k = 0;
	if (leading)
		starts[k++] = 0;
	for (size_t m = 0; m < lt->marker_count; m++) {
		const struct tsr_line_marker *mk = &lt->markers[m];
		if (mk->kind == TSR_MARKER_FRAME && mk->pos < lt->count)
			starts[k++] = mk->pos;
	}
	starts[k] = lt->count;
	*frames = k;
	return starts;
}

static void iird_averages(struct tsr_iird *d)
{
	double n = (double)d->reuses;
	d->last_first = d->reuses ? (double)d->sum_last_first / n : 0.0;
	d->last_last = d->reuses ? (double)d->sum_last_last / n : 0.0;
	d->max = d->reuses ? (double)d->sum_max / n : 0.0;
	d->min = d->max / 2.0;
}

/* What one IIRD run needs to turn distances into sums. */
struct pair_ctx {
	size_t na;                 /* items of L_f; the rest are frame f+1's */
	const uint32_t *line_set;
	const uint32_t *lcount;    /* distinct lines of each set in frame f */
	struct tsr_iird *pair;
	int last_last;             /* 0: L_f ++ F_{f+1}; 1: L_f ++ reverse(L_{f+1}) */
};

static void emit_pair(void *ctx, size_t item, uint32_t id, uint64_t reuse, uint64_t stack)
{
	(void)reuse;
	struct pair_ctx *c = ctx;
	if (item < c->na)
		return;  /* L_f: each line once, all cold */
	if (stack == TSR_NEVER) {
		if (!c->last_last)
			c->pair->insertions++;
		return;
	}
	if (c->last_last) {
		c->pair->sum_last_last += stack;
	} else {
		c->pair->reuses++;
		c->pair->sum_last_first += stack;
		c->pair->sum_max += c->lcount[c->line_set[id]] - 1;
	}
}

/* Working memory of one call. */
struct frames_work {
	size_t *starts;
	uint32_t *ids, *line_set, lines;
	uint32_t *last_frame;   /* per line: frame + 1 of its latest access (0: none) */
	uint32_t *seen;         /* per line: frame + 1 of the backward scan that saw it */
	uint32_t *fbuf, *lbuf;  /* F_f and L_f of all frames, back to back */
	size_t *foff, *loff;    /* [frames + 1] */
	uint32_t *lcount, *lrun;/* per set */
	struct tsr_sd_engine engine;
};

static void work_release(struct frames_work *w)
{
	free(w->starts);
	free(w->ids);
	free(w->line_set);
	free(w->last_frame);
	free(w->seen);
	free(w->fbuf);
	free(w->lbuf);
	free(w->foff);
	free(w->loff);
	free(w->lcount);
	free(w->lrun);
	tsr_sd_release(&w->engine);
}

static void classify(const struct tsr_line_trace *lt, struct frames_work *w,
		     struct tsr_frames_result *r)
{
	size_t nf = 0;
	for (size_t f = 0; f < r->frame_count; f++) {
		w->foff[f] = nf;
		struct tsr_frame_reuse *fr = &r->frames[f];
		uint32_t tag = (uint32_t)f + 1;
		for (size_t i = w->starts[f]; i < w->starts[f + 1]; i++) {
			uint32_t id = w->ids[i];
			if (id == TSR_SD_SKIP)
				continue;
			uint8_t st = lt->accesses[i].stream;
			struct tsr_frame_reuse *sr = st < TSR_STREAM_COUNT ? &r->streams[st] : NULL;
			uint32_t last = w->last_frame[id];
			fr->accesses++;
			if (last == tag) {
				fr->intra++;
				if (sr)
					sr->intra++;
			} else {
				w->fbuf[nf++] = id;
				if (last == 0) {
					fr->new_lines++;
					if (sr)
						sr->new_lines++;
				} else {
					fr->inter++;
					if (sr)
						sr->inter++;
				}
			}
			if (sr)
				sr->accesses++;
			w->last_frame[id] = tag;
		}
		r->total.accesses += fr->accesses;
		r->total.new_lines += fr->new_lines;
		r->total.intra += fr->intra;
		r->total.inter += fr->inter;
	}
	w->foff[r->frame_count] = nf;
}

static void collect_last(struct frames_work *w, size_t frames)
{
	size_t nl = 0;
	for (size_t f = 0; f < frames; f++) {
		w->loff[f] = nl;
		uint32_t tag = (uint32_t)f + 1;
		for (size_t i = w->starts[f + 1]; i-- > w->starts[f];) {
			uint32_t id = w->ids[i];
			if (id == TSR_SD_SKIP || w->seen[id] == tag)
				continue;
			w->seen[id] = tag;
			w->lbuf[nl++] = id;
		}
		/* collected backwards: restore time order */
		for (size_t a = w->loff[f], b = nl; a + 1 < b; a++, b--) {
			uint32_t t = w->lbuf[a];
			w->lbuf[a] = w->lbuf[b - 1];
			w->lbuf[b - 1] = t;
		}
	}
	w->loff[frames] = nl;
}

static void measure_pair(struct frames_work *w, size_t f, struct tsr_iird *pair)
{
	const uint32_t *lf = w->lbuf + w->loff[f], *ln = w->lbuf + w->loff[f + 1];
	const uint32_t *fn = w->fbuf + w->foff[f + 1];
	size_t nlf = w->loff[f + 1] - w->loff[f], nln = w->loff[f + 2] - w->loff[f + 1];
	uint32_t tag = (uint32_t)f + 1;
	for (size_t k = 0; k < nlf; k++) {
		uint32_t s = w->line_set[lf[k]];
		if (w->lrun[s] != tag) {
			w->lrun[s] = tag;
			w->lcount[s] = 0;
		}
		w->lcount[s]++;
	}
	struct pair_ctx c = {nlf, w->line_set, w->lcount, pair, 0};
	tsr_sd_run(&w->engine, lf, nlf, fn, nln, 0, emit_pair, &c);
	c.last_last = 1;
	tsr_sd_run(&w->engine, lf, nlf, ln, nln, 1, emit_pair, &c);
	pair->deletions = nlf - pair->reuses;
	iird_averages(pair);
}

enum tsr_status tsr_frames_analyze(const struct tsr_line_trace *lt,
				   const struct tsr_frames_params *p,
				   struct tsr_frames_result *out, struct tsr_error *err)
{
	memset(out, 0, sizeof(*out));
	TSR_TRY(tsr_analysis_check(lt, p->sets, p->stream, err));
	out->sets = p->sets;
	struct frames_work w;
	memset(&w, 0, sizeof(w));
	enum tsr_status s;
	size_t frames = 0;
	w.starts = frame_starts(lt, &frames);
	if (!w.starts)
		goto nomem;
	if (frames >= UINT32_MAX) {
		work_release(&w);
		return tsr_error_set(err, TSR_ERR_LIMIT, "trace of %zu frames has too many frames",
				     frames);
	}
	s = tsr_analysis_line_ids(lt, p->stream, p->sets, &w.ids, &w.line_set, &w.lines, err);
	if (s != TSR_OK) {
		work_release(&w);
		return s;
	}
	size_t n = lt->count ? lt->count : 1, nl = w.lines ? w.lines : 1;
	out->frame_count = frames;
	out->frames = calloc(frames ? frames : 1, sizeof(*out->frames));
	out->pairs = calloc(frames > 1 ? frames - 1 : 1, sizeof(*out->pairs));
	w.last_frame = calloc(nl, sizeof(*w.last_frame));
	w.seen = calloc(nl, sizeof(*w.seen));
	w.fbuf = malloc(n * sizeof(*w.fbuf));
	w.lbuf = malloc(n * sizeof(*w.lbuf));
	w.foff = malloc((frames + 1) * sizeof(*w.foff));
	w.loff = malloc((frames + 1) * sizeof(*w.loff));
	w.lcount = malloc(p->sets * sizeof(*w.lcount));
	w.lrun = calloc(p->sets, sizeof(*w.lrun));
	if (!out->frames || !out->pairs || !w.last_frame || !w.seen || !w.fbuf || !w.lbuf ||
	    !w.foff || !w.loff || !w.lcount || !w.lrun)
		goto nomem;

	classify(lt, &w, out);
	collect_last(&w, frames);

	size_t cap = 0;
	for (size_t f = 0; f + 1 < frames; f++) {
		size_t len = w.loff[f + 2] - w.loff[f];
		cap = len > cap ? len : cap;
	}
	if (frames > 1) {
		s = tsr_sd_init(&w.engine, cap, w.lines, w.line_set, p->sets, err);
		if (s != TSR_OK) {
			work_release(&w);
			tsr_frames_result_release(out);
			return s;
		}
	}
	for (size_t f = 0; f + 1 < frames; f++) {
		struct tsr_iird *pair = &out->pairs[f];
		measure_pair(&w, f, pair);
		out->iird.reuses += pair->reuses;
		out->iird.insertions += pair->insertions;
		out->iird.deletions += pair->deletions;
		out->iird.sum_last_first += pair->sum_last_first;
		out->iird.sum_last_last += pair->sum_last_last;
		out->iird.sum_max += pair->sum_max;
	}
	iird_averages(&out->iird);
	work_release(&w);
	return TSR_OK;
nomem:
	work_release(&w);
	tsr_frames_result_release(out);
	return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the frames of %zu accesses",
			     lt->count);
}

void tsr_frames_result_release(struct tsr_frames_result *r)
{
	free(r->frames);
	free(r->pairs);
	memset(r, 0, sizeof(*r));
}
