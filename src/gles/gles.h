/*
 * gles.h - an OpenGL ES 2.0 context as a pure state machine (issue 31):
 * the objects and state of the OpenGL ES 2.0.25 specification (Full
 * Specification, November 2, 2010), its tables 6.2 to 6.22, with the
 * specification's error rules: a call with a bad argument records an error
 * (the first one is kept until GetError returns and clears it) and changes
 * nothing.
 *
 * One C function per GL ES 2.0 entry point, named after it and taking the
 * context first (tsr_gles_BindBuffer(ctx, target, buffer) is
 * glBindBuffer(target, buffer)), with GL's own types (Debian's
 * <GLES2/gl2.h>, package libgles-dev), so that the exported gl* wrappers
 * of a libGLESv2 are one line each. Nothing here draws: a draw's
 * arguments are validated and the context's state comes out as
 * command/state.h's draw state (tsr_gles_draw_arrays_state(),
 * tsr_gles_draw_elements_state(), tsr_gles_clear_state()) for the
 * driver to submit to the pipelines.
 *
 * Object names: each namespace (buffers, textures, renderbuffers,
 * framebuffers, and the shared shader/program namespace) holds names up
 * to TSR_GLES_MAX_NAME; a larger name given to Bind* records
 * OUT_OF_MEMORY (names come from Gen*, which hands out the smallest
 * unused ones, so real programs never reach it). One context, no sharing.
 *
 * Left out (docs/gles.md): the pixels of framebuffers (Clear, ReadPixels,
 * Flush, Finish, the draws themselves, renderbuffer storage) are the
 * driver's and the pipelines'; CopyTex[Sub]Image2D read them through a
 * callback the driver sets (tsr_gles_set_read_pixels()).
 */
#ifndef TSR_GLES_GLES_H
#define TSR_GLES_GLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#include "command/state.h"
#include "core/status.h"
#include "shader/shader.h"

/* Largest object name a namespace holds (names 1..TSR_GLES_MAX_NAME). */
#define TSR_GLES_MAX_NAME (1u << 20)

/* Implementation-dependent values (table 6.18 to 6.20). */
#define TSR_GLES_MAX_TEXTURE_SIZE 4096   /* MAX_TEXTURE_SIZE, MAX_CUBE_MAP_TEXTURE_SIZE */
#define TSR_GLES_MAX_LEVELS 13           /* log2(MAX_TEXTURE_SIZE) + 1 */
#define TSR_GLES_MAX_RENDERBUFFER_SIZE 4096
#define TSR_GLES_MAX_VIEWPORT_DIMS 4096
#define TSR_GLES_MAX_VERTEX_ATTRIBS 16   /* shader/shader.h TSR_SHADER_MAX_ATTRIBS */
#define TSR_GLES_MAX_TEXTURE_UNITS 16    /* TSR_SHADER_MAX_TEXTURE_UNITS */
#define TSR_GLES_MAX_DRAW_BUFFERS 4      /* MAX_DRAW_BUFFERS_EXT, MAX_COLOR_ATTACHMENTS_EXT */

/* MAX_DUAL_SOURCE_DRAW_BUFFERS_EXT (GL_EXT_blend_func_extended): draw buffer
 * 0 alone blends with a second source color. */
#define TSR_GLES_MAX_DUAL_SOURCE_DRAW_BUFFERS 1

/* GL_KHR_debug's limits (the spec's minimums, MAX_LABEL_LENGTH above). */
#define TSR_GLES_MAX_DEBUG_MESSAGE_LENGTH 1024
#define TSR_GLES_MAX_DEBUG_LOGGED_MESSAGES 64
#define TSR_GLES_MAX_DEBUG_GROUP_STACK_DEPTH 64
#define TSR_GLES_MAX_LABEL_LENGTH 256

/* GetString(EXTENSIONS): only what is implemented. */
#define TSR_GLES_EXTENSIONS \
	"GL_OES_mapbuffer GL_OES_standard_derivatives GL_OES_depth_texture GL_OES_rgb8_rgba8 " \
	"GL_OES_depth24 GL_OES_element_index_uint GL_OES_texture_npot GL_EXT_discard_framebuffer " \
	"GL_EXT_polygon_offset_clamp GL_OES_vertex_half_float GL_KHR_debug " \
	"GL_OES_packed_depth_stencil GL_EXT_frag_depth GL_EXT_draw_buffers " \
	"GL_EXT_shader_framebuffer_fetch GL_EXT_shader_framebuffer_fetch_non_coherent " \
	"GL_EXT_texture_compression_s3tc GL_EXT_unpack_subimage GL_EXT_blend_func_extended " \
	"GL_NV_framebuffer_blit"

struct tsr_gles_context;

/* The default framebuffer's bits per channel (EGL config). */
struct tsr_gles_config {
	GLint red_bits, green_bits, blue_bits, alpha_bits;
	GLint depth_bits, stencil_bits;
};

/*
 * Creates a context whose default framebuffer is width x height pixels
 * (the initial viewport and scissor box), with the bits of cfg (NULL:
 * RGBA 8888, depth 24, stencil 8). Every state has table 6.x's initial
 * value. Errors: TSR_ERR_CONFIG for a size of 0 or above
 * TSR_GLES_MAX_VIEWPORT_DIMS, TSR_ERR_NOMEM.
 */
enum tsr_status tsr_gles_context_create(uint32_t width, uint32_t height,
					const struct tsr_gles_config *cfg,
					struct tsr_gles_context **out, struct tsr_error *err);
/* Frees a context and every object in it (NULL: nothing). */
void tsr_gles_context_destroy(struct tsr_gles_context *ctx);

/* glGetError: the first error recorded since the last call (NO_ERROR when
 * none), and clears it. */
GLenum tsr_gles_GetError(struct tsr_gles_context *ctx);

/* ---- object namespaces (2.9, 3.7.13, 4.4.1, 4.4.3, 2.10.1, 2.10.3) ----
 * Gen*: n unused names (INVALID_VALUE for n < 0); the objects are created
 * by their first Bind*. Delete*: names that are not objects, and 0, are
 * ignored; a deleted object that is bound is first unbound (a buffer from
 * every binding of the context, vertex attrib arrays included; a texture
 * from every unit and from the bound framebuffer's attachments; a
 * renderbuffer from the binding and the bound framebuffer; a framebuffer
 * reverts to the default one). Is*: TRUE for the name of an existing
 * object (a name only generated is not one). Bind*: INVALID_ENUM for a bad
 * target; INVALID_OPERATION for a texture of the other target. */
void tsr_gles_GenBuffers(struct tsr_gles_context *ctx, GLsizei n, GLuint *buffers);
void tsr_gles_DeleteBuffers(struct tsr_gles_context *ctx, GLsizei n, const GLuint *buffers);
GLboolean tsr_gles_IsBuffer(struct tsr_gles_context *ctx, GLuint buffer);
/* target ARRAY_BUFFER or ELEMENT_ARRAY_BUFFER. */
void tsr_gles_BindBuffer(struct tsr_gles_context *ctx, GLenum target, GLuint buffer);
void tsr_gles_GenTextures(struct tsr_gles_context *ctx, GLsizei n, GLuint *textures);
void tsr_gles_DeleteTextures(struct tsr_gles_context *ctx, GLsizei n, const GLuint *textures);
GLboolean tsr_gles_IsTexture(struct tsr_gles_context *ctx, GLuint texture);
/* target TEXTURE_2D or TEXTURE_CUBE_MAP, bound to the active unit; 0 binds
 * the unit's default texture of that target. */
