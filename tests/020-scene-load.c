/*
 * 020-scene-load.c - the workload loader (src/scene): the shipped
 * workloads load, the built-in quad's geometry and texture orientation,
 * the texture coordinate convention on a real glTF file, error statuses
 * and messages, and per-frame evaluation of object and camera animation.
 *
 * Temporary workloads are written into a mkdtemp() folder removed at the
 * end. TSR_SOURCE_DIR (the repository root) comes from CMake.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scene/scene.h"

#ifndef TSR_SOURCE_DIR
#error "TSR_SOURCE_DIR must name the repository root"
#endif

#define GLTF2_DIR "/usr/share/assimp/models/glTF2"


static int group_setup(void **state)
{
	(void)state;
	return tsr_test_tmp_setup("tsr-020");
}

static int group_teardown(void **state)
{
	(void)state;
	return tsr_test_tmp_teardown();
}

/* Loads a workload that must fail with `want`; returns the message. */
static const char *load_fails(const char *path, enum tsr_status want)
{
	static struct tsr_error err;
	struct tsr_scene *sc = (struct tsr_scene *)&err; /* must become NULL */
	memset(&err, 0, sizeof(err));
	enum tsr_status st = tsr_scene_load(path, &sc, &err);
	if (st != want)
		print_error("status %s, want %s: %s\n", tsr_status_str(st),
			    tsr_status_str(want), err.msg);
	assert_int_equal(st, want);
	assert_null(sc);
	assert_true(err.msg[0] != '\0');
	return err.msg;
}

static struct tsr_scene *load_ok(const char *path)
{
	struct tsr_scene *sc = NULL;
	struct tsr_error err = {{0}};
	enum tsr_status st = tsr_scene_load(path, &sc, &err);
	if (st != TSR_OK)
		print_error("%s: %s\n", path, err.msg);
	assert_int_equal(st, TSR_OK);
	assert_non_null(sc);
	return sc;
}

/* A one-object workload around an object body. */
static const char *object_workload(const char *name, const char *object)
{
	static char buf[4096];
	snprintf(buf, sizeof(buf),
		 "{\"version\": 1, \"passes\": [{\"name\": \"main\", "
		 "\"target\": \"framebuffer\", \"objects\": [%s]}]}",
		 object);
	return tsr_test_write_tmp(name, buf);
}

static void check_scene_consistent(const struct tsr_scene *sc)
{
	assert_int_equal(sc->pass_count, 1);
	assert_true(sc->mesh_count > 0);
	assert_true(sc->object_count > 0);
	const struct tsr_pass *p = &sc->passes[0];
	assert_true(p->first_object + p->object_count <= sc->object_count);
	for (uint32_t i = 0; i < sc->image_count; i++) {
		const struct tsr_image *im = &sc->images[i];
		assert_true(im->width >= 1 && im->width <= 8192);
		assert_true(im->height >= 1 && im->height <= 8192);
		assert_non_null(im->rgba);
		assert_non_null(im->path);
	}
	for (uint32_t i = 0; i < sc->material_count; i++) {
		const struct tsr_material *m = &sc->materials[i];
		assert_true(m->texture >= -1 && m->texture < (int32_t)sc->image_count);
		assert_true(m->varyings >= 1);
	}
	for (uint32_t i = 0; i < sc->mesh_count; i++) {
		const struct tsr_mesh *m = &sc->meshes[i];
		assert_true(m->vertex_count > 0);
		assert_true(m->index_count > 0 && m->index_count % 3 == 0);
		assert_true(m->material < sc->material_count);
		for (uint32_t k = 0; k < m->index_count; k++)
			assert_true(m->indices[k] < m->vertex_count);
	}
	for (uint32_t i = 0; i < sc->object_count; i++) {
		const struct tsr_object *o = &sc->objects[i];
		assert_true(o->mesh_count > 0);
		assert_true(o->first_mesh + o->mesh_count <= sc->mesh_count);
	}
}

static uint64_t triangles(const struct tsr_scene *sc)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < sc->object_count; i++)
		for (uint32_t k = 0; k < sc->objects[i].mesh_count; k++)
			n += sc->meshes[sc->objects[i].first_mesh + k].index_count / 3;
	return n;
}

