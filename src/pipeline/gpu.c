/*
 * gpu.c - the modelled GPU: builds the units of the
 * modelled GPU for a configuration (memory hierarchy, Geometry Pipeline,
 * Parameter Buffer, Raster Pipeline, the techniques it switches on),
 * allocates the resources of the command lists in the GPU's address space
 * (index and vertex buffers, shader programs, textures with their mip
 * chains, the Parameter Buffer's regions, two frame buffers) and binds
 * materials to their textures and programs; chooses the pipeline whose
 * frames it renders (struct tsr_pipeline_driver: the TBR's frame_loop.c,
 * the immediate mode's imr_driver.c), once, from pipeline.mode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/limits.h"
#include "pipeline/gpu_priv.h"
#include "tiling/tile_order.h"

/*
 * The Parameter Buffer of frame slot i (TCOR II-B): its regions in the
 * address map ("pb_lists", "pb_lists_overflow", "pb_attributes"; the
 * second slot's "pb1_..."), sized for total_tris triangles.
 */
static enum tsr_status create_pb(struct tsr_gpu *g, uint32_t i, uint64_t total_tris,
				 struct tsr_error *err)
{
	struct tsr_pb_layout l = {0};
	l.screen_width = g->grid_width;
	l.screen_height = g->grid_height;
	l.tile_width = g->cfg.tile_width;
	l.tile_height = g->cfg.tile_height;
	l.capacity = g->cfg.list_capacity_primitives;
	l.attribute_bytes = g->cfg.attribute_bytes;
	l.attribute_write_bytes = tsr_config_attribute_write_bytes(&g->cfg);
	l.interleaved = g->cfg.pb_layout == TSR_PB_LAYOUT_INTERLEAVED;
	l.overflow_chunks = 4 * g->tiles;
	/* both grow after every other region when a frame needs more */
	l.map = &g->map;
	l.max_bytes = (uint64_t)g->cfg.pb_max_mib << 20;
	/* clipping can split a triangle into up to 10 (a 12-gon fan) */
	l.attributes_bytes = (total_tris * 10 + 1024) * g->max_attributes * TSR_PB_BLOCK_BYTES;
	const char *pre = i ? "pb1" : "pb";
	char name[64];
	snprintf(name, sizeof(name), "%s_lists", pre);
	enum tsr_status s = tsr_addrmap_add(&g->map, name, tsr_pb_lists_bytes(g->tiles, l.capacity),
					    TSR_STREAM_PB_LISTS, &l.lists_base, err);
	if (s == TSR_OK) {
		snprintf(name, sizeof(name), "%s_lists_overflow", pre);
		s = tsr_addrmap_add(&g->map, name, tsr_pb_lists_bytes(l.overflow_chunks, l.capacity),
				    TSR_STREAM_PB_LISTS, &l.overflow_base, err);
	}
	if (s == TSR_OK) {
		snprintf(name, sizeof(name), "%s_attributes", pre);
		s = tsr_addrmap_add(&g->map, name, l.attributes_bytes, TSR_STREAM_PB_ATTRIBUTES,
				    &l.attributes_base, err);
	}
	if (s == TSR_OK)
		s = tsr_pb_create(&l, &g->slots[i].pb, err);
	return s;
}

/*
 * The regions of meshes [m0, mesh_count), materials [p0, material_count)
 * and images [i0, image_count) of g->res (their textures made), appended
 * to the address map in that order; *tris gets the meshes' triangles.
 */
