/*
 * device.c - the renderer behind a GL ES context (device.h): a GL ES 2.0
 * command stream recorded into the GPU's command lists (command/command.h)
 * and rendered by the modelled GPU (pipeline/gpu.h) at each
 * eglSwapBuffers, as a tile-based driver defers a frame's rendering.
 *
 * What a draw becomes (struct tsr_cmd_program): the current program's
 * stages as execution states with its uniforms as of the draw
 * (tsr_shader_exec_create_snapshot()); each enabled vertex array's
 * elements the draw reads, copied as of the draw, at the addresses of its
 * buffer object (a raw buffer resource per buffer object and size, added
 * as the program makes them) or, for a client-side array, of a 64 MiB
 * region the driver streams client arrays through (as real drivers upload
 * them); the index stream as u32 values, read at the element array
 * buffer's addresses (glDrawElements) or none (glDrawArrays); each texture
 * unit's complete 2D texture as an image of the GPU (its level 0 and the
 * mip levels uploaded after it; the GPU builds the rest of the chain), a
 * complete cube map as six images in a row (its faces +X, -X, +Y, -Y,
 * +Z, -Z, each at its own addresses, sampled by
 * tsr_texture_sample_cube_quad(): GL ES 2.0 3.7.5's face selection, the
 * face's texels through the texture caches, CLAMP_TO_EDGE at its edges),
 * updated in place (face by face) when its texels change between
 * frames. A program gets a material whose instruction counts size its
 * code in memory. Points and lines (GL_POINTS, LINES, LINE_STRIP,
 * LINE_LOOP, with the draw state's line width) go to the GPU as they are:
 * its Geometry Pipeline makes two triangles of each point's square and
 * each segment's parallelogram (geometry/points_lines.c; gl_PointSize
 * clamped to ALIASED_POINT_SIZE_RANGE [1, 64], the width rounded and
 * clamped to ALIASED_LINE_WIDTH_RANGE [1, 16]).
 *
 * Frames and passes: the draws since the last swap into the default
 * framebuffer are the frame's last pass, cleared when a glClear came
 * before its first draw, else with its contents undefined
 * (EGL_BUFFER_DESTROYED, the default swap behaviour: invalidated, no tile
 * load). A framebuffer object with a color texture or a color
 * renderbuffer (or a depth texture alone) is a render-to-texture pass; a
 * framebuffer change starts a pass; a window pass after another one of
 * the frame keeps the window's color (not its depth); a render
 * target's color is kept from pass to pass, its depth undefined unless
 * cleared, and stored into its depth texture when it has one
 * (store_depth). Render targets are bottom-up images (GL's rows: row 0 the
 * bottom, drawn with GL's lower-left fill rule) with a mip chain that
 * glGenerateMipmap rebuilds from what the passes drew, after the frame's
 * last pass into it so far (a pass's `mipmap`) or at once.
 *
 * Clears: pending per target until its pass opens; a clear before a
 * pass's first draw that covers the whole target with every channel and
 * depth 1.0 is the pass's clear (the tiles start cleared: no traffic).
 * Any other (after a draw, scissored, color-masked, another depth value)
 * is drawn as a quad into the pass: the device's clear program (a
 * constant color, depth test ALWAYS writing the clear depth, the color
 * mask and scissor box). A tile-based driver has two ways: end the pass
 * (flushing every tile to memory and loading it back for the rest of the
 * frame) or draw the clear; the quad costs one full-screen draw's
 * fragments instead of a store and a load of the whole target, and it
 * needs nothing the pipelines do not have. Mesa's panfrost (Mali) driver
 * does the same: a clear is free at a batch's start, a full-screen quad
 * once the batch has draws (util_blitter_clear).
 *
 * Stencil: the draw's stencil state goes to the pipelines as it is (GL ES
 * 2.0 4.1.5 on an 8-bit buffer, kept with depth: on chip in the TBR,
 * D24S8 in the IMR's Z buffer) when the framebuffer has a stencil buffer
 * (the window's from its EGL config's STENCIL_SIZE, a framebuffer
 * object's STENCIL_ATTACHMENT); without one the test is off (it passes,
 * nothing is written). A stencil clear before a pass's first draw is the
 * pass's: ClearStencil's low 8 bits under the front STENCIL_WRITEMASK, the
 * kept bits an earlier clear's of the pass or else 0 (the undefined
 * contents at a pass start).
 *
 * Reads: glReadPixels and CopyTex[Sub]Image2D render what is pending as
 * a frame of its own first (a frame in the statistics), then read the
 * window's image or the bound framebuffer object's color target. Output,
 * as `tessera run` writes it: the frames' images (frame-NNNN.png) as they
 * end, frames.csv (a row per frame, energy_nj too in the timing mode) and
 * stats.json at destroy.
 *
 * Blits (glBlitFramebufferNV, tsr_gles_device_blit()): a blit command of
 * the frame's command list (struct tsr_cmd_blit) after every pass recorded
 * so far, which both pipelines run before the next pass (pipeline/blit.c):
 * a clear pending on its source or destination becomes a pass of its own
 * first, the open pass ends (a later draw opens a new one, which keeps a
 * render target's color, and the window's after a blit into it). Color
 * between the window and color render targets, depth between depth
 * textures; the window's and renderbuffers' depth and every stencil never
 * leave the chip, so their blits are refused.
 *
 * Several draw buffers (GL_EXT_draw_buffers: draw buffers 1..3 selecting
 * attached COLOR_ATTACHMENT1..3 images): the pass takes every color
 * attachment of the framebuffer object as color targets 1..3 (struct
 * tsr_cmd_pass mrt, mrt_images), each draw writes those its draw buffers
 * select (tsr_draw_state.draw_buffers), a clear before the pass's first
 * draw clears those it reaches at the pass's start (mrt_clear; the others
 * keep their contents), a later one is the clear quad, whose gl_FragColor
 * reaches every selected buffer.
 *
 * Not yet (TSR_ERR_UNSUPPORTED naming it, the draw skipped): a depth
 * renderbuffer alone, several draw buffers without a COLOR_ATTACHMENT0,
 * a stencil clear after a draw or scissored or
 * color-masked (the clear quad writes no stencil); texture contents
 * changed between two draws of one frame are sampled as at the frame's
 * end.
 *
 * Depth textures (GL_OES_depth_texture): the pass's depth stored into one
 * keeps full precision (the GPU image's float depth plane,
 * tsr_texture_write_depth_rect()), sampled as (d, d, d, 1); each texel is
 * 4 bytes in memory, read through the texture caches like any texel.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/text.h"
#include "gles/device.h"
#include "pipeline/gpu.h"
#include "report/heatmap.h"
#include "report/report.h"
#include "sample/sample.h"
#include "sim/footprint.h"
#include "trace/trace.h"

#define CLIENT_STREAM_BYTES (64u << 20)  /* the region client arrays stream through */

struct buffer_map {        /* a GL buffer object's raw buffer resource */
	GLuint name;
	uint64_t bytes;
	uint32_t mesh;
};

struct texture_map {       /* a GL texture object's image resource */
	uint64_t serial;       /* the object (tsr_gles_texture_serial()); 0: none any more */
	uint32_t image;
	uint32_t width, height;
	uint8_t *rgba;         /* the GPU image's texels (ours) */
	uint8_t target;        /* 1: a render target (a framebuffer object draws it:
	                          its texels are what the passes render), 2: a depth one */
	uint8_t faces;         /* images from `image` on: 1 (2D), 6 (a cube map's
	                          faces +X, -X, +Y, -Y, +Z, -Z; rgba holds them in a row) */
	uint8_t depth_stored;  /* a pass stored its depth here (store_depth): a later
	                          pass that does not clear depth continues it */
	uint8_t mips;          /* uploaded mip levels after level 0 in rgba (2D) */
};

struct program_map {       /* a linked program's material (its code sizes) */
	uint64_t serial;       /* the program (tsr_program_serial(): addresses are reused) */
	uint32_t vs, fs;
	uint32_t material;
};

/* memory of the frame's copies: bytes [0, used) of mem handed out */
struct frame_chunk {
	uint8_t *mem;
	size_t cap, used;
};

/* a new chunk's bytes at least (a larger block gets a chunk its size) */
#define FRAME_CHUNK_BYTES ((size_t)4 << 20)

struct tsr_gles_device {
	struct tsr_gles_device_params params;
	struct tsr_gpu_config config;
	char *out_dir;
	struct tsr_frame_list images;      /* which frames' images are written */
	struct tsr_frame_list select;      /* params.frames: those simulated fully */
	char *frames_spec;                 /* params.frames (a copy), or NULL */
	uint32_t simulated;                /* frames rendered that select holds */
	int last_full;                     /* the frame rendered last was one of them */
	struct tsr_text features;          /* params.features: features.csv */
	struct tsr_sample sample;          /* params.sample: clusters (rep = index) */
	uint32_t *sample_frames;           /* each cluster's representative frame */
	struct tsr_frame_stats **sample_stats; /* and its counters, once rendered */
	int heat[TSR_HEATMAP_COUNTERS];    /* params.heatmaps: their counters */
	int heat_n;
	struct tsr_gpu *gpu;
	uint32_t client_mesh;              /* the client-array stream's raw buffer */
	uint8_t *grid_texels;              /* the image that sizes the tile grid */
	uint64_t client_used;              /* its bytes handed out this frame */

	struct tsr_frame_commands cmds;    /* the frame being recorded */
	int pass_open;                     /* a draw opened the frame's last pass */
	int32_t pass_target;               /* its target: a render target image, -1 the
	                                      default framebuffer */
	int window_drawn;                  /* a pass of the frame draws the window */
	struct pending_clear {             /* clears for the next pass into a target */
		int32_t target;            /* its target (-1: the window) */
		struct tsr_clear_state c;  /* mask 0: none */
		uint8_t mrt;               /* GL_EXT_draw_buffers: bits 1..3, color targets
					      1..3 cleared too (to c.color) */
	} *clears;
	uint32_t clear_count, clear_cap;
	struct tsr_program *clear_prog;    /* draws the clears a pass's start cannot */
	int32_t pass_depth;                /* the open pass's stored depth target, -1: none */
	uint8_t pass_mrt;                  /* the open pass's color targets 1..3 (bits 1..3) */
	uint32_t pass_mrt_images[TSR_MAX_DRAW_BUFFERS - 1]; /* and their images */
	uint32_t recorded;                 /* frames rendered (command lists) */

	/* what the recorded draws point to, freed when the frame is rendered;
	 * their vertex and index copies in chunks kept from frame to frame
	 * (frame_block), reused once it is */
	struct tsr_cmd_program **programs;
	uint32_t program_count, program_cap;
	struct frame_chunk *chunks;
	uint32_t chunk_count, chunk_cap, chunk_cur;

	struct buffer_map *buffers;
	uint32_t buffer_count, buffer_cap;
	struct texture_map *textures;
	uint32_t texture_count, texture_cap;
	uint8_t **old_texels;              /* images replaced by larger ones (the GPU
	                                      keeps pointing at them) */
	uint32_t old_count, old_cap;
	struct program_map *progs;
	uint32_t prog_count, prog_cap;

	uint32_t frames;                   /* eglSwapBuffers */
	struct tsr_frame_stats *fs, *total;
	struct tsr_frame_stats *flushed;   /* the mid-frame flushes' counters since the
					      last swap (flush_frame()), or NULL */
	int flushes;                       /* how many there were */
	struct tsr_stats_json *json;
	struct tsr_energy *energy;         /* the timing mode's energy model, or NULL */
	struct tsr_text csv;               /* frames.csv: its header and a row a frame */
	struct tsr_output out;
	struct tsr_trace_writer *rec;      /* params.record_cache's input, or NULL */
	struct tsr_cache *rec_cache;       /* that cache (its observer is rec's) */
	struct tsr_footprint *footprint;   /* stats.texture_footprint's counter, or NULL */
};

