#include "pipeline/gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geometry/geometry.h"
#include "memory/memsys.h"
#include "raster/raster.h"
#include "techniques/crc32.h"
#include "techniques/signature_unit.h"
#include "texture/texture.h"
#include "tiling/attribute_cache.h"
#include "tiling/parameter_buffer.h"
#include "tiling/tile_order.h"

struct mesh_buffers {
	uint64_t ib_base, vb_base;
	uint32_t index_bytes;
};

struct material_programs {
	uint64_t vs_base, fs_base;
	uint32_t vs_bytes, fs_bytes;
};

struct tsr_gpu {
	struct tsr_gpu_config cfg;
	const struct tsr_scene *scene;
	struct tsr_memsys *mem;
	struct tsr_addrmap map;
	struct tsr_geometry *geom;
	struct tsr_param_buffer *pb;
	struct tsr_attr_cache *ac;            /* TCOR Attribute Cache, or NULL */
	struct tsr_ac_counters ac_base;       /* its counters at the end of the last frame */
	struct tsr_raster *raster;
	struct tsr_texture **textures;        /* per scene image */
	struct mesh_buffers *meshes;
	struct material_programs *programs;
	struct tsr_shader_binding *bindings;  /* per material */
	struct tsr_prim_array prims;
	uint32_t tiles_x, tiles_y, tiles;
	uint32_t *order, *order_reversed;
	float *tile_depth, *tile_color;
	uint8_t *image[2];                    /* front and back buffers */
	uint64_t fb_base[2];
	uint32_t fb_pitch;                    /* bytes per frame-buffer row */
	uint32_t back;                        /* index of the back buffer */
	uint32_t frames_rendered;             /* the back buffer holds a frame from 2 on */
	/* Rendering Elimination (RE III) and Transaction Elimination (RE IV-C) */
	struct tsr_signature_unit *su;        /* with elimination.rendering, else NULL */
	struct tsr_memsys *verify_mem;        /* elimination.verify: skipped tiles' accesses */
	uint8_t *attr_msg;                    /* one primitive's attribute message */
	uint32_t attr_msg_cap;                /* its size, bytes */
	uint8_t *tile_rgba;                   /* the tile's colors as flushed (RGBA8) */
	uint8_t *skipped;                     /* per tile: 1 if RE skipped it this frame */
	uint32_t *te_sig[2];                  /* TE: color signature of each buffer's tiles */
	uint8_t *te_valid[2];                 /* 1 once the buffer's tile was signed */
};

/*
 * A drawcall's scene constants as the Command Processor sends them to the
 * Signature Unit (RE III-E): its uniforms (matrices, material color, alpha
 * cutoff) and fixed-function state (blending, sampler, the bound texture
 * object). The texture's contents and the shader programs are not part of
 * it (RE III-E); uploads of those are driver events that switch RE off.
 * A whole number of 64-bit subblocks.
 */
struct re_constants {
	float mvp[16];
	float model[16];
	float color[4];
	float alpha_cutoff;
	int32_t texture_object;
	uint32_t filter, wrap, blend, lit, double_sided;
	uint32_t pad;
};

/*
 * A primitive's attributes as the Polygon List Builder writes them to the
 * Parameter Buffer, in the form the model holds them: screen positions
 * (fixed point), depth, 1/w and the varyings the Raster Pipeline reads.
 * The message is zero-padded to the Parameter Buffer's attributes x
 * attribute_bytes when that is longer, so that the Signature Unit's work
 * counts what the hardware would sign.
 */
struct re_attributes {
	int64_t X[3], Y[3];
	float z[3], inv_w[3], u[3], v[3], shade[3];
	uint32_t pad;
};

/* The Attribute Cache's lower level: routes.attribute_cache (the L2, TCOR Fig. 7). */
static void ac_lower(struct tsr_memsys *m, uint64_t addr, uint32_t bytes, int write,
		     uint32_t meta)
{
	tsr_mem_access(m, tsr_memsys_port(m, TSR_ROUTE_ATTRIBUTE_CACHE, 0), addr, bytes, write,
		       TSR_STREAM_PB_ATTRIBUTES, 0, meta, NULL);
}

