/*
 * fuzz_mesh.c - libFuzzer harness for mesh loading through assimp
 * (tsr_model_import: import, materials, triangle meshes, index checks) and
 * the embedded textures of a material (tsr_model_texture).
 *
 * By default the import runs in process (tsr_model_import), so libFuzzer
 * sees assimp's and tessera's coverage, and a crash inside assimp is a
 * crash of the harness: Debian's assimp dereferences NULL in its .x
 * reader (tests/data/assimp-x-segv.x), so .x is left out there, and it
 * aborts on failed assertions of its post-processing (a PLY that the
 * triangulation miscounts), which a timed run (scripts/fuzz.sh, forked)
 * records and goes past. With TSR_FUZZ_MESH_ISOLATED set (make fuzz-ci)
 * the harness calls tsr_model_load(), which imports in a child process, as
 * every run of tessera does: then no input may crash it, .x included,
 * though libFuzzer sees only the coverage of the parent's side. A child that
 * a sanitizer ends (assimp asking operator new for more than the memory
 * budget: outside ASan that is a std::bad_alloc under the child's
 * address-space limit, which assimp reports) is an import error, as tessera
 * reports it; libFuzzer's death callback, inherited through fork(), is
 * reset in the child so that it does not write that child's end as a crash
 * of the harness. (Matching the child's report in the message would not
 * do: libFuzzer learns the strings a harness compares and writes them into
 * the model file, whose text assimp quotes.) The isolated run checks the
 * parent's side; the in-process run checks the import code itself. assimp
 * picks the format from the file's extension, then from its content: the
 * first byte of the input chooses the extension among the formats
 * tessera's workloads use, the rest is the file.
 */
#include "fuzz_util.h"

#include <pthread.h>
#include <sanitizer/common_interface_defs.h>

#include "scene/mesh_load.h"

static const char *const names[] = {
	"m.obj", "m.ply", "m.stl", "m.off", "m.gltf", "m.glb", "m.3ds",
	"m.dae", "m.fbx", "m.x", "m.md2", "m.ac", "m.bin",
};

/* pthread_atfork's child side: the import child's death is its parent's error */
static void no_death_callback(void)
{
	__sanitizer_set_death_callback(NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int isolated = -1;
	if (isolated < 0) {
		isolated = getenv("TSR_FUZZ_MESH_ISOLATED") != NULL;
		if (isolated)
			pthread_atfork(NULL, NULL, no_death_callback);
	}
	if (size < 1)
		return 0;
	const char *name = names[data[0] % (sizeof(names) / sizeof(names[0]))];
	if (!isolated && strcmp(name, "m.x") == 0)
		return 0;
	const char *path = fuzz_write(name, data + 1, size - 1);
	if (!path)
		return 0;
	struct tsr_model model;
	struct tsr_error err;
	enum tsr_status st = isolated ? tsr_model_load(path, &model, &err)
				      : tsr_model_import(path, &model, &err);
	if (st != TSR_OK)
		return 0;
	struct tsr_image_set images = {0};
	for (uint32_t i = 0; i < model.material_count && i < 4; i++) {
		int32_t index;
		tsr_model_texture(&model, i, &images, &index, &err);
	}
	tsr_image_set_release(&images);
	tsr_model_release(&model);
	return 0;
}
