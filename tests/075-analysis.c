/*
 * 075-analysis.c - the trace analyses (src/analysis/): reuse and stack
 * distances, intra/inter-frame reuse and the IIRD of boustrophedonic
 * III-D, accesses per set per tile (III-E) and the epochs of GSPC 2.3.
 *
 * Hand traces are written as strings (see build()): letters are lines
 * (A = line 0 at address 0, B = line 1 at 64, ...), so with 2 sets
 * A, C, E, G map to set 0 and B, D, F to set 1. Every expected value is
 * worked out in the comments. Random traces check the stack distance
 * against an LRU replay (the key property: LRU with W ways hits exactly
 * the accesses of stack distance < W) and the IIRD against a brute-force
 * quadratic reference.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "cachesim/replay.h"

#define LINE 64u

static struct tsr_error err;

/* ---------------------------------------------------------------- helpers */

static enum tsr_stream stream_of(char c)
{
	switch (c) {
	case 't': return TSR_STREAM_TEXTURE;
	case 'r': return TSR_STREAM_RENDER_TARGET;
	case 'c': return TSR_STREAM_COLOR;
	case 'z': return TSR_STREAM_Z;
	default: return TSR_STREAM_OTHER;
	}
}

/*
 * A line trace from a spec: space-separated tokens, "A".."Z" an access to
 * that line (optionally "A:t" with a stream: t texture, r render_target,
 * c color, z z; default other), "|" a frame marker, "/" a tile marker.
 */
static void build(const char *spec, struct tsr_line_trace *lt)
{
	struct tsr_access acc[256];
	struct tsr_line_marker mk[64];
	size_t n = 0, m = 0, frames = 0;
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
		if (!strcmp(tok, "|") || !strcmp(tok, "/")) {
			int frame = tok[0] == '|';
			mk[m] = (struct tsr_line_marker){.pos = n, .value = frame ? frames : m,
							 .kind = frame ? TSR_MARKER_FRAME
								       : TSR_MARKER_TILE};
			m++;
			frames += frame;
			continue;
		}
		assert_true(tok[0] >= 'A' && tok[0] <= 'Z');
		acc[n++] = (struct tsr_access){.addr = (uint64_t)(tok[0] - 'A') * LINE + 4,
					       .size = 4,
					       .stream = (uint8_t)stream_of(tok[1] == ':' ? tok[2] : 'o'),
					       .next_use = TSR_NEVER};
	}
	assert_int_equal(tsr_line_trace_from_accesses(acc, n, LINE, lt, &err), TSR_OK);
	lt->markers = malloc((m ? m : 1) * sizeof(*lt->markers));
	assert_non_null(lt->markers);
	memcpy(lt->markers, mk, m * sizeof(*mk));
	lt->marker_count = m;
	lt->frames = frames;
}

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state % n);
}

/*
 * A random trace of n accesses: half from a hot set of 48 lines, half from
 * 600 lines, so distances spread over many bins; random streams and writes.
 */
static void random_trace(size_t n, uint64_t seed, struct tsr_line_trace *lt)
{
	struct tsr_access *acc = calloc(n, sizeof(*acc));
	assert_non_null(acc);
	rng_state = seed;
	static const uint8_t streams[] = {TSR_STREAM_TEXTURE, TSR_STREAM_COLOR,
					  TSR_STREAM_RENDER_TARGET, TSR_STREAM_Z,
					  TSR_STREAM_VERTEX};
	for (size_t i = 0; i < n; i++) {
		uint64_t line = rnd(2) ? rnd(48) : rnd(600);
		acc[i] = (struct tsr_access){.addr = line * LINE + rnd(LINE / 4) * 4,
					     .size = 4,
					     .write = (uint8_t)(rnd(4) == 0),
					     .stream = streams[rnd(5)],
					     .next_use = TSR_NEVER};
	}
	assert_int_equal(tsr_line_trace_from_accesses(acc, n, LINE, lt, &err), TSR_OK);
	free(acc);
}

static struct tsr_cache_geometry geometry(uint32_t sets, uint32_t ways, const char *policy)
{
	return tsr_test_geometry(sets, ways, LINE, policy);
}

static uint64_t hits_of(const struct tsr_cache_counters *k)
{
	return k->reads + k->writes - k->read_misses - k->write_misses;
}

/* ---------------------------------------------------------------- reuse */

