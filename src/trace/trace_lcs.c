/*
 * trace_lcs.c - libCacheSim's trace formats (trace/trace.h): the
 * oracleGeneral, txt and csv readers behind tsr_trace_reader, the format
 * names and parameters, and the oracleGeneral writer.
 *
 * oracleGeneral is read in chunks of whole records straight from the
 * file into the reader's buffer (no stdio per record) and decoded in a
 * loop without a branch per field; txt and csv read a line at a time
 * with getline(). Each request becomes one read of one line (trace.h).
 * Errors name the file and the record (1-based) or line; the reader
 * latches the first.
 */
#include "trace/trace.h"
#include "trace/trace_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/stream.h"

#define OG_REC 24u
#define OG_CHUNK 16384u  /* records a read brings in (384 KiB) */

/* ---- names and parameters ---- */

static const struct {
	const char *name;
	enum tsr_trace_format_kind kind;
} format_names[] = {
	{"auto", TSR_TRACE_FMT_AUTO},
	{"tessera", TSR_TRACE_FMT_TESSERA},
	{"oracleGeneral", TSR_TRACE_FMT_ORACLE_GENERAL},
	{"txt", TSR_TRACE_FMT_TXT},
	{"csv", TSR_TRACE_FMT_CSV},
};

const char *tsr_trace_format_name(enum tsr_trace_format_kind kind)
{
	for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++)
		if (format_names[i].kind == kind)
			return format_names[i].name;
	return "?";
}

static int is_true(const char *v)
{
	return !strcasecmp(v, "true") || !strcmp(v, "1") || !strcasecmp(v, "yes");
}

static int parse_col(const char *v, uint32_t *out)
{
	char *end;
	errno = 0;
	unsigned long c = strtoul(v, &end, 10);
	if (errno || end == v || *end || c < 1 || c > 1024)
		return 0;
	*out = (uint32_t)c;
	return 1;
}

enum tsr_status tsr_trace_format_parse(const char *name, const char *params,
				       struct tsr_trace_format *f, struct tsr_error *err)
{
	memset(f, 0, sizeof(*f));
	f->has_header = -1;
	f->obj_id_is_num = 1;
	if (name) {
		size_t i, n = sizeof(format_names) / sizeof(format_names[0]);
		for (i = 0; i < n && strcasecmp(name, format_names[i].name); i++)
			;
		if (i == n)
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "unknown trace format '%s' (oracleGeneral, txt, csv, "
					     "tessera, auto)", name);
		f->kind = format_names[i].kind;
	}
	if (params && *params) {
		if (f->kind != TSR_TRACE_FMT_CSV)
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "trace parameters '%s' go with the csv format", params);
		char buf[512];
		if (strlen(params) >= sizeof(buf))
			return tsr_error_set(err, TSR_ERR_CONFIG, "trace parameters too long");
		strcpy(buf, params);
		/* key=value pairs separated by commas; "delimiter=," has an empty
		 * value followed by the separating comma, as libCacheSim reads it */
		char *p = buf;
		while (*p) {
			char *key = p, *eq = strchr(p, '=');
			if (!eq)
				return tsr_error_set(err, TSR_ERR_CONFIG,
						     "trace parameter '%s' is not KEY=VALUE", key);
			*eq = '\0';
			char *val = eq + 1, *rest;
			for (char *q = key; *q; q++)
				if (*q == '_')
					*q = '-';
			if (!strcasecmp(key, "delimiter")) {
				/* one character, which may be the comma that separates the
				 * pairs ("delimiter=,,"), or \t, or \, */
				if (val[0] == '\\' && val[1] == 't')
					f->delimiter = '\t', rest = val + 2;
				else if (val[0] == '\\' && val[1] == ',')
					f->delimiter = ',', rest = val + 2;
				else if (val[0])
					f->delimiter = val[0], rest = val + 1;
				else
					f->delimiter = ',', rest = val;
				if (*rest == ',')
					rest++;
				else if (*rest)
					return tsr_error_set(err, TSR_ERR_CONFIG,
							     "trace parameter delimiter: one "
							     "character (or \\t), not '%s'", val);
				p = rest;
				continue;
			}
			char *comma = strchr(val, ',');
			if (comma) {
				*comma = '\0';
				rest = comma + 1;
			} else {
				rest = val + strlen(val);
			}
			int ok = 1;
			if (!strcasecmp(key, "obj-id-col") || !strcasecmp(key, "obj-id-field"))
				ok = parse_col(val, &f->obj_id_col);
			else if (!strcasecmp(key, "time-col") || !strcasecmp(key, "time-field"))
				ok = parse_col(val, &f->time_col);
			else if (!strcasecmp(key, "obj-size-col") || !strcasecmp(key, "size-col") ||
				 !strcasecmp(key, "obj-size-field") || !strcasecmp(key, "size-field"))
				ok = parse_col(val, &f->size_col);
			else if (!strcasecmp(key, "next-access-col") ||
				 !strcasecmp(key, "next-access-field"))
				ok = parse_col(val, &f->next_col);
			else if (!strcasecmp(key, "has-header") || !strcasecmp(key, "header"))
				f->has_header = (int8_t)is_true(val);
			else if (!strcasecmp(key, "obj-id-is-num"))
				f->obj_id_is_num = (uint8_t)is_true(val);
			else
				return tsr_error_set(err, TSR_ERR_CONFIG,
						     "unknown trace parameter '%s' (obj-id-col, "
						     "time-col, obj-size-col, next-access-col, "
						     "delimiter, has-header, obj-id-is-num)", key);
			if (!ok)
				return tsr_error_set(err, TSR_ERR_CONFIG,
						     "trace parameter %s: invalid value '%s'", key, val);
			p = rest;
		}
	}
	if (f->kind == TSR_TRACE_FMT_CSV && !f->obj_id_col)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "a csv trace needs its object id column (--trace-params "
				     "obj-id-col=N)");
	if (!f->delimiter)
		f->delimiter = ',';
	return TSR_OK;
}

