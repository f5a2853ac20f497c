/*
 * replay_kernel.c - the replay-only cache model of replay_kernel.h. Each
 * step below is the matching step of memory/cache.c's tsr_cache_access()
 * (and of the policy's hooks), restricted to what reaches a counter.
 */
#include "cachesim/replay_kernel.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "core/rng.h"
#include "memory/belady.h"
#include "memory/duel.h"
#include "memory/policy.h"
#include "memory/rrip.h"
#include "memory/tag_index.h"

enum rk_kind {
	RK_LRU, RK_MRU, RK_FIFO, RK_NRU, RK_SRRIP, RK_BRRIP, RK_DRRIP, RK_OPT,
	/* wide sets: LRU, MRU, FIFO over 16 ways and OPT over 64 (fully
	 * associative caches), found through a hash index */
	RK_LRU_W, RK_MRU_W, RK_FIFO_W, RK_OPT_W,
};

static inline int is_wide(enum rk_kind kind)
{
	return kind >= RK_LRU_W;
}

/* no way, no line (lists, the index) */
#define NONE UINT32_MAX

/* flag byte of a line */
#define F_DIRTY 1u
#define F_PARTIAL 2u
#define F_RT 4u
#define F_STREAM_SHIFT 3

/* tag of a way not filled yet (tags are at most 2^62 - 1) */
#define NO_TAG UINT64_MAX
/* key of a way not filled yet (narrow keys are below it) */
#define NO_KEY UINT32_MAX

/* the recency kernels keep a set's ways as nibbles of a uint64_t */
#define RK_RECENCY_MAX_WAYS 16u
#define NIBBLES UINT64_C(0x1111111111111111)

struct tsr_rk {
	enum rk_kind kind;
	uint32_t ways, set_mask, line_shift, line_bytes;
	uint8_t dirty_on_write;
	uint8_t ucd;
	uint8_t fetch_on_write;
	uint8_t distant;          /* RRIP */
	uint32_t gshift;
	uint64_t full_mask;
	uint64_t *tags;           /* sets x ways */
	/* sets x ways keys: a tag without its set bits, while every tag seen
	 * so far fits in 32 bits below NO_KEY (narrow); the lookup compares
	 * keys (4 bytes a way: 8 ways in two SSE2 compares) until a wider tag
	 * comes, and the full tags from then on */
	uint32_t *keys;
	uint32_t set_bits;
	uint8_t wide;
	uint8_t *flags;           /* sets x ways */
	uint32_t *filled;         /* sets: ways filled, [0, filled) */
	uint64_t *masks;          /* sets x ways write masks (fetch_on_write = 0), else NULL */
	uint64_t *order;          /* recency: sets; nibble 0 the newest way */
	uint8_t *rrpv;            /* RRIP: sets x ways */
	uint64_t *next;           /* OPT: sets x ways */
	/* wide sets: the index from tag to line (set x ways + way); the
	 * recency kinds keep each set's ways in a list, newest first (prev,
	 * nxt: lines' neighbours as ways, head and tail per set); OPT the
	 * cache model's next uses and per-set heaps (memory/belady.h) */
	struct tsr_tag_index index;
	uint32_t *prev, *nxt, *head, *tail;
	struct tsr_belady *belady;
	uint32_t throttle;        /* BRRIP, DRRIP */
	struct tsr_rng rng;
	struct tsr_duel duel;     /* DRRIP; roles in role[] */
	uint8_t *role;
	struct tsr_cache_counters counters[TSR_STREAM_COUNT];
};

static int is_render_target(uint8_t stream)
{
	return stream == TSR_STREAM_RENDER_TARGET || stream == TSR_STREAM_DISPLAY;
}

