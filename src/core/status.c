#include "core/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tsr_status_str(enum tsr_status s)
{
	static const char *const names[TSR_STATUS_COUNT] = {
		[TSR_OK] = "ok",
		[TSR_ERR_NOMEM] = "out of memory",
		[TSR_ERR_IO] = "input/output error",
		[TSR_ERR_PARSE] = "malformed input",
		[TSR_ERR_CONFIG] = "invalid configuration",
		[TSR_ERR_GEOMETRY] = "impossible cache geometry",
		[TSR_ERR_ASSET] = "invalid asset",
		[TSR_ERR_LIMIT] = "resource limit exceeded",
		[TSR_ERR_UNSUPPORTED] = "unsupported feature",
		[TSR_ERR_INTERNAL] = "internal error",
	};
	if ((unsigned)s >= TSR_STATUS_COUNT)
		return "unknown status";
	return names[s];
}

/*
 * Shortens the quoted part msg[a..b) (between single quotes) to its first
 * and last `keep` characters joined by "...", in place; returns the bytes
 * removed.
 */
static size_t shorten_quoted(char *msg, size_t len, size_t a, size_t b, size_t keep)
{
	if (b - a <= 2 * keep + 3)
		return 0;
	size_t cut = (b - a) - 2 * keep - 3;
	memcpy(msg + a + keep, "...", 3);
	memmove(msg + a + keep + 3, msg + b - keep, len - (b - keep) + 1);
	return cut;
}

/* The longest quoted part of msg: [*a, *b) between single quotes; 0 if none. */
static int longest_quoted(const char *msg, size_t *a, size_t *b)
{
	int found = 0;
	for (const char *p = strchr(msg, '\''); p; ) {
		const char *q = strchr(p + 1, '\'');
		if (!q)
			break;
		size_t pa = (size_t)(p + 1 - msg), pb = (size_t)(q - msg);
		if (!found || pb - pa > *b - *a) {
			*a = pa;
			*b = pb;
			found = 1;
		}
		p = strchr(q + 1, '\'');
	}
	return found;
}

void tsr_error_shorten(char *msg, size_t cap)
{
	size_t len = strlen(msg);
	/* every long quoted subject (a path, a key) to its first and last 60 characters */
	for (const char *p = strchr(msg, '\''); p; ) {
		const char *q = strchr(p + 1, '\'');
		if (!q)
			break;
		size_t a = (size_t)(p + 1 - msg), b = (size_t)(q - msg);
		size_t cut = shorten_quoted(msg, len, a, b, TSR_SHORT_KEEP);
		len -= cut;
		p = strchr(msg + b - cut + 1, '\'');
	}
	/* still too long: the longest quoted parts shrink further, the explanation stays */
	while (len >= cap) {
		size_t a = 0, b = 0;
		if (!longest_quoted(msg, &a, &b))
			break;
		size_t need = len - cap + 1, keep = 8;
		if (b - a > need + 2 * keep + 3)
			keep = (b - a - need - 3) / 2;
		size_t cut = shorten_quoted(msg, len, a, b, keep);
		if (!cut)
			break;
		len -= cut;
	}
	if (len >= cap)
		msg[cap - 1] = '\0';
}

enum tsr_status tsr_error_set(struct tsr_error *err, enum tsr_status s,
			      const char *fmt, ...)
{
	if (!err)
		return s;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *full = n >= 0 ? malloc((size_t)n + 1) : NULL;
	va_start(ap, fmt);
	if (full) {
		vsnprintf(full, (size_t)n + 1, fmt, ap);
		tsr_error_shorten(full, sizeof(err->msg));
		snprintf(err->msg, sizeof(err->msg), "%s", full);
		free(full);
	} else {
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	}
	va_end(ap);
	return s;
}

const char *tsr_short(const char *s, char *buf, size_t n)
{
	size_t len = strlen(s);
	if (len <= 2 * TSR_SHORT_KEEP + 3 || n < 2 * TSR_SHORT_KEEP + 4)
		return s;
	snprintf(buf, n, "%.*s...%s", TSR_SHORT_KEEP, s, s + len - TSR_SHORT_KEEP);
	return buf;
}
