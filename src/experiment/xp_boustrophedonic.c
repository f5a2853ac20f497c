/*
 * xp_boustrophedonic.c - `boustrophedonic`: Section V of the
 * boustrophedonic-frames paper on its Table II GPU.
 *
 * V-A (Figs. 10 and 15), configs/boustrophedonic-texture-l2.json: every
 * L1 but the texture caches is perfect, so the L2 receives texture
 * accesses only. Two runs per workload, forward tile order every frame
 * (FO) and reversed every other frame (RO, tiling.reverse_every_other_
 * frame). Each run records the L2's input in memory (a cache observer,
 * as `tessera run --record-trace` does, without the file; from a sweep,
 * the point's trace-l2.bin, which experiments/boustrophedonic.json
 * records: xp_record()) and replays it
 * through the L2's geometry under LRU, MRU (FO only), OPT and OPTPT
 * (cachesim/replay.h; OPT and OPTPT exist only offline). In this
 * configuration the L2's input does not depend on the L2's policy (no
 * write-backs, no inclusion), so a replay under MRU is an MRU run. The
 * LRU replay must reproduce the run's L2 read misses (column
 * run_l2_read_misses; the report says "ok" or "MISMATCH"); the runs must
 * send no non-texture access to the L2 (column l2_non_texture_accesses).
 * Each workload's texture footprint is its distinct texture lines at the
 * L2 per frame (FO run, mean over frames) x 64 bytes; rows are sorted by
 * it, as the paper orders its applications (Table I).
 *
 * Fig. 9: the fraction of decrease in misses (FDM) of LRU RO against LRU
 * FO on loop traces (cachesim/looptrace.h) of s distinct lines through a
 * fully associative cache of j = 8 lines, steady state (iterations after
 * the first), against the paper's FDM = j / s for s > j, 0 otherwise.
 *
 * V-B (Figs. 11 and 12), configs/boustrophedonic-table2.json (shared L2):
 * LRU FO, LRU RO and MRU FO (caches.l2.policy=mru); per run the share of
 * the L2's misses per stream (texture, Parameter Buffer, geometry =
 * index + vertex, instruction, other) and DRAM bytes (all streams, color
 * flushes included: the paper's main-memory accesses x 64) with the
 * change against LRU FO. With the timing model on (`--set
 * timing.enabled=true`) the V-B runs also give their cycles and energy and
 * the speedup (the change of 1 / cycles, Fig. 13), memory hierarchy energy
 * (caches and DRAM, Fig. 14) and total energy against LRU FO; the V-A runs
 * stay untimed (their counters are the same either way and the paper
 * times only the full system).
 *
 * Last, "boustrophedonic-paper": the paper's averages beside tessera's
 * means over the workloads (means of the per-workload changes, as the
 * paper averages its applications).
 *
 * Memory: a recorded L2 access is one struct tsr_line_access (16 bytes, the
 * next use included; 4 more for an access with a meta) plus a 24-byte
 * marker per tile; one trace is held at a time (the 30-frame glmark-scene
 * texture trace: a few million accesses, ~50 MiB).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachesim/linetrace.h"
#include "cachesim/looptrace.h"
#include "cachesim/replay.h"
#include "core/u64map.h"
#include "experiment/xp_priv.h"

/*
 * V-A policies in the paper's order (Figs. 10, 15): name, order (0 FO,
 * 1 RO), replay spec. LRU FO is the baseline.
 */
enum { P_LRU_FO, P_LRU_RO, P_OPT_FO, P_OPTPT_FO, P_OPT_RO, P_OPTPT_RO, P_MRU_FO, NPOL };
static const struct {
	const char *name;
	int ro;
	const char *spec;
} pols[NPOL] = {
	{"lru-fo", 0, "lru"},     {"lru-ro", 1, "lru"},     {"opt-fo", 0, "opt"},
	{"optpt-fo", 0, "optpt"}, {"opt-ro", 1, "opt"},     {"optpt-ro", 1, "optpt"},
	{"mru-fo", 0, "mru"},
};

/* V-B runs on the shared L2: the --set each adds. */
enum { V_LRU_FO, V_LRU_RO, V_MRU_FO, NV };
static const char *const vb_names[NV] = {"lru-fo", "lru-ro", "mru-fo"};

/* Stream groups of Fig. 11. */
enum { G_TEXTURE, G_PB, G_GEOMETRY, G_INSTRUCTION, G_OTHER, NG };
static const char *const group_cols[NG] = {"texture_pct", "pb_pct", "geometry_pct",
					   "instruction_pct", "other_pct"};

