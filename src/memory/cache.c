#include "memory/cache.h"
#include "memory/tag_index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "memory/policy.h"
#include "memory/recency.h"

struct tsr_cache {
	char name[32];
	struct tsr_cache_geometry geom;
	uint32_t sets;
	uint32_t ways;
	uint32_t line_shift;
	uint8_t dirty_on_write;  /* 0 for a write-through cache */
	uint8_t uncached_display; /* 1: "+ucd" policy spec, display misses bypass (policy.h) */
	uint32_t gshift;         /* log2 of the bytes of one write-mask granule */
	uint64_t full_mask;      /* the granules of a whole line */
	uint64_t *masks;         /* sets x ways write masks (fetch_on_write = 0), else NULL */
	const struct tsr_policy_ops *policy;
	void *policy_state;
	struct tsr_line *lines;  /* sets x ways */
	uint8_t *rt;             /* sets x ways: GSPC 2.3's RT bit (1: a render-target line) */
	uint8_t rt_seen;         /* 1 once a render-target access came: rt[] is kept from
				    then on (a cache without one never touches rt[]) */
	struct tsr_cache_counters counters[TSR_STREAM_COUNT];
	struct tsr_cache_observer observer;  /* observer.access NULL: none */

	/* Caches of more than INDEX_MIN_WAYS ways (fully associative ones)
	 * find a line through a hash index instead of scanning the set, so a
	 * lookup costs O(1) whatever the associativity (a victim's cost is the
	 * policy's: O(1) for OPT and OPTPT, a scan of the set for most). Lines
	 * are never invalidated one by one, so a set's valid lines are its
	 * ways [0, filled[set]) and its first invalid way is filled[set], the
	 * one the scan would find. */
	struct tsr_tag_index index;  /* tag -> way; key NULL: none */
	uint32_t *filled;        /* per set: ways filled so far (every cache: lines are
				    filled into the first invalid way, so a set's valid
				    ways are [0, filled[set]) in any cache) */
	/* the policy's state when its on_hit is the plain recency touch of a
	 * narrow set (LRU, MRU, ...): a hit stamps the way inline, the same
	 * as the hook, without the indirect call; else NULL */
	struct tsr_recency *touch_inline;
	struct tsr_recency *fill_inline;  /* the same for on_fill */
	struct tsr_recency *victim_inline;
	/* bit `stream` set: tsr_cache_fast_hit declines that stream (render
	 * targets and display always, texture once rt_seen; every stream
	 * without an inline touch, with an observer or a hash index) */
	uint32_t fast_off;  /* the same for the oldest-stamp victim (LRU, FIFO) */
	uint32_t *hint;          /* per set: the way last hit or filled (a search
				    hint only: a lookup checks it first) */
	uint64_t *tagv;          /* sets x ways: each way's tag or TSR_CACHE_NO_TAG (cache.h) */
	struct tsr_cache_fast fast;  /* tsr_cache_fast_view(): fast_off kept by fast_update */
};

#define INDEX_MIN_WAYS 64u

/*
 * Streams whose lines are render targets for the inter-stream counters
 * (GSPC 2.3; display too: "displayable color is a render target", 5.1).
 * The TBR's frame-buffer flushes (color) are left out: no pass samples
 * the frame buffer, and single-pass runs keep their counters as before.
 */
static inline int is_render_target(uint8_t stream)
{
	return stream == TSR_STREAM_RENDER_TARGET || stream == TSR_STREAM_DISPLAY;
}

static void fast_update(struct tsr_cache *c)
{
	c->fast_off = (1u << TSR_STREAM_RENDER_TARGET) | (1u << TSR_STREAM_DISPLAY);
	if (c->rt_seen)
		c->fast_off |= 1u << TSR_STREAM_TEXTURE;
	if (!c->touch_inline || c->observer.access || c->index.key)
		c->fast_off = UINT32_MAX;
	c->fast.fast_off = c->fast_off;
	c->fast.simple = c->touch_inline && c->fill_inline == c->touch_inline &&
			 c->victim_inline == c->touch_inline && !c->policy->on_evict &&
			 !c->observer.access && !c->index.key && !c->uncached_display;
}

