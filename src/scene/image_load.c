#include "scene/image_load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb/stb_image.h>
#include <turbojpeg.h>

#include "core/array.h"
#include "core/limits.h"
#include "scene/asset_cache.h"

static int find(const struct tsr_image_set *set, const char *name)
{
	for (uint32_t i = 0; i < set->count; i++)
		if (strcmp(set->images[i].path, name) == 0)
			return (int)i;
	return -1;
}

/* Appends an image that owns `rgba` (freed with free() on failure). */
static enum tsr_status push(struct tsr_image_set *set, const char *name,
			    uint32_t width, uint32_t height, uint8_t *rgba,
			    int32_t *index, struct tsr_error *err)
{
	struct tsr_image *n = tsr_array_grow(set->images, &set->cap, set->count + 1,
					     sizeof(*n));
	if (!n) {
		free(rgba);
		return tsr_error_set(err, TSR_ERR_NOMEM,
				     "out of memory for image '%s'", name);
	}
	set->images = n;
	char *path = strdup(name);
	if (!path) {
		free(rgba);
		return tsr_error_set(err, TSR_ERR_NOMEM,
				     "out of memory for image '%s'", name);
	}
	struct tsr_image *img = &set->images[set->count];
	img->path = path;
	img->width = width;
	img->height = height;
	img->rgba = rgba;
	img->render_target = 0;  /* the loader marks render targets */
	img->depth = 0;
	img->bottom_up = 0;      /* a workload's rows run down */
	img->mipmapped = 0;
	img->mip_count = 0;      /* levels built from level 0 */
	*index = (int32_t)set->count++;
	return TSR_OK;
}

/*
 * stb_image returns memory from its own allocator (malloc by default, but
 * that is a build choice of libstb), so copy into a malloc'd buffer that
 * the scene can free with free().
 */
static enum tsr_status take_stbi(struct tsr_image_set *set, const char *name,
				 const uint8_t *data, size_t size_bytes,
				 stbi_uc *px, int w, int h, int32_t *index,
				 struct tsr_error *err)
{
	size_t bytes = (size_t)w * (size_t)h * 4;
	uint8_t *rgba = malloc(bytes);
	if (!rgba) {
		stbi_image_free(px);
		return tsr_error_set(err, TSR_ERR_NOMEM,
				     "out of memory for image '%s'", name);
	}
	memcpy(rgba, px, bytes);
	stbi_image_free(px);
	tsr_asset_cache_put_image(name, data, size_bytes, (uint32_t)w, (uint32_t)h, rgba);
	return push(set, name, (uint32_t)w, (uint32_t)h, rgba, index, err);
}

/*
 * Refuses an image whose header declares more than TSR_LIMIT_TEXTURE_SIDE
 * texels a side or more RGBA bytes than the memory budget, before it is
 * decoded (a 59-byte BMP can declare a gigabyte of pixels).
 */
static enum tsr_status check_size(const char *name, uint64_t w, uint64_t h,
				  struct tsr_error *err)
{
	if (w > TSR_LIMIT_TEXTURE_SIDE || h > TSR_LIMIT_TEXTURE_SIDE)
		return tsr_error_set(err, TSR_ERR_LIMIT,
				     "texture '%s' is %llu x %llu texels, more than the limit of %u "
				     "a side", name, (unsigned long long)w, (unsigned long long)h,
				     TSR_LIMIT_TEXTURE_SIDE);
	return tsr_memory_check(name, w * h * 4, err);
}

/*
 * 1 when stb_image would read data as a JPEG: the SOI marker D8 after one
 * or more FF bytes. Such data goes to libjpeg-turbo instead: the JPEG
 * decoder of Debian 12's stb_image (git 2022-09-08) writes past a Huffman
 * table of more than 256 codes and shifts past 31 bits on corrupt entropy
 * data (both found by fuzz_image; tests/data/jpeg-*.jpg), while
 * libjpeg-turbo checks both and is fuzzed by OSS-Fuzz.
 */
static int is_jpeg(const uint8_t *p, size_t n)
{
	size_t soi = 0;
	while (soi < n && p[soi] == 0xff)
		soi++;
	return soi > 0 && soi < n && p[soi] == 0xd8;
}

/*
 * Decodes a JPEG with the TurboJPEG API into RGBA. Warnings (corrupt or
 * truncated data that libjpeg would otherwise fill with grey) are errors,
 * and so are progressive files of more than 500 scans (TJFLAG_LIMITSCANS,
 * libjpeg-turbo's guard against scan floods). The size is checked against
 * the memory budget before the pixels are allocated.
 */
