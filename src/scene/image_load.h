/*
 * image_load.h - decoding of texture images into the scene's RGBA8 images
 * (the scene loader's; report/compare.c reads frames with it too).
 *
 * Wraps stb_image: any format it reads (PNG, JPEG, TGA, BMP, ...) from a
 * file or from memory (textures embedded in a model file), always expanded
 * to 4 channels, rows top to bottom as stored in the file. A
 * tsr_image_set is the growable image table of a scene being loaded; it
 * decodes each distinct path (or embedded-texture name) once, and the
 * process each distinct file content once (scene/asset_cache.h: later
 * loads copy the texels decoded from the same bytes).
 *
 * Left out: 16-bit and HDR images (converted to 8 bits by stb_image),
 * colour-space conversion (texels are used as stored).
 */
#ifndef TSR_SCENE_IMAGE_LOAD_H
#define TSR_SCENE_IMAGE_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "scene/scene.h"

/* The images of a scene being loaded; zero-initialise before use. */
struct tsr_image_set {
	struct tsr_image *images;
	uint32_t count;
	uint32_t cap;
};

/*
 * Decodes an image file (deduplicated by path: a path already in the set
 * returns its index). Errors: TSR_ERR_IO "cannot open texture '<path>'",
 * TSR_ERR_PARSE with stb_image's reason, TSR_ERR_NOMEM.
 */
enum tsr_status tsr_image_set_add_file(struct tsr_image_set *set,
				       const char *path, int32_t *index,
				       struct tsr_error *err);

/*
 * Decodes a compressed image held in memory (a PNG or JPEG embedded in a
 * model file); `name` identifies it for deduplication and messages.
 */
enum tsr_status tsr_image_set_add_memory(struct tsr_image_set *set,
					 const char *name, const void *data,
					 size_t size_bytes, int32_t *index,
					 struct tsr_error *err);

/*
 * Adds an already decoded image given as width * height texels of 4 bytes
 * in the order b, g, r, a (assimp's aiTexel), rows top to bottom.
 */
enum tsr_status tsr_image_set_add_bgra(struct tsr_image_set *set,
				       const char *name, uint32_t width,
				       uint32_t height, const uint8_t *bgra,
				       int32_t *index, struct tsr_error *err);

/* Frees every image of the set and the table itself. */
void tsr_image_set_release(struct tsr_image_set *set);

/* Frees the pixels and path of one image (not the struct). */
void tsr_image_release(struct tsr_image *img);

#endif
