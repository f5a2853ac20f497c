/*
 * tcor_attribute_cache.c - TCOR's Attribute Cache (TCOR III-C), the state
 * machine documented in tcor_attribute_cache.h. The Primitive Buffer is
 * kept as structure of arrays: what only the Attribute Cache knows
 * (Primitive ID, OPT Number, ABP, locks) in struct pb_line, and the tag
 * store replacement policies see (valid, dirty, metadata) in struct
 * tsr_line, so LRU, MRU and DRRIP run as the policy modules of memory/
 * through their pinned-line hooks (memory/policy.h: victim_among, rank).
 */
#include "techniques/tcor_attribute_cache.h"

#include <stdlib.h>
#include <string.h>

#include "core/stream.h"
#include "memory/policy.h"
#include "tiling/parameter_buffer.h"

#define NIL TSR_AC_NIL

/* One Primitive Buffer line (TCOR III-C-2, Fig. 8), beside its struct tsr_line. */
struct pb_line {
	uint64_t tag;      /* Primitive ID */
	uint32_t opt;      /* OPT Number */
	uint32_t abp;      /* Attribute Buffer Pointer: first entry */
	uint32_t n_attr;   /* attributes (the length of the ABP's list) */
	uint32_t locks;    /* counted lock bit: references not yet consumed */
	uint8_t chosen;    /* planned victim of the request being served */
};

struct tsr_attr_cache {
	struct tsr_ac_config cfg;
	struct tsr_ac_lower lower;
	struct tsr_ac_counters ctr;
	uint32_t sets, ways, set_bits;
	struct pb_line *lines;     /* sets x ways */
	struct tsr_line *view;     /* sets x ways: valid, dirty, meta (the request that
				      brought the line in), tag = Primitive ID / 64 */
	/* Attribute Buffer, structure of arrays */
	uint32_t entries;
	uint32_t *next;            /* next entry of the list (primitive or free) */
	uint8_t *ab_valid;
	uint8_t *ab_locked;        /* lock bit of a primitive's first entry */
	uint32_t free_head, free_count;
	uint32_t *plan;            /* victims of one request: max_attributes + 1 */
	uint32_t plan_n;
	/* LRU, MRU, DRRIP: a policy module of memory/; NULL for OPT (our own rule) */
	const struct tsr_policy_ops *policy;
	void *policy_state;
	uint8_t *eligible;         /* ways: the unlocked ways of a set (victim_among) */
};

void tsr_ac_destroy(struct tsr_attr_cache *ac)
{
	if (!ac)
		return;
	if (ac->policy && ac->policy_state)
		ac->policy->destroy(ac->policy_state);
	free(ac->lines);
	free(ac->view);
	free(ac->next);
	free(ac->ab_valid);
	free(ac->ab_locked);
	free(ac->plan);
	free(ac->eligible);
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
	ac->view = calloc(cfg->lines, sizeof(*ac->view));
	ac->next = malloc((size_t)ac->entries * sizeof(*ac->next));
	ac->ab_valid = malloc(ac->entries);
	ac->ab_locked = malloc(ac->entries);
	ac->plan = malloc(((size_t)cfg->max_attributes + 1) * sizeof(*ac->plan));
	ac->eligible = malloc(ac->ways);
	if (!ac->lines || !ac->view || !ac->next || !ac->ab_valid || !ac->ab_locked ||
	    !ac->plan || !ac->eligible) {
		tsr_ac_destroy(ac);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the attribute cache");
	}
	if (cfg->policy != TSR_AC_OPT) {
		/* the module's defaults (DRRIP: 32 leaders, 10-bit PSEL, 1/32), seed 1 */
		struct tsr_policy_config pc = {
			.sets = ac->sets, .ways = ac->ways, .line_bytes = TSR_PB_BLOCK_BYTES,
			.seed = 1, .params = NULL, .cache = "attribute cache",
		};
		ac->policy = tsr_policy_find(tsr_ac_policy_name(cfg->policy));
		enum tsr_status s = ac->policy->create(&pc, &ac->policy_state, err);
		if (s != TSR_OK) {
			ac->policy_state = NULL;
			tsr_ac_destroy(ac);
			return s;
		}
	}
	tsr_ac_reset(ac);
	*out = ac;
	return TSR_OK;
}

/*
 * The policy's per-line state is not reset: a line is filled (on_fill)
 * before it can be a candidate again, and DRRIP's PSEL and random numbers
 * carry over from frame to frame.
 */
