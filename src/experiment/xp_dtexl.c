/*
 * xp_dtexl.c - `dtexl`: Section V of the DTexL paper (Joseph et al.,
 * "DTexL: Decoupled Raster Pipeline for Texture Locality") on its Table II
 * GPU (configs/dtexl-table2.json: 4 shader cores, 16 KiB L1 texture
 * caches, 1 MiB L2, Z-order, FG-xshift2).
 *
 * Per workload, 21 simulation points (raster.quad_imbalance_stats on in
 * every one; the user's --set first, the point's settings last):
 *
 *   timed (timing.enabled), coupled barriers, Z-order, const assignment:
 *     fg-xshift2 (the baseline of every figure), cg-square (= Zorder-const
 *     of Fig. 16), cg-yrect;
 *   timed, decoupled barriers (timing.barriers=decoupled): fg-xshift2 and
 *     DTexL = HLB-flp2 (hilbert, cg-square, flp2); both again with 16
 *     tiles in flight (timing.tiles_in_flight=16, the most: how far a
 *     lane may run ahead of the oldest tile, 4 by default);
 *   functional (timing off; the caches see the same accesses either way):
 *     the other seven groupings of Fig. 6 (Z-order, const), the other six
 *     assignments of Fig. 8 (docs/raster.md maps each to tiling.order,
 *     raster.quad_grouping and raster.subtile_assignment) and the upper
 *     bound (configs/dtexl-upper-bound.json: one core, a 4x L1, V-C-1).
 *
 * The points of a workload run on `-j` threads (default 2) (each its own tsr_sim; the
 * scene is shared read-only), timed points first; results land in a
 * fixed slot per point, so the report does not depend on thread timing.
 *
 * Tables: "dtexl" (the main one, --csv): one row per workload and point
 * with every measure. Then one per figure, a row per workload and a means
 * row: "dtexl-fig11" (L2 accesses, all streams, normalised to fg-xshift2),
 * "dtexl-fig12" (the tiles' mean quad-distribution deviation, normalised
 * likewise), "dtexl-fig13-15" (speedup = baseline cycles / cycles of
 * cg-square and cg-yrect, coupled; the distributions over tiles of the
 * execution-time and quad imbalance of fg-xshift2 and cg-square: min,
 * quartiles, mean, max), "dtexl-fig16" (decrease in L2 accesses of the
 * eight assignments and the upper bound against fg-xshift2, and the share
 * of the upper bound's decrease each reaches), "dtexl-fig17-18" (speedup
 * and decrease in total energy of decoupled DTexL and decoupled fg-xshift2
 * against coupled fg-xshift2), and "dtexl-paper", the paper's figures
 * beside tessera's means, all as percentages.
 *
 * Means: the paper says "average" without saying which; ratios
 * (normalised accesses and deviations, speedups) are averaged
 * geometrically, percentages (decreases, imbalance distributions)
 * arithmetically; the gap closed of the means row is the mean decrease
 * over the upper bound's mean decrease (the paper's 80%: 46.8% of ~58%).
 * A workload whose baseline deviation is 0 has no normalised deviation
 * (an empty cell) and is left out of that mean.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/xp_priv.h"

/* The simulation points, timed ones first (the longest: started first). */
enum {
	P_FG, P_CG_SQUARE, P_CG_YRECT, P_DEC_FG, P_DTEXL, P_DEC_FG16, P_DTEXL16,  /* timed */
	P_FG_YSHIFT2, P_FG_XSHIFT1, P_FG_XSHIFT3, P_FG_XSHIFT0, P_FG_YSHIFT0, P_CG_XRECT,
	P_CG_TRIANGLE,
	P_Z_FLP, P_HLB_CONST, P_HLB_FLP1, P_HLB_FLP3, P_S_CONST, P_S_FLP, P_UPPER,
	NP
};

