/*
 * gl.c - the OpenGL ES 2.0 entry points (all 142 of <GLES2/gl2.h>),
 * GL_OES_mapbuffer's three and those of GL_EXT_discard_framebuffer,
 * GL_EXT_polygon_offset_clamp, GL_NV_framebuffer_blit and GL_KHR_debug
 * (KHR suffix), exported as gl*: each is the tsr_gles_* call of
 * src/gles/gles.h on the calling thread's current context (driver.h's
 * drv_current). With no current context a call does nothing and returns 0
 * (NULL, GL_FALSE, GL_NO_ERROR).
 *
 * What makes or reads pixels goes to the device of the current draw
 * surface (src/gles/device.h): glDrawArrays / glDrawElements after
 * tsr_gles_draw_*_state() validated them, glClear after
 * tsr_gles_clear_state(), glReadPixels after tsr_gles_read_pixels_state(),
 * glGenerateMipmap after the context's, glFlush and glFinish. A device error changes nothing the program sees:
 * it is printed once per distinct message (drv_report()) and the program
 * keeps running.
 *
 * The one-line wrappers were generated from gl2.h's prototypes (which
 * gl2.h declares, so the compiler checks every signature).
 */
#define GL_GLEXT_PROTOTYPES 1
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"
#include "driver/procs.h"

/* The calling thread's context as c; returns ret (nothing for void) when
 * there is none. */
#define CTX(ret)                                 \
	struct drv_context *c = drv_current;     \
	if (!c)                                  \
		return ret

/* The device of c's draw surface (NULL once TESSERA_FRAMES ended the run). */
static struct tsr_gles_device *device_of(const struct drv_context *c)
{
	return c->draw ? c->draw->device : NULL;
}

/* ---- what goes to the device ---- */

void GL_APIENTRY glClear(GLbitfield mask)
{
	CTX();
	struct tsr_clear_state cs;
	struct tsr_gles_device *dev = device_of(c);
	if (!tsr_gles_clear_state(c->gles, mask, &cs) || !dev)
		return;
	struct tsr_error err;
	err.msg[0] = '\0';
	enum tsr_status st = tsr_gles_device_clear(dev, c->gles, &cs, &err);
	if (st != TSR_OK)
		drv_report(st, &err);
}

/* Submits draw d of c to its device. */
static void draw(struct drv_context *c, const struct tsr_gles_draw *d)
{
	struct tsr_gles_device *dev = device_of(c);
	if (!dev)
		return;
	struct tsr_error err;
	err.msg[0] = '\0';
	enum tsr_status st = tsr_gles_device_draw(dev, c->gles, d, &err);
	if (st != TSR_OK)
		drv_report(st, &err);
}

void GL_APIENTRY glDrawArrays(GLenum mode, GLint first, GLsizei count)
{
	CTX();
	struct tsr_gles_draw d;
	if (tsr_gles_draw_arrays_state(c->gles, mode, first, count, &d))
		draw(c, &d);
}

void GL_APIENTRY glDrawElements(GLenum mode, GLsizei count, GLenum type, const void *indices)
{
	CTX();
	struct tsr_gles_draw d;
	if (tsr_gles_draw_elements_state(c->gles, mode, count, type, indices, &d))
		draw(c, &d);
}

void GL_APIENTRY glReadPixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format,
			      GLenum type, void *pixels)
{
	CTX();
	size_t row;
	struct tsr_gles_device *dev = device_of(c);
	if (!tsr_gles_read_pixels_state(c->gles, width, height, format, type, &row) || !dev ||
	    !pixels)
		return;
	const size_t tight = (size_t)width * 4;
	/* the device writes tight rows: padded ones (PACK_ALIGNMENT 8 with an
	 * odd width) go through a copy */
	uint8_t *rgba = row == tight ? pixels : calloc((size_t)height, tight);
	if (!rgba) {
		struct tsr_error err;
		drv_report(tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory for glReadPixels of "
					 "%dx%d pixels", width, height), &err);
		return;
	}
	struct tsr_error err;
	err.msg[0] = '\0';
	enum tsr_status st =
		tsr_gles_device_read_pixels(dev, c->gles, x, y, width, height, rgba, &err);
	if (st != TSR_OK)
		drv_report(st, &err);
	if (rgba != pixels) {
		for (GLsizei j = 0; j < height; j++)
			memcpy((uint8_t *)pixels + (size_t)j * row, rgba + (size_t)j * tight, tight);
		free(rgba);
	}
}

/* The context's levels, then the device's (a render target's mip chain is
 * rebuilt from what its passes rendered). */
void GL_APIENTRY glGenerateMipmap(GLenum target)
{
	CTX();
	tsr_gles_GenerateMipmap(c->gles, target);
	struct tsr_gles_device *dev = device_of(c);
	if (!dev)
		return;
	struct tsr_error err;
	err.msg[0] = '\0';
	enum tsr_status st = tsr_gles_device_generate_mipmap(dev, c->gles, target, &err);
	if (st != TSR_OK)
		drv_report(st, &err);
}

void GL_APIENTRY glFlush(void)
{
	CTX();
	struct tsr_gles_device *dev = device_of(c);
	if (!dev)
		return;
	struct tsr_error err;
	err.msg[0] = '\0';
	enum tsr_status st = tsr_gles_device_flush(dev, &err);
	if (st != TSR_OK)
		drv_report(st, &err);
}

/* Finish: Flush, and the device renders synchronously. */
void GL_APIENTRY glFinish(void)
{
	glFlush();
}

/* ---- the state machine: one line each ---- */

