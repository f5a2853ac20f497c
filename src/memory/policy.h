/*
 * policy.h - the replacement-policy interface of every cache.
 *
 * One policy per file (memory/policy_*.c); each keeps its hooks static and
 * exports one const struct tsr_policy_ops. policy_table.c maps names and
 * aliases to policies; the config loader, the CLI and cachesim only look
 * names up there (libCacheSim / ChampSim style, see shared/conventions.md).
 *
 * A policy is named by a spec "name[:key=value,key=value...]", for example
 * "srrip:bits=3" or "ship-mem:banks=4". Parameters start from the policy's
 * defaults; an unknown key or a bad value is a TSR_ERR_CONFIG that lists
 * the valid keys (tsr_policy_params_parse()).
 *
 * What a policy sees. On every victim choice, hit, fill and eviction it
 * gets the set number, the tag store of the set (valid, dirty, stream and
 * upper-level metadata of each way, struct tsr_line) and the access
 * (address, size, read/write, stream tag, requester, metadata an upper
 * level attaches, and the position of the next access to the same line
 * when the caller knows it, tsr_access.next_use). Frame and tile
 * boundaries reach it through on_marker(). Whether a set is a leader
 * (sample) set is decided by tsr_policy_set_role(), which every dueling or
 * sampling policy shares, so that DRRIP, DIP and later GSPC lead with the
 * same sets. Per-line state bits and per-bank counters are the policy's
 * own arrays, indexed by set x ways + way and by tsr_policy_bank().
 *
 * What a policy decides. victim() returns the way to evict in a full set,
 * or TSR_POLICY_BYPASS to decline the fill (the access then goes to the
 * next level as it is); a way OR TSR_POLICY_DISCARD drops a dirty victim
 * without its write-back. The cache fills the lowest invalid way before it
 * asks for a victim. Ties between equal candidates go to the lowest way
 * (GSPC Section 1).
 *
 * Pinned lines (version 2 hooks). A cache whose lines can be pinned --
 * TCOR's Attribute Cache, whose locked primitives wait for the Rasterizer
 * (TCOR III-C-5) -- asks victim_among() for a victim among the ways it
 * marks eligible, and rank() to compare lines of different sets when it
 * must free room beyond one set (several victims for one fill, III-C-3).
 * A plain cache calls victim(), which is victim_among() with every way
 * eligible. The hooks are optional: LRU, MRU and DRRIP offer them; a
 * cache that needs them refuses the other policies (the Attribute Cache
 * with a config error that lists the valid ones).
 *
 * Offline policies (OPT, OPTPT) need tsr_access.next_use and so only run
 * on a replayed trace (cachesim/replay.h); the online hierarchy refuses
 * them (tsr_policy_ops.offline).
 *
 * Uncached displayable color (UCD; GSPC Section 5.1, Table 6: GSPC+UCD,
 * DRRIP+UCD). Any policy name may carry the suffix "+ucd" ("gspc+ucd",
 * "drrip+ucd:psel_bits=8"): the cache then allocates no line for a miss
 * of the display stream (TSR_STREAM_DISPLAY), even into a free way; the
 * miss is counted as a bypass and goes to the next level as it is, and
 * the policy never sees it (no victim, no fill). Display hits (on lines
 * another stream brought in) are ordinary hits. This is an admission
 * filter of the cache (memory/cache.c), not a hook: without "+ucd" every
 * policy behaves exactly as before. tsr_policy_find() ignores the suffix
 * and tsr_policy_spec_ucd() reports it.
 */
#ifndef TSR_MEMORY_POLICY_H
#define TSR_MEMORY_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "memory/cache.h"

#define TSR_POLICY_BYPASS UINT32_MAX

/*
 * OR-ed into the way victim() returns: evict the line without writing it
 * back even if it is dirty, because the policy knows it dead (TCOR III-D:
 * Parameter Buffer data after its last tile). Counted as a discard.
 */
#define TSR_POLICY_DISCARD 0x80000000u

