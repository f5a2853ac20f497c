/*
 * 040-raster.c - the Raster Pipeline (src/raster): the top-left fill rule
 * on meshes of triangles that share edges, perspective-correct attribute
 * interpolation, Early-Z and the quad groupings that pick a shader core.
 *
 * Coverage is measured with alpha blending: every triangle is drawn with
 * an untextured material of alpha 0.5 (TSR_BLEND_ALPHA, no depth write)
 * over a cleared window whose alpha is 0, so a pixel's alpha is 0 when no
 * triangle covered it, exactly 0.5 when one did and 0.75 when two did.
 * Triangles are made by hand in 1/256-pixel fixed point like
 * emit_triangle() in src/geometry/cull.c does.
 *
 * The stages as units: the bounded queues between them (full, empty,
 * wrap-around), and a scene driven one work item at a time by a
 * scheduler that picks stages at random gives the colors, depths,
 * counters and memory access order of the back-to-back mode.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "memory/memsys.h"
#include "memory/cache.h"
#include "raster/queue.h"
#include "raster/raster.h"
#include "shader/shader.h"
#include "texture/texture.h"

#define WIN 64  /* window side, pixels */

struct fixture {
	struct tsr_gpu_config cfg;
	struct tsr_memsys *mem;
	struct tsr_raster *r;
	struct tsr_target t;
	float depth[WIN * WIN];
	float color[WIN * WIN * 4];
	struct tsr_raster_stats rs;
	struct tsr_texture_stats ts;
};

/* A window at the screen origin, w x h pixels, depth 1 and color 0. */
static struct fixture *fixture_new(enum tsr_quad_grouping g, uint32_t w,
				   uint32_t h)
{
	struct fixture *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	tsr_config_defaults(&f->cfg);
	f->cfg.quad_grouping = g;
	struct tsr_error err;
	assert_int_equal(tsr_memsys_create(&f->cfg.mem, &f->mem, &err), TSR_OK);
	assert_int_equal(tsr_raster_create(&(struct tsr_raster_config){f->cfg.mem.cores, f->cfg.quad_grouping},
					   WIN, WIN, &f->r, &err), TSR_OK);
	f->t.x0 = 0;
	f->t.y0 = 0;
	f->t.width = w;
	f->t.height = h;
	f->t.stride = WIN;
	f->t.depth = f->depth;
	f->t.color = f->color;
	for (size_t i = 0; i < WIN * WIN; i++)
		f->depth[i] = 1.0f;
	return f;
}

static void fixture_free(struct fixture *f)
{
	tsr_raster_destroy(f->r);
	tsr_memsys_destroy(f->mem);
	free(f);
}

static float *pixel(struct fixture *f, int32_t x, int32_t y)
{
	return &f->color[((size_t)y * WIN + (size_t)x) * 4];
}

struct vtx {
	double x, y;       /* pixels */
	float z, inv_w, u, v, shade;
};

/* A plain vertex: depth 0.5, w 1, shade 1. */
static struct vtx V(double x, double y)
{
	struct vtx v = {x, y, 0.5f, 1.0f, 0.0f, 0.0f, 1.0f};
	return v;
}

/* A primitive as emit_triangle() makes it, on a WIN x WIN screen. */
static struct tsr_primitive prim(struct vtx a, struct vtx b, struct vtx c)
{
	struct tsr_primitive p;
	memset(&p, 0, sizeof(p));
	struct vtx vs[3] = {a, b, c};
	const double sub = 1 << TSR_SUBPIXEL_BITS;
	int64_t X[3], Y[3];
	for (int i = 0; i < 3; i++) {
		X[i] = llround(vs[i].x * sub);
		Y[i] = llround(vs[i].y * sub);
	}
	int64_t area2 = (X[1] - X[0]) * (Y[2] - Y[0]) - (Y[1] - Y[0]) * (X[2] - X[0]);
	assert_true(area2 != 0);
	int order[3] = {0, 1, 2};
	if (area2 < 0) {
		order[1] = 2;
		order[2] = 1;
		area2 = -area2;
	}
	for (int i = 0; i < 3; i++) {
		const struct vtx *s = &vs[order[i]];
		p.X[i] = X[order[i]];
		p.Y[i] = Y[order[i]];
		p.z[i] = s->z;
		p.inv_w[i] = s->inv_w;
		p.u[i] = s->u;
		p.v[i] = s->v;
		p.shade[i] = s->shade;
	}
	p.area2 = area2;
	assert_true(tsr_primitive_bbox(&p, WIN, WIN));
	p.attributes = 2;
	return p;
}

static struct tsr_material material(enum tsr_blend blend, float r, float g,
				    float b, float a)
{
	struct tsr_material m;
	memset(&m, 0, sizeof(m));
	m.texture = -1;
	m.filter = TSR_FILTER_NEAREST;
	m.wrap = TSR_WRAP_CLAMP;
	m.blend = blend;
	m.color[0] = r;
	m.color[1] = g;
	m.color[2] = b;
	m.color[3] = a;
	m.shader_alu_instructions = 4;
	m.varyings = 1;
	return m;
}

/* The binding of a draw whose state is what material m implies
 * (tsr_draw_state_material()), drawn with fs_bytes of shader at fs_base. */
static struct tsr_shader_binding bind(const struct tsr_material *m, const struct tsr_texture *tex,
				      uint64_t fs_base, uint32_t fs_bytes)
{
	struct tsr_draw_state s;
	tsr_draw_state_default(&s, 64, 64);
	tsr_draw_state_material(&s, m);
	struct tsr_shader_binding b;
	tsr_shader_binding_init(&b, &s, m, tex, fs_base, fs_bytes, 64, 64);
	return b;
}

static void draw(struct fixture *f, const struct tsr_primitive *p,
		 const struct tsr_material *m, const struct tsr_texture *tex)
{
	struct tsr_shader_binding b = bind(m, tex, 0x40000000ull, 32);
	tsr_raster_primitive(f->r, p, &b, &f->t, f->mem, &f->rs, &f->ts);
}

/* ------------------------------------------------------------ fill rule */

/* E_i at the centre of pixel (px, py), in fixed point (as the raster). */
static int64_t edge_at(const struct tsr_primitive *p, int i, int32_t px, int32_t py)
{
	int j = (i + 1) % 3;
	int64_t sx = (int64_t)px * 256 + 128, sy = (int64_t)py * 256 + 128;
	return (p->X[j] - p->X[i]) * (sy - p->Y[i]) - (p->Y[j] - p->Y[i]) * (sx - p->X[i]);
}

/* 1 when edge i of triangle a is also an edge of another triangle. */
static int edge_shared(const struct tsr_primitive *ps, uint32_t n, uint32_t a, int i)
{
	int j = (i + 1) % 3;
	for (uint32_t b = 0; b < n; b++) {
		if (b == a)
			continue;
		for (int k = 0; k < 3; k++) {
			int l = (k + 1) % 3;
			if (ps[b].X[k] == ps[a].X[j] && ps[b].Y[k] == ps[a].Y[j] &&
			    ps[b].X[l] == ps[a].X[i] && ps[b].Y[l] == ps[a].Y[i])
				return 1;
		}
	}
	return 0;
}

/*
 * Draws the mesh with alpha 0.5 and checks every pixel of the window:
 * pixels whose centre is strictly inside the union or on an edge shared by
 * two triangles (or at a shared vertex) got exactly one layer; pixels on
 * the outline got at most one; pixels outside none. Returns the number of
 * pixels covered once.
 */
