/*
 * egl.c - EGL 1.4 over tessera (docs/driver.md): displays of the X11,
 * default and surfaceless platforms (EGL_EXT_platform_base,
 * EGL_KHR/EXT_platform_x11, EGL_MESA_platform_surfaceless, and EGL 1.5's
 * eglGetPlatformDisplay / eglCreatePlatformWindowSurface), the configs of
 * driver.c with EGL 1.4's matching and sorting (3.4.1, table 3.4), window
 * and pbuffer surfaces, OpenGL ES 2.0 contexts, eglMakeCurrent,
 * eglSwapBuffers (one frame of the surface's device), the queries and
 * eglGetProcAddress, with EGL's error rules: every call sets the calling
 * thread's error (EGL_SUCCESS when it succeeds), eglGetError returns it and
 * resets it.
 *
 * A window surface renders off-screen at the window's size when the
 * surface is made (XGetWindowAttributes); nothing is drawn on the window.
 * Left out: pixmap surfaces, binding pbuffers to textures, shared contexts
 * (EGL_BAD_MATCH), surfaceless contexts (EGL_KHR_surfaceless_context),
 * other client APIs.
 */
#define EGL_EGLEXT_PROTOTYPES 1 /* eglext.h declares the *EXT functions */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xlib.h>

#include "driver/driver.h"
#include "driver/procs.h"

#define VENDOR "tessera"
#define VERSION "1.4 tessera"
#define CLIENT_APIS "OpenGL_ES"
#define CLIENT_EXTENSIONS \
	"EGL_EXT_client_extensions EGL_EXT_platform_base EGL_KHR_platform_x11 " \
	"EGL_EXT_platform_x11 EGL_MESA_platform_surfaceless " \
	"EGL_KHR_client_get_all_proc_addresses"
#define DISPLAY_EXTENSIONS "EGL_KHR_get_all_proc_addresses"

#define MAX_PBUFFER_SIDE 4096  /* TSR_GLES_MAX_VIEWPORT_DIMS */
#define MAX_ATTRIBS 64         /* attribute pairs of one list read */

/* Returns ret from an entry point with the thread's error set to e and
 * the lock released. */
#define FAIL(e, ret)                \
	do {                        \
		drv_set_error(e);   \
		drv_unlock();       \
		return ret;         \
	} while (0)
#define OK(ret)                               \
	do {                                  \
		drv_set_error(EGL_SUCCESS);   \
		drv_unlock();                 \
		return ret;                   \
	} while (0)

/* dpy's display when it is one and initialized; else the error is set and
 * NULL returned. Lock held. */
static struct drv_display *display_ready(EGLDisplay handle)
{
	struct drv_display *dpy = drv_display_of(handle);
	if (!dpy)
		drv_set_error(EGL_BAD_DISPLAY);
	else if (!dpy->initialized)
		drv_set_error(EGL_NOT_INITIALIZED);
	else
		return dpy;
	return NULL;
}

#define READY(dpy, handle, ret)              \
	struct drv_display *dpy = display_ready(handle); \
	if (!dpy) {                          \
		drv_unlock();                \
		return ret;                  \
	}

/* An attribute list as EGLint pairs (EGL_NONE-terminated; NULL is empty):
 * n pairs copied into out; false when longer than MAX_ATTRIBS pairs. */
static bool attribs_int(const EGLint *in, EGLint *out, size_t *n)
{
	*n = 0;
	for (; in && in[0] != EGL_NONE; in += 2) {
		if (*n == MAX_ATTRIBS)
			return false;
		out[2 * *n] = in[0];
		out[2 * *n + 1] = in[1];
		++*n;
	}
	return true;
}

static bool attribs_ptr(const EGLAttrib *in, EGLint *out, size_t *n)
{
	*n = 0;
	for (; in && in[0] != EGL_NONE; in += 2) {
		if (*n == MAX_ATTRIBS)
			return false;
		out[2 * *n] = (EGLint)in[0];
		out[2 * *n + 1] = (EGLint)in[1];
		++*n;
	}
	return true;
}

/* ---- errors, displays, initialization ---- */

EGLint EGLAPIENTRY eglGetError(void)
{
	return drv_take_error();
}

/* The display for platform and native; EGL_NO_DISPLAY when there is no room. */
static EGLDisplay get_display(enum drv_platform platform, void *native)
{
	drv_lock();
	struct drv_display *dpy = drv_display_get(platform, native);
	if (!dpy)
		FAIL(EGL_BAD_ALLOC, EGL_NO_DISPLAY);
	OK((EGLDisplay)dpy);
}

EGLDisplay EGLAPIENTRY eglGetDisplay(EGLNativeDisplayType display_id)
{
	/* any display but the default one is taken for an X11 Display*, the
	 * only native platform the driver knows */
	if (display_id == EGL_DEFAULT_DISPLAY)
		return get_display(DRV_PLATFORM_DEFAULT, NULL);
	return get_display(DRV_PLATFORM_X11, (void *)display_id);
}

/* eglGetPlatformDisplay[EXT] with the attribute pairs of attr. */
static EGLDisplay platform_display(EGLenum platform, void *native, const EGLint *attr, size_t n,
				   bool too_long)
{
	if (too_long) {
		drv_set_error(EGL_BAD_ATTRIBUTE);
		return EGL_NO_DISPLAY;
	}
	if (platform == EGL_PLATFORM_X11_KHR) {
		for (size_t i = 0; i < n; i++)
			if (attr[2 * i] != EGL_PLATFORM_X11_SCREEN_KHR) {
				drv_set_error(EGL_BAD_ATTRIBUTE);
				return EGL_NO_DISPLAY;
			}
		return native ? get_display(DRV_PLATFORM_X11, native)
			      : get_display(DRV_PLATFORM_DEFAULT, NULL);
	}
	if (platform == EGL_PLATFORM_SURFACELESS_MESA) {
		if (n) {
			drv_set_error(EGL_BAD_ATTRIBUTE);
			return EGL_NO_DISPLAY;
		}
		if (native) {
			drv_set_error(EGL_BAD_PARAMETER);
			return EGL_NO_DISPLAY;
		}
		return get_display(DRV_PLATFORM_SURFACELESS, NULL);
	}
	drv_set_error(EGL_BAD_PARAMETER);
	return EGL_NO_DISPLAY;
}

