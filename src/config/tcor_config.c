#include "config/tcor_config.h"

#include <string.h>

#include "core/limits.h"
#include "memory/policy.h"
#include "tiling/parameter_buffer.h"

static const char *const policy_names[TSR_AC_POLICY_COUNT] = {"opt", "lru", "mru", "drrip"};

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

void tsr_ac_config_defaults(struct tsr_ac_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->size_bytes = 48 * 1024;
	cfg->attribute_entry_bytes = TSR_PB_BLOCK_BYTES;
	cfg->attribute_bytes = 48;
	cfg->lines = cfg->size_bytes / cfg->attribute_entry_bytes / 2;
	cfg->ways = 6;
	cfg->max_attributes = 33;
	cfg->xor_index = 1;
	cfg->policy = TSR_AC_OPT;
}

/* A policy of memory/ that can choose among unlocked lines (policy.h version 2). */
static int pinnable(const struct tsr_policy_ops *ops)
{
	return ops && ops->victim_among && ops->rank;
}

enum tsr_status tsr_ac_config_check(const struct tsr_ac_config *c,
				    struct tsr_error *err)
{
	static const char who[] = "attribute cache";
	if (c->size_bytes == 0)
		return tsr_error_set(err, TSR_ERR_GEOMETRY, "%s: size_bytes is 0", who);
	if (c->attribute_entry_bytes == 0)
		return tsr_error_set(err, TSR_ERR_GEOMETRY, "%s: attribute_entry_bytes is 0", who);
	if (c->size_bytes % c->attribute_entry_bytes)
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "%s: size_bytes %u is not a multiple of attribute_entry_bytes %u",
				     who, c->size_bytes, c->attribute_entry_bytes);
	if (c->attribute_bytes == 0)
		return tsr_error_set(err, TSR_ERR_GEOMETRY, "%s: attribute_bytes is 0", who);
	if (c->attribute_bytes > c->attribute_entry_bytes ||
	    c->attribute_bytes > TSR_PB_BLOCK_BYTES)
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "%s: attribute_bytes %u exceeds attribute_entry_bytes %u or the %u-byte block",
				     who, c->attribute_bytes, c->attribute_entry_bytes,
				     TSR_PB_BLOCK_BYTES);
	if (c->lines == 0)
		return tsr_error_set(err, TSR_ERR_GEOMETRY, "%s: lines is 0", who);
	uint32_t ways = c->ways ? c->ways : c->lines;
	if (ways > c->lines || c->lines % ways)
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "%s: lines %u is not a multiple of ways %u", who,
				     c->lines, ways);
	if (ways > TSR_LIMIT_CACHE_WAYS)
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "%s: %u ways%s is more than the limit of %u (as caches.*.ways)",
				     who, ways, c->ways ? "" : " (fully associative: every line)",
				     TSR_LIMIT_CACHE_WAYS);
	if (!is_pow2(c->lines / ways))
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "%s: %u sets (lines %u / ways %u) is not a power of two",
				     who, c->lines / ways, c->lines, ways);
	if (c->max_attributes == 0)
		return tsr_error_set(err, TSR_ERR_GEOMETRY, "%s: max_attributes is 0", who);
	uint32_t entries = c->size_bytes / c->attribute_entry_bytes;
	if (entries < c->max_attributes)
		return tsr_error_set(err, TSR_ERR_GEOMETRY,
				     "%s: %u Attribute Buffer entries (size_bytes %u / attribute_entry_bytes %u) "
				     "cannot hold a primitive of max_attributes %u",
				     who, entries, c->size_bytes, c->attribute_entry_bytes,
				     c->max_attributes);
	if ((unsigned)c->policy >= TSR_AC_POLICY_COUNT ||
	    (c->policy != TSR_AC_OPT && !pinnable(tsr_policy_find(policy_names[c->policy]))))
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "%s: unknown policy %d (valid: opt, lru, mru, drrip)", who,
				     (int)c->policy);
	return TSR_OK;
}

const char *tsr_ac_policy_name(enum tsr_ac_policy p)
{
	return (unsigned)p < TSR_AC_POLICY_COUNT ? policy_names[p] : "unknown";
}

enum tsr_status tsr_ac_policy_parse(const char *name, enum tsr_ac_policy *out,
				    struct tsr_error *err)
{
	for (int p = 0; p < TSR_AC_POLICY_COUNT; p++)
		if (name && strcmp(name, policy_names[p]) == 0) {
			*out = (enum tsr_ac_policy)p;
			return TSR_OK;
		}
	const struct tsr_policy_ops *ops = name ? tsr_policy_find(name) : NULL;
	if (ops)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "attribute cache policy '%s' cannot choose among unlocked lines "
				     "(valid: opt, lru, mru, drrip)", name);
	return tsr_error_set(err, TSR_ERR_CONFIG,
			     "unknown attribute cache policy '%s' (valid: opt, lru, mru, drrip)",
			     name ? name : "");
}
