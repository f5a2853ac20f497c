#include "tiling/attribute_cache.h"

#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "memory/duel.h"  /* set dueling and RRPVs shared with the L2 policies */
#include "memory/rrip.h"
#include "tiling/parameter_buffer.h"

#define NIL TSR_AC_NIL

/* One Primitive Buffer line (TCOR III-C-2, Fig. 8). */
struct pb_line {
	uint64_t tag;      /* Primitive ID */
	uint64_t stamp;    /* last fill or hit (LRU, MRU) */
	uint32_t opt;      /* OPT Number */
	uint32_t abp;      /* Attribute Buffer Pointer: first entry */
	uint32_t n_attr;   /* attributes (the length of the ABP's list) */
	uint32_t locks;    /* counted lock bit: references not yet consumed */
	uint32_t meta;     /* metadata of the request that brought it in */
	uint8_t valid;
	uint8_t dirty;
	uint8_t chosen;    /* planned victim of the request being served */
	uint8_t rrpv;      /* re-reference prediction value (DRRIP) */
};

struct tsr_attr_cache {
	struct tsr_ac_config cfg;
	struct tsr_ac_lower lower;
	struct tsr_ac_counters ctr;
	uint32_t sets, ways, set_bits;
	struct pb_line *lines;     /* sets x ways */
	/* Attribute Buffer, structure of arrays */
	uint32_t entries;
	uint32_t *next;            /* next entry of the list (primitive or free) */
	uint8_t *ab_valid;
	uint8_t *ab_locked;        /* lock bit of a primitive's first entry */
	uint32_t free_head, free_count;
	uint32_t *plan;            /* victims of one request: max_attributes + 1 */
	uint32_t plan_n;
	uint64_t clock;            /* stamps for LRU and MRU */
	struct tsr_duel duel;      /* DRRIP: SRRIP (A) vs BRRIP (B) */
	uint8_t *roles;            /* DRRIP: sets */
	struct tsr_rng rng;        /* DRRIP: bimodal insertion */
};

static const char *const policy_names[TSR_AC_POLICY_COUNT] = {"opt", "lru", "mru", "drrip"};

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

void tsr_ac_config_defaults(struct tsr_ac_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->size_bytes = 48 * 1024;
	cfg->attribute_entry_bytes = TSR_PB_BLOCK_BYTES;
	cfg->attribute_bytes = 48;
	cfg->lines = cfg->size_bytes / cfg->attribute_entry_bytes / 2;
	cfg->ways = 6;
	cfg->max_attributes = 33;
	cfg->xor_index = 1;
	cfg->policy = TSR_AC_OPT;
}

enum tsr_status tsr_ac_config_check(const struct tsr_ac_config *c,
				    struct tsr_error *err)
{
	static const char who[] = "attribute cache";
	if (c->size_bytes == 0)
		return tsr_error_set(err, TSR_ERR_GEOMETRY, "%s: size_bytes is 0", who);
	if (c->attribute_entry_bytes == 0)
		return tsr_error_set(err, TSR_ERR_GEOMETRY, "%s: attribute_entry_bytes is 0", who);
	if (c->size_bytes % c->attribute_entry_bytes)
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "%s: size_bytes %u is not a multiple of attribute_entry_bytes %u",
				     who, c->size_bytes, c->attribute_entry_bytes);
	if (c->attribute_bytes == 0)
		return tsr_error_set(err, TSR_ERR_GEOMETRY, "%s: attribute_bytes is 0", who);
	if (c->attribute_bytes > c->attribute_entry_bytes ||
	    c->attribute_bytes > TSR_PB_BLOCK_BYTES)
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "%s: attribute_bytes %u exceeds attribute_entry_bytes %u or the %u-byte block",
				     who, c->attribute_bytes, c->attribute_entry_bytes,
				     TSR_PB_BLOCK_BYTES);
	if (c->lines == 0)
		return tsr_error_set(err, TSR_ERR_GEOMETRY, "%s: lines is 0", who);
	uint32_t ways = c->ways ? c->ways : c->lines;
	if (ways > c->lines || c->lines % ways)
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "%s: lines %u is not a multiple of ways %u", who,
				     c->lines, ways);
	if (!is_pow2(c->lines / ways))
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "%s: %u sets (lines %u / ways %u) is not a power of two",
				     who, c->lines / ways, c->lines, ways);
	if (c->max_attributes == 0)
		return tsr_error_set(err, TSR_ERR_GEOMETRY, "%s: max_attributes is 0", who);
	uint32_t entries = c->size_bytes / c->attribute_entry_bytes;
	if (entries < c->max_attributes)
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "%s: %u Attribute Buffer entries (size_bytes %u / attribute_entry_bytes %u) "
				     "cannot hold a primitive of max_attributes %u",
				     who, entries, c->size_bytes, c->attribute_entry_bytes,
				     c->max_attributes);
	if ((unsigned)c->policy >= TSR_AC_POLICY_COUNT)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "%s: unknown policy %d (valid: opt, lru, mru, drrip)", who,
				     (int)c->policy);
	return TSR_OK;
}

