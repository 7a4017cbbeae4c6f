// SPDX-License-Identifier: GPL-2.0
/*
 * trendfmt.c - bench trend's reports: table, csv, runs, JSON and
 * markdown (trendfmt.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/report/cmpline.h"
#include "lib/results/counted.h"
#include "lib/results/fileset.h"
#include "lib/results/json.h"
#include "lib/report/kcidb.h"
#include "lib/results/meta.h"
#include "lib/subcmd/textfmt.h"
#include "lib/report/trendfmt.h"

/* ---- what every format shares ---- */

enum cmp_verdict trendfmt_verdict(const struct trendfmt *t, const struct trend_cp *c)
{
	double th = t->min_change_pct / 100;

	if (c->change.est > th)
		return CMP_REGRESSION;
	return c->change.est < -th ? CMP_IMPROVEMENT : CMP_BELOW;
}

/* the first run after @c is in one of the history's last --recent nights (files) */
static bool tfm_recent(const struct trendfmt *t, const struct history_series *s,
		       const struct trend_cp *c)
{
	return t->h->nf - s->r[c->idx].file <= t->recent;
}

bool trendfmt_failing(const struct trendfmt *t, const struct history_series *s)
{
	const struct trend_cp *c = s->nr_cp ? &s->cp[s->nr_cp - 1] : NULL;

	return c && trendfmt_verdict(t, c) == CMP_REGRESSION && tfm_recent(t, s, c);
}

void trendfmt_tally(const struct trendfmt *t, struct trendfmt_tally *n)
{
	const struct history *h = t->h;
	unsigned int k, i;

	memset(n, 0, sizeof(*n));
	for (k = 0; k < h->ns; k++) {
		for (i = 0; i < h->s[k].nr_cp; i++) {
			enum cmp_verdict v = trendfmt_verdict(t, &h->s[k].cp[i]);

			n->change_points++;
			n->regressions += v == CMP_REGRESSION;
			n->improvements += v == CMP_IMPROVEMENT;
		}
		n->failing += trendfmt_failing(t, &h->s[k]);
	}
}

/* a side's own figure: a time or count, or (--slope) that per CPU "25.10ns/CPU" */
static const char *tfm_own_value(char *buf, size_t len, const struct trendfmt *t, double v)
{
	char a[32];

	if (!t->h->slope)
		return cmpline_value(buf, len, v, t->h->unit);
	snprintf(buf, len, "%s/CPU", cmpline_value(a, sizeof(a), v, t->h->unit));
	return buf;
}

/* a figure: a side's own, or (paired) a ratio "x1.012" */
static const char *tfm_value(char *buf, size_t len, const struct trendfmt *t, double v)
{
	if (t->h->paired) {
		snprintf(buf, len, "x%.3f", v);
		return buf;
	}
	return tfm_own_value(buf, len, t, v);
}

/* the median of @v over @c's segment before (@after false) or after it */
static double tfm_side(const double *v, const struct trend_cp *c, bool after)
{
	double spread;

	return after ? history_median(v, c->idx, c->hi, &spread) :
		       history_median(v, c->lo, c->idx, &spread);
}

/*
 * Where a change point is, for a human: the timestamp and labels of the
 * first run after it, its file and run (paired: the night's subject file);
 * @md escapes for a markdown cell.
 */
static void tfm_where(FILE *f, const struct trendfmt *t, const struct history_run *r, bool md)
{
	const struct history_file *hf = &t->h->f[r->file];
	unsigned int i;

	if (hf->stamp[0])
		fprintf(f, "%s ", hf->stamp);
	for (i = 0; i < hf->nr_labels; i++) {
		if (md)
			tf_md_cell(f, hf->label[i]);
		else
			fputs(hf->label[i], f);
		fputc(' ', f);
	}
	if (md)
		tf_md_cell(f, hf->path);
	else
		fputs(hf->path, f);
	if (!t->h->paired && !t->h->slope)
		fprintf(f, " run %u", r->run);
}

/* paired: "  subject 9.75us -> 11.17us, control 8.93us -> 8.95us, theta 0.97" (@md: "; subject") */
static void tfm_own(FILE *f, const struct trendfmt *t, const struct history_series *s,
		    const struct trend_cp *c, bool md)
{
	char a[48], b[48], d[48], e[48];

	if (!t->h->paired)
		return;
	fprintf(f, "%ssubject %s -> %s, control %s -> %s, theta %.2f", md ? "; " : "  ",
		tfm_own_value(a, sizeof(a), t, tfm_side(s->subject, c, false)),
		tfm_own_value(b, sizeof(b), t, tfm_side(s->subject, c, true)),
		tfm_own_value(d, sizeof(d), t, tfm_side(s->control, c, false)),
		tfm_own_value(e, sizeof(e), t, tfm_side(s->control, c, true)), s->theta);
}

