/*
 * report.h - tessera's output files: stats.json (stats_json.c),
 * frames.csv (csv.c) and PNG images of rendered frames (png.c), all
 * written through an output transaction (output.c).
 *
 * Every regular file is written under a temporary name beside the file
 * it replaces (<target>.tmp, symbolic links followed) and renamed into
 * place by tsr_output_commit(), so a failed run leaves no partial output:
 * tsr_output_abort() removes the temporaries. FIFOs, character devices
 * and standard output ("-") are written directly, once, at commit.
 */
#ifndef TSR_REPORT_REPORT_H
#define TSR_REPORT_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"
#include "energy/energy.h"
#include "framestats/stats.h"
#include "memory/addrmap.h"
#include "memory/memsys.h"

/*
 * stats.json, built as frames complete (jansson stays inside report/):
 * create, add each frame's counters, then render the document with the
 * effective configuration, the workload, the address map and the total.
 * The format is described in docs/statistics.md: cache names come
 * from the memory hierarchy; streams with all counters zero are left out
 * of a cache's object, "all" is always present.
 */
struct tsr_stats_json;
struct tsr_gpu_config;

/* What stats.json says about the workload ("workload": {...}). */
struct tsr_stats_workload {
	const char *path;     /* the file rendered */
	const char *name;     /* the workload's name ("" if none) */
	uint32_t frames;      /* frames rendered (simulated fully) */
	uint32_t meshes, materials, images;
	const char *selected; /* `run --frames LIST`: the frames simulated fully (stats.json's
	                         workload "selected_frames", with "fast_forwarded_frames"
	                         below); NULL: every frame from 0 (neither key written) */
	uint32_t fast_forwarded; /* frames rendered functionally only (tsr_gpu_set_fast_forward()) */
	const char *sample;   /* `run --sample`: a JSON object's text written as stats.json's
	                         "sample" (the estimate's clusters and error bounds); NULL: none */
};

/*
 * Starts a stats.json for the caches of mem and `cores` shader cores
 * (per-core counters have that many entries); with the timing model on,
 * the "timing" objects also get frames_per_second at gpu_mhz and
 * mean_memory_latency (cycles). Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_stats_json_create(const struct tsr_memsys *mem, uint32_t cores,
				      uint32_t gpu_mhz, struct tsr_stats_json **out,
				      struct tsr_error *err);

/*
 * With the timing model on, every "timing" object's statistics object
 * also gets "energy" (energy/energy.h): total_nj, dynamic_nj, static_nj,
 * per_frame_nj and "components" (dynamic_nj, static_nj, total_nj each),
 * by model e (kept, not owned; NULL: none).
 */
void tsr_stats_json_set_energy(struct tsr_stats_json *j, const struct tsr_energy *e);

/* Frames per second of `frames` frames taking `cycles` GPU cycles at gpu_mhz
 * (0 when cycles is 0). */
double tsr_frames_per_second(uint64_t frames, uint64_t cycles, uint32_t gpu_mhz);

/* Appends frame fs->frame's counters to "frames". Errors: TSR_ERR_NOMEM. */
enum tsr_status tsr_stats_json_add_frame(struct tsr_stats_json *j,
					 const struct tsr_frame_stats *fs, struct tsr_error *err);

/*
 * Renders the document: tessera_version, config (every key, as
 * tsr_config_entries() lists them, in the file format), workload,
 * address_map, the frames added so far, total. *text is NUL-terminated;
 * free() it. Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_stats_json_render(struct tsr_stats_json *j,
				      const struct tsr_gpu_config *cfg,
				      const struct tsr_stats_workload *w,
				      const struct tsr_addrmap *map,
				      const struct tsr_frame_stats *total, char **text,
				      struct tsr_error *err);

/* Frees j and the frames it holds (NULL is fine). */
void tsr_stats_json_destroy(struct tsr_stats_json *j);

/*
 * One statistics object alone (a frame's or the total's, as in
 * stats.json's "frames" and "total") as JSON text, reals with 17
 * significant digits so that they parse back exactly (stats.json keeps
 * 10); free() *text. Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_stats_object_text(const struct tsr_frame_stats *s,
				      const struct tsr_memsys *mem, uint32_t cores,
				      char **text, struct tsr_error *err);

/*
 * The header line and one row of frames.csv (no trailing newline): the
 * frame, every scalar counter of the groups (stats/counters.h) as
 * group.name, then per configured cache instance (its per-core copies
 * summed) accesses and misses, DRAM bytes and memory accesses. The
 * counters flagged TSR_CTR_OPTIN are columns only with opt_in (the run
 * counts them: stats.texture_footprint).
 */
