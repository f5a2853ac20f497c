/*
 * results.c - one table from a sweep's points: results.csv and
 * results.jsonl, one row per point and frame plus a "total" row per point,
 * in spec order whatever order the points ran in. The counter columns are
 * those of each point's frames.csv (their union: a timing run adds
 * energy_nj, configurations differ in cache instances). A total is the
 * counter of stats.json's "total" object at the column's dotted path
 * (energy_nj: total.energy.total_nj), else the sum of the frames (the
 * per-instance cache and DRAM columns, which stats.json splits further).
 */
#include "sweep/sweep.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/text.h"
#include "report/report.h"
#include "sweep/sweep_priv.h"

/* A frames.csv in memory: fields point into text. */
struct csv {
	char *text;
	char **cells;        /* rows x cols, header first */
	size_t rows, cols;   /* rows including the header */
};

static void csv_release(struct csv *c)
{
	free(c->text);
	free(c->cells);
	memset(c, 0, sizeof(*c));
}

/* Reads a whole file (NUL-terminated, malloc'd) or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct tsr_text t = {0};
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		tsr_text_printf(&t, "%.*s", (int)n, buf);
	int bad = ferror(f) || t.nomem;
	fclose(f);
	if (bad || !t.buf) {
		tsr_text_release(&t);
		return bad ? NULL : calloc(1, 1);
	}
	return t.buf;
}

/* Splits text into lines and comma-separated cells (frames.csv has no quoting). */
static enum tsr_status csv_split(struct csv *c, const char *path, struct tsr_error *err)
{
	size_t lines = 0, cols = 1;
	for (const char *p = c->text; *p; p++)
		lines += *p == '\n';
	for (const char *p = c->text; *p && *p != '\n'; p++)
		cols += *p == ',';
	c->cells = calloc(lines * cols + 1, sizeof(*c->cells));
	if (!c->cells)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory reading '%s'", path);
	c->cols = cols;
	char *p = c->text;
	for (size_t r = 0; r < lines; r++) {
		char *end = strchr(p, '\n');
		*end = '\0';
		for (size_t k = 0; k < cols; k++) {
			if (!p)
				return tsr_error_set(err, TSR_ERR_PARSE, "'%s' line %zu has fewer than "
						     "%zu columns", path, r + 1, cols);
			c->cells[r * cols + k] = p;
			char *comma = strchr(p, ',');
			if (comma)
				*comma = '\0';
			p = comma ? comma + 1 : NULL;
		}
		if (p)
			return tsr_error_set(err, TSR_ERR_PARSE, "'%s' line %zu has more than %zu "
					     "columns", path, r + 1, cols);
		p = end + 1;
	}
	c->rows = lines;
	return lines ? TSR_OK : tsr_error_set(err, TSR_ERR_PARSE, "'%s' is empty", path);
}

