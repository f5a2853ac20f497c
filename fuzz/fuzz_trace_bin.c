/*
 * fuzz_trace_bin.c - libFuzzer harness for the binary trace reader. The
 * input is the trace's content (header and records, what `zstdcat FILE`
 * shows): the harness compresses it into one zstd frame with a checksum,
 * as the writer does, so the fuzzer explores the record decoder rather
 * than zstd's. The first byte chooses: even, compress the rest; odd, write
 * the rest as the file itself (corrupt or truncated zstd frames).
 */
#include "fuzz_util.h"

#include <zstd.h>

#include "trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const uint8_t *body = data + 1;
	size_t n = size - 1;
	const char *path;
	if (data[0] & 1) {
		path = fuzz_write("trace.bin", body, n);
	} else {
		size_t cap = ZSTD_compressBound(n);
		uint8_t *z = malloc(cap);
		ZSTD_CCtx *cc = ZSTD_createCCtx();
		if (!z || !cc) {
			free(z);
			ZSTD_freeCCtx(cc);
			return 0;
		}
		ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
		size_t zn = ZSTD_compress2(cc, z, cap, body, n);
		ZSTD_freeCCtx(cc);
		path = ZSTD_isError(zn) ? NULL : fuzz_write("trace.bin", z, zn);
		free(z);
	}
	if (!path)
		return 0;
	fuzz_read_trace(path);
	return 0;
}
