/*
 * workload_parse.c - reads a workload JSON file (format versions 1 and 2,
 * documented in docs/workloads.md) into a struct tsr_scene: the top level,
 * render targets and the pass each is drawn by, passes, objects with their
 * materials, transforms, animation, instances and grids, and the pass's
 * texture upload events; tsr_scene_load and tsr_scene_destroy. Every key
 * is checked here (an unknown key is an error naming its path); what the
 * values become is the other files' (scene_priv.h): camera.c reads the
 * camera, objects.c places the objects, asset_packages.c names a missing
 * Debian package.
 *
 * Images are decoded once per path. The pass's texture upload events are
 * read after its objects: each adds, per mesh of its object, a variant of
 * the mesh's material that samples the new image. `skybox` objects follow
 * the camera and `screen_space` ones are placed in clip space, a HUD (both
 * drawn so by the frontend).
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"
#include "core/limits.h"
#include "scene/scene_priv.h"

static const char *const top_keys[] = {"version", "name", "frames", "render_targets",
				       "passes", NULL};
static const char *const render_target_keys[] = {"name", "width", "height", "format", NULL};
static const char *const pass_keys[] = {"name", "target", "clear_color",
					"camera", "objects", "events", NULL};
static const char *const event_keys[] = {"frame", "type", "object", "texture", NULL};
static const char *const object_keys[] = {"mesh", "normalize", "material",
					  "transform", "animation", "uv_rect",
					  "skybox", "screen_space", "instances", "grid",
					  NULL};
static const char *const instance_keys[] = {"translate", "rotate_deg", "scale",
					    "uv_rect", "texture", NULL};
static const char *const grid_keys[] = {"count", "spacing", "jitter",
					"rotate_jitter_deg", "scale_jitter", "fill", "seed",
					"uv_rects", "textures", NULL};
static const char *const material_keys[] = {
	"texture", "filter", "wrap", "blend", "alpha_cutoff", "color", "lit",
	"double_sided", "shader_alu_instructions",
	"vertex_shader_instructions", "varyings", NULL};
static const char *const transform_keys[] = {"translate", "rotate_deg", "scale", NULL};
static const char *const animation_keys[] = {
	"translate_per_frame", "rotate_deg_per_frame", "scale_per_frame",
	"uv_scroll_per_frame", "keyframes", NULL};
static const char *const keyframe_keys[] = {"frame", "translate", "rotate_deg",
					    "scale", NULL};

static const char *const filter_names[] = {"nearest", "bilinear", "trilinear", NULL};
static const char *const wrap_names[] = {"repeat", "clamp", NULL};
static const char *const blend_names[] = {"opaque", "alpha", "alpha_test", NULL};
static const char *const event_type_names[] = {"texture_upload", NULL};


enum tsr_status scene_nomem(struct scene_loader *L)
{
	return tsr_error_set(L->err, TSR_ERR_NOMEM, "out of memory loading '%s'",
			     L->file);
}

char *scene_resolve(const struct scene_loader *L, const char *p)
{
	size_t n = strlen(L->dir) + strlen(p) + 1;
	char *r = malloc(n);
	if (r)
		snprintf(r, n, "%s%s", p[0] == '/' ? "" : L->dir, p);
	return r;
}

/*
 * A texture "target:<name>" or "target:<name>@previous" (at key_path):
 * the render target's image index into *index, after checking that the
 * pass being parsed samples a target that an earlier pass of the frame
 * draws (or, with @previous, a later pass: last frame's contents).
 */
static enum tsr_status render_target_texture(struct scene_loader *L, const char *ref,
					     const char *key_path, int32_t *index)
{
	char name[64];
	const char *at = strchr(ref, '@');
	size_t n = at ? (size_t)(at - ref) : strlen(ref);
	int previous = at && strcmp(at, "@previous") == 0;
	if ((at && !previous) || n >= sizeof(name))
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "texture 'target:%s' (key '%s' in '%s') must be 'target:<name>' or 'target:<name>@previous'",
				     ref, key_path, L->file);
	memcpy(name, ref, n);
	name[n] = '\0';
	for (uint32_t i = 0; i < L->rt_count; i++) {
		if (strcmp(L->rt_name[i], name) != 0)
			continue;
		const int32_t w = L->rt_writer[i], cur = (int32_t)L->cur_pass;
		if (w < 0)
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "render target '%s' (key '%s' in '%s') is sampled but no pass draws it",
					     name, key_path, L->file);
		if (!previous && w >= cur)
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "pass %d samples render target '%s' (key '%s' in '%s'), which pass %d draws: a pass samples only targets of earlier passes (or 'target:%s@previous' for the previous frame's)",
					     cur, name, key_path, L->file, w, name);
		if (previous && w <= cur)
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "'target:%s@previous' (key '%s' in '%s') must be sampled by a pass before pass %d, which draws it (after it, the target holds this frame's pixels)",
					     name, key_path, L->file, w);
		*index = L->rt_image[i];
		return TSR_OK;
	}
	return tsr_error_set(L->err, TSR_ERR_CONFIG,
			     "render target '%s' (key '%s' in '%s') is not declared in 'render_targets'",
			     name, key_path, L->file);
}

