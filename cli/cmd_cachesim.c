/*
 * cmd_cachesim.c - `tessera cachesim`: replay a recorded or hand-made
 * trace through one cache geometry and several replacement policies in
 * one pass (cachesim/replay.h), and print per policy and per stream the
 * accesses, hits, misses, miss ratio, bypasses and write-backs.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachesim/replay.h"
#include "cli/cli.h"
#include "core/json_util.h"
#include "core/limits.h"
#include "memory/policy.h"
#include "trace/trace.h"

#define MAX_POLICIES 32

static void usage_cachesim(FILE *f)
{
	fprintf(f,
		"usage: tessera cachesim TRACE --size BYTES --ways W|full [--line BYTES]\n"
		"                        --policy SPEC[,SPEC...] [--seed N] [--fetch-on-write]\n"
		"                        [--max-records N] [--threads N] [--json]\n"
		"                        [--format FMT] [--trace-params PARAMS]\n"
		"       tessera cachesim --list-policies [--markdown]\n"
		"\n"
		"  TRACE            a binary trace (tessera run --record-trace) or a text trace,\n"
		"                   or libCacheSim's oracleGeneral, txt or csv (docs/traces.md)\n"
		"  --format FMT     tessera, oracleGeneral, txt, csv, auto (default: told by\n"
		"                   content; csv must be named); a request of libCacheSim's\n"
		"                   formats is one read of line (object id x line size)\n"
		"  --trace-params P csv columns as libCacheSim's -t: obj-id-col=N,time-col=N,\n"
		"                   obj-size-col=N,next-access-col=N,delimiter=C,has-header=B,\n"
		"                   obj-id-is-num=B\n"
		"  --size BYTES     capacity (K, M, G suffixes: 256K, 1M)\n"
		"  --ways W|full    associativity (at most 16384), or 'full' for fully\n"
		"                   associative (size / line at most 16384 lines)\n"
		"  --line BYTES     line size (default 64)\n"
		"  --policy LIST    comma-separated policy specs, replayed in one pass;\n"
		"                   a spec is NAME[:KEY=VALUE,KEY=VALUE...], e.g.\n"
		"                   lru,srrip:bits=3,drrip,opt,optpt\n"
		"  --seed N         seed of randomised policies (default 1)\n"
		"  --fetch-on-write a partial-line write miss reads the line (default: byte-\n"
		"                   masked write-allocate, as caches.*.fetch_on_write false)\n"
		"  --max-records N  refuse a trace of more records (default 200000000)\n"
		"  --threads N      1: read and replay on one thread; 2: a reader thread\n"
		"                   reads, decodes and splits the trace while the caches\n"
		"                   replay it (same counters; default 2 on a machine with\n"
		"                   more than one core)\n"
		"  --json           print JSON instead of tables\n"
		"  --list-policies  print every policy (name, aliases, what it does,\n"
		"                   parameters, paper) and exit; --markdown: the table of\n"
		"                   docs/techniques.md\n"
		"\n"
		"Exit codes: 0 success, 1 runtime error (bad trace), 2 usage error.\n");
	char list[256];
	tsr_policy_list(list, sizeof(list));
	fprintf(f, "Policies: %s.\n", list);
}

/*
 * `tessera cachesim --list-policies [--markdown]`: the policy table of
 * memory/policy_table.c as Markdown, or as plain text (name, then what it
 * does, parameters and paper, indented). Returns the exit code.
 */