static uint32_t check_mesh_once(struct fixture *f, const struct tsr_primitive *ps,
				uint32_t n)
{
	struct tsr_material m = material(TSR_BLEND_ALPHA, 1, 1, 1, 0.5f);
	for (uint32_t i = 0; i < n; i++)
		draw(f, &ps[i], &m, NULL);
	uint32_t once = 0, outline = 0;
	for (int32_t y = 0; y < (int32_t)f->t.height; y++)
		for (int32_t x = 0; x < (int32_t)f->t.width; x++) {
			int inside = 0, on_outline = 0;
			for (uint32_t t = 0; t < n; t++) {
				int64_t e[3];
				for (int i = 0; i < 3; i++)
					e[i] = edge_at(&ps[t], i, x, y);
				if (e[0] < 0 || e[1] < 0 || e[2] < 0)
					continue;
				inside = 1;
				for (int i = 0; i < 3; i++)
					if (e[i] == 0 && !edge_shared(ps, n, t, i))
						on_outline = 1;
			}
			float a = pixel(f, x, y)[3];
			int ok;
			if (!inside)
				ok = a == 0.0f;
			else if (on_outline)
				ok = a == 0.0f || a == 0.5f;
			else
				ok = a == 0.5f;
			if (!ok)
				print_error("pixel (%d, %d): alpha %g (inside %d, outline %d)\n",
					    x, y, (double)a, inside, on_outline);
			assert_true(ok);
			once += a == 0.5f;
			outline += on_outline;
		}
	assert_int_equal(f->rs.pixels_written, once);
	assert_int_equal(f->rs.fragments_shaded, once);
	/* the meshes put pixel centres on their outline: the rule was exercised */
	assert_true(outline > 0);
	return once;
}

/*
 * The Rasterizer's coverage against each pixel's own edge functions, on
 * 3000 random triangles (slivers, off-window vertices, both windings) in
 * an odd-sized window: every pixel whose centre passes the three edges
 * with the top-left rule is written and no other; and the quads counted
 * are exactly those with a covered pixel (empty quads skipped, none lost);
 * each written depth is the one of the barycentrics computed from the
 * pixel's own edge functions (for vertices within and beyond 32768 pixels).
 */
static void test_coverage_random(void **state)
{
	(void)state;
	const uint32_t w = 61, h = 59;
	struct fixture *f = fixture_new(TSR_QG_FG_XSHIFT2, w, h);
	struct tsr_material m = material(TSR_BLEND_OPAQUE, 1, 1, 1, 1);
	uint32_t seed = 2024, drawn = 0;
	uint64_t covered_total = 0;
	for (int n = 0; n < 3000; n++) {
		double c[6];
		for (int i = 0; i < 6; i++) {
			seed = seed * 1664525u + 1013904223u;
			c[i] = -12.0 + 85.0 * (double)(seed >> 8) / (double)(1u << 24);
		}
		if (n % 3 == 0) {  /* a sliver: the third vertex near the first edge */
			c[4] = c[0] + (c[2] - c[0]) * 0.7 + (c[5] - 30.0) * 0.01;
			c[5] = c[1] + (c[3] - c[1]) * 0.7 + 0.3;
		} else if (n % 10 == 1) {  /* a vertex beyond 32768 pixels (the scalar path) */
			c[4] = n % 20 == 1 ? 40000.0 + c[4] : -35000.0 - c[4];
		}
		struct tsr_primitive p;
		memset(&p, 0, sizeof(p));
		const double sub = 1 << TSR_SUBPIXEL_BITS;
		int64_t X[3], Y[3];
		for (int i = 0; i < 3; i++) {
			X[i] = llround(c[2 * i] * sub);
			Y[i] = llround(c[2 * i + 1] * sub);
		}
		memcpy(p.X, X, sizeof(X));
		memcpy(p.Y, Y, sizeof(Y));
		/* a zero area, or a box holding no pixel centre (emit_triangle drops them) */
		if ((X[1] - X[0]) * (Y[2] - Y[0]) - (Y[1] - Y[0]) * (X[2] - X[0]) == 0 ||
		    !tsr_primitive_bbox(&p, WIN, WIN))
			continue;
		p = prim(V(c[0], c[1]), V(c[2], c[3]), V(c[4], c[5]));
		for (int i = 0; i < 3; i++) {
			seed = seed * 1664525u + 1013904223u;
			p.z[i] = 0.05f + 0.9f * (float)(seed >> 8) / (float)(1u << 24);
		}
		const double inv_area = 1.0 / (double)p.area2;
		memset(f->color, 0, sizeof(f->color));
		for (size_t i = 0; i < WIN * WIN; i++)
			f->depth[i] = 1.0f;
		const uint64_t quads_before = f->rs.quads_rasterized;
		draw(f, &p, &m, NULL);
		drawn++;
		uint64_t quads = 0;
		for (int32_t qy = 0; qy < (int32_t)h; qy += 2)
			for (int32_t qx = 0; qx < (int32_t)w; qx += 2) {
				int any = 0;
				for (int k = 0; k < 4; k++) {
					int32_t x = qx + (k & 1), y = qy + (k >> 1);
					if (x >= (int32_t)w || y >= (int32_t)h)
						continue;
					int in = 1;
					for (int i = 0; i < 3; i++) {
						int j = (i + 1) % 3;
						int64_t dx = p.X[j] - p.X[i], dy = p.Y[j] - p.Y[i];
						int top_left = (dy == 0 && dx > 0) || dy < 0;
						in &= edge_at(&p, i, x, y) + (top_left ? 0 : -1) >= 0;
					}
					any |= in;
					covered_total += (uint64_t)in;
					if ((pixel(f, x, y)[3] == 1.0f) != in)
						print_error("triangle %d pixel (%d, %d): written %g, covered %d\n",
							    n, x, y, (double)pixel(f, x, y)[3], in);
					assert_int_equal(pixel(f, x, y)[3] == 1.0f, in);
					if (!in)
						continue;
					/* its depth: the barycentrics from the edge
					 * functions, exactly */
					float l0 = (float)((double)edge_at(&p, 1, x, y) * inv_area);
					float l1 = (float)((double)edge_at(&p, 2, x, y) * inv_area);
					float l2 = 1.0f - l0 - l1;
					float z = l0 * p.z[0] + l1 * p.z[1] + l2 * p.z[2];
					if (f->depth[(size_t)y * WIN + (size_t)x] != z)
						print_error("triangle %d pixel (%d, %d): depth %.9g, want %.9g\n",
							    n, x, y, (double)f->depth[(size_t)y * WIN + (size_t)x],
							    (double)z);
					assert_true(f->depth[(size_t)y * WIN + (size_t)x] == z);
				}
				quads += (uint64_t)any;
			}
		assert_int_equal(f->rs.quads_rasterized - quads_before, quads);
	}
	assert_true(drawn > 2800);
	assert_true(covered_total > 100000);  /* real triangles, not only slivers */
	fixture_free(f);
}

static void test_fill_rule_grid(void **state)
{
	(void)state;
	/* 4x4 squares of 6.5 pixels from (2.5, 3.5): the grid lines x = 2.5,
	 * 9, 15.5, 22, 28.5 and y = 3.5, 10, 16.5, 23, 29.5 and the diagonals
	 * (slope +-1 through corners at .5) pass through pixel centres */
	struct tsr_primitive ps[32];
	uint32_t n = 0;
	for (int j = 0; j < 4; j++)
		for (int i = 0; i < 4; i++) {
			double x0 = 2.5 + 6.5 * i, y0 = 3.5 + 6.5 * j;
			double x1 = x0 + 6.5, y1 = y0 + 6.5;
			if ((i + j) % 2 == 0) {
				ps[n++] = prim(V(x0, y0), V(x1, y0), V(x1, y1));
				ps[n++] = prim(V(x0, y0), V(x1, y1), V(x0, y1));
			} else {
				ps[n++] = prim(V(x1, y0), V(x1, y1), V(x0, y1));
				ps[n++] = prim(V(x0, y0), V(x1, y0), V(x0, y1));
			}
		}
	struct fixture *f = fixture_new(TSR_QG_FG_XSHIFT2, 32, 32);
	check_mesh_once(f, ps, n);
	/* top-left rule on the outline: the left edge x = 2.5 and the top edge
	 * y = 3.5 are in, the right x = 28.5 and bottom y = 29.5 are out:
	 * exactly pixels x 2..27, y 3..28 */
	for (int32_t y = 0; y < 32; y++)
		for (int32_t x = 0; x < 32; x++) {
			float want = (x >= 2 && x <= 27 && y >= 3 && y <= 28) ? 0.5f : 0.0f;
			if (pixel(f, x, y)[3] != want)
				print_error("pixel (%d, %d): alpha %g, want %g\n", x, y,
					    (double)pixel(f, x, y)[3], (double)want);
			assert_true(pixel(f, x, y)[3] == want);
		}
	assert_int_equal(f->rs.pixels_written, 26 * 26);
	fixture_free(f);
}

