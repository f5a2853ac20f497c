/*
 * scene.h - the workload: a scene composed from real asset files.
 *
 * A workload JSON file (format in docs/workloads.md) names
 * meshes (any format assimp reads, or the built-in "builtin:quad" sprite),
 * textures (any format stb_image reads), per-object materials and
 * animation, a camera, a clear color and a frame count. tsr_scene_load()
 * turns it into this plain data: decoded RGBA8 images, triangle meshes with
 * positions, normals and texture coordinates (node transforms baked in),
 * objects that instance meshes with their animation (base transform plus a
 * constant rate or keyframes), and the pass's events (texture uploads that
 * switch an object's materials from a frame on). What they give at a frame
 * (model matrices, UV offsets, camera matrices, materials after uploads)
 * is evaluated by the frontend (frontend/animation.h); only the camera's
 * pose is here, as the loader checks cameras with it.
 *
 * The structs are plain data; the loader owns all memory, released by
 * tsr_scene_destroy(). The GPU's resource types (images, materials,
 * meshes) are the command list's (command/resources.h): the pipeline
 * reads them, never a scene. Version 1 of the format has
 * one pass that draws into the frame buffer; version 2 adds render
 * targets (RGBA8 images a pass draws) and several passes: each earlier
 * pass draws a render target, the last one the frame buffer, and a
 * material samples a render target as "texture": "target:<name>" (drawn
 * by an earlier pass of the frame) or "target:<name>@previous" (drawn by
 * a later pass: the previous frame's contents, for feedback effects).
 *
 * Left out: skinning, morph targets, assimp's own animations, multiple UV
 * sets, normal maps (a material samples one texture).
 */
#ifndef TSR_SCENE_SCENE_H
#define TSR_SCENE_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "command/resources.h"
#include "core/status.h"
#include "core/vecmath.h"

#define TSR_WORKLOAD_VERSION 2

/* A key of a keyframed animation; values are linearly interpolated. */
struct tsr_keyframe {
	uint32_t frame;
	struct tsr_vec3 translate;
	struct tsr_vec3 rotate_deg;
	struct tsr_vec3 scale;
};

/* Placement of an object: base transform + constant rate or keyframes. */
struct tsr_transform_anim {
	struct tsr_vec3 translate;            /* base (frame 0) */
	struct tsr_vec3 rotate_deg;
	struct tsr_vec3 scale;
	struct tsr_vec3 translate_per_frame;  /* constant-rate animation */
	struct tsr_vec3 rotate_deg_per_frame;
	struct tsr_vec3 scale_per_frame;      /* added to scale each frame */
	float uv_scroll_per_frame[2];         /* added to texture coordinates each frame */
	uint32_t keyframe_count;              /* > 0: keyframes override the above */
	struct tsr_keyframe *keyframes;       /* sorted by frame */
};

struct tsr_object {
	uint32_t first_mesh;   /* meshes [first_mesh, first_mesh + mesh_count) */
	uint32_t mesh_count;
	struct tsr_transform_anim anim;
	int skybox;            /* 1: centred on the camera's eye, drawn at the far plane */
	int screen_space;      /* 1: the model matrix maps straight to clip space (HUD) */
};

enum tsr_projection { TSR_PROJ_PERSPECTIVE = 0, TSR_PROJ_ORTHOGRAPHIC };

struct tsr_camera_key {
	uint32_t frame;
	struct tsr_vec3 eye, target, up;
};

struct tsr_camera {
	enum tsr_projection projection;
	float fov_y_deg;          /* perspective */
	float ortho_height;       /* orthographic: world units visible vertically */
	float znear, zfar;
	struct tsr_vec3 eye, target, up;  /* static camera */
	int orbit;                /* 1: orbit target at orbit_radius */
	float orbit_radius, orbit_height, orbit_deg_per_frame, orbit_start_deg;
	uint32_t key_count;       /* > 0: keyframed camera (overrides eye/target/up) */
	struct tsr_camera_key *keys;
};

/*
 * A texture upload event: from `frame` on, the driver has uploaded new
 * contents (glTexImage2D) into the texture of `object`, so each of its
 * meshes draws with a variant of the material it was placed with whose
 * `texture` is the uploaded image (texture_object unchanged). Variants are
 * ordinary entries of scene->materials (deduplicated like the others).
 */