static enum tsr_status decode_jpeg(struct tsr_image_set *set, const char *name,
				   const uint8_t *data, size_t size_bytes,
				   int32_t *index, struct tsr_error *err)
{
	tjhandle tj = tjInitDecompress();
	if (!tj)
		return tsr_error_set(err, TSR_ERR_NOMEM,
				     "out of memory for texture '%s'", name);
	enum tsr_status st = TSR_OK;
	uint8_t *rgba = NULL;
	int w = 0, h = 0, subsamp = 0, colorspace = 0;
	const int flags = TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS;
	if (tjDecompressHeader3(tj, data, (unsigned long)size_bytes, &w, &h,
				&subsamp, &colorspace) != 0) {
		st = tsr_error_set(err, TSR_ERR_PARSE, "cannot decode texture '%s': %s",
				   name, tjGetErrorStr2(tj));
		goto out;
	}
	uint64_t bytes = (uint64_t)w * (uint64_t)h * 4;
	st = check_size(name, (uint64_t)w, (uint64_t)h, err);
	if (st != TSR_OK)
		goto out;
	rgba = malloc((size_t)bytes);
	if (!rgba) {
		st = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for image '%s'",
				   name);
		goto out;
	}
	if (tjDecompress2(tj, data, (unsigned long)size_bytes, rgba, w, 0, h,
			  TJPF_RGBA, flags) != 0) {
		st = tsr_error_set(err, TSR_ERR_PARSE, "cannot decode texture '%s': %s",
				   name, tjGetErrorStr2(tj));
		goto out;
	}
	tsr_asset_cache_put_image(name, data, size_bytes, (uint32_t)w, (uint32_t)h, rgba);
	st = push(set, name, (uint32_t)w, (uint32_t)h, rgba, index, err);
	rgba = NULL; /* owned by the set, or freed by push() */
out:
	free(rgba);
	tjDestroy(tj);
	return st;
}

/*
 * Checks a binary PGM/PPM (P5, P6; anything else passes) before stb_image
 * reads it, because Debian 12's stb_image mishandles hostile ones (both
 * found by fuzz_image): it reads the header's numbers into an int without
 * an overflow check (tests/data/pnm-huge-width.ppm), and its 16-bit path
 * reads past the pixels it decoded (tests/data/pnm-16bit.ppm). Refused: a
 * header number of more than 9 digits, a maximum value over 255 (16-bit
 * samples; tessera's textures are 8-bit), pixel data shorter than the
 * header declares. The header is parsed as stb does: after "P5"/"P6",
 * whitespace and '#' comments to the end of the line, then digits, three
 * times; the pixels start one byte after the last number.
 */
static enum tsr_status pnm_check(const uint8_t *p, size_t n, const char *name,
				 struct tsr_error *err)
{
	if (n < 2 || p[0] != 'P' || (p[1] != '5' && p[1] != '6'))
		return TSR_OK;
	uint64_t v[3] = {0, 0, 0};
	size_t i = 2;
	for (int k = 0; k < 3; k++) {
		for (;;) {
			while (i < n && (p[i] == ' ' || (p[i] >= '\t' && p[i] <= '\r')))
				i++;
			if (i >= n || p[i] != '#')
				break;
			while (i < n && p[i] != '\n' && p[i] != '\r')
				i++;
		}
		size_t digits = 0;
		while (i < n && p[i] >= '0' && p[i] <= '9') {
			v[k] = v[k] * 10 + (uint64_t)(p[i] - '0');
			i++;
			if (++digits > 9)
				return tsr_error_set(err, TSR_ERR_PARSE,
						     "cannot decode texture '%s': a PGM/PPM header "
						     "number of more than 9 digits", name);
		}
	}
	if (v[2] > 255)
		return tsr_error_set(err, TSR_ERR_PARSE,
				     "cannot decode texture '%s': a PGM/PPM of 16-bit samples "
				     "(maximum value %llu; only 8-bit ones are read)", name,
				     (unsigned long long)v[2]);
	const uint64_t need = v[0] * v[1] * (p[1] == '6' ? 3u : 1u);
	const uint64_t have = n > i + 1 ? n - (i + 1) : 0;
	if (have < need)
		return tsr_error_set(err, TSR_ERR_PARSE,
				     "cannot decode texture '%s': a PGM/PPM of %llu x %llu holds "
				     "%llu bytes of pixels, not %llu", name,
				     (unsigned long long)v[0], (unsigned long long)v[1],
				     (unsigned long long)have, (unsigned long long)need);
	return TSR_OK;
}

/*
 * Decodes a compressed image held in memory (size checked by the caller),
 * or copies the texels the process decoded from the same bytes before
 * (scene/asset_cache.h; their size checked again, as the budget may have
 * changed).
 */
