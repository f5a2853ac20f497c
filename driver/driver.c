/*
 * driver.c - the process state of the EGL / GL ES 2.0 driver (driver.h):
 * the config table, displays, surface and context lifetimes, each
 * thread's current context and EGL error, the environment's
 * configuration, eglSwapBuffers' frame limit, and the renderer's messages.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "driver/driver.h"
#include "report/report.h"

/* RGB565, RGB888, RGBA8888 x depth 0, 16, 24 x stencil 0, 8, in
 * EGL_CONFIG_ID order. */
#define C(id, r, g, b, a, d, s) {id, r, g, b, a, r + g + b + a, d, s}
const struct drv_config drv_configs[] = {
	C(1, 5, 6, 5, 0, 0, 0),   C(2, 5, 6, 5, 0, 0, 8),   C(3, 5, 6, 5, 0, 16, 0),
	C(4, 5, 6, 5, 0, 16, 8),  C(5, 5, 6, 5, 0, 24, 0),  C(6, 5, 6, 5, 0, 24, 8),
	C(7, 8, 8, 8, 0, 0, 0),   C(8, 8, 8, 8, 0, 0, 8),   C(9, 8, 8, 8, 0, 16, 0),
	C(10, 8, 8, 8, 0, 16, 8), C(11, 8, 8, 8, 0, 24, 0), C(12, 8, 8, 8, 0, 24, 8),
	C(13, 8, 8, 8, 8, 0, 0),  C(14, 8, 8, 8, 8, 0, 8),  C(15, 8, 8, 8, 8, 16, 0),
	C(16, 8, 8, 8, 8, 16, 8), C(17, 8, 8, 8, 8, 24, 0), C(18, 8, 8, 8, 8, 24, 8),
};
#undef C
const unsigned drv_config_count = sizeof(drv_configs) / sizeof(drv_configs[0]);

#define DRV_MAX_DISPLAYS 16
#define DRV_MAX_MESSAGES 32

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct drv_display displays[DRV_MAX_DISPLAYS];

__thread struct drv_context *drv_current __attribute__((tls_model("initial-exec")));
static __thread EGLint thread_error __attribute__((tls_model("initial-exec"))) = EGL_SUCCESS;

/* The configuration of the devices (eglInitialize reads it: drv_setup). */
static struct tsr_gpu_config gpu_config;
static char out_dir[PATH_MAX];        /* TESSERA_OUT, "" when unset */
static unsigned long frame_limit;     /* TESSERA_FRAMES, 0: none */
static char frame_images[1024];       /* TESSERA_DUMP_FRAMES, "" when unset (all) */
static char heatmaps[256];            /* TESSERA_HEATMAPS, "" when unset (none) */
static char *simulate;                /* TESSERA_SIMULATE, NULL when unset (all) */
static char *sample;                  /* TESSERA_SAMPLE, NULL when unset */
static int features;                  /* TESSERA_FEATURES=1 */
static unsigned long warmup;          /* TESSERA_WARMUP, 0 when unset */
static char record_cache[64];         /* TESSERA_RECORD_TRACE's CACHE, "" when unset */
static char record_file[256];         /* and its FILE (a name in each device's folder) */
static unsigned long frames_ended;    /* eglSwapBuffers calls of every surface since
                                         the last eglInitialize read the environment */
static unsigned devices_made;         /* devices made so far (surface-N) */

void drv_lock(void)
{
	pthread_mutex_lock(&lock);
}

void drv_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

void drv_set_error(EGLint error)
{
	thread_error = error;
}

EGLint drv_take_error(void)
{
	EGLint e = thread_error;
	thread_error = EGL_SUCCESS;
	return e;
}

struct drv_display *drv_current_display(void)
{
	return drv_current ? drv_current->dpy : NULL;
}

struct drv_display *drv_display_of(EGLDisplay handle)
{
	for (unsigned i = 0; i < DRV_MAX_DISPLAYS; i++)
		if (displays[i].used && (void *)&displays[i] == (void *)handle)
			return &displays[i];
	return NULL;
}

struct drv_display *drv_display_get(enum drv_platform platform, void *native)
{
	for (unsigned i = 0; i < DRV_MAX_DISPLAYS; i++)
		if (displays[i].used && displays[i].platform == platform &&
		    displays[i].native == native)
			return &displays[i];
	for (unsigned i = 0; i < DRV_MAX_DISPLAYS; i++)
		if (!displays[i].used) {
			memset(&displays[i], 0, sizeof(displays[i]));
			displays[i].used = true;
			displays[i].platform = platform;
			displays[i].native = native;
			return &displays[i];
		}
	return NULL;
}

