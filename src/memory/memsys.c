#include "memory/memsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory/policy.h"

struct tsr_memsys {
	struct tsr_memsys_config cfg;
	uint32_t cache_count;                 /* L1s + L2 */
	struct tsr_cache *caches[4 + 2 * TSR_MAX_CORES];
	struct tsr_cache *l2;
	uint32_t l2_line;
	struct tsr_dram_counters dram[TSR_STREAM_COUNT];
	uint64_t accesses;
};

enum tsr_status tsr_memsys_create(const struct tsr_memsys_config *cfg,
				  struct tsr_memsys **out,
				  struct tsr_error *err)
{
	*out = NULL;
	if (cfg->cores < 1 || cfg->cores > TSR_MAX_CORES)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'cores' must be from 1 to %d", TSR_MAX_CORES);
	struct tsr_memsys *m = calloc(1, sizeof(*m));
	if (!m)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	m->cfg = *cfg;
	enum tsr_status s = TSR_OK;
	const struct tsr_cache_geometry *all[] = {&cfg->vertex, &cfg->tile, &cfg->texture,
						  &cfg->instruction, &cfg->l2};
	static const char *const all_names[] = {"vertex", "tile", "texture", "instruction", "l2"};
	for (int k = 0; k < 5; k++) {
		char where[48];
		snprintf(where, sizeof(where), "cache '%s'", all_names[k]);
		s = tsr_policy_check_online(all[k]->policy, where, all_names[k], err);
		if (s != TSR_OK) {
			free(m);
			return s;
		}
	}
	char name[32];
	uint32_t i = 0;
	s = tsr_cache_create(&cfg->vertex, "vertex", &m->caches[i++], err);
	if (s == TSR_OK)
		s = tsr_cache_create(&cfg->tile, "tile", &m->caches[i++], err);
	for (uint32_t c = 0; s == TSR_OK && c < cfg->cores; c++) {
		snprintf(name, sizeof(name), "texture%u", c);
		s = tsr_cache_create(&cfg->texture, name, &m->caches[i++], err);
	}
	for (uint32_t c = 0; s == TSR_OK && c < cfg->cores; c++) {
		snprintf(name, sizeof(name), "instruction%u", c);
		s = tsr_cache_create(&cfg->instruction, name, &m->caches[i++], err);
	}
	if (s == TSR_OK)
		s = tsr_cache_create(&cfg->l2, "l2", &m->caches[i++], err);
	m->cache_count = i;
	if (s != TSR_OK) {
		tsr_memsys_destroy(m);
		return s;
	}
	m->l2 = m->caches[i - 1];
	m->l2_line = cfg->l2.line_bytes;
	*out = m;
	return TSR_OK;
}

void tsr_memsys_destroy(struct tsr_memsys *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->cache_count; i++)
		tsr_cache_destroy(m->caches[i]);
	free(m);
}

uint32_t tsr_memsys_l1_index(const struct tsr_memsys *m, enum tsr_l1_kind k,
			     uint32_t core)
{
	switch (k) {
	case TSR_L1_VERTEX:
		return 0;
	case TSR_L1_TILE:
		return 1;
	case TSR_L1_TEXTURE:
		return 2 + core;
	case TSR_L1_INSTRUCTION:
		return 2 + m->cfg.cores + core;
	}
	return 0;
}

static void dram_line(struct tsr_memsys *m, int write, enum tsr_stream s)
{
	if (write)
		m->dram[s].write_bytes += m->l2_line;
	else
		m->dram[s].read_bytes += m->l2_line;
}

/* One line-contained access at the L2; misses and write-backs go to DRAM. */
static void l2_access(struct tsr_memsys *m, const struct tsr_access *a)
{
	struct tsr_cache_outcome o;
	m->accesses++;
	tsr_cache_access(m->l2, a, &o);
	if (o.hit)
		return;
	if (o.writeback)
		dram_line(m, 1, (enum tsr_stream)o.victim_stream);
	if (o.bypass)
		dram_line(m, a->write, (enum tsr_stream)a->stream);
	else if (o.fetch)
		dram_line(m, 0, (enum tsr_stream)a->stream);
}

