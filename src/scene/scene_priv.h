/*
 * scene_priv.h - what the workload loader's files share (internal to
 * scene/): the loader's state while one workload file is read, the
 * material keys of an object, one instance's offsets and a grid of
 * instances, and the helpers the files call across each other.
 *
 *   workload_parse.c  the JSON: top level, render targets, passes, events,
 *                     objects, materials, animation, instances and grids
 *                     (their keys), tsr_scene_load / tsr_scene_destroy
 *   camera.c          a pass's camera: its keys, its pose at a frame and
 *                     the checks that its view is not degenerate
 *   objects.c         placing objects: the model cache, instancing (shared
 *                     meshes), material deduplication, the grid generator
 *   asset_packages.c  which Debian package provides an asset under
 *                     /usr/share, and the error that names it
 *
 * The per-frame evaluation of what was loaded (model matrices, UV scroll,
 * camera matrices, materials after texture uploads) is the frontend's
 * (frontend/animation.h); scene/ only reads and loads.
 */
#ifndef TSR_SCENE_SCENE_PRIV_H
#define TSR_SCENE_SCENE_PRIV_H

#include <stdint.h>

#include "core/json_util.h"
#include "core/status.h"
#include "core/vecmath.h"
#include "scene/image_load.h"
#include "scene/mesh_load.h"
#include "scene/scene.h"

#define TSR_MAX_RENDER_TARGETS 16

/* A model placed in the scene: meshes [first_mesh, +mesh_count). */
struct placement {
	uint32_t model;       /* index into loader.models */
	float normalize;      /* bounding-sphere radius, 0 for none */
	uint32_t first_mesh;
	uint32_t mesh_count;
	int has_uv_rect;      /* texture coordinates mapped into uv_rect */
	float uv_rect[4];     /* u0, v0, u1, v1 */
};

/* Material keys of one object, over the defaults. */
struct material_spec {
	struct tsr_material base;  /* texture = -1 unless "texture" is given */
	int has_texture;           /* "texture" key present */
	int has_color;             /* "color" key present */
};

/* The state of tsr_scene_load while it reads one workload file. */
struct scene_loader {
	const char *file;          /* the workload file, for messages */
	char *dir;                 /* its folder with a trailing '/', or "" */
	struct tsr_scene *sc;
	struct tsr_image_set images;
	uint32_t mesh_cap, material_cap, object_cap;
	struct tsr_model *models;
	uint32_t model_count, model_cap;
	struct placement *placed;
	uint32_t placed_count, placed_cap;
	struct tsr_error *err;
	/* version 2: the render targets, the pass that draws each, the pass
	   being parsed (a material's "target:<name>" is checked against it) */
	uint32_t rt_count;
	char rt_name[TSR_MAX_RENDER_TARGETS][64];
	int32_t rt_image[TSR_MAX_RENDER_TARGETS];
	int32_t rt_writer[TSR_MAX_RENDER_TARGETS];   /* pass index, -1 none */
	uint32_t cur_pass;
};

/* Object flags handed to scene_add_object. */
enum { OBJ_SKYBOX = 1, OBJ_SCREEN_SPACE = 2 };

/* One instance of an object: its offsets from the object's placement. */
struct instance {
	struct tsr_vec3 translate;   /* added */
	struct tsr_vec3 rotate_deg;  /* added */
	struct tsr_vec3 scale;       /* multiplied */
	const float *uv_rect;        /* NULL: the object's */
	int32_t texture;             /* -1: the object's material */
};

/*
 * An object's "grid" as read (workload_parse.c), generated into instances
 * by scene_add_grid: count[0] x count[1] x count[2] cells (x fastest).
 */
struct grid_spec {
	uint32_t count[3];
	struct tsr_vec3 spacing, jitter, rotate_jitter_deg, scale_jitter;
	float fill;                  /* probability that a cell is kept */
	uint32_t seed;               /* of the SplitMix64 stream */
	const float *uv_rects;       /* nrects rectangles of 4 numbers */
	size_t nrects;
	const int32_t *textures;     /* ntex image indices */
	size_t ntex;
};

