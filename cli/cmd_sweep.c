/* realpath() is XSI: the X/Open level that includes POSIX.1-2008 */
#define _XOPEN_SOURCE 700

/*
 * cmd_sweep.c - `tessera sweep SPEC.json`: runs every point of a sweep
 * (src/sweep/sweep.h) as a child `tessera run` of this same binary, up to
 * -j at once, skipping complete points, recording failures, and
 * aggregates the results. With --task/--chunk it runs one Slurm array
 * task's share; --slurm writes (and submits) the job array
 * (cmd_sweep_slurm.c); --collect only aggregates.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "core/files.h"
#include "cli/sweep_cli.h"
#include "sweep/sweep.h"

static void usage_sweep(FILE *f)
{
	fprintf(f,
		"usage: tessera sweep SPEC.json [-j N] [--out DIR] [--quiet]\n"
		"       tessera sweep SPEC.json --collect [--out DIR]\n"
		"       tessera sweep SPEC.json --slurm [--dry-run] [--chunk K] [--partition P]\n"
		"                     [--time T] [--mem M] [--cpus-per-task C] [--out DIR]\n"
		"       tessera sweep SPEC.json --task I --chunk K [-j N] [--out DIR]\n"
		"\n"
		"Runs every point of a sweep specification (workloads x configs x a grid\n"
		"or list of --set overrides; docs/sweeps.md) as its own `tessera run`,\n"
		"into DIR/points/<hash>/, skipping the points already complete, and\n"
		"aggregates DIR/results.csv and DIR/results.jsonl.\n"
		"\n"
		"  -j, --jobs N        points run at once (default: the online cores)\n"
		"  --out DIR           output folder (default: the spec's \"out\", else\n"
		"                      out/sweep-NAME)\n"
		"  --quiet             no progress line and no summary\n"
		"  --collect           only aggregate the complete points; report the missing\n"
		"  --slurm             write DIR/sweep.sbatch, a Slurm job array of the sweep,\n"
		"                      and submit it with sbatch when it is on PATH\n"
		"  --dry-run           with --slurm: only write the script\n"
		"  --chunk K           points per array task (default 1)\n"
		"  --partition P, --time T, --mem M, --cpus-per-task C\n"
		"                      passed to #SBATCH (C also sets each task's -j; default 1)\n"
		"  --task I            run only points I*K .. (I+1)*K-1 (an array task's)\n"
		"\n"
		"Exit codes: 0 every point complete, 1 a point failed (or is missing with\n"
		"--collect) or a runtime error, 2 a usage or specification error.\n");
}

/* A running child: the point and its temporary folder. */
struct slot {
	pid_t pid;
	size_t point;
	double t0;
	char tmp[PATH_MAX + 64];
};

/* The state of one local run over points [lo, hi). */
struct runner {
	const struct tsr_sweep *sw;
	const char *out, *self;
	size_t lo, hi;
	unsigned jobs;
	int tty;
	struct slot *slots;
	size_t *todo, ntodo, next;     /* points to run, in spec order */
	size_t complete, ran, failed;  /* distinct points complete before the run, run now, failed */
	size_t dups;                   /* points that repeat an earlier one's configuration */
	size_t *failures;
	double t0;
	FILE *log;
};

/* The path of this binary (for the children and the Slurm script). */
static void self_path(const char *argv0, char *buf, size_t n)
{
	ssize_t len = readlink("/proc/self/exe", buf, n - 1);
	if (len > 0) {
		buf[len] = '\0';
		return;
	}
	if (!realpath(argv0, buf))
		snprintf(buf, n, "%s", argv0);
}

/* Reads up to n-1 bytes of a file (NUL-terminated); "" when it cannot. */
static void read_head(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "rb");
	size_t len = f ? fread(buf, 1, n - 1, f) : 0;
	buf[len] = '\0';
	if (f)
		fclose(f);
}

