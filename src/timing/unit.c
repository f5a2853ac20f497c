/*
 * unit.c - a fixed-function stage of the timing model (unit.h).
 *
 * State: the input queue (a ring of tags and work), the server (empty, in
 * service until `done`, or holding a finished item), the pipeline after it
 * (a ring of tags and the cycle each is ready), and two waits (output
 * refused, gate closed) that only a wake ends. advance() jumps from event
 * to event: a service ends, a pipeline item becomes ready, the server can
 * start; the cycles in between are counted by the state they were in.
 */
#include "timing/unit.h"

#include <stdlib.h>
#include <string.h>

struct slot {
	uint64_t tag;
	uint64_t when;   /* queue: work units; pipeline: cycle ready */
};

struct tsr_unit {
	struct tsr_unit_cached_next n;  /* first: read by tsr_unit_next_event() (unit.h);
					   kept by advance, push and wake (the only
					   changes of state) */
	struct tsr_unit_params p;
	tsr_unit_output_fn out;
	tsr_unit_gate_fn gate;
	void *ctx;
	uint64_t now;                 /* cycles before it are simulated */
	struct slot *queue;           /* ring of queue_entries */
	uint32_t q_head, q_len;
	struct slot *pipe;            /* ring of inflight */
	uint32_t p_head, p_len;
	int serving;                  /* 1: server holds an item (in service or finished) */
	uint64_t s_tag, s_done;       /* its tag, the cycle its service ends */
	int blocked;                  /* the output refused; waits for a wake */
	int gated;                    /* the gate closed; waits for a wake */
	int settled;                  /* advance() has done all it could at now: nothing
					 changed since (cleared by push and wake) */
	struct tsr_unit_counters c;
};

enum tsr_status tsr_unit_create(const struct tsr_unit_params *p, tsr_unit_output_fn out,
				tsr_unit_gate_fn gate, void *ctx, struct tsr_unit **u,
				struct tsr_error *err)
{
	*u = NULL;
	const char *name = p->name ? p->name : "unit";
	const char *bad = !p->queue_entries ? "queue_entries" : !p->rate ? "rate"
			  : !p->inflight ? "inflight" : NULL;
	if (bad)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "timing unit '%s': %s must be at least 1", name, bad);
	struct tsr_unit *x = calloc(1, sizeof(*x));
	if (x) {
		x->queue = calloc(p->queue_entries, sizeof(*x->queue));
		x->pipe = calloc(p->inflight, sizeof(*x->pipe));
	}
	if (!x || !x->queue || !x->pipe) {
		tsr_unit_destroy(x);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for timing unit '%s'",
				     name);
	}
	x->p = *p;
	x->out = out;
	x->gate = gate;
	x->ctx = ctx;
	x->n.next = UINT64_MAX;  /* empty */
	*u = x;
	return TSR_OK;
}

void tsr_unit_destroy(struct tsr_unit *u)
{
	if (!u)
		return;
	free(u->queue);
	free(u->pipe);
	free(u);
}

bool tsr_unit_can_accept(const struct tsr_unit *u)
{
	return u->q_len < u->p.queue_entries;
}

bool tsr_unit_blocked(const struct tsr_unit *u)
{
	return u->blocked != 0;
}

uint32_t tsr_unit_items(const struct tsr_unit *u)
{
	return u->q_len + u->p_len + (uint32_t)u->serving;
}

const struct tsr_unit_counters *tsr_unit_counters(const struct tsr_unit *u)
{
	return &u->c;
}

/* Index i (< 2 n) of a ring of n entries, wrapped: a compare instead of a
 * division in the hot path. */
static uint32_t wrap(uint32_t i, uint32_t n)
{
	return i >= n ? i - n : i;
}

/* Whether the server holds an item whose service has ended. */
static int finished(const struct tsr_unit *u)
{
	return u->serving && u->s_done <= u->now;
}

/* The next cycle the unit can act by itself, from its state (tsr_unit_next_event()
 * returns it as kept by the last change). */
static uint64_t next_event(const struct tsr_unit *u)
{
	uint64_t t = UINT64_MAX;
	if (u->serving) {
		/* a finished item waits for room in the pipeline: an event only
		 * if the pipeline can drain by itself */
		if (u->s_done > u->now || u->p_len < u->p.inflight)
			t = u->s_done > u->now ? u->s_done : u->now;
	} else if (u->q_len && !u->gated) {
		t = u->now;
	}
	if (u->p_len && !u->blocked) {
		uint64_t r = u->pipe[u->p_head].when;
		r = r > u->now ? r : u->now;
		t = r < t ? r : t;
	}
	return t;
}

