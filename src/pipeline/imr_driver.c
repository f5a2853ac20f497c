/*
 * imr_driver.c - the immediate-mode pipeline (pipeline.mode imr; GSPC
 * Section 2.1, Figs. 2-3): the desktop GPU of GSPC, whose render caches
 * all miss into one shared last-level cache.
 *
 * Per frame, each draw call in submission order goes through the same
 * geometry stages as in the TBR (index and vertex fetch through the
 * index and vertex routes, vertex shading, assembly, clipping, culling:
 * geometry/geometry.h), then, with no binning and no Parameter Buffer,
 * each of its primitives in order straight through the Raster Pipeline
 * of raster/raster.h (Early-Z, fragment shading with texture sampling
 * through the per-core L1 texture caches and what the config puts below
 * them, blending) over screen-sized depth and color buffers whose memory
 * backend (struct tsr_target_memory, raster/target_memory.c) issues the
 * HiZ, Z and color traffic through the hiz, z and display routes.
 *
 * The screen is walked in blocks: a primitive is rasterized in every
 * block of tiling.tile_width x tiling.tile_height pixels (the TBR's tile
 * grid) its bounding box overlaps, one window per block, before the next
 * primitive starts. Why blocks and not one window of the whole screen:
 * the Raster Pipeline's Early-Z queue holds a window's quads, and a
 * screen-sized one would take tens of MB. Why the images equal the
 * TBR's bit for bit: the Rasterizer works in screen coordinates (fixed
 * point edge functions, top-left rule) and aligns quads to the window,
 * and the windows are exactly the TBR's tiles, so every pixel gets the
 * same quads with the same depth, barycentrics and derivatives, shaded
 * by the same core; each pixel sees the primitives in submission order
 * in both pipelines (a TBR tile's list keeps program order), so the
 * depth tests and blends happen in the same order on the same float
 * values; and the final conversion to RGBA8 is the tile flush's.
 *
 * The color buffer is the frame buffer: its traffic carries the display
 * stream (GSPC Section 2.1: "the final displayable pixel color values
 * written to the back buffer"); render_target is for off-screen targets
 * (a pass of a multi-pass frame drawing a render target: its colors
 * become the target's texels at the pass's end). A pass drawing a depth
 * render target ("format": "depth32f") has no color buffer: its Z traffic
 * (stream z) goes to the target's memory region in place of the depth
 * buffer's, it writes no color, and its depths become the target's
 * depths at the pass's end (tsr_texture_write_depth_rect(), as the TBR's
 * flush).
 *
 * Timing mode (timing.enabled; timing_driver.c, docs/timing.md
 * "Immediate mode"): each draw's geometry paths, then its primitive
 * windows with their quads' Z and color paths, are recorded into batches
 * that the timing model simulates on the TBR's units. The stencil buffer
 * (8 bits a pixel, allocated with the others) is packed with depth in the
 * Z buffer's 4-byte words (D24S8), so a pass that tests stencil makes Z
 * traffic (stream z) for its stencil tests and updates and none of its
 * own: the stencil stream is routed but idle. Left out: clear traffic
 * (fast clears), and the TBR techniques.
 */
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "pipeline/gpu_priv.h"

struct tsr_imr {
	struct tsr_target_memory backend;  /* the buffers' addresses, ports, HiZ state */
	float *depth;                      /* width x height, window depth 0..1 */
	float *color;                      /* width x height x 4, RGBA 0..1 */
	float *mrt;                        /* color targets 1..3 (GL_EXT_draw_buffers): three
					      planes laid out as color, allocated by the
					      first pass that draws several targets; NULL
					      before */
	uint8_t *stencil;                  /* width x height, 8-bit stencil values (packed
					      with depth in the Z buffer's words: D24S8) */
	int pass_stencil;                  /* 1: a draw of the pass tests stencil */
	uint64_t color_base[2];            /* front and back color buffers */
	uint64_t depth_base;               /* the depth buffer (a depth target's pass
					      uses the target's region instead) */
	uint32_t blocks;                   /* 8x8-pixel blocks of the buffers */
	uint32_t display_port, rt_port;    /* the color buffer's routes: frame buffer,
					      render target */
};

