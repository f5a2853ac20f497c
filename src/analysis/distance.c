/*
 * distance.c - the stack-distance engine, dense line ids and the reuse /
 * stack distance histograms (analysis/analysis.h).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_priv.h"
#include "core/u64map.h"

/* ---- bins ---- */

uint32_t tsr_reuse_bin(uint64_t d)
{
	if (d == 0)
		return 0;
	uint32_t b = 64u - (uint32_t)__builtin_clzll(d);  /* floor(log2 d) + 1 */
	return b < TSR_REUSE_BINS ? b : TSR_REUSE_BINS - 1;
}

uint64_t tsr_reuse_bin_low(uint32_t b)
{
	return b == 0 ? 0 : 1ull << (b - 1);
}

uint64_t tsr_reuse_bin_high(uint32_t b)
{
	if (b == 0)
		return 0;
	if (b >= TSR_REUSE_BINS - 1)
		return UINT64_MAX;
	return (1ull << b) - 1;
}

/* ---- shared checks and line ids ---- */

enum tsr_status tsr_analysis_check(const struct tsr_line_trace *lt, uint32_t sets,
				   uint32_t stream, struct tsr_error *err)
{
	if (sets == 0 || sets > TSR_ANALYSIS_MAX_SETS)
		return tsr_error_set(err, TSR_ERR_CONFIG, "number of sets %u is not from 1 to %u",
				     sets, TSR_ANALYSIS_MAX_SETS);
	if (stream > TSR_ANALYSIS_ALL_STREAMS)
		return tsr_error_set(err, TSR_ERR_CONFIG, "unknown stream %u", stream);
	if (lt->count > TSR_SD_MAX_ITEMS)
		return tsr_error_set(err, TSR_ERR_LIMIT,
				     "trace of %zu line accesses is too long to analyse (at most %zu)",
				     lt->count, TSR_SD_MAX_ITEMS);
	return TSR_OK;
}

enum tsr_status tsr_analysis_line_ids(const struct tsr_line_trace *lt, uint32_t stream,
				      uint32_t sets, uint32_t **ids, uint32_t **line_set,
				      uint32_t *lines, struct tsr_error *err)
{
	*ids = malloc((lt->count ? lt->count : 1) * sizeof(**ids));
	*line_set = NULL;
	*lines = 0;
	struct tsr_u64map map = {0};
	if (!*ids)
		goto nomem;
	uint32_t next = 0;
	for (size_t i = 0; i < lt->count; i++) {
		const struct tsr_line_access *a = &lt->accesses[i];
		if (stream != TSR_ANALYSIS_ALL_STREAMS && a->stream != stream) {
			(*ids)[i] = TSR_SD_SKIP;
			continue;
		}
		uint64_t *v = tsr_u64map_upsert(&map, a->addr >> lt->line_shift, UINT64_MAX);
		if (!v)
			goto nomem;
		if (*v == UINT64_MAX)
			*v = next++;
		(*ids)[i] = (uint32_t)*v;
	}
	tsr_u64map_release(&map);
	*line_set = malloc((next ? next : 1) * sizeof(**line_set));
	if (!*line_set)
		goto nomem;
	for (size_t i = 0; i < lt->count; i++)
		if ((*ids)[i] != TSR_SD_SKIP)
			(*line_set)[(*ids)[i]] =
				(uint32_t)((lt->accesses[i].addr >> lt->line_shift) % sets);
	*lines = next;
	return TSR_OK;
nomem:
	tsr_u64map_release(&map);
	free(*ids);
	free(*line_set);
	*ids = NULL;
	*line_set = NULL;
	return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the lines of %zu accesses",
			     lt->count);
}

/* ---- the engine ---- */

enum tsr_status tsr_sd_init(struct tsr_sd_engine *e, size_t cap, uint32_t lines,
			    const uint32_t *line_set, uint32_t sets,
			    struct tsr_error *err)
{
	memset(e, 0, sizeof(*e));
	e->cap = cap;
	e->line_set = line_set;
	e->tree = malloc((cap + 1) * sizeof(*e->tree));
	e->line_pos = malloc((lines ? lines : 1) * sizeof(*e->line_pos));
	e->line_run = calloc(lines ? lines : 1, sizeof(*e->line_run));
	e->set_next = malloc(sets * sizeof(*e->set_next));
	e->set_run = calloc(sets, sizeof(*e->set_run));
	e->touched = malloc(sets * sizeof(*e->touched));
	if (!e->tree || !e->line_pos || !e->line_run || !e->set_next || !e->set_run ||
	    !e->touched) {
		tsr_sd_release(e);
		return tsr_error_set(err, TSR_ERR_NOMEM,
				     "out of memory for distances of %zu accesses", cap);
	}
	return TSR_OK;
}

void tsr_sd_release(struct tsr_sd_engine *e)
{
	free(e->tree);
	free(e->line_pos);
	free(e->line_run);
	free(e->set_next);
	free(e->set_run);
	free(e->touched);
	memset(e, 0, sizeof(*e));
}

/* Fenwick tree over positions 0 .. n-1 stored 1-based in t[1..n]. */
static void fen_add(uint32_t *t, size_t n, size_t pos, uint32_t v)
{
	for (size_t i = pos + 1; i <= n; i += i & (~i + 1))
		t[i] += v;  /* v = UINT32_MAX subtracts one (modular arithmetic) */
}

/* Sum over positions [0, k). */
static uint32_t fen_prefix(const uint32_t *t, size_t k)
{
	uint32_t s = 0;
	for (size_t i = k; i > 0; i &= i - 1)
		s += t[i];
	return s;
}

