// SPDX-License-Identifier: GPL-2.0
/*
 * audit.c - a battery judged as one family: p-values by inverting the
 * slope intervals, Benjamini-Hochberg or Holm over them, the intervals
 * at the adjusted levels, the ranking and the attribution (see audit.h
 * for why).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats/audit.h"

const char *const audit_method_names[] = { "bh", "holm", "none", NULL };

/* bisection steps over z: 2^-60 of the range, past any rank's step */
#define AUDIT_BISECT	60
/* the largest z searched: erfc() is 0 in doubles beyond */
#define AUDIT_Z_MAX	37.0

/* ---- the correction ---- */

/* what the comparators below sort by (not thread-safe: a static) */
static const double *sort_v;

/* @idx: 0..n-1 sorted by @cmp over @v's values */
static void sort_index(const double *v, unsigned int n, unsigned int *idx,
		       int (*cmp)(const void *, const void *))
{
	unsigned int i;

	for (i = 0; i < n; i++)
		idx[i] = i;
	sort_v = v;
	qsort(idx, n, sizeof(*idx), cmp);
	sort_v = NULL;
}

/* p ascending, ties by index */
static int p_cmp(const void *a, const void *b)
{
	unsigned int i = *(const unsigned int *)a, j = *(const unsigned int *)b;

	if (sort_v[i] != sort_v[j])
		return sort_v[i] < sort_v[j] ? -1 : 1;
	return i < j ? -1 : i > j;
}