static const struct point {
	const char *name;       /* the row's name in the main table */
	const char *config;     /* configs/<config>.json */
	const char *order, *grouping, *assignment;
	int timed, decoupled;
	int window;             /* timing.tiles_in_flight; 0: the configuration's */
} points[NP] = {
	[P_FG] = {"fg-xshift2", "dtexl-table2", "z-order", "fg-xshift2", "const", 1, 0, 0},
	[P_CG_SQUARE] = {"cg-square", "dtexl-table2", "z-order", "cg-square", "const", 1, 0, 0},
	[P_CG_YRECT] = {"cg-yrect", "dtexl-table2", "z-order", "cg-yrect", "const", 1, 0, 0},
	[P_DEC_FG] = {"fg-xshift2-decoupled", "dtexl-table2", "z-order", "fg-xshift2", "const",
		      1, 1, 0},
	[P_DTEXL] = {"dtexl-hlb-flp2-decoupled", "dtexl-table2", "hilbert", "cg-square", "flp2",
		     1, 1, 0},
	[P_DEC_FG16] = {"fg-xshift2-decoupled-w16", "dtexl-table2", "z-order", "fg-xshift2",
			"const", 1, 1, 16},
	[P_DTEXL16] = {"dtexl-hlb-flp2-decoupled-w16", "dtexl-table2", "hilbert", "cg-square",
		       "flp2", 1, 1, 16},
	[P_FG_YSHIFT2] = {"fg-yshift2", "dtexl-table2", "z-order", "fg-yshift2", "const", 0, 0, 0},
	[P_FG_XSHIFT1] = {"fg-xshift1", "dtexl-table2", "z-order", "fg-xshift1", "const", 0, 0, 0},
	[P_FG_XSHIFT3] = {"fg-xshift3", "dtexl-table2", "z-order", "fg-xshift3", "const", 0, 0, 0},
	[P_FG_XSHIFT0] = {"fg-xshift0", "dtexl-table2", "z-order", "fg-xshift0", "const", 0, 0, 0},
	[P_FG_YSHIFT0] = {"fg-yshift0", "dtexl-table2", "z-order", "fg-yshift0", "const", 0, 0, 0},
	[P_CG_XRECT] = {"cg-xrect", "dtexl-table2", "z-order", "cg-xrect", "const", 0, 0, 0},
	[P_CG_TRIANGLE] = {"cg-triangle", "dtexl-table2", "z-order", "cg-triangle", "const", 0,
			   0, 0},
	[P_Z_FLP] = {"zorder-flp", "dtexl-table2", "z-order", "cg-square", "flp1", 0, 0, 0},
	[P_HLB_CONST] = {"hlb-const", "dtexl-table2", "hilbert", "cg-square", "const", 0, 0, 0},
	[P_HLB_FLP1] = {"hlb-flp1", "dtexl-table2", "hilbert", "cg-square", "flp1", 0, 0, 0},
	[P_HLB_FLP3] = {"hlb-flp3", "dtexl-table2", "hilbert", "cg-square", "flp3", 0, 0, 0},
	[P_S_CONST] = {"sorder-const", "dtexl-table2", "s-order", "cg-yrect", "const", 0, 0, 0},
	[P_S_FLP] = {"sorder-flp", "dtexl-table2", "s-order", "cg-yrect", "flp1", 0, 0, 0},
	[P_UPPER] = {"upper-bound", "dtexl-upper-bound", "z-order", "fg-xshift2", "const", 0, 0, 0},
};

/* Fig. 11/12: the ten groupings in the paper's order (fine, then coarse). */
#define NG 10
static const int groupings[NG] = {P_FG, P_FG_YSHIFT2, P_FG_XSHIFT1, P_FG_XSHIFT3,
				  P_FG_XSHIFT0, P_FG_YSHIFT0, P_CG_XRECT, P_CG_YRECT,
				  P_CG_TRIANGLE, P_CG_SQUARE};

/* Fig. 16: the eight assignments of Fig. 8, then the upper bound. */
#define NA 9
static const int assignments[NA] = {P_CG_SQUARE, P_Z_FLP, P_HLB_CONST, P_HLB_FLP1, P_DTEXL,
				    P_HLB_FLP3, P_S_CONST, P_S_FLP, P_UPPER};
static const char *const assignment_names[NA] = {
	"zorder-const", "zorder-flp", "hlb-const", "hlb-flp1", "hlb-flp2", "hlb-flp3",
	"sorder-const", "sorder-flp", "upper-bound"};

/* Threads the points of a workload run on (the machine's two cores). */

/* What one point measured. */
struct result {
	uint64_t l2_accesses;   /* reads + writes at the L2, every stream */
	struct tsr_quad_imbalance_summary quad, time;  /* per-tile distributions, % */
	uint64_t cycles;        /* 0 untimed */
	double busiest_core;    /* the busiest core's busy cycles over the cores' mean (timed) */
	double energy_nj;       /* 0 untimed */
};

/* One point's run: filled by the main thread, run by a worker. */
struct job {
	const struct xp_ctx *c;     /* the experiment's (xp_simulate(): in-process or a sweep) */
	struct tsr_gpu_config cfg;
	const struct tsr_scene *sc;
	uint32_t frames;
	struct result res;
	enum tsr_status status;
	struct tsr_error err;
};


