/*
 * report.h - tessera's output files: stats.json (stats_json.c),
 * frames.csv (csv.c) and PNG images of rendered frames (png.c), all
 * written through an output transaction (output.c).
 *
 * Every file is written under a temporary name (<path>.tmp) and renamed
 * into place by tsr_output_commit(), so a failed run leaves no partial
 * output: tsr_output_abort() removes the temporaries.
 */
#ifndef TSR_REPORT_REPORT_H
#define TSR_REPORT_REPORT_H

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
 * The format is described in the README ("Statistics"): cache names come
 * from the memory hierarchy; streams with all counters zero are left out
 * of a cache's object, "all" is always present.
 */
struct tsr_stats_json;
struct tsr_gpu_config;

/* What stats.json says about the workload ("workload": {...}). */
struct tsr_stats_workload {
	const char *path;     /* the file rendered */
	const char *name;     /* the workload's name ("" if none) */
	uint32_t frames;      /* frames rendered */
	uint32_t meshes, materials, images;
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
 * A set of output files written all or nothing: every file is written as
 * <path>.tmp and tsr_output_commit() renames them all into place once the
 * run succeeded; tsr_output_abort() removes the temporaries and the folders
 * open made. tsr_output_plan() declares the outputs before the run, so
 * that two outputs naming the same file, or an output that is a folder,
 * fail before any work. Zero-initialised, it can be aborted.
 */
struct tsr_output {
	char *dir;                 /* the output folder */
	char **names;              /* final paths of the files written (or adopted) so far */
	uint32_t count;
	char **planned, **shown;   /* planned outputs: resolved paths, paths as given */
	uint32_t nplanned, nshown;
	char **created;            /* folders tsr_output_open() made, outermost first */
	uint32_t ncreated;
	struct tsr_png_writer *png; /* tsr_output_png_async()'s background write, or NULL */
};

/* Creates dir (and parents) if needed. Errors: TSR_ERR_IO, TSR_ERR_NOMEM. */
enum tsr_status tsr_output_open(struct tsr_output *o, const char *dir,
				struct tsr_error *err);

/*
 * Declares an output before the run: `path` inside the output folder
 * (in_dir) or as given (a trace elsewhere). Errors: TSR_ERR_CONFIG (a usage
 * error) when it, or its temporary, is an existing folder, or when it names
 * the same file as an output declared before (the message names both);
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_output_plan(struct tsr_output *o, const char *path, int in_dir,
				struct tsr_error *err);

/*
 * Adds a file written by someone else as <path>.tmp (a trace): commit
 * renames it to path, abort removes it. Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_output_adopt(struct tsr_output *o, const char *path,
				 struct tsr_error *err);

/* Writes bytes to <dir>/<name>.tmp. Errors: TSR_ERR_IO, TSR_ERR_NOMEM. */
enum tsr_status tsr_output_write(struct tsr_output *o, const char *name,
				 const void *data, size_t size,
				 struct tsr_error *err);

/* Encodes an RGBA8 image as <dir>/<name>.tmp (PNG). Errors: TSR_ERR_IO. */
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
 * Checks that every temporary is there and no final path is a folder,
 * then renames every temporary into place and releases o, as one
 * transaction: each file it replaces is kept as <path>.old.tmp until all
 * renames succeeded, and a failed rename undoes the ones before it, so the
 * outputs are all new or all as they were (against failures the process
 * sees; a power cut mid-commit can still leave a mix). Errors:
 * TSR_ERR_IO, TSR_ERR_NOMEM (o is kept: abort it).
 */
enum tsr_status tsr_output_commit(struct tsr_output *o, struct tsr_error *err);

/*
 * For tests (fault injection, as SQLite's test hooks): the n-th rename of
 * the next tsr_output_commit() fails with EIO (n >= 1; 0: none).
 */
void tsr_output_test_fail_rename(uint32_t n);

/* Removes every temporary not yet renamed and the folders open made; releases o. */
void tsr_output_abort(struct tsr_output *o);

#endif
