/*
 * xp_timing.c - `timing`: what the timing model (docs/timing.md) says of
 * every workload on the default configuration (the built-in TCOR Table I
 * GPU and the context's --set overrides), with
 * timing.enabled forced on. One row per workload, from the run's total
 * counters (stats/counters.h, group "timing") and the energy model
 * (energy/energy.h):
 *
 *   fps                    frames per second at timing.gpu_mhz
 *   cycles_per_frame       timing.cycles / frames
 *   geometry_cycles_pct    timing.geometry_cycles / timing.cycles
 *   mean_memory_latency    timing.memory_latency / memory_requests (every
 *                          line request timed, issue to data, hits included)
 *   mean_dram_latency      timing.dram_latency / dram_requests (enqueue to
 *                          data)
 *   dram_row_hit_pct       timing.dram_row_hits / dram_requests
 *   dram_bandwidth_pct     timing.dram_io_bytes / (cycles x the DRAM's peak
 *                          bytes per GPU cycle: the GPU port's 4 bytes on
 *                          lpddr3, the buses' on lpddr4); the port is one
 *                          each way, so reads and writes at once can pass
 *                          100%
 *   energy_mj_per_frame    total energy / frames, and the static share
 *   energy_<group>_pct     shares of the components, grouped: dram,
 *                          caches (every cache instance and TCOR's
 *                          Attribute Cache), shader_cores, texture_units,
 *                          raster, geometry, tiling, other (the Signature
 *                          Unit and anything else); they add up to 100%
 *
 * A last row holds the means over the workloads. Then "timing-bottlenecks":
 * the share of each workload's cycles that each unit held it up
 * (geometry_cycles; the bottleneck_* counters, which attribute the raster
 * phase to the stage its oldest tile waited on; the drain, the frame's
 * writes reaching DRAM after its last tile), and the share of the cores'
 * raster-phase cycles they had warps all waiting on memory. Then
 * "timing-paper": what the papers state of the same quantities, beside
 * tessera's means (their text only; one figure derived from three quoted
 * ones, and marked so).
 *
 * Left out: the papers' per-benchmark FPS (they report speedups, not
 * frame rates).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/xp_priv.h"
#include "report/report.h"
#include "timing/dram.h"

/* Energy components, grouped (energy/energy.h names them). */
enum { E_DRAM, E_CACHES, E_CORES, E_TEXTURE, E_RASTER, E_GEOMETRY, E_TILING, E_OTHER, NE };
static const char *const energy_cols[NE] = {
	"energy_dram_pct",    "energy_caches_pct", "energy_shader_cores_pct",
	"energy_texture_units_pct", "energy_raster_pct", "energy_geometry_pct",
	"energy_tiling_pct",  "energy_other_pct"};
static const char *const energy_heads[NE] = {"dram", "caches", "cores", "tex",
					     "raster", "geom", "tiling", "other"};

static int energy_group(const char *component)
{
	if (!strcmp(component, "dram"))
		return E_DRAM;
	if (!strncmp(component, "caches.", 7) || !strcmp(component, "attribute_cache"))
		return E_CACHES;
	if (!strcmp(component, "shader_cores"))
		return E_CORES;
	if (!strcmp(component, "texture_units"))
		return E_TEXTURE;
	if (!strcmp(component, "raster"))
		return E_RASTER;
	if (!strcmp(component, "geometry"))
		return E_GEOMETRY;
	if (!strcmp(component, "tiling"))
		return E_TILING;
	return E_OTHER;
}

/* The columns of a row, in table order. */
enum {
	C_FPS, C_CYCLES_PER_FRAME, C_GEOMETRY_CYCLES, C_MEMORY_LATENCY, C_DRAM_LATENCY,
	C_ROW_HITS, C_BANDWIDTH, C_ENERGY_MJ, C_STATIC, C_SHARE,  /* then NE shares */
	NC = C_SHARE + NE
};

/* The bottleneck table's columns: shares of the cycles. */
enum { B_GEOMETRY, B_FETCH, B_RASTER, B_EARLY_Z, B_FRAGMENT, B_BLEND, B_FLUSH, B_DRAIN,
       B_CORE_MEMORY, NB };
static const char *const bottleneck_cols[NB] = {
	"geometry_pct", "tile_fetcher_pct", "rasterizer_pct", "early_z_pct", "fragment_pct",
	"blending_pct", "flush_pct", "drain_pct", "cores_waiting_memory_pct"};