/* Runs one job; its status and error stay in it. */
static void run_job(struct job *j)
{
	struct tsr_frame_stats *t = malloc(sizeof(*t));
	struct xp_timing *tm = malloc(sizeof(*tm));
	uint32_t l2 = 0;
	if (!t || !tm) {
		j->status = tsr_error_set(&j->err, TSR_ERR_NOMEM, "out of memory");
	} else {
		j->status = xp_simulate(j->c, &j->cfg, j->sc, j->frames, t, &l2, tm, &j->err);
	}
	if (j->status == TSR_OK) {
		uint64_t acc = 0;
		for (int s = 0; s < TSR_STREAM_COUNT; s++)
			acc += t->caches[l2][s].reads + t->caches[l2][s].writes;
		j->res.l2_accesses = acc;
		tsr_quad_imbalance_summarise(&t->quad_imbalance, &j->res.quad);
		tsr_quad_imbalance_summarise(&t->time_imbalance, &j->res.time);
		j->res.cycles = tm->cycles;
		uint64_t busy = 0, most = 0;
		const uint32_t cores = j->cfg.mem.cores;
		for (uint32_t k = 0; k < cores && k < TSR_MAX_CORES; k++) {
			busy += t->timing.core_busy[k];
			most = t->timing.core_busy[k] > most ? t->timing.core_busy[k] : most;
		}
		j->res.busiest_core = busy ? (double)most * cores / (double)busy : 0.0;
		j->res.energy_nj = tm->energy_nj;
	}
	free(t);
	free(tm);
}

/* run_job() for xp_parallel(). */
static void run_job_item(void *job)
{
	run_job(job);
}

/*
 * Runs the jobs on c->jobs threads (fewer when a thread cannot start: the
 * calling thread then works too). Returns the first failing job's status
 * in job order, with its message in *err.
 */
static enum tsr_status run_jobs(const struct xp_ctx *c, struct job *jobs, int count,
			       struct tsr_error *err)
{
	TSR_TRY(xp_parallel(jobs, (size_t)count, sizeof(*jobs), run_job_item, c->jobs, err));
	for (int i = 0; i < count; i++)
		if (jobs[i].status != TSR_OK) {
			*err = jobs[i].err;
			return jobs[i].status;
		}
	return TSR_OK;
}

/* Loads point p's configuration: its file, the --set overrides, its settings. */
static enum tsr_status point_config(const struct xp_ctx *c, int p, struct tsr_gpu_config *cfg,
				    struct tsr_error *err)
{
	const struct point *pt = &points[p];
	char order[64], grouping[64], assignment[64], timing[32], barriers[48];
	snprintf(order, sizeof(order), "tiling.order=%s", pt->order);
	snprintf(grouping, sizeof(grouping), "raster.quad_grouping=%s", pt->grouping);
	snprintf(assignment, sizeof(assignment), "raster.subtile_assignment=%s", pt->assignment);
	snprintf(timing, sizeof(timing), "timing.enabled=%s", pt->timed ? "true" : "false");
	snprintf(barriers, sizeof(barriers), "timing.barriers=%s",
		 pt->decoupled ? "decoupled" : "coupled");
	char window[48];
	snprintf(window, sizeof(window), "timing.tiles_in_flight=%d", pt->window);
	const char *extra[] = {order, grouping, assignment, timing, barriers,
			       "raster.quad_imbalance_stats=true", window};
	const size_t n = sizeof(extra) / sizeof(extra[0]) - (pt->window ? 0 : 1);
	return xp_load_config_sets(c, pt->config, extra, n, cfg, err);
}

/* v / base, NAN when base is 0 */
static double ratio(double v, double base)
{
	return base > 0 ? v / base : NAN;
}

/* The measures a workload gives each figure, from its points' results. */
struct row {
	double fig11[NG], fig12[NG];
	double speedup_square, speedup_yrect;
	struct tsr_quad_imbalance_summary time_fg, time_cg, quad_fg, quad_cg;
	double fig16_dec[NA], fig16_gap[NA - 1];
	double speedup_dtexl, speedup_dec_fg, energy_dtexl, energy_dec_fg;
	double speedup_dtexl16, speedup_dec_fg16, energy_dtexl16, energy_dec_fg16;
};

static void measure(const struct result *r, struct row *w)
{
	const struct result *b = &r[P_FG];
	for (int g = 0; g < NG; g++) {
		w->fig11[g] = ratio((double)r[groupings[g]].l2_accesses, (double)b->l2_accesses);
		w->fig12[g] = ratio(r[groupings[g]].quad.mean_pct, b->quad.mean_pct);
	}
	w->speedup_square = ratio((double)b->cycles, (double)r[P_CG_SQUARE].cycles);
	w->speedup_yrect = ratio((double)b->cycles, (double)r[P_CG_YRECT].cycles);
	w->time_fg = b->time;
	w->time_cg = r[P_CG_SQUARE].time;
	w->quad_fg = b->quad;
	w->quad_cg = r[P_CG_SQUARE].quad;
	for (int a = 0; a < NA; a++)
		w->fig16_dec[a] = -xp_pct(r[assignments[a]].l2_accesses, b->l2_accesses);
	for (int a = 0; a < NA - 1; a++)
		w->fig16_gap[a] = 100.0 * ratio(w->fig16_dec[a], w->fig16_dec[NA - 1]);
	w->speedup_dtexl = ratio((double)b->cycles, (double)r[P_DTEXL].cycles);
	w->speedup_dec_fg = ratio((double)b->cycles, (double)r[P_DEC_FG].cycles);
	w->energy_dtexl = -xp_change_pct(r[P_DTEXL].energy_nj, b->energy_nj);
	w->energy_dec_fg = -xp_change_pct(r[P_DEC_FG].energy_nj, b->energy_nj);
	w->speedup_dtexl16 = ratio((double)b->cycles, (double)r[P_DTEXL16].cycles);
	w->speedup_dec_fg16 = ratio((double)b->cycles, (double)r[P_DEC_FG16].cycles);
	w->energy_dtexl16 = -xp_change_pct(r[P_DTEXL16].energy_nj, b->energy_nj);
	w->energy_dec_fg16 = -xp_change_pct(r[P_DEC_FG16].energy_nj, b->energy_nj);
}

