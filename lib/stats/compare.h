/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - the CI gate's statistics: runs, not samples.
 *
 * The unit of replication is a run (one `bench run` process, or one of
 * its --runs children): placement, co-tenants and frequency move every
 * sample of a run together, so the samples of one run are not
 * independent draws and a test on them measures the wrong noise (on
 * xeon-vm a per-sample U test rejected 83-92% of A/A pairs). So:
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
 * Below them, the same gate over results sets (lib/results/results.h), one per
 * file, as bench compare runs it: which runs a side holds, each run's
 * figure and the reference figure it pairs with, the scaling by the
 * reference, the test per series (COMPARING RESULTS SETS). bench trend
 * takes the per-run figure from there, so that it is compare's exactly.
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
struct results;
struct results_series;

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
	/*
	 * The low figures. Contention on a shared runner only ever adds
	 * time to a sample, so the low end of a run's distribution is what
	 * a neighbour moves least (Chen and Revels 2016): the study in
	 * docs/measurements.md (busy runner) picks each command's default.
	 */
	CMP_STAT_P25,			/* p25, interpolated in its bucket */
	CMP_STAT_P10,			/* p10, interpolated in its bucket */
	CMP_STAT_MIN,			/* the smallest sample, exact */
	CMP_NR_STATS,
};

/* "tm10", "median", "mean", "p90", "p99", "p25", "p10", "min", NULL */
extern const char *const cmp_stat_names[];

enum cmp_verdict {
	CMP_SAME,			/* "~": not significant */
	CMP_BELOW,			/* significant, below threshold */
	CMP_REGRESSION,			/* significant, slower by > threshold */
	CMP_IMPROVEMENT,		/* significant, faster by > threshold */
	CMP_NOT_REPEATABLE,		/* exact figures: a side spread past its bound */
};

/* "~", "significant, below threshold", "regression", "improvement", "not repeatable" */
extern const char *const cmp_verdict_names[];

/**
 * cmp_trimmed_mean - mean of the samples of @h between the @trim and
 * 1 - @trim quantiles (@trim in [0, 0.5)): each bucket enters with its
 * average, and the two buckets the cuts fall in enter with the share of
 * their count inside the cuts. Its error against the trimmed mean of
 * the samples themselves is at most the width of those two buckets
 * times their share, over the kept count. 0 when @h is empty.
 */
double cmp_trimmed_mean(const struct kstats_hist *h, double trim);

/**
 * cmp_quantile - the @q quantile (0..1) of @h: the bucket holding rank
 * q * total, interpolated linearly inside [lo, hi) by rank, so that
 * runs differ continuously rather than by whole buckets. 0 when empty.
 */
double cmp_quantile(const struct kstats_hist *h, double q);

/**
 * cmp_hist_stat - @stat of one run's histogram @h; 0 when empty. min is
 * the recorded smallest sample, or, for a histogram read from a file
 * that did not keep it (CSV before format 3), the lower bound of its
 * first non-empty bucket.
 */
double cmp_hist_stat(const struct kstats_hist *h, enum cmp_stat stat);

struct cmp_utest {
	double u;			/* U of after: pairs with a > b, ties 1/2 */
	double p_greater;		/* P(U >= u): after tends to be larger */
	double p_less;			/* P(U <= u): after tends to be smaller */
	bool exact;			/* exact distribution, else normal */
};

/**
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

/**
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

/**
 * cmp_median_spread - the median of @x and, as a fraction of it, the
 * largest distance from it to the ends of its distribution-free 95%
 * interval (order statistics k and n + 1 - k; the whole range when @n
 * is too small for 95%). @x is sorted in place. 0 when @n is 0.
 */
double cmp_median_spread(double *x, unsigned int n, double *spread);

/**
 * cmp_ref_share - how much of the run-to-run movement of the figures
 * @x (@nb BEFORE runs, then @na AFTER) follows their runs' reference
 * figures @r (the machine's speed in that run, lib/measure/ref.h): the slope of
 * log x on log r, fitted within each side (so a change between the
 * sides does not enter it), clamped to [0, 1]. 1: the figure moves in
 * proportion with the machine's speed (a memory-bound path); 0: not at
 * all, or fewer than 2 runs a side, or a reference that never moved.
 * Runs with a figure or a reference <= 0 are left out of the fit.
 */
double cmp_ref_share(const double *x, const double *r, unsigned int nb, unsigned int na);

