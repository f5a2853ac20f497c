/*
 * counters.h - every counter tessera reports, declared once.
 *
 * Each group below is an X-macro list of X(name, unit, merge, flags,
 * meaning); an array counter uses XA(name, length, unit, merge, flags,
 * meaning). From these lists come the structs the modelled units increment
 * (struct tsr_geometry_stats, ...: one uint64_t member per counter), the
 * descriptor tables that drive per-frame and total accumulation,
 * stats.json, frames.csv, the terminal summary, the lookup by name
 * (framestats/stats.h) and the statistics table of docs/statistics.md (`tessera counters
 * --markdown`, checked by test 093). Units: "count" (events), "bytes" or
 * "cycles" (GPU cycles of the timing model).
 * Merge: how frames combine into the total (TSR_MERGE_SUM, or
 * TSR_MERGE_MAX for a high-water mark). Flags: TSR_CTR_SUMMARY puts the
 * counter in `tessera run`'s summary; TSR_CTR_NONZERO leaves it out of
 * stats.json while it is zero; TSR_CTR_OPTIN leaves it out of frames.csv
 * unless its configuration key is on.
 *
 * To add a counter: add one line to its group's list (name, unit, merge,
 * flags, meaning), increment it in the unit that counts it, and run
 * `tessera counters --markdown` to refresh docs/statistics.md's table. To add a
 * group: a list, a TSR_COUNTER_STRUCT line, a descriptor table in
 * counters.c and a member of struct tsr_frame_stats.
 *
 * This folder depends on core/ only, so every modelled unit can include it.
 */
#ifndef TSR_STATS_COUNTERS_H
#define TSR_STATS_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

/* Most shader cores (also the length of per-core counter arrays). */
#define TSR_MAX_CORES 16

/* Buckets of the timing model's latency histograms (timing/memtime.h's
 * TSR_MEMTIME_HIST_BUCKETS): bucket 0 holds 0-1 cycles, bucket i (0 < i <
 * last) [2^i, 2^(i+1)), the last one everything above. Not TSR_MAX_CORES,
 * which stats.json reads as a per-core array. */
#define TSR_LATENCY_HIST_BUCKETS 20

enum tsr_counter_merge {
	TSR_MERGE_SUM = 0,  /* the total is the sum of the frames' */
	TSR_MERGE_MAX,      /* the total is the largest frame's (a high-water mark) */
};

#define TSR_CTR_SUMMARY 1u  /* shown in `tessera run`'s summary */
#define TSR_CTR_NONZERO 2u  /* in stats.json only when non-zero (counters added after the
			       golden files, tests/golden, that most runs leave at zero) */
#define TSR_CTR_OPTIN 4u    /* counted only when a configuration key asks for it
			       (texture.footprint_lines: stats.texture_footprint, whose
			       counting costs time): a frames.csv column only then */

/* Geometry Pipeline (TCOR II-A): Vertex Fetcher, Vertex Processor, Primitive Assembly. */
#define TSR_GEOMETRY_COUNTERS(X, XA)                                                       \
	X(draws, "count", TSR_MERGE_SUM, 0, "drawcalls the Command Processor issued")       \
	X(indices_fetched, "count", TSR_MERGE_SUM, 0, "indices read by the Vertex Fetcher") \
	X(vertices_fetched, "count", TSR_MERGE_SUM, 0,                                      \
	  "post-transform cache misses: vertices read and shaded")                          \
	X(vertex_instructions, "count", TSR_MERGE_SUM, 0,                                   \
	  "instructions the vertex shader executed (its material's, per vertex shaded)")    \
	X(primitives_in, "count", TSR_MERGE_SUM, TSR_CTR_SUMMARY, "triangles assembled")    \
	X(primitives_culled, "count", TSR_MERGE_SUM, 0,                                     \
	  "outside the frustum, back-facing, zero-area, covering no pixel centre or "       \
	  "overlapping no tile")                                                             \
	X(primitives_clipped, "count", TSR_MERGE_SUM, 0,                                    \
	  "triangles that crossed the near/far plane or the guard band")                    \
	X(primitives_binned, "count", TSR_MERGE_SUM, TSR_CTR_SUMMARY,                       \
	  "primitives written to the Parameter Buffer")                                     \
	X(points_in, "count", TSR_MERGE_SUM, TSR_CTR_NONZERO,                               \
	  "points assembled (GL_POINTS; program draws)")                                    \
	X(lines_in, "count", TSR_MERGE_SUM, TSR_CTR_NONZERO,                                \
	  "line segments assembled (GL_LINES, LINE_STRIP, LINE_LOOP; program draws)")       \
	X(point_line_triangles, "count", TSR_MERGE_SUM, TSR_CTR_NONZERO,                    \
	  "of primitives_in, the triangles that points and lines inside the frustum "       \
	  "became (two each)")

