/*
 * device.h - the renderer behind a GL ES 2.0 context (gles.h): what the
 * EGL / GL ES driver (driver/) asks of the modelled GPU. The context is a
 * pure state machine; every call that makes or reads pixels goes here:
 * glDrawArrays / glDrawElements (after tsr_gles_draw_arrays_state() or
 * tsr_gles_draw_elements_state() validated them), glClear (after
 * tsr_gles_clear_state()), glReadPixels and CopyTex[Sub]Image2D's reads,
 * glFlush / glFinish, and eglSwapBuffers, which ends a frame.
 *
 * A device renders into one window-sized default framebuffer (an EGL
 * surface) and the context's framebuffer objects; it reads buffer and
 * texture contents from the context at the call, as GL's semantics ask (a
 * later BufferData does not change a draw already made).
 *
 * What it renders and what it refuses (TSR_ERR_UNSUPPORTED naming it):
 * device.c's header comment and docs/gles.md, "The device".
 */
#ifndef TSR_GLES_DEVICE_H
#define TSR_GLES_DEVICE_H

#include <stdint.h>

#include "config/config.h"
#include "core/status.h"
#include "gles/gles.h"

struct tsr_gles_device;

struct tsr_gles_device_params {
	uint32_t width, height;              /* the default framebuffer, pixels */
	struct tsr_gles_config bits;         /* its bits per channel (EGL config) */
	const struct tsr_gpu_config *config; /* the modelled GPU (copied) */
	const char *out_dir;                 /* stats.json, frames.csv and frame
	                                        images go here (as `tessera run
	                                        --out` writes them); NULL: none */
	const char *frame_images;            /* which frames' images out_dir gets
	                                        (tsr_gles_frame_images_check());
	                                        NULL: all */
	const char *frames;                  /* the frames simulated fully (`tessera run
	                                        --frames`: a frame list, "5-7,20";
	                                        report/report.h); the others are
	                                        fast-forwarded (tsr_gpu_set_fast_forward():
	                                        rendered exactly, no memory or timing
	                                        model) and out_dir's stats.json,
	                                        frames.csv and images leave them out;
	                                        NULL: all */
	uint32_t warmup;                     /* with frames: the frames before each
	                                        selected one that warm the memory
	                                        hierarchy up (TSR_GPU_WARM: caches run,
	                                        no timing, in no output) */
	const char *sample;                  /* `tessera run --sample`: the clusters'
	                                        representatives as "FRAME:WEIGHT:CV,..."
	                                        (sample/sample.h; frames selects them):
	                                        stats.json's total is the estimate, the
	                                        sum of each one's counters times its
	                                        weight, with a "sample" object (its
	                                        bounds); NULL: none */
	int features;                        /* out_dir gets features.csv too: every
	                                        frame's functional counters, fast-
	                                        forwarded or not (sample/sample.h) */
	const char *heatmaps;                /* per-tile heatmaps of those frames
	                                        (`tessera run --heatmaps`: counter
	                                        names, comma-separated; report/
	                                        heatmap.h); NULL: none */
	const char *record_cache;            /* a cache whose input stream is recorded
	                                        (`tessera run --record-trace`'s
	                                        binary trace, trace/trace.h) into
	                                        out_dir/record_file; NULL: none */
	const char *record_file;             /* that trace's file name in out_dir
	                                        (no '/'); needs out_dir */
};

/*
 * Checks a device's heatmaps list against configuration cfg
 * (tsr_heatmaps_parse() and tsr_heatmaps_check()). Errors: TSR_ERR_CONFIG.
 */
enum tsr_status tsr_gles_heatmaps_check(const char *list, const struct tsr_gpu_config *cfg,
					struct tsr_error *err);

/*
 * Checks a device's frame_images: "all" (every frame's frame-NNNN.png),
 * "none", "last" (the last frame's only, written when the device is
 * destroyed) or a comma-separated list of frame numbers ("0,5,9"); what
 * is not written is not encoded (PNG encoding costs about 6% of a replay's
 * CPU time). Errors: TSR_ERR_CONFIG naming the item that is not a frame
 * number.
 */
enum tsr_status tsr_gles_frame_images_check(const char *spec, struct tsr_error *err);

/*
 * Builds a device for one surface. Errors: TSR_ERR_CONFIG (a size of 0 or
 * above TSR_GLES_MAX_VIEWPORT_DIMS, a bad frame_images; a record_cache the
 * configuration has not, named with the caches it has, or one without
 * out_dir or a record_file that is not a plain file name), those of
 * tsr_gpu_create(), TSR_ERR_IO (out_dir, the trace), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_gles_device_create(const struct tsr_gles_device_params *p,
				       struct tsr_gles_device **out, struct tsr_error *err);

/* Renders what is pending, writes the run's totals (stats.json) and the
 * recorded trace (record_cache) when out_dir was given, and frees the
 * device (NULL: nothing). Errors of the final write are reported through
 * err (may be NULL) and the return. */
enum tsr_status tsr_gles_device_destroy(struct tsr_gles_device *d, struct tsr_error *err);

/* One draw of ctx's current state (d as tsr_gles_draw_*_state() made it).
 * Errors: TSR_ERR_UNSUPPORTED naming what the pipelines do not implement,
 * TSR_ERR_LIMIT (Parameter Buffer full), TSR_ERR_NOMEM. */