/* ---- detection ---- */

enum tsr_trace_format_kind tsr_trace_lcs_detect_text(const uint8_t *first, size_t n, int *csv)
{
	*csv = 0;
	size_t i = 0;
	while (i < n) {
		/* one line: [i, e) */
		size_t e = i;
		while (e < n && first[e] != '\n')
			e++;
		size_t a = i, b = e;
		while (a < b && (first[a] == ' ' || first[a] == '\t'))
			a++;
		while (b > a && (first[b - 1] == ' ' || first[b - 1] == '\t' || first[b - 1] == '\r'))
			b--;
		if (a < b && first[a] != '#') {
			char line[64];
			size_t len = b - a < sizeof(line) - 1 ? b - a : sizeof(line) - 1;
			memcpy(line, first + a, len);
			line[len] = '\0';
			/* a tessera record letter, alone before a blank */
			if ((line[0] == 'R' || line[0] == 'W' || line[0] == 'F' || line[0] == 'T') &&
			    (line[1] == '\0' || line[1] == ' ' || line[1] == '\t'))
				return TSR_TRACE_FMT_TESSERA;
			if (memchr(first + a, ',', b - a) || memchr(first + a, '\t', b - a))
				*csv = 1;
			char *end;
			errno = 0;
			(void)strtoull(line, &end, 0);
			if (b - a < sizeof(line) - 1 && end != line && !*end && line[0] != '-' &&
			    line[0] != '+' && !errno)
				return TSR_TRACE_FMT_TXT;
			return TSR_TRACE_FMT_TESSERA;
		}
		i = e + 1;
	}
	return TSR_TRACE_FMT_TESSERA;
}

/* ---- reading ---- */

enum tsr_status tsr_trace_lcs_open(struct tsr_trace_reader *r, enum tsr_trace_format_kind kind)
{
	r->format = kind;
	r->description = calloc(1, 1);
	if (!r->description)
		return tsr_trace_reader_fail(r, TSR_ERR_NOMEM, "out of memory for trace '%s'", r->path);
	if (fseek(r->f, 0, SEEK_SET) != 0) {
		/* a pipe: only the first chunk was read; not supported */
		return tsr_trace_reader_fail(r, TSR_ERR_IO, "cannot read trace '%s' from its start: %s", r->path,
			    strerror(errno));
	}
	if (kind == TSR_TRACE_FMT_ORACLE_GENERAL) {
		struct stat st;
		if (fstat(fileno(r->f), &st) == 0 && S_ISREG(st.st_mode)) {
			r->file_bytes = (uint64_t)st.st_size;
			if (r->file_bytes % OG_REC)
				return tsr_trace_reader_fail(r, TSR_ERR_PARSE,
					    "'%s' record %llu is truncated: %llu of %u bytes (an "
					    "oracleGeneral trace is a whole number of 24-byte records)",
					    r->path,
					    (unsigned long long)(r->file_bytes / OG_REC + 1),
					    (unsigned long long)(r->file_bytes % OG_REC), OG_REC);
		}
		r->buf_cap = OG_CHUNK * OG_REC;
		r->buf = malloc(r->buf_cap);
		if (!r->buf)
			return tsr_trace_reader_fail(r, TSR_ERR_NOMEM, "out of memory for trace '%s'", r->path);
	}
	return TSR_OK;
}

