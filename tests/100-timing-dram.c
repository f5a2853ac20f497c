/*
 * 100-timing-dram.c - the DRAM device and controller model
 * (src/timing/dram.c).
 *
 * The analytic tests run the LPDDR3 preset with the GPU clock equal to the
 * DRAM clock (one tick per cycle), no refresh and no GPU-port limit, and
 * derive every expected cycle from the parameters the test holds: n is the
 * number of bursts of a 64-byte request (64 / (bus_bits / 8 x BL)), and a
 * request's last column command comes (n - 1) x tCCD after its first.
 * The calibration test runs the unmodified preset at the papers' 400 and
 * 600 MHz; the stream tests check peak bandwidth, Little's law,
 * determinism and that the result does not depend on how the caller steps.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/rng.h"
#include "test_util.h"
#include "timing/dram.h"

#define LINE 64u

/* Completions seen by the callback. */
struct log {
	struct tsr_dram_completion c[64];
	uint32_t n;      /* kept (at most 64) */
	uint64_t count;  /* all */
	uint64_t latency_sum;
};

static void on_done(void *ctx, const struct tsr_dram_completion *c)
{
	struct log *l = ctx;
	if (l->n < 64)
		l->c[l->n++] = *c;
	l->count++;
	l->latency_sum += c->done_cycle - c->enqueue_cycle;
}

static struct tsr_dram *make(const struct tsr_dram_params *p, uint32_t gpu_mhz, struct log *l)
{
	struct tsr_dram *d = NULL;
	struct tsr_error err = {{0}};
	enum tsr_status s = tsr_dram_create(p, gpu_mhz, &d, &err);
	if (s != TSR_OK)
		print_error("%s\n", err.msg);
	assert_int_equal(s, TSR_OK);
	memset(l, 0, sizeof(*l));
	tsr_dram_set_completion(d, on_done, l);
	return d;
}

static uint32_t bursts(const struct tsr_dram_params *p)
{
	return LINE / (p->bus_bits / 8 * p->burst_length);
}

/* Address of (row, bank, channel 0, column byte col) under the default map. */
static uint64_t addr_of(const struct tsr_dram_params *p, uint32_t row, uint32_t bank, uint32_t col)
{
	uint64_t granule = p->interleave_bytes;
	uint64_t colhi = col / granule;
	return (uint64_t)row * p->row_bytes * p->channels * p->banks +
	       (uint64_t)bank * p->row_bytes * p->channels + colhi * granule * p->channels +
	       col % granule;
}

static void enq(struct tsr_dram *d, uint64_t cycle, uint64_t addr, int write, uint64_t tag)
{
	struct tsr_dram_request r = {.addr = addr, .bytes = LINE, .write = (uint8_t)write, .tag = tag};
	struct tsr_error err = {{0}};
	enum tsr_status s = tsr_dram_enqueue(d, cycle, &r, &err);
	if (s != TSR_OK)
		print_error("%s\n", err.msg);
	assert_int_equal(s, TSR_OK);
}

/*
 * An independent checker of the JEDEC constraints of timing/dram.h, fed
 * by the command observer: it keeps its own bank states and the cycle of
 * every relevant earlier command, and fails on the first violation.
 * Open-page runs only (auto-precharges are reported out of order).
 */
#define MAXB 16
struct check_bank {
	uint32_t open;  /* row + 1, 0 when closed */
	int64_t act, pre, rd, wr;
};

struct check_chan {
	int64_t last_cmd, last_rd, last_wr, last_ref, last_pre_all, data_end;
	int64_t acts[4];
	uint32_t nacts;
	int64_t act_any;
	struct check_bank b[MAXB];
};

struct checker {
	const struct tsr_dram_params *p;
	struct check_chan ch[4];
	uint64_t commands;
};

#define NONE_YET (INT64_MIN / 4)

static void checker_init(struct checker *k, const struct tsr_dram_params *p)
{
	memset(k, 0, sizeof(*k));
	k->p = p;
	assert_true(p->channels <= 4 && p->banks <= MAXB);
	for (int c = 0; c < 4; c++) {
		k->ch[c].last_cmd = k->ch[c].last_rd = k->ch[c].last_wr = NONE_YET;
		k->ch[c].last_ref = k->ch[c].last_pre_all = k->ch[c].act_any = NONE_YET;
		k->ch[c].data_end = NONE_YET;
		for (int b = 0; b < MAXB; b++)
			k->ch[c].b[b].act = k->ch[c].b[b].pre = k->ch[c].b[b].rd =
				k->ch[c].b[b].wr = NONE_YET;
	}
}

