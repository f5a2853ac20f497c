/*
 * pb_meta.h - the metadata the Tiling Engine attaches to its Parameter
 * Buffer accesses (struct tsr_access.meta) so that the L2 can tell dead
 * Parameter Buffer lines (TCOR III-D): a 2-bit Parameter Buffer type
 * (lists, attributes, neither) and the position, in the current frame's
 * tile order, of the last tile that will read the line. The paper's L2
 * line holds 2 + 12 bits; tessera keeps 16 bits of tile position (up to
 * 65535 tiles, the configuration limit) and 14 bits of the frame number,
 * so that the Parameter Buffer of an earlier frame (the paper leaves this
 * open) counts as dead too: the Parameter Buffer is "built and used up
 * within each frame".
 *
 *   bits 0-1   type (enum tsr_pb_type)
 *   bits 2-17  last tile position in the frame's tile order
 *   bits 18-31 frame number mod 2^14
 *
 * Accesses of other units carry meta 0 (type none). A cache keeps the
 * metadata of the last access to a line and hands it down with the line's
 * write-back (memory/memsys.c). Writer: tiling/parameter_buffer.c; readers:
 * the policy tcor-l2 (memory/policy_tcor_l2.c) and TCOR's Attribute Cache,
 * which hands it on (techniques/tcor_attribute_cache.h). It stays in
 * memory/ with tcor-l2; techniques/tcor.c maps every part of TCOR.
 */
#ifndef TSR_MEMORY_PB_META_H
#define TSR_MEMORY_PB_META_H

#include <stdint.h>

enum tsr_pb_type {
	TSR_PB_NONE = 0,        /* not Parameter Buffer data */
	TSR_PB_LISTS = 1,       /* a PB-Lists block (PMDs) */
	TSR_PB_ATTRIBUTES = 2,  /* a PB-Attributes block */
};

#define TSR_PB_META_FRAME_MASK 0x3fffu

static inline uint32_t tsr_pb_meta(enum tsr_pb_type type, uint32_t last_tile_pos,
				   uint32_t frame)
{
	return (uint32_t)type | (last_tile_pos & 0xffffu) << 2 |
	       (frame & TSR_PB_META_FRAME_MASK) << 18;
}

static inline enum tsr_pb_type tsr_pb_meta_type(uint32_t meta)
{
	return (enum tsr_pb_type)(meta & 3u);
}

static inline uint32_t tsr_pb_meta_last_tile(uint32_t meta)
{
	return (meta >> 2) & 0xffffu;
}

static inline uint32_t tsr_pb_meta_frame(uint32_t meta)
{
	return meta >> 18;
}

#endif
