#include "experiment/table.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Makes room for row `rows` (header included); sets nomem on failure. */
static int grow(struct tsr_table *t, uint32_t rows)
{
	if (rows <= t->cap_rows)
		return 1;
	uint32_t cap = t->cap_rows ? t->cap_rows * 2 : 16;
	while (cap < rows)
		cap *= 2;
	char **c = realloc(t->cells, (size_t)cap * t->cols * sizeof(*c));
	if (!c) {
		t->nomem = 1;
		return 0;
	}
	memset(c + (size_t)t->cap_rows * t->cols, 0,
	       (size_t)(cap - t->cap_rows) * t->cols * sizeof(*c));
	t->cells = c;
	t->cap_rows = cap;
	return 1;
}

enum tsr_status tsr_table_init(struct tsr_table *t, const char *name, const char *header,
			       struct tsr_error *err)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->cols = 1;
	for (const char *p = header; *p; p++)
		t->cols += *p == ',';
	if (!grow(t, 1))
		return tsr_table_status(t, err);
	const char *p = header;
	for (uint32_t c = 0; c < t->cols; c++) {
		size_t n = strcspn(p, ",");
		t->cells[c] = malloc(n + 1);
		if (!t->cells[c]) {
			t->nomem = 1;
			break;
		}
		memcpy(t->cells[c], p, n);
		t->cells[c][n] = '\0';
		p += n + (p[n] == ',');
	}
	return tsr_table_status(t, err);
}

void tsr_table_row(struct tsr_table *t)
{
	if (t->nomem || !grow(t, t->rows + 2))
		return;
	t->rows++;
	t->next_col = 0;
}

void tsr_table_cellf(struct tsr_table *t, const char *fmt, ...)
{
	if (t->nomem || !t->rows || t->next_col >= t->cols)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (!s) {
		t->nomem = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->cells[(size_t)t->rows * t->cols + t->next_col++] = s;
}

enum tsr_status tsr_table_status(const struct tsr_table *t, struct tsr_error *err)
{
	return t->nomem ? tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for table '%s'", t->name)
			: TSR_OK;
}

int tsr_table_column(const struct tsr_table *t, const char *name)
{
	for (uint32_t c = 0; t->cells && c < t->cols; c++)
		if (t->cells[c] && !strcmp(t->cells[c], name))
			return (int)c;
	return -1;
}

const char *tsr_table_cell(const struct tsr_table *t, uint32_t row, const char *col)
{
	int c = tsr_table_column(t, col);
	if (c < 0 || row >= t->rows)
		return NULL;
	const char *s = t->cells[(size_t)(row + 1) * t->cols + (uint32_t)c];
	return s ? s : "";
}

int tsr_table_find_row(const struct tsr_table *t, const char *col, const char *value)
{
	for (uint32_t r = 0; r < t->rows; r++) {
		const char *s = tsr_table_cell(t, r, col);
		if (!s)
			return -1;
		if (!strcmp(s, value))
			return (int)r;
	}
	return -1;
}

/* One CSV cell: as is, or quoted with doubled quotes when it needs it. */
static void csv_cell(struct tsr_text *out, const char *s)
{
	if (!s[strcspn(s, ",\"\n\r")]) {
		tsr_text_printf(out, "%s", s);
		return;
	}
	tsr_text_printf(out, "\"");
	for (const char *p = s; *p; p++)
		if (*p == '"')
			tsr_text_printf(out, "\"\"");
		else
			tsr_text_printf(out, "%c", *p);
	tsr_text_printf(out, "\"");
}

void tsr_table_csv(const struct tsr_table *t, struct tsr_text *out)
{
	if (t->nomem) {
		out->nomem = 1;
		return;
	}
	for (uint32_t r = 0; r <= t->rows; r++) {
		for (uint32_t c = 0; c < t->cols; c++) {
			const char *s = t->cells[(size_t)r * t->cols + c];
			if (c)
				tsr_text_printf(out, ",");
			csv_cell(out, s ? s : "");
		}
		tsr_text_printf(out, "\n");
	}
}

void tsr_table_release(struct tsr_table *t)
{
	for (size_t i = 0; t->cells && i < (size_t)t->cap_rows * t->cols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
