/*
 * 091-report-outputs.c - where outputs land (report/report.h's output
 * transaction, and the CLI through it): a symbolic link (a chain too) to
 * a regular file is written beside its target and stays a link; a FIFO
 * gets the bytes once, directly; /dev/full is an error naming the path
 * with every other output of the transaction left as it was; "-" is
 * standard output for a CSV. No stray file is left in any folder. The
 * frame images written: tsr_frame_list_parse()'s grammar.
 */
/* mkfifo(), symlink(), scandir(), nanosleep(): POSIX.1-2008 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "report/report.h"
#include "test_cli.h"

/* tmpdir/name into path. */
static void at(const char *name, char *path, size_t n)
{
	snprintf(path, n, "%s/%s", tmpdir, name);
}

/* The names in folder tmpdir/sub, sorted, joined by spaces ("" when empty). */
static const char *listing(const char *sub)
{
	static char out[4096];
	char path[512];
	at(sub, path, sizeof(path));
	struct dirent **v;
	int n = scandir(path, &v, NULL, alphasort);
	assert_true(n >= 0);
	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (strcmp(v[i]->d_name, ".") && strcmp(v[i]->d_name, ".."))
			snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s",
				 out[0] ? " " : "", v[i]->d_name);
		free(v[i]);
	}
	free(v);
	return out;
}

static int is_link(const char *name)
{
	char path[512];
	struct stat sb;
	at(name, path, sizeof(path));
	return lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode);
}

static void make_dir(const char *name)
{
	char path[512];
	at(name, path, sizeof(path));
	assert_int_equal(mkdir(path, 0777), 0);
}

static void make_link(const char *text, const char *name)
{
	char path[512];
	at(name, path, sizeof(path));
	assert_int_equal(symlink(text, path), 0);
}

/* A reader of a FIFO on its own thread: everything until end of file. */
struct reader {
	pthread_t thread;
	char path[512];
	char *buf;
	size_t len, cap;
	int opens;  /* times a writer's data began (1 for a single write) */
};

static void *read_fifo(void *arg)
{
	struct reader *r = arg;
	int fd = open(r->path, O_RDONLY);  /* blocks until the writer opens */
	if (fd < 0)
		return NULL;
	r->opens = 1;
	for (;;) {
		if (r->len == r->cap) {
			r->cap = r->cap ? r->cap * 2 : 65536;
			r->buf = realloc(r->buf, r->cap + 1);
		}
		ssize_t n = read(fd, r->buf + r->len, r->cap - r->len);
		if (n <= 0)
			break;
		r->len += (size_t)n;
	}
	close(fd);
	if (r->buf)
		r->buf[r->len] = '\0';
	/* a second open by the writer would find no reader: a non-blocking look */
	fd = open(r->path, O_RDONLY | O_NONBLOCK);
	if (fd >= 0) {
		char c;
		const struct timespec wait = {0, 200000000};
		nanosleep(&wait, NULL);
		if (read(fd, &c, 1) > 0)
			r->opens++;
		close(fd);
	}
	return NULL;
}

/* Makes FIFO tmpdir/name and starts reading it. */
static void reader_start(struct reader *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	at(name, r->path, sizeof(r->path));
	assert_int_equal(mkfifo(r->path, 0666), 0);
	assert_int_equal(pthread_create(&r->thread, NULL, read_fifo, r), 0);
}

static void reader_join(struct reader *r)
{
	pthread_join(r->thread, NULL);
}

/* A copy of tmpdir/name's contents (free() it; "" when absent). */
static char *contents(const char *name)
{
	return strdup(slurp(name));
}

static int setup(void **state)
{
	(void)state;
	return tsr_cli_tmp_setup("tessera-091");
}

static int teardown(void **state)
{
	(void)state;
	return tsr_cli_tmp_teardown();
}

/*
 * A link (and a chain of two links) to a regular file in another folder:
 * the target gets the new bytes, each link stays a link, and neither
 * folder holds anything else afterwards (the temporary and the backup
 * were beside the target, and are gone).
 */
