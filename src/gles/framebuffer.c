/*
 * framebuffer.c - GL ES 2.0 framebuffer and renderbuffer objects (4.4):
 * RenderbufferStorage, attachments, CheckFramebufferStatus (4.4.5) and
 * their queries. Renderbuffers keep their size and format only: their
 * pixels are the pipelines'.
 */
#include <string.h>

#include "gles/gles_priv.h"

/* Bits per channel of a renderbuffer format: R, G, B, A, depth, stencil;
 * false for a format RenderbufferStorage does not take. */
static bool rb_format_bits(GLenum format, GLint bits[6])
{
	GLint b[6] = { 0 };
	switch (format) {
	case GL_RGBA4: b[0] = b[1] = b[2] = b[3] = 4; break;
	case GL_RGB5_A1: b[0] = b[1] = b[2] = 5; b[3] = 1; break;
	case GL_RGB565: b[0] = 5; b[1] = 6; b[2] = 5; break;
	case GL_RGB8_OES: b[0] = b[1] = b[2] = 8; break;
	case GL_RGBA8_OES: b[0] = b[1] = b[2] = b[3] = 8; break;
	case GL_DEPTH_COMPONENT16: b[4] = 16; break;
	case GL_DEPTH_COMPONENT24_OES: b[4] = 24; break;
	case GL_STENCIL_INDEX8: b[5] = 8; break;
	case GL_DEPTH24_STENCIL8_OES: b[4] = 24; b[5] = 8; break;
	default: return false;
	}
	memcpy(bits, b, sizeof b);
	return true;
}

void tsr_gles_RenderbufferStorage(struct tsr_gles_context *ctx, GLenum target,
				  GLenum internalformat, GLsizei width, GLsizei height)
{
	GLint bits[6];
	if (target != GL_RENDERBUFFER || !rb_format_bits(internalformat, bits)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (width < 0 || height < 0 || width > TSR_GLES_MAX_RENDERBUFFER_SIZE ||
	    height > TSR_GLES_MAX_RENDERBUFFER_SIZE) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	struct gles_renderbuffer *rb = gles_names_get(&ctx->renderbuffers, ctx->renderbuffer);
	if (!rb) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	rb->width = width;
	rb->height = height;
	rb->format = internalformat;
}

void tsr_gles_GetRenderbufferParameteriv(struct tsr_gles_context *ctx, GLenum target,
					 GLenum pname, GLint *params)
{
	if (target != GL_RENDERBUFFER) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	int channel = -1;
	switch (pname) {
	case GL_RENDERBUFFER_WIDTH: case GL_RENDERBUFFER_HEIGHT:
	case GL_RENDERBUFFER_INTERNAL_FORMAT: break;
	case GL_RENDERBUFFER_RED_SIZE: channel = 0; break;
	case GL_RENDERBUFFER_GREEN_SIZE: channel = 1; break;
	case GL_RENDERBUFFER_BLUE_SIZE: channel = 2; break;
	case GL_RENDERBUFFER_ALPHA_SIZE: channel = 3; break;
	case GL_RENDERBUFFER_DEPTH_SIZE: channel = 4; break;
	case GL_RENDERBUFFER_STENCIL_SIZE: channel = 5; break;
	default: gles_error(ctx, GL_INVALID_ENUM); return;
	}
	const struct gles_renderbuffer *rb = gles_names_get(&ctx->renderbuffers, ctx->renderbuffer);
	if (!rb) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (pname == GL_RENDERBUFFER_WIDTH)
		*params = rb->width;
	else if (pname == GL_RENDERBUFFER_HEIGHT)
		*params = rb->height;
	else if (pname == GL_RENDERBUFFER_INTERNAL_FORMAT)
		*params = (GLint)rb->format;
	else {
		GLint bits[6] = { 0 };
		/* a renderbuffer without storage (0 x 0) has no bits */
		if (rb->width > 0 && rb->height > 0)
			rb_format_bits(rb->format, bits);
		*params = bits[channel];
	}
}

static int attachment_index(GLenum attachment)
{
	switch (attachment) {
	case GL_COLOR_ATTACHMENT0: return GLES_ATTACH_COLOR0;
	case 0x8CE1: return GLES_ATTACH_COLOR1;  /* GL_COLOR_ATTACHMENT1_EXT */
	case 0x8CE2: return GLES_ATTACH_COLOR2;  /* GL_COLOR_ATTACHMENT2_EXT */
	case 0x8CE3: return GLES_ATTACH_COLOR3;  /* GL_COLOR_ATTACHMENT3_EXT */
	case GL_DEPTH_ATTACHMENT: return GLES_ATTACH_DEPTH;
	case GL_STENCIL_ATTACHMENT: return GLES_ATTACH_STENCIL;
	default: return -1;
	}
}

static void attachment_clear(struct gles_attachment *at)
{
	gles_texture_unref(at->tex);
	gles_renderbuffer_unref(at->rb);
	memset(at, 0, sizeof *at);
	at->type = GL_NONE;
}

void tsr_gles_FramebufferTexture2D(struct tsr_gles_context *ctx, GLenum target,
				   GLenum attachment, GLenum textarget, GLuint texture,
				   GLint level)
{
	int a = attachment_index(attachment);
	bool cube_face = textarget >= GL_TEXTURE_CUBE_MAP_POSITIVE_X &&
			 textarget <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
	struct gles_framebuffer **fb = gles_fb_binding(ctx, target);
	if (!fb || a < 0 || (textarget != GL_TEXTURE_2D && !cube_face)) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!*fb) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	struct gles_attachment *at = &(*fb)->att[a];
	if (texture == 0) {
		attachment_clear(at);
		return;
	}
	struct gles_texture *t = gles_names_get(&ctx->textures, texture);
	if (!t || !t->target ||
	    t->target != (cube_face ? (GLenum)GL_TEXTURE_CUBE_MAP : (GLenum)GL_TEXTURE_2D)) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	if (level != 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return;
	}
	t->refs++;
	attachment_clear(at);
	at->type = GL_TEXTURE;
	at->tex = t;
	at->level = level;
	at->face = cube_face ? textarget : 0;
}

