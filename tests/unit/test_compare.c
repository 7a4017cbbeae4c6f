// SPDX-License-Identifier: GPL-2.0
/*
 * test_compare.c - the gate's statistics: exact Mann-Whitney U p-values
 * against the published table (Mann and Whitney 1947) and against brute
 * force with ties, the Hodges-Lehmann change and its interval, the
 * trimmed mean of a histogram against that of its samples, the median's
 * spread and the verdicts (reading runs back from CSV: test_csv.c);
 * and the gate over results sets as bench compare runs it: which runs a
 * side holds, each run's figure and the reference it pairs with, the
 * series compared, the scaling, a BEFORE figure of 0.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kstats_hist.h"
#include "lib/stats/compare.h"
#include "lib/results/counted.h"
#include "lib/results/results.h"

#define assert_close(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

/* ---- the U test ---- */

/*
 * Published lower tail P(U <= u) for n1 = n2 = 5 and 6, as counts over
 * C(10, 5) = 252 and C(12, 6) = 924 orderings (the tables read .004 .008
 * .016 .028 .048 and .001 .002 .004 .008 .013 .021 .032 .047).
 */
static void test_u_exact_table(void **state)
{
	static const unsigned int cum5[] = { 1, 2, 4, 7, 12 };
	static const unsigned int cum6[] = { 1, 2, 4, 7, 12, 19, 30, 43 };
	double b[6] = { 10, 20, 30, 40, 50, 60 }, a[6] = { 1, 2, 3, 4, 5, 0 };
	struct cmp_utest t;
	unsigned int u;

	(void)state;
	/* five after values below every before value but one, placed above u */
	for (u = 0; u < 5; u++) {
		a[4] = 10.0 * u + 5;
		assert_int_equal(cmp_mann_whitney(b, 5, a, 5, &t), 0);
		assert_true(t.exact);
		assert_close(t.u, u, 1e-12);
		assert_close(t.p_less, cum5[u] / 252.0, 1e-12);
	}
	for (u = 0; u < 8; u++) {
		a[4] = 4.5;
		a[5] = u < 7 ? 10.0 * u + 5 : 5;
		if (u == 7) {		/* two values up: 4 + 3 pairs */
			a[4] = 45;
			a[5] = 35;
		}
		assert_int_equal(cmp_mann_whitney(b, 6, a, 6, &t), 0);
		assert_close(t.u, u, 1e-12);
		assert_close(t.p_less, cum6[u] / 924.0, 1e-12);
		/* mirrored: before and after swapped gives the upper tail */
		assert_int_equal(cmp_mann_whitney(a, 6, b, 6, &t), 0);
		assert_close(t.p_greater, cum6[u] / 924.0, 1e-12);
	}
}

/* every split of @n values into @nb before and the rest after */
static void brute_u(const double *v, unsigned int n, unsigned int nb,
		    double u_obs, double *pg, double *pl)
{
	unsigned int mask, i, j, cnt = 0, ge = 0, le = 0;

	for (mask = 0; mask < 1u << n; mask++) {
		double u = 0;

		if ((unsigned int)__builtin_popcount(mask) != nb)
			continue;
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				if ((mask >> i & 1) && !(mask >> j & 1))
					u += v[j] > v[i] ? 1 : v[j] == v[i] ? 0.5 : 0;
		cnt++;
		ge += u >= u_obs - 1e-9;
		le += u <= u_obs + 1e-9;
	}
	*pg = (double)ge / cnt;
	*pl = (double)le / cnt;
}

static void test_u_exact_ties_brute_force(void **state)
{
	static const double v[][11] = {
		{ 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5 },
		{ 7, 7, 7, 8, 8, 7, 9, 9, 7, 8, 7 },
		{ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 },
		{ 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 },
	};
	struct cmp_utest t;
	unsigned int k, nb;
	double pg, pl;

	(void)state;
	for (k = 0; k < 4; k++)
		for (nb = 3; nb <= 6; nb++) {
			assert_int_equal(cmp_mann_whitney(v[k], nb, v[k] + nb, 11 - nb, &t), 0);
			brute_u(v[k], 11, nb, t.u, &pg, &pl);
			assert_close(t.p_greater, pg, 1e-9);
			assert_close(t.p_less, pl, 1e-9);
		}
	assert_int_equal(cmp_mann_whitney(v[0], 0, v[0], 3, &t), -EINVAL);
}

