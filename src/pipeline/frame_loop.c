/*
 * frame_loop.c - the frame and pass loop of the TBR GPU (TCOR II-A,
 * Fig. 2), the TBR's struct tsr_pipeline_driver: per frame, the frontend's command list (command/command.h); per
 * pass, every draw call binned (stages.c, tsr_stage_draw: the geometry
 * phase, tsr_gpu_begin_frame), then every tile rendered in the configured
 * order, reversed every other frame if asked (boustrophedonic III-F;
 * tsr_stage_tile: the raster phase, tsr_gpu_finish_frame); then the
 * buffers swap. With timing.overlap_frames the next frame's geometry
 * phase runs between the two, into the other frame slot. A multi-pass
 * frame (render to texture, GSPC Section 1) bins and renders each pass
 * before its last in turn into its render target within
 * tsr_gpu_begin_frame(), so that the last pass, which draws the frame
 * buffer, keeps the two phases above.
 */
#include <string.h>

#include "pipeline/gpu_priv.h"

const uint32_t *tsr_gpu_tile_order(const struct tsr_gpu *g, uint32_t frame)
{
	return g->cfg.reverse_every_other_frame && frame % 2 ? g->order_reversed : g->order;
}

/*
 * The geometry phase of one pass into the frame slot g->geo; the first
 * pass of a frame starts the techniques' frame (after the Parameter
 * Buffer's, which they read).
 */
static enum tsr_status bin_pass(struct tsr_gpu *g, const struct tsr_cmd_pass *pass,
				uint32_t frame, struct tsr_frame_stats *st, struct tsr_error *err)
{
	struct frame_slot *f = g->geo;
	memcpy(f->clear, pass->clear.color, sizeof(f->clear));
	tsr_prim_array_reset(&f->prims);
	f->binned = 0;
	tsr_gpu_set_target(g, pass);
	uint32_t w, h;
	f->load_color = (uint8_t)tsr_pass_loads_color(
		pass, tsr_pass_framebuffer(pass, &g->res, g->cfg.width, g->cfg.height, &w, &h));
	f->load_depth = (uint8_t)tsr_pass_loads_depth(pass);
	f->stencil = (uint8_t)tsr_pass_tests_stencil(g->cmds, pass);
	f->stencil_clear = (uint8_t)pass->clear.stencil;  /* invalidated: cleared too */
	TSR_TRY(tsr_gpu_bind_pass(g, f, g->cmds, pass, err));
	tsr_pb_begin_frame(f->pb, tsr_gpu_tile_order(g, frame), frame);
	tsr_geometry_begin_frame(g->geom);
	if (pass == &g->cmds->passes[0])
		tsr_technique_set_frame_begin(&g->techniques, g->cmds, st);
	for (uint32_t i = 0; i < pass->draw_count; i++) {
		TSR_TRY(tsr_stage_draw(g, &g->cmds->draws[pass->first_draw + i], i, st, err));
		if (g->progress)
			g->progress(g->progress_ctx, frame, TSR_PHASE_BINNING, i + 1,
				    pass->draw_count);
	}
	return TSR_OK;
}

/* What the per-tile counters (tsr_gpu_enable_heat) difference around a tile. */
struct heat_mark {
	uint64_t quads, lines, l2_misses, pb_bytes;
};

/* Cache "l2"'s read and write misses so far, all streams. */
static uint64_t l2_misses(const struct tsr_cache *c)
{
	uint64_t n = 0;
	for (int s = 0; s < TSR_STREAM_COUNT; s++) {
		const struct tsr_cache_counters *k = tsr_cache_counters_of(c, (enum tsr_stream)s);
		n += k->read_misses + k->write_misses;
	}
	return n;
}

static void heat_mark(const struct tsr_gpu *g, const struct tsr_frame_stats *st,
		      struct heat_mark *m)
{
	m->quads = st->raster.quads_shaded;
	m->lines = st->texture.line_requests;
	m->l2_misses = g->heat_l2 ? l2_misses(g->heat_l2) : 0;
	m->pb_bytes = tsr_memsys_dram(g->mem, TSR_STREAM_PB_LISTS)->read_bytes +
		      tsr_memsys_dram(g->mem, TSR_STREAM_PB_ATTRIBUTES)->read_bytes;
}

