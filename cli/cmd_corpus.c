/*
 * cmd_corpus.c - `tessera capture --corpus [NAME...] [--data DIR]
 * [--corpus-file FILE] [--list]`: records the captures that
 * captures/corpus.json lists (docs/captures.md, "The corpus"), each with
 * llvmpipe's reference images, into the data folder, skipping those
 * already there; installs the Debian packages an entry needs first
 * (apt-get, as root). And the input driver of `tessera capture --input`:
 * a script of xdotool key presses, pointer moves and clicks and pauses
 * played in the private Xvfb while the program runs.
 *
 * Every capture is `tessera capture` run as a child of this binary with
 * the entry's environment, so that an entry's variables never leak into
 * the next one.
 */
/* nftw() is XSI: the X/Open level that includes POSIX.1-2008 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/datadir.h"
#include "core/files.h"

/* ---- the input script ---- */

static int input_error(char *msg, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int input_error(char *msg, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, n, fmt, ap);
	va_end(ap);
	return -1;
}

size_t tsr_cli_input_frame_steps(const void *script)
{
	const json_t *s = script;
	size_t n = 0;
	for (size_t i = 0; i < json_array_size(s); i++)
		n += !strcmp(json_string_value(json_array_get(json_array_get(s, i), 0)), "frame");
	return n;
}

int tsr_cli_input_check(const void *script, char *msg, size_t n)
{
	const json_t *s = script;
	json_int_t last_frame = 0;
	size_t frame_steps = 0;
	if (!json_is_array(s))
		return input_error(msg, n, "an input script is an array of steps "
				   "([\"key\", \"space\"], [\"sleep\", 0.5], ...)");
	for (size_t i = 0; i < json_array_size(s); i++) {
		const json_t *st = json_array_get(s, i);
		const json_t *verb = json_array_get(st, 0);
		if (!json_is_array(st) || !json_is_string(verb))
			return input_error(msg, n, "input step %zu is not an array whose first item "
					   "is a verb (key, keydown, keyup, mousemove, click, sleep, "
					   "wait-window, frame)", i + 1);
		const char *v = json_string_value(verb);
		const size_t args = json_array_size(st) - 1;
		if (!strcmp(v, "sleep")) {
			const json_t *t = json_array_get(st, 1);
			if (args != 1 || !json_is_number(t) || !(json_number_value(t) >= 0) ||
			    json_number_value(t) > 3600)
				return input_error(msg, n, "input step %zu: \"sleep\" takes one number "
						   "of seconds (0 to 3600)", i + 1);
		} else if (!strcmp(v, "key") || !strcmp(v, "keydown") || !strcmp(v, "keyup")) {
			if (args < 1 || args > 8)
				return input_error(msg, n, "input step %zu: \"%s\" takes 1 to 8 key "
						   "names (xdotool's: space, Right, ctrl+q)", i + 1, v);
			for (size_t k = 1; k <= args; k++) {
				const char *key = json_string_value(json_array_get(st, k));
				if (!key || !key[0] || key[0] == '-' || strlen(key) > 64)
					return input_error(msg, n, "input step %zu: key %zu is not a "
							   "key name", i + 1, k);
			}
		} else if (!strcmp(v, "mousemove")) {
			/* whole pixels of the screen, from its top left corner */
			const json_t *x = json_array_get(st, 1), *y = json_array_get(st, 2);
			if (args != 2 || !json_is_integer(x) || !json_is_integer(y) ||
			    json_integer_value(x) < 0 || json_integer_value(x) > 32767 ||
			    json_integer_value(y) < 0 || json_integer_value(y) > 32767)
				return input_error(msg, n, "input step %zu: \"mousemove\" takes two "
						   "whole numbers X Y (pixels, 0 to 32767)", i + 1);
		} else if (!strcmp(v, "click")) {
			const json_t *b = json_array_get(st, 1);
			if (args != 1 || !json_is_integer(b) || json_integer_value(b) < 1 ||
			    json_integer_value(b) > 9)
				return input_error(msg, n, "input step %zu: \"click\" takes one "
						   "button number (1 left, 2 middle, 3 right; 1 to 9)",
						   i + 1);
		} else if (!strcmp(v, "frame")) {
			const json_t *f = json_array_get(st, 1);
			if (args != 1 || !json_is_integer(f) || json_integer_value(f) <= last_frame ||
			    json_integer_value(f) > 1000000)
				return input_error(msg, n, "input step %zu: \"frame\" takes one frame "
						   "count, above the last step's (1 to 1000000)", i + 1);
			last_frame = json_integer_value(f);
			if (++frame_steps > 4096)  /* driver/vclock.c's MAX_STOPS */
				return input_error(msg, n, "input step %zu: more than 4096 \"frame\" "
						   "steps", i + 1);
		} else if (!strcmp(v, "wait-window")) {
			const char *w = json_string_value(json_array_get(st, 1));
			if (args != 1 || !w || !w[0] || strlen(w) > 128)
				return input_error(msg, n, "input step %zu: \"wait-window\" takes one "
						   "window name (a regular expression)", i + 1);
		} else {
			return input_error(msg, n, "input step %zu: unknown verb '%s' (key, keydown, "
					   "keyup, mousemove, click, sleep, wait-window, frame)", i + 1,
					   v);
		}
	}
	return 0;
}

