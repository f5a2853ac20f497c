/*
 * table.h - a table of text cells: what an experiment produces, for the
 * CLI to print aligned and write as CSV, and for tests to read.
 */
#ifndef TSR_EXPERIMENT_TABLE_H
#define TSR_EXPERIMENT_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

#define TSR_TABLE_MAX_COLS 24
#define TSR_TABLE_CELL 48  /* bytes of one cell, NUL included */

struct tsr_table {
	char title[160];
	uint32_t cols, rows, cap;
	char header[TSR_TABLE_MAX_COLS][TSR_TABLE_CELL];
	char (*cells)[TSR_TABLE_CELL];  /* rows x cols */
};

/* Starts an empty table with a title and NULL-terminated column names. */
void tsr_table_init(struct tsr_table *t, const char *title, const char *const *header);

/* Appends a row of t->cols cells. Errors: TSR_ERR_NOMEM. */
enum tsr_status tsr_table_row(struct tsr_table *t, const char *const *cells,
			      struct tsr_error *err);

/* Cell (row, col); "" outside the table. */
const char *tsr_table_cell(const struct tsr_table *t, uint32_t row, uint32_t col);

/* The column called `name`, or -1. */
int tsr_table_col(const struct tsr_table *t, const char *name);

void tsr_table_release(struct tsr_table *t);

#endif
