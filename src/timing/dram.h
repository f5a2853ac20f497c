/*
 * dram.h - a small cycle-level model of an LPDDR3/LPDDR4 DRAM device and
 * its memory controller: channels, banks with open row buffers, JEDEC
 * timing constraints, per-channel bounded request queues with FR-FCFS
 * scheduling, and a GPU-side port of a given width.
 *
 * It is the DRAM part of the timing model of issue 13 ("Memory timing"):
 * the papers' GPUs (TEAPOT, which uses DRAMSim2) see main memory as
 * "50-100 cycles" of latency (TCOR Table I, DTexL Table II,
 * boustrophedonic Table II, all at 600 MHz) and "4 bytes/cycle, dual
 * channel LPDDR3" of bandwidth (Rendering Elimination Section IV-A and
 * Table I, at 400 MHz). No DRAM simulator is packaged for Debian, so this
 * is a model of our own, in the spirit of DRAMSim2 and of Ramulator's
 * timing tables.
 *
 * Device. C channels (each its own command bus, data bus and controller
 * queues), 1 rank, B banks per channel, each bank with one row buffer.
 * A physical byte address maps to (channel, bank, row, column) by
 * tsr_dram_decode(): the lowest log2(interleave_bytes) bits are the
 * offset in an interleave granule; above them the fields named by
 * address_map, least significant last. The default "row:bank:column:channel"
 * with 64-byte granules is "row:bank:channel:column with the channel
 * interleaved every 64 bytes": consecutive 64-byte lines alternate between
 * channels and stay in one row of each channel until the row is used up,
 * then move to the next bank. Address bits above the device's capacity are
 * ignored (the row number wraps).
 *
 * Time. Timing parameters are in DRAM command-clock cycles (tCK) at
 * dram_mhz, as the JEDEC tables give them; the caller gives the GPU clock
 * at creation and every public time is a GPU cycle. Internally the model
 * counts exact ticks of 1 / (lcm of the two clocks): a GPU cycle is
 * dram_mhz / g ticks and a DRAM cycle gpu_mhz / g ticks (g their gcd), so
 * no timing is rounded; a command issues on a DRAM clock edge, and a
 * result at tick t is seen by the GPU at cycle ceil(t / GPU cycle).
 * Requests are event driven: tsr_dram_advance() jumps from one command
 * decision to the next, and tsr_dram_next_event() tells the caller the
 * next cycle anything can happen, so idle stretches cost nothing.
 *
 * Commands and constraints (per channel, JESD209-3 LPDDR3 section 4 and
 * its AC timing table; JESD209-4 for LPDDR4):
 *   ACT  bank closed; >= tRP after its PRE, >= tRC after its last ACT,
 *        >= tRRD after any ACT, at most 4 ACTs in any tFAW window.
 *   RD   row open; >= tRCD after ACT, >= tCCD after any RD, >= WL + 1 +
 *        BL/2 + tWTR after a WR (write-to-read); data on the bus RL .. RL +
 *        BL/2 cycles after the command.
 *   WR   row open; >= tRCD after ACT, >= tCCD after any WR, >= tRTW after
 *        a RD (read-to-write turnaround); data WL + 1 .. WL + 1 + BL/2
 *        cycles after the command (the 1 is tDQSS).
 *   PRE  >= tRAS after ACT, >= tRTP after a RD, >= WL + 1 + BL/2 + tWR
 *        after a WR.
 *   REF  (if t_refi > 0) all-bank refresh every tREFI: open banks are
 *        closed by one PREab (tRPab), then REF blocks the channel's banks
 *        for tRFC. Refresh is never postponed.
 * One command per channel per DRAM cycle. A burst moves bus_bits / 8 x
 * burst_length bytes (32 bytes for x32 BL8 LPDDR3 and for x16 BL16
 * LPDDR4); a request is served by as many column commands (RD or WR) as
 * the bursts it touches, all in one row (a request must not cross an
 * interleave granule). Partial bursts still move a whole burst (writes
 * use data masks).
 *
 * Scheduling. Each channel has a read queue and a write queue of fixed
 * size. FR-FCFS (Rixner et al., ISCA 2000): among the commands that are
 * legal now, column commands to open rows (row hits) first, oldest first,
 * then the oldest request's ACT or PRE. A PRE that would close a row some
 * queued request still hits is held back until row_hit_cap column
 * commands have been served on that row since its ACT (0: no cap), which
 * bounds the starvation of the older request. Writes are served while
 * no read is waiting, and exclusively from the moment the unissued writes
 * reach write_high until they fall to write_low (drain mode, as DRAMSim2
 * and Ramulator do). Open-page policy by default: a row stays open until
 * a conflict or a refresh closes it; with closed_page set, a request's
 * last column command auto-precharges the row unless another queued
 * request hits it (RDA/WRA). No read-after-write forwarding from the
 * write queue.
 *
 * Latency and the GPU-side port. A request enters at GPU cycle a; its
 * completion is reported at the GPU cycle its last data beat has crossed
 * the DRAM bus, plus ctrl_latency_gpu_cycles (controller, PHY and
 * interconnect, fixed), plus, if port_bytes_per_gpu_cycle > 0, the time to
 * move the request's bytes over the GPU-side port (one port each way;
 * reads cross it after the DRAM, in completion order, writes before the
 * DRAM, in arrival order). A request keeps its queue entry until its
 * completion is reported, so the queue is the controller's whole
 * in-flight capacity and back-pressure reaches the caller through
 * tsr_dram_can_accept() and TSR_ERR_LIMIT.
 *
 * How the defaults meet the papers (tsr_dram_params_default_lpddr3()):
 * dual-channel x32 LPDDR3-1600 (800 MHz) alone peaks at 2 x 4 bytes x 2
 * (DDR) = 16 bytes per DRAM cycle = 32 bytes per 400 MHz GPU cycle, eight
 * times RE's "4 bytes/cycle", which no JEDEC LPDDR3 speed grade of two
 * x32 channels can be slowed to. We read RE's figure as the GPU's memory
 * port (a 32-bit port at GPU clock) and set port_bytes_per_gpu_cycle = 4,
 * so the device delivers exactly 4 bytes per GPU cycle at 400 MHz (and
 * at 600 MHz). Unloaded, a 64-byte read costs on the DRAM side RL + 2
 * bursts = 20 tCK on a row hit, + tRCD = 35 tCK on a closed bank and +
 * tRP = 50 tCK on a row conflict (25 / 43.75 / 62.5 ns); with
 * ctrl_latency_gpu_cycles = 24 and 16 cycles on the 4-byte port this
 * gives 50 / 58 / 65 GPU cycles at 400 MHz and 55 / 67 / 78 at 600 MHz,
 * inside the papers' 50-100 (tests/100-timing-dram.c checks these).
 *
 * Left out: ranks > 1, bank groups, per-bank refresh and refresh
 * postponement, power-down and self-refresh states, tDQSCK variation,
 * read-after-write forwarding, address hashing (XOR bank interleave),
 * energy values (only the event counts an energy model multiplies).
 */
