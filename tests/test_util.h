/*
 * test_util.h - helpers the cmocka tests share (header only: the tests
 * are one executable per tests/NNN-*.c file).
 */
#ifndef TSR_TESTS_TEST_UTIL_H
#define TSR_TESTS_TEST_UTIL_H

#include <stdio.h>
#include <string.h>

#include "memory/cache.h"
#include "memory/policy.h"

/* sets x ways lines of line_bytes, the given policy spec, fetch on write. */
static inline struct tsr_cache_geometry tsr_test_geometry(uint32_t sets, uint32_t ways,
							  uint32_t line_bytes,
							  const char *policy)
{
	struct tsr_cache_geometry g;
	memset(&g, 0, sizeof(g));
	g.size_bytes = sets * ways * line_bytes;
	g.ways = ways;
	g.line_bytes = line_bytes;
	g.latency_cycles = 1;
	g.fetch_on_write = 1;
	snprintf(g.policy, sizeof(g.policy), "%s", policy);
	return g;
}

/*
 * The state of policy `name` for sets x ways (seed 1, parameters params or
 * NULL), to drive its hooks directly on a hand-made tag store (ChampSim
 * style); *ops receives its operations. Include after <cmocka.h>.
 */
static inline void *tsr_test_policy_state(const char *name, uint32_t sets, uint32_t ways,
					  uint32_t line_bytes, const char *params,
					  const struct tsr_policy_ops **ops)
{
	*ops = tsr_policy_find(name);
	assert_non_null(*ops);
	struct tsr_policy_config cfg = {.sets = sets, .ways = ways, .line_bytes = line_bytes,
					.seed = 1, .params = params, .cache = "hooks"};
	void *st = NULL;
	struct tsr_error err;
	assert_int_equal((*ops)->create(&cfg, &st, &err), TSR_OK);
	return st;
}

#endif
