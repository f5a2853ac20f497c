/*
 * tile_stages.c - the tile half of a TBR frame's stages as work items
 * (TCOR II-A, Fig. 2; tile_stages.h): tile entry, Tile Fetcher, issue to
 * the Raster Pipeline (raster/raster.h), tile flush, and tsr_stage_tile()
 * running them back to back with the raster stages in between. The
 * techniques are called through their tile_begin and tile_flush hooks
 * (techniques/technique.h).
 */
#include <string.h>

#include "pipeline/tile_stages.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/*
 * The tile window of tile `tile` over the GPU's on-chip depth and color
 * buffers, clipped to the pass's target (the screen or a render target).
 */
static void tile_window(const struct tsr_gpu *g, uint32_t tile, struct tsr_target *t)
{
	t->x0 = (int32_t)((tile % g->tiles_x) * g->cfg.tile_width);
	t->y0 = (int32_t)((tile / g->tiles_x) * g->cfg.tile_height);
	t->width = g->cfg.tile_width;
	t->height = g->cfg.tile_height;
	if ((uint32_t)t->x0 + t->width > g->target_width)
		t->width = g->target_width - (uint32_t)t->x0;
	if ((uint32_t)t->y0 + t->height > g->target_height)
		t->height = g->target_height - (uint32_t)t->y0;
	t->stride = g->cfg.tile_width;
	t->depth = g->tile_depth;
	t->color = g->target_depth ? NULL : g->tile_color;  /* a depth target: no color output */
	t->stencil = g->ras && g->ras->stencil ? g->tile_stencil : NULL;  /* a pass testing stencil */
	/* color targets 1..3 (GL_EXT_draw_buffers): a plane each in the tile
	 * buffer, as Mali and PowerVR keep several render targets on chip */
	const size_t plane = (size_t)g->cfg.tile_width * g->cfg.tile_height * 4;
	for (uint32_t i = 0; i < TSR_MAX_DRAW_BUFFERS - 1; i++)
		t->mrt[i] = g->target_mrt[i] ? &g->tile_mrt[i * plane] : NULL;
}

/* 1 when the pass draws color targets past 0 (GL_EXT_draw_buffers). */
static int pass_mrt(const struct tsr_gpu *g)
{
	return g->target_mrt[0] || g->target_mrt[1] || g->target_mrt[2];
}

/* Clears the tile's depth (to the far plane), stencil (to stencil, if the
 * pass tests it) and colors (to clear, if any) before rendering: on chip,
 * no memory traffic. */
static void tile_clear(struct tsr_target *t, const float clear[4], uint8_t stencil)
{
	const uint32_t n = t->stride * t->height;
	float *restrict depth = t->depth, *restrict color = t->color;
	const float c0 = clear[0], c1 = clear[1], c2 = clear[2], c3 = clear[3];
	for (uint32_t p = 0; p < n; p++)
		depth[p] = 1.0f;
	if (t->stencil)
		memset(t->stencil, stencil, n);
	if (!color)
		return;
#ifdef __SSE2__
	const __m128 c = _mm_setr_ps(c0, c1, c2, c3);
	for (uint32_t p = 0; p < n; p++)
		_mm_storeu_ps(&color[4 * p], c);
#else
	for (uint32_t p = 0; p < n; p++) {
		color[4 * p] = c0;
		color[4 * p + 1] = c1;
		color[4 * p + 2] = c2;
		color[4 * p + 3] = c3;
	}
#endif
}

/* Byte address of the tile's row y in frame buffer `buf` (g->back: the one flushed to). */
static uint64_t fb_row_address(const struct tsr_gpu *g, const struct tsr_target *t, uint32_t y,
			       uint32_t buf)
{
	return g->fb_base[buf] + ((uint64_t)t->y0 + y) * g->fb_pitch + (uint64_t)t->x0 * 4;
}

static uint64_t flush_row_address(const struct tsr_gpu *g, const struct tsr_target *t,
				  uint32_t y)
{
	return fb_row_address(g, t, y, g->back);
}

