/*
 * elimination.c - Rendering Elimination (RE III) and Transaction
 * Elimination (RE IV-C) as a technique of the TBR pipeline.
 *
 * RE: the Command Processor sends each draw call's constants to the
 * Signature Unit (III-E) and the Polygon List Builder each binned
 * primitive's attributes with the tiles it overlaps (III-F); before the
 * Tile Fetcher reads a tile, its signature is compared with the one of the
 * frame two back (double buffering: the colors the back buffer holds), and
 * an equal tile is skipped: no Parameter Buffer reads, rasterization,
 * texture or instruction fetches, or flush (III-A). A texture upload
 * invalidates the Signature Buffer; elimination.refresh_frames switches
 * RE off for two frames every N. With elimination.verify, skipped tiles
 * are rendered anyway through a separate, uncounted memory hierarchy and
 * their colors compared with the kept ones (false positives).
 *
 * TE: each rendered tile's RGBA8 colors are signed at flush, and the flush
 * is skipped when the signature equals the one of the same tile in the
 * buffer being overwritten.
 *
 * With RE on, from the third frame on, every tile is classified as in RE
 * Fig. 14a (stats/counters.h, group elimination).
 */
#include <stdlib.h>
#include <string.h>

#include "techniques/crc32.h"
#include "techniques/signature_unit.h"
#include "techniques/technique.h"

/*
 * A drawcall's scene constants as the Command Processor sends them to the
 * Signature Unit (RE III-E): its uniforms (matrices, material color,
 * lighting, alpha cutoff) and the fixed-function state of its draw
 * (command/state.h) that decides a tile's colors besides its primitives:
 * culling, depth, the program's discard, blending with its constant
 * color, the color mask, the scissor box, and texture unit 0 (the bound
 * texture object and its sampler). The texture's contents and the shader
 * programs are not part of it (RE III-E); uploads of those are driver
 * events that switch RE off. A whole number of 64-bit subblocks.
 */
struct re_constants {
	float mvp[16];
	float model[16];
	float color[4];
	float alpha_cutoff;
	int32_t texture_object;
	uint32_t lit;
	uint8_t cull_enable, cull_face, front_face, depth_test;
	uint8_t depth_write, depth_func, discard, color_mask;
	uint8_t blend_enable, src_rgb, dst_rgb, src_alpha;
	uint8_t dst_alpha, eq_rgb, eq_alpha, scissor_enable;
	float blend_color[4];
	int32_t scissor[4];
	uint8_t min_filter, mag_filter, wrap_s, wrap_t;
};
_Static_assert(sizeof(struct re_constants) % 8 == 0, "whole 64-bit subblocks");

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

/*
 * What a GL ES program draw adds to its constants (after struct
 * re_constants, whose matrices, material color and lighting are zero for
 * it: a program's come from its uniforms): the program's identity, the
 * state the fixed function applies besides re_constants' (primitive mode,
 * line width, polygon offset, the draw buffers), and each texture unit the
 * program samples: the image bound, whether it is a cube map, the version
 * of its contents (tsr_tbr_view image_version: an upload or a render into
 * it changes it) and its sampler. The program's constant bank (uniform
 * values, then literals) follows it, one vec4 per register.
 */
struct re_program_constants {
	uint64_t program;         /* tsr_program_serial() of the program */
	uint32_t varying_slots;
	float line_width;
	float offset_factor, offset_units, offset_clamp;
	uint8_t mode, offset_enable, draw_buffers, pad0;
	int32_t image[TSR_SHADER_MAX_TEXTURE_UNITS];
	uint32_t version[TSR_SHADER_MAX_TEXTURE_UNITS];
	uint8_t cube[TSR_SHADER_MAX_TEXTURE_UNITS];
	uint8_t sampler[TSR_MAX_TEXTURE_UNITS][4];  /* min, mag filter, wrap s, t */
};
_Static_assert(sizeof(struct re_program_constants) % 8 == 0, "whole 64-bit subblocks");

/* Constant-bank registers signed per message (a vec4 each). */
#define RE_BANK_CHUNK 64

