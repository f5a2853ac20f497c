/*
 * memsys.h - the GPU's memory hierarchy, built from the configuration.
 *
 * The hierarchy is a tree of cache instances (TCOR Fig. 5 and II-D, DTexL
 * Fig. 5, boustrophedonic Table II): each instance has a geometry, a
 * replacement policy, a write policy and a parent (another instance or
 * DRAM), and is either shared or private to each shader core (one copy per
 * core, named <name><core>: texture0, texture1, ...). Any number of levels.
 * Each stream is routed to its first-level instance, or declared "perfect"
 * (every access hits at the first level and nothing goes below) or "dram"
 * (uncached). One more route, "attribute_cache", is where TCOR's Attribute
 * Cache (TCOR Fig. 7, III-C) sends its misses and write-backs.
 *
 * A miss reads the line from the parent; a dirty victim is written to the
 * parent; a write-through cache forwards every write to its parent.
 * Accesses that cross a line are split into one access per line, at every
 * level (also when a child's line is longer than its parent's). DRAM
 * counts bytes per stream: a line transfer moves the line, a direct
 * (uncached) access moves whole bursts of dram.burst_bytes.
 *
 * The defaults are TCOR Table I's hierarchy: private vertex and Tile
 * Cache in front of a shared L2, a texture and an instruction cache per
 * shader core, the L2 in front of DRAM, color flushes straight to DRAM
 * (TCOR Fig. 2).
 *
 * Left out (for the timing model): latencies are recorded, not simulated
 * (tsr_mem_result.complete_cycle stays 0), no MSHRs, queues or DRAM banks.
 */
#ifndef TSR_MEMORY_MEMSYS_H
#define TSR_MEMORY_MEMSYS_H

#include <stdint.h>

#include "core/status.h"
#include "core/stream.h"
#include "memory/cache.h"

/* Configured cache instances (before per-core copies). */
#define TSR_MEMSYS_MAX_INSTANCES 16
/* Cache objects of a hierarchy after per-core copies. */
#define TSR_MEMSYS_MAX_CACHES 48
/* Longest instance name, including the final NUL. */
#define TSR_CACHE_NAME_MAX 24

enum tsr_write_policy {
	TSR_WRITE_BACK = 0,     /* dirty lines are written to the parent when evicted */
	TSR_WRITE_THROUGH,      /* every write goes on to the parent; lines stay clean */
	TSR_WRITE_POLICY_COUNT
};

/* One cache instance of the configuration. */
struct tsr_cache_config {
	char name[TSR_CACHE_NAME_MAX];      /* "l2", "texture", ... */
	struct tsr_cache_geometry geom;     /* size, ways, line, latency, policy, fetch_on_write */
	uint32_t write_policy;              /* enum tsr_write_policy */
	uint32_t per_core;                  /* 1: one private copy per shader core */
	char parent[TSR_CACHE_NAME_MAX];    /* another instance's name, or "dram" */
	uint32_t mshrs;                     /* timing mode: miss status holding registers */
	uint32_t ports;                     /* timing mode: lookups per cycle (ports or banks) */
};

/* Where a route leads besides a cache instance. */
#define TSR_ROUTE_DRAM "dram"
#define TSR_ROUTE_PERFECT "perfect"

/*
 * Routes: one per stream (enum tsr_stream) and one for the Attribute
 * Cache's lower level.
 */
#define TSR_ROUTE_ATTRIBUTE_CACHE TSR_STREAM_COUNT
#define TSR_ROUTE_COUNT (TSR_STREAM_COUNT + 1)

struct tsr_memsys_config {
	uint32_t cores;                        /* shader cores (1..TSR_MAX_CORES) */
	uint32_t cache_count;                  /* instances in caches[] */
	struct tsr_cache_config caches[TSR_MEMSYS_MAX_INSTANCES];
	char routes[TSR_ROUTE_COUNT][TSR_CACHE_NAME_MAX]; /* instance, "perfect" or "dram" */
	uint32_t dram_latency_cycles;
	uint32_t dram_burst_bytes;             /* bytes of one DRAM burst (power of two) */
};

