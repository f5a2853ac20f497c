/*
 * trace_text.c - the text form of a trace (trace/trace.h), for hand-made
 * traces and tests:
 *
 *   R|W ADDR [STREAM] [size=N] [req=N]   an access
 *   F [N]                                a frame boundary
 *   T ID                                 a tile boundary
 *   # ...                                a comment, alone or after a record
 *
 * Fields are separated by spaces or tabs; a line may end in CR LF.
 * Numbers are decimal or 0x hex, without sign. The stream, if given,
 * comes right after the address; size= and req= follow in any order,
 * each at most once. `F` may carry its frame number; without one, a frame
 * is numbered one more than the previous (the first 0).
 */
#include "trace/trace_priv.h"

#include <errno.h>
#include <string.h>
#include <sys/types.h>

#include "core/limits.h"
#include "core/stream.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Returns the next field of *p (NUL-terminated in place), NULL if none. */
static char *next_field(char **p)
{
	char *s = *p;
	while (is_space(*s))
		s++;
	if (!*s) {
		*p = s;
		return NULL;
	}
	char *e = s;
	while (*e && !is_space(*e))
		e++;
	if (*e)
		*e++ = '\0';
	*p = e;
	return s;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parses an unsigned decimal or 0x-hex number filling all of s; 0 if bad. */
static int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return 0;
	for (; *s; s++) {
		int d = hex_digit(*s);
		if (d < 0 || (unsigned)d >= base)
			return 0;
		if (v > (UINT64_MAX - (unsigned)d) / base)
			return 0;  /* overflow */
		v = v * base + (unsigned)d;
	}
	*out = v;
	return 1;
}

static enum tsr_status unknown_stream(struct tsr_trace_reader *r, const char *name)
{
	char list[256];
	size_t n = 0;
	list[0] = '\0';
	for (int i = 0; i < TSR_STREAM_COUNT && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
				      tsr_stream_name((enum tsr_stream)i));
	return tsr_trace_line_fail(r, "unknown stream '%.40s' (valid: %s)", name, list);
}

/* Parses the fields after R or W. */
static enum tsr_status parse_access(struct tsr_trace_reader *r, char *p,
				    struct tsr_trace_record *rec)
{
	char *f = next_field(&p);
	if (!f)
		return tsr_trace_line_fail(r, "missing address");
	if (!parse_u64(f, &rec->addr))
		return tsr_trace_line_fail(r, "bad address '%.40s'", f);
	rec->size = 1;
	rec->stream = TSR_STREAM_OTHER;
	rec->requester = 0;

	rec->meta = 0;

	int have_size = 0, have_req = 0, have_meta = 0, first = 1;
	while ((f = next_field(&p)) != NULL) {
		uint64_t v;
		if (strncmp(f, "size=", 5) == 0) {
			if (have_size++)
				return tsr_trace_line_fail(r, "size given twice");
			if (!parse_u64(f + 5, &v) || v > UINT32_MAX)
				return tsr_trace_line_fail(r, "bad size '%.40s'", f + 5);
			if (v == 0)
				return tsr_trace_line_fail(r, "size 0 (an access has at least 1 byte)");
			if (v > TSR_LIMIT_ACCESS_BYTES)
				return tsr_trace_line_fail(r, "size %llu is more than the limit of %u bytes",
						  (unsigned long long)v, TSR_LIMIT_ACCESS_BYTES);
			rec->size = (uint32_t)v;
		} else if (strncmp(f, "req=", 4) == 0) {
			if (have_req++)
				return tsr_trace_line_fail(r, "requester given twice");
			if (!parse_u64(f + 4, &v) || v > UINT16_MAX)
				return tsr_trace_line_fail(r, "bad requester '%.40s' (0 to 65535)", f + 4);
			rec->requester = (uint16_t)v;
		} else if (strncmp(f, "meta=", 5) == 0) {
			if (have_meta++)
				return tsr_trace_line_fail(r, "meta given twice");
			if (!parse_u64(f + 5, &v) || v > UINT32_MAX)
				return tsr_trace_line_fail(r, "bad meta '%.40s' (0 to 0xffffffff)", f + 5);
			rec->meta = (uint32_t)v;
		} else if (strchr(f, '=')) {
			return tsr_trace_line_fail(r, "unknown option '%.40s' (valid: size=N, req=N, meta=N)", f);
		} else if (first) {
			enum tsr_stream s = tsr_stream_from_name(f);
			if (s == TSR_STREAM_COUNT)
				return unknown_stream(r, f);
			rec->stream = (uint8_t)s;
		} else {
			return tsr_trace_line_fail(r, "unexpected '%.40s' after the record", f);
		}
		first = 0;
	}
	return TSR_OK;
}