static inline uint64_t le64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;  /* x86 and the other little-endian hosts this builds on */
}

/* Refills r->buf with whole records; at the end r->len == r->pos. */
static enum tsr_status og_fill(struct tsr_trace_reader *r)
{
	size_t rest = r->len - r->pos;
	memmove(r->buf, r->buf + r->pos, rest);
	r->pos = 0;
	r->len = rest;
	while (r->len < r->buf_cap && !r->src_done) {
		ssize_t k = read(fileno(r->f), r->buf + r->len, r->buf_cap - r->len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return tsr_trace_reader_fail(r, TSR_ERR_IO, "cannot read trace '%s': %s", r->path,
				    strerror(errno));
		if (k == 0)
			r->src_done = 1;
		r->len += (size_t)k;
		if (r->len >= OG_REC)
			break;
	}
	if (r->src_done && r->len % OG_REC && r->len < OG_REC)
		return tsr_trace_reader_fail(r, TSR_ERR_PARSE,
			    "'%s' record %llu is truncated: %zu of %u bytes", r->path,
			    (unsigned long long)(r->count + 1), r->len, OG_REC);
	return TSR_OK;
}

static enum tsr_status og_read(struct tsr_trace_reader *r, struct tsr_trace_record *recs,
			       uint64_t *next, size_t max, size_t *n, int *eof)
{
	size_t k = 0;
	const uint32_t shift = r->line_shift, size = 1u << shift;
	while (k < max) {
		if (r->len - r->pos < OG_REC) {
			TSR_TRY(og_fill(r));
			if (r->len - r->pos < OG_REC) {
				*eof = 1;
				break;
			}
		}
		size_t avail = (r->len - r->pos) / OG_REC;
		if (avail > max - k)
			avail = max - k;
		if (avail > r->max_records - r->count)
			avail = (size_t)(r->max_records - r->count);
		if (!avail) {
			*n = k;
			return tsr_trace_reader_fail(r, TSR_ERR_LIMIT,
				    "'%s' has more than %llu records, the limit (cachesim and "
				    "analyze: --max-records raises it)",
				    r->path, (unsigned long long)r->max_records);
		}
		const uint8_t *p = r->buf + r->pos;
		const uint64_t base = r->count;
		for (size_t i = 0; i < avail; i++, p += OG_REC) {
			recs[k + i] = (struct tsr_trace_record){.addr = le64(p + 4) << shift,
								 .size = size,
								 .kind = TSR_TRACE_ACCESS,
								 .stream = TSR_STREAM_OTHER};
			if (next) {
				int64_t nx = (int64_t)le64(p + 16);
				const uint64_t self = base + i + 1;  /* 1-based */
				if (nx == -1 || nx == INT64_MAX) {
					next[k + i] = UINT64_MAX;
				} else if ((uint64_t)nx <= self || nx < 0) {
					r->count = base + i;
					r->pos = (size_t)(p - r->buf);
					*n = k + i;
					return tsr_trace_reader_fail(r, TSR_ERR_PARSE,
						    "'%s' record %llu: next access %lld is not after "
						    "the record", r->path, (unsigned long long)self,
						    (long long)nx);
				} else {
					next[k + i] = (uint64_t)nx - 1;
				}
			}
		}
		r->pos += avail * OG_REC;
		r->count += avail;
		k += avail;
	}
	*n = k;
	return TSR_OK;
}

/* The line's field `col` (1-based) in [*a, *b); 0 when the line has fewer. */
static int field(const char *line, size_t len, char delim, uint32_t col, const char **a,
		 const char **b, uint32_t *have)
{
	const char *p = line, *end = line + len;
	uint32_t c = 1;
	while (c < col) {
		const char *d = memchr(p, delim, (size_t)(end - p));
		if (!d) {
			*have = c;
			return 0;
		}
		p = d + 1;
		c++;
	}
	const char *d = memchr(p, delim, (size_t)(end - p));
	const char *e = d ? d : end;
	while (p < e && (*p == ' ' || *p == '"'))
		p++;
	while (e > p && (e[-1] == ' ' || e[-1] == '"' || e[-1] == '\r'))
		e--;
	*a = p;
	*b = e;
	return 1;
}

/* A number in [a, b) (base as strtoull(.., 0)); 0 when it is not one. */
static int number(const char *a, const char *b, uint64_t *out)
{
	char tmp[32];
	size_t len = (size_t)(b - a);
	if (!len || len >= sizeof(tmp) || *a == '-' || *a == '+')
		return 0;
	memcpy(tmp, a, len);
	tmp[len] = '\0';
	char *end;
	errno = 0;
	*out = strtoull(tmp, &end, 0);
	return !errno && end == tmp + len;
}

static uint64_t fnv1a(const char *a, const char *b)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; a < b; a++)
		h = (h ^ (uint8_t)*a) * 0x100000001b3ull;
	return h;
}