EGLDisplay EGLAPIENTRY eglGetPlatformDisplay(EGLenum platform, void *native_display,
					     const EGLAttrib *attrib_list)
{
	EGLint a[2 * MAX_ATTRIBS];
	size_t n;
	bool ok = attribs_ptr(attrib_list, a, &n);
	return platform_display(platform, native_display, a, n, !ok);
}

EGLDisplay EGLAPIENTRY eglGetPlatformDisplayEXT(EGLenum platform, void *native_display,
						const EGLint *attrib_list)
{
	EGLint a[2 * MAX_ATTRIBS];
	size_t n;
	bool ok = attribs_int(attrib_list, a, &n);
	return platform_display(platform, native_display, a, n, !ok);
}

/* The X11 display of dpy: the program's, or one the driver opens for
 * the default display ($DISPLAY); NULL when there is none. */
static Display *x11_display(struct drv_display *dpy)
{
	if (dpy->platform == DRV_PLATFORM_X11)
		return dpy->native;
	if (dpy->platform == DRV_PLATFORM_DEFAULT) {
		if (!dpy->own_x11 && getenv("DISPLAY"))
			dpy->own_x11 = XOpenDisplay(NULL);
		return dpy->own_x11;
	}
	return NULL;
}

EGLBoolean EGLAPIENTRY eglInitialize(EGLDisplay handle, EGLint *major, EGLint *minor)
{
	drv_lock();
	struct drv_display *dpy = drv_display_of(handle);
	if (!dpy)
		FAIL(EGL_BAD_DISPLAY, EGL_FALSE);
	if (!dpy->initialized) {
		struct tsr_error err = {{0}};
		enum tsr_status st = drv_setup(&err);
		if (st != TSR_OK) {
			drv_report(st, &err);
			FAIL(EGL_NOT_INITIALIZED, EGL_FALSE);
		}
		/* the configs' native visual: the default one of the default
		 * screen (nothing is drawn on the windows) */
		dpy->visual_id = 0;
		if (dpy->platform == DRV_PLATFORM_X11 ||
		    (dpy->platform == DRV_PLATFORM_DEFAULT && getenv("DISPLAY"))) {
			Display *x = x11_display(dpy);
			if (x)
				dpy->visual_id = (EGLint)XVisualIDFromVisual(
					DefaultVisual(x, DefaultScreen(x)));
		}
		dpy->initialized = true;
	}
	if (major)
		*major = 1;
	if (minor)
		*minor = 4;
	OK(EGL_TRUE);
}

EGLBoolean EGLAPIENTRY eglTerminate(EGLDisplay handle)
{
	drv_lock();
	struct drv_display *dpy = drv_display_of(handle);
	if (!dpy)
		FAIL(EGL_BAD_DISPLAY, EGL_FALSE);
	if (dpy->initialized)
		drv_display_terminate(dpy);
	OK(EGL_TRUE);
}

const char *EGLAPIENTRY eglQueryString(EGLDisplay handle, EGLint name)
{
	drv_lock();
	if (handle == EGL_NO_DISPLAY) {
		if (name == EGL_EXTENSIONS)
			OK(CLIENT_EXTENSIONS);
		FAIL(EGL_BAD_DISPLAY, NULL);
	}
	READY(dpy, handle, NULL);
	(void)dpy;
	switch (name) {
	case EGL_VENDOR: OK(VENDOR);
	case EGL_VERSION: OK(VERSION);
	case EGL_CLIENT_APIS: OK(CLIENT_APIS);
	case EGL_EXTENSIONS: OK(DISPLAY_EXTENSIONS);
	default: FAIL(EGL_BAD_PARAMETER, NULL);
	}
}

/* ---- configs ---- */

/* The value of attribute attr of config c on dpy; false for an unknown
 * attribute. */
static bool config_attrib(const struct drv_display *dpy, const struct drv_config *c,
			  EGLint attr, EGLint *v)
{
	const bool pbuffer_only = dpy->platform == DRV_PLATFORM_SURFACELESS;
	switch (attr) {
	case EGL_BUFFER_SIZE: *v = c->buffer; break;
	case EGL_RED_SIZE: *v = c->red; break;
	case EGL_GREEN_SIZE: *v = c->green; break;
	case EGL_BLUE_SIZE: *v = c->blue; break;
	case EGL_ALPHA_SIZE: *v = c->alpha; break;
	case EGL_DEPTH_SIZE: *v = c->depth; break;
	case EGL_STENCIL_SIZE: *v = c->stencil; break;
	case EGL_CONFIG_ID: *v = c->id; break;
	case EGL_LUMINANCE_SIZE:
	case EGL_ALPHA_MASK_SIZE:
	case EGL_LEVEL:
	case EGL_SAMPLE_BUFFERS:
	case EGL_SAMPLES:
	case EGL_MIN_SWAP_INTERVAL:
	case EGL_TRANSPARENT_RED_VALUE:
	case EGL_TRANSPARENT_GREEN_VALUE:
	case EGL_TRANSPARENT_BLUE_VALUE: *v = 0; break;
	case EGL_MAX_SWAP_INTERVAL: *v = 1; break;
	case EGL_BIND_TO_TEXTURE_RGB:
	case EGL_BIND_TO_TEXTURE_RGBA:
	case EGL_NATIVE_RENDERABLE: *v = EGL_FALSE; break;
	case EGL_COLOR_BUFFER_TYPE: *v = EGL_RGB_BUFFER; break;
	case EGL_CONFIG_CAVEAT:
	case EGL_TRANSPARENT_TYPE: *v = EGL_NONE; break;
	case EGL_CONFORMANT:
	case EGL_RENDERABLE_TYPE: *v = EGL_OPENGL_ES2_BIT; break;
	case EGL_SURFACE_TYPE: *v = pbuffer_only ? EGL_PBUFFER_BIT
						 : EGL_WINDOW_BIT | EGL_PBUFFER_BIT; break;
	case EGL_MAX_PBUFFER_WIDTH:
	case EGL_MAX_PBUFFER_HEIGHT: *v = MAX_PBUFFER_SIDE; break;
	case EGL_MAX_PBUFFER_PIXELS: *v = MAX_PBUFFER_SIDE * MAX_PBUFFER_SIDE; break;
	case EGL_NATIVE_VISUAL_ID: *v = dpy->visual_id; break;
	case EGL_NATIVE_VISUAL_TYPE: *v = dpy->visual_id ? TrueColor : EGL_NONE; break;
	default: return false;
	}
	return true;
}

