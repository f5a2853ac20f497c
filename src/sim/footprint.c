/*
 * footprint.c - the texture footprint (footprint.h): a set of line
 * addresses filled by a cache observer, counted and emptied per frame.
 */
#include "sim/footprint.h"

#include <stdlib.h>

#include "core/u64map.h"
#include "memory/cache.h"
#include "memory/memsys.h"

struct tsr_footprint {
	struct tsr_u64map lines;  /* the frame's lines (a set: values unused) */
	int nomem;                /* the set could not grow this frame */
	uint32_t cache_count;
	const struct tsr_cache *caches[TSR_MAX_CORES];  /* observed, distinct */
};

/* Every texture access an entry cache receives. Allocates only as the set grows. */
static void footprint_access(void *ctx, const struct tsr_access *a)
{
	struct tsr_footprint *f = ctx;
	if (a->stream != TSR_STREAM_TEXTURE || !a->size)
		return;
	uint64_t last = (a->addr + a->size - 1) >> TSR_FOOTPRINT_LINE_SHIFT;
	for (uint64_t l = a->addr >> TSR_FOOTPRINT_LINE_SHIFT; l <= last; l++)
		if (!tsr_u64map_upsert(&f->lines, l, 0))
			f->nomem = 1;
}

static void footprint_marker(void *ctx, enum tsr_marker kind, uint64_t value)
{
	(void)ctx;
	(void)kind;
	(void)value;
}

enum tsr_status tsr_footprint_create(struct tsr_gpu *g, struct tsr_footprint **out,
				     struct tsr_error *err)
{
	struct tsr_footprint *f = calloc(1, sizeof(*f));
	*out = NULL;
	if (!f)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the texture footprint");
	const struct tsr_memsys *m = tsr_gpu_memsys(g);
	const struct tsr_cache_observer obs = {footprint_access, footprint_marker, f};
	const uint32_t cores = tsr_gpu_config_of(g)->mem.cores;
	for (uint32_t core = 0; core < cores && core < TSR_MAX_CORES; core++) {
		uint32_t port = tsr_memsys_port(m, TSR_STREAM_TEXTURE, core);
		if (port >= tsr_memsys_cache_count(m))
			continue;  /* perfect or dram */
		const char *name = tsr_cache_name(tsr_memsys_cache(m, port));
		struct tsr_cache *c = tsr_gpu_cache_by_name(g, name);
		if (!c || tsr_footprint_observes(f, c))
			continue;
		tsr_cache_set_observer(c, &obs);
		f->caches[f->cache_count++] = c;
	}
	*out = f;
	return TSR_OK;
}

int tsr_footprint_observes(const struct tsr_footprint *f, const struct tsr_cache *c)
{
	for (uint32_t i = 0; i < f->cache_count; i++)
		if (f->caches[i] == c)
			return 1;
	return 0;
}

enum tsr_status tsr_footprint_frame_end(struct tsr_footprint *f, uint64_t *lines,
					struct tsr_error *err)
{
	if (f->nomem)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the texture footprint "
				     "(stats.texture_footprint)");
	*lines = f->lines.count;
	tsr_u64map_clear(&f->lines);
	return TSR_OK;
}

void tsr_footprint_destroy(struct tsr_footprint *f)
{
	if (!f)
		return;
	tsr_u64map_release(&f->lines);
	free(f);
}
