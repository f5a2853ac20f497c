/*
 * gles_priv.h - the GL ES 2.0 context's objects and state, shared by the
 * files of src/gles (not part of the public interface).
 */
#ifndef TSR_GLES_GLES_PRIV_H
#define TSR_GLES_GLES_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "gles/gles.h"
#include "shader/shader.h"

/* A namespace: objects indexed by name (1..cap-1); `reserved` marks names
 * handed out by Gen* (or taken by Bind*) that may have no object yet. */
struct gles_names {
	void **objs;
	uint8_t *reserved;
	uint32_t cap;
};

struct gles_buffer {
	GLuint name;
	uint8_t *data;
	GLsizeiptr size;        /* BUFFER_SIZE, bytes */
	GLenum usage;           /* BUFFER_USAGE, default STATIC_DRAW */
	bool mapped;            /* BUFFER_MAPPED_OES */
	char *label;            /* ObjectLabelKHR's, or NULL */
};

/* One image of a texture (a level of a 2D texture or of a cube face). */
struct gles_image {
	GLsizei width, height;  /* 0: no image */
	GLenum format;          /* internal format: RGB, RGBA, ALPHA, LUMINANCE,
	                           LUMINANCE_ALPHA, DEPTH_COMPONENT */
	GLenum type;            /* the type it was specified with */
	uint8_t *texels;        /* RGBA8, or one float (depth) per texel */
	bool generated;         /* made by GenerateMipmap (not uploaded) */
};

struct gles_texture {
	GLuint name;            /* 0: a unit's default texture */
	GLenum target;          /* TEXTURE_2D or TEXTURE_CUBE_MAP, 0 until bound */
	uint32_t refs;          /* the name (until deleted) + framebuffer attachments */
	uint64_t serial;        /* unique in the process: names are reused, objects not */
	GLenum min_filter, mag_filter, wrap_s, wrap_t;
	struct gles_image images[6][TSR_GLES_MAX_LEVELS]; /* [face][level]; face 0 for 2D */
	char *label;            /* ObjectLabelKHR's, or NULL */
};

struct gles_renderbuffer {
	GLuint name;
	uint64_t serial;        /* unique in the process (top bit set: no texture's) */
	uint32_t refs;          /* the name (until deleted) + framebuffer attachments */
	GLsizei width, height;
	GLenum format;          /* RENDERBUFFER_INTERNAL_FORMAT, default RGBA4 */
	char *label;            /* ObjectLabelKHR's, or NULL */
};

/* attachment points; COLOR1..3: GL_EXT_draw_buffers' COLOR_ATTACHMENT1..3_EXT */
enum { GLES_ATTACH_COLOR0 = 0, GLES_ATTACH_DEPTH, GLES_ATTACH_STENCIL, GLES_ATTACH_COLOR1,
       GLES_ATTACH_COLOR2, GLES_ATTACH_COLOR3, GLES_ATTACH_COUNT };

struct gles_attachment {
	GLenum type;            /* NONE, TEXTURE or RENDERBUFFER */
	struct gles_texture *tex;
	struct gles_renderbuffer *rb;
	GLint level;
	GLenum face;            /* TEXTURE_CUBE_MAP_POSITIVE_X.., or 0 for 2D */
};

struct gles_framebuffer {
	GLuint name;
	struct gles_attachment att[GLES_ATTACH_COUNT];
	char *label;            /* ObjectLabelKHR's, or NULL */
	uint8_t draw_buffers;   /* DrawBuffersEXT's: bit i set when DRAW_BUFFERi_EXT is
	                           COLOR_ATTACHMENTi (else NONE); 1 at creation */
};

enum gles_sp_kind { GLES_SHADER = 1, GLES_PROGRAM = 2 };

struct gles_shader {
	enum gles_sp_kind kind; /* GLES_SHADER */
	GLuint name;
	GLenum type;            /* VERTEX_SHADER or FRAGMENT_SHADER */
	char *source;           /* NULL: none */
	struct tsr_shader *compiled; /* the last CompileShader's result */
	bool delete_pending;
	uint32_t attached;      /* programs it is attached to */
	char *label;            /* ObjectLabelKHR's, or NULL */
};