/* The render target's block rows under the tile: one access per row of
 * 4x4 blocks (the block-linear layout of texture/texture.h) through
 * routes.render_target, stream render_target; a write (the flush) or a
 * read (the tile load). */
static void rt_block_rows_of(struct tsr_gpu *g, const struct tsr_texture *tex,
			     const struct tsr_target *t, int write);

static void rt_block_rows(struct tsr_gpu *g, const struct tsr_target *t, int write)
{
	rt_block_rows_of(g, g->target_tex, t, write);
}

static void rt_block_rows_of(struct tsr_gpu *g, const struct tsr_texture *tex,
			     const struct tsr_target *t, int write)
{
	tsr_gpu_rt_rect_traffic(g, tex, (uint32_t)t->x0, (uint32_t)t->y0, t->width, t->height,
				write);
}

/*
 * The tile load's reads, for a pass that keeps its color buffer (command/
 * state.h, struct tsr_clear_state): the tile's pixels of the previous
 * frame's image (the front buffer: EGL_BUFFER_PRESERVED; the back buffer
 * when a pass of this frame drew it already: g->fb_drawn; 4 bytes a pixel
 * a row, routes.color, stream color) or the render target's texels it
 * draws again (stream render_target).
 */
static void tile_load_traffic(struct tsr_gpu *g, const struct tsr_target *t)
{
	if (g->target_tex) {
		rt_block_rows(g, t, 0);
		return;
	}
	const uint32_t port = tsr_memsys_port(g->mem, TSR_STREAM_COLOR, 0);
	const uint32_t buf = g->fb_drawn ? g->back : g->back ^ 1;
	for (uint32_t y = 0; y < t->height; y++)
		tsr_mem_access(g->mem, port, fb_row_address(g, t, y, buf), t->width * 4, 0,
			       TSR_STREAM_COLOR, 0, 0, NULL);
}

/* The tile load's colors: the loaded RGBA8 pixels (tile_load_traffic's)
 * as the on-chip buffer's floats (byte / 255, which a flush rounds back
 * to the same byte). */
static void tile_load_colors(struct tsr_gpu *g, const struct tsr_target *t)
{
	const uint8_t *src = &g->image[g->fb_drawn ? g->back : g->back ^ 1][((size_t)t->y0 *
									    g->cfg.width +
						     (uint32_t)t->x0) * 4];
	size_t pitch = (size_t)g->cfg.width * 4;
	if (g->target_tex) {
		tsr_texture_read_rect(g->target_tex, (uint32_t)t->x0, (uint32_t)t->y0, t->width,
				      t->height, g->tile_rgba, t->width * 4);
		src = g->tile_rgba;
		pitch = (size_t)t->width * 4;
	}
	for (uint32_t y = 0; y < t->height; y++)
		for (uint32_t i = 0; i < t->width * 4; i++)
			t->color[(size_t)y * t->stride * 4 + i] = (float)src[y * pitch + i] / 255.0f;
}

/* The tile's buffers at its start: cleared, then its colors loaded when
 * the pass keeps them. */
static void tile_start(struct tsr_gpu *g, struct tsr_target *t)
{
	tile_clear(t, g->ras->clear, g->ras->stencil_clear);
	if (g->ras->load_color && t->color)
		tile_load_colors(g, t);
	/* color targets 1..3: cleared to the pass's clear color, or loaded
	 * from their images (byte / 255, as target 0's load) */
	for (uint32_t i = 0; i < TSR_MAX_DRAW_BUFFERS - 1; i++) {
		float *plane = t->mrt[i];
		if (!plane)
			continue;
		if (g->target_mrt_clear >> (i + 1) & 1) {
			for (uint32_t y = 0; y < t->height; y++)
				for (uint32_t x = 0; x < t->width; x++)
					memcpy(&plane[((size_t)y * t->stride + x) * 4], g->ras->clear,
					       4 * sizeof(float));
			continue;
		}
		tsr_texture_read_rect(g->target_mrt[i], (uint32_t)t->x0, (uint32_t)t->y0, t->width,
				      t->height, g->tile_rgba, t->width * 4);
		for (uint32_t y = 0; y < t->height; y++)
			for (uint32_t x = 0; x < t->width * 4; x++)
				plane[(size_t)y * t->stride * 4 + x] =
					(float)g->tile_rgba[(size_t)y * t->width * 4 + x] / 255.0f;
	}
	if (g->ras->load_depth && g->store_depth_tex)  /* the depth an earlier pass stored */
		tsr_texture_read_depth_rect(g->store_depth_tex, (uint32_t)t->x0, (uint32_t)t->y0,
					    t->width, t->height, t->depth, t->stride);
}