/* past CMP_EXACT_MAX: the normal approximation, close to the exact one */
static void test_u_normal(void **state)
{
	double b[70], a[70];
	struct cmp_utest t, e;
	unsigned int i;
	double z;

	(void)state;
	for (i = 0; i < 70; i++) {
		b[i] = 100 + (i * 37 % 70);
		a[i] = 104.5 + (i * 53 % 70);
	}
	assert_int_equal(cmp_mann_whitney(b, 70, a, 70, &t), 0);
	assert_false(t.exact);
	assert_true(t.p_greater > 0 && t.p_greater < 0.5 && t.p_less > 0.5);
	/* the same data cut to 60 + 60 runs, exactly: near the normal tail */
	assert_int_equal(cmp_mann_whitney(b, 60, a, 60, &e), 0);
	assert_true(e.exact);
	z = (e.u - 1800 - 0.5) / sqrt(3600.0 * 121 / 12);
	assert_close(e.p_greater, 0.5 * erfc(z / M_SQRT2), 0.005);
}

/* ---- the change ---- */

static int dbl_order(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

static void test_hodges_lehmann(void **state)
{
	double b[5] = { 100, 200, 300, 400, 500 }, a[5], r[25];
	struct cmp_change c;
	unsigned int i, j;

	(void)state;
	for (i = 0; i < 5; i++)
		a[i] = b[i] * 1.1;
	assert_int_equal(cmp_hodges_lehmann(b, 5, a, 5, 0.95, &c), 0);
	assert_close(c.est, 0.1, 1e-12);
	for (i = 0; i < 5; i++)
		for (j = 0; j < 5; j++)
			r[i * 5 + j] = a[j] / b[i];
	qsort(r, 25, sizeof(*r), dbl_order);
	/* 5+5 at 95%: k = 3 (P(U <= 2) = 4/252 <= 0.025 < P(U <= 3) = 7/252) */
	assert_close(c.lo, r[2] - 1, 1e-12);
	assert_close(c.hi, r[22] - 1, 1e-12);
	assert_close(c.conf, 1 - 8.0 / 252, 1e-12);
	/* 6+6: k = 6 (P(U <= 5) = 19/924) */
	{
		double b6[6] = { 10, 11, 12, 13, 14, 15 }, a6[6] = { 12, 13, 14, 15, 16, 17 };
		double r6[36];

		assert_int_equal(cmp_hodges_lehmann(b6, 6, a6, 6, 0.95, &c), 0);
		for (i = 0; i < 6; i++)
			for (j = 0; j < 6; j++)
				r6[i * 6 + j] = a6[j] / b6[i];
		qsort(r6, 36, sizeof(*r6), dbl_order);
		assert_close(c.est, (r6[17] + r6[18]) / 2 - 1, 1e-12);
		assert_close(c.lo, r6[5] - 1, 1e-12);
		assert_close(c.hi, r6[30] - 1, 1e-12);
		assert_close(c.conf, 1 - 38.0 / 924, 1e-12);
		/* conf 0: the same estimate, no interval */
		assert_int_equal(cmp_hodges_lehmann(b6, 6, a6, 6, 0, &c), 0);
		assert_close(c.est, (r6[17] + r6[18]) / 2 - 1, 1e-12);
		assert_true(isinf(c.lo) && isinf(c.hi) && c.lo < 0 && c.conf == 0);
	}
	/* 3+3 cannot reach 95%: an infinite interval */
	assert_int_equal(cmp_hodges_lehmann(b, 3, a, 3, 0.95, &c), 0);
	assert_true(isinf(c.lo) && isinf(c.hi) && c.lo < 0);
	b[0] = 0;
	assert_int_equal(cmp_hodges_lehmann(b, 5, a, 5, 0.95, &c), -EINVAL);
}

static void test_median_spread(void **state)
{
	double x6[6] = { 106, 100, 103, 101, 104, 102 };
	double x12[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	double s;

	(void)state;
	/* n = 6: P(Bin(6, 1/2) <= 0) = 1/64 <= 0.025 < 7/64: the range */
	assert_close(cmp_median_spread(x6, 6, &s), 102.5, 1e-12);
	assert_close(s, 3.5 / 102.5, 1e-12);
	/* n = 12: P(Bin(12, 1/2) <= 2) = 79/4096: order statistics 3 and 10 */
	assert_close(cmp_median_spread(x12, 12, &s), 6.5, 1e-12);
	assert_close(s, 3.5 / 6.5, 1e-12);
	assert_close(cmp_median_spread(x12, 0, &s), 0, 0);
}

static void test_verdicts(void **state)
{
	static const struct {
		double b0, a0, step;		/* run i: b0 + i * step, a0 + i * step */
		enum cmp_verdict want;		/* the verdict */
		double p;			/* its p, or 0: not checked */
	} t[] = {
		/* +20%: regression; p is the smallest 6+6 allows */
		{ 100, 120, 1, CMP_REGRESSION, 1 / 924.0 },
		/* +3%, every after run above every before run: below the threshold */
		{ 100, 103, 0.1, CMP_BELOW, 0 },
		/* interleaved: not significant */
		{ 100, 101, 2, CMP_SAME, 0 },
		/* -20%: improvement, tested on the other tail */
		{ 100, 80, 1, CMP_IMPROVEMENT, 1 / 924.0 },
	};
	double b[6], a[6];
	struct cmp_result r;
	unsigned int i, k;

	(void)state;
	for (k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		for (i = 0; i < 6; i++) {
			b[i] = t[k].b0 + i * t[k].step;
			a[i] = t[k].a0 + i * t[k].step;
		}
		assert_int_equal(cmp_runs(b, 6, a, 6, 0.05, 0.05, &r), 0);
		assert_int_equal(r.verdict, t[k].want);
		if (t[k].p)
			assert_close(r.p, t[k].p, 1e-12);
	}
	assert_string_equal(cmp_verdict_names[CMP_SAME], "~");
}

/*
 * The exact gate (counted.h): two boots a side, each side's spread
 * max/min - 1, the change's interval every ratio, its verdict by size
 */
static void test_verdicts_exact(void **state)
{
	static const struct {
		double b[2], a[2];	/* per-boot figures */
		enum cmp_verdict want;
	} t[] = {
		/* the plant: +1.04%, sides apart, each within 0.05% */
		{ { 38272, 38290 }, { 38691, 38710 }, CMP_REGRESSION },
		/* -29%, the patch */
		{ { 38272, 38290 }, { 27200, 27210 }, CMP_IMPROVEMENT },
		/* A/A apart by 0.05%: real, and below the threshold */
		{ { 38272, 38280 }, { 38290, 38300 }, CMP_BELOW },
		/* the ranges overlap: nothing to tell */
		{ { 38272, 38346 }, { 38300, 38310 }, CMP_SAME },
		/* +5%, but the after side spreads 1% between its boots */
		{ { 1000, 1000 }, { 1050, 1061 }, CMP_NOT_REPEATABLE },
		/* the before side past the bound */
		{ { 1000, 1006 }, { 900, 900 }, CMP_NOT_REPEATABLE },
	};
	double b[2], a[2];
	struct cmp_result r;
	unsigned int k;

	(void)state;
	for (k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		memcpy(b, t[k].b, sizeof(b));
		memcpy(a, t[k].a, sizeof(a));
		assert_int_equal(cmp_runs_exact(b, 2, a, 2, 0.005, 0.005, &r), 0);
		assert_int_equal(r.verdict, t[k].want);
		/* every ratio lies in the interval, and one sits on each end */
		assert_close(r.change.lo, t[k].a[0] / t[k].b[1] - 1, 1e-12);
		assert_close(r.change.hi, t[k].a[1] / t[k].b[0] - 1, 1e-12);
		assert_close(r.change.conf, 1, 0);
		assert_close(r.before_spread, t[k].b[1] / t[k].b[0] - 1, 1e-12);
		assert_close(r.after_spread, t[k].a[1] / t[k].a[0] - 1, 1e-12);
	}
	/* the median of the four ratios, two of each */
	assert_close(r.change.est, (0.9 + 900.0 / 1006) / 2 - 1, 1e-12);
	assert_string_equal(cmp_verdict_names[CMP_NOT_REPEATABLE], "not repeatable");
	/* a side empty, or a before figure of 0: as cmp_runs() */
	assert_int_equal(cmp_runs_exact(b, 0, a, 2, 0.005, 0.005, &r), -EINVAL);
	b[0] = 0;
	assert_int_equal(cmp_runs_exact(b, 2, a, 2, 0.005, 0.005, &r), -EINVAL);
}

static void test_counted_spread(void **state)
{
	const double x[] = { 38346, 38272, 38300 }, z[] = { 0, 1 };

	(void)state;
	assert_close(counted_spread(x, 3), 38346.0 / 38272 - 1, 1e-15);
	assert_close(counted_spread(x, 1), 0, 0);
	assert_close(counted_spread(x, 0), 0, 0);
	assert_true(isinf(counted_spread(z, 2)));
	assert_true(counted_unit("insn"));
	assert_false(counted_unit("ns"));
	assert_false(counted_unit(NULL));
}

/* the plugin's units are counts too, each with its flat slope and words */
static void test_counted_units(void **state)
{
	static const char *const units[] = { "insn", "misses", "accesses", "est-cycles" };
	unsigned int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		assert_true(counted_unit(units[i]));
		assert_non_null(counted_what(units[i]));
		assert_non_null(counted_noun(units[i]));
		assert_true(counted_flat(units[i]) > 0);
	}
	assert_false(counted_unit("cycles"));
	assert_false(counted_unit("miss"));
	assert_null(counted_what("ns"));
	assert_null(counted_suffix("cycles", 0));
	assert_close(counted_flat("ns"), 0, 0);
	assert_close(counted_flat("insn"), COUNTED_FLAT, 0);
	assert_close(counted_flat("misses"), COUNTED_FLAT_LINES, 0);
	assert_close(counted_flat("accesses"), COUNTED_FLAT_LINES, 0);
	assert_close(counted_flat("est-cycles"), COUNTED_FLAT, 0);
	assert_string_equal(counted_suffix("insn", 1), "k insn");
	assert_string_equal(counted_suffix("misses", 0), " misses");
	assert_null(counted_suffix("misses", 4));
	assert_string_equal(counted_noun("insn"), "instructions");
	assert_non_null(strstr(counted_what("misses"), "not hardware"));
	assert_non_null(strstr(counted_what("est-cycles"), "estimate"));
}

/* ---- per-run figures from a histogram ---- */

static uint64_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

/* the trimmed mean of the samples: the same cut, fractional at the ends */
static double exact_trimmed(uint64_t *v, unsigned int n, double trim)
{
	double lo = trim * n, hi = n - lo, sum = 0, w;
	unsigned int i;

	for (i = 0; i < n; i++) {
		w = fmin(i + 1.0, hi) - fmax(i, lo);
		if (w > 0)
			sum += w * (double)v[i];
	}
	return sum / (hi - lo);
}

static int u64_order(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static void test_trimmed_mean_bound(void **state)
{
	static uint64_t v[20000];
	unsigned int n, i, fb, trial;
	uint64_t seed = 42, lo, last;

	(void)state;
	for (trial = 0; trial < 40; trial++) {
		struct kstats_hist *h;
		double tm, ex, bound, cut[2], cum = 0;

		fb = trial % 4;
		h = kstats_hist_create(fb);
		assert_non_null(h);
		n = 100 + (unsigned int)(rnd(&seed) % 19900);
		for (i = 0; i < n; i++) {
			/* a body near 10 us with a thin tail up to ~1 ms */
			v[i] = 8000 + rnd(&seed) % 6000;
			if (!(rnd(&seed) % 50))
				v[i] += rnd(&seed) % 1000000;
			kstats_hist_record(h, v[i]);
		}
		tm = cmp_trimmed_mean(h, 0.10);
		qsort(v, n, sizeof(*v), u64_order);
		ex = exact_trimmed(v, n, 0.10);
		/* the two cut buckets: their share inside times their width */
		cut[0] = 0.10 * n;
		cut[1] = n - cut[0];
		bound = 0.5;	/* each bucket's average is rounded */
		for (i = 0; i < kstats_hist_nr_slots(h); i++) {
			double c = (double)kstats_hist_slot_count(h, i), w;

			w = fmin(cum + c, cut[1]) - fmax(cum, cut[0]);
			if (w > 0 && w < c) {
				kstats_hist_slot_bounds(fb, i, &lo, &last);
				bound += w * (double)(last - lo) / (cut[1] - cut[0]);
			}
			cum += c;
		}
		assert_true(fabs(tm - ex) <= bound);
		kstats_hist_free(h);
	}
}

static void test_quantile_and_stats(void **state)
{
	struct kstats_hist *h = kstats_hist_create(2);
	unsigned int i;

	(void)state;
	assert_non_null(h);
	assert_true(cmp_quantile(h, 0.5) == 0 && cmp_trimmed_mean(h, 0.1) == 0);
	/* 100 samples in [8192, 10240): the median halfway by rank */
	for (i = 0; i < 100; i++)
		kstats_hist_record(h, 9000);
	assert_close(cmp_quantile(h, 0.5), 8192 + 2048 * 0.5, 1e-9);
	assert_close(cmp_hist_stat(h, CMP_STAT_P90), 8192 + 2048 * 0.9, 1e-9);
	assert_close(cmp_hist_stat(h, CMP_STAT_TM10), 9000, 1e-9);
	assert_close(cmp_hist_stat(h, CMP_STAT_MEAN), 9000, 1e-9);
	/* 10 huge outliers move the mean, not the 10% trimmed mean */
	for (i = 0; i < 10; i++)
		kstats_hist_record(h, 170000);
	assert_close(cmp_hist_stat(h, CMP_STAT_TM10), 9000, 1e-9);
	assert_true(cmp_hist_stat(h, CMP_STAT_MEAN) > 20000);
	assert_string_equal(cmp_stat_names[CMP_STAT_TM10], "tm10");
	kstats_hist_free(h);
}

/* the low figures: p25 and p10 interpolated by rank, min exact */
static void test_low_stats(void **state)
{
	struct kstats_hist *h = kstats_hist_create(2);
	unsigned int i;

	(void)state;
	assert_non_null(h);
	assert_true(cmp_hist_stat(h, CMP_STAT_MIN) == 0 && cmp_hist_stat(h, CMP_STAT_P10) == 0);
	/* 100 samples in [8192, 10240), the smallest 8500; 20 slow ones */
	kstats_hist_record(h, 8500);
	for (i = 1; i < 100; i++)
		kstats_hist_record(h, 9000);
	for (i = 0; i < 20; i++)
		kstats_hist_record(h, 500000);
	assert_close(cmp_hist_stat(h, CMP_STAT_P10), 8192 + 2048 * 12.0 / 100, 1e-9);
	assert_close(cmp_hist_stat(h, CMP_STAT_P25), 8192 + 2048 * 30.0 / 100, 1e-9);
	assert_close(cmp_hist_stat(h, CMP_STAT_MIN), 8500, 1e-9);
	/* the slow sixth moves the median's bucket, not the low figures' */
	assert_true(cmp_hist_stat(h, CMP_STAT_MEAN) > 80000);
	assert_string_equal(cmp_stat_names[CMP_STAT_P25], "p25");
	assert_string_equal(cmp_stat_names[CMP_STAT_P10], "p10");
	assert_string_equal(cmp_stat_names[CMP_STAT_MIN], "min");
	assert_null(cmp_stat_names[CMP_NR_STATS]);
	kstats_hist_free(h);
}

/*
 * cmp_ref_share: the within-side log-log slope, clamped. x = c * r^k
 * gives k exactly; a change between the sides does not enter it.
 */
static void test_ref_share(void **state)
{
	double r[12], x[12], y[12];
	unsigned int i;

	(void)state;
	for (i = 0; i < 12; i++) {
		r[i] = 9000 * (1 + 0.03 * (double)((i * 7) % 12));
		x[i] = 10000 * pow(r[i] / 9000, 0.8) * (i < 6 ? 1 : 1.13);
		y[i] = 200 + (double)(i % 3);	/* moves, but not with r */
	}
	assert_true(fabs(cmp_ref_share(x, r, 6, 6) - 0.8) < 1e-9);
	/* a run with a figure of 0 (a median below the overhead) is left out */
	x[2] = 0;
	assert_true(fabs(cmp_ref_share(x, r, 6, 6) - 0.8) < 1e-9);
	/* proportional and beyond: clamped to 1 */
	for (i = 0; i < 12; i++)
		x[i] = pow(r[i], 1.7);
	assert_true(cmp_ref_share(x, r, 6, 6) == 1);
	/* against the drift: clamped to 0 */
	for (i = 0; i < 12; i++)
		x[i] = 1e6 / r[i];
	assert_true(cmp_ref_share(x, r, 6, 6) == 0);
	assert_true(cmp_ref_share(y, r, 6, 6) < 0.2);
	/* too few runs, or a reference that never moved: 0 */
	assert_true(cmp_ref_share(x, r, 1, 6) == 0);
	for (i = 0; i < 12; i++)
		r[i] = 9000;
	assert_true(cmp_ref_share(x, r, 6, 6) == 0);
}

/* cmp_ref_adjust: x * (at / r)^share, the drift taken out exactly */
/*
 * The share within groups (bench trend's files): each group of 3 runs
 * at a level of its own, the figures following r^0.6 inside each. A fit
 * over all 12 runs would take the steps between the groups for the
 * share; fitted within them it is 0.6, and a group of one run is left
 * out.
 */
static void test_ref_share_groups(void **state)
{
	static const unsigned int len[] = { 3, 3, 1, 3, 2 }, ones[] = { 1, 1, 1 };
	double r[12], x[12];
	unsigned int i, g = 0, end = len[0];

	(void)state;
	for (i = 0; i < 12; i++) {
		if (i == end)
			end += len[++g];
		r[i] = 9000 * (1 + 0.05 * (double)((i * 5) % 7));
		x[i] = 10000 * pow(r[i] / 9000, 0.6) * (1 + 0.4 * g);
	}
	assert_true(fabs(cmp_ref_share_groups(x, r, len, 5) - 0.6) < 1e-9);
	/* the two-group form is cmp_ref_share() */
	assert_true(cmp_ref_share_groups(x, r, len, 2) == cmp_ref_share(x, r, 3, 3));
	/* nothing to fit on inside any group */
	assert_true(cmp_ref_share_groups(x, r, ones, 3) == 0);
	assert_true(cmp_ref_share_groups(x, r, len, 0) == 0);
}

static void test_ref_adjust(void **state)
{
	double r[4] = { 8000, 9000, 10000, 12000 }, x[4], at = 9500;
	unsigned int i;

	(void)state;
	for (i = 0; i < 4; i++)
		x[i] = 10000 * pow(r[i] / at, 0.8);
	cmp_ref_adjust(x, r, 4, at, 0.8);
	for (i = 0; i < 4; i++)
		assert_true(fabs(x[i] - 10000) < 1e-6);
	cmp_ref_adjust(x, r, 4, at, 0);
	for (i = 0; i < 4; i++)
		assert_true(fabs(x[i] - 10000) < 1e-6);
	/* 0 stays 0; a run without a reference is kept as it is */
	x[0] = 0;
	r[1] = 0;
	cmp_ref_adjust(x, r, 4, at, 1);
	assert_true(x[0] == 0 && fabs(x[1] - 10000) < 1e-6);
}

/* ---- the gate over results sets ---- */

/* run @run (RESULTS_RUN_ALL: the merge) of (@wl, @var) in @r: @n samples from @base */
static void add_run(struct results *r, const char *wl, const char *var, unsigned int run,
		    uint64_t base, unsigned int n)
{
	const struct results_label l = { wl, var, run, RESULTS_CPU_ALL, -1 };
	struct kstats_hist *h = kstats_hist_create(2);
	unsigned int i;

	assert_non_null(h);
	for (i = 0; i < n; i++)
		kstats_hist_record(h, base + 37 * i);
	assert_int_equal(results_add_hist(r, &l, h), 0);
	kstats_hist_free(h);
}

/* a file of @runs runs of w/old and w/new, and @refs runs of the reference */
static struct results *file_of(unsigned int runs, unsigned int refs, uint64_t old,
			       uint64_t ref)
{
	struct results *r = results_create(2);
	unsigned int i;

	assert_non_null(r);
	for (i = 1; i <= refs; i++)
		add_run(r, "w", RESULTS_REFERENCE, i, ref + 100 * i, 64);
	for (i = 1; i <= runs; i++) {
		add_run(r, "w", "old", i, old + 200 * i, 64);
		add_run(r, "w", "new", i, old / 4 + 10 * i, 64);
	}
	return r;
}

static void test_run_figures(void **state)
{
	struct results *r = file_of(3, 3, 8000, 5000);
	double x[3], ref[3];
	unsigned int i;

	(void)state;
	assert_int_equal(cmp_run_figures(r, "w", "old", CMP_STAT_P90, x, ref), 3);
	for (i = 0; i < 3; i++) {
		assert_close(x[i], cmp_hist_stat(results_run_hist(r, "w", "old", i), CMP_STAT_P90),
			     0);
		assert_close(ref[i], cmp_hist_stat(results_run_hist(r, "w", RESULTS_REFERENCE, i),
						   CMP_STAT_TM10), 0);
		assert_true(ref[i] > 5000);
	}
	assert_true(x[0] < x[1] && x[1] < x[2]);
	assert_int_equal(cmp_run_figures(r, "w", "old", CMP_STAT_TM10, x, NULL), 3);
	assert_int_equal(cmp_ref_missing(r, "w", "old"), 0);
	assert_int_equal(cmp_run_figures(r, "w", "gone", CMP_STAT_TM10, x, ref), 0);
	results_free(r);
	/* fewer references than runs: the runs past them pair with none */
	r = file_of(3, 2, 8000, 5000);
	assert_int_equal(cmp_run_figures(r, "w", "old", CMP_STAT_TM10, x, ref), 3);
	assert_true(ref[0] > 0 && ref[1] > 0 && ref[2] == 0);
	assert_int_equal(cmp_ref_missing(r, "w", "old"), 3);
	results_free(r);
	/* more: which run a reference was timed for is unknown, from run 1 */
	r = file_of(3, 4, 8000, 5000);
	assert_int_equal(cmp_ref_missing(r, "w", "new"), 1);
	results_free(r);
	r = file_of(3, 0, 8000, 5000);
	assert_int_equal(cmp_ref_missing(r, "w", "old"), 1);
	results_free(r);
	/* a reference of 0 (an empty run) pairs with nothing */
	r = file_of(2, 1, 8000, 5000);
	add_run(r, "w", RESULTS_REFERENCE, 2, 0, 0);
	assert_int_equal(cmp_ref_missing(r, "w", "old"), 2);
	results_free(r);
	/* a one-run file (format 1, bench hist) is its "all" series */
	r = results_create(2);
	add_run(r, "w", "old", RESULTS_RUN_ALL, 9000, 16);
	assert_int_equal(cmp_run_figures(r, "w", "old", CMP_STAT_MEAN, x, ref), 1);
	assert_close(x[0], 9000 + 37 * 7.5, 1e-9);
	assert_true(ref[0] == 0);
	results_free(r);
}

static void test_list_series(void **state)
{
	struct results *b = file_of(2, 2, 8000, 5000), *a = results_create(2);
	const struct results *bs[] = { b }, *as[] = { a, b };
	struct cmp_side side[2] = { { bs, 1 }, { as, 2 } };
	const struct results_label cpu0 = { "w", "old", 1, 0, 0 };
	const struct results_series **list;
	unsigned int n;

	(void)state;
	/* AFTER's first file: a series of its own, and a per-CPU one that is none */
	add_run(a, "v", "x", 1, 100, 8);
	assert_int_equal(results_add_hist(a, &cpu0, results_run_hist(b, "w", "old", 0)), 0);
	list = cmp_list_series(side, &n);
	assert_non_null(list);
	assert_int_equal(n, 3);
	assert_string_equal(list[0]->variant, "old");
	assert_string_equal(list[1]->variant, "new");
	assert_string_equal(list[2]->workload, "v");
	assert_int_equal(cmp_side_runs(&side[0], "w", "old"), 2);
	assert_int_equal(cmp_side_runs(&side[1], "w", "old"), 2);
	assert_int_equal(cmp_side_runs(&side[1], "v", "x"), 1);
	assert_int_equal(cmp_side_runs(&side[0], "v", "x"), 0);
	free(list);
	side[0].n = side[1].n = 0;
	assert_null(cmp_list_series(side, &n));
	assert_int_equal(errno, 0);
	assert_int_equal(n, 0);
	results_free(a);
	results_free(b);
}

static void test_can_scale(void **state)
{
	struct results *f[3] = { file_of(2, 2, 8000, 5000), file_of(2, 2, 8000, 5000),
				 file_of(3, 2, 8000, 5000) };
	const struct results *bs[] = { f[0] }, *as[] = { f[1], f[2] };
	struct cmp_side side[2] = { { bs, 1 }, { as, 2 } };
	const struct results_series **list;
	struct cmp_where w = { 9, 9, 9 };
	unsigned int n;

	(void)state;
	list = cmp_list_series(side, &n);
	assert_non_null(list);
	assert_false(cmp_can_scale(side, list, n, &w));
	assert_int_equal(w.side, 1);
	assert_int_equal(w.file, 1);
	assert_int_equal(w.run, 3);
	side[1].n = 1;
	assert_true(cmp_can_scale(side, list, n, &w));
	free(list);
	for (n = 0; n < 3; n++)
		results_free(f[n]);
}

/* what cmp_series_compute() does, by hand from the figures */
static void test_series_compute(void **state)
{
	struct results *f[3] = { file_of(3, 3, 8000, 5000), file_of(3, 3, 8000, 5200),
				 file_of(3, 3, 9000, 5600) };
	const struct results *bs[] = { f[0], f[1] }, *as[] = { f[2] }, *bz[] = { f[1], f[2] };
	struct cmp_side side[2] = { { bs, 2 }, { as, 1 } };
	struct cmp_gate g = { .stat = CMP_STAT_TM10, .alpha = 0.05, .threshold = 0.05 };
	double x[9], r[9], y[9], tmp[9], spread;
	struct cmp_result want;
	struct cmp_series c;
	struct cmp_where w;
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		cmp_run_figures(f[i], "w", "old", CMP_STAT_TM10, x + 3 * i, r + 3 * i);
		memcpy(y + 3 * i, x + 3 * i, 3 * sizeof(*y));
	}
	assert_int_equal(cmp_series_compute(side, "w", "old", 2, &g, &c, &w), 0);
	assert_int_equal(c.nb, 6);
	assert_int_equal(c.na, 3);
	assert_null(c.ref);
	assert_true(c.ref_share == 0);
	for (i = 0; i < 9; i++)
		assert_close(c.x[i], x[i], 0);
	assert_int_equal(kstats_hist_total(c.pool[0]), 6 * 64);
	assert_int_equal(kstats_hist_total(c.pool[1]), 3 * 64);
	assert_int_equal(cmp_runs(y, 6, y + 6, 3, 0.05, 0.05, &want), 0);
	assert_int_equal(c.r.verdict, want.verdict);
	assert_close(c.r.change.est, want.change.est, 0);
	assert_close(c.r.p, want.p, 0);
	cmp_series_free(&c);
	/* scaled: the reference's medians, the share, each figure brought to it */
	g.scaled = true;
	assert_int_equal(cmp_series_compute(side, "w", "old", 2, &g, &c, &w), 0);
	assert_non_null(c.ref);
	memcpy(tmp, r, sizeof(tmp));
	assert_close(c.ref_side[0], cmp_median_spread(tmp, 6, &spread), 0);
	assert_close(c.ref_side[1], cmp_median_spread(tmp + 6, 3, &spread), 0);
	memcpy(tmp, r, sizeof(tmp));
	assert_close(c.ref_at, cmp_median_spread(tmp, 9, &spread), 0);
	assert_close(c.ref_share, cmp_ref_share(x, r, 6, 3), 0);
	assert_true(c.ref_share > 0);
	cmp_ref_adjust(x, r, 9, c.ref_at, c.ref_share);
	for (i = 0; i < 9; i++) {
		assert_close(c.x[i], x[i], 0);
		assert_close(c.ref[i], r[i], 0);
	}
	cmp_series_free(&c);
	cmp_series_free(NULL);
	/* a BEFORE run of 0: no ratio to it, named by side, file and run */
	add_run(f[1], "w", "zero", 1, 1000, 8);
	add_run(f[1], "w", "zero", 2, 0, 0);
	add_run(f[2], "w", "zero", 1, 1000, 8);
	add_run(f[2], "w", "zero", 2, 0, 0);
	g.scaled = false;
	assert_int_equal(cmp_series_compute(side, "w", "zero", 2, &g, &c, &w), -EINVAL);
	assert_int_equal(w.side, 0);
	assert_int_equal(w.file, 1);
	assert_int_equal(w.run, 2);
	cmp_series_free(&c);
	/* AFTER's may be 0; a series one side lacks is refused */
	add_run(f[0], "w", "zero", 1, 1000, 8);
	bs[1] = f[0];
	side[0] = (struct cmp_side){ bs + 1, 1 };
	side[1] = (struct cmp_side){ bz, 2 };
	assert_int_equal(cmp_series_compute(side, "w", "zero", 2, &g, &c, &w), 0);
	assert_int_equal(c.nb, 1);
	assert_int_equal(c.na, 4);
	assert_true(c.x[1] > 0 && c.x[2] == 0 && c.x[4] == 0);
	cmp_series_free(&c);
	assert_int_equal(cmp_series_compute(side, "w", "gone", 2, &g, &c, &w), -EINVAL);
	cmp_series_free(&c);
	for (i = 0; i < 3; i++)
		results_free(f[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u_exact_table),
		cmocka_unit_test(test_u_exact_ties_brute_force),
		cmocka_unit_test(test_u_normal),
		cmocka_unit_test(test_hodges_lehmann),
		cmocka_unit_test(test_median_spread),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_verdicts_exact),
		cmocka_unit_test(test_counted_spread),
		cmocka_unit_test(test_counted_units),
		cmocka_unit_test(test_trimmed_mean_bound),
		cmocka_unit_test(test_quantile_and_stats),
		cmocka_unit_test(test_low_stats),
		cmocka_unit_test(test_ref_share),
		cmocka_unit_test(test_ref_share_groups),
		cmocka_unit_test(test_ref_adjust),
		cmocka_unit_test(test_run_figures),
		cmocka_unit_test(test_list_series),
		cmocka_unit_test(test_can_scale),
		cmocka_unit_test(test_series_compute),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
