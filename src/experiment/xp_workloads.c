/*
 * xp_workloads.c - `workloads`: each workload characterized as the papers
 * characterize their benchmarks (TCOR Table II, DTexL Table I,
 * boustrophedonic Table I), on configs/tcor-table1.json, in means per
 * frame: primitives assembled and binned, tiles per binned primitive (PMDs
 * written / primitives binned, TCOR's "primitive reuse"), attributes per
 * binned primitive (attribute bytes written / tiling.attribute_bytes: the
 * position plus the material's varyings, one 48-byte attribute of 3
 * vertices x 16 bytes each), the Parameter Buffer footprint (64-byte
 * attribute blocks + PMD bytes, as `tcor` reports it), the texture
 * footprint (distinct 64-byte lines the texture stream touches in a frame
 * at the caches its route enters: texture.footprint_lines, counted with
 * stats.texture_footprint, sim/footprint.h), fragments
 * shaded per screen pixel (overdraw after Early-Z), the share of empty
 * tiles, DRAM bytes and their shares per stream group (Parameter Buffer,
 * texture, color, vertex and index, instruction, the rest), then the
 * shaders' work: fragment-shader instructions per fragment shaded
 * (raster.fs_instructions / quads_shaded: a quad issues each instruction
 * once for its four lanes; GL ES programs only, so 0 for a JSON workload,
 * whose materials the counter does not see), vertex-shader instructions per
 * vertex shaded (geometry.vertex_instructions / vertices_fetched) and
 * texture sample instructions per fragment shaded
 * (texture.sample_instructions / quads_shaded: a JSON workload's textured
 * material samples once per quad).
 *
 * A workload that is a capture (tsr_xp_is_capture()) is replayed on the
 * driver at its own surface size: fragments per pixel divide by that size.
 *
 * A second table, "workloads-paper", puts each paper's range (minimum and
 * maximum over its per-game rows, which are kept here as the papers print
 * them) beside tessera's range over the workloads run: tiles per primitive
 * and Parameter Buffer footprint (TCOR Table II), texture footprint (DTexL
 * Table I and boustrophedonic Table I) and texture share of main-memory
 * accesses (boustrophedonic Table I; tessera counts bytes, and every
 * cached stream moves whole 64-byte lines, so byte shares are access
 * shares); and tessera's range alone for fragments per pixel (overdraw)
 * and the three shader columns, of which the papers' tables give no figure.
 *
 * Default: every shipped workload (workloads/ *.json of the data directory,
 * sorted by name) for 3 frames, c->jobs workloads at a time; the points
 * are experiments/workloads.json's (`--from`, `--sweep`).
 *
 * Left out: the texture footprint of a texture route that is `perfect` or
 * `dram` (no cache sees those accesses; the column is 0 and the report
 * says so).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/xp_priv.h"
#include "sim/footprint.h"

#define MIB 1048576.0

/* The columns after workload and frames, in table order. */
enum {
	WC_PRIMS, WC_BINNED, WC_TILES_PER_PRIM, WC_ATTRS, WC_PB_MIB, WC_TEX_MIB,
	WC_FRAG_PX, WC_EMPTY, WC_DRAM_MIB,
	WC_SHARE,                 /* first DRAM share column; one per stream group */
};

/* DRAM stream groups; the last takes every stream the others leave. */
#define BIT(s) (1u << (s))
static const struct {
	const char *col, *label;
	unsigned streams;
} groups[] = {
	{"dram_pb_pct", "PB%", BIT(TSR_STREAM_PB_LISTS) | BIT(TSR_STREAM_PB_ATTRIBUTES)},
	{"dram_texture_pct", "tex%", BIT(TSR_STREAM_TEXTURE)},
	{"dram_color_pct", "color%", BIT(TSR_STREAM_COLOR)},
	{"dram_vertex_index_pct", "vtx%", BIT(TSR_STREAM_VERTEX) | BIT(TSR_STREAM_INDEX)},
	{"dram_instruction_pct", "instr%", BIT(TSR_STREAM_INSTRUCTION)},
	{"dram_other_pct", "other%", 0},
};
enum { NGROUP = sizeof(groups) / sizeof(groups[0]) };

