/*
 * replay.h - offline cache simulation: one pass over a line trace through
 * several caches of the same geometry with different replacement
 * policies, as the papers' offline simulators do (GSPC Section 2: "an
 * offline cache simulator which takes as input the sequence of load/store
 * accesses to the LLC"; boustrophedonic II-D and TCOR V-A for OPT/OPTPT).
 *
 * The trace is read, split into lines and annotated with next uses once
 * (cachesim/linetrace.h), then every access goes to every cache (the
 * caches are independent: tsr_replay() and tsr_replay_file() take each
 * cache through a stretch of the trace in turn); markers reach each
 * cache's policy at their positions. Counters are the caches' own
 * (memory/cache.h): reads, writes, read and write misses, write-backs of
 * dirty victims, bypasses. Lines still dirty at the end are not flushed
 * (they are not write-backs of the trace). tsr_replay() and
 * tsr_replay_file() run the caches of LRU, MRU, FIFO, NRU, SRRIP, BRRIP,
 * DRRIP and OPT through a replay-only model of them with the very same
 * counters (cachesim/replay_kernel.h, 2-2.6x faster); tsr_replay_caches()
 * always runs the caches themselves.
 */
#ifndef TSR_CACHESIM_REPLAY_H
#define TSR_CACHESIM_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "cachesim/linetrace.h"
#include "core/status.h"
#include "core/stream.h"
#include "memory/cache.h"

/* The counters one policy collected, per stream and in total. */
struct tsr_replay_result {
	char policy[TSR_POLICY_SPEC_MAX];
	struct tsr_cache_counters streams[TSR_STREAM_COUNT];
	struct tsr_cache_counters total;
};

/*
 * Called for every access a cache of the replay serves: cache index,
 * access index in the line trace, the access (tsr_line_access_full():
 * requester 0) and what it did.
 */
typedef void (*tsr_replay_visit)(void *ctx, uint32_t cache, size_t index,
				 const struct tsr_access *a,
				 const struct tsr_cache_outcome *o);

/*
 * Feeds every access of lt, in order, to each of the n caches (and every
 * marker to their policies), calling visit (may be NULL) after each
 * access. The caches' line size should be lt->line_bytes. Hot path:
 * allocates nothing.
 */
void tsr_replay_caches(const struct tsr_line_trace *lt, struct tsr_cache *const *caches,
		       uint32_t n, tsr_replay_visit visit, void *ctx);

/*
 * Creates n caches of geometry g, the i-th with policy spec policies[i],
 * into a new array *out (NULL on error, nothing left allocated). Errors:
 * TSR_ERR_GEOMETRY / TSR_ERR_CONFIG (bad geometry, unknown policy or
 * parameter, a spec longer than TSR_POLICY_SPEC_MAX - 1), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_replay_caches_create(const struct tsr_cache_geometry *g,
					 const char *const *policies, uint32_t n,
					 struct tsr_cache ***out, struct tsr_error *err);

/* Fills out[i] with the i-th cache's counters, per stream and in total. */
void tsr_replay_caches_results(struct tsr_cache *const *caches, const char *const *policies,
			       uint32_t n, struct tsr_replay_result *out);

/* Destroys the n caches of tsr_replay_caches_create() and the array (NULL: nothing). */
void tsr_replay_caches_destroy(struct tsr_cache **caches, uint32_t n);

/*
 * Replays lt through n caches of geometry g (whose line_bytes must equal
 * lt->line_bytes), the i-th with policy spec policies[i], and fills
 * out[i]. Errors: TSR_ERR_GEOMETRY / TSR_ERR_CONFIG (bad geometry, unknown
 * policy or parameter), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_replay(const struct tsr_line_trace *lt,
			   const struct tsr_cache_geometry *g,
			   const char *const *policies, uint32_t n,
			   struct tsr_replay_result *out, struct tsr_error *err);

/*
 * Streaming replay (what `tessera cachesim` runs). The trace file is read
 * record by record, split into lines and fed to the caches at once, so an
 * online policy replays a trace of any length in memory independent of
 * it (the caches, the reader's buffers, and a set of the distinct lines
 * for the count). When an offline policy (OPT, OPTPT) is among the specs,
 * and only then, a first pass over the file computes the next use of
 * every line access (a forward pass with a map from line to its last
 * access) into one 8-byte position per line access, and the second pass
 * replays with them; nothing else is held per access.
 */

