/*
 * cmd_experiment.c - `tessera experiment`: runs one of the library's
 * experiments (src/experiment/experiment.h), prints its report and writes
 * its main table as CSV (--csv) or every table, the report and a manifest
 * into a folder (--csv-dir, for scripts/figures.py). With --from DIR it
 * reads the experiment's points from a finished sweep instead of
 * simulating; with --sweep it first runs the sweep experiments/NAME.json
 * (cmd_sweep.c's runner) and then reads it. Its usage and `--list
 * [--markdown]` (the table of docs/experiments.md) are generated from the
 * experiment table (src/experiment/experiments.c: each experiment's name,
 * description, default workloads and frames, sweep specification), so
 * the experiments are described in one place. A --workload that is an
 * apitrace capture is replayed for each point by run_capture.c's
 * tsr_cli_xp_replay() (tsr_xp_options.replay); the corpus captures present
 * (cmd_corpus.c) join the default workloads unless --no-corpus.
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

/*
 * Writes `text` to f wrapped at column 79, continuing a line that is at
 * column `col`; every further line is indented by `indent` spaces. Words
 * are never split.
 */
static void print_wrapped(FILE *f, const char *text, int col, int indent)
{
	const int width = 79;
	const char *p = text;
	while (*p) {
		while (*p == ' ')
			p++;
		int len = (int)strcspn(p, " ");
		if (!len)
			break;
		if (col > indent && col + 1 + len > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		} else if (col < indent) {
			fprintf(f, "%*s", indent - col, "");
			col = indent;
		}
		fwrite(p, 1, (size_t)len, f);
		col += len;
		p += len;
	}
	fputc('\n', f);
}

/* "glmark-scene" for "workloads/glmark-scene.json" into buf. */
static const char *workload_short(const char *path, char *buf, size_t n)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t len = strlen(base);
	if (len > 5 && !strcmp(base + len - 5, ".json"))
		len -= 5;
	snprintf(buf, n, "%.*s", (int)len, base);
	return buf;
}

/*
 * An experiment's defaults as one line of text into buf: its workloads
 * ("every shipped workload" or their short names, each wrapped in `quote`)
 * and frames. Both from the experiment table (src/experiment/).
 */
static void defaults_text(const struct tsr_experiment *x, const char *quote, char *buf,
			  size_t n, char *frames, size_t fn)
{
	const char *const *w = tsr_experiment_default_workloads(x);
	size_t len = 0;
	buf[0] = '\0';
	if (!w) {
		snprintf(buf, n, "every shipped workload");
	} else {
		for (size_t i = 0; w[i] && len + 1 < n; i++) {
			char name[128];
			int k = snprintf(buf + len, n - len, "%s%s%s%s", i ? ", " : "", quote,
					 workload_short(w[i], name, sizeof(name)), quote);
			if (k < 0)
				break;
			len += (size_t)k;
		}
	}
	uint32_t f = tsr_experiment_default_frames(x);
	if (f)
		snprintf(frames, fn, "%u", f);
	else
		snprintf(frames, fn, "each workload's own");
}

/* The experiments of the table: name, description, defaults (usage and --list). */
static void print_experiments(FILE *f)
{
	for (size_t i = 0; i < tsr_experiment_count(); i++) {
		const struct tsr_experiment *x = tsr_experiment_at(i);
		char w[1024], frames[32], line[1200];
		fprintf(f, "  %-16s", tsr_experiment_name(x));
		print_wrapped(f, tsr_experiment_summary(x), 18, 19);
		defaults_text(x, "", w, sizeof(w), frames, sizeof(frames));
		snprintf(line, sizeof(line), "Default: %s; frames: %s.%s", w, frames,
			 tsr_experiment_has_spec(x) ? " Its sweep: experiments/" : "");
		if (tsr_experiment_has_spec(x)) {
			size_t len = strlen(line);
			snprintf(line + len, sizeof(line) - len, "%s.json.", tsr_experiment_name(x));
		}
		print_wrapped(f, line, 0, 19);
	}
}

