#include "pipeline/gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geometry/geometry.h"
#include "memory/memsys.h"
#include "raster/raster.h"
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
};

/* The Attribute Cache's lower level is the L2 (TCOR Fig. 7). */
static void ac_lower_read(void *ctx, uint64_t addr, uint32_t bytes, uint32_t meta)
{
	tsr_mem_l2_access(ctx, addr, bytes, 0, TSR_STREAM_PB_ATTRIBUTES, 0, meta);
}

static void ac_lower_write(void *ctx, uint64_t addr, uint32_t bytes, uint32_t meta)
{
	tsr_mem_l2_access(ctx, addr, bytes, 1, TSR_STREAM_PB_ATTRIBUTES, 0, meta);
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
		s = tsr_geometry_create(cfg, &g->geom, err);
	if (s == TSR_OK)
		s = tsr_raster_create(cfg, cfg->tile_width, cfg->tile_height, &g->raster, err);
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

/* Writes the tile's color buffer to the back frame buffer (DRAM). */
static void flush_tile(struct tsr_gpu *g, const struct tsr_target *t)
{
	uint8_t *img = g->image[g->back];
	for (uint32_t y = 0; y < t->height; y++) {
		uint32_t sy = (uint32_t)t->y0 + y;
		uint64_t addr = g->fb_base[g->back] + (uint64_t)sy * g->fb_pitch +
				(uint64_t)t->x0 * 4;
		tsr_mem_dram_write(g->mem, addr, t->width * 4, TSR_STREAM_COLOR);
		const float *src = &t->color[(size_t)y * t->stride * 4];
		uint8_t *dst = &img[((size_t)sy * g->cfg.width + (uint32_t)t->x0) * 4];
		for (uint32_t i = 0; i < t->width * 4; i++)
			dst[i] = to_u8(src[i]);
	}
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
	const uint32_t tile_cache = tsr_memsys_l1_index(g->mem, TSR_L1_TILE, 0);
	g->prims.count = 0;
	tsr_pb_begin_frame(g->pb, tsr_gpu_tile_order(g, frame), frame);
	tsr_geometry_begin_frame(g->geom);
	uint32_t draw_id = 0;
	for (uint32_t o = 0; o < pass->object_count; o++) {
		const struct tsr_object *obj = &sc->objects[pass->first_object + o];
		struct tsr_mat4 model = tsr_object_model_matrix(obj, frame);
		for (uint32_t k = 0; k < obj->mesh_count; k++) {
			uint32_t mi = obj->first_mesh + k;
			const struct tsr_mesh *mesh = &sc->meshes[mi];
			struct tsr_draw d = {
				.mesh = mesh,
				.material = &sc->materials[mesh->material],
				.material_index = mesh->material,
				.draw_id = draw_id++,
				.mvp = tsr_m4_mul(vp, model),
				.model = model,
				.ib_base = g->meshes[mi].ib_base,
				.index_bytes = g->meshes[mi].index_bytes,
				.vb_base = g->meshes[mi].vb_base,
				.vs_base = g->programs[mesh->material].vs_base,
				.vs_bytes = g->programs[mesh->material].vs_bytes,
			};
			uint32_t first = g->prims.count;
			s = tsr_geometry_draw(g->geom, &d, g->mem, &g->prims, &st->geometry, err);
			if (s != TSR_OK)
				return s;
			for (uint32_t i = first; i < g->prims.count; i++) {
				uint32_t tiles;
				s = tsr_plb_bin(g->pb, &g->prims.prims[i], i, g->mem, tile_cache,
						&tiles, &st->tiling, err);
				if (s != TSR_OK)
					return s;
				if (tiles)
					st->geometry.primitives_binned++;
				else
					st->geometry.primitives_culled++;
			}
		}
	}

	/* Tile Fetcher and Raster Pipeline, tile by tile */
	const uint32_t *order = tsr_gpu_tile_order(g, frame);
	const float *clear = pass->clear_color;
	for (uint32_t i = 0; i < g->tiles; i++) {
		uint32_t tile = order[i];
		tsr_mem_marker(g->mem, TSR_MARKER_TILE, tile);
		struct tsr_target t;
		t.x0 = (int32_t)((tile % g->tiles_x) * g->cfg.tile_width);
		t.y0 = (int32_t)((tile / g->tiles_x) * g->cfg.tile_height);
		t.width = g->cfg.tile_width;
		t.height = g->cfg.tile_height;
		if ((uint32_t)t.x0 + t.width > g->cfg.width)
			t.width = g->cfg.width - (uint32_t)t.x0;
		if ((uint32_t)t.y0 + t.height > g->cfg.height)
			t.height = g->cfg.height - (uint32_t)t.y0;
		t.stride = g->cfg.tile_width;
		t.depth = g->tile_depth;
		t.color = g->tile_color;
		for (uint32_t p = 0; p < t.stride * t.height; p++) {
			t.depth[p] = 1.0f;
			memcpy(&t.color[p * 4], clear, 4 * sizeof(float));
		}
		uint32_t n;
		const uint32_t *list = tsr_tile_fetch(g->pb, tile, g->prims.prims, g->mem,
						      tile_cache, &n, &st->tiling);
		if (n == 0)
			st->tiling.empty_tiles++;
		for (uint32_t k = 0; k < n; k++) {
			const struct tsr_primitive *p = &g->prims.prims[list[k]];
			tsr_raster_primitive(g->raster, p, &g->bindings[p->material], &t, g->mem,
					     &st->raster, &st->texture);
		}
		flush_tile(g, &t);
		st->tiling.tiles++;
	}
	g->back ^= 1;  /* swap: the frame just rendered becomes the front buffer */

	tsr_frame_stats_snapshot_memory(st, g->mem);
	tsr_frame_stats_sub_memory(st, &base);
	if (g->ac) {
		/* this frame's Attribute Cache counters */
		tsr_frame_stats_set_attribute_cache(st, tsr_ac_counters_of(g->ac), &g->ac_base);
		g->ac_base = *tsr_ac_counters_of(g->ac);
	}
	return TSR_OK;
}

const uint8_t *tsr_gpu_frame_image(const struct tsr_gpu *g)
{
	return g->image[g->back ^ 1];
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
