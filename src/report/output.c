/*
 * output.c - the output transaction of report/report.h: files written
 * under temporary names and renamed into place all together on commit,
 * or removed on abort.
 */
/* realpath() is XSI: the X/Open level that includes POSIX.1-2008 */
#define _XOPEN_SOURCE 700
#include "report/report.h"
#include "report/output_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* Appends a copy of s to the list *v of *n strings; 0 when out of memory. */
static int list_add(char ***v, uint32_t *n, const char *s)
{
	char *c = strdup(s);
	char **nv = c ? realloc(*v, (*n + 1) * sizeof(**v)) : NULL;
	if (!nv) {
		free(c);
		return 0;
	}
	nv[(*n)++] = c;
	*v = nv;
	return 1;
}

static void list_free(char ***v, uint32_t *n)
{
	for (uint32_t i = 0; i < *n; i++)
		free((*v)[i]);
	free(*v);
	*v = NULL;
	*n = 0;
}

/* "<a>/<b>" (malloc), or NULL when out of memory. */
static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p = malloc(la + lb + 2);
	if (p) {
		memcpy(p, a, la);
		p[la] = '/';
		memcpy(p + la + 1, b, lb + 1);
	}
	return p;
}

/* <path><suffix>, malloc'd; NULL when out of memory. */
static char *suffixed(const char *path, const char *suffix)
{
	size_t n = strlen(path), k = strlen(suffix);
	char *p = malloc(n + k + 1);
	if (p) {
		memcpy(p, path, n);
		memcpy(p + n, suffix, k + 1);
	}
	return p;
}

/* <path>.tmp, the name an output is written under; NULL when out of memory. */
static char *tmp_name(const char *path)
{
	return suffixed(path, ".tmp");
}

