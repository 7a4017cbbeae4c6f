// SPDX-License-Identifier: GPL-2.0
/*
 * test_audit.c - a battery judged as one family (lib/stats/audit.h):
 * the normal quantile at any level and the interval it widens
 * (lib/stats/scale.h), Benjamini-Hochberg and Holm by hand, p by
 * inverting the interval, the ranking, and audit_run() on a battery of
 * a growing entry, a flat one and a candidate function, gated.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "lib/stats/audit.h"

#define assert_close(a, b) assert_true(fabs((a) - (b)) <= 1e-9 * (1 + fabs((double)(b))))

/* test_scale.c's sweep: 64..480 possible CPUs, 3 runs each, one preempted */
static const double gx[] = { 64, 64, 64, 128, 128, 128, 256, 256, 256, 480, 480, 480 };
static const double gy[] = { 1100, 1180, 1150, 1620, 1590, 9000,
			     2630, 2700, 2580, 4300, 4410, 4350 };
/* a function inside it: about 6.25 ns per CPU of its 7.7 */
static const double cy[] = { 900, 950, 930, 1300, 1280, 1290,
			     2100, 2180, 2090, 3500, 3560, 3530 };
/* flat within noise */
static const double fx[] = { 64, 64, 128, 128, 256, 256, 480, 480 };
static const double fy[] = { 500, 510, 505, 498, 502, 507, 499, 511 };

/* z at 5%, 1%, its inverse, and the ends */
static void test_z(void **state)
{
	(void)state;
	assert_close(scale_z(0.05), SCALE_Z95);
	assert_true(fabs(scale_z(0.01) - 2.5758293035489) < 1e-12);
	assert_close(scale_alpha(scale_z(0.0125)), 0.0125);
	assert_close(scale_alpha(SCALE_Z95), 0.05);
	assert_true(scale_z(1) == 0);
	assert_true(isinf(scale_z(0)));
	assert_true(scale_alpha(0) == 1);
}

/* the interval at 95% is scale_theil_sen()'s; at 99.9% it is wider */
static void test_level(void **state)
{
	struct scale_fit a, b, c;

	(void)state;
	assert_int_equal(scale_theil_sen(gx, gy, 12, &a), 0);
	assert_int_equal(scale_theil_sen_z(gx, gy, 12, SCALE_Z95, &b), 0);
	assert_close(a.lo, b.lo);
	assert_close(a.hi, b.hi);
	assert_int_equal(scale_theil_sen_z(gx, gy, 12, scale_z(0.001), &c), 0);
	assert_close(c.slope, a.slope);
	assert_true(c.lo < a.lo && c.hi > a.hi);
	/* var = (12 11 29 - 4 x 3 2 11) / 18 = 198 */
	assert_close(a.sigma, sqrt(198));
	assert_int_equal(scale_theil_sen_z(gx, gy, 12, -1, &c), -EINVAL);
	assert_int_equal(scale_theil_sen_z(gx, gy, 12, NAN, &c), -EINVAL);
}

/*
 * By hand, q 0.05, 4 p-values 0.01 0.04 0.03 0.5: BH's steps 0.0125
 * 0.025 0.0375 0.05 pass at rank 1 only (0.03 > 0.025, 0.04 > 0.0375):
 * one level, 0.0125. Holm: 0.01 <= 0.05/4 rejected, 0.03 > 0.05/3 kept,
 * and the rest take 0.05/3.
 */
