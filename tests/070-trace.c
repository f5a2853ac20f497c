/*
 * 070-trace.c - memory-access traces (src/trace): the binary form round
 * trips exactly, the cache observer records what a cache sees, the text
 * form parses (tests/data/trace-basic.txt) and names the line of each
 * malformed record, and broken binary files (truncated at every length,
 * flipped bytes, wrong magic or version, hand-made bad records) fail with
 * TSR_ERR_PARSE and a message that says why, never crash.
 *
 * Files are written into a mkdtemp() folder that is emptied and removed
 * at the end. Hand-made binary traces are compressed with ZSTD_compress().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "core/limits.h"
#include "memory/cache.h"
#include "trace/trace.h"

#ifndef TSR_SOURCE_DIR
#error "TSR_SOURCE_DIR must name the repository root"
#endif

static char tmpdir[64];

static int group_setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/tsr-070-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int group_teardown(void **state)
{
	(void)state;
	DIR *d = opendir(tmpdir);
	if (d) {
		struct dirent *e;
		char p[512];
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			snprintf(p, sizeof(p), "%s/%s", tmpdir, e->d_name);
			unlink(p);
		}
		closedir(d);
	}
	rmdir(tmpdir);
	return 0;
}

/* <tmpdir>/<name> in one of a few rotating static buffers. */
static const char *tmp_path(const char *name)
{
	static char paths[4][256];
	static int next;
	char *p = paths[next++ % 4];
	snprintf(p, sizeof(paths[0]), "%s/%s", tmpdir, name);
	return p;
}

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static void write_bytes(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static uint8_t *read_bytes(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	assert_true(len > 0);
	rewind(f);
	uint8_t *b = malloc((size_t)len);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return b;
}

static uint64_t rng_next(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

/*
 * n records exercising the format: small, large and decreasing address
 * deltas, every stream, sizes and requesters up to their limits, writes,
 * frame and tile markers.
 */
static struct tsr_trace_record *gen_records(size_t n, uint64_t seed)
{
	struct tsr_trace_record *r = calloc(n, sizeof(*r));
	assert_non_null(r);
	uint64_t s = seed, addr = 0x10000;
	for (size_t i = 0; i < n; i++) {
		uint64_t x = rng_next(&s);
		switch (x % 16) {
		case 0:
			r[i].kind = TSR_TRACE_FRAME;
			r[i].addr = i;
			continue;
		case 1:
			r[i].kind = TSR_TRACE_TILE;
			r[i].addr = (x >> 8) % 4096;
			continue;
		case 2:
			addr = rng_next(&s);           /* anywhere in 64 bits */
			break;
		case 3:
			addr -= (x >> 8) % 100000;     /* backwards */
			break;
		case 4:
			addr = UINT64_MAX - (x >> 60); /* near the top: wraps on delta */
			break;
		default:
			addr += (x >> 8) % 256;        /* forwards, mostly small */
			break;
		}
		r[i].kind = TSR_TRACE_ACCESS;
		r[i].addr = addr;
		r[i].write = (x >> 20) & 1;
		r[i].stream = (uint8_t)((x >> 24) % TSR_STREAM_COUNT);
		r[i].size = (x >> 30) % 8 == 0 ? TSR_LIMIT_ACCESS_BYTES : 1 + (uint32_t)((x >> 33) % 128);
		/* the delta may wrap, an access may not: it ends at 2^64 - 1 at most */
		if (addr + (r[i].size - 1) < addr)
			r[i].size = (uint32_t)(UINT64_MAX - addr + 1);
		r[i].requester = (x >> 50) % 8 == 0 ? UINT16_MAX : (uint16_t)((x >> 45) % 16);
		/* Parameter Buffer metadata on some accesses, all 32 bits on a few */
		r[i].meta = (x >> 53) % 4 == 0 ? (uint32_t)(x >> 20)
			    : (x >> 53) % 16 == 1 ? UINT32_MAX : 0;
	}
	return r;
}

static void assert_record_equal(const struct tsr_trace_record *a,
				const struct tsr_trace_record *b)
{
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->addr, b->addr);
	if (a->kind == TSR_TRACE_ACCESS) {
		assert_int_equal(a->size, b->size);
		assert_int_equal(a->write, b->write);
		assert_int_equal(a->stream, b->stream);
		assert_int_equal(a->requester, b->requester);
		assert_int_equal(a->meta, b->meta);
	}
}

static void write_trace(const char *path, const char *desc,
			const struct tsr_trace_record *r, size_t n)
{
	struct tsr_trace_writer *w = NULL;
	struct tsr_error err;
	enum tsr_status s = tsr_trace_writer_open(path, desc, &w, &err);
	if (s != TSR_OK)
		print_error("%s\n", err.msg);
	assert_int_equal(s, TSR_OK);
	for (size_t i = 0; i < n; i++)
		tsr_trace_write(w, &r[i]);
	assert_int_equal(tsr_trace_writer_count(w), n);
	s = tsr_trace_writer_close(w, 1, &err);
	if (s != TSR_OK)
		print_error("%s\n", err.msg);
	assert_int_equal(s, TSR_OK);
}

static void load_ok(const char *path, struct tsr_trace *t)
{
	struct tsr_error err;
	enum tsr_status s = tsr_trace_load(path, t, &err);
	if (s != TSR_OK)
		print_error("%s\n", err.msg);
	assert_int_equal(s, TSR_OK);
}

/* Loads path expecting status s and a message containing each fragment. */
static void expect_error(const char *path, enum tsr_status s, const char *frag1,
			 const char *frag2)
{
	struct tsr_trace t;
	struct tsr_error err;
	memset(&err, 0, sizeof(err));
	enum tsr_status got = tsr_trace_load(path, &t, &err);
	if (got != s || (frag1 && !strstr(err.msg, frag1)) || (frag2 && !strstr(err.msg, frag2)))
		print_error("%s: status %d, message \"%s\"\n", path, (int)got, err.msg);
	assert_int_equal(got, s);
	if (frag1)
		assert_non_null(strstr(err.msg, frag1));
	if (frag2)
		assert_non_null(strstr(err.msg, frag2));
	assert_null(t.records);
	assert_int_equal(t.count, 0);
}

/* ---- binary form ---- */

static void test_round_trip(void **state)
{
	(void)state;
	const size_t n = 100000;  /* several writer flushes and reader refills */
	struct tsr_trace_record *r = gen_records(n, 42);
	const char *path = tmp_path("round.trace");
	const char *desc = "cache=l2 workload=test config=tcor frames=4 \xc3\xa9t\xc3\xa9";
	write_trace(path, desc, r, n);
	assert_true(exists(path));
	assert_false(exists(tmp_path("round.trace.tmp")));

	struct tsr_trace t;
	load_ok(path, &t);
	assert_int_equal(t.count, n);
	assert_string_equal(t.description, desc);
	size_t accesses = 0;
	for (size_t i = 0; i < n; i++) {
		assert_record_equal(&t.records[i], &r[i]);
		accesses += r[i].kind == TSR_TRACE_ACCESS;
	}
	assert_int_equal(t.accesses, accesses);
	tsr_trace_release(&t);
	assert_null(t.records);
	assert_int_equal(t.count, 0);

	/* the reader API: description, records, then eof that stays eof */
	struct tsr_trace_reader *rd = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_trace_reader_open(path, &rd, &err), TSR_OK);
	assert_string_equal(tsr_trace_reader_description(rd), desc);
	assert_int_equal(tsr_trace_reader_binary(rd), 1);
	struct tsr_trace_record rec;
	int eof = 0;
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(tsr_trace_read(rd, &rec, &eof, &err), TSR_OK);
		assert_int_equal(eof, 0);
		assert_record_equal(&rec, &r[i]);
	}
	memset(&rec, 0x5a, sizeof(rec));
	for (int k = 0; k < 2; k++) {
		assert_int_equal(tsr_trace_read(rd, &rec, &eof, &err), TSR_OK);
		assert_int_equal(eof, 1);
		assert_int_equal(rec.kind, 0x5a);  /* untouched */
	}
	tsr_trace_reader_close(rd);
	free(r);
}

