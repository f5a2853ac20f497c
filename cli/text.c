/*
 * text.c - atomic CSV files for the commands that print tables
 * (analyze, experiment).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report.h"

/* Writes t to path atomically (path.tmp, then rename). */
int tsr_cli_write_csv(const char *path, const struct tsr_text *t)
{
	struct tsr_error err = {{0}};
	if (t->nomem) {
		fprintf(stderr, "tessera: out of memory for the CSV\n");
		return EXIT_RUNTIME;
	}
	char dir[4096];
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	if (!*name) {
		fprintf(stderr, "tessera: --csv '%s' is a folder, not a file\n", path);
		return EXIT_USAGE;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	struct tsr_output out;
	enum tsr_status s = tsr_output_open(&out, dir, &err);
	if (s == TSR_OK)
		s = tsr_output_write(&out, name, t->buf ? t->buf : "", t->len, &err);
	if (s == TSR_OK)
		s = tsr_output_commit(&out, &err);
	if (s != TSR_OK) {
		tsr_output_abort(&out);
		fprintf(stderr, "tessera: %s\n", err.msg);
		return EXIT_RUNTIME;
	}
	return 0;
}

