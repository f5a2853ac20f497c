/*
 * unit.h - a fixed-function stage of the timing model (docs/timing.md,
 * "Units and time"): a bounded input queue, a server of a given throughput,
 * a pipelined latency and a bounded number of items in flight after the
 * server, with back-pressure both ways. Primitive assembly (1 triangle per
 * cycle), the Rasterizer (16 attributes per cycle), Early-Z (32 in-flight
 * quads), blending and the Tile Fetcher are units with the parameters of
 * RE Table I; the shader cores (core.h) and the memory (memtime.h) are
 * units of their own.
 *
 * An item carries a tag (the caller's) and an amount of work in the unit's
 * own units (attributes, quads, bytes); the server takes ceil(work / rate)
 * cycles (at least 1) for it, one item after another. Then the item waits
 * `latency` cycles in the unit's pipeline (at most `inflight` items at a
 * time after the server; a full pipeline keeps the finished item in the
 * server) and is offered to the output callback, oldest first. A refused
 * item stays (the unit is then stalled on its output) until the consumer
 * calls tsr_unit_wake(). Before starting an item the server asks the gate
 * callback (if any), so a caller can model barriers (DTexL II-C: a stage
 * takes a new tile's quads only when all its parallel units finished the
 * previous one); a closed gate also waits for tsr_unit_wake().
 *
 * Protocol (as dram.h): tsr_unit_next_event() is the next GPU cycle at
 * which the unit can act by itself (UINT64_MAX: idle or waiting for a
 * wake); tsr_unit_advance() simulates up to a cycle; tsr_unit_push() and
 * tsr_unit_wake() happen at the unit's current cycle or later. No
 * allocation after creation.
 */
#ifndef TSR_TIMING_UNIT_H
#define TSR_TIMING_UNIT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"

struct tsr_unit_params {
	const char *name;          /* for messages ("rasterizer") */
	uint32_t queue_entries;    /* input queue, items (>= 1) */
	uint32_t rate;             /* work units the server does per cycle (>= 1) */
	uint32_t latency;          /* cycles from the end of service to the output */
	uint32_t inflight;         /* items after the server at most (>= 1) */
};

/* Cycles of a unit by what it did, summed over time (they add up to the
 * cycles simulated). */
struct tsr_unit_counters {
	uint64_t items;            /* items served */
	uint64_t work;             /* work units served */
	uint64_t busy;             /* the server worked on an item */
	uint64_t stalled_output;   /* the server held a finished item: output refused */
	uint64_t stalled_gate;     /* items waiting, the gate closed (a barrier) */
	uint64_t starved;          /* the server had nothing to do: input empty */
	uint64_t queue_occupancy;  /* sum over cycles of items in the input queue */
};

struct tsr_unit;

/* Offers a finished item at `cycle`; returns false to refuse it (the unit
 * then waits for tsr_unit_wake()). */
typedef bool (*tsr_unit_output_fn)(void *ctx, uint64_t cycle, uint64_t tag);
/* Whether the server may start the item `tag` at `cycle`. */
typedef bool (*tsr_unit_gate_fn)(void *ctx, uint64_t cycle, uint64_t tag);

/*
 * Creates an empty unit at cycle 0. Errors: TSR_ERR_CONFIG naming the unit
 * and the parameter (a zero queue, rate or inflight), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_unit_create(const struct tsr_unit_params *p, tsr_unit_output_fn out,
				tsr_unit_gate_fn gate, void *ctx, struct tsr_unit **u,
				struct tsr_error *err);
void tsr_unit_destroy(struct tsr_unit *u);

/* Whether the input queue has room. */
bool tsr_unit_can_accept(const struct tsr_unit *u);

/*
 * Queues an item arriving at `cycle` (>= the unit's current cycle; the unit
 * is advanced to it first). Returns false, changing nothing, when the
 * queue is full (the producer keeps the item: back-pressure).
 */
bool tsr_unit_push(struct tsr_unit *u, uint64_t cycle, uint64_t tag, uint32_t work);

/* The consumer has room again or a gate may have opened: retry at `cycle`
 * (nothing, for a unit whose output did not refuse and whose gate did not close). */
void tsr_unit_wake(struct tsr_unit *u, uint64_t cycle);

/* What tsr_unit_next_event() reads inline (called every driver step for
 * every unit, across translation units): the first member of struct
 * tsr_unit, not for use outside unit.c and this header. */
struct tsr_unit_cached_next {
	uint64_t next;   /* tsr_unit_next_event()'s answer, kept by every change of state */
};

/* The next cycle the unit can act without a push or a wake; UINT64_MAX if none. */
static inline uint64_t tsr_unit_next_event(const struct tsr_unit *u)
{
	return ((const struct tsr_unit_cached_next *)(const void *)u)->next;
}

/* Simulates up to the start of `cycle`, calling the callbacks on the way. */
void tsr_unit_advance(struct tsr_unit *u, uint64_t cycle);

/* Whether the unit waits for a wake because its output refused an item. */
bool tsr_unit_blocked(const struct tsr_unit *u);

/* Items in the unit: queued, in service or in its pipeline. */
uint32_t tsr_unit_items(const struct tsr_unit *u);

const struct tsr_unit_counters *tsr_unit_counters(const struct tsr_unit *u);

#endif