void tsr_gles_BindTexture(struct tsr_gles_context *ctx, GLenum target, GLuint texture);
void tsr_gles_GenRenderbuffers(struct tsr_gles_context *ctx, GLsizei n, GLuint *renderbuffers);
void tsr_gles_DeleteRenderbuffers(struct tsr_gles_context *ctx, GLsizei n,
				  const GLuint *renderbuffers);
GLboolean tsr_gles_IsRenderbuffer(struct tsr_gles_context *ctx, GLuint renderbuffer);
/* target RENDERBUFFER. */
void tsr_gles_BindRenderbuffer(struct tsr_gles_context *ctx, GLenum target, GLuint renderbuffer);
void tsr_gles_GenFramebuffers(struct tsr_gles_context *ctx, GLsizei n, GLuint *framebuffers);
void tsr_gles_DeleteFramebuffers(struct tsr_gles_context *ctx, GLsizei n,
				 const GLuint *framebuffers);
GLboolean tsr_gles_IsFramebuffer(struct tsr_gles_context *ctx, GLuint framebuffer);
/* target FRAMEBUFFER (binds the draw and the read framebuffer), or
 * GL_NV_framebuffer_blit's DRAW_FRAMEBUFFER_NV (draws and clears go there;
 * FRAMEBUFFER_BINDING = DRAW_FRAMEBUFFER_BINDING_NV) or READ_FRAMEBUFFER_NV
 * (ReadPixels and CopyTex[Sub]Image2D read there; READ_FRAMEBUFFER_BINDING_NV);
 * INVALID_ENUM for another. 0 is the default framebuffer (the window).
 * Deleting a bound framebuffer binds 0 where it was bound. The framebuffer
 * calls below (FramebufferTexture2D, FramebufferRenderbuffer,
 * CheckFramebufferStatus, GetFramebufferAttachmentParameteriv) take the
 * three targets too, FRAMEBUFFER there meaning the draw framebuffer, and
 * their "framebuffer 0 bound" is at that target. */
void tsr_gles_BindFramebuffer(struct tsr_gles_context *ctx, GLenum target, GLuint framebuffer);
/* Shaders and programs share one namespace. CreateShader: type
 * VERTEX_SHADER or FRAGMENT_SHADER (INVALID_ENUM otherwise, 0 returned).
 * DeleteShader of a shader attached to a program only flags it
 * (DELETE_STATUS): it goes when no program holds it; DeleteProgram of the
 * current program flags it until it is no longer current. Deleting a name
 * of the other kind: INVALID_OPERATION; one that is nothing: INVALID_VALUE
 * (0: ignored). */
GLuint tsr_gles_CreateShader(struct tsr_gles_context *ctx, GLenum type);
GLuint tsr_gles_CreateProgram(struct tsr_gles_context *ctx);
void tsr_gles_DeleteShader(struct tsr_gles_context *ctx, GLuint shader);
void tsr_gles_DeleteProgram(struct tsr_gles_context *ctx, GLuint program);
GLboolean tsr_gles_IsShader(struct tsr_gles_context *ctx, GLuint shader);
GLboolean tsr_gles_IsProgram(struct tsr_gles_context *ctx, GLuint program);

/* ---- buffer objects (2.9) and GL_OES_mapbuffer ---- */
/* BufferData: size bytes (INVALID_VALUE when negative) copied from data
 * (NULL: undefined contents, here zeros), usage STREAM_DRAW, STATIC_DRAW
 * or DYNAMIC_DRAW (INVALID_ENUM otherwise); INVALID_OPERATION when no
 * buffer is bound to target; OUT_OF_MEMORY when it cannot be allocated.
 * A mapped buffer is unmapped first. */
void tsr_gles_BufferData(struct tsr_gles_context *ctx, GLenum target, GLsizeiptr size,
			 const void *data, GLenum usage);
/* BufferSubData: INVALID_VALUE when offset or size is negative or
 * offset + size exceeds the buffer's size; INVALID_OPERATION with no
 * buffer bound or the buffer mapped. */
void tsr_gles_BufferSubData(struct tsr_gles_context *ctx, GLenum target, GLintptr offset,
			    GLsizeiptr size, const void *data);
/* pname BUFFER_SIZE, BUFFER_USAGE, BUFFER_ACCESS_OES, BUFFER_MAPPED_OES. */
void tsr_gles_GetBufferParameteriv(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
				   GLint *params);
/* MapBufferOES: access WRITE_ONLY_OES; the buffer's storage itself
 * (NULL and INVALID_OPERATION when already mapped or none bound).
 * UnmapBufferOES: TRUE (contents never become corrupt here);
 * INVALID_OPERATION when not mapped. */
void *tsr_gles_MapBufferOES(struct tsr_gles_context *ctx, GLenum target, GLenum access);
GLboolean tsr_gles_UnmapBufferOES(struct tsr_gles_context *ctx, GLenum target);
/* FramebufferFetchBarrierEXT (GL_EXT_shader_framebuffer_fetch_non_coherent):
 * nothing to do, no error: this device's gl_LastFragData reads are always
 * coherent (docs/gles.md). */
void tsr_gles_FramebufferFetchBarrierEXT(struct tsr_gles_context *ctx);
/* DrawBuffersEXT (GL_EXT_draw_buffers, MAX_DRAW_BUFFERS_EXT and
 * MAX_COLOR_ATTACHMENTS_EXT 4): n in 0..4, else INVALID_VALUE. On a
 * framebuffer object bufs[i] must be COLOR_ATTACHMENTi_EXT or NONE, else
 * INVALID_OPERATION (the buffers past n become NONE); on the default
 * framebuffer n must be 1 and bufs[0] BACK or NONE, else
 * INVALID_OPERATION. Draws and Clear write the color of each draw buffer
 * selecting an attached image (gl_FragData[i] to buffer i, gl_FragColor to
 * every one) and none into a NONE one (docs/gles.md). */
void tsr_gles_DrawBuffersEXT(struct tsr_gles_context *ctx, GLsizei n, const GLenum *bufs);
/* pname BUFFER_MAP_POINTER_OES: the mapping, NULL when not mapped. */
void tsr_gles_GetBufferPointervOES(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
				   void **params);
/* The contents of buffer object `buffer` (for the driver's draws and
 * tests): its bytes and size, NULL when there is no such object. */
const void *tsr_gles_buffer_data(const struct tsr_gles_context *ctx, GLuint buffer,
				 GLsizeiptr *size_bytes);

/* ---- vertex attributes (2.7, 2.8) ----
 * index below MAX_VERTEX_ATTRIBS (INVALID_VALUE otherwise).
 * VertexAttribPointer: size 1..4 and stride >= 0 (INVALID_VALUE), type
 * BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT, FIXED, FLOAT or
 * HALF_FLOAT_OES (GL_OES_vertex_half_float) (INVALID_ENUM); captures ARRAY_BUFFER_BINDING: with a buffer bound,
 * pointer is an offset into it, else a client pointer. */
