/*
 * xp_priv.h - what the experiment files share (internal to experiment/):
 * the name-table entry, the run context, loading shipped configurations
 * and workloads through the data directory, one simulation point, and the
 * traffic sums the tables report.
 */
#ifndef TSR_EXPERIMENT_XP_PRIV_H
#define TSR_EXPERIMENT_XP_PRIV_H

#include "cachesim/linetrace.h"
#include "config/config.h"
#include "experiment/experiment.h"
#include "framestats/stats.h"
#include "scene/scene.h"
#include "energy/energy.h"
#include "memory/cache.h"
#include "report/report.h"

/* A run of one experiment: the options with defaults filled in. */
struct xp_ctx {
	uint32_t frames;                /* 0 only for re: each workload's own */
	uint32_t first;                 /* o->first_frame: the frames before it are
					   fast-forwarded (frames is then not 0) */
	struct tsr_frame_list list;     /* o->frame_list parsed (kind TSR_FRAMES_LIST;
					   frames: how many it lists), else "all" */
	const char *const *workloads;   /* as given (or the shipped list), for display */
	size_t workload_count;
	const char *const *sets;
	size_t set_count;
	uint32_t jobs;                  /* threads for independent runs (xp_parallel()) */
	int shipped;                    /* workloads are the default list: the shipped
					   ones (data paths), then o->extra_workloads */
	size_t shipped_count;           /* of which the first shipped_count are data paths */
	const struct tsr_xp_options *o; /* on_text */
	const char *from;               /* o->sweep_dir: points read from a sweep, not simulated */
	const char *name;               /* the experiment's name (for messages) */
	size_t text_sent;               /* bytes of the report passed to on_text */
};

struct tsr_experiment {
	const char *name;
	const char *summary;
	const char *const *default_workloads;  /* data-dir relative paths, NULL-terminated;
						  NULL: every shipped workload */
	uint32_t default_frames;               /* 0: each workload's own */
	int has_spec;                          /* experiments/<name>.json holds its points */
	enum tsr_status (*run)(struct xp_ctx *c, struct tsr_xp_result *out,
			       struct tsr_error *err);
};

extern const struct tsr_experiment tsr_xp_tcor;
extern const struct tsr_experiment tsr_xp_attribute_cache;
extern const struct tsr_experiment tsr_xp_re;
extern const struct tsr_experiment tsr_xp_workloads;
extern const struct tsr_experiment tsr_xp_boustrophedonic;
extern const struct tsr_experiment tsr_xp_timing;
extern const struct tsr_experiment tsr_xp_dtexl;
extern const struct tsr_experiment tsr_xp_gspc;

/*
 * Loads the defaults, then shipped configuration `name` ("tcor-table1",
 * found as configs/<name>.json in the data directory; NULL: none), then
 * the context's --set overrides.
 */
enum tsr_status xp_load_config(const struct xp_ctx *c, const char *name,
			       struct tsr_gpu_config *cfg, struct tsr_error *err);

/* The same, then `extra` ("KEY=VALUE", the point's own setting; NULL: none). */
enum tsr_status xp_load_config_extra(const struct xp_ctx *c, const char *name,
				     const char *extra, struct tsr_gpu_config *cfg,
				     struct tsr_error *err);

/*
 * The same with extra_count settings of the point ("KEY=VALUE"), applied
 * after the context's --set overrides. Errors: those of
 * tsr_config_apply_sets() (naming the file or key), TSR_ERR_NOMEM.
 */
enum tsr_status xp_load_config_sets(const struct xp_ctx *c, const char *name,
				    const char *const *extra, size_t extra_count,
				    struct tsr_gpu_config *cfg, struct tsr_error *err);

/*
 * Loads workload w of the context (a shipped one, a file or a shipped
 * name). A capture (tsr_xp_is_capture()) becomes a scene with nothing to
 * draw: its path, its name (the file's stem, "suite" for
 * "/tmp/suite.trace") and its frames (o->replay inspects it), which
 * xp_simulate() and xp_record() replay through o->replay
 * (xp_scene_is_capture()). Errors: those of tsr_data_resolve() and
 * tsr_scene_load(); for a capture, TSR_ERR_UNSUPPORTED naming it without
 * o->replay or with a sweep (c->from), those of o->replay.
 */
enum tsr_status xp_load_scene(const struct xp_ctx *c, size_t w, struct tsr_scene **out,
			      struct tsr_error *err);