/* Tiling Engine (TCOR II-B): Polygon List Builder and Tile Fetcher. */
#define TSR_TILING_COUNTERS(X, XA)                                                         \
	X(tiles, "count", TSR_MERGE_SUM, 0,                                                 \
	  "tiles the Tile Fetcher visited (skipped ones included)")                         \
	X(pmds_written, "count", TSR_MERGE_SUM, 0, "PMDs the Polygon List Builder wrote")   \
	X(pmds_read, "count", TSR_MERGE_SUM, 0,                                             \
	  "PMDs the Tile Fetcher read (pmds_written unless Rendering Elimination skips)")   \
	X(pb_lists_bytes, "bytes", TSR_MERGE_SUM, 0, "PMD bytes written")                   \
	X(pb_attributes_bytes, "bytes", TSR_MERGE_SUM, 0, "attribute bytes written")        \
	X(list_overflows, "count", TSR_MERGE_SUM, 0, "overflow chunks of full tile lists")  \
	X(empty_tiles, "count", TSR_MERGE_SUM, 0, "tiles with no primitive")

/* Raster Pipeline (TCOR II-C, DTexL II-B). */
#define TSR_RASTER_COUNTERS(X, XA)                                                         \
	X(quads_rasterized, "count", TSR_MERGE_SUM, 0, "quads with a covered pixel")        \
	X(quads_early_z_killed, "count", TSR_MERGE_SUM, 0, "quads Early-Z removed")         \
	X(quads_late_z_killed, "count", TSR_MERGE_SUM, 0,                                   \
	  "alpha-tested quads with no surviving pixel")                                     \
	X(quads_shaded, "count", TSR_MERGE_SUM, TSR_CTR_SUMMARY, "quads fragment-shaded")   \
	X(fragments_shaded, "count", TSR_MERGE_SUM, 0,                                      \
	  "covered pixels shaded (helper lanes excluded)")                                  \
	X(fragments_discarded, "count", TSR_MERGE_SUM, 0, "fragments the alpha test killed") \
	X(pixels_written, "count", TSR_MERGE_SUM, 0, "color buffer writes after blending")  \
	X(instruction_fetches, "count", TSR_MERGE_SUM, 0,                                   \
	  "instruction-cache line accesses by fragment shaders")                            \
	X(fs_instructions, "count", TSR_MERGE_SUM, TSR_CTR_NONZERO | TSR_CTR_OPTIN,         \
	  "fragment programs' instructions issued per quad (every class; programs only)")   \
	X(fs_alu, "count", TSR_MERGE_SUM, TSR_CTR_NONZERO | TSR_CTR_OPTIN,                  \
	  "of these, ALU instructions")                                                      \
	X(fs_sfu, "count", TSR_MERGE_SUM, TSR_CTR_NONZERO | TSR_CTR_OPTIN,                  \
	  "special-function instructions (rcp, rsq, exp2, log2, sin, cos)")                 \
	X(fs_tex, "count", TSR_MERGE_SUM, TSR_CTR_NONZERO | TSR_CTR_OPTIN,                  \
	  "texture sample instructions")                                                     \
	X(fs_branches, "count", TSR_MERGE_SUM, TSR_CTR_NONZERO | TSR_CTR_OPTIN,             \
	  "flow-control instructions")                                                       \
	X(fs_divergent_branches, "count", TSR_MERGE_SUM, TSR_CTR_NONZERO | TSR_CTR_OPTIN,   \
	  "flow-control instructions that split a quad's active lanes")                     \
	XA(quads_per_core, TSR_MAX_CORES, "count", TSR_MERGE_SUM, 0,                        \
	   "quads shaded by each shader core (raster.cores entries)")