void tsr_gles_VertexAttribPointer(struct tsr_gles_context *ctx, GLuint index, GLint size,
				  GLenum type, GLboolean normalized, GLsizei stride,
				  const void *pointer);
void tsr_gles_EnableVertexAttribArray(struct tsr_gles_context *ctx, GLuint index);
void tsr_gles_DisableVertexAttribArray(struct tsr_gles_context *ctx, GLuint index);
/* The current value of a generic attribute (missing components y, z = 0,
 * w = 1). */
void tsr_gles_VertexAttrib1f(struct tsr_gles_context *ctx, GLuint index, GLfloat x);
void tsr_gles_VertexAttrib2f(struct tsr_gles_context *ctx, GLuint index, GLfloat x, GLfloat y);
void tsr_gles_VertexAttrib3f(struct tsr_gles_context *ctx, GLuint index, GLfloat x, GLfloat y,
			     GLfloat z);
void tsr_gles_VertexAttrib4f(struct tsr_gles_context *ctx, GLuint index, GLfloat x, GLfloat y,
			     GLfloat z, GLfloat w);
void tsr_gles_VertexAttrib1fv(struct tsr_gles_context *ctx, GLuint index, const GLfloat *v);
void tsr_gles_VertexAttrib2fv(struct tsr_gles_context *ctx, GLuint index, const GLfloat *v);
void tsr_gles_VertexAttrib3fv(struct tsr_gles_context *ctx, GLuint index, const GLfloat *v);
void tsr_gles_VertexAttrib4fv(struct tsr_gles_context *ctx, GLuint index, const GLfloat *v);
/* pname VERTEX_ATTRIB_ARRAY_{ENABLED, SIZE, STRIDE, TYPE, NORMALIZED,
 * BUFFER_BINDING} or CURRENT_VERTEX_ATTRIB (4 values). */
void tsr_gles_GetVertexAttribfv(struct tsr_gles_context *ctx, GLuint index, GLenum pname,
				GLfloat *params);
void tsr_gles_GetVertexAttribiv(struct tsr_gles_context *ctx, GLuint index, GLenum pname,
				GLint *params);
/* pname VERTEX_ATTRIB_ARRAY_POINTER. */
void tsr_gles_GetVertexAttribPointerv(struct tsr_gles_context *ctx, GLuint index, GLenum pname,
				      void **pointer);

/* ---- rasterization and per-fragment state (2.12, 3.4, 3.5, 4.1, 4.2) ----
 * Each sets the state of table 6.x it names; INVALID_ENUM for a value
 * outside the enums GL ES 2.0 allows, INVALID_VALUE for a negative
 * size or width. */
/* Viewport: width, height >= 0, clamped to MAX_VIEWPORT_DIMS. */
void tsr_gles_Viewport(struct tsr_gles_context *ctx, GLint x, GLint y, GLsizei width,
		       GLsizei height);
/* DepthRangef: both clamped to [0, 1]. */
void tsr_gles_DepthRangef(struct tsr_gles_context *ctx, GLfloat n, GLfloat f);
/* mode FRONT, BACK or FRONT_AND_BACK. */
void tsr_gles_CullFace(struct tsr_gles_context *ctx, GLenum mode);
/* mode CW or CCW. */
void tsr_gles_FrontFace(struct tsr_gles_context *ctx, GLenum mode);
/* width > 0 (INVALID_VALUE otherwise). */
void tsr_gles_LineWidth(struct tsr_gles_context *ctx, GLfloat width);
/* PolygonOffset sets POLYGON_OFFSET_CLAMP_EXT to 0 (no clamp), as the
 * extension defines it; PolygonOffsetClampEXT (GL_EXT_polygon_offset_clamp)
 * sets all three (a NaN clamp: 0). */
void tsr_gles_PolygonOffset(struct tsr_gles_context *ctx, GLfloat factor, GLfloat units);
void tsr_gles_PolygonOffsetClampEXT(struct tsr_gles_context *ctx, GLfloat factor, GLfloat units,
				    GLfloat clamp);
void tsr_gles_Scissor(struct tsr_gles_context *ctx, GLint x, GLint y, GLsizei width,
		      GLsizei height);
/* value clamped to [0, 1]. */
void tsr_gles_SampleCoverage(struct tsr_gles_context *ctx, GLfloat value, GLboolean invert);
/* func NEVER..ALWAYS; ref kept as given (clamped to the stencil bits when
 * used); face FRONT, BACK or FRONT_AND_BACK. */
void tsr_gles_StencilFunc(struct tsr_gles_context *ctx, GLenum func, GLint ref, GLuint mask);
void tsr_gles_StencilFuncSeparate(struct tsr_gles_context *ctx, GLenum face, GLenum func,
				  GLint ref, GLuint mask);
/* ops KEEP, ZERO, REPLACE, INCR, DECR, INVERT, INCR_WRAP, DECR_WRAP. */
void tsr_gles_StencilOp(struct tsr_gles_context *ctx, GLenum fail, GLenum zfail, GLenum zpass);
void tsr_gles_StencilOpSeparate(struct tsr_gles_context *ctx, GLenum face, GLenum fail,
				GLenum zfail, GLenum zpass);
void tsr_gles_StencilMask(struct tsr_gles_context *ctx, GLuint mask);
void tsr_gles_StencilMaskSeparate(struct tsr_gles_context *ctx, GLenum face, GLuint mask);
void tsr_gles_DepthFunc(struct tsr_gles_context *ctx, GLenum func);
void tsr_gles_DepthMask(struct tsr_gles_context *ctx, GLboolean flag);
/* Factors: ZERO .. ONE_MINUS_CONSTANT_ALPHA, SRC_ALPHA_SATURATE, and
 * GL_EXT_blend_func_extended's SRC1_COLOR_EXT, ONE_MINUS_SRC1_COLOR_EXT,
 * SRC1_ALPHA_EXT, ONE_MINUS_SRC1_ALPHA_EXT (the fragment's
 * gl_SecondaryFragColorEXT), each as a source or a destination factor
 * (SRC_ALPHA_SATURATE as a destination one through that extension);
 * another is INVALID_ENUM. Equations FUNC_ADD, FUNC_SUBTRACT,
 * FUNC_REVERSE_SUBTRACT. */
void tsr_gles_BlendFunc(struct tsr_gles_context *ctx, GLenum sfactor, GLenum dfactor);
void tsr_gles_BlendFuncSeparate(struct tsr_gles_context *ctx, GLenum src_rgb, GLenum dst_rgb,
				GLenum src_alpha, GLenum dst_alpha);
void tsr_gles_BlendEquation(struct tsr_gles_context *ctx, GLenum mode);
void tsr_gles_BlendEquationSeparate(struct tsr_gles_context *ctx, GLenum mode_rgb,
				    GLenum mode_alpha);
/* Clamped to [0, 1] (a fixed-point color buffer). */
void tsr_gles_BlendColor(struct tsr_gles_context *ctx, GLfloat r, GLfloat g, GLfloat b,
			 GLfloat a);
void tsr_gles_ColorMask(struct tsr_gles_context *ctx, GLboolean r, GLboolean g, GLboolean b,
			GLboolean a);