/* ---- table ---- */

/* a change point's figures as text, for the table and markdown */
struct tfm_text {
	char before[32], after[32];	/* the segments' medians */
	char est[32], lo[32], hi[32];	/* the change and its interval */
	char p[16];			/* its p */
};

static void tfm_text(struct tfm_text *x, const struct trendfmt *t, const struct trend_cp *c)
{
	tfm_value(x->before, sizeof(x->before), t, c->before);
	tfm_value(x->after, sizeof(x->after), t, c->after);
	cmpline_pct(x->est, sizeof(x->est), c->change.est);
	cmpline_pct(x->lo, sizeof(x->lo), c->change.lo);
	cmpline_pct(x->hi, sizeof(x->hi), c->change.hi);
	snprintf(x->p, sizeof(x->p), "%.2g", c->p);
}

/* the series' name: "irqdesc-alloc old tm10", paired "... tm10/control" */
static void tfm_name(FILE *f, const struct trendfmt *t, const struct history_series *s, bool md)
{
	if (md) {
		tf_md_cell(f, s->workload);
		fputc(' ', f);
		tf_md_cell(f, s->variant);
	} else {
		fprintf(f, "%s %s", s->workload, s->variant);
	}
	fprintf(f, " %s%s%s", t->stat, t->h->slope ? " slope" : "", t->h->paired ? "/control" : "");
}

/* one change point: a table line, or (@md) a markdown row */
static void tfm_cp(FILE *f, const struct trendfmt *t, const struct history_series *s,
		   const struct trend_cp *c, bool md)
{
	const struct history_run *r = &s->r[c->idx];
	struct tfm_text x;

	tfm_text(&x, t, c);
	fputs(md ? "| " : "", f);
	tfm_name(f, t, s, md);
	fputs(md ? " | " : "  ", f);
	tfm_where(f, t, r, md);
	fprintf(f, md ? " (#%u of %u) | %s | %s | %s [%s, %s] | %s | %u+%u | %s%s" :
			" (#%u of %u)  %s -> %s  %s [%s, %s]  p=%s n=%u+%u  %s%s",
		c->idx + 1, s->n, x.before, x.after, x.est, x.lo, x.hi, x.p, c->idx - c->lo,
		c->hi - c->idx, cmp_verdict_names[trendfmt_verdict(t, c)],
		!tfm_recent(t, s, c) ? "" : md ? ", **recent**" : ", recent");
	tfm_own(f, t, s, c, md);
	fputs(md ? " |\n" : "\n", f);
}

/* a series without a change point: its median, and paired the two sides' */
static void tfm_flat(FILE *f, const struct trendfmt *t, const struct history_series *s)
{
	char m[32], a[32], b[32];
	double med, spread, sp, sub, con;

	med = history_median(s->x, 0, s->n, &spread);
	tfm_name(f, t, s, false);
	fprintf(f, "  no change point in %u %s%s  %s +-%.*f%%", s->n,
		t->h->paired || t->h->slope ? "nights" : "runs", s->n < 2 * TREND_MIN_SEG ? " (too few to split)" : "",
		tfm_value(m, sizeof(m), t, med), counted_unit(t->h->unit) ? 2 : 0, spread * 100);
	if (t->h->paired) {
		sub = history_median(s->subject, 0, s->n, &sp);
		con = history_median(s->control, 0, s->n, &sp);
		fprintf(f, "  subject %s, control %s, theta %.2f", tfm_own_value(a, sizeof(a), t, sub),
			tfm_own_value(b, sizeof(b), t, con), s->theta);
	}
	fputc('\n', f);
}

/* per workload: the speed the figures were brought to, and each share */
static void tfm_ref(FILE *f, const struct trendfmt *t, unsigned int k)
{
	const struct history *h = t->h;
	const struct history_series *s = &h->s[k];
	char m[32];
	unsigned int i;

	fprintf(f, "%s reference tm10 (median run): %s; figures at it by their share, fitted within each file:",
		s->workload, cmpline_value(m, sizeof(m), s->ref_at, t->h->unit));
	for (i = k; i < h->ns; i++)
		if (!strcmp(h->s[i].workload, s->workload))
			fprintf(f, " %s %.2f", h->s[i].variant, h->s[i].share);
	fputc('\n', f);
}

