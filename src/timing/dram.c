/*
 * dram.c - the DRAM device and controller model of timing/dram.h.
 *
 * Layout: each channel owns a pool of read_queue_entries +
 * write_queue_entries request slots (a free-slot stack), per bank and
 * kind (read, write) an age-ordered list of the slots that still have
 * column commands to issue, its banks, and the "not before" ticks of
 * every timing constraint (the way DRAMSim2 and Ramulator keep them).
 * Within one list the requests' ready ticks never decrease with age, so
 * a decision looks only at each list's oldest request and its oldest
 * one hitting or missing the open row (kept per list), not at the whole
 * queue, and only at banks with requests of a kind it may schedule (a
 * mask per channel and kind). A channel decides at most one command per
 * DRAM clock edge; when nothing is legal it sleeps until the
 * earliest tick a candidate's next command becomes legal, which is exact
 * because no constraint changes while the channel issues nothing and no
 * request arrives. Completions wait in a binary min-heap ordered by
 * (done cycle, sequence number), so they are reported deterministically.
 *
 * Why one file of over 1,000 lines: it is one concern, the channel's
 * state machine (queues, banks, the timing constraints and the scheduler
 * that reads them), whose parts share the per-channel state and are hot
 * enough that they are static and inlined together.
 */
#include "timing/dram.h"

#include "core/event_heap.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define NO_ROW UINT32_MAX
#define NEVER UINT64_MAX
#define TICK_LIMIT (UINT64_MAX >> 2)  /* ticks of the latest cycle the model takes */

enum cmd { CMD_ACT, CMD_PRE, CMD_COL };
enum first { FIRST_NONE, FIRST_HIT, FIRST_MISS, FIRST_CONFLICT };

#define NIL UINT32_MAX       /* end of a request list */

struct req {
	/* what decide() reads, first */
	uint64_t ready;          /* first tick it may be scheduled */
	uint64_t seq;            /* the channel's enqueue number: its age */
	uint32_t next, prev;     /* its bank-and-kind list, NIL at the ends */
	uint32_t bank, row;
	uint8_t write;
	uint8_t first;           /* enum first: how its first command found the bank */
	uint32_t bursts_left;
	uint32_t bytes;
	uint64_t addr, tag;
	uint64_t enqueue_cycle;
};

struct bank {
	uint32_t open_row;       /* NO_ROW when precharged */
	uint32_t col_count;      /* column commands since the row's ACT */
	uint64_t next_act, next_pre, next_col; /* earliest ticks */
};

/* Requests of one bank and kind with bursts left, oldest first. */
struct list {
	uint32_t head, tail;     /* slots, NIL when empty */
	uint32_t first_hit;      /* oldest request to the bank's open row, NIL if none */
	uint32_t first_miss;     /* oldest request to another row (any request of a
				    closed bank), NIL if none */
};

struct chan {
	struct req *reqs;        /* read + write slots */
	uint32_t *free_slots;
	uint32_t nfree;
	struct list *lists;      /* per bank: [2 * bank + write] */
	uint64_t active[2][4];   /* [kind] bit b: bank b's list of that kind is not
				    empty (banks <= 256) */
	uint32_t norder;         /* slots with bursts left */
	uint64_t seq;            /* requests enqueued */
	uint32_t reads_in, writes_in;     /* slots held, by kind */
	uint32_t unissued_reads, unissued_writes;
	uint8_t drain;
	struct bank *banks;
	uint64_t next_act;       /* tRRD */
	uint64_t faw[4];         /* ticks of the last four ACTs (ring) */
	uint32_t faw_i, acts;
	uint64_t next_rd, next_wr;
	uint64_t next_tick;      /* next decision; NEVER when idle without refresh */
	uint64_t ref_due;        /* NEVER without refresh */
	/* the decision at plan_t, found by the decision that made the channel
	 * sleep until then (NEVER: none; an enqueue cancels it, decide()) */
	uint64_t plan_t;
	uint32_t plan_slot;
	uint8_t plan_cmd;        /* enum cmd */
};

struct done {
	uint64_t cycle, seq;
	uint32_t ch, slot;
};

struct tsr_dram {
	struct tsr_dram_cached_next n;  /* first: read by tsr_dram_next_event() and
					   tsr_dram_next_completion() (dram.h); kept by
					   update_next() */
	struct tsr_dram_params p;
	uint32_t gpu_mhz;
	uint64_t G, D;           /* ticks per GPU cycle, per DRAM cycle */
	uint32_t g_shift;        /* log2(G) if G is a power of two, else 64 */
	uint64_t cycle_limit;    /* latest GPU cycle the model takes: TICK_LIMIT / G */
	/* kept by update_next() after every change (advance, enqueue) */
	uint64_t tick_min;       /* earliest next_tick of the channels, ticks */
	uint64_t min_data_ticks; /* shortest column command to data end: min(rl, wl + 1)
				    + burst_length / 2 DRAM cycles, in ticks */
	/* address map: shift and mask of each field, granule bits */
	uint32_t off_bits, col_bits, shift[4], bits[4];
	uint32_t burst_bytes;
	struct chan *ch;
	struct done *heap;
	uint32_t nheap, cap_heap;
	uint64_t seq;
	uint64_t now;            /* GPU cycle */
	uint64_t occ_last;
	uint32_t in_flight;
	uint64_t rport_free, wport_free; /* GPU cycles */
	tsr_dram_done_fn fn;
	void *ctx;
	tsr_dram_cmd_fn cmd_fn;
	void *cmd_ctx;
	struct tsr_dram_device_counters k;
};

enum field { F_ROW, F_BANK, F_COLUMN, F_CHANNEL };