/* Sleeps t seconds, or until child pid ends (then 1, its status in *st). */
static int sleep_watching(double t, pid_t pid, int *st)
{
	const double t0 = tsr_cli_now_seconds();
	for (;;) {
		if (waitpid(pid, st, WNOHANG) == pid)
			return 1;
		const double left = t - (tsr_cli_now_seconds() - t0);
		if (left <= 0)
			return 0;
		const double d = left < 0.01 ? left : 0.01;
		nanosleep(&(struct timespec){0, (long)(d * 1e9)}, NULL);
	}
}

/*
 * The lockstep with the virtual clock (driver/vclock.c): the program stops
 * after presenting each frame a "frame" step names, writes that frame
 * count (8 bytes) on one pipe and waits for a byte on the other.
 */
struct lockstep {
	int to_prog;    /* write end: a byte lets the program go on; -1: no lockstep */
	int from_prog;  /* read end: the frame counts it stopped at */
	int held;       /* the program waits for the byte */
	char fds[32];   /* TSR_VCLOCK_FD's value: the program's ends */
	char *stops;    /* TSR_VCLOCK_STOPS's value */
};

/* Pipes and variables for the "frame" steps of script (none: to_prog -1);
 * -1 when they cannot be made. */
static int lockstep_open(struct lockstep *l, const json_t *script, int prog_fds[2])
{
	memset(l, 0, sizeof(*l));
	l->to_prog = l->from_prog = prog_fds[0] = prog_fds[1] = -1;
	const size_t n = tsr_cli_input_frame_steps(script);
	if (!n)
		return 0;
	if (!(l->stops = calloc(n, 24)))
		return -1;
	for (size_t i = 0, k = 0; i < json_array_size(script); i++) {
		const json_t *st = json_array_get(script, i);
		if (strcmp(json_string_value(json_array_get(st, 0)), "frame"))
			continue;
		k += (size_t)sprintf(l->stops + k, "%s%lld", k ? "," : "",
				     (long long)json_integer_value(json_array_get(st, 1)));
	}
	int down[2], up[2];  /* driver -> program, program -> driver */
	if (pipe(down))
		return -1;
	if (pipe(up)) {
		close(down[0]);
		close(down[1]);
		return -1;
	}
	/* the driver's ends stay out of the program (and of apitrace) */
	fcntl(down[1], F_SETFD, FD_CLOEXEC);
	fcntl(up[0], F_SETFD, FD_CLOEXEC);
	l->to_prog = down[1];
	l->from_prog = up[0];
	prog_fds[0] = down[0];
	prog_fds[1] = up[1];
	snprintf(l->fds, sizeof(l->fds), "%d,%d", down[0], up[1]);
	return 0;
}

/* Lets a held program go on. */
static void lockstep_release(struct lockstep *l)
{
	if (l->held) {
		ssize_t w;
		do
			w = write(l->to_prog, "g", 1);
		while (w < 0 && errno == EINTR);
		l->held = 0;
	}
}

/* Lets the program go on to frame count n and waits until it stops there
 * (0) or ends (1, its wait status in *st). */
static int lockstep_wait(struct lockstep *l, long long n, pid_t pid, int *st)
{
	lockstep_release(l);
	for (;;) {
		struct pollfd p = {l->from_prog, POLLIN, 0};
		if (poll(&p, 1, 100) > 0) {
			uint64_t got;
			const ssize_t k = read(l->from_prog, &got, sizeof(got));
			if (k == (ssize_t)sizeof(got) && got == (uint64_t)n) {
				l->held = 1;
				return 0;
			}
			if (k == 0)  /* the program is gone: no busy wait for its end */
				nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
		}
		if (waitpid(pid, st, WNOHANG) == pid)
			return 1;
	}
}

