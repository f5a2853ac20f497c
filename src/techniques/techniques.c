/*
 * techniques.c - the list of techniques the pipeline can plug in, and the
 * one place their hooks are called from (technique.h).
 */
#include "techniques/technique.h"

const struct tsr_technique_ops *const tsr_techniques[] = {
	&tsr_technique_tcor,
	&tsr_technique_elimination,
	NULL,
};
_Static_assert(sizeof(tsr_techniques) / sizeof(tsr_techniques[0]) <= TSR_MAX_TECHNIQUES + 1,
	       "a struct tsr_technique_set holds every technique");

enum tsr_status tsr_technique_set_create(struct tsr_technique_set *s,
					 const struct tsr_tbr_view *v, struct tsr_error *err)
{
	s->view = v;
	for (uint32_t i = 0; tsr_techniques[i]; i++) {
		const struct tsr_technique_ops *ops = tsr_techniques[i];
		if (!ops->enabled(v->cfg))
			continue;
		s->active[s->count].ops = ops;
		s->active[s->count].state = NULL;
		s->count++;
		TSR_TRY(ops->create(v, &s->active[s->count - 1].state, err));
	}
	return TSR_OK;
}

void tsr_technique_set_release(struct tsr_technique_set *s)
{
	for (uint32_t k = 0; k < s->count; k++)
		s->active[k].ops->destroy(s->active[k].state);
	s->count = 0;
}

/* Calls hook `hook` of every technique of set s that has it. */
#define EACH_TECHNIQUE(s, hook, ...)                                            \
	for (uint32_t k_ = 0; k_ < (s)->count; k_++)                          \
		if ((s)->active[k_].ops->hook)                                \
			(s)->active[k_].ops->hook((s)->active[k_].state, __VA_ARGS__)

void tsr_technique_set_frame_begin(const struct tsr_technique_set *s,
				   const struct tsr_frame_commands *c, struct tsr_frame_stats *fs)
{
	EACH_TECHNIQUE(s, frame_begin, c, fs);
}

void tsr_technique_set_draw(const struct tsr_technique_set *s, const struct tsr_cmd_draw *d,
			    const struct tsr_material *m)
{
	EACH_TECHNIQUE(s, draw, d, m);
}

void tsr_technique_set_bin(const struct tsr_technique_set *s, uint32_t index,
			   const uint32_t *tiles, uint32_t n)
{
	EACH_TECHNIQUE(s, bin, index, tiles, n);
}

void tsr_technique_set_geometry_end(const struct tsr_technique_set *s,
				    struct tsr_frame_stats *fs)
{
	EACH_TECHNIQUE(s, geometry_end, fs);
}

int tsr_technique_set_tile_begin(const struct tsr_technique_set *s, uint32_t tile,
				 struct tsr_frame_stats *fs)
{
	for (uint32_t k = 0; k < s->count; k++)
		if (s->active[k].ops->tile_begin &&
		    s->active[k].ops->tile_begin(s->active[k].state, tile, fs))
			return 1;
	return 0;
}

int tsr_technique_set_tile_flush(const struct tsr_technique_set *s, struct tsr_tile_colors *c,
				 struct tsr_frame_stats *fs)
{
	int skip = 0;
	for (uint32_t k = 0; k < s->count; k++)
		if (s->active[k].ops->tile_flush) {
			if (!c->dram_bytes)
				c->dram_bytes = s->view->flush_bytes(s->view->gpu, c->tile);
			skip |= s->active[k].ops->tile_flush(s->active[k].state, c, fs);
		}
	return skip;
}

void tsr_technique_set_frame_end(const struct tsr_technique_set *s, struct tsr_frame_stats *fs)
{
	EACH_TECHNIQUE(s, frame_end, fs);
}
