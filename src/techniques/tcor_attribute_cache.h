/*
 * tcor_attribute_cache.h - TCOR's Attribute Cache (TCOR III-C-2 to III-C-6,
 * Fig. 8): the L1 half of the split Tile Cache that serves PB-Attributes,
 * at the granularity of a primitive, with OPT replacement driven by the
 * OPT Numbers the Polygon List Builder puts in the PMDs (III-A).
 *
 * Two structures (III-C-2):
 *  - the Primitive Buffer: `lines` lines in sets of `ways`, indexed with
 *    the Primitive ID (the byte address of the primitive's first
 *    attribute, tiling/parameter_buffer.h). A line holds valid, lock and
 *    dirty bits, the tag (tessera keeps the whole Primitive ID), the OPT
 *    Number and the Attribute Buffer Pointer (ABP) of its first attribute;
 *  - the Attribute Buffer: size_bytes / attribute_entry_bytes entries,
 *    each one attribute with valid and lock bits and the index of the next
 *    entry of the same primitive; free entries form one more linked list.
 *
 * Operations, all on a pure state machine (no timing, no data):
 *  - tsr_ac_write(): the Polygon List Builder writes a new primitive
 *    (III-C-4). With a free line in its set and enough free entries it is
 *    allocated dirty. Otherwise OPT compares the request's OPT Number (its
 *    first tile) with the unlocked line of the set with the greatest OPT
 *    Number: greater -> that line is evicted and the primitive allocated;
 *    smaller or equal -> the write bypasses to the lower level. Missing
 *    Attribute Buffer entries are found the same way: the unlocked
 *    primitives with the greatest OPT Numbers are evicted while their OPT
 *    Number is greater than the request's, else the write bypasses. LRU,
 *    MRU and DRRIP always allocate (write-allocate, as the LRU of Fig. 10).
 *  - tsr_ac_read(): the Tile Fetcher reads a primitive for a tile
 *    (III-C-3). Hit: the line (and its first entry) is locked and takes the
 *    request's OPT Number (the primitive's next tile). Miss: a victim among
 *    the set's unlocked lines (III-C-5, III-C-6; only when no line of the
 *    set is free), more unlocked victims while the Attribute Buffer lacks
 *    entries, the attributes are read from the lower level, and the new
 *    line is locked (clean) with the request's OPT Number.
 *  - tsr_ac_consume(): the Rasterizer has read the primitive through its
 *    ABP (III-C-3, "Rasterizer Read"): one lock is released.
 *  - Evictions (III-C-5): only unlocked primitives; a dirty one is written
 *    back to the lower level one attribute at a time.
 *
 * Replacement (TCOR III-C-6, V-A Fig. 13; config/tcor_config.h). OPT is
 * this module's own rule: it compares OPT Numbers, which the Polygon List
 * Builder and the PMDs supply with each request (III-A), and its write
 * bypass needs the request's number; no other cache has them, so it is
 * not a policy of memory/'s table (whose "opt" is Belady's, on a trace's
 * next uses). LRU, MRU and DRRIP are the policy modules of memory/
 * (tsr_policy_find()), one instance per Attribute Cache with the module's
 * defaults and seed 1, driven through their pinned-line hooks
 * (memory/policy.h version 2): the cache keeps a struct tsr_line tag store
 * (valid, dirty, metadata; tag = Primitive ID / 64) that the hooks see,
 * asks victim_among() for the victim of a full set among its unlocked
 * ways, and compares rank() across sets for the extra victims that free
 * Attribute Buffer entries. Policies without those hooks are refused
 * (tsr_ac_config_check()).
 *
 * Choices where the paper is silent:
 *  - Units: every size is in bytes. Attribute a of a primitive is at
 *    Primitive ID + a x 64 (TSR_PB_BLOCK_BYTES, II-B); each lower-level
 *    access moves attribute_bytes (48) with the metadata the caller gave
 *    (memory/pb_meta.h): a miss uses the request's, a write-back the one
 *    of the write or read that brought the primitive in.
 *  - Defaults (tsr_ac_config_defaults()): the paper's 48 KiB Attribute
 *    Cache (V-B) with 64-byte entries (one 48-byte attribute per entry,
 *    rounded up to a memory block like the baseline Tile Cache lines), i.e.
 *    768 entries. NB: the 10-bit ABP of III-C-2 suggests 1024 entries,
 *    i.e. 48-byte entries in 48 KiB; set attribute_entry_bytes = 48 for
 *    that. Lines = entries / 2 = 384: tessera's primitives carry at least
 *    two attributes (position + >= 1 varying), so more lines could never
 *    all be used; 6 ways (64 sets, a power of two; 4 ways would give 96)
 *    and the XOR index of III-C-2.
 *  - Set index: the block number b = Primitive ID / 64; modulo takes
 *    b mod sets; XOR (González et al. [12]) XORs every log2(sets)-bit
 *    chunk of b together, so the upper bits that modulo ignores select the
 *    set too.
 *  - Ties: among equal OPT Numbers (or ranks) the lowest way (line index)
 *    is the victim. TSR_PB_NEVER (no later tile) is the greatest OPT
 *    Number. The extra victims that free Attribute Buffer entries are
 *    chosen among all unlocked primitives of the cache (the Attribute
 *    Buffer is not split into sets), by the same policy order.
 *  - A request is planned before anything changes: a write that must
 *    bypass, or a read that stalls, evicts nothing.
 *  - Counted locks: the line's lock bit is a counter of the primitive's
 *    references waiting in the Tile Fetcher's output queue. A primitive
 *    read for tile t and again for tile t+1 before the Rasterizer consumed
 *    the first copy is in the queue twice and stays locked until both are
 *    consumed. The first Attribute Buffer entry's lock bit is set while
 *    the count is non-zero; a line is unlocked when both are clear
 *    (III-C-5).
 *  - Stall: a read miss with no unlocked victim in its set, or not enough
 *    free plus unlocked entries, returns TSR_AC_STALL and changes nothing
 *    but the stall counter. The caller must let the Rasterizer consume
 *    (drain the output queue) and retry. It never happens when at most
 *    Q <= ways - 1 primitives wait in the output queue when a read is
 *    issued and the Attribute Buffer has at least (Q + 1) x max_attributes
 *    entries (at most Q lines, and Q x max_attributes entries, are
 *    locked); with a deeper queue the retry handles it. A write never
 *    stalls: with every candidate locked it bypasses.
 *  - Frames: a Primitive ID is written once per frame; tsr_ac_reset()
 *    starts a new frame by dropping every line without write-back (the
 *    last frame's Parameter Buffer is dead, III-D). Writing a primitive
 *    that is present is a protocol error (TSR_AC_INVALID).
 *
 * Left out: timing (a miss is served at once; the paper's MSHRs and the
 * Tile Fetcher's reorder queue belong to the caller), the data itself,
 * and the Primitive List Cache (a conventional LRU cache, memory/cache.h).
 */