void GL_APIENTRY glActiveTexture(GLenum texture)
{
	CTX();
	tsr_gles_ActiveTexture(c->gles, texture);
}

void GL_APIENTRY glAttachShader(GLuint program, GLuint shader)
{
	CTX();
	tsr_gles_AttachShader(c->gles, program, shader);
}

void GL_APIENTRY glBindAttribLocation(GLuint program, GLuint index, const GLchar *name)
{
	CTX();
	tsr_gles_BindAttribLocation(c->gles, program, index, name);
}

void GL_APIENTRY glBindBuffer(GLenum target, GLuint buffer)
{
	CTX();
	tsr_gles_BindBuffer(c->gles, target, buffer);
}

void GL_APIENTRY glBindFramebuffer(GLenum target, GLuint framebuffer)
{
	CTX();
	tsr_gles_BindFramebuffer(c->gles, target, framebuffer);
}

void GL_APIENTRY glBindRenderbuffer(GLenum target, GLuint renderbuffer)
{
	CTX();
	tsr_gles_BindRenderbuffer(c->gles, target, renderbuffer);
}

void GL_APIENTRY glBindTexture(GLenum target, GLuint texture)
{
	CTX();
	tsr_gles_BindTexture(c->gles, target, texture);
}

void GL_APIENTRY glBlendColor(GLfloat red, GLfloat green, GLfloat blue, GLfloat alpha)
{
	CTX();
	tsr_gles_BlendColor(c->gles, red, green, blue, alpha);
}

void GL_APIENTRY glBlendEquation(GLenum mode)
{
	CTX();
	tsr_gles_BlendEquation(c->gles, mode);
}

void GL_APIENTRY glBlendEquationSeparate(GLenum modeRGB, GLenum modeAlpha)
{
	CTX();
	tsr_gles_BlendEquationSeparate(c->gles, modeRGB, modeAlpha);
}

void GL_APIENTRY glBlendFunc(GLenum sfactor, GLenum dfactor)
{
	CTX();
	tsr_gles_BlendFunc(c->gles, sfactor, dfactor);
}

void GL_APIENTRY glBlendFuncSeparate(GLenum sfactorRGB, GLenum dfactorRGB, GLenum sfactorAlpha,
				     GLenum dfactorAlpha)
{
	CTX();
	tsr_gles_BlendFuncSeparate(c->gles, sfactorRGB, dfactorRGB, sfactorAlpha, dfactorAlpha);
}

void GL_APIENTRY glBufferData(GLenum target, GLsizeiptr size, const void *data, GLenum usage)
{
	CTX();
	tsr_gles_BufferData(c->gles, target, size, data, usage);
}

void GL_APIENTRY glBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, const void *data)
{
	CTX();
	tsr_gles_BufferSubData(c->gles, target, offset, size, data);
}

GLenum GL_APIENTRY glCheckFramebufferStatus(GLenum target)
{
	CTX(0);
	return tsr_gles_CheckFramebufferStatus(c->gles, target);
}

void GL_APIENTRY glClearColor(GLfloat red, GLfloat green, GLfloat blue, GLfloat alpha)
{
	CTX();
	tsr_gles_ClearColor(c->gles, red, green, blue, alpha);
}

void GL_APIENTRY glClearDepthf(GLfloat d)
{
	CTX();
	tsr_gles_ClearDepthf(c->gles, d);
}

void GL_APIENTRY glClearStencil(GLint s)
{
	CTX();
	tsr_gles_ClearStencil(c->gles, s);
}

void GL_APIENTRY glColorMask(GLboolean red, GLboolean green, GLboolean blue, GLboolean alpha)
{
	CTX();
	tsr_gles_ColorMask(c->gles, red, green, blue, alpha);
}

void GL_APIENTRY glCompileShader(GLuint shader)
{
	CTX();
	tsr_gles_CompileShader(c->gles, shader);
}

void GL_APIENTRY glCompressedTexImage2D(GLenum target, GLint level, GLenum internalformat,
					GLsizei width, GLsizei height, GLint border,
					GLsizei imageSize, const void *data)
{
	CTX();
	tsr_gles_CompressedTexImage2D(c->gles, target, level, internalformat, width, height, border,
				      imageSize, data);
}

void GL_APIENTRY glCompressedTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset,
					   GLsizei width, GLsizei height, GLenum format,
					   GLsizei imageSize, const void *data)
{
	CTX();
	tsr_gles_CompressedTexSubImage2D(c->gles, target, level, xoffset, yoffset, width, height,
					 format, imageSize, data);
}

void GL_APIENTRY glCopyTexImage2D(GLenum target, GLint level, GLenum internalformat, GLint x,
				  GLint y, GLsizei width, GLsizei height, GLint border)
{
	CTX();
	tsr_gles_CopyTexImage2D(c->gles, target, level, internalformat, x, y, width, height,
				border);
}

void GL_APIENTRY glCopyTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset,
				     GLint x, GLint y, GLsizei width, GLsizei height)
{
	CTX();
	tsr_gles_CopyTexSubImage2D(c->gles, target, level, xoffset, yoffset, x, y, width, height);
}

GLuint GL_APIENTRY glCreateProgram(void)
{
	CTX(0);
	return tsr_gles_CreateProgram(c->gles);
}

GLuint GL_APIENTRY glCreateShader(GLenum type)
{
	CTX(0);
	return tsr_gles_CreateShader(c->gles, type);
}

void GL_APIENTRY glCullFace(GLenum mode)
{
	CTX();
	tsr_gles_CullFace(c->gles, mode);
}

