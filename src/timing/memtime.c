/*
 * memtime.c - the memory-request timing model of timing/memtime.h.
 *
 * Layout: a pool of request records (indices, a free list) that grows by
 * doubling only in tsr_memtime_issue(); per cache its parameters, its MSHR
 * array (each with a FIFO list of merged requests), a FIFO of requests
 * stalled for an MSHR, a port allocator and a FIFO of its pending lookup
 * events; one array of pending events sorted by (cycle, sequence
 * number); and an in-order ring of DRAM requests the controller has not
 * accepted yet.
 *
 * Lookup events. A cache's lookups end at port_slot() + hit_latency, and
 * port_slot() never returns less than it did before, so each cache's
 * lookup events are made in (cycle, sequence number) order. Only the
 * oldest of them is in the sorted array; the others wait in the cache's
 * FIFO and the next one enters the array when that one leaves it. The
 * array's first event is then the earliest of all pending events, as if
 * all were in it, and the array stays short (3 events on average on
 * glmark-scene, where a binary heap of every event held 14): taking the
 * first is O(1) and an insertion, searched from the back, is short, as
 * most events are later than every pending one.
 *
 * Each live request has at most one pending event (the end of its current
 * lookup, or its data reaching a level after a fill latency); while it
 * waits for an MSHR, a fill or DRAM it has none. So issue() can reserve
 * the sorted array for every event that may ever be pending (live requests plus
 * pending write-backs) and advance() never allocates, except for the DRAM
 * ring, whose growth failure is kept as a sticky status.
 *
 * Ports. Lookups of a cache are asked for in non-decreasing cycles (every
 * request comes from an event run in time order or from issue() at the
 * current cycle), so a port allocator is the cycle of the last slot given
 * and how many lookups started in it.
 */
#include "timing/memtime.h"


#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define NEVER UINT64_MAX
#define MAX_SMALL (1u << 20)  /* ports and latencies stay below it */

enum walk { WALK_READ, WALK_POSTED };
enum ev_kind { EV_LOOKUP, EV_DATA, EV_WB_CACHE, EV_WB_DRAM };

struct req {
	uint64_t tag, issue;
	uint64_t addr;
	uint64_t line[TSR_MEM_PATH_LEVELS];
	uint64_t arrive[TSR_MEM_PATH_LEVELS];  /* cycle it arrived at each level */
	uint64_t stall_since;
	uint64_t data_done;      /* latest DRAM piece completion */
	uint32_t dram_bytes;
	uint32_t next;           /* free list, MSHR merge list or stall queue link */
	uint32_t pieces;         /* DRAM read pieces outstanding */
	uint16_t cache[TSR_MEM_PATH_LEVELS];
	uint16_t mshr[TSR_MEM_PATH_LEVELS];   /* valid below depth */
	uint8_t levels, hit_level, write, fetch, stream;
	uint8_t walk;            /* enum walk */
	uint8_t depth;           /* level that serves it (hit, merge; levels: DRAM) */
	uint8_t stall_level;     /* level of its MSHR stall */
	uint8_t done;            /* requester completion reported */
};

struct event {
	uint64_t t, seq;
	uint64_t addr;           /* EV_WB_DRAM */
	uint32_t a;              /* request (EV_LOOKUP, EV_DATA) or bytes (EV_WB_DRAM) */
	uint16_t cache;          /* EV_WB_CACHE, EV_LOOKUP */
	uint8_t kind, level;
};

struct mshr {
	uint64_t line;
	uint32_t head, tail;     /* merged requests, FIFO */
	uint8_t busy;
};

struct cache {
	struct tsr_memtime_cache_params p;
	struct mshr *m;
	uint32_t busy;
	uint32_t m_end;          /* MSHRs from m_end on are free */
	uint64_t occ_last;
	uint64_t port_cycle;     /* cycle of the last slot given */
	uint32_t port_used;      /* lookups started in it */
	uint32_t stall_head, stall_tail;
	struct event *lq;        /* ring of cap_reqs pending lookup events after the
				    one in the sorted array (file comment) */
	uint32_t lq_head, lq_len;
	uint8_t lq_in_ev;        /* one of its lookup events is in the sorted array */
	struct tsr_memtime_cache_counters k;
};

struct dram_wait {
	uint64_t addr, tag;
	uint32_t bytes;
	uint8_t write;
};

struct tsr_memtime {
	struct cache *c;
	uint32_t nc;
	struct tsr_dram *d;
	uint64_t granule;        /* DRAM interleave granule, bytes */
	struct req *reqs;
	uint32_t cap_reqs, free_head, live;
	struct event *ev;        /* pending events (file comment): ev[ev_head, ev_head + nev),
				    ordered by (t, seq) */
	uint32_t ev_head, nev, cap_ev;
	uint64_t seq;
	uint64_t wb_pending;     /* write-back events pending */
	struct dram_wait *dq;
	uint32_t dq_head, dq_len, dq_cap;
	uint64_t now, occ_last, in_flight;
	enum tsr_status fault;
	tsr_memtime_done_fn fn;
	void *ctx;
	struct tsr_memtime_counters k;
};

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* The histogram bucket of a latency: floor(log2(lat)), 0 for 0 and 1,
 * the last one above. */
