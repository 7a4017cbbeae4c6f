// SPDX-License-Identifier: GPL-2.0
/*
 * test_cmpfmt.c - bench compare's CI reports, byte for byte on a fixed
 * compare of two series (one regression) whose testbed differs: the
 * table line, markdown, JUnit, BMF, github-action-benchmark and the
 * workflow commands, with names that need escaping in each format.
 * tests/cli/cireport.bats reads the same formats with real parsers.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/cmpfmt.h"
#include "lib/testbed.h"

static const struct cmp_result reg = {
	.before = 13150.2, .after = 15330, .before_spread = 0.04, .after_spread = 0.05,
	.p = 0.001082, .change = { .est = 0.164, .lo = 0.117, .hi = 0.202, .conf = 0.95 },
	.verdict = CMP_REGRESSION,
};

static const struct cmp_result same = {
	.before = 252.2, .after = 251.9, .before_spread = 0.03, .after_spread = 0.031,
	.p = 0.0004, .change = { .est = -0.001, .lo = -INFINITY, .hi = 0.02, .conf = 0.95 },
	.verdict = CMP_SAME,
};

static const struct cmpfmt_series series[] = {
	{ "irqdesc-alloc", "old", 6, 6, &reg },
	{ "a<b&\"c|d", "new*", 6, 7, &same },
};

static const char *const before_paths[] = { "b1.csv", "b2.csv" };
static const char *const after_paths[] = { "a1.csv", "a2.csv" };

static const struct tb_diff diff[] = {
	{ .key = "cpufreq_governor", .kind = TB_KIND_TESTBED,
	  .val = { "performance", "powersave" }, .between = true },
	{ .key = "samples_per_variant", .kind = TB_KIND_CONFIG, .val = { "4096", "4096" },
	  .within = { false, true }, .odd = { 0, 1 }, .odd_val = { NULL, "8192" } },
};

static const struct cmpfmt cmp = {
	.s = series, .n = 2, .stat = "tm10", .unit = "ns", .alpha = 0.05, .threshold_pct = 5,
	.diff = diff, .nr_diff = 2, .path = { before_paths, after_paths },
};

/* what @fn writes for @c */
static char *written(int (*fn)(FILE *f, const struct cmpfmt *c), const struct cmpfmt *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(f, c), 0);
	fclose(f);
	return buf;
}

static void assert_writes(const char *fmt, const struct cmpfmt *c, const char *want)
{
	const struct cmpfmt_writer *w = cmpfmt_find(fmt);
	char *got;

	assert_non_null(w);
	got = written(w->write, c);
	if (strcmp(got, want))
		fail_msg("%s:\n%s\nwant:\n%s", fmt, got, want);
	free(got);
}

static void test_line_and_helpers(void **state)
{
	char buf[512];

	(void)state;
	cmpfmt_line(buf, sizeof(buf), &cmp, &series[0]);
	assert_string_equal(buf, "irqdesc-alloc old tm10  13.15us +-4% -> 15.33us +-5%  +16.4% [+11.7%, +20.2%]  p=0.001 n=6+6  regression");
	cmpfmt_line(buf, sizeof(buf), &cmp, &series[1]);
	assert_string_equal(buf, "a<b&\"c|d new* tm10  252.2ns +-3% -> 251.9ns +-3%  -0.1% [-inf, +2.0%]  p<0.001 n=6+7  ~");
	assert_string_equal(cmpfmt_value(buf, sizeof(buf), 13150.2, true), "13.15k");
	assert_string_equal(cmpfmt_value(buf, sizeof(buf), 999.4, false), "999.4ns");
	assert_string_equal(cmpfmt_value(buf, sizeof(buf), 2.5e9, false), "2.50s");
	assert_string_equal(cmpfmt_pct(buf, sizeof(buf), INFINITY), "+inf");
	assert_int_equal(cmpfmt_count(&cmp, CMP_REGRESSION), 1);
	assert_int_equal(cmpfmt_count(&cmp, CMP_IMPROVEMENT), 0);
	cmpfmt_diff_text(buf, sizeof(buf), &cmp, &diff[0]);
	assert_string_equal(buf, "performance -> powersave");
	cmpfmt_diff_text(buf, sizeof(buf), &cmp, &diff[1]);
	assert_string_equal(buf, "4096 -> 4096 (a2.csv: 8192)");
	assert_null(cmpfmt_find("table"));
	assert_string_equal(cmpfmt_writers[3].name, "github-action-benchmark");
	assert_true(cmpfmt_find("markdown")->testbed && cmpfmt_find("junit")->testbed);
	assert_false(cmpfmt_find("bmf")->testbed || cmpfmt_writers[3].testbed);
	assert_null(cmpfmt_writers[4].name);
}