void GL_APIENTRY glDeleteBuffers(GLsizei n, const GLuint *buffers)
{
	CTX();
	tsr_gles_DeleteBuffers(c->gles, n, buffers);
}

void GL_APIENTRY glDeleteFramebuffers(GLsizei n, const GLuint *framebuffers)
{
	CTX();
	tsr_gles_DeleteFramebuffers(c->gles, n, framebuffers);
}

void GL_APIENTRY glDeleteProgram(GLuint program)
{
	CTX();
	tsr_gles_DeleteProgram(c->gles, program);
}

void GL_APIENTRY glDeleteRenderbuffers(GLsizei n, const GLuint *renderbuffers)
{
	CTX();
	tsr_gles_DeleteRenderbuffers(c->gles, n, renderbuffers);
}

void GL_APIENTRY glDeleteShader(GLuint shader)
{
	CTX();
	tsr_gles_DeleteShader(c->gles, shader);
}

void GL_APIENTRY glDeleteTextures(GLsizei n, const GLuint *textures)
{
	CTX();
	tsr_gles_DeleteTextures(c->gles, n, textures);
}

void GL_APIENTRY glDepthFunc(GLenum func)
{
	CTX();
	tsr_gles_DepthFunc(c->gles, func);
}

void GL_APIENTRY glDepthMask(GLboolean flag)
{
	CTX();
	tsr_gles_DepthMask(c->gles, flag);
}

void GL_APIENTRY glDepthRangef(GLfloat n, GLfloat f)
{
	CTX();
	tsr_gles_DepthRangef(c->gles, n, f);
}

void GL_APIENTRY glDetachShader(GLuint program, GLuint shader)
{
	CTX();
	tsr_gles_DetachShader(c->gles, program, shader);
}

void GL_APIENTRY glDisable(GLenum cap)
{
	CTX();
	tsr_gles_Disable(c->gles, cap);
}

void GL_APIENTRY glDisableVertexAttribArray(GLuint index)
{
	CTX();
	tsr_gles_DisableVertexAttribArray(c->gles, index);
}

void GL_APIENTRY glEnable(GLenum cap)
{
	CTX();
	tsr_gles_Enable(c->gles, cap);
}

void GL_APIENTRY glEnableVertexAttribArray(GLuint index)
{
	CTX();
	tsr_gles_EnableVertexAttribArray(c->gles, index);
}

/* GL_EXT_shader_framebuffer_fetch_non_coherent: gl_LastFragData is always
 * coherent here (a fetching quad waits for the older ones), so the barrier
 * has nothing to order. */
void GL_APIENTRY glDrawBuffersEXT(GLsizei n, const GLenum *bufs)
{
	CTX();
	tsr_gles_DrawBuffersEXT(c->gles, n, bufs);
}

void GL_APIENTRY glFramebufferFetchBarrierEXT(void)
{
	CTX();
	tsr_gles_FramebufferFetchBarrierEXT(c->gles);
}

void GL_APIENTRY glFramebufferRenderbuffer(GLenum target, GLenum attachment,
					   GLenum renderbuffertarget, GLuint renderbuffer)
{
	CTX();
	tsr_gles_FramebufferRenderbuffer(c->gles, target, attachment, renderbuffertarget,
					 renderbuffer);
}

void GL_APIENTRY glFramebufferTexture2D(GLenum target, GLenum attachment, GLenum textarget,
					GLuint texture, GLint level)
{
	CTX();
	tsr_gles_FramebufferTexture2D(c->gles, target, attachment, textarget, texture, level);
}

void GL_APIENTRY glFrontFace(GLenum mode)
{
	CTX();
	tsr_gles_FrontFace(c->gles, mode);
}

void GL_APIENTRY glGenBuffers(GLsizei n, GLuint *buffers)
{
	CTX();
	tsr_gles_GenBuffers(c->gles, n, buffers);
}


void GL_APIENTRY glGenFramebuffers(GLsizei n, GLuint *framebuffers)
{
	CTX();
	tsr_gles_GenFramebuffers(c->gles, n, framebuffers);
}

void GL_APIENTRY glGenRenderbuffers(GLsizei n, GLuint *renderbuffers)
{
	CTX();
	tsr_gles_GenRenderbuffers(c->gles, n, renderbuffers);
}

void GL_APIENTRY glGenTextures(GLsizei n, GLuint *textures)
{
	CTX();
	tsr_gles_GenTextures(c->gles, n, textures);
}

void GL_APIENTRY glGetActiveAttrib(GLuint program, GLuint index, GLsizei bufSize, GLsizei *length,
				   GLint *size, GLenum *type, GLchar *name)
{
	CTX();
	tsr_gles_GetActiveAttrib(c->gles, program, index, bufSize, length, size, type, name);
}

void GL_APIENTRY glGetActiveUniform(GLuint program, GLuint index, GLsizei bufSize, GLsizei *length,
				    GLint *size, GLenum *type, GLchar *name)
{
	CTX();
	tsr_gles_GetActiveUniform(c->gles, program, index, bufSize, length, size, type, name);
}

void GL_APIENTRY glGetAttachedShaders(GLuint program, GLsizei maxCount, GLsizei *count,
				      GLuint *shaders)
{
	CTX();
	tsr_gles_GetAttachedShaders(c->gles, program, maxCount, count, shaders);
}

GLint GL_APIENTRY glGetAttribLocation(GLuint program, const GLchar *name)
{
	CTX(0);
	return tsr_gles_GetAttribLocation(c->gles, program, name);
}

