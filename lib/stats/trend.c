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

#include "lib/stats/trend.h"

/* ---- the energy statistic ---- */

/* the factors of Q(t) for n runs, c[4 t ..]: they depend on n and t alone */
#define ENERGY_C(n)	(4 * ((size_t)(n) + 1))

/*
 * What a test computes once: r[i] = sum of |v_i - v_j| over every j, a
 * property of the value, the same wherever a shuffle puts it; and c, the
 * factors of each split's Q, so that a shuffle multiplies instead of
 * dividing (four divisions per split were half its cost).
 */
static void energy_prepare(const double *v, unsigned int n, double *r, double *c)
{
	unsigned int i, j, t;

	memset(r, 0, n * sizeof(*r));
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			r[i] += fabs(v[i] - v[j]);
	for (t = TREND_MIN_SEG; t + TREND_MIN_SEG <= n; t++) {
		double m = t, k = n - t;

		c[4 * t] = 2 / (m * k);
		c[4 * t + 1] = 2 / (m * (m - 1));
		c[4 * t + 2] = 2 / (k * (k - 1));
		c[4 * t + 3] = m * k / (m + k);
	}
}

/*
 * Q(t) for every split of v[0, n) in O(n^2), r and c from
 * energy_prepare(): a[t] is the sum of |v_i - v_t| over i < t, so the
 * left side's within-sum is a prefix sum of a, the right side's the
 * total less the prefix sum of r - a (each left run's distances to the
 * runs after it), and the cross sum what is left. The inner loop is one
 * subtraction, fabs and add per pair, with no chain between pairs.
 * Returns the largest Q and its t in *@at (the first of equals); q[t]
 * filled when @q.
 */
static double energy_scan(const double *restrict v, const double *restrict r,
			  const double *restrict c, unsigned int n, double *restrict a,
			  double *q, unsigned int *at)
{
	double total = 0, left = 0, rl = 0, right, cross, qt, best = -INFINITY;
	unsigned int i, j, t;

	memset(a, 0, n * sizeof(*a));
	for (i = 0; i < n; i++) {
		double vi = v[i];

		for (j = i + 1; j < n; j++)
			a[j] += fabs(vi - v[j]);
	}
	for (i = 0; i < n; i++)
		total += a[i];
	*at = 0;
	for (t = 1; t + TREND_MIN_SEG <= n; t++) {
		left += a[t - 1];
		rl += r[t - 1];
		if (t < TREND_MIN_SEG)
			continue;
		right = total - (rl - left);
		cross = total - left - right;
		qt = c[4 * t + 3] * (c[4 * t] * cross - c[4 * t + 1] * left - c[4 * t + 2] * right);
		if (q)
			q[t] = qt;
		if (qt > best) {
			best = qt;
			*at = t;
		}
	}
	return best;
}

/*
 * The best split over both of its ends, as Matteson and James search it:
 * X = v[0, t), Y = v[t, k) for every t and every k <= n, each at least
 * TREND_MIN_SEG runs. With P[i][j] (row-major, n + 1 a row) the sum of
 * |v_a - v_b| over a < i, b < j, each of the statistic's sums is a
 * corner difference of P: cross P[t][k] - P[t][t], twice X's within-sum
 * P[t][t], twice Y's P[k][k] - 2 P[t][k] + P[t][t]; so O(n^2) per call
 * like one end fixed, about twice its work. inv[i] = 1 / i.
 * Why: a step out and back inside one window (a regression fixed two
 * nights later) has no single split of the window that separates it;
 * with k fixed at the window's end, 6-run excursions of +20% in 2% noise
 * were found 21 times in 50 (make perf-trend has the figure with both).
 * Returns the largest Q, its t and k in *@at and *@end.
 */
static double energy_span(const double *v, unsigned int n, double *P, const double *inv,
			  unsigned int *at, unsigned int *end)
{
	unsigned int i, j, t, k, w = n + 1;
	double best = -INFINITY;

	memset(P, 0, w * sizeof(*P));
	for (i = 0; i < n; i++) {
		double vi = v[i], row = 0;

		P[(i + 1) * w] = 0;
		for (j = 0; j < n; j++) {
			row += fabs(vi - v[j]);
			P[(i + 1) * w + j + 1] = P[i * w + j + 1] + row;
		}
	}
	*at = *end = 0;
	for (t = TREND_MIN_SEG; t + TREND_MIN_SEG <= n; t++) {
		double ptt = P[t * w + t], m = t;

		for (k = t + TREND_MIN_SEG; k <= n; k++) {
			double ptk = P[t * w + k], pkk = P[k * w + k], q;

			q = inv[k] * (2 * (ptk - ptt) - ptt * (k - t) * inv[t - 1] -
				      (pkk - 2 * ptk + ptt) * m * inv[k - t - 1]);
			if (q > best) {
				best = q;
				*at = t;
				*end = k;
			}
		}
	}
	return best;
}

