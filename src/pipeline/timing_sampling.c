/*
 * timing_sampling.c - tile sampling in the timing mode (timing.tile_sampling;
 * docs/timing.md, "Tile sampling").
 *
 * In a raster phase of at least MIN_PERIODS periods of P tiles, one tile
 * at random in each period (in the frame's tile order) and the phase's
 * first are recorded and simulated cycle by cycle; the others run on the
 * functional model alone (no work log, no memory paths), as in a
 * functional run. The simulated tiles follow one another through the
 * tile window as a stream, so the pipeline never drains between them;
 * each one's cycles are the interval between its leaving the pipeline
 * and the previous simulated tile's. Stratified random sampling with a
 * regression estimator, as SMARTS samples instruction streams (Wunderlich
 * et al., ISCA 2003) and MEGsim frames: at the phase's end the simulated
 * tiles' intervals (the first, which holds the pipeline's fill, left
 * out) are fitted by ridge regression (least squares with a small
 * penalty on the coefficients, RIDGE) to functional counters every tile has
 * (the busiest core's quads, quads rasterized and shaded, fragment-
 * program instructions, texture line requests, primitives read from the
 * Parameter Buffer, DRAM bytes), and the fit gives each skipped tile's
 * cycles. The memory's backlog at the phase's end is extrapolated too.
 * The estimate and its variance (the residuals' by batch means, and the
 * fit's) are added to the frame; the caches and every functional counter
 * stay exact, since the functional model runs every tile.
 */
#include <math.h>
#include <string.h>

#include "core/array.h"
#include "core/rng.h"
#include "pipeline/timing_priv.h"

/* A phase samples when it has at least this many periods: enough fitted
 * tiles for SAMPLE_FEATURES coefficients. */
#define MIN_PERIODS 32

/* Fitted tiles per batch of the residuals' variance (fit()). */
#define BATCH 8

/*
 * The fit's ridge: RIDGE times the fitted tiles added to the normal
 * matrix's diagonal, each feature scaled to its largest value, the
 * constant not penalised. It shrinks the coefficients of features the
 * phase's tiles do not spread (a few heavy tiles carry them) towards the
 * mean's estimate. Measured without it: shadow-map-3d's first phase
 * (256 shadow-map tiles, 51 fitted) under DTexL's configuration gave two
 * nearly collinear features coefficients of -1.5e7 and +1.6e7, and its
 * frame 7.7 times the full run's cycles; shadow-depth-3d's came out 44%
 * high. With it, both within 5%; the built-in workloads' and the corpus's
 * errors within 0.35 points of the plain least-squares fit's, or much
 * smaller (glmark2's capture at P = 4: +3.0% to 0.0%; docs/timing.md).
 */
#define RIDGE 0.01

/* A tile's features so far, cumulative counters (x[0] = 1; x[1], the
 * busiest core's quads, is a difference of per-core counts: tsr_timing_sample_end()). */
static void features(const struct tsr_timing *t, double *x)
{
	const struct tsr_gpu *g = t->g;
	const struct tsr_frame_stats *st = g->ras->st;
	uint64_t dram = 0;
	for (int s = 0; s < TSR_STREAM_COUNT; s++) {
		const struct tsr_dram_counters *d = tsr_memsys_dram(g->mem, (enum tsr_stream)s);
		dram += d->read_bytes + d->write_bytes;
	}
	x[0] = 1;
	x[1] = 0;
	x[2] = (double)st->raster.quads_rasterized;
	x[3] = (double)st->raster.quads_shaded;
	x[4] = (double)st->raster.fs_instructions;
	x[5] = (double)st->texture.line_requests;
	x[6] = (double)st->tiling.pmds_read;
	x[7] = (double)dram;
}

