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
	struct tsr_trace_reader *r;
	struct tsr_error err;
	if (tsr_trace_reader_open(path, &r, &err) != TSR_OK)
		return 0;
	(void)tsr_trace_reader_description(r);
	for (;;) {
		struct tsr_trace_record rec;
		int eof = 0;
		if (tsr_trace_read(r, &rec, &eof, &err) != TSR_OK || eof)
			break;
	}
	tsr_trace_reader_close(r);
	return 0;
}