static int group_of(int stream)
{
	switch (stream) {
	case TSR_STREAM_TEXTURE: return G_TEXTURE;
	case TSR_STREAM_PB_LISTS:
	case TSR_STREAM_PB_ATTRIBUTES: return G_PB;
	case TSR_STREAM_INDEX:
	case TSR_STREAM_VERTEX: return G_GEOMETRY;
	case TSR_STREAM_INSTRUCTION: return G_INSTRUCTION;
	default: return G_OTHER;
	}
}

/* Fig. 9: a fully associative cache of J lines, loop sizes s, ITERS iterations. */
enum { FDM_J = 8, FDM_ITERS = 16 };
static const uint32_t fdm_sizes[] = {1,  2,  4,  6,  7,  8,  9,  10, 11, 12, 14, 16,
				     20, 24, 28, 32, 40, 48, 64, 96, 128};
enum { NFDM = sizeof(fdm_sizes) / sizeof(fdm_sizes[0]) };

/*
 * The paper's figures (from its text): kind says what tessera's value is.
 * V-A: Fig. 10 "on average we get a reduction of 43.6%, 47.7%, 50.4%,
 * 52.9% and 55%"; V-C: Fig. 15 "MRU FO behaves worse than the baseline
 * by 3.6%"; III: "textures contribute towards 33.7% of main memory
 * accesses and 63.6% of the last level (L2) cache misses" (Figs. 1, 11);
 * V-B-1: Fig. 12 "On average, we get a 5.6% decrease"; V-A: Fig. 9 "the
 * maximum achievable decrease is j/(j+1) [...] 0.88 at s = 9" (8/9).
 * With the timing model (V-B-2, V-B-3): Fig. 13 "an average speedup of
 * 2%", Fig. 14 "a 9.9% decrease [in memory hierarchy energy] on average",
 * "a 2.6% decrease in total GPU energy on average" (text, no figure).
 */
enum {
	K_VA, K_FDM_MAX, K_TEX_L2_SHARE, K_TEX_DRAM_SHARE, K_DRAM_CHANGE,
	K_SPEEDUP, K_MEMORY_ENERGY, K_ENERGY  /* the timing model's, lru-ro vs lru-fo */
};
static const struct {
	const char *figure, *quantity;
	int kind;
	int pol;       /* K_VA: the policy */
	double paper;  /* percent */
} paper_rows[] = {
	{"9", "max FDM of LRU-RO vs LRU-FO (j=8, s=9), loop trace", K_FDM_MAX, 0,
	 100.0 * 8.0 / 9.0},
	{"10", "texture-only L2 misses lru-ro vs lru-fo", K_VA, P_LRU_RO, -43.6},
	{"10", "texture-only L2 misses opt-fo vs lru-fo", K_VA, P_OPT_FO, -47.7},
	{"10", "texture-only L2 misses optpt-fo vs lru-fo", K_VA, P_OPTPT_FO, -50.4},
	{"10", "texture-only L2 misses opt-ro vs lru-fo", K_VA, P_OPT_RO, -52.9},
	{"10", "texture-only L2 misses optpt-ro vs lru-fo", K_VA, P_OPTPT_RO, -55.0},
	{"15", "texture-only L2 misses mru-fo vs lru-fo", K_VA, P_MRU_FO, 3.6},
	{"11", "texture share of L2 misses, shared L2, lru-fo", K_TEX_L2_SHARE, 0, 63.6},
	{"1", "texture share of DRAM traffic, shared L2, lru-fo", K_TEX_DRAM_SHARE, 0, 33.7},
	{"12", "DRAM traffic lru-ro vs lru-fo, shared L2", K_DRAM_CHANGE, 0, -5.6},
	{"13", "speedup lru-ro vs lru-fo, shared L2", K_SPEEDUP, 0, 2.0},
	{"14", "memory hierarchy energy lru-ro vs lru-fo, shared L2", K_MEMORY_ENERGY, 0, -9.9},
	{"V-B", "GPU energy lru-ro vs lru-fo, shared L2", K_ENERGY, 0, -2.6},
};
enum { NPAPER = sizeof(paper_rows) / sizeof(paper_rows[0]) };

