#include "command/command.h"

#include <stdlib.h>
#include <string.h>

struct tsr_framebuffer_state tsr_pass_framebuffer(const struct tsr_cmd_pass *p,
						  const struct tsr_resources *r,
						  uint32_t screen_width, uint32_t screen_height,
						  uint32_t *width, uint32_t *height)
{
	struct tsr_framebuffer_state fb = {TSR_ATTACH_DEFAULT, TSR_ATTACH_DEFAULT};
	*width = screen_width;
	*height = screen_height;
	if (p->target == TSR_TARGET_TEXTURE) {
		const struct tsr_image *rt = &r->images[p->target_image];
		*width = rt->width;
		*height = rt->height;
		if (rt->depth)
			fb = (struct tsr_framebuffer_state){TSR_ATTACH_NONE, (int32_t)p->target_image};
		else
			fb.color = (int32_t)p->target_image;
	}
	return fb;
}

int tsr_pass_loads_color(const struct tsr_cmd_pass *p, struct tsr_framebuffer_state fb)
{
	return fb.color != TSR_ATTACH_NONE &&
	       !((p->clear.mask | p->clear.invalidate) & TSR_CLEAR_COLOR);
}

int tsr_pass_loads_depth(const struct tsr_cmd_pass *p)
{
	return p->target == TSR_TARGET_TEXTURE && p->store_depth &&
	       !((p->clear.mask | p->clear.invalidate) & TSR_CLEAR_DEPTH);
}

int tsr_pass_tests_stencil(const struct tsr_frame_commands *c, const struct tsr_cmd_pass *p)
{
	for (uint32_t i = p->first_draw; i < p->first_draw + p->draw_count && i < c->draw_count; i++)
		if (c->draws[i].state.stencil.test)
			return 1;
	return 0;
}

int tsr_commands_window_continued(const struct tsr_frame_commands *c)
{
	if (c->partial)
		return 1;
	for (uint32_t p = 0; p + 1 < c->pass_count; p++)
		if (c->passes[p].target == TSR_TARGET_FRAMEBUFFER)
			return 1;
	return 0;
}

void tsr_commands_reset(struct tsr_frame_commands *c, uint32_t frame)
{
	c->frame = frame;
	c->pass_count = c->draw_count = c->event_count = c->blit_count = 0;
	c->partial = 0;
}

/* Makes room for one more element of `size` bytes in *array. */
static enum tsr_status grow(void **array, uint32_t count, uint32_t *cap, size_t size,
			    struct tsr_error *err)
{
	if (count < *cap)
		return TSR_OK;
	uint32_t n = *cap ? *cap * 2 : 16;
	void *p = realloc(*array, (size_t)n * size);
	if (!p)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for a command list");
	*array = p;
	*cap = n;
	return TSR_OK;
}

enum tsr_status tsr_commands_pass(struct tsr_frame_commands *c, const struct tsr_cmd_pass *p,
				  struct tsr_error *err)
{
	TSR_TRY(grow((void **)&c->passes, c->pass_count, &c->pass_cap, sizeof(*p), err));
	c->passes[c->pass_count] = *p;
	c->passes[c->pass_count].first_draw = c->draw_count;
	c->passes[c->pass_count].draw_count = 0;
	c->pass_count++;
	return TSR_OK;
}

enum tsr_status tsr_commands_draw(struct tsr_frame_commands *c, const struct tsr_cmd_draw *d,
				  struct tsr_error *err)
{
	if (!c->pass_count)
		return tsr_error_set(err, TSR_ERR_INTERNAL, "a draw call outside a pass");
	TSR_TRY(grow((void **)&c->draws, c->draw_count, &c->draw_cap, sizeof(*d), err));
	c->draws[c->draw_count++] = *d;
	c->passes[c->pass_count - 1].draw_count++;
	return TSR_OK;
}

enum tsr_status tsr_commands_event(struct tsr_frame_commands *c,
				   const struct tsr_cmd_event *e, struct tsr_error *err)
{
	TSR_TRY(grow((void **)&c->events, c->event_count, &c->event_cap, sizeof(*e), err));
	c->events[c->event_count++] = *e;
	return TSR_OK;
}

enum tsr_status tsr_commands_blit(struct tsr_frame_commands *c, const struct tsr_cmd_blit *b,
				  struct tsr_error *err)
{
	TSR_TRY(grow((void **)&c->blits, c->blit_count, &c->blit_cap, sizeof(*b), err));
	c->blits[c->blit_count] = *b;
	c->blits[c->blit_count].before_pass = c->pass_count;
	c->blit_count++;
	return TSR_OK;
}

void tsr_commands_release(struct tsr_frame_commands *c)
{
	free(c->blits);
	free(c->passes);
	free(c->draws);
	free(c->events);
	memset(c, 0, sizeof(*c));
}
