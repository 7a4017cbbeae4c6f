// SPDX-License-Identifier: GPL-2.0
/*
 * test_samples.c - the sample-list parser: every accepted and rejected
 * form, and the line numbers that error messages quote.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kstats_hist.h"
#include "lib/subcmd/samples.h"

static int parse(const char *s, uint64_t *v)
{
	return samples_parse_line(s, strlen(s), v);
}

static void test_parse_accepts(void **state)
{
	uint64_t v = 1;

	(void)state;
	assert_int_equal(parse("0", &v), 0);
	assert_true(v == 0);
	assert_int_equal(parse("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse(" \t42 \r", &v), 0);
	assert_true(v == 42);
	assert_int_equal(parse("007", &v), 0);
	assert_true(v == 7);
	assert_int_equal(parse("", &v), 1);
	assert_int_equal(parse("  \t\r", &v), 1);
}

static void test_parse_rejects(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(parse("18446744073709551616", &v), -ERANGE);
	assert_int_equal(parse("99999999999999999999999", &v), -ERANGE);
	assert_int_equal(parse("-1", &v), -EDOM);
	assert_int_equal(parse("-0", &v), -EDOM);
	assert_int_equal(parse("-", &v), -EINVAL);
	assert_int_equal(parse("+4", &v), -EINVAL);
	assert_int_equal(parse("4 2", &v), -EINVAL);
	assert_int_equal(parse("0x10", &v), -EINVAL);
	assert_int_equal(parse("1e3", &v), -EINVAL);
	assert_int_equal(parse("1.5", &v), -EINVAL);
	assert_int_equal(parse("12abc", &v), -EINVAL);
	assert_int_equal(samples_parse_line("1\0" "2", 3, &v), -EILSEQ);
}

static int read_str(const char *text, size_t len, unsigned long *line,
		    uint64_t *n, struct kstats_hist *h)
{
	FILE *f = fmemopen((void *)text, len, "r");
	int ret;

	assert_non_null(f);
	ret = samples_read(f, h, line, n);
	fclose(f);
	return ret;
}

static void test_read_counts_and_lines(void **state)
{
	static const char ok[] = "1\n\n2\r\n3";	/* no final newline */
	static const char bad[] = "1\n2\n\nx3\n4\n";
	static const char bin[] = "1\n\0\n";
	struct kstats_hist *h = kstats_hist_create(2);
	unsigned long line;
	uint64_t n;

	(void)state;
	assert_int_equal(read_str(ok, sizeof(ok) - 1, &line, &n, h), 0);
	assert_true(n == 3 && line == 4);
	assert_true(kstats_hist_total(h) == 3 && kstats_hist_max(h) == 3);
	assert_int_equal(read_str(bad, sizeof(bad) - 1, &line, &n, h), -EINVAL);
	assert_true(line == 4 && n == 2);
	assert_int_equal(read_str(bin, sizeof(bin) - 1, &line, &n, h), -EILSEQ);
	assert_true(line == 2);
	assert_int_equal(read_str("", 0, &line, &n, h), 0);
	assert_true(line == 0 && n == 0);
	kstats_hist_free(h);
}

static void test_strerror(void **state)
{
	(void)state;
	assert_non_null(strstr(samples_strerror(-ERANGE), "2^64-1"));
	assert_non_null(strstr(samples_strerror(-EDOM), "negative"));
	assert_non_null(strstr(samples_strerror(-EILSEQ), "binary"));
	assert_non_null(strstr(samples_strerror(-EINVAL), "decimal"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_accepts),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_read_counts_and_lines),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests_name("samples", tests, NULL, NULL);
}
