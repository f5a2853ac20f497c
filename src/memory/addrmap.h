/*
 * addrmap.h - the simulated physical address map: one region per buffer
 * (vertex and index buffers, Parameter Buffer sections, each texture, shader
 * programs, frame buffers). Regions are allocated in order, each aligned to
 * 4 KiB, from a fixed base, so addresses are the same on every run.
 * The map is written into stats.json.
 */
#ifndef TSR_MEMORY_ADDRMAP_H
#define TSR_MEMORY_ADDRMAP_H

#include <stdint.h>

#include "core/status.h"
#include "core/stream.h"

#define TSR_ADDRMAP_BASE 0x10000000ull
#define TSR_ADDRMAP_ALIGN 4096ull

struct tsr_region {
	char name[64];
	uint64_t base;        /* byte address */
	uint64_t size_bytes;
	uint8_t stream;       /* enum tsr_stream of the data it holds */
};

struct tsr_addrmap {
	uint32_t count, capacity;
	struct tsr_region *regions;
	uint64_t next;        /* next free byte address */
};

void tsr_addrmap_init(struct tsr_addrmap *m);
void tsr_addrmap_release(struct tsr_addrmap *m);

/*
 * Appends a region of size_bytes (rounded up to the alignment) and returns
 * its base address in *base. Errors: TSR_ERR_NOMEM.
 */
enum tsr_status tsr_addrmap_add(struct tsr_addrmap *m, const char *name,
				uint64_t size_bytes, enum tsr_stream stream,
				uint64_t *base, struct tsr_error *err);

#endif