static void test_fill_rule_fan(void **state)
{
	(void)state;
	/* a fan around (16.5, 15.5), itself a pixel centre, with spokes along
	 * the axes and diagonals through pixel centres, and two outer vertices
	 * off the grid */
	const struct vtx c = V(16.5, 15.5);
	const struct vtx ring[8] = {V(28.5, 15.5), V(26.5, 25.5), V(16.5, 29.5),
				    V(7.25, 24.75), V(4.5, 15.5), V(8.5, 7.5),
				    V(16.5, 3.5), V(25.75, 6.25)};
	struct tsr_primitive ps[8];
	for (int i = 0; i < 8; i++)
		ps[i] = prim(c, ring[i], ring[(i + 1) % 8]);
	struct fixture *f = fixture_new(TSR_QG_FG_XSHIFT2, 32, 32);
	uint32_t once = check_mesh_once(f, ps, 8);
	assert_true(once > 300);
	/* the shared centre vertex and pixels on spokes got exactly one layer */
	assert_true(pixel(f, 16, 15)[3] == 0.5f);
	assert_true(pixel(f, 20, 15)[3] == 0.5f);   /* spoke to (28.5, 15.5) */
	assert_true(pixel(f, 10, 15)[3] == 0.5f);   /* spoke to (4.5, 15.5) */
	assert_true(pixel(f, 16, 20)[3] == 0.5f);   /* spoke to (16.5, 29.5) */
	assert_true(pixel(f, 16, 8)[3] == 0.5f);    /* spoke to (16.5, 3.5) */
	assert_true(pixel(f, 20, 19)[3] == 0.5f);   /* diagonal spoke */
	assert_true(pixel(f, 12, 11)[3] == 0.5f);   /* diagonal spoke */
	fixture_free(f);

	/* the same fan in an odd-sized window offset from the origin: the
	 * same pixels are covered */
	f = fixture_new(TSR_QG_FG_XSHIFT2, 32, 32);
	struct fixture *g = fixture_new(TSR_QG_FG_XSHIFT2, 32, 32);
	struct tsr_material m = material(TSR_BLEND_ALPHA, 1, 1, 1, 0.5f);
	for (int i = 0; i < 8; i++)
		draw(f, &ps[i], &m, NULL);
	g->t.x0 = 3;
	g->t.y0 = 5;
	g->t.width = 27;
	g->t.height = 25;
	for (int i = 0; i < 8; i++)
		draw(g, &ps[i], &m, NULL);
	for (int32_t y = 0; y < 32; y++)
		for (int32_t x = 0; x < 32; x++) {
			int in_g = x >= 3 && x < 30 && y >= 5 && y < 30;
			float want = in_g ? pixel(f, x, y)[3] : 0.0f;
			float got = in_g ? pixel(g, x - 3, y - 5)[3] : 0.0f;
			assert_true(want == got);
		}
	fixture_free(g);
	fixture_free(f);
}

/* ------------------------------------------- perspective-correct varyings */

/* Screen-space barycentrics (doubles) of the centre of pixel (px, py). */
static void bary(const struct tsr_primitive *p, int32_t px, int32_t py, double l[3])
{
	double e1 = (double)edge_at(p, 1, px, py), e2 = (double)edge_at(p, 2, px, py);
	l[0] = e1 / (double)p->area2;
	l[1] = e2 / (double)p->area2;
	l[2] = 1.0 - l[0] - l[1];
}

static int covered(const struct tsr_primitive *p, int32_t x, int32_t y)
{
	return edge_at(p, 0, x, y) > 0 && edge_at(p, 1, x, y) > 0 &&
	       edge_at(p, 2, x, y) > 0;
}

/* (0,0) w=1, (64,0) w=4, (0,64) w=1: only the right vertex is far. */
static struct tsr_primitive far_right_triangle(float s0, float s1, float s2,
					       float u0, float u1, float u2)
{
	struct vtx a = {0, 0, 0.5f, 1.0f, u0, 0.5f, s0};
	struct vtx b = {64, 0, 0.5f, 0.25f, u1, 0.5f, s1};
	struct vtx c = {0, 64, 0.5f, 1.0f, u2, 0.5f, s2};
	return prim(a, b, c);
}

static void test_perspective_correct_shade(void **state)
{
	(void)state;
	/* shade 0 at the near vertices and 1 at the far one: the colour of an
	 * untextured opaque white material is the interpolated shade */
	struct tsr_primitive p = far_right_triangle(0, 1, 0, 0, 0, 0);
	struct fixture *f = fixture_new(TSR_QG_FG_XSHIFT2, WIN, WIN);
	struct tsr_material m = material(TSR_BLEND_OPAQUE, 1, 1, 1, 1);
	draw(f, &p, &m, NULL);
	uint32_t checked = 0, differs = 0;
	for (int32_t y = 0; y < WIN; y++)
		for (int32_t x = 0; x < WIN; x++) {
			if (!covered(&p, x, y))
				continue;
			double l[3];
			bary(&p, x, y, l);
			/* perspective: sum(l_i w_i s_i) / sum(l_i w_i) */
			double w[3] = {p.inv_w[0], p.inv_w[1], p.inv_w[2]};
			double num = 0, den = 0, affine = 0;
			for (int i = 0; i < 3; i++) {
				num += l[i] * w[i] * p.shade[i];
				den += l[i] * w[i];
				affine += l[i] * p.shade[i];
			}
			double want = num / den;
			float got = pixel(f, x, y)[0];
			if (fabs(got - want) > 1e-4)
				print_error("pixel (%d, %d): %g, want %g (affine %g)\n", x, y,
					    (double)got, want, affine);
			assert_true(fabs(got - want) <= 1e-4);
			differs += fabs(affine - want) > 0.05;
			checked++;
		}
	assert_true(checked > 1500);
	assert_true(differs > 500);
	/* row 0 at x = 40: l1 = 40.5/64, 0.25 l1 / (1 - 0.75 l1) = 0.3013 */
	assert_float_equal(pixel(f, 40, 0)[0], 0.30132, 1e-3);
	fixture_free(f);
}

/*
 * Shading clamps the interpolated shade to [0, 1]: above 1 gives the
 * material's color, below 0, -0 and NaN (a NaN normal) give +0 (not -0),
 * alpha untouched.
 */
static void test_shade_clamp(void **state)
{
	(void)state;
	const float shades[] = {2.5f, 0.5f, -3.0f, -0.0f, NAN, INFINITY, -INFINITY};
	const float want[] = {1.0f, 0.5f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f};
	for (size_t i = 0; i < sizeof(shades) / sizeof(shades[0]); i++) {
		struct tsr_primitive p = prim(V(1, 1), V(30, 2), V(3, 29));
		for (int k = 0; k < 3; k++)
			p.shade[k] = shades[i];
		struct fixture *f = fixture_new(TSR_QG_FG_XSHIFT2, WIN, WIN);
		struct tsr_material m = material(TSR_BLEND_OPAQUE, 0.5f, 0.25f, 1.0f, 0.75f);
		draw(f, &p, &m, NULL);
		const float *px = pixel(f, 8, 8);
		assert_true(px[0] == 0.5f * want[i]);
		assert_true(px[1] == 0.25f * want[i]);
		assert_true(px[2] == 1.0f * want[i]);
		assert_true(px[3] == 0.75f);
		if (want[i] == 0.0f)
			assert_false(signbit(px[0]) || signbit(px[1]) || signbit(px[2]));
		fixture_free(f);
	}
}

