/*
 * state.h - a draw call's fixed-function state, mirroring the OpenGL ES
 * 2.0 state tables (OpenGL ES 2.0.25 specification, section 6.2, tables
 * 6.2 to 6.17) so that a GL ES driver only translates its context's state
 * into these structs: vertex arrays (6.2), the index buffer and primitive
 * mode (glDrawElements / glDrawArrays arguments), viewport and depth range
 * (6.4), rasterization: cull face, front face, polygon offset (6.5),
 * textures and samplers (6.7, 6.8), per-fragment operations: scissor,
 * stencil, depth, blending (6.11), framebuffer control: color and depth
 * masks, clear values (6.12) and the framebuffer binding (6.14). Each
 * field names the GL ES state it mirrors and its GL default.
 *
 * The pipelines (pipeline/: TBR and IMR) share their geometry and raster
 * units, so they implement the same subset. tsr_draw_state_check()
 * accepts exactly that subset and refuses anything else with
 * TSR_ERR_UNSUPPORTED naming the state. Per field below, "TBR/IMR:" says
 * what is implemented; what is not named there is refused by both. The
 * raster stages read the per-fragment state from the draw (a struct
 * tsr_shader_binding per draw, raster/binding.c), the geometry stages the
 * cull state; the material stays the program (its color, lighting,
 * instruction counts). In short:
 *   implemented: triangles; u16/u32 indices (u16 when the mesh has at most
 *     65,536 vertices, else u32, as the index buffers are laid out);
 *     the 32-byte vertex (position, normal, texcoord, floats); any
 *     viewport and depth range; scissor (any box); face culling (any cull
 *     face, front face, on or off); polygon offset; depth test on or off,
 *     every DEPTH_FUNC, write mask on or off (late Z after the program's
 *     discard); stencil test on or off (an 8-bit stencil buffer), both
 *     faces' funcs, ops, reference, value and write masks (tested with
 *     depth: early, or late after the program's discard); blending on or off with every factor, equation and the
 *     constant color; every color mask; one texture unit (unit 0, the
 *     material's image) with the filters NEAREST/LINEAR mag and
 *     NEAREST_MIPMAP_NEAREST, LINEAR_MIPMAP_NEAREST, LINEAR_MIPMAP_LINEAR
 *     min, wraps REPEAT or CLAMP_TO_EDGE alike on s and t; a pass whose
 *     color is cleared (any color), loaded from memory or invalidated and
 *     whose depth is cleared (1.0) or invalidated, whose stencil is
 *     cleared (any value) or invalidated (or loaded, when no draw of the
 *     pass tests it), unscissored; the framebuffer of the draw's pass.
 *   refused: points, lines, line strips and loops, triangle strips and
 *     fans; unindexed draws and u8 indices; any other vertex layout or
 *     constant attribute; more or other texture units, mirrored
 *     repeat, different s and t wraps, other filter pairs; a discard
 *     other than the material's alpha test; a pass that loads its depth
 *     buffer, a pass that loads its stencil buffer and tests it, a
 *     scissored clear, a depth clear value other than 1.0 (struct
 *     tsr_clear_state says what a pass start does).
 */
#ifndef TSR_COMMAND_STATE_H
#define TSR_COMMAND_STATE_H

#include <stdint.h>

#include "command/resources.h"
#include "core/status.h"

#define TSR_MAX_VERTEX_ATTRIBS 8   /* GL ES 2.0's minimum MAX_VERTEX_ATTRIBS */
#define TSR_MAX_TEXTURE_UNITS 8    /* GL ES 2.0's minimum MAX_TEXTURE_IMAGE_UNITS */
#define TSR_MAX_DRAW_BUFFERS 4     /* color targets of one pass (GL_EXT_draw_buffers'
				      MAX_DRAW_BUFFERS_EXT): target 0 and 1..3 */
