#include "memory/memsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory/policy.h"
#include "timing/mempath.h"

/* Parent of a DRAM-backed cache. */
#define NODE_DRAM UINT32_MAX

/*
 * The lines of a port's last access of several lines that hit in all of
 * them (an instruction fetch's program, mostly), by where they were
 * found: while the cache fills nothing (fast.fills unchanged), the same
 * lines are at the same ways, present and whole, so the same access hits
 * them again without the lookups.
 */
#define RUN_MEMO_LINES 8
struct run_memo {
	uint64_t first;                   /* its first line's tag */
	uint64_t fills;                   /* the cache's fast.fills when recorded */
	uint32_t lines;                   /* 0: none */
	uint32_t slot[RUN_MEMO_LINES];    /* set * ways + way of each line */
};

/* A cache of the hierarchy; its lookup state is m->hot.port[its index]. */
struct node {
	struct tsr_cache *cache;
	uint32_t parent;        /* node index or NODE_DRAM */
	uint32_t line_bytes;
	uint32_t level;         /* 1 + the highest level of its children */
	uint32_t instance;      /* index in cfg.caches */
	struct run_memo memo;
};

struct tsr_memsys {
	struct tsr_memsys_hot hot;   /* first: tsr_mem_access()'s inline part reads it */
	struct tsr_memsys_config cfg;
	uint32_t cache_count;
	struct node nodes[TSR_MEMSYS_MAX_CACHES];
	/* routes[r][core]: the port of route r for each shader core */
	uint32_t routes[TSR_ROUTE_COUNT][TSR_MAX_CORES];
	uint32_t burst_bytes;
	struct tsr_dram_counters dram[TSR_STREAM_COUNT];
	struct tsr_dram_counters perfect[TSR_STREAM_COUNT];
	tsr_mem_path_fn path_fn;     /* tsr_memsys_set_path_sink(), or NULL */
	void *path_ctx;
	/* tsr_memsys_pause_path_sink(): the sink set aside (path_fn NULL)
	 * until hot.accesses reaches resume_at; paused_from: the count at the
	 * pause; paused: the accesses made while paused, in all */
	tsr_mem_path_fn paused_fn;
	uint64_t resume_at, paused_from, paused;
	struct tsr_mem_path path;    /* the line access being resolved */
	int bypass;                  /* tsr_memsys_set_bypass(): every access dropped */
};

void tsr_memsys_set_path_sink(struct tsr_memsys *m, tsr_mem_path_fn fn, void *ctx)
{
	if (m->paused_fn) {  /* a pause ends */
		m->paused += m->hot.accesses - m->paused_from;
		m->paused_fn = NULL;
	}
	m->path_fn = fn;
	m->path_ctx = ctx;
	/* with a sink, every access takes the slow path, which records it */
	m->hot.inline_ports = fn || m->bypass ? 0 : m->cache_count;
}

void tsr_memsys_path_sink(const struct tsr_memsys *m, tsr_mem_path_fn *fn, void **ctx)
{
	*fn = m->paused_fn ? m->paused_fn : m->path_fn;
	*ctx = m->path_ctx;
}

void tsr_memsys_pause_path_sink(struct tsr_memsys *m, uint64_t until)
{
	if (!m->path_fn || until <= m->hot.accesses)
		return;
	tsr_mem_path_fn fn = m->path_fn;
	tsr_memsys_set_path_sink(m, NULL, m->path_ctx);
	m->paused_fn = fn;
	m->paused_from = m->hot.accesses;
	m->resume_at = until;
}

uint64_t tsr_memsys_paused_accesses(const struct tsr_memsys *m)
{
	return m->paused + (m->paused_fn ? m->hot.accesses - m->paused_from : 0);
}

/* A paused sink's resumption: at the first access past the inline plain
 * hit once the count has reached resume_at (the inline path, which every
 * access takes while no sink is set, is not slowed by a check). Whether
 * the sink is set again. */
static inline int sink_resumed(struct tsr_memsys *m)
{
	if (__builtin_expect(m->paused_fn == NULL, 1) || m->hot.accesses < m->resume_at)
		return 0;
	tsr_memsys_set_path_sink(m, m->paused_fn, m->path_ctx);
	return 1;
}

void tsr_memsys_set_bypass(struct tsr_memsys *m, int on)
{
	m->bypass = on != 0;
	/* every access then takes the slow path, whose first test drops it:
	 * the inline plain hit of the normal path is unchanged */
	m->hot.inline_ports = m->path_fn || m->bypass ? 0 : m->cache_count;
}

