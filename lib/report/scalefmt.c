// SPDX-License-Identifier: GPL-2.0
/*
 * scalefmt.c - bench scale's reports, one writer per format over what
 * builtin-scale.c computed (scalefmt.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kstats_hist.h"
#include "lib/report/auditfmt.h"
#include "lib/report/cmpline.h"
#include "lib/results/counted.h"
#include "lib/results/fileset.h"
#include "lib/results/json.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"
#include "lib/report/scalefmt.h"
#include "lib/subcmd/textfmt.h"

/* the audit's report in format @name (auditfmt.h): what an audit's rows write */
static int sf_audit(FILE *f, const struct scalefmt *o, const char *name)
{
	const struct report_writer *w = report_find(auditfmt_writers, name);

	return w && o->audit ? w->write(f, o->audit) : -EINVAL;
}

/* a slope and its ends: "+7.696ns/CPU [+7.366, +7.957]" */
static const char *sf_slope(char *buf, size_t len, const struct scale_report *r, double b,
			    double lo, double hi)
{
	snprintf(buf, len, "%+.4g%s/CPU [%+.4g, %+.4g]", b, cmpline_unit(r->unit), lo, hi);
	return buf;
}

/* the threshold in words: "0.3848ns/CPU (5% of A)" */
static const char *sf_threshold(char *buf, size_t len, const struct scalefmt *o,
				const struct scale_report *r, const struct scale_row *row)
{
	const char *u = cmpline_unit(r->unit);

	if (counted_unit(r->unit) && row->threshold_ns == o->flat)
		snprintf(buf, len, "%.4g%s/CPU (--flat)", row->threshold_ns, u);
	else if (o->threshold.pct)
		snprintf(buf, len, "%.4g%s/CPU (%g%% of %s)", row->threshold_ns, u,
			 o->threshold.v, r->g[0].name);
	else
		snprintf(buf, len, "%.4g%s/CPU", row->threshold_ns, u);
	return buf;
}

struct sf_tally {
	unsigned int verdict[3];	/* fits per enum scale_verdict */
	unsigned int gated;		/* series with a difference */
	unsigned int regressions;	/* of them */
	unsigned int not_repeatable;	/* of them, counted, a side past --spread */
};

/* a difference's verdict */
static const char *sf_diff_verdict(const struct scale_row *row)
{
	return row->not_repeatable ? "not repeatable" : row->regression ? "regression" : "ok";
}

/* the gate's word */
static const char *sf_gate_verdict(const struct sf_tally *t)
{
	return t->regressions ? "regression" : t->not_repeatable ? "not-repeatable" : "ok";
}

/* a counted fit's spread after its verdict: "  spread 0.05%", ", not repeatable" past --spread */
static const char *sf_spread(char *buf, size_t len, const struct scale_report *r,
			     const struct scale_fitted *f)
{
	if (!counted_unit(r->unit))
		buf[0] = 0;
	else
		snprintf(buf, len, "  spread %.2f%%%s", f->spread * 100,
			 f->repeats ? "" : ", not repeatable");
	return buf;
}

static void sf_count(const struct scalefmt *o, const struct scale_report *r,
		     struct sf_tally *t)
{
	unsigned int i, k;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < r->n; i++) {
		for (k = 0; k < r->nr_groups; k++)
			if (r->row[i].side[k].has)
				t->verdict[scale_verdict(&r->row[i].side[k].fit, o->flat)]++;
		t->gated += r->row[i].gated;
		t->regressions += r->row[i].regression;
		t->not_repeatable += r->row[i].gated && r->row[i].not_repeatable;
	}
}

/* ---- table ---- */

static void table_fit(FILE *f, const struct scalefmt *o, const struct scale_report *r,
		      const struct scale_row *row, unsigned int k)
{
	const struct scale_fit *fit = &row->side[k].fit;
	char s[128], a[32], e[32], l[32], h[32], sp[48];
	double est, lo, hi;
	unsigned int i;

	cmpline_value(a, sizeof(a), fit->intercept, r->unit);
	fprintf(f, "%s %s  %s  %s  %s  a=%s  n=%u p=%g..%g (%u counts)  %s%s\n", row->workload,
		row->variant, r->g[k].name, cmp_stat_names[o->stat],
		sf_slope(s, sizeof(s), r, fit->slope, fit->lo, fit->hi), a, fit->n, fit->x_min,
		fit->x_max, fit->nx, scale_verdict_names[scale_verdict(fit, o->flat)],
		sf_spread(sp, sizeof(sp), r, &row->side[k]));
	for (i = 0; i < o->nr_at; i++) {
		scale_at(fit, o->at[i], &est, &lo, &hi);
		fprintf(f, "  at %u: %s [%s, %s]\n", o->at[i],
			cmpline_value(e, sizeof(e), est, r->unit),
			cmpline_value(l, sizeof(l), lo, r->unit),
			cmpline_value(h, sizeof(h), hi, r->unit));
	}
}

