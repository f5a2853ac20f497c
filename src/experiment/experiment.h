/*
 * experiment.h - the papers' experiments, run in-process over several
 * workloads and configurations (one simulation per point, through the
 * frame loop of sim/sim.h), producing tables of results with the paper's
 * figures beside tessera's:
 *
 *   tcor             Parameter Buffer accesses to the L2 and to DRAM and
 *                    total DRAM traffic, baseline against TCOR at 64 and
 *                    128 KiB (TCOR V-B, Figs. 14-19), and each workload's
 *                    Parameter Buffer footprint and primitive reuse
 *                    (Table II).
 *   attribute-cache  Attribute Cache miss ratio against its size for OPT,
 *                    LRU, MRU and DRRIP, fully associative and 2, 4, 8
 *                    ways, with the lower bound LB = TP + max(0, TP - CP)
 *                    (TCOR V-A, Figs. 11-13).
 *   re               Rendering Elimination against Transaction Elimination
 *                    on the RE Table I GPU (RE V, Figs. 14 and 16).
 *   workloads        each workload characterized as the papers tabulate
 *                    their benchmarks (TCOR Table II, DTexL Table I,
 *                    boustrophedonic Table I), beside the papers' ranges.
 *   boustrophedonic  texture L2 misses of LRU, OPT, OPTPT with forward and
 *                    every-other-frame reversed tile orders and MRU, by
 *                    replaying the recorded L2 input; FDM on loop traces;
 *                    shared-L2 misses per stream and DRAM traffic
 *                    (boustrophedonic V, Figs. 9-12, 15).
 *   timing           the timing model on the default configuration: per
 *                    workload frames per second, cycles, geometry share,
 *                    memory and DRAM latency, DRAM row hits and bandwidth,
 *                    energy per frame and its shares per component.
 *   dtexl            DTexL's quad groupings and tile orders (DTexL V).
 *   gspc             LLC misses of DRRIP, NRU, SHiP-mem, GS-DRRIP, GSPZTC,
 *                    GSPZTC+TSE, GSPC, +UCD and Belady on the recorded
 *                    LLC input of the immediate-mode GPU at 8 and 16 MB;
 *                    streams, hit rates, render-target consumption,
 *                    epochs, threshold t (GSPC Figs. 1, 4-7, 9, 11-13).
 *
 * Shipped configurations and workloads are found through the data
 * directory (core/datadir.h), never relative to the current directory.
 * One file per experiment (xp_tcor.c, xp_attribute_cache.c, xp_re.c,
 * xp_workloads.c, xp_boustrophedonic.c, xp_timing.c, xp_dtexl.c, xp_gspc.c);
 * experiments.c holds the name table. A new experiment is a new xp_*.c
 * file and one line in that table.
 *
 * Every experiment but workloads runs its independent simulations on
 * tsr_xp_options.jobs threads.
 *
 * tcor, attribute-cache, re, timing, dtexl, boustrophedonic and gspc are also
 * sweeps (experiments/<name>.json, src/sweep/): with tsr_xp_options.sweep_dir
 * they read their points from a finished sweep instead of simulating
 * (xp_simulate(); boustrophedonic and gspc also the traces of the cache they
 * replay, which their specs record: xp_record()).
 */
#ifndef TSR_EXPERIMENT_EXPERIMENT_H
#define TSR_EXPERIMENT_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "core/status.h"
#include "core/text.h"
#include "experiment/table.h"

/*
 * 1 when workload `path` is an apitrace capture of a GL ES 2.0 program
 * (`tessera capture`): its name ends in ".trace", as `tessera run` tells
 * them apart; anything else is a JSON workload (a file or a shipped name).
 */
int tsr_xp_is_capture(const char *path);

/*
 * One replay of a capture, asked of tsr_xp_options.replay: the library
 * cannot replay a capture itself (eglretrace runs it on tessera's driver,
 * in a child process: the CLI's cli/run_capture.c).
 */
struct tsr_xp_replay {
	const char *capture;               /* the capture file, as given */
	const struct tsr_gpu_config *cfg;  /* the configuration to replay it on (every
					      --set applied; the driver renders at the
					      capture's surface size, not cfg's); NULL:
					      only inspect the capture */
	uint32_t frames;                   /* frames to replay (the driver's
					      TESSERA_FRAMES); 0: all of them */
	uint32_t first;                    /* frames before this one are fast-forwarded
					      (TESSERA_SIMULATE first-(first + frames - 1),
					      no warm-up frame): `frames` frames are
					      simulated from it; 0: from the first */
	const char *out_dir;               /* with cfg: an existing empty folder that
					      gets the replay's stats.json (as `tessera
					      run X.trace` writes it) and, with
					      record_cache, the trace */
	const char *record_cache;          /* NULL, or a cache whose input stream the
					      replay records (TESSERA_RECORD_TRACE) into
					      out_dir/trace-CACHE.bin
					      (tsr_sweep_trace_name()), the binary trace
					      `tessera run --record-trace` writes */
	const char *select;                /* NULL, or a frame list (`--frames LIST`,
					      TESSERA_SIMULATE): the frames simulated, the
					      others fast-forwarded (first is then 0,
					      frames how many it lists) */
	uint32_t select_end;               /* with select: its largest frame + 1, the
					      frames replayed */
	uint32_t capture_frames;           /* set by the callback: the frames the capture
					      holds (apitrace's FramesCount) */
};

