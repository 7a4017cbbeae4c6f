// SPDX-License-Identifier: GPL-2.0
/*
 * cmpfmt.c - bench compare's reports: its table, csv, runs and JSON, and
 * for CI systems markdown, JUnit, Bencher's BMF, github-action-benchmark
 * and workflow commands (cmpfmt.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_hist.h"
#include "lib/report/cmpfmt.h"
#include "lib/results/counted.h"
#include "lib/results/fileset.h"
#include "lib/results/json.h"
#include "lib/report/kcidb.h"
#include "lib/report/lkp.h"
#include "lib/results/meta.h"
#include "lib/host/testbed.h"
#include "lib/subcmd/textfmt.h"

/* ---- what every format shares ---- */

unsigned int cmpfmt_count(const struct cmpfmt *c, enum cmp_verdict v)
{
	unsigned int i, n = 0;

	for (i = 0; i < c->n; i++)
		n += c->s[i].r.verdict == v;
	return n;
}

/* "2 regressions, 1 improvement, 1 not repeatable", or "no regression" */
static void cf_tally(char *buf, size_t len, const struct cmpfmt *c)
{
	unsigned int reg = cmpfmt_count(c, CMP_REGRESSION), imp = cmpfmt_count(c, CMP_IMPROVEMENT);
	unsigned int nr = cmpfmt_count(c, CMP_NOT_REPEATABLE);
	int n = snprintf(buf, len, reg ? "%u regression%s" : "no regression", reg,
			 reg == 1 ? "" : "s");

	if (imp && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ", %u improvement%s", imp,
			      imp == 1 ? "" : "s");
	if (nr && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", %u not repeatable", nr);
}

/* the gate's word: "regression" (or exact figures that do not repeat), else "ok" */
static const char *cf_verdict(const struct cmpfmt *c)
{
	if (cmpfmt_count(c, CMP_REGRESSION))
		return "regression";
	return cmpfmt_count(c, CMP_NOT_REPEATABLE) ? "not-repeatable" : "ok";
}

/* ---- table ---- */

/* the pooled histograms, for information: not what the gate tests */
static void cf_pooled(FILE *f, const struct cmpfmt *c, const struct cmp_series *s)
{
	static const char *const name[] = { "p50", "p90", "p99", "mean", "max" };
	char b[32], a[32], d[32];
	double v[2][5];
	unsigned int k, m;

	for (k = 0; k < 2; k++) {
		v[k][0] = (double)kstats_hist_value_at_percentile(s->pool[k], 50);
		v[k][1] = (double)kstats_hist_value_at_percentile(s->pool[k], 90);
		v[k][2] = (double)kstats_hist_value_at_percentile(s->pool[k], 99);
		v[k][3] = kstats_hist_mean(s->pool[k]);
		v[k][4] = (double)kstats_hist_max(s->pool[k]);
	}
	fprintf(f, "%s %s pooled:", s->workload, s->variant);
	for (m = 0; m < 5; m++)
		fprintf(f, "  %s %s -> %s (%s)", name[m],
			cmpline_value(b, sizeof(b), v[0][m], c->unit),
			cmpline_value(a, sizeof(a), v[1][m], c->unit),
			cmpline_pct(d, sizeof(d), v[0][m] > 0 ? v[1][m] / v[0][m] - 1 : 0));
	fputc('\n', f);
}

/*
 * What the figures of @s's workload were adjusted by: the machine's
 * speed on each side, and each of its series' share of its movement
 * (the @n series from @s on, while they are of that workload).
 */
static void cf_ref_line(FILE *f, const struct cmpfmt *c, const struct cmp_series *s,
			unsigned int n)
{
	char b[32], a[32], m[32], d[32];
	unsigned int i;

	fprintf(f, "%s reference tm10 (median run): %s -> %s (%s); figures at %s by their share:",
		s->workload, cmpline_value(b, sizeof(b), s->ref_side[0], c->unit),
		cmpline_value(a, sizeof(a), s->ref_side[1], c->unit),
		cmpline_pct(d, sizeof(d), s->ref_side[1] / s->ref_side[0] - 1),
		cmpline_value(m, sizeof(m), s->ref_at, c->unit));
	for (i = 0; i < n && !strcmp(s[i].workload, s->workload); i++)
		fprintf(f, " %s %.2f", s[i].variant, s[i].ref_share);
	fputc('\n', f);
}