int tsr_cli_drive_input(const char *file, char **argv)
{
	json_error_t je;
	json_t *script = json_load_file(file, 0, &je);
	char msg[256];
	if (!script || tsr_cli_input_check(script, msg, sizeof(msg))) {
		fprintf(stderr, "tessera: %s: %s\n", file, script ? msg : je.text);
		json_decref(script);
		return EXIT_RUNTIME;
	}
	struct lockstep lock;
	int prog_fds[2];
	if (lockstep_open(&lock, script, prog_fds)) {
		fprintf(stderr, "tessera: input of %s: cannot make the virtual clock's pipes: %s\n",
			file, strerror(errno));
		free(lock.stops);
		json_decref(script);
		return EXIT_RUNTIME;
	}
	const char *env[] = {"TSR_VCLOCK_FD", lock.fds, "TSR_VCLOCK_STOPS", lock.stops, NULL};
	const pid_t pid = tsr_cli_start_program(argv, lock.stops ? env : NULL, TSR_CHILD_STDIO);
	if (prog_fds[0] >= 0) {
		close(prog_fds[0]);
		close(prog_fds[1]);
	}
	if (pid < 0) {
		if (lock.stops) {
			close(lock.to_prog);
			close(lock.from_prog);
		}
		free(lock.stops);
		json_decref(script);
		return EXIT_RUNTIME;
	}
	/* a program that ended leaves the pipe without a reader */
	signal(SIGPIPE, SIG_IGN);
	/* the SIGINT that ends a --seconds capture reaches the program (the
	 * same process group) and this driver: the driver waits for the
	 * program to finish its trace */
	signal(SIGINT, SIG_IGN);
	int st = 0, ended = 0;
	for (size_t i = 0; i < json_array_size(script) && !ended; i++) {
		const json_t *step = json_array_get(script, i);
		const char *v = json_string_value(json_array_get(step, 0));
		if (!strcmp(v, "sleep")) {
			ended = sleep_watching(json_number_value(json_array_get(step, 1)), pid, &st);
			continue;
		}
		if (!strcmp(v, "frame")) {
			ended = lockstep_wait(&lock, json_integer_value(json_array_get(step, 1)), pid,
					      &st);
			continue;
		}
		char *cmd[16] = {"xdotool", (char *)v};
		size_t k = 2;
		char num[2][24];
		size_t nums = 0;
		if (!strcmp(v, "wait-window")) {
			/* blocks until a window of that name is shown; in this
			 * process group, so that the SIGINT of --seconds ends it */
			cmd[1] = "search";
			cmd[k++] = "--sync";
			cmd[k++] = "--onlyvisible";
			cmd[k++] = "--name";
		}
		for (size_t a = 1; a < json_array_size(step); a++) {
			const json_t *arg = json_array_get(step, a);
			if (json_is_integer(arg) && nums < 2) {
				/* mousemove's X Y, click's button: checked above */
				snprintf(num[nums], sizeof(num[0]), "%lld",
					 (long long)json_integer_value(arg));
				cmd[k++] = num[nums++];
			} else {
				cmd[k++] = (char *)json_string_value(arg);
			}
		}
		cmd[k] = NULL;
		const int xs = tsr_cli_run_program(cmd, NULL, 0, TSR_CHILD_STDIO);
		if (xs < 0 || !WIFEXITED(xs) || WEXITSTATUS(xs))
			fprintf(stderr, "tessera: input step %zu: xdotool %s failed\n", i + 1, v);
		ended = waitpid(pid, &st, WNOHANG) == pid;
	}
	json_decref(script);
	if (lock.stops) {  /* the end of the script: the program runs on freely */
		lockstep_release(&lock);
		close(lock.to_prog);
		close(lock.from_prog);
		free(lock.stops);
	}
	while (!ended) {
		const pid_t r = waitpid(pid, &st, 0);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return EXIT_RUNTIME;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* ---- corpus.json ---- */

struct entry {
	const char *name;
	const json_t *packages, *args, *env, *input;
	const char *program, *screen, *drive;
	long first, last;   /* frames kept: 0..last (first: where the session
			       proper starts; -1 when not given) */
	double seconds;
	double vclock;      /* frames per second of the virtual clock; 0: the real clock */
};

static int known_key(const char *k, const char *const *keys)
{
	for (size_t i = 0; keys[i]; i++)
		if (!strcmp(k, keys[i]))
			return 1;
	return 0;
}

static int strings_array(const json_t *a)
{
	if (!json_is_array(a))
		return 0;
	for (size_t i = 0; i < json_array_size(a); i++)
		if (!json_is_string(json_array_get(a, i)))
			return 0;
	return 1;
}

/* Checks entry i (e) and fills *out; 0, or -1 with the message in msg. */
static int parse_entry(const json_t *e, size_t i, struct entry *out, char *msg, size_t n)
{
	static const char *const keys[] = {"name",   "about", "packages", "program", "args",
					   "env",    "screen", "frames", "drive",  "input",
					   "seconds", "vclock", NULL};
	char who[96];
	const char *name = json_string_value(json_object_get(e, "name"));
	if (!json_is_object(e))
		return input_error(msg, n, "entry %zu is not an object", i + 1);
	snprintf(who, sizeof(who), "entry %zu%s%.40s%s", i + 1, name ? " ('" : "", name ? name : "",
		 name ? "')" : "");
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)e, k, v)
		if (!known_key(k, keys))
			return input_error(msg, n, "%s: unknown key '%s' (name, about, packages, "
					   "program, args, env, screen, frames, drive, input, seconds, "
					   "vclock)",
					   who, k);
	memset(out, 0, sizeof(*out));
	if (!name || !name[0] || strlen(name) > 64 ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-_.") != strlen(name) || name[0] == '.')
		return input_error(msg, n, "%s: key 'name' must be a string of a-z, 0-9, '-', '_', "
				   "'.' (at most 64)", who);
	out->name = name;
	if ((v = json_object_get(e, "about")) && !json_is_string(v))
		return input_error(msg, n, "%s: key 'about' must be a string", who);
	out->packages = json_object_get(e, "packages");
	if (out->packages && !strings_array(out->packages))
		return input_error(msg, n, "%s: key 'packages' must be an array of Debian package "
				   "names", who);
	for (size_t p = 0; out->packages && p < json_array_size(out->packages); p++) {
		const char *pk = json_string_value(json_array_get(out->packages, p));
		if (!pk[0] || strspn(pk, "abcdefghijklmnopqrstuvwxyz0123456789+-.") != strlen(pk))
			return input_error(msg, n, "%s: key 'packages': '%s' is not a Debian package "
					   "name", who, pk);
	}
	out->program = json_string_value(json_object_get(e, "program"));
	if (!out->program || !out->program[0])
		return input_error(msg, n, "%s: key 'program' (a string) is missing", who);
	out->args = json_object_get(e, "args");
	if (out->args && !strings_array(out->args))
		return input_error(msg, n, "%s: key 'args' must be an array of strings", who);
	out->env = json_object_get(e, "env");
	if (out->env) {
		if (!json_is_object(out->env))
			return input_error(msg, n, "%s: key 'env' must be an object of strings", who);
		json_object_foreach((json_t *)out->env, k, v)
			if (!json_is_string(v) || !k[0] || strchr(k, '='))
				return input_error(msg, n, "%s: key 'env': '%s' must be a variable "
						   "name with a string value", who, k);
	}
	out->screen = json_string_value(json_object_get(e, "screen"));
	unsigned w, h;
	char x, extra;
	if (!out->screen || sscanf(out->screen, "%u%c%u%c", &w, &x, &h, &extra) != 3 || x != 'x' ||
	    !w || !h || w > 16384 || h > 16384)
		return input_error(msg, n, "%s: key 'screen' must be \"WIDTHxHEIGHT\"", who);
	out->first = out->last = -1;
	if ((v = json_object_get(e, "frames"))) {
		const json_t *a = json_array_get(v, 0), *b = json_array_get(v, 1);
		if (json_array_size(v) != 2 || !json_is_integer(a) || !json_is_integer(b) ||
		    json_integer_value(a) < 0 || json_integer_value(b) < json_integer_value(a) ||
		    json_integer_value(b) > 1000000)
			return input_error(msg, n, "%s: key 'frames' must be [FIRST, LAST], frame "
					   "numbers from 0 with FIRST <= LAST", who);
		out->first = (long)json_integer_value(a);
		out->last = (long)json_integer_value(b);
	}
	out->drive = json_string_value(json_object_get(e, "drive"));
	if (!out->drive || (strcmp(out->drive, "none") && strcmp(out->drive, "arguments") &&
			    strcmp(out->drive, "input")))
		return input_error(msg, n, "%s: key 'drive' must be \"none\", \"arguments\" "
				   "(command-line, demo or replay modes) or \"input\"", who);
	out->input = json_object_get(e, "input");
	if (!strcmp(out->drive, "input") != (out->input != NULL))
		return input_error(msg, n, "%s: key 'input' is %s", who,
				   out->input ? "only for \"drive\": \"input\""
					      : "missing (\"drive\": \"input\" needs it)");
	if (out->input) {
		char m[200];
		if (tsr_cli_input_check(out->input, m, sizeof(m)))
			return input_error(msg, n, "%s: key 'input': %s", who, m);
	}
	if ((v = json_object_get(e, "seconds"))) {
		if (!json_is_number(v) || !(json_number_value(v) > 0) || json_number_value(v) > 86400)
			return input_error(msg, n, "%s: key 'seconds' must be a positive number", who);
		out->seconds = json_number_value(v);
	}
	if ((v = json_object_get(e, "vclock"))) {
		if (!json_is_number(v) || !(json_number_value(v) >= 1) || json_number_value(v) > 1000)
			return input_error(msg, n, "%s: key 'vclock' must be frames per second of "
					   "the virtual clock (1 to 1000)", who);
		out->vclock = json_number_value(v);
	}
	if (out->input && tsr_cli_input_frame_steps(out->input) && !out->vclock)
		return input_error(msg, n, "%s: key 'input' has \"frame\" steps, which need "
				   "key 'vclock'", who);
	if (out->input && !out->seconds)
		return input_error(msg, n, "%s: key 'seconds' is missing (\"drive\": \"input\" "
				   "needs it)", who);
	return 0;
}

const char *tsr_cli_corpus_dir(char *buf, size_t n)
{
	const char *x = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	if (x && x[0] == '/')
		snprintf(buf, n, "%s/tessera/corpus", x);
	else
		snprintf(buf, n, "%s/.local/share/tessera/corpus", home ? home : "/tmp");
	return buf;
}

static int is_file(const char *p);

int tsr_cli_corpus_present(char ***paths, size_t *n)
{
	*paths = NULL;
	*n = 0;
	char file[PATH_MAX], data[PATH_MAX], msg[600];
	struct tsr_error err = {{0}};
	if (tsr_data_path("captures/corpus.json", file, sizeof(file), &err) != TSR_OK)
		return 0;  /* no corpus list: none */
	void *root = NULL, *ev = NULL;
	size_t count = 0;
	int rc = 0;
	tsr_cli_corpus_dir(data, sizeof(data));
	if (!tsr_cli_corpus_load(file, &root, &ev, &count, msg, sizeof(msg))) {
		const struct entry *e = ev;
		*paths = calloc(count ? count : 1, sizeof(**paths));
		rc = *paths ? 0 : -1;
		for (size_t i = 0; !rc && i < count; i++) {
			char trace[PATH_MAX];
			snprintf(trace, sizeof(trace), "%s/%s.trace", data, e[i].name);
			if (!is_file(trace))
				continue;
			if (!((*paths)[*n] = strdup(trace)))
				rc = -1;
			else
				++*n;
		}
	}
	free(ev);
	json_decref(root);
	if (rc) {
		tsr_cli_corpus_free(*paths, *n);
		*paths = NULL;
		*n = 0;
	}
	return rc;
}

int tsr_cli_corpus_session(const char *path, uint32_t *first)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const size_t len = strlen(base);
	char file[PATH_MAX], msg[600];
	struct tsr_error err = {{0}};
	if (len <= 6 || strcmp(base + len - 6, ".trace") ||
	    tsr_data_path("captures/corpus.json", file, sizeof(file), &err) != TSR_OK)
		return 0;
	void *root = NULL, *ev = NULL;
	size_t count = 0;
	int found = 0;
	if (!tsr_cli_corpus_load(file, &root, &ev, &count, msg, sizeof(msg))) {
		const struct entry *e = ev;
		for (size_t i = 0; !found && i < count; i++)
			if (strlen(e[i].name) == len - 6 && !strncmp(e[i].name, base, len - 6) &&
			    e[i].first >= 0) {
				*first = (uint32_t)e[i].first;
				found = 1;
			}
	}
	free(ev);
	json_decref(root);
	return found;
}