/*
 * A GL ES program draw's primitive as the Polygon List Builder writes it:
 * its position attribute (screen positions, depth, 1/w), what the
 * fragment program reads besides its varyings (the primitive kind, the
 * facing, a point's position and size for gl_PointCoord), then its
 * varyings, [vertex][slot] vec4s (the vertex shader's outputs).
 */
struct re_program_attributes {
	int64_t X[3], Y[3];
	float z[3], inv_w[3], point[3];
	uint8_t kind, front_facing, varying_slots, pad[5];
};
_Static_assert(sizeof(struct re_program_attributes) % 8 == 0, "whole 64-bit subblocks");

/*
 * How the frame-buffer pass starts (struct tsr_clear_state): part of every
 * tile's inputs, also of a tile no primitive overlaps (whose signature is
 * empty), so a frame whose clear differs from the one two back skips no
 * tile and counts none as equal. Zero-filled before use (memcmp).
 */
struct re_clear {
	float color[4];
	float depth;
	int32_t stencil;
	uint8_t mask, scissored, invalidate, pad;
};

struct elimination {
	struct tsr_tbr_view v;
	struct tsr_elimination_config cfg;
	struct tsr_signature_unit *su;  /* with elimination.rendering, else NULL */
	struct tsr_memsys *verify_mem;  /* elimination.verify: skipped tiles' accesses */
	uint8_t *attr_msg;              /* one primitive's attribute message */
	uint32_t attr_msg_cap;          /* its size, bytes */
	uint32_t *te_sig[2];            /* TE: color signature of each buffer's tiles */
	uint8_t *te_valid[2];           /* 1 once the buffer's tile was signed */
	uint32_t back;                  /* index of the back buffer (as the pipeline's) */
	uint32_t frames_rendered;       /* the back buffer holds a frame from 2 on */
	uint32_t frame;
	struct tsr_su_counters su_base; /* the Signature Unit's counters at the frame's start */
	int classify;                   /* RE on and the back buffer holds a rendered frame */
	int skip;                       /* RE may skip tiles in this frame */
	int off;                        /* this frame's frame buffer is drawn by a pass
					   before its last too, or by another command list
					   (a mid-frame flush): RE and TE off for it
					   (elimination_frame_begin()) */
	int equal;                      /* the current tile's inputs equal the frame two back */
	struct re_clear clear[3];       /* the frame-buffer pass's clear: this frame's,
					   one back, two back */
	int clear_changed;              /* this frame's clear differs from two back's */
};

static int elimination_enabled(const struct tsr_gpu_config *cfg)
{
	return cfg->elim.rendering || cfg->elim.transactions;
}

static void elimination_destroy(void *state)
{
	struct elimination *e = state;
	if (!e)
		return;
	tsr_su_destroy(e->su);
	tsr_memsys_destroy(e->verify_mem);
	free(e->attr_msg);
	for (int b = 0; b < 2; b++) {
		free(e->te_sig[b]);
		free(e->te_valid[b]);
	}
	free(e);
}

static enum tsr_status elimination_create(const struct tsr_tbr_view *v, void **state,
					  struct tsr_error *err)
{
	struct elimination *e = calloc(1, sizeof(*e));
	if (!e)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	*state = e;
	e->v = *v;
	e->cfg = v->cfg->elim;
	e->back = 1;
	if (e->cfg.transactions)
		for (int b = 0; b < 2; b++) {
			e->te_sig[b] = calloc(v->tiles, sizeof(uint32_t));
			e->te_valid[b] = calloc(v->tiles, 1);
			if (!e->te_sig[b] || !e->te_valid[b])
				return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
		}
	if (!e->cfg.rendering)
		return TSR_OK;
	/* the larger of a primitive's attributes as the Parameter Buffer
	 * holds them and a program primitive's message (its varyings, 48
	 * bytes a slot), with room to round up */
	const uint32_t slot_bytes = 3 * 4 * sizeof(float);
	e->attr_msg_cap = v->max_attributes * (v->cfg->attribute_bytes > slot_bytes
						       ? v->cfg->attribute_bytes : slot_bytes) +
			  sizeof(struct re_attributes) + sizeof(struct re_program_attributes) + 8;
	e->attr_msg = malloc(e->attr_msg_cap);
	if (!e->attr_msg)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	TSR_TRY(tsr_su_create(v->tiles, &e->su, err));
	if (e->cfg.verify)
		TSR_TRY(tsr_memsys_create(&v->cfg->mem, &e->verify_mem, err));
	return TSR_OK;
}