struct tsr_cache_fast *tsr_cache_fast_view(struct tsr_cache *c)
{
	return &c->fast;
}

static void tagv_reset(struct tsr_cache *c)
{
	for (size_t i = 0; i < (size_t)c->sets * c->ways; i++)
		c->tagv[i] = TSR_CACHE_NO_TAG;
}

static struct tsr_policy_config policy_config(const struct tsr_cache_geometry *g,
					      const char *name)
{
	struct tsr_policy_config pc = {
		.sets = g->size_bytes / (g->ways * g->line_bytes),
		.ways = g->ways,
		.line_bytes = g->line_bytes,
		.seed = g->seed ? g->seed : 1,
		.params = tsr_policy_spec_params(g->policy),
		.cache = name,
	};
	return pc;
}

static int is_pow2(uint32_t x)
{
	return x && !(x & (x - 1));
}

enum tsr_status tsr_cache_geometry_check(const struct tsr_cache_geometry *g,
					 const char *name,
					 struct tsr_error *err)
{
	if (g->size_bytes == 0 || g->ways == 0 || g->line_bytes == 0)
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "cache '%s': size_bytes, ways and line_bytes must be non-zero",
				     name);
	if (!is_pow2(g->line_bytes))
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "cache '%s': line_bytes %u is not a power of two",
				     name, g->line_bytes);
	uint64_t set_bytes = (uint64_t)g->ways * g->line_bytes;
	if (g->size_bytes % set_bytes != 0)
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "cache '%s': size_bytes %u is not a multiple of ways x line_bytes (%u x %u)",
				     name, g->size_bytes, g->ways, g->line_bytes);
	uint64_t sets = g->size_bytes / set_bytes;
	if (!is_pow2((uint32_t)sets))
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "cache '%s': %llu sets is not a power of two",
				     name, (unsigned long long)sets);
	if (g->ways > TSR_LIMIT_CACHE_WAYS)
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "cache '%s': %u ways is more than the limit of %u (most policies "
				     "scan every way of a set to choose a victim: use more sets)",
				     name, g->ways, TSR_LIMIT_CACHE_WAYS);
	/* the tag store, write masks, policy state (at most 16 bytes a line)
	 * and the hash index of a wide cache (at most 4 slots of 12 bytes a
	 * line), estimated before the policy's state is created below */
	uint64_t lines = g->size_bytes / g->line_bytes;
	char what[96];
	snprintf(what, sizeof(what), "the tag store of cache '%s'", name);
	TSR_TRY(tsr_memory_check(what, lines * (sizeof(struct tsr_line) +
					       (g->fetch_on_write ? 0 : sizeof(uint64_t)) + 16 +
					       (g->ways > INDEX_MIN_WAYS ? 4 * 12 : 0)),
				 err));
	const struct tsr_policy_ops *ops = tsr_policy_find(g->policy);
	if (!ops) {
		char list[256];
		tsr_policy_list(list, sizeof(list));
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "cache '%s': unknown replacement policy '%s' (valid: %s; any may end in +ucd)",
				     name, g->policy, list);
	}
	/* creating the state once validates the policy's parameters */
	struct tsr_policy_config pc = policy_config(g, name);
	void *state = NULL;
	enum tsr_status s = ops->create(&pc, &state, err);
	if (s == TSR_OK)
		ops->destroy(state);
	return s;
}

