/* realpath() is XSI: the X/Open level that includes POSIX.1-2008 */
#define _XOPEN_SOURCE 700

/*
 * cmd_sweep_slurm.c - `tessera sweep SPEC --slurm`: the sweep as a Slurm
 * job array. Each array task runs `tessera sweep SPEC --task I --chunk K`,
 * the same resumable runner as a local sweep, on its share of the points;
 * `tessera sweep SPEC --collect` aggregates once they are done.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/sweep_cli.h"
#include "sweep/sweep.h"

/* s in single quotes for bash ('\'' for a quote). */
static void sh_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

/* The comment block: what the script is and how to use it on a real cluster. */
static void script_comment(FILE *f, const struct tsr_sweep *sw, size_t tasks,
			   const struct tsr_sweep_opts *o, const char *spec)
{
	fprintf(f,
		"#!/bin/bash\n"
		"# Slurm job array of tessera sweep '%s': %zu points, %zu per task, %zu tasks.\n"
		"# Written by `tessera sweep %s --slurm`; submit it with\n"
		"#     sbatch %s/sweep.sbatch\n"
		"# Each task runs its points with the sweep's resumable logic: submitting\n"
		"# again runs only the points that are not complete. Once the tasks are\n"
		"# done, aggregate with\n"
		"#     %s sweep %s --collect --out %s\n"
		"#\n"
		"# On a real cluster:\n"
		"#  - the output folder, the spec, its workloads, configs and assets and the\n"
		"#    tessera binary must be on a filesystem every compute node mounts at the\n"
		"#    same path (home or project space, not a node's /tmp);\n"
		"#  - the nodes need tessera's run-time libraries (jansson, assimp, libpng,\n"
		"#    libturbojpeg, zstd): add your site's `module load` lines below, e.g.\n"
		"#        module load gcc assimp jansson\n"
		"#  - the #SBATCH lines may be edited (account, qos, time) before submitting.\n",
		tsr_sweep_name(sw), tsr_sweep_point_count(sw), o->chunk, tasks, spec, o->out,
		o->self, spec, o->out);
}

/* The #SBATCH lines and the task's command. */
static void script_body(FILE *f, const struct tsr_sweep *sw, size_t tasks,
			const struct tsr_sweep_opts *o, const char *spec, const char *cwd)
{
	fprintf(f, "#SBATCH --job-name=tessera-%s\n", tsr_sweep_name(sw));
	fprintf(f, "#SBATCH --array=0-%zu\n", tasks - 1);
	fprintf(f, "#SBATCH --output=%s/slurm/%%A_%%a.out\n", o->out);
	fprintf(f, "#SBATCH --cpus-per-task=%u\n", o->cpus);
	if (o->partition)
		fprintf(f, "#SBATCH --partition=%s\n", o->partition);
	if (o->time)
		fprintf(f, "#SBATCH --time=%s\n", o->time);
	if (o->mem)
		fprintf(f, "#SBATCH --mem=%s\n", o->mem);
	fprintf(f, "\nset -euo pipefail\n\n# module load ...\n\ncd ");
	sh_quote(f, cwd);
	fprintf(f, "\nexec ");
	sh_quote(f, o->self);
	fprintf(f, " sweep ");
	sh_quote(f, spec);
	fprintf(f, " --out ");
	sh_quote(f, o->out);
	fprintf(f, " --task \"$SLURM_ARRAY_TASK_ID\" --chunk %zu -j \"${SLURM_CPUS_PER_TASK:-1}\""
		" --quiet\n", o->chunk);
}

/* The absolute path of `sbatch` on PATH into buf; 0 when there is none. */
static int find_sbatch(char *buf, size_t n)
{
	const char *path = getenv("PATH");
	while (path && *path) {
		size_t len = strcspn(path, ":");
		snprintf(buf, n, "%.*s/sbatch", (int)len, path);
		if (len && access(buf, X_OK) == 0)
			return 1;
		path += len + (path[len] == ':');
	}
	return 0;
}

/* Runs `sbatch --parsable SCRIPT`; prints the job id; the exit code. */
static int submit(const char *sbatch, const char *script, const struct tsr_sweep_opts *o)
{
	int fds[2];
	if (pipe(fds))
		return EXIT_RUNTIME;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		execl(sbatch, "sbatch", "--parsable", script, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	char id[256] = "";
	ssize_t len = pid > 0 ? read(fds[0], id, sizeof(id) - 1) : -1;
	close(fds[0]);
	id[len > 0 ? len : 0] = '\0';
	id[strcspn(id, ";\n")] = '\0';
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) || !id[0]) {
		fprintf(stderr, "tessera: sbatch failed to submit '%s'\n", script);
		return EXIT_RUNTIME;
	}
	printf("submitted job %s; when it is done: tessera sweep %s --collect --out %s\n", id,
	       o->spec, o->out);
	return 0;
}

int tsr_sweep_slurm(const struct tsr_sweep *sw, const struct tsr_sweep_opts *o)
{
	char spec[PATH_MAX], cwd[PATH_MAX], script[PATH_MAX + 32], logs[PATH_MAX + 16];
	if (!realpath(o->spec, spec) || !getcwd(cwd, sizeof(cwd)))
		return tsr_cli_usage_error("cannot resolve '%s': %s", o->spec, strerror(errno));
	if (strpbrk(o->out, " \t\n"))
		return tsr_cli_usage_error("Slurm cannot write logs under '%s' (#SBATCH --output "
					   "takes no spaces): choose another --out", o->out);
	const size_t n = tsr_sweep_point_count(sw);
	const size_t tasks = (n + o->chunk - 1) / o->chunk;
	struct tsr_error err = {{0}};
	snprintf(logs, sizeof(logs), "%s/slurm", o->out);
	enum tsr_status s = tsr_sweep_mkdirs(logs, &err);
	if (s != TSR_OK)
		return tsr_cli_exit(s, &err);
	snprintf(script, sizeof(script), "%s/sweep.sbatch", o->out);
	FILE *f = fopen(script, "w");
	if (!f)
		return tsr_cli_usage_error("cannot write '%s': %s", script, strerror(errno));
	script_comment(f, sw, tasks, o, spec);
	script_body(f, sw, tasks, o, spec, cwd);
	if (fclose(f)) {
		fprintf(stderr, "tessera: cannot write '%s'\n", script);
		return EXIT_RUNTIME;
	}
	printf("wrote %s (%zu points, %zu array tasks of %zu)\n", script, n, tasks, o->chunk);
	char sbatch[PATH_MAX + 16];
	if (o->dry_run)
		return 0;
	if (!find_sbatch(sbatch, sizeof(sbatch))) {
		printf("sbatch is not on PATH: submit it on the cluster with 'sbatch %s'\n", script);
		return 0;
	}
	return submit(sbatch, script, o);
}
