/*
 * clip.c - the Clipper (TCOR II-A): a triangle wholly outside one frustum
 * plane is culled; a triangle inside the guard band (TSR_GUARD_BAND
 * viewports in x and y) and the near and far planes passes unchanged; the
 * others are clipped (Sutherland-Hodgman in clip space) against the near
 * and far planes and the guard band, and the polygon is fanned into
 * triangles. The trivial tests use clip codes computed once per shaded
 * vertex (tsr_geo_clip_codes). Work item: a triangle in, 0 to
 * TSR_GEO_CLIP_MAX_TRIANGLES triangles out.
 */
#include <string.h>
#ifdef __SSE2__
#include <xmmintrin.h>
#endif

#include "geometry/geometry_priv.h"

/*
 * Signed distance of a clip vertex to plane k (inside when >= 0): near,
 * far, then x and y widened by `guard` (1: the frustum itself).
 */
static float plane_dist(const struct tsr_clip_vertex *v, int k, float guard)
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

static struct tsr_clip_vertex lerp_cv(struct tsr_geometry *g,
				      const struct tsr_clip_vertex *a,
				      const struct tsr_clip_vertex *b, float t)
{
	struct tsr_clip_vertex r;
	for (int i = 0; i < 4; i++)
		r.p[i] = a->p[i] + (b->p[i] - a->p[i]) * t;
	if (g->draw.input) {
		/* a program's varyings: a new entry (room reserved), each
		 * component interpolated as the position is, in clip space */
		const uint32_t n = g->vary_floats;
		r.vary = g->vary_count++;
		r.psize = a->psize;
		const float *va = g->vary + (size_t)a->vary * n, *vb = g->vary + (size_t)b->vary * n;
		float *vr = g->vary + (size_t)r.vary * n;
		for (uint32_t i = 0; i < n; i++)
			vr[i] = va[i] + (vb[i] - va[i]) * t;
	} else {
		r.u = a->u + (b->u - a->u) * t;
		r.v = a->v + (b->v - a->v) * t;
		r.shade = a->shade + (b->shade - a->shade) * t;
	}
	r.codes = 0;  /* the fan's vertices go straight to culling */
	tsr_geo_viewport(g, &r);
	return r;
}

/* Clips a polygon against the near, far and guard-band planes. */
static uint32_t clip_polygon(struct tsr_geometry *g, struct tsr_clip_vertex *poly,
			     uint32_t n)
{
	struct tsr_clip_vertex tmp[TSR_GEO_CLIP_MAX_VERTICES];
	for (int k = 0; k < 6 && n >= 3; k++) {
		uint32_t m = 0;
		for (uint32_t i = 0; i < n; i++) {
			const struct tsr_clip_vertex *a = &poly[i], *b = &poly[(i + 1) % n];
			float da = plane_dist(a, k, TSR_GUARD_BAND), db = plane_dist(b, k, TSR_GUARD_BAND);
			if (da >= 0.0f && m < TSR_GEO_CLIP_MAX_VERTICES)
				tmp[m++] = *a;
			if ((da >= 0.0f) != (db >= 0.0f) && m < TSR_GEO_CLIP_MAX_VERTICES)
				tmp[m++] = lerp_cv(g, a, b, da / (da - db));
		}
		memcpy(poly, tmp, m * sizeof(*tmp));
		n = m;
	}
	return n;
}

uint32_t tsr_geo_clip_codes(const struct tsr_clip_vertex *v)
{
	/* plane_dist(v, k, guard) < 0 for each plane (a NaN distance is not
	 * outside), without branches; the near and far planes do not widen,
	 * so their guard-band bits repeat theirs */
	const float x = v->p[0], y = v->p[1], z = v->p[2], w = v->p[3];
	const uint32_t nf = (uint32_t)(z + w < 0.0f) | (uint32_t)(w - z < 0.0f) << 1;
#ifdef __SSE2__
	const __m128 xy = _mm_setr_ps(x, -x, y, -y), zero = _mm_setzero_ps();
	const uint32_t side = (uint32_t)_mm_movemask_ps(
		_mm_cmplt_ps(_mm_sub_ps(_mm_set1_ps(w), xy), zero));
	const uint32_t guard = (uint32_t)_mm_movemask_ps(
		_mm_cmplt_ps(_mm_sub_ps(_mm_set1_ps(TSR_GUARD_BAND * w), xy), zero));
	return nf | side << 2 | nf << 8 | guard << 10;
#else
	const float gw = TSR_GUARD_BAND * w;
	return nf | (uint32_t)(w - x < 0.0f) << 2 | (uint32_t)(w + x < 0.0f) << 3 |
	       (uint32_t)(w - y < 0.0f) << 4 | (uint32_t)(w + y < 0.0f) << 5 |
	       nf << 8 | (uint32_t)(gw - x < 0.0f) << 10 | (uint32_t)(gw + x < 0.0f) << 11 |
	       (uint32_t)(gw - y < 0.0f) << 12 | (uint32_t)(gw + y < 0.0f) << 13;
#endif
}

