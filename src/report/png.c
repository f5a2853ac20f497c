/*
 * png.c - the frame images of an output transaction (report/report.h):
 * the PNG encoder (Sub filter, libdeflate, libpng for the chunks) and the
 * background thread of tsr_output_png_async().
 */
/* open_memstream(): POSIX.1-2008 */
#define _XOPEN_SOURCE 700
#include "report/report.h"
#include "report/output_priv.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>
#include <png.h>

/* An IDAT chunk's most bytes: a long image's data is written as several. */
#define PNG_IDAT_BYTES ((size_t)1 << 20)

/*
 * Writes through libpng to f a PNG of width x height 8-bit pixels of
 * color type color whose IDAT data is z (zbytes of a zlib stream): the
 * signature, IHDR, IDAT chunks of at most PNG_IDAT_BYTES and IEND. 0 on
 * any error (libpng reports its errors by longjmp).
 */
static int write_png_chunks(FILE *f, uint32_t width, uint32_t height, int color,
			    const uint8_t *z, size_t zbytes)
{
	png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = p ? png_create_info_struct(p) : NULL;
	volatile int ok = 0;
	if (p && info && !setjmp(png_jmpbuf(p))) {
		png_init_io(p, f);
		png_set_IHDR(p, info, width, height, 8, color, PNG_INTERLACE_NONE,
			     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
		png_write_info(p, info);
		for (size_t at = 0; at < zbytes; at += PNG_IDAT_BYTES) {
			const size_t n = zbytes - at < PNG_IDAT_BYTES ? zbytes - at : PNG_IDAT_BYTES;
			png_write_chunk(p, (png_const_bytep)"IDAT", z + at, n);
		}
		png_write_chunk(p, (png_const_bytep)"IEND", NULL, 0);
		ok = 1;
	}
	png_destroy_write_struct(&p, &info);
	return ok;
}

/* 1 if all pixels of rgba (8-bit RGBA) have alpha 255. */
static int all_opaque(const uint8_t *rgba, size_t pixels)
{
	for (size_t i = 0; i < pixels; i++)
		if (rgba[i * 4 + 3] != 255)
			return 0;
	return 1;
}

/*
 * Writes rgba (width x height, 8-bit RGBA rows) to f as a PNG. The
 * image is RGB when every alpha is 255 (a rendered frame's usual case;
 * decoded as RGBA it gives the same pixels) and RGBA otherwise. Each row
 * takes the Sub filter; the filtered rows are compressed in one call to
 * libdeflate at level 1 (a zlib stream, about twice zlib's level-1 speed at
 * a similar size), and libpng writes the chunks (write_png_chunks()).
 * 0 on any error.
 */
static int write_png_to(FILE *f, uint32_t width, uint32_t height, const uint8_t *rgba)
{
	const int opaque = all_opaque(rgba, (size_t)width * height);
	const size_t bpp = opaque ? 3 : 4, row = 1 + (size_t)width * bpp, raw = row * height;
	uint8_t *filtered = malloc(raw ? raw : 1);
	struct libdeflate_compressor *c = libdeflate_alloc_compressor(1);
	const size_t cap = c ? libdeflate_zlib_compress_bound(c, raw) : 0;
	uint8_t *z = c ? malloc(cap) : NULL;
	size_t zbytes = 0;
	if (filtered && z) {
		for (uint32_t y = 0; y < height; y++) {
			const uint8_t *src = rgba + (size_t)y * width * 4;
			uint8_t *dst = filtered + (size_t)y * row;
			uint8_t prev[4] = {0, 0, 0, 0};
			*dst++ = 1;  /* filter type Sub: each byte minus the one bpp before */
			for (uint32_t x = 0; x < width; x++, src += 4, dst += bpp)
				for (size_t k = 0; k < bpp; k++) {
					dst[k] = (uint8_t)(src[k] - prev[k]);
					prev[k] = src[k];
				}
		}
		zbytes = libdeflate_zlib_compress(c, filtered, raw, z, cap);
	}
	libdeflate_free_compressor(c);
	free(filtered);
	const int color = opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA;
	const int ok = zbytes && write_png_chunks(f, width, height, color, z, zbytes);
	free(z);
	return ok;
}

/* write_png_to() a new file at path (fclose() checked); 0 on any error. */
static int write_png(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba)
{
	FILE *f = fopen(path, "wb");
	const int ok = f && write_png_to(f, width, height, rgba);
	return f && fclose(f) == 0 && ok;
}

enum tsr_status tsr_output_png(struct tsr_output *o, const char *name,
			       uint32_t width, uint32_t height,
			       const uint8_t *rgba, struct tsr_error *err)
{
	struct tsr_output_file *f;
	TSR_TRY(tsr_output_entry(o, name, 1, &f, err));
	if (f->kind == TSR_OUTPUT_TO_FILE)
		return write_png(f->tmp, width, height, rgba)
			       ? TSR_OK
			       : tsr_error_set(err, TSR_ERR_IO, "cannot write image '%s'", f->tmp);
	/* a FIFO, a device, standard output: encoded in memory, written at commit */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int ok = m && write_png_to(m, width, height, rgba);
	if (m && fclose(m) != 0)
		ok = 0;
	if (!ok) {
		free(buf);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for image '%s'", f->path);
	}
	f->data = (uint8_t *)buf;
	f->size = len;
	return TSR_OK;
}

/* The background PNG write of tsr_output_png_async(). */
struct tsr_png_writer {
	pthread_t thread;
	int busy;                /* a thread is running (join it) */
	int ok;                  /* its write_png() result */
	char *path;              /* the temporary it writes */
	uint32_t width, height;
	uint8_t *rgba;           /* the copied image */
	size_t cap;              /* bytes allocated at rgba */
};

static void *png_thread(void *arg)
{
	struct tsr_png_writer *w = arg;
	w->ok = write_png(w->path, w->width, w->height, w->rgba);
	return NULL;
}

/* The status of w's finished write (naming its file); frees its path. */
static enum tsr_status png_finish(struct tsr_png_writer *w, struct tsr_error *err)
{
	enum tsr_status s = w->ok ? TSR_OK
		: tsr_error_set(err, TSR_ERR_IO, "cannot write image '%s'", w->path);
	free(w->path);
	w->path = NULL;
	return s;
}

enum tsr_status tsr_output_png_wait(struct tsr_output *o, struct tsr_error *err)
{
	struct tsr_png_writer *w = o->png;
	if (!w || !w->busy)
		return TSR_OK;
	pthread_join(w->thread, NULL);
	w->busy = 0;
	return png_finish(w, err);
}

enum tsr_status tsr_output_png_async(struct tsr_output *o, const char *name,
				     uint32_t width, uint32_t height,
				     const uint8_t *rgba, struct tsr_error *err)
{
	TSR_TRY(tsr_output_png_wait(o, err));
	if (!o->png && !(o->png = calloc(1, sizeof(*o->png))))
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for an image");
	struct tsr_png_writer *w = o->png;
	const size_t bytes = (size_t)width * height * 4;
	if (w->cap < bytes) {
		uint8_t *b = realloc(w->rgba, bytes);
		if (!b)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for image '%s'", name);
		w->rgba = b;
		w->cap = bytes;
	}
	struct tsr_output_file *f;
	TSR_TRY(tsr_output_entry(o, name, 1, &f, err));
	if (f->kind != TSR_OUTPUT_TO_FILE) {
		/* encoded in memory now (rare: a frame to a FIFO or a device) */
		f->written = 0;
		return tsr_output_png(o, name, width, height, rgba, err);
	}
	if (!(w->path = strdup(f->tmp)))
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for image '%s'", name);
	memcpy(w->rgba, rgba, bytes);
	w->width = width;
	w->height = height;
	if (pthread_create(&w->thread, NULL, png_thread, w) == 0) {
		w->busy = 1;
		return TSR_OK;
	}
	/* no thread: write it now */
	png_thread(w);
	return png_finish(w, err);
}

/* (output_priv.h) */
void tsr_png_writer_release(struct tsr_output *o)
{
	struct tsr_error ignored;
	tsr_output_png_wait(o, &ignored);
	if (o->png) {
		free(o->png->rgba);
		free(o->png);
		o->png = NULL;
	}
}
