/*
 * point.c - a sweep point's folder: OUT/points/<hex>/ holds what `tessera
 * run` wrote plus point.json, and appears at once (a rename of the
 * temporary folder the run wrote into), so a folder with a point.json of
 * the right hash is a complete point. Failures go to OUT/failed/<hex>/.
 */
#include "sweep/sweep.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/files.h"
#include "core/json_util.h"

/* Lines of a failed point's standard error kept in failed.json. */
#define FAILED_STDERR_LINES 20

void tsr_sweep_point_dir(const char *out_dir, const struct tsr_sweep_point *p, char *buf,
			 size_t n)
{
	snprintf(buf, n, "%s/points/%s", out_dir, p->hex);
}

enum tsr_status tsr_sweep_mkdirs(const char *path, struct tsr_error *err)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1;; s++) {
		if (*s && *s != '/')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0777) && errno != EEXIST)
			return tsr_error_set(err, TSR_ERR_IO, "cannot create folder '%s': %s", p,
					     strerror(errno));
		*s = c;
		if (!c)
			return TSR_OK;
	}
}

/* The point as a JSON object: hash, workload, config, overrides, frames. */
static json_t *point_json(const struct tsr_sweep_point *p)
{
	json_t *sets = json_array();
	for (size_t i = 0; i < p->nsets; i++)
		json_array_append_new(sets, tsr_json_string(p->sets[i]));
	json_t *o = json_object();
	json_object_set_new(o, "hash", json_string(p->hex));
	json_object_set_new(o, "workload", tsr_json_string(p->workload));
	json_object_set_new(o, "workload_path", tsr_json_string(p->workload_path));
	json_object_set_new(o, "config", tsr_json_string(p->config));
	json_object_set_new(o, "config_path",
			    p->config_path ? tsr_json_string(p->config_path) : json_null());
	json_object_set_new(o, "overrides", sets);
	json_object_set_new(o, "frames", p->frames ? json_integer(p->frames) : json_null());
	json_object_set_new(o, "tessera_version", json_string(TSR_VERSION));
	if (p->ntraces) {
		json_t *tr = json_object();
		for (size_t i = 0; i < p->ntraces; i++) {
			char name[64];
			tsr_sweep_trace_name(p->traces[i], name, sizeof(name));
			json_object_set_new(tr, p->traces[i], tsr_json_string(name));
		}
		json_object_set_new(o, "traces", tr);
	}
	return o;
}

/* Writes o (consumed) to path through path.tmp and a rename. */
static enum tsr_status write_json(const char *path, json_t *o, struct tsr_error *err)
{
	char tmp[PATH_MAX + 8];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (!o)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory writing '%s'", path);
	int bad = json_dump_file(o, tmp, JSON_INDENT(1) | JSON_SORT_KEYS) || rename(tmp, path);
	json_decref(o);
	if (bad) {
		unlink(tmp);
		return tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': %s", path,
				     strerror(errno));
	}
	return TSR_OK;
}

/* 1 when file `path` exists and is a regular file. */
static int is_file(const char *path)
{
	struct stat sb;
	return !stat(path, &sb) && S_ISREG(sb.st_mode);
}

int tsr_sweep_point_complete(const char *out_dir, const struct tsr_sweep_point *p)
{
	char dir[PATH_MAX], f[PATH_MAX + 80];
	tsr_sweep_point_dir(out_dir, p, dir, sizeof(dir));
	snprintf(f, sizeof(f), "%s/frames.csv", dir);
	if (!is_file(f))
		return 0;
	snprintf(f, sizeof(f), "%s/point.json", dir);
	json_t *o = json_load_file(f, 0, NULL);
	const char *h = json_string_value(json_object_get(o, "hash"));
	int ok = h && !strcmp(h, p->hex);
	json_decref(o);
	/* the folder appeared whole (a rename after the run committed its files): no need
	 * to parse stats.json, which may be large */
	snprintf(f, sizeof(f), "%s/stats.json", dir);
	ok = ok && is_file(f);
	/* a point run without a cache's trace is run again to record it */
	for (size_t i = 0; ok && i < p->ntraces; i++) {
		char name[64];
		tsr_sweep_trace_name(p->traces[i], name, sizeof(name));
		snprintf(f, sizeof(f), "%s/%s", dir, name);
		ok = is_file(f);
	}
	return ok;
}

