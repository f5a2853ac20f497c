/*
 * compare.h - how far one rendered image is from another (a reference:
 * llvmpipe's frames of a capture, or another tessera run): the PSNR of
 * the RGB channels and where the worst pixels are. `tessera compare`
 * prints it per frame; the GL ES driver's acceptance (PSNR against
 * llvmpipe's image) uses it.
 */
#ifndef TSR_REPORT_COMPARE_H
#define TSR_REPORT_COMPARE_H

#include <stdint.h>

#include "command/resources.h"
#include "core/status.h"

/* The difference of two images of one size, over R, G and B (alpha is
 * not compared: eglretrace's and llvmpipe's frames are RGB). */
struct tsr_image_diff {
	uint32_t width, height;      /* pixels */
	double mse;                  /* mean squared channel difference, 8-bit levels^2 */
	double psnr_db;              /* 10 log10(255^2 / mse), dB; INFINITY when equal */
	uint32_t max_diff;           /* largest channel difference, levels (0..255) */
	uint32_t worst_x, worst_y;   /* the first pixel (row-major) with max_diff */
	uint64_t pixels_differing;   /* pixels with any channel different */
	uint32_t box_x0, box_y0, box_x1, box_y1; /* inclusive bounding box of the differing
	                                            pixels (all 0 when none) */
};

/*
 * Compares RGBA8 images a and b (rows top to bottom) into *d. Errors:
 * TSR_ERR_PARSE "the images differ in size (W x H against W x H)".
 */
enum tsr_status tsr_image_diff(const struct tsr_image *a, const struct tsr_image *b,
			       struct tsr_image_diff *d, struct tsr_error *err);

/*
 * Reads an image file (PNG, JPEG, PPM, ... as the scene loader reads
 * textures) into *img as RGBA8 (release with tsr_image_release()).
 * Errors: TSR_ERR_IO (cannot open), TSR_ERR_PARSE (not an image), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_image_read(const char *path, struct tsr_image *img, struct tsr_error *err);

#endif
