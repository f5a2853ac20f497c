#include "config/config.h"

#include "memory/policy.h"

#include <stdio.h>
#include <string.h>

#include "core/json_util.h"

const char *const tsr_pb_layout_names[] = {"baseline", "interleaved", NULL};
const char *const tsr_tile_order_names[] = {"scanline", "s-order", "z-order",
					    "hilbert", NULL};
const char *const tsr_quad_grouping_names[] = {"fg-xshift2", "cg-square", NULL};

static const char *const cache_names[] = {"vertex", "tile", "texture",
					  "instruction", "l2", NULL};

static struct tsr_cache_geometry *cache_of(struct tsr_gpu_config *c, int i)
{
	struct tsr_cache_geometry *g[] = {&c->mem.vertex, &c->mem.tile,
					  &c->mem.texture, &c->mem.instruction,
					  &c->mem.l2};
	return g[i];
}

static void geom(struct tsr_cache_geometry *g, uint32_t size, uint32_t ways,
		 uint32_t latency)
{
	memset(g, 0, sizeof(*g));
	g->size_bytes = size;
	g->ways = ways;
	g->line_bytes = 64;
	g->latency_cycles = latency;
	g->fetch_on_write = 1;
	snprintf(g->policy, sizeof(g->policy), "lru");
}

void tsr_config_defaults(struct tsr_gpu_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->name, sizeof(cfg->name), "default");
	cfg->width = 1960;
	cfg->height = 768;
	cfg->tile_width = 32;
	cfg->tile_height = 32;
	cfg->tile_order = TSR_ORDER_Z;
	cfg->list_capacity_primitives = 1024;
	cfg->attribute_bytes = 48;
	cfg->quad_grouping = TSR_QG_FG_XSHIFT2;
	cfg->post_transform_cache_entries = 32;
	cfg->attribute_cache = 0;
	tsr_ac_config_defaults(&cfg->ac);
	cfg->output_queue = 3;
	cfg->instruction_bytes = 8;
	cfg->mem.cores = 4;
	geom(&cfg->mem.vertex, 64 * 1024, 4, 1);
	geom(&cfg->mem.tile, 64 * 1024, 4, 1);
	geom(&cfg->mem.texture, 64 * 1024, 4, 1);
	geom(&cfg->mem.instruction, 16 * 1024, 4, 1);
	geom(&cfg->mem.l2, 1024 * 1024, 8, 12);
	cfg->mem.dram_latency_cycles = 100;
}


static enum tsr_status read_cache(const json_t *o, const char *file,
				  const char *path,
				  struct tsr_cache_geometry *g,
				  struct tsr_error *err)
{
	static const char *const keys[] = {"size_bytes", "ways", "line_bytes",
					   "latency_cycles", "policy",
					   "fetch_on_write", NULL};
	TSR_TRY(tsr_json_check_keys(o, file, path, keys, err));
	TSR_TRY(tsr_json_get_u32(o, file, path, "size_bytes", 1, 1u << 31, &g->size_bytes, err));
	TSR_TRY(tsr_json_get_u32(o, file, path, "ways", 1, 1u << 20, &g->ways, err));
	TSR_TRY(tsr_json_get_u32(o, file, path, "line_bytes", 4, 4096, &g->line_bytes, err));
	TSR_TRY(tsr_json_get_u32(o, file, path, "latency_cycles", 0, 100000, &g->latency_cycles, err));
	int fow = (int)g->fetch_on_write;
	TSR_TRY(tsr_json_get_bool(o, file, path, "fetch_on_write", &fow, err));
	g->fetch_on_write = (uint32_t)fow;
	const char *pol = NULL;
	TSR_TRY(tsr_json_get_string(o, file, path, "policy", &pol, err));
	if (pol)
		snprintf(g->policy, sizeof(g->policy), "%s", pol);
	return TSR_OK;
}

static enum tsr_status read_config(const json_t *root, const char *file,
				   struct tsr_gpu_config *cfg,
				   struct tsr_error *err)
{
	static const char *const top[] = {"name", "screen", "tiling", "raster",
					  "geometry", "shader", "caches", "tcor",
					  "elimination",
					  "dram", NULL};
	TSR_TRY(tsr_json_check_keys(root, file, "", top, err));
	const char *name = NULL;
	TSR_TRY(tsr_json_get_string(root, file, "", "name", &name, err));
	if (name)
		snprintf(cfg->name, sizeof(cfg->name), "%s", name);

