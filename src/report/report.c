#include "report/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <stb/stb_image_write.h>

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *counters_json(const struct tsr_cache_counters *c)
{
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "reads", u64(c->reads), "writes",
			 u64(c->writes), "read_misses", u64(c->read_misses),
			 "write_misses", u64(c->write_misses), "writebacks",
			 u64(c->writebacks), "bypasses", u64(c->bypasses), "discards",
			 u64(c->discards));
}

static json_t *elimination_json(const struct tsr_elimination_stats *e)
{
	const struct tsr_su_counters *su = &e->su;
	return json_pack(
		"{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,"
		"s:{s:o,s:o,s:o,s:o,s:o,s:o,s:o}}",
		"re_frames", u64(e->re_frames), "tiles_compared", u64(e->tiles_compared),
		"tiles_equal_inputs", u64(e->tiles_equal_inputs),
		"tiles_skipped", u64(e->tiles_skipped), "false_negatives", u64(e->false_negatives),
		"tiles_changed", u64(e->tiles_changed), "stale_inputs", u64(e->stale_inputs),
		"tiles_verified", u64(e->tiles_verified),
		"false_positives", u64(e->false_positives),
		"pb_bytes_removed", u64(e->pb_bytes_removed),
		"texture_requests_removed", u64(e->texture_requests_removed),
		"instructions_removed", u64(e->instructions_removed),
		"fragments_removed", u64(e->fragments_removed),
		"te_tiles_signed", u64(e->te_tiles_signed),
		"te_subblocks_signed", u64(e->te_subblocks_signed),
		"te_flushes_removed", u64(e->te_flushes_removed),
		"te_false_positives", u64(e->te_false_positives),
		"color_bytes_removed", u64(e->color_bytes_removed),
		"signature_unit", "constant_blocks", u64(su->constant_blocks),
		"primitive_blocks", u64(su->primitive_blocks),
		"subblocks_signed", u64(su->subblocks_signed),
		"accumulate_steps", u64(su->accumulate_steps), "shift_steps", u64(su->shift_steps),
		"ot_pushes", u64(su->ot_pushes), "ot_max", u64(su->ot_max));
}

json_t *tsr_stats_to_json(const struct tsr_frame_stats *s,
			  const struct tsr_memsys *mem, uint32_t cores)
{
	const struct tsr_geometry_stats *g = &s->geometry;
	const struct tsr_tiling_stats *t = &s->tiling;
	const struct tsr_raster_stats *r = &s->raster;
	const struct tsr_texture_stats *x = &s->texture;
	json_t *o = json_object();
	json_object_set_new(o, "geometry",
		json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "draws", u64(g->draws),
			  "indices_fetched", u64(g->indices_fetched),
			  "vertices_fetched", u64(g->vertices_fetched),
			  "primitives_in", u64(g->primitives_in),
			  "primitives_culled", u64(g->primitives_culled),
			  "primitives_clipped", u64(g->primitives_clipped),
			  "primitives_binned", u64(g->primitives_binned)));
	double avg = t->tiles ? (double)t->pmds_written / (double)t->tiles : 0.0;
	json_object_set_new(o, "tiling",
		json_pack("{s:o,s:o,s:o,s:o,s:o,s:f,s:o,s:o}", "tiles", u64(t->tiles),
			  "pmds_written", u64(t->pmds_written), "pmds_read",
			  u64(t->pmds_read), "pb_lists_bytes", u64(t->pb_lists_bytes),
			  "pb_attributes_bytes", u64(t->pb_attributes_bytes),
			  "avg_primitives_per_tile", avg, "list_overflows",
			  u64(t->list_overflows), "empty_tiles", u64(t->empty_tiles)));
	json_t *per_core = json_array();
	for (uint32_t c = 0; c < cores; c++)
		json_array_append_new(per_core, u64(r->quads_per_core[c]));
	json_object_set_new(o, "raster",
		json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "quads_rasterized",
			  u64(r->quads_rasterized), "quads_early_z_killed",
			  u64(r->quads_early_z_killed), "quads_late_z_killed",
			  u64(r->quads_late_z_killed), "quads_shaded", u64(r->quads_shaded),
			  "fragments_shaded", u64(r->fragments_shaded),
			  "fragments_discarded", u64(r->fragments_discarded),
			  "pixels_written", u64(r->pixels_written),
			  "instruction_fetches", u64(r->instructions_fetched),
			  "quads_per_core", per_core));
	json_object_set_new(o, "texture",
		json_pack("{s:o,s:o,s:o}", "sample_instructions",
			  u64(x->sample_instructions), "texel_fetches",
			  u64(x->texel_fetches), "line_requests", u64(x->line_requests)));
	const struct tsr_ac_counters *ac = &s->attribute_cache;
	if (ac->reads + ac->writes + ac->stalls)
		json_object_set_new(o, "attribute_cache",
			json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
				  "reads", u64(ac->reads), "read_hits", u64(ac->read_hits),
				  "read_misses", u64(ac->read_misses), "writes", u64(ac->writes),
				  "write_allocations", u64(ac->write_allocations),
				  "write_bypasses", u64(ac->write_bypasses),
				  "evictions", u64(ac->evictions),
				  "writeback_primitives", u64(ac->writeback_primitives),
				  "writeback_attributes", u64(ac->writeback_attributes),
				  "lower_reads", u64(ac->lower_reads),
				  "lower_writes", u64(ac->lower_writes), "stalls", u64(ac->stalls)));
	const struct tsr_elimination_stats *e = &s->elim;
	if (e->tiles_compared + e->te_tiles_signed + e->su.primitive_blocks)
		json_object_set_new(o, "elimination", elimination_json(e));
	json_t *caches = json_object();
	for (uint32_t c = 0; c < s->cache_count; c++) {
		json_t *co = json_object();
		struct tsr_cache_counters all = {0};
		for (int st = 0; st < TSR_STREAM_COUNT; st++) {
			const struct tsr_cache_counters *k = &s->caches[c][st];
			if (!(k->reads | k->writes | k->writebacks))
				continue;
			json_object_set_new(co, tsr_stream_name((enum tsr_stream)st),
					    counters_json(k));
			tsr_cache_counters_add(&all, k);
		}
		json_object_set_new(co, "all", counters_json(&all));
		json_object_set_new(caches, tsr_cache_name(tsr_memsys_cache(mem, c)), co);
	}
	json_object_set_new(o, "caches", caches);
	json_t *dram = json_object();
	struct tsr_dram_counters dall = {0};
	for (int st = 0; st < TSR_STREAM_COUNT; st++) {
		const struct tsr_dram_counters *d = &s->dram[st];
		dall.read_bytes += d->read_bytes;
		dall.write_bytes += d->write_bytes;
		if (!(d->read_bytes | d->write_bytes))
			continue;
		json_object_set_new(dram, tsr_stream_name((enum tsr_stream)st),
				    json_pack("{s:o,s:o}", "read_bytes", u64(d->read_bytes),
					      "write_bytes", u64(d->write_bytes)));
	}
	json_object_set_new(dram, "all",
			    json_pack("{s:o,s:o}", "read_bytes", u64(dall.read_bytes),
				      "write_bytes", u64(dall.write_bytes)));
	json_object_set_new(o, "dram", dram);
	json_object_set_new(o, "memory_accesses", u64(s->memory_accesses));
	return o;
}

