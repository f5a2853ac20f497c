/*
 * cmd_run.c - `tessera run`: render a workload's frames on the modelled
 * GPU and write statistics, CSV and images (and, with --record-trace, the
 * input stream of chosen caches).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "config/config.h"
#include "core/datadir.h"
#include "core/limits.h"
#include "pipeline/gpu.h"
#include "report/heatmap.h"
#include "report/report.h"
#include "scene/scene.h"
#include "sim/sim.h"
#include "trace/trace.h"

#define MAX_RECORDINGS 8

_Static_assert(TSR_HEATMAP_COUNTERS == TSR_HEAT_COUNT,
	       "report/heatmap.h lists the counters of pipeline/gpu.h's enum tsr_heat_counter");

static void usage_run(FILE *f)
{
	fprintf(f,
		"usage: tessera run WORKLOAD|CAPTURE.trace [--config GPU] [--frames N|LIST]\n"
		"                   [--sample [K]] [--out DIR] [--dump-frames LIST]\n"
		"                   [--timing on|off]\n"
		"                   [--heatmaps COUNTER[,COUNTER...]] [--quiet]\n"
		"\n"
		"  WORKLOAD            a workload file, or a shipped workload by name\n"
		"                      ('sprites-2d', see workloads/)\n"
		"  CAPTURE.trace       an apitrace capture of a GL ES 2.0 program ('tessera\n"
		"                      capture'), replayed on tessera's driver with\n"
		"                      eglretrace (docs/driver.md)\n"
		"  --config GPU        GPU configuration: a file, or a shipped one by name\n"
		"                      ('tcor-64k', see configs/; default: built-in TCOR\n"
		"                      Table I)\n"
		"  --set KEY=VALUE     override one configuration key (repeatable; see\n"
		"                      'tessera config --list'): --set caches.l2.size_bytes=2M\n"
		"  --frames N|LIST     frames to render: the first N (default: the workload's\n"
		"                      count), or frames and ranges (10-20,40): those are\n"
		"                      simulated fully, the frames before them are fast-\n"
		"                      forwarded (rendered exactly, without the memory and\n"
		"                      timing models) and left out of the outputs\n"
		"  --warmup N          with a list or --sample: the N frames before each\n"
		"                      simulated one run the caches (no timing, in no output)\n"
		"                      so that it starts with warm caches (default: 1)\n"
		"  --sample [K]        MEGsim sampling ('tessera sample'): fast-forward all,\n"
		"                      simulate fully one representative frame of each of K\n"
		"                      clusters (default: the BIC rule) and write the\n"
		"                      estimated totals, with error bounds, as stats.json\n"
		"  --out DIR           output folder (default: out)\n"
		"  --dump-frames LIST  frames to write as frame-NNNN.png: 'last' (default),\n"
		"                      'all', 'none' or a comma-separated list (0,10,29)\n"
		"  --record-trace CACHE=FILE\n"
		"                      record the input stream of cache CACHE (l2, tile,\n"
		"                      vertex, texture0, instruction0, ...) as a binary\n"
		"                      trace for 'tessera cachesim' and 'tessera analyze';\n"
		"                      may be given up to %d times (once for a capture)\n"
		"  --timing on|off     count cycles too (timing.enabled): frames per second,\n"
		"                      unit and core activity, memory latencies; every other\n"
		"                      counter is the same (default: the configuration's)\n"
		"  --heatmaps LIST     per-tile heatmaps of the dumped frames: for each\n"
		"                      counter of LIST and each frame --dump-frames\n"
		"                      writes, heatmap-COUNTER-NNNN.png (the tile grid\n"
		"                      coloured by the counter, a colour bar, the\n"
		"                      largest and smallest values) and\n"
		"                      heatmap-COUNTER-NNNN.csv; counters: quads_shaded,\n"
		"                      tile_cycles (timing mode), l2_misses,\n"
		"                      pb_read_bytes, line_requests, tiles_skipped\n"
		"                      (elimination.rendering); pipeline.mode tbr only\n"
		"  --quiet             no progress bar and no summary\n"
		"\n"
		"Writes DIR/stats.json, DIR/frames.csv and DIR/frame-NNNN.png. Shipped\n"
		"workloads and configs are found in $TSR_DATA_DIR, the installed\n"
		"share/tessera or the source tree.\n"
		"Exit codes: 0 success, 1 runtime error, 2 usage error.\n",
		MAX_RECORDINGS);
}

int tsr_cli_frames_parse(const char *spec, uint32_t *count, const char **list,
			 unsigned char **sel)
{
	*count = 0;
	*list = NULL;
	*sel = NULL;
	if (spec[0] && strspn(spec, "0123456789") == strlen(spec)) {  /* a count */
		char *end;
		errno = 0;
		const long n = strtol(spec, &end, 10);
		if (*end || errno || n < 1 || n > (long)TSR_LIMIT_FRAMES)
			return tsr_cli_usage_error("invalid --frames '%s' (a number from 1 to %u, "
						   "or frames and ranges: 10-20,40)", spec,
						   TSR_LIMIT_FRAMES);
		*count = (uint32_t)n;
		return 0;
	}
	struct tsr_frame_list l;
	struct tsr_error err;
	if (tsr_frame_list_parse(spec, &l, &err) != TSR_OK)
		return tsr_cli_usage_error("invalid --frames %s", err.msg);
	if (l.kind != TSR_FRAMES_LIST) {
		tsr_frame_list_release(&l);
		return tsr_cli_usage_error("invalid --frames '%s' (a number from 1 to %u, or "
					   "frames and ranges: 10-20,40)", spec, TSR_LIMIT_FRAMES);
	}
	*count = l.n;
	*sel = l.listed;  /* taken over */
	*list = spec;
	return 0;
}