/**
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

/**
 * cmp_ref_share_groups - cmp_ref_share() over @groups groups of runs,
 * @len[g] runs each, one after the other in @x and @r: the slope fitted
 * within each group (a change between groups does not enter it), from
 * the groups with 2 or more runs to fit on; 0 when none has them.
 */
double cmp_ref_share_groups(const double *x, const double *r, const unsigned int *len,
			    unsigned int groups);

struct cmp_result {
	double before, after;		/* medians of the per-run figures */
	double before_spread;		/* +- fraction, cmp_median_spread; exact:
					 * max/min - 1 (counted_spread()) */
	double after_spread;		/* same, after */
	struct cmp_utest u;		/* the test */
	double p;			/* one-sided p in the estimate's direction */
	struct cmp_change change;	/* Hodges-Lehmann, 95% interval */
	enum cmp_verdict verdict;	/* see cmp_verdict_names */
};

/**
 * cmp_runs - the whole gate for one series: per-run figures @b (before)
 * and @a (after), @alpha for the one-sided test, @threshold a fraction
 * (0.05 is 5%). @b and @a are sorted in place.
 * Returns 0, or -EINVAL (a side empty, a figure <= 0), -ENOMEM.
 */
int cmp_runs(double *b, unsigned int nb, double *a, unsigned int na,
	     double alpha, double threshold, struct cmp_result *r);

/**
 * cmp_runs_exact - the gate for exact figures (lib/results/counted.h):
 * each side's spread (max/min - 1) at most @spread (a fraction), else
 * CMP_NOT_REPEATABLE; the sides' ranges apart, else CMP_SAME; the change
 * (Hodges-Lehmann, its interval every after/before ratio, conf 1) beyond
 * @threshold, a regression or an improvement, else CMP_BELOW. The U test
 * is still computed (r->u, r->p), told, and judges nothing. @b and @a
 * are sorted in place. Returns as cmp_runs().
 */
int cmp_runs_exact(double *b, unsigned int nb, double *a, unsigned int na, double spread,
		   double threshold, struct cmp_result *r);


/* ---- comparing results sets: what bench compare tests ---- */

/*
 * COMPARING RESULTS SETS
 *
 * A side (BEFORE or AFTER) is a list of results sets, one per file. A
 * series is a (workload, variant) of them, merged over the CPUs (the
 * per-CPU series and the reference loop's are no series of their own);
 * its runs are results_run_hist()'s, file after file:
 *
 *  - a run's figure: cmp_hist_stat(its histogram, --stat);
 *  - a run's reference figure: the 10% trimmed mean of the reference
 *    loop's run of the same position in the same file and workload
 *    (variant RESULTS_REFERENCE). bench run times a run's reference
 *    before its first pair, so every run of a variant has one, and they
 *    pair by position; a file whose reference runs are not as many as
 *    the series' runs pairs from the position where they part
 *    (cmp_ref_missing());
 *  - --reference (enum cmp_ref): auto scales when every run of every
 *    series on both sides pairs with a reference figure > 0, on insists
 *    on it, off never scales (cmp_can_scale());
 *  - scaled: the share of the reference's movement the series follows,
 *    fitted within each side (cmp_ref_share()), and every figure brought
 *    to the median reference of both sides (cmp_ref_adjust());
 *  - then cmp_runs() on the figures of the two sides, or cmp_runs_exact()
 *    for counted ones (g->exact, lib/results/counted.h).
 *
 *	const struct results *b[] = { before1, before2 }, *a[] = { after1 };
 *	struct cmp_side side[2] = { { b, 2 }, { a, 1 } };
 *	struct cmp_gate g = { .stat = CMP_STAT_TM10, .alpha = 0.05, .threshold = 0.05 };
 *	struct cmp_series c;
 *	struct cmp_where w;
 *
 *	g.scaled = cmp_can_scale(side, list, n, &w);	(list: cmp_list_series())
 *	ret = cmp_series_compute(side, "irqdesc-alloc", "old", frac_bits, &g, &c, &w);
 *	... c.r.verdict, c.x[0..c.nb + c.na - 1] ...
 *	cmp_series_free(&c);
 *
 * One file alone, as bench trend reads its history (each night a file):
 *
 *	n = results_nr_runs(set, wl, var);
 *	cmp_run_figures(set, wl, var, CMP_STAT_TM10, x, ref);	x[n], ref[n]
 *
 * The sets are only read: any thread, as long as no one changes them.
 */

