// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - per-run figures, the exact Mann-Whitney U test, the
 * Hodges-Lehmann change and the gate's verdict, and the gate over
 * results sets as bench compare runs it (see compare.h).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_hist.h"
#include "lib/stats/compare.h"
#include "lib/results/counted.h"

const char *const cmp_stat_names[] = {
	"tm10", "median", "mean", "p90", "p99", "p25", "p10", "min", NULL,
};

const char *const cmp_ref_names[] = { "auto", "on", "off", NULL };

const char *const cmp_verdict_names[] = {
	[CMP_SAME] = "~",
	[CMP_BELOW] = "significant, below threshold",
	[CMP_REGRESSION] = "regression",
	[CMP_IMPROVEMENT] = "improvement",
	[CMP_NOT_REPEATABLE] = "not repeatable",
};

/* ---- per-run figures from a histogram ---- */

double cmp_trimmed_mean(const struct kstats_hist *h, double trim)
{
	double total = (double)kstats_hist_total(h), lo, hi, cum = 0, w, sum = 0;
	unsigned int s, n = kstats_hist_nr_slots(h);

	if (!total)
		return 0;
	lo = trim * total;
	hi = total - lo;
	for (s = 0; s < n && cum < hi; s++) {
		double c = (double)kstats_hist_slot_count(h, s);

		/* the share of this bucket's count inside [lo, hi) */
		w = fmin(cum + c, hi) - fmax(cum, lo);
		if (w > 0)
			sum += w * (double)kstats_hist_slot_avg(h, s);
		cum += c;
	}
	return sum / (hi - lo);
}

double cmp_quantile(const struct kstats_hist *h, double q)
{
	double rank = q * (double)kstats_hist_total(h), cum = 0;
	unsigned int s, n = kstats_hist_nr_slots(h), fb = kstats_hist_frac_bits(h);
	uint64_t lo, last;

	for (s = 0; s < n; s++) {
		double c = (double)kstats_hist_slot_count(h, s);

		if (!c || cum + c < rank) {
			cum += c;
			continue;
		}
		kstats_hist_slot_bounds(fb, s, &lo, &last);
		return (double)lo + ((double)last + 1 - (double)lo) * (rank - cum) / c;
	}
	return 0;
}

double cmp_hist_stat(const struct kstats_hist *h, enum cmp_stat stat)
{
	switch (stat) {
	case CMP_STAT_TM10:
		return cmp_trimmed_mean(h, 0.10);
	case CMP_STAT_MEDIAN:
		return cmp_quantile(h, 0.50);
	case CMP_STAT_MEAN:
		return kstats_hist_mean(h);
	case CMP_STAT_P90:
		return cmp_quantile(h, 0.90);
	case CMP_STAT_P99:
		return cmp_quantile(h, 0.99);
	case CMP_STAT_P25:
		return cmp_quantile(h, 0.25);
	case CMP_STAT_P10:
		return cmp_quantile(h, 0.10);
	case CMP_STAT_MIN:
		/* a file before format 3 has no min_ns: its lowest bucket's bound */
		return kstats_hist_min(h) ? (double)kstats_hist_min(h) : cmp_quantile(h, 0);
	default:
		return 0;
	}
}

/* ---- the U test ---- */

struct cmp_item {
	double v;			/* the figure */
	bool after;			/* which side */
};

static int cmp_item_order(const void *x, const void *y)
{
	const struct cmp_item *a = x, *b = y;

	return a->v < b->v ? -1 : a->v > b->v;
}