int tsr_cli_dump_frames_parse(const char *list, uint32_t frames, unsigned char *want)
{
	struct tsr_frame_list l;
	struct tsr_error err;
	if (tsr_frame_list_parse(list, &l, &err) != TSR_OK)
		return tsr_cli_usage_error("invalid --dump-frames %s", err.msg);
	int rc = 0;
	if (l.kind == TSR_FRAMES_LIST && l.n > frames)
		rc = tsr_cli_usage_error("invalid --dump-frames '%s': frame %u is past the last "
					 "frame (the run has %u frames, 0 to %u)",
					 list, l.n - 1, frames, frames - 1);
	for (uint32_t f = 0; f < frames; f++)
		want[f] = tsr_frame_list_has(&l, f, frames);
	tsr_frame_list_release(&l);
	return rc;
}

/* The progress line; `within`: where the frame in work is, or "". */
static void progress(uint32_t done, uint32_t total, uint64_t accesses,
		     double elapsed, const char *within)
{
	const int width = 30;
	int fill = total ? (int)((uint64_t)done * width / total) : width;
	double rate = elapsed > 0 ? (double)accesses / elapsed : 0.0;
	fprintf(stderr, "\r[%.*s%*s] %u/%u frames  ", fill, "##############################",
		width - fill, "", done, total);
	if (within[0]) /* the counters are summed at the end of a frame */
		fprintf(stderr, "%s, %.0fs   ", within, elapsed);
	else
		fprintf(stderr, "%.1f M accesses/s  %.0fs left%20s", rate / 1e6,
			done ? elapsed / done * (total - done) : 0.0, "");
	fflush(stderr);
}