/*
 * The mean of n doubles, one every `stride` bytes from base (geometric or
 * arithmetic), values that are not finite (or, for a geometric mean, not
 * positive) left out; NAN when none is left.
 */
static double mean_of(const void *base, size_t stride, int n, int geometric)
{
	double s = 0.0;
	int k = 0;
	for (int i = 0; i < n; i++) {
		double x;
		memcpy(&x, (const char *)base + (size_t)i * stride, sizeof(x));
		if (!isfinite(x) || (geometric && x <= 0))
			continue;
		s += geometric ? log(x) : x;
		k++;
	}
	if (!k)
		return NAN;
	return geometric ? exp(s / k) : s / k;
}

/* The mean of the double at byte offset off of each of the n rows. */
static double mean_at(const struct row *rows, int n, size_t off, int geometric)
{
	return mean_of((const char *)rows + off, sizeof(*rows), n, geometric);
}

/* A number cell: "%.17g", empty when not finite. */
static void cell(struct tsr_table *t, double v)
{
	if (isfinite(v))
		tsr_table_cellf(t, "%.17g", v);
	else
		tsr_table_cellf(t, "%s", "");
}

/* A distribution's six columns in table order: min, q1, median, mean, q3, max. */
static void summary_values(const struct tsr_quad_imbalance_summary *q, double *v)
{
	v[0] = q->min_pct;
	v[1] = q->q1_pct;
	v[2] = q->median_pct;
	v[3] = q->mean_pct;
	v[4] = q->q3_pct;
	v[5] = q->max_pct;
}
static const char *const dist_cols[6] = {"min", "q1", "median", "mean", "q3", "max"};

/* Fig. 13-15's columns of a row (2 + 4 x 6 values). */
#define N1315 26
static void fig1315_values(const struct row *w, double *v)
{
	v[0] = w->speedup_square;
	v[1] = w->speedup_yrect;
	summary_values(&w->time_fg, v + 2);
	summary_values(&w->time_cg, v + 8);
	summary_values(&w->quad_fg, v + 14);
	summary_values(&w->quad_cg, v + 20);
}

/* Prints and adds a row of n values; `fmt` per value ("%7.3f"). */
static void table_row(struct tsr_table *t, struct tsr_text *txt, const char *name,
		      const double *v, int n, const char *fmt, int width)
{
	tsr_table_row(t);
	tsr_table_cellf(t, "%s", name);
	tsr_text_printf(txt, "%-18s", name);
	for (int i = 0; i < n; i++) {
		cell(t, v[i]);
		if (isfinite(v[i]))
			tsr_text_printf(txt, fmt, v[i]);
		else
			tsr_text_printf(txt, " %*s", width - 1, "-");
	}
	tsr_text_printf(txt, "\n");
}

/* Adds a table "name" with columns workload then cols[i] (with prefix). */
static struct tsr_table *add_wide(struct tsr_xp_result *out, const char *name,
				  const char *const *cols, int n, struct tsr_error *err)
{
	char header[1024];
	size_t len = (size_t)snprintf(header, sizeof(header), "workload");
	for (int i = 0; i < n && len < sizeof(header); i++)
		len += (size_t)snprintf(header + len, sizeof(header) - len, ",%s", cols[i]);
	return xp_add_table(out, name, header, err);
}

/* Prints a header line: 18 characters of label then the columns' heads. */
static void heads(struct tsr_text *txt, const char *label, const char *const *h, int n,
		  int width)
{
	tsr_text_printf(txt, "%-18s", label);
	for (int i = 0; i < n; i++)
		tsr_text_printf(txt, " %*s", width - 1, h[i]);
	tsr_text_printf(txt, "\n");
}

static enum tsr_status report(struct xp_ctx *c, struct tsr_xp_result *out,
			      const struct row *rows, char (*names)[64], int nw,
			      struct tsr_error *err);

