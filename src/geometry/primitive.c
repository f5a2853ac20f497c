#include "geometry/primitive.h"

int tsr_primitive_bbox(struct tsr_primitive *p, uint32_t width, uint32_t height)
{
	int64_t minX = p->X[0], maxX = p->X[0], minY = p->Y[0], maxY = p->Y[0];
	for (int i = 1; i < 3; i++) {
		minX = p->X[i] < minX ? p->X[i] : minX;
		maxX = p->X[i] > maxX ? p->X[i] : maxX;
		minY = p->Y[i] < minY ? p->Y[i] : minY;
		maxY = p->Y[i] > maxY ? p->Y[i] : maxY;
	}
	const int64_t one = 1 << TSR_SUBPIXEL_BITS, half = one / 2;
	int64_t x0 = (minX - half + one - 1) >> TSR_SUBPIXEL_BITS;
	int64_t x1 = (maxX - half) >> TSR_SUBPIXEL_BITS;
	int64_t y0 = (minY - half + one - 1) >> TSR_SUBPIXEL_BITS;
	int64_t y1 = (maxY - half) >> TSR_SUBPIXEL_BITS;
	x0 = x0 < 0 ? 0 : x0;
	y0 = y0 < 0 ? 0 : y0;
	x1 = x1 >= (int64_t)width ? (int64_t)width - 1 : x1;
	y1 = y1 >= (int64_t)height ? (int64_t)height - 1 : y1;
	if (x0 > x1 || y0 > y1)
		return 0;
	p->min_x = (int32_t)x0;
	p->max_x = (int32_t)x1;
	p->min_y = (int32_t)y0;
	p->max_y = (int32_t)y1;
	return 1;
}
