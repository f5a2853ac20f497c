/*
 * vertex_shader.c - vertex shading on the unified shader cores (TCOR
 * II-A): groups of 4 vertices go round-robin to the cores; shading a
 * vertex fetches the vertex shader's instructions through the instruction
 * cache of its core (stream "instruction") and computes the clip-space
 * position, the texture coordinates, per-vertex lighting (one fixed
 * directional light, README) and the vertex's clip codes (clip.c). A post-transform-cache hit passes through
 * with the vertex shaded earlier in the draw call, so the shaded vertices
 * leave in program order. Work item: a vertex in, a shaded vertex out.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <xmmintrin.h>
#endif

#include "geometry/geometry_priv.h"

/*
 * Stores v at o as two 16-byte halves (SSE2; else a plain copy): the
 * Vertex Shader's output is copied on at once in 16-byte halves, and the
 * host forwards a store to a load of the same width only (a copy of
 * field-by-field stores would wait for them to reach the cache).
 */
_Static_assert(offsetof(struct tsr_clip_vertex, u) == 16 &&
		       offsetof(struct tsr_clip_vertex, codes) == 28 &&
		       offsetof(struct tsr_clip_vertex, sx) == 32 &&
		       offsetof(struct tsr_clip_vertex, iw) == 44 &&
		       sizeof(struct tsr_clip_vertex) == 48,
	       "store_vertex writes p; u, v, shade and codes; sx, sy, z and iw: three 16-byte parts");

static inline void store_vertex(struct tsr_clip_vertex *o, const struct tsr_clip_vertex *v)
{
#ifdef __SSE2__
	float codes, sx, sy;
	memcpy(&codes, &v->codes, sizeof(codes));
	memcpy(&sx, &v->sx, sizeof(sx));
	memcpy(&sy, &v->sy, sizeof(sy));
	_mm_storeu_ps(o->p, _mm_setr_ps(v->p[0], v->p[1], v->p[2], v->p[3]));
	_mm_storeu_ps(&o->u, _mm_setr_ps(v->u, v->v, v->shade, codes));
	_mm_storeu_ps((float *)&o->sx, _mm_setr_ps(sx, sy, v->z, v->iw));
#else
	*o = *v;
#endif
}

/* Vertex shader (functional): clip position, texcoord, lighting. */
static void shade_vertex(const struct tsr_geometry *g, uint32_t i, struct tsr_clip_vertex *out)
{
	const struct tsr_draw *d = &g->draw;
	static const float light[3] = {0.3713907f, 0.7427814f, 0.557086f};
	struct tsr_clip_vertex r, *o = &r;
	const struct tsr_mesh *m = d->mesh;
	const float *p = &m->positions[3 * (size_t)i];
	struct tsr_vec4 c = tsr_m4_apply(&d->mvp, p[0], p[1], p[2], 1.0f);
	o->p[0] = c.x;
	o->p[1] = c.y;
	o->p[2] = c.z;
	o->p[3] = c.w;
	o->u = (m->texcoords ? m->texcoords[2 * (size_t)i] : 0.0f) + d->uv_offset[0];
	o->v = (m->texcoords ? m->texcoords[2 * (size_t)i + 1] : 0.0f) + d->uv_offset[1];
	o->shade = 1.0f;
	if (d->material->lit && m->normals) {
		const float *n = &m->normals[3 * (size_t)i];
		struct tsr_vec4 nw = tsr_m4_apply(&d->model, n[0], n[1], n[2], 0.0f);
		struct tsr_vec3 nn = tsr_v3_norm(tsr_v3(nw.x, nw.y, nw.z));
		float ndl = nn.x * light[0] + nn.y * light[1] + nn.z * light[2];
		if (d->material->double_sided && ndl < 0.0f)
			ndl = -ndl;
		o->shade = 0.35f + 0.65f * (ndl > 0.0f ? ndl : 0.0f);
	}
	o->codes = tsr_geo_clip_codes(o);
	tsr_geo_viewport(g, o);
	store_vertex(out, o);
}

/* An IEEE binary16 value h as a float (exact: every half is a float);
 * GL_OES_vertex_half_float's 2.1.2: subnormals, infinities and NaNs too. */
static float half_to_float(uint16_t h)
{
	const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
	const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
	float f;
	if (e == 0) {               /* zero or subnormal: m * 2^-24 */
		f = (float)m * (1.0f / 16777216.0f);
		return sign ? -f : f;
	}
	uint32_t bits = e == 31 ? sign | 0x7f800000u | (m << 13)
				: sign | ((e + 112u) << 23) | (m << 13);
	memcpy(&f, &bits, 4);
	return f;
}

