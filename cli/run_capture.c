/*
 * run_capture.c - `tessera run X.trace`: an apitrace capture of an OpenGL
 * ES 2.0 program (`tessera capture`) replayed on tessera. The replay is
 * Debian's eglretrace, headless on EGL's surfaceless platform, with
 * tessera's drop-in driver (driver/) first on LD_LIBRARY_PATH and the
 * run's configuration, --set, output folder and --frames in TESSERA_CONFIG,
 * TESSERA_SET, TESSERA_OUT and TESSERA_FRAMES (docs/driver.md): the driver
 * is the one implementation of GL ES 2.0 on the GPU model, and eglretrace
 * is the reader of the trace format (undocumented, versioned, compressed)
 * that apitrace keeps in step with its writer.
 *
 * Before anything is replayed: the configuration (exit 2, as `tessera
 * exec`), then the capture (`apitrace info`, `apitrace dump` of its EGL
 * set-up calls): a file that is not a capture or is corrupt, one cut
 * short, one of desktop OpenGL (GLX, or EGL with EGL_OPENGL_API) and one
 * asking for an OpenGL ES context other than 2.x each give one message
 * naming the file and the problem, and exit 1.
 *
 * The driver writes into a temporary folder beside --out; its frames.csv,
 * stats.json and the images --dump-frames asks for are then written
 * through one output transaction (report/report.h), as `tessera run
 * WORKLOAD` writes them: nothing is left at --out unless the whole replay
 * succeeded, and the temporary folder is always removed. One --record-trace
 * CACHE=FILE is recorded by the driver (TESSERA_RECORD_TRACE) and taken
 * into FILE the same way.
 *
 * The same checks and replay serve `tessera experiment` (tsr_cli_xp_replay(),
 * tsr_xp_options.replay): a capture as an experiment's workload, replayed
 * once per point into the library's temporary folder.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "config/config.h"
#include "core/files.h"
#include "experiment/experiment.h"
#include "memory/memsys.h"
#include "report/heatmap.h"
#include "report/report.h"
#include "sweep/sweep.h"

/*
 * Runs argv (looked up on PATH) with its standard output and error into
 * buf (n bytes, NUL-terminated; what does not fit is read and dropped);
 * the wait status, or -1.
 */