#ifndef TSR_TIMING_DRAM_H
#define TSR_TIMING_DRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"

/* Longest address_map string, including the final NUL. */
#define TSR_DRAM_MAP_MAX 32

/* Buckets of the latency histogram: bucket 0 holds latencies 0-1 cycles,
 * bucket i (0 < i < last) [2^i, 2^(i+1)), the last one everything above. */
#define TSR_DRAM_HIST_BUCKETS 20

/*
 * Geometry, timing and controller of one device; plain data filled by a
 * preset, then the caller or a config loader. Timings are in DRAM clock
 * cycles (tCK) unless the name says otherwise.
 */
struct tsr_dram_params {
	/* organisation */
	uint32_t channels;          /* independent channels (power of two) */
	uint32_t banks;             /* banks per channel (power of two) */
	uint32_t rows;              /* rows per bank (power of two) */
	uint32_t row_bytes;         /* row buffer (page) size per channel, bytes (power of two) */
	uint32_t bus_bits;          /* data bus width per channel, bits (8, 16, 32 or 64) */
	uint32_t burst_length;      /* beats per column command (BL; even) */
	uint32_t dram_mhz;          /* command clock, MHz (data rate is twice it) */
	uint32_t interleave_bytes;  /* channel interleave granule, bytes (power of two,
				       >= one burst, <= row_bytes) */
	char address_map[TSR_DRAM_MAP_MAX]; /* "row:bank:column:channel" order, most
				       significant first, above the granule */
	/* JEDEC timings, tCK */
	uint32_t t_rcd;             /* ACT to RD/WR */
	uint32_t t_rp;              /* PRE (one bank) to ACT */
	uint32_t t_rp_ab;           /* PREab (all banks) to ACT or REF */
	uint32_t t_ras;             /* ACT to PRE */
	uint32_t t_rc;              /* ACT to ACT, same bank (>= tRAS + tRP) */
	uint32_t rl;                /* read latency (CL): RD to first data beat */
	uint32_t wl;                /* write latency: WR to first data beat (- tDQSS) */
	uint32_t t_wr;              /* write recovery: last write beat to PRE */
	uint32_t t_wtr;             /* last write beat to RD */
	uint32_t t_rtp;             /* RD to PRE */
	uint32_t t_rtw;             /* RD to WR (bus turnaround) */
	uint32_t t_rrd;             /* ACT to ACT, different banks */
	uint32_t t_faw;             /* window of at most four ACTs */
	uint32_t t_ccd;             /* column command to column command (>= BL/2) */
	uint32_t t_refi;            /* average refresh interval; 0: no refresh */
	uint32_t t_rfc;             /* all-bank refresh cycle time */
	/* controller */
	uint32_t read_queue_entries;  /* read requests in flight per channel */
	uint32_t write_queue_entries; /* write requests in flight per channel */
	uint32_t write_high;        /* unissued writes that start a drain */
	uint32_t write_low;         /* unissued writes that end a drain (< write_high) */
	uint32_t closed_page;       /* 1: auto-precharge after a request unless a queued
				       request hits the row; 0: open page */
	uint32_t row_hit_cap;       /* column commands on one open row before a held-back
				       conflicting PRE may go; 0: no cap */
	uint32_t ctrl_latency_gpu_cycles;  /* fixed controller + PHY + interconnect
					      latency added to every request, GPU cycles */
	uint32_t port_bytes_per_gpu_cycle; /* GPU-side port width each way; 0: unlimited */
};

