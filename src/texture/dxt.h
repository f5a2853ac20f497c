/*
 * dxt.h - the S3TC (DXT1, DXT3, DXT5) block formats of
 * GL_EXT_texture_compression_s3tc: a 4x4 texel block is 8 bytes (DXT1:
 * two RGB565 endpoints and 2-bit indices; RGBA DXT1 codes index 3 of the
 * three-color mode as transparent black) or 16 bytes (DXT3: 4-bit explicit
 * alphas then a DXT1 color block in four-color mode; DXT5: two 8-bit alpha
 * endpoints, 3-bit alpha indices, then the color block).
 *
 * Decoding follows the extension's formulas (endpoints expanded to 8 bits by
 * bit replication, the interpolated colors (2 c0 + c1) / 3, (c0 + c1) / 2
 * rounded down); encoding is a simple one (the two opaque texels farthest
 * apart as endpoints, each texel given the nearest palette entry): exact
 * for blocks of one or two colors, not what an offline compressor achieves.
 */
#ifndef TSR_TEXTURE_DXT_H
#define TSR_TEXTURE_DXT_H
#include <stdint.h>

enum tsr_dxt_format {
	TSR_DXT1_RGB = 0,   /* COMPRESSED_RGB_S3TC_DXT1_EXT: alpha always 255 */
	TSR_DXT1_RGBA,      /* COMPRESSED_RGBA_S3TC_DXT1_EXT: 1-bit alpha */
	TSR_DXT3,           /* COMPRESSED_RGBA_S3TC_DXT3_EXT */
	TSR_DXT5,           /* COMPRESSED_RGBA_S3TC_DXT5_EXT */
};

/* Bytes of one 4x4 block: 8 (DXT1) or 16 (DXT3, DXT5). */
unsigned tsr_dxt_block_bytes(enum tsr_dxt_format f);

/* Decodes one block into rgba[16][4] (texel x + 4 y, row y = 0 first). */
void tsr_dxt_decode_block(enum tsr_dxt_format f, const uint8_t *block, uint8_t rgba[16][4]);

/* Encodes rgba[16][4] (texel x + 4 y) into one block of
 * tsr_dxt_block_bytes(f) bytes. RGBA DXT1: a texel with alpha below 128
 * becomes transparent black (the block then uses the three-color mode). */
void tsr_dxt_encode_block(enum tsr_dxt_format f, const uint8_t rgba[16][4], uint8_t *block);

#endif