static void test_perspective_correct_texcoords(void **state)
{
	(void)state;
	/* a 2x1 texture, black then white: nearest sampling says whether the
	 * interpolated u is below or above 1/2 */
	uint8_t texels[8] = {0, 0, 0, 255, 255, 255, 255, 255};
	struct tsr_image img = {.path = "two-texels", .width = 2, .height = 1, .rgba = texels};
	struct tsr_texture *tex = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_texture_create(&img, &tex, &err), TSR_OK);
	tsr_texture_set_base(tex, 0x50000000ull);
	/* u = 0 at the near vertices, 1 at the far one: perspective-correct u
	 * on row y is 0.25 l1 / (1 - 0.75 l1), 1/2 at l1 = 0.8 (x = 51.2 on
	 * row 0); affine u would reach 1/2 at x = 32 */
	struct tsr_primitive p = far_right_triangle(1, 1, 1, 0, 1, 0);
	struct fixture *f = fixture_new(TSR_QG_FG_XSHIFT2, WIN, WIN);
	struct tsr_material m = material(TSR_BLEND_OPAQUE, 1, 1, 1, 1);
	m.texture = 0;
	draw(f, &p, &m, tex);
	assert_float_equal(pixel(f, 40, 0)[0], 0.0f, 1e-5);  /* affine: white */
	assert_float_equal(pixel(f, 50, 0)[0], 0.0f, 1e-5);
	assert_float_equal(pixel(f, 52, 0)[0], 1.0f, 1e-5);
	assert_float_equal(pixel(f, 20, 30)[0], 0.0f, 1e-5); /* l1 .32: u .105 */
	uint32_t checked = 0;
	for (int32_t y = 0; y < WIN; y++)
		for (int32_t x = 0; x < WIN; x++) {
			if (!covered(&p, x, y))
				continue;
			double l[3];
			bary(&p, x, y, l);
			double u = 0.25 * l[1] / (l[0] + 0.25 * l[1] + l[2]);
			if (fabs(u - 0.5) < 1e-3)
				continue;
			float want = u > 0.5 ? 1.0f : 0.0f;
			if (fabsf(pixel(f, x, y)[0] - want) > 1e-5f)
				print_error("pixel (%d, %d): %g, u %g\n", x, y,
					    (double)pixel(f, x, y)[0], u);
			assert_float_equal(pixel(f, x, y)[0], want, 1e-5);
			checked++;
		}
	assert_true(checked > 1500);
	assert_true(f->ts.sample_instructions > 0);
	assert_int_equal(f->ts.sample_instructions, f->rs.quads_shaded);
	assert_int_equal(f->ts.texel_fetches, 4 * f->ts.sample_instructions);
	tsr_texture_destroy(tex);
	fixture_free(f);
}

/* ------------------------------------------------------ fragment programs */

/* A linked program of the pass-through vertex shader and fragment source fs. */
static struct tsr_program *program(const char *fs)
{
	static const char *vs = "attribute vec4 pos;\n"
				"varying vec2 v_uv;\n"
				"void main() { v_uv = pos.xy; gl_Position = pos; }\n";
	struct tsr_shader *v = NULL, *f = NULL;
	struct tsr_program *p = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_shader_compile(TSR_SHADER_VERTEX, vs, &v, &err), TSR_OK);
	assert_int_equal(tsr_shader_compile(TSR_SHADER_FRAGMENT, fs, &f, &err), TSR_OK);
	if (!tsr_shader_compiled(f))
		fail_msg("%s", tsr_shader_info_log(f));
	assert_int_equal(tsr_program_link(v, f, NULL, 0, &p, &err), TSR_OK);
	if (!tsr_program_linked(p))
		fail_msg("%s", tsr_program_info_log(p));
	tsr_shader_destroy(v);
	tsr_shader_destroy(f);
	return p;
}

/* Draws p with material m's state and the program of x (its v_uv from
 * the primitive's u, v), sampling tex on unit 0. */
static void draw_program(struct fixture *f, const struct tsr_primitive *p,
			 const struct tsr_material *m, const struct tsr_texture *tex,
			 struct tsr_shader_exec *x)
{
	const int32_t slot = tsr_program_varying_slot(tsr_shader_exec_program(x), "v_uv");
	assert_true(slot <= 0);  /* slot 0, or unused (-1) */
	float vary[3][4];
	for (int i = 0; i < 3; i++) {
		vary[i][0] = p->u[i];
		vary[i][1] = p->v[i];
		vary[i][2] = vary[i][3] = 0.0f;
	}
	struct tsr_primitive q = *p;
	q.varyings = &vary[0][0];
	q.varying_slots = 1;
	struct tsr_draw_state s;
	tsr_draw_state_default(&s, 64, 64);
	tsr_draw_state_material(&s, m);
	struct tsr_shader_binding b;
	tsr_shader_binding_init(&b, &s, m, tex, 0x40000000ull, 32, 64, 64);
	tsr_shader_binding_set_program(&b, x, &s, &tex, 1);
	tsr_raster_primitive(f->r, &q, &b, &f->t, f->mem, &f->rs, &f->ts);
}

/*
 * A linked fragment program in the Raster Pipeline
 * (tsr_shader_binding_set_program()): texture2D of the interpolated
 * texture coordinates gives the fixed textured material's colors (to a
 * rounding), with the same texture samples and cache traffic; a discard removes
 * exactly the fragments its condition holds for, before the depth test;
 * gl_FragCoord is the pixel centre with y up; the instruction mix is
 * counted.
 */
