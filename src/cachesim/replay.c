#include "cachesim/replay.h"
#include "cachesim/replay_kernel.h"
#include "memory/policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tsr_replay_caches(const struct tsr_line_trace *lt, struct tsr_cache *const *caches,
		       uint32_t n, tsr_replay_visit visit, void *ctx)
{
	size_t m = 0, meta_at = 0;
	struct tsr_cache_outcome o;
	for (size_t i = 0; i < lt->count; i++) {
		for (; m < lt->marker_count && lt->markers[m].pos == i; m++)
			for (uint32_t c = 0; c < n; c++)
				tsr_cache_marker(caches[c], (enum tsr_marker)lt->markers[m].kind,
						 lt->markers[m].value);
		const struct tsr_access a = tsr_line_access_full(&lt->accesses[i], lt->metas, &meta_at);
		for (uint32_t c = 0; c < n; c++) {
			tsr_cache_access(caches[c], &a, &o);
			if (visit)
				visit(ctx, c, i, &a, &o);
		}
	}
	for (; m < lt->marker_count; m++)
		for (uint32_t c = 0; c < n; c++)
			tsr_cache_marker(caches[c], (enum tsr_marker)lt->markers[m].kind,
					 lt->markers[m].value);
}

enum tsr_status tsr_replay(const struct tsr_line_trace *lt,
			   const struct tsr_cache_geometry *g,
			   const char *const *policies, uint32_t n,
			   struct tsr_replay_result *out, struct tsr_error *err)
{
	if (g->line_bytes != lt->line_bytes)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "cache line of %u bytes does not match the trace's %u-byte lines",
				     g->line_bytes, lt->line_bytes);
	for (uint32_t i = 0; lt->no_next_uses && i < n; i++) {
		const struct tsr_policy_ops *ops = tsr_policy_find(policies[i]);
		if (ops && ops->offline)
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "policy '%s' needs next uses, which this trace was "
					     "loaded without (tsr_line_trace_index())", policies[i]);
	}
	struct tsr_rk_set rs;
	TSR_TRY(tsr_rk_set_create(g, policies, n, &rs, err));
	tsr_rk_set_run(&rs, lt->accesses, lt->count, lt->metas, lt->markers, lt->marker_count);
	tsr_rk_set_results(&rs, policies, out);
	tsr_rk_set_destroy(&rs);
	return TSR_OK;
}

enum tsr_status tsr_rk_set_create(const struct tsr_cache_geometry *g,
				  const char *const *policies, uint32_t n,
				  struct tsr_rk_set *out, struct tsr_error *err)
{
	memset(out, 0, sizeof(*out));
	TSR_TRY(tsr_replay_caches_create(g, policies, n, &out->caches, err));
	out->n = n;
	out->kernels = calloc(n ? n : 1, sizeof(*out->kernels));
	if (!out->kernels) {
		tsr_rk_set_destroy(out);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for %u caches", n);
	}
	for (uint32_t i = 0; i < n; i++) {
		struct tsr_cache_geometry gi = *g;
		snprintf(gi.policy, sizeof(gi.policy), "%s", policies[i]);
		enum tsr_status s = tsr_rk_create(&gi, policies[i], &out->kernels[i], err);
		if (s != TSR_OK) {
			tsr_rk_set_destroy(out);
			return s;
		}
	}
	return TSR_OK;
}

void tsr_rk_set_run(struct tsr_rk_set *rs, const struct tsr_line_access *a, size_t count,
		    const uint32_t *metas, const struct tsr_line_marker *markers,
		    size_t marker_count)
{
	struct tsr_cache_outcome o;
	for (uint32_t c = 0; c < rs->n; c++) {
		if (rs->kernels[c]) {  /* no policy of the kernel's sees markers */
			tsr_rk_run(rs->kernels[c], a, count);
			continue;
		}
		struct tsr_cache *cache = rs->caches[c];
		size_t m = 0, meta_at = 0;
		for (size_t i = 0; i < count; i++) {
			for (; m < marker_count && markers[m].pos == i; m++)
				tsr_cache_marker(cache, (enum tsr_marker)markers[m].kind,
						 markers[m].value);
			const struct tsr_access ai = tsr_line_access_full(&a[i], metas, &meta_at);
			tsr_cache_access(cache, &ai, &o);
		}
		for (; m < marker_count; m++)
			tsr_cache_marker(cache, (enum tsr_marker)markers[m].kind, markers[m].value);
	}
}

void tsr_rk_set_results(const struct tsr_rk_set *rs, const char *const *policies,
			struct tsr_replay_result *out)
{
	tsr_replay_caches_results(rs->caches, policies, rs->n, out);
	for (uint32_t i = 0; i < rs->n; i++) {
		if (!rs->kernels[i])
			continue;
		memset(&out[i].streams, 0, sizeof(out[i].streams));
		memset(&out[i].total, 0, sizeof(out[i].total));
		for (int st = 0; st < TSR_STREAM_COUNT; st++) {
			out[i].streams[st] = *tsr_rk_counters_of(rs->kernels[i], (enum tsr_stream)st);
			tsr_cache_counters_add(&out[i].total, &out[i].streams[st]);
		}
	}
}

void tsr_rk_set_destroy(struct tsr_rk_set *rs)
{
	for (uint32_t i = 0; rs->kernels && i < rs->n; i++)
		tsr_rk_destroy(rs->kernels[i]);
	free(rs->kernels);
	tsr_replay_caches_destroy(rs->caches, rs->n);
	memset(rs, 0, sizeof(*rs));
}

enum tsr_status tsr_replay_caches_create(const struct tsr_cache_geometry *g,
					 const char *const *policies, uint32_t n,
					 struct tsr_cache ***out, struct tsr_error *err)
{
	*out = NULL;
	struct tsr_cache **caches = calloc(n ? n : 1, sizeof(*caches));
	if (!caches)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for %u caches", n);
	enum tsr_status s = TSR_OK;
	for (uint32_t i = 0; i < n && s == TSR_OK; i++) {
		struct tsr_cache_geometry gi = *g;
		if (strlen(policies[i]) >= sizeof(gi.policy)) {
			s = tsr_error_set(err, TSR_ERR_CONFIG, "policy spec '%s' is longer than %d characters",
					  policies[i], TSR_POLICY_SPEC_MAX - 1);
			break;
		}
		snprintf(gi.policy, sizeof(gi.policy), "%s", policies[i]);
		s = tsr_cache_create(&gi, policies[i], &caches[i], err);
	}
	if (s != TSR_OK) {
		tsr_replay_caches_destroy(caches, n);
		return s;
	}
	*out = caches;
	return TSR_OK;
}

void tsr_replay_caches_results(struct tsr_cache *const *caches, const char *const *policies,
			       uint32_t n, struct tsr_replay_result *out)
{
	for (uint32_t i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		snprintf(out[i].policy, sizeof(out[i].policy), "%s", policies[i]);
		for (int st = 0; st < TSR_STREAM_COUNT; st++)
			out[i].streams[st] = *tsr_cache_counters_of(caches[i], (enum tsr_stream)st);
		out[i].total = tsr_cache_counters_total(caches[i]);
	}
}

void tsr_replay_caches_destroy(struct tsr_cache **caches, uint32_t n)
{
	if (!caches)
		return;
	for (uint32_t i = 0; i < n; i++)
		tsr_cache_destroy(caches[i]);
	free(caches);
}