/* The child: `tessera run` of point p into tmp, stderr to tmp/stderr.txt. */
static void child_exec(const struct runner *r, const struct tsr_sweep_point *p,
		       const char *tmp)
{
	char errfile[PATH_MAX + 96], frames[16];
	static char rec[TSR_SWEEP_MAX_TRACES][PATH_MAX + 128];  /* the child's own copy */
	const char *argv[16 + 2 * TSR_CLI_MAX_SETS + 2 * TSR_SWEEP_MAX_TRACES];
	int a = 0;
	snprintf(errfile, sizeof(errfile), "%s/stderr.txt", tmp);
	int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	int nul = open("/dev/null", O_WRONLY);
	if (fd < 0 || nul < 0 || dup2(fd, STDERR_FILENO) < 0 || dup2(nul, STDOUT_FILENO) < 0)
		_exit(126);
	argv[a++] = "tessera";
	argv[a++] = "run";
	argv[a++] = p->workload_path;
	if (p->config_path) {
		argv[a++] = "--config";
		argv[a++] = p->config_path;
	}
	for (size_t i = 0; i < p->nsets && i < TSR_CLI_MAX_SETS; i++) {
		argv[a++] = "--set";
		argv[a++] = p->sets[i];
	}
	if (p->frames) {
		snprintf(frames, sizeof(frames), "%u", p->frames);
		argv[a++] = "--frames";
		argv[a++] = frames;
	}
	argv[a++] = "--out";
	argv[a++] = tmp;
	argv[a++] = "--quiet";
	argv[a++] = "--dump-frames";
	argv[a++] = tsr_sweep_dump_frames(r->sw);
	for (size_t i = 0; i < p->ntraces; i++) {  /* CACHE=TMP/FILE */
		char name[64];
		tsr_sweep_trace_name(p->traces[i], name, sizeof(name));
		const int n = snprintf(rec[i], sizeof(rec[i]), "%s=%s/%s", p->traces[i], tmp,
				       name);
		if (n < 0 || (size_t)n >= sizeof(rec[i])) {  /* a cut path would be wrong */
			fprintf(stderr, "tessera sweep: the trace path of point %s is too long\n",
				p->hex);
			_exit(127);
		}
		argv[a++] = "--record-trace";
		argv[a++] = rec[i];
	}
	argv[a] = NULL;
	execv(r->self, (char *const *)argv);
	fprintf(stderr, "tessera sweep: cannot run '%s': %s\n", r->self, strerror(errno));
	_exit(127);
}