/* Name of route r in the configuration ("texture", ..., "attribute_cache"). */
const char *tsr_memsys_route_name(uint32_t r);

/*
 * Fills c with TCOR Table I's hierarchy for `cores` shader cores: vertex
 * (64 KiB 4-way) and tile (64 KiB 4-way) caches, per-core texture (64 KiB
 * 4-way) and instruction (16 KiB 4-way) caches, all 64-byte lines, LRU,
 * write-back, 1 cycle, in front of a 1 MiB 8-way L2 (12 cycles) in front
 * of DRAM (100 cycles, 64-byte bursts); index and vertex streams to the
 * vertex cache, the Parameter Buffer to the Tile Cache, color and the
 * immediate-mode streams to DRAM, the Attribute Cache to the L2.
 */
void tsr_memsys_config_defaults(struct tsr_memsys_config *c, uint32_t cores);

/* The instance called `name`, or NULL. */
struct tsr_cache_config *tsr_memsys_config_cache(struct tsr_memsys_config *c,
						 const char *name);

/*
 * Checks the tree: parents exist, no cycles, a shared instance has no
 * per-core parent, routes name instances (or perfect/dram), geometries are
 * possible and policies online. Messages name the key
 * ("caches.l2.parent", "routes.texture"). Errors: TSR_ERR_CONFIG,
 * TSR_ERR_GEOMETRY.
 */
enum tsr_status tsr_memsys_config_check(const struct tsr_memsys_config *c,
					struct tsr_error *err);

/* DRAM counters of one stream: struct tsr_dram_counters (stats/counters.h). */

struct tsr_memsys;

/*
 * Builds the hierarchy. Only instances that some route reaches (directly or
 * as an ancestor) are built. Errors: those of tsr_memsys_config_check(),
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_memsys_create(const struct tsr_memsys_config *cfg,
				  struct tsr_memsys **out,
				  struct tsr_error *err);
void tsr_memsys_destroy(struct tsr_memsys *m);

/*
 * A port is where an access enters the hierarchy: a cache (its index,
 * 0..tsr_memsys_cache_count()-1), or one of these.
 */
#define TSR_PORT_DRAM 0xfffeu     /* uncached: straight to DRAM */
#define TSR_PORT_PERFECT 0xffffu  /* always hits; nothing below is touched */

/* The port of route r (a stream, or TSR_ROUTE_ATTRIBUTE_CACHE) for shader core `core`. */
uint32_t tsr_memsys_port(const struct tsr_memsys *m, uint32_t route, uint32_t core);

/* The port of the cache called `name` ("l2", "texture1"), or TSR_PORT_DRAM if none. */
uint32_t tsr_memsys_cache_port(const struct tsr_memsys *m, const char *name);

/* What happened to an access. */
struct tsr_mem_result {
	uint32_t served_by;       /* port of the cache that held the line (the deepest
				     level any part of the access reached), TSR_PORT_DRAM
				     or TSR_PORT_PERFECT */
	uint32_t level;           /* 1: the first-level cache, 2: its parent, ...;
				     0: perfect; levels + 1: DRAM */
	uint64_t complete_cycle;  /* cycle the access completes; filled by the timing
				     model, 0 in the functional model */
};

/*
 * The first member of struct tsr_memsys (otherwise opaque): what the
 * inline part of tsr_mem_access() reads, each cache port's lookup state
 * (memsys.c keeps it here only). Not for callers.
 */
struct tsr_memsys_hot {
	uint32_t inline_ports;   /* the cache count; 0 while a path sink is set */
	uint64_t accesses;       /* tsr_memsys_accesses() */
	struct {
		struct tsr_cache_fast *fast;  /* tsr_cache_fast_view() of its cache */
		uint64_t line_mask;      /* ~(line bytes - 1) */
		uint8_t write_through;
	} port[TSR_MEMSYS_MAX_CACHES];
};