EGLBoolean EGLAPIENTRY eglGetConfigs(EGLDisplay handle, EGLConfig *configs, EGLint config_size,
				     EGLint *num_config)
{
	drv_lock();
	READY(dpy, handle, EGL_FALSE);
	(void)dpy;
	if (!num_config)
		FAIL(EGL_BAD_PARAMETER, EGL_FALSE);
	EGLint n = (EGLint)drv_config_count;
	if (configs) {
		n = config_size < n ? (config_size > 0 ? config_size : 0) : n;
		for (EGLint i = 0; i < n; i++)
			configs[i] = (EGLConfig)&drv_configs[i];
	}
	*num_config = n;
	OK(EGL_TRUE);
}

/* How table 3.4 compares an attribute. */
enum match { M_ATLEAST, M_EXACT, M_MASK, M_IGNORED, M_SPECIAL };

/* Table 3.4: an attribute's matching rule and default; false when it is
 * no config attribute. */
static bool match_rule(EGLint attr, enum match *m, EGLint *def)
{
	*def = EGL_DONT_CARE;
	switch (attr) {
	case EGL_BUFFER_SIZE: case EGL_RED_SIZE: case EGL_GREEN_SIZE: case EGL_BLUE_SIZE:
	case EGL_LUMINANCE_SIZE: case EGL_ALPHA_SIZE: case EGL_ALPHA_MASK_SIZE:
	case EGL_DEPTH_SIZE: case EGL_STENCIL_SIZE: case EGL_SAMPLE_BUFFERS: case EGL_SAMPLES:
		*m = M_ATLEAST;
		*def = 0;
		return true;
	case EGL_COLOR_BUFFER_TYPE:
		*m = M_EXACT;
		*def = EGL_RGB_BUFFER;
		return true;
	case EGL_LEVEL:
		*m = M_EXACT;
		*def = 0;
		return true;
	case EGL_TRANSPARENT_TYPE:
		*m = M_EXACT;
		*def = EGL_NONE;
		return true;
	case EGL_BIND_TO_TEXTURE_RGB: case EGL_BIND_TO_TEXTURE_RGBA: case EGL_CONFIG_CAVEAT:
	case EGL_CONFIG_ID: case EGL_MAX_SWAP_INTERVAL: case EGL_MIN_SWAP_INTERVAL:
	case EGL_NATIVE_RENDERABLE: case EGL_NATIVE_VISUAL_TYPE: case EGL_TRANSPARENT_RED_VALUE:
	case EGL_TRANSPARENT_GREEN_VALUE: case EGL_TRANSPARENT_BLUE_VALUE:
		*m = M_EXACT;
		return true;
	case EGL_CONFORMANT:
		*m = M_MASK;
		*def = 0;
		return true;
	case EGL_RENDERABLE_TYPE:
		*m = M_MASK;
		*def = EGL_OPENGL_ES_BIT;
		return true;
	case EGL_SURFACE_TYPE:
		*m = M_MASK;
		*def = EGL_WINDOW_BIT;
		return true;
	case EGL_MAX_PBUFFER_WIDTH: case EGL_MAX_PBUFFER_HEIGHT: case EGL_MAX_PBUFFER_PIXELS:
	case EGL_NATIVE_VISUAL_ID:
		*m = M_IGNORED;
		return true;
	case EGL_MATCH_NATIVE_PIXMAP:
		*m = M_SPECIAL;
		*def = EGL_NONE;
		return true;
	default:
		return false;
	}
}

/* The attributes of a config request: every attribute of table 3.4 with
 * its default, then the list's values (the last one of an attribute
 * wins). */
struct request {
	size_t n;
	EGLint attr[40], value[40];
};

static EGLint request_get(const struct request *r, EGLint attr)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->attr[i] == attr)
			return r->value[i];
	return EGL_DONT_CARE;
}

/* Fills r from list; false (EGL_BAD_ATTRIBUTE) for an unknown attribute. */
static bool request_fill(struct request *r, const EGLint *list)
{
	static const EGLint all[] = {
		EGL_BUFFER_SIZE, EGL_RED_SIZE, EGL_GREEN_SIZE, EGL_BLUE_SIZE, EGL_LUMINANCE_SIZE,
		EGL_ALPHA_SIZE, EGL_ALPHA_MASK_SIZE, EGL_DEPTH_SIZE, EGL_STENCIL_SIZE,
		EGL_SAMPLE_BUFFERS, EGL_SAMPLES, EGL_COLOR_BUFFER_TYPE, EGL_LEVEL,
		EGL_TRANSPARENT_TYPE, EGL_BIND_TO_TEXTURE_RGB, EGL_BIND_TO_TEXTURE_RGBA,
		EGL_CONFIG_CAVEAT, EGL_CONFIG_ID, EGL_MAX_SWAP_INTERVAL, EGL_MIN_SWAP_INTERVAL,
		EGL_NATIVE_RENDERABLE, EGL_NATIVE_VISUAL_TYPE, EGL_TRANSPARENT_RED_VALUE,
		EGL_TRANSPARENT_GREEN_VALUE, EGL_TRANSPARENT_BLUE_VALUE, EGL_CONFORMANT,
		EGL_RENDERABLE_TYPE, EGL_SURFACE_TYPE, EGL_MATCH_NATIVE_PIXMAP,
	};
	r->n = sizeof(all) / sizeof(all[0]);
	for (size_t i = 0; i < r->n; i++) {
		enum match m;
		r->attr[i] = all[i];
		match_rule(all[i], &m, &r->value[i]);
	}
	for (; list && list[0] != EGL_NONE; list += 2) {
		enum match m;
		EGLint def;
		if (!match_rule(list[0], &m, &def))
			return false;
		for (size_t i = 0; i < r->n; i++)
			if (r->attr[i] == list[0])
				r->value[i] = list[1];
	}
	return true;
}

