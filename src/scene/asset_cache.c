/*
 * asset_cache.c - the process's decoded textures and imported models
 * (asset_cache.h): two lists under one mutex, searched linearly (a
 * process meets tens of assets, not thousands).
 */
#include "scene/asset_cache.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"

struct image_entry {
	struct image_entry *next;
	char *name;
	uint8_t *data;        /* the bytes it was decoded from */
	size_t size;
	uint32_t w, h;
	uint8_t *rgba;
};

/* A file the import asked for: its bytes when it opened, else missing. */
struct dep {
	char *path;
	int opened;
	uint8_t *bytes;
	size_t size;
};

struct model_entry {
	struct model_entry *next;
	struct tsr_model model;
	uint32_t dep_count;
	struct dep *deps;
	uint64_t budget;      /* the memory budget the import ran under */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct image_entry *images;
static struct model_entry *models;
static uint64_t kept_bytes;
static int disabled;

void tsr_asset_cache_disable(void)
{
	pthread_mutex_lock(&lock);
	disabled = 1;
	pthread_mutex_unlock(&lock);
}

static int is_disabled(void)
{
	pthread_mutex_lock(&lock);
	const int d = disabled;
	pthread_mutex_unlock(&lock);
	return d;
}

/* The most the cache keeps: a quarter of the memory budget, at most 512 MiB. */
static uint64_t capacity(void)
{
	const uint64_t quarter = tsr_memory_budget_bytes() / 4;
	return quarter < (512ull << 20) ? quarter : 512ull << 20;
}

/* Whether `bytes` more fit (and counts them if so); call under the lock. */
static int reserve(uint64_t bytes)
{
	if (disabled || kept_bytes + bytes > capacity())
		return 0;
	kept_bytes += bytes;
	return 1;
}

static void *dup_bytes(const void *p, size_t n)
{
	void *c = malloc(n ? n : 1);
	if (c && n)
		memcpy(c, p, n);
	return c;
}

/* ---- images ---- */

int tsr_asset_cache_get_image(const char *name, const uint8_t *data, size_t size,
			      uint32_t *w, uint32_t *h, uint8_t **rgba)
{
	int hit = 0;
	pthread_mutex_lock(&lock);
	for (const struct image_entry *e = images; e && !hit; e = e->next) {
		if (e->size != size || strcmp(e->name, name) != 0 || memcmp(e->data, data, size) != 0)
			continue;
		*rgba = dup_bytes(e->rgba, (size_t)e->w * e->h * 4);
		if (*rgba) {
			*w = e->w;
			*h = e->h;
			hit = 1;
		}
		break;
	}
	pthread_mutex_unlock(&lock);
	return hit;
}

void tsr_asset_cache_put_image(const char *name, const uint8_t *data, size_t size,
			       uint32_t w, uint32_t h, const uint8_t *rgba)
{
	const size_t px = (size_t)w * h * 4;
	if (is_disabled())
		return;
	struct image_entry *e = calloc(1, sizeof(*e));
	if (e) {
		e->name = strdup(name);
		e->data = dup_bytes(data, size);
		e->rgba = dup_bytes(rgba, px);
	}
	if (!e || !e->name || !e->data || !e->rgba) {
		if (e) {
			free(e->name);
			free(e->data);
			free(e->rgba);
		}
		free(e);
		return;
	}
	e->size = size;
	e->w = w;
	e->h = h;
	pthread_mutex_lock(&lock);
	const int fits = reserve((uint64_t)size + px);
	if (fits) {
		e->next = images;
		images = e;
	}
	pthread_mutex_unlock(&lock);
	if (!fits) {
		free(e->name);
		free(e->data);
		free(e->rgba);
		free(e);
	}
}

/* ---- models ---- */

/* The whole file at path, malloc'd into *bytes and *size; 0 when unreadable. */
static int read_whole(const char *path, uint8_t **bytes, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	size_t cap = 1 << 16, n = 0;
	uint8_t *b = malloc(cap);
	while (b) {
		if (n == cap) {
			uint8_t *g = realloc(b, cap * 2);
			if (!g) {
				free(b);
				b = NULL;
				break;
			}
			b = g;
			cap *= 2;
		}
		size_t got = fread(b + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f)) {
				free(b);
				b = NULL;
			}
			break;
		}
	}
	fclose(f);
	*bytes = b;
	*size = n;
	return b != NULL;
}

/* Whether the dependency is as it was: the same bytes, or still missing. */
static int dep_unchanged(const struct dep *d)
{
	if (!d->opened) {
		FILE *f = fopen(d->path, "rb");
		if (f)
			fclose(f);
		return f == NULL;
	}
	uint8_t *b = NULL;
	size_t n = 0;
	if (!read_whole(d->path, &b, &n))
		return 0;
	const int same = n == d->size && memcmp(b, d->bytes, n) == 0;
	free(b);
	return same;
}