static enum tsr_status imr_create(struct tsr_gpu *g, struct tsr_error *err)
{
	/* the screen's buffers, large enough for every render target too */
	const uint32_t w = g->grid_width, h = g->grid_height;
	const uint64_t npix = (uint64_t)w * h;
	TSR_TRY(tsr_memory_check("the immediate-mode depth and color buffers "
				 "(screen.width x screen.height x 21 bytes)", npix * 21, err));
	struct tsr_imr *m = calloc(1, sizeof(*m));
	if (!m)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	g->imr = m;
	const uint32_t bx = (w + 7) / 8, by = (h + 7) / 8;
	m->blocks = bx * by;
	m->depth = malloc(npix * sizeof(float));
	m->color = malloc(npix * 4 * sizeof(float));
	m->stencil = malloc(npix);
	m->backend.hiz_max = malloc(m->blocks * sizeof(float));
	m->backend.hiz_dirty = malloc(m->blocks);
	if (!m->depth || !m->color || !m->stencil || !m->backend.hiz_max || !m->backend.hiz_dirty)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	/* 8x8-pixel blocks of 256 bytes (raster.h), 4 bytes per HiZ entry */
	const uint64_t bytes = (uint64_t)m->blocks * 256;
	struct tsr_target_memory *b = &m->backend;
	TSR_TRY(tsr_addrmap_add(&g->map, "imr.depth_buffer", bytes, TSR_STREAM_Z,
				&m->depth_base, err));
	b->depth_base = m->depth_base;
	TSR_TRY(tsr_addrmap_add(&g->map, "imr.hiz_buffer", (uint64_t)m->blocks * 4,
				TSR_STREAM_HIZ, &b->hiz_base, err));
	TSR_TRY(tsr_addrmap_add(&g->map, "imr.color_buffer0", bytes, TSR_STREAM_DISPLAY,
				&m->color_base[0], err));
	TSR_TRY(tsr_addrmap_add(&g->map, "imr.color_buffer1", bytes, TSR_STREAM_DISPLAY,
				&m->color_base[1], err));
	b->blocks_x = bx;
	b->width = w;
	b->height = h;
	b->z_port = tsr_memsys_port(g->mem, TSR_STREAM_Z, 0);
	b->hiz_port = tsr_memsys_port(g->mem, TSR_STREAM_HIZ, 0);
	m->display_port = b->color_port = tsr_memsys_port(g->mem, TSR_STREAM_DISPLAY, 0);
	m->rt_port = tsr_memsys_port(g->mem, TSR_STREAM_RENDER_TARGET, 0);
	b->color_stream = TSR_STREAM_DISPLAY;
	b->hiz = 1;
	b->depth = m->depth;
	b->mem = g->mem;
	return TSR_OK;
}

static void imr_destroy(struct tsr_gpu *g)
{
	struct tsr_imr *m = g->imr;
	if (!m)
		return;
	free(m->depth);
	free(m->color);
	free(m->mrt);
	free(m->stencil);
	free(m->backend.hiz_max);
	free(m->backend.hiz_dirty);
	free(m);
	g->imr = NULL;
}

/* Fast clear: depth to the far plane, colors to the pass's clear color, HiZ to 1. */
static void clear_buffers(struct tsr_imr *m, const float clear[4], int depth_only)
{
	const size_t n = (size_t)m->backend.width * m->backend.height;
	float *restrict depth = m->depth, *restrict color = m->color;
	for (size_t p = 0; p < n; p++)
		depth[p] = 1.0f;
	for (size_t p = 0; p < n && !depth_only; p++)
		memcpy(&color[4 * p], clear, 4 * sizeof(float));
	for (uint32_t i = 0; i < m->blocks; i++)
		m->backend.hiz_max[i] = 1.0f;
	memset(m->backend.hiz_dirty, 0, m->blocks);
}