static uint32_t bucket_of(uint64_t lat)
{
	uint32_t b = lat > 1 ? 63u - (uint32_t)__builtin_clzll(lat) : 0;
	return b < TSR_MEMTIME_HIST_BUCKETS ? b : TSR_MEMTIME_HIST_BUCKETS - 1;
}

/* ---- parameters and lifecycle ---- */

enum tsr_status tsr_memtime_params_check(const struct tsr_memtime_cache_params *caches,
					 uint32_t ncaches, struct tsr_error *err)
{
	if (ncaches > 65536)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "memtime has %u caches; paths name at most 65536", ncaches);
	if (ncaches && !caches)
		return tsr_error_set(err, TSR_ERR_CONFIG, "memtime has %u caches but no parameters",
				     ncaches);
	for (uint32_t i = 0; i < ncaches; i++) {
		const struct tsr_memtime_cache_params *c = &caches[i];
		char name[96];
		if (c->name)
			snprintf(name, sizeof(name), "'%.80s'", c->name);
		else
			snprintf(name, sizeof(name), "%u", i);
		const char *bad = NULL, *why = NULL;
		uint32_t v = 0;
		if (c->hit_latency == 0 || c->hit_latency >= MAX_SMALL) {
			bad = "hit_latency", why = "must be from 1 to 1048575", v = c->hit_latency;
		} else if (c->ports == 0 || c->ports >= MAX_SMALL) {
			bad = "ports", why = "must be from 1 to 1048575", v = c->ports;
		} else if (c->mshrs == 0 || c->mshrs > 65535) {
			bad = "mshrs", why = "must be from 1 to 65535", v = c->mshrs;
		} else if (c->fill_latency >= MAX_SMALL) {
			bad = "fill_latency", why = "must be below 1048576", v = c->fill_latency;
		}
		if (bad)
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "cache %s parameter '%s' %s (got %u)", name, bad, why, v);
	}
	return TSR_OK;
}

static void on_dram_done(void *ctx, const struct tsr_dram_completion *c);
static void ev_clear(struct tsr_memtime *mt);

enum tsr_status tsr_memtime_create(const struct tsr_memtime_cache_params *caches,
				   uint32_t ncaches, const struct tsr_dram_params *dram,
				   uint32_t gpu_mhz, struct tsr_memtime **out,
				   struct tsr_error *err)
{
	*out = NULL;
	TSR_TRY(tsr_memtime_params_check(caches, ncaches, err));
	struct tsr_memtime *mt = calloc(1, sizeof(*mt));
	if (!mt)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory creating the memory timing model");
	enum tsr_status s = tsr_dram_create(dram, gpu_mhz, &mt->d, err);
	if (s != TSR_OK) {
		free(mt);
		return s;
	}
	tsr_dram_set_completion(mt->d, on_dram_done, mt);
	mt->granule = dram->interleave_bytes;
	mt->nc = ncaches;
	mt->c = calloc(ncaches ? ncaches : 1, sizeof(*mt->c));
	int ok = mt->c != NULL;
	uint64_t mshrs = 0;
	for (uint32_t i = 0; ok && i < ncaches; i++) {
		struct cache *c = &mt->c[i];
		c->p = caches[i];
		c->m = calloc(c->p.mshrs, sizeof(*c->m));
		ok = c->m != NULL;
		c->stall_head = c->stall_tail = NONE;
		mshrs += c->p.mshrs;
	}
	/* start with room for every MSHR busy plus as many waiting */
	mt->cap_reqs = (uint32_t)min64(max64(64, 2 * mshrs), 1u << 20);
	for (uint32_t i = 0; ok && i < ncaches; i++) {
		mt->c[i].lq = malloc(mt->cap_reqs * sizeof(*mt->c[i].lq));
		ok = mt->c[i].lq != NULL;
	}
	mt->reqs = ok ? malloc(mt->cap_reqs * sizeof(*mt->reqs)) : NULL;
	mt->cap_ev = mt->cap_reqs * 2;
	mt->ev = ok ? malloc(mt->cap_ev * sizeof(*mt->ev)) : NULL;
	mt->dq_cap = 64;
	mt->dq = ok ? malloc(mt->dq_cap * sizeof(*mt->dq)) : NULL;
	if (!ok || !mt->reqs || !mt->ev || !mt->dq) {
		tsr_memtime_destroy(mt);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory creating the memory timing model");
	}
	for (uint32_t i = 0; i < mt->cap_reqs; i++)
		mt->reqs[i].next = i + 1 < mt->cap_reqs ? i + 1 : NONE;
	mt->free_head = 0;
	ev_clear(mt);
	*out = mt;
	return TSR_OK;
}

