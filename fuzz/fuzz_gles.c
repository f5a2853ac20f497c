/*
 * fuzz_gles.c - libFuzzer harness for the GL ES 2.0 context (src/gles,
 * gles.h) and the shader compiler behind it (src/shader): the input is a
 * sequence of GL calls, each an opcode byte choosing an entry point of
 * gles.h followed by its arguments, decoded from the next bytes (enums
 * mostly from the tables of the values each argument takes, sometimes any
 * GL enum or a raw value; names small integers; sizes from a table that
 * stays small; pixels, buffer contents and shader sources from the input,
 * or a shader from a built-in table of valid GLSL ES 1.00 ones so that
 * links, uniforms and draws get exercised). Draws, clears, reads and swaps
 * go on to a device (device.h) of a small surface. The extensions' entry
 * points are called too: PolygonOffsetClampEXT, DrawBuffersEXT,
 * DiscardFramebufferEXT, FramebufferFetchBarrierEXT, BlitFramebufferNV
 * (the context's checks, then the device's blit), S3TC uploads and
 * KHR_debug's (labels, messages, groups, the log, the callback).
 *
 * The first byte picks the context's size and default framebuffer bits.
 * At most MAX_CALLS calls, MAX_COMPILES compiles and links per input,
 * textures at most 256 texels a side with pixels: an input costs a few
 * milliseconds under ASan.
 *
 * Checks (a violation traps, leaving the input as a crash):
 * - after every call GetError returns NO_ERROR or one of GL's five errors,
 *   and a second GetError NO_ERROR;
 * - a call that records an error (other than OUT_OF_MEMORY) changes no
 *   state a Get reads (a fingerprint of every Get* value of the context,
 *   the vertex attributes, the bound textures' parameters, the bound
 *   buffers, renderbuffer and framebuffer attachments);
 * - negative counts and sizes record INVALID_VALUE when the call's other
 *   arguments are valid; Gen* returns distinct unused names that Is* calls
 *   no object; a bound name is an object, a deleted one is not;
 * - values set come back from their Get (uniforms of a linked current
 *   program, texture parameters, current vertex attributes, buffer
 *   contents and sizes, RGBA texel uploads), GetBooleanv / GetIntegerv /
 *   GetFloatv agree, and every active uniform / attribute of a linked
 *   program has a location;
 * - COMPILE_STATUS FALSE comes with an info log that names a line
 *   ("0:N"; or, from the lowering, the SPIR-V construct it refused),
 *   LINK_STATUS FALSE with a non-empty log;
 * - the draw state is made exactly when the framebuffer is complete and a
 *   program is current (count > 0), and carries the call's mode and count;
 * - BlitFramebufferNV: INVALID_VALUE for mask bits of no buffer,
 *   INVALID_ENUM for another filter, the buffers it returns a subset of
 *   the mask (none on an error), the device's blit succeeds or names why
 *   not;
 * - KHR_debug: a label comes back as set (cut to the buffer), a group push
 *   or pop changes the stack depth by one unless it records an error
 *   (STACK_UNDERFLOW at the default group), messages fetched from the log
 *   and given to the callback are NUL-terminated at their length.
 */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"

#include "gles/device.h"
#include "gles/gles.h"
#include "shader/isa.h"

#define MAX_CALLS 256
#define MAX_COMPILES 12
#define MAX_TEX 256                 /* texture side with pixels from the input */
#define PIXELS_BYTES (MAX_TEX * MAX_TEX * 4 + MAX_TEX * 8)
#define CLIENT_BYTES 65536          /* client-side vertex and index arrays */
#define MAX_SOURCE 1024             /* bytes of a shader source from the input */

