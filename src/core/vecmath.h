/*
 * vecmath.h - small vector and 4x4 matrix helpers (column vectors,
 * column-major storage as in OpenGL: m[col*4 + row]).
 *
 * Plain inline functions on plain structs; no allocation.
 */
#ifndef TSR_CORE_VECMATH_H
#define TSR_CORE_VECMATH_H

#include <math.h>
#ifdef __SSE2__
#include <xmmintrin.h>
#endif

struct tsr_vec3 { float x, y, z; };
struct tsr_vec4 { float x, y, z, w; };  /* contiguous: tsr_m4_apply stores all four at once */
struct tsr_mat4 { float m[16]; };

static inline struct tsr_vec3 tsr_v3(float x, float y, float z)
{
	struct tsr_vec3 v = {x, y, z};
	return v;
}
static inline struct tsr_vec3 tsr_v3_sub(struct tsr_vec3 a, struct tsr_vec3 b)
{
	return tsr_v3(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline struct tsr_vec3 tsr_v3_add(struct tsr_vec3 a, struct tsr_vec3 b)
{
	return tsr_v3(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline struct tsr_vec3 tsr_v3_scale(struct tsr_vec3 a, float s)
{
	return tsr_v3(a.x * s, a.y * s, a.z * s);
}
static inline float tsr_v3_dot(struct tsr_vec3 a, struct tsr_vec3 b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline struct tsr_vec3 tsr_v3_cross(struct tsr_vec3 a, struct tsr_vec3 b)
{
	return tsr_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,
		      a.x * b.y - a.y * b.x);
}
static inline struct tsr_vec3 tsr_v3_norm(struct tsr_vec3 a)
{
	float l = sqrtf(tsr_v3_dot(a, a));
	return l > 0.0f ? tsr_v3_scale(a, 1.0f / l) : a;
}
static inline struct tsr_vec3 tsr_v3_lerp(struct tsr_vec3 a, struct tsr_vec3 b, float t)
{
	return tsr_v3(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t,
		      a.z + (b.z - a.z) * t);
}

static inline struct tsr_mat4 tsr_m4_identity(void)
{
	struct tsr_mat4 r = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}};
	return r;
}

static inline struct tsr_mat4 tsr_m4_mul(struct tsr_mat4 a, struct tsr_mat4 b)
{
	struct tsr_mat4 r;
	for (int c = 0; c < 4; c++)
		for (int rr = 0; rr < 4; rr++) {
			float s = 0.0f;
			for (int k = 0; k < 4; k++)
				s += a.m[k * 4 + rr] * b.m[c * 4 + k];
			r.m[c * 4 + rr] = s;
		}
	return r;
}

static inline struct tsr_vec4 tsr_m4_apply(const struct tsr_mat4 *a, float x,
					   float y, float z, float w)
{
	struct tsr_vec4 r;
	const float *m = a->m;
#ifdef __SSE2__
	/* the four rows at once, column by column: each lane's products and
	 * sums in the same order as the scalar expressions below */
	__m128 v = _mm_mul_ps(_mm_loadu_ps(&m[0]), _mm_set1_ps(x));
	v = _mm_add_ps(v, _mm_mul_ps(_mm_loadu_ps(&m[4]), _mm_set1_ps(y)));
	v = _mm_add_ps(v, _mm_mul_ps(_mm_loadu_ps(&m[8]), _mm_set1_ps(z)));
	v = _mm_add_ps(v, _mm_mul_ps(_mm_loadu_ps(&m[12]), _mm_set1_ps(w)));
	_mm_storeu_ps(&r.x, v);
#else
	r.x = m[0] * x + m[4] * y + m[8] * z + m[12] * w;
	r.y = m[1] * x + m[5] * y + m[9] * z + m[13] * w;
	r.z = m[2] * x + m[6] * y + m[10] * z + m[14] * w;
	r.w = m[3] * x + m[7] * y + m[11] * z + m[15] * w;
#endif
	return r;
}

static inline struct tsr_mat4 tsr_m4_translate(struct tsr_vec3 t)
{
	struct tsr_mat4 r = tsr_m4_identity();
	r.m[12] = t.x;
	r.m[13] = t.y;
	r.m[14] = t.z;
	return r;
}

static inline struct tsr_mat4 tsr_m4_scale(struct tsr_vec3 s)
{
	struct tsr_mat4 r = tsr_m4_identity();
	r.m[0] = s.x;
	r.m[5] = s.y;
	r.m[10] = s.z;
	return r;
}

/* Rotation by Euler angles in degrees, applied X then Y then Z. */
static inline struct tsr_mat4 tsr_m4_rotate_xyz_deg(struct tsr_vec3 deg)
{
	const float k = 3.14159265358979f / 180.0f;
	float cx = cosf(deg.x * k), sx = sinf(deg.x * k);
	float cy = cosf(deg.y * k), sy = sinf(deg.y * k);
	float cz = cosf(deg.z * k), sz = sinf(deg.z * k);
	struct tsr_mat4 rx = {{1, 0, 0, 0, 0, cx, sx, 0, 0, -sx, cx, 0, 0, 0, 0, 1}};
	struct tsr_mat4 ry = {{cy, 0, -sy, 0, 0, 1, 0, 0, sy, 0, cy, 0, 0, 0, 0, 1}};
	struct tsr_mat4 rz = {{cz, sz, 0, 0, -sz, cz, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}};
	return tsr_m4_mul(rz, tsr_m4_mul(ry, rx));
}

/* Right-handed look-at view matrix (gluLookAt). */
static inline struct tsr_mat4 tsr_m4_look_at(struct tsr_vec3 eye,
					     struct tsr_vec3 target,
					     struct tsr_vec3 up)
{
	struct tsr_vec3 f = tsr_v3_norm(tsr_v3_sub(target, eye));
	struct tsr_vec3 s = tsr_v3_norm(tsr_v3_cross(f, up));
	struct tsr_vec3 u = tsr_v3_cross(s, f);
	struct tsr_mat4 r = tsr_m4_identity();
	r.m[0] = s.x; r.m[4] = s.y; r.m[8] = s.z;
	r.m[1] = u.x; r.m[5] = u.y; r.m[9] = u.z;
	r.m[2] = -f.x; r.m[6] = -f.y; r.m[10] = -f.z;
	r.m[12] = -tsr_v3_dot(s, eye);
	r.m[13] = -tsr_v3_dot(u, eye);
	r.m[14] = tsr_v3_dot(f, eye);
	return r;
}

/* OpenGL perspective projection; fov_y in degrees, clip z in [-w, w]. */
static inline struct tsr_mat4 tsr_m4_perspective(float fov_y_deg, float aspect,
						 float znear, float zfar)
{
	float f = 1.0f / tanf(fov_y_deg * 3.14159265358979f / 360.0f);
	struct tsr_mat4 r = {{0}};
	r.m[0] = f / aspect;
	r.m[5] = f;
	r.m[10] = (zfar + znear) / (znear - zfar);
	r.m[11] = -1.0f;
	r.m[14] = 2.0f * zfar * znear / (znear - zfar);
	return r;
}

/* OpenGL orthographic projection (glOrtho). */
static inline struct tsr_mat4 tsr_m4_ortho(float l, float r_, float b, float t,
					   float n, float f)
{
	struct tsr_mat4 r = tsr_m4_identity();
	r.m[0] = 2.0f / (r_ - l);
	r.m[5] = 2.0f / (t - b);
	r.m[10] = -2.0f / (f - n);
	r.m[12] = -(r_ + l) / (r_ - l);
	r.m[13] = -(t + b) / (t - b);
	r.m[14] = -(f + n) / (f - n);
	return r;
}

#endif