void tsr_memtime_destroy(struct tsr_memtime *mt)
{
	if (!mt)
		return;
	for (uint32_t i = 0; mt->c && i < mt->nc; i++) {
		free(mt->c[i].m);
		free(mt->c[i].lq);
	}
	free(mt->c);
	free(mt->reqs);
	free(mt->ev);
	free(mt->dq);
	tsr_dram_destroy(mt->d);
	free(mt);
}

void tsr_memtime_set_completion(struct tsr_memtime *mt, tsr_memtime_done_fn fn, void *ctx)
{
	mt->fn = fn;
	mt->ctx = ctx;
}

/* ---- pending events ---- */

static int event_before(const struct event *a, const struct event *b)
{
	return a->t != b->t ? a->t < b->t : a->seq < b->seq;
}

/* Inserts e in order (seq set; room reserved by issue()). Events are
 * mostly made later than every pending one, so the search from the back
 * is short; the array is compacted when its end is reached. */
static void ev_insert(struct tsr_memtime *mt, struct event e)
{
	if (mt->ev_head + mt->nev == mt->cap_ev) {
		memmove(mt->ev, mt->ev + mt->ev_head, mt->nev * sizeof(*mt->ev));
		mt->ev_head = 0;
	}
	struct event *a = mt->ev + mt->ev_head;
	uint32_t i = mt->nev++;
	for (; i > 0 && event_before(&e, &a[i - 1]); i--)
		a[i] = a[i - 1];
	a[i] = e;
}

/* Empty: ev[0] is a sentinel at NEVER, so ev_first_time() needs no test. */
static void ev_clear(struct tsr_memtime *mt)
{
	mt->nev = mt->ev_head = 0;
	mt->ev[0].t = NEVER;
}

/* The earliest pending event; nev > 0. */
static struct event ev_take(struct tsr_memtime *mt)
{
	struct event e = mt->ev[mt->ev_head++];
	if (--mt->nev == 0)
		ev_clear(mt);
	return e;
}

/* The earliest pending event's cycle; NEVER when none. */
static uint64_t ev_first_time(const struct tsr_memtime *mt)
{
	return mt->ev[mt->ev_head].t;
}

/* Capacity was reserved by issue(). */
static void push(struct tsr_memtime *mt, struct event e)
{
	e.seq = mt->seq++;
	ev_insert(mt, e);
}

/* A lookup event of cache c (sequence number taken): into the sorted array, or
 * behind the cache's lookup already there. */
static void push_lookup(struct tsr_memtime *mt, struct cache *c, struct event e)
{
	e.seq = mt->seq++;
	if (!c->lq_in_ev) {
		c->lq_in_ev = 1;
		ev_insert(mt, e);
		return;
	}
	uint32_t i = c->lq_head + c->lq_len++;
	c->lq[i < mt->cap_reqs ? i : i - mt->cap_reqs] = e;
}

/* The earliest event; a lookup's leaving lets its cache's next one in. */
static struct event pop(struct tsr_memtime *mt)
{
	struct event e = ev_take(mt);
	if (e.kind == EV_LOOKUP) {
		struct cache *c = &mt->c[e.cache];
		if (c->lq_len) {
			ev_insert(mt, c->lq[c->lq_head]);
			c->lq_head = c->lq_head + 1 < mt->cap_reqs ? c->lq_head + 1 : 0;
			c->lq_len--;
		} else {
			c->lq_in_ev = 0;
		}
	}
	return e;
}

static void push_req(struct tsr_memtime *mt, enum ev_kind kind, const struct req *r,
		     uint32_t level, uint64_t t)
{
	push(mt, (struct event){.t = t, .a = (uint32_t)(r - mt->reqs), .kind = (uint8_t)kind,
				.level = (uint8_t)level});
}

/* ---- DRAM ---- */

/* Appends to the ring (sticky NOMEM if it cannot grow). */
static void dq_append(struct tsr_memtime *mt, const struct dram_wait *w)
{
	if (mt->dq_len == mt->dq_cap) {
		uint32_t cap = mt->dq_cap * 2;
		struct dram_wait *n = cap > mt->dq_cap ? malloc(cap * sizeof(*n)) : NULL;
		if (!n) {
			mt->fault = TSR_ERR_NOMEM;
			return;
		}
		for (uint32_t i = 0; i < mt->dq_len; i++)
			n[i] = mt->dq[(mt->dq_head + i) % mt->dq_cap];
		free(mt->dq);
		mt->dq = n;
		mt->dq_cap = cap;
		mt->dq_head = 0;
	}
	mt->dq[(mt->dq_head + mt->dq_len) % mt->dq_cap] = *w;
	mt->dq_len++;
}

static int dq_try(struct tsr_memtime *mt, uint64_t t, const struct dram_wait *w)
{
	struct tsr_dram_request r = {.addr = w->addr, .bytes = w->bytes, .write = w->write,
				     .tag = w->tag};
	if (tsr_dram_enqueue(mt->d, t, &r, NULL) == TSR_OK)
		return 1;
	mt->k.dram_refusals++;
	return 0;
}

