#include "scene/mesh_load.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "core/array.h"
#include "core/limits.h"

/*
 * GenSmoothNormals only acts on meshes without normals. ValidateDataStructure
 * runs before the other steps and turns inconsistent files into import
 * errors instead of out-of-bounds reads in the later steps.
 */
#define IMPORT_FLAGS                                                          \
	(aiProcess_Triangulate | aiProcess_PreTransformVertices |              \
	 aiProcess_GenSmoothNormals | aiProcess_JoinIdenticalVertices |        \
	 aiProcess_SortByPType | aiProcess_ValidateDataStructure)

void tsr_mesh_release(struct tsr_mesh *mesh)
{
	free(mesh->positions);
	free(mesh->normals);
	free(mesh->texcoords);
	free(mesh->indices);
	memset(mesh, 0, sizeof(*mesh));
}

static enum tsr_status mesh_alloc(struct tsr_mesh *m, uint32_t vertices,
				  uint32_t indices)
{
	m->vertex_count = vertices;
	m->index_count = indices;
	m->positions = malloc((size_t)vertices * 3 * sizeof(float));
	m->normals = malloc((size_t)vertices * 3 * sizeof(float));
	m->texcoords = malloc((size_t)vertices * 2 * sizeof(float));
	m->indices = malloc((size_t)(indices ? indices : 1) * sizeof(uint32_t));
	if (!m->positions || !m->normals || !m->texcoords || !m->indices) {
		tsr_mesh_release(m);
		return TSR_ERR_NOMEM;
	}
	return TSR_OK;
}

enum tsr_status tsr_mesh_copy(const struct tsr_mesh *src, struct tsr_mesh *dst)
{
	memset(dst, 0, sizeof(*dst));
	if (mesh_alloc(dst, src->vertex_count, src->index_count) != TSR_OK)
		return TSR_ERR_NOMEM;
	size_t v = src->vertex_count;
	memcpy(dst->positions, src->positions, v * 3 * sizeof(float));
	memcpy(dst->normals, src->normals, v * 3 * sizeof(float));
	memcpy(dst->texcoords, src->texcoords, v * 2 * sizeof(float));
	memcpy(dst->indices, src->indices,
	       (size_t)src->index_count * sizeof(uint32_t));
	dst->material = src->material;
	return TSR_OK;
}

void tsr_model_release(struct tsr_model *model)
{
	for (uint32_t i = 0; i < model->mesh_count; i++)
		tsr_mesh_release(&model->meshes[i]);
	free(model->meshes);
	for (uint32_t i = 0; i < model->material_count; i++)
		free(model->materials[i].texture_path);
	free(model->materials);
	free(model->path);
	for (uint32_t i = 0; i < model->embedded_count; i++)
		free(model->embedded[i].data);
	free(model->embedded);
	memset(model, 0, sizeof(*model));
}

void tsr_meshes_normalize(struct tsr_mesh *meshes, uint32_t n, float radius)
{
	float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX};
	float hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t v = 0; v < meshes[i].vertex_count; v++)
			for (int k = 0; k < 3; k++) {
				float p = meshes[i].positions[3 * v + k];
				lo[k] = p < lo[k] ? p : lo[k];
				hi[k] = p > hi[k] ? p : hi[k];
			}
	if (lo[0] > hi[0])
		return; /* no vertices */
	float c[3], r2 = 0.0f;
	for (int k = 0; k < 3; k++)
		c[k] = 0.5f * (lo[k] + hi[k]);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t v = 0; v < meshes[i].vertex_count; v++) {
			const float *p = &meshes[i].positions[3 * v];
			float d2 = 0.0f;
			for (int k = 0; k < 3; k++)
				d2 += (p[k] - c[k]) * (p[k] - c[k]);
			r2 = d2 > r2 ? d2 : r2;
		}
	float s = r2 > 0.0f ? radius / sqrtf(r2) : 1.0f;
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t v = 0; v < meshes[i].vertex_count; v++)
			for (int k = 0; k < 3; k++) {
				float *p = &meshes[i].positions[3 * v + k];
				*p = (*p - c[k]) * s;
			}
}