static void test_markdown(void **state)
{
	struct cmpfmt c = cmp;

	(void)state;
	assert_writes("markdown", &cmp,
		"**kstats-bench compare: 1 regression** in 2 series (tm10 per run, one-sided alpha 0.05, threshold 5%, raw figures)\n"
		"\n"
		"| series | before | after | change [95% CI] | p | runs | verdict |\n"
		"|:--|--:|--:|--:|--:|--:|:--|\n"
		"| irqdesc-alloc old | 13.15us ±4% | 15.33us ±5% | +16.4% [+11.7%, +20.2%] | 0.001 | 6+6 | **regression** |\n"
		"| a\\<b&\"c\\|d new\\* | 252.2ns ±3% | 251.9ns ±3% | -0.1% [-inf, +2.0%] | \\<0.001 | 6+7 | \\~ |\n"
		"\n"
		"The sides differ in 2 keys of the metadata (`bench compare --strict` refuses testbed and config differences):\n"
		"\n"
		"| key | kind | what differs |\n"
		"|:--|:--|:--|\n"
		"| cpufreq\\_governor | testbed | performance -> powersave |\n"
		"| samples\\_per\\_variant | config | 4096 -> 4096 (a2.csv: 8192) |\n");
	c.n = 1;
	c.s = &series[1];
	c.nr_diff = 0;
	c.scaled = true;
	assert_writes("markdown", &c,
		"**kstats-bench compare: no regression** in 1 series (tm10 per run, one-sided alpha 0.05, threshold 5%, reference-scaled figures)\n"
		"\n"
		"| series | before | after | change [95% CI] | p | runs | verdict |\n"
		"|:--|--:|--:|--:|--:|--:|:--|\n"
		"| a\\<b&\"c\\|d new\\* | 252.2ns ±3% | 251.9ns ±3% | -0.1% [-inf, +2.0%] | \\<0.001 | 6+7 | \\~ |\n");
}

static void test_junit(void **state)
{
	(void)state;
	assert_writes("junit", &cmp,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"kstats-bench compare\" tests=\"2\" failures=\"1\" errors=\"0\">\n"
		"  <testsuite name=\"kstats-bench compare\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\">\n"
		"    <properties>\n"
		"      <property name=\"stat\" value=\"tm10\"/>\n"
		"      <property name=\"alpha\" value=\"0.05\"/>\n"
		"      <property name=\"threshold_pct\" value=\"5\"/>\n"
		"      <property name=\"reference\" value=\"raw\"/>\n"
		"      <property name=\"unit\" value=\"ns\"/>\n"
		"      <property name=\"testbed.cpufreq_governor\" value=\"performance -&gt; powersave\"/>\n"
		"      <property name=\"config.samples_per_variant\" value=\"4096 -&gt; 4096 (a2.csv: 8192)\"/>\n"
		"    </properties>\n"
		"    <testcase classname=\"kstats-bench.irqdesc-alloc\" name=\"old tm10\">\n"
		"      <failure type=\"regression\" message=\"irqdesc-alloc old tm10  13.15us +-4% -&gt; 15.33us +-5%  +16.4% [+11.7%, +20.2%]  p=0.001 n=6+6  regression\">slower by more than 5% at one-sided alpha 0.05: irqdesc-alloc old tm10  13.15us +-4% -&gt; 15.33us +-5%  +16.4% [+11.7%, +20.2%]  p=0.001 n=6+6  regression</failure>\n"
		"      <system-out>irqdesc-alloc old tm10  13.15us +-4% -&gt; 15.33us +-5%  +16.4% [+11.7%, +20.2%]  p=0.001 n=6+6  regression</system-out>\n"
		"    </testcase>\n"
		"    <testcase classname=\"kstats-bench.a&lt;b&amp;&quot;c|d\" name=\"new* tm10\">\n"
		"      <system-out>a&lt;b&amp;&quot;c|d new* tm10  252.2ns +-3% -&gt; 251.9ns +-3%  -0.1% [-inf, +2.0%]  p&lt;0.001 n=6+7  ~</system-out>\n"
		"    </testcase>\n"
		"  </testsuite>\n"
		"</testsuites>\n");
}

