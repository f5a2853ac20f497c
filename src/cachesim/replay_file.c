/*
 * replay_file.c - streaming replay of a trace file (cachesim/replay.h,
 * tsr_replay_file()): records are split into line accesses as
 * tsr_line_trace_build() splits them and go to the caches in blocks of
 * 4096 (each cache through the block in turn, so that its state stays
 * in the processor's caches); next uses, when an offline policy needs
 * them, come from a first pass.
 */
#include "cachesim/replay.h"
#include "cachesim/replay_kernel.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/limits.h"
#include "memory/policy.h"
#include "trace/trace.h"

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * A map from line to a position (its last access), open addressing with
 * linear probing and key and value side by side (one cache line a probe).
 * Grows by doubling at 50% load.
 */
struct line_slot {
	uint64_t key;  /* line + 1; 0: empty */
	uint64_t val;
};

struct line_map {
	struct line_slot *slots;
	uint64_t mask;   /* slots - 1 */
	uint64_t count;
};

/* Fibonacci hashing: the top bits of the product (mask + 1 a power of two). */
static inline uint64_t line_hash(uint64_t line, uint64_t mask)
{
	/* murmur3's finaliser: every key bit reaches every slot bit */
	line ^= line >> 33;
	line *= 0xff51afd7ed558ccdull;
	line ^= line >> 33;
	return line & mask;
}

static int line_map_grow(struct line_map *m)
{
	uint64_t cap = m->slots ? 2 * (m->mask + 1) : 1u << 16;
	if (tsr_memory_check("the line map of a replay", cap * sizeof(struct line_slot), NULL))
		return 0;
	struct line_slot *s = calloc(cap, sizeof(*s));
	if (!s)
		return 0;
	for (uint64_t i = 0; m->slots && i <= m->mask; i++) {
		if (!m->slots[i].key)
			continue;
		uint64_t h = line_hash(m->slots[i].key - 1, cap - 1);
		while (s[h].key)
			h = (h + 1) & (cap - 1);
		s[h] = m->slots[i];
	}
	free(m->slots);
	m->slots = s;
	m->mask = cap - 1;
	return 1;
}

/*
 * The slot of line, inserted with val = TSR_NEVER if absent (*fresh = 1);
 * NULL when growing runs out of memory.
 */
static inline struct line_slot *line_map_upsert(struct line_map *m, uint64_t line, int *fresh)
{
	if (2 * (m->count + 1) > m->mask + 1 || !m->slots)
		if (!line_map_grow(m))
			return NULL;
	uint64_t h = line_hash(line, m->mask);
	for (;; h = (h + 1) & m->mask) {
		struct line_slot *s = &m->slots[h];
		if (s->key == line + 1) {
			*fresh = 0;
			return s;
		}
		if (!s->key) {
			s->key = line + 1;
			s->val = TSR_NEVER;
			m->count++;
			*fresh = 1;
			return s;
		}
	}
}

/*
 * The set of distinct lines an online replay counts: a bitmap of 512
 * lines (one 64-byte cache line) per 512-line chunk touched, found
 * through a line_map from chunk to block. Traces touch lines in runs, so
 * this takes far fewer cache misses than a set of lines (and, on sparse
 * traces, at most a block and a slot per line).
 */
#define CHUNK_SHIFT 9
#define LINE_SET_RECENT 4096

struct line_set {
	struct line_map chunks;   /* chunk -> block index */
	uint64_t (*blocks)[8];    /* 512 bits each */
	uint64_t nblocks, cap;
	/* the blocks of recently touched chunks, direct-mapped by chunk: a
	 * trace's streams each walk their own region, and a trace of up to
	 * 2 M lines in one region (trace A's 1 M objects) keeps every chunk
	 * here, without a map probe per access */
	uint64_t recent_chunk[LINE_SET_RECENT];  /* chunk + 1, 0 none */
	uint64_t recent_block[LINE_SET_RECENT];
	uint64_t count;           /* distinct lines */
};