void tsr_cli_corpus_free(char **paths, size_t n)
{
	for (size_t i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
}

int tsr_cli_corpus_load(const char *path, void **root, void **entries, size_t *count,
			char *msg, size_t n)
{
	json_error_t je;
	json_t *j = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	*root = j;
	*count = 0;
	if (!j)
		return input_error(msg, n, "%s:%d: %s", path, je.line, je.text);
	const char *k;
	const json_t *v;
	json_object_foreach(j, k, v)
		if (strcmp(k, "entries") && strcmp(k, "about"))
			return input_error(msg, n, "%s: unknown key '%s' (about, entries)", path, k);
	const json_t *es = json_object_get(j, "entries");
	if (!json_is_array(es) || !json_array_size(es))
		return input_error(msg, n, "%s: key 'entries' (an array of entries) is missing or "
				   "empty", path);
	struct entry *e = calloc(json_array_size(es), sizeof(*e));
	if (!e)
		return input_error(msg, n, "out of memory");
	*entries = e;
	for (size_t i = 0; i < json_array_size(es); i++) {
		char m[400];
		if (parse_entry(json_array_get(es, i), i, &e[i], m, sizeof(m)))
			return input_error(msg, n, "%s: %s", path, m);
		for (size_t j2 = 0; j2 < i; j2++)
			if (!strcmp(e[j2].name, e[i].name))
				return input_error(msg, n, "%s: entry %zu: name '%s' is also entry "
						   "%zu's", path, i + 1, e[i].name, j2 + 1);
		*count = i + 1;
	}
	return 0;
}

/* ---- recording ---- */

static int package_installed(const char *p)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd),
		 "dpkg-query -W -f='${Status}' '%s' 2>/dev/null | grep -q 'install ok installed'", p);
	return system(cmd) == 0;
}

