// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-scale-audit.c - bench scale --audit: the series of a battery's
 * sweep as one family (lib/stats/audit.h), ranked by their cost at 8192
 * possible CPUs (lib/report/auditfmt.h writes it). A series from a bench
 * trace file ("time" per call of a kernel function) is not an entry but
 * a candidate: the function that may carry an entry's growth.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "kstats_hist.h"
#include "builtin-scale.h"
#include "lib/stats/audit.h"
#include "lib/report/auditfmt.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"

struct scale_audit {
	struct audit a;
	struct audit_entry *e;		/* [r->n] at most */
	struct audit_cand *c;		/* same */
	double *buf;			/* every side's x and y */
	struct audit_func *f;		/* the plugin's functions, [a.nf] */
	double *fbuf;			/* their points' x and y */
	char skipped[META_VAL];		/* the battery's skipped entries, or "" */
};

/* one function's instructions in one boot's window of one entry (a funcs file's) */
struct fn_rec {
	const char *func, *entry;	/* the series' workload and variant */
	unsigned int side, file, run;	/* its group, its file there, the boot */
	double y;			/* its one sample */
};

/* the records of every funcs file, to be sorted; fn_collect() */
struct fn_recs {
	struct fn_rec *r;
	size_t n, cap;
};

/* the first file of either group that holds the row's series */
static const struct results *row_file(const struct scale_report *r, const struct scale_row *row)
{
	unsigned int k, i;

	for (k = 0; k < r->nr_groups; k++)
		for (i = 0; i < r->g[k].n; i++)
			if (results_nr_runs(r->g[k].set[i], row->workload, row->variant))
				return r->g[k].set[i];
	return NULL;
}

/* is @set the plugin's instructions by function (bench vm --plugin's -funcs.csv)? */
static bool set_funcs(const struct results *set)
{
	const char *fig = set ? meta_get(&set->meta, "plugin_figure") : NULL;

	return fig && !strcmp(fig, "funcs");
}

bool scale_audit_func_row(const struct scale_report *r, const struct scale_row *row)
{
	return set_funcs(row_file(r, row));
}

static bool row_traced(const struct results *set)
{
	const char *src = set ? meta_get(&set->meta, "source") : NULL;

	return src && !strcmp(src, "trace");
}

/* the points of @f as two arrays from @buf; the next free double */
static double *side_points(const struct scale_fitted *f, double *buf, struct audit_points *pt)
{
	unsigned int i;

	pt->n = f->has ? f->npt : 0;
	pt->x = buf;
	pt->y = buf + pt->n;
	for (i = 0; i < pt->n; i++) {
		buf[i] = f->pt[i].x;
		buf[pt->n + i] = f->pt[i].y;
	}
	return buf + 2 * pt->n;
}

/*
 * The entry a candidate was timed under: its label_entry (bench trace
 * --label entry=NAME), else the longest entry name that its traced
 * command names, else NULL (it was timed under them all).
 */
static const char *cand_entry(const struct scale_audit *sa, const struct results *set)
{
	const char *cmd = meta_get(&set->meta, "traced_command"), *best = NULL;
	const char *label = meta_get(&set->meta, "label_entry");
	unsigned int i;

	for (i = 0; label && i < sa->a.n; i++)
		if (!strcmp(label, sa->e[i].name))
			return sa->e[i].name;
	for (i = 0; cmd && i < sa->a.n; i++)
		if (strstr(cmd, sa->e[i].name) &&
		    (!best || strlen(sa->e[i].name) > strlen(best)))
			best = sa->e[i].name;
	return best;
}

/* a metadata value, NULL for none or "none" */
static const char *audit_meta(const struct results *set, const char *key)
{
	const char *v = meta_get(&set->meta, key);

	return v && *v && strcmp(v, "none") ? v : NULL;
}

/* is the entry at @v in the list @ctl a whole word of it? */
static bool word_at(const char *ctl, const char *v, size_t len)
{
	return (v == ctl || v[-1] == ' ') && (!v[len] || v[len] == ' ');
}

