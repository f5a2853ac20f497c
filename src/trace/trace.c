/*
 * trace.c - the binary trace form (trace/trace.h): the writer and its
 * cache observer, the reader (binary here, text in trace_text.c) and
 * whole-trace loading.
 *
 * Writer: records are encoded into a fixed buffer that is handed to a
 * zstd stream (content checksum on) whenever it fills up, and the
 * compressed bytes go to PATH.tmp; close renames it into place, so a
 * trace at PATH is always complete.
 *
 * Reader: compressed bytes are read in chunks and decompressed into a
 * fixed buffer; records are decoded straight from that buffer. The common
 * record, an access with a whole record's worth of bytes (REC_MAX)
 * pending, takes read_access_fast(), which decodes the address delta
 * without a branch on its length; markers, the end record, refills and
 * every error go through read_record(), whose varint reads are bounded by
 * the buffer end. After the end record the reader drains the zstd frame,
 * so the checksum is verified and data after the end record is reported.
 *
 * Choices beyond trace.h:
 * - the description is at most 64 KiB: the writer cuts a longer one at a
 *   UTF-8 character boundary, the reader refuses a longer length;
 * - the writer refuses (latched TSR_ERR_INTERNAL) records the reader
 *   would refuse: unknown kind, stream out of range, size 0, and marker
 *   kinds it does not know; markers never carry the write bit;
 * - one zstd frame: bytes after it are corruption; the data ending before
 *   the end record is "truncated", whether the file or the frame ends;
 * - a file of 1 to 3 bytes that begins like the zstd magic number is a
 *   truncated binary trace; an empty file is an empty text trace;
 * - close(commit = 0) returns TSR_OK even after a latched error: the
 *   trace is being thrown away.
 */
#include "trace/trace.h"
#include "trace/trace_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <zstd.h>

#include "core/array.h"
#include "core/limits.h"
#include "core/stream.h"

#define TRACE_MAGIC "TSRTRACE"
#define HEADER_BYTES 16u           /* magic, version, description length */
#define DESC_MAX (64u * 1024u)     /* longest description in bytes */
#define REC_MAX 51u                /* tag + 5 varints of at most 10 bytes */
#define TAG_KIND_MASK 3u
#define TAG_WRITE 4u
#define TAG_META 8u                /* version 2: a meta varint follows */
#define KIND_END 3u
#define WBUF_CAP (128u * 1024u)    /* writer: encoded records per zstd call */
#define RBUF_CAP (256u * 1024u)    /* reader: decompressed bytes */

/* ---- shared helpers ---- */

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

enum { VARINT_OK, VARINT_SHORT, VARINT_BAD };

/*
 * Reads one LEB128 varint from *pp (not past end). VARINT_SHORT: the
 * bytes end inside it; VARINT_BAD: longer than 10 bytes or above 2^64-1.
 */
