/*
 * mesh_sandbox.c - tsr_model_load(): tsr_model_import() in a child process.
 *
 * assimp's readers are large C++ code that tessera cannot fix, and fuzzing
 * found a NULL dereference (the DirectX .x reader) and a 16 GB allocation
 * (an OFF header) in Debian's build. A model file is therefore imported
 * in a fork()ed child with a CPU-time limit and an address-space limit,
 * its stderr in a temporary file whose first line goes into the message;
 * the child writes its result to a pipe in the format below and ends with
 * _exit() (no atexit handlers, no flush of stdio buffers it inherited), and
 * the parent reads it back, checking every count against the bytes it got.
 *
 * Wire format (host byte order; parent and child are the same program):
 *   u32 magic "TSRM", u32 status;
 *   status != TSR_OK: str message;
 *   else: str path, u32 meshes, u32 materials, u32 embedded; per mesh:
 *   u32 vertices, u32 indices, u32 material, positions (12 bytes a
 *   vertex), normals (12), texcoords (8), indices (4 each); per material:
 *   u32 has_color, 4 floats, u32 has_texture, i32 embedded, str path
 *   (length 0xffffffff: NULL); per embedded texture: u32 width, u32 height,
 *   its bytes (width if height is 0, else width x height x 4); then the
 *   files the import asked for (struct tsr_model_files): u32 failed,
 *   u32 count, per file str path, u32 opened.
 *   str: u32 length, then the bytes without a NUL.
 *
 * A model the process imported before, from files that still hold the
 * same bytes, is copied from the asset cache (asset_cache.h) instead: no
 * child at all.
 */
#include "scene/mesh_load.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/limits.h"
#include "scene/asset_cache.h"

#define WIRE_MAGIC 0x4d525354u
#define NO_STRING 0xffffffffu

#if defined(__SANITIZE_ADDRESS__)
#define TSR_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TSR_ASAN 1
#endif
#endif

/* ---- child: write the result ---- */

static int put(FILE *f, const void *p, size_t n)
{
	return n == 0 || fwrite(p, 1, n, f) == n;
}

static int put_u32(FILE *f, uint32_t v)
{
	return put(f, &v, sizeof(v));
}

static int put_str(FILE *f, const char *s)
{
	if (!s)
		return put_u32(f, NO_STRING);
	size_t n = strlen(s);
	return put_u32(f, (uint32_t)n) && put(f, s, n);
}

static int put_model(FILE *f, const struct tsr_model *m)
{
	int ok = put_str(f, m->path) && put_u32(f, m->mesh_count) &&
		 put_u32(f, m->material_count) && put_u32(f, m->embedded_count);
	for (uint32_t i = 0; ok && i < m->mesh_count; i++) {
		const struct tsr_mesh *k = &m->meshes[i];
		size_t v = k->vertex_count;
		ok = put_u32(f, k->vertex_count) && put_u32(f, k->index_count) &&
		     put_u32(f, k->material) &&
		     put(f, k->positions, v * 3 * sizeof(float)) &&
		     put(f, k->normals, v * 3 * sizeof(float)) &&
		     put(f, k->texcoords, v * 2 * sizeof(float)) &&
		     put(f, k->indices, (size_t)k->index_count * sizeof(uint32_t));
	}
	for (uint32_t i = 0; ok && i < m->material_count; i++) {
		const struct tsr_model_material *mm = &m->materials[i];
		ok = put_u32(f, (uint32_t)mm->has_color) && put(f, mm->color, sizeof(mm->color)) &&
		     put_u32(f, (uint32_t)mm->has_texture) &&
		     put_u32(f, (uint32_t)mm->embedded) && put_str(f, mm->texture_path);
	}
	for (uint32_t i = 0; ok && i < m->embedded_count; i++) {
		const struct tsr_model_embedded *e = &m->embedded[i];
		size_t bytes = (size_t)tsr_model_embedded_bytes(e->width, e->height);
		ok = put_u32(f, e->width) && put_u32(f, e->height) && put(f, e->data, bytes);
	}
	return ok;
}