int tsr_memsys_bypassed(const struct tsr_memsys *m)
{
	return m->bypass;
}

const char *tsr_memsys_route_name(uint32_t r)
{
	return r == TSR_ROUTE_ATTRIBUTE_CACHE ? "attribute_cache"
					      : tsr_stream_name((enum tsr_stream)r);
}

static void instance(struct tsr_memsys_config *c, const char *name, uint32_t size,
		     uint32_t ways, uint32_t latency, int per_core, const char *parent)
{
	struct tsr_cache_config *k = &c->caches[c->cache_count++];
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->geom.size_bytes = size;
	k->geom.ways = ways;
	k->geom.line_bytes = 64;
	k->geom.latency_cycles = latency;
	snprintf(k->geom.policy, sizeof(k->geom.policy), "lru");
	k->write_policy = TSR_WRITE_BACK;
	k->mshrs = 16;
	k->ports = 1;
	k->per_core = (uint32_t)per_core;
	snprintf(k->parent, sizeof(k->parent), "%s", parent);
}

void tsr_memsys_config_defaults(struct tsr_memsys_config *c, uint32_t cores)
{
	memset(c, 0, sizeof(*c));
	c->cores = cores;
	instance(c, "vertex", 64 * 1024, 4, 1, 0, "l2");
	instance(c, "tile", 64 * 1024, 4, 1, 0, "l2");
	instance(c, "texture", 64 * 1024, 4, 1, 1, "l2");
	instance(c, "instruction", 16 * 1024, 4, 1, 1, "l2");
	instance(c, "l2", 1024 * 1024, 8, 12, 0, TSR_ROUTE_DRAM);
	static const struct {
		uint32_t route;
		const char *to;
	} routes[] = {
		{TSR_STREAM_INDEX, "vertex"},       {TSR_STREAM_VERTEX, "vertex"},
		{TSR_STREAM_PB_LISTS, "tile"},      {TSR_STREAM_PB_ATTRIBUTES, "tile"},
		{TSR_STREAM_TEXTURE, "texture"},    {TSR_STREAM_INSTRUCTION, "instruction"},
		{TSR_ROUTE_ATTRIBUTE_CACHE, "l2"},
	};
	for (uint32_t r = 0; r < TSR_ROUTE_COUNT; r++)
		snprintf(c->routes[r], sizeof(c->routes[r]), "%s", TSR_ROUTE_DRAM);
	for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++)
		snprintf(c->routes[routes[i].route], sizeof(c->routes[0]), "%s", routes[i].to);
	c->dram_latency_cycles = 100;
	c->dram_burst_bytes = 64;
}

static int find_instance(const struct tsr_memsys_config *c, const char *name)
{
	for (uint32_t i = 0; i < c->cache_count; i++)
		if (strcmp(c->caches[i].name, name) == 0)
			return (int)i;
	return -1;
}

struct tsr_cache_config *tsr_memsys_config_cache(struct tsr_memsys_config *c,
						 const char *name)
{
	int i = find_instance(c, name);
	return i < 0 ? NULL : &c->caches[i];
}

