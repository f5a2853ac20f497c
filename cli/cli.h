/*
 * cli.h - what the command files of the tessera CLI share: exit codes,
 * the command entry points and small argument helpers. Only the CLI
 * prints or exits; the library returns statuses.
 */
#ifndef TSR_CLI_CLI_H
#define TSR_CLI_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/status.h"
#include "core/text.h"
#include "sample/sample.h"

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2

/*
 * The one place a library status becomes an exit code: prints
 * "tessera: <message>" (err's, or the status's description) and returns
 * EXIT_USAGE for a bad configuration or geometry (TSR_ERR_CONFIG,
 * TSR_ERR_GEOMETRY: the user's input to fix), EXIT_RUNTIME for everything
 * else (files, parse errors, assets, limits, memory); 0 for TSR_OK
 * (prints nothing).
 */
int tsr_cli_exit(enum tsr_status s, const struct tsr_error *err);

/*
 * Prints "tessera: warning: <message>" to stderr once for each key cfg
 * sets that its mode ignores (tsr_config_warnings(): a value other than
 * the default, from the configuration file or --set), the keys ignored
 * for the same reason on one line ("tessera: warning: K1, K2 and K3 are
 * ignored in <mode>: <why>"). Errors: those of tsr_config_warnings().
 */
struct tsr_gpu_config;
enum tsr_status tsr_cli_config_warnings(const struct tsr_gpu_config *cfg,
					struct tsr_error *err);

/*
 * A run's configuration: the defaults, then config (a file, else a shipped
 * one by name; NULL: none; its path into config_path, cap bytes), then the
 * --set overrides, then the warnings of keys its mode ignores
 * (tsr_cli_config_warnings()). What run, exec and a capture's replay do
 * before anything runs. Errors: those of tsr_data_resolve(),
 * tsr_config_apply_sets() and tsr_config_warnings().
 */
enum tsr_status tsr_cli_load_config(const char *config, const char *const *sets, size_t nsets,
				    struct tsr_gpu_config *cfg, char *config_path, size_t cap,
				    struct tsr_error *err);