static void test_shipped_workloads(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		uint64_t min_triangles;   /* drawn per frame */
		uint32_t min_images;
	} w[] = {
		{"glmark-scene.json", 20000, 3},
		{"heavy-3d.json", 100000, 2},
		{"sprites-2d.json", 20, 6},
		{"gltf-truck.json", 3000, 1},
	};
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/workloads/%s", TSR_SOURCE_DIR,
			 w[i].file);
		struct tsr_scene *sc = load_ok(path);
		check_scene_consistent(sc);
		assert_int_equal(sc->version, 1);
		assert_int_equal(sc->frames, 30);
		assert_true(triangles(sc) >= w[i].min_triangles);
		assert_true(sc->image_count >= w[i].min_images);
		if (strcmp(w[i].file, "sprites-2d.json") == 0)
			assert_int_equal(sc->passes[0].camera.projection,
					 TSR_PROJ_ORTHOGRAPHIC);
		else
			assert_int_equal(sc->passes[0].camera.projection,
					 TSR_PROJ_PERSPECTIVE);
		tsr_scene_destroy(sc);
	}
}

static void test_truck_uses_its_own_texture(void **state)
{
	(void)state;
	struct tsr_scene *sc = load_ok(TSR_SOURCE_DIR "/workloads/gltf-truck.json");
	assert_int_equal(sc->image_count, 1);
	assert_non_null(strstr(sc->images[0].path, "CesiumMilkTruck.png"));
	assert_int_equal(sc->images[0].width, 2048);
	assert_int_equal(sc->images[0].height, 2048);
	/* several meshes, each with its own material; the glass is untextured */
	assert_true(sc->objects[0].mesh_count >= 2);
	int textured = 0, plain = 0;
	for (uint32_t k = 0; k < sc->objects[0].mesh_count; k++) {
		const struct tsr_mesh *m = &sc->meshes[sc->objects[0].first_mesh + k];
		if (sc->materials[m->material].texture >= 0)
			textured++;
		else
			plain++;
	}
	assert_true(textured > 0 && plain > 0);
	tsr_scene_destroy(sc);
}

static void test_quad_geometry_and_defaults(void **state)
{
	(void)state;
	const char *p = object_workload("quad.json", "{\"mesh\": \"builtin:quad\"}");
	struct tsr_scene *sc = load_ok(p);
	check_scene_consistent(sc);
	assert_string_equal(sc->name, "quad");
	assert_int_equal(sc->frames, 1);
	assert_int_equal(sc->mesh_count, 1);
	const struct tsr_mesh *m = &sc->meshes[0];
	assert_int_equal(m->index_count, 6);
	int corners = 0;
	for (uint32_t v = 0; v < m->vertex_count; v++) {
		const float *pos = &m->positions[3 * v], *uv = &m->texcoords[2 * v];
		assert_float_equal(fabsf(pos[0]), 0.5f, 1e-6);
		assert_float_equal(fabsf(pos[1]), 0.5f, 1e-6);
		assert_float_equal(pos[2], 0.0f, 1e-6);
		assert_float_equal(m->normals[3 * v + 2], 1.0f, 1e-6);
		/* u grows with x; v=0 (the image's top row) at the top edge */
		assert_float_equal(uv[0], pos[0] + 0.5f, 1e-6);
		assert_float_equal(uv[1], 0.5f - pos[1], 1e-6);
		corners |= 1 << ((pos[0] > 0) * 2 + (pos[1] > 0));
	}
	assert_int_equal(corners, 15);
	for (uint32_t t = 0; t < 6; t += 3) {
		const float *a = &m->positions[3 * m->indices[t]];
		const float *b = &m->positions[3 * m->indices[t + 1]];
		const float *c = &m->positions[3 * m->indices[t + 2]];
		float cross_z = (b[0] - a[0]) * (c[1] - a[1]) -
				(b[1] - a[1]) * (c[0] - a[0]);
		assert_true(cross_z > 0.0f); /* counter-clockwise seen from +Z */
	}
	const struct tsr_material *mat = &sc->materials[m->material];
	assert_int_equal(mat->texture, -1);
	assert_int_equal(mat->filter, TSR_FILTER_TRILINEAR);
	assert_int_equal(mat->wrap, TSR_WRAP_REPEAT);
	assert_int_equal(mat->blend, TSR_BLEND_OPAQUE);
	assert_float_equal(mat->alpha_cutoff, 0.5f, 1e-6);
	for (int i = 0; i < 4; i++)
		assert_float_equal(mat->color[i], 1.0f, 1e-6);
	assert_int_equal(mat->lit, 1);
	assert_int_equal(mat->double_sided, 0);
	assert_int_equal(mat->shader_alu_instructions, 12);
	assert_int_equal(mat->vertex_shader_instructions, 16);
	assert_int_equal(mat->varyings, 1);
	tsr_scene_destroy(sc);
}