enum tsr_status tsr_rk_create(const struct tsr_cache_geometry *g, const char *spec,
			      struct tsr_rk **out, struct tsr_error *err)
{
	*out = NULL;
	const struct tsr_policy_ops *ops = tsr_policy_find(spec);
	enum rk_kind kind;
	if (ops == &tsr_policy_lru)
		kind = RK_LRU;
	else if (ops == &tsr_policy_mru)
		kind = RK_MRU;
	else if (ops == &tsr_policy_fifo)
		kind = RK_FIFO;
	else if (ops == &tsr_policy_nru)
		kind = RK_NRU;
	else if (ops == &tsr_policy_srrip)
		kind = RK_SRRIP;
	else if (ops == &tsr_policy_brrip)
		kind = RK_BRRIP;
	else if (ops == &tsr_policy_drrip)
		kind = RK_DRRIP;
	else if (ops == &tsr_policy_opt)
		kind = RK_OPT;
	else
		return TSR_OK;
	const uint32_t ways = g->ways;
	if (ways == 0 || !g->line_bytes || (g->line_bytes & (g->line_bytes - 1)))
		return TSR_OK;
	if (kind <= RK_FIFO && ways > RK_RECENCY_MAX_WAYS)
		kind = kind == RK_LRU ? RK_LRU_W : kind == RK_MRU ? RK_MRU_W : RK_FIFO_W;
	else if (kind == RK_OPT && ways > 64u)
		kind = RK_OPT_W;
	else if (ways > 64u)
		return TSR_OK;  /* NRU and RRIP over 64 ways: the cache model */
	const uint32_t sets = g->size_bytes / (ways * g->line_bytes);

	/* the policy's parameters, as its create() reads them */
	struct tsr_policy_config pc = {
		.sets = sets,
		.ways = ways,
		.line_bytes = g->line_bytes,
		.seed = g->seed ? g->seed : 1,
		.params = tsr_policy_spec_params(spec),
		.cache = "replay",
	};
	uint64_t bits = 2, throttle = 32, seed = pc.seed, leaders = 32, psel_bits = 10;
	if (kind == RK_SRRIP) {
		static const char *const keys[] = {"bits", NULL};
		static const uint64_t min[] = {TSR_RRIP_BITS_MIN};
		static const uint64_t max[] = {TSR_RRIP_BITS_MAX};
		uint64_t vals[] = {2};
		TSR_TRY(tsr_policy_params_parse(&pc, "srrip", keys, min, max, vals, err));
		bits = vals[0];
	} else if (kind == RK_BRRIP) {
		static const char *const keys[] = {"bits", "throttle", "seed", NULL};
		static const uint64_t min[] = {TSR_RRIP_BITS_MIN, 1, 0};
		static const uint64_t max[] = {TSR_RRIP_BITS_MAX, UINT32_MAX, UINT64_MAX};
		uint64_t vals[] = {2, 32, pc.seed};
		TSR_TRY(tsr_policy_params_parse(&pc, "brrip", keys, min, max, vals, err));
		bits = vals[0];
		throttle = vals[1];
		seed = vals[2];
	} else if (kind == RK_DRRIP) {
		static const char *const keys[] = {"leaders", "psel_bits", "bits",
						   "throttle", "seed", NULL};
		static const uint64_t min[] = {0, 1, TSR_RRIP_BITS_MIN, 1, 0};
		static const uint64_t max[] = {UINT32_MAX, 31, TSR_RRIP_BITS_MAX,
					       UINT32_MAX, UINT64_MAX};
		uint64_t vals[] = {32, 10, 2, 32, pc.seed};
		TSR_TRY(tsr_policy_params_parse(&pc, "drrip", keys, min, max, vals, err));
		leaders = vals[0];
		psel_bits = vals[1];
		bits = vals[2];
		throttle = vals[3];
		seed = vals[4];
	} else {
		static const char *const keys[] = {NULL};
		TSR_TRY(tsr_policy_params_parse(&pc, ops->name, keys, NULL, NULL, NULL, err));
	}

