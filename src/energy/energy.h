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
 * The default table (tsr_energy_table(); docs/energy.md)
 * is for 32 nm, 1 V logic and SRAM, as the papers' McPAT setup, and a
 * dual-channel x32 LPDDR3-1600 device (Micron 4 Gb LPDDR3 IDD values as
 * DRAMPower's memspec MICRON_4Gb_LPDDR3-1600_32bit_A gives them, energies
 * by DRAMPower's / Micron TN-46-03's formulas). Each row carries its source
 * or says it is an assumption. Caches: energy per access by size,
 * associativity and line size from tsr_energy_sram_access_pj(). The
 * configuration overrides any row and adds rows (config/config.c, section
 * "energy": keys "energy.<counter name>" in pJ and
 * "energy.static_mw.<component>" in mW). The table and its overrides are
 * config/energy_config.h (tsr_config_check() checks them); this header
 * binds the table to a built GPU.
 *
 * Left out: energy of idle clock trees beyond the static power, voltage
 * and frequency scaling, DRAM power-down states (the background power is
 * active standby throughout), LPDDR4's own IDD values (the lpddr4 model
 * uses LPDDR3's), wires and the network between the caches.
 */
#ifndef TSR_ENERGY_ENERGY_H
#define TSR_ENERGY_ENERGY_H

#include <stddef.h>
#include <stdint.h>

#include "config/energy_config.h"
#include "core/status.h"

struct tsr_gpu_config;
struct tsr_memsys;
struct tsr_frame_stats;

/* Most components of one result. */
#define TSR_ENERGY_MAX_COMPONENTS (16 + 16)

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
