/*
 * mempath.h - the path one access took through the memory hierarchy, as
 * the functional model resolved it (docs/timing.md, "functional first"):
 * the timing model (memtime.h) replays it in simulated time without
 * changing what the caches hold.
 *
 * One path per line access (tsr_mem_access splits an access per line).
 * Levels are the caches the access looked up, first level first; the first
 * level that held the line is `hit_level` (== levels when none did and DRAM
 * served it, or when the path has no cache at all). A write allocates
 * without a fetch unless the cache fetches on write; its requester does
 * not wait (posted). Write-backs are the dirty victims the access evicted
 * on its way, each written to the next level (or DRAM); they are posted
 * too. A victim that a write-back itself evicts further down (off the
 * request's chain) is kept only when it goes to DRAM, as from the
 * chain's last level, and only the first TSR_MEM_PATH_WRITEBACKS are kept.
 */
#ifndef TSR_TIMING_MEMPATH_H
#define TSR_TIMING_MEMPATH_H

#include <stdint.h>

#define TSR_MEM_PATH_LEVELS 4
#define TSR_MEM_PATH_WRITEBACKS 4

/* A dirty victim written to the level below `from_level` (or DRAM). */
struct tsr_mem_writeback {
	uint8_t from_level;   /* index into the path's levels of the cache evicting it */
	uint8_t to_dram;      /* 1: written to DRAM (from the last level) */
	uint16_t bytes;       /* bytes written (whole bursts for DRAM) */
	uint64_t addr;        /* byte address of the victim line */
};

struct tsr_mem_path {
	uint64_t addr;        /* byte address of the access */
	uint32_t bytes;       /* bytes of the access (within one line) */
	uint8_t write;        /* 1: a write (posted) */
	uint8_t stream;       /* enum tsr_stream */
	uint8_t levels;       /* caches looked up, 0..TSR_MEM_PATH_LEVELS */
	uint8_t hit_level;    /* first level that held the line; == levels: DRAM */
	uint8_t fetch;        /* 1: the missing levels read the line from below
			         (0: a write allocated without a fetch) */
	uint8_t wb_count;     /* write-backs in wb[] */
	uint16_t cache[TSR_MEM_PATH_LEVELS];  /* cache index (tsr_memsys_cache order) */
	uint64_t line[TSR_MEM_PATH_LEVELS];   /* line address at each level */
	uint32_t dram_bytes;  /* bytes DRAM moved for it (0: no DRAM access) */
	struct tsr_mem_writeback wb[TSR_MEM_PATH_WRITEBACKS];
};

#endif
