/*
 * pass.c - what both pipelines (TBR: frame_loop.c, tile_stages.c; IMR:
 * imr_driver.c) do alike for a render pass, so that their images stay
 * bit for bit equal: the check of a frame's passes, the pass's target,
 * and the conversion of a target's colors and depths to RGBA8.
 */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "pipeline/gpu_priv.h"

/*
 * Checks a frame's passes: one pass into the frame buffer, or (a
 * multi-pass frame) passes into render targets or the frame buffer before
 * a last one into the frame buffer (a frame-buffer pass after another one
 * of the frame that keeps its color continues that frame's image). A
 * multi-pass frame runs without the modes that assume one pass per frame:
 * timing.overlap_frames (the frame slots); Rendering/Transaction
 * Elimination (per-tile state of the frame buffer from frame to frame)
 * sign only its last pass, and refuse a frame-buffer pass before it; the
 * Attribute Cache runs on every frame, GL ES program draws included.
 */
enum tsr_status tsr_gpu_check_passes(const struct tsr_gpu *g, const struct tsr_frame_commands *c,
				     struct tsr_error *err)
{
	if (c->pass_count == 0 || c->passes[c->pass_count - 1].target != TSR_TARGET_FRAMEBUFFER)
		return tsr_error_set(err, TSR_ERR_UNSUPPORTED,
				     "frame %u has %u passes: its last pass must draw the frame buffer",
				     c->frame, c->pass_count);
	for (uint32_t p = 0; p + 1 < c->pass_count; p++)
		if (c->passes[p].target != TSR_TARGET_FRAMEBUFFER &&
		    (c->passes[p].target != TSR_TARGET_TEXTURE ||
		     c->passes[p].target_image >= g->res.image_count ||
		     !g->res.images[c->passes[p].target_image].render_target))
			return tsr_error_set(err, TSR_ERR_UNSUPPORTED,
					     "pass %u of frame %u must draw a render target (an image "
					     "with render_target set) or the frame buffer", p,
					     c->frame);
	/* Rendering and Transaction Elimination keep per-tile state from frame
	 * to frame for the frame buffer's tiles: they sign the last pass, into
	 * the frame buffer, and the passes into render targets before it are
	 * rendered in full; a frame whose frame buffer an earlier pass draws
	 * too runs with them off (techniques/elimination.c; docs/techniques.md,
	 * "Techniques and multi-pass frames"); the Attribute Cache serves each
	 * pass's Parameter Buffer in turn and runs on any frame */
	const int elim = (g->cfg.elim.rendering || g->cfg.elim.transactions) &&
			 !tsr_commands_window_continued(c);
	if (c->pass_count > 1 && g->slot_count > 1)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "frame %u has %u passes (render to texture): multi-pass frames "
				     "run without timing.overlap_frames so far; switch it off in "
				     "the configuration", c->frame, c->pass_count);
	for (uint32_t i = 0; i < c->draw_count; i++)
		if ((!c->draws[i].program && c->draws[i].mesh >= g->res.mesh_count) ||
		    c->draws[i].material >= g->res.material_count)
			return tsr_error_set(err, TSR_ERR_INTERNAL,
					     "draw %u of frame %u names a resource that does not exist",
					     i, c->frame);
	/* every pass's clear and every draw's state, before any work: what a
	 * pipeline does not implement is refused, naming the state */
	const char *name = g->cfg.pipeline_mode == TSR_PIPELINE_IMR ? "IMR" : "TBR";
	TSR_TRY(tsr_gpu_check_blits(g, c, err));
	for (uint32_t p = 0; p < c->pass_count; p++) {
		const struct tsr_cmd_pass *pass = &c->passes[p];
		uint32_t w, h;
		const struct tsr_framebuffer_state fb = tsr_pass_framebuffer(pass, &g->res,
									     g->cfg.width,
									     g->cfg.height, &w, &h);
		/* a store_depth pass may keep its depth: loaded from its depth
		 * texture (tsr_pass_loads_depth()) */
		struct tsr_clear_state chk = pass->clear;
		if (tsr_pass_loads_depth(pass))
			chk.invalidate |= TSR_CLEAR_DEPTH;
		TSR_TRY(tsr_clear_state_check(&chk, name, p, err));
		if (tsr_pass_tests_stencil(c, pass)) {
			if (!((pass->clear.mask | pass->clear.invalidate) & TSR_CLEAR_STENCIL))
				return tsr_error_set(err, TSR_ERR_UNSUPPORTED,
						     "pass %u: a stencil buffer loaded from memory "
						     "(not cleared nor invalidated: no pass stores its "
						     "stencil) is not supported by the %s pipeline yet",
						     p, name);
			if (elim && p + 1 == c->pass_count)  /* the pass they sign */
				return tsr_error_set(err, TSR_ERR_CONFIG,
						     "pass %u of frame %u tests stencil: "
						     "rendering/transaction elimination do not sign "
						     "the stencil state; switch them off in the "
						     "configuration", p, c->frame);
		}
		if (pass->store_depth &&
		    (pass->target != TSR_TARGET_TEXTURE || pass->depth_image >= g->res.image_count ||
		     !g->res.images[pass->depth_image].depth ||
		     g->res.images[pass->depth_image].width != w ||
		     g->res.images[pass->depth_image].height != h || fb.color < 0))
			return tsr_error_set(err, TSR_ERR_UNSUPPORTED,
					     "pass %u of frame %u stores its depth into image %u, "
					     "which is no depth render target of its color target's "
					     "size", p, c->frame, pass->depth_image);
		/* color targets 1..3: color render targets of the pass's size */
		for (uint32_t i = 1; i < TSR_MAX_DRAW_BUFFERS; i++) {
			const uint32_t im = pass->mrt_images[i - 1];
			if ((pass->mrt >> i & 1) &&
			    (pass->target != TSR_TARGET_TEXTURE || fb.color < 0 ||
			     im >= g->res.image_count || !g->res.images[im].render_target ||
			     g->res.images[im].depth || g->res.images[im].width != w ||
			     g->res.images[im].height != h))
				return tsr_error_set(err, TSR_ERR_UNSUPPORTED,
						     "pass %u of frame %u draws color target %u "
						     "into image %u, which is no color render target "
						     "of its target's size", p, c->frame, i, im);
		}
		if (pass->mrt & 1)
			return tsr_error_set(err, TSR_ERR_INTERNAL,
					     "pass %u of frame %u: mrt bit 0 (target 0 is "
					     "target_image)", p, c->frame);
		if (tsr_pass_loads_color(pass, fb) && elim && p + 1 == c->pass_count)
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "pass %u of frame %u loads its color buffer from memory "
					     "(neither cleared nor invalidated): rendering/transaction "
					     "elimination run only on passes that clear it; switch "
					     "them off in the configuration", p, c->frame);
		for (uint32_t i = pass->first_draw; i < pass->first_draw + pass->draw_count; i++) {
			const struct tsr_cmd_draw *d = &c->draws[i];
			if (d->program)
				TSR_TRY(tsr_draw_state_check_program(&d->state, name, i, &g->res,
								     d->program, d->material, fb,
								     err));
			else
				TSR_TRY(tsr_draw_state_check(&d->state, name, i, &g->res, d->mesh,
							     d->material, w, h, fb, err));
		}
	}
	return TSR_OK;
}

