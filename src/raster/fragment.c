/*
 * fragment.c - stage 3 of the Raster Pipeline (raster.h): fragment shading
 * of one quad on one shader core. The core fetches the fragment shader's
 * instructions through its L1 instruction cache, interpolates the
 * varyings perspective-correctly for the quad's four pixels (helper lanes
 * included, for derivatives) and, for textured materials, issues one
 * sample instruction whose coalesced line requests go to its L1 texture
 * cache (DTexL II-A; texture/texture.h). The shader's ALU work is not
 * timed here: the shaded color is the texel (or white) times the
 * material's color and the interpolated shade. A draw with a linked
 * fragment program (tsr_shader_binding_set_program()) runs it instead:
 * every varying interpolated, each sample instruction a sample (2D or
 * cube map, texture/texture.h) through the core's L1 texture cache, its
 * discards and its instruction mix counted, and in the timing mode its
 * instruction stream, cut at each sample, in the work log for the shader
 * core to issue (timing/core.h); its second source color
 * (GL_EXT_blend_func_extended) is kept in the quad for a blend that takes
 * it.
 */
#include "raster/raster_priv.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum tsr_stage_result tsr_raster_shade(struct tsr_raster *r, uint32_t core,
				       const struct tsr_raster_ctx *c)
{
	struct tsr_quad *in = tsr_quad_queue_front(&r->cores[core]);
	if (!in)
		return TSR_STAGE_IDLE;
	struct tsr_quad *q = tsr_quad_queue_push(&r->blend);
	if (!q)
		return TSR_STAGE_STALLED;
	/* the shaded quad: header and depth copied, colors computed in place;
	 * `in` stays readable until the next push to this core's queue */
	tsr_quad_copy_head(q, in, in->mask, in->core);
	memcpy(q->z, in->z, sizeof(q->z));
	tsr_quad_queue_pop(&r->cores[core]);
	tsr_raster_shade_quad(in->l, q, core, c);
	return TSR_STAGE_DONE;
}

/* A program's sample instruction on the core shading a quad; with a work
 * log (timing mode), each sample ends a segment of the quad's instruction
 * stream (timing/core.h): the instructions issued since the last one. */
struct fs_sampling {
	const struct tsr_shader_binding *b;
	const struct tsr_raster_ctx *c;
	uint32_t core;
	struct tsr_worklog *log;  /* NULL: no timing record */
	uint64_t alu_done, sfu_done; /* instructions in the segments so far */
};

/* The segment ending at a sample, or (sample 0) the stream's last, of
 * alu (ALU and flow-control) and sfu instructions issued in all so far. */
static void fs_segment(struct fs_sampling *S, uint64_t alu, uint64_t sfu, int sample,
		       uint32_t tex_requests)
{
	tsr_worklog_seg(S->log, (uint32_t)(alu - S->alu_done), (uint32_t)(sfu - S->sfu_done),
			sample, tex_requests);
	S->alu_done = alu;
	S->sfu_done = sfu;
}

static void sample_unit(void *user, const struct tsr_shader_tex_request *req, float rgba[4][4])
{
	struct fs_sampling *S = user;
	const struct tsr_shader_binding *b = S->b;
	const uint32_t u = req->unit;
	const struct tsr_texture *t = u < TSR_SHADER_MAX_TEXTURE_UNITS ? b->units[u] : NULL;
	const struct tsr_texture *const *faces = t ? b->unit_faces[u] : NULL;
	if (!t || req->cube != (faces != NULL)) {  /* none, or a sampler of the other kind */
		for (int k = 0; k < 4; k++) {
			rgba[k][0] = rgba[k][1] = rgba[k][2] = 0.0f;
			rgba[k][3] = 1.0f;
		}
		if (S->log)  /* issued all the same, with no memory request */
			fs_segment(S, req->issued_alu + req->issued_flow, req->issued_sfu, 1, 0);
		return;
	}
	struct tsr_texel_requests tr;
	const struct tsr_sampler *smp = &b->unit_sampler[u];
	int lane = 0;  /* the LOD of the first active lane */
	while (lane < 3 && !(req->lane_mask >> lane & 1))
		lane++;
	const enum tsr_lod_mode mode = req->lod_mode == TSR_SHADER_LOD_EXPLICIT ? TSR_LOD_EXPLICIT
				       : req->lod_mode == TSR_SHADER_LOD_BIAS ? TSR_LOD_BIAS
									     : TSR_LOD_IMPLICIT;
	const float lod = mode == TSR_LOD_IMPLICIT ? 0.0f : req->lod[lane];
	if (faces)
		tsr_texture_sample_cube_quad(faces, smp, req->coord[0], req->coord[1], req->coord[2],
					     lane, mode, lod, rgba, &tr);
	else
		tsr_texture_sample_quad(t, smp, req->coord[0], req->coord[1], mode, lod, rgba, &tr);
	struct tsr_memsys *mem = S->c->mem;
	const uint32_t paths = S->log ? S->log->path_count : 0;
	tsr_mem_read_lines(mem, tsr_memsys_port(mem, TSR_STREAM_TEXTURE, S->core), tr.lines,
			   tr.line_count, TSR_TEXTURE_BLOCK_BYTES, TSR_STREAM_TEXTURE,
			   (uint16_t)S->core, 0);
	if (S->log)
		fs_segment(S, req->issued_alu + req->issued_flow, req->issued_sfu, 1,
			   S->log->path_count - paths);
	struct tsr_texture_stats *ts = S->c->ts;
	ts->sample_instructions++;
	ts->texel_fetches += tr.texel_fetches;
	ts->line_requests += tr.line_count;
}

