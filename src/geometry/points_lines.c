/*
 * points_lines.c - points and lines as triangles (OpenGL ES 2.0.25 3.3,
 * 3.4), made where Primitive Assembly hands them to the Clipper, as the
 * setup units of tile-based GPUs expand them: the rest of the pipeline
 * (clipping against the guard band, culling's setup, the Polygon List
 * Builder's binning, the Parameter Buffer, the Raster Pipeline) sees two
 * triangles per point or segment, and pays for them as for any other two
 * triangles (two primitives binned, 3 vertices' attributes each in the
 * Parameter Buffer, two setups in the rasterizer).
 *
 * A point is clipped by its vertex only (GL ES 2.0 2.13: a point outside
 * the frustum is discarded, one inside is drawn whole): its square, of
 * side gl_PointSize clamped to [1, TSR_POINT_SIZE_MAX] pixels and centred
 * on the vertex's window position, is two triangles at the vertex's depth
 * and 1/w with its varyings at every corner. The rasterizer's
 * pixel-centre coverage with its fill rule (a centre on a shared edge
 * belongs to one side) then covers exactly the pixels whose centres lie
 * inside the square (3.3; a centre on its left or top edge in, on its
 * right or bottom edge out). gl_PointCoord is computed per fragment from
 * the point's position and size kept in the primitive (3.3: s = 1/2 +
 * (x_f + 1/2 - x_w) / size, t = 1/2 - (y_f + 1/2 - y_w) / size: (0, 0) at
 * the top left).
 *
 * A line segment is clipped against the frustum (Liang-Barsky; no guard
 * band), then becomes the parallelogram 3.4.2 allows for wide lines, and
 * 3.4.1 for width 1 (as an approximation of the diamond-exit rule): the
 * segment offset by +-width/2 pixels along its minor axis (y for an
 * x-major segment, |dx| >= |dy|; x otherwise), the width rounded and
 * clamped to [1, TSR_LINE_WIDTH_MAX]. Each column of an x-major segment
 * (row of a y-major one) whose centre lies between its ends then has
 * exactly `width` fragments; the fill rule makes the ends half-open, so
 * connected segments of a strip or loop do not both cover their shared
 * end. Varyings are interpolated perspective-correctly between the ends
 * (the corners carry their end's varyings and 1/w): by the fragment
 * centre's position along the major axis, where 3.4.1 projects it onto
 * the segment (the same at width 1 to within the offset's slope).
 * Neither points nor lines are face culled or polygon-offset (both are
 * polygon state: 3.5), and gl_FrontFacing is true for them.
 */
#include <math.h>

#include "geometry/geometry_priv.h"

/* The two triangles of quad c[0..3] (in order around it), as kind. */
static enum tsr_status quad(struct tsr_geometry *g, const struct tsr_clip_vertex c[4],
			    uint8_t kind, struct tsr_error *err)
{
	g->expand_kind = kind;
	g->st->point_line_triangles += 2;
	const struct tsr_clip_vertex *const t0[3] = {&c[0], &c[1], &c[2]};
	const struct tsr_clip_vertex *const t1[3] = {&c[0], &c[2], &c[3]};
	enum tsr_status s = tsr_geo_clip_and_cull(g, t0, err);
	if (s == TSR_OK)
		s = tsr_geo_clip_and_cull(g, t1, err);
	g->expand_kind = TSR_PRIM_KIND_TRIANGLE;
	return s;
}

/* Corner c of vertex v moved by (dx, dy) subpixels in the window (y down):
 * its clip position moved alike (for the guard-band clipper), its window
 * position exact. */