/* The summary: the counters flagged TSR_CTR_SUMMARY (stats/counters.h) and ratios. */
static void print_summary(const struct tsr_frame_stats *t, uint32_t frames,
			  double seconds, const struct tsr_memsys *mem, uint32_t gpu_mhz,
			  const struct tsr_energy *energy)
{
	printf("\n%-34s %16s\n", "statistic", "total");
	printf("%-34s %16u\n", "frames", frames);
	for (size_t i = 0; i < tsr_stats_group_count; i++) {
		const struct tsr_counter_group *g = tsr_stats_groups[i].group;
		const void *gs = (const char *)t + tsr_stats_groups[i].offset;
		if (!tsr_counters_any(g, gs))
			continue;
		for (size_t k = 0; k < g->count; k++) {
			const struct tsr_counter_desc *d = &g->counters[k];
			if (!(d->flags & TSR_CTR_SUMMARY) || d->length != 1)
				continue;
			char label[80];
			snprintf(label, sizeof(label), "%s.%s", g->name, d->name);
			printf("%-34s %16llu\n", label,
			       (unsigned long long)tsr_counter_value(d, gs, 0));
		}
	}
	if (t->timing.cycles) {
		char label[80];
		snprintf(label, sizeof(label), "frames per second (%u MHz)", gpu_mhz);
		printf("%-34s %16.2f\n", label,
		       tsr_frames_per_second(frames, t->timing.cycles, gpu_mhz));
		/* tile sampling (docs/timing.md): the estimated tiles' share, the
		 * cycles' standard error, and a latency that is the simulated
		 * tiles' stream's, not the frame's */
		const uint64_t est = t->timing.estimated_tiles;
		if (est) {
			printf("%-34s %15.2f%%\n", "tiles estimated (tile sampling)",
			       100.0 * (double)est / (double)(est + t->timing.sampled_tiles));
			printf("%-34s %15.2f%%\n", "cycles' standard error",
			       100.0 * sqrt((double)t->timing.estimated_cycles_var) /
				       (double)t->timing.cycles);
		}
		printf("%-34s %16.1f\n",
		       est ? "mean memory latency, sampled tiles" : "mean memory latency (cycles)",
		       t->timing.memory_requests ? (double)t->timing.memory_latency /
						   (double)t->timing.memory_requests : 0.0);
		struct tsr_energy_result r;
		struct tsr_error err;
		if (energy && tsr_energy_compute(energy, t, &r, &err) == TSR_OK) {
			printf("%-34s %16.3f\n", "energy (mJ)", r.total_nj * 1e-6);
			printf("%-34s %16.3f\n", "energy per frame (mJ)",
			       frames ? r.total_nj * 1e-6 / frames : 0.0);
		}
	}
	printf("%-34s %16.2f\n", "avg primitives per tile",
	       t->tiling.tiles ? (double)t->tiling.pmds_written / (double)t->tiling.tiles : 0.0);
	for (uint32_t c = 0; c < t->cache_count; c++) {
		const char *name = tsr_cache_name(tsr_memsys_cache(mem, c));
		uint64_t acc = 0, miss = 0;
		for (int s = 0; s < TSR_STREAM_COUNT; s++) {
			acc += t->caches[c][s].reads + t->caches[c][s].writes;
			miss += t->caches[c][s].read_misses + t->caches[c][s].write_misses;
		}
		if (!acc)
			continue;
		char label[64];
		snprintf(label, sizeof(label), "%s miss ratio", name);
		printf("%-34s %15.2f%%\n", label, 100.0 * (double)miss / (double)acc);
	}
	const struct tsr_elimination_stats *e = &t->elim;
	if (e->tiles_compared) {
		double n = (double)e->tiles_compared;
		printf("%-34s %15.2f%%\n", "tiles skipped (RE)", 100.0 * (double)e->tiles_skipped / n);
		printf("%-34s %15.2f%%\n", "equal inputs", 100.0 * (double)e->tiles_equal_inputs / n);
		printf("%-34s %15.2f%%\n", "false negatives",
		       100.0 * (double)e->false_negatives / n);
		if (e->tiles_verified)
			printf("%-34s %16llu\n", "false positives",
			       (unsigned long long)e->false_positives);
	}
	if (e->te_tiles_signed)
		printf("%-34s %15.2f%%\n", "flushes removed (TE)",
		       100.0 * (double)e->te_flushes_removed / (double)e->te_tiles_signed);
	uint64_t rd = 0, wr = 0;
	for (int s = 0; s < TSR_STREAM_COUNT; s++) {
		rd += t->dram[s].read_bytes;
		wr += t->dram[s].write_bytes;
	}
	printf("%-34s %16llu\n", "DRAM read bytes", (unsigned long long)rd);
	printf("%-34s %16llu\n", "DRAM write bytes", (unsigned long long)wr);
	printf("%-34s %16llu\n", "memory accesses", (unsigned long long)t->memory_accesses);
	printf("%-34s %16.2f\n", "simulated frames/s", seconds > 0 ? frames / seconds : 0.0);
	printf("%-34s %16.2f\n", "simulated M accesses/s",
	       seconds > 0 ? (double)t->memory_accesses / seconds / 1e6 : 0.0);
}

/* What `run` writes as frames complete. */
struct run_outputs {
	struct tsr_output *out;
	struct tsr_stats_json *json;    /* stats.json */
	struct tsr_text csv;        /* frames.csv */
	const struct tsr_memsys *mem;
	const struct tsr_gpu_config *cfg;
	const struct tsr_energy *energy;  /* timing mode: frames.csv's energy_nj column */
	const unsigned char *dump;      /* --dump-frames: 1 for each frame to write */
	const int *heat;                /* --heatmaps: counters (tsr_heatmap_counters indices) */
	int heat_n;
	uint32_t frames;
	const uint32_t *rep_frames;     /* --sample: each cluster's representative */
	struct tsr_frame_stats **rep_stats; /* and a copy of its counters */
	uint32_t reps;
	int tty;                        /* show progress */
	double t0;
	double shown;                   /* when progress was last printed */
};

/* Within a frame: at most 4 updates a second, from the second second on,
 * so that short frames print nothing more. */
