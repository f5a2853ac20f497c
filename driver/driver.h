/*
 * driver.h - the process state of tessera's drop-in EGL 1.4 and OpenGL ES
 * 2.0 driver (issue 31, docs/driver.md): the displays, configs, surfaces
 * and contexts that egl.c hands out as EGL handles, each thread's current
 * context and EGL error, the configuration read from the environment
 * (TESSERA_CONFIG, TESSERA_SET, TESSERA_OUT, TESSERA_FRAMES), and the
 * reporting of the renderer's errors.
 *
 * The driver is a shim between a program and libtessera: the GL ES state
 * machine is src/gles (one tsr_gles_context per EGL context) and the
 * renderer is src/gles/device.h (one device per EGL surface, its default
 * framebuffer). It is the only code of tessera that prints inside another
 * program (stderr, "tessera: ...") and may end it (TESSERA_FRAMES): the
 * library under src/ never does either.
 *
 * Lifetimes: a surface's device is made at its first eglMakeCurrent (the
 * first device made writes to TESSERA_OUT itself, later ones to
 * TESSERA_OUT/surface-N); a context's GL ES context at its first
 * eglMakeCurrent, with the size of that draw surface (the GL default
 * framebuffer's size, initial viewport and scissor). An object destroyed,
 * or its display terminated, while current goes when it is no longer
 * current (EGL 1.4, 3.2 and 3.7.2).
 *
 * Nothing here is exported: the library exports only egl* and gl*
 * (driver/exports.map). EGL entry points hold drv_lock() while they touch
 * the lists; the GL entry points read the calling thread's current context
 * (drv_current) without a lock, as a context is current to one thread.
 */
#ifndef TSR_DRIVER_DRIVER_H
#define TSR_DRIVER_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "config/config.h"
#include "core/status.h"
#include "gles/device.h"
#include "gles/gles.h"

/* The platforms of a display. */
enum drv_platform {
	DRV_PLATFORM_X11,         /* an X11 Display* (eglGetDisplay of one, EGL_PLATFORM_X11) */
	DRV_PLATFORM_DEFAULT,     /* EGL_DEFAULT_DISPLAY: X11 through $DISPLAY when a window
	                             surface is made, else pbuffers only */
	DRV_PLATFORM_SURFACELESS, /* EGL_PLATFORM_SURFACELESS_MESA: pbuffers only */
};

/* One EGLConfig (driver.c's table; the handle is its address). */
struct drv_config {
	EGLint id;                        /* EGL_CONFIG_ID, 1.. */
	EGLint red, green, blue, alpha;   /* bits */
	EGLint buffer;                    /* EGL_BUFFER_SIZE */
	EGLint depth, stencil;            /* bits */
};

/* The configs, in EGL_CONFIG_ID order. */
extern const struct drv_config drv_configs[];
extern const unsigned drv_config_count;

struct drv_display;
struct drv_surface;
struct drv_context;

struct drv_surface {
	struct drv_surface *next;     /* the display's list */
	struct drv_display *dpy;
	const struct drv_config *config;
	EGLint type;                  /* EGL_WINDOW_BIT or EGL_PBUFFER_BIT */
	EGLint width, height;         /* pixels (EGL_WIDTH, EGL_HEIGHT) */
	EGLint largest_pbuffer;
	EGLint render_buffer;         /* EGL_BACK_BUFFER or EGL_SINGLE_BUFFER */
	EGLint swap_interval;
	unsigned long window;         /* the X11 window (window surfaces), else 0 */
	struct tsr_gles_device *device; /* made at the first eglMakeCurrent */
	struct drv_context *bound;    /* the context it is current with, or NULL */
	bool destroyed;               /* eglDestroySurface'd while current */
};

struct drv_context {
	struct drv_context *next;     /* the display's list */
	struct drv_display *dpy;
	const struct drv_config *config;
	struct tsr_gles_context *gles; /* made at the first eglMakeCurrent */
	struct drv_surface *draw, *read; /* while current */
	bool current;                 /* current to some thread */
	bool destroyed;               /* eglDestroyContext'd while current */
};

