/*
 * core.c - cycle-level timing of one shader core (timing/core.h).
 *
 * State per warp slot: its segments, the instructions left in the current
 * one (ALU, SFU, the sample), the earliest cycle of its next
 * instruction, requests outstanding, and at most one pending event (its
 * sample requests leaving, or its retirement). advance() processes the
 * events of the current cycle, then either issues one instruction and
 * moves one cycle on, or jumps to the next cycle anything can happen,
 * charging the stretch to one of the four cycle classes. Three bit
 * masks over the (at most 64) slots, kept up to date by refresh() at
 * every change of a warp, let the scans visit only the warps that matter:
 * candidates (could issue once ready_at is reached), warps with a pending
 * event, and warps not waiting on memory (for the stall class). Nothing
 * is allocated after creation.
 */
#include "timing/core.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT64_MAX
#define SLOT_BITS 8u

const char *const tsr_core_sched_names[TSR_CORE_SCHED_COUNT] = {"rr", "gto"};

struct warp {
	uint64_t tag;
	uint64_t epoch;       /* push sequence number: the warp's age, and in its tokens */
	uint64_t push_cycle;
	uint64_t acct_from;   /* slot_resident_cycles counted up to this cycle */
	uint64_t ready_at;    /* earliest cycle of the next instruction */
	uint64_t emit_at;     /* cycle the sample's requests leave, NONE */
	uint64_t retire_at;   /* retirement cycle once known, NONE */
	uint64_t req_cycle;   /* issue cycle of the outstanding requests */
	uint64_t window;      /* tile window it was pushed in */
	uint64_t tail;        /* cycles from its next instruction's issue to its next
				 output, at best (set by refresh() for a candidate) */
	const struct tsr_core_seg *seg; /* the segments after the current one */
	uint32_t segs_left;   /* how many */
	uint32_t alu_left, sfu_left; /* the current segment's instructions still to issue */
	uint32_t tex;         /* line requests of the current segment's sample */
	uint32_t emit_n;      /* line requests leaving at emit_at */
	uint32_t tex_sent;    /* line requests of the quad sent before (their indices) */
	uint32_t pending;
	uint8_t busy;         /* slot holds a quad */
	uint8_t sample_left;  /* the current segment's sample instruction is still to issue */
	uint8_t mem_wait;     /* its last action was sending requests (not an ALU issue) */
	struct tsr_core_seg own[2]; /* the segments of a quad given as counts */
};

struct tsr_core {
	struct tsr_core_cached_next n;  /* first: read by tsr_core_next_event() (core.h) */
	struct tsr_core_params p;
	struct warp *w;
	uint32_t nslots, resident;
	uint32_t rr_last;     /* slot that issued last (round-robin pointer) */
	int32_t greedy;       /* slot that issued last if still the same quad, else -1 */
	uint64_t now;         /* start of the first cycle not simulated */
	uint64_t port_free;   /* first cycle the issue port is free */
	uint64_t seq;         /* quads pushed (epochs) */
	uint64_t ev_min;      /* <= every warp's emit_at and retire_at */
	uint64_t cand_mask;   /* slots s with candidate(w[s]) */
	uint64_t ev_mask;     /* resident slots with emit_at or retire_at set */
	uint64_t dep_mask;    /* resident slots not waiting on memory (!mem_wait) */
	uint8_t age[TSR_CORE_MAX_WARP_SLOTS]; /* the resident slots, oldest (lowest epoch)
						 first: greedy-then-oldest's search order */
	int in_advance;
	tsr_core_issue_fn issue;
	void *issue_ctx;
	tsr_core_retire_fn retire;
	void *retire_ctx;
	struct tsr_core_counters k;
	struct tsr_core_window win;
	uint64_t win_id, busy_at_mark;
};

enum cycle_class { CC_BUSY, CC_IDLE, CC_MEM, CC_DEP };