	struct tsr_rk *k = calloc(1, sizeof(*k));
	if (!k)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a replay kernel");
	const size_t lines = (size_t)sets * ways;
	k->kind = kind;
	k->ways = ways;
	k->set_mask = sets - 1;
	k->line_bytes = g->line_bytes;
	while ((1u << k->line_shift) < g->line_bytes)
		k->line_shift++;
	k->dirty_on_write = g->write_through ? 0 : 1;
	k->ucd = (uint8_t)tsr_policy_spec_ucd(spec);
	k->fetch_on_write = g->fetch_on_write ? 1 : 0;
	uint32_t granules = g->line_bytes < 64 ? g->line_bytes : 64;
	while ((granules << k->gshift) < g->line_bytes)
		k->gshift++;
	k->full_mask = granules == 64 ? UINT64_MAX : (UINT64_C(1) << granules) - 1;
	k->tags = malloc(lines * sizeof(*k->tags));
	k->keys = malloc(lines * sizeof(*k->keys));
	while ((UINT32_C(1) << k->set_bits) < sets)
		k->set_bits++;
	k->flags = calloc(lines, 1);
	k->filled = calloc(sets, sizeof(*k->filled));
	int ok = k->tags && k->keys && k->flags && k->filled;
	if (!g->fetch_on_write) {
		k->masks = calloc(lines, sizeof(*k->masks));
		ok = ok && k->masks;
	}
	if (is_wide(kind))
		ok = ok && tsr_tag_index_init(&k->index, lines);
	switch (kind) {
	case RK_LRU_W:
	case RK_MRU_W:
	case RK_FIFO_W:
		k->prev = malloc(lines * sizeof(*k->prev));
		k->nxt = malloc(lines * sizeof(*k->nxt));
		k->head = malloc(sets * sizeof(*k->head));
		k->tail = malloc(sets * sizeof(*k->tail));
		ok = ok && k->prev && k->nxt && k->head && k->tail;
		for (uint32_t i = 0; ok && i < sets; i++)
			k->head[i] = k->tail[i] = NONE;
		break;
	case RK_OPT_W:
		ok = ok && tsr_belady_create(sets, ways, &k->belady, NULL) == TSR_OK;
		break;
	case RK_LRU:
	case RK_MRU:
	case RK_FIFO:
		k->order = malloc(sets * sizeof(*k->order));
		ok = ok && k->order;
		if (k->order) {
			/* ways 0..W-1 in nibbles 0..W-1, unused nibbles 0xf (no way) */
			uint64_t o = UINT64_MAX;
			for (uint32_t w = 0; w < ways; w++)
				o = (o & ~(UINT64_C(15) << (4 * w))) | ((uint64_t)w << (4 * w));
			for (uint32_t s = 0; s < sets; s++)
				k->order[s] = o;
		}
		break;
	case RK_NRU:
	case RK_SRRIP:
	case RK_BRRIP:
	case RK_DRRIP:
		k->distant = kind == RK_NRU ? 1 : tsr_rrip_distant(bits);
		k->throttle = (uint32_t)throttle;
		tsr_rng_seed(&k->rng, seed);
		k->rrpv = calloc(lines, 1);
		ok = ok && k->rrpv;
		if (kind == RK_DRRIP) {
			k->role = malloc(sets);
			ok = ok && k->role;
			if (k->role)
				tsr_duel_init(&k->duel, k->role, sets, (uint32_t)leaders,
					      (uint32_t)psel_bits);
		}
		break;
	case RK_OPT:
		k->next = malloc(lines * sizeof(*k->next));
		ok = ok && k->next;
		for (size_t i = 0; k->next && i < lines; i++)
			k->next[i] = TSR_NEVER;
		break;
	}
	if (!ok) {
		tsr_rk_destroy(k);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a replay kernel");
	}
	for (size_t i = 0; i < lines; i++) {
		k->tags[i] = NO_TAG;
		k->keys[i] = NO_KEY;
	}
	*out = k;
	return TSR_OK;
}

