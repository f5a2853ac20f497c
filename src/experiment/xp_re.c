/*
 * xp_re.c - `re`: Rendering Elimination against Transaction Elimination
 * on the RE Table I GPU (configs/re-table1.json; RE V, Figs. 14 and 16).
 * Per workload four runs: elimination off (base), TE, RE (verified, so
 * that false positives are counted) and RE+TE. Columns: the tiles RE
 * skips, the equal-input, false-negative and changed tiles of Fig. 14a (%
 * of tiles compared), false positives and stale inputs, the color flushes
 * TE removes (% of tiles signed), the total DRAM traffic of te, re and
 * re+te against base, and re's against base per Parameter Buffer,
 * texture, color and the Raster Pipeline traffic of Fig. 14b; with the
 * timing model on (`--set timing.enabled=true`) also the speedups of re
 * and te (base cycles / their cycles, Fig. 13a) and their energy against
 * base (Figs. 13b, 16); a last row holds the means; the paper's figures
 * follow the table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/xp_priv.h"

/* The runs and their elimination settings. */
enum { RE_BASE, RE_TE, RE_RE, RE_RETE, RE_RUNS };

/* The percentage columns, in table order. */
enum {
	RC_SKIPPED, RC_EQUAL, RC_FALSE_NEG, RC_CHANGED,   /* re run, % of tiles compared */
	RC_TE_FLUSH,                                      /* te run, % of flushes signed */
	RC_DRAM_TE, RC_DRAM_RE, RC_DRAM_RETE,             /* total DRAM change vs base */
	RC_RE_PB, RC_RE_TEX, RC_RE_COLOR, RC_RE_RASTER,   /* re run, per stream group */
	RC_RE_SPEEDUP, RC_TE_SPEEDUP,                     /* timing: base cycles / run's */
	RC_RE_ENERGY, RC_TE_ENERGY,                       /* timing: energy change vs base */
	RC_COUNT
};
enum { RC_TIMED = RC_RE_SPEEDUP };  /* the first timing column */

/* Percentage v of `of` (0 when of is 0). */
static double share(uint64_t v, uint64_t of)
{
	return of ? 100.0 * (double)v / (double)of : 0.0;
}

/*
 * "Raster Pipeline traffic" of RE Fig. 14b: Parameter Buffer reads (the
 * Tile Fetcher), texel reads and color flushes, at DRAM.
 */
static uint64_t raster_dram_bytes(const struct tsr_frame_stats *t)
{
	return t->dram[TSR_STREAM_PB_LISTS].read_bytes +
	       t->dram[TSR_STREAM_PB_ATTRIBUTES].read_bytes +
	       t->dram[TSR_STREAM_TEXTURE].read_bytes + t->dram[TSR_STREAM_COLOR].write_bytes;
}

static void add_row(struct tsr_table *tab, struct tsr_text *txt, const char *name,
		    const char *frames, const char *fp, const char *stale, const double *v,
		    int timed)
{
	tsr_text_printf(txt, "%-18s %6s %7.1f%% %6.1f%% %6.1f%% %6.1f%% %5s %6s %7.1f%% %7.1f%% "
			"%7.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%%", name, frames,
			v[RC_SKIPPED], v[RC_EQUAL], v[RC_FALSE_NEG], v[RC_CHANGED], fp, stale,
			v[RC_TE_FLUSH], v[RC_DRAM_TE], v[RC_DRAM_RE], v[RC_DRAM_RETE], v[RC_RE_PB],
			v[RC_RE_TEX], v[RC_RE_COLOR], v[RC_RE_RASTER]);
	if (timed)
		tsr_text_printf(txt, " %7.2fx %7.2fx %7.1f%% %7.1f%%", v[RC_RE_SPEEDUP],
				v[RC_TE_SPEEDUP], v[RC_RE_ENERGY], v[RC_TE_ENERGY]);
	tsr_text_printf(txt, "\n");
	tsr_table_row(tab);
	tsr_table_cellf(tab, "%s", name);
	tsr_table_cellf(tab, "%s", frames);
	for (int c = RC_SKIPPED; c <= RC_CHANGED; c++)
		tsr_table_cellf(tab, "%.17g", v[c]);
	tsr_table_cellf(tab, "%s", fp);
	tsr_table_cellf(tab, "%s", stale);
	for (int c = RC_TE_FLUSH; c < RC_COUNT; c++) {
		if (c >= RC_TIMED && !timed)
			tsr_table_cellf(tab, "%s", "");  /* no timing model: no figure */
		else
			tsr_table_cellf(tab, "%.17g", v[c]);
	}
}