static void update_next(struct tsr_dram *d);
static void set_open_row(struct chan *ch, uint32_t b, uint32_t row);
static const char *const field_names[4] = {"row", "bank", "column", "channel"};

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static int pow2(uint64_t x) { return x && !(x & (x - 1)); }
/* Words of a channel's active-bank masks in use. */
static uint32_t active_words(uint32_t banks) { return (banks + 63) / 64; }

/* floor(log2(x)); 0 for x <= 1. */
static uint32_t log2u(uint64_t x)
{
	return x > 1 ? 63u - (uint32_t)__builtin_clzll(x) : 0;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* floor(ticks / G): the GPU cycle of a tick (a shift for the usual power
 * of two G: update_next() does this at every change). */
static uint64_t cycle_of_tick(const struct tsr_dram *d, uint64_t ticks)
{
	return d->g_shift < 64 ? ticks >> d->g_shift : ticks / d->G;
}

void tsr_dram_params_default_lpddr3(struct tsr_dram_params *p)
{
	memset(p, 0, sizeof(*p));
	p->channels = 2;
	p->banks = 8;
	p->rows = 16384;
	p->row_bytes = 4096;
	p->bus_bits = 32;
	p->burst_length = 8;
	p->dram_mhz = 800;
	p->interleave_bytes = 64;
	strcpy(p->address_map, "row:bank:column:channel");
	p->t_rcd = 15;
	p->t_rp = 15;
	p->t_rp_ab = 17;
	p->t_ras = 34;
	p->t_rc = 49;
	p->rl = 12;
	p->wl = 6;
	p->t_wr = 12;
	p->t_wtr = 6;
	p->t_rtp = 6;
	p->t_rtw = 16;
	p->t_rrd = 8;
	p->t_faw = 40;
	p->t_ccd = 4;
	p->t_refi = 3120;
	p->t_rfc = 104;
	p->read_queue_entries = 32;
	p->write_queue_entries = 32;
	p->write_high = 24;
	p->write_low = 8;
	p->closed_page = 0;
	p->row_hit_cap = 16;
	p->ctrl_latency_gpu_cycles = 24;
	p->port_bytes_per_gpu_cycle = 4;
}

void tsr_dram_params_default_lpddr4(struct tsr_dram_params *p)
{
	tsr_dram_params_default_lpddr3(p);
	p->rows = 32768;
	p->row_bytes = 2048;
	p->bus_bits = 16;
	p->burst_length = 16;
	p->dram_mhz = 1600;
	p->t_rcd = 29;
	p->t_rp = 29;
	p->t_rp_ab = 34;
	p->t_ras = 68;
	p->t_rc = 97;
	p->rl = 28;
	p->wl = 14;
	p->t_wr = 29;
	p->t_wtr = 16;
	p->t_rtp = 12;
	p->t_rtw = 31;
	p->t_rrd = 16;
	p->t_faw = 64;
	p->t_ccd = 8;
	p->t_refi = 6246;
	p->t_rfc = 288;
	p->port_bytes_per_gpu_cycle = 0;
}

void tsr_dram_params_default_ddr3_1600(struct tsr_dram_params *p)
{
	tsr_dram_params_default_lpddr3(p);
	p->rows = 65536;
	p->row_bytes = 8192;
	p->bus_bits = 64;
	p->burst_length = 8;
	p->dram_mhz = 800;
	p->t_rcd = 15;
	p->t_rp = 15;
	p->t_rp_ab = 15;
	p->t_ras = 28;
	p->t_rc = 43;
	p->rl = 15;
	p->wl = 8;
	p->t_wr = 12;
	p->t_wtr = 6;
	p->t_rtp = 6;
	p->t_rtw = 13;
	p->t_rrd = 5;
	p->t_faw = 24;
	p->t_ccd = 4;
	p->t_refi = 6240;
	p->t_rfc = 208;
	p->port_bytes_per_gpu_cycle = 0;
}

void tsr_dram_params_default_ddr3_1867(struct tsr_dram_params *p)
{
	tsr_dram_params_default_ddr3_1600(p);
	p->dram_mhz = 933;
	p->t_rcd = 10;
	p->t_rp = 10;
	p->t_rp_ab = 10;
	p->t_ras = 32;
	p->t_rc = 42;
	p->rl = 10;
	p->wl = 9;
	p->t_wr = 14;
	p->t_wtr = 7;
	p->t_rtp = 7;
	p->t_rtw = 7;
	p->t_rrd = 5;
	p->t_faw = 26;
	p->t_refi = 7277;
	p->t_rfc = 243;
}

/* Parses address_map into order[0..3] (most significant first). */
static enum tsr_status parse_map(const char *s, enum field order[4], struct tsr_error *err)
{
	char buf[TSR_DRAM_MAP_MAX];
	size_t n = strnlen(s, TSR_DRAM_MAP_MAX);
	if (n == TSR_DRAM_MAP_MAX)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "dram parameter 'address_map' is not NUL-terminated");
	memcpy(buf, s, n + 1);
	int seen[4] = {0, 0, 0, 0}, count = 0;
	char *save = NULL;
	for (char *tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		int f = -1;
		for (int i = 0; i < 4; i++)
			if (strcmp(tok, field_names[i]) == 0)
				f = i;
		if (f < 0 || seen[f] || count == 4)
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "dram parameter 'address_map' must name row, bank, "
					     "column and channel once each, separated by ':' (got '%s')",
					     s);
		seen[f] = 1;
		order[count++] = (enum field)f;
	}
	if (count != 4)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "dram parameter 'address_map' must name row, bank, column "
				     "and channel once each, separated by ':' (got '%s')", s);
	return TSR_OK;
}

