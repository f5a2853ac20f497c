/*
 * policy_table.c - the one table that maps policy names and aliases to
 * their operations, and the helpers every policy shares: parameter
 * parsing and the choice of leader sets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"
#include "memory/policy.h"

/*
 * Every policy by name, then its aliases (rows whose name differs from
 * ops->name). A policy's row also documents it: what it does, its
 * parameters with their defaults, and the paper it follows; `tessera
 * cachesim --list-policies --markdown` prints them (tsr_policy_markdown(),
 * the table of docs/techniques.md, checked by test doc-generated).
 */
static const struct {
	const char *name;
	const struct tsr_policy_ops *ops;
	const char *summary;  /* NULL for an alias */
	const char *params;   /* "key (default), ..." or "" */
	const char *follows;  /* the paper and section, or "" */
} policies[] = {
	{"lru", &tsr_policy_lru, "least recently used", "", ""},
	{"mru", &tsr_policy_mru, "evict the most recently used line", "",
	 "boustrophedonic III-C (MRU FO behaves like OPT FO)"},
	{"fifo", &tsr_policy_fifo, "evict the oldest fill; hits change nothing", "", ""},
	{"random", &tsr_policy_random, "uniform victim from SplitMix64",
	 "`seed` (the cache's seed, 1)", ""},
	{"nru", &tsr_policy_nru,
	 "1 bit per line; victim the lowest way not recently used, else all reset", "",
	 "GSPC 1"},
	{"srrip", &tsr_policy_srrip,
	 "M-bit RRPV: fill at 2^M-2, hit to 0, victim the lowest way at 2^M-1 after ageing "
	 "the set", "`bits` (2)", "Jaleel et al. ISCA 2010; GSPC 1"},
	{"brrip", &tsr_policy_brrip,
	 "SRRIP filling at 2^M-1, at 2^M-2 with probability 1/`throttle`",
	 "`bits` (2), `throttle` (32), `seed`", "Jaleel et al. ISCA 2010"},
	{"drrip", &tsr_policy_drrip,
	 "set dueling SRRIP vs BRRIP: `leaders` leader sets each (complement select), "
	 "`psel_bits`-bit PSEL up on SRRIP-leader misses, down on BRRIP-leader misses; "
	 "followers use BRRIP while the MSB is set (PSEL starts just below the midpoint, so "
	 "SRRIP); no leaders with fewer than 4 sets",
	 "`leaders` (32), `psel_bits` (10), `bits` (2), `throttle` (32), `seed`",
	 "Jaleel et al. ISCA 2010; GSPC 1"},
	{"ship-mem", &tsr_policy_ship_mem,
	 "SRRIP ageing; per bank a table of `entries` `counter_bits`-bit counters indexed by "
	 "the 16 KiB region (address / `region_bytes` mod `entries`, i.e. bits [27:14]); a "
	 "hit increments the region's counter, an eviction of a never-reused line decrements "
	 "it; fill at RRPV 3 if the counter is 0, else 2",
	 "`region_bytes` (16384), `entries` (16384), `counter_bits` (3), `banks` (1, sets "
	 "interleaved), `init` (1), `bits` (2)",
	 "Wu et al. MICRO 2011 as GSPC 5.1 describes it"},
	{"ship", &tsr_policy_ship_mem, NULL, NULL, NULL},
	{"dip", &tsr_policy_dip,
	 "set dueling LRU vs BIP (insert at the LRU position, at MRU with probability "
	 "1/`throttle`)", "`leaders` (32), `psel_bits` (10), `throttle` (32), `seed`",
	 "Qureshi et al. ISCA 2007"},
	{"opt", &tsr_policy_opt,
	 "Belady's OPT: evict the line used farthest in the future (trace replay only)", "",
	 "boustrophedonic II-D; TCOR V-A"},
	{"belady", &tsr_policy_opt, NULL, NULL, NULL},
	{"min", &tsr_policy_opt, NULL, NULL, NULL},
	{"optpt", &tsr_policy_optpt,
	 "OPT with bypass (McFarling): bypass the incoming line when its next use is later "
	 "than every resident line's (or never; trace replay only)", "",
	 "boustrophedonic II-D"},
	{"tcor-l2", &tsr_policy_tcor_l2,
	 "L2 policy that knows dead Parameter Buffer lines (from the Tiling Engine's "
	 "metadata: PB type, last tile position in the frame's tile order, frame): evicts "
	 "dead PB lines first, then non-PB lines, then live PB lines, LRU within each class; "
	 "a dead victim is dropped without write-back even if dirty (counted as a discard). "
	 "A PB line is dead when its last tile has finished (tile markers mark tile starts) "
	 "or when it belongs to an earlier frame (tessera's choice; the paper leaves it "
	 "open); nothing is dead before the first frame marker", "", "TCOR III-D"},
	{"gs-drrip", &tsr_policy_gs_drrip,
	 "graphics stream-aware DRRIP: thread-aware DRRIP with the four GSPC stream classes "
	 "(Z, texture, render target, other) in place of threads; each class has its own "
	 "`psel_bits`-bit PSEL and its own SRRIP and BRRIP leaders (the GSPC sample sets "
	 "split 4 classes x 2: sample n = set & 15 leads class (n >> 1) & 3, SRRIP if n is "
	 "even); other fills of a class follow its PSEL",
	 "`psel_bits` (10), `bits` (2; 4: Fig. 14's four-bit GS-DRRIP), `throttle` (32), "
	 "`seed`", "GSPC 3, Table 6, Fig. 14"},
	{"gspztc", &tsr_policy_gspztc,
	 "sample sets (16 of every 1024) run 2-bit SRRIP and count per bank FILL/HIT of Z and "
	 "texture; elsewhere Z fills at 3 if FILL(Z) > t.HIT(Z) else 2, texture fills at 3 if "
	 "FILL(TEX) > t.HIT(TEX) else 0, render targets at 0, other at 2, every hit 0; the "
	 "7-bit ACC(ALL) halves the counters when it saturates",
	 "`t` (8), `bank_bytes` (2097152)", "GSPC 3, Tables 2-3"},
	{"gspztc+tse", &tsr_policy_gspztc_tse,
	 "GSPZTC with texture sampler epochs: 2 state bits per line (E0, E1, E>=2, render "
	 "target); FILL/HIT counted per epoch 0 and 1; a texture block entering E0 or E1 "
	 "gets RRPV 3 when its epoch's FILL > t.HIT, else 0",
	 "`t` (8), `bank_bytes` (2097152)", "GSPC 3, Fig. 10, Table 4"},
	{"gspztc-tse", &tsr_policy_gspztc_tse, NULL, NULL, NULL},
	{"gspc", &tsr_policy_gspc,
	 "GSPZTC+TSE plus PROD/CONS per bank (render targets filled into samples / consumed "
	 "by a texture hit there); a render-target fill elsewhere gets RRPV 3 if PROD > "
	 "16.CONS, 2 if PROD > 8.CONS, else 0",
	 "`t` (8), `bank_bytes` (2097152)", "GSPC 3, Table 5"},
};