static void elimination_frame_begin(void *state, const struct tsr_frame_commands *c,
				    struct tsr_frame_stats *fs)
{
	(void)fs;
	struct elimination *e = state;
	e->frame = c->frame;
	/* a frame-buffer pass before the last (a window pass, a render target,
	 * the window again), or a frame in parts (a mid-frame read's flush,
	 * then the rest: tsr_commands_window_continued()): RE signs the last
	 * pass's inputs only and TE the last flush of a tile, so both are off
	 * for this frame (no tile compared, skipped or its flush removed;
	 * docs/techniques.md) and forget what they knew of the buffer it
	 * writes */
	e->off = tsr_commands_window_continued(c);
	if (e->off) {
		e->skip = 0;
		e->classify = 0;
		if (e->te_valid[e->back])
			memset(e->te_valid[e->back], 0, e->v.tiles);
	}
	if (!e->su)
		return;
	const struct tsr_clear_state *k = &c->passes[c->pass_count - 1].clear;
	struct re_clear *now = &e->clear[0];
	memset(now, 0, sizeof(*now));
	memcpy(now->color, k->color, sizeof(now->color));
	now->depth = k->depth;
	now->stencil = k->stencil;
	now->mask = k->mask;
	now->scissored = k->scissored;
	now->invalidate = k->invalidate;
	e->su_base = *tsr_su_counters_of(e->su);
	for (uint32_t i = 0; i < c->event_count; i++)
		if (c->events[i].kind == TSR_EVENT_TEXTURE_UPLOAD) {
			tsr_su_invalidate(e->su);  /* a driver event: texture contents changed */
			break;
		}
}

/*
 * Appends a program draw's own constants to its draw's (struct
 * re_program_constants, then the vertex and the fragment stage's constant
 * banks, lane 0 of each register), in pieces of RE_BANK_CHUNK registers:
 * no allocation.
 */
static void sign_program(struct elimination *e, const struct tsr_cmd_draw *d)
{
	const struct tsr_cmd_program *p = d->program;
	const struct tsr_draw_state *s = &d->state;
	struct re_program_constants pc;
	memset(&pc, 0, sizeof(pc));
	pc.program = tsr_program_serial(tsr_shader_exec_program(p->fragment));
	pc.varying_slots = p->varying_slots;
	pc.line_width = s->line_width;
	pc.mode = s->mode;
	pc.offset_enable = s->polygon_offset.enable;
	if (s->polygon_offset.enable) {
		pc.offset_factor = s->polygon_offset.factor;
		pc.offset_units = s->polygon_offset.units;
		pc.offset_clamp = s->polygon_offset.clamp;
	}
	pc.draw_buffers = s->draw_buffers;
	for (uint32_t u = 0; u < TSR_SHADER_MAX_TEXTURE_UNITS; u++) {
		pc.image[u] = p->textures[u];
		pc.cube[u] = p->cube[u];
		if (p->textures[u] < 0 || !e->v.image_version)
			continue;  /* a view without the service: the image alone */
		/* a cube map's six faces: their versions summed (each update
		 * of a face adds one) */
		const uint32_t faces = p->cube[u] ? 6 : 1;
		for (uint32_t f = 0; f < faces; f++)
			pc.version[u] += e->v.image_version(e->v.gpu, (uint32_t)p->textures[u] + f);
	}
	for (uint32_t u = 0; u < TSR_MAX_TEXTURE_UNITS; u++) {
		pc.sampler[u][0] = s->textures[u].min_filter;
		pc.sampler[u][1] = s->textures[u].mag_filter;
		pc.sampler[u][2] = s->textures[u].wrap_s;
		pc.sampler[u][3] = s->textures[u].wrap_t;
	}
	tsr_su_constants_append(e->su, &pc, sizeof(pc));
	const struct tsr_shader_exec *stage[2] = {p->vertex, p->fragment};
	for (int k = 0; k < 2; k++) {
		uint32_t regs;
		const float *bank = tsr_shader_exec_constants(stage[k], &regs);
		float chunk[RE_BANK_CHUNK][4];
		for (uint32_t r0 = 0; r0 < regs; r0 += RE_BANK_CHUNK) {
			const uint32_t n = regs - r0 < RE_BANK_CHUNK ? regs - r0 : RE_BANK_CHUNK;
			for (uint32_t r = 0; r < n; r++)
				for (int c = 0; c < 4; c++)  /* [register][component][lane] */
					chunk[r][c] = bank[(size_t)(r0 + r) * 16 + (size_t)c * 4];
			tsr_su_constants_append(e->su, chunk, (size_t)n * sizeof(chunk[0]));
		}
	}
}