#ifndef TSR_TECHNIQUES_TCOR_ATTRIBUTE_CACHE_H
#define TSR_TECHNIQUES_TCOR_ATTRIBUTE_CACHE_H

#include <stdint.h>

#include "config/tcor_config.h"  /* struct tsr_ac_config, enum tsr_ac_policy, checks */
#include "core/status.h"
#include "stats/counters.h"

/*
 * The level below (the L2 in TCOR Fig. 7): one call per attribute, at
 * Primitive ID + a x 64, attribute_bytes long, with the Parameter Buffer
 * metadata of the request. A NULL callback (or a NULL struct) drops the
 * access; the counters still count it.
 */
struct tsr_ac_lower {
	void (*read)(void *ctx, uint64_t addr, uint32_t bytes, uint32_t meta);
	void (*write)(void *ctx, uint64_t addr, uint32_t bytes, uint32_t meta);
	void *ctx;
};

/* What a read or a write did. */
enum tsr_ac_result {
	TSR_AC_HIT = 0,     /* read: present; locked, OPT Number updated */
	TSR_AC_MISS,        /* read: brought in from the lower level; locked */
	TSR_AC_STALL,       /* read: every candidate is locked; nothing changed, retry
			       after the Rasterizer consumed something */
	TSR_AC_ALLOCATED,   /* write: kept in the cache, dirty */
	TSR_AC_BYPASSED,    /* write: sent to the lower level, not kept */
	TSR_AC_INVALID,     /* n_attributes 0, above max_attributes or not the stored
			       count, or a write of a present primitive; nothing changed */
	TSR_AC_RESULT_COUNT
};

/* Counters since creation (tsr_ac_reset() keeps them). */
/* struct tsr_ac_counters: declared in stats/counters.h (TSR_ATTRIBUTE_CACHE_COUNTERS). */