static enum tsr_status text_read(struct tsr_trace_reader *r, struct tsr_trace_record *recs,
				 uint64_t *next, size_t max, size_t *n, int *eof)
{
	size_t k = 0;
	const uint32_t shift = r->line_shift, size = 1u << shift;
	const int csv = r->format == TSR_TRACE_FMT_CSV;
	const struct tsr_trace_format *f = &r->fmt;
	while (k < max) {
		errno = 0;
		ssize_t len = getline(&r->line, &r->line_cap, r->f);
		if (len < 0) {
			if (ferror(r->f))
				return tsr_trace_reader_fail(r, TSR_ERR_IO, "cannot read trace '%s': %s", r->path,
					    strerror(errno ? errno : EIO));
			*eof = 1;
			break;
		}
		r->lineno++;
		while (len > 0 && (r->line[len - 1] == '\n' || r->line[len - 1] == '\r'))
			len--;
		const char *a = r->line, *b = r->line + len;
		if (!csv) {
			while (a < b && (*a == ' ' || *a == '\t'))
				a++;
			while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
				b--;
		}
		if (a == b)
			continue;  /* a blank line */
		uint64_t id, nx = UINT64_MAX;
		if (!csv) {
			if (!number(a, b, &id))
				return tsr_trace_line_fail(r, "'%.*s' is not an object id (a number)",
						 (int)(b - a > 64 ? 64 : b - a), a);
		} else {
			uint32_t have = 0;
			const char *fa, *fb;
			if (!field(r->line, (size_t)len, f->delimiter, f->obj_id_col, &fa, &fb,
				   &have))
				return tsr_trace_line_fail(r, "no column %u (obj-id-col; the line has %u)",
						 f->obj_id_col, have);
			if (f->obj_id_is_num && !number(fa, fb, &id)) {
				if (r->lineno == 1 && f->has_header != 0)
					continue;  /* the header */
				return tsr_trace_line_fail(r, "column %u '%.*s' is not an object id (a number; "
						 "obj-id-is-num=false hashes it)", f->obj_id_col,
						 (int)(fb - fa > 64 ? 64 : fb - fa), fa);
			}
			if (r->lineno == 1 && f->has_header == 1)
				continue;
			if (!f->obj_id_is_num)
				id = fnv1a(fa, fb);
			uint32_t cols[2] = {f->time_col, f->size_col};
			for (int c = 0; c < 2; c++)
				if (cols[c] && !field(r->line, (size_t)len, f->delimiter, cols[c], &fa,
						      &fb, &have))
					return tsr_trace_line_fail(r, "no column %u (%s; the line has %u)", cols[c],
							 c ? "obj-size-col" : "time-col", have);
			if (f->next_col) {
				if (!field(r->line, (size_t)len, f->delimiter, f->next_col, &fa, &fb,
					   &have))
					return tsr_trace_line_fail(r, "no column %u (next-access-col; the line "
							 "has %u)", f->next_col, have);
				int64_t v;
				char tmp[32];
				size_t l = (size_t)(fb - fa);
				char *end;
				if (l && l < sizeof(tmp)) {
					memcpy(tmp, fa, l);
					tmp[l] = '\0';
				}
				v = l && l < sizeof(tmp) ? strtoll(tmp, &end, 0) : 0;
				if (!l || l >= sizeof(tmp) || *end)
					return tsr_trace_line_fail(r, "column %u is not a next access",
							 f->next_col);
				if (v == -1 || v == INT64_MAX)
					nx = UINT64_MAX;
				else if (v <= (int64_t)(r->count + 1))
					return tsr_trace_line_fail(r, "next access %lld is not after the request",
							 (long long)v);
				else
					nx = (uint64_t)v - 1;
			}
		}
		if (r->count >= r->max_records) {
			*n = k;
			return tsr_trace_reader_fail(r, TSR_ERR_LIMIT,
				    "'%s' has more than %llu records, the limit (cachesim and "
				    "analyze: --max-records raises it)",
				    r->path, (unsigned long long)r->max_records);
		}
		recs[k] = (struct tsr_trace_record){.addr = id << shift, .size = size,
						    .kind = TSR_TRACE_ACCESS,
						    .stream = TSR_STREAM_OTHER};
		if (next)
			next[k] = nx;
		k++;
		r->count++;
	}
	*n = k;
	return TSR_OK;
}

