/*
 * 080-techniques-crc.c - the incremental CRC32 of Rendering Elimination
 * (src/techniques/crc32.c, RE III-C to III-G), checked against zlib's
 * crc32(): for random messages cut into random blocks, Algorithm 1 built
 * from the Compute CRC and Accumulate CRC units gives exactly the
 * standard CRC-32 of the whole message. The Signature Unit (RE III-E,
 * III-F) is checked on the Fig. 6 example and on frame-to-frame changes.
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
#include "techniques/signature_unit.h"

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

/* Fig. 6: drawcall F (primitive C: tiles 0, 2), drawcall S (A: 1, 2, 3; B: 1, 3). */
struct fig6 {
	uint8_t cf[64], cs[64], a[48], b[48], c[48];
};

static void fig6_fill(struct fig6 *d, uint8_t seed)
{
	uint8_t *p = (uint8_t *)d;
	for (size_t i = 0; i < sizeof(*d); i++)
		p[i] = (uint8_t)(seed * 31 + i * 7 + 1);
}

static void fig6_frame(struct tsr_signature_unit *su, const struct fig6 *d)
{
	static const uint32_t tc[] = {0, 2}, ta[] = {1, 2, 3}, tb[] = {1, 3};
	tsr_su_constants(su, d->cf, sizeof(d->cf));
	tsr_su_primitive(su, d->c, sizeof(d->c), tc, 2);
	tsr_su_constants(su, d->cs, sizeof(d->cs));
	tsr_su_primitive(su, d->a, sizeof(d->a), ta, 3);
	tsr_su_primitive(su, d->b, sizeof(d->b), tb, 2);
}

/* The standard CRC-32 of the concatenation of up to four parts. */
static uint32_t message_crc(const void *p0, size_t n0, const void *p1, size_t n1,
			    const void *p2, size_t n2, const void *p3, size_t n3)
{
	uint8_t m[512];
	size_t n = 0;
	const void *ps[4] = {p0, p1, p2, p3};
	size_t ns[4] = {n0, n1, n2, n3};
	for (int i = 0; i < 4; i++) {
		if (ns[i])
			memcpy(m + n, ps[i], ns[i]);
		n += ns[i];
	}
	return zlib_crc(m, n);
}

static uint32_t standard(const struct tsr_signature_unit *su, uint32_t tile, size_t bytes)
{
	return tsr_crc32_standard(tsr_su_signature(su, tile), bytes);
}

/* A Signature Unit for the four tiles of Fig. 6. */
static struct tsr_signature_unit *fig6_unit(void)
{
	struct tsr_signature_unit *su = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_su_create(4, &su, &err), TSR_OK);
	return su;
}

static void test_fig6_signatures(void **state)
{
	(void)state;
	struct tsr_signature_unit *su = fig6_unit();
	struct fig6 d;
	fig6_fill(&d, 1);
	tsr_su_begin_frame(su);
	fig6_frame(su, &d);
	/* tile 0: CF C; tile 1: CS A B; tile 2: CF C CS A; tile 3: CS A B */
	assert_int_equal(standard(su, 0, 64 + 48), message_crc(d.cf, 64, d.c, 48, NULL, 0, NULL, 0));
	assert_int_equal(standard(su, 1, 64 + 96),
			 message_crc(d.cs, 64, d.a, 48, d.b, 48, NULL, 0));
	assert_int_equal(standard(su, 2, 128 + 96),
			 message_crc(d.cf, 64, d.c, 48, d.cs, 64, d.a, 48));
	assert_int_equal(standard(su, 3, 64 + 96),
			 message_crc(d.cs, 64, d.a, 48, d.b, 48, NULL, 0));
	/* the constants of S were combined once into tiles 1 and 3 */
	const struct tsr_su_counters *c = tsr_su_counters_of(su);
	assert_int_equal(c->constant_blocks, 2);
	assert_int_equal(c->primitive_blocks, 3);
	assert_int_equal(c->ot_pushes, 7);
	assert_int_equal(c->ot_max, 3);
	/* 7 primitive updates; constants: F into tiles 0, 2, S into tiles 1, 2, 3 */
	assert_int_equal(c->accumulate_steps, 7 + 5);
	assert_int_equal(c->subblocks_signed, 2 * 8 + 3 * 6);
	assert_int_equal(c->shift_steps, 7 * 6 + 5 * 8);
	tsr_su_destroy(su);
}