/* the testbed section: every key that differs, and how */
static void cf_testbed_lines(FILE *f, const struct cmpfmt *c)
{
	char text[1200];
	unsigned int i;

	if (!c->nr_diff)
		return;
	fprintf(f, "\ntestbed: the files differ in %u key%s (--strict refuses testbed and config):\n",
		c->nr_diff, c->nr_diff == 1 ? "" : "s");
	for (i = 0; i < c->nr_diff; i++) {
		cmpline_diff_text(text, sizeof(text), c, &c->diff[i]);
		fprintf(f, "  %-7s %s: %s\n", tb_kind_names[c->diff[i].kind], c->diff[i].key, text);
	}
}

/* the sides, as the reports name them */
static const char *const cf_sides[2] = { "before", "after" };

static int cf_table(FILE *f, const struct cmpfmt *c)
{
	unsigned int i, reg = cmpfmt_count(c, CMP_REGRESSION);
	char line[512];

	for (i = 0; i < c->n; i++) {
		cmpline_line(line, sizeof(line), c, &c->s[i]);
		fprintf(f, "%s\n", line);
	}
	fputc('\n', f);
	for (i = 0; i < c->n; i++)
		cf_pooled(f, c, &c->s[i]);
	for (i = 0; c->scaled && i < c->n; i++)
		if (!i || strcmp(c->s[i].workload, c->s[i - 1].workload))
			cf_ref_line(f, c, &c->s[i], c->n - i);
	cf_testbed_lines(f, c);
	if (cmpline_exact(c))
		fprintf(f, "COMPARE series=%u regressions=%u improvements=%u not_repeatable=%u stat=%s exact spread=%g%% threshold=%g%% verdict=%s unit=%s\n",
			c->n, reg, cmpfmt_count(c, CMP_IMPROVEMENT),
			cmpfmt_count(c, CMP_NOT_REPEATABLE), c->stat, c->spread_pct,
			c->threshold_pct, cf_verdict(c), c->unit);
	else
		fprintf(f, "COMPARE series=%u regressions=%u improvements=%u stat=%s alpha=%g threshold=%g%% verdict=%s reference=%s\n",
			c->n, reg, cmpfmt_count(c, CMP_IMPROVEMENT), c->stat, c->alpha,
			c->threshold_pct, cf_verdict(c), c->scaled ? "scaled" : "raw");
	if (c->busy)
		fileset_busy_lines(f, c->busy, cf_sides, 2, "runs", "");
	return report_status(f);
}

/* ---- csv, runs ---- */

static int cf_csv(FILE *f, const struct cmpfmt *c)
{
	unsigned int i;

	fputs(CMPFMT_CSV_COLUMNS "\n", f);
	for (i = 0; i < c->n; i++) {
		const struct cmp_series *s = &c->s[i];
		const struct cmp_result *r = &s->r;

		fprintf(f, "%s,%s,%s,%.6g,%.2f,%.6g,%.2f,%.2f,%.2f,%.2f,%.6f,%u,%u,%s\n",
			s->workload, s->variant, c->stat, r->before, r->before_spread * 100,
			r->after, r->after_spread * 100, r->change.est * 100, r->change.lo * 100,
			r->change.hi * 100, r->p, s->nb, s->na,
			r->verdict == CMP_BELOW ? "significant below threshold" :
			cmp_verdict_names[r->verdict]);
	}
	return report_status(f);
}

/* every run's figure, before then after, in file order */
static int cf_runs(FILE *f, const struct cmpfmt *c)
{
	unsigned int i, k;

	fprintf(f, "side,workload,variant,run,%s\n", c->stat);
	for (k = 0; k < c->n; k++) {
		const struct cmp_series *s = &c->s[k];

		for (i = 0; i < s->nb + s->na; i++) {
			bool b = i < s->nb;

			fprintf(f, "%s,%s,%s,%u,%.6g\n", b ? "before" : "after", s->workload,
				s->variant, b ? i + 1 : i - s->nb + 1, s->x[i]);
		}
	}
	return report_status(f);
}

/*
 * Each side's pooled distribution, the CDF ./run.sh compare draws: one
 * row per non-empty bucket, its exclusive upper bound and the fraction
 * of the side's samples at or below it; the unit in a metadata line.
 */
