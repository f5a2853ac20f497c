/*
 * cmd_exec.c - `tessera exec [--config F] [--set K=V]... [--out DIR]
 * [--frames N] [--screen WxH] [--headless] -- PROGRAM [ARGS...]`: runs an
 * unmodified OpenGL ES 2.0 program on tessera's drop-in driver
 * (docs/driver.md): the configuration is checked first, then the program
 * runs with the driver's folder first on LD_LIBRARY_PATH and the
 * configuration in TESSERA_CONFIG, TESSERA_SET, TESSERA_OUT and
 * TESSERA_FRAMES, under a private Xvfb when DISPLAY is unset (xvfb-run, as
 * `tessera capture` does). The exit status is the program's (128 + N when
 * it was killed by signal N).
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "config/config.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tessera exec [--config GPU] [--set KEY=VALUE]... [--out DIR]\n"
		"                    [--frames N] [--screen WxH] [--headless]\n"
		"                    -- PROGRAM [ARGS...]\n\n"
		"Runs an OpenGL ES 2.0 program on tessera: its libEGL and libGLESv2 are\n"
		"tessera's driver (docs/driver.md).\n\n"
		"  --config GPU      the modelled GPU (a file, or a shipped name)\n"
		"  --set KEY=VALUE   override one configuration key (repeatable)\n"
		"  --out DIR         the run's statistics and frames go to DIR\n"
		"  --frames N        end the program after N frames (eglSwapBuffers)\n"
		"  --screen WxH      the private X server's screen (default 1920x1080)\n"
		"  --headless        no private X server when DISPLAY is unset (programs\n"
		"                    that render on pbuffers or EGL's surfaceless platform)\n\n"
		"The program's exit status is tessera's. Without DISPLAY, a private Xvfb is\n"
		"started (xvfb-run, Debian package xvfb) and ended after the program.\n");
}

int tsr_cmd_exec(int argc, char **argv)
{
	const char *config = NULL, *out = NULL, *screen = "1920x1080";
	const char *sets[TSR_CLI_MAX_SETS];
	size_t nsets = 0;
	long frames = 0;
	int headless = 0;
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"config", required_argument, NULL, 'c'},
		{"set", required_argument, NULL, 's'},
		{"out", required_argument, NULL, 'o'},
		{"frames", required_argument, NULL, 'f'},
		{"screen", required_argument, NULL, 'S'},
		{"headless", no_argument, NULL, 'H'},
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
		case 'c':
			config = optarg;
			break;
		case 's':
			if (tsr_cli_add_set(sets, &nsets, optarg))
				return EXIT_USAGE;
			break;
		case 'o':
			out = optarg;
			break;
		case 'f':
			frames = strtol(optarg, &end, 10);
			if (end == optarg || *end || frames < 1)
				return tsr_cli_usage_error("invalid --frames '%s': a positive count",
							   optarg);
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
		case 'H':
			headless = 1;
			break;
		default:
			return tsr_cli_getopt_error("exec", c, argv);
		}
	}
	if (optind >= argc)
		return tsr_cli_usage_error("exec needs a program after '--' (see 'tessera exec "
					   "--help')");

	/* 1. the configuration, as the driver will read it, before anything runs */
	struct tsr_error err = {{0}};
	char config_path[PATH_MAX], abs_config[PATH_MAX], abs_out[PATH_MAX];
	struct tsr_gpu_config cfg;
	enum tsr_status s = tsr_cli_load_config(config, sets, nsets, &cfg, config_path,
						sizeof(config_path), &err);
	if (s != TSR_OK)
		return tsr_cli_exit(s, &err);
	/* TESSERA_SET: the overrides one a line (no configuration value holds
	 * a newline or ';', the driver's separators) */
	size_t set_len = 1;
	for (size_t i = 0; i < nsets; i++)
		set_len += strlen(sets[i]) + 1;
	char *set_text = calloc(1, set_len);
	if (!set_text)
		return tsr_cli_exit(tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory"), &err);
	for (size_t i = 0; i < nsets; i++) {
		if (strpbrk(sets[i], ";\n")) {
			free(set_text);
			return tsr_cli_usage_error("invalid --set '%s': a value cannot hold ';' or a "
						   "newline", sets[i]);
		}
		strcat(set_text, sets[i]);
		strcat(set_text, i + 1 < nsets ? "\n" : "");
	}

	/* 2. the program, the driver and the X server */
	const char *prog = argv[optind];
	if (strchr(prog, '/') ? access(prog, X_OK) != 0 : !tsr_cli_on_path(prog)) {
		free(set_text);
		fprintf(stderr, "tessera: exec: cannot run '%s': no such program\n", prog);
		return EXIT_RUNTIME;
	}
	char dir[PATH_MAX];
	if (!tsr_cli_driver_dir(dir, sizeof(dir))) {
		free(set_text);
		fprintf(stderr, "tessera: exec: the driver (libEGL.so.1, libGLESv2.so.2) is neither "
			"in the driver folder beside this tessera nor in %s\n",
			TSR_DRIVER_INSTALL_DIR);
		return EXIT_RUNTIME;
	}
	const char *display = getenv("DISPLAY");
	const int xvfb = !headless && (!display || !display[0]);
	if (xvfb && !tsr_cli_on_path("xvfb-run")) {
		free(set_text);
		fprintf(stderr, "tessera: exec needs 'xvfb-run' when DISPLAY is unset (Debian "
			"package xvfb: scripts/setup.sh installs it), or --headless\n");
		return EXIT_RUNTIME;
	}
	const char *old_path = getenv("LD_LIBRARY_PATH");
	char *ld_path = malloc(strlen(dir) + (old_path ? strlen(old_path) : 0) + 2);
	char frames_text[32];
	snprintf(frames_text, sizeof(frames_text), "%ld", frames);
	/* the program's environment only (through env(1)), not xvfb-run's or
	 * the X server's: Xvfb links Mesa's libGL */
	const char *vars[][2] = {
		{"LD_LIBRARY_PATH", ld_path},
		{"TESSERA_CONFIG", config ? tsr_cli_absolute(config_path, abs_config, sizeof(abs_config))
					  : NULL},
		{"TESSERA_SET", nsets ? set_text : NULL},
		{"TESSERA_OUT", out ? tsr_cli_absolute(out, abs_out, sizeof(abs_out)) : NULL},
		{"TESSERA_FRAMES", frames ? frames_text : NULL},
	};
	const size_t nvars = sizeof(vars) / sizeof(vars[0]);
	const int nprog = argc - optind;
	const char **cmd = calloc((size_t)nprog + 2 * nvars + 8, sizeof(*cmd));
	char *assign[sizeof(vars) / sizeof(vars[0])] = {NULL};
	int rc = EXIT_RUNTIME;
	if (!ld_path || !cmd)
		goto out;
	sprintf(ld_path, "%s%s%s", dir, old_path && old_path[0] ? ":" : "",
		old_path ? old_path : "");
	char server_args[64];
	int k = xvfb ? tsr_cli_xvfb_prefix(cmd, screen, server_args, sizeof(server_args)) : 0;
	/* env -u NAME... -- NAME=VALUE... PROGRAM ARGS...: the variables exec's
	 * options leave unset are removed, so the driver reads what was checked */
	cmd[k++] = "env";
	for (size_t i = 0; i < nvars; i++)
		if (!vars[i][1]) {
			cmd[k++] = "-u";
			cmd[k++] = vars[i][0];
		}
	cmd[k++] = "--";
	for (size_t i = 0; i < nvars; i++) {
		if (!vars[i][1])
			continue;
		assign[i] = malloc(strlen(vars[i][0]) + strlen(vars[i][1]) + 2);
		if (!assign[i])
			goto out;
		sprintf(assign[i], "%s=%s", vars[i][0], vars[i][1]);
		cmd[k++] = assign[i];
	}
	for (int i = 0; i < nprog; i++)
		cmd[k++] = argv[optind + i];
	const int st = tsr_cli_run_program((char *const *)cmd, NULL, 0, TSR_CHILD_STDIO);
	if (st < 0) {
		fprintf(stderr, "tessera: exec: cannot run '%s'\n", prog);
		goto out;
	}
	rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
out:
	for (size_t i = 0; i < nvars; i++)
		free(assign[i]);
	free((void *)cmd);
	free(ld_path);
	free(set_text);
	return rc;
}