/* [0, 1], NaN to 0: a fixed-point color buffer's range (GL ES 2.0 3.8.2). */
static inline float clamp01(float x)
{
	return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
}

/* The quad through the draw's fragment program (its instruction fetch
 * done); wq: its work-log record (timing mode), or NULL. */
static void shade_program(const float l[3][4], struct tsr_quad *q, uint32_t core,
			  const struct tsr_raster_ctx *c, struct tsr_wl_quad *wq)
{
	const struct tsr_primitive *p = q->prim;
	const struct tsr_shader_binding *b = q->shader;
	struct tsr_fs_quad_in in;
	const uint32_t slots = p->varyings ? p->varying_slots : 0;
	for (int k = 0; k < 4; k++) {
		const float w0 = l[0][k] * p->inv_w[0], w1 = l[1][k] * p->inv_w[1],
			    w2 = l[2][k] * p->inv_w[2];
		const float sum = w0 + w1 + w2;
		const float inv = sum != 0.0f ? 1.0f / sum : 0.0f;
		for (uint32_t v = 0; v < slots; v++)
			for (int i = 0; i < 4; i++) {
				const float *a = &p->varyings[(0 * slots + v) * 4];
				const float *bb = &p->varyings[(1 * slots + v) * 4];
				const float *cc = &p->varyings[(2 * slots + v) * 4];
				in.varyings[k][v][i] = (w0 * a[i] + w1 * bb[i] + w2 * cc[i]) * inv;
			}
		in.frag_coord[k][0] = (float)(q->x + (k & 1)) + 0.5f;
		in.frag_coord[k][1] = (float)b->target_height - (float)(q->y + (k >> 1)) - 0.5f;
		in.frag_coord[k][2] = q->z[k];
		in.frag_coord[k][3] = sum;  /* 1/w, interpolated linearly in screen space */
		in.point_coord[k][0] = in.point_coord[k][1] = 0.0f;
		if (p->kind == TSR_PRIM_KIND_POINT) {
			/* GL ES 2.0 3.3, window rows running down: (0, 0) at the
			 * square's top left */
			in.point_coord[k][0] = 0.5f + ((float)(q->x + (k & 1)) + 0.5f - p->point[0]) /
							      p->point[2];
			in.point_coord[k][1] = 0.5f + ((float)(q->y + (k >> 1)) + 0.5f - p->point[1]) /
							      p->point[2];
		}
	}
	in.front_facing = p->front_facing;
	if (q->mode & TSR_QUAD_FETCH_COLOR) {
		/* gl_LastFragData[0]: the color buffer at the quad's pixels (the
		 * tile buffer in tiled mode; in immediate mode blending counts the
		 * read, TSR_QUAD_READS_COLOR); Early-Z let no older quad stay in
		 * flight, so every earlier fragment is blended */
		const struct tsr_target *t = c->target;
		for (int k = 0; k < 4; k++) {
			const int32_t bx = q->x + (k & 1) - t->x0, by = q->y + (k >> 1) - t->y0;
			const int in_window = bx >= 0 && by >= 0 && (uint32_t)bx < t->width &&
					      (uint32_t)by < t->height;
			const size_t px = ((size_t)by * t->stride + (size_t)bx) * 4;
			if (t->color && in_window)
				memcpy(in.last_color[k], &t->color[px], sizeof(in.last_color[k]));
			else
				memset(in.last_color[k], 0, sizeof(in.last_color[k]));
			/* gl_LastFragData[1..3]: color targets 1..3 (GL_EXT_draw_buffers) */
			for (int i = 0; i < TSR_MAX_DRAW_BUFFERS - 1; i++)
				if (t->mrt[i] && in_window)
					memcpy(in.last_data[i][k], &t->mrt[i][px],
					       sizeof(in.last_data[i][k]));
				else
					memset(in.last_data[i][k], 0, sizeof(in.last_data[i][k]));
		}
	}
	struct fs_sampling S = {b, c, core, wq ? c->log : NULL, 0, 0};
	if (wq)
		wq->seg_first = c->log->seg_count;
	tsr_shader_exec_set_sampler(b->program, sample_unit, &S);
	struct tsr_fs_quad_out out;
	struct tsr_shader_counts n = {0};
	tsr_shader_exec_quad(b->program, &in, &out, &n);
	tsr_shader_exec_set_sampler(b->program, NULL, NULL);
	if (wq) {
		fs_segment(&S, n.alu + n.branch, n.sfu, 0, 0);
		wq->seg_count = c->log->seg_count - wq->seg_first;
	}
	struct tsr_raster_stats *rs = c->rs;
	rs->fs_instructions += n.instructions;
	rs->fs_alu += n.alu;
	rs->fs_sfu += n.sfu;
	rs->fs_tex += n.tex;
	rs->fs_branches += n.branch;
	rs->fs_divergent_branches += n.divergent_branches;
	const uint8_t killed = out.kill_mask & q->mask;
	if (killed) {
		rs->fragments_discarded += (uint64_t)tsr_popcount4(killed);
		q->mask &= (uint8_t)~killed;
	}
	/* GL_EXT_blend_func_extended: the second source color goes with the
	 * quad to the blend unit (0 when the program writes none) */
	if (b->blend_src1)
		for (int k = 0; k < 4; k++)
			for (int i = 0; i < 4; i++)
				q->src1[k][i] = clamp01(out.secondary[k][i]);
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < 4; i++)
			q->rgba[k][i] = clamp01(out.color[k][i]);
	/* color targets 1..3 (GL_EXT_draw_buffers): gl_FragData[j] to target j
	 * (0 for an element the program has not), gl_FragColor to every one */
	for (uint32_t j = 1; j < TSR_MAX_DRAW_BUFFERS; j++) {
		if (!(b->draw_buffers >> j & 1))
			continue;
		float(*dst)[4] = q->mrt[j - 1];
		if (out.broadcast)
			memcpy(dst, q->rgba, sizeof(q->rgba));
		else if (out.data_mask >> j & 1)
			for (int k = 0; k < 4; k++)
				for (int i = 0; i < 4; i++)
					dst[k][i] = clamp01(out.data[j - 1][k][i]);
		else
			memset(dst, 0, sizeof(q->rgba));
	}
	/* gl_FragDepthEXT replaces the depth late Z tests (clamped to [0, 1]) */
	if (out.writes_depth)
		for (int k = 0; k < 4; k++)
			q->z[k] = clamp01(out.depth[k]);
}