	const json_t *o;
	if ((o = json_object_get(root, "screen"))) {
		static const char *const k[] = {"width", "height", NULL};
		TSR_TRY(tsr_json_check_keys(o, file, "screen", k, err));
		TSR_TRY(tsr_json_get_u32(o, file, "screen", "width", 1, 16384, &cfg->width, err));
		TSR_TRY(tsr_json_get_u32(o, file, "screen", "height", 1, 16384, &cfg->height, err));
	}
	if ((o = json_object_get(root, "tiling"))) {
		static const char *const k[] = {"tile_width", "tile_height", "order",
						"reverse_every_other_frame",
						"list_capacity_primitives",
						"attribute_bytes", "pb_layout", NULL};
		TSR_TRY(tsr_json_check_keys(o, file, "tiling", k, err));
		TSR_TRY(tsr_json_get_u32(o, file, "tiling", "tile_width", 2, 256, &cfg->tile_width, err));
		TSR_TRY(tsr_json_get_u32(o, file, "tiling", "tile_height", 2, 256, &cfg->tile_height, err));
		int ord = (int)cfg->tile_order;
		TSR_TRY(tsr_json_get_enum(o, file, "tiling", "order", tsr_tile_order_names, &ord, err));
		cfg->tile_order = (enum tsr_tile_order)ord;
		TSR_TRY(tsr_json_get_bool(o, file, "tiling", "reverse_every_other_frame",
				      &cfg->reverse_every_other_frame, err));
		TSR_TRY(tsr_json_get_u32(o, file, "tiling", "list_capacity_primitives", 16,
				     1u << 20, &cfg->list_capacity_primitives, err));
		TSR_TRY(tsr_json_get_u32(o, file, "tiling", "attribute_bytes", 16, 64,
				     &cfg->attribute_bytes, err));
		int lay = (int)cfg->pb_layout;
		TSR_TRY(tsr_json_get_enum(o, file, "tiling", "pb_layout", tsr_pb_layout_names, &lay, err));
		cfg->pb_layout = (enum tsr_pb_list_layout)lay;
	}
	if ((o = json_object_get(root, "raster"))) {
		static const char *const k[] = {"cores", "quad_grouping", NULL};
		TSR_TRY(tsr_json_check_keys(o, file, "raster", k, err));
		TSR_TRY(tsr_json_get_u32(o, file, "raster", "cores", 1, TSR_MAX_CORES, &cfg->mem.cores, err));
		int qg = (int)cfg->quad_grouping;
		TSR_TRY(tsr_json_get_enum(o, file, "raster", "quad_grouping", tsr_quad_grouping_names, &qg, err));
		cfg->quad_grouping = (enum tsr_quad_grouping)qg;
	}
	if ((o = json_object_get(root, "tcor"))) {
		static const char *const k[] = {"attribute_cache", "attribute_cache_bytes",
						"attribute_cache_lines", "attribute_cache_ways",
						"attribute_cache_policy", "xor_index",
						"output_queue", NULL};
		static const char *const pol[] = {"opt", "lru", "mru", "drrip", NULL};
		TSR_TRY(tsr_json_check_keys(o, file, "tcor", k, err));
		TSR_TRY(tsr_json_get_bool(o, file, "tcor", "attribute_cache", &cfg->attribute_cache, err));
		TSR_TRY(tsr_json_get_u32(o, file, "tcor", "attribute_cache_bytes", 64, 1u << 26,
					 &cfg->ac.size_bytes, err));
		TSR_TRY(tsr_json_get_u32(o, file, "tcor", "attribute_cache_lines", 1, 1u << 20,
					 &cfg->ac.lines, err));
		TSR_TRY(tsr_json_get_u32(o, file, "tcor", "attribute_cache_ways", 0, 1u << 20,
					 &cfg->ac.ways, err));
		int p = (int)cfg->ac.policy;
		TSR_TRY(tsr_json_get_enum(o, file, "tcor", "attribute_cache_policy", pol, &p, err));
		cfg->ac.policy = (enum tsr_ac_policy)p;
		int x = (int)cfg->ac.xor_index;
		TSR_TRY(tsr_json_get_bool(o, file, "tcor", "xor_index", &x, err));
		cfg->ac.xor_index = (uint32_t)x;
		TSR_TRY(tsr_json_get_u32(o, file, "tcor", "output_queue", 1, 1024,
					 &cfg->output_queue, err));
	}
	if ((o = json_object_get(root, "elimination"))) {
		static const char *const k[] = {"rendering", "transactions", "refresh_frames",
						"verify", NULL};
		struct tsr_elimination_config *e = &cfg->elim;
		TSR_TRY(tsr_json_check_keys(o, file, "elimination", k, err));
		TSR_TRY(tsr_json_get_bool(o, file, "elimination", "rendering", &e->rendering, err));
		TSR_TRY(tsr_json_get_bool(o, file, "elimination", "transactions", &e->transactions,
					  err));
		TSR_TRY(tsr_json_get_u32(o, file, "elimination", "refresh_frames", 0, 1000000,
					 &e->refresh_frames, err));
		TSR_TRY(tsr_json_get_bool(o, file, "elimination", "verify", &e->verify, err));
	}
	if ((o = json_object_get(root, "geometry"))) {
		static const char *const k[] = {"post_transform_cache_entries", NULL};
		TSR_TRY(tsr_json_check_keys(o, file, "geometry", k, err));
		TSR_TRY(tsr_json_get_u32(o, file, "geometry", "post_transform_cache_entries", 0,
				     1024, &cfg->post_transform_cache_entries, err));
	}
	if ((o = json_object_get(root, "shader"))) {
		static const char *const k[] = {"instruction_bytes", NULL};
		TSR_TRY(tsr_json_check_keys(o, file, "shader", k, err));
		TSR_TRY(tsr_json_get_u32(o, file, "shader", "instruction_bytes", 1, 64,
				     &cfg->instruction_bytes, err));
	}
	if ((o = json_object_get(root, "caches"))) {
		TSR_TRY(tsr_json_check_keys(o, file, "caches", cache_names, err));
		for (int i = 0; cache_names[i]; i++) {
			const json_t *c = json_object_get(o, cache_names[i]);
			char path[64];
			snprintf(path, sizeof(path), "caches.%s", cache_names[i]);
			if (c)
				TSR_TRY(read_cache(c, file, path, cache_of(cfg, i), err));
		}
	}
	if ((o = json_object_get(root, "dram"))) {
		static const char *const k[] = {"latency_cycles", NULL};
		TSR_TRY(tsr_json_check_keys(o, file, "dram", k, err));
		TSR_TRY(tsr_json_get_u32(o, file, "dram", "latency_cycles", 0, 100000,
				     &cfg->mem.dram_latency_cycles, err));
	}
	return TSR_OK;
}

