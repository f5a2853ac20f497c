#include "memory/addrmap.h"

#include "core/array.h"

#include <stdio.h>
#include <stdlib.h>

void tsr_addrmap_init(struct tsr_addrmap *m)
{
	m->count = m->capacity = 0;
	m->regions = NULL;
	m->next = TSR_ADDRMAP_BASE;
}

void tsr_addrmap_release(struct tsr_addrmap *m)
{
	free(m->regions);
	tsr_addrmap_init(m);
}

enum tsr_status tsr_addrmap_add(struct tsr_addrmap *m, const char *name,
				uint64_t size_bytes, enum tsr_stream stream,
				uint64_t *base, struct tsr_error *err)
{
	struct tsr_region *regions = tsr_array_grow(m->regions, &m->capacity,
						    m->count + 1, sizeof(*regions));
	if (!regions)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for the address map");
	m->regions = regions;
	struct tsr_region *r = &m->regions[m->count++];
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->base = m->next;
	r->size_bytes = size_bytes;
	r->stream = (uint8_t)stream;
	uint64_t rounded = (size_bytes + TSR_ADDRMAP_ALIGN - 1) & ~(TSR_ADDRMAP_ALIGN - 1);
	if (rounded == 0)
		rounded = TSR_ADDRMAP_ALIGN;
	m->next += rounded;
	*base = r->base;
	return TSR_OK;
}