enum tsr_status tsr_cache_create(const struct tsr_cache_geometry *g,
				 const char *name, struct tsr_cache **out,
				 struct tsr_error *err)
{
	*out = NULL;
	enum tsr_status s = tsr_cache_geometry_check(g, name, err);
	if (s != TSR_OK)
		return s;
	struct tsr_cache *c = calloc(1, sizeof(*c));
	if (!c)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for cache '%s'", name);
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->geom = *g;
	c->ways = g->ways;
	c->sets = g->size_bytes / (g->ways * g->line_bytes);
	while ((1u << c->line_shift) < g->line_bytes)
		c->line_shift++;
	c->dirty_on_write = g->write_through ? 0 : 1;
	uint32_t granules = g->line_bytes < 64 ? g->line_bytes : 64;
	while ((granules << c->gshift) < g->line_bytes)
		c->gshift++;
	c->full_mask = granules == 64 ? UINT64_MAX : (UINT64_C(1) << granules) - 1;
	c->policy = tsr_policy_find(g->policy);
	c->uncached_display = (uint8_t)tsr_policy_spec_ucd(g->policy);
	c->lines = calloc((size_t)c->sets * c->ways, sizeof(*c->lines));
	c->hint = calloc(c->sets, sizeof(*c->hint));
	c->tagv = malloc((size_t)c->sets * c->ways * sizeof(*c->tagv));
	c->rt = calloc((size_t)c->sets * c->ways, 1);
	c->filled = calloc(c->sets, sizeof(*c->filled));
	if (!g->fetch_on_write && c->lines)
		c->masks = calloc((size_t)c->sets * c->ways, sizeof(*c->masks));
	int index_ok = 1;
	if (c->ways > INDEX_MIN_WAYS)
		index_ok = tsr_tag_index_init(&c->index, (uint64_t)c->sets * c->ways);
	if (!c->lines || !c->rt || !c->hint || !c->tagv || !c->filled || (!g->fetch_on_write && !c->masks) ||
	    !index_ok) {
		free(c->tagv);
		free(c->hint);
		free(c->rt);
		tsr_tag_index_release(&c->index);
		free(c->filled);
		free(c->masks);
		free(c->lines);
		free(c);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for cache '%s'", name);
	}
	struct tsr_policy_config pc = policy_config(g, c->name);
	s = c->policy->create(&pc, &c->policy_state, err);
	if (s == TSR_ERR_NOMEM)  /* the policies' messages name their state, not the cache */
		tsr_error_set(err, s, "out of memory for cache '%s' (%u sets x %u ways): policy '%s'",
			      name, c->sets, c->ways, g->policy);
	if (s != TSR_OK) {
		free(c->tagv);
		free(c->hint);
		tsr_tag_index_release(&c->index);
		free(c->filled);
		free(c->rt);
		free(c->masks);
		free(c->lines);
		free(c);
		return s;
	}
	tagv_reset(c);
	if (c->policy->on_hit == tsr_recency_touch &&
	    !((struct tsr_recency *)c->policy_state)->link)
		c->touch_inline = c->policy_state;
	c->fast = (struct tsr_cache_fast){
		.line_shift = c->line_shift, .set_mask = c->sets - 1, .ways = c->ways,
		.tagv = c->tagv, .lines = c->lines, .hint = c->hint,
		.stamp = c->touch_inline ? tsr_recency_set(c->touch_inline, 0) : NULL,
		.clock = c->touch_inline ? &c->touch_inline->clock : NULL,
		.counters = c->counters, .dirty_on_write = c->dirty_on_write,
		.has_masks = c->masks != NULL};
	if (c->policy->on_fill == tsr_recency_touch &&
	    !((struct tsr_recency *)c->policy_state)->link)
		c->fill_inline = c->policy_state;
	if (c->policy->victim == tsr_recency_victim_oldest &&
	    !((struct tsr_recency *)c->policy_state)->link)
		c->victim_inline = c->policy_state;
	fast_update(c);
	*out = c;
	return TSR_OK;
}

void tsr_cache_destroy(struct tsr_cache *c)
{
	if (!c)
		return;
	c->policy->destroy(c->policy_state);
	tsr_tag_index_release(&c->index);
	free(c->filled);
	free(c->hint);
	free(c->tagv);
	free(c->rt);
	free(c->masks);
	free(c->lines);
	free(c);
}

/*
 * The write-mask granules an access covers; *exact = 0 when it covers a
 * granule only in part (possible for lines longer than 64 bytes).
 */
static uint64_t granules_of(const struct tsr_cache *c, const struct tsr_access *a, int *exact)
{
	const uint32_t off = (uint32_t)a->addr & (c->geom.line_bytes - 1);
	const uint32_t size = a->size ? a->size : 1;
	const uint32_t first = off >> c->gshift, last = (off + size - 1) >> c->gshift;
	*exact = ((off | size) & ((UINT32_C(1) << c->gshift) - 1)) == 0;
	uint64_t hi = last >= 63 ? UINT64_MAX : (UINT64_C(1) << (last + 1)) - 1;
	return hi & ~((UINT64_C(1) << first) - 1);
}

