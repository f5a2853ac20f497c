/*
 * binding.c - what the raster stages latch of a draw call (raster.h,
 * struct tsr_shader_binding): its per-fragment state (GL ES 2.0 4.1:
 * scissor, stencil, depth, blending, color mask; OpenGL ES 2.0.25 specification),
 * the program's discard, its texture units (2D or cube map) and texture
 * unit 0's sampler, from its draw
 * state (command/state.h), so that the stages read no material for fixed
 * function.
 */
#include "raster/raster_priv.h"

/* A unit's sampler state. */
static struct tsr_sampler unit_sampler(const struct tsr_texture_unit *u)
{
	return (struct tsr_sampler){u->min_filter, u->mag_filter, u->wrap_s, u->wrap_t};
}

/* A face's stencil state on the 8-bit buffer: the reference clamped to
 * 0..255 (GL ES 2.0 4.1.5), the masks' low 8 bits. */
static struct tsr_stencil_bits stencil_bits(const struct tsr_stencil_face *f)
{
	const int32_t ref = f->ref < 0 ? 0 : f->ref > 255 ? 255 : f->ref;
	return (struct tsr_stencil_bits){f->func, {f->fail, f->zfail, f->zpass}, (uint8_t)ref,
					 (uint8_t)f->value_mask, (uint8_t)f->write_mask};
}

/* Whether stencil op `op` can change a value under write mask wm. */
static int stencil_writes(uint8_t op, uint8_t wm)
{
	return op != TSR_STENCIL_KEEP && wm != 0;
}

/* Whether blend factor f takes the second source color
 * (GL_EXT_blend_func_extended's SRC1 factors). */
static int is_src1(uint8_t f)
{
	return f == TSR_BLEND_SRC1_COLOR || f == TSR_BLEND_ONE_MINUS_SRC1_COLOR ||
	       f == TSR_BLEND_SRC1_ALPHA || f == TSR_BLEND_ONE_MINUS_SRC1_ALPHA;
}