static void ac_lower_read(void *ctx, uint64_t addr, uint32_t bytes, uint32_t meta)
{
	ac_lower(ctx, addr, bytes, 0, meta);
}

static void ac_lower_write(void *ctx, uint64_t addr, uint32_t bytes, uint32_t meta)
{
	ac_lower(ctx, addr, bytes, 1, meta);
}

static enum tsr_status setup_address_map(struct tsr_gpu *g, struct tsr_error *err)
{
	const struct tsr_scene *sc = g->scene;
	char name[64];
	enum tsr_status s;
	uint64_t total_tris = 0;
	for (uint32_t i = 0; i < sc->mesh_count; i++) {
		const struct tsr_mesh *m = &sc->meshes[i];
		struct mesh_buffers *b = &g->meshes[i];
		b->index_bytes = m->vertex_count <= 65536 ? 2 : 4;
		snprintf(name, sizeof(name), "mesh%u.index_buffer", i);
		s = tsr_addrmap_add(&g->map, name, (uint64_t)m->index_count * b->index_bytes,
				    TSR_STREAM_INDEX, &b->ib_base, err);
		if (s != TSR_OK)
			return s;
		snprintf(name, sizeof(name), "mesh%u.vertex_buffer", i);
		s = tsr_addrmap_add(&g->map, name, (uint64_t)m->vertex_count * TSR_VERTEX_STRIDE,
				    TSR_STREAM_VERTEX, &b->vb_base, err);
		if (s != TSR_OK)
			return s;
		total_tris += m->index_count / 3;
	}
	for (uint32_t i = 0; i < sc->material_count; i++) {
		const struct tsr_material *mt = &sc->materials[i];
		struct material_programs *p = &g->programs[i];
		uint32_t samples = mt->texture >= 0 ? 1 : 0;
		p->vs_bytes = mt->vertex_shader_instructions * g->cfg.instruction_bytes;
		p->fs_bytes = (mt->shader_alu_instructions + samples) * g->cfg.instruction_bytes;
		snprintf(name, sizeof(name), "material%u.vertex_shader", i);
		s = tsr_addrmap_add(&g->map, name, p->vs_bytes, TSR_STREAM_INSTRUCTION,
				    &p->vs_base, err);
		if (s != TSR_OK)
			return s;
		snprintf(name, sizeof(name), "material%u.fragment_shader", i);
		s = tsr_addrmap_add(&g->map, name, p->fs_bytes, TSR_STREAM_INSTRUCTION,
				    &p->fs_base, err);
		if (s != TSR_OK)
			return s;
	}
	for (uint32_t i = 0; i < sc->image_count; i++) {
		uint64_t base;
		const char *path = sc->images[i].path ? sc->images[i].path : "";
		const char *slash = strrchr(path, '/');
		snprintf(name, sizeof(name), "texture%u:%s", i, slash ? slash + 1 : path);
		s = tsr_addrmap_add(&g->map, name, tsr_texture_footprint_bytes(g->textures[i]),
				    TSR_STREAM_TEXTURE, &base, err);
		if (s != TSR_OK)
			return s;
		tsr_texture_set_base(g->textures[i], base);
	}
	/* Parameter Buffer (TCOR II-B) */
	struct tsr_pb_layout l = {0};
	l.screen_width = g->cfg.width;
	l.screen_height = g->cfg.height;
	l.tile_width = g->cfg.tile_width;
	l.tile_height = g->cfg.tile_height;
	l.capacity = g->cfg.list_capacity_primitives;
	l.attribute_bytes = g->cfg.attribute_bytes;
	l.interleaved = g->cfg.pb_layout == TSR_PB_LAYOUT_INTERLEAVED;
	l.overflow_chunks = 4 * g->tiles;
	uint32_t max_attr = 2;
	for (uint32_t i = 0; i < sc->material_count; i++)
		if (1 + sc->materials[i].varyings > max_attr)
			max_attr = 1 + sc->materials[i].varyings;
	/* clipping can split a triangle into up to 10 (a 12-gon fan) */
	l.attributes_bytes = (total_tris * 10 + 1024) * max_attr * TSR_PB_BLOCK_BYTES;
	s = tsr_addrmap_add(&g->map, "pb_lists", tsr_pb_lists_bytes(g->tiles, l.capacity),
			    TSR_STREAM_PB_LISTS, &l.lists_base, err);
	if (s == TSR_OK)
		s = tsr_addrmap_add(&g->map, "pb_lists_overflow",
				    tsr_pb_lists_bytes(l.overflow_chunks, l.capacity),
				    TSR_STREAM_PB_LISTS, &l.overflow_base, err);
	if (s == TSR_OK)
		s = tsr_addrmap_add(&g->map, "pb_attributes", l.attributes_bytes,
				    TSR_STREAM_PB_ATTRIBUTES, &l.attributes_base, err);
	if (s == TSR_OK)
		s = tsr_pb_create(&l, &g->pb, err);
	if (s == TSR_OK && g->cfg.attribute_cache) {
		struct tsr_ac_config ac = g->cfg.ac;
		ac.attribute_bytes = g->cfg.attribute_bytes;
		struct tsr_ac_lower lower = {ac_lower_read, ac_lower_write, g->mem};
		s = tsr_ac_create(&ac, &lower, &g->ac, err);
		if (s == TSR_OK)
			s = tsr_pb_set_attribute_cache(g->pb, g->ac, g->cfg.output_queue, err);
	}
	if (s != TSR_OK)
		return s;
	g->fb_pitch = (g->cfg.width * 4 + 63) & ~63u;
	s = tsr_addrmap_add(&g->map, "framebuffer0", (uint64_t)g->fb_pitch * g->cfg.height,
			    TSR_STREAM_COLOR, &g->fb_base[0], err);
	if (s == TSR_OK)
		s = tsr_addrmap_add(&g->map, "framebuffer1", (uint64_t)g->fb_pitch * g->cfg.height,
				    TSR_STREAM_COLOR, &g->fb_base[1], err);
	return s;
}