#define BAD(name, why, val) \
	tsr_error_set(err, TSR_ERR_CONFIG, "dram parameter '%s' " why " (got %llu)", name, \
		      (unsigned long long)(val))

enum tsr_status tsr_dram_params_check(const struct tsr_dram_params *p, uint32_t gpu_mhz,
				      struct tsr_error *err)
{
	if (gpu_mhz == 0)
		return BAD("gpu_mhz", "must be non-zero", gpu_mhz);
	if (p->dram_mhz == 0)
		return BAD("dram_mhz", "must be non-zero", p->dram_mhz);
	if (!pow2(p->channels) || p->channels > 64)
		return BAD("channels", "must be a power of two from 1 to 64", p->channels);
	if (!pow2(p->banks) || p->banks > 256)
		return BAD("banks", "must be a power of two from 1 to 256", p->banks);
	if (!pow2(p->rows))
		return BAD("rows", "must be a non-zero power of two", p->rows);
	if (p->bus_bits != 8 && p->bus_bits != 16 && p->bus_bits != 32 && p->bus_bits != 64)
		return BAD("bus_bits", "must be 8, 16, 32 or 64", p->bus_bits);
	if (p->burst_length == 0 || p->burst_length % 2 || p->burst_length > 64)
		return BAD("burst_length", "must be even, from 2 to 64", p->burst_length);
	uint32_t burst_bytes = p->bus_bits / 8 * p->burst_length;
	if (!pow2(p->row_bytes) || p->row_bytes < burst_bytes)
		return BAD("row_bytes", "must be a power of two of at least one burst", p->row_bytes);
	if (!pow2(p->interleave_bytes) || p->interleave_bytes < burst_bytes ||
	    p->interleave_bytes > p->row_bytes)
		return BAD("interleave_bytes",
			   "must be a power of two from one burst to row_bytes", p->interleave_bytes);
	if (log2u(p->channels) + log2u(p->banks) + log2u(p->rows) + log2u(p->row_bytes) > 63)
		return BAD("rows", "gives a device larger than 2^63 bytes", p->rows);
	enum field order[4];
	TSR_TRY(parse_map(p->address_map, order, err));
	static const struct { const char *name; size_t off; } nonzero[] = {
		{"t_rcd", offsetof(struct tsr_dram_params, t_rcd)},
		{"t_rp", offsetof(struct tsr_dram_params, t_rp)},
		{"t_rp_ab", offsetof(struct tsr_dram_params, t_rp_ab)},
		{"t_ras", offsetof(struct tsr_dram_params, t_ras)},
		{"rl", offsetof(struct tsr_dram_params, rl)},
		{"wl", offsetof(struct tsr_dram_params, wl)},
		{"t_ccd", offsetof(struct tsr_dram_params, t_ccd)},
		{"read_queue_entries", offsetof(struct tsr_dram_params, read_queue_entries)},
		{"write_queue_entries", offsetof(struct tsr_dram_params, write_queue_entries)},
		{"write_high", offsetof(struct tsr_dram_params, write_high)},
	};
	for (size_t i = 0; i < sizeof(nonzero) / sizeof(nonzero[0]); i++) {
		uint32_t v;
		memcpy(&v, (const char *)p + nonzero[i].off, sizeof(v));
		if (v == 0)
			return BAD(nonzero[i].name, "must be non-zero", v);
	}
	if (p->t_rc < p->t_ras + p->t_rp)
		return BAD("t_rc", "must be at least t_ras + t_rp", p->t_rc);
	if (p->t_ccd < p->burst_length / 2)
		return BAD("t_ccd", "must be at least burst_length / 2 (the data of a burst)",
			   p->t_ccd);
	if (p->t_refi && (p->t_rfc == 0 || p->t_rfc + p->t_rp_ab >= p->t_refi))
		return BAD("t_rfc", "must be non-zero and t_rfc + t_rp_ab below t_refi", p->t_rfc);
	if (p->read_queue_entries > 65536)
		return BAD("read_queue_entries", "must be at most 65536", p->read_queue_entries);
	if (p->write_queue_entries > 65536)
		return BAD("write_queue_entries", "must be at most 65536", p->write_queue_entries);
	if (p->write_high > p->write_queue_entries)
		return BAD("write_high", "must be at most write_queue_entries", p->write_high);
	if (p->write_low >= p->write_high)
		return BAD("write_low", "must be below write_high", p->write_low);
	if (p->closed_page > 1)
		return BAD("closed_page", "must be 0 or 1", p->closed_page);
	uint64_t g = gcd64(gpu_mhz, p->dram_mhz);
	if (p->dram_mhz / g > 1000000 || gpu_mhz / g > 1000000)
		return BAD("dram_mhz", "and gpu_mhz have too fine a common tick", p->dram_mhz);
	return TSR_OK;
}

