/*
 * report.h - tessera's output files: stats.json, frames.csv and PNG
 * images of rendered frames.
 *
 * Every file is written under a temporary name (<path>.tmp) and renamed
 * into place by tsr_output_commit(), so a failed run leaves no partial
 * output: tsr_output_abort() removes the temporaries.
 */
#ifndef TSR_REPORT_REPORT_H
#define TSR_REPORT_REPORT_H

#include <jansson.h>
#include <stdint.h>

#include "core/status.h"
#include "memory/addrmap.h"
#include "memory/memsys.h"
#include "report/stats.h"

/*
 * One frame's (or the total's) statistics as the JSON object described in
 * the README ("Statistics"). Cache names come from the memory hierarchy;
 * streams with all counters zero are left out of a cache's object, "all"
 * is always present.
 */
json_t *tsr_stats_to_json(const struct tsr_frame_stats *s,
			  const struct tsr_memsys *mem, uint32_t cores);

/* The address map as a JSON array of {name, base, size_bytes, stream}. */
json_t *tsr_addrmap_to_json(const struct tsr_addrmap *m);

/*
 * The header line and one row of frames.csv (no trailing newline): the
 * frame, every scalar counter of the groups (stats/counters.h) as
 * group.name, then per configured cache instance (its per-core copies
 * summed) accesses and misses, DRAM bytes and memory accesses.
 */
void tsr_csv_header(char *buf, size_t n, const struct tsr_memsys *mem);
void tsr_csv_row(char *buf, size_t n, const struct tsr_frame_stats *s,
		 const struct tsr_memsys *mem);

/* A set of output files written atomically. */
struct tsr_output {
	char dir[4000];
	uint32_t count;
	char (*names)[4160];   /* final paths of the files written so far */
};

/* Creates dir (and parents) if needed. Errors: TSR_ERR_IO. */
enum tsr_status tsr_output_open(struct tsr_output *o, const char *dir,
				struct tsr_error *err);

/* Writes bytes to <dir>/<name>.tmp. Errors: TSR_ERR_IO, TSR_ERR_NOMEM. */
enum tsr_status tsr_output_write(struct tsr_output *o, const char *name,
				 const void *data, size_t size,
				 struct tsr_error *err);

/* Encodes an RGBA8 image as <dir>/<name>.tmp (PNG). Errors: TSR_ERR_IO. */
enum tsr_status tsr_output_png(struct tsr_output *o, const char *name,
			       uint32_t width, uint32_t height,
			       const uint8_t *rgba, struct tsr_error *err);

/* Renames every temporary into place. Errors: TSR_ERR_IO. */
enum tsr_status tsr_output_commit(struct tsr_output *o, struct tsr_error *err);

/* Removes every temporary; releases o. */
void tsr_output_abort(struct tsr_output *o);

#endif