static inline int get_varint(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
	const uint8_t *p = *pp;
	if (p < end && *p < 0x80) {  /* the common one-byte case */
		*out = *p;
		*pp = p + 1;
		return VARINT_OK;
	}
	uint64_t v = 0;
	for (unsigned shift = 0;; shift += 7) {
		if (p == end)
			return VARINT_SHORT;
		uint8_t b = *p++;
		if (shift == 63) {
			if (b > 1)
				return VARINT_BAD;
			v |= (uint64_t)b << 63;
			break;
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	*out = v;
	*pp = p;
	return VARINT_OK;
}

/*
 * get_varint() without a branch on the length for varints of up to 8
 * bytes (the address deltas, whose length varies from record to record
 * and would defeat branch prediction). Needs 8 readable bytes at *pp.
 */
static inline int get_varint_wide(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
	uint64_t x;
	memcpy(&x, *pp, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	uint64_t stops = ~x & 0x8080808080808080ull;  /* bytes that end a varint */
	if (!stops)
		return get_varint(pp, end, out);  /* 9 or 10 bytes */
	unsigned bits = (unsigned)__builtin_ctzll(stops) + 1;  /* 8 x length */
	x &= ~0ull >> (64 - bits);
	/* gather the 7-bit groups: 8 -> 14 -> 28 -> 56 bits */
	x = ((x & 0x7f007f007f007f00ull) >> 1) | (x & 0x007f007f007f007full);
	x = ((x & 0x3fff00003fff0000ull) >> 2) | (x & 0x00003fff00003fffull);
	x = ((x & 0x0fffffff00000000ull) >> 4) | (x & 0x000000000fffffffull);
	*out = x;
	*pp += bits >> 3;
	return VARINT_OK;
}

static inline uint64_t zigzag(uint64_t delta)
{
	return (delta << 1) ^ (0 - (delta >> 63));
}

static inline uint64_t unzigzag(uint64_t z)
{
	return (z >> 1) ^ (0 - (z & 1));
}

/* ---- writer ---- */

struct tsr_trace_writer {
	FILE *f;
	ZSTD_CCtx *cctx;
	char *path;
	char *tmp;               /* path.tmp, written until commit (direct: path) */
	int direct;              /* writes path itself: no rename, no removal */
	uint8_t *out;            /* compressed bytes for fwrite */
	size_t out_cap;
	size_t len;              /* encoded bytes pending in buf */
	uint64_t count;          /* records written */
	uint64_t prev_addr;      /* address of the previous access */
	enum tsr_status status;  /* latched: the first error */
	struct tsr_error error;
	uint8_t buf[WBUF_CAP];   /* encoded records (and the header) */
};

__attribute__((format(printf, 3, 4)))
static void writer_fail(struct tsr_trace_writer *w, enum tsr_status s, const char *fmt, ...)
{
	if (w->status)
		return;  /* keep the first error */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->error.msg, sizeof(w->error.msg), fmt, ap);
	va_end(ap);
	w->status = s;
}

/* Compresses buf[0, len) (and with ZSTD_e_end finishes the frame). */
static void writer_compress(struct tsr_trace_writer *w, ZSTD_EndDirective mode)
{
	ZSTD_inBuffer zi = {w->buf, w->len, 0};
	for (;;) {
		ZSTD_outBuffer zo = {w->out, w->out_cap, 0};
		size_t rem = ZSTD_compressStream2(w->cctx, &zo, &zi, mode);
		if (ZSTD_isError(rem)) {
			writer_fail(w, TSR_ERR_IO, "cannot compress trace '%s': %s",
				    w->tmp, ZSTD_getErrorName(rem));
			return;
		}
		if (zo.pos && fwrite(w->out, 1, zo.pos, w->f) != zo.pos) {
			writer_fail(w, TSR_ERR_IO, "cannot write trace '%s': %s", w->tmp,
				    strerror(errno ? errno : EIO));
			return;
		}
		if (mode == ZSTD_e_end ? rem == 0 : zi.pos == zi.size)
			break;
	}
	w->len = 0;
}

static void writer_free(struct tsr_trace_writer *w)
{
	ZSTD_freeCCtx(w->cctx);
	free(w->out);
	free(w->path);
	free(w->tmp);
	free(w);
}

/* tsr_trace_writer_open() (direct 0) and tsr_trace_writer_open_direct() (1). */
static enum tsr_status writer_open(const char *path, const char *description, int direct,
				   struct tsr_trace_writer **out, struct tsr_error *err)
{
	*out = NULL;
	struct tsr_trace_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for trace '%s'", path);
	size_t plen = strlen(path);
	w->path = malloc(plen + 1);
	w->tmp = malloc(plen + 5);
	w->cctx = ZSTD_createCCtx();
	w->out_cap = ZSTD_CStreamOutSize();
	w->out = malloc(w->out_cap);
	if (!w->path || !w->tmp || !w->cctx || !w->out) {
		writer_free(w);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for trace '%s'", path);
	}
	memcpy(w->path, path, plen + 1);
	memcpy(w->tmp, path, plen);
	memcpy(w->tmp + plen, direct ? "" : ".tmp", direct ? 1 : 5);
	w->direct = direct;
	if (ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, 3)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1))) {
		writer_free(w);
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "cannot set up zstd compression for trace '%s'", path);
	}
	w->f = fopen(w->tmp, "wb");
	if (!w->f) {
		enum tsr_status s = tsr_error_set(err, TSR_ERR_IO, "cannot create trace '%s': %s",
						  w->tmp, strerror(errno));
		writer_free(w);
		return s;
	}

	/* the header; a description over 64 KiB is cut at a character boundary */
	size_t dlen = description ? strlen(description) : 0;
	if (dlen > DESC_MAX) {
		dlen = DESC_MAX;
		while (dlen > 0 && ((uint8_t)description[dlen] & 0xc0) == 0x80)
			dlen--;
	}
	memcpy(w->buf, TRACE_MAGIC, 8);
	put_le32(w->buf + 8, TSR_TRACE_VERSION);
	put_le32(w->buf + 12, (uint32_t)dlen);
	if (dlen)
		memcpy(w->buf + HEADER_BYTES, description, dlen);
	w->len = HEADER_BYTES + dlen;
	*out = w;
	return TSR_OK;
}

enum tsr_status tsr_trace_writer_open(const char *path, const char *description,
				      struct tsr_trace_writer **out,
				      struct tsr_error *err)
{
	return writer_open(path, description, 0, out, err);
}

enum tsr_status tsr_trace_writer_open_direct(const char *path, const char *description,
					     struct tsr_trace_writer **out,
					     struct tsr_error *err)
{
	return writer_open(path, description, 1, out, err);
}

void tsr_trace_write(struct tsr_trace_writer *w, const struct tsr_trace_record *r)
{
	if (w->status)
		return;
	if (w->len > WBUF_CAP - REC_MAX) {
		writer_compress(w, ZSTD_e_continue);
		if (w->status)
			return;
	}
	uint8_t *p = w->buf + w->len;
	switch (r->kind) {
	case TSR_TRACE_ACCESS:
		if (r->stream >= TSR_STREAM_COUNT || r->size == 0 ||
		    r->size > TSR_LIMIT_ACCESS_BYTES || r->addr + (r->size - 1) < r->addr) {
			int bad_stream = r->stream >= TSR_STREAM_COUNT;
			writer_fail(w, TSR_ERR_INTERNAL,
				    "record %llu of trace '%s' is invalid: %s %u",
				    (unsigned long long)w->count, w->path,
				    bad_stream ? "stream" : "size",
				    bad_stream ? (unsigned)r->stream : r->size);
			return;
		}
		*p++ = (uint8_t)(TSR_TRACE_ACCESS | (r->write ? TAG_WRITE : 0) |
				 (r->meta ? TAG_META : 0));
		p = put_varint(p, zigzag(r->addr - w->prev_addr));
		p = put_varint(p, r->size);
		p = put_varint(p, r->stream);
		p = put_varint(p, r->requester);
		if (r->meta)
			p = put_varint(p, r->meta);
		w->prev_addr = r->addr;
		break;
	case TSR_TRACE_FRAME:
	case TSR_TRACE_TILE:
		*p++ = r->kind;
		p = put_varint(p, r->addr);
		break;
	default:
		writer_fail(w, TSR_ERR_INTERNAL,
			    "record %llu of trace '%s' is invalid: kind %u",
			    (unsigned long long)w->count, w->path, (unsigned)r->kind);
		return;
	}
	w->len = (size_t)(p - w->buf);
	w->count++;
}

