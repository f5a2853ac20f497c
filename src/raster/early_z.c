/*
 * early_z.c - stage 2 of the Raster Pipeline (raster.h): the per-pixel
 * stencil and depth tests before shading against the window's on-chip
 * stencil and depth buffers (GL ES 2.0 4.1.5: the stencil test after the
 * scissor, which the Rasterizer applies, and before the depth test), and
 * the dispatch of surviving quads to the shader cores by the quad
 * grouping and the tile's subtile assignment (DTexL III-B, III-D). Quads
 * whose program discards (alpha test, a program's discard) pass untested:
 * their stencil and depth tests are late Z, in blending (a discarded
 * fragment updates neither buffer: the stencil ops depend on the
 * discard); quads of a draw with DEPTH_TEST and STENCIL_TEST off pass
 * untested. With a memory backend (immediate mode, target_memory.c) the
 * HiZ test comes first (skipped when a stencil op would update a pixel
 * it kills) and the tests read and write the Z buffer (depth, or D24S8
 * depth and stencil) through the Z cache.
 */
#include <stddef.h>

#include "raster/raster_priv.h"

_Static_assert(offsetof(struct tsr_quad, l) == offsetof(struct tsr_quad, z) + sizeof(float[4]),
	       "Early-Z copies z and l in one piece");

/* The quad in the timing model's work log (its index follows from seq);
 * with a memory backend, the HiZ and Z paths since the mark are its z range. */
static void log_quad(struct tsr_worklog *log, const struct tsr_quad *q, uint32_t core,
		     int killed, int memory)
{
	const struct tsr_shader_binding *s = q->shader;
	if (log->quad_count == 0)
		log->seq_base = q->seq;
	struct tsr_wl_quad *wq = tsr_worklog_quad(log, core, killed,
						  s->material->shader_alu_instructions,
						  s->texture != NULL, tsr_quad_late_z(q));
	if (wq && memory)
		wq->z = tsr_worklog_since_mark(log);
}

/* The shader core Early-Z sends q to: its subtile's (DTexL III-B, III-D). */
static uint32_t quad_core(const struct tsr_raster *r, const struct tsr_target *t,
			  const struct tsr_quad *q)
{
	const uint32_t quads_w = (t->width + 1) / 2, quads_h = (t->height + 1) / 2;
	uint32_t qx = (uint32_t)(q->x - t->x0) / 2, qy = (uint32_t)(q->y - t->y0) / 2;
	return r->subtile_core[tsr_quad_core_inline(r->cfg.quad_grouping, r->cfg.cores,
						     qx, qy, quads_w, quads_h)];
}

/*
 * Early-Z's work on quad q bound for core (late_z: q's program discards,
 * so it passes untested, as without DEPTH_TEST and STENCIL_TEST): HiZ, the
 * stencil and depth tests, their memory
 * traffic, counters and work-log record. The pixels that survive (0: the
 * quad is killed), with r->late_z_in_flight updated.
 */
static uint8_t early_z_quad(struct tsr_raster *r, const struct tsr_raster_ctx *c,
			    const struct tsr_quad *q, uint32_t core, int late_z)
{
	struct tsr_target *t = c->target;
	uint8_t mask = q->mask;
	struct tsr_target_memory *m = t->memory;
	if (m && c->log)
		tsr_worklog_mark(c->log);  /* the quad's z range starts here */
	if (!late_z && (q->mode & (TSR_QUAD_DEPTH_TEST | TSR_QUAD_STENCIL))) {
		const int stencil = (q->mode & TSR_QUAD_STENCIL) != 0;
		const int hiz = m && m->hiz && (q->mode & TSR_QUAD_DEPTH_TEST) &&
				(!stencil || q->shader->stencil_hiz) &&
				(q->depth_func == TSR_FUNC_LESS || q->depth_func == TSR_FUNC_LEQUAL);
		if (hiz && tsr_target_hiz_kills(m, q->x, q->y, mask, q->z,
						q->depth_func == TSR_FUNC_LEQUAL)) {
			mask = 0;  /* HiZ: every covered pixel would fail the depth test
				      (and its stencil op, if any, changes nothing) */
		} else if (stencil) {
			int written = 0;
			mask = tsr_quad_depth_stencil_test(t, q, mask, &written);
			if (m)
				tsr_target_depth_traffic(m, q->x, q->y, written);
		} else {
			const int write = (q->mode & TSR_QUAD_DEPTH_WRITE) != 0;
			mask = tsr_quad_depth_test(t, q, mask, write);
			if (m)
				tsr_target_depth_traffic(m, q->x, q->y, write && mask);
		}
		if (!mask) {
			if (c->log)
				log_quad(c->log, q, core, 1, m != NULL);
			c->rs->quads_early_z_killed++;
			return 0;
		}
	}
	if (c->log)
		log_quad(c->log, q, core, 0, m != NULL);
	r->late_z_in_flight += (uint32_t)late_z;
	return mask;
}

enum tsr_stage_result tsr_raster_early_z(struct tsr_raster *r,
					 const struct tsr_raster_ctx *c)
{
	struct tsr_quad *q = tsr_quad_queue_front(&r->early_z);
	if (!q)
		return TSR_STAGE_IDLE;
	const int late_z = tsr_quad_late_z(q);
	/* an alpha-tested primitive ahead still has depth writes pending */
	if (!late_z && r->late_z_in_flight)
		return TSR_STAGE_STALLED;
	/* a program reading the color buffer waits until every older quad is
	 * blended (coherent framebuffer fetch) */
	if (q->mode & TSR_QUAD_FETCH_COLOR) {
		if (tsr_ring_count(&r->blend))
			return TSR_STAGE_STALLED;
		for (uint32_t k = 0; k < r->cfg.cores; k++)
			if (tsr_ring_count(&r->cores[k]))
				return TSR_STAGE_STALLED;
	}
	const uint32_t core = quad_core(r, c->target, q);
	struct tsr_ring *out = &r->cores[core];
	if (!tsr_ring_room(out))
		return TSR_STAGE_STALLED;
	const uint8_t mask = early_z_quad(r, c, q, core, late_z);
	if (mask) {
		struct tsr_quad *d = tsr_quad_queue_push(out);
		tsr_quad_copy_head(d, q, mask, (uint8_t)core);
		memcpy(d->z, q->z, sizeof(q->z) + sizeof(q->l));  /* z and l are adjacent */
	}
	tsr_quad_queue_pop(&r->early_z);
	return TSR_STAGE_DONE;
}

enum tsr_stage_result tsr_raster_quad_direct(struct tsr_raster *r,
					     const struct tsr_raster_ctx *c)
{
	struct tsr_quad *q = tsr_quad_queue_front(&r->early_z);
	if (!q)
		return TSR_STAGE_IDLE;
	const uint32_t core = quad_core(r, c->target, q);
	const uint8_t mask = early_z_quad(r, c, q, core, tsr_quad_late_z(q));
	if (mask) {
		/* the shaded quad, as the blend queue's slot would hold it; q's
		 * slot stays readable (nothing is pushed to early_z here) */
		struct tsr_quad s;
		tsr_quad_copy_head(&s, q, mask, (uint8_t)core);
		memcpy(s.z, q->z, sizeof(s.z));
		tsr_raster_shade_quad(q->l, &s, core, c);
		tsr_raster_blend_quad(r, &s, c);
	}
	tsr_quad_queue_pop(&r->early_z);
	return TSR_STAGE_DONE;
}