enum tsr_status tsr_memsys_config_check(const struct tsr_memsys_config *c,
					struct tsr_error *err)
{
	if (c->cores < 1 || c->cores > TSR_MAX_CORES)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'raster.cores' must be from 1 to %d", TSR_MAX_CORES);
	if (c->cache_count > TSR_MEMSYS_MAX_INSTANCES)
		return tsr_error_set(err, TSR_ERR_CONFIG, "key 'caches' has more than %d instances",
				     TSR_MEMSYS_MAX_INSTANCES);
	if (c->dram_burst_bytes < 4 || (c->dram_burst_bytes & (c->dram_burst_bytes - 1)))
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'dram.burst_bytes' must be a power of two of at least 4");
	uint32_t copies = 0;
	for (uint32_t i = 0; i < c->cache_count; i++) {
		const struct tsr_cache_config *k = &c->caches[i];
		char key[80];
		snprintf(key, sizeof(key), "caches.%s", k->name);
		if (!k->name[0] || !strcmp(k->name, TSR_ROUTE_DRAM) ||
		    !strcmp(k->name, TSR_ROUTE_PERFECT))
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "key '%s': '%s' cannot name a cache instance", key,
					     k->name);
		TSR_TRY(tsr_cache_geometry_check(&k->geom, key, err));
		char pkey[96];
		snprintf(pkey, sizeof(pkey), "key '%s.policy'", key);
		TSR_TRY(tsr_policy_check_online(k->geom.policy, pkey, k->name, err));
		copies += k->per_core ? c->cores : 1;
		if (!strcmp(k->parent, TSR_ROUTE_DRAM))
			continue;
		int p = find_instance(c, k->parent);
		if (p < 0)
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "key '%s.parent': no cache instance '%s' (give an "
					     "instance of 'caches' or \"dram\")", key, k->parent);
		if (c->caches[p].per_core && !k->per_core)
			return tsr_error_set(err, TSR_ERR_CONFIG,
					     "key '%s.parent': shared cache '%s' cannot have the "
					     "per-core cache '%s' as its parent", key, k->name,
					     k->parent);
		/* follow the parents: a chain longer than the instances is a cycle */
		uint32_t steps = 0;
		for (int q = p; q >= 0 && strcmp(c->caches[q].parent, TSR_ROUTE_DRAM);
		     q = find_instance(c, c->caches[q].parent))
			if (++steps > c->cache_count)
				return tsr_error_set(err, TSR_ERR_CONFIG,
						     "key '%s.parent': the parents of '%s' form a "
						     "cycle", key, k->name);
	}
	if (copies > TSR_MEMSYS_MAX_CACHES)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'caches': %u caches with the per-core copies, at most %d",
				     copies, TSR_MEMSYS_MAX_CACHES);
	for (uint32_t r = 0; r < TSR_ROUTE_COUNT; r++) {
		const char *to = c->routes[r];
		if (!strcmp(to, TSR_ROUTE_DRAM) || !strcmp(to, TSR_ROUTE_PERFECT) ||
		    find_instance(c, to) >= 0)
			continue;
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "key 'routes.%s': no cache instance '%s' (give an instance "
				     "of 'caches', \"perfect\" or \"dram\")",
				     tsr_memsys_route_name(r), to);
	}
	return TSR_OK;
}

/* Marks instance i and its ancestors as used. */
static void mark_used(const struct tsr_memsys_config *c, int i, uint8_t *used)
{
	while (i >= 0 && !used[i]) {
		used[i] = 1;
		i = strcmp(c->caches[i].parent, TSR_ROUTE_DRAM) ? find_instance(c, c->caches[i].parent)
							       : -1;
	}
}

enum tsr_status tsr_memsys_create(const struct tsr_memsys_config *cfg,
				  struct tsr_memsys **out,
				  struct tsr_error *err)
{
	*out = NULL;
	TSR_TRY(tsr_memsys_config_check(cfg, err));
	struct tsr_memsys *m = calloc(1, sizeof(*m));
	if (!m)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	m->cfg = *cfg;
	m->burst_bytes = cfg->dram_burst_bytes;
	uint8_t used[TSR_MEMSYS_MAX_INSTANCES] = {0};
	for (uint32_t r = 0; r < TSR_ROUTE_COUNT; r++)
		mark_used(cfg, find_instance(cfg, cfg->routes[r]), used);
	/* first node of each instance (its per-core copies follow) */
	uint32_t first[TSR_MEMSYS_MAX_INSTANCES];
	enum tsr_status s = TSR_OK;
	for (uint32_t i = 0; s == TSR_OK && i < cfg->cache_count; i++) {
		first[i] = NODE_DRAM;
		if (!used[i])
			continue;
		const struct tsr_cache_config *k = &cfg->caches[i];
		first[i] = m->cache_count;
		struct tsr_cache_geometry g = k->geom;
		g.write_through = k->write_policy == TSR_WRITE_THROUGH;
		for (uint32_t c = 0; s == TSR_OK && c < (k->per_core ? cfg->cores : 1); c++) {
			char name[TSR_CACHE_NAME_MAX + 16];
			if (k->per_core)
				snprintf(name, sizeof(name), "%s%u", k->name, c);
			else
				snprintf(name, sizeof(name), "%s", k->name);
			struct node *n = &m->nodes[m->cache_count];
			n->instance = i;
			n->line_bytes = g.line_bytes;
			s = tsr_cache_create(&g, name, &n->cache, err);
			if (s == TSR_OK) {
				m->hot.port[m->cache_count].fast = tsr_cache_fast_view(n->cache);
				m->hot.port[m->cache_count].line_mask = ~(uint64_t)(g.line_bytes - 1);
				m->hot.port[m->cache_count].write_through = (uint8_t)g.write_through;
				m->cache_count++;
			}
		}
	}
	if (s != TSR_OK) {
		tsr_memsys_destroy(m);
		return s;
	}
	/* parents: a per-core child's parent is the same core's copy when per-core */
	for (uint32_t n = 0; n < m->cache_count; n++) {
		struct node *x = &m->nodes[n];
		const struct tsr_cache_config *k = &cfg->caches[x->instance];
		x->parent = NODE_DRAM;
		if (!strcmp(k->parent, TSR_ROUTE_DRAM))
			continue;
		int p = find_instance(cfg, k->parent);
		x->parent = first[p] + (cfg->caches[p].per_core ? n - first[x->instance] : 0);
	}
	/* levels: a parent is one above its highest child */
	for (uint32_t n = 0; n < m->cache_count; n++)
		m->nodes[n].level = 1;
	for (uint32_t pass = 0; pass < m->cache_count; pass++)
		for (uint32_t n = 0; n < m->cache_count; n++) {
			uint32_t p = m->nodes[n].parent;
			if (p != NODE_DRAM && m->nodes[p].level < m->nodes[n].level + 1)
				m->nodes[p].level = m->nodes[n].level + 1;
		}
	for (uint32_t r = 0; r < TSR_ROUTE_COUNT; r++)
		for (uint32_t c = 0; c < TSR_MAX_CORES; c++) {
			const char *to = cfg->routes[r];
			int i = find_instance(cfg, to);
			if (i >= 0)
				m->routes[r][c] = first[i] + (cfg->caches[i].per_core
							      ? c % cfg->cores : 0);
			else
				m->routes[r][c] = strcmp(to, TSR_ROUTE_PERFECT) ? TSR_PORT_DRAM
										: TSR_PORT_PERFECT;
		}
	m->hot.inline_ports = m->cache_count;
	*out = m;
	return TSR_OK;
}