/* A violated check names itself on stderr and traps (libFuzzer keeps the input). */
#define CHECK(c)                                                                        \
	do {                                                                            \
		if (!(c)) {                                                             \
			fprintf(stderr, "fuzz_gles.c:%d: check failed: %s\n", __LINE__, #c); \
			__builtin_trap();                                               \
		}                                                                       \
	} while (0)

/* ---- the input ---- */

struct rd {
	const uint8_t *p;
	size_t n;
};

static uint8_t u8(struct rd *r)
{
	if (!r->n)
		return 0;
	r->n--;
	return *r->p++;
}

static uint32_t u16(struct rd *r)
{
	uint32_t v = u8(r);
	return v | (uint32_t)u8(r) << 8;
}

static uint32_t u32(struct rd *r)
{
	uint32_t v = u16(r);
	return v | u16(r) << 16;
}

/* Every enum GL ES 2.0 and its extensions here use, for arguments drawn
 * from "any enum". */
static const GLenum ANY_ENUMS[] = {
	GL_ARRAY_BUFFER, GL_ELEMENT_ARRAY_BUFFER, GL_STREAM_DRAW, GL_STATIC_DRAW,
	GL_DYNAMIC_DRAW, GL_TEXTURE_2D, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_CUBE_MAP_POSITIVE_X,
	GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, GL_RGBA, GL_RGB, GL_ALPHA, GL_LUMINANCE,
	GL_LUMINANCE_ALPHA, GL_DEPTH_COMPONENT, GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT,
	GL_UNSIGNED_INT, GL_UNSIGNED_SHORT_5_6_5, GL_FLOAT, GL_FIXED, GL_BYTE, GL_SHORT,
	GL_RENDERBUFFER, GL_FRAMEBUFFER, GL_RGBA4, GL_DEPTH_COMPONENT16, GL_STENCIL_INDEX8,
	GL_COLOR_ATTACHMENT0, GL_DEPTH_ATTACHMENT, GL_STENCIL_ATTACHMENT, GL_VERTEX_SHADER,
	GL_FRAGMENT_SHADER, GL_NEVER, GL_LESS, GL_ALWAYS, GL_FRONT, GL_BACK, GL_FRONT_AND_BACK,
	GL_KEEP, GL_ZERO, GL_ONE, GL_SRC_ALPHA, GL_SRC_ALPHA_SATURATE, GL_FUNC_ADD, GL_CW,
	GL_CCW, GL_NEAREST, GL_LINEAR, GL_REPEAT, GL_TEXTURE_MIN_FILTER, GL_TEXTURE_WRAP_S,
	GL_BLEND, GL_DEPTH_TEST, GL_VIEWPORT, GL_TEXTURE0, GL_WRITE_ONLY_OES, GL_POINTS,
	GL_TRIANGLES, GL_TRIANGLE_FAN, 0x0007 /* QUADS */, GL_NONE, GL_INVALID_ENUM,
	GL_DEPTH_STENCIL_OES, GL_BGRA_EXT, GL_HALF_FLOAT_OES, GL_TEXTURE_3D_OES,
	GL_TEXTURE_EXTERNAL_OES, GL_SAMPLER_2D, GL_COMPILE_STATUS, GL_LINK_STATUS,
};
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* An argument from table t (n entries): mostly t, sometimes any enum, a
 * raw value or 0. */
static GLenum pick(struct rd *r, const GLenum *t, size_t n)
{
	uint8_t b = u8(r);
	if (b < 0xF0)
		return t[b % n];
	if (b < 0xFC)
		return ANY_ENUMS[u8(r) % N(ANY_ENUMS)];
	if (b == 0xFC)
		return 0;
	if (b == 0xFD)
		return u16(r);
	return u32(r);
}
#define PICK(r, t) pick(r, t, N(t))

static const GLenum BUF_TARGETS[] = { GL_ARRAY_BUFFER, GL_ELEMENT_ARRAY_BUFFER };
static const GLenum USAGES[] = { GL_STREAM_DRAW, GL_STATIC_DRAW, GL_DYNAMIC_DRAW };
static const GLenum BUF_PNAMES[] = { GL_BUFFER_SIZE, GL_BUFFER_USAGE, GL_BUFFER_ACCESS_OES,
				     GL_BUFFER_MAPPED_OES };
static const GLenum TEX_TARGETS[] = { GL_TEXTURE_2D, GL_TEXTURE_CUBE_MAP };
static const GLenum IMG_TARGETS[] = {
	GL_TEXTURE_2D, GL_TEXTURE_2D, GL_TEXTURE_CUBE_MAP_POSITIVE_X,
	GL_TEXTURE_CUBE_MAP_NEGATIVE_X, GL_TEXTURE_CUBE_MAP_POSITIVE_Y,
	GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, GL_TEXTURE_CUBE_MAP_POSITIVE_Z,
	GL_TEXTURE_CUBE_MAP_NEGATIVE_Z,
};
static const GLenum FORMATS[] = { GL_RGBA, GL_RGB, GL_LUMINANCE_ALPHA, GL_LUMINANCE, GL_ALPHA,
				  GL_DEPTH_COMPONENT };
static const GLenum TYPES[] = { GL_UNSIGNED_BYTE, GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT_5_6_5,
				GL_UNSIGNED_SHORT_4_4_4_4, GL_UNSIGNED_SHORT_5_5_5_1,
				GL_UNSIGNED_SHORT, GL_UNSIGNED_INT };
static const GLenum TEX_PNAMES[] = { GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER,
				     GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T };
static const GLenum TEX_VALUES[] = {
	GL_NEAREST, GL_LINEAR, GL_NEAREST_MIPMAP_NEAREST, GL_LINEAR_MIPMAP_NEAREST,
	GL_NEAREST_MIPMAP_LINEAR, GL_LINEAR_MIPMAP_LINEAR, GL_REPEAT, GL_CLAMP_TO_EDGE,
	GL_MIRRORED_REPEAT,
};
static const GLenum RB_FORMATS[] = { GL_RGBA4, GL_RGB5_A1, GL_RGB565, GL_DEPTH_COMPONENT16,
				     GL_STENCIL_INDEX8, GL_RGB8_OES, GL_RGBA8_OES,
				     GL_DEPTH_COMPONENT24_OES };
static const GLenum RB_PNAMES[] = {
	GL_RENDERBUFFER_WIDTH, GL_RENDERBUFFER_HEIGHT, GL_RENDERBUFFER_INTERNAL_FORMAT,
	GL_RENDERBUFFER_RED_SIZE, GL_RENDERBUFFER_GREEN_SIZE, GL_RENDERBUFFER_BLUE_SIZE,
	GL_RENDERBUFFER_ALPHA_SIZE, GL_RENDERBUFFER_DEPTH_SIZE, GL_RENDERBUFFER_STENCIL_SIZE,
};
static const GLenum ATTACHMENTS[] = { GL_COLOR_ATTACHMENT0, GL_DEPTH_ATTACHMENT,
				      GL_STENCIL_ATTACHMENT, GL_COLOR_ATTACHMENT1_EXT,
				      GL_COLOR_ATTACHMENT3_EXT };
static const GLenum FB_PNAMES[] = {
	GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
	GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE,
};
static const GLenum FB_TARGETS[] = { GL_FRAMEBUFFER, GL_FRAMEBUFFER, GL_READ_FRAMEBUFFER_NV,
				     GL_DRAW_FRAMEBUFFER_NV };
static const GLenum RB_TARGETS[] = { GL_RENDERBUFFER };
static const GLenum SHADER_TYPES[] = { GL_VERTEX_SHADER, GL_FRAGMENT_SHADER };
static const GLenum SHADER_PNAMES[] = { GL_SHADER_TYPE, GL_DELETE_STATUS, GL_COMPILE_STATUS,
					GL_INFO_LOG_LENGTH, GL_SHADER_SOURCE_LENGTH };
static const GLenum PROGRAM_PNAMES[] = {
	GL_DELETE_STATUS, GL_LINK_STATUS, GL_VALIDATE_STATUS, GL_INFO_LOG_LENGTH,
	GL_ATTACHED_SHADERS, GL_ACTIVE_ATTRIBUTES, GL_ACTIVE_ATTRIBUTE_MAX_LENGTH,
	GL_ACTIVE_UNIFORMS, GL_ACTIVE_UNIFORM_MAX_LENGTH,
};
static const GLenum PRECISIONS[] = { GL_LOW_FLOAT, GL_MEDIUM_FLOAT, GL_HIGH_FLOAT, GL_LOW_INT,
				     GL_MEDIUM_INT, GL_HIGH_INT };
static const GLenum MODES[] = { GL_POINTS, GL_LINES, GL_LINE_LOOP, GL_LINE_STRIP, GL_TRIANGLES,
				GL_TRIANGLE_STRIP, GL_TRIANGLE_FAN };
static const GLenum INDEX_TYPES[] = { GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT, GL_UNSIGNED_INT };
static const GLenum CAPS[] = { GL_CULL_FACE, GL_POLYGON_OFFSET_FILL, GL_SAMPLE_ALPHA_TO_COVERAGE,
			       GL_SAMPLE_COVERAGE, GL_SCISSOR_TEST, GL_STENCIL_TEST,
			       GL_DEPTH_TEST, GL_BLEND, GL_DITHER, GL_DEBUG_OUTPUT_KHR,
			       GL_DEBUG_OUTPUT_SYNCHRONOUS_KHR };
static const GLenum FUNCS[] = { GL_NEVER, GL_LESS, GL_EQUAL, GL_LEQUAL, GL_GREATER, GL_NOTEQUAL,
				GL_GEQUAL, GL_ALWAYS };
static const GLenum FACES[] = { GL_FRONT, GL_BACK, GL_FRONT_AND_BACK };
static const GLenum STENCIL_OPS[] = { GL_KEEP, GL_ZERO, GL_REPLACE, GL_INCR, GL_DECR, GL_INVERT,
				      GL_INCR_WRAP, GL_DECR_WRAP };
static const GLenum BLEND_FACTORS[] = {
	GL_ZERO, GL_ONE, GL_SRC_COLOR, GL_ONE_MINUS_SRC_COLOR, GL_DST_COLOR,
	GL_ONE_MINUS_DST_COLOR, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_DST_ALPHA,
	GL_ONE_MINUS_DST_ALPHA, GL_CONSTANT_COLOR, GL_ONE_MINUS_CONSTANT_COLOR,
	GL_CONSTANT_ALPHA, GL_ONE_MINUS_CONSTANT_ALPHA, GL_SRC_ALPHA_SATURATE,
	GL_SRC1_COLOR_EXT, GL_ONE_MINUS_SRC1_COLOR_EXT, GL_SRC1_ALPHA_EXT,
	GL_ONE_MINUS_SRC1_ALPHA_EXT,
};
static const GLenum BLEND_EQS[] = { GL_FUNC_ADD, GL_FUNC_SUBTRACT, GL_FUNC_REVERSE_SUBTRACT };
static const GLenum FRONT_FACES[] = { GL_CW, GL_CCW };
static const GLenum HINT_TARGETS[] = { GL_GENERATE_MIPMAP_HINT,
				       GL_FRAGMENT_SHADER_DERIVATIVE_HINT_OES };
static const GLenum HINT_MODES[] = { GL_FASTEST, GL_NICEST, GL_DONT_CARE };
static const GLenum STORE_PNAMES[] = { GL_PACK_ALIGNMENT, GL_UNPACK_ALIGNMENT };
static const GLenum ATTRIB_TYPES[] = { GL_FLOAT, GL_FLOAT, GL_BYTE, GL_UNSIGNED_BYTE, GL_SHORT,
				       GL_UNSIGNED_SHORT, GL_FIXED };
static const GLenum ATTRIB_PNAMES[] = {
	GL_VERTEX_ATTRIB_ARRAY_ENABLED, GL_VERTEX_ATTRIB_ARRAY_SIZE,
	GL_VERTEX_ATTRIB_ARRAY_STRIDE, GL_VERTEX_ATTRIB_ARRAY_TYPE,
	GL_VERTEX_ATTRIB_ARRAY_NORMALIZED, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING,
	GL_CURRENT_VERTEX_ATTRIB,
};
static const GLenum POINTER_PNAMES[] = { GL_VERTEX_ATTRIB_ARRAY_POINTER };
static const GLenum MAP_PNAMES[] = { GL_BUFFER_MAP_POINTER_OES };
static const GLenum ACCESSES[] = { GL_WRITE_ONLY_OES };
static const GLenum DRAW_BUFFERS[] = { GL_NONE, GL_BACK, GL_COLOR_ATTACHMENT0,
				       GL_COLOR_ATTACHMENT1_EXT, GL_COLOR_ATTACHMENT2_EXT,
				       GL_COLOR_ATTACHMENT3_EXT };
static const GLenum BLIT_FILTERS[] = { GL_NEAREST, GL_NEAREST, GL_LINEAR, GL_LINEAR,
					GL_LINEAR_MIPMAP_LINEAR, GL_NONE };
static const GLenum DISCARDS[] = { GL_COLOR_ATTACHMENT0, GL_DEPTH_ATTACHMENT,
				   GL_STENCIL_ATTACHMENT, GL_COLOR_EXT, GL_DEPTH_EXT,
				   GL_STENCIL_EXT };
static const GLenum S3TC_FORMATS[] = {
	GL_COMPRESSED_RGB_S3TC_DXT1_EXT, GL_COMPRESSED_RGBA_S3TC_DXT1_EXT,
	GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, GL_COMPRESSED_RGBA_S3TC_DXT5_EXT,
};
static const GLenum LABEL_KINDS[] = { GL_BUFFER_KHR, GL_SHADER_KHR, GL_PROGRAM_KHR, GL_TEXTURE,
				      GL_RENDERBUFFER, GL_FRAMEBUFFER, GL_SAMPLER_KHR,
				      GL_QUERY_KHR };
static const GLenum DEBUG_SOURCES[] = {
	GL_DEBUG_SOURCE_API_KHR, GL_DEBUG_SOURCE_WINDOW_SYSTEM_KHR,
	GL_DEBUG_SOURCE_SHADER_COMPILER_KHR, GL_DEBUG_SOURCE_THIRD_PARTY_KHR,
	GL_DEBUG_SOURCE_APPLICATION_KHR, GL_DEBUG_SOURCE_OTHER_KHR, GL_DONT_CARE,
};
static const GLenum DEBUG_TYPES[] = {
	GL_DEBUG_TYPE_ERROR_KHR, GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR_KHR,
	GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR_KHR, GL_DEBUG_TYPE_PORTABILITY_KHR,
	GL_DEBUG_TYPE_PERFORMANCE_KHR, GL_DEBUG_TYPE_OTHER_KHR, GL_DEBUG_TYPE_MARKER_KHR,
	GL_DEBUG_TYPE_PUSH_GROUP_KHR, GL_DEBUG_TYPE_POP_GROUP_KHR, GL_DONT_CARE,
};
static const GLenum DEBUG_SEVERITIES[] = {
	GL_DEBUG_SEVERITY_HIGH_KHR, GL_DEBUG_SEVERITY_MEDIUM_KHR, GL_DEBUG_SEVERITY_LOW_KHR,
	GL_DEBUG_SEVERITY_NOTIFICATION_KHR, GL_DONT_CARE,
};
static const GLenum DEBUG_POINTERS[] = { GL_DEBUG_CALLBACK_FUNCTION_KHR,
					 GL_DEBUG_CALLBACK_USER_PARAM_KHR };
static const GLenum STRINGS[] = { GL_VENDOR, GL_RENDERER, GL_VERSION,
				  GL_SHADING_LANGUAGE_VERSION, GL_EXTENSIONS };

/* Every pname Get{Boolean,Integer,Float}v takes (6.2 - 6.21) and how many
 * values it returns. */
static const struct { GLenum pname; int n; } GETS[] = {
	{ GL_ARRAY_BUFFER_BINDING, 1 }, { GL_ELEMENT_ARRAY_BUFFER_BINDING, 1 },
	{ GL_VIEWPORT, 4 }, { GL_DEPTH_RANGE, 2 }, { GL_LINE_WIDTH, 1 }, { GL_CULL_FACE, 1 },
	{ GL_CULL_FACE_MODE, 1 }, { GL_FRONT_FACE, 1 }, { GL_POLYGON_OFFSET_FACTOR, 1 },
	{ GL_POLYGON_OFFSET_UNITS, 1 }, { GL_POLYGON_OFFSET_FILL, 1 },
	{ GL_SAMPLE_ALPHA_TO_COVERAGE, 1 }, { GL_SAMPLE_COVERAGE, 1 },
	{ GL_SAMPLE_COVERAGE_VALUE, 1 }, { GL_SAMPLE_COVERAGE_INVERT, 1 },
	{ GL_TEXTURE_BINDING_2D, 1 }, { GL_TEXTURE_BINDING_CUBE_MAP, 1 },
	{ GL_ACTIVE_TEXTURE, 1 }, { GL_SCISSOR_TEST, 1 }, { GL_SCISSOR_BOX, 4 },
	{ GL_STENCIL_TEST, 1 }, { GL_STENCIL_FUNC, 1 }, { GL_STENCIL_VALUE_MASK, 1 },
	{ GL_STENCIL_REF, 1 }, { GL_STENCIL_FAIL, 1 }, { GL_STENCIL_PASS_DEPTH_FAIL, 1 },
	{ GL_STENCIL_PASS_DEPTH_PASS, 1 }, { GL_STENCIL_BACK_FUNC, 1 },
	{ GL_STENCIL_BACK_VALUE_MASK, 1 }, { GL_STENCIL_BACK_REF, 1 },
	{ GL_STENCIL_BACK_FAIL, 1 }, { GL_STENCIL_BACK_PASS_DEPTH_FAIL, 1 },
	{ GL_STENCIL_BACK_PASS_DEPTH_PASS, 1 }, { GL_DEPTH_TEST, 1 }, { GL_DEPTH_FUNC, 1 },
	{ GL_BLEND, 1 }, { GL_BLEND_SRC_RGB, 1 }, { GL_BLEND_SRC_ALPHA, 1 },
	{ GL_BLEND_DST_RGB, 1 }, { GL_BLEND_DST_ALPHA, 1 }, { GL_BLEND_EQUATION_RGB, 1 },
	{ GL_BLEND_EQUATION_ALPHA, 1 }, { GL_BLEND_COLOR, 4 }, { GL_DITHER, 1 },
	{ GL_COLOR_WRITEMASK, 4 }, { GL_DEPTH_WRITEMASK, 1 }, { GL_STENCIL_WRITEMASK, 1 },
	{ GL_STENCIL_BACK_WRITEMASK, 1 }, { GL_COLOR_CLEAR_VALUE, 4 },
	{ GL_DEPTH_CLEAR_VALUE, 1 }, { GL_STENCIL_CLEAR_VALUE, 1 }, { GL_UNPACK_ALIGNMENT, 1 },
	{ GL_PACK_ALIGNMENT, 1 }, { GL_FRAMEBUFFER_BINDING, 1 }, { GL_RENDERBUFFER_BINDING, 1 },
	{ GL_CURRENT_PROGRAM, 1 }, { GL_GENERATE_MIPMAP_HINT, 1 },
	{ GL_FRAGMENT_SHADER_DERIVATIVE_HINT_OES, 1 }, { GL_SUBPIXEL_BITS, 1 },
	{ GL_MAX_TEXTURE_SIZE, 1 }, { GL_MAX_CUBE_MAP_TEXTURE_SIZE, 1 },
	{ GL_MAX_VIEWPORT_DIMS, 2 }, { GL_ALIASED_POINT_SIZE_RANGE, 2 },
	{ GL_ALIASED_LINE_WIDTH_RANGE, 2 }, { GL_SAMPLE_BUFFERS, 1 }, { GL_SAMPLES, 1 },
	{ GL_NUM_COMPRESSED_TEXTURE_FORMATS, 1 }, { GL_COMPRESSED_TEXTURE_FORMATS, 0 },
	{ GL_NUM_SHADER_BINARY_FORMATS, 1 }, { GL_SHADER_BINARY_FORMATS, 0 },
	{ GL_SHADER_COMPILER, 1 }, { GL_MAX_RENDERBUFFER_SIZE, 1 },
	{ GL_MAX_VERTEX_ATTRIBS, 1 }, { GL_MAX_VERTEX_UNIFORM_VECTORS, 1 },
	{ GL_MAX_FRAGMENT_UNIFORM_VECTORS, 1 }, { GL_MAX_VARYING_VECTORS, 1 },
	{ GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, 1 }, { GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS, 1 },
	{ GL_MAX_TEXTURE_IMAGE_UNITS, 1 }, { GL_IMPLEMENTATION_COLOR_READ_TYPE, 1 },
	{ GL_IMPLEMENTATION_COLOR_READ_FORMAT, 1 }, { GL_RED_BITS, 1 }, { GL_GREEN_BITS, 1 },
	{ GL_BLUE_BITS, 1 }, { GL_ALPHA_BITS, 1 }, { GL_DEPTH_BITS, 1 }, { GL_STENCIL_BITS, 1 },
	/* extensions: polygon offset clamp, draw buffers, KHR_debug */
	{ GL_POLYGON_OFFSET_CLAMP_EXT, 1 }, { GL_MAX_DRAW_BUFFERS_EXT, 1 },
	{ GL_DRAW_BUFFER0_EXT, 1 }, { GL_DRAW_BUFFER1_EXT, 1 }, { GL_DRAW_BUFFER3_EXT, 1 },
	{ GL_READ_FRAMEBUFFER_BINDING_NV, 1 }, { GL_MAX_DUAL_SOURCE_DRAW_BUFFERS_EXT, 1 },
	{ GL_DEBUG_OUTPUT_KHR, 1 },
	{ GL_DEBUG_OUTPUT_SYNCHRONOUS_KHR, 1 }, { GL_DEBUG_GROUP_STACK_DEPTH_KHR, 1 },
	{ GL_MAX_DEBUG_GROUP_STACK_DEPTH_KHR, 1 }, { GL_MAX_LABEL_LENGTH_KHR, 1 },
};
/* The pnames whose state is a float (GetIntegerv rounds them). */
static bool get_is_float(GLenum p)
{
	return p == GL_LINE_WIDTH || p == GL_POLYGON_OFFSET_FACTOR ||
	       p == GL_POLYGON_OFFSET_UNITS || p == GL_SAMPLE_COVERAGE_VALUE ||
	       p == GL_POLYGON_OFFSET_CLAMP_EXT ||
	       p == GL_ALIASED_POINT_SIZE_RANGE || p == GL_ALIASED_LINE_WIDTH_RANGE;
}
static bool get_is_norm(GLenum p)
{
	return p == GL_DEPTH_RANGE || p == GL_BLEND_COLOR || p == GL_COLOR_CLEAR_VALUE ||
	       p == GL_DEPTH_CLEAR_VALUE;
}

static GLint sint(struct rd *r)
{
	static const GLint T[] = { 0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 63, 64, 100, 255,
				   256, 1000, 4095, 4096, 4097, -1, -2, -100, INT32_MAX, INT32_MIN };
	uint8_t b = u8(r);
	if (b < 0xF0)
		return T[b % N(T)];
	if (b < 0xF8)
		return (GLint)(int8_t)u8(r);
	return (GLint)u32(r);
}

/* A width or height: small (a texture of at most MAX_TEX), or invalid. */
static GLsizei size_arg(struct rd *r)
{
	static const GLsizei T[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64,
				     128, 255, 256, -1, -2, 4097, 8192, INT32_MAX, INT32_MIN };
	uint8_t b = u8(r);
	if (b < 0xE0)
		return T[b % 19]; /* the valid ones */
	return T[b % N(T)];
}

static GLfloat flt(struct rd *r)
{
	static const GLfloat T[] = { 0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 0.25f, 100.0f, 3.7f, -0.5f,
				     1e30f, -1e30f, 3e9f, -3e9f, 65536.0f, 1e-30f, -0.0f,
				     INFINITY, -INFINITY, NAN };
	uint8_t b = u8(r);
	if (b < 0xF0)
		return T[b % N(T)];
	uint32_t bits = u32(r);
	GLfloat f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

/* An object name: mostly 0..7 (what Gen* hands out first), sometimes one
 * that is large or past the namespace's end. */
static GLuint name_arg(struct rd *r)
{
	static const GLuint T[] = { 8, 100, 1000, TSR_GLES_MAX_NAME, TSR_GLES_MAX_NAME + 1,
				    UINT32_MAX };
	uint8_t b = u8(r);
	if (b < 0xF8)
		return b % 8;
	return T[b % N(T)];
}

static GLint loc_arg(struct rd *r)
{
	uint8_t b = u8(r);
	if (b < 0xF0)
		return (GLint)(b % 24) - 1;
	return sint(r);
}

static GLuint index_arg(struct rd *r)
{
	uint8_t b = u8(r);
	if (b < 0xF0)
		return b % 17; /* 16: one past MAX_VERTEX_ATTRIBS */
	return (GLuint)sint(r);
}

/* A count for Gen* / Delete* / Uniform*v: small, sometimes negative or 0. */
static GLsizei count_arg(struct rd *r, GLsizei max)
{
	uint8_t b = u8(r);
	if (b < 0xE0)
		return (GLsizei)(b % (uint32_t)(max + 1));
	static const GLsizei T[] = { -1, -2, INT32_MIN, 0 };
	return T[b % N(T)];
}

static GLboolean bool_arg(struct rd *r)
{
	uint8_t b = u8(r);
	return b < 0xF0 ? (GLboolean)(b & 1) : (GLboolean)b;
}

/* ---- built-in shaders: valid GLSL ES 1.00 ---- */

static const char *const VS_TABLE[] = {
	"attribute vec4 pos;\nvoid main() { gl_Position = pos; }\n",
	"attribute vec4 pos;\nattribute vec2 uv;\nuniform mat4 mvp;\nvarying vec2 v_uv;\n"
	"void main() { v_uv = uv; gl_Position = mvp * pos; gl_PointSize = 4.0; }\n",
	"attribute vec3 pos;\nattribute vec3 normal;\nuniform mat3 nm;\nuniform mat2 m2;\n"
	"uniform vec4 color[2];\nuniform float scale;\nvarying vec4 v_color;\nvarying vec2 v_uv;\n"
	"void main() {\n  vec3 n = normalize(nm * normal);\n"
	"  v_color = color[0] * max(dot(n, vec3(0.0, 0.0, 1.0)), 0.0) + color[1];\n"
	"  v_uv = m2 * pos.xy;\n  gl_Position = vec4(pos * scale, 1.0);\n}\n",
	"attribute vec4 pos;\nattribute vec4 col;\nuniform ivec2 iv;\nuniform bool flag;\n"
	"uniform bvec3 bv;\nuniform sampler2D vtex;\nvarying vec4 v_color;\nvarying vec2 v_uv;\n"
	"void main() {\n  v_color = flag ? col : vec4(float(iv.x), float(iv.y), 0.0, 1.0);\n"
	"  if (bv.y) v_color += texture2DLod(vtex, pos.xy, 0.0);\n"
	"  v_uv = pos.xy * 0.5 + 0.5;\n  gl_Position = pos;\n}\n",
	"struct Light { vec3 dir; vec4 color; };\nuniform Light lights[2];\n"
	"attribute vec4 pos;\nattribute vec3 normal;\nvarying vec4 v_color;\nvarying vec2 v_uv;\n"
	"void main() {\n  vec4 c = vec4(0.0);\n"
	"  for (int i = 0; i < 2; i++) c += lights[i].color * max(dot(normal, lights[i].dir), 0.0);\n"
	"  v_color = c;\n  v_uv = pos.xy;\n  gl_Position = pos;\n}\n",
};

static const char *const FS_TABLE[] = {
	"precision mediump float;\nvoid main() { gl_FragColor = vec4(1.0, 0.5, 0.25, 1.0); }\n",
	"precision mediump float;\nvarying vec2 v_uv;\nuniform sampler2D tex;\n"
	"uniform vec4 tint;\nvoid main() { gl_FragColor = texture2D(tex, v_uv) * tint; }\n",
	"precision mediump float;\nvarying vec4 v_color;\nvarying vec2 v_uv;\n"
	"uniform samplerCube cube;\nuniform sampler2D tex[2];\nuniform int mode;\n"
	"uniform vec3 v3;\nuniform float cut;\n"
	"void main() {\n  vec4 c = v_color;\n"
	"  if (mode == 1) c *= textureCube(cube, vec3(v_uv, 1.0));\n"
	"  else if (mode == 2) c *= texture2D(tex[1], v_uv) + texture2D(tex[0], v_uv.yx);\n"
	"  if (c.a < cut) discard;\n  gl_FragColor = c + vec4(v3, 0.0);\n}\n",
	"#extension GL_OES_standard_derivatives : enable\nprecision highp float;\n"
	"varying vec2 v_uv;\nuniform ivec4 i4;\nuniform bvec2 b2;\nuniform mat4 m4;\n"
	"void main() {\n  float d = length(vec2(dFdx(v_uv.x), dFdy(v_uv.y))) + fwidth(v_uv.x);\n"
	"  vec4 c = m4 * vec4(gl_FragCoord.xy, d, 1.0);\n"
	"  if (b2.x && gl_FrontFacing) c.r = float(i4.x);\n"
	"  gl_FragColor = c + vec4(gl_PointCoord, 0.0, 0.0);\n}\n",
	"precision mediump float;\nvarying vec4 v_color;\nuniform sampler2D tex;\n"
	"uniform samplerCube tex_cube;\n"
	"void main() { gl_FragColor = v_color * texture2D(tex, vec2(0.5)) "
	"+ textureCube(tex_cube, vec3(0.0, 1.0, 0.0)); }\n",
};

/* Names a program's variables may have (BindAttribLocation, Get*Location). */
static const char *const VAR_NAMES[] = {
	"pos", "uv", "normal", "col", "mvp", "nm", "m2", "color", "color[0]", "color[1]",
	"color[2]", "scale", "iv", "flag", "bv", "vtex", "lights[0].dir", "lights[1].color",
	"lights", "tex", "tint", "cube", "tex[0]", "tex[1]", "mode", "v3", "cut", "i4", "b2",
	"m4", "tex_cube", "gl_Vertex", "gl_Position", "", "nope", "color[", "tex[2]",
};

/* ---- the harness's state ---- */

struct fz {
	struct tsr_gles_context *ctx;
	struct tsr_gles_device *dev;
	struct rd in;
	int compiles;
	uint64_t fp;       /* the fingerprint after the last call */
};

static int trace = -1; /* FUZZ_GLES_TRACE=1: each call's opcode and error on stderr */
static uint8_t pixels[PIXELS_BYTES];
static uint8_t client[CLIENT_BYTES];
static GLfloat fvals[64 * 16];
static GLint ivals[64 * 16];

/* Fills n bytes of dst from the input (zeros past its end). */
static void fill_bytes(struct rd *r, uint8_t *dst, size_t n)
{
	size_t k = n < r->n ? n : r->n;
	memcpy(dst, r->p, k);
	memset(dst + k, 0, n - k);
	r->p += k;
	r->n -= k;
}

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static GLint geti(struct tsr_gles_context *ctx, GLenum pname)
{
	GLint v[16] = { 0 };
	tsr_gles_GetIntegerv(ctx, pname, v);
	return v[0];
}

/* Every value a Get reads, hashed; none of these queries records an error. */
static uint64_t fingerprint(struct tsr_gles_context *ctx)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < N(GETS); i++) {
		GLfloat f[16] = { 0 };
		tsr_gles_GetFloatv(ctx, GETS[i].pname, f);
		h = mix(h, f, sizeof f);
	}
	for (GLuint a = 0; a < TSR_GLES_MAX_VERTEX_ATTRIBS; a++) {
		GLint v[4] = { 0 };
		GLfloat cur[4];
		void *ptr = NULL;
		for (size_t p = 0; p + 1 < N(ATTRIB_PNAMES); p++) {
			tsr_gles_GetVertexAttribiv(ctx, a, ATTRIB_PNAMES[p], v);
			h = mix(h, v, sizeof v[0]);
		}
		tsr_gles_GetVertexAttribfv(ctx, a, GL_CURRENT_VERTEX_ATTRIB, cur);
		tsr_gles_GetVertexAttribPointerv(ctx, a, GL_VERTEX_ATTRIB_ARRAY_POINTER, &ptr);
		h = mix(h, cur, sizeof cur);
		h = mix(h, &ptr, sizeof ptr);
	}
	for (size_t t = 0; t < N(TEX_TARGETS); t++)
		for (size_t p = 0; p < N(TEX_PNAMES); p++) {
			GLint v = 0;
			tsr_gles_GetTexParameteriv(ctx, TEX_TARGETS[t], TEX_PNAMES[p], &v);
			h = mix(h, &v, sizeof v);
		}
	for (size_t t = 0; t < N(BUF_TARGETS); t++) {
		if (!geti(ctx, BUF_TARGETS[t] == GL_ARRAY_BUFFER ? GL_ARRAY_BUFFER_BINDING
								: GL_ELEMENT_ARRAY_BUFFER_BINDING))
			continue;
		for (size_t p = 0; p < N(BUF_PNAMES); p++) {
			GLint v = 0;
			tsr_gles_GetBufferParameteriv(ctx, BUF_TARGETS[t], BUF_PNAMES[p], &v);
			h = mix(h, &v, sizeof v);
		}
		void *ptr = NULL;
		tsr_gles_GetBufferPointervOES(ctx, BUF_TARGETS[t], GL_BUFFER_MAP_POINTER_OES, &ptr);
		h = mix(h, &ptr, sizeof ptr);
	}
	if (geti(ctx, GL_RENDERBUFFER_BINDING))
		for (size_t p = 0; p < N(RB_PNAMES); p++) {
			GLint v = 0;
			tsr_gles_GetRenderbufferParameteriv(ctx, GL_RENDERBUFFER, RB_PNAMES[p], &v);
			h = mix(h, &v, sizeof v);
		}
	if (geti(ctx, GL_FRAMEBUFFER_BINDING))
		for (size_t a = 0; a < N(ATTACHMENTS); a++) {
			GLint type = 0, v = 0;
			tsr_gles_GetFramebufferAttachmentParameteriv(
				ctx, GL_FRAMEBUFFER, ATTACHMENTS[a], GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
				&type);
			h = mix(h, &type, sizeof type);
			size_t np = type == GL_TEXTURE ? 4 : type == GL_RENDERBUFFER ? 2 : 1;
			for (size_t p = 1; p < np; p++) {
				tsr_gles_GetFramebufferAttachmentParameteriv(
					ctx, GL_FRAMEBUFFER, ATTACHMENTS[a], FB_PNAMES[p], &v);
				h = mix(h, &v, sizeof v);
			}
		}
	GLenum st = tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER);
	h = mix(h, &st, sizeof st);
	CHECK(tsr_gles_GetError(ctx) == GL_NO_ERROR);
	return h;
}