/*
 * A built-in model of one mesh facing +z (normals (0, 0, 1), material 0)
 * with room for `vertices` vertices and `indices` indices, for the caller
 * to fill. Errors: TSR_ERR_NOMEM (out released).
 */
static enum tsr_status one_mesh_model(const char *name, uint32_t vertices, uint32_t indices,
				      struct tsr_model *out, struct tsr_mesh **mesh,
				      struct tsr_error *err)
{
	memset(out, 0, sizeof(*out));
	out->path = strdup(name);
	out->meshes = calloc(1, sizeof(*out->meshes));
	out->materials = calloc(1, sizeof(*out->materials));
	if (!out->path || !out->meshes || !out->materials ||
	    mesh_alloc(&out->meshes[0], vertices, indices) != TSR_OK) {
		tsr_model_release(out);
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for '%s'", name);
	}
	out->mesh_count = 1;
	out->material_count = 1;
	out->materials[0].embedded = -1;
	struct tsr_mesh *m = &out->meshes[0];
	for (uint32_t v = 0; v < vertices; v++) {
		m->normals[3 * v + 0] = 0.0f;
		m->normals[3 * v + 1] = 0.0f;
		m->normals[3 * v + 2] = 1.0f;
	}
	m->material = 0;
	*mesh = m;
	return TSR_OK;
}

enum tsr_status tsr_model_builtin_quad(struct tsr_model *out,
				       struct tsr_error *err)
{
	static const float pos[12] = {-0.5f, -0.5f, 0, 0.5f, -0.5f, 0,
				      0.5f,  0.5f,  0, -0.5f, 0.5f, 0};
	static const float uv[8] = {0, 1, 1, 1, 1, 0, 0, 0};
	static const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
	struct tsr_mesh *m = NULL;
	TSR_TRY(one_mesh_model(TSR_BUILTIN_QUAD, 4, 6, out, &m, err));
	memcpy(m->positions, pos, sizeof(pos));
	memcpy(m->texcoords, uv, sizeof(uv));
	memcpy(m->indices, idx, sizeof(idx));
	return TSR_OK;
}

enum tsr_status tsr_model_builtin_grid(const char *name, struct tsr_model *out,
				       struct tsr_error *err)
{
	const char *num = name + strlen(TSR_BUILTIN_GRID);
	char *end = NULL;
	long n = strtol(num, &end, 10);
	memset(out, 0, sizeof(*out));
	if (!*num || *end || n < 1 || n > 256)
		return tsr_error_set(err, TSR_ERR_CONFIG,
				     "built-in mesh '%s' needs 1..256 cells per side (%s<N>)",
				     name, TSR_BUILTIN_GRID);
	const uint32_t cells = (uint32_t)n, side = cells + 1;
	struct tsr_mesh *m = NULL;
	TSR_TRY(one_mesh_model(name, side * side, 6 * cells * cells, out, &m, err));
	for (uint32_t y = 0; y < side; y++)
		for (uint32_t x = 0; x < side; x++) {
			const uint32_t v = y * side + x;
			const float fx = (float)x / (float)cells, fy = (float)y / (float)cells;
			m->positions[3 * v + 0] = fx - 0.5f;
			m->positions[3 * v + 1] = fy - 0.5f;
			m->positions[3 * v + 2] = 0.0f;
			m->texcoords[2 * v + 0] = fx;
			m->texcoords[2 * v + 1] = 1.0f - fy;
		}
	uint32_t *idx = m->indices;
	for (uint32_t y = 0; y < cells; y++)
		for (uint32_t x = 0; x < cells; x++) {
			const uint32_t bl = y * side + x, br = bl + 1;
			const uint32_t tl = bl + side, tr = tl + 1;
			*idx++ = bl; *idx++ = br; *idx++ = tr;
			*idx++ = bl; *idx++ = tr; *idx++ = tl;
		}
	return TSR_OK;
}