static int is_folder(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

enum tsr_status tsr_output_open(struct tsr_output *o, const char *dir,
				struct tsr_error *err)
{
	memset(o, 0, sizeof(*o));
	if (!*dir)
		return tsr_error_set(err, TSR_ERR_CONFIG, "the output folder name is empty");
	o->dir = strdup(dir);
	char *path = strdup(dir);
	if (!o->dir || !path) {
		free(path);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	/* mkdir -p, remembering what it made so that abort can take it back */
	enum tsr_status s = TSR_OK;
	for (char *p = path + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(path, 0777) == 0) {
			if (!list_add(&o->created, &o->ncreated, path))
				s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
		} else if (errno != EEXIST) {
			s = tsr_error_set(err, TSR_ERR_IO, "cannot create folder '%s': %s", path,
					  strerror(errno));
		}
		*p = c;
		if (s != TSR_OK || !c)
			break;
	}
	if (s == TSR_OK && !is_folder(path))
		s = tsr_error_set(err, TSR_ERR_IO, "output folder '%s' is not a folder", path);
	free(path);
	return s;
}

/* path with its folder resolved (symbolic links, "..", "."), for comparing outputs. */
static char *canonical(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
	if (dir && !*dir) {
		free(dir);
		dir = strdup("/");
	}
	char *real = dir ? realpath(dir, NULL) : NULL;
	free(dir);
	if (!real || !*base) {
		free(real);
		return strdup(path);
	}
	char *c = join(strcmp(real, "/") ? real : "", base);
	free(real);
	return c;
}

enum tsr_status tsr_output_plan(struct tsr_output *o, const char *path, int in_dir,
				struct tsr_error *err)
{
	char *full = in_dir ? join(o->dir, path) : strdup(path);
	char *tmp = full ? tmp_name(full) : NULL;
	char *c = full ? canonical(full) : NULL;
	enum tsr_status s = TSR_OK;
	if (!tmp || !c)
		s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	else if (!*path || path[strlen(path) - 1] == '/' || is_folder(full))
		s = tsr_error_set(err, TSR_ERR_CONFIG, "output '%s' is a folder, not a file", full);
	else if (is_folder(tmp))
		s = tsr_error_set(err, TSR_ERR_CONFIG,
				  "output '%s' cannot be written: its temporary '%s' is a folder",
				  full, tmp);
	for (uint32_t i = 0; s == TSR_OK && i < o->nplanned; i++)
		if (strcmp(o->planned[i], c) == 0)
			s = tsr_error_set(err, TSR_ERR_CONFIG,
					  "outputs '%s' and '%s' are the same file; give each its own "
					  "name", o->shown[i], full);
	if (s == TSR_OK && (!list_add(&o->planned, &o->nplanned, c) ||
			    !list_add(&o->shown, &o->nshown, full)))
		s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	free(full);
	free(tmp);
	free(c);
	return s;
}

enum tsr_status tsr_output_adopt(struct tsr_output *o, const char *path,
				 struct tsr_error *err)
{
	if (!list_add(&o->names, &o->count, path))
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	return TSR_OK;
}

/* (output_priv.h) */
enum tsr_status tsr_output_add_name(struct tsr_output *o, const char *name, char **tmp,
				struct tsr_error *err)
{
	char *full = join(o->dir, name);
	*tmp = full ? tmp_name(full) : NULL;
	if (!*tmp || !list_add(&o->names, &o->count, full)) {
		free(full);
		free(*tmp);
		*tmp = NULL;
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	free(full);
	return TSR_OK;
}

enum tsr_status tsr_output_write(struct tsr_output *o, const char *name,
				 const void *data, size_t size,
				 struct tsr_error *err)
{
	char *tmp;
	TSR_TRY(tsr_output_add_name(o, name, &tmp, err));
	enum tsr_status s = TSR_OK;
	FILE *f = fopen(tmp, "wb");
	if (!f) {
		s = tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': %s", tmp, strerror(errno));
	} else {
		size_t w = fwrite(data, 1, size, f);
		if (fclose(f) != 0 || w != size)
			s = tsr_error_set(err, TSR_ERR_IO, "cannot write '%s'", tmp);
	}
	free(tmp);
	return s;
}


static void output_release(struct tsr_output *o)
{
	tsr_png_writer_release(o);
	list_free(&o->names, &o->count);
	list_free(&o->planned, &o->nplanned);
	list_free(&o->shown, &o->nshown);
	list_free(&o->created, &o->ncreated);
	free(o->dir);
	o->dir = NULL;
}

/* tsr_output_test_fail_rename(): the rename of a commit that fails (1-based), 0: none */
static uint32_t fail_rename_at;

void tsr_output_test_fail_rename(uint32_t n)
{
	fail_rename_at = n;
}


/*
 * Puts back the files of outputs [0, n) as they were before the commit:
 * the previous file from its backup, else no file.
 */
static void roll_back(struct tsr_output *o, uint32_t n, char **backup)
{
	for (uint32_t j = 0; j < n; j++) {
		if (backup[j])
			rename(backup[j], o->names[j]);
		else
			remove(o->names[j]);
	}
}

enum tsr_status tsr_output_commit(struct tsr_output *o, struct tsr_error *err)
{
	TSR_TRY(tsr_output_png_wait(o, err));
	/* first every check, then every rename: a failure leaves the old files */
	for (uint32_t i = 0; i < o->count; i++) {
		if (is_folder(o->names[i]))
			return tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': it is a folder",
					     o->names[i]);
		char *tmp = tmp_name(o->names[i]);
		struct stat sb;
		int ok = tmp && stat(tmp, &sb) == 0 && S_ISREG(sb.st_mode);
		free(tmp);
		if (!ok)
			return tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': its temporary "
					     "file is missing", o->names[i]);
	}
	/*
	 * One transaction: each existing file is kept as <path>.old.tmp (a
	 * hard link, so it stays in place meanwhile; a rename where links are
	 * not supported), then every temporary is renamed into place; if one
	 * rename fails, those done are undone and the old files put back.
	 */
	enum tsr_status st = TSR_OK;
	char **backup = calloc(o->count ? o->count : 1, sizeof(*backup));
	if (!backup)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	uint32_t kept = 0, renamed = 0, attempt = 0;
	for (; st == TSR_OK && kept < o->count; kept++) {
		struct stat sb;
		if (lstat(o->names[kept], &sb) != 0)
			continue; /* a new file */
		char *b = suffixed(o->names[kept], ".old.tmp");
		if (!b) {
			st = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
			break;
		}
		remove(b);
		if (link(o->names[kept], b) != 0 && rename(o->names[kept], b) != 0) {
			int e = errno;
			st = tsr_error_set(err, TSR_ERR_IO, "cannot keep '%s' while replacing it: %s",
					   o->names[kept], strerror(e));
			free(b);
			break;
		}
		backup[kept] = b;
	}
	for (; st == TSR_OK && renamed < o->count; renamed++) {
		char *tmp = tmp_name(o->names[renamed]);
		if (!tmp) {
			st = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
			break;
		}
		int r = ++attempt == fail_rename_at ? (errno = EIO, -1)
						    : rename(tmp, o->names[renamed]);
		if (r != 0) {
			int e = errno;
			st = tsr_error_set(err, TSR_ERR_IO, "cannot rename '%s': %s", tmp,
					   strerror(e));
			free(tmp);
			break;
		}
		free(tmp);
	}
	if (st != TSR_OK) {
		roll_back(o, renamed, backup);
		/* backups of outputs not renamed: put back those that were moved */
		for (uint32_t j = renamed; j < kept; j++)
			if (backup[j]) {
				if (access(o->names[j], F_OK) == 0)
					remove(backup[j]);
				else
					rename(backup[j], o->names[j]);
			}
	}
	for (uint32_t j = 0; j < o->count; j++) {
		if (st == TSR_OK && backup[j])
			remove(backup[j]);
		free(backup[j]);
	}
	free(backup);
	fail_rename_at = 0;
	if (st != TSR_OK)
		return st;  /* o kept: abort removes the temporaries left */
	for (uint32_t i = 0; i < o->count; i++) {
		/* renamed: abort must not touch it */
		free(o->names[i]);
		o->names[i] = NULL;
	}
	output_release(o);
	return TSR_OK;
}

void tsr_output_abort(struct tsr_output *o)
{
	tsr_png_writer_release(o);  /* its file is a temporary removed below */
	for (uint32_t i = 0; i < o->count; i++) {
		if (!o->names[i])
			continue;
		char *tmp = tmp_name(o->names[i]);
		if (tmp)
			remove(tmp);
		free(tmp);
	}
	/* the folders open made, deepest first (rmdir fails on a folder not empty) */
	for (uint32_t i = o->ncreated; i-- > 0;)
		rmdir(o->created[i]);
	output_release(o);
}