/* What a policy instance is created for. */
struct tsr_policy_config {
	uint32_t sets;        /* number of sets (a power of two) */
	uint32_t ways;        /* lines per set */
	uint32_t line_bytes;  /* line size in bytes */
	uint64_t seed;        /* seed of randomised decisions (Random, BRRIP, BIP) */
	const char *params;   /* "key=value,..." after the ':' of the spec, or NULL */
	const char *cache;    /* cache name, for messages */
};

struct tsr_policy_ops {
	const char *name;
	/* 1: needs tsr_access.next_use (future knowledge); trace replay only. */
	int offline;
	/*
	 * Allocates the state of one cache. Errors: TSR_ERR_CONFIG for a bad
	 * parameter (message names the cache and key), TSR_ERR_NOMEM.
	 */
	enum tsr_status (*create)(const struct tsr_policy_config *cfg,
				  void **state, struct tsr_error *err);
	void (*destroy)(void *state);
	/* Chooses the way to evict from a full set, or TSR_POLICY_BYPASS. */
	uint32_t (*victim)(void *state, uint32_t set,
			   const struct tsr_line *set_lines,
			   const struct tsr_access *a);
	/* A hit on `way`, before the cache merges the access into the line. */
	void (*on_hit)(void *state, uint32_t set, uint32_t way,
		       const struct tsr_line *set_lines,
		       const struct tsr_access *a);
	/* `way` was just filled by access a (set_lines[way] already holds it). */
	void (*on_fill)(void *state, uint32_t set, uint32_t way,
			const struct tsr_line *set_lines,
			const struct tsr_access *a);
	/*
	 * The valid line `line` in `way` is about to be replaced because of
	 * access a. Optional (may be NULL).
	 */
	void (*on_evict)(void *state, uint32_t set, uint32_t way,
			 const struct tsr_line *line,
			 const struct tsr_access *a);
	/* A frame or tile boundary (enum tsr_marker). Optional (may be NULL). */
	void (*on_marker)(void *state, enum tsr_marker kind, uint64_t value);

	/* ---- version 2: pinned lines (optional, both or neither) ---- */
	/*
	 * victim() restricted to the ways w of the full set with eligible[w]
	 * != 0 (`ways` bytes; the caller guarantees at least one). Returns an
	 * eligible way, the same as victim() would when every way is eligible,
	 * with the same effect on the policy's state (for RRIP: the set is aged
	 * until the victim is distant, RRPVs saturating at distant). Never
	 * returns TSR_POLICY_BYPASS or TSR_POLICY_DISCARD.
	 */
	uint32_t (*victim_among)(void *state, uint32_t set,
				 const struct tsr_line *set_lines,
				 const struct tsr_access *a, const uint8_t *eligible);
	/*
	 * How soon the policy would evict the line in `way` of `set`: among
	 * the eligible ways of a set, victim_among() picks the lowest way of
	 * greatest rank. Ranks of one policy instance compare across sets (one
	 * clock per instance; RRPVs), so a cache can choose extra victims
	 * anywhere. No side effect.
	 */
	uint64_t (*rank)(const void *state, uint32_t set, uint32_t way);
};

/*
 * Looks a policy up by the name part of a spec ("drrip" in
 * "drrip:psel_bits=10"; a "+ucd" suffix of the name is ignored, so
 * "drrip+ucd" finds DRRIP). Returns NULL if unknown.
 */
const struct tsr_policy_ops *tsr_policy_find(const char *spec);

/*
 * 1 if the name part of a spec ends in "+ucd" (uncached displayable
 * color, see the top of this file), 0 otherwise.
 */
int tsr_policy_spec_ucd(const char *spec);

/* The parameter part of a spec (after ':'), or NULL if there is none. */
const char *tsr_policy_spec_params(const char *spec);

/* Writes the comma-separated list of policy names into buf. */
void tsr_policy_list(char *buf, unsigned n);

