/*
 * table.h - a table of text cells: what an experiment produces (one row
 * per workload and configuration, the paper's figures beside tessera's),
 * what `tessera experiment --csv` writes and what tests read back by
 * column name. Cells are text already formatted with the precision the
 * CSV keeps; a test parses them with strtod()/strtoull().
 *
 * Out of memory while filling is kept as a flag and reported once by
 * tsr_table_status() (llvmpipe's habit: check once, not per cell).
 */
#ifndef TSR_EXPERIMENT_TABLE_H
#define TSR_EXPERIMENT_TABLE_H

#include <stdint.h>

#include "core/status.h"
#include "core/text.h"

struct tsr_table {
	char name[32];       /* e.g. "tcor", "attribute-cache-reach" */
	uint32_t cols;       /* columns */
	uint32_t rows;       /* data rows (the header is not counted) */
	char **cells;        /* (rows + 1) x cols, row 0 the header; NULL: empty cell */
	uint32_t cap_rows;   /* rows allocated, header included */
	uint32_t next_col;   /* next cell of the last row */
	int nomem;           /* an allocation failed: the table is incomplete */
};

/*
 * Initialises t with the columns of `header` (comma-separated names:
 * "workload,config,dram_bytes"). Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_table_init(struct tsr_table *t, const char *name, const char *header,
			       struct tsr_error *err);

/* Starts a new data row; its cells are filled left to right by tsr_table_cellf(). */
void tsr_table_row(struct tsr_table *t);

/* Sets the next cell of the last row (printf-style); extra cells are dropped. */
void tsr_table_cellf(struct tsr_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* TSR_OK, or TSR_ERR_NOMEM naming the table if filling it ran out of memory. */
enum tsr_status tsr_table_status(const struct tsr_table *t, struct tsr_error *err);

/* Index of the column called `name`, or -1. */
int tsr_table_column(const struct tsr_table *t, const char *name);

/*
 * The cell of data row `row` (0-based) in column `col` ("" when empty);
 * NULL when there is no such row or column.
 */
const char *tsr_table_cell(const struct tsr_table *t, uint32_t row, const char *col);

/* The first data row whose cell in column `col` equals `value`, or -1. */
int tsr_table_find_row(const struct tsr_table *t, const char *col, const char *value);

/*
 * Appends t as CSV to out: the header line, then one line per row, cells
 * separated by commas (quoted only when they hold a comma, quote or line
 * break). Out of memory sets out->nomem.
 */
void tsr_table_csv(const struct tsr_table *t, struct tsr_text *out);

/* Frees the cells and zeroes t. */
void tsr_table_release(struct tsr_table *t);

#endif
