/*
 * hash.c - what identifies a sweep point: 64-bit FNV-1a (Fowler, Noll,
 * Vo) over the canonical effective configuration, the workload and its
 * assets, the frame count and tessera's version. Not cryptographic: it
 * names folders, and a collision among a sweep's points is vanishingly
 * unlikely (2^-64 per pair).
 */
#include "sweep/sweep.h"

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/json_util.h"

#define FNV1A64_PRIME 0x100000001b3ull

uint64_t tsr_fnv1a64(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= FNV1A64_PRIME;
	}
	return h;
}

/* Hashes the bytes of file `path` into *h; -1 when it cannot be read. */
static int hash_file(const char *path, uint64_t *h)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	unsigned char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		*h = tsr_fnv1a64(*h, buf, n);
	int bad = ferror(f);
	fclose(f);
	return bad ? -1 : 0;
}

/* The asset files a workload names, each hashed once. */
struct assets {
	const char *dir;      /* the workload's folder, with a trailing '/' */
	char seen[64][PATH_MAX];
	int nseen;
	uint64_t h;
};

/* Hashes the file a string value names (relative to the workload's folder), if any. */
static void asset_hash(struct assets *a, const char *s)
{
	char path[PATH_MAX];
	struct stat sb;
	if (!s[0] || !strncmp(s, "builtin:", 8))
		return;
	if (snprintf(path, sizeof(path), "%s%s", s[0] == '/' ? "" : a->dir, s) >= (int)sizeof(path))
		return;
	if (stat(path, &sb) || !S_ISREG(sb.st_mode))
		return;
	for (int i = 0; i < a->nseen; i++)
		if (!strcmp(a->seen[i], path))
			return;
	if (a->nseen < 64)  /* past 64 distinct files, repeats are hashed again: still correct */
		snprintf(a->seen[a->nseen++], PATH_MAX, "%s", path);
	a->h = tsr_fnv1a64(a->h, path, strlen(path) + 1);
	if (hash_file(path, &a->h))
		a->h = tsr_fnv1a64(a->h, "?", 1);  /* unreadable: the run will say so */
}

/* Every string in v, depth first in document order. */
static void walk(struct assets *a, const json_t *v)
{
	const char *key;
	size_t i;
	json_t *x;
	if (json_is_string(v))
		asset_hash(a, json_string_value(v));
	else if (json_is_object(v))
		json_object_foreach((json_t *)v, key, x) walk(a, x);
	else if (json_is_array(v))
		json_array_foreach(v, i, x) walk(a, x);
}

enum tsr_status tsr_sweep_workload_digest(const char *workload_path, uint64_t *out,
					  struct tsr_error *err)
{
	uint64_t h = TSR_FNV1A64_INIT;
	if (hash_file(workload_path, &h))
		return tsr_error_set(err, TSR_ERR_IO, "cannot read workload '%s'", workload_path);
	json_t *root = NULL;
	TSR_TRY(tsr_json_load_file(workload_path, &root, err));
	struct assets *a = calloc(1, sizeof(*a));
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", workload_path);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[1] = '\0';
	else
		strcpy(dir, "./");
	if (!a) {
		json_decref(root);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	}
	a->dir = dir;
	a->h = h;
	walk(a, root);
	*out = a->h;
	free(a);
	json_decref(root);
	return TSR_OK;
}

/*
 * The energy table as text: every effective row (defaults and overrides
 * alike, so an override equal to the default hashes as its absence; the
 * configuration's JSON lists only the overrides), NULL when out of memory.
 */
static char *energy_text(const struct tsr_gpu_config *cfg, struct tsr_error *err)
{
	struct tsr_energy_row *rows = NULL;
	size_t n = 0;
	if (tsr_energy_table(cfg, &rows, &n, err) != TSR_OK)
		return NULL;
	size_t cap = n * (TSR_ENERGY_NAME_MAX + 40) + 1;
	char *t = malloc(cap);
	size_t len = 0;
	for (size_t i = 0; t && i < n; i++)
		len += (size_t)snprintf(t + len, cap - len, "%s=%.17g;", rows[i].name, rows[i].value);
	if (t)
		t[len] = '\0';
	free(rows);
	return t;
}

enum tsr_status tsr_sweep_point_hash(const struct tsr_gpu_config *cfg, uint64_t workload_digest,
				     uint32_t frames, uint64_t *out, struct tsr_error *err)
{
	char *text = tsr_config_json_text(cfg);
	json_t *o = text ? json_loads(text, 0, NULL) : NULL;
	free(text);
	json_object_del(o, "energy");  /* hashed from the effective table below */
	/* canonical: keys sorted at every level, no spaces */
	char *canon = o ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(o);
	if (!canon)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory hashing a sweep point");
	struct tsr_error e2 = {{0}};
	char *energy = energy_text(cfg, &e2);
	if (!energy) {
		free(canon);
		return e2.msg[0] ? tsr_error_set(err, TSR_ERR_CONFIG, "%s", e2.msg)
				 : tsr_error_set(err, TSR_ERR_NOMEM, "out of memory hashing a sweep point");
	}
	/* text, not native integers: the same hash on every machine of a cluster */
	char tail[128];
	int n = snprintf(tail, sizeof(tail), "|workload=%016llx|frames=%u|tessera=%s|",
			 (unsigned long long)workload_digest, frames, TSR_VERSION);
	uint64_t h = tsr_fnv1a64(TSR_FNV1A64_INIT, canon, strlen(canon) + 1);
	h = tsr_fnv1a64(h, energy, strlen(energy) + 1);
	*out = tsr_fnv1a64(h, tail, (size_t)n);
	free(canon);
	free(energy);
	return TSR_OK;
}
