/*
 * trace.h - memory-access traces: the input stream of one cache, recorded
 * during a full simulation and replayed offline (cachesim/replay.h,
 * analysis/analysis.h), as the papers' offline cache simulators do (GSPC
 * Section 2, boustrophedonic III, TCOR V-A).
 *
 * A trace is a sequence of records: accesses (address, size, read/write,
 * stream, requester, upper-level metadata) and markers for frame and tile
 * boundaries: everything a replacement policy sees of the cache's input,
 * so a replay reproduces the run's counters for every policy (tcor-l2
 * reads the Parameter Buffer metadata of memory/pb_meta.h and counts the
 * tile markers).
 *
 * Binary form (written by tsr_trace_writer_*): one zstd frame (with
 * zstd's content checksum) whose content is
 *   header:  "TSRTRACE" (8 bytes), version (u32 little-endian, 2),
 *            description length (u32 LE), description (UTF-8, not NUL
 *            terminated; e.g. "cache=l2 workload=... config=... frames=4")
 *   records: one tag byte then fields as LEB128 varints:
 *            tag bits 0-1 kind (0 access, 1 frame marker, 2 tile marker,
 *            3 end), bit 2 write, bit 3 meta (version 2: the access
 *            carries a non-zero meta);
 *            access: address delta from the previous access (zigzag),
 *            size, stream, requester, then meta if bit 3 is set (u32,
 *            struct tsr_access.meta; 0 when absent);
 *            marker: value (frame number or tile id);
 *            end: the number of records before it (the reader checks it).
 * Limits (core/limits.h): an access is 1 to 4096 bytes
 * (TSR_LIMIT_ACCESS_BYTES, the largest line); a reader returns at most
 * TSR_LIMIT_TRACE_RECORDS (200 M) records unless told otherwise
 * (tsr_trace_reader_set_max_records), counting while it streams, so a
 * trace that decompresses to more is refused before it fills memory; a
 * zstd frame that declares a content size no trace of that many records
 * can have is refused at the first read.
 * A file that ends before the end record is truncated; a zstd checksum or
 * format error is corruption; versions 1 (no meta: every access reads as
 * meta 0) and 2 are read, another version is refused. `zstdcat FILE`
 * shows the raw content.
 *
 * Text form (hand-made traces), one record per line:
 *   R 0x1f40 texture        a read (stream optional, default "other")
 *   W 0x80 pb_attributes    a write
 *   R 0x1f40 texture size=4 req=2   optional size (bytes, default 1) and requester
 *   R 0x80 pb_lists meta=0x40009   optional metadata (u32, default 0)
 *   F                       a frame boundary
 *   T 12                    a tile boundary (tile id)
 *   # ...                   a comment (also after a record)
 * Addresses are decimal or 0x hex. Errors name the file and line.
 *
 * tsr_trace_reader_open() tells the forms apart by the zstd magic number.
 */
#ifndef TSR_TRACE_TRACE_H
#define TSR_TRACE_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "memory/cache.h"

#define TSR_TRACE_VERSION 2      /* the version the writer writes */
#define TSR_TRACE_VERSION_MIN 1  /* the oldest version the reader reads */

enum tsr_trace_kind {
	TSR_TRACE_ACCESS = 0,  /* a memory access */
	TSR_TRACE_FRAME = 1,   /* a frame starts (value = frame number) */
	TSR_TRACE_TILE = 2,    /* a tile starts (value = tile id) */
};

/* One record; plain data. */
struct tsr_trace_record {
	uint64_t addr;       /* access: byte address; marker: its value */
	uint32_t size;       /* access: bytes (>= 1) */
	uint16_t requester;  /* access: issuing unit (shader core number, ...) */
	uint8_t kind;        /* enum tsr_trace_kind */
	uint8_t write;       /* access: 1 for a write */
	uint8_t stream;      /* access: enum tsr_stream */
	uint8_t pad[3];
	uint32_t meta;       /* access: upper-level metadata (struct tsr_access.meta) */
};

/* ---- writing (binary form) ---- */

struct tsr_trace_writer;

/*
 * Starts a binary trace at `path`, written to `path`.tmp until
 * tsr_trace_writer_close() commits it. `description` (may be NULL) goes
 * into the header. Errors: TSR_ERR_IO naming the file, TSR_ERR_NOMEM.
 */
enum tsr_status tsr_trace_writer_open(const char *path, const char *description,
				      struct tsr_trace_writer **out,
				      struct tsr_error *err);

/*
 * tsr_trace_writer_open() writing `path` itself: no temporary, and close
 * neither renames nor removes it (an output transaction's temporary, a
 * FIFO or a device: report/report.h's tsr_output_file() says where).
 * Errors: those of tsr_trace_writer_open().
 */
enum tsr_status tsr_trace_writer_open_direct(const char *path, const char *description,
					     struct tsr_trace_writer **out,
					     struct tsr_error *err);

/*
 * Appends one record. I/O errors are latched and reported by close, so
 * this can run in a cache observer. Allocates nothing per record.
 */
void tsr_trace_write(struct tsr_trace_writer *w, const struct tsr_trace_record *r);