/* Texture units (DTexL II-C). */
#define TSR_TEXTURE_COUNTERS(X, XA)                                                        \
	X(sample_instructions, "count", TSR_MERGE_SUM, 0, "one per textured shaded quad")   \
	X(texel_fetches, "count", TSR_MERGE_SUM, TSR_CTR_SUMMARY,                           \
	  "texels read by all four lanes (1, 4 or 8 per lane)")                             \
	X(line_requests, "count", TSR_MERGE_SUM, 0,                                         \
	  "unique lines after coalescing, sent to the L1 texture caches")                   \
	X(footprint_lines, "count", TSR_MERGE_SUM, TSR_CTR_NONZERO | TSR_CTR_OPTIN,         \
	  "texture footprint (DTexL Table I, boustrophedonic Table I): distinct 64-byte "   \
	  "lines the texture stream touched in the frame at the caches its route enters "   \
	  "(0 with a perfect or dram route); the total sums the frames'; only with "        \
	  "stats.texture_footprint, in stats.json only when non-zero")

/* TCOR's Attribute Cache (TCOR III-C); only with tcor.attribute_cache. */
#define TSR_ATTRIBUTE_CACHE_COUNTERS(X, XA)                                                \
	X(reads, "count", TSR_MERGE_SUM, 0, "reads served, one per PMD fetched (stalls excluded)") \
	X(read_hits, "count", TSR_MERGE_SUM, 0, "reads that hit")                           \
	X(read_misses, "count", TSR_MERGE_SUM, 0, "reads that missed")                      \
	X(writes, "count", TSR_MERGE_SUM, 0, "writes, one per binned primitive")            \
	X(write_allocations, "count", TSR_MERGE_SUM, 0, "writes that allocated a line")     \
	X(write_bypasses, "count", TSR_MERGE_SUM, 0, "writes sent on to the lower level")   \
	X(evictions, "count", TSR_MERGE_SUM, 0, "primitives evicted (by reads and writes)") \
	X(writeback_primitives, "count", TSR_MERGE_SUM, 0, "dirty primitives evicted")      \
	X(writeback_attributes, "count", TSR_MERGE_SUM, 0,                                  \
	  "their attributes, written to the lower level")                                   \
	X(lower_reads, "count", TSR_MERGE_SUM, 0, "attributes read from the lower level")   \
	X(lower_writes, "count", TSR_MERGE_SUM, 0,                                          \
	  "attributes written to the lower level (bypasses and write-backs)")               \
	X(stalls, "count", TSR_MERGE_SUM, 0,                                                \
	  "reads that waited for the Rasterizer to unlock a primitive")

/* Rendering Elimination's Signature Unit (RE III-F). */
#define TSR_SIGNATURE_UNIT_COUNTERS(X, XA)                                                 \
	X(constant_blocks, "count", TSR_MERGE_SUM, 0, "drawcall constant sets signed")      \
	X(primitive_blocks, "count", TSR_MERGE_SUM, 0, "primitives signed")                 \
	X(subblocks_signed, "count", TSR_MERGE_SUM, 0,                                      \
	  "64-bit subblocks through the Sign subunit")                                      \
	X(accumulate_steps, "count", TSR_MERGE_SUM, 0,                                      \
	  "tile signature updates (Accumulate CRC unit uses)")                              \
	X(shift_steps, "count", TSR_MERGE_SUM, 0, "Shift subunit steps in those updates")   \
	X(ot_pushes, "count", TSR_MERGE_SUM, 0, "tile IDs through the Overlapped Tiles queue") \
	X(ot_max, "count", TSR_MERGE_MAX, 0,                                                \
	  "most tiles of one primitive: the OT queue depth that never stalls the Polygon "  \
	  "List Builder")

/*
 * Rendering Elimination (RE III, V Fig. 14) and Transaction Elimination
 * (RE IV-C). Tiles are classified against the frame two back from the
 * third frame on, only with elimination.rendering.
 */
