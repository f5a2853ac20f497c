/*
 * sample.c - MEGsim's representative frames (sample.h): features,
 * normalisation, k-means with k-means++ seeds, the BIC rule for K, the
 * estimate and its bound, and stats.json's "sample" object.
 */
#include "sample/sample.h"

#include <errno.h>
#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"

#define D TSR_SAMPLE_FEATURES
#define MAX_ITERATIONS 100
#define SEED UINT64_C(0x4d454773696d)  /* "MEGsim" */
/* the least variance the BIC takes (normalised features: a standard
 * deviation of 0.1% of a feature's range), so that frames that differ by
 * less are not worth a cluster of their own */
#define VAR_FLOOR 1e-6

const char *const tsr_sample_feature_names[D] = {
	"draws", "primitives", "vertex_instructions", "fragments",
	"fs_instruction_fetches", "texel_fetches", "texture_line_requests", "pb_bytes", "tiles",
};

void tsr_sample_features(const struct tsr_frame_stats *fs, double out[D])
{
	out[0] = (double)fs->geometry.draws;
	out[1] = (double)fs->geometry.primitives_in;
	out[2] = (double)fs->geometry.vertex_instructions;
	out[3] = (double)fs->raster.fragments_shaded;
	out[4] = (double)fs->raster.instruction_fetches;
	out[5] = (double)fs->texture.texel_fetches;
	out[6] = (double)fs->texture.line_requests;
	out[7] = (double)(fs->tiling.pb_lists_bytes + fs->tiling.pb_attributes_bytes);
	out[8] = (double)fs->tiling.tiles;
}

void tsr_sample_features_csv_header(struct tsr_text *t)
{
	tsr_text_printf(t, "frame");
	for (int i = 0; i < D; i++)
		tsr_text_printf(t, ",%s", tsr_sample_feature_names[i]);
	tsr_text_printf(t, "\n");
}

void tsr_sample_features_csv_row(struct tsr_text *t, const struct tsr_frame_stats *fs)
{
	double f[D];
	tsr_sample_features(fs, f);
	tsr_text_printf(t, "%u", fs->frame);
	for (int i = 0; i < D; i++)
		tsr_text_printf(t, ",%.0f", f[i]);
	tsr_text_printf(t, "\n");
}