/* Adds line; 0 when out of memory. */
static inline int line_set_add(struct line_set *ls, uint64_t line)
{
	uint64_t chunk = line >> CHUNK_SHIFT;
	const unsigned r = (unsigned)chunk & (LINE_SET_RECENT - 1);
	if (chunk + 1 != ls->recent_chunk[r]) {
		int fresh;
		struct line_slot *s = line_map_upsert(&ls->chunks, chunk, &fresh);
		if (!s)
			return 0;
		if (fresh) {
			if (ls->nblocks == ls->cap) {
				uint64_t nc = ls->cap ? 2 * ls->cap : 64;
				if (tsr_memory_check("the line set of a replay", nc * sizeof(*ls->blocks),
						     NULL))
					return 0;
				void *nb = realloc(ls->blocks, nc * sizeof(*ls->blocks));
				if (!nb)
					return 0;
				ls->blocks = nb;
				ls->cap = nc;
			}
			memset(ls->blocks[ls->nblocks], 0, sizeof(*ls->blocks));
			s->val = ls->nblocks++;
		}
		ls->recent_chunk[r] = chunk + 1;
		ls->recent_block[r] = s->val;
	}
	uint32_t bit = (uint32_t)line & ((1u << CHUNK_SHIFT) - 1);
	uint64_t m = UINT64_C(1) << (bit & 63);
	uint64_t *w = &ls->blocks[ls->recent_block[r]][bit >> 6];
	ls->count += !(*w & m);
	*w |= m;
	return 1;
}

static void line_set_release(struct line_set *ls)
{
	free(ls->chunks.slots);
	free(ls->blocks);
	memset(ls, 0, sizeof(*ls));
}

/* The state of one pass over the file. */
struct pass {
	struct tsr_trace_reader *r;
	uint32_t line_shift;
	size_t records, accesses, frames;
	struct tsr_trace_record batch[256];  /* records read ahead */
	uint64_t nbatch[256];  /* file_next: each record's next record (UINT64_MAX: none) */
	int file_next;        /* next uses from the file (tsr_trace_read_many_next()) */
	size_t have, at;
	int eof;
	int splitting;        /* batch[at] is split, split_addr its next line's first byte */
	uint64_t split_addr;
};

/* The next record in *rec, or NULL at the end of the trace. */
static inline enum tsr_status pass_read(struct pass *p, const struct tsr_trace_record **rec,
					struct tsr_error *err)
{
	if (p->at == p->have) {
		*rec = NULL;
		if (p->eof)
			return TSR_OK;
		p->at = 0;
		TSR_TRY(tsr_trace_read_many(p->r, p->batch, 256, &p->have, &p->eof, err));
		if (!p->have)
			return TSR_OK;
	}
	*rec = &p->batch[p->at++];
	return TSR_OK;
}

static enum tsr_status pass_open(struct pass *p, const char *path,
				 const struct tsr_trace_format *fmt, uint64_t max_records,
				 uint32_t line_shift, struct tsr_error *err)
{
	memset(p, 0, sizeof(*p));
	p->line_shift = line_shift;
	struct tsr_trace_format f = {0};
	if (fmt)
		f = *fmt;
	else
		TSR_TRY(tsr_trace_format_parse(NULL, NULL, &f, err));
	f.line_bytes = 1u << line_shift;
	TSR_TRY(tsr_trace_reader_open_format(path, &f, &p->r, err));
	if (max_records)
		tsr_trace_reader_set_max_records(p->r, max_records);
	return TSR_OK;
}

/*
 * Pass 1: next[i] = index of the next access to the line of access i (or
 * TSR_NEVER), growing *next; counts distinct lines. The pass stores each
 * access's line in next[] as it reads, then a backward pass with a map
 * from line to its latest position replaces each by its next use in
 * place: both walk next[] in order (a forward pass would write each next
 * use at a random earlier position, a cache miss per access).
 */
