// SPDX-License-Identifier: GPL-2.0
/*
 * test_options.c - option tables: every type stored, each refusal's
 * message, which table an option came from, options-first parsing, and
 * the exact --help layout the tables print.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/subcmd/options.h"

static const char *const colours[] = { "red", "green", NULL };

static struct vals {
	uint64_t n;			/* -n */
	bool flag;			/* --flag */
	int colour;			/* -c, index in colours */
	const char *out;		/* -o */
	double pct;			/* --pct */
	uint64_t extra;			/* --extra, the second table's */
	int calls;			/* --call: times called */
} v;

static int count_call(const struct opt *o, const char *arg, char *why, size_t len)
{
	(void)why;
	(void)len;
	assert_null(arg);
	++*(int *)o->value;
	return 0;
}

static const struct opt main_opts[] = {
	OPT_U64('n', "samples", &v.n, 1, 100, "N", "samples, 1..100"),
	OPT_FLAG(0, "flag", &v.flag, "a flag"),
	OPT_ENUM('c', "colour", &v.colour, colours, "C", "red (default)\ngreen"),
	OPT_STRING('o', "output", &v.out, "FILE", "where"),
	OPT_DOUBLE(0, "pct", &v.pct, 0, 100, "in (0,100)", "P", "a percentage"),
	OPT_CALL(0, "call", &v.calls, count_call, NULL, "counted"),
	OPT_END()
};

static const struct opt extra_opts[] = {
	OPT_GROUP("extra only:"),
	OPT_U64(0, "extra", &v.extra, 0, 9, "X", "a digit"),
	OPT_FLAG(0, "a-very-long-option-name", &v.flag, "too long for the column"),
	OPT_END()
};

static const struct opt *const tabs[] = { main_opts, extra_opts, NULL };

/* parse a NULL-terminated argument list from scratch, as a fresh process would */
static int parse(struct opt_parser *p, unsigned int flags, ...)
{
	static char *argv[16];
	va_list ap;
	int argc = 0;

	memset(&v, 0, sizeof(v));
	memset(p, 0, sizeof(*p));
	p->tab = tabs;
	p->flags = flags;
	argv[argc++] = "bench";
	va_start(ap, flags);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	optind = 0;	/* glibc: start over */
	return opt_parse(p, argc, argv);
}

static void test_values_stored(void **state)
{
	struct opt_parser p;

	(void)state;
	assert_int_equal(parse(&p, 0, "-n", "7", "--flag", "-c", "green", "--output=x",
			       "--pct", "12.5", "--call", "--call", NULL), 0);
	assert_int_equal(v.n, 7);
	assert_true(v.flag);
	assert_int_equal(v.colour, 1);
	assert_string_equal(v.out, "x");
	assert_true(v.pct == 12.5);
	assert_int_equal(v.calls, 2);
	assert_ptr_equal(p.given[0], &main_opts[0]);
	assert_null(p.given[1]);
}

static void test_given_names_the_table(void **state)
{
	struct opt_parser p;

	(void)state;
	assert_int_equal(parse(&p, 0, "--extra", "3", "-n", "1", NULL), 0);
	assert_int_equal(v.extra, 3);
	assert_ptr_equal(p.given[0], &main_opts[0]);
	assert_ptr_equal(p.given[1], &extra_opts[1]);
}