/* Sends the waiting requests the controller takes now, in order. */
static void dq_flush(struct tsr_memtime *mt, uint64_t t)
{
	while (mt->dq_len && dq_try(mt, t, &mt->dq[mt->dq_head])) {
		mt->dq_head = (mt->dq_head + 1) % mt->dq_cap;
		mt->dq_len--;
	}
}

/* Sends [addr, addr + bytes) split into interleave granules; returns the pieces. */
static uint32_t dram_send(struct tsr_memtime *mt, uint64_t t, uint64_t addr, uint64_t bytes,
			  int write, uint64_t tag)
{
	uint32_t n = 0;
	uint64_t end = addr + bytes;
	while (addr < end) {
		uint64_t g_end = (addr | (mt->granule - 1)) + 1;
		struct dram_wait w = {.addr = addr, .tag = tag, .write = (uint8_t)write,
				      .bytes = (uint32_t)(min64(g_end, end) - addr)};
		if (write)
			mt->k.dram_writes++;
		else
			mt->k.dram_reads++;
		if (mt->dq_len || !dq_try(mt, t, &w))
			dq_append(mt, &w);
		addr = g_end;
		n++;
	}
	return n;
}

/* Where a path's DRAM bytes start: the last level's line, or without caches
 * the access's address aligned down to the largest power of two that is at
 * most dram_bytes and the interleave granule (the memory system's burst:
 * the path does not carry it). */
static uint64_t dram_base(const struct tsr_memtime *mt, const struct req *r)
{
	if (r->levels)
		return r->line[r->levels - 1];
	uint64_t a = mt->granule;
	while (a > 1 && a > r->dram_bytes)
		a >>= 1;
	return r->addr & ~(a - 1);
}

/* DRAM completion: read pieces of a request; its data is at the last level
 * (an event, since the device must not be called from here). */
static void on_dram_done(void *ctx, const struct tsr_dram_completion *c)
{
	struct tsr_memtime *mt = ctx;
	if (!(c->tag & 1))
		return;  /* a posted write */
	struct req *r = &mt->reqs[c->tag >> 1];
	r->data_done = max64(r->data_done, c->done_cycle);
	if (--r->pieces == 0)
		push_req(mt, EV_DATA, r, r->levels, max64(r->data_done, mt->now));
}

/* ---- requests ---- */

static void occupancy_to(struct tsr_memtime *mt, uint64_t t)
{
	if (t > mt->occ_last) {
		mt->k.occupancy_sum += mt->in_flight * (t - mt->occ_last);
		mt->occ_last = t;
	}
}

static void cache_occupancy_to(struct cache *c, uint64_t t)
{
	if (t > c->occ_last) {
		c->k.mshr_occupancy_sum += (uint64_t)c->busy * (t - c->occ_last);
		c->occ_last = t;
	}
}

static void free_req(struct tsr_memtime *mt, struct req *r)
{
	r->next = mt->free_head;
	mt->free_head = (uint32_t)(r - mt->reqs);
	mt->live--;
}

/* The stream whose counters count a path's request (the last one for
 * larger stream numbers). */
static uint32_t stream_of(const struct tsr_mem_path *p)
{
	return p->stream < TSR_MEMTIME_STREAMS ? p->stream : TSR_MEMTIME_STREAMS - 1;
}

/* Data come back to cache c lat cycles after the lookup's arrival there. */
static void count_cache_latency(struct cache *c, uint64_t lat)
{
	c->k.latency_count++;
	c->k.latency_sum += lat;
	c->k.latency_hist[bucket_of(lat)]++;
}

/* Counts a requester's completion of latency lat and reports it at t. */
static void report(struct tsr_memtime *mt, uint64_t tag, uint32_t stream, uint32_t write,
		   uint64_t lat, uint64_t t)
{
	uint32_t b = bucket_of(lat);
	struct tsr_memtime_counters *k = &mt->k;
	k->completed++;
	k->posted += write;
	k->latency_sum += lat;
	k->latency_max = max64(k->latency_max, lat);
	k->latency_hist[b]++;
	struct tsr_memtime_stream_counters *s = &k->stream[stream];
	s->completed++;
	s->latency_sum += lat;
	s->latency_hist[b]++;
	if (mt->fn)
		mt->fn(mt->ctx, tag, t);
}

static void complete_requester(struct tsr_memtime *mt, struct req *r, uint64_t t)
{
	occupancy_to(mt, t);
	mt->in_flight--;
	r->done = 1;
	report(mt, r->tag, r->stream, r->write, t - r->issue, t);
}

/* The next lookup slot of cache c for a lookup arriving at t. */
static uint64_t port_slot(struct cache *c, uint64_t t)
{
	if (t > c->port_cycle) {
		c->port_cycle = t;
		c->port_used = 0;
	} else if (c->port_used == c->p.ports) {
		c->port_cycle++;
		c->port_used = 0;
	}
	c->port_used++;
	c->k.port_wait_cycles += c->port_cycle - t;
	return c->port_cycle;
}