/*
 * Writes the policy table as Markdown into buf (n bytes, NUL-terminated,
 * truncated if short): one row per policy with its aliases, what it does,
 * its parameters with their defaults and the paper it follows (the table
 * of docs/techniques.md). Returns the length of the whole table (without
 * the NUL), so tsr_policy_markdown(NULL, 0) + 1 is the size to allocate.
 */
size_t tsr_policy_markdown(char *buf, size_t n);

/*
 * Parses "key=value,key=value" (values are unsigned integers, decimal or
 * 0x hex) into vals[] in the order of keys[] (NULL-terminated). vals[]
 * must hold the defaults on entry; keys absent from params keep them.
 * Each value must lie in [min[i], max[i]]. Errors: TSR_ERR_CONFIG naming
 * the cache, the policy and the key, listing the valid keys.
 */
enum tsr_status tsr_policy_params_parse(const struct tsr_policy_config *cfg,
					const char *policy,
					const char *const *keys,
					const uint64_t *min, const uint64_t *max,
					uint64_t *vals, struct tsr_error *err);

/*
 * Refuses an offline policy (OPT, OPTPT) for a cache of the online
 * hierarchy; `where` names the cache or config key in the message.
 * Errors: TSR_ERR_CONFIG.
 */
enum tsr_status tsr_policy_check_online(const char *spec, const char *where,
					const char *cache, struct tsr_error *err);

/* A hit or fill hook for policies that keep no state for it (FIFO hits, Random). */
void tsr_policy_ignore(void *state, uint32_t set, uint32_t way,
		       const struct tsr_line *set_lines, const struct tsr_access *a);

/* Role of a set in set dueling or sampling. */
enum tsr_set_role {
	TSR_SET_FOLLOWER = 0,  /* follows the winner (or the policy's own rule) */
	TSR_SET_LEADER_A = 1,  /* always runs the first competitor (e.g. SRRIP, LRU) */
	TSR_SET_LEADER_B = 2,  /* always runs the second (e.g. BRRIP, BIP) */
};

/*
 * The role of `set` among `sets` when `leaders` sets are dedicated to each
 * of two competitors, chosen by complement select (Qureshi et al., ISCA
 * 2007, as DRRIP and DIP use it): the sets are cut into `leaders`
 * constituencies; in constituency r the set at offset r mod size leads A
 * and the set at offset size-1-(r mod size) leads B. With fewer than 4
 * sets per pair of leaders (tiny or fully associative caches) the leaders
 * shrink to sets/4, and a cache with fewer than 4 sets has none.
 */
enum tsr_set_role tsr_policy_set_role(uint32_t set, uint32_t sets,
				      uint32_t leaders);

/* Bank of a set when `banks` banks interleave sets (set mod banks). */
static inline uint32_t tsr_policy_bank(uint32_t set, uint32_t banks)
{
	return set % banks;
}

/* The policies (one file each). */
extern const struct tsr_policy_ops tsr_policy_lru;
extern const struct tsr_policy_ops tsr_policy_mru;
extern const struct tsr_policy_ops tsr_policy_fifo;
extern const struct tsr_policy_ops tsr_policy_random;
extern const struct tsr_policy_ops tsr_policy_nru;
extern const struct tsr_policy_ops tsr_policy_srrip;
extern const struct tsr_policy_ops tsr_policy_brrip;
extern const struct tsr_policy_ops tsr_policy_drrip;
extern const struct tsr_policy_ops tsr_policy_ship_mem;
extern const struct tsr_policy_ops tsr_policy_dip;
extern const struct tsr_policy_ops tsr_policy_opt;
extern const struct tsr_policy_ops tsr_policy_optpt;
extern const struct tsr_policy_ops tsr_policy_tcor_l2;
extern const struct tsr_policy_ops tsr_policy_gs_drrip;
extern const struct tsr_policy_ops tsr_policy_gspztc;
extern const struct tsr_policy_ops tsr_policy_gspztc_tse;
extern const struct tsr_policy_ops tsr_policy_gspc;

#endif