/* 1 when sc is a capture's scene (xp_load_scene()). */
int xp_scene_is_capture(const struct tsr_scene *sc);

/* The name a row shows for workload w: the scene's name, else the name given. */
const char *xp_workload_name(const struct xp_ctx *c, size_t w, const struct tsr_scene *sc);

/* The name workload w is given by (a capture: its stem, as xp_workload_name()). */
const char *xp_workload_label(const struct xp_ctx *c, size_t w, char *buf, size_t n);

/*
 * What the timing model says of a run (zero without timing.enabled):
 * cycles, the energy of everything and of the memory hierarchy (the caches
 * and DRAM components of energy/energy.h), nJ, and the energy per
 * component.
 */
/* Most threads xp_parallel() starts. */
#define XP_MAX_THREADS 16

/*
 * Calls fn on each of the count items of `size` bytes at `items`, each
 * once, taken in order by `threads` threads (the calling thread among
 * them; fewer when a thread cannot start), and returns when all are done.
 * The items must share no mutable state: each keeps its own result and
 * status, so the outcome does not depend on the threads' timing. Errors:
 * TSR_ERR_INTERNAL (no mutex; nothing ran).
 */
enum tsr_status xp_parallel(void *items, size_t count, size_t size, void (*fn)(void *item),
			    unsigned threads, struct tsr_error *err);

struct xp_timing {
	uint64_t cycles;
	double energy_nj, memory_energy_nj;
	struct tsr_energy_result energy;
};

struct tsr_sim;

/*
 * Sets *timing to what the timing model says of the frames simulation s
 * (opened with cfg) has run: zero when cfg->timing.enabled is 0.
 * Errors: those of tsr_energy_create() and tsr_energy_compute().
 */
enum tsr_status xp_timing_of(const struct tsr_gpu_config *cfg, struct tsr_sim *s,
			     struct xp_timing *timing, struct tsr_error *err);

/*
 * Simulates `frames` frames (0: the scene's own) of sc with cfg into
 * *total, and sets *l2 (if not NULL) to the index in total->caches of the
 * cache named "l2", and *timing (if not NULL) to the run's cycles and
 * energy. A capture's scene (xp_scene_is_capture()) is replayed through
 * c->o->replay into a temporary folder (removed after) whose stats.json
 * is read as a sweep's point is. With c and c->from (a sweep's output folder), simulates nothing:
 * reads the point the sweep ran for (cfg, sc's workload file, frames),
 * OUT/points/<tsr_sweep_point_hash()>/stats.json, which gives the same
 * total, l2 and timing bit for bit. Errors: those of tsr_sim_run() and
 * tsr_energy_create(); TSR_ERR_CONFIG when l2 is asked for and there is
 * none; with c->from, TSR_ERR_IO when the point is not in the sweep (the
 * message names the workload, configuration, hash and folder) and those
 * of tsr_stats_read() and tsr_stats_file_energy().
 */
enum tsr_status xp_simulate(const struct xp_ctx *c, const struct tsr_gpu_config *cfg,
			    const struct tsr_scene *sc,
			    uint32_t frames, struct tsr_frame_stats *total, uint32_t *l2,
			    struct xp_timing *timing, struct tsr_error *err);

/*
 * One run whose cache `cache`'s input the experiment replays: simulates
 * `frames` frames (0: the scene's own) of sc with cfg recording that
 * cache's input in memory (an observer, as `tessera run --record-trace`
 * records it) into *lt, split into lines of its geometry *geom with next
 * uses computed (the caller frees it with tsr_line_trace_release()), and
 * sets *total, *port (the cache's index in total->caches) and *timing (if
 * not NULL) as xp_simulate() does. With c and c->from, simulates nothing:
 * reads the sweep point's stats.json (read_point()) and its trace of the
 * cache, trace-CACHE.bin (sweep.h: the spec's "record_trace"), through
 * the trace reader into the same *lt: the replays' counters are
 * identical. A capture's scene: replayed through c->o->replay recording
 * the cache (TESSERA_RECORD_TRACE), its stats.json and trace read back as
 * a sweep's. Errors: those of xp_simulate(); TSR_ERR_CONFIG when cfg has
 * no such cache; TSR_ERR_NOMEM (the recording); with c->from, TSR_ERR_IO
 * when the point or its trace is missing (the message says how to record
 * it) and those of tsr_trace_load() and tsr_line_trace_build().
 */
