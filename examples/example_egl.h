/*
 * example_egl.h - what the GL ES examples share: an X11 window of
 * width x height with an EGL window surface and a current GL ES 2.0
 * context (8 bits a color channel), and a program linked from a vertex and
 * a fragment shader's sources with attribute i bound to attribs[i]. A
 * header of static functions, found beside the example: each stays one
 * file to compile (the command in its comment).
 */
#ifndef TSR_EXAMPLE_EGL_H
#define TSR_EXAMPLE_EGL_H

#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <X11/Xlib.h>

/* The window, surface and context made current (the X display for
 * XCloseDisplay at the end); returns 0, or 1 when there is no X display or
 * EGL refuses a step. */
static int example_window(int width, int height, Display **x, EGLDisplay *display,
			  EGLSurface *surface)
{
	Display *dpy = XOpenDisplay(NULL);
	if (!dpy)
		return 1;
	Window win = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), 0, 0, (unsigned)width,
					 (unsigned)height, 0, 0, 0);
	XMapWindow(dpy, win);
	EGLDisplay ed = eglGetDisplay((EGLNativeDisplayType)dpy);
	if (!eglInitialize(ed, NULL, NULL) || !eglBindAPI(EGL_OPENGL_ES_API))
		return 1;
	const EGLint ca[] = {EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
			     EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
			     EGL_NONE};
	EGLConfig cfg;
	EGLint nc = 0;
	if (!eglChooseConfig(ed, ca, &cfg, 1, &nc) || nc < 1)
		return 1;
	EGLSurface s = eglCreateWindowSurface(ed, cfg, (EGLNativeWindowType)win, NULL);
	const EGLint cx[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
	EGLContext c = eglCreateContext(ed, cfg, EGL_NO_CONTEXT, cx);
	if (s == EGL_NO_SURFACE || c == EGL_NO_CONTEXT || !eglMakeCurrent(ed, s, s, c))
		return 1;
	*x = dpy;
	*display = ed;
	*surface = s;
	return 0;
}

static GLuint example_shader(GLenum type, const char *source)
{
	GLuint x = glCreateShader(type);
	glShaderSource(x, 1, &source, NULL);
	glCompileShader(x);
	return x;
}

/* The program of vs and fs, attribs[0..n) bound to locations 0..n-1, linked and in use. */
static GLuint example_program(const char *vs, const char *fs, const char *const *attribs, int n)
{
	GLuint p = glCreateProgram();
	glAttachShader(p, example_shader(GL_VERTEX_SHADER, vs));
	glAttachShader(p, example_shader(GL_FRAGMENT_SHADER, fs));
	for (int i = 0; i < n; i++)
		glBindAttribLocation(p, (GLuint)i, attribs[i]);
	glLinkProgram(p);
	glUseProgram(p);
	return p;
}

#endif
