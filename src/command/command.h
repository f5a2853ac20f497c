/*
 * command.h - the command lists the pipeline consumes: what a frame asks
 * the GPU to do, as a driver would submit it, in plain data.
 *
 * A frontend (a workload today, a replayed GL trace later: frontend/)
 * turns its input into one struct tsr_frame_commands per frame; the
 * pipeline (pipeline/) reads nothing else of the frame: no scene graph, no
 * camera, no animation. Resources are declared once and referenced by
 * index: meshes (index and vertex buffers), materials (fixed-function
 * state, shader programs, the texture they bind) and images (textures) of
 * struct tsr_resources (command/resources.h).
 *
 * A frame is a list of passes. Each pass renders into a render target (the
 * frame buffer, or a texture that a later pass samples: shadow maps,
 * post-processing) after clearing it, with its draw calls in program
 * order. Events (texture uploads) are driver notifications at the frame's
 * start. Version 1 workloads have one pass into the frame buffer; version
 * 2 workloads add passes into render targets (images with render_target
 * set) before the last pass, which draws the frame buffer. The GL ES
 * device may also draw the frame buffer in an earlier pass: a later one
 * that keeps its color continues that pass's image (a framebuffer object
 * drawn between two window passes).
 */
#ifndef TSR_COMMAND_COMMAND_H
#define TSR_COMMAND_COMMAND_H

#include <stdint.h>

#include "command/resources.h"
#include "command/state.h"
#include "core/status.h"
#include "core/vecmath.h"
#include "shader/shader.h"

/* One generic vertex attribute array of a program draw (GL ES 2.0 2.8),
 * as a GL driver resolves it. */
struct tsr_cmd_attrib {
	const uint8_t *data;   /* the array's element 0 as of the draw (the driver's
	                          snapshot: later changes to the buffer do not reach
	                          it); NULL: the array is disabled, `value` is used */
	uint32_t buffer;       /* the raw buffer (index into resources.meshes) whose
	                          region holds it: its addresses */
	uint32_t offset;       /* bytes of element 0 into that region */
	uint32_t stride;       /* bytes between elements (never 0: resolved) */
	uint8_t components;    /* 1..4 */
	uint8_t type;          /* enum tsr_attrib_type */
	uint8_t normalized;
	float value[4];        /* CURRENT_VERTEX_ATTRIB of a disabled array */
};

/*
 * A draw of a linked GL ES 2.0 program (OpenGL ES 2.0.25 2.10, 3.8): its
 * vertex and fragment stages run on the shader cores instead of the
 * material's fixed shading. The driver keeps it (and everything it
 * points to) alive until the frame that names it is finished.
 */
struct tsr_cmd_program {
	struct tsr_shader_exec *vertex;    /* execution states of the program's stages,
	                                      with its uniforms as of the draw */
	struct tsr_shader_exec *fragment;
	uint32_t varying_slots;            /* tsr_program_varying_count() */
	uint32_t attrib_count;             /* locations 0..attrib_count-1 */
	struct tsr_cmd_attrib attribs[TSR_SHADER_MAX_ATTRIBS];
	struct tsr_mesh indices;           /* the index stream: index_count indices
	                                      (u32 values, glDrawArrays' first..first +
	                                      count - 1 too) and vertex_count (the largest
	                                      + 1); no vertex data */
	uint32_t index_buffer;             /* glDrawElements: the raw buffer the indices
	                                      are read from (their addresses) */
	uint32_t index_offset;             /* bytes into it */
	uint8_t index_bytes;               /* 1, 2 or 4; 0: glDrawArrays (no index read) */
	int32_t textures[TSR_SHADER_MAX_TEXTURE_UNITS]; /* the image each texture unit
	                                      samples (resources.images), -1: none */
	uint8_t cube[TSR_SHADER_MAX_TEXTURE_UNITS]; /* 1: the unit is a cube map whose
	                                      six faces (+X, -X, +Y, -Y, +Z, -Z) are
	                                      images textures[u] .. textures[u] + 5
	                                      (square, of one size); 0: a 2D texture */
};

/*
 * One draw call: a mesh's buffers drawn with a material and its constants,
 * under its GL ES 2.0 state (command/state.h). The pipelines read the
 * mesh's buffers, the material as the program (color, lighting,
 * instruction counts) and the state for the fixed function (cull,
 * scissor, depth, blending, color mask, texture unit 0's sampler);
 * anything a pipeline does not implement is refused before the frame
 * starts (tsr_draw_state_check(): TSR_ERR_UNSUPPORTED naming the state;
 * state.h lists what is implemented and what is refused).
 */
struct tsr_cmd_draw {
	uint32_t mesh;            /* index into resources.meshes */
	uint32_t material;        /* index into resources.materials (after uploads) */
	struct tsr_mat4 mvp;      /* constants: object to clip space */
	struct tsr_mat4 model;    /* constants: object to world (lighting) */
	float uv_offset[2];       /* constants: added to the texture coordinates (scrolling) */
	struct tsr_draw_state state; /* the fixed-function state it is drawn with */
	const struct tsr_cmd_program *program; /* a GL ES program draw: the mesh is
	                                          then unused and the material gives
	                                          only the programs' sizes in memory
	                                          (vertex_shader_instructions,
	                                          shader_alu_instructions, no texture);
	                                          NULL: the material's fixed shading */
};

