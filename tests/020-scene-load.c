/*
 * 020-scene-load.c - the workload loader (src/scene): the shipped
 * workloads load, the built-in quad's geometry and texture orientation,
 * the texture coordinate convention on a real glTF file, error statuses
 * and messages, per-frame evaluation of object and camera animation,
 * texture upload events (material variants per frame, their errors), and
 * the process's asset cache reading changed files again.
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

#include "frontend/animation.h"
#include "scene/image_load.h"
#include "scene/mesh_load.h"
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
		assert_true(m->texture_object >= -1 &&
			    m->texture_object < (int32_t)sc->image_count);
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
	for (uint32_t i = 0; i < p->upload_count; i++) {
		const struct tsr_texture_upload *u = &p->uploads[i];
		assert_true(u->object >= p->first_object &&
			    u->object < p->first_object + p->object_count);
		assert_true(u->image >= 0 && u->image < (int32_t)sc->image_count);
		assert_non_null(u->mesh_materials);
		for (uint32_t k = 0; k < sc->objects[u->object].mesh_count; k++)
			assert_true(u->mesh_materials[k] < sc->material_count);
		if (i > 0)
			assert_true(p->uploads[i - 1].frame <= u->frame);
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
		{"static-camera.json", 20000, 3},
		{"paused-scene.json", 20000, 3},
		{"camera-pan.json", 20000, 3},
		{"ui-2d.json", 30, 8},
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
		if (strcmp(w[i].file, "sprites-2d.json") == 0 || strcmp(w[i].file, "ui-2d.json") == 0)
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

/*
 * A DirectX .x file on which Debian's assimp dereferences NULL and a PLY
 * on which it fails an assertion (both found by fuzz/fuzz_mesh): the
 * import runs in a child process, so each crash is an error naming the
 * file and the signal, and the caller goes on to load a good model. An OFF file whose header asks for 2^31 vertices (assimp
 * reserves them, 24 GiB) is an error too, not an out-of-memory kill.
 */
static void test_mesh_import_isolated(void **state)
{
	(void)state;
	const char *x = TSR_SOURCE_DIR "/tests/data/assimp-x-segv.x";
	enum tsr_status st;
	struct tsr_model m;
	struct tsr_error err;
	st = tsr_model_load(x, &m, &err);
	assert_int_equal(st, TSR_ERR_PARSE);
	assert_non_null(strstr(err.msg, "assimp crashed"));
	assert_non_null(strstr(err.msg, x));
	assert_non_null(strstr(err.msg, "Segmentation fault"));
	assert_null(m.meshes);
	/* a PLY on which assimp's triangulation fails an assertion: abort() */
	const char *ply = TSR_SOURCE_DIR "/tests/data/assimp-ply-triangulate-abort.ply";
	assert_int_equal(tsr_model_load(ply, &m, &err), TSR_ERR_PARSE);
	assert_non_null(strstr(err.msg, "assimp crashed"));
	assert_non_null(strstr(err.msg, "Aborted: ai_assert failure in"));

	const char *off = tsr_test_write_tmp("huge.off", "OFF\n2147483647 1 0\n0 0 0\n");
	st = tsr_model_load(off, &m, &err);
	assert_int_not_equal(st, TSR_OK);
	assert_non_null(strstr(err.msg, off));

	assert_int_equal(tsr_model_load(GLTF2_DIR "/BoxTextured-glTF-Binary/BoxTextured.glb",
					&m, &err), TSR_OK);
	assert_int_equal(m.embedded_count, 1);
	assert_int_equal(m.embedded[0].height, 0); /* a PNG file's bytes */
	assert_true(m.embedded[0].width > 8);
	assert_memory_equal(m.embedded[0].data, "\x89PNG", 4);
	assert_int_equal(m.materials[m.meshes[0].material].embedded, 0);
	tsr_model_release(&m);
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

	/* issue 12 item 3: shader instructions and frames are bounded */
	p = object_workload("alu.json", "{\"mesh\": \"builtin:quad\", \"material\": "
			    "{\"shader_alu_instructions\": 4097}}");
	msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "passes[0].objects[0].material.shader_alu_instructions"));
	assert_non_null(strstr(msg, "4096"));
	p = object_workload("vsalu.json", "{\"mesh\": \"builtin:quad\", \"material\": "
			    "{\"vertex_shader_instructions\": 1048576}}");
	msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "vertex_shader_instructions"));
	p = tsr_test_write_tmp("frames.json",
			       "{\"version\": 1, \"frames\": 100001, \"passes\": []}");
	msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "frames"));
	assert_non_null(strstr(msg, "100000"));
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
	const char *p = tsr_test_write_tmp("v3.json",
				  "{\"version\": 3, \"shiny_new_key\": 1, \"passes\": []}");
	const char *msg = load_fails(p, TSR_ERR_UNSUPPORTED);
	assert_non_null(strstr(msg, p));

	p = tsr_test_write_tmp("twopass.json",
		      "{\"version\": 1, \"passes\": ["
		      "{\"target\": \"framebuffer\", \"objects\": []},"
		      "{\"target\": \"framebuffer\", \"objects\": []}]}");
	msg = load_fails(p, TSR_ERR_UNSUPPORTED);
	assert_non_null(strstr(msg, "need \"version\": 2"));

	/* a single pass draws the frame buffer (render targets: tests/026) */
	p = tsr_test_write_tmp("rtt.json",
		      "{\"version\": 1, \"passes\": ["
		      "{\"target\": \"shadow_map\", \"objects\": []}]}");
	msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "passes[0].target"));
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

#define DATA_DIR TSR_SOURCE_DIR "/tests/data/"

/* issue 12: NaN, infinite and 1e300 (infinite as float) vertices are refused
 * at load naming the file and the mesh; a PLY header claiming 2^31 faces is
 * refused before assimp allocates them */
