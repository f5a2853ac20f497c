/*
 * objects.c - placing a workload's objects in the scene: the cache of
 * imported models (each file is imported once), placements (an object
 * that uses the same model with the same normalisation, uv_rect and
 * resulting materials as an earlier object shares its meshes: instancing,
 * instead of copying them), deduplicated materials, one object per
 * instance of "instances" or "grid" (each moved by its instance's
 * offsets), and the grid generator. `uv_rect` maps a mesh's texture
 * coordinates into a rectangle of the image (a sprite of an atlas, or a
 * tiled ground), baked into the placement's copy of the meshes. The JSON
 * keys are read by workload_parse.c.
 */
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/rng.h"
#include "scene/scene_priv.h"

static int material_equal(const struct tsr_material *a,
			  const struct tsr_material *b)
{
	return a->texture == b->texture &&
	       a->texture_object == b->texture_object && a->filter == b->filter &&
	       a->wrap == b->wrap && a->blend == b->blend &&
	       a->alpha_cutoff == b->alpha_cutoff &&
	       memcmp(a->color, b->color, sizeof(a->color)) == 0 &&
	       a->lit == b->lit && a->double_sided == b->double_sided &&
	       a->shader_alu_instructions == b->shader_alu_instructions &&
	       a->vertex_shader_instructions == b->vertex_shader_instructions &&
	       a->varyings == b->varyings;
}

enum tsr_status scene_material_add(struct scene_loader *L,
				   const struct tsr_material *m, uint32_t *index)
{
	struct tsr_scene *sc = L->sc;
	for (uint32_t i = 0; i < sc->material_count; i++)
		if (material_equal(&sc->materials[i], m)) {
			*index = i;
			return TSR_OK;
		}
	struct tsr_material *mats = tsr_array_grow(sc->materials, &L->material_cap,
						   sc->material_count + 1,
						   sizeof(*sc->materials));
	if (!mats)
		return scene_nomem(L);
	sc->materials = mats;
	sc->materials[sc->material_count] = *m;
	*index = sc->material_count++;
	return TSR_OK;
}

/* The model imported from `path` (imported on first use). */
static enum tsr_status get_model(struct scene_loader *L, const char *path,
				 const char *key_path, uint32_t *index)
{
	for (uint32_t i = 0; i < L->model_count; i++)
		if (strcmp(L->models[i].path, path) == 0) {
			*index = i;
			return TSR_OK;
		}
	struct tsr_model *models = tsr_array_grow(L->models, &L->model_cap,
						  L->model_count + 1, sizeof(*L->models));
	if (!models)
		return scene_nomem(L);
	L->models = models;
	struct tsr_model *m = &L->models[L->model_count];
	enum tsr_status st;
	if (strcmp(path, TSR_BUILTIN_QUAD) == 0)
		st = tsr_model_builtin_quad(m, L->err);
	else if (strncmp(path, TSR_BUILTIN_GRID, strlen(TSR_BUILTIN_GRID)) == 0)
		st = tsr_model_builtin_grid(path, m, L->err);
	else
		st = tsr_model_load(path, m, L->err);
	if (st != TSR_OK)
		return scene_with_key(L, st, key_path);
	*index = L->model_count++;
	return TSR_OK;
}

/*
 * Places model `mi` with the object's materials: reuses an earlier
 * placement with identical meshes and materials, else copies the model's
 * meshes into the scene.
 */