static enum tsr_status setup_elimination(struct tsr_gpu *g, struct tsr_error *err)
{
	const struct tsr_elimination_config *e = &g->cfg.elim;
	size_t tpix = (size_t)g->cfg.tile_width * g->cfg.tile_height;
	g->tile_rgba = malloc(tpix * 4);
	g->skipped = calloc(g->tiles, 1);
	if (!g->tile_rgba || !g->skipped)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	if (e->transactions)
		for (int b = 0; b < 2; b++) {
			g->te_sig[b] = calloc(g->tiles, sizeof(uint32_t));
			g->te_valid[b] = calloc(g->tiles, 1);
			if (!g->te_sig[b] || !g->te_valid[b])
				return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
		}
	if (!e->rendering)
		return TSR_OK;
	uint32_t max_attr = 2;
	for (uint32_t i = 0; i < g->scene->material_count; i++)
		if (1 + g->scene->materials[i].varyings > max_attr)
			max_attr = 1 + g->scene->materials[i].varyings;
	g->attr_msg_cap = max_attr * g->cfg.attribute_bytes + sizeof(struct re_attributes) + 8;
	g->attr_msg = malloc(g->attr_msg_cap);
	if (!g->attr_msg)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	TSR_TRY(tsr_su_create(g->tiles, &g->su, err));
	if (e->verify)
		TSR_TRY(tsr_memsys_create(&g->cfg.mem, &g->verify_mem, err));
	return TSR_OK;
}