/* ALIASED_POINT_SIZE_RANGE and ALIASED_LINE_WIDTH_RANGE's upper ends, pixels:
 * gl_PointSize is clamped to [1, TSR_POINT_SIZE_MAX], the rounded line
 * width to [1, TSR_LINE_WIDTH_MAX] */
#define TSR_POINT_SIZE_MAX 64.0f
#define TSR_LINE_WIDTH_MAX 16.0f

/* glDraw* mode. TBR/IMR: every mode for a program draw (points and lines
 * expanded into triangles by the Geometry Pipeline: geometry/geometry.h);
 * TRIANGLES only for the material's fixed shading. */
enum tsr_prim_mode {
	TSR_PRIM_POINTS = 0,
	TSR_PRIM_LINES,
	TSR_PRIM_LINE_LOOP,
	TSR_PRIM_LINE_STRIP,
	TSR_PRIM_TRIANGLES,
	TSR_PRIM_TRIANGLE_STRIP,
	TSR_PRIM_TRIANGLE_FAN,
	TSR_PRIM_MODE_COUNT,
};

/* glDrawElements type, or NONE for glDrawArrays. TBR/IMR: U16 / U32 as
 * the mesh's index buffer is laid out (tsr_mesh_index_type()). */
enum tsr_index_type {
	TSR_INDEX_NONE = 0,
	TSR_INDEX_U8,
	TSR_INDEX_U16,
	TSR_INDEX_U32,   /* OES_element_index_uint */
	TSR_INDEX_TYPE_COUNT,
};

/* VERTEX_ATTRIB_ARRAY_TYPE. TBR/IMR: FLOAT only. */
enum tsr_attrib_type {
	TSR_ATTRIB_BYTE = 0,
	TSR_ATTRIB_UBYTE,
	TSR_ATTRIB_SHORT,
	TSR_ATTRIB_USHORT,
	TSR_ATTRIB_FIXED,
	TSR_ATTRIB_FLOAT,
	TSR_ATTRIB_HALF_FLOAT,   /* HALF_FLOAT_OES (GL_OES_vertex_half_float): IEEE
	                            binary16, 2 bytes; TBR/IMR: program draws */
	TSR_ATTRIB_TYPE_COUNT,
};

/*
 * One generic vertex attribute (table 6.2, and CURRENT_VERTEX_ATTRIB of
 * 6.3 when the array is disabled). TBR/IMR: attributes 0, 1, 2 enabled
 * from the draw's mesh: position (offset 0, 3 floats), normal (12, 3
 * floats), texcoord (24, 2 floats), stride 32, not normalized; the others
 * disabled with the default value. Anything else is refused.
 */
struct tsr_vertex_attrib {
	uint8_t enabled;       /* VERTEX_ATTRIB_ARRAY_ENABLED, default 0 */
	uint8_t components;    /* VERTEX_ATTRIB_ARRAY_SIZE 1..4, default 4 */
	uint8_t type;          /* enum tsr_attrib_type, VERTEX_ATTRIB_ARRAY_TYPE, default FLOAT */
	uint8_t normalized;    /* VERTEX_ATTRIB_ARRAY_NORMALIZED, default 0 */
	uint32_t buffer;       /* VERTEX_ATTRIB_ARRAY_BUFFER_BINDING: the mesh
	                          (index into resources.meshes) whose vertex
	                          buffer holds the array */
	uint32_t offset;       /* VERTEX_ATTRIB_ARRAY_POINTER, bytes into the buffer, default 0 */
	uint32_t stride;       /* VERTEX_ATTRIB_ARRAY_STRIDE, bytes (0: packed), default 0 */
	float value[4];        /* CURRENT_VERTEX_ATTRIB when disabled, default (0, 0, 0, 1) */
};

/* The element array (ELEMENT_ARRAY_BUFFER_BINDING, glDrawElements'
 * count, type and indices). TBR/IMR: the whole index buffer of the mesh,
 * its type as laid out. */