/* An access to the L2, split into L2 lines (an L1 line may be larger). */
static void l2_range(struct tsr_memsys *m, const struct tsr_access *a)
{
	uint64_t addr = a->addr, end = a->addr + (a->size ? a->size : 1);
	while (addr < end) {
		uint64_t line_end = (addr | (m->l2_line - 1)) + 1;
		struct tsr_access part = *a;
		part.addr = addr;
		part.size = (uint32_t)((line_end < end ? line_end : end) - addr);
		l2_access(m, &part);
		addr = line_end;
	}
}

static void l1_access(struct tsr_memsys *m, struct tsr_cache *c,
		      const struct tsr_access *a, uint32_t line_bytes)
{
	struct tsr_cache_outcome o;
	m->accesses++;
	tsr_cache_access(c, a, &o);
	if (o.hit)
		return;
	if (o.writeback) {
		struct tsr_access wb = {.addr = o.victim_addr, .size = line_bytes,
					.write = 1, .stream = o.victim_stream,
					.requester = a->requester, .meta = o.victim_meta,
					.next_use = TSR_NEVER};
		l2_range(m, &wb);
	}
	if (o.bypass) {
		l2_range(m, a);
	} else if (o.fetch) {
		struct tsr_access rd = *a;
		rd.addr &= ~(uint64_t)(line_bytes - 1);
		rd.size = line_bytes;
		rd.write = 0;
		l2_range(m, &rd);
	}
}

void tsr_mem_access(struct tsr_memsys *m, uint32_t l1, uint64_t addr,
		    uint32_t size, int write, enum tsr_stream s,
		    uint16_t requester, uint32_t meta)
{
	struct tsr_cache *c = m->caches[l1];
	uint32_t line = tsr_cache_geometry_of(c)->line_bytes;
	uint64_t end = addr + (size ? size : 1);
	while (addr < end) {
		uint64_t line_end = (addr | (line - 1)) + 1;
		uint64_t chunk_end = line_end < end ? line_end : end;
		struct tsr_access a = {.addr = addr,
				       .size = (uint32_t)(chunk_end - addr),
				       .write = (uint8_t)(write != 0),
				       .stream = (uint8_t)s, .requester = requester,
				       .meta = meta, .next_use = TSR_NEVER};
		l1_access(m, c, &a, line);
		addr = chunk_end;
	}
}

void tsr_mem_l2_access(struct tsr_memsys *m, uint64_t addr, uint32_t size, int write,
		       enum tsr_stream s, uint16_t requester, uint32_t meta)
{
	struct tsr_access a = {.addr = addr, .size = size ? size : 1,
			       .write = (uint8_t)(write != 0), .stream = (uint8_t)s,
			       .requester = requester, .meta = meta, .next_use = TSR_NEVER};
	l2_range(m, &a);
}

uint64_t tsr_mem_dram_burst_bytes(const struct tsr_memsys *m, uint64_t addr, uint32_t size)
{
	uint64_t line = m->l2_line;
	uint64_t first = addr & ~(line - 1);
	uint64_t last = (addr + (size ? size : 1) - 1) & ~(line - 1);
	return (last - first) + line;
}

void tsr_mem_dram_write(struct tsr_memsys *m, uint64_t addr, uint32_t size,
			enum tsr_stream s)
{
	m->dram[s].write_bytes += tsr_mem_dram_burst_bytes(m, addr, size);
}

void tsr_mem_marker(struct tsr_memsys *m, enum tsr_marker kind, uint64_t value)
{
	for (uint32_t i = 0; i < m->cache_count; i++)
		tsr_cache_marker(m->caches[i], kind, value);
}

struct tsr_cache *tsr_memsys_cache_by_name(struct tsr_memsys *m, const char *name)
{
	for (uint32_t i = 0; i < m->cache_count; i++)
		if (strcmp(tsr_cache_name(m->caches[i]), name) == 0)
			return m->caches[i];
	return NULL;
}

uint32_t tsr_memsys_cache_count(const struct tsr_memsys *m)
{
	return m->cache_count;
}

const struct tsr_cache *tsr_memsys_cache(const struct tsr_memsys *m, uint32_t i)
{
	return m->caches[i];
}

const struct tsr_dram_counters *tsr_memsys_dram(const struct tsr_memsys *m,
						enum tsr_stream s)
{
	return &m->dram[s];
}

uint64_t tsr_memsys_accesses(const struct tsr_memsys *m)
{
	return m->accesses;
}