static int output_of(char *const argv[], char *buf, size_t n)
{
	int fd[2];
	buf[0] = '\0';
	if (pipe(fd))
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		if (in >= 0)
			dup2(in, STDIN_FILENO);
		dup2(fd[1], STDOUT_FILENO);
		dup2(fd[1], STDERR_FILENO);
		close(fd[0]);
		close(fd[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	size_t len = 0;
	char sink[4096];
	for (;;) {
		char *to = len + 1 < n ? buf + len : sink;
		size_t room = len + 1 < n ? n - 1 - len : sizeof(sink);
		ssize_t r = read(fd[0], to, room);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (to != sink)
			len += (size_t)r;
	}
	buf[len] = '\0';
	close(fd[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return st;
}

extern char **environ;

/*
 * Runs argv (eglretrace) with the variables of env set (NAME, VALUE pairs,
 * NULL-terminated; a NULL VALUE unsets NAME), its standard output to
 * /dev/null and of its standard error only what matters to the run: the
 * driver's lines ("tessera: ...", but the line saying TESSERA_FRAMES
 * ended it) and eglretrace's warnings and errors, not its chatter (the
 * process name, "renderableType = 4"). The child's environment is built
 * here, before fork(), so that the child only calls exec (safe with the
 * experiments' threads). With own_signals (one replay at a time: `tessera
 * run`), Ctrl-C reaches the child in tessera's process group while tessera
 * ignores it and waits, and a SIGTERM or SIGHUP sent to tessera alone is
 * passed on to the child (forward_signal()); the experiments' replays, on several threads,
 * leave the signals alone. With said (n bytes; may be NULL), the first
 * line of the driver ("tessera: ...", without the prefix) is kept there
 * ("" when none), and only warnings are passed on. The wait status, or -1.
 */
/* the replay's child while own_signals holds (forward_signal()'s) */
static volatile sig_atomic_t replay_child;

/* SIGTERM and SIGHUP while a replay runs: passed on to the child, whose
 * end then ends the run as any failed replay does (the temporary folder
 * removed, nothing written at --out) instead of leaving both behind. */
static void forward_signal(int sig)
{
	if (replay_child > 0)
		kill((pid_t)replay_child, sig);
}

static int replay(char *const argv[], const char *const *env, int own_signals, char *said,
		  size_t said_n)
{
	/* environ without the names env sets, then env's NAME=VALUE */
	size_t n_env = 0, n_set = 0;
	while (environ && environ[n_env])
		n_env++;
	while (env[2 * n_set])
		n_set++;
	char **envp = calloc(n_env + n_set + 1, sizeof(*envp));
	char **owned = calloc(n_set + 1, sizeof(*owned));
	if (!envp || !owned) {
		free(envp);
		free(owned);
		return -1;
	}
	size_t k = 0;
	for (size_t i = 0; i < n_env; i++) {
		int set_here = 0;
		for (size_t j = 0; j < n_set && !set_here; j++) {
			const size_t len = strlen(env[2 * j]);
			set_here = !strncmp(environ[i], env[2 * j], len) && environ[i][len] == '=';
		}
		if (!set_here)
			envp[k++] = environ[i];
	}
	int bad = 0;
	for (size_t j = 0; j < n_set; j++) {
		if (!env[2 * j + 1])
			continue;
		const size_t len = strlen(env[2 * j]) + strlen(env[2 * j + 1]) + 2;
		owned[j] = malloc(len);
		if (!owned[j]) {
			bad = 1;
			break;
		}
		snprintf(owned[j], len, "%s=%s", env[2 * j], env[2 * j + 1]);
		envp[k++] = owned[j];
	}
	envp[k] = NULL;
	int fd[2] = {-1, -1};
	pid_t pid = -1;
	if (!bad && !pipe(fd)) {
		fflush(NULL);
		pid = fork();
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
		}
		dup2(fd[1], STDERR_FILENO);
		close(fd[0]);
		close(fd[1]);
		environ = envp;
		execvp(argv[0], argv);
		static const char msg[] = "tessera: cannot run eglretrace\n";
		ssize_t w = write(STDERR_FILENO, msg, sizeof(msg) - 1);
		(void)w;
		_exit(127);
	}
	for (size_t j = 0; j < n_set; j++)
		free(owned[j]);
	free(owned);
	free(envp);
	if (pid < 0) {
		if (fd[0] >= 0) {
			close(fd[0]);
			close(fd[1]);
		}
		return -1;
	}
	close(fd[1]);
	struct sigaction ign = {.sa_handler = SIG_IGN}, fwd = {.sa_handler = forward_signal};
	struct sigaction old_int, old_quit, old_term, old_hup;
	sigemptyset(&ign.sa_mask);
	sigemptyset(&fwd.sa_mask);
	fwd.sa_flags = SA_RESTART;  /* the child's messages are still read to its end */
	if (own_signals) {
		sigaction(SIGINT, &ign, &old_int);
		sigaction(SIGQUIT, &ign, &old_quit);
		replay_child = pid;
		sigaction(SIGTERM, &fwd, &old_term);
		sigaction(SIGHUP, &fwd, &old_hup);
	}
	FILE *f = fdopen(fd[0], "r");
	char *line = NULL;
	size_t cap = 0;
	if (said && said_n)
		said[0] = '\0';
	while (f && getline(&line, &cap, f) > 0) {
		if ((strncmp(line, "tessera:", 8) && !strstr(line, "error") &&
		     !strstr(line, "warning")) || strstr(line, "(TESSERA_FRAMES)"))
			continue;  /* --frames ending the replay is no news */
		if (said && said_n && !said[0] && !strncmp(line, "tessera: ", 9)) {
			snprintf(said, said_n, "%s", line + 9);
			said[strcspn(said, "\n")] = '\0';
		}
		if (!said || strstr(line, "warning"))
			fputs(line, stderr);
	}
	free(line);
	if (f)
		fclose(f);
	else
		close(fd[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			st = -1;
			break;
		}
	if (own_signals) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		sigaction(SIGHUP, &old_hup, NULL);
		replay_child = 0;
	}
	return st;
}

/* The first line of text (at most 160 characters) into buf. */
static const char *first_line(const char *text, char *buf, size_t n)
{
	size_t len = strcspn(text, "\n");
	if (len > 160)
		len = 160;
	snprintf(buf, n, "%.*s", (int)len, text);
	return buf;
}

/*
 * What the capture at path holds, from `apitrace info` and the EGL calls
 * that choose the client API and context (`apitrace dump`): *frames its
 * frame count; 0, or 1 with why (n bytes) saying what makes it unfit.
 */
static int inspect(const char *path, long *frames, char *why, size_t n)
{
	const size_t cap = 1 << 20;
	char *out = malloc(cap);
	char line[200];
	int bad = 1;
	if (!out) {
		snprintf(why, n, "out of memory");
		return 1;
	}
	char *info[] = {"apitrace", "info", (char *)path, NULL};
	int st = output_of(info, out, cap);
	const char *brace = strchr(out, '{');
	json_t *j = NULL;
	if (brace)
		j = json_loads(brace, JSON_DISABLE_EOF_CHECK, NULL);
	const char *api = j ? json_string_value(json_object_get(j, "API")) : NULL;
	const json_t *fc = j ? json_object_get(j, "FramesCount") : NULL;
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) || !api || !json_is_integer(fc)) {
		char w[64];
		/* apitrace aborts on bytes that are no compressed stream it knows */
		const int said = st >= 0 && WIFEXITED(st) && out[0] && out[0] != '{';
		snprintf(why, n, "it is not an apitrace capture, or is corrupt (apitrace info %s%s%s)",
			 tsr_cli_describe_wait(st, w, sizeof(w)), said ? ": " : "",
			 said ? first_line(out, line, sizeof(line)) : "");
		goto done;
	}
	*frames = (long)json_integer_value(fc);
	if (strstr(out, "unexpected end of file")) {
		snprintf(why, n, "it is truncated: its last call is cut off (apitrace: unexpected "
			 "end of file while reading trace)");
		goto done;
	}
	if (!strcmp(api, "Unknown API")) {
		snprintf(why, n, "it holds no OpenGL or EGL call (apitrace's API: Unknown API)");
		goto done;
	}
	if (!strstr(api, "EGL")) {
		snprintf(why, n, "it records desktop OpenGL (apitrace's API: '%s'); tessera's driver "
			 "implements OpenGL ES 2.0 through EGL", api);
		goto done;
	}
	if (*frames <= 0) {
		snprintf(why, n, "it holds no frames (no eglSwapBuffers call)");
		goto done;
	}
	/* the client API bound and the contexts made (those the program got) */
	char *dump[] = {"apitrace", "dump", "--color=never", "--arg-names=no",
			"--grep=^egl(BindAPI|CreateContext)$", (char *)path, NULL};
	st = output_of(dump, out, cap);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		char w[64];
		snprintf(why, n, "apitrace dump %s: %s", tsr_cli_describe_wait(st, w, sizeof(w)),
			 first_line(out, line, sizeof(line)));
		goto done;
	}
	const char *bound = "EGL_OPENGL_ES_API";
	for (char *l = out, *next; l && *l; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		const long call = strtol(l, NULL, 10);
		const char *b = strstr(l, "eglBindAPI(");
		if (b && strstr(l, "= EGL_TRUE")) {
			bound = strstr(b, "EGL_OPENGL_API") ? "EGL_OPENGL_API"
				: strstr(b, "EGL_OPENVG_API") ? "EGL_OPENVG_API" : "EGL_OPENGL_ES_API";
			continue;
		}
		if (!strstr(l, "eglCreateContext(") || strstr(l, "= NULL") || strstr(l, "= 0x0"))
			continue;  /* a context the program did not get */
		if (strcmp(bound, "EGL_OPENGL_ES_API")) {
			snprintf(why, n, "call %ld makes %s context (eglBindAPI(%s)); tessera's driver "
				 "implements OpenGL ES 2.0 only", call,
				 strcmp(bound, "EGL_OPENGL_API") ? "an OpenVG" : "a desktop OpenGL",
				 bound);
			goto done;
		}
		long major = 1;  /* EGL_CONTEXT_CLIENT_VERSION's default */
		const char *v = strstr(l, "EGL_CONTEXT_MAJOR_VERSION, ");
		if (!v)
			v = strstr(l, "EGL_CONTEXT_CLIENT_VERSION, ");
		if (v)
			major = strtol(strchr(v, ',') + 2, NULL, 10);
		long minor = 0;
		const char *m = strstr(l, "EGL_CONTEXT_MINOR_VERSION, ");
		if (m)
			minor = strtol(strchr(m, ',') + 2, NULL, 10);
		if (major != 2 || minor != 0) {
			snprintf(why, n, "call %ld asks for an OpenGL ES %ld.%ld context "
				 "(eglCreateContext); tessera's driver implements OpenGL ES 2.0 only",
				 call, major, minor);
			goto done;
		}
	}
	bad = 0;
done:
	json_decref(j);
	free(out);
	return bad;
}