uint64_t tsr_trace_writer_count(const struct tsr_trace_writer *w)
{
	return w->count;
}

enum tsr_status tsr_trace_writer_close(struct tsr_trace_writer *w, int commit,
				       struct tsr_error *err)
{
	if (!w)
		return TSR_OK;
	if (commit && !w->status) {
		if (w->len > WBUF_CAP - REC_MAX)
			writer_compress(w, ZSTD_e_continue);
		if (!w->status) {
			uint8_t *p = w->buf + w->len;
			*p++ = KIND_END;
			p = put_varint(p, w->count);
			w->len = (size_t)(p - w->buf);
			writer_compress(w, ZSTD_e_end);
		}
	}
	if (fclose(w->f) != 0 && commit)
		writer_fail(w, TSR_ERR_IO, "cannot write trace '%s': %s", w->tmp, strerror(errno));
	if (commit && !w->status && !w->direct && rename(w->tmp, w->path) != 0)
		writer_fail(w, TSR_ERR_IO, "cannot rename '%s' to '%s': %s", w->tmp, w->path,
			    strerror(errno));
	if ((!commit || w->status) && !w->direct)
		remove(w->tmp);
	/* a discarded trace's errors do not matter to the caller */
	enum tsr_status s = commit ? w->status : TSR_OK;
	if (s && err)
		*err = w->error;
	writer_free(w);
	return s;
}

static void observe_access(void *ctx, const struct tsr_access *a)
{
	struct tsr_trace_record r = {.addr = a->addr, .size = a->size,
				     .requester = a->requester,
				     .kind = TSR_TRACE_ACCESS, .write = a->write,
				     .stream = a->stream, .meta = a->meta};
	tsr_trace_write(ctx, &r);
}

static void observe_marker(void *ctx, enum tsr_marker kind, uint64_t value)
{
	struct tsr_trace_writer *w = ctx;
	struct tsr_trace_record r = {.addr = value};
	switch (kind) {
	case TSR_MARKER_FRAME:
		r.kind = TSR_TRACE_FRAME;
		break;
	case TSR_MARKER_TILE:
		r.kind = TSR_TRACE_TILE;
		break;
	default:
		writer_fail(w, TSR_ERR_INTERNAL, "marker kind %d cannot be recorded in trace '%s'",
			    (int)kind, w->path);
		return;
	}
	tsr_trace_write(w, &r);
}

struct tsr_cache_observer tsr_trace_observer(struct tsr_trace_writer *w)
{
	struct tsr_cache_observer o = {.access = observe_access,
				       .marker = observe_marker, .ctx = w};
	return o;
}

/* ---- reader ---- */

enum tsr_status tsr_trace_line_fail(struct tsr_trace_reader *r, const char *fmt, ...)
{
	if (r->status)
		return r->status;
	char problem[384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(problem, sizeof(problem), fmt, ap);
	va_end(ap);
	r->status = tsr_error_set(&r->error, TSR_ERR_PARSE, "'%s' line %llu: %s", r->path,
				  (unsigned long long)r->lineno, problem);
	r->pos = r->len;
	return r->status;
}

enum tsr_status tsr_trace_reader_fail(struct tsr_trace_reader *r, enum tsr_status s,
				      const char *fmt, ...)
{
	if (r->status)
		return r->status;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->error.msg, sizeof(r->error.msg), fmt, ap);
	va_end(ap);
	r->status = s;
	r->pos = r->len;  /* nothing after an error is decoded */
	return s;
}

static enum tsr_status truncated(struct tsr_trace_reader *r)
{
	return tsr_trace_reader_fail(r, TSR_ERR_PARSE, "'%s' is truncated (after %llu records)",
			   r->path, (unsigned long long)r->count);
}

/*
 * Decompresses until buf holds at least `need` pending bytes (need <=
 * RBUF_CAP) or no more will come (src_done: the file or the frame ended).
 */
static enum tsr_status fill(struct tsr_trace_reader *r, size_t need)
{
	size_t avail = r->len - r->pos;
	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, avail);
		r->pos = 0;
		r->len = avail;
	}
	while (r->len < need && !r->src_done) {
		if (r->in_pos == r->in_len) {
			size_t n = fread(r->in, 1, r->in_cap, r->f);
			if (n == 0) {
				if (ferror(r->f))
					return tsr_trace_reader_fail(r, TSR_ERR_IO, "cannot read trace '%s': %s",
							   r->path, strerror(errno ? errno : EIO));
				r->src_done = 1;  /* the file ends inside the frame */
				break;
			}
			r->in_len = n;
			r->in_pos = 0;
		}
		ZSTD_inBuffer zi = {r->in, r->in_len, r->in_pos};
		ZSTD_outBuffer zo = {r->buf, r->buf_cap, r->len};
		size_t ret = ZSTD_decompressStream(r->dctx, &zo, &zi);
		if (ZSTD_isError(ret))
			return tsr_trace_reader_fail(r, TSR_ERR_PARSE, "'%s' is corrupt: %s", r->path,
					   ZSTD_getErrorName(ret));
		r->in_pos = zi.pos;
		r->len = zo.pos;
		if (ret == 0) {  /* the frame is complete and its checksum verified */
			r->frame_done = 1;
			r->src_done = 1;
			if (r->in_pos < r->in_len || fread(r->in, 1, 1, r->f) == 1)
				return tsr_trace_reader_fail(r, TSR_ERR_PARSE,
						   "'%s' is corrupt: data after the zstd frame",
						   r->path);
		}
	}
	return TSR_OK;
}

