/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scale.h - what a cost pays per possible CPU: a robust line through
 * (possible CPUs, per-run figure) points, its 95% interval, and the gate
 * on the slope between two kernels (bench scale).
 *
 *	struct scale_fit f;
 *	double at, lo, hi;
 *
 *	if (!scale_theil_sen(x, y, n, &f)) {
 *		printf("%+.3f ns/CPU [%+.3f, %+.3f] %s\n", f.slope, f.lo, f.hi,
 *		       scale_verdict_names[scale_verdict(&f, 0)]);
 *		scale_at(&f, 8192, &at, &lo, &hi);
 *	}
 *
 * The estimator is Theil-Sen (Theil 1950, Sen 1968), not least squares.
 * The points are per-boot or per-run figures from a shared, emulated
 * machine: a preempted boot or a run that met a co-tenant is an outlier
 * several times the others, and one such point moves an OLS slope
 * without bound. Theil-Sen's slope is the median of the slopes of every
 * pair of points with different x: it stands until about 29% of the
 * points are arbitrary (its breakdown point, 1 - 1/sqrt(2)), and its
 * interval comes from the ranks of those pairwise slopes (Kendall's tau),
 * so it assumes no normality of the noise, which per-run figures
 * (skewed, with the odd preempted run) do not have.
 *
 * Exactly as scipy.stats.theilslopes(y, x, 0.95, method='joint'):
 *
 *	slope		the median of the N pairwise slopes (y_j - y_i) /
 *			(x_j - x_i), x_i < x_j (ties in x give no slope)
 *	intercept	median(y - slope x)
 *	interval	sorted slopes [Rl] and [Ru], Sen's (2.6):
 *			var = (n(n-1)(2n+5) - sum_x t(t-1)(2t+5)
 *			       - sum_y t(t-1)(2t+5)) / 18,
 *			t over the sizes of the groups of equal x, of equal y
 *			Ru = min(round((N + z sqrt(var)) / 2), N - 1)
 *			Rl = max(round((N - z sqrt(var)) / 2) - 1, 0)
 *			z = 1.959964 (two-sided 95%), round half to even;
 *			scale_theil_sen_z() takes any other z
 *
 * Extrapolation (scale_at()): the line a + b N, and for its interval
 * the two lines whose slopes are the interval's ends, each with its own
 * intercept median(y - b x), so that each passes through the middle of
 * the points as the fit does; the interval is the lower and upper of
 * the two at N. That is the slope's uncertainty carried out to N, which
 * is what dominates far from the points (at 8192 possible CPUs from a
 * sweep of 64..480); near the middle of the points, where the lines
 * cross, it is narrower than the figure's own run-to-run spread.
 *
 * The difference of two slopes (scale_diff()): MOVER (Zou and Donner,
 * "Construction of confidence limits about effect measures", Stat. Med.
 * 2008): the two sides are independent boots, each slope has its own
 * asymmetric rank interval, and the interval of B - A is
 *
 *	lo = d - sqrt((b_B - lo_B)^2 + (hi_A - b_A)^2)
 *	hi = d + sqrt((hi_B - b_B)^2 + (b_A - lo_A)^2)
 *
 * the half-widths recovered from each interval and added in quadrature,
 * as a normal difference's variance would be; deterministic (no seed,
 * no resampling) and as distribution-free as the intervals it combines.
 *
 * Pure functions of their arguments: any thread, no shared state.
 */
#ifndef KSB_SCALE_H
#define KSB_SCALE_H

#include <stdbool.h>

/* the two-sided 95% normal quantile, scipy.stats.norm.ppf(0.975) */
#define SCALE_Z95	1.959963984540054
/* most points in one fit: n(n-1)/2 slopes, 67 MB of them at 4096 */
#define SCALE_MAX_POINTS	4096

struct scale_fit {
	unsigned int n;			/* points */
	unsigned int nx;		/* distinct x among them */
	unsigned int pairs;		/* slopes: pairs with different x */
	double x_min, x_max;		/* the range of x */
	double slope;			/* b: the median pairwise slope */
	double z;			/* the interval's normal quantile (SCALE_Z95) */
	double sigma;			/* sd of Kendall's S, Sen's sqrt(var) */
	double lo, hi;			/* its interval (Sen), 95% unless z says */
	double intercept;		/* a: median(y - b x) */
	double icpt_lo, icpt_hi;	/* median(y - lo x), median(y - hi x) */
	/*
	 * the smallest two-sided p any y can give on these x: 2 prod(t!)/n!
	 * over the groups of t equal x (1 when it is above 1), the chance of
	 * the y falling in x's order by luck alone. Sen's normal interval
	 * does not know it: on 3 points, one at each of 3 counts, it reads
	 * p = 0.037 where no ordering of the y can be rarer than 1 in 3.
	 */
	double p_floor;
};

