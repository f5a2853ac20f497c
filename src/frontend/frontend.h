/*
 * frontend.h - frontends turn an application's input into per-frame
 * command lists (command/command.h). The workload frontend evaluates a
 * loaded workload (scene/scene.h) at a frame with the pure functions of
 * animation.h (its camera, the objects' animation and the texture
 * uploads), and emits its passes in order (a render-target pass, then
 * the ones that sample it), each with one draw per mesh of each of its
 * objects, in the workload's order. A GL-trace frontend will sit beside it.
 */
#ifndef TSR_FRONTEND_FRONTEND_H
#define TSR_FRONTEND_FRONTEND_H

#include <stdint.h>

#include "command/command.h"
#include "core/status.h"
#include "scene/scene.h"

/* The workload's meshes, materials and images as command-list resources. */
struct tsr_resources tsr_workload_resources(const struct tsr_scene *sc);

/*
 * Fills c with frame `frame` of the workload, for a screen of width x
 * height pixels (its aspect width / height): per pass its target (the
 * frame buffer, or a render target whose own aspect its camera and
 * screen-space objects then use) and its clear (color and depth, depth
 * alone for a depth target; the pass's clear color, depth 1.0), a draw
 * per object mesh with its MVP and model matrices, its material after
 * uploads and the GL ES state that material stands for
 * (tsr_draw_state_from_material(): the whole target as viewport), and a
 * texture-upload event per upload at exactly this frame.
 * Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_workload_commands(const struct tsr_scene *sc, uint32_t frame,
				      uint32_t width, uint32_t height,
				      struct tsr_frame_commands *c,
				      struct tsr_error *err);

#endif
