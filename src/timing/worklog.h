/*
 * worklog.h - the work items of one tile as the functional model ran them,
 * for the timing model to replay (docs/timing.md, "functional first"):
 * the Tile Fetcher's memory paths, each primitive the Rasterizer covered
 * (its attributes and quads), each quad (Early-Z's verdict and core, the
 * material's ALU instructions or a program's instruction stream, the
 * paths of its instruction fetches and texture requests) and the flush's
 * paths. In the immediate-mode pipeline
 * (pipeline.mode imr) a log holds a batch of primitive windows instead of
 * a tile: its "fetch" paths are the index and vertex reads of the draws'
 * geometry, it has no flush, and each quad also carries the paths of its
 * HiZ and depth traffic (Early-Z) and of its color and late-Z traffic
 * (blending), which the timing model issues from those lanes.
 *
 * The functional stages append to it when their context has a log (a NULL
 * log costs one branch per item); the memory paths arrive through the
 * memory system's path sink (tsr_memsys_set_path_sink with
 * tsr_worklog_path as the function), and each item takes the paths
 * appended while it ran. Arrays grow by doubling and are reused from tile
 * to tile, so steady state allocates nothing.
 */
#ifndef TSR_TIMING_WORKLOG_H
#define TSR_TIMING_WORKLOG_H

#include <stdint.h>

#include "core/status.h"
#include "timing/core.h"
#include "timing/mempath.h"

/* A range of paths in the log. */
struct tsr_wl_range {
	uint32_t first, count;
};

struct tsr_wl_prim {
	uint32_t attributes;      /* the Rasterizer's work (RE Table I: 16 per cycle) */
	uint32_t quad_first;      /* its quads: quads[quad_first ..] */
	uint32_t quad_count;
};

struct tsr_wl_quad {
	uint32_t prim;            /* index into prims */
	uint32_t alu;             /* the material's ALU instructions */
	uint16_t core;            /* shader core, and Early-Z and blending lane, by the
				     quad grouping (DTexL III-B) */
	uint8_t killed;           /* 1: Early-Z killed it (it ends there) */
	uint8_t textured;         /* 1: a sample instruction */
	uint8_t late_z;           /* 1: alpha-tested (depth after shading) */
	uint8_t retired;          /* timing model, imr: the core has retired it */
	struct tsr_wl_range ifetch;  /* instruction fetch paths */
	struct tsr_wl_range tex;     /* texture paths (after the fetches), every sample's
					in order */
	uint32_t seg_first;          /* a program's quad: its instruction stream, */
	uint32_t seg_count;          /* segs[seg_first ..] (0: the counts alu, textured) */
	struct tsr_wl_range z;       /* imr: HiZ and Z paths of Early-Z (reads wait,
					writes are posted); empty in a TBR tile */
	struct tsr_wl_range color;   /* imr: late-Z and color paths of blending */
};

struct tsr_worklog {
	uint32_t tile;
	struct tsr_wl_range fetch;   /* Tile Fetcher: PMD and attribute reads */
	struct tsr_wl_range flush;   /* the tile's color writes */
	struct tsr_mem_path *paths;
	uint32_t path_count, path_cap;
	struct tsr_wl_prim *prims;
	uint32_t prim_count, prim_cap;
	struct tsr_wl_quad *quads;
	uint32_t quad_count, quad_cap;
	struct tsr_core_seg *segs;   /* programs' instruction streams (timing/core.h) */
	uint32_t seg_count, seg_cap;
	uint32_t mark;               /* path_count when the current item began */
	uint32_t seq_base;           /* the Rasterizer's sequence number of quads[0] */
	int failed;                  /* an append ran out of memory */
};

/* Empties the log for tile `tile` (keeps its arrays). */
void tsr_worklog_begin(struct tsr_worklog *l, uint32_t tile);

/* Frees the arrays. */
void tsr_worklog_release(struct tsr_worklog *l);

/* The path sink (tsr_mem_path_fn): appends a copy of p. */
void tsr_worklog_path(void *log, const struct tsr_mem_path *p);

/* Starts an item: the paths appended from now on are its. */
static inline void tsr_worklog_mark(struct tsr_worklog *l)
{
	l->mark = l->path_count;
}

/* The paths appended since the last mark. */
static inline struct tsr_wl_range tsr_worklog_since_mark(const struct tsr_worklog *l)
{
	return (struct tsr_wl_range){l->mark, l->path_count - l->mark};
}

/* Appends a rasterized primitive; its quads are the next quad_count appended. */
void tsr_worklog_prim(struct tsr_worklog *l, uint32_t attributes, uint32_t quad_count);

/*
 * Appends a quad of the last primitive after Early-Z: its core (lane) and
 * whether Early-Z killed it; returns it (NULL when out of memory), so
 * shading can fill its ranges.
 */
struct tsr_wl_quad *tsr_worklog_quad(struct tsr_worklog *l, uint32_t core, int killed,
				     uint32_t alu, int textured, int late_z);

/*
 * Appends a segment of the instruction stream of the quad being shaded
 * (timing/core.h): alu ALU-pipeline and sfu special-function instructions
 * (counts), then, with sample 1, a sample instruction of tex_requests
 * paths (its texture line requests). No error returned: out of memory
 * marks the log failed (tsr_worklog_status()).
 */
void tsr_worklog_seg(struct tsr_worklog *l, uint32_t alu, uint32_t sfu, int sample,
		     uint32_t tex_requests);

/* TSR_ERR_NOMEM (naming the tile) when an append failed since begin. */
enum tsr_status tsr_worklog_status(const struct tsr_worklog *l, struct tsr_error *err);

#endif