void tsr_gles_FramebufferRenderbuffer(struct tsr_gles_context *ctx, GLenum target,
				      GLenum attachment, GLenum renderbuffertarget,
				      GLuint renderbuffer)
{
	int a = attachment_index(attachment);
	struct gles_framebuffer **fb = gles_fb_binding(ctx, target);
	if (!fb || a < 0 || renderbuffertarget != GL_RENDERBUFFER) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!*fb) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	struct gles_attachment *at = &(*fb)->att[a];
	if (renderbuffer == 0) {
		attachment_clear(at);
		return;
	}
	struct gles_renderbuffer *rb = gles_names_get(&ctx->renderbuffers, renderbuffer);
	if (!rb) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	rb->refs++;
	attachment_clear(at);
	at->type = GL_RENDERBUFFER;
	at->rb = rb;
}

/* 4.4.5's attachment completeness: an image of non-zero size whose format
 * is renderable at attachment point a. Sets its size. */
static bool attachment_complete(const struct gles_attachment *at, int a, GLsizei *w, GLsizei *h)
{
	GLenum format;
	const bool color = a == GLES_ATTACH_COLOR0 || a >= GLES_ATTACH_COLOR1;
	if (at->type == GL_RENDERBUFFER) {
		*w = at->rb->width;
		*h = at->rb->height;
		format = at->rb->format;
		GLint bits[6] = { 0 };
		rb_format_bits(format, bits);
		if (color && !(bits[0] || bits[3]))
			return false;
		if (a == GLES_ATTACH_DEPTH && !bits[4])
			return false;
		if (a == GLES_ATTACH_STENCIL && !bits[5])
			return false;
	} else {
		int face = at->face ? (int)(at->face - GL_TEXTURE_CUBE_MAP_POSITIVE_X) : 0;
		const struct gles_image *im = &at->tex->images[face][at->level];
		*w = im->width;
		*h = im->height;
		format = im->format;
		if (color && format != GL_RGB && format != GL_RGBA)
			return false;
		if (a == GLES_ATTACH_DEPTH && format != GL_DEPTH_COMPONENT &&
		    format != GL_DEPTH_STENCIL_OES)
			return false;
		/* (GL_OES_packed_depth_stencil: a DEPTH_STENCIL texture is
		 * stencil-renderable too) */
		if (a == GLES_ATTACH_STENCIL && format != GL_DEPTH_STENCIL_OES)
			return false;
	}
	return *w > 0 && *h > 0;
}