/* Decodes the image at (resolved) path `tex` into *index; errors name key_path. */
static enum tsr_status load_texture(struct scene_loader *L, const char *tex,
				    const char *key_path, int32_t *index)
{
	if (strncmp(tex, "target:", 7) == 0)
		return render_target_texture(L, tex + 7, key_path, index);
	char *full = scene_resolve(L, tex);
	if (!full)
		return scene_nomem(L);
	enum tsr_status st = scene_check_asset_package(full, key_path, L->file, L->err);
	if (st != TSR_OK) {  /* already names the key */
		free(full);
		return st;
	}
	st = tsr_image_set_add_file(&L->images, full, index, L->err);
	free(full);
	return st == TSR_OK ? st : scene_with_key(L, st, key_path);
}

enum tsr_status scene_with_key(struct scene_loader *L, enum tsr_status st,
			       const char *path)
{
	if (L->err) {
		size_t n = strlen(L->err->msg);
		snprintf(L->err->msg + n, sizeof(L->err->msg) - n,
			 " (key '%s' in '%s')", path, L->file);
	}
	return st;
}

void scene_index_path(char *buf, size_t n, const char *parent, const char *key,
		      size_t i)
{
	int w = snprintf(buf, n, "%s%s%s[%zu]", parent,
			 key && parent[0] ? "." : "", key ? key : "", i);
	if (w < 0)
		buf[0] = '\0';
}

enum tsr_status scene_missing(struct scene_loader *L, const char *path)
{
	return tsr_error_set(L->err, TSR_ERR_CONFIG, "missing key '%s' in '%s'",
			     path, L->file);
}

enum tsr_status scene_get_array(struct scene_loader *L, const json_t *obj,
				const char *path, const char *key, json_t **out)
{
	char full[256];
	*out = json_object_get(obj, key);
	if (*out && !json_is_array(*out)) {
		tsr_json_path(full, sizeof(full), path, key);
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' must be an array", full,
				     L->file);
	}
	return TSR_OK;
}

/* A scale: one number (uniform) or an array of 3 numbers. */
static enum tsr_status get_scale(struct scene_loader *L, const json_t *obj,
				 const char *path, const char *key,
				 struct tsr_vec3 *out)
{
	json_t *v = json_object_get(obj, key);
	if (v && json_is_number(v)) {
		float s = out->x;
		TSR_TRY(tsr_json_get_float(obj, L->file, path, key, -FLT_MAX,
				       FLT_MAX, &s, L->err));
		*out = tsr_v3(s, s, s);
		return TSR_OK;
	}
	if (v && !json_is_array(v)) {
		char full[256];
		tsr_json_path(full, sizeof(full), path, key);
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' must be a number or an array of 3 numbers",
				     full, L->file);
	}
	return tsr_json_get_vec3(obj, L->file, path, key, out, L->err);
}

static int keyframe_cmp(const void *a, const void *b)
{
	const struct tsr_keyframe *x = a, *y = b;
	return (x->frame > y->frame) - (x->frame < y->frame);
}

static enum tsr_status parse_material(struct scene_loader *L, const json_t *m,
				      const char *path,
				      struct material_spec *spec)
{
	struct tsr_material *b = &spec->base;
	memset(spec, 0, sizeof(*spec));
	b->texture = -1;
	b->texture_object = -1;
	b->filter = TSR_FILTER_TRILINEAR;
	b->wrap = TSR_WRAP_REPEAT;
	b->blend = TSR_BLEND_OPAQUE;
	b->alpha_cutoff = 0.5f;
	for (int i = 0; i < 4; i++)
		b->color[i] = 1.0f;
	b->lit = 1;
	b->double_sided = 0;
	b->shader_alu_instructions = 12;
	b->vertex_shader_instructions = 16;
	b->varyings = 1;
	if (!m)
		return TSR_OK;
	TSR_TRY(tsr_json_check_keys(m, L->file, path, material_keys, L->err));
	int filter = (int)b->filter, wrap = (int)b->wrap, blend = (int)b->blend;
	TSR_TRY(tsr_json_get_enum(m, L->file, path, "filter", filter_names, &filter, L->err));
	TSR_TRY(tsr_json_get_enum(m, L->file, path, "wrap", wrap_names, &wrap, L->err));
	TSR_TRY(tsr_json_get_enum(m, L->file, path, "blend", blend_names, &blend, L->err));
	b->filter = (enum tsr_filter)filter;
	b->wrap = (enum tsr_wrap)wrap;
	b->blend = (enum tsr_blend)blend;
	TSR_TRY(tsr_json_get_float(m, L->file, path, "alpha_cutoff", 0.0f, 1.0f,
			       &b->alpha_cutoff, L->err));
	spec->has_color = json_object_get(m, "color") != NULL;
	TSR_TRY(tsr_json_get_floats(m, L->file, path, "color", 4, b->color, L->err));
	TSR_TRY(tsr_json_get_bool(m, L->file, path, "lit", &b->lit, L->err));
	TSR_TRY(tsr_json_get_bool(m, L->file, path, "double_sided",
			      &b->double_sided, L->err));
	TSR_TRY(tsr_json_get_u32(m, L->file, path, "shader_alu_instructions", 0,
			     TSR_LIMIT_SHADER_INSTRUCTIONS, &b->shader_alu_instructions, L->err));
	TSR_TRY(tsr_json_get_u32(m, L->file, path, "vertex_shader_instructions", 0,
			     TSR_LIMIT_SHADER_INSTRUCTIONS, &b->vertex_shader_instructions, L->err));
	TSR_TRY(tsr_json_get_u32(m, L->file, path, "varyings", 1, 32,
			     &b->varyings, L->err));
	const char *tex = NULL;
	TSR_TRY(tsr_json_get_string(m, L->file, path, "texture", &tex, L->err));
	if (tex) {
		char kp[256];
		tsr_json_path(kp, sizeof(kp), path, "texture");
		TSR_TRY(load_texture(L, tex, kp, &b->texture));
		b->texture_object = b->texture;
		spec->has_texture = 1;
	}
	return TSR_OK;
}