static enum tsr_status add_resource_regions(struct tsr_gpu *g, uint32_t m0, uint32_t p0,
					    uint32_t i0, uint64_t *tris, struct tsr_error *err)
{
	const struct tsr_resources *sc = &g->res;
	char name[64];
	enum tsr_status s;
	uint64_t total_tris = 0;
	for (uint32_t i = m0; i < sc->mesh_count; i++) {
		const struct tsr_mesh *m = &sc->meshes[i];
		struct mesh_buffers *b = &g->meshes[i];
		if (m->raw_bytes) {  /* a buffer object: indices and vertices alike */
			snprintf(name, sizeof(name), "buffer%u", i);
			s = tsr_addrmap_add(&g->map, name, m->raw_bytes, TSR_STREAM_VERTEX,
					    &b->vb_base, err);
			if (s != TSR_OK)
				return s;
			b->ib_base = b->vb_base;
			b->index_bytes = 0;
			continue;
		}
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
	for (uint32_t i = p0; i < sc->material_count; i++) {
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
	for (uint32_t i = i0; i < sc->image_count; i++) {
		uint64_t base;
		const char *path = sc->images[i].path ? sc->images[i].path : "";
		const char *slash = strrchr(path, '/');
		/* a render target: the region its passes' tile flushes write
		 * (stream render_target) and later passes sample (texture) */
		const int rt = sc->images[i].render_target;
		const char *rt_name = strncmp(path, "rendertarget:", 13) == 0 ? path + 13 : path;
		snprintf(name, sizeof(name), "%s%u:%s", rt ? "rendertarget" : "texture", i,
			 rt ? rt_name : slash ? slash + 1 : path);
		s = tsr_addrmap_add(&g->map, name, tsr_texture_footprint_bytes(g->textures[i]),
				    rt ? TSR_STREAM_RENDER_TARGET : TSR_STREAM_TEXTURE, &base, err);
		if (s != TSR_OK)
			return s;
		tsr_texture_set_base(g->textures[i], base);
	}
	if (tris)
		*tris = total_tris;
	return TSR_OK;
}

static enum tsr_status setup_address_map(struct tsr_gpu *g, struct tsr_error *err)
{
	uint64_t total_tris = 0;
	enum tsr_status s = add_resource_regions(g, 0, 0, 0, &total_tris, err);
	if (s == TSR_OK)
		s = create_pb(g, 0, total_tris, err);
	if (s != TSR_OK)
		return s;
	g->fb_pitch = (g->cfg.width * 4 + 63) & ~63u;
	s = tsr_addrmap_add(&g->map, "framebuffer0", (uint64_t)g->fb_pitch * g->cfg.height,
			    TSR_STREAM_COLOR, &g->fb_base[0], err);
	if (s == TSR_OK)
		s = tsr_addrmap_add(&g->map, "framebuffer1", (uint64_t)g->fb_pitch * g->cfg.height,
				    TSR_STREAM_COLOR, &g->fb_base[1], err);
	/* the second frame's Parameter Buffer, after every region a single
	 * one has (which keep their addresses) */
	for (uint32_t i = 1; s == TSR_OK && i < g->slot_count; i++)
		s = create_pb(g, i, total_tris, err);
	return s;
}

/*
 * Room for `meshes`, `materials` and `images` resources in the GPU's
 * arrays (descriptors, buffers' addresses, programs, textures; new
 * entries zeroed). Errors: TSR_ERR_NOMEM, with the arrays unchanged in
 * content.
 */
static enum tsr_status reserve_resources(struct tsr_gpu *g, uint32_t meshes, uint32_t materials,
					 uint32_t images, struct tsr_error *err)
{
	if (meshes > g->mesh_cap || !g->own_meshes) {
		uint32_t cap = g->mesh_cap, cap2 = g->mesh_cap;
		struct tsr_mesh *m = tsr_array_grow(g->own_meshes, &cap, meshes, sizeof(*m));
		if (m)
			g->own_meshes = m;
		struct mesh_buffers *b = m ? tsr_array_grow(g->meshes, &cap2, meshes, sizeof(*b)) : NULL;
		if (!b)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for meshes");
		memset(b + g->mesh_cap, 0, (cap2 - g->mesh_cap) * sizeof(*b));
		g->meshes = b;
		g->mesh_cap = cap < cap2 ? cap : cap2;
	}
	if (materials > g->material_cap || !g->own_materials) {
		uint32_t cap = g->material_cap, cap2 = g->material_cap;
		struct tsr_material *m = tsr_array_grow(g->own_materials, &cap, materials, sizeof(*m));
		if (m)
			g->own_materials = m;
		struct material_programs *p = m ? tsr_array_grow(g->programs, &cap2, materials,
								 sizeof(*p)) : NULL;
		if (!p)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for materials");
		memset(p + g->material_cap, 0, (cap2 - g->material_cap) * sizeof(*p));
		g->programs = p;
		g->material_cap = cap < cap2 ? cap : cap2;
	}
	if (images > g->image_cap || !g->own_images) {
		uint32_t cap = g->image_cap, cap2 = g->image_cap;
		struct tsr_image *im = tsr_array_grow(g->own_images, &cap, images, sizeof(*im));
		if (im)
			g->own_images = im;
		struct tsr_texture **t = im ? tsr_array_grow(g->textures, &cap2, images,
							     sizeof(*t)) : NULL;
		if (t)
			g->textures = t;
		uint32_t cap3 = g->image_cap;
		uint32_t *v = t ? tsr_array_grow(g->image_versions, &cap3, images,
						 sizeof(*v)) : NULL;
		if (!v)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for images");
		memset(t + g->image_cap, 0, (cap2 - g->image_cap) * sizeof(*t));
		memset(v + g->image_cap, 0, (cap3 - g->image_cap) * sizeof(*v));
		g->image_versions = v;
		g->image_cap = cap < cap2 ? cap : cap2;
		g->image_cap = g->image_cap < cap3 ? g->image_cap : cap3;
	}
	g->res.meshes = g->own_meshes;
	g->res.materials = g->own_materials;
	g->res.images = g->own_images;
	return TSR_OK;
}

/* Copies the descriptors of more after g's (room reserved) and makes
 * the new images' textures. */
static enum tsr_status append_resources(struct tsr_gpu *g, const struct tsr_resources *more,
					struct tsr_error *err)
{
	if (more->mesh_count)
		memcpy(g->own_meshes + g->res.mesh_count, more->meshes,
		       more->mesh_count * sizeof(*more->meshes));
	if (more->material_count)
		memcpy(g->own_materials + g->res.material_count, more->materials,
		       more->material_count * sizeof(*more->materials));
	if (more->image_count)
		memcpy(g->own_images + g->res.image_count, more->images,
		       more->image_count * sizeof(*more->images));
	for (uint32_t i = 0; i < more->image_count; i++) {
		const uint32_t k = g->res.image_count + i;
		enum tsr_status s = tsr_texture_create(&g->own_images[k], &g->textures[k], err);
		if (s != TSR_OK) {
			for (uint32_t j = g->res.image_count; j < k; j++) {
				tsr_texture_destroy(g->textures[j]);
				g->textures[j] = NULL;
			}
			return s;
		}
	}
	g->res.mesh_count += more->mesh_count;
	g->res.material_count += more->material_count;
	g->res.image_count += more->image_count;
	return TSR_OK;
}

/* The most attributes a primitive of material m has (TCOR II-B: the
 * position and its varyings). */
static uint32_t material_attributes(const struct tsr_material *m)
{
	return 1 + m->varyings;
}

/* The version of image `image`'s contents (struct tsr_gpu image_versions). */
static uint32_t gpu_image_version(void *gpu, uint32_t image)
{
	const struct tsr_gpu *g = gpu;
	return image < g->res.image_count ? g->image_versions[image] : 0;
}

/*
 * Creates the techniques the configuration switches on (techniques/
 * technique.h), with the view of the pipeline their hooks get.
 */
static enum tsr_status create_techniques(struct tsr_gpu *g, struct tsr_error *err)
{
	g->view = (struct tsr_tbr_view){
		.cfg = &g->cfg,
		.tiles = g->tiles,
		.mem = g->mem,
		.pb = g->slots[0].pb,
		.prims = &g->slots[0].prims,
		.max_attributes = g->max_attributes,
		.gpu = g,
		.flush_bytes = tsr_stage_flush_bytes,
		.render_tile = tsr_stage_render_tile,
		.image_version = gpu_image_version,
	};
	return tsr_technique_set_create(&g->techniques, &g->view, err);
}

/* Widens *grid_w x *grid_h (pixels) to cover every render target of r. */
static void cover_targets(const struct tsr_resources *r, uint32_t *grid_w, uint32_t *grid_h)
{
	for (uint32_t i = 0; i < r->image_count; i++)
		if (r->images[i].render_target) {
			*grid_w = r->images[i].width > *grid_w ? r->images[i].width : *grid_w;
			*grid_h = r->images[i].height > *grid_h ? r->images[i].height : *grid_h;
		}
}

/*
 * The tiles across (*tx) and down (*ty) of a grid_w x grid_h pixel tile
 * grid of cfg's tiles, when it is within the limits: at most 8192 x 8192
 * pixels (TSR_LIMIT_SCREEN_PIXELS) and 65535 tiles (a tile's number is 16
 * bits). Errors: TSR_ERR_CONFIG.
 */
static enum tsr_status grid_tiles(const struct tsr_gpu_config *cfg, uint32_t grid_w,
				  uint32_t grid_h, uint32_t *tx, uint32_t *ty,
				  struct tsr_error *err)
{
	*tx = (grid_w + cfg->tile_width - 1) / cfg->tile_width;
	*ty = (grid_h + cfg->tile_height - 1) / cfg->tile_height;
	if ((uint64_t)grid_w * grid_h > TSR_LIMIT_SCREEN_PIXELS)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "the render targets need a %ux%u tile grid, more than the "
				     "limit of 8192 x 8192 pixels", grid_w, grid_h);
	if ((uint64_t)*tx * *ty > 65535)
		return tsr_error_set(err, TSR_ERR_CONFIG, "the render targets need %llu tiles, "
				     "more than 65535: choose larger tiles",
				     (unsigned long long)*tx * *ty);
	return TSR_OK;
}

/* The tile orders of g's grid (tiling.tile_order and its reverse). */
static void build_orders(struct tsr_gpu *g)
{
	tsr_tile_order_build(g->cfg.tile_order, g->tiles_x, g->tiles_y, g->order);
	for (uint32_t i = 0; i < g->tiles; i++)
		g->order_reversed[i] = g->order[g->tiles - 1 - i];
}

/*
 * Grows the tile grid to grid_w x grid_h pixels (no smaller than it a
 * side), between frames, for a render target added after creation
 * that the grid does not cover (a GL ES program's framebuffer object
 * larger than the grid its device made). As a driver re-lays its tiler
 * out for a larger render target: the tiles are renumbered row-major over
 * the new grid, the tile orders rebuilt, each Parameter Buffer's PB-Lists
 * move to a region appended to the address map ("pb_lists.grid<W>x<H>";
 * PB-Attributes and the overflow pool stay), the per-tile state starts
 * afresh (the techniques are made again: Rendering Elimination and
 * Transaction Elimination have no signature of the new tiles, so the next
 * frame skips nothing; per-tile counters), and the immediate mode makes
 * its screen-sized buffers again at new regions. A GPU whose targets fit
 * its grid never grows: its address map and counters do not depend on this.
 * Errors: those of grid_tiles(); TSR_ERR_NOMEM (the GPU is then only fit
 * to be destroyed).
 */
static enum tsr_status grow_grid(struct tsr_gpu *g, uint32_t grid_w, uint32_t grid_h,
				 struct tsr_error *err)
{
	uint32_t tx, ty;
	TSR_TRY(grid_tiles(&g->cfg, grid_w, grid_h, &tx, &ty, err));
	const uint32_t tiles = tx * ty;
	uint32_t *order = malloc(tiles * sizeof(*order));
	uint32_t *reversed = malloc(tiles * sizeof(*reversed));
	uint8_t *skipped = calloc(tiles, 1);
	uint64_t *heat[TSR_FRAME_SLOTS] = {NULL};
	int ok = order && reversed && skipped;
	for (uint32_t i = 0; ok && g->heat && i < g->slot_count; i++)
		ok = (heat[i] = calloc((size_t)TSR_HEAT_COUNT * tiles, sizeof(uint64_t))) != NULL;
	if (!ok) {
		free(order);
		free(reversed);
		free(skipped);
		for (uint32_t i = 0; i < TSR_FRAME_SLOTS; i++)
			free(heat[i]);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a %ux%u tile grid",
				     grid_w, grid_h);
	}
	free(g->order);
	free(g->order_reversed);
	free(g->skipped);
	g->order = order;
	g->order_reversed = reversed;
	g->skipped = skipped;
	for (uint32_t i = 0; g->heat && i < g->slot_count; i++) {
		free(g->slots[i].heat);
		g->slots[i].heat = heat[i];
		g->slots[i].heat_done = 0;
	}
	g->grid_width = grid_w;
	g->grid_height = grid_h;
	g->tiles_x = tx;
	g->tiles_y = ty;
	g->tiles = tiles;
	build_orders(g);
	for (uint32_t i = 0; i < g->slot_count; i++) {
		char name[64];
		snprintf(name, sizeof(name), "%s_lists.grid%ux%u", i ? "pb1" : "pb", grid_w, grid_h);
		uint64_t base;
		TSR_TRY(tsr_addrmap_add(&g->map, name,
					tsr_pb_lists_bytes(tiles, g->cfg.list_capacity_primitives),
					TSR_STREAM_PB_LISTS, &base, err));
		TSR_TRY(tsr_pb_regrid(g->slots[i].pb, grid_w, grid_h, base, err));
	}
	tsr_technique_set_release(&g->techniques);
	TSR_TRY(create_techniques(g, err));
	if (g->driver->create) {  /* the immediate mode's screen-sized buffers */
		g->driver->destroy(g);
		TSR_TRY(g->driver->create(g, err));
	}
	return TSR_OK;
}

