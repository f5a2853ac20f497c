/*
 * 071-trace-formats.c - libCacheSim's trace formats (trace/trace.h,
 * trace_lcs.c) and `tessera trace convert`: round trips tessera ->
 * oracleGeneral -> tessera and txt / csv -> tessera -> oracleGeneral keep
 * every request (object ids in order, next accesses equal to a brute-force
 * search); detection by content; cachesim gives the same misses (LRU,
 * FIFO, OPT) on one request sequence in every format, OPT from
 * oracleGeneral's own next accesses equal to OPT's computed ones; bad
 * input (a truncated record, an unknown format, a CSV without the named
 * column, a next access before its record) is one message naming the
 * file and the record or line, exit 1, and no output file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_cli.h"
#include "trace/trace.h"

#define N 20000       /* requests of the generated sequence */
#define OBJECTS 3000  /* distinct objects */

static uint64_t ids[N];

static int group_setup(void **state)
{
	(void)state;
	/* a skewed sequence: half the requests to 5% of the objects */
	uint64_t x = 12345;
	for (size_t i = 0; i < N; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t r = x >> 33;
		ids[i] = (r & 1) ? 1 + (r >> 1) % (OBJECTS / 20) : 1 + (r >> 1) % OBJECTS;
	}
	return tsr_cli_tmp_setup("tsr-071");
}

static int group_teardown(void **state)
{
	(void)state;
	return tsr_cli_tmp_teardown();
}

static const char *path_of(const char *name)
{
	static char p[4][512];
	static int k;
	k = (k + 1) & 3;
	snprintf(p[k], sizeof(p[k]), "%s/%s", tmpdir, name);
	return p[k];
}

static int exists(const char *name)
{
	struct stat st;
	return stat(path_of(name), &st) == 0;
}

/* The i-th request's next request to the same object (brute force), or UINT64_MAX. */
static uint64_t next_of(size_t i)
{
	for (size_t j = i + 1; j < N; j++)
		if (ids[j] == ids[i])
			return j;
	return UINT64_MAX;
}

/* Writes ids[] as a tessera binary trace of 64-byte reads with a frame marker every 5000. */
static void write_tessera(const char *name)
{
	struct tsr_trace_writer *w;
	struct tsr_error err;
	assert_int_equal(tsr_trace_writer_open(path_of(name), "test", &w, &err), TSR_OK);
	for (size_t i = 0; i < N; i++) {
		if (i % 5000 == 0) {
			struct tsr_trace_record m = {.kind = TSR_TRACE_FRAME, .addr = i / 5000};
			tsr_trace_write(w, &m);
		}
		struct tsr_trace_record r = {.kind = TSR_TRACE_ACCESS, .addr = ids[i] * 64,
					     .size = 64, .stream = TSR_STREAM_OTHER};
		tsr_trace_write(w, &r);
	}
	assert_int_equal(tsr_trace_writer_close(w, 1, &err), TSR_OK);
}

/*
 * Reads `name` (format fmt, NULL: by content) and checks that its accesses
 * are ids[] (64-byte reads of lines id x 64), with next accesses when the
 * format has them; returns the format read.
 */
static enum tsr_trace_format_kind check_ids(const char *name, const struct tsr_trace_format *fmt)
{
	struct tsr_trace_reader *r;
	struct tsr_error err;
	enum tsr_status s = tsr_trace_reader_open_format(path_of(name), fmt, &r, &err);
	if (s != TSR_OK)
		fail_msg("%s", err.msg);
	const int has_next = tsr_trace_reader_has_next(r);
	static struct tsr_trace_record recs[N + 16];
	static uint64_t next[N + 16];
	size_t got = 0, k = 0;
	int eof = 0;
	while (!eof) {
		size_t n;
		s = tsr_trace_read_many_next(r, recs + got, next + got, 1000, &n, &eof, &err);
		if (s != TSR_OK)
			fail_msg("%s", err.msg);
		got += n;
		assert_true(got <= N + 8);
	}
	for (size_t i = 0; i < got; i++) {
		if (recs[i].kind != TSR_TRACE_ACCESS)
			continue;
		assert_true(k < N);
		assert_int_equal(recs[i].addr, ids[k] * 64);
		assert_int_equal(recs[i].size, 64);
		assert_int_equal(recs[i].write, 0);
		if (has_next) {
			assert_int_equal(i, k);
			assert_int_equal(next[i], next_of(k));
		}
		k++;
	}
	assert_int_equal(k, N);
	enum tsr_trace_format_kind kind = tsr_trace_reader_format(r);
	tsr_trace_reader_close(r);
	return kind;
}