/* One request. */
struct tsr_dram_request {
	uint64_t addr;   /* physical byte address */
	uint32_t bytes;  /* > 0; must stay inside one interleave granule */
	uint8_t write;   /* 1 for a write */
	uint64_t tag;    /* caller's, returned in the completion */
};

/* A completed request, as reported to the completion callback. */
struct tsr_dram_completion {
	uint64_t tag;
	uint64_t addr;
	uint32_t bytes;
	uint8_t write;
	uint64_t enqueue_cycle;  /* GPU cycle of tsr_dram_enqueue() */
	uint64_t done_cycle;     /* GPU cycle the data (or the write's acknowledgement)
				    is back at the GPU */
};

/* Where an address lands. */
struct tsr_dram_coord {
	uint32_t channel, bank, row, column;  /* column in bytes from the row's start */
};

/*
 * Counters since creation (plain data). Requests are counted when they
 * complete; commands when they issue. Little's law over [0, cycles]:
 * occupancy_sum / cycles = (completed / cycles) x (latency_sum / completed)
 * once every request has completed.
 */
struct tsr_dram_device_counters {
	uint64_t cycles;             /* GPU cycles advanced to */
	uint64_t reads, writes;      /* completed requests */
	uint64_t bytes_read, bytes_written; /* bytes the requests asked for */
	uint64_t row_hits;           /* requests whose first command was a RD/WR */
	uint64_t row_misses;         /* ... an ACT on a closed bank */
	uint64_t row_conflicts;      /* ... a PRE of another open row */
	uint64_t activates;          /* ACT commands (energy: per ACT) */
	uint64_t precharges;         /* banks precharged: PRE, auto-precharge, and each
					bank a PREab closes (energy: per bank PRE) */
	uint64_t refreshes;          /* all-bank REF commands */
	uint64_t read_bursts;        /* RD commands (energy: per RD burst) */
	uint64_t write_bursts;       /* WR commands (energy: per WR burst) */
	uint64_t io_bytes;           /* bytes over the DRAM pins, whole bursts (energy: I/O) */
	uint64_t data_bus_busy_dram_cycles; /* sum over channels of DRAM cycles with data on
					       the bus; utilisation = this x gpu_mhz /
					       (dram_mhz x channels x cycles) */
	uint64_t occupancy_sum;      /* sum over GPU cycles of requests in flight
					(enqueued, not yet completed) */
	uint64_t completed;          /* requests completed */
	uint64_t latency_sum;        /* sum of done_cycle - enqueue_cycle, GPU cycles */
	uint64_t latency_max;        /* largest latency, GPU cycles */
	uint64_t latency_hist[TSR_DRAM_HIST_BUCKETS]; /* power-of-two buckets, see above */
	uint64_t refused;            /* enqueue attempts refused for a full queue */
};