enum tsr_target_kind {
	TSR_TARGET_FRAMEBUFFER = 0,  /* the back buffer, shown at the frame's end */
	TSR_TARGET_TEXTURE,          /* an image a later pass samples (render to texture) */
};

struct tsr_cmd_pass {
	enum tsr_target_kind target;
	uint32_t target_image;    /* TSR_TARGET_TEXTURE: index into resources.images */
	struct tsr_clear_state clear; /* at the pass's start, before the first draw:
	                                 each buffer cleared, invalidated or loaded */
	uint32_t first_draw;      /* draws [first_draw, first_draw + draw_count) */
	uint32_t draw_count;
	uint8_t store_depth;      /* TSR_TARGET_TEXTURE of a color image: the pass's
	                             depth is also stored, into depth_image (a depth
	                             render target, tsr_image.depth, of the same size),
	                             as that target's pass would (a GL framebuffer
	                             object with a color and a depth texture) */
	uint32_t depth_image;     /* with store_depth: index into resources.images */
	uint8_t mrt;              /* GL_EXT_draw_buffers, TSR_TARGET_TEXTURE of a color
	                             image: bit i (1..3) set when color target i,
	                             image mrt_images[i - 1] (a color render target
	                             of target_image's size), is drawn by the pass
	                             too (draws select targets by their state's
	                             draw_buffers); 0: one color target */
	uint8_t mrt_clear;        /* bits of mrt whose target starts cleared to
	                             clear.color; the others are loaded (kept) */
	uint32_t mrt_images[TSR_MAX_DRAW_BUFFERS - 1];
	uint8_t mipmap;           /* TSR_TARGET_TEXTURE of a mipmapped image
	                             (tsr_image.mipmapped): its levels 1.. rebuilt
	                             from level 0 after the pass (glGenerateMipmap
	                             after the pass drew it); no memory traffic is
	                             counted for it */
};

/*
 * A framebuffer blit (GL_NV_framebuffer_blit's BlitFramebufferNV, GL 3.0's
 * BlitFramebuffer): a rectangle of a source buffer copied, scaled and
 * flipped, into a rectangle of a destination buffer, between two passes
 * (after passes [0, before_pass) and before pass before_pass: the
 * passes that drew its source are rendered, the destination's later
 * passes see what it wrote). Rectangles are in GL's window coordinates
 * (origin at the lower left, row 0 the bottom), x0/y0 inclusive, x1/y1
 * exclusive, either way round (x1 < x0: flipped); a destination pixel
 * (x, y) inside the destination rectangle and the scissor box reads the
 * source at u = src_x0 + (x + 0.5 - dst_x0) * (src_x1 - src_x0) /
 * (dst_x1 - dst_x0) (v likewise): NEAREST the texel floor(u), floor(v);
 * LINEAR (color only) the bilinear mix of the four texels around (u -
 * 0.5, v - 0.5), clamped to the source's edges, on the 0..255 scale,
 * rounded to the nearest byte. A destination pixel whose texel floor(u),
 * floor(v) lies outside the source buffer is not written (clipping to the
 * source's bounds); pixels outside the destination buffer are not either.
 * The source is read whole before anything is written (overlapping
 * rectangles of one buffer copy as from a snapshot).
 *
 * Buffers: color from a color render target (an image with render_target
 * set, not depth) or the frame buffer (-1: the back buffer as the frame's
 * passes left it, else the previous frame's image, as a pass that keeps
 * its color loads it) into another or the frame buffer; depth (NEAREST
 * only) from a depth render target (tsr_image.depth) into another of the
 * same kind. Memory traffic: the source's texels read and the
 * destination's written, as the pipelines' tile loads and flushes make it
 * (a render target's 4x4 block rows, stream render_target; the TBR's frame
 * buffer rows, stream color; the IMR's 8x8 blocks, stream display).
 */
struct tsr_cmd_blit {
	uint32_t before_pass;
	uint8_t mask;             /* TSR_CLEAR_COLOR and / or TSR_CLEAR_DEPTH */
	uint8_t linear;           /* 1: LINEAR (color only), 0: NEAREST */
	uint8_t mipmap;           /* a mipmapped color destination (tsr_image.mipmapped):
	                             its levels 1.. rebuilt after the blit (glGenerateMipmap
	                             after it); no traffic counted */
	int32_t src_color, dst_color; /* TSR_CLEAR_COLOR: images (resources.images), -1 the
	                                 frame buffer */
	int32_t src_depth, dst_depth; /* TSR_CLEAR_DEPTH: depth render target images */
	int32_t src[4], dst[4];   /* x0, y0, x1, y1 */
	struct tsr_scissor_state scissor; /* the destination's scissor box (enable 0: none) */
};

