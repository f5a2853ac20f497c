#include "geometry/geometry.h"

#include "core/array.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct clip_vertex {
	float p[4];          /* clip-space position */
	float u, v, shade;
};

struct tsr_geometry {
	struct tsr_geometry_config cfg;
	uint32_t ptc_entries;
	uint32_t *ptc;       /* FIFO of shaded vertex indices */
	uint32_t ptc_next, ptc_fill;
	struct clip_vertex *shaded; /* per vertex of the current mesh */
	uint32_t shaded_cap;
	uint64_t vertices_shaded;   /* in this frame, picks the core */
};

enum tsr_status tsr_geometry_create(const struct tsr_geometry_config *cfg,
				    struct tsr_geometry **out,
				    struct tsr_error *err)
{
	struct tsr_geometry *g = calloc(1, sizeof(*g));
	if (!g)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	g->cfg = *cfg;
	g->ptc_entries = cfg->post_transform_cache_entries;
	if (g->ptc_entries) {
		g->ptc = calloc(g->ptc_entries, sizeof(*g->ptc));
		if (!g->ptc) {
			free(g);
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
		}
	}
	*out = g;
	return TSR_OK;
}

void tsr_geometry_destroy(struct tsr_geometry *g)
{
	if (!g)
		return;
	free(g->ptc);
	free(g->shaded);
	free(g);
}

void tsr_geometry_begin_frame(struct tsr_geometry *g)
{
	g->vertices_shaded = 0;
}

void tsr_prim_array_release(struct tsr_prim_array *a)
{
	free(a->prims);
	a->prims = NULL;
	a->count = a->capacity = 0;
}

static int ptc_lookup(struct tsr_geometry *g, uint32_t idx)
{
	for (uint32_t i = 0; i < g->ptc_fill; i++)
		if (g->ptc[i] == idx)
			return 1;
	return 0;
}

static void ptc_insert(struct tsr_geometry *g, uint32_t idx)
{
	if (!g->ptc_entries)
		return;
	g->ptc[g->ptc_next] = idx;
	g->ptc_next = (g->ptc_next + 1) % g->ptc_entries;
	if (g->ptc_fill < g->ptc_entries)
		g->ptc_fill++;
}

/* Vertex shader (functional): clip position, texcoord, lighting. */
static void shade_vertex(const struct tsr_draw *d, uint32_t i,
			 struct clip_vertex *o)
{
	static const float light[3] = {0.3713907f, 0.7427814f, 0.557086f};
	const struct tsr_mesh *m = d->mesh;
	const float *p = &m->positions[3 * (size_t)i];
	struct tsr_vec4 c = tsr_m4_apply(&d->mvp, p[0], p[1], p[2], 1.0f);
	o->p[0] = c.x;
	o->p[1] = c.y;
	o->p[2] = c.z;
	o->p[3] = c.w;
	o->u = m->texcoords ? m->texcoords[2 * (size_t)i] : 0.0f;
	o->v = m->texcoords ? m->texcoords[2 * (size_t)i + 1] : 0.0f;
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
}

/*
 * Signed distance of a clip vertex to plane k (inside when >= 0): near,
 * far, then x and y widened by `guard` (1: the frustum itself).
 */
static float plane_dist(const struct clip_vertex *v, int k, float guard)
{
	switch (k) {
	case 0: return v->p[2] + v->p[3];            /* near: z >= -w */
	case 1: return v->p[3] - v->p[2];            /* far: z <= w */
	case 2: return guard * v->p[3] - v->p[0];    /* x <= guard w */
	case 3: return guard * v->p[3] + v->p[0];    /* x >= -guard w */
	case 4: return guard * v->p[3] - v->p[1];
	default: return guard * v->p[3] + v->p[1];
	}
}

static struct clip_vertex lerp_cv(const struct clip_vertex *a,
				  const struct clip_vertex *b, float t)
{
	struct clip_vertex r;
	for (int i = 0; i < 4; i++)
		r.p[i] = a->p[i] + (b->p[i] - a->p[i]) * t;
	r.u = a->u + (b->u - a->u) * t;
	r.v = a->v + (b->v - a->v) * t;
	r.shade = a->shade + (b->shade - a->shade) * t;
	return r;
}

