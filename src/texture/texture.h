/*
 * texture.h - textures as the modelled GPU stores and samples them.
 *
 * An image becomes a full mip chain (halved down to 1x1 as GenerateMipmap
 * does, tsr_texture_downsample_rgba8()) of RGBA8
 * texels laid out block-linear: 4x4 texels form one 64-byte block (one
 * cache line), blocks row-major within a level, each level at its own
 * address right after the previous one. This follows the block layouts of
 * real mobile GPUs (e.g. Mali's 4x4 block-interleaved layout); the papers
 * (DTexL II-B, boustrophedonic II) only say texels are cached in lines.
 *
 * Sampling works on a quad (2x2 pixels, lanes 0=(0,0) 1=(1,0) 2=(0,1)
 * 3=(1,1)) with a texture unit's sampler (GL ES 2.0's min and mag
 * filters, mipmap mode and wraps): the level of detail comes from the
 * quad's texture-coordinate derivatives (OpenGL 4.6 Section 8.14: rho =
 * max of the lengths of the x and y derivatives in texels, lod = log2
 * rho); magnification (lod <= 0) samples level 0. Color texels filter in
 * 8-bit fixed point, as texture units do. The texel
 * addresses of the four lanes for one sample instruction are coalesced into
 * unique cache-line requests, in first-use order.
 *
 * A depth texture (tsr_image.depth, a depth render target) keeps its
 * depths as floats besides the grey texels: samples filter the floats and
 * return (d, d, d, 1) (GL_OES_depth_texture's LUMINANCE-like result); its
 * texels are 4 bytes each in memory like any (a 32-bit depth texel), so
 * addresses and line requests are the same as an RGBA8 texture's.
 *
 * Left out: anisotropic filtering, compressed formats (ETC/ASTC; S3TC
 * textures are decoded to RGBA8 by the GL driver, dxt.h), sRGB.
 */
#ifndef TSR_TEXTURE_TEXTURE_H
#define TSR_TEXTURE_TEXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "command/resources.h"
#include "command/state.h"

#define TSR_TEXTURE_MAX_LEVELS 16
#define TSR_TEXEL_BYTES 4
#define TSR_TEXTURE_BLOCK 4           /* texels per block side */
#define TSR_TEXTURE_BLOCK_BYTES 64    /* one 4x4 RGBA8 block */
#define TSR_QUAD_MAX_LINES 32         /* 4 lanes x 8 texels (trilinear) */

struct tsr_texture;

/* The cache lines one sample instruction of a quad needs. */
struct tsr_texel_requests {
	uint32_t texel_fetches;           /* texels read by all lanes */
	uint32_t line_count;              /* unique 64-byte lines */
	uint64_t lines[TSR_QUAD_MAX_LINES];  /* their byte addresses */
};

/*
 * Builds the mip chain of img (copied): levels floor(size / 2) of the one
 * before down to 1x1, any size. A render target (img->render_target)
 * gets level 0 only, which the passes that write it update
 * (tsr_texture_write_rect), unless img->mipmapped (then a full chain,
 * rebuilt by tsr_texture_build_mips); img->bottom_up: the passes' row y
 * is texel row height - 1 - y (GL's y-up window coordinates). Errors:
 * TSR_ERR_ASSET (empty or larger than 32768 texels a side),
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_texture_create(const struct tsr_image *img,
				   struct tsr_texture **out,
				   struct tsr_error *err);
void tsr_texture_destroy(struct tsr_texture *t);

/*
 * Rebuilds levels 1.. of t from level 0 (the reduction of
 * tsr_texture_create; glGenerateMipmap of a render target after a pass
 * drew it). No allocation; nothing for a texture of one level.
 */
void tsr_texture_build_mips(struct tsr_texture *t);

/*
 * The texel row of level 0 that a pass's row y (0: the top row it
 * draws) is: y, or height - 1 - y for a bottom-up render target
 * (tsr_image.bottom_up). y < the level's height.
 */
uint32_t tsr_texture_pass_row(const struct tsr_texture *t, uint32_t y);

/*
 * Overwrites the texels of level 0 in the rectangle (x0, y0, w, h) of the
 * pass's rows (tsr_texture_pass_row()), clipped to the level, with RGBA8
 * rows of pitch_bytes (the rectangle's top row first): a render-to-texture
 * pass's tile flush (the host copy that later samples read). No
 * allocation.
 */