static void frame_progress(void *ctx, uint32_t frame, enum tsr_frame_phase phase,
			   uint32_t done, uint32_t total)
{
	struct run_outputs *o = ctx;
	double now = tsr_cli_now_seconds();
	if (now - o->shown < (o->shown == o->t0 ? 1.0 : 0.25))
		return;
	o->shown = now;
	char within[96];
	snprintf(within, sizeof(within), "frame %u: %s %u/%u %s", frame,
		 phase == TSR_PHASE_BINNING ? "binning" : "rendering", done, total,
		 phase == TSR_PHASE_BINNING ? "draws" : "tiles");
	progress(frame, o->frames, 0, now - o->t0, within);
}

/* The frame's heatmaps (--heatmaps): a PNG and a CSV per counter. */
static enum tsr_status write_heatmaps(struct run_outputs *o, const struct tsr_gpu *gpu,
				      uint32_t f, struct tsr_error *err)
{
	uint32_t tx, ty;
	tsr_gpu_tile_grid(gpu, &tx, &ty);
	for (int k = 0; k < o->heat_n; k++) {
		const uint64_t *v = tsr_gpu_heat(gpu, (enum tsr_heat_counter)o->heat[k]);
		if (!v)
			return tsr_error_set(err, TSR_ERR_INTERNAL, "frame %u has no per-tile "
					     "counters", f);
		TSR_TRY(tsr_heatmap_write(o->out, o->heat[k], f, v, tx, ty, o->cfg->tile_width,
					  o->cfg->tile_height, o->cfg->width, o->cfg->height, err));
	}
	return TSR_OK;
}

/* After each frame: its stats.json entry, its frames.csv row, its image, progress. */
static enum tsr_status write_frame(void *ctx, struct tsr_sim *sim,
				   const struct tsr_frame_stats *fs, struct tsr_error *err)
{
	struct run_outputs *o = ctx;
	const uint32_t f = fs->frame;
	for (uint32_t j = 0; j < o->reps; j++)
		if (o->rep_frames[j] == f && !o->rep_stats[j]) {
			if (!(o->rep_stats[j] = malloc(sizeof(*fs))))
				return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
			*o->rep_stats[j] = *fs;
		}
	TSR_TRY(tsr_stats_json_add_frame(o->json, fs, err));
	tsr_csv_row(o->csv.buf + o->csv.len, o->csv.cap - o->csv.len, fs, o->mem,
		    o->cfg->texture_footprint_stats);
	o->csv.len += strlen(o->csv.buf + o->csv.len);
	if (o->energy) {
		struct tsr_energy_result r;
		TSR_TRY(tsr_energy_compute(o->energy, fs, &r, err));
		int w = snprintf(o->csv.buf + o->csv.len, o->csv.cap - o->csv.len, ",%.3f",
				 r.total_nj);
		o->csv.len += w > 0 ? (size_t)w : 0;
	}
	o->csv.buf[o->csv.len++] = '\n';
	if (f < o->frames && o->dump[f]) {
		char name[64];
		snprintf(name, sizeof(name), "frame-%04u.png", f);
		/* encoded on a background thread while the next frame simulates */
		TSR_TRY(tsr_output_png_async(o->out, name, o->cfg->width, o->cfg->height,
				       tsr_gpu_frame_image(tsr_sim_gpu(sim)), err));
	}
	if (f < o->frames && o->dump[f])
		TSR_TRY(write_heatmaps(o, tsr_sim_gpu(sim), f, err));
	if (o->tty) {
		o->shown = tsr_cli_now_seconds();
		progress(f + 1, o->frames, tsr_sim_total(sim)->memory_accesses,
			 o->shown - o->t0, "");
	}
	return TSR_OK;
}

/* --sample was given (-1: not). */
static int sample_k_given(long k)
{
	return k >= 0;
}