enum tsr_status tsr_gpu_create(const struct tsr_gpu_config *cfg,
			       const struct tsr_resources *res,
			       struct tsr_gpu **out, struct tsr_error *err)
{
	*out = NULL;
	enum tsr_status s = tsr_config_check(cfg, err);
	if (s != TSR_OK)
		return s;
	/* the front and back frame buffers, RGBA8 */
	s = tsr_memory_check("the frame buffer pair (2 x screen.width x screen.height x 4 bytes)",
			     (uint64_t)cfg->width * cfg->height * 8, err);
	if (s != TSR_OK)
		return s;
	/* the tile grid covers the screen and every render target (a pass
	 * renders the grid's tiles that cover its target) */
	uint32_t grid_w = cfg->width, grid_h = cfg->height, tiles_x, tiles_y;
	cover_targets(res, &grid_w, &grid_h);
	s = grid_tiles(cfg, grid_w, grid_h, &tiles_x, &tiles_y, err);
	if (s != TSR_OK)
		return s;
	struct tsr_gpu *g = calloc(1, sizeof(*g));
	if (!g)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	g->cfg = *cfg;
	g->target_width = cfg->width;
	g->target_height = cfg->height;
	g->max_attributes = 2;
	for (uint32_t i = 0; i < res->material_count; i++)
		if (material_attributes(&res->materials[i]) > g->max_attributes)
			g->max_attributes = material_attributes(&res->materials[i]);
	tsr_addrmap_init(&g->map);
	g->grid_width = grid_w;
	g->grid_height = grid_h;
	g->tiles_x = tiles_x;
	g->tiles_y = tiles_y;
	g->tiles = tiles_x * tiles_y;
	size_t npix = (size_t)cfg->width * cfg->height;
	size_t tpix = (size_t)cfg->tile_width * cfg->tile_height;
	g->order = malloc(g->tiles * sizeof(*g->order));
	g->order_reversed = malloc(g->tiles * sizeof(*g->order_reversed));
	g->tile_depth = malloc(tpix * sizeof(float));
	g->tile_color = malloc(tpix * 4 * sizeof(float));
	g->tile_mrt = malloc(tpix * 4 * sizeof(float) * (TSR_MAX_DRAW_BUFFERS - 1));
	g->tile_stencil = malloc(tpix);
	g->image[0] = calloc(npix, 4);
	g->image[1] = calloc(npix, 4);
	g->tile_rgba = malloc(tpix * 4);
	g->skipped = calloc(g->tiles, 1);
	g->mem_base = malloc(sizeof(*g->mem_base));
	g->mem_phase = malloc(sizeof(*g->mem_phase));
	g->slot_count = cfg->timing.overlap_frames ? 2 : 1;
	if (!g->mem_base || !g->mem_phase || !g->order ||
	    !g->order_reversed || !g->tile_depth || !g->tile_color || !g->tile_mrt || !g->tile_stencil || !g->image[0] ||
	    !g->image[1] || !g->tile_rgba || !g->skipped) {
		tsr_gpu_destroy(g);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	s = reserve_resources(g, res->mesh_count, res->material_count, res->image_count, err);
	if (s == TSR_OK)
		s = tsr_memsys_create(&cfg->mem, &g->mem, err);
	if (s == TSR_OK)
		s = tsr_geometry_create(&(struct tsr_geometry_config){cfg->width, cfg->height,
								    cfg->mem.cores,
								    cfg->post_transform_cache_entries},
					&g->geom, err);
	if (s == TSR_OK)
		s = tsr_raster_create(&(struct tsr_raster_config){cfg->mem.cores, cfg->quad_grouping},
				      cfg->tile_width, cfg->tile_height, &g->raster, err);
	if (s == TSR_OK && cfg->subtile_assignment != TSR_SA_CONST)
		s = tsr_subtile_layout_init(&g->subtiles, cfg->quad_grouping, cfg->mem.cores, err);
	if (s == TSR_OK)
		s = append_resources(g, res, err);
	if (s == TSR_OK)
		s = setup_address_map(g, err);
	if (s != TSR_OK) {
		tsr_gpu_destroy(g);
		return s;
	}
	build_orders(g);
	g->back = 1;
	s = create_techniques(g, err);
	g->driver = cfg->pipeline_mode == TSR_PIPELINE_IMR ? &tsr_imr_driver : &tsr_tbr_driver;
	if (s == TSR_OK && g->driver->create)
		s = g->driver->create(g, err);
	if (s == TSR_OK && cfg->timing.enabled)
		s = tsr_timing_create(g, err);
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
	if (g->fast_forward) {  /* the parked timing mode goes too */
		g->timing = g->timing_parked;
		g->log = g->log_parked;
		tsr_memsys_set_path_sink(g->mem, g->sink_parked, g->sink_ctx_parked);
	}
	tsr_timing_destroy(g);
	if (g->driver && g->driver->destroy)
		g->driver->destroy(g);
	if (g->textures)
		for (uint32_t i = 0; i < g->res.image_count; i++)
			tsr_texture_destroy(g->textures[i]);
	free(g->textures);
	free(g->image_versions);
	free(g->meshes);
	free(g->programs);
	free(g->own_meshes);
	free(g->own_materials);
	free(g->own_images);
	free(g->order);
	free(g->order_reversed);
	free(g->tile_depth);
	free(g->tile_stencil);
	free(g->tile_color);
	free(g->tile_mrt);
	free(g->image[0]);
	free(g->image[1]);
	free(g->tile_rgba);
	free(g->skipped);
	for (uint32_t i = 0; i < TSR_FRAME_SLOTS; i++) {
		tsr_prim_array_release(&g->slots[i].prims);
		free(g->slots[i].bindings);
		tsr_pb_destroy(g->slots[i].pb);
		free(g->slots[i].heat);
	}
	free(g->mem_base);
	free(g->mem_phase);
	tsr_technique_set_release(&g->techniques);
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

void tsr_gpu_tile_grid(const struct tsr_gpu *g, uint32_t *tiles_x, uint32_t *tiles_y)
{
	*tiles_x = g->tiles_x;
	*tiles_y = g->tiles_y;
}

enum tsr_status tsr_gpu_enable_heat(struct tsr_gpu *g, struct tsr_error *err)
{
	if (g->driver != &tsr_tbr_driver)
		return tsr_error_set(err, TSR_ERR_UNSUPPORTED,
				     "per-tile counters need the tile-based pipeline "
				     "(pipeline.mode tbr): the immediate mode has no tiles");
	if (g->frames_begun != g->frames_finished)
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "per-tile counters enabled during a frame");
	if (g->heat)
		return TSR_OK;
	for (uint32_t i = 0; i < g->slot_count; i++) {
		g->slots[i].heat = calloc((size_t)TSR_HEAT_COUNT * g->tiles, sizeof(uint64_t));
		if (!g->slots[i].heat)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	g->heat_l2 = tsr_memsys_cache_by_name(g->mem, "l2");
	g->heat = 1;
	return TSR_OK;
}

const uint64_t *tsr_gpu_heat(const struct tsr_gpu *g, enum tsr_heat_counter c)
{
	if (!g->heat || !g->frames_finished || (unsigned)c >= TSR_HEAT_COUNT)
		return NULL;
	const struct frame_slot *f = &g->slots[(g->frames_finished - 1) % g->slot_count];
	return f->heat && f->heat_done ? &f->heat[(size_t)c * g->tiles] : NULL;
}

void tsr_gpu_set_progress(struct tsr_gpu *g, tsr_gpu_progress_fn fn, void *ctx)
{
	g->progress = fn;
	g->progress_ctx = ctx;
}

enum tsr_status tsr_gpu_begin_frame(struct tsr_gpu *g, const struct tsr_frame_commands *c,
				    struct tsr_frame_stats *st, struct tsr_error *err)
{
	return g->driver->begin_frame(g, c, st, err);
}

enum tsr_status tsr_gpu_finish_frame(struct tsr_gpu *g, struct tsr_error *err)
{
	return g->driver->finish_frame(g, err);
}

enum tsr_status tsr_gpu_render_commands(struct tsr_gpu *g, const struct tsr_frame_commands *c,
					struct tsr_frame_stats *st, struct tsr_error *err)
{
	TSR_TRY(tsr_gpu_begin_frame(g, c, st, err));
	return tsr_gpu_finish_frame(g, err);
}

enum tsr_status tsr_gpu_set_fast_forward(struct tsr_gpu *g, int mode, struct tsr_error *err)
{
	if (mode < TSR_GPU_FULL || mode > TSR_GPU_WARM)
		return tsr_error_set(err, TSR_ERR_INTERNAL, "no fast-forward mode %d", mode);
	if (mode == g->fast_forward)
		return TSR_OK;
	if (g->frames_begun != g->frames_finished)
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "fast-forward is switched between frames, not during one");
	if (g->fast_forward) {  /* back to the full model first */
		g->timing = g->timing_parked;
		g->log = g->log_parked;
		tsr_memsys_set_path_sink(g->mem, g->sink_parked, g->sink_ctx_parked);
		tsr_memsys_set_bypass(g->mem, 0);
		g->timing_parked = NULL;
		g->log_parked = NULL;
	}
	if (mode) {  /* the timing mode waits, untouched, with its work log and sink */
		g->timing_parked = g->timing;
		g->log_parked = g->log;
		tsr_memsys_path_sink(g->mem, &g->sink_parked, &g->sink_ctx_parked);
		tsr_memsys_set_path_sink(g->mem, NULL, NULL);
		g->timing = NULL;
		g->log = NULL;
		tsr_memsys_set_bypass(g->mem, mode == TSR_GPU_FAST_FORWARD);
	}
	g->fast_forward = mode;
	return TSR_OK;
}

int tsr_gpu_fast_forwarding(const struct tsr_gpu *g)
{
	return g->fast_forward;
}

enum tsr_status tsr_gpu_add_resources(struct tsr_gpu *g, const struct tsr_resources *more,
				      struct tsr_error *err)
{
	if (g->frames_begun != g->frames_finished)
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "resources are added between frames, not during one");
	uint32_t grid_w = g->grid_width, grid_h = g->grid_height;
	cover_targets(more, &grid_w, &grid_h);
	for (uint32_t i = 0; i < more->material_count; i++)
		if (material_attributes(&more->materials[i]) > g->max_attributes)
			return tsr_error_set(err, TSR_ERR_UNSUPPORTED,
					     "a material with %u varyings added after the GPU "
					     "was made: its Parameter Buffer holds at most %u "
					     "attributes a primitive", more->materials[i].varyings,
					     g->max_attributes);
	if (grid_w > g->grid_width || grid_h > g->grid_height)
		TSR_TRY(grow_grid(g, grid_w, grid_h, err));
	const uint32_t m0 = g->res.mesh_count, p0 = g->res.material_count,
		       i0 = g->res.image_count;
	TSR_TRY(reserve_resources(g, m0 + more->mesh_count, p0 + more->material_count,
				  i0 + more->image_count, err));
	TSR_TRY(append_resources(g, more, err));
	enum tsr_status s = add_resource_regions(g, m0, p0, i0, NULL, err);
	if (s != TSR_OK) {
		/* the map keeps what was added; the resources do not count */
		for (uint32_t j = i0; j < g->res.image_count; j++) {
			tsr_texture_destroy(g->textures[j]);
			g->textures[j] = NULL;
		}
		g->res.mesh_count = m0;
		g->res.material_count = p0;
		g->res.image_count = i0;
	}
	return s;
}