void tsr_timing_sample_begin(struct tsr_timing *t, uint32_t tile)
{
	const struct tsr_gpu *g = t->g;
	const uint32_t p = t->cfg.tile_sampling;
	if (t->sample_count == 0) {  /* a phase's first tile: does it sample? */
		const uint64_t tiles =
			(uint64_t)((g->target_width + g->cfg.tile_width - 1) / g->cfg.tile_width) *
			((g->target_height + g->cfg.tile_height - 1) / g->cfg.tile_height);
		t->sampling = p >= 2 && tiles >= (uint64_t)MIN_PERIODS * p;
		/* the phase's own sequence: the frame and the phase's place in it */
		if (g->ras->frame != t->sample_frame) {
			t->sample_frame = g->ras->frame;
			t->sample_phase = 0;
		}
		tsr_rng_seed(&t->sample_rng, (uint64_t)g->ras->frame << 16 | t->sample_phase++);
	}
	/* stratified random sampling: a tile at random in each period (a
	 * fixed place would alias with whatever repeats in the tile order:
	 * measured, the first of every four tiles of glmark2's frames 11-13
	 * took 12-52% longer than the mean), and the phase's first tile
	 * (where the phase's counters are marked) */
	if (t->sampling && t->sample_count % p == 0)
		t->sample_offset = tsr_rng_below(&t->sample_rng, p);
	t->timed = !t->sampling || t->sample_count == 0 || t->sample_count % p == t->sample_offset;
	t->sample_tile = tile;
	features(t, t->sample_mark);
	/* per core: the busiest core's quads are the tile's largest difference */
	const struct tsr_frame_stats *st = g->ras->st;
	for (uint32_t c = 0; c < t->lanes; c++)
		t->core_mark[c] = st->raster.quads_per_core[c];
}

enum tsr_status tsr_timing_sample_end(struct tsr_timing *t, struct tile_run *r,
				      struct tsr_error *err)
{
	if (!t->sampling)
		return TSR_OK;
	if (t->sample_count == t->sample_cap) {
		struct tile_sample *a = tsr_array_grow(t->samples, &t->sample_cap,
						       t->sample_count + 1, sizeof(*a));
		if (!a)
			return tsr_error_set(err, TSR_ERR_NOMEM,
					     "out of memory for the tile sampling's records");
		t->samples = a;
	}
	struct tile_sample *s = &t->samples[t->sample_count++];
	memset(s, 0, sizeof(*s));
	features(t, s->x);
	for (int k = 2; k < SAMPLE_FEATURES; k++)
		s->x[k] -= t->sample_mark[k];
	const struct tsr_frame_stats *st = t->g->ras->st;
	for (uint32_t c = 0; c < t->lanes; c++) {
		const double q = (double)(st->raster.quads_per_core[c] - t->core_mark[c]);
		s->x[1] = q > s->x[1] ? q : s->x[1];
	}
	s->tile = t->sample_tile;
	s->timed = t->timed;
	if (r)
		r->sample = t->sample_count;
	return TSR_OK;
}

/*
 * Factors the symmetric positive semi-definite n x n matrix a (row major)
 * in place into its Cholesky factor L (lower triangle), leaving out each
 * column that is, within 1e-6 of its norm squared, a combination of the
 * earlier ones (its diagonal and column set to 0: a feature that moves
 * with others, such as quads rasterized and shaded when Early-Z kills
 * none, adds nothing to the fit and would blow up its variance); returns
 * the columns kept.
 */
static int cholesky(double *a, int n)
{
	int kept = 0;
	for (int j = 0; j < n; j++) {
		const double diag = a[j * n + j];
		double d = diag;
		for (int k = 0; k < j; k++)
			d -= a[j * n + k] * a[j * n + k];
		const int keep = d > 1e-6 * diag;
		a[j * n + j] = keep ? sqrt(d) : 0;
		kept += keep;
		for (int i = j + 1; i < n; i++) {
			double v = a[i * n + j];
			for (int k = 0; k < j; k++)
				v -= a[i * n + k] * a[j * n + k];
			a[i * n + j] = keep ? v / a[j * n + j] : 0;
		}
	}
	return kept;
}

/* Solves L L^T x = b with cholesky()'s factor l (a column left out: its
 * x is 0). */