int tsr_cmd_run(int argc, char **argv)
{
	const char *workload_arg = NULL, *config = NULL, *out_dir = "out", *dump = "last";
	int heat[TSR_HEATMAP_COUNTERS], heat_n = 0;
	const char *heat_list = NULL;  /* --heatmaps */
	long frames_arg = -1;
	const char *frames_spec = NULL;  /* --frames */
	long sample_k = -1;              /* --sample: 0 the BIC rule, -1 none */
	long warmup = 1;                 /* --warmup */
	int quiet = 0;
	/* --record-trace CACHE=FILE: cache names and files, split at '=' */
	char *rec_spec[MAX_RECORDINGS];
	const char *rec_file[MAX_RECORDINGS];
	struct tsr_trace_writer *rec_writer[MAX_RECORDINGS] = {0};
	int recordings = 0;
	const char *sets[TSR_CLI_MAX_SETS];
	size_t nsets = 0;
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"quiet", no_argument, NULL, 'q'},
		{"record-trace", required_argument, NULL, 'r'},
		{"set", required_argument, NULL, 's'},
		{"config", required_argument, NULL, 'c'},
		{"frames", required_argument, NULL, 'f'},
		{"out", required_argument, NULL, 'o'},
		{"dump-frames", required_argument, NULL, 'd'},
		{"timing", required_argument, NULL, 't'},
		{"heatmaps", required_argument, NULL, 'H'},
		{"sample", optional_argument, NULL, 'S'},
		{"warmup", required_argument, NULL, 'W'},
		{NULL, 0, NULL, 0},
	};
	int opt;
	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		char *eq, *end;
		switch (opt) {
		case 'h':
			usage_run(stdout);
			return 0;
		case 'q':
			quiet = 1;
			break;
		case 'r':
			eq = strchr(optarg, '=');
			if (!eq || eq == optarg || !eq[1])
				return tsr_cli_usage_error("option '--record-trace' needs CACHE=FILE "
							   "(e.g. l2=l2.trace)");
			if (recordings == MAX_RECORDINGS)
				return tsr_cli_usage_error("at most %d --record-trace options",
							   MAX_RECORDINGS);
			if (strcmp(eq + 1, "-") == 0)
				return tsr_cli_usage_error("--record-trace: a trace is binary, not for "
							   "standard output ('-'); name a file");
			*eq = '\0';
			rec_spec[recordings] = optarg;
			rec_file[recordings++] = eq + 1;
			break;
		case 's':
			if (tsr_cli_add_set(sets, &nsets, optarg))
				return EXIT_USAGE;
			break;
		case 't': {
			char shown[TSR_SHORT_BUF];
			if (strcmp(optarg, "on") && strcmp(optarg, "off"))
				return tsr_cli_usage_error("option '--timing' needs 'on' or 'off', "
							   "not '%s'",
							   tsr_short(optarg, shown, sizeof(shown)));
			if (tsr_cli_add_set(sets, &nsets, strcmp(optarg, "on")
							  ? "timing.enabled=false"
							  : "timing.enabled=true"))
				return EXIT_USAGE;
			break;
		}
		case 'c':
			config = optarg;
			break;
		case 'H': {
			struct tsr_error herr;
			if (tsr_heatmaps_parse(optarg, heat, &heat_n, &herr) != TSR_OK)
				return tsr_cli_usage_error("--heatmaps: %s", herr.msg);
			heat_list = optarg;
			break;
		}
		case 'o':
			out_dir = optarg;
			break;
		case 'd':
			dump = optarg;
			break;
		case 'f':
			frames_spec = optarg;
			break;
		case 'W':
			errno = 0;
			warmup = strtol(optarg, &end, 10);
			if (*end || errno || warmup < 0 || warmup > 1000)
				return tsr_cli_usage_error("invalid --warmup '%s' (a number of frames "
							   "from 0 to 1000)", optarg);
			break;
		case 'S': {
			/* --sample, --sample=K or --sample K */
			const char *v = optarg;
			if (!v && optind < argc && argv[optind][0] &&
			    strspn(argv[optind], "0123456789") == strlen(argv[optind]))
				v = argv[optind++];
			sample_k = 0;
			if (v) {
				errno = 0;
				sample_k = strtol(v, &end, 10);
				if (*end || errno || sample_k < 1 || sample_k > (long)TSR_LIMIT_FRAMES)
					return tsr_cli_usage_error("invalid --sample '%s' (a number of "
								   "clusters from 1 to %u)", v,
								   TSR_LIMIT_FRAMES);
			}
			break;
		}
		default:
			return tsr_cli_getopt_error("run", opt, argv);
		}
	}
	if (optind < argc)
		workload_arg = argv[optind++];
	if (optind < argc)
		return tsr_cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (!workload_arg) {
		fprintf(stderr, "tessera: 'run' needs a workload file\n");
		usage_run(stderr);
		return EXIT_USAGE;
	}

	/* --frames: a count, or the frames simulated fully (the others fast-forwarded) */
	const char *frames_list = NULL;
	unsigned char *frames_sel = NULL;
	uint32_t frames_count = 0;
	if (frames_spec && !sample_k_given(sample_k) &&
	    tsr_cli_frames_parse(frames_spec, &frames_count, &frames_list, &frames_sel))
		return EXIT_USAGE;
	if (frames_count)
		frames_arg = frames_count;
	/* --sample: the representatives, from one fast-forward pass (cmd_sample.c) */
	struct tsr_sample smp = {0};
	uint32_t *smp_frames = NULL;
	struct tsr_text smp_reps = {0}, smp_spec = {0};
	/* what the run owns, freed once at its end (done:) */
	struct tsr_sim *sim = NULL;
	unsigned char *want = NULL;
	struct tsr_frame_stats **rep_stats = NULL, *estimate = NULL;
	uint32_t *rep_frames = NULL;
	char *sample_json = NULL;
	struct tsr_energy *energy = NULL;
	struct run_outputs o = {0};
	int rc = 0;
	if (sample_k_given(sample_k)) {
		char tmp[4096];
		snprintf(tmp, sizeof(tmp), "%s.sample-%ld", out_dir, (long)getpid());
		double secs = 0;
		rc = tsr_cli_sample_choose(workload_arg, config, sets, nsets, frames_spec,
					   (uint32_t)sample_k, tmp, &smp, &smp_frames, &secs);
		if (!rc)
			rc = tsr_cli_sample_lists(&smp, smp_frames, &smp_reps, &smp_spec);
		if (rc)
			goto done;
		if (!quiet)
			fprintf(stderr, "tessera: sample: %u frames in %u clusters (features in "
				"%.1f s); simulating frames %s\n", smp.n, smp.k, secs, smp_reps.buf);
		/* the run: the representatives simulated, the rest fast-forwarded */
		uint32_t count;
		if (tsr_cli_frames_parse(smp_reps.buf, &count, &frames_list, &frames_sel)) {
			rc = EXIT_USAGE;
			goto done;
		}
		frames_arg = count;
		frames_list = smp_reps.buf;
	}

	/* an apitrace capture: replayed on the driver (run_capture.c) */
	const size_t wlen = strlen(workload_arg);
	if (wlen > 6 && !strcmp(workload_arg + wlen - 6, ".trace")) {
		if (recordings > 1) {
			rc = tsr_cli_usage_error("--record-trace: a capture ('%s') is replayed on "
						 "the driver, which records one cache "
						 "(TESSERA_RECORD_TRACE): give it once", workload_arg);
			goto done;
		}
		const struct tsr_cli_capture_extra x = {.simulate = frames_list,
							.warmup = (uint32_t)warmup,
							.sample = smp.k ? smp_spec.buf : NULL};
		rc = tsr_cli_run_capture_x(workload_arg, config, sets, nsets,
					   frames_arg > 0 ? (uint32_t)frames_arg : 0, out_dir, dump,
					   heat_list, recordings ? rec_spec[0] : NULL,
					   recordings ? rec_file[0] : NULL, quiet, &x);
		goto done;
	}
	/* a file, else a shipped one by name: "sprites-2d", "tcor-64k" */
	struct tsr_error err = {{0}};
	char workload[4096], config_path[4096];
	enum tsr_status s = tsr_data_resolve("workloads", workload_arg, workload,
					     sizeof(workload), &err);
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	if (s == TSR_OK)
		s = tsr_cli_load_config(config, sets, nsets, &cfg, config_path, sizeof(config_path),
					&err);
	if (s == TSR_OK)
		s = tsr_sim_open(&cfg, workload, &sim, &err);
	if (s == TSR_OK && frames_sel)
		s = tsr_sim_select(sim, frames_sel, (uint32_t)frames_arg, (uint32_t)warmup, &err);
	if (s != TSR_OK) {
		rc = tsr_cli_exit(s, &err);
		goto done;
	}
	struct tsr_gpu *gpu = tsr_sim_gpu(sim);
	const struct tsr_scene *scene = tsr_sim_scene(sim);
	uint32_t frames = frames_arg > 0 ? (uint32_t)frames_arg : scene->frames;
	want = calloc(frames, 1);
	if (!want) {
		rc = tsr_cli_exit(tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory"), &err);
		goto done;
	}
	rc = tsr_cli_dump_frames_parse(dump, frames, want);
	uint32_t simulated = frames;  /* a selection: only its frames are in the outputs */
	if (frames_sel) {
		simulated = 0;
		for (uint32_t f = 0; f < frames; f++) {
			want[f] &= frames_sel[f];
			simulated += frames_sel[f];
		}
	}
	rep_stats = smp.k ? calloc(smp.k, sizeof(*rep_stats)) : NULL;
	rep_frames = smp.k ? calloc(smp.k, sizeof(*rep_frames)) : NULL;
	if (!rc && smp.k && (!rep_stats || !rep_frames))
		rc = tsr_cli_exit(tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory"), &err);
	for (uint32_t j = 0; !rc && j < smp.k; j++)
		rep_frames[j] = smp_frames[smp.clusters[j].rep];
	if (!rc && tsr_heatmaps_check(&cfg, heat, heat_n, &err) != TSR_OK)
		rc = tsr_cli_usage_error("--heatmaps: %s", err.msg);
	if (!rc && heat_n) {
		s = tsr_gpu_enable_heat(gpu, &err);
		if (s != TSR_OK)
			rc = tsr_cli_exit(s, &err);
	}
	for (int r = 0; !rc && r < recordings; r++) {
		struct tsr_cache *c = tsr_gpu_cache_by_name(gpu, rec_spec[r]);
		if (!c) {
			fprintf(stderr, "tessera: --record-trace: no cache '%s' (caches: ", rec_spec[r]);
			const struct tsr_memsys *m = tsr_gpu_memsys(gpu);
			for (uint32_t k = 0; k < tsr_memsys_cache_count(m); k++)
				fprintf(stderr, "%s%s", k ? ", " : "",
					tsr_cache_name(tsr_memsys_cache(m, k)));
			fprintf(stderr, ")\n");
			rc = EXIT_USAGE;
		}
		/* a cache has one observer: a second recording would silently replace the first */
		if (!rc && tsr_sim_cache_observed(sim, c))
			rc = tsr_cli_usage_error("--record-trace: cache '%s' is observed for key "
						 "'stats.texture_footprint' (a cache has one observer); "
						 "record another cache or set the key to false",
						 rec_spec[r]);
		for (int q = 0; !rc && q < r; q++)
			if (tsr_gpu_cache_by_name(gpu, rec_spec[q]) == c) {
				char a[TSR_SHORT_BUF], b[TSR_SHORT_BUF];
				rc = tsr_cli_usage_error("--record-trace: cache '%s' is recorded twice "
							 "('%s' and '%s'); record each cache once",
							 rec_spec[r], tsr_short(rec_file[q], a, sizeof(a)),
							 tsr_short(rec_file[r], b, sizeof(b)));
			}
	}
	if (rc)
		goto done;
	/*
	 * Every output is declared before the run (two naming the same file, or
	 * one that is a folder, fail now) and goes through one transaction
	 * (report/report.h): files under a temporary beside their target,
	 * renamed on success; the traces too, written by their writers where
	 * the transaction says (a FIFO or a device: directly, as the run goes).
	 */
	struct tsr_output out;
	s = tsr_output_open(&out, out_dir, &err);
	if (s == TSR_OK)
		s = tsr_run_outputs_plan(&out, frames, want, heat, heat_n, &err);
	for (int r = 0; s == TSR_OK && r < recordings; r++)
		s = tsr_output_plan(&out, rec_file[r], 0, &err);
	/* a trace's FIFO whose reader leaves: a write error (EPIPE), not the end of tessera */
	if (s == TSR_OK && recordings)
		signal(SIGPIPE, SIG_IGN);
	for (int r = 0; s == TSR_OK && r < recordings; r++) {
		char desc[512];
		snprintf(desc, sizeof(desc), "cache=%s workload=%s config=%s frames=%u tessera=%s",
			 rec_spec[r], workload_arg, cfg.name, frames, TSR_VERSION);
		const char *where;
		s = tsr_output_file(&out, rec_file[r], &where, &err);
		if (s == TSR_OK)
			s = tsr_trace_writer_open_direct(where, desc, &rec_writer[r], &err);
		if (s == TSR_OK) {
			struct tsr_cache_observer ob = tsr_trace_observer(rec_writer[r]);
			tsr_cache_set_observer(tsr_gpu_cache_by_name(gpu, rec_spec[r]), &ob);
		}
	}
	const struct tsr_memsys *mem = tsr_gpu_memsys(gpu);
	o = (struct run_outputs){.out = &out, .mem = mem, .cfg = &cfg,
				 .dump = want, .heat = heat, .heat_n = heat_n, .frames = frames,
				 .rep_frames = rep_frames, .rep_stats = rep_stats, .reps = smp.k,
				 .tty = !quiet && isatty(STDERR_FILENO)};
	if (s == TSR_OK && cfg.timing.enabled)
		s = tsr_energy_create(&cfg, mem, &energy, &err);
	o.energy = energy;
	if (s == TSR_OK)
		s = tsr_stats_json_create(mem, cfg.mem.cores, cfg.timing.gpu_mhz, &o.json, &err);
	if (s == TSR_OK)
		tsr_stats_json_set_energy(o.json, energy);
	o.csv.cap = 8192 + (size_t)frames * 2048;
	o.csv.buf = malloc(o.csv.cap);
	if (s == TSR_OK && !o.csv.buf)
		s = tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory");
	if (s == TSR_OK) {
		tsr_csv_header(o.csv.buf, o.csv.cap, mem, cfg.texture_footprint_stats);
		o.csv.len = strlen(o.csv.buf);
		if (energy) {
			snprintf(o.csv.buf + o.csv.len, o.csv.cap - o.csv.len, ",energy_nj");
			o.csv.len += strlen(o.csv.buf + o.csv.len);
		}
		o.csv.buf[o.csv.len++] = '\n';
	}
	o.t0 = o.shown = tsr_cli_now_seconds();
	if (o.tty)
		tsr_gpu_set_progress(gpu, frame_progress, &o);
	if (s == TSR_OK)
		s = tsr_sim_run(sim, frames, write_frame, &o, &err);
	const struct tsr_frame_stats *total = tsr_sim_total(sim);
	/* --sample: the estimate, each representative's counters times its weight */
	if (s == TSR_OK && smp.k) {
		estimate = calloc(1, sizeof(*estimate));
		for (uint32_t j = 0; s == TSR_OK && j < smp.k; j++)
			if (!estimate || (!rep_stats[j] && !(rep_stats[j] = calloc(1, sizeof(**rep_stats)))))
				s = tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory");
		for (uint32_t j = 0; s == TSR_OK && j < smp.k; j++)
			for (uint32_t w = 0; w < smp.clusters[j].weight; w++)
				tsr_frame_stats_add(estimate, rep_stats[j]);
		if (s == TSR_OK)
			s = tsr_sample_json(&smp, smp_frames,
					    (const struct tsr_frame_stats *const *)rep_stats, mem,
					    &sample_json, &err);
		if (s == TSR_OK)
			total = estimate;
	}
	const int tty = o.tty;
	double seconds = tsr_cli_now_seconds() - o.t0;
	if (tty)
		fputc('\n', stderr);
	if (s == TSR_OK) {
		const struct tsr_stats_workload w = {
			.path = workload, .name = scene->name ? scene->name : "",
			.frames = simulated, .meshes = scene->mesh_count,
			.materials = scene->material_count, .images = scene->image_count,
			.selected = frames_list, .fast_forwarded = frames - simulated,
			.sample = sample_json,
		};
		char *text = NULL;
		s = tsr_stats_json_render(o.json, &cfg, &w, tsr_gpu_address_map(gpu), total, &text,
					  &err);
		if (s == TSR_OK)
			s = tsr_output_write(&out, "stats.json", text, strlen(text), &err);
		free(text);
	}
	if (s == TSR_OK)
		s = tsr_output_write(&out, "frames.csv", o.csv.buf, o.csv.len, &err);
	/* traces first: their errors (e.g. a full disk) must fail the run */
	for (int r = 0; r < recordings; r++) {
		if (!rec_writer[r])
			continue;
		struct tsr_error terr = {{0}};
		enum tsr_status ts = tsr_trace_writer_close(rec_writer[r], s == TSR_OK, &terr);
		if (s == TSR_OK && ts != TSR_OK) {
			s = ts;
			err = terr;
		}
		rec_writer[r] = NULL;  /* its file is renamed into place with the rest */
	}
	if (s == TSR_OK)
		s = tsr_output_commit(&out, &err);
	rc = tsr_cli_exit(s, &err);
	if (s != TSR_OK) {
		tsr_output_abort(&out);
	} else if (!quiet) {
		if (smp.k)
			printf("estimated totals of %u frames from %u simulated (--sample)\n", smp.n,
			       smp.k);
		else if (frames_sel)
			printf("%u frames simulated, %u fast-forwarded\n", simulated,
			       frames - simulated);
		print_summary(total, smp.k ? smp.n : simulated, seconds, mem, cfg.timing.gpu_mhz,
			      energy);
		char a[TSR_SHORT_BUF];
		const char *d = tsr_short(out_dir, a, sizeof(a));
		printf("\nwrote %s/stats.json, %s/frames.csv\n", d, d);
	}
done:
	free(want);
	tsr_stats_json_destroy(o.json);
	tsr_energy_destroy(energy);
	free(o.csv.buf);
	tsr_sim_close(sim);
	free(frames_sel);
	free(sample_json);
	free(estimate);
	for (uint32_t j = 0; rep_stats && j < smp.k; j++)
		free(rep_stats[j]);
	free(rep_stats);
	free(rep_frames);
	free(smp_frames);
	tsr_sample_release(&smp);
	tsr_text_release(&smp_reps);
	tsr_text_release(&smp_spec);
	return rc;
}

