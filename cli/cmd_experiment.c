/*
 * cmd_experiment.c - `tessera experiment`: the experiments of TCOR
 * Section V and RE Section V, run in-process over several workloads and
 * configurations, printed as tables and written as CSV.
 *
 *   tcor             Parameter Buffer accesses to the L2 and to DRAM and
 *                    total DRAM traffic, baseline vs TCOR, 64 and 128 KiB
 *                    (Figs. 14-19), plus the Table II characterisation
 *                    (Parameter Buffer footprint, average primitive reuse).
 *   attribute-cache  Attribute Cache miss ratio against its size for OPT,
 *                    LRU, MRU and DRRIP, fully associative and 2, 4, 8 ways, with
 *                    the lower bound LB = TP + max(0, TP - CP) of V-A
 *                    (Figs. 11-13).
 *   re               Rendering Elimination against Transaction Elimination
 *                    on the RE Table I GPU (RE Section V, Figs. 14 and 16):
 *                    four runs per workload (base, te, re with verify,
 *                    re+te); the tiles RE skips, the equal-input, false
 *                    negative and changed tiles of Fig. 14a, false
 *                    positives and stale inputs, the color flushes TE
 *                    removes, and the DRAM traffic of te, re and re+te
 *                    against base, with RE's per Parameter Buffer, texture
 *                    and color and the Raster Pipeline traffic of Fig. 14b.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config/config.h"
#include "pipeline/gpu.h"
#include "report/report.h"
#include "scene/scene.h"
#include "sim/sim.h"

static const char *const default_workloads[] = {
	"workloads/glmark-scene.json", "workloads/heavy-3d.json",
	"workloads/sprites-2d.json", "workloads/gltf-truck.json", NULL};

/* `experiment re`: the animated workloads with redundant tiles, then the others. */
static const char *const re_workloads[] = {
	"workloads/static-camera.json", "workloads/ui-2d.json", "workloads/paused-scene.json",
	"workloads/sprites-2d.json", "workloads/gltf-truck.json", "workloads/glmark-scene.json",
	"workloads/camera-pan.json", "workloads/heavy-3d.json", NULL};

static void usage_experiment(FILE *f)
{
	fprintf(f,
		"usage: tessera experiment tcor|attribute-cache|re [--frames N] [--csv FILE]\n"
		"                          [--workload FILE]...\n"
		"\n"
		"  tcor             Parameter Buffer traffic to the L2 and DRAM and total DRAM\n"
		"                   traffic: baseline (configs/tcor-table1*.json) against TCOR\n"
		"                   (configs/tcor-64k*.json, tcor-128k.json, tcor-l2-only.json),\n"
		"                   and each workload's Parameter Buffer footprint and primitive\n"
		"                   reuse (TCOR V-B, Figs. 14-19, Table II)\n"
		"  attribute-cache  Attribute Cache miss ratio against size for OPT, LRU, MRU and\n"
		"                   DRRIP,\n"
		"                   fully associative and 2, 4, 8 ways, with the lower bound\n"
		"                   LB = TP + max(0, TP - CP) (TCOR V-A, Figs. 11-13)\n"
		"  re               Rendering Elimination and Transaction Elimination on\n"
		"                   configs/re-table1.json, four runs: base, te, re (with\n"
		"                   verify), re+te; tiles skipped, equal inputs, false negatives,\n"
		"                   changed tiles, false positives, stale inputs, TE's removed\n"
		"                   flushes, and the DRAM traffic against base, in total and for\n"
		"                   re per Parameter Buffer, texture, color and Raster Pipeline\n"
		"                   (RE V, Figs. 14 and 16)\n"
		"\n"
		"  --frames N       frames per run (default 4; re: each workload's own)\n"
		"  --workload FILE  a workload (repeatable; default: the four shipped ones;\n"
		"                   re: eight shipped ones, see README)\n"
		"  --csv FILE       also write the table as CSV\n"
		"  --set KEY=VALUE  override a configuration key in every run (repeatable)\n"
		"Run from the repository root (configs/ and workloads/ are relative paths).\n");
}

/* The --set options, applied to every configuration an experiment loads. */
static const char *const *xp_sets;
static size_t xp_nsets;

/* Loads a shipped configuration (NULL: the defaults) with the --set options over it. */
static enum tsr_status load_config(const char *path, struct tsr_gpu_config *cfg,
				   struct tsr_error *err)
{
	tsr_config_defaults(cfg);
	return tsr_config_apply_sets(cfg, path, xp_sets, xp_nsets, err);
}

