/*
 * fuzz_util.h - what the libFuzzer harnesses (fuzz/fuzz_NAME.c, built with
 * -DTSR_FUZZ=ON) share: a private temporary folder made once per process
 * and a helper that writes one input into a file there, for the readers
 * that only take a path (config, workload, mesh, trace).
 */
#ifndef TSR_FUZZ_UTIL_H
#define TSR_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scene/asset_cache.h"
#include "trace/trace.h"

/* libFuzzer calls it once before the inputs: the asset cache off, so that
 * every input is decoded or imported and none is kept. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	tsr_asset_cache_disable();
	return 0;
}

/* The process's temporary folder ("$TMPDIR/tsr-fuzz-XXXXXX"); removed at exit. */
static char fuzz_dir[256];
static char fuzz_file[300];

static inline void fuzz_cleanup(void)
{
	if (fuzz_file[0])
		unlink(fuzz_file);
	if (fuzz_dir[0])
		rmdir(fuzz_dir);
}

/*
 * Writes data into "<dir>/<name>" and returns that path (a static buffer),
 * or NULL when the folder or the file cannot be made. The same name is
 * reused on every call, so one file exists at a time.
 */
static inline const char *fuzz_write(const char *name, const uint8_t *data, size_t size)
{
	if (!fuzz_dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/tsr-fuzz-XXXXXX",
			 t && *t ? t : "/tmp");
		if (!mkdtemp(fuzz_dir)) {
			fuzz_dir[0] = '\0';
			return NULL;
		}
		atexit(fuzz_cleanup);
	}
	if (fuzz_file[0])
		unlink(fuzz_file);
	snprintf(fuzz_file, sizeof(fuzz_file), "%s/%s", fuzz_dir, name);
	FILE *f = fopen(fuzz_file, "wb");
	if (!f)
		return NULL;
	size_t w = size ? fwrite(data, 1, size, f) : 0;
	if (fclose(f) != 0 || w != size)
		return NULL;
	return fuzz_file;
}

/*
 * Reads the trace at `path` record by record (tsr_trace_reader_open,
 * tsr_trace_read) until its end or the first error: the text and binary
 * trace harnesses' common body.
 */
static inline void fuzz_read_trace(const char *path)
{
	struct tsr_trace_reader *r;
	struct tsr_error err;
	if (tsr_trace_reader_open(path, &r, &err) != TSR_OK)
		return;
	(void)tsr_trace_reader_description(r);
	for (;;) {
		struct tsr_trace_record rec;
		int eof = 0;
		if (tsr_trace_read(r, &rec, &eof, &err) != TSR_OK || eof)
			break;
	}
	tsr_trace_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