/*
 * tsr_mem_access() past its inline plain hit (memsys.c): _miss, a one-line
 * access whose fast lookup at the port's cache answered `fast`
 * (TSR_CACHE_DECLINED or TSR_CACHE_ABSENT, nothing done); _other, every
 * other access. Not for callers.
 */
void tsr_mem_access_miss(struct tsr_memsys *m, uint32_t port, uint64_t addr, uint32_t size,
			 int write, enum tsr_stream s, uint16_t requester, uint32_t meta,
			 struct tsr_mem_result *r, int fast);
void tsr_mem_access_other(struct tsr_memsys *m, uint32_t port, uint64_t addr, uint32_t size,
			  int write, enum tsr_stream s, uint16_t requester, uint32_t meta,
			  struct tsr_mem_result *r);

/*
 * One access of `size` bytes at byte address addr entering at `port`
 * (split per line), with the stream and requester it carries. Fills *r
 * when r is not NULL. Hot path: no allocation. Inline: the common case,
 * a plain hit of one line at the port's cache (no path sink), costs no
 * call; everything else is tsr_mem_access_miss()'s or
 * tsr_mem_access_other()'s.
 */
static inline void tsr_mem_access(struct tsr_memsys *m, uint32_t port, uint64_t addr,
				  uint32_t size, int write, enum tsr_stream s,
				  uint16_t requester, uint32_t meta, struct tsr_mem_result *r)
{
	struct tsr_memsys_hot *h = (struct tsr_memsys_hot *)m;
	if (port < TSR_MEMSYS_MAX_CACHES && port < h->inline_ports) {
		const uint64_t last = addr + ((size ? size : 1) - 1);
		if (((addr ^ last) & h->port[port].line_mask) == 0 &&
		    !(write && h->port[port].write_through)) {
			const int f = tsr_cache_fast_lookup(h->port[port].fast, addr, write,
							    (uint8_t)s, meta);
			if (f > 0) {
				h->accesses++;
				if (r)
					*r = (struct tsr_mem_result){.served_by = port, .level = 1};
				return;
			}
			tsr_mem_access_miss(m, port, addr, size, write, s, requester, meta, r, f);
			return;
		}
	}
	tsr_mem_access_other(m, port, addr, size, write, s, requester, meta, r);
}

/*
 * A hint for the host's caches only: the state an access of addr at port
 * will look up first (its cache's set). Changes nothing simulated.
 */
void tsr_mem_prefetch(const struct tsr_memsys *m, uint32_t port, uint64_t addr);

/*
 * tsr_mem_prefetch(), and the set of addr at the port cache's parent too:
 * for an access likely to miss there (e.g. the Parameter Buffer's
 * attributes at the Tile Cache). Changes nothing simulated.
 */
void tsr_mem_prefetch_miss(const struct tsr_memsys *m, uint32_t port, uint64_t addr);

/*
 * tsr_mem_access(m, port, addrs[i], size, 0, s, requester, meta, NULL)
 * for i = 0 .. n-1 in order (reads, no result): the same effects, with
 * the host's caches warmed for all n lookups first.
 */
void tsr_mem_read_lines(struct tsr_memsys *m, uint32_t port, const uint64_t *addrs, uint32_t n,
			uint32_t size, enum tsr_stream s, uint16_t requester, uint32_t meta);

/*
 * The timing model's view of each access (docs/timing.md): with a sink set,
 * every line access that tsr_mem_access() resolves is reported, once
 * resolved, as the path it took (timing/mempath.h: the caches looked up,
 * the first that held the line, the DRAM bytes of its fill, the dirty
 * victims it wrote back). Does not change what the caches do. NULL: none
 * (the functional mode; one branch per lookup).
 */
