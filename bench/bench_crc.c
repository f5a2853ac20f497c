/*
 * bench_crc.c - throughput of Rendering Elimination's signature units
 * (not a test), one core:
 *   - Compute CRC unit (RE Algorithm 2): signing blocks of 112 bytes (a
 *     primitive's attributes), 176 bytes (a drawcall's constants) and
 *     1024 bytes (a 16x16 RGBA8 tile for Transaction Elimination), in
 *     64-bit subblocks per second;
 *   - Accumulate CRC unit (Algorithm 3): tile signature updates per second
 *     for a 14-subblock primitive block;
 *   - zlib's crc32() on the same bytes, for reference.
 * Usage: bench_crc [MEGABYTES]  (default 256 per measurement)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zlib.h>

#include "bench_util.h"
#include "core/rng.h"
#include "techniques/crc32.h"

int main(int argc, char **argv)
{
	bench_print_context(argc, argv);
	unsigned long mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 256;
	if (mb == 0 || mb > 65536) {
		fprintf(stderr, "bench_crc: MEGABYTES must be 1..65536\n");
		return 2;
	}
	enum { BUF = 1 << 20 };
	unsigned char *buf = malloc(BUF);
	if (!buf) {
		fprintf(stderr, "bench_crc: out of memory\n");
		return 1;
	}
	struct tsr_rng rng;
	tsr_rng_seed(&rng, 1);
	for (size_t i = 0; i < BUF; i++)
		buf[i] = (unsigned char)tsr_rng_below(&rng, 256);
	const size_t total = (size_t)mb << 20;
	static const size_t blocks[] = {112, 176, 1024};
	uint32_t sink = 0;
	printf("%-34s %12s %12s\n", "unit", "M subblk/s", "MB/s");
	for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++) {
		size_t n = blocks[b], per_buf = BUF / n;
		double t0 = now_seconds();
		size_t done = 0;
		while (done < total) {
			for (size_t i = 0; i < per_buf; i++)
				sink ^= tsr_crc_compute(buf + i * n, n).crc;
			done += per_buf * n;
		}
		double dt = now_seconds() - t0;
		char label[64];
		snprintf(label, sizeof(label), "Compute CRC, %zu-byte blocks", n);
		printf("%-34s %12.1f %12.1f\n", label, (double)done / 8 / dt / 1e6,
		       (double)done / dt / 1048576.0);
	}
	/* Accumulate: a tile signature absorbing 14-subblock primitive blocks */
	{
		struct tsr_crc_block p = tsr_crc_compute(buf, 112);
		size_t steps = total / 112;
		uint32_t sig = 0;
		double t0 = now_seconds();
		for (size_t i = 0; i < steps; i++) {
			p.crc ^= (uint32_t)i;
			sig = tsr_crc_accumulate(sig, p);
		}
		double dt = now_seconds() - t0;
		sink ^= sig;
		printf("%-34s %12.1f %12s  (%.1f M updates/s)\n", "Accumulate CRC, 14 subblocks",
		       (double)steps * 14 / dt / 1e6, "-", (double)steps / dt / 1e6);
	}
	{
		double t0 = now_seconds();
		size_t done = 0;
		uLong c = 0;
		while (done < total) {
			c = crc32(c, buf, BUF);
			done += BUF;
		}
		double dt = now_seconds() - t0;
		sink ^= (uint32_t)c;
		printf("%-34s %12.1f %12.1f\n", "zlib crc32 (reference)", (double)done / 8 / dt / 1e6,
		       (double)done / dt / 1048576.0);
	}
	printf("(checksum %08x)\n", sink);
	free(buf);
	return 0;
}