void tsr_raster_shade_quad(const float l[3][4], struct tsr_quad *q, uint32_t core,
			   const struct tsr_raster_ctx *c)
{
	const struct tsr_primitive *p = q->prim;
	const struct tsr_shader_binding *shader = q->shader;
	const struct tsr_material *mat = shader->material;
	struct tsr_memsys *mem = c->mem;
	struct tsr_raster_stats *rs = c->rs;
	rs->quads_shaded++;
	rs->quads_per_core[core]++;
	rs->fragments_shaded += (uint64_t)tsr_popcount4(q->mask);
	/* timing mode: the quad's record, by its rasterization order */
	struct tsr_wl_quad *wq = NULL;
	if (c->log && (uint32_t)(q->seq - c->log->seq_base) < c->log->quad_count) {
		wq = &c->log->quads[q->seq - c->log->seq_base];
		tsr_worklog_mark(c->log);
	}
	tsr_mem_access(mem, tsr_memsys_port(mem, TSR_STREAM_INSTRUCTION, core),
		       shader->fs_base, shader->fs_bytes, 0,
		       TSR_STREAM_INSTRUCTION, (uint16_t)core, 0, NULL);
	if (shader->fs_bytes)
		rs->instruction_fetches += ((shader->fs_base + shader->fs_bytes - 1) >> 6) -
					   (shader->fs_base >> 6) + 1;
	if (wq) {
		wq->ifetch = tsr_worklog_since_mark(c->log);
		tsr_worklog_mark(c->log);
	}
	if (shader->program) {
		shade_program(l, q, core, c, wq);
		if (wq)
			wq->tex = tsr_worklog_since_mark(c->log);
		return;
	}
#ifdef __SSE2__
	float u[4], v[4];
	__m128 sh;
	/* the four lanes at once: per lane the very operations of the loop
	 * below, in the same order (divps is divss per lane; a zero sum
	 * masks its infinite reciprocal to 0, NaN compares unequal and stays) */
	{
		const __m128 l0 = _mm_loadu_ps(l[0]);
		const __m128 l1 = _mm_loadu_ps(l[1]);
		const __m128 l2 = _mm_loadu_ps(l[2]);
		const __m128 w0 = _mm_mul_ps(l0, _mm_set1_ps(p->inv_w[0]));
		const __m128 w1 = _mm_mul_ps(l1, _mm_set1_ps(p->inv_w[1]));
		const __m128 w2 = _mm_mul_ps(l2, _mm_set1_ps(p->inv_w[2]));
		const __m128 sum = _mm_add_ps(_mm_add_ps(w0, w1), w2);
		const __m128 inv = _mm_and_ps(_mm_cmpneq_ps(sum, _mm_setzero_ps()),
					      _mm_div_ps(_mm_set1_ps(1.0f), sum));
#define TSR_LERP3(a) _mm_mul_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(w0, _mm_set1_ps(a[0])), \
						       _mm_mul_ps(w1, _mm_set1_ps(a[1]))), \
					    _mm_mul_ps(w2, _mm_set1_ps(a[2]))), inv)
		_mm_storeu_ps(u, TSR_LERP3(p->u));
		_mm_storeu_ps(v, TSR_LERP3(p->v));
		/* the shade clamped to [0, 1] (max, min: NaN and -0 become +0) */
		sh = _mm_min_ps(_mm_max_ps(TSR_LERP3(p->shade), _mm_setzero_ps()), _mm_set1_ps(1.0f));