enum tsr_status tsr_dram_create(const struct tsr_dram_params *p, uint32_t gpu_mhz,
				struct tsr_dram **out, struct tsr_error *err)
{
	*out = NULL;
	TSR_TRY(tsr_dram_params_check(p, gpu_mhz, err));
	struct tsr_dram *d = calloc(1, sizeof(*d));
	if (!d)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory creating the dram model");
	d->p = *p;
	d->gpu_mhz = gpu_mhz;
	uint64_t g = gcd64(gpu_mhz, p->dram_mhz);
	d->G = p->dram_mhz / g;
	d->D = gpu_mhz / g;
	d->g_shift = pow2(d->G) ? log2u(d->G) : 64;
	d->cycle_limit = TICK_LIMIT / d->G;
	d->min_data_ticks = ((uint64_t)min64(p->rl, (uint64_t)p->wl + 1) + p->burst_length / 2) * d->D;
	d->burst_bytes = p->bus_bits / 8 * p->burst_length;
	d->off_bits = log2u(p->interleave_bytes);
	d->col_bits = log2u(p->row_bytes / p->interleave_bytes);
	enum field order[4];
	parse_map(p->address_map, order, err);
	uint32_t widths[4] = {log2u(p->rows), log2u(p->banks), d->col_bits, log2u(p->channels)};
	uint32_t shift = d->off_bits;
	for (int i = 3; i >= 0; i--) {
		d->shift[order[i]] = shift;
		d->bits[order[i]] = widths[order[i]];
		shift += widths[order[i]];
	}
	uint32_t slots = p->read_queue_entries + p->write_queue_entries;
	d->cap_heap = slots * p->channels;
	d->heap = calloc(d->cap_heap, sizeof(*d->heap));
	d->ch = calloc(p->channels, sizeof(*d->ch));
	int ok = d->heap && d->ch;
	for (uint32_t c = 0; ok && c < p->channels; c++) {
		struct chan *ch = &d->ch[c];
		ch->reqs = calloc(slots, sizeof(*ch->reqs));
		ch->free_slots = calloc(slots, sizeof(*ch->free_slots));
		ch->lists = calloc(2 * (size_t)p->banks, sizeof(*ch->lists));
		ch->banks = calloc(p->banks, sizeof(*ch->banks));
		ok = ch->reqs && ch->free_slots && ch->lists && ch->banks;
		if (!ok)
			break;
		for (uint32_t l = 0; l < 2 * p->banks; l++)
			ch->lists[l] = (struct list){NIL, NIL, NIL, NIL};
		for (uint32_t s = 0; s < slots; s++)
			ch->free_slots[s] = slots - 1 - s;  /* slot 0 on top */
		ch->nfree = slots;
		for (uint32_t b = 0; b < p->banks; b++)
			set_open_row(ch, b, NO_ROW);
		ch->ref_due = p->t_refi ? (uint64_t)p->t_refi * d->D : NEVER;
		ch->next_tick = ch->ref_due;
		ch->plan_t = NEVER;
	}
	if (!ok) {
		tsr_dram_destroy(d);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory creating the dram model");
	}
	update_next(d);
	*out = d;
	return TSR_OK;
}

void tsr_dram_destroy(struct tsr_dram *d)
{
	if (!d)
		return;
	for (uint32_t c = 0; d->ch && c < d->p.channels; c++) {
		free(d->ch[c].reqs);
		free(d->ch[c].free_slots);
		free(d->ch[c].lists);
		free(d->ch[c].banks);
	}
	free(d->ch);
	free(d->heap);
	free(d);
}

void tsr_dram_set_completion(struct tsr_dram *d, tsr_dram_done_fn fn, void *ctx)
{
	d->fn = fn;
	d->ctx = ctx;
}

void tsr_dram_set_command_observer(struct tsr_dram *d, tsr_dram_cmd_fn fn, void *ctx)
{
	d->cmd_fn = fn;
	d->cmd_ctx = ctx;
}

/* Reports a command issued at tick t to the observer, if any. */
static void observe(const struct tsr_dram *d, const struct chan *ch, uint32_t bank,
		    uint32_t row, enum tsr_dram_cmd cmd, uint64_t t)
{
	if (!d->cmd_fn)
		return;
	struct tsr_dram_command c = {.dram_cycle = t / d->D, .channel = (uint32_t)(ch - d->ch),
				     .bank = bank, .row = row, .cmd = cmd};
	d->cmd_fn(d->cmd_ctx, &c);
}

static uint32_t field_of(const struct tsr_dram *d, uint64_t addr, enum field f)
{
	return (uint32_t)((addr >> d->shift[f]) & ((UINT64_C(1) << d->bits[f]) - 1));
}

void tsr_dram_decode(const struct tsr_dram *d, uint64_t addr, struct tsr_dram_coord *out)
{
	out->channel = field_of(d, addr, F_CHANNEL);
	out->bank = field_of(d, addr, F_BANK);
	out->row = field_of(d, addr, F_ROW);
	out->column = (field_of(d, addr, F_COLUMN) << d->off_bits) |
		      (uint32_t)(addr & (d->p.interleave_bytes - 1));
}

bool tsr_dram_can_accept(const struct tsr_dram *d, uint64_t addr, bool write)
{
	const struct chan *ch = &d->ch[field_of(d, addr, F_CHANNEL)];
	return write ? ch->writes_in < d->p.write_queue_entries
		     : ch->reads_in < d->p.read_queue_entries;
}

/* ---- completion heap ---- */

TSR_EVENT_HEAP_DEFINE(done_heap, struct done, cycle)

static void heap_push(struct tsr_dram *d, struct done e)
{
	done_heap_push(d->heap, &d->nheap, e);
}

static struct done heap_pop(struct tsr_dram *d)
{
	return done_heap_pop(d->heap, &d->nheap);
}

/* ---- scheduling ---- */

/*
 * Recomputes tick_min, next_ev and next_done from the channels and the
 * completion heap; called after every change of either, so that
 * tsr_dram_next_event(), tsr_dram_next_completion() and an advance with
 * nothing due cost O(1). A request still to issue completes at best when
 * its last column command issues at the channel's next decision: the
 * data ends min_data_ticks later, then the controller latency (the read
 * port only adds to it, see finish_issue()).
 */