static enum tsr_status place_model(struct scene_loader *L, uint32_t mi,
				   const struct material_spec *spec,
				   float normalize, const float *uv_rect,
				   const char *key_path,
				   uint32_t *first, uint32_t *count)
{
	struct tsr_scene *sc = L->sc;
	const struct tsr_model *model = &L->models[mi];
	uint32_t *map = malloc(model->material_count * sizeof(*map) + 1);
	if (!map)
		return scene_nomem(L);
	enum tsr_status st = TSR_OK;
	for (uint32_t i = 0; i < model->material_count; i++)
		map[i] = UINT32_MAX;
	/* scene materials for the model materials the meshes use */
	for (uint32_t i = 0; i < model->mesh_count && st == TSR_OK; i++) {
		uint32_t mm = model->meshes[i].material;
		if (map[mm] != UINT32_MAX)
			continue;
		const struct tsr_model_material *src = &model->materials[mm];
		struct tsr_material m = spec->base;
		if (!spec->has_texture) {
			st = tsr_model_texture(model, mm, &L->images,
					       &m.texture, L->err);
			if (st != TSR_OK) {
				st = scene_with_key(L, st, key_path);
				break;
			}
		}
		if (!spec->has_color && src->has_color)
			memcpy(m.color, src->color, sizeof(m.color));
		m.texture_object = m.texture;
		st = scene_material_add(L, &m, &map[mm]);
	}
	if (st != TSR_OK)
		goto out;
	for (uint32_t p = 0; p < L->placed_count; p++) {
		const struct placement *pl = &L->placed[p];
		if (pl->model != mi || pl->normalize != normalize ||
		    pl->has_uv_rect != (uv_rect != NULL) ||
		    (uv_rect && memcmp(pl->uv_rect, uv_rect, sizeof(pl->uv_rect)) != 0))
			continue;
		uint32_t i = 0;
		while (i < model->mesh_count &&
		       sc->meshes[pl->first_mesh + i].material ==
			       map[model->meshes[i].material])
			i++;
		if (i == model->mesh_count) {
			*first = pl->first_mesh;
			*count = pl->mesh_count;
			goto out;
		}
	}
	struct tsr_mesh *meshes = tsr_array_grow(sc->meshes, &L->mesh_cap,
						 sc->mesh_count + model->mesh_count,
						 sizeof(*sc->meshes));
	if (meshes)
		sc->meshes = meshes;
	struct placement *placed = meshes ? tsr_array_grow(L->placed, &L->placed_cap,
							   L->placed_count + 1,
							   sizeof(*L->placed))
					  : NULL;
	if (!placed) {
		st = scene_nomem(L);
		goto out;
	}
	L->placed = placed;
	*first = sc->mesh_count;
	*count = model->mesh_count;
	for (uint32_t i = 0; i < model->mesh_count; i++) {
		struct tsr_mesh *dst = &sc->meshes[sc->mesh_count];
		if (tsr_mesh_copy(&model->meshes[i], dst) != TSR_OK) {
			st = scene_nomem(L);
			goto out;
		}
		dst->material = map[model->meshes[i].material];
		sc->mesh_count++;
	}
	if (normalize > 0.0f)
		tsr_meshes_normalize(&sc->meshes[*first], *count, normalize);
	struct placement pl = {.model = mi, .normalize = normalize,
			       .first_mesh = *first, .mesh_count = *count};
	if (uv_rect) {
		pl.has_uv_rect = 1;
		memcpy(pl.uv_rect, uv_rect, sizeof(pl.uv_rect));
		for (uint32_t i = 0; i < *count; i++) {
			struct tsr_mesh *m = &sc->meshes[*first + i];
			for (uint32_t v = 0; v < m->vertex_count; v++) {
				float *t = &m->texcoords[2 * (size_t)v];
				t[0] = uv_rect[0] + t[0] * (uv_rect[2] - uv_rect[0]);
				t[1] = uv_rect[1] + t[1] * (uv_rect[3] - uv_rect[1]);
			}
		}
	}
	L->placed[L->placed_count++] = pl;
out:
	free(map);
	return st;
}

/* Adds one object: model mi placed with the instance's changes. */
enum tsr_status scene_add_object(struct scene_loader *L, uint32_t mi,
				 const struct material_spec *spec, float normalize,
				 const float *uv_rect, int flags,
				 const struct tsr_transform_anim *anim,
				 const struct instance *in, const char *key_path)
{
	struct tsr_scene *sc = L->sc;
	struct tsr_object *objects = tsr_array_grow(sc->objects, &L->object_cap,
						    sc->object_count + 1,
						    sizeof(*sc->objects));
	if (!objects)
		return scene_nomem(L);
	sc->objects = objects;
	struct tsr_object *obj = &sc->objects[sc->object_count];
	memset(obj, 0, sizeof(*obj));
	obj->anim = *anim;
	obj->anim.keyframes = NULL;
	obj->skybox = (flags & OBJ_SKYBOX) != 0;
	obj->screen_space = (flags & OBJ_SCREEN_SPACE) != 0;
	if (anim->keyframe_count) {
		size_t bytes = anim->keyframe_count * sizeof(*anim->keyframes);
		obj->anim.keyframes = malloc(bytes);
		if (!obj->anim.keyframes)
			return scene_nomem(L);
		memcpy(obj->anim.keyframes, anim->keyframes, bytes);
	}
	/* counted now so that tsr_scene_destroy frees its keyframes */
	sc->object_count++;
	struct material_spec ms = *spec;
	if (in) {
		struct tsr_transform_anim *a = &obj->anim;
		a->translate = tsr_v3_add(a->translate, in->translate);
		a->rotate_deg = tsr_v3_add(a->rotate_deg, in->rotate_deg);
		a->scale = tsr_v3(a->scale.x * in->scale.x, a->scale.y * in->scale.y,
				  a->scale.z * in->scale.z);
		for (uint32_t k = 0; k < a->keyframe_count; k++) {
			struct tsr_keyframe *kf = &a->keyframes[k];
			kf->translate = tsr_v3_add(kf->translate, in->translate);
			kf->rotate_deg = tsr_v3_add(kf->rotate_deg, in->rotate_deg);
			kf->scale = tsr_v3(kf->scale.x * in->scale.x, kf->scale.y * in->scale.y,
					   kf->scale.z * in->scale.z);
		}
		if (in->uv_rect)
			uv_rect = in->uv_rect;
		if (in->texture >= 0) {
			ms.base.texture = in->texture;
			ms.base.texture_object = in->texture;
			ms.has_texture = 1;
		}
	}
	return place_model(L, mi, &ms, normalize, uv_rect, key_path,
			   &obj->first_mesh, &obj->mesh_count);
}