const struct drv_config *drv_config_of(EGLConfig handle)
{
	for (unsigned i = 0; i < drv_config_count; i++)
		if ((const void *)&drv_configs[i] == (const void *)handle)
			return &drv_configs[i];
	return NULL;
}

bool drv_surface_valid(const struct drv_display *dpy, const struct drv_surface *s)
{
	for (const struct drv_surface *t = dpy->surfaces; t; t = t->next)
		if (t == s)
			return !t->destroyed;
	return false;
}

bool drv_context_valid(const struct drv_display *dpy, const struct drv_context *c)
{
	for (const struct drv_context *t = dpy->contexts; t; t = t->next)
		if (t == c)
			return !t->destroyed;
	return false;
}

/* ---- the configuration from the environment ---- */

/* Most TESSERA_SET overrides. */
#define DRV_MAX_SETS 64

enum tsr_status drv_config_load(struct tsr_gpu_config *cfg, struct tsr_error *err)
{
	tsr_config_defaults(cfg);
	const char *file = getenv("TESSERA_CONFIG");
	if (file && !file[0])
		file = NULL;
	const char *env = getenv("TESSERA_SET");
	char *text = strdup(env ? env : "");
	if (!text)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for TESSERA_SET");
	const char *sets[DRV_MAX_SETS];
	size_t n = 0;
	enum tsr_status s = TSR_OK;
	for (char *save = NULL, *tok = strtok_r(text, ";\n", &save); tok;
	     tok = strtok_r(NULL, ";\n", &save)) {
		while (*tok == ' ' || *tok == '\t' || *tok == '\r')
			tok++;
		char *end = tok + strlen(tok);
		while (end > tok && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
			*--end = '\0';
		if (!*tok)
			continue;
		if (n == DRV_MAX_SETS) {
			s = tsr_error_set(err, TSR_ERR_CONFIG,
					  "TESSERA_SET holds more than %d overrides", DRV_MAX_SETS);
			break;
		}
		sets[n++] = tok;
	}
	if (s == TSR_OK)
		s = tsr_config_apply_sets(cfg, file, sets, n, err);
	free(text);
	return s;
}

/* TESSERA_FRAMES: a positive count, or unset / empty. */
static enum tsr_status frames_load(unsigned long *out, struct tsr_error *err)
{
	const char *v = getenv("TESSERA_FRAMES");
	*out = 0;
	if (!v || !v[0])
		return TSR_OK;
	char *end;
	errno = 0;
	unsigned long n = strtoul(v, &end, 10);
	if (*end || errno || n == 0 || v[0] == '-')
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "invalid TESSERA_FRAMES '%s': a positive count of frames", v);
	*out = n;
	return TSR_OK;
}