static enum tsr_status next_use_pass(struct pass *p, uint64_t **next, size_t *cap,
				     struct line_map *map, struct tsr_error *err)
{
	for (;;) {
		const struct tsr_trace_record *rec;
		TSR_TRY(pass_read(p, &rec, err));
		if (!rec)
			break;
		p->records++;
		if (rec->kind != TSR_TRACE_ACCESS) {
			p->frames += rec->kind == TSR_TRACE_FRAME;
			continue;
		}
		const uint64_t last = rec->addr + ((rec->size ? rec->size : 1) - 1);
		for (uint64_t line = rec->addr >> p->line_shift; line <= last >> p->line_shift;
		     line++) {
			if (p->accesses == TSR_LINE_TRACE_MAX)
				return tsr_error_set(err, TSR_ERR_LIMIT,
						     "more than %zu line accesses: OPT and OPTPT "
						     "number at most that many", TSR_LINE_TRACE_MAX);
			if (p->accesses == *cap) {
				/* grow by half: at most 12 bytes a line access held */
				size_t nc = *cap ? *cap + *cap / 2 : 1u << 16;
				char what[96];
				snprintf(what, sizeof(what), "next uses of %zu line accesses", nc);
				TSR_TRY(tsr_memory_check(what, (uint64_t)nc * sizeof(**next), err));
				uint64_t *nn = realloc(*next, nc * sizeof(**next));
				if (!nn)
					return tsr_error_set(err, TSR_ERR_NOMEM,
							     "out of memory for next uses");
				*next = nn;
				*cap = nc;
			}
			(*next)[p->accesses++] = line;
		}
	}
	uint64_t *nx = *next;
	for (size_t i = p->accesses; i-- > 0;) {
		int fresh;
		struct line_slot *s = line_map_upsert(map, nx[i], &fresh);
		if (!s)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for next uses");
		nx[i] = s->val;  /* TSR_NEVER when fresh */
		s->val = i;
	}
	return TSR_OK;
}

/* Line accesses and markers gathered before the caches see them. */
#define BLOCK 4096

struct block {
	struct tsr_line_access acc[BLOCK];
	uint32_t metas[BLOCK];       /* of the accesses flagged TSR_LINE_META */
	struct tsr_line_marker mk[BLOCK];
	size_t count, meta_count, markers;
};

/*
 * Where fill_block() writes: room for BLOCK accesses, metas and markers
 * (a struct block's arrays, or the ends of a line trace's).
 */
struct fill_dst {
	struct tsr_line_access *acc;
	uint32_t *metas;
	struct tsr_line_marker *mk;
	size_t count, meta_count, markers;  /* written */
};

static struct fill_dst block_dst(struct block *b)
{
	return (struct fill_dst){.acc = b->acc, .metas = b->metas, .mk = b->mk};
}

static void block_set(struct block *b, const struct fill_dst *d)
{
	b->count = d->count;
	b->meta_count = d->meta_count;
	b->markers = d->markers;
}

/*
 * Fills b with the next line accesses (with next[i] when next is set) and
 * markers of the pass, until it holds BLOCK of either or the trace ends
 * (*end = 1), counting distinct lines into `lines` when set. A record
 * that spans lines may be split across two blocks (p->split_addr keeps
 * its next line). Which accesses share a block changes no counter: the
 * caches are independent and take the markers at their positions. The
 * counts live in locals while a batch of records is split (the stores of
 * the accesses' bytes would make the compiler reload them from memory).
 */