/* What tsr_replay_file() read; plain data. */
struct tsr_replay_file_info {
	char description[256];    /* the trace's header description, truncated */
	size_t records;           /* records (accesses and markers) */
	size_t accesses;          /* line accesses replayed */
	size_t frames;            /* frame markers */
	uint64_t distinct_lines;  /* lines touched */
	uint64_t next_use_bytes;  /* bytes held for next uses (0 without an offline policy) */
	double prepare_seconds;   /* the next-use pass (0 without an offline policy) */
	double replay_seconds;    /* the replay pass, reading and splitting included */
	int reader_thread;        /* 1: a reader thread read and split the replay pass */
};

/*
 * Reads the trace at `path` (binary or text; at most max_records records,
 * 0: TSR_LIMIT_TRACE_RECORDS) straight into a line trace of line_bytes
 * lines, split as tsr_replay_file() splits it, without holding the
 * records: the same line trace as tsr_trace_load() + tsr_line_trace_build()
 * in less time and memory (16 bytes a line access, 4 more for one with a
 * meta, 24 a marker; the accesses are split straight into the trace's
 * arrays, whose room is reserved from a binary trace's file size and
 * grows by half without copying beyond it). With
 * next_uses 1 it computes next uses and distinct_lines
 * (tsr_line_trace_index()); with 0 it leaves every next use TSR_LINE_NEVER and
 * sets lt->no_next_uses (tsr_replay() then refuses OPT and OPTPT until
 * tsr_line_trace_index()), counting distinct_lines on the way. Fills
 * *info (may be NULL): description, records, accesses, frames, distinct
 * lines, next_use_bytes, and the seconds of reading (replay_seconds) and
 * of next uses (prepare_seconds). Errors: TSR_ERR_CONFIG (line size), those
 * of the trace reader (TSR_ERR_IO, TSR_ERR_PARSE, TSR_ERR_LIMIT), TSR_ERR_LIMIT
 * over the memory budget (core/limits.h) or over TSR_LINE_TRACE_MAX line
 * accesses, TSR_ERR_NOMEM; *out is empty on error.
 */
enum tsr_status tsr_line_trace_load(const char *path, uint64_t max_records, uint32_t line_bytes,
				    int next_uses, struct tsr_line_trace *out,
				    struct tsr_replay_file_info *info, struct tsr_error *err);

/*
 * tsr_line_trace_load() for a trace of the format fmt (trace/trace.h;
 * NULL: told by content; its line_bytes is line_bytes). Next uses are
 * computed as tsr_line_trace_load() computes them (a file's own next
 * accesses are not used). Errors: those of tsr_line_trace_load().
 */
enum tsr_status tsr_line_trace_load_format(const char *path, const struct tsr_trace_format *fmt,
					   uint64_t max_records, uint32_t line_bytes,
					   int next_uses, struct tsr_line_trace *out,
					   struct tsr_replay_file_info *info,
					   struct tsr_error *err);

/*
 * Replays the trace at `path` (binary or text, trace/trace.h; at most
 * max_records records, 0: TSR_LIMIT_TRACE_RECORDS) through n caches of
 * geometry g, the i-th with policy spec policies[i], streaming it as
 * described above, and fills out[i] and *info (may be NULL). With threads
 * > 1 a reader thread reads, decodes and splits the trace into blocks of
 * line accesses while the calling thread feeds them to the caches (a
 * ring of 16 blocks, 3.7 MB; on one thread when it cannot start): the
 * caches see the same accesses in the same order, so the counters do not
 * depend on threads. Counters are
 * identical to tsr_trace_load() + tsr_line_trace_build() + tsr_replay().
 * Errors: those of tsr_replay() and of the trace reader (TSR_ERR_IO,
 * TSR_ERR_PARSE, TSR_ERR_LIMIT), TSR_ERR_IO when the file changes between
 * the two passes, TSR_ERR_NOMEM.
 */
enum tsr_status tsr_replay_file(const char *path, uint64_t max_records,
				const struct tsr_cache_geometry *g,
				const char *const *policies, uint32_t n,
				unsigned threads, struct tsr_replay_result *out,
				struct tsr_replay_file_info *info, struct tsr_error *err);

/*
 * tsr_replay_file() for a trace of the format fmt (trace/trace.h; NULL:
 * told by content; its line_bytes is the geometry's). When the file
 * carries each request's next access (oracleGeneral; csv with
 * next-access-col) an offline policy takes the next uses from it and the
 * first pass is skipped: one pass, nothing held per access. Errors: those
 * of tsr_replay_file() and of the format's reader.
 */
enum tsr_status tsr_replay_file_format(const char *path, const struct tsr_trace_format *fmt,
				       uint64_t max_records, const struct tsr_cache_geometry *g,
				       const char *const *policies, uint32_t n, unsigned threads,
				       struct tsr_replay_result *out,
				       struct tsr_replay_file_info *info, struct tsr_error *err);

#endif
