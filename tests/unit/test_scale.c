// SPDX-License-Identifier: GPL-2.0
/*
 * test_scale.c - the slope per possible CPU (lib/stats/scale.h): Theil-Sen by
 * hand on four points, and against scipy.stats.theilslopes(y, x, 0.95,
 * method='joint') (scipy 1.10.1, Debian 12) on a sweep of 4 counts x 3
 * runs with one preempted run, and on a flat one; the extrapolation,
 * the verdicts with and without --flat, MOVER's difference, the gate,
 * and bad input.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "lib/stats/scale.h"

#define assert_close(a, b) assert_true(fabs((a) - (b)) <= 1e-9 * (1 + fabs((double)(b))))

/* 64..480 possible CPUs, 3 runs each; 9000 a preempted run */
static const double gx[] = { 64, 64, 64, 128, 128, 128, 256, 256, 256, 480, 480, 480 };
static const double gy[] = { 1100, 1180, 1150, 1620, 1590, 9000,
			     2630, 2700, 2580, 4300, 4410, 4350 };
/* flat within noise */
static const double fx[] = { 64, 64, 128, 128, 256, 256, 480, 480 };
static const double fy[] = { 500, 510, 505, 498, 502, 507, 499, 511 };

/*
 * By hand: slopes 2, 0.5, 4/3, -1, 1, 3; median (1 + 4/3) / 2 = 7/6;
 * var = 4*3*13/18, sigma 2.944: Ru = min(rint(5.885), 5) = 5, Rl =
 * max(rint(0.115) - 1, 0) = 0; intercept median(-1/6, 2/3, -3/2, 1/3).
 */
static void test_by_hand(void **state)
{
	const double x[] = { 1, 2, 3, 4 }, y[] = { 1, 3, 2, 5 };
	struct scale_fit f;

	(void)state;
	assert_int_equal(scale_theil_sen(x, y, 4, &f), 0);
	assert_int_equal(f.n, 4);
	assert_int_equal(f.nx, 4);
	assert_int_equal(f.pairs, 6);
	assert_close(f.slope, 7.0 / 6);
	assert_close(f.lo, -1);
	assert_close(f.hi, 3);
	assert_close(f.intercept, 1.0 / 12);
	assert_int_equal(scale_verdict(&f, 0), SCALE_FLAT);
}

/* scipy: slope 7.695585664335665 [7.366071428571429, 7.956730769230769], a 656.8006993006991 */
static void test_scipy_grows(void **state)
{
	struct scale_fit f;
	double est, lo, hi;

	(void)state;
	assert_int_equal(scale_theil_sen(gx, gy, 12, &f), 0);
	assert_int_equal(f.nx, 4);
	assert_int_equal(f.pairs, 54);
	assert_close(f.x_min, 64);
	assert_close(f.x_max, 480);
	assert_close(f.slope, 7.695585664335665);
	assert_close(f.lo, 7.366071428571429);
	assert_close(f.hi, 7.956730769230769);
	assert_close(f.intercept, 656.8006993006991);
	assert_close(f.icpt_lo, 726.4285714285713);
	assert_close(f.icpt_hi, 591.923076923077);
	assert_int_equal(scale_verdict(&f, 0), SCALE_GROWS);
	/* a tolerance above the lower end: no longer shown to grow */
	assert_int_equal(scale_verdict(&f, 7.5), SCALE_FLAT);
	scale_at(&f, 8192, &est, &lo, &hi);
	assert_close(est, 63699.03846153847);
	assert_close(lo, 61069.28571428572);
	assert_close(hi, 65773.46153846153);
}

/* scipy: slope 0.0026223776223776225 [-0.03571428571428571, 0.036931818181818184] */
static void test_scipy_flat(void **state)
{
	struct scale_fit f;

	(void)state;
	assert_int_equal(scale_theil_sen(fx, fy, 8, &f), 0);
	assert_close(f.slope, 0.0026223776223776225);
	assert_close(f.lo, -0.03571428571428571);
	assert_close(f.hi, 0.036931818181818184);
	assert_close(f.intercept, 502.99650349650346);
	assert_int_equal(scale_verdict(&f, 0), SCALE_FLAT);
}

static void test_shrinks(void **state)
{
	double y[12];
	struct scale_fit f;
	unsigned int i;

	(void)state;
	for (i = 0; i < 12; i++)
		y[i] = 10000 - gy[i];
	assert_int_equal(scale_theil_sen(gx, y, 12, &f), 0);
	assert_close(f.slope, -7.695585664335665);
	assert_close(f.lo, -7.956730769230769);
	assert_close(f.hi, -7.366071428571429);
	assert_int_equal(scale_verdict(&f, 0), SCALE_SHRINKS);
	assert_int_equal(scale_verdict(&f, 8), SCALE_FLAT);
}

/*
 * What the points can show: 2 prod(t!)/n! over the x groups. Two points
 * and three at three counts are flat whatever they read; 3 boots at each
 * of 3 counts can show 2 * 6^3 / 9! = 0.00119; 3 at each of 2 only 0.1.
 */
