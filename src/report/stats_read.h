/*
 * stats_read.h - reading a stats.json (report/report.h writes it) back
 * into the library's structs, so that a sweep's points (OUT/points/<hash>/
 * stats.json, src/sweep/) can be computed on exactly as the simulation's
 * struct tsr_frame_stats in memory (issue 17).
 *
 * Exact: every counter stats.json holds comes back bit-identical. The
 * reader is driven by the descriptor tables of stats/counters.h (the
 * lists stats.json is written from), so a counter added there is read
 * with no change here. A counter flagged TSR_CTR_NONZERO reads 0 when
 * absent; a stream left out of a cache's (or DRAM's, or perfect routes')
 * object reads 0, as does a group stats.json leaves out (attribute_cache,
 * elimination, timing when all zero). Per-core arrays hold the run's
 * cores' entries, the rest 0, as in memory. The total's `frame` is 0, as
 * in tsr_sim_total().
 *
 * The imbalance distributions (quad_imbalance, time_imbalance: DTexL
 * Figs. 12, 14, 15) come back exact from their "permille_sum" and
 * "histogram_permille" pairs; their summaries as written, in percent with
 * 10 significant digits, are in struct tsr_stats_derived. Derived figures
 * (means, rates, frames_per_second, avg_primitives_per_tile, the "all"
 * sums) are skipped: they follow from the counters. Energy as written has
 * 10 significant digits; tsr_stats_file_energy() recomputes it exactly
 * from the counters read and the configuration. The address map is not
 * read.
 *
 * Forward compatibility: unknown keys are ignored; a stats.json of a newer
 * major tessera_version is an error, as is a stream name this build does
 * not know (its counters would be lost).
 */
#ifndef TSR_REPORT_STATS_READ_H
#define TSR_REPORT_STATS_READ_H

#include <stdint.h>

#include "config/config.h"
#include "core/status.h"
#include "energy/energy.h"
#include "framestats/stats.h"

/* Longest cache instance name stats.json may hold ("texture0", "l2"), NUL included. */
#define TSR_STATS_CACHE_NAME_MAX 32

/* What stats.json holds of a statistics object beyond its counters, as written. */
struct tsr_stats_derived {
	int has_energy;           /* 1: an "energy" object (timing mode) */
	double energy_total_nj, energy_dynamic_nj, energy_static_nj;  /* 10 significant digits */
	/* raster.quad_imbalance and timing.execution_imbalance (DTexL Figs. 12, 14, 15):
	 * tiles exact, the percentages as written (0 when absent) */
	struct tsr_quad_imbalance_summary quad_imbalance, time_imbalance;
};

/* A stats.json read back (tsr_stats_read()); release with tsr_stats_file_release(). */
struct tsr_stats_file {
	char version[32];                 /* tessera_version of the run */
	struct tsr_gpu_config config;     /* the effective configuration ("config") */
	char *workload_path;              /* "workload": the file rendered */
	char *workload_name;              /* its name ("" if none) */
	uint32_t frame_count;             /* entries of "frames" */
	/* the cache instances in stats.json's order: caches[i] and cache_timing[i]
	 * of every struct below are cache_names[i] (tsr_memsys cache order) */
	uint32_t cache_count;
	char cache_names[TSR_MEMSYS_MAX_CACHES][TSR_STATS_CACHE_NAME_MAX];
	struct tsr_frame_stats *total;    /* "total" */
	struct tsr_frame_stats *frames;   /* "frames", frame_count of them */
	struct tsr_stats_derived total_derived;
	struct tsr_stats_derived *frames_derived;  /* frame_count */
};

/*
 * Reads the stats.json at path into *out (filled even on error, so that
 * tsr_stats_file_release() is always safe). Errors: TSR_ERR_IO (cannot
 * open), TSR_ERR_PARSE (not JSON; a required object or counter missing,
 * of the wrong type or out of range; a newer major version; an unknown
 * stream), each naming the file and the JSON path ("frames[1].caches.l2.
 * texture.reads"); those of tsr_config_load_text() for "config";
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_stats_read(const char *path, struct tsr_stats_file *out,
			       struct tsr_error *err);

/* Frame i's counters (i < frame_count), or NULL. */
const struct tsr_frame_stats *tsr_stats_file_frame(const struct tsr_stats_file *f, uint32_t i);

/*
 * The energy of s (f->total or one of f->frames) by the model of f's
 * configuration (energy/energy.h), computed as the run computed it, so
 * bit-identical to the run's when the counters are. Builds the memory
 * hierarchy of f->config and checks that its caches are f->cache_names.
 * Errors: TSR_ERR_CONFIG (the caches differ), those of tsr_memsys_create(),
 * tsr_energy_create() and tsr_energy_compute().
 */
enum tsr_status tsr_stats_file_energy(const struct tsr_stats_file *f,
				      const struct tsr_frame_stats *s,
				      struct tsr_energy_result *r, struct tsr_error *err);

/* Frees what f holds and zeroes it. */
void tsr_stats_file_release(struct tsr_stats_file *f);

#endif
