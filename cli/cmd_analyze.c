/*
 * cmd_analyze.c - `tessera analyze KIND TRACE`: the trace analyses of
 * analysis/analysis.h (reuse and stack distances, intra/inter-frame reuse
 * and IIRD, accesses per set per tile, GSPC epochs) printed as aligned
 * tables, and optionally written as CSV (through an output transaction:
 * cli/text.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cachesim/replay.h"
#include "cli/cli.h"
#include "memory/policy.h"
#include "trace/trace.h"

static void usage_analyze(FILE *f)
{
	fprintf(f,
		"usage: tessera analyze KIND TRACE [--line BYTES] [--size BYTES --ways W|full]\n"
		"                       [--sets N] [--policy SPEC] [--stream NAME] [--csv FILE]\n"
		"                       [--max-records N] [--format FMT] [--trace-params P]\n"
		"\n"
		"kinds:\n"
		"  reuse      reuse and stack (LRU) distance histograms, overall and per stream:\n"
		"             per set of the geometry and fully associative (only the latter\n"
		"             without a geometry); with ways, the LRU hits they imply\n"
		"  frames     new / intra-frame / inter-frame reuse per stream and per frame,\n"
		"             and the inter-iteration reuse distance (IIRD) between consecutive\n"
		"             frames: last-first, last-last, max = s-1, min = (s-1)/2 per set\n"
		"             (default: 1 set, fully associative)\n"
		"  tile-sets  accesses per cache set per tile: histogram 1..15, >=16 (needs sets)\n"
		"  epochs     GSPC epochs through one cache: hits from E0, E1, E2, E>=3, death\n"
		"             ratios, render target -> texture consumption (needs a geometry)\n"
		"\n"
		"  TRACE          a binary trace (tessera run --record-trace) or a text trace,\n"
		"                 or libCacheSim's oracleGeneral, txt or csv (docs/traces.md)\n"
		"  --format FMT   tessera, oracleGeneral, txt, csv, auto (default: by content)\n"
		"  --trace-params P  csv columns as libCacheSim's -t (obj-id-col=N,...)\n"
		"  --line BYTES   line size (default 64)\n"
		"  --size BYTES   cache capacity (K, M, G suffixes: 256K, 1M)\n"
		"  --ways W|full  associativity, or 'full'; sets = size / (ways x line)\n"
		"  --sets N       number of sets directly (reuse, frames, tile-sets; with --ways\n"
		"                 also a geometry)\n"
		"  --policy SPEC  replacement policy of 'epochs' (default lru; opt works)\n"
		"  --stream NAME  analyse only this stream's accesses (reuse, frames, tile-sets)\n"
		"  --csv FILE     also write the table(s) as CSV ('-': to standard output,\n"
		"                 the tables then go to standard error)\n"
		"  --max-records N  refuse a trace of more records (default 200000000)\n"
		"\n"
		"Exit codes: 0 success, 1 runtime error (bad trace), 2 usage error.\n");
}

enum kind { KIND_REUSE, KIND_FRAMES, KIND_TILE_SETS, KIND_EPOCHS };

struct options {
	enum kind kind;
	const char *path, *csv, *policy;
	uint64_t line, size, ways, sets;  /* 0: not given */
	uint64_t max_records;              /* 0: the default limit */
	int have_geometry;                 /* size and ways known */
	uint32_t stream;                   /* TSR_ANALYSIS_ALL_STREAMS: all */
	struct tsr_trace_format fmt;       /* --format, --trace-params */
};

/* ---- small formatting helpers ---- */

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static unsigned long long ull(uint64_t v)
{
	return (unsigned long long)v;
}

static const char *stream_label(uint32_t s)
{
	return s == TSR_ANALYSIS_ALL_STREAMS ? "all" : tsr_stream_name((enum tsr_stream)s);
}