void tsr_texture_write_rect(struct tsr_texture *t, uint32_t x0, uint32_t y0, uint32_t w,
			    uint32_t h, const uint8_t *rgba, uint32_t pitch_bytes);

/*
 * Overwrites the depths of a depth texture's level 0 (tsr_image.depth) in
 * the rectangle (x0, y0, w, h) of the pass's rows (tsr_texture_pass_row()),
 * clipped to the level, with float rows `pitch` floats apart (the
 * rectangle's top row first): a pass's stored depth. Samples read the
 * depths at full precision, clamped to 0..1 (NaN as 0), as (d, d, d, 1);
 * the texels (what tsr_texture_read_rect() and a dump show) become their
 * grey image (tsr_depth_grey_row()). A texture that is not a depth one
 * gets the grey texels only. No allocation.
 */
void tsr_texture_write_depth_rect(struct tsr_texture *t, uint32_t x0, uint32_t y0, uint32_t w,
				  uint32_t h, const float *depth, size_t pitch);

/*
 * The reverse of tsr_texture_write_depth_rect(): the depths of the
 * rectangle (x0, y0, w, h) of the pass's rows, clipped to level 0, into
 * float rows `pitch` floats apart (the rectangle's top row first): a pass
 * that continues the depth an earlier pass stored. A texture that is not
 * a depth one gives 1.0 (the far plane). No allocation.
 */
void tsr_texture_read_depth_rect(const struct tsr_texture *t, uint32_t x0, uint32_t y0,
				 uint32_t w, uint32_t h, float *depth, size_t pitch);

/*
 * n depths (0..1) as grey RGBA8 texels: R = G = B = the depth clamped to
 * 0..1, scaled to 0..255 and rounded as a color channel's conversion to
 * RGBA8 (NaN as 0), A = 255.
 */
void tsr_depth_grey_row(uint8_t *restrict dst, const float *restrict depth, size_t n);

/*
 * Copies the texels of level 0 in the rectangle (x0, y0, w, h) of the
 * pass's rows (tsr_texture_pass_row()), clipped to the level, into RGBA8
 * rows of pitch_bytes (the rectangle's top row first): a pass's tile load
 * from the render target it draws again. No allocation.
 */
void tsr_texture_read_rect(const struct tsr_texture *t, uint32_t x0, uint32_t y0, uint32_t w,
			   uint32_t h, uint8_t *rgba, uint32_t pitch_bytes);

/* Bytes the block-linear mip chain occupies in memory. */
uint64_t tsr_texture_footprint_bytes(const struct tsr_texture *t);

/* Sets the byte address of level 0 (64-byte aligned). */
void tsr_texture_set_base(struct tsr_texture *t, uint64_t base);

/* The byte address of level 0 (tsr_texture_set_base(); 0 until set). */
uint64_t tsr_texture_base(const struct tsr_texture *t);
uint32_t tsr_texture_levels(const struct tsr_texture *t);
uint32_t tsr_texture_width(const struct tsr_texture *t, uint32_t level);
uint32_t tsr_texture_height(const struct tsr_texture *t, uint32_t level);

/* Byte address of texel (x, y) of a level (block-linear). */
uint64_t tsr_texel_address(const struct tsr_texture *t, uint32_t level,
			   uint32_t x, uint32_t y);

/* Level of detail of a quad from its four lanes' (u, v); unclamped. */
float tsr_texture_lod(const struct tsr_texture *t, const float u[4],
		      const float v[4]);

/*
 * A texture unit's sampler state (OpenGL ES 2.0.25 3.7.6-3.7.9, table
 * 6.8): enum tsr_tex_filter min_filter (with its mipmap mode), mag_filter
 * (TSR_TEX_NEAREST or TSR_TEX_LINEAR), enum tsr_tex_wrap wrap_s, wrap_t.
 */
struct tsr_sampler {
	uint8_t min_filter, mag_filter, wrap_s, wrap_t;
};

/* A material's filter and wrap as a sampler: NEAREST is (NEAREST,
 * NEAREST_MIPMAP_NEAREST), BILINEAR (LINEAR, LINEAR_MIPMAP_NEAREST),
 * TRILINEAR (LINEAR, LINEAR_MIPMAP_LINEAR); s and t alike. */