static void test_p_floor(void **state)
{
	const double x2[] = { 64, 480 }, y2[] = { 100, 9000 };
	const double x3[] = { 16, 128, 255 }, y3[] = { 100, 900, 2000 };
	const double x9[] = { 16, 16, 16, 128, 128, 128, 255, 255, 255 };
	const double y9[] = { 100, 101, 102, 900, 901, 902, 2000, 2001, 2002 };
	struct scale_fit f;

	(void)state;
	assert_int_equal(scale_theil_sen(x2, y2, 2, &f), 0);
	assert_close(f.p_floor, 1);
	assert_true(f.lo > 0);
	assert_int_equal(scale_verdict(&f, 0), SCALE_FLAT);
	assert_int_equal(scale_theil_sen(x3, y3, 3, &f), 0);
	assert_close(f.p_floor, 1.0 / 3);
	assert_int_equal(scale_verdict(&f, 0), SCALE_FLAT);
	assert_int_equal(scale_theil_sen(x9, y9, 9, &f), 0);
	assert_close(f.p_floor, 2.0 * 216 / 362880);
	assert_int_equal(scale_verdict(&f, 0), SCALE_GROWS);
	assert_int_equal(scale_theil_sen(x9 + 3, y9 + 3, 6, &f), 0);
	assert_close(f.p_floor, 0.1);
	assert_int_equal(scale_verdict(&f, 0), SCALE_FLAT);
	/* at 80% (z 1.2816) the 0.1 is within reach again */
	assert_int_equal(scale_theil_sen_z(x9 + 3, y9 + 3, 6, scale_z(0.2), &f), 0);
	assert_int_equal(scale_verdict(&f, 0), SCALE_GROWS);
}

/* MOVER by hand from the two scipy fits: flat A, growing B */
static void test_diff_gate(void **state)
{
	struct scale_threshold pct5 = { 5, true }, ns8 = { 8, false }, ns1 = { 1, false };
	struct scale_fit a, b;
	struct scale_diff d;

	(void)state;
	assert_int_equal(scale_theil_sen(fx, fy, 8, &a), 0);
	assert_int_equal(scale_theil_sen(gx, gy, 12, &b), 0);
	scale_diff(&a, &b, &d);
	assert_close(d.est, 7.6929632867132876);
	assert_close(d.lo, 7.361667694707009);
	assert_close(d.hi, 7.956907344358963);
	assert_close(scale_threshold_ns(&pct5, &a), 0.0026223776223776225 * 0.05);
	assert_true(scale_regression(&a, &d, &pct5));
	assert_true(scale_regression(&a, &d, &ns1));
	/* beyond the threshold is needed, not only a significant difference */
	assert_false(scale_regression(&a, &d, &ns8));
	/* A -- A: no difference */
	scale_diff(&b, &b, &d);
	assert_close(d.est, 0);
	assert_true(d.lo < 0 && d.hi > 0);
	assert_false(scale_regression(&b, &d, &pct5));
	/* the other way round: an improvement is no regression */
	scale_diff(&b, &a, &d);
	assert_false(scale_regression(&b, &d, &pct5));
}

static void test_median(void **state)
{
	double v[] = { 3, 1, 2 }, w[] = { 4, 1, 3, 2 };

	(void)state;
	assert_close(scale_median(v, 3), 2);
	assert_close(scale_median(w, 4), 2.5);
	assert_close(scale_median(w, 0), 0);
}

/* how far points repeat: the worst count's max/min - 1 */
static void test_spread(void **state)
{
	const double x[] = { 64, 64, 128, 128, 128, 255 };
	const double y[] = { 100, 101, 200, 202, 200.5, 300 }, z[] = { 0, 1 };

	(void)state;
	assert_close(scale_spread(x, y, 6), 0.01);
	assert_close(scale_spread(x, y, 2), 0.01);
	assert_close(scale_spread(x + 2, y + 2, 4), 0.01);
	assert_close(scale_spread(x + 4, y + 4, 2), 0);
	assert_close(scale_spread(x, y, 0), 0);
	assert_true(isinf(scale_spread(x, z, 2)));
}

static void test_bad_input(void **state)
{
	const double x[] = { 64, 64, 64 }, y[] = { 1, 2, 3 }, z[] = { 1, NAN, 3 };
	const double x2[] = { 64, 128, 256 };
	struct scale_fit f;

	(void)state;
	/* one count: no slope */
	assert_int_equal(scale_theil_sen(x, y, 3, &f), -EINVAL);
	assert_int_equal(scale_theil_sen(x, y, 0, &f), -EINVAL);
	assert_int_equal(scale_theil_sen(x2, z, 3, &f), -EINVAL);
	assert_int_equal(scale_theil_sen(x2, y, SCALE_MAX_POINTS + 1, &f), -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_scipy_grows),
		cmocka_unit_test(test_scipy_flat),
		cmocka_unit_test(test_shrinks),
		cmocka_unit_test(test_p_floor),
		cmocka_unit_test(test_diff_gate),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
