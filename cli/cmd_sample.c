/*
 * cmd_sample.c - `tessera sample WORKLOAD|CAPTURE.trace`: the
 * representative frames of a run, as MEGsim picks them (sample/sample.h):
 * one fast-forward pass over the frames counts their features (a
 * workload: through src/sim in this process; a capture: the driver's
 * features.csv, TESSERA_FEATURES), then k-means clusters them. Prints
 * each cluster's representative frame and weight; --out FILE writes them
 * as JSON too. `tessera run --sample` (cmd_run.c) uses the same pass.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "config/config.h"
#include "core/datadir.h"
#include "core/files.h"
#include "core/limits.h"
#include "report/report.h"
#include "sim/sim.h"

static void usage_sample(FILE *f)
{
	fprintf(f,
		"usage: tessera sample WORKLOAD|CAPTURE.trace [--clusters K] [--frames N|LIST]\n"
		"                      [--config GPU] [--set KEY=VALUE]... [--out FILE]\n"
		"\n"
		"Picks representative frames as MEGsim does (Arnau et al., ISPASS 2016): every\n"
		"frame is fast-forwarded (rendered exactly, without the memory and timing\n"
		"models) while its features are counted (draws, primitives, vertex and\n"
		"fragment shader work, texel fetches, texture line requests, Parameter\n"
		"Buffer bytes, tiles visited); k-means clusters the frames on them\n"
		"(deterministic k-means++ seeds); each cluster's frame closest to its\n"
		"centroid represents it, weighted by the cluster's size. `tessera run\n"
		"--sample` simulates only those frames.\n"
		"\n"
		"  --clusters K     K clusters (default: by the BIC rule, up to %d)\n"
		"  --frames N|LIST  the first N frames, or frames and ranges (10-20,40)\n"
		"                   (default: all of them)\n"
		"  --config GPU     a configuration (configs/*.json) as for run\n"
		"  --set KEY=VALUE  override a configuration key (repeatable)\n"
		"  --out FILE       write the clusters as JSON too\n"
		"\n"
		"Prints one line a cluster: its representative frame, weight and spread\n"
		"(docs/sample.md).\n", TSR_SAMPLE_MAX_K);
}

int tsr_cli_sample_features(const char *workload, const char *config,
			    const char *const *sets, size_t nsets, uint32_t count,
			    const unsigned char *consider, const char *tmp_dir, uint32_t **frames,
			    double **x, uint32_t *n)
{
	*frames = NULL;
	*x = NULL;
	*n = 0;
	struct tsr_error err = {{0}};
	const size_t wlen = strlen(workload);
	if (wlen > 6 && !strcmp(workload + wlen - 6, ".trace")) {
		/* the driver's features.csv, from a replay that fast-forwards all */
		const struct tsr_cli_capture_extra x1 = {.simulate = "none", .features = 1};
		int rc = tsr_cli_run_capture_x(workload, config, sets, nsets, count, tmp_dir, "none",
					       NULL, NULL, NULL, 1, &x1);
		char p[PATH_MAX + 32];
		snprintf(p, sizeof(p), "%s/features.csv", tmp_dir);
		uint32_t *fr = NULL;
		double *xx = NULL;
		uint32_t m = 0;
		if (!rc && tsr_sample_features_read(p, &fr, &xx, &m, &err) != TSR_OK)
			rc = tsr_cli_exit(TSR_ERR_IO, &err);
		tsr_remove_tree(tmp_dir);
		if (rc)
			return rc;
		/* the frames considered: those counted (and selected) */
		uint32_t k = 0;
		for (uint32_t i = 0; i < m; i++)
			if ((!count || fr[i] < count) && (!consider || consider[fr[i]])) {
				fr[k] = fr[i];
				memmove(xx + (size_t)k * TSR_SAMPLE_FEATURES,
					xx + (size_t)i * TSR_SAMPLE_FEATURES,
					sizeof(double) * TSR_SAMPLE_FEATURES);
				k++;
			}
		*frames = fr;
		*x = xx;
		*n = k;
		return 0;
	}
	char path[4096], config_path[4096];
	struct tsr_gpu_config cfg;
	tsr_config_defaults(&cfg);
	struct tsr_sim *sim = NULL;
	enum tsr_status s = tsr_data_resolve("workloads", workload, path, sizeof(path), &err);
	if (s == TSR_OK)
		s = tsr_cli_load_config(config, sets, nsets, &cfg, config_path, sizeof(config_path),
					&err);
	if (s == TSR_OK)
		s = tsr_sim_open(&cfg, path, &sim, &err);
	if (s != TSR_OK)
		return tsr_cli_exit(s, &err);
	const uint32_t total = count ? count : tsr_sim_scene(sim)->frames;
	static const unsigned char none = 0;
	s = tsr_sim_select(sim, &none, 0, 0, &err);  /* every frame fast-forwarded */
	uint32_t *fr = malloc((total ? total : 1) * sizeof(*fr));
	double *xx = malloc((total ? total : 1) * sizeof(double) * TSR_SAMPLE_FEATURES);
	if (s == TSR_OK && (!fr || !xx))
		s = tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory");
	if (s == TSR_OK)
		s = tsr_scene_check_cameras(tsr_sim_scene(sim), 0, total, &err);
	uint32_t k = 0;
	for (uint32_t f = 0; s == TSR_OK && f < total; f++) {
		const struct tsr_frame_stats *fs;
		s = tsr_sim_step(sim, &fs, &err);
		if (s == TSR_OK && (!consider || consider[f])) {
			fr[k] = f;
			tsr_sample_features(fs, xx + (size_t)k * TSR_SAMPLE_FEATURES);
			k++;
		}
	}
	tsr_sim_close(sim);
	if (s != TSR_OK) {
		free(fr);
		free(xx);
		return tsr_cli_exit(s, &err);
	}
	*frames = fr;
	*x = xx;
	*n = k;
	return 0;
}