void tsr_rk_destroy(struct tsr_rk *k)
{
	if (!k)
		return;
	free(k->tags);
	free(k->keys);
	free(k->flags);
	free(k->filled);
	free(k->masks);
	free(k->order);
	free(k->rrpv);
	free(k->next);
	free(k->role);
	tsr_tag_index_release(&k->index);
	free(k->prev);
	free(k->nxt);
	free(k->head);
	free(k->tail);
	tsr_belady_destroy(k->belady);
	free(k);
}

const struct tsr_cache_counters *tsr_rk_counters_of(const struct tsr_rk *k, enum tsr_stream s)
{
	return &k->counters[s];
}

/* Moves way w to the front (newest) of a set's recency order. */
static inline uint64_t order_touch(uint64_t order, uint32_t w)
{
	const uint64_t x = order ^ (w * NIBBLES);
	/* the lowest zero nibble of x: w's position (every way appears once) */
	const uint64_t z = (x - NIBBLES) & ~x & (NIBBLES << 3);
	const unsigned p = (unsigned)__builtin_ctzll(z) >> 2;
	const uint64_t below = order & ((UINT64_C(1) << (4 * p)) - 1);
	const uint64_t above = p >= 15 ? 0 : order & (UINT64_MAX << (4 * p + 4));
	return above | (below << 4) | w;
}

/* a's next use as the cache model's (TSR_NEVER when none) */
static inline uint64_t next_of(const struct tsr_line_access *a)
{
	return a->next_use == TSR_LINE_NEVER ? TSR_NEVER : a->next_use;
}

/* cache.c's granules_of() */
static inline uint64_t granules_of(const struct tsr_rk *k, const struct tsr_line_access *a,
				   int *exact)
{
	const uint32_t off = (uint32_t)a->addr & (k->line_bytes - 1);
	const uint32_t size = (uint32_t)a->size_m1 + 1;
	const uint32_t first = off >> k->gshift, last = (off + size - 1) >> k->gshift;
	*exact = ((off | size) & ((UINT32_C(1) << k->gshift) - 1)) == 0;
	uint64_t hi = last >= 63 ? UINT64_MAX : (UINT64_C(1) << (last + 1)) - 1;
	return hi & ~((UINT64_C(1) << first) - 1);
}

/* cache.c's partial_hit(): 1 if the access hits, 0 for a merge */
static int partial_hit(struct tsr_rk *k, const struct tsr_line_access *a, size_t line,
		       struct tsr_cache_counters *cnt)
{
	uint64_t *mask = &k->masks[line];
	int exact;
	const uint64_t m = granules_of(k, a, &exact);
	if ((a->flags & TSR_LINE_WRITE) ? exact : (*mask & m) == m) {
		*mask |= m;
		if (*mask == k->full_mask)
			k->flags[line] &= (uint8_t)~F_PARTIAL;
		return 1;
	}
	if (a->flags & TSR_LINE_WRITE)
		cnt->write_misses++;
	else
		cnt->read_misses++;
	cnt->merges++;
	k->flags[line] &= (uint8_t)~F_PARTIAL;
	return 0;
}

/*
 * memory/rrip.h's tsr_rrip_victim() with every way eligible, without a
 * branch per way: the victim is the lowest way of highest RRPV (the lowest
 * at `distant` if one is, RRPVs never exceeding it), and if that RRPV is
 * below distant every RRPV grows by the difference, which saturates none.
 */
static inline uint32_t rrip_victim(uint8_t *rrpv, uint32_t ways, uint8_t distant)
{
	uint8_t mx = 0;
	for (uint32_t w = 0; w < ways; w++)
		mx = rrpv[w] > mx ? rrpv[w] : mx;
	uint64_t at = 0;
	for (uint32_t w = 0; w < ways; w++)
		at |= (uint64_t)(rrpv[w] == mx) << w;
	if (mx < distant) {
		const uint8_t age = (uint8_t)(distant - mx);
		for (uint32_t w = 0; w < ways; w++)
			rrpv[w] = (uint8_t)(rrpv[w] + age);
	}
	return (uint32_t)__builtin_ctzll(at);
}