/* Signs a drawcall's constants (RE III-E) into the Signature Unit. */
static void elimination_draw(void *state, const struct tsr_cmd_draw *d,
			     const struct tsr_material *m)
{
	struct elimination *e = state;
	if (!e->su)
		return;
	struct re_constants c;
	memset(&c, 0, sizeof(c));
	memcpy(c.mvp, &d->mvp, sizeof(c.mvp));
	memcpy(c.model, &d->model, sizeof(c.model));
	memcpy(c.color, m->color, sizeof(c.color));
	const struct tsr_draw_state *s = &d->state;
	c.alpha_cutoff = s->alpha_cutoff;
	c.texture_object = s->textures[0].image >= 0 ? m->texture_object : -1;
	c.lit = (uint32_t)m->lit;
	c.cull_enable = s->cull.enable;
	c.cull_face = s->cull.face;
	c.front_face = s->cull.front_face;
	c.depth_test = s->depth.test;
	c.depth_write = s->depth.write;
	c.depth_func = s->depth.func;
	c.discard = s->discard;
	c.color_mask = s->color_mask;
	c.blend_enable = s->blend.enable;
	c.src_rgb = s->blend.src_rgb;
	c.dst_rgb = s->blend.dst_rgb;
	c.src_alpha = s->blend.src_alpha;
	c.dst_alpha = s->blend.dst_alpha;
	c.eq_rgb = s->blend.eq_rgb;
	c.eq_alpha = s->blend.eq_alpha;
	memcpy(c.blend_color, s->blend.color, sizeof(c.blend_color));
	c.scissor_enable = s->scissor.enable;
	if (s->scissor.enable) {
		c.scissor[0] = s->scissor.x;
		c.scissor[1] = s->scissor.y;
		c.scissor[2] = (int32_t)s->scissor.width;
		c.scissor[3] = (int32_t)s->scissor.height;
	}
	c.min_filter = s->textures[0].min_filter;
	c.mag_filter = s->textures[0].mag_filter;
	c.wrap_s = s->textures[0].wrap_s;
	c.wrap_t = s->textures[0].wrap_t;
	if (!d->program) {
		tsr_su_constants(e->su, &c, sizeof(c));
		return;
	}
	/* a program draw: the material's fixed shading does not apply */
	memset(c.mvp, 0, sizeof(c.mvp));
	memset(c.model, 0, sizeof(c.model));
	memset(c.color, 0, sizeof(c.color));
	c.texture_object = -1;
	c.lit = 0;
	tsr_su_constants(e->su, &c, sizeof(c));
	sign_program(e, d);
}

/*
 * Signs binned primitive p's message into the tiles it overlaps (RE
 * III-F): head (head_bytes), then `extra` (extra_bytes), zero-padded to
 * the Parameter Buffer's attributes x attribute_bytes when that is longer,
 * in whole 64-bit subblocks.
 */
static void sign_primitive(struct elimination *e, const struct tsr_primitive *p,
			   const void *head, size_t head_bytes, const void *extra,
			   size_t extra_bytes, const uint32_t *tiles, uint32_t n)
{
	size_t bytes = (size_t)p->attributes * e->v.cfg->attribute_bytes;
	if (bytes < head_bytes + extra_bytes)
		bytes = head_bytes + extra_bytes;
	bytes = (bytes + 7) & ~(size_t)7;
	memset(e->attr_msg, 0, bytes);
	memcpy(e->attr_msg, head, head_bytes);
	if (extra_bytes)
		memcpy(e->attr_msg + head_bytes, extra, extra_bytes);
	tsr_su_primitive(e->su, e->attr_msg, bytes, tiles, n);
}