static int list_policy_table(int markdown)
{
	size_t n = tsr_policy_markdown(NULL, 0) + 1;
	char *md = malloc(n);
	if (!md) {
		struct tsr_error err;
		return tsr_cli_exit(tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory"), &err);
	}
	tsr_policy_markdown(md, n);
	if (markdown) {
		fputs(md, stdout);
		free(md);
		return 0;
	}
	/* rows after the two header lines: | name | policy | parameters | follows | */
	char *line = strchr(md, '\n');
	line = line ? strchr(line + 1, '\n') : NULL;
	while (line && line[1]) {
		char *row = line + 1;
		line = strchr(row, '\n');
		if (line)
			*line = '\0';
		char *cell[4] = {0};
		char *p = row + 1;  /* after the leading '|' */
		for (int i = 0; i < 4 && p; i++) {
			char *bar = strstr(p, " |");
			if (bar)
				*bar = '\0';
			cell[i] = p + (*p == ' ');
			p = bar ? bar + 2 : NULL;
		}
		for (int i = 0; i < 4; i++)  /* drop the Markdown backquotes */
			for (char *q = cell[i]; q && *q; q++)
				if (*q == '`')
					memmove(q, q + 1, strlen(q)), q--;
		printf("%s\n    %s\n", cell[0] ? cell[0] : "", cell[1] ? cell[1] : "");
		if (cell[2] && *cell[2])
			printf("    parameters: %s\n", cell[2]);
		if (cell[3] && *cell[3])
			printf("    follows: %s\n", cell[3]);
		if (!line)
			break;
	}
	free(md);
	return 0;
}

/*
 * Splits "lru,srrip:bits=3,seed=2,opt" into specs; a piece with '=' but no
 * ':' continues the parameters of the previous spec. Returns the count, or
 * -1 (message printed) on a malformed list.
 */
static int split_policies(char *list, char **out, int max)
{
	int n = 0;
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		if (strchr(tok, '=') && !strchr(tok, ':') && n > 0) {
			/* re-join with the previous spec: the comma was a parameter separator */
			tok[-1] = ',';
			continue;
		}
		if (n == max) {
			fprintf(stderr, "tessera: at most %d policies in one replay\n", max);
			return -1;
		}
		out[n++] = tok;
	}
	return n;
}

static json_t *counters_json(const struct tsr_cache_counters *c)
{
	uint64_t acc = c->reads + c->writes, miss = c->read_misses + c->write_misses;
	return json_pack("{s:I,s:I,s:I,s:f,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
			 "accesses", (json_int_t)acc, "hits", (json_int_t)(acc - miss),
			 "misses", (json_int_t)miss,
			 "miss_ratio", acc ? (double)miss / (double)acc : 0.0,
			 "bypasses", (json_int_t)c->bypasses,
			 "writebacks", (json_int_t)c->writebacks,
			 "discards", (json_int_t)c->discards,
			 "reads", (json_int_t)c->reads, "writes", (json_int_t)c->writes,
			 "read_misses", (json_int_t)c->read_misses,
			 "write_misses", (json_int_t)c->write_misses);
}

static void print_row(const char *policy, const char *stream,
		      const struct tsr_cache_counters *c)
{
	uint64_t acc = c->reads + c->writes, miss = c->read_misses + c->write_misses;
	printf("%-20s %-14s %12llu %12llu %12llu %8.3f%% %10llu %10llu\n", policy, stream,
	       (unsigned long long)acc, (unsigned long long)(acc - miss),
	       (unsigned long long)miss, acc ? 100.0 * (double)miss / (double)acc : 0.0,
	       (unsigned long long)c->bypasses, (unsigned long long)c->writebacks);
}