/* The frames the driver rendered into folder dir: the rows of its
 * frames.csv (its images are only those --dump-frames keeps), or of its
 * features.csv (every frame, fast-forwarded ones too); -1: no folder, or
 * no stats.json in it. */
static long count_frames(const char *dir, const char *csv)
{
	char p[PATH_MAX + 16];
	snprintf(p, sizeof(p), "%s/stats.json", dir);
	if (access(p, R_OK))
		return -1;
	snprintf(p, sizeof(p), "%s/%s", dir, csv);
	FILE *f = fopen(p, "r");
	if (!f)
		return -1;
	long lines = 0;
	for (int c; (c = getc(f)) != EOF;)
		lines += c == '\n';
	fclose(f);
	return lines > 0 ? lines - 1 : 0;  /* the header */
}

/* The whole of file path (malloc'd, *len bytes), or NULL. */
static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t cap = 0;
	*len = 0;
	for (;;) {
		if (*len == cap) {
			char *b = realloc(buf, cap = cap ? cap * 2 : 65536);
			if (!b) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		size_t r = fread(buf + *len, 1, cap - *len, f);
		*len += r;
		if (r == 0)
			break;
	}
	const int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * stats.json's workload, which the device names "(a GL ES 2.0 program)"
 * with no name, named as a workload run names its workload: the capture's
 * absolute path, and its file name without ".trace". data: the device's
 * stats.json (len bytes); a new text (malloc'd, *out_len bytes), or NULL
 * when out of memory or the workload object is not there.
 */
static char *name_workload(const char *data, size_t len, const char *trace, size_t *out_len)
{
	static const char from[] = "\"path\": \"(a GL ES 2.0 program)\",\n  \"name\": \"\"";
	const char *at = strstr(data, from);
	char abs[PATH_MAX];
	const char *base = strrchr(trace, '/') ? strrchr(trace, '/') + 1 : trace;
	json_t *p = json_string(tsr_cli_absolute(trace, abs, sizeof(abs)));
	json_t *n = json_stringn(base, strlen(base) - 6);  /* without ".trace" */
	char *ps = p ? json_dumps(p, JSON_ENCODE_ANY) : NULL;
	char *ns = n ? json_dumps(n, JSON_ENCODE_ANY) : NULL;
	json_decref(p);
	json_decref(n);
	char *text = NULL;
	if (at && ps && ns) {
		const size_t head = (size_t)(at - data), cut = sizeof(from) - 1;
		const size_t cap = len - cut + strlen(ps) + strlen(ns) + 32;
		text = malloc(cap);
		if (text) {
			int w = snprintf(text, cap, "%.*s\"path\": %s,\n  \"name\": %s", (int)head, data,
					 ps, ns);
			memcpy(text + w, at + cut, len - head - cut);
			*out_len = (size_t)w + len - head - cut;
		}
	}
	free(ps);
	free(ns);
	return text;
}

/* Output name (in the run's folder) from the driver's folder src: read and
 * written through the transaction (stats.json with its workload named
 * after trace). */
static enum tsr_status take(struct tsr_output *out, const char *src, const char *name,
			    const char *trace, struct tsr_error *err)
{
	char p[PATH_MAX + 64];
	snprintf(p, sizeof(p), "%s/%s", src, name);
	size_t len;
	char *data = read_all(p, &len);
	if (!data)
		return tsr_error_set(err, TSR_ERR_IO, "cannot read the replay's '%s': %s", p,
				     strerror(errno));
	if (!strcmp(name, "stats.json")) {
		size_t named_len;
		char *named = name_workload(data, len, trace, &named_len);
		free(data);
		if (!named)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for stats.json (or "
					     "no workload in the replay's)");
		data = named;
		len = named_len;
	}
	enum tsr_status s = tsr_output_write(out, name, data, len, err);
	free(data);
	return s;
}

/*
 * Whether capture `trace` can be replayed: a readable file, apitrace and
 * eglretrace on PATH, the driver found (its folder into dir, PATH_MAX
 * bytes) and the capture fit (inspect(): *frames its frames). 0, or 1
 * with why (n bytes) saying what is wrong (naming the capture or tool).
 */
static int capture_check(const char *trace, char *dir, long *frames, char *why, size_t n)
{
	struct stat sb;
	if (stat(trace, &sb) != 0 || S_ISDIR(sb.st_mode) || access(trace, R_OK) != 0) {
		const int e = errno;
		snprintf(why, n, "cannot read capture '%s': %s", trace,
			 stat(trace, &sb) == 0 && S_ISDIR(sb.st_mode) ? "it is a folder"
								       : strerror(e));
		return 1;
	}
	static const char *const tools[] = {"apitrace", "eglretrace"};
	for (size_t i = 0; i < 2; i++)
		if (!tsr_cli_on_path(tools[i])) {
			snprintf(why, n, "a capture is replayed with '%s' (Debian package apitrace: "
				 "scripts/setup.sh installs it)", tools[i]);
			return 1;
		}
	if (!tsr_cli_driver_dir(dir, PATH_MAX)) {
		snprintf(why, n, "the driver (libEGL.so.1, libGLESv2.so.2) is neither in the driver "
			 "folder beside this tessera nor in %s", TSR_DRIVER_INSTALL_DIR);
		return 1;
	}
	char what[400];
	if (inspect(trace, frames, what, sizeof(what))) {
		snprintf(why, n, "capture '%s' cannot be replayed: %s", trace, what);
		return 1;
	}
	return 0;
}

/* One replay of a capture on the driver: what replay_capture() passes it. */
struct replay_args {
	const char *trace;       /* the capture */
	const char *driver_dir;  /* capture_check()'s: first on LD_LIBRARY_PATH */
	const char *config;      /* TESSERA_CONFIG: an absolute path, or NULL */
	const char *sets;        /* TESSERA_SET (one a line), or NULL */
	const char *out;         /* TESSERA_OUT: the driver's folder, absolute, made */
	const char *dump;        /* TESSERA_DUMP_FRAMES, or NULL */
	const char *heatmaps;    /* TESSERA_HEATMAPS, or NULL */
	const char *record;      /* TESSERA_RECORD_TRACE (CACHE=FILE), or NULL */
	uint32_t frames;         /* TESSERA_FRAMES: the replay ends there; 0: unset */
	const char *simulate;    /* TESSERA_SIMULATE (struct tsr_cli_capture_extra), or NULL */
	uint32_t warmup;         /* TESSERA_WARMUP with simulate */
	const char *sample;      /* TESSERA_SAMPLE, or NULL */
	int features;            /* TESSERA_FEATURES=1: the surface is found by features.csv */
	int own_signals;         /* replay()'s: one replay at a time */
	char *said;              /* replay()'s: the driver's first message, or NULL */
	size_t said_n;
};

/*
 * Replays a->trace with eglretrace on the driver as a says; src (n bytes)
 * gets the driver's folder of the surface the capture swapped: the one
 * with the most frames (eglretrace makes a surface of its own first, so
 * the capture's is a->out/surface-2), *got its frames (-1: none).
 * Errors: TSR_ERR_IO (eglretrace failed: its wait status), TSR_ERR_NOMEM.
 */
static enum tsr_status replay_capture(const struct replay_args *a, char *src, size_t n,
				      long *got, struct tsr_error *err)
{
	const char *old_path = getenv("LD_LIBRARY_PATH");
	char *ld_path = malloc(strlen(a->driver_dir) + (old_path ? strlen(old_path) : 0) + 2);
	char frames_text[32], warmup_text[32];
	snprintf(frames_text, sizeof(frames_text), "%u", a->frames);
	snprintf(warmup_text, sizeof(warmup_text), "%u", a->warmup);
	if (!ld_path)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	sprintf(ld_path, "%s%s%s", a->driver_dir, old_path && old_path[0] ? ":" : "",
		old_path ? old_path : "");
	const char *const env[] = {
		"LD_LIBRARY_PATH", ld_path,
		"WAFFLE_PLATFORM", "surfaceless_egl",
		"TESSERA_CONFIG", a->config,
		"TESSERA_SET", a->sets,
		"TESSERA_OUT", a->out,
		/* only the images kept are encoded */
		"TESSERA_DUMP_FRAMES", a->dump,
		"TESSERA_HEATMAPS", a->heatmaps,
		"TESSERA_RECORD_TRACE", a->record,
		/* glibc's malloc in eglretrace keeping freed memory for reuse
		 * and asking for transparent huge pages, unless the user's
		 * environment sets its own: 2 thousand page faults instead of
		 * 80 thousand in an 800x600 glmark2 replay, about 10% of its
		 * time (docs/driver.md); the results do not depend on it */
		"GLIBC_TUNABLES", getenv("GLIBC_TUNABLES") ? getenv("GLIBC_TUNABLES") :
			TSR_MALLOC_TUNABLES,
		/* the replay ends with the last frame asked for */
		"TESSERA_FRAMES", a->frames ? frames_text : NULL,
		"TESSERA_SIMULATE", a->simulate,
		"TESSERA_WARMUP", a->simulate && a->warmup ? warmup_text : NULL,
		"TESSERA_SAMPLE", a->sample,
		"TESSERA_FEATURES", a->features ? "1" : NULL,
		NULL,
	};
	char *argv_replay[] = {"eglretrace", "--headless", (char *)a->trace, NULL};
	const int st = replay(argv_replay, env, a->own_signals, a->said, a->said_n);
	free(ld_path);
	char w[64];
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		return tsr_error_set(err, TSR_ERR_IO, "the replay of capture '%s' failed: "
				     "eglretrace %s", a->trace, tsr_cli_describe_wait(st, w, sizeof(w)));
	*got = -1;
	src[0] = '\0';
	for (unsigned k = 1; k <= 16; k++) {
		char d[PATH_MAX + 32];
		if (k == 1)
			snprintf(d, sizeof(d), "%s", a->out);
		else
			snprintf(d, sizeof(d), "%s/surface-%u", a->out, k);
		const long f = count_frames(d, a->features ? "features.csv" : "frames.csv");
		if (f > *got) {
			*got = f;
			snprintf(src, n, "%s", d);
		}
	}
	return TSR_OK;
}

/*
 * Copies file from into to (written from its start: a file, a FIFO or a
 * device), for a trace that cannot be renamed there (another file system,
 * a FIFO). Errors: TSR_ERR_IO naming the file.
 */
static enum tsr_status copy_file(const char *from, const char *to, struct tsr_error *err)
{
	FILE *in = fopen(from, "rb");
	if (!in)
		return tsr_error_set(err, TSR_ERR_IO, "cannot read '%s': %s", from, strerror(errno));
	FILE *out = fopen(to, "wb");
	if (!out) {
		const int e = errno;
		fclose(in);
		return tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': %s", to, strerror(e));
	}
	char buf[1 << 16];
	size_t n;
	int bad = 0;
	while (!bad && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		bad = fwrite(buf, 1, n, out) != n;
	bad |= ferror(in);
	fclose(in);
	if (fclose(out) || bad)
		return tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': %s", to, strerror(errno));
	return TSR_OK;
}

int tsr_cli_run_capture(const char *trace, const char *config, const char *const *sets,
			size_t nsets, uint32_t frames_arg, const char *out_dir, const char *dump,
			const char *heatmaps, const char *record_cache, const char *record_file,
			int quiet)
{
	return tsr_cli_run_capture_x(trace, config, sets, nsets, frames_arg, out_dir, dump,
				     heatmaps, record_cache, record_file, quiet, NULL);
}

int tsr_cli_run_capture_x(const char *trace, const char *config, const char *const *sets,
			  size_t nsets, uint32_t frames_arg, const char *out_dir, const char *dump,
			  const char *heatmaps, const char *record_cache, const char *record_file,
			  int quiet, const struct tsr_cli_capture_extra *x)
{
	static const struct tsr_cli_capture_extra none = {0};
	if (!x)
		x = &none;
	/* the frames simulated fully, when not all (x->simulate) */
	struct tsr_frame_list sel = {0};
	if (x->simulate) {
		struct tsr_error e;
		if (tsr_frame_list_parse(x->simulate, &sel, &e) != TSR_OK)
			return tsr_cli_usage_error("invalid --frames %s", e.msg);
	}
	/* 1. the configuration, as the driver will read it, before anything runs */
	struct tsr_error err = {{0}};
	char config_path[PATH_MAX], abs_config[PATH_MAX], abs_tmp[PATH_MAX], why[1024];
	struct tsr_gpu_config cfg;
	enum tsr_status s = tsr_cli_load_config(config, sets, nsets, &cfg, config_path,
						sizeof(config_path), &err);
	if (s != TSR_OK)
		return tsr_cli_exit(s, &err);
	/* --heatmaps (TESSERA_HEATMAPS): counters the configuration counts per tile */
	int heat[TSR_HEATMAP_COUNTERS], heat_n = 0;
	if (heatmaps && (tsr_heatmaps_parse(heatmaps, heat, &heat_n, &err) != TSR_OK ||
			 tsr_heatmaps_check(&cfg, heat, heat_n, &err) != TSR_OK))
		return tsr_cli_usage_error("--heatmaps: %s", err.msg);
	/* TESSERA_SET: the overrides one a line */
	struct tsr_text set_text = {0};
	for (size_t i = 0; i < nsets; i++) {
		if (strpbrk(sets[i], ";\n")) {
			tsr_text_release(&set_text);
			return tsr_cli_usage_error("invalid --set '%s': a value cannot hold ';' or a "
						   "newline", sets[i]);
		}
		tsr_text_printf(&set_text, "%s%s", i ? "\n" : "", sets[i]);
	}
	if (tsr_text_status(&set_text, "TESSERA_SET", &err) != TSR_OK)
		return tsr_cli_exit(TSR_ERR_NOMEM, &err);
	/* --record-trace CACHE=FILE (TESSERA_RECORD_TRACE): a cache of the configuration */
	char rec_env[128] = "", rec_name[64] = "";
	if (record_cache) {
		struct tsr_memsys *m = NULL;
		s = tsr_memsys_create(&cfg.mem, &m, &err);
		if (s != TSR_OK) {
			tsr_text_release(&set_text);
			return tsr_cli_exit(s, &err);
		}
		const int found = tsr_memsys_cache_by_name(m, record_cache) != NULL;
		if (!found) {
			fprintf(stderr, "tessera: --record-trace: no cache '%s' (caches: ", record_cache);
			for (uint32_t k = 0; k < tsr_memsys_cache_count(m); k++)
				fprintf(stderr, "%s%s", k ? ", " : "",
					tsr_cache_name(tsr_memsys_cache(m, k)));
			fprintf(stderr, ")\n");
		}
		tsr_memsys_destroy(m);
		if (!found) {
			tsr_text_release(&set_text);
			return EXIT_USAGE;
		}
		tsr_sweep_trace_name(record_cache, rec_name, sizeof(rec_name));
		snprintf(rec_env, sizeof(rec_env), "%s=%s", record_cache, rec_name);
	}

	/* 2. the capture, the tools and the driver */
	int rc = EXIT_RUNTIME;
	char dir[PATH_MAX];
	long trace_frames = 0;
	if (capture_check(trace, dir, &trace_frames, why, sizeof(why))) {
		fprintf(stderr, "tessera: run: %s\n", why);
		goto early;
	}
	uint32_t frames = (uint32_t)trace_frames;
	if (frames_arg && frames_arg < frames)
		frames = frames_arg;
	else if (frames_arg > frames)
		fprintf(stderr, "tessera: warning: capture '%s' holds %u frames: --frames %u "
			"replays those %u\n", trace, frames, frames_arg, frames);
	unsigned char *want = calloc(frames, 1);
	if (!want) {
		tsr_text_release(&set_text);
		return tsr_cli_exit(tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory"), &err);
	}
	rc = tsr_cli_dump_frames_parse(dump, frames, want);
	if (rc) {
		free(want);
		tsr_text_release(&set_text);
		tsr_frame_list_release(&sel);
		return rc;
	}
	/* a selection: only its frames are in the outputs (images included) */
	uint32_t expected = frames;
	if (x->simulate) {
		expected = 0;
		for (uint32_t f = 0; f < frames; f++) {
			want[f] &= tsr_frame_list_has(&sel, f, frames);
			expected += tsr_frame_list_has(&sel, f, frames);
		}
	}

	/* 3. the outputs, declared before the replay (report/report.h) */
	struct tsr_output out;
	s = tsr_output_open(&out, out_dir, &err);
	if (s == TSR_OK)
		s = tsr_run_outputs_plan(&out, frames, want, heat, heat_n, &err);
	if (s == TSR_OK && record_file)
		s = tsr_output_plan(&out, record_file, 0, &err);
	/* the driver's folder: beside the output folder (its trailing '/' cut) */
	char tmp[PATH_MAX];
	size_t dl = strlen(out_dir);
	while (dl > 1 && out_dir[dl - 1] == '/')
		dl--;
	snprintf(tmp, sizeof(tmp), "%.*s.replay-%ld", (int)dl, out_dir, (long)getpid());
	int made_tmp = 0;
	if (s == TSR_OK) {
		if (mkdir(tmp, 0777) == 0)
			made_tmp = 1;
		else
			s = tsr_error_set(&err, TSR_ERR_IO, "cannot create '%s': %s", tmp,
					  strerror(errno));
	}

	/* 4. eglretrace on the driver; 5. the surface the capture swapped */
	const double t0 = tsr_cli_now_seconds();
	char src[PATH_MAX + 32] = "";
	long got = -1;
	if (s == TSR_OK) {
		const struct replay_args ra = {
			.trace = trace, .driver_dir = dir,
			.config = config ? tsr_cli_absolute(config_path, abs_config,
							    sizeof(abs_config)) : NULL,
			.sets = nsets ? set_text.buf : NULL,
			.out = tsr_cli_absolute(tmp, abs_tmp, sizeof(abs_tmp)),
			.dump = dump, .heatmaps = heat_n ? heatmaps : NULL,
			.record = record_cache ? rec_env : NULL,
			.frames = frames < (uint32_t)trace_frames ? frames : 0,
			.simulate = x->simulate, .warmup = x->warmup, .sample = x->sample,
			.features = x->features,
			.own_signals = 1,
		};
		if (!quiet)
			fprintf(stderr, "tessera: replaying %u frame%s of '%s' on tessera (eglretrace)\n",
				frames, frames == 1 ? "" : "s", trace);
		s = replay_capture(&ra, src, sizeof(src), &got, &err);
	}
	/* frames.csv holds the selected frames, features.csv every one */
	const uint32_t rows = x->features ? frames : expected;
	if (s == TSR_OK && got < (long)rows)
		s = tsr_error_set(&err, TSR_ERR_IO, "the replay of capture '%s' rendered %ld of its "
				  "%u frames", trace, got < 0 ? 0 : got, rows);
	/* glReadPixels and CopyTex[Sub]Image2D render a frame of their own
	 * (docs/gles.md): the frames are the device's (a selection names the
	 * device's frames: those past it are fast-forwarded, in no output) */
	if (s == TSR_OK && got > (long)frames && !x->simulate) {
		unsigned char *w = realloc(want, (size_t)got);
		if (!w)
			s = tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory");
		else {
			want = w;
			frames = (uint32_t)got;
			if (tsr_cli_dump_frames_parse(dump, frames, want))
				s = tsr_error_set(&err, TSR_ERR_CONFIG, "--dump-frames '%s'", dump);
		}
	}
	if (s == TSR_OK)
		s = take(&out, src, "stats.json", trace, &err);
	if (s == TSR_OK)
		s = take(&out, src, "frames.csv", trace, &err);
	if (s == TSR_OK && x->features)
		s = take(&out, src, "features.csv", trace, &err);
	for (uint32_t f = 0; s == TSR_OK && f < frames; f++) {
		char name[64];
		snprintf(name, sizeof(name), "frame-%04u.png", f);
		if (want[f])
			s = take(&out, src, name, trace, &err);
		for (int k = 0; s == TSR_OK && want[f] && k < heat_n; k++) {
			tsr_heatmap_file(name, sizeof(name), heat[k], f, "png");
			s = take(&out, src, name, trace, &err);
			tsr_heatmap_file(name, sizeof(name), heat[k], f, "csv");
			if (s == TSR_OK)
				s = take(&out, src, name, trace, &err);
		}
	}
	/* the recorded trace: renamed where the transaction writes it (copied
	 * when that is another file system, a FIFO or a device) */
	if (s == TSR_OK && record_file) {
		const char *where;
		char from[PATH_MAX + 128];
		snprintf(from, sizeof(from), "%s/%s", src, rec_name);
		s = tsr_output_file(&out, record_file, &where, &err);
		struct stat tb;
		const int special = s == TSR_OK && stat(where, &tb) == 0 && !S_ISREG(tb.st_mode);
		if (s == TSR_OK && (special || rename(from, where)))
			s = copy_file(from, where, &err);
	}
	/* the driver's folder goes first: the folders the transaction made
	 * (--out a/b: a and a/b) can then go too on failure */
	if (made_tmp)
		tsr_remove_tree(tmp);
	if (s == TSR_OK)
		s = tsr_output_commit(&out, &err);
	if (s != TSR_OK)
		tsr_output_abort(&out);
	rc = tsr_cli_exit(s, &err);
	if (s == TSR_OK && !quiet) {
		char a[TSR_SHORT_BUF];
		const char *d = tsr_short(out_dir, a, sizeof(a));
		if (x->simulate)
			printf("run: %s: %u frame%s replayed in %.1f s, %u simulated, the others "
			       "fast-forwarded\n", trace, frames, frames == 1 ? "" : "s",
			       tsr_cli_now_seconds() - t0, expected);
		else
			printf("run: %s: %u frame%s replayed in %.1f s\n", trace, frames,
			       frames == 1 ? "" : "s", tsr_cli_now_seconds() - t0);
		printf("wrote %s/stats.json, %s/frames.csv\n", d, d);
	}
	free(want);
	tsr_text_release(&set_text);
	tsr_frame_list_release(&sel);
	return rc;
early:
	tsr_text_release(&set_text);
	tsr_frame_list_release(&sel);
	return rc;
}

/* ---- the experiments' replays (tsr_xp_options.replay) ---- */

/* What capture_check() said of each capture an experiment replays: it is
 * asked once per capture, not once per point. */
#define XP_CAPTURES 64
static struct {
	char path[PATH_MAX];
	char driver_dir[PATH_MAX];
	long frames;
} xp_checked[XP_CAPTURES];
static unsigned xp_checked_n;
static pthread_mutex_t xp_lock = PTHREAD_MUTEX_INITIALIZER;

/* capture_check() of path, once: 0 with its frames and driver folder, or 1 with why. */
static int xp_check(const char *path, long *frames, char *dir, char *why, size_t n)
{
	pthread_mutex_lock(&xp_lock);
	for (unsigned i = 0; i < xp_checked_n; i++)
		if (!strcmp(xp_checked[i].path, path)) {
			*frames = xp_checked[i].frames;
			snprintf(dir, PATH_MAX, "%s", xp_checked[i].driver_dir);
			pthread_mutex_unlock(&xp_lock);
			return 0;
		}
	pthread_mutex_unlock(&xp_lock);
	if (capture_check(path, dir, frames, why, n))
		return 1;
	pthread_mutex_lock(&xp_lock);
	if (xp_checked_n < XP_CAPTURES && strlen(path) < PATH_MAX) {
		snprintf(xp_checked[xp_checked_n].path, PATH_MAX, "%s", path);
		snprintf(xp_checked[xp_checked_n].driver_dir, PATH_MAX, "%s", dir);
		xp_checked[xp_checked_n++].frames = *frames;
	}
	pthread_mutex_unlock(&xp_lock);
	return 0;
}

/* Moves file name from folder from into folder to. */
static enum tsr_status move_file(const char *from, const char *to, const char *name,
				 const char *trace, struct tsr_error *err)
{
	char a[PATH_MAX + 80], b[PATH_MAX + 80];
	snprintf(a, sizeof(a), "%s/%s", from, name);
	snprintf(b, sizeof(b), "%s/%s", to, name);
	if (rename(a, b))
		return tsr_error_set(err, TSR_ERR_IO, "the replay of capture '%s' wrote no '%s': %s",
				     trace, a, strerror(errno));
	return TSR_OK;
}

enum tsr_status tsr_cli_xp_replay(void *ctx, struct tsr_xp_replay *r, struct tsr_error *err)
{
	(void)ctx;
	char dir[PATH_MAX], why[1024];
	long trace_frames = 0;
	if (xp_check(r->capture, &trace_frames, dir, why, sizeof(why)))
		return tsr_error_set(err, TSR_ERR_IO, "%s", why);
	r->capture_frames = (uint32_t)trace_frames;
	if (!r->cfg)
		return TSR_OK;
	/* the configuration as the driver reads it (TESSERA_CONFIG): every key */
	char out[PATH_MAX], cfg_path[PATH_MAX + 16], drv[PATH_MAX + 16], rec[128];
	tsr_cli_absolute(r->out_dir, out, sizeof(out));
	snprintf(cfg_path, sizeof(cfg_path), "%s/config.json", out);
	snprintf(drv, sizeof(drv), "%s/replay", out);
	char *text = tsr_config_json_text(r->cfg);
	if (!text)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	FILE *f = fopen(cfg_path, "w");
	const int ok = f && fputs(text, f) >= 0;
	free(text);
	if (!f || fclose(f) || !ok)
		return tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': %s", cfg_path,
				     strerror(errno));
	char trace_name[64] = "";
	if (r->record_cache) {
		tsr_sweep_trace_name(r->record_cache, trace_name, sizeof(trace_name));
		snprintf(rec, sizeof(rec), "%s=%s", r->record_cache, trace_name);
	}
	if (mkdir(drv, 0777))
		return tsr_error_set(err, TSR_ERR_IO, "cannot create '%s': %s", drv, strerror(errno));
	/* from r->first, or r->select's: the others fast-forwarded (TESSERA_SIMULATE) */
	const uint64_t asked = r->select ? r->select_end
			       : r->frames ? (uint64_t)r->first + r->frames : 0;
	const uint32_t want = asked && asked < (uint64_t)trace_frames
		? (uint32_t)asked : (uint32_t)trace_frames;
	char src[PATH_MAX + 32], said[512] = "", range[48];
	snprintf(range, sizeof(range), "%u-%u", r->first, want ? want - 1 : 0);
	const struct replay_args ra = {
		.trace = r->capture, .driver_dir = dir, .config = cfg_path, .out = drv,
		.dump = "none", .record = r->record_cache ? rec : NULL,
		.frames = want < (uint32_t)trace_frames ? want : 0,
		.simulate = r->select ? r->select : r->first ? range : NULL, .warmup = 0,
		.said = said, .said_n = sizeof(said),
	};
	long got = -1;
	enum tsr_status s = replay_capture(&ra, src, sizeof(src), &got, err);
	/* frames.csv holds the frames simulated (with r->first, not those before) */
	const uint32_t rows = r->select ? r->frames : r->first ? want - r->first : want;
	if (s == TSR_OK && got < (long)rows)
		s = tsr_error_set(err, TSR_ERR_IO, "the replay of capture '%s' rendered %ld of its "
				  "%u frames%s%s", r->capture, got < 0 ? 0 : got, rows,
				  said[0] ? "; the driver said: " : "", said);
	else if (s != TSR_OK && said[0]) {
		char msg[sizeof(err->msg)];
		snprintf(msg, sizeof(msg), "%s", err->msg);
		s = tsr_error_set(err, s, "%s; the driver said: %s", msg, said);
	}
	if (s == TSR_OK)
		s = move_file(src, out, "stats.json", r->capture, err);
	if (s == TSR_OK && r->record_cache)
		s = move_file(src, out, trace_name, r->capture, err);
	tsr_remove_tree(drv);
	return s;
}