static enum tsr_status parse_anim(struct scene_loader *L, const json_t *tr,
				  const json_t *an, const char *path,
				  struct tsr_transform_anim *a)
{
	char p[256];
	memset(a, 0, sizeof(*a));
	a->scale = tsr_v3(1, 1, 1);
	if (tr) {
		tsr_json_path(p, sizeof(p), path, "transform");
		TSR_TRY(tsr_json_check_keys(tr, L->file, p, transform_keys, L->err));
		TSR_TRY(tsr_json_get_vec3(tr, L->file, p, "translate", &a->translate, L->err));
		TSR_TRY(tsr_json_get_vec3(tr, L->file, p, "rotate_deg", &a->rotate_deg, L->err));
		TSR_TRY(get_scale(L, tr, p, "scale", &a->scale));
	}
	if (!an)
		return TSR_OK;
	tsr_json_path(p, sizeof(p), path, "animation");
	TSR_TRY(tsr_json_check_keys(an, L->file, p, animation_keys, L->err));
	TSR_TRY(tsr_json_get_vec3(an, L->file, p, "translate_per_frame",
			      &a->translate_per_frame, L->err));
	TSR_TRY(tsr_json_get_vec3(an, L->file, p, "rotate_deg_per_frame",
			      &a->rotate_deg_per_frame, L->err));
	TSR_TRY(get_scale(L, an, p, "scale_per_frame", &a->scale_per_frame));
	TSR_TRY(tsr_json_get_floats(an, L->file, p, "uv_scroll_per_frame", 2,
				a->uv_scroll_per_frame, L->err));
	json_t *keys;
	TSR_TRY(scene_get_array(L, an, p, "keyframes", &keys));
	size_t n = keys ? json_array_size(keys) : 0;
	if (n == 0)
		return TSR_OK;
	a->keyframes = calloc(n, sizeof(*a->keyframes));
	if (!a->keyframes)
		return scene_nomem(L);
	a->keyframe_count = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		const json_t *k = json_array_get(keys, i);
		struct tsr_keyframe *kf = &a->keyframes[i];
		char kp[256];
		scene_index_path(kp, sizeof(kp), p, "keyframes", i);
		TSR_TRY(tsr_json_check_keys(k, L->file, kp, keyframe_keys, L->err));
		if (!json_object_get(k, "frame")) {
			char full[256];
			tsr_json_path(full, sizeof(full), kp, "frame");
			return scene_missing(L, full);
		}
		TSR_TRY(tsr_json_get_u32(k, L->file, kp, "frame", 0, UINT32_MAX,
				     &kf->frame, L->err));
		kf->translate = a->translate;
		kf->rotate_deg = a->rotate_deg;
		kf->scale = a->scale;
		TSR_TRY(tsr_json_get_vec3(k, L->file, kp, "translate", &kf->translate, L->err));
		TSR_TRY(tsr_json_get_vec3(k, L->file, kp, "rotate_deg", &kf->rotate_deg, L->err));
		TSR_TRY(get_scale(L, k, kp, "scale", &kf->scale));
	}
	qsort(a->keyframes, n, sizeof(*a->keyframes), keyframe_cmp);
	for (size_t i = 1; i < n; i++)
		if (a->keyframes[i].frame == a->keyframes[i - 1].frame)
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "two keys of '%s.keyframes' in '%s' are at frame %u",
					     p, L->file, a->keyframes[i].frame);
	return TSR_OK;
}


/* A rectangle of 4 numbers (u0, v0, u1, v1) at `path`. */
static enum tsr_status get_rect(struct scene_loader *L, const json_t *v,
				const char *path, float out[4])
{
	if (!json_is_array(v) || json_array_size(v) != 4)
		goto bad;
	for (size_t i = 0; i < 4; i++) {
		const json_t *x = json_array_get(v, i);
		if (!json_is_number(x))
			goto bad;
		out[i] = (float)json_number_value(x);
	}
	return TSR_OK;
bad:
	return tsr_error_set(L->err, TSR_ERR_CONFIG,
			     "key '%s' in '%s' must be an array of 4 numbers [u0, v0, u1, v1]",
			     path, L->file);
}


