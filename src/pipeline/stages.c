/*
 * stages.c - the stages of a TBR frame as work items (TCOR II-A, Fig. 2):
 * a draw call (Command Processor -> the geometry stages of
 * geometry/geometry.h -> Polygon List Builder, one primitive per work
 * item) and a tile (Tile Fetcher -> Raster Pipeline -> tile flush).
 * The frame loop (frame_loop.c) runs them back to back; a timing model can
 * drive them one work item at a time without changing what they compute.
 * Techniques are called through their hooks (techniques/technique.h).
 */
#include <string.h>

#include "pipeline/gpu_priv.h"

/*
 * Command Processor: decodes a draw call of the command list into what the
 * geometry stages latch: its constants (matrices), material, and the GPU
 * addresses of its index and vertex buffers and vertex shader.
 */
static void decode_draw(const struct tsr_gpu *g, const struct tsr_cmd_draw *cd,
			uint32_t draw_id, struct tsr_draw *d)
{
	*d = (struct tsr_draw){
		.mesh = &g->res.meshes[cd->mesh],
		.material = &g->res.materials[cd->material],
		.material_index = cd->material,
		.draw_id = draw_id,
		.mvp = cd->mvp,
		.model = cd->model,
		.ib_base = g->meshes[cd->mesh].ib_base,
		.index_bytes = g->meshes[cd->mesh].index_bytes,
		.vb_base = g->meshes[cd->mesh].vb_base,
		.vs_base = g->programs[cd->material].vs_base,
		.vs_bytes = g->programs[cd->material].vs_bytes,
	};
}

enum tsr_status tsr_stage_bin(struct tsr_gpu *g, struct tsr_frame_stats *st,
			      struct tsr_error *err)
{
	const uint32_t i = g->binned++;
	uint32_t tiles;
	TSR_TRY(tsr_plb_bin(g->pb, &g->prims.prims[i], i, g->mem, &tiles, &st->tiling, err));
	if (!tiles) {
		st->geometry.primitives_culled++;
		return TSR_OK;
	}
	st->geometry.primitives_binned++;
	for (uint32_t k = 0; k < g->technique_count; k++)
		if (g->techniques[k].ops->bin)
			g->techniques[k].ops->bin(g->techniques[k].state, i,
						  tsr_plb_overlapped_tiles(g->pb), tiles);
	return TSR_OK;
}

enum tsr_status tsr_stage_draw(struct tsr_gpu *g, const struct tsr_cmd_draw *cd,
			       uint32_t draw_id, struct tsr_frame_stats *st,
			       struct tsr_error *err)
{
	struct tsr_draw d;
	decode_draw(g, cd, draw_id, &d);
	/* the Command Processor sends the draw call's constants */
	for (uint32_t k = 0; k < g->technique_count; k++)
		if (g->techniques[k].ops->draw)
			g->techniques[k].ops->draw(g->techniques[k].state, cd, d.material);
	/* geometry stages, back to back: the draw call's primitives join g->prims */
	TSR_TRY(tsr_geometry_draw(g->geom, &d, g->mem, &g->prims, &st->geometry, err));
	/* Polygon List Builder: the draw call's primitives, in program order */
	while (g->binned < g->prims.count)
		TSR_TRY(tsr_stage_bin(g, st, err));
	return TSR_OK;
}

static uint8_t to_u8(float c)
{
	c = c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);
	return (uint8_t)(c * 255.0f + 0.5f);
}

/* The tile window of tile `tile` over the GPU's on-chip depth and color buffers. */
static void tile_window(const struct tsr_gpu *g, uint32_t tile, struct tsr_target *t)
{
	t->x0 = (int32_t)((tile % g->tiles_x) * g->cfg.tile_width);
	t->y0 = (int32_t)((tile / g->tiles_x) * g->cfg.tile_height);
	t->width = g->cfg.tile_width;
	t->height = g->cfg.tile_height;
	if ((uint32_t)t->x0 + t->width > g->cfg.width)
		t->width = g->cfg.width - (uint32_t)t->x0;
	if ((uint32_t)t->y0 + t->height > g->cfg.height)
		t->height = g->cfg.height - (uint32_t)t->y0;
	t->stride = g->cfg.tile_width;
	t->depth = g->tile_depth;
	t->color = g->tile_color;
}

