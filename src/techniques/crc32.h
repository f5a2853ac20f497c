/*
 * crc32.h - the incremental CRC32 of Rendering Elimination (RE Section
 * III-C to III-G, Algorithms 1-3): the signature of a tile's inputs is
 * built block by block while the frame is binned, without knowing the
 * message's length in advance.
 *
 * The units work on the pure (linear) CRC-32 of the IEEE polynomial in
 * zlib's bit order (reflected, 0xEDB88320), without initial value or final
 * XOR, because only that CRC is linear: for a message A1 || A2 of which A2
 * is b bits long, CRC(A1 || A2) = CRC(CRC(A1) << b) XOR CRC(A2)
 * (Algorithm 1). tsr_crc32_standard() turns it into the standard CRC-32
 * that zlib's crc32() computes, for comparisons and tests.
 *
 *  - Sign subunit (Fig. 10): the CRC of one 64-bit subblock, as the XOR of
 *    eight 256-entry look-up tables, one per byte position (III-D).
 *  - Shift subunit (Fig. 11): the CRC of a 32-bit CRC followed by 32 zero
 *    bits, i.e. a CRC advanced over 64 zero bits (four of the tables).
 *  - Compute CRC unit (Algorithm 2, Fig. 8): signs a block of 64-bit
 *    subblocks and reports its length in subblocks (the shift amount).
 *  - Accumulate CRC unit (Algorithm 3, Fig. 9): shifts a tile's partial
 *    signature over a block's length; XORed with the block's CRC it gives
 *    the tile's new signature.
 *
 * Blocks are whole 64-bit subblocks (the Compute CRC unit's granularity;
 * scene constants and 48-byte attributes both are). The tables are built
 * once, on first use, and are read-only afterwards; nothing allocates.
 */
#ifndef TSR_TECHNIQUES_CRC32_H
#define TSR_TECHNIQUES_CRC32_H

#include <stddef.h>
#include <stdint.h>

#define TSR_CRC_SUBBLOCK_BYTES 8

/* Sign subunit: pure CRC of one 8-byte subblock (bytes in message order). */
uint32_t tsr_crc_sign(const uint8_t subblock[TSR_CRC_SUBBLOCK_BYTES]);

/* Shift subunit: pure CRC of crc << 64 (crc followed by 64 zero bits). */
uint32_t tsr_crc_shift(uint32_t crc);

/* A block signed by the Compute CRC unit. */
struct tsr_crc_block {
	uint32_t crc;        /* pure CRC of the block */
	uint32_t subblocks;  /* its length in 64-bit subblocks (the shift amount) */
};

/*
 * Compute CRC unit (Algorithm 2): signs `bytes` bytes (a multiple of 8) at
 * data. Returns {0, 0} for an empty block.
 */
struct tsr_crc_block tsr_crc_compute(const void *data, size_t bytes);

/*
 * Accumulate CRC unit (Algorithm 3) followed by the final XOR of Algorithm
 * 1: the pure CRC of (message signed so far as `signature`) || block.
 * Costs block.subblocks Shift steps.
 */
uint32_t tsr_crc_accumulate(uint32_t signature, struct tsr_crc_block block);

/*
 * The standard CRC-32 (zlib's crc32(0, data, bytes)) of a message whose
 * pure CRC is `pure` and whose length is `bytes` (a multiple of 8).
 */
uint32_t tsr_crc32_standard(uint32_t pure, size_t bytes);

#endif