static enum tsr_status run_dtexl(struct xp_ctx *c, struct tsr_xp_result *out,
				 struct tsr_error *err)
{
	struct tsr_table *main_t = xp_add_table(
		out, "dtexl", "workload,point,config,tiling_order,quad_grouping,"
		"subtile_assignment,barriers,timed,l2_accesses,quad_dev_mean_pct,"
		"quad_dev_max_pct,time_dev_mean_pct,time_dev_max_pct,cycles,energy_nj,"
		"busiest_core_over_mean", err);
	if (!main_t)
		return TSR_ERR_NOMEM;
	struct tsr_text *txt = &out->text;
	tsr_text_printf(txt, "DTexL Section V on configs/dtexl-table2.json (and "
			"dtexl-upper-bound.json), %u frames per run, %d points per workload\n",
			c->frames, NP);
	xp_flush(c, out);
	struct job *jobs = calloc(NP, sizeof(*jobs));
	struct row *rows = calloc(c->workload_count ? c->workload_count : 1, sizeof(*rows));
	char (*names)[64] = calloc(c->workload_count ? c->workload_count : 1, sizeof(*names));
	if (!jobs || !rows || !names) {
		free(jobs);
		free(rows);
		free(names);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	enum tsr_status s = TSR_OK;
	int nw = 0;
	for (size_t w = 0; s == TSR_OK && w < c->workload_count; w++) {
		struct tsr_scene *sc = NULL;
		s = xp_load_scene(c, w, &sc, err);
		if (s != TSR_OK)
			break;
		const uint32_t frames = c->frames ? c->frames : sc->frames;
		for (int p = 0; s == TSR_OK && p < NP; p++) {
			memset(&jobs[p], 0, sizeof(jobs[p]));
			s = point_config(c, p, &jobs[p].cfg, err);
			jobs[p].c = c;
			jobs[p].sc = sc;
			jobs[p].frames = frames;
		}
		if (s == TSR_OK)
			s = run_jobs(c, jobs, NP, err);
		if (s == TSR_OK) {
			const char *name = xp_workload_name(c, w, sc);
			snprintf(names[nw], sizeof(names[nw]), "%s", name);
			struct result r[NP];
			for (int p = 0; p < NP; p++) {
				r[p] = jobs[p].res;
				const struct point *pt = &points[p];
				tsr_table_row(main_t);
				tsr_table_cellf(main_t, "%s", name);
				tsr_table_cellf(main_t, "%s", pt->name);
				tsr_table_cellf(main_t, "%s", pt->config);
				tsr_table_cellf(main_t, "%s", pt->order);
				tsr_table_cellf(main_t, "%s", pt->grouping);
				tsr_table_cellf(main_t, "%s", pt->assignment);
				tsr_table_cellf(main_t, "%s", pt->decoupled ? "decoupled" : "coupled");
				tsr_table_cellf(main_t, "%d", pt->timed);
				tsr_table_cellf(main_t, "%llu", (unsigned long long)r[p].l2_accesses);
				tsr_table_cellf(main_t, "%.17g", r[p].quad.mean_pct);
				tsr_table_cellf(main_t, "%.17g", r[p].quad.max_pct);
				tsr_table_cellf(main_t, "%.17g", r[p].time.mean_pct);
				tsr_table_cellf(main_t, "%.17g", r[p].time.max_pct);
				tsr_table_cellf(main_t, "%llu", (unsigned long long)r[p].cycles);
				tsr_table_cellf(main_t, "%.17g", r[p].energy_nj);
				tsr_table_cellf(main_t, "%.17g", r[p].busiest_core);
			}
			measure(r, &rows[nw]);
			tsr_text_printf(txt, "%-18s L2 accesses cg-square %+.1f%%, dtexl %+.1f%%; "
					"speedup dtexl %.3fx, decoupled fg-xshift2 %.3fx\n", name,
					-rows[nw].fig16_dec[0], -rows[nw].fig16_dec[4],
					rows[nw].speedup_dtexl, rows[nw].speedup_dec_fg);
			nw++;
			xp_flush(c, out);
		}
		tsr_scene_destroy(sc);
	}
	free(jobs);
	if (s == TSR_OK)
		s = report(c, out, rows, names, nw, err);
	free(rows);
	free(names);
	return s;
}

/* The per-figure tables, their means rows and the paper's figures. */
static enum tsr_status report(struct xp_ctx *c, struct tsr_xp_result *out,
			      const struct row *rows, char (*names)[64], int nw,
			      struct tsr_error *err)
{
	struct tsr_text *txt = &out->text;
#define MEAN1(field, geometric) mean_at(rows, nw, offsetof(struct row, field), geometric)
	const char *gnames[NG];
	for (int g = 0; g < NG; g++)
		gnames[g] = points[groupings[g]].name;