/*
 * The battery's skipped entries, as the last group's first audit file
 * says (bench audit's audit_skip_why, else audit_skipped), and its
 * controls: each entry in any file's audit_controls is one.
 */
static void audit_battery(struct scale_audit *sa, const struct scale_report *r)
{
	const struct scale_group *g = &r->g[r->nr_groups - 1];
	const char *v = NULL, *ctl;
	unsigned int i, k, e;
	size_t len;

	for (i = 0; !v && i < g->n; i++)
		if (meta_get(&g->set[i]->meta, "audit_battery"))
			v = audit_meta(g->set[i], "audit_skip_why") ?:
			    audit_meta(g->set[i], "audit_skipped") ?: "";
	snprintf(sa->skipped, sizeof(sa->skipped), "%s", v ? v : "");
	for (k = 0; k < r->nr_groups; k++)
		for (i = 0; i < r->g[k].n; i++) {
			ctl = audit_meta(r->g[k].set[i], "audit_controls");
			for (e = 0; ctl && e < sa->a.n; e++) {
				const char *nm = sa->e[e].name;

				len = strlen(nm);
				for (v = strstr(ctl, nm); v; v = strstr(v + 1, nm))
					sa->e[e].control |= word_at(ctl, v, len);
			}
		}
}

bool scale_audit_files(const struct scale_report *r)
{
	unsigned int i, k;

	for (k = 0; k < r->nr_groups; k++)
		for (i = 0; i < r->g[k].n; i++)
			if (meta_get(&r->g[k].set[i]->meta, "audit_battery"))
				return true;
	return false;
}

/* ---- the plugin's functions: each entry's windows, by function ---- */

static int fn_add(struct fn_recs *rs, const struct fn_rec *x)
{
	struct fn_rec *n;

	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 1024;
		n = realloc(rs->r, rs->cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		rs->r = n;
	}
	rs->r[rs->n++] = *x;
	return 0;
}

/* every boot's series of every funcs file of @r into @rs; 0 or -ENOMEM */
static int fn_collect(const struct scale_report *r, struct fn_recs *rs)
{
	unsigned int k, i, j;
	int ret = 0;

	for (k = 0; k < r->nr_groups; k++)
		for (i = 0; i < r->g[k].n; i++) {
			const struct results *set = r->g[k].set[i];

			for (j = 0; set_funcs(set) && j < set->n && !ret; j++) {
				const struct results_series *s = &set->s[j];
				struct fn_rec x = { .func = s->workload, .entry = s->variant,
						    .side = k, .file = i, .run = s->run,
						    .y = kstats_hist_mean(s->h) };

				if (s->run != RESULTS_RUN_ALL && s->cpu == RESULTS_CPU_ALL)
					ret = fn_add(rs, &x);
			}
		}
	return ret;
}

/* entry, function, side, file, boot */
static int fn_cmp(const void *p, const void *q)
{
	const struct fn_rec *a = p, *b = q;
	int c = strcmp(a->entry, b->entry) ?: strcmp(a->func, b->func);

	if (c)
		return c;
	if (a->side != b->side)
		return a->side < b->side ? -1 : 1;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return a->run < b->run ? -1 : a->run > b->run;
}

/* one boot's window of an entry: a point of each of its functions */
struct fn_win {
	unsigned int side, file, run;
};

static int fn_win_cmp(const void *p, const void *q)
{
	const struct fn_win *a = p, *b = q;

	if (a->side != b->side)
		return a->side < b->side ? -1 : 1;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return a->run < b->run ? -1 : a->run > b->run;
}

/* @rec's window against @w, as fn_win_cmp() */
static int fn_rec_win(const struct fn_rec *rec, const struct fn_win *w)
{
	struct fn_win x = { rec->side, rec->file, rec->run };

	return fn_win_cmp(&x, w);
}