/* What assimp logged during one import that the loader must act on. */
struct import_log {
	int dropped_faces;     /* assimp dropped faces with bad indices */
	char msg[160];
};

static void log_cb(const char *message, char *user)
{
	struct import_log *log = (struct import_log *)(void *)user;
	if (log->dropped_faces)
		return;
	if (strstr(message, "out-of-range") || strstr(message, "out of range")) {
		log->dropped_faces = 1;
		/* strip assimp's "Warn,  T0: " prefix and the newline */
		const char *p = strstr(message, ": ");
		p = p ? p + 2 : message;
		snprintf(log->msg, sizeof(log->msg), "%s", p);
		size_t n = strlen(log->msg);
		while (n && (log->msg[n - 1] == '\n' || log->msg[n - 1] == '.'))
			log->msg[--n] = '\0';
	}
}

char *tsr_path_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) + 1 : 0;
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, path, n);
		d[n] = '\0';
	}
	return d;
}

static int find_embedded(const struct aiScene *s, const char *name)
{
	if (name[0] == '*') {
		char *end;
		long i = strtol(name + 1, &end, 10);
		if (*end == '\0' && i >= 0 && (unsigned long)i < s->mNumTextures)
			return (int)i;
		return -2; /* a broken reference */
	}
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	for (unsigned i = 0; i < s->mNumTextures; i++) {
		const char *f = s->mTextures[i]->mFilename.data;
		const char *fb = strrchr(f, '/');
		fb = fb ? fb + 1 : f;
		if (f[0] && (strcmp(f, name) == 0 || strcmp(fb, base) == 0))
			return (int)i;
	}
	return -1;
}

static enum tsr_status read_material(const char *model_path, const char *dir,
				     const struct aiScene *s,
				     const struct aiMaterial *am,
				     struct tsr_model_material *mm,
				     struct tsr_error *err)
{
	struct aiString name, tex;
	struct aiColor4D c;
	mm->embedded = -1;
	/* assimp invents "DefaultMaterial" for files without materials: its
	 * grey is not the model's colour. */
	int invented = aiGetMaterialString(am, AI_MATKEY_NAME, &name) == AI_SUCCESS &&
		       strcmp(name.data, AI_DEFAULT_MATERIAL_NAME) == 0;
	if (!invented &&
	    aiGetMaterialColor(am, AI_MATKEY_COLOR_DIFFUSE, &c) == AI_SUCCESS) {
		mm->has_color = 1;
		mm->color[0] = c.r;
		mm->color[1] = c.g;
		mm->color[2] = c.b;
		mm->color[3] = c.a;
	}
	if (aiGetMaterialTexture(am, aiTextureType_DIFFUSE, 0, &tex, NULL, NULL,
				 NULL, NULL, NULL, NULL) != AI_SUCCESS &&
	    aiGetMaterialTexture(am, aiTextureType_BASE_COLOR, 0, &tex, NULL,
				 NULL, NULL, NULL, NULL, NULL) != AI_SUCCESS)
		return TSR_OK;
	if (tex.length == 0)
		return TSR_OK;
	for (char *p = tex.data; *p; p++)
		if (*p == '\\')
			*p = '/';
	mm->has_texture = 1;
	int e = find_embedded(s, tex.data);
	if (e == -2)
		return tsr_error_set(err, TSR_ERR_ASSET,
				     "model '%s' names embedded texture '%s' that it does not hold",
				     model_path, tex.data);
	if (e >= 0) {
		mm->embedded = e;
		return TSR_OK;
	}
	const char *rel = tex.data;
	if (strncmp(rel, "./", 2) == 0)
		rel += 2;
	size_t n = strlen(dir) + strlen(rel) + 1;
	mm->texture_path = malloc(n);
	if (!mm->texture_path)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for '%s'",
				     model_path);
	snprintf(mm->texture_path, n, "%s%s", rel[0] == '/' ? "" : dir, rel);
	return TSR_OK;
}