enum scale_verdict {
	SCALE_FLAT,			/* the interval holds 0, or lies within --flat */
	SCALE_GROWS,			/* its lower end above 0 and --flat */
	SCALE_SHRINKS,			/* its upper end below 0 and -(--flat) */
};

/* "flat", "grows", "shrinks" */
extern const char *const scale_verdict_names[];

/**
 * scale_median - the median of @v (@n values, sorted in place; the mean
 * of the middle two when @n is even, as numpy's median). 0 when @n is 0.
 */
double scale_median(double *v, unsigned int n);

/**
 * scale_theil_sen - the fit of @y on @x (@n points) into @f, as above.
 * Returns 0; -EINVAL when a value is not finite or fewer than 2 distinct
 * x leave no slope; -E2BIG above SCALE_MAX_POINTS; -ENOMEM.
 */
int scale_theil_sen(const double *x, const double *y, unsigned int n, struct scale_fit *f);

/**
 * scale_theil_sen_z - scale_theil_sen() with the interval at the two-sided
 * normal quantile @z (>= 0, finite) for SCALE_Z95: scale_z(alpha) gives
 * the interval of confidence 1 - alpha, which a battery's multiplicity
 * correction needs (lib/stats/audit.h). Returns as scale_theil_sen(),
 * and -EINVAL for a @z that is not.
 */
int scale_theil_sen_z(const double *x, const double *y, unsigned int n, double z,
		      struct scale_fit *f);

/**
 * scale_z - the two-sided normal quantile of @alpha: the z with
 * P(|Z| > z) = @alpha, to the last bit of erfc() (1.959964 at 0.05).
 * 0 for @alpha >= 1, INFINITY for @alpha <= 0 or NaN.
 */
double scale_z(double alpha);

/**
 * scale_alpha - scale_z()'s inverse: P(|Z| > @z), 1 for @z <= 0.
 */
double scale_alpha(double z);

/**
 * scale_at - the fitted line at @at into *@est, and the interval of the
 * two lines through the slope interval's ends (each with its own
 * intercept) at @at into *@lo <= *@hi.
 */
void scale_at(const struct scale_fit *f, double at, double *est, double *lo, double *hi);

/**
 * scale_verdict - grows when the interval's lower end is above both 0
 * and @flat (>= 0, the slope that counts as flat, ns per CPU), shrinks
 * when its upper end is below both 0 and -@flat, else flat; flat too
 * when the points cannot reach the interval's level at all (p_floor
 * above it: 2 boots at each of 2 counts, 3 at each of 2).
 */
enum scale_verdict scale_verdict(const struct scale_fit *f, double flat);

/**
 * scale_spread - how far the @n points (@x, @y) repeat: the largest
 * max/min - 1 of the y at one x, over the x with two points or more (0
 * when none has; INFINITY when such a y is not above 0). What a counted
 * fit repeats to (lib/results/counted.h).
 */
double scale_spread(const double *x, const double *y, unsigned int n);

/* B's slope less A's, with its 95% interval */
struct scale_diff {
	double est;			/* b_B - b_A */
	double lo, hi;			/* MOVER's interval */
};

/**
 * scale_diff - B's slope less A's, with MOVER's interval, into @d.
 */
void scale_diff(const struct scale_fit *a, const struct scale_fit *b, struct scale_diff *d);

/* the gate's threshold: ns per possible CPU, or a percent of A's slope */
struct scale_threshold {
	double v;			/* >= 0 */
	bool pct;			/* v is a percent of |A's slope| */
};

/**
 * scale_threshold_ns - @t in ns per CPU against A's fit @a: v, or |b_A| v / 100.
 */
double scale_threshold_ns(const struct scale_threshold *t, const struct scale_fit *a);

/**
 * scale_regression - whether B grows faster than A: @d's estimate above
 * @t (in ns per CPU, scale_threshold_ns()) and its interval's lower end
 * above 0.
 */
bool scale_regression(const struct scale_fit *a, const struct scale_diff *d,
		      const struct scale_threshold *t);

#endif /* KSB_SCALE_H */