/* DRAM bytes the tile's flush writes (whole bursts per row). */
static uint64_t flush_dram_bytes(const struct tsr_gpu *g, const struct tsr_target *t)
{
	uint64_t b = 0;
	for (uint32_t y = 0; y < t->height; y++)
		b += tsr_mem_dram_burst_bytes(g->mem, flush_row_address(g, t, y), t->width * 4);
	return b;
}

uint64_t tsr_stage_flush_bytes(void *gpu, uint32_t tile)
{
	struct tsr_target t;
	tile_window(gpu, tile, &t);
	return flush_dram_bytes(gpu, &t);
}

/*
 * The tile's colors as a flush writes them (RGBA8, rows packed), and the
 * back buffer's; ready: tile_rgba holds them already.
 */
static void tile_colors(struct tsr_gpu *g, const struct tsr_target *t, uint32_t tile,
			int ready, struct tsr_tile_colors *c)
{
	if (!ready)
		for (uint32_t y = 0; y < t->height; y++)
			tsr_rgba8_row(&g->tile_rgba[(size_t)y * t->width * 4],
				  &t->color[(size_t)y * t->stride * 4], t->width * 4);
	c->tile = tile;
	c->width = t->width;
	c->height = t->height;
	c->rgba = g->tile_rgba;
	c->back = &g->image[g->back][((size_t)t->y0 * g->cfg.width + (uint32_t)t->x0) * 4];
	c->back_pitch = g->cfg.width * 4;
	c->dram_bytes = 0;
}

uint32_t tsr_stage_tile_issue(struct tsr_gpu *g, struct tsr_tile_work *w)
{
	uint32_t n = 0;
	while (w->issued < w->count) {
		const struct tsr_primitive *p = &g->ras->prims.prims[w->list[w->issued]];
		const struct tsr_raster_prim item = {p, &g->ras->bindings[p->draw]};
		if (!tsr_raster_submit(g->raster, &item))
			break;
		w->issued++;
		n++;
	}
	return n;
}

/* Issues and rasterizes every primitive of w back to back (the functional mode). */
static void tile_raster(struct tsr_gpu *g, struct tsr_tile_work *w, const struct tsr_raster_ctx *c)
{
	while (tsr_stage_tile_issue(g, w))
		tsr_raster_drain(g->raster, c);
}

void tsr_stage_render_tile(void *gpu, uint32_t tile, struct tsr_memsys *mem,
			   struct tsr_raster_stats *rs, struct tsr_texture_stats *ts,
			   struct tsr_tile_colors *out)
{
	struct tsr_gpu *g = gpu;
	struct tsr_tile_work w = {.tile = tile};
	tile_window(g, tile, &w.target);
	tile_start(g, &w.target);
	w.count = tsr_pb_list_length(g->ras->pb, tile);
	w.list = tsr_pb_list(g->ras->pb, tile);
	tile_raster(g, &w, &(struct tsr_raster_ctx){&w.target, mem, rs, ts, NULL});
	tile_colors(g, &w.target, tile, 0, out);
	out->dram_bytes = flush_dram_bytes(g, &w.target);
}