static void test_bins(void **state)
{
	(void)state;
	assert_int_equal(tsr_reuse_bin(0), 0);
	assert_int_equal(tsr_reuse_bin(1), 1);
	assert_int_equal(tsr_reuse_bin(2), 2);
	assert_int_equal(tsr_reuse_bin(3), 2);
	assert_int_equal(tsr_reuse_bin(4), 3);
	assert_int_equal(tsr_reuse_bin(7), 3);
	assert_int_equal(tsr_reuse_bin((1u << 24) - 1), 24);
	assert_int_equal(tsr_reuse_bin(1u << 24), TSR_REUSE_BINS - 1);
	assert_int_equal(tsr_reuse_bin(UINT64_MAX - 1), TSR_REUSE_BINS - 1);
	for (uint32_t b = 0; b < TSR_REUSE_BINS; b++) {
		assert_int_equal(tsr_reuse_bin(tsr_reuse_bin_low(b)), b);
		if (b + 1 < TSR_REUSE_BINS)
			assert_int_equal(tsr_reuse_bin(tsr_reuse_bin_high(b)), b);
	}
	assert_true(tsr_reuse_bin_high(TSR_REUSE_BINS - 1) == UINT64_MAX);
}

static void test_reuse_hand(void **state)
{
	(void)state;
	struct tsr_line_trace lt;
	/*
	 * sets = 1:  A     B:t   B:t   B:t   A     C     A
	 * reuse      cold  cold  0     0     3     cold  1
	 * stack      cold  cold  0     0     1     cold  1
	 */
	build("A B:t B:t B:t A C A", &lt);
	struct tsr_reuse_params p = {.sets = 1, .ways = 2, .stream = TSR_ANALYSIS_ALL_STREAMS};
	struct tsr_reuse_result r;
	assert_int_equal(tsr_reuse_analyze(&lt, &p, &r, &err), TSR_OK);
	assert_int_equal(r.distinct_lines, 3);
	assert_int_equal(r.total.accesses, 7);
	assert_int_equal(r.total.reuse.cold, 3);
	assert_int_equal(r.total.reuse.bins[0], 2);
	assert_int_equal(r.total.reuse.bins[1], 1);
	assert_int_equal(r.total.reuse.bins[2], 1);  /* 2-3 */
	assert_int_equal(r.total.stack.cold, 3);
	assert_int_equal(r.total.stack.bins[0], 2);
	assert_int_equal(r.total.stack.bins[1], 2);
	assert_int_equal(r.total.stack.bins[2], 0);
	assert_int_equal(r.total.lru_hits, 4);  /* stack < 2 */
	const struct tsr_reuse_stats *tex = &r.streams[TSR_STREAM_TEXTURE];
	assert_int_equal(tex->accesses, 3);
	assert_int_equal(tex->reuse.cold, 1);
	assert_int_equal(tex->reuse.bins[0], 2);
	const struct tsr_reuse_stats *oth = &r.streams[TSR_STREAM_OTHER];
	assert_int_equal(oth->accesses, 4);
	assert_int_equal(oth->reuse.cold, 2);
	assert_int_equal(oth->reuse.bins[1], 1);
	assert_int_equal(oth->reuse.bins[2], 1);
	assert_int_equal(oth->stack.bins[1], 2);

	/*
	 * sets = 2: set 0 sees A A C A (A cold, A 0/0, C cold, A 1/1), set 1
	 * sees B B B (cold, 0/0, 0/0).
	 */
	p.sets = 2;
	assert_int_equal(tsr_reuse_analyze(&lt, &p, &r, &err), TSR_OK);
	assert_int_equal(r.total.reuse.cold, 3);
	assert_int_equal(r.total.reuse.bins[0], 3);
	assert_int_equal(r.total.reuse.bins[1], 1);
	assert_int_equal(r.total.stack.bins[0], 3);
	assert_int_equal(r.total.stack.bins[1], 1);

	/* only texture: B B B */
	p.stream = TSR_STREAM_TEXTURE;
	assert_int_equal(tsr_reuse_analyze(&lt, &p, &r, &err), TSR_OK);
	assert_int_equal(r.total.accesses, 3);
	assert_int_equal(r.distinct_lines, 1);
	assert_int_equal(r.streams[TSR_STREAM_OTHER].accesses, 0);

	/* per-access distances of the same trace, sets = 1 */
	uint64_t st[7], re[7];
	assert_int_equal(tsr_stack_distances(&lt, 1, st, re, &err), TSR_OK);
	const uint64_t N = TSR_NEVER;
	const uint64_t want_st[7] = {N, N, 0, 0, 1, N, 1}, want_re[7] = {N, N, 0, 0, 3, N, 1};
	for (int i = 0; i < 7; i++) {
		assert_true(st[i] == want_st[i]);
		assert_true(re[i] == want_re[i]);
	}

	p.sets = 0;
	assert_int_equal(tsr_reuse_analyze(&lt, &p, &r, &err), TSR_ERR_CONFIG);
	tsr_line_trace_release(&lt);
}

/* Records the hit flag of every access of an LRU replay. */
static void record_hit(void *ctx, uint32_t cache, size_t index, const struct tsr_access *a,
		       const struct tsr_cache_outcome *o)
{
	(void)cache;
	(void)a;
	((uint8_t *)ctx)[index] = o->hit;
}