/* Clear values: color and depth clamped to [0, 1]. */
void tsr_gles_ClearColor(struct tsr_gles_context *ctx, GLfloat r, GLfloat g, GLfloat b,
			 GLfloat a);
void tsr_gles_ClearDepthf(struct tsr_gles_context *ctx, GLfloat d);
void tsr_gles_ClearStencil(struct tsr_gles_context *ctx, GLint s);
/* cap CULL_FACE, POLYGON_OFFSET_FILL, SAMPLE_ALPHA_TO_COVERAGE,
 * SAMPLE_COVERAGE, SCISSOR_TEST, STENCIL_TEST, DEPTH_TEST, BLEND, DITHER. */
void tsr_gles_Enable(struct tsr_gles_context *ctx, GLenum cap);
void tsr_gles_Disable(struct tsr_gles_context *ctx, GLenum cap);
GLboolean tsr_gles_IsEnabled(struct tsr_gles_context *ctx, GLenum cap);
/* pname PACK_ALIGNMENT or UNPACK_ALIGNMENT, param 1, 2, 4 or 8; or
 * (GL_EXT_unpack_subimage) UNPACK_ROW_LENGTH_EXT, UNPACK_SKIP_ROWS_EXT,
 * UNPACK_SKIP_PIXELS_EXT, param >= 0 (INVALID_VALUE otherwise). */
void tsr_gles_PixelStorei(struct tsr_gles_context *ctx, GLenum pname, GLint param);
/* target GENERATE_MIPMAP_HINT or FRAGMENT_SHADER_DERIVATIVE_HINT_OES; mode
 * FASTEST, NICEST or DONT_CARE. */
void tsr_gles_Hint(struct tsr_gles_context *ctx, GLenum target, GLenum mode);
/* texture TEXTURE0 + unit, unit below MAX_COMBINED_TEXTURE_IMAGE_UNITS. */
void tsr_gles_ActiveTexture(struct tsr_gles_context *ctx, GLenum texture);

/* ---- textures (3.7, 3.8) ----
 * target TEXTURE_2D or a TEXTURE_CUBE_MAP_{POSITIVE,NEGATIVE}_{X,Y,Z}
 * face, of the texture bound on the active unit (INVALID_ENUM otherwise).
 * TexImage2D: format and internalformat RGBA, RGB, LUMINANCE_ALPHA,
 * LUMINANCE, ALPHA with type UNSIGNED_BYTE, RGB with
 * UNSIGNED_SHORT_5_6_5, RGBA with UNSIGNED_SHORT_4_4_4_4 or _5_5_5_1, and
 * (OES_depth_texture) DEPTH_COMPONENT with UNSIGNED_SHORT or UNSIGNED_INT,
 * (OES_packed_depth_stencil) DEPTH_STENCIL_OES with UNSIGNED_INT_24_8_OES
 * (its depth kept as a depth texture's, the stencil bits dropped), depth
 * formats 2D only. Errors: INVALID_ENUM for a format or type GL ES does not know;
 * INVALID_VALUE for a level outside 0..log2(MAX_TEXTURE_SIZE), a size
 * negative or above MAX_TEXTURE_SIZE >> level, a non-square cube face, a
 * border other than 0, an unknown internalformat; INVALID_OPERATION when
 * internalformat differs from format (DEPTH24_STENCIL8_OES too), the pair is not allowed, or a depth
 * texture is a cube face. pixels (NULL: zeros) is read with
 * UNPACK_ALIGNMENT, bottom row first, and stored as RGBA8 texels (RGB:
 * A = 255, LUMINANCE: L L L 255, ALPHA: 0 0 0 A; 565, 4444, 5551 expanded
 * to 8 bits) or, for a depth texture, one float per texel (the depth in
 * [0, 1]). GL_EXT_texture_compression_s3tc: internalformat one of the
 * four COMPRESSED_*_S3TC_DXT*_EXT with format RGBA or RGB of UNSIGNED_BYTE
 * or FLOAT (another pair: INVALID_OPERATION): the data is compressed by
 * the driver and its decoded texels kept. Rows are UNPACK_ROW_LENGTH_EXT
 * pixels long when it is not 0, after UNPACK_SKIP_ROWS_EXT rows and
 * UNPACK_SKIP_PIXELS_EXT pixels. */
void tsr_gles_TexImage2D(struct tsr_gles_context *ctx, GLenum target, GLint level,
			 GLint internalformat, GLsizei width, GLsizei height, GLint border,
			 GLenum format, GLenum type, const void *pixels);
/* Errors as TexImage2D; INVALID_VALUE for a rectangle outside the image;
 * INVALID_OPERATION when the image does not exist or format differs from
 * its internal format (an S3TC image: RGBA or RGB of UNSIGNED_BYTE or
 * FLOAT, whole 4x4 blocks: offsets multiples of 4, sizes multiples of 4 or
 * reaching the image's edge). */
void tsr_gles_TexSubImage2D(struct tsr_gles_context *ctx, GLenum target, GLint level,
			    GLint xoffset, GLint yoffset, GLsizei width, GLsizei height,
			    GLenum format, GLenum type, const void *pixels);
/*
 * CopyTex[Sub]Image2D's source: the driver's reader of the read
 * framebuffer's color buffer (READ_FRAMEBUFFER_NV's binding), which writes the w x h rectangle at (x, y)
 * (window coordinates, lower-left origin) as RGBA8, bottom row first, into
 * rgba (pixels outside the framebuffer: any value). Without one (NULL, the
 * default) copies read zeros.
 */
typedef void (*tsr_gles_read_pixels_fn)(void *user, GLint x, GLint y, GLsizei w, GLsizei h,
					uint8_t *rgba);
void tsr_gles_set_read_pixels(struct tsr_gles_context *ctx, tsr_gles_read_pixels_fn fn,
			      void *user);
/* Errors as TexImage2D / TexSubImage2D; internalformat a color format
 * (INVALID_ENUM otherwise), one table 3.9 allows from the framebuffer
 * (alpha needs alpha bits: INVALID_OPERATION); INVALID_FRAMEBUFFER_OPERATION
 * when the bound framebuffer is not complete. */
void tsr_gles_CopyTexImage2D(struct tsr_gles_context *ctx, GLenum target, GLint level,
			     GLenum internalformat, GLint x, GLint y, GLsizei width,
			     GLsizei height, GLint border);
void tsr_gles_CopyTexSubImage2D(struct tsr_gles_context *ctx, GLenum target, GLint level,
				GLint xoffset, GLint yoffset, GLint x, GLint y, GLsizei width,
				GLsizei height);
/* GL_EXT_texture_compression_s3tc: internalformat / format
 * COMPRESSED_RGB_S3TC_DXT1_EXT, COMPRESSED_RGBA_S3TC_DXT1_EXT, _DXT3_EXT or
 * _DXT5_EXT; data (NULL: zero blocks) is 4x4 blocks row-major, bottom
 * block row first, 8 bytes each (DXT1) or 16, decoded into RGBA8 texels.
 * Errors: INVALID_ENUM for a bad target or another format; INVALID_VALUE
 * for imagesize other than the blocks' bytes (edge blocks whole), a bad
 * level, size or border (as TexImage2D), a rectangle outside the image;
 * INVALID_OPERATION (Sub) when the image does not exist, has another
 * format, or the rectangle is not whole blocks (offsets multiples of 4,
 * sizes multiples of 4 or reaching the image's edge). */
