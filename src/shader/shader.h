/*
 * shader.h - GLSL ES 1.00 shaders compiled to tessera's shader ISA and
 * executed on quads of pixels or groups of 4 vertices.
 *
 * Compilation (OpenGL ES 2.0 specification 2.0.25, Section 2.10; GLSL ES
 * 1.00): glslang parses the source as ES 100 and emits SPIR-V, SPIRV-Tools
 * inlines everything into one function in SSA form, and lower.c turns
 * that into the ISA of isa.h (docs/shader-isa.md). Linking matches the
 * varyings of a vertex and a fragment shader by name, assigns attribute
 * locations and uniform locations, and keeps the uniform storage of the
 * program (written per location, as glUniform* does). Execution interprets
 * the ISA: a fragment program on one quad (4 lanes: (0,0) (1,0) (0,1)
 * (1,1), helper lanes included for derivatives), a vertex program on up to
 * 4 vertices; texture samples go through a callback the caller provides;
 * the instruction mix of each execution is counted.
 *
 * Names reported as GL does (Section 2.10.4): a struct's members as
 * "s.a", arrays as "a[0]" with their size, arrays of structs per element
 * ("s[1].a"). Types are GL enums (GL_FLOAT_VEC3 = 0x8B51, ...).
 *
 * Left out: varying packing (GLSL ES 1.00 Appendix A.7: each varying, array
 * element or matrix column takes a whole vec4 slot), the OES extensions
 * other than OES_standard_derivatives (EXT_frag_depth's gl_FragDepthEXT and
 * EXT_shader_framebuffer_fetch's gl_LastFragData are taken), precision
 * (all arithmetic is IEEE single precision whatever the qualifier).
 */
#ifndef TSR_SHADER_SHADER_H
#define TSR_SHADER_SHADER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"
#include "shader/isa.h"

#define TSR_SHADER_MAX_ATTRIBS 16         /* MAX_VERTEX_ATTRIBS */
#define TSR_SHADER_MAX_VARYINGS 16        /* MAX_VARYING_VECTORS (vec4 slots) */
#define TSR_SHADER_MAX_UNIFORM_VECTORS 256 /* MAX_{VERTEX,FRAGMENT}_UNIFORM_VECTORS */
#define TSR_SHADER_MAX_TEXTURE_UNITS 16   /* MAX_COMBINED_TEXTURE_IMAGE_UNITS */
#define TSR_SHADER_MAX_NAME 128           /* longest reported name, NUL included */

enum tsr_shader_stage { TSR_SHADER_VERTEX = 0, TSR_SHADER_FRAGMENT = 1 };

struct tsr_shader;       /* one compiled stage (glCreateShader + glCompileShader) */
struct tsr_program;      /* a linked vertex + fragment pair (glLinkProgram) */
struct tsr_shader_exec;  /* execution state of one stage of a program (one per thread) */

/* ---- compiling ---- */

/*
 * Compiles GLSL ES 1.00 source (no #version line, or #version 100) for a
 * stage. A shader that does not compile is still returned (TSR_OK): its
 * tsr_shader_compiled() is false and its info log has glslang's messages
 * ("ERROR: 0:12: 'foo' : undeclared identifier") or names the SPIR-V
 * construct tessera cannot lower. Errors: TSR_ERR_NOMEM; TSR_ERR_INTERNAL
 * when glslang cannot start.
 */
enum tsr_status tsr_shader_compile(enum tsr_shader_stage stage, const char *source,
				   struct tsr_shader **out, struct tsr_error *err);
/* Frees a shader (NULL: nothing); programs linked from it keep their own copy. */
void tsr_shader_destroy(struct tsr_shader *s);
/* COMPILE_STATUS. */
bool tsr_shader_compiled(const struct tsr_shader *s);
/* The info log ("" when there is nothing to say); valid until destroy. */
const char *tsr_shader_info_log(const struct tsr_shader *s);
/* The stage the shader was compiled for. */
enum tsr_shader_stage tsr_shader_stage(const struct tsr_shader *s);
/* Instructions of the compiled code (0 when it did not compile). */
uint32_t tsr_shader_instruction_count(const struct tsr_shader *s);
/* Per-lane vec4 registers the compiled code needs (inputs, outputs and
 * temporaries after allocation; 0 when it did not compile): what a GPU's
 * register file would hold per thread. */