static void test_oracle_general_round_trip(void **state)
{
	(void)state;
	write_tessera("a.trace");
	assert_int_equal(tessera("trace convert a.trace a.oracleGeneral"), 0);
	struct stat st;
	assert_int_equal(stat(path_of("a.oracleGeneral"), &st), 0);
	assert_int_equal(st.st_size, 24 * N);  /* one record per request, markers dropped */
	assert_int_equal(check_ids("a.oracleGeneral", NULL), TSR_TRACE_FMT_ORACLE_GENERAL);
	/* the fields as libCacheSim reads them: time the frame, size the line */
	FILE *f = fopen(path_of("a.oracleGeneral"), "rb");
	assert_non_null(f);
	uint8_t rec[24];
	assert_int_equal(fseek(f, 24 * 7000, SEEK_SET), 0);
	assert_int_equal(fread(rec, 1, 24, f), 24);
	fclose(f);
	uint32_t t, sz;
	uint64_t id;
	int64_t nx;
	memcpy(&t, rec, 4);
	memcpy(&id, rec + 4, 8);
	memcpy(&sz, rec + 12, 4);
	memcpy(&nx, rec + 16, 8);
	assert_int_equal(t, 1);
	assert_int_equal(id, ids[7000]);
	assert_int_equal(sz, 64);
	assert_int_equal(nx, next_of(7000) == UINT64_MAX ? -1 : (int64_t)next_of(7000) + 1);
	/* and back: every request a 64-byte read of its line */
	assert_int_equal(tessera("trace convert a.oracleGeneral b.trace"), 0);
	assert_int_equal(check_ids("b.trace", NULL), TSR_TRACE_FMT_TESSERA);
	/* explicit formats both ways */
	assert_int_equal(tessera("trace convert b.trace c.og --to oracleGeneral"), 0);
	struct tsr_trace_format og;
	struct tsr_error err;
	assert_int_equal(tsr_trace_format_parse("oracleGeneral", NULL, &og, &err), TSR_OK);
	check_ids("c.og", &og);
	assert_int_equal(tessera("trace convert c.og d.trace --format oracleGeneral --to tessera"),
			 0);
	check_ids("d.trace", NULL);
}