GLenum tsr_gles_CheckFramebufferStatus(struct tsr_gles_context *ctx, GLenum target)
{
	struct gles_framebuffer **binding = gles_fb_binding(ctx, target);
	if (!binding) {
		gles_error(ctx, GL_INVALID_ENUM);
		return 0;
	}
	const struct gles_framebuffer *fb = *binding;
	if (!fb)
		return GL_FRAMEBUFFER_COMPLETE;
	int attached = 0;
	GLsizei w0 = -1, h0 = -1;
	bool same = true;
	for (int a = 0; a < GLES_ATTACH_COUNT; a++) {
		const struct gles_attachment *at = &fb->att[a];
		if (at->type == GL_NONE)
			continue;
		GLsizei w, h;
		if (!attachment_complete(at, a, &w, &h))
			return GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
		if (attached++ && (w != w0 || h != h0))
			same = false;
		w0 = w;
		h0 = h;
	}
	if (!attached)
		return GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT;
	if (!same)
		return GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS;
	/* a depth and a stencil attachment together are two separate buffers
	 * (DEPTH_COMPONENT16 and STENCIL_INDEX8, say): complete */
	return GL_FRAMEBUFFER_COMPLETE;
}

void tsr_gles_GetFramebufferAttachmentParameteriv(struct tsr_gles_context *ctx, GLenum target,
						  GLenum attachment, GLenum pname,
						  GLint *params)
{
	int a = attachment_index(attachment);
	struct gles_framebuffer **fb = gles_fb_binding(ctx, target);
	if (!fb || a < 0) {
		gles_error(ctx, GL_INVALID_ENUM);
		return;
	}
	if (!*fb) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return;
	}
	const struct gles_attachment *at = &(*fb)->att[a];
	switch (pname) {
	case GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE:
		*params = (GLint)at->type;
		return;
	case GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME:
		if (at->type == GL_NONE)
			break;
		*params = (GLint)(at->type == GL_TEXTURE ? at->tex->name : at->rb->name);
		return;
	case GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL:
		if (at->type != GL_TEXTURE)
			break;
		*params = at->level;
		return;
	case GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE:
		if (at->type != GL_TEXTURE)
			break;
		*params = (GLint)at->face;
		return;
	default:
		break;
	}
	gles_error(ctx, GL_INVALID_ENUM);
}

GLbitfield tsr_gles_DiscardFramebufferEXT(struct tsr_gles_context *ctx, GLenum target,
					  GLsizei count, const GLenum *attachments)
{
	if (target != GL_FRAMEBUFFER) {
		gles_error(ctx, GL_INVALID_ENUM);
		return 0;
	}
	if (count < 0) {
		gles_error(ctx, GL_INVALID_VALUE);
		return 0;
	}
	GLbitfield mask = 0;
	for (GLsizei i = 0; i < count; i++) {
		const GLenum a = attachments ? attachments[i] : GL_NONE;
		GLbitfield bit = 0;
		if (ctx->framebuffer)
			bit = a == GL_COLOR_ATTACHMENT0 ? GL_COLOR_BUFFER_BIT
			      : a == GL_DEPTH_ATTACHMENT ? GL_DEPTH_BUFFER_BIT
			      : a == GL_STENCIL_ATTACHMENT ? GL_STENCIL_BUFFER_BIT : 0;
		else
			bit = a == GL_COLOR_EXT ? GL_COLOR_BUFFER_BIT
			      : a == GL_DEPTH_EXT ? GL_DEPTH_BUFFER_BIT
			      : a == GL_STENCIL_EXT ? GL_STENCIL_BUFFER_BIT : 0;
		if (!bit) {
			gles_error(ctx, GL_INVALID_ENUM);
			return 0;
		}
		mask |= bit;
	}
	return mask;
}