int tsr_cli_sample_lists(const struct tsr_sample *smp, const uint32_t *frames,
			 struct tsr_text *reps, struct tsr_text *spec)
{
	/* the representatives in frame order: a frame list and the device's spec */
	for (uint32_t j = 0; j < smp->k; j++) {
		const struct tsr_sample_cluster *c = &smp->clusters[j];
		/* one frame alone as a range: "5" would be --frames' count */
		if (smp->k == 1)
			tsr_text_printf(reps, "%u-%u", frames[c->rep], frames[c->rep]);
		else
			tsr_text_printf(reps, "%s%u", j ? "," : "", frames[c->rep]);
		tsr_text_printf(spec, "%s%u:%u:%.6g", j ? "," : "", frames[c->rep], c->weight,
				c->cv);
	}
	struct tsr_error err;
	if (tsr_text_status(reps, "the sample", &err) != TSR_OK ||
	    tsr_text_status(spec, "the sample", &err) != TSR_OK)
		return tsr_cli_exit(TSR_ERR_NOMEM, &err);
	return 0;
}

/* Orders clusters by their representative's frame. */
static int by_rep(const void *a, const void *b)
{
	const struct tsr_sample_cluster *x = a, *y = b;
	return x->rep < y->rep ? -1 : x->rep > y->rep;
}

int tsr_cli_sample_choose(const char *workload, const char *config, const char *const *sets,
			  size_t nsets, const char *frames_spec, uint32_t k, const char *tmp_dir,
			  struct tsr_sample *out, uint32_t **frames, double *seconds)
{
	uint32_t count = 0;
	const char *list = NULL;
	unsigned char *sel = NULL;
	memset(out, 0, sizeof(*out));
	*frames = NULL;
	if (frames_spec && tsr_cli_frames_parse(frames_spec, &count, &list, &sel))
		return EXIT_USAGE;
	const double t0 = tsr_cli_now_seconds();
	double *x = NULL;
	uint32_t n = 0;
	int rc = tsr_cli_sample_features(workload, config, sets, nsets, count, sel, tmp_dir,
					 frames, &x, &n);
	free(sel);
	if (!rc && n == 0)
		rc = tsr_cli_usage_error("sample: no frame to cluster in '%s'", workload);
	struct tsr_error err = {{0}};
	if (!rc) {
		enum tsr_status s = tsr_sample_choose(x, n, k, out, &err);
		if (s != TSR_OK)
			rc = tsr_cli_exit(s, &err);
	}
	if (!rc)  /* clusters in frame order (assign keeps its numbers: not used after) */
		qsort(out->clusters, out->k, sizeof(*out->clusters), by_rep);
	free(x);
	if (rc) {
		free(*frames);
		*frames = NULL;
		tsr_sample_release(out);
	}
	if (seconds)
		*seconds = tsr_cli_now_seconds() - t0;
	return rc;
}