enum tsr_status tsr_sample_features_read(const char *path, uint32_t **frames, double **x,
					 uint32_t *n, struct tsr_error *err)
{
	*frames = NULL;
	*x = NULL;
	*n = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return tsr_error_set(err, TSR_ERR_IO, "cannot read '%s': %s", path, strerror(errno));
	struct tsr_text head = {0};
	tsr_sample_features_csv_header(&head);
	char *line = NULL;
	size_t cap = 0, rows_cap = 0;
	enum tsr_status s = TSR_OK;
	uint32_t lineno = 0;
	ssize_t len;
	while (s == TSR_OK && (len = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (lineno == 1) {
			if (!head.buf || strcmp(line, head.buf))
				s = tsr_error_set(err, TSR_ERR_CONFIG, "'%s' line 1: not the header of "
						  "features.csv (%.*s)", path,
						  (int)(head.len ? head.len - 1 : 0),
						  head.buf ? head.buf : "");
			continue;
		}
		if (*n == rows_cap) {
			rows_cap = rows_cap ? rows_cap * 2 : 256;
			uint32_t *fr = realloc(*frames, rows_cap * sizeof(**frames));
			if (fr)
				*frames = fr;
			double *xx = realloc(*x, rows_cap * D * sizeof(**x));
			if (xx)
				*x = xx;
			if (!fr || !xx) {
				s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
				break;
			}
		}
		char *p = line, *end;
		errno = 0;
		const unsigned long fr = strtoul(p, &end, 10);
		int ok = end != p && !errno && fr < UINT32_MAX;
		for (int i = 0; ok && i < D; i++) {
			ok = *end == ',';
			p = end + 1;
			(*x)[(size_t)*n * D + i] = strtod(p, &end);
			ok = ok && end != p;
		}
		ok = ok && (*end == '\n' || *end == '\0');
		if (!ok) {
			s = tsr_error_set(err, TSR_ERR_CONFIG, "'%s' line %u: not a row of frame "
					  "number and %d features", path, lineno, D);
			break;
		}
		(*frames)[(*n)++] = (uint32_t)fr;
	}
	if (s == TSR_OK && ferror(f))
		s = tsr_error_set(err, TSR_ERR_IO, "cannot read '%s'", path);
	if (s == TSR_OK && lineno == 0)
		s = tsr_error_set(err, TSR_ERR_CONFIG, "'%s' is empty", path);
	free(line);
	tsr_text_release(&head);
	fclose(f);
	if (s != TSR_OK) {
		free(*frames);
		free(*x);
		*frames = NULL;
		*x = NULL;
		*n = 0;
	}
	return s;
}

static double dist2(const double *a, const double *b)
{
	double s = 0;
	for (int i = 0; i < D; i++)
		s += (a[i] - b[i]) * (a[i] - b[i]);
	return s;
}

/* A uniform double in [0, 1). */
static double uniform(struct tsr_rng *r)
{
	return (double)(tsr_rng_next(r) >> 11) * 0x1.0p-53;
}

/*
 * k-means of the n normalised points y from k-means++ seeds (rng): the
 * assignment into assign, the centroids into c (k * D); the sum of squared
 * distances.
 */
static double kmeans(const double *y, uint32_t n, uint32_t k, struct tsr_rng *rng,
		     uint32_t *assign, double *c, double *d2, uint32_t *count)
{
	/* k-means++: the first centre uniform, each next one by D^2 */
	uint32_t first = (uint32_t)(uniform(rng) * n);
	memcpy(c, y + (size_t)first * D, sizeof(double) * D);
	for (uint32_t i = 0; i < n; i++)
		d2[i] = dist2(y + (size_t)i * D, c);
	for (uint32_t j = 1; j < k; j++) {
		double sum = 0;
		for (uint32_t i = 0; i < n; i++)
			sum += d2[i];
		uint32_t pick = 0;
		if (sum > 0) {
			double r = uniform(rng) * sum;
			for (pick = 0; pick + 1 < n; pick++) {
				r -= d2[pick];
				if (r < 0 && d2[pick] > 0)
					break;
			}
		} else {
			pick = (uint32_t)(uniform(rng) * n);  /* every point is a centre already */
		}
		memcpy(c + (size_t)j * D, y + (size_t)pick * D, sizeof(double) * D);
		for (uint32_t i = 0; i < n; i++) {
			const double e = dist2(y + (size_t)i * D, c + (size_t)j * D);
			if (e < d2[i])
				d2[i] = e;
		}
	}
	/* Lloyd's iterations until no point moves */
	for (uint32_t i = 0; i < n; i++)
		assign[i] = UINT32_MAX;
	double sse = 0;
	for (int it = 0; it < MAX_ITERATIONS; it++) {
		int moved = 0;
		sse = 0;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t best = 0;
			double bd = DBL_MAX;
			for (uint32_t j = 0; j < k; j++) {
				const double e = dist2(y + (size_t)i * D, c + (size_t)j * D);
				if (e < bd) {
					bd = e;
					best = j;
				}
			}
			moved |= assign[i] != best;
			assign[i] = best;
			sse += bd;
		}
		if (!moved)
			break;
		memset(count, 0, k * sizeof(*count));
		double *sum = c;  /* recomputed in place: empty clusters keep their centre */
		for (uint32_t j = 0; j < k; j++)
			for (uint32_t i = 0; i < n; i++)
				if (assign[i] == j) {
					if (!count[j])
						memset(sum + (size_t)j * D, 0, sizeof(double) * D);
					for (int q = 0; q < D; q++)
						sum[(size_t)j * D + q] += y[(size_t)i * D + q];
					count[j]++;
				}
		for (uint32_t j = 0; j < k; j++)
			for (int q = 0; count[j] && q < D; q++)
				c[(size_t)j * D + q] /= count[j];
	}
	return sse;
}

/* X-means' BIC of a clustering of n points into k clusters of sizes
 * count with sum of squared distances sse (spherical Gaussians, one
 * variance per dimension). */
static double bic(uint32_t n, uint32_t k, const uint32_t *count, double sse)
{
	const double R = n, M = D;
	double var = n > k ? sse / (M * (R - k)) : 0;
	if (var < VAR_FLOOR)
		var = VAR_FLOOR;  /* near-identical frames: no gain in splitting them */
	double l = 0;
	for (uint32_t j = 0; j < k; j++) {
		const double rn = count[j];
		if (rn <= 0)
			continue;
		l += rn * log(rn) - rn * log(R) - rn * M / 2 * log(2 * 3.14159265358979323846 * var) -
		     (rn - 1) * M / 2;
	}
	const double p = (k - 1) + M * k + 1;
	return l - p / 2 * log(R);
}