void tsr_gles_CompressedTexImage2D(struct tsr_gles_context *ctx, GLenum target, GLint level,
				   GLenum internalformat, GLsizei width, GLsizei height,
				   GLint border, GLsizei imagesize, const void *data);
void tsr_gles_CompressedTexSubImage2D(struct tsr_gles_context *ctx, GLenum target, GLint level,
				      GLint xoffset, GLint yoffset, GLsizei width,
				      GLsizei height, GLenum format, GLsizei imagesize,
				      const void *data);
/* target TEXTURE_2D or TEXTURE_CUBE_MAP: levels 1..q from level 0 by a
 * the GPU's reduction (tsr_texture_downsample_rgba8(): each texel the
 * LINEAR sample of the level above at its centre), each level floor(size
 * / 2) of the one before,
 * down to 1x1 (any size: GL_OES_texture_npot). INVALID_OPERATION for a
 * texture without level 0, a cube map that is not cube complete, or a
 * depth texture. */
void tsr_gles_GenerateMipmap(struct tsr_gles_context *ctx, GLenum target);
/* target TEXTURE_2D or TEXTURE_CUBE_MAP; pname TEXTURE_MIN_FILTER,
 * TEXTURE_MAG_FILTER, TEXTURE_WRAP_S, TEXTURE_WRAP_T; INVALID_ENUM for
 * another target, pname or a value the pname does not take. */
void tsr_gles_TexParameteri(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
			    GLint param);
void tsr_gles_TexParameterf(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
			    GLfloat param);
void tsr_gles_TexParameteriv(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
			     const GLint *params);
void tsr_gles_TexParameterfv(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
			     const GLfloat *params);
void tsr_gles_GetTexParameteriv(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
				GLint *params);
void tsr_gles_GetTexParameterfv(struct tsr_gles_context *ctx, GLenum target, GLenum pname,
				GLfloat *params);
/* For the driver: texture `texture`'s image at level of target (2D or a
 * cube face; texture 0: the default texture): its texels (RGBA8, or a
 * float per texel for DEPTH_COMPONENT and DEPTH_STENCIL_OES), size and internal format; NULL when
 * there is no such texture or image. */
const void *tsr_gles_texture_image(const struct tsr_gles_context *ctx, GLuint texture,
				   GLenum target, GLint level, GLsizei *width, GLsizei *height,
				   GLenum *format);
/* For the driver: GL_TRUE when 2D texture `texture` (0: the default one)
 * has an image at level that TexImage2D, CompressedTexImage2D or
 * CopyTexImage2D specified (not GenerateMipmap). */
GLboolean tsr_gles_texture_level_uploaded(const struct tsr_gles_context *ctx, GLuint texture,
					  GLint level);
/* For the driver: a number that identifies texture object `texture` (0:
 * the default texture of target) for as long as the process runs (names
 * are reused after glDeleteTextures, these are not); 0 when there is no
 * such texture. */
uint64_t tsr_gles_texture_serial(const struct tsr_gles_context *ctx, GLuint texture,
				 GLenum target);
/* Whether the texture bound to target (TEXTURE_2D or TEXTURE_CUBE_MAP) on
 * unit is complete as 3.7.10 defines it and samplable as 3.8.2 says with
 * GL_OES_texture_npot (any size, with any filter and wrap); FALSE: it
 * samples as (0, 0, 0, 1). */
GLboolean tsr_gles_texture_complete(const struct tsr_gles_context *ctx, GLuint unit,
				    GLenum target);

/* For the driver: renderbuffer `renderbuffer`'s size and internal format,
 * and a number that identifies the object for as long as the process runs
 * (as tsr_gles_texture_serial(), never one of a texture); 0 when there is
 * no such renderbuffer. */
uint64_t tsr_gles_renderbuffer_info(const struct tsr_gles_context *ctx, GLuint renderbuffer,
				    GLsizei *width, GLsizei *height, GLenum *format);

/* ---- framebuffers and renderbuffers (4.4) ----
 * RenderbufferStorage: target RENDERBUFFER; internalformat RGBA4, RGB5_A1,
 * RGB565, DEPTH_COMPONENT16, STENCIL_INDEX8, and RGB8_OES, RGBA8_OES
 * (OES_rgb8_rgba8), DEPTH_COMPONENT24_OES (OES_depth24), DEPTH24_STENCIL8_OES
 * (OES_packed_depth_stencil: one renderbuffer for both attachments) (INVALID_ENUM
 * otherwise); sizes 0..MAX_RENDERBUFFER_SIZE (INVALID_VALUE);
 * INVALID_OPERATION with renderbuffer 0 bound. No storage is kept: the
 * pixels are the pipelines'. */
void tsr_gles_RenderbufferStorage(struct tsr_gles_context *ctx, GLenum target,
				  GLenum internalformat, GLsizei width, GLsizei height);
/* pname RENDERBUFFER_{WIDTH, HEIGHT, INTERNAL_FORMAT, RED_SIZE, GREEN_SIZE,
 * BLUE_SIZE, ALPHA_SIZE, DEPTH_SIZE, STENCIL_SIZE}. */
void tsr_gles_GetRenderbufferParameteriv(struct tsr_gles_context *ctx, GLenum target,
					 GLenum pname, GLint *params);
/* target FRAMEBUFFER; attachment COLOR_ATTACHMENT0 (GL_EXT_draw_buffers:
 * ..COLOR_ATTACHMENT3_EXT), DEPTH_ATTACHMENT or STENCIL_ATTACHMENT
 * (INVALID_ENUM); INVALID_OPERATION with framebuffer 0
 * bound, or a name that is no texture / renderbuffer (0 detaches), or a
 * texture of the other target than textarget; INVALID_VALUE for a level
 * other than 0. */
void tsr_gles_FramebufferTexture2D(struct tsr_gles_context *ctx, GLenum target,
				   GLenum attachment, GLenum textarget, GLuint texture,
				   GLint level);
void tsr_gles_FramebufferRenderbuffer(struct tsr_gles_context *ctx, GLenum target,
				      GLenum attachment, GLenum renderbuffertarget,
				      GLuint renderbuffer);
/* 4.4.5: FRAMEBUFFER_COMPLETE (always for the default framebuffer), or
 * INCOMPLETE_ATTACHMENT (an attachment of zero size or of a format not
 * renderable at its attachment point), INCOMPLETE_MISSING_ATTACHMENT,
 * INCOMPLETE_DIMENSIONS (attachments of different sizes). A depth and a
 * stencil attachment together (e.g. DEPTH_COMPONENT16 and STENCIL_INDEX8
 * renderbuffers) are complete: separate buffers. Never UNSUPPORTED.
 * INVALID_ENUM (0 returned) for another target. */