/* `tessera experiment --list --markdown`: the table of docs/experiments.md. */
static void print_markdown(void)
{
	printf("| experiment | what it measures (paper) | default workloads | frames | sweep |\n"
	       "| --- | --- | --- | --- | --- |\n");
	for (size_t i = 0; i < tsr_experiment_count(); i++) {
		const struct tsr_experiment *x = tsr_experiment_at(i);
		char w[2048], frames[32];
		defaults_text(x, "`", w, sizeof(w), frames, sizeof(frames));
		printf("| `%s` | %s | %s | %s | ", tsr_experiment_name(x), tsr_experiment_summary(x),
		       w, frames);
		if (tsr_experiment_has_spec(x))
			printf("`experiments/%s.json` |\n", tsr_experiment_name(x));
		else
			printf("none |\n");
	}
}

static void usage_experiment(FILE *f)
{
	fprintf(f, "usage: tessera experiment");
	for (size_t i = 0; i < tsr_experiment_count(); i++)
		fprintf(f, "%s%s", i ? "|" : " ", tsr_experiment_name(tsr_experiment_at(i)));
	fprintf(f,
		"\n"
		"                          [--frames N|A-B|LIST] [--session] [-j N] [--csv FILE]\n"
		"                          [--csv-dir DIR]\n"
		"                          [--workload FILE]... [--no-corpus] [--set KEY=VALUE]...\n"
		"                          [--from DIR | --sweep [--out DIR]]\n"
		"       tessera experiment --list [--markdown]\n"
		"\n"
		"Experiments (src/experiment/, one file each):\n");
	print_experiments(f);
	fprintf(f,
		"\n"
		"  --frames N       frames per run (default: the experiment's, above)\n"
		"  --frames A-B     frames A to B of every workload (JSON or capture): those\n"
		"                   before A are fast-forwarded (rendered exactly, no\n"
		"                   memory or timing model; the caches start cold at A, as\n"
		"                   at frame 0), so that a game's menus stay out of the\n"
		"                   figures (docs/sample.md)\n"
		"  --frames LIST    frames and ranges of every workload, such as\n"
		"                   '100-103,200,300-301' (a comma makes a list): those\n"
		"                   simulated, the others fast-forwarded, as for A-B\n"
		"  --session        each corpus capture (captures/corpus.json) from the first\n"
		"                   frame of its session (its range's FIRST: past menus and\n"
		"                   loading), the other workloads from frame 0; --frames N\n"
		"                   frames each (default: the experiment's)\n"
		"  --workload FILE  a workload file or a shipped name such as 'ui-2d', or an\n"
		"                   apitrace capture (a name ending in .trace), replayed on\n"
		"                   tessera's driver as `tessera run X.trace` replays it\n"
		"                   (repeatable; default: the experiment's, above, then the\n"
		"                   corpus captures present in the corpus data folder,\n"
		"                   `tessera capture --corpus`)\n"
		"  --no-corpus      the default workloads without the corpus captures\n"
		"  --csv FILE       also write the main table as CSV ('-': to standard\n"
		"                   output, the report then goes to standard error)\n"
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
		"  --list           print the experiments above and exit (--markdown: the\n"
		"                   table of docs/experiments.md)\n"
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
		{"list", no_argument, NULL, 'l'},
		{"markdown", no_argument, NULL, 'm'},
		{"no-corpus", no_argument, NULL, 'N'},
		{"session", no_argument, NULL, 'E'},
		{NULL, 0, NULL, 0},
	};
	const char *csv_path = NULL, *csv_dir = NULL, *from = NULL, *sweep_out = NULL;
	int sweep = 0, list = 0, markdown = 0, no_corpus = 0, session = 0;
	uint64_t jobs = tsr_cli_online_cores();  /* default: every core */
	const char *workloads[MAX_WORKLOADS];
	size_t nw = 0;
	uint64_t frames = 0;  /* 0: the experiment's default */
	uint64_t first = 0;   /* --frames A-B: A */
	const char *frame_list = NULL;  /* --frames LIST */
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
		case 'f': {
			/* N, a range A-B (the frames before A fast-forwarded), or a
			 * list of frames and ranges (the experiment parses it) */
			char a[32], b[32];
			const char *dash = strchr(optarg, '-');
			uint64_t last = 0;
			frame_list = NULL;
			if (strchr(optarg, ',')) {
				frame_list = optarg;
				frames = first = 0;
				break;
			}
			if (!dash) {
				first = 0;
				if (!tsr_cli_parse_u64(optarg, 1, 10000, &frames))
					return tsr_cli_usage_error("invalid --frames '%s' (1 to 10000, "
								   "or a range A-B)", optarg);
				break;
			}
			snprintf(a, sizeof(a), "%.*s", (int)(dash - optarg), optarg);
			snprintf(b, sizeof(b), "%s", dash + 1);
			if (!tsr_cli_parse_u64(a, 0, 100000, &first) ||
			    !tsr_cli_parse_u64(b, 0, 100000, &last) || last < first ||
			    last - first >= 10000)
				return tsr_cli_usage_error("invalid --frames '%s' (a range A-B of at "
							   "most 10000 frames, A <= B)", optarg);
			frames = last - first + 1;
			break;
		}
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
		case 'l':
			list = 1;
			break;
		case 'm':
			markdown = 1;
			break;
		case 'N':
			no_corpus = 1;
			break;
		case 'E':
			session = 1;
			break;
		default:
			return tsr_cli_getopt_error("experiment", c, argv);
		}
	}
	if (markdown && !list)
		return tsr_cli_usage_error("option '--markdown' goes with '--list'");
	if (list) {
		if (optind < argc)
			return tsr_cli_usage_error("unexpected argument '%s' (--list takes none)",
						   argv[optind]);
		if (markdown)
			print_markdown();
		else
			print_experiments(stdout);
		return 0;
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
	if (session && frame_list)
		return tsr_cli_usage_error("--session and --frames LIST exclude each other "
					   "(--session starts each corpus capture at its own frame: "
					   "give a count, --frames N)");
	if (session && first)
		return tsr_cli_usage_error("--session and --frames A-B exclude each other "
					   "(--session starts each corpus capture at its own frame: "
					   "give a count, --frames N)");
	if (session && (from || sweep))
		return tsr_cli_usage_error("--session simulates corpus captures: no --from or "
					   "--sweep (a sweep's points are JSON workloads)");
	if (session && !frames)
		frames = tsr_experiment_default_frames(x);
	if (session && !frames)
		return tsr_cli_usage_error("experiment '%s' runs each workload's own frames: "
					   "with --session give a count (--frames N)",
					   tsr_experiment_name(x));
	if (sweep && (frames || frame_list || nw || nsets))
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
	/* the corpus captures present join the default workloads (not a sweep's:
	 * its points are JSON workloads) */
	char **corpus = NULL;
	size_t ncorpus = 0;
	if (!nw && !from && !no_corpus && tsr_cli_corpus_present(&corpus, &ncorpus)) {
		tsr_cli_stdout_restore(saved);
		fprintf(stderr, "tessera: out of memory\n");
		return EXIT_RUNTIME;
	}
	/* --session: each corpus capture's first frame */
	const char **spaths = NULL;
	uint32_t *sfirst = NULL;
	size_t ns = 0;
	const size_t nall = nw ? nw : ncorpus;
	if (session && nall && (!(spaths = calloc(nall, sizeof(*spaths))) ||
				!(sfirst = calloc(nall, sizeof(*sfirst))))) {
		free(spaths);
		tsr_cli_corpus_free(corpus, ncorpus);
		tsr_cli_stdout_restore(saved);
		fprintf(stderr, "tessera: out of memory\n");
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; session && i < nall; i++) {
		const char *p = nw ? workloads[i] : corpus[i];
		if (tsr_cli_corpus_session(p, &sfirst[ns]))
			spaths[ns++] = p;
	}
	const struct tsr_xp_options opt = {
		.frames = (uint32_t)frames,
		.session_paths = spaths,
		.session_first = sfirst,
		.session_count = ns,
		.first_frame = (uint32_t)first,
		.frame_list = frame_list,
		.workloads = nw ? workloads : NULL,
		.workload_count = nw,
		.sets = sets,
		.set_count = nsets,
		.jobs = (uint32_t)(jobs < 16 ? jobs : 16),
		.on_text = print_text,
		.sweep_dir = from,
		.extra_workloads = (const char *const *)corpus,
		.extra_workload_count = ncorpus,
		.replay = tsr_cli_xp_replay,
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
	tsr_cli_corpus_free(corpus, ncorpus);
	free(spaths);
	free(sfirst);
	return rc;
}
