/*
 * core.h - cycle-level timing of one shader core (fragment processor):
 * warp slots, a warp scheduler issuing issue_width instructions per cycle, and
 * warps that block on their instruction fetches and texture requests.
 *
 * It is the "Shader cores" piece of the timing model of issue 13
 * (docs/timing.md). The papers' GPUs have 4 fragment processors
 * (Rendering Elimination Table I, a Mali-450-like GPU; DTexL II and IV-A)
 * whose threads are quads; multithreading hides texture latency only as
 * far as there are ready warps (DTexL I and V-B), and the time a core
 * takes to finish a tile varies between cores (DTexL III-E, Fig. 14).
 *
 * Warps. A warp is one quad of 4 threads (Mali Utgard's and Bifrost
 * G71's quad-based fragment threads), so a warp slot holds one quad. The
 * caller pushes a quad (struct tsr_core_item) when a slot is free
 * (tsr_core_can_accept(); back-pressure otherwise: the caller keeps the
 * quad in its queue). The quad's program is its instruction stream as
 * the functional model ran it: its instruction fetches first
 * (ifetch_requests requests issued at the push cycle through the memory
 * interface; the warp waits until all have completed), then its segments
 * (struct tsr_core_seg) in order, each
 *   1. alu instructions of the ALU pipeline (arithmetic, moves, flow
 *      control), each letting the warp's next instruction issue
 *      alu_latency_cycles later;
 *   2. sfu special-function instructions (reciprocal, square root,
 *      exponentials, logarithms, trigonometry), each letting the next
 *      issue sfu_latency_cycles later;
 *   3. when the segment has a sample, the sample instruction: it takes
 *      sample_issue_cycles cycles of the issue port (address computation
 *      and coalescing), its tex_requests line requests all leave at the
 *      end of that (cycle of issue + sample_issue_cycles), and the warp
 *      waits until all have completed.
 * A GL ES program's quad (raster/fragment.c) has a segment per sample
 * instruction it executed, in the order executed (a loop's samples, both
 * sides of a divergent branch: the instructions its lanes ran, masked
 * ones included, as the executor counts them), and a last one without a
 * sample. A quad given as counts only (seg_count 0: a JSON workload's
 * fixed material) runs as two segments: b = min(alu_before_sample,
 * alu_instructions) ALU instructions (interpolation) and, if
 * tex_requests > 0, the sample; then the rest of its ALU instructions
 * (untextured quads have no sample instruction).
 * Instructions of a warp are dependent: after the sample the next
 * instruction issues at max(t + sample_issue_cycles, the last
 * completion). A quad retires its last instruction's latency after that
 * issued, or at its last completion if a sample is its last instruction,
 * or when its fetches complete if it has no instruction at all; its slot
 * is free from that cycle, and a quad pushed then may issue in that
 * cycle. So, one quad alone with latency L for every request, no fetches
 * and no SFU instruction: b + sample_issue_cycles + L + rest cycles.
 *
 * Scheduling. One instruction per cycle (issue width 1, the papers'
 * mobile cores), from a ready warp: round-robin (the first ready slot
 * after the slot that issued last, in slot order) or greedy-then-oldest
 * (the warp that issued last if it is ready, else the ready warp pushed
 * earliest). A quad takes the lowest free slot. With issue_width W > 1
 * (a cluster of execution units behind one texture sampler, as GSPC
 * Section 4's desktop GPU: 8 cores x 2 SIMD4 pipelines per sampler),
 * up to W instructions issue in a cycle, each from a different ready
 * warp, picked one after another by the same scheduler; a sample
 * instruction of sample_issue_cycles > 1 holds the whole port.
 *
 * Memory interface. Requests go out through the caller's issue function
 * (tsr_core_set_memory()) with a token; the caller reports each
 * completion with tsr_core_mem_done(token, cycle), at any time from
 * inside the issue call (same cycle for a hit of latency 0, or a later
 * cycle when the latency is known at once) up to the completion cycle
 * itself (from inside another unit's advance, say). A completion the
 * core learns of after it has advanced past its cycle is taken as
 * happening at the core's current cycle and counted in
 * late_completions: a top-level loop that advances every unit to the
 * minimum of their next events never produces one. Without an issue
 * function every request completes at its issue cycle.
 *
 * Time and protocol (as timing/dram.h). tsr_core_advance(c) brings the
 * core to the start of cycle c: the issue slots of every cycle before c
 * are simulated, and every event at a cycle <= c (requests leaving,
 * quads retiring) is reported. Inputs (tsr_core_push(),
 * tsr_core_mark()) happen at a cycle >= the current one, after the
 * core's events of that cycle. tsr_core_next_event() is a lower bound
 * on the next cycle the core produces an output (sends requests or
 * retires a quad) if nothing is pushed and no request completes before:
 * a warp's remaining instructions issue at best alu_latency_cycles
 * apart. A caller advances the core to that cycle and not beyond before
 * asking again (so requests reach the memory and freed slots are refilled
 * on time), to each cycle at which it pushes a quad, and reports a
 * completion before the core passes its cycle; a top-level loop that
 * advances every unit to the minimum of their next events does all that.
 * The instructions in between are simulated when the core advances,
 * cycle by cycle while a warp can issue, jumping over stretches where
 * none can.
 * It is UINT64_MAX when the core is idle or every warp waits on a request
 * not yet completed, and the current cycle when a quad retires or
 * requests leave at it (advance(now) reports them). Warp slots are
 * allocated once, at creation; nothing is allocated per quad.
 *
 * Statistics. Every simulated cycle is exactly one of: busy (the issue
 * port is used: an instruction issues, or a sample instruction occupies
 * it), idle (no warp resident), stalled on memory (warps resident, none
 * ready, none waiting only on an ALU dependency), stalled on a dependency
 * (warps resident, none ready, one waiting for an earlier instruction of
 * its own: only with alu_latency_cycles > 1 or at retirement). Per tile:
 * tsr_core_mark() opens a window; the core's execution time for that tile
 * is last_retire_cycle - first_push_cycle over the quads pushed since the
 * mark (DTexL Fig. 14's "SC execution time to complete a tile").
 *
 * Left out: instruction-level parallelism inside a warp (dual issue,
 * independent instructions: every instruction waits for the one before),
 * register-file and texture-unit structural hazards other than the
 * sample's issue cycles, warps larger than a quad (a quad's divergence is
 * in its segments: both sides of a branch issue), energy values (only the
 * event counts an energy model multiplies).
 */