/* "0", "1", "2-3", ..., "16777216+" */
static void bin_label(uint32_t b, char *buf, size_t n)
{
	uint64_t lo = tsr_reuse_bin_low(b), hi = tsr_reuse_bin_high(b);
	if (hi == UINT64_MAX)
		snprintf(buf, n, "%llu+", ull(lo));
	else if (lo == hi)
		snprintf(buf, n, "%llu", ull(lo));
	else
		snprintf(buf, n, "%llu-%llu", ull(lo), ull(hi));
}

static void print_header(const struct options *o, const struct tsr_replay_file_info *t,
			 const struct tsr_line_trace *lt)
{
	printf("trace          %s%s%s%s\n", o->path, t->description[0] ? " (" : "",
	       t->description, t->description[0] ? ")" : "");
	printf("accesses       %zu line accesses (%zu records), %llu distinct lines, "
	       "%llu-byte lines, %zu frame markers\n",
	       lt->count, t->records, ull(lt->distinct_lines), ull(o->line), lt->frames);
	if (o->stream != TSR_ANALYSIS_ALL_STREAMS)
		printf("stream         %s only\n", stream_label(o->stream));
}

/* ---- reuse ---- */

static void print_hist_table(const char *title, const struct tsr_reuse_result *r, int stack)
{
	int present[TSR_STREAM_COUNT], np = 0;
	uint32_t top = 0;
	for (int s = 0; s < TSR_STREAM_COUNT; s++) {
		present[s] = r->streams[s].accesses > 0;
		np += present[s];
	}
	const struct tsr_distance_hist *all = stack ? &r->total.stack : &r->total.reuse;
	for (uint32_t b = 0; b < TSR_REUSE_BINS; b++)
		if (all->bins[b])
			top = b;
	printf("\n%s\n%-14s %14s %8s", title, "distance", "all", "%");
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		if (present[s] && np > 1)
			printf(" %14s", tsr_stream_name((enum tsr_stream)s));
	printf("\n");
	/* bins up to the last non-zero one, then the cold accesses */
	for (uint32_t b = 0; b <= top + 1; b++) {
		int cold = b == top + 1;
		char label[32] = "cold";
		if (!cold)
			bin_label(b, label, sizeof(label));
		uint64_t v = cold ? all->cold : all->bins[b];
		printf("%-14s %14llu %7.2f%%", label, ull(v), pct(v, r->total.accesses));
		for (int s = 0; s < TSR_STREAM_COUNT; s++) {
			if (!present[s] || np <= 1)
				continue;
			const struct tsr_distance_hist *h = stack ? &r->streams[s].stack
								  : &r->streams[s].reuse;
			printf(" %14llu", ull(cold ? h->cold : h->bins[b]));
		}
		printf("\n");
	}
	printf("%-14s %14llu %7.2f%%", "total", ull(r->total.accesses), 100.0);
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		if (present[s] && np > 1)
			printf(" %14llu", ull(r->streams[s].accesses));
	printf("\n");
}

static void print_lru(const struct tsr_reuse_result *r)
{
	if (!r->ways)
		return;
	printf("LRU hits (stack distance < %u ways): %llu of %llu (%.2f%%)", r->ways,
	       ull(r->total.lru_hits), ull(r->total.accesses),
	       pct(r->total.lru_hits, r->total.accesses));
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		if (r->streams[s].accesses)
			printf("; %s %.2f%%", tsr_stream_name((enum tsr_stream)s),
			       pct(r->streams[s].lru_hits, r->streams[s].accesses));
	printf("\n");
}