enum tsr_status tsr_gpu_update_image(struct tsr_gpu *g, uint32_t image, struct tsr_error *err)
{
	if (image >= g->res.image_count)
		return tsr_error_set(err, TSR_ERR_INTERNAL, "no image %u to update", image);
	if (g->frames_begun != g->frames_finished)
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "images are updated between frames, not during one");
	struct tsr_texture *t;
	TSR_TRY(tsr_texture_create(&g->own_images[image], &t, err));
	if (tsr_texture_footprint_bytes(t) != tsr_texture_footprint_bytes(g->textures[image])) {
		tsr_texture_destroy(t);
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "image %u changed size: add a new image instead", image);
	}
	tsr_texture_set_base(t, tsr_texture_base(g->textures[image]));
	tsr_texture_destroy(g->textures[image]);
	g->textures[image] = t;
	g->image_versions[image]++;
	return TSR_OK;
}

enum tsr_status tsr_gpu_generate_mipmap(struct tsr_gpu *g, uint32_t image,
					struct tsr_error *err)
{
	if (image >= g->res.image_count)
		return tsr_error_set(err, TSR_ERR_INTERNAL, "no image %u to mipmap", image);
	if (g->frames_begun != g->frames_finished)
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "images are mipmapped between frames, not during one");
	tsr_texture_build_mips(g->textures[image]);
	g->image_versions[image]++;
	return TSR_OK;
}

