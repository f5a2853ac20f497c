/*
 * 156-driver-egl.c - the drop-in driver's libraries (driver/,
 * docs/driver.md) loaded as a program loads them: dlopen() of
 * build/driver/libEGL.so.1 and libGLESv2.so.2, functions through dlsym()
 * and eglGetProcAddress(), and an EGL sequence like eglretrace's headless
 * one and glmark2's: the surfaceless platform, eglInitialize,
 * eglChooseConfig's counts and order (EGL 1.4, 3.4.1), contexts of bad
 * versions, a pbuffer made current, GL calls and their errors,
 * eglSwapBuffers ending frames (TESSERA_FRAMES ends the process), a bad
 * TESSERA_SET failing eglInitialize, eglTerminate.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#include "test_main.h"

static void *lib_egl, *lib_gles;

/* The entry points the tests call, from dlsym() or eglGetProcAddress(). */
static PFNEGLGETPROCADDRESSPROC GetProcAddress;
static PFNEGLGETERRORPROC GetError;
static PFNEGLQUERYSTRINGPROC QueryString;
static PFNEGLGETPLATFORMDISPLAYEXTPROC GetPlatformDisplayEXT;
static PFNEGLGETDISPLAYPROC GetDisplay;
static PFNEGLINITIALIZEPROC Initialize;
static PFNEGLTERMINATEPROC Terminate;
static PFNEGLGETCONFIGSPROC GetConfigs;
static PFNEGLCHOOSECONFIGPROC ChooseConfig;
static PFNEGLGETCONFIGATTRIBPROC GetConfigAttrib;
static PFNEGLBINDAPIPROC BindAPI;
static PFNEGLQUERYAPIPROC QueryAPI;
static PFNEGLCREATECONTEXTPROC CreateContext;
static PFNEGLDESTROYCONTEXTPROC DestroyContext;
static PFNEGLQUERYCONTEXTPROC QueryContext;
static PFNEGLCREATEPBUFFERSURFACEPROC CreatePbufferSurface;
static PFNEGLCREATEWINDOWSURFACEPROC CreateWindowSurface;
static PFNEGLDESTROYSURFACEPROC DestroySurface;
static PFNEGLQUERYSURFACEPROC QuerySurface;
static PFNEGLMAKECURRENTPROC MakeCurrent;
static PFNEGLGETCURRENTCONTEXTPROC GetCurrentContext;
static PFNEGLGETCURRENTSURFACEPROC GetCurrentSurface;
static PFNEGLGETCURRENTDISPLAYPROC GetCurrentDisplay;
static PFNEGLSWAPBUFFERSPROC SwapBuffers;
static PFNEGLSWAPINTERVALPROC SwapInterval;
static PFNEGLRELEASETHREADPROC ReleaseThread;
static PFNEGLBINDTEXIMAGEPROC BindTexImage;

static PFNGLGETERRORPROC glGetError_;
static PFNGLGETSTRINGPROC glGetString_;
static PFNGLGETINTEGERVPROC glGetIntegerv_;
static PFNGLENABLEPROC glEnable_;
static PFNGLCLEARCOLORPROC glClearColor_;
static PFNGLCLEARPROC glClear_;
static PFNGLGENBUFFERSPROC glGenBuffers_;
static PFNGLBINDBUFFERPROC glBindBuffer_;
static PFNGLBUFFERDATAPROC glBufferData_;
static PFNGLGETBUFFERPARAMETERIVPROC glGetBufferParameteriv_;
static PFNGLMAPBUFFEROESPROC glMapBufferOES_;
static PFNGLUNMAPBUFFEROESPROC glUnmapBufferOES_;
static PFNGLREADPIXELSPROC glReadPixels_;
static PFNGLDRAWARRAYSPROC glDrawArrays_;
static PFNGLFINISHPROC glFinish_;

#define EGL_FN(var, name) var = (void *)GetProcAddress(name)
#define GL_FN(name) name##_ = (void *)GetProcAddress(#name)