#define MAX_CLIP_VERTS 12

/* Clips a polygon against the near, far and guard-band planes. */
static uint32_t clip_polygon(struct clip_vertex *poly, uint32_t n)
{
	struct clip_vertex tmp[MAX_CLIP_VERTS];
	for (int k = 0; k < 6 && n >= 3; k++) {
		uint32_t m = 0;
		for (uint32_t i = 0; i < n; i++) {
			const struct clip_vertex *a = &poly[i], *b = &poly[(i + 1) % n];
			float da = plane_dist(a, k, TSR_GUARD_BAND), db = plane_dist(b, k, TSR_GUARD_BAND);
			if (da >= 0.0f && m < MAX_CLIP_VERTS)
				tmp[m++] = *a;
			if ((da >= 0.0f) != (db >= 0.0f) && m < MAX_CLIP_VERTS)
				tmp[m++] = lerp_cv(a, b, da / (da - db));
		}
		memcpy(poly, tmp, m * sizeof(*tmp));
		n = m;
	}
	return n;
}

static enum tsr_status push_prim(struct tsr_prim_array *out,
				 struct tsr_primitive **p,
				 struct tsr_error *err)
{
	struct tsr_primitive *n = tsr_array_grow(out->prims, &out->capacity,
						 out->count + 1, sizeof(*n));
	if (!n)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for primitives");
	out->prims = n;
	*p = &out->prims[out->count];
	return TSR_OK;
}

/* Viewport transform, setup checks and culling of one clipped triangle. */
static enum tsr_status emit_triangle(const struct tsr_geometry *g,
				     const struct tsr_draw *d,
				     const struct clip_vertex *cv[3],
				     struct tsr_prim_array *out,
				     struct tsr_geometry_stats *st,
				     struct tsr_error *err)
{
	struct tsr_primitive *p = NULL;
	enum tsr_status s = push_prim(out, &p, err);
	if (s != TSR_OK)
		return s;
	const float W = (float)g->cfg.width, H = (float)g->cfg.height;
	const float sub = (float)(1 << TSR_SUBPIXEL_BITS);
	for (int i = 0; i < 3; i++) {
		float iw = 1.0f / cv[i]->p[3];
		float sx = (cv[i]->p[0] * iw * 0.5f + 0.5f) * W;
		float sy = (0.5f - cv[i]->p[1] * iw * 0.5f) * H;
		p->X[i] = (int64_t)llroundf(sx * sub);
		p->Y[i] = (int64_t)llroundf(sy * sub);
		float z = cv[i]->p[2] * iw * 0.5f + 0.5f;
		p->z[i] = z < 0.0f ? 0.0f : (z > 1.0f ? 1.0f : z);
		p->inv_w[i] = iw;
		p->u[i] = cv[i]->u;
		p->v[i] = cv[i]->v;
		p->shade[i] = cv[i]->shade;
	}
	int64_t area2 = (p->X[1] - p->X[0]) * (p->Y[2] - p->Y[0]) -
			(p->Y[1] - p->Y[0]) * (p->X[2] - p->X[0]);
	if (area2 == 0) {
		st->primitives_culled++;
		return TSR_OK;
	}
	/* y points down: counter-clockwise in NDC (front) has area2 < 0 */
	int front = area2 < 0;
	if (!front && !d->material->double_sided) {
		st->primitives_culled++;
		return TSR_OK;
	}
	if (area2 < 0) {
		/* swap vertices 1 and 2 so that area2 > 0 */
#define SWAP(T, a, b) do { T t_ = (a); (a) = (b); (b) = t_; } while (0)
		SWAP(int64_t, p->X[1], p->X[2]);
		SWAP(int64_t, p->Y[1], p->Y[2]);
		SWAP(float, p->z[1], p->z[2]);
		SWAP(float, p->inv_w[1], p->inv_w[2]);
		SWAP(float, p->u[1], p->u[2]);
		SWAP(float, p->v[1], p->v[2]);
		SWAP(float, p->shade[1], p->shade[2]);
#undef SWAP
		area2 = -area2;
	}
	p->area2 = area2;
	if (!tsr_primitive_bbox(p, g->cfg.width, g->cfg.height)) {
		st->primitives_culled++;  /* covers no pixel centre on screen */
		return TSR_OK;
	}
	p->material = d->material_index;
	p->draw = d->draw_id;
	p->pb_addr = 0;
	p->attributes = 1 + d->material->varyings;
	out->count++;
	return TSR_OK;
}

