/*
 * main.c - the tessera command line: a thin layer over libtessera that
 * dispatches to one file per command (cmd_*.c), which parse arguments
 * with getopt_long and print tables. Statuses become exit codes in one
 * place, tsr_cli_exit() below (0 success, 1 runtime error, 2 usage or
 * configuration error).
 */
#include <errno.h>
#include <getopt.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/datadir.h"
#include "config/config.h"

static void usage_main(FILE *f)
{
	fprintf(f,
		"usage: tessera [--version] [--help] <command> [<args>]\n"
		"\n"
		"tessera simulates a mobile tile-based-rendering GPU and its memory\n"
		"hierarchy frame by frame on real 3D scenes.\n"
		"\n"
		"commands:\n"
		"  run WORKLOAD.json [options]   render frames and write statistics\n"
		"  sample WORKLOAD [options]     representative frames of a long run (MEGsim\n"
		"                                clustering; run --sample simulates those)\n"
		"  cachesim TRACE [options]      replay a trace through one cache geometry\n"
		"                                and several replacement policies\n"
		"  analyze KIND TRACE [options]  reuse, frame and epoch analyses of a trace\n"
		"  trace convert IN OUT [opts]   a trace between tessera's and libCacheSim's\n"
		"                                formats\n"
		"  experiment KIND [options]     the papers' experiments over the workloads\n"
		"  sweep SPEC.json [options]     a grid of configurations over workloads, in\n"
		"                                parallel or on Slurm, resumable\n"
		"  config --list [options]       every configuration key, its value and meaning\n"
		"  counters [--markdown]         every counter of stats.json, its unit and meaning\n"
		"  capture --out X.trace -- PROGRAM [ARGS...]\n"
		"                                record a GL ES program with apitrace on\n"
		"                                llvmpipe, with its reference images\n"
		"  exec [options] -- PROGRAM [ARGS...]\n"
		"                                run a GL ES 2.0 program on tessera's driver\n"
		"  compare A B [--min-psnr DB]   PSNR and worst pixels of images (or folders of\n"
		"                                frames) against references\n"
		"\n"
		"See 'tessera COMMAND --help'.\n");
}

double tsr_cli_now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

unsigned tsr_cli_online_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

const char *tsr_cli_argv0 = "tessera";

/*
 * glibc's malloc gives freed memory back to the kernel: the heap's free
 * top beyond 128 KB, and each block it served with mmap (those above a
 * threshold that starts at 128 KB). An experiment or sweep runs one
 * simulation after another, and each faulted its large arrays (frame
 * buffers, the timing model's work logs, decoded textures) in again page
 * by page: about a third of its time. Blocks below 32 MB come from the
 * heap and up to 256 MB of freed heap is kept, so the next run reuses
 * them. Results do not depend on it.
 */
