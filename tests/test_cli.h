/*
 * test_cli.h - what the tests that run the tessera binary in a temporary
 * folder share (130 sweeps, 132 experiments over sweeps): the folder, a
 * file written into it, `tessera ARGS` run there with its stdout and
 * stderr kept (out.txt, err.txt), a file read back. Header only, included
 * once per test; TSR_BINARY comes from tests/CMakeLists.txt.
 */
#ifndef TSR_TEST_CLI_H
#define TSR_TEST_CLI_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* The test's temporary folder (tsr_cli_tmp_setup()). */
static char tmpdir[256];

/* Makes /tmp/<prefix>-XXXXXX the temporary folder; 0, or -1. */
static inline int tsr_cli_tmp_setup(const char *prefix)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/%s-XXXXXX", prefix);
	return mkdtemp(tmpdir) ? 0 : -1;
}

/* Removes the temporary folder and everything in it; 0, or -1. */
static inline int tsr_cli_tmp_teardown(void)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Whether tmpdir/name exists (a file, folder or anything else). */
static inline int tsr_cli_exists(const char *name)
{
	char p[512];
	struct stat sb;
	snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
	return stat(p, &sb) == 0;
}

/* Writes text to tmpdir/name (asserted). */
static inline void write_file(const char *name, const char *text)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Runs `tessera ARGS` in tmpdir; stdout into out.txt, stderr into err.txt; the exit code. */
static inline int tessera(const char *fmt, ...)
{
	char args[2048], cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' %s >out.txt 2>err.txt", tmpdir, TSR_BINARY,
		 args);
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The contents of tmpdir/name (a static buffer of 1 MiB; "" when absent). */
static inline const char *slurp(const char *name)
{
	static char buf[1 << 20];
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
	FILE *f = fopen(p, "rb");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	return buf;
}

#endif