static void test_empty_and_no_description(void **state)
{
	(void)state;
	const char *path = tmp_path("empty.trace");
	write_trace(path, NULL, NULL, 0);
	struct tsr_trace t;
	load_ok(path, &t);
	assert_int_equal(t.count, 0);
	assert_int_equal(t.accesses, 0);
	assert_string_equal(t.description, "");
	tsr_trace_release(&t);
}

static void test_long_description(void **state)
{
	(void)state;
	/* 300 bytes, the 255th byte inside a 2-byte character */
	char desc[301];
	memset(desc, 'a', 300);
	desc[254] = '\xc3';
	desc[255] = '\xa9';
	desc[300] = '\0';
	const char *path = tmp_path("desc.trace");
	struct tsr_trace_record rec = {.kind = TSR_TRACE_TILE, .addr = 3};
	write_trace(path, desc, &rec, 1);

	struct tsr_trace_reader *rd = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_trace_reader_open(path, &rd, &err), TSR_OK);
	assert_string_equal(tsr_trace_reader_description(rd), desc);
	tsr_trace_reader_close(rd);

	struct tsr_trace t;
	load_ok(path, &t);
	assert_int_equal(strlen(t.description), 254);  /* cut before the character */
	assert_memory_equal(t.description, desc, 254);
	assert_int_equal(t.count, 1);
	tsr_trace_release(&t);
}

static void test_discard(void **state)
{
	(void)state;
	const char *path = tmp_path("discard.trace");
	struct tsr_trace_writer *w = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_trace_writer_open(path, "x", &w, &err), TSR_OK);
	assert_true(exists(tmp_path("discard.trace.tmp")));
	struct tsr_trace_record *r = gen_records(1000, 7);
	for (int i = 0; i < 1000; i++)
		tsr_trace_write(w, &r[i]);
	assert_int_equal(tsr_trace_writer_close(w, 0, &err), TSR_OK);
	assert_false(exists(path));
	assert_false(exists(tmp_path("discard.trace.tmp")));
	free(r);
}