/* One component of an attribute array's element as a float (GL ES 2.0
 * 2.1.2 and table 2.7: normalized signed c / (2^b - 1) ... as (2c + 1) /
 * (2^b - 1) for GL ES 2.0; FIXED is 16.16; HALF_FLOAT_OES binary16, never
 * normalized). */
static float attrib_component(const uint8_t *p, uint8_t type, uint8_t normalized)
{
	switch (type) {
	case TSR_ATTRIB_BYTE: {
		int8_t c;
		memcpy(&c, p, 1);
		return normalized ? (2.0f * c + 1.0f) / 255.0f : (float)c;
	}
	case TSR_ATTRIB_UBYTE:
		return normalized ? (float)p[0] / 255.0f : (float)p[0];
	case TSR_ATTRIB_SHORT: {
		int16_t c;
		memcpy(&c, p, 2);
		return normalized ? (2.0f * c + 1.0f) / 65535.0f : (float)c;
	}
	case TSR_ATTRIB_USHORT: {
		uint16_t c;
		memcpy(&c, p, 2);
		return normalized ? (float)c / 65535.0f : (float)c;
	}
	case TSR_ATTRIB_FIXED: {
		int32_t c;
		memcpy(&c, p, 4);
		return (float)c / 65536.0f;
	}
	case TSR_ATTRIB_HALF_FLOAT: {
		uint16_t c;
		memcpy(&c, p, 2);
		return half_to_float(c);
	}
	default: {
		float c;
		memcpy(&c, p, 4);
		return c;
	}
	}
}

static const uint8_t type_bytes[TSR_ATTRIB_TYPE_COUNT] = {1, 1, 2, 2, 4, 4, 2};

int tsr_geo_vary_reserve(struct tsr_geometry *g, uint64_t entries)
{
	const uint64_t floats = entries * g->vary_floats;
	if (floats <= g->vary_cap)
		return 0;
	uint64_t cap = g->vary_cap ? g->vary_cap : 1024;
	while (cap < floats)
		cap *= 2;
	if (cap > UINT32_MAX)
		return -1;
	float *v = realloc(g->vary, (size_t)cap * sizeof(float));
	if (!v)
		return -1;
	g->vary = v;
	g->vary_cap = (uint32_t)cap;
	return 0;
}

/* Lane l of a program draw's vertex shading inputs: the attributes of
 * vertex i converted to floats (missing components 0, 0, 0, 1). */
static void program_inputs(struct tsr_geometry *g, uint32_t i, uint32_t l)
{
	const struct tsr_vertex_input *in = g->draw.input;
	for (uint32_t a = 0; a < in->attrib_count; a++) {
		const struct tsr_vertex_stream *s = &in->attribs[a];
		float *dst = g->vs_in.attribs[l][a];
		if (!s->data) {
			memcpy(dst, s->value, sizeof(s->value));
			continue;
		}
		const uint8_t *e = s->data + (size_t)i * s->stride;
		const uint32_t tb = type_bytes[s->type];
		dst[0] = 0.0f;
		dst[1] = 0.0f;
		dst[2] = 0.0f;
		dst[3] = 1.0f;
		for (uint32_t c = 0; c < s->components; c++)
			dst[c] = attrib_component(e + c * tb, s->type, s->normalized);
	}
}

/* Vertex i's shaded vertex from lane l of the vertex program's outputs:
 * the position clip-coded and transformed, the varyings into entry i. */
static void program_outputs(struct tsr_geometry *g, uint32_t i, const struct tsr_vs_out *out,
			    uint32_t l)
{
	struct tsr_clip_vertex *o = &g->shaded[i];
	memcpy(o->p, out->position[l], sizeof(o->p));
	o->psize = out->point_size[l];
	o->vary = i;
	float *v = g->vary + (size_t)i * g->vary_floats;
	memcpy(v, out->varyings[l], g->vary_floats * sizeof(float));
	o->codes = tsr_geo_clip_codes(o);
	tsr_geo_viewport(g, o);
}

/* indices past the current one searched for vertices to shade with it */
#define TSR_GEO_VS_LOOKAHEAD 32u

/*
 * A program draw's vertex shading of vertex i into g->shaded[i]. A
 * straight program (tsr_shader_exec_straight) runs four vertices at a
 * time, as a GPU's vertex warp does: vertex i and the next vertices the
 * draw's indices name that are not shaded yet; theirs wait in g->shaded
 * until the vertex shader reaches them and then costs nothing more. Each
 * vertex still counts its instructions when reached, and the accesses and
 * their order are those of shading vertex by vertex: such a program
 * touches no memory and its counts do not depend on its lanes. Other
 * programs run vertex by vertex.
 */
