/*
 * cmd_trace.c - `tessera trace convert IN OUT`: a trace from one format to
 * another (trace/trace.h): tessera's binary trace from any format the
 * readers read, libCacheSim's oracleGeneral from any of them (so that
 * libCacheSim replays tessera's L2 traces). The output is written to
 * OUT.tmp and renamed into place only when the whole input was read: a
 * bad input leaves no OUT.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cachesim/linetrace.h"
#include "cachesim/replay.h"
#include "cli/cli.h"
#include "core/limits.h"
#include "trace/trace.h"

static void usage_trace(FILE *f)
{
	fprintf(f,
		"usage: tessera trace convert IN OUT [--format FMT] [--trace-params P]\n"
		"                             [--to tessera|oracleGeneral] [--line BYTES]\n"
		"                             [--max-records N]\n"
		"\n"
		"  IN               a trace: tessera (binary or text), or libCacheSim's\n"
		"                   oracleGeneral, txt or csv (docs/traces.md)\n"
		"  OUT              the converted trace (written whole or not at all)\n"
		"  --format FMT     IN's format: tessera, oracleGeneral, txt, csv, auto\n"
		"                   (default: told by content; csv must be named)\n"
		"  --trace-params P csv columns as libCacheSim's -t (obj-id-col=N,...)\n"
		"  --to FMT         OUT's format (default: oracleGeneral from a tessera\n"
		"                   trace, tessera's binary trace from the others)\n"
		"  --line BYTES     line size: an object id is the line address / BYTES\n"
		"                   (default 64); an access spanning lines becomes one\n"
		"                   request per line\n"
		"  --max-records N  refuse an input of more records (default 200000000)\n"
		"\n"
		"oracleGeneral output: one request per line access (object id = address /\n"
		"line, size = line, time = the frame number, next access from the trace);\n"
		"markers, writes, streams and metadata are not kept. tessera output from\n"
		"libCacheSim's formats: one read of a line per request (address = id x line).\n"
		"\n"
		"Exit codes: 0 success, 1 runtime error (bad trace), 2 usage error.\n");
}

/* IN -> tessera binary, record by record. */
static enum tsr_status to_tessera(const char *in, const char *out,
				  const struct tsr_trace_format *fmt, uint64_t max_records,
				  uint64_t *written, struct tsr_error *err)
{
	struct tsr_trace_reader *r;
	TSR_TRY(tsr_trace_reader_open_format(in, fmt, &r, err));
	tsr_trace_reader_set_max_records(r, max_records);
	char desc[512];
	const char *d = tsr_trace_reader_description(r);
	if (tsr_trace_reader_format(r) == TSR_TRACE_FMT_TESSERA && d[0])
		snprintf(desc, sizeof(desc), "%s", d);
	else
		snprintf(desc, sizeof(desc), "converted from %s line=%u",
			 tsr_trace_format_name(tsr_trace_reader_format(r)),
			 fmt->line_bytes ? fmt->line_bytes : 64);
	struct tsr_trace_writer *w;
	enum tsr_status s = tsr_trace_writer_open(out, desc, &w, err);
	if (s != TSR_OK) {
		tsr_trace_reader_close(r);
		return s;
	}
	static struct tsr_trace_record recs[4096];
	for (int eof = 0; s == TSR_OK && !eof;) {
		size_t n;
		s = tsr_trace_read_many(r, recs, 4096, &n, &eof, err);
		for (size_t i = 0; s == TSR_OK && i < n; i++)
			tsr_trace_write(w, &recs[i]);
	}
	*written = tsr_trace_writer_count(w);
	tsr_trace_reader_close(r);
	enum tsr_status cs = tsr_trace_writer_close(w, s == TSR_OK, s == TSR_OK ? err : NULL);
	return s != TSR_OK ? s : cs;
}