/* DRAM commands, as reported to a command observer. */
enum tsr_dram_cmd {
	TSR_DRAM_ACT,       /* activate row of bank */
	TSR_DRAM_PRE,       /* precharge bank */
	TSR_DRAM_PRE_AUTO,  /* closed page: auto-precharge of bank, effective at dram_cycle
			       (reported when its column command issues, so possibly later
			       than commands reported after it) */
	TSR_DRAM_PRE_ALL,   /* precharge every open bank of the channel (before a refresh) */
	TSR_DRAM_REF,       /* all-bank refresh */
	TSR_DRAM_RD,        /* one read burst */
	TSR_DRAM_WR,        /* one write burst */
};

/* One command; bank and row are those of the command (0 for PRE_ALL, REF). */
struct tsr_dram_command {
	uint64_t dram_cycle;  /* DRAM clock cycle it issues (ticks / DRAM cycle) */
	uint32_t channel, bank, row;
	enum tsr_dram_cmd cmd;
};

struct tsr_dram;

/* Sees every command the controller issues (tests, traces); one branch per
 * command when unset. Must not call the device. */
typedef void (*tsr_dram_cmd_fn)(void *ctx, const struct tsr_dram_command *c);

/* Called once per completed request, in (done_cycle, issue order) order,
 * from inside tsr_dram_advance() or tsr_dram_enqueue(); must not call the
 * device. */
typedef void (*tsr_dram_done_fn)(void *ctx, const struct tsr_dram_completion *c);

/*
 * Dual-channel x32 LPDDR3-1600 (800 MHz), 4 Gb (512 MiB) per channel,
 * 8 banks, 4 KiB rows: 1 GiB as in the papers' tables. Timings from
 * JESD209-3 and the Micron EDF8132A1MC datasheet (LPDDR3-1600, 4 Gb),
 * ns rounded up to tCK = 1.25 ns: tRCD = tRPpb = 18 ns (15), tRPab 21 ns
 * (17), tRAS 42 ns (34), tRC = tRAS + tRPpb (49), RL 12, WL 6 (set A),
 * tWR 15 ns (12), tWTR 7.5 ns (6), tRTP 7.5 ns (6), tRRD 10 ns (8), tFAW
 * 50 ns (40), tCCD = BL/2 = 4, tRTW = RL + RU(tDQSCKmax / tCK) + BL/2 + 1 -
 * WL = 12 + 5 + 4 + 1 - 6 = 16, tREFI 3.9 us (3120), tRFCab 130 ns (104).
 * Controller: 32 + 32 entries per channel, drain at 24, stop at 8, open
 * page, row-hit cap 16; 64-byte interleave; 24 GPU cycles of controller
 * latency and a 4 bytes/cycle GPU port calibrated to the papers (see the
 * file comment).
 */
void tsr_dram_params_default_lpddr3(struct tsr_dram_params *p);