GLbitfield tsr_gles_BlitFramebufferNV(struct tsr_gles_context *ctx, GLint srcX0, GLint srcY0,
				      GLint srcX1, GLint srcY1, GLint dstX0, GLint dstY0,
				      GLint dstX1, GLint dstY1, GLbitfield mask, GLenum filter)
{
	(void)srcX0, (void)srcY0, (void)srcX1, (void)srcY1;
	(void)dstX0, (void)dstY0, (void)dstX1, (void)dstY1;
	const GLbitfield all = GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT;
	if (mask & ~all) {
		gles_error(ctx, GL_INVALID_VALUE);
		return 0;
	}
	if (filter != GL_NEAREST && filter != GL_LINEAR) {
		gles_error(ctx, GL_INVALID_ENUM);
		return 0;
	}
	if (tsr_gles_CheckFramebufferStatus(ctx, GL_READ_FRAMEBUFFER_NV) != GL_FRAMEBUFFER_COMPLETE ||
	    tsr_gles_CheckFramebufferStatus(ctx, GL_DRAW_FRAMEBUFFER_NV) != GL_FRAMEBUFFER_COMPLETE) {
		gles_error(ctx, GL_INVALID_FRAMEBUFFER_OPERATION);
		return 0;
	}
	if ((mask & (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT)) && filter != GL_NEAREST) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return 0;
	}
	const struct gles_framebuffer *rf = ctx->read_framebuffer, *df = ctx->framebuffer;
	GLint rb[6], db[6];
	gles_framebuffer_bits(ctx, rf, rb);
	gles_framebuffer_bits(ctx, df, db);
	/* depth and stencil in both: their formats must match (bits compared) */
	if (((mask & GL_DEPTH_BUFFER_BIT) && rb[4] && db[4] && rb[4] != db[4]) ||
	    ((mask & GL_STENCIL_BUFFER_BIT) && rb[5] && db[5] && rb[5] != db[5])) {
		gles_error(ctx, GL_INVALID_OPERATION);
		return 0;
	}
	/* a buffer missing from either side is ignored: the read buffer
	 * (COLOR_ATTACHMENT0, the window's back buffer), a draw buffer with an
	 * image (DrawBuffersEXT's selection), depth, stencil */
	const bool read_color = rf ? rf->att[GLES_ATTACH_COLOR0].type != GL_NONE : true;
	bool draw_color = !df && !ctx->default_draw_none;
	static const int color_att[TSR_GLES_MAX_DRAW_BUFFERS] = {
		GLES_ATTACH_COLOR0, GLES_ATTACH_COLOR1, GLES_ATTACH_COLOR2, GLES_ATTACH_COLOR3};
	for (int i = 0; df && i < TSR_GLES_MAX_DRAW_BUFFERS; i++)
		if ((df->draw_buffers >> i & 1) && df->att[color_att[i]].type != GL_NONE)
			draw_color = true;
	if (!read_color || !draw_color)
		mask &= ~(GLbitfield)GL_COLOR_BUFFER_BIT;
	if (!rb[4] || !db[4])
		mask &= ~(GLbitfield)GL_DEPTH_BUFFER_BIT;
	if (!rb[5] || !db[5])
		mask &= ~(GLbitfield)GL_STENCIL_BUFFER_BIT;
	return mask;
}