/* The four runs of one workload; fills v[] and the false positives and stale inputs. */
static enum tsr_status run_workload(const struct xp_ctx *c, const struct tsr_gpu_config *base_cfg,
				    const struct tsr_scene *sc, double *v,
				    struct tsr_elimination_stats *re, struct tsr_error *err)
{
	static const struct {
		int rendering, transactions;
	} modes[RE_RUNS] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
	/* the four runs on c->jobs threads */
	struct xp_run *runs = calloc(RE_RUNS, sizeof(*runs));
	if (!runs)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	for (int r = 0; r < RE_RUNS; r++) {
		runs[r].cfg = *base_cfg;
		runs[r].cfg.elim.rendering = modes[r].rendering;
		runs[r].cfg.elim.transactions = modes[r].transactions;
		runs[r].cfg.elim.verify = modes[r].rendering;  /* counts false positives */
		runs[r].cfg.elim.refresh_frames = 0;
		runs[r].sc = sc;
		runs[r].frames = c->frames;  /* 0: the scene's own (n), as the sweep names it */
	}
	enum tsr_status st = xp_simulate_all(c, runs, RE_RUNS, err);
	if (st != TSR_OK) {
		xp_runs_release(runs, RE_RUNS);
		free(runs);
		return st;
	}
	/* per run: total DRAM bytes and the stream groups */
	uint64_t total[RE_RUNS], pb[RE_RUNS], tex[RE_RUNS], color[RE_RUNS], raster[RE_RUNS];
	struct xp_timing tm[RE_RUNS];
	struct tsr_elimination_stats te = {0};
	for (int r = 0; r < RE_RUNS; r++) {
		const struct tsr_frame_stats *t = runs[r].total;
		tm[r] = runs[r].timing;
		total[r] = xp_dram_bytes(t, 0);
		pb[r] = xp_dram_bytes(t, 1);
		tex[r] = t->dram[TSR_STREAM_TEXTURE].read_bytes;
		color[r] = t->dram[TSR_STREAM_COLOR].write_bytes;
		raster[r] = raster_dram_bytes(t);
		if (r == RE_RE)
			*re = t->elim;
		else if (r == RE_TE)
			te = t->elim;
	}
	xp_runs_release(runs, RE_RUNS);
	free(runs);
	v[RC_SKIPPED] = share(re->tiles_skipped, re->tiles_compared);
	v[RC_EQUAL] = share(re->tiles_equal_inputs, re->tiles_compared);
	v[RC_FALSE_NEG] = share(re->false_negatives, re->tiles_compared);
	v[RC_CHANGED] = share(re->tiles_changed, re->tiles_compared);
	v[RC_TE_FLUSH] = share(te.te_flushes_removed, te.te_tiles_signed);
	v[RC_DRAM_TE] = xp_pct(total[RE_TE], total[RE_BASE]);
	v[RC_DRAM_RE] = xp_pct(total[RE_RE], total[RE_BASE]);
	v[RC_DRAM_RETE] = xp_pct(total[RE_RETE], total[RE_BASE]);
	v[RC_RE_PB] = xp_pct(pb[RE_RE], pb[RE_BASE]);
	v[RC_RE_TEX] = xp_pct(tex[RE_RE], tex[RE_BASE]);
	v[RC_RE_COLOR] = xp_pct(color[RE_RE], color[RE_BASE]);
	v[RC_RE_RASTER] = xp_pct(raster[RE_RE], raster[RE_BASE]);
	v[RC_RE_SPEEDUP] = tm[RE_RE].cycles ? (double)tm[RE_BASE].cycles / (double)tm[RE_RE].cycles
					    : 0.0;
	v[RC_TE_SPEEDUP] = tm[RE_TE].cycles ? (double)tm[RE_BASE].cycles / (double)tm[RE_TE].cycles
					    : 0.0;
	v[RC_RE_ENERGY] = xp_change_pct(tm[RE_RE].energy_nj, tm[RE_BASE].energy_nj);
	v[RC_TE_ENERGY] = xp_change_pct(tm[RE_TE].energy_nj, tm[RE_BASE].energy_nj);
	return TSR_OK;
}