struct tsr_index_state {
	uint8_t type;          /* enum tsr_index_type */
	uint32_t buffer;       /* the mesh (index into resources.meshes) whose index buffer */
	uint32_t offset;       /* bytes into the index buffer */
	uint32_t count;        /* indices (vertices when type is NONE) */
};

/* DEPTH_FUNC and STENCIL_FUNC values. */
enum tsr_compare_func {
	TSR_FUNC_NEVER = 0,
	TSR_FUNC_LESS,
	TSR_FUNC_EQUAL,
	TSR_FUNC_LEQUAL,
	TSR_FUNC_GREATER,
	TSR_FUNC_NOTEQUAL,
	TSR_FUNC_GEQUAL,
	TSR_FUNC_ALWAYS,
	TSR_FUNC_COUNT,
};

/* Table 6.11 (DEPTH_TEST, DEPTH_FUNC) and 6.12 (DEPTH_WRITEMASK). TBR/IMR:
 * all of it (Early-Z, or late Z after the program's discard; the IMR's
 * HiZ tests LESS and LEQUAL draws only). The frontend: LESS, written
 * unless the material is alpha-blended. */
struct tsr_depth_state {
	uint8_t test;          /* DEPTH_TEST, default 0 */
	uint8_t write;         /* DEPTH_WRITEMASK, default 1 */
	uint8_t func;          /* enum tsr_compare_func, DEPTH_FUNC, default LESS */
};

enum tsr_stencil_op {
	TSR_STENCIL_KEEP = 0,
	TSR_STENCIL_ZERO,
	TSR_STENCIL_REPLACE,
	TSR_STENCIL_INCR,
	TSR_STENCIL_DECR,
	TSR_STENCIL_INVERT,
	TSR_STENCIL_INCR_WRAP,
	TSR_STENCIL_DECR_WRAP,
	TSR_STENCIL_OP_COUNT,
};

/* One face's stencil state (table 6.11, STENCIL_* and STENCIL_BACK_*;
 * STENCIL_WRITEMASK of 6.12). TBR/IMR: all of it, on an 8-bit stencil
 * buffer (GL ES 2.0 4.1.5): ref clamped to 0..255, the masks' low 8 bits
 * (raster/binding.c). */
struct tsr_stencil_face {
	uint8_t func;          /* enum tsr_compare_func, default ALWAYS */
	uint8_t fail;          /* enum tsr_stencil_op, STENCIL_FAIL, default KEEP */
	uint8_t zfail;         /* STENCIL_PASS_DEPTH_FAIL, default KEEP */
	uint8_t zpass;         /* STENCIL_PASS_DEPTH_PASS, default KEEP */
	int32_t ref;           /* STENCIL_REF, default 0 */
	uint32_t value_mask;   /* STENCIL_VALUE_MASK, default all ones */
	uint32_t write_mask;   /* STENCIL_WRITEMASK, default all ones */
};

/*
 * Table 6.11 (STENCIL_TEST). TBR/IMR: all of it (raster/early_z.c): the
 * face is the primitive's (front: `front`, back: `back`, by FRONT_FACE);
 * the stencil test comes after the scissor and before the depth test,
 * both in Early-Z, or both in late Z after shading when the program can
 * discard (its stencil updates depend on the discard). The stencil buffer
 * is 8 bits a pixel, with depth in the TBR's on-chip tile buffer (no
 * memory traffic; never stored) and packed with depth (D24S8) in the
 * IMR's Z buffer (the same 4 bytes a pixel, stream z: a stencil test
 * reads the quad's Z/S, a changed depth or stencil value writes it). With
 * the test off the faces are ignored. The frontend: off.
 */
struct tsr_stencil_state {
	uint8_t test;          /* STENCIL_TEST, default 0 */
	struct tsr_stencil_face front, back;
};