static const char *const bottleneck_heads[NB] = {"geom", "fetch", "raster", "earlyZ",
						 "frag", "blend", "flush", "drain",
						 "core-mem"};

/* Percentage v of `of` (0 when of is 0). */
static double share(double v, double of)
{
	return of > 0 ? 100.0 * v / of : 0.0;
}

/* Mean of `sum` over `count` requests (0 when there are none). */
static double mean_of(uint64_t sum, uint64_t count)
{
	return count ? (double)sum / (double)count : 0.0;
}

/*
 * The DRAM's peak bytes per GPU cycle for cfg: the preset the timing
 * driver builds for cfg->timing.dram_model (pipeline/timing_driver.c),
 * asked of an idle device.
 */
static enum tsr_status dram_peak(const struct tsr_gpu_config *cfg, double *peak,
				 struct tsr_error *err)
{
	struct tsr_dram_params p;
	tsr_config_dram_params(cfg, &p);
	struct tsr_dram *d;
	TSR_TRY(tsr_dram_create(&p, cfg->timing.gpu_mhz, &d, err));
	*peak = tsr_dram_peak_bytes_per_gpu_cycle(d);
	tsr_dram_destroy(d);
	return TSR_OK;
}

/* One workload's row from its run's counters and energy. */
static void measure(const struct tsr_frame_stats *t, const struct xp_timing *tm,
		    uint32_t frames, uint32_t gpu_mhz, double peak, double *v)
{
	const struct tsr_timing_stats *k = &t->timing;
	v[C_FPS] = tsr_frames_per_second(frames, k->cycles, gpu_mhz);
	v[C_CYCLES_PER_FRAME] = (double)k->cycles / frames;
	v[C_GEOMETRY_CYCLES] = share((double)k->geometry_cycles, (double)k->cycles);
	v[C_MEMORY_LATENCY] = mean_of(k->memory_latency, k->memory_requests);
	v[C_DRAM_LATENCY] = mean_of(k->dram_latency, k->dram_requests);
	v[C_ROW_HITS] = share((double)k->dram_row_hits, (double)k->dram_requests);
	v[C_BANDWIDTH] = share((double)k->dram_io_bytes, (double)k->cycles * peak);
	const struct tsr_energy_result *e = &tm->energy;
	v[C_ENERGY_MJ] = e->total_nj / frames / 1e6;
	v[C_STATIC] = share(e->static_nj, e->total_nj);
	for (int g = 0; g < NE; g++)
		v[C_SHARE + g] = 0.0;
	for (uint32_t i = 0; i < e->count; i++)
		v[C_SHARE + energy_group(e->parts[i].name)] +=
			share(e->parts[i].dynamic_nj + e->parts[i].static_nj, e->total_nj);
}

/* The bottleneck shares of one workload's run t into b (NB values). */
static void bottlenecks(const struct tsr_frame_stats *t, uint32_t cores, double *b)
{
	const struct tsr_timing_stats *k = &t->timing;
	const double c = (double)k->cycles;
	b[B_GEOMETRY] = share((double)k->geometry_cycles, c);
	b[B_FETCH] = share((double)k->bottleneck_tile_fetcher, c);
	b[B_RASTER] = share((double)k->bottleneck_rasterizer, c);
	b[B_EARLY_Z] = share((double)k->bottleneck_early_z, c);
	b[B_FRAGMENT] = share((double)k->bottleneck_fragment, c);
	b[B_BLEND] = share((double)k->bottleneck_blending, c);
	b[B_FLUSH] = share((double)k->bottleneck_flush, c);
	b[B_DRAIN] = share((double)(k->cycles - k->geometry_cycles - k->tile_cycles), c);
	uint64_t waiting = 0;
	for (uint32_t i = 0; i < cores && i < TSR_MAX_CORES; i++)
		waiting += k->core_stalled_memory[i];
	b[B_CORE_MEMORY] = share((double)waiting, (double)k->tile_cycles * cores);
}