/*
 * A vertex position or texture coordinate that is NaN or infinite as a float
 * (assimp reads 1e300 as infinity) would turn into undefined float-to-int
 * conversions downstream: the mesh is refused, naming the file, the mesh
 * (its index among the file's meshes and its name) and the vertex.
 */
static enum tsr_status check_finite(const char *path, unsigned mesh_index,
				    const struct aiMesh *am, struct tsr_error *err)
{
	const struct aiVector3D *uv = am->mTextureCoords[0];
	for (unsigned v = 0; v < am->mNumVertices; v++) {
		const struct aiVector3D *p = &am->mVertices[v];
		const char *what = NULL;
		double x = 0, y = 0, z = 0;
		if (!isfinite((float)p->x) || !isfinite((float)p->y) || !isfinite((float)p->z)) {
			what = "position";
			x = p->x, y = p->y, z = p->z;
		} else if (uv && (!isfinite((float)uv[v].x) || !isfinite((float)uv[v].y))) {
			what = "texture coordinate";
			x = uv[v].x, y = uv[v].y, z = uv[v].z;
		}
		if (what)
			return tsr_error_set(err, TSR_ERR_ASSET,
					     "non-finite vertex %s (%g, %g, %g) at vertex %u of mesh %u "
					     "('%s') in '%s'", what, x, y, z, v, mesh_index,
					     am->mName.data, path);
	}
	return TSR_OK;
}

static enum tsr_status convert_mesh(const char *path, const struct aiMesh *am,
				    struct tsr_mesh *m, struct tsr_error *err)
{
	uint32_t tris = 0;
	for (unsigned f = 0; f < am->mNumFaces; f++)
		tris += am->mFaces[f].mNumIndices == 3;
	if (tris > UINT32_MAX / 3 || mesh_alloc(m, am->mNumVertices, tris * 3) != TSR_OK)
		return tsr_error_set(err, TSR_ERR_NOMEM,
				     "out of memory for a mesh of '%s'", path);
	m->material = am->mMaterialIndex;
	const struct aiVector3D *uv = am->mTextureCoords[0];
	for (unsigned v = 0; v < am->mNumVertices; v++) {
		m->positions[3 * v + 0] = (float)am->mVertices[v].x;
		m->positions[3 * v + 1] = (float)am->mVertices[v].y;
		m->positions[3 * v + 2] = (float)am->mVertices[v].z;
		if (am->mNormals) {
			m->normals[3 * v + 0] = (float)am->mNormals[v].x;
			m->normals[3 * v + 1] = (float)am->mNormals[v].y;
			m->normals[3 * v + 2] = (float)am->mNormals[v].z;
		} else {
			m->normals[3 * v + 0] = 0.0f;
			m->normals[3 * v + 1] = 0.0f;
			m->normals[3 * v + 2] = 1.0f;
		}
		/* assimp: v=0 at the image bottom; the scene: v=0 at the top */
		m->texcoords[2 * v + 0] = uv ? (float)uv[v].x : 0.0f;
		m->texcoords[2 * v + 1] = uv ? 1.0f - (float)uv[v].y : 0.0f;
	}
	uint32_t k = 0;
	for (unsigned f = 0; f < am->mNumFaces; f++) {
		const struct aiFace *face = &am->mFaces[f];
		if (face->mNumIndices != 3)
			continue;
		for (int j = 0; j < 3; j++) {
			if (face->mIndices[j] >= am->mNumVertices) {
				tsr_mesh_release(m);
				return tsr_error_set(err, TSR_ERR_ASSET,
						     "index %u out of range (%u vertices) in a mesh of '%s'",
						     face->mIndices[j],
						     am->mNumVertices, path);
			}
			m->indices[k++] = face->mIndices[j];
		}
	}
	return TSR_OK;
}