/* tsr_frame_list_parse(), its message naming what the list is. */
static enum tsr_status frame_images_parse(const char *spec, struct tsr_frame_list *l,
					  struct tsr_error *err)
{
	struct tsr_error e;
	const enum tsr_status s = tsr_frame_list_parse(spec, l, &e);
	if (s == TSR_ERR_CONFIG)
		return tsr_error_set(err, s, "frame images %s", e.msg);
	if (s != TSR_OK)
		return tsr_error_set(err, s, "%s", e.msg);
	return s;
}

enum tsr_status tsr_gles_frame_images_check(const char *spec, struct tsr_error *err)
{
	struct tsr_frame_list l;
	const enum tsr_status s = frame_images_parse(spec, &l, err);
	tsr_frame_list_release(&l);
	return s;
}

enum tsr_status tsr_gles_heatmaps_check(const char *list, const struct tsr_gpu_config *cfg,
					struct tsr_error *err)
{
	int heat[TSR_HEATMAP_COUNTERS], n;
	TSR_TRY(tsr_heatmaps_parse(list, heat, &n, err));
	return tsr_heatmaps_check(cfg, heat, n, err);
}

/* params.sample: "FRAME:WEIGHT:CV,..." into d->sample and d->sample_frames. */
static enum tsr_status sample_parse(struct tsr_gles_device *d, const char *spec,
				    struct tsr_error *err)
{
	uint32_t k = 1;
	for (const char *p = spec; *p; p++)
		k += *p == ',';
	d->sample.clusters = calloc(k, sizeof(*d->sample.clusters));
	d->sample_frames = calloc(k, sizeof(*d->sample_frames));
	d->sample_stats = calloc(k, sizeof(*d->sample_stats));
	if (!d->sample.clusters || !d->sample_frames || !d->sample_stats)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	const char *p = spec;
	for (uint32_t j = 0; j < k; j++) {
		char *end;
		errno = 0;
		const unsigned long f = strtoul(p, &end, 10);
		int ok = end != p && *end == ':';
		const unsigned long w = ok ? strtoul(end + 1, &end, 10) : 0;
		ok = ok && *end == ':' && w > 0 && w < UINT32_MAX && f < UINT32_MAX;
		const double cv = ok ? strtod(end + 1, &end) : 0;
		ok = ok && !errno && cv >= 0 && (*end == ',' || (!*end && j + 1 == k));
		if (!ok)
			return tsr_error_set(err, TSR_ERR_CONFIG, "sample '%s': item %u is not "
					     "FRAME:WEIGHT:CV", spec, j + 1);
		d->sample_frames[j] = (uint32_t)f;
		d->sample.clusters[j] = (struct tsr_sample_cluster){j, (uint32_t)w, cv};
		d->sample.n += (uint32_t)w;
		p = end + 1;
	}
	d->sample.k = k;
	return TSR_OK;
}

/*
 * params.record_cache: the input of cache `cache` recorded into
 * out_dir/file through the device's output transaction (the trace
 * writer's observer on the cache), as `tessera run --record-trace` records
 * it.
 */
static enum tsr_status record_open(struct tsr_gles_device *d, const char *cache,
				   const char *file, struct tsr_error *err)
{
	if (!d->out_dir || !file || !file[0] || strchr(file, '/'))
		return tsr_error_set(err, TSR_ERR_CONFIG, "recording cache '%s' needs an output "
				     "folder and a file name in it (no '/'), not '%s'", cache,
				     file ? file : "(none)");
	d->rec_cache = tsr_gpu_cache_by_name(d->gpu, cache);
	if (d->rec_cache && d->footprint && tsr_footprint_observes(d->footprint, d->rec_cache)) {
		d->rec_cache = NULL;
		return tsr_error_set(err, TSR_ERR_CONFIG, "cannot record cache '%s': it is observed "
				     "for key 'stats.texture_footprint' (a cache has one observer); "
				     "record another cache or set the key to false", cache);
	}
	if (!d->rec_cache) {
		struct tsr_text names = {0};
		const struct tsr_memsys *m = tsr_gpu_memsys(d->gpu);
		for (uint32_t k = 0; k < tsr_memsys_cache_count(m); k++)
			tsr_text_printf(&names, "%s%s", k ? ", " : "",
					tsr_cache_name(tsr_memsys_cache(m, k)));
		enum tsr_status s = tsr_error_set(err, TSR_ERR_CONFIG, "cannot record cache '%s': "
						  "configuration '%s' has no such cache (caches: %s)",
						  cache, d->config.name,
						  names.buf && !names.nomem ? names.buf : "none");
		tsr_text_release(&names);
		return s;
	}
	char path[4096], desc[512];
	snprintf(path, sizeof(path), "%s/%s", d->out_dir, file);
	snprintf(desc, sizeof(desc), "cache=%s workload=(a GL ES 2.0 program) config=%s "
		 "tessera=%s", cache, d->config.name, TSR_VERSION);
	const char *where;
	TSR_TRY(tsr_output_file(&d->out, path, &where, err));
	TSR_TRY(tsr_trace_writer_open_direct(where, desc, &d->rec, err));
	struct tsr_cache_observer ob = tsr_trace_observer(d->rec);
	tsr_cache_set_observer(d->rec_cache, &ob);
	return TSR_OK;
}

enum tsr_status tsr_gles_device_create(const struct tsr_gles_device_params *p,
				       struct tsr_gles_device **out, struct tsr_error *err)
{
	*out = NULL;
	if (p->width == 0 || p->height == 0 || p->width > TSR_GLES_MAX_VIEWPORT_DIMS ||
	    p->height > TSR_GLES_MAX_VIEWPORT_DIMS)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "a surface of %ux%u pixels (1 to %u a side)", p->width,
				     p->height, TSR_GLES_MAX_VIEWPORT_DIMS);
	struct tsr_gles_device *d = calloc(1, sizeof(*d));
	if (!d)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a GL ES device");
	d->params = *p;
	if (p->config)
		d->config = *p->config;
	else
		tsr_config_defaults(&d->config);
	d->config.width = p->width;
	d->config.height = p->height;
	d->params.config = &d->config;
	d->params.out_dir = NULL;
	d->fs = calloc(1, sizeof(*d->fs));
	d->total = calloc(1, sizeof(*d->total));
	d->params.frame_images = NULL;
	d->params.heatmaps = NULL;
	d->params.frames = NULL;
	if (p->frames)
		d->frames_spec = strdup(p->frames);
	if (p->out_dir)
		d->out_dir = strdup(p->out_dir);
	enum tsr_status s = TSR_OK;
	if (!d->fs || !d->total || (p->out_dir && !d->out_dir) || (p->frames && !d->frames_spec))
		s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a GL ES device");
	if (s == TSR_OK)
		s = frame_images_parse(p->frame_images, &d->images, err);
	if (s == TSR_OK && p->sample)
		s = sample_parse(d, p->sample, err);
	if (s == TSR_OK && p->frames) {
		struct tsr_error e;
		s = tsr_frame_list_parse(p->frames, &d->select, &e);
		if (s == TSR_OK && d->select.kind == TSR_FRAMES_LAST)
			s = tsr_error_set(&e, TSR_ERR_CONFIG, "'%s': all, none or a list of frames "
					  "and ranges", p->frames);
		if (s != TSR_OK)
			s = tsr_error_set(err, s, "frames %s", e.msg);
	}
	/* the Parameter Buffer laid out for the most varyings a program has
	 * (a material of TSR_SHADER_MAX_VARYINGS, which no draw uses) */
	const struct tsr_material widest = {.texture = -1, .texture_object = -1,
					    .varyings = TSR_SHADER_MAX_VARYINGS};
	/* and its tile grid for render targets up to twice the window a side
	 * (an image no pass draws: framebuffer objects are often larger than
	 * the window, glmark2's 800x600 under a 400x300 one) */
	const uint32_t gw = p->width * 2 > TSR_GLES_MAX_VIEWPORT_DIMS ? TSR_GLES_MAX_VIEWPORT_DIMS
								      : p->width * 2;
	const uint32_t gh = p->height * 2 > TSR_GLES_MAX_VIEWPORT_DIMS ? TSR_GLES_MAX_VIEWPORT_DIMS
								       : p->height * 2;
	d->grid_texels = calloc((size_t)gw * gh, 4);
	const struct tsr_image grid = {.path = "rendertarget:tile-grid", .width = gw, .height = gh,
				       .rgba = d->grid_texels, .render_target = 1};
	const struct tsr_resources first = {.material_count = 1, .materials = &widest,
					    .image_count = 1, .images = &grid};
	if (!d->grid_texels)
		s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a GL ES device");
	if (s == TSR_OK)
		s = tsr_gpu_create(&d->config, &first, &d->gpu, err);
	if (s == TSR_OK) {  /* the client-array stream */
		struct tsr_mesh m = {.raw_bytes = CLIENT_STREAM_BYTES};
		const struct tsr_resources more = {.mesh_count = 1, .meshes = &m};
		d->client_mesh = 0;
		s = tsr_gpu_add_resources(d->gpu, &more, err);
	}
	/* stats.texture_footprint: texture.footprint_lines, as a workload's run counts it */
	if (s == TSR_OK && d->config.texture_footprint_stats)
		s = tsr_footprint_create(d->gpu, &d->footprint, err);
	if (s == TSR_OK && p->heatmaps && d->out_dir) {  /* the per-tile counters */
		s = tsr_heatmaps_parse(p->heatmaps, d->heat, &d->heat_n, err);
		if (s == TSR_OK)
			s = tsr_heatmaps_check(&d->config, d->heat, d->heat_n, err);
		if (s == TSR_OK)
			s = tsr_gpu_enable_heat(d->gpu, err);
	}
	if (s == TSR_OK && d->out_dir) {
		s = tsr_output_open(&d->out, d->out_dir, err);
		if (s == TSR_OK)
			s = tsr_stats_json_create(tsr_gpu_memsys(d->gpu), d->config.mem.cores,
						  d->config.timing.gpu_mhz, &d->json, err);
		if (s == TSR_OK && d->config.timing.enabled)
			s = tsr_energy_create(&d->config, tsr_gpu_memsys(d->gpu), &d->energy, err);
		if (s == TSR_OK) {  /* frames.csv's header, as `tessera run` writes it */
			char head[8192];
			tsr_stats_json_set_energy(d->json, d->energy);
			tsr_csv_header(head, sizeof(head), tsr_gpu_memsys(d->gpu),
				       d->config.texture_footprint_stats);
			tsr_text_printf(&d->csv, "%s%s\n", head, d->energy ? ",energy_nj" : "");
		}
		if (s == TSR_OK && p->features)
			tsr_sample_features_csv_header(&d->features);
	}
	if (s == TSR_OK && p->record_cache)
		s = record_open(d, p->record_cache, p->record_file, err);
	if (s != TSR_OK) {
		tsr_gles_device_destroy(d, NULL);
		return s;
	}
	*out = d;
	return TSR_OK;
}

/* Frees what the recorded draws point to. */
static void free_frame(struct tsr_gles_device *d)
{
	for (uint32_t i = 0; i < d->program_count; i++) {
		tsr_shader_exec_destroy(d->programs[i]->vertex);
		tsr_shader_exec_destroy(d->programs[i]->fragment);
		free(d->programs[i]);
	}
	d->program_count = 0;
	for (uint32_t i = 0; i < d->chunk_count; i++)
		d->chunks[i].used = 0;
	d->chunk_cur = 0;
	d->client_used = 0;
}

/* A block of `bytes` (64-byte aligned) valid until the frame is rendered;
 * NULL when out of memory. Its memory is reused by the next frames, so
 * that copying a draw's vertices faults no new pages in once the largest
 * frame has been seen. */
static void *frame_block(struct tsr_gles_device *d, size_t bytes)
{
	const size_t need = (bytes + 63) & ~(size_t)63;
	for (; d->chunk_cur < d->chunk_count; d->chunk_cur++) {
		struct frame_chunk *c = &d->chunks[d->chunk_cur];
		if (c->cap - c->used >= need) {
			void *p = c->mem + c->used;
			c->used += need;
			return p;
		}
	}
	struct frame_chunk *cs = tsr_array_grow(d->chunks, &d->chunk_cap, d->chunk_count + 1,
						sizeof(*cs));
	if (!cs)
		return NULL;
	d->chunks = cs;
	const size_t cap = need > FRAME_CHUNK_BYTES ? need : FRAME_CHUNK_BYTES;
	uint8_t *mem = aligned_alloc(64, cap);
	if (!mem)
		return NULL;
	d->chunks[d->chunk_count++] = (struct frame_chunk){mem, cap, need};
	d->chunk_cur = d->chunk_count - 1;
	return mem;
}