static bool gl_error_ok(GLenum e)
{
	return e == GL_NO_ERROR || e == GL_INVALID_ENUM || e == GL_INVALID_VALUE ||
	       e == GL_INVALID_OPERATION || e == GL_OUT_OF_MEMORY ||
	       e == GL_INVALID_FRAMEBUFFER_OPERATION || e == GL_STACK_OVERFLOW_KHR ||
	       e == GL_STACK_UNDERFLOW_KHR;
}

static bool in_table(GLenum v, const GLenum *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (t[i] == v)
			return true;
	return false;
}
#define IN(v, t) in_table(v, t, N(t))

/* Bytes per pixel of a valid client format/type pair, 0 otherwise. */
static int pixel_size(GLenum format, GLenum type)
{
	if (type == GL_UNSIGNED_BYTE)
		return format == GL_RGBA ? 4 : format == GL_RGB ? 3 : format == GL_LUMINANCE_ALPHA ? 2
		       : format == GL_LUMINANCE || format == GL_ALPHA ? 1 : 0;
	if (type == GL_UNSIGNED_SHORT_5_6_5)
		return format == GL_RGB ? 2 : 0;
	if (type == GL_UNSIGNED_SHORT_4_4_4_4 || type == GL_UNSIGNED_SHORT_5_5_5_1)
		return format == GL_RGBA ? 2 : 0;
	if (type == GL_UNSIGNED_SHORT)
		return format == GL_DEPTH_COMPONENT ? 2 : 0;
	if (type == GL_UNSIGNED_INT)
		return format == GL_DEPTH_COMPONENT ? 4 : 0;
	return 0;
}

/* Client pixels for a w x h upload from the input, or NULL (zeros) when
 * the rectangle is larger than MAX_TEX or a byte says so. */
static const void *upload_pixels(struct fz *z, GLenum format, GLenum type, GLsizei w, GLsizei h)
{
	if (u8(&z->in) == 0xFF || w <= 0 || h <= 0 || w > MAX_TEX || h > MAX_TEX)
		return NULL;
	int bpp = pixel_size(format, type);
	if (!bpp)
		bpp = 4;
	size_t align = (size_t)geti(z->ctx, GL_UNPACK_ALIGNMENT);
	size_t row = ((size_t)w * (size_t)bpp + align - 1) / align * align;
	size_t need = row * (size_t)h;
	size_t from_input = need < 4096 ? need : 4096;
	fill_bytes(&z->in, pixels, from_input);
	memset(pixels + from_input, 0x5A, need - from_input);
	return pixels;
}

/* The copies' reader: the device's pixels, or a pattern when it has none. */
static void read_fb(void *user, GLint x, GLint y, GLsizei w, GLsizei h, uint8_t *rgba)
{
	struct fz *z = user;
	CHECK(w > 0 && h > 0 && w <= TSR_GLES_MAX_TEXTURE_SIZE && h <= TSR_GLES_MAX_TEXTURE_SIZE);
	struct tsr_error err;
	if (tsr_gles_device_read_pixels(z->dev, z->ctx, x, y, w, h, rgba, &err) != TSR_OK)
		for (size_t i = 0; i < (size_t)w * (size_t)h * 4; i++)
			rgba[i] = (uint8_t)(i * 7 + (size_t)x);
}

/* Whether every enabled client array (buffer 0) holds vertices 0..max_index
 * inside `client`: the device reads client memory as the application
 * gives it, so the harness, as that application, gives it only what is
 * there. */
static bool client_arrays_ok(struct tsr_gles_context *ctx, uint64_t max_index)
{
	for (GLuint a = 0; a < TSR_GLES_MAX_VERTEX_ATTRIBS; a++) {
		GLint en = 0, buf = 0, size = 0, stride = 0, type = 0;
		tsr_gles_GetVertexAttribiv(ctx, a, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &en);
		tsr_gles_GetVertexAttribiv(ctx, a, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buf);
		if (!en || buf)
			continue;
		tsr_gles_GetVertexAttribiv(ctx, a, GL_VERTEX_ATTRIB_ARRAY_SIZE, &size);
		tsr_gles_GetVertexAttribiv(ctx, a, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &stride);
		tsr_gles_GetVertexAttribiv(ctx, a, GL_VERTEX_ATTRIB_ARRAY_TYPE, &type);
		void *ptr = NULL;
		tsr_gles_GetVertexAttribPointerv(ctx, a, GL_VERTEX_ATTRIB_ARRAY_POINTER, &ptr);
		uint64_t comp = type == GL_FLOAT || type == GL_FIXED ? 4
				: type == GL_SHORT || type == GL_UNSIGNED_SHORT ? 2 : 1;
		uint64_t elem = comp * (uint64_t)size;
		uint64_t st = stride ? (uint64_t)stride : elem;
		uintptr_t p = (uintptr_t)ptr, lo = (uintptr_t)client;
		if (p < lo || p - lo + max_index * st + elem > CLIENT_BYTES)
			return false;
	}
	return true;
}

/* The largest index of a DrawElements, or UINT64_MAX when the indices
 * are not all readable. */
static uint64_t max_index(struct tsr_gles_context *ctx, GLsizei count, GLenum type,
			  const void *indices)
{
	size_t isz = type == GL_UNSIGNED_BYTE ? 1 : type == GL_UNSIGNED_SHORT ? 2 : 4;
	const uint8_t *base;
	size_t avail;
	GLuint eab = (GLuint)geti(ctx, GL_ELEMENT_ARRAY_BUFFER_BINDING);
	if (eab) {
		GLsizeiptr bsize = 0;
		const uint8_t *data = tsr_gles_buffer_data(ctx, eab, &bsize);
		uintptr_t off = (uintptr_t)indices;
		if (!data || off > (uintptr_t)bsize)
			return UINT64_MAX;
		base = data + off;
		avail = (size_t)bsize - off;
	} else {
		uintptr_t p = (uintptr_t)indices, lo = (uintptr_t)client;
		if (p < lo || p - lo > CLIENT_BYTES)
			return UINT64_MAX;
		base = indices;
		avail = CLIENT_BYTES - (p - lo);
	}
	if ((size_t)count * isz > avail)
		return UINT64_MAX;
	uint64_t m = 0;
	for (GLsizei i = 0; i < count; i++) {
		uint32_t v = 0;
		memcpy(&v, base + (size_t)i * isz, isz);
		if (v > m)
			m = v;
	}
	return m;
}

/* The texture sampler of run_program(): checks the request, returns a
 * pattern. */
static void sample_cb(void *user, const struct tsr_shader_tex_request *req, float rgba[4][4])
{
	(void)user;
	CHECK(req->unit < TSR_GLES_MAX_TEXTURE_UNITS && req->cube <= 1 && req->lane_mask <= 0xF &&
	      req->lod_mode <= TSR_SHADER_LOD_EXPLICIT);
	for (int l = 0; l < 4; l++)
		for (int c = 0; c < 4; c++)
			rgba[l][c] = (float)((l * 4 + c + (int)req->unit) % 5) * 0.25f;
}

/* Whether every loop of p's code is a breakable block run once: a loop
 * may run TSR_SH_LOOP_LIMIT times per entry, nested ones that many times
 * over, too long for an input. */
static bool loops_bounded(const struct tsr_program *p)
{
	static const enum tsr_shader_stage stages[2] = { TSR_SHADER_VERTEX, TSR_SHADER_FRAGMENT };
	for (int s = 0; s < 2; s++) {
		const struct tsr_sh_inst *code = NULL;
		uint32_t n = tsr_program_code(p, stages[s], &code);
		for (uint32_t i = 0; i < n; i++)
			if (code[i].op == TSR_SH_ENDLOOP && !(code[i].wmask & TSR_SH_F_ONCE))
				return false;
	}
	return true;
}

/* Runs a drawn program's vertex stage on 4 vertices and its fragment
 * stage on the quad they make (the interpreter, src/shader/exec.c), with
 * attribute values from the input. */
