/*
 * energy.h - the energy model of the timing mode (issue 13, "Energy";
 * docs/timing.md): energy = dynamic + static.
 *
 * Dynamic: every row of an energy table gives one counter of the
 * registry (stats/counters.h), named as in stats.json and looked up with
 * tsr_stats_lookup() ("raster.quads_shaded", "caches.l2.all.reads",
 * "timing.dram_activates", "timing.core_busy.2"), an energy per event in
 * pJ; a frame's dynamic energy is the sum of count x pJ. A counter the
 * table does not name costs nothing, and a new counter gets an energy by a
 * configuration key alone, with no code change.
 * Static: every component has a power in mW, times the frame's simulated
 * time (timing.cycles at timing.gpu_mhz).
 *
 * Components: shader_cores, texture_units, raster (Rasterizer, Early-Z,
 * blending), tiling (Polygon List Builder, Tile Fetcher), geometry,
 * signature_unit (RE and TE), attribute_cache (TCOR), one per cache
 * instance ("caches.l2", per-core copies together) and dram. A row's
 * component is the default table's for its name, else follows from the
 * name (tsr_energy_component_of()).
 *
 * The default table (tsr_energy_table(); README "Timing mode", "Energy")
 * is for 32 nm, 1 V logic and SRAM, as the papers' McPAT setup, and a
 * dual-channel x32 LPDDR3-1600 device (Micron 4 Gb LPDDR3 IDD values as
 * DRAMPower's memspec MICRON_4Gb_LPDDR3-1600_32bit_A gives them, energies
 * by DRAMPower's / Micron TN-46-03's formulas). Each row carries its source
 * or says it is an assumption. Caches: energy per access by size,
 * associativity and line size from tsr_energy_sram_access_pj(). The
 * configuration overrides any row and adds rows (config/config.c, section
 * "energy": keys "energy.<counter name>" in pJ and
 * "energy.static_mw.<component>" in mW).
 *
 * Left out: energy of idle clock trees beyond the static power, voltage
 * and frequency scaling, DRAM power-down states (the background power is
 * active standby throughout), LPDDR4's own IDD values (the lpddr4 model
 * uses LPDDR3's), wires and the network between the caches.
 */
#ifndef TSR_TIMING_ENERGY_H
#define TSR_TIMING_ENERGY_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct tsr_gpu_config;
struct tsr_memsys;
struct tsr_frame_stats;

/* Longest row name ("caches.l2.all.read_misses", "static_mw.dram"), NUL included. */
#define TSR_ENERGY_NAME_MAX 80
/* Longest component name, NUL included. */
#define TSR_ENERGY_COMPONENT_MAX 48
/* Most overrides a configuration may give. */
#define TSR_ENERGY_MAX_OVERRIDES 64
/* Most components of one result. */
#define TSR_ENERGY_MAX_COMPONENTS (16 + 16)

/* Prefix of the static power rows' names. */
#define TSR_ENERGY_STATIC_PREFIX "static_mw."

/* One override of the configuration (plain data, part of struct tsr_gpu_config). */
struct tsr_energy_override {
	char name[TSR_ENERGY_NAME_MAX];  /* counter name, or "static_mw.<component>" */
	double value;                    /* pJ per event, or mW */
};

/* The "energy" section of a configuration: overrides in the order given. */
struct tsr_energy_config {
	uint32_t count;
	struct tsr_energy_override items[TSR_ENERGY_MAX_OVERRIDES];
};

/* One row of the effective table. */
struct tsr_energy_row {
	char name[TSR_ENERGY_NAME_MAX];           /* as the override's */
	char component[TSR_ENERGY_COMPONENT_MAX]; /* where its energy is reported */
	double value;                             /* pJ per event, or mW (is_static) */
	int is_static;
	const char *source;                       /* where the value comes from */
};

/*
 * The effective table of cfg: the defaults (for cfg's cores, cache
 * instances, techniques), then cfg->energy's overrides (replacing the row
 * of the same name, or adding one). *rows is malloc'd (free() it).
 * Errors: TSR_ERR_CONFIG naming the key ("energy.<name>") of an override
 * that names no counter, no cache instance or no component, or whose value
 * is negative; TSR_ERR_NOMEM.
 */
enum tsr_status tsr_energy_table(const struct tsr_gpu_config *cfg, struct tsr_energy_row **rows,
				 size_t *n, struct tsr_error *err);

/* Checks cfg's overrides as tsr_energy_table() does (config/config.c calls it). */
enum tsr_status tsr_energy_config_check(const struct tsr_gpu_config *cfg,
					struct tsr_error *err);

/*
 * The component of a counter the default table does not name:
 * "caches.<instance>" for cache counters, "dram" for dram.* and
 * timing.dram_*, "shader_cores" for timing.core_*, "signature_unit" for
 * elimination.*, otherwise the counter's group ("texture" becomes
 * "texture_units"). Writes at most n bytes.
 */
void tsr_energy_component_of(const char *name, char *out, size_t n);

/*
 * Energy of one access (read or write) of `line_bytes` to an SRAM array of
 * size_bytes with `ways` ways, pJ, 32 nm: Horowitz's (ISSCC 2014) energies
 * of a 64-bit read of an 8 KiB, 32 KiB and 1 MiB SRAM (10, 20, 100 pJ),
 * interpolated log-log (extrapolated with the end slopes), x
 * sqrt(line_bytes / 8) for the wider access (decode and word lines
 * shared: an assumption), x (1 + 0.05 (ways - 1)) for the tag compares
 * and way multiplexing (an assumption). Not CACTI output.
 */
double tsr_energy_sram_access_pj(uint64_t size_bytes, uint32_t ways, uint32_t line_bytes);

/* The table bound to a built GPU. */
struct tsr_energy;

/*
 * The model for cfg and its built hierarchy mem (rows of cache instances
 * no route reaches are dropped). Errors: those of tsr_energy_table().
 */
enum tsr_status tsr_energy_create(const struct tsr_gpu_config *cfg,
				  const struct tsr_memsys *mem, struct tsr_energy **out,
				  struct tsr_error *err);
void tsr_energy_destroy(struct tsr_energy *e);

/* The table the model uses (for reports and tests). */
const struct tsr_energy_row *tsr_energy_rows(const struct tsr_energy *e, size_t *n);

/* One component's energy. */
struct tsr_energy_part {
	char name[TSR_ENERGY_COMPONENT_MAX];
	double dynamic_nj, static_nj;
};

/* The energy of one frame (or of the total). */
struct tsr_energy_result {
	uint32_t count;  /* components, in table order of their first row */
	struct tsr_energy_part parts[TSR_ENERGY_MAX_COMPONENTS];
	double dynamic_nj, static_nj, total_nj;
	double seconds;  /* simulated time: timing.cycles / timing.gpu_mhz */
};

/*
 * The energy of the counters s (a frame's or the total's; zero counters,
 * timing.cycles included, give zero). Errors: TSR_ERR_CONFIG if a counter
 * cannot be looked up (cannot happen for a table that passed creation).
 */
enum tsr_status tsr_energy_compute(const struct tsr_energy *e, const struct tsr_frame_stats *s,
				   struct tsr_energy_result *r, struct tsr_error *err);

#endif