static void test_fragment_program(void **state)
{
	(void)state;
	uint8_t texels[8 * 8 * 4];
	for (int i = 0; i < 8 * 8 * 4; i++)
		texels[i] = (uint8_t)(i * 37 + (i >> 2) * 11);
	struct tsr_image img = {.path = "8x8", .width = 8, .height = 8, .rgba = texels};
	struct tsr_texture *tex = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_texture_create(&img, &tex, &err), TSR_OK);
	tsr_texture_set_base(tex, 0x50000000ull);
	struct tsr_primitive p = far_right_triangle(1, 1, 1, 0, 3, 1);
	p.v[0] = 0.2f;
	p.v[1] = 2.5f;
	struct tsr_material m = material(TSR_BLEND_OPAQUE, 1, 1, 1, 1);
	m.texture = 0;
	m.filter = TSR_FILTER_BILINEAR;
	m.wrap = TSR_WRAP_REPEAT;
	struct fixture *fixed = fixture_new(TSR_QG_FG_XSHIFT2, WIN, WIN);
	struct fixture *prog = fixture_new(TSR_QG_FG_XSHIFT2, WIN, WIN);
	draw(fixed, &p, &m, tex);
	struct tsr_program *pr = program("precision mediump float;\n"
					 "uniform sampler2D tex;\n"
					 "varying vec2 v_uv;\n"
					 "void main() { gl_FragColor = texture2D(tex, v_uv); }\n");
	struct tsr_shader_exec *x = NULL;
	assert_int_equal(tsr_shader_exec_create(pr, TSR_SHADER_FRAGMENT, NULL, NULL, &x, &err),
			 TSR_OK);
	draw_program(prog, &p, &m, tex, x);
	/* the fixed path multiplies by the interpolated shade, 1 within a
	 * rounding (sum * (1 / sum)): equal to 2^-23 relative */
	for (int i = 0; i < WIN * WIN * 4; i++)
		assert_float_equal(prog->color[i], fixed->color[i], 2.4e-7);
	assert_int_equal(prog->ts.texel_fetches, fixed->ts.texel_fetches);
	assert_int_equal(prog->ts.line_requests, fixed->ts.line_requests);
	assert_int_equal(prog->ts.sample_instructions, fixed->ts.sample_instructions);
	assert_int_equal(prog->rs.quads_shaded, fixed->rs.quads_shaded);
	assert_int_equal(prog->rs.fs_tex, prog->rs.quads_shaded);
	assert_true(prog->rs.fs_instructions >= prog->rs.fs_tex);
	const struct tsr_cache_counters a =
		tsr_cache_counters_total(tsr_memsys_cache_by_name(fixed->mem, "texture0"));
	const struct tsr_cache_counters b =
		tsr_cache_counters_total(tsr_memsys_cache_by_name(prog->mem, "texture0"));
	assert_true(a.reads > 0);
	assert_memory_equal(&a, &b, sizeof(a));
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(pr);
	fixture_free(prog);

	/* discard where u > 0.5: those pixels keep the clear color (0), the
	 * others are red; depth is written only where red (late Z) */
	prog = fixture_new(TSR_QG_FG_XSHIFT2, WIN, WIN);
	pr = program("precision mediump float;\n"
		     "varying vec2 v_uv;\n"
		     "void main() {\n"
		     "  if (v_uv.x > 0.5) discard;\n"
		     "  gl_FragColor = vec4(1.0, 0.0, 0.0, 1.0);\n"
		     "}\n");
	assert_true(tsr_program_discards(pr));
	assert_int_equal(tsr_shader_exec_create(pr, TSR_SHADER_FRAGMENT, NULL, NULL, &x, &err),
			 TSR_OK);
	m.texture = -1;
	draw_program(prog, &p, &m, NULL, x);
	uint32_t red = 0, kept = 0;
	for (int32_t y = 0; y < WIN; y++)
		for (int32_t xx = 0; xx < WIN; xx++) {
			if (!covered(&p, xx, y))
				continue;
			double l[3];
			bary(&p, xx, y, l);
			double num = 0, den = 0;
			for (int i = 0; i < 3; i++) {
				num += l[i] * p.inv_w[i] * p.u[i];
				den += l[i] * p.inv_w[i];
			}
			const double u = num / den;
			if (fabs(u - 0.5) < 1e-3)
				continue;
			const float *px = pixel(prog, xx, y);
			if (u > 0.5) {
				assert_float_equal(px[0], 0.0f, 0);
				assert_float_equal(prog->depth[y * WIN + xx], 1.0f, 0);
				kept++;
			} else {
				assert_float_equal(px[0], 1.0f, 0);
				assert_float_equal(prog->depth[y * WIN + xx], 0.5f, 0);
				red++;
			}
		}
	assert_true(red > 200 && kept > 200);
	assert_true(prog->rs.fragments_discarded >= kept);
	assert_int_equal(prog->rs.fragments_discarded + prog->rs.pixels_written,
			 prog->rs.fragments_shaded);
	assert_true(prog->rs.fs_branches > 0);
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(pr);
	fixture_free(prog);

	/* gl_FragCoord: pixel centres, y up from the target's bottom */
	prog = fixture_new(TSR_QG_FG_XSHIFT2, WIN, WIN);
	pr = program("precision mediump float;\n"
		     "varying vec2 v_uv;\n"
		     "void main() { gl_FragColor = vec4(gl_FragCoord.xy / 64.0, gl_FragCoord.z, 1.0); }\n");
	assert_false(tsr_program_discards(pr));
	assert_int_equal(tsr_shader_exec_create(pr, TSR_SHADER_FRAGMENT, NULL, NULL, &x, &err),
			 TSR_OK);
	draw_program(prog, &p, &m, NULL, x);
	const float *px = pixel(prog, 10, 20);
	assert_float_equal(px[0], 10.5f / 64.0f, 1e-6);
	assert_float_equal(px[1], (64.0f - 20.5f) / 64.0f, 1e-6);
	assert_float_equal(px[2], 0.5f, 1e-6);
	tsr_shader_exec_destroy(x);
	tsr_program_destroy(pr);
	fixture_free(prog);
	fixture_free(fixed);
	tsr_texture_destroy(tex);
}

/* ---------------------------------------------------------------- Early-Z */

static struct tsr_primitive flat_triangle(float z)
{
	struct vtx a = V(2, 2), b = V(30, 4), c = V(6, 29);
	a.z = b.z = c.z = z;
	return prim(a, b, c);
}

static void test_early_z(void **state)
{
	(void)state;
	struct fixture *f = fixture_new(TSR_QG_FG_XSHIFT2, 32, 32);
	struct tsr_material red = material(TSR_BLEND_OPAQUE, 1, 0, 0, 1);
	struct tsr_material green = material(TSR_BLEND_OPAQUE, 0, 1, 0, 1);
	struct tsr_material blue = material(TSR_BLEND_OPAQUE, 0, 0, 1, 1);
	struct tsr_primitive near = flat_triangle(0.3f), far = flat_triangle(0.7f),
			     nearer = flat_triangle(0.1f);
	draw(f, &near, &red, NULL);
	uint64_t quads = f->rs.quads_rasterized, pixels = f->rs.pixels_written;
	assert_true(quads > 50);
	assert_int_equal(f->rs.quads_shaded, quads);
	assert_int_equal(f->rs.quads_early_z_killed, 0);
	uint32_t covered_px = 0;
	for (int32_t y = 0; y < 32; y++)
		for (int32_t x = 0; x < 32; x++) {
			int in = covered(&near, x, y);
			float *c = pixel(f, x, y);
			if (in) {
				assert_float_equal(c[0], 1.0f, 1e-5);
				assert_float_equal(c[1], 0.0f, 1e-5);
				assert_float_equal(c[3], 1.0f, 1e-5);
				assert_float_equal(f->depth[y * WIN + x], 0.3f, 1e-6);
				covered_px++;
			}
		}
	assert_true(pixels >= covered_px);

	/* behind: every quad dies in Early-Z, nothing changes */
	draw(f, &far, &green, NULL);
	assert_int_equal(f->rs.quads_rasterized, 2 * quads);
	assert_int_equal(f->rs.quads_early_z_killed, quads);
	assert_int_equal(f->rs.quads_shaded, quads);
	assert_int_equal(f->rs.pixels_written, pixels);
	for (int32_t y = 0; y < 32; y++)
		for (int32_t x = 0; x < 32; x++)
			if (covered(&near, x, y)) {
				assert_float_equal(pixel(f, x, y)[0], 1.0f, 1e-5);
				assert_float_equal(pixel(f, x, y)[1], 0.0f, 1e-5);
				assert_float_equal(f->depth[y * WIN + x], 0.3f, 1e-6);
			}

	/* in front: overwrites colour and depth */
	draw(f, &nearer, &blue, NULL);
	assert_int_equal(f->rs.quads_early_z_killed, quads);
	assert_int_equal(f->rs.quads_shaded, 2 * quads);
	assert_int_equal(f->rs.pixels_written, 2 * pixels);
	for (int32_t y = 0; y < 32; y++)
		for (int32_t x = 0; x < 32; x++)
			if (covered(&near, x, y)) {
				assert_float_equal(pixel(f, x, y)[0], 0.0f, 1e-5);
				assert_float_equal(pixel(f, x, y)[2], 1.0f, 1e-5);
				assert_float_equal(f->depth[y * WIN + x], 0.1f, 1e-6);
			}
	fixture_free(f);
}

/* ------------------------------------------------------- quad grouping */