static void test_nonfinite_meshes(void **state)
{
	(void)state;
	const char *files[] = {"vertex-nan.obj", "vertex-inf.obj", "vertex-1e300.obj",
			       "texcoord-inf.ply"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char obj[256], name[64];
		snprintf(obj, sizeof(obj), "{\"mesh\": \"%s%s\"}", DATA_DIR, files[i]);
		snprintf(name, sizeof(name), "nonfinite%zu.json", i);
		const char *msg = load_fails(object_workload(name, obj), TSR_ERR_ASSET);
		assert_non_null(strstr(msg, files[i]));
		assert_non_null(strstr(msg, "non-finite"));
		assert_non_null(strstr(msg, "mesh 0"));
		assert_non_null(strstr(msg, i == 3 ? "texture coordinate" : "position"));
	}
	const char *msg = load_fails(object_workload("ply2g.json",
		"{\"mesh\": \"" DATA_DIR "ply-2g-faces.ply\"}"), TSR_ERR_ASSET);
	assert_non_null(strstr(msg, "ply-2g-faces.ply"));
	assert_non_null(strstr(msg, "2147483648"));
	/* huge but finite: loads (the geometry path culls what overflows) */
	struct tsr_scene *sc = load_ok(object_workload("huge.json",
		"{\"mesh\": \"" DATA_DIR "vertex-huge.obj\"}"));
	tsr_scene_destroy(sc);
}

/* A one-object workload with the given camera. */
static const char *camera_fails(const char *name, const char *camera, const char *key)
{
	char buf[1024];
	snprintf(buf, sizeof(buf),
		 "{\"version\": 1, \"passes\": [{\"objects\": [{\"mesh\": \"builtin:quad\"}],"
		 " \"camera\": %s}]}", camera);
	const char *msg = load_fails(tsr_test_write_tmp(name, buf), TSR_ERR_CONFIG);
	if (!strstr(msg, key))
		print_error("'%s' does not name '%s'\n", msg, key);
	assert_non_null(strstr(msg, key));
	return msg;
}

/* issue 12: cameras that rendered blank frames are refused naming the key */
static void test_degenerate_cameras(void **state)
{
	(void)state;
	const char *msg = camera_fails("c-up.json",
		"{\"eye\": [0, 0, 5], \"target\": [0, 0, 0], \"up\": [0, 0, 2]}",
		"passes[0].camera.up");
	assert_non_null(strstr(msg, "parallel"));
	camera_fails("c-eq.json", "{\"eye\": [1, 1, 1], \"target\": [1, 1, 1]}",
		     "passes[0].camera.eye");
	msg = camera_fails("c-orbit0.json", "{\"orbit\": {\"radius\": 0, \"height\": 0}}",
			   "passes[0].camera.orbit");
	assert_non_null(strstr(msg, "eye equal to target"));
	msg = camera_fails("c-orbitv.json", "{\"orbit\": {\"radius\": 0, \"height\": 4}}",
			   "passes[0].camera.orbit");
	assert_non_null(strstr(msg, "parallel"));
	msg = camera_fails("c-keys.json",
		"{\"keyframes\": [{\"frame\": 0, \"eye\": [0, 0, 5]},"
		" {\"frame\": 8, \"eye\": [0, 0, 0]}]}", "passes[0].camera.keyframes[1]");
	assert_non_null(strstr(msg, "eye equal to target"));
	camera_fails("c-keyup.json",
		"{\"keyframes\": [{\"frame\": 3, \"up\": [0, 0, 1]}]}",
		"passes[0].camera.keyframes[0]");
	/* finite as a double, infinite as a float */
	camera_fails("c-1e39.json", "{\"eye\": [0, 0, 1e39]}", "passes[0].camera.eye");
	camera_fails("c-t1e39.json", "{\"target\": [-1e39, 0, 0]}", "passes[0].camera.target");
	/* an eye-to-target distance that overflows float */
	camera_fails("c-far.json", "{\"eye\": [0, 0, 3e38], \"target\": [0, 0, -3e38]}",
		     "passes[0].camera");
	/* still fine: an orbit of radius 0 looking down with up along z */
	struct tsr_scene *sc = load_ok(tsr_test_write_tmp("c-ok.json",
		"{\"version\": 1, \"passes\": [{\"objects\": [{\"mesh\": \"builtin:quad\"}],"
		" \"camera\": {\"up\": [0, 0, -1], \"orbit\": {\"radius\": 0, \"height\": 4}}}]}"));
	tsr_scene_destroy(sc);

	/* moving cameras whose keys are fine: checked at every frame a run
	 * simulates (tsr_sim_run calls tsr_scene_check_cameras first) */
	struct tsr_error err;
	sc = load_ok(tsr_test_write_tmp("c-through.json",
		"{\"version\": 1, \"passes\": [{\"objects\": [{\"mesh\": \"builtin:quad\"}],"
		" \"camera\": {\"keyframes\": [{\"frame\": 0, \"eye\": [0, 0, 5]},"
		" {\"frame\": 10, \"eye\": [0, 0, -5]}]}}]}"));
	assert_int_equal(tsr_scene_check_cameras(sc, 0, 5, &err), TSR_OK);
	assert_int_equal(tsr_scene_check_cameras(sc, 0, 30, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "eye equal to target at frame 5"));
	assert_non_null(strstr(err.msg, "passes[0].camera"));
	assert_non_null(strstr(err.msg, "c-through.json"));
	assert_int_equal(tsr_scene_check_cameras(sc, 6, 30, &err), TSR_OK);
	tsr_scene_destroy(sc);
}

#define TEX_DIR "/usr/share/glmark2/textures/"

/* A workload with the given objects and passes[0].events (reused names). */
static const char *events_workload(const char *name, const char *objects,
				   const char *events)
{
	static char buf[4096];
	snprintf(buf, sizeof(buf),
		 "{\"version\": 1, \"frames\": 50, \"passes\": [{\"objects\": [%s],"
		 " \"events\": %s}]}",
		 objects, events);
	return tsr_test_write_tmp(name, buf);
}