/* Records written so far. */
uint64_t tsr_trace_writer_count(const struct tsr_trace_writer *w);

/*
 * Finishes the trace. With commit = 1 it writes the end record, flushes
 * and renames the file into place; with commit = 0 (or after an error) it
 * removes the temporary file (a direct writer: neither). Frees w. Errors: TSR_ERR_IO naming the file.
 */
enum tsr_status tsr_trace_writer_close(struct tsr_trace_writer *w, int commit,
				       struct tsr_error *err);

/*
 * A cache observer (memory/cache.h) that appends every access and marker
 * the cache sees to w: attach it with tsr_cache_set_observer() to record
 * a cache's input stream.
 */
struct tsr_cache_observer tsr_trace_observer(struct tsr_trace_writer *w);

/* ---- libCacheSim's trace formats (trace_lcs.c) ----
 *
 * The readers also read the three formats of libCacheSim
 * (github.com/1a1a11a/libCacheSim), the cache simulator of the caching
 * literature, so that both tools replay one file:
 *   oracleGeneral  24-byte little-endian records, no header: u32 time,
 *                  u64 object id, u32 object size (bytes), i64 next access
 *                  (the 1-based number of the next request to the same
 *                  object, -1 or INT64_MAX: none);
 *   txt            one object id a line (decimal or 0x hex);
 *   csv            delimited fields; which column holds the object id (and
 *                  optionally time, size, next access) is named by the
 *                  parameters libCacheSim's `-t` takes:
 *                  "obj-id-col=2,time-col=1,obj-size-col=3,
 *                  next-access-col=4,delimiter=,,has-header=true,
 *                  obj-id-is-num=true" (columns 1-based; delimiter ',' by
 *                  default, '\t' a tab; obj-id-is-num=false hashes the id
 *                  text, FNV-1a 64).
 * Every request becomes one read access of one whole line: address
 * object id x line_bytes, size line_bytes (libCacheSim run with
 * --ignore-obj-size 1 counts the same objects); object sizes are not
 * used, and ids that differ by a multiple of 2^64 / line_bytes share a
 * line; the stream is "other". Requests of size 0 are replayed
 * (libCacheSim skips them).
 * Errors name the file and the record (oracleGeneral) or line (txt, csv).
 */
enum tsr_trace_format_kind {
	TSR_TRACE_FMT_AUTO = 0,     /* by content (tsr_trace_reader_open_format()) */
	TSR_TRACE_FMT_TESSERA,      /* tessera's binary or text form */
	TSR_TRACE_FMT_ORACLE_GENERAL,
	TSR_TRACE_FMT_TXT,
	TSR_TRACE_FMT_CSV,
};

/* How to read a trace file; plain data, all zeros: by content, lines of 64 bytes. */
struct tsr_trace_format {
	enum tsr_trace_format_kind kind;
	uint32_t line_bytes;        /* object id -> address id * line_bytes (power of
				       two, 4..65536; 0: 64) */
	/* csv: 1-based columns, 0 none (obj_id_col is required) */
	uint32_t obj_id_col, time_col, size_col, next_col;
	char delimiter;             /* 0: ',' */
	int8_t has_header;          /* -1: a first line whose id is not a number is a
				       header; 0 no; 1 yes */
	uint8_t obj_id_is_num;      /* 1: the id is a number (default); 0: hashed text */
};

/*
 * Fills f from a format name ("oracleGeneral", "txt", "csv", "tessera",
 * "auto"; case-insensitive; NULL: auto) and libCacheSim's reader
 * parameters (NULL or "": none; see above), line_bytes 0. Errors:
 * TSR_ERR_CONFIG naming the unknown format or parameter, or csv without
 * obj-id-col.
 */
enum tsr_status tsr_trace_format_parse(const char *name, const char *params,
				       struct tsr_trace_format *f, struct tsr_error *err);

/* The name of a format kind ("oracleGeneral", ...). */
const char *tsr_trace_format_name(enum tsr_trace_format_kind kind);

/*
 * A writer of oracleGeneral records to `path`, written to `path`.tmp
 * until tsr_og_writer_close() commits it. Errors: TSR_ERR_IO naming the
 * file, TSR_ERR_NOMEM.
 */
struct tsr_og_writer;
enum tsr_status tsr_og_writer_open(const char *path, struct tsr_og_writer **out,
				   struct tsr_error *err);

/*
 * Appends one record: time (seconds), object id, size (bytes), next
 * (1-based number of the next request to the object, -1: none). I/O
 * errors are latched for close. Allocates nothing.
 */
void tsr_og_write(struct tsr_og_writer *w, uint32_t time, uint64_t obj_id, uint32_t size,
		  int64_t next);

/*
 * Flushes and renames into place (commit 1) or removes the temporary
 * (commit 0); frees w. Errors: TSR_ERR_IO naming the file.
 */
enum tsr_status tsr_og_writer_close(struct tsr_og_writer *w, int commit, struct tsr_error *err);

/* ---- reading (binary or text form) ---- */

struct tsr_trace_reader;

/*
 * Opens a trace, binary or text. Validates the binary header (magic,
 * version). Errors: TSR_ERR_IO (cannot open), TSR_ERR_PARSE (not a
 * trace, wrong version, corrupt header), each naming the file.
 */