static enum tsr_status open_binary(struct tsr_trace_reader *r)
{
	r->binary = 1;
	r->dctx = ZSTD_createDCtx();
	r->buf_cap = RBUF_CAP;
	r->buf = malloc(r->buf_cap);
	if (!r->dctx || !r->buf)
		return tsr_trace_reader_fail(r, TSR_ERR_NOMEM, "out of memory for trace '%s'", r->path);

	TSR_TRY(fill(r, HEADER_BYTES));
	size_t avail = r->len;
	if (avail < 8 && !r->frame_done)
		return truncated(r);
	if (avail < 8 || memcmp(r->buf, TRACE_MAGIC, 8) != 0)
		return tsr_trace_reader_fail(r, TSR_ERR_PARSE, "'%s' is not a tessera trace", r->path);
	if (avail < HEADER_BYTES)
		return truncated(r);
	uint32_t version = get_le32(r->buf + 8);
	if (version < TSR_TRACE_VERSION_MIN || version > TSR_TRACE_VERSION)
		return tsr_trace_reader_fail(r, TSR_ERR_PARSE,
				   "'%s': trace version %u is not supported (this tessera reads versions %d to %d)",
				   r->path, (unsigned)version, TSR_TRACE_VERSION_MIN, TSR_TRACE_VERSION);
	r->version = version;
	uint32_t dlen = get_le32(r->buf + 12);
	if (dlen > DESC_MAX)
		return tsr_trace_reader_fail(r, TSR_ERR_PARSE,
				   "'%s' is corrupt: description of %u bytes (at most %u)",
				   r->path, (unsigned)dlen, DESC_MAX);
	TSR_TRY(fill(r, HEADER_BYTES + dlen));
	if (r->len < HEADER_BYTES + dlen)
		return truncated(r);
	r->description = malloc((size_t)dlen + 1);
	if (!r->description)
		return tsr_trace_reader_fail(r, TSR_ERR_NOMEM, "out of memory for trace '%s'", r->path);
	memcpy(r->description, r->buf + HEADER_BYTES, dlen);
	r->description[dlen] = '\0';
	r->pos = HEADER_BYTES + dlen;
	return TSR_OK;
}

static enum tsr_status open_text(struct tsr_trace_reader *r, size_t n)
{
	/* a NUL in the first line: some other binary file */
	const uint8_t *nl = memchr(r->in, '\n', n);
	if (memchr(r->in, '\0', nl ? (size_t)(nl - r->in) : n))
		return tsr_trace_reader_fail(r, TSR_ERR_PARSE,
				   "'%s' is neither a binary (zstd) nor a text trace", r->path);
	if (fseek(r->f, 0, SEEK_SET) != 0)
		return tsr_trace_reader_fail(r, TSR_ERR_IO, "cannot read trace '%s': %s", r->path,
				   strerror(errno));
	r->description = calloc(1, 1);
	if (!r->description)
		return tsr_trace_reader_fail(r, TSR_ERR_NOMEM, "out of memory for trace '%s'", r->path);
	return TSR_OK;
}

enum tsr_status tsr_trace_reader_open(const char *path, struct tsr_trace_reader **out,
				      struct tsr_error *err)
{
	return tsr_trace_reader_open_format(path, NULL, out, err);
}

/*
 * Opens a text file as `kind` (detected when TSR_TRACE_FMT_AUTO): n
 * bytes of its start are in r->in.
 */
static enum tsr_status open_text_as(struct tsr_trace_reader *r, size_t n,
				    enum tsr_trace_format_kind kind)
{
	if (kind == TSR_TRACE_FMT_AUTO) {
		int csv;
		kind = tsr_trace_lcs_detect_text(r->in, n, &csv);
		if (kind == TSR_TRACE_FMT_TESSERA && csv)
			return tsr_trace_reader_fail(r, TSR_ERR_PARSE,
					   "'%s' looks like a CSV trace: name its columns (--format "
					   "csv --trace-params obj-id-col=N[,...])", r->path);
	}
	if (kind == TSR_TRACE_FMT_TESSERA)
		return open_text(r, n);
	return tsr_trace_lcs_open(r, kind);
}