/* Index of the scene image decoded from `path`, or -1. */
static int32_t image_index(const struct tsr_scene *sc, const char *path)
{
	for (uint32_t i = 0; i < sc->image_count; i++)
		if (strcmp(sc->images[i].path, path) == 0)
			return (int32_t)i;
	return -1;
}

/* *v is *orig except for `texture`. */
static void assert_variant(const struct tsr_material *v,
			   const struct tsr_material *orig, int32_t texture)
{
	struct tsr_material want = *orig;
	want.texture = texture;
	assert_int_equal(v->texture, texture);
	assert_int_equal(v->texture_object, orig->texture_object);
	assert_memory_equal(v, &want, sizeof(want));
}

static void test_texture_upload_events(void **state)
{
	(void)state;
	/*
	 * 0 and 1: quads sharing mesh and material (crate); 2: the milk truck
	 * (textured and untextured meshes); 3: a quad placed with effect-2d.
	 * Events out of order, two at frame 12 and two to object 3 at 40.
	 */
	const char *p = events_workload(
		"events.json",
		"{\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"" TEX_DIR "crate-base.png\"}},"
		"{\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"" TEX_DIR "crate-base.png\"}},"
		"{\"mesh\": \"/usr/share/assimp/models/glTF/CesiumMilkTruck/CesiumMilkTruck.gltf\"},"
		"{\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"" TEX_DIR "effect-2d.png\", \"lit\": false}}",
		"[{\"frame\": 20, \"type\": \"texture_upload\", \"object\": 0, \"texture\": \"" TEX_DIR "terrain-grasslight-512.jpg\"},"
		" {\"frame\": 12, \"type\": \"texture_upload\", \"object\": 0, \"texture\": \"" TEX_DIR "effect-2d.png\"},"
		" {\"frame\": 12, \"type\": \"texture_upload\", \"object\": 2, \"texture\": \"" TEX_DIR "effect-2d.png\"},"
		" {\"frame\": 30, \"type\": \"texture_upload\", \"object\": 1, \"texture\": \"" TEX_DIR "effect-2d.png\"},"
		" {\"frame\": 40, \"type\": \"texture_upload\", \"object\": 3, \"texture\": \"" TEX_DIR "terrain-grasslight-512.jpg\"},"
		" {\"frame\": 40, \"type\": \"texture_upload\", \"object\": 3, \"texture\": \"" TEX_DIR "crate-base.png\"}]");
	struct tsr_scene *sc = load_ok(p);
	check_scene_consistent(sc);
	const struct tsr_pass *pass = &sc->passes[0];
	assert_int_equal(pass->upload_count, 6);
	int32_t crate = image_index(sc, TEX_DIR "crate-base.png");
	int32_t effect = image_index(sc, TEX_DIR "effect-2d.png");
	int32_t grass = image_index(sc, TEX_DIR "terrain-grasslight-512.jpg");
	assert_true(crate >= 0 && effect >= 0 && grass >= 0);
	/* sorted by frame, stable: file order kept at frames 12 and 40 */
	static const uint32_t frames[] = {12, 12, 20, 30, 40, 40};
	static const uint32_t objs[] = {0, 2, 0, 1, 3, 3};
	for (uint32_t i = 0; i < 6; i++) {
		assert_int_equal(pass->uploads[i].frame, frames[i]);
		assert_int_equal(pass->uploads[i].object, pass->first_object + objs[i]);
	}
	/* one image per path */
	assert_int_equal(pass->uploads[0].image, effect);
	assert_int_equal(pass->uploads[1].image, effect);
	assert_int_equal(pass->uploads[2].image, grass);

	/* object 0: its own material before 12, effect-2d from 12, grass from
	 * 20 (based on the original material, not on the frame-12 variant);
	 * the texture object stays the crate's throughout */
	const struct tsr_object *o0 = &sc->objects[pass->first_object];
	uint32_t orig0 = sc->meshes[o0->first_mesh].material;
	const struct tsr_material *m0 = &sc->materials[orig0];
	assert_int_equal(m0->texture, crate);
	assert_int_equal(m0->texture_object, crate);
	assert_int_equal(tsr_object_mesh_material(sc, pass, 0, 0, 0), orig0);
	assert_int_equal(tsr_object_mesh_material(sc, pass, 0, 0, 11), orig0);
	uint32_t v12 = tsr_object_mesh_material(sc, pass, 0, 0, 12);
	assert_int_not_equal(v12, orig0);
	assert_variant(&sc->materials[v12], m0, effect);
	assert_int_equal(tsr_object_mesh_material(sc, pass, 0, 0, 19), v12);
	uint32_t v20 = tsr_object_mesh_material(sc, pass, 0, 0, 20);
	assert_variant(&sc->materials[v20], m0, grass);
	assert_int_equal(tsr_object_mesh_material(sc, pass, 0, 0, 1000000), v20);
	assert_int_equal(pass->uploads[0].mesh_materials[0], v12);

	/* object 1 shares object 0's mesh and material: unaffected by its
	 * uploads; its own upload at 30 reuses object 0's variant */
	const struct tsr_object *o1 = &sc->objects[pass->first_object + 1];
	assert_int_equal(o1->first_mesh, o0->first_mesh);
	for (uint32_t f = 0; f < 30; f++)
		assert_int_equal(tsr_object_mesh_material(sc, pass, 1, 0, f), orig0);
	assert_int_equal(tsr_object_mesh_material(sc, pass, 1, 0, 30), v12);
	assert_int_equal(tsr_object_mesh_material(sc, pass, 0, 0, 30), v20);

	/* object 3 was placed with effect-2d: the variant sampling effect-2d
	 * with the crate's texture object is a different material */
	const struct tsr_object *o3 = &sc->objects[pass->first_object + 3];
	uint32_t orig3 = sc->meshes[o3->first_mesh].material;
	assert_int_equal(sc->materials[orig3].texture, effect);
	assert_int_equal(sc->materials[orig3].texture_object, effect);
	assert_int_not_equal(orig3, v12);
	/* two uploads at frame 40: the later in the file wins */
	uint32_t v40 = tsr_object_mesh_material(sc, pass, 3, 0, 40);
	assert_variant(&sc->materials[v40], &sc->materials[orig3], crate);
	assert_int_equal(tsr_object_mesh_material(sc, pass, 3, 0, 39), orig3);

	/* the truck: every mesh gets a variant of its own material */
	const struct tsr_object *o2 = &sc->objects[pass->first_object + 2];
	assert_true(o2->mesh_count >= 2);
	for (uint32_t k = 0; k < o2->mesh_count; k++) {
		uint32_t orig = sc->meshes[o2->first_mesh + k].material;
		assert_int_equal(tsr_object_mesh_material(sc, pass, 2, k, 11), orig);
		uint32_t v = tsr_object_mesh_material(sc, pass, 2, k, 12);
		assert_variant(&sc->materials[v], &sc->materials[orig], effect);
		assert_int_equal(tsr_object_mesh_material(sc, pass, 2, k, 1000), v);
	}

	/* the driver sees uploads exactly at their frames */
	for (uint32_t f = 0; f <= 50; f++)
		assert_int_equal(tsr_pass_uploads_at(pass, f),
				 f == 12 || f == 20 || f == 30 || f == 40);
	tsr_scene_destroy(sc);

	/* no events: nothing changes */
	p = object_workload("quad.json", "{\"mesh\": \"builtin:quad\"}");
	sc = load_ok(p);
	assert_int_equal(sc->passes[0].upload_count, 0);
	assert_null(sc->passes[0].uploads);
	assert_int_equal(tsr_pass_uploads_at(&sc->passes[0], 0), 0);
	assert_int_equal(tsr_object_mesh_material(sc, &sc->passes[0], 0, 0, 5),
			 sc->meshes[0].material);
	assert_int_equal(sc->materials[0].texture_object, -1);
	tsr_scene_destroy(sc);
}