json_t *tsr_addrmap_to_json(const struct tsr_addrmap *m)
{
	json_t *a = json_array();
	for (uint32_t i = 0; i < m->count; i++) {
		const struct tsr_region *r = &m->regions[i];
		json_array_append_new(a, json_pack("{s:s,s:o,s:o,s:s}", "name", r->name,
						   "base", u64(r->base), "size_bytes",
						   u64(r->size_bytes), "stream",
						   tsr_stream_name((enum tsr_stream)r->stream)));
	}
	return a;
}

void tsr_csv_header(char *buf, size_t n)
{
	snprintf(buf, n,
		 "frame,primitives_in,primitives_binned,pmds_written,quads_rasterized,"
		 "quads_shaded,fragments_shaded,texel_fetches,tile_reads,tile_writes,"
		 "tile_misses,texture_l1_accesses,texture_l1_misses,l2_accesses,l2_misses,"
		 "dram_read_bytes,dram_write_bytes,tiles_skipped,false_negatives,"
		 "te_flushes_removed");
}

void tsr_csv_row(char *buf, size_t n, const struct tsr_frame_stats *s,
		 const struct tsr_memsys *mem)
{
	uint64_t tile_r = 0, tile_w = 0, tile_m = 0, tex_a = 0, tex_m = 0, l2_a = 0, l2_m = 0;
	uint64_t dr = 0, dw = 0;
	for (uint32_t c = 0; c < s->cache_count; c++) {
		const char *name = tsr_cache_name(tsr_memsys_cache(mem, c));
		for (int st = 0; st < TSR_STREAM_COUNT; st++) {
			const struct tsr_cache_counters *k = &s->caches[c][st];
			uint64_t acc = k->reads + k->writes, miss = k->read_misses + k->write_misses;
			if (strcmp(name, "tile") == 0) {
				tile_r += k->reads;
				tile_w += k->writes;
				tile_m += miss;
			} else if (strncmp(name, "texture", 7) == 0) {
				tex_a += acc;
				tex_m += miss;
			} else if (strcmp(name, "l2") == 0) {
				l2_a += acc;
				l2_m += miss;
			}
		}
	}
	for (int st = 0; st < TSR_STREAM_COUNT; st++) {
		dr += s->dram[st].read_bytes;
		dw += s->dram[st].write_bytes;
	}
	snprintf(buf, n,
		 "%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
		 "%llu,%llu,%llu",
		 s->frame, (unsigned long long)s->geometry.primitives_in,
		 (unsigned long long)s->geometry.primitives_binned,
		 (unsigned long long)s->tiling.pmds_written,
		 (unsigned long long)s->raster.quads_rasterized,
		 (unsigned long long)s->raster.quads_shaded,
		 (unsigned long long)s->raster.fragments_shaded,
		 (unsigned long long)s->texture.texel_fetches, (unsigned long long)tile_r,
		 (unsigned long long)tile_w, (unsigned long long)tile_m,
		 (unsigned long long)tex_a, (unsigned long long)tex_m,
		 (unsigned long long)l2_a, (unsigned long long)l2_m,
		 (unsigned long long)dr, (unsigned long long)dw,
		 (unsigned long long)s->elim.tiles_skipped,
		 (unsigned long long)s->elim.false_negatives,
		 (unsigned long long)s->elim.te_flushes_removed);
}

