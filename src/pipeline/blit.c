/*
 * blit.c - framebuffer blits (struct tsr_cmd_blit, command/command.h),
 * what both pipelines do alike between two passes so that their images
 * stay bit for bit equal: the source read whole, each destination pixel
 * computed from it (NEAREST or LINEAR, flips and scaling, the scissor
 * box, clipping to the source's bounds), then written; their memory
 * traffic is the source's texels read and the destination's written, as
 * the pipelines' tile loads and flushes make it (a render target's block
 * rows: tsr_gpu_rt_rect_traffic(); the frame buffer's: the pipeline
 * driver's window_traffic).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/gpu_priv.h"

void tsr_gpu_rt_rect_traffic(struct tsr_gpu *g, const struct tsr_texture *tex, uint32_t x0,
			     uint32_t y0, uint32_t w, uint32_t h, int write)
{
	const uint32_t port = tsr_memsys_port(g->mem, TSR_STREAM_RENDER_TARGET, 0);
	const uint32_t b = TSR_TEXTURE_BLOCK;
	const uint32_t bx0 = x0 / b, bx1 = (x0 + w - 1) / b;
	/* the texel rows the pass's rows are (a bottom-up target's run up) */
	uint32_t r0 = tsr_texture_pass_row(tex, y0);
	uint32_t r1 = tsr_texture_pass_row(tex, y0 + h - 1);
	if (r1 < r0) {
		const uint32_t r = r0;
		r0 = r1;
		r1 = r;
	}
	for (uint32_t by = r0 / b; by <= r1 / b; by++)
		tsr_mem_access(g->mem, port, tsr_texel_address(tex, 0, bx0 * b, by * b),
			       (bx1 - bx0 + 1) * TSR_TEXTURE_BLOCK_BYTES, write,
			       TSR_STREAM_RENDER_TARGET, 0, 0, NULL);
}

enum tsr_status tsr_gpu_check_blits(const struct tsr_gpu *g, const struct tsr_frame_commands *c,
				    struct tsr_error *err)
{
	if (c->blit_count && (g->slot_count > 1 || g->cfg.elim.rendering ||
			      g->cfg.elim.transactions))
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "frame %u has a framebuffer blit: blits run without "
				     "timing.overlap_frames and rendering/transaction elimination "
				     "so far; switch them off in the configuration", c->frame);
	for (uint32_t i = 0; i < c->blit_count; i++) {
		const struct tsr_cmd_blit *b = &c->blits[i];
		int ok = b->before_pass < c->pass_count &&
			 (i == 0 || b->before_pass >= c->blits[i - 1].before_pass) &&
			 !(b->mask & ~(TSR_CLEAR_COLOR | TSR_CLEAR_DEPTH)) &&
			 !(b->linear && (b->mask & TSR_CLEAR_DEPTH));
		if (b->mask & TSR_CLEAR_COLOR) {
			const int32_t im[2] = {b->src_color, b->dst_color};
			for (int k = 0; k < 2; k++)
				ok = ok && (im[k] == -1 ||
					    (im[k] >= 0 && (uint32_t)im[k] < g->res.image_count &&
					     g->res.images[im[k]].render_target &&
					     !g->res.images[im[k]].depth));
		}
		if (b->mask & TSR_CLEAR_DEPTH) {
			const int32_t im[2] = {b->src_depth, b->dst_depth};
			for (int k = 0; k < 2; k++)
				ok = ok && im[k] >= 0 && (uint32_t)im[k] < g->res.image_count &&
				     g->res.images[im[k]].render_target && g->res.images[im[k]].depth;
		}
		if (!ok)
			return tsr_error_set(err, TSR_ERR_INTERNAL,
					     "blit %u of frame %u is malformed (its place, mask, "
					     "filter or images)", i, c->frame);
	}
	return TSR_OK;
}

/* The size of a blit's buffer: image im, or the frame buffer (-1). */
static void buffer_size(const struct tsr_gpu *g, int32_t im, uint32_t *w, uint32_t *h)
{
	*w = im < 0 ? g->cfg.width : g->res.images[im].width;
	*h = im < 0 ? g->cfg.height : g->res.images[im].height;
}

/* The traffic of the rectangle (x0, y0, w, h) in GL's coordinates (rows
 * up) of buffer im (-1: the frame buffer `buf`) of height H. */
static void rect_traffic(struct tsr_gpu *g, int32_t im, uint32_t buf, uint32_t H, uint32_t x0,
			 uint32_t y0, uint32_t w, uint32_t h, int write)
{
	if (!w || !h)
		return;
	const uint32_t py0 = H - (y0 + h);  /* the top row as a pass's row */
	if (im >= 0)
		tsr_gpu_rt_rect_traffic(g, g->textures[im], x0, py0, w, h, write);
	else
		g->driver->window_traffic(g, buf, x0, py0, w, h, write);
}