struct gles_binding {
	char *name;
	GLuint index;
};

struct gles_program {
	enum gles_sp_kind kind; /* GLES_PROGRAM */
	GLuint name;
	struct gles_shader *vs, *fs; /* attached */
	struct tsr_program *linked;  /* the last LinkProgram's result */
	struct tsr_program *exe;     /* the executable in use: the last successful
	                                link's, kept while the program is current
	                                after a failed relink (2.10.3); NULL if none */
	bool link_status, validate_status, delete_pending;
	char *validate_log;
	struct gles_binding *bindings; /* BindAttribLocation, applied at the next link */
	uint32_t binding_count;
	char *label;            /* ObjectLabelKHR's, or NULL */
};

struct gles_attrib {
	GLboolean enabled;
	GLint size;
	GLenum type;
	GLboolean normalized;
	GLsizei stride;
	const void *pointer;
	GLuint buffer;
	GLfloat current[4];
};

struct gles_stencil_face {
	GLenum func;
	GLint ref;
	GLuint value_mask, write_mask;
	GLenum fail, zfail, zpass;
};

/* GL_KHR_debug (debug.c). */
struct gles_debug_rule {       /* one DebugMessageControl call (or one of its ids) */
	GLenum source, type, severity;  /* DONT_CARE: any */
	GLuint id;
	bool has_id;
	bool enabled;
};

struct gles_debug_group {      /* a level of the debug group stack */
	struct gles_debug_rule *rules; /* its volume control, in call order */
	uint32_t rule_count, rule_cap;
	GLenum source;           /* PushDebugGroupKHR's (the pop message repeats them) */
	GLuint id;
	char *message;
	GLsizei length;
};

struct gles_debug_message {
	GLenum source, type, severity;
	GLuint id;
	GLsizei length;          /* characters, without the NUL */
	char *text;
};

struct gles_debug {
	GLboolean output, synchronous; /* DEBUG_OUTPUT (default FALSE), _SYNCHRONOUS */
	GLDEBUGPROCKHR callback;
	const void *user;
	uint32_t depth;          /* DEBUG_GROUP_STACK_DEPTH - 1 */
	struct gles_debug_group groups[TSR_GLES_MAX_DEBUG_GROUP_STACK_DEPTH];
	struct gles_debug_message log[TSR_GLES_MAX_DEBUG_LOGGED_MESSAGES]; /* a ring */
	uint32_t log_first, log_count;
};

struct tsr_gles_context {
	GLenum error;
	struct gles_debug debug;
	struct tsr_gles_config config;
	GLsizei width, height;   /* the default framebuffer */
	struct gles_names buffers, textures, renderbuffers, framebuffers, shprogs;

	GLuint array_buffer, element_array_buffer;
	struct gles_attrib attribs[TSR_GLES_MAX_VERTEX_ATTRIBS];

	GLint viewport[4];
	GLfloat depth_range[2];
	GLfloat line_width;
	GLenum cull_face_mode, front_face;
	GLfloat polygon_offset_factor, polygon_offset_units;
	GLfloat polygon_offset_clamp;  /* POLYGON_OFFSET_CLAMP_EXT, default 0 */
	GLint scissor[4];
	GLfloat sample_coverage_value;
	GLboolean sample_coverage_invert;
	GLboolean cull_face, polygon_offset_fill, sample_alpha_to_coverage, sample_coverage,
		scissor_test, stencil_test, depth_test, blend, dither;
	struct gles_stencil_face stencil[2]; /* front, back */
	GLenum depth_func;
	GLboolean depth_mask;
	GLenum blend_src_rgb, blend_dst_rgb, blend_src_alpha, blend_dst_alpha;
	GLenum blend_eq_rgb, blend_eq_alpha;
	GLfloat blend_color[4];
	GLboolean color_mask[4];
	uint8_t default_draw_none; /* DrawBuffersEXT(1, {NONE}) on the default framebuffer */
	GLfloat clear_color[4];
	GLfloat clear_depth;
	GLint clear_stencil;
	GLint pack_alignment, unpack_alignment;
	GLint unpack_row_length, unpack_skip_rows, unpack_skip_pixels; /* EXT_unpack_subimage */
	GLenum generate_mipmap_hint, derivative_hint;