enum tsr_status tsr_config_check(const struct tsr_gpu_config *cfg,
				 struct tsr_error *err)
{
	if (cfg->tile_width % 2 || cfg->tile_height % 2)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'tiling.tile_width'/'tiling.tile_height' must be even (quads are 2x2)");
	if (cfg->quad_grouping == TSR_QG_CG_SQUARE && cfg->mem.cores != 1 &&
	    cfg->mem.cores != 4 && cfg->mem.cores != 16)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'raster.quad_grouping' cg-square needs 1, 4 or 16 cores, not %u",
				     cfg->mem.cores);
	if (cfg->mem.cores < 1 || cfg->mem.cores > TSR_MAX_CORES)
		return tsr_error_set(err, TSR_ERR_CONFIG, "key 'raster.cores' must be from 1 to %d",
				     TSR_MAX_CORES);
	uint64_t tiles = (uint64_t)((cfg->width + cfg->tile_width - 1) / cfg->tile_width) *
			 ((cfg->height + cfg->tile_height - 1) / cfg->tile_height);
	if (tiles > 65535)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "%llu tiles is more than 65535: choose larger tiles",
				     (unsigned long long)tiles);
	for (int i = 0; cache_names[i]; i++) {
		char path[64];
		snprintf(path, sizeof(path), "caches.%s", cache_names[i]);
		const struct tsr_cache_geometry *g = cache_of((struct tsr_gpu_config *)cfg, i);
		TSR_TRY(tsr_cache_geometry_check(g, path, err));
		char key[80];
		snprintf(key, sizeof(key), "key '%s.policy'", path);
		TSR_TRY(tsr_policy_check_online(g->policy, key, cache_names[i], err));
	}
	if (cfg->attribute_cache) {
		struct tsr_ac_config ac = cfg->ac;
		ac.attribute_bytes = cfg->attribute_bytes;
		enum tsr_status s = tsr_ac_config_check(&ac, err);
		if (s != TSR_OK) {
			char msg[sizeof(err->msg)];
			snprintf(msg, sizeof(msg), "%s", err->msg);
			return tsr_error_set(err, s, "key 'tcor': Attribute Cache: %s", msg);
		}
	}
	if (cfg->elim.refresh_frames == 1 || cfg->elim.refresh_frames == 2)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'elimination.refresh_frames' must be 0 (never) or at least 3: "
				     "a refresh switches Rendering Elimination off for two frames");
	if (cfg->pb_layout == TSR_PB_LAYOUT_INTERLEAVED && cfg->list_capacity_primitives % 16)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'tiling.list_capacity_primitives' must be a multiple of 16 "
				     "with the interleaved PB-Lists layout (whole 64-byte blocks)");
	if (cfg->mem.l2.line_bytes != 64 || cfg->mem.tile.line_bytes != 64)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "keys 'caches.tile.line_bytes' and 'caches.l2.line_bytes' must be 64: "
				     "the Parameter Buffer layout (TCOR II-B) and texel blocks assume 64-byte lines");
	return TSR_OK;
}

