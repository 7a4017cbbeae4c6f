// SPDX-License-Identifier: GPL-2.0
/*
 * test_writers.c - every row of every table of report writers
 * (lib/subcmd/writer.h) on one small model each, built from results
 * sets as the commands build theirs: formats[] on a set, cmpfmt_writers[]
 * on a compare of two sets, trendfmt_writers[] on a history of two
 * files, scalefmt_writers[] on a sweep of two files, auditfmt_writers[]
 * on the audit of that sweep, and scalefmt_writers[] again holding the
 * audit. Each row returns 0 and writes something; each REPORT_JSON row
 * writes one JSON document (json-c parses it), and REPORT_ONE_DOC marks
 * formats[]'s csv and json alone; each returns -EIO on a
 * full disk (/dev/full); the first line of each table is pinned, and a
 * scale report that holds an audit writes the audit's row of the same
 * name, byte for byte, or else the sweep's own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "kstats_hist.h"
#include "lib/report/auditfmt.h"
#include "lib/report/cmpfmt.h"
#include "lib/report/format.h"
#include "lib/stats/history.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"
#include "lib/report/scalefmt.h"
#include "lib/report/trendfmt.h"

#define RUNS	6

/*
 * a file of @RUNS runs of "w old", run r's 16 samples at @base + 4 r
 * and @base + 8 r, each run and the merge "all", with the metadata the
 * titles read; its possible CPUs @possible (its unit left out: ns)
 */
static struct results *set_of(unsigned int base, unsigned int possible)
{
	struct results *r = results_create(2);
	struct kstats_hist *all = kstats_hist_create(2), *h;
	struct results_label l = { .workload = "w", .variant = "old", .cpu = RESULTS_CPU_ALL,
				   .node = -1 };
	unsigned int i;

	assert_non_null(r);
	assert_non_null(all);
	for (i = 1; i <= RUNS; i++) {
		h = kstats_hist_create(2);
		assert_non_null(h);
		kstats_hist_record_n(h, base + 4 * i, 8);
		kstats_hist_record_n(h, base + 8 * i, 8);
		l.run = i;
		assert_int_equal(results_add_hist(r, &l, h), 0);
		assert_int_equal(kstats_hist_merge(all, h), 0);
		kstats_hist_free(h);
	}
	l.run = RESULTS_RUN_ALL;
	assert_int_equal(results_add_hist(r, &l, all), 0);
	kstats_hist_free(all);
	meta_put(&r->meta, "workload", "w");
	meta_put(&r->meta, "variant_old", "the old path");
	meta_put(&r->meta, "possible_cpus", "%u", possible);
	meta_put(&r->meta, "used_cpus", "2");
	meta_put(&r->meta, "runs", "%d", RUNS);
	return r;
}

/* the models, built once by setup() */
static struct results *set[2];		/* before/A at 64 CPUs, after at 128 */
static struct cmp_series cs;
static struct cmpfmt cmp;
static struct history hist;
static struct trendfmt trend;
static struct scale_report sr;
static struct scalefmt sf;
static char *spath[2] = { "p64.csv", "p128.csv" };
static unsigned int possible[2] = { 64, 128 };
static struct audit_entry entry;
static struct audit audit;
static struct auditfmt af;
static struct scalefmt sfa;		/* sf holding the audit */

static void compare_model(void)
{
	const struct results *b[] = { set[0] }, *a[] = { set[1] };
	const struct cmp_side side[2] = { { b, 1 }, { a, 1 } };
	const struct cmp_gate g = { .stat = CMP_STAT_TM10, .alpha = 0.05, .threshold = 0.05 };
	struct cmp_where w;

	assert_int_equal(cmp_series_compute(side, "w", "old", 2, &g, &cs, &w), 0);
	cmp = (struct cmpfmt){ .s = &cs, .n = 1, .stat = "tm10", .unit = "ns", .alpha = 0.05,
			       .threshold_pct = 5, .meta = { &set[0]->meta, &set[1]->meta } };
}

static void trend_model(void)
{
	struct trend_cfg cfg = TREND_CFG_INIT;
	char why[256];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		assert_int_equal(history_add_file(&hist, NULL, spath[i]), 0);
		assert_int_equal(history_read(&hist, i, set[i], CMP_STAT_TM10, why, sizeof(why)),
				 0);
	}
	assert_int_equal(history_sort(&hist), 0);
	assert_int_equal(history_decide_ref(&hist, CMP_REF_OFF, why, sizeof(why)), 0);
	assert_int_equal(hist.ns, 1);
	assert_int_equal(history_figures(&hist, &hist.s[0]), 0);
	cfg.alpha = 0.01;
	assert_int_equal(trend_detect(hist.s[0].x, hist.s[0].n, &cfg, &hist.s[0].cp,
				      &hist.s[0].nr_cp), 0);
	trend = (struct trendfmt){ .h = &hist, .stat = "tm10", .alpha = 0.01,
				   .min_change_pct = 5, .window = 50, .recent = 12, .seed = 1 };
}