static enum tsr_status run_re(struct xp_ctx *c, struct tsr_xp_result *out,
			      struct tsr_error *err)
{
	struct tsr_gpu_config base_cfg;
	TSR_TRY(xp_load_config(c, "re-table1", &base_cfg, err));
	struct tsr_table *tab = xp_add_table(out, "re",
		"workload,frames,tiles_skipped_pct,equal_inputs_pct,"
		"false_negatives_pct,changed_pct,false_positives,stale_inputs,"
		"te_flushes_removed_pct,te_dram_change_pct,re_dram_change_pct,"
		"re_te_dram_change_pct,re_pb_dram_change_pct,re_texture_dram_change_pct,"
		"re_color_dram_change_pct,re_raster_dram_change_pct,re_speedup,te_speedup,"
		"re_energy_change_pct,te_energy_change_pct", err);
	if (!tab)
		return TSR_ERR_NOMEM;
	struct tsr_table *paper = xp_add_paper_table(out, "re-paper", "tessera_mean_pct", err);
	if (!paper)
		return TSR_ERR_NOMEM;
	struct tsr_text *txt = &out->text;
	tsr_text_printf(txt, "%-23s %-32s %12s %8s %26s %35s\n", "", "re run: % of tiles compared",
			"", "te run", "DRAM bytes vs base", "re run: DRAM bytes vs base");
	const int timed = base_cfg.timing.enabled;
	tsr_text_printf(txt, "%-18s %6s %8s %7s %7s %7s %5s %6s %8s %8s %8s %8s %8s %8s %8s %8s",
			"workload", "frames", "skipped", "eq-in", "f-neg", "changed", "FP", "stale",
			"flush-rm", "te", "re", "re+te", "PB", "texture", "color", "raster");
	if (timed)
		tsr_text_printf(txt, " %8s %8s %8s %8s", "re-spdup", "te-spdup", "re-enrg",
				"te-enrg");
	tsr_text_printf(txt, "\n");
	double sum[RC_COUNT] = {0};
	int nw = 0;
	enum tsr_status s = TSR_OK;
	for (size_t w = 0; s == TSR_OK && w < c->workload_count; w++) {
		struct tsr_scene *sc = NULL;
		s = xp_load_scene(c, w, &sc, err);
		if (s != TSR_OK)
			break;
		if (c->shipped && sc->pass_count > 1) {
			/* RE and TE keep one pass's state: the default list skips the
			 * multi-pass workloads (named with --workload, they fail) */
			tsr_text_printf(txt, "%-18s skipped: %u passes (RE and TE run single-pass "
					"frames)\n", xp_workload_name(c, w, sc), sc->pass_count);
			tsr_scene_destroy(sc);
			continue;
		}
		const uint32_t n = c->frames ? c->frames : sc->frames;
		double v[RC_COUNT] = {0};
		struct tsr_elimination_stats re = {0};
		s = run_workload(c, &base_cfg, sc, v, &re, err);
		if (s == TSR_OK) {
			char fr[16], fp[24], stale[24];
			snprintf(fr, sizeof(fr), "%u", n);
			snprintf(fp, sizeof(fp), "%llu", (unsigned long long)re.false_positives);
			snprintf(stale, sizeof(stale), "%llu", (unsigned long long)re.stale_inputs);
			add_row(tab, txt, xp_workload_name(c, w, sc), fr, fp, stale, v, timed);
			for (int k = 0; k < RC_COUNT; k++)
				sum[k] += v[k];
			nw++;
			xp_flush(c, out);
		}
		tsr_scene_destroy(sc);
	}
	if (s != TSR_OK)
		return s;
	double mean[RC_COUNT] = {0};
	if (nw) {
		for (int k = 0; k < RC_COUNT; k++)
			mean[k] = sum[k] / nw;
		add_row(tab, txt, "mean", "", "", "", mean, timed);
	}
	tsr_text_printf(txt, "\npaper (RE V): 50%% of tiles skipped and 12%% false negatives "
			"(Fig. 14a); 48%% less\nmemory traffic (Figs. 14b, 13b); TE saves only "
			"color flushes (Fig. 16)\n");
	/* the paper's figures beside tessera's means */
	static const struct {
		const char *figure, *quantity;
		double paper;
		int col;
	} rows[] = {
		{"14a", "tiles_skipped_pct", 50.0, RC_SKIPPED},
		{"14a", "false_negatives_pct", 12.0, RC_FALSE_NEG},
		{"14b", "re_dram_change_pct", -48.0, RC_DRAM_RE},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		xp_paper_row(paper, NULL, 0, rows[i].figure, rows[i].quantity, rows[i].paper,
			     mean[rows[i].col]);
	if (timed) {
		/* RE V-B: 1.74x (Fig. 13a), 43% less energy (Fig. 13b), TE 9% less (Fig. 16) */
		tsr_text_printf(txt, "paper (RE V-B): re %.2fx faster (Fig. 13a) with %.0f%% less "
				"energy (Fig. 13b), te %.0f%% less energy (Fig. 16); tessera: re "
				"%.2fx, %+.1f%%, te %+.1f%% (frames 0 and 1 of a run are never "
				"skipped: RE compares with the frame two back)\n", 1.74, 43.0, 9.0,
				mean[RC_RE_SPEEDUP], mean[RC_RE_ENERGY], mean[RC_TE_ENERGY]);
		xp_paper_row(paper, NULL, 0, "13a", "re_speedup", 1.74, mean[RC_RE_SPEEDUP]);
		xp_paper_row(paper, NULL, 0, "13b", "re_energy_change_pct", -43.0,
			     mean[RC_RE_ENERGY]);
		xp_paper_row(paper, NULL, 0, "16", "te_energy_change_pct", -9.0,
			     mean[RC_TE_ENERGY]);
	}
	return TSR_OK;
}

const struct tsr_experiment tsr_xp_re = {
	.name = "re",
	.summary = "Rendering Elimination and Transaction Elimination on "
		   "configs/re-table1.json, four runs per single-pass workload (base, te, re "
		   "with verify, re+te): tiles skipped, equal inputs, false negatives, "
		   "changed tiles, false positives, stale inputs, TE's removed flushes, and "
		   "the DRAM traffic against base, in total and for re per Parameter Buffer, "
		   "texture, color and Raster Pipeline; with --set timing.enabled=true also "
		   "speedups and energy (RE V, Figs. 13, 14 and 16)",
	.default_workloads = NULL,  /* every shipped workload */
	.default_frames = 0,
	.has_spec = 1,
	.run = run_re,
};