static bool config_matches(const struct drv_display *dpy, const struct drv_config *c,
			   const struct request *r)
{
	const EGLint id = request_get(r, EGL_CONFIG_ID);
	if (id != EGL_DONT_CARE)
		return c->id == id;  /* 3.4.1: every other attribute is ignored */
	for (size_t i = 0; i < r->n; i++) {
		enum match m;
		EGLint def, have = 0;
		match_rule(r->attr[i], &m, &def);
		const EGLint want = r->value[i];
		if (m == M_SPECIAL) {
			if (want != EGL_NONE)
				return false;  /* no pixmap surfaces */
			continue;
		}
		if (m == M_IGNORED || want == EGL_DONT_CARE)
			continue;
		config_attrib(dpy, c, r->attr[i], &have);
		if ((m == M_ATLEAST && have < want) || (m == M_EXACT && have != want) ||
		    (m == M_MASK && (have & want) != want))
			return false;
	}
	return true;
}

/* The sort of 3.4.1 (table 3.4's priorities), for qsort_r-less qsort. */
static const struct request *sort_request;

/* The bits of c's color channels that the request asks for (a size above
 * 0 and not EGL_DONT_CARE): more come first. */
static EGLint requested_color_bits(const struct drv_config *c, const struct request *r)
{
	return (request_get(r, EGL_RED_SIZE) > 0 ? c->red : 0) +
	       (request_get(r, EGL_GREEN_SIZE) > 0 ? c->green : 0) +
	       (request_get(r, EGL_BLUE_SIZE) > 0 ? c->blue : 0) +
	       (request_get(r, EGL_ALPHA_SIZE) > 0 ? c->alpha : 0);
}

