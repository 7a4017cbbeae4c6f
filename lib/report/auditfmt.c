// SPDX-License-Identifier: GPL-2.0
/*
 * auditfmt.c - the audit's ranked report, one writer per format over
 * what lib/stats/audit.c found (see auditfmt.h). Entries print in rank
 * order, the most costly at AUDIT_AT possible CPUs first.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/report/auditfmt.h"
#include "lib/report/cmpline.h"
#include "lib/results/counted.h"
#include "lib/results/json.h"
#include "lib/report/kcidb.h"
#include "lib/results/meta.h"
#include "lib/subcmd/textfmt.h"

const char *auditfmt_method(enum audit_method m)
{
	static const char *const words[] = {
		"Benjamini-Hochberg (false discovery rate)",
		"Holm (family-wise error)",
		"none (each entry alone)",
	};

	return words[m];
}

/* the side whose cost ranks: B when gating, else A */
static unsigned int af_last(const struct auditfmt *c)
{
	return c->a->nr_sides - 1;
}

/* "+7.696ns/CPU [+7.366, +7.957]" */
static const char *af_slope(char *buf, size_t len, const struct auditfmt *c, double b,
			    double lo, double hi)
{
	snprintf(buf, len, "%+.4g%s/CPU [%+.4g, %+.4g]", b, cmpline_unit(c->unit), lo, hi);
	return buf;
}

/* cmpline_value() of a value that may be negative: "-2.67us" */
static const char *af_value(char *buf, size_t len, const struct auditfmt *c, double v)
{
	char t[24];

	cmpline_value(t, sizeof(t), fabs(v), c->unit);
	snprintf(buf, len, "%s%s", v < 0 ? "-" : "", t);
	return buf;
}

/* "63.70us [60.42us, 66.72us]" */
static const char *af_at(char *buf, size_t len, const struct auditfmt *c,
			 const struct audit_side *s)
{
	char e[32], l[32], h[32];

	snprintf(buf, len, "%s [%s, %s]", af_value(e, sizeof(e), c, s->at),
		 af_value(l, sizeof(l), c, s->at_lo), af_value(h, sizeof(h), c, s->at_hi));
	return buf;
}

/* "memset_orig 52%, _find_next_bit 20%": the functions that carry it, by instructions */
static const char *af_carry(char *buf, size_t len, const struct auditfmt *c,
			    const struct audit_carry *cr, const char *sep)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < cr->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s %.0f%%", i ? sep : "",
					 c->a->f[cr->f[i]].func, 100 * cr->share[i]);
	if (cr->n && !cr->half && used < len)
		snprintf(buf + used, len - used, "%s(under half)", sep);
	return buf;
}

/*
 * what carries a side's growth: its functions by instructions where the
 * plugin counted them, else "show_stat 81%", its candidate, else ""
 */
static const char *af_func(char *buf, size_t len, const struct auditfmt *c,
			   const struct audit_side *s)
{
	if (s->carry.n)
		return af_carry(buf, len, c, &s->carry, ", ");
	if (s->cand < 0)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%s %.0f%%", c->a->c[s->cand].func, 100 * s->share);
	return buf;
}

/* how a side's growth is attributed: "plugin", "trace", or "" */
static const char *af_by(const struct audit_side *s)
{
	return s->carry.n ? "plugin" : s->cand >= 0 ? "trace" : "";
}

/* the first function that carries it and its share (the steepest, or the candidate) */
static const char *af_top(const struct auditfmt *c, const struct audit_side *s, double *share)
{
	if (s->carry.n) {
		*share = s->carry.share[0];
		return c->a->f[s->carry.f[0]].func;
	}
	*share = s->share;
	return s->cand < 0 ? NULL : c->a->c[s->cand].func;
}

static const char *af_verdict(const struct audit_side *s)
{
	return scale_verdict_names[s->verdict];
}

/* a gated entry's word */
static const char *af_gate(const struct audit_entry *e)
{
	return e->not_repeatable ? "not repeatable" : e->regression ? "regression" : "ok";
}

/* counted figures: "  spread 0.05%" after the verdict, else "" */
static const char *af_spread(char *buf, size_t len, const struct auditfmt *c,
			     const struct audit_side *s)
{
	if (counted_unit(c->unit))
		snprintf(buf, len, "  spread %.2f%%", 100 * s->spread);
	else
		buf[0] = 0;
	return buf;
}

/* ---- table ---- */