enum tsr_status tsr_sample_choose(const double *x, uint32_t n, uint32_t k,
				  struct tsr_sample *out, struct tsr_error *err)
{
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return tsr_error_set(err, TSR_ERR_CONFIG, "no frames to cluster");
	/* the BIC rule tries K up to half the frames (its variance needs R - K
	 * well above 0) and TSR_SAMPLE_MAX_K */
	const uint32_t half = n / 2 ? n / 2 : 1;
	const uint32_t kmax = k ? (k > n ? n : k) : (half < TSR_SAMPLE_MAX_K ? half : TSR_SAMPLE_MAX_K);
	double *y = malloc((size_t)n * D * sizeof(*y));
	double *c = malloc((size_t)kmax * D * sizeof(*c));
	double *best_c = malloc((size_t)kmax * D * sizeof(*c));
	double *d2 = malloc((size_t)n * sizeof(*d2));
	uint32_t *assign = malloc((size_t)n * sizeof(*assign));
	uint32_t *try = malloc((size_t)n * sizeof(*try));
	uint32_t *count = calloc(kmax, sizeof(*count));
	out->clusters = calloc(kmax, sizeof(*out->clusters));
	uint32_t *by_k = k ? NULL : malloc((size_t)(kmax + 1) * n * sizeof(*by_k));
	enum tsr_status s = TSR_OK;
	if (!y || !c || !best_c || !d2 || !assign || !try || !count || !out->clusters ||
	    (!k && !by_k)) {
		s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the clustering");
		goto done;
	}
	/* each feature's logarithm (log(1 + x): counts span orders of magnitude,
	 * and frames differ by ratios) over its largest */
	for (int q = 0; q < D; q++) {
		double mx = 0;
		for (uint32_t i = 0; i < n; i++) {
			const double v = x[(size_t)i * D + q];
			y[(size_t)i * D + q] = log1p(v > 0 ? v : 0);
			mx = y[(size_t)i * D + q] > mx ? y[(size_t)i * D + q] : mx;
		}
		for (uint32_t i = 0; i < n; i++)
			y[(size_t)i * D + q] = mx > 0 ? y[(size_t)i * D + q] / mx : 0;
	}
	/* the best of the restarts for each K tried */
	const uint32_t k0 = k ? kmax : 1;
	double lo = DBL_MAX, hi = -DBL_MAX;
	for (uint32_t kk = k0; kk <= kmax; kk++) {
		double best = DBL_MAX;
		for (uint32_t r = 0; r < TSR_SAMPLE_RESTARTS; r++) {
			struct tsr_rng rng;
			tsr_rng_seed(&rng, SEED + kk * 131 + r);
			const double sse = kmeans(y, n, kk, &rng, try, c, d2, count);
			if (sse < best) {
				best = sse;
				memcpy(assign, try, n * sizeof(*assign));
				memcpy(best_c, c, (size_t)kk * D * sizeof(*c));
			}
		}
		if (!k) {
			memset(count, 0, kmax * sizeof(*count));
			for (uint32_t i = 0; i < n; i++)
				count[assign[i]]++;
			out->bic[kk] = bic(n, kk, count, best);
			lo = out->bic[kk] < lo ? out->bic[kk] : lo;
			hi = out->bic[kk] > hi ? out->bic[kk] : hi;
			memcpy(by_k + (size_t)kk * n, assign, n * sizeof(*assign));
		}
	}
	if (!k) {  /* SimPoint's rule: the smallest K within 90% of the BIC range */
		uint32_t pick = kmax;
		for (uint32_t kk = 1; kk <= kmax; kk++)
			if (out->bic[kk] >= lo + 0.9 * (hi - lo)) {
				pick = kk;
				break;
			}
		k = pick;
		memcpy(assign, by_k + (size_t)k * n, n * sizeof(*assign));
	} else {
		k = kmax;
	}
	/* the clusters that hold frames, their centroids, representatives, spread */
	uint32_t *map = count;  /* old cluster -> new, UINT32_MAX: empty */
	for (uint32_t j = 0; j < k; j++)
		map[j] = UINT32_MAX;
	/* number the clusters by their first frame, so the order is the frames' */
	uint32_t used = 0;
	for (uint32_t i = 0; i < n; i++)
		if (map[assign[i]] == UINT32_MAX)
			map[assign[i]] = used++;
	for (uint32_t i = 0; i < n; i++)
		assign[i] = map[assign[i]];
	memset(c, 0, (size_t)used * D * sizeof(*c));
	for (uint32_t i = 0; i < n; i++) {
		out->clusters[assign[i]].weight++;
		for (int q = 0; q < D; q++)
			c[(size_t)assign[i] * D + q] += y[(size_t)i * D + q];
	}
	for (uint32_t j = 0; j < used; j++) {
		for (int q = 0; q < D; q++)
			c[(size_t)j * D + q] /= out->clusters[j].weight;
		double bd = DBL_MAX;
		for (uint32_t i = 0; i < n; i++)
			if (assign[i] == j) {
				const double e = dist2(y + (size_t)i * D, c + (size_t)j * D);
				if (e < bd) {
					bd = e;
					out->clusters[j].rep = i;
				}
			}
		/* the RMS of the raw features' coefficients of variation */
		double cv2 = 0;
		int feats = 0;
		for (int q = 0; q < D; q++) {
			double m = 0, v = 0;
			for (uint32_t i = 0; i < n; i++)
				if (assign[i] == j)
					m += x[(size_t)i * D + q];
			m /= out->clusters[j].weight;
			if (m <= 0)
				continue;
			for (uint32_t i = 0; i < n; i++)
				if (assign[i] == j)
					v += (x[(size_t)i * D + q] - m) * (x[(size_t)i * D + q] - m);
			v /= out->clusters[j].weight;
			cv2 += v / (m * m);
			feats++;
		}
		out->clusters[j].cv = feats ? sqrt(cv2 / feats) : 0;
	}
	out->n = n;
	out->k = used;
	out->assign = assign;
	assign = NULL;
done:
	free(y);
	free(c);
	free(best_c);
	free(d2);
	free(assign);
	free(try);
	free(count);
	free(by_k);
	if (s != TSR_OK)
		tsr_sample_release(out);
	return s;
}