/* Clears the tile's depth (to the far plane) and colors (to clear) before rendering. */
static void tile_clear(struct tsr_target *t, const float clear[4])
{
	for (uint32_t p = 0; p < t->stride * t->height; p++) {
		t->depth[p] = 1.0f;
		memcpy(&t->color[p * 4], clear, 4 * sizeof(float));
	}
}

/* Byte address of the tile's row y in the back frame buffer. */
static uint64_t flush_row_address(const struct tsr_gpu *g, const struct tsr_target *t,
				  uint32_t y)
{
	return g->fb_base[g->back] + ((uint64_t)t->y0 + y) * g->fb_pitch + (uint64_t)t->x0 * 4;
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

/* The tile's colors as a flush writes them (RGBA8, rows packed), and the back buffer's. */
static void tile_colors(struct tsr_gpu *g, const struct tsr_target *t, uint32_t tile,
			struct tsr_tile_colors *c)
{
	uint8_t *dst = g->tile_rgba;
	for (uint32_t y = 0; y < t->height; y++) {
		const float *src = &t->color[(size_t)y * t->stride * 4];
		for (uint32_t i = 0; i < t->width * 4; i++)
			*dst++ = to_u8(src[i]);
	}
	c->tile = tile;
	c->width = t->width;
	c->height = t->height;
	c->rgba = g->tile_rgba;
	c->back = &g->image[g->back][((size_t)t->y0 * g->cfg.width + (uint32_t)t->x0) * 4];
	c->back_pitch = g->cfg.width * 4;
	c->dram_bytes = 0;
}

void tsr_stage_render_tile(void *gpu, uint32_t tile, struct tsr_memsys *mem,
			   struct tsr_raster_stats *rs, struct tsr_texture_stats *ts,
			   struct tsr_tile_colors *out)
{
	struct tsr_gpu *g = gpu;
	struct tsr_target t;
	tile_window(g, tile, &t);
	tile_clear(&t, g->clear);
	uint32_t n = tsr_pb_list_length(g->pb, tile);
	const uint32_t *list = tsr_pb_list(g->pb, tile);
	for (uint32_t k = 0; k < n; k++) {
		const struct tsr_primitive *p = &g->prims.prims[list[k]];
		tsr_raster_primitive(g->raster, p, &g->bindings[p->material], &t, mem, rs, ts);
	}
	tile_colors(g, &t, tile, out);
	out->dram_bytes = flush_dram_bytes(g, &t);
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

void tsr_stage_tile(struct tsr_gpu *g, uint32_t tile, struct tsr_frame_stats *st)
{
	tsr_mem_marker(g->mem, TSR_MARKER_TILE, tile);
	st->tiling.tiles++;
	g->skipped[tile] = 0;
	for (uint32_t k = 0; k < g->technique_count; k++)
		if (g->techniques[k].ops->tile_begin &&
		    g->techniques[k].ops->tile_begin(g->techniques[k].state, tile, st)) {
			g->skipped[tile] = 1;
			return;
		}
	struct tsr_target t;
	tile_window(g, tile, &t);
	tile_clear(&t, g->clear);
	uint32_t n;
	const uint32_t *list = tsr_tile_fetch(g->pb, tile, g->prims.prims, g->mem, &n, &st->tiling);
	if (n == 0)
		st->tiling.empty_tiles++;
	for (uint32_t k = 0; k < n; k++) {
		const struct tsr_primitive *p = &g->prims.prims[list[k]];
		tsr_raster_primitive(g->raster, p, &g->bindings[p->material], &t, g->mem,
				     &st->raster, &st->texture);
	}
	struct tsr_tile_colors c;
	tile_colors(g, &t, tile, &c);
	int skip_flush = 0;
	for (uint32_t k = 0; k < g->technique_count; k++)
		if (g->techniques[k].ops->tile_flush) {
			if (!c.dram_bytes)
				c.dram_bytes = flush_dram_bytes(g, &t);
			skip_flush |= g->techniques[k].ops->tile_flush(g->techniques[k].state, &c, st);
		}
	if (!skip_flush)
		flush_tile(g, &t);
}