/*
 * assimp's PLY reader allocates every element a header declares before it
 * reads any: a header that claims 2^31 faces asks for gigabytes. Every
 * element takes at least one byte of the file (ASCII: a digit; binary: a
 * property), so a count above the file's size is refused before import.
 * Files that are not PLY pass unchanged.
 */
static enum tsr_status check_ply_header(FILE *f, const char *path,
					struct tsr_error *err)
{
	char line[256];
	if (!fgets(line, sizeof(line), f) || strncmp(line, "ply", 3) != 0 ||
	    (line[3] != '\n' && line[3] != '\r'))
		return TSR_OK;
	if (fseek(f, 0, SEEK_END) != 0)
		return TSR_OK;
	long size = ftell(f);
	if (size < 0 || fseek(f, 0, SEEK_SET) != 0 || !fgets(line, sizeof(line), f))
		return TSR_OK;
	for (int n = 0; n < 4096 && fgets(line, sizeof(line), f); n++) {
		if (strncmp(line, "end_header", 10) == 0)
			break;
		char name[64];
		unsigned long long count;
		if (sscanf(line, "element %63s %llu", name, &count) == 2 &&
		    count > (unsigned long long)size)
			return tsr_error_set(err, TSR_ERR_ASSET,
					     "mesh '%s' declares %llu '%s' elements in its PLY header "
					     "but holds only %ld bytes", path, count, name, size);
	}
	return TSR_OK;
}

/*
 * Copies the file's embedded textures into out->embedded, so that the model
 * outlives the assimp scene. Errors: TSR_ERR_NOMEM, TSR_ERR_LIMIT (over the
 * memory budget).
 */
static enum tsr_status copy_embedded(const char *path, const struct aiScene *s,
				     struct tsr_model *out, struct tsr_error *err)
{
	if (s->mNumTextures == 0)
		return TSR_OK;
	out->embedded = calloc(s->mNumTextures, sizeof(*out->embedded));
	if (!out->embedded)
		return tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for '%s'", path);
	for (unsigned i = 0; i < s->mNumTextures; i++) {
		const struct aiTexture *t = s->mTextures[i];
		uint64_t bytes = tsr_model_embedded_bytes(t->mWidth, t->mHeight);
		TSR_TRY(tsr_memory_check(path, bytes, err));
		struct tsr_model_embedded *e = &out->embedded[out->embedded_count];
		e->data = malloc(bytes ? (size_t)bytes : 1);
		if (!e->data)
			return tsr_error_set(err, TSR_ERR_NOMEM,
					     "out of memory for '%s'", path);
		memcpy(e->data, t->pcData, (size_t)bytes);
		e->width = t->mWidth;
		e->height = t->mHeight;
		out->embedded_count++;
	}
	return TSR_OK;
}

/* ---- assimp's file access, through stdio as its default, recorded ---- */

void tsr_model_files_release(struct tsr_model_files *f)
{
	for (uint32_t i = 0; i < f->count; i++)
		free(f->paths[i]);
	free(f->paths);
	free(f->opened);
	memset(f, 0, sizeof(*f));
}

/* Notes that the importer opened `path` (or found it missing). */
static void files_note(struct tsr_model_files *f, const char *path, int opened)
{
	if (!f || f->failed)
		return;
	for (uint32_t i = 0; i < f->count; i++)
		if (strcmp(f->paths[i], path) == 0) {
			f->opened[i] = (uint8_t)(f->opened[i] | (opened != 0));
			return;
		}
	uint32_t cap = f->cap;
	char **paths = tsr_array_grow(f->paths, &cap, f->count + 1, sizeof(*paths));
	if (paths)
		f->paths = paths;
	uint8_t *op = paths ? tsr_array_grow(f->opened, &f->cap, f->count + 1, sizeof(*op)) : NULL;
	if (op)
		f->opened = op;
	char *copy = op ? strdup(path) : NULL;
	if (!copy) {
		f->failed = 1;
		return;
	}
	f->paths[f->count] = copy;
	f->opened[f->count++] = (uint8_t)(opened != 0);
}

