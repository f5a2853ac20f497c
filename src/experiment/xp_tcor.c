/*
 * xp_tcor.c - `tcor`: TCOR V-B (Figs. 14-19) and Table II. Per workload,
 * six configurations: the baseline (tcor-table1) against TCOR with only
 * the L2 policy (tcor-l2-only), only the Attribute Cache (tcor-64k-no-l2)
 * and both (tcor-64k), and at 128 KiB (tcor-table1-128k against
 * tcor-128k). Each row: Parameter Buffer accesses at the L2, Parameter
 * Buffer DRAM bytes and total DRAM bytes, with the change against its
 * baseline. The baseline run also gives Table II: the Parameter Buffer
 * footprint per frame and the average reuse of a primitive (tiles).
 * Last, "tcor-paper": the paper's average changes (V-B: Parameter Buffer
 * accesses at the L2 -33.5% / -37.1%, Parameter Buffer main-memory
 * accesses -93% / -94.1%, total main-memory accesses -13.9% / -13.3%, at
 * 64 / 128 KiB) beside tessera's mean over the workloads of tcor-64k and
 * tcor-128k against their baselines (tessera counts DRAM bytes: whole
 * 64-byte lines, so bytes / 64 are the accesses).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/xp_priv.h"

static const char *const cfgs[] = {"tcor-table1", "tcor-l2-only", "tcor-64k-no-l2",
				   "tcor-64k", "tcor-table1-128k", "tcor-128k"};
static const int base_of[] = {0, 0, 0, 0, 4, 4};  /* the baseline of each configuration */
enum { NCFG = sizeof(cfgs) / sizeof(cfgs[0]) };

/* The paper's averages (TCOR V-B), each against tessera's mean change of one column. */
static const struct {
	const char *figure, *quantity;
	int cfg;       /* index in cfgs: tcor-64k or tcor-128k */
	int col;       /* 0: PB accesses at the L2, 1: PB DRAM, 2: all DRAM; timing
			  model: 3 frames per second, 4 memory hierarchy energy, 5 energy,
			  6 the Tile Fetcher's primitives per cycle */
	double paper;  /* percent */
} paper_rows[] = {
	{"14", "pb_l2_change_pct (64 KiB)", 3, 0, -33.5},
	{"15", "pb_l2_change_pct (128 KiB)", 5, 0, -37.1},
	{"16", "pb_dram_change_pct (64 KiB)", 3, 1, -93.0},
	{"17", "pb_dram_change_pct (128 KiB)", 5, 1, -94.1},
	{"18", "dram_change_pct (64 KiB)", 3, 2, -13.9},
	{"19", "dram_change_pct (128 KiB)", 5, 2, -13.3},
	/* with the timing model (V-B-2): FPS (abstract, I), energy (Figs. 20-22) */
	{"I", "fps_change_pct (64 KiB)", 3, 3, 3.7},
	{"20", "memory_energy_change_pct (64 KiB)", 3, 4, -14.1},
	{"21", "memory_energy_change_pct (128 KiB)", 5, 4, -13.6},
	{"22", "energy_change_pct (64 KiB)", 3, 5, -5.6},
	{"22", "energy_change_pct (128 KiB)", 5, 5, -5.3},
	/* V-B-3: "on average, our technique provides a 5x speedup" of the Tile
	 * Fetcher's output (primitives per cycle, with an unlimited queue) */
	{"23", "tf_throughput_change_pct (64 KiB)", 3, 6, 400.0},
	{"24", "tf_throughput_change_pct (128 KiB)", 5, 6, 400.0},
};
enum { NCOUNT = 3, NCOL = 7 };  /* counted columns, then the timing model's */
enum { NPAPER = sizeof(paper_rows) / sizeof(paper_rows[0]) };

static const char *const workloads[] = {
	"workloads/glmark-scene.json", "workloads/heavy-3d.json",
	"workloads/sprites-2d.json", "workloads/gltf-truck.json",
	"workloads/bubble-match-2d.json", "workloads/kingdom-map-2d.json",
	"workloads/parallax-runner-2d.json", "workloads/snow-run-3d.json",
	"workloads/city-racing-3d.json", "workloads/sniper-3d.json", NULL};