enum tsr_status tsr_output_open(struct tsr_output *o, const char *dir,
				struct tsr_error *err)
{
	memset(o, 0, sizeof(*o));
	if (strlen(dir) + 64 >= sizeof(o->dir))
		return tsr_error_set(err, TSR_ERR_IO, "output path '%s' is too long", dir);
	snprintf(o->dir, sizeof(o->dir), "%s", dir);
	/* mkdir -p */
	char path[4096];
	snprintf(path, sizeof(path), "%s", dir);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST)
			return tsr_error_set(err, TSR_ERR_IO, "cannot create folder '%s': %s",
					     path, strerror(errno));
		*p = '/';
	}
	if (mkdir(path, 0777) != 0 && errno != EEXIST)
		return tsr_error_set(err, TSR_ERR_IO, "cannot create folder '%s': %s", path,
				     strerror(errno));
	struct stat sb;
	if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return tsr_error_set(err, TSR_ERR_IO, "'%s' is not a folder", path);
	return TSR_OK;
}

static enum tsr_status add_name(struct tsr_output *o, const char *name,
				char *tmp, size_t n, struct tsr_error *err)
{
	char (*names)[4160] = realloc(o->names, (o->count + 1) * sizeof(*names));
	if (!names)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	o->names = names;
	snprintf(o->names[o->count], sizeof(o->names[0]), "%s/%s", o->dir, name);
	snprintf(tmp, n, "%s.tmp", o->names[o->count]);
	o->count++;
	return TSR_OK;
}

enum tsr_status tsr_output_write(struct tsr_output *o, const char *name,
				 const void *data, size_t size,
				 struct tsr_error *err)
{
	char tmp[4200];
	enum tsr_status s = add_name(o, name, tmp, sizeof(tmp), err);
	if (s != TSR_OK)
		return s;
	FILE *f = fopen(tmp, "wb");
	if (!f)
		return tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': %s", tmp, strerror(errno));
	size_t w = fwrite(data, 1, size, f);
	if (fclose(f) != 0 || w != size)
		return tsr_error_set(err, TSR_ERR_IO, "cannot write '%s'", tmp);
	return TSR_OK;
}

enum tsr_status tsr_output_png(struct tsr_output *o, const char *name,
			       uint32_t width, uint32_t height,
			       const uint8_t *rgba, struct tsr_error *err)
{
	char tmp[4200];
	enum tsr_status s = add_name(o, name, tmp, sizeof(tmp), err);
	if (s != TSR_OK)
		return s;
	if (!stbi_write_png(tmp, (int)width, (int)height, 4, rgba, (int)width * 4))
		return tsr_error_set(err, TSR_ERR_IO, "cannot write image '%s'", tmp);
	return TSR_OK;
}

enum tsr_status tsr_output_commit(struct tsr_output *o, struct tsr_error *err)
{
	for (uint32_t i = 0; i < o->count; i++) {
		char tmp[4200];
		snprintf(tmp, sizeof(tmp), "%s.tmp", o->names[i]);
		if (rename(tmp, o->names[i]) != 0)
			return tsr_error_set(err, TSR_ERR_IO, "cannot rename '%s': %s", tmp,
					     strerror(errno));
	}
	free(o->names);
	o->names = NULL;
	o->count = 0;
	return TSR_OK;
}

void tsr_output_abort(struct tsr_output *o)
{
	for (uint32_t i = 0; i < o->count; i++) {
		char tmp[4200];
		snprintf(tmp, sizeof(tmp), "%s.tmp", o->names[i]);
		remove(tmp);
	}
	free(o->names);
	o->names = NULL;
	o->count = 0;
}
