/*
 * texture.c - GL ES 2.0 textures (3.7, 3.8): TexImage2D and TexSubImage2D
 * with every format/type pair GL ES 2.0 and OES_depth_texture allow,
 * converted to RGBA8 texels (a depth texture: one float per texel, its
 * depth in [0, 1]); CopyTex[Sub]Image2D through the caller's reader;
 * GenerateMipmap (the GPU's reduction, tsr_texture_downsample_rgba8());
 * TexParameter / GetTexParameter;
 * completeness (3.7.10) and the 3.8.2 rules for what samples as
 * (0, 0, 0, 1), as GL_OES_texture_npot amends them: a non-power-of-two
 * texture is sampled, mipmapped (level sizes floor(size / 2) down to 1)
 * and wrapped (REPEAT, MIRRORED_REPEAT) as a power-of-two one is.
 * GL_EXT_texture_compression_s3tc's formats are decoded to RGBA8 texels
 * (CompressedTex[Sub]Image2D) or compressed and decoded back (TexImage2D /
 * TexSubImage2D of RGBA or RGB data); GL_EXT_unpack_subimage's row length
 * and skips apply to the uncompressed uploads.
 */
#include <stdlib.h>
#include <string.h>

#include "gles/gles_priv.h"
#include "texture/dxt.h"
#include "texture/texture.h"

/* The texture and face index target (TEXTURE_2D or a cube face) names on
 * the active unit; NULL (INVALID_ENUM recorded) for another target. */
static struct gles_texture *target_texture(struct tsr_gles_context *ctx, GLenum target,
					   int *face)
{
	if (target == GL_TEXTURE_2D) {
		*face = 0;
		return ctx->bound_2d[ctx->active_texture];
	}
	if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z) {
		*face = (int)(target - GL_TEXTURE_CUBE_MAP_POSITIVE_X);
		return ctx->bound_cube[ctx->active_texture];
	}
	gles_error(ctx, GL_INVALID_ENUM);
	return NULL;
}

/* Bytes per pixel of a client format/type pair; 0 when GL ES 2.0 (with
 * OES_depth_texture) does not allow the pair. */
static int pixel_bytes(GLenum format, GLenum type)
{
	switch (type) {
	case GL_UNSIGNED_BYTE:
		switch (format) {
		case GL_RGBA: return 4;
		case GL_RGB: return 3;
		case GL_LUMINANCE_ALPHA: return 2;
		case GL_LUMINANCE: case GL_ALPHA: return 1;
		default: return 0;
		}
	case GL_UNSIGNED_SHORT_5_6_5: return format == GL_RGB ? 2 : 0;
	case GL_UNSIGNED_SHORT_4_4_4_4:
	case GL_UNSIGNED_SHORT_5_5_5_1: return format == GL_RGBA ? 2 : 0;
	case GL_UNSIGNED_SHORT: return format == GL_DEPTH_COMPONENT ? 2 : 0;
	case GL_UNSIGNED_INT: return format == GL_DEPTH_COMPONENT ? 4 : 0;
	case GL_UNSIGNED_INT_24_8_OES: return format == GL_DEPTH_STENCIL_OES ? 4 : 0;
	default: return 0;
	}
}

static bool is_format(GLenum f)
{
	return f == GL_RGBA || f == GL_RGB || f == GL_LUMINANCE_ALPHA || f == GL_LUMINANCE ||
	       f == GL_ALPHA || f == GL_DEPTH_COMPONENT || f == GL_DEPTH_STENCIL_OES;
}

/* A format whose texels are depths (one float each). */
static bool is_depth(GLenum f)
{
	return f == GL_DEPTH_COMPONENT || f == GL_DEPTH_STENCIL_OES;
}

static bool is_type(GLenum t)
{
	return t == GL_UNSIGNED_BYTE || t == GL_UNSIGNED_SHORT_5_6_5 ||
	       t == GL_UNSIGNED_SHORT_4_4_4_4 || t == GL_UNSIGNED_SHORT_5_5_5_1 ||
	       t == GL_UNSIGNED_SHORT || t == GL_UNSIGNED_INT || t == GL_UNSIGNED_INT_24_8_OES;
}

/* The S3TC format of an internal format (GL_EXT_texture_compression_s3tc);
 * -1 for another one. */
static int s3tc_format(GLenum f)
{
	switch (f) {
	case GL_COMPRESSED_RGB_S3TC_DXT1_EXT: return TSR_DXT1_RGB;
	case GL_COMPRESSED_RGBA_S3TC_DXT1_EXT: return TSR_DXT1_RGBA;
	case GL_COMPRESSED_RGBA_S3TC_DXT3_EXT: return TSR_DXT3;
	case GL_COMPRESSED_RGBA_S3TC_DXT5_EXT: return TSR_DXT5;
	default: return -1;
	}
}