void tsr_ac_destroy(struct tsr_attr_cache *ac)
{
	if (!ac)
		return;
	free(ac->lines);
	free(ac->next);
	free(ac->ab_valid);
	free(ac->ab_locked);
	free(ac->plan);
	free(ac->roles);
	free(ac);
}

enum tsr_status tsr_ac_create(const struct tsr_ac_config *cfg,
			      const struct tsr_ac_lower *lower,
			      struct tsr_attr_cache **out, struct tsr_error *err)
{
	TSR_TRY(tsr_ac_config_check(cfg, err));
	struct tsr_attr_cache *ac = calloc(1, sizeof(*ac));
	if (!ac)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the attribute cache");
	ac->cfg = *cfg;
	if (lower)
		ac->lower = *lower;
	ac->ways = cfg->ways ? cfg->ways : cfg->lines;
	ac->cfg.ways = ac->ways;
	ac->sets = cfg->lines / ac->ways;
	while ((1u << ac->set_bits) < ac->sets)
		ac->set_bits++;
	ac->entries = cfg->size_bytes / cfg->attribute_entry_bytes;
	ac->lines = calloc(cfg->lines, sizeof(*ac->lines));
	ac->next = malloc((size_t)ac->entries * sizeof(*ac->next));
	ac->ab_valid = malloc(ac->entries);
	ac->ab_locked = malloc(ac->entries);
	ac->plan = malloc(((size_t)cfg->max_attributes + 1) * sizeof(*ac->plan));
	ac->roles = malloc(ac->sets);
	if (!ac->lines || !ac->next || !ac->ab_valid || !ac->ab_locked || !ac->plan ||
	    !ac->roles) {
		tsr_ac_destroy(ac);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the attribute cache");
	}
	tsr_duel_init(&ac->duel, ac->roles, ac->sets, 32, 10);
	tsr_rng_seed(&ac->rng, 1);
	tsr_ac_reset(ac);
	*out = ac;
	return TSR_OK;
}

void tsr_ac_reset(struct tsr_attr_cache *ac)
{
	memset(ac->lines, 0, (size_t)ac->cfg.lines * sizeof(*ac->lines));
	for (uint32_t e = 0; e < ac->entries; e++)
		ac->next[e] = e + 1 < ac->entries ? e + 1 : NIL;
	memset(ac->ab_valid, 0, ac->entries);
	memset(ac->ab_locked, 0, ac->entries);
	ac->free_head = 0;
	ac->free_count = ac->entries;
	ac->plan_n = 0;
	ac->clock = 0;
}

uint32_t tsr_ac_set_index(const struct tsr_attr_cache *ac, uint64_t prim_id)
{
	uint64_t b = prim_id / TSR_PB_BLOCK_BYTES;
	uint64_t mask = ac->sets - 1;
	if (!ac->cfg.xor_index || ac->set_bits == 0)
		return (uint32_t)(b & mask);
	/* González et al. [12]: fold every set_bits-wide chunk onto the index */
	uint64_t idx = 0;
	for (; b; b >>= ac->set_bits)
		idx ^= b & mask;
	return (uint32_t)idx;
}