/*
 * A hit on a partly written line: a write adds its bytes to the mask; a
 * read of bytes never written (or a write of part of a granule) is a
 * merge: the line is fetched from the next level and becomes whole.
 */
static void partial_hit(struct tsr_cache *c, const struct tsr_access *a, uint32_t set,
			uint32_t w, struct tsr_cache_outcome *out)
{
	struct tsr_line *l = &c->lines[(size_t)set * c->ways + w];
	uint64_t *mask = &c->masks[(size_t)set * c->ways + w];
	int exact;
	const uint64_t m = granules_of(c, a, &exact);
	if (a->write ? exact : (*mask & m) == m) {
		out->hit = 1;
		*mask |= m;
		l->partial = *mask != c->full_mask;
		return;
	}
	struct tsr_cache_counters *cnt = &c->counters[a->stream];
	if (a->write)
		cnt->write_misses++;
	else
		cnt->read_misses++;
	cnt->merges++;
	out->fetch = 1;
	out->merge = 1;
	l->partial = 0;
}

/*
 * tsr_cache_access(); absent = 1: the caller's tsr_cache_fast_lookup()
 * found the line absent just before (a narrow cache: no hash index), so
 * the lookup is skipped. simple (a constant): the cache's fast.simple is
 * set, and the checks it answers are left out.
 */