/* The shader columns, after the DRAM shares. */
enum { WC_FS_INSTR = WC_SHARE + NGROUP, WC_VS_INSTR, WC_TEX_INSTR, NCOL };

static const char *const shader_cols[] = {
	"fs_instructions_per_fragment", "vs_instructions_per_vertex",
	"texture_instructions_per_fragment",
};

static const char *const col_names[WC_SHARE] = {
	"primitives_per_frame", "binned_per_frame", "tiles_per_binned_primitive",
	"attributes_per_primitive", "pb_footprint_mib", "texture_footprint_mib",
	"fragments_per_pixel", "empty_tiles_pct", "dram_mib_per_frame",
};

/* One benchmark row of a paper's table. */
struct game {
	const char *alias;
	double v;
};

static const struct game tcor_fp[] = {  /* TCOR Table II, PB footprint, MiB */
	{"CCS", 0.17}, {"SoD", 0.14}, {"SWa", 0.28}, {"TRu", 0.55}, {"CRa", 0.86},
	{"RoK", 0.2}, {"DDS", 1.81}, {"Snp", 0.71}, {"Mze", 1.22}, {"GTr", 0.12}};
static const struct game tcor_reuse[] = {  /* TCOR Table II, Avg Prim Re-use */
	{"CCS", 5.9}, {"SoD", 6.9}, {"SWa", 3.7}, {"TRu", 2.8}, {"CRa", 2.0},
	{"RoK", 3.6}, {"DDS", 1.4}, {"Snp", 1.47}, {"Mze", 2.4}, {"GTr", 6.9}};
static const struct game dtexl_tex[] = {  /* DTexL Table I, texture footprint, MiB */
	{"CCS", 2.4}, {"SoD", 1.4}, {"TRu", 0.4}, {"SWa", 0.2}, {"CRa", 2.8},
	{"RoK", 6.8}, {"DDS", 1.4}, {"SnP", 1.8}, {"Mze", 2.4}, {"GTr", 0.7}};
static const struct game bous_tex[] = {  /* boustrophedonic Table I, texture footprint, MiB */
	{"CrS", 0.7}, {"GrT", 0.7}, {"AgB", 0.9}, {"CAm", 1.3}, {"DDS", 1.4}, {"Snp", 1.8},
	{"CoC", 2.0}, {"CCS", 2.4}, {"Mze", 2.4}, {"CRa", 2.6}, {"RSt", 4.2}, {"RoK", 6.9}};
static const struct game bous_share[] = {  /* boustrophedonic Table I, tex in mainmem accesses, % */
	{"CrS", 15.1}, {"GrT", 3.9}, {"AgB", 20.2}, {"CAm", 33}, {"DDS", 18.2}, {"Snp", 33},
	{"CoC", 46.3}, {"CCS", 52.9}, {"Mze", 34.7}, {"CRa", 42.6}, {"RSt", 57.7}, {"RoK", 74.5}};

#define GAMES(a) a, sizeof(a) / sizeof(a[0])
static const struct {
	int col;                 /* WC_* of tessera's figure */
	const char *paper, *table;
	const struct game *games;
	size_t n;
} paper_rows[] = {
	{WC_TILES_PER_PRIM, "TCOR", "Table II", GAMES(tcor_reuse)},
	{WC_PB_MIB, "TCOR", "Table II", GAMES(tcor_fp)},
	{WC_TEX_MIB, "DTexL", "Table I", GAMES(dtexl_tex)},
	{WC_TEX_MIB, "boustrophedonic", "Table I", GAMES(bous_tex)},
	{WC_SHARE + 1, "boustrophedonic", "Table I", GAMES(bous_share)},
	/* tessera's range only: the papers' tables give no figure */
	{WC_FRAG_PX, "-", "-", NULL, 0},
	{WC_FS_INSTR, "-", "-", NULL, 0},
	{WC_VS_INSTR, "-", "-", NULL, 0},
	{WC_TEX_INSTR, "-", "-", NULL, 0},
};
enum { NPAPER = sizeof(paper_rows) / sizeof(paper_rows[0]) };

static const char *col_name(int col)
{
	return col < WC_SHARE ? col_names[col] : col < WC_FS_INSTR ? groups[col - WC_SHARE].col
		: shader_cols[col - WC_FS_INSTR];
}