enum tsr_status drv_setup(struct tsr_error *err)
{
	struct tsr_gpu_config cfg;
	unsigned long frames;
	TSR_TRY(drv_config_load(&cfg, err));
	TSR_TRY(frames_load(&frames, err));
	const char *out = getenv("TESSERA_OUT");
	if (out && strlen(out) >= sizeof(out_dir) - 16)
		return tsr_error_set(err, TSR_ERR_CONFIG, "TESSERA_OUT '%s' is too long", out);
	const char *images = getenv("TESSERA_DUMP_FRAMES");
	if (images && images[0]) {
		if (strlen(images) >= sizeof(frame_images))
			return tsr_error_set(err, TSR_ERR_CONFIG, "TESSERA_DUMP_FRAMES is too long");
		struct tsr_error e;
		if (tsr_gles_frame_images_check(images, &e) != TSR_OK)
			return tsr_error_set(err, TSR_ERR_CONFIG, "TESSERA_DUMP_FRAMES: %s", e.msg);
	}
	const char *heat = getenv("TESSERA_HEATMAPS");
	if (heat && heat[0]) {
		if (strlen(heat) >= sizeof(heatmaps))
			return tsr_error_set(err, TSR_ERR_CONFIG, "TESSERA_HEATMAPS is too long");
		struct tsr_error e;
		if (tsr_gles_heatmaps_check(heat, &cfg, &e) != TSR_OK)
			return tsr_error_set(err, TSR_ERR_CONFIG, "TESSERA_HEATMAPS: %s", e.msg);
	}
	/* TESSERA_SIMULATE: the frames simulated fully, the others fast-forwarded */
	const char *sim = getenv("TESSERA_SIMULATE");
	if (sim && sim[0]) {
		struct tsr_frame_list l;
		struct tsr_error e;
		const enum tsr_status st = tsr_frame_list_parse(sim, &l, &e);
		const int last = l.kind == TSR_FRAMES_LAST;
		tsr_frame_list_release(&l);
		if (st != TSR_OK)
			return tsr_error_set(err, st, "TESSERA_SIMULATE: %s", e.msg);
		if (last)
			return tsr_error_set(err, TSR_ERR_CONFIG, "TESSERA_SIMULATE: 'last' is not "
					     "a list of frames");
	}
	const char *smp = getenv("TESSERA_SAMPLE");
	const char *feat = getenv("TESSERA_FEATURES");
	free(simulate);
	free(sample);
	simulate = sim && sim[0] ? strdup(sim) : NULL;
	sample = smp && smp[0] ? strdup(smp) : NULL;
	if ((sim && sim[0] && !simulate) || (smp && smp[0] && !sample))
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory");
	features = feat && !strcmp(feat, "1");
	const char *wu = getenv("TESSERA_WARMUP");
	warmup = 0;
	if (wu && wu[0]) {
		char *end;
		errno = 0;
		warmup = strtoul(wu, &end, 10);
		if (*end || errno || wu[0] == '-' || warmup > 1000)
			return tsr_error_set(err, TSR_ERR_CONFIG, "invalid TESSERA_WARMUP '%s': a "
					     "count of frames from 0 to 1000", wu);
	}
	/* TESSERA_RECORD_TRACE=CACHE=FILE: each device records cache CACHE's
	 * input into FILE in its output folder (the cache is checked when a
	 * device is made: it names the caches the configuration has) */
	const char *rec = getenv("TESSERA_RECORD_TRACE");
	const char *eq = rec ? strchr(rec, '=') : NULL;
	if (rec && rec[0] && (!eq || eq == rec || !eq[1] || strchr(eq + 1, '/') ||
			      (size_t)(eq - rec) >= sizeof(record_cache) ||
			      strlen(eq + 1) >= sizeof(record_file)))
		return tsr_error_set(err, TSR_ERR_CONFIG, "invalid TESSERA_RECORD_TRACE '%s': "
				     "CACHE=FILE, FILE a file name (no '/') written in the "
				     "output folder", rec);
	if (rec && rec[0] && !(out && out[0]))
		return tsr_error_set(err, TSR_ERR_CONFIG, "TESSERA_RECORD_TRACE needs TESSERA_OUT "
				     "(the trace is written in the output folder)");
	gpu_config = cfg;
	if (rec && rec[0]) {
		snprintf(record_cache, sizeof(record_cache), "%.*s", (int)(eq - rec), rec);
		snprintf(record_file, sizeof(record_file), "%s", eq + 1);
	} else {
		record_cache[0] = record_file[0] = '\0';
	}
	frame_limit = frames;
	frames_ended = 0;  /* TESSERA_FRAMES counts from here */
	snprintf(out_dir, sizeof(out_dir), "%s", out ? out : "");
	snprintf(frame_images, sizeof(frame_images), "%s", images ? images : "");
	snprintf(heatmaps, sizeof(heatmaps), "%s", heat ? heat : "");
	return TSR_OK;
}

/* ---- messages ---- */

void drv_report(enum tsr_status s, const struct tsr_error *err)
{
	static pthread_mutex_t mlock = PTHREAD_MUTEX_INITIALIZER;
	static char *seen[DRV_MAX_MESSAGES];
	static unsigned nseen;
	static bool capped;
	const char *msg = err && err->msg[0] ? err->msg : tsr_status_str(s);
	pthread_mutex_lock(&mlock);
	bool print = true;
	for (unsigned i = 0; i < nseen && print; i++)
		print = strcmp(seen[i], msg) != 0;
	if (print && nseen == DRV_MAX_MESSAGES) {
		if (!capped)
			fprintf(stderr, "tessera: more than %d distinct messages: the rest are "
				"not shown\n", DRV_MAX_MESSAGES);
		capped = true;
		print = false;
	}
	if (print) {
		fprintf(stderr, "tessera: %s\n", msg);
		seen[nseen] = strdup(msg);
		nseen += seen[nseen] != NULL;
	}
	pthread_mutex_unlock(&mlock);
}