static inline __attribute__((always_inline)) void
access_line(struct tsr_cache *c, const struct tsr_access *a, struct tsr_cache_outcome *out,
	    int absent, const int simple)
{
	uint64_t tag = a->addr >> c->line_shift;
	uint32_t set = (uint32_t)tag & (c->sets - 1);
	struct tsr_line *sl = &c->lines[(size_t)set * c->ways];
	struct tsr_cache_counters *cnt = &c->counters[a->stream];

	/* the set's stamps and lines, read or written below, while its tags
	 * are scanned (a miss's victim is known only after the stamps) */
	if (simple || c->fast.stamp)
		__builtin_prefetch(&c->fast.stamp[(size_t)set * c->ways]);
	__builtin_prefetch(sl);
	__builtin_prefetch(&sl[c->ways - 1]);
	memset(out, 0, sizeof(*out));
	if (!simple && c->observer.access)
		c->observer.access(c->observer.ctx, a);
	if (a->write)
		cnt->writes++;
	else
		cnt->reads++;

	/* the way holding the line (hit), else the set's first invalid way */
	uint32_t hit = UINT32_MAX, invalid = UINT32_MAX;
	if (!simple && c->index.key) {
		hit = tsr_tag_index_find(&c->index, tag);
		if (c->filled[set] < c->ways)
			invalid = c->filled[set];
	} else {
		/* tags are unique in a set: the hit (the hinted way first),
		 * then on a miss the first invalid way */
		const uint32_t h = c->hint[set];
		const uint64_t *tv = &c->tagv[(size_t)set * c->ways];
		if (tag != TSR_CACHE_NO_TAG) {
			/* the compact tags: an invalid way never matches (absent:
			 * the caller's lookup has just found none) */
			if (!absent) {
				if (tv[h] == tag)
					hit = h;
				else if ((hit = tsr_cache_tag_find(tv, c->ways, tag)) == c->ways)
					hit = UINT32_MAX;
			}
		} else if (sl[h].tag == tag && sl[h].valid) {
			hit = h;
		} else {
			for (uint32_t w = 0; w < c->ways; w++)
				if (sl[w].tag == tag && sl[w].valid) {
					hit = w;
					break;
				}
		}
		if (hit == UINT32_MAX && c->filled[set] < c->ways)
			invalid = c->filled[set];
	}
	if (hit != UINT32_MAX) {
		c->hint[set] = hit;
		out->way = hit;
		if (sl[hit].partial)
			partial_hit(c, a, set, hit, out);
		else
			out->hit = 1;
		if (simple)
			c->fast.stamp[(size_t)set * c->ways + hit] = ++*c->fast.clock;
		else if (c->touch_inline)
			tsr_recency_set(c->touch_inline, set)[hit] = ++c->touch_inline->clock;
		else
			c->policy->on_hit(c->policy_state, set, hit, sl, a);
		/* inter-stream reuse (GSPC 2.3): the line's RT bit */
		if (a->stream == TSR_STREAM_TEXTURE && c->rt_seen) {
			uint8_t *rt = &c->rt[(size_t)set * c->ways + hit];
			if (*rt && out->hit && !a->write)
				cnt->rt_consumed++;
			*rt = 0;
		} else if (is_render_target(a->stream)) {
			uint8_t *rt = &c->rt[(size_t)set * c->ways + hit];
			if (!c->rt_seen) {
				c->rt_seen = 1;
				fast_update(c);
			}
			cnt->rt_lines += !*rt;
			*rt = 1;
		}
		sl[hit].dirty |= a->write & c->dirty_on_write;
		sl[hit].meta = a->meta;
		return;
	}

	if (a->write)
		cnt->write_misses++;
	else
		cnt->read_misses++;

	uint32_t way = invalid;
	if (!simple && c->uncached_display && a->stream == TSR_STREAM_DISPLAY) {
		/* uncached displayable color (GSPC 5.1): never allocated, even
		 * into a free way; the policy does not see the miss */
		cnt->bypasses++;
		out->bypass = 1;
		out->way = TSR_POLICY_BYPASS;
		return;
	}
	if (way == UINT32_MAX) {
		uint32_t choice = simple ? tsr_recency_oldest(&c->fast.stamp[(size_t)set * c->ways], c->ways)
				  : c->victim_inline
				  ? tsr_recency_oldest(tsr_recency_set(c->victim_inline, set), c->ways)
				  : c->policy->victim(c->policy_state, set, sl, a);
		if (choice == TSR_POLICY_BYPASS) {
			cnt->bypasses++;
			out->bypass = 1;
			out->way = TSR_POLICY_BYPASS;
			/* a bypassed write goes to the next level as a write */
			return;
		}
		int discard = (choice & TSR_POLICY_DISCARD) != 0;
		way = choice & ~TSR_POLICY_DISCARD;
		struct tsr_line *v = &sl[way];
		if (!simple && c->index.key)
			tsr_tag_index_remove(&c->index, v->tag);
		if (!simple && c->policy->on_evict)
			c->policy->on_evict(c->policy_state, set, way, v, a);
		out->evicted = 1;
		out->victim_addr = v->tag << c->line_shift;
		out->victim_stream = v->stream;
		out->victim_meta = v->meta;
		if (v->partial)
			out->victim_mask = c->masks[(size_t)set * c->ways + way];
		if (v->dirty && discard) {
			c->counters[v->stream].discards++;
		} else if (v->dirty) {
			out->writeback = 1;
			c->counters[v->stream].writebacks++;
		}
	}
	out->way = way;
	c->hint[set] = way;
	if (!simple && c->index.key)
		tsr_tag_index_insert(&c->index, tag, way);
	if (way == c->filled[set])
		c->filled[set]++;
	struct tsr_line *l = &sl[way];
	c->fast.fills++;
	l->tag = tag;
	l->valid = 1;
	c->tagv[(size_t)set * c->ways + way] = tag;
	l->dirty = a->write & c->dirty_on_write;
	l->stream = a->stream;
	l->meta = a->meta;
	l->partial = 0;
	if (is_render_target(a->stream)) {
		if (!c->rt_seen) {
			c->rt_seen = 1;
			fast_update(c);
		}
		c->rt[(size_t)set * c->ways + way] = 1;
		cnt->rt_lines++;
	} else if (c->rt_seen) {
		c->rt[(size_t)set * c->ways + way] = 0;
	}
	/* a full-line write (e.g. an upper level's write-back) needs no fetch */
	out->fetch = !a->write || (a->size < c->geom.line_bytes && c->geom.fetch_on_write);
	if (!out->fetch && c->masks && a->size < c->geom.line_bytes) {
		int exact;
		uint64_t m = granules_of(c, a, &exact);
		if (exact) {  /* byte-masked write-allocate: no read below */
			c->masks[(size_t)set * c->ways + way] = m;
			l->partial = 1;
		} else {
			out->fetch = 1;  /* part of a granule: fetch as fetch_on_write */
		}
	}
	if (simple)
		c->fast.stamp[(size_t)set * c->ways + way] = ++*c->fast.clock;
	else if (c->fill_inline)
		tsr_recency_set(c->fill_inline, set)[way] = ++c->fill_inline->clock;
	else
		c->policy->on_fill(c->policy_state, set, way, sl, a);
}