enum tsr_blend_factor {
	TSR_BLEND_ZERO = 0,
	TSR_BLEND_ONE,
	TSR_BLEND_SRC_COLOR,
	TSR_BLEND_ONE_MINUS_SRC_COLOR,
	TSR_BLEND_DST_COLOR,
	TSR_BLEND_ONE_MINUS_DST_COLOR,
	TSR_BLEND_SRC_ALPHA,
	TSR_BLEND_ONE_MINUS_SRC_ALPHA,
	TSR_BLEND_DST_ALPHA,
	TSR_BLEND_ONE_MINUS_DST_ALPHA,
	TSR_BLEND_CONSTANT_COLOR,
	TSR_BLEND_ONE_MINUS_CONSTANT_COLOR,
	TSR_BLEND_CONSTANT_ALPHA,
	TSR_BLEND_ONE_MINUS_CONSTANT_ALPHA,
	TSR_BLEND_SRC_ALPHA_SATURATE,
	/* GL_EXT_blend_func_extended: the fragment's second source color
	 * (gl_SecondaryFragColorEXT) */
	TSR_BLEND_SRC1_COLOR,
	TSR_BLEND_ONE_MINUS_SRC1_COLOR,
	TSR_BLEND_SRC1_ALPHA,
	TSR_BLEND_ONE_MINUS_SRC1_ALPHA,
	TSR_BLEND_FACTOR_COUNT,
};

enum tsr_blend_equation {
	TSR_BLEND_EQ_ADD = 0,
	TSR_BLEND_EQ_SUBTRACT,
	TSR_BLEND_EQ_REVERSE_SUBTRACT,
	TSR_BLEND_EQ_COUNT,
};

/*
 * Table 6.11 (BLEND, BLEND_SRC/DST_RGB/ALPHA, BLEND_EQUATION_RGB/ALPHA,
 * BLEND_COLOR). TBR/IMR: all of it (raster/blend.c): source-over (rgb
 * SRC_ALPHA / ONE_MINUS_SRC_ALPHA, alpha ONE / ONE_MINUS_SRC_ALPHA, ADD,
 * the frontend's for alpha-blended materials) in SSE2 with the source
 * alpha clamped to [0, 1]; any other factors and equations per GL ES 2.0
 * 4.1.6 with source, destination, constant and result clamped to [0, 1]
 * (a fixed-point color buffer); the SRC1 factors take the program's second
 * source color (GL_EXT_blend_func_extended), SRC_ALPHA_SATURATE is a
 * destination factor too.
 */
struct tsr_blend_state {
	uint8_t enable;        /* BLEND, default 0 */
	uint8_t src_rgb;       /* enum tsr_blend_factor, default ONE */
	uint8_t dst_rgb;       /* default ZERO */
	uint8_t src_alpha;     /* default ONE */
	uint8_t dst_alpha;     /* default ZERO */
	uint8_t eq_rgb;        /* enum tsr_blend_equation, default ADD */
	uint8_t eq_alpha;      /* default ADD */
	float color[4];        /* BLEND_COLOR, default (0, 0, 0, 0) */
};

/* Table 6.4 (VIEWPORT, DEPTH_RANGE; x, y the lower-left corner, y up).
 * TBR/IMR: all of it (geometry/cull.c's viewport transform; nothing is
 * drawn outside a viewport that leaves part of the target out:
 * raster/binding.c). The frontend: the whole target, [0, 1]. */
struct tsr_viewport_state {
	int32_t x, y;          /* pixels, default 0 */
	uint32_t width, height; /* pixels, default the window's size */
	float depth_near, depth_far; /* DEPTH_RANGE, default 0 and 1 */
};

/* Table 6.11 (SCISSOR_TEST, SCISSOR_BOX; x, y the lower-left corner, y
 * up, as GL has it). TBR/IMR: all of it (the Rasterizer walks only the
 * box; primitives are binned as without it). */
struct tsr_scissor_state {
	uint8_t enable;        /* default 0 */
	int32_t x, y;          /* pixels */
	uint32_t width, height;
};

enum tsr_cull_face { TSR_CULL_BACK = 0, TSR_CULL_FRONT, TSR_CULL_FRONT_AND_BACK };
enum tsr_front_face { TSR_FRONT_CCW = 0, TSR_FRONT_CW };