/* LRU with W ways hits exactly the accesses with stack distance < W. */
static void check_stack_vs_lru(const struct tsr_line_trace *lt, uint32_t sets, uint32_t ways)
{
	struct tsr_cache_geometry g = geometry(sets, ways, "lru");
	struct tsr_cache *c = NULL;
	assert_int_equal(tsr_cache_create(&g, "t", &c, &err), TSR_OK);
	uint8_t *hit = calloc(lt->count, 1);
	uint64_t *st = malloc(lt->count * sizeof(*st)), *re = malloc(lt->count * sizeof(*re));
	assert_true(hit && st && re);
	tsr_replay_caches(lt, &c, 1, record_hit, hit);
	assert_int_equal(tsr_stack_distances(lt, sets, st, re, &err), TSR_OK);
	uint64_t hits = 0;
	for (size_t i = 0; i < lt->count; i++) {
		if (hit[i] != (st[i] < ways))
			fail_msg("access %zu: LRU %s but stack distance %llu (%u sets x %u ways)", i,
				 hit[i] ? "hit" : "missed", (unsigned long long)st[i], sets, ways);
		hits += hit[i];
	}
	/* reuse distances against a quadratic reference on a prefix */
	size_t m = lt->count < 3000 ? lt->count : 3000;
	for (size_t i = 0; i < m; i++) {
		uint64_t line = lt->accesses[i].addr / LINE, between = 0, want = TSR_NEVER;
		for (size_t j = i; j-- > 0;) {
			uint64_t lj = lt->accesses[j].addr / LINE;
			if (lj == line) {
				want = between;
				break;
			}
			between += lj % sets == line % sets;
		}
		assert_true(re[i] == want);
	}
	/* the histogram's lru_hits, in total and per stream */
	struct tsr_reuse_params p = {.sets = sets, .ways = ways,
				     .stream = TSR_ANALYSIS_ALL_STREAMS};
	struct tsr_reuse_result r;
	assert_int_equal(tsr_reuse_analyze(lt, &p, &r, &err), TSR_OK);
	assert_int_equal(r.total.lru_hits, hits);
	assert_int_equal(r.total.accesses, lt->count);
	for (int s = 0; s < TSR_STREAM_COUNT; s++)
		assert_int_equal(r.streams[s].lru_hits,
				 hits_of(tsr_cache_counters_of(c, (enum tsr_stream)s)));
	assert_true(hits > lt->count / 50 && hits < lt->count);  /* a mix of hits and misses */
	free(hit);
	free(st);
	free(re);
	tsr_cache_destroy(c);
}

static void test_stack_distance_is_lru(void **state)
{
	(void)state;
	struct tsr_line_trace lt;
	random_trace(40000, 0x1234567, &lt);
	check_stack_vs_lru(&lt, 16, 4);   /* set-associative */
	check_stack_vs_lru(&lt, 4, 3);    /* odd associativity */
	check_stack_vs_lru(&lt, 1, 64);   /* fully associative */
	check_stack_vs_lru(&lt, 1, 200);
	tsr_line_trace_release(&lt);
}

/* ---------------------------------------------------------------- frames */

static void test_frames_classification(void **state)
{
	(void)state;
	struct tsr_line_trace lt;
	/*
	 * frame 0: A new, B:t new, A intra
	 * frame 1: B:t inter, C new, C intra
	 * frame 2: A inter, D:t new
	 */
	build("A B:t A | B:t C C | A D:t", &lt);
	struct tsr_frames_params p = {.sets = 1, .stream = TSR_ANALYSIS_ALL_STREAMS};
	struct tsr_frames_result r;
	assert_int_equal(tsr_frames_analyze(&lt, &p, &r, &err), TSR_OK);
	assert_int_equal(r.frame_count, 3);
	assert_int_equal(r.total.accesses, 8);
	assert_int_equal(r.total.new_lines, 4);
	assert_int_equal(r.total.intra, 2);
	assert_int_equal(r.total.inter, 2);
	assert_int_equal(r.frames[0].new_lines, 2);
	assert_int_equal(r.frames[0].intra, 1);
	assert_int_equal(r.frames[1].inter, 1);
	assert_int_equal(r.frames[1].intra, 1);
	assert_int_equal(r.frames[1].new_lines, 1);
	assert_int_equal(r.frames[2].inter, 1);
	assert_int_equal(r.frames[2].new_lines, 1);
	const struct tsr_frame_reuse *tex = &r.streams[TSR_STREAM_TEXTURE];
	assert_int_equal(tex->accesses, 3);
	assert_int_equal(tex->new_lines, 2);
	assert_int_equal(tex->inter, 1);
	assert_int_equal(tex->intra, 0);
	/* pair 0-1: {A, B} -> {B, C}: one reuse, one insertion, one deletion */
	assert_int_equal(r.pairs[0].reuses, 1);
	assert_int_equal(r.pairs[0].insertions, 1);
	assert_int_equal(r.pairs[0].deletions, 1);
	tsr_frames_result_release(&r);
	tsr_line_trace_release(&lt);

	/* a marker at position 0 opens frame 0; a final marker opens nothing */
	build("| A B | A |", &lt);
	assert_int_equal(tsr_frames_analyze(&lt, &p, &r, &err), TSR_OK);
	assert_int_equal(r.frame_count, 2);
	assert_int_equal(r.frames[0].new_lines, 2);
	assert_int_equal(r.frames[1].inter, 1);
	assert_int_equal(r.iird.reuses, 1);
	assert_int_equal(r.iird.deletions, 1);
	tsr_frames_result_release(&r);
	tsr_line_trace_release(&lt);

	/* no markers: one frame, all reuses intra-frame */
	build("A B A B", &lt);
	assert_int_equal(tsr_frames_analyze(&lt, &p, &r, &err), TSR_OK);
	assert_int_equal(r.frame_count, 1);
	assert_int_equal(r.total.intra, 2);
	assert_int_equal(r.iird.reuses, 0);
	assert_true(r.iird.last_first == 0.0);
	tsr_frames_result_release(&r);
	tsr_line_trace_release(&lt);
}

