/*
 * libegl.c - libEGL.so.1 of the driver (docs/driver.md). libGLESv2.so.2
 * holds the whole driver, EGL included (one process state for both);
 * libEGL.so.1 holds nothing but its dependency on libGLESv2.so.2 (found
 * beside it, RUNPATH $ORIGIN). A program linked against libEGL.so.1 finds
 * the egl* functions in libGLESv2.so.2 when it is loaded, and dlsym() on a
 * dlopen()ed libEGL.so.1 searches its dependencies too: a program that
 * loads only libEGL (eglretrace, through waffle) gets every function,
 * GL's through eglGetProcAddress.
 */

/* ISO C wants a translation unit to declare something. */
typedef int tsr_driver_libegl_is_empty;