#ifndef TSR_TIMING_CORE_H
#define TSR_TIMING_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"

/* Most warp slots of one core. */
#define TSR_CORE_MAX_WARP_SLOTS 64u

/* Largest alu_latency_cycles and sample_issue_cycles accepted. */
#define TSR_CORE_MAX_LATENCY 1024u

/* Largest alu_before_sample accepted. */
#define TSR_CORE_MAX_ALU_BEFORE 65536u

/* Warp scheduling policies. */
enum tsr_core_sched {
	TSR_CORE_SCHED_RR,   /* round-robin over ready warps */
	TSR_CORE_SCHED_GTO,  /* greedy-then-oldest */
	TSR_CORE_SCHED_COUNT
};

/* "rr" and "gto", indexed by enum tsr_core_sched. */
extern const char *const tsr_core_sched_names[TSR_CORE_SCHED_COUNT];

/* Kinds of memory request, as passed to the issue function. */
enum tsr_core_mem_kind {
	TSR_CORE_MEM_IFETCH = 0,   /* an instruction fetch (L1 instruction cache) */
	TSR_CORE_MEM_TEXTURE = 1,  /* a texture line request of the sample (L1 texture cache) */
};

/* Parameters of one core; plain data filled by tsr_core_params_default(),
 * then the caller or a config loader. */
struct tsr_core_params {
	uint32_t warp_slots;          /* quads resident at once, 1..TSR_CORE_MAX_WARP_SLOTS */
	uint32_t sched;               /* enum tsr_core_sched */
	uint32_t issue_width;         /* instructions per cycle, each from a different warp,
					 1..TSR_CORE_MAX_WARP_SLOTS */
	uint32_t alu_before_sample;   /* ALU instructions before the sample instruction */
	uint32_t alu_latency_cycles;  /* cycles from an ALU instruction to the warp's next
					 one, >= 1 (1: back to back) */
	uint32_t sfu_latency_cycles;  /* cycles from a special-function instruction to the
					 warp's next one, >= 1 */
	uint32_t sample_issue_cycles; /* issue-port cycles of the sample instruction, >= 1 */
};

/* One segment of a quad's instruction stream (see the file comment). */
struct tsr_core_seg {
	uint32_t alu;           /* ALU-pipeline instructions (arithmetic, flow control) */
	uint32_t sfu;           /* special-function instructions, after those */
	uint32_t sample;        /* 1: a sample instruction ends the segment */
	uint32_t tex_requests;  /* its line requests (0 with no sample) */
};

