/*
 * gles-points-lines.c - points and lines on GL ES 2.0, for comparing
 * tessera's GL ES device with llvmpipe (docs/gles.md, "Points and lines"):
 * 3 frames of 400x300 on an X11 window with points of sizes 1-48
 * (gl_PointSize; gl_PointCoord as color), lines of widths 1-3, a strip, a
 * loop and a line clipped by the window. Not built by CMake:
 *
 *   cc -O2 -o pl examples/gles-points-lines.c -lEGL -lGLESv2 -lX11 -lm
 *   xvfb-run -a -s '-screen 0 1280x720x24' apitrace trace --api egl -o pl.trace ./pl
 *   WAFFLE_PLATFORM=surfaceless_egl eglretrace --headless -s REF/ pl.trace   (llvmpipe)
 *   LD_LIBRARY_PATH=build/driver WAFFLE_PLATFORM=surfaceless_egl TESSERA_OUT=OUT \
 *       eglretrace --headless pl.trace
 *   build/tessera compare REF OUT/surface-2   (REF's files renamed frame-NNNN.png)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_egl.h"

static const char *VS = "attribute vec2 pos;\nattribute vec3 col;\nuniform float psize;\n"
	"varying vec3 v_col;\nvoid main() { v_col = col; gl_PointSize = psize;\n"
	"  gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char *FS = "precision mediump float;\nuniform float mode;\nvarying vec3 v_col;\n"
	"void main() { if (mode > 0.5) gl_FragColor = vec4(gl_PointCoord, v_col.b, 1.0);\n"
	"  else gl_FragColor = vec4(v_col, 1.0); }\n";

#define WIDTH 400
#define HEIGHT 300
static float X(float px) { return px / WIDTH * 2.0f - 1.0f; }
static float Y(float py) { return py / HEIGHT * 2.0f - 1.0f; }

static void draw(GLenum mode, const float *xy, int n, float phase)
{
	float pos[512], col[768];
	for (int i = 0; i < n; i++) {
		pos[2 * i] = X(xy[2 * i]);
		pos[2 * i + 1] = Y(xy[2 * i + 1]);
		col[3 * i] = 0.5f + 0.5f * sinf(phase + i);
		col[3 * i + 1] = 0.5f + 0.5f * cosf(phase + 2 * i);
		col[3 * i + 2] = (float)i / (n > 1 ? n - 1 : 1);
	}
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
	glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 0, col);
	glDrawArrays(mode, 0, n);
}

int main(void)
{
	Display *dpy;
	EGLDisplay ed;
	EGLSurface s;
	if (example_window(WIDTH, HEIGHT, &dpy, &ed, &s))
		return 1;
	static const char *const attribs[] = {"pos", "col"};
	GLuint p = example_program(VS, FS, attribs, 2);
	glEnableVertexAttribArray(0);
	glEnableVertexAttribArray(1);
	GLint psize = glGetUniformLocation(p, "psize"), mode = glGetUniformLocation(p, "mode");
	glViewport(0, 0, WIDTH, HEIGHT);
	for (int f = 0; f < 3; f++) {
		const float ph = 0.7f * f;
		glClearColor(0.1f, 0.1f, 0.15f, 1.0f);
		glClear(GL_COLOR_BUFFER_BIT);
		/* points: a grid of sizes 1..12, then big sprites with gl_PointCoord */
		float pts[256];
		int n = 0;
		for (int i = 0; i < 12; i++) {
			pts[2 * n] = 20.0f + 30.0f * i + 0.37f * f;
			pts[2 * n + 1] = 280.0f - 0.21f * i;
			n++;
		}
		glUniform1f(mode, 0.0f);
		for (int i = 0; i < 12; i++) {
			glUniform1f(psize, 1.0f + i);
			draw(GL_POINTS, &pts[2 * i], 1, ph + i);
		}
		glUniform1f(mode, 1.0f);
		const float big[] = {40.3f, 230.6f, 100.7f, 231.2f, 170.1f, 229.9f};
		glUniform1f(psize, 16.0f);
		draw(GL_POINTS, big, 1, ph);
		glUniform1f(psize, 31.0f);
		draw(GL_POINTS, big + 2, 1, ph);
		glUniform1f(psize, 48.0f);
		draw(GL_POINTS, big + 4, 1, ph);
		glUniform1f(mode, 0.0f);
		/* lines: a fan of segments of width 1, then 3, a strip and a loop */
		float seg[128];
		n = 0;
		for (int i = 0; i < 16; i++) {
			const float a = ph * 0.1f + i * 3.14159f / 16.0f;
			seg[4 * i] = 300.0f + 8.0f * cosf(a);
			seg[4 * i + 1] = 220.0f + 8.0f * sinf(a);
			seg[4 * i + 2] = 300.0f + 70.0f * cosf(a);
			seg[4 * i + 3] = 220.0f + 70.0f * sinf(a);
		}
		glLineWidth(1.0f);
		draw(GL_LINES, seg, 32, ph);
		glLineWidth(3.0f);
		for (int i = 0; i < 16; i++)
			seg[4 * i + 1] -= 110.0f, seg[4 * i + 3] -= 110.0f;
		draw(GL_LINES, seg, 32, ph);
		glLineWidth(1.0f);
		float st[64];
		for (int i = 0; i < 20; i++) {
			st[2 * i] = 10.0f + 9.7f * i;
			st[2 * i + 1] = 120.0f + 40.0f * sinf(ph + i * 0.6f);
		}
		draw(GL_LINE_STRIP, st, 20, ph);
		float lp[32];
		for (int i = 0; i < 7; i++) {
			const float a = ph + i * 2.0f * 3.14159f / 7.0f;
			lp[2 * i] = 110.0f + 60.0f * cosf(a);
			lp[2 * i + 1] = 45.0f + 35.0f * sinf(a);
		}
		glLineWidth(2.0f);
		draw(GL_LINE_LOOP, lp, 7, ph);
		glLineWidth(1.0f);
		/* a line clipped by the window's edges */
		const float cl[] = {-50.0f, 5.3f, 450.0f, 60.7f};
		draw(GL_LINES, cl, 2, ph);
		eglSwapBuffers(ed, s);
	}
	eglTerminate(ed);
	XCloseDisplay(dpy);
	return 0;
}