#define TSR_ELIMINATION_COUNTERS(X, XA)                                                    \
	X(re_frames, "count", TSR_MERGE_SUM, 0, "frames in which RE could skip tiles")      \
	X(tiles_compared, "count", TSR_MERGE_SUM, 0, "tiles classified")                    \
	X(tiles_equal_inputs, "count", TSR_MERGE_SUM, 0,                                    \
	  "input signature equal to the frame two back")                                    \
	X(tiles_skipped, "count", TSR_MERGE_SUM, TSR_CTR_SUMMARY,                           \
	  "equal inputs in a frame where RE is on: not rendered")                           \
	X(false_negatives, "count", TSR_MERGE_SUM, 0,                                       \
	  "inputs differ, rendered colors equal the back buffer's (RE Fig. 14a)")           \
	X(tiles_changed, "count", TSR_MERGE_SUM, 0, "inputs and colors differ")             \
	X(stale_inputs, "count", TSR_MERGE_SUM, 0,                                          \
	  "equal inputs rendered with RE off whose colors differ (texture uploads)")        \
	X(tiles_verified, "count", TSR_MERGE_SUM, 0,                                        \
	  "skipped tiles rendered anyway (elimination.verify)")                             \
	X(false_positives, "count", TSR_MERGE_SUM, 0,                                       \
	  "verified skipped tiles whose colors differ: must be 0")                          \
	X(pb_bytes_removed, "bytes", TSR_MERGE_SUM, 0,                                      \
	  "PMD and attribute bytes the Tile Fetcher did not read")                          \
	X(texture_requests_removed, "count", TSR_MERGE_SUM, 0,                              \
	  "L1 texture line requests of skipped tiles (verify)")                             \
	X(instructions_removed, "count", TSR_MERGE_SUM, 0,                                  \
	  "instruction fetches of skipped tiles (verify)")                                  \
	X(fragments_removed, "count", TSR_MERGE_SUM, 0,                                     \
	  "fragments skipped tiles would have shaded (verify)")                             \
	X(te_tiles_signed, "count", TSR_MERGE_SUM, 0, "color buffers signed at flush (TE)") \
	X(te_subblocks_signed, "count", TSR_MERGE_SUM, 0, "64-bit subblocks of color signed") \
	X(te_flushes_removed, "count", TSR_MERGE_SUM, 0, "flushes skipped: color signature equal") \
	X(te_false_positives, "count", TSR_MERGE_SUM, 0,                                    \
	  "removed flushes whose colors differed (a CRC collision): must be 0")             \
	X(color_bytes_removed, "bytes", TSR_MERGE_SUM, 0,                                   \
	  "DRAM bytes of the color flushes RE skipped and TE removed")

/*
 * The timing model (docs/timing.md); zero unless timing.enabled. Cycles
 * are GPU cycles at timing.gpu_mhz.
 */