void tsr_memsys_destroy(struct tsr_memsys *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->cache_count; i++)
		tsr_cache_destroy(m->nodes[i].cache);
	free(m);
}

uint32_t tsr_memsys_port(const struct tsr_memsys *m, uint32_t route, uint32_t core)
{
	return m->routes[route][core % TSR_MAX_CORES];
}

uint32_t tsr_memsys_cache_port(const struct tsr_memsys *m, const char *name)
{
	for (uint32_t i = 0; i < m->cache_count; i++)
		if (strcmp(tsr_cache_name(m->nodes[i].cache), name) == 0)
			return i;
	return TSR_PORT_DRAM;
}

static void dram_bytes(struct tsr_memsys *m, int write, enum tsr_stream s, uint64_t bytes)
{
	if (write)
		m->dram[s].write_bytes += bytes;
	else
		m->dram[s].read_bytes += bytes;
}

/* The deepest level an access reached (results of split accesses merge). */
static void reached(struct tsr_mem_result *r, uint32_t port, uint32_t level)
{
	if (r && level >= r->level) {
		r->level = level;
		r->served_by = port;
	}
}

static void node_access(struct tsr_memsys *m, uint32_t n, const struct tsr_access *a,
			uint32_t depth, struct tsr_mem_result *r, int absent);
static void node_access_plain(struct tsr_memsys *m, uint32_t n, const struct tsr_access *a,
			      uint32_t depth, int absent);

/* to_parent() of an access that spans several lines of parent node p. */
static void __attribute__((noinline))
to_parent_split(struct tsr_memsys *m, uint32_t p, const struct tsr_access *a, uint32_t depth,
		struct tsr_mem_result *r)
{
	const uint64_t line = m->nodes[p].line_bytes;
	uint64_t addr = a->addr, end = a->addr + (a->size ? a->size : 1);
	while (addr < end) {
		uint64_t line_end = (addr | (line - 1)) + 1;
		struct tsr_access part = *a;
		part.addr = addr;
		part.size = (uint32_t)((line_end < end ? line_end : end) - addr);
		node_access(m, p, &part, depth + 1, r, 0);
		addr = line_end;
	}
}

/*
 * Sends a line-sized transfer (a fill, a write-back, a bypassed or
 * written-through access) from node `from` to its parent, split into the
 * parent's lines; DRAM moves the child's line. Inline: the common cases
 * (DRAM, one parent line) cost no call of their own. plain (a constant):
 * no path sink and r NULL (node_access_plain()).
 */
static inline __attribute__((always_inline)) void
to_parent(struct tsr_memsys *m, const struct node *from, const struct tsr_access *a,
	  uint32_t depth, struct tsr_mem_result *r, const int plain)
{
	if (from->parent == NODE_DRAM) {
		dram_bytes(m, a->write, (enum tsr_stream)a->stream, from->line_bytes);
		if (!plain) {
			reached(r, TSR_PORT_DRAM, depth + 1);
			if (m->path_fn && r)
				m->path.dram_bytes += from->line_bytes;
		}
		return;
	}
	const uint32_t p = from->parent;
	const uint64_t line = m->nodes[p].line_bytes;
	const uint64_t end = a->addr + (a->size ? a->size : 1);
	if (((a->addr ^ (end - 1)) & ~(line - 1)) != 0)
		to_parent_split(m, p, a, depth, r);
	else if (plain)  /* within one parent line: no split */
		node_access_plain(m, p, a, depth + 1, 0);
	else
		node_access(m, p, a, depth + 1, r, 0);
}