void tsr_shader_binding_init(struct tsr_shader_binding *b, const struct tsr_draw_state *s,
			     const struct tsr_material *material,
			     const struct tsr_texture *texture, uint64_t fs_base,
			     uint32_t fs_bytes, uint32_t target_width, uint32_t target_height)
{
	memset(b, 0, sizeof(*b));
	b->material = material;
	b->texture = texture;
	b->fs_base = fs_base;
	b->fs_bytes = fs_bytes;
	const struct tsr_texture_unit *u = &s->textures[0];
	b->sampler = unit_sampler(u);
	b->target_height = target_height;
	/* depth: with DEPTH_TEST off the buffer is neither tested nor written
	 * (GL ES 2.0 4.1.5) */
	uint8_t mode = 0;
	if (s->depth.test) {
		mode |= TSR_QUAD_DEPTH_TEST;
		if (s->depth.write)
			mode |= TSR_QUAD_DEPTH_WRITE;
	}
	if (s->discard)
		mode |= TSR_QUAD_LATE_Z;
	/* stencil: with STENCIL_TEST off the buffer is neither tested nor
	 * written (4.1.5) */
	b->stencil_hiz = 1;
	if (s->stencil.test) {
		mode |= TSR_QUAD_STENCIL;
		b->stencil[0] = stencil_bits(&s->stencil.front);
		b->stencil[1] = stencil_bits(&s->stencil.back);
		for (int f = 0; f < 2; f++)
			if (stencil_writes(b->stencil[f].ops[0], b->stencil[f].write_mask) ||
			    stencil_writes(b->stencil[f].ops[1], b->stencil[f].write_mask))
				b->stencil_hiz = 0;
	}
	b->alpha_cutoff = s->discard ? s->alpha_cutoff : 0.0f;
	b->depth_func = s->depth.func;
	b->color_mask = s->color_mask & TSR_COLOR_MASK_ALL;
	b->draw_buffers = s->draw_buffers ? (uint8_t)(s->draw_buffers & 0xfu) : 1u;
	b->blend = s->blend;
	const struct tsr_blend_state *bl = &s->blend;
	if (!bl->enable)
		b->blend_path = TSR_BLEND_PATH_REPLACE;
	else if (bl->src_rgb == TSR_BLEND_SRC_ALPHA && bl->dst_rgb == TSR_BLEND_ONE_MINUS_SRC_ALPHA &&
		 bl->src_alpha == TSR_BLEND_ONE && bl->dst_alpha == TSR_BLEND_ONE_MINUS_SRC_ALPHA &&
		 bl->eq_rgb == TSR_BLEND_EQ_ADD && bl->eq_alpha == TSR_BLEND_EQ_ADD)
		b->blend_path = TSR_BLEND_PATH_SRC_OVER;
	else
		b->blend_path = TSR_BLEND_PATH_GENERAL;
	b->blend_src1 = bl->enable && (is_src1(bl->src_rgb) || is_src1(bl->dst_rgb) ||
				       is_src1(bl->src_alpha) || is_src1(bl->dst_alpha));
	if (bl->enable || b->color_mask != TSR_COLOR_MASK_ALL)
		mode |= TSR_QUAD_READS_COLOR;
	if (b->blend_path == TSR_BLEND_PATH_SRC_OVER && b->color_mask == TSR_COLOR_MASK_ALL)
		mode |= TSR_QUAD_SRC_OVER;
	else if (b->blend_path != TSR_BLEND_PATH_REPLACE || b->color_mask != TSR_COLOR_MASK_ALL)
		mode |= TSR_QUAD_GENERAL;
	b->quad_mode = mode;
	/* the scissor box, GL's lower-left origin flipped to the window's
	 * top-left one; the viewport's box too when it leaves part of the
	 * target out (GL clips primitives to the view volume, which the
	 * guard band does not: nothing is drawn outside the viewport); an
	 * empty box keeps x1 < x0 */
	int64_t x0 = INT32_MIN / 2, y0 = INT32_MIN / 2, x1 = INT32_MAX / 2, y1 = INT32_MAX / 2;
	const struct tsr_viewport_state *vp = &s->viewport;
	const int partial_viewport = vp->x > 0 || vp->y > 0 ||
				     (int64_t)vp->x + vp->width < (int64_t)target_width ||
				     (int64_t)vp->y + vp->height < (int64_t)target_height;
	if (s->scissor.enable) {
		x0 = s->scissor.x;
		x1 = x0 + (int64_t)s->scissor.width - 1;
		y1 = (int64_t)target_height - 1 - s->scissor.y;
		y0 = y1 - (int64_t)s->scissor.height + 1;
	}
	if (partial_viewport) {
		const int64_t vy1 = (int64_t)target_height - 1 - vp->y;
		const int64_t vx1 = (int64_t)vp->x + vp->width - 1, vy0 = vy1 - (int64_t)vp->height + 1;
		x0 = x0 > vp->x ? x0 : vp->x;
		x1 = x1 < vx1 ? x1 : vx1;
		y0 = y0 > vy0 ? y0 : vy0;
		y1 = y1 < vy1 ? y1 : vy1;
	}
	if (s->scissor.enable || partial_viewport) {
		b->scissor = 1;
#define CLAMP32(v) ((v) < INT32_MIN / 2 ? INT32_MIN / 2 : (v) > INT32_MAX / 2 ? INT32_MAX / 2 : (int32_t)(v))
		b->scissor_x0 = CLAMP32(x0);
		b->scissor_x1 = CLAMP32(x1);
		b->scissor_y0 = CLAMP32(y0);
		b->scissor_y1 = CLAMP32(y1);
#undef CLAMP32
	}
}

void tsr_shader_binding_set_program(struct tsr_shader_binding *b, struct tsr_shader_exec *exec,
				    const struct tsr_draw_state *s,
				    const struct tsr_texture *const *textures, uint32_t count)
{
	b->program = exec;
	for (uint32_t u = 0; u < TSR_SHADER_MAX_TEXTURE_UNITS; u++) {
		b->units[u] = u < count ? textures[u] : NULL;
		b->unit_faces[u] = NULL;
		if (u < TSR_MAX_TEXTURE_UNITS) {
			b->unit_sampler[u] = unit_sampler(&s->textures[u]);
		} else {
			b->unit_sampler[u] = (struct tsr_sampler){TSR_TEX_LINEAR, TSR_TEX_LINEAR,
								  TSR_TEX_REPEAT, TSR_TEX_REPEAT};
		}
	}
	const struct tsr_program *p = tsr_shader_exec_program(exec);
	/* a program that discards or writes gl_FragDepthEXT: depth tested after
	 * shading (no Early-Z, no HiZ) */
	if (tsr_program_discards(p) || tsr_program_writes_depth(p)) {
		b->quad_mode |= TSR_QUAD_LATE_Z;
		b->alpha_cutoff = 0.0f;  /* the program's discards remove the lanes */
	}
	/* gl_LastFragData: the color buffer is read at shading; with a memory
	 * backend (immediate mode) that read is the color path's read, as
	 * blending's is */
	if (tsr_program_fetches_color(p))
		b->quad_mode |= TSR_QUAD_FETCH_COLOR | TSR_QUAD_READS_COLOR;
}

void tsr_shader_binding_set_cube(struct tsr_shader_binding *b, uint32_t u,
				 const struct tsr_texture *const *faces)
{
	if (u < TSR_SHADER_MAX_TEXTURE_UNITS)
		b->unit_faces[u] = faces;
}