/* passes[0].objects[i].instances: one object per entry. */
static enum tsr_status parse_instances(struct scene_loader *L, const json_t *arr,
				       const char *path, uint32_t mi,
				       const struct material_spec *spec,
				       float normalize, const float *uv_rect,
				       int flags, const struct tsr_transform_anim *anim,
				       const char *mesh_key)
{
	for (size_t i = 0; i < json_array_size(arr); i++) {
		const json_t *e = json_array_get(arr, i);
		char ip[256], kp[256];
		scene_index_path(ip, sizeof(ip), path, NULL, i);
		TSR_TRY(tsr_json_check_keys(e, L->file, ip, instance_keys, L->err));
		struct instance in = {.scale = tsr_v3(1, 1, 1), .texture = -1};
		float rect[4];
		TSR_TRY(tsr_json_get_vec3(e, L->file, ip, "translate", &in.translate, L->err));
		TSR_TRY(tsr_json_get_vec3(e, L->file, ip, "rotate_deg", &in.rotate_deg, L->err));
		TSR_TRY(get_scale(L, e, ip, "scale", &in.scale));
		const json_t *r = json_object_get(e, "uv_rect");
		if (r) {
			tsr_json_path(kp, sizeof(kp), ip, "uv_rect");
			TSR_TRY(get_rect(L, r, kp, rect));
			in.uv_rect = rect;
		}
		const char *tex = NULL;
		TSR_TRY(tsr_json_get_string(e, L->file, ip, "texture", &tex, L->err));
		if (tex) {
			tsr_json_path(kp, sizeof(kp), ip, "texture");
			TSR_TRY(load_texture(L, tex, kp, &in.texture));
		}
		TSR_TRY(scene_add_object(L, mi, spec, normalize, uv_rect, flags, anim, &in,
				   mesh_key));
	}
	return TSR_OK;
}


/*
 * passes[0].objects[i].grid: a generator of instances on a regular grid of
 * count[0] x count[1] x count[2] cells (x fastest), `spacing` apart from
 * the object's own placement, each kept with probability `fill`, moved by
 * up to +-jitter, turned by up to +-rotate_jitter_deg and scaled by
 * 1 +- scale_jitter per axis, with a uv_rect and a texture chosen from the
 * lists; all random choices come from a SplitMix64 stream seeded with
 * `seed` (12 numbers per cell, always drawn, so a key changes only its own
 * choices). Reads the keys and decodes the textures, then
 * scene_add_grid (objects.c) makes the instances.
 */
static enum tsr_status parse_grid(struct scene_loader *L, const json_t *g,
				  const char *path, uint32_t mi,
				  const struct material_spec *spec,
				  float normalize, const float *uv_rect,
				  int flags, const struct tsr_transform_anim *anim,
				  const char *mesh_key)
{
	char kp[256];
	TSR_TRY(tsr_json_check_keys(g, L->file, path, grid_keys, L->err));
	if (!json_object_get(g, "count")) {
		tsr_json_path(kp, sizeof(kp), path, "count");
		return scene_missing(L, kp);
	}
	float countf[3] = {1, 1, 1}, fill = 1.0f;
	struct tsr_vec3 spacing = tsr_v3(1, 1, 1), jitter = tsr_v3(0, 0, 0),
			rjitter = tsr_v3(0, 0, 0), sjitter = tsr_v3(0, 0, 0);
	uint32_t seed = 1;
	TSR_TRY(tsr_json_get_floats(g, L->file, path, "count", 3, countf, L->err));
	uint32_t count[3];
	for (int k = 0; k < 3; k++) {
		if (!(countf[k] >= 1.0f && countf[k] <= 4096.0f) ||
		    countf[k] != (float)(uint32_t)countf[k]) {
			tsr_json_path(kp, sizeof(kp), path, "count");
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' must be 3 integers 1..4096",
					     kp, L->file);
		}
		count[k] = (uint32_t)countf[k];
	}
	if ((uint64_t)count[0] * count[1] * count[2] > 65536) {
		tsr_json_path(kp, sizeof(kp), path, "count");
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' makes more than 65536 instances",
				     kp, L->file);
	}
	TSR_TRY(tsr_json_get_vec3(g, L->file, path, "spacing", &spacing, L->err));
	TSR_TRY(tsr_json_get_vec3(g, L->file, path, "jitter", &jitter, L->err));
	TSR_TRY(tsr_json_get_vec3(g, L->file, path, "rotate_jitter_deg", &rjitter, L->err));
	TSR_TRY(tsr_json_get_vec3(g, L->file, path, "scale_jitter", &sjitter, L->err));
	TSR_TRY(tsr_json_get_float(g, L->file, path, "fill", 0.0f, 1.0f, &fill, L->err));
	TSR_TRY(tsr_json_get_u32(g, L->file, path, "seed", 0, UINT32_MAX, &seed, L->err));
	json_t *rects_json, *tex_json;
	TSR_TRY(scene_get_array(L, g, path, "uv_rects", &rects_json));
	TSR_TRY(scene_get_array(L, g, path, "textures", &tex_json));
	size_t nrects = rects_json ? json_array_size(rects_json) : 0;
	size_t ntex = tex_json ? json_array_size(tex_json) : 0;
	float *rects = malloc((nrects ? nrects : 1) * 4 * sizeof(float));
	int32_t *tex = malloc((ntex ? ntex : 1) * sizeof(int32_t));
	enum tsr_status st = rects && tex ? TSR_OK : scene_nomem(L);
	for (size_t i = 0; i < nrects && st == TSR_OK; i++) {
		tsr_json_path(kp, sizeof(kp), path, "uv_rects");
		char ip[256];
		scene_index_path(ip, sizeof(ip), kp, NULL, i);
		st = get_rect(L, json_array_get(rects_json, i), ip, &rects[4 * i]);
	}
	for (size_t i = 0; i < ntex && st == TSR_OK; i++) {
		char ip[256];
		scene_index_path(ip, sizeof(ip), path, "textures", i);
		const json_t *t = json_array_get(tex_json, i);
		if (!json_is_string(t))
			st = tsr_error_set(L->err, TSR_ERR_CONFIG,
					   "key '%s' in '%s' must be a string", ip, L->file);
		else
			st = load_texture(L, json_string_value(t), ip, &tex[i]);
	}
	if (st == TSR_OK) {
		const struct grid_spec gs = {
			.count = {count[0], count[1], count[2]},
			.spacing = spacing, .jitter = jitter,
			.rotate_jitter_deg = rjitter, .scale_jitter = sjitter,
			.fill = fill, .seed = seed,
			.uv_rects = rects, .nrects = nrects, .textures = tex, .ntex = ntex,
		};
		st = scene_add_grid(L, &gs, mi, spec, normalize, uv_rect, flags, anim,
				    mesh_key);
	}
	free(rects);
	free(tex);
	return st;
}


