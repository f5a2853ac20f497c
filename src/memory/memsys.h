/*
 * memsys.h - the memory hierarchy of the baseline TBR GPU (TCOR Fig. 5,
 * Section II-D; DTexL Fig. 5): private L1 caches (vertex, Tile Cache, one
 * texture and one instruction cache per shader core) in front of one shared
 * L2, backed by DRAM. Color flushes of the tile buffer go straight to DRAM
 * (TCOR Fig. 2).
 *
 * An L1 miss reads the line from the L2; an L1 dirty victim is written to
 * the L2; the same between the L2 and DRAM. Accesses that cross a line are
 * split into one access per line (also when an L1 line is longer than an L2
 * line). DRAM counts bytes per stream in whole
 * lines (a burst per line).
 *
 * Left out (for the timing issue): latencies, MSHRs, queues, DRAM banks.
 */
#ifndef TSR_MEMORY_MEMSYS_H
#define TSR_MEMORY_MEMSYS_H

#include <stdint.h>

#include "core/status.h"
#include "core/stream.h"
#include "memory/cache.h"

#define TSR_MAX_CORES 16

enum tsr_l1_kind {
	TSR_L1_VERTEX = 0,
	TSR_L1_TILE,
	TSR_L1_TEXTURE,      /* one per shader core */
	TSR_L1_INSTRUCTION,  /* one per shader core */
};

struct tsr_memsys_config {
	uint32_t cores;                        /* shader cores (1..TSR_MAX_CORES) */
	struct tsr_cache_geometry vertex;
	struct tsr_cache_geometry tile;
	struct tsr_cache_geometry texture;     /* each core's */
	struct tsr_cache_geometry instruction; /* each core's */
	struct tsr_cache_geometry l2;
	uint32_t dram_latency_cycles;
};

struct tsr_dram_counters {
	uint64_t read_bytes;
	uint64_t write_bytes;
};

struct tsr_memsys;

/*
 * Builds the hierarchy. Errors: TSR_ERR_GEOMETRY / TSR_ERR_CONFIG naming
 * the cache instance (also for an offline policy such as OPT, which needs
 * the future and so only runs in trace replay) ("texture0", "l2"; the config loader names the
 * key "caches.texture" before this is reached), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_memsys_create(const struct tsr_memsys_config *cfg,
				  struct tsr_memsys **out,
				  struct tsr_error *err);
void tsr_memsys_destroy(struct tsr_memsys *m);

/* Index of an L1: core is used for texture and instruction caches. */
uint32_t tsr_memsys_l1_index(const struct tsr_memsys *m, enum tsr_l1_kind k,
			     uint32_t core);

/*
 * One access of `size` bytes at addr through L1 number l1 (split per line),
 * with the stream and requester it carries. Hot path: no allocation.
 */
void tsr_mem_access(struct tsr_memsys *m, uint32_t l1, uint64_t addr,
		    uint32_t size, int write, enum tsr_stream s,
		    uint16_t requester, uint32_t meta);

/*
 * One access of `size` bytes straight to the L2 (split per L2 line), for
 * units with their own L1 structure, such as TCOR's Attribute Cache
 * (tiling/attribute_cache.h). Hot path: no allocation.
 */
void tsr_mem_l2_access(struct tsr_memsys *m, uint64_t addr, uint32_t size, int write,
		       enum tsr_stream s, uint16_t requester, uint32_t meta);

/*
 * Bytes DRAM moves for an access of `size` bytes at addr: whole L2 lines
 * (one burst per line). Pure.
 */
uint64_t tsr_mem_dram_burst_bytes(const struct tsr_memsys *m, uint64_t addr, uint32_t size);

/* A write of `size` bytes straight to DRAM (tile color flush). */
void tsr_mem_dram_write(struct tsr_memsys *m, uint64_t addr, uint32_t size,
			enum tsr_stream s);

/* Announces a frame or tile boundary to every cache (tsr_cache_marker()). */
void tsr_mem_marker(struct tsr_memsys *m, enum tsr_marker kind, uint64_t value);

/*
 * The cache instance called `name` ("l2", "tile", "texture0", ...), e.g.
 * to attach a trace recorder; NULL if there is none.
 */
struct tsr_cache *tsr_memsys_cache_by_name(struct tsr_memsys *m, const char *name);

/* The caches: L1s in index order, then the L2 (tsr_memsys_cache_count()-1). */
uint32_t tsr_memsys_cache_count(const struct tsr_memsys *m);
const struct tsr_cache *tsr_memsys_cache(const struct tsr_memsys *m, uint32_t i);

/* DRAM counters of one stream. */
const struct tsr_dram_counters *tsr_memsys_dram(const struct tsr_memsys *m,
						enum tsr_stream s);

/* Total accesses the hierarchy has served (every cache's reads + writes). */
uint64_t tsr_memsys_accesses(const struct tsr_memsys *m);

#endif
