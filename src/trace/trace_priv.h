/*
 * trace_priv.h - the trace reader's state, shared by the binary decoder
 * (trace.c) and the text-form parser (trace_text.c). Not a public header.
 *
 * The binary path decodes records straight out of a fixed buffer of
 * decompressed bytes (no stdio or indirect call per record); the text
 * path reads one line at a time with getline(), so lines may be of any
 * length.
 */
#ifndef TSR_TRACE_TRACE_PRIV_H
#define TSR_TRACE_TRACE_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/status.h"
#include "trace/trace.h"

struct ZSTD_DCtx_s;

struct tsr_trace_reader {
	FILE *f;
	char *path;
	char *description;        /* NUL-terminated; "" for text traces */
	int binary;               /* 1: zstd binary form, 0: text form */
	int ended;                /* the end (or end of text) was reached */
	enum tsr_status status;   /* sticky: the first error, then every read */
	struct tsr_error error;   /* its message */
	uint64_t count;           /* records returned so far */
	uint64_t max_records;     /* the most records returned (limit) */
	uint64_t fast_until;      /* the fast path runs while count < fast_until:
				     max_records, or 0 until the declared size
				     below is checked against it */
	uint64_t content_bytes;   /* the zstd frame's declared content size, 0 if none */

	/* binary form */
	struct ZSTD_DCtx_s *dctx;
	uint8_t *in;              /* compressed bytes read from f */
	size_t in_cap, in_len, in_pos;
	uint8_t *buf;             /* decompressed bytes not yet decoded */
	size_t buf_cap, len, pos; /* buf[pos, len) is pending */
	int src_done;             /* no more decompressed bytes will come */
	int frame_done;           /* the zstd frame ended (checksum verified) */
	uint64_t prev_addr;       /* address of the previous access */
	uint32_t version;         /* the header's format version */

	/* libCacheSim's formats (trace_lcs.c) */
	enum tsr_trace_format_kind format;  /* what this reader reads */
	struct tsr_trace_format fmt;        /* its parameters (csv columns) */
	uint32_t line_shift;      /* object id -> address id << line_shift */
	uint64_t file_bytes;      /* oracleGeneral: the file's size, 0 unknown */

	/* text form */
	char *line;               /* getline() buffer */
	size_t line_cap;
	uint64_t lineno;          /* number of the last line read (1-based) */
	uint64_t frames;          /* number of an F line without one */
};

/*
 * Parses text lines until the next record (skipping blank and comment
 * lines) or the end of the file (*eof = 1). On error fills r->error with
 * "'FILE' line N: <problem>" and returns TSR_ERR_PARSE (or TSR_ERR_IO);
 * the caller latches it.
 */
enum tsr_status tsr_trace_text_next(struct tsr_trace_reader *r,
				    struct tsr_trace_record *rec, int *eof);

/*
 * Latches an error on r: the first one wins (its message and status stay),
 * and nothing after it is decoded (r->pos = r->len). Returns r's status.
 */
enum tsr_status tsr_trace_reader_fail(struct tsr_trace_reader *r, enum tsr_status s,
				      const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * tsr_trace_reader_fail() of TSR_ERR_PARSE with the message
 * "'FILE' line N: <problem>" (N: r->lineno), for the text formats.
 */
enum tsr_status tsr_trace_line_fail(struct tsr_trace_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Sets up r (whose f is open, at any position) to read `kind`, one of
 * libCacheSim's formats. Errors latched in r (tsr_trace_reader_fail()) and
 * returned: TSR_ERR_PARSE, TSR_ERR_IO, TSR_ERR_NOMEM.
 */
enum tsr_status tsr_trace_lcs_open(struct tsr_trace_reader *r, enum tsr_trace_format_kind kind);

/*
 * The format of a file that is neither zstd nor NUL-bearing, from its
 * first bytes (first[0 .. n)): TSR_TRACE_FMT_TXT for a first record line
 * that is a number, TSR_TRACE_FMT_TESSERA otherwise (its parser reports
 * what it cannot read). *csv = 1 when that line looks like a CSV record.
 */
enum tsr_trace_format_kind tsr_trace_lcs_detect_text(const uint8_t *first, size_t n, int *csv);

/*
 * Reads up to max records (and their next accesses into next, may be
 * NULL) of a reader of libCacheSim's formats; as tsr_trace_read_many().
 * Errors are latched in r->status / r->error.
 */
enum tsr_status tsr_trace_lcs_read_many(struct tsr_trace_reader *r, struct tsr_trace_record *recs,
					uint64_t *next, size_t max, size_t *n, int *eof);

#endif