void GL_APIENTRY glGetBooleanv(GLenum pname, GLboolean *data)
{
	CTX();
	tsr_gles_GetBooleanv(c->gles, pname, data);
}

void GL_APIENTRY glGetBufferParameteriv(GLenum target, GLenum pname, GLint *params)
{
	CTX();
	tsr_gles_GetBufferParameteriv(c->gles, target, pname, params);
}

GLenum GL_APIENTRY glGetError(void)
{
	CTX(0);
	return tsr_gles_GetError(c->gles);
}

void GL_APIENTRY glGetFloatv(GLenum pname, GLfloat *data)
{
	CTX();
	tsr_gles_GetFloatv(c->gles, pname, data);
}

void GL_APIENTRY glGetFramebufferAttachmentParameteriv(GLenum target, GLenum attachment,
						       GLenum pname, GLint *params)
{
	CTX();
	tsr_gles_GetFramebufferAttachmentParameteriv(c->gles, target, attachment, pname, params);
}

void GL_APIENTRY glGetIntegerv(GLenum pname, GLint *data)
{
	CTX();
	tsr_gles_GetIntegerv(c->gles, pname, data);
}

void GL_APIENTRY glGetProgramiv(GLuint program, GLenum pname, GLint *params)
{
	CTX();
	tsr_gles_GetProgramiv(c->gles, program, pname, params);
}

void GL_APIENTRY glGetProgramInfoLog(GLuint program, GLsizei bufSize, GLsizei *length,
				     GLchar *infoLog)
{
	CTX();
	tsr_gles_GetProgramInfoLog(c->gles, program, bufSize, length, infoLog);
}

void GL_APIENTRY glGetRenderbufferParameteriv(GLenum target, GLenum pname, GLint *params)
{
	CTX();
	tsr_gles_GetRenderbufferParameteriv(c->gles, target, pname, params);
}

void GL_APIENTRY glGetShaderiv(GLuint shader, GLenum pname, GLint *params)
{
	CTX();
	tsr_gles_GetShaderiv(c->gles, shader, pname, params);
}

void GL_APIENTRY glGetShaderInfoLog(GLuint shader, GLsizei bufSize, GLsizei *length,
				    GLchar *infoLog)
{
	CTX();
	tsr_gles_GetShaderInfoLog(c->gles, shader, bufSize, length, infoLog);
}

void GL_APIENTRY glGetShaderPrecisionFormat(GLenum shadertype, GLenum precisiontype, GLint *range,
					    GLint *precision)
{
	CTX();
	tsr_gles_GetShaderPrecisionFormat(c->gles, shadertype, precisiontype, range, precision);
}

void GL_APIENTRY glGetShaderSource(GLuint shader, GLsizei bufSize, GLsizei *length, GLchar *source)
{
	CTX();
	tsr_gles_GetShaderSource(c->gles, shader, bufSize, length, source);
}

const GLubyte *GL_APIENTRY glGetString(GLenum name)
{
	CTX(NULL);
	return tsr_gles_GetString(c->gles, name);
}

void GL_APIENTRY glGetTexParameterfv(GLenum target, GLenum pname, GLfloat *params)
{
	CTX();
	tsr_gles_GetTexParameterfv(c->gles, target, pname, params);
}

void GL_APIENTRY glGetTexParameteriv(GLenum target, GLenum pname, GLint *params)
{
	CTX();
	tsr_gles_GetTexParameteriv(c->gles, target, pname, params);
}

void GL_APIENTRY glGetUniformfv(GLuint program, GLint location, GLfloat *params)
{
	CTX();
	tsr_gles_GetUniformfv(c->gles, program, location, params);
}

void GL_APIENTRY glGetUniformiv(GLuint program, GLint location, GLint *params)
{
	CTX();
	tsr_gles_GetUniformiv(c->gles, program, location, params);
}

GLint GL_APIENTRY glGetUniformLocation(GLuint program, const GLchar *name)
{
	CTX(0);
	return tsr_gles_GetUniformLocation(c->gles, program, name);
}

void GL_APIENTRY glGetVertexAttribfv(GLuint index, GLenum pname, GLfloat *params)
{
	CTX();
	tsr_gles_GetVertexAttribfv(c->gles, index, pname, params);
}

void GL_APIENTRY glGetVertexAttribiv(GLuint index, GLenum pname, GLint *params)
{
	CTX();
	tsr_gles_GetVertexAttribiv(c->gles, index, pname, params);
}

void GL_APIENTRY glGetVertexAttribPointerv(GLuint index, GLenum pname, void **pointer)
{
	CTX();
	tsr_gles_GetVertexAttribPointerv(c->gles, index, pname, pointer);
}

void GL_APIENTRY glHint(GLenum target, GLenum mode)
{
	CTX();
	tsr_gles_Hint(c->gles, target, mode);
}

GLboolean GL_APIENTRY glIsBuffer(GLuint buffer)
{
	CTX(0);
	return tsr_gles_IsBuffer(c->gles, buffer);
}

GLboolean GL_APIENTRY glIsEnabled(GLenum cap)
{
	CTX(0);
	return tsr_gles_IsEnabled(c->gles, cap);
}

GLboolean GL_APIENTRY glIsFramebuffer(GLuint framebuffer)
{
	CTX(0);
	return tsr_gles_IsFramebuffer(c->gles, framebuffer);
}

GLboolean GL_APIENTRY glIsProgram(GLuint program)
{
	CTX(0);
	return tsr_gles_IsProgram(c->gles, program);
}

GLboolean GL_APIENTRY glIsRenderbuffer(GLuint renderbuffer)
{
	CTX(0);
	return tsr_gles_IsRenderbuffer(c->gles, renderbuffer);
}

