/*
 * rng.h - a tiny seeded, deterministic pseudo-random generator for the
 * model's randomised decisions (Random replacement, BRRIP and BIP
 * insertion).
 *
 * SplitMix64 (Steele, Lea and Flood, OOPSLA 2014; Vigna's public-domain
 * reference code): a 64-bit state advanced by a constant and passed
 * through a mixing function. Every seed, 0 included, is valid, and one
 * seed gives one sequence on every platform and compiler, so runs are
 * reproducible; seeded with 0 it starts 0xe220a8397b1dcdaf,
 * 0x6e789e6aa1b965f4, 0x06c45d188009454f (the published reference values,
 * checked by tests/060-memory-policies.c). Plain data: one instance per
 * user, no global state. Not for cryptography.
 */
#ifndef TSR_CORE_RNG_H
#define TSR_CORE_RNG_H

#include <stdint.h>

struct tsr_rng {
	uint64_t state;
};

static inline void tsr_rng_seed(struct tsr_rng *r, uint64_t seed)
{
	r->state = seed;
}

/* The next 64-bit output. */
static inline uint64_t tsr_rng_next(struct tsr_rng *r)
{
	uint64_t z = (r->state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/*
 * A number uniformly distributed in [0, n), n > 0: Lemire's
 * multiply-and-shift on the high 32 bits of an output, with rejection of
 * the few values that would bias it (Lemire, ACM TOMACS 2019), so that the
 * result is exactly uniform. Usually one output, no division.
 */
static inline uint32_t tsr_rng_below(struct tsr_rng *r, uint32_t n)
{
	uint64_t m = (tsr_rng_next(r) >> 32) * (uint64_t)n;
	if ((uint32_t)m < n) {
		uint32_t threshold = (0u - n) % n;  /* 2^32 mod n */
		while ((uint32_t)m < threshold)
			m = (tsr_rng_next(r) >> 32) * (uint64_t)n;
	}
	return (uint32_t)(m >> 32);
}

#endif