/* Bytes per pixel of the client data TexImage2D / TexSubImage2D take for
 * an S3TC image (the driver compresses it): RGBA or RGB of UNSIGNED_BYTE or
 * FLOAT; 0 for another pair. */
static int s3tc_pixel_bytes(GLenum format, GLenum type)
{
	if (format != GL_RGBA && format != GL_RGB)
		return 0;
	const int channels = format == GL_RGBA ? 4 : 3;
	return type == GL_UNSIGNED_BYTE ? channels : type == GL_FLOAT ? 4 * channels : 0;
}

/* An S3TC sub-rectangle at (x, y) w x h of an iw x ih image: whole blocks
 * (offsets multiples of 4, sizes multiples of 4 or reaching the image's
 * edge), as the extension requires of TexSubImage2D and
 * CompressedTexSubImage2D. */
static bool s3tc_aligned(GLint x, GLint y, GLsizei w, GLsizei h, GLsizei iw, GLsizei ih)
{
	return x % 4 == 0 && y % 4 == 0 && (w % 4 == 0 || x + w == iw) &&
	       (h % 4 == 0 || y + h == ih);
}

/* Compresses the RGBA8 texels of the blocks covering (x, y) w x h (block
 * aligned) of an iw-wide, ih-high image to format f and decodes them back
 * in place: what the texture unit samples of data the driver compressed.
 * Texels outside the image are the block's nearest inside one. */
static void s3tc_roundtrip(enum tsr_dxt_format f, uint8_t *texels, GLsizei iw, GLsizei ih,
			   GLint x, GLint y, GLsizei w, GLsizei h)
{
	uint8_t block[16], rgba[16][4];
	for (GLint by = y; by < y + h; by += 4)
		for (GLint bx = x; bx < x + w; bx += 4) {
			for (int i = 0; i < 16; i++) {
				GLint tx = bx + i % 4, ty = by + i / 4;
				if (tx >= iw)
					tx = iw - 1;
				if (ty >= ih)
					ty = ih - 1;
				memcpy(rgba[i], texels + ((size_t)ty * (size_t)iw + (size_t)tx) * 4, 4);
			}
			tsr_dxt_encode_block(f, (const uint8_t(*)[4])rgba, block);
			tsr_dxt_decode_block(f, block, rgba);
			for (int i = 0; i < 16; i++) {
				const GLint tx = bx + i % 4, ty = by + i / 4;
				if (tx < iw && ty < ih)
					memcpy(texels + ((size_t)ty * (size_t)iw + (size_t)tx) * 4,
					       rgba[i], 4);
			}
		}
}

/* Decodes the w x h texels of S3TC blocks (row-major, the rows of lowest y
 * first) into the texels at (x, y) of an iw-wide, ih-high image. */
static void s3tc_decode(enum tsr_dxt_format f, const uint8_t *data, uint8_t *texels,
			GLsizei iw, GLsizei ih, GLint x, GLint y, GLsizei w, GLsizei h)
{
	const unsigned bb = tsr_dxt_block_bytes(f);
	uint8_t rgba[16][4];
	for (GLint by = 0; by < h; by += 4)
		for (GLint bx = 0; bx < w; bx += 4, data += bb) {
			tsr_dxt_decode_block(f, data, rgba);
			for (int i = 0; i < 16; i++) {
				const GLint tx = x + bx + i % 4, ty = y + by + i / 4;
				if (bx + i % 4 < w && by + i / 4 < h && tx < iw && ty < ih)
					memcpy(texels + ((size_t)ty * (size_t)iw + (size_t)tx) * 4,
					       rgba[i], 4);
			}
		}
}

/* Bytes of S3TC data for a w x h image: its 4x4 blocks (edge blocks
 * whole). */
static int64_t s3tc_image_bytes(enum tsr_dxt_format f, GLsizei w, GLsizei h)
{
	return (int64_t)((w + 3) / 4) * ((h + 3) / 4) * tsr_dxt_block_bytes(f);
}

/* A float channel as an 8-bit one: clamped to [0, 1], rounded. */
static uint8_t float_byte(const uint8_t *src)
{
	float f;
	memcpy(&f, src, 4);
	if (!(f > 0.0f))
		return 0;
	if (f >= 1.0f)
		return 255;
	return (uint8_t)(f * 255.0f + 0.5f);
}