#define TSR_TIMING_COUNTERS(X, XA)                                                         \
	X(cycles, "cycles", TSR_MERGE_SUM, TSR_CTR_SUMMARY,                                 \
	  "cycles of the frame, from the last frame's end to its last write reaching DRAM " \
	  "(timing.overlap_frames: to its last tile's flush, but for the last frame)")      \
	X(geometry_cycles, "cycles", TSR_MERGE_SUM, 0,                                      \
	  "cycles the frame's tiles waited for its geometry phase (all of it without "      \
	  "timing.overlap_frames)")                                                         \
	X(geometry_busy_cycles, "cycles", TSR_MERGE_SUM, 0,                                 \
	  "cycles of the frame's geometry phase, overlapped or not")                        \
	X(tile_cycles, "cycles", TSR_MERGE_SUM, 0,                                          \
	  "cycles of the raster phase, the first tile's Tile Fetcher to the last tile's "  \
	  "flush issued")                                                                   \
	X(sampled_tiles, "count", TSR_MERGE_SUM, 0,                                         \
	  "tiles simulated cycle by cycle in raster phases timing.tile_sampling sampled")    \
	X(estimated_tiles, "count", TSR_MERGE_SUM, 0,                                       \
	  "tiles of those phases not simulated: their cycles estimated (estimated_cycles)")  \
	X(estimated_cycles, "cycles", TSR_MERGE_SUM, 0,                                     \
	  "the estimated tiles' cycles, included in cycles and tile_cycles (the other "     \
	  "timing counters get the estimated tiles' share at the simulated tiles' rates: "  \
	  "docs/timing.md)")                                                                \
	X(estimated_cycles_var, "cycles^2", TSR_MERGE_SUM, 0,                               \
	  "the variance of estimated_cycles (its standard error: the square root)")         \
	X(estimated_geometry_cycles, "cycles", TSR_MERGE_SUM, 0,                            \
	  "cycles timing.tile_sampling added to geometry phases whose memory paths it "     \
	  "sampled, included in geometry_busy_cycles (docs/timing.md)")                     \
	X(tile_fetch_reads, "count", TSR_MERGE_SUM, 0, "Parameter Buffer line reads timed") \
	X(tile_fetch_primitives, "count", TSR_MERGE_SUM, 0,                                 \
	  "primitives the Tile Fetcher output to the Rasterizer")                           \
	X(tile_fetch_active, "cycles", TSR_MERGE_SUM, 0,                                    \
	  "cycles the Tile Fetcher had reads to issue or primitives to output and room "   \
	  "for them (primitives per cycle = tile_fetch_primitives / this: TCOR Figs. 23-24)") \
	X(tile_fetch_stalled, "cycles", TSR_MERGE_SUM, 0,                                   \
	  "cycles the Tile Fetcher's output queue was full")                                \
	X(memory_requests, "count", TSR_MERGE_SUM, 0, "line requests timed")                \
	X(memory_latency, "cycles", TSR_MERGE_SUM, 0,                                       \
	  "sum of the requests' latencies, issue to data (mean: / memory_requests)")        \
	X(mshr_stall_cycles, "cycles", TSR_MERGE_SUM, 0,                                    \
	  "cycles misses waited for a free MSHR, all caches")                               \
	X(rasterizer_busy, "cycles", TSR_MERGE_SUM, 0, "cycles the Rasterizer worked")      \
	X(rasterizer_stalled, "cycles", TSR_MERGE_SUM, 0,                                   \
	  "cycles the Rasterizer held a quad its Early-Z lane had no room for")             \
	X(early_z_busy, "cycles", TSR_MERGE_SUM, 0, "lane-cycles Early-Z worked, all lanes") \
	X(early_z_stalled, "cycles", TSR_MERGE_SUM, 0,                                      \
	  "lane-cycles Early-Z held a quad its core had no warp slot for or the fragment " \
	  "stage's barrier kept out")                                                       \
	X(early_z_barrier, "cycles", TSR_MERGE_SUM, 0,                                      \
	  "lane-cycles Early-Z had quads of a tile its barrier kept out (DTexL II-C)")      \
	X(blend_busy, "cycles", TSR_MERGE_SUM, 0, "lane-cycles blending worked, all lanes") \
	X(blend_barrier, "cycles", TSR_MERGE_SUM, 0,                                        \
	  "lane-cycles blending had quads of a tile its barrier or an unflushed color-"     \
	  "buffer bank kept out")                                                           \
	X(bottleneck_tile_fetcher, "cycles", TSR_MERGE_SUM, 0,                              \
	  "raster-phase cycles the oldest tile in flight waited on its Tile Fetcher")       \
	X(bottleneck_rasterizer, "cycles", TSR_MERGE_SUM, 0,                                \
	  "raster-phase cycles the oldest tile waited on the Rasterizer")                   \
	X(bottleneck_early_z, "cycles", TSR_MERGE_SUM, 0,                                   \
	  "raster-phase cycles the oldest tile waited on Early-Z")                          \
	X(bottleneck_fragment, "cycles", TSR_MERGE_SUM, 0,                                  \
	  "raster-phase cycles the oldest tile waited on the shader cores")                 \
	X(bottleneck_blending, "cycles", TSR_MERGE_SUM, 0,                                  \
	  "raster-phase cycles the oldest tile waited on blending")                         \
	X(bottleneck_flush, "cycles", TSR_MERGE_SUM, 0,                                     \
	  "raster-phase cycles the oldest tile waited on its color flush")                  \
	XA(core_busy, TSR_MAX_CORES, "cycles", TSR_MERGE_SUM, 0,                            \
	   "cycles each shader core issued an instruction")                                 \
	XA(core_stalled_memory, TSR_MAX_CORES, "cycles", TSR_MERGE_SUM, 0,                  \
	   "cycles each core had warps, all waiting on memory")                             \
	XA(core_stalled_dependency, TSR_MAX_CORES, "cycles", TSR_MERGE_SUM, 0,              \
	   "cycles each core had warps, none ready, one waiting on its own last "           \
	   "instruction (a special function's latency, or retiring)")                      \
	XA(core_sfu_instructions, TSR_MAX_CORES, "count", TSR_MERGE_SUM, 0,                 \
	   "special-function instructions each core issued")                               \
	XA(core_tile_cycles, TSR_MAX_CORES, "cycles", TSR_MERGE_SUM, 0,                     \
	   "sum over tiles of each core's execution time, first quad in to last out "       \
	   "(DTexL Fig. 14)")                                                                \
	X(dram_requests, "count", TSR_MERGE_SUM, 0, "DRAM requests completed")              \
	X(dram_row_hits, "count", TSR_MERGE_SUM, 0, "DRAM requests that found their row open") \
	X(dram_row_misses, "count", TSR_MERGE_SUM, 0, "DRAM requests to a closed bank")     \
	X(dram_row_conflicts, "count", TSR_MERGE_SUM, 0,                                    \
	  "DRAM requests that closed another row")                                          \
	X(dram_latency, "cycles", TSR_MERGE_SUM, 0,                                         \
	  "sum of DRAM request latencies, enqueue to data")                                 \
	X(dram_occupancy, "cycles", TSR_MERGE_SUM, 0,                                       \
	  "sum over cycles of DRAM requests in flight (Little's law: = dram_latency)")     \
	X(dram_activates, "count", TSR_MERGE_SUM, 0, "DRAM ACT commands, all channels")    \
	X(dram_precharges, "count", TSR_MERGE_SUM, 0,                                      \
	  "DRAM banks precharged (PRE, auto-precharge, each bank a PREab closes)")         \
	X(dram_read_bursts, "count", TSR_MERGE_SUM, 0, "DRAM RD commands (one burst each)") \
	X(dram_write_bursts, "count", TSR_MERGE_SUM, 0, "DRAM WR commands (one burst each)") \
	X(dram_refreshes, "count", TSR_MERGE_SUM, 0, "DRAM all-bank REF commands")         \
	X(dram_io_bytes, "bytes", TSR_MERGE_SUM, 0,                                        \
	  "bytes over the DRAM pins, whole bursts")                                        \
	X(dram_peak_bytes, "bytes", TSR_MERGE_SUM, 0,                                      \
	  "bytes the DRAM could have moved in the frame's cycles: cycles x its peak rate "  \
	  "(the GPU port's bytes a cycle, one way; the buses' rate without a port), "       \
	  "rounded down (dram_bandwidth_utilisation = dram_io_bytes / this)")               \
	XA(memory_latency_hist, TSR_LATENCY_HIST_BUCKETS, "count", TSR_MERGE_SUM, 0,        \
	   "requests by latency, issue to data (bucket 0: 0-1 cycles, i: [2^i, 2^(i+1)), "  \
	   "the last: above)")

