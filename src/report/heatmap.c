/*
 * heatmap.c - per-tile heatmaps as images and CSV (report/heatmap.h).
 */
#include "report/heatmap.h"

#include "memory/memsys.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct tsr_heatmap_counter tsr_heatmap_counters[TSR_HEATMAP_COUNTERS] = {
	{"quads_shaded", "raster.quads_shaded"},
	{"tile_cycles", "timing.tile_cycles (timing mode only)"},
	{"l2_misses", "caches.l2.all.read_misses + write_misses (raster phase)"},
	{"pb_read_bytes", "dram.pb_lists.read_bytes + dram.pb_attributes.read_bytes "
			  "(raster phase)"},
	{"line_requests", "texture.line_requests (L1 texture line requests)"},
	{"tiles_skipped", "elimination.tiles_skipped (elimination.rendering only)"},
};

int tsr_heatmap_find(const char *name)
{
	for (int i = 0; i < TSR_HEATMAP_COUNTERS; i++)
		if (!strcmp(tsr_heatmap_counters[i].name, name))
			return i;
	return -1;
}

void tsr_heatmap_names(char *buf, size_t n)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int i = 0; i < TSR_HEATMAP_COUNTERS && at < n; i++) {
		int w = snprintf(buf + at, n - at, "%s%s", i ? ", " : "",
				 tsr_heatmap_counters[i].name);
		at += w > 0 ? (size_t)w : 0;
	}
}

void tsr_heatmap_color(uint32_t level, uint8_t rgb[3])
{
	/* five stops, evenly spaced over 0..255 */
	static const uint8_t stop[5][3] = {
		{0, 0, 4}, {87, 16, 110}, {188, 55, 84}, {249, 142, 9}, {252, 255, 164},
	};
	if (level > 255)
		level = 255;
	const uint32_t p = level * 4;
	uint32_t seg = p / 255;
	if (seg > 3)
		seg = 3;
	const uint32_t fr = p - seg * 255;  /* 0..255 within the segment */
	for (int c = 0; c < 3; c++) {
		const int a = stop[seg][c], b = stop[seg + 1][c];
		rgb[c] = (uint8_t)(a + (b - a) * (int)fr / 255);
	}
}

uint32_t tsr_heatmap_level(uint64_t v, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return hi > 0 ? 255 : 0;
	if (v <= lo)
		return 0;
	if (v >= hi)
		return 255;
	return (uint32_t)((unsigned __int128)(v - lo) * 255 / (hi - lo));
}

/* Layout of the panel right of the tiles. */
#define GAP 8       /* white columns between the tiles and the bar */
#define BAR 16      /* the colour bar's width */
#define TEXT_GAP 4  /* between the bar and the labels */
#define SCALE 2     /* the digit font's scale */
#define ADV ((3 + 1) * SCALE)  /* a digit's advance */
#define GLYPH_H (5 * SCALE)