/*
 * A pass that keeps its color buffer (command/state.h, struct
 * tsr_clear_state): a render target's pass draws over the texels in place
 * (the color buffer is the texture's memory: no copy); the frame buffer's
 * pass starts from the previous frame's image, which the driver copies
 * into the back buffer (after a frame-buffer pass of the same frame, the
 * back buffer holds what it drew: no copy) (EGL_BUFFER_PRESERVED: every 8x8 block read from
 * the front buffer and written to the back one, stream display). The
 * colors become the floats byte / 255, as the TBR's tile load makes them.
 */
static enum tsr_status load_color(struct tsr_gpu *g, struct tsr_error *err)
{
	struct tsr_imr *m = g->imr;
	const uint32_t w = g->target_width, h = g->target_height;
	const uint8_t *src = g->image[g->fb_drawn ? g->back : g->back ^ 1];
	uint8_t *rgba = NULL;
	if (g->target_tex) {
		rgba = malloc((size_t)w * h * 4);
		if (!rgba)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a render target");
		tsr_texture_read_rect(g->target_tex, 0, 0, w, h, rgba, w * 4);
		src = rgba;
	} else if (!g->fb_drawn) {
		const uint64_t bytes = (uint64_t)m->blocks * 256u;
		for (uint64_t off = 0; off < bytes; off += 256u) {
			tsr_mem_access(g->mem, m->display_port, m->color_base[g->back ^ 1] + off,
				       256, 0, TSR_STREAM_DISPLAY, 0, 0, NULL);
			tsr_mem_access(g->mem, m->display_port, m->color_base[g->back] + off, 256,
				       1, TSR_STREAM_DISPLAY, 0, 0, NULL);
		}
	}
	for (size_t i = 0; i < (size_t)w * h * 4; i++)
		m->color[i] = (float)src[i] / 255.0f;
	free(rgba);
	return TSR_OK;
}

/*
 * Rasterizes primitive p in every block of the tile grid its bounding box
 * overlaps, in row-major block order (a pixel is in one block, so the
 * order of blocks does not change an image).
 */
static void raster_primitive(struct tsr_gpu *g, const struct tsr_primitive *p,
			     struct tsr_frame_stats *st)
{
	struct tsr_imr *m = g->imr;
	const uint32_t tw = g->cfg.tile_width, th = g->cfg.tile_height;
	const uint32_t w = g->target_width, h = g->target_height;
	const struct tsr_raster_prim item = {p, &g->ras->bindings[p->draw]};
	struct tsr_target t = {.stride = w, .memory = &m->backend};
	const struct tsr_raster_ctx c = {&t, g->mem, &st->raster, &st->texture, g->log};
	const uint32_t first_prim = g->log ? g->log->prim_count : 0;
	for (uint32_t by = (uint32_t)p->min_y / th; by <= (uint32_t)p->max_y / th; by++)
		for (uint32_t bx = (uint32_t)p->min_x / tw; bx <= (uint32_t)p->max_x / tw; bx++) {
			t.x0 = (int32_t)(bx * tw);
			t.y0 = (int32_t)(by * th);
			t.width = bx * tw + tw > w ? w - bx * tw : tw;
			t.height = by * th + th > h ? h - by * th : th;
			t.depth = &m->depth[(size_t)t.y0 * w + (uint32_t)t.x0];
			t.color = g->target_depth ? NULL :  /* a depth target: no color output */
				  &m->color[((size_t)t.y0 * w + (uint32_t)t.x0) * 4];
			t.stencil = m->pass_stencil ? &m->stencil[(size_t)t.y0 * w + (uint32_t)t.x0]
						    : NULL;
			for (uint32_t i = 0; i < TSR_MAX_DRAW_BUFFERS - 1; i++)
				t.mrt[i] = g->target_mrt[i]
					? &m->mrt[(size_t)i * m->backend.width * m->backend.height * 4 +
						  ((size_t)t.y0 * w + (uint32_t)t.x0) * 4]
					: NULL;
			tsr_raster_submit(g->raster, &item);  /* the queue is empty: drained */
			tsr_raster_drain(g->raster, &c);
		}
	/* timing mode: the primitive is set up once, its other windows are the
	 * Rasterizer's walk (a cycle each at least) */
	if (g->log)
		for (uint32_t i = first_prim + 1; i < g->log->prim_count; i++)
			g->log->prims[i].attributes = 0;
}