enum tsr_status tsr_trace_reader_open(const char *path,
				      struct tsr_trace_reader **out,
				      struct tsr_error *err);

/* 1 for a binary (zstd) trace, 0 for a text trace. */
int tsr_trace_reader_binary(const struct tsr_trace_reader *r);

/* The header's description ("" for text traces). */
const char *tsr_trace_reader_description(const struct tsr_trace_reader *r);

/*
 * The description into buf (n >= 1 bytes), cut at a UTF-8 character
 * boundary to fit.
 */
void tsr_trace_reader_copy_description(const struct tsr_trace_reader *r, char *buf, size_t n);

/*
 * Reads the next record into rec. Sets *eof = 1 (and leaves rec
 * untouched) at the end of a complete trace. Errors: TSR_ERR_PARSE for a
 * truncated or corrupt binary trace or a malformed text line (naming the
 * file, and the line for text), TSR_ERR_IO.
 */
enum tsr_status tsr_trace_read(struct tsr_trace_reader *r,
			       struct tsr_trace_record *rec, int *eof,
			       struct tsr_error *err);

/*
 * Reads up to max records into recs[0 .. *n), as that many calls of
 * tsr_trace_read() would (same records, limits and errors) but faster:
 * for streaming replays. *n < max only at the end of the trace (*eof = 1)
 * or on an error, which comes after the *n records read before it.
 */
enum tsr_status tsr_trace_read_many(struct tsr_trace_reader *r, struct tsr_trace_record *recs,
				    size_t max, size_t *n, int *eof, struct tsr_error *err);

/*
 * Sets the most records r returns (default TSR_LIMIT_TRACE_RECORDS); one
 * more is TSR_ERR_LIMIT naming the file and the limit.
 */
void tsr_trace_reader_set_max_records(struct tsr_trace_reader *r, uint64_t max_records);

void tsr_trace_reader_close(struct tsr_trace_reader *r);

/*
 * tsr_trace_reader_open() for a format: f NULL or kind
 * TSR_TRACE_FMT_AUTO tells the formats apart by content (zstd magic:
 * tessera binary; a NUL byte in the first line and a size that is a
 * multiple of 24: oracleGeneral; a first line that is a number: txt; a
 * tessera record letter: tessera text; csv only when named). Errors: as
 * tsr_trace_reader_open(), TSR_ERR_PARSE for content no format fits
 * (naming the file and why), TSR_ERR_CONFIG for a bad line size.
 */
enum tsr_status tsr_trace_reader_open_format(const char *path, const struct tsr_trace_format *f,
					     struct tsr_trace_reader **out,
					     struct tsr_error *err);

/* The format r reads (never TSR_TRACE_FMT_AUTO). */
enum tsr_trace_format_kind tsr_trace_reader_format(const struct tsr_trace_reader *r);

/*
 * 1 when r's records carry the next access to the same object
 * (oracleGeneral; csv with next-access-col), so tsr_trace_read_many_next()
 * returns them: each record is then one line access, and an offline
 * replay needs no pass of its own to find next uses.
 */
int tsr_trace_reader_has_next(const struct tsr_trace_reader *r);

/*
 * tsr_trace_read_many() also filling next[i] with the 0-based index of the
 * next record to the same object, or UINT64_MAX for none (the file's
 * field, trusted as libCacheSim trusts it; one not after its record is
 * TSR_ERR_PARSE naming the record). For readers without next accesses
 * every next[i] is UINT64_MAX.
 */
enum tsr_status tsr_trace_read_many_next(struct tsr_trace_reader *r,
					 struct tsr_trace_record *recs, uint64_t *next,
					 size_t max, size_t *n, int *eof, struct tsr_error *err);

/* ---- a whole trace in memory ---- */

/* Plain data: every record of a trace, in order. */
struct tsr_trace {
	struct tsr_trace_record *records;
	size_t count;          /* records (accesses and markers) */
	size_t accesses;       /* of which accesses */
	char description[256]; /* header description, truncated */
};

/*
 * Reads a whole trace (binary or text) into memory, at most
 * TSR_LIMIT_TRACE_RECORDS records. Errors: those of the reader;
 * TSR_ERR_LIMIT when the records would exceed the memory budget
 * (core/limits.h); TSR_ERR_NOMEM.
 */
enum tsr_status tsr_trace_load(const char *path, struct tsr_trace *out,
			       struct tsr_error *err);

/* tsr_trace_load() with another record limit (0: TSR_LIMIT_TRACE_RECORDS). */
enum tsr_status tsr_trace_load_max(const char *path, uint64_t max_records,
				   struct tsr_trace *out, struct tsr_error *err);

/* tsr_trace_load_max() for a format (NULL: by content). */
enum tsr_status tsr_trace_load_format(const char *path, const struct tsr_trace_format *f,
				      uint64_t max_records, struct tsr_trace *out,
				      struct tsr_error *err);

/* Frees what tsr_trace_load() allocated; the struct may be reused. */
void tsr_trace_release(struct tsr_trace *t);

#endif