/*
 * Renders the recorded frame (an empty pass when nothing was recorded),
 * writes its image and statistics, and starts the next one.
 */
struct mrt_sel;
static enum tsr_status open_pass(struct tsr_gles_device *d, int32_t target,
				 int32_t depth_target, const struct mrt_sel *m,
				 struct tsr_error *err);

/* frame-NNNN.png of the frame rendered last, in the background, and its
 * heatmaps (params.heatmaps) */
static enum tsr_status write_frame_image(struct tsr_gles_device *d, struct tsr_error *err)
{
	char name[64];
	snprintf(name, sizeof(name), "frame-%04u.png", d->fs->frame);
	TSR_TRY(tsr_output_png_async(&d->out, name, d->config.width, d->config.height,
				     tsr_gpu_frame_image(d->gpu), err));
	uint32_t tx, ty;
	tsr_gpu_tile_grid(d->gpu, &tx, &ty);
	for (int k = 0; k < d->heat_n; k++) {
		const uint64_t *v = tsr_gpu_heat(d->gpu, (enum tsr_heat_counter)d->heat[k]);
		if (!v)
			return tsr_error_set(err, TSR_ERR_INTERNAL, "frame %u has no per-tile "
					     "counters", d->fs->frame);
		TSR_TRY(tsr_heatmap_write(&d->out, d->heat[k], d->fs->frame, v, tx, ty,
					  d->config.tile_width, d->config.tile_height, d->config.width,
					  d->config.height, err));
	}
	return TSR_OK;
}

/*
 * Renders the commands recorded since the last render, as frame
 * d->recorded's, into d->fs, and starts a command list for frame `next`
 * (the same frame after a flush, the next after a swap); *full: the frame
 * is one params.frames selects (simulated fully).
 */
static enum tsr_status render_pending(struct tsr_gles_device *d, uint32_t next, int *full,
				      struct tsr_error *err)
{
	if (!d->pass_open || d->pass_target >= 0)  /* the frame ends drawing the window */
		TSR_TRY(open_pass(d, -1, -1, NULL, err));
	d->cmds.frame = d->recorded;
	/* params.frames: the frames it does not select are fast-forwarded, but
	 * the warmup frames before a selected one, which warm the caches up */
	*full = tsr_frame_list_has(&d->select, d->recorded, 0);
	int mode = *full ? TSR_GPU_FULL : TSR_GPU_FAST_FORWARD;
	for (uint32_t k = 1; !*full && k <= d->params.warmup; k++)
		if (tsr_frame_list_has(&d->select, d->recorded + k, 0))
			mode = TSR_GPU_WARM;
	enum tsr_status s = tsr_gpu_set_fast_forward(d->gpu, mode, err);
	if (s == TSR_OK)
		s = tsr_gpu_render_commands(d->gpu, &d->cmds, d->fs, err);
	free_frame(d);
	tsr_commands_reset(&d->cmds, next);
	d->pass_open = 0;
	d->window_drawn = 0;
	d->clear_count = 0;
	return s;
}

/*
 * A mid-frame flush: a read (glReadPixels, CopyTex[Sub]Image2D) that needs
 * what is pending renders it first, as a tile-based GPU's driver flushes
 * its tiler ("partial render": the tiles stored, the next pass loads
 * them). It is part of the frame the next swap ends, not a frame of its
 * own: its counters are added to that frame's (d->flushed); the texture
 * footprint is the frame's union (the flush does not end it); its
 * per-tile counters are not kept.
 */
static enum tsr_status flush_frame(struct tsr_gles_device *d, struct tsr_error *err)
{
	int full;
	/* the frame is rendered in parts (Rendering and Transaction
	 * Elimination off: they sign a whole frame's window) */
	d->cmds.partial = 1;
	TSR_TRY(render_pending(d, d->recorded, &full, err));
	d->cmds.partial = 1;  /* the rest of the frame */
	d->window_drawn = 1;  /* the window's next pass loads what the flush drew */
	if (!d->flushed && !(d->flushed = calloc(1, sizeof(*d->flushed))))
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	tsr_frame_stats_add(d->flushed, d->fs);
	d->flushes++;
	return TSR_OK;
}

static enum tsr_status render_frame(struct tsr_gles_device *d, struct tsr_error *err)
{
	int full;
	TSR_TRY(render_pending(d, d->recorded + 1, &full, err));
	if (d->flushes) {  /* the frame's flushes (flush_frame()) */
		tsr_frame_stats_add(d->fs, d->flushed);
		memset(d->flushed, 0, sizeof(*d->flushed));
		d->flushes = 0;
	}
	if (d->footprint)
		TSR_TRY(tsr_footprint_frame_end(d->footprint, &d->fs->texture.footprint_lines, err));
	d->fs->frame = d->recorded++;
	d->last_full = full;
	if (d->out_dir && d->params.features)
		tsr_sample_features_csv_row(&d->features, d->fs);
	if (!full)
		return TSR_OK;  /* in no total, no frames.csv row, no image */
	d->simulated++;
	uint32_t times = 1;  /* params.sample: its cluster's weight */
	for (uint32_t j = 0; j < d->sample.k; j++)
		if (d->sample_frames[j] == d->fs->frame && !d->sample_stats[j]) {
			d->sample_stats[j] = malloc(sizeof(*d->fs));
			if (!d->sample_stats[j])
				return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
			*d->sample_stats[j] = *d->fs;
			times = d->sample.clusters[j].weight;
		}
	for (uint32_t t = 0; t < times; t++)
		tsr_frame_stats_add(d->total, d->fs);
	if (!d->out_dir)
		return TSR_OK;
	const uint32_t f = d->fs->frame;
	if (d->images.kind != TSR_FRAMES_LAST && tsr_frame_list_has(&d->images, f, 0))
		TSR_TRY(write_frame_image(d, err));
	char row[8192];
	tsr_csv_row(row, sizeof(row), d->fs, tsr_gpu_memsys(d->gpu),
		    d->config.texture_footprint_stats);
	tsr_text_printf(&d->csv, "%s", row);
	if (d->energy) {
		struct tsr_energy_result r;
		TSR_TRY(tsr_energy_compute(d->energy, d->fs, &r, err));
		tsr_text_printf(&d->csv, ",%.3f", r.total_nj);
	}
	tsr_text_printf(&d->csv, "\n");
	return tsr_stats_json_add_frame(d->json, d->fs, err);
}

enum tsr_status tsr_gles_device_destroy(struct tsr_gles_device *d, struct tsr_error *err)
{
	if (!d)
		return TSR_OK;
	enum tsr_status s = TSR_OK;
	if (d->json && d->gpu) {
		char *text = NULL;
		if (d->images.kind == TSR_FRAMES_LAST && d->recorded > 0 && d->last_full)
			s = write_frame_image(d, err);
		char *sample = NULL;
		if (s == TSR_OK && d->sample.k) {  /* representatives never rendered: zeros */
			for (uint32_t j = 0; s == TSR_OK && j < d->sample.k; j++)
				if (!d->sample_stats[j] &&
				    !(d->sample_stats[j] = calloc(1, sizeof(*d->fs))))
					s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
			if (s == TSR_OK)
				s = tsr_sample_json(&d->sample, d->sample_frames,
						    (const struct tsr_frame_stats *const *)d->sample_stats,
						    tsr_gpu_memsys(d->gpu), &sample, err);
		}
		const struct tsr_stats_workload w = {.path = "(a GL ES 2.0 program)", .name = "",
						     .frames = d->simulated,
						     .selected = d->frames_spec,
						     .fast_forwarded = d->recorded - d->simulated,
						     .sample = sample};
		if (s == TSR_OK)
			s = tsr_stats_json_render(d->json, &d->config, &w,
						  tsr_gpu_address_map(d->gpu), d->total, &text, err);
		free(sample);
		if (s == TSR_OK)
			s = tsr_output_write(&d->out, "stats.json", text, strlen(text), err);
		free(text);
		if (s == TSR_OK)
			s = tsr_text_status(&d->csv, "frames.csv", err);
		if (s == TSR_OK)
			s = tsr_output_write(&d->out, "frames.csv", d->csv.buf, d->csv.len, err);
		if (s == TSR_OK && d->params.features)
			s = tsr_text_status(&d->features, "features.csv", err);
		if (s == TSR_OK && d->params.features)
			s = tsr_output_write(&d->out, "features.csv", d->features.buf,
					     d->features.len, err);
		if (d->rec) {  /* the trace before the commit: its errors fail the write */
			tsr_cache_set_observer(d->rec_cache, NULL);
			struct tsr_error terr = {{0}};
			enum tsr_status ts = tsr_trace_writer_close(d->rec, s == TSR_OK, &terr);
			d->rec = NULL;
			if (s == TSR_OK && ts != TSR_OK) {
				s = ts;
				if (err)
					*err = terr;
			}
		}
		if (s == TSR_OK)
			s = tsr_output_commit(&d->out, err);
		else
			tsr_output_abort(&d->out);
	} else if (d->out_dir) {
		tsr_output_abort(&d->out);
	}
	if (d->rec) {  /* not written (no statistics): its temporary went with the abort */
		if (d->rec_cache)
			tsr_cache_set_observer(d->rec_cache, NULL);
		tsr_trace_writer_close(d->rec, 0, NULL);
	}
	free_frame(d);
	tsr_commands_release(&d->cmds);
	tsr_gpu_destroy(d->gpu);
	tsr_footprint_destroy(d->footprint);  /* after the GPU: its caches point to it */
	tsr_stats_json_destroy(d->json);
	tsr_energy_destroy(d->energy);
	tsr_text_release(&d->csv);
	tsr_text_release(&d->features);
	tsr_frame_list_release(&d->select);
	free(d->frames_spec);
	for (uint32_t j = 0; d->sample_stats && j < d->sample.k; j++)
		free(d->sample_stats[j]);
	free(d->sample_stats);
	free(d->sample_frames);
	tsr_sample_release(&d->sample);
	for (uint32_t i = 0; i < d->texture_count; i++)
		free(d->textures[i].rgba);
	for (uint32_t i = 0; i < d->old_count; i++)
		free(d->old_texels[i]);
	free(d->old_texels);
	free(d->textures);
	free(d->buffers);
	free(d->progs);
	free(d->clears);
	tsr_program_destroy(d->clear_prog);
	free(d->programs);
	for (uint32_t i = 0; i < d->chunk_count; i++)
		free(d->chunks[i].mem);
	free(d->chunks);
	free(d->grid_texels);
	free(d->fs);
	free(d->flushed);
	free(d->total);
	free(d->out_dir);
	tsr_frame_list_release(&d->images);
	free(d);
	return s;
}

static enum tsr_status unsupported(struct tsr_error *err, const char *what)
{
	return tsr_error_set(err, TSR_ERR_UNSUPPORTED,
			     "%s is not supported by tessera's GL ES device yet", what);
}

/* The raw buffer resource of buffer object `name` with `bytes` bytes: a new
 * one when the object is new or its size changed (glBufferData). */
static enum tsr_status buffer_mesh(struct tsr_gles_device *d, GLuint name, uint64_t bytes,
				   uint32_t *mesh, struct tsr_error *err)
{
	for (uint32_t i = 0; i < d->buffer_count; i++)
		if (d->buffers[i].name == name && d->buffers[i].bytes == bytes) {
			*mesh = d->buffers[i].mesh;
			return TSR_OK;
		}
	struct buffer_map *b = tsr_array_grow(d->buffers, &d->buffer_cap, d->buffer_count + 1,
					      sizeof(*b));
	if (!b)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for buffers");
	d->buffers = b;
	struct tsr_mesh m = {.raw_bytes = bytes ? bytes : 1};
	const struct tsr_resources more = {.mesh_count = 1, .meshes = &m};
	const uint32_t index = tsr_gpu_resource_count(d->gpu, TSR_RESOURCE_MESHES);
	TSR_TRY(tsr_gpu_add_resources(d->gpu, &more, err));
	uint32_t i = 0;
	while (i < d->buffer_count && d->buffers[i].name != name)
		i++;
	if (i == d->buffer_count)
		d->buffer_count++;
	d->buffers[i] = (struct buffer_map){name, bytes, index};
	*mesh = index;
	return TSR_OK;
}