/* the windows of the entry whose records are @r[0..n): sorted, each once; how many */
static size_t fn_windows(const struct fn_rec *r, size_t n, struct fn_win *w)
{
	size_t i, m = 0, k;

	for (i = 0; i < n; i++)
		w[m++] = (struct fn_win){ r[i].side, r[i].file, r[i].run };
	qsort(w, m, sizeof(*w), fn_win_cmp);
	for (i = 0, k = 0; i < m; i++)
		if (!k || fn_win_cmp(&w[k - 1], &w[i]))
			w[k++] = w[i];
	return k;
}

/*
 * function @f's points from its records @r[0..n) (sorted as fn_cmp())
 * over its entry's windows @w[0..nw): 0 in a window where it did not
 * run; into @buf, the next free double returned
 */
static double *fn_points(const struct scale_report *r, struct audit_func *f,
			 const struct fn_rec *rec, size_t n, const struct fn_win *w, size_t nw,
			 double *buf)
{
	size_t i, j = 0;
	unsigned int k;

	for (k = 0; k < r->nr_groups; k++) {
		struct audit_points *pt = &f->pt[k];
		double *x = buf, *y;

		pt->n = 0;
		for (i = 0; i < nw; i++)
			pt->n += w[i].side == k;
		y = x + pt->n;
		pt->x = x;
		pt->y = y;
		pt->n = 0;
		for (i = 0; i < nw; i++) {
			if (w[i].side != k)
				continue;
			while (j < n && fn_rec_win(&rec[j], &w[i]) < 0)
				j++;
			x[pt->n] = r->g[k].possible[w[i].file];
			y[pt->n++] = j < n && !fn_rec_win(&rec[j], &w[i]) ? rec[j].y : 0;
		}
		buf = y + pt->n;
	}
	return buf;
}

/* the entry's records @r[0..n): one audit_func each of its functions; 0 or -ENOMEM */
static int fn_entry(const struct scale_report *r, struct scale_audit *sa,
		    const struct fn_rec *rec, size_t n, double **buf)
{
	struct fn_win *w = malloc((n + 1) * sizeof(*w));
	size_t nw, i, j;

	if (!w)
		return -ENOMEM;
	nw = fn_windows(rec, n, w);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(rec[j].func, rec[i].func); j++)
			;
		sa->f[sa->a.nf] = (struct audit_func){ .func = rec[i].func, .entry = rec[i].entry };
		*buf = fn_points(r, &sa->f[sa->a.nf++], rec + i, j - i, w, nw, *buf);
	}
	free(w);
	return 0;
}

/* how many functions and points the sorted records @rs make */
static void fn_count(const struct fn_recs *rs, size_t *nf, size_t *npt)
{
	size_t i, j, e;

	*nf = *npt = 0;
	for (i = 0; i < rs->n; i = e) {
		for (e = i + 1; e < rs->n && !strcmp(rs->r[e].entry, rs->r[i].entry); e++)
			;
		/* an entry's windows are at most its records: x and y each */
		for (j = i; j < e; j++)
			if (j == i || strcmp(rs->r[j].func, rs->r[j - 1].func)) {
				(*nf)++;
				*npt += 2 * (e - i);
			}
	}
}

/* the plugin's functions of every entry into sa->f; 0 or -ENOMEM */
static int fn_build(const struct scale_report *r, struct scale_audit *sa)
{
	struct fn_recs rs = { 0 };
	size_t nf, npt, i, e;
	double *buf;
	int ret = fn_collect(r, &rs);

	if (ret || !rs.n)
		goto out;
	qsort(rs.r, rs.n, sizeof(*rs.r), fn_cmp);
	fn_count(&rs, &nf, &npt);
	sa->f = calloc(nf + 1, sizeof(*sa->f));
	sa->fbuf = buf = malloc((npt + 1) * sizeof(*buf));
	ret = sa->f && buf ? 0 : -ENOMEM;
	for (i = 0; !ret && i < rs.n; i = e) {
		for (e = i + 1; e < rs.n && !strcmp(rs.r[e].entry, rs.r[i].entry); e++)
			;
		ret = fn_entry(r, sa, rs.r + i, e - i, &buf);
	}
	sa->a.f = sa->f;
out:
	free(rs.r);
	return ret;
}