static enum tsr_status parse_object(struct scene_loader *L, const json_t *o,
				    const char *path)
{
	char kp[256];
	TSR_TRY(tsr_json_check_keys(o, L->file, path, object_keys, L->err));
	const char *mesh = NULL;
	tsr_json_path(kp, sizeof(kp), path, "mesh");
	TSR_TRY(tsr_json_get_string(o, L->file, path, "mesh", &mesh, L->err));
	if (!mesh)
		return scene_missing(L, kp);
	float normalize = 0.0f;
	TSR_TRY(tsr_json_get_float(o, L->file, path, "normalize", 1e-6f, FLT_MAX,
			       &normalize, L->err));
	int skybox = 0, screen_space = 0;
	TSR_TRY(tsr_json_get_bool(o, L->file, path, "skybox", &skybox, L->err));
	TSR_TRY(tsr_json_get_bool(o, L->file, path, "screen_space", &screen_space, L->err));
	if (skybox && screen_space) {
		char fp[256];
		tsr_json_path(fp, sizeof(fp), path, "screen_space");
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' cannot be given together with 'skybox'",
				     fp, L->file);
	}
	const int flags = (skybox ? OBJ_SKYBOX : 0) | (screen_space ? OBJ_SCREEN_SPACE : 0);
	float rect[4];
	const float *uv_rect = NULL;
	const json_t *r = json_object_get(o, "uv_rect");
	if (r) {
		char rp[256];
		tsr_json_path(rp, sizeof(rp), path, "uv_rect");
		TSR_TRY(get_rect(L, r, rp, rect));
		uv_rect = rect;
	}
	char mp[256];
	tsr_json_path(mp, sizeof(mp), path, "material");
	struct material_spec spec;
	TSR_TRY(parse_material(L, json_object_get(o, "material"), mp, &spec));
	struct tsr_transform_anim anim;
	enum tsr_status st = parse_anim(L, json_object_get(o, "transform"),
					json_object_get(o, "animation"), path, &anim);
	uint32_t mi = 0;
	if (st == TSR_OK)
		st = scene_object_model(L, mesh, kp, &mi);
	json_t *instances = NULL;
	const json_t *grid = json_object_get(o, "grid");
	if (st == TSR_OK)
		st = scene_get_array(L, o, path, "instances", &instances);
	if (st == TSR_OK && instances && grid) {
		char gp[256];
		tsr_json_path(gp, sizeof(gp), path, "grid");
		st = tsr_error_set(L->err, TSR_ERR_CONFIG,
				   "key '%s' in '%s' cannot be given together with 'instances'",
				   gp, L->file);
	}
	if (st == TSR_OK && instances) {
		char ip[256];
		tsr_json_path(ip, sizeof(ip), path, "instances");
		st = parse_instances(L, instances, ip, mi, &spec, normalize, uv_rect,
				     flags, &anim, kp);
	} else if (st == TSR_OK && grid) {
		char gp[256];
		tsr_json_path(gp, sizeof(gp), path, "grid");
		st = parse_grid(L, grid, gp, mi, &spec, normalize, uv_rect,
				flags, &anim, kp);
	} else if (st == TSR_OK) {
		st = scene_add_object(L, mi, &spec, normalize, uv_rect, flags, &anim,
				NULL, kp);
	}
	free(anim.keyframes);
	return st;
}

/* A required key of an event; missing -> TSR_ERR_CONFIG naming it. */
static enum tsr_status require(struct scene_loader *L, const json_t *obj,
			       const char *path, const char *key)
{
	if (json_object_get(obj, key))
		return TSR_OK;
	char full[256];
	tsr_json_path(full, sizeof(full), path, key);
	return scene_missing(L, full);
}

/*
 * One event of passes[0].events (at `path`) into *u: checks its keys,
 * decodes the uploaded image and makes, for every mesh of the object, the
 * variant of the mesh's own material that samples it.
 */