unsigned int trend_energy(const double *x, unsigned int n, double *q)
{
	double *ra;
	unsigned int at = 0;

	memset(q, 0, (n + 1) * sizeof(*q));
	if (n < 2 * TREND_MIN_SEG)
		return 0;
	ra = malloc((2 * (size_t)n + ENERGY_C(n)) * sizeof(*ra));
	if (!ra)
		return 0;
	energy_prepare(x, n, ra, ra + 2 * n);
	energy_scan(x, ra, ra + 2 * n, n, ra + n, q, &at);
	free(ra);
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

/*
 * Fisher-Yates of v and its row sums r together. The index is the high
 * word of a 64 x 64-bit product (Lemire 2019), not a modulo: a 64-bit
 * division per swap was half the cost of a shuffle of 50 runs. Its bias
 * is below n / 2^64.
 */
static void trend_shuffle(double *v, double *r, unsigned int n, uint64_t *s)
{
	unsigned int i, j;
	double tmp;

	for (i = n - 1; i > 0; i--) {
		j = (unsigned int)(((unsigned __int128)trend_rand(s) * (i + 1)) >> 64);
		tmp = v[i];
		v[i] = v[j];
		v[j] = tmp;
		tmp = r[i];
		r[i] = r[j];
		r[j] = tmp;
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
	double *r;			/* [cap] their row sums, shuffled with them */
	double *a;			/* [cap] energy_scan()'s prefix distances */
	double *q;			/* [cap + 1] Q of each split */
	double *c;			/* [ENERGY_C(cap)] the factors of Q */
	double *P;			/* [(cap + 1)^2] energy_span()'s prefix sums */
	double *inv;			/* [cap + 1] 1 / i */
	unsigned int cap;		/* runs each holds */
};

static int work_init(struct trend_work *w, unsigned int cap)
{
	size_t c = cap, n = 4 * c + 1 + ENERGY_C(c) + (c + 1) * (c + 1) + c + 1;
	unsigned int i;

	w->cap = cap;
	w->v = malloc(n * sizeof(*w->v));
	if (!w->v)
		return -ENOMEM;
	w->r = w->v + c;
	w->a = w->r + c;
	w->q = w->a + c;
	w->c = w->q + c + 1;
	w->P = w->c + ENERGY_C(c);
	w->inv = w->P + (c + 1) * (c + 1);
	w->inv[0] = 0;
	for (i = 1; i <= cap; i++)
		w->inv[i] = 1.0 / i;
	return 0;
}

double trend_span(const double *x, unsigned int n, unsigned int *t, unsigned int *k)
{
	struct trend_work w;
	double q;

	*t = *k = 0;
	if (n < 2 * TREND_MIN_SEG || work_init(&w, n))
		return 0;
	q = energy_span(x, n, w.P, w.inv, t, k);
	free(w.v);
	return q;
}

/* what a permutation test maximises over each shuffle */
enum perm_stat {
	PERM_END,			/* Q of every split, the window's end fixed */
	PERM_SPAN,			/* Q of every split and every end: energy_span() */
};

/* the largest Q of w->v[0, n), and its split in *@at */
static double perm_max(struct trend_work *w, unsigned int n, enum perm_stat stat, double *q,
		       unsigned int *at)
{
	unsigned int end;

	if (stat == PERM_SPAN)
		return energy_span(w->v, n, w->P, w->inv, at, &end);
	return energy_scan(w->v, w->r, w->c, n, w->a, q, at);
}

/*
 * The observed Q of split @t of x[0, n) (the best one when @t is 0; @t
 * given only with PERM_END) in *@q_obs, its t in *@t, and its
 * permutation p: the share of shuffles of x whose largest Q reaches it.
 * A shuffle that keeps the split's two sides (each side shuffled within
 * itself) has the same Q mathematically; the tolerance counts it as
 * reaching whatever the order of summation rounded it to.
 */
static double perm_p(struct trend_work *w, const double *x, unsigned int n, enum perm_stat stat,
		     unsigned int *t, double *q_obs, double alpha, uint64_t seed,
		     unsigned int *perms)
{
	unsigned int r, reached = 0, max = trend_nr_perms(alpha), at;
	double bar;

	memcpy(w->v, x, n * sizeof(*x));
	energy_prepare(w->v, n, w->r, w->c);
	*q_obs = perm_max(w, n, stat, w->q, &at);
	if (*t)
		*q_obs = w->q[*t];
	else
		*t = at;
	bar = *q_obs - 1e-12 * fabs(*q_obs);
	for (r = 1; r <= max; r++) {
		trend_shuffle(w->v, w->r, n, &seed);
		if (perm_max(w, n, stat, NULL, &at) < bar)
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
	double q;

	if (n < 2 * TREND_MIN_SEG || t < TREND_MIN_SEG || t > n - TREND_MIN_SEG)
		return -EINVAL;
	if (work_init(&w, n))
		return -ENOMEM;
	*p = perm_p(&w, x, n, PERM_END, &t, &q, alpha, seed, perms);
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

/*
 * E-divisive on runs [lo, hi): split at the t of the best (t, end) while
 * it is significant; the end, if a change, is the next split's t.
 */
static int split_segment(struct trend_search *s, unsigned int lo, unsigned int hi,
			 double alpha)
{
	unsigned int t = 0, perms;
	double q, p;
	int ret;

	if (hi - lo < 2 * TREND_MIN_SEG)
		return 0;
	p = perm_p(&s->w, s->x + lo, hi - lo, PERM_SPAN, &t, &q, alpha,
		   trend_seed(s->cfg->seed, lo, hi), &perms);
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
	unsigned int half = s->cfg->window / 2, at, lo, hi, tlo, thi;
	bool alone;

	lo = i ? s->cp[i - 1].idx : 0;
	hi = i + 1 < s->nr ? s->cp[i + 1].idx : s->n;
	alone = c->idx - lo >= TREND_MIN_SEG && hi - c->idx >= TREND_MIN_SEG;
	if (!alone) {
		lo = 0;
		hi = s->n;
	}
	tlo = c->idx - lo > half ? c->idx - half : lo;
	thi = hi - c->idx > half ? c->idx + half : hi;
	/* the runs of its last test (a neighbour beyond half a window went): the same result */
	if (alone && c->perms && c->tlo == tlo && c->thi == thi)
		return 0;
	c->tlo = tlo;
	c->thi = thi;
	c->p = 1;
	c->perms = 0;
	memset(&c->change, 0, sizeof(c->change));
	if (!alone) {
		/* its Q alone, to order a cluster */
		memcpy(s->w.v, s->x + tlo, (thi - tlo) * sizeof(*s->w.v));
		energy_prepare(s->w.v, thi - tlo, s->w.r, s->w.c);
		energy_scan(s->w.v, s->w.r, s->w.c, thi - tlo, s->w.a, s->w.q, &at);
		c->q = s->w.q[c->idx - tlo];
		return 0;
	}
	at = c->idx - tlo;
	c->p = perm_p(&s->w, s->x + tlo, thi - tlo, PERM_END, &at, &c->q, s->cfg->alpha,
		      trend_seed(s->cfg->seed, tlo, thi), &c->perms);
	/* the estimate alone: the interval (O(n^3)) is for the change points that stay */
	return cmp_hodges_lehmann(s->x + tlo, c->idx - tlo, s->x + c->idx, thi - c->idx, 0,
				  &c->change);
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

/* each change point's segments, their medians, and its change's interval */
static int segments(struct trend_search *s)
{
	double *tmp = malloc(s->n * sizeof(*tmp)), spread;
	unsigned int i;
	int ret = 0;

	if (!tmp)
		return -ENOMEM;
	for (i = 0; i < s->nr && !ret; i++) {
		struct trend_cp *c = &s->cp[i];

		c->lo = i ? s->cp[i - 1].idx : 0;
		c->hi = i + 1 < s->nr ? s->cp[i + 1].idx : s->n;
		memcpy(tmp, s->x + c->lo, (c->idx - c->lo) * sizeof(*tmp));
		c->before = cmp_median_spread(tmp, c->idx - c->lo, &spread);
		memcpy(tmp, s->x + c->idx, (c->hi - c->idx) * sizeof(*tmp));
		c->after = cmp_median_spread(tmp, c->hi - c->idx, &spread);
		ret = cmp_hodges_lehmann(s->x + c->tlo, c->idx - c->tlo, s->x + c->idx,
					 c->thi - c->idx, 0.95, &c->change);
	}
	free(tmp);
	return ret;
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