/* The image resource of texture `name` bound to target (complete; 2D, or
 * a cube map: six images in a row, its faces +X, -X, +Y, -Y, +Z, -Z, each
 * at its own addresses), its texels brought up to date (each face's image
 * updated when its texels changed); -1 when it has no RGBA image (depth
 * textures). */
static enum tsr_status texture_image(struct tsr_gles_device *d,
				     const struct tsr_gles_context *ctx, GLuint name,
				     GLenum target, int32_t *image, struct tsr_error *err)
{
	const uint32_t faces = target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
	GLsizei w = 0, h = 0;
	GLenum format = 0;
	const uint8_t *texels[6];
	texels[0] = tsr_gles_texture_image(ctx, name,
					   faces == 6 ? GL_TEXTURE_CUBE_MAP_POSITIVE_X : GL_TEXTURE_2D,
					   0, &w, &h, &format);
	*image = -1;
	const uint64_t serial = tsr_gles_texture_serial(ctx, name, target);
	for (uint32_t i = 0; i < d->texture_count; i++)  /* a render target, depth ones too */
		if (d->textures[i].serial == serial && d->textures[i].target) {
			*image = (int32_t)d->textures[i].image;
			return TSR_OK;
		}
	if (!texels[0] || w <= 0 || h <= 0 || format == GL_DEPTH_COMPONENT ||
	    format == GL_DEPTH_STENCIL_OES)
		return TSR_OK;
	for (uint32_t f = 1; f < faces; f++) {  /* complete: faces of one size */
		GLsizei fw = 0, fh = 0;
		texels[f] = tsr_gles_texture_image(ctx, name, GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0,
						   &fw, &fh, NULL);
		if (!texels[f] || fw != w || fh != h)
			return TSR_OK;
	}
	/* a 2D texture's uploaded mip levels (1..mips, in a row after level 0):
	 * the GPU samples them instead of building its own */
	const uint8_t *mip[16];
	uint32_t mips = 0;
	size_t mip_bytes = 0;
	for (GLint l = 1; faces == 1 && l <= 16; l++) {
		GLsizei lw = 0, lh = 0, ew = w >> l ? w >> l : 1, eh = h >> l ? h >> l : 1;
		GLenum lf = 0;
		const uint8_t *p = tsr_gles_texture_image(ctx, name, GL_TEXTURE_2D, l, &lw, &lh, &lf);
		if (!p || lw != ew || lh != eh || lf != format ||
		    !tsr_gles_texture_level_uploaded(ctx, name, l))
			break;
		mip[mips++] = p;
		mip_bytes += (size_t)lw * (size_t)lh * 4;
		if (lw == 1 && lh == 1)
			break;
	}
	const size_t face_bytes = (size_t)w * (size_t)h * 4, bytes = faces * face_bytes + mip_bytes;
	for (uint32_t i = 0; i < d->texture_count; i++) {
		struct texture_map *t = &d->textures[i];
		if (t->serial != serial)
			continue;
		if (t->target) {  /* its texels are what passes rendered */
			*image = (int32_t)t->image;
			return TSR_OK;
		}
		if (t->width == (uint32_t)w && t->height == (uint32_t)h && t->faces == faces &&
		    t->mips == mips) {
			for (uint32_t f = 0; f < faces; f++) {
				int changed = 0;
				if (memcmp(t->rgba + f * face_bytes, texels[f], face_bytes)) {
					memcpy(t->rgba + f * face_bytes, texels[f], face_bytes);
					changed = 1;
				}
				size_t off = face_bytes;
				for (uint32_t l = 0; l < mips; l++) {
					const size_t lb = (size_t)(w >> (l + 1) ? w >> (l + 1) : 1) *
							  (size_t)(h >> (l + 1) ? h >> (l + 1) : 1) * 4;
					if (memcmp(t->rgba + off, mip[l], lb)) {
						memcpy(t->rgba + off, mip[l], lb);
						changed = 1;
					}
					off += lb;
				}
				if (changed)
					TSR_TRY(tsr_gpu_update_image(d->gpu, t->image + f, err));
			}
			*image = (int32_t)t->image;
			return TSR_OK;
		}
		/* respecified at another size: a new image; the old texels stay
		 * for the GPU's old image */
		uint8_t **o = tsr_array_grow(d->old_texels, &d->old_cap, d->old_count + 1,
					     sizeof(*o));
		if (!o)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for textures");
		d->old_texels = o;
		d->old_texels[d->old_count++] = t->rgba;
		t->rgba = NULL;
		t->serial = 0;
	}
	struct texture_map *m = tsr_array_grow(d->textures, &d->texture_cap, d->texture_count + 1,
					       sizeof(*m));
	if (!m)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for textures");
	d->textures = m;
	uint8_t *copy = malloc(bytes);
	if (!copy)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a %dx%d texture", w, h);
	static const char *const face_names[6] = {"+x", "-x", "+y", "-y", "+z", "-z"};
	char paths[6][48];
	struct tsr_image im[6];
	for (uint32_t f = 0; f < faces; f++) {
		memcpy(copy + f * face_bytes, texels[f], face_bytes);
		if (faces == 6)
			snprintf(paths[f], sizeof(paths[f]), "gl-cube-%u%s", name, face_names[f]);
		else
			snprintf(paths[f], sizeof(paths[f]), "gl-texture-%u", name);
		im[f] = (struct tsr_image){.path = paths[f], .width = (uint32_t)w,
					   .height = (uint32_t)h, .rgba = copy + f * face_bytes};
	}
	size_t off = face_bytes;  /* (faces 1 when there are mips) */
	for (uint32_t l = 0; l < mips; l++) {
		const size_t lb = (size_t)(w >> (l + 1) ? w >> (l + 1) : 1) *
				  (size_t)(h >> (l + 1) ? h >> (l + 1) : 1) * 4;
		memcpy(copy + off, mip[l], lb);
		im[0].mip_rgba[l] = copy + off;
		off += lb;
	}
	im[0].mip_count = mips;
	const struct tsr_resources more = {.image_count = faces, .images = im};
	const uint32_t index = tsr_gpu_resource_count(d->gpu, TSR_RESOURCE_IMAGES);
	enum tsr_status s = tsr_gpu_add_resources(d->gpu, &more, err);
	if (s != TSR_OK) {
		free(copy);
		return s;
	}
	d->textures[d->texture_count++] = (struct texture_map){serial, index, (uint32_t)w,
							       (uint32_t)h, copy, 0, (uint8_t)faces, 0,
							       (uint8_t)mips};
	*image = (int32_t)index;
	return TSR_OK;
}

/* The material of a linked program: its code's sizes, its varyings. */
static enum tsr_status program_material(struct tsr_gles_device *d, const struct tsr_program *p,
					uint32_t *material, struct tsr_error *err)
{
	const struct tsr_sh_inst *code;
	const uint32_t vs = tsr_program_code(p, TSR_SHADER_VERTEX, &code);
	const uint32_t fs = tsr_program_code(p, TSR_SHADER_FRAGMENT, &code);
	for (uint32_t i = 0; i < d->prog_count; i++)
		if (d->progs[i].serial == tsr_program_serial(p) && d->progs[i].vs == vs &&
		    d->progs[i].fs == fs) {
			*material = d->progs[i].material;
			return TSR_OK;
		}
	struct program_map *m = tsr_array_grow(d->progs, &d->prog_cap, d->prog_count + 1,
					       sizeof(*m));
	if (!m)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for programs");
	d->progs = m;
	const uint32_t slots = tsr_program_varying_count(p);
	struct tsr_material mat = {.texture = -1, .texture_object = -1,
				   .varyings = slots ? slots : 1,
				   .vertex_shader_instructions = vs,
				   .shader_alu_instructions = fs, .color = {1, 1, 1, 1}};
	const struct tsr_resources more = {.material_count = 1, .materials = &mat};
	const uint32_t index = tsr_gpu_resource_count(d->gpu, TSR_RESOURCE_MATERIALS);
	TSR_TRY(tsr_gpu_add_resources(d->gpu, &more, err));
	d->progs[d->prog_count++] = (struct program_map){tsr_program_serial(p), vs, fs, index};
	*material = index;
	return TSR_OK;
}

static const uint8_t attrib_bytes[TSR_ATTRIB_TYPE_COUNT] = {1, 1, 2, 2, 4, 4, 2};

/* The index stream of a draw as u32 values, and the largest index. */
static enum tsr_status draw_indices(struct tsr_gles_device *d,
				    const struct tsr_gles_context *ctx,
				    const struct tsr_gles_draw *g, struct tsr_cmd_program *p,
				    struct tsr_error *err)
{
	const struct tsr_index_state *ix = &g->state.index;
	const uint32_t n = ix->count;
	uint32_t *idx = frame_block(d, (size_t)n * sizeof(*idx));
	if (!idx)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for %u indices", n);
	uint32_t most = 0;
	if (ix->type == TSR_INDEX_NONE) {
		for (uint32_t i = 0; i < n; i++)
			idx[i] = (uint32_t)g->first + i;
		most = n ? (uint32_t)g->first + n - 1 : 0;
	} else {
		const uint32_t size = ix->type == TSR_INDEX_U8 ? 1 : ix->type == TSR_INDEX_U16 ? 2 : 4;
		const uint8_t *src = g->indices;
		if (ix->buffer) {
			GLsizeiptr bytes = 0;
			const uint8_t *data = tsr_gles_buffer_data(ctx, ix->buffer, &bytes);
			if (!data || (uint64_t)ix->offset + (uint64_t)n * size > (uint64_t)bytes)
				return unsupported(err, "an index range beyond its element array "
						   "buffer");
			src = data + ix->offset;
			TSR_TRY(buffer_mesh(d, ix->buffer, (uint64_t)bytes, &p->index_buffer, err));
			p->index_offset = ix->offset;
		} else {  /* client indices: through the stream */
			p->index_buffer = d->client_mesh;
			p->index_offset = (uint32_t)d->client_used;
			d->client_used = (d->client_used + (uint64_t)n * size + 63) & ~63ull;
			if (d->client_used > CLIENT_STREAM_BYTES)
				return unsupported(err, "more than 64 MiB of client-side arrays "
						   "in a frame");
		}
		if (!src && n)
			return unsupported(err, "a glDrawElements without indices");
		for (uint32_t i = 0; i < n; i++) {
			uint32_t v;
			if (size == 1) {
				v = src[i];
			} else if (size == 2) {
				uint16_t s;
				memcpy(&s, src + 2 * (size_t)i, 2);
				v = s;
			} else {
				memcpy(&v, src + 4 * (size_t)i, 4);
			}
			idx[i] = v;
			most = v > most ? v : most;
		}
		p->index_bytes = (uint8_t)size;
	}
	p->indices = (struct tsr_mesh){.index_count = n, .indices = idx,
				       .vertex_count = n ? most + 1 : 0};
	return TSR_OK;
}

/* Attribute location a of a draw reading vertices 0..count-1: its
 * elements copied as of now, at its buffer object's or the stream's
 * addresses. */