static void test_writer_errors(void **state)
{
	(void)state;
	struct tsr_trace_writer *w = NULL;
	struct tsr_error err;
	const char *path = tmp_path("no-such-dir/x.trace");
	assert_int_equal(tsr_trace_writer_open(path, NULL, &w, &err), TSR_ERR_IO);
	assert_null(w);
	assert_non_null(strstr(err.msg, path));

	/* a record the format cannot hold is latched; close removes the file */
	path = tmp_path("invalid.trace");
	assert_int_equal(tsr_trace_writer_open(path, NULL, &w, &err), TSR_OK);
	struct tsr_trace_record ok = {.kind = TSR_TRACE_ACCESS, .addr = 1, .size = 4};
	struct tsr_trace_record bad = {.kind = TSR_TRACE_ACCESS, .addr = 2, .size = 4,
				       .stream = TSR_STREAM_COUNT};
	tsr_trace_write(w, &ok);
	tsr_trace_write(w, &bad);
	tsr_trace_write(w, &ok);
	assert_int_equal(tsr_trace_writer_count(w), 1);
	assert_int_equal(tsr_trace_writer_close(w, 1, &err), TSR_ERR_INTERNAL);
	assert_non_null(strstr(err.msg, "record 1"));
	assert_non_null(strstr(err.msg, path));
	assert_false(exists(path));
	assert_false(exists(tmp_path("invalid.trace.tmp")));

	/* an access over TSR_LIMIT_ACCESS_BYTES is refused too */
	assert_int_equal(tsr_trace_writer_open(path, NULL, &w, &err), TSR_OK);
	struct tsr_trace_record big = {.kind = TSR_TRACE_ACCESS, .addr = 2,
				       .size = TSR_LIMIT_ACCESS_BYTES + 1};
	tsr_trace_write(w, &big);
	assert_int_equal(tsr_trace_writer_close(w, 1, &err), TSR_ERR_INTERNAL);
	assert_non_null(strstr(err.msg, "size 4097"));
	assert_false(exists(path));
}

/* ---- the cache observer ---- */

static void test_observer(void **state)
{
	(void)state;
	struct tsr_cache_geometry g;
	memset(&g, 0, sizeof(g));
	g.size_bytes = 256;
	g.ways = 2;
	g.line_bytes = 64;
	g.latency_cycles = 1;
	g.fetch_on_write = 1;
	snprintf(g.policy, sizeof(g.policy), "lru");
	struct tsr_cache *c = NULL;
	struct tsr_error err;
	assert_int_equal(tsr_cache_create(&g, "l1", &c, &err), TSR_OK);

	const char *path = tmp_path("observer.trace");
	struct tsr_trace_writer *w = NULL;
	assert_int_equal(tsr_trace_writer_open(path, "cache=l1", &w, &err), TSR_OK);
	struct tsr_cache_observer o = tsr_trace_observer(w);
	tsr_cache_set_observer(c, &o);

	struct tsr_trace_record expect[64];
	size_t n = 0;
	for (uint32_t frame = 0; frame < 2; frame++) {
		tsr_cache_marker(c, TSR_MARKER_FRAME, frame);
		expect[n++] = (struct tsr_trace_record){.kind = TSR_TRACE_FRAME, .addr = frame};
		for (uint64_t tile = 0; tile < 3; tile++) {
			tsr_cache_marker(c, TSR_MARKER_TILE, tile * 5);
			expect[n++] = (struct tsr_trace_record){.kind = TSR_TRACE_TILE,
								.addr = tile * 5};
			for (uint32_t k = 0; k < 4; k++) {
				struct tsr_access a = {
					.addr = 0x1000 + tile * 0x80 + k * 0x40 + frame,
					.size = 1 + k,
					.write = (uint8_t)(k & 1),
					.stream = (uint8_t)((tile + k) % TSR_STREAM_COUNT),
					.requester = (uint16_t)(k + frame),
					.meta = k == 2 ? 0 : 99 + k,  /* recorded (version 2) */
					.next_use = TSR_NEVER};
				struct tsr_cache_outcome out;
				tsr_cache_access(c, &a, &out);
				expect[n++] = (struct tsr_trace_record){
					.kind = TSR_TRACE_ACCESS, .addr = a.addr, .size = a.size,
					.write = a.write, .stream = a.stream,
					.requester = a.requester, .meta = a.meta};
			}
		}
	}
	tsr_cache_set_observer(c, NULL);
	tsr_cache_access(c, &(struct tsr_access){.addr = 1, .size = 1}, &(struct tsr_cache_outcome){0});
	tsr_cache_destroy(c);
	assert_int_equal(tsr_trace_writer_count(w), n);
	assert_int_equal(tsr_trace_writer_close(w, 1, &err), TSR_OK);

	struct tsr_trace t;
	load_ok(path, &t);
	assert_string_equal(t.description, "cache=l1");
	assert_int_equal(t.count, n);
	assert_int_equal(t.accesses, 2 * 3 * 4);
	for (size_t i = 0; i < n; i++)
		assert_record_equal(&t.records[i], &expect[i]);
	tsr_trace_release(&t);
}

