/*
 * frame_list.c - the frames whose images are written (report/report.h):
 * `tessera run --dump-frames` and the GL ES driver's TESSERA_DUMP_FRAMES
 * take the same grammar, parsed here once: all, none, last, or a list
 * of frame numbers and ranges ("0,5,9", "10-20,40"); --frames too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "report/report.h"

enum tsr_status tsr_frame_list_parse(const char *spec, struct tsr_frame_list *out,
				     struct tsr_error *err)
{
	memset(out, 0, sizeof(*out));
	out->kind = TSR_FRAMES_ALL;
	if (!spec || strcmp(spec, "all") == 0)
		return TSR_OK;
	if (strcmp(spec, "none") == 0 || strcmp(spec, "last") == 0) {
		out->kind = spec[0] == 'n' ? TSR_FRAMES_NONE : TSR_FRAMES_LAST;
		return TSR_OK;
	}
	out->kind = TSR_FRAMES_LIST;
	for (int pass = 0; pass < 2; pass++) { /* the largest frame, then the marks */
		for (const char *p = spec;;) {
			const size_t len = strcspn(p, ",");
			/* N, or a range A-B (A <= B) */
			unsigned long v[2] = {0, 0};
			const char *q = p;
			int ok = len > 0, parts = 0;
			while (ok && parts < 2) {
				char *end;
				errno = 0;
				ok = q[0] >= '0' && q[0] <= '9';
				v[parts] = ok ? strtoul(q, &end, 10) : 0;
				ok = ok && !errno && v[parts] < UINT32_MAX;
				parts++;
				if (!ok)
					break;
				if ((size_t)(end - p) == len)
					break;
				ok = parts == 1 && *end == '-';
				q = end + 1;
			}
			if (!ok)
				return tsr_error_set(err, TSR_ERR_CONFIG,
						     "'%s': item '%.*s' is not a frame number (use "
						     "all, none, last or a list like 0,5,9 or 0-3,8)",
						     spec, (int)len, p);
			if (parts == 1)
				v[1] = v[0];
			if (v[1] < v[0])
				return tsr_error_set(err, TSR_ERR_CONFIG,
						     "'%s': range '%.*s' ends before it begins", spec,
						     (int)len, p);
			if (v[1] >= TSR_LIMIT_FRAMES)
				return tsr_error_set(err, TSR_ERR_CONFIG,
						     "'%s': frame %lu is past the most frames a run "
						     "has (%u)", spec, v[1], TSR_LIMIT_FRAMES);
			if (pass == 0 && (uint32_t)v[1] >= out->n)
				out->n = (uint32_t)v[1] + 1;
			else if (pass == 1)
				memset(out->listed + v[0], 1, v[1] - v[0] + 1);
			if (!p[len])
				break;
			p += len + 1;
		}
		if (pass == 0 && !(out->listed = calloc(out->n, 1)))
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	return TSR_OK;
}

bool tsr_frame_list_has(const struct tsr_frame_list *l, uint32_t frame, uint32_t frames)
{
	switch (l->kind) {
	case TSR_FRAMES_ALL:
		return true;
	case TSR_FRAMES_LAST:
		return frames > 0 && frame == frames - 1;
	case TSR_FRAMES_LIST:
		return frame < l->n && l->listed[frame];
	default:
		return false;
	}
}

void tsr_frame_list_release(struct tsr_frame_list *l)
{
	free(l->listed);
	memset(l, 0, sizeof(*l));
}