static enum tsr_status fill_block(struct pass *p, struct fill_dst *b, const uint64_t *next,
				  size_t next_count, struct line_set *lines, int *end,
				  struct tsr_error *err)
{
	const uint32_t shift = p->line_shift;
	const uint64_t mask = ((uint64_t)1 << shift) - 1;
	struct tsr_line_access *const acc = b->acc;
	uint32_t *const metas = b->metas;
	size_t count = 0, markers = 0, nmeta = 0, accesses = p->accesses;
	enum tsr_status s = TSR_OK;
	*end = 0;
	while (count < BLOCK && markers < BLOCK) {
		if (p->at == p->have) {
			p->at = p->have = 0;
			if (!p->eof) {
				s = p->file_next ? tsr_trace_read_many_next(p->r, p->batch, p->nbatch,
									    256, &p->have, &p->eof,
									    err)
						 : tsr_trace_read_many(p->r, p->batch, 256, &p->have,
								       &p->eof, err);
				if (s == TSR_OK && p->file_next &&
				    accesses + p->have > TSR_LINE_TRACE_MAX)
					s = tsr_error_set(err, TSR_ERR_LIMIT,
							  "more than %zu line accesses: OPT and "
							  "OPTPT number at most that many",
							  TSR_LINE_TRACE_MAX);
				if (s != TSR_OK)
					break;
			}
			if (!p->have) {
				*end = 1;
				break;
			}
		}
		/* the batch's records in locals (stores of the accesses' bytes would
		 * make the compiler reload fields of *p) */
		size_t at = p->at, frames = 0;
		const size_t have = p->have, first = at;
		int splitting = p->splitting;
		/* next uses from the file: each record is one line access
		 * (trace.h), and UINT64_MAX casts to TSR_LINE_NEVER */
		const uint64_t *const fnext = p->file_next ? p->nbatch : NULL;
		for (; at < have && count < BLOCK && markers < BLOCK; at++) {
			/* the record's fields in locals too: the stores of the
			 * accesses' bytes may alias them */
			const struct tsr_trace_record *rec = &p->batch[at];
			const uint8_t kind = rec->kind;
			const uint64_t first_addr = rec->addr;
			if (kind != TSR_TRACE_ACCESS) {
				frames += kind == TSR_TRACE_FRAME;
				b->mk[markers++] = (struct tsr_line_marker){
					.pos = count,
					.value = first_addr,
					.kind = kind == TSR_TRACE_FRAME ? TSR_MARKER_FRAME
									: TSR_MARKER_TILE};
				continue;
			}
			const uint32_t meta = rec->meta;
			const uint8_t stream = rec->stream;
			const uint8_t flags = tsr_line_flags(rec->write, meta);
			/* by the last byte, so that an access ending at 2^64 - 1 is kept */
			const uint64_t last = first_addr + ((rec->size ? rec->size : 1) - 1);
			uint64_t addr = first_addr;
			if (splitting) {
				addr = p->split_addr;
				splitting = 0;
			}
			for (;;) {
				const uint64_t chunk_last = (addr | mask) < last ? (addr | mask) : last;
				if (next && accesses >= next_count) {
					s = tsr_error_set(err, TSR_ERR_IO,
							  "trace changed while it was replayed (more "
							  "accesses than the first pass read)");
					goto out;
				}
				if (lines && !line_set_add(lines, addr >> shift)) {
					s = tsr_error_set(err, TSR_ERR_NOMEM,
							  "out of memory for the set of lines");
					goto out;
				}
				acc[count++] = (struct tsr_line_access){
					.addr = addr,
					.next_use = next ? (uint32_t)next[accesses]
						    : fnext ? (uint32_t)fnext[at] : TSR_LINE_NEVER,
					.size_m1 = (uint16_t)(chunk_last - addr),
					.stream = stream,
					.flags = flags};
				/* without a branch (a third of the accesses of a
				 * TCOR trace carry a meta, interleaved) */
				metas[nmeta] = meta;
				nmeta += meta != 0;
				accesses++;
				if (chunk_last == last)
					break;
				addr = chunk_last + 1;
				if (count == BLOCK) {
					/* the rest of this record goes to the next block */
					splitting = 1;
					p->split_addr = addr;
					break;
				}
			}
			if (splitting)
				break;  /* at stays on the record being split */
		}
	out:
		p->splitting = splitting;
		p->records += at - first;
		p->frames += frames;
		p->at = at;
		if (s != TSR_OK)
			break;
	}
	p->accesses = accesses;
	b->count = count;
	b->meta_count = nmeta;
	b->markers = markers;
	return s;
}

