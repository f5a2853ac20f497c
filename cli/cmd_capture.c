/*
 * cmd_capture.c - `tessera capture --out X.trace [--frames N] [--seconds S]
 * [--reference DIR] [--screen WxH] -- PROGRAM [ARGS...]`: records a GL ES
 * program's calls with apitrace under a private Xvfb on Mesa's llvmpipe
 * (docs/captures.md), and with --reference writes llvmpipe's image of
 * every frame (eglretrace, headless) as DIR/frame-NNNN.png, the names
 * `tessera run --dump-frames all` gives tessera's frames, so that
 * `tessera compare` pairs them.
 *
 * What each program is and does is Debian's: xvfb-run (xvfb), apitrace
 * and eglretrace (apitrace), llvmpipe (libgl1-mesa-dri, libegl-mesa0).
 * Nothing is written at --out or in DIR unless the whole capture
 * succeeds: the trace and the images are made under temporary names
 * beside them and renamed at the end.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/files.h"

long tsr_cli_trace_frames(const char *path)
{
	char cmd[PATH_MAX + 64];
	snprintf(cmd, sizeof(cmd), "apitrace info '%s' 2>/dev/null", path);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	json_error_t je;
	json_t *j = json_loadf(p, JSON_DISABLE_EOF_CHECK, &je);
	pclose(p);
	const json_t *n = j ? json_object_get(j, "FramesCount") : NULL;
	const long frames = json_is_integer(n) ? (long)json_integer_value(n) : -1;
	json_decref(j);
	return frames;
}

static int name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_png(const struct dirent *e)
{
	const size_t n = strlen(e->d_name);
	return n > 4 && !strcmp(e->d_name + n - 4, ".png");
}

/* Renames the PNGs of dir (eglretrace's, named by call number) to
 * frame-NNNN.png in call order; their count, or -1. */
static long number_frames(const char *dir)
{
	struct dirent **v;
	const int n = scandir(dir, &v, is_png, name_cmp);
	if (n < 0)
		return -1;
	long ok = n;
	for (int i = 0; i < n; i++) {
		char from[PATH_MAX], to[PATH_MAX];
		snprintf(from, sizeof(from), "%s/%s", dir, v[i]->d_name);
		snprintf(to, sizeof(to), "%s/frame-%04d.png", dir, i);
		if (rename(from, to))
			ok = -1;
		free(v[i]);
	}
	free(v);
	return ok;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tessera capture --out X.trace [--frames N] [--seconds S]\n"
		"                       [--reference DIR] [--screen WxH] [--input FILE]\n"
		"                       [--quiet] -- PROGRAM [ARGS...]\n"
		"       tessera capture --corpus [NAME...] [--data DIR] (--corpus --help)\n\n"
		"Records a GL ES 2.0 program's calls with apitrace, under a private Xvfb,\n"
		"rendering on Mesa's llvmpipe (docs/captures.md).\n\n"
		"  --out X.trace    the capture (written only when the whole capture succeeds)\n"
		"  --frames N       keep the first N frames (apitrace trim)\n"
		"  --seconds S      stop the program with SIGINT after S seconds (programs\n"
		"                   that run until closed: es2gears, SDL's testsprite2)\n"
		"  --reference DIR  llvmpipe's image of every kept frame, DIR/frame-NNNN.png\n"
		"                   (eglretrace, headless); DIR must not exist or be empty\n"
		"  --screen WxH     the Xvfb screen (default 1920x1080)\n"
		"  --input FILE     plays FILE's input script in the private X server while\n"
		"                   the program runs (xdotool; a JSON array of steps:\n"
		"                   [\"wait-window\", \"NAME\"], [\"key\", \"space\"],\n"
		"                   [\"keydown\", \"Right\"], [\"keyup\", \"Right\"],\n"
		"                   [\"mousemove\", 320, 240], [\"click\", 1], [\"sleep\", 0.5])\n"
		"                   and, under --vclock, [\"frame\", N]: until the program has\n"
		"                   presented N frames, the next steps reaching it before frame N\n"
		"  --vclock FPS     the program's main thread on a virtual clock that moves on\n"
		"                   1/FPS s a frame (and by its sleeps), so that a program\n"
		"                   animated by the clock records the same frames every time;\n"
		"                   with --frames N it is stopped (SIGINT) after frame N\n"
		"  --quiet          the program's output to /dev/null (else to standard error)\n\n"
		"Needs xvfb-run, apitrace and eglretrace (scripts/setup.sh installs them).\n");
}

