/*
 * sweep_priv.h - the sweep's state, shared by the files of src/sweep/
 * (spec.c fills it; results.c reads it).
 */
#ifndef TSR_SWEEP_SWEEP_PRIV_H
#define TSR_SWEEP_SWEEP_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "sweep/sweep.h"

/* Most points one sweep expands to. */
#define TSR_SWEEP_MAX_POINTS 100000

/* The workloads or configs of a spec: names as written, absolute paths ("" for the built-in). */
struct tsr_sweep_files {
	char **names, **paths;
	size_t n, npaths;
};

/* One override set: "KEY=VALUE" strings. */
struct set_list {
	char **items;
	size_t n;
	char *config_name, *config_path;  /* a points entry's "config": it replaces the
					     spec's configurations for this set (NULL: none) */
	char **traces;                    /* caches to record: the spec's "record_trace",
					     then the points entry's */
	size_t ntraces;
};

struct tsr_sweep {
	char *file, *dir;              /* the spec and its folder */
	char *name, *out, *dump_frames;
	uint32_t frames;               /* 0: each workload's own */
	struct tsr_sweep_files workloads, configs;
	struct set_list *sets;         /* override sets, spec order */
	size_t nsets;
	char **keys;                   /* override keys: the results' columns */
	size_t nkeys;
	struct tsr_sweep_point *points;
	size_t npoints;
};

#endif