static void lookup_start(struct tsr_memtime *mt, struct req *r, uint32_t j, uint64_t t)
{
	struct cache *c = &mt->c[r->cache[j]];
	r->arrive[j] = t;
	c->k.lookups++;
	push_lookup(mt, c, (struct event){.t = port_slot(c, t) + c->p.hit_latency,
					  .a = (uint32_t)(r - mt->reqs), .cache = r->cache[j],
					  .kind = EV_LOOKUP, .level = (uint8_t)j});
}

/* The busy MSHR of c holding `line` (at most one does), or NONE. */
static uint32_t mshr_find(const struct cache *c, uint64_t line)
{
	for (uint32_t i = 0; i < c->m_end; i++)
		if (c->m[i].line == line && c->m[i].busy)
			return i;
	return NONE;
}

/* Request idx joins the requests waiting for MSHR m of cache c (level j of its path). */
static void merge(struct tsr_memtime *mt, struct cache *c, uint32_t idx, uint32_t j, uint32_t m)
{
	struct mshr *e = &c->m[m];
	struct req *r = &mt->reqs[idx];
	c->k.merges++;
	r->depth = (uint8_t)j;
	r->next = NONE;
	if (e->head == NONE)
		e->head = idx;
	else
		mt->reqs[e->tail].next = idx;
	e->tail = idx;
}

static void data_at(struct tsr_memtime *mt, struct req *r, uint32_t j, uint64_t t);

/* A read walk's DRAM read (its data then comes from below the last level). */
static void read_dram(struct tsr_memtime *mt, struct req *r, uint64_t t)
{
	r->depth = r->levels;
	if (r->dram_bytes == 0) {
		push_req(mt, EV_DATA, r, r->levels, t);
		return;
	}
	r->data_done = 0;
	r->pieces = (uint32_t)((dram_base(mt, r) + r->dram_bytes - 1) / mt->granule -
			       dram_base(mt, r) / mt->granule + 1);
	dram_send(mt, t, dram_base(mt, r), r->dram_bytes, 0,
		  ((uint64_t)(r - mt->reqs) << 1) | 1);
}

/* Below level j of a read walk that holds an MSHR there: the next level or DRAM. */
static void go_below(struct tsr_memtime *mt, struct req *r, uint32_t j, uint64_t t)
{
	if (j + 1 < r->levels)
		lookup_start(mt, r, j + 1, t);
	else
		read_dram(mt, r, t);
}

static void take_mshr(struct tsr_memtime *mt, struct cache *c, struct req *r, uint32_t j,
		      uint64_t t)
{
	uint32_t m = 0;
	while (c->m[m].busy)
		m++;
	if (m >= c->m_end)
		c->m_end = m + 1;
	cache_occupancy_to(c, t);
	c->busy++;
	if (c->busy > c->k.mshr_busy_max)
		c->k.mshr_busy_max = c->busy;
	c->k.mshr_allocs++;
	c->m[m] = (struct mshr){.line = r->line[j], .head = NONE, .tail = NONE, .busy = 1};
	r->mshr[j] = (uint16_t)m;
	go_below(mt, r, j, t);
}

/* MSHR m of cache c has its fill at t: frees it, serves its merged requests,
 * then lets the stalled misses merge or take it. */
static void release_mshr(struct tsr_memtime *mt, struct cache *c, uint32_t m, uint64_t t)
{
	cache_occupancy_to(c, t);
	c->busy--;
	c->m[m].busy = 0;
	while (c->m_end && !c->m[c->m_end - 1].busy)
		c->m_end--;
	uint32_t w = c->m[m].head;
	while (w != NONE) {
		struct req *x = &mt->reqs[w];
		w = x->next;
		data_at(mt, x, x->depth, t);
	}
	while (c->stall_head != NONE) {
		uint32_t idx = c->stall_head;
		struct req *x = &mt->reqs[idx];
		uint32_t j = x->stall_level, e = mshr_find(c, x->line[j]);
		if (e == NONE && c->busy == c->p.mshrs)
			break;
		c->stall_head = x->next;
		if (c->stall_head == NONE)
			c->stall_tail = NONE;
		c->k.mshr_stall_cycles += t - x->stall_since;
		if (e != NONE)
			merge(mt, c, idx, j, e);
		else
			take_mshr(mt, c, x, j, t);
	}
}

/* Data for r is available at level j (levels: out of DRAM) at t: frees the
 * MSHR it holds there, then climbs, each level fill_latency later. */
static void data_at(struct tsr_memtime *mt, struct req *r, uint32_t j, uint64_t t)
{
	for (;;) {
		if (j < r->levels) {
			struct cache *c = &mt->c[r->cache[j]];
			count_cache_latency(c, t - r->arrive[j]);
			if (j < r->depth)
				release_mshr(mt, c, r->mshr[j], t);
		}
		if (j == 0) {
			if (!r->done)
				complete_requester(mt, r, t);
			free_req(mt, r);
			return;
		}
		j--;
		uint32_t f = mt->c[r->cache[j]].p.fill_latency;
		if (f) {
			push_req(mt, EV_DATA, r, j, t + f);
			return;
		}
	}
}

