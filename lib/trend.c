// SPDX-License-Identifier: GPL-2.0
/*
 * trend.c - E-divisive means over a history of per-run figures, each
 * change point accepted by a seeded permutation test (see trend.h).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "trend.h"

/* ---- the energy statistic ---- */

/*
 * Q(t) for every split of v[0, n) in O(n^2): a[t] is the sum of |v_i -
 * v_t| over i < t and b[t] over i > t, so the within-sums of the left
 * and right sides are a prefix sum of a and a suffix sum of b, and the
 * cross sum is what is left of the total. Returns the largest Q and its
 * t in *@at (the first of equals); q[t] filled when @q.
 */
static double energy_scan(const double *v, unsigned int n, double *a, double *b,
			  double *q, unsigned int *at)
{
	double total = 0, left = 0, right, best = -INFINITY;
	unsigned int i, j, t;

	memset(a, 0, n * sizeof(*a));
	memset(b, 0, n * sizeof(*b));
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			double d = fabs(v[i] - v[j]);

			a[j] += d;
			b[i] += d;
		}
	for (i = 0; i < n; i++)
		total += a[i];
	right = total;
	*at = 0;
	for (t = 1; t + TREND_MIN_SEG <= n; t++) {
		double m = t, k = n - t, cross, e, qt;

		left += a[t - 1];
		right -= b[t - 1];
		if (t < TREND_MIN_SEG)
			continue;
		cross = total - left - right;
		e = 2 * cross / (m * k) - 2 * left / (m * (m - 1)) - 2 * right / (k * (k - 1));
		qt = m * k / (m + k) * e;
		if (q)
			q[t] = qt;
		if (qt > best) {
			best = qt;
			*at = t;
		}
	}
	return best;
}

unsigned int trend_energy(const double *x, unsigned int n, double *q)
{
	double *ab;
	unsigned int at = 0;

	memset(q, 0, (n + 1) * sizeof(*q));
	if (n < 2 * TREND_MIN_SEG)
		return 0;
	ab = malloc(2 * (size_t)n * sizeof(*ab));
	if (!ab)
		return 0;
	energy_scan(x, n, ab, ab + n, q, &at);
	free(ab);
	return at;
}

/* ---- the permutation test ---- */

/* splitmix64 (Steele, Lea, Flood 2014): small, fast, and easy to redo in Python */
static uint64_t trend_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Fisher-Yates; the modulo's bias is below n / 2^64 */
static void trend_shuffle(double *v, unsigned int n, uint64_t *s)
{
	unsigned int i, j;
	double tmp;

	for (i = n - 1; i > 0; i--) {
		j = (unsigned int)(trend_rand(s) % (i + 1));
		tmp = v[i];
		v[i] = v[j];
		v[j] = tmp;
	}
}

uint64_t trend_seed(uint64_t seed, unsigned int lo, unsigned int hi)
{
	return seed ^ ((uint64_t)lo << 32 | hi);
}

unsigned int trend_nr_perms(double alpha)
{
	double r = ceil(2 / alpha) - 1;

	return r < 199 ? 199 : (unsigned int)r;
}

unsigned int trend_min_window(double alpha)
{
	unsigned int h;

	/* C(2h, h) = exp(lgamma(2h + 1) - 2 lgamma(h + 1)) */
	for (h = TREND_MIN_SEG; h < 64; h++)
		if (2 * exp(2 * lgamma(h + 1.0) - lgamma(2 * h + 1.0)) <= alpha / 10)
			break;
	return 2 * h;
}

/* scratch for one test: the shuffled copy and energy_scan()'s sums */
struct trend_work {
	double *v;			/* [cap] the runs, shuffled */
	double *a, *b;			/* [cap] energy_scan()'s row sums */
	double *tmp;			/* [cap + 1] Q of each split */
	unsigned int cap;		/* runs each holds */
};

static int work_init(struct trend_work *w, unsigned int cap)
{
	w->cap = cap;
	w->v = malloc((4 * (size_t)cap + 1) * sizeof(*w->v));
	w->a = w->v + cap;
	w->b = w->a + cap;
	w->tmp = w->b + cap;
	return w->v ? 0 : -ENOMEM;
}

/*
 * The p of @q_obs among the largest Q of shuffles of x[0, n). A shuffle
 * that keeps the split's two sides (each side shuffled within itself)
 * has the same Q mathematically; the tolerance counts it as reaching
 * whatever the order of summation rounded it to.
 */