/* Table 6.5 (CULL_FACE, CULL_FACE_MODE, FRONT_FACE). TBR/IMR: all of it
 * (geometry/cull.c); the frontend culls BACK faces, CCW in front, of the
 * materials that are not double_sided (whose vertex shader lights both
 * sides: that stays the material's). */
struct tsr_cull_state {
	uint8_t enable;        /* CULL_FACE, default 0 */
	uint8_t face;          /* enum tsr_cull_face, default BACK */
	uint8_t front_face;    /* enum tsr_front_face, default CCW */
};

/* Table 6.5 (POLYGON_OFFSET_FILL, _FACTOR, _UNITS) and
 * GL_EXT_polygon_offset_clamp's POLYGON_OFFSET_CLAMP_EXT. TBR/IMR: all of
 * it (geometry/cull.c: m * factor + r * units, r of a 24-bit depth buffer,
 * then limited to clamp when clamp is not 0). The frontend: off. */
struct tsr_polygon_offset_state {
	uint8_t enable;        /* default 0 */
	float factor;          /* default 0 */
	float units;           /* default 0 */
	float clamp;           /* default 0: none; > 0: the offset is at most clamp,
	                          < 0: at least clamp (depth units) */
};

/* Color write mask (table 6.12, COLOR_WRITEMASK), one bit per channel. */
#define TSR_COLOR_MASK_R 1u
#define TSR_COLOR_MASK_G 2u
#define TSR_COLOR_MASK_B 4u
#define TSR_COLOR_MASK_A 8u
#define TSR_COLOR_MASK_ALL 15u   /* the default; TBR/IMR: every mask (a partial
                                    one reads the color buffer, as blending does) */

enum tsr_tex_filter {
	TSR_TEX_NEAREST = 0,
	TSR_TEX_LINEAR,
	TSR_TEX_NEAREST_MIPMAP_NEAREST,
	TSR_TEX_LINEAR_MIPMAP_NEAREST,
	TSR_TEX_NEAREST_MIPMAP_LINEAR,
	TSR_TEX_LINEAR_MIPMAP_LINEAR,
	TSR_TEX_FILTER_COUNT,
};

enum tsr_tex_wrap {
	TSR_TEX_REPEAT = 0,
	TSR_TEX_CLAMP_TO_EDGE,
	TSR_TEX_MIRRORED_REPEAT,
	TSR_TEX_WRAP_COUNT,
};

/*
 * One texture image unit (tables 6.7, TEXTURE_BINDING_2D, and 6.8, the
 * bound texture's TEXTURE_MIN/MAG_FILTER, TEXTURE_WRAP_S/T; mipmaps are
 * the image's full chain, built by the GPU as glGenerateMipmap would).
 * TBR/IMR: a program draw's units, every filter and wrap; a material
 * draw's unit 0 only, the material's texture, with (mag, min) filters
 * (NEAREST, NEAREST_MIPMAP_NEAREST), (LINEAR, LINEAR_MIPMAP_NEAREST) or
 * (LINEAR, LINEAR_MIPMAP_LINEAR) and wrap_s == wrap_t, REPEAT or
 * CLAMP_TO_EDGE; units 1..7 unbound.
 */
struct tsr_texture_unit {
	int32_t image;         /* index into resources.images, -1: none bound (default) */
	uint8_t min_filter;    /* enum tsr_tex_filter, default NEAREST_MIPMAP_LINEAR */
	uint8_t mag_filter;    /* default LINEAR */
	uint8_t wrap_s;        /* enum tsr_tex_wrap, default REPEAT */
	uint8_t wrap_t;        /* default REPEAT */
};

/* Clear mask bits (glClear's COLOR/DEPTH/STENCIL_BUFFER_BIT). */
#define TSR_CLEAR_COLOR 1u
#define TSR_CLEAR_DEPTH 2u
#define TSR_CLEAR_STENCIL 4u