/* The lookup of r at level j ends at t. */
static void lookup_end(struct tsr_memtime *mt, struct req *r, uint32_t j, uint64_t t)
{
	struct cache *c = &mt->c[r->cache[j]];
	if (j == 0 && r->write && !r->done)
		complete_requester(mt, r, t);  /* posted: accepted by the first level */
	if (r->walk == WALK_POSTED) {
		if (j >= r->hit_level)
			c->k.hits++;
		else
			c->k.misses++;
		if (j + 1 < r->levels) {
			lookup_start(mt, r, j + 1, t);
			return;
		}
		if (r->dram_bytes)
			dram_send(mt, t, dram_base(mt, r), r->dram_bytes, 1, 0);
		free_req(mt, r);
		return;
	}
	uint32_t idx = (uint32_t)(r - mt->reqs);
	uint32_t m = mshr_find(c, r->line[j]);
	if (m != NONE) {
		merge(mt, c, idx, j, m);
		return;
	}
	if (j == r->hit_level) {
		c->k.hits++;
		r->depth = (uint8_t)j;
		data_at(mt, r, j, t);
		return;
	}
	c->k.misses++;
	if (c->busy < c->p.mshrs) {
		take_mshr(mt, c, r, j, t);
		return;
	}
	c->k.mshr_stalls++;
	r->stall_since = t;
	r->stall_level = (uint8_t)j;
	r->next = NONE;
	if (c->stall_tail == NONE)
		c->stall_head = idx;
	else
		mt->reqs[c->stall_tail].next = idx;
	c->stall_tail = idx;
}

static void run(struct tsr_memtime *mt, const struct event *e)
{
	switch ((enum ev_kind)e->kind) {
	case EV_LOOKUP:
		lookup_end(mt, &mt->reqs[e->a], e->level, e->t);
		break;
	case EV_DATA:
		data_at(mt, &mt->reqs[e->a], e->level, e->t);
		break;
	case EV_WB_CACHE:
		mt->wb_pending--;
		mt->c[e->cache].k.writebacks++;
		port_slot(&mt->c[e->cache], e->t);
		break;
	case EV_WB_DRAM:
		mt->wb_pending--;
		dram_send(mt, e->t, e->addr, e->a, 1, 0);
		break;
	}
}

/* Runs the events (DRAM decisions included) at or before cycle, in order. */
static void run_until(struct tsr_memtime *mt, uint64_t cycle)
{
	for (;;) {
		uint64_t te = ev_first_time(mt);
		uint64_t td = tsr_dram_next_event(mt->d);
		if (min64(te, td) > cycle)
			break;
		if (td <= te) {  /* DRAM first: its completions become events at td */
			/* With no request waiting for room, the decisions up to the
			 * next event, `cycle` or the device's next completion (none
			 * can come before it, as nothing is enqueued meanwhile) run
			 * in one advance: the same as one advance each, as no event
			 * comes between them and no waiting request is retried. */
			uint64_t x = td;
			if (!mt->dq_len)
				x = max64(td, min64(min64(te, cycle),
						    tsr_dram_next_completion(mt->d)));
			tsr_dram_advance(mt->d, x);
			dq_flush(mt, x);
			continue;
		}
		occupancy_to(mt, te);
		mt->now = te;
		struct event e = pop(mt);
		run(mt, &e);
	}
}

void tsr_memtime_advance(struct tsr_memtime *mt, uint64_t cycle)
{
	if (cycle < mt->now || cycle == NEVER)
		return;
	/* most calls have nothing due: they skip the event loop's set-up */
	if (min64(ev_first_time(mt), tsr_dram_next_event(mt->d)) <= cycle)
		run_until(mt, cycle);
	occupancy_to(mt, cycle);
	mt->now = cycle;
	mt->k.cycles = cycle;
	tsr_dram_advance(mt->d, cycle);
}

uint64_t tsr_memtime_next_event(const struct tsr_memtime *mt)
{
	uint64_t te = ev_first_time(mt);
	return min64(te, tsr_dram_next_event(mt->d));
}

uint64_t tsr_memtime_next_completion(const struct tsr_memtime *mt)
{
	/* any pending event may complete a requester at its cycle (a lookup
	 * ending in a hit, data reaching level 0); DRAM data only when the
	 * device reports it */
	uint64_t te = ev_first_time(mt);
	return min64(te, tsr_dram_next_completion(mt->d));
}

