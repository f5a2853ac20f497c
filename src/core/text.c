#include "core/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tsr_text_printf(struct tsr_text *t, const char *fmt, ...)
{
	if (t->nomem)
		return;
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? t->cap - t->len : 0,
				  fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->nomem = 1;
			return;
		}
		if (t->buf && t->len + (size_t)n < t->cap) {
			t->len += (size_t)n;
			return;
		}
		size_t cap = t->cap ? t->cap * 2 : 4096;
		while (cap <= t->len + (size_t)n)
			cap *= 2;
		char *b = realloc(t->buf, cap);
		if (!b) {
			t->nomem = 1;
			return;
		}
		t->buf = b;
		t->cap = cap;
	}
}

enum tsr_status tsr_text_status(const struct tsr_text *t, const char *what,
				struct tsr_error *err)
{
	return t->nomem ? tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for %s", what) : TSR_OK;
}

void tsr_text_release(struct tsr_text *t)
{
	free(t->buf);
	memset(t, 0, sizeof(*t));
}