/*
 * Dual-channel x16 LPDDR4-3200 (1600 MHz), 4 Gb per channel (an 8 Gb
 * two-channel die), 8 banks, 2 KiB rows, BL16: 1 GiB. JESD209-4, tCK =
 * 0.625 ns: tRCD = tRPpb = 18 ns (29), tRPab 21 ns (34), tRAS 42 ns (68),
 * tRC 97, RL 28, WL 14 (set A, DBI off), tWR 18 ns (29), tWTR 10 ns (16),
 * tRTP 7.5 ns (12, min 8 tCK), tRRD 10 ns (16), tFAW 40 ns (64), tCCD 8,
 * tRTW = RL + RU(tDQSCKmax / tCK) + BL/2 - WL + tWPRE + RD(tRPST) = 28 + 6 +
 * 8 - 14 + 2 + 1 = 31, tREFI 3.904 us (6246, rounded down), tRFCab 180 ns (288). Same
 * controller as the LPDDR3 preset, but no GPU-port limit (the papers do not
 * use LPDDR4).
 */
void tsr_dram_params_default_lpddr4(struct tsr_dram_params *p);

/*
 * Dual-channel 64-bit DDR3-1600 (800 MHz), GSPC Section 4's memory: 8
 * banks, BL8, 15-15-15 (CL-tRCD-tRP, the paper's figures), one rank of
 * eight x8 4 Gb devices per channel (8 KiB rows, 4 GiB). Other timings
 * from JESD79-3F for DDR3-1600 with 1 KiB device pages, ns rounded up to
 * tCK = 1.25 ns: tRAS 35 ns (28), tRC = tRAS + tRP (43), CWL 8, tWR 15 ns
 * (12), tWTR and tRTP max(4 tCK, 7.5 ns) (6), tRRD max(4 tCK, 6 ns) (5),
 * tFAW 30 ns (24), tCCD 4, tRTW = CL + tCCD + 2 - CWL (13), PREA as tRP,
 * tREFI 7.8 us (6240), tRFC 260 ns (208, 4 Gb). Controller as the LPDDR3
 * preset's, without its GPU-port limit (GSPC's LLC absorbs bandwidth; its
 * DRAM delivers 25.6 GB/s, 16 bytes a 1.6 GHz GPU cycle). The energy
 * table (energy.*) stays LPDDR3's: GSPC reports no energy.
 */
void tsr_dram_params_default_ddr3_1600(struct tsr_dram_params *p);

/*
 * Dual-channel DDR3-1867 (933 MHz, tCK 1.071 ns), 10-10-10 (GSPC Section
 * 5.2, Fig. 17's faster memory), otherwise as DDR3-1600: CWL 9, tRAS 34
 * ns (32), tRC 42, tWR 15 ns (14), tWTR and tRTP 7.5 ns (7), tRRD 5,
 * tFAW 27 ns (26), tRTW 10 + 4 + 2 - 9 = 7, tREFI 7.8 us (7277), tRFC 260
 * ns (243).
 */
void tsr_dram_params_default_ddr3_1867(struct tsr_dram_params *p);

/*
 * Checks parameters for a GPU clock of gpu_mhz: every count non-zero, the
 * power-of-two fields, bus width, burst, interleave granule, address map
 * (each of row, bank, column, channel once), tRC >= tRAS + tRP, tCCD >=
 * BL/2, tRFC < tREFI, write_low < write_high <= write_queue_entries, and
 * that tick counts fit. Errors: TSR_ERR_CONFIG with the parameter's name.
 */
enum tsr_status tsr_dram_params_check(const struct tsr_dram_params *p, uint32_t gpu_mhz,
				      struct tsr_error *err);

/*
 * Creates an idle device at GPU cycle 0, all banks closed. Allocates every
 * queue, the completion heap and the bank state once; requests allocate
 * nothing. Errors: those of tsr_dram_params_check(), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_dram_create(const struct tsr_dram_params *p, uint32_t gpu_mhz,
				struct tsr_dram **out, struct tsr_error *err);

void tsr_dram_destroy(struct tsr_dram *d);

/* Sets (or with fn NULL removes) the completion callback. */
void tsr_dram_set_completion(struct tsr_dram *d, tsr_dram_done_fn fn, void *ctx);

