/*
 * policy_table.c - the one table that maps policy names and aliases to
 * their operations.
 */
#include <stdio.h>
#include <string.h>

#include "memory/policy.h"

static const struct {
	const char *name;
	const struct tsr_policy_ops *ops;
} policies[] = {
	{"lru", &tsr_policy_lru},
};

const struct tsr_policy_ops *tsr_policy_find(const char *name)
{
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (strcmp(policies[i].name, name) == 0)
			return policies[i].ops;
	return NULL;
}

void tsr_policy_list(char *buf, unsigned n)
{
	size_t used = 0;
	if (n)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		int w = snprintf(buf + used, n - used, "%s%s", i ? ", " : "",
				 policies[i].name);
		if (w < 0 || (size_t)w >= n - used)
			break;
		used += (size_t)w;
	}
}
