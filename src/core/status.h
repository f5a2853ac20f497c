/*
 * status.h - status codes and error context of libtessera.
 *
 * Every library function that can fail returns an enum tsr_status (SQLite
 * style: one flat namespace, one comment per code) and, where it has one,
 * fills a struct tsr_error with a human-readable message that names the
 * file, key or line at fault. The library never prints, exits or aborts;
 * only the CLI turns a status into a message on stderr and an exit code.
 */
#ifndef TSR_CORE_STATUS_H
#define TSR_CORE_STATUS_H

#include <stddef.h>

enum tsr_status {
	TSR_OK = 0,        /* success */
	TSR_ERR_NOMEM,     /* an allocation failed */
	TSR_ERR_IO,        /* a file could not be opened, read or written */
	TSR_ERR_PARSE,     /* malformed input (JSON syntax, corrupt image, mesh) */
	TSR_ERR_CONFIG,    /* a configuration or workload key is unknown, mistyped or out of range */
	TSR_ERR_GEOMETRY,  /* an impossible cache geometry */
	TSR_ERR_ASSET,     /* an asset is invalid (e.g. indices out of range) */
	TSR_ERR_LIMIT,     /* a modelled resource limit was exceeded */
	TSR_ERR_UNSUPPORTED, /* a feature the model does not implement yet */
	TSR_ERR_INTERNAL,  /* an invariant of the model was violated (a bug) */
	TSR_STATUS_COUNT
};

/* Message buffer kept for the caller; lower-case, no final period. */
struct tsr_error {
	char msg[512];
};

/* Returns a static, lower-case description of a status code. */
const char *tsr_status_str(enum tsr_status s);

/*
 * Formats a message into err (if err is non-NULL) and returns s, so that
 * callers can write `return tsr_error_set(err, TSR_ERR_IO, "...", ...)`.
 */
enum tsr_status tsr_error_set(struct tsr_error *err, enum tsr_status s,
			      const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Long subjects in messages: a quoted part ('...') of a message longer than
 * 123 characters is shortened to its first and last TSR_SHORT_KEEP (60)
 * characters joined by "...", by tsr_error_set() for every message and by
 * tsr_short() for text the CLI prints itself; a message that still does
 * not fit its buffer has its longest quoted parts shortened further, so the
 * explanation after them survives.
 */
#define TSR_SHORT_KEEP 60
#define TSR_SHORT_BUF (2 * TSR_SHORT_KEEP + 4)

/* Shortens msg (NUL-terminated) in place as described above, to fit cap bytes. */
void tsr_error_shorten(char *msg, size_t cap);

/*
 * s itself when it has at most 123 characters, else its first and last 60
 * characters joined by "..." written to buf (n >= TSR_SHORT_BUF) and buf.
 */
const char *tsr_short(const char *s, char *buf, size_t n);

/* Returns from the calling function with the status of x unless it is TSR_OK. */
#define TSR_TRY(x)                         \
	do {                               \
		enum tsr_status tsr_s_ = (x); \
		if (tsr_s_ != TSR_OK)         \
			return tsr_s_;        \
	} while (0)

#endif