static int sf_table(FILE *f, const struct scalefmt *o)
{
	const struct scale_report *r = o->r;
	char s[128], th[192];
	struct sf_tally t;
	unsigned int i, k;

	if (o->audit)
		return sf_audit(f, o, "table");

	sf_count(o, r, &t);
	for (i = 0; i < r->n; i++) {
		const struct scale_row *row = &r->row[i];

		for (k = 0; k < r->nr_groups; k++)
			if (row->side[k].has)
				table_fit(f, o, r, row, k);
		if (!row->gated)
			continue;
		sf_slope(s, sizeof(s), r, row->diff.est, row->diff.lo, row->diff.hi);
		fprintf(f, "%s %s  B-A  %s  threshold %s  %s\n", row->workload, row->variant, s,
			sf_threshold(th, sizeof(th), o, r, row), sf_diff_verdict(row));
	}
	fprintf(f, "SCALE series=%u grows=%u flat=%u shrinks=%u stat=%s", r->n,
		t.verdict[SCALE_GROWS], t.verdict[SCALE_FLAT], t.verdict[SCALE_SHRINKS],
		cmp_stat_names[o->stat]);
	if (r->nr_groups == 1) {
		fprintf(f, " group=%s flat_%s=%g\n", r->g[0].name, r->unit, o->flat);
		return report_status(f);
	}
	fprintf(f, " A=%s B=%s gated=%u regressions=%u", r->g[0].name, r->g[1].name, t.gated,
		t.regressions);
	if (counted_unit(r->unit))
		fprintf(f, " not_repeatable=%u spread=%g%%", t.not_repeatable, o->spread_pct);
	fprintf(f, " threshold=%g%s verdict=%s\n", o->threshold.v,
		o->threshold.pct ? "%" : r->unit, sf_gate_verdict(&t));
	return report_status(f);
}

/* the csv's repeats column: counted files' yes or no, nothing for timed ones */
static const char *sf_repeats(const struct scale_report *r, bool not_repeatable)
{
	return !counted_unit(r->unit) ? "" : not_repeatable ? "no" : "yes";
}

/* ---- csv ---- */

static void csv_lead(FILE *f, const char *kind, const char *group, const struct scale_row *row,
		     const struct scalefmt *o)
{
	fprintf(f, "%s,", kind);
	tf_csv_field(f, group);
	fputc(',', f);
	tf_csv_field(f, row->workload);
	fputc(',', f);
	tf_csv_field(f, row->variant);
	fprintf(f, ",%s,", cmp_stat_names[o->stat]);
}