GLboolean GL_APIENTRY glIsShader(GLuint shader)
{
	CTX(0);
	return tsr_gles_IsShader(c->gles, shader);
}

GLboolean GL_APIENTRY glIsTexture(GLuint texture)
{
	CTX(0);
	return tsr_gles_IsTexture(c->gles, texture);
}

void GL_APIENTRY glLineWidth(GLfloat width)
{
	CTX();
	tsr_gles_LineWidth(c->gles, width);
}

void GL_APIENTRY glLinkProgram(GLuint program)
{
	CTX();
	tsr_gles_LinkProgram(c->gles, program);
}

void GL_APIENTRY glPixelStorei(GLenum pname, GLint param)
{
	CTX();
	tsr_gles_PixelStorei(c->gles, pname, param);
}

void GL_APIENTRY glPolygonOffset(GLfloat factor, GLfloat units)
{
	CTX();
	tsr_gles_PolygonOffset(c->gles, factor, units);
}

void GL_APIENTRY glReleaseShaderCompiler(void)
{
	CTX();
	tsr_gles_ReleaseShaderCompiler(c->gles);
}

void GL_APIENTRY glRenderbufferStorage(GLenum target, GLenum internalformat, GLsizei width,
				       GLsizei height)
{
	CTX();
	tsr_gles_RenderbufferStorage(c->gles, target, internalformat, width, height);
}

void GL_APIENTRY glSampleCoverage(GLfloat value, GLboolean invert)
{
	CTX();
	tsr_gles_SampleCoverage(c->gles, value, invert);
}

void GL_APIENTRY glScissor(GLint x, GLint y, GLsizei width, GLsizei height)
{
	CTX();
	tsr_gles_Scissor(c->gles, x, y, width, height);
}

void GL_APIENTRY glShaderBinary(GLsizei count, const GLuint *shaders, GLenum binaryFormat,
				const void *binary, GLsizei length)
{
	CTX();
	tsr_gles_ShaderBinary(c->gles, count, shaders, binaryFormat, binary, length);
}

void GL_APIENTRY glShaderSource(GLuint shader, GLsizei count, const GLchar *const*string,
				const GLint *length)
{
	CTX();
	tsr_gles_ShaderSource(c->gles, shader, count, string, length);
}

void GL_APIENTRY glStencilFunc(GLenum func, GLint ref, GLuint mask)
{
	CTX();
	tsr_gles_StencilFunc(c->gles, func, ref, mask);
}

void GL_APIENTRY glStencilFuncSeparate(GLenum face, GLenum func, GLint ref, GLuint mask)
{
	CTX();
	tsr_gles_StencilFuncSeparate(c->gles, face, func, ref, mask);
}

void GL_APIENTRY glStencilMask(GLuint mask)
{
	CTX();
	tsr_gles_StencilMask(c->gles, mask);
}

void GL_APIENTRY glStencilMaskSeparate(GLenum face, GLuint mask)
{
	CTX();
	tsr_gles_StencilMaskSeparate(c->gles, face, mask);
}

void GL_APIENTRY glStencilOp(GLenum fail, GLenum zfail, GLenum zpass)
{
	CTX();
	tsr_gles_StencilOp(c->gles, fail, zfail, zpass);
}

void GL_APIENTRY glStencilOpSeparate(GLenum face, GLenum sfail, GLenum dpfail, GLenum dppass)
{
	CTX();
	tsr_gles_StencilOpSeparate(c->gles, face, sfail, dpfail, dppass);
}

void GL_APIENTRY glTexImage2D(GLenum target, GLint level, GLint internalformat, GLsizei width,
			      GLsizei height, GLint border, GLenum format, GLenum type,
			      const void *pixels)
{
	CTX();
	tsr_gles_TexImage2D(c->gles, target, level, internalformat, width, height, border, format,
			    type, pixels);
}

void GL_APIENTRY glTexParameterf(GLenum target, GLenum pname, GLfloat param)
{
	CTX();
	tsr_gles_TexParameterf(c->gles, target, pname, param);
}

void GL_APIENTRY glTexParameterfv(GLenum target, GLenum pname, const GLfloat *params)
{
	CTX();
	tsr_gles_TexParameterfv(c->gles, target, pname, params);
}

void GL_APIENTRY glTexParameteri(GLenum target, GLenum pname, GLint param)
{
	CTX();
	tsr_gles_TexParameteri(c->gles, target, pname, param);
}

void GL_APIENTRY glTexParameteriv(GLenum target, GLenum pname, const GLint *params)
{
	CTX();
	tsr_gles_TexParameteriv(c->gles, target, pname, params);
}

void GL_APIENTRY glTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset,
				 GLsizei width, GLsizei height, GLenum format, GLenum type,
				 const void *pixels)
{
	CTX();
	tsr_gles_TexSubImage2D(c->gles, target, level, xoffset, yoffset, width, height, format,
			       type, pixels);
}

void GL_APIENTRY glUniform1f(GLint location, GLfloat v0)
{
	CTX();
	tsr_gles_Uniform1f(c->gles, location, v0);
}

void GL_APIENTRY glUniform1fv(GLint location, GLsizei count, const GLfloat *value)
{
	CTX();
	tsr_gles_Uniform1fv(c->gles, location, count, value);
}

void GL_APIENTRY glUniform1i(GLint location, GLint v0)
{
	CTX();
	tsr_gles_Uniform1i(c->gles, location, v0);
}