enum tsr_status tsr_trace_lcs_read_many(struct tsr_trace_reader *r, struct tsr_trace_record *recs,
					uint64_t *next, size_t max, size_t *n, int *eof)
{
	*n = 0;
	*eof = 0;
	if (r->status)
		return r->status;
	if (r->ended) {
		*eof = 1;
		return TSR_OK;
	}
	enum tsr_status s = r->format == TSR_TRACE_FMT_ORACLE_GENERAL
				    ? og_read(r, recs, next, max, n, eof)
				    : text_read(r, recs, next, max, n, eof);
	if (s == TSR_OK && *eof)
		r->ended = 1;
	return s;
}

/* ---- the oracleGeneral writer ---- */

struct tsr_og_writer {
	FILE *f;
	char *path, *tmp;
	int failed;
	int err_no;
	uint8_t buf[OG_CHUNK * OG_REC];
	size_t len;
};

static void og_flush(struct tsr_og_writer *w)
{
	if (w->len && !w->failed && fwrite(w->buf, 1, w->len, w->f) != w->len) {
		w->failed = 1;
		w->err_no = errno ? errno : EIO;
	}
	w->len = 0;
}

enum tsr_status tsr_og_writer_open(const char *path, struct tsr_og_writer **out,
				   struct tsr_error *err)
{
	*out = NULL;
	struct tsr_og_writer *w = calloc(1, sizeof(*w));
	size_t n = strlen(path);
	if (!w || !(w->path = strdup(path)) || !(w->tmp = malloc(n + 5))) {
		if (w)
			free(w->path);
		free(w);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for '%s'", path);
	}
	memcpy(w->tmp, path, n);
	memcpy(w->tmp + n, ".tmp", 5);
	w->f = fopen(w->tmp, "wb");
	if (!w->f) {
		enum tsr_status s = tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': %s", w->tmp,
						  strerror(errno));
		free(w->tmp);
		free(w->path);
		free(w);
		return s;
	}
	*out = w;
	return TSR_OK;
}

void tsr_og_write(struct tsr_og_writer *w, uint32_t time, uint64_t obj_id, uint32_t size,
		  int64_t next)
{
	if (w->len + OG_REC > sizeof(w->buf))
		og_flush(w);
	uint8_t *p = w->buf + w->len;
	memcpy(p, &time, 4);
	memcpy(p + 4, &obj_id, 8);
	memcpy(p + 12, &size, 4);
	memcpy(p + 16, &next, 8);
	w->len += OG_REC;
}

enum tsr_status tsr_og_writer_close(struct tsr_og_writer *w, int commit, struct tsr_error *err)
{
	enum tsr_status s = TSR_OK;
	if (commit)
		og_flush(w);
	if (fclose(w->f) != 0 && !w->failed) {
		w->failed = 1;
		w->err_no = errno;
	}
	if (commit && w->failed)
		s = tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': %s", w->path,
				  strerror(w->err_no));
	if (commit && !w->failed && rename(w->tmp, w->path) != 0)
		s = tsr_error_set(err, TSR_ERR_IO, "cannot rename '%s' to '%s': %s", w->tmp,
				  w->path, strerror(errno));
	if (!commit || s != TSR_OK)
		remove(w->tmp);
	free(w->tmp);
	free(w->path);
	free(w);
	return s;
}
