/*
 * policy_ship_mem.c - SHiP-mem, signature-based hit prediction with memory
 * region signatures (Wu et al., MICRO 2011), as GSPC Section 5.1 evaluates
 * it: SRRIP (memory/policy_srrip.c) whose fill RRPV is predicted per
 * region of memory. The address space is cut into regions of
 * region_bytes (16 KiB); a line's signature is its region number modulo
 * `entries` (address bits [27:14] for the defaults) and indexes a table of
 * saturating counters of counter_bits bits, one table per bank (bank =
 * tsr_policy_bank(set, banks)). Each line keeps its signature and whether
 * it was re-used since its fill.
 *   hit:   counter[signature]++ (saturating), line re-used, RRPV 0
 *   evict: counter[signature]-- (down to 0) if the line was never re-used
 *   fill:  RRPV 2^M-1 if counter[signature] is 0, 2^M-2 otherwise
 * Victims are chosen as in SRRIP (memory/rrip.h).
 *
 * Counters start at `init`, 1 by default. Neither paper gives the reset
 * value; 1 makes an untrained SHiP-mem fill at 2^M-2 like SRRIP until a
 * region has shown a line evicted without re-use. With 0 every line would
 * start at the distant RRPV, like BRRIP without its 1/32 escape, and a
 * region could only start learning from a hit that comes before the next
 * miss of the set.
 *
 * Parameters: region_bytes (default 16384), entries (counters per bank,
 * default 16384), counter_bits (default 3, from 1 to 8), banks (default
 * 1), init (default 1, at most 2^counter_bits - 1), bits (M, default 2,
 * from 1 to 8).
 */
#include <stdlib.h>

#include "memory/policy.h"
#include "memory/rrip.h"

struct ship_state {
	struct tsr_rrip r;    /* first: the shared hooks see it */
	uint32_t line_bytes;
	uint64_t region_bytes;
	uint32_t entries;
	uint32_t banks;
	uint8_t counter_max;  /* 2^counter_bits - 1 */
	uint8_t *reused;      /* sets x ways: 1 once hit since the fill */
	uint8_t *counter;     /* banks x entries */
	uint32_t sig[];       /* sets x ways: signature of each line */
};

static enum tsr_status ship_create(const struct tsr_policy_config *cfg,
				   void **state, struct tsr_error *err)
{
	enum { REGION, ENTRIES, COUNTER_BITS, BANKS, INIT, BITS };
	static const char *const keys[] = {"region_bytes", "entries", "counter_bits",
					   "banks", "init", "bits", NULL};
	static const uint64_t min[] = {1, 1, 1, 1, 0, TSR_RRIP_BITS_MIN};
	static const uint64_t max[] = {UINT64_C(1) << 40, UINT32_C(1) << 24, 8,
				       UINT32_C(1) << 16, 255, TSR_RRIP_BITS_MAX};
	uint64_t vals[] = {16384, 16384, 3, 1, 1, 2};
	TSR_TRY(tsr_policy_params_parse(cfg, "ship-mem", keys, min, max, vals, err));
	uint64_t counter_max = (UINT64_C(1) << vals[COUNTER_BITS]) - 1;
	if (vals[INIT] > counter_max)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "cache '%s': policy 'ship-mem' parameter 'init' is %llu, not an integer from 0 to %llu (2^counter_bits - 1)",
				     cfg->cache ? cfg->cache : "?",
				     (unsigned long long)vals[INIT],
				     (unsigned long long)counter_max);
	size_t lines = (size_t)cfg->sets * cfg->ways;
	size_t counters = (size_t)vals[BANKS] * vals[ENTRIES];
	struct ship_state *s = malloc(sizeof(*s) + lines * (sizeof(uint32_t) + 2) + counters);
	if (!s)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for SHiP-mem state");
	s->r.ways = cfg->ways;
	s->line_bytes = cfg->line_bytes;
	s->region_bytes = vals[REGION];
	s->entries = (uint32_t)vals[ENTRIES];
	s->banks = (uint32_t)vals[BANKS];
	s->counter_max = (uint8_t)counter_max;
	s->r.distant = tsr_rrip_distant(vals[BITS]);
	s->r.rrpv = (uint8_t *)(s->sig + lines);
	s->reused = s->r.rrpv + lines;
	s->counter = s->reused + lines;
	for (size_t i = 0; i < lines; i++) {
		s->sig[i] = 0;
		s->r.rrpv[i] = 0;
		s->reused[i] = 0;
	}
	for (size_t i = 0; i < counters; i++)
		s->counter[i] = (uint8_t)vals[INIT];
	*state = s;
	return TSR_OK;
}

static void ship_destroy(void *state)
{
	free(state);
}

/* The counter of line i (set x ways + way), in the table of its set's bank. */
static uint8_t *ship_counter(struct ship_state *s, uint32_t set, size_t line)
{
	return &s->counter[(size_t)tsr_policy_bank(set, s->banks) * s->entries + s->sig[line]];
}

static void ship_hit(void *state, uint32_t set, uint32_t way,
		     const struct tsr_line *set_lines,
		     const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct ship_state *s = state;
	size_t i = (size_t)set * s->r.ways + way;
	uint8_t *c = ship_counter(s, set, i);
	if (*c < s->counter_max)
		(*c)++;
	s->reused[i] = 1;
	s->r.rrpv[i] = 0;
}

static void ship_evict(void *state, uint32_t set, uint32_t way,
		       const struct tsr_line *line,
		       const struct tsr_access *a)
{
	(void)line;
	(void)a;
	struct ship_state *s = state;
	size_t i = (size_t)set * s->r.ways + way;
	uint8_t *c = ship_counter(s, set, i);
	if (!s->reused[i] && *c > 0)
		(*c)--;
}

static void ship_fill(void *state, uint32_t set, uint32_t way,
		      const struct tsr_line *set_lines,
		      const struct tsr_access *a)
{
	(void)a;
	struct ship_state *s = state;
	size_t i = (size_t)set * s->r.ways + way;
	uint64_t addr = set_lines[way].tag * s->line_bytes;
	s->sig[i] = (uint32_t)((addr / s->region_bytes) % s->entries);
	s->reused[i] = 0;
	s->r.rrpv[i] = *ship_counter(s, set, i) == 0 ? s->r.distant
						   : (uint8_t)(s->r.distant - 1);
}

const struct tsr_policy_ops tsr_policy_ship_mem = {
	.name = "ship-mem",
	.create = ship_create,
	.destroy = ship_destroy,
	.victim = tsr_rrip_policy_victim,
	.on_hit = ship_hit,
	.on_fill = ship_fill,
	.on_evict = ship_evict,
};
