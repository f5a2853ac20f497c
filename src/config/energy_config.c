/*
 * energy_config.c - the energy table (defaults with their sources, then
 * the configuration's overrides); energy/energy.c binds it to a built GPU
 * and computes the energy of a frame's counters.
 */
#include "config/energy_config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "framestats/stats.h"

/* ---- sources of the defaults ---- */

/*
 * DRAM: Micron 4 Gb x32 LPDDR3-1600 (800 MHz, tCK 1.25 ns), one device per
 * channel, IDD values (mA) of DRAMPower's memspec
 * MICRON_4Gb_LPDDR3-1600_32bit_A.xml (from Micron's datasheet): VDD1 1.8 V:
 * IDD0 15, IDD2N 2, IDD3N 2, IDD4R 5, IDD4W 10, IDD5 40; VDD2 1.2 V:
 * IDD0 80, IDD2N 38, IDD3N 45, IDD4R 260, IDD4W 284, IDD5 160; tRAS 36,
 * tRP 15, tRFC 104 tCK, BL8. Energies as DRAMPower (Chandrasekar et al.)
 * and Micron TN-46-03 compute them, summed over both rails:
 *   ACT   = sum V (IDD0 - IDD3N) tRAS        = 1053 + 1890   = 2943 pJ
 *   PRE   = sum V (IDD0 - IDD2N) tRP         = 438.75 + 945  = 1383.75 pJ
 *   RD    = sum V (IDD4R - IDD3N) BL/2 tCK   = 27 + 1290     = 1317 pJ
 *   WR    = sum V (IDD4W - IDD3N) BL/2 tCK   = 72 + 1434     = 1506 pJ
 *   REF   = sum V (IDD5 - IDD3N) tRFC        = 8892 + 17940  = 26832 pJ
 *   background (active standby) = sum V IDD3N = 3.6 + 54 = 57.6 mW a device.
 * I/O (not in the IDD values): C V^2 per rising edge, a 5 pF pin and
 * trace load (JESD209-3 CIO <= 2.5 pF plus the controller's pad and
 * trace: an assumption) at VDDQ 1.2 V, half the bits toggling and half
 * of those rising: 0.25 x 7.2 pJ = 1.8 pJ a bit, 14.4 pJ a byte.
 */
#define SRC_DRAM "Micron 4Gb LPDDR3-1600 x32 IDD (DRAMPower memspec), DRAMPower/TN-46-03 formulas"
#define SRC_DRAM_IO "C*V^2: 5 pF, VDDQ 1.2 V, activity 0.25 (assumption)"

/*
 * Logic at 32 nm, 1 V: per-operation energies of Horowitz, "Computing's
 * energy problem", ISSCC 2014 (45 nm, 0.9 V; not rescaled: 45 -> 32 nm
 * capacitance and 0.9 -> 1 V roughly cancel): 32-bit FP add 0.9 pJ, FP
 * multiply 3.7 pJ, 32-bit int add 0.1 pJ, int multiply 3.1 pJ, 8-bit add
 * 0.03 pJ, 8-bit multiply 0.2 pJ, 64-bit read of an 8 KiB SRAM 10 pJ.
 *   quad instruction: 4 lanes x (FMA 4.6 + 3 register reads and 1 write of
 *     a small register file ~7) + fetch, decode, issue ~10 = 58 pJ
 *   sample instruction: 4 lanes x (address: 2 FP mul + 2 FP add ~9) ~ 20 pJ
 *   texel: 4 channels x (8-bit mul + add) + address ~2 = 3 pJ
 *   quad rasterized: Rasterizer 3 edges x 4 pixels int MAC ~12 + Early-Z 4
 *     depth reads and writes of the 4 KiB tile depth buffer ~18 = 30 pJ
 *   quad shaded (blending): 4 color read-modify-writes of the tile color
 *     buffer ~4 + blend MACs ~1 each = 20 pJ
 *   CRC of a 64-bit subblock: 8 reads of 1 KiB CRC LUTs + XOR tree ~ 8 pJ
 * The per-unit figures above the operation counts (how many operations a
 * unit spends per event) are assumptions.
 */
#define SRC_CORE "Horowitz ISSCC 2014: 4 lanes x (FMA + register file) + issue (assumption)"
#define SRC_OPS "Horowitz ISSCC 2014 operation energies, operation count assumed"
#define SRC_ASSUMED "assumption (no published figure)"

/*
 * Static power, 32 nm: McPAT reports leakage of a few tens of percent of
 * a mobile GPU's power; these are assumptions of that order for a ~1 W
 * GPU, the caches by size (0.02 mW per KiB, low-leakage SRAM).
 */