void GL_APIENTRY glUniform1iv(GLint location, GLsizei count, const GLint *value)
{
	CTX();
	tsr_gles_Uniform1iv(c->gles, location, count, value);
}

void GL_APIENTRY glUniform2f(GLint location, GLfloat v0, GLfloat v1)
{
	CTX();
	tsr_gles_Uniform2f(c->gles, location, v0, v1);
}

void GL_APIENTRY glUniform2fv(GLint location, GLsizei count, const GLfloat *value)
{
	CTX();
	tsr_gles_Uniform2fv(c->gles, location, count, value);
}

void GL_APIENTRY glUniform2i(GLint location, GLint v0, GLint v1)
{
	CTX();
	tsr_gles_Uniform2i(c->gles, location, v0, v1);
}

void GL_APIENTRY glUniform2iv(GLint location, GLsizei count, const GLint *value)
{
	CTX();
	tsr_gles_Uniform2iv(c->gles, location, count, value);
}

void GL_APIENTRY glUniform3f(GLint location, GLfloat v0, GLfloat v1, GLfloat v2)
{
	CTX();
	tsr_gles_Uniform3f(c->gles, location, v0, v1, v2);
}

void GL_APIENTRY glUniform3fv(GLint location, GLsizei count, const GLfloat *value)
{
	CTX();
	tsr_gles_Uniform3fv(c->gles, location, count, value);
}

void GL_APIENTRY glUniform3i(GLint location, GLint v0, GLint v1, GLint v2)
{
	CTX();
	tsr_gles_Uniform3i(c->gles, location, v0, v1, v2);
}

void GL_APIENTRY glUniform3iv(GLint location, GLsizei count, const GLint *value)
{
	CTX();
	tsr_gles_Uniform3iv(c->gles, location, count, value);
}

void GL_APIENTRY glUniform4f(GLint location, GLfloat v0, GLfloat v1, GLfloat v2, GLfloat v3)
{
	CTX();
	tsr_gles_Uniform4f(c->gles, location, v0, v1, v2, v3);
}

void GL_APIENTRY glUniform4fv(GLint location, GLsizei count, const GLfloat *value)
{
	CTX();
	tsr_gles_Uniform4fv(c->gles, location, count, value);
}

void GL_APIENTRY glUniform4i(GLint location, GLint v0, GLint v1, GLint v2, GLint v3)
{
	CTX();
	tsr_gles_Uniform4i(c->gles, location, v0, v1, v2, v3);
}

void GL_APIENTRY glUniform4iv(GLint location, GLsizei count, const GLint *value)
{
	CTX();
	tsr_gles_Uniform4iv(c->gles, location, count, value);
}

void GL_APIENTRY glUniformMatrix2fv(GLint location, GLsizei count, GLboolean transpose,
				    const GLfloat *value)
{
	CTX();
	tsr_gles_UniformMatrix2fv(c->gles, location, count, transpose, value);
}

void GL_APIENTRY glUniformMatrix3fv(GLint location, GLsizei count, GLboolean transpose,
				    const GLfloat *value)
{
	CTX();
	tsr_gles_UniformMatrix3fv(c->gles, location, count, transpose, value);
}

void GL_APIENTRY glUniformMatrix4fv(GLint location, GLsizei count, GLboolean transpose,
				    const GLfloat *value)
{
	CTX();
	tsr_gles_UniformMatrix4fv(c->gles, location, count, transpose, value);
}

void GL_APIENTRY glUseProgram(GLuint program)
{
	CTX();
	tsr_gles_UseProgram(c->gles, program);
}

void GL_APIENTRY glValidateProgram(GLuint program)
{
	CTX();
	tsr_gles_ValidateProgram(c->gles, program);
}

void GL_APIENTRY glVertexAttrib1f(GLuint index, GLfloat x)
{
	CTX();
	tsr_gles_VertexAttrib1f(c->gles, index, x);
}

void GL_APIENTRY glVertexAttrib1fv(GLuint index, const GLfloat *v)
{
	CTX();
	tsr_gles_VertexAttrib1fv(c->gles, index, v);
}

void GL_APIENTRY glVertexAttrib2f(GLuint index, GLfloat x, GLfloat y)
{
	CTX();
	tsr_gles_VertexAttrib2f(c->gles, index, x, y);
}

void GL_APIENTRY glVertexAttrib2fv(GLuint index, const GLfloat *v)
{
	CTX();
	tsr_gles_VertexAttrib2fv(c->gles, index, v);
}

void GL_APIENTRY glVertexAttrib3f(GLuint index, GLfloat x, GLfloat y, GLfloat z)
{
	CTX();
	tsr_gles_VertexAttrib3f(c->gles, index, x, y, z);
}

void GL_APIENTRY glVertexAttrib3fv(GLuint index, const GLfloat *v)
{
	CTX();
	tsr_gles_VertexAttrib3fv(c->gles, index, v);
}

void GL_APIENTRY glVertexAttrib4f(GLuint index, GLfloat x, GLfloat y, GLfloat z, GLfloat w)
{
	CTX();
	tsr_gles_VertexAttrib4f(c->gles, index, x, y, z, w);
}

void GL_APIENTRY glVertexAttrib4fv(GLuint index, const GLfloat *v)
{
	CTX();
	tsr_gles_VertexAttrib4fv(c->gles, index, v);
}

void GL_APIENTRY glVertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean normalized,
				       GLsizei stride, const void *pointer)
{
	CTX();
	tsr_gles_VertexAttribPointer(c->gles, index, size, type, normalized, stride, pointer);
}