static double perm_p(struct trend_work *w, const double *x, unsigned int n, double q_obs,
		     double alpha, uint64_t seed, unsigned int *perms)
{
	unsigned int r, reached = 0, max = trend_nr_perms(alpha), at;
	double bar = q_obs - 1e-12 * fabs(q_obs);

	memcpy(w->v, x, n * sizeof(*x));
	for (r = 1; r <= max; r++) {
		trend_shuffle(w->v, n, &seed);
		if (energy_scan(w->v, n, w->a, w->b, NULL, &at) < bar)
			continue;
		if (++reached == TREND_STOP) {
			*perms = r;
			return (double)reached / r;
		}
	}
	*perms = max;
	return (reached + 1.0) / (max + 1.0);
}

int trend_test(const double *x, unsigned int n, unsigned int t, double alpha,
	       uint64_t seed, double *p, unsigned int *perms)
{
	struct trend_work w;
	unsigned int at;

	if (n < 2 * TREND_MIN_SEG || t < TREND_MIN_SEG || t > n - TREND_MIN_SEG)
		return -EINVAL;
	if (work_init(&w, n))
		return -ENOMEM;
	energy_scan(x, n, w.a, w.b, w.tmp, &at);
	*p = perm_p(&w, x, n, w.tmp[t], alpha, seed, perms);
	free(w.v);
	return 0;
}

/* ---- the search ---- */

struct trend_search {
	const double *x;		/* the runs, time order */
	unsigned int n;			/* how many */
	const struct trend_cfg *cfg;	/* the settings */
	struct trend_work w;		/* scratch for one window */
	struct trend_cp *cp;		/* [nr] candidates, then change points */
	unsigned int nr, cap;		/* in use, allocated */
	unsigned int last;		/* the latest split found in this window */
};

/* a candidate at @idx, once */
static int cand_add(struct trend_search *s, unsigned int idx)
{
	struct trend_cp *ncp;
	unsigned int i;

	if (idx > s->last)
		s->last = idx;
	for (i = 0; i < s->nr; i++)
		if (s->cp[i].idx == idx)
			return 0;
	if (s->nr == s->cap) {
		ncp = realloc(s->cp, (s->cap ? 2 * s->cap : 16) * sizeof(*ncp));
		if (!ncp)
			return -ENOMEM;
		s->cp = ncp;
		s->cap = s->cap ? 2 * s->cap : 16;
	}
	memset(&s->cp[s->nr], 0, sizeof(*s->cp));
	s->cp[s->nr++].idx = idx;
	return 0;
}

/* E-divisive on runs [lo, hi): split at the best t while it is significant */
static int split_segment(struct trend_search *s, unsigned int lo, unsigned int hi,
			 double alpha)
{
	unsigned int t, perms;
	double q, p;
	int ret;

	if (hi - lo < 2 * TREND_MIN_SEG)
		return 0;
	q = energy_scan(s->x + lo, hi - lo, s->w.a, s->w.b, NULL, &t);
	p = perm_p(&s->w, s->x + lo, hi - lo, q, alpha, trend_seed(s->cfg->seed, lo, hi),
		   &perms);
	if (p > alpha)
		return 0;
	ret = cand_add(s, lo + t);
	if (!ret)
		ret = split_segment(s, lo, lo + t, alpha);
	if (!ret)
		ret = split_segment(s, lo + t, hi, alpha);
	return ret;
}

/*
 * The first pass: windows of cfg->window runs, each starting half a
 * window on or at the latest split the last one found, at the looser
 * level 10 alpha (at most 0.05, never below alpha) so that the second
 * pass, which sees the neighbours, decides.
 */
static int split_pass(struct trend_search *s)
{
	unsigned int start = 0, end, step = s->cfg->window / 2;
	double alpha = fmax(s->cfg->alpha, fmin(10 * s->cfg->alpha, 0.05));
	int ret;

	for (;;) {
		end = s->n - start > s->cfg->window ? start + s->cfg->window : s->n;
		s->last = start;
		ret = split_segment(s, start, end, alpha);
		if (ret || end == s->n)
			return ret;
		start = s->last > start + step ? s->last : start + step;
	}
}

