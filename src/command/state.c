#include "command/state.h"
#include "command/command.h"

#include <stdio.h>
#include <string.h>

static const char *const prim_names[TSR_PRIM_MODE_COUNT] = {
	"points", "lines", "line loop", "line strip", "triangles", "triangle strip",
	"triangle fan",
};
static const char *const index_names[TSR_INDEX_TYPE_COUNT] = {"none", "u8", "u16", "u32"};
static const char *const attrib_type_names[TSR_ATTRIB_TYPE_COUNT] = {
	"byte", "ubyte", "short", "ushort", "fixed", "float", "half_float",
};
static const char *const filter_names[TSR_TEX_FILTER_COUNT] = {
	"nearest", "linear", "nearest_mipmap_nearest", "linear_mipmap_nearest",
	"nearest_mipmap_linear", "linear_mipmap_linear",
};
static const char *const wrap_names[TSR_TEX_WRAP_COUNT] = {
	"repeat", "clamp_to_edge", "mirrored_repeat",
};

enum tsr_index_type tsr_mesh_index_type(const struct tsr_mesh *m)
{
	return m->vertex_count <= 65536 ? TSR_INDEX_U16 : TSR_INDEX_U32;
}

void tsr_draw_state_default(struct tsr_draw_state *s, uint32_t width, uint32_t height)
{
	memset(s, 0, sizeof(*s));
	s->mode = TSR_PRIM_TRIANGLES;
	s->line_width = 1.0f;
	s->index.type = TSR_INDEX_NONE;
	for (int i = 0; i < TSR_MAX_VERTEX_ATTRIBS; i++) {
		s->attribs[i].components = 4;
		s->attribs[i].type = TSR_ATTRIB_FLOAT;
		s->attribs[i].value[3] = 1.0f;
	}
	s->viewport.width = width;
	s->viewport.height = height;
	s->viewport.depth_far = 1.0f;
	s->scissor.width = width;
	s->scissor.height = height;
	s->cull.face = TSR_CULL_BACK;
	s->cull.front_face = TSR_FRONT_CCW;
	s->depth.write = 1;
	s->depth.func = TSR_FUNC_LESS;
	struct tsr_stencil_face f = {TSR_FUNC_ALWAYS, TSR_STENCIL_KEEP, TSR_STENCIL_KEEP,
				     TSR_STENCIL_KEEP, 0, UINT32_MAX, UINT32_MAX};
	s->stencil.front = s->stencil.back = f;
	s->blend.src_rgb = s->blend.src_alpha = TSR_BLEND_ONE;
	s->blend.dst_rgb = s->blend.dst_alpha = TSR_BLEND_ZERO;
	s->blend.eq_rgb = s->blend.eq_alpha = TSR_BLEND_EQ_ADD;
	s->color_mask = TSR_COLOR_MASK_ALL;
	for (int i = 0; i < TSR_MAX_TEXTURE_UNITS; i++) {
		s->textures[i].image = -1;
		s->textures[i].min_filter = TSR_TEX_NEAREST_MIPMAP_LINEAR;
		s->textures[i].mag_filter = TSR_TEX_LINEAR;
		s->textures[i].wrap_s = s->textures[i].wrap_t = TSR_TEX_REPEAT;
	}
	s->framebuffer.color = s->framebuffer.depth = TSR_ATTACH_DEFAULT;
}

void tsr_draw_state_material(struct tsr_draw_state *s, const struct tsr_material *m)
{
	s->cull.enable = !m->double_sided;
	s->depth.test = 1;
	s->depth.func = TSR_FUNC_LESS;
	s->depth.write = m->blend != TSR_BLEND_ALPHA;
	if (m->blend == TSR_BLEND_ALPHA) {
		s->blend.enable = 1;
		s->blend.src_rgb = TSR_BLEND_SRC_ALPHA;
		s->blend.dst_rgb = TSR_BLEND_ONE_MINUS_SRC_ALPHA;
		s->blend.src_alpha = TSR_BLEND_ONE;
		s->blend.dst_alpha = TSR_BLEND_ONE_MINUS_SRC_ALPHA;
	}
	s->discard = m->blend == TSR_BLEND_ALPHA_TEST;
	s->alpha_cutoff = m->blend == TSR_BLEND_ALPHA_TEST ? m->alpha_cutoff : 0.0f;
	struct tsr_texture_unit *t = &s->textures[0];
	t->image = m->texture;
	switch (m->filter) {
	case TSR_FILTER_NEAREST:
		t->mag_filter = TSR_TEX_NEAREST;
		t->min_filter = TSR_TEX_NEAREST_MIPMAP_NEAREST;
		break;
	case TSR_FILTER_BILINEAR:
		t->mag_filter = TSR_TEX_LINEAR;
		t->min_filter = TSR_TEX_LINEAR_MIPMAP_NEAREST;
		break;
	case TSR_FILTER_TRILINEAR:
		t->mag_filter = TSR_TEX_LINEAR;
		t->min_filter = TSR_TEX_LINEAR_MIPMAP_LINEAR;
		break;
	}
	t->wrap_s = t->wrap_t = m->wrap == TSR_WRAP_CLAMP ? TSR_TEX_CLAMP_TO_EDGE : TSR_TEX_REPEAT;
}