/*
 * One cache's timing (timing/memtime.h), per cache instance as in
 * "caches"; zero unless timing.enabled. Latencies count read-like lookups
 * (reads, fetching writes) from their arrival at the cache to their data
 * being there.
 */
#define TSR_CACHE_TIMING_COUNTERS(X, XA)                                                   \
	X(lookups, "count", TSR_MERGE_SUM, 0, "request lookups (write-backs not included)") \
	X(hits, "count", TSR_MERGE_SUM, 0, "lookups served from the array")                 \
	X(misses, "count", TSR_MERGE_SUM, 0, "lookups that went below")                     \
	X(merges, "count", TSR_MERGE_SUM, 0,                                                \
	  "lookups merged into an in-flight MSHR (secondary misses, hits on lines being "   \
	  "filled)")                                                                        \
	X(mshr_allocs, "count", TSR_MERGE_SUM, 0, "MSHRs taken")                            \
	X(mshr_stalls, "count", TSR_MERGE_SUM, 0, "misses that found no free MSHR")         \
	X(mshr_stall_cycles, "cycles", TSR_MERGE_SUM, 0, "cycles those waited for one")     \
	X(mshr_occupancy, "cycles", TSR_MERGE_SUM, 0,                                       \
	  "sum over cycles of busy MSHRs (mean_mshr_occupancy = this / timing.cycles)")     \
	X(port_wait_cycles, "cycles", TSR_MERGE_SUM, 0,                                     \
	  "cycles lookups (write-backs included) waited for a port slot")                   \
	X(writebacks, "count", TSR_MERGE_SUM, 0, "write-backs received (a port slot each)") \
	X(latency_count, "count", TSR_MERGE_SUM, 0, "read-like lookups whose data came back here") \
	X(latency, "cycles", TSR_MERGE_SUM, 0,                                              \
	  "sum of their latencies, arrival here to data here (mean_latency: / latency_count)") \
	XA(latency_hist, TSR_LATENCY_HIST_BUCKETS, "count", TSR_MERGE_SUM, 0,               \
	   "those lookups by latency (buckets as timing.memory_latency_hist)")