static enum tsr_status draw_attrib(struct tsr_gles_device *d,
				   const struct tsr_gles_context *ctx,
				   const struct tsr_gles_draw *g, uint32_t a, uint32_t count,
				   struct tsr_cmd_attrib *x, struct tsr_error *err)
{
	const struct tsr_vertex_attrib *v = &g->attribs[a];
	memcpy(x->value, v->value, sizeof(x->value));
	if (!v->enabled || count == 0) {
		x->data = NULL;
		return TSR_OK;
	}
	const uint32_t elem = v->components * attrib_bytes[v->type];
	const uint32_t stride = v->stride ? v->stride : elem;
	const uint64_t span = (uint64_t)(count - 1) * stride + elem;
	const uint8_t *src;
	if (v->buffer) {
		GLsizeiptr bytes = 0;
		const uint8_t *data = tsr_gles_buffer_data(ctx, v->buffer, &bytes);
		if (!data || (uint64_t)v->offset + span > (uint64_t)bytes)
			return unsupported(err, "a vertex array read beyond its buffer's end");
		src = data + v->offset;
		TSR_TRY(buffer_mesh(d, v->buffer, (uint64_t)bytes, &x->buffer, err));
		x->offset = v->offset;
	} else {
		src = g->attrib_pointers[a];
		if (!src)
			return unsupported(err, "a client-side vertex array at address 0");
		x->buffer = d->client_mesh;
		x->offset = (uint32_t)d->client_used;
		d->client_used = (d->client_used + span + 63) & ~63ull;
		if (d->client_used > CLIENT_STREAM_BYTES)
			return unsupported(err, "more than 64 MiB of client-side arrays in a "
					   "frame");
	}
	uint8_t *copy = frame_block(d, (size_t)span);
	if (!copy)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for vertex data");
	memcpy(copy, src, (size_t)span);
	x->data = copy;
	x->stride = stride;
	x->components = v->components;
	x->type = v->type;
	x->normalized = v->normalized;
	return TSR_OK;
}

/* The render target image of object `serial` (a texture's or a
 * renderbuffer's, `what` naming it) of w x h pixels (depth: a depth
 * target), made on first use or when the object's size changed; its
 * texels from then on are what the passes drawing it render. */
static enum tsr_status serial_target(struct tsr_gles_device *d, uint64_t serial, GLsizei w,
				     GLsizei h, int depth, const char *what, GLuint name,
				     int32_t *image, struct tsr_error *err)
{
	for (uint32_t i = 0; i < d->texture_count; i++) {
		struct texture_map *t = &d->textures[i];
		if (t->serial != serial || t->target != 1 + depth)
			continue;
		if (t->width == (uint32_t)w && t->height == (uint32_t)h) {
			*image = (int32_t)t->image;
			return TSR_OK;
		}
		t->serial = 0;  /* respecified: a new target (the GPU keeps the old image) */
	}
	if (w <= 0 || h <= 0)
		return unsupported(err, "a framebuffer object's attachment without storage");
	struct texture_map *m = tsr_array_grow(d->textures, &d->texture_cap, d->texture_count + 1,
					       sizeof(*m));
	if (!m)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for textures");
	d->textures = m;
	uint8_t *texels = calloc((size_t)w * (size_t)h, 4);
	if (!texels)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a %dx%d target", w, h);
	char path[64];
	snprintf(path, sizeof(path), "rendertarget:gl-%s-%u", what, name);
	/* GL's rows run up (bottom_up); a color target can be mipmapped
	 * (glGenerateMipmap after a pass: tsr_gles_device_generate_mipmap()) */
	struct tsr_image im = {.path = path, .width = (uint32_t)w, .height = (uint32_t)h,
			       .rgba = texels, .render_target = 1, .depth = depth,
			       .bottom_up = 1, .mipmapped = (uint8_t)!depth};
	const struct tsr_resources more = {.image_count = 1, .images = &im};
	const uint32_t index = tsr_gpu_resource_count(d->gpu, TSR_RESOURCE_IMAGES);
	enum tsr_status s = tsr_gpu_add_resources(d->gpu, &more, err);
	if (s != TSR_OK) {
		free(texels);
		return s;
	}
	/* a texture sampled before keeps its old image for the frames before */
	for (uint32_t i = 0; i < d->texture_count; i++)
		if (d->textures[i].serial == serial && !d->textures[i].target)
			d->textures[i].serial = 0;
	d->textures[d->texture_count++] = (struct texture_map){serial, index, (uint32_t)w,
							       (uint32_t)h, texels,
							       (uint8_t)(1 + depth), 1, 0, 0};
	*image = (int32_t)index;
	return TSR_OK;
}

/* The render target image of texture `name` (depth: a depth target), of
 * its level 0's size. */
static enum tsr_status target_image(struct tsr_gles_device *d,
				    const struct tsr_gles_context *ctx, GLuint name, int depth,
				    int32_t *image, struct tsr_error *err)
{
	GLsizei w = 0, h = 0;
	GLenum format = 0;
	if (!tsr_gles_texture_image(ctx, name, GL_TEXTURE_2D, 0, &w, &h, &format))
		return unsupported(err, "a framebuffer object's attachment that is no 2D texture "
				   "level 0");
	return serial_target(d, tsr_gles_texture_serial(ctx, name, GL_TEXTURE_2D), w, h, depth,
			     "texture", name, image, err);
}

/* The clear pending for target (NULL: none; made: an empty one added, NULL
 * when out of memory). */
static struct pending_clear *pending_clear(struct tsr_gles_device *d, int32_t target, int make)
{
	for (uint32_t i = 0; i < d->clear_count; i++)
		if (d->clears[i].target == target)
			return &d->clears[i];
	if (!make)
		return NULL;
	struct pending_clear *c = tsr_array_grow(d->clears, &d->clear_cap, d->clear_count + 1,
						 sizeof(*c));
	if (!c)
		return NULL;
	d->clears = c;
	d->clears[d->clear_count] = (struct pending_clear){.target = target};
	return &d->clears[d->clear_count++];
}

/* Takes target's pending clear out (*c: mask 0 when none; *mrt: the color
 * targets 1..3 it clears too, bits 1..3). */
static void take_clear(struct tsr_gles_device *d, int32_t target, struct tsr_clear_state *c,
		       uint8_t *mrt)
{
	memset(c, 0, sizeof(*c));
	*mrt = 0;
	for (uint32_t i = 0; i < d->clear_count; i++)
		if (d->clears[i].target == target) {
			*c = d->clears[i].c;
			*mrt = d->clears[i].mrt;
			d->clears[i] = d->clears[--d->clear_count];
			return;
		}
}

static enum tsr_status framebuffer_target(struct tsr_gles_device *d,
					  const struct tsr_gles_context *ctx, GLenum which,
					  int32_t *target, int32_t *depth_target,
					  struct tsr_error *err);

/* framebuffer_target() of the draw framebuffer. */
static enum tsr_status bound_target(struct tsr_gles_device *d,
				    const struct tsr_gles_context *ctx, int32_t *target,
				    int32_t *depth_target, struct tsr_error *err)
{
	return framebuffer_target(d, ctx, GL_FRAMEBUFFER, target, depth_target, err);
}

/* The pass target of the framebuffer bound in ctx at `which` (FRAMEBUFFER:
 * the draw framebuffer; READ_FRAMEBUFFER_NV: the read one): -1 for the
 * default one, else the render target image of its color texture (or,
 * without a color attachment, of its depth texture). */
static enum tsr_status framebuffer_target(struct tsr_gles_device *d,
					  const struct tsr_gles_context *ctx, GLenum which,
					  int32_t *target, int32_t *depth_target,
					  struct tsr_error *err)
{
	struct tsr_gles_context *c = (struct tsr_gles_context *)ctx;  /* queries only */
	GLint fb = 0, ctype = GL_NONE, cname = 0, dtype = GL_NONE, dname = 0;
	tsr_gles_GetIntegerv(c, which == GL_READ_FRAMEBUFFER_NV ? GL_READ_FRAMEBUFFER_BINDING_NV
								: GL_FRAMEBUFFER_BINDING, &fb);
	*target = -1;
	*depth_target = -1;
	if (fb == 0)
		return TSR_OK;
	tsr_gles_GetFramebufferAttachmentParameteriv(c, which, GL_COLOR_ATTACHMENT0,
						     GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &ctype);
	tsr_gles_GetFramebufferAttachmentParameteriv(c, which, GL_DEPTH_ATTACHMENT,
						     GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &dtype);
	if (ctype == GL_TEXTURE || ctype == GL_RENDERBUFFER) {
		tsr_gles_GetFramebufferAttachmentParameteriv(c, which,
							     GL_COLOR_ATTACHMENT0,
							     GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
							     &cname);
		if (ctype == GL_TEXTURE) {
			TSR_TRY(target_image(d, ctx, (GLuint)cname, 0, target, err));
		} else {  /* a color renderbuffer: a render target no draw samples */
			GLsizei w = 0, h = 0;
			GLenum format = 0;
			const uint64_t serial = tsr_gles_renderbuffer_info(ctx, (GLuint)cname, &w,
									   &h, &format);
			TSR_TRY(serial_target(d, serial, w, h, 0, "renderbuffer", (GLuint)cname,
					      target, err));
		}
		if (dtype != GL_TEXTURE)
			return TSR_OK;
		/* and a depth texture: the pass stores its depth there too */
		tsr_gles_GetFramebufferAttachmentParameteriv(c, which, GL_DEPTH_ATTACHMENT,
							     GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
							     &dname);
		/* (a complete framebuffer's attachments are of one size) */
		return target_image(d, ctx, (GLuint)dname, 1, depth_target, err);
	}
	if (ctype == GL_NONE && dtype == GL_TEXTURE) {
		tsr_gles_GetFramebufferAttachmentParameteriv(c, which, GL_DEPTH_ATTACHMENT,
							     GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
							     &dname);
		return target_image(d, ctx, (GLuint)dname, 1, target, err);
	}
	return unsupported(err, "a framebuffer object without a color attachment nor a depth "
			   "texture (a depth renderbuffer alone)");
}

/* GL_EXT_draw_buffers' color targets 1..3 of a framebuffer object. */
struct mrt_sel {
	uint8_t attached;  /* bits 1..3: COLOR_ATTACHMENTi has an image, images[i - 1] */
	uint8_t drawn;     /* bits 1..3: DRAW_BUFFERi_EXT selects it */
	uint32_t images[TSR_MAX_DRAW_BUFFERS - 1];
};

/*
 * GL_EXT_draw_buffers: the bound framebuffer object's color attachments
 * 1..3 (*attached: bits 1..3, images[i - 1] their render target images)
 * and those its draw buffers 1..3 select (*drawn, bits 1..3); 0 and 0 for
 * the default framebuffer. Several render targets need a color target 0
 * (COLOR_ATTACHMENT0, target >= 0 from bound_target()): without one
 * TSR_ERR_UNSUPPORTED.
 */
static enum tsr_status mrt_targets(struct tsr_gles_device *d, const struct tsr_gles_context *ctx,
				   int32_t target, struct mrt_sel *m, struct tsr_error *err)
{
	struct tsr_gles_context *c = (struct tsr_gles_context *)ctx;  /* queries only */
	GLint fb = 0, type[TSR_GLES_MAX_DRAW_BUFFERS] = {GL_NONE};
	tsr_gles_GetIntegerv(c, GL_FRAMEBUFFER_BINDING, &fb);
	m->attached = m->drawn = 0;
	for (GLenum i = 0; fb != 0 && i < TSR_GLES_MAX_DRAW_BUFFERS; i++) {
		const GLenum att = GL_COLOR_ATTACHMENT0 + i;
		GLint buf = GL_NONE;
		type[i] = GL_NONE;
		tsr_gles_GetFramebufferAttachmentParameteriv(c, GL_FRAMEBUFFER, att,
							     GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
							     &type[i]);
		if (i == 0 || type[i] == GL_NONE)
			continue;
		tsr_gles_GetIntegerv(c, 0x8825 + i, &buf);  /* GL_DRAW_BUFFERi_EXT */
		m->attached |= (uint8_t)(1u << i);
		if (buf == (GLint)att)
			m->drawn |= (uint8_t)(1u << i);
	}
	/* the images only when several targets are drawn or a pending clear
	 * reaches some: a framebuffer object drawn with target 0 alone stays
	 * the single-target pass it was */
	const struct pending_clear *pc = pending_clear(d, target, 0);
	if (!m->drawn && !(pc && pc->mrt))
		return TSR_OK;
	if (target < 0 || type[0] == GL_NONE)
		return unsupported(err, "several draw buffers (GL_EXT_draw_buffers) without a "
				   "COLOR_ATTACHMENT0");
	for (GLenum i = 1; i < TSR_GLES_MAX_DRAW_BUFFERS; i++) {
		if (!(m->attached >> i & 1))
			continue;
		GLint name = 0;
		tsr_gles_GetFramebufferAttachmentParameteriv(c, GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i,
							     GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
							     &name);
		int32_t image = -1;
		if (type[i] == GL_TEXTURE) {
			TSR_TRY(target_image(d, ctx, (GLuint)name, 0, &image, err));
		} else {
			GLsizei w = 0, h = 0;
			GLenum format = 0;
			const uint64_t serial = tsr_gles_renderbuffer_info(ctx, (GLuint)name, &w, &h,
									   &format);
			TSR_TRY(serial_target(d, serial, w, h, 0, "renderbuffer", (GLuint)name,
					      &image, err));
		}
		m->images[i - 1] = (uint32_t)image;
	}
	return TSR_OK;
}