void tsr_sample_release(struct tsr_sample *s)
{
	free(s->assign);
	free(s->clusters);
	memset(s, 0, sizeof(*s));
}

double tsr_sample_estimate(const struct tsr_sample *s, const double *values, double *bound)
{
	double e = 0, var = 0;
	for (uint32_t j = 0; j < s->k; j++) {
		const double w = s->clusters[j].weight, sd = values[j] * s->clusters[j].cv;
		e += w * values[j];
		var += w * (w - 1) * sd * sd;
	}
	if (bound)
		*bound = 2 * sqrt(var);
	return e;
}

const char *const tsr_sample_bounded[] = {
	"dram.all.read_bytes", "dram.all.write_bytes", "caches.l2.all.read_misses",
	"caches.l2.all.write_misses", "memory_accesses", "raster.quads_shaded",
	"timing.cycles",
};
const unsigned tsr_sample_bounded_count =
	sizeof(tsr_sample_bounded) / sizeof(tsr_sample_bounded[0]);

enum tsr_status tsr_sample_json(const struct tsr_sample *s, const uint32_t *frames,
				const struct tsr_frame_stats *const *rep_stats,
				const struct tsr_memsys *mem, char **text, struct tsr_error *err)
{
	*text = NULL;
	json_t *o = json_object(), *cl = json_array(), *b = json_object();
	double *v = malloc((s->k ? s->k : 1) * sizeof(*v));
	if (o && cl && b && v) {
		json_object_set_new(o, "method", json_string(
			"MEGsim: k-means of per-frame features; total = sum over clusters of "
			"weight x representative; bound = 2 standard errors of stratified "
			"sampling, spread = representative x features' coefficient of variation"));
		json_object_set_new(o, "frames", json_integer(s->n));
		json_object_set_new(o, "clusters", json_integer(s->k));
		for (uint32_t j = 0; j < s->k; j++)
			json_array_append_new(cl, json_pack("{s:i,s:i,s:f}", "frame",
							    (json_int_t)frames[s->clusters[j].rep],
							    "weight", (json_int_t)s->clusters[j].weight,
							    "cv", s->clusters[j].cv));
		for (unsigned c = 0; c < tsr_sample_bounded_count; c++) {
			int ok = 1;
			for (uint32_t j = 0; ok && j < s->k; j++) {
				uint64_t u;
				struct tsr_error e;
				ok = tsr_stats_lookup(rep_stats[j], mem, tsr_sample_bounded[c], &u, &e) ==
				     TSR_OK;
				v[j] = (double)u;
			}
			if (!ok)
				continue;  /* a cache this hierarchy does not have */
			double bound;
			const double est = tsr_sample_estimate(s, v, &bound);
			json_object_set_new(b, tsr_sample_bounded[c],
					    json_pack("{s:f,s:f}", "estimate", est, "bound", bound));
		}
	}
	json_object_set(o, "representatives", cl);
	json_object_set(o, "bounds", b);
	*text = o ? json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))
		  : NULL;
	json_decref(cl);
	json_decref(b);
	json_decref(o);
	free(v);
	return *text ? TSR_OK : tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
}