int tsr_cmd_sample(int argc, char **argv)
{
	const char *config = NULL, *out_file = NULL, *frames_spec = NULL;
	const char *sets[TSR_CLI_MAX_SETS];
	size_t nsets = 0;
	long k = 0;
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"clusters", required_argument, NULL, 'k'},
		{"frames", required_argument, NULL, 'f'},
		{"config", required_argument, NULL, 'c'},
		{"set", required_argument, NULL, 's'},
		{"out", required_argument, NULL, 'o'},
		{NULL, 0, NULL, 0},
	};
	int opt;
	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		char *end;
		switch (opt) {
		case 'h':
			usage_sample(stdout);
			return 0;
		case 'k':
			errno = 0;
			k = strtol(optarg, &end, 10);
			if (*end || errno || k < 1 || k > (long)TSR_LIMIT_FRAMES)
				return tsr_cli_usage_error("invalid --clusters '%s' (a number from 1 "
							   "to %u)", optarg, TSR_LIMIT_FRAMES);
			break;
		case 'f':
			frames_spec = optarg;
			break;
		case 'c':
			config = optarg;
			break;
		case 's':
			if (tsr_cli_add_set(sets, &nsets, optarg))
				return EXIT_USAGE;
			break;
		case 'o':
			out_file = optarg;
			break;
		default:
			return tsr_cli_getopt_error("sample", opt, argv);
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "tessera: 'sample' needs a workload or a capture\n");
		usage_sample(stderr);
		return EXIT_USAGE;
	}
	const char *workload = argv[optind++];
	if (optind < argc)
		return tsr_cli_usage_error("unexpected argument '%s'", argv[optind]);
	char tmp[PATH_MAX];
	/* the features replay's folder: beside --out, else in the temporary
	 * folder (never in the working folder, which no option names) */
	const char *tmpdir = getenv("TMPDIR");
	if (out_file && strcmp(out_file, "-"))
		snprintf(tmp, sizeof(tmp), "%s.sample-%ld", out_file, (long)getpid());
	else
		snprintf(tmp, sizeof(tmp), "%s/tessera.sample-%ld",
			 tmpdir && tmpdir[0] ? tmpdir : "/tmp", (long)getpid());
	struct tsr_sample smp;
	uint32_t *frames = NULL;
	double seconds = 0;
	int rc = tsr_cli_sample_choose(workload, config, sets, nsets, frames_spec, (uint32_t)k,
				       tmp, &smp, &frames, &seconds);
	if (rc)
		return rc;
	printf("sample: %s: %u frames in %u clusters (%s), features counted in %.1f s\n",
	       workload, smp.n, smp.k, k ? "--clusters" : "BIC", seconds);
	printf("%-8s %10s %8s %8s\n", "cluster", "frame", "weight", "cv");
	for (uint32_t j = 0; j < smp.k; j++)
		printf("%-8u %10u %8u %8.3f\n", j, frames[smp.clusters[j].rep],
		       smp.clusters[j].weight, smp.clusters[j].cv);
	if (out_file) {
		json_t *o = json_object(), *cl = json_array();
		json_object_set_new(o, "workload", json_string(workload));
		json_object_set_new(o, "frames", json_integer(smp.n));
		json_object_set_new(o, "clusters", json_integer(smp.k));
		json_object_set_new(o, "k_rule", json_string(k ? "given" : "bic"));
		for (uint32_t j = 0; j < smp.k; j++)
			json_array_append_new(cl, json_pack("{s:i,s:i,s:f}", "frame",
							    (json_int_t)frames[smp.clusters[j].rep],
							    "weight",
							    (json_int_t)smp.clusters[j].weight, "cv",
							    smp.clusters[j].cv));
		json_object_set_new(o, "representatives", cl);
		char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_decref(o);
		/* through an output transaction, as every output of tessera: a
		 * symbolic link stays one, a FIFO or a device is written once,
		 * "-" is standard output, nothing partial is left on error */
		struct tsr_error err = {{0}};
		struct tsr_output out = {0};
		enum tsr_status s = text ? TSR_OK
					 : tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory");
		if (s == TSR_OK)
			s = tsr_output_open(&out, NULL, &err);
		if (s == TSR_OK)
			s = tsr_output_plan(&out, out_file, TSR_OUTPUT_STDOUT, &err);
		const size_t len = text ? strlen(text) : 0;
		char *line = text ? realloc(text, len + 2) : NULL;
		if (line) {
			text = line;
			memcpy(text + len, "\n", 2);
		} else if (s == TSR_OK) {
			s = tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory");
		}
		if (s == TSR_OK)
			s = tsr_output_write(&out, out_file, text, len + 1, &err);
		if (s == TSR_OK)
			s = tsr_output_commit(&out, &err);
		if (s != TSR_OK)
			tsr_output_abort(&out);
		free(text);
		rc = tsr_cli_exit(s, &err);
		if (!rc && strcmp(out_file, "-"))
			printf("wrote %s\n", out_file);
	}
	free(frames);
	tsr_sample_release(&smp);
	return rc;
}
