/*
 * sweep_cli.h - what the two files of `tessera sweep` share: the Slurm
 * options and the writer of the job-array script (cmd_sweep_slurm.c).
 */
#ifndef TSR_CLI_SWEEP_CLI_H
#define TSR_CLI_SWEEP_CLI_H

#include <stddef.h>

struct tsr_sweep;

/* Options of `tessera sweep --slurm`. */
struct tsr_sweep_opts {
	int slurm, dry_run;
	size_t chunk;                       /* points per array task */
	unsigned cpus;                      /* --cpus-per-task, each task's -j */
	const char *partition, *time, *mem; /* passed through to #SBATCH; NULL: not given */
	const char *spec;                   /* the spec as given */
	const char *out;                    /* the output folder, absolute */
	const char *self;                   /* this binary, absolute */
};

/*
 * Writes OUT/sweep.sbatch (a bash script: one array task per chunk of
 * points, each running `tessera sweep SPEC --task I --chunk K`), creates
 * OUT/slurm/ for the tasks' logs and, unless dry_run, submits it with
 * sbatch when sbatch is on PATH (printing the job id). Prints what it did.
 * Returns the exit code: 0, EXIT_RUNTIME (cannot write, sbatch failed),
 * EXIT_USAGE (a path Slurm cannot take).
 */
int tsr_sweep_slurm(const struct tsr_sweep *sw, const struct tsr_sweep_opts *o);

/*
 * Runs every point of the sweep specification `spec` on this machine, as
 * `tessera sweep SPEC [-j jobs] [--out out_arg] [--quiet]` does (complete
 * points skipped), and aggregates its results; out_abs (n bytes) receives
 * the output folder, absolute (out_arg, else the spec's "out"). Returns
 * the exit code: 0 every point complete, EXIT_RUNTIME, EXIT_USAGE (the
 * spec).
 */
int tsr_sweep_run_local(const char *spec, const char *out_arg, unsigned jobs, int quiet,
			char *out_abs, size_t n);

#endif
