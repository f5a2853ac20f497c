/*
 * policy_dip.c - dynamic insertion policy (Qureshi et al., ISCA 2007,
 * as GSPC Section 1.1.1 summarises it): LRU replacement whose insertion
 * position is chosen by set dueling between LRU insertion (a new line
 * goes to the MRU position) and BIP, bimodal insertion (a new line goes to
 * the LRU position, and only with probability 1/throttle to MRU). Leader
 * sets of LRU (role A) and of BIP (role B) are chosen by
 * tsr_policy_set_role(); a saturating counter PSEL goes up for a miss
 * (fill) in an LRU leader and down for one in a BIP leader; the other sets
 * insert as BIP while PSEL's most significant bit is set, as LRU
 * otherwise. PSEL starts at 2^(psel_bits-1) - 1, so followers start with
 * LRU; a cache with fewer than 4 sets has no leaders and stays LRU. A hit
 * moves the line to MRU; the victim is the LRU line.
 *
 * Recency is a stamp per line, as in policy_lru.c: MRU insertion and hits
 * take the next tick of a clock that starts at 2^63; LRU insertion takes
 * one less than the oldest other line of the set, so that it is older
 * than all of them (2^63 LRU insertions would be needed to wrap).
 *
 * Parameters: leaders (sets per competitor, default 32), psel_bits
 * (default 10, from 1 to 31), throttle (BIP's 1/throttle, default 32),
 * seed (default: the cache's seed).
 */
#include <stdlib.h>

#include "core/rng.h"
#include "memory/duel.h"
#include "memory/policy.h"
#include "memory/recency.h"

struct dip_state {
	uint32_t ways;
	uint32_t throttle;
	struct tsr_duel duel;  /* A = LRU insertion, B = BIP */
	uint64_t clock;      /* stamp of the latest MRU line */
	struct tsr_rng rng;
	uint64_t stamp[];    /* sets x ways: larger = more recent */
};

static enum tsr_status dip_create(const struct tsr_policy_config *cfg,
				  void **state, struct tsr_error *err)
{
	static const char *const keys[] = {"leaders", "psel_bits", "throttle",
					   "seed", NULL};
	static const uint64_t min[] = {0, 1, 1, 0};
	static const uint64_t max[] = {UINT32_MAX, 31, UINT32_MAX, UINT64_MAX};
	uint64_t vals[] = {32, 10, 32, cfg->seed};
	TSR_TRY(tsr_policy_params_parse(cfg, "dip", keys, min, max, vals, err));
	size_t lines = (size_t)cfg->sets * cfg->ways;
	struct dip_state *s = calloc(1, sizeof(*s) + lines * sizeof(uint64_t) + cfg->sets);
	if (!s)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for DIP state");
	s->ways = cfg->ways;
	s->throttle = (uint32_t)vals[2];
	tsr_rng_seed(&s->rng, vals[3]);
	s->clock = UINT64_C(1) << 63;
	/* the roles live after the stamps */
	tsr_duel_init(&s->duel, (uint8_t *)(s->stamp + lines), cfg->sets, (uint32_t)vals[0],
		      (uint32_t)vals[1]);
	*state = s;
	return TSR_OK;
}

static void dip_destroy(void *state)
{
	free(state);
}

static uint32_t dip_victim(void *state, uint32_t set,
			   const struct tsr_line *set_lines,
			   const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct dip_state *s = state;
	return tsr_recency_oldest(&s->stamp[(size_t)set * s->ways], s->ways);
}

static void dip_hit(void *state, uint32_t set, uint32_t way,
		    const struct tsr_line *set_lines,
		    const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct dip_state *s = state;
	s->stamp[(size_t)set * s->ways + way] = ++s->clock;
}

static void dip_fill(void *state, uint32_t set, uint32_t way,
		     const struct tsr_line *set_lines,
		     const struct tsr_access *a)
{
	(void)a;
	struct dip_state *s = state;
	uint64_t *st = &s->stamp[(size_t)set * s->ways];
	int bimodal = tsr_duel_miss(&s->duel, set);
	if (!bimodal || tsr_rng_below(&s->rng, s->throttle) == 0) {
		st[way] = ++s->clock;  /* MRU position */
		return;
	}
	/* LRU position: one tick older than the oldest other line */
	uint64_t oldest = s->clock + 1;  /* every stamp is <= clock */
	for (uint32_t w = 0; w < s->ways; w++)
		if (w != way && set_lines[w].valid && st[w] < oldest)
			oldest = st[w];
	st[way] = oldest - 1;
}

const struct tsr_policy_ops tsr_policy_dip = {
	.name = "dip",
	.create = dip_create,
	.destroy = dip_destroy,
	.victim = dip_victim,
	.on_hit = dip_hit,
	.on_fill = dip_fill,
};