#define AFTER(t, since, gap) assert_true((t) >= (since) + (int64_t)(gap))

static void on_command(void *ctx, const struct tsr_dram_command *c)
{
	struct checker *k = ctx;
	const struct tsr_dram_params *p = k->p;
	int64_t t = (int64_t)c->dram_cycle, half = p->burst_length / 2;
	int64_t wdata = p->wl + 1;
	assert_true(c->cmd != TSR_DRAM_PRE_AUTO);
	assert_true(c->channel < p->channels);
	struct check_chan *ch = &k->ch[c->channel];
	assert_true(t > ch->last_cmd);  /* one command per cycle, in order */
	ch->last_cmd = t;
	k->commands++;
	if (c->cmd == TSR_DRAM_REF) {
		for (uint32_t b = 0; b < p->banks; b++) {
			assert_int_equal(ch->b[b].open, 0);
			AFTER(t, ch->b[b].pre, p->t_rp);
		}
		AFTER(t, ch->last_pre_all, p->t_rp_ab);
		AFTER(t, ch->last_ref, p->t_rfc);
		ch->last_ref = t;
		return;
	}
	if (c->cmd == TSR_DRAM_PRE_ALL) {
		for (uint32_t b = 0; b < p->banks; b++) {
			if (!ch->b[b].open)
				continue;
			AFTER(t, ch->b[b].act, p->t_ras);
			AFTER(t, ch->b[b].rd, p->t_rtp);
			AFTER(t, ch->b[b].wr, wdata + half + p->t_wr);
			ch->b[b].open = 0;
		}
		ch->last_pre_all = t;
		return;
	}
	assert_true(c->bank < p->banks);
	struct check_bank *bk = &ch->b[c->bank];
	switch (c->cmd) {
	case TSR_DRAM_ACT:
		assert_int_equal(bk->open, 0);
		AFTER(t, bk->pre, p->t_rp);
		AFTER(t, ch->last_pre_all, p->t_rp_ab);
		AFTER(t, bk->act, p->t_rc);
		AFTER(t, ch->act_any, p->t_rrd);
		AFTER(t, ch->last_ref, p->t_rfc);
		if (ch->nacts >= 4)
			AFTER(t, ch->acts[ch->nacts % 4], p->t_faw);
		ch->acts[ch->nacts++ % 4] = t;
		ch->act_any = t;
		bk->act = t;
		bk->open = c->row + 1;
		break;
	case TSR_DRAM_PRE:
		assert_int_equal(bk->open, c->row + 1);
		AFTER(t, bk->act, p->t_ras);
		AFTER(t, bk->rd, p->t_rtp);
		AFTER(t, bk->wr, wdata + half + p->t_wr);
		bk->pre = t;
		bk->open = 0;
		break;
	case TSR_DRAM_RD:
	case TSR_DRAM_WR: {
		int rd = c->cmd == TSR_DRAM_RD;
		assert_int_equal(bk->open, c->row + 1);
		AFTER(t, bk->act, p->t_rcd);
		AFTER(t, ch->last_rd, rd ? p->t_ccd : p->t_rtw);
		AFTER(t, ch->last_wr, rd ? wdata + half + p->t_wtr : p->t_ccd);
		int64_t start = t + (rd ? p->rl : wdata);
		assert_true(start >= ch->data_end);  /* the data bus is never shared */
		ch->data_end = start + half;
		if (rd)
			ch->last_rd = bk->rd = t;
		else
			ch->last_wr = bk->wr = t;
		break;
	}
	default:
		fail();
	}
}

/* Advances event by event until nothing is in flight. */
static void drain(struct tsr_dram *d)
{
	uint64_t t;
	while ((t = tsr_dram_next_event(d)) != UINT64_MAX)
		tsr_dram_advance(d, t);
	assert_int_equal(tsr_dram_occupancy(d), 0);
}

static uint64_t latency(const struct log *l, uint32_t i)
{
	return l->c[i].done_cycle - l->c[i].enqueue_cycle;
}