/* Sets (or with fn NULL removes) the command observer. */
void tsr_dram_set_command_observer(struct tsr_dram *d, tsr_dram_cmd_fn fn, void *ctx);

/* Channel, bank, row and column of a byte address (see the file comment). */
void tsr_dram_decode(const struct tsr_dram *d, uint64_t addr, struct tsr_dram_coord *out);

/* Whether the queue that addr and write select has a free entry now. */
bool tsr_dram_can_accept(const struct tsr_dram *d, uint64_t addr, bool write);

/*
 * Advances to GPU cycle `cycle` (tsr_dram_advance()) and queues a request
 * arriving then; it may issue from the first DRAM clock edge at or after
 * the start of that cycle. Errors: TSR_ERR_LIMIT when the queue is full
 * (nothing changes; retry after a completion; err is left alone, so hot
 * loops may pass NULL) or the cycle is beyond the model's time range (see
 * tsr_dram_advance()), TSR_ERR_CONFIG for a request of 0 bytes or one
 * crossing an interleave granule, TSR_ERR_INTERNAL for a cycle before
 * the device's current cycle.
 */
enum tsr_status tsr_dram_enqueue(struct tsr_dram *d, uint64_t cycle,
				 const struct tsr_dram_request *r, struct tsr_error *err);

/*
 * Brings the device to the start of GPU cycle `cycle`: issues every
 * command whose DRAM clock edge falls before it, then reports every
 * request completed at or before it. A cycle at or before the current one
 * does nothing, and so does one beyond the model's time range (2^62 ticks,
 * about 2^62 / (dram_mhz / gcd(gpu_mhz, dram_mhz)) cycles: UINT64_MAX
 * from tsr_dram_next_event() included). The result does not depend on how
 * the caller steps.
 */
void tsr_dram_advance(struct tsr_dram *d, uint64_t cycle);

/* What tsr_dram_next_event() and tsr_dram_next_completion() read inline
 * (memtime asks at every step): the first member of struct tsr_dram,
 * kept after every change (advance, enqueue), not for use outside dram.c
 * and this header. */
struct tsr_dram_cached_next {
	uint64_t next_ev;     /* tsr_dram_next_event()'s answer, GPU cycles */
	uint64_t next_done;   /* tsr_dram_next_completion()'s answer, GPU cycles */
};

/*
 * The next GPU cycle (> current) at which tsr_dram_advance() would issue a
 * command for a queued request or report a completion; UINT64_MAX when no
 * request is in flight (refreshes of idle channels are caught up lazily).
 */
static inline uint64_t tsr_dram_next_event(const struct tsr_dram *d)
{
	return ((const struct tsr_dram_cached_next *)(const void *)d)->next_ev;
}

/*
 * A lower bound (in GPU cycles) on the next
 * cycle at which tsr_dram_advance() reports a completion, if no request
 * is enqueued before: the earliest completion already scheduled, or for
 * a channel with commands left, its next decision plus the shortest
 * time from a column command to its data's end (min(rl, wl + 1) +
 * burst_length / 2 DRAM cycles) plus ctrl_latency_gpu_cycles. The
 * decisions in between have no effect a caller sees, so a caller that
 * only waits for completions may let the device lag until then.
 * UINT64_MAX when no request is in flight.
 */
static inline uint64_t tsr_dram_next_completion(const struct tsr_dram *d)
{
	return ((const struct tsr_dram_cached_next *)(const void *)d)->next_done;
}

/* Requests in flight (enqueued, not yet reported) over all channels. */
uint32_t tsr_dram_occupancy(const struct tsr_dram *d);

/* Current GPU cycle (the last advanced to). */
uint64_t tsr_dram_now(const struct tsr_dram *d);

/* Counters, with occupancy_sum brought up to the current cycle. */
const struct tsr_dram_device_counters *tsr_dram_device_counters(struct tsr_dram *d);

/* Peak data rate in bytes per GPU cycle: the DRAM buses' or the GPU
 * port's, whichever is smaller. */
double tsr_dram_peak_bytes_per_gpu_cycle(const struct tsr_dram *d);

#endif