static void csv_hist(struct tsr_text *csv, const char *name, const struct tsr_reuse_result *r)
{
	for (int s = -1; s < TSR_STREAM_COUNT; s++) {
		const struct tsr_reuse_stats *st = s < 0 ? &r->total : &r->streams[s];
		if (s >= 0 && !st->accesses)
			continue;
		const char *sn = s < 0 ? "all" : tsr_stream_name((enum tsr_stream)s);
		for (uint32_t b = 0; b < TSR_REUSE_BINS; b++) {
			char label[32], high[32] = "";
			bin_label(b, label, sizeof(label));
			if (tsr_reuse_bin_high(b) != UINT64_MAX)
				snprintf(high, sizeof(high), "%llu", ull(tsr_reuse_bin_high(b)));
			tsr_text_printf(csv, "%s,%u,%s,%s,%llu,%s,%llu,%llu\n", name, r->sets, sn, label,
				    ull(tsr_reuse_bin_low(b)), high, ull(st->reuse.bins[b]),
				    ull(st->stack.bins[b]));
		}
		tsr_text_printf(csv, "%s,%u,%s,cold,,,%llu,%llu\n", name, r->sets, sn,
			    ull(st->reuse.cold), ull(st->stack.cold));
	}
}

static enum tsr_status run_reuse(const struct options *o, const struct tsr_line_trace *lt,
				 struct tsr_text *csv, struct tsr_error *err)
{
	struct tsr_reuse_result *r = calloc(2, sizeof(*r));
	if (!r)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	int per_set = o->sets != 0;
	struct tsr_reuse_params p = {.sets = (uint32_t)o->sets, .ways = (uint32_t)o->ways,
				     .stream = o->stream};
	enum tsr_status s = TSR_OK;
	if (per_set)
		s = tsr_reuse_analyze(lt, &p, &r[0], err);
	/* fully associative, of the same capacity when the geometry is known */
	struct tsr_reuse_params fa = {.sets = 1,
				      .ways = o->have_geometry ? (uint32_t)(o->sets * o->ways) : 0,
				      .stream = o->stream};
	if (s == TSR_OK)
		s = tsr_reuse_analyze(lt, &fa, &r[1], err);
	if (s != TSR_OK) {
		free(r);
		return s;
	}
	if (per_set) {
		if (o->have_geometry)
			printf("sets           %llu (%llu bytes, %llu-way); fully associative: %llu lines\n",
			       ull(o->sets), ull(o->size), ull(o->ways), ull(o->sets * o->ways));
		else
			printf("sets           %llu (and fully associative)\n", ull(o->sets));
	} else {
		printf("sets           1 (fully associative)\n");
	}
	printf("distinct lines %llu analysed\n", ull(r[1].distinct_lines));
	tsr_text_printf(csv, "histogram,sets,stream,bin,low,high,reuse_distance,stack_distance\n");
	if (per_set) {
		char title[128];
		snprintf(title, sizeof(title),
			 "reuse distance, %llu sets (accesses to the set in between)", ull(o->sets));
		print_hist_table(title, &r[0], 0);
		snprintf(title, sizeof(title),
			 "stack distance, %llu sets (distinct lines of the set in between)",
			 ull(o->sets));
		print_hist_table(title, &r[0], 1);
		print_lru(&r[0]);
		csv_hist(csv, "per_set", &r[0]);
	}
	print_hist_table("reuse distance, fully associative (accesses in between)", &r[1], 0);
	print_hist_table("stack distance, fully associative (distinct lines in between)", &r[1],
			 1);
	print_lru(&r[1]);
	csv_hist(csv, "fully_associative", &r[1]);
	free(r);
	return TSR_OK;
}

/* ---- frames ---- */

static void print_reuse_row(const char *label, const struct tsr_frame_reuse *f)
{
	printf("%-14s %12llu %12llu %12llu %12llu %7.2f%% %7.2f%% %7.2f%%\n", label,
	       ull(f->accesses), ull(f->new_lines), ull(f->intra), ull(f->inter),
	       pct(f->new_lines, f->accesses), pct(f->intra, f->accesses),
	       pct(f->inter, f->accesses));
}