void tsr_core_params_default(struct tsr_core_params *p)
{
	memset(p, 0, sizeof(*p));
	p->warp_slots = 16;
	p->sched = TSR_CORE_SCHED_GTO;
	p->issue_width = 1;
	p->alu_before_sample = 2;
	p->alu_latency_cycles = 1;
	p->sfu_latency_cycles = 4;
	p->sample_issue_cycles = 1;
}

static enum tsr_status range(struct tsr_error *err, const char *name, uint32_t v, uint32_t lo,
			     uint32_t hi)
{
	if (v >= lo && v <= hi)
		return TSR_OK;
	return tsr_error_set(err, TSR_ERR_CONFIG,
			     "core parameter '%s' out of range %u-%u (got %u)", name, lo, hi, v);
}

enum tsr_status tsr_core_params_check(const struct tsr_core_params *p, struct tsr_error *err)
{
	TSR_TRY(range(err, "warp_slots", p->warp_slots, 1, TSR_CORE_MAX_WARP_SLOTS));
	if (p->sched >= TSR_CORE_SCHED_COUNT)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "core parameter 'sched' unknown (got %u; 0 rr, 1 gto)", p->sched);
	TSR_TRY(range(err, "issue_width", p->issue_width, 1, TSR_CORE_MAX_WARP_SLOTS));
	TSR_TRY(range(err, "alu_before_sample", p->alu_before_sample, 0, TSR_CORE_MAX_ALU_BEFORE));
	TSR_TRY(range(err, "alu_latency_cycles", p->alu_latency_cycles, 1, TSR_CORE_MAX_LATENCY));
	TSR_TRY(range(err, "sfu_latency_cycles", p->sfu_latency_cycles, 1, TSR_CORE_MAX_LATENCY));
	TSR_TRY(range(err, "sample_issue_cycles", p->sample_issue_cycles, 1, TSR_CORE_MAX_LATENCY));
	return TSR_OK;
}

enum tsr_status tsr_core_sched_from_name(const char *name, uint32_t *out, struct tsr_error *err)
{
	static const struct {
		const char *name;
		uint32_t sched;
	} names[] = {{"rr", TSR_CORE_SCHED_RR},
		     {"round-robin", TSR_CORE_SCHED_RR},
		     {"gto", TSR_CORE_SCHED_GTO},
		     {"greedy-then-oldest", TSR_CORE_SCHED_GTO}};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i].name) == 0) {
			*out = names[i].sched;
			return TSR_OK;
		}
	return tsr_error_set(err, TSR_ERR_CONFIG,
			     "unknown warp scheduler '%s' (valid: rr, round-robin, gto, "
			     "greedy-then-oldest)", name);
}

enum tsr_status tsr_core_create(const struct tsr_core_params *p, struct tsr_core **out,
				struct tsr_error *err)
{
	*out = NULL;
	TSR_TRY(tsr_core_params_check(p, err));
	struct tsr_core *c = calloc(1, sizeof(*c));
	struct warp *w = calloc(p->warp_slots, sizeof(*w));
	if (!c || !w) {
		free(c);
		free(w);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory creating a shader core");
	}
	c->p = *p;
	c->w = w;
	c->nslots = p->warp_slots;
	c->rr_last = c->nslots - 1;  /* the first search starts at slot 0 */
	c->greedy = -1;
	c->ev_min = NONE;
	*out = c;
	return TSR_OK;
}

void tsr_core_destroy(struct tsr_core *c)
{
	if (!c)
		return;
	free(c->w);
	free(c);
}

void tsr_core_set_memory(struct tsr_core *c, tsr_core_issue_fn fn, void *ctx)
{
	c->issue = fn;
	c->issue_ctx = ctx;
}

void tsr_core_set_retire(struct tsr_core *c, tsr_core_retire_fn fn, void *ctx)
{
	c->retire = fn;
	c->retire_ctx = ctx;
}

bool tsr_core_can_accept(const struct tsr_core *c)
{
	return c->resident < c->nslots;
}

uint64_t tsr_core_now(const struct tsr_core *c)
{
	return c->now;
}

uint32_t tsr_core_resident(const struct tsr_core *c)
{
	return c->resident;
}

