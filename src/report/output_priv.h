/*
 * output_priv.h - what output.c (the output transaction) and png.c (its
 * images) share inside report/; not for other folders.
 */
#ifndef TSR_REPORT_OUTPUT_PRIV_H
#define TSR_REPORT_OUTPUT_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "report/report.h"

/* Where an output's bytes go. */
enum tsr_output_kind {
	TSR_OUTPUT_TO_FILE,   /* a regular file (or none yet): temporary, then rename */
	TSR_OUTPUT_TO_STREAM, /* a FIFO or a character device: opened and written at commit */
	TSR_OUTPUT_TO_STDOUT, /* "-": standard output, written at commit */
};

/* One output of a transaction. */
struct tsr_output_file {
	char *path;     /* as named: <dir>/<name>, or the path given ("-") */
	char *target;   /* where the bytes land: path with its symbolic links followed
			 * (a file), path itself (a stream), "-" */
	char *tmp;      /* <target>.tmp (a file); NULL otherwise */
	char *same;     /* the key of "the same file" (canonical target, a FIFO's
			 * device and inode); NULL: a character device, never the same */
	enum tsr_output_kind kind;
	int written;    /* written, or handed to its writer (tsr_output_file()) */
	int external;   /* written by someone else, directly: nothing to deliver */
	uint8_t *data;  /* a stream's or standard output's bytes until commit */
	size_t size;
};

/*
 * The output <dir>/<name> of o (in_dir; else name as given), planned or
 * resolved now, marked written: *out stays valid until commit or abort.
 * Errors: those of tsr_output_plan(), TSR_ERR_CONFIG when it was written
 * before, TSR_ERR_NOMEM.
 */
enum tsr_status tsr_output_entry(struct tsr_output *o, const char *name, int in_dir,
				 struct tsr_output_file **out, struct tsr_error *err);

/* Waits for o's background image write and frees the writer (errors ignored: abort). */
void tsr_png_writer_release(struct tsr_output *o);

#endif