/* One blit: the pixels, then (in this order) the source's reads and the
 * destination's writes. */
static enum tsr_status run_blit(struct tsr_gpu *g, const struct tsr_cmd_blit *b,
				struct tsr_error *err)
{
	const int color = (b->mask & TSR_CLEAR_COLOR) != 0;
	for (int pass = 0; pass < 2; pass++) {  /* color, then depth */
		const int depth = pass == 1;
		if (depth ? !(b->mask & TSR_CLEAR_DEPTH) : !color)
			continue;
		const int32_t src = depth ? b->src_depth : b->src_color;
		const int32_t dst = depth ? b->dst_depth : b->dst_color;
		if (dst >= 0)
			g->image_versions[dst]++;  /* new contents (tsr_tbr_view image_version) */
		uint32_t sw, sh, dw, dh;
		buffer_size(g, src, &sw, &sh);
		buffer_size(g, dst, &dw, &dh);
		/* the destination pixels the rectangle, the buffer and the
		 * scissor box cover */
		int64_t x0 = b->dst[0] < b->dst[2] ? b->dst[0] : b->dst[2];
		int64_t x1 = b->dst[0] < b->dst[2] ? b->dst[2] : b->dst[0];
		int64_t y0 = b->dst[1] < b->dst[3] ? b->dst[1] : b->dst[3];
		int64_t y1 = b->dst[1] < b->dst[3] ? b->dst[3] : b->dst[1];
		x0 = x0 > 0 ? x0 : 0;
		y0 = y0 > 0 ? y0 : 0;
		x1 = x1 < dw ? x1 : dw;
		y1 = y1 < dh ? y1 : dh;
		if (b->scissor.enable) {
			const int64_t sx0 = b->scissor.x, sy0 = b->scissor.y;
			const int64_t sx1 = sx0 + b->scissor.width, sy1 = sy0 + b->scissor.height;
			x0 = x0 > sx0 ? x0 : sx0;
			y0 = y0 > sy0 ? y0 : sy0;
			x1 = x1 < sx1 ? x1 : sx1;
			y1 = y1 < sy1 ? y1 : sy1;
		}
		if (x0 >= x1 || y0 >= y1)
			continue;
		const uint32_t sbuf = g->fb_drawn ? g->back : g->back ^ 1;  /* a frame-buffer source */
		/* the source whole and the destination whole, the pass's rows
		 * (top first) */
		const size_t texel = depth ? sizeof(float) : 4;
		uint8_t *s = malloc((size_t)sw * sh * texel);
		uint8_t *d = malloc((size_t)dw * dh * texel);
		if (!s || !d) {
			free(s);
			free(d);
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a blit");
		}
		if (depth) {
			tsr_texture_read_depth_rect(g->textures[src], 0, 0, sw, sh, (float *)s, sw);
			tsr_texture_read_depth_rect(g->textures[dst], 0, 0, dw, dh, (float *)d, dw);
		} else {
			if (src >= 0)
				tsr_texture_read_rect(g->textures[src], 0, 0, sw, sh, s, sw * 4);
			else
				memcpy(s, g->image[sbuf], (size_t)sw * sh * 4);
			if (dst >= 0)
				tsr_texture_read_rect(g->textures[dst], 0, 0, dw, dh, d, dw * 4);
			else
				memcpy(d, g->image[g->back], (size_t)dw * dh * 4);
		}
		/* the scale from the destination's pixel centers to the source */
		const double sx = (double)((int64_t)b->src[2] - b->src[0]) /
				  (double)((int64_t)b->dst[2] - b->dst[0]);
		const double sy = (double)((int64_t)b->src[3] - b->src[1]) /
				  (double)((int64_t)b->dst[3] - b->dst[1]);
		int64_t rx0 = INT64_MAX, rx1 = -1, ry0 = INT64_MAX, ry1 = -1;  /* source read */
		int64_t wx0 = INT64_MAX, wx1 = -1, wy0 = INT64_MAX, wy1 = -1;  /* written */
		for (int64_t y = y0; y < y1; y++) {
			const double v = (double)b->src[1] +
					 ((double)y + 0.5 - (double)b->dst[1]) * sy;
			const double fv = floor(v);
			if (fv < 0 || fv >= sh)
				continue;  /* outside the source: not written */
			for (int64_t x = x0; x < x1; x++) {
				const double u = (double)b->src[0] +
						 ((double)x + 0.5 - (double)b->dst[0]) * sx;
				const double fu = floor(u);
				if (fu < 0 || fu >= sw)
					continue;
				const size_t di = (size_t)(dh - 1 - (uint64_t)y) * dw + (size_t)x;
				int64_t tx0 = (int64_t)fu, ty0 = (int64_t)fv, tx1 = tx0, ty1 = ty0;
				if (depth) {
					memcpy(d + di * 4, s + ((size_t)(sh - 1 - (uint64_t)ty0) * sw +
								(size_t)tx0) * 4, 4);
				} else if (!b->linear) {
					memcpy(d + di * 4, s + ((size_t)(sh - 1 - (uint64_t)ty0) * sw +
								(size_t)tx0) * 4, 4);
				} else {
					/* the four texels around (u - 0.5, v - 0.5), clamped, in
					 * the texture unit's 8-bit fixed point (a blit is a
					 * LINEAR sample of the source: texture/texture.h) */
					const int32_t su = (int32_t)lrint(u * 256.0) - 128;
					const int32_t sv = (int32_t)lrint(v * 256.0) - 128;
					const int32_t fx = (int32_t)((uint32_t)su & 255u);
					const int32_t fy = (int32_t)((uint32_t)sv & 255u);
					tx0 = su < 0 ? -1 : su >> 8;
					ty0 = sv < 0 ? -1 : sv >> 8;
					tx1 = tx0 + 1;
					ty1 = ty0 + 1;
					tx0 = tx0 < 0 ? 0 : tx0 >= sw ? sw - 1 : tx0;
					tx1 = tx1 < 0 ? 0 : tx1 >= sw ? sw - 1 : tx1;
					ty0 = ty0 < 0 ? 0 : ty0 >= sh ? sh - 1 : ty0;
					ty1 = ty1 < 0 ? 0 : ty1 >= sh ? sh - 1 : ty1;
					const uint8_t *p00 = s + ((size_t)(sh - 1 - (uint64_t)ty0) * sw +
								  (size_t)tx0) * 4;
					const uint8_t *p10 = s + ((size_t)(sh - 1 - (uint64_t)ty0) * sw +
								  (size_t)tx1) * 4;
					const uint8_t *p01 = s + ((size_t)(sh - 1 - (uint64_t)ty1) * sw +
								  (size_t)tx0) * 4;
					const uint8_t *p11 = s + ((size_t)(sh - 1 - (uint64_t)ty1) * sw +
								  (size_t)tx1) * 4;
					for (int k = 0; k < 4; k++)
						d[di * 4 + (size_t)k] = (uint8_t)tsr_lerp8(
							tsr_lerp8(p00[k], p10[k], fx),
							tsr_lerp8(p01[k], p11[k], fx), fy);
					if (tx1 < tx0) {
						const int64_t t = tx0;
						tx0 = tx1;
						tx1 = t;
					}
					if (ty1 < ty0) {
						const int64_t t = ty0;
						ty0 = ty1;
						ty1 = t;
					}
				}
				rx0 = tx0 < rx0 ? tx0 : rx0;
				rx1 = tx1 > rx1 ? tx1 : rx1;
				ry0 = ty0 < ry0 ? ty0 : ry0;
				ry1 = ty1 > ry1 ? ty1 : ry1;
				wx0 = x < wx0 ? x : wx0;
				wx1 = x > wx1 ? x : wx1;
				wy0 = y < wy0 ? y : wy0;
				wy1 = y > wy1 ? y : wy1;
			}
		}
		if (wx1 >= 0) {
			rect_traffic(g, src, sbuf, sh, (uint32_t)rx0, (uint32_t)ry0,
				     (uint32_t)(rx1 - rx0 + 1), (uint32_t)(ry1 - ry0 + 1), 0);
			rect_traffic(g, dst, g->back, dh, (uint32_t)wx0, (uint32_t)wy0,
				     (uint32_t)(wx1 - wx0 + 1), (uint32_t)(wy1 - wy0 + 1), 1);
			if (depth) {
				tsr_texture_write_depth_rect(g->textures[dst], 0, 0, dw, dh,
							     (const float *)d, dw);
			} else if (dst >= 0) {
				tsr_texture_write_rect(g->textures[dst], 0, 0, dw, dh, d, dw * 4);
				if (b->mipmap && g->res.images[dst].mipmapped)
					tsr_texture_build_mips(g->textures[dst]);
			} else {
				memcpy(g->image[g->back], d, (size_t)dw * dh * 4);
			}
		}
		/* the back buffer now holds the frame's image (a later pass that
		 * keeps its color continues it) */
		if (!depth && dst < 0)
			g->fb_drawn = 1;
		free(s);
		free(d);
	}
	return TSR_OK;
}

enum tsr_status tsr_gpu_run_blits(struct tsr_gpu *g, const struct tsr_frame_commands *c,
				  uint32_t before_pass, struct tsr_error *err)
{
	for (uint32_t i = 0; i < c->blit_count; i++)
		if (c->blits[i].before_pass == before_pass)
			TSR_TRY(run_blit(g, &c->blits[i], err));
	return TSR_OK;
}
