/*
 * sweep.h - design-space sweeps (`tessera sweep`): a specification (JSON)
 * names workloads, base configurations, fixed overrides and a grid or a
 * list of `--set` overrides; it expands to points (workload, config,
 * overrides, frames), each identified by a 64-bit FNV-1a hash of what
 * determines its results: the effective configuration (canonical JSON:
 * sorted keys, compact), the workload file and the asset files it names,
 * the frame count and tessera's version. A point's results live in
 * OUT/points/<16 hex digits>/ (the files of `tessera run` plus point.json),
 * so a sweep started again skips what is complete and its results can be
 * aggregated into one table (results.csv, results.jsonl) in spec order.
 *
 * This module parses, expands, validates (every point's configuration is
 * built through the configuration loader before anything runs), hashes,
 * checks and finishes point folders and aggregates. It runs no process:
 * the CLI (cli/cmd_sweep.c) runs each point as a child `tessera run`, in
 * parallel or as a Slurm job array. It never prints or exits.
 */
#ifndef TSR_SWEEP_SWEEP_H
#define TSR_SWEEP_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "core/status.h"

/* Most caches one point records (`tessera run` takes as many --record-trace). */
#define TSR_SWEEP_MAX_TRACES 8

/* A parsed and expanded sweep (opaque). */
struct tsr_sweep;

/* One point of a sweep (plain data, owned by the sweep). */
struct tsr_sweep_point {
	size_t index;              /* position in spec order, from 0 */
	const char *workload;      /* as the spec names it ("sprites-2d") */
	const char *workload_path; /* resolved, absolute */
	const char *config;        /* as the spec names it; "default": the built-in one */
	const char *config_path;   /* resolved, absolute; NULL for the built-in one */
	const char *const *sets;   /* "KEY=VALUE" overrides, in order (set, then grid/points) */
	size_t nsets;
	uint32_t frames;           /* 0: the workload's own count */
	uint64_t hash;             /* of the effective configuration, workload, frames, version */
	char hex[17];              /* hash as 16 lower-case hex digits: the folder's name */
	size_t first;              /* index of the first point with the same hash (itself if none) */
	/* caches whose input the run records (`tessera run --record-trace CACHE=FILE`) into
	 * the point's folder as tsr_sweep_trace_name(): the spec's "record_trace" and the
	 * point entry's, united over the points of the same hash; not in the hash */
	const char *traces[TSR_SWEEP_MAX_TRACES];
	size_t ntraces;
};

/*
 * The file name of cache `cache`'s trace in a point's folder,
 * "trace-CACHE.bin", into buf (n bytes).
 */
void tsr_sweep_trace_name(const char *cache, char *buf, size_t n);

/*
 * Reads and expands the specification `file`, resolves its workloads and
 * configurations (a path relative to the spec's folder, else a file or a
 * shipped name as `tessera run` takes them) and builds each point's
 * effective configuration to check it and hash it. Nothing is written.
 * Errors (the message names the spec file and the key or value):
 * TSR_ERR_IO, TSR_ERR_PARSE (the file), TSR_ERR_CONFIG (an unknown key, an
 * empty grid or list, a missing workload or configuration, an override the
 * configuration rejects), TSR_ERR_NOMEM. *out is NULL on error.
 */
enum tsr_status tsr_sweep_load(const char *file, struct tsr_sweep **out,
			       struct tsr_error *err);

/* Frees a sweep of tsr_sweep_load() (NULL is fine). */
void tsr_sweep_destroy(struct tsr_sweep *sw);

/* The spec's "name". */
const char *tsr_sweep_name(const struct tsr_sweep *sw);

/* The spec's "out" (as written), or "out/sweep-NAME" when absent. */
const char *tsr_sweep_out(const struct tsr_sweep *sw);

/* The spec's "dump_frames" for `tessera run --dump-frames` ("none" when absent). */
const char *tsr_sweep_dump_frames(const struct tsr_sweep *sw);

/* Number of points (at least 1). */
size_t tsr_sweep_point_count(const struct tsr_sweep *sw);

/* Point i (i < tsr_sweep_point_count()). */
const struct tsr_sweep_point *tsr_sweep_point(const struct tsr_sweep *sw, size_t i);

/*
 * The override keys, each a column of results.csv: in order of first
 * appearance in "set", "grid", then "points". count: how many.
 */