/* An events workload (two quads) that must fail; the message must hold `want`. */
static const char *event_fails(const char *events, enum tsr_status st,
			       const char *want)
{
	const char *p = events_workload(
		"event-err.json",
		"{\"mesh\": \"builtin:quad\"}, {\"mesh\": \"builtin:quad\"}", events);
	const char *msg = load_fails(p, st);
	if (!strstr(msg, want))
		print_error("message '%s' lacks '%s'\n", msg, want);
	assert_non_null(strstr(msg, want));
	return msg;
}

#define EV_OK "{\"frame\": 1, \"type\": \"texture_upload\", \"object\": 1, " \
	      "\"texture\": \"" TEX_DIR "crate-base.png\"}"

static void test_texture_upload_errors(void **state)
{
	(void)state;
	const char *msg;
	/* missing keys */
	event_fails("[" EV_OK ", {\"type\": \"texture_upload\", \"object\": 0, "
		    "\"texture\": \"" TEX_DIR "crate-base.png\"}]",
		    TSR_ERR_CONFIG, "missing key 'passes[0].events[1].frame'");
	event_fails("[{\"frame\": 1, \"object\": 0, \"texture\": \"" TEX_DIR "crate-base.png\"}]",
		    TSR_ERR_CONFIG, "missing key 'passes[0].events[0].type'");
	event_fails("[{\"frame\": 1, \"type\": \"texture_upload\", "
		    "\"texture\": \"" TEX_DIR "crate-base.png\"}]",
		    TSR_ERR_CONFIG, "missing key 'passes[0].events[0].object'");
	event_fails("[{\"frame\": 1, \"type\": \"texture_upload\", \"object\": 0}]",
		    TSR_ERR_CONFIG, "missing key 'passes[0].events[0].texture'");
	/* a type other than texture_upload: names the key, lists the valid ones */
	msg = event_fails("[" EV_OK ", {\"frame\": 1, \"type\": \"buffer_upload\", \"object\": 0, "
			  "\"texture\": \"" TEX_DIR "crate-base.png\"}]",
			  TSR_ERR_CONFIG, "passes[0].events[1].type");
	assert_non_null(strstr(msg, "buffer_upload"));
	assert_non_null(strstr(msg, "valid: texture_upload"));
	/* the object out of range, negative; frame out of range */
	msg = event_fails("[{\"frame\": 1, \"type\": \"texture_upload\", \"object\": 2, "
			  "\"texture\": \"" TEX_DIR "crate-base.png\"}]",
			  TSR_ERR_CONFIG, "passes[0].events[0].object");
	assert_non_null(strstr(msg, "2 objects"));
	event_fails("[{\"frame\": 1, \"type\": \"texture_upload\", \"object\": -1, "
		    "\"texture\": \"" TEX_DIR "crate-base.png\"}]",
		    TSR_ERR_CONFIG, "passes[0].events[0].object");
	event_fails("[{\"frame\": 1000001, \"type\": \"texture_upload\", \"object\": 0, "
		    "\"texture\": \"" TEX_DIR "crate-base.png\"}]",
		    TSR_ERR_CONFIG, "passes[0].events[0].frame");
	event_fails("[{\"frame\": 1, \"type\": 7, \"object\": 0, "
		    "\"texture\": \"" TEX_DIR "crate-base.png\"}]",
		    TSR_ERR_CONFIG, "passes[0].events[0].type");
	/* the texture: missing (relative to the workload's folder), corrupt */
	msg = event_fails("[" EV_OK ", {\"frame\": 3, \"type\": \"texture_upload\", \"object\": 0, "
			  "\"texture\": \"textures/no-such-upload.png\"}]",
			  TSR_ERR_IO, "cannot open texture");
	assert_non_null(strstr(msg, tsr_test_tmp()->dir));
	assert_non_null(strstr(msg, "textures/no-such-upload.png"));
	assert_non_null(strstr(msg, "passes[0].events[1].texture"));
	tsr_test_write_tmp("garbage.png", "this is not a png file, just some bytes\n");
	msg = event_fails("[{\"frame\": 3, \"type\": \"texture_upload\", \"object\": 0, "
			  "\"texture\": \"garbage.png\"}]",
			  TSR_ERR_PARSE, "garbage.png");
	assert_non_null(strstr(msg, "passes[0].events[0].texture"));
	/* unknown keys, wrong shapes */
	msg = event_fails("[" EV_OK ", " EV_OK ", {\"frame\": 1, \"type\": \"texture_upload\", "
			  "\"object\": 0, \"texture\": \"" TEX_DIR "crate-base.png\", \"level\": 0}]",
			  TSR_ERR_CONFIG, "passes[0].events[2].level");
	assert_non_null(strstr(msg, "texture")); /* lists the valid keys */
	event_fails("{\"frame\": 1}", TSR_ERR_CONFIG, "passes[0].events");
	event_fails("[3]", TSR_ERR_CONFIG, "passes[0].events[0]");
}

