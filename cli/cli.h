/*
 * cli.h - what the command files of the tessera CLI share: exit codes,
 * the command entry points and small argument helpers. Only the CLI
 * prints or exits; the library returns statuses.
 */
#ifndef TSR_CLI_CLI_H
#define TSR_CLI_CLI_H

#include <stddef.h>
#include <stdint.h>

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2

/* Commands: argv[0] is the first argument after the command name. */
int tsr_cmd_run(int argc, char **argv);
int tsr_cmd_cachesim(int argc, char **argv);
int tsr_cmd_analyze(int argc, char **argv);
int tsr_cmd_experiment(int argc, char **argv);
int tsr_cmd_config(int argc, char **argv);
int tsr_cmd_counters(int argc, char **argv);

/* Most --set options one command takes. */
#define TSR_CLI_MAX_SETS 64

/*
 * Appends a --set KEY=VALUE (value: the option's argument, NULL when
 * missing) to sets; prints the error and returns EXIT_USAGE when it is
 * missing, has no '=' or there are too many, else 0.
 */
int tsr_cli_add_set(const char **sets, size_t *n, const char *value);

/* Monotonic wall-clock seconds. */
double tsr_cli_now_seconds(void);

/*
 * Parses an unsigned integer with an optional K, M or G suffix (x1024) in
 * [min, max]; 1 on success. Used for --size, --ways, --line and such.
 */
int tsr_cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* A growing text buffer (a CSV being built); zero-initialise it. */
struct tsr_cli_text {
	char *buf;
	size_t len, cap;
	int nomem;
};

/* Appends printf-style text; on out of memory sets t->nomem and stops. */
void tsr_cli_text_printf(struct tsr_cli_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Writes t to path atomically (path.tmp, then rename); prints the error.
 * Returns 0, or the exit code (EXIT_RUNTIME, EXIT_USAGE).
 */
int tsr_cli_write_csv(const char *path, const struct tsr_cli_text *t);

#endif
