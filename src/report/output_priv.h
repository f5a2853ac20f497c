/*
 * output_priv.h - what output.c (the output transaction) and png.c (its
 * images) share inside report/; not for other folders.
 */
#ifndef TSR_REPORT_OUTPUT_PRIV_H
#define TSR_REPORT_OUTPUT_PRIV_H

#include "report/report.h"

/*
 * Registers output <dir>/<name> of o; *tmp is the temporary to write it
 * under (free() it). Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_output_add_name(struct tsr_output *o, const char *name, char **tmp,
				    struct tsr_error *err);

/* Waits for o's background image write and frees the writer (errors ignored: abort). */
void tsr_png_writer_release(struct tsr_output *o);

#endif