/* --- workload_parse.c: loader helpers --- */

/* TSR_ERR_NOMEM naming the workload file. */
enum tsr_status scene_nomem(struct scene_loader *L);

/* An asset path relative to the workload's folder unless absolute
 * (malloc'd, NULL when out of memory). */
char *scene_resolve(const struct scene_loader *L, const char *p);

/* Appends " (key '<path>' in '<file>')" to an asset error; returns st. */
enum tsr_status scene_with_key(struct scene_loader *L, enum tsr_status st,
			       const char *path);

/* "parent" + ".key" + "[i]" (key may be NULL); truncated paths stay terminated. */
void scene_index_path(char *buf, size_t n, const char *parent, const char *key,
		      size_t i);

/* TSR_ERR_CONFIG "missing key '<path>' in '<file>'". */
enum tsr_status scene_missing(struct scene_loader *L, const char *path);

/* An array value (NULL when absent); anything else is TSR_ERR_CONFIG. */
enum tsr_status scene_get_array(struct scene_loader *L, const json_t *obj,
				const char *path, const char *key, json_t **out);

/* --- camera.c --- */

/*
 * A pass's "camera" object at `path` (NULL: the defaults) into *c, its
 * keyframes sorted by frame; refuses a degenerate static camera, orbit
 * start or keyframe (TSR_ERR_CONFIG naming the key), TSR_ERR_NOMEM.
 */
enum tsr_status scene_parse_camera(struct scene_loader *L, const json_t *cam,
				   const char *path, struct tsr_camera *c);

/* --- objects.c --- */

/*
 * Index of material *m in the scene's materials, added unless an equal one
 * is there already (deduplication). Errors: TSR_ERR_NOMEM.
 */
enum tsr_status scene_material_add(struct scene_loader *L,
				   const struct tsr_material *m, uint32_t *index);

/*
 * The model a "mesh" value names (builtin:quad, builtin:grid:N or a file
 * relative to the workload), imported on first use, into *mi (index into
 * L->models). Errors name the key `kp`: TSR_ERR_CONFIG (unknown built-in),
 * TSR_ERR_IO (missing file or Debian package), the importer's errors.
 */
enum tsr_status scene_object_model(struct scene_loader *L, const char *mesh,
				   const char *kp, uint32_t *mi);

/*
 * Adds one object: model mi placed with the object's material keys,
 * normalisation, uv_rect (NULL: none), OBJ_* flags and animation, moved by
 * the instance `in` (NULL: none); shares the meshes of an earlier identical
 * placement. key_path names the object's mesh key in errors.
 * Errors: TSR_ERR_NOMEM, the importer's texture errors.
 */
enum tsr_status scene_add_object(struct scene_loader *L, uint32_t mi,
				 const struct material_spec *spec, float normalize,
				 const float *uv_rect, int flags,
				 const struct tsr_transform_anim *anim,
				 const struct instance *in, const char *key_path);

/*
 * The instances of a grid (struct grid_spec), each added with
 * scene_add_object in cell order (x fastest, then y, then z).
 * Errors: those of scene_add_object.
 */
enum tsr_status scene_add_grid(struct scene_loader *L, const struct grid_spec *g,
			       uint32_t mi, const struct material_spec *spec,
			       float normalize, const float *uv_rect, int flags,
			       const struct tsr_transform_anim *anim,
			       const char *mesh_key);

/* --- asset_packages.c --- */

/*
 * An asset under /usr/share whose package folder does not exist:
 * TSR_ERR_IO naming the asset, the key `key_path` of `file` and the Debian
 * package to install. TSR_OK otherwise (other paths, and missing files in
 * a folder that exists, are left to the readers' own messages).
 */
enum tsr_status scene_check_asset_package(const char *full, const char *key_path,
					  const char *file, struct tsr_error *err);

#endif
