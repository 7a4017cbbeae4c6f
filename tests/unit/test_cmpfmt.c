// SPDX-License-Identifier: GPL-2.0
/*
 * test_cmpfmt.c - bench compare's reports, byte for byte on a fixed
 * compare of two series (one regression) whose testbed differs: the
 * table (raw and reference-scaled, pools and all), csv, runs, json,
 * markdown, JUnit, BMF, github-action-benchmark and the workflow
 * commands, with names that need escaping in each format; and the table
 * of writers. tests/cli/cireport.bats reads the CI formats with real
 * parsers, runsh.bats and the gate fixtures pin compare's own.
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

#include "kstats_hist.h"
#include "lib/report/cmpfmt.h"
#include "lib/report/kcidb.h"
#include "lib/report/lkp.h"
#include "lib/host/testbed.h"

#define REG { \
	.before = 13150.2, .after = 15330, .before_spread = 0.04, .after_spread = 0.05, \
	.p = 0.001082, .change = { .est = 0.164, .lo = 0.117, .hi = 0.202, .conf = 0.95 }, \
	.verdict = CMP_REGRESSION, \
}

#define SAME { \
	.before = 252.2, .after = 251.9, .before_spread = 0.03, .after_spread = 0.031, \
	.p = 0.0004, .change = { .est = -0.001, .lo = -INFINITY, .hi = 0.02, .conf = 0.95 }, \
	.verdict = CMP_SAME, \
}

/* each run's figure, before then after */
static double x_reg[12] = { 13000, 13150, 13100, 13200, 13300, 13160,
			    15330, 15200, 15400, 15500, 15300, 15331 };
static double x_same[13] = { 252, 252.2, 253, 251, 252.4, 252.3,
			     251.9, 252, 251.8, 251.9, 252, 251.7, 251.9 };

static struct cmp_series series[] = {
	{ .workload = "irqdesc-alloc", .variant = "old", .nb = 6, .na = 6, .x = x_reg, .r = REG },
	{ .workload = "a<b&\"c|d", .variant = "new*", .nb = 6, .na = 7, .x = x_same, .r = SAME },
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
static char *written(int (*fn)(FILE *f, const void *c), const struct cmpfmt *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(f, c), 0);
	fclose(f);
	return buf;
}

static int annotations(FILE *f, const void *c)
{
	return cmpfmt_annotations(f, c);
}

static void assert_writes(const char *fmt, const struct cmpfmt *c, const char *want)
{
	const struct report_writer *w = report_find(cmpfmt_writers, fmt);
	char *got;

	assert_non_null(w);
	got = written(w->write, c);
	if (strcmp(got, want))
		fail_msg("%s:\n%s\nwant:\n%s", fmt, got, want);
	free(got);
}

/* the writer @name lists the testbed keys that differ itself */
static bool testbed(const char *name)
{
	return report_find(cmpfmt_writers, name)->flags & REPORT_TESTBED;
}

/* counted figures: two boots a side, judged by size (lib/results/counted.h) */
static double x_plant[4] = { 38272, 38290, 38691, 38710 };
static double x_fork[4] = { 976449, 972224, 986573, 1014809 };

static struct cmp_series exact_series[] = {
	{ .workload = "kernel-irq-alloc", .variant = "alloc", .nb = 2, .na = 2, .x = x_plant,
	  .r = { .before = 38281, .after = 38700.5, .before_spread = 0.00047,
		 .after_spread = 0.00049, .p = 0.1667,
		 .change = { .est = 0.01096, .lo = 0.01045, .hi = 0.01145, .conf = 1 },
		 .verdict = CMP_REGRESSION } },
	{ .workload = "fork-exec", .variant = "exec", .nb = 2, .na = 2, .x = x_fork,
	  .r = { .before = 974336.5, .after = 1000691, .before_spread = 0.00435,
		 .after_spread = 0.02861, .p = 0.1667,
		 .change = { .est = 0.02705, .lo = 0.01286, .hi = 0.04154, .conf = 1 },
		 .verdict = CMP_NOT_REPEATABLE } },
};

