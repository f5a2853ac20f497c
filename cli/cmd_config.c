/*
 * cmd_config.c - `tessera config --list`: every configuration key (the
 * schema of src/config/config.c) with its value, valid values, unit and
 * meaning; the defaults, or the effective values of --config FILE and
 * --set options.
 */
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
		"  --markdown  as a Markdown table (the README's configuration reference)\n");
}

int tsr_cmd_config(int argc, char **argv)
{
	const char *config = NULL;
	const char *sets[TSR_CLI_MAX_SETS];
	size_t nsets = 0;
	int list = 0, markdown = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage_config(stdout);
			return 0;
		} else if (!strcmp(a, "--list")) {
			list = 1;
		} else if (!strcmp(a, "--markdown")) {
			markdown = 1;
		} else if (!strcmp(a, "--set")) {
			if (tsr_cli_add_set(sets, &nsets, i + 1 < argc ? argv[++i] : NULL))
				return EXIT_USAGE;
		} else if (!strcmp(a, "--config") && i + 1 < argc) {
			config = argv[++i];
		} else {
			fprintf(stderr, "tessera: unknown option '%s' (see 'tessera config --help')\n", a);
			return EXIT_USAGE;
		}
	}
	if (!list) {
		usage_config(stderr);
		return EXIT_USAGE;
	}
	struct tsr_gpu_config cfg;
	struct tsr_error err = {{0}};
	tsr_config_defaults(&cfg);
	enum tsr_status s = tsr_config_apply_sets(&cfg, config, sets, nsets, &err);
	struct tsr_config_entry *e = NULL;
	size_t n = 0;
	if (s == TSR_OK)
		s = tsr_config_entries(&cfg, &e, &n, &err);
	if (s != TSR_OK) {
		fprintf(stderr, "tessera: %s\n", err.msg);
		return s == TSR_ERR_IO || s == TSR_ERR_NOMEM ? EXIT_RUNTIME : EXIT_USAGE;
	}
	if (markdown)
		printf("| key | value | valid values | unit | meaning |\n| --- | --- | --- | --- | --- |\n");
	for (size_t i = 0; i < n; i++) {
		if (markdown)
			printf("| `%s` | `%s` | %s | %s | %s |\n", e[i].key, e[i].value, e[i].kind,
			       e[i].unit, e[i].help);
		else
			printf("%-40s %-14s %s%s%s; %s\n", e[i].key, e[i].value, e[i].kind,
			       e[i].unit[0] ? ", " : "", e[i].unit, e[i].help);
	}
	free(e);
	return 0;
}
