/*
 * cmd_experiment.c - `tessera experiment`: runs one of the library's
 * experiments (src/experiment/experiment.h), prints its report and writes
 * its main table as CSV (--csv) or every table, the report and a manifest
 * into a folder (--csv-dir, for scripts/figures.py). With --from DIR it
 * reads the experiment's points from a finished sweep instead of
 * simulating; with --sweep it first runs the sweep experiments/NAME.json
 * (cmd_sweep.c's runner) and then reads it.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/sweep_cli.h"
#include "core/datadir.h"
#include "experiment/experiment.h"

static void usage_experiment(FILE *f)
{
	fprintf(f,
		"usage: tessera experiment tcor|attribute-cache|re|workloads|boustrophedonic|timing|\n"
		"                          dtexl|gspc\n"
		"                          [--frames N] [-j N] [--csv FILE] [--csv-dir DIR]\n"
		"                          [--workload FILE]... [--set KEY=VALUE]...\n"
		"                          [--from DIR | --sweep [--out DIR]]\n"
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
		"  workloads        each workload on configs/tcor-table1.json, means per frame:\n"
		"                   primitives, binned primitives, tiles per binned primitive,\n"
		"                   attributes per primitive, Parameter Buffer and texture\n"
		"                   footprints, fragments per pixel, empty tiles, DRAM bytes and\n"
		"                   their shares per stream; then the papers' ranges (TCOR\n"
		"                   Table II, DTexL Table I, boustrophedonic Table I)\n"
		"  boustrophedonic  texture-only L2 misses (configs/boustrophedonic-texture-l2.json)\n"
		"                   of LRU with forward (FO) and every-other-frame reversed (RO)\n"
		"                   tile orders, OPT and OPTPT FO/RO and MRU FO by replaying the\n"
		"                   recorded L2 input; FDM on loop traces; on the shared L2\n"
		"                   (configs/boustrophedonic-table2.json) the L2 misses per\n"
		"                   stream and DRAM traffic of LRU FO, LRU RO and MRU FO\n"
		"                   (boustrophedonic V, Figs. 9-12, 15)\n"
		"  timing           the timing model on the default configuration (forced\n"
		"                   on): per workload frames per second, cycles per frame,\n"
		"                   geometry share of the cycles, mean memory and DRAM\n"
		"                   latency, DRAM row hits and bandwidth use, energy per frame\n"
		"                   and its shares per component; then the papers' figures\n"
		"  dtexl            DTexL Section V on configs/dtexl-table2.json, 21 runs per\n"
		"                   workload on two threads: L2 accesses and quad imbalance of\n"
		"                   the ten quad groupings, speedup and per-tile execution-time\n"
		"                   and quad imbalance of CG-square and CG-yrect with coupled\n"
		"                   barriers, the eight subtile assignments and the upper bound\n"
		"                   (configs/dtexl-upper-bound.json), DTexL (HLB-flp2) and\n"
		"                   FG-xshift2 with decoupled barriers: speedup and energy\n"
		"                   (DTexL V, Figs. 11-18)\n"
		"  gspc             GSPC Sections 2 and 5.1 on configs/gspc-8mb.json (IMR):\n"
		"                   each workload's LLC input recorded and replayed under\n"
		"                   DRRIP, NRU, SHiP-mem, GS-DRRIP, GSPZTC, GSPZTC+TSE, GSPC,\n"
		"                   GSPC+UCD, DRRIP+UCD, Belady (opt) and OPTPT at 8 MB and\n"
		"                   16 MB, on two threads: LLC misses against DRRIP, accesses\n"
		"                   per stream, texture/render-target/Z hit rates, render-\n"
		"                   target consumption, epochs under Belady, DRRIP's fills\n"
		"                   at RRPV 3, GSPZTC's t, four-bit LRU/DRRIP/GS-DRRIP; then\n"
		"                   timing runs: frame rates of NRU, GS-DRRIP and GSPC\n"
		"                   against DRRIP at 8 and 16 MB, with DDR3-1867 and with\n"
		"                   8 samplers (GSPC Figs. 1, 4-9, 11-17)\n"
		"  With --set timing.enabled=true, tcor, re and boustrophedonic also report\n"
		"  speedups and energy.\n"
		"\n"
		"  --frames N       frames per run (default 4; re: each workload's own;\n"
		"                   workloads: 3; boustrophedonic: 30; dtexl, gspc: 2)\n"
		"  --workload FILE  a workload file or a shipped name such as 'ui-2d'\n"
		"                   (repeatable; default: tcor: the ten of the README,\n"
		"                   attribute-cache: four; re: every single-pass\n"
		"                   shipped one; workloads, boustrophedonic, timing and\n"
		"                   dtexl: every shipped one;\n"
		"                   gspc: the three multi-pass ones, city-racing-3d,\n"
		"                   sniper-3d, glmark-scene)\n"
		"  --csv FILE       also write the table as CSV ('-': to standard output,\n"
		"                   the report then goes to standard error)\n"
		"  --csv-dir DIR    also write every table as DIR/<experiment>[-<table>].csv,\n"
		"                   the report as DIR/<experiment>.txt and DIR/<experiment>.json\n"
		"                   (experiment, command, commit: $TSR_COMMIT or\n"
		"                   'git rev-parse --short HEAD', version, tables and files);\n"
		"                   scripts/figures.py draws the papers' figures from it\n"
		"  --set KEY=VALUE  override a configuration key in every run (repeatable)\n"
		"  -j, --jobs N     independent runs at once (with --sweep: processes;\n"
		"                   default: every core); the results do not depend on it\n"
		"  --from DIR       simulate nothing: read every point from the finished\n"
		"                   sweep in DIR (`tessera sweep experiments/NAME.json`,\n"
		"                   locally or on Slurm, then --collect); the tables are\n"
		"                   byte-identical to the in-process run's. --frames,\n"
		"                   --workload and --set still choose the points looked up\n"
		"  --sweep          run the sweep experiments/NAME.json first (its points\n"
		"                   as processes, -j at once, complete ones skipped), then\n"
		"                   read it as --from; the spec decides the points, so no\n"
		"                   --frames, --workload or --set\n"
		"  --out DIR        with --sweep: the sweep's folder (default: the spec's,\n"
		"                   out/experiments/NAME-sweep)\n"
		"  every experiment has a sweep specification (experiments/NAME.json;\n"
		"  boustrophedonic's and gspc's points also record the cache traces they\n"
		"  replay).\n"
		"Shipped configs/ and workloads/ are found in $TSR_DATA_DIR, the installed\n"
		"share/tessera or the source tree, from any folder.\n");
}

/* Prints the report as the experiment produces it. */
static void print_text(void *ctx, const char *text, size_t len)
{
	(void)ctx;
	fwrite(text, 1, len, stdout);
	fflush(stdout);
}