enum tsr_status tsr_gpu_bind_pass(struct tsr_gpu *g, struct frame_slot *f,
				  const struct tsr_frame_commands *c, const struct tsr_cmd_pass *p,
				  struct tsr_error *err)
{
	if (p->draw_count > f->binding_cap) {
		const uint32_t cap = p->draw_count > 2 * f->binding_cap ? p->draw_count
									: 2 * f->binding_cap;
		struct tsr_shader_binding *b = realloc(f->bindings, (size_t)cap * sizeof(*b));
		if (!b)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for %u draws",
					     p->draw_count);
		f->bindings = b;
		f->binding_cap = cap;
	}
	for (uint32_t i = 0; i < p->draw_count; i++) {
		const struct tsr_cmd_draw *d = &c->draws[p->first_draw + i];
		const int32_t image = d->state.textures[0].image;
		tsr_shader_binding_init(&f->bindings[i], &d->state, &g->res.materials[d->material],
					image >= 0 ? g->textures[image] : NULL,
					g->programs[d->material].fs_base,
					g->programs[d->material].fs_bytes, g->target_width,
					g->target_height);
		f->bindings[i].fill_bottom = g->target_tex &&
					     tsr_texture_pass_row(g->target_tex, 0) != 0;
		if (d->program) {
			const struct tsr_texture *units[TSR_SHADER_MAX_TEXTURE_UNITS];
			for (uint32_t u = 0; u < TSR_SHADER_MAX_TEXTURE_UNITS; u++)
				units[u] = d->program->textures[u] >= 0
						   ? g->textures[d->program->textures[u]] : NULL;
			tsr_shader_binding_set_program(&f->bindings[i], d->program->fragment,
						       &d->state, units,
						       TSR_SHADER_MAX_TEXTURE_UNITS);
			/* a cube map's faces: six images in a row, read from the
			 * GPU's image table while the frame renders (no image is
			 * added or updated during one) */
			for (uint32_t u = 0; u < TSR_SHADER_MAX_TEXTURE_UNITS; u++)
				if (d->program->cube[u] && d->program->textures[u] >= 0)
					tsr_shader_binding_set_cube(
						&f->bindings[i], u,
						(const struct tsr_texture *const *)&g->textures
							[d->program->textures[u]]);
		}
	}
	return TSR_OK;
}