#define SRC_STATIC "assumption (McPAT-order leakage at 32 nm)"
#define CORE_STATIC_MW 10.0
#define TEXTURE_STATIC_MW 2.0
#define SRAM_STATIC_MW_PER_KIB 0.02

#define SRC_SRAM "SRAM access by size, ways, line (tsr_energy_sram_access_pj)"

double tsr_energy_sram_access_pj(uint64_t size_bytes, uint32_t ways, uint32_t line_bytes)
{
	/* Horowitz ISSCC 2014: 64-bit read of an 8 KiB, 32 KiB, 1 MiB SRAM */
	static const double kib[3] = {8, 32, 1024}, pj[3] = {10, 20, 100};
	double x = log((double)(size_bytes ? size_bytes : 1) / 1024.0);
	int seg = x < log(kib[1]) ? 0 : 1;
	double slope = (log(pj[seg + 1]) - log(pj[seg])) / (log(kib[seg + 1]) - log(kib[seg]));
	double e64 = exp(log(pj[seg]) + slope * (x - log(kib[seg])));
	double width = sqrt((double)(line_bytes ? line_bytes : 8) / 8.0);
	double assoc = 1.0 + 0.05 * (double)((ways ? ways : 1) - 1);
	return e64 * width * assoc;
}

/* ---- the table ---- */

struct table {
	struct tsr_energy_row *rows;
	size_t n, cap;
};

static enum tsr_status add(struct table *t, const char *name, const char *component,
			   double value, int is_static, const char *source,
			   struct tsr_error *err)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct tsr_energy_row *r = realloc(t->rows, cap * sizeof(*r));
		if (!r)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the energy table");
		t->rows = r;
		t->cap = cap;
	}
	struct tsr_energy_row *r = &t->rows[t->n++];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->component, sizeof(r->component), "%s", component);
	r->value = value;
	r->is_static = is_static;
	r->source = source;
	return TSR_OK;
}

static enum tsr_status dyn(struct table *t, const char *name, const char *component,
			   double pj, const char *source, struct tsr_error *err)
{
	return add(t, name, component, pj, 0, source, err);
}

static enum tsr_status stat(struct table *t, const char *component, double mw,
			    const char *source, struct tsr_error *err)
{
	char name[TSR_ENERGY_NAME_MAX];
	snprintf(name, sizeof(name), TSR_ENERGY_STATIC_PREFIX "%s", component);
	return add(t, name, component, mw, 1, source, err);
}

/* The five rows of one cache instance: reads, writes, fills and write-backs. */
static enum tsr_status cache_rows(struct table *t, const struct tsr_cache_config *k,
				  uint32_t copies, struct tsr_error *err)
{
	static const char *const events[] = {"reads", "writes", "read_misses", "write_misses",
					     "writebacks"};
	char comp[TSR_ENERGY_COMPONENT_MAX], name[TSR_ENERGY_NAME_MAX];
	snprintf(comp, sizeof(comp), "caches.%s", k->name);
	/* an access, a fill (a miss writes the line) and a write-back (reads it)
	 * each cost one access of the line */
	double e = tsr_energy_sram_access_pj(k->geom.size_bytes, k->geom.ways, k->geom.line_bytes);
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		snprintf(name, sizeof(name), "caches.%s.all.%s", k->name, events[i]);
		TSR_TRY(dyn(t, name, comp, e, SRC_SRAM, err));
	}
	return stat(t, comp, SRAM_STATIC_MW_PER_KIB * (double)k->geom.size_bytes / 1024.0 * copies,
		    SRC_STATIC, err);
}

