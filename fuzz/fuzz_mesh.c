/*
 * fuzz_mesh.c - libFuzzer harness for mesh loading through assimp
 * (tsr_model_load: import, materials, triangle meshes, index checks) and
 * the embedded textures of a material (tsr_model_texture). assimp picks
 * the format from the file's extension, then from its content: the first
 * byte of the input chooses the extension among the formats tessera's
 * workloads use, the rest is the file.
 */
#include "fuzz_util.h"

#include "scene/mesh_load.h"

static const char *const names[] = {
	"m.obj", "m.ply", "m.stl", "m.off", "m.gltf", "m.glb", "m.3ds",
	"m.dae", "m.fbx", "m.x", "m.md2", "m.ac", "m.bin",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const char *name = names[data[0] % (sizeof(names) / sizeof(names[0]))];
	const char *path = fuzz_write(name, data + 1, size - 1);
	if (!path)
		return 0;
	struct tsr_model model;
	struct tsr_error err;
	if (tsr_model_load(path, &model, &err) != TSR_OK)
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