/* IN -> oracleGeneral: the line trace with next uses, then one record per access. */
static enum tsr_status to_oracle_general(const char *in, const char *out,
					 const struct tsr_trace_format *fmt,
					 uint64_t max_records, uint64_t *written,
					 struct tsr_error *err)
{
	struct tsr_line_trace lt;
	TSR_TRY(tsr_line_trace_load_format(in, fmt, max_records, fmt->line_bytes, 1, &lt, NULL,
					   err));
	struct tsr_og_writer *w;
	enum tsr_status s = tsr_og_writer_open(out, &w, err);
	if (s != TSR_OK) {
		tsr_line_trace_release(&lt);
		return s;
	}
	size_t m = 0;
	uint32_t frame = 0;
	for (size_t i = 0; i < lt.count; i++) {
		for (; m < lt.marker_count && lt.markers[m].pos <= i; m++)
			if (lt.markers[m].kind == TSR_MARKER_FRAME)
				frame = (uint32_t)lt.markers[m].value;
		const struct tsr_line_access *a = &lt.accesses[i];
		tsr_og_write(w, frame, a->addr >> lt.line_shift, lt.line_bytes,
			     a->next_use == TSR_LINE_NEVER ? -1 : (int64_t)a->next_use + 1);
	}
	*written = lt.count;
	tsr_line_trace_release(&lt);
	return tsr_og_writer_close(w, 1, err);
}

static int cmd_convert(int argc, char **argv)
{
	const char *format_arg = NULL, *params_arg = NULL, *to_arg = NULL;
	uint64_t line = 64, max_records = TSR_LIMIT_TRACE_RECORDS;
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"format", required_argument, NULL, 'f'},
		{"trace-params", required_argument, NULL, 'p'},
		{"to", required_argument, NULL, 't'},
		{"line", required_argument, NULL, 'L'},
		{"max-records", required_argument, NULL, 'M'},
		{NULL, 0, NULL, 0},
	};
	int c;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage_trace(stdout);
			return 0;
		case 'f':
			format_arg = optarg;
			break;
		case 'p':
			params_arg = optarg;
			break;
		case 't':
			to_arg = optarg;
			break;
		case 'L':
			if (!tsr_cli_parse_u64(optarg, 4, 65536, &line) || (line & (line - 1)))
				return tsr_cli_usage_error("invalid --line '%s' (a power of two from 4 "
							   "to 65536)", optarg);
			break;
		case 'M':
			if (!tsr_cli_parse_u64(optarg, 1, UINT64_MAX, &max_records))
				return tsr_cli_usage_error("invalid --max-records '%s'", optarg);
			break;
		default:
			return tsr_cli_getopt_error("trace convert", c, argv);
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "tessera: 'trace convert' needs IN and OUT\n");
		usage_trace(stderr);
		return EXIT_USAGE;
	}
	const char *in = argv[optind], *out = argv[optind + 1];
	struct tsr_trace_format fmt;
	struct tsr_error err = {{0}};
	if (tsr_trace_format_parse(format_arg, params_arg, &fmt, &err) != TSR_OK)
		return tsr_cli_usage_error("%s", err.msg);
	fmt.line_bytes = (uint32_t)line;
	int to_og;
	if (to_arg && !strcasecmp(to_arg, "oracleGeneral"))
		to_og = 1;
	else if (to_arg && !strcasecmp(to_arg, "tessera"))
		to_og = 0;
	else if (to_arg)
		return tsr_cli_usage_error("invalid --to '%s' (tessera or oracleGeneral)", to_arg);
	else {
		/* the default follows IN's format */
		struct tsr_trace_reader *r;
		enum tsr_status s = tsr_trace_reader_open_format(in, &fmt, &r, &err);
		if (s != TSR_OK)
			return tsr_cli_exit(s, &err);
		to_og = tsr_trace_reader_format(r) == TSR_TRACE_FMT_TESSERA;
		tsr_trace_reader_close(r);
	}
	if (!strcmp(in, out))
		return tsr_cli_usage_error("IN and OUT are the same file '%s'", in);
	uint64_t written = 0;
	enum tsr_status s = to_og ? to_oracle_general(in, out, &fmt, max_records, &written, &err)
				  : to_tessera(in, out, &fmt, max_records, &written, &err);
	if (s != TSR_OK)
		return tsr_cli_exit(s, &err);
	fprintf(stderr, "wrote %s (%s, %llu %s)\n", out, to_og ? "oracleGeneral" : "tessera",
		(unsigned long long)written, to_og ? "requests" : "records");
	return 0;
}

int tsr_cmd_trace(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "convert"))
		return cmd_convert(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage_trace(stdout);
		return 0;
	}
	if (argc < 2) {
		fprintf(stderr, "tessera: 'trace' needs a subcommand (convert)\n");
		usage_trace(stderr);
		return EXIT_USAGE;
	}
	return tsr_cli_usage_error("unknown 'trace' subcommand '%s' (convert)", argv[1]);
}