static int put_files(FILE *f, const struct tsr_model_files *files)
{
	int ok = put_u32(f, (uint32_t)(files->failed != 0)) && put_u32(f, files->count);
	for (uint32_t i = 0; ok && i < files->count; i++)
		ok = put_str(f, files->paths[i]) && put_u32(f, files->opened[i]);
	return ok;
}

/* Limits the child's CPU time and (outside ASan, whose shadow memory is
 * address space) the growth of its address space. */
static void limit_child(void)
{
	struct rlimit cpu = {TSR_LIMIT_IMPORT_CPU_SECONDS, TSR_LIMIT_IMPORT_CPU_SECONDS + 1};
	setrlimit(RLIMIT_CPU, &cpu);
#ifndef TSR_ASAN
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%llu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	long page = sysconf(_SC_PAGESIZE);
	uint64_t now = pages * (uint64_t)(page > 0 ? page : 4096);
	struct rlimit as = {(rlim_t)(now + tsr_memory_budget_bytes()),
			    (rlim_t)(now + tsr_memory_budget_bytes())};
	setrlimit(RLIMIT_AS, &as);
#endif
}

static void child(int fd, FILE *errf, const char *path)
{
	if (errf)
		dup2(fileno(errf), STDERR_FILENO);
	/* a crash ends the child with its signal, whatever handlers the
	 * caller installed (a test framework's, a sanitizer's) */
	static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
				    SIGXCPU, SIGPIPE};
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], SIG_DFL);
	limit_child();
	struct tsr_model m;
	struct tsr_model_files files = {0};
	struct tsr_error e;
	memset(&e, 0, sizeof(e));
	enum tsr_status st = tsr_model_import_files(path, &m, &files, &e);
	FILE *f = fdopen(fd, "wb");
	int ok = f && put_u32(f, WIRE_MAGIC) && put_u32(f, (uint32_t)st) &&
		 (st == TSR_OK ? put_model(f, &m) && put_files(f, &files) : put_str(f, e.msg)) &&
		 fflush(f) == 0;
	_exit(ok ? 0 : 3);
}

/* ---- parent: read it back ---- */

struct wire {
	const uint8_t *p;
	size_t n, at;
	int bad;
};

static const void *take(struct wire *w, uint64_t n)
{
	if (w->bad || n > w->n - w->at) {
		w->bad = 1;
		return NULL;
	}
	const void *p = w->p + w->at;
	w->at += (size_t)n;
	return p;
}

static uint32_t take_u32(struct wire *w)
{
	uint32_t v = 0;
	const void *p = take(w, sizeof(v));
	if (p)
		memcpy(&v, p, sizeof(v));
	return v;
}

/* A copy of the next n bytes (NUL-terminated when str), or NULL. */
static void *take_copy(struct wire *w, uint64_t n, int str)
{
	const void *p = take(w, n);
	if (!p)
		return NULL;
	char *c = malloc((size_t)n + (str ? 1 : 0) + (n == 0));
	if (!c) {
		w->bad = 1;
		return NULL;
	}
	memcpy(c, p, (size_t)n);
	if (str)
		c[n] = '\0';
	return c;
}

static char *take_str(struct wire *w, int *is_null)
{
	uint32_t n = take_u32(w);
	*is_null = n == NO_STRING;
	return *is_null ? NULL : take_copy(w, n, 1);
}