static uint32_t find(const struct tsr_attr_cache *ac, uint64_t prim_id)
{
	uint32_t base = tsr_ac_set_index(ac, prim_id) * ac->ways;
	for (uint32_t w = 0; w < ac->ways; w++) {
		const struct pb_line *l = &ac->lines[base + w];
		if (l->valid && l->tag == prim_id)
			return base + w;
	}
	return NIL;
}

/* Unlocked: neither the line's lock nor its first entry's (III-C-5). */
static int evictable(const struct tsr_attr_cache *ac, const struct pb_line *l)
{
	return l->valid && !l->chosen && l->locks == 0 && !ac->ab_locked[l->abp];
}

/* 1 when line a is a better victim than line b under the policy. */
static int better(const struct tsr_attr_cache *ac, const struct pb_line *a,
		  const struct pb_line *b)
{
	switch (ac->cfg.policy) {
	case TSR_AC_LRU:
		return a->stamp < b->stamp;
	case TSR_AC_MRU:
		return a->stamp > b->stamp;
	case TSR_AC_DRRIP:
		return a->rrpv > b->rrpv;
	default:
		return a->opt > b->opt;
	}
}

/* The best unplanned evictable victim among lines [lo, hi), or NIL. */
static uint32_t pick(const struct tsr_attr_cache *ac, uint32_t lo, uint32_t hi)
{
	uint32_t best = NIL;
	for (uint32_t i = lo; i < hi; i++)
		if (evictable(ac, &ac->lines[i]) &&
		    (best == NIL || better(ac, &ac->lines[i], &ac->lines[best])))
			best = i;
	return best;
}

static void unplan(struct tsr_attr_cache *ac)
{
	for (uint32_t i = 0; i < ac->plan_n; i++)
		ac->lines[ac->plan[i]].chosen = 0;
	ac->plan_n = 0;
}

/*
 * Plans room for n attributes in set `set`: a free line or a victim of the
 * set, then more victims anywhere until enough entries are free. With
 * `limit` set (OPT writes) a victim must have an OPT Number greater than
 * opt. Returns the line to fill (victims in ac->plan, eviction order), or
 * NIL with nothing planned.
 */
static uint32_t plan_room(struct tsr_attr_cache *ac, uint32_t set, uint32_t n,
			  int limit, uint32_t opt)
{
	uint32_t base = set * ac->ways, line = NIL;
	ac->plan_n = 0;
	for (uint32_t w = 0; w < ac->ways && line == NIL; w++)
		if (!ac->lines[base + w].valid)
			line = base + w;
	uint64_t avail = ac->free_count;
	if (line == NIL) {
		/* III-C-6: the replacement policy only runs on a full set */
		uint32_t v = pick(ac, base, base + ac->ways);
		if (v == NIL || (limit && ac->lines[v].opt <= opt))
			return NIL;
		if (ac->cfg.policy == TSR_AC_DRRIP) {
			/* RRIP ageing: the set grows older until the victim is distant */
			uint8_t age = (uint8_t)(3 - ac->lines[v].rrpv);
			for (uint32_t w = 0; w < ac->ways; w++)
				if (ac->lines[base + w].valid)
					ac->lines[base + w].rrpv = (uint8_t)(ac->lines[base + w].rrpv + age);
		}
		ac->lines[v].chosen = 1;
		ac->plan[ac->plan_n++] = v;
		avail += ac->lines[v].n_attr;
		line = v;
	}
	while (avail < n) {
		/* III-C-3: "in case of a dearth of space, more primitives are evicted" */
		uint32_t v = pick(ac, 0, ac->cfg.lines);
		if (v == NIL || (limit && ac->lines[v].opt <= opt)) {
			unplan(ac);
			return NIL;
		}
		ac->lines[v].chosen = 1;
		ac->plan[ac->plan_n++] = v;
		avail += ac->lines[v].n_attr;
	}
	return line;
}

static void lower_write(struct tsr_attr_cache *ac, uint64_t prim_id, uint32_t a,
			uint32_t meta)
{
	if (ac->lower.write)
		ac->lower.write(ac->lower.ctx, prim_id + (uint64_t)a * TSR_PB_BLOCK_BYTES,
				ac->cfg.attribute_bytes, meta);
	ac->ctr.lower_writes++;
}

