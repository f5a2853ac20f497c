/*
 * raster.c - the raster unit (raster.h): its queues and the functional mode that runs the stages (rasterizer.c, early_z.c,
 * fragment.c, blend.c) back to back.
 */
#include "raster/raster_priv.h"

#include <stdlib.h>
#include <string.h>

enum tsr_status tsr_raster_create(const struct tsr_raster_config *cfg,
				  uint32_t max_width, uint32_t max_height,
				  struct tsr_raster **out,
				  struct tsr_error *err)
{
	if (cfg->cores == 0 || cfg->cores > TSR_MAX_CORES)
		return tsr_error_set(err, TSR_ERR_CONFIG, "shader cores %u not in 1..%u",
				     cfg->cores, TSR_MAX_CORES);
	struct tsr_raster *r = calloc(1, sizeof(*r));
	if (!r)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	r->cfg = *cfg;
	for (uint32_t i = 0; i < TSR_MAX_CORES; i++)
		r->subtile_core[i] = (uint8_t)(i < cfg->cores ? i : 0);
	r->window_quads = ((max_width + 1) / 2) * ((max_height + 1) / 2);
	if (r->window_quads == 0)
		r->window_quads = 1;
	/* past Early-Z, quads need not wait for their whole primitive */
	const uint32_t downstream = r->window_quads < TSR_RASTER_QUAD_QUEUE ?
				    r->window_quads : TSR_RASTER_QUAD_QUEUE;
	enum tsr_status s = TSR_ERR_NOMEM;
	r->cores = calloc(cfg->cores, sizeof(*r->cores));
	if (!r->cores) {
		tsr_error_set(err, s, "out of memory");
		goto fail;
	}
	if ((s = tsr_prim_queue_init(&r->prims, TSR_RASTER_PRIM_QUEUE, err)) != TSR_OK ||
	    (s = tsr_quad_queue_init(&r->early_z, r->window_quads, err)) != TSR_OK ||
	    (s = tsr_quad_queue_init(&r->blend, downstream, err)) != TSR_OK)
		goto fail;
	for (uint32_t c = 0; c < cfg->cores; c++)
		if ((s = tsr_quad_queue_init(&r->cores[c], downstream, err)) != TSR_OK)
			goto fail;
	*out = r;
	return TSR_OK;
fail:
	tsr_raster_destroy(r);
	return s;
}

void tsr_raster_destroy(struct tsr_raster *r)
{
	if (!r)
		return;
	if (r->cores)
		for (uint32_t c = 0; c < r->cfg.cores; c++)
			tsr_ring_release(&r->cores[c]);
	free(r->cores);
	tsr_ring_release(&r->blend);
	tsr_ring_release(&r->early_z);
	tsr_ring_release(&r->prims);
	free(r);
}

void tsr_raster_set_subtile_cores(struct tsr_raster *r, const uint8_t *subtile_core)
{
	memcpy(r->subtile_core, subtile_core, r->cfg.cores);
}

int tsr_raster_submit(struct tsr_raster *r, const struct tsr_raster_prim *item)
{
	return tsr_prim_queue_push(&r->prims, item);
}

int tsr_raster_oldest_core(const struct tsr_raster *r)
{
	int best = -1;
	uint32_t best_seq = 0;
	for (uint32_t c = 0; c < r->cfg.cores; c++) {
		const struct tsr_quad *q = tsr_quad_queue_front(&r->cores[c]);
		/* sequence numbers wrap: compare their difference */
		if (q && (best < 0 || (int32_t)(q->seq - best_seq) < 0)) {
			best = (int)c;
			best_seq = q->seq;
		}
	}
	return best;
}

/* Quads in every quad queue. */
static uint32_t quads_in_flight(const struct tsr_raster *r)
{
	uint32_t n = tsr_ring_count(&r->early_z) + tsr_ring_count(&r->blend);
	for (uint32_t c = 0; c < r->cfg.cores; c++)
		n += tsr_ring_count(&r->cores[c]);
	return n;
}

uint32_t tsr_raster_pending(const struct tsr_raster *r)
{
	return r->prims.count + quads_in_flight(r);
}

void tsr_raster_drain(struct tsr_raster *r, const struct tsr_raster_ctx *c)
{
	int core;
	for (;;) {
		/* what a stepping caller left past Early-Z: shaded in order,
		 * blended (shading stalls when the blend queue is full) */
		while ((core = tsr_raster_oldest_core(r)) >= 0) {
			while (tsr_raster_shade(r, (uint32_t)core, c) == TSR_STAGE_DONE &&
			       (core = tsr_raster_oldest_core(r)) >= 0)
				;
			while (tsr_raster_blend(r, c) == TSR_STAGE_DONE)
				;
		}
		while (tsr_raster_blend(r, c) == TSR_STAGE_DONE)
			;
		/* quad by quad in rasterization order: Early-Z, then shading and
		 * blending of a survivor (the memory accesses of the unpipelined
		 * model), without the queues between them: they are empty */
		while (tsr_raster_quad_direct(r, c) == TSR_STAGE_DONE)
			;
		/* the next primitive's quads */
		if (tsr_raster_rasterize(r, c) != TSR_STAGE_DONE)
			return;
	}
}

void tsr_raster_primitive(struct tsr_raster *r, const struct tsr_primitive *p,
			  const struct tsr_shader_binding *shader,
			  struct tsr_target *t, struct tsr_memsys *mem,
			  struct tsr_raster_stats *rs,
			  struct tsr_texture_stats *ts)
{
	const struct tsr_raster_ctx c = {t, mem, rs, ts, NULL};
	const struct tsr_raster_prim item = {p, shader};
	/* make room in a queue a stepping caller left full */
	if (!tsr_raster_submit(r, &item)) {
		tsr_raster_drain(r, &c);
		tsr_raster_submit(r, &item);
	}
	tsr_raster_drain(r, &c);
}