void tsr_ac_reset(struct tsr_attr_cache *ac)
{
	memset(ac->lines, 0, (size_t)ac->cfg.lines * sizeof(*ac->lines));
	memset(ac->view, 0, (size_t)ac->cfg.lines * sizeof(*ac->view));
	for (uint32_t e = 0; e < ac->entries; e++)
		ac->next[e] = e + 1 < ac->entries ? e + 1 : NIL;
	memset(ac->ab_valid, 0, ac->entries);
	memset(ac->ab_locked, 0, ac->entries);
	ac->free_head = 0;
	ac->free_count = ac->entries;
	ac->plan_n = 0;
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
	for (uint32_t w = 0; w < ac->ways; w++)
		if (ac->lines[base + w].tag == prim_id && ac->view[base + w].valid)
			return base + w;
	return NIL;
}

/* Unlocked: neither the line's lock nor its first entry's (III-C-5), and not planned. */
static int evictable(const struct tsr_attr_cache *ac, uint32_t i)
{
	const struct pb_line *l = &ac->lines[i];
	return ac->view[i].valid && !l->chosen && l->locks == 0 && !ac->ab_locked[l->abp];
}

/* The request as the policy modules see it (on the stack: nothing allocated). */
static struct tsr_access request(const struct tsr_attr_cache *ac, uint64_t prim_id,
				 uint32_t n, int write, uint32_t meta)
{
	struct tsr_access a = {
		.addr = prim_id, .size = n * ac->cfg.attribute_bytes, .write = (uint8_t)write,
		.stream = TSR_STREAM_PB_ATTRIBUTES, .meta = meta, .next_use = TSR_NEVER,
	};
	return a;
}

/*
 * The victim of full set `set` among its unlocked lines (III-C-5, III-C-6),
 * or NIL if every line is locked. OPT: the greatest OPT Number, lowest
 * way on ties. Otherwise the policy module's victim_among() over the
 * unlocked ways (which for DRRIP also ages the set).
 */
static uint32_t set_victim(struct tsr_attr_cache *ac, uint32_t set,
			   const struct tsr_access *a)
{
	uint32_t base = set * ac->ways, best = NIL;
	if (!ac->policy) {
		for (uint32_t i = base; i < base + ac->ways; i++)
			if (evictable(ac, i) && (best == NIL || ac->lines[i].opt > ac->lines[best].opt))
				best = i;
		return best;
	}
	int any = 0;
	for (uint32_t w = 0; w < ac->ways; w++)
		any |= ac->eligible[w] = (uint8_t)evictable(ac, base + w);
	if (!any)
		return NIL;
	uint32_t w = ac->policy->victim_among(ac->policy_state, set, &ac->view[base], a,
					      ac->eligible);
	return w < ac->ways && ac->eligible[w] ? base + w : NIL;
}

/*
 * The unlocked, unplanned line of the whole cache the policy would evict
 * first (greatest OPT Number, or greatest rank()), lowest line on ties;
 * NIL if there is none.
 */
static uint32_t cache_victim(const struct tsr_attr_cache *ac)
{
	uint32_t best = NIL;
	uint64_t best_rank = 0;
	for (uint32_t set = 0, i = 0; set < ac->sets; set++)
		for (uint32_t w = 0; w < ac->ways; w++, i++) {
			if (!evictable(ac, i))
				continue;
			uint64_t r = ac->policy ? ac->policy->rank(ac->policy_state, set, w)
						: ac->lines[i].opt;
			if (best == NIL || r > best_rank) {
				best = i;
				best_rank = r;
			}
		}
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
			  const struct tsr_access *a, int limit, uint32_t opt)
{
	uint32_t base = set * ac->ways, line = NIL;
	ac->plan_n = 0;
	for (uint32_t w = 0; w < ac->ways && line == NIL; w++)
		if (!ac->view[base + w].valid)
			line = base + w;
	uint64_t avail = ac->free_count;
	if (line == NIL) {
		/* III-C-6: the replacement policy only runs on a full set */
		uint32_t v = set_victim(ac, set, a);
		if (v == NIL || (limit && ac->lines[v].opt <= opt))
			return NIL;
		ac->lines[v].chosen = 1;
		ac->plan[ac->plan_n++] = v;
		avail += ac->lines[v].n_attr;
		line = v;
	}
	while (avail < n) {
		/* III-C-3: "in case of a dearth of space, more primitives are evicted" */
		uint32_t v = cache_victim(ac);
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
				ac->cfg.write_bytes ? ac->cfg.write_bytes : ac->cfg.attribute_bytes,
				meta);
	ac->ctr.lower_writes++;
}

