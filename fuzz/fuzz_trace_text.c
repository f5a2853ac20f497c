/*
 * fuzz_trace_text.c - libFuzzer harness for the text trace reader: the
 * input is a trace file read record by record (tsr_trace_reader_open,
 * tsr_trace_read) until its end or the first error. An input that begins
 * with the zstd magic number goes to the binary reader, as a file would.
 */
#include "fuzz_util.h"

#include "trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write("trace.txt", data, size);
	if (!path)
		return 0;
	fuzz_read_trace(path);
	return 0;
}
