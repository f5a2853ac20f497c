/*
 * policy_table.c - the one table that maps policy names and aliases to
 * their operations, and the helpers every policy shares: parameter
 * parsing and the choice of leader sets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"
#include "memory/policy.h"

static const struct {
	const char *name;
	const struct tsr_policy_ops *ops;
} policies[] = {
	{"lru", &tsr_policy_lru},
	{"mru", &tsr_policy_mru},
	{"fifo", &tsr_policy_fifo},
	{"random", &tsr_policy_random},
	{"nru", &tsr_policy_nru},
	{"srrip", &tsr_policy_srrip},
	{"brrip", &tsr_policy_brrip},
	{"drrip", &tsr_policy_drrip},
	{"ship-mem", &tsr_policy_ship_mem},
	{"ship", &tsr_policy_ship_mem},   /* alias */
	{"dip", &tsr_policy_dip},
	{"opt", &tsr_policy_opt},
	{"belady", &tsr_policy_opt},     /* alias */
	{"min", &tsr_policy_opt},        /* alias */
	{"optpt", &tsr_policy_optpt},
	{"tcor-l2", &tsr_policy_tcor_l2},
	{"gs-drrip", &tsr_policy_gs_drrip},
	{"gspztc", &tsr_policy_gspztc},
	{"gspztc+tse", &tsr_policy_gspztc_tse},
	{"gspztc-tse", &tsr_policy_gspztc_tse},  /* alias */
	{"gspc", &tsr_policy_gspc},
};

/* The "+ucd" suffix of a spec's name part (policy.h, uncached displayable color). */
#define UCD_SUFFIX "+ucd"
#define UCD_LEN (sizeof(UCD_SUFFIX) - 1)

int tsr_policy_spec_ucd(const char *spec)
{
	size_t n = strcspn(spec, ":");
	return n > UCD_LEN && strncmp(spec + n - UCD_LEN, UCD_SUFFIX, UCD_LEN) == 0;
}

#define POLICY_COUNT (sizeof(policies) / sizeof(policies[0]))

const struct tsr_policy_ops *tsr_policy_find(const char *spec)
{
	size_t n = strcspn(spec, ":");
	if (tsr_policy_spec_ucd(spec))
		n -= UCD_LEN;
	for (size_t i = 0; i < POLICY_COUNT; i++)
		if (strlen(policies[i].name) == n &&
		    strncmp(policies[i].name, spec, n) == 0)
			return policies[i].ops;
	return NULL;
}

const char *tsr_policy_spec_params(const char *spec)
{
	const char *c = strchr(spec, ':');
	return c && c[1] ? c + 1 : NULL;
}

void tsr_policy_list(char *buf, unsigned n)
{
	size_t used = 0;
	if (n)
		buf[0] = '\0';
	for (size_t i = 0; i < POLICY_COUNT; i++) {
		if (strcmp(policies[i].ops->name, policies[i].name) != 0)
			continue;  /* aliases are not listed */
		int w = snprintf(buf + used, n - used, "%s%s", used ? ", " : "",
				 policies[i].name);
		if (w < 0 || (size_t)w >= n - used)
			break;
		used += (size_t)w;
	}
}

void tsr_policy_ignore(void *state, uint32_t set, uint32_t way,
		       const struct tsr_line *set_lines, const struct tsr_access *a)
{
	(void)state;
	(void)set;
	(void)way;
	(void)set_lines;
	(void)a;
}

enum tsr_status tsr_policy_check_online(const char *spec, const char *where,
					const char *cache, struct tsr_error *err)
{
	const struct tsr_policy_ops *ops = tsr_policy_find(spec);
	if (ops && ops->offline)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "%s: policy '%s' needs future knowledge; record the cache's input "
				     "with 'tessera run --record-trace %s=FILE' and replay it with "
				     "'tessera cachesim'",
				     where, spec, cache);
	return TSR_OK;
}

enum tsr_status tsr_policy_params_parse(const struct tsr_policy_config *cfg,
					const char *policy,
					const char *const *keys,
					const uint64_t *min, const uint64_t *max,
					uint64_t *vals, struct tsr_error *err)
{
	const char *p = cfg->params;
	const char *cache = cfg->cache ? cfg->cache : "?";
	char valid[256];
	while (p && *p) {
		size_t len = strcspn(p, ",");
		const char *eq = memchr(p, '=', len);
		size_t klen = eq ? (size_t)(eq - p) : len;
		int k = -1;
		for (int i = 0; keys[i]; i++)
			if (strlen(keys[i]) == klen && strncmp(keys[i], p, klen) == 0)
				k = i;
		if (k < 0) {
			tsr_names_join(valid, sizeof(valid), keys);
			if (!keys[0])
				snprintf(valid, sizeof(valid), "none");
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "cache '%s': policy '%s' has no parameter '%.*s' (valid: %s)",
					     cache, policy, (int)klen, p, valid);
		}
		char num[32];
		size_t vlen = eq ? len - klen - 1 : 0;
		if (!eq || vlen == 0 || vlen >= sizeof(num))
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "cache '%s': policy '%s' parameter '%s' needs a value (%s=N)",
					     cache, policy, keys[k], keys[k]);
		memcpy(num, eq + 1, vlen);
		num[vlen] = '\0';
		char *end;
		errno = 0;
		unsigned long long v = strtoull(num, &end, 0);
		if (errno || *end || num[0] == '-' || v < min[k] || v > max[k])
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "cache '%s': policy '%s' parameter '%s' is '%s', not an integer from %llu to %llu",
					     cache, policy, keys[k], num,
					     (unsigned long long)min[k], (unsigned long long)max[k]);
		vals[k] = v;
		p += len;
		if (*p == ',')
			p++;
	}
	return TSR_OK;
}

enum tsr_set_role tsr_policy_set_role(uint32_t set, uint32_t sets,
				      uint32_t leaders)
{
	if (sets < 4 || leaders == 0)
		return TSR_SET_FOLLOWER;
	if (leaders > sets / 4)
		leaders = sets / 4;
	uint32_t size = sets / leaders;  /* sets per constituency (>= 4) */
	uint32_t r = set / size, off = set % size;
	if (r >= leaders)
		return TSR_SET_FOLLOWER;  /* sets not a multiple of leaders */
	if (off == r % size)
		return TSR_SET_LEADER_A;
	if (off == size - 1 - r % size)
		return TSR_SET_LEADER_B;
	return TSR_SET_FOLLOWER;
}
