/*
 * 080-techniques-crc.c - the incremental CRC32 of Rendering Elimination
 * (src/techniques/crc32.c, RE III-C to III-G), checked against zlib's
 * crc32(): for random messages cut into random blocks, Algorithm 1 built
 * from the Compute CRC and Accumulate CRC units gives exactly the
 * standard CRC-32 of the whole message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "techniques/crc32.h"

static uint32_t zlib_crc(const uint8_t *p, size_t n)
{
	return (uint32_t)crc32(0L, p, (uInt)n);
}

/* Sign and Shift agree with the definitions they implement. */
static void test_sign_and_shift_units(void **state)
{
	(void)state;
	/* a single subblock: its pure CRC, made standard, is zlib's */
	uint8_t s[8] = {'1', '2', '3', '4', '5', '6', '7', '8'};
	assert_int_equal(tsr_crc32_standard(tsr_crc_sign(s), 8), zlib_crc(s, 8));
	/* "123456789" is not a multiple of 8; "12345678" has a known CRC-32 */
	assert_int_equal(zlib_crc(s, 8), 0x9AE0DAAFu);
	/* zero subblocks sign to zero (the CRC is linear) */
	uint8_t z[8] = {0};
	assert_int_equal(tsr_crc_sign(z), 0);
	assert_int_equal(tsr_crc_shift(0), 0);
	/* Shift(R) is the pure CRC of R's four bytes followed by four zeros */
	uint32_t r = 0xDEADBEEFu;
	uint8_t m[8] = {0xEF, 0xBE, 0xAD, 0xDE, 0, 0, 0, 0};
	assert_int_equal(tsr_crc_shift(r), tsr_crc_sign(m));
	/* an empty block leaves a signature unchanged */
	struct tsr_crc_block e = tsr_crc_compute(s, 0);
	assert_int_equal(e.subblocks, 0);
	assert_int_equal(tsr_crc_accumulate(0x1234u, e), 0x1234u);
}

/* Compute CRC (Algorithm 2) on whole messages equals zlib. */
static void test_compute_equals_zlib(void **state)
{
	(void)state;
	srand(2024);
	uint8_t msg[4096];
	for (int trial = 0; trial < 200; trial++) {
		size_t n = (size_t)(rand() % 512) * 8;
		for (size_t i = 0; i < n; i++)
			msg[i] = (uint8_t)rand();
		struct tsr_crc_block b = tsr_crc_compute(msg, n);
		assert_int_equal(b.subblocks, n / 8);
		assert_int_equal(tsr_crc32_standard(b.crc, n), zlib_crc(msg, n));
	}
}

/* Algorithm 1 over random splits equals the CRC of the whole message. */
static void test_any_split_equals_zlib(void **state)
{
	(void)state;
	srand(7);
	uint8_t msg[2048];
	for (int trial = 0; trial < 500; trial++) {
		size_t subblocks = 1 + (size_t)(rand() % 256), n = subblocks * 8;
		for (size_t i = 0; i < n; i++)
			msg[i] = (uint8_t)rand();
		uint32_t sig = 0;
		size_t at = 0, blocks = 0;
		while (at < n) {
			size_t len = 8 * (size_t)(rand() % 9);  /* 0..64 bytes, empty blocks too */
			if (at + len > n)
				len = n - at;
			sig = tsr_crc_accumulate(sig, tsr_crc_compute(msg + at, len));
			at += len;
			blocks++;
		}
		assert_true(blocks >= 1);
		assert_int_equal(tsr_crc32_standard(sig, n), zlib_crc(msg, n));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sign_and_shift_units),
		cmocka_unit_test(test_compute_equals_zlib),
		cmocka_unit_test(test_any_split_equals_zlib),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