/* What one workload measured. */
struct bw_row {
	char name[64];
	double footprint_mib;             /* distinct texture lines at the L2 per frame x 64 B */
	uint64_t misses[NPOL];            /* V-A replays: read + write misses */
	uint64_t run_read_misses[2];      /* V-A runs (FO, RO): the L2's read misses */
	uint64_t non_texture[2];          /* V-A runs: non-texture accesses at the L2 */
	uint64_t trace_accesses[2];       /* V-A runs: line accesses recorded */
	uint64_t vb_misses[NV];           /* V-B: L2 read + write misses */
	double vb_share[NV][NG];          /* V-B: % of the L2's misses per group */
	uint64_t vb_dram[NV];             /* V-B: DRAM bytes */
	uint64_t vb_tex_dram;             /* V-B LRU FO: texture DRAM bytes */
	uint64_t vb_cycles[NV];           /* V-B, timing model: cycles (0: off) */
	double vb_energy_nj[NV];          /* V-B, timing model: energy, nJ */
	double vb_memory_energy_nj[NV];   /* V-B, timing model: caches + DRAM, nJ */
};

/* Mean over frames of the distinct texture lines at the L2 per frame, in MiB. */
static enum tsr_status footprint_mib(const struct tsr_line_trace *lt, double *out,
				     struct tsr_error *err)
{
	struct tsr_u64map set = {0};
	uint64_t lines = 0;
	size_t m = 0;
	for (size_t i = 0; i <= lt->count; i++) {
		int boundary = i == lt->count;
		for (; m < lt->marker_count && lt->markers[m].pos == i; m++)
			boundary |= lt->markers[m].kind == TSR_MARKER_FRAME;
		if (boundary) {  /* a frame ends: count its distinct lines */
			lines += set.count;
			tsr_u64map_release(&set);
			memset(&set, 0, sizeof(set));
		}
		if (i == lt->count)
			break;
		if (lt->accesses[i].stream == TSR_STREAM_TEXTURE &&
		    !tsr_u64map_upsert(&set, lt->accesses[i].addr >> lt->line_shift, 0)) {
			tsr_u64map_release(&set);
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the footprint");
		}
	}
	size_t nf = lt->frames ? lt->frames : 1;
	*out = (double)lines * lt->line_bytes / (double)nf / 1048576.0;
	return TSR_OK;
}

static uint64_t l2_misses(const struct tsr_cache_counters *c)
{
	return c->read_misses + c->write_misses;
}

/* V-A for one workload: the FO and RO runs, their replays and the footprint. */
static enum tsr_status run_va(struct xp_ctx *c, const struct tsr_scene *sc,
			      struct tsr_frame_stats *t, struct bw_row *row,
			      struct tsr_error *err)
{
	for (int ro = 0; ro < 2; ro++) {
		struct tsr_gpu_config cfg;
		TSR_TRY(xp_load_config_extra(c, "boustrophedonic-texture-l2",
				 ro ? "tiling.reverse_every_other_frame=true" : NULL, &cfg, err));
		/*
		 * Counts only: the timing model changes no counter outside its
		 * own group (test 120), and the paper times the shared L2 (V-B)
		 */
		cfg.timing.enabled = 0;
		struct tsr_line_trace lt;
		struct tsr_cache_geometry g;
		uint32_t l2 = 0;
		TSR_TRY(xp_record(c, &cfg, sc, c->frames, "l2", &lt, &g, t, &l2, NULL, err));
		row->run_read_misses[ro] = t->caches[l2][TSR_STREAM_TEXTURE].read_misses;
		row->non_texture[ro] = 0;
		for (int s = 0; s < TSR_STREAM_COUNT; s++) {
			const struct tsr_cache_counters *k = &t->caches[l2][s];
			if (s == TSR_STREAM_TEXTURE)
				continue;
			row->run_read_misses[ro] += k->read_misses;
			row->non_texture[ro] += k->reads + k->writes;
		}
		row->trace_accesses[ro] = lt.count;
		enum tsr_status s = TSR_OK;
		if (!ro)
			s = footprint_mib(&lt, &row->footprint_mib, err);
		const char *specs[NPOL];
		int idx[NPOL];
		uint32_t n = 0;
		for (int p = 0; p < NPOL; p++)
			if (pols[p].ro == ro) {
				idx[n] = p;
				specs[n++] = pols[p].spec;
			}
		struct tsr_replay_result res[NPOL];
		if (s == TSR_OK)
			s = tsr_replay(&lt, &g, specs, n, res, err);
		for (uint32_t i = 0; s == TSR_OK && i < n; i++)
			row->misses[idx[i]] = l2_misses(&res[i].total);
		tsr_line_trace_release(&lt);
		TSR_TRY(s);
	}
	return TSR_OK;
}

