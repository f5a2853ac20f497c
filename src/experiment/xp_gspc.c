/*
 * xp_gspc.c - `gspc`: the LLC study of Gaur et al., "Efficient Management
 * of Last-level Caches in Graphics Processors for 3D Scene Rendering
 * Workloads" (MICRO 2013), Sections 2 and 5.1, on configs/gspc-8mb.json
 * (the immediate-mode pipeline with the paper's Section 4 render caches
 * and an 8 MB 16-way LLC called "llc").
 *
 * Per workload one run records the LLC's input in memory (a cache
 * observer, as `tessera run --record-trace llc=...` does; from a sweep,
 * the point's trace-llc.bin, which experiments/gspc.json records:
 * xp_record()) and replays it
 * (cachesim/replay.h) under DRRIP, NRU, SHiP-mem, GS-DRRIP, GSPZTC,
 * GSPZTC+TSE, GSPC, GSPC+UCD, DRRIP+UCD, Belady's OPT (every miss fills,
 * as the paper's Belady) and OPTPT (OPT with bypass, the bound for the
 * +UCD policies, which bypass the display stream), plus GSPZTC with t = 2,
 * 4 and 16 (Fig. 11). The LLC is non-inclusive and never invalidates the
 * render caches, so its input does not depend on its own policy or size:
 * the same trace is also replayed at 16 MB (configs/gspc-16mb.json's LLC).
 * The DRRIP replay must reproduce the run's LLC misses (column
 * replay_matches_run).
 *
 * From the replays' counters (memory/cache.h: per stream, with the RT bit
 * counters rt_lines and rt_consumed) come Fig. 1 and Fig. 12 (LLC misses
 * against DRRIP), Fig. 4 (LLC accesses per stream), Fig. 5 (texture,
 * render-target and Z hit rates), Fig. 6 (inter-stream share of the
 * texture hits, render-target consumption) and Fig. 13; from
 * tsr_epochs_analyze() under OPT, Figs. 7 and 9 (hits per epoch and death
 * ratios of texture and Z blocks); from a second DRRIP replay that reads
 * each fill's RRPV (tsr_cache_rank()), Fig. 8 (fills at RRPV 3); from
 * LRU, four-bit DRRIP and four-bit GS-DRRIP replays, Fig. 14.
 *
 * Figs. 15-17 come from timing runs (the cycle model, docs/timing.md) of
 * each workload under DRRIP, NRU, GS-DRRIP and GSPC on the GSPC machine
 * (configs/gspc-*.json: 1.6 GHz, 12 sampler clusters issuing 16 quad
 * instructions a cycle, dual-channel DDR3-1600 15-15-15) at 8 and 16 MB,
 * with DDR3-1867 10-10-10, and with 8 sampler clusters (the paper's less
 * aggressive GPU); the frame rate's change against DRRIP is the figures'
 * normalised performance minus one.
 *
 * Streams: the paper's render-target stream is every color access
 * (blending included) and its display stream the final displayable
 * writes; tessera tags the last pass's color traffic (the frame buffer)
 * `display` and earlier passes' targets `render_target`, so the columns
 * give both render_target alone and "color" = render_target + display,
 * and +UCD uncaches all of the last pass's color, not only its final
 * writes (README explains what that changes).
 *
 * Workloads run on `-j` threads (default 2) (one simulation and its replays each);
 * every result has its fixed slot, so the report does not depend on
 * thread timing. Memory: a recorded access is 32 bytes (1-3 M accesses
 * per workload and frame at 1920x1200).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cachesim/linetrace.h"
#include "cachesim/replay.h"
#include "experiment/xp_priv.h"
#include "memory/memsys.h"
#include "pipeline/gpu.h"
#include "sim/sim.h"


/* Policies replayed at 8 MB (all) and 16 MB (up to P_MAIN), in Fig. 12's order. */
enum {
	P_DRRIP, P_NRU, P_SHIP, P_GSDRRIP, P_GSPZTC, P_TSE, P_GSPC, P_GSPC_UCD, P_DRRIP_UCD,
	P_OPT, P_OPTPT, P_MAIN,
	P_T2 = P_MAIN, P_T4, P_T16, P_LRU, P_DRRIP4, P_GSDRRIP4, NP
};
static const char *const specs[NP] = {
	"drrip", "nru", "ship-mem", "gs-drrip", "gspztc", "gspztc+tse", "gspc", "gspc+ucd",
	"drrip+ucd", "opt", "optpt", "gspztc:t=2", "gspztc:t=4", "gspztc:t=16",
	"lru", "drrip:bits=4", "gs-drrip:bits=4",
};

/* Fig. 14: policies with GSPC's four state bits per block, against two-bit DRRIP. */
static const int iso_overhead[] = {P_LRU, P_DRRIP4, P_GSDRRIP4, P_GSPC};
enum { NISO = sizeof(iso_overhead) / sizeof(iso_overhead[0]) };

/*
 * Figs. 15-17: timing runs (frame rate) of each workload under DRRIP and
 * the figures' policies, on four machines: the 8 MB and 16 MB baselines,
 * DDR3-1867 10-10-10 memory, and a less aggressive GPU (64 cores and 8
 * samplers: 8 of tessera's sampler clusters instead of 12).
 */
enum { M_8, M_16, M_DDR1867, M_SMALL, NM };
enum { Q_DRRIP, Q_NRU, Q_GSDRRIP, Q_GSPC, NQ };
static const char *const perf_policies[NQ] = {"drrip", "nru", "gs-drrip", "gspc"};
static const struct {
	const char *config, *extra, *figure, *label;
	uint32_t policies;  /* bit per Q_* */
} machines[NM] = {
	{"gspc-8mb", NULL, "15", "8 MB", 0xf},
	{"gspc-16mb", NULL, "16", "16 MB", 0xf},
	{"gspc-8mb", "dram.model=ddr3-1867", "17 upper", "8 MB, DDR3-1867",
	 1u << Q_DRRIP | 1u << Q_NRU | 1u << Q_GSPC},
	{"gspc-8mb", "raster.cores=8", "17 lower", "8 MB, 8 samplers",
	 1u << Q_DRRIP | 1u << Q_NRU | 1u << Q_GSPC},
};

/* Fig. 11's thresholds and their policies. */
static const struct {
	uint32_t t;
	int pol;
} thresholds[] = {{2, P_T2}, {4, P_T4}, {8, P_GSPZTC}, {16, P_T16}};
enum { NT = sizeof(thresholds) / sizeof(thresholds[0]) };

/* LLC sizes: 8 MB (gspc-8mb) and 16 MB (gspc-16mb). */
enum { S8, S16, NS };
static const char *const size_configs[NS] = {"gspc-8mb", "gspc-16mb"};