/* Renders `frames` frames and sums their statistics into *total. */
static enum tsr_status simulate(const struct tsr_gpu_config *cfg, const struct tsr_scene *sc,
				uint32_t frames, struct tsr_frame_stats *total,
				struct tsr_frame_stats *scratch, struct tsr_error *err)
{
	(void)scratch;
	return tsr_simulate(cfg, sc, frames, total, err);
}

/* Index of the L2 among a run's caches (the last one). */
static uint32_t l2_of(const struct tsr_frame_stats *t)
{
	return t->cache_count - 1;
}

static uint64_t pb_l2_accesses(const struct tsr_frame_stats *t)
{
	const struct tsr_cache_counters *l = &t->caches[l2_of(t)][TSR_STREAM_PB_LISTS];
	const struct tsr_cache_counters *a = &t->caches[l2_of(t)][TSR_STREAM_PB_ATTRIBUTES];
	return l->reads + l->writes + a->reads + a->writes;
}

static uint64_t dram_bytes(const struct tsr_frame_stats *t, int pb_only)
{
	uint64_t b = 0;
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		if (!pb_only || s == TSR_STREAM_PB_LISTS || s == TSR_STREAM_PB_ATTRIBUTES)
			b += t->dram[s].read_bytes + t->dram[s].write_bytes;
	return b;
}

static double pct(uint64_t v, uint64_t base)
{
	return base ? 100.0 * ((double)v - (double)base) / (double)base : 0.0;
}

static enum tsr_status run_tcor(const char *const *workloads, uint32_t frames,
				struct tsr_cli_text *csv, struct tsr_frame_stats *t,
				struct tsr_frame_stats *scratch, struct tsr_error *err)
{
	static const char *const cfgs[] = {"tcor-table1", "tcor-l2-only", "tcor-64k-no-l2",
					   "tcor-64k", "tcor-table1-128k", "tcor-128k"};
	static const int base_of[] = {0, 0, 0, 0, 4, 4};
	char line[512];
	tsr_cli_text_printf(csv, "workload,config,pb_l2_accesses,pb_dram_bytes,dram_bytes,"
		     "pb_l2_change_pct,pb_dram_change_pct,dram_change_pct\n");
	printf("%-16s %-17s %12s %7s %12s %7s %12s %7s\n", "workload", "config",
	       "PB L2 acc", "chg", "PB DRAM B", "chg", "DRAM B", "chg");
	for (int w = 0; workloads[w]; w++) {
		struct tsr_scene *sc = NULL;
		TSR_TRY(tsr_scene_load(workloads[w], &sc, err));
		uint64_t base[3] = {0, 0, 0};
		enum tsr_status s = TSR_OK;
		for (int c = 0; s == TSR_OK && c < 6; c++) {
			struct tsr_gpu_config cfg;
			char path[128];
			snprintf(path, sizeof(path), "configs/%s.json", cfgs[c]);
			s = load_config(path, &cfg, err);
			if (s == TSR_OK)
				s = simulate(&cfg, sc, frames, t, scratch, err);
			if (s != TSR_OK)
				break;
			uint64_t v[3] = {pb_l2_accesses(t), dram_bytes(t, 1), dram_bytes(t, 0)};
			if (c == base_of[c])
				memcpy(base, v, sizeof(base));
			if (c == 0) {
				/* Table II: footprint (attribute blocks + PMD bytes) and reuse */
				double fp = ((double)t->tiling.pb_attributes_bytes / cfg.attribute_bytes *
					     64.0 + (double)t->tiling.pb_lists_bytes) / frames / 1048576.0;
				double reuse = t->geometry.primitives_binned
					? (double)t->tiling.pmds_written / (double)t->geometry.primitives_binned
					: 0.0;
				printf("%-16s Parameter Buffer footprint %.2f MiB/frame, primitive reuse %.2f tiles\n",
				       sc->name ? sc->name : workloads[w], fp, reuse);
			}
			printf("%-16s %-17s %12llu %6.1f%% %12llu %6.1f%% %12llu %6.1f%%\n",
			       sc->name ? sc->name : workloads[w], cfgs[c],
			       (unsigned long long)v[0], pct(v[0], base[0]), (unsigned long long)v[1],
			       pct(v[1], base[1]), (unsigned long long)v[2], pct(v[2], base[2]));
			snprintf(line, sizeof(line), "%s,%s,%llu,%llu,%llu,%.3f,%.3f,%.3f\n",
				 sc->name ? sc->name : workloads[w], cfgs[c], (unsigned long long)v[0],
				 (unsigned long long)v[1], (unsigned long long)v[2], pct(v[0], base[0]),
				 pct(v[1], base[1]), pct(v[2], base[2]));
			tsr_cli_text_printf(csv, "%s", line);
		}
		tsr_scene_destroy(sc);
		if (s != TSR_OK)
			return s;
	}
	return TSR_OK;
}

