/*
 * fuzz_set.c - libFuzzer harness for the `--set KEY=VALUE` overrides:
 * the input is split at newlines into up to 8 overrides, applied over the
 * defaults with no config file by tsr_config_apply_sets().
 */
#include "fuzz_util.h"

#include "config/config.h"

#define MAX_SETS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	const char *sets[MAX_SETS];
	size_t n = 0;
	char *p = buf;
	while (n < MAX_SETS) {
		sets[n++] = p;
		char *nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	struct tsr_gpu_config cfg;
	struct tsr_error err;
	tsr_config_defaults(&cfg);
	tsr_config_apply_sets(&cfg, NULL, sets, n, &err);
	free(buf);
	return 0;
}
