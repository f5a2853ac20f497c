#include "techniques/crc32.h"

#include <stdatomic.h>

#define POLY 0xEDB88320u  /* IEEE 802.3, reflected (zlib) */

/* lut[j][b]: pure CRC of byte b followed by 7 - j zero bytes (III-D). */
static uint32_t lut[8][256];
static atomic_int lut_ready;

/* Pure CRC of `n` bytes with the bitwise shift-register method. */
static uint32_t crc_bitwise(uint32_t crc, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ POLY : crc >> 1;
	}
	return crc;
}

static void build_luts(void)
{
	if (atomic_load_explicit(&lut_ready, memory_order_acquire))
		return;
	for (int j = 0; j < 8; j++)
		for (int b = 0; b < 256; b++) {
			uint8_t msg[8] = {0};
			msg[0] = (uint8_t)b;
			lut[j][b] = crc_bitwise(0, msg, (size_t)(8 - j));
		}
	/* racing builders write the same values; the flag only saves work */
	atomic_store_explicit(&lut_ready, 1, memory_order_release);
}

uint32_t tsr_crc_sign(const uint8_t s[TSR_CRC_SUBBLOCK_BYTES])
{
	build_luts();
	uint32_t crc = 0;
	for (int j = 0; j < 8; j++)
		crc ^= lut[j][s[j]];
	return crc;
}

uint32_t tsr_crc_shift(uint32_t crc)
{
	build_luts();
	/* the 64-bit message: the CRC's 4 bytes (in zlib's order), 4 zero bytes */
	return lut[0][crc & 0xff] ^ lut[1][(crc >> 8) & 0xff] ^
	       lut[2][(crc >> 16) & 0xff] ^ lut[3][crc >> 24];
}

struct tsr_crc_block tsr_crc_compute(const void *data, size_t bytes)
{
	const uint8_t *p = data;
	struct tsr_crc_block out = {0, 0};
	for (size_t i = 0; i + TSR_CRC_SUBBLOCK_BYTES <= bytes; i += TSR_CRC_SUBBLOCK_BYTES) {
		/* Algorithm 2: CRC_Out = Sign(A_i) XOR Shift(CRC_Out) */
		out.crc = tsr_crc_sign(p + i) ^ tsr_crc_shift(out.crc);
		out.subblocks++;
	}
	return out;
}

uint32_t tsr_crc_accumulate(uint32_t signature, struct tsr_crc_block block)
{
	/* Algorithm 3: shift the tile's partial signature over the block */
	for (uint32_t k = 0; k < block.subblocks; k++)
		signature = tsr_crc_shift(signature);
	/* Algorithm 1: CRC_A = CRC_Ai XOR CRC_Temporary */
	return signature ^ block.crc;
}

uint32_t tsr_crc32_standard(uint32_t pure, size_t bytes)
{
	/* zlib starts the register at 0xFFFFFFFF and inverts the result: by
	 * linearity that adds the all-ones register advanced over the message */
	uint32_t init = 0xFFFFFFFFu;
	for (size_t i = 0; i < bytes / TSR_CRC_SUBBLOCK_BYTES; i++)
		init = tsr_crc_shift(init);
	return pure ^ init ^ 0xFFFFFFFFu;
}
