#include "core/datadir.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static int is_dir(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void tsr_data_list_free(char **list)
{
	for (size_t i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

/* Appends "<kind>/<name>" of every regular file of dir ending in suffix to *list. */
static enum tsr_status list_dir(const char *dir, const char *kind, const char *suffix,
				char ***list, size_t *count, struct tsr_error *err)
{
	DIR *d = opendir(dir);
	if (!d)
		return tsr_error_set(err, TSR_ERR_IO, "cannot list shipped folder '%s'", dir);
	size_t cap = 0, ls = strlen(suffix);
	enum tsr_status s = TSR_OK;
	for (struct dirent *e; s == TSR_OK && (e = readdir(d)) != NULL;) {
		size_t n = strlen(e->d_name);
		char path[4096];
		if (n <= ls || strcmp(e->d_name + n - ls, suffix) ||
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path) ||
		    !is_file(path))
			continue;
		if (*count + 2 > cap) {
			cap = cap ? cap * 2 : 16;
			char **l = realloc(*list, cap * sizeof(*l));
			if (!l) {
				s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
				break;
			}
			*list = l;
		}
		char *rel = malloc(strlen(kind) + n + 2);
		if (!rel) {
			s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
			break;
		}
		sprintf(rel, "%s/%s", kind, e->d_name);
		(*list)[(*count)++] = rel;
		(*list)[*count] = NULL;
	}
	closedir(d);
	return s;
}

enum tsr_status tsr_data_list(const char *kind, const char *suffix, char ***out,
			      size_t *count, struct tsr_error *err)
{
	*out = NULL;
	*count = 0;
	const char *env = getenv("TSR_DATA_DIR");
	const char *dirs[] = {env && *env ? env : NULL, TSR_DATA_INSTALL_DIR, TSR_DATA_SOURCE_DIR};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char dir[4096];
		if (!dirs[i])
			continue;
		int w = snprintf(dir, sizeof(dir), "%s/%s", dirs[i], kind);
		if (w <= 0 || (size_t)w >= sizeof(dir) || !is_dir(dir))
			continue;
		enum tsr_status s = list_dir(dir, kind, suffix, out, count, err);
		if (s == TSR_OK && !*count)
			s = tsr_error_set(err, TSR_ERR_IO, "shipped folder '%s' holds no '*%s' file",
					  dir, suffix);
		if (s != TSR_OK) {
			tsr_data_list_free(*out);
			*out = NULL;
			*count = 0;
			return s;
		}
		qsort(*out, *count, sizeof(**out), by_name);
		return TSR_OK;
	}
	return tsr_error_set(err, TSR_ERR_IO,
			     "cannot find shipped folder '%s/' (searched TSR_DATA_DIR%s%s, '%s', '%s')",
			     kind, env && *env ? "=" : " (unset)", env && *env ? env : "",
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
	if (is_dir(name))
		return tsr_error_set(err, TSR_ERR_IO,
				     "cannot read '%s': it is a folder, not a %s file", name,
				     strcmp(kind, "configs") == 0 ? "configuration" : "workload");
	const char *env = getenv("TSR_DATA_DIR");
	return tsr_error_set(err, TSR_ERR_IO,
			     "cannot open '%s': no such file, nor a shipped one of that name "
			     "in %s/ (searched TSR_DATA_DIR%s%s, '%s', '%s')", name, kind,
			     env && *env ? "=" : " (unset)", env && *env ? env : "",
			     TSR_DATA_INSTALL_DIR, TSR_DATA_SOURCE_DIR);
}