/* Room for n requests and every event that may then be pending. */
static enum tsr_status reserve(struct tsr_memtime *mt, uint64_t wb, struct tsr_error *err)
{
	if (mt->free_head == NONE) {
		uint32_t old = mt->cap_reqs, cap = old * 2;
		struct req *n = cap > old ? realloc(mt->reqs, cap * sizeof(*n)) : NULL;
		if (!n)
			return tsr_error_set(err, TSR_ERR_NOMEM,
					     "out of memory growing the memory timing requests to %u",
					     cap);
		mt->reqs = n;
		/* the lookup rings hold cap_reqs: unwrapped into rings of cap */
		for (uint32_t c = 0; c < mt->nc; c++) {
			struct cache *k = &mt->c[c];
			struct event *q = malloc(cap * sizeof(*q));
			if (!q)
				return tsr_error_set(err, TSR_ERR_NOMEM,
						     "out of memory growing the memory timing "
						     "lookup queues to %u", cap);
			for (uint32_t i = 0; i < k->lq_len; i++)
				q[i] = k->lq[(k->lq_head + i) % old];
			free(k->lq);
			k->lq = q;
			k->lq_head = 0;
		}
		for (uint32_t i = old; i < cap; i++)
			n[i].next = i + 1 < cap ? i + 1 : NONE;
		mt->free_head = old;
		mt->cap_reqs = cap;
	}
	uint64_t need = (uint64_t)mt->live + 1 + mt->wb_pending + wb;
	if (need > mt->cap_ev) {
		uint64_t cap = max64(need, 2 * (uint64_t)mt->cap_ev);
		struct event *n = cap < UINT32_MAX ? realloc(mt->ev, cap * sizeof(*n)) : NULL;
		if (!n)
			return tsr_error_set(err, TSR_ERR_NOMEM,
					     "out of memory growing the memory timing events to %llu",
					     (unsigned long long)cap);
		mt->ev = n;
		mt->cap_ev = (uint32_t)cap;
	}
	return TSR_OK;
}

static enum tsr_status check_path(const struct tsr_memtime *mt, const struct tsr_mem_path *p,
				  struct tsr_error *err)
{
	if (p->levels > TSR_MEM_PATH_LEVELS || p->hit_level > p->levels ||
	    p->wb_count > TSR_MEM_PATH_WRITEBACKS)
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "malformed memory path at 0x%llx: %u levels, hit level %u, "
				     "%u write-backs", (unsigned long long)p->addr, p->levels,
				     p->hit_level, p->wb_count);
	for (uint32_t i = 0; i < p->levels; i++)
		if (p->cache[i] >= mt->nc)
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "memory path names cache %u but the timing model has "
					     "%u caches", p->cache[i], mt->nc);
	for (uint32_t i = 0; i < p->wb_count; i++)
		if (p->wb[i].from_level >= p->levels)
			return tsr_error_set(err, TSR_ERR_INTERNAL,
					     "malformed memory path at 0x%llx: write-back from "
					     "level %u of %u", (unsigned long long)p->addr,
					     p->wb[i].from_level, p->levels);
	return TSR_OK;
}

/* Whether a lookup of `line` at cache c is queued: its one lookup event in
 * the sorted array (short: file comment), or one in its FIFO. */
static int lookup_queued(const struct tsr_memtime *mt, const struct cache *c, uint64_t line)
{
	if (!c->lq_in_ev)
		return 0;
	const uint16_t ci = (uint16_t)(c - mt->c);
	const struct event *a = mt->ev + mt->ev_head;
	for (uint32_t i = 0; i < mt->nev; i++)
		if (a[i].kind == EV_LOOKUP && a[i].cache == ci) {
			if (mt->reqs[a[i].a].line[a[i].level] == line)
				return 1;
			break;
		}
	for (uint32_t i = 0, k = c->lq_head; i < c->lq_len; i++) {
		const struct event *e = &c->lq[k];
		if (mt->reqs[e->a].line[e->level] == line)
			return 1;
		k = k + 1 < mt->cap_reqs ? k + 1 : 0;
	}
	return 0;
}

/*
 * A read that hits its first level, issued at `cycle`, when its outcome is
 * already certain: no MSHR of that cache holds the line (a fill in flight
 * it would merge into), no lookup of the line is queued there and no
 * miss waits there for an MSHR (each of those two could take one for the
 * line before its lookup ends). Nothing else can change the outcome, as an
 * MSHR is taken only by those, and later requests' lookups end after its own (its
 * port slot is taken now, and equal cycles run in issue order). So it
 * completes at the end of its lookup, exactly as the events would have
 * it: counted and reported now, with no request or event. Returns 0 when
 * the outcome is not certain.
 */
static int issue_known_hit(struct tsr_memtime *mt, uint64_t cycle, const struct tsr_mem_path *p,
			   uint64_t tag)
{
	if (p->write || p->levels == 0 || p->hit_level != 0 || p->wb_count)
		return 0;
	struct cache *c = &mt->c[p->cache[0]];
	if (c->stall_head != NONE || mshr_find(c, p->line[0]) != NONE ||
	    lookup_queued(mt, c, p->line[0]))
		return 0;
	mt->k.issued++;
	c->k.lookups++;
	c->k.hits++;
	const uint64_t done = port_slot(c, cycle) + c->p.hit_latency, lat = done - cycle;
	count_cache_latency(c, lat);
	occupancy_to(mt, cycle);
	mt->k.occupancy_sum += lat;  /* in flight from cycle to done */
	mt->seq++;  /* (the lookup event's number: the later events' stay as they were) */
	report(mt, tag, stream_of(p), 0, lat, done);
	return 1;
}