void tsr_cache_access(struct tsr_cache *c, const struct tsr_access *a,
		      struct tsr_cache_outcome *out)
{
	access_line(c, a, out, 0, 0);
}

__attribute__((always_inline)) inline void
tsr_cache_access_simple(struct tsr_cache *c, const struct tsr_access *a,
			struct tsr_cache_outcome *out, int absent)
{
	access_line(c, a, out, absent, 1);
}

void tsr_cache_access_general(struct tsr_cache *c, const struct tsr_access *a,
			      struct tsr_cache_outcome *out, int absent)
{
	access_line(c, a, out, absent, 0);
}

int tsr_cache_fast_hit(struct tsr_cache *c, uint64_t addr, int write, uint8_t stream,
		       uint32_t meta)
{
	return tsr_cache_fast_hit_inline(&c->fast, addr, write, stream, meta);
}

void tsr_cache_marker(struct tsr_cache *c, enum tsr_marker kind, uint64_t value)
{
	if (c->policy->on_marker)
		c->policy->on_marker(c->policy_state, kind, value);
	if (c->observer.marker)
		c->observer.marker(c->observer.ctx, kind, value);
}

void tsr_cache_set_observer(struct tsr_cache *c, const struct tsr_cache_observer *o)
{
	if (o)
		c->observer = *o;
	else
		memset(&c->observer, 0, sizeof(c->observer));
	fast_update(c);
}

void tsr_cache_invalidate_all(struct tsr_cache *c)
{
	memset(c->lines, 0, (size_t)c->sets * c->ways * sizeof(*c->lines));
	tagv_reset(c);
	c->fast.fills++;
	memset(c->rt, 0, (size_t)c->sets * c->ways);
	c->rt_seen = 0;
	fast_update(c);
	memset(c->filled, 0, c->sets * sizeof(*c->filled));
	tsr_tag_index_clear(&c->index);
}

const char *tsr_cache_name(const struct tsr_cache *c)
{
	return c->name;
}

const struct tsr_cache_geometry *tsr_cache_geometry_of(const struct tsr_cache *c)
{
	return &c->geom;
}

uint32_t tsr_cache_sets(const struct tsr_cache *c)
{
	return c->sets;
}

uint64_t tsr_cache_rank(const struct tsr_cache *c, uint64_t addr, uint32_t way)
{
	if (!c->policy->rank || way >= c->ways)
		return UINT64_MAX;
	uint32_t set = (uint32_t)(addr >> c->line_shift) & (c->sets - 1);
	return c->policy->rank(c->policy_state, set, way);
}

const struct tsr_cache_counters *tsr_cache_counters_of(const struct tsr_cache *c,
						       enum tsr_stream s)
{
	return &c->counters[s];
}

void tsr_cache_counters_add(struct tsr_cache_counters *a, const struct tsr_cache_counters *b)
{
#define ADD_ONE(name, unit, merge, flags, help) a->name += b->name;
	TSR_CACHE_COUNTERS(ADD_ONE, ADD_ONE)
#undef ADD_ONE
}

uint32_t tsr_cache_mask_runs(const struct tsr_cache *c, uint64_t mask,
			     uint32_t offs[32], uint32_t sizes[32])
{
	uint32_t n = 0, g = 0;
	while (mask && n < 32) {
		while (!(mask & 1)) {
			mask >>= 1;
			g++;
		}
		uint32_t start = g;
		while (mask & 1) {
			mask >>= 1;
			g++;
		}
		offs[n] = start << c->gshift;
		sizes[n] = (g - start) << c->gshift;
		n++;
	}
	return n;
}

struct tsr_cache_counters tsr_cache_counters_total(const struct tsr_cache *c)
{
	struct tsr_cache_counters t = {0};
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		tsr_cache_counters_add(&t, &c->counters[s]);
	return t;
}
