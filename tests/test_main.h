/*
 * test_main.h - a test program's main() that runs its cmocka group whole
 * or one part of it, so that ctest can run a slow file as several entries
 * in parallel (tests/CMakeLists.txt, TSR_TEST_PARTS_<file>).
 *
 *   test-NNN-name                          every test of the group
 *   test-NNN-name --part K P1 P2 ... Pn    the tests of part K (1..n) only
 *   test-NNN-name --list                   the tests' names, one a line
 *
 * Each Pi is a comma-separated list of test names, or "*": every test that
 * no other part names (at most one such part). Every invocation with
 * --part is given all the parts, and fails (exit 2, naming the test) unless
 * every test of the group is in exactly one part and every name is a test:
 * a test added to the file but to no part (without a "*" part), or a part
 * naming a renamed test, fails each of the file's ctest entries instead of
 * going unrun.
 * Include after <cmocka.h>.
 */
#ifndef TSR_TESTS_TEST_MAIN_H
#define TSR_TESTS_TEST_MAIN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Index of the test named name[0..len) in tests, or -1. */
static inline long tsr_test_find(const struct CMUnitTest *tests, size_t n, const char *name,
				 size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(tests[i].name) == len && strncmp(tests[i].name, name, len) == 0)
			return (long)i;
	return -1;
}

/*
 * Runs the group (setup and teardown around it) whole, or the part that
 * argv names (above); returns main()'s exit status: cmocka's (the number
 * of tests failed), or 2 on a bad command line or parts that do not cover
 * the group exactly once (the problem on stderr).
 */
static inline int tsr_test_main(int argc, char **argv, const struct CMUnitTest *tests, size_t n,
				CMFixtureFunction setup, CMFixtureFunction teardown)
{
	const char *prog = argc > 0 ? argv[0] : "test";
	if (argc <= 1)
		return _cmocka_run_group_tests("tests", tests, n, setup, teardown);
	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < n; i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	char *end = NULL;
	long k = argc >= 4 && strcmp(argv[1], "--part") == 0 ? strtol(argv[2], &end, 10) : 0;
	const int parts = argc - 3;
	if (k < 1 || k > parts || !end || *end) {
		fprintf(stderr, "usage: %s [--list | --part K PART1 PART2 ... (K in 1..number of "
				"parts; a part: comma-separated test names)]\n", prog);
		return 2;
	}
	int *part_of = calloc(n, sizeof(*part_of));
	struct CMUnitTest *chosen = calloc(n, sizeof(*chosen));
	int bad = !part_of || !chosen;
	size_t count = 0;
	int rest = 0;  /* the "*" part */
	for (int p = 1; p <= parts && !bad; p++) {
		if (strcmp(argv[2 + p], "*") == 0) {
			if (rest) {
				fprintf(stderr, "%s: parts %d and %d are both \"*\"\n", prog, rest, p);
				bad = 1;
			}
			rest = p;
			continue;
		}
		for (const char *s = argv[2 + p]; *s && !bad; ) {
			size_t len = strcspn(s, ",");
			long i = tsr_test_find(tests, n, s, len);
			if (i < 0) {
				fprintf(stderr, "%s: part %d names '%.*s', which is no test here "
					"(--list)\n", prog, p, (int)len, s);
				bad = 1;
			} else if (part_of[i]) {
				fprintf(stderr, "%s: test '%s' is in parts %d and %d\n", prog,
					tests[i].name, part_of[i], p);
				bad = 1;
			} else {
				part_of[i] = p;
				if (p == k)
					chosen[count++] = tests[i];
			}
			s += len + (s[len] == ',');
		}
	}
	for (size_t i = 0; i < n && !bad; i++)
		if (!part_of[i] && rest) {
			part_of[i] = rest;
			if (rest == k)
				chosen[count++] = tests[i];
		} else if (!part_of[i]) {
			fprintf(stderr, "%s: test '%s' is in no part (tests/CMakeLists.txt)\n",
				prog, tests[i].name);
			bad = 1;
		}
	int rc = 2;
	if (!bad && count == 0)
		fprintf(stderr, "%s: part %ld is empty\n", prog, k);
	else if (!bad)
		rc = _cmocka_run_group_tests("tests", chosen, count, setup, teardown);
	free(part_of);
	free(chosen);
	return rc;
}

/* main()'s body: tsr_test_main() over a CMUnitTest array. */
#define TSR_TEST_MAIN(argc, argv, tests, setup, teardown) \
	tsr_test_main(argc, argv, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)

#endif