/*
 * Color targets 1..3 of the pass (GL_EXT_draw_buffers, g->target_mrt):
 * their planes (allocated on first use), each cleared to the pass's clear
 * color `clear` or loaded from its image (byte / 255, as load_color: the color
 * buffer is the texture's memory, no copy), their traffic at their
 * images' addresses (stream render_target, as target 0's). Errors:
 * TSR_ERR_NOMEM.
 */
static enum tsr_status begin_mrt(struct tsr_gpu *g, const float clear[4], struct tsr_error *err)
{
	struct tsr_imr *m = g->imr;
	if (!g->target_mrt[0] && !g->target_mrt[1] && !g->target_mrt[2])
		return TSR_OK;
	const size_t plane = (size_t)g->grid_width * g->grid_height * 4;
	if (!m->mrt) {
		m->mrt = malloc(plane * (TSR_MAX_DRAW_BUFFERS - 1) * sizeof(float));
		if (!m->mrt)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for color targets");
	}
	const uint32_t w = g->target_width, h = g->target_height;
	const size_t n = (size_t)w * h;
	/* the planes are laid out as the screen's buffers, w pixels a row */
	const size_t used = n * 4;
	for (uint32_t i = 0; i < TSR_MAX_DRAW_BUFFERS - 1; i++) {
		if (!g->target_mrt[i])
			continue;
		float *dst = &m->mrt[(size_t)i * w * h * 4];
		m->backend.mrt_base[i] = tsr_texel_address(g->target_mrt[i], 0, 0, 0);
		if (g->target_mrt_clear >> (i + 1) & 1) {
			for (size_t p = 0; p < n; p++)
				memcpy(&dst[4 * p], clear, 4 * sizeof(float));
			continue;
		}
		uint8_t *rgba = malloc(used);
		if (!rgba)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a render target");
		tsr_texture_read_rect(g->target_mrt[i], 0, 0, w, h, rgba, w * 4);
		for (size_t k = 0; k < used; k++)
			dst[k] = (float)rgba[k] / 255.0f;
		free(rgba);
	}
	return TSR_OK;
}

/*
 * Makes the buffers pass p's: its target's size (the frame buffer's, or a
 * render target's), the color traffic's address and stream (the back
 * color buffer, display; the render target's texture, render_target),
 * the Z traffic's address (the depth buffer; a depth target's region),
 * and clears them (the stencil too when a draw of the pass tests it) (then loads the colors the pass keeps: load_color).
 * Errors: TSR_ERR_NOMEM.
 */