static int sf_csv(FILE *f, const struct scalefmt *o)
{
	const struct scale_report *r = o->r;
	double est, lo, hi;
	unsigned int i, k, a;

	if (o->audit)
		return sf_audit(f, o, "csv");

	fputs("kind,group,workload,variant,stat,points,counts,x_min,x_max,slope,slope_lo,slope_hi,"
	      "intercept,intercept_at_slope_lo,intercept_at_slope_hi,verdict,threshold,spread_pct,"
	      "repeats", f);
	for (a = 0; a < o->nr_at; a++)
		fprintf(f, ",at_%u,at_%u_lo,at_%u_hi", o->at[a], o->at[a], o->at[a]);
	fputc('\n', f);
	for (i = 0; i < r->n; i++) {
		const struct scale_row *row = &r->row[i];

		for (k = 0; k < r->nr_groups; k++) {
			const struct scale_fit *fit = &row->side[k].fit;

			if (!row->side[k].has)
				continue;
			csv_lead(f, "fit", r->g[k].name, row, o);
			fprintf(f, "%u,%u,%g,%g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%s,%g,%.4g,%s", fit->n,
				fit->nx, fit->x_min, fit->x_max, fit->slope, fit->lo, fit->hi,
				fit->intercept, fit->icpt_lo, fit->icpt_hi,
				scale_verdict_names[scale_verdict(fit, o->flat)], o->flat,
				row->side[k].spread * 100, sf_repeats(r, !row->side[k].repeats));
			for (a = 0; a < o->nr_at; a++) {
				scale_at(fit, o->at[a], &est, &lo, &hi);
				fprintf(f, ",%.9g,%.9g,%.9g", est, lo, hi);
			}
			fputc('\n', f);
		}
		if (!row->gated)
			continue;
		csv_lead(f, "diff", "B-A", row, o);
		fprintf(f, ",,,,%.9g,%.9g,%.9g,,,,%s,%.9g,,%s", row->diff.est, row->diff.lo,
			row->diff.hi, sf_diff_verdict(row), row->threshold_ns,
			sf_repeats(r, row->not_repeatable));
		for (a = 0; a < o->nr_at; a++)
			fputs(",,,", f);
		fputc('\n', f);
	}
	return report_status(f);
}

/* ---- points: every point, exactly, for plots and for tests/scale_ref.py ---- */

static int sf_points(FILE *f, const struct scalefmt *o)
{
	const struct scale_report *r = o->r;
	unsigned int i, k, p;

	/* the unit first, so that a plot reads it from bench, not from the files */
	fprintf(f, "# unit: %s\n", r->unit);
	fprintf(f, "group,file,run,possible_cpus,workload,variant,%s\n", cmp_stat_names[o->stat]);
	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->nr_groups; k++)
			for (p = 0; p < r->row[i].side[k].npt; p++) {
				const struct scale_point *pt = &r->row[i].side[k].pt[p];

				tf_csv_field(f, r->g[k].name);
				fputc(',', f);
				tf_csv_field(f, r->g[k].path[pt->file]);
				fprintf(f, ",%u,%g,", pt->run, pt->x);
				tf_csv_field(f, r->row[i].workload);
				fputc(',', f);
				tf_csv_field(f, r->row[i].variant);
				fprintf(f, ",%.17g\n", pt->y);
			}
	return report_status(f);
}

/* ---- json ---- */