/* Converts one client pixel to the stored texel (4 bytes). */
static void convert_pixel(GLenum format, GLenum type, const uint8_t *src, uint8_t *dst)
{
	uint16_t p16;
	switch (type) {
	case GL_FLOAT:  /* RGBA or RGB, into an S3TC image */
		dst[0] = float_byte(src);
		dst[1] = float_byte(src + 4);
		dst[2] = float_byte(src + 8);
		dst[3] = format == GL_RGBA ? float_byte(src + 12) : 255;
		return;
	case GL_UNSIGNED_SHORT_5_6_5:
		memcpy(&p16, src, 2);
		dst[0] = (uint8_t)(((p16 >> 11) & 31) * 255 / 31);
		dst[1] = (uint8_t)(((p16 >> 5) & 63) * 255 / 63);
		dst[2] = (uint8_t)((p16 & 31) * 255 / 31);
		dst[3] = 255;
		return;
	case GL_UNSIGNED_SHORT_4_4_4_4:
		memcpy(&p16, src, 2);
		dst[0] = (uint8_t)(((p16 >> 12) & 15) * 17);
		dst[1] = (uint8_t)(((p16 >> 8) & 15) * 17);
		dst[2] = (uint8_t)(((p16 >> 4) & 15) * 17);
		dst[3] = (uint8_t)((p16 & 15) * 17);
		return;
	case GL_UNSIGNED_SHORT_5_5_5_1:
		memcpy(&p16, src, 2);
		dst[0] = (uint8_t)(((p16 >> 11) & 31) * 255 / 31);
		dst[1] = (uint8_t)(((p16 >> 6) & 31) * 255 / 31);
		dst[2] = (uint8_t)(((p16 >> 1) & 31) * 255 / 31);
		dst[3] = (p16 & 1) ? 255 : 0;
		return;
	case GL_UNSIGNED_SHORT: {
		uint16_t u;
		memcpy(&u, src, 2);
		float d = (float)u / 65535.0f;
		memcpy(dst, &d, 4);
		return;
	}
	case GL_UNSIGNED_INT: {
		uint32_t u;
		memcpy(&u, src, 4);
		float d = (float)((double)u / 4294967295.0);
		memcpy(dst, &d, 4);
		return;
	}
	case GL_UNSIGNED_INT_24_8_OES: {  /* depth in the high 24 bits; the stencil dropped */
		uint32_t u;
		memcpy(&u, src, 4);
		float d = (float)((double)(u >> 8) / 16777215.0);
		memcpy(dst, &d, 4);
		return;
	}
	default:
		break;
	}
	switch (format) {
	case GL_RGBA: memcpy(dst, src, 4); return;
	case GL_RGB: dst[0] = src[0]; dst[1] = src[1]; dst[2] = src[2]; dst[3] = 255; return;
	case GL_LUMINANCE_ALPHA: dst[0] = dst[1] = dst[2] = src[0]; dst[3] = src[1]; return;
	case GL_LUMINANCE: dst[0] = dst[1] = dst[2] = src[0]; dst[3] = 255; return;
	default: dst[0] = dst[1] = dst[2] = 0; dst[3] = src[0]; return; /* ALPHA */
	}
}

/* Copies a w x h client rectangle into texels at (x, y) of an image of
 * width iw: rows UNPACK_ROW_LENGTH pixels long (0: w) and
 * UNPACK_ALIGNMENT-aligned, bottom row first, UNPACK_SKIP_ROWS rows and
 * UNPACK_SKIP_PIXELS pixels skipped (GL_EXT_unpack_subimage). */
static void unpack(const struct tsr_gles_context *ctx, GLenum format, GLenum type,
		   const void *pixels, GLsizei w, GLsizei h, uint8_t *texels, GLsizei iw,
		   GLint x, GLint y)
{
	int bpp = type == GL_FLOAT ? s3tc_pixel_bytes(format, type) : pixel_bytes(format, type);
	size_t align = (size_t)ctx->unpack_alignment;
	const size_t pixels_row = ctx->unpack_row_length > 0 ? (size_t)ctx->unpack_row_length
							      : (size_t)w;
	size_t row = (pixels_row * (size_t)bpp + align - 1) / align * align;
	const uint8_t *src = (const uint8_t *)pixels + (size_t)ctx->unpack_skip_rows * row +
			     (size_t)ctx->unpack_skip_pixels * (size_t)bpp;
	for (GLsizei j = 0; j < h; j++)
		for (GLsizei i = 0; i < w; i++)
			convert_pixel(format, type, src + (size_t)j * row + (size_t)i * (size_t)bpp,
				      texels + (((size_t)(y + j) * (size_t)iw + (size_t)(x + i)) * 4));
}

/* Replaces image (face, level) of t with a w x h one of format/type,
 * zero-filled (depth 0, colors (0, 0, 0, 0) converted as the format has
 * it). false: out of memory (nothing changed). */
