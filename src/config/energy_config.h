/*
 * energy_config.h - the "energy" section of a configuration and the energy
 * table it edits (energy/energy.h describes the model): the overrides as
 * plain data (part of struct tsr_gpu_config), the default table for a
 * configuration with each row's source, and the check of the overrides
 * that tsr_config_check() runs. energy/energy.h binds the table to a
 * built GPU and computes a frame's energy; this header is apart so that
 * config/ needs nothing above it.
 */
#ifndef TSR_CONFIG_ENERGY_CONFIG_H
#define TSR_CONFIG_ENERGY_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct tsr_gpu_config;

/* Longest row name ("caches.l2.all.read_misses", "static_mw.dram"), NUL included. */
#define TSR_ENERGY_NAME_MAX 80
/* Longest component name, NUL included. */
#define TSR_ENERGY_COMPONENT_MAX 48
/* Most overrides a configuration may give. */
#define TSR_ENERGY_MAX_OVERRIDES 64

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

#endif