/* Index of the vertex at position p with normal n, or -1. */
static int find_vertex(const struct tsr_mesh *m, const float p[3],
		       const float n[3])
{
	for (uint32_t v = 0; v < m->vertex_count; v++) {
		int ok = 1;
		for (int k = 0; k < 3; k++)
			ok &= fabsf(m->positions[3 * v + k] - p[k]) < 1e-4f &&
			      fabsf(m->normals[3 * v + k] - n[k]) < 1e-4f;
		if (ok)
			return (int)v;
	}
	return -1;
}

/*
 * BoxTextured: glTF's own convention is v=0 at the image top, like the
 * scene's, so after assimp's flip and ours the file's values come back.
 * Its +Z face (after the node's -90 degree X rotation) has texcoords
 * (3,0) at the top right corner and (3,1) at the bottom right.
 */
static void test_gltf_box_texcoords(void **state)
{
	(void)state;
	const char *p = object_workload(
		"box.json",
		"{\"mesh\": \"" GLTF2_DIR "/BoxTextured-glTF/BoxTextured.gltf\"}");
	struct tsr_scene *sc = load_ok(p);
	check_scene_consistent(sc);
	assert_int_equal(sc->image_count, 1);
	assert_int_equal(sc->images[0].width, 211);
	const struct tsr_mesh *m = &sc->meshes[sc->objects[0].first_mesh];
	assert_int_equal(m->index_count, 36);
	const float nz[3] = {0, 0, 1};
	const float top_right[3] = {0.5f, 0.5f, 0.5f};
	const float bottom_right[3] = {0.5f, -0.5f, 0.5f};
	int v = find_vertex(m, top_right, nz);
	assert_true(v >= 0);
	assert_float_equal(m->texcoords[2 * v], 3.0f, 1e-4);
	assert_float_equal(m->texcoords[2 * v + 1], 0.0f, 1e-4);
	v = find_vertex(m, bottom_right, nz);
	assert_true(v >= 0);
	assert_float_equal(m->texcoords[2 * v], 3.0f, 1e-4);
	assert_float_equal(m->texcoords[2 * v + 1], 1.0f, 1e-4);
	/* the top row of the decoded image is the top of the file's image:
	 * CesiumLogoFlat.png has a white border, then sky blue at the top */
	const struct tsr_image *im = &sc->images[0];
	const uint8_t *px = im->rgba + 4 * ((size_t)(im->height / 5) * im->width + im->width / 2);
	assert_true(px[2] > px[0] && px[2] > px[1]); /* blue-ish */
	tsr_scene_destroy(sc);
}

static void test_glb_embedded_texture(void **state)
{
	(void)state;
	const char *p = object_workload(
		"glb.json",
		"{\"mesh\": \"" GLTF2_DIR "/BoxTextured-glTF-Binary/BoxTextured.glb\"}");
	struct tsr_scene *sc = load_ok(p);
	check_scene_consistent(sc);
	assert_int_equal(sc->image_count, 1);
	assert_non_null(strstr(sc->images[0].path, "#embedded0"));
	assert_int_equal(sc->images[0].width, 211);
	assert_int_equal(sc->images[0].height, 211);
	tsr_scene_destroy(sc);
}