static void test_txt_and_csv(void **state)
{
	(void)state;
	static char txt[N * 12], csv[N * 40];
	size_t a = 0, b = 0;
	b += (size_t)sprintf(csv + b, "time;key;size\n");
	for (size_t i = 0; i < N; i++) {
		a += (size_t)sprintf(txt + a, i % 7 ? "%llu\n" : "0x%llx\n",
				     (unsigned long long)ids[i]);
		b += (size_t)sprintf(csv + b, "%zu;%llu;%u\n", i, (unsigned long long)ids[i],
				     100 + (unsigned)i % 50);
	}
	write_file("a.txt", txt);
	write_file("a.csv", csv);
	assert_int_equal(check_ids("a.txt", NULL), TSR_TRACE_FMT_TXT);
	struct tsr_trace_format f;
	struct tsr_error err;
	assert_int_equal(tsr_trace_format_parse("csv", "obj-id-col=2,time-col=1,obj-size-col=3,"
						 "delimiter=;,has-header=true",
						 &f, &err),
			 TSR_OK);
	assert_int_equal(f.delimiter, ';');
	assert_int_equal(f.obj_id_col, 2);
	assert_int_equal(f.has_header, 1);
	assert_int_equal(check_ids("a.csv", &f), TSR_TRACE_FMT_CSV);
	/* txt -> tessera -> oracleGeneral keeps every request, with next accesses */
	assert_int_equal(tessera("trace convert a.txt t.trace"), 0);
	check_ids("t.trace", NULL);
	assert_int_equal(tessera("trace convert t.trace t.og"), 0);
	check_ids("t.og", NULL);
	assert_int_equal(tessera("trace convert a.csv c.trace --format csv --trace-params "
				 "'obj-id-col=2,delimiter=;'"), 0);
	check_ids("c.trace", NULL);
	assert_int_equal(tessera("trace convert a.csv c.og --to oracleGeneral --format csv "
				 "--trace-params 'obj-id-col=2,delimiter=;'"), 0);
	check_ids("c.og", NULL);

	/* libCacheSim's parameter spellings */
	assert_int_equal(tsr_trace_format_parse("CSV", "obj-id-col=1,delimiter=,,header=false", &f,
						 &err), TSR_OK);
	assert_int_equal(f.delimiter, ',');
	assert_int_equal(f.has_header, 0);
	assert_int_equal(tsr_trace_format_parse("csv", "obj_id_col=3,delimiter=\\t", &f, &err),
			 TSR_OK);
	assert_int_equal(f.delimiter, '\t');
	assert_int_equal(f.obj_id_col, 3);
	assert_int_equal(tsr_trace_format_parse("csv", "time-col=1", &f, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "obj-id-col"));
	assert_int_equal(tsr_trace_format_parse("csv", "obj-id-col=1,colour=2", &f, &err),
			 TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "colour"));
	assert_int_equal(tsr_trace_format_parse("parquet", NULL, &f, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "parquet"));

	/* ids that are text: hashed, the same text the same object */
	write_file("s.csv", "k1,a\nk2,b\nk1,c\n");
	assert_int_equal(tsr_trace_format_parse("csv", "obj-id-col=1,obj-id-is-num=false", &f,
						 &err), TSR_OK);
	struct tsr_trace t;
	assert_int_equal(tsr_trace_load_format(path_of("s.csv"), &f, 0, &t, &err), TSR_OK);
	assert_int_equal(t.count, 3);
	assert_int_equal(t.records[0].addr, t.records[2].addr);
	assert_true(t.records[0].addr != t.records[1].addr);
	tsr_trace_release(&t);
}

/* The misses of policy in the JSON of the last `tessera cachesim --json` (out.txt). */
static long long misses_of(const char *policy)
{
	const char *out = slurp("out.txt");
	char key[64];
	snprintf(key, sizeof(key), "\"policy\": \"%s\"", policy);
	const char *p = strstr(out, key);
	assert_non_null(p);
	p = strstr(p, "\"misses\": ");
	assert_non_null(p);
	return atoll(p + 10);
}

static void test_same_misses_every_format(void **state)
{
	(void)state;
	/* a.trace, a.oracleGeneral, a.txt, a.csv from the tests before */
	if (!exists("a.trace"))
		write_tessera("a.trace");
	if (!exists("a.oracleGeneral"))
		assert_int_equal(tessera("trace convert a.trace a.oracleGeneral"), 0);
	const char *inputs[] = {"a.trace", "a.oracleGeneral --threads 1",
				"a.oracleGeneral --threads 2", "a.txt",
				"a.csv --format csv --trace-params 'obj-id-col=2,delimiter=;'"};
	long long ref[3] = {0};
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		if (!exists("a.txt") && strstr(inputs[i], "a.t"))
			continue;
		if (!exists("a.csv") && strstr(inputs[i], "a.csv"))
			continue;
		int rc = tessera("cachesim %s --size 32K --ways full --policy lru,fifo,opt --json",
				 inputs[i]);
		if (rc)
			fail_msg("%s: %s", inputs[i], slurp("err.txt"));
		long long m[3] = {misses_of("lru"), misses_of("fifo"), misses_of("opt")};
		if (i == 0) {
			memcpy(ref, m, sizeof(ref));
			assert_true(m[2] < m[0] && m[0] < N);
		}
		for (int k = 0; k < 3; k++)
			if (m[k] != ref[k])
				fail_msg("%s: policy %d: %lld misses, tessera trace %lld", inputs[i], k,
					 m[k], ref[k]);
	}
	/* analyze reads them too: the same distinct lines */
	assert_int_equal(tessera("analyze reuse a.oracleGeneral"), 0);
	char distinct[64];
	const char *p = strstr(slurp("out.txt"), "distinct lines");
	assert_non_null(p);
	snprintf(distinct, sizeof(distinct), "%.20s", p);
	assert_int_equal(tessera("analyze reuse a.trace"), 0);
	assert_non_null(strstr(slurp("out.txt"), distinct));
}

