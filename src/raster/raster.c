#include "raster/raster.h"

#include <stdlib.h>

const char *const tsr_quad_grouping_names[] = {"fg-xshift2", "cg-square", NULL};

struct tsr_raster {
	struct tsr_raster_config cfg;
	uint32_t capacity;          /* quads */
	struct tsr_quad *quads;     /* the queue between the stages */
};

enum tsr_status tsr_raster_create(const struct tsr_raster_config *cfg,
				  uint32_t max_width, uint32_t max_height,
				  struct tsr_raster **out,
				  struct tsr_error *err)
{
	struct tsr_raster *r = calloc(1, sizeof(*r));
	if (!r)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	r->cfg = *cfg;
	r->capacity = ((max_width + 1) / 2) * ((max_height + 1) / 2);
	r->quads = malloc((size_t)r->capacity * sizeof(*r->quads));
	if (!r->quads) {
		free(r);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	*out = r;
	return TSR_OK;
}

void tsr_raster_destroy(struct tsr_raster *r)
{
	if (!r)
		return;
	free(r->quads);
	free(r);
}

uint32_t tsr_quad_core(enum tsr_quad_grouping g, uint32_t cores, uint32_t qx,
		       uint32_t qy, uint32_t quads_w, uint32_t quads_h)
{
	if (g == TSR_QG_CG_SQUARE) {
		uint32_t side = 1;
		while (side * side < cores)
			side++;
		return (qy * side / quads_h) * side + qx * side / quads_w;
	}
	return (qx + 2 * qy) % cores;
}

/* Stage 1: quads covering the primitive inside the window. */
static uint32_t rasterize(struct tsr_raster *r, const struct tsr_primitive *p,
			  const struct tsr_target *t)
{
	const int64_t one = 1 << TSR_SUBPIXEL_BITS, half = one / 2;
	int32_t x0 = p->min_x > t->x0 ? p->min_x : t->x0;
	int32_t y0 = p->min_y > t->y0 ? p->min_y : t->y0;
	int32_t x1 = p->max_x < t->x0 + (int32_t)t->width - 1 ? p->max_x : t->x0 + (int32_t)t->width - 1;
	int32_t y1 = p->max_y < t->y0 + (int32_t)t->height - 1 ? p->max_y : t->y0 + (int32_t)t->height - 1;
	if (x0 > x1 || y0 > y1)
		return 0;
	/* align to the window's quad grid */
	x0 -= (x0 - t->x0) & 1;
	y0 -= (y0 - t->y0) & 1;
	int64_t dx[3], dy[3], bias[3], row[3];
	for (int i = 0; i < 3; i++) {
		int j = (i + 1) % 3;
		dx[i] = p->X[j] - p->X[i];
		dy[i] = p->Y[j] - p->Y[i];
		int top_left = (dy[i] == 0 && dx[i] > 0) || dy[i] < 0;
		bias[i] = top_left ? 0 : -1;
		int64_t px = (int64_t)x0 * one + half, py = (int64_t)y0 * one + half;
		row[i] = dx[i] * (py - p->Y[i]) - dy[i] * (px - p->X[i]) + bias[i];
	}
	uint32_t n = 0;
	for (int32_t y = y0; y <= y1; y += 2) {
		int64_t e[3] = {row[0], row[1], row[2]};
		for (int32_t x = x0; x <= x1; x += 2) {
			uint8_t mask = 0;
			for (int k = 0; k < 4; k++) {
				int ox = k & 1, oy = k >> 1;
				int in = 1;
				for (int i = 0; i < 3; i++) {
					int64_t v = e[i] - dy[i] * one * ox + dx[i] * one * oy;
					in &= v >= 0;
				}
				/* pixels outside the window (odd-sized edges) are not covered */
				if (x + ox >= t->x0 + (int32_t)t->width ||
				    y + oy >= t->y0 + (int32_t)t->height)
					in = 0;
				mask |= (uint8_t)(in << k);
			}
			if (mask) {
				struct tsr_quad *q = &r->quads[n++];
				q->x = x;
				q->y = y;
				q->mask = mask;
			}
			for (int i = 0; i < 3; i++)
				e[i] -= dy[i] * 2 * one;
		}
		for (int i = 0; i < 3; i++)
			row[i] += dx[i] * 2 * one;
	}
	return n;
}

/* Barycentric weights (screen space) of pixel (px, py). */
static void barycentric(const struct tsr_primitive *p, int32_t px, int32_t py,
			float l[3])
{
	const int64_t one = 1 << TSR_SUBPIXEL_BITS, half = one / 2;
	int64_t sx = (int64_t)px * one + half, sy = (int64_t)py * one + half;
	double inv = 1.0 / (double)p->area2;
	int64_t e1 = (p->X[2] - p->X[1]) * (sy - p->Y[1]) - (p->Y[2] - p->Y[1]) * (sx - p->X[1]);
	int64_t e2 = (p->X[0] - p->X[2]) * (sy - p->Y[2]) - (p->Y[0] - p->Y[2]) * (sx - p->X[2]);
	l[0] = (float)((double)e1 * inv);
	l[1] = (float)((double)e2 * inv);
	l[2] = 1.0f - l[0] - l[1];
}

static int depth_test(struct tsr_target *t, struct tsr_quad *q, int write)
{
	uint8_t pass = 0;
	for (int k = 0; k < 4; k++) {
		if (!(q->mask >> k & 1))
			continue;
		uint32_t bx = (uint32_t)(q->x + (k & 1) - t->x0);
		uint32_t by = (uint32_t)(q->y + (k >> 1) - t->y0);
		float *d = &t->depth[by * t->stride + bx];
		if (q->z[k] < *d) {
			pass |= (uint8_t)(1 << k);
			if (write)
				*d = q->z[k];
		}
	}
	q->mask = pass;
	return pass != 0;
}

static int popcount4(uint8_t m)
{
	return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1);
}