/* "full" for a fully associative cache (ways 0), else the number of ways. */
static void ways_name(uint32_t ways, char *buf, size_t n)
{
	if (ways)
		snprintf(buf, n, "%u", ways);
	else
		snprintf(buf, n, "full");
}

static enum tsr_status run_attribute_cache(const char *const *workloads, uint32_t frames,
					   struct tsr_cli_text *csv, struct tsr_frame_stats *t,
					   struct tsr_frame_stats *scratch, struct tsr_error *err)
{
	static const uint32_t kib[] = {4, 8, 16, 32, 64, 128, 256, 512};  /* powers of two: sets stay powers of two */
	static const uint32_t ways[] = {0, 2, 4, 8};  /* 0: fully associative */
	static const enum tsr_ac_policy pols[] = {TSR_AC_OPT, TSR_AC_LRU, TSR_AC_MRU, TSR_AC_DRRIP};
	char line[512];
	tsr_cli_text_printf(csv, "workload,size_bytes,ways,policy,primitives,capacity_primitives,"
		     "accesses,misses,miss_ratio,lower_bound_ratio\n");
	printf("%-16s %7s %5s %-5s %9s %9s %9s %9s\n", "workload", "KiB", "ways", "pol",
	       "accesses", "misses", "miss", "LB");
	/* per workload: the smallest size at which each (ways, policy) reaches LB */
	enum { NK = sizeof(kib) / sizeof(kib[0]) };
	uint32_t reach[16][4][4];
	int nw = 0;
	for (int w = 0; workloads[w]; w++, nw++) {
		struct tsr_scene *sc = NULL;
		TSR_TRY(tsr_scene_load(workloads[w], &sc, err));
		enum tsr_status s = TSR_OK;
		memset(reach[w], 0, sizeof(reach[w]));
		for (size_t k = 0; s == TSR_OK && k < NK; k++)
			for (size_t a = 0; s == TSR_OK && a < 4; a++)
				for (size_t p = 0; s == TSR_OK && p < 4; p++) {
					struct tsr_gpu_config cfg;
					s = load_config(NULL, &cfg, err);
					if (s != TSR_OK)
						break;
					cfg.attribute_cache = 1;
					tsr_memsys_config_cache(&cfg.mem, "tile")->geom.size_bytes = 16384;
					cfg.ac.size_bytes = kib[k] * 1024;
					/* one line per two entries (primitives have >= 2 attributes) */
					cfg.ac.lines = cfg.ac.size_bytes / cfg.ac.attribute_entry_bytes / 2;
					cfg.ac.ways = ways[a];
					cfg.ac.policy = pols[p];
					/* a queue the geometry can always serve */
					cfg.output_queue = ways[a] ? ways[a] - 1 : 3;
					s = simulate(&cfg, sc, frames, t, scratch, err);
					if (s != TSR_OK)
						break;
					const struct tsr_ac_counters *c = &t->attribute_cache;
					uint64_t acc = c->reads + c->writes;
					uint64_t miss = c->writes + c->read_misses;  /* every write misses */
					uint64_t tp = t->geometry.primitives_binned;
					/* CP: primitives the cache can hold, per frame */
					/* CP: one primitive per line (lines = entries / 2 above) */
					uint64_t cp = cfg.ac.lines;
					uint64_t lb = 0;
					/* LB per frame, summed: TP_f + max(0, TP_f - CP); TP split evenly */
					uint64_t tpf = tp / frames;
					lb = frames * (tpf + (tpf > cp ? tpf - cp : 0));
					char wn[16];
					ways_name(ways[a], wn, sizeof(wn));
					printf("%-16s %7u %5s %-5s %9llu %9llu %8.2f%% %8.2f%%\n",
					       sc->name ? sc->name : workloads[w], kib[k], wn,
					       tsr_ac_policy_name(pols[p]), (unsigned long long)acc,
					       (unsigned long long)miss,
					       acc ? 100.0 * (double)miss / (double)acc : 0.0,
					       acc ? 100.0 * (double)lb / (double)acc : 0.0);
					snprintf(line, sizeof(line), "%s,%u,%s,%s,%llu,%llu,%llu,%llu,%.6f,%.6f\n",
						 sc->name ? sc->name : workloads[w], kib[k] * 1024, wn,
						 tsr_ac_policy_name(pols[p]), (unsigned long long)tp,
						 (unsigned long long)cp, (unsigned long long)acc,
						 (unsigned long long)miss,
						 acc ? (double)miss / (double)acc : 0.0,
						 acc ? (double)lb / (double)acc : 0.0);
					tsr_cli_text_printf(csv, "%s", line);
					/* "reaches the lower bound": within 0.1% of LB */
					if (!reach[w][a][p] && (double)miss <= 1.001 * (double)lb)
						reach[w][a][p] = kib[k];
				}
		tsr_scene_destroy(sc);
		if (s != TSR_OK)
			return s;
	}
	printf("\nsmallest size (KiB) within 0.1%% of the lower bound (TCOR V-A: OPT 55, LRU 375,\n"
	       "fully associative; '-' = not within %u KiB)\n", kib[NK - 1]);
	printf("%-16s %5s %6s %6s %6s %6s %10s\n", "workload", "ways", "opt", "lru", "mru",
	       "drrip", "lru/opt");
	for (int w = 0; w < nw; w++)
		for (int a = 0; a < 4; a++) {
			char col[4][16];
			for (int p = 0; p < 4; p++)
				snprintf(col[p], sizeof(col[p]), reach[w][a][p] ? "%u" : "-",
					 reach[w][a][p]);
			char ratio[16] = "-";
			if (reach[w][a][0] && reach[w][a][1])
				snprintf(ratio, sizeof(ratio), "%.1fx",
					 (double)reach[w][a][1] / reach[w][a][0]);
			char wn[16];
			ways_name(ways[a], wn, sizeof(wn));
			printf("%-16s %5s %6s %6s %6s %6s %10s\n", workloads[w], wn, col[0], col[1],
			       col[2], col[3], ratio);
		}
	return TSR_OK;
}

