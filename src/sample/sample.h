/*
 * sample.h - representative frames of a long run, as MEGsim picks them
 * (Arnau, Parcerisa and Xekalakis, "MEGsim: A Novel Methodology for
 * Efficient Simulation of Graphics Workloads in GPUs", ISPASS 2016):
 * every frame is rendered once functionally (fast-forward,
 * tsr_gpu_set_fast_forward()), which counts cheap per-frame features; the
 * frames are clustered on them with k-means; each cluster's frame closest
 * to its centroid is simulated fully, and a counter's total over the run
 * is estimated as the sum over the clusters of the cluster's size times
 * its representative's value.
 *
 * Features (struct tsr_frame_stats counters the functional model counts
 * in a fast-forwarded frame): draws, primitives assembled, vertex shader
 * instructions, fragments shaded, fragment shader instruction fetches,
 * texel fetches, texture line requests (the texture footprint's proxy:
 * distinct lines after coalescing), Parameter Buffer bytes written and
 * tiles visited (every pass's, so that a frame that renders into a large
 * render target or draws the window twice stands apart: their passes'
 * color and render-target traffic is no other feature's).
 * Each is taken as log(1 + x) (counts span orders of magnitude across
 * frames, which differ by ratios) and divided by its largest value over
 * the frames (0..1), so that none dominates by its unit.
 *
 * Clustering: k-means (Lloyd) from k-means++ seeds drawn by a fixed-seed
 * SplitMix64 (core/rng.h), the best of TSR_SAMPLE_RESTARTS seeds by the
 * sum of squared distances: the same frames always give the same
 * clusters. K, unless given: the Bayesian Information Criterion of each
 * K from 1 to TSR_SAMPLE_MAX_K (at most half the frames), the spherical-
 * Gaussian BIC of X-means (Pelleg and Moore, ICML 2000) that SimPoint and
 * MEGsim use, its variance at least 1e-6 (a standard deviation of 0.1% of
 * a feature's range: frames closer than that are not worth a cluster);
 * the smallest K whose BIC reaches 90% of the way from the lowest to the
 * highest (SimPoint's rule).
 *
 * Error bound (tsr_sample_bound()): the estimate as stratified sampling
 * with one frame per cluster: the bound is two standard errors,
 * 2 sqrt(sum_c w_c (w_c - 1) s_c^2), with s_c, the spread of the counter
 * within cluster c, taken as the representative's value times the
 * cluster's coefficient of variation of the features (the root mean
 * square over the features of their standard deviation over their mean
 * within the cluster): a counter that varies across a cluster as its
 * features do. It bounds sampling error, not the warm-up of the caches
 * that fast-forward leaves cold (docs/sample.md).
 */
#ifndef TSR_SAMPLE_SAMPLE_H
#define TSR_SAMPLE_SAMPLE_H

#include <stdint.h>

#include "core/status.h"
#include "core/text.h"
#include "framestats/stats.h"

#define TSR_SAMPLE_FEATURES 9
#define TSR_SAMPLE_MAX_K 30   /* the most clusters the BIC rule tries */
#define TSR_SAMPLE_RESTARTS 4 /* k-means++ seeds tried per K */

/* The features' names, features.csv's columns after "frame". */
extern const char *const tsr_sample_feature_names[TSR_SAMPLE_FEATURES];

/* Frame fs's features (counts and bytes) into out. */
void tsr_sample_features(const struct tsr_frame_stats *fs, double out[TSR_SAMPLE_FEATURES]);

/* features.csv: its header line, and a frame's row (frame number first). */
void tsr_sample_features_csv_header(struct tsr_text *t);
void tsr_sample_features_csv_row(struct tsr_text *t, const struct tsr_frame_stats *fs);

/*
 * Reads features.csv (as written above) from file path: *n rows, their
 * frame numbers into *frames and features into *x (n * TSR_SAMPLE_FEATURES,
 * row by row), both malloc'd. Errors: TSR_ERR_IO (cannot read it),
 * TSR_ERR_CONFIG (a header or row that is not features.csv's, naming the
 * line), TSR_ERR_NOMEM.
 */
enum tsr_status tsr_sample_features_read(const char *path, uint32_t **frames, double **x,
					 uint32_t *n, struct tsr_error *err);

struct tsr_sample_cluster {
	uint32_t rep;     /* its representative: the index (0..n-1) of the frame
			     closest to its centroid (the lowest on a tie) */
	uint32_t weight;  /* its frames */
	double cv;        /* the features' coefficient of variation within it */
};

struct tsr_sample {
	uint32_t n, k;                        /* frames, clusters */
	uint32_t *assign;                     /* per frame: its cluster */
	struct tsr_sample_cluster *clusters;  /* k, by their representative's index */
	double bic[TSR_SAMPLE_MAX_K + 1];     /* BIC of each K tried (bic[K]); 0 when
						 K was given */
};

/*
 * Clusters n frames of features x (n * TSR_SAMPLE_FEATURES, raw counts)
 * into k clusters (0: chosen by the BIC rule; more than n: n). Frames with
 * equal features fall into one cluster when k allows. Errors:
 * TSR_ERR_CONFIG (n = 0), TSR_ERR_NOMEM. Release *out with
 * tsr_sample_release().
 */
enum tsr_status tsr_sample_choose(const double *x, uint32_t n, uint32_t k,
				  struct tsr_sample *out, struct tsr_error *err);

void tsr_sample_release(struct tsr_sample *s);

/*
 * A counter's estimate from its value at each cluster's representative
 * (values[c], c = 0..k-1): sum_c weight_c * values[c]; *bound (may be
 * NULL) gets the error bound of the header comment (same unit).
 */
double tsr_sample_estimate(const struct tsr_sample *s, const double *values, double *bound);

/*
 * The counters stats.json's "sample" object bounds (tsr_stats_lookup()
 * names): DRAM bytes, L2 misses, memory accesses, quads shaded, cycles.
 */
extern const char *const tsr_sample_bounded[];
extern const unsigned tsr_sample_bounded_count;

/*
 * stats.json's "sample" object (a JSON text, malloc'd into *text): the
 * method, K, each cluster's representative (its frame number,
 * frames[rep]), weight and spread, and for each counter of
 * tsr_sample_bounded that mem has, its estimate and bound from rep_stats
 * (k frames' counters, by cluster). Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_sample_json(const struct tsr_sample *s, const uint32_t *frames,
				const struct tsr_frame_stats *const *rep_stats,
				const struct tsr_memsys *mem, char **text, struct tsr_error *err);

#endif