static void test_refusals(void **state)
{
	static const struct {
		const char *args[3];	/* up to two arguments */
		const char *why;	/* the exact message */
	} t[] = {
		{ { "-n", "0" }, "--samples: '0' is not an integer in 1..100" },
		{ { "-n", "101" }, "--samples: '101' is not an integer in 1..100" },
		{ { "--samples=1x" }, "--samples: '1x' is not an integer in 1..100" },
		{ { "-c", "blue" }, "--colour: 'blue' is not one of red, green" },
		{ { "--pct", "100" }, "--pct: '100' is not a number in (0,100)" },
		{ { "--pct", "nan" }, "--pct: 'nan' is not a number in (0,100)" },
		{ { "--extra", "10" }, "--extra: '10' is not an integer in 0..9" },
		{ { "--bogus" }, "unknown option '--bogus'" },
		{ { "-z" }, "unknown option '-z'" },
		{ { "-n" }, "option '-n' needs a value" },
		{ { "--output" }, "option '--output' needs a value" },
		{ { "--flag=1" }, "option '--flag' takes no value" },
		{ { "--call=x" }, "option '--call' takes no value" },
		{ { "--bogus=1" }, "unknown option '--bogus'" },
		{ { "--c" }, "option '--c' is ambiguous: 2 options start so" },
	};
	struct opt_parser p;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(parse(&p, 0, t[i].args[0], t[i].args[1], NULL), -EINVAL);
		assert_string_equal(p.why, t[i].why);
	}
}

/* OPT_DOUBLE_IN: a bound is in the range only where din says so */
static void test_double_bounds(void **state)
{
	static double lo, hi;
	static const struct opt t[] = {
		OPT_DOUBLE_IN(0, "lo", &lo, 0, 0, OPT_IN_LO, ">= 0", "X", "[0, inf)"),
		OPT_DOUBLE_IN(0, "hi", &hi, 0, 0.5, OPT_IN_HI, "in (0, 0.5]", "X", "(0, 0.5]"),
		OPT_END()
	};
	static const struct {
		const char *opt, *arg;
		const char *why;	/* NULL: taken */
	} c[] = {
		{ "--lo", "0", NULL }, { "--lo", "1e300", NULL },
		{ "--lo", "-0.001", "--lo: '-0.001' is not a number >= 0" },
		{ "--lo", "inf", "--lo: 'inf' is not a number >= 0" },
		{ "--hi", "0.5", NULL }, { "--hi", "1e-9", NULL },
		{ "--hi", "0", "--hi: '0' is not a number in (0, 0.5]" },
		{ "--hi", "0.5000001", "--hi: '0.5000001' is not a number in (0, 0.5]" },
	};
	const struct opt *tab[] = { t, NULL };
	struct opt_parser p = { .tab = tab };
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char *argv[] = { "bench", (char *)c[i].opt, (char *)c[i].arg, NULL };

		optind = 0;
		assert_int_equal(opt_parse(&p, 3, argv), c[i].why ? -EINVAL : 0);
		if (c[i].why)
			assert_string_equal(p.why, c[i].why);
	}
	assert_true(lo == 1e300 && hi == 1e-9);
}

static void test_help_stops_parsing(void **state)
{
	struct opt_parser p;

	(void)state;
	assert_int_equal(parse(&p, 0, "--help", "-n", "0", NULL), 1);
	assert_int_equal(parse(&p, 0, "-n", "5", "-h", NULL), 1);
	assert_int_equal(v.n, 5);
}

static void test_operands(void **state)
{
	struct opt_parser p;

	(void)state;
	/* permuted: options after operands still count, the operands move last */
	assert_int_equal(parse(&p, 0, "a", "-n", "2", "b", NULL), 0);
	assert_int_equal(v.n, 2);
	assert_int_equal(optind, 3);
	/* options first: parsing stops at "a", the "--" later is an operand */
	assert_int_equal(parse(&p, OPT_STOP_AT_OPERAND, "-n", "3", "a", "--", "-n", NULL), 0);
	assert_int_equal(v.n, 3);
	assert_int_equal(optind, 3);
	/* a command of options only: the first operand is named */
	assert_int_equal(parse(&p, OPT_NO_OPERANDS, "-n", "3", "--flag", NULL), 0);
	assert_int_equal(parse(&p, OPT_NO_OPERANDS, "a", "-n", "3", "b", NULL), -EINVAL);
	assert_string_equal(p.why, "unexpected argument 'a'");
	assert_int_equal(v.n, 3);
	assert_int_equal(parse(&p, OPT_NO_OPERANDS, "--", "-n", NULL), -EINVAL);
	assert_string_equal(p.why, "unexpected argument '-n'");
}