struct drv_display {
	bool used;                    /* the slot holds a display */
	enum drv_platform platform;
	void *native;                 /* the Display* (X11), else NULL */
	void *own_x11;                /* a Display* the driver opened (DEFAULT platform) */
	bool initialized;
	EGLint visual_id;             /* the X11 default visual's ID (configs'
	                                 EGL_NATIVE_VISUAL_ID), 0 without X11 */
	struct drv_surface *surfaces;
	struct drv_context *contexts;
};

/* The calling thread's current context (NULL: none): what every gl* call
 * works on. Set by eglMakeCurrent and eglReleaseThread. */
extern __thread struct drv_context *drv_current
	__attribute__((tls_model("initial-exec")));

/* The process lock of the EGL entry points (not recursive). */
void drv_lock(void);
void drv_unlock(void);

/* The thread's EGL error (eglGetError). */
void drv_set_error(EGLint error);
EGLint drv_take_error(void);
/* The thread's current display, draw and read surfaces (eglGetCurrent*);
 * the context is drv_current. */
struct drv_display *drv_current_display(void);

/* The display of a handle (NULL: not one of the driver's). */
struct drv_display *drv_display_of(EGLDisplay handle);
/* The display for platform and native (the same handle for the same pair);
 * NULL when there is no room for more (DRV_MAX_DISPLAYS). */
struct drv_display *drv_display_get(enum drv_platform platform, void *native);
/* The config of a handle, NULL when it is none. */
const struct drv_config *drv_config_of(EGLConfig handle);
/* Whether s / c is a live surface / context of dpy. */
bool drv_surface_valid(const struct drv_display *dpy, const struct drv_surface *s);
bool drv_context_valid(const struct drv_display *dpy, const struct drv_context *c);

/*
 * The run's configuration from the environment: TESSERA_CONFIG (a
 * configuration file, or none), TESSERA_SET (KEY=VALUE overrides separated
 * by newlines or ';'), read again at each call. TSR_OK, or the status and
 * err naming the file or key (tsr_config_apply_sets()).
 */
enum tsr_status drv_config_load(struct tsr_gpu_config *cfg, struct tsr_error *err);

/*
 * eglInitialize's reading of the environment: the configuration
 * (drv_config_load()), TESSERA_OUT (the devices' output folder),
 * TESSERA_FRAMES (a positive count: the process ends after that many
 * eglSwapBuffers, counted from here) and TESSERA_RECORD_TRACE (CACHE=FILE:
 * each device records cache CACHE's input into FILE, a file name, in its
 * output folder; needs TESSERA_OUT). TSR_OK, or TSR_ERR_CONFIG (and the others of
 * drv_config_load()) naming the variable or key; nothing changes then.
 */
enum tsr_status drv_setup(struct tsr_error *err);

/*
 * Makes c current on the calling thread with draw and read (all NULL:
 * releases the thread's context), making the context's GL ES context and
 * the draw surface's device when they do not exist yet. Called with the
 * lock held; checks done by the caller (egl.c). EGL_SUCCESS, or
 * EGL_BAD_ALLOC when the GL ES context or the device cannot be made (the
 * reason printed once).
 */
EGLint drv_make_current(struct drv_context *c, struct drv_surface *draw,
			struct drv_surface *read);
/* Frees s / c now, or marks it to go when it is no longer current. */
void drv_surface_destroy(struct drv_surface *s);
void drv_context_destroy(struct drv_context *c);
/* eglTerminate: every surface and context of dpy goes (those current
 * when they are released). */
void drv_display_terminate(struct drv_display *dpy);

/*
 * eglSwapBuffers on s (current to the calling thread): the device's frame
 * ends. When TESSERA_FRAMES is set and that many frames have ended in the
 * process, every device is destroyed (writing its statistics), a line
 * says so on stderr and the process exits with status 0 (docs/driver.md).
 * Called with the lock held; returns with it released when it returns.
 */
void drv_swap(struct drv_surface *s);

/*
 * Prints "tessera: <err's message>" to stderr, once per distinct message
 * (at most DRV_MAX_MESSAGES distinct ones, then one line saying the rest
 * are not shown). For the renderer's errors, which change nothing the
 * program can see: the program keeps running.
 */
void drv_report(enum tsr_status s, const struct tsr_error *err);

#endif