static const struct cmpfmt exact = {
	.s = exact_series, .n = 2, .stat = "tm10", .unit = "insn", .alpha = 0.05,
	.threshold_pct = 0.5, .spread_pct = 0.5,
};

static void test_exact(void **state)
{
	char buf[512], *got;
	unsigned int k, i;

	(void)state;
	for (k = 0; k < 2; k++)
		for (i = 0; i < 2; i++) {
			struct kstats_hist *h = kstats_hist_create(2);

			assert_non_null(h);
			kstats_hist_record(h, (uint64_t)exact_series[k].x[2 * i]);
			exact_series[k].pool[i] = h;
		}
	assert_true(cmpline_exact(&exact) && !cmpline_exact(&cmp));
	assert_true(cmpline_fails(&exact_series[1].r) && cmpline_fails(&exact_series[0].r));
	assert_false(cmpline_fails(&series[1].r));
	cmpline_line(buf, sizeof(buf), &exact, &exact_series[0]);
	assert_string_equal(buf, "kernel-irq-alloc alloc tm10  38.28k insn +-0.05% -> 38.70k insn +-0.05%  +1.10% [+1.04%, +1.15%]  exact n=2+2  regression");
	cmpline_line(buf, sizeof(buf), &exact, &exact_series[1]);
	assert_string_equal(buf, "fork-exec exec tm10  974.3k insn +-0.43% -> 1.00M insn +-2.86%  +2.71% [+1.29%, +4.15%]  exact n=2+2  not repeatable");
	got = written(cmpfmt_writers[CMPFMT_TABLE].write, &exact);
	assert_non_null(strstr(got, "\nCOMPARE series=2 regressions=1 improvements=0 not_repeatable=1 stat=tm10 exact spread=0.5% threshold=0.5% verdict=regression unit=insn\n"));
	free(got);
	got = written(report_find(cmpfmt_writers, "markdown")->write, &exact);
	assert_non_null(strstr(got, "**kstats-bench compare: 1 regression, 1 not repeatable** in 2 series (tm10 per run, exact: instructions counted, each side repeating within 0.5%, threshold 0.5%)"));
	assert_non_null(strstr(got, "| fork-exec exec | 974.3k insn ±0.43% | 1.00M insn ±2.86% | +2.71% [+1.29%, +4.15%] | exact | 2+2 | **not repeatable** |"));
	free(got);
	got = written(report_find(cmpfmt_writers, "junit")->write, &exact);
	assert_non_null(strstr(got, "failures=\"2\""));
	assert_non_null(strstr(got, "<failure type=\"not repeatable\" message=\"fork-exec exec tm10"));
	free(got);
	got = written(annotations, &exact);
	assert_non_null(strstr(got, "::error title=kstats-bench not repeatable::fork-exec exec"));
	free(got);
	for (k = 0; k < 2; k++)
		for (i = 0; i < 2; i++)
			kstats_hist_free(exact_series[k].pool[i]);
}