/*
 * Pass 2 on the calling thread: blocks filled and fed to the caches in
 * turn (each cache through the whole block in turn).
 */
static enum tsr_status replay_pass(struct pass *p, struct tsr_rk_set *rs, struct block *b,
				   const uint64_t *next, size_t next_count,
				   struct line_set *lines, struct tsr_error *err)
{
	for (int end = 0; !end;) {
		struct fill_dst d = block_dst(b);
		TSR_TRY(fill_block(p, &d, next, next_count, lines, &end, err));
		tsr_rk_set_run(rs, b->acc, d.count, b->metas, b->mk, d.markers);
	}
	return TSR_OK;
}

/*
 * Pass 2 on two threads: a reader thread reads, decodes and splits the
 * trace into a ring of blocks while the calling thread feeds them to the
 * caches in order. The caches see the same accesses in the same order as
 * replay_pass(), so every counter is the same.
 */
#define RING 16

struct reader {
	pthread_mutex_t mu;
	pthread_cond_t filled, freed;
	struct block *ring[RING];
	size_t produced, consumed;  /* blocks */
	int done;                   /* the reader has stopped (end or error) */
	enum tsr_status status;
	struct tsr_error err;
	struct pass *p;
	const uint64_t *next;
	size_t next_count;
	struct line_set *lines;
};

static void *reader_main(void *arg)
{
	struct reader *rd = arg;
	for (int end = 0; !end;) {
		pthread_mutex_lock(&rd->mu);
		while (rd->produced - rd->consumed == RING)
			pthread_cond_wait(&rd->freed, &rd->mu);
		struct block *b = rd->ring[rd->produced % RING];
		pthread_mutex_unlock(&rd->mu);
		struct fill_dst d = block_dst(b);
		enum tsr_status s = fill_block(rd->p, &d, rd->next, rd->next_count, rd->lines, &end,
					       &rd->err);
		block_set(b, &d);
		pthread_mutex_lock(&rd->mu);
		if (s != TSR_OK) {
			rd->status = s;
			end = 1;
		} else {
			rd->produced++;
		}
		rd->done = end;
		pthread_cond_signal(&rd->filled);
		pthread_mutex_unlock(&rd->mu);
	}
	return NULL;
}

/*
 * replay_pass() with a reader thread and ring[0 .. RING) as its blocks;
 * *started = 0 (and nothing read) when the thread cannot start.
 */
static enum tsr_status replay_pass_threaded(struct pass *p, struct tsr_rk_set *rs,
					    struct block *ring, const uint64_t *next,
					    size_t next_count, struct line_set *lines,
					    int *started, struct tsr_error *err)
{
	struct reader rd = {.p = p, .next = next, .next_count = next_count, .lines = lines};
	for (int i = 0; i < RING; i++)
		rd.ring[i] = &ring[i];
	*started = 0;
	if (pthread_mutex_init(&rd.mu, NULL))
		return TSR_OK;
	pthread_t th;
	if (pthread_cond_init(&rd.filled, NULL) == 0) {
		if (pthread_cond_init(&rd.freed, NULL) == 0) {
			*started = pthread_create(&th, NULL, reader_main, &rd) == 0;
			if (!*started)
				pthread_cond_destroy(&rd.freed);
		}
		if (!*started)
			pthread_cond_destroy(&rd.filled);
	}
	if (!*started) {
		pthread_mutex_destroy(&rd.mu);
		return TSR_OK;
	}
	pthread_mutex_lock(&rd.mu);
	for (;;) {
		while (rd.consumed == rd.produced && !rd.done)
			pthread_cond_wait(&rd.filled, &rd.mu);
		if (rd.consumed == rd.produced)
			break;  /* done, every block replayed */
		const struct block *b = rd.ring[rd.consumed % RING];
		pthread_mutex_unlock(&rd.mu);
		tsr_rk_set_run(rs, b->acc, b->count, b->metas, b->mk, b->markers);
		pthread_mutex_lock(&rd.mu);
		rd.consumed++;
		pthread_cond_signal(&rd.freed);
	}
	pthread_mutex_unlock(&rd.mu);
	pthread_join(th, NULL);
	pthread_cond_destroy(&rd.freed);
	pthread_cond_destroy(&rd.filled);
	pthread_mutex_destroy(&rd.mu);
	if (rd.status != TSR_OK)
		*err = rd.err;
	return rd.status;
}