/* ---- text form ---- */

static void test_text(void **state)
{
	(void)state;
	static const struct tsr_trace_record expect[] = {
		{.kind = TSR_TRACE_FRAME, .addr = 0},
		{.kind = TSR_TRACE_TILE, .addr = 0},
		{.kind = TSR_TRACE_ACCESS, .addr = 0x1f40, .size = 1, .stream = TSR_STREAM_TEXTURE},
		{.kind = TSR_TRACE_ACCESS, .addr = 0x80, .size = 1, .write = 1,
		 .stream = TSR_STREAM_PB_ATTRIBUTES},
		{.kind = TSR_TRACE_ACCESS, .addr = 4096, .size = 1, .stream = TSR_STREAM_OTHER},
		{.kind = TSR_TRACE_ACCESS, .addr = 0x1f44, .size = 4, .stream = TSR_STREAM_TEXTURE,
		 .requester = 2},
		{.kind = TSR_TRACE_ACCESS, .addr = 0x2000, .size = 64, .write = 1,
		 .stream = TSR_STREAM_COLOR, .requester = 3},
		{.kind = TSR_TRACE_TILE, .addr = 12},
		{.kind = TSR_TRACE_FRAME, .addr = 1},
		{.kind = TSR_TRACE_ACCESS, .addr = UINT64_MAX, .size = 1, .stream = TSR_STREAM_INDEX},
		{.kind = TSR_TRACE_FRAME, .addr = 7},
		{.kind = TSR_TRACE_ACCESS, .addr = 0, .size = 4096, .write = 1,
		 .stream = TSR_STREAM_RENDER_TARGET, .requester = 65535},
		{.kind = TSR_TRACE_FRAME, .addr = 8},
		{.kind = TSR_TRACE_ACCESS, .addr = 0x40, .size = 4, .write = 1,
		 .stream = TSR_STREAM_PB_LISTS, .meta = 0x40009},
		{.kind = TSR_TRACE_ACCESS, .addr = 0x44, .size = 1,
		 .stream = TSR_STREAM_PB_LISTS, .requester = 1, .meta = UINT32_MAX},
	};
	const size_t n = sizeof(expect) / sizeof(expect[0]);
	struct tsr_trace t;
	load_ok(TSR_SOURCE_DIR "/tests/data/trace-basic.txt", &t);
	assert_int_equal(t.count, n);
	assert_int_equal(t.accesses, 9);
	assert_string_equal(t.description, "");
	for (size_t i = 0; i < n; i++)
		assert_record_equal(&t.records[i], &expect[i]);
	tsr_trace_release(&t);

	/* CR LF line ends, no final newline, a very long comment line */
	size_t big = 200000;
	char *text = malloc(big + 128);
	assert_non_null(text);
	int k = snprintf(text, 64, "W 0x10 z size=2\r\n#");
	memset(text + k, 'x', big);
	snprintf(text + k + big, 64, "\r\nF\r\nR 5");
	const char *path = tmp_path("crlf.txt");
	write_bytes(path, text, strlen(text));
	free(text);
	load_ok(path, &t);
	assert_int_equal(t.count, 3);
	assert_record_equal(&t.records[0], &(struct tsr_trace_record){
		.kind = TSR_TRACE_ACCESS, .addr = 0x10, .size = 2, .write = 1,
		.stream = TSR_STREAM_Z});
	assert_record_equal(&t.records[1], &(struct tsr_trace_record){.kind = TSR_TRACE_FRAME});
	assert_record_equal(&t.records[2], &(struct tsr_trace_record){
		.kind = TSR_TRACE_ACCESS, .addr = 5, .size = 1, .stream = TSR_STREAM_OTHER});
	tsr_trace_release(&t);

	/* an empty file and a comment-only file are empty traces */
	path = tmp_path("empty.txt");
	write_bytes(path, "", 0);
	load_ok(path, &t);
	assert_int_equal(t.count, 0);
	tsr_trace_release(&t);
	path = tmp_path("comments.txt");
	write_bytes(path, "# nothing\n\n   \t\n", 16);
	load_ok(path, &t);
	assert_int_equal(t.count, 0);
	tsr_trace_release(&t);
}

