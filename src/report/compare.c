/*
 * compare.c - PSNR and worst pixels of one image against another
 * (compare.h).
 */
#include "report/compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene/image_load.h"

enum tsr_status tsr_image_diff(const struct tsr_image *a, const struct tsr_image *b,
			       struct tsr_image_diff *d, struct tsr_error *err)
{
	memset(d, 0, sizeof(*d));
	if (a->width != b->width || a->height != b->height)
		return tsr_error_set(err, TSR_ERR_PARSE,
				     "the images differ in size (%u x %u against %u x %u)",
				     a->width, a->height, b->width, b->height);
	d->width = a->width;
	d->height = a->height;
	uint64_t sum = 0;
	int any = 0;
	for (uint32_t y = 0; y < a->height; y++)
		for (uint32_t x = 0; x < a->width; x++) {
			const uint8_t *p = &a->rgba[((size_t)y * a->width + x) * 4];
			const uint8_t *q = &b->rgba[((size_t)y * a->width + x) * 4];
			uint32_t worst = 0;
			for (int c = 0; c < 3; c++) {
				const uint32_t e = p[c] > q[c] ? (uint32_t)(p[c] - q[c])
							       : (uint32_t)(q[c] - p[c]);
				sum += (uint64_t)e * e;
				worst = e > worst ? e : worst;
			}
			if (!worst)
				continue;
			d->pixels_differing++;
			if (worst > d->max_diff) {
				d->max_diff = worst;
				d->worst_x = x;
				d->worst_y = y;
			}
			if (!any) {
				d->box_x0 = d->box_x1 = x;
				d->box_y0 = d->box_y1 = y;
				any = 1;
			}
			d->box_x0 = x < d->box_x0 ? x : d->box_x0;
			d->box_x1 = x > d->box_x1 ? x : d->box_x1;
			d->box_y1 = y;  /* rows in order */
		}
	const double n = 3.0 * (double)a->width * (double)a->height;
	d->mse = n > 0 ? (double)sum / n : 0.0;
	d->psnr_db = d->mse > 0 ? 10.0 * log10(255.0 * 255.0 / d->mse) : INFINITY;
	return TSR_OK;
}

enum tsr_status tsr_image_read(const char *path, struct tsr_image *img, struct tsr_error *err)
{
	struct tsr_image_set set = {0};
	int32_t index;
	memset(img, 0, sizeof(*img));
	FILE *f = fopen(path, "rb");  /* the loader's messages say "texture" */
	if (!f)
		return tsr_error_set(err, TSR_ERR_IO, "cannot open image '%s': %s", path,
				     strerror(errno));
	fclose(f);
	enum tsr_status s = tsr_image_set_add_file(&set, path, &index, err);
	if (s == TSR_OK) {
		*img = set.images[index];
		set.count = 0;  /* the image now belongs to the caller */
	}
	tsr_image_set_release(&set);
	return s;
}
