/*
 * tcor.c - TCOR's Attribute Cache (TCOR III-C) as a technique of the TBR
 * pipeline: with tcor.attribute_cache, the Tile Cache is split and the
 * Parameter Buffer's attributes go through the Attribute Cache
 * (tiling/attribute_cache.h), whose misses and write-backs go to
 * routes.attribute_cache (the L2 by default, TCOR Fig. 7). The Parameter
 * Buffer computes the OPT Numbers and last uses (tiling/parameter_buffer.h);
 * the dead-block-aware L2 is the replacement policy "tcor-l2"
 * (memory/policy_tcor_l2.c), chosen in the configuration.
 */
#include <stdlib.h>

#include "techniques/technique.h"
#include "tiling/attribute_cache.h"

struct tcor {
	struct tsr_attr_cache *ac;
	struct tsr_ac_counters base;  /* its counters at the end of the last frame */
};

/* The Attribute Cache's lower level: routes.attribute_cache. */
static void lower(struct tsr_memsys *m, uint64_t addr, uint32_t bytes, int write, uint32_t meta)
{
	tsr_mem_access(m, tsr_memsys_port(m, TSR_ROUTE_ATTRIBUTE_CACHE, 0), addr, bytes, write,
		       TSR_STREAM_PB_ATTRIBUTES, 0, meta, NULL);
}

static void lower_read(void *ctx, uint64_t addr, uint32_t bytes, uint32_t meta)
{
	lower(ctx, addr, bytes, 0, meta);
}

static void lower_write(void *ctx, uint64_t addr, uint32_t bytes, uint32_t meta)
{
	lower(ctx, addr, bytes, 1, meta);
}

static int tcor_enabled(const struct tsr_gpu_config *cfg)
{
	return cfg->attribute_cache;
}

static void tcor_destroy(void *state)
{
	struct tcor *t = state;
	if (!t)
		return;
	tsr_ac_destroy(t->ac);
	free(t);
}

static enum tsr_status tcor_create(const struct tsr_tbr_view *v, void **state,
				   struct tsr_error *err)
{
	struct tcor *t = calloc(1, sizeof(*t));
	if (!t)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	*state = t;
	struct tsr_ac_config ac = v->cfg->ac;
	ac.attribute_bytes = v->cfg->attribute_bytes;
	struct tsr_ac_lower low = {lower_read, lower_write, v->mem};
	TSR_TRY(tsr_ac_create(&ac, &low, &t->ac, err));
	return tsr_pb_set_attribute_cache(v->pb, t->ac, v->cfg->output_queue, err);
}

/* This frame's Attribute Cache counters. */
static void tcor_frame_end(void *state, struct tsr_frame_stats *fs)
{
	struct tcor *t = state;
	tsr_counters_delta(&tsr_counters_attribute_cache, &fs->attribute_cache,
			   tsr_ac_counters_of(t->ac), &t->base);
	t->base = *tsr_ac_counters_of(t->ac);
}

const struct tsr_technique_ops tsr_technique_tcor = {
	.name = "tcor",
	.enabled = tcor_enabled,
	.create = tcor_create,
	.destroy = tcor_destroy,
	.frame_end = tcor_frame_end,
};