/*
 * Frames 0, 1, 2 with double buffering: frame 2 is compared with frame 0.
 * An identical frame is equal in every tile; a changed primitive or
 * changed constants change exactly the tiles they reach.
 */
static void test_frame_comparisons(void **state)
{
	(void)state;
	struct tsr_signature_unit *su = fig6_unit();
	struct fig6 d0, d1;
	fig6_fill(&d0, 1);
	fig6_fill(&d1, 2);
	tsr_su_begin_frame(su);
	fig6_frame(su, &d0);
	for (uint32_t t = 0; t < 4; t++)
		assert_false(tsr_su_same_as(su, t, 2));  /* nothing signed two frames back */
	tsr_su_end_frame(su);
	fig6_frame(su, &d1);
	tsr_su_end_frame(su);
	fig6_frame(su, &d0);  /* identical to two frames back */
	for (uint32_t t = 0; t < 4; t++) {
		assert_true(tsr_su_same_as(su, t, 2));
		assert_false(tsr_su_same_as(su, t, 1));
	}
	tsr_su_end_frame(su);
	/* change primitive B only: tiles 1 and 3 differ from the last frame */
	struct fig6 d2 = d0;
	d2.b[5] ^= 1;
	fig6_frame(su, &d2);
	static const int same_b[4] = {1, 0, 1, 0};
	for (uint32_t t = 0; t < 4; t++)
		assert_int_equal(tsr_su_same_as(su, t, 1), same_b[t]);
	tsr_su_end_frame(su);
	/* change the constants of F only: tiles 0 and 2 differ from the last frame */
	struct fig6 d3 = d2;
	d3.cf[0] ^= 0x80;
	fig6_frame(su, &d3);
	static const int same_cf[4] = {0, 1, 0, 1};
	for (uint32_t t = 0; t < 4; t++)
		assert_int_equal(tsr_su_same_as(su, t, 1), same_cf[t]);
	tsr_su_destroy(su);
}

/*
 * A texture upload invalidates the older signatures: tiles with equal
 * inputs still compare equal (tsr_su_inputs_equal) but may not be skipped
 * (tsr_su_same_as) until two frames have been signed after it.
 */
static void test_invalidate(void **state)
{
	(void)state;
	struct tsr_signature_unit *su = fig6_unit();
	struct fig6 d;
	fig6_fill(&d, 1);
	for (int f = 0; f < 2; f++) {
		fig6_frame(su, &d);
		tsr_su_end_frame(su);
	}
	fig6_frame(su, &d);
	assert_true(tsr_su_comparable(su, 2));
	assert_true(tsr_su_same_as(su, 0, 2));
	tsr_su_invalidate(su);  /* the upload frame */
	assert_false(tsr_su_comparable(su, 1));
	for (uint32_t t = 0; t < 4; t++) {
		assert_true(tsr_su_inputs_equal(su, t, 2));
		assert_false(tsr_su_same_as(su, t, 2));
	}
	tsr_su_end_frame(su);
	fig6_frame(su, &d);  /* the next frame: its back buffer predates the upload */
	assert_true(tsr_su_comparable(su, 1));
	assert_false(tsr_su_comparable(su, 2));
	assert_false(tsr_su_same_as(su, 1, 2));
	tsr_su_end_frame(su);
	fig6_frame(su, &d);
	assert_true(tsr_su_comparable(su, 2));
	for (uint32_t t = 0; t < 4; t++)
		assert_true(tsr_su_same_as(su, t, 2));
	/* the counters of one frame: ot_max restarts with each frame */
	struct tsr_su_counters base = *tsr_su_counters_of(su), delta;
	tsr_su_end_frame(su);
	assert_int_equal(tsr_su_counters_of(su)->ot_max, 0);
	fig6_frame(su, &d);
	tsr_counters_delta(&tsr_counters_signature_unit, &delta, tsr_su_counters_of(su), &base);
	assert_int_equal(delta.primitive_blocks, 3);
	assert_int_equal(delta.constant_blocks, 2);
	assert_int_equal(delta.ot_pushes, 7);
	assert_int_equal(delta.ot_max, 3);
	tsr_su_destroy(su);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sign_and_shift_units),
		cmocka_unit_test(test_compute_equals_zlib),
		cmocka_unit_test(test_any_split_equals_zlib),
		cmocka_unit_test(test_fig6_signatures),
		cmocka_unit_test(test_frame_comparisons),
		cmocka_unit_test(test_invalidate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