void tsr_draw_state_from_material(struct tsr_draw_state *s, const struct tsr_resources *r,
				  uint32_t mesh, uint32_t material, uint32_t width,
				  uint32_t height, struct tsr_framebuffer_state fb)
{
	const struct tsr_mesh *me = &r->meshes[mesh];
	const struct tsr_material *m = &r->materials[material];
	tsr_draw_state_default(s, width, height);
	s->mode = TSR_PRIM_TRIANGLES;
	s->index = (struct tsr_index_state){(uint8_t)tsr_mesh_index_type(me), mesh, 0,
					    me->index_count};
	/* the 32-byte vertex (geometry.h, TSR_VERTEX_STRIDE): position,
	 * normal, texcoord, floats */
	static const uint8_t comps[3] = {3, 3, 2};
	static const uint32_t offsets[3] = {0, 12, 24};
	for (int i = 0; i < 3; i++) {
		struct tsr_vertex_attrib *a = &s->attribs[i];
		a->enabled = 1;
		a->components = comps[i];
		a->type = TSR_ATTRIB_FLOAT;
		a->buffer = mesh;
		a->offset = offsets[i];
		a->stride = 32;
	}
	tsr_draw_state_material(s, m);
	s->framebuffer = fb;
}

/* "draw D: WHAT is not supported by the P pipeline yet" */
static enum tsr_status refuse(struct tsr_error *err, uint32_t draw, const char *pipeline,
			      const char *what)
{
	return tsr_error_set(err, TSR_ERR_UNSUPPORTED,
			     "draw %u: %s is not supported by the %s pipeline yet", draw, what,
			     pipeline);
}

static const char *name_of(const char *const *names, unsigned count, unsigned v)
{
	return v < count ? names[v] : "(out of range)";
}

#define NAME(table, v) name_of(table, sizeof(table) / sizeof(table[0]), (unsigned)(v))

/* Whether the enums of s are in range (a corrupt command list, not a
 * refused state). */
static int enums_valid(const struct tsr_draw_state *s)
{
	int ok = s->mode < TSR_PRIM_MODE_COUNT && s->index.type < TSR_INDEX_TYPE_COUNT &&
		 s->depth.func < TSR_FUNC_COUNT && s->cull.face <= TSR_CULL_FRONT_AND_BACK &&
		 s->cull.front_face <= TSR_FRONT_CW;
	for (int i = 0; i < TSR_MAX_VERTEX_ATTRIBS; i++)
		ok &= s->attribs[i].type < TSR_ATTRIB_TYPE_COUNT;
	const struct tsr_stencil_face *f[2] = {&s->stencil.front, &s->stencil.back};
	for (int i = 0; i < 2; i++)
		ok &= f[i]->func < TSR_FUNC_COUNT && f[i]->fail < TSR_STENCIL_OP_COUNT &&
		      f[i]->zfail < TSR_STENCIL_OP_COUNT && f[i]->zpass < TSR_STENCIL_OP_COUNT;
	const struct tsr_blend_state *b = &s->blend;
	ok &= b->src_rgb < TSR_BLEND_FACTOR_COUNT && b->dst_rgb < TSR_BLEND_FACTOR_COUNT &&
	      b->src_alpha < TSR_BLEND_FACTOR_COUNT && b->dst_alpha < TSR_BLEND_FACTOR_COUNT &&
	      b->eq_rgb < TSR_BLEND_EQ_COUNT && b->eq_alpha < TSR_BLEND_EQ_COUNT;
	for (int i = 0; i < TSR_MAX_TEXTURE_UNITS; i++)
		ok &= s->textures[i].min_filter < TSR_TEX_FILTER_COUNT &&
		      s->textures[i].mag_filter < TSR_TEX_FILTER_COUNT &&
		      s->textures[i].wrap_s < TSR_TEX_WRAP_COUNT &&
		      s->textures[i].wrap_t < TSR_TEX_WRAP_COUNT;
	return ok;
}

