/*
 * piglit_libgl.c - libGL.so.1 for piglit's GLES2 programs only
 * (build/driver/piglit/, which scripts/piglit-gles2.sh puts first on
 * LD_LIBRARY_PATH of tessera's runs; never part of the driver's folder).
 *
 * Debian's piglit looks up every extension function of its GLES2 programs
 * with glXGetProcAddressARB (libpiglitutil_gles2 links libGL.so.1 for it
 * alone). glvnd's libGL answers with a libGLdispatch stub that only a
 * glvnd vendor fills in: Mesa is one, tessera's driver is not, so the stub
 * does nothing and every extension call is lost. This library answers with
 * the driver's own entry point, as eglGetProcAddress does (it links
 * libGLESv2.so.2 beside it in build/driver).
 */
#include <EGL/egl.h>

typedef void (*tsr_piglit_proc)(void);

/* The driver's entry point called name (eglGetProcAddress), or NULL. */
tsr_piglit_proc glXGetProcAddressARB(const unsigned char *name);
tsr_piglit_proc glXGetProcAddress(const unsigned char *name);

tsr_piglit_proc glXGetProcAddressARB(const unsigned char *name)
{
	return (tsr_piglit_proc)eglGetProcAddress((const char *)name);
}

tsr_piglit_proc glXGetProcAddress(const unsigned char *name)
{
	return glXGetProcAddressARB(name);
}
