#include "core/stream.h"

#include <string.h>

static const char *const stream_names[TSR_STREAM_COUNT] = {
	"index", "vertex", "pb_lists", "pb_attributes", "texture",
	"instruction", "color", "z", "render_target", "display", "hiz", "stencil", "other",
};

const char *tsr_stream_name(enum tsr_stream s)
{
	return (unsigned)s < TSR_STREAM_COUNT ? stream_names[s] : "invalid";
}

enum tsr_stream tsr_stream_from_name(const char *name)
{
	for (int i = 0; i < TSR_STREAM_COUNT; i++)
		if (strcmp(stream_names[i], name) == 0)
			return (enum tsr_stream)i;
	return TSR_STREAM_COUNT;
}