static void shade_program_vertex(struct tsr_geometry *g, uint32_t i)
{
	struct tsr_shader_exec *prog = g->draw.input->program;
	struct tsr_shader_counts n = {0};
	struct tsr_vs_out out;
	/* the varying slots no output of the program writes are 0, not the
	 * stack's bytes: the shaded vertices' varyings go into Rendering
	 * Elimination's signatures, which must be a function of the commands */
	for (uint32_t l = 0; l < 4; l++)
		memset(out.varyings[l], 0, g->vary_floats * sizeof(float));
	if (!g->vs_straight) {
		program_inputs(g, i, 0);
		tsr_shader_exec_vertices(prog, &g->vs_in, 1, &out, &n);
		g->st->vertex_instructions += n.instructions;
		program_outputs(g, i, &out, 0);
		return;
	}
	if (!g->vs_done[i]) {
		const struct tsr_mesh *m = g->draw.mesh;
		uint32_t batch[4] = {i}, nv = 1;
		g->vs_done[i] = 1;
		uint32_t end = g->next_index + TSR_GEO_VS_LOOKAHEAD;
		if (end > m->index_count)
			end = m->index_count;
		for (uint32_t k = g->next_index; k < end && nv < 4; k++) {
			const uint32_t w = m->indices[k];
			if (w < m->vertex_count && !g->vs_done[w]) {
				g->vs_done[w] = 1;
				batch[nv++] = w;
			}
		}
		for (uint32_t l = 0; l < nv; l++)
			program_inputs(g, batch[l], l);
		tsr_shader_exec_vertices(prog, &g->vs_in, nv, &out, &n);
		g->vs_run_instructions = n.instructions;
		for (uint32_t l = 0; l < nv; l++)
			program_outputs(g, batch[l], &out, l);
	}
	g->st->vertex_instructions += g->vs_run_instructions;
}

enum tsr_status tsr_geo_vs_begin(struct tsr_geometry *g, struct tsr_error *err)
{
	const uint32_t n = g->draw.mesh->vertex_count;
	if (n > g->shaded_cap) {
		struct tsr_clip_vertex *v = realloc(g->shaded, n * sizeof(*v));
		if (!v)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for vertices");
		g->shaded = v;
		uint8_t *done = realloc(g->vs_done, n);
		if (!done)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for vertices");
		g->vs_done = done;
		g->shaded_cap = n;
	}
	g->vary_count = 0;
	g->vary_failed = 0;
	if (g->draw.input) {
		const uint32_t slots = g->draw.input->varying_slots;
		g->vary_floats = 4 * (slots ? slots : 1);
		/* the vertices', then room for the Clipper's (grown as it needs) */
		if (tsr_geo_vary_reserve(g, (uint64_t)n + 64) != 0)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for varyings");
		g->vary_count = n;
		memset(&g->vs_in, 0, sizeof(g->vs_in));
		g->vs_straight = tsr_shader_exec_straight(g->draw.input->program);
		if (g->vs_straight)
			memset(g->vs_done, 0, n);
	}
	return TSR_OK;
}

void tsr_geo_vs_shade(struct tsr_geometry *g, uint32_t vertex)
{
	const struct tsr_draw *d = &g->draw;
	/* (vertices shaded in the frame / 4) mod cores, without dividing */
	const uint32_t core = g->shading_core;
	if (++g->shading_group_fill == 4) {
		g->shading_group_fill = 0;
		if (++g->shading_core == g->cfg.cores)
			g->shading_core = 0;
	}
	tsr_mem_access(g->mem, g->instruction_port[core], d->vs_base, d->vs_bytes, 0, TSR_STREAM_INSTRUCTION,
		       (uint16_t)core, 0, NULL);
	if (d->input) {
		shade_program_vertex(g, vertex);
		return;
	}
	g->st->vertex_instructions += d->material->vertex_shader_instructions;
	shade_vertex(g, vertex, &g->shaded[vertex]);
}

void tsr_geo_vs_step(struct tsr_geometry *g)
{
	struct tsr_ring *in = &g->queue[TSR_GEO_VERTEX_SHADER];
	const struct tsr_geo_vertex_item it = *(const struct tsr_geo_vertex_item *)tsr_ring_front(in);
	tsr_ring_pop(in);
	if (!it.hit)
		tsr_geo_vs_shade(g, it.vertex);
	struct tsr_geo_shaded_item *o = tsr_ring_push(&g->queue[TSR_GEO_ASSEMBLY]);
	o->v = g->shaded[it.vertex];
}