static void test_text_errors(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		const char *problem;
	} cases[] = {
		{"X 0x10", "unknown record 'X'"},
		{"r 0x10", "unknown record 'r'"},
		{"RW 0x10", "unknown record 'RW'"},
		{"R", "missing address"},
		{"R 0x", "bad address '0x'"},
		{"R 12ab", "bad address '12ab'"},
		{"R -4", "bad address '-4'"},
		{"R 18446744073709551616", "bad address"},
		{"R 0x10 textures", "unknown stream 'textures' (valid: index, vertex,"},
		{"W 0x10 texture size=0", "size 0"},
		{"W 0x10 texture size=4294967296", "bad size"},
		{"W 0x10 texture size=", "bad size"},
		{"W 0x10 texture size=4097", "size 4097 is more than the limit of 4096 bytes"},
		{"R 0x10 req=65536", "bad requester"},
		{"R 0x10 meta=4294967296", "bad meta"},
		/* issue 12: an access past 2^64 - 1 was dropped; it is refused */
		{"R 0xfffffffffffffffe size=4", "wraps past the end of the 64-bit address space"},
		{"R 0x10 meta=1 meta=2", "meta given twice"},
		{"R 0x10 size=1 size=2", "size given twice"},
		{"R 0x10 sz=1", "unknown option 'sz=1'"},
		{"R 0x10 texture junk", "unexpected 'junk'"},
		{"R 0x10 size=4 texture", "unexpected 'texture'"},
		{"F x", "bad frame number 'x'"},
		{"F 1 2", "unexpected '2'"},
		{"T", "missing tile id"},
		{"T -1", "bad tile id '-1'"},
		{"T 3 4", "unexpected '4'"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[32], text[256], where[320];
		snprintf(name, sizeof(name), "bad-%zu.txt", i);
		/* the bad record is on line 4, after a comment, a blank line and a record */
		snprintf(text, sizeof(text), "# header\n\nR 0x1\n%s   # comment\nR 0x2\n",
			 cases[i].line);
		const char *path = tmp_path(name);
		write_bytes(path, text, strlen(text));
		snprintf(where, sizeof(where), "'%s' line 4: ", path);
		expect_error(path, TSR_ERR_PARSE, where, cases[i].problem);
	}

	/* a NUL byte on a later line */
	const char *path = tmp_path("nul.txt");
	static const char nul_text[] = "R 0x1\nR 0\0x2\n";
	write_bytes(path, nul_text, sizeof(nul_text) - 1);
	char where[320];
	snprintf(where, sizeof(where), "'%s' line 2: ", path);
	expect_error(path, TSR_ERR_PARSE, where, "NUL");

	/* the reader returns the records before the bad line, then the error, twice */
	path = tmp_path("bad-late.txt");
	write_bytes(path, "R 1\nF\nQ\n", 8);
	struct tsr_trace_reader *rd = NULL;
	struct tsr_error err;
	struct tsr_trace_record rec;
	int eof;
	assert_int_equal(tsr_trace_reader_open(path, &rd, &err), TSR_OK);
	assert_string_equal(tsr_trace_reader_description(rd), "");
	assert_int_equal(tsr_trace_reader_binary(rd), 0);
	assert_int_equal(tsr_trace_read(rd, &rec, &eof, &err), TSR_OK);
	assert_int_equal(tsr_trace_read(rd, &rec, &eof, &err), TSR_OK);
	assert_int_equal(rec.kind, TSR_TRACE_FRAME);
	for (int k = 0; k < 2; k++) {
		memset(&err, 0, sizeof(err));
		assert_int_equal(tsr_trace_read(rd, &rec, &eof, &err), TSR_ERR_PARSE);
		assert_int_equal(eof, 0);
		assert_non_null(strstr(err.msg, "line 3: unknown record 'Q'"));
	}
	assert_int_equal(tsr_trace_read(rd, &rec, &eof, NULL), TSR_ERR_PARSE);
	tsr_trace_reader_close(rd);
}

/* ---- broken files ---- */

static void test_missing_file(void **state)
{
	(void)state;
	const char *path = tmp_path("missing.trace");
	expect_error(path, TSR_ERR_IO, path, "cannot open");
	struct tsr_trace_reader *rd = (void *)1;
	struct tsr_error err;
	assert_int_equal(tsr_trace_reader_open(path, &rd, &err), TSR_ERR_IO);
	assert_null(rd);
}

/* A small binary trace, returned as bytes (caller frees). */
static uint8_t *small_trace(size_t *n)
{
	struct tsr_trace_record *r = gen_records(60, 3);
	const char *path = tmp_path("small.trace");
	write_trace(path, "small", r, 60);
	free(r);
	return read_bytes(path, n);
}

static int says_broken(const char *msg)
{
	return strstr(msg, "truncated") || strstr(msg, "corrupt") || strstr(msg, "not a") ||
	       strstr(msg, "neither");
}

static void test_truncated(void **state)
{
	(void)state;
	size_t full;
	uint8_t *b = small_trace(&full);
	const char *path = tmp_path("cut.trace");
	for (size_t len = 0; len < full; len++) {
		write_bytes(path, b, len);
		struct tsr_trace t;
		struct tsr_error err;
		memset(&err, 0, sizeof(err));
		enum tsr_status s = tsr_trace_load(path, &t, &err);
		if (len == 0) {
			/* an empty file is an empty text trace */
			assert_int_equal(s, TSR_OK);
			assert_int_equal(t.count, 0);
			tsr_trace_release(&t);
			continue;
		}
		if (s != TSR_ERR_PARSE || !strstr(err.msg, "truncated"))
			print_error("cut at %zu of %zu: status %d \"%s\"\n", len, full, (int)s,
				    err.msg);
		assert_int_equal(s, TSR_ERR_PARSE);
		assert_non_null(strstr(err.msg, "truncated"));
		assert_non_null(strstr(err.msg, path));
	}
	free(b);
}