/* Installs the packages of e that are missing (and xdotool, which plays
 * an input script); 0, or the exit code. */
static int install_packages(const struct entry *e)
{
	const size_t np = json_array_size(e->packages) + (e->input != NULL);
	char **missing = calloc(np + 8, sizeof(*missing));
	if (!missing)
		return EXIT_RUNTIME;
	size_t k = 0;
	missing[k++] = "apt-get";
	missing[k++] = "install";
	missing[k++] = "-y";
	missing[k++] = "-qq";
	missing[k++] = "--no-install-recommends";
	const size_t base = k;
	char list[1024] = "";
	for (size_t i = 0; i < np; i++) {
		const char *p = i < json_array_size(e->packages)
					? json_string_value(json_array_get(e->packages, i))
					: "xdotool";
		if (!package_installed(p)) {
			missing[k++] = (char *)p;
			size_t l = strlen(list);
			snprintf(list + l, sizeof(list) - l, "%s%s", l ? " " : "", p);
		}
	}
	int rc = 0;
	if (k > base) {
		if (geteuid() != 0) {
			fprintf(stderr, "tessera: corpus: %s needs Debian packages that are not "
				"installed, and installing them needs root: apt-get install %s\n",
				e->name, list);
			rc = EXIT_RUNTIME;
		} else {
			printf("corpus: %s: installing %s\n", e->name, list);
			static const char *const env[] = {"DEBIAN_FRONTEND", "noninteractive", NULL};
			int st = tsr_cli_run_program(missing, env, 0, TSR_CHILD_QUIET);
			if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
				char *upd[] = {"apt-get", "update", "-qq", NULL};
				tsr_cli_run_program(upd, env, 0, TSR_CHILD_QUIET);
				st = tsr_cli_run_program(missing, env, 0, TSR_CHILD_QUIET);
			}
			if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
				fprintf(stderr, "tessera: corpus: %s: apt-get install %s failed\n",
					e->name, list);
				rc = EXIT_RUNTIME;
			}
		}
	}
	free(missing);
	return rc;
}

