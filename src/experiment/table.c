#include "experiment/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tsr_table_init(struct tsr_table *t, const char *title, const char *const *header)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->title, sizeof(t->title), "%s", title);
	while (header[t->cols] && t->cols < TSR_TABLE_MAX_COLS) {
		snprintf(t->header[t->cols], TSR_TABLE_CELL, "%s", header[t->cols]);
		t->cols++;
	}
}

enum tsr_status tsr_table_row(struct tsr_table *t, const char *const *cells,
			      struct tsr_error *err)
{
	if (t->rows == t->cap) {
		uint32_t n = t->cap ? t->cap * 2 : 16;
		void *p = realloc(t->cells, (size_t)n * t->cols * TSR_TABLE_CELL);
		if (!p)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a table");
		t->cells = p;
		t->cap = n;
	}
	for (uint32_t c = 0; c < t->cols; c++)
		snprintf(t->cells[(size_t)t->rows * t->cols + c], TSR_TABLE_CELL, "%s", cells[c]);
	t->rows++;
	return TSR_OK;
}

const char *tsr_table_cell(const struct tsr_table *t, uint32_t row, uint32_t col)
{
	return row < t->rows && col < t->cols ? t->cells[(size_t)row * t->cols + col] : "";
}

int tsr_table_col(const struct tsr_table *t, const char *name)
{
	for (uint32_t c = 0; c < t->cols; c++)
		if (strcmp(t->header[c], name) == 0)
			return (int)c;
	return -1;
}

void tsr_table_release(struct tsr_table *t)
{
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