static void table_head(FILE *f, const struct auditfmt *c)
{
	const struct audit *a = c->a;
	unsigned int k = af_last(c);

	fprintf(f, "# audit of %s: %u entries, %s at q=%g: adjusted level %.4g (intervals at %.4g%%), %s per boot, %u candidate functions timed",
		c->group[k], a->n, auditfmt_method(a->method), a->q, a->level[k],
		100 * (1 - a->level[k]), c->stat, c->nr_cands);
	if (a->nf)
		fprintf(f, ", %u (function, entry) pairs counted by the plugin: an entry is carried by the fewest functions whose instructions carry half its growth",
			a->nf);
	fputc('\n', f);
	if (a->nr_sides == 2)
		fprintf(f, "# gate %s -> %s: adjusted level %.4g, threshold %g%s\n", c->group[0],
			c->group[1], a->diff_level, c->threshold, c->threshold_pct ? "% of A's slope" : c->unit);
}

static void table_entry(FILE *f, const struct auditfmt *c, unsigned int rank,
			const struct audit_entry *e)
{
	char s[128], at[128], fn[640], sp[32];
	unsigned int k = af_last(c);
	const struct audit_side *sd = &e->s[k];

	fprintf(f, "%2u  %s %s%s", rank, e->name, e->variant, e->control ? " (control)" : "");
	if (!e->pt[k].n) {
		fprintf(f, "  %s only\n", c->group[0]);
		return;
	}
	if (e->gated) {
		const struct scale_fit *fa = &e->s[0].fit;

		fprintf(f, "  %s %s -> %s", c->group[0],
			af_slope(s, sizeof(s), c, fa->slope, fa->lo, fa->hi), c->group[1]);
	}
	fprintf(f, "%s%s  at %d: %s  p=%.2g  %s%s", e->gated ? " " : "  ",
		af_slope(s, sizeof(s), c, sd->fit.slope, sd->fit.lo, sd->fit.hi),
		AUDIT_AT, af_at(at, sizeof(at), c, sd), sd->p, af_verdict(sd),
		af_spread(sp, sizeof(sp), c, sd));
	if (e->gated)
		fprintf(f, "  B-A %s  %s",
			af_slope(s, sizeof(s), c, e->diff.est, e->diff.lo, e->diff.hi),
			af_gate(e));
	af_func(fn, sizeof(fn), c, sd);
	fprintf(f, "%s%s\n", *fn ? "  " : "", fn);
}

/* the gate's findings in words: the entry, the function, the growth */
static void table_regressions(FILE *f, const struct auditfmt *c)
{
	const struct audit *a = c->a;
	char s[128], fn[640];
	unsigned int i;

	for (i = 0; i < a->n; i++) {
		const struct audit_entry *e = &a->e[a->order[i]];

		if (!e->regression)
			continue;
		af_func(fn, sizeof(fn), c, &e->s[1]);
		fprintf(f, "regression: %s %s grew %s (threshold %.4g%s/CPU) from %s to %s, carried by: %s\n",
			e->name, e->variant,
			af_slope(s, sizeof(s), c, e->diff.est, e->diff.lo, e->diff.hi),
			e->threshold_ns, cmpline_unit(c->unit), c->group[0], c->group[1],
			*fn ? fn : "no function timed");
	}
}

/* the gate's word */
static const char *af_gate_verdict(const struct audit *a)
{
	return a->regressions ? "regression" : a->not_repeatable ? "not-repeatable" : "ok";
}

/* counted figures: " not_repeatable=N", else "" */
static const char *af_not_repeatable(char *buf, size_t len, const struct auditfmt *c)
{
	if (counted_unit(c->unit))
		snprintf(buf, len, " not_repeatable=%u", c->a->not_repeatable);
	else
		buf[0] = 0;
	return buf;
}

static int table_write(FILE *f, const struct auditfmt *c)
{
	const struct audit *a = c->a;
	unsigned int i, k = af_last(c), v[3] = { 0 };
	char nr[48];

	table_head(f, c);
	for (i = 0; i < a->n; i++) {
		table_entry(f, c, i + 1, &a->e[a->order[i]]);
		if (a->e[i].pt[k].n)
			v[a->e[i].s[k].verdict]++;
	}
	if (c->skipped)
		fprintf(f, "skipped: %s\n", c->skipped);
	if (a->nr_sides == 2)
		table_regressions(f, c);
	fprintf(f, "AUDIT entries=%u grows=%u flat=%u shrinks=%u controls_grow=%u method=%s q=%g level=%.4g stat=%s",
		a->n, v[SCALE_GROWS], v[SCALE_FLAT], v[SCALE_SHRINKS], a->controls_grow,
		audit_method_names[a->method], a->q, a->level[k], c->stat);
	if (a->nr_sides == 1)
		fprintf(f, " group=%s\n", c->group[0]);
	else
		fprintf(f, " A=%s B=%s regressions=%u%s gate_level=%.4g verdict=%s\n", c->group[0],
			c->group[1], a->regressions, af_not_repeatable(nr, sizeof(nr), c),
			a->diff_level, af_gate_verdict(a));
	return report_status(f);
}