static void frames_of(const char *spec, uint32_t sets, struct tsr_frames_result *r)
{
	struct tsr_line_trace lt;
	build(spec, &lt);
	struct tsr_frames_params p = {.sets = sets, .stream = TSR_ANALYSIS_ALL_STREAMS};
	assert_int_equal(tsr_frames_analyze(&lt, &p, r, &err), TSR_OK);
	tsr_line_trace_release(&lt);
}

static void test_iird_circular(void **state)
{
	(void)state;
	struct tsr_frames_result r;
	/* a circular trace, s = 7: last-first = s - 1 = Max for every reuse */
	frames_of("A B C D E F G | A B C D E F G | A B C D E F G | A B C D E F G", 1, &r);
	assert_int_equal(r.frame_count, 4);
	assert_int_equal(r.iird.reuses, 21);
	assert_int_equal(r.iird.insertions, 0);
	assert_int_equal(r.iird.deletions, 0);
	assert_int_equal(r.iird.sum_last_first, 21 * 6);
	assert_true(r.iird.last_first == 6.0);
	assert_true(r.iird.max == 6.0);
	assert_true(r.iird.min == 3.0);
	/* last-last of a forward trace: 0 + 1 + ... + 6 per pair: Min */
	assert_int_equal(r.pairs[1].sum_last_last, 21);
	assert_true(r.iird.last_last == 3.0);
	tsr_frames_result_release(&r);

	/* two sets: s = 4 (A C E G) and 3 (B D F); still last-first = Max */
	frames_of("A B C D E F G | A B C D E F G", 2, &r);
	assert_int_equal(r.iird.reuses, 7);
	assert_int_equal(r.iird.sum_max, 4 * 3 + 3 * 2);
	assert_int_equal(r.iird.sum_last_first, r.iird.sum_max);
	assert_true(r.iird.last_first == r.iird.max);
	assert_int_equal(r.iird.sum_last_last, (0 + 1 + 2 + 3) + (0 + 1 + 2));
	tsr_frames_result_release(&r);

	/* repeats inside frames do not matter: L_f and F_f are still A B C */
	frames_of("A A B B C C | A A B B C C", 1, &r);
	assert_true(r.iird.last_first == 2.0);
	assert_true(r.iird.max == 2.0);
	tsr_frames_result_release(&r);
}

static void test_iird_reversed(void **state)
{
	(void)state;
	struct tsr_frames_result r;
	/* odd frames reversed: last-first = (s - 1) / 2 = Min, last-last = Max */
	frames_of("A B C D E F G | G F E D C B A | A B C D E F G", 1, &r);
	assert_int_equal(r.iird.reuses, 14);
	assert_int_equal(r.iird.sum_last_first, 2 * 21);
	assert_true(r.iird.last_first == 3.0);
	assert_true(r.iird.min == 3.0);
	assert_true(r.iird.last_last == 6.0);
	assert_true(r.iird.max == 6.0);
	tsr_frames_result_release(&r);
}

