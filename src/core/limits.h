/*
 * limits.h - the resource limits tessera checks before any work starts
 * (issue 12), and the memory budget of its large structures.
 *
 * Each limit bounds the work or memory one input value can ask for, so a
 * hostile or mistyped configuration, workload or trace is refused with a
 * message naming the key (or file) and the limit instead of running for
 * hours or being killed for lack of memory. Limits of single keys live in
 * the schemas (config/config.c, scene/workload_parse.c, the trace readers and
 * cachesim's options) and use the constants below; docs/command-line.md lists them.
 *
 * Memory. Before allocating a structure whose size follows from the input
 * (trace buffers, cache tag stores, frame buffers), the library calls
 * tsr_memory_check() with its size: above the budget the request is
 * TSR_ERR_LIMIT naming the structure, its bytes and the budget. The budget
 * is half the physical memory (sysconf), or the environment variable
 * TESSERA_MEMORY_LIMIT (bytes, with an optional K, M or G suffix) if set.
 * The check is per structure, an estimate, not an accounting of the whole
 * process: it turns an impossible request into an error, not every
 * possible exhaustion.
 */
#ifndef TSR_CORE_LIMITS_H
#define TSR_CORE_LIMITS_H

#include <stdint.h>

#include "core/status.h"

/* Pixels of the screen (screen.width x screen.height): 8192 x 8192. */
#define TSR_LIMIT_SCREEN_PIXELS (1ull << 26)
/* Associativity of a cache (caches.*.ways, cachesim --ways): most
 * policies scan the set to choose a victim, so a set's ways bound the cost
 * of one miss (lookups use a hash index above 64 ways, memory/cache.c). */
#define TSR_LIMIT_CACHE_WAYS 16384u
/* Frames of a run (workload "frames", run --frames). */
#define TSR_LIMIT_FRAMES 100000u
/* Instructions of one shader (a material's shader_alu_instructions and
 * vertex_shader_instructions): every shaded quad or vertex fetches them. */
#define TSR_LIMIT_SHADER_INSTRUCTIONS 4096u
/* Bytes of one access in a trace (a record's size): at most the largest
 * line (4096 bytes, caches.*.line_bytes) or DRAM burst. */
#define TSR_LIMIT_ACCESS_BYTES 4096u
/* Records of a trace unless the caller (cachesim --max-records, analyze
 * --max-records) sets another limit. */
#define TSR_LIMIT_TRACE_RECORDS 200000000ull

/* Width and height of one texture, texels (OpenGL ES 3.2 GPUs support
 * 8192 to 16384), checked before an image is decoded. */
#define TSR_LIMIT_TEXTURE_SIDE 16384u

/* CPU seconds one model import (assimp, in its child process) may take. */
#define TSR_LIMIT_IMPORT_CPU_SECONDS 120u

/* The memory budget of one structure in bytes (see above); at least 1 MiB. */
uint64_t tsr_memory_budget_bytes(void);

/*
 * Checks that `bytes` for the structure `what` (e.g. "the tag store of
 * cache 'l2'") fit the budget. Error: TSR_ERR_LIMIT "<what> needs N bytes
 * (X MiB), more than the memory limit of M MiB (...)".
 */
enum tsr_status tsr_memory_check(const char *what, uint64_t bytes, struct tsr_error *err);

#endif