uint32_t tsr_shader_register_count(const struct tsr_shader *s);

/* ---- linking ---- */

/* glBindAttribLocation before the link: name -> location. */
struct tsr_attrib_binding {
	const char *name;
	uint32_t location;
};

/*
 * Links a vertex and a fragment shader (either may be NULL or not
 * compiled: the link then fails). The program is returned (TSR_OK) whether
 * or not it links: tsr_program_linked() and its info log say. Link errors:
 * a varying the fragment shader uses that the vertex shader does not
 * declare, or declares with another type; a uniform declared in both
 * stages with different types, or used in both with highp in one and
 * mediump or lowp in the other (GLSL ES 1.00 4.5.3); invariant
 * gl_FragCoord or gl_PointCoord without invariant gl_Position or
 * gl_PointSize, a varying invariant in one stage only (4.6.4); too many
 * attributes, varyings or uniform
 * vectors; attribute bindings that alias. Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_program_link(const struct tsr_shader *vs, const struct tsr_shader *fs,
				 const struct tsr_attrib_binding *bindings, uint32_t binding_count,
				 struct tsr_program **out, struct tsr_error *err);
/* Frees a program (NULL: nothing); destroy its execution states first. */
void tsr_program_destroy(struct tsr_program *p);
/* LINK_STATUS. */
bool tsr_program_linked(const struct tsr_program *p);
/* The info log ("" when there is nothing to say). */
const char *tsr_program_info_log(const struct tsr_program *p);

/* One active attribute or uniform (glGetActiveAttrib / glGetActiveUniform). */
struct tsr_shader_var {
	char name[TSR_SHADER_MAX_NAME]; /* "pos", "light.color", "bones[0]" */
	uint32_t type;                  /* GL type enum: GL_FLOAT_MAT4, GL_SAMPLER_2D, ... */
	uint32_t size;                  /* array size, 1 for a non-array */
	int32_t location;               /* attribute location, or uniform location of element 0 */
};

/* ACTIVE_ATTRIBUTES and ACTIVE_UNIFORMS (0 when not linked). */
uint32_t tsr_program_attrib_count(const struct tsr_program *p);
uint32_t tsr_program_uniform_count(const struct tsr_program *p);
/* The index-th active attribute / uniform; NULL when index is out of range. */
const struct tsr_shader_var *tsr_program_attrib(const struct tsr_program *p, uint32_t index);
const struct tsr_shader_var *tsr_program_uniform(const struct tsr_program *p, uint32_t index);

/*
 * glGetAttribLocation / glGetUniformLocation: the location of an active
 * attribute, or of a uniform ("a", "a[2]", "s.f", "s[1].f"); -1 when there
 * is none.
 */
int32_t tsr_program_attrib_location(const struct tsr_program *p, const char *name);
int32_t tsr_program_uniform_location(const struct tsr_program *p, const char *name);

/*
 * glUniform*: writes count elements starting at location (consecutive
 * locations of an array; count is clipped to the array's end) from
 * values, each element its type's components in GL order (a matrix
 * column-major; ints, bools and sampler units as floats). A location of
 * -1 is ignored (TSR_OK), as GL does. Errors: TSR_ERR_CONFIG for a location
 * no active uniform has, or a sampler unit out of range.
 */
enum tsr_status tsr_program_uniform_write(struct tsr_program *p, int32_t location,
					  uint32_t count, const float *values,
					  struct tsr_error *err);
/*
 * glGetUniform*: the components of the element at location into values
 * (16 floats room). Returns the component count, 0 for an unused location.
 */
uint32_t tsr_program_uniform_read(const struct tsr_program *p, int32_t location, float *values);