enum tsr_status tsr_gpu_create(const struct tsr_gpu_config *cfg,
			       const struct tsr_scene *scene,
			       struct tsr_gpu **out, struct tsr_error *err)
{
	*out = NULL;
	enum tsr_status s = tsr_config_check(cfg, err);
	if (s != TSR_OK)
		return s;
	struct tsr_gpu *g = calloc(1, sizeof(*g));
	if (!g)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	g->cfg = *cfg;
	g->scene = scene;
	tsr_addrmap_init(&g->map);
	g->tiles_x = (cfg->width + cfg->tile_width - 1) / cfg->tile_width;
	g->tiles_y = (cfg->height + cfg->tile_height - 1) / cfg->tile_height;
	g->tiles = g->tiles_x * g->tiles_y;
	size_t npix = (size_t)cfg->width * cfg->height;
	size_t tpix = (size_t)cfg->tile_width * cfg->tile_height;
	g->textures = calloc(scene->image_count ? scene->image_count : 1, sizeof(*g->textures));
	g->meshes = calloc(scene->mesh_count ? scene->mesh_count : 1, sizeof(*g->meshes));
	g->programs = calloc(scene->material_count ? scene->material_count : 1, sizeof(*g->programs));
	g->bindings = calloc(scene->material_count ? scene->material_count : 1, sizeof(*g->bindings));
	g->order = malloc(g->tiles * sizeof(*g->order));
	g->order_reversed = malloc(g->tiles * sizeof(*g->order_reversed));
	g->tile_depth = malloc(tpix * sizeof(float));
	g->tile_color = malloc(tpix * 4 * sizeof(float));
	g->image[0] = calloc(npix, 4);
	g->image[1] = calloc(npix, 4);
	if (!g->textures || !g->meshes || !g->programs || !g->bindings || !g->order ||
	    !g->order_reversed || !g->tile_depth || !g->tile_color || !g->image[0] ||
	    !g->image[1]) {
		tsr_gpu_destroy(g);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	s = tsr_memsys_create(&cfg->mem, &g->mem, err);
	if (s == TSR_OK)
		s = tsr_geometry_create(&(struct tsr_geometry_config){cfg->width, cfg->height,
								    cfg->mem.cores,
								    cfg->post_transform_cache_entries},
					&g->geom, err);
	if (s == TSR_OK)
		s = tsr_raster_create(&(struct tsr_raster_config){cfg->mem.cores, cfg->quad_grouping},
				      cfg->tile_width, cfg->tile_height, &g->raster, err);
	for (uint32_t i = 0; s == TSR_OK && i < scene->image_count; i++)
		s = tsr_texture_create(&scene->images[i], &g->textures[i], err);
	if (s == TSR_OK)
		s = setup_address_map(g, err);
	if (s != TSR_OK) {
		tsr_gpu_destroy(g);
		return s;
	}
	for (uint32_t i = 0; i < scene->material_count; i++) {
		const struct tsr_material *mt = &scene->materials[i];
		struct tsr_shader_binding *b = &g->bindings[i];
		b->material = mt;
		b->texture = mt->texture >= 0 && (uint32_t)mt->texture < scene->image_count
				     ? g->textures[mt->texture]
				     : NULL;
		b->fs_base = g->programs[i].fs_base;
		b->fs_bytes = g->programs[i].fs_bytes;
	}
	tsr_tile_order_build(cfg->tile_order, g->tiles_x, g->tiles_y, g->order);
	for (uint32_t i = 0; i < g->tiles; i++)
		g->order_reversed[i] = g->order[g->tiles - 1 - i];
	g->back = 1;
	s = setup_elimination(g, err);
	if (s != TSR_OK) {
		tsr_gpu_destroy(g);
		return s;
	}
	*out = g;
	return TSR_OK;
}

void tsr_gpu_destroy(struct tsr_gpu *g)
{
	if (!g)
		return;
	if (g->textures)
		for (uint32_t i = 0; i < g->scene->image_count; i++)
			tsr_texture_destroy(g->textures[i]);
	free(g->textures);
	free(g->meshes);
	free(g->programs);
	free(g->bindings);
	free(g->order);
	free(g->order_reversed);
	free(g->tile_depth);
	free(g->tile_color);
	free(g->image[0]);
	free(g->image[1]);
	tsr_prim_array_release(&g->prims);
	tsr_pb_destroy(g->pb);
	tsr_ac_destroy(g->ac);
	tsr_raster_destroy(g->raster);
	tsr_geometry_destroy(g->geom);
	tsr_memsys_destroy(g->mem);
	tsr_memsys_destroy(g->verify_mem);
	tsr_su_destroy(g->su);
	free(g->attr_msg);
	free(g->tile_rgba);
	free(g->skipped);
	for (int b = 0; b < 2; b++) {
		free(g->te_sig[b]);
		free(g->te_valid[b]);
	}
	tsr_addrmap_release(&g->map);
	free(g);
}

struct tsr_cache *tsr_gpu_cache_by_name(struct tsr_gpu *g, const char *name)
{
	return tsr_memsys_cache_by_name(g->mem, name);
}

const uint32_t *tsr_gpu_tile_order(const struct tsr_gpu *g, uint32_t frame)
{
	return g->cfg.reverse_every_other_frame && frame % 2 ? g->order_reversed : g->order;
}

static uint8_t to_u8(float c)
{
	c = c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);
	return (uint8_t)(c * 255.0f + 0.5f);
}