/* ---- markdown ---- */

static int md_write(FILE *f, const struct auditfmt *c)
{
	const struct audit *a = c->a;
	unsigned int i, k = af_last(c);
	char s[128], at[128], fn[640];

	fprintf(f, "**kstats-bench audit of %s** - %u entries, %u grow with possible CPUs; %s at q=%g, adjusted level %.4g\n\n",
		c->group[k], a->n, a->grows[k], auditfmt_method(a->method), a->q, a->level[k]);
	fprintf(f, "| rank | entry | slope per possible CPU [%.4g%% CI] | at %d possible CPUs | verdict | carried by |%s\n",
		100 * (1 - a->level[k]), AUDIT_AT, a->nr_sides == 2 ? " B-A | gate |" : "");
	fprintf(f, "|--:|:--|--:|--:|:--|:--|%s\n", a->nr_sides == 2 ? "--:|:--|" : "");
	for (i = 0; i < a->n; i++) {
		const struct audit_entry *e = &a->e[a->order[i]];
		const struct audit_side *sd = &e->s[k];

		fprintf(f, "| %u | ", i + 1);
		tf_md_cell(f, e->name);
		fputc(' ', f);
		tf_md_cell(f, e->variant);
		if (e->control)
			fputs(" (control)", f);
		if (!e->pt[k].n) {
			fprintf(f, " | | | %s only | |%s\n", c->group[0], a->nr_sides == 2 ? " | |" : "");
			continue;
		}
		fprintf(f, " | %s | %s | %s | ",
			af_slope(s, sizeof(s), c, sd->fit.slope, sd->fit.lo, sd->fit.hi),
			af_at(at, sizeof(at), c, sd), af_verdict(sd));
		tf_md_cell(f, af_func(fn, sizeof(fn), c, sd));
		fputs(" |", f);
		if (a->nr_sides == 2)
			fprintf(f, " %s | %s |", e->gated ?
				af_slope(s, sizeof(s), c, e->diff.est, e->diff.lo, e->diff.hi) : "",
				!e->gated ? "" : e->regression ? "**regression**" :
				e->not_repeatable ? "**not repeatable**" : "ok");
		fputc('\n', f);
	}
	if (c->skipped)
		fprintf(f, "\nSkipped: %s\n", c->skipped);
	return report_status(f);
}

/* ---- csv ---- */

/* function,share,threshold,attributed_by,functions of a fit: "show_stat,0.81,,trace," */
static void csv_carry(FILE *f, const struct auditfmt *c, const struct audit_side *sd)
{
	const char *top;
	double share;
	unsigned int i;

	top = af_top(c, sd, &share);
	if (top) {
		tf_csv_field(f, top);
		fprintf(f, ",%.6g", share);
	} else {
		fputc(',', f);
	}
	fprintf(f, ",,%s,", af_by(sd));
	for (i = 0; i < sd->carry.n; i++) {
		fputs(i ? ";" : "", f);
		tf_csv_field(f, c->a->f[sd->carry.f[i]].func);
		fprintf(f, ":%.6g", sd->carry.share[i]);
	}
}

static int csv_write(FILE *f, const struct auditfmt *c)
{
	const struct audit *a = c->a;
	unsigned int i, k;

	fputs("rank,kind,group,workload,variant,control,stat,points,counts,slope,slope_lo,slope_hi,"
	      "confidence,p,level,verdict,at,at_lo,at_hi,function,share,threshold,attributed_by,"
	      "functions\n", f);
	for (i = 0; i < a->n; i++) {
		const struct audit_entry *e = &a->e[a->order[i]];

		for (k = 0; k < a->nr_sides; k++) {
			const struct audit_side *sd = &e->s[k];

			if (!e->pt[k].n)
				continue;
			fprintf(f, "%u,fit,", i + 1);
			tf_csv_field(f, c->group[k]);
			fputc(',', f);
			tf_csv_field(f, e->name);
			fputc(',', f);
			tf_csv_field(f, e->variant);
			fprintf(f, ",%s,%s,%u,%u,%.9g,%.9g,%.9g,%.9g,%.6g,%.6g,%s,%.9g,%.9g,%.9g,",
				e->control ? "yes" : "no", c->stat, sd->fit.n, sd->fit.nx, sd->fit.slope, sd->fit.lo, sd->fit.hi,
				1 - sd->level, sd->p, sd->level, af_verdict(sd), sd->at, sd->at_lo,
				sd->at_hi);
			csv_carry(f, c, sd);
			fputc('\n', f);
		}
		if (!e->gated)
			continue;
		fprintf(f, "%u,diff,B-A,", i + 1);
		tf_csv_field(f, e->name);
		fputc(',', f);
		tf_csv_field(f, e->variant);
		fprintf(f, ",%s,%s,,,%.9g,%.9g,%.9g,%.9g,%.6g,%.6g,%s,,,,,,%.9g,,\n",
			e->control ? "yes" : "no", c->stat,
			e->diff.est, e->diff.lo, e->diff.hi, 1 - e->diff_level, e->diff_p,
			e->diff_level, e->regression ? "regression" : "ok", e->threshold_ns);
	}
	return report_status(f);
}