static void test_quad_core_functions(void **state)
{
	(void)state;
	for (uint32_t qy = 0; qy < 16; qy++)
		for (uint32_t qx = 0; qx < 16; qx++) {
			assert_int_equal(tsr_quad_core(TSR_QG_FG_XSHIFT2, 4, qx, qy, 16, 16),
					 (qx + 2 * qy) % 4);
		}
	/* FG-xshift2 row 0: 0 1 2 3 0 ..., row 1 starts at 2 */
	assert_int_equal(tsr_quad_core(TSR_QG_FG_XSHIFT2, 4, 0, 1, 16, 16), 2);
	assert_int_equal(tsr_quad_core(TSR_QG_FG_XSHIFT2, 4, 3, 1, 16, 16), 1);

	/* CG-square: a 32x32 tile is 16x16 quads; each 8x8-quad quadrant goes
	 * to one core, the four to four different cores */
	uint32_t q[2][2];
	for (uint32_t i = 0; i < 2; i++)
		for (uint32_t j = 0; j < 2; j++)
			q[i][j] = tsr_quad_core(TSR_QG_CG_SQUARE, 4, 8 * j, 8 * i, 16, 16);
	for (uint32_t qy = 0; qy < 16; qy++)
		for (uint32_t qx = 0; qx < 16; qx++) {
			uint32_t c = tsr_quad_core(TSR_QG_CG_SQUARE, 4, qx, qy, 16, 16);
			assert_true(c < 4);
			assert_int_equal(c, q[qy / 8][qx / 8]);
		}
	unsigned seen = 0;
	for (uint32_t i = 0; i < 2; i++)
		for (uint32_t j = 0; j < 2; j++)
			seen |= 1u << q[i][j];
	assert_int_equal(seen, 0xf);
	assert_int_equal(q[0][0], 0);
	assert_int_equal(q[0][1], 1);
	assert_int_equal(q[1][0], 2);
	assert_int_equal(q[1][1], 3);
}

static void test_quad_grouping_in_raster(void **state)
{
	(void)state;
	/* a rectangle over the whole 32x32 window: 256 quads, 64 per core
	 * with either grouping */
	struct tsr_primitive full[2] = {prim(V(0, 0), V(32, 0), V(32, 32)),
					prim(V(0, 0), V(32, 32), V(0, 32))};
	/* a rectangle over the top-left 16x16 pixels: one CG quadrant */
	struct tsr_primitive tl[2] = {prim(V(0, 0), V(16, 0), V(16, 16)),
				      prim(V(0, 0), V(16, 16), V(0, 16))};
	struct tsr_material m = material(TSR_BLEND_ALPHA, 1, 1, 1, 0.5f);
	static const enum tsr_quad_grouping groupings[] = {TSR_QG_FG_XSHIFT2, TSR_QG_CG_SQUARE};
	for (int k = 0; k < 2; k++) {
		const enum tsr_quad_grouping g = groupings[k];
		struct fixture *f = fixture_new(g, 32, 32);
		draw(f, &full[0], &m, NULL);
		draw(f, &full[1], &m, NULL);
		assert_int_equal(f->rs.pixels_written, 32 * 32);
		uint64_t total = 0;
		for (int c = 0; c < 4; c++)
			total += f->rs.quads_per_core[c];
		assert_int_equal(total, f->rs.quads_shaded);
		fixture_free(f);

		f = fixture_new(g, 32, 32);
		draw(f, &tl[0], &m, NULL);
		draw(f, &tl[1], &m, NULL);
		assert_int_equal(f->rs.pixels_written, 16 * 16);
		if (g == TSR_QG_CG_SQUARE) {
			/* 64 quads plus the diagonal's split quads, all on core 0 */
			assert_int_equal(f->rs.quads_per_core[0], f->rs.quads_shaded);
			assert_int_equal(f->rs.quads_per_core[1], 0);
		} else {
			/* an 8x8-quad block: 2 quads per core on each row, 16
			 * per core; the 8 diagonal quads (q, q) hold pixels of
			 * both triangles and are shaded twice: core 3q mod 4,
			 * i.e. 0 3 2 1 0 3 2 1, two more per core */
			assert_int_equal(f->rs.quads_shaded, 64 + 8);
			for (int c = 0; c < 4; c++)
				assert_int_equal(f->rs.quads_per_core[c], 16 + 2);
		}
		fixture_free(f);
	}
}

/* Early-Z sends a subtile to the core the tile's subtile assignment gives it. */
static void test_subtile_cores_in_raster(void **state)
{
	(void)state;
	struct tsr_primitive tl[2] = {prim(V(0, 0), V(16, 0), V(16, 16)),
				      prim(V(0, 0), V(16, 16), V(0, 16))};
	struct tsr_material m = material(TSR_BLEND_ALPHA, 1, 1, 1, 0.5f);
	struct fixture *f = fixture_new(TSR_QG_CG_SQUARE, 32, 32);
	tsr_raster_set_subtile_cores(f->r, (const uint8_t[]){2, 0, 3, 1});
	draw(f, &tl[0], &m, NULL);
	draw(f, &tl[1], &m, NULL);
	/* the top-left quadrant (subtile 0) on core 2 */
	assert_int_equal(f->rs.quads_per_core[2], f->rs.quads_shaded);
	assert_int_equal(f->rs.quads_per_core[0], 0);
	assert_int_equal(f->rs.pixels_written, 16 * 16);
	fixture_free(f);
}


/* ------------------------------------------------------------- queues */

static void test_quad_queue(void **state)
{
	(void)state;
	struct tsr_ring q;
	struct tsr_error err;
	assert_int_equal(tsr_quad_queue_init(&q, 0, &err), TSR_ERR_LIMIT);
	assert_int_equal(tsr_quad_queue_init(&q, 5, &err), TSR_OK);
	assert_int_equal(tsr_ring_capacity(&q), 8);  /* rounded up */
	/* empty */
	assert_null(tsr_quad_queue_front(&q));
	assert_int_equal(tsr_ring_count(&q), 0);
	assert_int_equal(tsr_ring_room(&q), 8);
	/* full */
	for (int32_t i = 0; i < 8; i++) {
		struct tsr_quad *s = tsr_quad_queue_push(&q);
		assert_non_null(s);
		s->x = i;
	}
	assert_null(tsr_quad_queue_push(&q));
	assert_int_equal(tsr_ring_count(&q), 8);
	assert_int_equal(tsr_ring_room(&q), 0);
	/* wrap-around: FIFO order across the end of the slots, many times */
	int32_t next_in = 8, next_out = 0;
	for (int round = 0; round < 20; round++) {
		for (int k = 0; k < 3; k++) {
			assert_int_equal(tsr_quad_queue_front(&q)->x, next_out++);
			tsr_quad_queue_pop(&q);
		}
		for (int k = 0; k < 3; k++)
			tsr_quad_queue_push(&q)->x = next_in++;
		assert_null(tsr_quad_queue_push(&q));
		assert_true(q.head != 0 || round % 8 == 7);
	}
	while (tsr_quad_queue_front(&q)) {
		assert_int_equal(tsr_quad_queue_front(&q)->x, next_out++);
		tsr_quad_queue_pop(&q);
	}
	assert_int_equal(next_out, next_in);
	assert_int_equal(tsr_ring_room(&q), 8);
	tsr_ring_release(&q);

	/* the primitive queue */
	struct tsr_ring pq;
	struct tsr_primitive ps[3];
	assert_int_equal(tsr_prim_queue_init(&pq, 2, &err), TSR_OK);
	assert_null(tsr_prim_queue_front(&pq));
	for (int round = 0; round < 5; round++) {
		for (int k = 0; k < 2; k++)
			assert_int_equal(tsr_prim_queue_push(&pq, &(struct tsr_raster_prim){&ps[(round + k) % 3], NULL}), 1);
		assert_int_equal(tsr_prim_queue_push(&pq, &(struct tsr_raster_prim){&ps[0], NULL}), 0);
		for (int k = 0; k < 2; k++) {
			assert_ptr_equal(tsr_prim_queue_front(&pq)->prim, &ps[(round + k) % 3]);
			tsr_prim_queue_pop(&pq);
		}
		assert_null(tsr_prim_queue_front(&pq));
	}
	tsr_ring_release(&pq);
}