void GL_APIENTRY glViewport(GLint x, GLint y, GLsizei width, GLsizei height)
{
	CTX();
	tsr_gles_Viewport(c->gles, x, y, width, height);
}

void *GL_APIENTRY glMapBufferOES(GLenum target, GLenum access)
{
	CTX(NULL);
	return tsr_gles_MapBufferOES(c->gles, target, access);
}

GLboolean GL_APIENTRY glUnmapBufferOES(GLenum target)
{
	CTX(0);
	return tsr_gles_UnmapBufferOES(c->gles, target);
}

void GL_APIENTRY glGetBufferPointervOES(GLenum target, GLenum pname, void **params)
{
	CTX();
	tsr_gles_GetBufferPointervOES(c->gles, target, pname, params);
}

/* ---- extensions ---- */

void GL_APIENTRY glPolygonOffsetClampEXT(GLfloat factor, GLfloat units, GLfloat clamp)
{
	CTX();
	tsr_gles_PolygonOffsetClampEXT(c->gles, factor, units, clamp);
}

/* The context validates, the device skips what it can
 * (tsr_gles_device_discard()). */
void GL_APIENTRY glDiscardFramebufferEXT(GLenum target, GLsizei numAttachments,
					 const GLenum *attachments)
{
	CTX();
	const GLbitfield mask =
		tsr_gles_DiscardFramebufferEXT(c->gles, target, numAttachments, attachments);
	struct tsr_gles_device *dev = device_of(c);
	if (!mask || !dev)
		return;
	struct tsr_error err;
	err.msg[0] = '\0';
	enum tsr_status st = tsr_gles_device_discard(dev, c->gles, mask, &err);
	if (st != TSR_OK)
		drv_report(st, &err);
}

/* GL_NV_framebuffer_blit: the context validates, the device copies
 * (tsr_gles_device_blit()). */
void GL_APIENTRY glBlitFramebufferNV(GLint srcX0, GLint srcY0, GLint srcX1, GLint srcY1,
				     GLint dstX0, GLint dstY0, GLint dstX1, GLint dstY1,
				     GLbitfield mask, GLenum filter)
{
	CTX();
	const GLbitfield m = tsr_gles_BlitFramebufferNV(c->gles, srcX0, srcY0, srcX1, srcY1, dstX0,
							dstY0, dstX1, dstY1, mask, filter);
	struct tsr_gles_device *dev = device_of(c);
	if (!m || !dev)
		return;
	const GLint src[4] = {srcX0, srcY0, srcX1, srcY1}, dst[4] = {dstX0, dstY0, dstX1, dstY1};
	struct tsr_error err;
	err.msg[0] = '\0';
	enum tsr_status st = tsr_gles_device_blit(dev, c->gles, src, dst, m, filter, &err);
	if (st != TSR_OK)
		drv_report(st, &err);
}

/* GL_KHR_debug */
void GL_APIENTRY glObjectLabelKHR(GLenum identifier, GLuint name, GLsizei length,
				  const GLchar *label)
{
	CTX();
	tsr_gles_ObjectLabelKHR(c->gles, identifier, name, length, label);
}

void GL_APIENTRY glGetObjectLabelKHR(GLenum identifier, GLuint name, GLsizei bufSize,
				     GLsizei *length, GLchar *label)
{
	CTX();
	tsr_gles_GetObjectLabelKHR(c->gles, identifier, name, bufSize, length, label);
}

void GL_APIENTRY glObjectPtrLabelKHR(const void *ptr, GLsizei length, const GLchar *label)
{
	CTX();
	tsr_gles_ObjectPtrLabelKHR(c->gles, ptr, length, label);
}

void GL_APIENTRY glGetObjectPtrLabelKHR(const void *ptr, GLsizei bufSize, GLsizei *length,
					GLchar *label)
{
	CTX();
	tsr_gles_GetObjectPtrLabelKHR(c->gles, ptr, bufSize, length, label);
}

void GL_APIENTRY glDebugMessageControlKHR(GLenum source, GLenum type, GLenum severity,
					  GLsizei count, const GLuint *ids, GLboolean enabled)
{
	CTX();
	tsr_gles_DebugMessageControlKHR(c->gles, source, type, severity, count, ids, enabled);
}

void GL_APIENTRY glDebugMessageInsertKHR(GLenum source, GLenum type, GLuint id, GLenum severity,
					 GLsizei length, const GLchar *buf)
{
	CTX();
	tsr_gles_DebugMessageInsertKHR(c->gles, source, type, id, severity, length, buf);
}

void GL_APIENTRY glDebugMessageCallbackKHR(GLDEBUGPROCKHR callback, const void *userParam)
{
	CTX();
	tsr_gles_DebugMessageCallbackKHR(c->gles, callback, userParam);
}

GLuint GL_APIENTRY glGetDebugMessageLogKHR(GLuint count, GLsizei bufSize, GLenum *sources,
					   GLenum *types, GLuint *ids, GLenum *severities,
					   GLsizei *lengths, GLchar *messageLog)
{
	CTX(0);
	return tsr_gles_GetDebugMessageLogKHR(c->gles, count, bufSize, sources, types, ids,
					      severities, lengths, messageLog);
}

void GL_APIENTRY glPushDebugGroupKHR(GLenum source, GLuint id, GLsizei length,
				     const GLchar *message)
{
	CTX();
	tsr_gles_PushDebugGroupKHR(c->gles, source, id, length, message);
}

void GL_APIENTRY glPopDebugGroupKHR(void)
{
	CTX();
	tsr_gles_PopDebugGroupKHR(c->gles);
}