enum tsr_status xp_record(const struct xp_ctx *c, const struct tsr_gpu_config *cfg,
			  const struct tsr_scene *sc, uint32_t frames, const char *cache,
			  struct tsr_line_trace *lt, struct tsr_cache_geometry *geom,
			  struct tsr_frame_stats *total, uint32_t *port,
			  struct xp_timing *timing, struct tsr_error *err);

/* One simulation of xp_simulate_all(): inputs, then its results. */
struct xp_run {
	struct tsr_gpu_config cfg;
	const struct tsr_scene *sc;
	const struct xp_ctx *c;       /* set by xp_simulate_all() */
	uint32_t frames;              /* 0: the scene's own */
	int want_l2;                  /* set l2 (TSR_ERR_CONFIG without a cache "l2") */
	struct tsr_frame_stats *total; /* allocated by xp_simulate_all(), freed by xp_runs_release() */
	uint32_t l2;
	struct xp_timing timing;
	uint32_t width, height;       /* the frames' pixels: cfg's, or a capture's surface */
	enum tsr_status status;
	struct tsr_error err;
};

/*
 * Runs xp_simulate() for each of runs[0 .. n) on c->jobs threads (each
 * its own simulation; the scenes are shared read-only), results in the
 * runs' own fields, so they do not depend on the threads. Returns the
 * first failing run's status in run order, with its message in *err;
 * TSR_ERR_NOMEM.
 */
enum tsr_status xp_simulate_all(const struct xp_ctx *c, struct xp_run *runs, size_t n,
				struct tsr_error *err);

/* Frees the totals of runs[0 .. n). */
void xp_runs_release(struct xp_run *runs, size_t n);

/*
 * One batch of workloads, one simulation each on c->jobs threads: loads
 * workloads w0 .. of c (c->jobs of them, fewer at the end of the list)
 * into scenes[] and simulates each with cfg for `frames` frames (0: the
 * scene's own count, set in runs[i].frames) through xp_simulate_all();
 * *n: the workloads of the batch. runs and scenes have c->jobs entries,
 * zeroed at first; xp_batch_release() frees them for the next batch.
 * Errors: those of xp_load_scene() and xp_simulate_all().
 */
enum tsr_status xp_simulate_batch(const struct xp_ctx *c, size_t w0,
				  const struct tsr_gpu_config *cfg, uint32_t frames,
				  struct xp_run *runs, struct tsr_scene **scenes, size_t *n,
				  struct tsr_error *err);

/* Frees the totals and scenes of a batch (xp_simulate_batch()); the scenes become NULL. */
void xp_batch_release(const struct xp_ctx *c, struct xp_run *runs, struct tsr_scene **scenes);

/* DRAM bytes read and written: every stream, or (pb_only) the Parameter Buffer's. */
uint64_t xp_dram_bytes(const struct tsr_frame_stats *t, int pb_only);

/*
 * The Parameter Buffer footprint of t (TCOR Table II): its attributes in
 * 64-byte blocks (one per attribute of cfg->attribute_bytes) plus its PMD
 * bytes.
 */
double xp_pb_footprint_bytes(const struct tsr_frame_stats *t, const struct tsr_gpu_config *cfg);

/* Percentage change of v against base (0 when base is 0). */
double xp_pct(uint64_t v, uint64_t base);

/* The same of measures that are not counts (energy, 1 / cycles); 0 when base <= 0. */
double xp_change_pct(double v, double base);

/* Passes the report's text not yet passed to the options' on_text callback. */
void xp_flush(struct xp_ctx *c, const struct tsr_xp_result *out);

/*
 * Adds an experiment's table of the papers' figures, "<name>-paper", with
 * the columns xp_paper_row() fills: figure, quantity, paper_pct and
 * `tessera_col` (tessera's figure). Returns it (NULL on error).
 */
struct tsr_table *xp_add_paper_table(struct tsr_xp_result *out, const char *name,
				     const char *tessera_col, struct tsr_error *err);

/*
 * One row of a table made by xp_add_paper_table(): the paper's figure
 * beside tessera's. With txt,
 * also prints it as "figure quantity paper% tessera%", the quantity padded
 * to `width` characters.
 */
void xp_paper_row(struct tsr_table *paper, struct tsr_text *txt, int width, const char *figure,
		  const char *quantity, double paper_value, double tessera);

/* Adds a table called `name` with `header` to out; returns it (NULL on error). */
struct tsr_table *xp_add_table(struct tsr_xp_result *out, const char *name,
			       const char *header, struct tsr_error *err);

#endif