/* Requester-visible latency of one stream (timing/memtime.h); zero unless timing.enabled. */
#define TSR_STREAM_TIMING_COUNTERS(X, XA)                                                  \
	X(requests, "count", TSR_MERGE_SUM, 0, "requests completed")                        \
	X(latency, "cycles", TSR_MERGE_SUM, 0,                                              \
	  "sum of their latencies, issue to data (a posted write's: its first lookup; "     \
	  "mean_latency: / requests)")                                                      \
	XA(latency_hist, TSR_LATENCY_HIST_BUCKETS, "count", TSR_MERGE_SUM, 0,               \
	   "requests by latency (buckets as timing.memory_latency_hist)")

/* One cache, one stream (TCOR II-D); "all" sums the streams. */
#define TSR_CACHE_COUNTERS(X, XA)                                                          \
	X(reads, "count", TSR_MERGE_SUM, 0, "read accesses")                                \
	X(writes, "count", TSR_MERGE_SUM, 0, "write accesses")                              \
	X(read_misses, "count", TSR_MERGE_SUM, 0, "reads that missed")                      \
	X(write_misses, "count", TSR_MERGE_SUM, 0, "writes that missed")                    \
	X(writebacks, "count", TSR_MERGE_SUM, 0,                                            \
	  "dirty lines evicted (on the evicted line's stream)")                             \
	X(bypasses, "count", TSR_MERGE_SUM, 0, "fills the policy declined")                 \
	X(discards, "count", TSR_MERGE_SUM, 0,                                              \
	  "dirty lines the policy knew dead, dropped without a write-back (TCOR III-D)")  \
	X(merges, "count", TSR_MERGE_SUM, 0,                                                \
	  "accesses to a partly written line needing bytes never written (a read; with lines over 64 bytes a write of part of a granule): fetched and merged (also counted as misses)")                                                      \
	X(rt_lines, "count", TSR_MERGE_SUM, TSR_CTR_NONZERO,                                \
	  "lines that became render-target lines (GSPC 2.3's RT bit set): a render_target "  \
	  "or display access filled the line or found it holding other data; on that "      \
	  "stream; only when non-zero")                                                      \
	X(rt_consumed, "count", TSR_MERGE_SUM, TSR_CTR_NONZERO,                             \
	  "render-target consumption (GSPC 2.3, Figs. 6, 13): texture reads that hit a "    \
	  "render-target line, which becomes a texture line; on the texture stream; only "  \
	  "when non-zero")

/* DRAM, one stream; also the bytes of perfect routes. */
#define TSR_DRAM_COUNTERS(X, XA)                                                           \
	X(read_bytes, "bytes", TSR_MERGE_SUM, 0, "bytes read (whole lines or bursts)")      \
	X(write_bytes, "bytes", TSR_MERGE_SUM, 0, "bytes written (whole lines or bursts)")

#define TSR_CTR_MEMBER(name, unit, merge, flags, help) uint64_t name;
#define TSR_CTR_ARRAY_MEMBER(name, n, unit, merge, flags, help) uint64_t name[n];
#define TSR_COUNTER_STRUCT(tag, LIST) \
	struct tag {                  \
		LIST(TSR_CTR_MEMBER, TSR_CTR_ARRAY_MEMBER) \
	}