static void test_iird_insertion_deletion(void **state)
{
	(void)state;
	struct tsr_frames_result r;
	/*
	 * Insertion of X after C (s = 7): A B C keep s - 1 = 6, D E F G have
	 * X between their occurrences: (s - 1) + 1 = 7.
	 */
	frames_of("A B C D E F G | A B C X D E F G", 1, &r);
	assert_int_equal(r.iird.reuses, 7);
	assert_int_equal(r.iird.insertions, 1);
	assert_int_equal(r.iird.deletions, 0);
	assert_int_equal(r.iird.sum_last_first, 3 * 6 + 4 * 7);
	assert_int_equal(r.iird.sum_max, 7 * 6);
	tsr_frames_result_release(&r);

	/* deletion of D: A B C keep 6, E F G lose D: (s - 1) - 1 = 5 */
	frames_of("A B C D E F G | A B C E F G", 1, &r);
	assert_int_equal(r.iird.reuses, 6);
	assert_int_equal(r.iird.insertions, 0);
	assert_int_equal(r.iird.deletions, 1);
	assert_int_equal(r.iird.sum_last_first, 3 * 6 + 3 * 5);
	assert_int_equal(r.iird.sum_max, 6 * 6);
	tsr_frames_result_release(&r);

	/* both: X replaces D in place: every reuse keeps s - 1 = 6 */
	frames_of("A B C D E F G | A B C X E F G", 1, &r);
	assert_int_equal(r.iird.insertions, 1);
	assert_int_equal(r.iird.deletions, 1);
	assert_int_equal(r.iird.sum_last_first, 6 * 6);
	tsr_frames_result_release(&r);
}

/* Distinct lines of set `set` strictly between positions i and j of seq. */
static uint64_t distinct_between(const uint64_t *seq, size_t i, size_t j, uint32_t sets,
				 uint64_t set)
{
	uint64_t n = 0;
	for (size_t k = i + 1; k < j; k++) {
		if (seq[k] % sets != set)
			continue;
		int seen = 0;
		for (size_t q = i + 1; q < k && !seen; q++)
			seen = seq[q] == seq[k];
		n += !seen;
	}
	return n;
}

/* IIRD sums of frames [a0, a1) and [b0, b1) of lines[], by brute force. */
static void iird_reference(const uint64_t *lines, size_t a0, size_t a1, size_t b1,
			   uint32_t sets, struct tsr_iird *want)
{
	uint64_t lf[256], ff[256], ln[256];
	size_t nlf = 0, nff = 0, nln = 0;
	for (size_t i = a0; i < a1; i++) {  /* last accesses of frame a */
		int later = 0;
		for (size_t j = i + 1; j < a1; j++)
			later |= lines[j] == lines[i];
		if (!later)
			lf[nlf++] = lines[i];
	}
	for (size_t i = a1; i < b1; i++) {
		int earlier = 0, later = 0;
		for (size_t j = a1; j < i; j++)
			earlier |= lines[j] == lines[i];
		for (size_t j = i + 1; j < b1; j++)
			later |= lines[j] == lines[i];
		if (!earlier)
			ff[nff++] = lines[i];
		if (!later)
			ln[nln++] = lines[i];
	}
	memset(want, 0, sizeof(*want));
	uint64_t seq1[512], seq2[512];
	memcpy(seq1, lf, nlf * sizeof(*lf));
	memcpy(seq1 + nlf, ff, nff * sizeof(*ff));
	memcpy(seq2, lf, nlf * sizeof(*lf));
	for (size_t k = 0; k < nln; k++)
		seq2[nlf + k] = ln[nln - 1 - k];
	for (size_t k = 0; k < nff; k++) {
		size_t p = SIZE_MAX;
		for (size_t q = 0; q < nlf; q++)
			if (lf[q] == ff[k])
				p = q;
		if (p == SIZE_MAX) {
			want->insertions++;
			continue;
		}
		uint64_t set = ff[k] % sets, s_set = 0;
		for (size_t q = 0; q < nlf; q++)
			s_set += lf[q] % sets == set;
		want->reuses++;
		want->sum_max += s_set - 1;
		want->sum_last_first += distinct_between(seq1, p, nlf + k, sets, set);
	}
	for (size_t k = 0; k < nln; k++) {
		size_t p = SIZE_MAX;
		for (size_t q = 0; q < nlf; q++)
			if (lf[q] == seq2[nlf + k])
				p = q;
		if (p != SIZE_MAX)
			want->sum_last_last +=
				distinct_between(seq2, p, nlf + k, sets, seq2[nlf + k] % sets);
	}
	want->deletions = nlf - want->reuses;
}