static void test_adjust(void **state)
{
	const double p[] = { 0.01, 0.04, 0.03, 0.5 }, all[] = { 0.04, 0.001, 0.02, 0.03 };
	bool rej[4];
	double lv[4];
	unsigned int i;

	(void)state;
	assert_int_equal(audit_adjust(AUDIT_BH, p, 4, 0.05, lv, rej), 0);
	for (i = 0; i < 4; i++)
		assert_close(lv[i], 0.0125);
	assert_true(rej[0] && !rej[1] && !rej[2] && !rej[3]);
	assert_int_equal(audit_adjust(AUDIT_HOLM, p, 4, 0.05, lv, rej), 0);
	assert_close(lv[0], 0.0125);
	assert_close(lv[1], 0.05 / 3);
	assert_close(lv[2], 0.05 / 3);
	assert_close(lv[3], 0.05 / 3);
	assert_true(rej[0] && !rej[1] && !rej[2] && !rej[3]);
	assert_int_equal(audit_adjust(AUDIT_NONE, p, 4, 0.05, lv, rej), 0);
	assert_true(rej[0] && rej[1] && rej[2] && !rej[3]);
	/* BH: 0.04 <= 0.05 at rank 4 carries every one; Holm stops at 0.02 > 0.05/3 */
	assert_int_equal(audit_adjust(AUDIT_BH, all, 4, 0.05, lv, rej), 0);
	assert_close(lv[0], 0.05);
	assert_true(rej[0] && rej[1] && rej[2] && rej[3]);
	assert_int_equal(audit_adjust(AUDIT_HOLM, all, 4, 0.05, lv, rej), 0);
	assert_close(lv[1], 0.0125);
	assert_close(lv[2], 0.05 / 3);
	assert_true(rej[1] && !rej[0] && !rej[2] && !rej[3]);
	assert_int_equal(audit_adjust(AUDIT_BH, p, 4, 0, lv, rej), -EINVAL);
	assert_int_equal(audit_adjust(AUDIT_BH, p, 4, 1, lv, rej), -EINVAL);
	assert_int_equal(audit_adjust(AUDIT_BH, p, 0, 0.05, lv, rej), 0);
}

/* p inverts the interval: at confidence 1 - p it just holds the null */
static void test_p(void **state)
{
	struct audit_points g = { gx, gy, 12 }, f = { fx, fy, 8 }, c = { gx, cy, 12 };
	struct scale_fit in, out;
	double p;

	(void)state;
	assert_int_equal(audit_p_fit(&g, 0, &p), 0);
	assert_true(p > 0.001 && p < 0.01);
	assert_int_equal(scale_theil_sen_z(gx, gy, 12, scale_z(p) * (1 - 1e-9), &in), 0);
	assert_int_equal(scale_theil_sen_z(gx, gy, 12, scale_z(p) * 1.01, &out), 0);
	assert_true(in.lo > 0 && out.lo <= 0);
	assert_int_equal(audit_p_fit(&f, 0, &p), 0);
	assert_true(p > 0.5);
	/* --flat 9 above the whole interval: p 1 */
	assert_int_equal(audit_p_fit(&g, 9, &p), 0);
	assert_true(p == 1);
	assert_int_equal(audit_p_diff(&f, &f, &p), 0);
	assert_true(p == 1);
	assert_int_equal(audit_p_diff(&c, &g, &p), 0);
	assert_true(p < 0.01);
}

/* p is never below what the points can show: 1 of 2 points, 1/3 of 3 */
static void test_p_floor(void **state)
{
	const double x2[] = { 64, 480 }, y2[] = { 100, 9000 };
	const double x3[] = { 16, 128, 255 }, y3[] = { 100, 900, 2000 };
	struct audit_points two = { x2, y2, 2 }, three = { x3, y3, 3 };
	double p;

	(void)state;
	assert_int_equal(audit_p_fit(&two, 0, &p), 0);
	assert_true(p == 1);
	assert_int_equal(audit_p_fit(&three, 0, &p), 0);
	assert_close(p, 1.0 / 3);
	assert_int_equal(audit_p_diff(&three, &three, &p), 0);
	assert_true(p == 1);
}

static void test_rank(void **state)
{
	const double cost[] = { 5, NAN, 9, 5, -1 };
	unsigned int o[5];

	(void)state;
	audit_rank(cost, 5, o);
	assert_int_equal(o[0], 2);
	assert_int_equal(o[1], 0);
	assert_int_equal(o[2], 3);
	assert_int_equal(o[3], 4);
	assert_int_equal(o[4], 1);
}

/*
 * B grows, with show_stat inside it at 6.25 of its 7.70 ns/CPU (81%);
 * A grows the other way round, where show_stat cannot be inside it; the
 * flat entry stays flat on both sides and is no regression; BH over 2
 * entries, one p small enough: the level is q 1/2.
 */
