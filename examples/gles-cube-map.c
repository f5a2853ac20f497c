/*
 * gles-cube-map.c - cube map sampling on GL ES 2.0, for comparing tessera's
 * GL ES device with llvmpipe (docs/gles.md, "Cube maps"): 3 frames of
 * 400x300 on an X11 window, a sky box (the direction of each pixel's ray
 * through a turning camera) of a 32x32 cube map whose faces have their own
 * colors and a checker, LINEAR_MIPMAP_LINEAR (glGenerateMipmap) on the left
 * half and NEAREST on the right, and a mirror ball (the reflected ray per
 * pixel: minified, mipmaps). Not built by CMake:
 *
 *   cc -O2 -o cube examples/gles-cube-map.c -lEGL -lGLESv2 -lX11 -lm
 *   xvfb-run -a -s '-screen 0 1280x720x24' apitrace trace --api egl -o cube.trace ./cube
 *   WAFFLE_PLATFORM=surfaceless_egl eglretrace --headless -s REF/ cube.trace   (llvmpipe)
 *   build/tessera run cube.trace --out OUT --dump-frames all
 *   build/tessera compare REF OUT   (REF's files renamed frame-NNNN.png)
 *
 * Measured: 32.5 to 36.5 dB against llvmpipe. The differences: a band a
 * half texel wide along the cube's edges in the bilinear half (llvmpipe
 * filters across faces, seamless as GL ES 3.0 says; tessera clamps to the
 * face's edge) and isolated pixels on texel boundaries in the NEAREST half.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_egl.h"

static const char *VS = "attribute vec2 pos;\nvarying vec2 v_ndc;\n"
	"void main() { v_ndc = pos; gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char *FS = "precision highp float;\nuniform samplerCube env;\n"
	"uniform samplerCube env_nearest;\nuniform mat3 rot;\nvarying vec2 v_ndc;\n"
	"void main() {\n"
	"  vec3 d = rot * vec3(v_ndc.x * 1.3333, v_ndc.y, -1.0);\n"
	"  vec2 b = (v_ndc - vec2(0.45, -0.35)) * vec2(1.3333, 1.0) / 0.4;\n"
	"  float r2 = dot(b, b);\n"
	"  if (r2 < 1.0) {\n"
	"    vec3 n = vec3(b, sqrt(1.0 - r2));\n"
	"    d = rot * reflect(vec3(0.0, 0.0, -1.0), n);\n"
	"  }\n"
	"  gl_FragColor = v_ndc.x < 0.0 ? textureCube(env, d) : textureCube(env_nearest, d);\n"
	"}\n";

#define WIDTH 400
#define HEIGHT 300
#define FACE 32

static const unsigned char FACE_COLORS[6][3] = {
	{230, 60, 50}, {60, 200, 70}, {50, 90, 230}, {230, 220, 60}, {210, 70, 220}, {60, 210, 220}};

static GLuint cube_map(GLenum min_filter, GLenum mag_filter)
{
	GLuint t;
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_CUBE_MAP, t);
	static unsigned char px[FACE * FACE * 4];
	for (int f = 0; f < 6; f++) {
		for (int y = 0; y < FACE; y++)
			for (int x = 0; x < FACE; x++) {
				unsigned char *p = &px[(y * FACE + x) * 4];
				const int check = ((x / 4) + (y / 4)) & 1;
				for (int c = 0; c < 3; c++)
					p[c] = (unsigned char)(check ? FACE_COLORS[f][c]
								     : FACE_COLORS[f][c] / 3 + x * 2);
				p[3] = 255;
			}
		glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_RGBA, FACE, FACE, 0, GL_RGBA,
			     GL_UNSIGNED_BYTE, px);
	}
	glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, min_filter);
	glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, mag_filter);
	glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	glGenerateMipmap(GL_TEXTURE_CUBE_MAP);
	return t;
}

int main(void)
{
	Display *dpy;
	EGLDisplay ed;
	EGLSurface s;
	if (example_window(WIDTH, HEIGHT, &dpy, &ed, &s))
		return 1;
	static const char *const attribs[] = {"pos"};
	GLuint p = example_program(VS, FS, attribs, 1);
	glActiveTexture(GL_TEXTURE0);
	cube_map(GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR);
	glActiveTexture(GL_TEXTURE1);
	cube_map(GL_NEAREST, GL_NEAREST);
	glUniform1i(glGetUniformLocation(p, "env"), 0);
	glUniform1i(glGetUniformLocation(p, "env_nearest"), 1);
	const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glEnableVertexAttribArray(0);
	glViewport(0, 0, WIDTH, HEIGHT);
	for (int f = 0; f < 3; f++) {
		/* yaw then pitch, column-major */
		const float a = 0.35f + 1.1f * f, b = 0.3f - 0.25f * f;
		const float ca_ = cosf(a), sa = sinf(a), cb = cosf(b), sb = sinf(b);
		const float rot[9] = {ca_, 0, -sa, sa * sb, cb, ca_ * sb, sa * cb, -sb, ca_ * cb};
		glUniformMatrix3fv(glGetUniformLocation(p, "rot"), 1, GL_FALSE, rot);
		glClearColor(0, 0, 0, 1);
		glClear(GL_COLOR_BUFFER_BIT);
		glDrawArrays(GL_TRIANGLES, 0, 6);
		eglSwapBuffers(ed, s);
	}
	eglTerminate(ed);
	XCloseDisplay(dpy);
	return 0;
}