/* Byte address of the tile's row y in the back frame buffer. */
static uint64_t flush_row_address(const struct tsr_gpu *g, const struct tsr_target *t,
				  uint32_t y)
{
	return g->fb_base[g->back] + ((uint64_t)t->y0 + y) * g->fb_pitch + (uint64_t)t->x0 * 4;
}

/* DRAM bytes the tile's flush writes (whole lines per row). */
static uint64_t flush_dram_bytes(const struct tsr_gpu *g, const struct tsr_target *t)
{
	uint64_t b = 0;
	for (uint32_t y = 0; y < t->height; y++)
		b += tsr_mem_dram_burst_bytes(g->mem, flush_row_address(g, t, y), t->width * 4);
	return b;
}

/* The tile's color buffer as the bytes a flush writes (RGBA8, rows packed). */
static void tile_colors(struct tsr_gpu *g, const struct tsr_target *t)
{
	uint8_t *dst = g->tile_rgba;
	for (uint32_t y = 0; y < t->height; y++) {
		const float *src = &t->color[(size_t)y * t->stride * 4];
		for (uint32_t i = 0; i < t->width * 4; i++)
			*dst++ = to_u8(src[i]);
	}
}

/* 1 when tile_rgba equals the tile's colors in the back buffer. */
static int colors_equal_back(const struct tsr_gpu *g, const struct tsr_target *t)
{
	const uint8_t *img = g->image[g->back];
	for (uint32_t y = 0; y < t->height; y++) {
		const uint8_t *row = &img[(((size_t)t->y0 + y) * g->cfg.width + (uint32_t)t->x0) * 4];
		if (memcmp(row, &g->tile_rgba[(size_t)y * t->width * 4], t->width * 4))
			return 0;
	}
	return 1;
}

/*
 * Flushes the tile's color buffer to the back frame buffer (DRAM, TCOR
 * Fig. 2), unless Transaction Elimination (RE IV-C) finds its color
 * signature equal to the one of the same tile in that buffer. With
 * `classify` (RE on, the back buffer holds a rendered frame) the tile is
 * counted as in RE Fig. 14a; `equal_inputs` says whether its input
 * signature matched.
 */
