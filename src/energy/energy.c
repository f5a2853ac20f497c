/*
 * energy.c - the energy model bound to a built GPU: the table of
 * config/energy_config.c without the rows of unreached cache instances,
 * and the energy of a frame's counters.
 */
#include "energy/energy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "framestats/stats.h"
#include "memory/memsys.h"

struct tsr_energy {
	struct tsr_energy_row *rows;
	size_t n;
	const struct tsr_memsys *mem;
	uint32_t gpu_mhz;
	/* components in order of their first row; part[i]: component of row i */
	uint32_t components;
	char names[TSR_ENERGY_MAX_COMPONENTS][TSR_ENERGY_COMPONENT_MAX];
	uint32_t *part;
};

/* 1 when the hierarchy holds instance inst (a configured name). */
static int built_cache(const struct tsr_memsys *mem, const char *inst, size_t len)
{
	for (uint32_t c = 0; c < tsr_memsys_cache_count(mem); c++) {
		const char *g = tsr_memsys_cache_group(mem, c);
		if (strlen(g) == len && !strncmp(g, inst, len))
			return 1;
	}
	return 0;
}

enum tsr_status tsr_energy_create(const struct tsr_gpu_config *cfg,
				  const struct tsr_memsys *mem, struct tsr_energy **out,
				  struct tsr_error *err)
{
	struct tsr_energy *e = calloc(1, sizeof(*e));
	if (!e)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the energy model");
	enum tsr_status s = tsr_energy_table(cfg, &e->rows, &e->n, err);
	if (s != TSR_OK) {
		free(e);
		return s;
	}
	e->mem = mem;
	e->gpu_mhz = cfg->timing.gpu_mhz;
	e->part = calloc(e->n ? e->n : 1, sizeof(*e->part));
	if (!e->part) {
		tsr_energy_destroy(e);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the energy model");
	}
	/* drop the rows of instances no route reaches: they count nothing */
	size_t k = 0;
	for (size_t i = 0; i < e->n; i++) {
		const char *c = e->rows[i].component;
		if (!strncmp(c, "caches.", 7) && !built_cache(mem, c + 7, strlen(c + 7)))
			continue;
		e->rows[k++] = e->rows[i];
	}
	e->n = k;
	for (size_t i = 0; i < e->n; i++) {
		uint32_t p = 0;
		while (p < e->components && strcmp(e->names[p], e->rows[i].component))
			p++;
		if (p == e->components) {
			if (p == TSR_ENERGY_MAX_COMPONENTS) {
				tsr_energy_destroy(e);
				return tsr_error_set(err, TSR_ERR_LIMIT,
						     "more than %d energy components",
						     TSR_ENERGY_MAX_COMPONENTS);
			}
			snprintf(e->names[p], sizeof(e->names[p]), "%s", e->rows[i].component);
			e->components++;
		}
		e->part[i] = p;
	}
	*out = e;
	return TSR_OK;
}

void tsr_energy_destroy(struct tsr_energy *e)
{
	if (!e)
		return;
	free(e->rows);
	free(e->part);
	free(e);
}

const struct tsr_energy_row *tsr_energy_rows(const struct tsr_energy *e, size_t *n)
{
	*n = e->n;
	return e->rows;
}

enum tsr_status tsr_energy_compute(const struct tsr_energy *e, const struct tsr_frame_stats *s,
				   struct tsr_energy_result *r, struct tsr_error *err)
{
	memset(r, 0, sizeof(*r));
	r->count = e->components;
	for (uint32_t p = 0; p < e->components; p++)
		snprintf(r->parts[p].name, sizeof(r->parts[p].name), "%s", e->names[p]);
	/* mW x us = nJ */
	double us = e->gpu_mhz ? (double)s->timing.cycles / (double)e->gpu_mhz : 0.0;
	r->seconds = us * 1e-6;
	for (size_t i = 0; i < e->n; i++) {
		const struct tsr_energy_row *row = &e->rows[i];
		struct tsr_energy_part *p = &r->parts[e->part[i]];
		if (row->is_static) {
			p->static_nj += row->value * us;
			continue;
		}
		uint64_t v;
		TSR_TRY(tsr_stats_lookup(s, e->mem, row->name, &v, err));
		p->dynamic_nj += (double)v * row->value * 1e-3;
	}
	for (uint32_t p = 0; p < r->count; p++) {
		r->dynamic_nj += r->parts[p].dynamic_nj;
		r->static_nj += r->parts[p].static_nj;
	}
	r->total_nj = r->dynamic_nj + r->static_nj;
	return TSR_OK;
}