static void test_decode_default_map(void **state)
{
	(void)state;
	struct tsr_dram_params p = tsr_test_dram_analytic();
	struct log l;
	struct tsr_dram *d = make(&p, 800, &l);
	struct tsr_dram_coord c;
	tsr_dram_decode(d, 64, &c);  /* the second 64-byte granule: channel 1 */
	assert_int_equal(c.channel, 1);
	assert_int_equal(c.column, 0);
	tsr_dram_decode(d, 128 + 5, &c);  /* back to channel 0, next granule of the row */
	assert_int_equal(c.channel, 0);
	assert_int_equal(c.column, 64 + 5);
	assert_int_equal(c.bank, 0);
	tsr_dram_decode(d, (uint64_t)p.row_bytes * p.channels, &c);  /* rows used up: bank 1 */
	assert_int_equal(c.bank, 1);
	assert_int_equal(c.row, 0);
	tsr_dram_decode(d, addr_of(&p, 3, 5, 192), &c);
	assert_int_equal(c.row, 3);
	assert_int_equal(c.bank, 5);
	assert_int_equal(c.channel, 0);
	assert_int_equal(c.column, 192);
	/* capacity 1 GiB: the row number wraps above it */
	tsr_dram_decode(d, addr_of(&p, 3, 5, 192) + (UINT64_C(1) << 30), &c);
	assert_int_equal(c.row, 3);
	tsr_dram_destroy(d);
}

/* Idle bank (miss), then a row hit, then a row conflict, each alone. */
static void test_unloaded_latencies(void **state)
{
	(void)state;
	struct tsr_dram_params p = tsr_test_dram_analytic();
	struct log l;
	struct tsr_dram *d = make(&p, p.dram_mhz, &l);
	uint32_t n = bursts(&p), ctrl = p.ctrl_latency_gpu_cycles;
	uint32_t tail = (n - 1) * p.t_ccd + p.rl + p.burst_length / 2;

	enq(d, 0, addr_of(&p, 0, 0, 0), 0, 1);
	drain(d);
	assert_int_equal(l.n, 1);
	assert_int_equal(latency(&l, 0), ctrl + p.t_rcd + tail);

	uint64_t t1 = l.c[0].done_cycle;
	enq(d, t1, addr_of(&p, 0, 0, 256), 0, 2);
	drain(d);
	assert_int_equal(l.n, 2);
	assert_int_equal(latency(&l, 1), ctrl + tail);

	uint64_t t2 = l.c[1].done_cycle;
	assert_true(t2 >= p.t_ras);  /* tRAS of the first ACT has passed */
	enq(d, t2, addr_of(&p, 1, 0, 0), 0, 3);
	drain(d);
	assert_int_equal(l.n, 3);
	assert_int_equal(latency(&l, 2), ctrl + p.t_rp + p.t_rcd + tail);

	const struct tsr_dram_device_counters *k = tsr_dram_device_counters(d);
	assert_int_equal(k->row_misses, 1);
	assert_int_equal(k->row_hits, 1);
	assert_int_equal(k->row_conflicts, 1);
	assert_int_equal(k->activates, 2);
	assert_int_equal(k->precharges, 1);
	assert_int_equal(k->read_bursts, 3 * n);
	assert_int_equal(k->io_bytes, 3 * LINE);
	assert_int_equal(k->bytes_read, 3 * LINE);
	assert_int_equal(k->data_bus_busy_dram_cycles, 3 * n * p.burst_length / 2);
	tsr_dram_destroy(d);
}

/* A conflict right behind an ACT waits for tRAS (and tRC), not just tRP. */
static void test_conflict_respects_tras(void **state)
{
	(void)state;
	struct tsr_dram_params p = tsr_test_dram_analytic();
	struct log l;
	struct tsr_dram *d = make(&p, p.dram_mhz, &l);
	uint32_t n = bursts(&p), ctrl = p.ctrl_latency_gpu_cycles;
	uint32_t tail = (n - 1) * p.t_ccd + p.rl + p.burst_length / 2;
	enq(d, 0, addr_of(&p, 0, 2, 0), 0, 1);
	enq(d, 0, addr_of(&p, 1, 2, 0), 0, 2);
	drain(d);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.c[0].tag, 1);
	assert_int_equal(latency(&l, 0), ctrl + p.t_rcd + tail);
	/* PRE after both tRAS (ACT at 0) and tRTP (last RD of the first request) */
	uint64_t last_rd = p.t_rcd + (n - 1) * p.t_ccd;
	assert_true(p.t_ras > last_rd + p.t_rtp);  /* so tRAS is what binds here */
	uint64_t pre = p.t_ras > last_rd + p.t_rtp ? p.t_ras : last_rd + p.t_rtp;
	uint64_t act = pre + p.t_rp > p.t_rc ? pre + p.t_rp : p.t_rc;
	assert_int_equal(l.c[1].tag, 2);
	assert_int_equal(l.c[1].done_cycle, act + p.t_rcd + tail + ctrl);
	tsr_dram_destroy(d);
}