/* Adds the tile's counters since m (heat_mark) to the frame's per-tile arrays. */
static void heat_add(const struct tsr_gpu *g, uint64_t *heat, uint32_t tile,
		     const struct tsr_frame_stats *st, const struct heat_mark *m)
{
	struct heat_mark now;
	heat_mark(g, st, &now);
	const size_t n = g->tiles;
	heat[TSR_HEAT_QUADS_SHADED * n + tile] += now.quads - m->quads;
	heat[TSR_HEAT_LINE_REQUESTS * n + tile] += now.lines - m->lines;
	heat[TSR_HEAT_L2_MISSES * n + tile] += now.l2_misses - m->l2_misses;
	heat[TSR_HEAT_PB_READ_BYTES * n + tile] += now.pb_bytes - m->pb_bytes;
	heat[TSR_HEAT_TILES_SKIPPED * n + tile] += g->skipped[tile];
}

/*
 * The raster phase of the pass binned into g->ras: every tile of its
 * target in the frame's order (the tile grid covers the screen and every
 * render target: a pass renders the grid's tiles that cover its target).
 */
static enum tsr_status raster_pass(struct tsr_gpu *g, struct tsr_error *err)
{
	struct frame_slot *f = g->ras;
	struct tsr_frame_stats *st = f->st;
	const uint32_t *order = tsr_gpu_tile_order(g, f->frame);
	for (uint32_t i = 0; i < g->tiles; i++) {
		if ((order[i] % g->tiles_x) * g->cfg.tile_width >= g->target_width ||
		    (order[i] / g->tiles_x) * g->cfg.tile_height >= g->target_height)
			continue;  /* outside the pass's target */
		if (g->cfg.subtile_assignment != TSR_SA_CONST) {
			/* the tile's subtile assignment (DTexL III-D), from the previous tile's */
			const uint32_t t = order[i], p = order[i ? i - 1 : 0];
			tsr_subtile_assign_step(g->cfg.subtile_assignment, &g->subtiles,
						g->subtile_core, i,
						(int32_t)(t % g->tiles_x) - (int32_t)(p % g->tiles_x),
						(int32_t)(t / g->tiles_x) - (int32_t)(p / g->tiles_x),
						g->subtile_core);
			tsr_raster_set_subtile_cores(g->raster, g->subtile_core);
		}
		struct heat_mark mark = {0};
		if (f->heat)  /* tsr_gpu_enable_heat() */
			heat_mark(g, st, &mark);
		if (g->timing)
			tsr_timing_tile_begin(g, order[i]);
		tsr_stage_tile(g, order[i], st);
		if (f->heat)
			heat_add(g, f->heat, order[i], st, &mark);
		if (g->timing)
			TSR_TRY(tsr_timing_tile_end(g, st, err));
		if (g->progress && ((i & 63) == 63 || i + 1 == g->tiles))
			g->progress(g->progress_ctx, f->frame, TSR_PHASE_RENDERING, i + 1, g->tiles);
	}
	return TSR_OK;
}

/* The images a render-to-texture pass drew have new contents (struct
 * tsr_gpu image_versions). */
static void bump_target_versions(struct tsr_gpu *g, const struct tsr_cmd_pass *p)
{
	g->image_versions[p->target_image]++;
	if (p->store_depth)
		g->image_versions[p->depth_image]++;
	for (uint32_t i = 1; i < TSR_MAX_DRAW_BUFFERS; i++)
		if (p->mrt >> i & 1)
			g->image_versions[p->mrt_images[i - 1]]++;
}