static FILE *io_fp(struct aiFile *f)
{
	return (FILE *)(void *)f->UserData;
}

static size_t io_read(struct aiFile *f, char *buf, size_t size, size_t count)
{
	return fread(buf, size, count, io_fp(f));
}

static size_t io_write(struct aiFile *f, const char *buf, size_t size, size_t count)
{
	return fwrite(buf, size, count, io_fp(f));
}

static size_t io_tell(struct aiFile *f)
{
	return (size_t)ftell(io_fp(f));
}

static size_t io_size(struct aiFile *f)
{
	struct stat st;
	return fstat(fileno(io_fp(f)), &st) == 0 ? (size_t)st.st_size : 0;
}

static enum aiReturn io_seek(struct aiFile *f, size_t offset, enum aiOrigin origin)
{
	static const int whence[] = {SEEK_SET, SEEK_CUR, SEEK_END};
	if ((unsigned)origin > 2)
		return aiReturn_FAILURE;
	return fseek(io_fp(f), (long)offset, whence[origin]) == 0 ? aiReturn_SUCCESS
								    : aiReturn_FAILURE;
}

static void io_flush(struct aiFile *f)
{
	fflush(io_fp(f));
}

static struct aiFile *io_open(struct aiFileIO *io, const char *path, const char *mode)
{
	FILE *fp = fopen(path, mode);
	files_note((struct tsr_model_files *)(void *)io->UserData, path, fp != NULL);
	struct aiFile *f = fp ? malloc(sizeof(*f)) : NULL;
	if (!f) {
		if (fp)
			fclose(fp);
		return NULL;
	}
	*f = (struct aiFile){io_read, io_write, io_tell, io_size, io_seek, io_flush,
			     (aiUserData)(void *)fp};
	return f;
}

static void io_close(struct aiFileIO *io, struct aiFile *f)
{
	(void)io;
	if (f) {
		fclose(io_fp(f));
		free(f);
	}
}

enum tsr_status tsr_model_import(const char *path, struct tsr_model *out,
				 struct tsr_error *err)
{
	return tsr_model_import_files(path, out, NULL, err);
}

enum tsr_status tsr_model_import_files(const char *path, struct tsr_model *out,
				       struct tsr_model_files *files, struct tsr_error *err)
{
	enum tsr_status st;
	memset(out, 0, sizeof(*out));
	FILE *f = fopen(path, "rb");
	if (!f)
		return tsr_error_set(err, TSR_ERR_IO, "cannot open mesh '%s': %s",
				     path, strerror(errno));
	st = check_ply_header(f, path, err);
	fclose(f);
	if (st != TSR_OK)
		return st;