/* Starts the next point to run in slot s; 0, or -1 when it could not. */
static int spawn(struct runner *r, struct slot *s)
{
	const struct tsr_sweep_point *p = tsr_sweep_point(r->sw, r->todo[r->next++]);
	struct tsr_error err;
	snprintf(s->tmp, sizeof(s->tmp), "%s/points/%s.tmp-%ld", r->out, p->hex, (long)getpid());
	if (tsr_sweep_mkdirs(s->tmp, &err) != TSR_OK) {
		fprintf(stderr, "\ntessera: %s\n", err.msg);
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "\ntessera: cannot start a point: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0)
		child_exec(r, p, s->tmp);
	s->pid = pid;
	s->point = p->index;
	s->t0 = tsr_cli_now_seconds();
	return 0;
}

/* A child of slot s ended with wait status st: finish or record the point. */
static void reap(struct runner *r, struct slot *s, int st)
{
	const struct tsr_sweep_point *p = tsr_sweep_point(r->sw, s->point);
	const double secs = tsr_cli_now_seconds() - s->t0;
	char errfile[PATH_MAX + 96], text[4096];
	snprintf(errfile, sizeof(errfile), "%s/stderr.txt", s->tmp);
	read_head(errfile, text, sizeof(text));
	struct tsr_error err = {{0}};
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? -WTERMSIG(st) : -1;
	if (code == 0) {
		if (!text[0])
			unlink(errfile);
		if (tsr_sweep_point_finish(r->out, p, s->tmp, secs, &err) == TSR_OK) {
			tsr_sweep_point_clear_failure(r->out, p);
			r->ran++;
			fprintf(r->log, "ran %s %.3fs\n", p->hex, secs);
			s->pid = 0;
			return;
		}
		snprintf(text, sizeof(text), "%s", err.msg);
		code = -1000;  /* the run succeeded, its folder could not be finished */
	}
	if (tsr_sweep_point_fail(r->out, p, code, text, &err) != TSR_OK)
		fprintf(stderr, "\ntessera: %s\n", err.msg);
	tsr_remove_tree(s->tmp);
	r->failures[r->failed++] = p->index;
	fprintf(r->log, "failed %s exit=%d\n", p->hex, code);
	s->pid = 0;
}

/* The progress line (terminal only). */
static void progress(const struct runner *r, unsigned running)
{
	const size_t total = r->hi - r->lo - r->dups, done = r->complete + r->ran;
	const size_t finished = r->ran + r->failed, left = r->ntodo - finished;
	const double el = tsr_cli_now_seconds() - r->t0;
	char eta[32] = "?";
	if (finished)
		snprintf(eta, sizeof(eta), "%.0fs", el / (double)finished * (double)left);
	fprintf(stderr, "\r\033[Ksweep %s: points %zu/%zu, failed %zu, running %u, ~%s left",
		tsr_sweep_name(r->sw), done, total, r->failed, running, eta);
	fflush(stderr);
}

/* Runs r->todo with up to r->jobs children; 0, or -1 when a child could not start. */
static int run_all(struct runner *r)
{
	unsigned running = 0;
	int broken = 0;
	double shown = 0;
	while (running || (!broken && r->next < r->ntodo)) {
		for (unsigned k = 0; !broken && k < r->jobs && r->next < r->ntodo; k++)
			if (!r->slots[k].pid) {
				broken = spawn(r, &r->slots[k]) != 0;
				running += !broken;
			}
		int st;
		pid_t pid = waitpid(-1, &st, r->tty ? WNOHANG : 0);
		if (pid < 0 && errno != EINTR)
			break;
		for (unsigned k = 0; pid > 0 && k < r->jobs; k++)
			if (r->slots[k].pid == pid) {
				reap(r, &r->slots[k], st);
				running--;
			}
		if (r->tty && tsr_cli_now_seconds() - shown > 0.2) {
			shown = tsr_cli_now_seconds();
			progress(r, running);
		}
		if (r->tty && pid == 0)
			nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
	}
	if (r->tty) {
		progress(r, 0);
		fputc('\n', stderr);
	}
	return broken ? -1 : 0;
}

/*
 * The points of [lo, hi) to run: not complete, and not a repeat of one run
 * here; the leftovers of interrupted runs of every point are removed.
 * Returns how many, or (size_t)-1 when a leftover cannot be removed.
 */
static size_t plan(struct runner *r)
{
	size_t n = 0;
	for (size_t i = r->lo; i < r->hi; i++) {
		const struct tsr_sweep_point *p = tsr_sweep_point(r->sw, i);
		struct tsr_error err;
		if (tsr_sweep_point_clean(r->out, p, &err) != TSR_OK) {
			fprintf(stderr, "tessera: %s\n", err.msg);
			return (size_t)-1;
		}
		if (p->first != i && p->first >= r->lo)
			r->dups++;  /* the same run as an earlier point here */
		else if (tsr_sweep_point_complete(r->out, p))
			r->complete++;
		else
			r->todo[n++] = i;
	}
	return n;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* The first line of a failed point's standard error from its failed.json, or "". */
static void first_error(const char *failed_json, char *buf, size_t n)
{
	json_t *o = json_load_file(failed_json, 0, NULL);
	const char *line = json_string_value(json_array_get(json_object_get(o, "stderr"), 0));
	if (line && !strncmp(line, "tessera: ", 9))
		line += 9;
	snprintf(buf, n, "%s", line ? line : "");
	json_decref(o);
}

/* Prints the failed points in spec order: each with its first line of error. */
static void print_failures(const struct runner *r)
{
	qsort(r->failures, r->failed, sizeof(*r->failures), cmp_size);
	for (size_t i = 0; i < r->failed; i++) {
		const struct tsr_sweep_point *p = tsr_sweep_point(r->sw, r->failures[i]);
		char path[PATH_MAX + 64];
		snprintf(path, sizeof(path), "%s/failed/%s/failed.json", r->out, p->hex);
		fprintf(stderr, "tessera: point %s failed (workload %s, config %s", p->hex,
			p->workload, p->config);
		for (size_t k = 0; k < p->nsets; k++)
			fprintf(stderr, "%s%s", k ? " " : ", ", p->sets[k]);
		char line[512];
		first_error(path, line, sizeof(line));
		fprintf(stderr, "): %s\n  (see %s)\n", line[0] ? line : "no message", path);
	}
}

/* Frees the runner's arrays and closes its log. */
static void runner_release(struct runner *r)
{
	if (r->log)
		fclose(r->log);
	free(r->slots);
	free(r->todo);
	free(r->failures);
}

/* Runs points [lo, hi) of sw into out; the exit code. */
static int run_points(const struct tsr_sweep *sw, const char *out, const char *self,
		      size_t lo, size_t hi, unsigned jobs, int quiet)
{
	struct runner r = {.sw = sw, .out = out, .self = self, .lo = lo, .hi = hi,
			   .jobs = jobs, .tty = !quiet && isatty(STDERR_FILENO)};
	char logpath[PATH_MAX + 16];
	snprintf(logpath, sizeof(logpath), "%s/sweep.log", out);
	r.log = fopen(logpath, "a");
	r.slots = calloc(jobs, sizeof(*r.slots));
	r.todo = calloc(hi - lo + 1, sizeof(*r.todo));
	r.failures = calloc(hi - lo + 1, sizeof(*r.failures));
	if (!r.log || !r.slots || !r.todo || !r.failures) {
		fprintf(stderr, "tessera: cannot open '%s' or out of memory\n", logpath);
		runner_release(&r);
		return EXIT_RUNTIME;
	}
	setvbuf(r.log, NULL, _IOLBF, 0);
	r.ntodo = plan(&r);
	if (r.ntodo == (size_t)-1) {
		runner_release(&r);
		return EXIT_RUNTIME;
	}
	r.t0 = tsr_cli_now_seconds();
	fprintf(r.log, "start pid=%ld points=%zu-%zu complete=%zu to_run=%zu jobs=%u\n",
		(long)getpid(), lo, hi, r.complete, r.ntodo, jobs);
	int broken = run_all(&r);
	fprintf(r.log, "end ran=%zu failed=%zu seconds=%.3f\n", r.ran, r.failed,
		tsr_cli_now_seconds() - r.t0);
	fclose(r.log);
	r.log = NULL;
	print_failures(&r);
	char distinct[48] = "";
	if (r.dups)
		snprintf(distinct, sizeof(distinct), " (%zu distinct)", hi - lo - r.dups);
	if (!quiet)
		fprintf(stderr, "sweep %s: %zu points%s: %zu already complete, %zu ran, %zu failed "
			"(%.1fs)\n", tsr_sweep_name(sw), hi - lo, distinct, r.complete, r.ran,
			r.failed, tsr_cli_now_seconds() - r.t0);
	int rc = broken || r.failed ? EXIT_RUNTIME : 0;
	runner_release(&r);
	return rc;
}

/* Aggregates [lo, hi) into out; prints the result; the exit code. */
static int aggregate(const struct tsr_sweep *sw, const char *out, int quiet, int collect)
{
	struct tsr_error err = {{0}};
	size_t missing = 0, n = tsr_sweep_point_count(sw);
	enum tsr_status s = tsr_sweep_aggregate(sw, out, 0, n, &missing, &err);
	if (s != TSR_OK)
		return tsr_cli_exit(s, &err);
	if (collect && missing) {
		for (size_t i = 0; i < n; i++)
			if (!tsr_sweep_point_complete(out, tsr_sweep_point(sw, i)))
				fprintf(stderr, "tessera: point %zu (%s) is missing\n", i,
					tsr_sweep_point(sw, i)->hex);
	}
	if (!quiet || (collect && missing))
		fprintf(stderr, "wrote %s/results.csv and results.jsonl (%zu of %zu points%s)\n",
			out, n - missing, n, missing ? ", the others are missing" : "");
	return collect && missing ? EXIT_RUNTIME : 0;
}

/* Parses a positive integer option; 0 on success. */
static int parse_count(const char *opt, const char *v, uint64_t max, uint64_t *out)
{
	if (tsr_cli_parse_u64(v, 1, max, out))
		return 0;
	return tsr_cli_usage_error("invalid %s '%s' (a number from 1 to %llu)", opt, v,
				   (unsigned long long)max);
}

/* Creates out/points, then makes out absolute into abs (n bytes); the exit code. */
static int prepare_out(const char *out, char *abs, size_t n)
{
	char points[PATH_MAX + 16];
	struct tsr_error err = {{0}};
	snprintf(points, sizeof(points), "%s/points", out);
	enum tsr_status s = tsr_sweep_mkdirs(points, &err);
	if (s != TSR_OK)
		return tsr_cli_exit(s, &err);
	char real[PATH_MAX];
	if (!realpath(out, real))
		return tsr_cli_usage_error("cannot resolve '%s': %s", out, strerror(errno));
	snprintf(abs, n, "%s", real);
	return 0;
}

int tsr_sweep_run_local(const char *spec, const char *out_arg, unsigned jobs, int quiet,
			char *out_abs, size_t n)
{
	struct tsr_error err = {{0}};
	struct tsr_sweep *sw = NULL;
	enum tsr_status s = tsr_sweep_load(spec, &sw, &err);
	if (s != TSR_OK) {
		int rc = tsr_cli_exit(s, &err);
		return s == TSR_ERR_NOMEM ? rc : EXIT_USAGE;
	}
	char self[PATH_MAX];
	int rc = prepare_out(out_arg ? out_arg : tsr_sweep_out(sw), out_abs, n);
	self_path(tsr_cli_argv0, self, sizeof(self));
	if (!rc) {
		rc = run_points(sw, out_abs, self, 0, tsr_sweep_point_count(sw), jobs, quiet);
		int arc = aggregate(sw, out_abs, quiet, 0);
		rc = rc ? rc : arc;
	}
	tsr_sweep_destroy(sw);
	return rc;
}

int tsr_cmd_sweep(int argc, char **argv)
{
	struct tsr_sweep_opts o = {.chunk = 1, .cpus = 1};
	uint64_t v = 0, task = 0;
	int quiet = 0, collect = 0, have_task = 0, have_chunk = 0;
	const char *out_arg = NULL;
	unsigned jobs = tsr_cli_online_cores();
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},     {"jobs", required_argument, NULL, 'j'},
		{"out", required_argument, NULL, 'o'}, {"quiet", no_argument, NULL, 'q'},
		{"collect", no_argument, NULL, 'C'},  {"slurm", no_argument, NULL, 'S'},
		{"dry-run", no_argument, NULL, 'n'},  {"chunk", required_argument, NULL, 'k'},
		{"partition", required_argument, NULL, 'P'},
		{"time", required_argument, NULL, 'T'},
		{"mem", required_argument, NULL, 'M'},
		{"cpus-per-task", required_argument, NULL, 'c'},
		{"task", required_argument, NULL, 't'},
		{NULL, 0, NULL, 0},
	};
	int opt;
	while ((opt = getopt_long(argc, argv, ":hj:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			usage_sweep(stdout);
			return 0;
		case 'j':
			if (parse_count("--jobs", optarg, 4096, &v))
				return EXIT_USAGE;
			jobs = (unsigned)v;
			break;
		case 'o': out_arg = optarg; break;
		case 'q': quiet = 1; break;
		case 'C': collect = 1; break;
		case 'S': o.slurm = 1; break;
		case 'n': o.dry_run = 1; break;
		case 'P': o.partition = optarg; break;
		case 'T': o.time = optarg; break;
		case 'M': o.mem = optarg; break;
		case 'k':
			if (parse_count("--chunk", optarg, 1000000, &v))
				return EXIT_USAGE;
			o.chunk = (size_t)v;
			have_chunk = 1;
			break;
		case 'c':
			if (parse_count("--cpus-per-task", optarg, 4096, &v))
				return EXIT_USAGE;
			o.cpus = (unsigned)v;
			break;
		case 't':
			if (!tsr_cli_parse_u64(optarg, 0, 1000000, &task))
				return tsr_cli_usage_error("invalid --task '%s' (an array index from 0)",
							   optarg);
			have_task = 1;
			break;
		default:
			return tsr_cli_getopt_error("sweep", opt, argv);
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "tessera: 'sweep' needs a sweep specification (SPEC.json)\n");
		usage_sweep(stderr);
		return EXIT_USAGE;
	}
	const char *spec = argv[optind++];
	if (optind < argc)
		return tsr_cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (have_task && !have_chunk)
		return tsr_cli_usage_error("option '--task' needs '--chunk'");
	if (o.slurm + collect + have_task > 1)
		return tsr_cli_usage_error("--slurm, --collect and --task exclude each other");
	if (o.dry_run && !o.slurm)
		return tsr_cli_usage_error("option '--dry-run' goes with '--slurm'");

	struct tsr_error err = {{0}};
	struct tsr_sweep *sw = NULL;
	enum tsr_status s = tsr_sweep_load(spec, &sw, &err);
	if (s != TSR_OK) {  /* a spec that cannot be read is the user's input to fix */
		int rc = tsr_cli_exit(s, &err);
		return s == TSR_ERR_NOMEM ? rc : EXIT_USAGE;
	}
	char out[PATH_MAX], self[PATH_MAX];
	int rc = prepare_out(out_arg ? out_arg : tsr_sweep_out(sw), out, sizeof(out));
	self_path(tsr_cli_argv0, self, sizeof(self));
	const size_t n = tsr_sweep_point_count(sw);
	if (!rc && o.slurm) {
		o.spec = spec;
		o.out = out;
		o.self = self;
		rc = tsr_sweep_slurm(sw, &o);
	} else if (!rc && collect) {
		rc = aggregate(sw, out, quiet, 1);
	} else if (!rc) {
		size_t lo = have_task ? (size_t)task * o.chunk : 0;
		size_t hi = have_task ? lo + o.chunk : n;
		lo = lo < n ? lo : n;
		hi = hi < n ? hi : n;
		rc = run_points(sw, out, self, lo, hi, jobs, quiet);
		if (!have_task) {
			int arc = aggregate(sw, out, quiet, 0);
			rc = rc ? rc : arc;
		}
	}
	tsr_sweep_destroy(sw);
	return rc;
}