/* ---- lifetimes ---- */

/* mkdir -p path (best effort: the device reports what it cannot write). */
static void make_folders(const char *path)
{
	char p[PATH_MAX + 32];
	snprintf(p, sizeof(p), "%s", path);
	for (char *q = p + 1; *q; q++)
		if (*q == '/') {
			*q = '\0';
			mkdir(p, 0777);
			*q = '/';
		}
	mkdir(p, 0777);
}

/* The device of s (its default framebuffer), made now if needed;
 * EGL_SUCCESS or EGL_BAD_ALLOC. */
static EGLint surface_device(struct drv_surface *s)
{
	if (s->device)
		return EGL_SUCCESS;
	char dir[PATH_MAX + 32];  /* out_dir and "/surface-N" */
	const char *out = NULL;
	if (out_dir[0]) {
		if (devices_made == 0)
			snprintf(dir, sizeof(dir), "%s", out_dir);
		else
			snprintf(dir, sizeof(dir), "%s/surface-%u", out_dir, devices_made + 1);
		make_folders(dir);
		out = dir;
	}
	struct tsr_gles_device_params p = {
		.width = (uint32_t)(s->width > 0 ? s->width : 1),
		.height = (uint32_t)(s->height > 0 ? s->height : 1),
		.bits = {s->config->red, s->config->green, s->config->blue, s->config->alpha,
			 s->config->depth, s->config->stencil},
		.config = &gpu_config,
		.out_dir = out,
		.frame_images = frame_images[0] ? frame_images : NULL,
		.heatmaps = heatmaps[0] ? heatmaps : NULL,
		.frames = simulate,
		.warmup = (uint32_t)warmup,
		.sample = sample,
		.features = features,
		.record_cache = record_cache[0] && out ? record_cache : NULL,
		.record_file = record_file,
	};
	struct tsr_error err = {{0}};
	enum tsr_status st = tsr_gles_device_create(&p, &s->device, &err);
	if (st != TSR_OK) {
		drv_report(st, &err);
		return EGL_BAD_ALLOC;
	}
	devices_made++;
	return EGL_SUCCESS;
}

/* CopyTex[Sub]Image2D's reads (tsr_gles_set_read_pixels()): the current
 * draw surface's pixels. */
static void read_framebuffer(void *user, GLint x, GLint y, GLsizei w, GLsizei h, uint8_t *rgba)
{
	const struct drv_context *c = user;
	if (!c->draw || !c->draw->device)
		return;
	struct tsr_error err = {{0}};
	enum tsr_status st =
		tsr_gles_device_read_pixels(c->draw->device, c->gles, x, y, w, h, rgba, &err);
	if (st != TSR_OK)
		drv_report(st, &err);
}

static EGLint context_gles(struct drv_context *c, const struct drv_surface *draw)
{
	if (c->gles)
		return EGL_SUCCESS;
	const struct tsr_gles_config bits = {
		c->config->red, c->config->green, c->config->blue, c->config->alpha,
		c->config->depth, c->config->stencil,
	};
	struct tsr_error err = {{0}};
	enum tsr_status st = tsr_gles_context_create(
		(uint32_t)(draw->width > 0 ? draw->width : 1),
		(uint32_t)(draw->height > 0 ? draw->height : 1), &bits, &c->gles, &err);
	if (st != TSR_OK) {
		drv_report(st, &err);
		return EGL_BAD_ALLOC;
	}
	tsr_gles_set_read_pixels(c->gles, read_framebuffer, c);
	return EGL_SUCCESS;
}

static void surface_free(struct drv_surface *s)
{
	struct drv_surface **p = &s->dpy->surfaces;
	while (*p && *p != s)
		p = &(*p)->next;
	if (*p)
		*p = s->next;
	if (s->device) {
		struct tsr_error err = {{0}};
		enum tsr_status st = tsr_gles_device_destroy(s->device, &err);
		if (st != TSR_OK)
			drv_report(st, &err);
	}
	free(s);
}

static void context_free(struct drv_context *c)
{
	struct drv_context **p = &c->dpy->contexts;
	while (*p && *p != c)
		p = &(*p)->next;
	if (*p)
		*p = c->next;
	tsr_gles_context_destroy(c->gles);
	free(c);
}