static int tfm_table(FILE *f, const struct trendfmt *t)
{
	const struct history *h = t->h;
	struct trendfmt_tally n;
	unsigned int k, i;

	trendfmt_tally(t, &n);
	for (k = 0; k < h->ns; k++) {
		for (i = 0; i < h->s[k].nr_cp; i++)
			tfm_cp(f, t, &h->s[k], &h->s[k].cp[i], false);
		if (!h->s[k].nr_cp)
			tfm_flat(f, t, &h->s[k]);
	}
	/* paired, each side was scaled by its own reference: its share is per side */
	for (k = 0; h->scaled && !h->paired && k < h->ns; k++) {
		for (i = 0; i < k && strcmp(h->s[i].workload, h->s[k].workload); i++)
			;
		if (i == k)
			tfm_ref(f, t, k);
	}
	fprintf(f, "TREND series=%u files=%u change_points=%u regressions=%u improvements=%u failing=%u stat=%s alpha=%g min_change=%g%% window=%lu recent=%lu seed=%lu reference=%s order=%s verdict=%s%s%s\n",
		h->ns, h->nf, n.change_points, n.regressions, n.improvements, n.failing, t->stat,
		t->alpha, t->min_change_pct, t->window, t->recent, t->seed,
		h->scaled ? "scaled" : "raw", h->by_time ? "timestamp" : "given",
		n.failing ? "regression" : "ok", h->paired ? " control=paired" : "",
		h->slope ? " figure=slope" : "");
	return report_status(f);
}

/* ---- csv, runs ---- */

/* the labels as one field, "KEY=VALUE KEY=VALUE" */
static int tfm_csv_labels(FILE *f, const struct history_file *hf)
{
	size_t len = 1;
	unsigned int i;
	char *all;

	for (i = 0; i < hf->nr_labels; i++)
		len += strlen(hf->label[i]) + 1;
	all = calloc(1, len);
	if (!all)
		return -ENOMEM;
	for (i = 0; i < hf->nr_labels; i++)
		strcat(strcat(all, i ? " " : ""), hf->label[i]);
	tf_csv_field(f, all);
	free(all);
	return 0;
}

static int tfm_csv_row(FILE *f, const struct trendfmt *t, const struct history_series *s,
		       const struct trend_cp *c)
{
	const struct history_run *r = &s->r[c->idx];
	const struct history_file *hf = &t->h->f[r->file];

	fprintf(f, "%s,%s,%s,%u,%u,%s,", s->workload, s->variant, t->stat, c->idx + 1, s->n,
		hf->stamp);
	if (tfm_csv_labels(f, hf))
		return -ENOMEM;
	fputc(',', f);
	tf_csv_field(f, hf->path);
	fprintf(f, ",%u,%.6g,%.6g,%.2f,%.2f,%.2f,%.6f,%u,%u,%s,%s", r->run, c->before, c->after,
		c->change.est * 100, c->change.lo * 100, c->change.hi * 100, c->p,
		c->idx - c->lo, c->hi - c->idx,
		trendfmt_verdict(t, c) == CMP_BELOW ? "significant below threshold" :
		cmp_verdict_names[trendfmt_verdict(t, c)], tfm_recent(t, s, c) ? "yes" : "no");
	if (t->h->paired)
		fprintf(f, ",%.6g,%.6g,%.6g,%.6g,%.4f", tfm_side(s->subject, c, false),
			tfm_side(s->subject, c, true), tfm_side(s->control, c, false),
			tfm_side(s->control, c, true), s->theta);
	fputc('\n', f);
	return 0;
}

static int tfm_csv(FILE *f, const struct trendfmt *t)
{
	const struct history *h = t->h;
	unsigned int k, i;

	fputs(TRENDFMT_CSV_COLUMNS, f);
	fputs(h->paired ? TRENDFMT_CSV_PAIRED "\n" : "\n", f);
	for (k = 0; k < h->ns; k++)
		for (i = 0; i < h->s[k].nr_cp; i++)
			if (tfm_csv_row(f, t, &h->s[k], &h->s[k].cp[i]))
				return -ENOMEM;
	return report_status(f);
}