/* Reads OUT/points/<hex>/frames.csv. */
static enum tsr_status csv_read(const char *dir, struct csv *c, struct tsr_error *err)
{
	char path[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/frames.csv", dir);
	memset(c, 0, sizeof(*c));
	if (!(c->text = slurp(path)))
		return tsr_error_set(err, TSR_ERR_IO, "cannot read '%s'", path);
	enum tsr_status s = csv_split(c, path, err);
	if (s != TSR_OK)
		csv_release(c);
	return s;
}

/* The union of the counter columns (frames.csv's, "frame" excepted). */
struct columns {
	char **names;
	size_t n;
};

static ssize_t column_find(const struct columns *u, const char *name)
{
	for (size_t i = 0; i < u->n; i++)
		if (!strcmp(u->names[i], name))
			return (ssize_t)i;
	return -1;
}

/* Adds the header of c to the union. */
static enum tsr_status columns_add(struct columns *u, const struct csv *c, struct tsr_error *err)
{
	for (size_t k = 1; k < c->cols; k++) {
		if (column_find(u, c->cells[k]) >= 0)
			continue;
		char **a = realloc(u->names, (u->n + 1) * sizeof(*a));
		if (!a)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory aggregating a sweep");
		u->names = a;
		u->names[u->n++] = strdup(c->cells[k]);
		if (!u->names[u->n - 1])
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory aggregating a sweep");
	}
	return TSR_OK;
}

/* The override value of key in p ("" when p does not set it; the last one wins). */
static const char *point_value(const struct tsr_sweep_point *p, const char *key)
{
	const char *v = "";
	size_t n = strlen(key);
	for (size_t i = 0; i < p->nsets; i++)
		if (!strncmp(p->sets[i], key, n) && p->sets[i][n] == '=')
			v = p->sets[i] + n + 1;
	return v;
}

/* A CSV cell, quoted when it holds a comma, a quote or a line break. */
static void csv_cell(struct tsr_text *t, const char *s, int first)
{
	if (!first)
		tsr_text_printf(t, ",");
	if (!strpbrk(s, ",\"\n\r")) {
		tsr_text_printf(t, "%s", s);
		return;
	}
	tsr_text_printf(t, "\"");
	for (; *s; s++)
		tsr_text_printf(t, *s == '"' ? "\"\"" : "%c", *s);
	tsr_text_printf(t, "\"");
}

/* A value as JSON: a number or true/false when its text is one, else a string. */
static json_t *typed(const char *s)
{
	json_t *v = s[0] ? json_loads(s, JSON_DECODE_ANY, NULL) : NULL;
	if (v && (json_is_number(v) || json_is_boolean(v)))
		return v;
	json_decref(v);
	return json_string(s);
}

/* The header of results.csv. */
static void header(struct tsr_text *t, const struct tsr_sweep *sw, const struct columns *u)
{
	tsr_text_printf(t, "point,workload,config");
	for (size_t k = 0; k < sw->nkeys; k++)
		csv_cell(t, sw->keys[k], 0);
	tsr_text_printf(t, ",frame");
	for (size_t k = 0; k < u->n; k++)
		csv_cell(t, u->names[k], 0);
	tsr_text_printf(t, "\n");
}

/* One row in both outputs: the point's columns, frame, and vals (one per union column, NULL: empty). */
static void row(struct tsr_text *csv, struct tsr_text *jl, const struct tsr_sweep *sw,
		const struct tsr_sweep_point *p, const char *frame, const struct columns *u,
		char **vals)
{
	json_t *o = json_object();
	csv_cell(csv, p->hex, 1);
	csv_cell(csv, p->workload, 0);
	csv_cell(csv, p->config, 0);
	json_object_set_new(o, "point", json_string(p->hex));
	json_object_set_new(o, "workload", json_string(p->workload));
	json_object_set_new(o, "config", json_string(p->config));
	for (size_t k = 0; k < sw->nkeys; k++) {
		const char *v = point_value(p, sw->keys[k]);
		csv_cell(csv, v, 0);
		json_object_set_new(o, sw->keys[k], v[0] ? typed(v) : json_null());
	}
	csv_cell(csv, frame, 0);
	json_object_set_new(o, "frame", typed(frame));
	for (size_t k = 0; k < u->n; k++) {
		csv_cell(csv, vals[k] ? vals[k] : "", 0);
		if (vals[k])
			json_object_set_new(o, u->names[k], typed(vals[k]));
	}
	tsr_text_printf(csv, "\n");
	char *line = o ? json_dumps(o, JSON_COMPACT) : NULL;
	if (line)
		tsr_text_printf(jl, "%s\n", line);
	else
		jl->nomem = 1;
	free(line);
	json_decref(o);
}

/* The total of column `name` from stats.json's total (NULL when it has none). */
static json_t *total_lookup(json_t *total, const char *name)
{
	if (!strcmp(name, "energy_nj"))
		return json_object_get(json_object_get(total, "energy"), "total_nj");
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", name);
	json_t *cur = total;
	for (char *save, *tok = strtok_r(buf, ".", &save); tok && cur;
	     tok = strtok_r(NULL, ".", &save))
		cur = json_object_get(cur, tok);
	return json_is_number(cur) ? cur : NULL;
}

/* The sum of column k over the frame rows, as text into buf. */
static void frames_sum(const struct csv *c, size_t k, char *buf, size_t n)
{
	unsigned long long sum = 0;
	double dsum = 0;
	int real = 0;
	for (size_t r = 1; r < c->rows; r++) {
		const char *s = c->cells[r * c->cols + k];
		real |= strchr(s, '.') != NULL;
		sum += strtoull(s, NULL, 10);
		dsum += strtod(s, NULL);
	}
	if (real)
		snprintf(buf, n, "%.3f", dsum);
	else
		snprintf(buf, n, "%llu", sum);
}

/* The point's rows: one per frame, then the total. */
static enum tsr_status point_rows(struct tsr_text *csv, struct tsr_text *jl,
				  const struct tsr_sweep *sw, const struct tsr_sweep_point *p,
				  const char *dir, const struct columns *u, struct tsr_error *err)
{
	struct csv c;
	TSR_TRY(csv_read(dir, &c, err));
	char path[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/stats.json", dir);
	json_t *stats = json_load_file(path, 0, NULL);
	char **vals = calloc(u->n + 1, sizeof(*vals));
	char *tot = calloc(u->n + 1, 48);
	if (!stats || !vals || !tot) {
		csv_release(&c);
		json_decref(stats);
		free(vals);
		free(tot);
		return tsr_error_set(err, stats ? TSR_ERR_NOMEM : TSR_ERR_PARSE,
				     stats ? "out of memory aggregating a sweep" : "cannot read '%s'",
				     path);
	}
	for (size_t r = 1; r < c.rows; r++) {
		for (size_t k = 1; k < c.cols; k++)
			vals[column_find(u, c.cells[k])] = c.cells[r * c.cols + k];
		row(csv, jl, sw, p, c.cells[r * c.cols], u, vals);
	}
	json_t *total = json_object_get(stats, "total");
	for (size_t k = 1; k < c.cols; k++) {
		char *buf = tot + 48 * k;
		json_t *v = total_lookup(total, c.cells[k]);
		if (json_is_integer(v))
			snprintf(buf, 48, "%lld", (long long)json_integer_value(v));
		else if (v)
			snprintf(buf, 48, "%.3f", json_real_value(v));
		else
			frames_sum(&c, k, buf, 48);
		vals[column_find(u, c.cells[k])] = buf;
	}
	row(csv, jl, sw, p, "total", u, vals);
	free(vals);
	free(tot);
	json_decref(stats);
	csv_release(&c);
	return TSR_OK;
}

/*
 * Writes results.csv and results.jsonl into out_dir as one output
 * transaction (report/report.h): both or neither, written through links,
 * FIFOs and devices as every output of tessera.
 */
static enum tsr_status write_results(const char *out_dir, const struct tsr_text *csv,
				     const struct tsr_text *jl, struct tsr_error *err)
{
	TSR_TRY(tsr_text_status(csv, "results.csv", err));
	TSR_TRY(tsr_text_status(jl, "results.jsonl", err));
	struct tsr_output out;
	enum tsr_status s = tsr_output_open(&out, out_dir, err);
	if (s == TSR_OK)
		s = tsr_output_write(&out, "results.csv", csv->buf ? csv->buf : "", csv->len, err);
	if (s == TSR_OK)
		s = tsr_output_write(&out, "results.jsonl", jl->buf ? jl->buf : "", jl->len, err);
	if (s == TSR_OK)
		s = tsr_output_commit(&out, err);
	if (s != TSR_OK)
		tsr_output_abort(&out);
	return s;
}

/* The union of the columns of the complete points among [lo, hi); *missing counted. */
static enum tsr_status collect_columns(const struct tsr_sweep *sw, const char *out_dir,
				       size_t lo, size_t hi, struct columns *u,
				       unsigned char *done, size_t *missing,
				       struct tsr_error *err)
{
	*missing = 0;
	for (size_t i = lo; i < hi; i++) {
		const struct tsr_sweep_point *p = &sw->points[i];
		done[i] = (unsigned char)tsr_sweep_point_complete(out_dir, p);
		if (!done[i]) {
			(*missing)++;
			continue;
		}
		char dir[PATH_MAX];
		struct csv c;
		tsr_sweep_point_dir(out_dir, p, dir, sizeof(dir));
		TSR_TRY(csv_read(dir, &c, err));
		enum tsr_status s = columns_add(u, &c, err);
		csv_release(&c);
		TSR_TRY(s);
	}
	return TSR_OK;
}

enum tsr_status tsr_sweep_aggregate(const struct tsr_sweep *sw, const char *out_dir,
				    size_t lo, size_t hi, size_t *missing,
				    struct tsr_error *err)
{
	struct columns u = {0};
	struct tsr_text csv = {0}, jl = {0};
	unsigned char *done = calloc(sw->npoints + 1, 1);
	if (hi > sw->npoints)
		hi = sw->npoints;
	enum tsr_status s = done ? TSR_OK
				 : tsr_error_set(err, TSR_ERR_NOMEM, "out of memory aggregating a sweep");
	if (s == TSR_OK)
		s = collect_columns(sw, out_dir, lo, hi, &u, done, missing, err);
	if (s == TSR_OK)
		header(&csv, sw, &u);
	for (size_t i = lo; s == TSR_OK && i < hi; i++) {
		char dir[PATH_MAX];
		tsr_sweep_point_dir(out_dir, &sw->points[i], dir, sizeof(dir));
		if (done[i])
			s = point_rows(&csv, &jl, sw, &sw->points[i], dir, &u, err);
	}
	if (s == TSR_OK)
		s = write_results(out_dir, &csv, &jl, err);
	for (size_t k = 0; k < u.n; k++)
		free(u.names[k]);
	free(u.names);
	free(done);
	tsr_text_release(&csv);
	tsr_text_release(&jl);
	return s;
}