/* Percentage v of `of` (0 when of is 0). */
static double share(uint64_t v, uint64_t of)
{
	return of ? 100.0 * (double)v / (double)of : 0.0;
}

/* DRAM bytes of the Parameter Buffer, read and written. */
static uint64_t pb_dram_bytes(const struct tsr_frame_stats *t)
{
	return dram_bytes(t, 1);
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

/* The runs of `experiment re` and their elimination settings. */
enum { RE_BASE, RE_TE, RE_RE, RE_RETE, RE_RUNS };

/* The percentage columns of `experiment re`, in table order. */
enum {
	RC_SKIPPED, RC_EQUAL, RC_FALSE_NEG, RC_CHANGED,   /* re run, % of tiles compared */
	RC_TE_FLUSH,                                      /* te run, % of flushes signed */
	RC_DRAM_TE, RC_DRAM_RE, RC_DRAM_RETE,             /* total DRAM change vs base */
	RC_RE_PB, RC_RE_TEX, RC_RE_COLOR, RC_RE_RASTER,   /* re run, per stream group */
	RC_COUNT
};

static void re_print_row(struct tsr_cli_text *csv, const char *name, const char *frames,
			 const char *fp, const char *stale, const double *v)
{
	printf("%-16s %6s %7.1f%% %6.1f%% %6.1f%% %6.1f%% %5s %6s %7.1f%% %7.1f%% %7.1f%% "
	       "%7.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%%\n", name, frames, v[RC_SKIPPED],
	       v[RC_EQUAL], v[RC_FALSE_NEG], v[RC_CHANGED], fp, stale, v[RC_TE_FLUSH],
	       v[RC_DRAM_TE], v[RC_DRAM_RE], v[RC_DRAM_RETE], v[RC_RE_PB], v[RC_RE_TEX],
	       v[RC_RE_COLOR], v[RC_RE_RASTER]);
	tsr_cli_text_printf(csv, "%s,%s,%.17g,%.17g,%.17g,%.17g,%s,%s", name, frames,
			    v[RC_SKIPPED], v[RC_EQUAL], v[RC_FALSE_NEG], v[RC_CHANGED], fp, stale);
	for (int c = RC_TE_FLUSH; c < RC_COUNT; c++)
		tsr_cli_text_printf(csv, ",%.17g", v[c]);
	tsr_cli_text_printf(csv, "\n");
}

/*
 * RE Section V: per workload, four runs of configs/re-table1.json with
 * elimination off (base), TE, RE (verified) and RE+TE. frames 0: each
 * workload's own frame count.
 */
static enum tsr_status run_re(const char *const *workloads, uint32_t frames,
			      struct tsr_cli_text *csv, struct tsr_frame_stats *t,
			      struct tsr_frame_stats *scratch, struct tsr_error *err)
{
	static const struct {
		int rendering, transactions;
	} runs[RE_RUNS] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
	struct tsr_gpu_config base_cfg;
	TSR_TRY(load_config("configs/re-table1.json", &base_cfg, err));
	tsr_cli_text_printf(csv, "workload,frames,tiles_skipped_pct,equal_inputs_pct,"
			    "false_negatives_pct,changed_pct,false_positives,stale_inputs,"
			    "te_flushes_removed_pct,te_dram_change_pct,re_dram_change_pct,"
			    "re_te_dram_change_pct,re_pb_dram_change_pct,re_texture_dram_change_pct,"
			    "re_color_dram_change_pct,re_raster_dram_change_pct\n");
	printf("%-23s %-32s %12s %8s %26s %35s\n", "", "re run: % of tiles compared", "",
	       "te run", "DRAM bytes vs base", "re run: DRAM bytes vs base");
	printf("%-16s %6s %8s %7s %7s %7s %5s %6s %8s %8s %8s %8s %8s %8s %8s %8s\n",
	       "workload", "frames", "skipped", "eq-in", "f-neg", "changed", "FP", "stale",
	       "flush-rm", "te", "re", "re+te", "PB", "texture", "color", "raster");
	double sum[RC_COUNT] = {0};
	int nw = 0;
	for (int w = 0; workloads[w]; w++) {
		struct tsr_scene *sc = NULL;
		TSR_TRY(tsr_scene_load(workloads[w], &sc, err));
		const uint32_t n = frames ? frames : sc->frames;
		/* per run: total DRAM bytes; for base and re also the stream groups */
		uint64_t total[RE_RUNS], pb[RE_RUNS], tex[RE_RUNS], color[RE_RUNS], raster[RE_RUNS];
		struct tsr_elimination_stats re = {0}, te = {0};
		enum tsr_status s = TSR_OK;
		for (int r = 0; s == TSR_OK && r < RE_RUNS; r++) {
			struct tsr_gpu_config cfg = base_cfg;
			cfg.elim.rendering = runs[r].rendering;
			cfg.elim.transactions = runs[r].transactions;
			cfg.elim.verify = runs[r].rendering;  /* counts false positives */
			cfg.elim.refresh_frames = 0;
			s = simulate(&cfg, sc, n, t, scratch, err);
			if (s != TSR_OK)
				break;
			total[r] = dram_bytes(t, 0);
			pb[r] = pb_dram_bytes(t);
			tex[r] = t->dram[TSR_STREAM_TEXTURE].read_bytes;
			color[r] = t->dram[TSR_STREAM_COLOR].write_bytes;
			raster[r] = raster_dram_bytes(t);
			if (r == RE_RE)
				re = t->elim;
			else if (r == RE_TE)
				te = t->elim;
		}
		const char *name = sc->name ? sc->name : workloads[w];
		if (s == TSR_OK) {
			double v[RC_COUNT];
			v[RC_SKIPPED] = share(re.tiles_skipped, re.tiles_compared);
			v[RC_EQUAL] = share(re.tiles_equal_inputs, re.tiles_compared);
			v[RC_FALSE_NEG] = share(re.false_negatives, re.tiles_compared);
			v[RC_CHANGED] = share(re.tiles_changed, re.tiles_compared);
			v[RC_TE_FLUSH] = share(te.te_flushes_removed, te.te_tiles_signed);
			v[RC_DRAM_TE] = pct(total[RE_TE], total[RE_BASE]);
			v[RC_DRAM_RE] = pct(total[RE_RE], total[RE_BASE]);
			v[RC_DRAM_RETE] = pct(total[RE_RETE], total[RE_BASE]);
			v[RC_RE_PB] = pct(pb[RE_RE], pb[RE_BASE]);
			v[RC_RE_TEX] = pct(tex[RE_RE], tex[RE_BASE]);
			v[RC_RE_COLOR] = pct(color[RE_RE], color[RE_BASE]);
			v[RC_RE_RASTER] = pct(raster[RE_RE], raster[RE_BASE]);
			char fr[16], fp[24], stale[24];
			snprintf(fr, sizeof(fr), "%u", n);
			snprintf(fp, sizeof(fp), "%llu", (unsigned long long)re.false_positives);
			snprintf(stale, sizeof(stale), "%llu", (unsigned long long)re.stale_inputs);
			re_print_row(csv, name, fr, fp, stale, v);
			for (int c = 0; c < RC_COUNT; c++)
				sum[c] += v[c];
			nw++;
		}
		tsr_scene_destroy(sc);
		if (s != TSR_OK)
			return s;
	}
	if (nw) {
		double mean[RC_COUNT];
		for (int c = 0; c < RC_COUNT; c++)
			mean[c] = sum[c] / nw;
		re_print_row(csv, "mean", "", "", "", mean);
	}
	printf("\npaper (RE V): 50%% of tiles skipped and 12%% false negatives (Fig. 14a); 48%% less\n"
	       "memory traffic (Figs. 14b, 13b); TE saves only color flushes (Fig. 16)\n");
	return TSR_OK;
}

int tsr_cmd_experiment(int argc, char **argv)
{
	const char *kind = NULL, *csv_path = NULL;
	const char *workloads[16];  /* at most 15 + NULL */
	int nw = 0;
	uint64_t frames = 0;  /* 0: not given */
	const char *sets[TSR_CLI_MAX_SETS];
	size_t nsets = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage_experiment(stdout);
			return 0;
		} else if (!strcmp(a, "--set")) {
			if (tsr_cli_add_set(sets, &nsets, i + 1 < argc ? argv[++i] : NULL))
				return EXIT_USAGE;
		} else if (!strcmp(a, "--frames") || !strcmp(a, "--csv") || !strcmp(a, "--workload")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "tessera: option '%s' needs a value\n", a);
				return EXIT_USAGE;
			}
			const char *v = argv[++i];
			if (!strcmp(a, "--csv")) {
				csv_path = v;
			} else if (!strcmp(a, "--workload")) {
				if (nw == 15) {
					fprintf(stderr, "tessera: at most 15 workloads\n");
					return EXIT_USAGE;
				}
				workloads[nw++] = v;
			} else if (!tsr_cli_parse_u64(v, 1, 10000, &frames)) {
				fprintf(stderr, "tessera: invalid --frames '%s' (1 to 10000)\n", v);
				return EXIT_USAGE;
			}
		} else if (a[0] == '-') {
			fprintf(stderr, "tessera: unknown option '%s' (see 'tessera experiment --help')\n", a);
			return EXIT_USAGE;
		} else if (!kind) {
			kind = a;
		} else {
			fprintf(stderr, "tessera: unexpected argument '%s'\n", a);
			return EXIT_USAGE;
		}
	}
	if (!kind || (strcmp(kind, "tcor") && strcmp(kind, "attribute-cache") &&
		      strcmp(kind, "re"))) {
		fprintf(stderr, "tessera: 'experiment' needs 'tcor', 'attribute-cache' or 're'\n");
		usage_experiment(stderr);
		return EXIT_USAGE;
	}
	workloads[nw] = NULL;
	xp_sets = sets;
	xp_nsets = nsets;
	const int re = !strcmp(kind, "re");
	const char *const *wl = nw ? workloads : re ? re_workloads : default_workloads;
	if (!frames && !re)
		frames = 4;
	struct tsr_frame_stats *t = calloc(1, sizeof(*t)), *scratch = calloc(1, sizeof(*scratch));
	struct tsr_cli_text csv = {0};
	struct tsr_error err = {{0}};
	enum tsr_status s = t && scratch ? TSR_OK
		: tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory");
	if (s == TSR_OK && re)
		s = run_re(wl, (uint32_t)frames, &csv, t, scratch, &err);
	else if (s == TSR_OK && !strcmp(kind, "tcor"))
		s = run_tcor(wl, (uint32_t)frames, &csv, t, scratch, &err);
	else if (s == TSR_OK)
		s = run_attribute_cache(wl, (uint32_t)frames, &csv, t, scratch, &err);
	free(t);
	free(scratch);
	int rc = 0;
	if (s != TSR_OK) {
		fprintf(stderr, "tessera: %s\n", err.msg);
		rc = s == TSR_ERR_CONFIG || s == TSR_ERR_GEOMETRY ? EXIT_USAGE : EXIT_RUNTIME;
	} else if (csv_path) {
		rc = tsr_cli_write_csv(csv_path, &csv);
	}
	free(csv.buf);
	return rc;
}
