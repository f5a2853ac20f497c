#include "core/status.h"

#include <stdarg.h>
#include <stdio.h>

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

enum tsr_status tsr_error_set(struct tsr_error *err, enum tsr_status s,
			      const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return s;
}