/* Fills m from the wire; 0 when the bytes do not hold a whole model. */
static int get_model(struct wire *w, struct tsr_model *m)
{
	int null;
	m->path = take_str(w, &null);
	uint32_t meshes = take_u32(w), materials = take_u32(w), embedded = take_u32(w);
	/* every item takes at least 8 bytes: the counts cannot exceed them */
	if (w->bad || !m->path || (uint64_t)meshes + materials + embedded > w->n / 8)
		return 0;
	m->meshes = calloc(meshes ? meshes : 1, sizeof(*m->meshes));
	m->materials = calloc(materials ? materials : 1, sizeof(*m->materials));
	m->embedded = calloc(embedded ? embedded : 1, sizeof(*m->embedded));
	if (!m->meshes || !m->materials || !m->embedded)
		return 0;
	for (; m->mesh_count < meshes; m->mesh_count++) {
		struct tsr_mesh *k = &m->meshes[m->mesh_count];
		uint64_t v = take_u32(w);
		k->index_count = take_u32(w);
		k->material = take_u32(w);
		k->vertex_count = (uint32_t)v;
		k->positions = take_copy(w, v * 3 * sizeof(float), 0);
		k->normals = take_copy(w, v * 3 * sizeof(float), 0);
		k->texcoords = take_copy(w, v * 2 * sizeof(float), 0);
		k->indices = take_copy(w, (uint64_t)k->index_count * sizeof(uint32_t), 0);
		if (w->bad || k->material >= materials)
			return 0;
	}
	for (; m->material_count < materials; m->material_count++) {
		struct tsr_model_material *mm = &m->materials[m->material_count];
		mm->has_color = (int)take_u32(w);
		const void *c = take(w, sizeof(mm->color));
		if (c)
			memcpy(mm->color, c, sizeof(mm->color));
		mm->has_texture = (int)take_u32(w);
		mm->embedded = (int32_t)take_u32(w);
		mm->texture_path = take_str(w, &null);
		if (w->bad || (!null && !mm->texture_path) || mm->embedded < -1 ||
		    mm->embedded >= (int64_t)embedded)
			return 0;
	}
	for (; m->embedded_count < embedded; m->embedded_count++) {
		struct tsr_model_embedded *e = &m->embedded[m->embedded_count];
		e->width = take_u32(w);
		e->height = take_u32(w);
		uint64_t bytes = tsr_model_embedded_bytes(e->width, e->height);
		e->data = take_copy(w, bytes, 0);
		if (w->bad)
			return 0;
	}
	return 1;
}

/* Fills files from the wire (after the model); 0 when the bytes do not
 * hold the whole list and nothing after it. */
static int get_files(struct wire *w, struct tsr_model_files *files)
{
	files->failed = take_u32(w) != 0;
	const uint32_t n = take_u32(w);
	/* every file takes at least 8 bytes */
	if (w->bad || n > (w->n - w->at) / 8)
		return 0;
	files->paths = calloc(n ? n : 1, sizeof(*files->paths));
	files->opened = calloc(n ? n : 1, sizeof(*files->opened));
	if (!files->paths || !files->opened)
		return 0;
	files->cap = n;
	for (; files->count < n; files->count++) {
		int null;
		files->paths[files->count] = take_str(w, &null);
		files->opened[files->count] = (uint8_t)(take_u32(w) != 0);
		if (w->bad || !files->paths[files->count])
			return 0;
	}
	return w->at == w->n;
}

/*
 * The first line the child wrote to stderr that is not a rule of '='
 * (assimp's "ai_assert failure in ...", a sanitizer's "ERROR: ..."), at
 * most n - 1 bytes, into line; "" when there is none.
 */
static void first_line(FILE *errf, char *line, size_t n)
{
	line[0] = '\0';
	if (!errf || fseek(errf, 0, SEEK_SET) != 0)
		return;
	char buf[512];
	while (fgets(buf, sizeof(buf), errf)) {
		size_t k = strcspn(buf, "\r\n");
		buf[k] = '\0';
		if (k > 0 && strspn(buf, "=") < k) {
			size_t c = k < n - 1 ? k : n - 1;
			memcpy(line, buf, c);
			line[c] = '\0';
			return;
		}
	}
}