/* Counts the cycles [now, to) by the state the unit is in, and moves now. */
static void account(struct tsr_unit *u, uint64_t to)
{
	if (to <= u->now)
		return;
	uint64_t n = to - u->now;
	u->c.queue_occupancy += (uint64_t)u->q_len * n;
	if (u->serving) {
		/* in service until s_done, then holding a finished item */
		uint64_t busy = u->s_done > u->now ? (u->s_done < to ? u->s_done : to) - u->now : 0;
		u->c.busy += busy;
		u->c.stalled_output += n - busy;
	} else if (u->q_len) {
		u->c.stalled_gate += n;
	} else {
		u->c.starved += n;
	}
	u->now = to;
}

/* Everything the unit can do at cycle `now`, in order. */
static void act(struct tsr_unit *u)
{
	for (;;) {
		int progress = 0;
		/* the pipeline's ready items to the output, oldest first */
		while (u->p_len && !u->blocked && u->pipe[u->p_head].when <= u->now) {
			if (u->out && !u->out(u->ctx, u->now, u->pipe[u->p_head].tag)) {
				u->blocked = 1;
				break;
			}
			u->p_head = wrap(u->p_head + 1, u->p.inflight);
			u->p_len--;
			progress = 1;
		}
		/* a finished item into the pipeline */
		if (finished(u) && u->p_len < u->p.inflight) {
			struct slot *s = &u->pipe[wrap(u->p_head + u->p_len, u->p.inflight)];
			s->tag = u->s_tag;
			s->when = u->now + u->p.latency;
			u->p_len++;
			u->serving = 0;
			progress = 1;
		}
		/* the next item into service */
		if (!u->serving && u->q_len && !u->gated) {
			const struct slot *q = &u->queue[u->q_head];
			if (u->gate && !u->gate(u->ctx, u->now, q->tag)) {
				u->gated = 1;
			} else {
				uint64_t work = q->when;
				u->serving = 1;
				u->s_tag = q->tag;
				u->s_done = u->now + (work ? (work + u->p.rate - 1) / u->p.rate : 1);
				u->c.items++;
				u->c.work += work;
				u->q_head = wrap(u->q_head + 1, u->p.queue_entries);
				u->q_len--;
				progress = 1;
			}
		}
		if (!progress)
			return;
	}
}

void tsr_unit_advance(struct tsr_unit *u, uint64_t cycle)
{
	if (cycle < u->now || (cycle == u->now && u->settled))
		return;
	uint64_t t;
	if (u->settled) {
		/* an act() at now would do nothing (nothing changed since the
		 * last one) and leave the next event as kept: straight to it */
		t = u->n.next;
		if (t > cycle) {
			account(u, cycle);
			return;
		}
		account(u, t);
	}
	for (;;) {
		act(u);
		/* after act() nothing is left to do at now: the next event is later */
		t = next_event(u);
		if (t > cycle) {
			/* nothing can happen up to cycle: an act() at cycle would
			 * do nothing (each of its steps would make t <= cycle) and
			 * leave t as it is */
			account(u, cycle);
			break;
		}
		if (t <= u->now) {  /* defensive: act() left nothing to do at now */
			account(u, cycle);
			act(u);
			t = next_event(u);
			break;
		}
		account(u, t);
	}
	/* act() stops only when nothing can progress at now: the pipeline's
	 * head is not ready or refused, the server is busy or held, the queue
	 * is empty or gated; none of that changes at now without a push or a
	 * wake */
	u->settled = 1;
	u->n.next = t;  /* next_event() of the state act() left */
}

bool tsr_unit_push(struct tsr_unit *u, uint64_t cycle, uint64_t tag, uint32_t work)
{
	/* a full queue with no event up to cycle stays full (an item leaves
	 * it only at an event): refused without bringing the unit up to date,
	 * which its next advance does the same */
	if (u->q_len == u->p.queue_entries && u->n.next > cycle)
		return false;
	tsr_unit_advance(u, cycle);
	if (u->q_len == u->p.queue_entries)
		return false;
	struct slot *s = &u->queue[wrap(u->q_head + u->q_len, u->p.queue_entries)];
	s->tag = tag;
	s->when = work;
	u->q_len++;
	u->settled = 0;
	u->n.next = next_event(u);
	return true;
}

void tsr_unit_wake(struct tsr_unit *u, uint64_t cycle)
{
	/* a unit that waits on nothing has done all it could: the wake
	 * would only bring it up to date, which its next advance does */
	if (!u->blocked && !u->gated)
		return;
	tsr_unit_advance(u, cycle);
	u->blocked = 0;
	u->gated = 0;
	u->settled = 0;
	u->n.next = next_event(u);
}
