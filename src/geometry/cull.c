/*
 * cull.c - Culling and the viewport transform (TCOR II-A): a clip-space
 * triangle is projected to the screen in 1/2^TSR_SUBPIXEL_BITS pixel
 * fixed point with its window depth and perspective-correct varyings;
 * zero-area triangles, the faces the draw's cull state culls (GL ES
 * CULL_FACE, CULL_FACE_MODE and FRONT_FACE: command/state.h; the workload
 * frontend culls back faces, counter-clockwise in front, unless the
 * material is double-sided) and triangles that cover no pixel centre are
 * culled. Work item: a triangle in, a
 * screen-space primitive (geometry/primitive.h) appended to the frame's
 * primitives, or nothing.
 */
#include <math.h>
#include <string.h>

#include "core/array.h"
#include "geometry/geometry_priv.h"

/*
 * Bound on a vertex's screen coordinates in subpixels (2^29, i.e. 2^21
 * pixels): edge functions take products of two coordinate differences
 * (< 2^30 each), which then stay below 2^61 in int64. The guard band of a
 * 16384-pixel screen reaches 9 * 2^14 * 2^8 < 2^26 subpixels.
 */
#define TSR_SCREEN_COORD_LIMIT 536870912.0f

/*
 * llroundf(x) for |x| <= TSR_SCREEN_COORD_LIMIT (2^29), without the libm
 * call: truncation, then one step away from zero when the fraction (x less
 * its truncation, exact: the fraction's bits are x's own) is at least a half.
 */
static inline int64_t round_half_away(float x)
{
	int64_t i = (int64_t)x;
	float d = x - (float)i;
	return i + (d >= 0.5f) - (d <= -0.5f);
}

