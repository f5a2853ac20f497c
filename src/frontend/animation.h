/*
 * animation.h - what a loaded workload (scene/scene.h) looks like at a
 * frame: the per-frame evaluation that the workload frontend turns into
 * each draw's constants. An object's model matrix (its base transform
 * moved at a constant rate, or its keyframes interpolated linearly), its
 * texture-coordinate scroll, a camera's eye and view and projection
 * matrices (after its orbit or keyframes: tsr_camera_pose, scene/scene.h),
 * and the material an object's mesh draws with after the pass's texture
 * uploads.
 *
 * Every function is pure: its input is the loaded description and a frame
 * number (frames count from 0; there is no time in seconds), its output
 * the value at that frame; no I/O, no state kept between calls.
 *
 * Left out: skinning, morph targets, assimp's own animations, easing
 * curves (keys are interpolated linearly).
 */
#ifndef TSR_FRONTEND_ANIMATION_H
#define TSR_FRONTEND_ANIMATION_H

#include <stdint.h>

#include "core/vecmath.h"
#include "scene/scene.h"

/*
 * Model matrix of an object at a frame (frame 0 = the base transform):
 * translate * rotate (X, then Y, then Z, degrees) * scale, each the base
 * value plus frame times its per-frame rate, or the keyframes' values
 * interpolated linearly (clamped before the first and after the last key).
 */
struct tsr_mat4 tsr_object_model_matrix(const struct tsr_object *obj,
					uint32_t frame);

/*
 * Offset added to the object's texture coordinates at a frame (u, v):
 * the fractional part of frame * uv_scroll_per_frame, in [0, 1).
 */
void tsr_object_uv_offset(const struct tsr_object *obj, uint32_t frame,
			  float uv[2]);

/* The camera's eye at a frame (after orbit or keyframes), world units. */
struct tsr_vec3 tsr_camera_eye(const struct tsr_camera *cam, uint32_t frame);

/*
 * View and projection matrices of a camera at a frame; aspect is the
 * screen's width / height (an orthographic camera shows ortho_height *
 * aspect world units across).
 */
void tsr_camera_matrices(const struct tsr_camera *cam, uint32_t frame,
			 float aspect, struct tsr_mat4 *view,
			 struct tsr_mat4 *proj);

/*
 * Material (index into sc->materials) of the object's k-th mesh at a frame,
 * after the pass's texture uploads: the material of the latest upload to
 * the object at or before `frame` (the later one in file order when two
 * are at the same frame), else the mesh's own material. `object` is a
 * global index (pass->first_object + i) and 0 <= k < its mesh_count.
 */
uint32_t tsr_object_mesh_material(const struct tsr_scene *sc,
				  const struct tsr_pass *pass, uint32_t object,
				  uint32_t k, uint32_t frame);

/*
 * 1 when the pass has a texture upload at exactly this frame (an event the
 * driver sees, e.g. to disable Rendering Elimination for the frame), else
 * 0.
 */
int tsr_pass_uploads_at(const struct tsr_pass *pass, uint32_t frame);

#endif