static void test_run(void **state)
{
	struct audit_points g = { gx, gy, 12 }, f = { fx, fy, 8 }, c = { gx, cy, 12 };
	struct audit_entry e[2] = {
		{ .name = "flat", .variant = "x", .pt = { f, f } },
		{ .name = "read", .variant = "stat", .pt = { c, g } },
	};
	struct audit_cand cd[2] = {
		{ .func = "show_stat", .pt = { g, c } },
		{ .func = "elsewhere", .entry = "other", .pt = { g, g } },
	};
	struct audit a = { .e = e, .n = 2, .c = cd, .nc = 2, .nr_sides = 2,
			   .method = AUDIT_BH, .q = 0.05 };

	(void)state;
	assert_int_equal(audit_run(&a), 0);
	assert_int_equal(a.order[0], 1);
	assert_int_equal(a.order[1], 0);
	assert_int_equal(e[0].s[0].verdict, SCALE_FLAT);
	assert_int_equal(e[0].s[1].cand, -1);
	assert_int_equal(e[1].s[1].verdict, SCALE_GROWS);
	assert_int_equal(a.grows[0], 1);
	assert_int_equal(a.grows[1], 1);
	/* one of the two p is <= 0.025, the other above 0.05: level 0.025 */
	assert_close(a.level[1], 0.025);
	assert_close(e[1].s[1].fit.z, scale_z(0.025));
	assert_int_equal(e[1].s[1].cand, 0);
	assert_true(fabs(e[1].s[1].share - 0.8122) < 1e-4);
	/* A: show_stat's interval lies above the whole entry's: not inside it */
	assert_int_equal(e[1].s[0].cand, -1);
	assert_true(e[1].gated && e[0].gated);
	assert_true(e[1].diff.est > 0);
	assert_true(e[1].regression);
	assert_false(e[0].regression);
	assert_int_equal(a.regressions, 1);
	/* a threshold above the growth: no regression */
	e[1].threshold_ns = 2;
	audit_free(&a);
	assert_int_equal(audit_run(&a), 0);
	assert_int_equal(a.regressions, 0);
	assert_int_equal(a.not_repeatable, 0);
	audit_free(&a);
	/* counted: a side whose boots at one count spread past the bound is
	 * not repeatable, and its gate never a pass, a regression or not */
	e[1].threshold_ns = 0;
	a.spread = 1e-9;
	assert_int_equal(audit_run(&a), 0);
	assert_true(e[1].s[0].spread > 0 || e[1].s[1].spread > 0);
	assert_true(e[1].not_repeatable);
	assert_false(e[1].regression);
	assert_int_equal(a.regressions, 0);
	assert_int_equal(a.not_repeatable, 1 + (e[0].s[0].spread > 1e-9));
	audit_free(&a);
	a.spread = 0;
	a.q = 1;
	assert_int_equal(audit_run(&a), -EINVAL);
}

/*
 * counted: two boots at each of three counts on each side, B a loop of
 * 1217 insn/CPU more, A's boots spread by 0.1%. By p the gate cannot
 * see it (six points per side, a floor above the family's level); by
 * size it does, while a difference inside the threshold is none.
 */
static void test_counted_gate(void **state)
{
	static const double x[6] = { 64, 64, 128, 128, 255, 255 };
	double ya[6], yb[6];
	struct audit_entry e[1] = {
		{ .name = "proc-version", .variant = "read", .threshold_ns = 1,
		  .pt = { { x, ya, 6 }, { x, yb, 6 } } },
	};
	/* q 0.01, as ten entries' family would leave each about */
	struct audit a = { .e = e, .n = 1, .nr_sides = 2, .method = AUDIT_BH, .q = 0.01,
			   .flat = 1 };
	unsigned int i;

	(void)state;
	for (i = 0; i < 6; i++) {
		ya[i] = (3000 + 20 * x[i]) * (i % 2 ? 1.001 : 1);
		yb[i] = 3000 + 1237 * x[i];
	}
	assert_int_equal(audit_run(&a), 0);
	assert_true(e[0].diff.lo > 0);
	assert_true(e[0].diff_p > e[0].diff_level);
	assert_false(e[0].regression);	/* timed: by p, and p has a floor */
	audit_free(&a);
	a.spread = 0.005;
	assert_int_equal(audit_run(&a), 0);
	assert_false(e[0].not_repeatable);
	assert_true(e[0].regression);
	assert_int_equal(a.regressions, 1);
	audit_free(&a);
	/* the same step, but under the entry's threshold */
	e[0].threshold_ns = 2000;
	assert_int_equal(audit_run(&a), 0);
	assert_false(e[0].regression);
	audit_free(&a);
	/* past the spread: not repeatable, no regression */
	e[0].threshold_ns = 1;
	a.spread = 0.0005;
	assert_int_equal(audit_run(&a), 0);
	assert_true(e[0].not_repeatable);
	assert_false(e[0].regression);
	assert_int_equal(a.not_repeatable, 1);
	audit_free(&a);
}