/*
 * One quad (a warp's work): its segments (segs[0 .. seg_count - 1], which
 * must stay valid and unchanged until the quad retires), or with
 * seg_count 0 the counts alu_instructions and tex_requests (one sample
 * instruction when tex_requests > 0, after alu_before_sample of them).
 */
struct tsr_core_item {
	uint64_t tag;               /* caller's, returned at retirement and in requests */
	uint32_t alu_instructions;  /* seg_count 0: the material's ALU instruction count */
	uint32_t tex_requests;      /* seg_count 0: line requests of the sample
				       instruction; 0: untextured */
	uint32_t ifetch_requests;   /* instruction fetch requests (lines) */
	uint32_t seg_count;         /* segments; 0: the counts above */
	const struct tsr_core_seg *segs;
};

/*
 * Counters since creation (plain data). busy + idle + stall_mem +
 * stall_dep = cycles; sum over k of k x occupancy_cycles[k] =
 * resident_warp_cycles = sum of slot_resident_cycles.
 */
struct tsr_core_counters {
	uint64_t cycles;              /* cycles simulated (the current cycle) */
	uint64_t busy_cycles;         /* the issue port was used */
	uint64_t idle_cycles;         /* no warp resident */
	uint64_t stall_mem_cycles;    /* warps resident, all waiting on memory */
	uint64_t stall_dep_cycles;    /* warps resident, none ready, one on an ALU dependency */
	uint64_t instructions;        /* instructions issued (a sample counts 1) */
	uint64_t sample_instructions; /* sample instructions issued */
	uint64_t sfu_instructions;    /* special-function instructions issued */
	uint64_t quads_pushed, quads_retired;
	uint64_t ifetch_requests, tex_requests; /* requests issued */
	uint64_t refused;             /* pushes refused for want of a free slot */
	uint64_t late_completions;    /* completions reported after their cycle */
	uint64_t quad_cycles_sum;     /* sum over retired quads of retire - push cycle */
	uint64_t quad_cycles_max;     /* longest push-to-retire time */
	uint64_t resident_warp_cycles; /* integral of resident warps over time */
	uint64_t occupancy_cycles[TSR_CORE_MAX_WARP_SLOTS + 1]; /* cycles with k warps resident */
	uint64_t slot_resident_cycles[TSR_CORE_MAX_WARP_SLOTS]; /* cycles slot s held a quad */
};

/*
 * The tile window opened by the last tsr_core_mark() (plain data). Only
 * quads pushed since the mark count. The core's execution time for the
 * tile is last_retire_cycle - first_push_cycle once quads_retired ==
 * quads_pushed > 0; with no quad pushed it executed nothing (0).
 */
struct tsr_core_window {
	uint64_t mark_cycle;         /* cycle of the mark */
	uint64_t first_push_cycle;   /* push cycle of the window's first quad */
	uint64_t last_retire_cycle;  /* latest retirement of the window's quads */
	uint64_t quads_pushed, quads_retired;
	uint64_t busy_cycles;        /* busy cycles since the mark */
};

struct tsr_core;

/*
 * Sends one memory request at `cycle`: kind (enum tsr_core_mem_kind),
 * index 0..n-1 within the quad's requests of that kind, and the token to
 * give back to tsr_core_mem_done(). Called from inside tsr_core_push()
 * (instruction fetches) or tsr_core_advance() (texture requests). May
 * call tsr_core_mem_done(), nothing else of the core.
 */
typedef void (*tsr_core_issue_fn)(void *ctx, uint64_t cycle, uint64_t quad_tag, uint32_t kind,
				  uint32_t index, uint64_t token);

/* Called once per retired quad at its retirement cycle, from inside
 * tsr_core_advance(); may call the core's read-only functions only. */
typedef void (*tsr_core_retire_fn)(void *ctx, uint64_t tag, uint64_t cycle);

/* Defaults: 16 warp slots (64 threads: the papers do not give the
 * figure, so it is our assumption for a config to override),
 * greedy-then-oldest, issue width 1, alu_before_sample 2 (interpolating
 * the texture coordinates before the sample), alu_latency_cycles 1,
 * sfu_latency_cycles 4 (an assumption: the papers give no figure; a
 * special function takes several passes of a multi-cycle unit, and a
 * dependent instruction waits for them), sample_issue_cycles 1. */
void tsr_core_params_default(struct tsr_core_params *p);

