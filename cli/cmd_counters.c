/*
 * cmd_counters.c - `tessera counters [--markdown]`: every counter of
 * stats.json with its unit and meaning, from the single declaration of
 * each (src/stats/counters.h). --markdown prints the table of docs/statistics.md.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "framestats/stats.h"

int tsr_cmd_counters(int argc, char **argv)
{
	int markdown = 0;
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"markdown", no_argument, NULL, 'm'},
		{NULL, 0, NULL, 0},
	};
	int c;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: tessera counters [--markdown]\n\n"
			       "Every counter of stats.json: name, unit, meaning (--markdown: the\n"
			       "table of docs/statistics.md).\n");
			return 0;
		case 'm':
			markdown = 1;
			break;
		default:
			return tsr_cli_getopt_error("counters", c, argv);
		}
	}
	if (optind < argc)
		return tsr_cli_usage_error("unexpected argument '%s' (see 'tessera counters --help')",
					   argv[optind]);
	size_t n = tsr_stats_markdown(NULL, 0) + 1;
	char *buf = malloc(n);
	if (!buf) {
		struct tsr_error err;
		return tsr_cli_exit(tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory"), &err);
	}
	tsr_stats_markdown(buf, n);
	if (markdown) {
		fputs(buf, stdout);
	} else {
		/* the same rows as plain text: name, unit, meaning */
		for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
			char name[128] = "", unit[16] = "", help[512] = "";
			if (sscanf(line, "| %127[^|]| %15[^|]| %511[^\n]", name, unit, help) < 2 ||
			    !strncmp(name, "---", 3) || !strncmp(name, "counter", 7))
				continue;
			for (char *p = name; *p; p++)
				if (*p == '`' || *p == '*')
					memmove(p, p + 1, strlen(p)), p--;
			size_t hl = strlen(help);
			if (hl >= 2 && help[hl - 1] == '|')
				help[hl - 2] = '\0';
			printf("%-48s %-6s %s\n", name, unit, help);
		}
	}
	free(buf);
	return 0;
}
