/*
 * output.c - the output transaction of report/report.h: every output is
 * resolved to where its bytes land (symbolic links followed), regular
 * files are written under a temporary beside that target and renamed into
 * place all together on commit (or removed on abort); FIFOs, character
 * devices and standard output get their bytes once, at commit, before
 * the renames.
 */
/* realpath() and sigtimedwait(): XSI, the X/Open level that includes POSIX.1-2008 */
#define _XOPEN_SOURCE 700
#include "report/report.h"
#include "report/output_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* Most symbolic links followed for one output (Linux's own limit, MAXSYMLINKS). */
#define MAX_LINK_HOPS 40

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

static int is_folder(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

enum tsr_status tsr_output_open(struct tsr_output *o, const char *dir,
				struct tsr_error *err)
{
	memset(o, 0, sizeof(*o));
	if (!dir)
		return TSR_OK;  /* no folder: every output is a path */
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

/*
 * The file path's symbolic links lead to (a chain is followed to its end;
 * a relative link from its own folder), malloc'd: path itself when it is
 * not a link, the missing target of a dangling one. NULL with *e = ELOOP
 * after MAX_LINK_HOPS links, ENOMEM when out of memory.
 */
static char *follow_links(const char *path, int *e)
{
	char *cur = strdup(path);
	for (int hops = 0; cur; hops++) {
		struct stat sb;
		if (lstat(cur, &sb) != 0 || !S_ISLNK(sb.st_mode))
			return cur;
		char text[PATH_MAX];
		ssize_t n = hops < MAX_LINK_HOPS ? readlink(cur, text, sizeof(text) - 1) : -1;
		if (n <= 0) {
			free(cur);
			*e = ELOOP;
			return NULL;
		}
		text[n] = '\0';
		const char *slash = strrchr(cur, '/');
		char *next;
		if (text[0] == '/' || !slash) {
			next = strdup(text);
		} else {
			/* relative: from the link's folder */
			next = malloc((size_t)(slash - cur) + 1 + (size_t)n + 1);
			if (next)
				sprintf(next, "%.*s/%s", (int)(slash - cur), cur, text);
		}
		free(cur);
		cur = next;
	}
	*e = ENOMEM;
	return NULL;
}

/* The output named `path` (as registered; the first not written yet when a
 * device is named more than once), or NULL. */
static struct tsr_output_file *find(const struct tsr_output *o, const char *path)
{
	struct tsr_output_file *last = NULL;
	for (uint32_t i = 0; i < o->count; i++)
		if (strcmp(o->files[i]->path, path) == 0) {
			if (!o->files[i]->written)
				return o->files[i];
			last = o->files[i];
		}
	return last;
}

/* resolve()'s flag: the output is being planned (a temporary that is a folder
 * is a usage error now; at write time, the write fails) */
#define PLANNING 0x100u

static void file_free(struct tsr_output_file *f)
{
	if (!f)
		return;
	free(f->path);
	free(f->target);
	free(f->tmp);
	free(f->same);
	free(f->data);
	free(f);
}

/*
 * Resolves output `path` into f (path set): its kind, its target and
 * temporary, and the key that tells two outputs of one file apart.
 * Errors: TSR_ERR_CONFIG (a folder, a block device or socket, a loop of
 * links, a temporary that is a folder), TSR_ERR_NOMEM.
 */
static enum tsr_status resolve(struct tsr_output_file *f, unsigned flags, struct tsr_error *err)
{
	const char *path = f->path;
	size_t len = strlen(path);
	if ((flags & TSR_OUTPUT_STDOUT) && strcmp(path, "-") == 0) {
		f->kind = TSR_OUTPUT_TO_STDOUT;
		f->target = strdup("-");
		f->same = strdup("-");
		return f->target && f->same ? TSR_OK
					    : tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	if (!len || path[len - 1] == '/')
		return tsr_error_set(err, TSR_ERR_CONFIG, "output '%s' is a folder, not a file",
				     path);
	/* what the path leads to, every link followed by the system (/proc's too) */
	struct stat sb;
	int found = stat(path, &sb) == 0;
	if (!found && errno == ELOOP)
		return tsr_error_set(err, TSR_ERR_CONFIG, "output '%s' cannot be written: too many "
				     "levels of symbolic links", path);
	if (found && S_ISDIR(sb.st_mode))
		return tsr_error_set(err, TSR_ERR_CONFIG, "output '%s' is a folder, not a file",
				     path);
	if (found && (S_ISFIFO(sb.st_mode) || S_ISCHR(sb.st_mode))) {
		/* written directly by opening path: no temporary, no rename */
		char key[64];
		snprintf(key, sizeof(key), "#%llu:%llu", (unsigned long long)sb.st_dev,
			 (unsigned long long)sb.st_ino);
		f->kind = TSR_OUTPUT_TO_STREAM;
		f->target = strdup(path);
		/* a character device (/dev/null) may take several outputs; a FIFO one */
		f->same = S_ISFIFO(sb.st_mode) ? strdup(key) : NULL;
		return f->target && (f->same || !S_ISFIFO(sb.st_mode))
			       ? TSR_OK
			       : tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	if (found && !S_ISREG(sb.st_mode))
		return tsr_error_set(err, TSR_ERR_CONFIG, "output '%s' is not a regular file, a FIFO "
				     "or a character device", path);
	/* a regular file or none: written beside the file the links lead to */
	int e = 0;
	f->kind = TSR_OUTPUT_TO_FILE;
	f->target = follow_links(path, &e);
	if (!f->target)
		return e == ENOMEM ? tsr_error_set(err, TSR_ERR_NOMEM, "out of memory")
				   : tsr_error_set(err, TSR_ERR_CONFIG, "output '%s' cannot be "
						   "written: too many levels of symbolic links",
						   path);
	struct stat tb;
	if (found && (stat(f->target, &tb) != 0 || tb.st_dev != sb.st_dev ||
		      tb.st_ino != sb.st_ino))
		/* a link whose text is not a path (/proc/self/fd/N of a deleted file) */
		return tsr_error_set(err, TSR_ERR_CONFIG, "output '%s' cannot be written: its "
				     "symbolic link leads to no file tessera can replace", path);
	f->tmp = suffixed(f->target, ".tmp");
	f->same = canonical(f->target);
	if (!f->tmp || !f->same)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	if ((flags & PLANNING) && is_folder(f->tmp))
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "output '%s' cannot be written: its temporary '%s' is a folder",
				     path, f->tmp);
	return TSR_OK;
}

/*
 * Adds output `path` (as the caller names it) to o, resolved; *out is the
 * new entry. Errors: those of resolve(), TSR_ERR_CONFIG when it is the
 * same file as an output added before, TSR_ERR_NOMEM.
 */
static enum tsr_status add(struct tsr_output *o, const char *path, unsigned flags,
			   struct tsr_output_file **out, struct tsr_error *err)
{
	struct tsr_output_file *f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(path))) {
		free(f);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	enum tsr_status s = resolve(f, flags, err);
	for (uint32_t i = 0; s == TSR_OK && f->same && i < o->count; i++)
		if (o->files[i]->same && strcmp(o->files[i]->same, f->same) == 0)
			s = tsr_error_set(err, TSR_ERR_CONFIG,
					  "outputs '%s' and '%s' are the same file; give each its own "
					  "name", o->files[i]->path, path);
	struct tsr_output_file **nv = NULL;
	if (s == TSR_OK && !(nv = realloc(o->files, (o->count + 1) * sizeof(*nv))))
		s = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	if (s != TSR_OK) {
		file_free(f);
		return s;
	}
	o->files = nv;
	o->files[o->count++] = f;
	*out = f;
	return TSR_OK;
}

/* The path output name of o goes by: <dir>/<name> (in_dir, or any name when
 * o has a folder and flags say nothing), else name; malloc'd. */
static char *full_path(const struct tsr_output *o, const char *name, int in_dir)
{
	return in_dir && o->dir ? join(o->dir, name) : strdup(name);
}

enum tsr_status tsr_output_plan(struct tsr_output *o, const char *path, unsigned flags,
				struct tsr_error *err)
{
	char *full = full_path(o, path, flags & TSR_OUTPUT_IN_DIR);
	if (!full)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	struct tsr_output_file *f;
	enum tsr_status s = add(o, full, flags | PLANNING, &f, err);
	free(full);
	return s;
}

/* (output_priv.h) */
enum tsr_status tsr_output_entry(struct tsr_output *o, const char *name, int in_dir,
				 struct tsr_output_file **out, struct tsr_error *err)
{
	char *full = full_path(o, name, in_dir);
	if (!full)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	struct tsr_output_file *f = find(o, full);
	enum tsr_status s = TSR_OK;
	if (!f)
		s = add(o, full, 0, &f, err);  /* not planned: resolved now */
	else if (f->written)
		s = tsr_error_set(err, TSR_ERR_CONFIG, "output '%s' is written twice", full);
	free(full);
	if (s != TSR_OK)
		return s;
	f->written = 1;
	*out = f;
	return TSR_OK;
}

enum tsr_status tsr_output_file(struct tsr_output *o, const char *path, const char **where,
				struct tsr_error *err)
{
	struct tsr_output_file *f;
	TSR_TRY(tsr_output_entry(o, path, 0, &f, err));
	if (f->kind == TSR_OUTPUT_TO_STDOUT)
		return tsr_error_set(err, TSR_ERR_CONFIG, "output '%s' cannot be standard output",
				     path);
	f->external = 1;
	*where = f->kind == TSR_OUTPUT_TO_FILE ? f->tmp : f->target;
	return TSR_OK;
}

enum tsr_status tsr_output_write(struct tsr_output *o, const char *name,
				 const void *data, size_t size,
				 struct tsr_error *err)
{
	struct tsr_output_file *f;
	TSR_TRY(tsr_output_entry(o, name, 1, &f, err));
	if (f->kind != TSR_OUTPUT_TO_FILE) {
		/* a FIFO, a device, standard output: its bytes go out at commit */
		f->data = malloc(size ? size : 1);
		if (!f->data)
			return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for '%s'", f->path);
		memcpy(f->data, data, size);
		f->size = size;
		return TSR_OK;
	}
	FILE *w = fopen(f->tmp, "wb");
	if (!w)
		return tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': %s", f->tmp,
				     strerror(errno));
	size_t n = fwrite(data, 1, size, w);
	int e = n == size && fflush(w) == 0 ? 0 : (errno ? errno : EIO);
	if (fclose(w) != 0 && !e)
		e = errno ? errno : EIO;
	if (e)
		return tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': %s", f->tmp, strerror(e));
	return TSR_OK;
}

static void output_release(struct tsr_output *o)
{
	tsr_png_writer_release(o);
	for (uint32_t i = 0; i < o->count; i++)
		file_free(o->files[i]);
	free(o->files);
	o->files = NULL;
	o->count = 0;
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
 * Writes data[0, size) to fd whole (retrying short writes and EINTR); 0, or
 * the errno of the failure. SIGPIPE is blocked meanwhile (a FIFO whose
 * reader left gives EPIPE, not the end of the process); the one it raises
 * is taken back.
 */
static int write_all(int fd, const uint8_t *data, size_t size)
{
	sigset_t pipe_only, old, pending;
	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
	sigpending(&pending);
	const int was_pending = sigismember(&pending, SIGPIPE);
	int e = 0;
	for (size_t at = 0; at < size && !e;) {
		ssize_t n = write(fd, data + at, size - at);
		if (n > 0)
			at += (size_t)n;
		else if (n < 0 && errno != EINTR)
			e = errno;
		else if (n == 0)
			e = EIO;
	}
	if (e == EPIPE && !was_pending) {
		const struct timespec now = {0, 0};
		sigtimedwait(&pipe_only, NULL, &now);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return e;
}

/*
 * Gives output f (a FIFO, a character device, standard output) its bytes:
 * opens the path (no creation, no truncation) and writes them once.
 * Errors: TSR_ERR_IO naming the path.
 */
static enum tsr_status deliver(const struct tsr_output_file *f, struct tsr_error *err)
{
	if (f->kind == TSR_OUTPUT_TO_STDOUT) {
		/* what the caller printed before goes first */
		int e = fflush(stdout) == 0 ? write_all(STDOUT_FILENO, f->data, f->size) : errno;
		return e ? tsr_error_set(err, TSR_ERR_IO, "cannot write standard output: %s",
					 strerror(e))
			 : TSR_OK;
	}
	int fd = open(f->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	int e = fd < 0 ? errno : write_all(fd, f->data, f->size);
	if (fd >= 0 && close(fd) != 0 && !e)
		e = errno;
	return e ? tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': %s", f->path, strerror(e))
		 : TSR_OK;
}

/*
 * Puts back the files of outputs [0, n) as they were before the commit:
 * the previous file from its backup, else no file (streams: nothing).
 */
static void roll_back(struct tsr_output *o, uint32_t n, char **backup)
{
	for (uint32_t j = 0; j < n; j++) {
		const struct tsr_output_file *f = o->files[j];
		if (f->kind != TSR_OUTPUT_TO_FILE || !f->written)
			continue;
		if (backup[j])
			rename(backup[j], f->target);
		else
			remove(f->target);
	}
}

enum tsr_status tsr_output_commit(struct tsr_output *o, struct tsr_error *err)
{
	TSR_TRY(tsr_output_png_wait(o, err));
	/* first every check, then every stream, then every rename: a failure leaves the old files */
	for (uint32_t i = 0; i < o->count; i++) {
		const struct tsr_output_file *f = o->files[i];
		if (!f->written || f->kind != TSR_OUTPUT_TO_FILE)
			continue;
		struct stat sb;
		if (lstat(f->target, &sb) == 0 && !S_ISREG(sb.st_mode))
			return tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': '%s' is no longer "
					     "a regular file", f->path, f->target);
		if (stat(f->tmp, &sb) != 0 || !S_ISREG(sb.st_mode))
			return tsr_error_set(err, TSR_ERR_IO, "cannot write '%s': its temporary "
					     "file is missing", f->path);
	}
	for (uint32_t i = 0; i < o->count; i++) {
		const struct tsr_output_file *f = o->files[i];
		if (f->written && f->kind != TSR_OUTPUT_TO_FILE && !f->external)
			TSR_TRY(deliver(f, err));
	}
	/*
	 * One transaction: each existing file is kept as <target>.old.tmp (a
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
		const struct tsr_output_file *f = o->files[kept];
		struct stat sb;
		if (!f->written || f->kind != TSR_OUTPUT_TO_FILE || lstat(f->target, &sb) != 0)
			continue; /* a new file, or not a file */
		char *b = suffixed(f->target, ".old.tmp");
		if (!b) {
			st = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
			break;
		}
		remove(b);
		if (link(f->target, b) != 0 && rename(f->target, b) != 0) {
			int e = errno;
			st = tsr_error_set(err, TSR_ERR_IO, "cannot keep '%s' while replacing it: %s",
					   f->target, strerror(e));
			free(b);
			break;
		}
		backup[kept] = b;
	}
	for (; st == TSR_OK && renamed < o->count; renamed++) {
		const struct tsr_output_file *f = o->files[renamed];
		if (!f->written || f->kind != TSR_OUTPUT_TO_FILE)
			continue;
		int r = ++attempt == fail_rename_at ? (errno = EIO, -1) : rename(f->tmp, f->target);
		if (r != 0) {
			st = tsr_error_set(err, TSR_ERR_IO, "cannot rename '%s': %s", f->tmp,
					   strerror(errno));
			break;
		}
	}
	if (st != TSR_OK) {
		roll_back(o, renamed, backup);
		/* backups of outputs not renamed: put back those that were moved */
		for (uint32_t j = renamed; j < kept; j++)
			if (backup[j]) {
				if (access(o->files[j]->target, F_OK) == 0)
					remove(backup[j]);
				else
					rename(backup[j], o->files[j]->target);
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
	output_release(o);
	return TSR_OK;
}

void tsr_output_abort(struct tsr_output *o)
{
	tsr_png_writer_release(o);  /* its file is a temporary removed below */
	for (uint32_t i = 0; i < o->count; i++) {
		const struct tsr_output_file *f = o->files[i];
		/* only temporaries: never a stream, never a file in place */
		if (f->written && f->kind == TSR_OUTPUT_TO_FILE)
			remove(f->tmp);
	}
	/* the folders open made, deepest first (rmdir fails on a folder not empty) */
	for (uint32_t i = o->ncreated; i-- > 0;)
		rmdir(o->created[i]);
	output_release(o);
}