int tsr_cmd_cachesim(int argc, char **argv)
{
	const char *path = NULL, *policy_arg = NULL, *ways_arg = NULL;
	const char *format_arg = NULL, *params_arg = NULL;
	uint64_t size = 0, line = 64, seed = 1, max_records = TSR_LIMIT_TRACE_RECORDS;
	uint64_t threads = tsr_cli_online_cores() > 1 ? 2 : 1;
	int json = 0, fetch_on_write = 0, list_policies = 0, markdown = 0;
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},     {"json", no_argument, NULL, 'j'},
		{"size", required_argument, NULL, 'S'}, {"ways", required_argument, NULL, 'W'},
		{"line", required_argument, NULL, 'L'}, {"policy", required_argument, NULL, 'P'},
		{"seed", required_argument, NULL, 'R'}, {"fetch-on-write", no_argument, NULL, 'F'},
		{"max-records", required_argument, NULL, 'M'},
		{"threads", required_argument, NULL, 'T'},
		{"list-policies", no_argument, NULL, 'l'},
		{"markdown", no_argument, NULL, 'm'},
		{"format", required_argument, NULL, 'f'},
		{"trace-params", required_argument, NULL, 'p'},
		{NULL, 0, NULL, 0},
	};
	int c;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		const char *bad = NULL;  /* the option whose value is invalid */
		switch (c) {
		case 'h':
			usage_cachesim(stdout);
			return 0;
		case 'j':
			json = 1;
			break;
		case 'F':
			fetch_on_write = 1;
			break;
		case 'S':
			bad = tsr_cli_parse_u64(optarg, 1, 1ull << 31, &size) ? NULL : "--size";
			break;
		case 'L':
			bad = tsr_cli_parse_u64(optarg, 4, 65536, &line) ? NULL : "--line";
			break;
		case 'R':
			bad = tsr_cli_parse_u64(optarg, 1, UINT64_MAX, &seed) ? NULL : "--seed";
			break;
		case 'M':
			bad = tsr_cli_parse_u64(optarg, 1, UINT64_MAX, &max_records) ? NULL
										   : "--max-records";
			break;
		case 'T':
			bad = tsr_cli_parse_u64(optarg, 1, 2, &threads) ? NULL : "--threads (1 or 2)";
			break;
		case 'W':
			ways_arg = optarg;
			break;
		case 'P':
			policy_arg = optarg;
			break;
		case 'l':
			list_policies = 1;
			break;
		case 'm':
			markdown = 1;
			break;
		case 'f':
			format_arg = optarg;
			break;
		case 'p':
			params_arg = optarg;
			break;
		default:
			return tsr_cli_getopt_error("cachesim", c, argv);
		}
		if (bad)
			return tsr_cli_usage_error("invalid %s '%s'", bad, optarg);
	}
	if (markdown && !list_policies)
		return tsr_cli_usage_error("option '--markdown' goes with '--list-policies'");
	if (list_policies)
		return list_policy_table(markdown);
	if (optind < argc)
		path = argv[optind++];
	if (optind < argc)
		return tsr_cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (!path || !size || !ways_arg || !policy_arg) {
		fprintf(stderr, "tessera: 'cachesim' needs a trace, --size, --ways and --policy\n");
		usage_cachesim(stderr);
		return EXIT_USAGE;
	}
	struct tsr_trace_format fmt;
	struct tsr_error ferr = {{0}};
	if (tsr_trace_format_parse(format_arg, params_arg, &fmt, &ferr) != TSR_OK)
		return tsr_cli_usage_error("%s", ferr.msg);
	uint64_t ways = 0;
	if (!strcmp(ways_arg, "full") && size < line)
		return tsr_cli_usage_error("--ways full: --size %llu is smaller than one %llu-byte "
					   "line (--line); a cache holds at least one line",
					   (unsigned long long)size, (unsigned long long)line);
	if (!strcmp(ways_arg, "full"))
		ways = size / line;
	else if (!tsr_cli_parse_u64(ways_arg, 1, 1u << 24, &ways)) {
		return tsr_cli_usage_error("invalid --ways '%s' (a number or 'full')", ways_arg);
	}
	if (ways > TSR_LIMIT_CACHE_WAYS)
		return tsr_cli_usage_error("--ways %s is %llu ways, more than the limit of %u (most "
					   "policies scan every way of a set to choose a victim: use more sets)",
					   ways_arg, (unsigned long long)ways, TSR_LIMIT_CACHE_WAYS);
	struct tsr_cache_geometry g = {.size_bytes = (uint32_t)size, .ways = (uint32_t)ways,
				       .line_bytes = (uint32_t)line, .seed = seed,
				       .fetch_on_write = (uint32_t)fetch_on_write};
	char *list = strdup(policy_arg);
	char *specs[MAX_POLICIES];
	int n = list ? split_policies(list, specs, MAX_POLICIES) : -1;
	struct tsr_error err = {{0}};
	for (int i = 0; i < n; i++) {
		snprintf(g.policy, sizeof(g.policy), "%s", specs[i]);
		enum tsr_status gs = TSR_OK;
		if (strlen(specs[i]) >= sizeof(g.policy) ||
		    (gs = tsr_cache_geometry_check(&g, "cachesim", &err)) != TSR_OK) {
			/* a tag store over the memory limit is a runtime error, not usage */
			int rc = strlen(specs[i]) >= sizeof(g.policy)
				? tsr_cli_usage_error("--policy: spec '%s' is longer than %d "
						      "characters", specs[i],
						      TSR_POLICY_SPEC_MAX - 1)
				: gs == TSR_ERR_LIMIT ? tsr_cli_exit(gs, &err)
				: tsr_cli_usage_error("%s", err.msg);
			free(list);
			return rc;
		}
	}
	if (n <= 0) {
		if (n == 0)
			fprintf(stderr, "tessera: --policy needs at least one policy\n");
		free(list);
		return EXIT_USAGE;
	}

	/* streamed: online policies hold nothing per access, OPT/OPTPT 8 bytes
	 * of next use (cachesim/replay.h) */
	struct tsr_replay_file_info info = {0};
	struct tsr_replay_result *res = calloc((size_t)n, sizeof(*res));
	enum tsr_status s = res ? TSR_OK : tsr_error_set(&err, TSR_ERR_NOMEM, "out of memory");
	if (s == TSR_OK)
		s = tsr_replay_file_format(path, &fmt, max_records, &g, (const char *const *)specs,
					   (uint32_t)n, (unsigned)threads, res, &info, &err);
	double t1 = info.prepare_seconds;
	double t2 = t1 + info.replay_seconds;
	int rc = 0;
	if (s != TSR_OK) {
		rc = tsr_cli_exit(s, &err);
	} else if (json) {
		json_t *root = json_pack("{s:o,s:o,s:I,s:I,s:I,s:{s:I,s:I,s:I,s:I}}",
					 "trace", tsr_json_string(path), "description",
					 tsr_json_string(info.description),
					 "records", (json_int_t)info.records,
					 "accesses", (json_int_t)info.accesses,
					 "distinct_lines", (json_int_t)info.distinct_lines,
					 "geometry", "size_bytes", (json_int_t)size,
					 "ways", (json_int_t)ways, "line_bytes", (json_int_t)line,
					 "sets", (json_int_t)(size / (ways * line)));
		json_t *pols = json_array();
		for (int i = 0; i < n; i++) {
			json_t *st = json_object();
			for (int k = 0; k < TSR_STREAM_COUNT; k++)
				if (res[i].streams[k].reads + res[i].streams[k].writes)
					json_object_set_new(st, tsr_stream_name((enum tsr_stream)k),
							    counters_json(&res[i].streams[k]));
			json_array_append_new(pols, json_pack("{s:o,s:o,s:o}", "policy",
							      tsr_json_string(res[i].policy), "total",
							      counters_json(&res[i].total),
							      "streams", st));
		}
		json_object_set_new(root, "policies", pols);
		char *text = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
		if (text)
			printf("%s\n", text);
		free(text);
		json_decref(root);
	} else {
		printf("trace        %s%s%s%s\n", path, info.description[0] ? " (" : "",
		       info.description, info.description[0] ? ")" : "");
		printf("accesses     %zu line accesses (%zu records), %llu distinct lines\n",
		       info.accesses, info.records, (unsigned long long)info.distinct_lines);
		printf("cache        %llu bytes, %llu-way, %llu-byte lines, %llu sets\n\n",
		       (unsigned long long)size, (unsigned long long)ways,
		       (unsigned long long)line, (unsigned long long)(size / (ways * line)));
		printf("%-20s %-14s %12s %12s %12s %9s %10s %10s\n", "policy", "stream",
		       "accesses", "hits", "misses", "miss", "bypasses", "writebacks");
		for (int i = 0; i < n; i++)
			print_row(res[i].policy, "all", &res[i].total);
		printf("\n");
		for (int i = 0; i < n; i++)
			for (int k = 0; k < TSR_STREAM_COUNT; k++)
				if (res[i].streams[k].reads + res[i].streams[k].writes)
					print_row(res[i].policy, tsr_stream_name((enum tsr_stream)k),
						  &res[i].streams[k]);
	}
	if (s == TSR_OK)
		fprintf(stderr, "next uses in %.2f s; streamed and replayed %zu accesses x %d "
				"policies in %.2f s (%.1f M accesses/s per policy)\n",
			t1, info.accesses, n, t2 - t1,
			t2 > t1 ? (double)info.accesses * n / (t2 - t1) / 1e6 : 0.0);
	free(res);
	free(list);
	return rc;
}
