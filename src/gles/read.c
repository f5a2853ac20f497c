/*
 * read.c - glReadPixels without the reading (4.3.1): the arguments
 * validated as the specification says, and where the rows go in the
 * program's memory (PACK_ALIGNMENT). The pixels are the driver's to read
 * from the device (gles/device.h).
 */
#include "gles/gles_priv.h"

GLboolean tsr_gles_read_pixels_state(struct tsr_gles_context *ctx, GLsizei width,
				     GLsizei height, GLenum format, GLenum type,
				     size_t *row_bytes)
{
	const bool format_known = format == GL_ALPHA || format == GL_RGB || format == GL_RGBA;
	const bool type_known = type == GL_UNSIGNED_BYTE || type == GL_UNSIGNED_SHORT_5_6_5 ||
				type == GL_UNSIGNED_SHORT_4_4_4_4 ||
				type == GL_UNSIGNED_SHORT_5_5_5_1;
	if (!format_known || !type_known) {
		gles_error(ctx, GL_INVALID_ENUM);
		return GL_FALSE;
	}
	if (width < 0 || height < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return GL_FALSE;
	}
	/* RGBA / UNSIGNED_BYTE, or IMPLEMENTATION_COLOR_READ_FORMAT / _TYPE,
	 * which are the same here */
	if (format != GL_RGBA || type != GL_UNSIGNED_BYTE) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return GL_FALSE;
	}
	if (tsr_gles_CheckFramebufferStatus(ctx, GL_READ_FRAMEBUFFER_NV) != GL_FRAMEBUFFER_COMPLETE) {
		gles_error(ctx, GL_INVALID_FRAMEBUFFER_OPERATION);
		return GL_FALSE;
	}
	const size_t align = (size_t)ctx->pack_alignment;
	*row_bytes = ((size_t)width * 4 + align - 1) / align * align;
	return width > 0 && height > 0 ? GL_TRUE : GL_FALSE;
}
