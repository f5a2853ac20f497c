/*
 * fuzz_workload.c - libFuzzer harness for the workload reader: the input
 * is a workload file (JSON) loaded by tsr_scene_load(). Its folder is a
 * private temporary one, so meshes and textures named by relative paths
 * are missing (an error): the harness explores the JSON reader and the
 * builtin meshes (builtin:quad, builtin:grid:N); fuzz_mesh and fuzz_image
 * cover the asset readers.
 */
#include "fuzz_util.h"

#include "scene/scene.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("workload.json", data, size);
	if (!path)
		return 0;
	struct tsr_scene *scene = NULL;
	struct tsr_error err;
	if (tsr_scene_load(path, &scene, &err) == TSR_OK)
		tsr_scene_destroy(scene);
	return 0;
}