uint32_t tsr_geo_clip_triangle(struct tsr_geometry *g, const struct tsr_clip_vertex *const v[3],
			       struct tsr_clip_vertex poly[TSR_GEO_CLIP_MAX_VERTICES])
{
	/* outside: all three vertices outside one frustum plane; inside the
	 * guard band: no vertex outside a widened plane */
	const uint32_t all = v[0]->codes & v[1]->codes & v[2]->codes;
	const uint32_t any = v[0]->codes | v[1]->codes | v[2]->codes;
	if (all & 0x3fu) {
		g->st->primitives_culled++;
		return 0;
	}
	if (!(any & 0x3f00u))
		return TSR_GEO_CLIP_PASS;
	g->st->primitives_clipped++;
	/* a program draw: room for the varyings of the vertices clipping
	 * makes (two a plane at most, a convex polygon) */
	if (g->draw.input && tsr_geo_vary_reserve(g, (uint64_t)g->vary_count + 12) != 0) {
		g->vary_failed = 1;
		return 0;
	}
	poly[0] = *v[0];
	poly[1] = *v[1];
	poly[2] = *v[2];
	uint32_t n = clip_polygon(g, poly, 3);
	if (n < 3) {
		g->st->primitives_culled++;
		return 0;
	}
	return n;
}

int tsr_geo_clip_line(struct tsr_geometry *g, const struct tsr_clip_vertex *a,
		      const struct tsr_clip_vertex *b, struct tsr_clip_vertex out[2])
{
	if (a->codes & b->codes & 0x3fu)
		return 0;  /* both ends outside one plane */
	out[0] = *a;
	out[1] = *b;
	if (!((a->codes | b->codes) & 0x3fu))
		return 1;
	/* Liang-Barsky: the part of a + t (b - a), t in [t0, t1], inside
	 * every plane of the frustum */
	float t0 = 0.0f, t1 = 1.0f;
	for (int k = 0; k < 6; k++) {
		const float da = plane_dist(a, k, 1.0f), db = plane_dist(b, k, 1.0f);
		if (da < 0.0f && db < 0.0f)
			return 0;
		if (da < 0.0f) {
			const float t = da / (da - db);
			t0 = t > t0 ? t : t0;
		} else if (db < 0.0f) {
			const float t = da / (da - db);
			t1 = t < t1 ? t : t1;
		}
	}
	if (!(t0 < t1))
		return 0;
	if (g->draw.input && tsr_geo_vary_reserve(g, (uint64_t)g->vary_count + 2) != 0) {
		g->vary_failed = 1;
		return 0;
	}
	if (t0 > 0.0f)
		out[0] = lerp_cv(g, a, b, t0);
	if (t1 < 1.0f)
		out[1] = lerp_cv(g, a, b, t1);
	return 1;
}

void tsr_geo_clip_step(struct tsr_geometry *g)
{
	struct tsr_ring *in = &g->queue[TSR_GEO_CLIP];
	struct tsr_ring *out = &g->queue[TSR_GEO_CULL];
	/* the item stays valid after the pop until the next push to this queue */
	const struct tsr_geo_triangle_item *tri = tsr_ring_front(in);
	tsr_ring_pop(in);
	const struct tsr_clip_vertex *const v[3] = {&tri->v[0], &tri->v[1], &tri->v[2]};
	struct tsr_clip_vertex poly[TSR_GEO_CLIP_MAX_VERTICES];
	const uint32_t n = tsr_geo_clip_triangle(g, v, poly);
	if (n == TSR_GEO_CLIP_PASS) {
		*(struct tsr_geo_triangle_item *)tsr_ring_push(out) = *tri;
		return;
	}
	for (uint32_t k = 1; k + 1 < n; k++) {
		struct tsr_geo_triangle_item *o = tsr_ring_push(out);
		o->v[0] = poly[0];
		o->v[1] = poly[k];
		o->v[2] = poly[k + 1];
	}
}
