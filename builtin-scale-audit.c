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
	char skipped[META_VAL];		/* the battery's skipped entries, or "" */
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

		if ((traced && strcmp(row->variant, "time")) ||
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
	return 0;
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
		pr_err("--audit: no entries in the files, only traced functions");
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
	free(sa);
	r->audit = NULL;
}