/*
 * Writes a dirty victim back: the whole line, or for a partly written line
 * (fetch_on_write = 0) its written byte runs as byte-masked writes; DRAM
 * moves the line once either way.
 */
static inline __attribute__((always_inline)) void
write_back(struct tsr_memsys *m, const struct node *x, const struct tsr_cache_outcome *o,
	   uint16_t requester, uint32_t depth, const int plain)
{
	struct tsr_access wb = {.addr = o->victim_addr, .size = x->line_bytes, .write = 1,
				.stream = o->victim_stream, .requester = requester,
				.meta = o->victim_meta, .next_use = TSR_NEVER};
	if (!plain && m->path_fn && m->path.wb_count < TSR_MEM_PATH_WRITEBACKS && m->path.levels) {
		/* a victim of a cache off the request's chain (a write-back's own
		 * eviction below): kept when it goes to DRAM, at the chain's last
		 * level, so that its DRAM traffic is timed */
		uint32_t from = depth - 1;
		if (from >= m->path.levels && x->parent == NODE_DRAM)
			from = m->path.levels - 1u;
		if (from < m->path.levels)
			m->path.wb[m->path.wb_count++] = (struct tsr_mem_writeback){
				.from_level = (uint8_t)from, .to_dram = x->parent == NODE_DRAM,
				.bytes = (uint16_t)x->line_bytes, .addr = o->victim_addr};
	}
	if (!o->victim_mask || x->parent == NODE_DRAM) {
		to_parent(m, x, &wb, depth, NULL, plain);
		return;
	}
	uint32_t offs[32], sizes[32];
	uint32_t runs = tsr_cache_mask_runs(x->cache, o->victim_mask, offs, sizes);
	for (uint32_t i = 0; i < runs; i++) {
		wb.addr = o->victim_addr + offs[i];
		wb.size = sizes[i];
		to_parent(m, x, &wb, depth, NULL, plain);
	}
}

/*
 * Records a lookup of the access being resolved (r non-NULL: the request's
 * own chain, not a write-back) in m->path: the cache at level depth - 1,
 * the line, and the first level that held it (or allocated it without a
 * fetch). Parts of a line split across smaller parent lines after the
 * first are not recorded (their lookups coincide in level and time).
 */
static void path_level(struct tsr_memsys *m, uint32_t n, const struct tsr_access *a,
		       uint32_t depth, const struct tsr_cache_outcome *o)
{
	struct tsr_mem_path *p = &m->path;
	const uint32_t i = depth - 1;
	if (i >= TSR_MEM_PATH_LEVELS || i < p->levels)
		return;
	p->cache[i] = (uint16_t)n;
	p->line[i] = a->addr & ~(uint64_t)(m->nodes[n].line_bytes - 1);
	p->levels = (uint8_t)(i + 1);
	if (o->fetch)
		p->fetch = 1;
	if ((o->hit || (!o->fetch && !o->bypass)) && p->hit_level == UINT8_MAX)
		p->hit_level = (uint8_t)i;
}

/*
 * One line-contained access at node n, `depth` levels below the port;
 * absent: a fast lookup has just found its line absent there. plain (a
 * constant): no path sink and r NULL, so that their checks are left out
 * (node_access_plain()).
 */
static inline __attribute__((always_inline)) void
node_access_body(struct tsr_memsys *m, uint32_t n, const struct tsr_access *a, uint32_t depth,
		 struct tsr_mem_result *r, int absent, const int plain)
{
	const struct node *x = &m->nodes[n];
	const int write_through = m->hot.port[n].write_through;
	struct tsr_cache_outcome o;
	m->hot.accesses++;
	if (m->hot.port[n].fast->simple)
		tsr_cache_access_simple(x->cache, a, &o, absent);
	else
		tsr_cache_access_general(x->cache, a, &o, absent);
	if (!plain && m->path_fn && r)
		path_level(m, n, a, depth, &o);
	if (o.hit) {
		reached(r, n, depth);
		if (a->write && write_through)
			to_parent(m, x, a, depth, r, plain);
		return;
	}
	const uint32_t line = x->line_bytes;
	if (o.writeback)
		write_back(m, x, &o, a->requester, depth, plain);
	if (o.bypass) {
		to_parent(m, x, a, depth, r, plain);
		return;
	}
	if (o.fetch) {
		/* the fill request carries the bytes a read needs (a byte-masked
		 * parent checks only those); a write's fetch needs the whole line */
		struct tsr_access rd = *a;
		if (a->write || x->parent == NODE_DRAM || m->nodes[x->parent].line_bytes < line) {
			rd.addr &= ~(uint64_t)(line - 1);
			rd.size = line;
		}
		rd.write = 0;
		to_parent(m, x, &rd, depth, r, plain);
	} else {
		reached(r, n, depth);
	}
	if (a->write && write_through)
		to_parent(m, x, a, depth, r, plain);
}