/* These two are asked at every change of a warp with hard-to-predict
 * answers: written with | and &, not || and &&, so they compile without
 * branches. */
static inline bool has_instructions(const struct warp *w)
{
	return (w->alu_left | w->sfu_left | w->sample_left | w->segs_left) != 0;
}

/* Resident, nothing outstanding or pending, instructions left. */
static inline bool candidate(const struct warp *w)
{
	return (w->busy != 0) & (w->pending == 0) & (w->emit_at == NONE) &
	       (w->retire_at == NONE) & has_instructions(w);
}

static inline uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static inline uint64_t token_of(const struct tsr_core *c, const struct warp *w)
{
	return (w->epoch << SLOT_BITS) | (uint64_t)(w - c->w);
}

static inline uint64_t bit_of(const struct tsr_core *c, const struct warp *w)
{
	return 1ull << (uint32_t)(w - c->w);
}

/* Brings the masks' bits of w up to date with its state; called after
 * every change of a warp's busy, pending, emit_at, retire_at, mem_wait
 * or instruction counts. */
static inline void refresh(struct tsr_core *c, struct warp *w)
{
	const uint64_t b = bit_of(c, w);
	if (candidate(w)) {
		/* the segment's instructions each its latency apart, then the
		 * sample's requests leaving sample_issue_cycles after it issues,
		 * or (the last segment) the retirement */
		w->tail = (uint64_t)w->alu_left * c->p.alu_latency_cycles +
			  (uint64_t)w->sfu_left * c->p.sfu_latency_cycles +
			  (w->sample_left ? c->p.sample_issue_cycles : 0);
		c->cand_mask |= b;
	} else {
		c->cand_mask &= ~b;
	}
	c->ev_mask = w->busy && (w->emit_at != NONE || w->retire_at != NONE) ? c->ev_mask | b
									      : c->ev_mask & ~b;
	c->dep_mask = w->busy && !w->mem_wait ? c->dep_mask | b : c->dep_mask & ~b;
}

/* Lowest set bit's index; m != 0. */
static inline uint32_t low_bit(uint64_t m)
{
	return (uint32_t)__builtin_ctzll(m);
}

static uint64_t output_bound(const struct tsr_core *c, const struct warp *w);

/* Sets an event cycle of a warp (emit_at or retire_at) to t. */
static inline void set_event(struct tsr_core *c, uint64_t *field, uint64_t t)
{
	*field = t;
	if (t < c->ev_min)
		c->ev_min = t;
}

/* One request of w completed at `cycle` (already checked and clamped). */
static void complete(struct tsr_core *c, struct warp *w, uint64_t cycle)
{
	w->pending--;
	w->ready_at = max64(w->ready_at, cycle);
	if (w->pending)
		return;  /* still waiting: its output bound stays none */
	if (!has_instructions(w))
		set_event(c, &w->retire_at, w->ready_at);
	refresh(c, w);
	/* Only w changed, and its bound was none while it waited: the cached
	 * next event stays exact as the minimum with its new bound. */
	if (c->n.next_ev_ok) {
		uint64_t b = output_bound(c, w);
		if (b < c->n.next_ev)
			c->n.next_ev = b;
	}
}

/* Sends n requests of one kind for w at the current cycle, indices
 * base .. base + n - 1 among the quad's requests of that kind. A sample
 * with no request (n 0) leaves nothing to wait for: a quad with no
 * instruction left then retires. */
static void send(struct tsr_core *c, struct warp *w, uint32_t kind, uint32_t base, uint32_t n)
{
	w->pending = n;
	w->req_cycle = c->now;
	w->mem_wait = 1;
	if (n == 0 && !has_instructions(w))
		set_event(c, &w->retire_at, max64(w->ready_at, c->now));
	refresh(c, w);
	uint64_t tok = token_of(c, w), tag = w->tag;
	for (uint32_t i = 0; i < n; i++) {
		if (c->issue)
			c->issue(c->issue_ctx, c->now, tag, kind, base + i, tok);
		else
			complete(c, w, c->now);
	}
}

