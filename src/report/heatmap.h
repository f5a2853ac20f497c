/*
 * heatmap.h - per-tile heatmaps (`tessera run --heatmaps`): a frame's
 * per-tile counter values (pipeline/gpu.h, tsr_gpu_heat()) as a PNG image
 * of the tile grid with a colour bar and its scale, and as CSV. Pure
 * functions of the values: the same values give the same bytes.
 */
#ifndef TSR_REPORT_HEATMAP_H
#define TSR_REPORT_HEATMAP_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "core/status.h"
#include "report/report.h"

/* One counter a heatmap can show, in the order of pipeline/gpu.h's enum
 * tsr_heat_counter (entry i is counter i). */
struct tsr_heatmap_counter {
	const char *name;     /* --heatmaps name and the files' ("quads_shaded") */
	const char *stats;    /* the stats.json counters its tiles sum to (the raster
				 phase's share of them for the memory counters) */
};

/* Counters a heatmap can show (pipeline/gpu.h's TSR_HEAT_COUNT). */
#define TSR_HEATMAP_COUNTERS 6
extern const struct tsr_heatmap_counter tsr_heatmap_counters[TSR_HEATMAP_COUNTERS];

/* The index of counter `name` in tsr_heatmap_counters, or -1. */
int tsr_heatmap_find(const char *name);

/* The names of every counter, comma-separated, into buf (n bytes, NUL-terminated). */
void tsr_heatmap_names(char *buf, size_t n);

/*
 * A comma-separated list of counter names (--heatmaps, TESSERA_HEATMAPS)
 * into idx (indices of tsr_heatmap_counters, each once, in the list's
 * order; TSR_HEATMAP_COUNTERS entries at most) and *n. Errors:
 * TSR_ERR_CONFIG naming an unknown counter and listing the valid ones, or
 * an empty name.
 */
enum tsr_status tsr_heatmaps_parse(const char *list, int *idx, int *n, struct tsr_error *err);

/*
 * Whether configuration cfg counts the n counters idx per tile. Errors:
 * TSR_ERR_CONFIG for pipeline.mode imr (no tiles), tile_cycles without
 * timing.enabled, tiles_skipped without elimination.rendering and
 * l2_misses without a cache named "l2", each saying so.
 */
enum tsr_status tsr_heatmaps_check(const struct tsr_gpu_config *cfg, const int *idx, int n,
				   struct tsr_error *err);

/* A heatmap's file name into buf (n bytes): heatmap-COUNTER-NNNN.EXT. */
void tsr_heatmap_file(char *buf, size_t n, int counter, uint32_t frame, const char *ext);

/*
 * Declares a run's outputs in o (tsr_output_plan(), TSR_OUTPUT_IN_DIR):
 * stats.json, frames.csv, and for each frame f < frames with want[f] its
 * image frame-NNNN.png and the heatmap PNG and CSV of each of the n
 * counters idx[] (a workload run's and a capture's alike). Errors: those
 * of tsr_output_plan().
 */
enum tsr_status tsr_run_outputs_plan(struct tsr_output *o, uint32_t frames,
				     const unsigned char *want, const int *idx, int n,
				     struct tsr_error *err);

/*
 * Writes counter `counter`'s heatmap of frame `frame` (values: the tile
 * grid's tiles_x * tiles_y) into transaction o as heatmap-COUNTER-NNNN.csv
 * (every tile of the grid: tsr_heatmap_csv()) and heatmap-COUNTER-NNNN.png
 * (the tiles that cover the screen, width x height pixels, which may be
 * fewer than the grid's: the driver's grid covers twice its window a side
 * for framebuffer objects; tsr_heatmap_render(), encoded by
 * tsr_output_png_async()). Errors: those of the three.
 */
enum tsr_status tsr_heatmap_write(struct tsr_output *o, int counter, uint32_t frame,
				  const uint64_t *values, uint32_t tiles_x, uint32_t tiles_y,
				  uint32_t tile_w, uint32_t tile_h, uint32_t width, uint32_t height,
				  struct tsr_error *err);

/*
 * The colour of level 0..255 of the colour bar (0: the lowest value, 255:
 * the highest): black through purple, red and orange to pale yellow.
 */
void tsr_heatmap_color(uint32_t level, uint8_t rgb[3]);

/*
 * The colour level (0..255) of value v on the scale lo..hi: (v - lo) *
 * 255 / (hi - lo) rounded down; when lo == hi, 255 if hi > 0, else 0.
 */
uint32_t tsr_heatmap_level(uint64_t v, uint64_t lo, uint64_t hi);

/*
 * Draws the top-left tiles_x * tiles_y tiles of values (row-major tile
 * IDs, `stride` tiles a row) as an RGBA8 image (*rgba, freed by the
 * caller; *width x *height pixels, rows top to bottom): each tile a
 * tile_w x tile_h block (the screen's pixels) in the colour of its level
 * between the smallest and the largest value shown; right
 * of it, after 8 columns of white, a 16-pixel colour bar from level 255
 * (top row) to level 0 (bottom row) over the image's height, and beside
 * the bar the largest value (top) and the smallest (bottom) in a 3x5 digit
 * font at scale 2, black on white. Errors: TSR_ERR_NOMEM,
 * TSR_ERR_LIMIT (an image over 2^28 pixels).
 */
enum tsr_status tsr_heatmap_render(const uint64_t *values, uint32_t stride, uint32_t tiles_x,
				   uint32_t tiles_y, uint32_t tile_w, uint32_t tile_h, uint8_t **rgba,
				   uint32_t *width, uint32_t *height, struct tsr_error *err);

/* Where the colour bar starts in a tsr_heatmap_render() image of that grid (its x). */
uint32_t tsr_heatmap_bar_x(uint32_t tiles_x, uint32_t tile_w);

/*
 * values as CSV text (*text, malloc'ed, *len bytes, NUL-terminated): the
 * header "tile,tile_x,tile_y,x,y,value" and one row per tile in tile ID
 * order (x, y: its top-left pixel). Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_heatmap_csv(const uint64_t *values, uint32_t tiles_x, uint32_t tiles_y,
				uint32_t tile_w, uint32_t tile_h, char **text, size_t *len,
				struct tsr_error *err);

#endif