static void flush_tile(struct tsr_gpu *g, const struct tsr_target *t, uint32_t tile,
		       int classify, int equal_inputs, struct tsr_elimination_stats *e)
{
	const uint32_t bytes = t->width * t->height * 4;
	tile_colors(g, t);
	int same = -1;  /* colors equal to the back buffer's: -1 not compared yet */
	if (classify) {
		same = colors_equal_back(g, t);
		if (!equal_inputs && same)
			e->false_negatives++;
		else if (!equal_inputs)
			e->tiles_changed++;
		else if (!same)
			e->stale_inputs++;
	}
	if (g->te_sig[0]) {
		struct tsr_crc_block c = tsr_crc_compute(g->tile_rgba, bytes);
		e->te_tiles_signed++;
		e->te_subblocks_signed += c.subblocks;
		if (g->te_valid[g->back][tile] && g->te_sig[g->back][tile] == c.crc) {
			e->te_flushes_removed++;
			e->color_bytes_removed += flush_dram_bytes(g, t);
			if (same < 0)
				same = colors_equal_back(g, t);
			e->te_false_positives += !same;
			return;  /* the buffer keeps its colors, as the hardware's would */
		}
		g->te_sig[g->back][tile] = c.crc;
		g->te_valid[g->back][tile] = 1;
	}
	uint8_t *img = g->image[g->back];
	const uint32_t color_port = tsr_memsys_port(g->mem, TSR_STREAM_COLOR, 0);
	for (uint32_t y = 0; y < t->height; y++) {
		uint32_t sy = (uint32_t)t->y0 + y;
		tsr_mem_access(g->mem, color_port, flush_row_address(g, t, y), t->width * 4, 1,
			       TSR_STREAM_COLOR, 0, 0, NULL);
		memcpy(&img[((size_t)sy * g->cfg.width + (uint32_t)t->x0) * 4],
		       &g->tile_rgba[(size_t)y * t->width * 4], t->width * 4);
	}
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

/*
 * A tile Rendering Elimination skips (RE III-A): nothing is read or
 * written; the back buffer keeps the colors of the frame two back. Counts
 * what the Tile Fetcher and the flush would have moved and, with
 * elimination.verify, renders the tile anyway through a separate memory
 * system (its accesses are not the modelled GPU's) to check that its
 * colors equal the kept ones.
 */
static void skip_tile(struct tsr_gpu *g, struct tsr_target *t, uint32_t tile,
		      const float clear[4], struct tsr_elimination_stats *e)
{
	uint32_t n = tsr_pb_list_length(g->pb, tile);
	const uint32_t *list = tsr_pb_list(g->pb, tile);
	e->tiles_skipped++;
	e->color_bytes_removed += flush_dram_bytes(g, t);
	e->pb_bytes_removed += (uint64_t)n * TSR_PMD_BYTES;
	for (uint32_t k = 0; k < n; k++)
		e->pb_bytes_removed += (uint64_t)g->prims.prims[list[k]].attributes *
				       g->cfg.attribute_bytes;
	if (!g->verify_mem)
		return;
	struct tsr_raster_stats rs = {0};
	struct tsr_texture_stats ts = {0};
	tile_clear(t, clear);
	for (uint32_t k = 0; k < n; k++) {
		const struct tsr_primitive *p = &g->prims.prims[list[k]];
		tsr_raster_primitive(g->raster, p, &g->bindings[p->material], t,
				     g->verify_mem, &rs, &ts);
	}
	tile_colors(g, t);
	e->tiles_verified++;
	e->false_positives += !colors_equal_back(g, t);
	e->texture_requests_removed += ts.line_requests;
	e->instructions_removed += rs.instruction_fetches;
	e->fragments_removed += rs.fragments_shaded;
}

/* Signs a drawcall's constants (RE III-E) into the Signature Unit. */
static void sign_constants(struct tsr_gpu *g, const struct tsr_draw *d)
{
	const struct tsr_material *m = d->material;
	struct re_constants c;
	memset(&c, 0, sizeof(c));
	memcpy(c.mvp, &d->mvp, sizeof(c.mvp));
	memcpy(c.model, &d->model, sizeof(c.model));
	memcpy(c.color, m->color, sizeof(c.color));
	c.alpha_cutoff = m->alpha_cutoff;
	c.texture_object = m->texture_object;
	c.filter = m->filter;
	c.wrap = m->wrap;
	c.blend = m->blend;
	c.lit = (uint32_t)m->lit;
	c.double_sided = (uint32_t)m->double_sided;
	tsr_su_constants(g->su, &c, sizeof(c));
}

/* Signs a binned primitive's attributes into the tiles it overlaps (RE III-F). */
static void sign_primitive(struct tsr_gpu *g, const struct tsr_primitive *p, uint32_t tiles)
{
	struct re_attributes a;
	memset(&a, 0, sizeof(a));
	memcpy(a.X, p->X, sizeof(a.X));
	memcpy(a.Y, p->Y, sizeof(a.Y));
	memcpy(a.z, p->z, sizeof(a.z));
	memcpy(a.inv_w, p->inv_w, sizeof(a.inv_w));
	memcpy(a.u, p->u, sizeof(a.u));
	memcpy(a.v, p->v, sizeof(a.v));
	memcpy(a.shade, p->shade, sizeof(a.shade));
	size_t bytes = (size_t)p->attributes * g->cfg.attribute_bytes;
	if (bytes < sizeof(a))
		bytes = sizeof(a);
	bytes = (bytes + 7) & ~(size_t)7;
	memset(g->attr_msg, 0, bytes);
	memcpy(g->attr_msg, &a, sizeof(a));
	tsr_su_primitive(g->su, g->attr_msg, bytes, tsr_plb_overlapped_tiles(g->pb), tiles);
}

/*
 * Whether RE may skip tiles in this frame: on in the configuration and not
 * a refresh frame (elimination.refresh_frames). Upload frames are handled
 * by invalidating the Signature Buffer.
 */
static int re_active(const struct tsr_gpu *g, uint32_t frame)
{
	uint32_t n = g->cfg.elim.refresh_frames;
	return g->su && !(n && frame % n < 2);
}

enum tsr_status tsr_gpu_render_frame(struct tsr_gpu *g, uint32_t frame,
				     struct tsr_frame_stats *st,
				     struct tsr_error *err)
{
	const struct tsr_scene *sc = g->scene;
	const struct tsr_pass *pass = &sc->passes[0];
	struct tsr_frame_stats base;
	enum tsr_status s;
	memset(st, 0, sizeof(*st));
	st->frame = frame;
	tsr_frame_stats_snapshot_memory(&base, g->mem);
	tsr_mem_marker(g->mem, TSR_MARKER_FRAME, frame);

	/* Geometry Pipeline and Polygon List Builder, drawcall by drawcall */
	struct tsr_mat4 view, proj;
	tsr_camera_matrices(&pass->camera, frame, (float)g->cfg.width / (float)g->cfg.height,
			    &view, &proj);
	struct tsr_mat4 vp = tsr_m4_mul(proj, view);
	g->prims.count = 0;
	tsr_pb_begin_frame(g->pb, tsr_gpu_tile_order(g, frame), frame);
	tsr_geometry_begin_frame(g->geom);
	struct tsr_su_counters su_base = {0};
	if (g->su)
		su_base = *tsr_su_counters_of(g->su);
	if (g->su && tsr_pass_uploads_at(pass, frame))
		tsr_su_invalidate(g->su);  /* a driver event: texture contents changed */
	uint32_t draw_id = 0;
	for (uint32_t o = 0; o < pass->object_count; o++) {
		const uint32_t oi = pass->first_object + o;
		const struct tsr_object *obj = &sc->objects[oi];
		struct tsr_mat4 model = tsr_object_model_matrix(obj, frame);
		for (uint32_t k = 0; k < obj->mesh_count; k++) {
			uint32_t mi = obj->first_mesh + k;
			const struct tsr_mesh *mesh = &sc->meshes[mi];
			uint32_t mat = tsr_object_mesh_material(sc, pass, oi, k, frame);
			struct tsr_draw d = {
				.mesh = mesh,
				.material = &sc->materials[mat],
				.material_index = mat,
				.draw_id = draw_id++,
				.mvp = tsr_m4_mul(vp, model),
				.model = model,
				.ib_base = g->meshes[mi].ib_base,
				.index_bytes = g->meshes[mi].index_bytes,
				.vb_base = g->meshes[mi].vb_base,
				.vs_base = g->programs[mat].vs_base,
				.vs_bytes = g->programs[mat].vs_bytes,
			};
			if (g->su)  /* the Command Processor sends the drawcall's constants */
				sign_constants(g, &d);
			uint32_t first = g->prims.count;
			s = tsr_geometry_draw(g->geom, &d, g->mem, &g->prims, &st->geometry, err);
			if (s != TSR_OK)
				return s;
			for (uint32_t i = first; i < g->prims.count; i++) {
				uint32_t tiles;
				s = tsr_plb_bin(g->pb, &g->prims.prims[i], i, g->mem,
						&tiles, &st->tiling, err);
				if (s != TSR_OK)
					return s;
				if (tiles)
					st->geometry.primitives_binned++;
				else
					st->geometry.primitives_culled++;
				if (g->su && tiles)
					sign_primitive(g, &g->prims.prims[i], tiles);
			}
		}
	}
	struct tsr_elimination_stats *e = &st->elim;
	if (g->su)  /* this frame's Signature Unit work */
		tsr_counters_delta(&tsr_counters_signature_unit, &e->su, tsr_su_counters_of(g->su),
				   &su_base);

	/* Tile Fetcher and Raster Pipeline, tile by tile */
	const uint32_t *order = tsr_gpu_tile_order(g, frame);
	const int classify = g->su && g->frames_rendered >= 2;
	const int skip = re_active(g, frame);
	if (skip && tsr_su_comparable(g->su, 2))
		e->re_frames++;
	for (uint32_t i = 0; i < g->tiles; i++) {
		uint32_t tile = order[i];
		tsr_mem_marker(g->mem, TSR_MARKER_TILE, tile);
		struct tsr_target t;
		tile_window(g, tile, &t);
		st->tiling.tiles++;
		int equal = classify && tsr_su_inputs_equal(g->su, tile, 2);
		e->tiles_compared += classify;
		e->tiles_equal_inputs += equal;
		g->skipped[tile] = skip && tsr_su_same_as(g->su, tile, 2);
		if (g->skipped[tile]) {
			skip_tile(g, &t, tile, pass->clear_color, e);
			continue;
		}
		tile_clear(&t, pass->clear_color);
		uint32_t n;
		const uint32_t *list = tsr_tile_fetch(g->pb, tile, g->prims.prims, g->mem,
						      &n, &st->tiling);
		if (n == 0)
			st->tiling.empty_tiles++;
		for (uint32_t k = 0; k < n; k++) {
			const struct tsr_primitive *p = &g->prims.prims[list[k]];
			tsr_raster_primitive(g->raster, p, &g->bindings[p->material], &t, g->mem,
					     &st->raster, &st->texture);
		}
		flush_tile(g, &t, tile, classify, equal, e);
	}
	g->back ^= 1;  /* swap: the frame just rendered becomes the front buffer */
	g->frames_rendered++;
	if (g->su)
		tsr_su_end_frame(g->su);

	tsr_frame_stats_snapshot_memory(st, g->mem);
	tsr_frame_stats_sub_memory(st, &base);
	if (g->ac) {
		/* this frame's Attribute Cache counters */
		tsr_counters_delta(&tsr_counters_attribute_cache, &st->attribute_cache,
				   tsr_ac_counters_of(g->ac), &g->ac_base);
		g->ac_base = *tsr_ac_counters_of(g->ac);
	}
	return TSR_OK;
}

const uint8_t *tsr_gpu_frame_image(const struct tsr_gpu *g)
{
	return g->image[g->back ^ 1];
}

const uint8_t *tsr_gpu_skipped_tiles(const struct tsr_gpu *g)
{
	return g->skipped;
}

const struct tsr_addrmap *tsr_gpu_address_map(const struct tsr_gpu *g)
{
	return &g->map;
}

const struct tsr_memsys *tsr_gpu_memsys(const struct tsr_gpu *g)
{
	return g->mem;
}

const struct tsr_gpu_config *tsr_gpu_config_of(const struct tsr_gpu *g)
{
	return &g->cfg;
}

uint32_t tsr_gpu_tile_count(const struct tsr_gpu *g)
{
	return g->tiles;
}