static void cholesky_solve(const double *l, int n, const double *b, double *x)
{
	double y[SAMPLE_FEATURES];
	for (int i = 0; i < n; i++) {
		double v = b[i];
		for (int k = 0; k < i; k++)
			v -= l[i * n + k] * y[k];
		y[i] = l[i * n + i] > 0 ? v / l[i * n + i] : 0;
	}
	for (int i = n - 1; i >= 0; i--) {
		double v = y[i];
		for (int k = i + 1; k < n; k++)
			v -= l[k * n + i] * x[k];
		x[i] = l[i * n + i] > 0 ? v / l[i * n + i] : 0;
	}
}

/* The ridge fit of a phase's simulated tiles (RIDGE). */
struct fit {
	int m;                       /* features used (0: no fit) */
	int used[SAMPLE_FEATURES];   /* which */
	double scale[SAMPLE_FEATURES];  /* each used feature's largest value */
	double beta[SAMPLE_FEATURES];   /* coefficients of the scaled used features */
	double l[SAMPLE_FEATURES * SAMPLE_FEATURES];  /* the normal matrix's factor */
	double var;                  /* the residuals' variance, cycles^2 */
};

/* Runs the statements given for each simulated tile after the phase's
 * first: s its record, y its cycles (the interval since the previous
 * simulated tile left the pipeline, the first's since `start`). */
#define FOR_FITTED(t, start, s, y, ...)                                       \
	do {                                                                   \
		uint64_t prev_ = (start);                                      \
		int first_ = 1;                                                \
		for (uint32_t i_ = 0; i_ < (t)->sample_count; i_++) {          \
			const struct tile_sample *s = &(t)->samples[i_];       \
			if (!s->timed)                                         \
				continue;                                      \
			const double y = (double)(s->retired - prev_);         \
			prev_ = s->retired;                                    \
			if (first_) {                                          \
				first_ = 0;                                    \
				continue;                                      \
			}                                                      \
			__VA_ARGS__                                            \
		}                                                              \
	} while (0)

/* The scaled used features of s. */
static void scaled(const struct fit *f, const struct tile_sample *s, double *z)
{
	for (int j = 0; j < f->m; j++)
		z[j] = s->x[f->used[j]] / f->scale[j];
}

/* Fits the simulated tiles' cycles (the phase's first left out: it holds
 * the pipeline's fill) to their features; f->m is 0 when it cannot (fewer
 * tiles than twice the features). */
static void fit(const struct tsr_timing *t, uint64_t start, struct fit *f)
{
	double mx[SAMPLE_FEATURES] = {0}, z[SAMPLE_FEATURES], b[SAMPLE_FEATURES] = {0};
	uint32_t n = 0;
	memset(f, 0, sizeof(*f));
	FOR_FITTED(t, start, s, y, {
		(void)y;
		for (int k = 0; k < SAMPLE_FEATURES; k++)
			mx[k] = fabs(s->x[k]) > mx[k] ? fabs(s->x[k]) : mx[k];
		n++;
	});
	for (int k = 0; k < SAMPLE_FEATURES; k++)
		if (mx[k] > 0) {
			f->scale[f->m] = mx[k];
			f->used[f->m++] = k;
		}
	const int m = f->m;
	if (n < 2u * (uint32_t)m) {
		f->m = 0;
		return;
	}
	FOR_FITTED(t, start, s, y, {
		scaled(f, s, z);
		for (int j = 0; j < m; j++) {
			b[j] += z[j] * y;
			for (int k = 0; k < m; k++)
				f->l[j * m + k] += z[j] * z[k];
		}
	});
	for (int j = 1; j < m; j++)  /* used[0] is the constant (x[0] = 1) */
		f->l[j * m + j] += RIDGE * n;
	const int kept = cholesky(f->l, m);
	if (kept == 0) {
		f->m = 0;
		return;
	}
	cholesky_solve(f->l, m, b, f->beta);
	/* the residuals' variance per tile, by batch means: consecutive
	 * tiles share the pipeline, so one's interval is long when the last
	 * one's was short; the sums of BATCH consecutive residuals are about
	 * independent */
	double rss = 0, batch = 0, bss = 0;
	uint32_t i = 0;
	FOR_FITTED(t, start, s, y, {
		scaled(f, s, z);
		double e = y;
		for (int j = 0; j < m; j++)
			e -= f->beta[j] * z[j];
		rss += e * e;
		batch += e;
		if (++i % BATCH == 0) {
			bss += batch * batch;
			batch = 0;
		}
	});
	const double dof = (double)n / (double)(n - (uint32_t)kept);  /* n >= 2m > kept */
	f->var = n / BATCH >= 2 ? bss / (double)(n / BATCH * BATCH) * dof
				 : rss / (double)(n - (uint32_t)kept);
}