static int setup(void **state)
{
	(void)state;
	/* libEGL first, as eglretrace does: libGLESv2 comes as its dependency */
	lib_egl = dlopen(TSR_DRIVER_DIR "/libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib_egl) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return -1;
	}
	lib_gles = dlopen(TSR_DRIVER_DIR "/libGLESv2.so.2", RTLD_NOW | RTLD_LOCAL);
	if (!lib_gles)
		return -1;
	GetProcAddress = (PFNEGLGETPROCADDRESSPROC)dlsym(lib_egl, "eglGetProcAddress");
	if (!GetProcAddress)
		return -1;
	EGL_FN(GetError, "eglGetError");
	EGL_FN(QueryString, "eglQueryString");
	EGL_FN(GetPlatformDisplayEXT, "eglGetPlatformDisplayEXT");
	EGL_FN(GetDisplay, "eglGetDisplay");
	EGL_FN(Initialize, "eglInitialize");
	EGL_FN(Terminate, "eglTerminate");
	EGL_FN(GetConfigs, "eglGetConfigs");
	EGL_FN(ChooseConfig, "eglChooseConfig");
	EGL_FN(GetConfigAttrib, "eglGetConfigAttrib");
	EGL_FN(BindAPI, "eglBindAPI");
	EGL_FN(QueryAPI, "eglQueryAPI");
	EGL_FN(CreateContext, "eglCreateContext");
	EGL_FN(DestroyContext, "eglDestroyContext");
	EGL_FN(QueryContext, "eglQueryContext");
	EGL_FN(CreatePbufferSurface, "eglCreatePbufferSurface");
	EGL_FN(CreateWindowSurface, "eglCreateWindowSurface");
	EGL_FN(DestroySurface, "eglDestroySurface");
	EGL_FN(QuerySurface, "eglQuerySurface");
	EGL_FN(MakeCurrent, "eglMakeCurrent");
	EGL_FN(GetCurrentContext, "eglGetCurrentContext");
	EGL_FN(GetCurrentSurface, "eglGetCurrentSurface");
	EGL_FN(GetCurrentDisplay, "eglGetCurrentDisplay");
	EGL_FN(SwapBuffers, "eglSwapBuffers");
	EGL_FN(SwapInterval, "eglSwapInterval");
	EGL_FN(ReleaseThread, "eglReleaseThread");
	EGL_FN(BindTexImage, "eglBindTexImage");
	GL_FN(glGetError);
	GL_FN(glGetString);
	GL_FN(glGetIntegerv);
	GL_FN(glEnable);
	GL_FN(glClearColor);
	GL_FN(glClear);
	GL_FN(glGenBuffers);
	GL_FN(glBindBuffer);
	GL_FN(glBufferData);
	GL_FN(glGetBufferParameteriv);
	GL_FN(glMapBufferOES);
	GL_FN(glUnmapBufferOES);
	GL_FN(glReadPixels);
	GL_FN(glDrawArrays);
	GL_FN(glFinish);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	/* the libraries stay loaded: their destructor runs at exit */
	return 0;
}

/* Only egl* and gl* are exported; both libraries give the same functions,
 * and eglGetProcAddress gives every one of them. */
static void test_exports(void **state)
{
	(void)state;
	static const char *const names[] = {
		"eglGetDisplay", "eglGetPlatformDisplay", "eglSwapBuffers", "eglGetProcAddress",
		"glClear", "glDrawElements", "glReadPixels", "glUniformMatrix4fv",
		"glMapBufferOES", "glUnmapBufferOES", "glGetBufferPointervOES",
		"glShaderBinary", "glReleaseShaderCompiler", "glGetShaderPrecisionFormat",
		"glBlitFramebufferNV",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		void *a = dlsym(lib_egl, names[i]), *b = dlsym(lib_gles, names[i]);
		assert_non_null(a);
		assert_ptr_equal(a, b);
		assert_ptr_equal((void *)GetProcAddress(names[i]), a);
	}
	assert_null(dlsym(lib_gles, "tsr_gles_GenBuffers"));
	assert_null(dlsym(lib_gles, "tsr_config_defaults"));
	assert_null(dlsym(lib_gles, "drv_lock"));
	assert_null(dlsym(lib_gles, "glslang_initialize_process"));
	assert_null(GetProcAddress("glBegin"));
	assert_null(GetProcAddress("eglCreateImageKHR"));
	/* GL_EXT_blend_func_extended's ES 3.0 entry points: none in ES 2.0 */
	assert_null(GetProcAddress("glBindFragDataLocationIndexedEXT"));
	assert_null(GetProcAddress("glGetFragDataIndexEXT"));
	assert_null(GetProcAddress("tsr_gles_GenBuffers"));
}