/* ---- game-like keys: uv_rect, instances, grid, skybox, screen_space, scrolling ---- */

#define GLM_TEX "/usr/share/glmark2/textures/"

/* Translation of an object's model matrix at a frame. */
static struct tsr_vec3 object_translation(const struct tsr_scene *sc, uint32_t o,
					  uint32_t frame)
{
	struct tsr_mat4 m = tsr_object_model_matrix(&sc->objects[o], frame);
	return tsr_v3(m.m[12], m.m[13], m.m[14]);
}

static void test_uv_rect_and_builtin_grid(void **state)
{
	(void)state;
	const char *p = object_workload(
		"uvrect.json",
		"{\"mesh\": \"builtin:quad\"},"
		"{\"mesh\": \"builtin:quad\", \"uv_rect\": [0.25, 0.5, 0.5, 1]},"
		"{\"mesh\": \"builtin:quad\", \"uv_rect\": [0.25, 0.5, 0.5, 1]},"
		"{\"mesh\": \"builtin:grid:4\", \"uv_rect\": [0, 0, 3, 3]}");
	struct tsr_scene *sc = load_ok(p);
	check_scene_consistent(sc);
	assert_int_equal(sc->object_count, 4);
	/* the atlas sprite has its own mesh, shared by the two objects using it */
	assert_int_not_equal(sc->objects[0].first_mesh, sc->objects[1].first_mesh);
	assert_int_equal(sc->objects[1].first_mesh, sc->objects[2].first_mesh);
	const struct tsr_mesh *q = &sc->meshes[sc->objects[0].first_mesh];
	const struct tsr_mesh *r = &sc->meshes[sc->objects[1].first_mesh];
	for (uint32_t v = 0; v < 4; v++) {
		assert_float_equal(r->texcoords[2 * v], 0.25f + 0.25f * q->texcoords[2 * v], 1e-6);
		assert_float_equal(r->texcoords[2 * v + 1], 0.5f + 0.5f * q->texcoords[2 * v + 1], 1e-6);
	}
	/* builtin:grid:4: 5 x 5 vertices, 32 counter-clockwise triangles, uv 0..3 */
	const struct tsr_mesh *g = &sc->meshes[sc->objects[3].first_mesh];
	assert_int_equal(g->vertex_count, 25);
	assert_int_equal(g->index_count, 96);
	float umax = 0.0f;
	for (uint32_t v = 0; v < g->vertex_count; v++) {
		assert_true(fabsf(g->positions[3 * v]) <= 0.5f + 1e-6f);
		umax = fmaxf(umax, g->texcoords[2 * v]);
	}
	assert_float_equal(umax, 3.0f, 1e-6);
	for (uint32_t t = 0; t < g->index_count; t += 3) {
		const float *a = &g->positions[3 * g->indices[t]];
		const float *b = &g->positions[3 * g->indices[t + 1]];
		const float *c = &g->positions[3 * g->indices[t + 2]];
		assert_true((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) > 0.0f);
	}
	tsr_scene_destroy(sc);

	p = object_workload("badgrid.json", "{\"mesh\": \"builtin:grid:0\"}");
	assert_non_null(strstr(load_fails(p, TSR_ERR_CONFIG), "builtin:grid:0"));
	p = object_workload("badbuiltin.json", "{\"mesh\": \"builtin:cube\"}");
	const char *msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "passes[0].objects[0].mesh"));
	assert_non_null(strstr(msg, "builtin:cube"));
	p = object_workload("badrect.json", "{\"mesh\": \"builtin:quad\", \"uv_rect\": [0, 0, 1]}");
	msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "passes[0].objects[0].uv_rect"));
}

static void test_instances(void **state)
{
	(void)state;
	const char *p = object_workload(
		"instances.json",
		"{\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"" GLM_TEX "crate-base.png\"},"
		" \"transform\": {\"translate\": [1, 2, 3], \"scale\": 2},"
		" \"animation\": {\"translate_per_frame\": [1, 0, 0]},"
		" \"instances\": [{}, {\"translate\": [10, 0, 0], \"scale\": [1, 3, 1]},"
		"   {\"translate\": [0, 0, -5], \"uv_rect\": [0, 0, 0.5, 0.5]},"
		"   {\"texture\": \"" GLM_TEX "effect-2d.png\"}]},"
		"{\"mesh\": \"builtin:quad\"}");
	struct tsr_scene *sc = load_ok(p);
	check_scene_consistent(sc);
	assert_int_equal(sc->object_count, 5);   /* 4 instances + 1 */
	assert_int_equal(sc->passes[0].object_count, 5);
	/* the same mesh and material, unless uv_rect or texture differ */
	assert_int_equal(sc->objects[0].first_mesh, sc->objects[1].first_mesh);
	assert_int_not_equal(sc->objects[0].first_mesh, sc->objects[2].first_mesh);
	const struct tsr_mesh *m0 = &sc->meshes[sc->objects[0].first_mesh];
	const struct tsr_mesh *m3 = &sc->meshes[sc->objects[3].first_mesh];
	assert_int_not_equal(m0->material, m3->material);
	assert_int_not_equal(sc->materials[m0->material].texture, sc->materials[m3->material].texture);
	/* offsets add to the placement, scales multiply, the animation applies to all */
	struct tsr_vec3 t = object_translation(sc, 1, 4);
	assert_float_equal(t.x, 15.0f, 1e-5);
	assert_float_equal(t.y, 2.0f, 1e-5);
	assert_float_equal(t.z, 3.0f, 1e-5);
	struct tsr_mat4 m = tsr_object_model_matrix(&sc->objects[1], 0);
	assert_float_equal(m.m[0], 2.0f, 1e-5);
	assert_float_equal(m.m[5], 6.0f, 1e-5);
	t = object_translation(sc, 2, 0);
	assert_float_equal(t.z, -2.0f, 1e-5);
	tsr_scene_destroy(sc);

	p = object_workload("instkey.json",
			    "{\"mesh\": \"builtin:quad\", \"instances\": [{}, {\"transalte\": [1, 0, 0]}]}");
	const char *msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "passes[0].objects[0].instances[1].transalte"));
	assert_non_null(strstr(msg, p));
	assert_non_null(strstr(msg, "translate"));  /* lists the valid keys */
}