enum tsr_status tsr_trace_reader_open_format(const char *path, const struct tsr_trace_format *f,
					     struct tsr_trace_reader **out,
					     struct tsr_error *err)
{
	*out = NULL;
	const enum tsr_trace_format_kind kind = f ? f->kind : TSR_TRACE_FMT_AUTO;
	const uint32_t line = f && f->line_bytes ? f->line_bytes : 64;
	if (line < 4 || line > 65536 || (line & (line - 1)))
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "line size %u is not a power of two from 4 to 65536 bytes", line);
	struct tsr_trace_reader *r = calloc(1, sizeof(*r));
	size_t plen = strlen(path);
	if (!r || !(r->path = malloc(plen + 1))) {
		free(r);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for trace '%s'", path);
	}
	memcpy(r->path, path, plen + 1);
	r->max_records = r->fast_until = TSR_LIMIT_TRACE_RECORDS;
	if (f)
		r->fmt = *f;
	if (!r->fmt.delimiter)
		r->fmt.delimiter = ',';
	if (!f)
		r->fmt.has_header = -1, r->fmt.obj_id_is_num = 1;
	while ((1u << r->line_shift) < line)
		r->line_shift++;
	r->format = TSR_TRACE_FMT_TESSERA;
	enum tsr_status s = TSR_OK;
	r->in_cap = ZSTD_DStreamInSize();
	r->in = malloc(r->in_cap);
	if (!r->in)
		s = tsr_trace_reader_fail(r, TSR_ERR_NOMEM, "out of memory for trace '%s'", path);
	if (!s && !(r->f = fopen(path, "rb")))
		s = tsr_trace_reader_fail(r, TSR_ERR_IO, "cannot open trace '%s': %s", path, strerror(errno));
	if (!s) {
		/* the first chunk tells the forms apart */
		size_t n = fread(r->in, 1, r->in_cap, r->f);
		static const uint8_t zmagic[4] = {0x28, 0xb5, 0x2f, 0xfd};
		const uint8_t *nl = n ? memchr(r->in, '\n', n) : NULL;
		const int nul = n && memchr(r->in, '\0', nl ? (size_t)(nl - r->in) : n) != NULL;
		struct stat st = {0};
		const int og_size = fstat(fileno(r->f), &st) == 0 && S_ISREG(st.st_mode) &&
				    st.st_size % 24 == 0;
		if (ferror(r->f))
			s = tsr_trace_reader_fail(r, TSR_ERR_IO, "cannot read trace '%s': %s", path,
					strerror(errno ? errno : EIO));
		else if (kind == TSR_TRACE_FMT_ORACLE_GENERAL || kind == TSR_TRACE_FMT_CSV ||
			 (kind == TSR_TRACE_FMT_AUTO && nul && og_size &&
			  !(n >= 4 && get_le32(r->in) == ZSTD_MAGICNUMBER)))
			s = tsr_trace_lcs_open(r, kind == TSR_TRACE_FMT_AUTO
							  ? TSR_TRACE_FMT_ORACLE_GENERAL : kind);
		else if (kind == TSR_TRACE_FMT_TXT)
			s = open_text_as(r, n, kind);
		else if (n >= 4 && get_le32(r->in) == ZSTD_MAGICNUMBER) {
			r->in_len = n;
			unsigned long long cs = ZSTD_getFrameContentSize(r->in, n);
			if (cs != ZSTD_CONTENTSIZE_UNKNOWN && cs != ZSTD_CONTENTSIZE_ERROR) {
				r->content_bytes = cs;  /* checked by the first read */
				r->fast_until = 0;
			}
			s = open_binary(r);
		} else if (n > 0 && n < 4 && memcmp(r->in, zmagic, n) == 0)
			s = truncated(r);  /* a binary trace cut inside the magic */
		else if (nul && kind == TSR_TRACE_FMT_AUTO)
			s = tsr_trace_reader_fail(r, TSR_ERR_PARSE,
					"'%s' is neither a binary (zstd) nor a text trace, nor "
					"oracleGeneral (%llu bytes: record %llu would be truncated, "
					"%llu of 24 bytes); name its format with --format",
					r->path, (unsigned long long)st.st_size,
					(unsigned long long)(st.st_size / 24 + 1),
					(unsigned long long)(st.st_size % 24));
		else
			s = open_text_as(r, n, kind);
	}
	if (s) {
		if (err)
			*err = r->error;
		tsr_trace_reader_close(r);
		return s;
	}
	*out = r;
	return TSR_OK;
}

void tsr_trace_reader_copy_description(const struct tsr_trace_reader *r, char *buf, size_t n)
{
	const char *d = r->description;
	size_t dlen = strlen(d);
	if (dlen >= n) {
		dlen = n - 1;
		while (dlen > 0 && ((uint8_t)d[dlen] & 0xc0) == 0x80)
			dlen--;
	}
	memcpy(buf, d, dlen);
	buf[dlen] = '\0';
}

int tsr_trace_reader_binary(const struct tsr_trace_reader *r)
{
	return r->binary;
}

const char *tsr_trace_reader_description(const struct tsr_trace_reader *r)
{
	return r->description;
}

static enum tsr_status varint_error(struct tsr_trace_reader *r, int e)
{
	if (e == VARINT_SHORT)
		return truncated(r);  /* only once no more data will come */
	return tsr_trace_reader_fail(r, TSR_ERR_PARSE, "'%s' is corrupt: record %llu has a varint over 10 bytes",
			   r->path, (unsigned long long)r->count);
}

/* Checks what follows the end record: nothing, then the frame's end. */
static enum tsr_status finish(struct tsr_trace_reader *r)
{
	TSR_TRY(fill(r, 1));
	if (r->len > r->pos)
		return tsr_trace_reader_fail(r, TSR_ERR_PARSE, "'%s' is corrupt: data after the end record",
				   r->path);
	if (!r->frame_done)
		return truncated(r);  /* e.g. the checksum is missing */
	return TSR_OK;
}