/* V-B for one workload: LRU FO, LRU RO and MRU FO on the shared L2. */
static enum tsr_status run_vb(struct xp_ctx *c, const struct tsr_scene *sc,
			      struct tsr_frame_stats *t, struct bw_row *row,
			      struct tsr_error *err)
{
	static const char *const extra[NV] = {NULL, "tiling.reverse_every_other_frame=true",
					      "caches.l2.policy=mru"};
	for (int v = 0; v < NV; v++) {
		struct tsr_gpu_config cfg;
		uint32_t l2 = 0;
		struct xp_timing tm;
		TSR_TRY(xp_load_config_extra(c, "boustrophedonic-table2", extra[v], &cfg, err));
		TSR_TRY(xp_simulate(c, &cfg, sc, c->frames, t, &l2, &tm, err));
		row->vb_cycles[v] = tm.cycles;
		row->vb_energy_nj[v] = tm.energy_nj;
		row->vb_memory_energy_nj[v] = tm.memory_energy_nj;
		uint64_t per[NG] = {0}, all = 0;
		for (int s = 0; s < TSR_STREAM_COUNT; s++) {
			uint64_t m = l2_misses(&t->caches[l2][s]);
			per[group_of(s)] += m;
			all += m;
		}
		row->vb_misses[v] = all;
		for (int gi = 0; gi < NG; gi++)
			row->vb_share[v][gi] = all ? 100.0 * (double)per[gi] / (double)all : 0.0;
		row->vb_dram[v] = xp_dram_bytes(t, 0);
		if (v == V_LRU_FO)
			row->vb_tex_dram = t->dram[TSR_STREAM_TEXTURE].read_bytes +
					   t->dram[TSR_STREAM_TEXTURE].write_bytes;
	}
	return TSR_OK;
}

/* Fig. 9: FDM of LRU RO against LRU FO on loop traces; returns the FDM at s = j + 1. */
/* One workload's V-A and V-B runs, on a worker thread of xp_parallel(). */
struct bw_job {
	struct xp_ctx *c;          /* read only */
	const struct tsr_scene *sc;
	struct bw_row *row;
	enum tsr_status status;
	struct tsr_error err;
};

static void bw_job_run(void *item)
{
	struct bw_job *j = item;
	struct tsr_frame_stats *t = malloc(sizeof(*t));
	if (!t) {
		j->status = tsr_error_set(&j->err, TSR_ERR_NOMEM, "out of memory");
		return;
	}
	j->status = run_va(j->c, j->sc, t, j->row, &j->err);
	if (j->status == TSR_OK)
		j->status = run_vb(j->c, j->sc, t, j->row, &j->err);
	free(t);
}

static enum tsr_status run_fdm(struct tsr_xp_result *out, struct tsr_table *tab,
			       double *fdm_max, struct tsr_error *err)
{
	struct tsr_text *txt = &out->text;
	tsr_text_printf(txt, "\nFig. 9: loop traces of s distinct lines, fully associative cache "
			"of j = %d lines, LRU, misses per iteration after the first\n", FDM_J);
	tsr_text_printf(txt, "%5s %10s %10s %12s %12s\n", "s", "LRU-FO", "LRU-RO", "FDM tessera",
			"FDM paper");
	uint32_t m[FDM_ITERS];
	*fdm_max = 0.0;
	for (int i = 0; i < NFDM; i++) {
		uint32_t s = fdm_sizes[i];
		double per[2];
		for (int ro = 0; ro < 2; ro++) {
			TSR_TRY(tsr_loop_misses("lru", s, FDM_J, 1, FDM_ITERS, ro, m, err));
			uint64_t sum = 0;
			for (int it = 1; it < FDM_ITERS; it++)
				sum += m[it];
			per[ro] = (double)sum / (FDM_ITERS - 1);
		}
		double fdm = per[0] > 0 ? 100.0 * (per[0] - per[1]) / per[0] : 0.0;
		double paper = s > FDM_J ? 100.0 * FDM_J / s : 0.0;  /* FDM = j / s */
		if (s == FDM_J + 1)
			*fdm_max = fdm;
		tsr_text_printf(txt, "%5u %10.2f %10.2f %11.2f%% %11.2f%%\n", s, per[0], per[1], fdm,
				paper);
		tsr_table_row(tab);
		tsr_table_cellf(tab, "%u", s);
		tsr_table_cellf(tab, "%.6f", per[0]);
		tsr_table_cellf(tab, "%.6f", per[1]);
		tsr_table_cellf(tab, "%.6f", fdm);
		tsr_table_cellf(tab, "%.6f", paper);
	}
	return TSR_OK;
}