/* What to run. Zero-initialise for every default. */
struct tsr_xp_options {
	uint32_t frames;                /* frames per run; 0: the experiment's default
					   (tcor, attribute-cache, timing: 4; re: each
					   workload's own; workloads: 3; boustrophedonic: 30;
					   gspc: 2) */
	uint32_t first_frame;           /* `--frames A-B`: A, the first frame simulated
					   (frames then B - A + 1, never 0); the frames
					   before it are fast-forwarded (tsr_sim_select();
					   a capture's through TESSERA_SIMULATE), with no
					   warm-up frame: the caches start cold at A as at
					   frame 0, and a recorded cache input is that of
					   the frames counted; so that a game's menus stay
					   out of the figures; 0: from the first frame */
	const char *frame_list;         /* `--frames LIST` (frames and ranges, such as
					   "100-103,200,300-301"): the frames simulated
					   of every workload, the others fast-forwarded
					   as for first_frame (no warm-up frame; means
					   per frame over the frames listed); NULL: none.
					   With it, frames and first_frame are 0 and no
					   session is given */
	/* `--session`: workloads that start at a frame of their own instead of
	   first_frame (a corpus capture past its menus): the workload given
	   as session_paths[i] (a path of workloads or extra_workloads, as
	   given) from frame session_first[i], frames frames (then not 0) */
	const char *const *session_paths;
	const uint32_t *session_first;
	size_t session_count;
	const char *const *workloads;   /* files or shipped names (tsr_data_resolve), or
					   captures (tsr_xp_is_capture(): replayed
					   through replay below);
					   NULL: the experiment's shipped list (workloads:
					   every workloads/ *.json of the data directory,
					   sorted by name) */
	size_t workload_count;
	const char *const *sets;        /* "KEY=VALUE" overrides applied to every
					   configuration (as `--set`) */
	size_t set_count;
	uint32_t jobs;                  /* threads running independent runs at once
					   (every experiment but workloads; at most
					   XP_MAX_THREADS); 0: 2. The results do not
					   depend on it */
	/*
	 * Called (when not NULL) with each new piece of the report as rows
	 * complete, so that a long experiment shows progress; the full text
	 * is also in the result.
	 */
	void (*on_text)(void *ctx, const char *text, size_t len);
	void *on_text_ctx;
	/*
	 * NULL: simulate in-process. Else the output folder of a finished
	 * sweep (`tessera sweep experiments/<name>.json`, docs/sweeps.md):
	 * the experiment simulates nothing and reads each of its points from
	 * sweep_dir/points/<hash>/stats.json, the hash computed as the sweep
	 * computes it (effective configuration, workload digest, frames,
	 * version), so its tables are byte-identical to the in-process run's.
	 * frames, workloads and sets still apply: they decide which points are
	 * looked up. Only experiments with tsr_experiment_has_spec().
	 */
	const char *sweep_dir;
	/*
	 * Workloads run after the default list when workloads is NULL (the
	 * CLI's: the corpus captures present, docs/captures.md); none when
	 * workloads is given.
	 */
	const char *const *extra_workloads;
	size_t extra_workload_count;
	/*
	 * Replays a capture (a workload tsr_xp_is_capture() says is one):
	 * inspects it (r->cfg NULL: sets r->capture_frames; an unfit capture
	 * is an error naming it), or replays it with r->cfg for r->frames
	 * frames into r->out_dir, so that the experiment reads the run's
	 * totals back from out_dir/stats.json (report/stats_read.h) as from a
	 * sweep's point. Called from the experiment's threads at once (up to
	 * jobs). NULL: a capture is refused (TSR_ERR_UNSUPPORTED naming it).
	 */
	enum tsr_status (*replay)(void *ctx, struct tsr_xp_replay *r, struct tsr_error *err);
	void *replay_ctx;
};

/* Most tables one experiment produces. */
#define TSR_XP_MAX_TABLES 8

/* What an experiment produced. */
struct tsr_xp_result {
	/*
	 * tables[0] is the main table (what `--csv` writes); further tables
	 * are summaries (tcor: "tcor-table2" footprint and reuse, "tcor-paper"
	 * the paper's averages of Figs. 14-19 beside tessera's means;
	 * attribute-cache: "attribute-cache-reach", the smallest size within
	 * 0.1% of LB; workloads: "workloads-paper", each paper's range beside
	 * tessera's; boustrophedonic: "boustrophedonic-fdm" Fig. 9,
	 * "boustrophedonic-shared" V-B, "boustrophedonic-paper"; timing:
	 * "timing-paper", the papers' figures beside tessera's means; dtexl:
	 * "dtexl-fig11", "dtexl-fig12", "dtexl-fig13-15", "dtexl-fig16",
	 * "dtexl-fig17-18", "dtexl-paper"; gspc: "gspc-streams" Fig. 4,
	 * "gspc-epochs" Figs. 7 and 9, "gspc-threshold" Fig. 11, "gspc-paper").
	 */
	struct tsr_table tables[TSR_XP_MAX_TABLES];
	uint32_t table_count;
	/* The report as `tessera experiment` prints it: tables and the paper's figures. */
	struct tsr_text text;
};