static enum tsr_status parse_event(struct scene_loader *L, const json_t *e,
				   const char *path, const struct tsr_pass *pass,
				   struct tsr_texture_upload *u)
{
	struct tsr_scene *sc = L->sc;
	char kp[256];
	TSR_TRY(tsr_json_check_keys(e, L->file, path, event_keys, L->err));
	for (const char *const *k = event_keys; *k; k++)
		TSR_TRY(require(L, e, path, *k));
	TSR_TRY(tsr_json_get_u32(e, L->file, path, "frame", 0, 1000000,
			     &u->frame, L->err));
	int type = 0;
	TSR_TRY(tsr_json_get_enum(e, L->file, path, "type", event_type_names,
			      &type, L->err));
	uint32_t object = 0;
	TSR_TRY(tsr_json_get_u32(e, L->file, path, "object", 0, UINT32_MAX,
			     &object, L->err));
	if (object >= pass->object_count) {
		tsr_json_path(kp, sizeof(kp), path, "object");
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' is %u, but the pass has %u objects",
				     kp, L->file, object, pass->object_count);
	}
	u->object = pass->first_object + object;
	const char *tex = NULL;
	TSR_TRY(tsr_json_get_string(e, L->file, path, "texture", &tex, L->err));
	tsr_json_path(kp, sizeof(kp), path, "texture");
	TSR_TRY(load_texture(L, tex, kp, &u->image));

	const struct tsr_object *obj = &sc->objects[u->object];
	u->mesh_materials = calloc(obj->mesh_count ? obj->mesh_count : 1,
				   sizeof(*u->mesh_materials));
	if (!u->mesh_materials)
		return scene_nomem(L);
	for (uint32_t k = 0; k < obj->mesh_count; k++) {
		/* the mesh keeps the material the object was placed with */
		struct tsr_material m =
			sc->materials[sc->meshes[obj->first_mesh + k].material];
		m.texture = u->image;
		TSR_TRY(scene_material_add(L, &m, &u->mesh_materials[k]));
	}
	return TSR_OK;
}

/* passes[0].events (at `path`) into pass->uploads, sorted stably by frame. */
static enum tsr_status parse_events(struct scene_loader *L, const json_t *arr,
				    const char *path, struct tsr_pass *pass)
{
	size_t n = json_array_size(arr);
	if (n == 0)
		return TSR_OK;
	pass->uploads = calloc(n, sizeof(*pass->uploads));
	if (!pass->uploads)
		return scene_nomem(L);
	/* counted now so that tsr_scene_destroy frees what was made */
	pass->upload_count = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		char ep[256];
		scene_index_path(ep, sizeof(ep), path, NULL, i);
		TSR_TRY(parse_event(L, json_array_get(arr, i), ep, pass,
				    &pass->uploads[i]));
	}
	/* insertion sort: stable, so equal frames keep the file's order */
	for (uint32_t i = 1; i < pass->upload_count; i++) {
		struct tsr_texture_upload u = pass->uploads[i];
		uint32_t j = i;
		for (; j > 0 && pass->uploads[j - 1].frame > u.frame; j--)
			pass->uploads[j] = pass->uploads[j - 1];
		pass->uploads[j] = u;
	}
	return TSR_OK;
}

static enum tsr_status parse_pass(struct scene_loader *L, const json_t *ps,
				  const char *path, uint32_t index)
{
	struct tsr_scene *sc = L->sc;
	char p[256];
	TSR_TRY(tsr_json_check_keys(ps, L->file, path, pass_keys, L->err));
	struct tsr_pass *pass = &sc->passes[index];
	L->cur_pass = index;
	pass->target_image = -1;
	for (uint32_t i = 0; i < L->rt_count; i++)
		if (L->rt_writer[i] == (int32_t)index)
			pass->target_image = L->rt_image[i];
	const char *name = "main";
	TSR_TRY(tsr_json_get_string(ps, L->file, path, "name", &name, L->err));
	if (strlen(name) >= sizeof(pass->name)) {
		tsr_json_path(p, sizeof(p), path, "name");
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' is longer than %zu characters",
				     p, L->file, sizeof(pass->name) - 1);
	}
	snprintf(pass->name, sizeof(pass->name), "%s", name);
	pass->clear_color[3] = 1.0f;
	TSR_TRY(tsr_json_get_floats(ps, L->file, path, "clear_color", 4,
				pass->clear_color, L->err));
	tsr_json_path(p, sizeof(p), path, "camera");
	TSR_TRY(scene_parse_camera(L, json_object_get(ps, "camera"), p, &pass->camera));
	json_t *objects;
	TSR_TRY(scene_get_array(L, ps, path, "objects", &objects));
	if (!objects) {
		tsr_json_path(p, sizeof(p), path, "objects");
		return scene_missing(L, p);
	}
	pass->first_object = sc->object_count;
	for (size_t i = 0; i < json_array_size(objects); i++) {
		scene_index_path(p, sizeof(p), path, "objects", i);
		TSR_TRY(parse_object(L, json_array_get(objects, i), p));
	}
	pass->object_count = sc->object_count - pass->first_object;
	json_t *events;
	TSR_TRY(scene_get_array(L, ps, path, "events", &events));
	if (events) {
		tsr_json_path(p, sizeof(p), path, "events");
		TSR_TRY(parse_events(L, events, p, pass));
	}
	return TSR_OK;
}

/*
 * render_targets: each {"name", "width", "height", "format"} becomes an
 * image "rendertarget:<name>" (zero until a pass draws it). "format" is
 * "rgba8" (the default: a color target) or "depth32f" (alias "depth": a
 * depth target, image.depth set: its pass writes depth only, and the
 * image holds that depth as grey).
 */