static bool image_define(struct gles_texture *t, int face, GLint level, GLenum format,
			 GLenum type, GLsizei w, GLsizei h)
{
	uint8_t *texels = NULL;
	if (w > 0 && h > 0) {
		texels = calloc((size_t)w * (size_t)h, 4);
		if (!texels)
			return false;
	}
	struct gles_image *im = &t->images[face][level];
	free(im->texels);
	im->texels = texels;
	im->width = w;
	im->height = h;
	im->format = format;
	im->type = type;
	im->generated = false;
	return true;
}

/* 3.7.1's size checks: a level in 0..log2(MAX_TEXTURE_SIZE), a size in
 * 0..MAX_TEXTURE_SIZE >> level, square for a cube face. */
static bool level_size_ok(GLenum target, GLint level, GLsizei width, GLsizei height)
{
	return level >= 0 && level < TSR_GLES_MAX_LEVELS && width >= 0 && height >= 0 &&
	       width <= (TSR_GLES_MAX_TEXTURE_SIZE >> level) &&
	       height <= (TSR_GLES_MAX_TEXTURE_SIZE >> level) &&
	       (target == GL_TEXTURE_2D || width == height);
}

void tsr_gles_TexImage2D(struct tsr_gles_context *ctx, GLenum target, GLint level,
			 GLint internalformat, GLsizei width, GLsizei height, GLint border,
			 GLenum format, GLenum type, const void *pixels)
{
	int face;
	struct gles_texture *t = target_texture(ctx, target, &face);
	if (!t)
		return;
	const int s3tc = s3tc_format((GLenum)internalformat);
	if (!is_format(format) || (!is_type(type) && !(s3tc >= 0 && type == GL_FLOAT))) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (s3tc >= 0) {  /* the driver compresses the data */
		if (!level_size_ok(target, level, width, height) || border != 0) {
			gles_error(ctx, GL_INVALID_VALUE);
			return;
		}
		if (s3tc_pixel_bytes(format, type) == 0) {
			gles_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		if (!image_define(t, face, level, (GLenum)internalformat, GL_UNSIGNED_BYTE, width,
				  height)) {
			gles_error(ctx, GL_OUT_OF_MEMORY);
			return;
		}
		struct gles_image *im = &t->images[face][level];
		if (!im->texels)
			return;
		if (pixels)
			unpack(ctx, format, type, pixels, width, height, im->texels, width, 0, 0);
		s3tc_roundtrip((enum tsr_dxt_format)s3tc, im->texels, width, height, 0, 0, width,
			       height);
		return;
	}
	/* the sized RGBA8 and RGB8 of 8-bit data, as GL_OES_required_internalformat
	 * accepts them (what piglit's shader_runner asks for; the extension's
	 * other sized formats are not, and it is not advertised) */
	if ((internalformat == GL_RGBA8_OES && format == GL_RGBA && type == GL_UNSIGNED_BYTE) ||
	    (internalformat == GL_RGB8_OES && format == GL_RGB && type == GL_UNSIGNED_BYTE))
		internalformat = (GLint)format;
	if (level < 0 || level >= TSR_GLES_MAX_LEVELS || width < 0 || height < 0 ||
	    width > (TSR_GLES_MAX_TEXTURE_SIZE >> level) ||
	    height > (TSR_GLES_MAX_TEXTURE_SIZE >> level) || border != 0 ||
	    (!is_format((GLenum)internalformat) &&
	     (GLenum)internalformat != GL_DEPTH24_STENCIL8_OES) ||
	    (target != GL_TEXTURE_2D && width != height)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	/* (DEPTH24_STENCIL8_OES, a sized format, never matches a format) */
	if ((GLenum)internalformat != format || pixel_bytes(format, type) == 0 ||
	    (is_depth(format) && target != GL_TEXTURE_2D)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!image_define(t, face, level, format, type, width, height)) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	struct gles_image *im = &t->images[face][level];
	if (pixels && im->texels)
		unpack(ctx, format, type, pixels, width, height, im->texels, width, 0, 0);
}

/* The image (face, level) of t that a Sub/Copy call at (x, y) w x h
 * writes, after 3.7.2's checks (INVALID_VALUE for a bad level, offsets or
 * size; INVALID_OPERATION when there is no such image); NULL on error. */
static struct gles_image *sub_image(struct tsr_gles_context *ctx, struct gles_texture *t,
				    int face, GLint level, GLint x, GLint y, GLsizei w, GLsizei h)
{
	if (level < 0 || level >= TSR_GLES_MAX_LEVELS || w < 0 || h < 0 || x < 0 || y < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	struct gles_image *im = &t->images[face][level];
	if (im->width == 0 && im->height == 0 && !im->texels) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return NULL;
	}
	if ((int64_t)x + w > im->width || (int64_t)y + h > im->height) {
		gles_error(ctx, GL_INVALID_VALUE);
		return NULL;
	}
	return im;
}

void tsr_gles_TexSubImage2D(struct tsr_gles_context *ctx, GLenum target, GLint level,
			    GLint xoffset, GLint yoffset, GLsizei width, GLsizei height,
			    GLenum format, GLenum type, const void *pixels)
{
	int face;
	struct gles_texture *t = target_texture(ctx, target, &face);
	if (!t)
		return;
	if (!is_format(format) || (!is_type(type) && type != GL_FLOAT)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	struct gles_image *im = sub_image(ctx, t, face, level, xoffset, yoffset, width, height);
	if (!im)
		return;
	const int s3tc = s3tc_format(im->format);
	if (s3tc >= 0) {  /* whole blocks, compressed by the driver */
		if (s3tc_pixel_bytes(format, type) == 0 ||
		    !s3tc_aligned(xoffset, yoffset, width, height, im->width, im->height)) {
			gles_error(ctx, GL_INVALID_OPERATION);
			return;
		}
		if (pixels && im->texels) {
			unpack(ctx, format, type, pixels, width, height, im->texels, im->width,
			       xoffset, yoffset);
			s3tc_roundtrip((enum tsr_dxt_format)s3tc, im->texels, im->width, im->height,
				       xoffset, yoffset, width, height);
		}
		return;
	}
	if (format != im->format || pixel_bytes(format, type) == 0) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (pixels && im->texels)
		unpack(ctx, format, type, pixels, width, height, im->texels, im->width, xoffset,
		       yoffset);
}

void tsr_gles_set_read_pixels(struct tsr_gles_context *ctx, tsr_gles_read_pixels_fn fn,
			      void *user)
{
	ctx->read_pixels = fn;
	ctx->read_pixels_user = user;
}

/* Whether the read framebuffer (GL_NV_framebuffer_blit's; the bound one)
 * has a color buffer (the default one does); records
 * INVALID_FRAMEBUFFER_OPERATION when it is not complete and
 * INVALID_OPERATION when it has no color. */
static bool copy_source_ok(struct tsr_gles_context *ctx)
{
	if (tsr_gles_CheckFramebufferStatus(ctx, GL_READ_FRAMEBUFFER_NV) != GL_FRAMEBUFFER_COMPLETE) {
		gles_error(ctx, GL_INVALID_FRAMEBUFFER_OPERATION);
		return false;
	}
	if (ctx->read_framebuffer &&
	    ctx->read_framebuffer->att[GLES_ATTACH_COLOR0].type == GL_NONE) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return false;
	}
	return true;
}

/* Whether the read framebuffer has alpha bits. */
static bool framebuffer_has_alpha(const struct tsr_gles_context *ctx)
{
	GLint bits[6];
	gles_framebuffer_bits(ctx, ctx->read_framebuffer, bits);
	return bits[3] > 0;
}

/* Reads the w x h rectangle at (x, y) of the framebuffer into texels at
 * (dx, dy) of im, converted to im's format. */
static void copy_pixels(struct tsr_gles_context *ctx, struct gles_image *im, GLint dx, GLint dy,
			GLint x, GLint y, GLsizei w, GLsizei h)
{
	if (w <= 0 || h <= 0 || !im->texels)
		return;
	uint8_t *rgba = calloc((size_t)w * (size_t)h, 4);
	if (!rgba) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	if (ctx->read_pixels)
		ctx->read_pixels(ctx->read_pixels_user, x, y, w, h, rgba);
	for (GLsizei j = 0; j < h; j++)
		for (GLsizei i = 0; i < w; i++) {
			const uint8_t *s = rgba + ((size_t)j * (size_t)w + (size_t)i) * 4;
			uint8_t *d = im->texels +
				     (((size_t)(dy + j) * (size_t)im->width + (size_t)(dx + i)) * 4);
			switch (im->format) {
			case GL_RGBA: memcpy(d, s, 4); break;
			case GL_RGB: d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; d[3] = 255; break;
			case GL_LUMINANCE_ALPHA: d[0] = d[1] = d[2] = s[0]; d[3] = s[3]; break;
			case GL_LUMINANCE: d[0] = d[1] = d[2] = s[0]; d[3] = 255; break;
			default: d[0] = d[1] = d[2] = 0; d[3] = s[3]; break; /* ALPHA */
			}
		}
	free(rgba);
}

/* Table 3.9: the internal formats a copy may make from the framebuffer. */
static bool copy_format_ok(const struct tsr_gles_context *ctx, GLenum format)
{
	bool alpha = framebuffer_has_alpha(ctx);
	switch (format) {
	case GL_RGB: case GL_LUMINANCE: return true;
	case GL_RGBA: case GL_ALPHA: case GL_LUMINANCE_ALPHA: return alpha;
	default: return false;
	}
}

void tsr_gles_CopyTexImage2D(struct tsr_gles_context *ctx, GLenum target, GLint level,
			     GLenum internalformat, GLint x, GLint y, GLsizei width,
			     GLsizei height, GLint border)
{
	int face;
	struct gles_texture *t = target_texture(ctx, target, &face);
	if (!t)
		return;
	if (level < 0 || level >= TSR_GLES_MAX_LEVELS || width < 0 || height < 0 ||
	    width > (TSR_GLES_MAX_TEXTURE_SIZE >> level) ||
	    height > (TSR_GLES_MAX_TEXTURE_SIZE >> level) || border != 0 ||
	    (target != GL_TEXTURE_2D && width != height)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!is_format(internalformat) || is_depth(internalformat)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!copy_source_ok(ctx))
		return;
	if (!copy_format_ok(ctx, internalformat)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (!image_define(t, face, level, internalformat, GL_UNSIGNED_BYTE, width, height)) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	copy_pixels(ctx, &t->images[face][level], 0, 0, x, y, width, height);
}

void tsr_gles_CopyTexSubImage2D(struct tsr_gles_context *ctx, GLenum target, GLint level,
				GLint xoffset, GLint yoffset, GLint x, GLint y, GLsizei width,
				GLsizei height)
{
	int face;
	struct gles_texture *t = target_texture(ctx, target, &face);
	if (!t)
		return;
	struct gles_image *im = sub_image(ctx, t, face, level, xoffset, yoffset, width, height);
	if (!im || !copy_source_ok(ctx))
		return;
	if (!copy_format_ok(ctx, im->format)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	copy_pixels(ctx, im, xoffset, yoffset, x, y, width, height);
}

/* ---- completeness (3.7.10) and sampling (3.8.2) ---- */

static bool uses_mipmaps(GLenum min_filter)
{
	return min_filter != GL_NEAREST && min_filter != GL_LINEAR;
}

/* Levels 1..q of face f follow level 0 as 3.7.10 requires. */
static bool face_mipmap_complete(const struct gles_texture *t, int f)
{
	const struct gles_image *b = &t->images[f][0];
	GLsizei w = b->width, h = b->height;
	for (int l = 1; w > 1 || h > 1; l++) {
		w = w > 1 ? w / 2 : 1;
		h = h > 1 ? h / 2 : 1;
		const struct gles_image *im = &t->images[f][l];
		if (l >= TSR_GLES_MAX_LEVELS || im->width != w || im->height != h ||
		    im->format != b->format || im->type != b->type)
			return false;
	}
	return true;
}

bool gles_texture_cube_complete(const struct gles_texture *t)
{
	const struct gles_image *b = &t->images[0][0];
	if (b->width <= 0 || b->width != b->height)
		return false;
	for (int f = 1; f < 6; f++) {
		const struct gles_image *im = &t->images[f][0];
		if (im->width != b->width || im->height != b->height || im->format != b->format ||
		    im->type != b->type)
			return false;
	}
	return true;
}

bool gles_texture_complete(const struct gles_texture *t)
{
	const struct gles_image *b = &t->images[0][0];
	int faces = t->target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
	if (b->width <= 0 || b->height <= 0)
		return false;
	if (faces == 6 && !gles_texture_cube_complete(t))
		return false;
	if (uses_mipmaps(t->min_filter))
		for (int f = 0; f < faces; f++)
			if (!face_mipmap_complete(t, f))
				return false;
	/* GL_OES_texture_npot lifts 3.8.2's rule that a non-power-of-two
	 * texture samples only without mipmaps and with CLAMP_TO_EDGE */
	return true;
}

/* ---- GenerateMipmap ---- */

/* Level l of face f reduced into level l + 1 (tsr_texture_downsample_rgba8(), the
 * modelled GPU's own reduction). */
static bool downsample(struct gles_texture *t, int f, int l)
{
	const struct gles_image *s = &t->images[f][l];
	GLsizei w = s->width > 1 ? s->width / 2 : 1, h = s->height > 1 ? s->height / 2 : 1;
	uint8_t *texels = calloc((size_t)w * (size_t)h, 4);
	if (!texels)
		return false;
	tsr_texture_downsample_rgba8(s->texels, (uint32_t)s->width, (uint32_t)s->height, texels,
				     (uint32_t)w, (uint32_t)h);
	struct gles_image *d = &t->images[f][l + 1];
	free(d->texels);
	d->texels = texels;
	d->width = w;
	d->height = h;
	d->format = s->format;
	d->type = s->type;
	d->generated = true;
	return true;
}

void tsr_gles_GenerateMipmap(struct tsr_gles_context *ctx, GLenum target)
{
	if (target != GL_TEXTURE_2D && target != GL_TEXTURE_CUBE_MAP) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	struct gles_texture *t = target == GL_TEXTURE_2D ? ctx->bound_2d[ctx->active_texture]
							 : ctx->bound_cube[ctx->active_texture];
	const struct gles_image *b = &t->images[0][0];
	int faces = target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
	/* any size (GL_OES_texture_npot) */
	if ((faces == 6 && !gles_texture_cube_complete(t)) || b->width <= 0 ||
	    is_depth(b->format) || s3tc_format(b->format) >= 0) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	for (int f = 0; f < faces; f++)
		for (int l = 0; t->images[f][l].width > 1 || t->images[f][l].height > 1; l++)
			if (!downsample(t, f, l)) {
				gles_error(ctx, GL_OUT_OF_MEMORY);
				return;
			}
}

/* ---- parameters ---- */

static GLenum *tex_param(struct gles_texture *t, GLenum pname)
{
	switch (pname) {
	case GL_TEXTURE_MIN_FILTER: return &t->min_filter;
	case GL_TEXTURE_MAG_FILTER: return &t->mag_filter;
	case GL_TEXTURE_WRAP_S: return &t->wrap_s;
	case GL_TEXTURE_WRAP_T: return &t->wrap_t;
	default: return NULL;
	}
}

static bool param_value_ok(GLenum pname, GLenum v)
{
	switch (pname) {
	case GL_TEXTURE_MIN_FILTER:
		return v == GL_NEAREST || v == GL_LINEAR || v == GL_NEAREST_MIPMAP_NEAREST ||
		       v == GL_LINEAR_MIPMAP_NEAREST || v == GL_NEAREST_MIPMAP_LINEAR ||
		       v == GL_LINEAR_MIPMAP_LINEAR;
	case GL_TEXTURE_MAG_FILTER:
		return v == GL_NEAREST || v == GL_LINEAR;
	default:
		return v == GL_REPEAT || v == GL_CLAMP_TO_EDGE || v == GL_MIRRORED_REPEAT;
	}
}

/* The texture bound to target on the active unit (2D or cube map);
 * INVALID_ENUM otherwise. */
static struct gles_texture *param_texture(struct tsr_gles_context *ctx, GLenum target)
{
	if (target == GL_TEXTURE_2D)
		return ctx->bound_2d[ctx->active_texture];
	if (target == GL_TEXTURE_CUBE_MAP)
		return ctx->bound_cube[ctx->active_texture];
	gles_error(ctx, GL_INVALID_ENUM);
	return NULL;
}

void tsr_gles_TexParameteri(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
			    GLint param)
{
	struct gles_texture *t = param_texture(ctx, target);
	if (!t)
		return;
	GLenum *p = tex_param(t, pname);
	if (!p || !param_value_ok(pname, (GLenum)param)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	*p = (GLenum)param;
}

/* A float parameter as the enum it names; one outside the integers (or
 * NaN) names none (0 is no value a parameter takes: INVALID_ENUM). */
static GLint float_param(GLfloat param)
{
	return param > -2147483648.0f && param < 2147483648.0f ? (GLint)param : 0;
}

void tsr_gles_TexParameterf(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
			    GLfloat param)
{
	tsr_gles_TexParameteri(ctx, target, pname, float_param(param));
}

void tsr_gles_TexParameteriv(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
			     const GLint *params)
{
	tsr_gles_TexParameteri(ctx, target, pname, params[0]);
}

void tsr_gles_TexParameterfv(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
			     const GLfloat *params)
{
	tsr_gles_TexParameteri(ctx, target, pname, float_param(params[0]));
}

/* The parameter of a GetTexParameter call, NULL (error recorded) for a
 * bad target or pname. */
static const GLenum *get_tex_param(struct tsr_gles_context *ctx, GLenum target, GLenum pname)
{
	struct gles_texture *t = param_texture(ctx, target);
	if (!t)
		return NULL;
	const GLenum *p = tex_param(t, pname);
	if (!p)
		gles_error(ctx, GL_INVALID_ENUM);
	return p;
}

void tsr_gles_GetTexParameteriv(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
				GLint *params)
{
	const GLenum *p = get_tex_param(ctx, target, pname);
	if (p)
		*params = (GLint)*p;
}

void tsr_gles_GetTexParameterfv(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
				GLfloat *params)
{
	const GLenum *p = get_tex_param(ctx, target, pname);
	if (p)
		*params = (GLfloat)*p;
}

/* ---- for the driver ---- */

uint64_t tsr_gles_texture_serial(const struct tsr_gles_context *ctx, GLuint texture,
				 GLenum target)
{
	const struct gles_texture *t;
	if (texture == 0)
		t = target == GL_TEXTURE_2D ? ctx->default_2d : ctx->default_cube;
	else
		t = gles_names_get(&ctx->textures, texture);
	return t ? t->serial : 0;
}

const void *tsr_gles_texture_image(const struct tsr_gles_context *ctx, GLuint texture,
				   GLenum target, GLint level, GLsizei *width, GLsizei *height,
				   GLenum *format)
{
	const struct gles_texture *t;
	int face = 0;
	if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z)
		face = (int)(target - GL_TEXTURE_CUBE_MAP_POSITIVE_X);
	if (texture == 0)
		t = target == GL_TEXTURE_2D ? ctx->default_2d : ctx->default_cube;
	else
		t = gles_names_get(&ctx->textures, texture);
	if (!t || level < 0 || level >= TSR_GLES_MAX_LEVELS)
		return NULL;
	const struct gles_image *im = &t->images[face][level];
	if (width)
		*width = im->width;
	if (height)
		*height = im->height;
	if (format)
		*format = im->format;
	return im->texels;
}

GLboolean tsr_gles_texture_level_uploaded(const struct tsr_gles_context *ctx, GLuint texture,
					  GLint level)
{
	const struct gles_texture *t = texture == 0 ? ctx->default_2d
						    : gles_names_get(&ctx->textures, texture);
	if (!t || level < 0 || level >= TSR_GLES_MAX_LEVELS)
		return GL_FALSE;
	const struct gles_image *im = &t->images[0][level];
	return im->width > 0 && im->height > 0 && !im->generated ? GL_TRUE : GL_FALSE;
}

GLboolean tsr_gles_texture_complete(const struct tsr_gles_context *ctx, GLuint unit,
				    GLenum target)
{
	if (unit >= TSR_GLES_MAX_TEXTURE_UNITS)
		return GL_FALSE;
	const struct gles_texture *t = target == GL_TEXTURE_CUBE_MAP ? ctx->bound_cube[unit]
								     : ctx->bound_2d[unit];
	return gles_texture_complete(t) ? GL_TRUE : GL_FALSE;
}

/* ---- compressed textures: GL_EXT_texture_compression_s3tc's formats,
 * decoded to RGBA8 texels ---- */

void tsr_gles_CompressedTexImage2D(struct tsr_gles_context *ctx, GLenum target, GLint level,
				   GLenum internalformat, GLsizei width, GLsizei height,
				   GLint border, GLsizei imagesize, const void *data)
{
	int face;
	struct gles_texture *t = target_texture(ctx, target, &face);
	if (!t)
		return;
	const int s3tc = s3tc_format(internalformat);
	if (s3tc < 0) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	const enum tsr_dxt_format f = (enum tsr_dxt_format)s3tc;
	if (!level_size_ok(target, level, width, height) || border != 0 ||
	    imagesize != s3tc_image_bytes(f, width, height)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (!image_define(t, face, level, internalformat, GL_UNSIGNED_BYTE, width, height)) {
		gles_error(ctx, GL_OUT_OF_MEMORY);
		return;
	}
	struct gles_image *im = &t->images[face][level];
	if (!im->texels)
		return;
	if (data)
		s3tc_decode(f, data, im->texels, width, height, 0, 0, width, height);
	else  /* zeros: the blocks of zeros' colors */
		s3tc_roundtrip(f, im->texels, width, height, 0, 0, width, height);
}

void tsr_gles_CompressedTexSubImage2D(struct tsr_gles_context *ctx, GLenum target, GLint level,
				      GLint xoffset, GLint yoffset, GLsizei width,
				      GLsizei height, GLenum format, GLsizei imagesize,
				      const void *data)
{
	int face;
	struct gles_texture *t = target_texture(ctx, target, &face);
	if (!t)
		return;
	const int s3tc = s3tc_format(format);
	if (s3tc < 0) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	struct gles_image *im = sub_image(ctx, t, face, level, xoffset, yoffset, width, height);
	if (!im)
		return;
	if (format != im->format ||
	    !s3tc_aligned(xoffset, yoffset, width, height, im->width, im->height)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	const enum tsr_dxt_format f = (enum tsr_dxt_format)s3tc;
	if (imagesize != s3tc_image_bytes(f, width, height)) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	if (data && im->texels)
		s3tc_decode(f, data, im->texels, im->width, im->height, xoffset, yoffset, width,
			    height);
}