/* Makes the frame's last pass one into target (-1: the window): the open
 * one, or a new one (a framebuffer change starts a pass), cleared by the
 * clear recorded for that target, else with its color kept (a render
 * target's) or undefined (the window's, after a swap) and its depth
 * undefined. The window's pass is the frame's last. */
static enum tsr_status open_pass(struct tsr_gles_device *d, int32_t target,
				 int32_t depth_target, const struct mrt_sel *m,
				 struct tsr_error *err)
{
	const uint8_t drawn = m ? m->drawn : 0;
	if (d->pass_open && d->pass_target == target && d->pass_depth == depth_target &&
	    (drawn & d->pass_mrt) == drawn) {
		int same = 1;  /* the targets drawn are the open pass's images */
		for (uint32_t i = 1; i < TSR_MAX_DRAW_BUFFERS; i++)
			if ((drawn >> i & 1) && d->pass_mrt_images[i - 1] != m->images[i - 1])
				same = 0;
		if (same)
			return TSR_OK;
	}
	struct tsr_cmd_pass p = {.target = target < 0 ? TSR_TARGET_FRAMEBUFFER : TSR_TARGET_TEXTURE,
				 .target_image = target < 0 ? 0 : (uint32_t)target,
				 .store_depth = depth_target >= 0,
				 .depth_image = depth_target >= 0 ? (uint32_t)depth_target : 0};
	uint8_t clear_mrt = 0;
	take_clear(d, target, &p.clear, &clear_mrt);
	/* GL_EXT_draw_buffers: a pass drawing several targets takes every
	 * attached one (later draws may select others: one pass for them all);
	 * targets 1..3 cleared with target 0's clear start cleared, the others
	 * keep their images' contents */
	if (m && target >= 0) {
		p.mrt = (uint8_t)((drawn ? m->attached : clear_mrt) & m->attached);
		p.mrt_clear = (uint8_t)(clear_mrt & p.mrt);
		for (uint32_t i = 1; i < TSR_MAX_DRAW_BUFFERS; i++)
			p.mrt_images[i - 1] = p.mrt >> i & 1 ? m->images[i - 1] : 0;
	}
	/* a render target's color, and the window's after a window pass of the
	 * frame (the pass continues its image: a framebuffer object drawn
	 * between two window passes); the window's depth is not kept (the
	 * pipelines store no window depth) */
	uint8_t kept = target >= 0 || d->window_drawn ? TSR_CLEAR_COLOR : 0;
	/* a render target's depth texture that an earlier pass stored its depth
	 * into: kept too (the pipelines load it, tsr_pass_loads_depth()), as
	 * GL keeps an attachment's contents; before that, undefined */
	for (uint32_t i = 0; depth_target >= 0 && i < d->texture_count; i++)
		if (d->textures[i].target && d->textures[i].image == (uint32_t)depth_target) {
			if (d->textures[i].depth_stored)
				kept |= TSR_CLEAR_DEPTH;
			d->textures[i].depth_stored = 1;
		}
	p.clear.invalidate = (uint8_t)(~(p.clear.mask | kept) & (TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH |
								      TSR_CLEAR_STENCIL));
	TSR_TRY(tsr_commands_pass(&d->cmds, &p, err));
	d->pass_open = 1;
	d->pass_target = target;
	d->pass_depth = depth_target;
	d->pass_mrt = p.mrt;
	memcpy(d->pass_mrt_images, p.mrt_images, sizeof(d->pass_mrt_images));
	d->window_drawn |= target < 0;
	return TSR_OK;
}

enum tsr_status tsr_gles_device_discard(struct tsr_gles_device *d,
					const struct tsr_gles_context *ctx, GLbitfield mask,
					struct tsr_error *err)
{
	(void)err;
	if (!(mask & GL_DEPTH_BUFFER_BIT) || !d->pass_open || d->pass_target < 0 ||
	    d->pass_depth < 0)
		return TSR_OK;
	struct tsr_gles_context *c = (struct tsr_gles_context *)ctx;  /* queries only */
	GLint fb = 0, dtype = GL_NONE, dname = 0;
	tsr_gles_GetIntegerv(c, GL_FRAMEBUFFER_BINDING, &fb);
	if (fb == 0)
		return TSR_OK;
	tsr_gles_GetFramebufferAttachmentParameteriv(c, GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
						     GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &dtype);
	if (dtype != GL_TEXTURE)
		return TSR_OK;
	tsr_gles_GetFramebufferAttachmentParameteriv(c, GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
						     GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &dname);
	const uint64_t serial = tsr_gles_texture_serial(ctx, (GLuint)dname, GL_TEXTURE_2D);
	for (uint32_t i = 0; i < d->texture_count; i++) {
		struct texture_map *t = &d->textures[i];
		if (!t->target || t->image != (uint32_t)d->pass_depth || t->serial != serial)
			continue;
		/* the open pass is the frame's last: it ends without its depth store */
		d->cmds.passes[d->cmds.pass_count - 1].store_depth = 0;
		d->cmds.passes[d->cmds.pass_count - 1].depth_image = 0;
		t->depth_stored = 0;
		d->pass_open = 0;  /* a later draw opens a new pass, its depth undefined */
		return TSR_OK;
	}
	return TSR_OK;
}

enum tsr_status tsr_gles_device_draw(struct tsr_gles_device *dev,
				     const struct tsr_gles_context *ctx,
				     const struct tsr_gles_draw *g, struct tsr_error *err)
{
	/* the fewest vertices that make a primitive of the mode */
	const uint32_t least = g->state.mode == TSR_PRIM_POINTS ? 1
			       : g->state.mode <= TSR_PRIM_LINE_STRIP ? 2 : 3;
	if (!g->program || g->state.index.count < least)
		return TSR_OK;
	int32_t target = -1, depth_target = -1;
	struct mrt_sel mrt;
	TSR_TRY(bound_target(dev, ctx, &target, &depth_target, err));
	TSR_TRY(mrt_targets(dev, ctx, target, &mrt, err));
	struct tsr_cmd_program *p = calloc(1, sizeof(*p));
	struct tsr_cmd_program **list = tsr_array_grow(dev->programs, &dev->program_cap,
						       dev->program_count + 1, sizeof(*list));
	if (!p || !list) {
		free(p);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a draw");
	}
	dev->programs = list;
	dev->programs[dev->program_count++] = p;  /* freed with the frame */
	TSR_TRY(tsr_shader_exec_create_snapshot(g->program, TSR_SHADER_VERTEX, &p->vertex, err));
	TSR_TRY(tsr_shader_exec_create_snapshot(g->program, TSR_SHADER_FRAGMENT, &p->fragment,
						err));
	if (dev->config.shader_mediump != 0) {  /* new states run mediump at fp16 */
		TSR_TRY(tsr_shader_exec_set_mediump(p->vertex, false, err));
		TSR_TRY(tsr_shader_exec_set_mediump(p->fragment, false, err));
	}
	p->varying_slots = tsr_program_varying_count(g->program);
	TSR_TRY(draw_indices(dev, ctx, g, p, err));
	p->attrib_count = TSR_SHADER_MAX_ATTRIBS;
	for (uint32_t a = 0; a < TSR_SHADER_MAX_ATTRIBS; a++)
		TSR_TRY(draw_attrib(dev, ctx, g, a, p->indices.vertex_count, &p->attribs[a], err));
	struct tsr_cmd_draw cd = {.state = g->state, .program = p};
	for (uint32_t u = 0; u < TSR_SHADER_MAX_TEXTURE_UNITS; u++) {
		const struct tsr_gles_unit *un = &g->units[u];
		int32_t image = -1;
		if ((un->target == GL_TEXTURE_2D || un->target == GL_TEXTURE_CUBE_MAP) &&
		    un->complete)
			TSR_TRY(texture_image(dev, ctx, un->texture, un->target, &image, err));
		p->textures[u] = image;
		p->cube[u] = image >= 0 && un->target == GL_TEXTURE_CUBE_MAP;
		if (u < TSR_MAX_TEXTURE_UNITS) {
			cd.state.textures[u] = un->unit;
			cd.state.textures[u].image = image;
		}
	}
	for (uint32_t a = 0; a < TSR_MAX_VERTEX_ATTRIBS; a++)  /* the program says */
		cd.state.attribs[a].buffer = 0;
	cd.state.index.buffer = 0;
	/* no depth buffer (an EGL config of DEPTH_SIZE 0, a framebuffer object
	 * without a DEPTH_ATTACHMENT): no test, no write (4.1.6) */
	if ((g->framebuffer ? g->depth_bits : dev->params.bits.depth_bits) <= 0)
		cd.state.depth.test = 0;
	/* no stencil buffer (an EGL config of STENCIL_SIZE 0, a framebuffer
	 * object without a STENCIL_ATTACHMENT): as if the test always passed,
	 * nothing written (4.1.5) */
	if ((g->framebuffer ? g->stencil_bits : dev->params.bits.stencil_bits) <= 0)
		cd.state.stencil.test = 0;
	TSR_TRY(program_material(dev, g->program, &cd.material, err));
	TSR_TRY(open_pass(dev, target, depth_target, &mrt, err));
	/* the pass's framebuffer as the pipelines see it (command.h,
	 * tsr_pass_framebuffer()) */
	cd.state.framebuffer = (struct tsr_framebuffer_state){TSR_ATTACH_DEFAULT,
							      TSR_ATTACH_DEFAULT};
	for (uint32_t i = 0; target >= 0 && i < dev->texture_count; i++)
		if (dev->textures[i].target && dev->textures[i].image == (uint32_t)target)
			cd.state.framebuffer = dev->textures[i].target == 2
				? (struct tsr_framebuffer_state){TSR_ATTACH_NONE, target}
				: (struct tsr_framebuffer_state){target, TSR_ATTACH_DEFAULT};
	return tsr_commands_draw(&dev->cmds, &cd, err);
}

/* The device's clear program: a quad at the clear depth in the clear color
 * (made on first use). */
static const char clear_vs[] =
	"attribute vec4 position;\n"
	"void main() { gl_Position = position; }\n";
static const char clear_fs[] =
	"precision mediump float;\n"
	"uniform vec4 color;\n"
	"void main() { gl_FragColor = color; }\n";

static enum tsr_status clear_program(struct tsr_gles_device *d, struct tsr_error *err)
{
	if (d->clear_prog)
		return TSR_OK;
	struct tsr_shader *vs = NULL, *fs = NULL;
	enum tsr_status s = tsr_shader_compile(TSR_SHADER_VERTEX, clear_vs, &vs, err);
	if (s == TSR_OK)
		s = tsr_shader_compile(TSR_SHADER_FRAGMENT, clear_fs, &fs, err);
	const struct tsr_attrib_binding at = {"position", 0};
	if (s == TSR_OK)
		s = tsr_program_link(vs, fs, &at, 1, &d->clear_prog, err);
	tsr_shader_destroy(vs);
	tsr_shader_destroy(fs);
	if (s == TSR_OK && !tsr_program_linked(d->clear_prog))
		s = tsr_error_set(err, TSR_ERR_INTERNAL, "the device's clear program: %s",
				  tsr_program_info_log(d->clear_prog));
	if (s != TSR_OK) {
		tsr_program_destroy(d->clear_prog);
		d->clear_prog = NULL;
	}
	return s;
}