	/* Figs. 11 and 12 */
	struct tsr_table *f11 = add_wide(out, "dtexl-fig11", gnames, NG, err);
	struct tsr_table *f12 = f11 ? add_wide(out, "dtexl-fig12", gnames, NG, err) : NULL;
	if (!f12)
		return TSR_ERR_NOMEM;
	double m11[NG], m12[NG];
	for (int g = 0; g < NG; g++) {
		const size_t at = (size_t)g * sizeof(double);
		m11[g] = mean_at(rows, nw, offsetof(struct row, fig11) + at, 1);
		m12[g] = mean_at(rows, nw, offsetof(struct row, fig12) + at, 1);
	}
	static const char *const gheads[NG] = {"xshift2", "yshift2", "xshift1", "xshift3",
					       "xshift0", "yshift0", "CG-xrect", "CG-yrect",
					       "CG-tri", "CG-sq"};
	tsr_text_printf(txt, "\nFig. 11: L2 accesses normalised to FG-xshift2 (means: "
			"geometric)\n");
	heads(txt, "workload", gheads, NG, 9);
	for (int w = 0; w < nw; w++)
		table_row(f11, txt, names[w], rows[w].fig11, NG, " %8.3f", 9);
	table_row(f11, txt, "mean", m11, NG, " %8.3f", 9);
	tsr_text_printf(txt, "\nFig. 12: mean quad-distribution deviation per tile, normalised "
			"to FG-xshift2 (geometric)\n");
	heads(txt, "workload", gheads, NG, 9);
	for (int w = 0; w < nw; w++)
		table_row(f12, txt, names[w], rows[w].fig12, NG, " %8.2f", 9);
	table_row(f12, txt, "mean", m12, NG, " %8.2f", 9);
	xp_flush(c, out);

	/* Figs. 13-15 */
	const char *c1315[N1315];
	char c1315buf[N1315][40];
	static const char *const dists[4] = {"time_fg", "time_cg", "quad_fg", "quad_cg"};
	c1315[0] = "speedup_cg_square";
	c1315[1] = "speedup_cg_yrect";
	for (int d = 0; d < 4; d++)
		for (int k = 0; k < 6; k++) {
			snprintf(c1315buf[2 + d * 6 + k], sizeof(c1315buf[0]), "%s_%s_pct", dists[d],
				 dist_cols[k]);
			c1315[2 + d * 6 + k] = c1315buf[2 + d * 6 + k];
		}
	struct tsr_table *f13 = add_wide(out, "dtexl-fig13-15", c1315, N1315, err);
	if (!f13)
		return TSR_ERR_NOMEM;
	double (*v1315)[N1315] = malloc((size_t)(nw + 1) * sizeof(*v1315));
	if (!v1315)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	for (int w = 0; w < nw; w++)
		fig1315_values(&rows[w], v1315[w]);
	for (int k = 0; k < N1315; k++)
		v1315[nw][k] = mean_of(&v1315[0][k], sizeof(v1315[0]), nw, k < 2);
	tsr_text_printf(txt, "\nFig. 13: speedup over FG-xshift2, coupled barriers (geometric "
			"mean); Figs. 14-15: per-tile mean deviation of the cores' execution time "
			"and quads,\n%% of their mean: min q1 median mean q3 max over the tiles "
			"(means: arithmetic)\n");
	static const char *const h13[2] = {"CG-sq", "CG-yrect"};
	for (int w = 0; w <= nw; w++) {  /* the table */
		tsr_table_row(f13);
		tsr_table_cellf(f13, "%s", w < nw ? names[w] : "mean");
		for (int k = 0; k < N1315; k++)
			cell(f13, v1315[w][k]);
	}
	for (int part = 0; part < 3; part++) {  /* the text, one figure at a time */
		if (part == 0)
			heads(txt, "workload", h13, 2, 9);
		else
			tsr_text_printf(txt, "%-18s %-35s %-35s\n", "workload",
					part == 1 ? "Fig. 14 time FG-xshift2" : "Fig. 15 quads FG-xshift2",
					"CG-square");
		for (int w = 0; w <= nw; w++) {
			const double *v = v1315[w] + (part == 0 ? 0 : 2 + (part - 1) * 12);
			tsr_text_printf(txt, "%-18s", w < nw ? names[w] : "mean");
			for (int k = 0; k < (part == 0 ? 2 : 12); k++)
				tsr_text_printf(txt, part == 0 ? " %8.3f" : " %5.1f", v[k]);
			tsr_text_printf(txt, "\n");
		}
	}
	xp_flush(c, out);