void tsr_timing_sample_phase_end(struct tsr_timing *t, struct tsr_frame_stats *fs)
{
	if (!t->sampling) {
		/* its writes drain before the next geometry phase, as a
		 * sampled phase's do (below), so that no job tile sampling
		 * records in chunks shares the memory (timing_geometry.c) */
		t->now = tsr_timing_wait_memory_idle(t, t->now);
		t->sample_count = 0;
		return;
	}
	struct fit f;
	fit(t, t->sample_start, &f);
	struct tsr_gpu *g = t->g;
	uint64_t *heat = g->ras && g->ras->heat
				 ? &g->ras->heat[(size_t)TSR_HEAT_TILE_CYCLES * g->tiles]
				 : NULL;
	uint32_t skipped = 0, timed = 0;
	uint64_t last = t->sample_start;
	for (uint32_t i = 0; i < t->sample_count; i++)
		if (t->samples[i].timed) {
			timed++;
			last = t->samples[i].retired;
		}
	/* without a fit: the simulated tiles' mean */
	const double mean = timed ? (double)(last - t->sample_start) / timed : 0;
	/* each skipped tile's fitted cycles (none below 0); the variance of
	 * their sum: each tile's residual, and the fit's own (var * u^T A^-1 u,
	 * u the sum of their scaled features) */
	double total = 0, u[SAMPLE_FEATURES] = {0}, z[SAMPLE_FEATURES];
	for (uint32_t i = 0; i < t->sample_count; i++) {
		const struct tile_sample *s = &t->samples[i];
		if (s->timed)
			continue;
		double y = mean;
		if (f.m) {
			scaled(&f, s, z);
			y = 0;
			for (int j = 0; j < f.m; j++) {
				y += f.beta[j] * z[j];
				u[j] += z[j];
			}
		}
		y = y > 0 ? y : 0;
		total += y;
		skipped++;
		if (heat)
			heat[s->tile] += (uint64_t)(y + 0.5);
	}
	double var = (double)skipped * f.var;
	if (f.m) {
		double w[SAMPLE_FEATURES];
		cholesky_solve(f.l, f.m, u, w);
		for (int j = 0; j < f.m; j++)
			var += f.var * u[j] * w[j];
	}
	/* The memory's backlog: the DRAM of a DRAM-bound phase falls behind
	 * its posted writes all through the phase, and drains them after its
	 * last tile; the skipped tiles' writes were not queued, so the
	 * simulated backlog is the simulated stretch's share. Drained here;
	 * what of the drain is more than a tile's time (the last tile's own
	 * writes: a phase that keeps up leaves no more) is backlog, and
	 * grows with the phase: times the estimated over the simulated
	 * cycles, it is added to the estimate. */
	const uint64_t end = t->now, simulated = end - t->sample_start;
	t->now = tsr_timing_wait_memory_idle(t, end);
	const double ratio = simulated ? total / (double)simulated : 0;
	const double tile = timed ? (double)simulated / timed : 0,
		     backlog = (double)(t->now - end) > tile ? (double)(t->now - end) - tile : 0;
	const uint64_t e = (uint64_t)(total + backlog * ratio + 0.5);
	/* the other counters: the phase's, times the same ratio */
	if (simulated)
		tsr_timing_stats_extrapolate(t, fs, &t->phase_mark, ratio);
	t->now += e;
	struct tsr_timing_stats *st = &fs->timing;
	st->sampled_tiles += timed;
	st->estimated_tiles += skipped;
	st->estimated_cycles += e;
	st->estimated_cycles_var += (uint64_t)(var + 0.5);
	t->sample_count = 0;
}
