/*
 * text.c - the CSV files of the commands that print tables (analyze,
 * experiment), through an output transaction (report/report.h), and the
 * standard output those commands set aside while it carries the CSV.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/report.h"

int tsr_cli_write_csv(const char *path, const struct tsr_text *t)
{
	struct tsr_error err = {{0}};
	if (tsr_text_status(t, "the CSV", &err) != TSR_OK)
		return tsr_cli_exit(TSR_ERR_NOMEM, &err);
	struct tsr_output out;
	enum tsr_status s = tsr_output_open(&out, NULL, &err);
	if (s == TSR_OK)
		s = tsr_output_plan(&out, path, TSR_OUTPUT_STDOUT, &err);
	if (s == TSR_OK)
		s = tsr_output_write(&out, path, t->buf ? t->buf : "", t->len, &err);
	if (s == TSR_OK)
		s = tsr_output_commit(&out, &err);
	if (s != TSR_OK)
		tsr_output_abort(&out);
	return tsr_cli_exit(s, &err);
}

int tsr_cli_stdout_aside(const char *path)
{
	if (!path || strcmp(path, "-") != 0)
		return -1;
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);
	if (saved >= 0 && dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		close(saved);
		saved = -1;
	}
	return saved;
}

void tsr_cli_stdout_restore(int saved)
{
	if (saved < 0)
		return;
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
}