static void test_line_and_helpers(void **state)
{
	char buf[512];

	(void)state;
	cmpline_line(buf, sizeof(buf), &cmp, &series[0]);
	assert_string_equal(buf, "irqdesc-alloc old tm10  13.15us +-4% -> 15.33us +-5%  +16.4% [+11.7%, +20.2%]  p=0.001 n=6+6  regression");
	cmpline_line(buf, sizeof(buf), &cmp, &series[1]);
	assert_string_equal(buf, "a<b&\"c|d new* tm10  252.2ns +-3% -> 251.9ns +-3%  -0.1% [-inf, +2.0%]  p<0.001 n=6+7  ~");
	assert_string_equal(cmpline_value(buf, sizeof(buf), 13150.2, "cycles"), "13.15k");
	assert_string_equal(cmpline_value(buf, sizeof(buf), 999.4, "ns"), "999.4ns");
	assert_string_equal(cmpline_value(buf, sizeof(buf), 2.5e9, "ns"), "2.50s");
	assert_string_equal(cmpline_value(buf, sizeof(buf), 38290, "insn"), "38.29k insn");
	assert_string_equal(cmpline_value(buf, sizeof(buf), 419, "insn"), "419.0 insn");
	assert_string_equal(cmpline_unit("insn"), " insn");
	assert_string_equal(cmpline_value(buf, sizeof(buf), 769, "misses"), "769.0 misses");
	assert_string_equal(cmpline_value(buf, sizeof(buf), 81234, "est-cycles"), "81.23k est-cycles");
	assert_string_equal(cmpline_unit("misses"), " misses");
	assert_string_equal(cmpline_unit("ns"), "ns");
	assert_string_equal(cmpline_pct(buf, sizeof(buf), INFINITY), "+inf");
	assert_int_equal(cmpfmt_count(&cmp, CMP_REGRESSION), 1);
	assert_int_equal(cmpfmt_count(&cmp, CMP_IMPROVEMENT), 0);
	cmpline_diff_text(buf, sizeof(buf), &cmp, &diff[0]);
	assert_string_equal(buf, "performance -> powersave");
	cmpline_diff_text(buf, sizeof(buf), &cmp, &diff[1]);
	assert_string_equal(buf, "4096 -> 4096 (a2.csv: 8192)");
	/* the table of writers: -f's names in order, which list the testbed */
	assert_ptr_equal(report_find(cmpfmt_writers, "table"), &cmpfmt_writers[CMPFMT_TABLE]);
	assert_null(report_find(cmpfmt_writers, "xml"));
	assert_string_equal(cmpfmt_writers[7].name, "github-action-benchmark");
	assert_string_equal(cmpfmt_writers[8].name, "cdf");
	assert_string_equal(cmpfmt_writers[9].name, "kcidb");
	assert_string_equal(cmpfmt_writers[10].name, "lkp");
	assert_null(cmpfmt_writers[11].name);
	assert_true(testbed("kcidb") && !testbed("lkp"));
	assert_true(testbed("table") && testbed("json"));
	assert_true(testbed("markdown") && testbed("junit"));
	assert_false(testbed("csv") || testbed("runs"));
	assert_false(testbed("bmf") || testbed("github-action-benchmark"));
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

/* the table's lines of the two series below, and their pools */
#define TABLE_LINES \
		"irqdesc-alloc old tm10  13.15us +-4% -> 15.33us +-5%  +16.4% [+11.7%, +20.2%]  p=0.001 n=6+6  regression\n" \
		"a<b&\"c|d new* tm10  252.2ns +-3% -> 251.9ns +-3%  -0.1% [-inf, +2.0%]  p<0.001 n=6+7  ~\n" \
		"\n" \
		"irqdesc-alloc old pooled:  p50 13.75us -> 16.10us (+17.1%)  p90 13.75us -> 16.10us (+17.1%)  p99 13.75us -> 16.10us (+17.1%)  mean 12.88us -> 15.05us (+16.9%)  max 13.75us -> 16.10us (+17.1%)\n" \
		"a<b&\"c|d new* pooled:  p50 255.0ns -> 255.0ns (+0.0%)  p90 257.0ns -> 257.0ns (+0.0%)  p99 257.0ns -> 257.0ns (+0.0%)  mean 253.5ns -> 253.5ns (+0.0%)  max 257.0ns -> 257.0ns (+0.0%)\n"

/* compare's own formats: pools, the reference's lines, every run's figure */
static void test_compare_formats(void **state)
{
	struct cmp_series s[2] = { series[0], series[1] };
	struct cmpfmt c = cmp;
	unsigned int k, i;

	(void)state;
	for (k = 0; k < 2; k++)
		for (i = 0; i < 2; i++) {
			s[k].pool[i] = kstats_hist_create(2);
			assert_non_null(s[k].pool[i]);
		}
	for (i = 0; i < 8; i++) {
		kstats_hist_record(s[0].pool[0], 12000 + 250 * i);
		kstats_hist_record(s[0].pool[1], 14000 + 300 * i);
		kstats_hist_record(s[1].pool[0], 250 + i);
		kstats_hist_record(s[1].pool[1], 250 + i);
	}
	s[0].ref_side[0] = 5000;
	s[0].ref_side[1] = 5250;
	s[0].ref_at = 5100;
	s[0].ref_share = 0.8;
	s[1].ref_side[0] = s[1].ref_side[1] = s[1].ref_at = 900;
	s[1].ref_share = 0.25;
	c.s = s;
	c.scaled = true;
	assert_writes("table", &c,
		TABLE_LINES
		"irqdesc-alloc reference tm10 (median run): 5.00us -> 5.25us (+5.0%); figures at 5.10us by their share: old 0.80\n"
		"a<b&\"c|d reference tm10 (median run): 900.0ns -> 900.0ns (+0.0%); figures at 900.0ns by their share: new* 0.25\n"
		"\n"
		"testbed: the files differ in 2 keys (--strict refuses testbed and config):\n"
		"  testbed cpufreq_governor: performance -> powersave\n"
		"  config  samples_per_variant: 4096 -> 4096 (a2.csv: 8192)\n"
		"COMPARE series=2 regressions=1 improvements=0 stat=tm10 alpha=0.05 threshold=5% verdict=regression reference=scaled\n");
	/* raw, the same testbed: no reference lines, no testbed section */
	c.scaled = false;
	c.nr_diff = 0;
	assert_writes("table", &c,
		TABLE_LINES
		"COMPARE series=2 regressions=1 improvements=0 stat=tm10 alpha=0.05 threshold=5% verdict=regression reference=raw\n");
	assert_writes("csv", &c,
		"workload,variant,stat,before,before_spread_pct,after,after_spread_pct,change_pct,ci_lo_pct,ci_hi_pct,p,n_before,n_after,verdict\n"
		"irqdesc-alloc,old,tm10,13150.2,4.00,15330,5.00,16.40,11.70,20.20,0.001082,6,6,regression\n"
		"a<b&\"c|d,new*,tm10,252.2,3.00,251.9,3.10,-0.10,-inf,2.00,0.000400,6,7,~\n");
	assert_writes("runs", &c,
		"side,workload,variant,run,tm10\n"
		"before,irqdesc-alloc,old,1,13000\n"
		"before,irqdesc-alloc,old,2,13150\n"
		"before,irqdesc-alloc,old,3,13100\n"
		"before,irqdesc-alloc,old,4,13200\n"
		"before,irqdesc-alloc,old,5,13300\n"
		"before,irqdesc-alloc,old,6,13160\n"
		"after,irqdesc-alloc,old,1,15330\n"
		"after,irqdesc-alloc,old,2,15200\n"
		"after,irqdesc-alloc,old,3,15400\n"
		"after,irqdesc-alloc,old,4,15500\n"
		"after,irqdesc-alloc,old,5,15300\n"
		"after,irqdesc-alloc,old,6,15331\n"
		"before,a<b&\"c|d,new*,1,252\n"
		"before,a<b&\"c|d,new*,2,252.2\n"
		"before,a<b&\"c|d,new*,3,253\n"
		"before,a<b&\"c|d,new*,4,251\n"
		"before,a<b&\"c|d,new*,5,252.4\n"
		"before,a<b&\"c|d,new*,6,252.3\n"
		"after,a<b&\"c|d,new*,1,251.9\n"
		"after,a<b&\"c|d,new*,2,252\n"
		"after,a<b&\"c|d,new*,3,251.8\n"
		"after,a<b&\"c|d,new*,4,251.9\n"
		"after,a<b&\"c|d,new*,5,252\n"
		"after,a<b&\"c|d,new*,6,251.7\n"
		"after,a<b&\"c|d,new*,7,251.9\n");
	c.nr_diff = 1;
	c.n = 1;
	assert_writes("json", &c,
		"{\n"
		"  \"format\": \"kstats-bench-json\",\n"
		"  \"version\": 1,\n"
		"  \"metadata\": {\n"
		"    \"command\": \"bench compare\",\n"
		"    \"stat\": \"tm10\",\n"
		"    \"alpha\": \"0.05\",\n"
		"    \"threshold_pct\": \"5\",\n"
		"    \"reference\": \"raw\",\n"
		"    \"unit\": \"ns\"\n"
		"  },\n"
		"  \"comparisons\": [\n"
		"    {\n"
		"      \"workload\": \"irqdesc-alloc\",\n"
		"      \"variant\": \"old\",\n"
		"      \"stat\": \"tm10\",\n"
		"      \"before\": {\n"
		"        \"median\": 13150.200,\n"
		"        \"spread_pct\": 4.00,\n"
		"        \"runs\": 6,\n"
		"        \"values\": [\n"
		"          13000.000,\n"
		"          13150.000,\n"
		"          13100.000,\n"
		"          13200.000,\n"
		"          13300.000,\n"
		"          13160.000\n"
		"        ]\n"
		"      },\n"
		"      \"after\": {\n"
		"        \"median\": 15330.000,\n"
		"        \"spread_pct\": 5.00,\n"
		"        \"runs\": 6,\n"
		"        \"values\": [\n"
		"          15330.000,\n"
		"          15200.000,\n"
		"          15400.000,\n"
		"          15500.000,\n"
		"          15300.000,\n"
		"          15331.000\n"
		"        ]\n"
		"      },\n"
		"      \"change_pct\": 16.400,\n"
		"      \"ci_lo_pct\": 11.700,\n"
		"      \"ci_hi_pct\": 20.200,\n"
		"      \"ci_confidence\": 0.9500,\n"
		"      \"p\": 0.001082,\n"
		"      \"exact\": false,\n"
		"      \"verdict\": \"regression\",\n"
		"      \"reference_share\": 0.800\n"
		"    }\n"
		"  ],\n"
		"  \"regressions\": 1,\n"
		"  \"improvements\": 0,\n"
		"  \"verdict\": \"regression\",\n"
		"  \"differences\": [\n"
		"    {\n"
		"      \"key\": \"cpufreq_governor\",\n"
		"      \"kind\": \"testbed\",\n"
		"      \"before\": \"performance\",\n"
		"      \"after\": \"powersave\",\n"
		"      \"between\": true,\n"
		"      \"within_before\": false,\n"
		"      \"within_after\": false\n"
		"    }\n"
		"  ]\n"
		"}\n");
	for (k = 0; k < 2; k++)
		for (i = 0; i < 2; i++)
			kstats_hist_free(s[k].pool[i]);
}

static void test_annotations(void **state)
{
	struct cmp_series s = { .workload = "wl%x", .variant = "old\nnew", .nb = 5, .na = 5,
				.r = REG };
	struct cmpfmt c = cmp;
	char *got;

	(void)state;
	got = written(annotations, &cmp);
	assert_string_equal(got,
		"::error title=kstats-bench regression::irqdesc-alloc old tm10  13.15us +-4%25 -> 15.33us +-5%25  +16.4%25 [+11.7%25, +20.2%25]  p=0.001 n=6+6  regression\n"
		"::warning title=kstats-bench testbed differs::cpufreq_governor: performance -> powersave\n"
		"::warning title=kstats-bench config differs::samples_per_variant: 4096 -> 4096 (a2.csv: 8192)\n");
	free(got);
	/* the message is %-encoded: a % and a newline in a name */
	c.s = &s;
	c.n = 1;
	c.nr_diff = 0;
	got = written(annotations, &c);
	assert_string_equal(got,
		"::error title=kstats-bench regression::wl%25x old%0Anew tm10  13.15us +-4%25 -> 15.33us +-5%25  +16.4%25 [+11.7%25, +20.2%25]  p=0.001 n=5+5  regression\n");
	free(got);
	c.s = &series[1];
	got = written(annotations, &c);
	assert_string_equal(got, "");
	free(got);
}

/* cdf: each side's pooled buckets, their exclusive upper bound and the fraction at or below */
static void test_cdf(void **state)
{
	struct cmp_series s[1] = { { .workload = "w", .variant = "v", .nb = 1, .na = 1,
				     .x = x_reg, .r = REG } };
	struct cmpfmt c = { .s = s, .n = 1, .stat = "tm10", .unit = "cycles" };

	(void)state;
	s[0].pool[0] = kstats_hist_create(2);
	s[0].pool[1] = kstats_hist_create(2);
	assert_non_null(s[0].pool[0]);
	assert_non_null(s[0].pool[1]);
	kstats_hist_record_n(s[0].pool[0], 8192, 3);
	kstats_hist_record_n(s[0].pool[0], 10240, 1);
	kstats_hist_record_n(s[0].pool[1], 12288, 2);
	assert_writes("cdf", &c,
		"# unit: cycles\n"
		"side,workload,variant,hi,fraction\n"
		"before,w,v,10240,0.75\n"
		"before,w,v,12288,1\n"
		"after,w,v,14336,1\n");
	kstats_hist_free(s[0].pool[0]);
	kstats_hist_free(s[0].pool[1]);
}

/* KCIDB's names and 0-day's numbers: what the writers build on */
static void test_kcidb_lkp_helpers(void **state)
{
	char buf[KCIDB_ORIGIN_MAX + 1];

	(void)state;
	assert_true(kcidb_origin_valid("kstats_bench"));
	assert_true(kcidb_origin_valid("lab_2"));
	assert_false(kcidb_origin_valid("kstats-bench"));
	assert_false(kcidb_origin_valid("Lab"));
	assert_false(kcidb_origin_valid(""));
	memset(buf, 'a', KCIDB_ORIGIN_MAX);
	buf[KCIDB_ORIGIN_MAX] = 0;
	assert_false(kcidb_origin_valid(buf));
	buf[KCIDB_ORIGIN_MAX - 1] = 0;
	assert_true(kcidb_origin_valid(buf));
	assert_string_equal(kcidb_segment(buf, sizeof(buf), "irqdesc-alloc"), "irqdesc-alloc");
	assert_string_equal(kcidb_segment(buf, sizeof(buf), "a.b c/d_E"), "a_b_c_d_E");
	assert_string_equal(kcidb_segment(buf, sizeof(buf), ""), "_");
	assert_string_equal(kcidb_segment(buf, 4, "abcdef"), "abc");
	assert_string_equal(lkp_number(buf, sizeof(buf), 0.19), "0.19");
	assert_string_equal(lkp_number(buf, sizeof(buf), 260.924), "260.92");
	assert_string_equal(lkp_number(buf, sizeof(buf), 138055.4), "138055");
	assert_string_equal(lkp_number(buf, sizeof(buf), 83270128), "83270128");
	assert_string_equal(lkp_number(buf, sizeof(buf), 7.967e9), "7.967e+09");
	assert_string_equal(lkp_number(buf, sizeof(buf), -1234.6), "-1235");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_and_helpers),
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_junit),
		cmocka_unit_test(test_json_exports),
		cmocka_unit_test(test_compare_formats),
		cmocka_unit_test(test_annotations),
		cmocka_unit_test(test_cdf),
		cmocka_unit_test(test_kcidb_lkp_helpers),
	};

	return cmocka_run_group_tests_name("cmpfmt", tests, NULL, NULL);
}
