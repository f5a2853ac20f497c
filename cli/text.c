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
	if (tsr_text_status(t, "the CSV", &err) != TSR_OK)
		return tsr_cli_exit(TSR_ERR_NOMEM, &err);
	char dir[4096];
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	if (!*name)
		return tsr_cli_usage_error("--csv '%s' is a folder, not a file", path);
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	struct tsr_output out;
	enum tsr_status s = tsr_output_open(&out, dir, &err);
	if (s == TSR_OK)
		s = tsr_output_plan(&out, name, 1, &err);
	if (s == TSR_OK)
		s = tsr_output_write(&out, name, t->buf ? t->buf : "", t->len, &err);
	if (s == TSR_OK)
		s = tsr_output_commit(&out, &err);
	if (s != TSR_OK)
		tsr_output_abort(&out);
	return tsr_cli_exit(s, &err);
}