static int audit_build(struct scale_report *r, struct scale_audit *sa)
{
	unsigned int i, k, npt = 0;
	double *buf;

	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->nr_groups; k++)
			npt += r->row[i].side[k].npt;
	sa->e = calloc(r->n + 1, sizeof(*sa->e));
	sa->c = calloc(r->n + 1, sizeof(*sa->c));
	sa->buf = buf = malloc((2 * (size_t)npt + 1) * sizeof(*buf));
	if (!sa->e || !sa->c || !buf)
		return -ENOMEM;
	sa->a = (struct audit){ .e = sa->e, .c = sa->c, .nr_sides = r->nr_groups,
				.method = sa->a.method, .q = sa->a.q, .flat = sa->a.flat,
				.spread = sa->a.spread };
	for (i = 0; i < r->n; i++) {
		const struct scale_row *row = &r->row[i];
		bool traced = row_traced(row_file(r, row));

		if ((traced && strcmp(row->variant, "time")) || scale_audit_func_row(r, row) ||
		    (!row->side[0].has && !row->side[1].has))
			continue;
		if (traced) {
			sa->c[sa->a.nc].func = row->workload;
			for (k = 0; k < r->nr_groups; k++)
				buf = side_points(&row->side[k], buf, &sa->c[sa->a.nc].pt[k]);
			sa->a.nc++;
			continue;
		}
		sa->e[sa->a.n] = (struct audit_entry){ .name = row->workload,
			.variant = row->variant, .threshold_ns = row->threshold_ns };
		for (k = 0; k < r->nr_groups; k++)
			buf = side_points(&row->side[k], buf, &sa->e[sa->a.n].pt[k]);
		sa->a.n++;
	}
	for (i = 0; i < sa->a.nc; i++)
		for (k = 0; k < r->n; k++)
			if (!strcmp(r->row[k].workload, sa->c[i].func) && row_file(r, &r->row[k])) {
				sa->c[i].entry = cand_entry(sa, row_file(r, &r->row[k]));
				break;
			}
	audit_battery(sa, r);
	return fn_build(r, sa);
}

int scale_audit_compute(struct scale_report *r, int method, double q, double flat,
			double spread)
{
	struct scale_audit *sa = calloc(1, sizeof(*sa));
	int ret;

	if (!sa)
		return -ENOMEM;
	r->audit = sa;
	sa->a.method = method;
	sa->a.q = q;
	sa->a.flat = flat;
	sa->a.spread = spread;
	ret = audit_build(r, sa);
	if (ret)
		return ret;
	if (!sa->a.n) {
		pr_err("--audit: no entries in the files, only functions (traced, or the plugin's)");
		return EXIT_USAGE;
	}
	return audit_run(&sa->a);
}

const struct auditfmt *scale_audit_fmt(const struct scalefmt *sf, struct auditfmt *c)
{
	const struct scale_report *r = sf->r;
	const struct scale_audit *sa = r->audit;

	if (!sa)
		return NULL;
	*c = (struct auditfmt){
		.a = &sa->a,
		.group = { r->g[0].name, r->g[1].name },
		.unit = r->unit,
		.stat = cmp_stat_names[sf->stat],
		.threshold = sf->threshold.v,
		.threshold_pct = sf->threshold.pct,
		.meta = &r->g[r->nr_groups - 1].set[0]->meta,
		.origin = sf->origin,
		.skipped = *sa->skipped ? sa->skipped : NULL,
		.nr_cands = sa->a.nc,
	};
	return c;
}

bool scale_audit_regression(const struct scale_report *r)
{
	const struct scale_audit *sa = r->audit;

	return sa && (sa->a.regressions || sa->a.not_repeatable);
}

void scale_audit_free(struct scale_report *r)
{
	struct scale_audit *sa = r->audit;

	if (!sa)
		return;
	audit_free(&sa->a);
	free(sa->e);
	free(sa->c);
	free(sa->buf);
	free(sa->f);
	free(sa->fbuf);
	free(sa);
	r->audit = NULL;
}
