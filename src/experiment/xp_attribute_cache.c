/*
 * xp_attribute_cache.c - `attribute-cache`: TCOR V-A (Figs. 11-13). The
 * Attribute Cache's miss ratio against its size (4 to 512 KiB) for OPT,
 * LRU, MRU and DRRIP, fully associative and 2, 4, 8 ways, beside the lower
 * bound of V-A: per frame LB = TP + max(0, TP - CP), with TP the
 * primitives binned and CP the primitives the cache holds (every write
 * misses; a primitive that does not fit misses once more). A second table
 * gives, per workload and associativity, the smallest size at which each
 * policy comes within 0.1% of LB, beside the paper's (OPT 55 KiB, LRU 375
 * KiB, fully associative).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/xp_priv.h"

static const uint32_t kib[] = {4, 8, 16, 32, 64, 128, 256, 512};  /* powers of two: sets stay powers of two */
static const uint32_t ways[] = {0, 2, 4, 8};  /* 0: fully associative */
static const enum tsr_ac_policy pols[] = {TSR_AC_OPT, TSR_AC_LRU, TSR_AC_MRU, TSR_AC_DRRIP};
enum {
	NK = sizeof(kib) / sizeof(kib[0]),
	NA = sizeof(ways) / sizeof(ways[0]),
	NP = sizeof(pols) / sizeof(pols[0])
};

static const char *const workloads[] = {
	"workloads/glmark-scene.json", "workloads/heavy-3d.json",
	"workloads/sprites-2d.json", "workloads/gltf-truck.json", NULL};

/* "full" for a fully associative cache (ways 0), else the number of ways. */
static void ways_name(uint32_t w, char *buf, size_t n)
{
	if (w)
		snprintf(buf, n, "%u", w);
	else
		snprintf(buf, n, "full");
}

/* The configuration of one point: the defaults with the Attribute Cache at kib x 1024 bytes. */
static enum tsr_status point_config(const struct xp_ctx *c, size_t k, size_t a, size_t p,
				    struct tsr_gpu_config *cfg, struct tsr_error *err)
{
	TSR_TRY(xp_load_config(c, NULL, cfg, err));
	cfg->attribute_cache = 1;
	struct tsr_cache_config *tile = tsr_memsys_config_cache(&cfg->mem, "tile");
	if (!tile)
		return tsr_error_set(err, TSR_ERR_CONFIG, "attribute-cache: the configuration "
				     "has no cache 'tile' (its size is set to 16 KiB)");
	tile->geom.size_bytes = 16384;
	cfg->ac.size_bytes = kib[k] * 1024;
	/* one line per two entries (primitives have >= 2 attributes) */
	cfg->ac.lines = cfg->ac.size_bytes / cfg->ac.attribute_entry_bytes / 2;
	cfg->ac.ways = ways[a];
	cfg->ac.policy = pols[p];
	/* a queue the geometry can always serve */
	cfg->output_queue = ways[a] ? ways[a] - 1 : 3;
	return TSR_OK;
}

/* The summary: per workload and associativity, the smallest size within 0.1% of LB. */
static void reach_table(const struct xp_ctx *c, const uint32_t *reach, size_t nw,
			struct tsr_table *tab, struct tsr_text *txt)
{
	tsr_text_printf(txt, "\nsmallest size (KiB) within 0.1%% of the lower bound (TCOR V-A: "
			"OPT 55, LRU 375,\nfully associative; '-' = not within %u KiB)\n",
			kib[NK - 1]);
	tsr_text_printf(txt, "%-16s %5s %6s %6s %6s %6s %10s\n", "workload", "ways", "opt",
			"lru", "mru", "drrip", "lru/opt");
	for (size_t w = 0; w < nw; w++)
		for (size_t a = 0; a < NA; a++) {
			const uint32_t *r = &reach[(w * NA + a) * NP];
			char col[NP][16], ratio[16] = "-", wn[16];
			for (size_t p = 0; p < NP; p++)
				snprintf(col[p], sizeof(col[p]), r[p] ? "%u" : "-", r[p]);
			if (r[0] && r[1])
				snprintf(ratio, sizeof(ratio), "%.1fx", (double)r[1] / r[0]);
			ways_name(ways[a], wn, sizeof(wn));
			char label[256];
			const char *name = xp_workload_label(c, w, label, sizeof(label));
			tsr_text_printf(txt, "%-16s %5s %6s %6s %6s %6s %10s\n", name, wn,
					col[0], col[1], col[2], col[3], ratio);
			tsr_table_row(tab);
			tsr_table_cellf(tab, "%s", name);
			tsr_table_cellf(tab, "%s", wn);
			for (size_t p = 0; p < NP; p++)
				tsr_table_cellf(tab, "%s", r[p] ? col[p] : "");
			/* the paper's, fully associative only */
			tsr_table_cellf(tab, "%s", ways[a] ? "" : "55");
			tsr_table_cellf(tab, "%s", ways[a] ? "" : "375");
		}
}