static void test_corrupt_flip(void **state)
{
	(void)state;
	size_t full;
	uint8_t *b = small_trace(&full);
	const char *path = tmp_path("flip.trace");
	/*
	 * bytes in the middle of the compressed block: zstd or the checksum
	 * objects (a few, as zstd ignores the odd padding bit)
	 */
	for (size_t i = full / 2 - 2; i <= full / 2 + 2; i++)
		b[i] ^= 0xff;
	write_bytes(path, b, full);
	expect_error(path, TSR_ERR_PARSE, "is corrupt", path);
	for (size_t i = full / 2 - 2; i <= full / 2 + 2; i++)
		b[i] ^= 0xff;
	/* the last byte of the checksum */
	b[full - 1] ^= 0x01;
	write_bytes(path, b, full);
	expect_error(path, TSR_ERR_PARSE, "is corrupt", "checksum");
	b[full - 1] ^= 0x01;
	/* bytes after the frame */
	uint8_t *longer = malloc(full + 3);
	assert_non_null(longer);
	memcpy(longer, b, full);
	memcpy(longer + full, "abc", 3);
	write_bytes(path, longer, full + 3);
	expect_error(path, TSR_ERR_PARSE, "is corrupt", "after the zstd frame");
	free(longer);
	free(b);
}

static void test_fuzz(void **state)
{
	(void)state;
	size_t full;
	uint8_t *b = small_trace(&full);
	uint8_t *f = malloc(full);
	assert_non_null(f);
	const char *path = tmp_path("fuzz.trace");
	uint64_t s = 12345;
	int failures = 0;
	for (int iter = 0; iter < 300; iter++) {
		memcpy(f, b, full);
		int flips = 1 + (int)(rng_next(&s) % 3);
		for (int k = 0; k < flips; k++)
			f[rng_next(&s) % full] ^= (uint8_t)(1 + rng_next(&s) % 255);
		size_t len = iter % 4 == 3 ? (size_t)(rng_next(&s) % full) : full;
		write_bytes(path, f, len);
		struct tsr_trace t;
		struct tsr_error err;
		memset(&err, 0, sizeof(err));
		enum tsr_status st = tsr_trace_load(path, &t, &err);
		if (st == TSR_OK) {
			tsr_trace_release(&t);  /* e.g. a flip in an unused header bit */
			continue;
		}
		failures++;
		if (st != TSR_ERR_PARSE || !says_broken(err.msg))
			print_error("iteration %d: status %d \"%s\"\n", iter, (int)st, err.msg);
		assert_int_equal(st, TSR_ERR_PARSE);
		assert_true(says_broken(err.msg));
	}
	assert_true(failures > 250);
	free(f);
	free(b);
}

/* Compresses content (without checksum) into a file. */
static void write_zstd(const char *path, const void *content, size_t n)
{
	size_t cap = ZSTD_compressBound(n);
	void *z = malloc(cap);
	assert_non_null(z);
	size_t zn = ZSTD_compress(z, cap, content, n, 3);
	assert_false(ZSTD_isError(zn));
	write_bytes(path, z, zn);
	free(z);
}

/* A header: magic, version, description length, description. */
static size_t header(uint8_t *p, const char *magic, uint32_t version, uint32_t dlen)
{
	memcpy(p, magic, 8);
	for (int i = 0; i < 4; i++) {
		p[8 + i] = (uint8_t)(version >> (8 * i));
		p[12 + i] = (uint8_t)(dlen >> (8 * i));
	}
	return 16;
}

static void test_header_errors(void **state)
{
	(void)state;
	uint8_t c[64];
	const char *path = tmp_path("header.trace");

	size_t n = header(c, "TSRTRACE", 3, 0);
	c[n++] = 3;
	c[n++] = 0;
	write_zstd(path, c, n);
	expect_error(path, TSR_ERR_PARSE, "version 3", "this tessera reads versions 1 to 2");
	n = header(c, "TSRTRACE", 0, 0);
	c[n++] = 3;
	c[n++] = 0;
	write_zstd(path, c, n);
	expect_error(path, TSR_ERR_PARSE, "version 0", "versions 1 to 2");

	n = header(c, "TSRTRACX", 1, 0);
	c[n++] = 3;
	c[n++] = 0;
	write_zstd(path, c, n);
	expect_error(path, TSR_ERR_PARSE, "is not a tessera trace", path);

	write_zstd(path, "hello", 5);  /* a complete frame too short for a header */
	expect_error(path, TSR_ERR_PARSE, "is not a tessera trace", NULL);

	n = header(c, "TSRTRACE", 1, 70000);
	write_zstd(path, c, n);
	expect_error(path, TSR_ERR_PARSE, "is corrupt", "description");

	n = header(c, "TSRTRACE", 1, 10);  /* the description is cut short */
	memcpy(c + n, "abc", 3);
	write_zstd(path, c, n + 3);
	expect_error(path, TSR_ERR_PARSE, "truncated", NULL);

	/* not zstd, and a NUL in the first line */
	static const uint8_t gz[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, '\n'};
	write_bytes(path, gz, sizeof(gz));
	expect_error(path, TSR_ERR_PARSE, "is neither a binary (zstd) nor a text trace", path);
}