/*
 * Checks parameters. Errors: TSR_ERR_CONFIG naming the parameter
 * (warp_slots, sched, issue_width, alu_before_sample, alu_latency_cycles,
 * sfu_latency_cycles, sample_issue_cycles) and its valid range.
 */
enum tsr_status tsr_core_params_check(const struct tsr_core_params *p, struct tsr_error *err);

/* The policy named `name` ("rr", "round-robin", "gto",
 * "greedy-then-oldest") into *out. Errors: TSR_ERR_CONFIG listing them. */
enum tsr_status tsr_core_sched_from_name(const char *name, uint32_t *out,
					 struct tsr_error *err);

/* Creates an idle core at cycle 0 with its warp slots. Errors: those of
 * tsr_core_params_check(), TSR_ERR_NOMEM. */
enum tsr_status tsr_core_create(const struct tsr_core_params *p, struct tsr_core **out,
				struct tsr_error *err);

void tsr_core_destroy(struct tsr_core *c);

/* Sets (or with fn NULL removes) the memory interface. */
void tsr_core_set_memory(struct tsr_core *c, tsr_core_issue_fn fn, void *ctx);

/* Sets (or with fn NULL removes) the retirement callback. */
void tsr_core_set_retire(struct tsr_core *c, tsr_core_retire_fn fn, void *ctx);

/* Whether a warp slot is free now (at the current cycle). */
bool tsr_core_can_accept(const struct tsr_core *c);

/*
 * Advances to `cycle` and starts quad *q there in the lowest free slot;
 * its instruction fetches are issued before this returns. Errors:
 * TSR_ERR_LIMIT when no slot is free (the quad is not taken; retry after
 * a retirement), TSR_ERR_INTERNAL for a cycle before the current one.
 * err may be NULL.
 */
enum tsr_status tsr_core_push(struct tsr_core *c, uint64_t cycle, const struct tsr_core_item *q,
			      struct tsr_error *err);

/*
 * Reports that the request of `token` completed at `cycle` (>= its issue
 * cycle; a cycle before the core's current one counts as a late
 * completion, see the file comment). Errors: TSR_ERR_INTERNAL for an
 * unknown or stale token, a request already completed, or a cycle before
 * the request's issue.
 */
enum tsr_status tsr_core_mem_done(struct tsr_core *c, uint64_t token, uint64_t cycle);

/* Brings the core to the start of `cycle` (see the file comment); a
 * cycle before the current one does nothing. */
void tsr_core_advance(struct tsr_core *c, uint64_t cycle);

/* tsr_core_next_event(c) (below, inline) is a lower bound (>= current)
 * on the next cycle the core sends requests
 * or retires a quad, absent inputs (see the file comment); UINT64_MAX
 * when idle or every warp waits on memory. The answer is cached until
 * the core's state next changes (a push, a completion, an advance), so
 * asking again without a change costs O(1): a caller may ask every
 * cycle, and need not advance a core whose next event lies beyond the
 * cycle it brings the other units to (an advance then changes nothing
 * the caller sees; a push or a completion brings the core up to date).
 * tsr_core_next_event_compute() computes and caches it (callers use
 * tsr_core_next_event()). */
uint64_t tsr_core_next_event_compute(struct tsr_core *c);

/* What tsr_core_next_event() reads inline (called every driver step for
 * every core, across translation units): the first member of struct
 * tsr_core, not for use outside core.c and this header. */
struct tsr_core_cached_next {
	uint64_t next_ev;     /* tsr_core_next_event()'s answer, while next_ev_ok */
	int next_ev_ok;       /* 0 after any change of state (push, completion, advance) */
};

static inline uint64_t tsr_core_next_event(struct tsr_core *c)
{
	const struct tsr_core_cached_next *n = (const struct tsr_core_cached_next *)(void *)c;
	return n->next_ev_ok ? n->next_ev : tsr_core_next_event_compute(c);
}

/* Current cycle (the last advanced to). */
uint64_t tsr_core_now(const struct tsr_core *c);

/* Warps resident now. */
uint32_t tsr_core_resident(const struct tsr_core *c);

/* Advances to `cycle` (>= current; else the current cycle is used) and
 * opens a new tile window there. */
void tsr_core_mark(struct tsr_core *c, uint64_t cycle);

/* The current tile window. */
const struct tsr_core_window *tsr_core_window(struct tsr_core *c);

/* Counters, with the slots' resident cycles brought up to the current cycle. */
const struct tsr_core_counters *tsr_core_counters(struct tsr_core *c);

#endif