/* Parameter Buffer reads and writes at the L2 (cache index l2). */
static uint64_t pb_l2_accesses(const struct tsr_frame_stats *t, uint32_t l2)
{
	const struct tsr_cache_counters *l = &t->caches[l2][TSR_STREAM_PB_LISTS];
	const struct tsr_cache_counters *a = &t->caches[l2][TSR_STREAM_PB_ATTRIBUTES];
	return l->reads + l->writes + a->reads + a->writes;
}

static enum tsr_status run_tcor(struct xp_ctx *c, struct tsr_xp_result *out,
				struct tsr_error *err)
{
	struct tsr_table *tab = xp_add_table(out, "tcor",
		"workload,config,pb_l2_accesses,pb_dram_bytes,dram_bytes,"
		"pb_l2_change_pct,pb_dram_change_pct,dram_change_pct,cycles,energy_nj,"
		"fps_change_pct,memory_energy_change_pct,energy_change_pct,tf_prims_per_cycle,"
		"tf_throughput_change_pct", err);
	if (!tab)
		return TSR_ERR_NOMEM;
	struct tsr_table *t2 = xp_add_table(out, "tcor-table2",
		"workload,pb_footprint_mib_per_frame,primitive_reuse_tiles", err);
	if (!t2)
		return TSR_ERR_NOMEM;
	struct tsr_table *paper = xp_add_paper_table(out, "tcor-paper", "tessera_mean_pct", err);
	if (!paper)
		return TSR_ERR_NOMEM;
	double sum[NCFG][NCOL] = {{0}};
	struct tsr_gpu_config probe;  /* --set timing.enabled=true reaches every config */
	TSR_TRY(xp_load_config(c, cfgs[0], &probe, err));
	const int timed = probe.timing.enabled;
	uint32_t nw = 0;
	struct tsr_text *txt = &out->text;
	tsr_text_printf(txt, "%-18s %-17s %12s %7s %12s %7s %12s %7s", "workload", "config",
			"PB L2 acc", "chg", "PB DRAM B", "chg", "DRAM B", "chg");
	if (timed)
		tsr_text_printf(txt, " %7s %7s %7s %7s", "FPS", "mem-E", "energy", "TF p/c");
	tsr_text_printf(txt, "\n");
	struct xp_run *runs = calloc(NCFG, sizeof(*runs));
	if (!runs)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	enum tsr_status s = TSR_OK;
	for (size_t w = 0; s == TSR_OK && w < c->workload_count; w++) {
		struct tsr_scene *sc = NULL;
		s = xp_load_scene(c, w, &sc, err);
		if (s != TSR_OK)
			break;
		const char *name = xp_workload_name(c, w, sc);
		double base[NCOL] = {0};
		/* the workload's NCFG runs on c->jobs threads */
		for (int k = 0; s == TSR_OK && k < NCFG; k++) {
			s = xp_load_config(c, cfgs[k], &runs[k].cfg, err);
			runs[k].sc = sc;
			runs[k].frames = c->frames;
			runs[k].want_l2 = 1;
		}
		if (s == TSR_OK)
			s = xp_simulate_all(c, runs, NCFG, err);
		for (int k = 0; s == TSR_OK && k < NCFG; k++) {
			const struct tsr_gpu_config *cfg = &runs[k].cfg;
			const uint32_t l2 = runs[k].l2;
			const struct xp_timing tm = runs[k].timing;
			const struct tsr_frame_stats *t = runs[k].total;
			/* frames per second: the inverse of cycles; the Tile Fetcher's
			 * primitives per cycle it had work and room for them (its
			 * throughput as with TCOR V-B-3's unlimited output queue) */
			const struct tsr_timing_stats *ts = &t->timing;
			double v[NCOL] = {(double)pb_l2_accesses(t, l2), (double)xp_dram_bytes(t, 1),
					  (double)xp_dram_bytes(t, 0),
					  tm.cycles ? 1.0 / (double)tm.cycles : 0.0,
					  tm.memory_energy_nj, tm.energy_nj,
					  ts->tile_fetch_active ? (double)ts->tile_fetch_primitives /
								  (double)ts->tile_fetch_active
								: 0.0};
			if (k == base_of[k])
				memcpy(base, v, sizeof(base));
			if (k == 0) {
				/* Table II: footprint (attribute blocks + PMD bytes) and reuse */
				double fp = xp_pb_footprint_bytes(t, cfg) / c->frames / 1048576.0;
				double reuse = t->geometry.primitives_binned
					? (double)t->tiling.pmds_written / (double)t->geometry.primitives_binned
					: 0.0;
				tsr_text_printf(txt, "%-18s Parameter Buffer footprint %.2f MiB/frame, "
						"primitive reuse %.2f tiles\n", name, fp, reuse);
				tsr_table_row(t2);
				tsr_table_cellf(t2, "%s", name);
				tsr_table_cellf(t2, "%.6f", fp);
				tsr_table_cellf(t2, "%.6f", reuse);
			}
			double chg[NCOL];
			for (int i = 0; i < NCOL; i++) {
				chg[i] = xp_change_pct(v[i], base[i]);
				sum[k][i] += chg[i];
			}
			tsr_text_printf(txt, "%-18s %-17s %12.0f %6.1f%% %12.0f %6.1f%% %12.0f %6.1f%%",
					name, cfgs[k], v[0], chg[0], v[1], chg[1], v[2], chg[2]);
			if (timed)
				tsr_text_printf(txt, " %6.1f%% %6.1f%% %6.1f%% %7.3f", chg[3], chg[4],
						chg[5], v[6]);
			tsr_text_printf(txt, "\n");
			tsr_table_row(tab);
			tsr_table_cellf(tab, "%s", name);
			tsr_table_cellf(tab, "%s", cfgs[k]);
			for (int i = 0; i < NCOUNT; i++)
				tsr_table_cellf(tab, "%.0f", v[i]);
			for (int i = 0; i < NCOUNT; i++)
				tsr_table_cellf(tab, "%.3f", chg[i]);
			if (timed) {
				tsr_table_cellf(tab, "%llu", (unsigned long long)tm.cycles);
				tsr_table_cellf(tab, "%.3f", tm.energy_nj);
				for (int i = NCOUNT; i < NCOL - 1; i++)
					tsr_table_cellf(tab, "%.3f", chg[i]);
				tsr_table_cellf(tab, "%.6f", v[NCOL - 1]);
				tsr_table_cellf(tab, "%.3f", chg[NCOL - 1]);
			} else {
				for (int i = 0; i < 7; i++)
					tsr_table_cellf(tab, "%s", "");  /* no timing model */
			}
			xp_flush(c, out);
		}
		xp_runs_release(runs, NCFG);
		if (s == TSR_OK)
			nw++;
		tsr_scene_destroy(sc);
	}
	free(runs);
	if (s != TSR_OK)
		return s;
	/* the paper's averages beside tessera's means */
	tsr_text_printf(txt, "\n%-6s %-36s %8s %8s\n", "figure", "change against the baseline",
			"paper", "tessera");
	for (int i = 0; i < NPAPER; i++) {
		if (paper_rows[i].col >= NCOUNT && !timed)
			continue;
		double mean = nw ? sum[paper_rows[i].cfg][paper_rows[i].col] / nw : 0.0;
		xp_paper_row(paper, txt, 36, paper_rows[i].figure, paper_rows[i].quantity,
			     paper_rows[i].paper, mean);
	}
	xp_flush(c, out);
	return TSR_OK;
}

const struct tsr_experiment tsr_xp_tcor = {
	.name = "tcor",
	.summary = "Parameter Buffer traffic to the L2 and to DRAM and total DRAM traffic, "
		   "the baseline (configs/tcor-table1*.json) against TCOR "
		   "(configs/tcor-64k*.json, tcor-128k.json, tcor-l2-only.json), and each "
		   "workload's Parameter Buffer footprint and primitive reuse; with --set "
		   "timing.enabled=true also frames per second and energy (TCOR V-B, Table "
		   "II, Figs. 14-22)",
	.default_workloads = workloads,
	.default_frames = 4,
	.has_spec = 1,
	.run = run_tcor,
};