static enum tsr_status run_attribute_cache(struct xp_ctx *c, struct tsr_xp_result *out,
					   struct tsr_error *err)
{
	struct tsr_table *tab = xp_add_table(out, "attribute-cache",
		"workload,size_bytes,ways,policy,primitives,capacity_primitives,"
		"accesses,misses,miss_ratio,lower_bound_ratio", err);
	if (!tab)
		return TSR_ERR_NOMEM;
	struct tsr_table *rt = xp_add_table(out, "attribute-cache-reach",
		"workload,ways,opt_kib,lru_kib,mru_kib,drrip_kib,paper_opt_kib,paper_lru_kib", err);
	if (!rt)
		return TSR_ERR_NOMEM;
	struct tsr_text *txt = &out->text;
	tsr_text_printf(txt, "%-16s %7s %5s %-5s %9s %9s %9s %9s\n", "workload", "KiB", "ways",
			"pol", "accesses", "misses", "miss", "LB");
	/* per workload, ways and policy: the smallest size (KiB) that reaches LB, 0: none */
	uint32_t *reach = calloc(c->workload_count * NA * NP, sizeof(*reach));
	struct xp_run *runs = calloc(NK * NA * NP, sizeof(*runs));  /* a workload's points */
	enum tsr_status s = reach && runs ? TSR_OK
		: tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	size_t nw = 0;
	for (size_t w = 0; s == TSR_OK && w < c->workload_count; w++, nw++) {
		struct tsr_scene *sc = NULL;
		s = xp_load_scene(c, w, &sc, err);
		if (s != TSR_OK)
			break;
		const char *name = xp_workload_name(c, w, sc);
		/* the workload's points on c->jobs threads, then its rows in order */
		for (size_t i = 0; s == TSR_OK && i < NK * NA * NP; i++) {
			s = point_config(c, i / (NA * NP), i / NP % NA, i % NP, &runs[i].cfg, err);
			runs[i].sc = sc;
			runs[i].frames = c->frames;
		}
		if (s == TSR_OK)
			s = xp_simulate_all(c, runs, NK * NA * NP, err);
		for (size_t k = 0; s == TSR_OK && k < NK; k++)
			for (size_t a = 0; s == TSR_OK && a < NA; a++)
				for (size_t p = 0; s == TSR_OK && p < NP; p++) {
					const struct xp_run *run = &runs[(k * NA + a) * NP + p];
					const struct tsr_frame_stats *t = run->total;
					const struct tsr_gpu_config *cfg = &run->cfg;
					const struct tsr_ac_counters *ac = &t->attribute_cache;
					uint64_t acc = ac->reads + ac->writes;
					uint64_t miss = ac->writes + ac->read_misses;  /* every write misses */
					uint64_t tp = t->geometry.primitives_binned;
					/* CP: one primitive per line (lines = entries / 2 above) */
					uint64_t cp = cfg->ac.lines;
					/* LB per frame, summed: TP_f + max(0, TP_f - CP); TP split evenly */
					uint64_t tpf = tp / c->frames;
					uint64_t lb = c->frames * (tpf + (tpf > cp ? tpf - cp : 0));
					double ratio = acc ? (double)miss / (double)acc : 0.0;
					double lb_ratio = acc ? (double)lb / (double)acc : 0.0;
					char wn[16];
					ways_name(ways[a], wn, sizeof(wn));
					const char *pol = tsr_ac_policy_name(pols[p]);
					tsr_text_printf(txt, "%-16s %7u %5s %-5s %9llu %9llu %8.2f%% %8.2f%%\n",
							name, kib[k], wn, pol, (unsigned long long)acc,
							(unsigned long long)miss,
							acc ? 100.0 * (double)miss / (double)acc : 0.0,
							acc ? 100.0 * (double)lb / (double)acc : 0.0);
					tsr_table_row(tab);
					tsr_table_cellf(tab, "%s", name);
					tsr_table_cellf(tab, "%u", kib[k] * 1024);
					tsr_table_cellf(tab, "%s", wn);
					tsr_table_cellf(tab, "%s", pol);
					tsr_table_cellf(tab, "%llu", (unsigned long long)tp);
					tsr_table_cellf(tab, "%llu", (unsigned long long)cp);
					tsr_table_cellf(tab, "%llu", (unsigned long long)acc);
					tsr_table_cellf(tab, "%llu", (unsigned long long)miss);
					tsr_table_cellf(tab, "%.6f", ratio);
					tsr_table_cellf(tab, "%.6f", lb_ratio);
					/* "reaches the lower bound": within 0.1% of LB */
					uint32_t *r = &reach[(w * NA + a) * NP + p];
					if (!*r && (double)miss <= 1.001 * (double)lb)
						*r = kib[k];
					xp_flush(c, out);
				}
		xp_runs_release(runs, NK * NA * NP);
		tsr_scene_destroy(sc);
	}
	if (s == TSR_OK)
		reach_table(c, reach, nw, rt, txt);
	free(runs);
	free(reach);
	return s;
}

const struct tsr_experiment tsr_xp_attribute_cache = {
	.name = "attribute-cache",
	.summary = "Attribute Cache miss ratio against its size (4 KiB to 512 KiB) for OPT, "
		   "LRU, MRU and DRRIP, fully associative and 2, 4, 8 ways, beside the lower "
		   "bound LB = TP + max(0, TP - CP), and the smallest size within 0.1% of LB "
		   "(TCOR V-A, Figs. 11-13)",
	.default_workloads = workloads,
	.default_frames = 4,
	.has_spec = 1,
	.run = run_attribute_cache,
};