/* FR-FCFS: a younger row hit goes before an older request to another row. */
static void test_frfcfs_younger_hit_first(void **state)
{
	(void)state;
	struct tsr_dram_params p = tsr_test_dram_analytic();
	struct log l;
	struct tsr_dram *d = make(&p, p.dram_mhz, &l);
	uint32_t n = bursts(&p), ctrl = p.ctrl_latency_gpu_cycles;
	uint32_t tail = (n - 1) * p.t_ccd + p.rl + p.burst_length / 2;
	enq(d, 0, addr_of(&p, 0, 0, 0), 0, 1);  /* opens row 0 of bank 0 */
	drain(d);
	uint64_t t = l.c[0].done_cycle;
	enq(d, t, addr_of(&p, 7, 0, 0), 0, 2);   /* older: row 7, a conflict */
	enq(d, t, addr_of(&p, 0, 0, 512), 0, 3); /* younger: row 0, a hit */
	drain(d);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.c[1].tag, 3);
	assert_int_equal(latency(&l, 1), ctrl + tail);
	assert_int_equal(l.c[2].tag, 2);
	uint64_t pre = t + (n - 1) * p.t_ccd + p.t_rtp;  /* after the hit's last RD */
	assert_int_equal(l.c[2].done_cycle, pre + p.t_rp + p.t_rcd + tail + ctrl);
	const struct tsr_dram_device_counters *k = tsr_dram_device_counters(d);
	assert_int_equal(k->row_hits, 1);
	assert_int_equal(k->row_conflicts, 1);
	tsr_dram_destroy(d);
}

/* An idle-bank write: data WL + 1 (tDQSS) after the last WR. */
static void test_write_latency(void **state)
{
	(void)state;
	struct tsr_dram_params p = tsr_test_dram_analytic();
	struct log l;
	struct tsr_dram *d = make(&p, p.dram_mhz, &l);
	uint32_t n = bursts(&p);
	enq(d, 0, addr_of(&p, 4, 3, 0), 1, 9);
	drain(d);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.c[0].write, 1);
	assert_int_equal(latency(&l, 0), p.ctrl_latency_gpu_cycles + p.t_rcd +
					 (n - 1) * p.t_ccd + p.wl + 1 + p.burst_length / 2);
	const struct tsr_dram_device_counters *k = tsr_dram_device_counters(d);
	assert_int_equal(k->writes, 1);
	assert_int_equal(k->write_bursts, n);
	assert_int_equal(k->bytes_written, LINE);
	tsr_dram_destroy(d);
}

/* Closed page: the row is precharged after the request, so the next one misses. */
static void test_closed_page(void **state)
{
	(void)state;
	struct tsr_dram_params p = tsr_test_dram_analytic();
	p.closed_page = 1;
	struct log l;
	struct tsr_dram *d = make(&p, p.dram_mhz, &l);
	enq(d, 0, addr_of(&p, 0, 0, 0), 0, 1);
	drain(d);
	enq(d, tsr_dram_now(d) + 100, addr_of(&p, 0, 0, 64 * 2), 0, 2);
	drain(d);
	const struct tsr_dram_device_counters *k = tsr_dram_device_counters(d);
	assert_int_equal(k->row_misses, 2);
	assert_int_equal(k->row_hits, 0);
	assert_int_equal(k->precharges, 2);
	assert_int_equal(latency(&l, 1), p.ctrl_latency_gpu_cycles + p.t_rcd +
					 (bursts(&p) - 1) * p.t_ccd + p.rl + p.burst_length / 2);
	tsr_dram_destroy(d);
}

/* DRAM cycles x gpu / dram, rounded up: the GPU cycle the data is seen. */
static uint64_t to_gpu(uint64_t dram_cycles, uint32_t gpu_mhz, uint32_t dram_mhz)
{
	return (dram_cycles * gpu_mhz + dram_mhz - 1) / dram_mhz;
}

/*
 * The unmodified LPDDR3 preset at the papers' clocks: miss, hit and
 * conflict latencies of a 64-byte read in GPU cycles, with the GPU-side
 * port; each is in the papers' 50-100 cycles. Requests arrive on cycles
 * where a GPU and a DRAM clock edge coincide, so nothing waits for an edge.
 */