/*
 * Makes room for need elements of elem bytes in arr (*cap of them now):
 * *out = arr, or arr reallocated by half, and to at least GROW_FIRST
 * bytes: glibc serves an allocation of more than 32 MiB (its largest
 * dynamic threshold) with mmap() and grows it by remapping its pages,
 * where a smaller one would be copied (its untouched pages cost
 * nothing). The first allocation takes `first` elements if more (the
 * estimate of what the whole trace needs; only address space until
 * written), falling back to the usual size if that fails. (Transparent
 * huge pages for these arrays made a recorded trace's load faster in a
 * loop but a fresh process's load slower on this project's virtual
 * machine, trace A's 0.73 -> 1.23 s: not asked for.) The memory budget
 * is checked against what is used (need `what`, e.g. "line accesses").
 * Errors: TSR_ERR_LIMIT, TSR_ERR_NOMEM (arr is kept then).
 */
#define GROW_FIRST ((size_t)33 << 20)

static enum tsr_status grow(const char *path, const char *what, void *arr, size_t *cap,
			    size_t need, size_t elem, size_t first, void **out,
			    struct tsr_error *err)
{
	*out = arr;
	if (need <= *cap)
		return TSR_OK;
	char msg[512];
	snprintf(msg, sizeof(msg), "trace '%.400s' (%zu %s)", path, need, what);
	TSR_TRY(tsr_memory_check(msg, (uint64_t)need * elem, err));
	size_t nc = *cap + *cap / 2 > need ? *cap + *cap / 2 : need;
	if (nc < GROW_FIRST / elem)
		nc = GROW_FIRST / elem;
	void *na = NULL;
	if (!arr && first > nc)
		na = malloc(first * elem);  /* NULL (e.g. no overcommit): the usual size */
	if (na)
		nc = first;
	else
		na = realloc(arr, nc * elem);
	if (!na)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for trace '%s'", path);
	*out = na;
	*cap = nc;
	return TSR_OK;
}

/*
 * The line accesses of a binary trace to reserve room for at first, in
 * elements of elem bytes: LOAD_PER_BYTE per byte of the file (recorded
 * traces hold 0.8 line accesses a compressed byte), within the memory
 * budget; 0 for a text trace (whose parsing takes far longer than the
 * growth) or when the file cannot be measured. Room reserved once is not
 * remapped as the trace grows (only address space until written).
 */
#define LOAD_PER_BYTE 2

static size_t first_capacity(const struct tsr_trace_reader *r, const char *path, size_t elem)
{
	struct stat st;
	const int og = tsr_trace_reader_format(r) == TSR_TRACE_FMT_ORACLE_GENERAL;
	if ((!tsr_trace_reader_binary(r) && !og) || stat(path, &st) != 0 || st.st_size <= 0)
		return 0;
	/* oracleGeneral: one line access a 24-byte record */
	uint64_t n = og ? (uint64_t)st.st_size / 24 + 1 : (uint64_t)st.st_size * LOAD_PER_BYTE;
	const uint64_t most = tsr_memory_budget_bytes() / elem;
	if (n > most)
		n = most;
	if (n > TSR_LINE_TRACE_MAX)
		n = TSR_LINE_TRACE_MAX;
	return (size_t)n;
}

enum tsr_status tsr_line_trace_load(const char *path, uint64_t max_records, uint32_t line_bytes,
				    int next_uses, struct tsr_line_trace *out,
				    struct tsr_replay_file_info *info, struct tsr_error *err)
{
	return tsr_line_trace_load_format(path, NULL, max_records, line_bytes, next_uses, out,
					  info, err);
}