	/* Fig. 16 */
	const char *c16[2 * NA - 1];
	char c16buf[2 * NA - 1][40];
	for (int a = 0; a < NA; a++) {
		snprintf(c16buf[a], sizeof(c16buf[0]), "dec_%s_pct", assignment_names[a]);
		c16[a] = c16buf[a];
	}
	for (int a = 0; a < NA - 1; a++) {
		snprintf(c16buf[NA + a], sizeof(c16buf[0]), "gap_%s_pct", assignment_names[a]);
		c16[NA + a] = c16buf[NA + a];
	}
	struct tsr_table *f16 = add_wide(out, "dtexl-fig16", c16, 2 * NA - 1, err);
	if (!f16) {
		free(v1315);
		return TSR_ERR_NOMEM;
	}
	double m16[2 * NA - 1];
	for (int a = 0; a < NA; a++)
		m16[a] = mean_at(rows, nw,
				 offsetof(struct row, fig16_dec) + (size_t)a * sizeof(double), 0);
	for (int a = 0; a < NA - 1; a++)
		m16[NA + a] = 100.0 * ratio(m16[a], m16[NA - 1]);
	static const char *const h16[NA] = {"Z-const", "Z-flp", "HLB-const", "HLB-flp1",
					    "HLB-flp2", "HLB-flp3", "S-const", "S-flp", "upper"};
	tsr_text_printf(txt, "\nFig. 16: decrease in L2 accesses against FG-xshift2, %% "
			"(means: arithmetic), then the share of the upper bound's decrease, %%\n");
	double (*v16)[2 * NA - 1] = malloc((size_t)(nw + 1) * sizeof(*v16));
	if (!v16) {
		free(v1315);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	for (int w = 0; w <= nw; w++) {
		for (int a = 0; a < NA; a++)
			v16[w][a] = w < nw ? rows[w].fig16_dec[a] : m16[a];
		for (int a = 0; a < NA - 1; a++)
			v16[w][NA + a] = w < nw ? rows[w].fig16_gap[a] : m16[NA + a];
		tsr_table_row(f16);
		tsr_table_cellf(f16, "%s", w < nw ? names[w] : "mean");
		for (int k = 0; k < 2 * NA - 1; k++)
			cell(f16, v16[w][k]);
	}
	for (int part = 0; part < 2; part++) {
		heads(txt, part ? "gap closed" : "L2 decrease", h16, part ? NA - 1 : NA, 10);
		for (int w = 0; w <= nw; w++) {
			tsr_text_printf(txt, "%-18s", w < nw ? names[w] : "mean");
			for (int a = 0; a < (part ? NA - 1 : NA); a++)
				tsr_text_printf(txt, " %9.1f", v16[w][part ? NA + a : a]);
			tsr_text_printf(txt, "\n");
		}
	}
	free(v16);
	xp_flush(c, out);

	/* Figs. 17 and 18 */
	static const char *const c17[8] = {
		"speedup_dtexl", "speedup_fg_xshift2_decoupled", "energy_decrease_dtexl_pct",
		"energy_decrease_fg_xshift2_decoupled_pct", "speedup_dtexl_w16",
		"speedup_fg_xshift2_decoupled_w16", "energy_decrease_dtexl_w16_pct",
		"energy_decrease_fg_xshift2_decoupled_w16_pct"};
	struct tsr_table *f17 = add_wide(out, "dtexl-fig17-18", c17, 8, err);
	struct tsr_table *paper = f17 ? xp_add_paper_table(out, "dtexl-paper", "tessera_pct", err)
				      : NULL;
	if (!paper) {
		free(v1315);
		return TSR_ERR_NOMEM;
	}
	double m17[8] = {MEAN1(speedup_dtexl, 1), MEAN1(speedup_dec_fg, 1),
			 MEAN1(energy_dtexl, 0), MEAN1(energy_dec_fg, 0),
			 MEAN1(speedup_dtexl16, 1), MEAN1(speedup_dec_fg16, 1),
			 MEAN1(energy_dtexl16, 0), MEAN1(energy_dec_fg16, 0)};
	static const char *const h17[8] = {"DTexL", "FG-dec", "E DTexL", "E FG-dec",
					   "DTexL16", "FG-dec16", "E DTexL16", "E FG-dec16"};
	tsr_text_printf(txt, "\nFig. 17: speedup over coupled FG-xshift2 (geometric mean); "
			"Fig. 18: decrease in total energy, %% (arithmetic);\nthe same with "
			"16 tiles in flight (timing.tiles_in_flight=16: lanes may run further "
			"ahead)\n");
	heads(txt, "workload", h17, 8, 10);
	double max_dtexl = 0.0;
	for (int w = 0; w <= nw; w++) {
		const struct row *r = &rows[w < nw ? w : 0];
		double v[8] = {r->speedup_dtexl, r->speedup_dec_fg, r->energy_dtexl,
			       r->energy_dec_fg, r->speedup_dtexl16, r->speedup_dec_fg16,
			       r->energy_dtexl16, r->energy_dec_fg16};
		if (w < nw && isfinite(v[0]) && v[0] > max_dtexl)
			max_dtexl = v[0];
		table_row(f17, txt, w < nw ? names[w] : "mean", w < nw ? v : m17, 8, " %9.3f", 10);
	}
	xp_flush(c, out);

	/* the paper's figures (its text) beside tessera's means, in percent */
	tsr_text_printf(txt, "\n%-6s %-52s %8s %8s\n", "figure", "quantity (mean over the "
			"workloads)", "paper", "tessera");
	const int wq = 52;
	xp_paper_row(paper, txt, wq, "11", "L2 accesses CG-square vs FG-xshift2, %", -46.8,
		     100.0 * (m11[9] - 1.0));
	xp_paper_row(paper, txt, wq, "11", "L2 accesses CG-xrect vs FG-xshift2, %", -40.0,
		     100.0 * (m11[6] - 1.0));
	xp_paper_row(paper, txt, wq, "11", "L2 accesses CG-yrect vs FG-xshift2, %", -45.0,
		     100.0 * (m11[7] - 1.0));
	xp_paper_row(paper, txt, wq, "12", "quad deviation CG-xrect vs FG-xshift2, % (6x)", 500.0,
		     100.0 * (m12[6] - 1.0));
	xp_paper_row(paper, txt, wq, "12", "quad deviation CG-yrect vs FG-xshift2, % (10x)", 900.0,
		     100.0 * (m12[7] - 1.0));
	xp_paper_row(paper, txt, wq, "13", "speedup CG-square, coupled, % (\"no speedup\")", 0.0,
		     100.0 * (v1315[nw][0] - 1.0));
	xp_paper_row(paper, txt, wq, "14", "time deviation FG-xshift2, mean of tiles, %", 5.0,
		     v1315[nw][2 + 3]);
	double max_cg = 0.0;
	for (int w = 0; w < nw; w++)
		if (v1315[w][8 + 5] > max_cg)
			max_cg = v1315[w][8 + 5];
	xp_paper_row(paper, txt, wq, "14", "time deviation CG-square, max of tiles (TRu), %",
		     150.0, max_cg);
	xp_paper_row(paper, txt, wq, "16", "L2 decrease Zorder-const, %", 40.7, m16[0]);
	xp_paper_row(paper, txt, wq, "16", "L2 decrease HLB-const, %", 40.7, m16[2]);
	xp_paper_row(paper, txt, wq, "16", "L2 decrease HLB-flp1, %", 46.5, m16[3]);
	xp_paper_row(paper, txt, wq, "16", "L2 decrease HLB-flp2, %", 46.5, m16[4]);
	xp_paper_row(paper, txt, wq, "16", "L2 decrease HLB-flp3, %", 46.5, m16[5]);
	xp_paper_row(paper, txt, wq, "16", "L2 decrease Sorder-const, %", 46.8, m16[6]);
	xp_paper_row(paper, txt, wq, "16", "L2 decrease Sorder-flp, %", 46.8, m16[7]);
	double best = m16[0];
	for (int a = 1; a < NA - 1; a++)
		if (m16[a] > best)
			best = m16[a];
	xp_paper_row(paper, txt, wq, "16", "gap to the upper bound closed, best, %", 80.0,
		     100.0 * ratio(best, m16[NA - 1]));
	xp_paper_row(paper, txt, wq, "17", "speedup DTexL (HLB-flp2, decoupled), %", 20.0,
		     100.0 * (m17[0] - 1.0));
	xp_paper_row(paper, txt, wq, "17", "speedup DTexL, best workload (GTr), %", 40.0,
		     100.0 * (max_dtexl - 1.0));
	xp_paper_row(paper, txt, wq, "17", "speedup FG-xshift2 decoupled, %", 9.0,
		     100.0 * (m17[1] - 1.0));
	xp_paper_row(paper, txt, wq, "18", "energy decrease DTexL, %", 6.3, m17[2]);
	xp_paper_row(paper, txt, wq, "18", "energy decrease FG-xshift2 decoupled, %", 3.0,
		     m17[3]);
	xp_paper_row(paper, txt, wq, "17", "speedup DTexL, 16 tiles in flight, %", 20.0,
		     100.0 * (m17[4] - 1.0));
	xp_paper_row(paper, txt, wq, "17", "speedup FG-xshift2 decoupled, 16 in flight, %", 9.0,
		     100.0 * (m17[5] - 1.0));
	xp_paper_row(paper, txt, wq, "18", "energy decrease DTexL, 16 in flight, %", 6.3,
		     m17[6]);
	free(v1315);
	xp_flush(c, out);
#undef MEAN1
	return TSR_OK;
}

const struct tsr_experiment tsr_xp_dtexl = {
	.name = "dtexl",
	.summary = "DTexL Section V on configs/dtexl-table2.json, 21 runs per workload: L2 "
		   "accesses and quad imbalance of the ten quad groupings, speedup and "
		   "per-tile execution-time and quad imbalance of CG-square and CG-yrect "
		   "with coupled barriers, the eight subtile assignments against the upper "
		   "bound (configs/dtexl-upper-bound.json), DTexL (HLB-flp2) and FG-xshift2 "
		   "with decoupled barriers: speedup and energy (DTexL V, Figs. 11-18)",
	.default_workloads = NULL,  /* every shipped workload */
	.default_frames = 2,
	.run = run_dtexl,
	.has_spec = 1,  /* experiments/dtexl.json (the upper bound's point names its config) */
};