static int cmp_double_order(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/*
 * The exact null distribution of the sum of @k of the @n doubled ranks
 * @r2 (twice the mid-rank: integers even with ties), every k-subset
 * equally likely: *@dist[s] is P(sum == s), s in 0..*@smax.
 * Knapsack over the items, counts in doubles (C(100, 50) ~ 1e29 is far
 * inside a double's range). Returns 0 or -ENOMEM.
 */
static int cmp_rank_sum_dist(const unsigned int *r2, unsigned int n,
			     unsigned int k, double **dist, unsigned int *smax)
{
	unsigned int i, j, s, top = 0;
	double *cnt, total = 0;

	for (i = 0; i < n; i++)
		top += r2[i];
	cnt = calloc((size_t)(k + 1) * (top + 1), sizeof(*cnt));
	if (!cnt)
		return -ENOMEM;
	cnt[0] = 1;
	for (i = 0; i < n; i++)
		for (j = i + 1 < k ? i + 1 : k; j >= 1; j--)
			for (s = top; s >= r2[i]; s--)
				cnt[j * (top + 1) + s] += cnt[(j - 1) * (top + 1) + s - r2[i]];
	memmove(cnt, cnt + (size_t)k * (top + 1), (top + 1) * sizeof(*cnt));
	for (s = 0; s <= top; s++)
		total += cnt[s];
	for (s = 0; s <= top; s++)
		cnt[s] /= total;
	*dist = cnt;
	*smax = top;
	return 0;
}

/* the sorted items' doubled mid-ranks; returns the sum of t^3 - t over ties */
static double cmp_midranks(const struct cmp_item *it, unsigned int n,
			   unsigned int *r2)
{
	unsigned int i = 0, j, k;
	double ties = 0;

	while (i < n) {
		for (j = i; j + 1 < n && it[j + 1].v == it[i].v; j++)
			;
		for (k = i; k <= j; k++)
			r2[k] = i + j + 2;	/* (i + 1) + (j + 1) */
		ties += pow(j - i + 1, 3) - (j - i + 1);
		i = j + 1;
	}
	return ties;
}

static void cmp_u_normal(double u, double nb, double na, double ties,
			 struct cmp_utest *t)
{
	double n = nb + na, mu = nb * na / 2;
	double var = nb * na / 12 * ((n + 1) - ties / (n * (n - 1)));
	double sd = sqrt(var > 0 ? var : 0);

	if (sd == 0) {
		t->p_greater = t->p_less = 1;
		return;
	}
	t->p_greater = 0.5 * erfc((u - mu - 0.5) / sd / M_SQRT2);
	t->p_less = 0.5 * erfc(-(u - mu + 0.5) / sd / M_SQRT2);
	if (t->p_greater > 1)
		t->p_greater = 1;
	if (t->p_less > 1)
		t->p_less = 1;
}

static int cmp_u_exact(const unsigned int *r2, unsigned int n, unsigned int na,
		       unsigned int w2, struct cmp_utest *t)
{
	unsigned int s, smax;
	double *dist;
	int ret = cmp_rank_sum_dist(r2, n, na, &dist, &smax);

	if (ret)
		return ret;
	t->p_greater = t->p_less = 0;
	for (s = 0; s <= smax; s++) {
		if (s >= w2)
			t->p_greater += dist[s];
		if (s <= w2)
			t->p_less += dist[s];
	}
	t->p_greater = fmin(t->p_greater, 1);
	t->p_less = fmin(t->p_less, 1);
	free(dist);
	return 0;
}

int cmp_mann_whitney(const double *b, unsigned int nb, const double *a,
		     unsigned int na, struct cmp_utest *t)
{
	unsigned int i, n = nb + na, w2 = 0, *r2;
	struct cmp_item *it;
	double ties;
	int ret = -ENOMEM;

	if (!nb || !na)
		return -EINVAL;
	it = calloc(n, sizeof(*it));
	r2 = calloc(n, sizeof(*r2));
	if (!it || !r2)
		goto out_free;
	for (i = 0; i < n; i++) {
		it[i].after = i >= nb;
		it[i].v = i < nb ? b[i] : a[i - nb];
	}
	qsort(it, n, sizeof(*it), cmp_item_order);
	ties = cmp_midranks(it, n, r2);
	for (i = 0; i < n; i++)
		w2 += it[i].after ? r2[i] : 0;
	/* U = W - na (na + 1) / 2, W the rank sum of after */
	t->u = w2 / 2.0 - na * (na + 1.0) / 2;
	t->exact = n <= CMP_EXACT_MAX;
	ret = 0;
	if (t->exact)
		ret = cmp_u_exact(r2, n, na, w2, t);
	else
		cmp_u_normal(t->u, nb, na, ties, t);
out_free:
	free(r2);
	free(it);
	return ret;
}

/* ---- the change and its interval ---- */

/* z with P(Z > z) = @p, by bisection on erfc over [0, 40]: 60 halvings */
static double cmp_z_upper(double p)
{
	double lo = 0, hi = 40, mid;
	int i;

	for (i = 0; i < 60; i++) {
		mid = (lo + hi) / 2;
		if (0.5 * erfc(mid / M_SQRT2) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * k for the interval [D(k), D(nb na + 1 - k)]: the largest k with
 * P(U <= k - 1) <= (1 - conf) / 2 under the tie-free null, and the
 * coverage it buys. k = 0: no finite interval.
 */
static int cmp_hl_rank(unsigned int nb, unsigned int na, double conf,
		       unsigned int *k, double *cover)
{
	double half = (1 - conf) / 2, mu = nb * (double)na / 2, cdf = 0;
	unsigned int i, n = nb + na, smax, u, base = na * (na + 1), *r2;
	double *dist;
	int ret;

	if (n > CMP_EXACT_MAX) {
		double sd = sqrt(nb * (double)na * (n + 1) / 12);
		double kk = floor(mu - cmp_z_upper(half) * sd + 0.5);

		*k = kk > 0 ? (unsigned int)kk : 0;
		*cover = conf;
		return 0;
	}
	r2 = calloc(n, sizeof(*r2));
	if (!r2)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		r2[i] = 2 * (i + 1);
	ret = cmp_rank_sum_dist(r2, n, na, &dist, &smax);
	free(r2);
	if (ret)
		return ret;
	/* doubled rank sum s is U = (s - na (na + 1)) / 2 */
	*k = 0;
	*cover = 1;
	for (u = 0; base + 2 * u <= smax; u++) {
		cdf += dist[base + 2 * u];
		if (cdf > half)
			break;
		*k = u + 1;
		*cover = 1 - 2 * cdf;
	}
	free(dist);
	return 0;
}

int cmp_hodges_lehmann(const double *b, unsigned int nb, const double *a,
		       unsigned int na, double conf, struct cmp_change *c)
{
	size_t i, j, m = (size_t)nb * na;
	unsigned int k;
	double *d;
	int ret;

	if (!nb || !na)
		return -EINVAL;
	for (i = 0; i < nb; i++)
		if (!(b[i] > 0))
			return -EINVAL;
	d = malloc(m * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (i = 0; i < nb; i++)
		for (j = 0; j < na; j++)
			d[i * na + j] = a[j] / b[i];
	qsort(d, m, sizeof(*d), cmp_double_order);
	c->est = (m & 1 ? d[m / 2] : (d[m / 2 - 1] + d[m / 2]) / 2) - 1;
	k = 0;
	c->conf = 0;
	ret = conf > 0 ? cmp_hl_rank(nb, na, conf, &k, &c->conf) : 0;
	if (!ret && k) {
		c->lo = d[k - 1] - 1;
		c->hi = d[m - k] - 1;
	} else if (!ret) {
		c->lo = -INFINITY;
		c->hi = INFINITY;
	}
	free(d);
	return ret;
}

double cmp_median_spread(double *x, unsigned int n, double *spread)
{
	double med, cdf = 0, lo, hi;
	unsigned int k = 1, i;

	*spread = 0;
	if (!n)
		return 0;
	qsort(x, n, sizeof(*x), cmp_double_order);
	med = n & 1 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
	/* order statistics k, n + 1 - k cover the median with P >= 95% */
	for (i = 0; i < n / 2; i++) {
		cdf += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) -
			   n * M_LN2);
		if (cdf > 0.025)
			break;
		k = i + 1;
	}
	lo = x[k - 1];
	hi = x[n - k];
	if (med > 0)
		*spread = fmax(med - lo, hi - med) / med;
	return med;
}

/* ---- the verdict ---- */

static enum cmp_verdict cmp_decide(const struct cmp_result *r, double alpha,
				   double threshold)
{
	if (r->change.est > 0 && r->u.p_greater <= alpha)
		return r->change.est > threshold ? CMP_REGRESSION : CMP_BELOW;
	if (r->change.est < 0 && r->u.p_less <= alpha)
		return r->change.est < -threshold ? CMP_IMPROVEMENT : CMP_BELOW;
	return CMP_SAME;
}

int cmp_runs(double *b, unsigned int nb, double *a, unsigned int na,
	     double alpha, double threshold, struct cmp_result *r)
{
	int ret;

	memset(r, 0, sizeof(*r));
	ret = cmp_mann_whitney(b, nb, a, na, &r->u);
	if (!ret)
		ret = cmp_hodges_lehmann(b, nb, a, na, 0.95, &r->change);
	if (ret)
		return ret;
	r->before = cmp_median_spread(b, nb, &r->before_spread);
	r->after = cmp_median_spread(a, na, &r->after_spread);
	r->p = r->change.est >= 0 ? r->u.p_greater : r->u.p_less;
	r->verdict = cmp_decide(r, alpha, threshold);
	return 0;
}

/* exact figures: a change is its size, once both sides repeat (counted.h) */
static enum cmp_verdict cmp_decide_exact(const double *b, unsigned int nb, const double *a,
					 unsigned int na, const struct cmp_result *r, double spread,
					 double threshold)
{
	if (r->before_spread > spread || r->after_spread > spread)
		return CMP_NOT_REPEATABLE;
	/* sorted: the ranges are [b[0], b[nb - 1]] and [a[0], a[na - 1]] */
	if (a[0] <= b[nb - 1] && b[0] <= a[na - 1])
		return CMP_SAME;
	if (r->change.est > threshold)
		return CMP_REGRESSION;
	if (r->change.est < -threshold)
		return CMP_IMPROVEMENT;
	return CMP_BELOW;
}

int cmp_runs_exact(double *b, unsigned int nb, double *a, unsigned int na, double spread,
		   double threshold, struct cmp_result *r)
{
	int ret;

	memset(r, 0, sizeof(*r));
	ret = cmp_mann_whitney(b, nb, a, na, &r->u);
	if (!ret)
		ret = cmp_hodges_lehmann(b, nb, a, na, 0, &r->change);
	if (ret)
		return ret;
	r->before = cmp_median_spread(b, nb, &r->before_spread);
	r->after = cmp_median_spread(a, na, &r->after_spread);
	r->before_spread = counted_spread(b, nb);
	r->after_spread = counted_spread(a, na);
	/* every ratio lies between these: the interval of exact figures */
	r->change.lo = a[0] / b[nb - 1] - 1;
	r->change.hi = a[na - 1] / b[0] - 1;
	r->change.conf = 1;
	r->p = r->change.est >= 0 ? r->u.p_greater : r->u.p_less;
	r->verdict = cmp_decide_exact(b, nb, a, na, r, spread, threshold);
	return 0;
}

/* ---- the reference: taking the machine's drift out ---- */

/*
 * sums of the within-side centred log products, for one side, over its
 * runs with both figures > 0; false when fewer than 2 of them
 */
static bool cmp_ref_sums(const double *x, const double *r, unsigned int n,
			 double *sxy, double *sxx)
{
	double mx = 0, mr = 0;
	unsigned int i, k = 0;

	for (i = 0; i < n; i++)
		if (x[i] > 0 && r[i] > 0) {
			mx += log(x[i]);
			mr += log(r[i]);
			k++;
		}
	if (k < 2)
		return false;
	mx /= k;
	mr /= k;
	for (i = 0; i < n; i++)
		if (x[i] > 0 && r[i] > 0) {
			*sxy += (log(x[i]) - mx) * (log(r[i]) - mr);
			*sxx += (log(r[i]) - mr) * (log(r[i]) - mr);
		}
	return true;
}

/* runs of @n with a figure and a reference > 0 */
static unsigned int cmp_ref_usable(const double *x, const double *r, unsigned int n)
{
	unsigned int i, k = 0;

	for (i = 0; i < n; i++)
		k += x[i] > 0 && r[i] > 0;
	return k;
}

double cmp_ref_share_groups(const double *x, const double *r, const unsigned int *len,
			    unsigned int groups)
{
	double sxy = 0, sxx = 0, b;
	unsigned int g, at = 0, used = 0;

	for (g = 0; g < groups; at += len[g++])
		used += cmp_ref_sums(x + at, r + at, len[g], &sxy, &sxx);
	/* a reference that (to rounding) never moved within a group says nothing */
	if (!used || !(sxx > 1e-12))
		return 0;
	b = sxy / sxx;
	return b < 0 ? 0 : b > 1 ? 1 : b;
}

double cmp_ref_share(const double *x, const double *r, unsigned int nb, unsigned int na)
{
	const unsigned int len[2] = { nb, na };

	/* both sides must have runs to fit on, or the share is one side's */
	if (cmp_ref_usable(x, r, nb) < 2 || cmp_ref_usable(x + nb, r + nb, na) < 2)
		return 0;
	return cmp_ref_share_groups(x, r, len, 2);
}

void cmp_ref_adjust(double *x, const double *r, unsigned int n, double at, double share)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (r[i] > 0)
			x[i] *= pow(at / r[i], share);
}

/* ---- comparing results sets ---- */