/* opt_help() of @tab, as a string to free */
static char *help_of(const struct opt *const *tab)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(opt_help(f, tab), 0);
	fclose(f);
	return buf;
}

/* a table of short options only: the column two spaces after the longest */
static void test_help_column(void **state)
{
	static const struct opt t[] = {
		OPT_U64('b', "bits", &v.n, 0, 12, "B", "bits"),
		OPT_END()
	};
	const struct opt *tab[] = { t, NULL };
	char *buf = help_of(tab);

	(void)state;
	assert_string_equal(buf, "  -b, --bits B  bits\n  -h, --help    this text\n");
	free(buf);
}

static void test_help_layout(void **state)
{
	static const char want[] =
		"  -n, --samples N           samples, 1..100\n"
		"      --flag                a flag\n"
		"  -c, --colour C            red (default)\n"
		"                            green\n"
		"  -o, --output FILE         where\n"
		"      --pct P               a percentage\n"
		"      --call                counted\n"
		"  -h, --help                this text\n"
		"\n"
		"  extra only:\n"
		"      --extra X             a digit\n"
		"      --a-very-long-option-name\n"
		"                            too long for the column\n";
	char *buf = help_of(tabs);

	(void)state;
	/* the column follows the longest option, OPT_HELP_COL at most */
	assert_string_equal(buf, want);
	free(buf);
}

/* an OPT_FORMAT: its rows under its help, a long name's help below it */
static void test_help_rows(void **state)
{
	static const struct report_writer rows[] = {
		{ "table", "the default", NULL, 0 },
		{ "markdown", "as long as the column", NULL, 0 },
		{ "github-action-benchmark", "longer", NULL, 0 }, { NULL, NULL, NULL, 0 },
	};
	static int row;
	static const struct opt t[] = {
		OPT_FORMAT('f', "format", &row, rows, "FMT", "what goes to stdout:"),
		OPT_END()
	};
	const struct opt *tab[] = { t, NULL };
	struct opt_parser p = { .tab = tab };
	char *argv[] = { "bench", "-f", "github-action-benchmark", NULL };
	char *buf = help_of(tab);

	(void)state;
	assert_string_equal(buf,
		"  -f, --format FMT  what goes to stdout:\n"
		"                      table   the default\n"
		"                      markdown\n"
		"                              as long as the column\n"
		"                      github-action-benchmark\n"
		"                              longer\n"
		"  -h, --help        this text\n");
	free(buf);
	optind = 0;
	assert_int_equal(opt_parse(&p, 3, argv), 0);
	assert_int_equal(row, 2);
}

/* opt_values(): what the tables hold now, as the metadata's workload_options */
static void test_values(void **state)
{
	static const struct report_writer rows[] = {
		{ "one", "1", NULL, 0 }, { "two", "2", NULL, 0 }, { NULL, NULL, NULL, 0 },
	};
	static int row;
	static const struct opt t[] = {
		OPT_GROUP("a group says nothing"),
		OPT_U64('n', "samples", &v.n, 1, 100, "N", "samples"),
		OPT_FLAG(0, "flag", &v.flag, "a flag"),
		OPT_ENUM('c', "colour", &v.colour, colours, "C", "colour"),
		OPT_FORMAT('r', "row", &row, rows, "R", "a row"),
		OPT_END()
	};
	static const struct opt t2[] = {
		OPT_STRING('o', "output", &v.out, "FILE", "where"),
		OPT_DOUBLE(0, "pct", &v.pct, 0, 100, "in (0,100)", "P", "a percentage"),
		OPT_CALL(0, "call", &v.calls, count_call, NULL, "never told"),
		OPT_END()
	};
	static const struct opt none[] = { OPT_END() };
	const struct opt *const both[] = { t, t2, NULL }, *const empty[] = { none, NULL };
	char buf[256];

	(void)state;
	memset(&v, 0, sizeof(v));
	v.n = 7;
	v.colour = 1;
	v.pct = 2.5;
	row = 1;
	opt_values(both, buf, sizeof(buf));
	assert_string_equal(buf, "--samples 7 --colour green --row two --pct 2.5");
	v.flag = true;
	v.out = "f.csv";
	opt_values(both, buf, sizeof(buf));
	assert_string_equal(buf, "--samples 7 --flag --colour green --row two --output f.csv --pct 2.5");
	/* cut at the buffer, never past it */
	opt_values(both, buf, 20);
	assert_string_equal(buf, "--samples 7 --flag ");
	opt_values(empty, buf, sizeof(buf));
	assert_string_equal(buf, "none");
	opt_values(NULL, buf, sizeof(buf));
	assert_string_equal(buf, "none");
}