static double ratio(double a, double b)
{
	return b ? a / b : 0.0;
}

/* The columns of one workload's run of `frames` frames of width x height
 * pixels (total t) into v[NCOL]. */
static void measure(const struct tsr_gpu_config *cfg, const struct tsr_frame_stats *t,
		    uint32_t frames, uint32_t width, uint32_t height, double *v)
{
	double n = frames;
	double binned = (double)t->geometry.primitives_binned;
	v[WC_PRIMS] = ratio((double)t->geometry.primitives_in, n);
	v[WC_BINNED] = ratio(binned, n);
	v[WC_TILES_PER_PRIM] = ratio((double)t->tiling.pmds_written, binned);
	v[WC_ATTRS] = ratio((double)t->tiling.pb_attributes_bytes,
			    (double)cfg->attribute_bytes * binned);
	v[WC_PB_MIB] = ratio(xp_pb_footprint_bytes(t, cfg), n) / MIB;
	v[WC_TEX_MIB] = ratio((double)(t->texture.footprint_lines << TSR_FOOTPRINT_LINE_SHIFT),
			      n) / MIB;
	v[WC_FRAG_PX] = ratio((double)t->raster.fragments_shaded, n * width * height);
	v[WC_EMPTY] = 100.0 * ratio((double)t->tiling.empty_tiles, (double)t->tiling.tiles);
	uint64_t all = xp_dram_bytes(t, 0);
	v[WC_DRAM_MIB] = ratio((double)all, n) / MIB;
	unsigned taken = 0;
	for (int gi = 0; gi < NGROUP; gi++) {
		unsigned mask = gi == NGROUP - 1 ? ~taken : groups[gi].streams;
		uint64_t b = 0;
		for (int k = 0; k < TSR_STREAM_COUNT; k++)
			if (mask & BIT(k))
				b += t->dram[k].read_bytes + t->dram[k].write_bytes;
		taken |= mask;
		v[WC_SHARE + gi] = 100.0 * ratio((double)b, (double)all);
	}
	const double quads = (double)t->raster.quads_shaded;
	v[WC_FS_INSTR] = ratio((double)t->raster.fs_instructions, quads);
	v[WC_VS_INSTR] = ratio((double)t->geometry.vertex_instructions,
			       (double)t->geometry.vertices_fetched);
	v[WC_TEX_INSTR] = ratio((double)t->texture.sample_instructions, quads);
}