static inline uint32_t item_at(const uint32_t *a, size_t na, const uint32_t *b, size_t nb,
			       int reverse_b, size_t k)
{
	if (k < na)
		return a[k];
	k -= na;
	return b[reverse_b ? nb - 1 - k : k];
}

void tsr_sd_run(struct tsr_sd_engine *e, const uint32_t *a, size_t na, const uint32_t *b,
		size_t nb, int reverse_b, tsr_sd_emit emit, void *ctx)
{
	size_t len = na + nb;
	uint32_t run = ++e->run;
	uint32_t touched = 0;
	/* count the items of each set, then give each set a range of positions */
	for (size_t k = 0; k < len; k++) {
		uint32_t id = item_at(a, na, b, nb, reverse_b, k);
		if (id == TSR_SD_SKIP)
			continue;
		uint32_t s = e->line_set[id];
		if (e->set_run[s] != run) {
			e->set_run[s] = run;
			e->set_next[s] = 0;
			e->touched[touched++] = s;
		}
		e->set_next[s]++;
	}
	uint32_t n = 0;
	for (uint32_t t = 0; t < touched; t++) {
		uint32_t s = e->touched[t], c = e->set_next[s];
		e->set_next[s] = n;
		n += c;
	}
	memset(e->tree, 0, ((size_t)n + 1) * sizeof(*e->tree));
	for (size_t k = 0; k < len; k++) {
		uint32_t id = item_at(a, na, b, nb, reverse_b, k);
		if (id == TSR_SD_SKIP)
			continue;
		uint32_t p = e->set_next[e->line_set[id]]++;
		if (e->line_run[id] == run) {
			uint32_t prev = e->line_pos[id];
			uint64_t stack = fen_prefix(e->tree, p) - fen_prefix(e->tree, (size_t)prev + 1);
			fen_add(e->tree, n, prev, UINT32_MAX);
			emit(ctx, k, id, p - prev - 1, stack);
		} else {
			e->line_run[id] = run;
			emit(ctx, k, id, TSR_NEVER, TSR_NEVER);
		}
		fen_add(e->tree, n, p, 1);
		e->line_pos[id] = p;
	}
}

/* ---- per-access distances ---- */

struct per_access_ctx {
	uint64_t *stack, *reuse;
};

static void emit_per_access(void *ctx, size_t item, uint32_t id, uint64_t reuse,
			    uint64_t stack)
{
	(void)id;
	struct per_access_ctx *c = ctx;
	if (c->stack)
		c->stack[item] = stack;
	if (c->reuse)
		c->reuse[item] = reuse;
}

enum tsr_status tsr_stack_distances(const struct tsr_line_trace *lt, uint32_t sets,
				    uint64_t *stack, uint64_t *reuse,
				    struct tsr_error *err)
{
	TSR_TRY(tsr_analysis_check(lt, sets, TSR_ANALYSIS_ALL_STREAMS, err));
	uint32_t *ids, *line_set, lines;
	TSR_TRY(tsr_analysis_line_ids(lt, TSR_ANALYSIS_ALL_STREAMS, sets, &ids, &line_set,
				      &lines, err));
	struct tsr_sd_engine e;
	enum tsr_status s = tsr_sd_init(&e, lt->count, lines, line_set, sets, err);
	if (s == TSR_OK) {
		struct per_access_ctx c = {stack, reuse};
		tsr_sd_run(&e, ids, lt->count, NULL, 0, 0, emit_per_access, &c);
		tsr_sd_release(&e);
	}
	free(ids);
	free(line_set);
	return s;
}

/* ---- histograms ---- */

struct hist_ctx {
	const struct tsr_line_trace *lt;
	struct tsr_reuse_result *r;
};

static void add_to(struct tsr_reuse_stats *st, uint64_t reuse, uint64_t stack, uint32_t ways)
{
	st->accesses++;
	if (stack == TSR_NEVER) {
		st->reuse.cold++;
		st->stack.cold++;
		return;
	}
	st->reuse.bins[tsr_reuse_bin(reuse)]++;
	st->stack.bins[tsr_reuse_bin(stack)]++;
	st->lru_hits += stack < ways;
}

static void emit_hist(void *ctx, size_t item, uint32_t id, uint64_t reuse, uint64_t stack)
{
	(void)id;
	struct hist_ctx *c = ctx;
	uint8_t st = c->lt->accesses[item].stream;
	add_to(&c->r->total, reuse, stack, c->r->ways);
	if (st < TSR_STREAM_COUNT)
		add_to(&c->r->streams[st], reuse, stack, c->r->ways);
}

enum tsr_status tsr_reuse_analyze(const struct tsr_line_trace *lt,
				  const struct tsr_reuse_params *p,
				  struct tsr_reuse_result *out, struct tsr_error *err)
{
	memset(out, 0, sizeof(*out));
	TSR_TRY(tsr_analysis_check(lt, p->sets, p->stream, err));
	out->sets = p->sets;
	out->ways = p->ways;
	uint32_t *ids, *line_set, lines;
	TSR_TRY(tsr_analysis_line_ids(lt, p->stream, p->sets, &ids, &line_set, &lines, err));
	out->distinct_lines = lines;
	struct tsr_sd_engine e;
	enum tsr_status s = tsr_sd_init(&e, lt->count, lines, line_set, p->sets, err);
	if (s == TSR_OK) {
		struct hist_ctx c = {lt, out};
		tsr_sd_run(&e, ids, lt->count, NULL, 0, 0, emit_hist, &c);
		tsr_sd_release(&e);
	}
	free(ids);
	free(line_set);
	return s;
}