/* ------------------------------------- stages one work item at a time */

/* Every access every cache receives, folded in order (FNV-1a). */
struct access_log {
	uint64_t hash;
	uint64_t count;
};

static void log_access(void *ctx, const struct tsr_access *a)
{
	struct access_log *l = ctx;
	uint64_t v[3] = {a->addr, a->size, (uint64_t)a->write << 8 | a->stream};
	for (int i = 0; i < 3; i++)
		for (int b = 0; b < 8; b++) {
			l->hash ^= (v[i] >> (8 * b)) & 0xff;
			l->hash *= 0x100000001b3ull;
		}
	l->count++;
}

static void log_marker(void *ctx, enum tsr_marker kind, uint64_t value)
{
	(void)ctx;
	(void)kind;
	(void)value;
}

static void observe_caches(struct fixture *f, struct access_log *log)
{
	log->hash = 0xcbf29ce484222325ull;
	log->count = 0;
	struct tsr_cache_observer o = {log_access, log_marker, log};
	for (uint32_t i = 0; i < tsr_memsys_cache_count(f->mem); i++)
		tsr_cache_set_observer(tsr_memsys_cache_by_name(f->mem,
								tsr_cache_name(tsr_memsys_cache(f->mem, i))),
				       &o);
}

/* A scene for the stepping test: its primitives, materials, texture. */
struct step_scene {
	struct tsr_primitive ps[24];
	struct tsr_shader_binding b[24];
	struct tsr_material m[4];
	struct tsr_texture *tex;
	uint8_t texels[8 * 8 * 4];
	uint32_t n;
};

/* Overlapping triangles over a 30x27 window at (3, 5): opaque, alpha,
 * alpha-tested (a texture whose alpha varies) and textured opaque. */
static void step_scene_init(struct step_scene *sc)
{
	memset(sc, 0, sizeof(*sc));
	for (uint32_t i = 0; i < 8 * 8; i++) {
		sc->texels[4 * i] = (uint8_t)(i * 4);
		sc->texels[4 * i + 1] = (uint8_t)(255 - i * 3);
		sc->texels[4 * i + 2] = (uint8_t)(i * 7);
		sc->texels[4 * i + 3] = (uint8_t)((i * 37) % 256);
	}
	struct tsr_image img = {.path = "stepping", .width = 8, .height = 8, .rgba = sc->texels};
	struct tsr_error err;
	assert_int_equal(tsr_texture_create(&img, &sc->tex, &err), TSR_OK);
	tsr_texture_set_base(sc->tex, 0x50000000ull);
	sc->m[0] = material(TSR_BLEND_OPAQUE, 0.9f, 0.2f, 0.1f, 1);
	sc->m[1] = material(TSR_BLEND_ALPHA, 0.1f, 0.8f, 0.3f, 0.4f);
	sc->m[2] = material(TSR_BLEND_ALPHA_TEST, 1, 1, 1, 1);
	sc->m[2].texture = 0;
	sc->m[2].alpha_cutoff = 0.5f;
	sc->m[3] = material(TSR_BLEND_OPAQUE, 1, 1, 1, 1);
	sc->m[3].texture = 0;
	sc->m[3].filter = TSR_FILTER_BILINEAR;
	uint32_t seed = 12345;
	for (uint32_t i = 0; i < 24; i++) {
		struct vtx v[3];
		for (int k = 0; k < 3; k++) {
			seed = seed * 1103515245u + 12345u;
			double x = (seed >> 8) % 4000 / 100.0 - 2;
			seed = seed * 1103515245u + 12345u;
			double y = (seed >> 8) % 4000 / 100.0 - 2;
			v[k] = (struct vtx){x, y, 0.1f + 0.035f * (float)((i * 7 + (uint32_t)k) % 24),
					    1.0f / (1.0f + (float)k), (float)k * 0.7f,
					    (float)(k == 1) * 1.3f, 0.6f + 0.2f * (float)k};
		}
		sc->ps[i] = prim(v[0], v[1], v[2]);
		const struct tsr_material *m = &sc->m[i % 4];
		sc->b[i] = bind(m, m->texture >= 0 ? sc->tex : NULL, 0x40000000ull + 64 * (i % 4),
				32 + 48 * (i % 2));
	}
	sc->n = 24;
}

static struct fixture *step_fixture(void)
{
	struct fixture *f = fixture_new(TSR_QG_FG_XSHIFT2, 32, 32);
	f->t.x0 = 3;
	f->t.y0 = 5;
	f->t.width = 30;
	f->t.height = 27;
	return f;
}

/*
 * Runs the scene with a random schedule: each step picks a stage and runs
 * it on one work item if it can. With in_order, shading takes the oldest
 * quad (tsr_raster_oldest_core), else a random core's. With upstream,
 * shading and blending are picked rarely, so the queues fill and stall.
 */
static void run_stepped(struct fixture *f, struct step_scene *sc, uint32_t seed, int in_order,
			int upstream, uint64_t *steps, uint64_t *overlaps, uint64_t *stalls)
{
	const struct tsr_raster_ctx c = {&f->t, f->mem, &f->rs, &f->ts, NULL};
	uint32_t submitted = 0, rasterized = 0;
	*steps = *overlaps = *stalls = 0;
	while (submitted < sc->n || tsr_raster_pending(f->r)) {
		seed = seed * 1103515245u + 12345u;
		uint32_t pick = (seed >> 16) % 5;
		if (upstream) {
			pick = (seed >> 16) % 40;
			pick = pick < 38 ? pick % 3 : pick - 35;
		}
		enum tsr_stage_result res = TSR_STAGE_IDLE;
		if (pick == 0) {
			if (submitted < sc->n &&
			    tsr_raster_submit(f->r, &(struct tsr_raster_prim){&sc->ps[submitted],
									     &sc->b[submitted]}))
				submitted++;
			continue;
		} else if (pick == 1) {
			uint32_t quads_in_flight = tsr_raster_pending(f->r) - (submitted - rasterized);
			res = tsr_raster_rasterize(f->r, &c);
			rasterized += res == TSR_STAGE_DONE;
			/* a primitive entered while quads of earlier ones were in flight */
			*overlaps += res == TSR_STAGE_DONE && quads_in_flight > 0;
		} else if (pick == 2) {
			res = tsr_raster_early_z(f->r, &c);
		} else if (pick == 3) {
			int core = tsr_raster_oldest_core(f->r);
			if (!in_order)
				core = (int)((seed >> 8) % f->cfg.mem.cores);
			if (core >= 0)
				res = tsr_raster_shade(f->r, (uint32_t)core, &c);
		} else {
			res = tsr_raster_blend(f->r, &c);
		}
		*steps += res == TSR_STAGE_DONE;
		*stalls += res == TSR_STAGE_STALLED;
	}
}