/* A uniform random number in [-1, 1] from the grid's generator. */
static float rng_signed(struct tsr_rng *r)
{
	return (float)(tsr_rng_next(r) >> 40) / (float)(1u << 23) - 1.0f;
}

/* The model a "mesh" value names: builtin:quad, builtin:grid:N or a file. */
/*
 * The grid generator (format in parse_grid, workload_parse.c): each cell
 * draws 12 numbers in [-1, 1) from the SplitMix64 stream seeded with
 * g->seed, always, so a key changes only its own choices: r[0] keeps the
 * cell with probability fill, r[1..3] jitter, r[4..6] the rotation, r[7]
 * the uv_rect, r[8] the texture, r[9..11] the scale.
 */
enum tsr_status scene_add_grid(struct scene_loader *L, const struct grid_spec *g,
			       uint32_t mi, const struct material_spec *spec,
			       float normalize, const float *uv_rect, int flags,
			       const struct tsr_transform_anim *anim,
			       const char *mesh_key)
{
	struct tsr_rng rng;
	tsr_rng_seed(&rng, g->seed);
	for (uint32_t z = 0; z < g->count[2]; z++)
		for (uint32_t y = 0; y < g->count[1]; y++)
			for (uint32_t x = 0; x < g->count[0]; x++) {
				float r[12];
				for (int k = 0; k < 12; k++)
					r[k] = rng_signed(&rng);
				if (0.5f * (r[0] + 1.0f) >= g->fill && g->fill < 1.0f)
					continue;
				struct instance in = {
					.translate = tsr_v3((float)x * g->spacing.x + r[1] * g->jitter.x,
							    (float)y * g->spacing.y + r[2] * g->jitter.y,
							    (float)z * g->spacing.z + r[3] * g->jitter.z),
					.rotate_deg = tsr_v3(r[4] * g->rotate_jitter_deg.x,
							     r[5] * g->rotate_jitter_deg.y,
							     r[6] * g->rotate_jitter_deg.z),
					.scale = tsr_v3(1.0f + r[9] * g->scale_jitter.x,
							1.0f + r[10] * g->scale_jitter.y,
							1.0f + r[11] * g->scale_jitter.z),
					.texture = -1,
				};
				/* r in [-1, 1): index = floor((r + 1) / 2 * n) */
				if (g->nrects) {
					size_t i = (size_t)(0.5f * (r[7] + 1.0f) * (float)g->nrects);
					in.uv_rect = &g->uv_rects[4 * (i < g->nrects ? i : g->nrects - 1)];
				}
				if (g->ntex) {
					size_t i = (size_t)(0.5f * (r[8] + 1.0f) * (float)g->ntex);
					in.texture = g->textures[i < g->ntex ? i : g->ntex - 1];
				}
				TSR_TRY(scene_add_object(L, mi, spec, normalize, uv_rect, flags,
							 anim, &in, mesh_key));
			}
	return TSR_OK;
}

enum tsr_status scene_object_model(struct scene_loader *L, const char *mesh,
				   const char *kp, uint32_t *mi)
{
	if (strcmp(mesh, TSR_BUILTIN_QUAD) == 0)
		return get_model(L, TSR_BUILTIN_QUAD, kp, mi);
	if (strncmp(mesh, TSR_BUILTIN_GRID, strlen(TSR_BUILTIN_GRID)) == 0)
		return get_model(L, mesh, kp, mi);
	if (strncmp(mesh, "builtin:", 8) == 0)
		return tsr_error_set(L->err, TSR_ERR_CONFIG,
				     "key '%s' in '%s' names an unknown built-in mesh '%s' (valid: %s, %sN)",
				     kp, L->file, mesh, TSR_BUILTIN_QUAD, TSR_BUILTIN_GRID);
	char *full = scene_resolve(L, mesh);
	if (!full)
		return scene_nomem(L);
	enum tsr_status st = scene_check_asset_package(full, kp, L->file, L->err);
	if (st == TSR_OK)
		st = get_model(L, full, kp, mi);
	free(full);
	return st;
}