static int is_dir(const char *p)
{
	struct stat sb;
	return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int is_file(const char *p)
{
	struct stat sb;
	return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* Bytes of path and everything under it. */
static unsigned long long tree_bytes;
static int add_bytes(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
	(void)p;
	(void)f;
	if (flag == FTW_F)
		tree_bytes += (unsigned long long)sb->st_size;
	return 0;
}

/* mkdir -p */
static int make_dirs(const char *path)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *s = buf + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(buf, 0777) && errno != EEXIST)
				return -1;
			*s = '/';
		}
	return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

/* Records entry e into data (DATA/NAME.trace, DATA/NAME/frame-NNNN.png);
 * 0, or the exit code. */
static int record(const struct entry *e, const char *data, int quiet)
{
	char trace[PATH_MAX], ref[PATH_MAX], tmp[PATH_MAX], input[PATH_MAX + 16];
	snprintf(trace, sizeof(trace), "%s/%s.trace", data, e->name);
	snprintf(ref, sizeof(ref), "%s/%s", data, e->name);
	if (is_dir(ref) && !is_file(trace)) {
		/* a capture that stopped between its two renames */
		fprintf(stderr, "tessera: corpus: %s: removing %s (no trace beside it)\n", e->name,
			ref);
		tsr_remove_tree(ref);
	}
	int rc = install_packages(e);
	if (rc)
		return rc;
	/* {tmp} in the environment: a fresh folder per capture (the game's
	 * settings and saves start from nothing every time) */
	snprintf(tmp, sizeof(tmp), "%s/tsr-corpus-%s-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", e->name);
	if (!mkdtemp(tmp)) {
		fprintf(stderr, "tessera: corpus: cannot create a temporary folder: %s\n",
			strerror(errno));
		return EXIT_RUNTIME;
	}
	const size_t nenv = json_object_size(e->env);
	const char **env = calloc(2 * nenv + 1, sizeof(*env));
	char **vals = calloc(nenv + 1, sizeof(*vals));
	const size_t nargs = json_array_size(e->args);
	char **argv = calloc(nargs + 24, sizeof(*argv));
	char frames[32], seconds[32], fps[32], self[PATH_MAX];
	rc = EXIT_RUNTIME;
	if (!env || !vals || !argv)
		goto out;
	size_t k = 0;
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)e->env, key, v) {
		const char *s = json_string_value(v);
		const char *at = strstr(s, "{tmp}");
		char *val = malloc(strlen(s) + strlen(tmp) + 1);
		if (!val)
			goto out;
		if (at)
			sprintf(val, "%.*s%s%s", (int)(at - s), s, tmp, at + 5);
		else
			strcpy(val, s);
		vals[k / 2] = val;
		env[k++] = key;
		env[k++] = val;
	}
	env[k] = NULL;
	const ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0)
		goto out;
	self[len] = '\0';
	k = 0;
	argv[k++] = self;
	argv[k++] = "capture";
	argv[k++] = "--out";
	argv[k++] = trace;
	argv[k++] = "--reference";
	argv[k++] = ref;
	argv[k++] = "--screen";
	argv[k++] = (char *)e->screen;
	if (quiet)
		argv[k++] = "--quiet";
	if (e->last >= 0) {
		snprintf(frames, sizeof(frames), "%ld", e->last + 1);
		argv[k++] = "--frames";
		argv[k++] = frames;
	}
	if (e->seconds > 0) {
		snprintf(seconds, sizeof(seconds), "%g", e->seconds);
		argv[k++] = "--seconds";
		argv[k++] = seconds;
	}
	if (e->vclock > 0) {
		snprintf(fps, sizeof(fps), "%g", e->vclock);
		argv[k++] = "--vclock";
		argv[k++] = fps;
	}
	if (e->input) {
		snprintf(input, sizeof(input), "%s/input.json", tmp);
		if (json_dump_file(e->input, input, JSON_COMPACT)) {
			fprintf(stderr, "tessera: corpus: cannot write %s\n", input);
			goto out;
		}
		argv[k++] = "--input";
		argv[k++] = input;
	}
	argv[k++] = "--";
	argv[k++] = (char *)e->program;
	for (size_t i = 0; i < nargs; i++)
		argv[k++] = (char *)json_string_value(json_array_get(e->args, i));
	argv[k] = NULL;
	printf("corpus: %s: recording %s%s%s%s\n", e->name, e->program,
	       e->seconds > 0 ? " for " : "", e->seconds > 0 ? seconds : "",
	       e->seconds > 0 ? " s" : "");
	const double t0 = tsr_cli_now_seconds();
	int st = tsr_cli_run_program(argv, env, 0, TSR_CHILD_STDIO);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		char why[64];
		fprintf(stderr, "tessera: corpus: %s: the capture %s\n", e->name,
			tsr_cli_describe_wait(st, why, sizeof(why)));
		goto out;
	}
	const long n = tsr_cli_trace_frames(trace);
	if (e->last >= 0 && n != e->last + 1) {
		fprintf(stderr, "tessera: corpus: %s: the program drew %ld frames, the entry keeps "
			"frames up to %ld: removed (give it more 'seconds' or fewer 'frames')\n",
			e->name, n, e->last);
		unlink(trace);
		tsr_remove_tree(ref);
		goto out;
	}
	tree_bytes = 0;
	nftw(ref, add_bytes, 16, FTW_PHYS);
	struct stat sb;
	const unsigned long long refb = tree_bytes;
	const unsigned long long trb = stat(trace, &sb) == 0 ? (unsigned long long)sb.st_size : 0;
	printf("corpus: %s: %ld frames in %.1f s: %s (%.1f MB), %s/ (%.1f MB)\n", e->name, n,
	       tsr_cli_now_seconds() - t0, trace, trb / 1e6, ref, refb / 1e6);
	rc = 0;