/* Prints "tessera: <message>" (printf-style) and returns EXIT_USAGE. */
int tsr_cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * For getopt_long() with opterr = 0: the message for the '?' or ':' it
 * returned ("unknown option '--x' (see 'tessera CMD --help')", "option
 * '--x' needs a value"); prints it and returns EXIT_USAGE. argv, optind
 * and optopt are getopt's.
 */
int tsr_cli_getopt_error(const char *cmd, int c, char **argv);

/*
 * Resets getopt for a command's arguments: argv[0] must be the command
 * name (getopt starts at argv[1]).
 */
void tsr_cli_getopt_reset(void);

/*
 * Commands: argv[0] is the command name ("run"), then its arguments, as
 * getopt_long() expects; they return the process's exit code.
 */
int tsr_cmd_run(int argc, char **argv);
int tsr_cmd_cachesim(int argc, char **argv);
int tsr_cmd_analyze(int argc, char **argv);
int tsr_cmd_experiment(int argc, char **argv);
int tsr_cmd_config(int argc, char **argv);
int tsr_cmd_counters(int argc, char **argv);
int tsr_cmd_sweep(int argc, char **argv);
int tsr_cmd_compare(int argc, char **argv);
int tsr_cmd_capture(int argc, char **argv);
int tsr_cmd_exec(int argc, char **argv);
int tsr_cmd_trace(int argc, char **argv);
int tsr_cmd_sample(int argc, char **argv);

/* ---- other programs (child.c): capture and exec ---- */

/* 1 when a program called name is found on PATH (executable), else 0. */
int tsr_cli_on_path(const char *name);

/* tsr_cli_run_program()'s flags. */
#define TSR_CHILD_QUIET 1 /* its standard output and error to /dev/null */
#define TSR_CHILD_STDIO 2 /* it keeps tessera's standard streams and process
                             group (Ctrl-C reaches it; tessera waits) */

/*
 * Runs argv (argv[0] looked up on PATH) with the variables of env set
 * (NAME, VALUE pairs, NULL-terminated; a NULL VALUE unsets NAME). Without
 * TSR_CHILD_STDIO it runs in a process group of its own, reads /dev/null
 * and its standard output goes to standard error (both to /dev/null with
 * TSR_CHILD_QUIET); after `seconds` (> 0) it gets SIGINT (the program
 * stops as if Ctrl-C was typed: apitrace flushes its trace). Returns the
 * wait status, or -1 when it could not be started or waited for.
 */
int tsr_cli_run_program(char *const argv[], const char *const *env, double seconds, int flags);

/*
 * Starts argv as tsr_cli_run_program() does (the same variables, process
 * group and standard streams) without waiting for it: its pid, or -1 when
 * it could not be forked (a failed exec is the child's exit status 127).
 */
pid_t tsr_cli_start_program(char *const argv[], const char *const *env, int flags);

/* "ended with exit status N", "was killed by signal N" or "could not be
 * started" (st < 0) for wait status st, written to buf (n bytes). */
const char *tsr_cli_describe_wait(int st, char *buf, size_t n);

/*
 * The command prefix that runs a program under a private X server sized
 * screen ("WIDTHxHEIGHT", depth 24): `xvfb-run -a -s '-screen 0 ...'`
 * (Debian's xvfb), put in cmd[0..3] with server_args (n bytes) holding the
 * server's arguments; returns the number of entries (4).
 */
int tsr_cli_xvfb_prefix(const char **cmd, const char *screen, char *server_args, size_t n);

/*
 * The folder of tessera's drop-in driver (libEGL.so.1, libGLESv2.so.2):
 * build/driver beside this tessera binary in a build tree, else the
 * installed TSR_DRIVER_INSTALL_DIR; written to buf (n bytes) and returned,
 * NULL when neither holds libEGL.so.1.
 */
const char *tsr_cli_driver_dir(char *buf, size_t n);

/*
 * The virtual clock `tessera capture --vclock` preloads into the program
 * (driver/vclock.c): vclock/libtsr_vclock.so in tsr_cli_driver_dir(),
 * written to buf (n bytes) and returned; NULL when it is not there.
 */
const char *tsr_cli_vclock_path(char *buf, size_t n);

/* path made absolute against the current folder (a child may change
 * folders), written to buf (n bytes) and returned. */
const char *tsr_cli_absolute(const char *path, char *buf, size_t n);

/* The frames of apitrace capture `path` (apitrace info's FramesCount), or -1. */
long tsr_cli_trace_frames(const char *path);

/*
 * `tessera capture --corpus [NAME...] [--data DIR] [--corpus-file FILE]
 * [--list]` (cmd_corpus.c): records the entries of captures/corpus.json
 * (all, or those named) that are not in DIR yet, each through `tessera
 * capture` with llvmpipe's images; argv as tsr_cmd_capture() got it.
 * Returns the exit code (2 for a bad corpus file, naming the entry and
 * key; 1 when an entry could not be recorded).
 */
int tsr_cli_capture_corpus(int argc, char **argv);

/*
 * Checks an input script (a jansson json_t *: an array of steps ["key",
 * NAME...], ["keydown", NAME...], ["keyup", NAME...], ["mousemove", X, Y]
 * (the pointer to pixel X, Y of the screen), ["click", BUTTON] (1 left, 2
 * middle, 3 right), ["sleep", SECONDS], ["wait-window", NAME]: until a
 * window whose name matches is shown, ["frame", N]: until the program,
 * under the virtual clock, has presented N frames, the steps after it
 * reaching it before it draws frame N; frames ascending, from 1);
 * 0, or -1 with the message (naming the step) in msg (n bytes).
 */
int tsr_cli_input_check(const void *script, char *msg, size_t n);

/*
 * Inside the private X server of `tessera capture --input FILE`: starts
 * argv (the program under apitrace) in this process group, plays FILE's
 * script with xdotool, ignores SIGINT (the program gets it and finishes
 * its trace) and waits for the program; returns its exit status (128 +
 * signal when it was killed), 1 when FILE is not a valid script.
 */
int tsr_cli_drive_input(const char *file, char **argv);

/* The "frame" steps of input script `script` (a json_t *, checked), which
 * need the program under the virtual clock (--vclock). */
size_t tsr_cli_input_frame_steps(const void *script);

/*
 * Loads corpus file path: *root (json_t *, to json_decref) and *entries
 * (an internal array of *count entries, to free()); 0, or -1 with the
 * message in msg (n bytes) naming the file, the entry and the key.
 */
int tsr_cli_corpus_load(const char *path, void **root, void **entries, size_t *count,
			char *msg, size_t n);

/* The corpus data folder into buf: $XDG_DATA_HOME/tessera/corpus (an
 * absolute XDG_DATA_HOME), else ~/.local/share/tessera/corpus. */
const char *tsr_cli_corpus_dir(char *buf, size_t n);

/*
 * The corpus captures present (cmd_corpus.c): DIR/<name>.trace for each
 * entry of captures/corpus.json (in its order) that is a file, DIR the
 * corpus data folder; none when the list or the folder is missing.
 * *paths is malloc'd (tsr_cli_corpus_free()). 0, or -1 when out of memory.
 */
int tsr_cli_corpus_present(char ***paths, size_t *n);
void tsr_cli_corpus_free(char **paths, size_t n);

/*
 * Whether the capture at path is a corpus capture (its file name NAME.trace,
 * NAME an entry of captures/corpus.json with a frame range): 1 and *first,
 * the first frame of its session (the range's FIRST: past menus and
 * loading), else 0.
 */
int tsr_cli_corpus_session(const char *path, uint32_t *first);

/*
 * `tessera run X.trace` (run_capture.c): replays an apitrace capture on
 * the driver with the run's options (cmd_run.c parsed them: config may be
 * NULL, frames 0 for all of them, dump a --dump-frames list, heatmaps a
 * --heatmaps list or NULL, record_cache and record_file one --record-trace
 * CACHE=FILE or NULL: the driver records it, TESSERA_RECORD_TRACE); returns
 * the exit code (1 for a capture it cannot replay, 2 for a bad
 * configuration, heatmap list or cache).
 */
int tsr_cli_run_capture(const char *trace, const char *config, const char *const *sets,
			size_t nsets, uint32_t frames, const char *out_dir, const char *dump,
			const char *heatmaps, const char *record_cache, const char *record_file,
			int quiet);

/*
 * tsr_xp_options.replay of `tessera experiment` (run_capture.c): replays
 * capture r->capture as `tessera run X.trace` does (the same checks, once
 * per capture; eglretrace on the driver, headless), with r->cfg written
 * whole to r->out_dir/config.json (TESSERA_CONFIG), no images, r->frames
 * frames (TESSERA_FRAMES when fewer than the capture's) and r->record_cache
 * recorded (TESSERA_RECORD_TRACE); moves the surface's stats.json (and
 * trace) into r->out_dir. ctx is unused. Errors: TSR_ERR_IO naming the
 * capture (unfit, no tools or driver, the replay failed or rendered too
 * few frames), TSR_ERR_NOMEM.
 */
struct tsr_xp_replay;
enum tsr_status tsr_cli_xp_replay(void *ctx, struct tsr_xp_replay *r, struct tsr_error *err);

/*
 * What a capture's replay does beyond `run`'s options (all zero: nothing):
 * simulate, the frames simulated fully (a frame list, "5-7,20", or
 * "none"; the others fast-forwarded: TESSERA_SIMULATE, docs/driver.md;
 * the replay ends after the last one listed; warmup, the frames before
 * each that warm the caches up, TESSERA_WARMUP); sample, the device's
 * TESSERA_SAMPLE ("FRAME:WEIGHT:CV,..."); features, features.csv written
 * too (TESSERA_FEATURES).
 */
struct tsr_cli_capture_extra {
	const char *simulate;
	uint32_t warmup;   /* TESSERA_WARMUP: frames before each simulated one that
	                      warm the caches up */
	const char *sample;
	int features;
};

/* tsr_cli_run_capture() with x (NULL: none). */
int tsr_cli_run_capture_x(const char *trace, const char *config, const char *const *sets,
			  size_t nsets, uint32_t frames, const char *out_dir, const char *dump,
			  const char *heatmaps, const char *record_cache, const char *record_file,
			  int quiet, const struct tsr_cli_capture_extra *x);

/*
 * --frames: a count N (frames 0 to N-1: *count N, *list NULL) or a list of
 * frames and ranges ("10-20,40": *count the last frame + 1, *list spec,
 * its frames in *sel, *count bytes, malloc'd). 0, or prints the error and
 * returns EXIT_USAGE.
 */
int tsr_cli_frames_parse(const char *spec, uint32_t *count, const char **list,
			 unsigned char **sel);

/* ---- `tessera sample` and `run --sample` (cmd_sample.c) ---- */

/*
 * The features of a workload's or a capture's frames (sample/sample.h),
 * from one pass that fast-forwards them all: the first count frames (0:
 * all), those with consider[f] set (NULL: all); a capture's replay goes
 * through folder tmp_dir (removed after). *frames, *x (n rows) malloc'd.
 * 0, or the exit code after printing the error.
 */
int tsr_cli_sample_features(const char *workload, const char *config,
			    const char *const *sets, size_t nsets, uint32_t count,
			    const unsigned char *consider, const char *tmp_dir, uint32_t **frames,
			    double **x, uint32_t *n);

/*
 * The features (--frames spec: frames_spec, NULL all) clustered into k
 * clusters (0: the BIC rule), the clusters ordered by their
 * representative's frame; *frames: the frame number of each row (frees
 * with free()), *seconds the time taken. 0, or the exit code.
 */
int tsr_cli_sample_choose(const char *workload, const char *config, const char *const *sets,
			  size_t nsets, const char *frames_spec, uint32_t k, const char *tmp_dir,
			  struct tsr_sample *out, uint32_t **frames, double *seconds);

/* The representatives as a frame list ("3,40,77") into reps and as the
 * device's TESSERA_SAMPLE ("3:10:0.1,...") into spec. 0, or the exit code. */
int tsr_cli_sample_lists(const struct tsr_sample *smp, const uint32_t *frames,
			 struct tsr_text *reps, struct tsr_text *spec);

/*
 * glibc's malloc tunables (ld.so --list-tunables) for the processes that
 * replay and test: freed memory kept for reuse (no trim below 256 MB, mmap
 * only from 32 MB) and transparent huge pages asked for (hugetlb=1), for a
 * fraction of the page faults (docs/driver.md); results do not depend on
 * them. tests/CMakeLists.txt reads this line for the tests' environment.
 */
#define TSR_MALLOC_TUNABLES "glibc.malloc.hugetlb=1:glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=33554432"

/*
 * The frames of a --dump-frames list (tsr_frame_list_parse(): 'last', 'all', 'none' or numbers
 * separated by commas) for a run of `frames` frames: want[f] = 1 for each.
 * Returns 0, or prints the error (naming the option and the bad item) and
 * returns EXIT_USAGE.
 */
int tsr_cli_dump_frames_parse(const char *list, uint32_t frames, unsigned char *want);

/* main()'s argv[0] (the sweep runs children of this binary). */
extern const char *tsr_cli_argv0;

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

/* The processors online (at least 1): the default of -j. */
unsigned tsr_cli_online_cores(void);

/*
 * Parses an unsigned integer with an optional K, M or G suffix (x1024) in
 * [min, max]; 1 on success. Used for --size, --ways, --line and such.
 */
int tsr_cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * Writes t as the CSV output path through an output transaction
 * (report/report.h): a file atomically (a temporary beside the file its
 * symbolic links lead to, then a rename), a FIFO or device directly, "-"
 * to standard output; prints the error. Returns 0, or the exit code
 * (EXIT_RUNTIME: a write error, ENOSPC included; EXIT_USAGE).
 */
int tsr_cli_write_csv(const char *path, const struct tsr_text *t);

/*
 * When a command's CSV goes to standard output (path "-"), what it prints
 * for people must not mix with it: tsr_cli_stdout_aside() sends standard
 * output to standard error until tsr_cli_stdout_restore() and returns the
 * descriptor to restore (-1: nothing set aside, path is not "-").
 */
int tsr_cli_stdout_aside(const char *path);
void tsr_cli_stdout_restore(int saved);

#endif