static enum tsr_status begin_pass(struct tsr_gpu *g, const struct tsr_frame_commands *c,
				  const struct tsr_cmd_pass *p, struct tsr_error *err)
{
	struct tsr_imr *m = g->imr;
	struct tsr_target_memory *b = &m->backend;
	tsr_gpu_set_target(g, p);
	b->width = g->target_width;
	b->height = g->target_height;
	b->blocks_x = (b->width + 7) / 8;
	b->depth_base = g->target_depth ? tsr_texel_address(g->target_tex, 0, 0, 0)
					: m->depth_base;
	if (g->target_tex) {
		b->color_base = tsr_texel_address(g->target_tex, 0, 0, 0);
		b->color_port = m->rt_port;
		b->color_stream = TSR_STREAM_RENDER_TARGET;
	} else {
		b->color_base = m->color_base[g->back];
		b->color_port = m->display_port;
		b->color_stream = TSR_STREAM_DISPLAY;
	}
	clear_buffers(m, p->clear.color, g->target_depth);
	/* the depth an earlier pass stored into the pass's depth texture
	 * (tsr_pass_loads_depth()): copied into the Z buffer, no traffic
	 * counted; HiZ stays at the far plane (a bound that never kills a
	 * visible quad) */
	if (g->store_depth_tex && tsr_pass_loads_depth(p))
		tsr_texture_read_depth_rect(g->store_depth_tex, 0, 0, b->width, b->height, m->depth,
					    b->width);
	/* the stencil, when a draw tests it: cleared (or invalidated) with a
	 * fast clear, as depth */
	m->pass_stencil = tsr_pass_tests_stencil(c, p);
	if (m->pass_stencil)
		memset(m->stencil, (uint8_t)p->clear.stencil,
		       (size_t)b->width * b->height);
	TSR_TRY(begin_mrt(g, p->clear.color, err));
	uint32_t w, h;
	if (tsr_pass_loads_color(p, tsr_pass_framebuffer(p, &g->res, g->cfg.width, g->cfg.height,
							 &w, &h)))
		return load_color(g, err);
	return TSR_OK;
}

/* A render target pass's colors (a depth target's: its depths, as grey)
 * become its texture's texels (its color, or Z, traffic went to the
 * texture's memory as the pass ran). */
static enum tsr_status end_pass(struct tsr_gpu *g, int last, struct tsr_error *err)
{
	if (!g->target_tex && last)
		return TSR_OK;  /* imr_finish_frame() writes the frame's image */
	if (!g->target_tex) {  /* the frame buffer so far (a later pass continues it) */
		tsr_rgba8_row(g->image[g->back], g->imr->color,
			      (size_t)g->cfg.width * g->cfg.height * 4);
		g->fb_drawn = 1;
		return TSR_OK;
	}
	const uint32_t w = g->target_width, h = g->target_height;
	uint8_t *rgba = malloc((size_t)w * h * 4);
	if (!rgba)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a render target");
	if (g->target_depth) {
		tsr_texture_write_depth_rect(g->target_tex, 0, 0, w, h, g->imr->depth, w);
	} else {
		tsr_rgba8_row(rgba, g->imr->color, (size_t)w * h * 4);
		tsr_texture_write_rect(g->target_tex, 0, 0, w, h, rgba, w * 4);
	}
	if (g->store_depth_tex)  /* its depth too, into the pass's depth target */
		tsr_texture_write_depth_rect(g->store_depth_tex, 0, 0, w, h, g->imr->depth, w);
	for (uint32_t i = 0; i < TSR_MAX_DRAW_BUFFERS - 1; i++) {  /* color targets 1..3 */
		if (!g->target_mrt[i])
			continue;
		tsr_rgba8_row(rgba, &g->imr->mrt[(size_t)i * w * h * 4], (size_t)w * h * 4);
		tsr_texture_write_rect(g->target_mrt[i], 0, 0, w, h, rgba, w * 4);
	}
	free(rgba);
	return TSR_OK;
}

