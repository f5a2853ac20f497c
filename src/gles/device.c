/*
 * device.c - the renderer behind a GL ES context (device.h). Rendering on
 * the modelled GPU is not implemented yet: draws, clears and reads are
 * refused with TSR_ERR_UNSUPPORTED; frames are counted.
 */
#include <stdlib.h>

#include "gles/device.h"

struct tsr_gles_device {
	struct tsr_gles_device_params params;
	struct tsr_gpu_config config;
	uint32_t frames;
};

static enum tsr_status not_yet(struct tsr_error *err, const char *what)
{
	return tsr_error_set(err, TSR_ERR_UNSUPPORTED,
			     "%s on the modelled GPU is not implemented yet", what);
}

enum tsr_status tsr_gles_device_create(const struct tsr_gles_device_params *p,
				       struct tsr_gles_device **out, struct tsr_error *err)
{
	*out = NULL;
	if (p->width == 0 || p->height == 0 || p->width > TSR_GLES_MAX_VIEWPORT_DIMS ||
	    p->height > TSR_GLES_MAX_VIEWPORT_DIMS)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "a surface of %ux%u pixels (1 to %u a side)", p->width,
				     p->height, TSR_GLES_MAX_VIEWPORT_DIMS);
	struct tsr_gles_device *d = calloc(1, sizeof(*d));
	if (!d)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a GL ES device");
	d->params = *p;
	if (p->config)
		d->config = *p->config;
	else
		tsr_config_defaults(&d->config);
	d->params.config = &d->config;
	d->params.out_dir = NULL;
	*out = d;
	return TSR_OK;
}

enum tsr_status tsr_gles_device_destroy(struct tsr_gles_device *d, struct tsr_error *err)
{
	(void)err;
	free(d);
	return TSR_OK;
}

enum tsr_status tsr_gles_device_draw(struct tsr_gles_device *dev,
				     const struct tsr_gles_context *ctx,
				     const struct tsr_gles_draw *d, struct tsr_error *err)
{
	(void)dev;
	(void)ctx;
	(void)d;
	return not_yet(err, "drawing");
}

enum tsr_status tsr_gles_device_clear(struct tsr_gles_device *dev,
				      const struct tsr_gles_context *ctx,
				      const struct tsr_clear_state *c, struct tsr_error *err)
{
	(void)dev;
	(void)ctx;
	(void)c;
	return not_yet(err, "clearing");
}

enum tsr_status tsr_gles_device_read_pixels(struct tsr_gles_device *dev,
					    const struct tsr_gles_context *ctx, GLint x, GLint y,
					    GLsizei w, GLsizei h, uint8_t *rgba,
					    struct tsr_error *err)
{
	(void)dev;
	(void)ctx;
	(void)x;
	(void)y;
	(void)w;
	(void)h;
	(void)rgba;
	return not_yet(err, "reading pixels");
}

enum tsr_status tsr_gles_device_flush(struct tsr_gles_device *dev, struct tsr_error *err)
{
	(void)dev;
	(void)err;
	return TSR_OK;
}

enum tsr_status tsr_gles_device_swap(struct tsr_gles_device *dev, struct tsr_error *err)
{
	(void)err;
	dev->frames++;
	return TSR_OK;
}

uint32_t tsr_gles_device_frames(const struct tsr_gles_device *dev)
{
	return dev->frames;
}