/* The "+ucd" suffix of a spec's name part (policy.h, uncached displayable color). */
#define UCD_SUFFIX "+ucd"
#define UCD_LEN (sizeof(UCD_SUFFIX) - 1)

int tsr_policy_spec_ucd(const char *spec)
{
	size_t n = strcspn(spec, ":");
	return n > UCD_LEN && strncmp(spec + n - UCD_LEN, UCD_SUFFIX, UCD_LEN) == 0;
}

#define POLICY_COUNT (sizeof(policies) / sizeof(policies[0]))

const struct tsr_policy_ops *tsr_policy_find(const char *spec)
{
	size_t n = strcspn(spec, ":");
	if (tsr_policy_spec_ucd(spec))
		n -= UCD_LEN;
	for (size_t i = 0; i < POLICY_COUNT; i++)
		if (strlen(policies[i].name) == n &&
		    strncmp(policies[i].name, spec, n) == 0)
			return policies[i].ops;
	return NULL;
}

const char *tsr_policy_spec_params(const char *spec)
{
	const char *c = strchr(spec, ':');
	return c && c[1] ? c + 1 : NULL;
}

void tsr_policy_list(char *buf, unsigned n)
{
	size_t used = 0;
	if (n)
		buf[0] = '\0';
	for (size_t i = 0; i < POLICY_COUNT; i++) {
		if (strcmp(policies[i].ops->name, policies[i].name) != 0)
			continue;  /* aliases are not listed */
		int w = snprintf(buf + used, n - used, "%s%s", used ? ", " : "",
				 policies[i].name);
		if (w < 0 || (size_t)w >= n - used)
			break;
		used += (size_t)w;
	}
}

/* snprintf() into buf at *used, never past n; *used counts what was wanted. */
static void md_append(char *buf, size_t n, size_t *used, const char *fmt, const char *a,
		      const char *b)
{
	int w = snprintf(*used < n ? buf + *used : NULL, *used < n ? n - *used : 0, fmt, a, b);
	if (w > 0)
		*used += (size_t)w;
}