/* Reads fd to its end into *buf. 0 on success, else an errno value. */
static int read_all(int fd, uint8_t **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	uint8_t *b = malloc(cap);
	if (!b)
		return ENOMEM;
	for (;;) {
		if (n == cap) {
			if ((uint64_t)cap * 2 > tsr_memory_budget_bytes()) {
				free(b);
				return EFBIG;
			}
			uint8_t *g = realloc(b, cap * 2);
			if (!g) {
				free(b);
				return ENOMEM;
			}
			b = g;
			cap *= 2;
		}
		ssize_t r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(b);
			return e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*buf = b;
	*len = n;
	return 0;
}

enum tsr_status tsr_model_load(const char *path, struct tsr_model *out,
			       struct tsr_error *err)
{
	if (tsr_asset_cache_get_model(path, out))
		return TSR_OK;
	const uint64_t budget = tsr_memory_budget_bytes();  /* the child's, below */
	int fds[2];
	if (pipe(fds) != 0)
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "cannot import mesh '%s': pipe: %s", path, strerror(errno));
	FILE *errf = tmpfile(); /* the child's stderr; none if it fails */
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(fds[0]);
		close(fds[1]);
		if (errf)
			fclose(errf);
		return tsr_error_set(err, TSR_ERR_INTERNAL,
				     "cannot import mesh '%s': fork: %s", path, strerror(e));
	}
	if (pid == 0) {
		close(fds[0]);
		child(fds[1], errf, path); /* does not return */
	}
	close(fds[1]);
	uint8_t *buf = NULL;
	size_t len = 0;
	int rerr = read_all(fds[0], &buf, &len);
	close(fds[0]);
	int ws = 0;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	char said[200];
	first_line(errf, said, sizeof(said));
	if (errf)
		fclose(errf);
	enum tsr_status st;
	if (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGXCPU) {
		st = tsr_error_set(err, TSR_ERR_LIMIT,
				   "importing mesh '%s' took more than %u s of CPU time "
				   "(the import limit)", path, TSR_LIMIT_IMPORT_CPU_SECONDS);
	} else if (rerr != 0) {
		/* before the signal test: a child whose reader gave up dies of SIGPIPE */
		st = tsr_error_set(err, rerr == EFBIG ? TSR_ERR_LIMIT : TSR_ERR_NOMEM,
				   "the import of mesh '%s' is larger than the memory budget "
				   "or could not be read back (%s)", path, strerror(rerr));
	} else if (WIFSIGNALED(ws)) {
		st = tsr_error_set(err, TSR_ERR_PARSE,
				   "assimp crashed reading mesh '%s' (%s%s%s)", path,
				   strsignal(WTERMSIG(ws)), said[0] ? ": " : "", said);
	} else {
		struct wire w = {buf, len, 0, 0};
		uint32_t magic = take_u32(&w), code = take_u32(&w);
		if (w.bad || magic != WIRE_MAGIC || code >= TSR_STATUS_COUNT) {
			/* e.g. a sanitizer's allocator gave up inside assimp */
			st = tsr_error_set(err, TSR_ERR_PARSE,
					   "the import of mesh '%s' ended without a result "
					   "(exit status %d%s%s)", path,
					   WIFEXITED(ws) ? WEXITSTATUS(ws) : -1,
					   said[0] ? ": " : "", said);
		} else if (code != TSR_OK) {
			int null;
			char *msg = take_str(&w, &null);
			st = tsr_error_set(err, (enum tsr_status)code, "%s",
					   msg ? msg : "import failed");
			free(msg);
		} else {
			struct tsr_model_files files = {0};
			if (!get_model(&w, out) || !get_files(&w, &files)) {
				tsr_model_release(out);
				st = tsr_error_set(err, TSR_ERR_INTERNAL,
						   "the import of mesh '%s' came back malformed",
						   path);
			} else {
				tsr_asset_cache_put_model(path, out, &files, budget);
				st = TSR_OK;
			}
			tsr_model_files_release(&files);
		}
	}
	free(buf);
	return st;
}
