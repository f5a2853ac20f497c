/*
 * cmd_config.c - `tessera config --list`: every configuration key (the
 * schema of src/config/config.c) with its value, valid values, unit and
 * meaning; the defaults, or the effective values of --config FILE and
 * --set options.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config/config.h"

static void usage_config(FILE *f)
{
	fprintf(f,
		"usage: tessera config --list [--config GPU.json] [--set KEY=VALUE]...\n"
		"                             [--markdown]\n"
		"\n"
		"Prints every configuration key with its value (the built-in defaults, TCOR\n"
		"Table I, or those of --config and --set), its valid values, unit and meaning.\n"
		"  --markdown  as a Markdown table (the table of docs/configuration.md)\n");
}

int tsr_cmd_config(int argc, char **argv)
{
	const char *config = NULL;
	const char *sets[TSR_CLI_MAX_SETS];
	size_t nsets = 0;
	int list = 0, markdown = 0;
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},       {"list", no_argument, NULL, 'l'},
		{"markdown", no_argument, NULL, 'm'},   {"set", required_argument, NULL, 's'},
		{"config", required_argument, NULL, 'c'}, {NULL, 0, NULL, 0},
	};
	int c;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage_config(stdout);
			return 0;
		case 'l':
			list = 1;
			break;
		case 'm':
			markdown = 1;
			break;
		case 's':
			if (tsr_cli_add_set(sets, &nsets, optarg))
				return EXIT_USAGE;
			break;
		case 'c':
			config = optarg;
			break;
		default:
			return tsr_cli_getopt_error("config", c, argv);
		}
	}
	if (optind < argc)
		return tsr_cli_usage_error("unexpected argument '%s' (see 'tessera config --help')",
					   argv[optind]);
	if (!list) {
		usage_config(stderr);
		return EXIT_USAGE;
	}
	struct tsr_gpu_config cfg;
	struct tsr_error err = {{0}};
	tsr_config_defaults(&cfg);
	enum tsr_status s = tsr_config_apply_sets(&cfg, config, sets, nsets, &err);
	if (markdown) {
		char *md = NULL;
		if (s == TSR_OK)
			s = tsr_config_markdown(&cfg, &md, &err);
		if (s != TSR_OK)
			return tsr_cli_exit(s, &err);
		fputs(md, stdout);
		free(md);
		return 0;
	}
	struct tsr_config_entry *e = NULL;
	size_t n = 0;
	if (s == TSR_OK)
		s = tsr_config_entries(&cfg, &e, &n, &err);
	if (s != TSR_OK)
		return tsr_cli_exit(s, &err);
	for (size_t i = 0; i < n; i++)
		printf("%-40s %-14s %s%s%s; %s%s%s\n", e[i].key, e[i].value, e[i].kind,
		       e[i].unit[0] ? ", " : "", e[i].unit, e[i].help,
		       e[i].ignored[0] ? "; " : "", e[i].ignored);
	free(e);
	return 0;
}