/* ---- wide sets ---- */

/* Way w of the set at base to the front of its list (in_list: it is in it). */
static inline void list_front(struct tsr_rk *k, uint32_t set, size_t base, uint32_t w,
			      int in_list)
{
	uint32_t *prev = &k->prev[base], *nxt = &k->nxt[base];
	if (in_list) {
		if (k->head[set] == w)
			return;
		/* not the head: it has a predecessor */
		nxt[prev[w]] = nxt[w];
		if (nxt[w] != NONE)
			prev[nxt[w]] = prev[w];
		else
			k->tail[set] = prev[w];
	}
	prev[w] = NONE;
	nxt[w] = k->head[set];
	if (k->head[set] != NONE)
		prev[k->head[set]] = w;
	else
		k->tail[set] = w;
	k->head[set] = w;
}

/* The victim of a full set. */
static inline uint32_t victim(struct tsr_rk *k, uint32_t set, uint32_t ways,
			      const enum rk_kind kind)
{
	switch (kind) {
	case RK_LRU:
	case RK_FIFO:
		return (uint32_t)(k->order[set] >> (4 * (ways - 1))) & 15;
	case RK_MRU:
		return (uint32_t)k->order[set] & 15;
	case RK_LRU_W:
	case RK_FIFO_W:
		return k->tail[set];
	case RK_MRU_W:
		return k->head[set];
	case RK_OPT_W:
		return tsr_belady_farthest(k->belady, set);
	case RK_OPT: {
		const uint64_t *nx = &k->next[(size_t)set * ways];
		uint32_t best = 0;
		for (uint32_t w = 1; w < ways; w++)
			if (nx[w] > nx[best])
				best = w;
		return best;
	}
	default:
		return rrip_victim(&k->rrpv[(size_t)set * ways], ways, k->distant);
	}
}

static inline void on_hit(struct tsr_rk *k, uint32_t set, uint32_t way, uint32_t ways,
			  const struct tsr_line_access *a, const enum rk_kind kind)
{
	switch (kind) {
	case RK_LRU:
	case RK_MRU:
		/* a hit on the newest way (runs of accesses to one line) keeps
		 * the order: skip the touch */
		if ((k->order[set] & 15) != way)
			k->order[set] = order_touch(k->order[set], way);
		break;
	case RK_FIFO:
	case RK_FIFO_W:
		break;
	case RK_OPT:
		k->next[(size_t)set * ways + way] = next_of(a);
		break;
	case RK_LRU_W:
	case RK_MRU_W:
		list_front(k, set, (size_t)set * ways, way, 1);
		break;
	case RK_OPT_W:
		tsr_belady_update(k->belady, set, way, next_of(a));
		break;
	default:
		k->rrpv[(size_t)set * ways + way] = 0;
		break;
	}
}