enum tsr_status tsr_line_trace_load_format(const char *path, const struct tsr_trace_format *fmt,
					   uint64_t max_records, uint32_t line_bytes,
					   int next_uses, struct tsr_line_trace *out,
					   struct tsr_replay_file_info *info,
					   struct tsr_error *err)
{
	struct tsr_replay_file_info dummy;
	if (!info)
		info = &dummy;
	memset(info, 0, sizeof(*info));
	memset(out, 0, sizeof(*out));
	TSR_TRY(tsr_line_size_check(line_bytes, &out->line_shift, err));
	out->line_bytes = line_bytes;
	double t0 = seconds();
	struct pass p;
	TSR_TRY(pass_open(&p, path, fmt, max_records, out->line_shift, err));
	tsr_trace_reader_copy_description(p.r, info->description, sizeof(info->description));
	struct tsr_line_marker *mk = malloc(BLOCK * sizeof(*mk));
	struct line_set lines = {0};
	size_t cap = 0, meta_cap = 0, mcap = 0;
	const size_t first = first_capacity(p.r, path, sizeof(*out->accesses));
	enum tsr_status s = mk ? TSR_OK
			       : tsr_error_set(err, TSR_ERR_NOMEM, "out of memory reading '%s'", path);
	for (int end = 0; s == TSR_OK && !end;) {
		/* room for a block at the arrays' ends: the accesses are split
		 * straight into them */
		void *na, *nmeta;
		s = grow(path, "line accesses", out->accesses, &cap, out->count + BLOCK,
			 sizeof(*out->accesses), first, &na, err);
		out->accesses = na;
		if (s == TSR_OK)
			s = grow(path, "metas", out->metas, &meta_cap, out->meta_count + BLOCK,
				 sizeof(*out->metas), first, &nmeta, err);
		if (s != TSR_OK)
			break;
		out->metas = nmeta;
		struct fill_dst d = {.acc = out->accesses + out->count,
				     .metas = out->metas + out->meta_count,
				     .mk = mk};
		s = fill_block(&p, &d, NULL, 0, next_uses ? NULL : &lines, &end, err);
		if (s == TSR_OK && out->count + d.count > TSR_LINE_TRACE_MAX)
			s = tsr_error_set(err, TSR_ERR_LIMIT,
					  "trace '%s' has more than %zu line accesses, the most a line "
					  "trace holds", path, TSR_LINE_TRACE_MAX);
		if (s != TSR_OK)
			break;
		if (out->marker_count + d.markers > mcap) {
			size_t nc = mcap + mcap / 2 > out->marker_count + d.markers
					    ? mcap + mcap / 2
					    : out->marker_count + BLOCK;
			void *nm = realloc(out->markers, nc * sizeof(*out->markers));
			if (!nm) {
				s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for trace '%s'",
						  path);
				break;
			}
			out->markers = nm;
			mcap = nc;
		}
		for (size_t i = 0; i < d.markers; i++) {
			out->markers[out->marker_count + i] = mk[i];
			out->markers[out->marker_count + i].pos += out->count;
		}
		out->count += d.count;
		out->meta_count += d.meta_count;
		out->marker_count += d.markers;
	}
	tsr_trace_reader_close(p.r);
	free(mk);
	out->frames = p.frames;
	info->records = p.records;
	info->accesses = p.accesses;
	info->frames = p.frames;
	info->replay_seconds = seconds() - t0;
	if (s == TSR_OK && next_uses) {
		t0 = seconds();
		s = tsr_line_trace_index(out, err);
		info->prepare_seconds = seconds() - t0;
		info->next_use_bytes = out->count * sizeof(out->accesses[0].next_use);
	} else if (s == TSR_OK) {
		out->distinct_lines = lines.count;
		out->no_next_uses = 1;
	}
	info->distinct_lines = out->distinct_lines;
	line_set_release(&lines);
	if (s != TSR_OK)
		tsr_line_trace_release(out);
	return s;
}