struct tsr_mem_path;
typedef void (*tsr_mem_path_fn)(void *ctx, const struct tsr_mem_path *p);
void tsr_memsys_set_path_sink(struct tsr_memsys *m, tsr_mem_path_fn fn, void *ctx);

/* The sink tsr_memsys_set_path_sink() set: *fn (NULL: none) and *ctx
 * (a paused sink's too). */
void tsr_memsys_path_sink(const struct tsr_memsys *m, tsr_mem_path_fn *fn, void **ctx);

/*
 * Sets the path sink aside until tsr_memsys_accesses() reaches `until`
 * (timing.tile_sampling's geometry chunks, docs/timing.md): the accesses
 * in between are served as with no sink (the inline plain hit included)
 * and reported to none; the first access past that count that is not an
 * inline plain hit (a miss at its port's cache, or one of several lines)
 * sets the sink again and is reported. Nothing when no sink is set or
 * `until` has passed. tsr_memsys_set_path_sink() ends a pause.
 */
void tsr_memsys_pause_path_sink(struct tsr_memsys *m, uint64_t until);

/* The accesses (as tsr_memsys_accesses() counts them) made while the sink
 * was paused, since the memory system's creation. */
uint64_t tsr_memsys_paused_accesses(const struct tsr_memsys *m);

/*
 * Fast-forward (`tessera run --frames A-B`, docs/performance.md): with on
 * set, every access (tsr_mem_access(), tsr_mem_read_lines()) and every
 * marker is dropped: no cache, DRAM counter or path sink sees it, and a
 * result asked for says TSR_PORT_PERFECT, level 0. The caches keep the
 * state they had; off resumes the model from it. The normal path is
 * unchanged: the inline plain hit is skipped while on (as with a path
 * sink), and the slow path's first test drops the access.
 */
void tsr_memsys_set_bypass(struct tsr_memsys *m, int on);

/* Whether tsr_memsys_set_bypass() is on. */
int tsr_memsys_bypassed(const struct tsr_memsys *m);

/*
 * Bytes DRAM moves for a direct access of `size` bytes at addr: whole
 * bursts (dram.burst_bytes). Pure.
 */
uint64_t tsr_mem_dram_burst_bytes(const struct tsr_memsys *m, uint64_t addr, uint32_t size);

/* Announces a frame or tile boundary to every cache (tsr_cache_marker()). */
void tsr_mem_marker(struct tsr_memsys *m, enum tsr_marker kind, uint64_t value);

/*
 * The cache instance called `name` ("l2", "tile", "texture0", ...), e.g.
 * to attach a trace recorder; NULL if there is none.
 */
struct tsr_cache *tsr_memsys_cache_by_name(struct tsr_memsys *m, const char *name);

/* The caches, in configuration order (per-core copies in core order). */
uint32_t tsr_memsys_cache_count(const struct tsr_memsys *m);
const struct tsr_cache *tsr_memsys_cache(const struct tsr_memsys *m, uint32_t i);

/* The configured instance name of cache i ("texture" for texture2). */
const char *tsr_memsys_cache_group(const struct tsr_memsys *m, uint32_t i);

/* The configuration of cache i's instance (its per-core copies share it). */
const struct tsr_cache_config *tsr_memsys_cache_config(const struct tsr_memsys *m, uint32_t i);

/* Level of cache i: 1 for a first-level cache, 2 for its parent, ... */
uint32_t tsr_memsys_cache_level(const struct tsr_memsys *m, uint32_t i);

/* DRAM counters of one stream. */
const struct tsr_dram_counters *tsr_memsys_dram(const struct tsr_memsys *m,
						enum tsr_stream s);

/*
 * Bytes requested of one stream through perfect routes (no cache or DRAM
 * traffic is counted for them).
 */
const struct tsr_dram_counters *tsr_memsys_perfect(const struct tsr_memsys *m,
						   enum tsr_stream s);

/* Total accesses the hierarchy's caches have served (every cache's reads + writes). */
uint64_t tsr_memsys_accesses(const struct tsr_memsys *m);

#endif