/* one group of both files, one row: every run a point at its file's count */
static void scale_model(void)
{
	static struct scale_row row = { .workload = "w", .variant = "old" };
	static struct scale_point pt[2 * RUNS];
	static double x[2 * RUNS], y[2 * RUNS];
	struct scale_fitted *f = &row.side[0];
	unsigned int i, k;

	for (k = 0; k < 2; k++) {
		assert_int_equal(cmp_run_figures(set[k], "w", "old", CMP_STAT_MIN, y + k * RUNS,
						 NULL), RUNS);
		for (i = 0; i < RUNS; i++) {
			x[k * RUNS + i] = possible[k];
			pt[k * RUNS + i] = (struct scale_point){ .file = k, .run = i + 1,
				.x = possible[k], .y = y[k * RUNS + i] };
		}
	}
	*f = (struct scale_fitted){ .has = true, .pt = pt, .npt = 2 * RUNS, .cap = 2 * RUNS };
	assert_int_equal(scale_theil_sen(x, y, 2 * RUNS, &f->fit), 0);
	sr.g[0] = (struct scale_group){ .path = spath, .set = set, .possible = possible, .n = 2,
					.name = "A" };
	sr.nr_groups = 1;
	sr.row = &row;
	sr.n = 1;
	strcpy(sr.unit, "ns");
	sf = (struct scalefmt){ .r = &sr, .stat = CMP_STAT_MIN,
				.threshold = { .v = 5, .pct = true } };
}

/* the sweep's one row as a battery of one entry */
static void audit_model(void)
{
	static double x[2 * RUNS], y[2 * RUNS];
	const struct scale_fitted *f = &sr.row[0].side[0];
	unsigned int i;

	for (i = 0; i < f->npt; i++) {
		x[i] = f->pt[i].x;
		y[i] = f->pt[i].y;
	}
	entry = (struct audit_entry){ .name = "w", .variant = "old",
				      .pt = { { x, y, f->npt } } };
	audit = (struct audit){ .e = &entry, .n = 1, .nr_sides = 1, .method = AUDIT_BH,
				.q = 0.05 };
	assert_int_equal(audit_run(&audit), 0);
	af = (struct auditfmt){ .a = &audit, .group = { "A" }, .unit = "ns", .stat = "min",
				.meta = &set[0]->meta };
	sfa = sf;
	sfa.audit = &af;
}

static int setup(void **state)
{
	(void)state;
	set[0] = set_of(1000, 64);
	set[1] = set_of(1400, 128);
	compare_model();
	trend_model();
	scale_model();
	audit_model();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	audit_free(&audit);
	history_free(&hist);
	cmp_series_free(&cs);
	results_free(set[0]);
	results_free(set[1]);
	return 0;
}

/* what row @w writes for @model, NUL-ended; its return in *@ret */
static char *written(const struct report_writer *w, const void *model, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*ret = w->write(f, model);
	fclose(f);
	return buf;
}

/* @s is one JSON value, and nothing but blanks after it */
static void assert_json(const char *name, const char *s)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root;

	assert_non_null(tok);
	root = json_tokener_parse_ex(tok, s, (int)strlen(s));
	if (!root || json_tokener_get_error(tok) != json_tokener_success ||
	    s[tok->char_offset + strspn(s + tok->char_offset, " \t\r\n")])
		fail_msg("%s: not one JSON document:\n%s", name, s);
	json_object_put(root);
	json_tokener_free(tok);
}

/* row @w on a disk that is full: -EIO */
static void assert_full(const struct report_writer *w, const void *model)
{
	FILE *f = fopen("/dev/full", "w");
	int ret;

	assert_non_null(f);
	ret = w->write(f, model);
	fclose(f);
	if (ret != -EIO)
		fail_msg("%s on /dev/full: %d, not -EIO", w->name, ret);
}

/*
 * every row of @t on @model but those flagged @skip: 0 and some text, one
 * JSON document where REPORT_JSON says so, -EIO on a full disk; the first
 * row's first lines @first. Returns the rows run.
 */
static unsigned int each_row(const struct report_writer *t, const void *model, const char *first,
			     unsigned int skip)
{
	const struct report_writer *w;
	unsigned int n = 0;
	char *out;
	int ret;

	for (w = t; w->name; w++) {
		if (w->flags & skip)
			continue;
		out = written(w, model, &ret);
		if (ret || !*out)
			fail_msg("%s: returned %d, wrote %zu bytes", w->name, ret, strlen(out));
		if (w->flags & REPORT_JSON)
			assert_json(w->name, out);
		if (w == t && strncmp(out, first, strlen(first)))
			fail_msg("%s's first line:\n%s\nwant:\n%s", w->name, out, first);
		free(out);
		assert_full(w, model);
		n++;
	}
	return n;
}

