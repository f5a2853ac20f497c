/*
 * tcor_config.h - the "tcor" section of a configuration: the geometry and
 * replacement policy of TCOR's Attribute Cache (TCOR III-C-2, V-B), plain
 * data that the config loader fills (config/config.c, keys tcor.*) and
 * techniques/tcor_attribute_cache.h consumes. It lives here, like the
 * elimination section in config/config.h, because techniques/ sits above
 * config/ (techniques read the GPU configuration) and folders must not
 * include each other in a cycle. What the fields mean is documented with
 * the Attribute Cache (techniques/tcor_attribute_cache.h); where every
 * part of TCOR lives is mapped in techniques/tcor.c.
 *
 * Left out: the Attribute Cache itself.
 */
#ifndef TSR_CONFIG_TCOR_CONFIG_H
#define TSR_CONFIG_TCOR_CONFIG_H

#include <stdint.h>

#include "core/status.h"

/*
 * Replacement among the unlocked lines of a set. OPT is the Attribute
 * Cache's own rule (it reads OPT Numbers, TCOR III-A, III-C-6); the others
 * are the replacement policies of memory/ (tsr_policy_find() of
 * tsr_ac_policy_name()), driven through their pinned-line hooks
 * (memory/policy.h, victim_among and rank).
 */
enum tsr_ac_policy {
	TSR_AC_OPT = 0,  /* greatest OPT Number (TCOR III-C-6); writes may bypass */
	TSR_AC_LRU,      /* memory/policy_lru.c: oldest fill or hit; writes always allocate */
	TSR_AC_MRU,      /* memory/policy_mru.c: newest fill or hit; writes always allocate */
	TSR_AC_DRRIP,    /* memory/policy_drrip.c with its defaults: 2-bit RRIP,
			    SRRIP/BRRIP set dueling (32 leaders each when there are
			    >= 128 sets, 10-bit PSEL, 1/32 long insertion; Jaleel et
			    al. 2010, as TCOR Fig. 13 compares); victim = highest RRPV
			    among unlocked lines, the set aged by the difference
			    (saturating at 3); writes always allocate */
	TSR_AC_POLICY_COUNT
};

/* Plain data filled by the caller (defaults: tsr_ac_config_defaults()). */
struct tsr_ac_config {
	uint32_t size_bytes;             /* Attribute Buffer capacity (bytes) */
	uint32_t attribute_entry_bytes;  /* bytes of one Attribute Buffer entry */
	uint32_t attribute_bytes;        /* bytes of one attribute read from the lower level */
	uint32_t write_bytes;            /* bytes of one attribute write to the lower level
					    (0: attribute_bytes; 64 when the block's spare
					    bytes carry the last tile's ID, III-D-1) */
	uint32_t lines;                  /* Primitive Buffer lines */
	uint32_t ways;                   /* associativity; 0 or lines: fully associative */
	uint32_t max_attributes;         /* most attributes a primitive can have */
	uint32_t xor_index;              /* 1: XOR-folded set index, 0: modulo */
	enum tsr_ac_policy policy;
};

/*
 * Fills cfg with the paper's Attribute Cache (TCOR V-B): 48 KiB of 64-byte
 * entries (768), 384 lines, 6 ways, XOR index, OPT, 48-byte attributes,
 * up to 33 attributes (1 + the 32 varyings a workload material may
 * declare). Why each value: techniques/tcor_attribute_cache.h.
 */
void tsr_ac_config_defaults(struct tsr_ac_config *cfg);

/*
 * Checks a configuration: non-zero sizes (bytes), size_bytes a multiple
 * of attribute_entry_bytes, attribute_bytes at most one entry and one
 * 64-byte block, lines a multiple of ways, a power-of-two number of sets,
 * at least max_attributes entries, a known policy whose memory/ module
 * offers the pinned-line hooks. The message names the field. Errors:
 * TSR_ERR_GEOMETRY, TSR_ERR_CONFIG (policy; the message lists the valid
 * ones).
 */
enum tsr_status tsr_ac_config_check(const struct tsr_ac_config *cfg,
				    struct tsr_error *err);

/* "opt", "lru", "mru", "drrip"; "unknown" out of range. */
const char *tsr_ac_policy_name(enum tsr_ac_policy p);

/*
 * Looks a policy name up (case-sensitive). Errors: TSR_ERR_CONFIG with a
 * message that lists the valid names (a policy of memory/ without the
 * pinned-line hooks, "srrip" say, is refused the same way).
 */
enum tsr_status tsr_ac_policy_parse(const char *name, enum tsr_ac_policy *out,
				    struct tsr_error *err);

#endif