/* every run's figure, in order, with the median of its segment: the plot's points and lines */
static int tfm_runs(FILE *f, const struct trendfmt *t)
{
	const struct history *h = t->h;
	unsigned int k, i, c, end;
	double med = 0, spread;

	fprintf(f, "# unit: %s\nworkload,variant,index,timestamp,run,%s,segment_median%s\n", h->unit,
		t->stat, h->paired ? ",subject,control,theta" : "");
	for (k = 0; k < h->ns; k++) {
		const struct history_series *s = &h->s[k];

		for (i = 0, c = 0, end = 0; i < s->n; i++) {
			if (i == end) {
				end = c < s->nr_cp ? s->cp[c++].idx : s->n;
				med = history_median(s->x, i, end, &spread);
			}
			fprintf(f, "%s,%s,%u,%s,%u,%.6g,%.6g", s->workload, s->variant, i + 1,
				h->f[s->r[i].file].stamp, s->r[i].run, s->x[i], med);
			if (h->paired)
				fprintf(f, ",%.6g,%.6g,%.4f", s->subject[i], s->control[i], s->theta);
			fputc('\n', f);
		}
	}
	return report_status(f);
}

/* ---- json ---- */

static void tfm_json_side(struct json *j, const char *key, double med, unsigned int n)
{
	json_object_begin(j, key);
	json_double(j, "median", med, 3);
	json_u64(j, "runs", n);
	json_object_end(j);
}