static void test_symlink_to_file(void **state)
{
	(void)state;
	make_dir("links");
	make_dir("targets");
	write_file("targets/a.csv", "old a");
	write_file("targets/b.csv", "old b");
	make_link("../targets/a.csv", "links/a.csv");
	make_link("../targets/b.csv", "links/hop.csv");
	make_link("hop.csv", "links/b.csv");  /* b -> hop -> targets/b.csv */
	char dir[512];
	at("links", dir, sizeof(dir));
	struct tsr_output o;
	struct tsr_error err;
	assert_int_equal(tsr_output_open(&o, dir, &err), TSR_OK);
	assert_int_equal(tsr_output_plan(&o, "a.csv", TSR_OUTPUT_IN_DIR, &err), TSR_OK);
	assert_int_equal(tsr_output_plan(&o, "b.csv", TSR_OUTPUT_IN_DIR, &err), TSR_OK);
	/* a third output through another link to a.csv is the same file */
	make_link("../targets/a.csv", "links/again.csv");
	assert_int_equal(tsr_output_plan(&o, "again.csv", TSR_OUTPUT_IN_DIR, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "same file"));
	assert_int_equal(tsr_output_write(&o, "a.csv", "new a", 5, &err), TSR_OK);
	assert_int_equal(tsr_output_write(&o, "b.csv", "new b", 5, &err), TSR_OK);
	/* meanwhile the temporaries are beside the targets, none beside the links */
	assert_string_equal(listing("targets"), "a.csv a.csv.tmp b.csv b.csv.tmp");
	assert_string_equal(listing("links"), "a.csv again.csv b.csv hop.csv");
	assert_int_equal(tsr_output_commit(&o, &err), TSR_OK);
	assert_string_equal(slurp("targets/a.csv"), "new a");
	assert_string_equal(slurp("targets/b.csv"), "new b");
	assert_true(is_link("links/a.csv") && is_link("links/b.csv") && is_link("links/hop.csv"));
	assert_string_equal(listing("targets"), "a.csv b.csv");
	assert_string_equal(listing("links"), "a.csv again.csv b.csv hop.csv");
	/* a dangling link: its target is created, the link stays */
	make_link("../targets/new.csv", "links/dangling.csv");
	assert_int_equal(tsr_output_open(&o, dir, &err), TSR_OK);
	assert_int_equal(tsr_output_write(&o, "dangling.csv", "made", 4, &err), TSR_OK);
	assert_int_equal(tsr_output_commit(&o, &err), TSR_OK);
	assert_true(is_link("links/dangling.csv"));
	assert_string_equal(slurp("targets/new.csv"), "made");
	assert_string_equal(listing("targets"), "a.csv b.csv new.csv");
	/* a loop of links is an error before anything is written */
	make_link("loop2", "links/loop1");
	make_link("loop1", "links/loop2");
	assert_int_equal(tsr_output_open(&o, dir, &err), TSR_OK);
	assert_int_equal(tsr_output_plan(&o, "loop1", TSR_OUTPUT_IN_DIR, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "symbolic links"));
	tsr_output_abort(&o);
}

/*
 * A FIFO among regular files: its reader gets the bytes exactly once (one
 * open, the whole text, then end of file), the file beside it is renamed
 * into place, and the FIFO stays a FIFO with no temporary made.
 */
static void test_fifo(void **state)
{
	(void)state;
	make_dir("f");
	struct reader r;
	reader_start(&r, "f/pipe.csv");
	char dir[512];
	at("f", dir, sizeof(dir));
	static char text[200000];  /* more than a pipe's buffer */
	for (size_t i = 0; i < sizeof(text) - 1; i++)
		text[i] = (char)('a' + i % 26);
	struct tsr_output o;
	struct tsr_error err;
	assert_int_equal(tsr_output_open(&o, dir, &err), TSR_OK);
	assert_int_equal(tsr_output_plan(&o, "pipe.csv", TSR_OUTPUT_IN_DIR, &err), TSR_OK);
	assert_int_equal(tsr_output_plan(&o, "file.csv", TSR_OUTPUT_IN_DIR, &err), TSR_OK);
	assert_int_equal(tsr_output_write(&o, "pipe.csv", text, strlen(text), &err), TSR_OK);
	assert_int_equal(tsr_output_write(&o, "file.csv", "beside", 6, &err), TSR_OK);
	assert_string_equal(listing("f"), "file.csv.tmp pipe.csv");
	assert_int_equal(r.opens, 0);  /* nothing before commit */
	assert_int_equal(tsr_output_commit(&o, &err), TSR_OK);
	reader_join(&r);
	assert_int_equal(r.opens, 1);
	assert_int_equal(r.len, strlen(text));
	assert_memory_equal(r.buf, text, r.len);
	free(r.buf);
	assert_string_equal(slurp("f/file.csv"), "beside");
	assert_string_equal(listing("f"), "file.csv pipe.csv");
	struct stat sb;
	assert_int_equal(stat(r.path, &sb), 0);
	assert_true(S_ISFIFO(sb.st_mode));
}

/*
 * /dev/full through a link, with two regular files in the same
 * transaction: commit fails with ENOSPC naming the output, no file
 * changes (the old one keeps its bytes, the new one does not appear),
 * abort leaves no temporary, and the link stays a link.
 */