static void update_next(struct tsr_dram *d)
{
	const uint64_t heap = d->nheap ? d->heap[0].cycle : NEVER;
	uint64_t m = heap, done = heap, tick = NEVER;
	for (uint32_t c = 0; c < d->p.channels; c++) {
		const struct chan *ch = &d->ch[c];
		tick = min64(tick, ch->next_tick);
		if (ch->norder && ch->next_tick != NEVER) {
			/* the data's end rounded up to a GPU cycle */
			const uint64_t data = cycle_of_tick(d, ch->next_tick + d->min_data_ticks +
							       d->G - 1);
			m = min64(m, cycle_of_tick(d, ch->next_tick) + 1);
			done = min64(done, data + d->p.ctrl_latency_gpu_cycles);
		}
	}
	d->tick_min = tick;
	d->n.next_ev = m;
	d->n.next_done = done;
}

static void occupancy_to(struct tsr_dram *d, uint64_t cycle)
{
	if (cycle > d->occ_last) {
		d->k.occupancy_sum += (uint64_t)d->in_flight * (cycle - d->occ_last);
		d->occ_last = cycle;
	}
}

static void classify(struct tsr_dram *d, struct req *r, enum first f)
{
	if (r->first != FIRST_NONE)
		return;
	r->first = (uint8_t)f;
	if (f == FIRST_HIT)
		d->k.row_hits++;
	else if (f == FIRST_MISS)
		d->k.row_misses++;
	else
		d->k.row_conflicts++;
}

/* Refresh of channel ch, due at or before tick t: PREab, then REF. */
static void refresh(struct tsr_dram *d, struct chan *ch, uint64_t t)
{
	const struct tsr_dram_params *p = &d->p;
	uint64_t e = 0;
	uint32_t open = 0;
	for (uint32_t b = 0; b < p->banks; b++)
		if (ch->banks[b].open_row != NO_ROW) {
			open++;
			e = max64(e, ch->banks[b].next_pre);
		}
	if (open) {
		if (e > t) {
			ch->next_tick = e;
			return;
		}
		for (uint32_t b = 0; b < p->banks; b++) {
			struct bank *bk = &ch->banks[b];
			if (bk->open_row != NO_ROW) {
				set_open_row(ch, b, NO_ROW);
				bk->next_act = max64(bk->next_act, t + (uint64_t)p->t_rp_ab * d->D);
			}
		}
		d->k.precharges += open;
		observe(d, ch, 0, 0, TSR_DRAM_PRE_ALL, t);
		ch->next_tick = t + d->D;
		return;
	}
	for (uint32_t b = 0; b < p->banks; b++)
		e = max64(e, ch->banks[b].next_act);
	if (e > t) {
		ch->next_tick = e;
		return;
	}
	for (uint32_t b = 0; b < p->banks; b++)
		ch->banks[b].next_act = t + (uint64_t)p->t_rfc * d->D;
	d->k.refreshes++;
	observe(d, ch, 0, 0, TSR_DRAM_REF, t);
	ch->ref_due += (uint64_t)p->t_refi * d->D;
	ch->next_tick = t + d->D;
}

static struct list *list_of(struct chan *ch, const struct req *r)
{
	return &ch->lists[2 * r->bank + r->write];
}

/* Appends slot s (its bank, kind and row set) to its list, the youngest. */
static void list_append(struct chan *ch, uint32_t s)
{
	struct req *r = &ch->reqs[s];
	struct list *l = list_of(ch, r);
	uint32_t *first = r->row == ch->banks[r->bank].open_row ? &l->first_hit : &l->first_miss;
	if (*first == NIL)
		*first = s;
	ch->active[r->write][r->bank / 64] |= UINT64_C(1) << (r->bank % 64);
	r->next = NIL;
	r->prev = l->tail;
	if (l->tail == NIL)
		l->head = s;
	else
		ch->reqs[l->tail].next = s;
	l->tail = s;
}

/* The oldest request from slot i on (NIL: none) whose hit of the open row
 * is `hit`. */
static uint32_t find_from(const struct chan *ch, uint32_t i, uint32_t open_row, int hit)
{
	while (i != NIL && (ch->reqs[i].row == open_row) != hit)
		i = ch->reqs[i].next;
	return i;
}

static void list_remove(struct chan *ch, uint32_t s)
{
	struct req *r = &ch->reqs[s];
	struct list *l = list_of(ch, r);
	const uint32_t open_row = ch->banks[r->bank].open_row;
	if (l->first_hit == s)
		l->first_hit = find_from(ch, r->next, open_row, 1);
	if (l->first_miss == s)
		l->first_miss = find_from(ch, r->next, open_row, 0);
	if (r->prev == NIL)
		l->head = r->next;
	else
		ch->reqs[r->prev].next = r->next;
	if (r->next == NIL)
		l->tail = r->prev;
	else
		ch->reqs[r->next].prev = r->prev;
	if (l->head == NIL)
		ch->active[r->write][r->bank / 64] &= ~(UINT64_C(1) << (r->bank % 64));
}

/* Opens `row` in bank b (NO_ROW: precharges it) and finds the oldest hit
 * and miss of the bank's two lists again. */
static void set_open_row(struct chan *ch, uint32_t b, uint32_t row)
{
	ch->banks[b].open_row = row;
	for (uint32_t k = 0; k < 2; k++) {
		struct list *l = &ch->lists[2 * b + k];
		l->first_hit = row == NO_ROW ? NIL : find_from(ch, l->head, row, 1);
		l->first_miss = find_from(ch, l->head, row, 0);
	}
}

/* Whether a queued request of either kind targets the bank's open row. */
static int open_row_queued(const struct chan *ch, uint32_t bank)
{
	return ch->lists[2 * bank].first_hit != NIL || ch->lists[2 * bank + 1].first_hit != NIL;
}