/*
 * How the program samples texture unit `unit`, from its sampler uniforms'
 * current values: bit 0 set when a sampler2D selects it, bit 1 when a
 * samplerCube does (0: unused). Both set is the draw-time error GL ES 2.0
 * gives for two sampler types on one unit; the driver checks it.
 */
uint32_t tsr_program_unit_usage(const struct tsr_program *p, uint32_t unit);

/* 1 when the linked fragment program can discard (it has a KILL
 * instruction: its depth test must wait until after shading), else 0. */
int tsr_program_discards(const struct tsr_program *p);

/* 1 when the linked fragment program writes gl_FragDepthEXT
 * (GL_EXT_frag_depth: its depth replaces the interpolated one, tested after
 * shading), else 0. */
int tsr_program_writes_depth(const struct tsr_program *p);

/* 1 when the linked fragment program writes gl_SecondaryFragColorEXT or
 * gl_SecondaryFragDataEXT[0] (GL_EXT_blend_func_extended: the second source
 * color of the blend's SRC1 factors), else 0. */
int tsr_program_writes_secondary(const struct tsr_program *p);

/* 1 when the linked fragment program reads gl_LastFragData
 * (GL_EXT_shader_framebuffer_fetch: the color buffer at its pixels is an
 * input), else 0. */
int tsr_program_fetches_color(const struct tsr_program *p);

/* Instructions of a linked stage's code (0 when not linked), and the code
 * itself in *code: TSR_SH_INST_BYTES (16) bytes each, to be placed in
 * memory contiguously. */
uint32_t tsr_program_code(const struct tsr_program *p, enum tsr_shader_stage stage,
			  const struct tsr_sh_inst **code);

/* ---- executing ---- */

/* Instruction mix, accumulated (+=) by each execution. */
struct tsr_shader_counts {
	uint64_t executions;          /* quads or vertex groups run */
	uint64_t instructions;        /* instructions issued (every class) */
	uint64_t alu;                 /* ALU instructions issued */
	uint64_t sfu;                 /* special-function instructions */
	uint64_t tex;                 /* texture samples (one per instruction, 4 lanes) */
	uint64_t branch;              /* flow-control instructions (IF ... KILL) */
	uint64_t divergent_branches;  /* of these, those that split the active lanes */
	uint64_t lanes_killed;        /* lanes discarded */
	uint64_t loop_limit_hits;     /* loops left at TSR_SH_LOOP_LIMIT iterations */
};

enum tsr_shader_lod_mode {
	TSR_SHADER_LOD_IMPLICIT = 0, /* from the derivatives (fragment) */
	TSR_SHADER_LOD_BIAS = 1,     /* from the derivatives, plus lod[lane] */
	TSR_SHADER_LOD_EXPLICIT = 2, /* lod[lane] (vertex, or *Lod functions) */
};

/* One sample instruction, for the caller's texture sampler. */
struct tsr_shader_tex_request {
	uint32_t unit;           /* texture unit (the sampler uniform's value) */
	uint8_t cube;            /* 1: cube map (s, t, r), 0: 2D (s, t) */
	uint8_t lod_mode;        /* enum tsr_shader_lod_mode */
	uint8_t lane_mask;       /* lanes active at the instruction (bit k: lane k) */
	float coord[3][4];       /* [s, t, r][lane], projective division done */
	float ddx[3][4];         /* d coord / d x per lane (0 for vertices) */
	float ddy[3][4];         /* d coord / d y per lane */
	float lod[4];            /* bias or explicit LOD per lane (levels) */
	/* this execution's instructions issued before this one, by class (as
	 * struct tsr_shader_counts counts them): where the sample falls in the
	 * instruction stream, for a timing model that issues it */
	uint64_t issued_alu, issued_sfu, issued_flow;
};

/*
 * The caller's sampler: fills rgba[lane][channel] for the 4 lanes (all
 * four may be computed; lanes outside lane_mask are ignored). Must not
 * call back into the executing program.
 */
typedef void (*tsr_shader_sample_fn)(void *user, const struct tsr_shader_tex_request *req,
				     float rgba[4][4]);