static void node_access(struct tsr_memsys *m, uint32_t n, const struct tsr_access *a,
			uint32_t depth, struct tsr_mem_result *r, int absent)
{
	node_access_body(m, n, a, depth, r, absent, 0);
}

/* node_access() without a path sink (m->path_fn NULL) and with r NULL. */
static void node_access_plain(struct tsr_memsys *m, uint32_t n, const struct tsr_access *a,
			      uint32_t depth, int absent)
{
	node_access_body(m, n, a, depth, NULL, absent, 1);
}

/* Starts recording the path of one line access. */
static void path_begin(struct tsr_memsys *m, uint64_t addr, uint32_t size, int write,
		       enum tsr_stream s)
{
	struct tsr_mem_path *p = &m->path;
	p->addr = addr;
	p->bytes = size;
	p->write = (uint8_t)(write != 0);
	p->stream = (uint8_t)s;
	p->levels = 0;
	p->hit_level = UINT8_MAX;
	p->fetch = 0;
	p->wb_count = 0;
	p->dram_bytes = 0;
}

uint64_t tsr_mem_dram_burst_bytes(const struct tsr_memsys *m, uint64_t addr, uint32_t size)
{
	uint64_t burst = m->burst_bytes;
	uint64_t first = addr & ~(burst - 1);
	uint64_t last = (addr + (size ? size : 1) - 1) & ~(burst - 1);
	return (last - first) + burst;
}

/*
 * tsr_mem_access() past its plain hit; fast: NOT_TRIED, or the answer of
 * the port cache's tsr_cache_fast_lookup() of addr's line (declined: no
 * fast hit is tried again; absent: its lookup is skipped too).
 */
#define NOT_TRIED 1  /* never a fast lookup's answer here (1 is a hit) */
static void mem_access_slow(struct tsr_memsys *m, uint32_t port, uint64_t addr, uint32_t size,
			    int write, enum tsr_stream s, uint16_t requester, uint32_t meta,
			    struct tsr_mem_result *r, int fast) __attribute__((noinline));

/* The host's caches only: the set of addr at cache `port`'s parent. */
static void prefetch_parent(const struct tsr_memsys *m, uint32_t port, uint64_t addr)
{
	if (m->nodes[port].parent != NODE_DRAM)
		tsr_cache_prefetch(m->hot.port[m->nodes[port].parent].fast, addr);
}

void tsr_mem_access_miss(struct tsr_memsys *m, uint32_t port, uint64_t addr, uint32_t size,
			 int write, enum tsr_stream s, uint16_t requester, uint32_t meta,
			 struct tsr_mem_result *r, int fast)
{
	if (sink_resumed(m)) {  /* recorded: the slow path, from the fast lookup's answer */
		mem_access_slow(m, port, addr, size, write, s, requester, meta, r, fast);
		return;
	}
	prefetch_parent(m, port, addr);  /* likely a miss: looked up next */
	/* not a plain hit: straight to node_access(), without the slow path's
	 * loop, which would ask again */
	if (r)
		memset(r, 0, sizeof(*r));
	const struct tsr_access a = {.addr = addr, .size = size ? size : 1,
				     .write = (uint8_t)(write != 0), .stream = (uint8_t)s,
				     .requester = requester, .meta = meta, .next_use = TSR_NEVER};
	if (r)
		node_access(m, port, &a, 1, r, fast == TSR_CACHE_ABSENT);
	else
		node_access_plain(m, port, &a, 1, fast == TSR_CACHE_ABSENT);
}

