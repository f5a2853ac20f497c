/*
 * child.c - running other programs from the CLI (cli.h): finding one on
 * PATH, running it with extra environment variables and a time limit, the
 * words for how it ended, and the xvfb-run prefix that gives it a private
 * X server, and where tessera's driver is. Shared by `tessera capture`
 * (apitrace on llvmpipe), `tessera exec` (the program on tessera's driver)
 * and `tessera run X.trace` (eglretrace on the driver).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

int tsr_cli_on_path(const char *name)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];
	if (!path)
		path = "/usr/bin:/bin";
	for (const char *p = path; *p;) {
		const char *e = strchr(p, ':');
		const size_t n = e ? (size_t)(e - p) : strlen(p);
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, name);
		if (access(buf, X_OK) == 0)
			return 1;
		p += n + (e != NULL);
	}
	return 0;
}

pid_t tsr_cli_start_program(char *const argv[], const char *const *env, int flags)
{
	fflush(NULL);
	const int own_group = !(flags & TSR_CHILD_STDIO);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (own_group)
			setpgid(0, 0);
		for (size_t i = 0; env && env[i]; i += 2) {
			if (env[i + 1])
				setenv(env[i], env[i + 1], 1);
			else
				unsetenv(env[i]);
		}
		if (!(flags & TSR_CHILD_STDIO)) {
			const int quiet = flags & TSR_CHILD_QUIET;
			int in = open("/dev/null", O_RDONLY);
			if (in >= 0)
				dup2(in, STDIN_FILENO);
			int out = quiet ? open("/dev/null", O_WRONLY) : dup(STDERR_FILENO);
			if (out >= 0)
				dup2(out, STDOUT_FILENO);
			if (quiet && out >= 0)
				dup2(out, STDERR_FILENO);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "tessera: cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (own_group)
		setpgid(pid, pid);
	return pid;
}

int tsr_cli_run_program(char *const argv[], const char *const *env, double seconds, int flags)
{
	const int own_group = !(flags & TSR_CHILD_STDIO);
	const pid_t pid = tsr_cli_start_program(argv, env, flags);
	if (pid < 0)
		return -1;
	/* in the terminal's process group, Ctrl-C reaches the program: tessera
	 * waits for it to end and returns its status */
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
	if (!own_group) {
		sigemptyset(&ign.sa_mask);
		sigaction(SIGINT, &ign, &old_int);
		sigaction(SIGQUIT, &ign, &old_quit);
	}
	const double t0 = tsr_cli_now_seconds();
	int st = 0, interrupted = 0;
	for (;;) {
		pid_t r = waitpid(pid, &st, seconds > 0 && !interrupted ? WNOHANG : 0);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			st = -1;
			break;
		}
		if (seconds > 0 && !interrupted && tsr_cli_now_seconds() - t0 >= seconds) {
			kill(own_group ? -pid : pid, SIGINT);
			interrupted = 1;
		}
		if (r == 0)
			nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
	}
	if (!own_group) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
	}
	return st;
}

const char *tsr_cli_describe_wait(int st, char *buf, size_t n)
{
	if (st < 0)
		snprintf(buf, n, "could not be started");
	else if (WIFEXITED(st))
		snprintf(buf, n, "ended with exit status %d", WEXITSTATUS(st));
	else
		snprintf(buf, n, "was killed by signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	return buf;
}

int tsr_cli_xvfb_prefix(const char **cmd, const char *screen, char *server_args, size_t n)
{
	snprintf(server_args, n, "-screen 0 %sx24", screen);
	cmd[0] = "xvfb-run";
	cmd[1] = "-a";
	cmd[2] = "-s";
	cmd[3] = server_args;
	return 4;
}

const char *tsr_cli_driver_dir(char *buf, size_t n)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			char lib[PATH_MAX + 32];
			snprintf(buf, n, "%s/driver", exe);
			snprintf(lib, sizeof(lib), "%s/libEGL.so.1", buf);
			if (access(lib, R_OK) == 0)
				return buf;
		}
	}
	char lib[PATH_MAX];
	snprintf(buf, n, "%s", TSR_DRIVER_INSTALL_DIR);
	snprintf(lib, sizeof(lib), "%s/libEGL.so.1", buf);
	return access(lib, R_OK) == 0 ? buf : NULL;
}

const char *tsr_cli_vclock_path(char *buf, size_t n)
{
	char dir[PATH_MAX];
	if (!tsr_cli_driver_dir(dir, sizeof(dir)))
		return NULL;
	snprintf(buf, n, "%s/vclock/libtsr_vclock.so", dir);
	return access(buf, R_OK) == 0 ? buf : NULL;
}

const char *tsr_cli_absolute(const char *path, char *buf, size_t n)
{
	char cwd[PATH_MAX];
	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		snprintf(buf, n, "%s", path);
	else
		snprintf(buf, n, "%s/%s", cwd, path);
	return buf;
}