static void test_bad_records(void **state)
{
	(void)state;
	static const struct {
		uint8_t rec[24];
		size_t n;
		const char *problem;
	} cases[] = {
		/* a tile marker, then an end record counting 2 */
		{{2, 5, 3, 2}, 4, "counts 2 records, not 1"},
		{{8, 0}, 2, "tag 0x08 (meta needs version 2)"},  /* version 1 */
		{{2 | 4, 1}, 2, "tag 0x06"},          /* a marker with the write bit */
		{{3 | 4, 0}, 2, "tag 0x07"},
		{{1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 12,
		 "varint over 10 bytes"},
		{{1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02}, 11,
		 "varint over 10 bytes"},                /* above 2^64 - 1 */
		{{0, 2, 4, TSR_STREAM_COUNT, 0, 3, 1}, 7, "stream 13"},  /* = TSR_STREAM_COUNT */
		{{0, 2, 0, 1, 0, 3, 1}, 7, "size 0"},
		{{0, 2, 0x80, 0x80, 0x80, 0x80, 0x10, 1, 0, 3, 1}, 11, "size 4294967296"},
		{{0, 2, 4, 1, 0x80, 0x80, 0x04, 3, 1}, 9, "requester 65536"},
		{{0, 2, 0x81, 0x20, 1, 0, 3, 1}, 8, "access of 4097 bytes, more than the limit of 4096"},
		{{3, 0, 3, 0}, 4, "data after the end record"},
		{{3, 0, 0}, 3, "data after the end record"},
	};
	_Static_assert(TSR_STREAM_COUNT == 13, "update the expected \"stream N\" message above");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t c[64];
		size_t n = header(c, "TSRTRACE", 1, 1);
		c[n++] = 'd';
		memcpy(c + n, cases[i].rec, cases[i].n);
		char name[32];
		snprintf(name, sizeof(name), "rec-%zu.trace", i);
		const char *path = tmp_path(name);
		write_zstd(path, c, n + cases[i].n);
		expect_error(path, TSR_ERR_PARSE, "is corrupt", cases[i].problem);
	}

	/* version 2: the meta bit adds a u32 varint; other tags stay refused */
	static const struct {
		uint8_t rec[24];
		size_t n;
		const char *problem;
	} v2[] = {
		{{8 | 0, 2, 4, 1, 0, 0x80, 0x80, 0x80, 0x80, 0x10, 3, 1}, 12, "meta 4294967296"},
		{{16, 0}, 2, "tag 0x10"},
		{{2 | 8, 1}, 2, "tag 0x0a"},  /* a marker with the meta bit */
	};
	for (size_t i = 0; i < sizeof(v2) / sizeof(v2[0]); i++) {
		uint8_t c[64];
		size_t n = header(c, "TSRTRACE", 2, 0);
		memcpy(c + n, v2[i].rec, v2[i].n);
		char name[32];
		snprintf(name, sizeof(name), "rec2-%zu.trace", i);
		const char *path = tmp_path(name);
		write_zstd(path, c, n + v2[i].n);
		expect_error(path, TSR_ERR_PARSE, "is corrupt", v2[i].problem);
	}

	/* a complete frame without an end record: the trace is truncated */
	uint8_t c[64];
	size_t n = header(c, "TSRTRACE", 1, 0);
	c[n++] = 1;
	c[n++] = 4;
	c[n++] = 0;   /* an access cut inside its fields */
	c[n++] = 2;
	const char *path = tmp_path("noend.trace");
	write_zstd(path, c, n);
	expect_error(path, TSR_ERR_PARSE, "truncated (after 1 records)", path);

	/* decoded by hand: zigzag deltas, also across 2^64 */
	n = header(c, "TSRTRACE", 1, 0);
	static const uint8_t recs[] = {
		0, 20, 1, 4, 0,             /* +10 -> 10 */
		4, 3, 2, 0, 7,              /* -2 -> 8, write */
		0, 17, 1, 10, 0,            /* -9 -> 2^64 - 1 */
		0, 2, 1, 10, 0,             /* +1 -> 0 */
		3, 4};
	memcpy(c + n, recs, sizeof(recs));
	path = tmp_path("hand.trace");
	write_zstd(path, c, n + sizeof(recs));
	struct tsr_trace t;
	load_ok(path, &t);
	assert_int_equal(t.count, 4);
	assert_int_equal(t.records[0].addr, 10);
	assert_int_equal(t.records[1].addr, 8);
	assert_int_equal(t.records[1].write, 1);
	assert_int_equal(t.records[1].size, 2);
	assert_int_equal(t.records[1].requester, 7);
	assert_int_equal(t.records[2].addr, UINT64_MAX);
	assert_int_equal(t.records[2].stream, 10);
	assert_int_equal(t.records[3].addr, 0);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(t.records[i].meta, 0);  /* version 1: no meta */
	tsr_trace_release(&t);

	/* version 2 by hand: the meta bit (8) adds a varint, else meta is 0 */
	n = header(c, "TSRTRACE", 2, 0);
	static const uint8_t recs2[] = {
		8, 20, 1, 5, 0, 0xa5, 0x80, 0x04,  /* +10 -> 10, meta 0x10025 */
		12, 3, 2, 0, 7, 1,                 /* -2 -> 8, write, meta 1 */
		0, 2, 1, 10, 0,                    /* +1 -> 9, meta 0 */
		3, 3};
	memcpy(c + n, recs2, sizeof(recs2));
	path = tmp_path("hand2.trace");
	write_zstd(path, c, n + sizeof(recs2));
	load_ok(path, &t);
	assert_int_equal(t.count, 3);
	assert_int_equal(t.records[0].addr, 10);
	assert_int_equal(t.records[0].meta, 0x10025);
	assert_int_equal(t.records[0].write, 0);
	assert_int_equal(t.records[1].addr, 8);
	assert_int_equal(t.records[1].write, 1);
	assert_int_equal(t.records[1].meta, 1);
	assert_int_equal(t.records[1].requester, 7);
	assert_int_equal(t.records[2].addr, 9);
	assert_int_equal(t.records[2].meta, 0);
	tsr_trace_release(&t);
}