void tsr_mem_access_other(struct tsr_memsys *m, uint32_t port, uint64_t addr, uint32_t size,
			  int write, enum tsr_stream s, uint16_t requester, uint32_t meta,
			  struct tsr_mem_result *r)
{
	sink_resumed(m);
	if (port < m->hot.inline_ports && !r) {
		const uint64_t last = addr + ((size ? size : 1) - 1);
		if (!(write && m->hot.port[port].write_through)) {
			/* several lines, no result asked: the slow path's loop, its
			 * plain hits here, the rest from the first other line on */
			struct tsr_cache_fast *fc = m->hot.port[port].fast;
			struct run_memo *memo = &m->nodes[port].memo;
			const uint64_t first = addr >> fc->line_shift;
			const uint64_t lines = (last >> fc->line_shift) - first + 1;
			if (memo->lines == lines && memo->first == first && memo->fills == fc->fills &&
			    s < 32 && !(fc->fast_off >> s & 1)) {
				/* tsr_cache_fast_lookup()'s hits, line by line */
				for (uint32_t i = 0; i < memo->lines; i++) {
					fc->stamp[memo->slot[i]] = ++*fc->clock;
					if (write && fc->dirty_on_write)
						fc->lines[memo->slot[i]].dirty = 1;
					fc->lines[memo->slot[i]].meta = meta;
				}
				if (write)
					fc->counters[s].writes += lines;
				else
					fc->counters[s].reads += lines;
				m->hot.accesses += lines;
				return;
			}
			memo->lines = 0;
			for (uint32_t i = 0;; i++) {
				const int f = tsr_cache_fast_lookup(fc, addr, write, (uint8_t)s, meta);
				if (f <= 0) {
					prefetch_parent(m, port, addr);
					mem_access_slow(m, port, addr, (uint32_t)(last - addr + 1), write, s,
							requester, meta, NULL, f);
					return;
				}
				m->hot.accesses++;
				if (i < RUN_MEMO_LINES) {  /* a hit leaves the set's hint at its way */
					const uint32_t set = (uint32_t)(first + i) & fc->set_mask;
					memo->slot[i] = set * fc->ways + fc->hint[set];
				}
				const uint64_t line_last = addr | ~m->hot.port[port].line_mask;
				if (line_last >= last)
					break;
				addr = line_last + 1;
			}
			if (lines <= RUN_MEMO_LINES) {
				memo->first = first;
				memo->lines = (uint32_t)lines;
				memo->fills = fc->fills;
			}
			return;
		}
	}
	mem_access_slow(m, port, addr, size, write, s, requester, meta, r, NOT_TRIED);
}

static void mem_access_slow(struct tsr_memsys *m, uint32_t port, uint64_t addr, uint32_t size,
			    int write, enum tsr_stream s, uint16_t requester, uint32_t meta,
			    struct tsr_mem_result *r, int fast)
{
	struct tsr_mem_result own;
	if (__builtin_expect(m->bypass, 0)) {  /* tsr_memsys_set_bypass(): fast-forward */
		if (r)
			*r = (struct tsr_mem_result){.served_by = TSR_PORT_PERFECT};
		return;
	}
	if (m->path_fn && !r)
		r = &own;  /* the path follows the request's chain by r */
	if (r)
		memset(r, 0, sizeof(*r));
	if (port >= m->cache_count) {
		struct tsr_dram_counters *d = port == TSR_PORT_PERFECT ? &m->perfect[s] : NULL;
		uint64_t bytes = size ? size : 1;
		if (!d) {  /* uncached: whole bursts */
			d = &m->dram[s];
			bytes = tsr_mem_dram_burst_bytes(m, addr, size);
			reached(r, TSR_PORT_DRAM, 1);
		} else {
			reached(r, TSR_PORT_PERFECT, 0);
		}
		if (write)
			d->write_bytes += bytes;
		else
			d->read_bytes += bytes;
		if (m->path_fn) {
			path_begin(m, addr, size ? size : 1, write, s);
			m->path.hit_level = 0;
			m->path.dram_bytes = d == &m->dram[s] ? (uint32_t)bytes : 0;
			m->path_fn(m->path_ctx, &m->path);
		}
		return;
	}
	const uint32_t line = m->nodes[port].line_bytes;
	/* by the last byte, so that an access ending at 2^64 - 1 is served */
	const uint64_t last = addr + ((size ? size : 1) - 1);
	for (;;) {
		const uint64_t line_last = addr | (line - 1);
		const uint64_t chunk_last = line_last < last ? line_last : last;
		/* a plain hit at the port's cache: node_access's hit without the
		 * outcome and access records; with a path sink, the path
		 * node_access() records for it (one level, hit there, no fetch,
		 * write-back or DRAM bytes) */
		if (fast == NOT_TRIED && !(write && m->hot.port[port].write_through) &&
		    tsr_cache_fast_hit_inline(m->hot.port[port].fast, addr, write, (uint8_t)s, meta)) {
			m->hot.accesses++;
			reached(r, port, 1);
			if (m->path_fn) {
				path_begin(m, addr, (uint32_t)(chunk_last - addr + 1), write, s);
				m->path.levels = 1;
				m->path.hit_level = 0;
				m->path.cache[0] = (uint16_t)port;
				m->path.line[0] = addr & ~(uint64_t)(line - 1);
				m->path_fn(m->path_ctx, &m->path);
			}
			if (chunk_last == last)
				break;
			addr = chunk_last + 1;
			continue;
		}
		struct tsr_access a = {.addr = addr,
				       .size = (uint32_t)(chunk_last - addr + 1),
				       .write = (uint8_t)(write != 0),
				       .stream = (uint8_t)s, .requester = requester,
				       .meta = meta, .next_use = TSR_NEVER};
		if (m->path_fn)
			path_begin(m, a.addr, a.size, write, s);
		if (!m->path_fn && !r)
			node_access_plain(m, port, &a, 1, fast == TSR_CACHE_ABSENT);
		else
			node_access(m, port, &a, 1, r, fast == TSR_CACHE_ABSENT);
		if (fast == TSR_CACHE_ABSENT)
			fast = TSR_CACHE_DECLINED;  /* the next line was not looked up */
		if (m->path_fn) {
			if (m->path.hit_level == UINT8_MAX)
				m->path.hit_level = m->path.levels;
			m->path_fn(m->path_ctx, &m->path);
		}
		if (chunk_last == last)
			break;
		addr = chunk_last + 1;
	}
}