static void test_images_and_meshes_shared(void **state)
{
	(void)state;
	const char *p = object_workload(
		"shared.json",
		"{\"mesh\": \"builtin:quad\", \"material\": {\"texture\": "
		"\"/usr/share/glmark2/textures/crate-base.png\"}},"
		"{\"mesh\": \"builtin:quad\", \"material\": {\"texture\": "
		"\"/usr/share/glmark2/textures/crate-base.png\"}},"
		"{\"mesh\": \"builtin:quad\", \"material\": {\"texture\": "
		"\"/usr/share/glmark2/textures/crate-base.png\", \"blend\": \"alpha\"}},"
		"{\"mesh\": \"/usr/share/glmark2/models/horse.3ds\", \"normalize\": 2}");
	struct tsr_scene *sc = load_ok(p);
	check_scene_consistent(sc);
	assert_int_equal(sc->object_count, 4);
	assert_int_equal(sc->image_count, 1);
	assert_int_equal(sc->images[0].width, 512);
	/* same mesh and material: shared; another material: its own mesh */
	assert_int_equal(sc->objects[0].first_mesh, sc->objects[1].first_mesh);
	assert_int_not_equal(sc->objects[0].first_mesh, sc->objects[2].first_mesh);
	/* normalize: bounding-sphere radius 2 around the origin */
	const struct tsr_mesh *h = &sc->meshes[sc->objects[3].first_mesh];
	float r2 = 0.0f;
	for (uint32_t v = 0; v < h->vertex_count; v++) {
		const float *q = &h->positions[3 * v];
		float d = q[0] * q[0] + q[1] * q[1] + q[2] * q[2];
		r2 = d > r2 ? d : r2;
	}
	assert_float_equal(sqrtf(r2), 2.0f, 1e-3);
	/* the model's diffuse colour (0.75 grey in horse.3ds) is the default */
	const struct tsr_material *hm = &sc->materials[h->material];
	assert_true(hm->color[0] < 0.9f && hm->color[0] > 0.5f);
	tsr_scene_destroy(sc);
}

static void test_unknown_key(void **state)
{
	(void)state;
	const char *p = object_workload(
		"unknown.json",
		"{\"mesh\": \"builtin:quad\"},"
		"{\"mesh\": \"builtin:quad\", \"material\": {\"filtr\": \"nearest\"}}");
	const char *msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "passes[0].objects[1].material.filtr"));
	assert_non_null(strstr(msg, p));
	assert_non_null(strstr(msg, "filter")); /* lists the valid keys */

	p = tsr_test_write_tmp("unknown-top.json",
		      "{\"version\": 1, \"framez\": 3, \"passes\": []}");
	msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "framez"));
}

static void test_wrong_types(void **state)
{
	(void)state;
	const char *p = object_workload(
		"type1.json", "{\"mesh\": \"builtin:quad\", \"material\": {\"lit\": 1}}");
	const char *msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "passes[0].objects[0].material.lit"));

	p = object_workload("type2.json",
			    "{\"mesh\": \"builtin:quad\", \"material\": "
			    "{\"blend\": \"additive\"}}");
	msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "additive"));

	p = object_workload("type3.json",
			    "{\"mesh\": \"builtin:quad\", \"transform\": "
			    "{\"scale\": [1, 2]}}");
	msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "passes[0].objects[0].transform.scale"));

	p = object_workload("nomesh.json", "{\"normalize\": 1}");
	msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "passes[0].objects[0].mesh"));

	p = tsr_test_write_tmp("noversion.json", "{\"passes\": []}");
	msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "version"));
}

static void test_malformed_json(void **state)
{
	(void)state;
	const char *p = tsr_test_write_tmp("bad.json", "{\"version\": 1, \"passes\": [\n");
	const char *msg = load_fails(p, TSR_ERR_PARSE);
	assert_non_null(strstr(msg, p));
	load_fails(TSR_SOURCE_DIR "/workloads/no-such-workload.json", TSR_ERR_IO);
}

static void test_missing_mesh(void **state)
{
	(void)state;
	const char *p = object_workload("nofile.json",
					"{\"mesh\": \"models/no-such-model.obj\"}");
	const char *msg = load_fails(p, TSR_ERR_IO);
	/* relative to the workload's folder */
	assert_non_null(strstr(msg, tsr_test_tmp()->dir));
	assert_non_null(strstr(msg, "models/no-such-model.obj"));
}

static void test_bad_textures(void **state)
{
	(void)state;
	tsr_test_write_tmp("garbage.png", "this is not a png file, just some bytes\n");
	const char *p = object_workload(
		"corrupt.json",
		"{\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"garbage.png\"}}");
	const char *msg = load_fails(p, TSR_ERR_PARSE);
	assert_non_null(strstr(msg, "garbage.png"));
	assert_non_null(strstr(msg, "passes[0].objects[0].material.texture"));

	p = object_workload(
		"notex.json",
		"{\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"missing.png\"}}");
	msg = load_fails(p, TSR_ERR_IO);
	assert_non_null(strstr(msg, "cannot open texture"));
	assert_non_null(strstr(msg, "missing.png"));

	/* cube.3ds names "crate-base.b" (a truncated 8.3 name) that does not
	 * exist: fine when the workload gives a texture, an error otherwise */
	p = object_workload("cube.json",
			    "{\"mesh\": \"/usr/share/glmark2/models/cube.3ds\"}");
	msg = load_fails(p, TSR_ERR_IO);
	assert_non_null(strstr(msg, "crate-base.b"));
	assert_non_null(strstr(msg, "cube.3ds"));
}