void tsr_csv_header(char *buf, size_t n, const struct tsr_memsys *mem, int opt_in);
void tsr_csv_row(char *buf, size_t n, const struct tsr_frame_stats *s,
		 const struct tsr_memsys *mem, int opt_in);

/*
 * A set of output files written all or nothing: tsr_output_plan() declares
 * the outputs before the run, so that two outputs naming the same file,
 * or an output that is a folder, fail before any work; the writes follow;
 * tsr_output_commit() puts them all in place once the run succeeded, and
 * tsr_output_abort() takes back what the transaction made. Each output is
 * resolved to where its bytes land:
 * - a regular file, a missing one, or a symbolic link to either (chains
 *   too): the file the links lead to (the target) is written as
 *   <target>.tmp beside it, and commit renames that over the target, so
 *   that a link stays a link; an existing target is kept as
 *   <target>.old.tmp until every rename succeeded;
 * - a FIFO or a character device (through links too): no temporary and
 *   no rename; commit opens the path (no creation) and writes the bytes
 *   once, before any rename (a trace, written as the run goes, is the
 *   exception: tsr_output_file());
 * - "-" planned with TSR_OUTPUT_STDOUT: standard output, written at commit
 *   like a FIFO;
 * - a folder, a block device or a socket: an error.
 * Nothing is created, renamed or removed but the outputs, their
 * temporaries and backups beside their targets, and the folders
 * tsr_output_open() made. Zero-initialised, it can be aborted; its fields
 * are the transaction's own.
 */
struct tsr_output_file;
struct tsr_output {
	char *dir;                      /* the output folder, or NULL */
	struct tsr_output_file **files; /* the outputs planned or written, in order */
	uint32_t count;
	char **created;            /* folders tsr_output_open() made, outermost first */
	uint32_t ncreated;
	struct tsr_png_writer *png; /* tsr_output_png_async()'s background write, or NULL */
};

/* tsr_output_plan()'s flags */
#define TSR_OUTPUT_IN_DIR 1u /* the path is a name inside the output folder */
#define TSR_OUTPUT_STDOUT 2u /* "-" is standard output (an output of text) */

/*
 * Starts a transaction whose outputs are in folder dir, created (and
 * parents) if needed; dir NULL: none, every output is a path as given.
 * Errors: TSR_ERR_CONFIG (dir is ""), TSR_ERR_IO, TSR_ERR_NOMEM.
 */
enum tsr_status tsr_output_open(struct tsr_output *o, const char *dir,
				struct tsr_error *err);

/*
 * Declares an output before the run: `path` inside the output folder
 * (flag TSR_OUTPUT_IN_DIR) or as given (a trace elsewhere, a --csv FILE);
 * with TSR_OUTPUT_STDOUT, "-" is standard output. Errors: TSR_ERR_CONFIG
 * (a usage error) when it is, or leads to, a folder, a block device or a
 * socket, when its temporary is a folder, when its links loop, or when it
 * names the same file as an output declared before (the message names
 * both; a character device may take several outputs); TSR_ERR_NOMEM.
 */
enum tsr_status tsr_output_plan(struct tsr_output *o, const char *path, unsigned flags,
				struct tsr_error *err);

/*
 * An output whose bytes someone else writes (a trace) at path (planned or
 * not; not inside the folder): *where is where to write them, valid until
 * commit or abort: the temporary for a file (commit renames it, abort
 * removes it), path itself for a FIFO or a device (written directly, as
 * the writer goes; commit and abort do nothing to it). Errors: those of
 * tsr_output_plan(), TSR_ERR_CONFIG when it is standard output or is
 * written twice.
 */
enum tsr_status tsr_output_file(struct tsr_output *o, const char *path, const char **where,
				struct tsr_error *err);