static void test_grid(void **state)
{
	(void)state;
	const char *body =
		"{\"mesh\": \"builtin:quad\", \"transform\": {\"translate\": [100, 0, 0]},"
		" \"grid\": {\"count\": [3, 2, 1], \"spacing\": [10, 20, 0]}},"
		"{\"mesh\": \"builtin:quad\", \"grid\": {\"count\": [8, 8, 1], \"spacing\": [1, 1, 1],"
		"  \"jitter\": [0.25, 0.25, 0], \"fill\": 0.5, \"seed\": 7,"
		"  \"uv_rects\": [[0, 0, 0.5, 0.5], [0.5, 0.5, 1, 1]]}}";
	const char *p = object_workload("grid.json", body);
	struct tsr_scene *sc = load_ok(p);
	check_scene_consistent(sc);
	/* a regular 3 x 2 grid, x fastest, from the object's placement */
	for (uint32_t i = 0; i < 6; i++) {
		struct tsr_vec3 t = object_translation(sc, i, 0);
		assert_float_equal(t.x, 100.0f + 10.0f * (float)(i % 3), 1e-5);
		assert_float_equal(t.y, 20.0f * (float)(i / 3), 1e-5);
	}
	/* fill keeps about half of the 64 cells; jitter stays within bounds */
	uint32_t kept = sc->object_count - 6;
	assert_true(kept > 16 && kept < 48);
	uint32_t meshes[2] = {UINT32_MAX, UINT32_MAX};
	for (uint32_t i = 6; i < sc->object_count; i++) {
		struct tsr_vec3 t = object_translation(sc, i, 0);
		float fx = t.x - floorf(t.x + 0.5f), fy = t.y - floorf(t.y + 0.5f);
		assert_true(fabsf(fx) <= 0.25f + 1e-5f && fabsf(fy) <= 0.25f + 1e-5f);
		uint32_t fm = sc->objects[i].first_mesh;
		if (meshes[0] == UINT32_MAX || meshes[0] == fm)
			meshes[0] = fm;
		else
			meshes[1] = fm;
	}
	assert_int_not_equal(meshes[1], UINT32_MAX);  /* both atlas rectangles used */
	/* seeded: loading again gives the same instances */
	struct tsr_scene *again = load_ok(p);
	assert_int_equal(again->object_count, sc->object_count);
	for (uint32_t i = 0; i < sc->object_count; i++) {
		struct tsr_vec3 a = object_translation(sc, i, 0), b = object_translation(again, i, 0);
		assert_memory_equal(&a, &b, sizeof(a));
		assert_int_equal(sc->objects[i].first_mesh, again->objects[i].first_mesh);
	}
	tsr_scene_destroy(again);
	tsr_scene_destroy(sc);

	p = object_workload("gridkey.json",
			    "{\"mesh\": \"builtin:quad\", \"grid\": {\"count\": [2, 2, 1], \"spaceing\": [1, 1, 1]}}");
	const char *msg = load_fails(p, TSR_ERR_CONFIG);
	assert_non_null(strstr(msg, "passes[0].objects[0].grid.spaceing"));
	p = object_workload("gridcount.json", "{\"mesh\": \"builtin:quad\", \"grid\": {\"spacing\": [1, 1, 1]}}");
	assert_non_null(strstr(load_fails(p, TSR_ERR_CONFIG), "passes[0].objects[0].grid.count"));
	p = object_workload("gridboth.json",
			    "{\"mesh\": \"builtin:quad\", \"instances\": [{}], \"grid\": {\"count\": [1, 1, 1]}}");
	assert_non_null(strstr(load_fails(p, TSR_ERR_CONFIG), "instances"));
}

static void test_skybox_screen_space_scrolling(void **state)
{
	(void)state;
	const char *p = object_workload(
		"sky.json",
		"{\"mesh\": \"builtin:quad\", \"skybox\": true},"
		"{\"mesh\": \"builtin:quad\", \"screen_space\": true},"
		"{\"mesh\": \"builtin:quad\", \"animation\": {\"uv_scroll_per_frame\": [0.25, -0.1]}}");
	struct tsr_scene *sc = load_ok(p);
	assert_int_equal(sc->objects[0].skybox, 1);
	assert_int_equal(sc->objects[0].screen_space, 0);
	assert_int_equal(sc->objects[1].screen_space, 1);
	assert_int_equal(sc->objects[2].skybox, 0);
	float uv[2];
	tsr_object_uv_offset(&sc->objects[2], 3, uv);   /* 0.75, -0.3 -> 0.7 */
	assert_float_equal(uv[0], 0.75f, 1e-5);
	assert_float_equal(uv[1], 0.7f, 1e-5);
	tsr_object_uv_offset(&sc->objects[0], 3, uv);
	assert_float_equal(uv[0], 0.0f, 0.0);
	tsr_scene_destroy(sc);
	p = object_workload("skyboth.json",
			    "{\"mesh\": \"builtin:quad\", \"skybox\": true, \"screen_space\": true}");
	assert_non_null(strstr(load_fails(p, TSR_ERR_CONFIG), "screen_space"));
}