enum tsr_status tsr_geometry_draw(struct tsr_geometry *g,
				  const struct tsr_draw *d,
				  struct tsr_memsys *mem,
				  struct tsr_prim_array *out,
				  struct tsr_geometry_stats *st,
				  struct tsr_error *err)
{
	const struct tsr_mesh *m = d->mesh;
	const uint32_t iport = tsr_memsys_port(mem, TSR_STREAM_INDEX, 0);
	const uint32_t vport = tsr_memsys_port(mem, TSR_STREAM_VERTEX, 0);
	const uint32_t cores = g->cfg.cores;
	if (m->vertex_count > g->shaded_cap) {
		struct clip_vertex *n = realloc(g->shaded, m->vertex_count * sizeof(*n));
		if (!n)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for vertices");
		g->shaded = n;
		g->shaded_cap = m->vertex_count;
	}
	st->draws++;
	g->ptc_fill = g->ptc_next = 0;
	for (uint32_t i = 0; i < m->index_count; i++) {
		uint32_t idx = m->indices[i];
		tsr_mem_access(mem, iport, d->ib_base + (uint64_t)i * d->index_bytes,
			       d->index_bytes, 0, TSR_STREAM_INDEX, 0, 0, NULL);
		st->indices_fetched++;
		if (!ptc_lookup(g, idx)) {
			uint32_t core = (uint32_t)((g->vertices_shaded / 4) % cores);
			tsr_mem_access(mem, vport, d->vb_base + (uint64_t)idx * TSR_VERTEX_STRIDE,
				       TSR_VERTEX_STRIDE, 0, TSR_STREAM_VERTEX, 0, 0, NULL);
			tsr_mem_access(mem, tsr_memsys_port(mem, TSR_STREAM_INSTRUCTION, core),
				       d->vs_base, d->vs_bytes, 0, TSR_STREAM_INSTRUCTION,
				       (uint16_t)core, 0, NULL);
			shade_vertex(d, idx, &g->shaded[idx]);
			ptc_insert(g, idx);
			st->vertices_fetched++;
			g->vertices_shaded++;
		}
		if (i % 3 != 2)
			continue;
		/* primitive assembly: a triangle list, in program order */
		st->primitives_in++;
		const struct clip_vertex *tri[3] = {&g->shaded[m->indices[i - 2]],
						    &g->shaded[m->indices[i - 1]],
						    &g->shaded[idx]};
		int outside = 0, needs_clip = 0;
		for (int k = 0; k < 6 && !outside; k++) {
			int out_count = 0;
			for (int j = 0; j < 3; j++) {
				if (plane_dist(tri[j], k, 1.0f) < 0.0f)
					out_count++;
				if (plane_dist(tri[j], k, TSR_GUARD_BAND) < 0.0f)
					needs_clip = 1;
			}
			outside = out_count == 3;
		}
		if (outside) {
			st->primitives_culled++;
			continue;
		}
		enum tsr_status s;
		if (!needs_clip) {
			s = emit_triangle(g, d, tri, out, st, err);
			if (s != TSR_OK)
				return s;
			continue;
		}
		st->primitives_clipped++;
		struct clip_vertex poly[MAX_CLIP_VERTS] = {*tri[0], *tri[1], *tri[2]};
		uint32_t n = clip_polygon(poly, 3);
		if (n < 3) {
			st->primitives_culled++;
			continue;
		}
		for (uint32_t k = 1; k + 1 < n; k++) {
			const struct clip_vertex *fan[3] = {&poly[0], &poly[k], &poly[k + 1]};
			s = emit_triangle(g, d, fan, out, st, err);
			if (s != TSR_OK)
				return s;
		}
	}
	return TSR_OK;
}