GLenum tsr_gles_CheckFramebufferStatus(struct tsr_gles_context *ctx, GLenum target);
/* GL_EXT_discard_framebuffer: target FRAMEBUFFER (INVALID_ENUM), count >= 0
 * (INVALID_VALUE), attachments COLOR_ATTACHMENT0, DEPTH_ATTACHMENT,
 * STENCIL_ATTACHMENT with a framebuffer object bound, COLOR_EXT, DEPTH_EXT,
 * STENCIL_EXT with the default one (INVALID_ENUM otherwise). Returns the
 * buffers discarded as COLOR/DEPTH/STENCIL_BUFFER_BITs (0 on an error);
 * the context keeps nothing (their contents become undefined: the device
 * may skip their store, tsr_gles_device_discard()). */
GLbitfield tsr_gles_DiscardFramebufferEXT(struct tsr_gles_context *ctx, GLenum target,
					  GLsizei count, const GLenum *attachments);
/*
 * GL_NV_framebuffer_blit's BlitFramebufferNV (GL 3.0's BlitFramebuffer,
 * 4.3.2) validated: INVALID_VALUE for mask bits other than COLOR, DEPTH
 * and STENCIL_BUFFER_BIT; INVALID_ENUM for a filter other than NEAREST
 * and LINEAR; INVALID_FRAMEBUFFER_OPERATION when the read or the draw
 * framebuffer is not complete; INVALID_OPERATION for LINEAR with DEPTH or
 * STENCIL, or for depth (stencil) buffers of both framebuffers whose
 * formats differ (their depth (stencil) bits). Returns the buffers to
 * copy (0 on an error or when none is left): mask without each buffer
 * that one of the two framebuffers lacks (color: the read framebuffer's
 * COLOR_ATTACHMENT0 or the window's, the draw framebuffer's draw buffers
 * selecting an image; depth, stencil: their bits), which GL ignores
 * silently. The rectangles are the device's (tsr_gles_device_blit()): any
 * values are valid, x1 < x0 flips.
 */
GLbitfield tsr_gles_BlitFramebufferNV(struct tsr_gles_context *ctx, GLint srcX0, GLint srcY0,
				      GLint srcX1, GLint srcY1, GLint dstX0, GLint dstY0,
				      GLint dstX1, GLint dstY1, GLbitfield mask, GLenum filter);
/* pname FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, _OBJECT_NAME, and for a
 * texture _TEXTURE_LEVEL, _TEXTURE_CUBE_MAP_FACE; INVALID_ENUM for
 * another pname or one the attachment's type does not have;
 * INVALID_OPERATION with framebuffer 0 bound. */
void tsr_gles_GetFramebufferAttachmentParameteriv(struct tsr_gles_context *ctx, GLenum target,
						  GLenum attachment, GLenum pname,
						  GLint *params);

/* ---- shaders and programs (2.10) through src/shader ----
 * A shader or program argument that names nothing records INVALID_VALUE,
 * one that names the other kind INVALID_OPERATION (the call then does
 * nothing). */
/* The source is the count strings concatenated (length NULL, or an entry
 * < 0: NUL-terminated); INVALID_VALUE for count < 0. */
void tsr_gles_ShaderSource(struct tsr_gles_context *ctx, GLuint shader, GLsizei count,
			   const GLchar *const *string, const GLint *length);
/* Compiles with tsr_shader_compile(); COMPILE_STATUS and the info log say
 * how it went. */
void tsr_gles_CompileShader(struct tsr_gles_context *ctx, GLuint shader);
/* pname SHADER_TYPE, DELETE_STATUS, COMPILE_STATUS, INFO_LOG_LENGTH,
 * SHADER_SOURCE_LENGTH (lengths count the NUL; 0 when empty). */
void tsr_gles_GetShaderiv(struct tsr_gles_context *ctx, GLuint shader, GLenum pname,
			  GLint *params);
/* At most bufsize - 1 characters and a NUL; *length (may be NULL) the
 * characters written; INVALID_VALUE for bufsize < 0. */
void tsr_gles_GetShaderInfoLog(struct tsr_gles_context *ctx, GLuint shader, GLsizei bufsize,
			       GLsizei *length, GLchar *infolog);
void tsr_gles_GetShaderSource(struct tsr_gles_context *ctx, GLuint shader, GLsizei bufsize,
			      GLsizei *length, GLchar *source);
/* INVALID_OPERATION when the shader, or another of its type, is already
 * attached (Attach), or it is not attached (Detach). */
void tsr_gles_AttachShader(struct tsr_gles_context *ctx, GLuint program, GLuint shader);
void tsr_gles_DetachShader(struct tsr_gles_context *ctx, GLuint program, GLuint shader);
/* INVALID_VALUE for maxcount < 0. */
void tsr_gles_GetAttachedShaders(struct tsr_gles_context *ctx, GLuint program, GLsizei maxcount,
				 GLsizei *count, GLuint *shaders);
/* Applies at the next LinkProgram; INVALID_VALUE for index >=
 * MAX_VERTEX_ATTRIBS, INVALID_OPERATION for a name starting with "gl_". */
void tsr_gles_BindAttribLocation(struct tsr_gles_context *ctx, GLuint program, GLuint index,
				 const GLchar *name);
/* Links the attached shaders with tsr_program_link(); LINK_STATUS and the
 * info log say how it went. The current program relinked unsuccessfully
 * keeps its previous executable (uniforms, draws) until it is no longer
 * current (2.10.3); its queries report the failed link. */
void tsr_gles_LinkProgram(struct tsr_gles_context *ctx, GLuint program);
/* 0: no program (draws then draw nothing); INVALID_OPERATION for a
 * program that is not linked. */
void tsr_gles_UseProgram(struct tsr_gles_context *ctx, GLuint program);
/* VALIDATE_STATUS: linked, and no texture unit used by both a sampler2D
 * and a samplerCube (the reason in the info log). */
void tsr_gles_ValidateProgram(struct tsr_gles_context *ctx, GLuint program);
/* pname DELETE_STATUS, LINK_STATUS, VALIDATE_STATUS, INFO_LOG_LENGTH,
 * ATTACHED_SHADERS, ACTIVE_ATTRIBUTES, ACTIVE_ATTRIBUTE_MAX_LENGTH,
 * ACTIVE_UNIFORMS, ACTIVE_UNIFORM_MAX_LENGTH. */
void tsr_gles_GetProgramiv(struct tsr_gles_context *ctx, GLuint program, GLenum pname,
			   GLint *params);
void tsr_gles_GetProgramInfoLog(struct tsr_gles_context *ctx, GLuint program, GLsizei bufsize,
				GLsizei *length, GLchar *infolog);
/* INVALID_VALUE for an index >= ACTIVE_ATTRIBUTES / ACTIVE_UNIFORMS. */
void tsr_gles_GetActiveAttrib(struct tsr_gles_context *ctx, GLuint program, GLuint index,
			      GLsizei bufsize, GLsizei *length, GLint *size, GLenum *type,
			      GLchar *name);
void tsr_gles_GetActiveUniform(struct tsr_gles_context *ctx, GLuint program, GLuint index,
			       GLsizei bufsize, GLsizei *length, GLint *size, GLenum *type,
			       GLchar *name);
/* -1 when there is no such active attribute / uniform; INVALID_OPERATION
 * (-1) when the program is not linked. */