enum tsr_status tsr_config_load(const char *file, struct tsr_gpu_config *cfg,
				struct tsr_error *err)
{
	json_t *root;
	TSR_TRY(tsr_json_load_file(file, &root, err));
	enum tsr_status s = read_config(root, file, cfg, err);
	json_decref(root);
	if (s != TSR_OK)
		return s;
	s = tsr_config_check(cfg, err);
	if (s != TSR_OK) {
		/* name the file in the message */
		char buf[sizeof(err->msg)];
		snprintf(buf, sizeof(buf), "%s", err->msg);
		tsr_error_set(err, s, "%s (in '%s')", buf, file);
	}
	return s;
}

static json_t *cache_json(const struct tsr_cache_geometry *g)
{
	return json_pack("{s:I,s:I,s:I,s:I,s:s,s:b}", "size_bytes",
			 (json_int_t)g->size_bytes, "ways", (json_int_t)g->ways,
			 "line_bytes", (json_int_t)g->line_bytes, "latency_cycles",
			 (json_int_t)g->latency_cycles, "policy", g->policy,
			 "fetch_on_write", (int)g->fetch_on_write);
}

json_t *tsr_config_to_json(const struct tsr_gpu_config *cfg)
{
	json_t *caches = json_object();
	for (int i = 0; cache_names[i]; i++)
		json_object_set_new(caches, cache_names[i],
				    cache_json(cache_of((struct tsr_gpu_config *)cfg, i)));
	return json_pack(
		"{s:s,s:{s:I,s:I},s:{s:I,s:I,s:s,s:b,s:I,s:I,s:s},s:{s:I,s:s},"
		"s:{s:I},s:{s:I},s:o,s:{s:I},s:{s:b,s:I,s:I,s:I,s:s,s:b,s:I},"
		"s:{s:b,s:b,s:I,s:b}}",
		"name", cfg->name, "screen", "width", (json_int_t)cfg->width,
		"height", (json_int_t)cfg->height, "tiling", "tile_width",
		(json_int_t)cfg->tile_width, "tile_height",
		(json_int_t)cfg->tile_height, "order",
		tsr_tile_order_names[cfg->tile_order],
		"reverse_every_other_frame", cfg->reverse_every_other_frame,
		"list_capacity_primitives",
		(json_int_t)cfg->list_capacity_primitives, "attribute_bytes",
		(json_int_t)cfg->attribute_bytes, "pb_layout", tsr_pb_layout_names[cfg->pb_layout],
		"raster", "cores",
		(json_int_t)cfg->mem.cores, "quad_grouping",
		tsr_quad_grouping_names[cfg->quad_grouping], "geometry",
		"post_transform_cache_entries",
		(json_int_t)cfg->post_transform_cache_entries, "shader",
		"instruction_bytes", (json_int_t)cfg->instruction_bytes,
		"caches", caches, "dram", "latency_cycles",
		(json_int_t)cfg->mem.dram_latency_cycles, "tcor", "attribute_cache",
		cfg->attribute_cache, "attribute_cache_bytes", (json_int_t)cfg->ac.size_bytes,
		"attribute_cache_lines", (json_int_t)cfg->ac.lines, "attribute_cache_ways",
		(json_int_t)cfg->ac.ways, "attribute_cache_policy", tsr_ac_policy_name(cfg->ac.policy),
		"xor_index", (int)cfg->ac.xor_index, "output_queue", (json_int_t)cfg->output_queue,
		"elimination", "rendering", cfg->elim.rendering, "transactions",
		cfg->elim.transactions, "refresh_frames", (json_int_t)cfg->elim.refresh_frames,
		"verify", cfg->elim.verify);
}
