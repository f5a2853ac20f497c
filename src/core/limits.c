/*
 * limits.c - the memory budget of core/limits.h: half the physical memory
 * or TESSERA_MEMORY_LIMIT, read on every call (cheap next to the
 * allocations it guards, and tests can change it).
 */
#include "core/limits.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#define MIB (1024.0 * 1024.0)

/* TESSERA_MEMORY_LIMIT as bytes; 0 if unset or malformed. */
static uint64_t env_limit(void)
{
	const char *v = getenv("TESSERA_MEMORY_LIMIT");
	if (!v || !*v || *v == '-')
		return 0;
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	if (errno || end == v)
		return 0;
	uint64_t mul = 1;
	if (*end == 'K' || *end == 'k')
		mul = 1ull << 10;
	else if (*end == 'M' || *end == 'm')
		mul = 1ull << 20;
	else if (*end == 'G' || *end == 'g')
		mul = 1ull << 30;
	if (mul != 1)
		end++;
	if (*end || n > UINT64_MAX / mul)
		return 0;
	return n * mul;
}

static int from_env(void)
{
	return env_limit() != 0;
}

uint64_t tsr_memory_budget_bytes(void)
{
	uint64_t b = env_limit();
	if (!b) {
		long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
		b = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 2 : 1ull << 32;
	}
	return b < (1ull << 20) ? 1ull << 20 : b;
}

enum tsr_status tsr_memory_check(const char *what, uint64_t bytes, struct tsr_error *err)
{
	uint64_t budget = tsr_memory_budget_bytes();
	if (bytes <= budget)
		return TSR_OK;
	return tsr_error_set(err, TSR_ERR_LIMIT,
			     "%s needs %llu bytes (%.1f MiB), more than the memory limit of %.1f MiB "
			     "(%s)",
			     what, (unsigned long long)bytes, (double)bytes / MIB,
			     (double)budget / MIB,
			     from_env() ? "TESSERA_MEMORY_LIMIT"
					: "half the physical memory; TESSERA_MEMORY_LIMIT sets another");
}
