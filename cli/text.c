/*
 * text.c - growing text buffers and atomic CSV files for the commands
 * that print tables (analyze, experiment).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report.h"

void tsr_cli_text_printf(struct tsr_cli_text *t, const char *fmt, ...)
{
	if (t->nomem)
		return;
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? t->cap - t->len : 0,
				  fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->nomem = 1;
			return;
		}
		if (t->buf && t->len + (size_t)n < t->cap) {
			t->len += (size_t)n;
			return;
		}
		size_t cap = t->cap ? t->cap * 2 : 4096;
		while (cap <= t->len + (size_t)n)
			cap *= 2;
		char *b = realloc(t->buf, cap);
		if (!b) {
			t->nomem = 1;
			return;
		}
		t->buf = b;
		t->cap = cap;
	}
}

/* Writes t to path atomically (path.tmp, then rename). */
int tsr_cli_write_csv(const char *path, const struct tsr_cli_text *t)
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

