/*
 * fuzz_image.c - libFuzzer harness for image loading: the input is a
 * compressed image (PNG, JPEG, ...) decoded from memory by
 * tsr_image_set_add_memory(), as an embedded model texture is: JPEGs
 * through libjpeg-turbo (Debian's, not instrumented), the rest through
 * stb_image.
 *
 * tessera links Debian's libstb, which is not instrumented; this file
 * compiles the same stb_image.h into the harness, whose definitions take
 * precedence over the shared library's, so the fuzzer sees the decoder's
 * coverage and ASan checks its memory accesses.
 */
#include "fuzz_util.h"

#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include "scene/image_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tsr_image_set set = {0};
	struct tsr_error err;
	int32_t index;
	tsr_image_set_add_memory(&set, "fuzz", data, size, &index, &err);
	tsr_image_set_release(&set);
	return 0;
}