static void keep_freed_memory(void)
{
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

int main(int argc, char **argv)
{
	tsr_cli_argv0 = argv[0];
	keep_freed_memory();
	if (argc < 2) {
		usage_main(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage_main(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("tessera %s\n", TSR_VERSION);
		return 0;
	}
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} commands[] = {
		{"run", tsr_cmd_run},           {"cachesim", tsr_cmd_cachesim},
		{"analyze", tsr_cmd_analyze},   {"experiment", tsr_cmd_experiment},
		{"config", tsr_cmd_config},     {"counters", tsr_cmd_counters},
		{"sweep", tsr_cmd_sweep},       {"compare", tsr_cmd_compare},
		{"capture", tsr_cmd_capture},   {"exec", tsr_cmd_exec},
		{"trace", tsr_cmd_trace},       {"sample", tsr_cmd_sample},
	};
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			tsr_cli_getopt_reset();
			int rc = commands[i].fn(argc - 1, argv + 1);
			/* what was printed (tables, --json, config --list) must have
			 * reached standard output: a full disk is an error */
			errno = 0;
			if (fflush(stdout) != 0 || ferror(stdout)) {
				fprintf(stderr, "tessera: cannot write standard output%s%s\n",
					errno ? ": " : "", errno ? strerror(errno) : "");
				rc = rc ? rc : EXIT_RUNTIME;
			}
			return rc;
		}
	return tsr_cli_usage_error("unknown command '%s' (see 'tessera --help')", argv[1]);
}

int tsr_cli_exit(enum tsr_status s, const struct tsr_error *err)
{
	if (s == TSR_OK)
		return 0;
	fprintf(stderr, "tessera: %s\n", err && err->msg[0] ? err->msg : tsr_status_str(s));
	return s == TSR_ERR_CONFIG || s == TSR_ERR_GEOMETRY ? EXIT_USAGE : EXIT_RUNTIME;
}

int tsr_cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("tessera: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return EXIT_USAGE;
}

enum tsr_status tsr_cli_load_config(const char *config, const char *const *sets, size_t nsets,
				    struct tsr_gpu_config *cfg, char *config_path, size_t cap,
				    struct tsr_error *err)
{
	tsr_config_defaults(cfg);
	if (config)
		TSR_TRY(tsr_data_resolve("configs", config, config_path, cap, err));
	TSR_TRY(tsr_config_apply_sets(cfg, config ? config_path : NULL, sets, nsets, err));
	return tsr_cli_config_warnings(cfg, err);
}

enum tsr_status tsr_cli_config_warnings(const struct tsr_gpu_config *cfg,
				       struct tsr_error *err)
{
	struct tsr_config_warning *w = NULL;
	size_t n = 0;
	TSR_TRY(tsr_config_warnings(cfg, &w, &n, err));
	/* one line per reason: the keys whose message after the key is the
	 * same ("<key> is ignored in <mode>: <why>") are named together */
	for (size_t i = 0; i < n; i++) {
		const char *why = w[i].msg + strlen(w[i].key);
		if (!w[i].key[0])
			continue;  /* named already, with an earlier key */
		size_t more = 0;
		for (size_t j = i + 1; j < n; j++)
			more += w[j].key[0] && !strcmp(why, w[j].msg + strlen(w[j].key));
		if (!more) {
			fprintf(stderr, "tessera: warning: %s\n", w[i].msg);
			continue;
		}
		fprintf(stderr, "tessera: warning: %s", w[i].key);
		for (size_t j = i + 1; j < n; j++)
			if (w[j].key[0] && !strcmp(why, w[j].msg + strlen(w[j].key))) {
				fprintf(stderr, "%s%s", --more ? ", " : " and ", w[j].key);
				w[j].key[0] = '\0';
			}
		/* " is ignored ..." -> " are ignored ..." */
		fprintf(stderr, " are%s\n", why + (strncmp(why, " is", 3) ? 0 : 3));
	}
	free(w);
	return TSR_OK;
}

void tsr_cli_getopt_reset(void)
{
	optind = 1;
	opterr = 0;  /* the commands print their own messages */
}

int tsr_cli_getopt_error(const char *cmd, int c, char **argv)
{
	/* the argument getopt stopped at (a long option's, or a missing value's) */
	const char *arg = argv[optind - 1];
	const int is_long = !strncmp(arg, "--", 2);
	char opt[64];
	if (is_long)
		snprintf(opt, sizeof(opt), "%.*s", (int)strcspn(arg, "="), arg);
	else
		snprintf(opt, sizeof(opt), "-%c", optopt);
	if (c == ':')
		return tsr_cli_usage_error("option '%s' needs a value", opt);
	if (is_long && optopt)
		return tsr_cli_usage_error("option '%s' takes no value", opt);
	return tsr_cli_usage_error("unknown option '%s' (see 'tessera %s --help')", opt, cmd);
}

int tsr_cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	if (!s || !*s || *s == '-')
		return 0;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s)
		return 0;
	uint64_t mul = 1;
	if (*end == 'K' || *end == 'k')
		mul = 1024;
	else if (*end == 'M' || *end == 'm')
		mul = 1024 * 1024;
	else if (*end == 'G' || *end == 'g')
		mul = 1024ull * 1024 * 1024;
	if (mul != 1)
		end++;
	if (*end || (v && v > UINT64_MAX / mul))
		return 0;
	v *= mul;
	if (v < min || v > max)
		return 0;
	*out = v;
	return 1;
}

int tsr_cli_add_set(const char **sets, size_t *n, const char *value)
{
	if (!value || !strchr(value, '=') || value[0] == '=') {
		fprintf(stderr, "tessera: option '--set' needs KEY=VALUE (e.g. "
				"caches.l2.size_bytes=2M; see 'tessera config --list')\n");
		return EXIT_USAGE;
	}
	if (*n == TSR_CLI_MAX_SETS) {
		fprintf(stderr, "tessera: at most %d --set options\n", TSR_CLI_MAX_SETS);
		return EXIT_USAGE;
	}
	sets[(*n)++] = value;
	return 0;
}