/* The last column command of slot s at tick t (data ending at data_end). */
static void finish_issue(struct tsr_dram *d, struct chan *ch, uint32_t c, uint32_t s,
			 uint64_t data_end)
{
	const struct tsr_dram_params *p = &d->p;
	struct req *r = &ch->reqs[s];
	list_remove(ch, s);
	ch->norder--;
	if (r->write)
		ch->unissued_writes--;
	else
		ch->unissued_reads--;
	uint64_t done = div_up(data_end, d->G) + p->ctrl_latency_gpu_cycles;
	if (p->port_bytes_per_gpu_cycle && !r->write) {
		done = max64(done, d->rport_free) + div_up(r->bytes, p->port_bytes_per_gpu_cycle);
		d->rport_free = done;
	}
	heap_push(d, (struct done){done, d->seq++, c, s});
	if (p->closed_page) {
		struct bank *bk = &ch->banks[r->bank];
		if (open_row_queued(ch, r->bank))  /* the bank's row is r's */
			return;  /* a queued request hits the row: keep it open */
		observe(d, ch, r->bank, r->row, TSR_DRAM_PRE_AUTO, bk->next_pre);
		set_open_row(ch, r->bank, NO_ROW);  /* auto-precharge as soon as it is legal */
		bk->next_act = max64(bk->next_act, bk->next_pre + (uint64_t)p->t_rp * d->D);
		d->k.precharges++;
	}
}

/* Command cmd for slot s at tick t. */
static void issue(struct tsr_dram *d, struct chan *ch, uint32_t c, uint32_t s,
		  enum cmd cmd, uint64_t t)
{
	const struct tsr_dram_params *p = &d->p;
	const uint64_t D = d->D;
	struct req *r = &ch->reqs[s];
	struct bank *bk = &ch->banks[r->bank];
	ch->next_tick = t + D;
	if (cmd == CMD_ACT) {
		classify(d, r, FIRST_MISS);
		set_open_row(ch, r->bank, r->row);
		bk->col_count = 0;
		bk->next_col = t + (uint64_t)p->t_rcd * D;
		bk->next_pre = max64(bk->next_pre, t + (uint64_t)p->t_ras * D);
		bk->next_act = t + (uint64_t)p->t_rc * D;
		ch->next_act = t + (uint64_t)p->t_rrd * D;
		ch->faw[ch->faw_i] = t;
		ch->faw_i = (ch->faw_i + 1) & 3;
		ch->acts++;
		d->k.activates++;
		observe(d, ch, r->bank, r->row, TSR_DRAM_ACT, t);
		return;
	}
	if (cmd == CMD_PRE) {
		classify(d, r, FIRST_CONFLICT);
		observe(d, ch, r->bank, bk->open_row, TSR_DRAM_PRE, t);
		set_open_row(ch, r->bank, NO_ROW);
		bk->next_act = max64(bk->next_act, t + (uint64_t)p->t_rp * D);
		d->k.precharges++;
		return;
	}
	classify(d, r, FIRST_HIT);
	bk->col_count++;
	uint64_t half = p->burst_length / 2, data_end;
	if (r->write) {
		uint64_t data = p->wl + 1;
		ch->next_wr = max64(ch->next_wr, t + p->t_ccd * D);
		ch->next_rd = max64(ch->next_rd, t + (data + half + p->t_wtr) * D);
		bk->next_pre = max64(bk->next_pre, t + (data + half + p->t_wr) * D);
		data_end = t + (data + half) * D;
		d->k.write_bursts++;
	} else {
		ch->next_rd = max64(ch->next_rd, t + p->t_ccd * D);
		ch->next_wr = max64(ch->next_wr, t + (uint64_t)p->t_rtw * D);
		bk->next_pre = max64(bk->next_pre, t + (uint64_t)p->t_rtp * D);
		data_end = t + (p->rl + half) * D;
		d->k.read_bursts++;
	}
	observe(d, ch, r->bank, r->row, r->write ? TSR_DRAM_WR : TSR_DRAM_RD, t);
	d->k.io_bytes += d->burst_bytes;
	d->k.data_bus_busy_dram_cycles += half;
	if (--r->bursts_left == 0)
		finish_issue(d, ch, c, s, data_end);
}

/*
 * One FR-FCFS decision of channel c at DRAM edge t (== ch->next_tick):
 * the oldest legal row hit issues; else the oldest of the legal ACTs and
 * the legal PREs of banks with no queued hit (which holds a bank's PREs
 * back, see dram.h, up to row_hit_cap); else the channel sleeps until
 * the earliest tick one of them becomes legal. Within a bank-and-kind
 * list the requests' ready ticks never decrease with age (enqueue
 * cycles, and the write port's, only grow), and a command's earliest
 * tick is the max of bank and channel terms and the request's ready
 * tick, so of each list only the oldest request (a closed bank), or the
 * oldest hit and the oldest miss of the open row, can be the oldest
 * legal one or the earliest to become legal: the decision visits those
 * and compares ages by enqueue number, as a pass over the whole queue
 * in age order would. Each list keeps its oldest request to the open
 * row and its oldest to another (set_open_row() finds them again at an
 * ACT or PRE, list_remove() when it removes one), and the channel a mask
 * per kind of the banks with requests, so the decision visits only the
 * banks with requests of an allowed kind (writes wait for a drain) and
 * walks no list. Neither the order of the banks visited nor the
 * empty ones matter: candidates are compared by their unique enqueue
 * numbers.
 *
 * A decision that finds no legal command makes the channel sleep until
 * the earliest tick one becomes legal; the same pass finds which command
 * the decision then will issue (of the candidates legal at that tick, the
 * oldest hit, else the oldest ACT or PRE), since nothing it depends on
 * changes before it but an enqueue to the channel (which cancels the
 * plan): that decision issues it without visiting the banks again.
 */