/* points y = a + b x at 3 counts, 2 boots each (exact: counted) */
static void line(double *x, double *y, double a, double b)
{
	static const double p[] = { 16, 16, 128, 128, 255, 255 };
	unsigned int i;

	for (i = 0; i < 6; i++) {
		x[i] = p[i];
		y[i] = a + b * p[i];
	}
}

/*
 * by instructions: netns grows 10 a CPU, 6 of them in f1 (60%: named
 * alone); stat grows 10, in f3 4, f1 3, f2 3 (f3 and f1, ties by index:
 * 70%); a flat entry is carried by nothing; a function of another entry
 * counts for none of these; an entry whose functions shrink in sum names
 * none; with only candidates, the functions are empty.
 */
static void test_carry(void **state)
{
	double x[12][6], y[12][6];
	static const double slope[] = { 10, 10, 0, 6, 3, 1, 3, 3, 4, 50, -1, 0 };
	struct audit_points pt[12];
	struct audit_entry e[3] = {
		{ .name = "netns", .variant = "netns" },
		{ .name = "stat", .variant = "read" },
		{ .name = "flat", .variant = "x" },
	};
	struct audit_func f[7] = {
		{ .func = "f1", .entry = "netns" }, { .func = "f2", .entry = "netns" },
		{ .func = "f3", .entry = "netns" }, { .func = "f1", .entry = "stat" },
		{ .func = "f2", .entry = "stat" }, { .func = "f3", .entry = "stat" },
		{ .func = "elsewhere", .entry = "other" },
	};
	struct audit a = { .e = e, .n = 3, .f = f, .nf = 7, .nr_sides = 1,
			   .method = AUDIT_NONE, .q = 0.05, .flat = 1 };
	unsigned int i;

	(void)state;
	for (i = 0; i < 12; i++) {
		line(x[i], y[i], 1000, slope[i]);
		pt[i] = (struct audit_points){ x[i], y[i], 6 };
	}
	for (i = 0; i < 3; i++)
		e[i].pt[0] = pt[i];
	for (i = 0; i < 7; i++)
		f[i].pt[0] = pt[3 + i];
	assert_int_equal(audit_run(&a), 0);
	assert_int_equal(e[0].s[0].verdict, SCALE_GROWS);
	assert_int_equal(e[0].s[0].carry.nr, 3);
	assert_close(e[0].s[0].carry.total, 10);
	assert_int_equal(e[0].s[0].carry.n, 1);
	assert_int_equal(e[0].s[0].carry.f[0], 0);
	assert_close(e[0].s[0].carry.share[0], 0.6);
	assert_true(e[0].s[0].carry.half);
	assert_int_equal(e[1].s[0].carry.n, 2);
	assert_int_equal(e[1].s[0].carry.f[0], 5);
	assert_int_equal(e[1].s[0].carry.f[1], 3);
	assert_close(e[1].s[0].carry.share[1], 0.3);
	assert_true(e[1].s[0].carry.half);
	assert_int_equal(e[2].s[0].verdict, SCALE_FLAT);
	assert_int_equal(e[2].s[0].carry.nr, 0);
	assert_int_equal(e[2].s[0].carry.n, 0);
	audit_free(&a);
	/* the functions of stat shrink in sum: nothing named */
	f[5].pt[0] = pt[10];
	f[3].pt[0] = pt[10];
	f[4].pt[0] = pt[10];
	assert_int_equal(audit_run(&a), 0);
	assert_int_equal(e[1].s[0].carry.nr, 3);
	assert_int_equal(e[1].s[0].carry.n, 0);
	assert_false(e[1].s[0].carry.half);
	audit_free(&a);
	a.nf = 0;
	assert_int_equal(audit_run(&a), 0);
	assert_int_equal(e[0].s[0].carry.nr, 0);
	audit_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_z),
		cmocka_unit_test(test_level),
		cmocka_unit_test(test_adjust),
		cmocka_unit_test(test_p),
		cmocka_unit_test(test_p_floor),
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_counted_gate),
		cmocka_unit_test(test_carry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