static void test_iird_random_vs_reference(void **state)
{
	(void)state;
	enum { FRAMES = 6, PER_FRAME = 80 };
	struct tsr_access acc[FRAMES * PER_FRAME];
	struct tsr_line_marker mk[FRAMES];
	uint64_t lines[FRAMES * PER_FRAME];
	rng_state = 0xfeedbeef;
	for (size_t i = 0; i < FRAMES * PER_FRAME; i++) {
		/* a drifting working set: frames share most lines, in varying order */
		uint64_t line = (i / PER_FRAME) * 3 + rnd(40);
		lines[i] = line;
		acc[i] = (struct tsr_access){.addr = line * LINE, .size = 4,
					     .stream = TSR_STREAM_TEXTURE, .next_use = TSR_NEVER};
	}
	for (uint32_t sets = 1; sets <= 4; sets *= 2) {
		struct tsr_line_trace lt;
		assert_int_equal(tsr_line_trace_from_accesses(acc, FRAMES * PER_FRAME, LINE, &lt,
							      &err), TSR_OK);
		lt.markers = malloc(sizeof(mk));
		for (size_t f = 0; f < FRAMES; f++)
			mk[f] = (struct tsr_line_marker){.pos = f * PER_FRAME, .value = f,
							 .kind = TSR_MARKER_FRAME};
		memcpy(lt.markers, mk, sizeof(mk));
		lt.marker_count = FRAMES;
		struct tsr_frames_params p = {.sets = sets, .stream = TSR_ANALYSIS_ALL_STREAMS};
		struct tsr_frames_result r;
		assert_int_equal(tsr_frames_analyze(&lt, &p, &r, &err), TSR_OK);
		assert_int_equal(r.frame_count, FRAMES);
		for (size_t f = 0; f + 1 < FRAMES; f++) {
			struct tsr_iird want;
			iird_reference(lines, f * PER_FRAME, (f + 1) * PER_FRAME,
				       (f + 2) * PER_FRAME, sets, &want);
			const struct tsr_iird *got = &r.pairs[f];
			assert_int_equal(got->reuses, want.reuses);
			assert_int_equal(got->insertions, want.insertions);
			assert_int_equal(got->deletions, want.deletions);
			assert_int_equal(got->sum_max, want.sum_max);
			assert_int_equal(got->sum_last_first, want.sum_last_first);
			assert_int_equal(got->sum_last_last, want.sum_last_last);
			assert_true(got->reuses > 10 && got->insertions > 0);
			/* the bounds of a loop-like trace hold on average */
			assert_true(got->last_first <= got->max + 1e-9 + got->insertions);
		}
		tsr_frames_result_release(&r);
		tsr_line_trace_release(&lt);
	}
}

/* ---------------------------------------------------------------- tile sets */

static void test_tile_sets(void **state)
{
	(void)state;
	struct tsr_line_trace lt;
	/*
	 * sets = 2 (A C E: set 0; B D: set 1)
	 *   A              outside any tile
	 *   T A B:t C:t    set 0: 2 (A C), set 1: 1 (B)
	 *   T A A A C:t    set 0: 4
	 *   F B            outside (the frame marker closes the tile)
	 *   T D:t D:t      set 1: 2
	 */
	build("A / A B:t C:t / A A A C:t | B / D:t D:t", &lt);
	struct tsr_tile_sets_params p = {.sets = 2, .stream = TSR_ANALYSIS_ALL_STREAMS};
	struct tsr_tile_sets_result r;
	assert_int_equal(tsr_tile_sets_analyze(&lt, &p, &r, &err), TSR_OK);
	assert_int_equal(r.tiles, 3);
	assert_int_equal(r.accesses, 9);
	assert_int_equal(r.outside, 2);
	assert_int_equal(r.pairs, 4);
	assert_int_equal(r.hist[0], 1);
	assert_int_equal(r.hist[1], 2);
	assert_int_equal(r.hist[3], 1);
	assert_true(r.multi_fraction == 0.75);

	/* texture only: tile 1: set 0 C, set 1 B; tile 2: set 0 C; tile 3: set 1 D D */
	p.stream = TSR_STREAM_TEXTURE;
	assert_int_equal(tsr_tile_sets_analyze(&lt, &p, &r, &err), TSR_OK);
	assert_int_equal(r.accesses, 5);
	assert_int_equal(r.outside, 0);
	assert_int_equal(r.pairs, 4);
	assert_int_equal(r.hist[0], 3);
	assert_int_equal(r.hist[1], 1);
	assert_true(r.multi_fraction == 0.25);
	tsr_line_trace_release(&lt);

	/* 20 accesses to one set in one tile land in the ">= 16" bin */
	build("/ A A A A A A A A A A C C C C C C C C C C / B", &lt);
	p.stream = TSR_ANALYSIS_ALL_STREAMS;
	assert_int_equal(tsr_tile_sets_analyze(&lt, &p, &r, &err), TSR_OK);
	assert_int_equal(r.hist[TSR_TILE_SET_BINS - 1], 1);
	assert_int_equal(r.hist[0], 1);
	assert_int_equal(r.pairs, 2);
	tsr_line_trace_release(&lt);
}

/* ---------------------------------------------------------------- epochs */

