#include "techniques/signature_unit.h"

#include <stdlib.h>
#include <string.h>

#define FRAMES 3  /* being built, one back, two back */

struct tsr_signature_unit {
	uint32_t tiles;
	uint32_t *sig[FRAMES];       /* Signature Buffer: sig[0] is being built */
	uint32_t signed_frames;      /* frames ended so far */
	uint32_t valid_frames;       /* frames ended since the last invalidation */
	uint8_t *bitmap;             /* tiles that combined the current constants */
	struct tsr_crc_block constants;
	struct tsr_su_counters ctr;
};

enum tsr_status tsr_su_create(uint32_t tiles, struct tsr_signature_unit **out,
			      struct tsr_error *err)
{
	struct tsr_signature_unit *su = calloc(1, sizeof(*su));
	int ok = su != NULL;
	for (int f = 0; ok && f < FRAMES; f++)
		ok = (su->sig[f] = calloc(tiles ? tiles : 1, sizeof(uint32_t))) != NULL;
	if (ok)
		ok = (su->bitmap = calloc(tiles ? tiles : 1, 1)) != NULL;
	if (!ok) {
		tsr_su_destroy(su);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the Signature Unit");
	}
	su->tiles = tiles;
	*out = su;
	return TSR_OK;
}

void tsr_su_destroy(struct tsr_signature_unit *su)
{
	if (!su)
		return;
	for (int f = 0; f < FRAMES; f++)
		free(su->sig[f]);
	free(su->bitmap);
	free(su);
}

void tsr_su_begin_frame(struct tsr_signature_unit *su)
{
	memset(su->sig[0], 0, su->tiles * sizeof(uint32_t));
	memset(su->bitmap, 0, su->tiles);
	su->constants = (struct tsr_crc_block){0, 0};
	su->ctr.ot_max = 0;
}

void tsr_su_constants(struct tsr_signature_unit *su, const void *data, size_t bytes)
{
	su->constants = tsr_crc_compute(data, bytes);
	su->ctr.constant_blocks++;
	su->ctr.subblocks_signed += su->constants.subblocks;
	memset(su->bitmap, 0, su->tiles);
}

void tsr_su_constants_append(struct tsr_signature_unit *su, const void *data, size_t bytes)
{
	const struct tsr_crc_block b = tsr_crc_compute(data, bytes);
	su->constants.crc = tsr_crc_accumulate(su->constants.crc, b);
	su->constants.subblocks += b.subblocks;
	su->ctr.subblocks_signed += b.subblocks;
}

/* One Accumulate CRC unit use on tile t. */
static void accumulate(struct tsr_signature_unit *su, uint32_t t, struct tsr_crc_block b)
{
	su->sig[0][t] = tsr_crc_accumulate(su->sig[0][t], b);
	su->ctr.accumulate_steps++;
	su->ctr.shift_steps += b.subblocks;
}

void tsr_su_primitive(struct tsr_signature_unit *su, const void *attributes, size_t bytes,
		      const uint32_t *tiles, uint32_t n)
{
	struct tsr_crc_block p = tsr_crc_compute(attributes, bytes);
	su->ctr.primitive_blocks++;
	su->ctr.subblocks_signed += p.subblocks;
	su->ctr.ot_pushes += n;
	if (n > su->ctr.ot_max)
		su->ctr.ot_max = n;
	for (uint32_t i = 0; i < n; i++) {  /* pop the OT Queue */
		uint32_t t = tiles[i];
		if (!su->bitmap[t]) {
			su->bitmap[t] = 1;
			accumulate(su, t, su->constants);
		}
		accumulate(su, t, p);
	}
}

void tsr_su_invalidate(struct tsr_signature_unit *su)
{
	su->valid_frames = 0;
}

void tsr_su_end_frame(struct tsr_signature_unit *su)
{
	uint32_t *oldest = su->sig[FRAMES - 1];
	for (int f = FRAMES - 1; f > 0; f--)
		su->sig[f] = su->sig[f - 1];
	su->sig[0] = oldest;
	su->signed_frames++;
	su->valid_frames++;
	tsr_su_begin_frame(su);
}

uint32_t tsr_su_signature(const struct tsr_signature_unit *su, uint32_t tile)
{
	return su->sig[0][tile];
}

int tsr_su_inputs_equal(const struct tsr_signature_unit *su, uint32_t tile, uint32_t back)
{
	if (back < 1 || back >= FRAMES || su->signed_frames < back)
		return 0;
	return su->sig[0][tile] == su->sig[back][tile];
}

int tsr_su_comparable(const struct tsr_signature_unit *su, uint32_t back)
{
	return back >= 1 && back < FRAMES && su->valid_frames >= back;
}

int tsr_su_same_as(const struct tsr_signature_unit *su, uint32_t tile, uint32_t back)
{
	return tsr_su_comparable(su, back) && tsr_su_inputs_equal(su, tile, back);
}

const struct tsr_su_counters *tsr_su_counters_of(const struct tsr_signature_unit *su)
{
	return &su->ctr;
}