static enum tsr_status defaults(const struct tsr_gpu_config *cfg, struct table *t,
				struct tsr_error *err)
{
	const uint32_t cores = cfg->mem.cores;
	char name[TSR_ENERGY_NAME_MAX];
	/* shader cores: one quad instruction a busy cycle */
	for (uint32_t c = 0; c < cores; c++) {
		snprintf(name, sizeof(name), "timing.core_busy.%u", c);
		TSR_TRY(dyn(t, name, "shader_cores", 58.0, SRC_CORE, err));
	}
	TSR_TRY(dyn(t, "texture.sample_instructions", "shader_cores", 20.0, SRC_OPS, err));
	TSR_TRY(dyn(t, "texture.texel_fetches", "texture_units", 3.0, SRC_OPS, err));
	TSR_TRY(dyn(t, "raster.quads_rasterized", "raster", 30.0, SRC_OPS, err));
	TSR_TRY(dyn(t, "raster.quads_shaded", "raster", 20.0, SRC_OPS, err));
	TSR_TRY(dyn(t, "geometry.vertex_instructions", "geometry", 14.5,
		    "1 lane of a quad instruction (58 pJ / 4)", err));
	TSR_TRY(dyn(t, "geometry.primitives_in", "geometry", 20.0, SRC_ASSUMED, err));
	TSR_TRY(dyn(t, "geometry.primitives_binned", "tiling", 10.0, SRC_ASSUMED, err));
	TSR_TRY(dyn(t, "tiling.pmds_written", "tiling", 5.0, SRC_ASSUMED, err));
	TSR_TRY(dyn(t, "tiling.pmds_read", "tiling", 3.0, SRC_ASSUMED, err));
	if (cfg->elim.rendering || cfg->elim.transactions) {
		TSR_TRY(dyn(t, "elimination.signature_unit.subblocks_signed", "signature_unit", 8.0,
			    SRC_OPS, err));
		TSR_TRY(dyn(t, "elimination.signature_unit.accumulate_steps", "signature_unit",
			    4.0, SRC_ASSUMED, err));
		TSR_TRY(dyn(t, "elimination.signature_unit.shift_steps", "signature_unit", 4.0,
			    SRC_ASSUMED, err));
		TSR_TRY(dyn(t, "elimination.tiles_compared", "signature_unit", 10.0, SRC_ASSUMED,
			    err));
		TSR_TRY(dyn(t, "elimination.te_subblocks_signed", "signature_unit", 8.0, SRC_OPS,
			    err));
	}
	if (cfg->attribute_cache) {
		/* the Attribute Buffer's 64-byte entries; fully associative as 16 ways */
		uint32_t ways = cfg->ac.ways && cfg->ac.ways < 16 ? cfg->ac.ways : 16;
		double e = tsr_energy_sram_access_pj(cfg->ac.size_bytes, ways, 64);
		TSR_TRY(dyn(t, "attribute_cache.reads", "attribute_cache", e, SRC_SRAM, err));
		TSR_TRY(dyn(t, "attribute_cache.writes", "attribute_cache", e, SRC_SRAM, err));
	}
	for (uint32_t i = 0; i < cfg->mem.cache_count; i++) {
		const struct tsr_cache_config *k = &cfg->mem.caches[i];
		TSR_TRY(cache_rows(t, k, k->per_core ? cores : 1, err));
	}
	TSR_TRY(dyn(t, "timing.dram_activates", "dram", 2943.0, SRC_DRAM, err));
	TSR_TRY(dyn(t, "timing.dram_precharges", "dram", 1383.75, SRC_DRAM, err));
	TSR_TRY(dyn(t, "timing.dram_read_bursts", "dram", 1317.0, SRC_DRAM, err));
	TSR_TRY(dyn(t, "timing.dram_write_bursts", "dram", 1506.0, SRC_DRAM, err));
	TSR_TRY(dyn(t, "timing.dram_refreshes", "dram", 26832.0, SRC_DRAM, err));
	TSR_TRY(dyn(t, "timing.dram_io_bytes", "dram", 14.4, SRC_DRAM_IO, err));
	/* static power */
	TSR_TRY(stat(t, "shader_cores", CORE_STATIC_MW * cores, SRC_STATIC, err));
	TSR_TRY(stat(t, "texture_units", TEXTURE_STATIC_MW * cores, SRC_STATIC, err));
	TSR_TRY(stat(t, "raster", 5.0, SRC_STATIC, err));
	TSR_TRY(stat(t, "tiling", 3.0, SRC_STATIC, err));
	TSR_TRY(stat(t, "geometry", 5.0, SRC_STATIC, err));
	if (cfg->elim.rendering || cfg->elim.transactions)
		TSR_TRY(stat(t, "signature_unit", 0.5, SRC_STATIC, err));
	if (cfg->attribute_cache)
		TSR_TRY(stat(t, "attribute_cache",
			     SRAM_STATIC_MW_PER_KIB * (double)cfg->ac.size_bytes / 1024.0,
			     SRC_STATIC, err));
	/* both channels' devices in active standby (IDD3N) */
	return stat(t, "dram", 2 * 57.6, SRC_DRAM, err);
}