/* "1.4 (DDS)" or "6.9 (SoD, GTr)": a paper's extreme and the games that reach it. */
static void games_at(const struct game *g, size_t n, double v, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		if (g[i].v == v && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", g[i].alias);
}

static void paper_range(int r, double *lo, double *hi)
{
	*lo = *hi = 0.0;
	if (!paper_rows[r].n)
		return;
	*lo = *hi = paper_rows[r].games[0].v;
	for (size_t i = 1; i < paper_rows[r].n; i++) {
		double x = paper_rows[r].games[i].v;
		*lo = x < *lo ? x : *lo;
		*hi = x > *hi ? x : *hi;
	}
}

static void text_row(struct tsr_text *txt, const char *name, uint32_t frames, const double *v)
{
	tsr_text_printf(txt, "%-18s %6u %9.0f %9.0f %6.2f %5.2f %6.3f %6.3f %5.2f %5.1f%% %8.2f",
			name, frames, v[WC_PRIMS], v[WC_BINNED], v[WC_TILES_PER_PRIM], v[WC_ATTRS],
			v[WC_PB_MIB], v[WC_TEX_MIB], v[WC_FRAG_PX], v[WC_EMPTY], v[WC_DRAM_MIB]);
	for (int gi = 0; gi < NGROUP; gi++)
		tsr_text_printf(txt, " %6.1f%%", v[WC_SHARE + gi]);
	tsr_text_printf(txt, " %6.2f %6.2f %6.2f\n", v[WC_FS_INSTR], v[WC_VS_INSTR], v[WC_TEX_INSTR]);
}

static enum tsr_status run_workloads(struct xp_ctx *c, struct tsr_xp_result *out,
				     struct tsr_error *err)
{
	char header[1024];
	int at = snprintf(header, sizeof(header), "workload,frames");
	for (int k = 0; k < NCOL; k++)
		at += snprintf(header + at, sizeof(header) - (size_t)at, ",%s", col_name(k));
	struct tsr_table *tab = xp_add_table(out, "workloads", header, err);
	if (!tab)
		return TSR_ERR_NOMEM;
	struct tsr_table *paper = xp_add_table(out, "workloads-paper",
		"quantity,paper,table,games,paper_min,paper_min_games,paper_max,paper_max_games,"
		"tessera_min,tessera_min_workload,tessera_max,tessera_max_workload", err);
	if (!paper)
		return TSR_ERR_NOMEM;
	struct tsr_gpu_config cfg;
	TSR_TRY(xp_load_config_extra(c, "tcor-table1", "stats.texture_footprint=true", &cfg, err));
	struct tsr_text *txt = &out->text;
	tsr_text_printf(txt, "workloads on tcor-table1 (%ux%u), means per frame\n", cfg.width,
			cfg.height);
	tsr_text_printf(txt, "%-18s %6s %9s %9s %6s %5s %6s %6s %5s %6s %8s", "workload", "frames",
			"prims", "binned", "tiles/", "attr/", "PB", "tex", "frag/", "empty",
			"DRAM");
	for (int gi = 0; gi < NGROUP; gi++)
		tsr_text_printf(txt, " %7s", "DRAM");
	tsr_text_printf(txt, " %6s %6s %6s", "fs in/", "vs in/", "tex/");
	tsr_text_printf(txt, "\n%-18s %6s %9s %9s %6s %5s %6s %6s %5s %6s %8s", "", "", "",
			"", "prim", "prim", "MiB", "MiB", "pixel", "tiles", "MiB");
	for (int gi = 0; gi < NGROUP; gi++)
		tsr_text_printf(txt, " %7s", groups[gi].label);
	tsr_text_printf(txt, " %6s %6s %6s\n", "frag", "vertex", "frag");
	double *vals = calloc(c->workload_count ? c->workload_count : 1, NCOL * sizeof(*vals));
	char (*names)[64] = calloc(c->workload_count ? c->workload_count : 1, sizeof(*names));
	/* the workloads in batches of c->jobs, one simulation each, on as many threads;
	 * rows in workload order */
	struct xp_run *runs = calloc(c->jobs, sizeof(*runs));
	struct tsr_scene **scenes = calloc(c->jobs, sizeof(*scenes));
	enum tsr_status s = vals && names && runs && scenes
		? TSR_OK : tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	size_t nw = 0;
	struct tsr_text sizes = {0};  /* the captures' surface sizes, said after the rows */
	for (size_t w0 = 0; s == TSR_OK && w0 < c->workload_count; w0 += c->jobs) {
		size_t nb = 0;
		s = xp_simulate_batch(c, w0, &cfg, c->frames, runs, scenes, &nb, err);
		for (size_t i = 0; s == TSR_OK && i < nb; i++, nw++) {
			snprintf(names[nw], sizeof(names[nw]), "%s",
				 xp_workload_name(c, w0 + i, scenes[i]));
			if (xp_scene_is_capture(scenes[i]))
				tsr_text_printf(&sizes, "%s%s %ux%u", sizes.len ? ", " : "",
						names[nw], runs[i].width, runs[i].height);
			double *v = vals + nw * NCOL;
			measure(&cfg, runs[i].total, c->frames, runs[i].width, runs[i].height, v);
			text_row(txt, names[nw], c->frames, v);
			tsr_table_row(tab);
			tsr_table_cellf(tab, "%s", names[nw]);
			tsr_table_cellf(tab, "%u", c->frames);
			for (int k = 0; k < NCOL; k++)
				tsr_table_cellf(tab, "%.6f", v[k]);
			xp_flush(c, out);
		}
		xp_batch_release(c, runs, scenes);
	}
	free(runs);
	free(scenes);
	if (s == TSR_OK && sizes.len && !sizes.nomem)
		tsr_text_printf(txt, "(a capture renders at its own surface size, not the "
				"configuration's: %s)\n", sizes.buf);
	tsr_text_release(&sizes);
	const char *route = cfg.mem.routes[TSR_STREAM_TEXTURE];
	if (s == TSR_OK && nw &&
	    (!strcmp(route, TSR_ROUTE_PERFECT) || !strcmp(route, TSR_ROUTE_DRAM)))
		tsr_text_printf(txt, "(routes.texture is perfect or dram: no cache sees the texture "
				"stream, its footprint is not measured)\n");
	if (s == TSR_OK) {
		/* each paper's range beside tessera's */
		tsr_text_printf(txt, "\n%-27s %-15s %-8s %-18s %-18s %-28s %s\n", "papers' ranges",
				"paper", "table", "min", "max", "tessera min", "tessera max");
		for (int r = 0; r < NPAPER; r++) {
			double lo, hi;
			char lo_g[64], hi_g[64], a[96], b[96], tl[96], th[96];
			paper_range(r, &lo, &hi);
			games_at(paper_rows[r].games, paper_rows[r].n, lo, lo_g, sizeof(lo_g));
			games_at(paper_rows[r].games, paper_rows[r].n, hi, hi_g, sizeof(hi_g));
			int col = paper_rows[r].col;
			size_t wlo = 0, whi = 0;
			for (size_t w = 1; w < nw; w++) {
				if (vals[w * NCOL + col] < vals[wlo * NCOL + col])
					wlo = w;
				if (vals[w * NCOL + col] > vals[whi * NCOL + col])
					whi = w;
			}
			snprintf(a, sizeof(a), "%g (%s)", lo, lo_g);
			snprintf(b, sizeof(b), "%g (%s)", hi, hi_g);
			if (!paper_rows[r].n)  /* no paper gives it */
				snprintf(a, sizeof(a), "-"), snprintf(b, sizeof(b), "-");
			snprintf(tl, sizeof(tl), "%.3f (%s)", nw ? vals[wlo * NCOL + col] : 0.0,
				 nw ? names[wlo] : "");
			snprintf(th, sizeof(th), "%.3f (%s)", nw ? vals[whi * NCOL + col] : 0.0,
				 nw ? names[whi] : "");
			tsr_text_printf(txt, "%-27s %-15s %-8s %-18s %-18s %-28s %s\n", col_name(col),
					paper_rows[r].paper, paper_rows[r].table, a, b, tl, th);
			tsr_table_row(paper);
			tsr_table_cellf(paper, "%s", col_name(col));
			tsr_table_cellf(paper, "%s", paper_rows[r].paper);
			tsr_table_cellf(paper, "%s", paper_rows[r].table);
			tsr_table_cellf(paper, "%zu", paper_rows[r].n);
			if (paper_rows[r].n) {
				tsr_table_cellf(paper, "%g", lo);
				tsr_table_cellf(paper, "%s", lo_g);
				tsr_table_cellf(paper, "%g", hi);
				tsr_table_cellf(paper, "%s", hi_g);
			} else {  /* empty cells: no paper gives it */
				for (int k = 0; k < 4; k++)
					tsr_table_cellf(paper, "%s", "");
			}
			tsr_table_cellf(paper, "%.6f", nw ? vals[wlo * NCOL + col] : 0.0);
			tsr_table_cellf(paper, "%s", nw ? names[wlo] : "");
			tsr_table_cellf(paper, "%.6f", nw ? vals[whi * NCOL + col] : 0.0);
			tsr_table_cellf(paper, "%s", nw ? names[whi] : "");
		}
		xp_flush(c, out);
	}
	free(names);
	free(vals);
	return s;
}

const struct tsr_experiment tsr_xp_workloads = {
	.name = "workloads",
	.summary = "each workload on configs/tcor-table1.json, means per frame: primitives, "
		   "binned primitives, tiles per binned primitive, attributes per primitive, "
		   "Parameter Buffer and texture footprints, fragments per pixel, empty "
		   "tiles, DRAM bytes and their shares per stream, shader instructions per "
		   "fragment and per vertex, texture instructions per fragment; then the "
		   "papers' ranges (TCOR Table II, DTexL Table I, boustrophedonic Table I)",
	.default_workloads = NULL,  /* every shipped workload */
	.default_frames = 3,
	.has_spec = 1,
	.run = run_workloads,
};