static void test_paper_calibration(void **state)
{
	(void)state;
	static const uint32_t clocks[2] = {400, 600};
	for (int ci = 0; ci < 2; ci++) {
		struct tsr_dram_params p;
		tsr_dram_params_default_lpddr3(&p);
		uint32_t gpu = clocks[ci];
		struct log l;
		struct tsr_dram *d = make(&p, gpu, &l);
		uint32_t n = bursts(&p);
		uint64_t tail = (n - 1) * p.t_ccd + p.rl + p.burst_length / 2;
		uint64_t fixed = p.ctrl_latency_gpu_cycles + LINE / p.port_bytes_per_gpu_cycle;
		uint32_t align = gpu / 200;  /* GPU cycles between coinciding edges (800 MHz DRAM) */
		uint64_t lat[3], want[3] = {to_gpu(p.t_rcd + tail, gpu, p.dram_mhz) + fixed,
					    to_gpu(tail, gpu, p.dram_mhz) + fixed,
					    to_gpu(p.t_rp + p.t_rcd + tail, gpu, p.dram_mhz) + fixed};
		uint64_t addrs[3] = {addr_of(&p, 0, 1, 0), addr_of(&p, 0, 1, 128),
				     addr_of(&p, 1, 1, 0)};
		uint64_t t = 0;
		for (int i = 0; i < 3; i++) {
			enq(d, t, addrs[i], 0, (uint64_t)i);
			drain(d);
			lat[i] = latency(&l, (uint32_t)i);
			t = (tsr_dram_now(d) + align) / align * align;
		}
		print_message("lpddr3 at %u MHz: miss %llu, hit %llu, conflict %llu GPU cycles; "
			      "peak %.2f bytes/cycle\n", gpu, (unsigned long long)lat[0],
			      (unsigned long long)lat[1], (unsigned long long)lat[2],
			      tsr_dram_peak_bytes_per_gpu_cycle(d));
		for (int i = 0; i < 3; i++) {
			assert_int_equal(lat[i], want[i]);
			assert_in_range(lat[i], 50, 100);
		}
		tsr_dram_destroy(d);
	}
}

/* Keeps the queues full of sequential 64-byte reads; returns bytes per GPU cycle. */
static double stream_bandwidth(const struct tsr_dram_params *p, uint32_t gpu, uint32_t count)
{
	struct log l;
	struct tsr_dram *d = make(p, gpu, &l);
	struct checker chk;
	checker_init(&chk, p);
	tsr_dram_set_command_observer(d, on_command, &chk);
	uint64_t next = 0, t = 0;
	while (next < count || tsr_dram_occupancy(d)) {
		while (next < count && tsr_dram_can_accept(d, next * LINE, false)) {
			enq(d, t, next * LINE, 0, next);
			next++;
		}
		t = tsr_dram_next_event(d);
		tsr_dram_advance(d, t);
	}
	const struct tsr_dram_device_counters *k = tsr_dram_device_counters(d);
	assert_int_equal(k->bytes_read, (uint64_t)count * LINE);
	double bw = (double)k->bytes_read / (double)k->cycles;
	print_message("stream of %u reads at %u MHz: %.3f bytes/cycle of %.3f peak, "
		      "row hits %llu misses %llu conflicts %llu\n", count, gpu, bw,
		      tsr_dram_peak_bytes_per_gpu_cycle(d), (unsigned long long)k->row_hits,
		      (unsigned long long)k->row_misses, (unsigned long long)k->row_conflicts);
	tsr_dram_destroy(d);
	return bw;
}

static void test_stream_reaches_peak(void **state)
{
	(void)state;
	/* the DRAM buses alone: channels x burst bytes per tCCD, in GPU cycles */
	struct tsr_dram_params p;
	tsr_dram_params_default_lpddr3(&p);
	p.t_refi = 0;
	p.port_bytes_per_gpu_cycle = 0;
	double peak = (double)p.channels * (p.bus_bits / 8 * p.burst_length) / p.t_ccd *
		      p.dram_mhz / 400.0;
	double bw = stream_bandwidth(&p, 400, 20000);
	assert_true(bw >= 0.97 * peak && bw <= peak);
	/* the papers' setting: the 4 bytes/cycle port binds */
	tsr_dram_params_default_lpddr3(&p);
	bw = stream_bandwidth(&p, 400, 20000);
	assert_true(bw >= 0.97 * p.port_bytes_per_gpu_cycle && bw <= p.port_bytes_per_gpu_cycle);
	/* LPDDR4 preset (no port limit) at 600 MHz, without and with refresh, which
	 * takes about tRFC / tREFI (4.6%) of the time more */
	tsr_dram_params_default_lpddr4(&p);
	p.t_refi = 0;
	peak = (double)p.channels * (p.bus_bits / 8 * p.burst_length) / p.t_ccd * p.dram_mhz / 600.0;
	bw = stream_bandwidth(&p, 600, 20000);
	assert_true(bw >= 0.97 * peak && bw <= peak);
	tsr_dram_params_default_lpddr4(&p);
	double refresh_share = (double)p.t_rfc / p.t_refi;
	bw = stream_bandwidth(&p, 600, 20000);
	assert_true(bw >= (0.97 - refresh_share) * peak && bw <= peak);
	/* GSPC Section 4: dual-channel DDR3-1600, 25.6 GB/s, 16 bytes a cycle of
	 * the 1.6 GHz GPU; DDR3-1867, 29.9 GB/s (Fig. 17); no refresh */
	void (*const ddr3[])(struct tsr_dram_params *) = {tsr_dram_params_default_ddr3_1600,
							   tsr_dram_params_default_ddr3_1867};
	const double gbs[] = {25.6, 29.856};
	for (int i = 0; i < 2; i++) {
		ddr3[i](&p);
		p.t_refi = 0;
		struct tsr_error err = {{0}};
		assert_int_equal(tsr_dram_params_check(&p, 1600, &err), TSR_OK);
		peak = (double)p.channels * (p.bus_bits / 8 * p.burst_length) / p.t_ccd *
		       p.dram_mhz / 1600.0;
		assert_true(fabs(peak * 1.6 - gbs[i]) < 0.01);
		bw = stream_bandwidth(&p, 1600, 20000);
		assert_true(bw >= 0.97 * peak && bw <= peak);
	}
}