/*
 * A clear the pass's start cannot make, drawn as a quad over the target
 * (as tile-based drivers draw a clear that comes after draws, or is
 * scissored or masked, rather than flush the tiles and start a pass): the
 * clear program, depth test ALWAYS writing depth when the depth buffer is
 * cleared, the color mask, the scissor box, no blending or culling.
 */
static enum tsr_status clear_quad(struct tsr_gles_device *d, const struct tsr_gles_context *ctx,
				  int32_t target, int32_t depth_target, const struct mrt_sel *m,
				  uint8_t buffers, uint8_t mask,
				  const float color[4], float depth, const GLboolean cmask[4],
				  struct tsr_error *err)
{
	TSR_TRY(clear_program(d, err));
	TSR_TRY(tsr_program_uniform_write(d->clear_prog,
					  tsr_program_uniform_location(d->clear_prog, "color"), 1,
					  color, err));
	struct tsr_cmd_program *p = calloc(1, sizeof(*p));
	struct tsr_cmd_program **list = tsr_array_grow(d->programs, &d->program_cap,
						       d->program_count + 1, sizeof(*list));
	if (!p || !list) {
		free(p);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a clear");
	}
	d->programs = list;
	d->programs[d->program_count++] = p;  /* freed with the frame */
	TSR_TRY(tsr_shader_exec_create_snapshot(d->clear_prog, TSR_SHADER_VERTEX, &p->vertex, err));
	TSR_TRY(tsr_shader_exec_create_snapshot(d->clear_prog, TSR_SHADER_FRAGMENT, &p->fragment,
						err));
	p->varying_slots = tsr_program_varying_count(d->clear_prog);
	/* a strip of four vertices at z = 2 depth - 1 (the depth range 0..1
	 * makes it `depth`), streamed as a client array */
	const float z = 2.0f * depth - 1.0f;
	const float quad[4][3] = {{-1, -1, z}, {1, -1, z}, {-1, 1, z}, {1, 1, z}};
	uint32_t *idx = frame_block(d, 4 * sizeof(*idx));
	float *v = frame_block(d, sizeof(quad));
	if (!idx || !v)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a clear");
	memcpy(v, quad, sizeof(quad));
	for (uint32_t i = 0; i < 4; i++)
		idx[i] = i;
	p->indices = (struct tsr_mesh){.index_count = 4, .indices = idx, .vertex_count = 4};
	p->attrib_count = TSR_SHADER_MAX_ATTRIBS;
	for (uint32_t a = 0; a < TSR_SHADER_MAX_ATTRIBS; a++)
		p->attribs[a] = (struct tsr_cmd_attrib){.value = {0, 0, 0, 1}};
	p->attribs[0] = (struct tsr_cmd_attrib){.data = (const uint8_t *)v,
						.buffer = d->client_mesh,
						.offset = (uint32_t)d->client_used, .stride = 12,
						.components = 3, .type = TSR_ATTRIB_FLOAT};
	d->client_used = (d->client_used + sizeof(quad) + 63) & ~63ull;
	if (d->client_used > CLIENT_STREAM_BYTES)
		return unsupported(err, "more than 64 MiB of client-side arrays in a frame");
	for (uint32_t u = 0; u < TSR_SHADER_MAX_TEXTURE_UNITS; u++)
		p->textures[u] = -1;
	uint32_t w = d->config.width, h = d->config.height;
	for (uint32_t i = 0; target >= 0 && i < d->texture_count; i++)
		if (d->textures[i].target && d->textures[i].image == (uint32_t)target) {
			w = d->textures[i].width;
			h = d->textures[i].height;
		}
	struct tsr_cmd_draw cd = {.program = p};
	tsr_draw_state_default(&cd.state, w, h);
	cd.state.mode = TSR_PRIM_TRIANGLE_STRIP;
	cd.state.index.count = 4;
	for (uint32_t u = 0; u < TSR_MAX_TEXTURE_UNITS; u++)
		cd.state.textures[u].image = -1;
	GLint dbits = d->params.bits.depth_bits;
	if (target >= 0)  /* a framebuffer object's: its DEPTH_ATTACHMENT's */
		tsr_gles_GetIntegerv((struct tsr_gles_context *)ctx, GL_DEPTH_BITS, &dbits);
	cd.state.depth.test = (mask & TSR_CLEAR_DEPTH) && dbits > 0;
	cd.state.depth.func = TSR_FUNC_ALWAYS;
	cd.state.depth.write = (mask & TSR_CLEAR_DEPTH) != 0;
	cd.state.color_mask = (mask & TSR_CLEAR_COLOR)
		? (uint8_t)((cmask[0] ? TSR_COLOR_MASK_R : 0) | (cmask[1] ? TSR_COLOR_MASK_G : 0) |
			    (cmask[2] ? TSR_COLOR_MASK_B : 0) | (cmask[3] ? TSR_COLOR_MASK_A : 0))
		: 0;
	GLboolean sc = GL_FALSE;
	tsr_gles_GetBooleanv((struct tsr_gles_context *)ctx, GL_SCISSOR_TEST, &sc);
	if (sc) {
		GLint box[4] = {0, 0, 0, 0};
		tsr_gles_GetIntegerv((struct tsr_gles_context *)ctx, GL_SCISSOR_BOX, box);
		cd.state.scissor = (struct tsr_scissor_state){1, box[0], box[1],
							      (uint32_t)(box[2] > 0 ? box[2] : 0),
							      (uint32_t)(box[3] > 0 ? box[3] : 0)};
	}
	TSR_TRY(program_material(d, d->clear_prog, &cd.material, err));
	/* GL_EXT_draw_buffers: gl_FragColor reaches every draw buffer */
	if (m->drawn && (mask & TSR_CLEAR_COLOR))
		cd.state.draw_buffers = buffers;
	TSR_TRY(open_pass(d, target, depth_target, m, err));
	cd.state.framebuffer = (struct tsr_framebuffer_state){TSR_ATTACH_DEFAULT,
							      TSR_ATTACH_DEFAULT};
	for (uint32_t i = 0; target >= 0 && i < d->texture_count; i++)
		if (d->textures[i].target && d->textures[i].image == (uint32_t)target)
			cd.state.framebuffer = d->textures[i].target == 2
				? (struct tsr_framebuffer_state){TSR_ATTACH_NONE, target}
				: (struct tsr_framebuffer_state){target, TSR_ATTACH_DEFAULT};
	return tsr_commands_draw(&d->cmds, &cd, err);
}

enum tsr_status tsr_gles_device_clear(struct tsr_gles_device *dev,
				      const struct tsr_gles_context *ctx,
				      const struct tsr_clear_state *c, struct tsr_error *err)
{
	int32_t target = -1, depth_target = -1;
	struct mrt_sel mrt;
	TSR_TRY(bound_target(dev, ctx, &target, &depth_target, err));
	TSR_TRY(mrt_targets(dev, ctx, target, &mrt, err));
	struct tsr_gles_context *q = (struct tsr_gles_context *)ctx;  /* queries only */
	/* GL_EXT_draw_buffers: the draw buffers a color clear reaches (bit 0:
	 * DRAW_BUFFER0_EXT selects COLOR_ATTACHMENT0) */
	uint8_t buffers = mrt.drawn;
	if (mrt.drawn) {
		GLint b0 = GL_NONE;
		tsr_gles_GetIntegerv(q, 0x8825, &b0);
		buffers |= b0 == GL_COLOR_ATTACHMENT0 ? 1u : 0u;
	}
	GLboolean cmask[4] = {GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE}, dmask = GL_TRUE;
	tsr_gles_GetBooleanv(q, GL_COLOR_WRITEMASK, cmask);
	tsr_gles_GetBooleanv(q, GL_DEPTH_WRITEMASK, &dmask);
	/* the buffers it writes (stencil only into a stencil buffer, under the
	 * front write mask) */
	uint8_t mask = c->mask & (TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH);
	if (!cmask[0] && !cmask[1] && !cmask[2] && !cmask[3])
		mask &= (uint8_t)~TSR_CLEAR_COLOR;
	if (!dmask)
		mask &= (uint8_t)~TSR_CLEAR_DEPTH;
	GLint sbits = dev->params.bits.stencil_bits, wm = 0;
	if (target >= 0)  /* a framebuffer object's: its STENCIL_ATTACHMENT's */
		tsr_gles_GetIntegerv(q, GL_STENCIL_BITS, &sbits);
	tsr_gles_GetIntegerv(q, GL_STENCIL_WRITEMASK, &wm);
	const uint32_t swm = (uint32_t)wm & 0xffu;
	const int stencil = (c->mask & TSR_CLEAR_STENCIL) && sbits > 0 && swm;
	if (!mask && !stencil)
		return TSR_OK;
	/* a scissor box over the whole target clears it all */
	int scissored = c->scissored;
	if (scissored) {
		GLint box[4] = {0, 0, 0, 0};
		tsr_gles_GetIntegerv(q, GL_SCISSOR_BOX, box);
		uint32_t w = dev->config.width, h = dev->config.height;
		for (uint32_t i = 0; target >= 0 && i < dev->texture_count; i++)
			if (dev->textures[i].target && dev->textures[i].image == (uint32_t)target) {
				w = dev->textures[i].width;
				h = dev->textures[i].height;
			}
		scissored = !(box[0] <= 0 && box[1] <= 0 && (int64_t)box[0] + box[2] >= (int64_t)w &&
			      (int64_t)box[1] + box[3] >= (int64_t)h);
	}
	const int masked = (mask & TSR_CLEAR_COLOR) && !(cmask[0] && cmask[1] && cmask[2] &&
							 cmask[3]);
	const int open = dev->pass_open && dev->pass_target == target &&
			 dev->pass_depth == depth_target &&
			 (mrt.drawn & dev->pass_mrt) == mrt.drawn;
	struct tsr_cmd_pass *p = open ? &dev->cmds.passes[dev->cmds.pass_count - 1] : NULL;
	/* the pass's start clears what it can: before the pass's first draw,
	 * the whole target, every channel, depth to 1.0 */
	/* (a color clear of targets 1..3 but not 0 is drawn too: the pass's
	 * clear clears target 0) */
	if (scissored || masked || (p && p->draw_count) ||
	    ((mask & TSR_CLEAR_DEPTH) && c->depth != 1.0f) ||
	    ((mask & TSR_CLEAR_COLOR) && mrt.drawn && !(buffers & 1))) {
		if (mask)
			TSR_TRY(clear_quad(dev, ctx, target, depth_target, &mrt, buffers, mask,
					   c->color, c->depth, cmask, err));
		if (stencil)
			return unsupported(err, "a stencil clear after a draw, scissored or "
					   "color-masked");
		return TSR_OK;
	}
	struct pending_clear *pcl = pending_clear(dev, target, 1);
	if (!pcl)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a clear");
	struct tsr_clear_state *pc = &pcl->c;
	if (p) {  /* before the pass's first draw: its clear */
		*pc = p->clear;
		pc->invalidate = 0;
		pcl->mrt = p->mrt_clear;
		dev->cmds.pass_count--;
		dev->pass_open = 0;
		dev->window_drawn = 0;  /* whether a pass left draws the window */
		for (uint32_t i = 0; i < dev->cmds.pass_count; i++)
			dev->window_drawn |= dev->cmds.passes[i].target == TSR_TARGET_FRAMEBUFFER;
	}
	/* a second clear before any draw: its buffers' values win */
	if (mask & TSR_CLEAR_COLOR) {
		memcpy(pc->color, c->color, sizeof(c->color));
		pcl->mrt |= mrt.drawn;  /* and color targets 1..3 (GL_EXT_draw_buffers) */
	}
	if (mask & TSR_CLEAR_DEPTH)
		pc->depth = c->depth;
	pc->mask |= mask;
	/* stencil (when the framebuffer has a stencil buffer): the clear value's
	 * low 8 bits under the front STENCIL_WRITEMASK (4.2.3); the bits the
	 * mask keeps are an earlier clear's of this pass, else the buffer's
	 * undefined contents at the pass's start, which are 0 here */
	if (stencil) {
		const uint32_t old = pc->mask & TSR_CLEAR_STENCIL ? (uint32_t)pc->stencil : 0u;
		pc->stencil = (int32_t)((old & ~swm) | ((uint32_t)c->stencil & swm));
		pc->mask |= TSR_CLEAR_STENCIL;
	}
	return TSR_OK;
}