static void test_dev_full(void **state)
{
	(void)state;
	make_dir("d");
	write_file("d/old.csv", "old");
	make_link("/dev/full", "d/full.csv");
	char dir[512];
	at("d", dir, sizeof(dir));
	struct tsr_output o;
	struct tsr_error err;
	assert_int_equal(tsr_output_open(&o, dir, &err), TSR_OK);
	assert_int_equal(tsr_output_write(&o, "old.csv", "new", 3, &err), TSR_OK);
	assert_int_equal(tsr_output_write(&o, "full.csv", "data", 4, &err), TSR_OK);
	assert_int_equal(tsr_output_write(&o, "fresh.csv", "fresh", 5, &err), TSR_OK);
	assert_int_equal(tsr_output_commit(&o, &err), TSR_ERR_IO);
	assert_non_null(strstr(err.msg, "d/full.csv"));
	assert_non_null(strstr(err.msg, strerror(ENOSPC)));
	tsr_output_abort(&o);
	assert_string_equal(slurp("d/old.csv"), "old");
	assert_string_equal(listing("d"), "full.csv old.csv");
	assert_true(is_link("d/full.csv"));
	/* a folder is refused when planned */
	assert_int_equal(tsr_output_open(&o, NULL, &err), TSR_OK);
	assert_int_equal(tsr_output_plan(&o, dir, 0, &err), TSR_ERR_CONFIG);
	assert_non_null(strstr(err.msg, "is a folder"));
	tsr_output_abort(&o);
}

/* A text trace of a loop (075's): 7 texture lines over 3 frames. */
static void write_loop_trace(void)
{
	char text[4096] = "";
	for (int fr = 0; fr < 3; fr++) {
		strcat(text, "F\n");
		for (int l = 0; l < 7; l++) {
			char line[64];
			if (l % 4 == 0) {
				snprintf(line, sizeof(line), "T %d\n", l / 4);
				strcat(text, line);
			}
			snprintf(line, sizeof(line), "R 0x%x texture\n", l * 64);
			strcat(text, line);
		}
	}
	write_file("loop.txt", text);
}

/*
 * `tessera analyze --csv` through the CLI: a link into another folder, a
 * FIFO read by a thread, /dev/full (exit 1, the message names it, nothing
 * written) and "-" (the CSV alone on standard output, the tables on
 * standard error) all give the bytes of the plain file.
 */
static void test_cli_csv(void **state)
{
	(void)state;
	write_loop_trace();
	assert_int_equal(tessera("analyze frames loop.txt --csv ref.csv"), 0);
	char *ref = contents("ref.csv");
	assert_non_null(strstr(ref, "frame,stream,accesses"));
	/* a link */
	make_dir("l");
	make_dir("t");
	write_file("t/target.csv", "old");
	make_link("../t/target.csv", "l/link.csv");
	assert_int_equal(tessera("analyze frames loop.txt --csv l/link.csv"), 0);
	assert_true(is_link("l/link.csv"));
	assert_string_equal(slurp("t/target.csv"), ref);
	assert_string_equal(listing("l"), "link.csv");
	assert_string_equal(listing("t"), "target.csv");
	/* a FIFO */
	struct reader r;
	reader_start(&r, "pipe.csv");
	assert_int_equal(tessera("analyze frames loop.txt --csv pipe.csv"), 0);
	reader_join(&r);
	assert_int_equal(r.opens, 1);
	assert_non_null(r.buf);
	assert_string_equal(r.buf, ref);
	free(r.buf);
	/* /dev/full, named and through a link */
	assert_int_equal(tessera("analyze frames loop.txt --csv /dev/full"), 1);
	assert_non_null(strstr(slurp("err.txt"), "cannot write '/dev/full'"));
	assert_non_null(strstr(slurp("err.txt"), strerror(ENOSPC)));
	make_link("/dev/full", "l/full.csv");
	assert_int_equal(tessera("analyze frames loop.txt --csv l/full.csv"), 1);
	assert_non_null(strstr(slurp("err.txt"), "'l/full.csv'"));
	assert_string_equal(listing("l"), "full.csv link.csv");
	/* "-" */
	assert_int_equal(tessera("analyze frames loop.txt --csv -"), 0);
	assert_string_equal(slurp("out.txt"), ref);
	assert_non_null(strstr(slurp("err.txt"), "last-first"));
	assert_true(access("-", F_OK) != 0);
	/* "-" on a full standard output: exit 1, the message says so */
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' analyze frames loop.txt --csv - >/dev/full "
		 "2>err.txt", tmpdir, TSR_BINARY);
	int st = system(cmd);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 1);
	assert_non_null(strstr(slurp("err.txt"), "cannot write standard output"));
	free(ref);
}