static enum tsr_status decode(struct tsr_image_set *set, const char *name,
			      const uint8_t *data, size_t size_bytes,
			      int32_t *index, struct tsr_error *err)
{
	uint32_t cw = 0, ch = 0;
	uint8_t *cached = NULL;
	if (tsr_asset_cache_get_image(name, data, size_bytes, &cw, &ch, &cached)) {
		enum tsr_status st = check_size(name, cw, ch, err);
		if (st != TSR_OK) {
			free(cached);
			return st;
		}
		return push(set, name, cw, ch, cached, index, err);
	}
	if (is_jpeg(data, size_bytes))
		return decode_jpeg(set, name, data, size_bytes, index, err);
	TSR_TRY(pnm_check(data, size_bytes, name, err));
	int w = 0, h = 0, comp = 0;
	if (stbi_info_from_memory(data, (int)size_bytes, &w, &h, &comp))
		TSR_TRY(check_size(name, (uint64_t)w, (uint64_t)h, err));
	stbi_uc *px = stbi_load_from_memory(data, (int)size_bytes, &w, &h,
					    &comp, 4);
	if (!px)
		return tsr_error_set(err, TSR_ERR_PARSE,
				     "cannot decode texture '%s': %s", name,
				     stbi_failure_reason());
	return take_stbi(set, name, data, size_bytes, px, w, h, index, err);
}

enum tsr_status tsr_image_set_add_file(struct tsr_image_set *set,
				       const char *path, int32_t *index,
				       struct tsr_error *err)
{
	int found = find(set, path);
	if (found >= 0) {
		*index = found;
		return TSR_OK;
	}
	FILE *f = fopen(path, "rb");
	if (!f)
		return tsr_error_set(err, TSR_ERR_IO,
				     "cannot open texture '%s': %s", path,
				     strerror(errno));
	/* read whole: both decoders take the file from memory */
	long size = -1;
	if (fseek(f, 0, SEEK_END) == 0)
		size = ftell(f);
	if (size <= 0 || size > INT32_MAX || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return tsr_error_set(err, size == 0 ? TSR_ERR_PARSE : TSR_ERR_IO,
				     "cannot decode texture '%s': %s", path,
				     size == 0 ? "empty file" : "cannot read its size");
	}
	uint8_t *data = malloc((size_t)size);
	if (!data) {
		fclose(f);
		return tsr_error_set(err, TSR_ERR_NOMEM,
				     "out of memory for texture '%s'", path);
	}
	size_t got = fread(data, 1, (size_t)size, f);
	fclose(f);
	if (got != (size_t)size) {
		free(data);
		return tsr_error_set(err, TSR_ERR_IO, "cannot read texture '%s'", path);
	}
	enum tsr_status st = decode(set, path, data, got, index, err);
	free(data);
	return st;
}

enum tsr_status tsr_image_set_add_memory(struct tsr_image_set *set,
					 const char *name, const void *data,
					 size_t size_bytes, int32_t *index,
					 struct tsr_error *err)
{
	int found = find(set, name);
	if (found >= 0) {
		*index = found;
		return TSR_OK;
	}
	if (size_bytes == 0 || size_bytes > (size_t)INT32_MAX)
		return tsr_error_set(err, TSR_ERR_PARSE,
				     "cannot decode texture '%s': bad size %zu bytes",
				     name, size_bytes);
	return decode(set, name, data, size_bytes, index, err);
}

enum tsr_status tsr_image_set_add_bgra(struct tsr_image_set *set,
				       const char *name, uint32_t width,
				       uint32_t height, const uint8_t *bgra,
				       int32_t *index, struct tsr_error *err)
{
	int found = find(set, name);
	if (found >= 0) {
		*index = found;
		return TSR_OK;
	}
	if (width == 0 || height == 0)
		return tsr_error_set(err, TSR_ERR_PARSE,
				     "texture '%s' is empty", name);
	TSR_TRY(check_size(name, width, height, err));
	size_t n = (size_t)width * height;
	uint8_t *rgba = malloc(n * 4);
	if (!rgba)
		return tsr_error_set(err, TSR_ERR_NOMEM,
				     "out of memory for image '%s'", name);
	for (size_t i = 0; i < n; i++) {
		rgba[4 * i + 0] = bgra[4 * i + 2];
		rgba[4 * i + 1] = bgra[4 * i + 1];
		rgba[4 * i + 2] = bgra[4 * i + 0];
		rgba[4 * i + 3] = bgra[4 * i + 3];
	}
	return push(set, name, width, height, rgba, index, err);
}

void tsr_image_release(struct tsr_image *img)
{
	free(img->path);
	free(img->rgba);
	img->path = NULL;
	img->rgba = NULL;
}

void tsr_image_set_release(struct tsr_image_set *set)
{
	for (uint32_t i = 0; i < set->count; i++)
		tsr_image_release(&set->images[i]);
	free(set->images);
	set->images = NULL;
	set->count = set->cap = 0;
}
