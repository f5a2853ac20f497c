/*
 * egl-context.c - a program that makes one EGL context of a chosen client
 * API and version on a 16x16 pbuffer, clears it and swaps once: traced by
 * apitrace (`apitrace trace --api egl`), it gives the captures `tessera
 * run` must refuse (test 159): `es3` an OpenGL ES 3.0 context, `gl` a
 * desktop OpenGL one (eglBindAPI(EGL_OPENGL_API)), `es2` the one it takes;
 * `glx` calls glClear through GLX's glXGetProcAddressARB (libGL.so.1, no
 * context: a desktop OpenGL capture under `apitrace trace --api gl`).
 * It runs on Mesa (EGL_PLATFORM=surfaceless: no X server). Exit status 0
 * when the context was made, 1 when not, 2 for a bad argument.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <EGL/egl.h>

int main(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "es2") && strcmp(argv[1], "es3") &&
			  strcmp(argv[1], "gl") && strcmp(argv[1], "glx"))) {
		fprintf(stderr, "usage: egl-context es2|es3|gl|glx\n");
		return 2;
	}
	if (!strcmp(argv[1], "glx")) {
		void *lib = dlopen("libGL.so.1", RTLD_NOW);
		typedef void *(*gpa_fn)(const unsigned char *);
		gpa_fn gpa = lib ? (gpa_fn)dlsym(lib, "glXGetProcAddressARB") : NULL;
		void (*clear)(unsigned) = gpa ? (void (*)(unsigned))gpa(
			(const unsigned char *)"glClear") : NULL;
		if (!clear)
			return 1;
		clear(0x4000);  /* GL_COLOR_BUFFER_BIT */
		return 0;
	}
	const int gl = !strcmp(argv[1], "gl");
	EGLDisplay dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL))
		return 1;
	if (!eglBindAPI(gl ? EGL_OPENGL_API : EGL_OPENGL_ES_API))
		return 1;
	const EGLint attrs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
				gl ? EGL_OPENGL_BIT : EGL_OPENGL_ES2_BIT, EGL_RED_SIZE, 8, EGL_NONE};
	EGLConfig cfg;
	EGLint n = 0;
	if (!eglChooseConfig(dpy, attrs, &cfg, 1, &n) || n != 1)
		return 1;
	const EGLint pb[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
	EGLSurface s = eglCreatePbufferSurface(dpy, cfg, pb);
	const EGLint es[] = {EGL_CONTEXT_CLIENT_VERSION, argv[1][2] - '0', EGL_NONE};
	EGLContext c = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, gl ? NULL : es);
	if (s == EGL_NO_SURFACE || c == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, s, s, c))
		return 1;
	eglSwapBuffers(dpy, s);
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglTerminate(dpy);
	return 0;
}