static int cp_order(const void *x, const void *y)
{
	const struct trend_cp *a = x, *b = y;

	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/*
 * Test candidate @i against the runs between its neighbours, at most
 * window / 2 on each side. One closer than TREND_MIN_SEG to a neighbour
 * cannot be tested (p 1): its Q, over the window as if it had no
 * neighbours, says which of such a cluster goes first.
 */
static int merge_test(struct trend_search *s, unsigned int i)
{
	struct trend_cp *c = &s->cp[i];
	unsigned int half = s->cfg->window / 2, at, lo, hi;
	bool alone;

	lo = i ? s->cp[i - 1].idx : 0;
	hi = i + 1 < s->nr ? s->cp[i + 1].idx : s->n;
	alone = c->idx - lo >= TREND_MIN_SEG && hi - c->idx >= TREND_MIN_SEG;
	if (!alone) {
		lo = 0;
		hi = s->n;
	}
	c->tlo = c->idx - lo > half ? c->idx - half : lo;
	c->thi = hi - c->idx > half ? c->idx + half : hi;
	energy_scan(s->x + c->tlo, c->thi - c->tlo, s->w.a, s->w.b, s->w.tmp, &at);
	c->q = s->w.tmp[c->idx - c->tlo];
	c->p = 1;
	c->perms = 0;
	memset(&c->change, 0, sizeof(c->change));
	if (!alone)
		return 0;
	c->p = perm_p(&s->w, s->x + c->tlo, c->thi - c->tlo, c->q, s->cfg->alpha,
		      trend_seed(s->cfg->seed, c->tlo, c->thi), &c->perms);
	return cmp_hodges_lehmann(s->x + c->tlo, c->idx - c->tlo, s->x + c->idx,
				  c->thi - c->idx, 0.95, &c->change);
}

static bool cp_small(const struct trend_cp *c, double min_change)
{
	return !(c->change.est > min_change || c->change.est < -min_change);
}

/* the weakest candidate: the largest p, then (all p <= alpha) the smallest change */
static int merge_weakest(const struct trend_search *s)
{
	unsigned int i, w = 0;

	for (i = 1; i < s->nr; i++)
		if (s->cp[i].p > s->cp[w].p ||
		    (s->cp[i].p == s->cp[w].p && s->cp[i].q < s->cp[w].q))
			w = i;
	if (s->cp[w].p > s->cfg->alpha)
		return (int)w;
	for (i = 0, w = 0; i < s->nr; i++)
		if (fabs(s->cp[i].change.est) < fabs(s->cp[w].change.est))
			w = i;
	return cp_small(&s->cp[w], s->cfg->min_change) ? (int)w : -1;
}

/* the second pass: drop the weakest, re-test its neighbours, until none is weak */
static int merge_pass(struct trend_search *s)
{
	unsigned int i;
	int w, ret = 0;

	if (!s->nr)
		return 0;
	qsort(s->cp, s->nr, sizeof(*s->cp), cp_order);
	for (i = 0; i < s->nr && !ret; i++)
		ret = merge_test(s, i);
	while (!ret && s->nr && (w = merge_weakest(s)) >= 0) {
		memmove(&s->cp[w], &s->cp[w + 1], (s->nr - w - 1) * sizeof(*s->cp));
		s->nr--;
		if (w > 0)
			ret = merge_test(s, w - 1);
		if (!ret && (unsigned int)w < s->nr)
			ret = merge_test(s, w);
	}
	return ret;
}

/* each change point's segments and their medians */
static int segments(struct trend_search *s)
{
	double *tmp = malloc(s->n * sizeof(*tmp)), spread;
	unsigned int i;

	if (!tmp)
		return -ENOMEM;
	for (i = 0; i < s->nr; i++) {
		struct trend_cp *c = &s->cp[i];

		c->lo = i ? s->cp[i - 1].idx : 0;
		c->hi = i + 1 < s->nr ? s->cp[i + 1].idx : s->n;
		memcpy(tmp, s->x + c->lo, (c->idx - c->lo) * sizeof(*tmp));
		c->before = cmp_median_spread(tmp, c->idx - c->lo, &spread);
		memcpy(tmp, s->x + c->idx, (c->hi - c->idx) * sizeof(*tmp));
		c->after = cmp_median_spread(tmp, c->hi - c->idx, &spread);
	}
	free(tmp);
	return 0;
}

static bool cfg_ok(const struct trend_cfg *cfg)
{
	return cfg->alpha >= TREND_MIN_ALPHA && cfg->alpha < 1 && cfg->min_change >= 0 &&
	       cfg->window >= 2 * TREND_MIN_SEG;
}

int trend_detect(const double *x, unsigned int n, const struct trend_cfg *cfg,
		 struct trend_cp **out, unsigned int *nr)
{
	struct trend_search s = { .x = x, .n = n, .cfg = cfg };
	unsigned int i;
	int ret;

	*out = NULL;
	*nr = 0;
	if (!cfg_ok(cfg))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!(x[i] > 0) || isinf(x[i]))
			return -EINVAL;
	if (n < 2 * TREND_MIN_SEG)
		return 0;
	ret = work_init(&s.w, n < cfg->window ? n : cfg->window);
	if (!ret)
		ret = split_pass(&s);
	if (!ret)
		ret = merge_pass(&s);
	if (!ret)
		ret = segments(&s);
	free(s.w.v);
	if (ret || !s.nr) {
		free(s.cp);
		return ret;
	}
	*out = s.cp;
	*nr = s.nr;
	return 0;
}