#undef TSR_LERP3
	}
#else
	float u[4], v[4], shade[4];
	for (int k = 0; k < 4; k++) {
		float w0 = l[0][k] * p->inv_w[0], w1 = l[1][k] * p->inv_w[1], w2 = l[2][k] * p->inv_w[2];
		float s = w0 + w1 + w2;
		float inv = s != 0.0f ? 1.0f / s : 0.0f;
		u[k] = (w0 * p->u[0] + w1 * p->u[1] + w2 * p->u[2]) * inv;
		v[k] = (w0 * p->v[0] + w1 * p->v[1] + w2 * p->v[2]) * inv;
		shade[k] = (w0 * p->shade[0] + w1 * p->shade[1] + w2 * p->shade[2]) * inv;
	}
#endif
	if (shader->texture) {
		struct tsr_texel_requests req;
		struct tsr_texture_stats *ts = c->ts;
		tsr_texture_sample_quad(shader->texture, &shader->sampler, u, v, TSR_LOD_IMPLICIT,
					0.0f, q->rgba, &req);
		uint32_t tc = tsr_memsys_port(mem, TSR_STREAM_TEXTURE, core);
		tsr_mem_read_lines(mem, tc, req.lines, req.line_count, TSR_TEXTURE_BLOCK_BYTES,
				   TSR_STREAM_TEXTURE, (uint16_t)core, 0);
		ts->sample_instructions++;
		ts->texel_fetches += req.texel_fetches;
		ts->line_requests += req.line_count;
		if (wq)
			wq->tex = tsr_worklog_since_mark(c->log);
	} else {
		for (int k = 0; k < 4; k++)
			for (int i = 0; i < 4; i++)
				q->rgba[k][i] = 1.0f;
	}
#ifdef __SSE2__
	/* per lane rgba[i] *= color[i] * sh (i < 3), rgba[3] *= color[3]: the
	 * same two roundings per channel, four channels at once */
	const __m128 color = _mm_loadu_ps(mat->color);
	const __m128 rgb_mask = _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0));
#define TSR_SHADE_LANE(k) do { \
		const __m128 scaled = _mm_mul_ps(color, _mm_shuffle_ps(sh, sh, _MM_SHUFFLE(k, k, k, k))); \
		const __m128 f = _mm_or_ps(_mm_and_ps(rgb_mask, scaled), \
					   _mm_andnot_ps(rgb_mask, color)); \
		_mm_storeu_ps(q->rgba[k], _mm_mul_ps(_mm_loadu_ps(q->rgba[k]), f)); \
	} while (0)
	TSR_SHADE_LANE(0);
	TSR_SHADE_LANE(1);
	TSR_SHADE_LANE(2);
	TSR_SHADE_LANE(3);
#undef TSR_SHADE_LANE
#else
	for (int k = 0; k < 4; k++) {
		/* written so that NaN (a NaN normal) clamps to 0 */
		float sh = shade[k] > 0.0f ? (shade[k] > 1.0f ? 1.0f : shade[k]) : 0.0f;
		for (int i = 0; i < 3; i++)
			q->rgba[k][i] *= mat->color[i] * sh;
		q->rgba[k][3] *= mat->color[3];
	}
#endif
}