/*
 * Makes pass p the one the stages draw: the geometry's viewport, the tile
 * windows' bounds and the flush's destination (the back frame buffer, or
 * the render target's texture and memory).
 */
void tsr_gpu_set_target(struct tsr_gpu *g, const struct tsr_cmd_pass *p)
{
	g->target_tex = NULL;
	g->target_depth = 0;
	g->store_depth_tex = NULL;
	for (uint32_t i = 0; i < TSR_MAX_DRAW_BUFFERS - 1; i++)
		g->target_mrt[i] = NULL;
	g->target_mrt_clear = 0;
	g->target_width = g->cfg.width;
	g->target_height = g->cfg.height;
	if (p->target == TSR_TARGET_TEXTURE) {
		g->target_tex = g->textures[p->target_image];
		g->target_depth = g->res.images[p->target_image].depth;
		g->target_width = g->res.images[p->target_image].width;
		g->target_height = g->res.images[p->target_image].height;
		if (p->store_depth && !g->target_depth)
			g->store_depth_tex = g->textures[p->depth_image];
		for (uint32_t i = 1; !g->target_depth && i < TSR_MAX_DRAW_BUFFERS; i++)
			if (p->mrt >> i & 1)
				g->target_mrt[i - 1] = g->textures[p->mrt_images[i - 1]];
		g->target_mrt_clear = (uint8_t)(p->mrt_clear & p->mrt);
	}
	tsr_geometry_set_viewport(g->geom, g->target_width, g->target_height);
}

/*
 * One row of colors as a flush writes them: each channel clamped to 0..1,
 * scaled to 0..255 and rounded. restrict: the bytes do not alias the
 * floats, so the compiler can vectorize the loop.
 */
void tsr_rgba8_row(uint8_t *restrict dst, const float *restrict src, size_t n)
{
	size_t i = 0;
#ifdef __SSE2__
	/* 16 channels at a time, the same operations as the loop below: max
	 * returns its second operand (0.5) for NaN, min then clamps, the
	 * truncation is cvttps2dq, the packs saturate nothing (0..255) */
	const __m128 k255 = _mm_set1_ps(255.0f), half = _mm_set1_ps(0.5f),
		     top = _mm_set1_ps(255.5f);
	for (; i + 16 <= n; i += 16) {
		__m128i d[4];
		for (int j = 0; j < 4; j++) {
			__m128 v = _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(&src[i + 4 * j]), k255), half);
			v = _mm_min_ps(_mm_max_ps(v, half), top);
			d[j] = _mm_cvttps_epi32(v);
		}
		__m128i w = _mm_packus_epi16(_mm_packs_epi32(d[0], d[1]),
					     _mm_packs_epi32(d[2], d[3]));
		_mm_storeu_si128((__m128i *)&dst[i], w);
	}
#endif
	for (; i < n; i++) {
		/* clamping c * 255 + 0.5 to 0.5..255.5 is clamping c to 0..1
		 * first, in a form the vectorizer takes */
		float v = src[i] * 255.0f + 0.5f;
		v = v >= 0.5f ? v : 0.5f;  /* NaN becomes 0.5: float->int stays defined */
		v = v > 255.5f ? 255.5f : v;
		dst[i] = (uint8_t)(int32_t)v;
	}
}