/* the figure the reference loop's runs are told by */
#define CMP_REF_STAT	CMP_STAT_TM10

/* one side of a compare: its files, read */
struct cmp_side {
	const struct results *const *set; /* [n], in the order given */
	unsigned int n;			/* files */
};

/* which run: of which side and file */
struct cmp_where {
	unsigned int side;		/* 0 BEFORE, 1 AFTER */
	unsigned int file;		/* index into the side's sets */
	unsigned int run;		/* in that file, 1-based */
};

/* how the gate runs */
struct cmp_gate {
	enum cmp_stat stat;		/* the per-run figure (--stat) */
	double alpha;			/* one-sided level, in (0, 1) */
	double threshold;		/* a change counts above it, fraction (0.05) */
	bool scaled;			/* figures scaled by the reference */
	bool exact;			/* counted figures: cmp_runs_exact() */
	double spread;			/* exact: a side's largest spread, fraction */
};

/* one series of a compare, computed whole */
struct cmp_series {
	const char *workload;		/* names it: points into a set */
	const char *variant;		/* same */
	unsigned int nb, na;		/* runs before, after */
	double *x;			/* [nb + na] each run's figure, in file order (scaled:
					 * adjusted) */
	double *ref;			/* [nb + na] each run's reference figure; NULL: raw */
	double ref_side[2];		/* scaled: median reference of BEFORE, of AFTER */
	double ref_at;			/* scaled: median reference of both, x brought to it */
	double ref_share;		/* scaled: cmp_ref_share() of the series; raw: 0 */
	struct kstats_hist *pool[2];	/* every run of a side merged: told, not tested */
	struct cmp_result r;		/* the test and the verdict */
};

/**
 * cmp_run_figures - every run of (@wl, @var) in @set, in results_run_hist()
 * order (results_nr_runs() of them): its figure @stat into x[i], and
 * when @ref is not NULL the reference figure it pairs with into ref[i],
 * 0 when none. Returns the number of runs filled.
 */
unsigned int cmp_run_figures(const struct results *set, const char *wl, const char *var,
			     enum cmp_stat stat, double *x, double *ref);

/**
 * cmp_ref_missing - the first run (1-based) of (@wl, @var) in @set that
 * pairs with no reference figure > 0, or 0 when every one does. With as
 * many reference runs as runs, the first whose figure is 0; with fewer,
 * the first past them; with more, run 1 (which run a reference was
 * timed for is then unknown).
 */
unsigned int cmp_ref_missing(const struct results *set, const char *wl, const char *var);

/**
 * cmp_side_runs - the runs of (@wl, @var) over every file of @s.
 */
unsigned int cmp_side_runs(const struct cmp_side *s, const char *wl, const char *var);

/**
 * cmp_list_series - every series of either side, once, in the order they
 * first appear (BEFORE's files, then AFTER's). An array of *@n pointers
 * into the sets, to free(); NULL with errno ENOMEM, or with errno 0 and
 * *@n 0 when there is none.
 */
const struct results_series **cmp_list_series(const struct cmp_side side[2], unsigned int *n);

/**
 * cmp_can_scale - whether every run of the @n series @list on both
 * sides pairs with a reference figure > 0. True, or false with the
 * first run that does not in @w.
 */
bool cmp_can_scale(const struct cmp_side side[2], const struct results_series *const *list,
		   unsigned int n, struct cmp_where *w);

/**
 * cmp_series_compute - series (@wl, @var) of @side under @g into @c:
 * every run's figure, each side's pool (histograms of @frac_bits, the
 * sets' layout), the reference's medians and share when g->scaled, the
 * test. @c is zeroed first; cmp_series_free() it whatever this returns.
 * Returns 0; -EINVAL when a side has no run of the series, or a BEFORE
 * run's figure is 0 (no change can be a ratio to it: that run in @w);
 * -ENOMEM.
 */
int cmp_series_compute(const struct cmp_side side[2], const char *wl, const char *var,
		       unsigned int frac_bits, const struct cmp_gate *g, struct cmp_series *c,
		       struct cmp_where *w);

/**
 * cmp_series_free - what cmp_series_compute() allocated in @c; NULL ok.
 */
void cmp_series_free(struct cmp_series *c);

#endif /* KSB_COMPARE_H */