static void test_formats(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	/* the unit left out is ns, as the loader's rule says (fileset.h) */
	assert_int_equal(each_row(formats, set[0],
				  "# w old: the old path\n"
				  "# 96 samples over 6 runs on 2 CPUs, 64 possible, cache ?, mode ?, ns\n", 0),
			 7);
	assert_non_null(f);
	assert_int_equal(format_summary(f, set[0], "w"), 0);
	fclose(f);
	assert_memory_equal(buf, "SUMMARY workload=w unit=ns ", 27);
	free(buf);
}

/* the rows the commands name by index, and the one-document formats: csv, json */
static void test_format_flags(void **state)
{
	const struct report_writer *w;
	char docs[64] = "";

	(void)state;
	assert_string_equal(formats[FORMAT_TABLE].name, "table");
	assert_string_equal(formats[FORMAT_CSV].name, "csv");
	for (w = formats; w->name; w++)
		if (w->flags & REPORT_ONE_DOC)
			snprintf(docs + strlen(docs), sizeof(docs) - strlen(docs), "%s ", w->name);
	assert_string_equal(docs, "csv json ");
}

static void test_cmpfmt(void **state)
{
	(void)state;
	assert_int_equal(each_row(cmpfmt_writers, &cmp,
				  "w old tm10  1.02us +-1% -> 1.42us +-1%  +39.2% [+37.3%, +41.1%]  p=0.001 n=6+6  regression\n", 0),
			 11);
	assert_int_equal(cs.r.verdict, CMP_REGRESSION);
}

static void test_trendfmt(void **state)
{
	(void)state;
	assert_int_equal(each_row(trendfmt_writers, &trend,
				  "w old tm10  p128.csv run 1 (#7 of 12)  1.02us -> 1.42us  +39.2% [+37.3%, +41.1%]  p=0.005 n=6+6  regression, recent\n", 0),
			 6);
}

static void test_scalefmt(void **state)
{
	const struct report_writer *k = report_find(scalefmt_writers, "kcidb");
	char *out;
	int ret;

	(void)state;
	assert_int_equal(each_row(scalefmt_writers, &sf,
				  "w old  A  min  +6.25ns/CPU [+6.062, +6.438]  a=614.0ns  n=12 p=64..128 (2 counts)  grows\n"
				  "SCALE series=1 grows=1 flat=0 shrinks=0 stat=min group=A flat_ns=0\n",
				  REPORT_AUDIT),
			 6);
	/* kcidb is an audit's alone: refused without one, as bench scale does first */
	assert_non_null(k);
	assert_true(k->flags & REPORT_AUDIT);
	out = written(k, &sf, &ret);
	assert_int_equal(ret, -EINVAL);
	free(out);
}

#define AUDIT_HEAD \
	"# audit of A: 1 entries, Benjamini-Hochberg (false discovery rate) at q=0.05: adjusted level 0.05 (intervals at 95%), min per boot, 0 candidate functions timed\n"

static void test_auditfmt(void **state)
{
	(void)state;
	assert_int_equal(each_row(auditfmt_writers, &af, AUDIT_HEAD, 0), 5);
}

/* holding an audit, scale writes the audit's row of the same name, else its own */
static void test_scale_audit(void **state)
{
	const struct report_writer *w, *a;
	char *got, *want;
	int ret;

	(void)state;
	assert_int_equal(each_row(scalefmt_writers, &sfa, AUDIT_HEAD, 0), 7);
	for (w = scalefmt_writers; w->name; w++) {
		a = report_find(auditfmt_writers, w->name);
		got = written(w, &sfa, &ret);
		assert_int_equal(ret, 0);
		want = a ? written(a, &af, &ret) : written(w, &sf, &ret);
		assert_int_equal(ret, 0);
		if (strcmp(got, want))
			fail_msg("%s with an audit:\n%s\nwant:\n%s", w->name, got, want);
		free(got);
		free(want);
	}
	/* every audit row is a scale row: none is left unreachable */
	for (a = auditfmt_writers; a->name; a++)
		assert_non_null(report_find(scalefmt_writers, a->name));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_format_flags),
		cmocka_unit_test(test_cmpfmt),
		cmocka_unit_test(test_trendfmt),
		cmocka_unit_test(test_scalefmt),
		cmocka_unit_test(test_auditfmt),
		cmocka_unit_test(test_scale_audit),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
