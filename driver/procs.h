/*
 * procs.h - eglGetProcAddress's tables: every EGL (egl.c) and GL ES 2.0
 * (gl.c) entry point of the driver by name.
 */
#ifndef TSR_DRIVER_PROCS_H
#define TSR_DRIVER_PROCS_H

/* An entry point and its name. */
struct drv_proc {
	const char *name;
	void (*fn)(void);
};

/* The gl* entry point called procname, or NULL when the driver has none. */
void (*drv_gl_proc(const char *procname))(void);

#endif
