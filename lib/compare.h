/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - the CI gate's statistics: runs, not samples.
 *
 * The unit of replication is a run (one `bench run` process, or one of
 * its --runs children): placement, co-tenants and frequency move every
 * sample of a run together, so the samples of one run are not
 * independent draws and a test on them measures the wrong noise (on the
 * development VM a per-sample U test rejected 83-92% of A/A pairs). So:
 *
 *  1. per run, one figure computed from that run's histogram
 *     (cmp_hist_stat: by default the 10% trimmed mean);
 *  2. an exact one-sided Mann-Whitney U test across the runs of the two
 *     sides (cmp_mann_whitney: the exact permutation distribution of the
 *     rank sum, ties given mid-ranks, for up to CMP_EXACT_MAX runs in
 *     all; a normal approximation beyond);
 *  3. the change: the Hodges-Lehmann estimate, the median of every
 *     after/before ratio of per-run figures, with its distribution-free
 *     confidence interval (cmp_hodges_lehmann);
 *  4. the verdict (cmp_runs): a regression when the one-sided p is at
 *     most alpha and the estimate is above the threshold. The interval is
 *     the two-sided 95% one whatever alpha is, so at alpha 0.05 (a 90%
 *     two-sided test) a regression's interval may just reach below 0.
 *
 * Pure functions of their arguments: any thread, no shared state.
 *
 *	figure		5+5 runs	6+6 runs
 *	smallest p	1/252 = 0.004	1/924 = 0.001
 *	95% interval	3rd..23rd of 25	6th..31st of 36 ratios
 */
#ifndef KSB_COMPARE_H
#define KSB_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

struct kstats_hist;

/* exact U distribution up to this many runs in all (both sides) */
#define CMP_EXACT_MAX	120
/* fewer runs than this on a side: no verdict */
#define CMP_MIN_RUNS	5
/* the change that counts, percent: compare's --threshold, trend's --min-change */
#define CMP_THRESHOLD_PCT	5

enum cmp_stat {
	CMP_STAT_TM10,			/* 10% trimmed mean (default) */
	CMP_STAT_MEDIAN,		/* p50, interpolated in its bucket */
	CMP_STAT_MEAN,			/* mean of every sample */
	CMP_STAT_P90,			/* p90, interpolated in its bucket */
	CMP_STAT_P99,			/* p99, interpolated in its bucket */
	CMP_NR_STATS,
};

/* "tm10", "median", "mean", "p90", "p99", NULL */
extern const char *const cmp_stat_names[];

enum cmp_verdict {
	CMP_SAME,			/* "~": not significant */
	CMP_BELOW,			/* significant, below threshold */
	CMP_REGRESSION,			/* significant, slower by > threshold */
	CMP_IMPROVEMENT,		/* significant, faster by > threshold */
};

/* "~", "significant, below threshold", "regression", "improvement" */
extern const char *const cmp_verdict_names[];

/*
 * cmp_trimmed_mean - mean of the samples of @h between the @trim and
 * 1 - @trim quantiles (@trim in [0, 0.5)): each bucket enters with its
 * average, and the two buckets the cuts fall in enter with the share of
 * their count inside the cuts. Its error against the trimmed mean of
 * the samples themselves is at most the width of those two buckets
 * times their share, over the kept count. 0 when @h is empty.
 */
double cmp_trimmed_mean(const struct kstats_hist *h, double trim);

/*
 * cmp_quantile - the @q quantile (0..1) of @h: the bucket holding rank
 * q * total, interpolated linearly inside [lo, hi) by rank, so that
 * runs differ continuously rather than by whole buckets. 0 when empty.
 */
double cmp_quantile(const struct kstats_hist *h, double q);

/* cmp_hist_stat - @stat of one run's histogram @h; 0 when empty. */
double cmp_hist_stat(const struct kstats_hist *h, enum cmp_stat stat);

struct cmp_utest {
	double u;			/* U of after: pairs with a > b, ties 1/2 */
	double p_greater;		/* P(U >= u): after tends to be larger */
	double p_less;			/* P(U <= u): after tends to be smaller */
	bool exact;			/* exact distribution, else normal */
};

/*
 * cmp_mann_whitney - one-sided U tests of @a (after, @na values) against
 * @b (before, @nb values). Exact when nb + na <= CMP_EXACT_MAX (the
 * permutation distribution of the mid-rank sum, so ties are handled
 * exactly too), else the normal approximation with tie-corrected
 * variance and continuity correction.
 * Returns 0, -EINVAL when a side is empty, -ENOMEM.
 */