void tsr_energy_component_of(const char *name, char *out, size_t n)
{
	char group[TSR_ENERGY_COMPONENT_MAX];
	size_t len = strcspn(name, ".");
	if (len >= sizeof(group))
		len = sizeof(group) - 1;
	memcpy(group, name, len);
	group[len] = '\0';
	if (!strcmp(group, "caches")) {
		const char *inst = name + len + (name[len] == '.');
		size_t il = strcspn(inst, ".");
		snprintf(out, n, "caches.%.*s", (int)il, inst);
	} else if (!strcmp(group, "dram") || !strncmp(name, "timing.dram_", 12)) {
		snprintf(out, n, "dram");
	} else if (!strncmp(name, "timing.core_", 12)) {
		snprintf(out, n, "shader_cores");
	} else if (!strcmp(group, "elimination")) {
		snprintf(out, n, "signature_unit");
	} else if (!strcmp(group, "texture")) {
		snprintf(out, n, "texture_units");
	} else {
		snprintf(out, n, "%s", group);
	}
}

/* A configured cache instance called inst (or a per-core copy of one). */
static int known_cache(const struct tsr_gpu_config *cfg, const char *inst, size_t len)
{
	for (uint32_t i = 0; i < cfg->mem.cache_count; i++) {
		const struct tsr_cache_config *k = &cfg->mem.caches[i];
		size_t kl = strlen(k->name);
		if (kl == len && !strncmp(k->name, inst, len))
			return 1;
		if (k->per_core && kl < len && !strncmp(k->name, inst, kl)) {
			char *end;
			unsigned long c = strtoul(inst + kl, &end, 10);
			if (end == inst + len && c < cfg->mem.cores)
				return 1;
		}
	}
	return 0;
}

/* Checks that an override names a counter (or, static_mw.*, a component of t). */
static enum tsr_status check_name(const struct tsr_gpu_config *cfg, const struct table *t,
				  const char *name, struct tsr_error *err)
{
	size_t plen = strlen(TSR_ENERGY_STATIC_PREFIX);
	if (!strncmp(name, TSR_ENERGY_STATIC_PREFIX, plen)) {
		for (size_t i = 0; i < t->n; i++)
			if (!strcmp(t->rows[i].component, name + plen))
				return TSR_OK;
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'energy.%s' names no component (shader_cores, "
				     "texture_units, raster, tiling, geometry, signature_unit, "
				     "attribute_cache, caches.<instance>, dram, or one of a counter "
				     "the table gives an energy)", name);
	}
	static struct tsr_frame_stats zero;
	uint64_t v;
	struct tsr_error e;
	if (tsr_stats_lookup(&zero, NULL, name, &v, &e) != TSR_OK)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'energy.%s' names no counter: %s (see 'tessera counters')",
				     name, e.msg);
	if (!strncmp(name, "caches.", 7)) {
		const char *inst = name + 7;
		if (!known_cache(cfg, inst, strcspn(inst, ".")))
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "key 'energy.%s' names no cache instance '%.*s'", name,
					     (int)strcspn(inst, "."), inst);
	}
	return TSR_OK;
}

enum tsr_status tsr_energy_table(const struct tsr_gpu_config *cfg, struct tsr_energy_row **rows,
				 size_t *n, struct tsr_error *err)
{
	struct table t = {0};
	enum tsr_status s = defaults(cfg, &t, err);
	const struct tsr_energy_config *ec = &cfg->energy;
	for (uint32_t i = 0; s == TSR_OK && i < ec->count; i++) {
		const struct tsr_energy_override *o = &ec->items[i];
		if (!(o->value >= 0.0) || isinf(o->value)) {
			s = tsr_error_set(err, TSR_ERR_CONFIG,
					  "key 'energy.%s' must be a finite number >= 0 (%s)", o->name,
					  strncmp(o->name, TSR_ENERGY_STATIC_PREFIX,
						  strlen(TSR_ENERGY_STATIC_PREFIX))
						  ? "pJ per event"
						  : "mW");
			break;
		}
		if ((s = check_name(cfg, &t, o->name, err)) != TSR_OK)
			break;
		size_t r = 0;
		while (r < t.n && strcmp(t.rows[r].name, o->name))
			r++;
		if (r < t.n) {
			t.rows[r].value = o->value;
			t.rows[r].source = "configuration";
			continue;
		}
		char comp[TSR_ENERGY_COMPONENT_MAX];
		tsr_energy_component_of(o->name, comp, sizeof(comp));
		s = dyn(&t, o->name, comp, o->value, "configuration", err);
	}
	if (s != TSR_OK) {
		free(t.rows);
		return s;
	}
	*rows = t.rows;
	*n = t.n;
	return TSR_OK;
}

enum tsr_status tsr_energy_config_check(const struct tsr_gpu_config *cfg,
					struct tsr_error *err)
{
	struct tsr_energy_row *rows = NULL;
	size_t n = 0;
	enum tsr_status s = tsr_energy_table(cfg, &rows, &n, err);
	free(rows);
	return s;
}