/*
 * What a pass does with each buffer at its start: clear it (glClear
 * before the pass's first draw, with table 6.12's COLOR_CLEAR_VALUE,
 * DEPTH_CLEAR_VALUE, STENCIL_CLEAR_VALUE; `scissored` when SCISSOR_TEST
 * was on), leave it undefined (`invalidate`: its previous contents are
 * not needed, as EXT_discard_framebuffer or EGL_BUFFER_DESTROYED say), or
 * else keep its previous contents, which a TBR loads from memory into
 * each tile before the tile's first primitive (the tile-load traffic of
 * real TBR GPUs; Mali calls it preload). TBR/IMR: color cleared, loaded or
 * invalidated; depth cleared to 1.0 or invalidated (a depth target's
 * pass: depth cleared); stencil cleared to `stencil` (its low 8 bits:
 * the driver applies STENCIL_WRITEMASK) or invalidated, only when a draw
 * of the pass tests it (else it is not touched); not scissored. An
 * invalidated buffer is cleared to its clear value without any memory
 * access, so that both pipelines give the same image. A loaded color
 * buffer: the TBR reads each tile's pixels (4 bytes each, stream color;
 * a render target's texels, stream render_target) before its primitives;
 * the IMR keeps a render target's contents in place and copies the
 * previous frame's image into the back buffer (EGL_BUFFER_PRESERVED: a
 * read and a write of every pixel, stream display). A pass that stores
 * its depth into a depth texture (store_depth) may keep the depth an
 * earlier pass stored there (neither cleared nor invalidated:
 * tsr_pass_loads_depth()): loaded from that texture. Refused: any other
 * depth buffer loaded (no pass stores its depth tiles), a stencil buffer loaded
 * by a pass that tests it (no pass stores its stencil either), a
 * scissored clear, a depth clear value other than 1.0, a loaded color
 * buffer with the techniques on (a tile's
 * colors then depend on more than its signed inputs).
 */
struct tsr_clear_state {
	uint8_t mask;          /* TSR_CLEAR_* bits: the buffers cleared */
	uint8_t scissored;     /* 1: only the scissor box is cleared */
	float color[4];        /* RGBA 0..1, default (0, 0, 0, 0) */
	float depth;           /* default 1 */
	int32_t stencil;       /* STENCIL_CLEAR_VALUE, default 0 (low 8 bits used) */
	uint8_t invalidate;    /* TSR_CLEAR_* bits: buffers neither cleared nor
	                          loaded (their contents undefined) */
};

/* The framebuffer a draw renders into (table 6.14, FRAMEBUFFER_BINDING
 * and its attachments). */
#define TSR_ATTACH_NONE (-1)      /* no such attachment */
#define TSR_ATTACH_DEFAULT (-2)   /* the default framebuffer's own buffer */

/* TBR/IMR: the framebuffer of the draw's pass: the default framebuffer
 * (color and depth DEFAULT), a color render target (its image, depth
 * DEFAULT: the GPU's depth buffer), or a depth render target (color
 * NONE, depth its image); a draw into another is refused (a framebuffer
 * change starts a new pass). */
struct tsr_framebuffer_state {
	int32_t color;         /* COLOR_ATTACHMENT0: an image index, or TSR_ATTACH_* */
	int32_t depth;         /* DEPTH_ATTACHMENT: an image index, or TSR_ATTACH_* */
};

/*
 * A draw call's whole fixed-function state: what a GL ES 2.0 context holds
 * when glDrawElements / glDrawArrays is called, plus what the shader
 * program does that fixed function depends on (its discard).
 */