static enum tsr_status parse_render_targets(struct scene_loader *L, const json_t *arr)
{
	char p[128], kp[160];
	if (json_array_size(arr) > TSR_MAX_RENDER_TARGETS)
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key 'render_targets' in '%s' has %zu targets, at most %d",
				     L->file, json_array_size(arr), TSR_MAX_RENDER_TARGETS);
	for (size_t i = 0; i < json_array_size(arr); i++) {
		const json_t *t = json_array_get(arr, i);
		scene_index_path(p, sizeof(p), "", "render_targets", i);
		if (!json_is_object(t))
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' must be an object", p, L->file);
		TSR_TRY(tsr_json_check_keys(t, L->file, p, render_target_keys, L->err));
		const char *name = NULL, *format = "rgba8";
		uint32_t w = 0, h = 0;
		TSR_TRY(tsr_json_get_string(t, L->file, p, "name", &name, L->err));
		tsr_json_path(kp, sizeof(kp), p, "name");
		if (!name)
			return scene_missing(L, kp);
		if (!name[0] || strlen(name) >= sizeof(L->rt_name[0]) || strchr(name, '@'))
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' must be 1 to %zu characters without '@'",
					     kp, L->file, sizeof(L->rt_name[0]) - 1);
		for (uint32_t k = 0; k < L->rt_count; k++)
			if (strcmp(L->rt_name[k], name) == 0)
				return tsr_error_set(L->err, TSR_ERR_CONFIG,
						     "render target '%s' (key '%s' in '%s') is declared twice",
						     name, kp, L->file);
		TSR_TRY(tsr_json_get_u32(t, L->file, p, "width", 1, TSR_LIMIT_TEXTURE_SIDE, &w,
					 L->err));
		TSR_TRY(tsr_json_get_u32(t, L->file, p, "height", 1, TSR_LIMIT_TEXTURE_SIDE, &h,
					 L->err));
		if (!w || !h) {
			tsr_json_path(kp, sizeof(kp), p, w ? "height" : "width");
			return scene_missing(L, kp);
		}
		TSR_TRY(tsr_json_get_string(t, L->file, p, "format", &format, L->err));
		const int depth = strcmp(format, "depth32f") == 0 || strcmp(format, "depth") == 0;
		if (!depth && strcmp(format, "rgba8") != 0) {
			tsr_json_path(kp, sizeof(kp), p, "format");
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' is '%s': the render target formats are "
					     "'rgba8' (color) and 'depth32f' (depth; alias 'depth')",
					     kp, L->file, format);
		}
		char img_name[96];
		snprintf(img_name, sizeof(img_name), "rendertarget:%s", name);
		uint8_t *zero = calloc((size_t)w * h, 4);
		if (!zero)
			return scene_nomem(L);
		int32_t index;
		enum tsr_status st = tsr_image_set_add_bgra(&L->images, img_name, w, h, zero,
							    &index, L->err);
		free(zero);
		TSR_TRY(st);
		L->images.images[index].render_target = 1;
		L->images.images[index].depth = depth;
		snprintf(L->rt_name[L->rt_count], sizeof(L->rt_name[0]), "%s", name);
		L->rt_image[L->rt_count] = index;
		L->rt_writer[L->rt_count] = -1;
		L->rt_count++;
	}
	return TSR_OK;
}

/*
 * Each pass's "target" (before any pass is parsed, so that a material can
 * sample a later pass's target @previous): every earlier pass draws a
 * declared render target that no other pass draws, the last one
 * "framebuffer".
 */
static enum tsr_status assign_targets(struct scene_loader *L, const json_t *passes)
{
	const size_t n = json_array_size(passes);
	for (size_t i = 0; i < n; i++) {
		char p[64], kp[96];
		scene_index_path(p, sizeof(p), "", "passes", i);
		tsr_json_path(kp, sizeof(kp), p, "target");
		const json_t *ps = json_array_get(passes, i);
		if (!json_is_object(ps))
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' must be an object", p, L->file);
		const char *target = "framebuffer";
		TSR_TRY(tsr_json_get_string(ps, L->file, p, "target", &target, L->err));
		const int last = i + 1 == n, fb = strcmp(target, "framebuffer") == 0;
		if (last && !fb) {
			for (uint32_t k = 0; k < L->rt_count; k++)
				if (strcmp(L->rt_name[k], target) == 0 &&
				    L->images.images[L->rt_image[k]].depth)
					return tsr_error_set(L->err, TSR_ERR_CONFIG,
							     "key '%s' in '%s' is '%s', a depth render target: the last pass draws 'framebuffer' (the displayable color), a depth target only an earlier pass",
							     kp, L->file, target);
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' is '%s': the last pass draws 'framebuffer'",
					     kp, L->file, target);
		}
		if (!last && fb)
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "key '%s' in '%s' is 'framebuffer': only the last pass draws the frame buffer, earlier ones a render target",
					     kp, L->file);
		if (fb)
			continue;
		uint32_t k = 0;
		while (k < L->rt_count && strcmp(L->rt_name[k], target) != 0)
			k++;
		if (k == L->rt_count)
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "render target '%s' (key '%s' in '%s') is not declared in 'render_targets'",
					     target, kp, L->file);
		if (L->rt_writer[k] >= 0)
			return tsr_error_set(L->err, TSR_ERR_CONFIG,
					     "render target '%s' (key '%s' in '%s') is already drawn by pass %d",
					     target, kp, L->file, L->rt_writer[k]);
		L->rt_writer[k] = (int32_t)i;
	}
	return TSR_OK;
}