void GL_APIENTRY glGetPointervKHR(GLenum pname, void **params)
{
	CTX();
	tsr_gles_GetPointervKHR(c->gles, pname, params);
}

/* ---- eglGetProcAddress ---- */

static const struct drv_proc gl_procs[] = {
#define P(name) {#name, (void (*)(void))name}
	P(glActiveTexture), P(glAttachShader), P(glBindAttribLocation), P(glBindBuffer),
	P(glBindFramebuffer), P(glBindRenderbuffer), P(glBindTexture), P(glBlendColor),
	P(glBlendEquation), P(glBlendEquationSeparate), P(glBlendFunc), P(glBlendFuncSeparate),
	P(glBlitFramebufferNV), P(glBufferData), P(glBufferSubData), P(glCheckFramebufferStatus),
	P(glClear),
	P(glClearColor), P(glClearDepthf), P(glClearStencil), P(glColorMask), P(glCompileShader),
	P(glCompressedTexImage2D), P(glCompressedTexSubImage2D), P(glCopyTexImage2D),
	P(glCopyTexSubImage2D), P(glCreateProgram), P(glCreateShader), P(glCullFace),
	P(glDebugMessageCallbackKHR), P(glDebugMessageControlKHR), P(glDebugMessageInsertKHR),
	P(glDeleteBuffers), P(glDeleteFramebuffers), P(glDeleteProgram), P(glDeleteRenderbuffers),
	P(glDeleteShader), P(glDeleteTextures), P(glDepthFunc), P(glDepthMask), P(glDepthRangef),
	P(glDetachShader), P(glDisable), P(glDisableVertexAttribArray), P(glDiscardFramebufferEXT),
	P(glDrawArrays), P(glDrawBuffersEXT), P(glDrawElements), P(glEnable),
	P(glEnableVertexAttribArray), P(glFinish), P(glFlush), P(glFramebufferFetchBarrierEXT),
	P(glFramebufferRenderbuffer), P(glFramebufferTexture2D), P(glFrontFace),
	P(glGenBuffers), P(glGenFramebuffers), P(glGenRenderbuffers), P(glGenTextures),
	P(glGenerateMipmap), P(glGetActiveAttrib), P(glGetActiveUniform), P(glGetAttachedShaders),
	P(glGetAttribLocation), P(glGetBooleanv), P(glGetBufferParameteriv),
	P(glGetBufferPointervOES), P(glGetDebugMessageLogKHR), P(glGetError), P(glGetFloatv),
	P(glGetFramebufferAttachmentParameteriv), P(glGetIntegerv), P(glGetObjectLabelKHR),
	P(glGetObjectPtrLabelKHR), P(glGetPointervKHR), P(glGetProgramInfoLog), P(glGetProgramiv),
	P(glGetRenderbufferParameteriv), P(glGetShaderInfoLog), P(glGetShaderPrecisionFormat),
	P(glGetShaderSource), P(glGetShaderiv), P(glGetString), P(glGetTexParameterfv),
	P(glGetTexParameteriv), P(glGetUniformLocation), P(glGetUniformfv), P(glGetUniformiv),
	P(glGetVertexAttribPointerv), P(glGetVertexAttribfv), P(glGetVertexAttribiv), P(glHint),
	P(glIsBuffer), P(glIsEnabled), P(glIsFramebuffer), P(glIsProgram), P(glIsRenderbuffer),
	P(glIsShader), P(glIsTexture), P(glLineWidth), P(glLinkProgram), P(glMapBufferOES),
	P(glObjectLabelKHR), P(glObjectPtrLabelKHR), P(glPixelStorei), P(glPolygonOffset),
	P(glPolygonOffsetClampEXT), P(glPopDebugGroupKHR), P(glPushDebugGroupKHR), P(glReadPixels),
	P(glReleaseShaderCompiler), P(glRenderbufferStorage), P(glSampleCoverage), P(glScissor),
	P(glShaderBinary), P(glShaderSource), P(glStencilFunc), P(glStencilFuncSeparate),
	P(glStencilMask), P(glStencilMaskSeparate), P(glStencilOp), P(glStencilOpSeparate),
	P(glTexImage2D), P(glTexParameterf), P(glTexParameterfv), P(glTexParameteri),
	P(glTexParameteriv), P(glTexSubImage2D), P(glUniform1f), P(glUniform1fv), P(glUniform1i),
	P(glUniform1iv), P(glUniform2f), P(glUniform2fv), P(glUniform2i), P(glUniform2iv),
	P(glUniform3f), P(glUniform3fv), P(glUniform3i), P(glUniform3iv), P(glUniform4f),
	P(glUniform4fv), P(glUniform4i), P(glUniform4iv), P(glUniformMatrix2fv),
	P(glUniformMatrix3fv), P(glUniformMatrix4fv), P(glUnmapBufferOES), P(glUseProgram),
	P(glValidateProgram), P(glVertexAttrib1f), P(glVertexAttrib1fv), P(glVertexAttrib2f),
	P(glVertexAttrib2fv), P(glVertexAttrib3f), P(glVertexAttrib3fv), P(glVertexAttrib4f),
	P(glVertexAttrib4fv), P(glVertexAttribPointer), P(glViewport),
#undef P
};

void (*drv_gl_proc(const char *procname))(void)
{
	/* sorted by name: a binary search */
	size_t lo = 0, hi = sizeof(gl_procs) / sizeof(gl_procs[0]);
	while (lo < hi) {
		const size_t mid = (lo + hi) / 2;
		const int cmp = strcmp(procname, gl_procs[mid].name);
		if (cmp == 0)
			return gl_procs[mid].fn;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}