enum tsr_status tsr_draw_state_check(const struct tsr_draw_state *s, const char *pipeline,
				     uint32_t draw, const struct tsr_resources *r,
				     uint32_t mesh, uint32_t material, uint32_t width,
				     uint32_t height, struct tsr_framebuffer_state fb,
				     struct tsr_error *err)
{
	if (mesh >= r->mesh_count || material >= r->material_count)
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "draw %u names a resource that does not exist", draw);
	if (!enums_valid(s))
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "draw %u: a state value is out of its enum's range", draw);
	struct tsr_draw_state e;  /* what the pipelines draw: the material's state */
	tsr_draw_state_from_material(&e, r, mesh, material, width, height, fb);
	char what[192];

	if (s->mode != e.mode) {
		snprintf(what, sizeof(what), "primitive mode '%s'", NAME(prim_names, s->mode));
		return refuse(err, draw, pipeline, what);
	}
	if (s->index.type != e.index.type) {
		snprintf(what, sizeof(what), "index type '%s' (the mesh's index buffer is laid "
			 "out as '%s')", NAME(index_names, s->index.type),
			 NAME(index_names, e.index.type));
		return refuse(err, draw, pipeline, what);
	}
	if (s->index.buffer != e.index.buffer || s->index.offset != e.index.offset ||
	    s->index.count != e.index.count)
		return refuse(err, draw, pipeline,
			      "an index range other than the whole index buffer of the draw's mesh");
	for (int i = 0; i < TSR_MAX_VERTEX_ATTRIBS; i++) {
		const struct tsr_vertex_attrib *a = &s->attribs[i], *x = &e.attribs[i];
		if (a->enabled != x->enabled) {
			snprintf(what, sizeof(what), "vertex attribute %d %s", i,
				 a->enabled ? "enabled (only 0 position, 1 normal, 2 texcoord are)"
					    : "disabled (a constant value)");
			return refuse(err, draw, pipeline, what);
		}
		if (!a->enabled) {
			if (memcmp(a->value, x->value, sizeof(a->value))) {
				snprintf(what, sizeof(what), "vertex attribute %d's constant value "
					 "other than (0, 0, 0, 1)", i);
				return refuse(err, draw, pipeline, what);
			}
			continue;
		}
		if (a->type != x->type) {
			snprintf(what, sizeof(what), "vertex attribute %d of type '%s'", i,
				 NAME(attrib_type_names, a->type));
			return refuse(err, draw, pipeline, what);
		}
		if (a->components != x->components || a->normalized != x->normalized ||
		    a->buffer != x->buffer || a->offset != x->offset || a->stride != x->stride) {
			snprintf(what, sizeof(what), "vertex attribute %d's layout (%u components "
				 "at offset %u, stride %u; the 32-byte vertex has %u at %u, stride "
				 "%u, in the draw's mesh)", i, a->components, a->offset, a->stride,
				 x->components, x->offset, x->stride);
			return refuse(err, draw, pipeline, what);
		}
	}
	/* viewport and depth range, culling, polygon offset, scissor, depth
	 * (test, func, write mask), stencil (test, both faces' funcs, ops,
	 * reference and masks), blending (every factor, equation, the
	 * constant color) and the color mask: implemented whole
	 * (geometry/cull.c, raster/binding.c) */
	for (int i = 0; i < TSR_MAX_TEXTURE_UNITS; i++) {
		const struct tsr_texture_unit *t = &s->textures[i], *x = &e.textures[i];
		if (t->image != x->image) {
			snprintf(what, sizeof(what), "texture unit %d bound to image %d (the "
				 "material's is %d on unit 0)", i, (int)t->image,
				 (int)e.textures[0].image);
			return refuse(err, draw, pipeline, what);
		}
		if (t->image < 0)
			continue;
		if (t->image >= (int32_t)r->image_count)
			return tsr_error_set(err, TSR_ERR_INTERNAL,
					     "draw %u: texture unit %d names an image that does "
					     "not exist", draw, i);
		if (t->wrap_s != x->wrap_s || t->wrap_t != x->wrap_t) {
			snprintf(what, sizeof(what), "texture unit %d wraps '%s', '%s'", i,
				 NAME(wrap_names, t->wrap_s), NAME(wrap_names, t->wrap_t));
			return refuse(err, draw, pipeline, what);
		}
		if (t->min_filter != x->min_filter || t->mag_filter != x->mag_filter) {
			snprintf(what, sizeof(what), "texture unit %d filters min '%s', mag '%s'",
				 i, NAME(filter_names, t->min_filter),
				 NAME(filter_names, t->mag_filter));
			return refuse(err, draw, pipeline, what);
		}
	}
	if (s->framebuffer.color != fb.color || s->framebuffer.depth != fb.depth)
		return refuse(err, draw, pipeline,
			      "a framebuffer other than its pass's (a framebuffer change starts "
			      "a new pass)");
	if (s->discard != e.discard || (s->discard && s->alpha_cutoff != e.alpha_cutoff))
		return refuse(err, draw, pipeline,
			      "a fragment discard other than the material's alpha test");
	return TSR_OK;
}

