/*
 * tcor.c - TCOR (Tile Cache Optimal Replacement) as a technique of the TBR
 * pipeline: with tcor.attribute_cache, the Tile Cache is split and the
 * Parameter Buffer's attributes go through the Attribute Cache, whose
 * misses and write-backs go to routes.attribute_cache (the L2 by default,
 * TCOR Fig. 7). This file creates the Attribute Cache, plugs it into the
 * Parameter Buffer (struct tsr_pb_attribute_port) and reports its
 * counters per frame.
 *
 * Where every part of TCOR lives (start here):
 *   III-A  OPT Numbers and last uses: a property of the frame's tile
 *          order and bins, computed by the Polygon List Builder in
 *          tiling/parameter_buffer.c (tsr_pb_opt_numbers(), per-PMD).
 *   III-B  interleaved PB-Lists: tiling/parameter_buffer.c (pb_layout).
 *   III-C  the Attribute Cache (Primitive Buffer, Attribute Buffer, locks,
 *          OPT replacement and write bypass; LRU, MRU, DRRIP through the
 *          policy modules of memory/): techniques/tcor_attribute_cache.{c,h};
 *          its configuration section (tcor.*): config/tcor_config.h; the
 *          Tile Fetcher's output queue that locks primitives:
 *          tiling/parameter_buffer.c.
 *   III-D  the dead-block-aware L2: the metadata format the Parameter
 *          Buffer attaches to its accesses, memory/pb_meta.h, and the
 *          replacement policy "tcor-l2", memory/policy_tcor_l2.c, chosen
 *          per cache in the configuration. Both stay in memory/: the policy
 *          table (memory/policy_table.c) lists every policy and memory/
 *          must not include techniques/ (no cycles between folders).
 *   V-A    the OPT lower bound and the policy comparison of Fig. 13: the
 *          experiments (tessera experiment).
 * Tests: 030 (OPT Numbers, metadata), 035 (Attribute Cache), 062 (tcor-l2).
 */
#include <stdlib.h>

#include "techniques/tcor_attribute_cache.h"
#include "techniques/technique.h"

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

/* The Parameter Buffer's port (tiling/parameter_buffer.h) onto the Attribute Cache. */
static int port_write(void *ctx, uint64_t prim_id, uint32_t n, uint32_t opt, uint32_t meta)
{
	return tsr_ac_write(ctx, prim_id, n, opt, meta) == TSR_AC_INVALID ? -1 : 0;
}

static int port_read(void *ctx, uint64_t prim_id, uint32_t n, uint32_t opt, uint32_t meta)
{
	return tsr_ac_read(ctx, prim_id, n, opt, meta) == TSR_AC_STALL;
}

static void port_consume(void *ctx, uint64_t prim_id)
{
	(void)tsr_ac_consume(ctx, prim_id);
}

static void port_reset(void *ctx)
{
	tsr_ac_reset(ctx);
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
	ac.write_bytes = tsr_config_attribute_write_bytes(v->cfg);
	struct tsr_ac_lower low = {lower_read, lower_write, v->mem};
	TSR_TRY(tsr_ac_create(&ac, &low, &t->ac, err));
	struct tsr_pb_attribute_port port = {port_write, port_read, port_consume, port_reset,
					     t->ac};
	return tsr_pb_set_attribute_cache(v->pb, &port, v->cfg->output_queue, err);
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