/* The surface s is no longer bound to a context: it goes if it was
 * destroyed or its display terminated. */
static void surface_unbind(struct drv_surface *s)
{
	if (!s)
		return;
	s->bound = NULL;
	if (s->destroyed || !s->dpy->initialized)
		surface_free(s);
}

EGLint drv_make_current(struct drv_context *c, struct drv_surface *draw,
			struct drv_surface *read)
{
	struct drv_context *old = drv_current;
	if (c && c == old && draw == old->draw && read == old->read)
		return EGL_SUCCESS;
	if (c) {
		EGLint e = context_gles(c, draw);
		if (e == EGL_SUCCESS)
			e = surface_device(draw);
		if (e != EGL_SUCCESS)
			return e;
	}
	if (old) {
		/* the old context's work is flushed (3.7.3) */
		if (old->draw && old->draw->device) {
			struct tsr_error err = {{0}};
			enum tsr_status st = tsr_gles_device_flush(old->draw->device, &err);
			if (st != TSR_OK)
				drv_report(st, &err);
		}
		struct drv_surface *od = old->draw, *orr = old->read;
		old->draw = old->read = NULL;
		old->current = false;
		drv_current = NULL;
		/* the new binding may keep these surfaces */
		if (od && od != draw && od != read)
			surface_unbind(od);
		if (orr && orr != od && orr != draw && orr != read)
			surface_unbind(orr);
		if (old != c && (old->destroyed || !old->dpy->initialized))
			context_free(old);
	}
	if (c) {
		c->draw = draw;
		c->read = read;
		c->current = true;
		draw->bound = c;
		read->bound = c;
		drv_current = c;
	}
	return EGL_SUCCESS;
}

void drv_surface_destroy(struct drv_surface *s)
{
	if (s->bound)
		s->destroyed = true;
	else
		surface_free(s);
}

void drv_context_destroy(struct drv_context *c)
{
	if (c->current)
		c->destroyed = true;
	else
		context_free(c);
}

void drv_display_terminate(struct drv_display *dpy)
{
	dpy->initialized = false;
	for (struct drv_context *c = dpy->contexts, *n; c; c = n) {
		n = c->next;
		if (c->current)
			c->destroyed = true;
		else
			context_free(c);
	}
	for (struct drv_surface *s = dpy->surfaces, *n; s; s = n) {
		n = s->next;
		if (s->bound)
			s->destroyed = true;
		else
			surface_free(s);
	}
}

/* Every surface's device goes (its statistics written): the process ends. */
static void destroy_devices(void)
{
	for (unsigned i = 0; i < DRV_MAX_DISPLAYS; i++) {
		if (!displays[i].used)
			continue;
		for (struct drv_surface *s = displays[i].surfaces; s; s = s->next)
			if (s->device) {
				struct tsr_error err = {{0}};
				enum tsr_status st = tsr_gles_device_destroy(s->device, &err);
				if (st != TSR_OK)
					drv_report(st, &err);
				s->device = NULL;
			}
	}
}

void drv_swap(struct drv_surface *s)
{
	struct tsr_error err = {{0}};
	enum tsr_status st = tsr_gles_device_swap(s->device, &err);
	if (st != TSR_OK)
		drv_report(st, &err);
	frames_ended++;
	if (!frame_limit || frames_ended < frame_limit) {
		drv_unlock();
		return;
	}
	/* TESSERA_FRAMES: the program ends here, cleanly: statistics written,
	 * its atexit handlers and stdio buffers run by exit(); later EGL and
	 * GL calls from those handlers find no current context and no devices */
	destroy_devices();
	drv_current = NULL;
	frame_limit = 0;
	const unsigned long n = frames_ended;
	drv_unlock();
	fprintf(stderr, "tessera: the program was ended after %lu frame%s (TESSERA_FRAMES)\n", n,
		n == 1 ? "" : "s");
	exit(0);
}

/* When the program ends without eglTerminate (or the library is
 * unloaded), the devices still write their statistics. */
__attribute__((destructor)) static void drv_fini(void)
{
	/* a thread of the program may be inside an EGL call when another
	 * calls exit(): then the statistics are not written, rather than the
	 * exit waiting forever */
	if (pthread_mutex_trylock(&lock) != 0)
		return;
	destroy_devices();
	drv_unlock();
}