/* fresh: way was not filled before (it is not in a wide set's list) */
static inline void on_fill(struct tsr_rk *k, uint32_t set, uint32_t way, uint32_t ways,
			   const struct tsr_line_access *a, int fresh, const enum rk_kind kind)
{
	uint8_t *rrpv = k->rrpv ? &k->rrpv[(size_t)set * ways + way] : NULL;
	const size_t base = (size_t)set * ways;
	switch (kind) {
	case RK_LRU_W:
	case RK_MRU_W:
	case RK_FIFO_W:
		list_front(k, set, base, way, !fresh);
		break;
	case RK_OPT_W:
		tsr_belady_update(k->belady, set, way, next_of(a));
		break;
	case RK_LRU:
	case RK_MRU:
	case RK_FIFO:
		k->order[set] = order_touch(k->order[set], way);
		break;
	case RK_OPT:
		k->next[(size_t)set * ways + way] = next_of(a);
		break;
	case RK_NRU:
		*rrpv = 0;
		break;
	case RK_SRRIP:
		*rrpv = (uint8_t)(k->distant - 1);
		break;
	case RK_BRRIP:
		*rrpv = tsr_rrip_bimodal(&k->rng, k->throttle, k->distant);
		break;
	case RK_DRRIP:
		*rrpv = tsr_duel_miss(&k->duel, set)
			? tsr_rrip_bimodal(&k->rng, k->throttle, k->distant)
			: (uint8_t)(k->distant - 1);
		break;
	}
}

/* Bit w set: way w holds the tag (every way compared without a branch:
 * the way that hits is not predictable). */
static inline uint64_t match_tags(const uint64_t *tags, uint64_t tag, uint32_t ways)
{
	uint64_t match = 0;
	for (uint32_t i = 0; i < ways; i++)
		match |= (uint64_t)(tags[i] == tag) << i;
	return match;
}

/* The same on the keys of a narrow kernel. */
static inline uint64_t match_keys(const uint32_t *keys, uint32_t key, uint32_t ways)
{
#ifdef __SSE2__
	if (ways == 8 || ways == 16) {
		const __m128i kv = _mm_set1_epi32((int)key);
		const __m128i *p = (const __m128i *)keys;
		__m128i c0 = _mm_cmpeq_epi32(_mm_loadu_si128(p), kv);
		__m128i c1 = _mm_cmpeq_epi32(_mm_loadu_si128(p + 1), kv);
		__m128i c2 = _mm_setzero_si128(), c3 = _mm_setzero_si128();
		if (ways == 16) {
			c2 = _mm_cmpeq_epi32(_mm_loadu_si128(p + 2), kv);
			c3 = _mm_cmpeq_epi32(_mm_loadu_si128(p + 3), kv);
		}
		const __m128i b = _mm_packs_epi16(_mm_packs_epi32(c0, c1), _mm_packs_epi32(c2, c3));
		return (uint32_t)_mm_movemask_epi8(b);
	}
#endif
	uint64_t match = 0;
	for (uint32_t i = 0; i < ways; i++)
		match |= (uint64_t)(keys[i] == key) << i;
	return match;
}