enum tsr_status tsr_replay_file(const char *path, uint64_t max_records,
				const struct tsr_cache_geometry *g,
				const char *const *policies, uint32_t n,
				unsigned threads, struct tsr_replay_result *out,
				struct tsr_replay_file_info *info, struct tsr_error *err)
{
	return tsr_replay_file_format(path, NULL, max_records, g, policies, n, threads, out, info,
				      err);
}

enum tsr_status tsr_replay_file_format(const char *path, const struct tsr_trace_format *fmt,
				       uint64_t max_records, const struct tsr_cache_geometry *g,
				       const char *const *policies, uint32_t n, unsigned threads,
				       struct tsr_replay_result *out,
				       struct tsr_replay_file_info *info, struct tsr_error *err)
{
	struct tsr_replay_file_info dummy;
	if (!info)
		info = &dummy;
	memset(info, 0, sizeof(*info));
	uint32_t shift;
	TSR_TRY(tsr_line_size_check(g->line_bytes, &shift, err));

	struct tsr_rk_set rs;
	TSR_TRY(tsr_rk_set_create(g, policies, n, &rs, err));
	/* one block, or the reader thread's ring */
	const int nblocks = threads > 1 ? RING : 1;
	struct block *blk = malloc(nblocks * sizeof(*blk));
	if (!blk) {
		tsr_rk_set_destroy(&rs);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a replay");
	}
	enum tsr_status s = TSR_OK;
	int offline = 0;
	for (uint32_t i = 0; i < n; i++)
		offline |= tsr_policy_find(policies[i])->offline;

	uint64_t *next = NULL;
	size_t next_cap = 0, next_count = 0;
	struct line_map map = {0};
	struct line_set lines = {0};
	struct pass p = {0};
	int file_next = 0;  /* the file's next accesses serve the offline policies */
	if (s == TSR_OK && offline) {
		double t0 = seconds();
		s = pass_open(&p, path, fmt, max_records, shift, err);
		file_next = s == TSR_OK && tsr_trace_reader_has_next(p.r);
		if (s == TSR_OK && !file_next)
			s = next_use_pass(&p, &next, &next_cap, &map, err);
		next_count = p.accesses;
		info->distinct_lines = map.count;
		info->next_use_bytes = (uint64_t)next_cap * sizeof(*next);
		free(map.slots);  /* not needed any more */
		map = (struct line_map){0};
		if (!file_next) {
			tsr_trace_reader_close(p.r);
			p.r = NULL;
		}
		info->prepare_seconds = seconds() - t0;
	}
	/* the set of lines counts distinct lines unless the next-use pass did */
	const int count_lines = !offline || file_next;
	if (s == TSR_OK) {
		double t0 = seconds();
		if (!file_next)
			s = pass_open(&p, path, fmt, max_records, shift, err);
		p.file_next = file_next;
		if (s == TSR_OK) {
			tsr_trace_reader_copy_description(p.r, info->description,
							  sizeof(info->description));
			int threaded = 0;
			if (nblocks > 1)
				s = replay_pass_threaded(&p, &rs, blk, next, next_count,
							 count_lines ? &lines : NULL, &threaded, err);
			if (!threaded)
				s = replay_pass(&p, &rs, blk, next, next_count,
						count_lines ? &lines : NULL, err);
			info->reader_thread = threaded;
		}
		if (s == TSR_OK && offline && !file_next && p.accesses != next_count)
			s = tsr_error_set(err, TSR_ERR_IO,
					  "trace '%s' changed while it was replayed (%zu accesses, "
					  "then %zu)", path, next_count, p.accesses);
		tsr_trace_reader_close(p.r);
		info->records = p.records;
		info->accesses = p.accesses;
		info->frames = p.frames;
		if (count_lines)
			info->distinct_lines = lines.count;
		info->replay_seconds = seconds() - t0;
	}
	if (s == TSR_OK)
		tsr_rk_set_results(&rs, policies, out);
	free(map.slots);
	line_set_release(&lines);
	free(next);
	free(blk);
	tsr_rk_set_destroy(&rs);
	return s;
}