/* A full read queue refuses a request until one of its requests completes. */
static void test_backpressure(void **state)
{
	(void)state;
	struct tsr_dram_params p = tsr_test_dram_analytic();
	p.read_queue_entries = 4;
	struct log l;
	struct tsr_dram *d = make(&p, p.dram_mhz, &l);
	for (uint32_t i = 0; i < 4; i++)
		enq(d, 0, addr_of(&p, 0, i, 0), 0, i);
	uint64_t extra = addr_of(&p, 0, 5, 0);
	struct tsr_dram_request r = {.addr = extra, .bytes = LINE, .tag = 99};
	assert_false(tsr_dram_can_accept(d, extra, false));
	assert_int_equal(tsr_dram_enqueue(d, 0, &r, NULL), TSR_ERR_LIMIT);
	assert_true(tsr_dram_can_accept(d, extra, true));  /* the write queue is apart */
	uint64_t t = 1;
	while (l.count == 0) {
		assert_int_equal(tsr_dram_enqueue(d, t, &r, NULL), TSR_ERR_LIMIT);
		t++;
		tsr_dram_advance(d, t);
	}
	assert_int_equal(l.c[0].done_cycle, t);
	assert_true(tsr_dram_can_accept(d, extra, false));
	assert_int_equal(tsr_dram_enqueue(d, t, &r, NULL), TSR_OK);
	drain(d);
	const struct tsr_dram_device_counters *k = tsr_dram_device_counters(d);
	assert_int_equal(k->refused, t);
	assert_int_equal(k->completed, 5);
	tsr_dram_destroy(d);
}

/*
 * A random stream: a request arrives with probability 1/20 per cycle, to a
 * random line of 1 GiB, one in three a write; a refused request is retried
 * the next cycle. With step_all the caller visits every cycle and samples
 * the occupancy itself; otherwise it jumps to the next arrival or event.
 */
struct run {
	struct tsr_dram_device_counters k;
	uint64_t sampled_occupancy;
	uint64_t latency_sum;
};

struct mix {
	uint32_t gpu_mhz, count;
	uint32_t lines;      /* addresses: random 64-byte lines of the first `lines` */
	uint32_t rate_div;   /* a request arrives with probability 1 / rate_div per cycle */
	uint32_t wq;         /* write queue entries (drain at 3/4, stop at 1/4) */
	int step_all, no_port;
};

