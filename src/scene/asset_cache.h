/*
 * asset_cache.h - decoded textures and imported models kept for the life
 * of the process (private to the scene loader), so that a process that
 * loads many workloads (an experiment, the tests), or one workload many
 * times, decodes each texture and imports each model file once: the
 * shipped workloads share their glmark2 models and textures, and an
 * import is a fork() and assimp, a texture a PNG or JPEG decode.
 *
 * An entry is used only while what it came from holds the same bytes
 * (compared in full, not by a hash): an image's file or embedded bytes; a
 * model's file and every other file its import opened (an OBJ's .mtl, a
 * glTF's buffers: struct tsr_model_files), while the files the importer
 * looked for and did not find are still missing, and while the memory
 * budget (core/limits.h) is at least the one the import ran under. A hit
 * gives a copy, the same bytes a new decode or import gives. Only
 * successful loads are kept: an error is met again each time.
 *
 * At most a quarter of the memory budget, and 512 MiB, is kept (file
 * bytes and results); later assets are then loaded as without the cache.
 * Thread-safe (one mutex); nothing is freed before the process ends.
 */
#ifndef TSR_SCENE_ASSET_CACHE_H
#define TSR_SCENE_ASSET_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "scene/mesh_load.h"

/*
 * The image `name` decoded from data[0..size), if kept: its size into *w,
 * *h and a malloc'd copy of its RGBA8 texels into *rgba; returns 1. 0 when
 * not kept (or no memory for the copy).
 */
int tsr_asset_cache_get_image(const char *name, const uint8_t *data, size_t size,
			      uint32_t *w, uint32_t *h, uint8_t **rgba);

/* Keeps copies of data[0..size) and of the w x h RGBA8 texels decoded from
 * it under `name` (nothing when over the cache's size or out of memory). */
void tsr_asset_cache_put_image(const char *name, const uint8_t *data, size_t size,
			       uint32_t w, uint32_t h, const uint8_t *rgba);

/*
 * The model imported from `path`, if kept and its files are unchanged: a
 * deep copy into *out (owned by the caller, tsr_model_release); returns 1.
 * 0 otherwise (*out zeroed).
 */
int tsr_asset_cache_get_model(const char *path, struct tsr_model *out);

/*
 * Keeps a deep copy of model m imported from `path`, with the bytes of the
 * files its import opened (files; a list that failed is not kept) as they
 * are now and the budget it ran under.
 */
void tsr_asset_cache_put_model(const char *path, const struct tsr_model *m,
			       const struct tsr_model_files *files, uint64_t budget);

/*
 * Turns the cache off for the rest of the process: every load decodes and
 * imports, and nothing is kept (the fuzz harnesses, whose inputs would
 * pile up in it). Call before any load.
 */
void tsr_asset_cache_disable(void);

#endif