static void run_program(struct fz *z, const struct tsr_program *p)
{
	if (!loops_bounded(p))
		return;
	struct tsr_error err;
	struct tsr_shader_exec *vx = NULL, *fx = NULL;
	if (tsr_shader_exec_create(p, TSR_SHADER_VERTEX, sample_cb, NULL, &vx, &err) != TSR_OK ||
	    tsr_shader_exec_create(p, TSR_SHADER_FRAGMENT, sample_cb, NULL, &fx, &err) != TSR_OK) {
		tsr_shader_exec_destroy(vx);
		return;
	}
	static struct tsr_vs_in in;
	static struct tsr_vs_out out;
	static struct tsr_fs_quad_in qin;
	static struct tsr_fs_quad_out qout;
	GLfloat seed[4] = { flt(&z->in), flt(&z->in), flt(&z->in), flt(&z->in) };
	for (int v = 0; v < 4; v++)
		for (int l = 0; l < TSR_SHADER_MAX_ATTRIBS; l++)
			for (int c = 0; c < 4; c++)
				in.attribs[v][l][c] = l == 0 ? seed[(v + c) % 4]
							     : (float)((v + l + c) % 7) * 0.5f - 1.0f;
	struct tsr_shader_counts counts;
	memset(&counts, 0, sizeof counts);
	tsr_shader_exec_vertices(vx, &in, 4, &out, &counts);
	uint32_t nv = tsr_program_varying_count(p);
	CHECK(nv <= TSR_SHADER_MAX_VARYINGS);
	memset(&qin, 0, sizeof qin);
	for (int l = 0; l < 4; l++) {
		memcpy(qin.varyings[l], out.varyings[l], sizeof qin.varyings[l]);
		qin.frag_coord[l][0] = (float)(l & 1) + 0.5f;
		qin.frag_coord[l][1] = (float)(l >> 1) + 0.5f;
		qin.frag_coord[l][2] = 0.5f;
		qin.frag_coord[l][3] = 1.0f;
		qin.point_coord[l][0] = (float)(l & 1);
		qin.point_coord[l][1] = (float)(l >> 1);
	}
	qin.front_facing = (uint8_t)(seed[0] > 0.0f);
	tsr_shader_exec_quad(fx, &qin, &qout, &counts);
	CHECK(qout.kill_mask <= 0xF);
	CHECK(counts.executions == 2 && counts.instructions >= counts.alu + counts.sfu + counts.tex);
	if (trace > 0)
		fprintf(stderr, "program run: %llu instructions, kill mask %x\n",
			(unsigned long long)counts.instructions, qout.kill_mask);
	tsr_shader_exec_destroy(vx);
	tsr_shader_exec_destroy(fx);
}

static void device_draw(struct fz *z, const struct tsr_gles_draw *d)
{
	struct tsr_error err;
	err.msg[0] = '\0';
	enum tsr_status st = tsr_gles_device_draw(z->dev, z->ctx, d, &err);
	CHECK(st == TSR_OK || err.msg[0] != '\0');
}

/* After a Gen*: n distinct non-zero names that are no objects. */
static void check_gen(GLsizei n, const GLuint *names, GLboolean (*is)(struct tsr_gles_context *,
								      GLuint),
		      struct tsr_gles_context *ctx)
{
	for (GLsizei i = 0; i < n; i++) {
		CHECK(names[i] != 0);
		CHECK(!is(ctx, names[i]));
		for (GLsizei j = 0; j < i; j++)
			CHECK(names[i] != names[j]);
	}
}

/* The info log of a shader that did not compile names a line ("0:N"). */
static void check_shader_log(struct tsr_gles_context *ctx, GLuint s)
{
	GLint status = 1, len = 0;
	tsr_gles_GetShaderiv(ctx, s, GL_COMPILE_STATUS, &status);
	tsr_gles_GetShaderiv(ctx, s, GL_INFO_LOG_LENGTH, &len);
	static char log[65536];
	GLsizei got = -1;
	tsr_gles_GetShaderInfoLog(ctx, s, sizeof log, &got, log);
	CHECK(got == (len > 0 ? len - 1 : 0) || len > (GLint)sizeof log);
	if (status)
		return;
	CHECK(len > 1);
	bool line = false;
	for (const char *p = log; (p = strstr(p, "0:")) != NULL; p += 2)
		if (p[2] >= '0' && p[2] <= '9')
			line = true;
	/* a shader the lowering refuses (a SPIR-V construct it does not
	 * implement) says which, with no GLSL line to name */
	if (!line && !strstr(log, "SPIR-V"))
		fprintf(stderr, "info log without a line: %s\n", log);
	CHECK(line || strstr(log, "SPIR-V"));
}

/* A linked program's active variables each have a location, and a
 * uniform's value reads back. */
static void check_program(struct tsr_gles_context *ctx, GLuint p)
{
	GLint linked = 0, n = 0, maxlen = 0, loglen = 0;
	tsr_gles_GetProgramiv(ctx, p, GL_LINK_STATUS, &linked);
	tsr_gles_GetProgramiv(ctx, p, GL_INFO_LOG_LENGTH, &loglen);
	if (!linked) {
		CHECK(loglen > 1);
		return;
	}
	char name[256];
	tsr_gles_GetProgramiv(ctx, p, GL_ACTIVE_UNIFORMS, &n);
	tsr_gles_GetProgramiv(ctx, p, GL_ACTIVE_UNIFORM_MAX_LENGTH, &maxlen);
	GLint locs[64], sizes[64];
	int m = 0;
	for (GLint i = 0; i < n; i++) {
		GLsizei len = -1;
		GLint size = 0;
		GLenum type = 0;
		tsr_gles_GetActiveUniform(ctx, p, (GLuint)i, sizeof name, &len, &size, &type, name);
		CHECK(len == (GLsizei)strlen(name) && len + 1 <= maxlen && size >= 1);
		GLint loc = tsr_gles_GetUniformLocation(ctx, p, name);
		CHECK(loc >= 0);
		GLfloat v[16];
		tsr_gles_GetUniformfv(ctx, p, loc, v);
		CHECK(tsr_gles_GetError(ctx) == GL_NO_ERROR);
		if (m < 64) {
			locs[m] = loc;
			sizes[m++] = size;
		}
		/* an array "a[0]": "a" is element 0, "a[k]" element k, "a[size]" nothing */
		if (len > 3 && strcmp(name + len - 3, "[0]") == 0 && len < 200) {
			char el[256];
			name[len - 3] = '\0';
			CHECK(tsr_gles_GetUniformLocation(ctx, p, name) == loc);
			for (GLint k = 1; k <= size && k < 8; k++) {
				snprintf(el, sizeof el, "%s[%d]", name, k);
				CHECK(tsr_gles_GetUniformLocation(ctx, p, el) == (k < size ? loc + k : -1));
			}
		} else {
			CHECK(size == 1);
		}
	}
	/* no two uniforms share a location */
	for (int i = 0; i < m; i++)
		for (int j = 0; j < i; j++)
			CHECK(locs[i] + sizes[i] <= locs[j] || locs[j] + sizes[j] <= locs[i]);
	tsr_gles_GetProgramiv(ctx, p, GL_ACTIVE_ATTRIBUTES, &n);
	tsr_gles_GetProgramiv(ctx, p, GL_ACTIVE_ATTRIBUTE_MAX_LENGTH, &maxlen);
	for (GLint i = 0; i < n; i++) {
		GLsizei len = -1;
		GLint size = 0;
		GLenum type = 0;
		tsr_gles_GetActiveAttrib(ctx, p, (GLuint)i, sizeof name, &len, &size, &type, name);
		CHECK(len == (GLsizei)strlen(name) && len + 1 <= maxlen && size >= 1);
		GLint loc = tsr_gles_GetAttribLocation(ctx, p, name);
		CHECK(loc >= 0 && loc < TSR_GLES_MAX_VERTEX_ATTRIBS);
	}
	CHECK(tsr_gles_GetError(ctx) == GL_NO_ERROR);
}

/* After a Uniform* call without an error on a linked current program: the
 * first element reads back (floats as given; ints and bools through
 * floats). */
static void check_uniform(struct tsr_gles_context *ctx, GLint loc, GLsizei count, int comps,
			  bool ints, const GLfloat *fv, const GLint *iv)
{
	GLint prog = geti(ctx, GL_CURRENT_PROGRAM), linked = 0;
	if (!prog || loc < 0)
		return;
	tsr_gles_GetProgramiv(ctx, prog, GL_LINK_STATUS, &linked);
	if (!linked)
		return;
	GLint n = 0;
	GLint maxlen = 0;
	tsr_gles_GetProgramiv(ctx, prog, GL_ACTIVE_UNIFORMS, &n);
	tsr_gles_GetProgramiv(ctx, prog, GL_ACTIVE_UNIFORM_MAX_LENGTH, &maxlen);
	/* the uniform's type: a bool stores 0 / 1 */
	GLenum type = 0;
	GLint end = 0; /* one past the uniform's last element's location */
	char name[256];
	for (GLint i = 0; i < n; i++) {
		GLsizei len;
		GLint size;
		GLenum t;
		tsr_gles_GetActiveUniform(ctx, (GLuint)prog, (GLuint)i, sizeof name, &len, &size, &t,
					  name);
		GLint l0 = tsr_gles_GetUniformLocation(ctx, (GLuint)prog, name);
		if (loc >= l0 && loc < l0 + size) {
			type = t;
			end = l0 + size;
		}
	}
	CHECK(type != 0);
	bool is_bool = type == GL_BOOL || type == GL_BOOL_VEC2 || type == GL_BOOL_VEC3 ||
		       type == GL_BOOL_VEC4;
	/* every element written (count clipped to the array's end) reads back */
	GLsizei elems = count < end - loc ? count : end - loc;
	for (GLsizei e = 0; e < elems; e++) {
		GLfloat got[16];
		tsr_gles_GetUniformfv(ctx, (GLuint)prog, loc + e, got);
		for (int c = 0; c < comps; c++) {
			size_t k = (size_t)e * (size_t)comps + (size_t)c;
			GLfloat want = ints ? (GLfloat)iv[k] : fv[k];
			if (is_bool)
				want = want != 0.0f ? 1.0f : 0.0f;
			CHECK(memcmp(&got[c], &want, sizeof want) == 0 ||
			      (isnan(got[c]) && isnan(want)));
		}
	}
	CHECK(tsr_gles_GetError(ctx) == GL_NO_ERROR);
}

/* ---- one call ---- */

enum op {
	OP_GEN_BUFFERS, OP_DELETE_BUFFERS, OP_IS_BUFFER, OP_BIND_BUFFER, OP_GEN_TEXTURES,
	OP_DELETE_TEXTURES, OP_IS_TEXTURE, OP_BIND_TEXTURE, OP_GEN_RENDERBUFFERS,
	OP_DELETE_RENDERBUFFERS, OP_IS_RENDERBUFFER, OP_BIND_RENDERBUFFER, OP_GEN_FRAMEBUFFERS,
	OP_DELETE_FRAMEBUFFERS, OP_IS_FRAMEBUFFER, OP_BIND_FRAMEBUFFER, OP_CREATE_SHADER,
	OP_CREATE_PROGRAM, OP_DELETE_SHADER, OP_DELETE_PROGRAM, OP_IS_SHADER, OP_IS_PROGRAM,
	OP_BUFFER_DATA, OP_BUFFER_SUB_DATA, OP_GET_BUFFER_PARAMETER, OP_MAP_BUFFER,
	OP_UNMAP_BUFFER, OP_GET_BUFFER_POINTER, OP_VERTEX_ATTRIB_POINTER, OP_ENABLE_ATTRIB,
	OP_DISABLE_ATTRIB, OP_VERTEX_ATTRIB, OP_VERTEX_ATTRIBV, OP_GET_VERTEX_ATTRIB,
	OP_VIEWPORT, OP_DEPTH_RANGE, OP_CULL_FACE, OP_FRONT_FACE, OP_LINE_WIDTH,
	OP_POLYGON_OFFSET, OP_SCISSOR, OP_SAMPLE_COVERAGE, OP_STENCIL_FUNC, OP_STENCIL_OP,
	OP_STENCIL_MASK, OP_DEPTH_FUNC, OP_DEPTH_MASK, OP_BLEND_FUNC, OP_BLEND_EQUATION,
	OP_BLEND_COLOR, OP_COLOR_MASK, OP_CLEAR_VALUES, OP_ENABLE, OP_DISABLE, OP_IS_ENABLED,
	OP_PIXEL_STORE, OP_HINT, OP_ACTIVE_TEXTURE, OP_TEX_IMAGE, OP_TEX_SUB_IMAGE,
	OP_COPY_TEX_IMAGE, OP_COPY_TEX_SUB_IMAGE, OP_COMPRESSED, OP_GENERATE_MIPMAP,
	OP_TEX_PARAMETER, OP_GET_TEX_PARAMETER, OP_RENDERBUFFER_STORAGE, OP_GET_RB_PARAMETER,
	OP_FRAMEBUFFER_TEXTURE, OP_FRAMEBUFFER_RENDERBUFFER, OP_CHECK_FRAMEBUFFER,
	OP_GET_FB_ATTACHMENT, OP_SHADER_SOURCE, OP_SHADER_SOURCE_BUILTIN, OP_COMPILE_SHADER,
	OP_GET_SHADER, OP_GET_SHADER_LOG, OP_ATTACH_SHADER, OP_DETACH_SHADER,
	OP_GET_ATTACHED, OP_BIND_ATTRIB_LOCATION, OP_LINK_PROGRAM, OP_USE_PROGRAM,
	OP_VALIDATE_PROGRAM, OP_GET_PROGRAM, OP_GET_PROGRAM_LOG, OP_GET_ACTIVE,
	OP_GET_LOCATION, OP_UNIFORM_F, OP_UNIFORM_I, OP_UNIFORM_FV, OP_UNIFORM_IV,
	OP_UNIFORM_MATRIX, OP_GET_UNIFORM, OP_SHADER_MISC, OP_GET, OP_GET_STRING,
	OP_DRAW_ARRAYS, OP_DRAW_ELEMENTS, OP_CLEAR, OP_READ_PIXELS, OP_FLUSH, OP_SWAP,
	OP_BUILTIN_PROGRAM, OP_TEXTURE_COMPLETE,
	/* extensions (docs/gles.md) */
	OP_POLYGON_OFFSET_CLAMP, OP_DRAW_BUFFERS, OP_DISCARD_FRAMEBUFFER, OP_FETCH_BARRIER,
	OP_DEBUG_LABEL, OP_DEBUG_MESSAGE, OP_DEBUG_GROUP, OP_DEBUG_LOG, OP_BLIT_FRAMEBUFFER,
	OP_COUNT
};

static int debug_callback_user;

/* A KHR_debug callback: each message is NUL-terminated at its length. */
static void GL_APIENTRY debug_callback(GLenum source, GLenum type, GLuint id, GLenum severity,
				       GLsizei length, const GLchar *message,
				       const void *user)
{
	(void)source;
	(void)type;
	(void)id;
	(void)severity;
	CHECK(user == &debug_callback_user);
	CHECK(message && length >= 0 && strlen(message) == (size_t)length);
}

/* Text from the input (at most cap - 1 bytes, NUL-terminated in buf): a
 * label or a message; returns its length argument: -1 or -2 (NUL-
 * terminated), its length, or one past every limit. */
static GLsizei text_arg(struct rd *r, char *buf, size_t cap)
{
	size_t n = u8(r) % cap;
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)(u8(r) | 1); /* no NUL inside */
	buf[n] = '\0';
	/* or a length past every limit (never read: the call refuses it) */
	static const GLsizei FAR[] = { -2, 1 << 20, INT32_MAX };
	const uint8_t b = u8(r);
	return b < 0x80 ? -1 : b < 0xF0 ? (GLsizei)n : FAR[b % N(FAR)];
}

typedef void (*gen_fn)(struct tsr_gles_context *, GLsizei, GLuint *);
typedef void (*del_fn)(struct tsr_gles_context *, GLsizei, const GLuint *);
typedef GLboolean (*is_fn)(struct tsr_gles_context *, GLuint);

