/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trend.h - change points in a history of per-run figures: when did a
 * series move, and by how much (bench trend).
 *
 *	struct trend_cfg cfg = TREND_CFG_INIT;	alpha 0.001, window 50, ...
 *	struct trend_cp *cp;
 *	unsigned int i, n;
 *
 *	if (!trend_detect(x, nr_runs, &cfg, &cp, &n))
 *		for (i = 0; i < n; i++)
 *			printf("run %u: %+.1f%% p=%.4f\n", cp[i].idx,
 *			       cp[i].change.est * 100, cp[i].p);
 *	free(cp);
 *
 * The statistic is E-divisive means (Matteson and James, "A Nonparametric
 * Approach for Multiple Change Point Analysis of Multivariate Data",
 * JASA 2014), as MongoDB (Daly et al., ICPE 2020) and Apache Otava
 * (Hunter, arXiv 2301.03034) use it: for a split of runs z[lo, hi) at t
 * into X = z[lo, t) (m runs) and Y = z[t, hi) (k runs),
 *
 *	E = 2/(m k) sum |x - y| - 1/C(m,2) sum |x - x'| - 1/C(k,2) sum |y - y'|
 *	Q(t) = m k / (m + k) * E
 *
 * (the energy distance with exponent 1, within-sums over pairs), and the
 * split is the t that maximises Q, both sides at least TREND_MIN_SEG runs.
 * Q responds to any change of distribution, not only of the mean, and
 * needs no model of the noise.
 *
 * The test: a permutation test, not Hunter's t-test. A candidate is the
 * maximum of Q over every split of its window, so its t-test p is that
 * of a split chosen for being the most different one, not of a split
 * fixed in advance: on stationary noise that p is far too small (the
 * t-test over the best of 47 splits of 50 runs is the maximum of 47
 * correlated t statistics). The permutation test compares the observed
 * Q with the maximum of Q over every split of each shuffled window, the
 * same selection, so its p is honest at any alpha; and it assumes no
 * normality, which per-run figures (skewed, with the odd preempted run)
 * do not have. Its cost, a full pass of Q per permutation, is bounded by
 * the window, and the Besag-Clifford rule (stop after TREND_STOP
 * permutations at or above the observed Q, p = TREND_STOP / drawn; J. R.
 * Stat. Soc. B 53, 1991) ends a test of noise after a few dozen. The
 * generator is seeded from cfg.seed and the runs a test sees, so that
 * the output is a function of the data and the seed alone.
 *
 * The search, Otava's: a first pass runs E-divisive in windows of
 * cfg.window runs, each half a window past the last (or starting at the
 * last change point found), splitting each window recursively while the
 * best split is significant at 10 alpha (at most 0.05); there, as in
 * Matteson and James and unlike MongoDB and Otava, the split's far end
 * is searched too (Y = z[t, k), every k), so that a step out and back
 * inside one window is found (trend_span()). A second pass tests every
 * candidate again against the runs between it and its neighbours (at
 * most cfg.window / 2 on each side, nearest first; Y to the next
 * neighbour) and removes the weakest, bottom-up, until each has p <=
 * alpha and a change beyond cfg.min_change, re-testing the neighbours
 * of each one removed. A change point thus needs enough runs on each
 * side for alpha: 6 + 6 runs cannot give p below 2 / C(12, 6) = 0.002.
 *
 * The change is compare's: the Hodges-Lehmann estimate of after/before
 * - 1 over the runs the test saw, with its 95% interval (lib/stats/compare.h).
 * Cost: window^2 / 2 absolute differences per permutation of the second
 * pass (1.9 us at 50 runs on xeon-vm), twice that in the
 * first, TREND_STOP / p permutations for a test of p and 2 / alpha at
 * most, so a few ms per change point; memory (window + 1)^2 doubles.
 *
 * Pure functions of their arguments: any thread, no shared state.
 */
#ifndef KSB_TREND_H
#define KSB_TREND_H

#include <stdint.h>

#include "lib/stats/compare.h"