struct tsr_sampler tsr_sampler_of_filter(enum tsr_filter filter, enum tsr_wrap wrap);

/* Where a sample's level of detail comes from. */
enum tsr_lod_mode {
	TSR_LOD_IMPLICIT = 0,  /* the quad's derivatives */
	TSR_LOD_BIAS,          /* the quad's derivatives plus a bias (GLSL's bias argument) */
	TSR_LOD_EXPLICIT,      /* as given (the *Lod functions, vertex shaders) */
};

/*
 * Samples the texture for the four lanes of a quad with sampler s:
 * rgba[lane][channel] in 0..1, and the coalesced line requests. The
 * level of detail (one for the quad, levels) is lod (EXPLICIT), or comes
 * from the lanes' derivatives (lanes 0-1 in x, 0-2 in y), plus lod
 * (BIAS); levels, filters and weights follow llvmpipe, the reference the
 * driver's images are checked against (texture.c: choose_levels): a
 * LINEAR mipmap's lod is a piecewise-linear log2, a color texture filters
 * in 8-bit fixed point (8 bits of sub-texel position, rounded 8-bit
 * lerps, as GPUs' texture units and llvmpipe's AoS path do), a depth
 * texture in float. Hot path: no allocation.
 */
void tsr_texture_sample_quad(const struct tsr_texture *t, const struct tsr_sampler *s,
			     const float u[4], const float v[4], enum tsr_lod_mode mode,
			     float lod, float rgba[4][4], struct tsr_texel_requests *req);

/*
 * The texture unit's lerp of 8-bit values a and b by weight w in 1/256
 * (0..255): a + round(w (b - a) / 256), halves up, as llvmpipe's
 * lp_build_lerp computes it (pmulhrsw) and the color path of
 * tsr_texture_sample_quad() and GenerateMipmap's reduction use it.
 */
static inline int32_t tsr_lerp8(int32_t a, int32_t b, int32_t w)
{
	/* + 65536: a non-negative dividend, so that >> 8 floors */
	return a + ((w * (b - a) + 128 + 65536) >> 8) - 256;
}

/*
 * GenerateMipmap's reduction of RGBA8 image src (sw x sh texels) into dst
 * (dw x dh): each destination texel the LINEAR sample of src at its
 * centre, CLAMP_TO_EDGE, in the sampler's 8-bit fixed point: the
 * blit-based reduction GPU drivers do (Mesa's util_gen_mipmap, which
 * llvmpipe runs through its sampler); for even sizes the rounded mean of
 * each row pair, then of the two rows.
 */
void tsr_texture_downsample_rgba8(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst,
				  uint32_t dw, uint32_t dh);

/*
 * Samples a cube map (OpenGL ES 2.0.25 3.7.5) for the four lanes of a
 * quad: faces[0..5] its faces in GL's order (+X, -X, +Y, -Y, +Z, -Z),
 * square textures of one size and level count, each at its own address;
 * (s[k], t[k], r[k]) lane k's direction. Each lane's face is the major
 * axis of its direction (Table 3.21; ties go to x, then y, then z), its
 * face coordinates (sc / |ma| + 1) / 2 and (tc / |ma| + 1) / 2, sampled
 * as a 2D texture of that face with CLAMP_TO_EDGE whatever the unit's
 * wrap modes (a direction's texels stay on its face; seamless filtering
 * across faces, which GL ES 3.0 makes the rule, is not modelled: a
 * footprint at a face's edge clamps there).
 * Level of detail as in tsr_texture_sample_quad(), the derivatives those
 * of the four lanes' coordinates projected on the face of lane ref_lane
 * (0..3: the first active one), with the face's size; filters and wraps
 * smp's (wraps aside). Lanes on several faces sample each
 * face for its lanes; the line requests of all faces are coalesced in
 * first-use order. rgba[lane][channel] in 0..1. Hot path: no allocation.
 */
void tsr_texture_sample_cube_quad(const struct tsr_texture *const faces[6],
				  const struct tsr_sampler *smp, const float s[4], const float t[4],
				  const float r[4], int ref_lane, enum tsr_lod_mode mode, float lod,
				  float rgba[4][4], struct tsr_texel_requests *req);

#endif