/* what opt_list_values() prints for @word of @tab, or NULL on -ENOENT */
static char *values_of(const struct opt *const *tab, const char *word)
{
	static char *buf;
	size_t len = 0;
	FILE *f;
	int ret;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	ret = opt_list_values(f, tab, word);
	fclose(f);
	assert_true(ret == 0 || ret == -ENOENT);
	return ret ? NULL : buf;
}

/* opt_list_values(): what completion offers after an option, by -x or --name */
static void test_list_values(void **state)
{
	static int call;
	static const struct opt t[] = {
		OPT_CALL('r', "run", &call, count_call, "RUN|all", "a run or all"),
		OPT_U64('b', "bits", &v.n, 0, 12, "B", "0..12"),
		OPT_END()
	};
	const struct opt *const all[] = { main_opts, extra_opts, t, NULL };

	(void)state;
	assert_string_equal(values_of(all, "-c"), "red green\n");
	assert_string_equal(values_of(all, "--colour"), "red green\n");
	/* a range of at most OPT_VALUES_MAX integers; a wider one is free */
	assert_string_equal(values_of(all, "--extra"), "0 1 2 3 4 5 6 7 8 9\n");
	assert_string_equal(values_of(all, "-b"), "0 1 2 3 4 5 6 7 8 9 10 11 12\n");
	assert_string_equal(values_of(all, "-n"), "\n");
	/* the lower-case words of an argument beside its placeholder */
	assert_string_equal(values_of(all, "--run"), "all\n");
	assert_string_equal(values_of(all, "-o"), "\n");
	/* no value to take, no such option, a prefix: none */
	assert_null(values_of(all, "--flag"));
	assert_null(values_of(all, "--call"));
	assert_null(values_of(all, "--nope"));
	assert_null(values_of(all, "--col"));
	assert_null(values_of(all, "-cx"));
}

/* opt_value(): the value an option holds after a parse, by -x or --name */
static void test_value_of_one(void **state)
{
	struct opt_parser p;
	char buf[64];

	(void)state;
	assert_int_equal(parse(&p, 0, "-qo", "x.csv", "-c", "green", "--extra=4", NULL), -EINVAL);
	assert_int_equal(parse(&p, 0, "-o", "x.csv", "-c", "green", "--extra=4", NULL), 0);
	assert_int_equal(opt_value(tabs, "-o", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "x.csv");
	assert_int_equal(opt_value(tabs, "--output", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "x.csv");
	assert_int_equal(opt_value(tabs, "--colour", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "green");
	assert_int_equal(opt_value(tabs, "--extra", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "4");
	/* a string not given is "" */
	assert_int_equal(parse(&p, 0, "-n", "3", NULL), 0);
	assert_int_equal(opt_value(tabs, "-o", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_int_equal(opt_value(tabs, "--flag", buf, sizeof(buf)), -ENOENT);
	assert_string_equal(buf, "");
	assert_int_equal(opt_value(tabs, "--nope", buf, sizeof(buf)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_stored),
		cmocka_unit_test(test_given_names_the_table),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_double_bounds),
		cmocka_unit_test(test_help_stops_parsing),
		cmocka_unit_test(test_operands),
		cmocka_unit_test(test_help_column),
		cmocka_unit_test(test_help_layout),
		cmocka_unit_test(test_help_rows),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_list_values),
		cmocka_unit_test(test_value_of_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