enum tsr_status tsr_draw_state_check_program(const struct tsr_draw_state *s, const char *pipeline,
					     uint32_t draw, const struct tsr_resources *r,
					     const struct tsr_cmd_program *prog, uint32_t material,
					     struct tsr_framebuffer_state fb, struct tsr_error *err)
{
	if (material >= r->material_count || !prog->vertex || !prog->fragment)
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "program draw %u names no material or lacks a stage", draw);
	if (!enums_valid(s))
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "draw %u: a state value is out of its enum's range", draw);
	if (prog->attrib_count > TSR_SHADER_MAX_ATTRIBS ||
	    prog->varying_slots > TSR_SHADER_MAX_VARYINGS ||
	    (prog->index_bytes && (prog->index_buffer >= r->mesh_count ||
				   !r->meshes[prog->index_buffer].raw_bytes)))
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "program draw %u: attributes, varyings or index buffer out of "
				     "range", draw);
	for (uint32_t a = 0; a < prog->attrib_count; a++) {
		const struct tsr_cmd_attrib *x = &prog->attribs[a];
		if (x->data && (x->buffer >= r->mesh_count || !r->meshes[x->buffer].raw_bytes ||
				x->type >= TSR_ATTRIB_TYPE_COUNT || x->components < 1 ||
				x->components > 4 || x->stride == 0))
			return tsr_error_set(err, TSR_ERR_INTERNAL,
					     "program draw %u: vertex attribute %u is malformed", draw,
					     a);
	}
	for (int u = 0; u < TSR_SHADER_MAX_TEXTURE_UNITS; u++) {
		const int32_t im = prog->textures[u];
		if (im < 0)
			continue;
		if ((int64_t)im + (prog->cube[u] ? 6 : 1) > (int64_t)r->image_count)
			return tsr_error_set(err, TSR_ERR_INTERNAL,
					     "draw %u: texture unit %d names an image that does not "
					     "exist", draw, u);
	}
	/* every filter and wrap of every unit: implemented whole (texture/texture.c) */
	if (s->framebuffer.color != fb.color || s->framebuffer.depth != fb.depth)
		return refuse(err, draw, pipeline,
			      "a framebuffer other than its pass's (a framebuffer change starts "
			      "a new pass)");
	return TSR_OK;
}

enum tsr_status tsr_clear_state_check(const struct tsr_clear_state *c, const char *pipeline,
				      uint32_t pass, struct tsr_error *err)
{
	const char *what = NULL;
	/* color: cleared, loaded or invalidated, all implemented; stencil:
	 * cleared (any value) or invalidated, and loaded only by a pass none
	 * of whose draws tests it (tsr_gpu_check_passes()) */
	if (!(c->mask & TSR_CLEAR_DEPTH) && !(c->invalidate & TSR_CLEAR_DEPTH))
		what = "a depth buffer loaded from memory (not cleared nor invalidated: no pass "
		       "stores its depth)";
	else if (c->scissored)
		what = "a scissored clear";
	else if ((c->mask & TSR_CLEAR_DEPTH) && c->depth != 1.0f)
		what = "a depth clear value other than 1.0";
	if (!what)
		return TSR_OK;
	return tsr_error_set(err, TSR_ERR_UNSUPPORTED,
			     "pass %u: %s is not supported by the %s pipeline yet", pass, what,
			     pipeline);
}