static void json_fit(struct json *j, const struct scalefmt *o, const struct scale_report *r,
		     const struct scale_row *row, unsigned int k)
{
	const struct scale_fit *fit = &row->side[k].fit;
	double est, lo, hi;
	unsigned int a;

	json_object_begin(j, NULL);
	json_string(j, "group", r->g[k].name);
	json_string(j, "workload", row->workload);
	json_string(j, "variant", row->variant);
	json_u64(j, "points", fit->n);
	json_u64(j, "counts", fit->nx);
	json_double(j, "x_min", fit->x_min, 0);
	json_double(j, "x_max", fit->x_max, 0);
	json_double(j, "slope", fit->slope, 9);
	json_double(j, "slope_lo", fit->lo, 9);
	json_double(j, "slope_hi", fit->hi, 9);
	json_double(j, "intercept", fit->intercept, 6);
	json_string(j, "verdict", scale_verdict_names[scale_verdict(fit, o->flat)]);
	json_double(j, "spread_pct", row->side[k].spread * 100, 4);
	json_bool(j, "repeats", row->side[k].repeats);
	json_array_begin(j, "at");
	for (a = 0; a < o->nr_at; a++) {
		scale_at(fit, o->at[a], &est, &lo, &hi);
		json_object_begin(j, NULL);
		json_u64(j, "possible_cpus", o->at[a]);
		json_double(j, "value", est, 3);
		json_double(j, "lo", lo, 3);
		json_double(j, "hi", hi, 3);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

static void json_diff(struct json *j, const struct scale_row *row)
{
	json_object_begin(j, NULL);
	json_string(j, "workload", row->workload);
	json_string(j, "variant", row->variant);
	json_double(j, "slope_diff", row->diff.est, 9);
	json_double(j, "lo", row->diff.lo, 9);
	json_double(j, "hi", row->diff.hi, 9);
	json_double(j, "threshold", row->threshold_ns, 9);
	json_string(j, "verdict", sf_diff_verdict(row));
	json_object_end(j);
}

/* the groups' names, for the disturbed runs (lib/results/fileset.h) */
static void sf_groups(const struct scale_report *r, const char **name)
{
	unsigned int k;

	for (k = 0; k < r->nr_groups; k++)
		name[k] = r->g[k].name;
}

/* markdown's closing list of each group's disturbed runs, when recorded */
static void sf_md_busy(FILE *f, const struct scale_report *r)
{
	const char *name[2];

	if (!fileset_busy_recorded(r->fs.busy, r->nr_groups))
		return;
	sf_groups(r, name);
	fputc('\n', f);
	fileset_busy_lines(f, r->fs.busy, name, r->nr_groups, "runs", "- ");
}

static int sf_json(FILE *f, const struct scalefmt *o)
{
	const char *name[2];
	const struct scale_report *r = o->r;
	static struct meta m;
	struct sf_tally t;
	struct json j;
	unsigned int i, k;

	if (o->audit)
		return sf_audit(f, o, "json");

	sf_count(o, r, &t);
	memset(&m, 0, sizeof(m));
	meta_set(&m, "command", "bench scale");
	meta_set(&m, "stat", "%s", cmp_stat_names[o->stat]);
	meta_set(&m, "unit", "%s", r->unit);
	meta_set(&m, "slope_unit", "%s per possible CPU", r->unit);
	meta_set(&m, "estimator", "theil-sen, sen 95%% interval");
	meta_set(&m, "flat", "%g", o->flat);
	if (counted_unit(r->unit)) {
		meta_set(&m, "unit_is", "%s", counted_what(r->unit));
		meta_set(&m, "spread_pct", "%g", o->spread_pct);
	}
	meta_set(&m, "threshold", "%g%s", o->threshold.v, o->threshold.pct ? "%" : "");
	for (k = 0; k < r->nr_groups; k++)
		meta_set(&m, k ? "group_b" : "group_a", "%s", r->g[k].name);
	json_init(&j, f);
	json_doc_begin(&j, &m);
	json_array_begin(&j, "fits");
	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->nr_groups; k++)
			if (r->row[i].side[k].has)
				json_fit(&j, o, r, &r->row[i], k);
	json_array_end(&j);
	json_array_begin(&j, "differences");
	for (i = 0; i < r->n; i++)
		if (r->row[i].gated)
			json_diff(&j, &r->row[i]);
	json_array_end(&j);
	json_u64(&j, "grows", t.verdict[SCALE_GROWS]);
	json_u64(&j, "regressions", t.regressions);
	json_u64(&j, "not_repeatable", t.not_repeatable);
	json_string(&j, "verdict", sf_gate_verdict(&t));
	sf_groups(r, name);
	fileset_busy_json(&j, r->fs.busy, name, r->nr_groups);
	return json_doc_end(&j) ? -EIO : report_status(f);
}

/* ---- markdown ---- */

/* GitHub-flavoured markdown's punctuation escaped, so a name stays text */
static int sf_markdown(FILE *f, const struct scalefmt *o)
{
	const struct scale_report *r = o->r;
	char s[128], a[32], th[192], sp[48];
	struct sf_tally t;
	unsigned int i, k;

	if (o->audit)
		return sf_audit(f, o, "markdown");

	sf_count(o, r, &t);
	fprintf(f, "**kstats-bench scale: %s** - %u series, %u grow with possible CPUs (Theil-Sen, %s per run, 95%% intervals)\n\n",
		r->nr_groups == 2 ? sf_gate_verdict(&t) : "slopes", r->n,
		t.verdict[SCALE_GROWS], cmp_stat_names[o->stat]);
	fprintf(f, "| series | group | slope per possible CPU [95%% CI] | intercept | points | verdict |\n");
	fprintf(f, "|:--|:--|--:|--:|--:|:--|\n");
	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->nr_groups; k++) {
			const struct scale_fit *fit = &r->row[i].side[k].fit;

			if (!r->row[i].side[k].has)
				continue;
			fputs("| ", f);
			tf_md_cell(f, r->row[i].workload);
			fputc(' ', f);
			tf_md_cell(f, r->row[i].variant);
			fputs(" | ", f);
			tf_md_cell(f, r->g[k].name);
			fprintf(f, " | %s | %s | %u at %u counts | %s%s |\n",
				sf_slope(s, sizeof(s), r, fit->slope, fit->lo, fit->hi),
				cmpline_value(a, sizeof(a), fit->intercept, r->unit), fit->n,
				fit->nx, scale_verdict_names[scale_verdict(fit, o->flat)],
				sf_spread(sp, sizeof(sp), r, &r->row[i].side[k]));
		}
	if (!t.gated) {
		sf_md_busy(f, r);
		return report_status(f);
	}
	fprintf(f, "\n| series | B-A slope [95%% CI] | threshold | verdict |\n|:--|--:|--:|:--|\n");
	for (i = 0; i < r->n; i++) {
		const struct scale_row *row = &r->row[i];

		if (!row->gated)
			continue;
		fputs("| ", f);
		tf_md_cell(f, row->workload);
		fputc(' ', f);
		tf_md_cell(f, row->variant);
		fprintf(f, " | %s | %s | %s |\n",
			sf_slope(s, sizeof(s), r, row->diff.est, row->diff.lo, row->diff.hi),
			sf_threshold(th, sizeof(th), o, r, row),
			row->regression ? "**regression**" :
			row->not_repeatable ? "**not repeatable**" : "ok");
	}
	sf_md_busy(f, r);
	return report_status(f);
}