/*
 * Signs a program draw's binned primitive (struct re_program_attributes,
 * then its varyings) into the tiles it overlaps; the message is
 * zero-padded to the Parameter Buffer's attributes x attribute_bytes when
 * that is longer, as for the other primitives.
 */
static void bin_program_primitive(struct elimination *e, const struct tsr_primitive *p,
				  const uint32_t *tiles, uint32_t n)
{
	struct re_program_attributes a;
	memset(&a, 0, sizeof(a));
	memcpy(a.X, p->X, sizeof(a.X));
	memcpy(a.Y, p->Y, sizeof(a.Y));
	memcpy(a.z, p->z, sizeof(a.z));
	memcpy(a.inv_w, p->inv_w, sizeof(a.inv_w));
	if (p->kind == TSR_PRIM_KIND_POINT)
		memcpy(a.point, p->point, sizeof(a.point));
	a.kind = p->kind;
	a.front_facing = p->front_facing;
	a.varying_slots = p->varying_slots;
	sign_primitive(e, p, &a, sizeof(a), p->varyings,
		       (size_t)3 * p->varying_slots * 4 * sizeof(float), tiles, n);
}

/* Signs a binned primitive's attributes into the tiles it overlaps (RE III-F). */
static void elimination_bin(void *state, uint32_t index, const uint32_t *tiles, uint32_t n)
{
	struct elimination *e = state;
	if (!e->su)
		return;
	const struct tsr_primitive *p = &e->v.prims->prims[index];
	if (p->varyings) {
		bin_program_primitive(e, p, tiles, n);
		return;
	}
	struct re_attributes a;
	memset(&a, 0, sizeof(a));
	memcpy(a.X, p->X, sizeof(a.X));
	memcpy(a.Y, p->Y, sizeof(a.Y));
	memcpy(a.z, p->z, sizeof(a.z));
	memcpy(a.inv_w, p->inv_w, sizeof(a.inv_w));
	memcpy(a.u, p->u, sizeof(a.u));
	memcpy(a.v, p->v, sizeof(a.v));
	memcpy(a.shade, p->shade, sizeof(a.shade));
	sign_primitive(e, p, &a, sizeof(a), NULL, 0, tiles, n);
}

/*
 * After binning: this frame's Signature Unit work, and whether RE may skip
 * tiles (on, not a refresh frame: elimination.refresh_frames; upload
 * frames invalidated the Signature Buffer instead).
 */
static void elimination_geometry_end(void *state, struct tsr_frame_stats *fs)
{
	struct elimination *e = state;
	if (!e->su)
		return;
	tsr_counters_delta(&tsr_counters_signature_unit, &fs->elim.su, tsr_su_counters_of(e->su),
			   &e->su_base);
	uint32_t n = e->cfg.refresh_frames;
	e->classify = e->frames_rendered >= 2;
	/* a scissored clear's box is not kept: such a frame never compares */
	e->clear_changed = e->clear[0].scissored ||
			   memcmp(&e->clear[0], &e->clear[2], sizeof(e->clear[0])) != 0;
	e->skip = !(n && e->frame % n < 2) && !e->clear_changed && !e->off;
	e->classify &= !e->off;
	if (e->skip && tsr_su_comparable(e->su, 2))
		fs->elim.re_frames++;
}

/* 1 when the tile's colors equal the back buffer's. */
static int colors_equal_back(const struct tsr_tile_colors *c)
{
	for (uint32_t y = 0; y < c->height; y++)
		if (memcmp(&c->back[(size_t)y * c->back_pitch], &c->rgba[(size_t)y * c->width * 4],
			   c->width * 4))
			return 0;
	return 1;
}

/*
 * A tile Rendering Elimination skips (RE III-A): nothing is read or
 * written; the back buffer keeps the colors of the frame two back. Counts
 * what the Tile Fetcher and the flush would have moved and, with verify,
 * renders the tile anyway (uncounted) to check its colors.
 */