static void csv_frame_row(struct tsr_text *csv, const char *frame, const char *stream,
			  const struct tsr_frame_reuse *f, const struct tsr_iird *d)
{
	tsr_text_printf(csv, "%s,%s,%llu,%llu,%llu,%llu", frame, stream, ull(f->accesses),
		    ull(f->new_lines), ull(f->intra), ull(f->inter));
	if (d)
		tsr_text_printf(csv, ",%llu,%llu,%llu,%.6f,%.6f,%.6f,%.6f\n", ull(d->reuses),
			    ull(d->insertions), ull(d->deletions), d->last_first, d->last_last,
			    d->max, d->min);
	else
		tsr_text_printf(csv, ",,,,,,,\n");
}

static enum tsr_status run_frames(const struct options *o, const struct tsr_line_trace *lt,
				  struct tsr_text *csv, struct tsr_error *err)
{
	struct tsr_frames_params p = {.sets = o->sets ? (uint32_t)o->sets : 1,
				      .stream = o->stream};
	struct tsr_frames_result r;
	TSR_TRY(tsr_frames_analyze(lt, &p, &r, err));
	printf("sets           %u (%sIIRD per set)\n", r.sets,
	       r.sets == 1 ? "fully associative; " : "");
	printf("frames         %zu\n", r.frame_count);

	printf("\n%-14s %12s %12s %12s %12s %8s %8s %8s\n", "stream", "accesses", "new",
	       "intra-frame", "inter-frame", "new", "intra", "inter");
	print_reuse_row("all", &r.total);
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		if (r.streams[s].accesses)
			print_reuse_row(tsr_stream_name((enum tsr_stream)s), &r.streams[s]);

	printf("\n%-8s %12s %10s %10s %10s %10s %8s %8s %10s %10s %8s %8s\n", "frame",
	       "accesses", "new", "intra", "inter", "reuses", "inserted", "deleted",
	       "last-first", "last-last", "max", "min");
	for (size_t f = 0; f < r.frame_count; f++) {
		const struct tsr_frame_reuse *fr = &r.frames[f];
		printf("%-8zu %12llu %10llu %10llu %10llu", f, ull(fr->accesses),
		       ull(fr->new_lines), ull(fr->intra), ull(fr->inter));
		if (f > 0) {
			const struct tsr_iird *d = &r.pairs[f - 1];
			printf(" %10llu %8llu %8llu %10.2f %10.2f %8.2f %8.2f", ull(d->reuses),
			       ull(d->insertions), ull(d->deletions), d->last_first, d->last_last,
			       d->max, d->min);
		}
		printf("\n");
	}
	const struct tsr_iird *d = &r.iird;
	printf("%-8s %12llu %10llu %10llu %10llu %10llu %8llu %8llu %10.2f %10.2f %8.2f %8.2f\n",
	       "all", ull(r.total.accesses), ull(r.total.new_lines), ull(r.total.intra),
	       ull(r.total.inter), ull(d->reuses), ull(d->insertions), ull(d->deletions),
	       d->last_first, d->last_last, d->max, d->min);
	printf("\nIIRD of frame f+1 against frame f (row f+1), per set: last-first near max\n"
	       "means a circular trace (LRU thrashes), last-last near min means reversing\n"
	       "every other frame approaches the optimum (boustrophedonic III-D).\n");

	tsr_text_printf(csv, "frame,stream,accesses,new,intra_frame,inter_frame,reuses,insertions,"
			 "deletions,last_first,last_last,max,min\n");
	for (size_t f = 0; f < r.frame_count; f++) {
		char label[32];
		snprintf(label, sizeof(label), "%zu", f);
		csv_frame_row(csv, label, "all", &r.frames[f], f ? &r.pairs[f - 1] : NULL);
	}
	csv_frame_row(csv, "total", "all", &r.total, &r.iird);
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		if (r.streams[s].accesses)
			csv_frame_row(csv, "total", tsr_stream_name((enum tsr_stream)s),
				      &r.streams[s], NULL);
	tsr_frames_result_release(&r);
	return TSR_OK;
}

/* ---- tile-sets ---- */