/* One access: tsr_cache_access() step for step, counters only. */
static inline __attribute__((always_inline)) void
rk_access(struct tsr_rk *k, const struct tsr_line_access *a, const uint32_t ways,
	  const enum rk_kind kind)
{
	const uint64_t tag = a->addr >> k->line_shift;
	const uint32_t set = (uint32_t)tag & k->set_mask;
	const size_t base = (size_t)set * ways;
	uint64_t *tags = &k->tags[base];
	struct tsr_cache_counters *cnt = &k->counters[a->stream];
	const uint8_t write = a->flags & TSR_LINE_WRITE;
	const uint32_t size = (uint32_t)a->size_m1 + 1;
	if (write)
		cnt->writes++;
	else
		cnt->reads++;
	const uint64_t key = tag >> k->set_bits;
	uint32_t *keys = &k->keys[base];
	uint32_t w;
	if (is_wide(kind)) {
		const uint32_t l = tsr_tag_index_find(&k->index, tag);
		w = l == NONE ? NONE : l - (uint32_t)base;
	} else {
		k->wide |= key >= NO_KEY;
		const uint64_t match = k->wide ? match_tags(tags, tag, ways)
					       : match_keys(keys, (uint32_t)key, ways);
		w = match ? (uint32_t)__builtin_ctzll(match) : NONE;
	}
	if (w != NONE) {
		const size_t line = base + w;
		int hit = 1;
		if (k->flags[line] & F_PARTIAL)
			hit = partial_hit(k, a, line, cnt);
		on_hit(k, set, w, ways, a, kind);
		/* the RT bit is clear on every line until a render-target
		 * access comes, so cache.c's rt_seen test changes nothing */
		uint8_t f = k->flags[line];
		if (a->stream == TSR_STREAM_TEXTURE) {
			if ((f & F_RT) && hit && !write)
				cnt->rt_consumed++;
			f &= (uint8_t)~F_RT;
		} else if (is_render_target(a->stream)) {
			cnt->rt_lines += !(f & F_RT);
			f |= F_RT;
		}
		if (write & k->dirty_on_write)
			f |= F_DIRTY;
		k->flags[line] = f;
		return;
	}
	if (write)
		cnt->write_misses++;
	else
		cnt->read_misses++;
	if (k->ucd && a->stream == TSR_STREAM_DISPLAY) {
		cnt->bypasses++;
		return;
	}
	uint32_t way = k->filled[set];
	const int fresh = way < ways;
	if (fresh) {
		k->filled[set] = way + 1;
	} else {
		way = victim(k, set, ways, kind);
		const uint8_t vf = k->flags[base + way];
		if (vf & F_DIRTY)
			k->counters[vf >> F_STREAM_SHIFT].writebacks++;
		if (is_wide(kind))
			tsr_tag_index_remove(&k->index, tags[way]);
	}
	const size_t line = base + way;
	tags[way] = tag;
	if (is_wide(kind))
		tsr_tag_index_insert(&k->index, tag, (uint32_t)line);
	else
		keys[way] = (uint32_t)key;  /* only compared while narrow */
	uint8_t f = (uint8_t)(a->stream << F_STREAM_SHIFT);
	if (write & k->dirty_on_write)
		f |= F_DIRTY;
	if (is_render_target(a->stream)) {
		f |= F_RT;
		cnt->rt_lines++;
	}
	const int fetch = !write || (size < k->line_bytes && k->fetch_on_write);
	if (!fetch && k->masks && size < k->line_bytes) {
		int exact;
		uint64_t m = granules_of(k, a, &exact);
		if (exact) {
			k->masks[line] = m;
			f |= F_PARTIAL;
		}
	}
	k->flags[line] = f;
	on_fill(k, set, way, ways, a, fresh, kind);
}

static inline __attribute__((always_inline)) void
rk_loop(struct tsr_rk *k, const struct tsr_line_access *a, size_t n, const uint32_t ways,
	const enum rk_kind kind)
{
	for (size_t i = 0; i < n; i++)
		rk_access(k, &a[i], ways, kind);
}

#define RK_CASE(KIND)                                       \
	case KIND:                                          \
		if (k->ways == 8)                           \
			rk_loop(k, a, n, 8, KIND);          \
		else if (k->ways == 16)                     \
			rk_loop(k, a, n, 16, KIND);         \
		else                                        \
			rk_loop(k, a, n, k->ways, KIND);    \
		break;

void tsr_rk_run(struct tsr_rk *k, const struct tsr_line_access *a, size_t n)
{
	switch (k->kind) {
		RK_CASE(RK_LRU)
		RK_CASE(RK_MRU)
		RK_CASE(RK_FIFO)
		RK_CASE(RK_NRU)
		RK_CASE(RK_SRRIP)
		RK_CASE(RK_BRRIP)
		RK_CASE(RK_DRRIP)
		RK_CASE(RK_OPT)
	case RK_LRU_W:
		rk_loop(k, a, n, k->ways, RK_LRU_W);
		break;
	case RK_MRU_W:
		rk_loop(k, a, n, k->ways, RK_MRU_W);
		break;
	case RK_FIFO_W:
		rk_loop(k, a, n, k->ways, RK_FIFO_W);
		break;
	case RK_OPT_W:
		rk_loop(k, a, n, k->ways, RK_OPT_W);
		break;
	}
}