/* Streams of Fig. 4, in the paper's order. */
static const int fig4_streams[] = {
	TSR_STREAM_RENDER_TARGET, TSR_STREAM_DISPLAY, TSR_STREAM_TEXTURE, TSR_STREAM_Z,
	TSR_STREAM_HIZ, TSR_STREAM_VERTEX, TSR_STREAM_INDEX, TSR_STREAM_STENCIL,
	TSR_STREAM_INSTRUCTION, TSR_STREAM_OTHER,
};
enum { NFIG4 = sizeof(fig4_streams) / sizeof(fig4_streams[0]) };

/* What one workload measured. */
struct gspc_row {
	char name[64];
	uint64_t accesses;                       /* LLC line accesses recorded */
	uint64_t run_misses;                     /* the run's LLC misses (DRRIP) */
	struct tsr_replay_result res[NS][NP];    /* [S16] only up to P_MAIN */
	struct tsr_epoch_result epochs;          /* OPT at 8 MB */
	uint64_t fills[TSR_STREAM_COUNT];        /* DRRIP at 8 MB: fills per stream (Fig. 8) */
	uint64_t fills_distant[TSR_STREAM_COUNT]; /* those at RRPV 3 */
	uint64_t cycles[NM][NQ];                 /* timing runs (Figs. 15-17); 0: not run */
	double fps[NM][NQ];                      /* their frames per second */
};

/* ---- one workload ---- */

struct job {
	const struct xp_ctx *c;            /* c->from: read the sweep's points */
	struct tsr_gpu_config cfg;         /* gspc-8mb with the --set overrides */
	struct tsr_cache_geometry g16;     /* gspc-16mb's LLC */
	const struct tsr_scene *sc;
	uint32_t frames;
	struct gspc_row *row;
	enum tsr_status status;
	struct tsr_error err;
};

static uint64_t misses_of(const struct tsr_cache_counters *c)
{
	return c->read_misses + c->write_misses;
}

/*
 * The job's run recording the LLC's input into *lt (next uses computed;
 * from the sweep point with c->from) and its LLC misses into the row.
 */
static enum tsr_status record(struct job *j, struct tsr_line_trace *lt,
			      struct tsr_cache_geometry *g, struct tsr_error *err)
{
	struct tsr_frame_stats *t = malloc(sizeof(*t));
	if (!t)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	uint32_t port = 0;
	enum tsr_status st = xp_record(j->c, &j->cfg, j->sc, j->frames, "llc", lt, g, t, &port,
				       NULL, err);
	if (st == TSR_OK) {
		j->row->run_misses = 0;
		for (int k = 0; k < TSR_STREAM_COUNT; k++)
			j->row->run_misses += misses_of(&t->caches[port][k]);
	}
	free(t);
	return st;
}

/* Fig. 8's visit: a fill (a miss that allocated) and the RRPV DRRIP gave it. */
static void count_fill(void *ctx, uint32_t cache, size_t index, const struct tsr_access *a,
		       const struct tsr_cache_outcome *o)
{
	(void)index;
	struct gspc_row *r = ((void **)ctx)[0];
	struct tsr_cache *const *caches = ((void **)ctx)[1];
	if (o->hit || o->bypass || o->merge)
		return;
	r->fills[a->stream]++;
	if (tsr_cache_rank(caches[cache], a->addr, o->way) == 3)
		r->fills_distant[a->stream]++;
}

/* Replays lt under two-bit DRRIP at geometry g counting its fills at RRPV 3 (Fig. 8). */
static enum tsr_status count_distant_fills(const struct tsr_line_trace *lt,
					   const struct tsr_cache_geometry *g,
					   struct gspc_row *row, struct tsr_error *err)
{
	static const char *const drrip[] = {"drrip"};
	struct tsr_cache **cache;
	TSR_TRY(tsr_replay_caches_create(g, drrip, 1, &cache, err));
	void *ctx[2] = {row, cache};
	tsr_replay_caches(lt, cache, 1, count_fill, ctx);
	tsr_replay_caches_destroy(cache, 1);
	return TSR_OK;
}