static int by_footprint(const void *a, const void *b)
{
	const struct bw_row *x = a, *y = b;
	return (x->footprint_mib > y->footprint_mib) - (x->footprint_mib < y->footprint_mib);
}

/* The V-A table and report (rows sorted by footprint); sums the changes into mean[]. */
static void print_va(struct tsr_xp_result *out, struct tsr_table *tab, const struct bw_row *rows,
		     size_t nw, double *mean)
{
	struct tsr_text *txt = &out->text;
	tsr_text_printf(txt, "\nV-A, Figs. 10 and 15: texture-only L2 (boustrophedonic-texture-l2), "
			"L2 misses; change against LRU-FO\n");
	tsr_text_printf(txt, "%-18s %8s %11s", "workload", "tex MiB", "LRU-FO");
	for (int p = 1; p < NPOL; p++)
		tsr_text_printf(txt, " %8s", pols[p].name);
	tsr_text_printf(txt, "  %s\n", "LRU replay = run");
	for (int p = 0; p < NPOL; p++)
		mean[p] = 0.0;
	for (size_t w = 0; w < nw; w++) {
		const struct bw_row *r = &rows[w];
		int ok = r->misses[P_LRU_FO] == r->run_read_misses[0] &&
			 r->misses[P_LRU_RO] == r->run_read_misses[1];
		tsr_text_printf(txt, "%-18s %8.3f %11llu", r->name, r->footprint_mib,
				(unsigned long long)r->misses[P_LRU_FO]);
		for (int p = 1; p < NPOL; p++) {
			double chg = xp_pct(r->misses[p], r->misses[P_LRU_FO]);
			tsr_text_printf(txt, " %7.1f%%", chg);
		}
		tsr_text_printf(txt, "  %s%s\n", ok ? "ok" : "MISMATCH",
				r->non_texture[0] || r->non_texture[1] ? ", NON-TEXTURE ACCESSES AT THE L2"
								       : "");
		for (int p = 0; p < NPOL; p++) {
			double chg = xp_pct(r->misses[p], r->misses[P_LRU_FO]);
			mean[p] += chg / (double)nw;
			int lru = p == P_LRU_FO || p == P_LRU_RO;
			tsr_table_row(tab);
			tsr_table_cellf(tab, "%s", r->name);
			tsr_table_cellf(tab, "%.6f", r->footprint_mib);
			tsr_table_cellf(tab, "%s", pols[p].name);
			tsr_table_cellf(tab, "%llu", (unsigned long long)r->misses[p]);
			tsr_table_cellf(tab, "%.3f", chg);
			if (lru) {
				tsr_table_cellf(tab, "%llu",
						(unsigned long long)r->run_read_misses[pols[p].ro]);
				tsr_table_cellf(tab, "%llu",
						(unsigned long long)r->non_texture[pols[p].ro]);
				tsr_table_cellf(tab, "%llu",
						(unsigned long long)r->trace_accesses[pols[p].ro]);
			} else {
				tsr_table_cellf(tab, "%s", "");
				tsr_table_cellf(tab, "%s", "");
				tsr_table_cellf(tab, "%s", "");
			}
		}
	}
	tsr_text_printf(txt, "%-18s %8s %11s", "mean", "", "");
	for (int p = 1; p < NPOL; p++)
		tsr_text_printf(txt, " %7.1f%%", mean[p]);
	tsr_text_printf(txt, "\n%-18s %8s %11s", "paper (mean)", "", "");
	for (int p = 1; p < NPOL; p++) {
		double v = 0.0;
		for (int i = 0; i < NPAPER; i++)
			if (paper_rows[i].kind == K_VA && paper_rows[i].pol == p)
				v = paper_rows[i].paper;
		tsr_text_printf(txt, " %7.1f%%", v);
	}
	tsr_text_printf(txt, "\n");
	for (int p = 0; p < NPOL; p++) {
		tsr_table_row(tab);
		tsr_table_cellf(tab, "%s", "mean");
		tsr_table_cellf(tab, "%s", "");
		tsr_table_cellf(tab, "%s", pols[p].name);
		tsr_table_cellf(tab, "%s", "");
		tsr_table_cellf(tab, "%.3f", mean[p]);
	}
}