static enum tsr_status push_prim(struct tsr_prim_array *out, struct tsr_primitive **p,
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

void tsr_geo_viewport(const struct tsr_geometry *g, struct tsr_clip_vertex *v)
{
	/* GL ES 2.0 2.12: x_w = (x_d + 1) w / 2 + x; y the same from the
	 * target's bottom (window rows run down: the viewport's top row is
	 * height - y - h); z_w = z_d (f - n) / 2 + (n + f) / 2 */
	const struct tsr_viewport_state *vp = &g->draw.viewport;
	const float W = (float)vp->width, H = (float)vp->height;
	const float X0 = (float)vp->x;
	const float Y0 = (float)((int64_t)g->cfg.height - vp->y - (int64_t)vp->height);
	const float zs = (vp->depth_far - vp->depth_near) * 0.5f;
	const float zo = (vp->depth_near + vp->depth_far) * 0.5f;
	const float sub = (float)(1 << TSR_SUBPIXEL_BITS);
	float iw = 1.0f / v->p[3];
	float sx = ((v->p[0] * iw * 0.5f + 0.5f) * W + X0) * sub;
	float sy = ((0.5f - v->p[1] * iw * 0.5f) * H + Y0) * sub;
	/*
	 * The clipper keeps vertices within the guard band, but w = 0 on the
	 * near/far planes' edge, or huge model coordinates that overflowed to
	 * infinity or NaN in the transforms, get past it: a triangle with such
	 * a vertex is culled, before the float-to-int conversion (undefined
	 * when out of range) and before the int64 edge products (exact when
	 * |X|, |Y| <= TSR_SCREEN_COORD_LIMIT, which int32 holds).
	 */
	if (!(fabsf(sx) <= TSR_SCREEN_COORD_LIMIT) || !(fabsf(sy) <= TSR_SCREEN_COORD_LIMIT) ||
	    !isfinite(iw)) {
		v->codes |= TSR_GEO_UNPROJECTED;
		v->sx = v->sy = 0;
		v->z = v->iw = 0.0f;
		return;
	}
	v->sx = (int32_t)round_half_away(sx);
	v->sy = (int32_t)round_half_away(sy);
	float z = v->p[2] * iw * zs + zo;
	v->z = z < 0.0f ? 0.0f : (z > 1.0f ? 1.0f : z);
	v->iw = iw;
}

/*
 * POLYGON_OFFSET_FILL (GL ES 2.0 3.5.2): every depth of p moves by
 * o = m * factor + r * units, m the largest of |dz/dx| and |dz/dy| of the
 * triangle's plane in pixels, r the smallest resolvable depth difference
 * (TSR_DEPTH_RESOLUTION: a 24-bit depth buffer's, as mobile GPUs' D24),
 * o limited to clamp when clamp is not 0 (GL_EXT_polygon_offset_clamp:
 * min(o, clamp) for clamp > 0, max(o, clamp) for clamp < 0), then each
 * depth is clamped to [0, 1].
 */
static void polygon_offset(struct tsr_primitive *p, const struct tsr_polygon_offset_state *po)
{
	const double sub = (double)(1 << TSR_SUBPIXEL_BITS);
	const double x1 = (double)(p->X[1] - p->X[0]) / sub, y1 = (double)(p->Y[1] - p->Y[0]) / sub;
	const double x2 = (double)(p->X[2] - p->X[0]) / sub, y2 = (double)(p->Y[2] - p->Y[0]) / sub;
	const double z1 = (double)p->z[1] - p->z[0], z2 = (double)p->z[2] - p->z[0];
	const double a = x1 * y2 - x2 * y1;  /* twice the area, pixels (not 0: culled before) */
	const double dzdx = (z1 * y2 - z2 * y1) / a, dzdy = (x1 * z2 - x2 * z1) / a;
	const double m = fabs(dzdx) > fabs(dzdy) ? fabs(dzdx) : fabs(dzdy);
	double o = m * po->factor + TSR_DEPTH_RESOLUTION * po->units;
	if (po->clamp > 0.0f && o > po->clamp)
		o = po->clamp;
	else if (po->clamp < 0.0f && o < po->clamp)
		o = po->clamp;
	for (int i = 0; i < 3; i++) {
		const double z = (double)p->z[i] + o;
		p->z[i] = z < 0.0 ? 0.0f : (z > 1.0 ? 1.0f : (float)z);
	}
}

enum tsr_status tsr_geo_cull_triangle(struct tsr_geometry *g,
				      const struct tsr_clip_vertex *const cv[3],
				      struct tsr_error *err)
{
	const struct tsr_draw *d = &g->draw;
	struct tsr_geometry_stats *st = g->st;
	struct tsr_primitive *p = NULL;
	TSR_TRY(push_prim(g->out, &p, err));
	for (int i = 0; i < 3; i++) {
		if (cv[i]->codes & TSR_GEO_UNPROJECTED) {
			st->primitives_culled++;
			return TSR_OK;
		}
		p->X[i] = cv[i]->sx;
		p->Y[i] = cv[i]->sy;
		p->z[i] = cv[i]->z;
		p->inv_w[i] = cv[i]->iw;
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
	/* y points down: counter-clockwise in NDC has area2 < 0, front unless
	 * the front face is clockwise (GL ES FRONT_FACE) */
	/* a point's or a line's triangles are never culled and face the front */
	const uint8_t kind = g->expand_kind;
	const int front = kind || (area2 < 0) != (d->cull.front_face == TSR_FRONT_CW);
	if (!kind && d->cull.enable && (d->cull.face == TSR_CULL_FRONT_AND_BACK ||
			       front == (d->cull.face == TSR_CULL_FRONT))) {
		st->primitives_culled++;
		return TSR_OK;
	}
	const int cv_swapped = area2 < 0;
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
	if (d->polygon_offset.enable && !kind)
		polygon_offset(p, &d->polygon_offset);
	if (!tsr_primitive_bbox(p, g->cfg.width, g->cfg.height)) {
		st->primitives_culled++;  /* covers no pixel centre on screen */
		return TSR_OK;
	}
	p->material = d->material_index;
	p->draw = d->draw_id;
	p->pb_addr = 0;
	p->attributes = 1 + d->material->varyings;
	p->varyings = NULL;
	p->varying_slots = 0;
	p->front_facing = (uint8_t)front;
	p->kind = kind;
	if (kind == TSR_PRIM_KIND_POINT)
		memcpy(p->point, g->expand_point, sizeof(p->point));
	if (d->input) {
		/* the program's varyings, in the primitive's vertex order (its
		 * corners 1 and 2 swapped when area2 was negative) */
		const uint32_t n = g->vary_floats;
		float *v = tsr_vary_alloc(&g->out->vary, 3 * n);
		if (!v)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for varyings");
		const int swapped = cv_swapped;
		for (int i = 0; i < 3; i++) {
			const int src = swapped && i ? 3 - i : i;
			memcpy(v + (size_t)i * n, g->vary + (size_t)cv[src]->vary * n,
			       n * sizeof(float));
		}
		p->varyings = v;
		p->varying_slots = (uint8_t)(n / 4);
		p->attributes = 1 + d->input->varying_slots;
	}
	g->out->count++;
	return TSR_OK;
}

enum tsr_status tsr_geo_cull_step(struct tsr_geometry *g, struct tsr_error *err)
{
	struct tsr_ring *in = &g->queue[TSR_GEO_CULL];
	const struct tsr_geo_triangle_item *t = tsr_ring_front(in);
	/* the item stays valid until the next push to this queue */
	tsr_ring_pop(in);
	const struct tsr_clip_vertex *const v[3] = {&t->v[0], &t->v[1], &t->v[2]};
	return tsr_geo_cull_triangle(g, v, err);
}