/* The candidates that become legal first, after a decision found none legal. */
struct plan {
	uint64_t t, hit_seq, other_seq;
	uint32_t hit, other;
	enum cmd other_cmd;
};

/* Candidate slot s (enqueue number seq, a hit or another command) legal from tick e. */
static void plan_add(struct plan *pl, uint64_t e, uint32_t s, uint64_t seq, int is_hit,
		     enum cmd cmd)
{
	if (e > pl->t)
		return;
	if (e < pl->t) {
		pl->t = e;
		pl->hit = pl->other = NIL;
		pl->hit_seq = pl->other_seq = NEVER;
	}
	if (is_hit) {
		if (seq < pl->hit_seq) {
			pl->hit_seq = seq;
			pl->hit = s;
		}
	} else if (seq < pl->other_seq) {
		pl->other_seq = seq;
		pl->other = s;
		pl->other_cmd = cmd;
	}
}

static void decide(struct tsr_dram *d, uint32_t c, uint64_t t)
{
	const struct tsr_dram_params *p = &d->p;
	struct chan *ch = &d->ch[c];
	if (t >= ch->ref_due) {
		ch->plan_t = NEVER;
		refresh(d, ch, t);
		return;
	}
	if (!ch->drain && ch->unissued_writes >= p->write_high)
		ch->drain = 1;
	else if (ch->drain && ch->unissued_writes <= p->write_low)
		ch->drain = 0;
	if (ch->plan_t == t) {  /* found by the decision that slept until t */
		ch->plan_t = NEVER;
		issue(d, ch, c, ch->plan_slot, (enum cmd)ch->plan_cmd, t);
		return;
	}
	ch->plan_t = NEVER;
	struct plan pl = {NEVER, NEVER, NEVER, NIL, NIL, CMD_ACT};
	const int allow[2] = {!ch->drain, ch->drain || ch->unissued_reads == 0};
	const uint64_t faw = ch->acts >= 4 ? ch->faw[ch->faw_i] + (uint64_t)p->t_faw * d->D : 0;
	uint64_t next = ch->ref_due;
	uint32_t hit = NIL, other = NIL;     /* slots of the best legal candidates */
	uint64_t hit_seq = NEVER, other_seq = NEVER;
	enum cmd other_cmd = CMD_ACT;
	for (uint32_t word = 0; word < active_words(p->banks); word++)
	for (uint64_t mask = (allow[0] ? ch->active[0][word] : 0) |
			     (allow[1] ? ch->active[1][word] : 0);
	     mask; mask &= mask - 1) {
		const uint32_t b = word * 64 + (uint32_t)__builtin_ctzll(mask);
		const struct bank *bk = &ch->banks[b];
		const struct list *lists = &ch->lists[2 * b];
		if (bk->open_row == NO_ROW) {
			/* ACT: the oldest request of each kind */
			for (uint32_t k = 0; k < 2; k++) {
				if (!allow[k] || lists[k].head == NIL)
					continue;
				const struct req *r = &ch->reqs[lists[k].head];
				uint64_t e = max64(max64(max64(bk->next_act, ch->next_act), r->ready), faw);
				if (e > t)
					plan_add(&pl, e, lists[k].head, r->seq, 0, CMD_ACT);
				else if (r->seq < other_seq) {
					other_seq = r->seq;
					other = lists[k].head;
					other_cmd = CMD_ACT;
				}
			}
			continue;
		}
		/* a column command: the oldest hit of each kind */
		int bank_hit = 0;
		for (uint32_t k = 0; k < 2; k++) {
			const uint32_t h = lists[k].first_hit;
			if (!allow[k] || h == NIL)
				continue;
			bank_hit = 1;
			const struct req *r = &ch->reqs[h];
			uint64_t e = max64(max64(bk->next_col, k ? ch->next_wr : ch->next_rd), r->ready);
			if (e > t)
				plan_add(&pl, e, h, r->seq, 1, CMD_COL);
			else if (r->seq < hit_seq) {
				hit_seq = r->seq;
				hit = h;
			}
		}
		/* FR-FCFS: don't close a row with hits queued, up to row_hit_cap */
		if (bank_hit && (p->row_hit_cap == 0 || bk->col_count < p->row_hit_cap))
			continue;
		/* a PRE: the oldest miss of each kind */
		for (uint32_t k = 0; k < 2; k++) {
			const uint32_t m = lists[k].first_miss;
			if (!allow[k] || m == NIL)
				continue;
			const struct req *r = &ch->reqs[m];
			uint64_t e = max64(bk->next_pre, r->ready);
			if (e > t)
				plan_add(&pl, e, m, r->seq, 0, CMD_PRE);
			else if (r->seq < other_seq) {
				other_seq = r->seq;
				other = m;
				other_cmd = CMD_PRE;
			}
		}
	}
	if (hit != NIL) {
		issue(d, ch, c, hit, CMD_COL, t);
		return;
	}
	if (other != NIL) {
		issue(d, ch, c, other, other_cmd, t);
		return;
	}
	ch->next_tick = min64(next, pl.t);
	if (pl.t < next) {  /* (at ref_due the refresh comes first) */
		ch->plan_t = pl.t;
		ch->plan_slot = pl.hit != NIL ? pl.hit : pl.other;
		ch->plan_cmd = (uint8_t)(pl.hit != NIL ? CMD_COL : pl.other_cmd);
	}
}