static void test_invalid_meshes(void **state)
{
	(void)state;
	const char *p = object_workload(
		"oor.json",
		"{\"mesh\": \"" GLTF2_DIR "/IndexOutOfRange/IndexOutOfRange.gltf\"}");
	const char *msg = load_fails(p, TSR_ERR_ASSET);
	assert_non_null(strstr(msg, "IndexOutOfRange.gltf"));

	p = object_workload(
		"alloor.json",
		"{\"mesh\": \"" GLTF2_DIR "/IndexOutOfRange/AllIndicesOutOfRange.gltf\"}");
	msg = load_fails(p, TSR_ERR_ASSET);
	assert_non_null(strstr(msg, "AllIndicesOutOfRange.gltf"));

	/* lines only: no triangles */
	tsr_test_write_tmp("lines.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nl 1 2\nl 2 3\n");
	p = object_workload("lines.json", "{\"mesh\": \"lines.obj\"}");
	msg = load_fails(p, TSR_ERR_ASSET);
	assert_non_null(strstr(msg, "lines.obj"));

	/* a file assimp cannot read */
	tsr_test_write_tmp("junk.obj", "\x01\x02\x03 this is no model\n");
	p = object_workload("junk.json", "{\"mesh\": \"junk.obj\"}");
	load_fails(p, TSR_ERR_PARSE);
}

static void test_unsupported(void **state)
{
	(void)state;
	const char *p = tsr_test_write_tmp("v2.json",
				  "{\"version\": 2, \"shiny_new_key\": 1, \"passes\": []}");
	const char *msg = load_fails(p, TSR_ERR_UNSUPPORTED);
	assert_non_null(strstr(msg, p));

	p = tsr_test_write_tmp("twopass.json",
		      "{\"version\": 1, \"passes\": ["
		      "{\"target\": \"framebuffer\", \"objects\": []},"
		      "{\"target\": \"framebuffer\", \"objects\": []}]}");
	msg = load_fails(p, TSR_ERR_UNSUPPORTED);
	assert_non_null(strstr(msg, "multi-pass rendering is not supported yet"));

	p = tsr_test_write_tmp("rtt.json",
		      "{\"version\": 1, \"passes\": ["
		      "{\"target\": \"shadow_map\", \"objects\": []}]}");
	load_fails(p, TSR_ERR_UNSUPPORTED);
}

static void test_keyframe_interpolation(void **state)
{
	(void)state;
	/* keys given out of order; absent values default to the transform */
	const char *p = object_workload(
		"keys.json",
		"{\"mesh\": \"builtin:quad\","
		" \"transform\": {\"translate\": [0, 7, 0]},"
		" \"animation\": {\"keyframes\": ["
		"   {\"frame\": 20, \"translate\": [10, 0, 0], \"scale\": 3, \"rotate_deg\": [0, 0, 90]},"
		"   {\"frame\": 10, \"translate\": [0, 0, 0], \"scale\": [1, 1, 1]}]}}");
	struct tsr_scene *sc = load_ok(p);
	const struct tsr_object *o = &sc->objects[0];
	assert_int_equal(o->anim.keyframe_count, 2);
	assert_int_equal(o->anim.keyframes[0].frame, 10);

	/* frame 15: translate (5,0,0), scale 2, rotation 45 degrees about Z */
	struct tsr_mat4 m = tsr_object_model_matrix(o, 15);
	struct tsr_vec4 v = tsr_m4_apply(&m, 1, 0, 0, 1);
	float c = 2.0f * cosf(3.14159265f / 4.0f);
	assert_float_equal(v.x, 5.0f + c, 1e-4);
	assert_float_equal(v.y, c, 1e-4);
	assert_float_equal(v.z, 0.0f, 1e-4);
	/* clamped before the first and after the last key */
	m = tsr_object_model_matrix(o, 0);
	v = tsr_m4_apply(&m, 1, 0, 0, 1);
	assert_float_equal(v.x, 1.0f, 1e-5);
	assert_float_equal(v.y, 0.0f, 1e-5);
	m = tsr_object_model_matrix(o, 100);
	v = tsr_m4_apply(&m, 1, 0, 0, 1);
	assert_float_equal(v.x, 10.0f, 1e-4);
	assert_float_equal(v.y, 3.0f, 1e-4);
	tsr_scene_destroy(sc);

	/* constant rate, T * R * S order */
	struct tsr_object cr = {0};
	cr.anim.translate = tsr_v3(1, 0, 0);
	cr.anim.scale = tsr_v3(2, 2, 2);
	cr.anim.translate_per_frame = tsr_v3(0, 0.5f, 0);
	cr.anim.rotate_deg_per_frame = tsr_v3(0, 0, 9);
	cr.anim.scale_per_frame = tsr_v3(0.1f, 0.1f, 0.1f);
	m = tsr_object_model_matrix(&cr, 10); /* rot 90, scale 3, t (1,5,0) */
	v = tsr_m4_apply(&m, 1, 0, 0, 1);
	assert_float_equal(v.x, 1.0f, 1e-4);
	assert_float_equal(v.y, 8.0f, 1e-4);
}