/* `tessera ARGS` fails with exit 1, one stderr line holding each fragment, nothing on stdout. */
static void expect_failure(const char *args, const char *frag1, const char *frag2)
{
	int rc = tessera("%s", args);
	const char *err = slurp("err.txt");
	if (rc != 1 || !strstr(err, frag1) || (frag2 && !strstr(err, frag2)))
		fail_msg("'%s': exit %d, stderr \"%s\"", args, rc, err);
	const char *nl = strchr(err, '\n');
	assert_true(nl && nl[1] == '\0');  /* one message */
	assert_string_equal(slurp("out.txt"), "");
}

static void test_bad_input(void **state)
{
	(void)state;
	/* a truncated record: 3 records and 10 bytes */
	static uint8_t og[24 * 3 + 10];
	for (size_t i = 0; i < 3; i++) {
		uint64_t id = i + 1;
		int64_t nx = -1;
		memcpy(og + 24 * i + 4, &id, 8);
		memcpy(og + 24 * i + 16, &nx, 8);
	}
	FILE *f = fopen(path_of("cut.oracleGeneral"), "wb");
	assert_non_null(f);
	fwrite(og, 1, sizeof(og), f);
	fclose(f);
	expect_failure("cachesim cut.oracleGeneral --format oracleGeneral --size 1K --ways full "
		       "--policy lru", "'cut.oracleGeneral' record 4 is truncated", "10 of 24");
	expect_failure("trace convert cut.oracleGeneral cut.trace --format oracleGeneral",
		       "record 4 is truncated", NULL);
	assert_false(exists("cut.trace"));
	assert_false(exists("cut.trace.tmp"));
	/* unknown by content: binary, not a whole number of records */
	expect_failure("cachesim cut.oracleGeneral --size 1K --ways full --policy lru",
		       "'cut.oracleGeneral' is neither", "record 4 would be truncated");
	expect_failure("analyze reuse cut.oracleGeneral", "'cut.oracleGeneral' is neither", NULL);
	/* a CSV without the named column, and one not named at all */
	write_file("bad.csv", "1,10\n2,20\n3\n4,40\n");
	expect_failure("cachesim bad.csv --format csv --trace-params obj-id-col=2 --size 1K "
		       "--ways full --policy lru", "'bad.csv' line 3: no column 2", NULL);
	expect_failure("trace convert bad.csv bad.og --to oracleGeneral --format csv "
		       "--trace-params obj-id-col=2", "'bad.csv' line 3", NULL);
	assert_false(exists("bad.og"));
	expect_failure("cachesim bad.csv --size 1K --ways full --policy lru",
		       "'bad.csv' looks like a CSV trace", "obj-id-col");
	/* txt: a line that is not an object id */
	write_file("bad.txt", "1\n2\n\n3x\n");
	expect_failure("cachesim bad.txt --size 1K --ways full --policy lru",
		       "'bad.txt' line 4: '3x' is not an object id", NULL);
	/* a next access that is not after its record */
	int64_t back = 1;
	memcpy(og + 24 + 16, &back, 8);
	f = fopen(path_of("back.oracleGeneral"), "wb");
	assert_non_null(f);
	fwrite(og, 1, 24 * 3, f);
	fclose(f);
	expect_failure("cachesim back.oracleGeneral --size 1K --ways full --policy opt",
		       "'back.oracleGeneral' record 2: next access 1 is not after", NULL);
	/* an unknown --format is a usage error */
	assert_int_equal(tessera("cachesim bad.txt --format foo --size 1K --ways full "
				 "--policy lru"), 2);
	assert_non_null(strstr(slurp("err.txt"), "unknown trace format 'foo'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oracle_general_round_trip),
		cmocka_unit_test(test_txt_and_csv),
		cmocka_unit_test(test_same_misses_every_format),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