/* Any record, refilling buf first if needed; reports every error. */
static enum tsr_status read_record(struct tsr_trace_reader *r, struct tsr_trace_record *rec,
				   int *eof)
{
	if (r->len - r->pos < REC_MAX && !r->src_done)
		TSR_TRY(fill(r, REC_MAX));
	const uint8_t *p = r->buf + r->pos, *end = r->buf + r->len;
	if (p == end)
		return truncated(r);
	uint8_t tag = *p++;
	uint64_t v, size, stream, req, meta = 0;
	int e;
	switch (tag) {
	case TSR_TRACE_ACCESS | TAG_META:
	case TSR_TRACE_ACCESS | TAG_WRITE | TAG_META:
		if (r->version < 2)
			return tsr_trace_reader_fail(r, TSR_ERR_PARSE,
					   "'%s' is corrupt: record %llu has tag 0x%02x (meta needs version 2)",
					   r->path, (unsigned long long)r->count, (unsigned)tag);
		/* fall through */
	case TSR_TRACE_ACCESS:
	case TSR_TRACE_ACCESS | TAG_WRITE:
		if ((e = (end - p >= 8 ? get_varint_wide(&p, end, &v) : get_varint(&p, end, &v))) ||
		    (e = get_varint(&p, end, &size)) ||
		    (e = get_varint(&p, end, &stream)) || (e = get_varint(&p, end, &req)) ||
		    ((tag & TAG_META) && (e = get_varint(&p, end, &meta))))
			return varint_error(r, e);
		if (size > TSR_LIMIT_ACCESS_BYTES && size <= UINT32_MAX)
			return tsr_trace_reader_fail(r, TSR_ERR_PARSE,
					   "'%s' is corrupt: record %llu is an access of %llu bytes, "
					   "more than the limit of %u",
					   r->path, (unsigned long long)r->count,
					   (unsigned long long)size, TSR_LIMIT_ACCESS_BYTES);
		if (size == 0 || size > UINT32_MAX || stream >= TSR_STREAM_COUNT ||
		    req > UINT16_MAX || meta > UINT32_MAX)
			return tsr_trace_reader_fail(r, TSR_ERR_PARSE,
					   "'%s' is corrupt: record %llu has size %llu, stream %llu, requester %llu, meta %llu",
					   r->path, (unsigned long long)r->count,
					   (unsigned long long)size, (unsigned long long)stream,
					   (unsigned long long)req, (unsigned long long)meta);
		r->prev_addr += unzigzag(v);
		if (r->prev_addr + (size - 1) < r->prev_addr)
			return tsr_trace_reader_fail(r, TSR_ERR_PARSE,
					   "'%s' is corrupt: record %llu, an access of %llu bytes at "
					   "0x%llx, wraps past the end of the 64-bit address space",
					   r->path, (unsigned long long)r->count,
					   (unsigned long long)size, (unsigned long long)r->prev_addr);
		*rec = (struct tsr_trace_record){.addr = r->prev_addr, .size = (uint32_t)size,
						 .requester = (uint16_t)req,
						 .kind = TSR_TRACE_ACCESS,
						 .write = (uint8_t)((tag & TAG_WRITE) != 0),
						 .stream = (uint8_t)stream,
						 .meta = (uint32_t)meta};
		break;
	case TSR_TRACE_FRAME:
	case TSR_TRACE_TILE:
		if ((e = get_varint(&p, end, &v)))
			return varint_error(r, e);
		*rec = (struct tsr_trace_record){.addr = v, .kind = tag};
		break;
	case KIND_END:
		if ((e = get_varint(&p, end, &v)))
			return varint_error(r, e);
		if (v != r->count)
			return tsr_trace_reader_fail(r, TSR_ERR_PARSE,
					   "'%s' is corrupt: the end record counts %llu records, not %llu",
					   r->path, (unsigned long long)v,
					   (unsigned long long)r->count);
		r->pos = (size_t)(p - r->buf);
		TSR_TRY(finish(r));
		r->ended = 1;
		*eof = 1;
		return TSR_OK;
	default:
		return tsr_trace_reader_fail(r, TSR_ERR_PARSE, "'%s' is corrupt: record %llu has tag 0x%02x",
				   r->path, (unsigned long long)r->count, (unsigned)tag);
	}
	r->pos = (size_t)(p - r->buf);
	r->count++;
	return TSR_OK;
}

/*
 * The common case: a valid access with a whole record's worth of bytes
 * pending. Returns 0 (and leaves r untouched) for anything else, which
 * read_record() then handles.
 */
static inline int read_access_fast(struct tsr_trace_reader *r, struct tsr_trace_record *rec)
{
	const uint8_t *p = r->buf + r->pos, *end = r->buf + r->len;
	if (end - p < (ptrdiff_t)REC_MAX || (*p & ~(TAG_WRITE | TAG_META)) != TSR_TRACE_ACCESS ||
	    ((*p & TAG_META) && r->version < 2))
		return 0;
	uint8_t tag = *p++;
	uint64_t v, size, stream, req, meta = 0;
	/* REC_MAX bytes pending: no varint can come short */
	if (get_varint_wide(&p, end, &v) || get_varint(&p, end, &size) ||
	    get_varint(&p, end, &stream) || get_varint(&p, end, &req) ||
	    ((tag & TAG_META) && get_varint(&p, end, &meta)))
		return 0;
	if (size - 1 >= TSR_LIMIT_ACCESS_BYTES || stream >= TSR_STREAM_COUNT ||
	    req > UINT16_MAX || meta > UINT32_MAX)
		return 0;
	if (r->prev_addr + unzigzag(v) + (size - 1) < r->prev_addr + unzigzag(v))
		return 0;  /* wraps past 2^64: the slow path reports it */
	r->prev_addr += unzigzag(v);
	*rec = (struct tsr_trace_record){.addr = r->prev_addr, .size = (uint32_t)size,
					 .requester = (uint16_t)req, .kind = TSR_TRACE_ACCESS,
					 .write = (uint8_t)((tag & TAG_WRITE) != 0),
					 .stream = (uint8_t)stream, .meta = (uint32_t)meta};
	r->pos = (size_t)(p - r->buf);
	r->count++;
	return 1;
}