struct tsr_texture_upload {
	uint32_t frame;            /* from this frame on */
	uint32_t object;           /* index into scene->objects (global index) */
	int32_t image;             /* the uploaded image, index into scene->images */
	uint32_t *mesh_materials;  /* the object's mesh_count materials from this
	                              frame on (indices into scene->materials) */
};

struct tsr_pass {
	char name[64];
	int32_t target_image;     /* the render target it draws (index into
	                             scene->images), -1 for the frame buffer */
	struct tsr_camera camera;
	float clear_color[4];     /* RGBA 0..1 */
	uint32_t first_object;    /* objects [first_object, first_object + object_count) */
	uint32_t object_count;
	uint32_t upload_count;
	struct tsr_texture_upload *uploads;   /* sorted by frame (stable for equal frames) */
};

struct tsr_scene {
	uint32_t version;
	char *name;
	char *path;               /* the workload file */
	uint32_t frames;          /* default frame count */
	uint32_t image_count;
	struct tsr_image *images;
	uint32_t material_count;
	struct tsr_material *materials;
	uint32_t mesh_count;
	struct tsr_mesh *meshes;
	uint32_t object_count;
	struct tsr_object *objects;
	uint32_t pass_count;      /* 1 in version 1; version 2: the last pass
	                             draws the frame buffer, earlier ones render
	                             targets */
	struct tsr_pass *passes;
};

/*
 * Loads a workload JSON file and every asset it names. Relative asset paths
 * are resolved against the workload file's folder. Errors: TSR_ERR_IO
 * (missing file), TSR_ERR_PARSE (malformed JSON, corrupt mesh or image),
 * TSR_ERR_CONFIG (unknown key, wrong type, an event's object out of range;
 * the message names the key path),
 * TSR_ERR_ASSET (indices out of range, empty mesh), TSR_ERR_UNSUPPORTED
 * (a newer format version, several passes in a version 1 file);
 * TSR_ERR_CONFIG also for a render target that is missing, drawn by two
 * passes or sampled before it is drawn, and a last pass that does not
 * draw the frame buffer. *out is NULL on error.
 */
enum tsr_status tsr_scene_load(const char *workload_path,
			       struct tsr_scene **out, struct tsr_error *err);

/* Frees a scene and everything it owns; NULL is a no-op. */
void tsr_scene_destroy(struct tsr_scene *scene);

/*
 * Eye, target and up of a camera at a frame: the keyframes interpolated
 * linearly (clamped to the first and last key), else the orbit (eye at
 * orbit_radius around the target, orbit_height above it, at
 * orbit_start_deg + frame * orbit_deg_per_frame degrees), else the static
 * camera. Pure; the frontend makes view matrices of it
 * (frontend/animation.h), the loader checks views with it.
 */
void tsr_camera_pose(const struct tsr_camera *cam, uint32_t frame,
		     struct tsr_vec3 *eye, struct tsr_vec3 *target,
		     struct tsr_vec3 *up);

/*
 * Keyframe span: keys are n >= 1 structs of `stride` bytes, sorted by the
 * uint32_t frame at *first_frame in each. Returns the key i at or before
 * `frame` (clamped to the first and last) and in *f the fraction of the way
 * to key i + 1 (0 when clamped). Pure; shared by camera and object keys.
 */
uint32_t tsr_keyframe_span(uint32_t frame, const uint32_t *first_frame, size_t stride,
			   uint32_t n, float *f);

/*
 * Checks the view of every pass's camera at frames [first, end): a
 * keyframed camera moves, so a view between two good keyframes (an eye
 * that passes through the target, an up that turns into the view) can be
 * degenerate where its keys are not; orbits are checked the same way.
 * Errors: TSR_ERR_CONFIG naming the pass, the workload and the first such
 * frame (the loader has already refused degenerate static cameras and
 * keyframes).
 */
enum tsr_status tsr_scene_check_cameras(const struct tsr_scene *sc, uint32_t first,
					uint32_t end, struct tsr_error *err);

/*
 * The Debian package that provides an asset path under /usr/share (from a
 * small table of the packages the shipped workloads use), or NULL when
 * the path is elsewhere or its folder is not in the table. Pure.
 */
const char *tsr_asset_package(const char *path);

#endif