static enum tsr_status parse_top(struct scene_loader *L, const json_t *root)
{
	struct tsr_scene *sc = L->sc;
	const json_t *v = json_object_get(root, "version");
	if (!v)
		return scene_missing(L, "version");
	/* checked before the other keys: a newer file may have new keys */
	if (json_is_integer(v) && json_integer_value(v) > TSR_WORKLOAD_VERSION)
		return tsr_error_set(L->err, TSR_ERR_UNSUPPORTED,
				     "workload format version %lld of '%s' is not supported (this build reads version %d)",
				     (long long)json_integer_value(v), L->file,
				     TSR_WORKLOAD_VERSION);
	sc->version = TSR_WORKLOAD_VERSION;
	TSR_TRY(tsr_json_get_u32(root, L->file, "", "version", 1,
			     TSR_WORKLOAD_VERSION, &sc->version, L->err));
	TSR_TRY(tsr_json_check_keys(root, L->file, "", top_keys, L->err));

	const char *name = NULL;
	TSR_TRY(tsr_json_get_string(root, L->file, "", "name", &name, L->err));
	if (name) {
		sc->name = strdup(name);
	} else { /* the file name without folder and extension */
		const char *b = strrchr(L->file, '/');
		sc->name = strdup(b ? b + 1 : L->file);
		char *dot = sc->name ? strrchr(sc->name, '.') : NULL;
		if (dot && dot != sc->name)
			*dot = '\0';
	}
	if (!sc->name)
		return scene_nomem(L);
	sc->frames = 1;
	TSR_TRY(tsr_json_get_u32(root, L->file, "", "frames", 1, TSR_LIMIT_FRAMES,
			     &sc->frames, L->err));

	json_t *passes, *targets;
	TSR_TRY(scene_get_array(L, root, "", "passes", &passes));
	if (!passes)
		return scene_missing(L, "passes");
	if (json_array_size(passes) == 0)
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key 'passes' in '%s' must hold at least one pass",
				     L->file);
	TSR_TRY(scene_get_array(L, root, "", "render_targets", &targets));
	if (sc->version < 2 && (json_array_size(passes) > 1 || targets))
		return tsr_error_set(L->err, TSR_ERR_UNSUPPORTED,
				     "'%s' has %zu passes%s: several passes and render targets need \"version\": 2",
				     L->file, json_array_size(passes),
				     targets ? " and 'render_targets'" : "");
	if (targets)
		TSR_TRY(parse_render_targets(L, targets));
	TSR_TRY(assign_targets(L, passes));
	const size_t n = json_array_size(passes);
	sc->passes = calloc(n, sizeof(*sc->passes));
	if (!sc->passes)
		return scene_nomem(L);
	sc->pass_count = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		char p[64];
		scene_index_path(p, sizeof(p), "", "passes", i);
		TSR_TRY(parse_pass(L, json_array_get(passes, i), p, (uint32_t)i));
	}
	return TSR_OK;
}

enum tsr_status tsr_scene_load(const char *workload_path,
			       struct tsr_scene **out, struct tsr_error *err)
{
	struct scene_loader L = {.file = workload_path, .err = err};
	json_t *root = NULL;
	*out = NULL;
	enum tsr_status st = tsr_json_load_file(workload_path, &root, err);
	if (st != TSR_OK)
		return st;
	L.sc = calloc(1, sizeof(*L.sc));
	L.dir = tsr_path_dir(workload_path);
	if (L.sc)
		L.sc->path = strdup(workload_path);
	if (!L.sc || !L.dir || !L.sc->path)
		st = scene_nomem(&L);
	else
		st = parse_top(&L, root);
	if (L.sc) {
		L.sc->images = L.images.images;
		L.sc->image_count = L.images.count;
	}
	for (uint32_t i = 0; i < L.model_count; i++)
		tsr_model_release(&L.models[i]);
	free(L.models);
	free(L.placed);
	free(L.dir);
	json_decref(root);
	if (st != TSR_OK) {
		tsr_scene_destroy(L.sc);
		return st;
	}
	*out = L.sc;
	return TSR_OK;
}

void tsr_scene_destroy(struct tsr_scene *scene)
{
	if (!scene)
		return;
	for (uint32_t i = 0; i < scene->image_count; i++)
		tsr_image_release(&scene->images[i]);
	free(scene->images);
	free(scene->materials);
	for (uint32_t i = 0; i < scene->mesh_count; i++)
		tsr_mesh_release(&scene->meshes[i]);
	free(scene->meshes);
	for (uint32_t i = 0; i < scene->object_count; i++)
		free(scene->objects[i].anim.keyframes);
	free(scene->objects);
	for (uint32_t i = 0; i < scene->pass_count; i++) {
		struct tsr_pass *pass = &scene->passes[i];
		free(pass->camera.keys);
		for (uint32_t u = 0; u < pass->upload_count; u++)
			free(pass->uploads[u].mesh_materials);
		free(pass->uploads);
	}
	free(scene->passes);
	free(scene->name);
	free(scene->path);
	free(scene);
}