void tsr_raster_primitive(struct tsr_raster *r, const struct tsr_primitive *p,
			  const struct tsr_shader_binding *shader,
			  struct tsr_target *t, struct tsr_memsys *mem,
			  struct tsr_raster_stats *rs,
			  struct tsr_texture_stats *ts)
{
	const struct tsr_material *mat = shader->material;
	const uint32_t cores = r->cfg.cores;
	const uint32_t quads_w = (t->width + 1) / 2, quads_h = (t->height + 1) / 2;
	uint32_t n = rasterize(r, p, t);
	rs->quads_rasterized += n;
	const int late_z = mat->blend == TSR_BLEND_ALPHA_TEST;
	uint32_t fs_lines = 0;
	if (shader->fs_bytes)
		fs_lines = (uint32_t)(((shader->fs_base + shader->fs_bytes - 1) >> 6) -
				      (shader->fs_base >> 6) + 1);

	for (uint32_t i = 0; i < n; i++) {
		struct tsr_quad *q = &r->quads[i];
		float l[4][3];
		for (int k = 0; k < 4; k++) {
			barycentric(p, q->x + (k & 1), q->y + (k >> 1), l[k]);
			q->z[k] = l[k][0] * p->z[0] + l[k][1] * p->z[1] + l[k][2] * p->z[2];
		}
		/* stage 2: Early-Z */
		if (!late_z && !depth_test(t, q, mat->blend == TSR_BLEND_OPAQUE)) {
			rs->quads_early_z_killed++;
			continue;
		}
		/* stage 3: fragment shading on the quad's core */
		uint32_t qx = (uint32_t)(q->x - t->x0) / 2, qy = (uint32_t)(q->y - t->y0) / 2;
		uint32_t core = tsr_quad_core(r->cfg.quad_grouping, cores, qx, qy, quads_w, quads_h);
		q->core = (uint8_t)core;
		rs->quads_shaded++;
		rs->quads_per_core[core]++;
		rs->fragments_shaded += (uint64_t)popcount4(q->mask);
		tsr_mem_access(mem, tsr_memsys_port(mem, TSR_STREAM_INSTRUCTION, core),
			       shader->fs_base, shader->fs_bytes, 0,
			       TSR_STREAM_INSTRUCTION, (uint16_t)core, 0, NULL);
		rs->instruction_fetches += fs_lines;
		float u[4], v[4], shade[4];
		for (int k = 0; k < 4; k++) {
			float w0 = l[k][0] * p->inv_w[0], w1 = l[k][1] * p->inv_w[1],
			      w2 = l[k][2] * p->inv_w[2];
			float s = w0 + w1 + w2;
			float inv = s != 0.0f ? 1.0f / s : 0.0f;
			u[k] = (w0 * p->u[0] + w1 * p->u[1] + w2 * p->u[2]) * inv;
			v[k] = (w0 * p->v[0] + w1 * p->v[1] + w2 * p->v[2]) * inv;
			shade[k] = (w0 * p->shade[0] + w1 * p->shade[1] + w2 * p->shade[2]) * inv;
		}
		if (shader->texture) {
			struct tsr_texel_requests req;
			tsr_texture_sample_quad(shader->texture, mat->filter, mat->wrap, u, v,
						q->rgba, &req);
			uint32_t tc = tsr_memsys_port(mem, TSR_STREAM_TEXTURE, core);
			for (uint32_t j = 0; j < req.line_count; j++)
				tsr_mem_access(mem, tc, req.lines[j], TSR_TEXTURE_BLOCK_BYTES, 0,
					       TSR_STREAM_TEXTURE, (uint16_t)core, 0, NULL);
			ts->sample_instructions++;
			ts->texel_fetches += req.texel_fetches;
			ts->line_requests += req.line_count;
		} else {
			for (int k = 0; k < 4; k++)
				for (int c = 0; c < 4; c++)
					q->rgba[k][c] = 1.0f;
		}
		for (int k = 0; k < 4; k++) {
			float sh = shade[k] < 0.0f ? 0.0f : (shade[k] > 1.0f ? 1.0f : shade[k]);
			for (int c = 0; c < 3; c++)
				q->rgba[k][c] *= mat->color[c] * sh;
			q->rgba[k][3] *= mat->color[3];
		}
		if (late_z) {
			uint8_t keep = 0;
			for (int k = 0; k < 4; k++)
				if ((q->mask >> k & 1) && q->rgba[k][3] >= mat->alpha_cutoff)
					keep |= (uint8_t)(1 << k);
			rs->fragments_discarded += (uint64_t)(popcount4(q->mask) - popcount4(keep));
			q->mask = keep;
			if (!keep || !depth_test(t, q, 1)) {
				rs->quads_late_z_killed++;
				continue;
			}
		}
		/* stage 4: blending into the on-chip color buffer */
		for (int k = 0; k < 4; k++) {
			if (!(q->mask >> k & 1))
				continue;
			uint32_t bx = (uint32_t)(q->x + (k & 1) - t->x0);
			uint32_t by = (uint32_t)(q->y + (k >> 1) - t->y0);
			float *dst = &t->color[((size_t)by * t->stride + bx) * 4];
			if (mat->blend == TSR_BLEND_ALPHA) {
				float a = q->rgba[k][3];
				a = a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a);
				for (int c = 0; c < 3; c++)
					dst[c] = q->rgba[k][c] * a + dst[c] * (1.0f - a);
				dst[3] = a + dst[3] * (1.0f - a);
			} else {
				for (int c = 0; c < 4; c++)
					dst[c] = q->rgba[k][c];
			}
			rs->pixels_written++;
		}
	}
}
