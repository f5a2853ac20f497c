/*
 * stream.h - the stream tag every modelled memory access carries.
 *
 * A stream says which kind of data an access touches, so that every cache
 * level and DRAM can count per stream (TCOR Fig. 5, DTexL Fig. 5, GSPC
 * Section 2). The list already holds the immediate-mode streams (z,
 * render_target, display, hiz, stencil: GSPC Section 2.2).
 */
#ifndef TSR_CORE_STREAM_H
#define TSR_CORE_STREAM_H

enum tsr_stream {
	TSR_STREAM_INDEX = 0,      /* index buffers (vertex fetch) */
	TSR_STREAM_VERTEX,         /* vertex buffers (vertex fetch) */
	TSR_STREAM_PB_LISTS,       /* Parameter Buffer: per-tile PMD lists */
	TSR_STREAM_PB_ATTRIBUTES,  /* Parameter Buffer: primitive attributes */
	TSR_STREAM_TEXTURE,        /* texels */
	TSR_STREAM_INSTRUCTION,    /* shader instructions */
	TSR_STREAM_COLOR,          /* tile color flushes to the frame buffer */
	TSR_STREAM_Z,              /* depth (immediate mode) */
	TSR_STREAM_RENDER_TARGET,  /* render-to-texture output */
	TSR_STREAM_DISPLAY,        /* the displayable color: the frame buffer's render target
				      (immediate mode; GSPC Section 2.1) */
	TSR_STREAM_HIZ,            /* hierarchical depth, one entry per 8x8 pixels (immediate
				      mode; GSPC Section 2.1) */
	TSR_STREAM_STENCIL,        /* stencil buffer (immediate mode; no shipped material
				      tests stencil yet, so only routed) */
	TSR_STREAM_OTHER,          /* anything else */
	TSR_STREAM_COUNT
};

/* Returns the snake_case name used in stats.json ("pb_lists", ...). */
const char *tsr_stream_name(enum tsr_stream s);

/* Looks a stream up by name; returns TSR_STREAM_COUNT when unknown. */
enum tsr_stream tsr_stream_from_name(const char *name);

#endif