static enum tsr_status run_tile_sets(const struct options *o,
				     const struct tsr_line_trace *lt, struct tsr_text *csv,
				     struct tsr_error *err)
{
	struct tsr_tile_sets_params p = {.sets = (uint32_t)o->sets, .stream = o->stream};
	struct tsr_tile_sets_result r;
	TSR_TRY(tsr_tile_sets_analyze(lt, &p, &r, err));
	printf("sets           %u\n", r.sets);
	printf("tiles          %llu (%llu accesses in tiles, %llu outside any tile)\n",
	       ull(r.tiles), ull(r.accesses), ull(r.outside));
	printf("\n%-18s %14s %8s\n", "accesses/set/tile", "(tile, set)", "%");
	tsr_text_printf(csv, "accesses_per_set,pairs,fraction\n");
	for (int k = 0; k < TSR_TILE_SET_BINS; k++) {
		char label[16];
		if (k + 1 < TSR_TILE_SET_BINS)
			snprintf(label, sizeof(label), "%d", k + 1);
		else
			snprintf(label, sizeof(label), ">=%d", k + 1);
		printf("%-18s %14llu %7.2f%%\n", label, ull(r.hist[k]), pct(r.hist[k], r.pairs));
		tsr_text_printf(csv, "%s,%llu,%.6f\n", label, ull(r.hist[k]),
			    r.pairs ? (double)r.hist[k] / (double)r.pairs : 0.0);
	}
	printf("%-18s %14llu %7.2f%%\n", "total", ull(r.pairs), r.pairs ? 100.0 : 0.0);
	printf("\n(tile, set) pairs with more than one access: %.2f%% (pairs with none are "
	       "not counted)\n", 100.0 * r.multi_fraction);
	return TSR_OK;
}

/* ---- epochs ---- */

static void print_epoch_row(const char *label, const struct tsr_epoch_stats *e)
{
	printf("%-14s %10llu %9llu %9llu %10llu %10llu %10llu %10llu %10llu %10llu %10llu "
	       "%10llu %7.3f %7.3f %7.3f\n",
	       label, ull(e->fills), ull(e->converted), ull(e->consumed), ull(e->hits[0]),
	       ull(e->hits[1]), ull(e->hits[2]), ull(e->hits[3]), ull(e->entered[0]),
	       ull(e->entered[1]), ull(e->entered[2]), ull(e->entered[3]), e->death[0],
	       e->death[1], e->death[2]);
}

static void csv_epoch_row(struct tsr_text *csv, const char *label,
			  const struct tsr_cache_counters *c, const struct tsr_epoch_stats *e)
{
	uint64_t acc = c->reads + c->writes, miss = c->read_misses + c->write_misses;
	tsr_text_printf(csv, "%s,%llu,%llu,%llu,%llu,%llu", label, ull(acc), ull(acc - miss),
		    ull(e->fills), ull(e->converted), ull(e->consumed));
	for (int k = 0; k < TSR_EPOCHS; k++)
		tsr_text_printf(csv, ",%llu", ull(e->hits[k]));
	for (int k = 0; k < TSR_EPOCHS; k++)
		tsr_text_printf(csv, ",%llu", ull(e->entered[k]));
	for (int k = 0; k + 1 < TSR_EPOCHS; k++)
		tsr_text_printf(csv, ",%.6f", e->death[k]);
	tsr_text_printf(csv, ",%llu\n",
		    ull(e->resident[0] + e->resident[1] + e->resident[2] + e->resident[3]));
}