/* The timing model's changes against LRU FO (V-B). */
enum { T_SPEEDUP, T_MEMORY_ENERGY, T_ENERGY, NT };

/* Means over the workloads of V-B that the paper table needs. */
struct vb_means {
	double tex_l2_share, tex_dram_share, dram_chg;  /* LRU FO shares, LRU RO change */
	double timed[NT];                               /* LRU RO, timing model */
};

/*
 * The V-B table and report; with timed, also the runs' cycles and energy
 * and their changes against LRU FO: speedup (the change of 1 / cycles),
 * memory hierarchy (caches and DRAM) and total energy.
 */
static void print_vb(struct tsr_xp_result *out, struct tsr_table *tab, const struct bw_row *rows,
		     size_t nw, int timed, struct vb_means *m)
{
	struct tsr_text *txt = &out->text;
	tsr_text_printf(txt, "\nV-B, Figs. 11 and 12: shared L2 (boustrophedonic-table2): share of "
			"the L2's misses per stream, DRAM bytes; change against LRU-FO\n");
	tsr_text_printf(txt, "%-18s %-7s %11s %8s %8s %8s %8s %8s %13s %8s", "workload", "run",
			"L2 misses", "texture", "PB", "geometry", "instr", "other", "DRAM bytes",
			"chg");
	if (timed)
		tsr_text_printf(txt, " %11s %8s %8s %8s", "cycles", "speedup", "mem-E", "energy");
	tsr_text_printf(txt, "\n");
	double mean_share[NV][NG] = {{0}}, mean_chg[NV] = {0}, mean_t[NV][NT] = {{0}};
	m->tex_dram_share = 0.0;
	for (size_t w = 0; w < nw; w++) {
		const struct bw_row *r = &rows[w];
		m->tex_dram_share += r->vb_dram[V_LRU_FO]
			? 100.0 * (double)r->vb_tex_dram / (double)r->vb_dram[V_LRU_FO] / (double)nw
			: 0.0;
		for (int v = 0; v < NV; v++) {
			double chg = xp_pct(r->vb_dram[v], r->vb_dram[V_LRU_FO]);
			double tc[NT] = {
				xp_change_pct(r->vb_cycles[v] ? 1.0 / (double)r->vb_cycles[v] : 0.0,
					      r->vb_cycles[V_LRU_FO]
						      ? 1.0 / (double)r->vb_cycles[V_LRU_FO] : 0.0),
				xp_change_pct(r->vb_memory_energy_nj[v],
					      r->vb_memory_energy_nj[V_LRU_FO]),
				xp_change_pct(r->vb_energy_nj[v], r->vb_energy_nj[V_LRU_FO]),
			};
			mean_chg[v] += chg / (double)nw;
			for (int k = 0; k < NT; k++)
				mean_t[v][k] += tc[k] / (double)nw;
			tsr_text_printf(txt, "%-18s %-7s %11llu", r->name, vb_names[v],
					(unsigned long long)r->vb_misses[v]);
			for (int g = 0; g < NG; g++) {
				mean_share[v][g] += r->vb_share[v][g] / (double)nw;
				tsr_text_printf(txt, " %7.1f%%", r->vb_share[v][g]);
			}
			tsr_text_printf(txt, " %13llu %7.1f%%", (unsigned long long)r->vb_dram[v], chg);
			if (timed)
				tsr_text_printf(txt, " %11llu %+7.1f%% %+7.1f%% %+7.1f%%",
						(unsigned long long)r->vb_cycles[v], tc[T_SPEEDUP],
						tc[T_MEMORY_ENERGY], tc[T_ENERGY]);
			tsr_text_printf(txt, "\n");
			tsr_table_row(tab);
			tsr_table_cellf(tab, "%s", r->name);
			tsr_table_cellf(tab, "%s", vb_names[v]);
			tsr_table_cellf(tab, "%llu", (unsigned long long)r->vb_misses[v]);
			for (int g = 0; g < NG; g++)
				tsr_table_cellf(tab, "%.6f", r->vb_share[v][g]);
			tsr_table_cellf(tab, "%llu", (unsigned long long)r->vb_dram[v]);
			tsr_table_cellf(tab, "%.3f", chg);
			if (timed) {
				tsr_table_cellf(tab, "%llu", (unsigned long long)r->vb_cycles[v]);
				tsr_table_cellf(tab, "%.3f", r->vb_energy_nj[v]);
				for (int k = 0; k < NT; k++)
					tsr_table_cellf(tab, "%.3f", tc[k]);
			} else {
				for (int k = 0; k < 2 + NT; k++)
					tsr_table_cellf(tab, "%s", "");  /* no timing model */
			}
		}
	}
	for (int v = 0; v < NV; v++) {
		tsr_text_printf(txt, "%-18s %-7s %11s", "mean", vb_names[v], "");
		for (int g = 0; g < NG; g++)
			tsr_text_printf(txt, " %7.1f%%", mean_share[v][g]);
		tsr_text_printf(txt, " %13s %7.1f%%", "", mean_chg[v]);
		if (timed)
			tsr_text_printf(txt, " %11s %+7.1f%% %+7.1f%% %+7.1f%%", "",
					mean_t[v][T_SPEEDUP], mean_t[v][T_MEMORY_ENERGY],
					mean_t[v][T_ENERGY]);
		tsr_text_printf(txt, "\n");
		tsr_table_row(tab);
		tsr_table_cellf(tab, "%s", "mean");
		tsr_table_cellf(tab, "%s", vb_names[v]);
		tsr_table_cellf(tab, "%s", "");
		for (int g = 0; g < NG; g++)
			tsr_table_cellf(tab, "%.6f", mean_share[v][g]);
		tsr_table_cellf(tab, "%s", "");
		tsr_table_cellf(tab, "%.3f", mean_chg[v]);
		tsr_table_cellf(tab, "%s", "");
		tsr_table_cellf(tab, "%s", "");
		for (int k = 0; k < NT; k++) {
			if (timed)
				tsr_table_cellf(tab, "%.3f", mean_t[v][k]);
			else
				tsr_table_cellf(tab, "%s", "");
		}
	}
	m->tex_l2_share = mean_share[V_LRU_FO][G_TEXTURE];
	m->dram_chg = mean_chg[V_LRU_RO];
	for (int k = 0; k < NT; k++)
		m->timed[k] = mean_t[V_LRU_RO][k];
}