/* An asset under /usr/share whose package folder is missing names the package. */
static void test_missing_asset_package(void **state)
{
	(void)state;
	assert_string_equal(tsr_asset_package("/usr/share/games/etr/env/x.png"), "extremetuxracer-data");
	assert_string_equal(tsr_asset_package("/usr/share/glmark2/models/horse.3ds"), "glmark2-data");
	assert_string_equal(tsr_asset_package("/usr/share/games/pingus/data/x.png"), "pingus-data");
	assert_null(tsr_asset_package("/usr/share/tsr-no-such-package/x.png"));
	assert_null(tsr_asset_package("/tmp/x.png"));

	const char *p = object_workload(
		"nopkg.json",
		"{\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"/usr/share/tsr-no-such-package/t.png\"}}");
	const char *msg = load_fails(p, TSR_ERR_IO);
	assert_non_null(strstr(msg, "install the Debian package"));
	assert_non_null(strstr(msg, "'/usr/share/tsr-no-such-package'"));
	assert_non_null(strstr(msg, "scripts/setup.sh"));
	assert_non_null(strstr(msg, "passes[0].objects[0].material.texture"));
	p = object_workload("nopkg-mesh.json", "{\"mesh\": \"/usr/share/games/tsr-no-such-game/m.obj\"}");
	msg = load_fails(p, TSR_ERR_IO);
	assert_non_null(strstr(msg, "'/usr/share/games/tsr-no-such-game'"));
	assert_non_null(strstr(msg, "passes[0].objects[0].mesh"));
	/* a missing file in an installed package's folder is a plain "cannot open" */
	p = object_workload(
		"nofile.json",
		"{\"mesh\": \"builtin:quad\", \"material\": {\"texture\": \"" GLM_TEX "no-such.png\"}}");
	msg = load_fails(p, TSR_ERR_IO);
	assert_null(strstr(msg, "install the Debian package"));
}

/* The game-like workloads load when their Debian packages are installed. */
static void test_game_workloads_load(void **state)
{
	(void)state;
	static const char *const games[] = {"bubble-match-2d", "kingdom-map-2d",
					    "parallax-runner-2d", "snow-run-3d",
					    "city-racing-3d", "sniper-3d"};
	const char *missing = tsr_test_missing_game_data();
	if (missing) {
		print_message("skipped: '%s' is missing (scripts/setup.sh installs it)\n", missing);
		skip();
	}
	for (size_t i = 0; i < sizeof(games) / sizeof(games[0]); i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/workloads/%s.json", TSR_SOURCE_DIR, games[i]);
		struct tsr_scene *sc = load_ok(path);
		check_scene_consistent(sc);
		assert_int_equal(sc->frames, 30);
		assert_true(sc->image_count >= 6);
		int is_2d = strstr(games[i], "-2d") != NULL, skyboxes = 0;
		for (uint32_t o = 0; o < sc->object_count; o++)
			skyboxes += sc->objects[o].skybox;
		assert_int_equal(sc->passes[0].camera.projection,
				 is_2d ? TSR_PROJ_ORTHOGRAPHIC : TSR_PROJ_PERSPECTIVE);
		if (is_2d)
			assert_true(sc->object_count >= 300);  /* hundreds of sprites */
		else
			assert_true(skyboxes >= 3 && sc->object_count >= 30);
		tsr_scene_destroy(sc);
	}
}

/*
 * Corrupt JPEGs found by fuzz/fuzz_image that Debian's stb_image decodes
 * with undefined behaviour: Huffman tables claiming 257 codes (in a DHT
 * segment of the right length, of too short a length, and cut by the
 * end of the file) make it write past its 257-entry size list, and
 * corrupt entropy data makes its bit reader shift past 31 bits. tessera
 * decodes JPEGs with libjpeg-turbo, which refuses each with its reason,
 * from a file and from memory, as it does a file whose SOI follows FF fill
 * bytes (stb would take it as a JPEG); a valid image in the same set
 * still loads.
 */