/* "labels": { "KEY": "VALUE", ... } */
static void tfm_json_labels(struct json *j, const struct history_file *hf)
{
	unsigned int i;
	char key[64];

	json_object_begin(j, "labels");
	for (i = 0; i < hf->nr_labels; i++) {
		const char *eq = strchr(hf->label[i], '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - hf->label[i]), hf->label[i]);
		json_string(j, key, eq + 1);
	}
	json_object_end(j);
}

/* paired: "subject": { "before": B, "after": A }, "control": likewise */
static void tfm_json_own(struct json *j, const char *key, const double *v,
			 const struct trend_cp *c)
{
	json_object_begin(j, key);
	json_double(j, "before", tfm_side(v, c, false), 3);
	json_double(j, "after", tfm_side(v, c, true), 3);
	json_object_end(j);
}

static void tfm_json_cp(struct json *j, const struct trendfmt *t, const struct history_series *s,
			const struct trend_cp *c)
{
	const struct history_run *r = &s->r[c->idx];
	const struct history_file *hf = &t->h->f[r->file];

	json_object_begin(j, NULL);
	json_u64(j, "index", c->idx + 1);
	json_string(j, "timestamp", hf->stamp[0] ? hf->stamp : NULL);
	tfm_json_labels(j, hf);
	json_string(j, "file", hf->path);
	json_u64(j, "run", r->run);
	tfm_json_side(j, "before", c->before, c->idx - c->lo);
	tfm_json_side(j, "after", c->after, c->hi - c->idx);
	json_double(j, "change_pct", c->change.est * 100, 3);
	json_double(j, "ci_lo_pct", c->change.lo * 100, 3);
	json_double(j, "ci_hi_pct", c->change.hi * 100, 3);
	json_double(j, "ci_confidence", c->change.conf, 4);
	json_double(j, "p", c->p, 6);
	json_u64(j, "permutations", c->perms);
	json_u64(j, "tested_from", c->tlo + 1);
	json_u64(j, "tested_to", c->thi);
	json_string(j, "verdict", cmp_verdict_names[trendfmt_verdict(t, c)]);
	json_bool(j, "recent", tfm_recent(t, s, c));
	if (t->h->paired) {
		tfm_json_own(j, "subject", s->subject, c);
		tfm_json_own(j, "control", s->control, c);
	}
	json_object_end(j);
}

static void tfm_json_one(struct json *j, const struct trendfmt *t, const struct history_series *s)
{
	unsigned int i;

	json_object_begin(j, NULL);
	json_string(j, "workload", s->workload);
	json_string(j, "variant", s->variant);
	json_string(j, "stat", t->stat);
	json_u64(j, "runs", s->n);
	json_double(j, "reference_share", s->share, 3);
	json_bool(j, "failing", trendfmt_failing(t, s));
	if (t->h->paired)
		json_double(j, "theta", s->theta, 4);
	json_array_begin(j, "change_points");
	for (i = 0; i < s->nr_cp; i++)
		tfm_json_cp(j, t, s, &s->cp[i]);
	json_array_end(j);
	json_object_end(j);
}

/* the one group of the history's files, for the disturbed runs (fileset.h) */
static const char *const tfm_files[1] = { "history" };

static int tfm_json(FILE *f, const struct trendfmt *t)
{
	const struct history *h = t->h;
	struct meta *m = calloc(1, sizeof(*m));
	struct trendfmt_tally n;
	struct json j;
	unsigned int k;

	if (!m)
		return -ENOMEM;
	trendfmt_tally(t, &n);
	meta_set(m, "command", "bench trend");
	meta_set(m, "stat", "%s", t->stat);
	meta_set(m, "alpha", "%g", t->alpha);
	meta_set(m, "min_change_pct", "%g", t->min_change_pct);
	meta_set(m, "window", "%lu", t->window);
	meta_set(m, "recent", "%lu", t->recent);
	meta_set(m, "seed", "%lu", t->seed);
	meta_set(m, "reference", "%s", h->scaled ? "scaled" : "raw");
	meta_set(m, "order", "%s", h->by_time ? "timestamp" : "given");
	meta_set(m, "files", "%u", h->nf);
	meta_set(m, "unit", "%s", h->unit);
	if (h->paired)
		meta_set(m, "control", "paired");
	if (h->slope)
		meta_set(m, "figure", "slope");
	json_init(&j, f);
	json_doc_begin(&j, m);
	free(m);
	json_array_begin(&j, "series");
	for (k = 0; k < h->ns; k++)
		tfm_json_one(&j, t, &h->s[k]);
	json_array_end(&j);
	json_u64(&j, "change_points", n.change_points);
	json_u64(&j, "regressions", n.regressions);
	json_u64(&j, "improvements", n.improvements);
	json_u64(&j, "failing", n.failing);
	json_string(&j, "verdict", n.failing ? "regression" : "ok");
	fileset_busy_json(&j, &h->busy, tfm_files, 1);
	return json_doc_end(&j) ? -EIO : report_status(f);
}

/* ---- markdown ---- */

static int tfm_markdown(FILE *f, const struct trendfmt *t)
{
	const struct history *h = t->h;
	struct trendfmt_tally n;
	unsigned int k, i;
	double med, spread;
	char m[32];

	trendfmt_tally(t, &n);
	fprintf(f, "**bench trend: %s** - %u change point%s in %u series over %u files (%s, alpha %g, min change %g%%, reference %s%s%s%s)\n\n",
		n.failing ? "regression" : "ok", n.change_points, n.change_points == 1 ? "" : "s",
		h->ns, h->nf, t->stat, t->alpha, t->min_change_pct, h->scaled ? "scaled" : "raw",
		h->by_time ? "" : "; no timestamps: in the order given",
		h->slope ? "; a night's slope per possible CPU" : "",
		h->paired ? "; each night against its control" : "");
	fputs("| series | first run after | before | after | change [95% CI] | p | runs | verdict |\n", f);
	fputs("|---|---|---:|---:|---|---:|---:|---|\n", f);
	for (k = 0; k < h->ns; k++) {
		const struct history_series *s = &h->s[k];

		for (i = 0; i < s->nr_cp; i++)
			tfm_cp(f, t, s, &s->cp[i], true);
		if (s->nr_cp)
			continue;
		med = history_median(s->x, 0, s->n, &spread);
		fputs("| ", f);
		tfm_name(f, t, s, true);
		fprintf(f, " | no change point | %s | | | | %u | ~", tfm_value(m, sizeof(m), t, med),
			s->n);
		if (h->paired)
			fprintf(f, "; theta %.2f", s->theta);
		fputs(" |\n", f);
	}
	if (fileset_busy_recorded(&h->busy, 1)) {
		fputc('\n', f);
		fileset_busy_lines(f, &h->busy, tfm_files, 1, "runs", "- ");
	}
	return report_status(f);
}

/* ---- kcidb ---- */

/* the newest file's timestamp and labels: the document's checkout, build, start */
static int tfm_kcidb_meta(const struct history *h, struct meta *m)
{
	const struct history_file *hf = &h->f[h->nf - 1];
	char key[META_KEY];
	unsigned int i;
	int ret = 0;

	if (hf->stamp[0])
		ret = meta_put(m, "timestamp", "%s", hf->stamp);
	for (i = 0; i < hf->nr_labels && !ret; i++) {
		const char *eq = strchr(hf->label[i], '=');

		snprintf(key, sizeof(key), "label_%.*s", (int)(eq - hf->label[i]), hf->label[i]);
		ret = meta_put(m, key, "%s", eq + 1);
	}
	return ret;
}

/* one change point in misc: where, the change, its interval, p, verdict */
static void tfm_kcidb_cp(struct kcidb *k, const struct trendfmt *t, const struct history_series *s,
			 const struct trend_cp *c)
{
	const struct history_file *hf = &t->h->f[s->r[c->idx].file];

	json_object_begin(&k->j, NULL);
	json_u64(&k->j, "index", c->idx + 1);
	kcidb_string(k, "timestamp", hf->stamp[0] ? hf->stamp : NULL);
	json_string(&k->j, "file", hf->path);
	kcidb_double(k, "before", c->before, 3);
	kcidb_double(k, "after", c->after, 3);
	kcidb_double(k, "change_pct", c->change.est * 100, 3);
	kcidb_double(k, "ci_lo_pct", c->change.lo * 100, 3);
	kcidb_double(k, "ci_hi_pct", c->change.hi * 100, 3);
	kcidb_double(k, "p", c->p, 6);
	json_string(&k->j, "verdict", cmp_verdict_names[trendfmt_verdict(t, c)]);
	json_bool(&k->j, "recent", tfm_recent(t, s, c));
	json_object_end(&k->j);
}

static void tfm_kcidb_one(struct kcidb *k, const struct trendfmt *t, const struct history_series *s,
			  const struct meta *m)
{
	const char *seg[] = { "kstats_bench", "trend", s->workload, s->variant, t->stat };
	const struct history *h = t->h;
	unsigned int i;
	char line[160];

	kcidb_test_begin(k, seg, 5, trendfmt_failing(t, s) ? "FAIL" : "PASS", m);
	if (s->n)
		kcidb_number(k, s->x[s->n - 1], h->paired ? "ratio" : h->slope ? "ns/CPU" : h->unit);
	snprintf(line, sizeof(line), "%u change point%s in %u %s", s->nr_cp,
		 s->nr_cp == 1 ? "" : "s", s->n, h->paired || h->slope ? "nights" : "runs");
	kcidb_string(k, "comment", line);
	kcidb_misc_begin(k, m);
	json_u64(&k->j, "runs", s->n);
	json_string(&k->j, "figure", h->paired ? "subject/control" : h->slope ? "slope" : t->stat);
	kcidb_double(k, "alpha", t->alpha, 6);
	kcidb_double(k, "min_change_pct", t->min_change_pct, 3);
	json_u64(&k->j, "recent", t->recent);
	if (h->paired)
		kcidb_double(k, "theta", s->theta, 4);
	json_array_begin(&k->j, "change_points");
	for (i = 0; i < s->nr_cp; i++)
		tfm_kcidb_cp(k, t, s, &s->cp[i]);
	json_array_end(&k->j);
	fileset_busy_json(&k->j, &t->h->busy, tfm_files, 1);
	kcidb_test_end(k);
}

static int tfm_kcidb(FILE *f, const struct trendfmt *t)
{
	struct meta *m = calloc(1, sizeof(*m));
	struct kcidb k;
	unsigned int i;
	int ret;

	if (!m)
		return -ENOMEM;
	ret = tfm_kcidb_meta(t->h, m);
	if (ret) {
		free(m);
		return ret;
	}
	kcidb_begin(&k, f, t->origin, m);
	for (i = 0; i < t->h->ns; i++)
		tfm_kcidb_one(&k, t, &t->h->s[i], m);
	ret = kcidb_end(&k);
	free(m);
	return ret;
}

/* ---- the table of writers ---- */

#define TRENDFMT_ROWS(X, M) \
	X(M, "table", "each change point, one TREND line (default)", tfm_table, 0) \
	X(M, "csv", "one row per change point", tfm_csv, 0) \
	X(M, "runs", "every run, its segment's median (the plot)", tfm_runs, 0) \
	X(M, "json", "one JSON document", tfm_json, REPORT_JSON) \
	X(M, "markdown", "for CI: a GitHub table", tfm_markdown, 0) \
	X(M, "kcidb", "KernelCI's KCIDB v5.3: a test per series", tfm_kcidb, REPORT_JSON)
REPORT_TABLE(trendfmt_writers, struct trendfmt, TRENDFMT_ROWS);