static enum tsr_status run_epochs(const struct options *o, const struct tsr_line_trace *lt,
				  struct tsr_text *csv, struct tsr_error *err)
{
	struct tsr_cache_geometry g = {.size_bytes = (uint32_t)o->size, .ways = (uint32_t)o->ways,
				       .line_bytes = (uint32_t)o->line, .seed = 1};
	snprintf(g.policy, sizeof(g.policy), "%s", o->policy);
	struct tsr_epoch_result *r = malloc(sizeof(*r));
	if (!r)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	enum tsr_status s = tsr_epochs_analyze(lt, &g, r, err);
	if (s != TSR_OK) {
		free(r);
		return s;
	}
	const struct tsr_cache_counters *t = &r->counters_total;
	uint64_t acc = t->reads + t->writes, miss = t->read_misses + t->write_misses;
	printf("cache          %llu bytes, %u-way, %llu-byte lines, %u sets, policy %s\n",
	       ull(o->size), r->ways, ull(o->line), r->sets, r->policy);
	printf("hits           %llu of %llu accesses (%.2f%%); render target -> texture %llu; "
	       "other cross-stream %llu\n",
	       ull(acc - miss), ull(acc), pct(acc - miss, acc), ull(r->inter_stream_hits),
	       ull(r->cross_stream_hits));
	printf("\nby the block's stream; 'converted': render-target blocks a texture hit made\n"
	       "texture blocks (E0); 'consumed': blocks of this stream consumed that way\n");
	printf("%-14s %10s %9s %9s %10s %10s %10s %10s %10s %10s %10s %10s %7s %7s %7s\n",
	       "stream", "fills", "converted", "consumed", "hits E0", "hits E1", "hits E2",
	       "hits E>=3", "|E0|", "|E1|", "|E2|", "|E3|", "dead E0", "dead E1", "dead E2");
	tsr_text_printf(csv, "stream,cache_accesses,cache_hits,fills,converted,consumed,hits_e0,"
			 "hits_e1,hits_e2,hits_e3plus,e0,e1,e2,e3,death_e0,death_e1,death_e2,"
			 "resident\n");
	for (int k = 0; k < TSR_STREAM_COUNT; k++) {
		const struct tsr_epoch_stats *e = &r->streams[k];
		const struct tsr_cache_counters *c = &r->counters[k];
		if (!e->entered[0] && !(c->reads + c->writes))
			continue;
		const char *name = tsr_stream_name((enum tsr_stream)k);
		print_epoch_row(name, e);
		csv_epoch_row(csv, name, c, e);
	}
	print_epoch_row("all", &r->total);
	csv_epoch_row(csv, "all", &r->counters_total, &r->total);
	printf("\nDeath ratio of E_k = (|E_k| - |E_k+1|) / |E_k| (GSPC 2.3); blocks still cached\n"
	       "at the end count as died in their epoch.\n");
	free(r);
	return TSR_OK;
}

/* ---- arguments ---- */

static int parse_kind(const char *s, enum kind *k)
{
	static const char *const names[] = {"reuse", "frames", "tile-sets", "epochs"};
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, names[i])) {
			*k = (enum kind)i;
			return 1;
		}
	return 0;
}

/* Derives sets (and the geometry) from --size, --ways, --sets. 0 or an exit code. */
static int resolve_geometry(struct options *o, const char *ways_arg)
{
	if (ways_arg && !strcmp(ways_arg, "full")) {
		if (!o->size)
			return tsr_cli_usage_error("--ways full needs --size");
		if (o->size % o->line)
			return tsr_cli_usage_error("--size %llu is not a multiple of the %llu-byte line",
					   ull(o->size), ull(o->line));
		o->ways = o->size / o->line;
		if (o->sets && o->sets != 1)
			return tsr_cli_usage_error("--ways full means 1 set, not --sets %llu", ull(o->sets));
		o->sets = 1;
		o->have_geometry = 1;
		return 0;
	}
	if (ways_arg && !tsr_cli_parse_u64(ways_arg, 1, 1u << 24, &o->ways))
		return tsr_cli_usage_error("invalid --ways '%s' (a number or 'full')", ways_arg);
	if (o->size && !o->ways)
		return tsr_cli_usage_error("--size needs --ways");
	if (o->size) {
		uint64_t set_bytes = o->ways * o->line;
		if (o->size % set_bytes)
			return tsr_cli_usage_error("--size %llu is not a multiple of ways x line (%llu bytes)",
					   ull(o->size), ull(set_bytes));
		uint64_t sets = o->size / set_bytes;
		if (o->sets && o->sets != sets)
			return tsr_cli_usage_error("--sets %llu contradicts --size and --ways (%llu sets)",
					   ull(o->sets), ull(sets));
		o->sets = sets;
		o->have_geometry = 1;
	} else if (o->ways) {
		if (!o->sets)
			return tsr_cli_usage_error("--ways needs --size or --sets");
		if (o->sets * o->ways * o->line > (1ull << 31))
			return tsr_cli_usage_error("--sets x --ways x --line exceeds 2 GiB");
		o->size = o->sets * o->ways * o->line;
		o->have_geometry = 1;
	}
	if (o->sets > TSR_ANALYSIS_MAX_SETS)
		return tsr_cli_usage_error("%llu sets is more than the %u an analysis takes", ull(o->sets),
				   TSR_ANALYSIS_MAX_SETS);
	return 0;
}