int tsr_cmd_capture(int argc, char **argv)
{
	/* inside the private X server: the program and its input script */
	if (argc >= 4 && !strcmp(argv[1], "--drive-input") && !strcmp(argv[3], "--"))
		return tsr_cli_drive_input(argv[2], argv + 4);
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--corpus"))
			return tsr_cli_capture_corpus(argc, argv);
	const char *out = NULL, *ref = NULL, *screen = "1920x1080", *input = NULL;
	long frames = 0;
	double seconds = 0, vclock = 0;
	int quiet = 0;
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"out", required_argument, NULL, 'o'},
		{"frames", required_argument, NULL, 'f'},
		{"seconds", required_argument, NULL, 's'},
		{"reference", required_argument, NULL, 'r'},
		{"screen", required_argument, NULL, 'S'},
		{"quiet", no_argument, NULL, 'q'},
		{"input", required_argument, NULL, 'i'},
		{"vclock", required_argument, NULL, 'v'},
		{NULL, 0, NULL, 0},
	};
	int c;
	char *end;
	/* '+': stop at the first non-option (the program, after --) */
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		case 'o':
			out = optarg;
			break;
		case 'f':
			frames = strtol(optarg, &end, 10);
			if (end == optarg || *end || frames < 1)
				return tsr_cli_usage_error("invalid --frames '%s': a positive count",
							   optarg);
			break;
		case 's':
			seconds = strtod(optarg, &end);
			if (end == optarg || *end || !(seconds > 0))
				return tsr_cli_usage_error("invalid --seconds '%s': a positive number",
							   optarg);
			break;
		case 'r':
			ref = optarg;
			break;
		case 'S': {
			unsigned w, h;
			char x;
			if (sscanf(optarg, "%u%c%u", &w, &x, &h) != 3 || x != 'x' || !w || !h ||
			    w > 16384 || h > 16384)
				return tsr_cli_usage_error("invalid --screen '%s': WIDTHxHEIGHT pixels",
							   optarg);
			screen = optarg;
			break;
		}
		case 'q':
			quiet = 1;
			break;
		case 'i':
			input = optarg;
			break;
		case 'v':
			vclock = strtod(optarg, &end);
			if (end == optarg || *end || !(vclock >= 1 && vclock <= 1000))
				return tsr_cli_usage_error("invalid --vclock '%s': frames per second, "
							   "1 to 1000", optarg);
			break;
		default:
			return tsr_cli_getopt_error("capture", c, argv);
		}
	}
	if (!out)
		return tsr_cli_usage_error("capture needs --out X.trace (see 'tessera capture --help')");
	if (optind >= argc)
		return tsr_cli_usage_error("capture needs a program after '--' (see 'tessera "
					   "capture --help')");
	const char *prog = argv[optind];
	if (strchr(prog, '/') ? access(prog, X_OK) != 0 : !tsr_cli_on_path(prog)) {
		fprintf(stderr, "tessera: capture: cannot run '%s': no such program\n", prog);
		return EXIT_RUNTIME;
	}
	static const char *const tools[] = {"xvfb-run", "apitrace", "eglretrace"};
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if ((i < 2 || ref) && !tsr_cli_on_path(tools[i])) {
			fprintf(stderr, "tessera: capture needs '%s' (Debian packages xvfb and "
				"apitrace: scripts/setup.sh installs them)\n", tools[i]);
			return EXIT_RUNTIME;
		}
	char input_abs[PATH_MAX], self[PATH_MAX];
	if (input) {
		json_error_t je;
		json_t *script = json_load_file(input, 0, &je);
		char msg[256];
		if (!script || tsr_cli_input_check(script, msg, sizeof(msg))) {
			json_decref(script);
			return tsr_cli_usage_error("--input '%s': %s", input, script ? msg : je.text);
		}
		const int framed = tsr_cli_input_frame_steps(script) > 0;
		json_decref(script);
		if (framed && !vclock)
			return tsr_cli_usage_error("--input '%s': \"frame\" steps need --vclock",
						   input);
		if (!tsr_cli_on_path("xdotool")) {
			fprintf(stderr, "tessera: capture --input needs 'xdotool' (Debian package "
				"xdotool)\n");
			return EXIT_RUNTIME;
		}
		const ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (len <= 0) {
			fprintf(stderr, "tessera: capture: cannot find this program (/proc/self/exe)\n");
			return EXIT_RUNTIME;
		}
		self[len] = '\0';
		tsr_cli_absolute(input, input_abs, sizeof(input_abs));
	}
	char shim[PATH_MAX], fps[32];
	if (vclock && !tsr_cli_vclock_path(shim, sizeof(shim))) {
		fprintf(stderr, "tessera: capture --vclock: the virtual clock "
			"(driver/vclock/libtsr_vclock.so) is not beside tessera's driver\n");
		return EXIT_RUNTIME;
	}
	snprintf(fps, sizeof(fps), "%g", vclock);
	char last[32];  /* the clock stops the program after its last frame kept */
	snprintf(last, sizeof(last), "%ld", frames);
	struct stat sb;
	if (ref && stat(ref, &sb) == 0) {
		DIR *d = opendir(ref);
		int entries = 0;
		for (const struct dirent *e; d && (e = readdir(d));)
			entries += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
		if (d)
			closedir(d);
		if (!d || entries)
			return tsr_cli_usage_error("--reference '%s' exists and is not an empty "
						   "folder", ref);
	}
	char tmp[PATH_MAX], trimmed[PATH_MAX], ref_tmp[PATH_MAX] = "", why[64];
	snprintf(tmp, sizeof(tmp), "%s.tmp-%ld", out, (long)getpid());
	snprintf(trimmed, sizeof(trimmed), "%s.trim-%ld", out, (long)getpid());
	int rc = EXIT_RUNTIME;

	/* 1. the program under apitrace, in a private Xvfb, on llvmpipe */
	char server_args[64];
	const int nprog = argc - optind;
	const char **cmd = calloc((size_t)nprog + 24, sizeof(*cmd));
	if (!cmd)
		return EXIT_RUNTIME;
	int k = tsr_cli_xvfb_prefix(cmd, screen, server_args, sizeof(server_args));
	if (input) {
		cmd[k++] = self;
		cmd[k++] = "capture";
		cmd[k++] = "--drive-input";
		cmd[k++] = input_abs;
		cmd[k++] = "--";
	}
	cmd[k++] = "apitrace";
	cmd[k++] = "trace";
	cmd[k++] = "--api=egl";
	cmd[k++] = "-o";
	cmd[k++] = tmp;
	if (vclock) {
		/* apitrace sets LD_PRELOAD to its tracer: the clock goes first
		 * (its eglSwapBuffers before the tracer's), from a shell that
		 * then runs the program in its place */
		cmd[k++] = "sh";
		cmd[k++] = "-c";
		cmd[k++] = "p=$1; shift; LD_PRELOAD=\"$p${LD_PRELOAD:+:$LD_PRELOAD}\" exec \"$@\"";
		cmd[k++] = "sh";
		cmd[k++] = shim;
	}
	for (int i = 0; i < nprog; i++)
		cmd[k++] = argv[optind + i];
	const char *const env[] = {
		"LIBGL_ALWAYS_SOFTWARE", "1", "GALLIUM_DRIVER", "llvmpipe",
		"SDL_VIDEO_X11_FORCE_EGL", "1", "vblank_mode", "0",
		"TSR_VCLOCK_FPS", vclock ? fps : NULL,
		"TSR_VCLOCK_LAST", vclock && frames ? last : NULL, NULL,
	};
	int st = tsr_cli_run_program((char *const *)cmd, env, seconds,
				     quiet ? TSR_CHILD_QUIET : 0);
	free((void *)cmd);
	long n = -1;
	struct stat ts;
	if (stat(tmp, &ts) != 0) {
		fprintf(stderr, "tessera: capture of '%s' wrote no trace: the program %s\n",
			argv[optind], tsr_cli_describe_wait(st, why, sizeof(why)));
		goto out;
	}
	/* a program stopped by --seconds, or by the virtual clock after its
	 * last frame, may end with SIGINT's status */
	const int stopped = seconds > 0 || (vclock && frames);
	if (st < 0 || (!stopped && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))) {
		fprintf(stderr, "tessera: capture of '%s' failed: the program %s\n", argv[optind],
			tsr_cli_describe_wait(st, why, sizeof(why)));
		goto out;
	}
	n = tsr_cli_trace_frames(tmp);
	if (n <= 0) {
		fprintf(stderr, "tessera: capture of '%s' holds %s frames: the program never "
			"called eglSwapBuffers on a window (glmark2: do not pass --off-screen)\n",
			argv[optind], n == 0 ? "no" : "an unknown number of");
		goto out;
	}
	/* 2. the first --frames frames */
	if (frames && frames < n) {
		char range[64];
		snprintf(range, sizeof(range), "--frames=0-%ld", frames - 1);
		char *trim[] = {"apitrace", "trim", range, "-o", trimmed, tmp, NULL};
		st = tsr_cli_run_program(trim, NULL, 0, TSR_CHILD_QUIET);
		if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) || rename(trimmed, tmp)) {
			fprintf(stderr, "tessera: apitrace trim of the capture failed (it %s)\n",
				tsr_cli_describe_wait(st, why, sizeof(why)));
			goto out;
		}
		n = frames;
	}
	/* 3. llvmpipe's images of every frame */
	long images = 0;
	if (ref) {
		snprintf(ref_tmp, sizeof(ref_tmp), "%s.tmp-%ld", ref, (long)getpid());
		if (mkdir(ref_tmp, 0777)) {
			fprintf(stderr, "tessera: cannot create '%s': %s\n", ref_tmp, strerror(errno));
			ref_tmp[0] = '\0';
			goto out;
		}
		char prefix[PATH_MAX + 2];  /* ref_tmp and its slash */
		snprintf(prefix, sizeof(prefix), "%s/", ref_tmp);
		char *replay[] = {"eglretrace", "--headless", "-s", prefix, tmp, NULL};
		static const char *const renv[] = {
			"WAFFLE_PLATFORM", "surfaceless_egl", "LIBGL_ALWAYS_SOFTWARE", "1",
			"GALLIUM_DRIVER", "llvmpipe", NULL,
		};
		st = tsr_cli_run_program(replay, renv, 0, TSR_CHILD_QUIET);
		images = number_frames(ref_tmp);
		if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) || images != n) {
			fprintf(stderr, "tessera: eglretrace of the capture %s and wrote %ld images "
				"for %ld frames\n", tsr_cli_describe_wait(st, why, sizeof(why)), images, n);
			goto out;
		}
		rmdir(ref);  /* empty, or absent */
		if (rename(ref_tmp, ref)) {
			fprintf(stderr, "tessera: cannot write '%s': %s\n", ref, strerror(errno));
			goto out;
		}
		ref_tmp[0] = '\0';
	}
	if (rename(tmp, out)) {
		fprintf(stderr, "tessera: cannot write '%s': %s\n", out, strerror(errno));
		goto out;
	}
	printf("capture: %s: %ld frames", out, n);
	if (ref)
		printf(", llvmpipe's images in %s/frame-0000.png .. frame-%04ld.png", ref, n - 1);
	printf("\n");
	rc = 0;
out:
	unlink(tmp);
	unlink(trimmed);
	if (ref_tmp[0])
		tsr_remove_tree(ref_tmp);
	return rc;
}