static void test_corrupt_jpeg_refused(void **state)
{
	(void)state;
	static const char *const files[][2] = {
		{TSR_SOURCE_DIR "/tests/data/jpeg-dht-overflow.jpg", "Bogus Huffman table"},
		{TSR_SOURCE_DIR "/tests/data/jpeg-dht-short-segment.jpg", "Bogus Huffman table"},
		{TSR_SOURCE_DIR "/tests/data/jpeg-dht-truncated.jpg", "Bogus Huffman table"},
		{TSR_SOURCE_DIR "/tests/data/jpeg-dht-fill-before-soi.jpg", "Not a JPEG file"},
		{TSR_SOURCE_DIR "/tests/data/jpeg-code-bits-shift.jpg", "Corrupt JPEG data"},
	};
	struct tsr_image_set set = {0};
	struct tsr_error err;
	int32_t index = -1;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		assert_int_equal(tsr_image_set_add_file(&set, files[i][0], &index, &err),
				 TSR_ERR_PARSE);
		assert_non_null(strstr(err.msg, files[i][0]));
		assert_non_null(strstr(err.msg, files[i][1]));
		FILE *f = fopen(files[i][0], "rb");
		assert_non_null(f);
		uint8_t buf[4096];
		size_t n = fread(buf, 1, sizeof(buf), f);
		assert_true(feof(f));
		fclose(f);
		assert_int_equal(tsr_image_set_add_memory(&set, "embedded", buf, n,
							  &index, &err), TSR_ERR_PARSE);
		assert_non_null(strstr(err.msg, "'embedded'"));
		assert_non_null(strstr(err.msg, files[i][1]));
	}
	/* a PPM whose width has 113 digits (found by fuzz_image): stb would
	 * overflow an int reading it */
	const char *ppm = TSR_SOURCE_DIR "/tests/data/pnm-huge-width.ppm";
	assert_int_equal(tsr_image_set_add_file(&set, ppm, &index, &err), TSR_ERR_PARSE);
	assert_non_null(strstr(err.msg, "more than 9 digits"));
	/* a 16-bit PPM, whose samples stb's 16-to-8 conversion reads past its buffer */
	const char *ppm16 = TSR_SOURCE_DIR "/tests/data/pnm-16bit.ppm";
	assert_int_equal(tsr_image_set_add_file(&set, ppm16, &index, &err), TSR_ERR_PARSE);
	assert_non_null(strstr(err.msg, "16-bit samples"));
	/* a PGM whose pixels are cut short */
	const char *cut = tsr_test_write_tmp("cut.pgm", "P5 4 4 255\nabcd");
	assert_int_equal(tsr_image_set_add_file(&set, cut, &index, &err), TSR_ERR_PARSE);
	assert_non_null(strstr(err.msg, "holds 4 bytes of pixels, not 16"));
	/* a 59-byte BMP declaring 257 x 1048577 texels (found by fuzz_image):
	 * refused from its header, before stb_image decodes a gigabyte */
	const char *bmp = TSR_SOURCE_DIR "/tests/data/bmp-huge-declared.bmp";
	assert_int_equal(tsr_image_set_add_file(&set, bmp, &index, &err), TSR_ERR_LIMIT);
	assert_non_null(strstr(err.msg, "257 x 1048577 texels"));
	assert_non_null(strstr(err.msg, bmp));
	assert_int_equal(set.count, 0);
	assert_int_equal(tsr_image_set_add_file(&set,
			 "/usr/share/glmark2/textures/crate-base.png", &index, &err),
			 TSR_OK);
	assert_int_equal(set.count, 1);
	tsr_image_set_release(&set);
}

/* A 2 x 2 binary PPM of one colour (no zero byte: written as text). */
static void write_ppm(const char *name, unsigned char r, unsigned char g, unsigned char b)
{
	char text[64];
	int n = snprintf(text, sizeof(text), "P6\n2 2\n255\n");
	for (int i = 0; i < 4; i++) {
		text[n++] = (char)r;
		text[n++] = (char)g;
		text[n++] = (char)b;
	}
	text[n] = '\0';
	tsr_test_write_tmp(name, text);
}

/* The diffuse colour of the first mesh's material and the first texel of image 0. */
static void first_colours(const char *path, float color[3], uint8_t texel[3])
{
	struct tsr_scene *sc = load_ok(path);
	assert_true(sc->mesh_count >= 1 && sc->image_count >= 1);
	memcpy(color, sc->materials[sc->meshes[0].material].color, 3 * sizeof(float));
	memcpy(texel, sc->images[0].rgba, 3);
	tsr_scene_destroy(sc);
}

/*
 * The process keeps decoded textures and imported models
 * (scene/asset_cache.h), but only while their files are unchanged: a
 * texture and an OBJ's .mtl rewritten with other contents of the same
 * size, and an .mtl that was missing and then appears, are read again.
 */
static void test_assets_reloaded_when_changed(void **state)
{
	(void)state;
	const char *obj = "mtllib cache.mtl\nmtllib late.mtl\nusemtl red\n"
			  "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nf 1/1 2/2 3/3\n";
	tsr_test_write_tmp("cache.obj", obj);
	tsr_test_write_tmp("cache.mtl", "newmtl red\nKd 0.5 0.25 0.125\n");
	write_ppm("cache.ppm", 200, 10, 20);
	const char *w = object_workload("cache.json",
		"{\"mesh\": \"cache.obj\", \"material\": {\"texture\": \"cache.ppm\"}}");
	float c[3];
	uint8_t t[3];
	for (int again = 0; again < 2; again++) {  /* the second load from the cache */
		first_colours(w, c, t);
		assert_true(c[0] == 0.5f && c[1] == 0.25f && c[2] == 0.125f);
		assert_true(t[0] == 200 && t[1] == 10 && t[2] == 20);
	}
	tsr_test_write_tmp("cache.mtl", "newmtl red\nKd 0.125 0.5 0.250\n");  /* same size */
	write_ppm("cache.ppm", 30, 220, 40);
	first_colours(w, c, t);
	assert_true(c[0] == 0.125f && c[1] == 0.5f && c[2] == 0.25f);
	assert_true(t[0] == 30 && t[1] == 220 && t[2] == 40);
	/* late.mtl, missing so far, now defines the material too (read last) */
	tsr_test_write_tmp("late.mtl", "newmtl red\nKd 1 1 1\n");
	first_colours(w, c, t);
	assert_true(c[0] == 1.0f && c[1] == 1.0f && c[2] == 1.0f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_workloads),
		cmocka_unit_test(test_truck_uses_its_own_texture),
		cmocka_unit_test(test_quad_geometry_and_defaults),
		cmocka_unit_test(test_gltf_box_texcoords),
		cmocka_unit_test(test_glb_embedded_texture),
		cmocka_unit_test(test_mesh_import_isolated),
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
		cmocka_unit_test(test_nonfinite_meshes),
		cmocka_unit_test(test_degenerate_cameras),
		cmocka_unit_test(test_texture_upload_events),
		cmocka_unit_test(test_texture_upload_errors),
		cmocka_unit_test(test_uv_rect_and_builtin_grid),
		cmocka_unit_test(test_instances),
		cmocka_unit_test(test_grid),
		cmocka_unit_test(test_skybox_screen_space_scrolling),
		cmocka_unit_test(test_missing_asset_package),
		cmocka_unit_test(test_game_workloads_load),
		cmocka_unit_test(test_corrupt_jpeg_refused),
		cmocka_unit_test(test_assets_reloaded_when_changed),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