const char *const *tsr_sweep_keys(const struct tsr_sweep *sw, size_t *count);

/* ---- hashing (hash.c) ---- */

/* 64-bit FNV-1a of n bytes, continuing from h (start with TSR_FNV1A64_INIT). */
#define TSR_FNV1A64_INIT 0xcbf29ce484222325ull
uint64_t tsr_fnv1a64(uint64_t h, const void *data, size_t n);

/*
 * The digest of a workload: its file's bytes and those of every file its
 * string values name (relative to its folder unless absolute) that exists,
 * each with its path. Errors: TSR_ERR_IO (the workload cannot be read;
 * an asset that cannot be read is left out: the run reports it),
 * TSR_ERR_PARSE.
 */
enum tsr_status tsr_sweep_workload_digest(const char *workload_path, uint64_t *out,
					  struct tsr_error *err);

/*
 * The hash of a point: cfg's effective configuration as canonical JSON
 * (sorted keys, compact), the workload digest, frames (0: the workload's
 * own) and TSR_VERSION. Two configurations that differ in any setting hash
 * differently; one value reached two ways (a default written explicitly)
 * hashes the same. Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_sweep_point_hash(const struct tsr_gpu_config *cfg, uint64_t workload_digest,
				     uint32_t frames, uint64_t *out, struct tsr_error *err);

/* ---- point folders (point.c) ---- */

/* OUT/points/<hex> into buf (n bytes). */
void tsr_sweep_point_dir(const char *out_dir, const struct tsr_sweep_point *p, char *buf,
			 size_t n);

/*
 * 1 when point p is complete in out_dir: its folder holds point.json with
 * p's hash, frames.csv, stats.json and the trace of every cache in
 * p->traces; else 0.
 */
int tsr_sweep_point_complete(const char *out_dir, const struct tsr_sweep_point *p);

/*
 * Finishes a point that ran into folder tmp_dir: writes point.json (hash,
 * workload, config, overrides, frames, traces: cache -> file, seconds:
 * wall-clock seconds the run took) and renames tmp_dir to the point's folder, replacing an incomplete
 * one. When another process finished the same point first, tmp_dir is
 * removed. Errors: TSR_ERR_IO, TSR_ERR_NOMEM.
 */
enum tsr_status tsr_sweep_point_finish(const char *out_dir, const struct tsr_sweep_point *p,
				       const char *tmp_dir, double seconds,
				       struct tsr_error *err);

/*
 * Records a failed point in OUT/failed/<hex>/failed.json: the point, the
 * exit code (or -signal when a signal ended it) and the first lines of the
 * child's standard error (stderr_text, may be NULL). Errors: TSR_ERR_IO,
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_sweep_point_fail(const char *out_dir, const struct tsr_sweep_point *p,
				     int exit_code, const char *stderr_text,
				     struct tsr_error *err);

/* Removes OUT/failed/<hex> of a point (after it succeeded); nothing if absent. */
void tsr_sweep_point_clear_failure(const char *out_dir, const struct tsr_sweep_point *p);

/*
 * Removes leftovers of interrupted runs of point p: OUT/points/<hex>.tmp-*.
 * Errors: TSR_ERR_IO.
 */
enum tsr_status tsr_sweep_point_clean(const char *out_dir, const struct tsr_sweep_point *p,
				      struct tsr_error *err);

/* Creates path and its parents as folders (mkdir -p). Errors: TSR_ERR_IO. */
enum tsr_status tsr_sweep_mkdirs(const char *path, struct tsr_error *err);

/* ---- aggregation (results.c) ---- */

/*
 * Writes OUT/results.csv and OUT/results.jsonl (atomically: .tmp, then
 * rename) from the complete points among [lo, hi) in spec order: per
 * point one row per frame of its frames.csv, then a "total" row from its
 * stats.json "total" object. Columns: point, workload, config, each
 * override key (tsr_sweep_keys(); empty where a point does not set it),
 * frame, then the union of the frames.csv columns in order of first
 * appearance. *missing: how many points are not complete (left out).
 * Errors: TSR_ERR_IO, TSR_ERR_PARSE (a malformed frames.csv), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_sweep_aggregate(const struct tsr_sweep *sw, const char *out_dir,
				    size_t lo, size_t hi, size_t *missing,
				    struct tsr_error *err);

#endif