static enum tsr_status tbr_begin_frame(struct tsr_gpu *g, const struct tsr_frame_commands *c,
				       struct tsr_frame_stats *st, struct tsr_error *err)
{
	TSR_TRY(tsr_gpu_check_passes(g, c, err));
	if (g->frames_begun - g->frames_finished >= g->slot_count)
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "frame %u begun while %u frames wait for their raster phase",
				     c->frame, g->frames_begun - g->frames_finished);
	const uint32_t frame = c->frame;
	struct frame_slot *f = &g->slots[g->frames_begun % g->slot_count];
	memset(st, 0, sizeof(*st));
	g->fb_drawn = 0;
	st->frame = frame;
	f->frame = frame;
	f->st = st;
	if (f->heat) {  /* tsr_gpu_enable_heat(): the frame's per-tile counters */
		memset(f->heat, 0, (size_t)TSR_HEAT_COUNT * g->tiles * sizeof(*f->heat));
		f->heat_done = 0;
	}
	g->geo = f;
	g->cmds = c;
	tsr_frame_stats_snapshot_memory(g->mem_base, g->mem);
	tsr_mem_marker(g->mem, TSR_MARKER_FRAME, frame);

	/* binning: Geometry Pipeline and Polygon List Builder, draw call by draw call */
	if (g->timing)
		tsr_timing_frame_begin(g);
	/* render to texture: each pass before the last is binned and rendered
	 * into its render target before the next pass's draws are binned */
	for (uint32_t p = 0; p + 1 < c->pass_count; p++) {
		TSR_TRY(tsr_gpu_run_blits(g, c, p, err));  /* the blits before it */
		TSR_TRY(bin_pass(g, &c->passes[p], frame, st, err));
		if (g->timing)
			TSR_TRY(tsr_timing_geometry_end(g, st, err));
		g->ras = f;
		TSR_TRY(raster_pass(g, err));
		if (c->passes[p].mipmap && g->target_tex)
			tsr_texture_build_mips(g->target_tex);
		if (c->passes[p].target == TSR_TARGET_TEXTURE)
			bump_target_versions(g, &c->passes[p]);
		if (c->passes[p].target == TSR_TARGET_FRAMEBUFFER)
			g->fb_drawn = 1;  /* a later pass continues this frame's image */
		if (g->timing)
			TSR_TRY(tsr_timing_pass_end(g, st, err));
	}
	TSR_TRY(tsr_gpu_run_blits(g, c, c->pass_count - 1, err));
	TSR_TRY(bin_pass(g, &c->passes[c->pass_count - 1], frame, st, err));
	tsr_technique_set_geometry_end(&g->techniques, st);
	if (g->timing)
		TSR_TRY(tsr_timing_geometry_end(g, st, err));
	/* the geometry phase's memory counters */
	tsr_frame_stats_snapshot_memory(st, g->mem);
	tsr_frame_stats_sub_memory(st, g->mem_base);
	g->frames_begun++;
	return TSR_OK;
}

static enum tsr_status tbr_finish_frame(struct tsr_gpu *g, struct tsr_error *err)
{
	if (g->frames_finished == g->frames_begun)
		return tsr_error_set(err, TSR_ERR_INTERNAL, "no frame's geometry to render");
	struct frame_slot *f = &g->slots[g->frames_finished % g->slot_count];
	struct tsr_frame_stats *st = f->st;
	g->ras = f;
	tsr_frame_stats_snapshot_memory(g->mem_base, g->mem);

	/* rendering: Tile Fetcher and Raster Pipeline, tile by tile, into the
	 * frame buffer (the last pass; a frame's slot keeps its target) */
	TSR_TRY(raster_pass(g, err));
	g->back ^= 1;  /* swap: the frame just rendered becomes the front buffer */

	/* the raster phase's memory counters join the geometry phase's */
	tsr_frame_stats_snapshot_memory(g->mem_phase, g->mem);
	tsr_frame_stats_sub_memory(g->mem_phase, g->mem_base);
	tsr_frame_stats_add_memory(st, g->mem_phase);
	if (g->timing)
		TSR_TRY(tsr_timing_frame_end(g, st, err));
	tsr_technique_set_frame_end(&g->techniques, st);
	f->heat_done = 1;  /* the timing mode's tiles have all left (tsr_timing_frame_end) */
	g->frames_finished++;
	return TSR_OK;
}

/* A blit's frame-buffer traffic: a row access each, as the tile load
 * (reads) and the flush (writes) make them (routes.color, stream color). */
static void tbr_window_traffic(struct tsr_gpu *g, uint32_t buf, uint32_t x0, uint32_t y0,
			       uint32_t w, uint32_t h, int write)
{
	const uint32_t port = tsr_memsys_port(g->mem, TSR_STREAM_COLOR, 0);
	for (uint32_t y = y0; y < y0 + h; y++)
		tsr_mem_access(g->mem, port, g->fb_base[buf] + (uint64_t)y * g->fb_pitch +
			       (uint64_t)x0 * 4, w * 4, write, TSR_STREAM_COLOR, 0, 0, NULL);
}

const struct tsr_pipeline_driver tsr_tbr_driver = {
	.name = "tbr",
	.begin_frame = tbr_begin_frame,
	.finish_frame = tbr_finish_frame,
	.window_traffic = tbr_window_traffic,
};