/* III-C-5: writes a dirty victim back attribute by attribute, frees its entries. */
static void evict(struct tsr_attr_cache *ac, uint32_t i)
{
	struct pb_line *l = &ac->lines[i];
	uint32_t a = 0;
	for (uint32_t e = l->abp; e != NIL; a++) {
		uint32_t nx = ac->next[e];
		if (l->dirty) {
			lower_write(ac, l->tag, a, l->meta);
			ac->ctr.writeback_attributes++;
		}
		ac->ab_valid[e] = 0;
		ac->ab_locked[e] = 0;
		ac->next[e] = ac->free_head;
		ac->free_head = e;
		ac->free_count++;
		e = nx;
	}
	if (l->dirty)
		ac->ctr.writeback_primitives++;
	ac->ctr.evictions++;
	memset(l, 0, sizeof(*l));
}

/* Evicts the planned victims and fills `line` with n fresh entries. */
static struct pb_line *fill(struct tsr_attr_cache *ac, uint32_t line,
			    uint64_t prim_id, uint32_t n, uint32_t opt,
			    uint32_t meta, int dirty)
{
	for (uint32_t i = 0; i < ac->plan_n; i++)
		evict(ac, ac->plan[i]);
	ac->plan_n = 0;
	/* the first n free entries are already linked: cut the list after them */
	uint32_t first = ac->free_head, e = first;
	for (uint32_t k = 1; k < n; k++) {
		ac->ab_valid[e] = 1;
		e = ac->next[e];
	}
	ac->ab_valid[e] = 1;
	ac->free_head = ac->next[e];
	ac->next[e] = NIL;
	ac->free_count -= n;
	struct pb_line *l = &ac->lines[line];
	l->tag = prim_id;
	l->stamp = ++ac->clock;
	l->opt = opt;
	l->abp = first;
	l->n_attr = n;
	l->locks = 0;
	l->meta = meta;
	l->valid = 1;
	l->dirty = (uint8_t)dirty;
	l->chosen = 0;
	if (ac->cfg.policy == TSR_AC_DRRIP)
		l->rrpv = tsr_duel_miss(&ac->duel, line / ac->ways)
			? tsr_rrip_bimodal(&ac->rng, 32, 3) : 2;
	return l;
}

enum tsr_ac_result tsr_ac_write(struct tsr_attr_cache *ac, uint64_t prim_id,
				uint32_t n_attributes, uint32_t opt_number,
				uint32_t meta)
{
	if (n_attributes == 0 || n_attributes > ac->cfg.max_attributes ||
	    find(ac, prim_id) != NIL)
		return TSR_AC_INVALID;
	ac->ctr.writes++;
	uint32_t set = tsr_ac_set_index(ac, prim_id);
	/* III-C-4: OPT evicts only lines used after the request, else bypasses */
	uint32_t line = plan_room(ac, set, n_attributes, ac->cfg.policy == TSR_AC_OPT,
				  opt_number);
	if (line == NIL) {
		for (uint32_t a = 0; a < n_attributes; a++)
			lower_write(ac, prim_id, a, meta);
		ac->ctr.write_bypasses++;
		return TSR_AC_BYPASSED;
	}
	fill(ac, line, prim_id, n_attributes, opt_number, meta, 1);
	ac->ctr.write_allocations++;
	return TSR_AC_ALLOCATED;
}

static void lock(struct tsr_attr_cache *ac, struct pb_line *l)
{
	l->locks++;
	ac->ab_locked[l->abp] = 1;
}