/* Writes the tile's colors to the back frame buffer (routes.color: DRAM, TCOR Fig. 2). */
static void flush_tile(struct tsr_gpu *g, const struct tsr_target *t)
{
	uint8_t *img = g->image[g->back];
	const uint32_t port = tsr_memsys_port(g->mem, TSR_STREAM_COLOR, 0);
	for (uint32_t y = 0; y < t->height; y++) {
		uint32_t sy = (uint32_t)t->y0 + y;
		tsr_mem_access(g->mem, port, flush_row_address(g, t, y), t->width * 4, 1,
			       TSR_STREAM_COLOR, 0, 0, NULL);
		memcpy(&img[((size_t)sy * g->cfg.width + (uint32_t)t->x0) * 4],
		       &g->tile_rgba[(size_t)y * t->width * 4], t->width * 4);
	}
}

/*
 * Writes the tile's colors to the pass's render target: its texels (the
 * texture later passes sample) and its memory, one write per row of 4x4
 * blocks (the block-linear layout of texture/texture.h) through
 * routes.render_target, stream render_target. A depth target's flush
 * stores the tile's depth the same way (4 bytes a pixel, 32-bit float,
 * tsr_texture_write_depth_rect(): the depths samples read, the texels
 * their grey image): the stored depth
 * attachment is a render target of the pass, so its stream is
 * render_target too (not z, which is the IMR's depth buffer traffic).
 */
static void flush_tile_to_texture(struct tsr_gpu *g, const struct tsr_target *t)
{
	if (g->target_depth)
		tsr_texture_write_depth_rect(g->target_tex, (uint32_t)t->x0, (uint32_t)t->y0,
					     t->width, t->height, t->depth, t->stride);
	else
		tsr_texture_write_rect(g->target_tex, (uint32_t)t->x0, (uint32_t)t->y0, t->width,
				       t->height, g->tile_rgba, t->width * 4);
	rt_block_rows(g, t, 1);
	/* color targets 1..3 (GL_EXT_draw_buffers): each plane stored into its
	 * own image, its block rows written as target 0's (stream
	 * render_target); tile_rgba holds target 0's colors no more */
	for (uint32_t i = 0; i < TSR_MAX_DRAW_BUFFERS - 1; i++) {
		if (!t->mrt[i])
			continue;
		for (uint32_t y = 0; y < t->height; y++)
			tsr_rgba8_row(&g->tile_rgba[(size_t)y * t->width * 4],
				      &t->mrt[i][(size_t)y * t->stride * 4], t->width * 4);
		tsr_texture_write_rect(g->target_mrt[i], (uint32_t)t->x0, (uint32_t)t->y0, t->width,
				       t->height, g->tile_rgba, t->width * 4);
		rt_block_rows_of(g, g->target_mrt[i], t, 1);
	}
	if (!g->store_depth_tex)
		return;
	/* and its depth into the pass's depth target */
	tsr_texture_write_depth_rect(g->store_depth_tex, (uint32_t)t->x0, (uint32_t)t->y0,
				     t->width, t->height, t->depth, t->stride);
	rt_block_rows_of(g, g->store_depth_tex, t, 1);
}

/* tsr_stage_tile_begin() but the clear (the functional mode clears after the fetch). */
static int tile_enter(struct tsr_gpu *g, uint32_t tile, struct tsr_frame_stats *st,
		      struct tsr_tile_work *w)
{
	tsr_mem_marker(g->mem, TSR_MARKER_TILE, tile);
	st->tiling.tiles++;
	g->skipped[tile] = 0;
	/* the techniques see the frame-buffer pass's tiles (technique.h) */
	if (!g->target_tex && tsr_technique_set_tile_begin(&g->techniques, tile, st)) {
		g->skipped[tile] = 1;
		return 0;
	}
	*w = (struct tsr_tile_work){.tile = tile};
	tile_window(g, tile, &w->target);
	return 1;
}

int tsr_stage_tile_begin(struct tsr_gpu *g, uint32_t tile, struct tsr_frame_stats *st,
			 struct tsr_tile_work *w)
{
	if (!tile_enter(g, tile, st, w))
		return 0;
	tile_start(g, &w->target);
	return 1;
}

/*
 * An empty tile's colors, the clear color's RGBA8 (the conversion
 * tile_colors would make of the cleared buffer), straight into tile_rgba.
 */