void tsr_mem_prefetch(const struct tsr_memsys *m, uint32_t port, uint64_t addr)
{
	if (port < m->cache_count)
		tsr_cache_prefetch(m->hot.port[port].fast, addr);
}

void tsr_mem_prefetch_miss(const struct tsr_memsys *m, uint32_t port, uint64_t addr)
{
	if (port >= m->cache_count)
		return;
	tsr_cache_prefetch(m->hot.port[port].fast, addr);
	prefetch_parent(m, port, addr);
}

void tsr_mem_read_lines(struct tsr_memsys *m, uint32_t port, const uint64_t *addrs, uint32_t n,
			uint32_t size, enum tsr_stream s, uint16_t requester, uint32_t meta)
{
	/* the host's caches only: every request's set at once, then the
	 * requests one by one */
	if (port < m->hot.inline_ports)
		for (uint32_t i = 0; i < n; i++)
			tsr_cache_prefetch(m->hot.port[port].fast, addrs[i]);
	for (uint32_t i = 0; i < n; i++)
		tsr_mem_access(m, port, addrs[i], size, 0, s, requester, meta, NULL);
}

void tsr_mem_marker(struct tsr_memsys *m, enum tsr_marker kind, uint64_t value)
{
	if (m->bypass)
		return;
	for (uint32_t i = 0; i < m->cache_count; i++)
		tsr_cache_marker(m->nodes[i].cache, kind, value);
}

struct tsr_cache *tsr_memsys_cache_by_name(struct tsr_memsys *m, const char *name)
{
	uint32_t p = tsr_memsys_cache_port(m, name);
	return p < m->cache_count ? m->nodes[p].cache : NULL;
}

uint32_t tsr_memsys_cache_count(const struct tsr_memsys *m)
{
	return m->cache_count;
}

const struct tsr_cache *tsr_memsys_cache(const struct tsr_memsys *m, uint32_t i)
{
	return m->nodes[i].cache;
}

const char *tsr_memsys_cache_group(const struct tsr_memsys *m, uint32_t i)
{
	return m->cfg.caches[m->nodes[i].instance].name;
}

const struct tsr_cache_config *tsr_memsys_cache_config(const struct tsr_memsys *m, uint32_t i)
{
	return &m->cfg.caches[m->nodes[i].instance];
}

uint32_t tsr_memsys_cache_level(const struct tsr_memsys *m, uint32_t i)
{
	return m->nodes[i].level;
}

const struct tsr_dram_counters *tsr_memsys_dram(const struct tsr_memsys *m,
						enum tsr_stream s)
{
	return &m->dram[s];
}

const struct tsr_dram_counters *tsr_memsys_perfect(const struct tsr_memsys *m,
						   enum tsr_stream s)
{
	return &m->perfect[s];
}

uint64_t tsr_memsys_accesses(const struct tsr_memsys *m)
{
	return m->hot.accesses;
}