GLint tsr_gles_GetAttribLocation(struct tsr_gles_context *ctx, GLuint program, const GLchar *name);
GLint tsr_gles_GetUniformLocation(struct tsr_gles_context *ctx, GLuint program,
				  const GLchar *name);
/* Uniform*: the current program's uniform at location (-1: ignored).
 * INVALID_OPERATION with no current program, for a location that is no
 * active uniform's, for a call whose type or size does not match the
 * uniform's (floats for float types, ints for int types and samplers,
 * either for bools, UniformMatrix for matrices, only Uniform1i[v] for
 * samplers), or count > 1 for a uniform that is not an array;
 * INVALID_VALUE for count < 0, transpose other than FALSE, or a sampler
 * unit outside 0..MAX_COMBINED_TEXTURE_IMAGE_UNITS - 1. count is clipped to
 * the array's end. */
void tsr_gles_Uniform1f(struct tsr_gles_context *ctx, GLint location, GLfloat x);
void tsr_gles_Uniform2f(struct tsr_gles_context *ctx, GLint location, GLfloat x, GLfloat y);
void tsr_gles_Uniform3f(struct tsr_gles_context *ctx, GLint location, GLfloat x, GLfloat y,
			GLfloat z);
void tsr_gles_Uniform4f(struct tsr_gles_context *ctx, GLint location, GLfloat x, GLfloat y,
			GLfloat z, GLfloat w);
void tsr_gles_Uniform1i(struct tsr_gles_context *ctx, GLint location, GLint x);
void tsr_gles_Uniform2i(struct tsr_gles_context *ctx, GLint location, GLint x, GLint y);
void tsr_gles_Uniform3i(struct tsr_gles_context *ctx, GLint location, GLint x, GLint y, GLint z);
void tsr_gles_Uniform4i(struct tsr_gles_context *ctx, GLint location, GLint x, GLint y, GLint z,
			GLint w);
void tsr_gles_Uniform1fv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLfloat *v);
void tsr_gles_Uniform2fv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLfloat *v);
void tsr_gles_Uniform3fv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLfloat *v);
void tsr_gles_Uniform4fv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLfloat *v);
void tsr_gles_Uniform1iv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLint *v);
void tsr_gles_Uniform2iv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLint *v);
void tsr_gles_Uniform3iv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLint *v);
void tsr_gles_Uniform4iv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			 const GLint *v);
void tsr_gles_UniformMatrix2fv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			       GLboolean transpose, const GLfloat *value);
void tsr_gles_UniformMatrix3fv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			       GLboolean transpose, const GLfloat *value);
void tsr_gles_UniformMatrix4fv(struct tsr_gles_context *ctx, GLint location, GLsizei count,
			       GLboolean transpose, const GLfloat *value);
/* The element at location of a linked program (its type's components, a
 * matrix column-major); INVALID_OPERATION when not linked or no active
 * uniform has location. */
void tsr_gles_GetUniformfv(struct tsr_gles_context *ctx, GLuint program, GLint location,
			   GLfloat *params);
void tsr_gles_GetUniformiv(struct tsr_gles_context *ctx, GLuint program, GLint location,
			   GLint *params);
/* Nothing to release. */
void tsr_gles_ReleaseShaderCompiler(struct tsr_gles_context *ctx);
/* No binary formats: always INVALID_ENUM. */
void tsr_gles_ShaderBinary(struct tsr_gles_context *ctx, GLsizei n, const GLuint *shaders,
			   GLenum binaryformat, const void *binary, GLsizei length);
/* Floats of every precision are IEEE single (range 127, 127; precision
 * 23), ints are kept in floats (24, 24; 0); INVALID_ENUM for another
 * shader or precision type. */
void tsr_gles_GetShaderPrecisionFormat(struct tsr_gles_context *ctx, GLenum shadertype,
				       GLenum precisiontype, GLint *range, GLint *precision);

/* ---- what a draw needs ---- */

/* A texture image unit as the current program uses it. */
struct tsr_gles_unit {
	GLenum target;           /* TEXTURE_2D or TEXTURE_CUBE_MAP its samplers use, NONE: unused */
	GLuint texture;          /* the texture bound to that target (0: the default one) */
	GLboolean complete;      /* 3.7.10 / 3.8.2: FALSE samples as (0, 0, 0, 1) */
	struct tsr_texture_unit unit; /* its filters and wraps; image = texture, or -1
	                                 when unused or not complete */
};

/*
 * One draw: command/state.h's draw state filled from the context, and what
 * that struct cannot hold. In `state`, GL object names stand where the
 * pipelines take resource indices (the driver maps them): attribs[i].buffer
 * and index.buffer are buffer object names (0: client memory, the pointer
 * below), textures[u].image a texture name (-1: none or incomplete),
 * framebuffer.color / .depth the attached texture or renderbuffer's name
 * (TSR_ATTACH_DEFAULT for the default framebuffer, TSR_ATTACH_NONE for no
 * attachment). state.attribs and state.textures hold the first
 * TSR_MAX_VERTEX_ATTRIBS / TSR_MAX_TEXTURE_UNITS (8) of attribs and units
 * below, which hold all of them. discard and alpha_cutoff stay 0: the
 * program (`program`) does its own discards.
 */
struct tsr_gles_draw {
	struct tsr_draw_state state;
	const struct tsr_program *program; /* the current program's executable */
	GLint first;                       /* DrawArrays' first vertex (0 for DrawElements) */
	const void *indices;               /* DrawElements' client index array, NULL when an
	                                      element array buffer is bound (offset in state.index) */
	struct tsr_vertex_attrib attribs[TSR_GLES_MAX_VERTEX_ATTRIBS];
	const void *attrib_pointers[TSR_GLES_MAX_VERTEX_ATTRIBS]; /* client arrays (buffer 0),
	                                                             else NULL */
	struct tsr_gles_unit units[TSR_GLES_MAX_TEXTURE_UNITS];
	GLuint framebuffer;                /* FRAMEBUFFER_BINDING */
	GLenum color_type, depth_type;     /* TEXTURE, RENDERBUFFER or NONE (default framebuffer: NONE) */
	/* STENCIL_ATTACHMENT, which state.framebuffer has no field for: the
	 * attached renderbuffer's name (TSR_ATTACH_DEFAULT for the default
	 * framebuffer, TSR_ATTACH_NONE for no attachment), and its type
	 * (RENDERBUFFER or NONE; default framebuffer: NONE) */
	int32_t stencil;
	GLenum stencil_type;
	/* DEPTH_BITS and STENCIL_BITS of the bound framebuffer: 0 when it has no
	 * such buffer (4.1.5, 4.1.6: the test then passes and nothing is written) */
	GLint depth_bits, stencil_bits;
};

/*
 * glDrawArrays / glDrawElements without the drawing: validates the
 * arguments and fills *out. Errors (recorded, FALSE returned, out
 * untouched): INVALID_ENUM for a mode other than POINTS..TRIANGLE_FAN or
 * an index type other than UNSIGNED_BYTE, UNSIGNED_SHORT and
 * (OES_element_index_uint) UNSIGNED_INT (TSR_INDEX_U32); INVALID_VALUE
 * for count < 0 or first < 0; INVALID_FRAMEBUFFER_OPERATION when the bound
 * framebuffer is not complete; INVALID_OPERATION when an enabled array's
 * buffer or the element array buffer is mapped (OES_mapbuffer), or when
 * blending takes a SRC1 factor while a draw buffer at or above
 * MAX_DUAL_SOURCE_DRAW_BUFFERS_EXT (1) is not NONE
 * (GL_EXT_blend_func_extended). FALSE without an error when there is nothing to draw: no current program, or
 * count 0. TRUE: *out is the draw.
 */
