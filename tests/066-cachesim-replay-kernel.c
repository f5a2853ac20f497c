/*
 * 066-cachesim-replay-kernel.c - the replay kernel (src/cachesim/
 * replay_kernel.h), which tsr_replay() and tsr_replay_file() run for LRU,
 * MRU, FIFO, NRU, SRRIP, BRRIP, DRRIP and OPT, gives every counter of
 * every stream exactly as the generic caches (tsr_replay_caches(), i.e.
 * tsr_cache_access()) do: random traces with reads and writes of every
 * size (partly written lines, merges), every stream (render-target and
 * texture reuse, uncached display), through caches of 1 to 64 ways (3
 * and 12 too), 100 ways and 1024 (fully associative: the wide-set kernel
 * of LRU, MRU, FIFO and OPT), write-back and write-through, fetch on write or byte
 * masks, 64- and 256-byte lines, with policy parameters and seeds, and
 * tags of more than 32 bits coming in the middle of a trace.
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

#include "cachesim/linetrace.h"
#include "cachesim/replay.h"
#include "memory/policy.h"

static uint64_t xs(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * n random line-contained accesses over about `lines` lines of line_bytes;
 * with `wide`, a quarter of the second half's accesses go 2^50 bytes
 * higher: the same set and the same low 32 bits of the tag above the set
 * (the kernel's narrow keys), another line.
 */
static struct tsr_access *random_trace(size_t n, uint64_t lines, uint32_t line_bytes,
				       uint64_t seed, int wide)
{
	struct tsr_access *a = calloc(n, sizeof(*a));
	assert_non_null(a);
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1, line = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t r = xs(&x);
		/* runs of neighbouring lines, jumps, and re-use */
		if (r % 4 == 0)
			line = xs(&x) % lines;
		else if (r % 4 == 1)
			line = (line + 1) % lines;
		uint32_t off, size;
		switch (xs(&x) % 6) {
		case 0:
			off = 0, size = line_bytes;
			break;
		case 1:
			size = 0, off = (uint32_t)(xs(&x) % line_bytes);
			break;
		case 2:
			size = 4, off = (uint32_t)(xs(&x) % (line_bytes / 4)) * 4;
			break;
		default:
			off = (uint32_t)(xs(&x) % line_bytes);
			size = 1 + (uint32_t)(xs(&x) % (line_bytes - off));
			break;
		}
		a[i].addr = (line + 0x4000) * line_bytes + off;
		if (wide && i >= n / 2 && xs(&x) % 4 == 0)
			a[i].addr += UINT64_C(1) << 50;
		a[i].size = size;
		a[i].write = (xs(&x) % 3) == 0;
		a[i].stream = (uint8_t)(xs(&x) % TSR_STREAM_COUNT);
		a[i].meta = (uint32_t)xs(&x);
		a[i].next_use = TSR_NEVER;
	}
	return a;
}

static void compare(const struct tsr_line_trace *lt, const struct tsr_cache_geometry *g,
		    const char *const *pol, uint32_t n)
{
	struct tsr_error err;
	struct tsr_replay_result fast[16], slow[16];
	assert_true(n <= 16);
	assert_int_equal(tsr_replay(lt, g, pol, n, fast, &err), TSR_OK);
	struct tsr_cache **caches;
	assert_int_equal(tsr_replay_caches_create(g, pol, n, &caches, &err), TSR_OK);
	tsr_replay_caches(lt, caches, n, NULL, NULL);
	tsr_replay_caches_results(caches, pol, n, slow);
	tsr_replay_caches_destroy(caches, n);
	for (uint32_t i = 0; i < n; i++) {
		if (memcmp(&fast[i], &slow[i], sizeof(fast[i])) != 0) {
			fprintf(stderr, "policy %s, %u bytes %u ways %u-byte lines fow %u wt %u: "
				"misses %llu+%llu, generic %llu+%llu\n", pol[i], g->size_bytes,
				g->ways, g->line_bytes, g->fetch_on_write, g->write_through,
				(unsigned long long)fast[i].total.read_misses,
				(unsigned long long)fast[i].total.write_misses,
				(unsigned long long)slow[i].total.read_misses,
				(unsigned long long)slow[i].total.write_misses);
			fail();
		}
	}
}

/* accesses per trace: over three times each geometry's capacity in lines,
 * every line used about five times even in the 1024-way cache */
#define TRACE_N 15000

static void test_kernel_equals_generic(void **state)
{
	(void)state;
	static const char *const pol[] = {
		"lru", "mru", "fifo", "nru", "srrip", "srrip:bits=3", "brrip",
		"brrip:throttle=4,seed=7", "drrip", "drrip:leaders=2,psel_bits=3,bits=3",
		"opt", "lru+ucd", "drrip+ucd", "fifo+ucd", "srrip:bits=1", "mru+ucd"};
	/* over 16 ways LRU, MRU and FIFO take the wide-set kernel (hash index,
	 * lists), over 64 OPT too (a heap); 1024 ways: fully associative */
	static const uint32_t ways[] = {1, 2, 3, 4, 8, 12, 16, 32, 64, 100, 1024};
	static const uint32_t line[] = {64, 256};
	struct tsr_error err;
	int geometries = 0;
	for (size_t li = 0; li < 2; li++) {
		for (size_t wi = 0; wi < sizeof(ways) / sizeof(ways[0]); wi++) {
			const uint32_t sets = ways[wi] > 100 ? 1 : ways[wi] >= 32 ? 4 : 16;
			const uint64_t lines = (uint64_t)sets * ways[wi] * 3;
			struct tsr_access *acc = random_trace(TRACE_N, lines, line[li], 11 + wi + li,
							      li == 1);
			struct tsr_line_trace lt;
			assert_int_equal(tsr_line_trace_from_accesses(acc, TRACE_N, line[li], &lt, &err),
					 TSR_OK);
			free(acc);
			for (int variant = 0; variant < 3; variant++) {
				struct tsr_cache_geometry g = tsr_test_geometry(sets, ways[wi], line[li],
										"lru");
				g.fetch_on_write = variant == 1;
				g.write_through = variant == 2;
				g.seed = variant == 2 ? 12345 : 0;
				compare(&lt, &g, pol, 16);
				geometries++;
			}
			tsr_line_trace_release(&lt);
		}
	}
	assert_int_equal(geometries, 66);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_equals_generic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