static void model_free_fields(struct tsr_model *m)
{
	tsr_model_release(m);
}

/* A deep copy of src into dst (zeroed first); 0 when out of memory. */
static int model_copy(const struct tsr_model *src, struct tsr_model *dst)
{
	memset(dst, 0, sizeof(*dst));
	dst->path = strdup(src->path);
	dst->meshes = calloc(src->mesh_count ? src->mesh_count : 1, sizeof(*dst->meshes));
	dst->materials = calloc(src->material_count ? src->material_count : 1,
				sizeof(*dst->materials));
	dst->embedded = calloc(src->embedded_count ? src->embedded_count : 1,
			       sizeof(*dst->embedded));
	if (!dst->path || !dst->meshes || !dst->materials || !dst->embedded)
		goto fail;
	for (; dst->mesh_count < src->mesh_count; dst->mesh_count++)
		if (tsr_mesh_copy(&src->meshes[dst->mesh_count], &dst->meshes[dst->mesh_count]) !=
		    TSR_OK)
			goto fail;
	for (; dst->material_count < src->material_count; dst->material_count++) {
		const struct tsr_model_material *a = &src->materials[dst->material_count];
		struct tsr_model_material *b = &dst->materials[dst->material_count];
		*b = *a;
		b->texture_path = NULL;
		if (a->texture_path && !(b->texture_path = strdup(a->texture_path)))
			goto fail;
	}
	for (; dst->embedded_count < src->embedded_count; dst->embedded_count++) {
		const struct tsr_model_embedded *a = &src->embedded[dst->embedded_count];
		struct tsr_model_embedded *b = &dst->embedded[dst->embedded_count];
		*b = *a;
		b->data = dup_bytes(a->data, (size_t)tsr_model_embedded_bytes(a->width, a->height));
		if (!b->data)
			goto fail;
	}
	return 1;
fail:
	model_free_fields(dst);
	return 0;
}

/* The bytes a model holds (for the cache's size). */
static uint64_t model_bytes(const struct tsr_model *m)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < m->mesh_count; i++)
		n += (uint64_t)m->meshes[i].vertex_count * 8 * sizeof(float) +
		     (uint64_t)m->meshes[i].index_count * sizeof(uint32_t);
	for (uint32_t i = 0; i < m->embedded_count; i++)
		n += tsr_model_embedded_bytes(m->embedded[i].width, m->embedded[i].height);
	return n;
}

int tsr_asset_cache_get_model(const char *path, struct tsr_model *out)
{
	memset(out, 0, sizeof(*out));
	int hit = 0;
	const uint64_t budget = tsr_memory_budget_bytes();
	pthread_mutex_lock(&lock);
	for (const struct model_entry *e = models; e && !hit; e = e->next) {
		if (strcmp(e->model.path, path) != 0 || e->budget > budget)
			continue;
		int same = 1;
		for (uint32_t i = 0; i < e->dep_count && same; i++)
			same = dep_unchanged(&e->deps[i]);
		if (same)
			hit = model_copy(&e->model, out);
	}
	pthread_mutex_unlock(&lock);
	return hit;
}

static void entry_free(struct model_entry *e)
{
	for (uint32_t i = 0; i < e->dep_count; i++) {
		free(e->deps[i].path);
		free(e->deps[i].bytes);
	}
	free(e->deps);
	model_free_fields(&e->model);
	free(e);
}

void tsr_asset_cache_put_model(const char *path, const struct tsr_model *m,
			       const struct tsr_model_files *files, uint64_t budget)
{
	if (!files || files->failed || is_disabled())
		return;
	int has_self = 0;  /* the model file itself, read through the importer */
	for (uint32_t i = 0; i < files->count; i++)
		has_self |= files->opened[i] && strcmp(files->paths[i], path) == 0;
	if (!has_self || strcmp(m->path, path) != 0)
		return;
	struct model_entry *e = calloc(1, sizeof(*e));
	if (!e)
		return;
	e->budget = budget;
	e->deps = calloc(files->count ? files->count : 1, sizeof(*e->deps));
	int ok = e->deps && model_copy(m, &e->model);
	uint64_t bytes = ok ? model_bytes(m) : 0;
	for (uint32_t i = 0; ok && i < files->count; i++) {
		struct dep *d = &e->deps[e->dep_count++];
		d->path = strdup(files->paths[i]);
		d->opened = files->opened[i];
		ok = d->path && (!d->opened || read_whole(d->path, &d->bytes, &d->size));
		bytes += d->size;
	}
	if (ok) {
		pthread_mutex_lock(&lock);
		ok = reserve(bytes);
		if (ok) {
			e->next = models;
			models = e;
		}
		pthread_mutex_unlock(&lock);
	}
	if (!ok)
		entry_free(e);
}