/* Checks the options a kind needs. 0 or an exit code. */
static int check_kind_options(struct options *o)
{
	if (o->kind != KIND_EPOCHS && o->policy)
		return tsr_cli_usage_error("--policy applies to 'epochs' only");
	if (o->kind == KIND_EPOCHS && o->stream != TSR_ANALYSIS_ALL_STREAMS)
		return tsr_cli_usage_error("--stream does not apply to 'epochs' (the cache sees every stream)");
	if (o->kind == KIND_TILE_SETS && !o->sets)
		return tsr_cli_usage_error("'tile-sets' needs --sets N or --size and --ways");
	if (o->kind != KIND_EPOCHS)
		return 0;
	if (!o->have_geometry)
		return tsr_cli_usage_error("'epochs' needs --size and --ways (or --sets and --ways)");
	if (!o->policy)
		o->policy = "lru";
	struct tsr_cache_geometry g = {.size_bytes = (uint32_t)o->size, .ways = (uint32_t)o->ways,
				       .line_bytes = (uint32_t)o->line, .seed = 1};
	if (strlen(o->policy) >= sizeof(g.policy))
		return tsr_cli_usage_error("--policy: spec '%s' is longer than %d characters",
					   o->policy, TSR_POLICY_SPEC_MAX - 1);
	snprintf(g.policy, sizeof(g.policy), "%s", o->policy);
	struct tsr_error err = {{0}};
	enum tsr_status gs = tsr_cache_geometry_check(&g, "analyze", &err);
	if (gs == TSR_ERR_LIMIT)  /* over the memory limit: a runtime error */
		return tsr_cli_exit(gs, &err);
	if (gs != TSR_OK)
		return tsr_cli_usage_error("%s", err.msg);
	return 0;
}