out:
	for (size_t i = 0; vals && i < nenv; i++)
		free(vals[i]);
	free(vals);
	free(env);
	free(argv);
	tsr_remove_tree(tmp);
	return rc;
}

static void corpus_usage(FILE *f)
{
	fprintf(f,
		"usage: tessera capture --corpus [NAME...] [--data DIR] [--corpus-file FILE]\n"
		"                       [--list] [--verbose]\n\n"
		"Records the captures captures/corpus.json lists (all, or those named), each\n"
		"with llvmpipe's images, as DIR/NAME.trace and DIR/NAME/frame-NNNN.png;\n"
		"skips those present; installs an entry's missing Debian packages first\n"
		"(apt-get, as root). docs/captures.md, \"The corpus\".\n\n"
		"  --data DIR         where the captures go (default $XDG_DATA_HOME/tessera/corpus,\n"
		"                     ~/.local/share/tessera/corpus without XDG_DATA_HOME)\n"
		"  --corpus-file FILE the corpus (default: the shipped captures/corpus.json)\n"
		"  --list             check the corpus and list its entries, record nothing\n"
		"  --verbose          the programs' output on standard error\n");
}

int tsr_cli_capture_corpus(int argc, char **argv)
{
	const char *data = NULL, *file = NULL;
	int list = 0, verbose = 0;
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"corpus", no_argument, NULL, 'c'},
		{"data", required_argument, NULL, 'd'},
		{"corpus-file", required_argument, NULL, 'f'},
		{"list", no_argument, NULL, 'l'},
		{"verbose", no_argument, NULL, 'v'},
		{NULL, 0, NULL, 0},
	};
	int c;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			corpus_usage(stdout);
			return 0;
		case 'c':
			break;
		case 'd':
			data = optarg;
			break;
		case 'f':
			file = optarg;
			break;
		case 'l':
			list = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			return tsr_cli_getopt_error("capture --corpus", c, argv);
		}
	}
	char path[PATH_MAX], msg[600];
	if (!file) {
		struct tsr_error err = {{0}};
		if (tsr_data_path("captures/corpus.json", path, sizeof(path), &err) != TSR_OK) {
			fprintf(stderr, "tessera: %s\n", err.msg);
			return EXIT_RUNTIME;
		}
		file = path;
	}
	void *root = NULL, *ev = NULL;
	size_t count = 0;
	int rc = 0;
	if (tsr_cli_corpus_load(file, &root, &ev, &count, msg, sizeof(msg))) {
		fprintf(stderr, "tessera: %s\n", msg);
		rc = EXIT_USAGE;
		goto out;
	}
	struct entry *e = ev;
	unsigned char *want = calloc(count, 1);
	if (!want) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	for (int i = optind; i < argc; i++) {
		size_t j = 0;
		while (j < count && strcmp(e[j].name, argv[i]))
			j++;
		if (j == count) {
			fprintf(stderr, "tessera: corpus: no entry '%s' in %s (--list lists them)\n",
				argv[i], file);
			free(want);
			rc = EXIT_USAGE;
			goto out;
		}
		want[j] = 1;
	}
	if (optind == argc)
		memset(want, 1, count);
	char dbuf[PATH_MAX];
	if (!data)
		data = tsr_cli_corpus_dir(dbuf, sizeof(dbuf));
	if (list) {
		for (size_t i = 0; i < count; i++) {
			if (!want[i])
				continue;
			char trace[PATH_MAX];
			snprintf(trace, sizeof(trace), "%s/%s.trace", data, e[i].name);
			printf("%-16s %-9s %-9s", e[i].name, e[i].screen, e[i].drive);
			if (e[i].last >= 0)
				printf(" frames %ld-%ld", e[i].first, e[i].last);
			if (e[i].seconds > 0)
				printf(" %gs", e[i].seconds);
			if (e[i].vclock > 0)
				printf(" vclock %g", e[i].vclock);
			printf("%s\n", is_file(trace) ? " (present)" : "");
		}
		free(want);
		goto out;
	}
	if (make_dirs(data)) {
		fprintf(stderr, "tessera: corpus: cannot create '%s': %s\n", data, strerror(errno));
		free(want);
		rc = EXIT_RUNTIME;
		goto out;
	}
	unsigned done = 0, skipped = 0, failed = 0;
	const double t0 = tsr_cli_now_seconds();
	for (size_t i = 0; i < count; i++) {
		if (!want[i])
			continue;
		char trace[PATH_MAX], ref[PATH_MAX];
		snprintf(trace, sizeof(trace), "%s/%s.trace", data, e[i].name);
		snprintf(ref, sizeof(ref), "%s/%s", data, e[i].name);
		if (is_file(trace) && is_dir(ref)) {
			printf("corpus: %s: present, skipped\n", e[i].name);
			skipped++;
			continue;
		}
		if (record(&e[i], data, !verbose))
			failed++;
		else
			done++;
	}
	printf("corpus: %u recorded, %u present, %u failed in %.1f s (%s)\n", done, skipped, failed,
	       tsr_cli_now_seconds() - t0, data);
	rc = failed ? EXIT_RUNTIME : 0;
	free(want);
out:
	free(ev);
	json_decref(root);
	return rc;
}