/* The commit for --csv-dir's manifest: $TSR_COMMIT, or `git rev-parse --short
 * HEAD` in the current folder, or NULL; into buf. */
static const char *commit_id(char *buf, size_t n)
{
	const char *env = getenv("TSR_COMMIT");
	if (env && *env)
		return env;
	FILE *p = popen("git rev-parse --short HEAD 2>/dev/null", "r");
	if (!p)
		return NULL;
	size_t len = fread(buf, 1, n - 1, p);
	int rc = pclose(p);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		len--;
	buf[len] = '\0';
	return rc == 0 && len ? buf : NULL;
}

/* Most --workload options. */
#define MAX_WORKLOADS 15

int tsr_cmd_experiment(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"frames", required_argument, NULL, 'f'},
		{"csv", required_argument, NULL, 'c'},
		{"csv-dir", required_argument, NULL, 'd'},
		{"workload", required_argument, NULL, 'w'},
		{"set", required_argument, NULL, 's'},
		{"jobs", required_argument, NULL, 'j'},
		{"from", required_argument, NULL, 'F'},
		{"sweep", no_argument, NULL, 'S'},
		{"out", required_argument, NULL, 'o'},
		{NULL, 0, NULL, 0},
	};
	const char *csv_path = NULL, *csv_dir = NULL, *from = NULL, *sweep_out = NULL;
	int sweep = 0;
	uint64_t jobs = tsr_cli_online_cores();  /* default: every core */
	const char *workloads[MAX_WORKLOADS];
	size_t nw = 0;
	uint64_t frames = 0;  /* 0: the experiment's default */
	const char *sets[TSR_CLI_MAX_SETS];
	size_t nsets = 0;
	/* the command line as given (for --csv-dir's manifest), before
	 * getopt_long() reorders argv; truncated past 4 KiB */
	char cmd[4096] = "tessera";
	for (int i = 0, len = 7; i < argc && len < (int)sizeof(cmd); i++)
		len += snprintf(cmd + len, sizeof(cmd) - (size_t)len, " %s", argv[i]);
	int c;
	while ((c = getopt_long(argc, argv, ":hj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage_experiment(stdout);
			return 0;
		case 'j':
			if (!tsr_cli_parse_u64(optarg, 1, 16, &jobs))
				return tsr_cli_usage_error("invalid -j '%s' (1 to 16)", optarg);
			break;
		case 'f':
			if (!tsr_cli_parse_u64(optarg, 1, 10000, &frames))
				return tsr_cli_usage_error("invalid --frames '%s' (1 to 10000)", optarg);
			break;
		case 'c':
			csv_path = optarg;
			break;
		case 'd':
			csv_dir = optarg;
			break;
		case 'w':
			if (nw == MAX_WORKLOADS)
				return tsr_cli_usage_error("at most %d workloads", MAX_WORKLOADS);
			workloads[nw++] = optarg;
			break;
		case 's':
			if (tsr_cli_add_set(sets, &nsets, optarg))
				return EXIT_USAGE;
			break;
		case 'F':
			from = optarg;
			break;
		case 'S':
			sweep = 1;
			break;
		case 'o':
			sweep_out = optarg;
			break;
		default:
			return tsr_cli_getopt_error("experiment", c, argv);
		}
	}
	if (optind + 1 < argc)
		return tsr_cli_usage_error("unexpected argument '%s'", argv[optind + 1]);
	const struct tsr_experiment *x = optind < argc ? tsr_experiment_find(argv[optind]) : NULL;
	if (!x) {
		fprintf(stderr, "tessera: 'experiment' needs one of");
		for (size_t i = 0; i < tsr_experiment_count(); i++)
			fprintf(stderr, "%s '%s'", i ? "," : "",
				tsr_experiment_name(tsr_experiment_at(i)));
		fprintf(stderr, "\n");
		usage_experiment(stderr);
		return EXIT_USAGE;
	}
	if (from && sweep)
		return tsr_cli_usage_error("--from and --sweep exclude each other (--sweep reads "
					   "the sweep it ran; --out names its folder)");
	if (sweep_out && !sweep)
		return tsr_cli_usage_error("option '--out' goes with '--sweep'");
	if ((from || sweep) && !tsr_experiment_has_spec(x))
		return tsr_cli_usage_error("experiment '%s' has no sweep specification "
					   "(experiments/%s.json): run it without --from/--sweep",
					   tsr_experiment_name(x), tsr_experiment_name(x));
	if (sweep && (frames || nw || nsets))
		return tsr_cli_usage_error("--sweep runs experiments/%s.json, which decides the "
					   "frames, workloads and settings: no --frames, --workload "
					   "or --set (write your own spec and use `tessera sweep` "
					   "then --from)", tsr_experiment_name(x));
	/* --csv -: standard output carries the CSV alone, the report (and the
	 * sweep's progress) go to standard error */
	const int saved = tsr_cli_stdout_aside(csv_path);
	char sweep_dir[PATH_MAX];
	if (sweep) {
		char rel[128], spec[PATH_MAX];
		struct tsr_error e0 = {{0}};
		snprintf(rel, sizeof(rel), "experiments/%s.json", tsr_experiment_name(x));
		enum tsr_status s0 = tsr_data_path(rel, spec, sizeof(spec), &e0);
		if (s0 != TSR_OK) {
			tsr_cli_stdout_restore(saved);
			return tsr_cli_exit(s0, &e0);
		}
		int src = tsr_sweep_run_local(spec, sweep_out, (unsigned)jobs, 0, sweep_dir,
					      sizeof(sweep_dir));
		if (src) {
			tsr_cli_stdout_restore(saved);
			return src;
		}
		from = sweep_dir;
	}
	const struct tsr_xp_options opt = {
		.frames = (uint32_t)frames,
		.workloads = nw ? workloads : NULL,
		.workload_count = nw,
		.sets = sets,
		.set_count = nsets,
		.jobs = (uint32_t)(jobs < 16 ? jobs : 16),
		.on_text = print_text,
		.sweep_dir = from,
	};
	struct tsr_xp_result r;
	struct tsr_error err = {{0}};
	enum tsr_status s = tsr_experiment_run(x, &opt, &r, &err);
	tsr_cli_stdout_restore(saved);
	int rc = tsr_cli_exit(s, &err);
	if (s == TSR_OK && csv_path) {
		struct tsr_text csv = {0};
		tsr_table_csv(&r.tables[0], &csv);
		rc = tsr_cli_write_csv(csv_path, &csv);
		tsr_text_release(&csv);
	}
	if (s == TSR_OK && rc == 0 && csv_dir) {
		char commit[64];
		s = tsr_xp_result_write_dir(&r, tsr_experiment_name(x), csv_dir, cmd,
					    commit_id(commit, sizeof(commit)), &err);
		rc = tsr_cli_exit(s, &err);
	}
	tsr_xp_result_release(&r);
	return rc;
}