/* fewest runs on either side of a change point */
#define TREND_MIN_SEG	3
/* runs one test sees at most, by default: Otava's --window */
#define TREND_WINDOW	50
/* permutations at or above the observed Q that end a test early */
#define TREND_STOP	10
/* the smallest alpha: it costs 2 / alpha permutations per change point */
#define TREND_MIN_ALPHA	1e-6

struct trend_cfg {
	double alpha;			/* the test's level, in [TREND_MIN_ALPHA, 1) */
	double min_change;		/* fraction: a smaller |change| is merged away */
	unsigned int window;		/* runs a test sees, >= 2 * TREND_MIN_SEG */
	uint64_t seed;			/* the permutations' generator */
};

#define TREND_CFG_INIT \
	{ .alpha = 0.001, .min_change = 0.05, .window = TREND_WINDOW, .seed = 1 }

struct trend_cp {
	unsigned int idx;		/* first run after the change, index in x */
	unsigned int lo, hi;		/* its segments: [lo, idx) and [idx, hi) */
	unsigned int tlo, thi;		/* the runs its test saw: [tlo, thi) */
	double q;			/* Q at idx over [tlo, thi) */
	double p;			/* its permutation p */
	unsigned int perms;		/* permutations drawn for it */
	double before, after;		/* medians of the two segments */
	struct cmp_change change;	/* HL over [tlo, thi), 95% interval */
};

/**
 * trend_energy - Q(t) of every split of @x (@n runs) into q[t], t in
 * [TREND_MIN_SEG, n - TREND_MIN_SEG]; the other q[t] (q holds n + 1)
 * are 0. Returns the t of the largest Q (the first of equals), or 0
 * when @n is below 2 * TREND_MIN_SEG. O(n^2).
 */
unsigned int trend_energy(const double *x, unsigned int n, double *q);

/**
 * trend_span - the largest Q over every split t and every end k of @x
 * (@n runs), X = x[0, t) and Y = x[t, k) each at least TREND_MIN_SEG
 * runs, as Matteson and James search it: what the first pass tests, so
 * that a step out and back inside a window is found. Its t and k in *@t
 * and *@k (both 0 when @n is below 2 * TREND_MIN_SEG, or out of memory).
 * O(n^2) time, (n + 1)^2 doubles.
 */
double trend_span(const double *x, unsigned int n, unsigned int *t, unsigned int *k);

/**
 * trend_test - the permutation p of Q at split @t of @x (@n runs): the
 * share of shuffles of @x whose largest Q over every split reaches it,
 * from at most trend_nr_perms(@alpha) shuffles by a generator seeded
 * with @seed, stopping after TREND_STOP that reach it (p = TREND_STOP /
 * drawn; else (reached + 1) / (drawn + 1)). *@perms: shuffles drawn.
 * Returns 0, -EINVAL (@t not a split of @n), -ENOMEM.
 */
int trend_test(const double *x, unsigned int n, unsigned int t, double alpha,
	       uint64_t seed, double *p, unsigned int *perms);

/**
 * trend_nr_perms - the most permutations a test at @alpha draws: 2/alpha - 1, 199 at least
 */
unsigned int trend_nr_perms(double alpha);

/**
 * trend_min_window - the fewest runs a window must hold for its tests to
 * reach @alpha: the best p of 2h runs is 2 / C(2h, h) (a step between
 * its halves that no shuffle but the mirror matches), and it must be
 * alpha / 10 or less for 2 / alpha shuffles to see it 98% of the time
 * (P(at most one of them matches) = 1.2 exp(-0.2)). 18 at alpha 0.001.
 */
unsigned int trend_min_window(double alpha);

/**
 * trend_seed - the generator's seed for a test of runs [@lo, @hi) under
 * @seed: what trend_detect() passes to trend_test().
 */
uint64_t trend_seed(uint64_t seed, unsigned int lo, unsigned int hi);

/**
 * trend_detect - the change points of @x (@n runs in time order, each
 * > 0), in order, into *@out (malloc'ed, NULL when none; free() it),
 * their number in *@nr. Returns 0, -EINVAL (a figure <= 0 or not a
 * number, a @cfg out of range), -ENOMEM.
 */
int trend_detect(const double *x, unsigned int n, const struct trend_cfg *cfg,
		 struct trend_cp **out, unsigned int *nr);

#endif /* KSB_TREND_H */