size_t tsr_policy_markdown(char *buf, size_t n)
{
	size_t used = 0;
	if (n)
		buf[0] = '\0';
	md_append(buf, n, &used, "%s%s", "| name | policy | parameters (default) | follows |\n",
		  "| --- | --- | --- | --- |\n");
	for (size_t i = 0; i < POLICY_COUNT; i++) {
		if (!policies[i].summary)
			continue;  /* an alias: listed beside its policy */
		md_append(buf, n, &used, "| `%s`%s", policies[i].name, "");
		int aliases = 0;
		for (size_t j = 0; j < POLICY_COUNT; j++)
			if (policies[j].ops == policies[i].ops && !policies[j].summary)
				md_append(buf, n, &used, aliases++ ? ", `%s`%s" : " (`%s`%s",
					  policies[j].name, "");
		md_append(buf, n, &used, "%s | %s", aliases ? ")" : "", policies[i].summary);
		md_append(buf, n, &used, " | %s | %s |\n", policies[i].params,
			  policies[i].follows);
	}
	return used;
}

void tsr_policy_ignore(void *state, uint32_t set, uint32_t way,
		       const struct tsr_line *set_lines, const struct tsr_access *a)
{
	(void)state;
	(void)set;
	(void)way;
	(void)set_lines;
	(void)a;
}

enum tsr_status tsr_policy_check_online(const char *spec, const char *where,
					const char *cache, struct tsr_error *err)
{
	const struct tsr_policy_ops *ops = tsr_policy_find(spec);
	if (ops && ops->offline)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "%s: policy '%s' needs future knowledge; record the cache's input "
				     "with 'tessera run --record-trace %s=FILE' and replay it with "
				     "'tessera cachesim'",
				     where, spec, cache);
	return TSR_OK;
}

enum tsr_status tsr_policy_params_parse(const struct tsr_policy_config *cfg,
					const char *policy,
					const char *const *keys,
					const uint64_t *min, const uint64_t *max,
					uint64_t *vals, struct tsr_error *err)
{
	const char *p = cfg->params;
	const char *cache = cfg->cache ? cfg->cache : "?";
	char valid[256];
	while (p && *p) {
		size_t len = strcspn(p, ",");
		const char *eq = memchr(p, '=', len);
		size_t klen = eq ? (size_t)(eq - p) : len;
		int k = -1;
		for (int i = 0; keys[i]; i++)
			if (strlen(keys[i]) == klen && strncmp(keys[i], p, klen) == 0)
				k = i;
		if (k < 0) {
			tsr_names_join(valid, sizeof(valid), keys);
			if (!keys[0])
				snprintf(valid, sizeof(valid), "none");
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "cache '%s': policy '%s' has no parameter '%.*s' (valid: %s)",
					     cache, policy, (int)klen, p, valid);
		}
		char num[32];
		size_t vlen = eq ? len - klen - 1 : 0;
		if (!eq || vlen == 0 || vlen >= sizeof(num))
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "cache '%s': policy '%s' parameter '%s' needs a value (%s=N)",
					     cache, policy, keys[k], keys[k]);
		memcpy(num, eq + 1, vlen);
		num[vlen] = '\0';
		char *end;
		errno = 0;
		unsigned long long v = strtoull(num, &end, 0);
		if (errno || *end || num[0] == '-' || v < min[k] || v > max[k])
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "cache '%s': policy '%s' parameter '%s' is '%s', not an integer from %llu to %llu",
					     cache, policy, keys[k], num,
					     (unsigned long long)min[k], (unsigned long long)max[k]);
		vals[k] = v;
		p += len;
		if (*p == ',')
			p++;
	}
	return TSR_OK;
}

enum tsr_set_role tsr_policy_set_role(uint32_t set, uint32_t sets,
				      uint32_t leaders)
{
	if (sets < 4 || leaders == 0)
		return TSR_SET_FOLLOWER;
	if (leaders > sets / 4)
		leaders = sets / 4;
	uint32_t size = sets / leaders;  /* sets per constituency (>= 4) */
	uint32_t r = set / size, off = set % size;
	if (r >= leaders)
		return TSR_SET_FOLLOWER;  /* sets not a multiple of leaders */
	if (off == r % size)
		return TSR_SET_LEADER_A;
	if (off == size - 1 - r % size)
		return TSR_SET_LEADER_B;
	return TSR_SET_FOLLOWER;
}