/* III-C-5: writes a dirty victim back attribute by attribute, frees its entries. */
static void evict(struct tsr_attr_cache *ac, uint32_t i, const struct tsr_access *req)
{
	struct pb_line *l = &ac->lines[i];
	struct tsr_line *v = &ac->view[i];
	if (ac->policy && ac->policy->on_evict)
		ac->policy->on_evict(ac->policy_state, i / ac->ways, i % ac->ways, v, req);
	uint32_t a = 0;
	for (uint32_t e = l->abp; e != NIL; a++) {
		uint32_t nx = ac->next[e];
		if (v->dirty) {
			lower_write(ac, l->tag, a, v->meta);
			ac->ctr.writeback_attributes++;
		}
		ac->ab_valid[e] = 0;
		ac->ab_locked[e] = 0;
		ac->next[e] = ac->free_head;
		ac->free_head = e;
		ac->free_count++;
		e = nx;
	}
	if (v->dirty)
		ac->ctr.writeback_primitives++;
	ac->ctr.evictions++;
	memset(l, 0, sizeof(*l));
	memset(v, 0, sizeof(*v));
}

/* Evicts the planned victims and fills `line` with n fresh entries. */
static struct pb_line *fill(struct tsr_attr_cache *ac, uint32_t line,
			    uint64_t prim_id, uint32_t n, uint32_t opt,
			    const struct tsr_access *req, int dirty)
{
	for (uint32_t i = 0; i < ac->plan_n; i++)
		evict(ac, ac->plan[i], req);
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
	l->opt = opt;
	l->abp = first;
	l->n_attr = n;
	l->locks = 0;
	l->chosen = 0;
	struct tsr_line *v = &ac->view[line];
	v->tag = prim_id / TSR_PB_BLOCK_BYTES;
	v->meta = req->meta;
	v->valid = 1;
	v->dirty = (uint8_t)dirty;
	v->stream = TSR_STREAM_PB_ATTRIBUTES;
	if (ac->policy) {
		uint32_t set = line / ac->ways;
		ac->policy->on_fill(ac->policy_state, set, line % ac->ways,
				    &ac->view[set * ac->ways], req);
	}
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
	struct tsr_access req = request(ac, prim_id, n_attributes, 1, meta);
	/* III-C-4: OPT evicts only lines used after the request, else bypasses */
	uint32_t line = plan_room(ac, set, n_attributes, &req, ac->cfg.policy == TSR_AC_OPT,
				  opt_number);
	if (line == NIL) {
		for (uint32_t a = 0; a < n_attributes; a++)
			lower_write(ac, prim_id, a, meta);
		ac->ctr.write_bypasses++;
		return TSR_AC_BYPASSED;
	}
	fill(ac, line, prim_id, n_attributes, opt_number, &req, 1);
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
	struct tsr_access req = request(ac, prim_id, n_attributes, 0, meta);
	if (i != NIL) {
		struct pb_line *l = &ac->lines[i];
		if (l->n_attr != n_attributes)
			return TSR_AC_INVALID;
		lock(ac, l);
		l->opt = opt_number;
		if (ac->policy) {
			uint32_t set = i / ac->ways;
			ac->policy->on_hit(ac->policy_state, set, i % ac->ways,
					   &ac->view[set * ac->ways], &req);
		}
		ac->ctr.reads++;
		ac->ctr.read_hits++;
		return TSR_AC_HIT;
	}
	uint32_t line = plan_room(ac, tsr_ac_set_index(ac, prim_id), n_attributes, &req, 0, 0);
	if (line == NIL) {
		ac->ctr.stalls++;
		return TSR_AC_STALL;
	}
	struct pb_line *l = fill(ac, line, prim_id, n_attributes, opt_number, &req, 0);
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
		out->meta = ac->view[i].meta;
		out->dirty = ac->view[i].dirty;
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

const char *tsr_ac_result_str(enum tsr_ac_result r)
{
	static const char *const names[TSR_AC_RESULT_COUNT] = {
		"hit", "miss", "stall", "allocated", "bypassed", "invalid"};
	return (unsigned)r < TSR_AC_RESULT_COUNT ? names[r] : "unknown";
}