enum tsr_event_kind {
	TSR_EVENT_TEXTURE_UPLOAD = 0,  /* new texture contents from this frame on */
};

struct tsr_cmd_event {
	enum tsr_event_kind kind;
	uint32_t image;           /* the image uploaded */
};

/* One frame's commands; arrays grow and are reused from frame to frame. */
struct tsr_frame_commands {
	uint32_t frame;
	uint32_t pass_count, pass_cap;
	struct tsr_cmd_pass *passes;
	uint32_t draw_count, draw_cap;
	struct tsr_cmd_draw *draws;
	uint32_t event_count, event_cap;
	struct tsr_cmd_event *events;
	uint32_t blit_count, blit_cap;
	struct tsr_cmd_blit *blits;  /* in recording order (before_pass never decreases) */
	uint8_t partial;             /* 1: the frame buffer of this frame is drawn by another
					command list too (a mid-frame flush: the list rendered
					for a read before the frame's end, or the rest of the
					frame after it) */
};

/*
 * The framebuffer pass p draws (command/state.h): the default one
 * (TSR_TARGET_FRAMEBUFFER, screen_width x screen_height pixels), a color
 * render target (its image as color, the GPU's depth buffer), or a depth
 * render target (no color, its image as depth); its size in pixels in
 * *width, *height. p's target_image must be an image of r.
 */
struct tsr_framebuffer_state tsr_pass_framebuffer(const struct tsr_cmd_pass *p,
						  const struct tsr_resources *r,
						  uint32_t screen_width, uint32_t screen_height,
						  uint32_t *width, uint32_t *height);

/* 1 when pass p, drawing framebuffer fb (tsr_pass_framebuffer()), keeps
 * its color buffer's previous contents (neither cleared nor invalidated:
 * command/state.h, struct tsr_clear_state). */
int tsr_pass_loads_color(const struct tsr_cmd_pass *p, struct tsr_framebuffer_state fb);

/* 1 when pass p keeps the depth an earlier pass stored into its depth
 * texture: a store_depth pass whose depth is neither cleared nor
 * invalidated (the pipelines load it from depth_image at its start). */
int tsr_pass_loads_depth(const struct tsr_cmd_pass *p);

/* 1 when a draw of pass p (of frame c) enables the stencil test: the
 * pass's stencil buffer is then cleared (or invalidated) at its start and
 * kept with depth; 0: the pass never touches a stencil buffer. */
int tsr_pass_tests_stencil(const struct tsr_frame_commands *c, const struct tsr_cmd_pass *p);

/* 1 when a pass of frame c before its last draws the frame buffer (a
 * window pass a later pass continues: the window, a render target, the
 * window again), or c is a part of its frame (c->partial: a mid-frame
 * flush). Rendering and Transaction Elimination are off in such a frame
 * (techniques/elimination.c). */
int tsr_commands_window_continued(const struct tsr_frame_commands *c);

/*
 * tsr_draw_state_check() for a program draw (d->program = prog): the
 * pipelines implement every primitive mode (points and lines as triangles
 * the Geometry Pipeline makes of them: geometry/geometry.h), any vertex arrays of raw buffers (struct
 * tsr_cmd_attrib) and index buffer, every texture unit with an image
 * (every min and mag filter and wrap, s and t each their own:
 * texture/texture.h's struct tsr_sampler), and the fixed function as for
 * other draws; refused: a framebuffer other than the pass's. Errors:
 * TSR_ERR_UNSUPPORTED naming the state; TSR_ERR_INTERNAL for an index
 * out of range or a malformed attribute (the driver's bug).
 */
enum tsr_status tsr_draw_state_check_program(const struct tsr_draw_state *s, const char *pipeline,
					     uint32_t draw, const struct tsr_resources *r,
					     const struct tsr_cmd_program *prog, uint32_t material,
					     struct tsr_framebuffer_state fb, struct tsr_error *err);

/* Empties the lists for frame `frame` (keeps their storage). */
void tsr_commands_reset(struct tsr_frame_commands *c, uint32_t frame);

/* Appends a pass / a draw to the last pass / an event. Errors: TSR_ERR_NOMEM. */
enum tsr_status tsr_commands_pass(struct tsr_frame_commands *c, const struct tsr_cmd_pass *p,
				  struct tsr_error *err);
enum tsr_status tsr_commands_draw(struct tsr_frame_commands *c, const struct tsr_cmd_draw *d,
				  struct tsr_error *err);
enum tsr_status tsr_commands_event(struct tsr_frame_commands *c,
				   const struct tsr_cmd_event *e, struct tsr_error *err);

/* Appends a blit (its before_pass: the passes recorded so far). Errors:
 * TSR_ERR_NOMEM. */
enum tsr_status tsr_commands_blit(struct tsr_frame_commands *c, const struct tsr_cmd_blit *b,
				  struct tsr_error *err);

/* Frees the lists' storage. */
void tsr_commands_release(struct tsr_frame_commands *c);

#endif