static void corner(const struct tsr_geometry *g, const struct tsr_clip_vertex *v, int32_t dx,
		   int32_t dy, struct tsr_clip_vertex *c)
{
	const struct tsr_viewport_state *vp = &g->draw.viewport;
	const float sub = (float)(1 << TSR_SUBPIXEL_BITS);
	*c = *v;
	/* window pixels to clip: 2 w / W in x, -2 w / H in y (y up) */
	c->p[0] = v->p[0] + (float)dx / sub * 2.0f * v->p[3] / (float)vp->width;
	c->p[1] = v->p[1] - (float)dy / sub * 2.0f * v->p[3] / (float)vp->height;
	c->codes = tsr_geo_clip_codes(c);
	c->sx = v->sx + dx;
	c->sy = v->sy + dy;
}

enum tsr_status tsr_geo_point(struct tsr_geometry *g, const struct tsr_clip_vertex *v,
			      struct tsr_error *err)
{
	g->st->points_in++;
	if ((v->codes & (0x3fu | TSR_GEO_UNPROJECTED)) || !g->draw.viewport.width ||
	    !g->draw.viewport.height)
		return TSR_OK;  /* its vertex is outside the frustum */
	float size = v->psize;
	size = size >= 1.0f ? (size < TSR_POINT_SIZE_MAX ? size : TSR_POINT_SIZE_MAX) : 1.0f;
	const int32_t h = (int32_t)lroundf(size * (float)(1 << (TSR_SUBPIXEL_BITS - 1)));
	struct tsr_clip_vertex c[4];
	corner(g, v, -h, -h, &c[0]);  /* top left */
	corner(g, v, h, -h, &c[1]);
	corner(g, v, h, h, &c[2]);
	corner(g, v, -h, h, &c[3]);
	const float sub = (float)(1 << TSR_SUBPIXEL_BITS);
	g->expand_point[0] = (float)v->sx / sub;
	g->expand_point[1] = (float)v->sy / sub;
	g->expand_point[2] = size;
	return quad(g, c, TSR_PRIM_KIND_POINT, err);
}

enum tsr_status tsr_geo_line(struct tsr_geometry *g, const struct tsr_clip_vertex *a,
			     const struct tsr_clip_vertex *b, struct tsr_error *err)
{
	g->st->lines_in++;
	struct tsr_clip_vertex e[2];
	if (!tsr_geo_clip_line(g, a, b, e)) {
		if (g->vary_failed)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for varyings");
		return TSR_OK;
	}
	if (((e[0].codes | e[1].codes) & TSR_GEO_UNPROJECTED) || !g->draw.viewport.width ||
	    !g->draw.viewport.height)
		return TSR_OK;
	const int64_t dx = (int64_t)e[1].sx - e[0].sx, dy = (int64_t)e[1].sy - e[0].sy;
	if (!dx && !dy)
		return TSR_OK;  /* no length: no fragment */
	const uint32_t w = g->draw.line_width ? g->draw.line_width : 1;
	const int32_t h = (int32_t)(w << (TSR_SUBPIXEL_BITS - 1));  /* width / 2, subpixels */
	const int xmajor = (dx < 0 ? -dx : dx) >= (dy < 0 ? -dy : dy);
	const int32_t ox = xmajor ? 0 : h, oy = xmajor ? h : 0;
	/*
	 * The diamond-exit rule's tie-breaks, by a one-subpixel shift (the
	 * fill rule takes a centre on a left or top edge, window rows running
	 * down): the segment's start end is in and its far end out whichever
	 * way it runs (shifted by +1 along the major axis when it runs
	 * towards smaller coordinates), and a centre on the minor-axis
	 * boundary goes to the side 3.4.1's perturbation of the ends by
	 * -(e, e^2) picks (the row below for an x-major segment: +1 in y).
	 */
	const int32_t sx = xmajor ? (dx < 0) : 0, sy = xmajor ? 1 : (dy < 0);
	struct tsr_clip_vertex c[4];
	corner(g, &e[0], ox + sx, oy + sy, &c[0]);
	corner(g, &e[0], -ox + sx, -oy + sy, &c[1]);
	corner(g, &e[1], -ox + sx, -oy + sy, &c[2]);
	corner(g, &e[1], ox + sx, oy + sy, &c[3]);
	return quad(g, c, TSR_PRIM_KIND_LINE, err);
}