GLboolean tsr_gles_draw_arrays_state(struct tsr_gles_context *ctx, GLenum mode, GLint first,
				     GLsizei count, struct tsr_gles_draw *out);
GLboolean tsr_gles_draw_elements_state(struct tsr_gles_context *ctx, GLenum mode, GLsizei count,
				       GLenum type, const void *indices,
				       struct tsr_gles_draw *out);
/*
 * glClear without the clearing: *out gets the buffers of mask and the
 * clear values (scissored when SCISSOR_TEST is on). INVALID_VALUE for bits
 * other than COLOR/DEPTH/STENCIL_BUFFER_BIT, INVALID_FRAMEBUFFER_OPERATION
 * for an incomplete framebuffer (FALSE returned). FALSE also when mask is 0.
 */
GLboolean tsr_gles_clear_state(struct tsr_gles_context *ctx, GLbitfield mask,
			       struct tsr_clear_state *out);

/*
 * glReadPixels without the reading: INVALID_ENUM for a format other than
 * ALPHA, RGB, RGBA or a type other than UNSIGNED_BYTE,
 * UNSIGNED_SHORT_{5_6_5, 4_4_4_4, 5_5_5_1}; INVALID_VALUE for a negative
 * width or height; INVALID_OPERATION for a pair other than RGBA /
 * UNSIGNED_BYTE (also IMPLEMENTATION_COLOR_READ_FORMAT / _TYPE);
 * INVALID_FRAMEBUFFER_OPERATION when the bound framebuffer is not
 * complete (FALSE returned). TRUE when there are pixels to read:
 * *row_bytes is then the distance in bytes between the rows of the
 * program's memory (width * 4 rounded up to PACK_ALIGNMENT); the rows go
 * bottom to top.
 */
GLboolean tsr_gles_read_pixels_state(struct tsr_gles_context *ctx, GLsizei width,
				     GLsizei height, GLenum format, GLenum type,
				     size_t *row_bytes);

/* ---- queries (6.1) ----
 * Every state value of tables 6.2-6.22 that has a Get pname, and the
 * implementation-dependent values; a value is converted to the Get's type
 * as 6.1.2 says (booleans: zero is FALSE; colors and depths to integers:
 * [0, 1] mapped linearly onto [0, 2^31 - 1]). INVALID_ENUM for an unknown
 * pname (params untouched). */
void tsr_gles_GetBooleanv(struct tsr_gles_context *ctx, GLenum pname, GLboolean *params);
void tsr_gles_GetIntegerv(struct tsr_gles_context *ctx, GLenum pname, GLint *params);
void tsr_gles_GetFloatv(struct tsr_gles_context *ctx, GLenum pname, GLfloat *params);
/* ---- GL_KHR_debug (debug.c) ----
 * ObjectLabelKHR / GetObjectLabelKHR: identifier BUFFER_KHR, SHADER_KHR,
 * PROGRAM_KHR, TEXTURE, RENDERBUFFER, FRAMEBUFFER (INVALID_ENUM for other
 * enums; INVALID_VALUE for VERTEX_ARRAY_KHR, QUERY_KHR, SAMPLER_KHR,
 * PROGRAM_PIPELINE_KHR, which GL ES 2.0 has no objects of, and for a name
 * that is no object of that kind); a label of MAX_LABEL_LENGTH characters
 * or more, a negative bufsize: INVALID_VALUE; a NULL label removes it.
 * The Ptr forms: INVALID_VALUE (no sync objects). DebugMessageInsertKHR:
 * source APPLICATION or THIRD_PARTY, a type and a severity (INVALID_ENUM),
 * under MAX_DEBUG_MESSAGE_LENGTH characters (INVALID_VALUE).
 * DebugMessageControlKHR: the enums or DONT_CARE (INVALID_ENUM), count >= 0
 * (INVALID_VALUE), ids only with a source and a type and severity
 * DONT_CARE (INVALID_OPERATION). Push/PopDebugGroupKHR: STACK_OVERFLOW_KHR
 * past MAX_DEBUG_GROUP_STACK_DEPTH, STACK_UNDERFLOW_KHR at the default
 * group. GetDebugMessageLogKHR returns the messages fetched (removed from
 * the log), stopping at the first that does not fit bufsize (with a log
 * given; a negative bufsize then: INVALID_VALUE). Messages are logged
 * (or given to the callback) only while DEBUG_OUTPUT_KHR is enabled. */
void tsr_gles_ObjectLabelKHR(struct tsr_gles_context *ctx, GLenum identifier, GLuint name,
			     GLsizei length, const GLchar *label);
void tsr_gles_GetObjectLabelKHR(struct tsr_gles_context *ctx, GLenum identifier, GLuint name,
				GLsizei bufsize, GLsizei *length, GLchar *label);
void tsr_gles_ObjectPtrLabelKHR(struct tsr_gles_context *ctx, const void *ptr, GLsizei length,
				const GLchar *label);
void tsr_gles_GetObjectPtrLabelKHR(struct tsr_gles_context *ctx, const void *ptr,
				   GLsizei bufsize, GLsizei *length, GLchar *label);
void tsr_gles_DebugMessageInsertKHR(struct tsr_gles_context *ctx, GLenum source, GLenum type,
				    GLuint id, GLenum severity, GLsizei length,
				    const GLchar *buf);
void tsr_gles_DebugMessageControlKHR(struct tsr_gles_context *ctx, GLenum source, GLenum type,
				     GLenum severity, GLsizei count, const GLuint *ids,
				     GLboolean enable);
void tsr_gles_DebugMessageCallbackKHR(struct tsr_gles_context *ctx, GLDEBUGPROCKHR callback,
				      const void *user);
GLuint tsr_gles_GetDebugMessageLogKHR(struct tsr_gles_context *ctx, GLuint count,
				      GLsizei bufsize, GLenum *sources, GLenum *types,
				      GLuint *ids, GLenum *severities, GLsizei *lengths,
				      GLchar *log);
void tsr_gles_PushDebugGroupKHR(struct tsr_gles_context *ctx, GLenum source, GLuint id,
				GLsizei length, const GLchar *message);
void tsr_gles_PopDebugGroupKHR(struct tsr_gles_context *ctx);
/* pname DEBUG_CALLBACK_FUNCTION_KHR or DEBUG_CALLBACK_USER_PARAM_KHR
 * (INVALID_ENUM otherwise). */
void tsr_gles_GetPointervKHR(struct tsr_gles_context *ctx, GLenum pname, void **params);

/* name VENDOR, RENDERER, VERSION, SHADING_LANGUAGE_VERSION, EXTENSIONS
 * (static strings); NULL and INVALID_ENUM otherwise. */
const GLubyte *tsr_gles_GetString(struct tsr_gles_context *ctx, GLenum name);

#endif