static void op_gen(struct fz *z, gen_fn gen, is_fn is)
{
	GLuint names[8];
	GLsizei n = count_arg(&z->in, 8);
	gen(z->ctx, n, names);
	GLenum e = tsr_gles_GetError(z->ctx);
	if (n < 0) {
		CHECK(e == GL_INVALID_VALUE);
		return;
	}
	if (e == GL_NO_ERROR)
		check_gen(n, names, is, z->ctx);
}

static void op_delete(struct fz *z, del_fn del, is_fn is)
{
	GLuint names[8];
	GLsizei n = count_arg(&z->in, 8);
	for (int i = 0; i < 8; i++)
		names[i] = name_arg(&z->in);
	del(z->ctx, n, names);
	GLenum e = tsr_gles_GetError(z->ctx);
	CHECK(n < 0 ? e == GL_INVALID_VALUE : e == GL_NO_ERROR);
	for (GLsizei i = 0; i < n; i++)
		CHECK(!is(z->ctx, names[i]));
}

/* Runs one call; returns the error it recorded (already read). */
static GLenum one_call(struct fz *z)
{
	struct tsr_gles_context *ctx = z->ctx;
	struct rd *r = &z->in;
	uint8_t op = u8(r) % OP_COUNT;
	GLenum e = GL_NO_ERROR;
	bool have_e = false; /* e was already read by the call's own checks */
	switch (op) {
	case OP_GEN_BUFFERS: op_gen(z, tsr_gles_GenBuffers, tsr_gles_IsBuffer); return 0;
	case OP_GEN_TEXTURES: op_gen(z, tsr_gles_GenTextures, tsr_gles_IsTexture); return 0;
	case OP_GEN_RENDERBUFFERS:
		op_gen(z, tsr_gles_GenRenderbuffers, tsr_gles_IsRenderbuffer);
		return 0;
	case OP_GEN_FRAMEBUFFERS:
		op_gen(z, tsr_gles_GenFramebuffers, tsr_gles_IsFramebuffer);
		return 0;
	case OP_DELETE_BUFFERS: op_delete(z, tsr_gles_DeleteBuffers, tsr_gles_IsBuffer); return 0;
	case OP_DELETE_TEXTURES:
		op_delete(z, tsr_gles_DeleteTextures, tsr_gles_IsTexture);
		return 0;
	case OP_DELETE_RENDERBUFFERS:
		op_delete(z, tsr_gles_DeleteRenderbuffers, tsr_gles_IsRenderbuffer);
		return 0;
	case OP_DELETE_FRAMEBUFFERS:
		op_delete(z, tsr_gles_DeleteFramebuffers, tsr_gles_IsFramebuffer);
		return 0;
	case OP_IS_BUFFER: (void)tsr_gles_IsBuffer(ctx, name_arg(r)); break;
	case OP_IS_TEXTURE: (void)tsr_gles_IsTexture(ctx, name_arg(r)); break;
	case OP_IS_RENDERBUFFER: (void)tsr_gles_IsRenderbuffer(ctx, name_arg(r)); break;
	case OP_IS_FRAMEBUFFER: (void)tsr_gles_IsFramebuffer(ctx, name_arg(r)); break;
	case OP_IS_SHADER: case OP_IS_PROGRAM: {
		GLuint n = name_arg(r);
		CHECK(!(tsr_gles_IsShader(ctx, n) && tsr_gles_IsProgram(ctx, n)));
		break;
	}
	case OP_BIND_BUFFER: {
		GLenum t = PICK(r, BUF_TARGETS);
		GLuint n = name_arg(r);
		tsr_gles_BindBuffer(ctx, t, n);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (e == GL_NO_ERROR && n)
			CHECK(tsr_gles_IsBuffer(ctx, n));
		break;
	}
	case OP_BIND_TEXTURE: {
		GLenum t = PICK(r, TEX_TARGETS);
		GLuint n = name_arg(r);
		tsr_gles_BindTexture(ctx, t, n);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (e == GL_NO_ERROR && n)
			CHECK(tsr_gles_IsTexture(ctx, n));
		break;
	}
	case OP_BIND_RENDERBUFFER: {
		GLenum t = PICK(r, RB_TARGETS);
		GLuint n = name_arg(r);
		tsr_gles_BindRenderbuffer(ctx, t, n);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (e == GL_NO_ERROR && n)
			CHECK(tsr_gles_IsRenderbuffer(ctx, n));
		break;
	}
	case OP_BIND_FRAMEBUFFER: {
		GLenum t = PICK(r, FB_TARGETS);
		GLuint n = name_arg(r);
		tsr_gles_BindFramebuffer(ctx, t, n);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (e == GL_NO_ERROR && n)
			CHECK(tsr_gles_IsFramebuffer(ctx, n));
		break;
	}
	case OP_CREATE_SHADER: {
		GLenum t = PICK(r, SHADER_TYPES);
		GLuint s = tsr_gles_CreateShader(ctx, t);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		CHECK((s != 0) == (e == GL_NO_ERROR));
		if (s)
			CHECK(tsr_gles_IsShader(ctx, s) && !tsr_gles_IsProgram(ctx, s));
		break;
	}
	case OP_CREATE_PROGRAM: {
		GLuint p = tsr_gles_CreateProgram(ctx);
		CHECK(p != 0 && tsr_gles_IsProgram(ctx, p) && !tsr_gles_IsShader(ctx, p));
		break;
	}
	case OP_DELETE_SHADER: tsr_gles_DeleteShader(ctx, name_arg(r)); break;
	case OP_DELETE_PROGRAM: tsr_gles_DeleteProgram(ctx, name_arg(r)); break;
	case OP_BUFFER_DATA: {
		GLenum t = PICK(r, BUF_TARGETS), usage;
		uint8_t b = u8(r);
		GLsizeiptr size = b < 0xF0 ? (GLsizeiptr)u16(r) % 4097 : b < 0xF8 ? -1 : PTRDIFF_MIN;
		usage = PICK(r, USAGES);
		bool null_data = u8(r) & 1;
		uint8_t *data = NULL;
		if (!null_data && size > 0) {
			data = malloc((size_t)size);
			if (!data)
				return 0;
			fill_bytes(r, data, (size_t)size > 64 ? 64 : (size_t)size);
			for (GLsizeiptr i = 64; i < size; i++)
				data[i] = (uint8_t)(i * 31);
		}
		GLint bound = geti(ctx, t == GL_ELEMENT_ARRAY_BUFFER ? GL_ELEMENT_ARRAY_BUFFER_BINDING
								     : GL_ARRAY_BUFFER_BINDING);
		tsr_gles_BufferData(ctx, t, size, data, usage);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		bool valid = IN(t, BUF_TARGETS) && IN(usage, USAGES);
		if (valid && size < 0)
			CHECK(e == GL_INVALID_VALUE);
		if (valid && size >= 0 && bound) {
			CHECK(e == GL_NO_ERROR);
			GLsizeiptr got = -1;
			const uint8_t *bd = tsr_gles_buffer_data(ctx, (GLuint)bound, &got);
			CHECK(got == size);
			if (size > 0)
				CHECK(data ? memcmp(bd, data, (size_t)size) == 0 : bd[size - 1] == 0);
			GLint v = -1;
			tsr_gles_GetBufferParameteriv(ctx, t, GL_BUFFER_SIZE, &v);
			CHECK(v == size);
		}
		free(data);
		break;
	}
	case OP_BUFFER_SUB_DATA: {
		GLenum t = PICK(r, BUF_TARGETS);
		GLintptr off = (GLintptr)sint(r);
		GLsizeiptr size = (GLsizeiptr)sint(r);
		uint8_t data[4096];
		size_t k = size > 0 ? ((size_t)size < sizeof data ? (size_t)size : sizeof data) : 0;
		fill_bytes(r, data, k);
		if (size > (GLsizeiptr)sizeof data)
			size = sizeof data;
		tsr_gles_BufferSubData(ctx, t, off, size, data);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		GLint bound = geti(ctx, t == GL_ELEMENT_ARRAY_BUFFER ? GL_ELEMENT_ARRAY_BUFFER_BINDING
								     : GL_ARRAY_BUFFER_BINDING);
		if (IN(t, BUF_TARGETS) && bound && (off < 0 || size < 0))
			CHECK(e == GL_INVALID_VALUE);
		if (e == GL_NO_ERROR && size > 0) {
			const uint8_t *bd = tsr_gles_buffer_data(ctx, (GLuint)bound, NULL);
			CHECK(memcmp(bd + off, data, (size_t)size) == 0);
		}
		break;
	}
	case OP_GET_BUFFER_PARAMETER: {
		GLint v;
		GLenum t = PICK(r, BUF_TARGETS);
		tsr_gles_GetBufferParameteriv(ctx, t, PICK(r, BUF_PNAMES), &v);
		break;
	}
	case OP_MAP_BUFFER: {
		GLenum t = PICK(r, BUF_TARGETS);
		uint8_t *m = tsr_gles_MapBufferOES(ctx, t, PICK(r, ACCESSES));
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (m) {
			CHECK(e == GL_NO_ERROR);
			GLint size = 0;
			tsr_gles_GetBufferParameteriv(ctx, t, GL_BUFFER_SIZE, &size);
			memset(m, u8(r), (size_t)size); /* the whole mapping is writable */
			void *p = NULL;
			tsr_gles_GetBufferPointervOES(ctx, t, GL_BUFFER_MAP_POINTER_OES, &p);
			CHECK(p == m);
		}
		break;
	}
	case OP_UNMAP_BUFFER: (void)tsr_gles_UnmapBufferOES(ctx, PICK(r, BUF_TARGETS)); break;
	case OP_GET_BUFFER_POINTER: {
		void *p;
		GLenum t = PICK(r, BUF_TARGETS);
		tsr_gles_GetBufferPointervOES(ctx, t, PICK(r, MAP_PNAMES), &p);
		break;
	}
	case OP_VERTEX_ATTRIB_POINTER: {
		GLuint idx = index_arg(r);
		GLint size = (GLint)(u8(r) % 6);
		GLenum type = PICK(r, ATTRIB_TYPES);
		GLboolean norm = bool_arg(r);
		uint8_t sb = u8(r);
		GLsizei stride = sb < 0xF0 ? (GLsizei)(sb % 40) : sint(r);
		uintptr_t off = u16(r) % 8192;
		const void *ptr = geti(ctx, GL_ARRAY_BUFFER_BINDING) ? (const void *)off
								     : (const void *)(client + off);
		tsr_gles_VertexAttribPointer(ctx, idx, size, type, norm, stride, ptr);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (idx < TSR_GLES_MAX_VERTEX_ATTRIBS && IN(type, ATTRIB_TYPES) &&
		    (size < 1 || size > 4 || stride < 0))
			CHECK(e == GL_INVALID_VALUE);
		if (e == GL_NO_ERROR) {
			void *got = NULL;
			tsr_gles_GetVertexAttribPointerv(ctx, idx, GL_VERTEX_ATTRIB_ARRAY_POINTER, &got);
			CHECK(got == ptr);
		}
		break;
	}
	case OP_ENABLE_ATTRIB: tsr_gles_EnableVertexAttribArray(ctx, index_arg(r)); break;
	case OP_DISABLE_ATTRIB: tsr_gles_DisableVertexAttribArray(ctx, index_arg(r)); break;
	case OP_VERTEX_ATTRIB: case OP_VERTEX_ATTRIBV: {
		GLuint idx = index_arg(r);
		int n = 1 + u8(r) % 4;
		GLfloat v[4] = { flt(r), flt(r), flt(r), flt(r) };
		GLfloat want[4] = { v[0], n > 1 ? v[1] : 0.0f, n > 2 ? v[2] : 0.0f,
				    n > 3 ? v[3] : 1.0f };
		if (op == OP_VERTEX_ATTRIB) {
			switch (n) {
			case 1: tsr_gles_VertexAttrib1f(ctx, idx, v[0]); break;
			case 2: tsr_gles_VertexAttrib2f(ctx, idx, v[0], v[1]); break;
			case 3: tsr_gles_VertexAttrib3f(ctx, idx, v[0], v[1], v[2]); break;
			default: tsr_gles_VertexAttrib4f(ctx, idx, v[0], v[1], v[2], v[3]); break;
			}
		} else {
			switch (n) {
			case 1: tsr_gles_VertexAttrib1fv(ctx, idx, v); break;
			case 2: tsr_gles_VertexAttrib2fv(ctx, idx, v); break;
			case 3: tsr_gles_VertexAttrib3fv(ctx, idx, v); break;
			default: tsr_gles_VertexAttrib4fv(ctx, idx, v); break;
			}
		}
		e = tsr_gles_GetError(ctx);
		have_e = true;
		CHECK((e == GL_NO_ERROR) == (idx < TSR_GLES_MAX_VERTEX_ATTRIBS));
		if (e == GL_NO_ERROR) {
			GLfloat got[4];
			tsr_gles_GetVertexAttribfv(ctx, idx, GL_CURRENT_VERTEX_ATTRIB, got);
			CHECK(memcmp(got, want, sizeof got) == 0);
		}
		break;
	}
	case OP_GET_VERTEX_ATTRIB: {
		GLuint idx = index_arg(r);
		GLenum pname = PICK(r, ATTRIB_PNAMES);
		GLint iv[4];
		GLfloat fv[4];
		void *p;
		switch (u8(r) % 3) {
		case 0: tsr_gles_GetVertexAttribiv(ctx, idx, pname, iv); break;
		case 1: tsr_gles_GetVertexAttribfv(ctx, idx, pname, fv); break;
		default: tsr_gles_GetVertexAttribPointerv(ctx, idx, PICK(r, POINTER_PNAMES), &p); break;
		}
		break;
	}
	case OP_VIEWPORT: case OP_SCISSOR: {
		GLint x = sint(r), y = sint(r);
		GLsizei w = sint(r), h = sint(r);
		if (op == OP_VIEWPORT)
			tsr_gles_Viewport(ctx, x, y, w, h);
		else
			tsr_gles_Scissor(ctx, x, y, w, h);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		CHECK((e == GL_INVALID_VALUE) == (w < 0 || h < 0));
		CHECK(e == GL_NO_ERROR || e == GL_INVALID_VALUE);
		break;
	}
	case OP_DEPTH_RANGE: tsr_gles_DepthRangef(ctx, flt(r), flt(r)); break;
	case OP_CULL_FACE: tsr_gles_CullFace(ctx, PICK(r, FACES)); break;
	case OP_FRONT_FACE: tsr_gles_FrontFace(ctx, PICK(r, FRONT_FACES)); break;
	case OP_LINE_WIDTH: {
		GLfloat w = flt(r);
		tsr_gles_LineWidth(ctx, w);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (w <= 0.0f)
			CHECK(e == GL_INVALID_VALUE);
		break;
	}
	case OP_POLYGON_OFFSET: tsr_gles_PolygonOffset(ctx, flt(r), flt(r)); break;
	case OP_SAMPLE_COVERAGE: tsr_gles_SampleCoverage(ctx, flt(r), bool_arg(r)); break;
	case OP_STENCIL_FUNC: {
		GLenum face = PICK(r, FACES), func = PICK(r, FUNCS);
		GLint ref = sint(r);
		GLuint mask = u32(r);
		if (u8(r) & 1)
			tsr_gles_StencilFunc(ctx, func, ref, mask);
		else
			tsr_gles_StencilFuncSeparate(ctx, face, func, ref, mask);
		break;
	}
	case OP_STENCIL_OP: {
		GLenum face = PICK(r, FACES), a = PICK(r, STENCIL_OPS), b = PICK(r, STENCIL_OPS),
		       c = PICK(r, STENCIL_OPS);
		if (u8(r) & 1)
			tsr_gles_StencilOp(ctx, a, b, c);
		else
			tsr_gles_StencilOpSeparate(ctx, face, a, b, c);
		break;
	}
	case OP_STENCIL_MASK: {
		GLenum face = PICK(r, FACES);
		GLuint mask = u32(r);
		if (u8(r) & 1)
			tsr_gles_StencilMask(ctx, mask);
		else
			tsr_gles_StencilMaskSeparate(ctx, face, mask);
		break;
	}
	case OP_DEPTH_FUNC: tsr_gles_DepthFunc(ctx, PICK(r, FUNCS)); break;
	case OP_DEPTH_MASK: tsr_gles_DepthMask(ctx, bool_arg(r)); break;
	case OP_BLEND_FUNC: {
		GLenum a = PICK(r, BLEND_FACTORS), b = PICK(r, BLEND_FACTORS),
		       c = PICK(r, BLEND_FACTORS), d = PICK(r, BLEND_FACTORS);
		if (u8(r) & 1)
			tsr_gles_BlendFunc(ctx, a, b);
		else
			tsr_gles_BlendFuncSeparate(ctx, a, b, c, d);
		break;
	}
	case OP_BLEND_EQUATION: {
		GLenum a = PICK(r, BLEND_EQS), b = PICK(r, BLEND_EQS);
		if (u8(r) & 1)
			tsr_gles_BlendEquation(ctx, a);
		else
			tsr_gles_BlendEquationSeparate(ctx, a, b);
		break;
	}
	case OP_BLEND_COLOR: tsr_gles_BlendColor(ctx, flt(r), flt(r), flt(r), flt(r)); break;
	case OP_COLOR_MASK:
		tsr_gles_ColorMask(ctx, bool_arg(r), bool_arg(r), bool_arg(r), bool_arg(r));
		break;
	case OP_CLEAR_VALUES:
		switch (u8(r) % 3) {
		case 0: tsr_gles_ClearColor(ctx, flt(r), flt(r), flt(r), flt(r)); break;
		case 1: tsr_gles_ClearDepthf(ctx, flt(r)); break;
		default: tsr_gles_ClearStencil(ctx, sint(r)); break;
		}
		break;
	case OP_ENABLE: tsr_gles_Enable(ctx, PICK(r, CAPS)); break;
	case OP_DISABLE: tsr_gles_Disable(ctx, PICK(r, CAPS)); break;
	case OP_IS_ENABLED: (void)tsr_gles_IsEnabled(ctx, PICK(r, CAPS)); break;
	case OP_PIXEL_STORE: {
		GLenum p = PICK(r, STORE_PNAMES);
		tsr_gles_PixelStorei(ctx, p, sint(r));
		break;
	}
	case OP_HINT: {
		GLenum t = PICK(r, HINT_TARGETS);
		tsr_gles_Hint(ctx, t, PICK(r, HINT_MODES));
		break;
	}
	case OP_ACTIVE_TEXTURE: {
		uint8_t b = u8(r);
		tsr_gles_ActiveTexture(ctx, b < 0xF0 ? GL_TEXTURE0 + b % 18 : (GLenum)sint(r));
		break;
	}
	case OP_TEX_IMAGE: {
		GLenum target = PICK(r, IMG_TARGETS);
		GLint level = (GLint)(u8(r) % 15) - 1;
		GLenum format = PICK(r, FORMATS);
		GLint ifmt = u8(r) < 0xE0 ? (GLint)format : (GLint)PICK(r, FORMATS);
		GLenum type = PICK(r, TYPES);
		GLsizei w = size_arg(r), h = u8(r) < 0x80 ? w : size_arg(r);
		GLint border = u8(r) < 0xF0 ? 0 : 1;
		const void *px = upload_pixels(z, format, type, w, h);
		tsr_gles_TexImage2D(ctx, target, level, ifmt, w, h, border, format, type, px);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (IN(target, IMG_TARGETS) && IN(format, FORMATS) && IN(type, TYPES) && level >= 0 &&
		    border == 0 && (w < 0 || h < 0))
			CHECK(e == GL_INVALID_VALUE);
		if (e == GL_NO_ERROR) {
			GLint tex = geti(ctx, target == GL_TEXTURE_2D ? GL_TEXTURE_BINDING_2D
								 : GL_TEXTURE_BINDING_CUBE_MAP);
			GLsizei gw = -1, gh = -1;
			GLenum gf = 0;
			const uint8_t *texels = tsr_gles_texture_image(ctx, (GLuint)tex, target, level,
								       &gw, &gh, &gf);
			CHECK(gw == w && gh == h && gf == format);
			CHECK((texels != NULL) == (w > 0 && h > 0));
			/* RGBA bytes are stored as given, bottom row first */
			if (px && texels && format == GL_RGBA && type == GL_UNSIGNED_BYTE) {
				size_t align = (size_t)geti(ctx, GL_UNPACK_ALIGNMENT);
				size_t row = ((size_t)w * 4 + align - 1) / align * align;
				for (GLsizei y = 0; y < h; y++)
					CHECK(memcmp(texels + (size_t)y * (size_t)w * 4,
						     (const uint8_t *)px + (size_t)y * row,
						     (size_t)w * 4) == 0);
			}
		}
		break;
	}
	case OP_TEX_SUB_IMAGE: {
		GLenum target = PICK(r, IMG_TARGETS);
		GLint level = (GLint)(u8(r) % 15) - 1;
		GLint x = sint(r), y = sint(r);
		GLenum format = PICK(r, FORMATS), type = PICK(r, TYPES);
		GLsizei w = size_arg(r), h = size_arg(r);
		const void *px = upload_pixels(z, format, type, w, h);
		tsr_gles_TexSubImage2D(ctx, target, level, x, y, w, h, format, type, px);
		break;
	}
	case OP_COPY_TEX_IMAGE: {
		GLenum target = PICK(r, IMG_TARGETS);
		GLint level = (GLint)(u8(r) % 15) - 1;
		GLenum ifmt = PICK(r, FORMATS);
		GLint x = sint(r), y = sint(r);
		GLsizei w = size_arg(r), h = u8(r) < 0x80 ? w : size_arg(r);
		GLint border = u8(r) < 0xF0 ? 0 : 1;
		tsr_gles_CopyTexImage2D(ctx, target, level, ifmt, x, y, w, h, border);
		break;
	}
	case OP_COPY_TEX_SUB_IMAGE: {
		GLenum target = PICK(r, IMG_TARGETS);
		GLint level = (GLint)(u8(r) % 15) - 1;
		GLint xo = sint(r), yo = sint(r), x = sint(r), y = sint(r);
		GLsizei w = size_arg(r), h = size_arg(r);
		tsr_gles_CopyTexSubImage2D(ctx, target, level, xo, yo, x, y, w, h);
		break;
	}
	case OP_COMPRESSED: {
		/* S3TC blocks from the input (8 or 16 bytes a 4x4 block), the
		 * size right or not; any other format is INVALID_ENUM */
		GLenum target = PICK(r, IMG_TARGETS);
		GLsizei w = size_arg(r), h = size_arg(r);
		GLenum format = PICK(r, S3TC_FORMATS);
		const uint8_t b = u8(r);
		GLsizei bytes = 0;
		if (w >= 0 && h >= 0) {
			const int64_t blocks = (int64_t)((w + 3) / 4) * ((h + 3) / 4);
			const int64_t want = blocks * (format == GL_COMPRESSED_RGBA_S3TC_DXT3_EXT ||
						       format == GL_COMPRESSED_RGBA_S3TC_DXT5_EXT ? 16 : 8);
			bytes = want <= PIXELS_BYTES && b < 0xF0 ? (GLsizei)want : (GLsizei)(b % 64);
		}
		for (GLsizei i = 0; i < bytes && i < PIXELS_BYTES; i++)
			pixels[i] = u8(r);
		const GLint level = u8(r) < 0xF0 ? 0 : (GLint)(u8(r) % 10) - 1;
		if (b & 1)
			tsr_gles_CompressedTexImage2D(ctx, target, level, format, w, h, 0, bytes,
						      pixels);
		else
			tsr_gles_CompressedTexSubImage2D(ctx, target, level, 0, 0, w, h, format, bytes,
							 pixels);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (IN(target, IMG_TARGETS) && !IN(format, S3TC_FORMATS))
			CHECK(e == GL_INVALID_ENUM);
		break;
	}
	case OP_GENERATE_MIPMAP: tsr_gles_GenerateMipmap(ctx, PICK(r, TEX_TARGETS)); break;
	case OP_TEX_PARAMETER: {
		GLenum t = PICK(r, TEX_TARGETS), p = PICK(r, TEX_PNAMES);
		GLenum v = PICK(r, TEX_VALUES);
		uint8_t how = u8(r) % 4;
		GLfloat fv = how >= 2 && (u8(r) & 1) ? flt(r) : (GLfloat)v;
		GLint iv = (GLint)v;
		switch (how) {
		case 0: tsr_gles_TexParameteri(ctx, t, p, iv); break;
		case 1: tsr_gles_TexParameteriv(ctx, t, p, &iv); break;
		case 2: tsr_gles_TexParameterf(ctx, t, p, fv); break;
		default: tsr_gles_TexParameterfv(ctx, t, p, &fv); break;
		}
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (e == GL_NO_ERROR) {
			GLint got = 0;
			tsr_gles_GetTexParameteriv(ctx, t, p, &got);
			/* a float names the enum it rounds or truncates to */
			CHECK(how >= 2 ? IN((GLenum)got, TEX_VALUES) && fabs((double)got - fv) < 1.0
				       : got == iv);
		}
		break;
	}
	case OP_GET_TEX_PARAMETER: {
		GLenum t = PICK(r, TEX_TARGETS), p = PICK(r, TEX_PNAMES);
		GLint iv;
		GLfloat fv;
		if (u8(r) & 1)
			tsr_gles_GetTexParameteriv(ctx, t, p, &iv);
		else
			tsr_gles_GetTexParameterfv(ctx, t, p, &fv);
		break;
	}
	case OP_RENDERBUFFER_STORAGE: {
		GLenum t = PICK(r, RB_TARGETS), f = PICK(r, RB_FORMATS);
		GLsizei w = size_arg(r), h = u8(r) < 0x80 ? w : size_arg(r);
		tsr_gles_RenderbufferStorage(ctx, t, f, w, h);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (IN(t, RB_TARGETS) && IN(f, RB_FORMATS) && (w < 0 || h < 0))
			CHECK(e == GL_INVALID_VALUE);
		if (e == GL_NO_ERROR) {
			GLint gw = -1, gh = -1, gf = 0;
			tsr_gles_GetRenderbufferParameteriv(ctx, t, GL_RENDERBUFFER_WIDTH, &gw);
			tsr_gles_GetRenderbufferParameteriv(ctx, t, GL_RENDERBUFFER_HEIGHT, &gh);
			tsr_gles_GetRenderbufferParameteriv(ctx, t, GL_RENDERBUFFER_INTERNAL_FORMAT, &gf);
			CHECK(gw == w && gh == h && (GLenum)gf == f);
		}
		break;
	}
	case OP_GET_RB_PARAMETER: {
		GLint v;
		GLenum t = PICK(r, RB_TARGETS);
		tsr_gles_GetRenderbufferParameteriv(ctx, t, PICK(r, RB_PNAMES), &v);
		break;
	}
	case OP_FRAMEBUFFER_TEXTURE: {
		GLenum t = PICK(r, FB_TARGETS), a = PICK(r, ATTACHMENTS), tt = PICK(r, IMG_TARGETS);
		GLuint tex = name_arg(r);
		GLint level = u8(r) < 0xF0 ? 0 : sint(r);
		tsr_gles_FramebufferTexture2D(ctx, t, a, tt, tex, level);
		break;
	}
	case OP_FRAMEBUFFER_RENDERBUFFER: {
		GLenum t = PICK(r, FB_TARGETS), a = PICK(r, ATTACHMENTS), rt = PICK(r, RB_TARGETS);
		tsr_gles_FramebufferRenderbuffer(ctx, t, a, rt, name_arg(r));
		break;
	}
	case OP_CHECK_FRAMEBUFFER: {
		GLenum t = PICK(r, FB_TARGETS);
		GLenum st = tsr_gles_CheckFramebufferStatus(ctx, t);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		const bool target_ok = IN(t, FB_TARGETS);  /* NV_framebuffer_blit's READ, DRAW too */
		CHECK(target_ok ? e == GL_NO_ERROR : (e == GL_INVALID_ENUM && st == 0));
		if (target_ok)
			CHECK(st == GL_FRAMEBUFFER_COMPLETE ||
			      st == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT ||
			      st == GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT ||
			      st == GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS ||
			      st == GL_FRAMEBUFFER_UNSUPPORTED);
		break;
	}
	case OP_GET_FB_ATTACHMENT: {
		GLint v;
		GLenum t = PICK(r, FB_TARGETS), a = PICK(r, ATTACHMENTS);
		tsr_gles_GetFramebufferAttachmentParameteriv(ctx, t, a, PICK(r, FB_PNAMES), &v);
		break;
	}
	case OP_SHADER_SOURCE: {
		GLuint s = name_arg(r);
		uint8_t cb = u8(r);
		GLsizei count = cb < 0xF0 ? (GLsizei)(cb % 4) : -1;
		static char text[MAX_SOURCE + 8];
		const GLchar *strings[3];
		GLint lengths[3];
		size_t at = 0;
		for (GLsizei i = 0; i < count && i < 3; i++) {
			size_t len = u16(r) % (MAX_SOURCE / 3);
			strings[i] = text + at;
			fill_bytes(r, (uint8_t *)text + at, len);
			text[at + len] = '\0';
			uint8_t lb = u8(r);
			lengths[i] = lb < 0x80 ? (GLint)strlen(text + at) : lb < 0xC0 ? -1
				     : (GLint)(lb - 0xC0) < (GLint)len ? (GLint)(lb - 0xC0) : (GLint)len;
			at += len + 1;
		}
		bool with_lengths = u8(r) & 1;
		if (!with_lengths)
			for (GLsizei i = 0; i < count && i < 3; i++)
				lengths[i] = (GLint)strlen(strings[i]);
		tsr_gles_ShaderSource(ctx, s, count, strings, with_lengths ? lengths : NULL);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (tsr_gles_IsShader(ctx, s) && count < 0)
			CHECK(e == GL_INVALID_VALUE);
		if (e == GL_NO_ERROR && count >= 0) {
			size_t total = 0;
			for (GLsizei i = 0; i < count; i++)
				total += lengths[i] >= 0 ? (size_t)lengths[i] : strlen(strings[i]);
			GLint got = -1;
			tsr_gles_GetShaderiv(ctx, s, GL_SHADER_SOURCE_LENGTH, &got);
			/* a NUL inside a string ends the source there */
			CHECK(got <= (GLint)total + 1);
		}
		break;
	}
	case OP_SHADER_SOURCE_BUILTIN: {
		GLuint s = name_arg(r);
		GLint type = 0;
		uint8_t b = u8(r);
		if (tsr_gles_IsShader(ctx, s))
			tsr_gles_GetShaderiv(ctx, s, GL_SHADER_TYPE, &type);
		bool vs = type ? type == GL_VERTEX_SHADER : (b & 0x80) != 0;
		const char *src = vs ? VS_TABLE[b % N(VS_TABLE)] : FS_TABLE[b % N(FS_TABLE)];
		tsr_gles_ShaderSource(ctx, s, 1, &src, NULL);
		break;
	}
	case OP_COMPILE_SHADER: {
		GLuint s = name_arg(r);
		if (z->compiles >= MAX_COMPILES)
			return 0;
		z->compiles++;
		tsr_gles_CompileShader(ctx, s);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (e == GL_NO_ERROR)
			check_shader_log(ctx, s);
		break;
	}
	case OP_GET_SHADER: {
		GLint v;
		GLuint s = name_arg(r);
		tsr_gles_GetShaderiv(ctx, s, PICK(r, SHADER_PNAMES), &v);
		break;
	}
	case OP_GET_SHADER_LOG: {
		GLuint s = name_arg(r);
		char buf[512];
		GLsizei bufsize = (GLsizei)(u8(r) % 2 ? sizeof buf : (GLsizei)(u8(r) % 8) - 1);
		GLsizei len = -7;
		bool src = u8(r) & 1;
		if (src)
			tsr_gles_GetShaderSource(ctx, s, bufsize, &len, buf);
		else
			tsr_gles_GetShaderInfoLog(ctx, s, bufsize, &len, buf);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (tsr_gles_IsShader(ctx, s) && bufsize < 0)
			CHECK(e == GL_INVALID_VALUE);
		if (e == GL_NO_ERROR) {
			CHECK(len >= 0 && (bufsize == 0 ? len == 0 : len < bufsize));
			if (bufsize > 0)
				CHECK(buf[len] == '\0' && strlen(buf) == (size_t)len);
		}
		break;
	}
	case OP_ATTACH_SHADER: {
		GLuint p = name_arg(r);
		tsr_gles_AttachShader(ctx, p, name_arg(r));
		break;
	}
	case OP_DETACH_SHADER: {
		GLuint p = name_arg(r);
		tsr_gles_DetachShader(ctx, p, name_arg(r));
		break;
	}
	case OP_GET_ATTACHED: {
		GLuint p = name_arg(r), sh[2] = { 0, 0 };
		GLsizei max = (GLsizei)(u8(r) % 4) - 1, count = -1;
		tsr_gles_GetAttachedShaders(ctx, p, max, &count, sh);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (e == GL_NO_ERROR) {
			CHECK(count >= 0 && count <= 2 && count <= max);
			for (GLsizei i = 0; i < count; i++)
				CHECK(tsr_gles_IsShader(ctx, sh[i]));
		}
		break;
	}
	case OP_BIND_ATTRIB_LOCATION: {
		GLuint p = name_arg(r), idx = index_arg(r);
		tsr_gles_BindAttribLocation(ctx, p, idx, VAR_NAMES[u8(r) % N(VAR_NAMES)]);
		break;
	}
	case OP_LINK_PROGRAM: {
		GLuint p = name_arg(r);
		if (z->compiles >= MAX_COMPILES)
			return 0;
		z->compiles++;
		tsr_gles_LinkProgram(ctx, p);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (e == GL_NO_ERROR)
			check_program(ctx, p);
		break;
	}
	case OP_USE_PROGRAM: {
		GLuint p = name_arg(r);
		tsr_gles_UseProgram(ctx, p);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (e == GL_NO_ERROR)
			CHECK((GLuint)geti(ctx, GL_CURRENT_PROGRAM) == p);
		break;
	}
	case OP_VALIDATE_PROGRAM: tsr_gles_ValidateProgram(ctx, name_arg(r)); break;
	case OP_GET_PROGRAM: {
		GLint v;
		GLuint p = name_arg(r);
		tsr_gles_GetProgramiv(ctx, p, PICK(r, PROGRAM_PNAMES), &v);
		break;
	}
	case OP_GET_PROGRAM_LOG: {
		GLuint p = name_arg(r);
		char buf[512];
		GLsizei bufsize = (GLsizei)(u8(r) % 2 ? sizeof buf : (GLsizei)(u8(r) % 8) - 1);
		GLsizei len = -7;
		tsr_gles_GetProgramInfoLog(ctx, p, bufsize, &len, buf);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (e == GL_NO_ERROR && bufsize > 0)
			CHECK(len >= 0 && len < bufsize && buf[len] == '\0');
		break;
	}
	case OP_GET_ACTIVE: {
		GLuint p = name_arg(r), idx = (GLuint)(u8(r) % 12);
		char buf[64];
		GLsizei bufsize = (GLsizei)(u8(r) % 2 ? sizeof buf : (GLsizei)(u8(r) % 8) - 1);
		GLsizei len;
		GLint size;
		GLenum type;
		if (u8(r) & 1)
			tsr_gles_GetActiveAttrib(ctx, p, idx, bufsize, &len, &size, &type, buf);
		else
			tsr_gles_GetActiveUniform(ctx, p, idx, bufsize, &len, &size, &type, buf);
		break;
	}
	case OP_GET_LOCATION: {
		GLuint p = name_arg(r);
		const char *n = VAR_NAMES[u8(r) % N(VAR_NAMES)];
		GLint l = u8(r) & 1 ? tsr_gles_GetAttribLocation(ctx, p, n)
				    : tsr_gles_GetUniformLocation(ctx, p, n);
		CHECK(l >= -1);
		break;
	}
	case OP_UNIFORM_F: case OP_UNIFORM_I: {
		GLint loc = loc_arg(r);
		int n = 1 + u8(r) % 4;
		GLfloat f[4] = { flt(r), flt(r), flt(r), flt(r) };
		GLint i[4] = { sint(r), sint(r), sint(r), sint(r) };
		if (op == OP_UNIFORM_F) {
			switch (n) {
			case 1: tsr_gles_Uniform1f(ctx, loc, f[0]); break;
			case 2: tsr_gles_Uniform2f(ctx, loc, f[0], f[1]); break;
			case 3: tsr_gles_Uniform3f(ctx, loc, f[0], f[1], f[2]); break;
			default: tsr_gles_Uniform4f(ctx, loc, f[0], f[1], f[2], f[3]); break;
			}
		} else {
			switch (n) {
			case 1: tsr_gles_Uniform1i(ctx, loc, i[0]); break;
			case 2: tsr_gles_Uniform2i(ctx, loc, i[0], i[1]); break;
			case 3: tsr_gles_Uniform3i(ctx, loc, i[0], i[1], i[2]); break;
			default: tsr_gles_Uniform4i(ctx, loc, i[0], i[1], i[2], i[3]); break;
			}
		}
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (e == GL_NO_ERROR)
			check_uniform(ctx, loc, 1, n, op == OP_UNIFORM_I, f, i);
		break;
	}
	case OP_UNIFORM_FV: case OP_UNIFORM_IV: case OP_UNIFORM_MATRIX: {
		GLint loc = loc_arg(r);
		int n = 1 + u8(r) % 4;
		GLsizei count = count_arg(r, 40);
		for (int k = 0; k < 16; k++) {
			fvals[k] = flt(r);
			ivals[k] = sint(r);
		}
		for (size_t k = 16; k < N(fvals); k++) {
			fvals[k] = (GLfloat)k * 0.5f;
			ivals[k] = (GLint)(k % 16);
		}
		GLboolean transpose = GL_FALSE;
		int comps = n;
		if (op == OP_UNIFORM_FV) {
			switch (n) {
			case 1: tsr_gles_Uniform1fv(ctx, loc, count, fvals); break;
			case 2: tsr_gles_Uniform2fv(ctx, loc, count, fvals); break;
			case 3: tsr_gles_Uniform3fv(ctx, loc, count, fvals); break;
			default: tsr_gles_Uniform4fv(ctx, loc, count, fvals); break;
			}
		} else if (op == OP_UNIFORM_IV) {
			switch (n) {
			case 1: tsr_gles_Uniform1iv(ctx, loc, count, ivals); break;
			case 2: tsr_gles_Uniform2iv(ctx, loc, count, ivals); break;
			case 3: tsr_gles_Uniform3iv(ctx, loc, count, ivals); break;
			default: tsr_gles_Uniform4iv(ctx, loc, count, ivals); break;
			}
		} else {
			transpose = u8(r) < 0xF0 ? GL_FALSE : GL_TRUE;
			switch (n) {
			case 1: case 2:
				comps = 4;
				tsr_gles_UniformMatrix2fv(ctx, loc, count, transpose, fvals);
				break;
			case 3:
				comps = 9;
				tsr_gles_UniformMatrix3fv(ctx, loc, count, transpose, fvals);
				break;
			default:
				comps = 16;
				tsr_gles_UniformMatrix4fv(ctx, loc, count, transpose, fvals);
				break;
			}
		}
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (geti(ctx, GL_CURRENT_PROGRAM) && count < 0 && !transpose)
			CHECK(e == GL_INVALID_VALUE);
		if (e == GL_NO_ERROR && count > 0)
			check_uniform(ctx, loc, count, comps, op == OP_UNIFORM_IV, fvals, ivals);
		break;
	}
	case OP_GET_UNIFORM: {
		GLuint p = name_arg(r);
		GLint loc = loc_arg(r);
		GLfloat fv[16];
		GLint iv[16];
		if (u8(r) & 1)
			tsr_gles_GetUniformfv(ctx, p, loc, fv);
		else
			tsr_gles_GetUniformiv(ctx, p, loc, iv);
		break;
	}
	case OP_SHADER_MISC: {
		GLint range[2], prec;
		switch (u8(r) % 3) {
		case 0: tsr_gles_ReleaseShaderCompiler(ctx); break;
		case 1: {
			GLuint sh[2] = { name_arg(r), name_arg(r) };
			tsr_gles_ShaderBinary(ctx, 2, sh, u16(r), pixels, 16);
			e = tsr_gles_GetError(ctx);
			have_e = true;
			CHECK(e == GL_INVALID_ENUM);
			break;
		}
		default: {
			GLenum t = PICK(r, SHADER_TYPES);
			tsr_gles_GetShaderPrecisionFormat(ctx, t, PICK(r, PRECISIONS), range, &prec);
			break;
		}
		}
		break;
	}
	case OP_GET: {
		size_t k = u8(r) % (N(GETS) + 1);
		GLenum pname = k < N(GETS) ? GETS[k].pname : (GLenum)sint(r);
		GLboolean b[16];
		GLint iv[16];
		GLfloat fv[16];
		memset(b, 0x77, sizeof b);
		tsr_gles_GetBooleanv(ctx, pname, b);
		tsr_gles_GetIntegerv(ctx, pname, iv);
		tsr_gles_GetFloatv(ctx, pname, fv);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		CHECK(k < N(GETS) ? e == GL_NO_ERROR : (e == GL_NO_ERROR || e == GL_INVALID_ENUM));
		if (e != GL_NO_ERROR || k >= N(GETS))
			break;
		for (int c = 0; c < GETS[k].n; c++) {
			CHECK(b[c] == GL_TRUE || b[c] == GL_FALSE);
			if (get_is_norm(pname)) {
				CHECK(fv[c] >= 0.0f && fv[c] <= 1.0f);
				continue;
			}
			if (get_is_float(pname)) {
				/* rounded, and clamped to the integers' range */
				double d = fv[c];
				if (isnan(d))
					continue;
				if (d >= 2147483647.0)
					CHECK(iv[c] == INT32_MAX);
				else if (d <= -2147483648.0)
					CHECK(iv[c] == INT32_MIN);
				else
					CHECK(fabs((double)iv[c] - d) <= 0.5);
				CHECK(b[c] == (fv[c] != 0.0f));
				continue;
			}
			CHECK(fv[c] == (GLfloat)iv[c]);
			CHECK(b[c] == (iv[c] != 0));
		}
		break;
	}
	case OP_GET_STRING: {
		GLenum n = PICK(r, STRINGS);
		const GLubyte *s = tsr_gles_GetString(ctx, n);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		CHECK((s != NULL) == (e == GL_NO_ERROR));
		if (s)
			CHECK(strlen((const char *)s) > 0 || n == GL_EXTENSIONS);
		break;
	}
	case OP_DRAW_ARRAYS: case OP_DRAW_ELEMENTS: {
		GLenum mode = PICK(r, MODES);
		GLint first = u8(r) < 0xF0 ? (GLint)(u8(r) % 16) : sint(r);
		uint8_t cb = u8(r);
		GLsizei count = cb < 0xF0 ? (GLsizei)cb : sint(r);
		GLenum type = PICK(r, INDEX_TYPES);
		uintptr_t off = u16(r) % 4096;
		GLenum status = tsr_gles_CheckFramebufferStatus(ctx, GL_FRAMEBUFFER);
		GLint prog = geti(ctx, GL_CURRENT_PROGRAM);
		const void *indices = geti(ctx, GL_ELEMENT_ARRAY_BUFFER_BINDING)
					      ? (const void *)off : (const void *)(client + off);
		struct tsr_gles_draw d;
		GLboolean ok;
		if (op == OP_DRAW_ARRAYS)
			ok = tsr_gles_draw_arrays_state(ctx, mode, first, count, &d);
		else
			ok = tsr_gles_draw_elements_state(ctx, mode, count, type, indices, &d);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		bool args_ok = IN(mode, MODES) && (op == OP_DRAW_ARRAYS || IN(type, INDEX_TYPES));
		if (args_ok && (count < 0 || (op == OP_DRAW_ARRAYS && first < 0)))
			CHECK(e == GL_INVALID_VALUE);
		if (args_ok && count >= 0 && (op == OP_DRAW_ELEMENTS || first >= 0)) {
			if (status != GL_FRAMEBUFFER_COMPLETE)
				CHECK(e == GL_INVALID_FRAMEBUFFER_OPERATION);
			else if (e == GL_NO_ERROR)
				CHECK((bool)ok == (prog != 0 && count > 0));
		}
		if (!ok) {
			CHECK(ok == GL_FALSE);
			break;
		}
		CHECK(e == GL_NO_ERROR && d.program != NULL && d.state.mode == mode &&
		      d.state.index.count == (uint32_t)count);
		if (op == OP_DRAW_ELEMENTS)
			CHECK(d.state.index.type == (type == GL_UNSIGNED_BYTE ? TSR_INDEX_U8
						     : type == GL_UNSIGNED_SHORT ? TSR_INDEX_U16
						     : TSR_INDEX_U32));
		/* each unit the program samples: complete as the context says */
		for (GLuint u = 0; u < TSR_GLES_MAX_TEXTURE_UNITS; u++) {
			const struct tsr_gles_unit *gu = &d.units[u];
			if (gu->target == GL_NONE)
				continue;
			CHECK(gu->target == GL_TEXTURE_2D || gu->target == GL_TEXTURE_CUBE_MAP);
			CHECK(gu->complete == tsr_gles_texture_complete(ctx, u, gu->target));
			CHECK(gu->unit.image == (gu->complete ? (int32_t)gu->texture : -1));
		}
		/* the framebuffer's attachments and bits as the Gets say */
		CHECK(d.depth_bits == geti(ctx, GL_DEPTH_BITS) &&
		      d.stencil_bits == geti(ctx, GL_STENCIL_BITS));
		if (geti(ctx, GL_FRAMEBUFFER_BINDING)) {
			GLint st = GL_NONE, sn = 0;
			tsr_gles_GetFramebufferAttachmentParameteriv(
				ctx, GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT,
				GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &st);
			if (st != GL_NONE)
				tsr_gles_GetFramebufferAttachmentParameteriv(
					ctx, GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT,
					GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &sn);
			CHECK(d.stencil_type == (GLenum)st &&
			      d.stencil == (st == GL_NONE ? TSR_ATTACH_NONE : sn));
		} else {
			CHECK(d.stencil == TSR_ATTACH_DEFAULT && d.stencil_type == GL_NONE);
		}
		run_program(z, d.program);
		uint64_t maxi = op == OP_DRAW_ARRAYS ? (uint64_t)first + (uint64_t)count - 1
						     : max_index(ctx, count, type, indices);
		if (count <= 1024 && maxi < 65536 && client_arrays_ok(ctx, maxi))
			device_draw(z, &d);
		break;
	}
	case OP_CLEAR: {
		uint8_t b = u8(r);
		GLbitfield mask = b < 0xF0 ? ((b & 1 ? GL_COLOR_BUFFER_BIT : 0) |
					      (b & 2 ? GL_DEPTH_BUFFER_BIT : 0) |
					      (b & 4 ? GL_STENCIL_BUFFER_BIT : 0))
					   : u32(r);
		struct tsr_clear_state c;
		if (tsr_gles_clear_state(ctx, mask, &c)) {
			struct tsr_error err;
			err.msg[0] = '\0';
			enum tsr_status st = tsr_gles_device_clear(z->dev, ctx, &c, &err);
			CHECK(st == TSR_OK || err.msg[0] != '\0');
		}
		break;
	}
	case OP_READ_PIXELS: {
		GLint x = sint(r), y = sint(r);
		GLsizei w = (GLsizei)(u8(r) % 65), h = (GLsizei)(u8(r) % 65);
		struct tsr_error err;
		err.msg[0] = '\0';
		if (w > 0 && h > 0) {
			enum tsr_status st = tsr_gles_device_read_pixels(z->dev, ctx, x, y, w, h,
									 pixels, &err);
			CHECK(st == TSR_OK || err.msg[0] != '\0');
		}
		break;
	}
	case OP_FLUSH: {
		struct tsr_error err;
		(void)tsr_gles_device_flush(z->dev, &err);
		break;
	}
	case OP_SWAP: {
		struct tsr_error err;
		uint32_t before = tsr_gles_device_frames(z->dev);
		if (tsr_gles_device_swap(z->dev, &err) == TSR_OK)
			CHECK(tsr_gles_device_frames(z->dev) == before + 1);
		break;
	}
	case OP_BUILTIN_PROGRAM: {
		/* a whole program from the tables, made current */
		if (z->compiles + 3 > MAX_COMPILES)
			return 0;
		z->compiles += 3;
		uint8_t b = u8(r);
		GLuint vs = tsr_gles_CreateShader(ctx, GL_VERTEX_SHADER);
		GLuint fs = tsr_gles_CreateShader(ctx, GL_FRAGMENT_SHADER);
		const char *vsrc = VS_TABLE[b % N(VS_TABLE)], *fsrc = FS_TABLE[(b >> 4) % N(FS_TABLE)];
		tsr_gles_ShaderSource(ctx, vs, 1, &vsrc, NULL);
		tsr_gles_ShaderSource(ctx, fs, 1, &fsrc, NULL);
		tsr_gles_CompileShader(ctx, vs);
		tsr_gles_CompileShader(ctx, fs);
		GLint ok = 0;
		tsr_gles_GetShaderiv(ctx, vs, GL_COMPILE_STATUS, &ok);
		CHECK(ok);
		tsr_gles_GetShaderiv(ctx, fs, GL_COMPILE_STATUS, &ok);
		CHECK(ok);
		GLuint p = tsr_gles_CreateProgram(ctx);
		tsr_gles_AttachShader(ctx, p, vs);
		tsr_gles_AttachShader(ctx, p, fs);
		tsr_gles_LinkProgram(ctx, p);
		CHECK(tsr_gles_GetError(ctx) == GL_NO_ERROR);
		check_program(ctx, p);
		tsr_gles_UseProgram(ctx, p);
		break;
	}
	case OP_TEXTURE_COMPLETE: {
		GLuint unit = u8(r) % 18;
		(void)tsr_gles_texture_complete(ctx, unit, PICK(r, TEX_TARGETS));
		break;
	}
	case OP_POLYGON_OFFSET_CLAMP: {
		const GLfloat f = flt(r), u = flt(r), c = flt(r);
		tsr_gles_PolygonOffsetClampEXT(ctx, f, u, c);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		CHECK(e == GL_NO_ERROR);
		GLfloat got = -1.0f;
		tsr_gles_GetFloatv(ctx, GL_POLYGON_OFFSET_CLAMP_EXT, &got);
		CHECK(isnan(c) ? got == 0.0f : memcmp(&got, &c, sizeof c) == 0);
		break;
	}
	case OP_DRAW_BUFFERS: {
		GLenum bufs[5];
		const GLsizei n = count_arg(r, 5);
		for (int i = 0; i < 5; i++)
			bufs[i] = PICK(r, DRAW_BUFFERS);
		const GLint before = geti(ctx, GL_DRAW_BUFFER0_EXT);
		tsr_gles_DrawBuffersEXT(ctx, n, bufs);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (n < 0 || n > geti(ctx, GL_MAX_DRAW_BUFFERS_EXT))
			CHECK(e == GL_INVALID_VALUE);
		if (e == GL_NO_ERROR && n > 0)
			CHECK(geti(ctx, GL_DRAW_BUFFER0_EXT) == (GLint)bufs[0]);
		if (e != GL_NO_ERROR)
			CHECK(geti(ctx, GL_DRAW_BUFFER0_EXT) == before);
		break;
	}
	case OP_DISCARD_FRAMEBUFFER: {
		GLenum att[4];
		const GLenum target = PICK(r, FB_TARGETS);
		const GLsizei n = count_arg(r, 4);
		for (int i = 0; i < 4; i++)
			att[i] = PICK(r, DISCARDS);
		const GLbitfield got = tsr_gles_DiscardFramebufferEXT(ctx, target, n, att);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (target == GL_FRAMEBUFFER && n < 0)
			CHECK(e == GL_INVALID_VALUE);
		CHECK(e == GL_NO_ERROR || got == 0);
		CHECK((got & ~(GLbitfield)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT |
					   GL_STENCIL_BUFFER_BIT)) == 0);
		if (got) { /* the device may skip the discarded stores */
			struct tsr_error err;
			CHECK(tsr_gles_device_discard(z->dev, ctx, got, &err) == TSR_OK);
		}
		break;
	}
	case OP_FETCH_BARRIER: tsr_gles_FramebufferFetchBarrierEXT(ctx); break;
	case OP_BLIT_FRAMEBUFFER: {
		/* GL_NV_framebuffer_blit: any rectangles (flipped, huge, empty),
		 * masks mostly of the three buffers, the filters and others */
		GLint v[8];
		for (int i = 0; i < 8; i++)
			v[i] = sint(r);
		const uint8_t mb = u8(r);
		const GLbitfield all = GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT |
				       GL_STENCIL_BUFFER_BIT;
		const GLbitfield mask = mb < 0xF0 ? ((mb & 1 ? GL_COLOR_BUFFER_BIT : 0) |
						     (mb & 2 ? GL_DEPTH_BUFFER_BIT : 0) |
						     (mb & 4 ? GL_STENCIL_BUFFER_BIT : 0))
						  : (GLbitfield)u32(r);
		const GLenum filter = PICK(r, BLIT_FILTERS);
		const GLbitfield got = tsr_gles_BlitFramebufferNV(ctx, v[0], v[1], v[2], v[3], v[4],
								  v[5], v[6], v[7], mask, filter);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (mask & ~all)
			CHECK(e == GL_INVALID_VALUE);
		else if (filter != GL_NEAREST && filter != GL_LINEAR)
			CHECK(e == GL_INVALID_ENUM);
		CHECK(e == GL_NO_ERROR || got == 0);
		CHECK((got & ~mask) == 0);  /* buffers are only ever dropped */
		if (got) {
			const GLint src[4] = {v[0], v[1], v[2], v[3]}, dst[4] = {v[4], v[5], v[6], v[7]};
			struct tsr_error err;
			err.msg[0] = '\0';
			const enum tsr_status st = tsr_gles_device_blit(z->dev, ctx, src, dst, got,
									 filter, &err);
			CHECK(st == TSR_OK || err.msg[0] != '\0');
		}
		break;
	}
	case OP_DEBUG_LABEL: {
		/* a label set on an object comes back from GetObjectLabelKHR */
		char label[80], got[96];
		const GLenum kind = PICK(r, LABEL_KINDS);
		const GLuint name = name_arg(r);
		const GLsizei len = text_arg(r, label, sizeof label);
		const bool null_label = u8(r) >= 0xF0;
		if (u8(r) < 0x20) { /* the pointer forms: no sync objects in ES 2.0 */
			int obj;
			tsr_gles_ObjectPtrLabelKHR(ctx, &obj, len, label);
			CHECK(tsr_gles_GetError(ctx) == GL_INVALID_VALUE);
			GLsizei n = -7;
			tsr_gles_GetObjectPtrLabelKHR(ctx, &obj, (GLsizei)sizeof got, &n, got);
			e = tsr_gles_GetError(ctx);
			have_e = true;
			CHECK(e == GL_INVALID_VALUE && n == -7);
			break;
		}
		tsr_gles_ObjectLabelKHR(ctx, kind, name, len, null_label ? NULL : label);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		if (!IN(kind, LABEL_KINDS))
			CHECK(e == GL_INVALID_ENUM);
		if (e != GL_NO_ERROR)
			break;
		GLsizei n = -7;
		memset(got, 0x55, sizeof got);
		const GLsizei cap = (GLsizei)(u8(r) % sizeof got);
		tsr_gles_GetObjectLabelKHR(ctx, kind, name, cap, &n, got);
		CHECK(tsr_gles_GetError(ctx) == GL_NO_ERROR);
		const size_t want = null_label ? 0 : len < 0 ? strlen(label) : (size_t)len;
		const size_t k = cap == 0 ? 0 : want < (size_t)cap - 1 ? want : (size_t)cap - 1;
		CHECK(n == (GLsizei)k);
		if (cap > 0)
			CHECK(memcmp(got, label, k) == 0 && got[k] == '\0');
		break;
	}
	case OP_DEBUG_MESSAGE: {
		char msg[64];
		GLuint ids[4];
		switch (u8(r) % 4) {
		case 0: {
			const GLenum src = PICK(r, DEBUG_SOURCES), type = PICK(r, DEBUG_TYPES);
			const GLenum sev = PICK(r, DEBUG_SEVERITIES);
			const GLuint id = u8(r);
			const GLsizei len = text_arg(r, msg, sizeof msg);
			tsr_gles_DebugMessageInsertKHR(ctx, src, type, id, sev, len, msg);
			break;
		}
		case 1: {
			const GLenum src = PICK(r, DEBUG_SOURCES), type = PICK(r, DEBUG_TYPES);
			const GLenum sev = PICK(r, DEBUG_SEVERITIES);
			const GLsizei n = count_arg(r, 4);
			for (int i = 0; i < 4; i++)
				ids[i] = u8(r);
			tsr_gles_DebugMessageControlKHR(ctx, src, type, sev, n, ids, bool_arg(r));
			e = tsr_gles_GetError(ctx);
			have_e = true;
			if (IN(src, DEBUG_SOURCES) && IN(type, DEBUG_TYPES) &&
			    IN(sev, DEBUG_SEVERITIES) && n < 0)
				CHECK(e == GL_INVALID_VALUE);
			break;
		}
		case 2:
			tsr_gles_DebugMessageCallbackKHR(ctx, u8(r) & 1 ? debug_callback : NULL,
							 &debug_callback_user);
			break;
		default: {
			void *ptr = (void *)1;
			tsr_gles_GetPointervKHR(ctx, PICK(r, DEBUG_POINTERS), &ptr);
			break;
		}
		}
		break;
	}
	case OP_DEBUG_GROUP: {
		/* a push that records no error deepens the stack by one, a pop
		 * that records none makes it one shallower */
		const GLint depth = geti(ctx, GL_DEBUG_GROUP_STACK_DEPTH_KHR);
		if (u8(r) & 1) {
			char msg[64];
			const GLenum src = PICK(r, DEBUG_SOURCES);
			const GLuint id = u8(r);
			const GLsizei len = text_arg(r, msg, sizeof msg);
			tsr_gles_PushDebugGroupKHR(ctx, src, id, len, msg);
			e = tsr_gles_GetError(ctx);
			have_e = true;
			CHECK(geti(ctx, GL_DEBUG_GROUP_STACK_DEPTH_KHR) ==
			      depth + (e == GL_NO_ERROR));
		} else {
			tsr_gles_PopDebugGroupKHR(ctx);
			e = tsr_gles_GetError(ctx);
			have_e = true;
			CHECK(depth == 1 ? e == GL_STACK_UNDERFLOW_KHR : e == GL_NO_ERROR);
			CHECK(geti(ctx, GL_DEBUG_GROUP_STACK_DEPTH_KHR) ==
			      depth - (e == GL_NO_ERROR));
		}
		break;
	}
	case OP_DEBUG_LOG: {
		/* messages fetched: at most count, each NUL-terminated at its
		 * length, their lengths summing to at most bufsize */
		GLenum src[8], type[8], sev[8];
		GLuint ids[8];
		GLsizei lens[8];
		char log[256];
		const GLuint count = u8(r) % 9;
		const GLsizei bufsize = u8(r) < 0xF0 ? (GLsizei)(u8(r)) : sint(r);
		const bool with_log = u8(r) & 1;
		const GLsizei cap = bufsize > (GLsizei)sizeof log ? (GLsizei)sizeof log : bufsize;
		const GLuint got = tsr_gles_GetDebugMessageLogKHR(ctx, count, cap, src, type, ids,
								  sev, lens, with_log ? log : NULL);
		e = tsr_gles_GetError(ctx);
		have_e = true;
		CHECK(got <= count);
		GLsizei used = 0;
		for (GLuint i = 0; i < got; i++) {
			CHECK(lens[i] >= 1);
			if (with_log)
				CHECK(strlen(log + used) + 1 == (size_t)lens[i]);
			used += lens[i];
		}
		if (with_log)
			CHECK(e == GL_NO_ERROR ? used <= cap : cap < 0 && got == 0);
		break;
	}
	default:
		break;
	}
	if (!have_e)
		e = tsr_gles_GetError(ctx);
	return e;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	struct fz z;
	memset(&z, 0, sizeof z);
	z.in.p = data;
	z.in.n = size;
	uint8_t setup = u8(&z.in);
	static const struct tsr_gles_config CFGS[4] = {
		{ 8, 8, 8, 8, 24, 8 }, { 5, 6, 5, 0, 16, 0 }, { 8, 8, 8, 0, 0, 0 }, { 8, 8, 8, 8, 16, 8 },
	};
	uint32_t w = 1 + (setup & 0x1F), h = 1 + ((setup >> 3) & 0x1F);
	struct tsr_error err;
	if (tsr_gles_context_create(w, h, &CFGS[setup >> 6], &z.ctx, &err) != TSR_OK)
		__builtin_trap();
	struct tsr_gles_device_params dp = { .width = w, .height = h, .bits = CFGS[setup >> 6] };
	if (tsr_gles_device_create(&dp, &z.dev, &err) != TSR_OK)
		__builtin_trap();
	tsr_gles_set_read_pixels(z.ctx, read_fb, &z);
	for (size_t i = 0; i < sizeof client; i++)
		client[i] = (uint8_t)(i * 13 + (i >> 8));
	z.fp = fingerprint(z.ctx);
	if (trace < 0)
		trace = getenv("FUZZ_GLES_TRACE") != NULL;
	for (int call = 0; call < MAX_CALLS && z.in.n > 0; call++) {
		uint8_t opcode = z.in.p[0];
		GLenum e = one_call(&z);
		if (trace)
			fprintf(stderr, "call %d: op %d -> 0x%04x\n", call, opcode % OP_COUNT, e);
		CHECK(gl_error_ok(e));
		CHECK(tsr_gles_GetError(z.ctx) == GL_NO_ERROR);
		uint64_t fp = fingerprint(z.ctx);
		if (e != GL_NO_ERROR && e != GL_OUT_OF_MEMORY)
			CHECK(fp == z.fp);
		z.fp = fp;
	}
	(void)tsr_gles_device_destroy(z.dev, &err);
	tsr_gles_context_destroy(z.ctx);
	return 0;
}