static void tile_clear_rgba(struct tsr_gpu *g, const struct tsr_target *t)
{
	uint8_t px[4];
	tsr_rgba8_row(px, g->ras->clear, 4);
	uint32_t v;
	memcpy(&v, px, sizeof(v));
	uint32_t *dst = (uint32_t *)(void *)g->tile_rgba;
	for (uint32_t i = 0; i < t->width * t->height; i++)
		dst[i] = v;
}

void tsr_stage_tile_fetch(struct tsr_gpu *g, struct tsr_tile_work *w,
			  struct tsr_frame_stats *st)
{
	if (g->log)
		tsr_worklog_mark(g->log);
	if (g->ras->load_color && w->target.color)
		tile_load_traffic(g, &w->target);  /* the Tile Fetcher's load (preload) */
	if (g->ras->load_depth && g->store_depth_tex)  /* and of the depth texture's texels */
		rt_block_rows_of(g, g->store_depth_tex, &w->target, 0);
	for (uint32_t i = 0; i < TSR_MAX_DRAW_BUFFERS - 1; i++)  /* color targets 1..3 kept */
		if (g->target_mrt[i] && !(g->target_mrt_clear >> (i + 1) & 1))
			rt_block_rows_of(g, g->target_mrt[i], &w->target, 0);
	w->list = tsr_tile_fetch(g->ras->pb, w->tile, g->ras->prims.prims, g->mem, &w->count, &st->tiling);
	if (g->log)
		g->log->fetch = tsr_worklog_since_mark(g->log);
	w->issued = 0;
	if (w->count == 0)
		st->tiling.empty_tiles++;
}

void tsr_stage_tile_flush(struct tsr_gpu *g, struct tsr_tile_work *w,
			  struct tsr_frame_stats *st)
{
	struct tsr_tile_colors c = {0};
	if (!g->target_depth)  /* a depth target has no colors: its flush stores depth */
		tile_colors(g, &w->target, w->tile, w->colors_ready, &c);
	const int skip_flush = !g->target_tex &&
			       tsr_technique_set_tile_flush(&g->techniques, &c, st);
	if (g->log)
		tsr_worklog_mark(g->log);
	if (g->target_tex)
		flush_tile_to_texture(g, &w->target);
	else if (!skip_flush)
		flush_tile(g, &w->target);
	if (g->log)
		g->log->flush = tsr_worklog_since_mark(g->log);
}

void tsr_stage_tile(struct tsr_gpu *g, uint32_t tile, struct tsr_frame_stats *st)
{
	struct tsr_tile_work w;
	if (!tile_enter(g, tile, st, &w))
		return;
	tsr_stage_tile_fetch(g, &w, st);
	/* an empty tile of a color target: its colors are the clear color's
	 * and its depth is never read, so neither buffer is cleared (the clear
	 * makes no memory access: after the fetch is as good as before it) */
	if (w.count == 0 && !g->target_depth && !g->store_depth_tex && w.target.color &&
	    !g->ras->load_color && !pass_mrt(g)) {
		tile_clear_rgba(g, &w.target);
		w.colors_ready = 1;
	} else {
		tile_start(g, &w.target);
	}
	uint64_t before[TSR_MAX_CORES];
	const uint32_t cores = g->cfg.mem.cores;
	if (g->cfg.quad_imbalance_stats)
		memcpy(before, st->raster.quads_per_core, cores * sizeof(before[0]));
	tile_raster(g, &w, &(struct tsr_raster_ctx){&w.target, g->mem, &st->raster, &st->texture,
						    g->log});
	if (g->cfg.quad_imbalance_stats) {
		/* the quads each core shaded in this tile (DTexL Fig. 15) */
		for (uint32_t c = 0; c < cores; c++)
			before[c] = st->raster.quads_per_core[c] - before[c];
		tsr_quad_imbalance_add_tile(&st->quad_imbalance, before, cores);
	}
	tsr_stage_tile_flush(g, &w, st);
}