enum tsr_ac_result tsr_ac_read(struct tsr_attr_cache *ac, uint64_t prim_id,
			       uint32_t n_attributes, uint32_t opt_number,
			       uint32_t meta)
{
	if (n_attributes == 0 || n_attributes > ac->cfg.max_attributes)
		return TSR_AC_INVALID;
	uint32_t i = find(ac, prim_id);
	if (i != NIL) {
		struct pb_line *l = &ac->lines[i];
		if (l->n_attr != n_attributes)
			return TSR_AC_INVALID;
		lock(ac, l);
		l->opt = opt_number;
		l->stamp = ++ac->clock;
		l->rrpv = 0;
		ac->ctr.reads++;
		ac->ctr.read_hits++;
		return TSR_AC_HIT;
	}
	uint32_t line = plan_room(ac, tsr_ac_set_index(ac, prim_id), n_attributes, 0, 0);
	if (line == NIL) {
		ac->ctr.stalls++;
		return TSR_AC_STALL;
	}
	struct pb_line *l = fill(ac, line, prim_id, n_attributes, opt_number, meta, 0);
	for (uint32_t a = 0; a < n_attributes; a++)
		if (ac->lower.read)
			ac->lower.read(ac->lower.ctx, prim_id + (uint64_t)a * TSR_PB_BLOCK_BYTES,
				       ac->cfg.attribute_bytes, meta);
	ac->ctr.lower_reads += n_attributes;
	lock(ac, l);
	ac->ctr.reads++;
	ac->ctr.read_misses++;
	return TSR_AC_MISS;
}

enum tsr_status tsr_ac_consume(struct tsr_attr_cache *ac, uint64_t prim_id)
{
	uint32_t i = find(ac, prim_id);
	if (i == NIL || ac->lines[i].locks == 0)
		return TSR_ERR_INTERNAL;
	struct pb_line *l = &ac->lines[i];
	if (--l->locks == 0)
		ac->ab_locked[l->abp] = 0;
	return TSR_OK;
}

int tsr_ac_lookup(const struct tsr_attr_cache *ac, uint64_t prim_id,
		  struct tsr_ac_line_info *out)
{
	uint32_t i = find(ac, prim_id);
	if (i == NIL)
		return 0;
	if (out) {
		const struct pb_line *l = &ac->lines[i];
		out->set = i / ac->ways;
		out->way = i % ac->ways;
		out->opt_number = l->opt;
		out->abp = l->abp;
		out->n_attributes = l->n_attr;
		out->locks = l->locks;
		out->meta = l->meta;
		out->dirty = l->dirty;
	}
	return 1;
}

uint32_t tsr_ac_next_entry(const struct tsr_attr_cache *ac, uint32_t entry)
{
	return entry < ac->entries && ac->ab_valid[entry] ? ac->next[entry] : NIL;
}

const struct tsr_ac_counters *tsr_ac_counters_of(const struct tsr_attr_cache *ac)
{
	return &ac->ctr;
}

const struct tsr_ac_config *tsr_ac_config_of(const struct tsr_attr_cache *ac)
{
	return &ac->cfg;
}

uint32_t tsr_ac_sets(const struct tsr_attr_cache *ac)
{
	return ac->sets;
}

uint32_t tsr_ac_entries(const struct tsr_attr_cache *ac)
{
	return ac->entries;
}

uint32_t tsr_ac_free_entries(const struct tsr_attr_cache *ac)
{
	return ac->free_count;
}

const char *tsr_ac_policy_name(enum tsr_ac_policy p)
{
	return (unsigned)p < TSR_AC_POLICY_COUNT ? policy_names[p] : "unknown";
}

enum tsr_status tsr_ac_policy_parse(const char *name, enum tsr_ac_policy *out,
				    struct tsr_error *err)
{
	for (int p = 0; p < TSR_AC_POLICY_COUNT; p++)
		if (name && strcmp(name, policy_names[p]) == 0) {
			*out = (enum tsr_ac_policy)p;
			return TSR_OK;
		}
	return tsr_error_set(err, TSR_ERR_CONFIG,
			     "unknown attribute cache policy '%s' (valid: opt, lru, mru, drrip)",
			     name ? name : "");
}

const char *tsr_ac_result_str(enum tsr_ac_result r)
{
	static const char *const names[TSR_AC_RESULT_COUNT] = {
		"hit", "miss", "stall", "allocated", "bypassed", "invalid"};
	return (unsigned)r < TSR_AC_RESULT_COUNT ? names[r] : "unknown";
}