static enum tsr_status run_boustrophedonic(struct xp_ctx *c, struct tsr_xp_result *out,
					   struct tsr_error *err)
{
	struct tsr_table *tab = xp_add_table(out, "boustrophedonic",
		"workload,texture_footprint_mib,policy,l2_misses,change_pct,run_l2_read_misses,"
		"l2_non_texture_accesses,trace_line_accesses", err);
	struct tsr_table *fdm = tab ? xp_add_table(out, "boustrophedonic-fdm",
		"s,lru_fo_misses_per_iteration,lru_ro_misses_per_iteration,fdm_pct,paper_fdm_pct",
		err) : NULL;
	char hdr[256];
	snprintf(hdr, sizeof(hdr), "workload,run,l2_misses,%s,%s,%s,%s,%s,dram_bytes,"
		 "dram_change_pct,cycles,energy_nj,speedup_pct,memory_energy_change_pct,"
		 "energy_change_pct", group_cols[0], group_cols[1], group_cols[2], group_cols[3],
		 group_cols[4]);
	struct tsr_table *shared = fdm ? xp_add_table(out, "boustrophedonic-shared", hdr, err)
				       : NULL;
	struct tsr_table *paper = shared ? xp_add_paper_table(out, "boustrophedonic-paper",
							      "tessera_pct", err) : NULL;
	if (!paper)
		return TSR_ERR_NOMEM;
	struct tsr_text *txt = &out->text;
	struct tsr_gpu_config probe;  /* --set timing.enabled=true times the V-B runs */
	TSR_TRY(xp_load_config(c, "boustrophedonic-table2", &probe, err));
	const int timed = probe.timing.enabled;
	double fdm_max = 0.0;
	TSR_TRY(run_fdm(out, fdm, &fdm_max, err));
	xp_flush(c, out);