/* ---- json ---- */

/* "function", "share" (the steepest, or the candidate), "attributed_by", and the plugin's "functions" */
static void json_carry(struct json *j, const struct auditfmt *c, const struct audit_side *sd)
{
	const struct audit_carry *cr = &sd->carry;
	const char *top;
	double share;
	unsigned int i;

	top = af_top(c, sd, &share);
	json_string(j, "function", top);
	if (top)
		json_double(j, "share", share, 6);
	json_string(j, "attributed_by", *af_by(sd) ? af_by(sd) : NULL);
	if (!cr->n)
		return;
	json_double(j, "functions_slope", cr->total, 9);
	json_bool(j, "functions_half", cr->half);
	json_array_begin(j, "functions");
	for (i = 0; i < cr->n; i++) {
		const struct audit_func *fn = &c->a->f[cr->f[i]];

		json_object_begin(j, NULL);
		json_string(j, "function", fn->func);
		json_double(j, "share", cr->share[i], 6);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_side(struct json *j, const struct auditfmt *c, const struct audit_side *sd,
		      unsigned int k)
{
	json_object_begin(j, NULL);
	json_string(j, "group", c->group[k]);
	json_u64(j, "points", sd->fit.n);
	json_u64(j, "counts", sd->fit.nx);
	json_double(j, "slope", sd->fit.slope, 9);
	json_double(j, "slope_lo", sd->fit.lo, 9);
	json_double(j, "slope_hi", sd->fit.hi, 9);
	json_double(j, "confidence", 1 - sd->level, 9);
	json_double(j, "p", sd->p, 9);
	json_double(j, "level", sd->level, 9);
	json_string(j, "verdict", af_verdict(sd));
	json_double(j, "at", sd->at, 3);
	json_double(j, "at_lo", sd->at_lo, 3);
	json_double(j, "at_hi", sd->at_hi, 3);
	json_carry(j, c, sd);
	json_object_end(j);
}

static void json_entry(struct json *j, const struct auditfmt *c, unsigned int rank,
		       const struct audit_entry *e)
{
	unsigned int k;

	json_object_begin(j, NULL);
	json_u64(j, "rank", rank);
	json_string(j, "workload", e->name);
	json_string(j, "variant", e->variant);
	json_bool(j, "control", e->control);
	json_array_begin(j, "fits");
	for (k = 0; k < c->a->nr_sides; k++)
		if (e->pt[k].n)
			json_side(j, c, &e->s[k], k);
	json_array_end(j);
	if (e->gated) {
		json_object_begin(j, "difference");
		json_double(j, "slope_diff", e->diff.est, 9);
		json_double(j, "lo", e->diff.lo, 9);
		json_double(j, "hi", e->diff.hi, 9);
		json_double(j, "p", e->diff_p, 9);
		json_double(j, "level", e->diff_level, 9);
		json_double(j, "threshold", e->threshold_ns, 9);
		json_string(j, "verdict", e->regression ? "regression" : "ok");
		json_object_end(j);
	}
	json_object_end(j);
}

static int json_write_audit(FILE *f, const struct auditfmt *c)
{
	const struct audit *a = c->a;
	unsigned int i, k = af_last(c);
	static struct meta m;
	struct json j;

	memset(&m, 0, sizeof(m));
	meta_set(&m, "command", "bench scale --audit");
	meta_set(&m, "stat", "%s", c->stat);
	meta_set(&m, "unit", "%s", c->unit);
	if (counted_unit(c->unit))
		meta_set(&m, "unit_is", "%s", counted_what(c->unit));
	meta_set(&m, "slope_unit", "%s per possible CPU", c->unit);
	meta_set(&m, "estimator", "theil-sen, sen interval at the adjusted level");
	meta_set(&m, "multiplicity", "%s", audit_method_names[a->method]);
	meta_set(&m, "q", "%g", a->q);
	meta_set(&m, "level", "%.9g", a->level[k]);
	meta_set(&m, "at", "%d", AUDIT_AT);
	for (i = 0; i < a->nr_sides; i++)
		meta_set(&m, i ? "group_b" : "group_a", "%s", c->group[i]);
	if (c->skipped)
		meta_set(&m, "skipped", "%s", c->skipped);
	json_init(&j, f);
	json_doc_begin(&j, &m);
	json_array_begin(&j, "entries");
	for (i = 0; i < a->n; i++)
		json_entry(&j, c, i + 1, &a->e[a->order[i]]);
	json_array_end(&j);
	json_u64(&j, "grows", a->grows[k]);
	json_u64(&j, "candidates", c->nr_cands);
	json_u64(&j, "controls_grow", a->controls_grow);
	json_u64(&j, "regressions", a->regressions);
	json_string(&j, "verdict", a->regressions ? "regression" : "ok");
	return json_doc_end(&j) ? -EIO : report_status(f);
}

/* ---- kcidb: a test per entry, kstats_bench.audit.WORKLOAD.VARIANT ---- */

/* misc's function, share, attributed_by and the plugin's functions in words */
static void kcidb_carry(struct kcidb *kc, const struct auditfmt *c, const struct audit_side *sd)
{
	const char *top;
	char fn[640];
	double share;

	top = af_top(c, sd, &share);
	kcidb_string(kc, "function", top);
	if (top)
		kcidb_double(kc, "share", share, 6);
	kcidb_string(kc, "attributed_by", *af_by(sd) ? af_by(sd) : NULL);
	if (sd->carry.n)
		kcidb_string(kc, "functions", af_carry(fn, sizeof(fn), c, &sd->carry, ", "));
}

static int kcidb_write_audit(FILE *f, const struct auditfmt *c)
{
	const struct audit *a = c->a;
	unsigned int i, k = af_last(c);
	struct kcidb kc;

	kcidb_begin(&kc, f, c->origin ? c->origin : KCIDB_ORIGIN, c->meta);
	for (i = 0; i < a->n; i++) {
		const struct audit_entry *e = &a->e[a->order[i]];
		const struct audit_side *sd = &e->s[k];
		const char *seg[] = { "kstats_bench", "audit", e->name, e->variant };

		if (!e->pt[k].n)
			continue;
		kcidb_test_begin(&kc, seg, 4, a->nr_sides == 1 ? "DONE" :
				 e->regression ? "FAIL" : "PASS", c->meta);
		kcidb_number(&kc, sd->at, c->unit);
		kcidb_misc_begin(&kc, c->meta);
		kcidb_double(&kc, "rank", i + 1, 0);
		kcidb_double(&kc, "slope", sd->fit.slope, 9);
		kcidb_double(&kc, "slope_lo", sd->fit.lo, 9);
		kcidb_double(&kc, "slope_hi", sd->fit.hi, 9);
		kcidb_double(&kc, "p", sd->p, 9);
		kcidb_double(&kc, "level", sd->level, 9);
		kcidb_double(&kc, "at_possible_cpus", AUDIT_AT, 0);
		kcidb_string(&kc, "verdict", af_verdict(sd));
		kcidb_string(&kc, "control", e->control ? "yes" : "no");
		kcidb_string(&kc, "multiplicity", audit_method_names[a->method]);
		kcidb_carry(&kc, c, sd);
		if (e->gated) {
			kcidb_double(&kc, "slope_diff", e->diff.est, 9);
			kcidb_double(&kc, "slope_diff_lo", e->diff.lo, 9);
			kcidb_double(&kc, "slope_diff_hi", e->diff.hi, 9);
			kcidb_double(&kc, "threshold", e->threshold_ns, 9);
		}
		kcidb_test_end(&kc);
	}
	return kcidb_end(&kc);
}

#define AUDITFMT_ROWS(X, M) \
	X(M, "table", "the entries ranked by their cost at 8192", table_write, 0) \
	X(M, "csv", "a row per entry's fit and per B-A difference", csv_write, 0) \
	X(M, "json", "one kstats-bench JSON document", json_write_audit, REPORT_JSON) \
	X(M, "markdown", "GitHub tables: a PR comment", md_write, 0) \
	X(M, "kcidb", "a KCIDB test per entry", kcidb_write_audit, REPORT_JSON)
REPORT_TABLE(auditfmt_writers, struct auditfmt, AUDITFMT_ROWS);