static void test_epochs_lru_hand(void **state)
{
	(void)state;
	struct tsr_line_trace lt;
	/*
	 * One set, 2 ways, LRU:
	 *  1 A:t  fill            texture E0 (|E0| = 1)
	 *  2 A:t  hit from E0     A -> E1
	 *  3 B:r  fill            render_target E0
	 *  4 B:t  RT -> TEX       inter-stream; B enters texture E0 (|E0| = 2)
	 *  5 B:t  hit from E0     B -> E1
	 *  6 A:t  hit from E1     A -> E2
	 *  7 A:t  hit from E2     A -> E3
	 *  8 A:t  hit from E>=3
	 *  9 C:z  fill            evicts B (LRU), which dies in E1
	 * 10 B:t  fill            evicts A (in E3); texture |E0| = 3
	 * 11 C:t  hit on a z block (cross-stream): z hit from E0, C -> z E1
	 * Resident at the end: B (texture E0), C (z E1).
	 */
	build("A:t A:t B:r B:t B:t A:t A:t A:t C:z B:t C:t", &lt);
	struct tsr_cache_geometry g = geometry(1, 2, "lru");
	struct tsr_epoch_result r;
	assert_int_equal(tsr_epochs_analyze(&lt, &g, &r, &err), TSR_OK);
	assert_int_equal(r.sets, 1);
	assert_int_equal(r.ways, 2);
	assert_int_equal(r.inter_stream_hits, 1);
	assert_int_equal(r.cross_stream_hits, 1);
	const struct tsr_epoch_stats *t = &r.streams[TSR_STREAM_TEXTURE];
	assert_int_equal(t->fills, 2);
	assert_int_equal(t->converted, 1);
	assert_int_equal(t->hits[0], 2);
	assert_int_equal(t->hits[1], 1);
	assert_int_equal(t->hits[2], 1);
	assert_int_equal(t->hits[3], 1);
	assert_int_equal(t->entered[0], 3);
	assert_int_equal(t->entered[1], 2);
	assert_int_equal(t->entered[2], 1);
	assert_int_equal(t->entered[3], 1);
	assert_int_equal(t->resident[0], 1);
	assert_true(t->death[0] == 1.0 / 3.0);
	assert_true(t->death[1] == 0.5);
	assert_true(t->death[2] == 0.0);
	const struct tsr_epoch_stats *rt = &r.streams[TSR_STREAM_RENDER_TARGET];
	assert_int_equal(rt->fills, 1);
	assert_int_equal(rt->consumed, 1);
	assert_int_equal(rt->entered[0], 1);
	assert_int_equal(rt->entered[1], 0);
	assert_true(rt->death[0] == 1.0);
	const struct tsr_epoch_stats *z = &r.streams[TSR_STREAM_Z];
	assert_int_equal(z->fills, 1);
	assert_int_equal(z->hits[0], 1);
	assert_int_equal(z->entered[1], 1);
	assert_int_equal(z->resident[1], 1);
	assert_true(z->death[0] == 0.0);
	assert_true(z->death[1] == 1.0);
	/* totals: 7 hits = 6 from epochs + 1 inter-stream; 4 misses */
	assert_int_equal(r.total.hits[0] + r.total.hits[1] + r.total.hits[2] + r.total.hits[3], 6);
	assert_int_equal(hits_of(&r.counters_total), 7);
	assert_int_equal(r.counters_total.read_misses, 4);
	assert_int_equal(r.total.fills, 4);
	assert_int_equal(r.total.entered[0], 5);
	assert_string_equal(r.policy, "lru");

	/* a line size other than the trace's is refused */
	g.line_bytes = 128;
	g.size_bytes = 256;
	assert_int_equal(tsr_epochs_analyze(&lt, &g, &r, &err), TSR_ERR_CONFIG);
	tsr_line_trace_release(&lt);
}

static void check_epochs_match_replay(const struct tsr_line_trace *lt, const char *policy)
{
	struct tsr_cache_geometry g = geometry(8, 4, policy);
	struct tsr_epoch_result r;
	assert_int_equal(tsr_epochs_analyze(lt, &g, &r, &err), TSR_OK);
	const char *pol[1] = {policy};
	struct tsr_replay_result rep;
	assert_int_equal(tsr_replay(lt, &g, pol, 1, &rep, &err), TSR_OK);
	uint64_t epoch_hits = r.inter_stream_hits;
	for (int k = 0; k < TSR_EPOCHS; k++)
		epoch_hits += r.total.hits[k];
	assert_int_equal(epoch_hits, hits_of(&rep.total));
	assert_int_equal(hits_of(&r.counters_total), hits_of(&rep.total));
	assert_int_equal(r.total.fills,
			 rep.total.read_misses + rep.total.write_misses - rep.total.bypasses);
	for (int s = 0; s < TSR_STREAM_COUNT; s++) {
		const struct tsr_epoch_stats *st = &r.streams[s];
		for (int k = 0; k + 1 < TSR_EPOCHS; k++)
			assert_true(st->entered[k + 1] <= st->entered[k]);
		assert_int_equal(st->entered[0], st->fills + st->converted);
	}
	uint64_t resident = 0;
	for (int k = 0; k < TSR_EPOCHS; k++)
		resident += r.total.resident[k];
	assert_int_equal(resident, 8 * 4);  /* the trace fills the whole cache */
	assert_true(r.inter_stream_hits > 0);
}