/* One quad's fragment inputs: per lane (0..3 as above). */
struct tsr_fs_quad_in {
	float varyings[4][TSR_SHADER_MAX_VARYINGS][4]; /* [lane][slot][component] */
	float frag_coord[4][4];   /* gl_FragCoord per lane: window x, y (pixel centres), z, 1/w */
	float point_coord[4][2];  /* gl_PointCoord per lane */
	uint8_t front_facing;     /* gl_FrontFacing of the quad's primitive */
	float last_color[4][4];   /* gl_LastFragData[0] per lane: the color buffer's
				     [lane][rgba] before this fragment (read only when
				     tsr_program_fetches_color()) */
	float last_data[3][4][4]; /* gl_LastFragData[1..3] per lane: draw buffers
				     1..3 (GL_EXT_draw_buffers), [buffer - 1][lane][rgba];
				     read like last_color */
};

struct tsr_fs_quad_out {
	float color[4][4];        /* gl_FragColor (= gl_FragData[0]) [lane][rgba] */
	float data[3][4][4];      /* gl_FragData[1..3] [element - 1][lane][rgba]: the
				     colors of draw buffers 1..3 (GL_EXT_draw_buffers);
				     element e valid when bit e of data_mask is set */
	uint8_t data_mask;        /* bit e (1..3): gl_FragData[e] is an output of the
				     program (its register written to data[e - 1]) */
	uint8_t broadcast;        /* 1: the program writes gl_FragColor, which goes to
				     every draw buffer; 0: gl_FragData[e] to buffer e */
	uint8_t kill_mask;        /* lanes that executed discard (bit k: lane k) */
	uint8_t writes_depth;     /* 1: the program writes gl_FragDepthEXT, in depth */
	float depth[4];           /* gl_FragDepthEXT per lane (unclamped) */
	float secondary[4][4];    /* gl_SecondaryFragColorEXT (= gl_SecondaryFragDataEXT[0])
				     [lane][rgba], GL_EXT_blend_func_extended's second
				     blend source; 0 when the program writes none */
};

/* Up to 4 vertices' inputs: the generic attributes by location. */
struct tsr_vs_in {
	float attribs[4][TSR_SHADER_MAX_ATTRIBS][4]; /* [vertex][location][component] */
};

struct tsr_vs_out {
	float position[4][4];     /* gl_Position per vertex */
	float point_size[4];      /* gl_PointSize (1 when not written) */
	float varyings[4][TSR_SHADER_MAX_VARYINGS][4]; /* [vertex][slot][component] */
};

/*
 * Execution state of one stage of a linked program: its registers,
 * allocated once (no allocation per execution). sample may be NULL (a
 * sample then reads (0, 0, 0, 1)). The program must outlive it and must
 * not be relinked while it exists. Errors: TSR_ERR_CONFIG when the
 * program is not linked, TSR_ERR_NOMEM.
 */
enum tsr_status tsr_shader_exec_create(const struct tsr_program *p, enum tsr_shader_stage stage,
				       tsr_shader_sample_fn sample, void *user,
				       struct tsr_shader_exec **out, struct tsr_error *err);
/*
 * tsr_shader_exec_create() with the program's uniforms as of the call (its
 * constant bank copied: later glUniform* calls do not reach it), and no
 * sampler (tsr_shader_exec_set_sampler()): what a draw recorded for later
 * rendering runs with. It keeps the program alive: a tsr_program_destroy()
 * (a relink, a glDeleteProgram) before the snapshot is destroyed frees the
 * program with the last snapshot. Errors: those of tsr_shader_exec_create().
 */
enum tsr_status tsr_shader_exec_create_snapshot(const struct tsr_program *p,
						enum tsr_shader_stage stage,
						struct tsr_shader_exec **out,
						struct tsr_error *err);

/* Replaces the sampler of an execution state (a caller that samples
 * through per-call state, such as a shader core's texture unit, sets it
 * before each execution). No allocation. */
void tsr_shader_exec_set_sampler(struct tsr_shader_exec *x, tsr_shader_sample_fn sample,
				 void *user);