enum tsr_status tsr_gles_device_generate_mipmap(struct tsr_gles_device *dev,
						const struct tsr_gles_context *ctx, GLenum target,
						struct tsr_error *err)
{
	if (target != GL_TEXTURE_2D)
		return TSR_OK;
	GLint name = 0;
	tsr_gles_GetIntegerv((struct tsr_gles_context *)ctx, GL_TEXTURE_BINDING_2D, &name);
	GLsizei w = 0, h = 0;
	if (!tsr_gles_texture_image(ctx, (GLuint)name, GL_TEXTURE_2D, 0, &w, &h, NULL) ||
	    ((w > 1 || h > 1) &&
	     !tsr_gles_texture_image(ctx, (GLuint)name, GL_TEXTURE_2D, 1, &w, &h, NULL)))
		return TSR_OK;  /* no levels made: the call failed */
	const uint64_t serial = tsr_gles_texture_serial(ctx, (GLuint)name, GL_TEXTURE_2D);
	for (uint32_t i = 0; i < dev->texture_count; i++) {
		const struct texture_map *t = &dev->textures[i];
		if (t->serial != serial || t->target != 1)
			continue;
		/* after the frame's last pass or blit into it so far, else now (its
		 * texels are what earlier frames rendered) */
		for (uint32_t b = dev->cmds.blit_count; b-- > 0;) {
			struct tsr_cmd_blit *bl = &dev->cmds.blits[b];
			if (!(bl->mask & TSR_CLEAR_COLOR) || bl->dst_color != (int32_t)t->image)
				continue;
			int later_pass = 0;  /* a pass into it after the blit */
			for (uint32_t p = bl->before_pass; p < dev->cmds.pass_count; p++)
				later_pass |= dev->cmds.passes[p].target == TSR_TARGET_TEXTURE &&
					      dev->cmds.passes[p].target_image == t->image;
			if (!later_pass) {
				bl->mipmap = 1;
				return TSR_OK;
			}
			break;
		}
		for (uint32_t p = dev->cmds.pass_count; p-- > 0;)
			if (dev->cmds.passes[p].target == TSR_TARGET_TEXTURE &&
			    dev->cmds.passes[p].target_image == t->image) {
				dev->cmds.passes[p].mipmap = 1;
				if (dev->pass_open && dev->pass_target == (int32_t)t->image)
					dev->pass_open = 0;  /* a later draw: a pass of its own */
				return TSR_OK;
			}
		return tsr_gpu_generate_mipmap(dev->gpu, t->image, err);
	}
	return TSR_OK;
}

/* glReadPixels of render target `image` (what its passes drew): its rows
 * are GL's (bottom first); pixels outside it left untouched. */
static enum tsr_status read_target(struct tsr_gles_device *d, uint32_t image, GLint x, GLint y,
				   GLsizei w, GLsizei h, uint8_t *rgba, struct tsr_error *err)
{
	int64_t W = 0, H = 0;
	for (uint32_t i = 0; i < d->texture_count; i++)
		if (d->textures[i].target && d->textures[i].image == image) {
			W = d->textures[i].width;
			H = d->textures[i].height;
		}
	/* the rectangle clipped to the target */
	const int64_t x0 = x > 0 ? x : 0, y0 = y > 0 ? y : 0;
	const int64_t x1 = (int64_t)x + w < W ? (int64_t)x + w : W;
	const int64_t y1 = (int64_t)y + h < H ? (int64_t)y + h : H;
	if (x0 >= x1 || y0 >= y1)
		return TSR_OK;
	uint8_t *row = malloc((size_t)(x1 - x0) * 4);
	if (!row)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for glReadPixels");
	enum tsr_status s = TSR_OK;
	for (int64_t gy = y0; gy < y1 && s == TSR_OK; gy++) {
		s = tsr_gpu_read_image(d->gpu, image, (uint32_t)x0, (uint32_t)gy,
				       (uint32_t)(x1 - x0), 1, row, err);
		if (s == TSR_OK)
			memcpy(rgba + ((size_t)(gy - y) * (size_t)w + (size_t)(x0 - x)) * 4, row,
			       (size_t)(x1 - x0) * 4);
	}
	free(row);
	return s;
}

enum tsr_status tsr_gles_device_read_pixels(struct tsr_gles_device *dev,
					    const struct tsr_gles_context *ctx, GLint x, GLint y,
					    GLsizei w, GLsizei h, uint8_t *rgba,
					    struct tsr_error *err)
{
	int32_t target = -1, depth_target = -1;
	/* the read framebuffer (GL_NV_framebuffer_blit's binding) */
	TSR_TRY(framebuffer_target(dev, ctx, GL_READ_FRAMEBUFFER_NV, &target, &depth_target, err));
	if (target >= 0)
		for (uint32_t i = 0; i < dev->texture_count; i++)
			if (dev->textures[i].target == 2 && dev->textures[i].image == (uint32_t)target)
				return unsupported(err, "reading a framebuffer object without a color "
						   "attachment");
	/* (a pass a discard or a mipmap closed is pending too, and a blit) */
	if (dev->pass_open || dev->clear_count || dev->cmds.pass_count || dev->cmds.blit_count)
		TSR_TRY(flush_frame(dev, err));
	if (target >= 0)
		return read_target(dev, (uint32_t)target, x, y, w, h, rgba, err);
	const uint8_t *img = tsr_gpu_frame_image(dev->gpu);
	const int64_t W = dev->config.width, H = dev->config.height;
	for (GLsizei r = 0; r < h; r++) {
		const int64_t gy = (int64_t)y + r;  /* GL's row, from the bottom */
		if (gy < 0 || gy >= H)
			continue;
		const uint8_t *row = img + (size_t)(H - 1 - gy) * (size_t)W * 4;
		for (GLsizei c = 0; c < w; c++) {
			const int64_t gx = (int64_t)x + c;
			if (gx < 0 || gx >= W)
				continue;
			memcpy(rgba + ((size_t)r * (size_t)w + (size_t)c) * 4, row + (size_t)gx * 4, 4);
		}
	}
	return TSR_OK;
}

/* 1 when image is a depth render target (a depth texture's). */
static int depth_target_image(const struct tsr_gles_device *d, int32_t image)
{
	for (uint32_t i = 0; image >= 0 && i < d->texture_count; i++)
		if (d->textures[i].target == 2 && d->textures[i].image == (uint32_t)image)
			return 1;
	return 0;
}

/* The pending clear of pass target `target` (its depth target depth, its
 * color targets 1..3 m or NULL) made a pass of its own now, so that a
 * blit reading or writing the target comes after it. */
static enum tsr_status flush_clear(struct tsr_gles_device *d, int32_t target, int32_t depth,
				   const struct mrt_sel *m, struct tsr_error *err)
{
	if (!pending_clear(d, target, 0))
		return TSR_OK;
	d->pass_open = 0;
	return open_pass(d, target, depth, m, err);
}

enum tsr_status tsr_gles_device_blit(struct tsr_gles_device *dev,
				     const struct tsr_gles_context *ctx, const GLint src[4],
				     const GLint dst[4], GLbitfield mask, GLenum filter,
				     struct tsr_error *err)
{
	if (!(mask & (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT)))
		return TSR_OK;
	struct tsr_gles_context *q = (struct tsr_gles_context *)ctx;  /* queries only */
	int32_t rt = -1, rdepth = -1, dt = -1, ddepth = -1;
	struct mrt_sel mrt;
	TSR_TRY(framebuffer_target(dev, ctx, GL_READ_FRAMEBUFFER_NV, &rt, &rdepth, err));
	TSR_TRY(bound_target(dev, ctx, &dt, &ddepth, err));
	TSR_TRY(mrt_targets(dev, ctx, dt, &mrt, err));
	struct tsr_cmd_blit b = {.src_color = rt, .dst_color = dt, .src_depth = -1,
				 .dst_depth = -1};
	if (mask & GL_COLOR_BUFFER_BIT) {
		if (mrt.drawn)
			return unsupported(err, "a framebuffer blit into several draw buffers "
					   "(GL_EXT_draw_buffers)");
		b.mask |= TSR_CLEAR_COLOR;
		b.linear = filter == GL_LINEAR;
	}
	if (mask & GL_DEPTH_BUFFER_BIT) {
		/* a depth texture's depth: a framebuffer object's with a color
		 * attachment (stored by its passes), or alone (its target) */
		b.src_depth = rdepth >= 0 ? rdepth : depth_target_image(dev, rt) ? rt : -1;
		b.dst_depth = ddepth >= 0 ? ddepth : depth_target_image(dev, dt) ? dt : -1;
		if (b.src_depth < 0 || b.dst_depth < 0)
			return unsupported(err, "a depth blit from or into the window or a depth "
					   "renderbuffer (their depth never leaves the chip)");
		b.mask |= TSR_CLEAR_DEPTH;
	}
	for (int i = 0; i < 4; i++) {
		b.src[i] = src[i];
		b.dst[i] = dst[i];
	}
	GLboolean sc = GL_FALSE;
	tsr_gles_GetBooleanv(q, GL_SCISSOR_TEST, &sc);
	if (sc) {
		GLint box[4] = {0, 0, 0, 0};
		tsr_gles_GetIntegerv(q, GL_SCISSOR_BOX, box);
		b.scissor = (struct tsr_scissor_state){1, box[0], box[1],
						       (uint32_t)(box[2] > 0 ? box[2] : 0),
						       (uint32_t)(box[3] > 0 ? box[3] : 0)};
	}
	if (b.mask) {
		/* the clears pending for the source and the destination first (a
		 * pass each), then the blit after every pass recorded: the
		 * source's draws are rendered before it reads, the destination's
		 * later draws (a new pass, which keeps what it wrote) after it */
		TSR_TRY(flush_clear(dev, rt, rdepth, NULL, err));
		if (dt != rt)
			TSR_TRY(flush_clear(dev, dt, ddepth, &mrt, err));
		dev->pass_open = 0;
		TSR_TRY(tsr_commands_blit(&dev->cmds, &b, err));
		if ((b.mask & TSR_CLEAR_COLOR) && dt < 0)
			dev->window_drawn = 1;  /* a later window pass keeps its color */
		for (uint32_t i = 0; (b.mask & TSR_CLEAR_DEPTH) && i < dev->texture_count; i++)
			if (dev->textures[i].target == 2 &&
			    dev->textures[i].image == (uint32_t)b.dst_depth)
				dev->textures[i].depth_stored = 1;  /* a later pass loads it */
	}
	if (mask & GL_STENCIL_BUFFER_BIT)
		return unsupported(err, "a stencil blit (the stencil buffer never leaves the "
				   "chip)");
	return TSR_OK;
}

enum tsr_status tsr_gles_device_flush(struct tsr_gles_device *dev, struct tsr_error *err)
{
	(void)dev;
	(void)err;
	return TSR_OK;  /* the frame renders at the swap, as a tile-based GPU's does */
}

enum tsr_status tsr_gles_device_swap(struct tsr_gles_device *dev, struct tsr_error *err)
{
	dev->frames++;
	return render_frame(dev, err);
}

uint32_t tsr_gles_device_simulated(const struct tsr_gles_device *dev)
{
	return dev->simulated;
}

uint32_t tsr_gles_device_frames(const struct tsr_gles_device *dev)
{
	return dev->frames;
}

const struct tsr_frame_stats *tsr_gles_device_last_frame(const struct tsr_gles_device *dev)
{
	return dev->recorded || dev->flushes ? dev->fs : NULL;
}
