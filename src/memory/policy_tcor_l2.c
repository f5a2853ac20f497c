/*
 * policy_tcor_l2.c - the L2 replacement policy of TCOR (Section III-D,
 * "TCOR Enhancements for the L2"): LRU that knows which Parameter Buffer
 * lines are dead.
 *
 * What it models. The Tiling Engine tags every Parameter Buffer access
 * with the line's type (PB-Lists, PB-Attributes or neither) and the last
 * tile that will read it (memory/pb_meta.h); the cache keeps that
 * metadata with the line. The L2 counts the tiles the Tile Fetcher has
 * finished in the current frame. A Parameter Buffer line whose last tile
 * has finished will not be read again: it is dead. The victim of a full
 * set is chosen by class, then LRU within the class (oldest stamp, ties
 * to the lowest way):
 *
 *   0  dead Parameter Buffer lines (evicted with TSR_POLICY_DISCARD: no
 *      write-back even if dirty, counted as a discard),
 *   1  lines that are not Parameter Buffer data (textures, vertices,
 *      instructions, colour: clean in the paper's GPU, cheap to replace),
 *   2  live Parameter Buffer lines.
 *
 * Hits and fills make the line the most recently used.
 *
 * Tiles. The pipeline sends TSR_MARKER_TILE when a tile starts, so after
 * the c-th tile marker of a frame c-1 tiles are finished, the positions
 * 0..c-2 of the frame's tile order (the paper's "last tile processed"
 * counter, starting at NULL and incremented per finished tile). The last
 * tile in the metadata is a position in that order, not a tile id, so the
 * test "last tile < tiles finished" stays right for any order, reversed
 * (boustrophedonic) ones included; the marker's value (a row-major tile
 * id) is not used.
 *
 * Frames (tessera's choice; the paper leaves it open). TSR_MARKER_FRAME
 * carries the frame number; the policy keeps it mod 2^14, the width of
 * the frame field of the metadata, and resets the finished tiles to none.
 * A Parameter Buffer line tagged with another frame belongs to an earlier
 * frame's Parameter Buffer, which is "built and used up within each
 * frame", so it is dead too. Before the first frame marker the frame is
 * unknown and no line is dead.
 *
 * No parameters. victim() is one pass over the set and allocates nothing.
 *
 * Where the rest of TCOR lives (the full map is in techniques/tcor.c):
 * this policy and the metadata format (memory/pb_meta.h) stay in memory/
 * because the policy table (memory/policy_table.c) lists every policy and
 * memory/ must not include techniques/. The metadata is written by the
 * Parameter Buffer (tiling/parameter_buffer.c, with the OPT Numbers of
 * III-A); the Attribute Cache of III-C is techniques/tcor_attribute_cache.c,
 * plugged into the pipeline by techniques/tcor.c.
 */
#include <stdlib.h>

#include "memory/pb_meta.h"
#include "memory/policy.h"

struct tcor_l2 {
	uint32_t ways;
	uint32_t frame;          /* current frame mod 2^14 */
	uint32_t tile_markers;   /* tile markers seen in the current frame */
	int frame_known;         /* 0 until the first frame marker */
	uint64_t clock;
	uint64_t stamp[];        /* sets x ways LRU stamps */
};

enum { CLASS_DEAD = 0, CLASS_OTHER = 1, CLASS_LIVE = 2 };

static enum tsr_status tcor_l2_create(const struct tsr_policy_config *cfg,
				      void **state, struct tsr_error *err)
{
	static const char *const keys[] = {NULL};
	TSR_TRY(tsr_policy_params_parse(cfg, "tcor-l2", keys, NULL, NULL, NULL, err));
	struct tcor_l2 *t = calloc(1, sizeof(*t) +
				      (size_t)cfg->sets * cfg->ways * sizeof(uint64_t));
	if (!t)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for tcor-l2 state");
	t->ways = cfg->ways;
	*state = t;
	return TSR_OK;
}

static void tcor_l2_destroy(void *state)
{
	free(state);
}

static void tcor_l2_touch(void *state, uint32_t set, uint32_t way,
			  const struct tsr_line *set_lines, const struct tsr_access *a)
{
	(void)set_lines;
	(void)a;
	struct tcor_l2 *t = state;
	t->stamp[(uint64_t)set * t->ways + way] = ++t->clock;
}

/* Replacement class of a line given the tiles finished in this frame. */
static int line_class(const struct tcor_l2 *t, uint32_t meta, uint32_t finished)
{
	if (tsr_pb_meta_type(meta) == TSR_PB_NONE)
		return CLASS_OTHER;
	if (t->frame_known &&
	    (tsr_pb_meta_frame(meta) != t->frame || tsr_pb_meta_last_tile(meta) < finished))
		return CLASS_DEAD;
	return CLASS_LIVE;
}

static uint32_t tcor_l2_victim(void *state, uint32_t set,
			       const struct tsr_line *set_lines,
			       const struct tsr_access *a)
{
	(void)a;
	const struct tcor_l2 *t = state;
	const uint64_t *stamp = &t->stamp[(uint64_t)set * t->ways];
	uint32_t finished = t->tile_markers ? t->tile_markers - 1 : 0;
	uint32_t best = 0;
	int best_class = line_class(t, set_lines[0].meta, finished);
	for (uint32_t w = 1; w < t->ways; w++) {
		int c = line_class(t, set_lines[w].meta, finished);
		if (c < best_class || (c == best_class && stamp[w] < stamp[best])) {
			best = w;
			best_class = c;
		}
	}
	return best_class == CLASS_DEAD ? best | TSR_POLICY_DISCARD : best;
}

static void tcor_l2_marker(void *state, enum tsr_marker kind, uint64_t value)
{
	struct tcor_l2 *t = state;
	switch (kind) {
	case TSR_MARKER_FRAME:
		t->frame = (uint32_t)(value & TSR_PB_META_FRAME_MASK);
		t->frame_known = 1;
		t->tile_markers = 0;
		break;
	case TSR_MARKER_TILE:
		if (t->tile_markers < UINT32_MAX)
			t->tile_markers++;
		break;
	}
}

const struct tsr_policy_ops tsr_policy_tcor_l2 = {
	.name = "tcor-l2",
	.create = tcor_l2_create,
	.destroy = tcor_l2_destroy,
	.victim = tcor_l2_victim,
	.on_hit = tcor_l2_touch,
	.on_fill = tcor_l2_touch,
	.on_marker = tcor_l2_marker,
};
