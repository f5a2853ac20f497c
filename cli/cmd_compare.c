/*
 * cmd_compare.c - `tessera compare A B [--min-psnr DB]`: how far rendered
 * frames are from reference frames (report/compare.h): two images, or
 * two folders whose images are paired in name order (tessera's
 * frame-NNNN.png against eglretrace's or llvmpipe's NNNNNNNNNN.png).
 */
#include <dirent.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "report/compare.h"
#include "scene/image_load.h"

static int is_image_name(const struct dirent *e)
{
	static const char *const ext[] = {".png", ".ppm", ".pnm", ".jpg", ".jpeg", ".bmp", ".tga"};
	const char *dot = strrchr(e->d_name, '.');
	if (!dot || e->d_name[0] == '.')
		return 0;
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (!strcasecmp(dot, ext[i]))
			return 1;
	return 0;
}

/* The image files of folder dir in name order (*names, freed by the caller). */
static int list_images(const char *dir, struct dirent ***names)
{
	return scandir(dir, names, is_image_name, alphasort);
}

static void free_list(struct dirent **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Compares one pair, prints its line; its PSNR into *psnr. Exit code. */
static int compare_pair(const char *a, const char *b, const char *label_a, const char *label_b,
			double *psnr)
{
	struct tsr_error err;
	struct tsr_image ia, ib;
	enum tsr_status s = tsr_image_read(a, &ia, &err);
	if (s != TSR_OK)
		return tsr_cli_exit(s, &err);
	s = tsr_image_read(b, &ib, &err);
	if (s != TSR_OK) {
		tsr_image_release(&ia);
		return tsr_cli_exit(s, &err);
	}
	struct tsr_image_diff d;
	s = tsr_image_diff(&ia, &ib, &d, &err);
	tsr_image_release(&ia);
	tsr_image_release(&ib);
	if (s != TSR_OK) {
		tsr_error_set(&err, s, "%s and %s: %s", a, b, err.msg);
		return tsr_cli_exit(s, &err);
	}
	*psnr = d.psnr_db;
	if (isinf(d.psnr_db))
		printf("%s  %s  psnr inf (identical)\n", label_a, label_b);
	else
		printf("%s  %s  psnr %.2f dB  max %u at (%u, %u)  differing %llu px in "
		       "(%u, %u)-(%u, %u)\n",
		       label_a, label_b, d.psnr_db, d.max_diff, d.worst_x, d.worst_y,
		       (unsigned long long)d.pixels_differing, d.box_x0, d.box_y0, d.box_x1,
		       d.box_y1);
	return 0;
}

int tsr_cmd_compare(int argc, char **argv)
{
	double min_psnr = -INFINITY;
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"min-psnr", required_argument, NULL, 'm'},
		{NULL, 0, NULL, 0},
	};
	int c;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: tessera compare A B [--min-psnr DB]\n\n"
			       "How far images A are from images B: two image files, or two folders\n"
			       "whose images (png, ppm, jpg, bmp, tga) are paired in name order (their\n"
			       "counts must be equal). Per pair: the PSNR of the R, G and B channels\n"
			       "(dB; 'inf' when identical), the largest channel difference (0..255)\n"
			       "and its pixel (x, y from the top left), the pixels that differ and\n"
			       "their bounding box; then the minimum and median PSNR.\n\n"
			       "  --min-psnr DB  exit 1 when a pair's PSNR is below DB\n\n"
			       "Exit status: 0, 1 (an image unreadable or of another size, the\n"
			       "counts differ, or a PSNR below --min-psnr), 2 (usage).\n");
			return 0;
		case 'm': {
			char *end;
			min_psnr = strtod(optarg, &end);
			if (end == optarg || *end || isnan(min_psnr))
				return tsr_cli_usage_error("invalid --min-psnr '%s': not a number of dB",
							   optarg);
			break;
		}
		default:
			return tsr_cli_getopt_error("compare", c, argv);
		}
	}
	if (argc - optind != 2)
		return tsr_cli_usage_error("compare takes two images or two folders (see "
					   "'tessera compare --help')");
	const char *a = argv[optind], *b = argv[optind + 1];
	struct stat sa, sb;
	if (stat(a, &sa) || stat(b, &sb)) {
		const char *bad = stat(a, &sa) ? a : b;
		fprintf(stderr, "tessera: cannot open '%s': no such file or folder\n", bad);
		return EXIT_RUNTIME;
	}
	if (S_ISDIR(sa.st_mode) != S_ISDIR(sb.st_mode))
		return tsr_cli_usage_error("compare takes two images or two folders, not one of "
					   "each ('%s', '%s')", a, b);
	double *psnr = NULL;
	int n = 1, rc = 0;
	if (!S_ISDIR(sa.st_mode)) {
		psnr = malloc(sizeof(*psnr));
		if (!psnr)
			return EXIT_RUNTIME;
		rc = compare_pair(a, b, a, b, &psnr[0]);
	} else {
		struct dirent **la = NULL, **lb = NULL;
		const int na = list_images(a, &la), nb = list_images(b, &lb);
		if (na < 0 || nb < 0) {
			fprintf(stderr, "tessera: cannot read folder '%s'\n", na < 0 ? a : b);
			rc = EXIT_RUNTIME;
		} else if (na != nb || na == 0) {
			fprintf(stderr, "tessera: '%s' holds %d images and '%s' %d: they must "
				"pair one to one\n", a, na, b, nb);
			rc = EXIT_RUNTIME;
		} else {
			n = na;
			psnr = malloc((size_t)n * sizeof(*psnr));
			rc = psnr ? 0 : EXIT_RUNTIME;
			for (int i = 0; i < n && !rc; i++) {
				char pa[4096], pb[4096];
				snprintf(pa, sizeof(pa), "%s/%s", a, la[i]->d_name);
				snprintf(pb, sizeof(pb), "%s/%s", b, lb[i]->d_name);
				rc = compare_pair(pa, pb, la[i]->d_name, lb[i]->d_name, &psnr[i]);
			}
		}
		if (na > 0)
			free_list(la, na);
		if (nb > 0)
			free_list(lb, nb);
	}
	if (!rc) {
		int below = 0;
		for (int i = 0; i < n; i++)
			below += psnr[i] < min_psnr;
		qsort(psnr, (size_t)n, sizeof(*psnr), cmp_double);
		printf("compare: %d pair%s, PSNR min %.2f dB, median %.2f dB\n", n, n == 1 ? "" : "s",
		       psnr[0], psnr[n / 2]);
		if (below) {
			fprintf(stderr, "tessera: %d of %d pairs below --min-psnr %.2f dB\n", below, n,
				min_psnr);
			rc = EXIT_RUNTIME;
		}
	}
	free(psnr);
	return rc;
}