static int config_order(const void *pa, const void *pb)
{
	const struct drv_config *a = *(const struct drv_config *const *)pa;
	const struct drv_config *b = *(const struct drv_config *const *)pb;
	/* caveat, color buffer type, samples, alpha mask and visual type are
	 * the same for every config */
	const EGLint ca = requested_color_bits(a, sort_request);
	const EGLint cb = requested_color_bits(b, sort_request);
	if (ca != cb)
		return ca > cb ? -1 : 1;
	if (a->buffer != b->buffer)
		return a->buffer < b->buffer ? -1 : 1;
	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	if (a->stencil != b->stencil)
		return a->stencil < b->stencil ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

EGLBoolean EGLAPIENTRY eglChooseConfig(EGLDisplay handle, const EGLint *attrib_list,
				       EGLConfig *configs, EGLint config_size,
				       EGLint *num_config)
{
	drv_lock();
	READY(dpy, handle, EGL_FALSE);
	if (!num_config)
		FAIL(EGL_BAD_PARAMETER, EGL_FALSE);
	struct request r;
	if (!request_fill(&r, attrib_list))
		FAIL(EGL_BAD_ATTRIBUTE, EGL_FALSE);
	const struct drv_config *match[64];  /* above drv_config_count */
	size_t n = 0;
	for (unsigned i = 0; i < drv_config_count && n < sizeof(match) / sizeof(match[0]); i++)
		if (config_matches(dpy, &drv_configs[i], &r))
			match[n++] = &drv_configs[i];
	sort_request = &r;
	qsort(match, n, sizeof(match[0]), config_order);
	if (configs) {
		n = config_size < (EGLint)n ? (config_size > 0 ? (size_t)config_size : 0) : n;
		for (size_t i = 0; i < n; i++)
			configs[i] = (EGLConfig)match[i];
	}
	*num_config = (EGLint)n;
	OK(EGL_TRUE);
}

EGLBoolean EGLAPIENTRY eglGetConfigAttrib(EGLDisplay handle, EGLConfig config, EGLint attribute,
					  EGLint *value)
{
	drv_lock();
	READY(dpy, handle, EGL_FALSE);
	const struct drv_config *c = drv_config_of(config);
	if (!c)
		FAIL(EGL_BAD_CONFIG, EGL_FALSE);
	if (!value)
		FAIL(EGL_BAD_PARAMETER, EGL_FALSE);
	if (!config_attrib(dpy, c, attribute, value))
		FAIL(EGL_BAD_ATTRIBUTE, EGL_FALSE);
	OK(EGL_TRUE);
}

/* ---- surfaces ---- */

static int x_error_seen;

static int x_error(Display *d, XErrorEvent *e)
{
	(void)d;
	(void)e;
	x_error_seen = 1;
	return 0;
}

/* The size of X11 window w (pixels); false when it is no window. Xlib's
 * default error handler would end the program on a bad window: a handler
 * of its own is set around the request. Lock held. */
static bool x11_window_size(Display *x, Window w, EGLint *width, EGLint *height)
{
	XWindowAttributes wa;
	XSync(x, False);
	int (*old)(Display *, XErrorEvent *) = XSetErrorHandler(x_error);
	x_error_seen = 0;
	Status ok = XGetWindowAttributes(x, w, &wa);
	XSync(x, False);
	XSetErrorHandler(old);
	if (!ok || x_error_seen)
		return false;
	*width = wa.width;
	*height = wa.height;
	return true;
}

static struct drv_surface *surface_new(struct drv_display *dpy, const struct drv_config *c,
				       EGLint type)
{
	struct drv_surface *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->dpy = dpy;
	s->config = c;
	s->type = type;
	s->render_buffer = EGL_BACK_BUFFER;
	s->swap_interval = 1;
	s->next = dpy->surfaces;
	dpy->surfaces = s;
	return s;
}

/* Checks shared by the surface constructors: dpy ready, config valid and
 * of type; the config, or NULL with the error set. Lock held. */
static const struct drv_config *surface_config(struct drv_display *dpy, EGLConfig config,
					       EGLint type)
{
	const struct drv_config *c = drv_config_of(config);
	EGLint st = 0;
	if (!c)
		drv_set_error(EGL_BAD_CONFIG);
	else if (config_attrib(dpy, c, EGL_SURFACE_TYPE, &st), !(st & type))
		drv_set_error(EGL_BAD_MATCH);
	else
		return c;
	return NULL;
}

/* A window surface of X11 window `window`, attributes attr (n pairs). */
static EGLSurface window_surface(EGLDisplay handle, EGLConfig config, unsigned long window,
				 const EGLint *attr, size_t n, bool too_long)
{
	drv_lock();
	READY(dpy, handle, EGL_NO_SURFACE);
	const struct drv_config *c = surface_config(dpy, config, EGL_WINDOW_BIT);
	if (!c) {
		drv_unlock();
		return EGL_NO_SURFACE;
	}
	EGLint render_buffer = EGL_BACK_BUFFER;
	if (too_long)
		FAIL(EGL_BAD_ATTRIBUTE, EGL_NO_SURFACE);
	for (size_t i = 0; i < n; i++) {
		const EGLint a = attr[2 * i], v = attr[2 * i + 1];
		if (a == EGL_RENDER_BUFFER && (v == EGL_BACK_BUFFER || v == EGL_SINGLE_BUFFER))
			render_buffer = v;
		else if (a == EGL_VG_COLORSPACE &&
			 (v == EGL_VG_COLORSPACE_sRGB || v == EGL_VG_COLORSPACE_LINEAR))
			continue;
		else if (a == EGL_VG_ALPHA_FORMAT &&
			 (v == EGL_VG_ALPHA_FORMAT_NONPRE || v == EGL_VG_ALPHA_FORMAT_PRE))
			continue;
		else
			FAIL(EGL_BAD_ATTRIBUTE, EGL_NO_SURFACE);
	}
	Display *x = x11_display(dpy);
	EGLint w, h;
	if (!x || !window || !x11_window_size(x, (Window)window, &w, &h))
		FAIL(EGL_BAD_NATIVE_WINDOW, EGL_NO_SURFACE);
	for (const struct drv_surface *s = dpy->surfaces; s; s = s->next)
		if (s->type == EGL_WINDOW_BIT && s->window == window && !s->destroyed)
			FAIL(EGL_BAD_ALLOC, EGL_NO_SURFACE);
	struct drv_surface *s = surface_new(dpy, c, EGL_WINDOW_BIT);
	if (!s)
		FAIL(EGL_BAD_ALLOC, EGL_NO_SURFACE);
	s->window = window;
	s->width = w;
	s->height = h;
	s->render_buffer = render_buffer;
	OK((EGLSurface)s);
}

EGLSurface EGLAPIENTRY eglCreateWindowSurface(EGLDisplay dpy, EGLConfig config,
					      EGLNativeWindowType win, const EGLint *attrib_list)
{
	EGLint a[2 * MAX_ATTRIBS];
	size_t n;
	bool ok = attribs_int(attrib_list, a, &n);
	return window_surface(dpy, config, (unsigned long)win, a, n, !ok);
}

/* EGL_KHR/EXT_platform_x11: native_window points to the X11 Window. */
static unsigned long platform_window(const void *native_window)
{
	return native_window ? *(const Window *)native_window : 0;
}

EGLSurface EGLAPIENTRY eglCreatePlatformWindowSurface(EGLDisplay dpy, EGLConfig config,
						      void *native_window,
						      const EGLAttrib *attrib_list)
{
	EGLint a[2 * MAX_ATTRIBS];
	size_t n;
	bool ok = attribs_ptr(attrib_list, a, &n);
	return window_surface(dpy, config, platform_window(native_window), a, n, !ok);
}

EGLSurface EGLAPIENTRY eglCreatePlatformWindowSurfaceEXT(EGLDisplay dpy, EGLConfig config,
							 void *native_window,
							 const EGLint *attrib_list)
{
	EGLint a[2 * MAX_ATTRIBS];
	size_t n;
	bool ok = attribs_int(attrib_list, a, &n);
	return window_surface(dpy, config, platform_window(native_window), a, n, !ok);
}

EGLSurface EGLAPIENTRY eglCreatePbufferSurface(EGLDisplay handle, EGLConfig config,
					       const EGLint *attrib_list)
{
	drv_lock();
	READY(dpy, handle, EGL_NO_SURFACE);
	const struct drv_config *c = surface_config(dpy, config, EGL_PBUFFER_BIT);
	if (!c) {
		drv_unlock();
		return EGL_NO_SURFACE;
	}
	EGLint w = 0, h = 0, largest = EGL_FALSE;
	for (const EGLint *a = attrib_list; a && a[0] != EGL_NONE; a += 2) {
		const EGLint v = a[1];
		switch (a[0]) {
		case EGL_WIDTH: w = v; break;
		case EGL_HEIGHT: h = v; break;
		case EGL_LARGEST_PBUFFER: largest = v ? EGL_TRUE : EGL_FALSE; break;
		case EGL_TEXTURE_FORMAT:
		case EGL_TEXTURE_TARGET:
			/* no config binds to textures */
			if (v != EGL_NO_TEXTURE)
				FAIL(EGL_BAD_MATCH, EGL_NO_SURFACE);
			break;
		case EGL_MIPMAP_TEXTURE:
		case EGL_VG_COLORSPACE:
		case EGL_VG_ALPHA_FORMAT:
			break;
		default:
			FAIL(EGL_BAD_ATTRIBUTE, EGL_NO_SURFACE);
		}
	}
	if (w < 0 || h < 0)
		FAIL(EGL_BAD_PARAMETER, EGL_NO_SURFACE);
	if (w > MAX_PBUFFER_SIDE || h > MAX_PBUFFER_SIDE) {
		if (!largest)
			FAIL(EGL_BAD_ALLOC, EGL_NO_SURFACE);
		w = w > MAX_PBUFFER_SIDE ? MAX_PBUFFER_SIDE : w;
		h = h > MAX_PBUFFER_SIDE ? MAX_PBUFFER_SIDE : h;
	}
	struct drv_surface *s = surface_new(dpy, c, EGL_PBUFFER_BIT);
	if (!s)
		FAIL(EGL_BAD_ALLOC, EGL_NO_SURFACE);
	s->width = w;
	s->height = h;
	s->largest_pbuffer = largest;
	OK((EGLSurface)s);
}

/* No config has EGL_PIXMAP_BIT. */
static EGLSurface no_pixmap(EGLDisplay handle, EGLConfig config)
{
	drv_lock();
	READY(dpy, handle, EGL_NO_SURFACE);
	if (!drv_config_of(config))
		FAIL(EGL_BAD_CONFIG, EGL_NO_SURFACE);
	(void)dpy;
	FAIL(EGL_BAD_MATCH, EGL_NO_SURFACE);
}

EGLSurface EGLAPIENTRY eglCreatePixmapSurface(EGLDisplay dpy, EGLConfig config,
					      EGLNativePixmapType pixmap, const EGLint *attrib_list)
{
	(void)pixmap;
	(void)attrib_list;
	return no_pixmap(dpy, config);
}

EGLSurface EGLAPIENTRY eglCreatePlatformPixmapSurface(EGLDisplay dpy, EGLConfig config,
						      void *native_pixmap,
						      const EGLAttrib *attrib_list)
{
	(void)native_pixmap;
	(void)attrib_list;
	return no_pixmap(dpy, config);
}

EGLSurface EGLAPIENTRY eglCreatePlatformPixmapSurfaceEXT(EGLDisplay dpy, EGLConfig config,
							 void *native_pixmap,
							 const EGLint *attrib_list)
{
	(void)native_pixmap;
	(void)attrib_list;
	return no_pixmap(dpy, config);
}

EGLSurface EGLAPIENTRY eglCreatePbufferFromClientBuffer(EGLDisplay handle, EGLenum buftype,
							EGLClientBuffer buffer, EGLConfig config,
							const EGLint *attrib_list)
{
	(void)buftype;
	(void)buffer;
	(void)config;
	(void)attrib_list;
	drv_lock();
	READY(dpy, handle, EGL_NO_SURFACE);
	(void)dpy;
	/* only OpenVG images are client buffers, and there is no OpenVG */
	FAIL(EGL_BAD_PARAMETER, EGL_NO_SURFACE);
}

/* dpy ready and surf one of its surfaces, else the error set and the
 * lock released before returning ret. */
#define SURFACE(dpy, s, handle, surf, ret)                      \
	READY(dpy, handle, ret);                                \
	struct drv_surface *s = (struct drv_surface *)(surf);   \
	if (!drv_surface_valid(dpy, s))                         \
		FAIL(EGL_BAD_SURFACE, ret);

EGLBoolean EGLAPIENTRY eglDestroySurface(EGLDisplay handle, EGLSurface surface)
{
	drv_lock();
	SURFACE(dpy, s, handle, surface, EGL_FALSE);
	drv_surface_destroy(s);
	OK(EGL_TRUE);
}

EGLBoolean EGLAPIENTRY eglQuerySurface(EGLDisplay handle, EGLSurface surface, EGLint attribute,
				       EGLint *value)
{
	drv_lock();
	SURFACE(dpy, s, handle, surface, EGL_FALSE);
	if (!value)
		FAIL(EGL_BAD_PARAMETER, EGL_FALSE);
	switch (attribute) {
	case EGL_CONFIG_ID: *value = s->config->id; break;
	case EGL_WIDTH: *value = s->width; break;
	case EGL_HEIGHT: *value = s->height; break;
	case EGL_LARGEST_PBUFFER:
		if (s->type == EGL_PBUFFER_BIT)
			*value = s->largest_pbuffer;
		break;
	case EGL_TEXTURE_FORMAT:
	case EGL_TEXTURE_TARGET:
		if (s->type == EGL_PBUFFER_BIT)
			*value = EGL_NO_TEXTURE;
		break;
	case EGL_MIPMAP_TEXTURE:
	case EGL_MIPMAP_LEVEL:
		if (s->type == EGL_PBUFFER_BIT)
			*value = 0;
		break;
	case EGL_RENDER_BUFFER:
		*value = s->type == EGL_WINDOW_BIT ? s->render_buffer : EGL_BACK_BUFFER;
		break;
	case EGL_SWAP_BEHAVIOR: *value = EGL_BUFFER_DESTROYED; break;
	case EGL_MULTISAMPLE_RESOLVE: *value = EGL_MULTISAMPLE_RESOLVE_DEFAULT; break;
	case EGL_HORIZONTAL_RESOLUTION:
	case EGL_VERTICAL_RESOLUTION:
	case EGL_PIXEL_ASPECT_RATIO: *value = EGL_UNKNOWN; break;
	case EGL_VG_ALPHA_FORMAT: *value = EGL_VG_ALPHA_FORMAT_NONPRE; break;
	case EGL_VG_COLORSPACE: *value = EGL_VG_COLORSPACE_sRGB; break;
	default: FAIL(EGL_BAD_ATTRIBUTE, EGL_FALSE);
	}
	OK(EGL_TRUE);
}

EGLBoolean EGLAPIENTRY eglSurfaceAttrib(EGLDisplay handle, EGLSurface surface, EGLint attribute,
					EGLint value)
{
	drv_lock();
	SURFACE(dpy, s, handle, surface, EGL_FALSE);
	(void)s;
	switch (attribute) {
	case EGL_MIPMAP_LEVEL:
		OK(EGL_TRUE);
	case EGL_SWAP_BEHAVIOR:
		/* no config has EGL_SWAP_BEHAVIOR_PRESERVED_BIT */
		if (value == EGL_BUFFER_DESTROYED)
			OK(EGL_TRUE);
		FAIL(value == EGL_BUFFER_PRESERVED ? EGL_BAD_MATCH : EGL_BAD_PARAMETER, EGL_FALSE);
	case EGL_MULTISAMPLE_RESOLVE:
		if (value == EGL_MULTISAMPLE_RESOLVE_DEFAULT)
			OK(EGL_TRUE);
		FAIL(value == EGL_MULTISAMPLE_RESOLVE_BOX ? EGL_BAD_MATCH : EGL_BAD_PARAMETER,
		     EGL_FALSE);
	default:
		FAIL(EGL_BAD_ATTRIBUTE, EGL_FALSE);
	}
}

/* pbuffers are never bound to textures (their EGL_TEXTURE_FORMAT is
 * EGL_NO_TEXTURE): EGL_BAD_MATCH (3.6.1). */
static EGLBoolean tex_image(EGLDisplay handle, EGLSurface surface, EGLint buffer)
{
	drv_lock();
	SURFACE(dpy, s, handle, surface, EGL_FALSE);
	if (buffer != EGL_BACK_BUFFER)
		FAIL(EGL_BAD_PARAMETER, EGL_FALSE);
	if (s->type != EGL_PBUFFER_BIT)
		FAIL(EGL_BAD_SURFACE, EGL_FALSE);
	FAIL(EGL_BAD_MATCH, EGL_FALSE);
}

EGLBoolean EGLAPIENTRY eglBindTexImage(EGLDisplay dpy, EGLSurface surface, EGLint buffer)
{
	return tex_image(dpy, surface, buffer);
}

EGLBoolean EGLAPIENTRY eglReleaseTexImage(EGLDisplay dpy, EGLSurface surface, EGLint buffer)
{
	return tex_image(dpy, surface, buffer);
}

EGLBoolean EGLAPIENTRY eglCopyBuffers(EGLDisplay handle, EGLSurface surface,
				      EGLNativePixmapType target)
{
	(void)target;
	drv_lock();
	SURFACE(dpy, s, handle, surface, EGL_FALSE);
	(void)s;
	FAIL(EGL_BAD_NATIVE_PIXMAP, EGL_FALSE);
}

/* ---- client APIs, contexts ---- */

EGLBoolean EGLAPIENTRY eglBindAPI(EGLenum api)
{
	/* OpenGL ES is the only API, and the initial one */
	drv_set_error(api == EGL_OPENGL_ES_API ? EGL_SUCCESS : EGL_BAD_PARAMETER);
	return api == EGL_OPENGL_ES_API;
}

EGLenum EGLAPIENTRY eglQueryAPI(void)
{
	drv_set_error(EGL_SUCCESS);
	return EGL_OPENGL_ES_API;
}

EGLContext EGLAPIENTRY eglCreateContext(EGLDisplay handle, EGLConfig config,
					EGLContext share_context, const EGLint *attrib_list)
{
	drv_lock();
	READY(dpy, handle, EGL_NO_CONTEXT);
	const struct drv_config *c = drv_config_of(config);
	if (!c)
		FAIL(EGL_BAD_CONFIG, EGL_NO_CONTEXT);
	EGLint version = 1;  /* EGL_CONTEXT_CLIENT_VERSION's default */
	for (const EGLint *a = attrib_list; a && a[0] != EGL_NONE; a += 2) {
		if (a[0] != EGL_CONTEXT_CLIENT_VERSION)
			FAIL(EGL_BAD_ATTRIBUTE, EGL_NO_CONTEXT);
		version = a[1];
	}
	/* only OpenGL ES 2.0: another version is one no config supports
	 * (EGL 1.5, 3.7.1.1: EGL_BAD_MATCH) */
	if (version != 2)
		FAIL(EGL_BAD_MATCH, EGL_NO_CONTEXT);
	if (share_context != EGL_NO_CONTEXT) {
		if (!drv_context_valid(dpy, (struct drv_context *)share_context))
			FAIL(EGL_BAD_CONTEXT, EGL_NO_CONTEXT);
		/* a GL ES context here shares no objects (src/gles) */
		FAIL(EGL_BAD_MATCH, EGL_NO_CONTEXT);
	}
	struct drv_context *ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		FAIL(EGL_BAD_ALLOC, EGL_NO_CONTEXT);
	ctx->dpy = dpy;
	ctx->config = c;
	ctx->next = dpy->contexts;
	dpy->contexts = ctx;
	OK((EGLContext)ctx);
}

EGLBoolean EGLAPIENTRY eglDestroyContext(EGLDisplay handle, EGLContext context)
{
	drv_lock();
	READY(dpy, handle, EGL_FALSE);
	struct drv_context *c = (struct drv_context *)context;
	if (!drv_context_valid(dpy, c))
		FAIL(EGL_BAD_CONTEXT, EGL_FALSE);
	drv_context_destroy(c);
	OK(EGL_TRUE);
}

/* Whether configs a and b can be a context's and a surface's. */
static bool compatible(const struct drv_config *a, const struct drv_config *b)
{
	return a->red == b->red && a->green == b->green && a->blue == b->blue &&
	       a->alpha == b->alpha && a->depth == b->depth && a->stencil == b->stencil;
}

EGLBoolean EGLAPIENTRY eglMakeCurrent(EGLDisplay handle, EGLSurface draw, EGLSurface read,
				      EGLContext context)
{
	drv_lock();
	struct drv_display *dpy = drv_display_of(handle);
	struct drv_context *c = (struct drv_context *)context;
	struct drv_surface *d = (struct drv_surface *)draw, *r = (struct drv_surface *)read;
	/* EGL 1.5 (and Mesa): EGL_NO_DISPLAY releases the thread's context */
	if (!dpy && !(handle == EGL_NO_DISPLAY && !c && !d && !r))
		FAIL(EGL_BAD_DISPLAY, EGL_FALSE);
	if (!c) {
		/* releasing: no surfaces may be named (a display that is not
		 * initialized is fine, as in Mesa) */
		if (d || r)
			FAIL(EGL_BAD_MATCH, EGL_FALSE);
		drv_make_current(NULL, NULL, NULL);
		OK(EGL_TRUE);
	}
	if (!dpy->initialized)
		FAIL(EGL_NOT_INITIALIZED, EGL_FALSE);
	if (!drv_context_valid(dpy, c))
		FAIL(EGL_BAD_CONTEXT, EGL_FALSE);
	if (!d || !r)
		FAIL(EGL_BAD_MATCH, EGL_FALSE);  /* no EGL_KHR_surfaceless_context */
	if (!drv_surface_valid(dpy, d) || !drv_surface_valid(dpy, r))
		FAIL(EGL_BAD_SURFACE, EGL_FALSE);
	if (c->current && c != drv_current)
		FAIL(EGL_BAD_ACCESS, EGL_FALSE);  /* current to another thread */
	if ((d->bound && d->bound != c && d->bound != drv_current) ||
	    (r->bound && r->bound != c && r->bound != drv_current))
		FAIL(EGL_BAD_ACCESS, EGL_FALSE);
	if (!compatible(c->config, d->config) || !compatible(c->config, r->config))
		FAIL(EGL_BAD_MATCH, EGL_FALSE);
	EGLint e = drv_make_current(c, d, r);
	if (e != EGL_SUCCESS)
		FAIL(e, EGL_FALSE);
	OK(EGL_TRUE);
}

EGLContext EGLAPIENTRY eglGetCurrentContext(void)
{
	drv_set_error(EGL_SUCCESS);
	return drv_current ? (EGLContext)drv_current : EGL_NO_CONTEXT;
}

EGLSurface EGLAPIENTRY eglGetCurrentSurface(EGLint readdraw)
{
	if (readdraw != EGL_DRAW && readdraw != EGL_READ) {
		drv_set_error(EGL_BAD_PARAMETER);
		return EGL_NO_SURFACE;
	}
	drv_set_error(EGL_SUCCESS);
	if (!drv_current)
		return EGL_NO_SURFACE;
	return (EGLSurface)(readdraw == EGL_DRAW ? drv_current->draw : drv_current->read);
}

EGLDisplay EGLAPIENTRY eglGetCurrentDisplay(void)
{
	drv_set_error(EGL_SUCCESS);
	struct drv_display *dpy = drv_current_display();
	return dpy ? (EGLDisplay)dpy : EGL_NO_DISPLAY;
}

EGLBoolean EGLAPIENTRY eglQueryContext(EGLDisplay handle, EGLContext context, EGLint attribute,
				       EGLint *value)
{
	drv_lock();
	READY(dpy, handle, EGL_FALSE);
	const struct drv_context *c = (const struct drv_context *)context;
	if (!drv_context_valid(dpy, c))
		FAIL(EGL_BAD_CONTEXT, EGL_FALSE);
	if (!value)
		FAIL(EGL_BAD_PARAMETER, EGL_FALSE);
	switch (attribute) {
	case EGL_CONFIG_ID: *value = c->config->id; break;
	case EGL_CONTEXT_CLIENT_TYPE: *value = EGL_OPENGL_ES_API; break;
	case EGL_CONTEXT_CLIENT_VERSION: *value = 2; break;
	case EGL_RENDER_BUFFER:
		if (!c->draw)
			*value = EGL_NONE;
		else if (c->draw->type == EGL_WINDOW_BIT)
			*value = c->draw->render_buffer;
		else
			*value = EGL_BACK_BUFFER;
		break;
	default: FAIL(EGL_BAD_ATTRIBUTE, EGL_FALSE);
	}
	OK(EGL_TRUE);
}

/* Renders what the calling thread's context has pending. */
static void flush_current(void)
{
	struct drv_context *c = drv_current;
	if (c && c->draw && c->draw->device) {
		struct tsr_error err = {{0}};
		enum tsr_status st = tsr_gles_device_flush(c->draw->device, &err);
		if (st != TSR_OK)
			drv_report(st, &err);
	}
}

EGLBoolean EGLAPIENTRY eglWaitClient(void)
{
	drv_lock();
	flush_current();
	OK(EGL_TRUE);
}

EGLBoolean EGLAPIENTRY eglWaitGL(void)
{
	return eglWaitClient();
}

EGLBoolean EGLAPIENTRY eglWaitNative(EGLint engine)
{
	/* nothing is drawn on native surfaces: nothing to wait for */
	drv_set_error(engine == EGL_CORE_NATIVE_ENGINE ? EGL_SUCCESS : EGL_BAD_PARAMETER);
	return engine == EGL_CORE_NATIVE_ENGINE;
}

EGLBoolean EGLAPIENTRY eglReleaseThread(void)
{
	drv_lock();
	drv_make_current(NULL, NULL, NULL);
	OK(EGL_TRUE);
}

/* ---- frames ---- */

EGLBoolean EGLAPIENTRY eglSwapBuffers(EGLDisplay handle, EGLSurface surface)
{
	drv_lock();
	SURFACE(dpy, s, handle, surface, EGL_FALSE);
	/* the surface must be the calling thread's current draw surface */
	if (!drv_current || drv_current->dpy != dpy || drv_current->draw != s)
		FAIL(EGL_BAD_SURFACE, EGL_FALSE);
	if (!s->device)
		FAIL(EGL_BAD_SURFACE, EGL_FALSE);  /* the devices are gone (TESSERA_FRAMES) */
	/* a pbuffer's swap ends a frame too: headless replays draw on pbuffers */
	drv_set_error(EGL_SUCCESS);
	drv_swap(s);  /* releases the lock */
	return EGL_TRUE;
}

EGLBoolean EGLAPIENTRY eglSwapInterval(EGLDisplay handle, EGLint interval)
{
	drv_lock();
	READY(dpy, handle, EGL_FALSE);
	if (!drv_current || drv_current->dpy != dpy)
		FAIL(EGL_BAD_CONTEXT, EGL_FALSE);
	if (!drv_current->draw)
		FAIL(EGL_BAD_SURFACE, EGL_FALSE);
	/* clamped to the configs' [EGL_MIN_SWAP_INTERVAL, EGL_MAX_SWAP_INTERVAL];
	 * frames are never paced */
	drv_current->draw->swap_interval = interval < 0 ? 0 : interval > 1 ? 1 : interval;
	OK(EGL_TRUE);
}

/* ---- eglGetProcAddress ---- */

static const struct drv_proc egl_procs[] = {
#define P(name) {#name, (void (*)(void))name}
	P(eglBindAPI), P(eglBindTexImage), P(eglChooseConfig), P(eglCopyBuffers),
	P(eglCreateContext), P(eglCreatePbufferFromClientBuffer), P(eglCreatePbufferSurface),
	P(eglCreatePixmapSurface), P(eglCreatePlatformPixmapSurface),
	P(eglCreatePlatformPixmapSurfaceEXT), P(eglCreatePlatformWindowSurface),
	P(eglCreatePlatformWindowSurfaceEXT), P(eglCreateWindowSurface), P(eglDestroyContext),
	P(eglDestroySurface), P(eglGetConfigAttrib), P(eglGetConfigs), P(eglGetCurrentContext),
	P(eglGetCurrentDisplay), P(eglGetCurrentSurface), P(eglGetDisplay), P(eglGetError),
	P(eglGetPlatformDisplay), P(eglGetPlatformDisplayEXT), P(eglGetProcAddress),
	P(eglInitialize), P(eglMakeCurrent), P(eglQueryAPI), P(eglQueryContext),
	P(eglQueryString), P(eglQuerySurface), P(eglReleaseTexImage), P(eglReleaseThread),
	P(eglSurfaceAttrib), P(eglSwapBuffers), P(eglSwapInterval), P(eglTerminate),
	P(eglWaitClient), P(eglWaitGL), P(eglWaitNative),
#undef P
};

__eglMustCastToProperFunctionPointerType EGLAPIENTRY eglGetProcAddress(const char *procname)
{
	/* no error is recorded (3.10) */
	if (!procname)
		return NULL;
	for (size_t i = 0; i < sizeof(egl_procs) / sizeof(egl_procs[0]); i++)
		if (!strcmp(egl_procs[i].name, procname))
			return egl_procs[i].fn;
	return drv_gl_proc(procname);
}