/* A present primitive, as tsr_ac_lookup() reports it. */
struct tsr_ac_line_info {
	uint32_t set, way;
	uint32_t opt_number;    /* its next tile's position, TSR_PB_NEVER if none */
	uint32_t abp;           /* Attribute Buffer Pointer: its first entry */
	uint32_t n_attributes;
	uint32_t locks;         /* references not yet consumed */
	uint32_t meta;          /* metadata its write-back would carry */
	uint8_t dirty;
};

/* End of an Attribute Buffer list (tsr_ac_next_entry()). */
#define TSR_AC_NIL UINT32_MAX

struct tsr_attr_cache;

/*
 * Creates an empty Attribute Cache; every array is allocated here and no
 * access allocates (a policy module's state included). `lower` is copied
 * (NULL: no lower level). Errors: those of tsr_ac_config_check()
 * (config/tcor_config.h), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_ac_create(const struct tsr_ac_config *cfg,
			      const struct tsr_ac_lower *lower,
			      struct tsr_attr_cache **out, struct tsr_error *err);

/* Frees the cache and its policy module's state (NULL: nothing). */
void tsr_ac_destroy(struct tsr_attr_cache *ac);

/*
 * The Polygon List Builder writes primitive prim_id (n_attributes
 * attributes; opt_number: the position of its first tile in the frame's
 * tile order, tsr_pb_first_use()); meta is the Parameter Buffer metadata
 * its L2 accesses carry (memory/pb_meta.h). TCOR III-C-4: OPT evicts the
 * set's greatest OPT Number only if it is greater than opt_number, else
 * bypasses. Returns TSR_AC_ALLOCATED, TSR_AC_BYPASSED or TSR_AC_INVALID.
 */
enum tsr_ac_result tsr_ac_write(struct tsr_attr_cache *ac, uint64_t prim_id,
				uint32_t n_attributes, uint32_t opt_number,
				uint32_t meta);

/*
 * The Tile Fetcher reads primitive prim_id for a tile (opt_number: the
 * PMD's OPT Number, tsr_pb_opt_numbers(); TCOR III-C-3 and III-C-6: a
 * miss evicts unlocked lines only, each attribute read is attribute_bytes at
 * prim_id + a x 64 through the lower level). Returns TSR_AC_HIT,
 * TSR_AC_MISS (the primitive is then present and locked; its ABP is in
 * tsr_ac_lookup()), TSR_AC_STALL or TSR_AC_INVALID.
 */
enum tsr_ac_result tsr_ac_read(struct tsr_attr_cache *ac, uint64_t prim_id,
			       uint32_t n_attributes, uint32_t opt_number,
			       uint32_t meta);

/*
 * The Rasterizer has read primitive prim_id (TCOR III-C-3, "Rasterizer
 * Read"): releases one lock. Errors:
 * TSR_ERR_INTERNAL when it is not present or not locked (the caller
 * consumed more than it read).
 */
enum tsr_status tsr_ac_consume(struct tsr_attr_cache *ac, uint64_t prim_id);

/* A new frame: drops every line and entry without write-back. */
void tsr_ac_reset(struct tsr_attr_cache *ac);

/* 1 and *out filled (if out is non-NULL) when prim_id is present, else 0. */
int tsr_ac_lookup(const struct tsr_attr_cache *ac, uint64_t prim_id,
		  struct tsr_ac_line_info *out);

/* The entry after `entry` in its primitive's list, TSR_AC_NIL at the end. */
uint32_t tsr_ac_next_entry(const struct tsr_attr_cache *ac, uint32_t entry);

/* The set prim_id maps to (modulo or XOR index). */
uint32_t tsr_ac_set_index(const struct tsr_attr_cache *ac, uint64_t prim_id);

/* Counters since creation (counts of requests, evictions and attributes). */
const struct tsr_ac_counters *tsr_ac_counters_of(const struct tsr_attr_cache *ac);
/* The configuration in use (ways filled in when 0 was given: fully associative). */
const struct tsr_ac_config *tsr_ac_config_of(const struct tsr_attr_cache *ac);
/* Primitive Buffer sets (lines / ways). */
uint32_t tsr_ac_sets(const struct tsr_attr_cache *ac);
uint32_t tsr_ac_entries(const struct tsr_attr_cache *ac);       /* Attribute Buffer entries */
uint32_t tsr_ac_free_entries(const struct tsr_attr_cache *ac);  /* on its free list */

/* A static lower-case name of a result ("hit", "stall", ...). */
const char *tsr_ac_result_str(enum tsr_ac_result r);

#endif