static void test_epochs_opt_matches_replay(void **state)
{
	(void)state;
	struct tsr_line_trace lt;
	random_trace(20000, 0xabcdef, &lt);
	check_epochs_match_replay(&lt, "opt");
	check_epochs_match_replay(&lt, "lru");
	check_epochs_match_replay(&lt, "optpt");
	tsr_line_trace_release(&lt);
}

/* ---------------------------------------------------------------- CLI */

/* Runs `tessera analyze ARGS` in dir; returns the exit code, stdout in dir/out.txt. */
static int analyze(const char *dir, const char *args)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' analyze %s >out.txt 2>err.txt", dir,
		 TSR_BINARY, args);
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int exists_in(const char *dir, const char *name)
{
	char path[512];
	struct stat sb;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &sb) == 0;
}

/* Does dir/name contain text? */
static int contains(const char *dir, const char *name, const char *text)
{
	char path[512], buf[16384];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, text) != NULL;
}

static void test_cli_analyze(void **state)
{
	(void)state;
	char dir[] = "/tmp/tessera-075-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[512];
	snprintf(path, sizeof(path), "%s/loop.txt", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	/* a circular loop of 7 texture lines over 3 frames, 2 tiles per frame */
	for (int fr = 0; fr < 3; fr++) {
		fprintf(f, "F\n");
		for (int l = 0; l < 7; l++) {
			if (l % 4 == 0)
				fprintf(f, "T %d\n", l / 4);
			fprintf(f, "R 0x%x texture\n", l * 64);
		}
	}
	fprintf(f, "W 0x1000 render_target size=64\nR 0x1000 texture\n");
	fclose(f);
	snprintf(path, sizeof(path), "%s/bad.txt", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "R 0x10 texture\nQ 0x20\n");
	fclose(f);

	assert_int_equal(analyze(dir, "frames loop.txt --csv frames.csv"), 0);
	assert_true(contains(dir, "out.txt", "last-first"));
	/* last-first = max = s - 1 = 6 on the circular loop */
	assert_true(contains(dir, "frames.csv",
			     "1,all,7,0,0,7,7,0,0,6.000000,3.000000,6.000000,3.000000"));
	assert_int_equal(analyze(dir, "reuse loop.txt --size 256 --ways 2 --csv reuse.csv"), 0);
	assert_true(contains(dir, "reuse.csv", "fully_associative,1,all,cold,,,8,8"));
	assert_int_equal(analyze(dir, "tile-sets loop.txt --sets 2 --csv tiles.csv"), 0);
	assert_true(contains(dir, "tiles.csv", "accesses_per_set,pairs,fraction"));
	assert_int_equal(analyze(dir, "epochs loop.txt --size 512 --ways full --policy opt "
				      "--csv epochs.csv"), 0);
	assert_true(contains(dir, "out.txt", "render target -> texture 1"));
	assert_true(exists_in(dir, "epochs.csv"));

	/* usage errors: exit 2; a bad trace: exit 1 and no CSV */
	assert_int_equal(analyze(dir, "sizes loop.txt"), 2);
	assert_int_equal(analyze(dir, "reuse loop.txt --size 100 --ways 2"), 2);
	assert_int_equal(analyze(dir, "tile-sets loop.txt"), 2);
	assert_int_equal(analyze(dir, "epochs loop.txt --size 512 --ways 2 --policy nope"), 2);
	assert_true(contains(dir, "err.txt", "tessera: "));
	assert_int_equal(analyze(dir, "frames bad.txt --csv never.csv"), 1);
	assert_true(contains(dir, "err.txt", "line 2"));
	assert_false(exists_in(dir, "never.csv"));
	assert_false(exists_in(dir, "never.csv.tmp"));

	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bins),
		cmocka_unit_test(test_reuse_hand),
		cmocka_unit_test(test_stack_distance_is_lru),
		cmocka_unit_test(test_frames_classification),
		cmocka_unit_test(test_iird_circular),
		cmocka_unit_test(test_iird_reversed),
		cmocka_unit_test(test_iird_insertion_deletion),
		cmocka_unit_test(test_iird_random_vs_reference),
		cmocka_unit_test(test_tile_sets),
		cmocka_unit_test(test_epochs_lru_hand),
		cmocka_unit_test(test_epochs_opt_matches_replay),
		cmocka_unit_test(test_cli_analyze),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