static void test_orbit_camera(void **state)
{
	(void)state;
	const char *p = tsr_test_write_tmp(
		"orbit.json",
		"{\"version\": 1, \"passes\": [{\"objects\": [{\"mesh\": \"builtin:quad\"}],"
		" \"camera\": {\"target\": [1, 2, 3], \"fov_y_deg\": 90, \"near\": 1, \"far\": 10,"
		" \"orbit\": {\"radius\": 5, \"height\": 2, \"deg_per_frame\": 3, \"start_deg\": 60}}}]}");
	struct tsr_scene *sc = load_ok(p);
	const struct tsr_camera *cam = &sc->passes[0].camera;
	assert_int_equal(cam->orbit, 1);
	struct tsr_mat4 view, proj;
	/* frame 10: a = 60 + 30 = 90 degrees: eye = target + (5, 2, 0) */
	tsr_camera_matrices(cam, 10, 2.0f, &view, &proj);
	struct tsr_vec4 e = tsr_m4_apply(&view, 6, 4, 3, 1);
	assert_float_equal(e.x, 0.0f, 1e-4);
	assert_float_equal(e.y, 0.0f, 1e-4);
	assert_float_equal(e.z, 0.0f, 1e-4);
	/* the target lies straight ahead (-Z in view space) */
	struct tsr_vec4 t = tsr_m4_apply(&view, 1, 2, 3, 1);
	assert_float_equal(t.x, 0.0f, 1e-4);
	assert_float_equal(t.y, 0.0f, 1e-4);
	assert_float_equal(t.z, -sqrtf(29.0f), 1e-4);
	/* perspective: fov 90, aspect 2 */
	assert_float_equal(proj.m[5], 1.0f, 1e-5);
	assert_float_equal(proj.m[0], 0.5f, 1e-5);
	struct tsr_camera kc = *cam;
	tsr_scene_destroy(sc);

	/* keyframes win over the orbit; orthographic width = height * aspect */
	struct tsr_camera_key keys[2] = {
		{0, {0, 0, 10}, {0, 0, 0}, {0, 1, 0}},
		{10, {10, 0, 10}, {10, 0, 0}, {0, 1, 0}},
	};
	kc.projection = TSR_PROJ_ORTHOGRAPHIC;
	kc.ortho_height = 4.0f;
	kc.key_count = 2;
	kc.keys = keys;
	tsr_camera_matrices(&kc, 5, 1.5f, &view, &proj);
	e = tsr_m4_apply(&view, 5, 0, 10, 1);
	assert_float_equal(e.x, 0.0f, 1e-4);
	assert_float_equal(e.z, 0.0f, 1e-4);
	assert_float_equal(proj.m[5], 2.0f / 4.0f, 1e-6);
	assert_float_equal(proj.m[0], 2.0f / 6.0f, 1e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_workloads),
		cmocka_unit_test(test_truck_uses_its_own_texture),
		cmocka_unit_test(test_quad_geometry_and_defaults),
		cmocka_unit_test(test_gltf_box_texcoords),
		cmocka_unit_test(test_glb_embedded_texture),
		cmocka_unit_test(test_images_and_meshes_shared),
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_malformed_json),
		cmocka_unit_test(test_missing_mesh),
		cmocka_unit_test(test_bad_textures),
		cmocka_unit_test(test_invalid_meshes),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_keyframe_interpolation),
		cmocka_unit_test(test_orbit_camera),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