static int cf_cdf(FILE *f, const struct cmpfmt *c)
{
	static const char *const side[] = { "before", "after" };
	struct kstats_hist_iter it;
	unsigned int i, k;

	fprintf(f, "# unit: %s\nside,workload,variant,hi,fraction\n", c->unit);
	for (k = 0; k < 2; k++)
		for (i = 0; i < c->n; i++) {
			const struct cmp_series *s = &c->s[i];

			kstats_hist_for_each_slot(&it, s->pool[k]) {
				fprintf(f, "%s,%s,%s,", side[k], s->workload, s->variant);
				if (it.last == UINT64_MAX)
					fputs("18446744073709551616", f);
				else
					fprintf(f, "%lu", (unsigned long)(it.last + 1));
				fprintf(f, ",%.6g\n", (double)it.cum / (double)it.total);
			}
		}
	return report_status(f);
}

/* ---- json ---- */

/* one side of a comparison: its median, spread and every run's figure */
static void cf_json_side(struct json *j, const char *key, double med, double spread,
			 const double *x, unsigned int n)
{
	unsigned int i;

	json_object_begin(j, key);
	json_double(j, "median", med, 3);
	json_double(j, "spread_pct", spread * 100, 2);
	json_u64(j, "runs", n);
	json_array_begin(j, "values");
	for (i = 0; i < n; i++)
		json_double(j, NULL, x[i], 3);
	json_array_end(j);
	json_object_end(j);
}

/* one element of "comparisons" (schema in the man page) */
static void cf_json_one(struct json *j, const struct cmpfmt *c, const struct cmp_series *s)
{
	const struct cmp_result *r = &s->r;

	json_object_begin(j, NULL);
	json_string(j, "workload", s->workload);
	json_string(j, "variant", s->variant);
	json_string(j, "stat", c->stat);
	cf_json_side(j, "before", r->before, r->before_spread, s->x, s->nb);
	cf_json_side(j, "after", r->after, r->after_spread, s->x + s->nb, s->na);
	json_double(j, "change_pct", r->change.est * 100, 3);
	json_double(j, "ci_lo_pct", r->change.lo * 100, 3);
	json_double(j, "ci_hi_pct", r->change.hi * 100, 3);
	json_double(j, "ci_confidence", r->change.conf, 4);
	json_double(j, "p", r->p, 6);
	json_bool(j, "exact", r->u.exact);
	json_string(j, "verdict", cmp_verdict_names[r->verdict]);
	json_double(j, "reference_share", s->ref_share, 3);
	json_object_end(j);
}

/* "differences": one object per key */
static void cf_json_diff(struct json *j, const struct cmpfmt *c)
{
	unsigned int i;

	json_array_begin(j, "differences");
	for (i = 0; i < c->nr_diff; i++) {
		const struct tb_diff *d = &c->diff[i];

		json_object_begin(j, NULL);
		json_string(j, "key", d->key);
		json_string(j, "kind", tb_kind_names[d->kind]);
		json_string(j, "before", d->val[0]);
		json_string(j, "after", d->val[1]);
		json_bool(j, "between", d->between);
		json_bool(j, "within_before", d->within[0]);
		json_bool(j, "within_after", d->within[1]);
		json_object_end(j);
	}
	json_array_end(j);
}

/* the document: its metadata the gate's settings */
static int cf_json(FILE *f, const struct cmpfmt *c)
{
	unsigned int i, reg = cmpfmt_count(c, CMP_REGRESSION);
	struct meta *m = calloc(1, sizeof(*m));
	struct json j;

	if (!m)
		return -ENOMEM;
	meta_set(m, "command", "bench compare");
	meta_set(m, "stat", "%s", c->stat);
	meta_set(m, "alpha", "%g", c->alpha);
	meta_set(m, "threshold_pct", "%g", c->threshold_pct);
	if (cmpline_exact(c))
		meta_set(m, "spread_pct", "%g", c->spread_pct);
	meta_set(m, "reference", "%s", c->scaled ? "scaled" : "raw");
	meta_set(m, "unit", "%s", c->unit);
	if (cmpline_exact(c))
		meta_set(m, "unit_is", "%s", counted_what(c->unit));
	json_init(&j, f);
	json_doc_begin(&j, m);
	free(m);
	json_array_begin(&j, "comparisons");
	for (i = 0; i < c->n; i++)
		cf_json_one(&j, c, &c->s[i]);
	json_array_end(&j);
	json_u64(&j, "regressions", reg);
	json_u64(&j, "improvements", cmpfmt_count(c, CMP_IMPROVEMENT));
	json_string(&j, "verdict", cf_verdict(c));
	cf_json_diff(&j, c);
	if (c->busy)
		fileset_busy_json(&j, c->busy, cf_sides, 2);
	return json_doc_end(&j) ? -EIO : report_status(f);
}

