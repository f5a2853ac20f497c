/*
 * mesh_load.h - import of a model file (any format assimp reads) into
 * triangle meshes, plus the built-in sprite quad (private to the scene
 * loader).
 *
 * A tsr_model is what one model file holds after import: its triangle
 * meshes (node transforms baked in by aiProcess_PreTransformVertices,
 * points and lines dropped, texture coordinates converted to the scene's
 * convention v=0 at the image top, i.e. v' = 1 - v from assimp's
 * bottom-left origin) and, per model material, its diffuse colour and a
 * reference to its diffuse texture. Textures are decoded only when asked
 * for (tsr_model_texture), because a workload may replace them; a
 * reference that cannot be opened is then an error.
 *
 * Left out: vertex colours, UV sets other than the first, UV transforms,
 * texture types other than diffuse / base colour.
 */
#ifndef TSR_SCENE_MESH_LOAD_H
#define TSR_SCENE_MESH_LOAD_H

#include <stdint.h>

#include "scene/image_load.h"
#include "scene/scene.h"

#define TSR_BUILTIN_QUAD "builtin:quad"
#define TSR_BUILTIN_GRID "builtin:grid:"   /* followed by the cells per side */

/* Directory part of path with a trailing '/', or "" (caller frees); NULL
 * when out of memory. */
char *tsr_path_dir(const char *path);

/* A material as the model file describes it. */
struct tsr_model_material {
	int has_color;         /* 1: the file gives a diffuse colour */
	float color[4];        /* RGBA, when has_color */
	int has_texture;       /* 1: the file names a diffuse texture */
	char *texture_path;    /* resolved file path, NULL for an embedded one */
	int32_t embedded;      /* index into the model's embedded textures, or -1 */
};

/*
 * A texture the model file holds itself (assimp's aiTexture, copied):
 * compressed file bytes when height is 0 (width is then their count),
 * else width x height texels of 4 bytes, B, G, R, A.
 */
struct tsr_model_embedded {
	uint32_t width;
	uint32_t height;
	uint8_t *data;
};

/* Bytes of an embedded texture of width x height (height 0: width bytes of a file). */
static inline uint64_t tsr_model_embedded_bytes(uint32_t width, uint32_t height)
{
	return height == 0 ? width : (uint64_t)width * height * 4;
}

struct tsr_model {
	char *path;                    /* the model file ("builtin:quad") */
	uint32_t mesh_count;
	struct tsr_mesh *meshes;       /* .material indexes materials[] below */
	uint32_t material_count;
	struct tsr_model_material *materials;
	uint32_t embedded_count;
	struct tsr_model_embedded *embedded; /* what materials[].embedded indexes */
};

/*
 * Imports a model file with assimp in a child process (fork), so that a
 * hostile file that crashes or exhausts one of assimp's readers (the
 * DirectX .x reader dereferences NULL on some files; an OFF header can ask
 * for 16 GB) costs an error, not the caller's process. The child runs
 * with at most TSR_LIMIT_IMPORT_CPU_SECONDS of CPU and, outside sanitizer
 * builds, the memory budget (tsr_memory_budget_bytes) as the growth of
 * its address space; it sends the meshes, materials and embedded textures
 * back through a pipe and ends with _exit(), never returning into the
 * caller's code. A file the process imported before is copied from the
 * asset cache (scene/asset_cache.h) while the files that import read are
 * unchanged. Not for a process whose other threads may hold locks
 * other than malloc's when it is called (POSIX fork).
 * Errors: TSR_ERR_IO (cannot open), TSR_ERR_PARSE (assimp cannot read it,
 * assimp's message; or the importer crashed, naming the signal, or
 * ended without a result),
 * TSR_ERR_LIMIT (the import ran out of its CPU time), TSR_ERR_ASSET (no
 * triangles, non-finite coordinates, indices out of range, including
 * faces assimp itself dropped for that), TSR_ERR_NOMEM, TSR_ERR_INTERNAL
 * (fork or pipe failed). On error *out is left released.
 */
enum tsr_status tsr_model_load(const char *path, struct tsr_model *out,
			       struct tsr_error *err);

/*
 * tsr_model_load() in the calling process, without its isolation: for the
 * fuzz harness (which must see assimp's and tessera's coverage) and for
 * callers already inside a sandbox. A crash inside assimp ends the caller.
 * Same errors, less the crash and CPU-limit ones.
 */
enum tsr_status tsr_model_import(const char *path, struct tsr_model *out,
				 struct tsr_error *err);

/*
 * The files an import asked for (assimp reads through stdio, as by
 * default, but each path it opens or probes is noted): the model file and
 * what it names (an OBJ's .mtl, a glTF's buffers), opened[i] 1 when
 * paths[i] opened and 0 when it did not exist or could not be read. The
 * model cache (scene/asset_cache.h) keeps a model while they are
 * unchanged. Zero-initialise; failed: a note ran out of memory (the list
 * is incomplete).
 */
struct tsr_model_files {
	char **paths;
	uint8_t *opened;
	uint32_t count, cap;
	int failed;
};

/* Frees the list (zeroed afterwards). */
void tsr_model_files_release(struct tsr_model_files *f);

/* tsr_model_import() that also notes the files the import asked for into
 * *files (NULL: not noted). Same errors. */
enum tsr_status tsr_model_import_files(const char *path, struct tsr_model *out,
				       struct tsr_model_files *files, struct tsr_error *err);

/*
 * The built-in sprite: a unit square in the XY plane from (-0.5,-0.5,0) to
 * (0.5,0.5,0), normal +Z, two triangles counter-clockwise seen from +Z,
 * texcoords (0,1) at the bottom left to (1,0) at the top right, so that an
 * image appears upright seen from +Z with +Y up.
 */
enum tsr_status tsr_model_builtin_quad(struct tsr_model *out,
				       struct tsr_error *err);

/*
 * The built-in subdivided square "builtin:grid:N" (N = 1..256 cells per
 * side): the same square, normal and texture coordinates as the quad, as
 * (N+1)^2 vertices and 2 N^2 triangles, for grounds and roads whose
 * triangles should stay a few tiles large on screen. Vertices row by row
 * from the bottom (y = -0.5), x fastest; each cell is the triangles
 * (bottom-left, bottom-right, top-right), (bottom-left, top-right,
 * top-left). Errors: TSR_ERR_CONFIG for a malformed N.
 */
enum tsr_status tsr_model_builtin_grid(const char *name, struct tsr_model *out,
				       struct tsr_error *err);

/*
 * Decodes the diffuse texture of model material `material` into `images`
 * (deduplicated by path; embedded textures are named
 * "<model>#embedded<N>"). *index is -1 when the material has none.
 */
enum tsr_status tsr_model_texture(const struct tsr_model *model,
				  uint32_t material,
				  struct tsr_image_set *images,
				  int32_t *index, struct tsr_error *err);

/* Frees everything a model owns (including the assimp scene). */
void tsr_model_release(struct tsr_model *model);

/* Deep copy of a mesh's arrays; dst must not own memory. */
enum tsr_status tsr_mesh_copy(const struct tsr_mesh *src,
			      struct tsr_mesh *dst);

/* Frees a mesh's arrays. */
void tsr_mesh_release(struct tsr_mesh *mesh);

/*
 * Centres meshes[0..n) together at the origin (centre of their common
 * bounding box) and scales them uniformly so that the farthest vertex lies
 * at `radius` from it. Normals are unchanged (uniform scale).
 */
void tsr_meshes_normalize(struct tsr_mesh *meshes, uint32_t n, float radius);

#endif