/*
 * Writes bytes as output <dir>/<name> (name alone without a folder):
 * to its temporary, or kept in memory until commit for a FIFO, a device or
 * standard output. An output not planned is resolved now. Errors:
 * TSR_ERR_IO naming the file (a full disk included), TSR_ERR_CONFIG (as
 * tsr_output_plan(); written twice), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_output_write(struct tsr_output *o, const char *name,
				 const void *data, size_t size,
				 struct tsr_error *err);

/*
 * The frames whose images are written: "all", "none", "last" or a
 * comma-separated list of frame numbers ("0,5,9"), the grammar of
 * `tessera run --dump-frames` and of the driver's TESSERA_DUMP_FRAMES.
 */
enum tsr_frames_kind { TSR_FRAMES_ALL, TSR_FRAMES_NONE, TSR_FRAMES_LAST, TSR_FRAMES_LIST };
struct tsr_frame_list {
	enum tsr_frames_kind kind;
	uint8_t *listed;  /* TSR_FRAMES_LIST: 1 at each frame listed (owned) */
	uint32_t n;       /* its length: the largest frame listed + 1 */
};

/*
 * Parses spec (NULL: "all") into *out (release it with
 * tsr_frame_list_release()). Errors: TSR_ERR_CONFIG "'<spec>': item '<x>'
 * is not a frame number ..." (the caller names the option), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_frame_list_parse(const char *spec, struct tsr_frame_list *out,
				     struct tsr_error *err);

/* Whether frame `frame` of a run of `frames` frames is in l ("last" needs frames). */
bool tsr_frame_list_has(const struct tsr_frame_list *l, uint32_t frame, uint32_t frames);

/* Frees what tsr_frame_list_parse() allocated; l becomes "all". */
void tsr_frame_list_release(struct tsr_frame_list *l);

/* Encodes an RGBA8 image as output <dir>/<name> (PNG), as tsr_output_write()
 * writes bytes. Errors: TSR_ERR_IO, those of tsr_output_write(). */
enum tsr_status tsr_output_png(struct tsr_output *o, const char *name,
			       uint32_t width, uint32_t height,
			       const uint8_t *rgba, struct tsr_error *err);

/*
 * tsr_output_png() on a background thread, so that encoding a frame
 * (zlib's deflate: about 0.04 s for 1960x768) overlaps the simulation of
 * the next one: the image (width x height x 4 bytes) is copied, and at
 * most one write is in flight (a second call first waits for the one
 * before). The file is the same as tsr_output_png()'s. Without a thread
 * it writes synchronously. Errors: those of tsr_output_png() (the previous
 * image's, reported here or by tsr_output_png_wait()), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_output_png_async(struct tsr_output *o, const char *name,
				     uint32_t width, uint32_t height,
				     const uint8_t *rgba, struct tsr_error *err);

/*
 * Waits for the write tsr_output_png_async() has in flight (none: returns
 * at once). tsr_output_commit() and tsr_output_abort() call it. Errors:
 * TSR_ERR_IO naming the image that could not be written.
 */
enum tsr_status tsr_output_png_wait(struct tsr_output *o, struct tsr_error *err);

/*
 * Checks that every temporary is there and every target is still a
 * regular file (or none); then writes the outputs that are FIFOs, devices
 * or standard output, in order, each once; then renames every temporary
 * into place and releases o, as one transaction: each file it replaces is
 * kept as <target>.old.tmp until all renames succeeded, and a failed
 * rename undoes the ones before it, so the files are all new or all as
 * they were (against failures the process sees; a power cut mid-commit
 * can still leave a mix). A failed write to a FIFO or device (ENOSPC on
 * /dev/full, EPIPE) comes before any rename: no file changes; the bytes
 * that FIFOs and devices got before cannot be taken back. Errors:
 * TSR_ERR_IO naming the output, TSR_ERR_NOMEM (o is kept: abort it).
 */
enum tsr_status tsr_output_commit(struct tsr_output *o, struct tsr_error *err);

/*
 * For tests (fault injection, as SQLite's test hooks): the n-th rename of
 * the next tsr_output_commit() fails with EIO (n >= 1; 0: none).
 */
void tsr_output_test_fail_rename(uint32_t n);

/* Removes every temporary not yet renamed and the folders open made (never a
 * FIFO, a device or a file in place); releases o. */
void tsr_output_abort(struct tsr_output *o);

#endif
