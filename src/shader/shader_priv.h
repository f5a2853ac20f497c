/*
 * shader_priv.h - what the files of src/shader share: a compiled stage's
 * lowered code and interface (lower.c makes it, link.c binds two of them,
 * exec.c runs them). Included only inside src/shader.
 */
#ifndef TSR_SHADER_PRIV_H
#define TSR_SHADER_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shader/shader.h"

/* GL type enums (GL ES 2.0, Table 2.9 and 2.10) */
#define TSR_GL_FLOAT 0x1406
#define TSR_GL_INT 0x1404
#define TSR_GL_BOOL 0x8B56
#define TSR_GL_FLOAT_VEC2 0x8B50
#define TSR_GL_FLOAT_VEC3 0x8B51
#define TSR_GL_FLOAT_VEC4 0x8B52
#define TSR_GL_INT_VEC2 0x8B53
#define TSR_GL_INT_VEC3 0x8B54
#define TSR_GL_INT_VEC4 0x8B55
#define TSR_GL_BOOL_VEC2 0x8B57
#define TSR_GL_BOOL_VEC3 0x8B58
#define TSR_GL_BOOL_VEC4 0x8B59
#define TSR_GL_FLOAT_MAT2 0x8B5A
#define TSR_GL_FLOAT_MAT3 0x8B5B
#define TSR_GL_FLOAT_MAT4 0x8B5C
#define TSR_GL_SAMPLER_2D 0x8B5E
#define TSR_GL_SAMPLER_CUBE 0x8B60

/* Built-in variables of the interface. */
enum tsr_sh_builtin {
	TSR_SH_BI_NONE = 0,
	TSR_SH_BI_POSITION,     /* gl_Position (vertex output) */
	TSR_SH_BI_POINT_SIZE,   /* gl_PointSize (vertex output) */
	TSR_SH_BI_FRAG_COORD,   /* gl_FragCoord */
	TSR_SH_BI_FRONT_FACING, /* gl_FrontFacing */
	TSR_SH_BI_POINT_COORD,  /* gl_PointCoord */
	TSR_SH_BI_FRAG_COLOR,   /* gl_FragColor (every draw buffer's color) */
	TSR_SH_BI_FRAG_DATA,    /* gl_FragData[k] (draw buffer k's color; the link's
				   outputs: one per element, index k) */
	TSR_SH_BI_FRAG_DEPTH,   /* gl_FragDepthEXT (GL_EXT_frag_depth) */
	TSR_SH_BI_LAST_FRAG_DATA, /* gl_LastFragData (GL_EXT_shader_framebuffer_fetch),
				     renamed tsr_LastFragData by the frontend */
	TSR_SH_BI_SECONDARY_COLOR, /* gl_SecondaryFragColorEXT, gl_SecondaryFragDataEXT[0]
				      (GL_EXT_blend_func_extended: the blend's second
				      source color) */
};

/*
 * One leaf of a stage's interface: a variable of basic type (or array of
 * one), struct members already flattened to "s.a" and arrays of structs to
 * "s[i].a". Registers: element e, column k at reg + e * cols + k.
 */
struct tsr_sh_leaf {
	char name[TSR_SHADER_MAX_NAME]; /* GL name without "[0]" */
	uint32_t gltype;        /* GL type enum */
	uint32_t array_size;    /* elements (1 for a non-array) */
	uint16_t reg;           /* register of element 0, column 0 (bank bit for uniforms) */
	uint8_t cols;           /* registers per element (matrix columns, else 1) */
	uint8_t comps;          /* components per register */
	uint8_t is_array;       /* declared as an array: named "a[0]" when reported */
	uint8_t builtin;        /* enum tsr_sh_builtin */
	uint8_t sampler;        /* 0 none, 1 2D, 2 cube */
	uint8_t relaxed;        /* declared mediump or lowp (SPIR-V RelaxedPrecision on the
				   variable; 0: highp) */
	uint8_t invariant;      /* declared invariant (SPIR-V Invariant) */
};

/* A compiled stage: the code and its interface. */
struct tsr_sh_stage {
	struct tsr_sh_inst *code;
	uint32_t count;               /* instructions */
	uint32_t regs;                /* per-lane registers */
	uint32_t uniform_regs;        /* constant-bank registers 0..n-1 hold uniforms */
	uint32_t const_regs;          /* constant-bank registers in all (uniforms, then literals) */
	float (*consts)[4];           /* constant bank's initial values [const_regs][4] */
	struct tsr_sh_leaf *inputs, *outputs, *uniforms;
	uint32_t n_inputs, n_outputs, n_uniforms;
};