/* ---- sweep ---- */

/* the rows of the first workload but the reference loop: the sweep's columns */
static bool sf_sweep_row(const struct scale_report *r, unsigned int i)
{
	return !strcmp(r->row[i].workload, r->row[0].workload) &&
	       strcmp(r->row[i].variant, RESULTS_REFERENCE);
}

/* stat @k (mean, p50, p99) of @row's merged series in @set, or nothing */
static void sf_sweep_cell(FILE *f, const struct results *set, const struct scale_row *row,
			  unsigned int k)
{
	const struct results_series *s = results_find(set, row->workload, row->variant,
						       RESULTS_RUN_ALL, RESULTS_CPU_ALL);

	fputc(',', f);
	if (!s)
		return;
	if (!k)
		fprintf(f, "%.1f", kstats_hist_mean(s->h));
	else
		fprintf(f, "%lu", (unsigned long)kstats_hist_value_at_percentile(s->h,
										k == 1 ? 50 : 99));
}

/* per file of the first group its possible CPUs, then each variant's mean, p50, p99 */
static int sf_sweep(FILE *f, const struct scalefmt *o)
{
	static const char *const stat[] = { "mean", "p50", "p99" };
	const struct scale_report *r = o->r;
	const struct scale_group *g = &r->g[0];
	unsigned int i, k, v;

	fprintf(f, "# unit: %s\npossible_cpus", r->unit);
	for (k = 0; k < 3; k++)
		for (v = 0; v < r->n; v++)
			if (sf_sweep_row(r, v))
				fprintf(f, ",%s_%s", r->row[v].variant, stat[k]);
	fputc('\n', f);
	for (i = 0; i < g->n; i++) {
		fprintf(f, "%u", g->possible[i]);
		for (k = 0; k < 3; k++)
			for (v = 0; v < r->n; v++)
				if (sf_sweep_row(r, v))
					sf_sweep_cell(f, g->set[i], &r->row[v], k);
		fputc('\n', f);
	}
	return report_status(f);
}

/* ---- kcidb: an audit's alone ---- */

static int sf_kcidb(FILE *f, const struct scalefmt *o)
{
	return sf_audit(f, o, "kcidb");
}

#define SCALEFMT_ROWS(X, M) \
	X(M, "table", "the slope lines, the B-A lines, one SCALE line", sf_table, 0) \
	X(M, "csv", "a row per fit and per B-A difference", sf_csv, 0) \
	X(M, "points", "every point, every digit: what run.sh plots", sf_points, 0) \
	X(M, "json", "one kstats-bench JSON document", sf_json, REPORT_JSON) \
	X(M, "markdown", "GitHub tables: a PR comment", sf_markdown, 0) \
	X(M, "sweep", "a row per file: mean, p50, p99 (run.sh sweep)", sf_sweep, 0) \
	X(M, "kcidb", "--audit: a KCIDB test per entry", sf_kcidb, REPORT_JSON | REPORT_AUDIT)
REPORT_TABLE(scalefmt_writers, struct scalefmt, SCALEFMT_ROWS);