/* ---- markdown ---- */

static void cf_md_row(FILE *f, const struct cmpfmt *c, const struct cmp_series *s)
{
	const struct cmp_result *r = &s->r;
	char b[32], a[32], bs[16], as[16], ch[112], p[16];

	fputs("| ", f);
	tf_md_cell(f, s->workload);
	fputc(' ', f);
	tf_md_cell(f, s->variant);
	fprintf(f, " | %s ±%s | %s ±%s | %s | ",
		cmpline_value(b, sizeof(b), r->before, c->unit),
		cmpline_spread(bs, sizeof(bs), c, r->before_spread),
		cmpline_value(a, sizeof(a), r->after, c->unit),
		cmpline_spread(as, sizeof(as), c, r->after_spread),
		cmpline_change(ch, sizeof(ch), c, r));
	tf_md_cell(f, cmpline_test(p, sizeof(p), c, r, ""));
	fprintf(f, " | %u+%u | %s", s->nb, s->na, cmpline_fails(r) ? "**" : "");
	tf_md_cell(f, cmp_verdict_names[r->verdict]);
	fprintf(f, "%s |\n", cmpline_fails(r) ? "**" : "");
}

/* the keys that differ, as a second table */
static void cf_md_diff(FILE *f, const struct cmpfmt *c)
{
	char text[1200];
	unsigned int i;

	if (!c->nr_diff)
		return;
	fprintf(f, "\nThe sides differ in %u key%s of the metadata (`bench compare --strict` refuses testbed and config differences):\n\n| key | kind | what differs |\n|:--|:--|:--|\n",
		c->nr_diff, c->nr_diff == 1 ? "" : "s");
	for (i = 0; i < c->nr_diff; i++) {
		cmpline_diff_text(text, sizeof(text), c, &c->diff[i]);
		fputs("| ", f);
		tf_md_cell(f, c->diff[i].key);
		fprintf(f, " | %s | ", tb_kind_names[c->diff[i].kind]);
		tf_md_cell(f, text);
		fputs(" |\n", f);
	}
}

static int cf_markdown(FILE *f, const struct cmpfmt *c)
{
	unsigned int i;
	char t[96];

	cf_tally(t, sizeof(t), c);
	if (cmpline_exact(c))
		fprintf(f, "**kstats-bench compare: %s** in %u series (%s per run, exact: %s counted, each side repeating within %g%%, threshold %g%%)\n\n",
			t, c->n, c->stat, counted_noun(c->unit), c->spread_pct, c->threshold_pct);
	else
		fprintf(f, "**kstats-bench compare: %s** in %u series (%s per run, one-sided alpha %g, threshold %g%%, %s figures)\n\n",
			t, c->n, c->stat, c->alpha, c->threshold_pct,
			c->scaled ? "reference-scaled" : "raw");
	fprintf(f, "| series | before | after | change [%s] | p | runs | verdict |\n"
		"|:--|--:|--:|--:|--:|--:|:--|\n", cmpline_exact(c) ? "every ratio" : "95% CI");
	for (i = 0; i < c->n; i++)
		cf_md_row(f, c, &c->s[i]);
	cf_md_diff(f, c);
	if (c->busy && fileset_busy_recorded(c->busy, 2)) {
		fputc('\n', f);
		fileset_busy_lines(f, c->busy, cf_sides, 2, "runs", "- ");
	}
	return report_status(f);
}

/* ---- JUnit XML ---- */

/* @s as XML character data or an attribute value */
static void cf_xml(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '&')
			fputs("&amp;", f);
		else if (ch == '<')
			fputs("&lt;", f);
		else if (ch == '>')
			fputs("&gt;", f);
		else if (ch == '"')
			fputs("&quot;", f);
		else if (ch < 0x20 && ch != '\t')
			fputc(' ', f);	/* XML 1.0 has no other control characters */
		else
			fputc(ch, f);
	}
}

static void cf_xml_prop(FILE *f, const char *name, const char *value)
{
	fputs("      <property name=\"", f);
	cf_xml(f, name);
	fputs("\" value=\"", f);
	cf_xml(f, value);
	fputs("\"/>\n", f);
}