enum tsr_status tsr_trace_read(struct tsr_trace_reader *r, struct tsr_trace_record *rec,
			       int *eof, struct tsr_error *err)
{
	*eof = 0;
	if (r->format != TSR_TRACE_FMT_TESSERA) {
		size_t n;
		enum tsr_status ls = tsr_trace_lcs_read_many(r, rec, NULL, 1, &n, eof);
		if (ls && err)
			*err = r->error;
		return ls;
	}
	if (r->binary && !r->status && r->count < r->fast_until && read_access_fast(r, rec))
		return TSR_OK;
	enum tsr_status s = r->status;
	if (!s && r->content_bytes) {
		/* a declared content size no trace of max_records records can have
		 * (each record at most REC_MAX bytes) is refused before decoding it */
		uint64_t most = HEADER_BYTES + DESC_MAX + (r->max_records + 1) * REC_MAX;
		if (r->max_records < UINT64_MAX / (2 * REC_MAX) && r->content_bytes > most)
			s = tsr_trace_reader_fail(r, TSR_ERR_LIMIT,
					"'%s' decompresses to %llu bytes, more than a trace of %llu "
					"records (the limit; cachesim and analyze: --max-records "
					"raises it) can take",
					r->path, (unsigned long long)r->content_bytes,
					(unsigned long long)r->max_records);
		r->content_bytes = 0;
		r->fast_until = r->max_records;
	}
	if (!s) {
		if (r->ended) {
			*eof = 1;
			return TSR_OK;
		}
		if (r->binary) {
			s = read_record(r, rec, eof);
		} else {
			s = tsr_trace_text_next(r, rec, eof);
			if (s)
				r->status = s;  /* the message is in r->error */
			else if (*eof)
				r->ended = 1;
			else
				r->count++;
		}
		if (!s && !*eof && r->count > r->max_records)
			s = tsr_trace_reader_fail(r, TSR_ERR_LIMIT,
					"'%s' has more than %llu records, the limit (cachesim and "
					"analyze: --max-records raises it)",
					r->path, (unsigned long long)r->max_records);
		if (!s)
			return TSR_OK;
	}
	if (err)
		*err = r->error;
	return s;
}

/*
 * read_access_fast() over a run of records (at most max, and no further
 * than fast_until), with the reader's position, address and count in
 * locals so that the stores of the records cannot make the compiler
 * reload them; stops before the first record it would not take, which
 * read_record() then handles. The size, stream and requester are usually
 * one byte each: then they are read together. Returns how many records
 * it decoded into recs.
 */
static size_t read_accesses_fast(struct tsr_trace_reader *r, struct tsr_trace_record *recs,
				 size_t max)
{
	const uint8_t *p = r->buf + r->pos;
	const uint8_t *const end = r->buf + r->len;
	const int meta_ok = r->version >= 2;
	uint64_t prev = r->prev_addr;
	if (max > r->fast_until - r->count)  /* count < fast_until: no wrap */
		max = (size_t)(r->fast_until - r->count);
	size_t k = 0;
	while (k < max && end - p >= (ptrdiff_t)REC_MAX) {
		const uint8_t tag = *p;
		if ((tag & ~(TAG_WRITE | TAG_META)) != TSR_TRACE_ACCESS ||
		    ((tag & TAG_META) && !meta_ok))
			break;
		const uint8_t *q = p + 1;
		uint64_t v, size, stream, req, meta = 0;
		/* REC_MAX bytes pending: no varint can come short */
		if (get_varint_wide(&q, end, &v))
			break;
		if (((q[0] | q[1] | q[2]) & 0x80) == 0) {
			size = q[0];
			stream = q[1];
			req = q[2];
			q += 3;
		} else if (get_varint(&q, end, &size) || get_varint(&q, end, &stream) ||
			   get_varint(&q, end, &req)) {
			break;
		}
		if ((tag & TAG_META) && get_varint(&q, end, &meta))
			break;
		if (size - 1 >= TSR_LIMIT_ACCESS_BYTES || stream >= TSR_STREAM_COUNT ||
		    req > UINT16_MAX || meta > UINT32_MAX)
			break;
		const uint64_t addr = prev + unzigzag(v);
		if (addr + (size - 1) < addr)
			break;  /* wraps past 2^64: the slow path reports it */
		prev = addr;
		recs[k++] = (struct tsr_trace_record){.addr = addr, .size = (uint32_t)size,
						      .requester = (uint16_t)req,
						      .kind = TSR_TRACE_ACCESS,
						      .write = (uint8_t)((tag & TAG_WRITE) != 0),
						      .stream = (uint8_t)stream,
						      .meta = (uint32_t)meta};
		p = q;
	}
	r->pos = (size_t)(p - r->buf);
	r->prev_addr = prev;
	r->count += k;
	return k;
}