static enum tsr_status imr_begin_frame(struct tsr_gpu *g, const struct tsr_frame_commands *c,
				       struct tsr_frame_stats *st, struct tsr_error *err)
{
	TSR_TRY(tsr_gpu_check_passes(g, c, err));
	if (g->frames_begun != g->frames_finished)
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "frame %u begun before the previous one finished", c->frame);
	struct frame_slot *f = &g->slots[0];
	memset(st, 0, sizeof(*st));
	g->fb_drawn = 0;
	st->frame = c->frame;
	f->frame = c->frame;
	f->st = st;
	g->geo = g->ras = f;
	tsr_frame_stats_snapshot_memory(g->mem_base, g->mem);
	tsr_mem_marker(g->mem, TSR_MARKER_FRAME, c->frame);
	/* the passes in order, each into its target (render to texture) */
	for (uint32_t pi = 0; pi < c->pass_count; pi++) {
		const struct tsr_cmd_pass *pass = &c->passes[pi];
		TSR_TRY(tsr_gpu_run_blits(g, c, pi, err));  /* the blits before it */
		TSR_TRY(begin_pass(g, c, pass, err));
		TSR_TRY(tsr_gpu_bind_pass(g, f, c, pass, err));
		tsr_geometry_begin_frame(g->geom);
		for (uint32_t i = 0; i < pass->draw_count; i++) {
			struct tsr_draw d;
			tsr_stage_decode_draw(g, &c->draws[pass->first_draw + i], i, &d);
			/* the draw call's primitives only: rasterized before the next draw */
			tsr_prim_array_reset(&f->prims);
			if (g->timing)
				tsr_timing_imr_draw_begin(g, st);
			TSR_TRY(tsr_geometry_draw(g->geom, &d, g->mem, &f->prims, &st->geometry,
						  err));
			if (g->timing)
				TSR_TRY(tsr_timing_imr_draw_geometry(g, f->prims.count, st, err));
			for (uint32_t k = 0; k < f->prims.count; k++) {
				raster_primitive(g, &f->prims.prims[k], st);
				if (g->timing)
					TSR_TRY(tsr_timing_imr_primitive_end(g, k + 1, st, err));
			}
			if (g->timing)
				TSR_TRY(tsr_timing_imr_draw_end(g, st, err));
			if (g->progress)
				g->progress(g->progress_ctx, c->frame, TSR_PHASE_RENDERING, i + 1,
					    pass->draw_count);
		}
		TSR_TRY(end_pass(g, pi + 1 == c->pass_count, err));
		if (pass->mipmap && g->target_tex)
			tsr_texture_build_mips(g->target_tex);
		if (g->timing && pi + 1 < c->pass_count)
			TSR_TRY(tsr_timing_imr_pass_end(g, st, err));
	}
	tsr_frame_stats_snapshot_memory(st, g->mem);
	tsr_frame_stats_sub_memory(st, g->mem_base);
	g->frames_begun++;
	return TSR_OK;
}

static enum tsr_status imr_finish_frame(struct tsr_gpu *g, struct tsr_error *err)
{
	if (g->frames_finished == g->frames_begun)
		return tsr_error_set(err, TSR_ERR_INTERNAL, "no frame begun to finish");
	/* the frame buffer as the display controller reads it (no traffic counted:
	 * scan-out is outside the GPU) */
	tsr_rgba8_row(g->image[g->back], g->imr->color, (size_t)g->cfg.width * g->cfg.height * 4);
	g->back ^= 1;
	if (g->timing)  /* the frame's last batches, and its writes to DRAM */
		TSR_TRY(tsr_timing_frame_end(g, g->slots[0].st, err));
	g->frames_finished++;
	return TSR_OK;
}

/* A blit's frame-buffer traffic: each 8x8 block of the color buffer the
 * rectangle covers, 256 bytes (as load_color's copy), stream display. */
static void imr_window_traffic(struct tsr_gpu *g, uint32_t buf, uint32_t x0, uint32_t y0,
			       uint32_t w, uint32_t h, int write)
{
	struct tsr_imr *m = g->imr;
	const uint32_t blocks_x = (g->cfg.width + 7) / 8;
	for (uint32_t by = y0 / 8; by <= (y0 + h - 1) / 8; by++)
		for (uint32_t bx = x0 / 8; bx <= (x0 + w - 1) / 8; bx++)
			tsr_mem_access(g->mem, m->display_port,
				       m->color_base[buf] + ((uint64_t)by * blocks_x + bx) * 256u,
				       256, write, TSR_STREAM_DISPLAY, 0, 0, NULL);
}

const struct tsr_pipeline_driver tsr_imr_driver = {
	.name = "imr",
	.create = imr_create,
	.destroy = imr_destroy,
	.begin_frame = imr_begin_frame,
	.finish_frame = imr_finish_frame,
	.window_traffic = imr_window_traffic,
};
