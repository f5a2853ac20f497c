/*
 * signature_unit.h - Rendering Elimination's Signature Unit (RE Section
 * III-E and III-F, Fig. 7): while the frame is binned, it signs each
 * tile's inputs incrementally, so that before a tile is rendered its
 * signature can be compared with the same tile's signature in the frame
 * whose colors it would overwrite.
 *
 * A tile's input message is, for every drawcall with primitives that
 * overlap the tile, in program order: the drawcall's scene constants
 * (once per tile, until the constants change) followed by the attributes
 * of each of its primitives that overlap the tile. The unit keeps:
 *  - the Constants CRC and its shift amount (a block signed by the Compute
 *    CRC unit when the Command Processor sends new constants), and the
 *    bitmap of tiles that already combined them (cleared on new constants);
 *  - the Primitive CRC and its shift amount (each primitive's attributes);
 *  - the Overlapped Tiles (OT) queue, the tiles of the current primitive,
 *    popped one by one to update their signatures through the Accumulate
 *    CRC unit;
 *  - the Signature Buffer. With double-buffered frame buffers a tile is
 *    compared with the frame two back, so tessera keeps three frames of
 *    signatures: the one being built, the last one and the one before
 *    (the paper keeps "the current frame and the frame the tile will be
 *    compared against"; the last frame must survive for the next frame's
 *    comparison, hence three).
 * Signatures are pure CRCs (techniques/crc32.h). Allocation happens at
 * creation only.
 */
#ifndef TSR_TECHNIQUES_SIGNATURE_UNIT_H
#define TSR_TECHNIQUES_SIGNATURE_UNIT_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "stats/counters.h"
#include "techniques/crc32.h"

/* The Signature Unit's work (RE V: its time and energy overheads). */
/* struct tsr_su_counters: declared in stats/counters.h (TSR_SIGNATURE_UNIT_COUNTERS). */

struct tsr_signature_unit;

/* A unit for `tiles` tiles. Errors: TSR_ERR_NOMEM. */
enum tsr_status tsr_su_create(uint32_t tiles, struct tsr_signature_unit **out,
			      struct tsr_error *err);
void tsr_su_destroy(struct tsr_signature_unit *su);

/* Starts a frame: the signatures being built restart from empty. */
void tsr_su_begin_frame(struct tsr_signature_unit *su);

/*
 * New scene constants (`bytes`, a multiple of 8): signed into the Constants
 * CRC; the bitmap is cleared, so each tile combines them once before the
 * next primitive that overlaps it.
 */
void tsr_su_constants(struct tsr_signature_unit *su, const void *data, size_t bytes);

/*
 * More of the current scene constants (`bytes`, a multiple of 8): the
 * Constants CRC becomes that of the constants sent so far followed by
 * these (a draw's constants longer than one message: a GL ES program's
 * uniform bank, signed in pieces without a buffer of its size). Call
 * after tsr_su_constants() and before the draw's first primitive.
 */
void tsr_su_constants_append(struct tsr_signature_unit *su, const void *data, size_t bytes);

/*
 * A primitive's attributes (`bytes`, a multiple of 8) and the n tiles it
 * overlaps (the OT Queue): each tile's signature absorbs the constants
 * (first time since they changed) and then the attributes.
 */
void tsr_su_primitive(struct tsr_signature_unit *su, const void *attributes, size_t bytes,
		      const uint32_t *tiles, uint32_t n);

/*
 * Forgets the signatures of earlier frames (they stay in the buffer but no
 * longer compare equal), for a frame in which the driver uploads a texture
 * or a shader (RE III-E): tiles compare again two frames later, once the
 * back buffer holds colors rendered after the upload.
 */
void tsr_su_invalidate(struct tsr_signature_unit *su);

/* Ends the frame: its signatures become "one frame back". */
void tsr_su_end_frame(struct tsr_signature_unit *su);

/* The signature of tile t in the frame being built (pure CRC; 0 if no input). */
uint32_t tsr_su_signature(const struct tsr_signature_unit *su, uint32_t tile);

/*
 * 1 when the signatures of `back` frames ago (1 or 2) were signed and not
 * invalidated since, so tiles may be compared with them.
 */
int tsr_su_comparable(const struct tsr_signature_unit *su, uint32_t back);

/*
 * 1 when tile t's signature in the frame being built equals its signature
 * `back` frames ago (1 or 2), that frame was signed and no invalidation
 * came since (RE III-A: the tile may be skipped); 0 otherwise.
 */
int tsr_su_same_as(const struct tsr_signature_unit *su, uint32_t tile, uint32_t back);

/*
 * As tsr_su_same_as() but ignoring invalidations: whether the inputs are
 * equal at all, for classifying tiles (RE V, Fig. 14a).
 */
int tsr_su_inputs_equal(const struct tsr_signature_unit *su, uint32_t tile, uint32_t back);

const struct tsr_su_counters *tsr_su_counters_of(const struct tsr_signature_unit *su);


#endif
