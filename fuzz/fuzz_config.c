/*
 * fuzz_config.c - libFuzzer harness for the GPU configuration reader:
 * the input is a config file (JSON), read over the defaults by
 * tsr_config_load() (parse, every key's type and range, cache geometry
 * checks), then listed back (tsr_config_entries, tsr_config_json_text).
 */
#include "fuzz_util.h"

#include "config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("config.json", data, size);
	if (!path)
		return 0;
	struct tsr_gpu_config cfg;
	struct tsr_error err;
	tsr_config_defaults(&cfg);
	if (tsr_config_load(path, &cfg, &err) == TSR_OK) {
		char *text = tsr_config_json_text(&cfg);
		free(text);
	}
	return 0;
}