static void random_run(const struct mix *m, struct run *out)
{
	struct tsr_dram_params p;
	tsr_dram_params_default_lpddr3(&p);
	struct log l;
	uint32_t gpu = m->gpu_mhz, count = m->count;
	int step_all = m->step_all;
	p.write_queue_entries = m->wq;
	p.write_high = m->wq * 3 / 4;
	p.write_low = m->wq / 4;
	if (m->no_port)
		p.port_bytes_per_gpu_cycle = 0;
	struct tsr_dram *d = make(&p, gpu, &l);
	struct checker chk;
	checker_init(&chk, &p);
	tsr_dram_set_command_observer(d, on_command, &chk);
	struct tsr_rng rng;
	tsr_rng_seed(&rng, 12345);
	uint64_t t = 0, arrive = 0, sampled = 0;
	uint32_t sent = 0;
	struct tsr_dram_request r;
	int have = 0;
	while (sent < count || tsr_dram_occupancy(d)) {
		if (!have && sent < count) {
			do
				arrive++;
			while (tsr_rng_below(&rng, m->rate_div) != 0);
			r.addr = (uint64_t)tsr_rng_below(&rng, m->lines) * LINE;
			r.bytes = LINE;
			r.write = tsr_rng_below(&rng, 3) == 0;
			r.tag = sent;
			have = 1;
		}
		tsr_dram_advance(d, t);
		if (have && arrive <= t) {
			enum tsr_status s = tsr_dram_enqueue(d, t, &r, NULL);
			assert_true(s == TSR_OK || s == TSR_ERR_LIMIT);
			if (s == TSR_OK) {
				have = 0;
				sent++;
			}
		}
		sampled += tsr_dram_occupancy(d);
		uint64_t next = t + 1;
		if (!step_all) {
			next = tsr_dram_next_event(d);
			if (have)
				next = arrive > t ? (arrive < next ? arrive : next) : t + 1;
			else if (sent < count)
				next = t + 1;  /* the next arrival is drawn next iteration */
			if (next == UINT64_MAX)
				break;
		}
		t = next;
	}
	assert_true(chk.commands > 0);
	out->k = *tsr_dram_device_counters(d);
	out->sampled_occupancy = sampled;
	out->latency_sum = l.latency_sum;
	assert_int_equal(l.count, count);
	tsr_dram_destroy(d);
}

static void test_littles_law(void **state)
{
	(void)state;
	struct run a;
	struct mix m = {.gpu_mhz = 600, .count = 20000, .lines = 1u << 24, .rate_div = 20,
			.wq = 32, .step_all = 1};
	random_run(&m, &a);
	const struct tsr_dram_device_counters *k = &a.k;
	assert_int_equal(k->completed, 20000);
	assert_int_equal(k->latency_sum, a.latency_sum);
	/* the device's occupancy integral equals the caller's own samples */
	assert_int_equal(k->occupancy_sum, a.sampled_occupancy);
	double T = (double)k->cycles;
	double L = (double)a.sampled_occupancy / T;
	double lambda = (double)k->completed / T;
	double W = (double)k->latency_sum / (double)k->completed;
	print_message("random stream at 600 MHz: L %.4f, lambda %.5f /cycle, W %.2f cycles, "
		      "lambda W %.4f; hits %llu misses %llu conflicts %llu refreshes %llu\n",
		      L, lambda, W, lambda * W, (unsigned long long)k->row_hits,
		      (unsigned long long)k->row_misses, (unsigned long long)k->row_conflicts,
		      (unsigned long long)k->refreshes);
	assert_true(L > 0);
	assert_true(L / (lambda * W) > 0.99 && L / (lambda * W) < 1.01);
	uint64_t hist = 0;
	for (int i = 0; i < TSR_DRAM_HIST_BUCKETS; i++)
		hist += k->latency_hist[i];
	assert_int_equal(hist, k->completed);
	assert_int_equal(k->row_hits + k->row_misses + k->row_conflicts, k->completed);
	assert_true(k->refreshes > 0);
	assert_true(k->reads > 0 && k->writes > 0);
}

/* Two identical runs give identical counters, whether the caller visits
 * every cycle or skips from event to event. */
static void test_determinism(void **state)
{
	(void)state;
	struct run a, b, c;
	struct mix m = {.gpu_mhz = 400, .count = 5000, .lines = 4096, .rate_div = 6,
			.wq = 8, .step_all = 1};
	random_run(&m, &a);
	random_run(&m, &b);
	m.step_all = 0;
	random_run(&m, &c);
	assert_memory_equal(&a.k, &b.k, sizeof(a.k));
	assert_memory_equal(&a.k, &c.k, sizeof(a.k));
}

/*
 * The command stream obeys every JEDEC constraint (the checker above) on
 * mixes that stress different paths: a local, heavy mix without port
 * limit (row hits, FR-FCFS reordering, write drains with a small write
 * queue, tFAW), a local mix at 600 MHz (uneven clock ratio), and a sparse
 * one over 1 GiB (conflicts, refresh while idle).
 */