/* One experiment of the name table. */
struct tsr_experiment;

/* The experiment called `name` ("tcor", "attribute-cache", "re", "workloads",
 * "boustrophedonic", "timing", "dtexl", "gspc"), or NULL. */
const struct tsr_experiment *tsr_experiment_find(const char *name);

/* The experiments, in table order: i from 0 to tsr_experiment_count() - 1. */
size_t tsr_experiment_count(void);
const struct tsr_experiment *tsr_experiment_at(size_t i);

/*
 * An experiment's name and its description: what it measures and which
 * sections, figures and tables of its paper it reproduces (one paragraph,
 * no line breaks; `tessera experiment --help` and docs/experiments.md
 * show it).
 */
const char *tsr_experiment_name(const struct tsr_experiment *x);
const char *tsr_experiment_summary(const struct tsr_experiment *x);

/* Frames per run when tsr_xp_options.frames is 0; 0: each workload's own. */
uint32_t tsr_experiment_default_frames(const struct tsr_experiment *x);

/*
 * The workloads run when tsr_xp_options.workloads is NULL: data-directory
 * paths ("workloads/glmark-scene.json"), NULL-terminated; NULL: every
 * shipped workload (workloads/ *.json of the data directory).
 */
const char *const *tsr_experiment_default_workloads(const struct tsr_experiment *x);

/*
 * 1 when experiment x's simulations are a sweep, experiments/<name>.json
 * of the data directory (tcor, attribute-cache, re, timing, dtexl,
 * boustrophedonic, gspc), so that it
 * can read them with tsr_xp_options.sweep_dir; 0 for the experiments that
 * record cache inputs or observe caches in-process.
 */
int tsr_experiment_has_spec(const struct tsr_experiment *x);

/*
 * Runs experiment x with options o (NULL: every default) into *out (which
 * the caller releases with tsr_xp_result_release(), also on error).
 * Errors: TSR_ERR_IO naming a workload or shipped configuration that
 * cannot be found (or the shipped workloads/ folder, for an experiment
 * that runs every shipped workload); TSR_ERR_UNSUPPORTED naming a capture
 * when o->replay is NULL or with o->sweep_dir (a sweep's points are JSON
 * workloads), or a configuration whose techniques (TCOR's Attribute Cache,
 * Rendering / Transaction Elimination) a capture's program draws cannot
 * run with (naming the workload and techniques); TSR_ERR_CONFIG for a
 * capture holding fewer frames than asked for; those of o->replay; those of tsr_config_apply_sets() (a bad --set names its
 * key), tsr_scene_load() and tsr_sim_run(); TSR_ERR_CONFIG when a
 * configuration has no cache named "l2", or o->sweep_dir is given to an
 * experiment without a spec; with o->sweep_dir, TSR_ERR_IO for a point
 * missing from the sweep (naming the workload, configuration, hash and
 * folder), those of tsr_stats_read(); TSR_ERR_NOMEM.
 */
enum tsr_status tsr_experiment_run(const struct tsr_experiment *x,
				   const struct tsr_xp_options *o, struct tsr_xp_result *out,
				   struct tsr_error *err);

/* The table called `name` in r, or NULL. */
const struct tsr_table *tsr_xp_result_table(const struct tsr_xp_result *r, const char *name);

/*
 * The file name (without ".csv") of table `table` of experiment
 * `experiment` in a --csv-dir folder: the table's name as a slug
 * (lowercase letters, digits and '-'), prefixed with "<experiment>-"
 * unless it already starts with the experiment's name ("tcor",
 * "tcor-table2", "tcor-paper"). Truncated to n - 1 characters.
 */
void tsr_xp_table_file(const char *experiment, const char *table, char *buf, size_t n);

/*
 * Writes r into folder dir (created if needed), all or nothing: every
 * table as <dir>/<tsr_xp_table_file()>.csv, the report as
 * <dir>/<experiment>.txt and <dir>/<experiment>.json =
 * {"experiment", "command", "commit" (null when NULL), "tessera_version",
 * "tables": [{"name", "file"}, ...]} (tables in r's order, file relative to
 * dir). Errors: TSR_ERR_IO, TSR_ERR_CONFIG (an output is a folder),
 * TSR_ERR_NOMEM.
 */
enum tsr_status tsr_xp_result_write_dir(const struct tsr_xp_result *r, const char *experiment,
					const char *dir, const char *command,
					const char *commit, struct tsr_error *err);

/* Frees the tables and the text; r may then be reused. */
void tsr_xp_result_release(struct tsr_xp_result *r);

#endif