enum tsr_status tsr_sweep_point_finish(const char *out_dir, const struct tsr_sweep_point *p,
				       const char *tmp_dir, double seconds,
				       struct tsr_error *err)
{
	char dir[PATH_MAX], f[PATH_MAX + 32];
	snprintf(f, sizeof(f), "%s/point.json", tmp_dir);
	json_t *o = point_json(p);
	if (o)
		json_object_set_new(o, "seconds", json_real(seconds));
	TSR_TRY(write_json(f, o, err));
	tsr_sweep_point_dir(out_dir, p, dir, sizeof(dir));
	if (tsr_sweep_point_complete(out_dir, p))  /* another process finished it first */
		return tsr_remove_tree(tmp_dir) ? tsr_error_set(err, TSR_ERR_IO,
								      "cannot remove '%s'", tmp_dir)
						      : TSR_OK;
	if (tsr_remove_tree(dir))
		return tsr_error_set(err, TSR_ERR_IO, "cannot remove incomplete point '%s': %s",
				     dir, strerror(errno));
	if (!rename(tmp_dir, dir))
		return TSR_OK;
	int e = errno;
	/* another process (a Slurm task sharing the point) renamed its copy in between */
	if ((e == ENOTEMPTY || e == EEXIST) && tsr_sweep_point_complete(out_dir, p) &&
	    !tsr_remove_tree(tmp_dir))
		return TSR_OK;
	return tsr_error_set(err, TSR_ERR_IO, "cannot rename '%s' to '%s': %s", tmp_dir, dir,
			     strerror(e));
}

/* The first FAILED_STDERR_LINES lines of text, as a JSON array of strings. */
static json_t *first_lines(const char *text)
{
	json_t *a = json_array();
	for (int i = 0; text && *text && i < FAILED_STDERR_LINES; i++) {
		size_t len = strcspn(text, "\n");
		char line[1024];
		snprintf(line, sizeof(line), "%.*s", (int)(len < 1023 ? len : 1023), text);
		json_array_append_new(a, tsr_json_string(line));
		text += len + (text[len] == '\n');
	}
	return a;
}

enum tsr_status tsr_sweep_point_fail(const char *out_dir, const struct tsr_sweep_point *p,
				     int exit_code, const char *stderr_text,
				     struct tsr_error *err)
{
	char dir[PATH_MAX], f[PATH_MAX + 32];
	snprintf(dir, sizeof(dir), "%s/failed/%s", out_dir, p->hex);
	TSR_TRY(tsr_sweep_mkdirs(dir, err));
	json_t *o = point_json(p);
	if (o) {
		json_object_set_new(o, "exit_code", json_integer(exit_code));
		json_object_set_new(o, "stderr", first_lines(stderr_text));
	}
	snprintf(f, sizeof(f), "%s/failed.json", dir);
	return write_json(f, o, err);
}

void tsr_sweep_point_clear_failure(const char *out_dir, const struct tsr_sweep_point *p)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/failed/%s", out_dir, p->hex);
	tsr_remove_tree(dir);
}

enum tsr_status tsr_sweep_point_clean(const char *out_dir, const struct tsr_sweep_point *p,
				      struct tsr_error *err)
{
	char dir[PATH_MAX], prefix[32];
	snprintf(dir, sizeof(dir), "%s/points", out_dir);
	snprintf(prefix, sizeof(prefix), "%s.tmp-", p->hex);
	DIR *d = opendir(dir);
	if (!d)
		return TSR_OK;
	enum tsr_status s = TSR_OK;
	struct dirent *e;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix))) {
			char path[PATH_MAX + 320];
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			if (tsr_remove_tree(path) && s == TSR_OK)
				s = tsr_error_set(err, TSR_ERR_IO, "cannot remove '%s'", path);
		}
	closedir(d);
	return s;
}