	GLuint active_texture;   /* unit index */
	struct gles_texture *bound_2d[TSR_GLES_MAX_TEXTURE_UNITS];   /* never NULL */
	struct gles_texture *bound_cube[TSR_GLES_MAX_TEXTURE_UNITS]; /* never NULL */
	struct gles_texture *default_2d, *default_cube; /* texture 0 of each target */

	struct gles_framebuffer *framebuffer;   /* the draw framebuffer (FRAMEBUFFER_BINDING =
						   DRAW_FRAMEBUFFER_BINDING_NV), NULL: the
						   default one */
	struct gles_framebuffer *read_framebuffer; /* READ_FRAMEBUFFER_BINDING_NV
						   (GL_NV_framebuffer_blit: ReadPixels' and
						   CopyTex*'s source), NULL: the default one */
	GLuint renderbuffer;                    /* RENDERBUFFER_BINDING */
	struct gles_program *program;           /* CURRENT_PROGRAM, or NULL */
	tsr_gles_read_pixels_fn read_pixels;    /* CopyTex*'s source, or NULL */
	void *read_pixels_user;
};

/*
 * The binding a framebuffer target names: FRAMEBUFFER and
 * DRAW_FRAMEBUFFER_NV the draw framebuffer's, READ_FRAMEBUFFER_NV the read
 * framebuffer's (GL_NV_framebuffer_blit); NULL for another target.
 */
static inline struct gles_framebuffer **gles_fb_binding(struct tsr_gles_context *ctx,
							 GLenum target)
{
	return target == GL_FRAMEBUFFER || target == GL_DRAW_FRAMEBUFFER_NV ? &ctx->framebuffer
	       : target == GL_READ_FRAMEBUFFER_NV ? &ctx->read_framebuffer : NULL;
}

/* The bits per channel of framebuffer fb (NULL: the default one): [R, G, B,
 * A, depth, stencil] (get.c). */
void gles_framebuffer_bits(const struct tsr_gles_context *ctx, const struct gles_framebuffer *fb,
			   GLint bits[6]);

/* 6.1.2's float-to-integer conversion of a Get: rounded to the nearest
 * integer, clamped to GLint's range (NaN: 0). */
GLint gles_round_int(GLfloat f);

/* Records error e unless one is already pending. */
void gles_error(struct tsr_gles_context *ctx, GLenum e);

/* Frees the debug state (debug.c). */
void gles_debug_release(struct tsr_gles_context *ctx);
/* The KHR_debug integer pname's value in *v; false for another pname. */
bool gles_debug_get(const struct tsr_gles_context *ctx, GLenum pname, GLint *v);

/* Namespace helpers (objects.c). */
void *gles_names_get(const struct gles_names *ns, GLuint name);
/* Marks n unused names reserved and returns them. false: out of memory. */
bool gles_names_gen(struct gles_names *ns, GLsizei n, GLuint *names);
/* Stores obj under name (reserving it); false: out of memory / too large. */
bool gles_names_put(struct gles_names *ns, GLuint name, void *obj);
/* Frees the name. */
void gles_names_remove(struct gles_names *ns, GLuint name);
void gles_names_release(struct gles_names *ns);

/* 3.7.10 with 3.8.2: t samples its images (else (0, 0, 0, 1)). */
bool gles_texture_complete(const struct gles_texture *t);
/* The six faces' level 0 are square, of one size and format. */
bool gles_texture_cube_complete(const struct gles_texture *t);

/* Texture, framebuffer and program lifetime (texture.c, framebuffer.c,
 * program.c); each frees what the name or attachment held. */
void gles_texture_unref(struct gles_texture *t);
void gles_renderbuffer_unref(struct gles_renderbuffer *rb);
void gles_shader_free(struct gles_shader *s);
void gles_program_free(struct gles_program *p);
/* Called when p stops being current: deletes it if it was flagged. */
void gles_program_uncurrent(struct tsr_gles_context *ctx, struct gles_program *p);

#endif