	/* The log stream is process-global in assimp: imports are not
	 * thread-safe while it is attached. */
	struct import_log log = {0};
	struct aiLogStream stream = {log_cb, (char *)(void *)&log};
	aiAttachLogStream(&stream);
	struct aiFileIO io = {io_open, io_close, (aiUserData)(void *)files};
	const struct aiScene *s = aiImportFileEx(path, IMPORT_FLAGS, &io);
	aiDetachLogStream(&stream);
	if (log.dropped_faces) {
		if (s)
			aiReleaseImport(s);
		return tsr_error_set(err, TSR_ERR_ASSET,
				     "indices out of range in mesh '%s' (assimp: %s)",
				     path, log.msg);
	}
	if (!s) {
		char msg[256];
		snprintf(msg, sizeof(msg), "%s", aiGetErrorString());
		size_t n = strlen(msg);
		while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
			msg[--n] = '\0';
		return tsr_error_set(err, TSR_ERR_PARSE,
				     "cannot read mesh '%s': %s", path, msg);
	}
	out->path = strdup(path);
	char *dir = tsr_path_dir(path);
	uint32_t nmesh = 0;
	for (unsigned i = 0; i < s->mNumMeshes; i++)
		nmesh += (s->mMeshes[i]->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) != 0;
	out->meshes = calloc(nmesh ? nmesh : 1, sizeof(*out->meshes));
	out->materials = calloc(s->mNumMaterials ? s->mNumMaterials : 1,
				sizeof(*out->materials));
	if (!out->path || !dir || !out->meshes || !out->materials) {
		st = tsr_error_set(err, TSR_ERR_NOMEM, "out of memory for '%s'", path);
		goto fail;
	}
	st = copy_embedded(path, s, out, err);
	if (st != TSR_OK)
		goto fail;
	out->material_count = s->mNumMaterials;
	for (unsigned i = 0; i < s->mNumMaterials; i++) {
		st = read_material(path, dir, s, s->mMaterials[i],
				   &out->materials[i], err);
		if (st != TSR_OK)
			goto fail;
	}
	for (unsigned i = 0; i < s->mNumMeshes; i++) {
		const struct aiMesh *am = s->mMeshes[i];
		if (!(am->mPrimitiveTypes & aiPrimitiveType_TRIANGLE))
			continue; /* points and lines */
		if (am->mMaterialIndex >= s->mNumMaterials) {
			st = tsr_error_set(err, TSR_ERR_ASSET,
					   "material index %u out of range in mesh '%s'",
					   am->mMaterialIndex, path);
			goto fail;
		}
		st = check_finite(path, i, am, err);
		if (st != TSR_OK)
			goto fail;
		st = convert_mesh(path, am, &out->meshes[out->mesh_count], err);
		if (st != TSR_OK)
			goto fail;
		if (out->meshes[out->mesh_count].index_count == 0) {
			tsr_mesh_release(&out->meshes[out->mesh_count]);
			continue;
		}
		out->mesh_count++;
	}
	if (out->mesh_count == 0) {
		st = tsr_error_set(err, TSR_ERR_ASSET,
				   "mesh '%s' holds no triangles", path);
		goto fail;
	}
	free(dir);
	aiReleaseImport(s);
	return TSR_OK;
fail:
	free(dir);
	aiReleaseImport(s);
	tsr_model_release(out);
	return st;
}

/* Appends " (<context>)" to err's message when there is room. */
static void add_context(struct tsr_error *err, const char *model)
{
	if (!err)
		return;
	size_t n = strlen(err->msg);
	snprintf(err->msg + n, sizeof(err->msg) - n, " (diffuse texture of '%s')",
		 model);
}

enum tsr_status tsr_model_texture(const struct tsr_model *model,
				  uint32_t material,
				  struct tsr_image_set *images,
				  int32_t *index, struct tsr_error *err)
{
	*index = -1;
	if (material >= model->material_count)
		return TSR_OK;
	const struct tsr_model_material *mm = &model->materials[material];
	if (!mm->has_texture)
		return TSR_OK;
	enum tsr_status st;
	if (mm->texture_path) {
		st = tsr_image_set_add_file(images, mm->texture_path, index, err);
	} else {
		const struct tsr_model_embedded *t = &model->embedded[mm->embedded];
		char name[1100];
		snprintf(name, sizeof(name), "%s#embedded%d", model->path,
			 mm->embedded);
		if (t->height == 0)
			st = tsr_image_set_add_memory(images, name, t->data,
						      t->width, index, err);
		else
			st = tsr_image_set_add_bgra(images, name, t->width,
						    t->height, t->data,
						    index, err);
	}
	if (st != TSR_OK)
		add_context(err, model->path);
	return st;
}