static void cf_junit_props(FILE *f, const struct cmpfmt *c)
{
	char v[1200], key[64];
	unsigned int i;

	fputs("    <properties>\n", f);
	cf_xml_prop(f, "stat", c->stat);
	snprintf(v, sizeof(v), "%g", c->alpha);
	cf_xml_prop(f, "alpha", v);
	snprintf(v, sizeof(v), "%g", c->threshold_pct);
	cf_xml_prop(f, "threshold_pct", v);
	if (cmpline_exact(c)) {
		snprintf(v, sizeof(v), "%g", c->spread_pct);
		cf_xml_prop(f, "spread_pct", v);
	}
	cf_xml_prop(f, "reference", c->scaled ? "scaled" : "raw");
	cf_xml_prop(f, "unit", c->unit);
	for (i = 0; i < c->nr_diff; i++) {
		snprintf(key, sizeof(key), "%s.%s", tb_kind_names[c->diff[i].kind], c->diff[i].key);
		cmpline_diff_text(v, sizeof(v), c, &c->diff[i]);
		cf_xml_prop(f, key, v);
	}
	fputs("    </properties>\n", f);
}

static void cf_junit_case(FILE *f, const struct cmpfmt *c, const struct cmp_series *s)
{
	char line[512];

	cmpline_line(line, sizeof(line), c, s);
	fputs("    <testcase classname=\"kstats-bench.", f);
	cf_xml(f, s->workload);
	fputs("\" name=\"", f);
	cf_xml(f, s->variant);
	fprintf(f, " %s\">\n", c->stat);
	if (s->r.verdict == CMP_NOT_REPEATABLE) {
		fputs("      <failure type=\"not repeatable\" message=\"", f);
		cf_xml(f, line);
		fprintf(f, "\">a side spread past %g%% between runs of counted figures: ",
			c->spread_pct);
		cf_xml(f, line);
		fputs("</failure>\n", f);
	} else if (s->r.verdict == CMP_REGRESSION) {
		fputs("      <failure type=\"regression\" message=\"", f);
		cf_xml(f, line);
		if (cmpline_exact(c))
			fprintf(f, "\">more %s by more than %g%%, the sides apart: ",
				counted_noun(c->unit), c->threshold_pct);
		else
			fprintf(f, "\">slower by more than %g%% at one-sided alpha %g: ",
				c->threshold_pct, c->alpha);
		cf_xml(f, line);
		fputs("</failure>\n", f);
	}
	fputs("      <system-out>", f);
	cf_xml(f, line);
	fputs("</system-out>\n    </testcase>\n", f);
}

static int cf_junit(FILE *f, const struct cmpfmt *c)
{
	unsigned int i;
	unsigned int fail = cmpfmt_count(c, CMP_REGRESSION) + cmpfmt_count(c, CMP_NOT_REPEATABLE);

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<testsuites name=\"kstats-bench compare\" tests=\"%u\" failures=\"%u\" errors=\"0\">\n"
		   "  <testsuite name=\"kstats-bench compare\" tests=\"%u\" failures=\"%u\" errors=\"0\" skipped=\"0\">\n",
		c->n, fail, c->n, fail);
	cf_junit_props(f, c);
	for (i = 0; i < c->n; i++)
		cf_junit_case(f, c, &c->s[i]);
	fputs("  </testsuite>\n</testsuites>\n", f);
	return report_status(f);
}

/* ---- Bencher Metric Format, github-action-benchmark ---- */

static int cf_bmf(FILE *f, const struct cmpfmt *c)
{
	const char *measure = !strcmp(c->unit, "ns") ? "latency" :
			      cmpline_exact(c) ? counted_noun(c->unit) : "cycles";
	char name[192];
	struct json j;
	unsigned int i;

	json_init(&j, f);
	json_object_begin(&j, NULL);
	for (i = 0; i < c->n; i++) {
		const struct cmp_result *r = &c->s[i].r;

		snprintf(name, sizeof(name), "%s/%s", c->s[i].workload, c->s[i].variant);
		json_object_begin(&j, name);
		json_object_begin(&j, measure);
		json_double(&j, "value", r->after, 3);
		json_double(&j, "lower_value", r->after * (1 - r->after_spread), 3);
		json_double(&j, "upper_value", r->after * (1 + r->after_spread), 3);
		json_object_end(&j);
		json_object_end(&j);
	}
	json_object_end(&j);
	return json_finish(&j) ? -EIO : report_status(f);
}