enum tsr_status tsr_core_mem_done(struct tsr_core *c, uint64_t token, uint64_t cycle)
{
	uint64_t slot = token & ((1u << SLOT_BITS) - 1);
	if (slot >= c->nslots)
		return TSR_ERR_INTERNAL;
	struct warp *w = &c->w[slot];
	if (!w->busy || w->epoch != token >> SLOT_BITS || !w->pending || cycle < w->req_cycle)
		return TSR_ERR_INTERNAL;
	if (cycle < c->now) {
		c->k.late_completions++;
		cycle = c->now;
	}
	complete(c, w, cycle);
	return TSR_OK;
}

static void retire(struct tsr_core *c, struct warp *w, uint64_t cycle)
{
	uint32_t s = (uint32_t)(w - c->w);
	w->busy = 0;
	refresh(c, w);
	uint32_t i = 0;
	while (c->age[i] != s)
		i++;
	memmove(&c->age[i], &c->age[i + 1], c->resident - 1 - i);
	c->resident--;
	if (c->greedy == (int32_t)s)
		c->greedy = -1;
	uint64_t life = cycle - w->push_cycle;
	c->k.quads_retired++;
	c->k.quad_cycles_sum += life;
	if (life > c->k.quad_cycles_max)
		c->k.quad_cycles_max = life;
	c->k.slot_resident_cycles[s] += cycle - w->acct_from;
	if (w->window == c->win_id) {
		c->win.quads_retired++;
		c->win.last_retire_cycle = max64(c->win.last_retire_cycle, cycle);
	}
	if (c->retire)
		c->retire(c->retire_ctx, w->tag, cycle);
}

/* Requests leaving and quads retiring at cycle y (== now), in slot order;
 * repeated, as a request completed at once can retire its quad. */
static void process_events(struct tsr_core *c, uint64_t y)
{
	if (y < c->ev_min)
		return;
	for (bool again = true; again;) {
		again = false;
		c->ev_min = NONE;
		/* the slots with events, in slot order; the mask is read again
		 * at each step, as callbacks may set events of later slots */
		for (uint32_t s = 0; s < c->nslots; s++) {
			const uint64_t rest = c->ev_mask & (~0ull << s);
			if (!rest)
				break;
			s = low_bit(rest);
			struct warp *w = &c->w[s];
			if (w->emit_at <= y) {
				const uint32_t base = w->tex_sent, n = w->emit_n;
				w->emit_at = NONE;
				w->tex_sent += n;
				c->k.tex_requests += n;
				send(c, w, TSR_CORE_MEM_TEXTURE, base, n);
				again = true;
			}
			if (w->busy && w->retire_at <= y) {
				retire(c, w, y);
				again = true;
			}
			/* events set by the callbacks lower ev_min themselves */
			if (w->busy) {
				if (w->emit_at < c->ev_min)
					c->ev_min = w->emit_at;
				if (w->retire_at < c->ev_min)
					c->ev_min = w->retire_at;
			}
		}
	}
}

static inline bool ready(const struct warp *w, uint64_t y)
{
	return candidate(w) && w->ready_at <= y;
}

/* The first slot of m (in slot order) whose warp is ready at y, or -1. */
static int32_t first_ready(const struct tsr_core *c, uint64_t m, uint64_t y)
{
	for (; m; m &= m - 1) {
		uint32_t s = low_bit(m);
		if (c->w[s].ready_at <= y)
			return (int32_t)s;
	}
	return -1;
}

/* The slot to issue from at cycle y, or -1. */
static int32_t pick(const struct tsr_core *c, uint64_t y)
{
	if (c->port_free > y)
		return -1;
	const uint64_t cand = c->cand_mask;
	if (c->p.sched == TSR_CORE_SCHED_RR) {
		/* the slots after rr_last, then those up to it */
		const uint64_t after = c->rr_last >= 63 ? 0 : cand & (~0ull << (c->rr_last + 1));
		int32_t s = first_ready(c, after, y);
		return s >= 0 ? s : first_ready(c, cand & ~after, y);
	}
	if (c->greedy >= 0 && ready(&c->w[c->greedy], y))
		return c->greedy;
	/* the oldest ready candidate: the first in age order */
	for (uint32_t i = 0; i < c->resident; i++) {
		const uint32_t s = c->age[i];
		if ((cand >> s & 1) && c->w[s].ready_at <= y)
			return (int32_t)s;
	}
	return -1;
}

