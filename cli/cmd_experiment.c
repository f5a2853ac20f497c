/*
 * cmd_experiment.c - `tessera experiment`: the experiments of TCOR
 * Section V, run in-process over several workloads and configurations,
 * printed as tables and written as CSV.
 *
 *   tcor             Parameter Buffer accesses to the L2 and to DRAM and
 *                    total DRAM traffic, baseline vs TCOR, 64 and 128 KiB
 *                    (Figs. 14-19), plus the Table II characterisation
 *                    (Parameter Buffer footprint, average primitive reuse).
 *   attribute-cache  Attribute Cache miss ratio against its size for OPT,
 *                    LRU, MRU and DRRIP, fully associative and 2, 4, 8 ways, with
 *                    the lower bound LB = TP + max(0, TP - CP) of V-A
 *                    (Figs. 11-13).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config/config.h"
#include "pipeline/gpu.h"
#include "report/report.h"
#include "scene/scene.h"

static const char *const default_workloads[] = {
	"workloads/glmark-scene.json", "workloads/heavy-3d.json",
	"workloads/sprites-2d.json", "workloads/gltf-truck.json", NULL};

static void usage_experiment(FILE *f)
{
	fprintf(f,
		"usage: tessera experiment tcor|attribute-cache [--frames N] [--csv FILE]\n"
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
		"\n"
		"  --frames N       frames per run (default 4)\n"
		"  --workload FILE  a workload (repeatable; default: the four shipped ones)\n"
		"  --csv FILE       also write the table as CSV\n"
		"Run from the repository root (configs/ and workloads/ are relative paths).\n");
}

/* Renders `frames` frames and sums their statistics into *total. */
static enum tsr_status simulate(const struct tsr_gpu_config *cfg, const struct tsr_scene *sc,
				uint32_t frames, struct tsr_frame_stats *total,
				struct tsr_frame_stats *scratch, struct tsr_error *err)
{
	struct tsr_gpu *gpu = NULL;
	memset(total, 0, sizeof(*total));
	TSR_TRY(tsr_gpu_create(cfg, sc, &gpu, err));
	enum tsr_status s = TSR_OK;
	for (uint32_t f = 0; s == TSR_OK && f < frames; f++) {
		s = tsr_gpu_render_frame(gpu, f, scratch, err);
		if (s == TSR_OK)
			tsr_frame_stats_add(total, scratch);
	}
	tsr_gpu_destroy(gpu);
	return s;
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
			tsr_config_defaults(&cfg);
			s = tsr_config_load(path, &cfg, err);
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
					tsr_config_defaults(&cfg);
					cfg.attribute_cache = 1;
					cfg.mem.tile.size_bytes = 16384;
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

int tsr_cmd_experiment(int argc, char **argv)
{
	const char *kind = NULL, *csv_path = NULL;
	const char *workloads[16];  /* at most 15 + NULL */
	int nw = 0;
	uint64_t frames = 4;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage_experiment(stdout);
			return 0;
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
	if (!kind || (strcmp(kind, "tcor") && strcmp(kind, "attribute-cache"))) {
		fprintf(stderr, "tessera: 'experiment' needs 'tcor' or 'attribute-cache'\n");
		usage_experiment(stderr);
		return EXIT_USAGE;
	}
	workloads[nw] = NULL;
	const char *const *wl = nw ? workloads : default_workloads;
	struct tsr_frame_stats *t = calloc(1, sizeof(*t)), *scratch = calloc(1, sizeof(*scratch));
	struct tsr_cli_text csv = {0};
	struct tsr_error err = {{0}};
	enum tsr_status s = t && scratch ? TSR_OK
		: tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory");
	if (s == TSR_OK && !strcmp(kind, "tcor"))
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