static void add_row(struct tsr_table *tab, struct tsr_text *txt, const char *name,
		    const char *frames, const double *v)
{
	tsr_text_printf(txt, "%-18s %6s %8.1f %11.0f %6.1f%% %8.1f %8.1f %7.1f%% %6.1f%% "
			"%8.3f %6.1f%%", name, frames, v[C_FPS], v[C_CYCLES_PER_FRAME],
			v[C_GEOMETRY_CYCLES], v[C_MEMORY_LATENCY], v[C_DRAM_LATENCY],
			v[C_ROW_HITS], v[C_BANDWIDTH], v[C_ENERGY_MJ], v[C_STATIC]);
	for (int g = 0; g < NE; g++)
		tsr_text_printf(txt, " %6.1f%%", v[C_SHARE + g]);
	tsr_text_printf(txt, "\n");
	tsr_table_row(tab);
	tsr_table_cellf(tab, "%s", name);
	tsr_table_cellf(tab, "%s", frames);
	for (int c = 0; c < NC; c++)
		tsr_table_cellf(tab, "%.17g", v[c]);
}

static enum tsr_status run_timing(struct xp_ctx *c, struct tsr_xp_result *out,
				  struct tsr_error *err)
{
	struct tsr_gpu_config cfg;
	TSR_TRY(xp_load_config_extra(c, NULL, "timing.enabled=true", &cfg, err));
	double peak = 0.0;
	TSR_TRY(dram_peak(&cfg, &peak, err));
	char header[512];
	int n = snprintf(header, sizeof(header), "workload,frames,fps,cycles_per_frame,"
			 "geometry_cycles_pct,mean_memory_latency_cycles,"
			 "mean_dram_latency_cycles,dram_row_hit_pct,dram_bandwidth_pct,"
			 "energy_mj_per_frame,static_energy_pct");
	for (int g = 0; g < NE && n > 0 && (size_t)n < sizeof(header); g++)
		n += snprintf(header + n, sizeof(header) - (size_t)n, ",%s", energy_cols[g]);
	struct tsr_table *tab = xp_add_table(out, "timing", header, err);
	n = snprintf(header, sizeof(header), "workload");
	for (int b = 0; b < NB && n > 0 && (size_t)n < sizeof(header); b++)
		n += snprintf(header + n, sizeof(header) - (size_t)n, ",%s", bottleneck_cols[b]);
	struct tsr_table *bn = tab ? xp_add_table(out, "timing-bottlenecks", header, err) : NULL;
	struct tsr_table *paper = bn ? xp_add_table(out, "timing-paper",
						    "source,quantity,paper,tessera_mean", err)
				     : NULL;
	if (!paper)
		return TSR_ERR_NOMEM;
	struct tsr_text *txt = &out->text;
	tsr_text_printf(txt, "timing model on '%s' at %u MHz, DRAM peak %.2f bytes/cycle, "
			"means per frame\n", cfg.name, cfg.timing.gpu_mhz, peak);
	tsr_text_printf(txt, "%-18s %6s %8s %11s %7s %8s %8s %8s %7s %8s %7s", "workload",
			"frames", "FPS", "cyc/frame", "geom", "mem-lat", "dram-lat", "row-hit",
			"DRAM-bw", "mJ/frame", "static");
	for (int g = 0; g < NE; g++)
		tsr_text_printf(txt, " %7s", energy_heads[g]);
	tsr_text_printf(txt, "\n");
	xp_flush(c, out);
	/* the workloads in batches of c->jobs, one simulation each, on as many threads;
	 * rows in workload order */
	struct xp_run *runs = calloc(c->jobs, sizeof(*runs));
	struct tsr_scene **scenes = calloc(c->jobs, sizeof(*scenes));
	if (!runs || !scenes) {
		free(runs);
		free(scenes);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	double sum[NC] = {0};
	int nw = 0;
	enum tsr_status s = TSR_OK;
	for (size_t w0 = 0; s == TSR_OK && w0 < c->workload_count; w0 += c->jobs) {
		size_t nb = 0;
		s = xp_simulate_batch(c, w0, &cfg, c->frames, runs, scenes, &nb, err);
		for (size_t i = 0; s == TSR_OK && i < nb; i++) {
			const size_t w = w0 + i;
			const struct tsr_scene *sc = scenes[i];
			const uint32_t frames = runs[i].frames;
			const struct tsr_frame_stats *t = runs[i].total;
			double v[NC];
			char fr[16];
			measure(t, &runs[i].timing, frames, cfg.timing.gpu_mhz, peak, v);
			double b[NB];
			bottlenecks(t, cfg.mem.cores, b);
			tsr_table_row(bn);
			tsr_table_cellf(bn, "%s", xp_workload_name(c, w, sc));
			for (int k = 0; k < NB; k++)
				tsr_table_cellf(bn, "%.17g", b[k]);
			snprintf(fr, sizeof(fr), "%u", frames);
			add_row(tab, txt, xp_workload_name(c, w, sc), fr, v);
			for (int k = 0; k < NC; k++)
				sum[k] += v[k];
			nw++;
			xp_flush(c, out);
		}
		xp_batch_release(c, runs, scenes);
	}
	free(runs);
	free(scenes);
	if (s != TSR_OK)
		return s;
	double mean[NC] = {0};
	if (nw) {
		for (int k = 0; k < NC; k++)
			mean[k] = sum[k] / nw;
		add_row(tab, txt, "mean", "", mean);
	}

	/* what held each workload up */
	tsr_text_printf(txt, "\nshare of the cycles each unit held the frame up (the raster "
			"phase: the stage its oldest tile waited on)\n%-18s", "workload");
	for (int b = 0; b < NB; b++)
		tsr_text_printf(txt, " %8s", bottleneck_heads[b]);
	tsr_text_printf(txt, "\n");
	for (uint32_t r = 0; r < bn->rows; r++) {
		tsr_text_printf(txt, "%-18s", tsr_table_cell(bn, r, "workload"));
		for (int b = 0; b < NB; b++)
			tsr_text_printf(txt, " %7.1f%%",
					strtod(tsr_table_cell(bn, r, bottleneck_cols[b]), NULL));
		tsr_text_printf(txt, "\n");
	}

	/* what the papers state (their text), beside tessera's means */
	static const struct {
		const char *source, *quantity, *paper;
		int col;  /* tessera's mean; -1: the DRAM's peak, -2: the clock */
	} rows[] = {
		{"TCOR I, DTexL II, boustrophedonic II (RE I: 400)", "GPU clock, MHz", "600", -2},
		{"TCOR, RE, DTexL, boustrophedonic tables", "main memory latency, cycles (loaded)",
		 "50-100", C_DRAM_LATENCY},
		{"RE Table I", "main memory bandwidth, bytes/cycle", "4", -1},
		{"RE V-B, Fig. 13b", "main memory share of energy, % (derived)", "50", C_SHARE + E_DRAM},
	};
	tsr_text_printf(txt, "\n%-50s %-42s %8s %8s\n", "source", "quantity", "paper", "tessera");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double v = rows[i].col >= 0 ? mean[rows[i].col]
			 : rows[i].col == -1 ? peak : (double)cfg.timing.gpu_mhz;
		tsr_text_printf(txt, "%-50s %-42s %8s %8.1f\n", rows[i].source, rows[i].quantity,
				rows[i].paper, v);
		tsr_table_row(paper);
		tsr_table_cellf(paper, "%s", rows[i].source);
		tsr_table_cellf(paper, "%s", rows[i].quantity);
		tsr_table_cellf(paper, "%s", rows[i].paper);
		tsr_table_cellf(paper, "%.17g", v);
	}
	tsr_text_printf(txt, "\nRE V-B (Fig. 13b): energy -43%% for the system, -38%% for the GPU "
			"and -48%% for main memory,\nwhich puts main memory at half the "
			"baseline's energy (0.48 f + 0.38 (1 - f) = 0.43: f = 0.5);\nDTexL I: the "
			"shader cores are \"the vast majority of execution time and energy "
			"consumption\";\nRE I: \"the GPU and its communication with main memory [...] "
			"are the greatest contributors\nto energy consumption\"\n");
	xp_flush(c, out);
	return TSR_OK;
}

const struct tsr_experiment tsr_xp_timing = {
	.name = "timing",
	.summary = "the timing model on the default configuration (timing.enabled forced "
		   "on): per workload frames per second, cycles per frame, geometry share of "
		   "the cycles, mean memory and DRAM latency, DRAM row hits and bandwidth "
		   "use, energy per frame and its shares per component, and the share of the "
		   "cycles each unit held the frame up; then the papers' clock, memory "
		   "latency, bandwidth and energy beside tessera's",
	.default_workloads = NULL,  /* every shipped workload */
	.default_frames = 4,
	.has_spec = 1,
	.run = run_timing,
};