struct tsr_draw_state {
	uint8_t mode;          /* enum tsr_prim_mode */
	float line_width;      /* LINE_WIDTH as set (glLineWidth), default 1: the
	                          pipelines round it and clamp it to
	                          [1, TSR_LINE_WIDTH_MAX] (GL ES 2.0 3.4.2) */
	struct tsr_index_state index;
	struct tsr_vertex_attrib attribs[TSR_MAX_VERTEX_ATTRIBS];
	struct tsr_viewport_state viewport;
	struct tsr_scissor_state scissor;
	struct tsr_cull_state cull;
	struct tsr_polygon_offset_state polygon_offset;
	struct tsr_depth_state depth;
	struct tsr_stencil_state stencil;
	struct tsr_blend_state blend;
	uint8_t color_mask;    /* TSR_COLOR_MASK_* bits, default ALL */
	uint8_t draw_buffers;  /* GL_EXT_draw_buffers: bit i set when the pass's color
	                          target i (0..3; struct tsr_cmd_pass mrt) is written,
	                          each with the one blend state and color mask above;
	                          0 (the default): target 0 alone */
	struct tsr_texture_unit textures[TSR_MAX_TEXTURE_UNITS];
	struct tsr_framebuffer_state framebuffer;
	/* The program's: the fragment shader discards the fragments whose
	 * alpha is below alpha_cutoff (so depth is tested and written after
	 * shading: late Z). TBR/IMR: as the draw's material says (its
	 * TSR_BLEND_ALPHA_TEST and alpha_cutoff). */
	uint8_t discard;
	float alpha_cutoff;
};

/* The index type mesh m's index buffer is laid out with: U16 for at most
 * 65,536 vertices, else U32 (pipeline/gpu.c lays index buffers out so). */
enum tsr_index_type tsr_mesh_index_type(const struct tsr_mesh *m);

/* Fills *s with the GL ES 2.0 initial state (every default above; the
 * viewport width x height pixels, framebuffer the default one). */
void tsr_draw_state_default(struct tsr_draw_state *s, uint32_t width, uint32_t height);

/*
 * Sets the fields of *s that material m implies as the pipelines draw it
 * today: cull (back faces, unless double_sided), depth (LESS; written
 * unless alpha-blended), blend (source-over when alpha-blended), the
 * program's discard (alpha-tested) and texture unit 0 (m's texture, its
 * filter and wrap). The other fields are left as they are.
 */
void tsr_draw_state_material(struct tsr_draw_state *s, const struct tsr_material *m);

/*
 * Fills *s with the state that draws mesh `mesh` of r with material
 * `material` into a target of width x height pixels as the pipelines do
 * today (from the material: blend, depth, discard, texture unit 0; back
 * faces culled unless the material is double_sided),
 * into framebuffer fb.
 */
void tsr_draw_state_from_material(struct tsr_draw_state *s, const struct tsr_resources *r,
				  uint32_t mesh, uint32_t material, uint32_t width,
				  uint32_t height, struct tsr_framebuffer_state fb);

/*
 * Checks that the pipeline named `pipeline` ("TBR", "IMR": for the
 * message) implements state s of draw `draw` (of the frame, for the
 * message), drawn with mesh `mesh` and material `material` of r into
 * framebuffer fb of width x height pixels. The pipelines read the material
 * for what the state mirrors, so s must be the material's state.
 * Errors: TSR_ERR_UNSUPPORTED naming the first state that is not
 * implemented ("draw 3: primitive mode 'points' is not supported by the
 * TBR pipeline yet"); TSR_ERR_INTERNAL for a value out of its enum or a
 * resource index out of range.
 */
enum tsr_status tsr_draw_state_check(const struct tsr_draw_state *s, const char *pipeline,
				     uint32_t draw, const struct tsr_resources *r,
				     uint32_t mesh, uint32_t material, uint32_t width,
				     uint32_t height, struct tsr_framebuffer_state fb,
				     struct tsr_error *err);

/*
 * Checks that the pipeline named `pipeline` implements clear c of pass
 * `pass`. Errors: TSR_ERR_UNSUPPORTED naming the clear state.
 */
enum tsr_status tsr_clear_state_check(const struct tsr_clear_state *c, const char *pipeline,
				      uint32_t pass, struct tsr_error *err);

#endif