/* Parses the arguments into *o: 0, an exit code, or -1 after printing --help. */
static int parse_args(int argc, char **argv, struct options *o)
{
	const char *kind = NULL, *ways_arg = NULL, *format_arg = NULL, *params_arg = NULL;
	memset(o, 0, sizeof(*o));
	o->line = 64;
	o->stream = TSR_ANALYSIS_ALL_STREAMS;
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},        {"size", required_argument, NULL, 'S'},
		{"ways", required_argument, NULL, 'W'},  {"line", required_argument, NULL, 'L'},
		{"sets", required_argument, NULL, 'N'},  {"policy", required_argument, NULL, 'P'},
		{"stream", required_argument, NULL, 'T'}, {"csv", required_argument, NULL, 'c'},
		{"max-records", required_argument, NULL, 'M'},
		{"format", required_argument, NULL, 'f'},
		{"trace-params", required_argument, NULL, 'p'}, {NULL, 0, NULL, 0},
	};
	int c;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		const char *v = optarg;
		switch (c) {
		case 'h':
			usage_analyze(stdout);
			return -1;
		case 'S':
			if (!tsr_cli_parse_u64(v, 1, 1ull << 31, &o->size))
				return tsr_cli_usage_error("invalid --size '%s'", v);
			break;
		case 'L':
			if (!tsr_cli_parse_u64(v, 4, 65536, &o->line) || (o->line & (o->line - 1)))
				return tsr_cli_usage_error("invalid --line '%s' (a power of two from 4 "
							   "to 65536)", v);
			break;
		case 'N':
			if (!tsr_cli_parse_u64(v, 1, TSR_ANALYSIS_MAX_SETS, &o->sets))
				return tsr_cli_usage_error("invalid --sets '%s' (1 to %u)", v,
							   TSR_ANALYSIS_MAX_SETS);
			break;
		case 'W':
			ways_arg = v;
			break;
		case 'M':
			if (!tsr_cli_parse_u64(v, 1, UINT64_MAX, &o->max_records))
				return tsr_cli_usage_error("invalid --max-records '%s'", v);
			break;
		case 'P':
			o->policy = v;
			break;
		case 'c':
			o->csv = v;
			break;
		case 'f':
			format_arg = v;
			break;
		case 'p':
			params_arg = v;
			break;
		case 'T':
			if ((o->stream = tsr_stream_from_name(v)) == TSR_STREAM_COUNT) {
				char names[256] = "";
				for (int s = 0; s < TSR_STREAM_COUNT; s++)
					snprintf(names + strlen(names), sizeof(names) - strlen(names),
						 "%s%s", s ? ", " : "", tsr_stream_name((enum tsr_stream)s));
				return tsr_cli_usage_error("unknown --stream '%s' (valid: %s)", v, names);
			}
			break;
		default:
			return tsr_cli_getopt_error("analyze", c, argv);
		}
	}
	if (optind < argc)
		kind = argv[optind++];
	if (optind < argc)
		o->path = argv[optind++];
	if (optind < argc)
		return tsr_cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (!kind || !o->path) {
		fprintf(stderr, "tessera: 'analyze' needs a kind and a trace\n");
		usage_analyze(stderr);
		return EXIT_USAGE;
	}
	struct tsr_error ferr = {{0}};
	if (tsr_trace_format_parse(format_arg, params_arg, &o->fmt, &ferr) != TSR_OK)
		return tsr_cli_usage_error("%s", ferr.msg);
	if (!parse_kind(kind, &o->kind))
		return tsr_cli_usage_error("unknown analysis '%s' (reuse, frames, tile-sets, epochs)", kind);
	int rc = resolve_geometry(o, ways_arg);
	return rc ? rc : check_kind_options(o);
}

int tsr_cmd_analyze(int argc, char **argv)
{
	struct options o;
	int rc = parse_args(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;  /* -1: --help */

	struct tsr_error err = {{0}};
	struct tsr_replay_file_info trace;
	struct tsr_line_trace lt = {0};
	struct tsr_text csv = {0};
	/* --csv -: standard output carries the CSV alone, the tables go to standard error */
	const int saved = tsr_cli_stdout_aside(o.csv);
	enum tsr_status s = tsr_line_trace_load_format(o.path, &o.fmt, o.max_records,
						       (uint32_t)o.line, 1, &lt, &trace, &err);
	if (s == TSR_OK) {
		print_header(&o, &trace, &lt);
		switch (o.kind) {
		case KIND_REUSE:
			s = run_reuse(&o, &lt, &csv, &err);
			break;
		case KIND_FRAMES:
			s = run_frames(&o, &lt, &csv, &err);
			break;
		case KIND_TILE_SETS:
			s = run_tile_sets(&o, &lt, &csv, &err);
			break;
		case KIND_EPOCHS:
			s = run_epochs(&o, &lt, &csv, &err);
			break;
		}
	}
	tsr_cli_stdout_restore(saved);
	if (s != TSR_OK) {
		fflush(stdout);
		rc = tsr_cli_exit(s, &err);
	} else if (o.csv) {
		rc = tsr_cli_write_csv(o.csv, &csv);
	}
	free(csv.buf);
	tsr_line_trace_release(&lt);
	return rc;
}