static void test_constraints_hold(void **state)
{
	(void)state;
	static const struct mix mixes[] = {
		{.gpu_mhz = 400, .count = 30000, .lines = 2048, .rate_div = 2, .wq = 8, .no_port = 1},
		{.gpu_mhz = 600, .count = 30000, .lines = 8192, .rate_div = 3, .wq = 16, .no_port = 1},
		{.gpu_mhz = 600, .count = 10000, .lines = 1u << 24, .rate_div = 200, .wq = 32},
	};
	for (size_t i = 0; i < sizeof(mixes) / sizeof(mixes[0]); i++) {
		struct run a;
		random_run(&mixes[i], &a);
		const struct tsr_dram_device_counters *k = &a.k;
		print_message("mix %zu: %llu reads %llu writes, hits %llu misses %llu conflicts "
			      "%llu, %llu ACT %llu PRE %llu REF, mean latency %.1f, max %llu, "
			      "data bus %.1f%%\n", i, (unsigned long long)k->reads,
			      (unsigned long long)k->writes, (unsigned long long)k->row_hits,
			      (unsigned long long)k->row_misses, (unsigned long long)k->row_conflicts,
			      (unsigned long long)k->activates, (unsigned long long)k->precharges,
			      (unsigned long long)k->refreshes,
			      (double)k->latency_sum / (double)k->completed,
			      (unsigned long long)k->latency_max,
			      100.0 * (double)k->data_bus_busy_dram_cycles * mixes[i].gpu_mhz /
				      (800.0 * 2 * (double)k->cycles));
		assert_int_equal(k->completed, mixes[i].count);
	}
}

static void test_bad_params(void **state)
{
	(void)state;
	struct tsr_dram_params base;
	tsr_dram_params_default_lpddr3(&base);
	struct {
		const char *name;
		struct tsr_dram_params p;
	} cases[16];
	int n = 0;
#define ADD(pname, stmt)                  \
	do {                              \
		cases[n].name = pname;    \
		cases[n].p = base;        \
		{                         \
			struct tsr_dram_params *q = &cases[n].p; \
			stmt;             \
		}                         \
		n++;                      \
	} while (0)
	ADD("channels", q->channels = 0);
	ADD("channels", q->channels = 3);
	ADD("banks", q->banks = 6);
	ADD("bus_bits", q->bus_bits = 0);
	ADD("burst_length", q->burst_length = 7);
	ADD("write_low", q->write_low = q->write_high);
	ADD("write_high", q->write_high = q->write_queue_entries + 1);
	ADD("t_rc", q->t_rc = q->t_ras + q->t_rp - 1);
	ADD("t_ccd", q->t_ccd = q->burst_length / 2 - 1);
	ADD("address_map", strcpy(q->address_map, "row:bank:column"));
	ADD("address_map", strcpy(q->address_map, "row:bank:bank:channel"));
	ADD("interleave_bytes", q->interleave_bytes = 16);
	ADD("read_queue_entries", q->read_queue_entries = 0);
	ADD("dram_mhz", q->dram_mhz = 0);
	ADD("t_rfc", q->t_rfc = q->t_refi);
	for (int i = 0; i < n; i++) {
		struct tsr_dram *d = NULL;
		struct tsr_error err = {{0}};
		assert_int_equal(tsr_dram_create(&cases[i].p, 400, &d, &err), TSR_ERR_CONFIG);
		assert_null(d);
		if (!strstr(err.msg, cases[i].name))
			print_error("case %d: '%s' not in \"%s\"\n", i, cases[i].name, err.msg);
		assert_non_null(strstr(err.msg, cases[i].name));
	}
	struct tsr_dram *d = NULL;
	struct tsr_error err = {{0}};
	assert_int_equal(tsr_dram_create(&base, 0, &d, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "gpu_mhz"));
	/* requests crossing a granule, or going back in time */
	struct log l;
	d = make(&base, 400, &l);
	struct tsr_dram_request r = {.addr = 32, .bytes = 64};
	assert_int_equal(tsr_dram_enqueue(d, 0, &r, &err), TSR_ERR_CONFIG);
	r.bytes = 0;
	assert_int_equal(tsr_dram_enqueue(d, 0, &r, &err), TSR_ERR_CONFIG);
	tsr_dram_advance(d, 10);
	r.bytes = 32;
	assert_int_equal(tsr_dram_enqueue(d, 9, &r, &err), TSR_ERR_INTERNAL);
	tsr_dram_destroy(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_default_map),
		cmocka_unit_test(test_unloaded_latencies),
		cmocka_unit_test(test_conflict_respects_tras),
		cmocka_unit_test(test_frfcfs_younger_hit_first),
		cmocka_unit_test(test_write_latency),
		cmocka_unit_test(test_closed_page),
		cmocka_unit_test(test_paper_calibration),
		cmocka_unit_test(test_stream_reaches_peak),
		cmocka_unit_test(test_backpressure),
		cmocka_unit_test(test_littles_law),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_constraints_hold),
		cmocka_unit_test(test_bad_params),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