/* Once the current segment of w is issued: on to the next one with an
 * instruction, if any. */
static inline void next_segment(struct warp *w)
{
	while (!(w->alu_left | w->sfu_left | w->sample_left) && w->segs_left) {
		const struct tsr_core_seg *g = w->seg++;
		w->segs_left--;
		w->alu_left = g->alu;
		w->sfu_left = g->sfu;
		w->sample_left = g->sample != 0;
		w->tex = g->sample ? g->tex_requests : 0;
	}
}

static void issue_one(struct tsr_core *c, int32_t s, uint64_t y)
{
	struct warp *w = &c->w[s];
	c->k.instructions++;
	c->port_free = y + 1;
	w->mem_wait = 0;
	if (w->alu_left) {
		w->alu_left--;
		w->ready_at = y + c->p.alu_latency_cycles;
	} else if (w->sfu_left) {
		w->sfu_left--;
		c->k.sfu_instructions++;
		w->ready_at = y + c->p.sfu_latency_cycles;
	} else {  /* the sample */
		uint64_t sc = c->p.sample_issue_cycles;
		w->sample_left = 0;
		w->emit_n = w->tex;
		c->k.sample_instructions++;
		c->port_free = y + sc;
		set_event(c, &w->emit_at, y + sc);
		w->ready_at = y + sc;
		w->mem_wait = 1;
	}
	next_segment(w);
	if (!has_instructions(w) && w->emit_at == NONE)
		set_event(c, &w->retire_at, w->ready_at);
	refresh(c, w);
	c->rr_last = (uint32_t)s;
	c->greedy = s;
}

/* The first cycle >= from at which an event happens or a warp could
 * issue (events at earlier cycles must have been processed). */
static uint64_t next_internal(const struct tsr_core *c, uint64_t from)
{
	uint64_t m = NONE;
	for (uint64_t b = c->ev_mask; b; b &= b - 1) {
		const struct warp *w = &c->w[low_bit(b)];
		if (w->emit_at < m)
			m = w->emit_at;
		if (w->retire_at < m)
			m = w->retire_at;
	}
	for (uint64_t b = c->cand_mask; b; b &= b - 1) {
		const struct warp *w = &c->w[low_bit(b)];
		uint64_t t = max64(max64(w->ready_at, c->port_free), from);
		if (t < m)
			m = t;
	}
	return max64(m, from);
}

static void account(struct tsr_core *c, uint64_t d, enum cycle_class cc)
{
	switch (cc) {
	case CC_BUSY: c->k.busy_cycles += d; break;
	case CC_IDLE: c->k.idle_cycles += d; break;
	case CC_MEM: c->k.stall_mem_cycles += d; break;
	case CC_DEP: c->k.stall_dep_cycles += d; break;
	}
	c->k.occupancy_cycles[c->resident] += d;
	c->k.resident_warp_cycles += (uint64_t)c->resident * d;
}

/* Class of a cycle y at which nothing issues. */
static enum cycle_class stall_class(const struct tsr_core *c, uint64_t y)
{
	if (c->port_free > y)
		return CC_BUSY;
	if (!c->resident)
		return CC_IDLE;
	return c->dep_mask ? CC_DEP : CC_MEM;
}

/*
 * The ALU instructions w can issue back to back from now on in its
 * current segment without ending it in a way issue_one() must handle:
 * all of them when SFU instructions or the sample follow, else all but
 * the last (whose issue moves to the next segment or sets the
 * retirement).
 */
static uint32_t plain_run(const struct warp *w)
{
	if (!w->alu_left)
		return 0;
	return w->sfu_left || w->sample_left ? w->alu_left : w->alu_left - 1;
}

