/*
 * text.h - a growing text buffer for reports the library builds and the
 * CLI prints or writes (experiment tables, CSV). Out of memory is kept as
 * a flag and checked once at the end (tsr_text_status), not after every
 * append.
 */
#ifndef TSR_CORE_TEXT_H
#define TSR_CORE_TEXT_H

#include <stddef.h>

#include "core/status.h"

/* Zero-initialise; buf is NUL-terminated whenever len > 0. */
struct tsr_text {
	char *buf;
	size_t len, cap;   /* bytes used (no NUL), bytes allocated */
	int nomem;         /* an append failed: the text is incomplete */
};

/* Appends printf-style text; on out of memory sets t->nomem and stops appending. */
void tsr_text_printf(struct tsr_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* TSR_OK, or TSR_ERR_NOMEM ("out of memory for <what>") if an append failed. */
enum tsr_status tsr_text_status(const struct tsr_text *t, const char *what,
				struct tsr_error *err);

/* Frees the buffer and zeroes t. */
void tsr_text_release(struct tsr_text *t);

#endif