struct tsr_shader {
	enum tsr_shader_stage stage;
	bool compiled;
	char *log;
	char *declared;               /* the varyings (outputs) the source declares, even
					 unused ones the optimizer removed: names, each
					 NUL-terminated, an empty one last; NULL: none */
	struct tsr_sh_stage st;
};

/* One register of a linked stage's interface and where it goes. */
struct tsr_sh_io {
	uint16_t reg;        /* per-lane register */
	uint8_t index;       /* varying slot or attribute location (kind NONE) */
	uint8_t kind;        /* enum tsr_sh_builtin; NONE: a varying or an attribute */
};

/* A stage of a linked program: its code, its constant bank with the
 * program's uniform values (broadcast: [register][component][lane]) and
 * its interface. */
struct tsr_prog_stage {
	struct tsr_sh_inst *code;
	uint32_t count;
	uint32_t regs;
	uint32_t const_regs;
	float *cbank;                 /* 16-byte aligned, const_regs x 16 floats */
	struct tsr_sh_io *in, *out;
	uint32_t n_in, n_out;
};

/* A uniform location: one element of an active uniform. */
struct tsr_sh_uloc {
	uint32_t gltype;
	uint8_t comps, cols, sampler;
	uint16_t remaining;           /* elements from this one to the end of its array */
	uint16_t reg[2];              /* constant register per stage (no bank bit), 0xffff: unused there */
};

struct tsr_program {
	uint64_t serial;              /* tsr_program_serial() */
	bool linked;
	char *log;
	struct tsr_prog_stage st[2];
	struct tsr_shader_var *attribs, *uniforms;
	uint32_t n_attribs, n_uniforms;
	struct tsr_sh_uloc *locs;
	uint32_t n_locs;
	struct tsr_shader_var *varyings; /* name, type, size, location = first slot */
	uint32_t n_varyings, n_slots;
	uint32_t holders;             /* snapshot execution states holding it, besides
	                                 its owner (tsr_program_destroy() frees it when
	                                 none is left) */
	bool destroyed;               /* its owner destroyed it */
};

/* Text growing on the heap (logs); an allocation failure sets failed. */
struct tsr_sh_text {
	char *s;
	size_t len, cap;
	bool failed;
};
void tsr_sh_text_add(struct tsr_sh_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void tsr_sh_stage_release(struct tsr_sh_stage *st);

/* A snapshot execution state holds its program alive past its owner's
 * tsr_program_destroy() (a relink, a glDeleteProgram) until released. */
void tsr_sh_program_hold(struct tsr_program *p);
void tsr_sh_program_release(struct tsr_program *p);

/*
 * GLSL ES 1.00 source -> SPIR-V words (flattened to one function) with
 * glslang and SPIRV-Tools (frontend.c), and in *declared the names of the
 * outputs the source declares before optimization (struct tsr_shader's
 * list; NULL when none). On a compile error returns TSR_OK with *words
 * NULL and the log in log. Errors: TSR_ERR_NOMEM, TSR_ERR_INTERNAL.
 */
enum tsr_status tsr_sh_frontend(enum tsr_shader_stage stage, const char *source,
				uint32_t **words, size_t *word_count, char **declared,
				struct tsr_sh_text *log, struct tsr_error *err);

/*
 * SPIR-V -> ISA (lower.c). On a construct it cannot lower returns
 * TSR_ERR_UNSUPPORTED with the construct named in err. Errors also
 * TSR_ERR_NOMEM, TSR_ERR_PARSE (malformed SPIR-V), TSR_ERR_LIMIT (too many
 * registers, instructions or nesting levels).
 */
enum tsr_status tsr_sh_lower(enum tsr_shader_stage stage, const uint32_t *words, size_t count,
			     struct tsr_sh_stage *out, struct tsr_error *err);

/*
 * Renames the per-lane registers of a lowered stage so that registers of
 * disjoint live ranges share one (regalloc.c); st->regs shrinks. Errors:
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_sh_regalloc(struct tsr_sh_stage *st, struct tsr_error *err);

/* The C++ shim over spirv-tools' optimizer (spirv_opt.cpp): runs the passes
 * of frontend.c; 0 on success with *out malloc'ed, else nonzero with a
 * message in msg. */
int tsr_sh_spirv_optimize(const uint32_t *words, size_t count, uint32_t **out,
			  size_t *out_count, char *msg, size_t msg_cap);

/* Components and columns of a GL type; 0 for an unknown one. */
uint32_t tsr_sh_gltype_comps(uint32_t gltype);
uint32_t tsr_sh_gltype_cols(uint32_t gltype);

#endif