enum tsr_status tsr_gles_device_draw(struct tsr_gles_device *dev,
				     const struct tsr_gles_context *ctx,
				     const struct tsr_gles_draw *d, struct tsr_error *err);

/* glClear of the framebuffer bound in ctx (c as tsr_gles_clear_state() made
 * it). Errors: those of tsr_gles_device_draw(). */
enum tsr_status tsr_gles_device_clear(struct tsr_gles_device *dev,
				      const struct tsr_gles_context *ctx,
				      const struct tsr_clear_state *c, struct tsr_error *err);

/* The pixels of the read framebuffer bound in ctx (READ_FRAMEBUFFER_NV;
 * FRAMEBUFFER binds it too), after rendering what is
 * pending: the rectangle (x, y, w, h) in GL's window coordinates (origin
 * lower left), as RGBA8, rows bottom to top, w * 4 bytes each; pixels
 * outside the framebuffer are left untouched. Errors: those of
 * tsr_gles_device_draw(). */
enum tsr_status tsr_gles_device_read_pixels(struct tsr_gles_device *dev,
					    const struct tsr_gles_context *ctx, GLint x, GLint y,
					    GLsizei w, GLsizei h, uint8_t *rgba,
					    struct tsr_error *err);

/* glGenerateMipmap(target) after ctx made the levels (GL_OES_texture_npot:
 * any size): a render target texture's mip chain on the GPU is rebuilt from
 * the image its passes rendered, after the frame's last pass into it so far
 * (a later draw into it starts a new pass), or at once when no pass of the
 * frame draws it. Other textures' chains the GPU builds from level 0 when
 * a draw samples them. Nothing for another target, or when ctx made no
 * levels (the call failed). Errors: TSR_ERR_NOMEM. */
enum tsr_status tsr_gles_device_generate_mipmap(struct tsr_gles_device *dev,
						const struct tsr_gles_context *ctx, GLenum target,
						struct tsr_error *err);

/* glDiscardFramebufferEXT of the buffers in mask (COLOR/DEPTH/STENCIL_
 * BUFFER_BIT, as tsr_gles_DiscardFramebufferEXT() returned them) of the
 * framebuffer bound in ctx. DEPTH of a framebuffer object whose open pass
 * stores its depth into a depth texture: the pass ends without that store
 * (its tiles' depth is not written back: no render_target traffic for it)
 * and the texture's depth becomes undefined (a later pass does not load
 * it). Everything else changes nothing: depth and stencil never leave the
 * chip otherwise, and a discarded color is still stored (not modelled).
 * Errors: none yet (TSR_OK). */
enum tsr_status tsr_gles_device_discard(struct tsr_gles_device *dev,
					const struct tsr_gles_context *ctx, GLbitfield mask,
					struct tsr_error *err);

/*
 * glBlitFramebufferNV (GL_NV_framebuffer_blit) of the buffers in mask
 * (COLOR/DEPTH/STENCIL_BUFFER_BIT, as tsr_gles_BlitFramebufferNV()
 * returned them) from the read framebuffer bound in ctx to the draw one:
 * the source rectangle src (x0, y0, x1, y1, GL's window coordinates) into
 * the destination rectangle dst, filter NEAREST or LINEAR (color only),
 * under ctx's scissor box; flips, scaling and clipping as command.h's
 * struct tsr_cmd_blit says. Recorded as a blit command after every pass
 * recorded so far (the open pass ends: a later draw opens a new one, which
 * keeps a render target's or the window's color), after a pass of its own
 * for a clear pending on the source or the destination; the GPU renders
 * it with the frame (its traffic in the frame's counters). A color blit
 * into the window makes the frame's later window passes keep its color;
 * a depth blit makes the destination depth texture's next pass load its
 * depth. Errors: TSR_ERR_UNSUPPORTED for a depth blit whose source or
 * destination is not a depth texture (the window's and renderbuffers'
 * depth never leave the chip), a stencil blit (after the color and depth
 * ones are recorded), a color blit into several draw buffers; those of
 * tsr_gles_device_draw().
 */
enum tsr_status tsr_gles_device_blit(struct tsr_gles_device *dev,
				     const struct tsr_gles_context *ctx, const GLint src[4],
				     const GLint dst[4], GLbitfield mask, GLenum filter,
				     struct tsr_error *err);

/* glFlush / glFinish: renders what is pending. */
enum tsr_status tsr_gles_device_flush(struct tsr_gles_device *dev, struct tsr_error *err);

/* eglSwapBuffers: the frame ends (its statistics and image are written to
 * out_dir), the next one begins. */
enum tsr_status tsr_gles_device_swap(struct tsr_gles_device *dev, struct tsr_error *err);

/* Frames rendered so far (fast-forwarded ones included) whose counters
 * are in the run's totals: those params.frames selects. */
uint32_t tsr_gles_device_simulated(const struct tsr_gles_device *dev);

/* Frames ended so far. */
uint32_t tsr_gles_device_frames(const struct tsr_gles_device *dev);

struct tsr_frame_stats;

/* The counters of the render done last: a swap's frame (with the
 * frame's mid-frame flushes), or what a ReadPixels rendered first (a
 * flush, whose counters the next swap's frame adds); valid until the next
 * render; NULL before any. */
const struct tsr_frame_stats *tsr_gles_device_last_frame(const struct tsr_gles_device *dev);

#endif