enum tsr_status tsr_gpu_read_image(const struct tsr_gpu *g, uint32_t image, uint32_t x,
				   uint32_t y, uint32_t w, uint32_t h, uint8_t *rgba,
				   struct tsr_error *err)
{
	if (image >= g->res.image_count || g->frames_begun != g->frames_finished)
		return tsr_error_set(err, TSR_ERR_INTERNAL, "no image %u to read now", image);
	const struct tsr_texture *t = g->textures[image];
	const uint32_t tw = tsr_texture_width(t, 0), th = tsr_texture_height(t, 0);
	if (x > tw || w > tw - x || y > th || h > th - y)
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "rectangle (%u, %u, %u, %u) outside image %u", x, y, w, h, image);
	for (uint32_t r = 0; r < h; r++)  /* a texel row is the pass row it maps to */
		tsr_texture_read_rect(t, x, tsr_texture_pass_row(t, y + r), w, 1,
				      rgba + (size_t)r * w * 4, w * 4);
	return TSR_OK;
}

uint32_t tsr_gpu_resource_count(const struct tsr_gpu *g, enum tsr_resource_kind kind)
{
	return kind == TSR_RESOURCE_MESHES      ? g->res.mesh_count
	       : kind == TSR_RESOURCE_MATERIALS ? g->res.material_count
						: g->res.image_count;
}