/* github-action-benchmark's "extra": what the chart's tooltip shows */
static void cf_gab_extra(char *buf, size_t len, const struct cmpfmt *c,
			 const struct cmp_series *s)
{
	const struct cmp_result *r = &s->r;
	char b[32], bs[16], ch[112], p[16];

	snprintf(buf, len, "before %s ±%s, change %s, %s, n=%u+%u: %s",
		 cmpline_value(b, sizeof(b), r->before, c->unit),
		 cmpline_spread(bs, sizeof(bs), c, r->before_spread),
		 cmpline_change(ch, sizeof(ch), c, r), cmpline_test(p, sizeof(p), c, r, "p"),
		 s->nb, s->na, cmp_verdict_names[r->verdict]);
}

static int cf_gab(FILE *f, const struct cmpfmt *c)
{
	char name[192], range[32], extra[256];
	struct json j;
	unsigned int i;

	json_init(&j, f);
	json_array_begin(&j, NULL);
	for (i = 0; i < c->n; i++) {
		const struct cmp_result *r = &c->s[i].r;

		snprintf(name, sizeof(name), "%s %s %s", c->s[i].workload, c->s[i].variant, c->stat);
		snprintf(range, sizeof(range), "± %.1f%%", r->after_spread * 100);
		cf_gab_extra(extra, sizeof(extra), c, &c->s[i]);
		json_object_begin(&j, NULL);
		json_string(&j, "name", name);
		json_string(&j, "unit", c->unit);
		json_double(&j, "value", r->after, 3);
		json_string(&j, "range", range);
		json_string(&j, "extra", extra);
		json_object_end(&j);
	}
	json_array_end(&j);
	return json_finish(&j) ? -EIO : report_status(f);
}

/* ---- the table of writers ---- */

#define CMPFMT_ROWS(X, M) \
	X(M, "table", "each series' verdict, pooled figures (default)", cf_table, REPORT_TESTBED) \
	X(M, "csv", "one row per series", cf_csv, 0) \
	X(M, "runs", "every run's figure (./run.sh compare plots it)", cf_runs, 0) \
	X(M, "json", "one JSON document, every run's figure", cf_json, REPORT_JSON | REPORT_TESTBED) \
	X(M, "markdown", "for CI: a GitHub table", cf_markdown, REPORT_TESTBED) \
	X(M, "junit", "for CI: JUnit XML, a testcase per series", cf_junit, REPORT_TESTBED) \
	X(M, "bmf", "for CI: Bencher Metric Format", cf_bmf, REPORT_JSON) \
	X(M, "github-action-benchmark", "for CI: its customSmallerIsBetter JSON", cf_gab, REPORT_JSON) \
	X(M, "cdf", "each side's pooled CDF (what ./run.sh plots)", cf_cdf, 0) \
	X(M, "kcidb", "for KernelCI: KCIDB v5.3, a test per series", kcidb_write_compare, \
	  REPORT_JSON | REPORT_TESTBED) \
	X(M, "lkp", "0-day's %change table, with the verdicts", lkp_write_compare, 0)
REPORT_TABLE(cmpfmt_writers, struct cmpfmt, CMPFMT_ROWS);

/* ---- GitHub Actions workflow commands ---- */

/* a command's message: %, CR and LF %-encoded (the runner decodes them) */
static void cf_gha(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '%')
			fputs("%25", f);
		else if (*s == '\r')
			fputs("%0D", f);
		else if (*s == '\n')
			fputs("%0A", f);
		else
			fputc(*s, f);
	}
}

int cmpfmt_annotations(FILE *f, const struct cmpfmt *c)
{
	char line[1200];
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		if (!cmpline_fails(&c->s[i].r))
			continue;
		cmpline_line(line, sizeof(line), c, &c->s[i]);
		fprintf(f, "::error title=kstats-bench %s::", cmp_verdict_names[c->s[i].r.verdict]);
		cf_gha(f, line);
		fputc('\n', f);
	}
	for (i = 0; i < c->nr_diff; i++) {
		cmpline_diff_text(line, sizeof(line), c, &c->diff[i]);
		fprintf(f, "::warning title=kstats-bench %s differs::%s: ",
			tb_kind_names[c->diff[i].kind], c->diff[i].key);
		cf_gha(f, line);
		fputc('\n', f);
	}
	return report_status(f);
}