static void run_job(struct job *j)
{
	struct tsr_line_trace lt;
	struct tsr_cache_geometry g;
	j->status = record(j, &lt, &g, &j->err);
	if (j->status != TSR_OK)
		return;
	j->row->accesses = lt.count;
	j->status = tsr_replay(&lt, &g, specs, NP, j->row->res[S8], &j->err);
	if (j->status == TSR_OK)
		j->status = tsr_replay(&lt, &j->g16, specs, P_MAIN, j->row->res[S16], &j->err);
	if (j->status == TSR_OK) {
		struct tsr_cache_geometry go = g;
		snprintf(go.policy, sizeof(go.policy), "%s", "opt");
		j->status = tsr_epochs_analyze(&lt, &go, &j->row->epochs, &j->err);
	}
	if (j->status == TSR_OK)
		j->status = count_distant_fills(&lt, &g, j->row, &j->err);
	tsr_line_trace_release(&lt);
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
static enum tsr_status run_jobs(const struct xp_ctx *c, struct job *jobs, size_t count,
			       struct tsr_error *err)
{
	TSR_TRY(xp_parallel(jobs, (size_t)count, sizeof(*jobs), run_job_item, c->jobs, err));
	for (size_t i = 0; i < count; i++)
		if (jobs[i].status != TSR_OK) {
			*err = jobs[i].err;
			return jobs[i].status;
		}
	return TSR_OK;
}

/* ---- timing runs (Figs. 15-17) ---- */

struct perf_job {
	const struct xp_ctx *c;      /* c->from: read the sweep's points */
	struct tsr_gpu_config cfg;   /* the machine's config, the policy, timing on */
	const struct tsr_scene *sc;
	uint32_t frames;
	uint64_t *cycles;            /* into gspc_row.cycles */
	double *fps;                 /* into gspc_row.fps */
	enum tsr_status status;
	struct tsr_error err;
};

static void run_perf_job(void *item)
{
	struct perf_job *j = item;
	struct tsr_frame_stats *t = malloc(sizeof(*t));
	struct xp_timing tm;
	if (!t) {
		j->status = tsr_error_set(&j->err, TSR_ERR_NOMEM, "out of memory");
		return;
	}
	j->status = xp_simulate(j->c, &j->cfg, j->sc, j->frames, t, NULL, &tm, &j->err);
	if (j->status == TSR_OK && tm.cycles) {
		*j->cycles = tm.cycles;
		*j->fps = (double)j->frames * j->cfg.timing.gpu_mhz * 1e6 / (double)tm.cycles;
	}
	free(t);
}

/*
 * Runs every workload's timing runs of machines[] x perf_policies[] on
 * c->jobs threads into rows[w].cycles. Errors: a config's (naming it), a
 * run's, TSR_ERR_NOMEM; the first failing run's in run order.
 */
static enum tsr_status run_perf(struct xp_ctx *c, struct tsr_scene **scenes,
				struct gspc_row *rows, struct tsr_error *err)
{
	size_t n = 0, cap = c->workload_count * NM * NQ;
	struct perf_job *jobs = calloc(cap ? cap : 1, sizeof(*jobs));
	if (!jobs)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	enum tsr_status s = TSR_OK;
	for (size_t w = 0; s == TSR_OK && w < c->workload_count; w++)
		for (int m = 0; s == TSR_OK && m < NM; m++)
			for (int q = 0; s == TSR_OK && q < NQ; q++) {
				if (!(machines[m].policies >> q & 1u))
					continue;
				char policy[64];
				snprintf(policy, sizeof(policy), "caches.llc.policy=%s",
					 perf_policies[q]);
				const char *extra[] = {"timing.enabled=true", policy, machines[m].extra};
				struct perf_job *j = &jobs[n++];
				s = xp_load_config_sets(c, machines[m].config, extra,
							machines[m].extra ? 3 : 2, &j->cfg, err);
				j->c = c;
				j->sc = scenes[w];
				j->frames = c->frames;
				j->cycles = &rows[w].cycles[m][q];
				j->fps = &rows[w].fps[m][q];
			}
	if (s == TSR_OK)
		s = xp_parallel(jobs, n, sizeof(*jobs), run_perf_job, c->jobs, err);
	for (size_t i = 0; s == TSR_OK && i < n; i++)
		if (jobs[i].status != TSR_OK) {
			*err = jobs[i].err;
			s = jobs[i].status;
		}
	free(jobs);
	return s;
}

/* Performance of policy q on machine m against DRRIP's (%): its frame rate's change. */
static double perf_pct(const struct gspc_row *r, int m, int q)
{
	const uint64_t base = r->cycles[m][Q_DRRIP], mine = r->cycles[m][q];
	return mine ? 100.0 * ((double)base / (double)mine - 1.0) : 0.0;
}

/* ---- measures ---- */

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Hit rate (%) of the streams in mask (bit per enum tsr_stream). */
static double hit_pct(const struct tsr_replay_result *r, uint32_t mask)
{
	uint64_t acc = 0, miss = 0;
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		if (mask & (1u << s)) {
			acc += r->streams[s].reads + r->streams[s].writes;
			miss += misses_of(&r->streams[s]);
		}
	return acc ? 100.0 * (double)(acc - miss) / (double)acc : 0.0;
}

#define BIT(s) (1u << (s))
#define COLOR_MASK (BIT(TSR_STREAM_RENDER_TARGET) | BIT(TSR_STREAM_DISPLAY))

/* Texture hits (reads and writes that did not miss). */
static uint64_t texture_hits(const struct tsr_replay_result *r)
{
	const struct tsr_cache_counters *t = &r->streams[TSR_STREAM_TEXTURE];
	return t->reads + t->writes - misses_of(t);
}

/* Render-target consumption (%): texture hits on RT lines per line that became one (Fig. 6). */
static double consumption_pct(const struct tsr_replay_result *r)
{
	return pct(r->streams[TSR_STREAM_TEXTURE].rt_consumed,
		   r->streams[TSR_STREAM_RENDER_TARGET].rt_lines +
			   r->streams[TSR_STREAM_DISPLAY].rt_lines);
}

/* The same counting render_target lines only (the display's are never sampled). */
static double consumption_rt_pct(const struct tsr_replay_result *r)
{
	return pct(r->streams[TSR_STREAM_TEXTURE].rt_consumed,
		   r->streams[TSR_STREAM_RENDER_TARGET].rt_lines);
}

/* Columns of the main table after workload, llc_mb, policy. */
enum {
	C_MISSES, C_CHANGE, C_TEX_HIT, C_RT_HIT, C_COLOR_HIT, C_Z_HIT, C_DISPLAY_HIT,
	C_CONS, C_CONS_RT, C_INTER, NC
};
static const char *const col_names[NC] = {
	"misses", "change_vs_drrip_pct", "texture_hit_pct", "render_target_hit_pct",
	"color_hit_pct", "z_hit_pct", "display_hit_pct", "rt_consumption_pct",
	"rt_consumption_render_target_only_pct", "texture_inter_stream_hit_pct",
};

static void measures(const struct tsr_replay_result *r, const struct tsr_replay_result *base,
		     double v[NC])
{
	v[C_MISSES] = (double)misses_of(&r->total);
	v[C_CHANGE] = xp_pct(misses_of(&r->total), misses_of(&base->total));
	v[C_TEX_HIT] = hit_pct(r, BIT(TSR_STREAM_TEXTURE));
	v[C_RT_HIT] = hit_pct(r, BIT(TSR_STREAM_RENDER_TARGET));
	v[C_COLOR_HIT] = hit_pct(r, COLOR_MASK);
	v[C_Z_HIT] = hit_pct(r, BIT(TSR_STREAM_Z));
	v[C_DISPLAY_HIT] = hit_pct(r, BIT(TSR_STREAM_DISPLAY));
	v[C_CONS] = consumption_pct(r);
	v[C_CONS_RT] = consumption_rt_pct(r);
	v[C_INTER] = pct(r->streams[TSR_STREAM_TEXTURE].rt_consumed, texture_hits(r));
}

/*
 * The paper's averages (its text, Sections 1, 2 and 5.1) and what tessera
 * compares with them: a policy's mean change of LLC misses against DRRIP
 * (K_CHANGE), a mean measure of a policy (K_MEASURE, column col), a
 * stream's share of the LLC accesses (K_SHARE, mask of streams), texture
 * epoch hits or death ratios under OPT (K_EPOCH_HITS, K_DEATH: stream,
 * epoch), GSPZTC's change at threshold t against t = 16 (K_T), DRRIP's
 * share of fills at RRPV 3 (K_FILL3, mask of streams), or a policy's
 * frame rate against DRRIP's (K_PERF: pol = Q_*, col = machine).
 */
enum { K_CHANGE, K_MEASURE, K_SHARE, K_EPOCH_HITS, K_DEATH, K_T, K_FILL3, K_PERF };
static const struct {
	const char *figure, *quantity;
	int kind, pol, col;
	uint32_t arg;  /* K_SHARE: stream mask; K_EPOCH_HITS/K_DEATH: stream; K_T: t */
	int epoch;
	double paper;
} paper_rows[] = {
	{"1", "LLC misses NRU vs DRRIP", K_CHANGE, P_NRU, 0, 0, 0, 6.2},
	{"1", "LLC misses Belady (opt) vs DRRIP", K_CHANGE, P_OPT, 0, 0, 0, -36.6},
	{"4", "share of LLC accesses: render target (render_target+display)", K_SHARE, 0, 0,
	 COLOR_MASK, 0, 40.0},
	{"4", "share of LLC accesses: texture", K_SHARE, 0, 0, BIT(TSR_STREAM_TEXTURE), 0, 34.0},
	{"4", "share of LLC accesses: Z (>= 10%; 100 - the rest)", K_SHARE, 0, 0,
	 BIT(TSR_STREAM_Z), 0, 10.0},
	{"4", "share of LLC accesses: HiZ", K_SHARE, 0, 0, BIT(TSR_STREAM_HIZ), 0, 7.0},
	{"4", "share of LLC accesses: vertex (vertex+index)", K_SHARE, 0, 0,
	 BIT(TSR_STREAM_VERTEX) | BIT(TSR_STREAM_INDEX), 0, 4.0},
	{"4", "share of LLC accesses: stencil+other (paper: +display)", K_SHARE, 0, 0,
	 BIT(TSR_STREAM_STENCIL) | BIT(TSR_STREAM_OTHER) | BIT(TSR_STREAM_INSTRUCTION), 0, 5.0},
	{"5", "texture hit rate, Belady", K_MEASURE, P_OPT, C_TEX_HIT, 0, 0, 53.4},
	{"5", "texture hit rate, DRRIP", K_MEASURE, P_DRRIP, C_TEX_HIT, 0, 0, 22.0},
	{"5", "texture hit rate, NRU", K_MEASURE, P_NRU, C_TEX_HIT, 0, 0, 18.4},
	{"5", "render-target (color) hit rate, Belady", K_MEASURE, P_OPT, C_COLOR_HIT, 0, 0, 59.8},
	{"5", "render-target (color) hit rate, DRRIP", K_MEASURE, P_DRRIP, C_COLOR_HIT, 0, 0, 50.1},
	{"5", "render-target (color) hit rate, NRU", K_MEASURE, P_NRU, C_COLOR_HIT, 0, 0, 41.5},
	{"5", "Z hit rate, Belady", K_MEASURE, P_OPT, C_Z_HIT, 0, 0, 77.1},
	{"5", "Z hit rate, DRRIP (paper: about 58)", K_MEASURE, P_DRRIP, C_Z_HIT, 0, 0, 58.0},
	{"5", "Z hit rate, NRU (paper: about 58)", K_MEASURE, P_NRU, C_Z_HIT, 0, 0, 58.0},
	{"6", "inter-stream share of texture hits, Belady", K_MEASURE, P_OPT, C_INTER, 0, 0, 55.0},
	{"6", "render-target consumption, Belady", K_MEASURE, P_OPT, C_CONS, 0, 0, 51.0},
	{"6", "render-target consumption, DRRIP", K_MEASURE, P_DRRIP, C_CONS, 0, 0, 16.0},
	{"6", "render-target consumption, NRU", K_MEASURE, P_NRU, C_CONS, 0, 0, 13.0},
	{"7", "texture intra-stream hits from E0, Belady", K_EPOCH_HITS, 0, 0, TSR_STREAM_TEXTURE,
	 0, 79.0},
	{"7", "texture intra-stream hits from E1, Belady", K_EPOCH_HITS, 0, 0, TSR_STREAM_TEXTURE,
	 1, 15.0},
	{"7", "texture intra-stream hits from E2, Belady", K_EPOCH_HITS, 0, 0, TSR_STREAM_TEXTURE,
	 2, 4.0},
	{"7", "texture intra-stream hits from E>=3, Belady", K_EPOCH_HITS, 0, 0,
	 TSR_STREAM_TEXTURE, 3, 2.0},
	{"7", "texture E0 death ratio x 100, Belady", K_DEATH, 0, 0, TSR_STREAM_TEXTURE, 0, 81.0},
	{"7", "texture E1 death ratio x 100, Belady", K_DEATH, 0, 0, TSR_STREAM_TEXTURE, 1, 73.0},
	{"7", "texture E2 death ratio x 100, Belady", K_DEATH, 0, 0, TSR_STREAM_TEXTURE, 2, 53.0},
	{"8", "texture fills at RRPV 3, DRRIP", K_FILL3, 0, 0, BIT(TSR_STREAM_TEXTURE), 0, 36.0},
	{"8", "render-target (color) fills at RRPV 3, DRRIP (paper: about 1/4)", K_FILL3, 0, 0,
	 COLOR_MASK, 0, 25.0},
	{"9", "Z E0 death ratio x 100, Belady", K_DEATH, 0, 0, TSR_STREAM_Z, 0, 61.0},
	{"9", "Z E1 death ratio x 100, Belady", K_DEATH, 0, 0, TSR_STREAM_Z, 1, 38.0},
	{"9", "Z E2 death ratio x 100, Belady", K_DEATH, 0, 0, TSR_STREAM_Z, 2, 26.0},
	{"11", "GSPZTC misses t=2 vs t=16 (paper: about 0)", K_T, 0, 0, 2, 0, 0.0},
	{"11", "GSPZTC misses t=4 vs t=16 (paper: about 0)", K_T, 0, 0, 4, 0, 0.0},
	{"11", "GSPZTC misses t=8 vs t=16 (paper: about 0)", K_T, 0, 0, 8, 0, 0.0},
	{"12", "LLC misses NRU vs DRRIP", K_CHANGE, P_NRU, 0, 0, 0, 6.2},
	{"12", "LLC misses SHiP-mem vs DRRIP", K_CHANGE, P_SHIP, 0, 0, 0, 0.0},
	{"12", "LLC misses GS-DRRIP vs DRRIP", K_CHANGE, P_GSDRRIP, 0, 0, 0, -2.9},
	{"12", "LLC misses GSPZTC vs DRRIP", K_CHANGE, P_GSPZTC, 0, 0, 0, -4.8},
	{"12", "LLC misses GSPZTC+TSE vs DRRIP", K_CHANGE, P_TSE, 0, 0, 0, -11.5},
	{"12", "LLC misses GSPC vs DRRIP", K_CHANGE, P_GSPC, 0, 0, 0, -11.8},
	{"12", "LLC misses GSPC+UCD vs DRRIP", K_CHANGE, P_GSPC_UCD, 0, 0, 0, -13.1},
	{"12", "LLC misses DRRIP+UCD vs DRRIP", K_CHANGE, P_DRRIP_UCD, 0, 0, 0, 0.0},
	{"13", "render-target (color) hit rate, GSPC", K_MEASURE, P_GSPC, C_COLOR_HIT, 0, 0, 57.7},
	{"14", "LLC misses LRU vs two-bit DRRIP", K_CHANGE, P_LRU, 0, 0, 0, 7.2},
	{"14", "LLC misses four-bit DRRIP vs two-bit DRRIP", K_CHANGE, P_DRRIP4, 0, 0, 0, -0.4},
	{"14", "LLC misses four-bit GS-DRRIP vs two-bit DRRIP", K_CHANGE, P_GSDRRIP4, 0, 0, 0,
	 -1.7},
	{"14", "LLC misses GSPC (four bits) vs two-bit DRRIP", K_CHANGE, P_GSPC, 0, 0, 0, -11.8},
	{"15", "frame rate NRU vs DRRIP, 8 MB", K_PERF, Q_NRU, M_8, 0, 0, -7.0},
	{"15", "frame rate GS-DRRIP vs DRRIP, 8 MB", K_PERF, Q_GSDRRIP, M_8, 0, 0, 0.8},
	{"15", "frame rate GSPC vs DRRIP, 8 MB", K_PERF, Q_GSPC, M_8, 0, 0, 8.0},
	{"16", "frame rate NRU vs DRRIP, 16 MB", K_PERF, Q_NRU, M_16, 0, 0, -3.0},
	{"16", "frame rate GS-DRRIP vs DRRIP, 16 MB", K_PERF, Q_GSDRRIP, M_16, 0, 0, 4.0},
	{"16", "frame rate GSPC vs DRRIP, 16 MB", K_PERF, Q_GSPC, M_16, 0, 0, 11.8},
	{"17", "frame rate NRU vs DRRIP, DDR3-1867", K_PERF, Q_NRU, M_DDR1867, 0, 0, -7.0},
	{"17", "frame rate GSPC vs DRRIP, DDR3-1867", K_PERF, Q_GSPC, M_DDR1867, 0, 0, 7.1},
	{"17", "frame rate NRU vs DRRIP, less aggressive GPU", K_PERF, Q_NRU, M_SMALL, 0, 0,
	 -5.3},
	{"17", "frame rate GSPC vs DRRIP, less aggressive GPU", K_PERF, Q_GSPC, M_SMALL, 0, 0,
	 5.9},
};
enum { NPAPER = sizeof(paper_rows) / sizeof(paper_rows[0]) };

/* Share (%) of a row's LLC accesses by the streams in mask (Fig. 4). */
static double share_pct(const struct gspc_row *r, uint32_t mask)
{
	const struct tsr_replay_result *d = &r->res[S8][P_DRRIP];
	uint64_t n = 0, all = 0;
	for (int s = 0; s < TSR_STREAM_COUNT; s++) {
		uint64_t a = d->streams[s].reads + d->streams[s].writes;
		all += a;
		if (mask & BIT(s))
			n += a;
	}
	return pct(n, all);
}

/* Share (%) of the intra-stream hits of stream s under OPT that come from epoch k (Fig. 7). */
static double epoch_hits_pct(const struct gspc_row *r, int s, int k)
{
	const struct tsr_epoch_stats *e = &r->epochs.streams[s];
	uint64_t all = 0;
	for (int i = 0; i < TSR_EPOCHS; i++)
		all += e->hits[i];
	return pct(e->hits[k], all);
}

/* ---- reports ---- */

static void print_misses(struct tsr_xp_result *out, struct tsr_table *tab,
			 const struct gspc_row *rows, size_t nw, int size, double mean[NP][NC])
{
	struct tsr_text *txt = &out->text;
	const int np = size == S8 ? NP : P_MAIN;
	tsr_text_printf(txt, "\nFigs. 1 and 12, %s: LLC misses, change against DRRIP\n",
			size_configs[size]);
	tsr_text_printf(txt, "%-16s %10s %10s", "workload", "accesses", "DRRIP");
	for (int p = 1; p < P_MAIN; p++)
		tsr_text_printf(txt, " %10s", specs[p]);
	tsr_text_printf(txt, "  %s\n", size == S8 ? "replay = run" : "");
	memset(mean, 0, sizeof(double) * NP * NC);
	for (size_t w = 0; w < nw; w++) {
		const struct gspc_row *r = &rows[w];
		const struct tsr_replay_result *base = &r->res[size][P_DRRIP];
		const int ok = misses_of(&base->total) == r->run_misses;
		tsr_text_printf(txt, "%-16s %10llu %10llu", r->name, (unsigned long long)r->accesses,
				(unsigned long long)misses_of(&base->total));
		for (int p = 1; p < P_MAIN; p++)
			tsr_text_printf(txt, " %9.1f%%",
					xp_pct(misses_of(&r->res[size][p].total), misses_of(&base->total)));
		tsr_text_printf(txt, "  %s\n", size == S8 ? (ok ? "ok" : "MISMATCH") : "");
		for (int p = 0; p < np; p++) {
			double v[NC];
			measures(&r->res[size][p], base, v);
			tsr_table_row(tab);
			tsr_table_cellf(tab, "%s", r->name);
			tsr_table_cellf(tab, "%d", size == S8 ? 8 : 16);
			tsr_table_cellf(tab, "%s", specs[p]);
			tsr_table_cellf(tab, "%llu", (unsigned long long)r->accesses);
			for (int k = 0; k < NC; k++) {
				tsr_table_cellf(tab, k == C_MISSES ? "%.0f" : "%.6f", v[k]);
				mean[p][k] += v[k] / (double)nw;
			}
			tsr_table_cellf(tab, "%s", size == S8 && p == P_DRRIP ? (ok ? "1" : "0") : "");
		}
	}
	tsr_text_printf(txt, "%-16s %10s %10s", "mean", "", "");
	for (int p = 1; p < P_MAIN; p++)
		tsr_text_printf(txt, " %9.1f%%", mean[p][C_CHANGE]);
	tsr_text_printf(txt, "\n");
	for (int p = 0; p < np; p++) {
		tsr_table_row(tab);
		tsr_table_cellf(tab, "%s", "mean");
		tsr_table_cellf(tab, "%d", size == S8 ? 8 : 16);
		tsr_table_cellf(tab, "%s", specs[p]);
		tsr_table_cellf(tab, "%s", "");
		for (int k = 0; k < NC; k++)
			tsr_table_cellf(tab, k == C_MISSES ? "%.1f" : "%.6f", mean[p][k]);
		tsr_table_cellf(tab, "%s", "");
	}
	/* Figs. 5, 6 and 13: the means per policy */
	tsr_text_printf(txt, "\nFigs. 5, 6 and 13, %s, mean over the workloads (%%): hit rates, "
			"render-target consumption (RT lines consumed by texture hits; rt-only: of "
			"render_target lines), inter-stream share of texture hits\n",
			size_configs[size]);
	tsr_text_printf(txt, "%-12s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "policy", "misses",
			"texture", "rt", "color", "z", "display", "consumed", "rt-only", "inter");
	for (int p = 0; p < P_MAIN; p++)
		tsr_text_printf(txt, "%-12s %+7.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%% "
				"%7.1f%% %7.1f%% %7.1f%%\n", specs[p], mean[p][C_CHANGE],
				mean[p][C_TEX_HIT], mean[p][C_RT_HIT], mean[p][C_COLOR_HIT],
				mean[p][C_Z_HIT], mean[p][C_DISPLAY_HIT], mean[p][C_CONS],
				mean[p][C_CONS_RT], mean[p][C_INTER]);
}

static void print_streams(struct tsr_xp_result *out, struct tsr_table *tab,
			  const struct gspc_row *rows, size_t nw)
{
	struct tsr_text *txt = &out->text;
	tsr_text_printf(txt, "\nFig. 4: share of the LLC accesses per stream\n%-16s", "workload");
	for (int i = 0; i < NFIG4; i++)
		tsr_text_printf(txt, " %8.8s", tsr_stream_name((enum tsr_stream)fig4_streams[i]));
	tsr_text_printf(txt, "\n");
	double mean[NFIG4] = {0};
	for (size_t w = 0; w <= nw; w++) {
		const char *name = w < nw ? rows[w].name : "mean";
		tsr_text_printf(txt, "%-16s", name);
		for (int i = 0; i < NFIG4; i++) {
			const int s = fig4_streams[i];
			double v = w < nw ? share_pct(&rows[w], BIT(s)) : mean[i];
			if (w < nw)
				mean[i] += v / (double)nw;
			tsr_text_printf(txt, " %7.1f%%", v);
			tsr_table_row(tab);
			tsr_table_cellf(tab, "%s", name);
			tsr_table_cellf(tab, "%s", tsr_stream_name((enum tsr_stream)s));
			if (w < nw) {
				const struct tsr_cache_counters *k = &rows[w].res[S8][P_DRRIP].streams[s];
				tsr_table_cellf(tab, "%llu", (unsigned long long)(k->reads + k->writes));
			} else {
				tsr_table_cellf(tab, "%s", "");
			}
			tsr_table_cellf(tab, "%.6f", v);
		}
		tsr_text_printf(txt, "\n");
	}
}

static void print_epochs(struct tsr_xp_result *out, struct tsr_table *tab,
			 const struct gspc_row *rows, size_t nw)
{
	struct tsr_text *txt = &out->text;
	static const int streams[] = {TSR_STREAM_TEXTURE, TSR_STREAM_Z};
	tsr_text_printf(txt, "\nFigs. 7 and 9: epochs under Belady (opt, 8 MB): share of the "
			"intra-stream hits from E0, E1, E2, E>=3 and death ratios of E0, E1, E2\n");
	tsr_text_printf(txt, "%-16s %-8s %7s %7s %7s %7s %7s %7s %7s\n", "workload", "stream",
			"hits E0", "E1", "E2", "E>=3", "death0", "death1", "death2");
	for (int si = 0; si < 2; si++) {
		const int s = streams[si];
		double mean[7] = {0};
		for (size_t w = 0; w <= nw; w++) {
			double v[7];
			if (w < nw) {
				for (int k = 0; k < TSR_EPOCHS; k++)
					v[k] = epoch_hits_pct(&rows[w], s, k);
				for (int k = 0; k < TSR_EPOCHS - 1; k++)
					v[TSR_EPOCHS + k] = rows[w].epochs.streams[s].death[k];
				for (int k = 0; k < 7; k++)
					mean[k] += v[k] / (double)nw;
			} else {
				memcpy(v, mean, sizeof(v));
			}
			const char *name = w < nw ? rows[w].name : "mean";
			tsr_text_printf(txt, "%-16s %-8s %6.1f%% %6.1f%% %6.1f%% %6.1f%% %7.3f %7.3f "
					"%7.3f\n", name, tsr_stream_name((enum tsr_stream)s), v[0], v[1],
					v[2], v[3], v[4], v[5], v[6]);
			tsr_table_row(tab);
			tsr_table_cellf(tab, "%s", name);
			tsr_table_cellf(tab, "%s", tsr_stream_name((enum tsr_stream)s));
			for (int k = 0; k < 7; k++)
				tsr_table_cellf(tab, "%.6f", v[k]);
		}
	}
}

static void print_thresholds(struct tsr_xp_result *out, struct tsr_table *tab,
			     const struct gspc_row *rows, size_t nw, double mean[NT])
{
	struct tsr_text *txt = &out->text;
	tsr_text_printf(txt, "\nFig. 11: GSPZTC's LLC misses at threshold t, change against "
			"t = 16 (8 MB)\n%-16s", "workload");
	for (int i = 0; i < NT; i++)
		tsr_text_printf(txt, " %8s%-2u", "t=", thresholds[i].t);
	tsr_text_printf(txt, "\n");
	for (int i = 0; i < NT; i++)
		mean[i] = 0.0;
	for (size_t w = 0; w <= nw; w++) {
		const char *name = w < nw ? rows[w].name : "mean";
		tsr_text_printf(txt, "%-16s", name);
		for (int i = 0; i < NT; i++) {
			double v = mean[i];
			uint64_t m = 0;
			if (w < nw) {
				m = misses_of(&rows[w].res[S8][thresholds[i].pol].total);
				v = xp_pct(m, misses_of(&rows[w].res[S8][P_T16].total));
				mean[i] += v / (double)nw;
			}
			tsr_text_printf(txt, " %9.2f%%", v);
			tsr_table_row(tab);
			tsr_table_cellf(tab, "%s", name);
			tsr_table_cellf(tab, "%u", thresholds[i].t);
			if (w < nw)
				tsr_table_cellf(tab, "%llu", (unsigned long long)m);
			else
				tsr_table_cellf(tab, "%s", "");
			tsr_table_cellf(tab, "%.6f", v);
		}
		tsr_text_printf(txt, "\n");
	}
}

/* DRRIP's fills at RRPV 3 (%) of the streams in mask (Fig. 8). */
static double fill3_pct(const struct gspc_row *r, uint32_t mask)
{
	uint64_t fills = 0, distant = 0;
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		if (mask & BIT(s)) {
			fills += r->fills[s];
			distant += r->fills_distant[s];
		}
	return pct(distant, fills);
}

/* Fig. 8 and Fig. 14. */
static void print_insertions(struct tsr_xp_result *out, struct tsr_table *tab,
			     const struct gspc_row *rows, size_t nw)
{
	struct tsr_text *txt = &out->text;
	tsr_text_printf(txt, "\nFig. 8: fills DRRIP inserts at RRPV 3 (8 MB), and Fig. 14: LLC "
			"misses of policies with four state bits per block, change against "
			"two-bit DRRIP\n%-16s %9s %9s", "workload", "tex RRPV3", "rt RRPV3");
	for (int i = 0; i < NISO; i++)
		tsr_text_printf(txt, " %15s", specs[iso_overhead[i]]);
	tsr_text_printf(txt, "\n");
	double mean[2 + NISO] = {0};
	for (size_t w = 0; w <= nw; w++) {
		double v[2 + NISO];
		if (w < nw) {
			const struct gspc_row *r = &rows[w];
			const uint64_t base = misses_of(&r->res[S8][P_DRRIP].total);
			v[0] = fill3_pct(r, BIT(TSR_STREAM_TEXTURE));
			v[1] = fill3_pct(r, COLOR_MASK);
			for (int i = 0; i < NISO; i++)
				v[2 + i] = xp_pct(misses_of(&r->res[S8][iso_overhead[i]].total), base);
			for (int k = 0; k < 2 + NISO; k++)
				mean[k] += v[k] / (double)nw;
		} else {
			memcpy(v, mean, sizeof(v));
		}
		const char *name = w < nw ? rows[w].name : "mean";
		tsr_text_printf(txt, "%-16s %8.1f%% %8.1f%%", name, v[0], v[1]);
		for (int i = 0; i < NISO; i++)
			tsr_text_printf(txt, " %14.1f%%", v[2 + i]);
		tsr_text_printf(txt, "\n");
		tsr_table_row(tab);
		tsr_table_cellf(tab, "%s", name);
		for (int k = 0; k < 2 + NISO; k++)
			tsr_table_cellf(tab, "%.6f", v[k]);
	}
}

/* The mean of perf_pct() over the workloads. */
static double perf_mean(const struct gspc_row *rows, size_t nw, int m, int q)
{
	double v = 0.0;
	for (size_t w = 0; w < nw; w++)
		v += perf_pct(&rows[w], m, q) / (double)nw;
	return v;
}

/* Figs. 15-17: frame rates and their change against DRRIP per machine. */
static void print_perf(struct tsr_xp_result *out, struct tsr_table *tab,
		       const struct gspc_row *rows, size_t nw)
{
	struct tsr_text *txt = &out->text;
	for (int m = 0; m < NM; m++) {
		tsr_text_printf(txt, "\nFig. %s: frame rate against DRRIP, %s (%s, timing model)\n"
				"%-16s %10s", machines[m].figure, machines[m].label,
				machines[m].config, "workload", "DRRIP fps");
		for (int q = 1; q < NQ; q++)
			if (machines[m].policies >> q & 1u)
				tsr_text_printf(txt, " %9s", perf_policies[q]);
		tsr_text_printf(txt, "\n");
		for (size_t w = 0; w <= nw; w++) {
			const char *name = w < nw ? rows[w].name : "mean";
			if (w < nw)
				tsr_text_printf(txt, "%-16s %10.1f", name, rows[w].fps[m][Q_DRRIP]);
			else
				tsr_text_printf(txt, "%-16s %10s", name, "");
			for (int q = 0; q < NQ; q++) {
				if (!(machines[m].policies >> q & 1u))
					continue;
				const double v = w < nw ? perf_pct(&rows[w], m, q)
							: perf_mean(rows, nw, m, q);
				if (q)
					tsr_text_printf(txt, " %+8.1f%%", v);
				tsr_table_row(tab);
				tsr_table_cellf(tab, "%s", name);
				tsr_table_cellf(tab, "%s", machines[m].figure);
				tsr_table_cellf(tab, "%s", machines[m].label);
				tsr_table_cellf(tab, "%s", perf_policies[q]);
				if (w < nw) {
					tsr_table_cellf(tab, "%llu",
							(unsigned long long)rows[w].cycles[m][q]);
					tsr_table_cellf(tab, "%.6f", rows[w].fps[m][q]);
				} else {
					tsr_table_cellf(tab, "%s", "");
					tsr_table_cellf(tab, "%s", "");
				}
				tsr_table_cellf(tab, "%.6f", v);
			}
			tsr_text_printf(txt, "\n");
		}
	}
}

static enum tsr_status run_gspc(struct xp_ctx *c, struct tsr_xp_result *out,
				struct tsr_error *err)
{
	char hdr[512];
	int n = snprintf(hdr, sizeof(hdr), "workload,llc_mb,policy,llc_accesses");
	for (int k = 0; k < NC; k++)
		n += snprintf(hdr + n, sizeof(hdr) - (size_t)n, ",%s", col_names[k]);
	snprintf(hdr + n, sizeof(hdr) - (size_t)n, ",replay_matches_run");
	struct tsr_table *tab = xp_add_table(out, "gspc", hdr, err);
	struct tsr_table *streams = tab ? xp_add_table(out, "gspc-streams",
		"workload,stream,llc_accesses,share_pct", err) : NULL;
	struct tsr_table *epochs = streams ? xp_add_table(out, "gspc-epochs",
		"workload,stream,hits_e0_pct,hits_e1_pct,hits_e2_pct,hits_e3plus_pct,death_e0,"
		"death_e1,death_e2", err) : NULL;
	struct tsr_table *thr = epochs ? xp_add_table(out, "gspc-threshold",
		"workload,t,misses,change_vs_t16_pct", err) : NULL;
	struct tsr_table *ins = thr ? xp_add_table(out, "gspc-insertions-iso-overhead",
		"workload,texture_fills_rrpv3_pct,color_fills_rrpv3_pct,lru_change_pct,"
		"drrip4_change_pct,gs_drrip4_change_pct,gspc_change_pct", err) : NULL;
	struct tsr_table *perf = ins ? xp_add_table(out, "gspc-performance",
		"workload,figure,machine,policy,cycles,fps,perf_vs_drrip_pct", err) : NULL;
	struct tsr_table *paper = perf ? xp_add_paper_table(out, "gspc-paper", "tessera_pct", err)
				       : NULL;
	if (!paper)
		return TSR_ERR_NOMEM;
	struct tsr_text *txt = &out->text;

	struct tsr_gpu_config *cfg16 = malloc(sizeof(*cfg16));
	struct job *jobs = calloc(c->workload_count ? c->workload_count : 1, sizeof(*jobs));
	struct gspc_row *rows = calloc(c->workload_count ? c->workload_count : 1, sizeof(*rows));
	struct tsr_scene **scenes = calloc(c->workload_count ? c->workload_count : 1,
					   sizeof(*scenes));
	enum tsr_status s = TSR_OK;
	if (!cfg16 || !jobs || !rows || !scenes)
		s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	if (s == TSR_OK)
		s = xp_load_config(c, size_configs[S16], cfg16, err);
	const struct tsr_cache_config *llc16 =
		s == TSR_OK ? tsr_memsys_config_cache(&cfg16->mem, "llc") : NULL;
	if (s == TSR_OK && !llc16)
		s = tsr_error_set(err, TSR_ERR_CONFIG, "configuration '%s' has no cache 'llc' "
				  "(the experiment replays its geometry)", size_configs[S16]);
	for (size_t w = 0; s == TSR_OK && w < c->workload_count; w++) {
		s = xp_load_scene(c, w, &scenes[w], err);
		if (s == TSR_OK)
			s = xp_load_config(c, size_configs[S8], &jobs[w].cfg, err);
		if (s != TSR_OK)
			break;
		/* counts only: the timing model changes no cache counter */
		jobs[w].cfg.timing.enabled = 0;
		jobs[w].c = c;
		jobs[w].g16 = llc16->geom;
		jobs[w].sc = scenes[w];
		jobs[w].frames = c->frames;
		jobs[w].row = &rows[w];
		snprintf(rows[w].name, sizeof(rows[w].name), "%s", xp_workload_name(c, w, scenes[w]));
	}
	if (s == TSR_OK) {
		tsr_text_printf(txt, "gspc: %zu workloads x %u frames on %s (IMR), LLC input recorded "
				"and replayed under %d policies at 8 MB and %d at 16 MB\n",
				c->workload_count, c->frames, size_configs[S8], NP, P_MAIN);
		xp_flush(c, out);
		s = run_jobs(c, jobs, c->workload_count, err);
	}
	if (s == TSR_OK) {
		tsr_text_printf(txt, "timing runs (Figs. 15-17): %zu workloads x %d machines x up "
				"to %d policies, %u frames each\n", c->workload_count, NM, NQ,
				c->frames);
		xp_flush(c, out);
		s = run_perf(c, scenes, rows, err);
	}
	if (s == TSR_OK) {
		const size_t nw = c->workload_count;
		double (*mean)[NP][NC] = malloc(sizeof(double) * NS * NP * NC);
		double tmean[NT];
		if (!mean) {
			s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
		} else {
			print_streams(out, streams, rows, nw);
			print_misses(out, tab, rows, nw, S8, mean[S8]);
			print_epochs(out, epochs, rows, nw);
			print_thresholds(out, thr, rows, nw, tmean);
			print_misses(out, tab, rows, nw, S16, mean[S16]);
			print_insertions(out, ins, rows, nw);
			print_perf(out, perf, rows, nw);
			tsr_text_printf(txt, "\n%-6s %-62s %8s %8s\n", "figure",
					"quantity (8 MB; tessera: mean over the workloads)", "paper",
					"tessera");
			for (int i = 0; i < NPAPER; i++) {
				double v = 0.0;
				switch (paper_rows[i].kind) {
				case K_CHANGE: v = mean[S8][paper_rows[i].pol][C_CHANGE]; break;
				case K_MEASURE: v = mean[S8][paper_rows[i].pol][paper_rows[i].col]; break;
				case K_SHARE:
					for (size_t w = 0; w < nw; w++)
						v += share_pct(&rows[w], paper_rows[i].arg) / (double)nw;
					break;
				case K_EPOCH_HITS:
					for (size_t w = 0; w < nw; w++)
						v += epoch_hits_pct(&rows[w], (int)paper_rows[i].arg,
								    paper_rows[i].epoch) / (double)nw;
					break;
				case K_DEATH:
					for (size_t w = 0; w < nw; w++)
						v += 100.0 * rows[w].epochs.streams[paper_rows[i].arg]
								     .death[paper_rows[i].epoch] / (double)nw;
					break;
				case K_T:
					for (int k = 0; k < NT; k++)
						if (thresholds[k].t == paper_rows[i].arg)
							v = tmean[k];
					break;
				case K_FILL3:
					for (size_t w = 0; w < nw; w++)
						v += fill3_pct(&rows[w], paper_rows[i].arg) / (double)nw;
					break;
				case K_PERF:
					v = perf_mean(rows, nw, paper_rows[i].col, paper_rows[i].pol);
					break;
				}
				xp_paper_row(paper, txt, 62, paper_rows[i].figure, paper_rows[i].quantity,
					     paper_rows[i].paper, v);
			}
			xp_flush(c, out);
			free(mean);
		}
	}
	for (size_t w = 0; scenes && w < c->workload_count; w++)
		tsr_scene_destroy(scenes[w]);
	free(scenes);
	free(rows);
	free(jobs);
	free(cfg16);
	return s;
}

/* Multi-pass workloads (render to texture: GSPC's inter-stream reuse) and three single-pass 3D ones. */
static const char *const gspc_workloads[] = {
	"workloads/shadow-map-3d.json", "workloads/postfx-bloom.json",
	"workloads/minimap-3d.json",    "workloads/city-racing-3d.json",
	"workloads/sniper-3d.json",     "workloads/glmark-scene.json",
	NULL,
};

const struct tsr_experiment tsr_xp_gspc = {
	.name = "gspc",
	.summary = "GSPC Sections 2 and 5.1 on configs/gspc-8mb.json (immediate mode): each "
		   "workload's LLC input recorded and replayed under DRRIP, NRU, SHiP-mem, "
		   "GS-DRRIP, GSPZTC, GSPZTC+TSE, GSPC, GSPC+UCD, DRRIP+UCD, Belady (opt) "
		   "and OPTPT at 8 and 16 MB: LLC misses against DRRIP, accesses per stream, "
		   "texture, render-target and Z hit rates, render-target consumption, "
		   "epochs under Belady, DRRIP's fills at RRPV 3, GSPZTC's threshold t, "
		   "four-bit LRU, DRRIP and GS-DRRIP; then timing runs: frame rates of NRU, "
		   "GS-DRRIP and GSPC against DRRIP at 8 and 16 MB, with DDR3-1867 and with "
		   "8 samplers (GSPC Figs. 1, 4-9, 11-17)",
	.default_workloads = gspc_workloads,
	.default_frames = 2,
	.has_spec = 1,
	.run = run_gspc,
};