static enum tsr_status issue_request(struct tsr_memtime *mt, uint64_t cycle,
				     const struct tsr_mem_path *p, uint64_t tag, int early,
				     struct tsr_error *err)
{
	if (mt->fault != TSR_OK)
		return tsr_memtime_status(mt, err);
	if (cycle < mt->now || cycle == NEVER)
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "memory request at cycle %llu is before the current cycle %llu",
				     (unsigned long long)cycle, (unsigned long long)mt->now);
	TSR_TRY(check_path(mt, p, err));
	TSR_TRY(reserve(mt, p->wb_count, err));
	tsr_memtime_advance(mt, cycle);
	if (early && issue_known_hit(mt, cycle, p, tag))
		return TSR_OK;

	uint32_t idx = mt->free_head;
	struct req *r = &mt->reqs[idx];
	mt->free_head = r->next;
	mt->live++;
	r->tag = tag;
	r->issue = cycle;
	r->addr = p->addr;
	r->levels = p->levels;
	r->hit_level = p->hit_level;
	r->write = p->write ? 1 : 0;
	r->fetch = p->fetch ? 1 : 0;
	r->stream = (uint8_t)stream_of(p);
	r->dram_bytes = p->dram_bytes;
	r->walk = r->write && !r->fetch ? WALK_POSTED : WALK_READ;
	r->depth = 0;
	r->done = 0;
	r->pieces = 0;
	for (uint32_t i = 0; i < p->levels; i++) {
		r->cache[i] = p->cache[i];
		r->line[i] = p->line[i];
	}
	mt->k.issued++;
	occupancy_to(mt, cycle);
	mt->in_flight++;

	for (uint32_t i = 0; i < p->wb_count; i++) {
		const struct tsr_mem_writeback *wb = &p->wb[i];
		uint64_t when = cycle;  /* the evicting lookup's end, unloaded */
		for (uint32_t l = 0; l <= wb->from_level; l++)
			when += mt->c[p->cache[l]].p.hit_latency;
		mt->k.writebacks++;
		if (wb->to_dram) {
			if (wb->bytes == 0)
				continue;
			push(mt, (struct event){.t = when, .addr = wb->addr, .a = wb->bytes,
						.kind = EV_WB_DRAM});
		} else if ((uint32_t)wb->from_level + 1 < p->levels) {
			push(mt, (struct event){.t = when, .cache = p->cache[wb->from_level + 1],
						.kind = EV_WB_CACHE});
		} else {
			continue;
		}
		mt->wb_pending++;
	}

	if (r->levels) {
		lookup_start(mt, r, 0, cycle);
	} else if (r->write) {
		if (r->dram_bytes)
			dram_send(mt, cycle, dram_base(mt, r), r->dram_bytes, 1, 0);
		push_req(mt, EV_DATA, r, 0, cycle);
	} else {
		read_dram(mt, r, cycle);  /* no cache: DRAM (or nothing) */
	}
	return TSR_OK;
}

enum tsr_status tsr_memtime_issue(struct tsr_memtime *mt, uint64_t cycle,
				  const struct tsr_mem_path *p, uint64_t tag,
				  struct tsr_error *err)
{
	return issue_request(mt, cycle, p, tag, 0, err);
}

enum tsr_status tsr_memtime_issue_early(struct tsr_memtime *mt, uint64_t cycle,
					const struct tsr_mem_path *p, uint64_t tag,
					struct tsr_error *err)
{
	return issue_request(mt, cycle, p, tag, 1, err);
}

enum tsr_status tsr_memtime_status(const struct tsr_memtime *mt, struct tsr_error *err)
{
	if (mt->fault == TSR_OK)
		return TSR_OK;
	return tsr_error_set(err, mt->fault,
			     "out of memory growing the memory timing model's dram queue");
}

uint64_t tsr_memtime_in_flight(const struct tsr_memtime *mt)
{
	return mt->in_flight;
}

uint64_t tsr_memtime_now(const struct tsr_memtime *mt)
{
	return mt->now;
}

const struct tsr_memtime_counters *tsr_memtime_counters(struct tsr_memtime *mt)
{
	occupancy_to(mt, mt->now);
	mt->k.merges = 0;
	mt->k.mshr_stall_cycles = 0;
	for (uint32_t i = 0; i < mt->nc; i++) {
		cache_occupancy_to(&mt->c[i], mt->now);
		mt->k.merges += mt->c[i].k.merges;
		mt->k.mshr_stall_cycles += mt->c[i].k.mshr_stall_cycles;
	}
	return &mt->k;
}

const struct tsr_memtime_cache_counters *tsr_memtime_cache_counters(struct tsr_memtime *mt,
								    uint32_t i)
{
	cache_occupancy_to(&mt->c[i], mt->now);
	return &mt->c[i].k;
}

const struct tsr_dram_device_counters *tsr_memtime_dram_counters(struct tsr_memtime *mt)
{
	return tsr_dram_device_counters(mt->d);
}

const struct tsr_dram *tsr_memtime_dram(const struct tsr_memtime *mt)
{
	return mt->d;
}