static void deliver(struct tsr_dram *d, struct done e)
{
	struct chan *ch = &d->ch[e.ch];
	struct req *r = &ch->reqs[e.slot];
	occupancy_to(d, e.cycle);
	d->in_flight--;
	uint64_t lat = e.cycle - r->enqueue_cycle;
	d->k.completed++;
	d->k.latency_sum += lat;
	d->k.latency_max = max64(d->k.latency_max, lat);
	uint32_t bucket = lat < 2 ? 0 : log2u(lat);
	d->k.latency_hist[bucket < TSR_DRAM_HIST_BUCKETS ? bucket : TSR_DRAM_HIST_BUCKETS - 1]++;
	if (r->write) {
		d->k.writes++;
		d->k.bytes_written += r->bytes;
		ch->writes_in--;
	} else {
		d->k.reads++;
		d->k.bytes_read += r->bytes;
		ch->reads_in--;
	}
	ch->free_slots[ch->nfree++] = e.slot;
	if (d->fn) {
		struct tsr_dram_completion out = {
			.tag = r->tag, .addr = r->addr, .bytes = r->bytes, .write = r->write,
			.enqueue_cycle = r->enqueue_cycle, .done_cycle = e.cycle};
		d->fn(d->ctx, &out);
	}
}

void tsr_dram_advance(struct tsr_dram *d, uint64_t cycle)
{
	if (cycle <= d->now || cycle > d->cycle_limit)
		return;
	const uint64_t limit = cycle * d->G;
	if (d->tick_min >= limit && (!d->nheap || d->heap[0].cycle > cycle)) {
		/* nothing due: no decision, no completion (the loops below
		 * would do just this) */
		occupancy_to(d, cycle);
		d->now = cycle;
		d->k.cycles = cycle;
		return;
	}
	for (;;) {
		uint32_t best = 0;
		for (uint32_t c = 1; c < d->p.channels; c++)
			if (d->ch[c].next_tick < d->ch[best].next_tick)
				best = c;
		uint64_t t = d->ch[best].next_tick;
		if (t >= limit)
			break;
		decide(d, best, t);
	}
	while (d->nheap && d->heap[0].cycle <= cycle)
		deliver(d, heap_pop(d));
	occupancy_to(d, cycle);
	d->now = cycle;
	d->k.cycles = cycle;
	update_next(d);
}

enum tsr_status tsr_dram_enqueue(struct tsr_dram *d, uint64_t cycle,
				 const struct tsr_dram_request *rq, struct tsr_error *err)
{
	const struct tsr_dram_params *p = &d->p;
	uint64_t granule = p->interleave_bytes;
	if (rq->bytes == 0 || (rq->addr & (granule - 1)) + rq->bytes > granule)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "dram request at 0x%llx of %u bytes is empty or crosses a "
				     "%llu-byte interleave granule", (unsigned long long)rq->addr,
				     rq->bytes, (unsigned long long)granule);
	if (cycle > d->cycle_limit)
		return tsr_error_set(err, TSR_ERR_LIMIT, "dram request at cycle %llu is beyond the "
				     "model's time range", (unsigned long long)cycle);
	if (cycle < d->now)
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "dram request at cycle %llu is before the current cycle %llu",
				     (unsigned long long)cycle, (unsigned long long)d->now);
	tsr_dram_advance(d, cycle);
	uint32_t c = field_of(d, rq->addr, F_CHANNEL);
	struct chan *ch = &d->ch[c];
	if (!tsr_dram_can_accept(d, rq->addr, rq->write)) {
		d->k.refused++;
		return TSR_ERR_LIMIT;
	}
	uint32_t s = ch->free_slots[--ch->nfree];
	struct req *r = &ch->reqs[s];
	struct tsr_dram_coord co;
	tsr_dram_decode(d, rq->addr, &co);
	r->addr = rq->addr;
	r->tag = rq->tag;
	r->bytes = rq->bytes;
	r->write = rq->write ? 1 : 0;
	r->bank = co.bank;
	r->row = co.row;
	r->first = FIRST_NONE;
	r->enqueue_cycle = cycle;
	r->bursts_left = (co.column + rq->bytes - 1) / d->burst_bytes - co.column / d->burst_bytes + 1;
	uint64_t arrive = div_up(cycle * d->G, d->D) * d->D;
	r->ready = arrive;
	if (r->write) {
		if (p->port_bytes_per_gpu_cycle) {
			uint64_t at = max64(cycle, d->wport_free) +
				      div_up(rq->bytes, p->port_bytes_per_gpu_cycle);
			d->wport_free = at;
			r->ready = div_up(at * d->G, d->D) * d->D;
		}
		ch->writes_in++;
		ch->unissued_writes++;
	} else {
		ch->reads_in++;
		ch->unissued_reads++;
	}
	r->seq = ch->seq++;
	list_append(ch, s);
	ch->norder++;
	occupancy_to(d, cycle);
	d->in_flight++;
	ch->next_tick = min64(ch->next_tick, arrive);
	ch->plan_t = NEVER;  /* the new request may be the better candidate */
	update_next(d);
	return TSR_OK;
}

uint32_t tsr_dram_occupancy(const struct tsr_dram *d)
{
	return d->in_flight;
}

uint64_t tsr_dram_now(const struct tsr_dram *d)
{
	return d->now;
}

const struct tsr_dram_device_counters *tsr_dram_device_counters(struct tsr_dram *d)
{
	occupancy_to(d, d->now);
	return &d->k;
}

double tsr_dram_peak_bytes_per_gpu_cycle(const struct tsr_dram *d)
{
	const struct tsr_dram_params *p = &d->p;
	/* per channel: one burst every max(tCCD, BL/2) DRAM cycles */
	double dram = (double)p->channels * d->burst_bytes / (double)p->t_ccd *
		      (double)p->dram_mhz / (double)d->gpu_mhz;
	if (p->port_bytes_per_gpu_cycle && p->port_bytes_per_gpu_cycle < dram)
		return p->port_bytes_per_gpu_cycle;
	return dram;
}