static void test_stages_one_at_a_time(void **state)
{
	(void)state;
	struct step_scene *sc = malloc(sizeof(*sc));
	assert_non_null(sc);
	step_scene_init(sc);

	/* back to back */
	struct fixture *a = step_fixture();
	struct access_log la;
	observe_caches(a, &la);
	for (uint32_t i = 0; i < sc->n; i++)
		tsr_raster_primitive(a->r, &sc->ps[i], &sc->b[i], &a->t, a->mem, &a->rs, &a->ts);
	/* the scene exercises every stage and every kill path */
	assert_true(a->rs.quads_early_z_killed > 0);
	assert_true(a->rs.quads_late_z_killed > 0);
	assert_true(a->rs.fragments_discarded > 0);
	assert_true(a->ts.sample_instructions > 0);
	assert_true(a->rs.pixels_written > 500);

	uint32_t reordered = 0;
	uint64_t stalled = 0;
	for (uint32_t seed = 1; seed <= 8; seed++) {
		int in_order = seed <= 4 || seed >= 7, upstream = seed >= 7;
		struct fixture *b = step_fixture();
		struct access_log lb;
		observe_caches(b, &lb);
		uint64_t steps, overlaps, stalls;
		run_stepped(b, sc, seed, in_order, upstream, &steps, &overlaps, &stalls);
		stalled += upstream ? stalls : 0;
		/* the schedule really pipelined primitives */
		assert_true(overlaps > 3);
		/* one step per primitive, per rasterized quad in Early-Z, per
		 * quad surviving it in shading and blending */
		assert_int_equal(steps, sc->n + b->rs.quads_rasterized +
					2 * (b->rs.quads_rasterized - b->rs.quads_early_z_killed));
		assert_memory_equal(a->color, b->color, sizeof(a->color));
		assert_memory_equal(a->depth, b->depth, sizeof(a->depth));
		assert_memory_equal(&a->rs, &b->rs, sizeof(a->rs));
		assert_memory_equal(&a->ts, &b->ts, sizeof(a->ts));
		if (in_order) {
			/* the same accesses in the same order, so the same counters */
			assert_int_equal(la.count, lb.count);
			assert_true(la.hash == lb.hash);
			assert_int_equal(tsr_memsys_accesses(a->mem), tsr_memsys_accesses(b->mem));
			for (uint32_t i = 0; i < tsr_memsys_cache_count(a->mem); i++) {
				struct tsr_cache_counters ca = tsr_cache_counters_total(tsr_memsys_cache(a->mem, i));
				struct tsr_cache_counters cb = tsr_cache_counters_total(tsr_memsys_cache(b->mem, i));
				assert_memory_equal(&ca, &cb, sizeof(ca));
			}
		} else {
			/* shading out of order: the same images, other access orders */
			assert_int_equal(la.count, lb.count);
			reordered += la.hash != lb.hash;
		}
		fixture_free(b);
	}
	assert_true(reordered > 0);  /* the access-order check has teeth */
	assert_true(stalled > 0);    /* stages stalled (full queues, the late-Z hazard) */

	/* a stepping caller may hand over to the functional mode at any point */
	struct fixture *d = step_fixture();
	const struct tsr_raster_ctx c = {&d->t, d->mem, &d->rs, &d->ts, NULL};
	for (uint32_t i = 0; i < 6; i++)
		assert_int_equal(tsr_raster_submit(d->r, &(struct tsr_raster_prim){&sc->ps[i], &sc->b[i]}), 1);
	assert_int_equal(tsr_raster_rasterize(d->r, &c), TSR_STAGE_DONE);
	assert_int_equal(tsr_raster_rasterize(d->r, &c), TSR_STAGE_DONE);
	for (int k = 0; k < 5; k++)
		tsr_raster_early_z(d->r, &c);
	tsr_raster_drain(d->r, &c);
	assert_int_equal(tsr_raster_pending(d->r), 0);
	for (uint32_t i = 6; i < sc->n; i++)
		tsr_raster_primitive(d->r, &sc->ps[i], &sc->b[i], &d->t, d->mem, &d->rs, &d->ts);
	assert_memory_equal(a->color, d->color, sizeof(a->color));
	assert_memory_equal(a->depth, d->depth, sizeof(a->depth));
	assert_memory_equal(&a->rs, &d->rs, sizeof(a->rs));
	fixture_free(d);

	/* idle stages say so */
	struct fixture *e = step_fixture();
	const struct tsr_raster_ctx ce = {&e->t, e->mem, &e->rs, &e->ts, NULL};
	assert_int_equal(tsr_raster_rasterize(e->r, &ce), TSR_STAGE_IDLE);
	assert_int_equal(tsr_raster_early_z(e->r, &ce), TSR_STAGE_IDLE);
	assert_int_equal(tsr_raster_shade(e->r, 0, &ce), TSR_STAGE_IDLE);
	assert_int_equal(tsr_raster_blend(e->r, &ce), TSR_STAGE_IDLE);
	assert_int_equal(tsr_raster_oldest_core(e->r), -1);
	fixture_free(e);

	fixture_free(a);
	tsr_texture_destroy(sc->tex);
	free(sc);
}

/* Early-Z waits for an alpha-tested primitive's late depth writes. */
static void test_early_z_waits_for_late_z(void **state)
{
	(void)state;
	struct fixture *f = fixture_new(TSR_QG_FG_XSHIFT2, 32, 32);
	const struct tsr_raster_ctx c = {&f->t, f->mem, &f->rs, &f->ts, NULL};
	struct tsr_material tested = material(TSR_BLEND_ALPHA_TEST, 1, 0, 0, 1);
	tested.alpha_cutoff = 0.5f;
	struct tsr_material opaque = material(TSR_BLEND_OPAQUE, 0, 1, 0, 1);
	struct tsr_primitive near = flat_triangle(0.2f), far = flat_triangle(0.6f);
	struct tsr_shader_binding bt = bind(&tested, NULL, 0x40000000ull, 32);
	struct tsr_shader_binding bo = bind(&opaque, NULL, 0x40000000ull, 32);
	assert_int_equal(tsr_raster_submit(f->r, &(struct tsr_raster_prim){&near, &bt}), 1);
	assert_int_equal(tsr_raster_submit(f->r, &(struct tsr_raster_prim){&far, &bo}), 1);
	assert_int_equal(tsr_raster_rasterize(f->r, &c), TSR_STAGE_DONE);
	uint64_t quads = f->rs.quads_rasterized;
	assert_int_equal(tsr_raster_rasterize(f->r, &c), TSR_STAGE_DONE);
	/* the alpha-tested quads pass Early-Z untested ... */
	for (uint64_t i = 0; i < quads; i++)
		assert_int_equal(tsr_raster_early_z(f->r, &c), TSR_STAGE_DONE);
	/* ... and the opaque ones behind them wait until they are blended */
	assert_int_equal(tsr_raster_early_z(f->r, &c), TSR_STAGE_STALLED);
	int core;
	while ((core = tsr_raster_oldest_core(f->r)) >= 0)
		assert_int_equal(tsr_raster_shade(f->r, (uint32_t)core, &c), TSR_STAGE_DONE);
	assert_int_equal(tsr_raster_early_z(f->r, &c), TSR_STAGE_STALLED);
	while (tsr_raster_blend(f->r, &c) == TSR_STAGE_DONE)
		;
	tsr_raster_drain(f->r, &c);
	/* the far opaque triangle died in Early-Z against the late depth */
	assert_int_equal(f->rs.quads_early_z_killed, quads);
	for (int32_t y = 0; y < 32; y++)
		for (int32_t x = 0; x < 32; x++)
			if (covered(&near, x, y))
				assert_float_equal(pixel(f, x, y)[0], 1.0f, 1e-5);
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill_rule_grid),
		cmocka_unit_test(test_fill_rule_fan),
		cmocka_unit_test(test_coverage_random),
		cmocka_unit_test(test_perspective_correct_shade),
		cmocka_unit_test(test_shade_clamp),
		cmocka_unit_test(test_perspective_correct_texcoords),
		cmocka_unit_test(test_early_z),
		cmocka_unit_test(test_quad_core_functions),
		cmocka_unit_test(test_quad_grouping_in_raster),
		cmocka_unit_test(test_subtile_cores_in_raster),
		cmocka_unit_test(test_quad_queue),
		cmocka_unit_test(test_stages_one_at_a_time),
		cmocka_unit_test(test_early_z_waits_for_late_z),
		cmocka_unit_test(test_fragment_program),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