	struct bw_row *rows = calloc(c->workload_count ? c->workload_count : 1, sizeof(*rows));
	struct bw_job *jobs = calloc(c->jobs, sizeof(*jobs));
	struct tsr_scene **scenes = calloc(c->jobs, sizeof(*scenes));
	if (!rows || !jobs || !scenes) {
		free(rows);
		free(jobs);
		free(scenes);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	tsr_text_printf(txt, "\nper workload, %u frames: 2 texture-only runs (recorded and "
			"replayed) and 3 shared-L2 runs\n", c->frames);
	xp_flush(c, out);
	enum tsr_status s = TSR_OK;
	size_t nw = 0;
	/* the workloads in batches of c->jobs, one thread each; lines in workload order */
	for (size_t w0 = 0; s == TSR_OK && w0 < c->workload_count; w0 += c->jobs) {
		size_t nb = 0;
		for (; nb < c->jobs && w0 + nb < c->workload_count; nb++) {
			s = xp_load_scene(c, w0 + nb, &scenes[nb], err);
			if (s != TSR_OK)
				break;
			struct bw_row *r = &rows[w0 + nb];
			snprintf(r->name, sizeof(r->name), "%s",
				 xp_workload_name(c, w0 + nb, scenes[nb]));
			jobs[nb] = (struct bw_job){.c = c, .sc = scenes[nb], .row = r};
		}
		if (s == TSR_OK)
			s = xp_parallel(jobs, nb, sizeof(*jobs), bw_job_run, c->jobs, err);
		for (size_t i = 0; s == TSR_OK && i < nb; i++) {
			if (jobs[i].status != TSR_OK) {
				*err = jobs[i].err;
				s = jobs[i].status;
				break;
			}
			const struct bw_row *r = &rows[w0 + i];
			tsr_text_printf(txt, "  %-18s texture footprint %.3f MiB/frame, L2 texture "
					"trace %llu line accesses (%.1f MiB in memory)\n", r->name,
					r->footprint_mib, (unsigned long long)r->trace_accesses[0],
					(double)r->trace_accesses[0] * sizeof(struct tsr_line_access) /
						1048576.0);
			xp_flush(c, out);
			nw++;
		}
		for (size_t i = 0; i < c->jobs; i++) {
			tsr_scene_destroy(scenes[i]);
			scenes[i] = NULL;
		}
	}
	free(jobs);
	free(scenes);
	if (s != TSR_OK) {
		free(rows);
		return s;
	}
	qsort(rows, nw, sizeof(*rows), by_footprint);
	double mean[NPOL];
	struct vb_means vb;
	print_va(out, tab, rows, nw, mean);
	print_vb(out, shared, rows, nw, timed, &vb);
	free(rows);

	tsr_text_printf(txt, "\n%-6s %-56s %8s %8s\n", "figure", "quantity (tessera: mean over "
			"the workloads)", "paper", "tessera");
	for (int i = 0; i < NPAPER; i++) {
		double v = 0.0;
		if (paper_rows[i].kind >= K_SPEEDUP && !timed)
			continue;
		switch (paper_rows[i].kind) {
		case K_VA: v = mean[paper_rows[i].pol]; break;
		case K_FDM_MAX: v = fdm_max; break;
		case K_TEX_L2_SHARE: v = vb.tex_l2_share; break;
		case K_TEX_DRAM_SHARE: v = vb.tex_dram_share; break;
		case K_DRAM_CHANGE: v = vb.dram_chg; break;
		case K_SPEEDUP: v = vb.timed[T_SPEEDUP]; break;
		case K_MEMORY_ENERGY: v = vb.timed[T_MEMORY_ENERGY]; break;
		case K_ENERGY: v = vb.timed[T_ENERGY]; break;
		}
		xp_paper_row(paper, txt, 56, paper_rows[i].figure, paper_rows[i].quantity,
			     paper_rows[i].paper, v);
	}
	xp_flush(c, out);
	return TSR_OK;
}

const struct tsr_experiment tsr_xp_boustrophedonic = {
	.name = "boustrophedonic",
	.summary = "texture-only L2 misses (configs/boustrophedonic-texture-l2.json) of LRU "
		   "with forward (FO) and every-other-frame reversed (RO) tile orders, OPT "
		   "and OPTPT FO/RO and MRU FO, by replaying the recorded L2 input; FDM on "
		   "loop traces; on the shared L2 (configs/boustrophedonic-table2.json) the "
		   "L2 misses per stream and DRAM traffic of LRU FO, LRU RO and MRU FO, with "
		   "--set timing.enabled=true also speedup and energy (boustrophedonic V, "
		   "Figs. 9-15)",
	.default_workloads = NULL,  /* every shipped workload */
	.default_frames = 30,
	.has_spec = 1,
	.run = run_boustrophedonic,
};