/*
 * After issue_one() of an ALU instruction of w at now - 1: under
 * greedy-then-oldest with alu_latency_cycles 1, w stays the one picked
 * every cycle while it has plain ALU instructions, so they issue
 * together, as the cycle-by-cycle loop would issue them, up to `cycle`
 * and the first cycle an event may happen (ev_min), which must be
 * processed in its own cycle. Nothing else changes meanwhile: events of
 * other warps wait until ev_min, and inputs come only between advances.
 */
static void issue_run(struct tsr_core *c, struct warp *w, uint64_t cycle)
{
	const uint64_t from = c->now;
	const uint64_t end = cycle < c->ev_min ? cycle : c->ev_min;
	if (c->p.sched != TSR_CORE_SCHED_GTO || c->p.alu_latency_cycles != 1 || end <= from ||
	    !candidate(w) || w->ready_at != from)
		return;
	uint64_t j = plain_run(w);
	if (j > end - from)
		j = end - from;
	if (!j)
		return;
	w->alu_left -= (uint32_t)j;
	c->k.instructions += j;
	account(c, j, CC_BUSY);
	w->ready_at = c->port_free = c->now = from + j;
	refresh(c, w);
}

/*
 * After issue_one() at cycle y with issue_width > 1: up to issue_width - 1
 * more instructions in the same cycle, each from another ready warp (a
 * warp issues at most one a cycle: its ready_at is now after y), chosen
 * by the same scheduler. A sample instruction taking more than one issue
 * cycle (sample_issue_cycles) holds the whole port, as with width 1.
 */
static void issue_more(struct tsr_core *c, uint64_t y)
{
	for (uint32_t k = 1; k < c->p.issue_width && c->port_free == y + 1; k++) {
		c->port_free = y;
		int32_t s = pick(c, y);
		c->port_free = y + 1;
		if (s < 0)
			return;
		issue_one(c, s, y);
	}
}

void tsr_core_advance(struct tsr_core *c, uint64_t cycle)
{
	if (cycle < c->now || c->in_advance)
		return;
	if (cycle == c->now && cycle < c->ev_min)
		return;  /* no event due and no cycle to simulate: nothing changes,
			    and the cached next event stays */
	c->in_advance = 1;
	for (;;) {
		uint64_t y = c->now;
		process_events(c, y);
		if (y >= cycle)
			break;
		int32_t s = pick(c, y);
		if (s >= 0) {
			account(c, 1, CC_BUSY);
			issue_one(c, s, y);
			c->now = y + 1;
			if (c->p.issue_width > 1)
				issue_more(c, y);
			else
				issue_run(c, &c->w[s], cycle);
			continue;
		}
		enum cycle_class cc = stall_class(c, y);
		uint64_t nx = next_internal(c, y + 1);
		if (cc == CC_BUSY && c->port_free < nx)
			nx = c->port_free;
		if (nx > cycle)
			nx = cycle;
		account(c, nx - y, cc);
		c->now = nx;
	}
	c->k.cycles = c->now;
	c->in_advance = 0;
	c->n.next_ev_ok = 0;  /* also drops an answer cached by a callback mid-advance */
}

/*
 * A lower bound on the cycle w next sends requests or retires, if nothing
 * is pushed and no request completes before: its next instructions issue
 * at best alu_latency_cycles apart from max(ready_at, port_free, now).
 * NONE while it waits on a request (its completion is an input).
 */
static uint64_t output_bound(const struct tsr_core *c, const struct warp *w)
{
	if (w->emit_at != NONE)
		return max64(w->emit_at, c->now);
	if (w->retire_at != NONE)
		return max64(w->retire_at, c->now);
	if (!candidate(w))
		return NONE;
	return max64(max64(w->ready_at, c->port_free), c->now) + w->tail;
}