/* 3x5 digits, a row a nibble (bit 2: the left column). */
static const uint8_t digits[10][5] = {
	{7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
	{7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
};

/* Draws the decimal digits of s at (x, y) in black. */
static void draw_text(uint8_t *img, uint32_t width, uint32_t x, uint32_t y, const char *s)
{
	for (; *s; s++, x += ADV) {
		const uint8_t *g = digits[*s - '0'];
		for (uint32_t r = 0; r < GLYPH_H; r++)
			for (uint32_t c = 0; c < 3 * SCALE; c++)
				if (g[r / SCALE] >> (2 - c / SCALE) & 1)
					memset(&img[((size_t)(y + r) * width + x + c) * 4], 0, 3);
	}
}

uint32_t tsr_heatmap_bar_x(uint32_t tiles_x, uint32_t tile_w)
{
	return tiles_x * tile_w + GAP;
}

enum tsr_status tsr_heatmap_render(const uint64_t *values, uint32_t stride, uint32_t tiles_x,
				   uint32_t tiles_y, uint32_t tile_w, uint32_t tile_h, uint8_t **rgba,
				   uint32_t *width, uint32_t *height, struct tsr_error *err)
{
	*rgba = NULL;
	const uint32_t n = tiles_x * tiles_y;
	uint64_t lo = n ? values[0] : 0, hi = lo;
	for (uint32_t i = 1; i < n; i++) {
		const uint64_t v = values[(i / tiles_x) * stride + i % tiles_x];
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	char top[24], bottom[24];
	snprintf(top, sizeof(top), "%" PRIu64, hi);
	snprintf(bottom, sizeof(bottom), "%" PRIu64, lo);
	const size_t chars = strlen(top) > strlen(bottom) ? strlen(top) : strlen(bottom);
	const uint64_t area_w = (uint64_t)tiles_x * tile_w, area_h = (uint64_t)tiles_y * tile_h;
	const uint64_t w = area_w + GAP + BAR + TEXT_GAP + chars * ADV;
	uint64_t h = area_h > 2 * GLYPH_H + 4 ? area_h : 2 * GLYPH_H + 4;
	if (w * h > (1u << 28))
		return tsr_error_set(err, TSR_ERR_LIMIT, "a heatmap of %" PRIu64 " x %" PRIu64
				     " pixels is too large", w, h);
	uint8_t *img = malloc(w * h * 4);
	if (!img)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	memset(img, 255, w * h * 4);  /* white, opaque */
	for (uint32_t t = 0; t < n; t++) {
		uint8_t rgb[3];
		const uint64_t v = values[(t / tiles_x) * stride + t % tiles_x];
		tsr_heatmap_color(tsr_heatmap_level(v, lo, hi), rgb);
		const uint32_t x0 = (t % tiles_x) * tile_w, y0 = (t / tiles_x) * tile_h;
		for (uint32_t y = y0; y < y0 + tile_h; y++)
			for (uint32_t x = x0; x < x0 + tile_w; x++)
				memcpy(&img[((size_t)y * w + x) * 4], rgb, 3);
	}
	const uint32_t bx = (uint32_t)area_w + GAP;
	for (uint32_t y = 0; y < h; y++) {
		uint8_t rgb[3];
		tsr_heatmap_color(h > 1 ? 255 - (uint32_t)((uint64_t)y * 255 / (h - 1)) : 255, rgb);
		for (uint32_t x = bx; x < bx + BAR; x++)
			memcpy(&img[((size_t)y * w + x) * 4], rgb, 3);
	}
	const uint32_t tx = bx + BAR + TEXT_GAP;
	draw_text(img, (uint32_t)w, tx, 0, top);
	draw_text(img, (uint32_t)w, tx, (uint32_t)h - GLYPH_H, bottom);
	*rgba = img;
	*width = (uint32_t)w;
	*height = (uint32_t)h;
	return TSR_OK;
}

enum tsr_status tsr_heatmap_csv(const uint64_t *values, uint32_t tiles_x, uint32_t tiles_y,
				uint32_t tile_w, uint32_t tile_h, char **text, size_t *len,
				struct tsr_error *err)
{
	const uint32_t n = tiles_x * tiles_y;
	const size_t cap = 64 + (size_t)n * 80;
	char *s = malloc(cap);
	if (!s)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	size_t at = (size_t)snprintf(s, cap, "tile,tile_x,tile_y,x,y,value\n");
	for (uint32_t t = 0; t < n; t++) {
		const uint32_t tx = t % tiles_x, ty = t / tiles_x;
		int wr = snprintf(s + at, cap - at, "%u,%u,%u,%u,%u,%" PRIu64 "\n", t, tx, ty,
				  tx * tile_w, ty * tile_h, values[t]);
		at += wr > 0 ? (size_t)wr : 0;
	}
	*text = s;
	*len = at;
	return TSR_OK;
}

enum tsr_status tsr_heatmaps_parse(const char *list, int *idx, int *n, struct tsr_error *err)
{
	char valid[256];
	tsr_heatmap_names(valid, sizeof(valid));
	*n = 0;
	const char *p = list;
	for (;;) {
		const char *e = strchr(p, ',');
		const size_t len = e ? (size_t)(e - p) : strlen(p);
		char name[64];
		if (len == 0 || len >= sizeof(name))
			return tsr_error_set(err, TSR_ERR_CONFIG, "'%.64s' is not a comma-separated "
					     "list of counters (%s)", list, valid);
		memcpy(name, p, len);
		name[len] = '\0';
		const int c = tsr_heatmap_find(name);
		if (c < 0)
			return tsr_error_set(err, TSR_ERR_CONFIG, "no per-tile counter '%s' "
					     "(counters: %s)", name, valid);
		int dup = 0;
		for (int i = 0; i < *n; i++)
			dup |= idx[i] == c;
		if (!dup)
			idx[(*n)++] = c;
		if (!e)
			return TSR_OK;
		p = e + 1;
	}
}

enum tsr_status tsr_heatmaps_check(const struct tsr_gpu_config *cfg, const int *idx, int n,
				   struct tsr_error *err)
{
	if (n && cfg->pipeline_mode == TSR_PIPELINE_IMR)
		return tsr_error_set(err, TSR_ERR_CONFIG, "heatmaps need the tile-based pipeline: "
				     "pipeline.mode is imr, which renders no tiles");
	for (int i = 0; i < n; i++) {
		const char *name = tsr_heatmap_counters[idx[i]].name;
		if (!strcmp(name, "tile_cycles") && !cfg->timing.enabled)
			return tsr_error_set(err, TSR_ERR_CONFIG, "tile_cycles needs the timing "
					     "mode (--timing on, or timing.enabled true)");
		if (!strcmp(name, "tiles_skipped") && !cfg->elim.rendering)
			return tsr_error_set(err, TSR_ERR_CONFIG, "tiles_skipped needs Rendering "
					     "Elimination (--set elimination.rendering=true)");
		/* (the lookup does not change the configuration) */
		if (!strcmp(name, "l2_misses") &&
		    !tsr_memsys_config_cache((struct tsr_memsys_config *)&cfg->mem, "l2"))
			return tsr_error_set(err, TSR_ERR_CONFIG, "l2_misses needs a cache named "
					     "'l2', which configuration '%s' has not", cfg->name);
	}
	return TSR_OK;
}

void tsr_heatmap_file(char *buf, size_t n, int counter, uint32_t frame, const char *ext)
{
	snprintf(buf, n, "heatmap-%s-%04u.%s", tsr_heatmap_counters[counter].name, frame, ext);
}

enum tsr_status tsr_run_outputs_plan(struct tsr_output *o, uint32_t frames,
				     const unsigned char *want, const int *idx, int n,
				     struct tsr_error *err)
{
	TSR_TRY(tsr_output_plan(o, "stats.json", TSR_OUTPUT_IN_DIR, err));
	TSR_TRY(tsr_output_plan(o, "frames.csv", TSR_OUTPUT_IN_DIR, err));
	for (uint32_t f = 0; f < frames; f++) {
		if (!want[f])
			continue;
		char name[64];
		snprintf(name, sizeof(name), "frame-%04u.png", f);
		TSR_TRY(tsr_output_plan(o, name, TSR_OUTPUT_IN_DIR, err));
		for (int k = 0; k < n; k++) {
			tsr_heatmap_file(name, sizeof(name), idx[k], f, "png");
			TSR_TRY(tsr_output_plan(o, name, TSR_OUTPUT_IN_DIR, err));
			tsr_heatmap_file(name, sizeof(name), idx[k], f, "csv");
			TSR_TRY(tsr_output_plan(o, name, TSR_OUTPUT_IN_DIR, err));
		}
	}
	return TSR_OK;
}

enum tsr_status tsr_heatmap_write(struct tsr_output *o, int counter, uint32_t frame,
				  const uint64_t *values, uint32_t tiles_x, uint32_t tiles_y,
				  uint32_t tile_w, uint32_t tile_h, uint32_t width, uint32_t height,
				  struct tsr_error *err)
{
	char name[96];
	uint8_t *img;
	uint32_t w, h;
	/* the image: the tiles that cover the screen */
	uint32_t sx = (width + tile_w - 1) / tile_w, sy = (height + tile_h - 1) / tile_h;
	sx = sx < tiles_x ? sx : tiles_x;
	sy = sy < tiles_y ? sy : tiles_y;
	TSR_TRY(tsr_heatmap_render(values, tiles_x, sx, sy, tile_w, tile_h, &img, &w, &h, err));
	tsr_heatmap_file(name, sizeof(name), counter, frame, "png");
	enum tsr_status s = tsr_output_png_async(o, name, w, h, img, err);
	free(img);
	TSR_TRY(s);
	char *text;
	size_t len;
	TSR_TRY(tsr_heatmap_csv(values, tiles_x, tiles_y, tile_w, tile_h, &text, &len, err));
	tsr_heatmap_file(name, sizeof(name), counter, frame, "csv");
	s = tsr_output_write(o, name, text, len, err);
	free(text);
	return s;
}
