/*
 * target_memory.c - the memory backend of a render target (raster.h,
 * struct tsr_target_memory; GSPC Section 2.1, Figs. 2-3): the HiZ test on
 * 8x8-pixel blocks and the Z (depth, or D24S8 depth and stencil), HiZ
 * and color buffers' accesses that
 * Early-Z, late Z and blending issue in an immediate-mode renderer. The
 * depth and color values themselves stay in the window's float buffers;
 * this file only decides what is read and written where.
 */
#include "raster/raster_priv.h"

/* Bytes of one 8x8-pixel block of the depth or color buffer (4 bytes a pixel). */
#define BLOCK_BYTES 256u

/* Byte offset of the quad at screen position (x, y) (even) in a depth or color buffer. */
static inline uint64_t quad_offset(const struct tsr_target_memory *m, int32_t x, int32_t y)
{
	const uint32_t qx = (uint32_t)x >> 1, qy = (uint32_t)y >> 1;
	const uint64_t block = (uint64_t)(qy >> 2) * m->blocks_x + (qx >> 2);
	return block * BLOCK_BYTES + (((qy & 3) << 2) | (qx & 3)) * 16u;
}

/* The largest depth of the screen's pixels in 8x8 block (bx, by). */
static float block_max_depth(const struct tsr_target_memory *m, uint32_t bx, uint32_t by)
{
	const uint32_t x0 = bx * 8, y0 = by * 8;
	const uint32_t x1 = x0 + 8 < m->width ? x0 + 8 : m->width;
	const uint32_t y1 = y0 + 8 < m->height ? y0 + 8 : m->height;
	float mx = 0.0f;
	for (uint32_t y = y0; y < y1; y++) {
		const float *row = &m->depth[(size_t)y * m->width];
		for (uint32_t x = x0; x < x1; x++)
			mx = row[x] > mx ? row[x] : mx;
	}
	return mx;
}

int tsr_target_hiz_kills(struct tsr_target_memory *m, int32_t x, int32_t y, uint8_t mask,
			 const float z[4], int lequal)
{
	const uint32_t bx = (uint32_t)x >> 3, by = (uint32_t)y >> 3;
	const uint32_t b = by * m->blocks_x + bx;
	const uint64_t addr = m->hiz_base + (uint64_t)b * 4;
	if (m->hiz_dirty[b]) {
		m->hiz_max[b] = block_max_depth(m, bx, by);
		m->hiz_dirty[b] = 0;
		tsr_mem_access(m->mem, m->hiz_port, addr, 4, 1, TSR_STREAM_HIZ, 0, 0, NULL);
	}
	tsr_mem_access(m->mem, m->hiz_port, addr, 4, 0, TSR_STREAM_HIZ, 0, 0, NULL);
	/* a pixel passes the per-pixel test only if z < depth <= hiz_max
	 * (LEQUAL: z <= depth): kill when no covered pixel has z < hiz_max
	 * (z <= hiz_max; NaN depths included) */
	const float h = m->hiz_max[b];
	for (int k = 0; k < 4; k++)
		if ((mask >> k & 1) && (z[k] < h || (lequal && z[k] == h)))
			return 0;
	return 1;
}

void tsr_target_depth_traffic(struct tsr_target_memory *m, int32_t x, int32_t y, int written)
{
	const uint64_t addr = m->depth_base + quad_offset(m, x, y);
	tsr_mem_access(m->mem, m->z_port, addr, 16, 0, TSR_STREAM_Z, 0, 0, NULL);
	if (written) {
		tsr_mem_access(m->mem, m->z_port, addr, 16, 1, TSR_STREAM_Z, 0, 0, NULL);
		if (written & 1)  /* a depth changed: the block's HiZ entry is stale */
			m->hiz_dirty[((uint32_t)y >> 3) * m->blocks_x + ((uint32_t)x >> 3)] = 1;
	}
}

void tsr_target_mrt_traffic(struct tsr_target_memory *m, uint32_t i, int32_t x, int32_t y,
			    int read)
{
	const uint64_t addr = m->mrt_base[i - 1] + quad_offset(m, x, y);
	const enum tsr_stream s = (enum tsr_stream)m->color_stream;
	if (read)
		tsr_mem_access(m->mem, m->color_port, addr, 16, 0, s, 0, 0, NULL);
	tsr_mem_access(m->mem, m->color_port, addr, 16, 1, s, 0, 0, NULL);
}

void tsr_target_color_traffic(struct tsr_target_memory *m, int32_t x, int32_t y, int read)
{
	const uint64_t addr = m->color_base + quad_offset(m, x, y);
	const enum tsr_stream s = (enum tsr_stream)m->color_stream;
	if (read)
		tsr_mem_access(m->mem, m->color_port, addr, 16, 0, s, 0, 0, NULL);
	tsr_mem_access(m->mem, m->color_port, addr, 16, 1, s, 0, 0, NULL);
}