uint64_t tsr_core_next_event_compute(struct tsr_core *c)
{
	/* output_bound() over the warps with an event, then the candidates
	 * (disjoint sets); the others wait on memory: none */
	uint64_t ev = NONE;
	for (uint64_t b = c->ev_mask; b; b &= b - 1) {
		const struct warp *w = &c->w[low_bit(b)];
		uint64_t t = w->emit_at != NONE ? w->emit_at : w->retire_at;
		if (t < ev)
			ev = t;
	}
	uint64_t m = max64(ev, c->now);
	const uint64_t start = max64(c->port_free, c->now);
	for (uint64_t b = c->cand_mask; b; b &= b - 1) {
		const struct warp *w = &c->w[low_bit(b)];
		uint64_t t = max64(w->ready_at, start) + w->tail;
		if (t < m)
			m = t;
	}
	c->n.next_ev = m;
	c->n.next_ev_ok = 1;
	return m;
}

enum tsr_status tsr_core_push(struct tsr_core *c, uint64_t cycle, const struct tsr_core_item *q,
			      struct tsr_error *err)
{
	if (cycle < c->now)
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "core push at cycle %llu before the current cycle %llu",
				     (unsigned long long)cycle, (unsigned long long)c->now);
	tsr_core_advance(c, cycle);
	if (c->resident >= c->nslots) {
		c->k.refused++;
		return TSR_ERR_LIMIT;
	}
	uint32_t s = 0;
	while (c->w[s].busy)
		s++;
	struct warp *w = &c->w[s];
	memset(w, 0, sizeof(*w));
	w->busy = 1;
	w->tag = q->tag;
	w->epoch = ++c->seq;
	w->push_cycle = w->acct_from = w->ready_at = c->now;
	w->emit_at = w->retire_at = NONE;
	w->window = c->win_id;
	if (q->seg_count) {
		w->seg = q->segs;
		w->segs_left = q->seg_count;
	} else if (q->tex_requests) {
		/* interpolation, the sample, the rest */
		const uint32_t b = q->alu_instructions < c->p.alu_before_sample
					   ? q->alu_instructions
					   : c->p.alu_before_sample;
		w->own[0] = (struct tsr_core_seg){b, 0, 1, q->tex_requests};
		w->own[1] = (struct tsr_core_seg){q->alu_instructions - b, 0, 0, 0};
		w->seg = w->own;
		w->segs_left = 2;
	} else {
		w->own[0] = (struct tsr_core_seg){q->alu_instructions, 0, 0, 0};
		w->seg = w->own;
		w->segs_left = 1;
	}
	next_segment(w);
	c->age[c->resident++] = (uint8_t)s;
	c->k.quads_pushed++;
	if (c->win.quads_pushed++ == 0)
		c->win.first_push_cycle = c->now;
	if (q->ifetch_requests) {
		c->k.ifetch_requests += q->ifetch_requests;
		send(c, w, TSR_CORE_MEM_IFETCH, 0, q->ifetch_requests);
	} else if (!has_instructions(w)) {
		set_event(c, &w->retire_at, c->now);
	}
	refresh(c, w);
	/* Only w changed (its requests, if any, were sent with its bound
	 * none): the cached next event stays exact as the minimum with its
	 * bound, as in complete(). */
	if (c->n.next_ev_ok) {
		uint64_t b = output_bound(c, w);
		if (b < c->n.next_ev)
			c->n.next_ev = b;
	}
	return TSR_OK;
}

void tsr_core_mark(struct tsr_core *c, uint64_t cycle)
{
	tsr_core_advance(c, cycle);
	c->win_id++;
	memset(&c->win, 0, sizeof(c->win));
	c->win.mark_cycle = c->now;
	c->busy_at_mark = c->k.busy_cycles;
}

const struct tsr_core_window *tsr_core_window(struct tsr_core *c)
{
	c->win.busy_cycles = c->k.busy_cycles - c->busy_at_mark;
	return &c->win;
}

const struct tsr_core_counters *tsr_core_counters(struct tsr_core *c)
{
	for (uint32_t s = 0; s < c->nslots; s++) {
		struct warp *w = &c->w[s];
		if (w->busy) {
			c->k.slot_resident_cycles[s] += c->now - w->acct_from;
			w->acct_from = c->now;
		}
	}
	c->k.cycles = c->now;
	return &c->k;
}
