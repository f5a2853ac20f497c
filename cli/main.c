/*
 * main.c - the tessera command line: a thin layer over libtessera that
 * dispatches to one file per command (cmd_*.c), which parse arguments,
 * print tables and map statuses to exit codes (0 success, 1 runtime
 * error, 2 usage error).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"

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
		"  cachesim TRACE [options]      replay a trace through one cache geometry\n"
		"                                and several replacement policies\n"
		"  analyze KIND TRACE [options]  reuse, frame and epoch analyses of a trace\n"
		"  experiment KIND [options]     the papers' experiments over the workloads\n"
		"  config --list [options]       every configuration key, its value and meaning\n"
		"  counters [--markdown]         every counter of stats.json, its unit and meaning\n"
		"\n"
		"See 'tessera COMMAND --help'.\n");
}

double tsr_cli_now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
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
	if (!strcmp(argv[1], "run"))
		return tsr_cmd_run(argc - 2, argv + 2);
	if (!strcmp(argv[1], "cachesim"))
		return tsr_cmd_cachesim(argc - 2, argv + 2);
	if (!strcmp(argv[1], "analyze"))
		return tsr_cmd_analyze(argc - 2, argv + 2);
	if (!strcmp(argv[1], "experiment"))
		return tsr_cmd_experiment(argc - 2, argv + 2);
	if (!strcmp(argv[1], "config"))
		return tsr_cmd_config(argc - 2, argv + 2);
	if (!strcmp(argv[1], "counters"))
		return tsr_cmd_counters(argc - 2, argv + 2);
	fprintf(stderr, "tessera: unknown command '%s' (see 'tessera --help')\n", argv[1]);
	return EXIT_USAGE;
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