/* A short `tessera run` (one frame, no image). */
#define RUN "run sprites-2d --frames 1 --quiet --dump-frames none"

/*
 * `tessera run`: stats.json as a link to a file elsewhere (written there,
 * the link stays, no stray file in either folder); frames.csv as a link
 * to /dev/full (exit 1 naming it, stats.json not written, no temporary
 * left); a trace to a FIFO (its reader gets the same bytes as the trace
 * written to a file).
 */
static void test_cli_run(void **state)
{
	(void)state;
	make_dir("o");
	make_dir("elsewhere");
	write_file("elsewhere/s.json", "old");
	make_link("../elsewhere/s.json", "o/stats.json");
	assert_int_equal(tessera(RUN " --out o --record-trace l2=l2.trace"), 0);
	assert_true(is_link("o/stats.json"));
	assert_non_null(strstr(slurp("elsewhere/s.json"), "\"tessera_version\""));
	assert_string_equal(listing("o"), "frames.csv stats.json");
	assert_string_equal(listing("elsewhere"), "s.json");
	/* /dev/full in the output folder: nothing else changes */
	make_dir("p");
	make_link("/dev/full", "p/frames.csv");
	assert_int_equal(tessera(RUN " --out p --record-trace l2=p2.trace"), 1);
	assert_non_null(strstr(slurp("err.txt"), "p/frames.csv"));
	assert_non_null(strstr(slurp("err.txt"), strerror(ENOSPC)));
	assert_string_equal(listing("p"), "frames.csv");
	assert_true(is_link("p/frames.csv"));
	assert_true(access("p2.trace", F_OK) != 0);
	/* a trace to /dev/full: exit 1, the output folder made for the run is gone */
	assert_int_equal(tessera(RUN " --out q --record-trace l2=/dev/full"), 1);
	assert_non_null(strstr(slurp("err.txt"), "'/dev/full'"));
	assert_true(access("q", F_OK) != 0);
	/* a trace to a FIFO */
	struct reader r;
	reader_start(&r, "l2.fifo");
	assert_int_equal(tessera(RUN " --out o2 --record-trace l2=l2.fifo"), 0);
	reader_join(&r);
	assert_int_equal(r.opens, 1);
	char path[512];
	at("l2.trace", path, sizeof(path));
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(r.len, (size_t)sb.st_size);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *want = malloc(r.len + 1);
	assert_int_equal(fread(want, 1, r.len, f), r.len);
	fclose(f);
	assert_memory_equal(r.buf, want, r.len);
	free(want);
	free(r.buf);
	/* '-' is for text outputs: a trace to it is a usage error */
	assert_int_equal(tessera(RUN " --out o3 --record-trace l2=-"), 2);
	assert_non_null(strstr(slurp("err.txt"), "standard output"));
}

/* all, none, last and lists; a bad item is named. */
static void test_frame_list(void **state)
{
	(void)state;
	struct tsr_frame_list l;
	struct tsr_error err;
	assert_int_equal(tsr_frame_list_parse(NULL, &l, &err), TSR_OK);
	assert_true(tsr_frame_list_has(&l, 7, 8));
	assert_int_equal(tsr_frame_list_parse("none", &l, &err), TSR_OK);
	assert_false(tsr_frame_list_has(&l, 0, 1));
	assert_int_equal(tsr_frame_list_parse("last", &l, &err), TSR_OK);
	assert_false(tsr_frame_list_has(&l, 6, 8));
	assert_true(tsr_frame_list_has(&l, 7, 8));
	assert_int_equal(tsr_frame_list_parse("9,0,3", &l, &err), TSR_OK);
	assert_int_equal(l.n, 10);
	const char want[] = "1001000001000";
	for (uint32_t f = 0; f < 13; f++)
		assert_int_equal(tsr_frame_list_has(&l, f, 13), want[f] == '1');
	tsr_frame_list_release(&l);
	assert_int_equal(l.kind, TSR_FRAMES_ALL);
	const char *bad[] = {"1,,2", "1,x", "-1", "2 ", "", "99999999999999999999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		assert_int_equal(tsr_frame_list_parse(bad[i], &l, &err), TSR_ERR_CONFIG);
		assert_non_null(strstr(err.msg, "is not a frame number"));
		tsr_frame_list_release(&l);
	}
	assert_int_equal(tsr_frame_list_parse("1,x", &l, &err), TSR_ERR_CONFIG);
	assert_string_equal(err.msg, "'1,x': item 'x' is not a frame number (use all, none, "
				     "last or a list like 0,5,9 or 0-3,8)");
	tsr_frame_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_list),
		cmocka_unit_test_setup_teardown(test_symlink_to_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dev_full, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cli_csv, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cli_run, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