/* Parses one line with its comment removed; *got = 1 if it held a record. */
static enum tsr_status parse_line(struct tsr_trace_reader *r, char *p,
				  struct tsr_trace_record *rec, int *got)
{
	*got = 0;
	char *op = next_field(&p);
	if (!op)
		return TSR_OK;  /* blank or comment-only line */
	memset(rec, 0, sizeof(*rec));
	char *f;
	if ((op[0] == 'R' || op[0] == 'W') && !op[1]) {
		rec->kind = TSR_TRACE_ACCESS;
		rec->write = op[0] == 'W';
		TSR_TRY(parse_access(r, p, rec));
		if (rec->addr + (rec->size - 1) < rec->addr)
			return tsr_trace_line_fail(r, "an access of %u bytes at 0x%llx wraps past the end "
					  "of the 64-bit address space", rec->size,
					  (unsigned long long)rec->addr);
	} else if (op[0] == 'F' && !op[1]) {
		rec->kind = TSR_TRACE_FRAME;
		rec->addr = r->frames;
		f = next_field(&p);
		if (f && !parse_u64(f, &rec->addr))
			return tsr_trace_line_fail(r, "bad frame number '%.40s'", f);
		r->frames = rec->addr + 1;
	} else if (op[0] == 'T' && !op[1]) {
		rec->kind = TSR_TRACE_TILE;
		f = next_field(&p);
		if (!f)
			return tsr_trace_line_fail(r, "missing tile id");
		if (!parse_u64(f, &rec->addr))
			return tsr_trace_line_fail(r, "bad tile id '%.40s'", f);
	} else {
		return tsr_trace_line_fail(r, "unknown record '%.40s' (expected R, W, F or T)", op);
	}
	if (rec->kind != TSR_TRACE_ACCESS && (f = next_field(&p)) != NULL)
		return tsr_trace_line_fail(r, "unexpected '%.40s' after the record", f);
	*got = 1;
	return TSR_OK;
}

enum tsr_status tsr_trace_text_next(struct tsr_trace_reader *r,
				    struct tsr_trace_record *rec, int *eof)
{
	for (;;) {
		errno = 0;
		ssize_t n = getline(&r->line, &r->line_cap, r->f);
		if (n < 0) {
			if (feof(r->f) && !ferror(r->f)) {
				*eof = 1;
				return TSR_OK;
			}
			int e = errno ? errno : EIO;
			return tsr_error_set(&r->error, e == ENOMEM ? TSR_ERR_NOMEM : TSR_ERR_IO,
					     "cannot read trace '%s': %s", r->path, strerror(e));
		}
		r->lineno++;
		if (memchr(r->line, '\0', (size_t)n))
			return tsr_trace_line_fail(r, "NUL byte (binary data in a text trace)");
		char *hash = strchr(r->line, '#');
		if (hash)
			*hash = '\0';
		char *nl = strchr(r->line, '\n');
		if (nl)
			*nl = '\0';
		struct tsr_trace_record tmp;
		int got;
		TSR_TRY(parse_line(r, r->line, &tmp, &got));
		if (got) {
			*rec = tmp;
			return TSR_OK;
		}
	}
}
