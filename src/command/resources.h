/*
 * resources.h - the GPU's resource types, which command lists refer to by
 * index (command.h): images (texture contents and render targets),
 * materials (fixed-function state, shader programs as instruction counts,
 * the texture they bind) and meshes (index and vertex buffers). Plain data
 * owned by the frontend that made them (a workload's scene today:
 * scene/scene.h fills them); the pipeline and its units (geometry/,
 * raster/, texture/, tiling/, memory/, timing/, pipeline/) see these and
 * never a scene.
 */
#ifndef TSR_COMMAND_RESOURCES_H
#define TSR_COMMAND_RESOURCES_H

#include <stdint.h>

/* A decoded image, RGBA8, rows top to bottom. */
struct tsr_image {
	char *path;        /* file it came from (or "<model>#embedded<N>") */
	uint32_t width;    /* texels */
	uint32_t height;   /* texels */
	uint8_t *rgba;     /* width * height * 4 bytes */
	int render_target; /* 1: a render target that a pass draws (path
	                      "rendertarget:<name>", rgba zero until drawn) */
	int depth;         /* 1: a depth render target ("format": "depth32f"):
	                      the pass drawing it has no color output, its
	                      depth buffer is the target; rgba holds the depth
	                      as grey (R = G = B = depth as RGBA8, A = 255),
	                      the initial depths (byte / 255); the GPU's
	                      texture keeps the drawn depths as floats, which
	                      samples read (texture/texture.h) */
	uint8_t bottom_up; /* a render target whose texel row 0 is its bottom
	                      row (GL's window coordinates, y up: a GL
	                      framebuffer object's texture); 0: row 0 is the
	                      top row the pass draws (the workloads') */
	uint8_t mipmapped; /* a render target with a full mip chain, rebuilt
	                      from level 0 by a pass's `mipmap` (command.h);
	                      0: level 0 only */
	uint32_t mip_count;  /* levels 1..mip_count of the texture (not a render
	                        target) given in mip_rgba instead of reduced
	                        from level 0 (uploaded mip levels); 0: none */
	const uint8_t *mip_rgba[16]; /* [l - 1]: level l's texels, its size
	                        max(1, floor(size / 2^l)), RGBA8 */
};

enum tsr_filter {
	TSR_FILTER_NEAREST = 0,  /* 1 texel from the nearest mip level */
	TSR_FILTER_BILINEAR,     /* 2x2 texels from the nearest mip level */
	TSR_FILTER_TRILINEAR,    /* 2x2 texels from each of two mip levels */
};

enum tsr_wrap {
	TSR_WRAP_REPEAT = 0,
	TSR_WRAP_CLAMP,          /* clamp to edge */
};

enum tsr_blend {
	TSR_BLEND_OPAQUE = 0,    /* depth test + write, Early-Z */
	TSR_BLEND_ALPHA,         /* src-alpha / one-minus-src-alpha, depth test, no depth write */
	TSR_BLEND_ALPHA_TEST,    /* discard below alpha_cutoff: late Z */
};

struct tsr_material {
	int32_t texture;                   /* index into the resources' images, -1 for none */
	int32_t texture_object;            /* the texture object the drawcall binds
	                                      (part of its constants): equal to
	                                      `texture`, except in variants made by
	                                      texture uploads, which keep the
	                                      object's original texture object while
	                                      sampling the uploaded image; -1 none */
	enum tsr_filter filter;
	enum tsr_wrap wrap;
	enum tsr_blend blend;
	float alpha_cutoff;                /* for TSR_BLEND_ALPHA_TEST */
	float color[4];                    /* RGBA multiplier, linear 0..1 */
	int lit;                           /* 1: simple directional diffuse lighting */
	int double_sided;                  /* 1: no back-face culling */
	uint32_t shader_alu_instructions;  /* fragment shader ALU instructions */
	uint32_t vertex_shader_instructions; /* vertex shader instructions */
	uint32_t varyings;                 /* vec4 varyings besides position (>= 1) */
};

/* One drawcall's geometry. */
struct tsr_mesh {
	uint32_t vertex_count;
	float *positions;       /* 3 floats per vertex, object space */
	float *normals;         /* 3 floats per vertex */
	float *texcoords;       /* 2 floats per vertex (u, v with v=0 at the image top) */
	uint32_t index_count;   /* multiple of 3: a triangle list */
	uint32_t *indices;
	uint32_t material;      /* index into the resources' materials */
	uint64_t raw_bytes;     /* > 0: a raw buffer object (a GL driver's): one
	                           region of raw_bytes bytes that program draws read
	                           vertex arrays and indices from (struct
	                           tsr_cmd_program); no vertex data above */
};

/* The resources a command list refers to (owned by the frontend). */
struct tsr_resources {
	uint32_t mesh_count;
	const struct tsr_mesh *meshes;          /* buffers and their material */
	uint32_t material_count;
	const struct tsr_material *materials;   /* state, programs, bound image */
	uint32_t image_count;
	const struct tsr_image *images;         /* texture contents */
};

#endif
