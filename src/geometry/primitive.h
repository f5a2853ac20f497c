/*
 * primitive.h - the work item that flows from Primitive Assembly through
 * the Tiling Engine to the Raster Pipeline: one screen-space triangle with
 * its attributes, in program order (TCOR II-A).
 */
#ifndef TSR_GEOMETRY_PRIMITIVE_H
#define TSR_GEOMETRY_PRIMITIVE_H

#include <stdint.h>

#define TSR_SUBPIXEL_BITS 8  /* vertex positions snap to 1/256 pixel */

struct tsr_primitive {
	/* fixed-point screen positions (1/256 pixel), y down, wound so that
	 * the doubled signed area (area2) is positive */
	int64_t X[3], Y[3];
	int64_t area2;
	float z[3];        /* window depth 0..1 */
	float inv_w[3];    /* 1 / clip w, for perspective correction */
	float u[3], v[3];  /* texture coordinates */
	float shade[3];    /* lighting factor (1 when unlit) */
	int32_t min_x, min_y, max_x, max_y;  /* pixel bounding box, inclusive */
	uint32_t material;
	uint32_t draw;     /* drawcall (mesh instance) number in the frame */
	uint64_t pb_addr;  /* Primitive ID: address of its first attribute (TCOR II-B) */
	uint32_t attributes; /* attributes stored in PB-Attributes */
	const float *varyings; /* a program's varyings, [vertex 0..2][slot][4] floats
	                          (vertices in the order above), varying_slots a
	                          vertex; NULL: the material's u, v and shade */
	uint8_t varying_slots;
	uint8_t front_facing;  /* 1: a front face (GL ES FRONT_FACE), gl_FrontFacing;
	                          1 for points and lines */
	uint8_t kind;          /* enum tsr_prim_kind: what the triangle was drawn as */
	float point[3];        /* TSR_PRIM_KIND_POINT: the point's window position
	                          (pixels, x right and y down, as X and Y) and its
	                          size (pixels), for gl_PointCoord */
};

/* What a primitive's triangle is part of: a triangle of the draw, or one of
 * the two triangles the Geometry Pipeline made of a point's square or of a
 * line segment's parallelogram (geometry/points_lines.c). */
enum tsr_prim_kind {
	TSR_PRIM_KIND_TRIANGLE = 0,
	TSR_PRIM_KIND_POINT,
	TSR_PRIM_KIND_LINE,
};

/*
 * Sets p->min_x..p->max_y (pixels, inclusive) to the pixels whose centres
 * (px + 0.5, py + 0.5) the triangle's fixed-point vertices X/Y may cover,
 * clamped to a width x height screen. Returns 0 (box left unset) when no
 * pixel centre of the screen can be covered. Pure; no errors.
 */
int tsr_primitive_bbox(struct tsr_primitive *p, uint32_t width, uint32_t height);

#endif