/* The display and configs of the surfaceless platform. */
static EGLDisplay surfaceless(void)
{
	EGLDisplay dpy = GetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
					       NULL);
	assert_ptr_not_equal(dpy, EGL_NO_DISPLAY);
	return dpy;
}

static EGLint config_id(EGLDisplay dpy, EGLConfig c)
{
	EGLint id = 0;
	assert_true(GetConfigAttrib(dpy, c, EGL_CONFIG_ID, &id));
	return id;
}

static void test_displays_and_errors(void **state)
{
	(void)state;
	const char *ext = QueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	assert_non_null(ext);
	assert_non_null(strstr(ext, "EGL_EXT_platform_base"));
	assert_non_null(strstr(ext, "EGL_MESA_platform_surfaceless"));
	assert_non_null(strstr(ext, "EGL_KHR_platform_x11"));
	assert_int_equal(GetError(), EGL_SUCCESS);
	/* an unknown platform */
	assert_ptr_equal(GetPlatformDisplayEXT(0x1234, NULL, NULL), EGL_NO_DISPLAY);
	assert_int_equal(GetError(), EGL_BAD_PARAMETER);
	assert_int_equal(GetError(), EGL_SUCCESS);  /* read once, then reset */
	EGLDisplay dpy = surfaceless();
	assert_ptr_equal(surfaceless(), dpy);
	assert_ptr_not_equal(GetDisplay(EGL_DEFAULT_DISPLAY), dpy);
	/* not initialized, not a display */
	EGLint n = -1;
	Terminate(dpy);
	assert_false(ChooseConfig(dpy, NULL, NULL, 0, &n));
	assert_int_equal(GetError(), EGL_NOT_INITIALIZED);
	assert_false(Initialize((EGLDisplay)&n, NULL, NULL));
	assert_int_equal(GetError(), EGL_BAD_DISPLAY);
	EGLint major = 0, minor = 0;
	assert_true(Initialize(dpy, &major, &minor));
	assert_int_equal(major, 1);
	assert_int_equal(minor, 4);
	assert_int_equal(GetError(), EGL_SUCCESS);
	assert_string_equal(QueryString(dpy, EGL_CLIENT_APIS), "OpenGL_ES");
	assert_memory_equal(QueryString(dpy, EGL_VERSION), "1.4", 3);
	assert_null(QueryString(dpy, 0x1234));
	assert_int_equal(GetError(), EGL_BAD_PARAMETER);
	assert_false(BindAPI(EGL_OPENGL_API));
	assert_int_equal(GetError(), EGL_BAD_PARAMETER);
	assert_true(BindAPI(EGL_OPENGL_ES_API));
	assert_int_equal(QueryAPI(), EGL_OPENGL_ES_API);
}