int audit_adjust(enum audit_method method, const double *p, unsigned int n, double q,
		 double *level, bool *reject)
{
	unsigned int *idx, i, k = 0;
	double lv;

	if (!(q > 0 && q < 1))
		return -EINVAL;
	if (!n)
		return 0;
	idx = malloc(n * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	sort_index(p, n, idx, p_cmp);
	switch (method) {
	case AUDIT_BH:
		for (i = 0; i < n; i++)
			if (p[idx[i]] <= q * (i + 1) / n)
				k = i + 1;
		lv = q * (k ? k : 1) / n;
		for (i = 0; i < n; i++)
			level[i] = lv;
		break;
	case AUDIT_HOLM:
		lv = q / n;
		for (i = 0; i < n; i++) {
			if (i == k) {
				lv = q / (n - i);
				if (p[idx[i]] <= lv)
					k++;
			}
			level[idx[i]] = lv;
		}
		break;
	default:
		for (i = 0; i < n; i++)
			level[i] = q;
		break;
	}
	for (i = 0; i < n; i++)
		reject[i] = p[i] <= level[i];
	free(idx);
	return 0;
}

/* ---- p by inverting the interval ---- */

/* the z from which Sen's interval spans every slope: no level widens it */
static double z_full(const struct scale_fit *f)
{
	return f->sigma > 0 ? (f->pairs + 1.0) / f->sigma : 0;
}

static int fit_z(const struct audit_points *pt, double z, struct scale_fit *f)
{
	return scale_theil_sen_z(pt->x, pt->y, pt->n, z, f);
}

/*
 * How far the interval at @z is from holding the null: > 0 while it
 * excludes it. A fit: [-flat, +flat]; a difference (@b): 0.
 */
static int margin(const struct audit_points *a, const struct audit_points *b, double flat,
		  double z, double *m)
{
	struct scale_fit fa, fb;
	struct scale_diff d;
	int ret;

	ret = fit_z(a, z, &fa);
	if (!ret && b)
		ret = fit_z(b, z, &fb);
	if (ret)
		return ret;
	if (!b) {
		*m = fmax(fa.lo - flat, -flat - fa.hi);
		return 0;
	}
	scale_diff(&fa, &fb, &d);
	*m = fmax(d.lo, -d.hi);
	return 0;
}

/*
 * The smallest alpha whose interval still excludes the null, into *@p,
 * and never below what the points can give (scale_fit.p_floor; of a
 * difference, the larger of the two sides'): Sen's normal interval
 * alone reads 0.046 on two points.
 */
static int invert(const struct audit_points *a, const struct audit_points *b, double flat,
		  double *p)
{
	struct scale_fit f;
	double lo = 0, hi, mid, m, floor;
	unsigned int i;
	int ret;

	ret = fit_z(a, SCALE_Z95, &f);
	if (ret)
		return ret;
	hi = z_full(&f);
	floor = f.p_floor;
	if (b) {
		ret = fit_z(b, SCALE_Z95, &f);
		if (ret)
			return ret;
		hi = fmax(hi, z_full(&f));
		floor = fmax(floor, f.p_floor);
	}
	hi = fmin(hi, AUDIT_Z_MAX);
	ret = margin(a, b, flat, 0, &m);
	if (ret || m <= 0) {
		*p = 1;
		return ret;
	}
	ret = margin(a, b, flat, hi, &m);
	if (!ret && m > 0) {
		*p = fmax(scale_alpha(hi), floor);
		return 0;
	}
	for (i = 0; !ret && i < AUDIT_BISECT; i++) {
		mid = (lo + hi) / 2;
		ret = margin(a, b, flat, mid, &m);
		if (m > 0)
			lo = mid;
		else
			hi = mid;
	}
	*p = fmax(scale_alpha(lo), floor);
	return ret;
}

int audit_p_fit(const struct audit_points *pt, double flat, double *p)
{
	return invert(pt, NULL, flat, p);
}

int audit_p_diff(const struct audit_points *a, const struct audit_points *b, double *p)
{
	return invert(a, b, 0, p);
}

/* ---- the ranking ---- */

/* cost descending, NaN last, ties by index */
static int cost_cmp(const void *a, const void *b)
{
	unsigned int i = *(const unsigned int *)a, j = *(const unsigned int *)b;
	double x = sort_v[i], y = sort_v[j];

	if (isnan(x) != isnan(y))
		return isnan(x) ? 1 : -1;
	if (!isnan(x) && x != y)
		return x > y ? -1 : 1;
	return i < j ? -1 : i > j;
}

void audit_rank(const double *cost, unsigned int n, unsigned int *order)
{
	sort_index(cost, n, order, cost_cmp);
}

/* ---- the run ---- */

/* side @k of every entry: p, the correction, the refit, the verdict */
static int run_side(struct audit *a, unsigned int k, double *p, double *lv, bool *rej)
{
	unsigned int i, m = 0;
	int ret = 0;

	for (i = 0; i < a->n && !ret; i++)
		if (a->e[i].pt[k].n)
			ret = audit_p_fit(&a->e[i].pt[k], a->flat, &p[m++]);
	if (!ret)
		ret = audit_adjust(a->method, p, m, a->q, lv, rej);
	a->level[k] = a->q;
	for (i = 0, m = 0; i < a->n && !ret; i++) {
		struct audit_side *s = &a->e[i].s[k];

		s->cand = -1;
		if (!a->e[i].pt[k].n)
			continue;
		s->p = p[m];
		s->level = lv[m];
		a->level[k] = fmin(a->level[k], lv[m]);
		ret = fit_z(&a->e[i].pt[k], scale_z(s->level), &s->fit);
		s->verdict = !rej[m] ? SCALE_FLAT : s->fit.slope > 0 ? SCALE_GROWS : SCALE_SHRINKS;
		a->grows[k] += s->verdict == SCALE_GROWS;
		a->controls_grow += a->e[i].control && s->verdict == SCALE_GROWS;
		scale_at(&s->fit, AUDIT_AT, &s->at, &s->at_lo, &s->at_hi);
		m++;
	}
	return ret;
}

/* the gate: B - A per entry on both sides, corrected as a family */
static int run_gate(struct audit *a, double *p, double *lv, bool *rej)
{
	struct scale_fit fa, fb;
	unsigned int i, m = 0;
	int ret = 0;

	for (i = 0; i < a->n && !ret; i++) {
		struct audit_entry *e = &a->e[i];

		e->gated = e->pt[0].n && e->pt[1].n;
		if (e->gated)
			ret = audit_p_diff(&e->pt[0], &e->pt[1], &p[m++]);
	}
	if (!ret)
		ret = audit_adjust(a->method, p, m, a->q, lv, rej);
	a->diff_level = a->q;
	for (i = 0, m = 0; i < a->n && !ret; i++) {
		struct audit_entry *e = &a->e[i];

		if (!e->gated)
			continue;
		e->diff_p = p[m];
		e->diff_level = lv[m];
		a->diff_level = fmin(a->diff_level, lv[m]);
		ret = fit_z(&e->pt[0], scale_z(e->diff_level), &fa);
		if (!ret)
			ret = fit_z(&e->pt[1], scale_z(e->diff_level), &fb);
		if (ret)
			break;
		scale_diff(&fa, &fb, &e->diff);
		e->not_repeatable = a->spread > 0 &&
				    (e->s[0].spread > a->spread || e->s[1].spread > a->spread);
		/*
		 * Counted: a count repeats, so the difference's interval is
		 * its size; a p of a handful of boots has a floor above the
		 * family's level and would pass every change. Judged as
		 * bench scale's gate judges counted files.
		 */
		if (a->spread > 0)
			e->regression = !e->not_repeatable && e->diff.lo > 0 &&
					e->diff.est > e->threshold_ns;
		else
			e->regression = !e->not_repeatable && rej[m] && e->diff.est > 0 &&
					e->diff.est > e->threshold_ns;
		a->regressions += e->regression;
		a->not_repeatable += e->not_repeatable;
		m++;
	}
	return ret;
}

/*
 * The candidate of @e's side @k with the largest share of its slope,
 * among those that grow (95% interval above 0) and whose interval does not lie above the
 * entry's interval (a function inside the entry cannot grow faster).
 */
static void attribute(const struct audit *a, struct audit_entry *e, unsigned int k)
{
	struct audit_side *s = &e->s[k];
	unsigned int i;
	double share;

	for (i = 0; i < a->nc; i++) {
		const struct audit_cand *c = &a->c[i];

		if (!c->has[k] || (c->entry && strcmp(c->entry, e->name)))
			continue;
		/* inside the entry: it cannot surely grow faster, nor not at all */
		if (c->fit[k].lo <= 0 || c->fit[k].lo > s->fit.hi)
			continue;
		share = c->fit[k].slope / s->fit.slope;
		if (s->cand < 0 || share > s->share) {
			s->cand = (int)i;
			s->share = share;
		}
	}
}

/*
 * a candidate's or a function's points @pt on each side fitted at 95%
 * into @fit, whether they could be into @has; 0 or -ENOMEM
 */
static int fit_sides(const struct audit *a, const struct audit_points *pt,
		     struct scale_fit *fit, bool *has)
{
	unsigned int k;
	int ret;

	for (k = 0; k < a->nr_sides; k++) {
		has[k] = pt[k].n > 0;
		if (!has[k])
			continue;
		ret = fit_z(&pt[k], SCALE_Z95, &fit[k]);
		if (ret == -ENOMEM)
			return ret;
		has[k] = !ret;
	}
	return 0;
}

/* ---- attribution by instructions ---- */

/* what the comparator below sorts by: the slopes of side sort_k */
static const struct audit_func *sort_f;
static unsigned int sort_k;

/* slope descending, ties by index */
static int func_cmp(const void *x, const void *y)
{
	unsigned int i = *(const unsigned int *)x, j = *(const unsigned int *)y;
	double a = sort_f[i].fit[sort_k].slope, b = sort_f[j].fit[sort_k].slope;

	if (a != b)
		return a > b ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* @e's functions on side @k into @idx (scratch of a->nf); how many */
static unsigned int entry_funcs(const struct audit *a, const struct audit_entry *e,
				unsigned int k, unsigned int *idx)
{
	unsigned int i, n = 0;

	for (i = 0; i < a->nf; i++)
		if (a->f[i].has[k] && !strcmp(a->f[i].entry, e->name))
			idx[n++] = i;
	return n;
}

/* side @k of @e: the fewest functions, steepest first, that carry half its growth */
static void carry(const struct audit *a, struct audit_entry *e, unsigned int k,
		  unsigned int *idx)
{
	struct audit_carry *c = &e->s[k].carry;
	double sum = 0;
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->nr = entry_funcs(a, e, k, idx);
	for (i = 0; i < c->nr; i++)
		c->total += a->f[idx[i]].fit[k].slope;
	if (!c->nr || !(c->total > 0))
		return;
	sort_f = a->f;
	sort_k = k;
	qsort(idx, c->nr, sizeof(*idx), func_cmp);
	sort_f = NULL;
	for (i = 0; i < c->nr && i < AUDIT_MAX_CARRY && !c->half; i++) {
		c->f[c->n] = idx[i];
		c->share[c->n] = a->f[idx[i]].fit[k].slope / c->total;
		sum += c->share[c->n++];
		c->half = sum >= AUDIT_HALF;
	}
}

/* every function's fit, then every growing entry's carriers; 0 or -ENOMEM */
static int run_funcs(struct audit *a)
{
	unsigned int i, k, *idx;
	int ret;

	for (i = 0; i < a->nf; i++) {
		ret = fit_sides(a, a->f[i].pt, a->f[i].fit, a->f[i].has);
		if (ret)
			return ret;
	}
	idx = malloc(((size_t)a->nf + 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (i = 0; i < a->n; i++)
		for (k = 0; k < a->nr_sides; k++)
			if (a->e[i].pt[k].n && a->e[i].s[k].verdict == SCALE_GROWS)
				carry(a, &a->e[i], k, idx);
	free(idx);
	return 0;
}

static int run_cands(struct audit *a)
{
	unsigned int i, k;
	int ret;

	for (i = 0; i < a->nc; i++) {
		ret = fit_sides(a, a->c[i].pt, a->c[i].fit, a->c[i].has);
		if (ret)
			return ret;
	}
	for (i = 0; i < a->n; i++)
		for (k = 0; k < a->nr_sides; k++)
			if (a->e[i].pt[k].n && a->e[i].s[k].verdict == SCALE_GROWS)
				attribute(a, &a->e[i], k);
	return 0;
}

int audit_run(struct audit *a)
{
	unsigned int k, last = a->nr_sides > 1 ? 1 : 0, i;
	double *p, *lv, *cost;
	bool *rej;
	int ret = 0;

	if (!(a->q > 0 && a->q < 1) || a->nr_sides < 1 || a->nr_sides > 2)
		return -EINVAL;
	p = calloc(3 * (size_t)a->n + 1, sizeof(*p));
	rej = calloc((size_t)a->n + 1, sizeof(*rej));
	a->order = calloc((size_t)a->n + 1, sizeof(*a->order));
	if (!p || !rej || !a->order) {
		ret = -ENOMEM;
		goto out;
	}
	lv = p + a->n;
	cost = lv + a->n;
	a->grows[0] = a->grows[1] = a->regressions = a->controls_grow = 0;
	a->not_repeatable = 0;
	for (i = 0; i < a->n; i++)
		for (k = 0; k < a->nr_sides; k++)
			a->e[i].s[k].spread = scale_spread(a->e[i].pt[k].x, a->e[i].pt[k].y,
							   a->e[i].pt[k].n);
	for (k = 0; k < a->nr_sides && !ret; k++)
		ret = run_side(a, k, p, lv, rej);
	if (!ret && a->nr_sides == 2)
		ret = run_gate(a, p, lv, rej);
	if (!ret)
		ret = run_cands(a) ?: run_funcs(a);
	for (i = 0; i < a->n; i++)
		cost[i] = a->e[i].pt[last].n ? a->e[i].s[last].at : NAN;
	if (!ret)
		audit_rank(cost, a->n, a->order);
out:
	free(p);
	free(rej);
	if (ret)
		audit_free(a);
	return ret;
}

void audit_free(struct audit *a)
{
	free(a->order);
	a->order = NULL;
}