TSR_COUNTER_STRUCT(tsr_geometry_stats, TSR_GEOMETRY_COUNTERS);
TSR_COUNTER_STRUCT(tsr_tiling_stats, TSR_TILING_COUNTERS);
TSR_COUNTER_STRUCT(tsr_raster_stats, TSR_RASTER_COUNTERS);
TSR_COUNTER_STRUCT(tsr_texture_stats, TSR_TEXTURE_COUNTERS);
TSR_COUNTER_STRUCT(tsr_ac_counters, TSR_ATTRIBUTE_CACHE_COUNTERS);
TSR_COUNTER_STRUCT(tsr_su_counters, TSR_SIGNATURE_UNIT_COUNTERS);
TSR_COUNTER_STRUCT(tsr_cache_counters, TSR_CACHE_COUNTERS);
TSR_COUNTER_STRUCT(tsr_dram_counters, TSR_DRAM_COUNTERS);
TSR_COUNTER_STRUCT(tsr_timing_stats, TSR_TIMING_COUNTERS);
TSR_COUNTER_STRUCT(tsr_cache_timing_stats, TSR_CACHE_TIMING_COUNTERS);
TSR_COUNTER_STRUCT(tsr_stream_timing_stats, TSR_STREAM_TIMING_COUNTERS);

struct tsr_elimination_stats {
	TSR_ELIMINATION_COUNTERS(TSR_CTR_MEMBER, TSR_CTR_ARRAY_MEMBER)
	struct tsr_su_counters su;  /* the Signature Unit's work (group "signature_unit") */
};

/* One counter of a group. */
struct tsr_counter_desc {
	const char *name;                /* JSON key and the name's last part */
	const char *unit;                /* "count", "bytes" or "cycles" */
	const char *help;                /* what it counts */
	size_t offset;                   /* of its first uint64_t in the group's struct */
	uint32_t length;                 /* 1, or the array's length */
	enum tsr_counter_merge merge;
	uint32_t flags;                  /* TSR_CTR_SUMMARY */
};

/* A group of counters: one struct, one object in stats.json. */
struct tsr_counter_group {
	const char *name;                    /* "geometry", ... */
	const char *help;                    /* what the group is */
	const struct tsr_counter_desc *counters;
	size_t count;
	size_t size;                         /* sizeof the struct */
	const struct tsr_counter_group *sub; /* a nested group (elimination's signature_unit) */
	size_t sub_offset;
};

extern const struct tsr_counter_group tsr_counters_geometry;
extern const struct tsr_counter_group tsr_counters_tiling;
extern const struct tsr_counter_group tsr_counters_raster;
extern const struct tsr_counter_group tsr_counters_texture;
extern const struct tsr_counter_group tsr_counters_attribute_cache;
extern const struct tsr_counter_group tsr_counters_signature_unit;
extern const struct tsr_counter_group tsr_counters_elimination;
extern const struct tsr_counter_group tsr_counters_cache;
extern const struct tsr_counter_group tsr_counters_dram;
extern const struct tsr_counter_group tsr_counters_timing;
extern const struct tsr_counter_group tsr_counters_cache_timing;
extern const struct tsr_counter_group tsr_counters_stream_timing;

/* a += b, counter by counter, by each counter's merge rule (nested groups too). */
void tsr_counters_add(const struct tsr_counter_group *g, void *a, const void *b);

/*
 * Multiplies every summed counter of s (nested groups too) by factor >= 0,
 * rounding to the nearest; high-water marks are left as they are. Used
 * for the timing counters of tiles timing.tile_sampling estimates
 * (docs/timing.md).
 */
void tsr_counters_scale(const struct tsr_counter_group *g, void *s, double factor);

/*
 * d = now - base for summed counters, d = now for high-water marks: one
 * frame's counters from a unit's cumulative ones (nested groups too).
 */
void tsr_counters_delta(const struct tsr_counter_group *g, void *d, const void *now,
			const void *base);

/* 1 when any counter of the struct (nested groups too) is non-zero. */
int tsr_counters_any(const struct tsr_counter_group *g, const void *s);

/* The counter called `name` in g, or NULL. */
const struct tsr_counter_desc *tsr_counters_find(const struct tsr_counter_group *g,
						 const char *name);

/* Value i of counter d in the struct s. */
static inline uint64_t tsr_counter_value(const struct tsr_counter_desc *d, const void *s,
					 uint32_t i)
{
	return ((const uint64_t *)((const char *)s + d->offset))[i];
}

#endif