/* eglGetConfigs, and eglChooseConfig's matching and sorting. */
static void test_configs(void **state)
{
	(void)state;
	EGLDisplay dpy = surfaceless();
	assert_true(Initialize(dpy, NULL, NULL));
	EGLConfig cfg[32];
	EGLint n = 0;
	assert_true(GetConfigs(dpy, NULL, 0, &n));
	assert_int_equal(n, 18);  /* RGB565, RGB888, RGBA8888 x depth 0/16/24 x stencil 0/8 */
	assert_true(GetConfigs(dpy, cfg, 32, &n));
	assert_int_equal(n, 18);
	for (EGLint i = 0; i < n; i++)
		assert_int_equal(config_id(dpy, cfg[i]), i + 1);
	EGLint v = 0;
	assert_true(GetConfigAttrib(dpy, cfg[0], EGL_RENDERABLE_TYPE, &v));
	assert_int_equal(v, EGL_OPENGL_ES2_BIT);
	assert_true(GetConfigAttrib(dpy, cfg[0], EGL_SURFACE_TYPE, &v));
	assert_int_equal(v, EGL_PBUFFER_BIT);  /* surfaceless: no windows */
	assert_true(GetConfigAttrib(dpy, cfg[17], EGL_ALPHA_SIZE, &v));
	assert_int_equal(v, 8);
	assert_false(GetConfigAttrib(dpy, cfg[0], 0x1234, &v));
	assert_int_equal(GetError(), EGL_BAD_ATTRIBUTE);
	assert_false(GetConfigAttrib(dpy, (EGLConfig)&v, EGL_RED_SIZE, &v));
	assert_int_equal(GetError(), EGL_BAD_CONFIG);

	/* no color asked for: smaller buffers first, then depth, stencil, id */
	const EGLint any[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
			      EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
	assert_true(ChooseConfig(dpy, any, cfg, 32, &n));
	assert_int_equal(n, 18);
	for (EGLint i = 0; i < n; i++)
		assert_int_equal(config_id(dpy, cfg[i]), i + 1);
	/* 8-bit RGB and a depth buffer: RGB888 before RGBA8888 (same requested
	 * bits, smaller EGL_BUFFER_SIZE), then depth 16 before 24 */
	const EGLint rgb[] = {EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
			      EGL_DEPTH_SIZE, 16, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
			      EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
	static const EGLint rgb_ids[] = {9, 10, 11, 12, 15, 16, 17, 18};
	assert_true(ChooseConfig(dpy, rgb, cfg, 32, &n));
	assert_int_equal(n, 8);
	for (EGLint i = 0; i < n; i++)
		assert_int_equal(config_id(dpy, cfg[i]), rgb_ids[i]);
	assert_true(ChooseConfig(dpy, rgb, NULL, 0, &n));
	assert_int_equal(n, 8);
	assert_true(ChooseConfig(dpy, rgb, cfg, 2, &n));  /* config_size caps it */
	assert_int_equal(n, 2);
	/* 1 bit of each channel asked, alpha included: the most bits first
	 * (RGBA8888), glmark2's and es2gears' kind of request */
	const EGLint rgba[] = {EGL_RED_SIZE, 1, EGL_GREEN_SIZE, 1, EGL_BLUE_SIZE, 1,
			       EGL_ALPHA_SIZE, 1, EGL_DEPTH_SIZE, 1, EGL_STENCIL_SIZE, 0,
			       EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
			       EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
	assert_true(ChooseConfig(dpy, rgba, cfg, 32, &n));
	assert_int_equal(n, 4);
	assert_int_equal(config_id(dpy, cfg[0]), 15);
	/* the defaults: EGL_OPENGL_ES_BIT (1.x) and EGL_WINDOW_BIT match nothing here */
	const EGLint none[] = {EGL_NONE};
	assert_true(ChooseConfig(dpy, none, cfg, 32, &n));
	assert_int_equal(n, 0);
	/* EGL_CONFIG_ID: every other attribute is ignored */
	const EGLint by_id[] = {EGL_RED_SIZE, 8, EGL_CONFIG_ID, 5, EGL_NONE};
	assert_true(ChooseConfig(dpy, by_id, cfg, 32, &n));
	assert_int_equal(n, 1);
	assert_int_equal(config_id(dpy, cfg[0]), 5);
	/* EGL_DONT_CARE, and the errors */
	const EGLint dont[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE,
			       EGL_DONT_CARE, EGL_DEPTH_SIZE, EGL_DONT_CARE, EGL_NONE};
	assert_true(ChooseConfig(dpy, dont, cfg, 32, &n));
	assert_int_equal(n, 18);
	const EGLint bad[] = {0x1234, 1, EGL_NONE};
	assert_false(ChooseConfig(dpy, bad, cfg, 32, &n));
	assert_int_equal(GetError(), EGL_BAD_ATTRIBUTE);
	assert_false(ChooseConfig(dpy, any, cfg, 32, NULL));
	assert_int_equal(GetError(), EGL_BAD_PARAMETER);
}

/* The first config of RGBA8888, depth 24, stencil 8 on dpy. */
static EGLConfig rgba8888(EGLDisplay dpy)
{
	const EGLint a[] = {EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
			    EGL_ALPHA_SIZE, 8, EGL_DEPTH_SIZE, 24, EGL_STENCIL_SIZE, 8,
			    EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
			    EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
	EGLConfig c = NULL;
	EGLint n = 0;
	assert_true(ChooseConfig(dpy, a, &c, 1, &n));
	assert_int_equal(n, 1);
	return c;
}

static const EGLint es2[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};

/* Contexts of versions other than 2 and surfaces that cannot be. */
static void test_context_errors(void **state)
{
	(void)state;
	EGLDisplay dpy = surfaceless();
	assert_true(Initialize(dpy, NULL, NULL));
	EGLConfig c = rgba8888(dpy);
	/* no version: GL ES 1.x */
	assert_ptr_equal(CreateContext(dpy, c, EGL_NO_CONTEXT, NULL), EGL_NO_CONTEXT);
	assert_int_equal(GetError(), EGL_BAD_MATCH);
	const EGLint v1[] = {EGL_CONTEXT_CLIENT_VERSION, 1, EGL_NONE};
	const EGLint v3[] = {EGL_CONTEXT_CLIENT_VERSION, 3, EGL_NONE};
	assert_ptr_equal(CreateContext(dpy, c, EGL_NO_CONTEXT, v1), EGL_NO_CONTEXT);
	assert_int_equal(GetError(), EGL_BAD_MATCH);
	assert_ptr_equal(CreateContext(dpy, c, EGL_NO_CONTEXT, v3), EGL_NO_CONTEXT);
	assert_int_equal(GetError(), EGL_BAD_MATCH);
	/* EGL_KHR_create_context is not advertised: its minor version is unknown */
	const EGLint minor[] = {EGL_CONTEXT_CLIENT_VERSION, 2, 0x30FB, 0, EGL_NONE};
	assert_ptr_equal(CreateContext(dpy, c, EGL_NO_CONTEXT, minor), EGL_NO_CONTEXT);
	assert_int_equal(GetError(), EGL_BAD_ATTRIBUTE);
	assert_ptr_equal(CreateContext(dpy, NULL, EGL_NO_CONTEXT, es2), EGL_NO_CONTEXT);
	assert_int_equal(GetError(), EGL_BAD_CONFIG);
	/* no sharing */
	EGLContext ctx = CreateContext(dpy, c, EGL_NO_CONTEXT, es2);
	assert_ptr_not_equal(ctx, EGL_NO_CONTEXT);
	assert_ptr_equal(CreateContext(dpy, c, ctx, es2), EGL_NO_CONTEXT);
	assert_int_equal(GetError(), EGL_BAD_MATCH);
	/* surfaceless: no window surfaces; pbuffers of a bad size */
	assert_ptr_equal(CreateWindowSurface(dpy, c, 1, NULL), EGL_NO_SURFACE);
	assert_int_equal(GetError(), EGL_BAD_MATCH);
	const EGLint neg[] = {EGL_WIDTH, -1, EGL_HEIGHT, 8, EGL_NONE};
	assert_ptr_equal(CreatePbufferSurface(dpy, c, neg), EGL_NO_SURFACE);
	assert_int_equal(GetError(), EGL_BAD_PARAMETER);
	const EGLint tex[] = {EGL_TEXTURE_FORMAT, EGL_TEXTURE_RGBA, EGL_NONE};
	assert_ptr_equal(CreatePbufferSurface(dpy, c, tex), EGL_NO_SURFACE);
	assert_int_equal(GetError(), EGL_BAD_MATCH);
	/* a context needs surfaces (no EGL_KHR_surfaceless_context) */
	assert_false(MakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
	assert_int_equal(GetError(), EGL_BAD_MATCH);
	assert_true(DestroyContext(dpy, ctx));
	assert_false(DestroyContext(dpy, ctx));
	assert_int_equal(GetError(), EGL_BAD_CONTEXT);
}

/* A pbuffer made current, GL calls on it, frames, and the release. */
static void test_pbuffer_gl(void **state)
{
	(void)state;
	EGLDisplay dpy = surfaceless();
	assert_true(Initialize(dpy, NULL, NULL));
	EGLConfig c = rgba8888(dpy);
	/* no current context: GL calls do nothing and return 0 */
	assert_int_equal(glGetError_(), GL_NO_ERROR);
	assert_null(glGetString_(GL_VERSION));
	glClear_(GL_COLOR_BUFFER_BIT);
	EGLContext ctx = CreateContext(dpy, c, EGL_NO_CONTEXT, es2);
	const EGLint size[] = {EGL_WIDTH, 64, EGL_HEIGHT, 32, EGL_NONE};
	EGLSurface s = CreatePbufferSurface(dpy, c, size);
	assert_ptr_not_equal(s, EGL_NO_SURFACE);
	EGLint v = 0;
	assert_true(QuerySurface(dpy, s, EGL_WIDTH, &v));
	assert_int_equal(v, 64);
	assert_true(QuerySurface(dpy, s, EGL_HEIGHT, &v));
	assert_int_equal(v, 32);
	assert_true(QuerySurface(dpy, s, EGL_CONFIG_ID, &v));
	assert_int_equal(v, config_id(dpy, c));
	assert_false(SwapBuffers(dpy, s));  /* not current */
	assert_int_equal(GetError(), EGL_BAD_SURFACE);
	assert_false(BindTexImage(dpy, s, EGL_BACK_BUFFER));
	assert_int_equal(GetError(), EGL_BAD_MATCH);

	assert_true(MakeCurrent(dpy, s, s, ctx));
	assert_ptr_equal(GetCurrentContext(), ctx);
	assert_ptr_equal(GetCurrentSurface(EGL_DRAW), s);
	assert_ptr_equal(GetCurrentSurface(EGL_READ), s);
	assert_ptr_equal(GetCurrentDisplay(), dpy);
	assert_true(QueryContext(dpy, ctx, EGL_CONTEXT_CLIENT_VERSION, &v));
	assert_int_equal(v, 2);
	assert_true(QueryContext(dpy, ctx, EGL_RENDER_BUFFER, &v));
	assert_int_equal(v, EGL_BACK_BUFFER);
	assert_true(SwapInterval(dpy, 0));

	/* the GL ES context: its default framebuffer is the pbuffer */
	assert_memory_equal(glGetString_(GL_VERSION), "OpenGL ES 2.0", 13);
	GLint vp[4] = {0};
	glGetIntegerv_(GL_VIEWPORT, vp);
	assert_int_equal(vp[2], 64);
	assert_int_equal(vp[3], 32);
	assert_int_equal(glGetError_(), GL_NO_ERROR);
	glEnable_(0x1234);
	assert_int_equal(glGetError_(), GL_INVALID_ENUM);
	assert_int_equal(glGetError_(), GL_NO_ERROR);
	GLuint buf = 0;
	glGenBuffers_(1, &buf);
	glBindBuffer_(GL_ARRAY_BUFFER, buf);
	glBufferData_(GL_ARRAY_BUFFER, 16, NULL, GL_STATIC_DRAW);
	uint8_t *p = glMapBufferOES_(GL_ARRAY_BUFFER, GL_WRITE_ONLY_OES);
	assert_non_null(p);
	memset(p, 7, 16);
	assert_true(glUnmapBufferOES_(GL_ARRAY_BUFFER));
	GLint bsize = 0;
	glGetBufferParameteriv_(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &bsize);
	assert_int_equal(bsize, 16);
	assert_int_equal(glGetError_(), GL_NO_ERROR);
	/* rendering: the device's errors are reported on stderr, never as GL
	 * errors; the program's errors are GL's */
	glClearColor_(0.25f, 0.5f, 0.75f, 1.0f);
	glClear_(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	assert_int_equal(glGetError_(), GL_NO_ERROR);
	glClear_(0x1);
	assert_int_equal(glGetError_(), GL_INVALID_VALUE);
	glDrawArrays_(GL_TRIANGLES, 0, 3);  /* no program: nothing to draw */
	glDrawArrays_(0x77, 0, 3);
	assert_int_equal(glGetError_(), GL_INVALID_ENUM);
	uint8_t px[4 * 8 * 2];
	glReadPixels_(0, 0, 8, 2, GL_RGBA, GL_UNSIGNED_BYTE, px);
	assert_int_equal(glGetError_(), GL_NO_ERROR);
	glReadPixels_(0, 0, 8, 2, GL_RGB, GL_UNSIGNED_BYTE, px);
	assert_int_equal(glGetError_(), GL_INVALID_OPERATION);
	glReadPixels_(0, 0, -1, 2, GL_RGBA, GL_UNSIGNED_BYTE, px);
	assert_int_equal(glGetError_(), GL_INVALID_VALUE);
	glReadPixels_(0, 0, 1, 1, GL_RGBA, 0x1234, px);
	assert_int_equal(glGetError_(), GL_INVALID_ENUM);
	glFinish_();
	for (int i = 0; i < 3; i++)
		assert_true(SwapBuffers(dpy, s));
	assert_int_equal(GetError(), EGL_SUCCESS);

	/* destroyed while current: it goes at the release, and works until then */
	assert_true(DestroyContext(dpy, ctx));
	assert_true(DestroySurface(dpy, s));
	assert_false(QueryContext(dpy, ctx, EGL_CONFIG_ID, &v));
	assert_int_equal(GetError(), EGL_BAD_CONTEXT);
	assert_ptr_equal(GetCurrentContext(), ctx);
	glEnable_(0x1234);
	assert_int_equal(glGetError_(), GL_INVALID_ENUM);
	assert_false(MakeCurrent(dpy, s, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_int_equal(GetError(), EGL_BAD_MATCH);
	assert_true(MakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_ptr_equal(GetCurrentContext(), EGL_NO_CONTEXT);
	assert_ptr_equal(GetCurrentSurface(EGL_DRAW), EGL_NO_SURFACE);
	assert_int_equal(glGetError_(), GL_NO_ERROR);
	assert_true(ReleaseThread());
	assert_true(Terminate(dpy));
	assert_ptr_equal(CreateContext(dpy, c, EGL_NO_CONTEXT, es2), EGL_NO_CONTEXT);
	assert_int_equal(GetError(), EGL_NOT_INITIALIZED);
}

/* What a second thread sees while the first has a context current. */
struct other {
	EGLDisplay dpy;
	EGLSurface s;
	EGLContext ctx;
	EGLint make_current_error, error_after;
	GLenum gl_error;
	EGLContext current;
};

static void *other_thread(void *arg)
{
	struct other *o = arg;
	o->current = GetCurrentContext();
	o->gl_error = glGetError_();  /* no context here: 0 */
	glEnable_(0x1234);            /* and nothing recorded anywhere */
	o->make_current_error = MakeCurrent(o->dpy, o->s, o->s, o->ctx) ? EGL_SUCCESS : GetError();
	o->error_after = GetError();
	(void)GetConfigs(o->dpy, NULL, 0, NULL);  /* an error of this thread only */
	return NULL;
}

static void test_threads(void **state)
{
	(void)state;
	EGLDisplay dpy = surfaceless();
	assert_true(Initialize(dpy, NULL, NULL));
	EGLConfig c = rgba8888(dpy);
	const EGLint size[] = {EGL_WIDTH, 8, EGL_HEIGHT, 8, EGL_NONE};
	struct other o = {dpy, CreatePbufferSurface(dpy, c, size),
			  CreateContext(dpy, c, EGL_NO_CONTEXT, es2), 0, 0, 0, NULL};
	assert_true(MakeCurrent(dpy, o.s, o.s, o.ctx));
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, other_thread, &o), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_ptr_equal(o.current, EGL_NO_CONTEXT);
	assert_int_equal(o.gl_error, GL_NO_ERROR);
	assert_int_equal(o.make_current_error, EGL_BAD_ACCESS);  /* current in this thread */
	assert_int_equal(o.error_after, EGL_SUCCESS);
	assert_int_equal(GetError(), EGL_SUCCESS);  /* the other thread's errors are its own */
	assert_int_equal(glGetError_(), GL_NO_ERROR);
	assert_ptr_equal(GetCurrentContext(), o.ctx);
	assert_true(MakeCurrent(EGL_NO_DISPLAY, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
	assert_ptr_equal(GetCurrentContext(), EGL_NO_CONTEXT);
	assert_false(MakeCurrent(EGL_NO_DISPLAY, o.s, o.s, o.ctx));
	assert_int_equal(GetError(), EGL_BAD_DISPLAY);
	assert_true(DestroySurface(dpy, o.s));
	assert_true(DestroyContext(dpy, o.ctx));
}

/* Runs fn in a child process with stderr into a file; its exit status,
 * and what it printed in err (n bytes). */
static int in_child(void (*fn)(void), char *err, size_t n)
{
	char path[] = "/tmp/tsr-156-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fd, STDERR_FILENO);
		fn();
		_exit(99);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t got = fread(err, 1, n - 1, f);
	err[got] = '\0';
	fclose(f);
	close(fd);
	unlink(path);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* TESSERA_FRAMES=2: the second eglSwapBuffers ends the process (status 0). */
static void swap_three_times(void)
{
	setenv("TESSERA_FRAMES", "2", 1);
	EGLDisplay dpy = surfaceless();
	Terminate(dpy);
	if (!Initialize(dpy, NULL, NULL))
		_exit(10);
	EGLConfig c = rgba8888(dpy);
	EGLContext ctx = CreateContext(dpy, c, EGL_NO_CONTEXT, es2);
	const EGLint size[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
	EGLSurface s = CreatePbufferSurface(dpy, c, size);
	if (!MakeCurrent(dpy, s, s, ctx))
		_exit(11);
	for (int i = 0; i < 3; i++)
		SwapBuffers(dpy, s);
	_exit(12);  /* the third swap returned */
}

static void test_frames_end_the_process(void **state)
{
	(void)state;
	char err[4096];
	assert_int_equal(in_child(swap_three_times, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "tessera: the program was ended after 2 frames "
				    "(TESSERA_FRAMES)"));
}

/* The variable a bad_env child sets (bad_var to bad_value), then unsets. */
static const char *bad_var, *bad_value;

/* A bad configuration variable: eglInitialize fails with
 * EGL_NOT_INITIALIZED, again on a retry (said once), and succeeds once
 * the variable is unset. */
static void bad_env(void)
{
	setenv(bad_var, bad_value, 1);
	EGLDisplay dpy = surfaceless();
	Terminate(dpy);
	if (Initialize(dpy, NULL, NULL))
		_exit(1);
	if (GetError() != EGL_NOT_INITIALIZED)
		_exit(2);
	if (Initialize(dpy, NULL, NULL))  /* still bad, said once */
		_exit(3);
	unsetenv(bad_var);
	_exit(Initialize(dpy, NULL, NULL) ? 0 : 4);
}

/* In a child, bad_env of var = value: one line "tessera: ..." holding what. */
static void expect_bad_env(const char *var, const char *value, const char *what)
{
	char err[4096];
	bad_var = var;
	bad_value = value;
	assert_int_equal(in_child(bad_env, err, sizeof(err)), 0);
	assert_memory_equal(err, "tessera: ", 9);
	if (!strstr(err, what))
		fail_msg("no '%s' in: %s", what, err);
	assert_non_null(strchr(err, '\n'));
	assert_string_equal(strchr(err, '\n'), "\n");  /* one line */
}

/* A bad TESSERA_SET names the key. */
static void test_bad_set(void **state)
{
	(void)state;
	expect_bad_env("TESSERA_SET", "tiling.order=hilbert;caches.l2.sise_bytes=2M", "sise_bytes");
}

/* A bad TESSERA_DUMP_FRAMES names the item that is not a frame number. */
static void test_bad_dump_frames(void **state)
{
	(void)state;
	expect_bad_env("TESSERA_DUMP_FRAMES", "0,x",
		       "TESSERA_DUMP_FRAMES: frame images '0,x': item 'x'");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exports),
		cmocka_unit_test(test_displays_and_errors),
		cmocka_unit_test(test_configs),
		cmocka_unit_test(test_context_errors),
		cmocka_unit_test(test_pbuffer_gl),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_frames_end_the_process),
		cmocka_unit_test(test_bad_set),
		cmocka_unit_test(test_bad_dump_frames),
	};
	return tsr_test_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]), setup, teardown);
}