static void skip_tile(struct elimination *e, uint32_t tile, struct tsr_elimination_stats *s)
{
	uint32_t n = tsr_pb_list_length(e->v.pb, tile);
	const uint32_t *list = tsr_pb_list(e->v.pb, tile);
	s->tiles_skipped++;
	s->color_bytes_removed += e->v.flush_bytes(e->v.gpu, tile);
	s->pb_bytes_removed += (uint64_t)n * TSR_PMD_BYTES;
	for (uint32_t k = 0; k < n; k++)
		s->pb_bytes_removed += (uint64_t)e->v.prims->prims[list[k]].attributes *
				       e->v.cfg->attribute_bytes;
	if (!e->verify_mem)
		return;
	struct tsr_raster_stats rs = {0};
	struct tsr_texture_stats ts = {0};
	struct tsr_tile_colors c;
	e->v.render_tile(e->v.gpu, tile, e->verify_mem, &rs, &ts, &c);
	s->tiles_verified++;
	s->false_positives += !colors_equal_back(&c);
	s->texture_requests_removed += ts.line_requests;
	s->instructions_removed += rs.instruction_fetches;
	s->fragments_removed += rs.fragments_shaded;
}

static int elimination_tile_begin(void *state, uint32_t tile, struct tsr_frame_stats *fs)
{
	struct elimination *e = state;
	if (!e->su)
		return 0;
	struct tsr_elimination_stats *s = &fs->elim;
	e->equal = e->classify && !e->clear_changed && tsr_su_inputs_equal(e->su, tile, 2);
	s->tiles_compared += (uint64_t)e->classify;
	s->tiles_equal_inputs += (uint64_t)e->equal;
	if (!(e->skip && tsr_su_same_as(e->su, tile, 2)))
		return 0;
	skip_tile(e, tile, s);
	return 1;
}

/*
 * Classifies a rendered tile (RE Fig. 14a) and, with TE (RE IV-C), skips
 * the flush when the color signature equals the one of the same tile in
 * the back buffer.
 */
static int elimination_tile_flush(void *state, const struct tsr_tile_colors *c,
				  struct tsr_frame_stats *fs)
{
	struct elimination *e = state;
	struct tsr_elimination_stats *s = &fs->elim;
	int same = -1;  /* colors equal to the back buffer's: -1 not compared yet */
	if (e->su && e->classify) {
		same = colors_equal_back(c);
		if (!e->equal && same)
			s->false_negatives++;
		else if (!e->equal)
			s->tiles_changed++;
		else if (!same)
			s->stale_inputs++;
	}
	if (!e->te_sig[0] || e->off)
		return 0;
	struct tsr_crc_block b = tsr_crc_compute(c->rgba, (size_t)c->width * c->height * 4);
	s->te_tiles_signed++;
	s->te_subblocks_signed += b.subblocks;
	if (e->te_valid[e->back][c->tile] && e->te_sig[e->back][c->tile] == b.crc) {
		s->te_flushes_removed++;
		s->color_bytes_removed += c->dram_bytes;
		if (same < 0)
			same = colors_equal_back(c);
		s->te_false_positives += !same;
		return 1;  /* the buffer keeps its colors, as the hardware's would */
	}
	e->te_sig[e->back][c->tile] = b.crc;
	e->te_valid[e->back][c->tile] = 1;
	return 0;
}

static void elimination_frame_end(void *state, struct tsr_frame_stats *fs)
{
	(void)fs;
	struct elimination *e = state;
	e->back ^= 1;
	e->frames_rendered++;
	if (e->su) {
		tsr_su_end_frame(e->su);
		if (e->off)  /* its signatures are not the frame's inputs: none compares */
			tsr_su_invalidate(e->su);
		e->clear[2] = e->clear[1];
		e->clear[1] = e->clear[0];
	}
}

const struct tsr_technique_ops tsr_technique_elimination = {
	.name = "elimination",
	.enabled = elimination_enabled,
	.create = elimination_create,
	.destroy = elimination_destroy,
	.frame_begin = elimination_frame_begin,
	.draw = elimination_draw,
	.bin = elimination_bin,
	.geometry_end = elimination_geometry_end,
	.tile_begin = elimination_tile_begin,
	.tile_flush = elimination_tile_flush,
	.frame_end = elimination_frame_end,
};