/*
 * Whether an execution state runs the program's mediump and lowp
 * arithmetic (the instructions lowered from SPIR-V RelaxedPrecision
 * results, TSR_SH_F_HALF in isa.h) at half precision, every source and
 * result rounded to IEEE binary16 (fp16: true, the default of a new state,
 * as mobile GPUs such as Mali and Adreno and Mesa's llvmpipe run them), or
 * at full precision like highp (fp16 false). GLSL ES 1.00 Section 4.5.2
 * allows both. Configuration key shader.mediump. Not per execution: it
 * decodes the code again (allocates a scratch array). Errors: TSR_ERR_NOMEM
 * (the state then unchanged).
 */
enum tsr_status tsr_shader_exec_set_mediump(struct tsr_shader_exec *x, bool fp16,
					    struct tsr_error *err);
/*
 * Whether the stage's code is straight: no flow control, kill, texture
 * sample or derivative. Then every run executes every instruction whatever its lanes,
 * touches no memory, and a lane's results depend on that lane's inputs
 * only, so inputs run four at a time give the results and the counts of
 * each run alone (the geometry stage shades vertices so). No error.
 */
bool tsr_shader_exec_straight(const struct tsr_shader_exec *x);
/*
 * Whether an execution state rounds to binary16 with x86's F16C
 * conversions (true, the default where the CPU has them) or with the
 * portable code every CPU runs (false): bit-identical results either way,
 * the F16C path about 1.3x faster on mediump-heavy programs
 * (docs/performance.md). For tests and benchmarks of the portable path.
 * Returns whether F16C is now used: asking for it on a CPU without it
 * leaves the portable path. No allocation, no error.
 */
bool tsr_shader_exec_use_f16c(struct tsr_shader_exec *x, bool on);
/*
 * The constant bank an execution state runs with (a snapshot's own copy,
 * else its program's): *regs registers of 16 floats each, laid out
 * [register][component][lane] (every lane holds the same value): the
 * program's uniform values as of the snapshot, then its literals. For
 * callers that sign a draw's constants (Rendering Elimination). Valid
 * while x exists; no allocation, no error.
 */
const float *tsr_shader_exec_constants(const struct tsr_shader_exec *x, uint32_t *regs);
/* The program an execution state runs. */
const struct tsr_program *tsr_shader_exec_program(const struct tsr_shader_exec *x);
/* Frees an execution state (NULL: nothing). */
void tsr_shader_exec_destroy(struct tsr_shader_exec *x);

/*
 * Varying slot of a varying (its element 0) in tsr_fs_quad_in/tsr_vs_out,
 * or -1 when the program has no such active varying.
 */
int32_t tsr_program_varying_slot(const struct tsr_program *p, const char *name);
/* Varying slots the linked program uses (slots 0..n-1). */
uint32_t tsr_program_varying_count(const struct tsr_program *p);

/*
 * A number that tells this program apart from every other made in the
 * process (1, 2, ... in the order of the tsr_program_link() calls that
 * made them), where an address may be reused once a program is freed: a
 * driver keys what it keeps per program by it, so that the same sequence
 * of calls gives the same results.
 */
uint64_t tsr_program_serial(const struct tsr_program *p);

/*
 * Runs the fragment program on one quad: all 4 lanes execute (helper
 * lanes too, for derivatives); out->color and out->kill_mask are written
 * for every lane. Adds the instruction mix to counts (may be NULL). No
 * allocation.
 */
void tsr_shader_exec_quad(struct tsr_shader_exec *x, const struct tsr_fs_quad_in *in,
			  struct tsr_fs_quad_out *out, struct tsr_shader_counts *counts);

/*
 * Runs the vertex program on vertices 0..n-1 of in (n = 1..4; lanes n..3
 * are inactive); writes out for those vertices. Adds the instruction mix
 * to counts (may be NULL). No allocation.
 */
void tsr_shader_exec_vertices(struct tsr_shader_exec *x, const struct tsr_vs_in *in, uint32_t n,
			      struct tsr_vs_out *out, struct tsr_shader_counts *counts);

#endif
