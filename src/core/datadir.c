#include "core/datadir.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#ifndef TSR_DATA_INSTALL_DIR
#define TSR_DATA_INSTALL_DIR "/usr/local/share/tessera"
#endif
#ifndef TSR_DATA_SOURCE_DIR
#define TSR_DATA_SOURCE_DIR "."
#endif

static int is_file(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

enum tsr_status tsr_data_path(const char *rel, char *buf, size_t n, struct tsr_error *err)
{
	const char *env = getenv("TSR_DATA_DIR");
	const char *dirs[] = {env && *env ? env : NULL, TSR_DATA_INSTALL_DIR, TSR_DATA_SOURCE_DIR};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (!dirs[i])
			continue;
		int w = snprintf(buf, n, "%s/%s", dirs[i], rel);
		if (w > 0 && (size_t)w < n && is_file(buf))
			return TSR_OK;
	}
	return tsr_error_set(err, TSR_ERR_IO,
			     "cannot find shipped file '%s' (searched TSR_DATA_DIR%s%s, '%s', '%s')",
			     rel, env && *env ? "=" : " (unset)", env && *env ? env : "",
			     TSR_DATA_INSTALL_DIR, TSR_DATA_SOURCE_DIR);
}

enum tsr_status tsr_data_resolve(const char *kind, const char *name, char *buf, size_t n,
				 struct tsr_error *err)
{
	if (is_file(name)) {
		snprintf(buf, n, "%s", name);
		return TSR_OK;
	}
	/* "workloads/x.json" given from outside the source tree: the shipped file */
	if (name[0] != '/' && tsr_data_path(name, buf, n, err) == TSR_OK)
		return TSR_OK;
	char rel[1024];
	snprintf(rel, sizeof(rel), "%s/%s", kind, name);
	if (tsr_data_path(rel, buf, n, err) == TSR_OK)
		return TSR_OK;
	snprintf(rel, sizeof(rel), "%s/%s.json", kind, name);
	if (tsr_data_path(rel, buf, n, err) == TSR_OK)
		return TSR_OK;
	const char *env = getenv("TSR_DATA_DIR");
	return tsr_error_set(err, TSR_ERR_IO,
			     "cannot open '%s': no such file, nor a shipped one of that name "
			     "in %s/ (searched TSR_DATA_DIR%s%s, '%s', '%s')", name, kind,
			     env && *env ? "=" : " (unset)", env && *env ? env : "",
			     TSR_DATA_INSTALL_DIR, TSR_DATA_SOURCE_DIR);
}