static void test_json_exports(void **state)
{
	(void)state;
	assert_writes("bmf", &cmp,
		"{\n"
		"  \"irqdesc-alloc/old\": {\n"
		"    \"latency\": {\n"
		"      \"value\": 15330.000,\n"
		"      \"lower_value\": 14563.500,\n"
		"      \"upper_value\": 16096.500\n"
		"    }\n"
		"  },\n"
		"  \"a<b&\\\"c|d/new*\": {\n"
		"    \"latency\": {\n"
		"      \"value\": 251.900,\n"
		"      \"lower_value\": 244.091,\n"
		"      \"upper_value\": 259.709\n"
		"    }\n"
		"  }\n"
		"}\n");
	assert_writes("github-action-benchmark", &cmp,
		"[\n"
		"  {\n"
		"    \"name\": \"irqdesc-alloc old tm10\",\n"
		"    \"unit\": \"ns\",\n"
		"    \"value\": 15330.000,\n"
		"    \"range\": \"± 5.0%\",\n"
		"    \"extra\": \"before 13.15us ±4%, change +16.4% [+11.7%, +20.2%], p=0.001, n=6+6: regression\"\n"
		"  },\n"
		"  {\n"
		"    \"name\": \"a<b&\\\"c|d new* tm10\",\n"
		"    \"unit\": \"ns\",\n"
		"    \"value\": 251.900,\n"
		"    \"range\": \"± 3.1%\",\n"
		"    \"extra\": \"before 252.2ns ±3%, change -0.1% [-inf, +2.0%], p<0.001, n=6+7: ~\"\n"
		"  }\n"
		"]\n");
}

static void test_annotations(void **state)
{
	struct cmp_result pct = reg;
	struct cmpfmt_series s = { "wl%x", "old\nnew", 5, 5, &pct };
	struct cmpfmt c = cmp;
	char *got;

	(void)state;
	got = written(cmpfmt_annotations, &cmp);
	assert_string_equal(got,
		"::error title=kstats-bench regression::irqdesc-alloc old tm10  13.15us +-4%25 -> 15.33us +-5%25  +16.4%25 [+11.7%25, +20.2%25]  p=0.001 n=6+6  regression\n"
		"::warning title=kstats-bench testbed differs::cpufreq_governor: performance -> powersave\n"
		"::warning title=kstats-bench config differs::samples_per_variant: 4096 -> 4096 (a2.csv: 8192)\n");
	free(got);
	/* the message is %-encoded: a % and a newline in a name */
	c.s = &s;
	c.n = 1;
	c.nr_diff = 0;
	got = written(cmpfmt_annotations, &c);
	assert_string_equal(got,
		"::error title=kstats-bench regression::wl%25x old%0Anew tm10  13.15us +-4%25 -> 15.33us +-5%25  +16.4%25 [+11.7%25, +20.2%25]  p=0.001 n=5+5  regression\n");
	free(got);
	c.s = &series[1];
	got = written(cmpfmt_annotations, &c);
	assert_string_equal(got, "");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_and_helpers),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_junit),
		cmocka_unit_test(test_json_exports),
		cmocka_unit_test(test_annotations),
	};

	return cmocka_run_group_tests_name("cmpfmt", tests, NULL, NULL);
}
