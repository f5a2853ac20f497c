#include "tiling/tile_order.h"

#include <stddef.h>

const char *const tsr_tile_order_names[] = {"scanline", "s-order", "z-order",
					    "hilbert", NULL};

void tsr_hilbert_d2xy(uint32_t n, uint32_t d, uint32_t *x, uint32_t *y)
{
	uint32_t rx, ry, t = d;
	*x = *y = 0;
	for (uint32_t s = 1; s < n; s *= 2) {
		rx = 1 & (t / 2);
		ry = 1 & (t ^ rx);
		if (ry == 0) {
			if (rx == 1) {
				*x = s - 1 - *x;
				*y = s - 1 - *y;
			}
			uint32_t tmp = *x;
			*x = *y;
			*y = tmp;
		}
		*x += s * rx;
		*y += s * ry;
		t /= 4;
	}
}

static uint32_t morton_x(uint32_t code)
{
	uint32_t x = 0;
	for (uint32_t b = 0; b < 16; b++)
		x |= ((code >> (2 * b)) & 1u) << b;
	return x;
}

void tsr_tile_order_build(enum tsr_tile_order o, uint32_t tiles_x,
			  uint32_t tiles_y, uint32_t *order)
{
	uint32_t n = 0;
	switch (o) {
	case TSR_ORDER_SCANLINE:
	case TSR_ORDER_COUNT:
		for (uint32_t i = 0; i < tiles_x * tiles_y; i++)
			order[n++] = i;
		break;
	case TSR_ORDER_SORDER:
		for (uint32_t ty = 0; ty < tiles_y; ty++)
			for (uint32_t i = 0; i < tiles_x; i++) {
				uint32_t tx = ty % 2 ? tiles_x - 1 - i : i;
				order[n++] = ty * tiles_x + tx;
			}
		break;
	case TSR_ORDER_Z: {
		uint32_t side = 1;
		while (side < tiles_x || side < tiles_y)
			side *= 2;
		for (uint32_t code = 0; code < side * side; code++) {
			uint32_t tx = morton_x(code), ty = morton_x(code >> 1);
			if (tx < tiles_x && ty < tiles_y)
				order[n++] = ty * tiles_x + tx;
		}
		break;
	}
	case TSR_ORDER_HILBERT: {
		const uint32_t b = TSR_HILBERT_BLOCK;
		uint32_t bx_count = (tiles_x + b - 1) / b;
		uint32_t by_count = (tiles_y + b - 1) / b;
		for (uint32_t by = 0; by < by_count; by++)
			for (uint32_t i = 0; i < bx_count; i++) {
				int reverse = by % 2;
				uint32_t bx = reverse ? bx_count - 1 - i : i;
				for (uint32_t d = 0; d < b * b; d++) {
					uint32_t x, y;
					tsr_hilbert_d2xy(b, d, &x, &y);
					if (reverse)
						x = b - 1 - x;
					uint32_t tx = bx * b + x, ty = by * b + y;
					if (tx < tiles_x && ty < tiles_y)
						order[n++] = ty * tiles_x + tx;
				}
			}
		break;
	}
	}
}