int cmp_mann_whitney(const double *b, unsigned int nb, const double *a,
		     unsigned int na, struct cmp_utest *t);

struct cmp_change {
	double est;			/* after/before - 1, Hodges-Lehmann */
	double lo, hi;			/* its confidence interval, same unit */
	double conf;			/* the interval's exact coverage */
};

/*
 * cmp_hodges_lehmann - the median of the nb * na ratios a[j] / b[i],
 * minus 1, and the interval between the k-th smallest and k-th largest
 * ratio, k the largest rank whose exact null probability P(U < k) is at
 * most (1 - @conf) / 2 (normal approximation above CMP_EXACT_MAX runs).
 * With too few runs for @conf the interval is infinite; @conf 0 asks
 * for the estimate alone (an infinite interval, conf 0), without the
 * exact rank distribution, which costs O(n^2 na) for n runs in all.
 * Returns 0, -EINVAL (an empty side, a value <= 0), -ENOMEM.
 */
int cmp_hodges_lehmann(const double *b, unsigned int nb, const double *a,
		       unsigned int na, double conf, struct cmp_change *c);

/*
 * cmp_median_spread - the median of @x and, as a fraction of it, the
 * largest distance from it to the ends of its distribution-free 95%
 * interval (order statistics k and n + 1 - k; the whole range when @n
 * is too small for 95%). @x is sorted in place. 0 when @n is 0.
 */
double cmp_median_spread(double *x, unsigned int n, double *spread);

/*
 * cmp_ref_share - how much of the run-to-run movement of the figures
 * @x (@nb BEFORE runs, then @na AFTER) follows their runs' reference
 * figures @r (the machine's speed in that run, lib/ref.h): the slope of
 * log x on log r, fitted within each side (so a change between the
 * sides does not enter it), clamped to [0, 1]. 1: the figure moves in
 * proportion with the machine's speed (a memory-bound path); 0: not at
 * all, or fewer than 2 runs a side, or a reference that never moved.
 * Runs with a figure or a reference <= 0 are left out of the fit.
 */
double cmp_ref_share(const double *x, const double *r, unsigned int nb, unsigned int na);

/*
 * cmp_ref_adjust - each of the @n figures @x, in place, to what it would
 * have been at the reference figure @at: x * (at / r)^share (a run with
 * r <= 0 kept as it is; 0 stays 0). Any thread, on its own @x.
 */
void cmp_ref_adjust(double *x, const double *r, unsigned int n, double at, double share);

/* --reference of compare and trend: scale each run's figure by its reference loop */
enum cmp_ref {
	CMP_REF_AUTO,			/* when every run has one */
	CMP_REF_ON,			/* always: a run without one is an error */
	CMP_REF_OFF,			/* never: the raw figures */
};

/* "auto", "on", "off", NULL */
extern const char *const cmp_ref_names[];

/*
 * cmp_ref_share_groups - cmp_ref_share() over @groups groups of runs,
 * @len[g] runs each, one after the other in @x and @r: the slope fitted
 * within each group (a change between groups does not enter it), from
 * the groups with 2 or more runs to fit on; 0 when none has them.
 */
double cmp_ref_share_groups(const double *x, const double *r, const unsigned int *len,
			    unsigned int groups);

struct cmp_result {
	double before, after;		/* medians of the per-run figures */
	double before_spread;		/* +- fraction, cmp_median_spread */
	double after_spread;		/* same, after */
	struct cmp_utest u;		/* the test */
	double p;			/* one-sided p in the estimate's direction */
	struct cmp_change change;	/* Hodges-Lehmann, 95% interval */
	enum cmp_verdict verdict;	/* see cmp_verdict_names */
};

/*
 * cmp_runs - the whole gate for one series: per-run figures @b (before)
 * and @a (after), @alpha for the one-sided test, @threshold a fraction
 * (0.05 is 5%). @b and @a are sorted in place.
 * Returns 0, or -EINVAL (a side empty, a figure <= 0), -ENOMEM.
 */
int cmp_runs(double *b, unsigned int nb, double *a, unsigned int na,
	     double alpha, double threshold, struct cmp_result *r);

#endif /* KSB_COMPARE_H */