/*
 * Issue 12 item 3: a reader stops at its record limit (counted while it
 * streams, so a trace that decompresses to more is refused before it is
 * held), and whole-trace loading stops at the memory budget.
 */
static void test_limits(void **state)
{
	(void)state;
	const size_t n = 100000;
	struct tsr_trace_record *r = gen_records(n, 7);
	const char *path = tmp_path("limits.trace");
	write_trace(path, "limits", r, n);
	free(r);
	struct tsr_trace t;
	struct tsr_error err;
	assert_int_equal(tsr_trace_load_max(path, n, &t, &err), TSR_OK);
	assert_int_equal(t.count, n);
	tsr_trace_release(&t);
	memset(&err, 0, sizeof(err));
	assert_int_equal(tsr_trace_load_max(path, n - 1, &t, &err), TSR_ERR_LIMIT);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "more than 99999 records"));
	assert_non_null(strstr(err.msg, "--max-records"));
	assert_null(t.records);

	/* the same for a text trace */
	const char *tpath = tmp_path("limits.txt");
	const char *text = "R 1\nR 2\nF\nR 3\n";
	write_bytes(tpath, text, strlen(text));
	assert_int_equal(tsr_trace_load_max(tpath, 4, &t, &err), TSR_OK);
	tsr_trace_release(&t);
	assert_int_equal(tsr_trace_load_max(tpath, 3, &t, &err), TSR_ERR_LIMIT);
	assert_non_null(strstr(err.msg, "more than 3 records"));

	/* 100000 records of 24 bytes do not fit a 1 MiB budget */
	setenv("TESSERA_MEMORY_LIMIT", "1M", 1);
	assert_int_equal(tsr_memory_budget_bytes(), 1u << 20);
	memset(&err, 0, sizeof(err));
	enum tsr_status st = tsr_trace_load(path, &t, &err);
	unsetenv("TESSERA_MEMORY_LIMIT");
	assert_int_equal(st, TSR_ERR_LIMIT);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "memory limit of 1.0 MiB (TESSERA_MEMORY_LIMIT)"));
	assert_null(t.records);
	assert_true(tsr_memory_budget_bytes() > (1u << 20));

	/* a zstd frame that declares more content than max_records records can
	 * take is refused before decoding (write_zstd declares the size) */
	const size_t markers = 35000, clen = 16 + 2 * markers + 4;
	uint8_t *c = malloc(clen);
	assert_non_null(c);
	size_t k = header(c, "TSRTRACE", 2, 0);
	for (size_t i = 0; i < markers; i++) {
		c[k++] = TSR_TRACE_FRAME;
		c[k++] = 0;
	}
	c[k++] = 3;  /* the end record: 35000 = 0xb8 0x91 0x02 */
	c[k++] = 0xb8;
	c[k++] = 0x91;
	c[k++] = 0x02;
	const char *zpath = tmp_path("declared.trace");
	write_zstd(zpath, c, k);
	free(c);
	assert_int_equal(tsr_trace_load_max(zpath, 1, &t, &err), TSR_ERR_LIMIT);
	assert_non_null(strstr(err.msg, "decompresses to 70020 bytes"));
	assert_non_null(strstr(err.msg, zpath));
	assert_int_equal(tsr_trace_load_max(zpath, markers, &t, &err), TSR_OK);
	assert_int_equal(t.count, markers);
	tsr_trace_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_empty_and_no_description),
		cmocka_unit_test(test_long_description),
		cmocka_unit_test(test_discard),
		cmocka_unit_test(test_writer_errors),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_observer),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_text_errors),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupt_flip),
		cmocka_unit_test(test_fuzz),
		cmocka_unit_test(test_header_errors),
		cmocka_unit_test(test_bad_records),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