enum tsr_status tsr_trace_read_many(struct tsr_trace_reader *r, struct tsr_trace_record *recs,
				    size_t max, size_t *n, int *eof, struct tsr_error *err)
{
	size_t k = 0;
	*eof = 0;
	if (r->format != TSR_TRACE_FMT_TESSERA)
		return tsr_trace_read_many_next(r, recs, NULL, max, n, eof, err);
	while (k < max) {
		/* the common case in runs; anything else (markers, a refill, the
		 * first record, errors) through tsr_trace_read() */
		if (r->binary && !r->status && r->count < r->fast_until) {
			k += read_accesses_fast(r, &recs[k], max - k);
			if (k == max)
				break;
		}
		enum tsr_status s = tsr_trace_read(r, &recs[k], eof, err);
		if (s || *eof) {
			*n = k;
			return s;
		}
		k++;
	}
	*n = k;
	return TSR_OK;
}

enum tsr_status tsr_trace_read_many_next(struct tsr_trace_reader *r,
					 struct tsr_trace_record *recs, uint64_t *next,
					 size_t max, size_t *n, int *eof, struct tsr_error *err)
{
	if (r->format == TSR_TRACE_FMT_TESSERA) {
		enum tsr_status s = tsr_trace_read_many(r, recs, max, n, eof, err);
		for (size_t i = 0; next && i < *n; i++)
			next[i] = UINT64_MAX;
		return s;
	}
	/* the lcs readers stop short of max only at the end or an error */
	size_t k = 0;
	enum tsr_status s = TSR_OK;
	*eof = 0;
	while (k < max && !*eof && s == TSR_OK) {
		size_t got;
		s = tsr_trace_lcs_read_many(r, recs + k, next ? next + k : NULL, max - k, &got, eof);
		k += got;
	}
	*n = k;
	if (s && err)
		*err = r->error;
	return s;
}

enum tsr_trace_format_kind tsr_trace_reader_format(const struct tsr_trace_reader *r)
{
	return r->format;
}

int tsr_trace_reader_has_next(const struct tsr_trace_reader *r)
{
	return r->format == TSR_TRACE_FMT_ORACLE_GENERAL ||
	       (r->format == TSR_TRACE_FMT_CSV && r->fmt.next_col);
}

void tsr_trace_reader_set_max_records(struct tsr_trace_reader *r, uint64_t max_records)
{
	r->max_records = max_records;
	r->fast_until = r->content_bytes ? 0 : max_records;
}

void tsr_trace_reader_close(struct tsr_trace_reader *r)
{
	if (!r)
		return;
	if (r->f)
		fclose(r->f);
	ZSTD_freeDCtx(r->dctx);
	free(r->in);
	free(r->buf);
	free(r->line);
	free(r->description);
	free(r->path);
	free(r);
}

/* ---- whole traces ---- */

enum tsr_status tsr_trace_load(const char *path, struct tsr_trace *out,
			       struct tsr_error *err)
{
	return tsr_trace_load_max(path, 0, out, err);
}

enum tsr_status tsr_trace_load_max(const char *path, uint64_t max_records,
				   struct tsr_trace *out, struct tsr_error *err)
{
	return tsr_trace_load_format(path, NULL, max_records, out, err);
}

enum tsr_status tsr_trace_load_format(const char *path, const struct tsr_trace_format *f,
				      uint64_t max_records, struct tsr_trace *out,
				      struct tsr_error *err)
{
	memset(out, 0, sizeof(*out));
	struct tsr_trace_reader *r;
	TSR_TRY(tsr_trace_reader_open_format(path, f, &r, err));
	if (max_records)
		tsr_trace_reader_set_max_records(r, max_records);

	tsr_trace_reader_copy_description(r, out->description, sizeof(out->description));

	uint32_t cap = 0;
	enum tsr_status s = TSR_OK;
	for (;;) {
		if (out->count == cap) {
			char what[512];
			snprintf(what, sizeof(what), "trace '%.400s' (%zu records so far)", path,
				 out->count);
			s = tsr_memory_check(what, (uint64_t)(cap ? 2ull * cap : 16) *
						   sizeof(*out->records), err);
			if (s)
				break;
			/* tsr_array_grow counts in uint32_t and doubles: stop at 2^31 */
			void *p = cap < (1u << 31)
					  ? tsr_array_grow(out->records, &cap, (uint32_t)out->count + 1,
							   sizeof(*out->records))
					  : NULL;
			if (!p) {
				s = tsr_error_set(err, TSR_ERR_NOMEM,
						  "out of memory for trace '%s' (%zu records)", path,
						  out->count);
				break;
			}
			out->records = p;
		}
		/* straight into the array, as many records as it has room for */
		int eof;
		size_t got;
		s = tsr_trace_read_many(r, &out->records[out->count], cap - out->count, &got, &eof,
					err);
		for (size_t i = 0; i < got; i++)
			out->accesses += out->records[out->count + i].kind == TSR_TRACE_ACCESS;
		out->count += got;
		if (s || eof)
			break;
	}
	tsr_trace_reader_close(r);
	if (s)
		tsr_trace_release(out);
	return s;
}

void tsr_trace_release(struct tsr_trace *t)
{
	free(t->records);
	memset(t, 0, sizeof(*t));
}
