// SPDX-License-Identifier: GPL-2.0
/*
 * test_trend.c - change points (lib/stats/trend.h): the energy statistic by
 * hand and against an independent Python reference (tests/trend_ref.py,
 * its output in tests/fixtures/trend-ref.txt: Q of every split, the best
 * split over both ends, the permutation p and the shuffles drawn, every
 * change point), planted
 * steps of several sizes and noise levels found within one run of where
 * they are, an excursion out and back, stationary noise left alone,
 * --window on a long history,
 * the minimum change, and bad input.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/stats/trend.h"

#define assert_close(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

/* ---- synthetic series ---- */

/* a Gaussian from splitmix64 and Box-Muller: the tests' own noise */
static double gauss(uint64_t *s)
{
	uint64_t z1, z2;
	double u1, u2;

	z1 = (*s += 0x9e3779b97f4a7c15ull);
	z1 = (z1 ^ (z1 >> 30)) * 0xbf58476d1ce4e5b9ull;
	z1 = (z1 ^ (z1 >> 27)) * 0x94d049bb133111ebull;
	z2 = (*s += 0x9e3779b97f4a7c15ull);
	z2 = (z2 ^ (z2 >> 30)) * 0xbf58476d1ce4e5b9ull;
	z2 = (z2 ^ (z2 >> 27)) * 0x94d049bb133111ebull;
	u1 = (((z1 ^ (z1 >> 31)) >> 11) + 1) * 0x1.0p-53;
	u2 = ((z2 ^ (z2 >> 31)) >> 11) * 0x1.0p-53;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* @n runs around 1000 with relative noise @noise, times @f[i] from run @at[i] on */
static void planted(double *x, unsigned int n, double noise, const unsigned int *at,
		    const double *f, unsigned int steps, uint64_t seed)
{
	unsigned int i, k;
	double level = 1000;

	for (i = 0; i < n; i++) {
		for (k = 0; k < steps; k++)
			if (i == at[k])
				level *= f[k];
		x[i] = level * (1 + noise * gauss(&seed));
	}
}

/* ---- the statistic by hand ---- */

/*
 * 5 5 5 | 6 6 6: every cross pair differs by 1 and no pair within a
 * side does, E = 2 * 9 / 9 = 2, Q = 3 * 3 / 6 * 2 = 3; t = 4 would leave
 * 2 runs on the right. With a fourth 6, t = 3: E = 2 * 12 / 12 = 2,
 * Q = 12 / 7 * 2; t = 4 (5 5 5 6 | 6 6 6): 9 cross pairs of 1 out of 12,
 * 3 of the left's 6 pairs, E = 2 * 9 / 12 - 3 / 6 = 1, Q = 12 / 7.
 */
static void test_energy_by_hand(void **state)
{
	const double x[] = { 5, 5, 5, 6, 6, 6, 6 };
	double q[8];

	(void)state;
	assert_int_equal(trend_energy(x, 6, q), 3);
	assert_close(q[3], 3, 1e-12);
	assert_true(q[0] == 0 && q[1] == 0 && q[2] == 0 && q[4] == 0);
	assert_int_equal(trend_energy(x, 7, q), 3);
	assert_close(q[3], 12.0 / 7 * 2, 1e-12);
	assert_close(q[4], 12.0 / 7, 1e-12);
	assert_true(q[5] == 0 && q[7] == 0);
	/* fewer than two sides of TREND_MIN_SEG: nothing to split */
	assert_int_equal(trend_energy(x, 5, q), 0);
}

/* a constant series: every shuffle reaches Q, the test stops at TREND_STOP */
static void test_constant(void **state)
{
	double x[40], p;
	unsigned int i, perms, nr;
	struct trend_cfg cfg = TREND_CFG_INIT;
	struct trend_cp *cp;

	(void)state;
	for (i = 0; i < 40; i++)
		x[i] = 7;
	assert_int_equal(trend_test(x, 40, 20, 0.001, 1, &p, &perms), 0);
	assert_int_equal(perms, TREND_STOP);
	assert_close(p, 1, 1e-12);
	assert_int_equal(trend_detect(x, 40, &cfg, &cp, &nr), 0);
	assert_int_equal(nr, 0);
	assert_null(cp);
}

/* ---- against the Python reference ---- */

struct ref_case {
	char name[32];
	struct trend_cfg cfg;
	unsigned int n;
	double x[128];
	double q[128];
	unsigned int t, perms;
	double p;
	unsigned int span_t, span_k;
	double span_q;
};

static double *read_doubles(char *s, double *v, unsigned int n)
{
	unsigned int i;
	char *end;

	for (i = 0; i < n; i++) {
		v[i] = strtod(s, &end);
		assert_true(end != s);
		s = end;
	}
	return v;
}

/* one change point line of the fixture against @cp */
static void check_cp(const char *line, const struct trend_cp *cp)
{
	unsigned int idx, tlo, thi, perms;
	double p, est;

	assert_int_equal(sscanf(line, "cp %u %u %u %lf %u %lf", &idx, &tlo, &thi, &p, &perms,
				&est), 6);
	assert_int_equal(cp->idx, idx);
	assert_int_equal(cp->tlo, tlo);
	assert_int_equal(cp->thi, thi);
	assert_int_equal(cp->perms, perms);
	assert_true(cp->p == p);
	assert_close(cp->change.est, est, 1e-12);
}

/* the statistic, the test and the search of one case */
static void check_case(const struct ref_case *c, FILE *f)
{
	char line[8192];
	struct trend_cp *cp;
	unsigned int i, nr, k = 0, perms, st, sk;
	double q[129], p;

	assert_int_equal(trend_energy(c->x, c->n, q), c->t);
	for (i = TREND_MIN_SEG; i + TREND_MIN_SEG <= c->n; i++)
		assert_close(q[i], c->q[i - TREND_MIN_SEG], 1e-9 * fabs(c->q[i - TREND_MIN_SEG]));
	assert_int_equal(trend_test(c->x, c->n, c->t, c->cfg.alpha,
				    trend_seed(c->cfg.seed, 0, c->n), &p, &perms), 0);
	assert_int_equal(perms, c->perms);
	assert_true(p == c->p);
	assert_close(trend_span(c->x, c->n, &st, &sk), c->span_q, 1e-9 * fabs(c->span_q));
	assert_int_equal(st, c->span_t);
	assert_int_equal(sk, c->span_k);
	assert_int_equal(trend_detect(c->x, c->n, &c->cfg, &cp, &nr), 0);
	while (fgets(line, sizeof(line), f) && strncmp(line, "end", 3)) {
		assert_true(k < nr);
		check_cp(line, &cp[k++]);
	}
	assert_int_equal(k, nr);
	free(cp);
}

static void test_reference(void **state)
{
	FILE *f = fopen("tests/fixtures/trend-ref.txt", "r");
	static struct ref_case c;
	static char line[8192];
	unsigned int cases = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "case ", 5))
			continue;
		memset(&c, 0, sizeof(c));
		assert_int_equal(sscanf(line, "case %31s %lf %lf %u %" SCNu64 " %u", c.name,
					&c.cfg.alpha, &c.cfg.min_change, &c.cfg.window,
					&c.cfg.seed, &c.n), 6);
		assert_true(c.n <= 128);
		assert_non_null(fgets(line, sizeof(line), f));
		read_doubles(line + 2, c.x, c.n);
		assert_non_null(fgets(line, sizeof(line), f));
		read_doubles(line + 2, c.q, c.n - 2 * TREND_MIN_SEG + 1);
		assert_non_null(fgets(line, sizeof(line), f));
		assert_int_equal(sscanf(line, "test %u %lf %u", &c.t, &c.p, &c.perms), 3);
		assert_non_null(fgets(line, sizeof(line), f));
		assert_int_equal(sscanf(line, "span %u %u %lf", &c.span_t, &c.span_k, &c.span_q), 3);
		check_case(&c, f);
		cases++;
	}
	fclose(f);
	assert_int_equal(cases, 7);
}

/* ---- planted steps, noise, windows ---- */

/*
 * One step of 10, 20 or 50% in 120 runs of 1, 2 or 4% noise (at least
 * 5 noise sd), at run 72 (the real-run figure's place): found there
 * within one run, and nothing else, for 10 seeds each. Weaker steps are
 * make perf's table.
 */
static void test_planted_steps(void **state)
{
	static const double size[] = { 0.10, 0.20, 0.50 }, noise[] = { 0.01, 0.02, 0.04 };
	const unsigned int at = 72;
	struct trend_cfg cfg = TREND_CFG_INIT;
	unsigned int a, b, seed, nr;
	struct trend_cp *cp;
	double x[120], f;

	(void)state;
	for (a = 0; a < 3; a++)
		for (b = 0; b < 3; b++) {
			if (size[a] / noise[b] < 5)
				continue;
			f = 1 + size[a];
			for (seed = 1; seed <= 10; seed++) {
				planted(x, 120, noise[b], &at, &f, 1, seed * 7919);
				assert_int_equal(trend_detect(x, 120, &cfg, &cp, &nr), 0);
				assert_int_equal(nr, 1);
				assert_in_range(cp[0].idx, at - 1, at + 1);
				assert_true(cp[0].p <= cfg.alpha);
				assert_close(cp[0].change.est, size[a], 3 * noise[b]);
				assert_true(cp[0].change.lo < cp[0].change.est);
				assert_true(cp[0].change.est < cp[0].change.hi);
				assert_int_equal(cp[0].lo, 0);
				assert_int_equal(cp[0].hi, 120);
				free(cp);
			}
		}
}

/* up 15% at 40, down 12% at 90, up 30% at 130 of 160 runs: all three, in order */
static void test_several_steps(void **state)
{
	static const unsigned int at[] = { 40, 90, 130 };
	static const double f[] = { 1.15, 0.88, 1.30 };
	struct trend_cfg cfg = TREND_CFG_INIT;
	unsigned int seed, nr, k;
	struct trend_cp *cp;
	double x[160];

	(void)state;
	for (seed = 1; seed <= 10; seed++) {
		planted(x, 160, 0.02, at, f, 3, seed);
		assert_int_equal(trend_detect(x, 160, &cfg, &cp, &nr), 0);
		assert_int_equal(nr, 3);
		for (k = 0; k < 3; k++) {
			assert_in_range(cp[k].idx, at[k] - 1, at[k] + 1);
			assert_int_equal(cp[k].lo, k ? cp[k - 1].idx : 0);
			assert_int_equal(cp[k].hi, k < 2 ? cp[k + 1].idx : 160);
			assert_true((cp[k].after > cp[k].before) == (f[k] > 1));
		}
		free(cp);
	}
}

/*
 * Out and back: 6 runs 20% up at run 50 of 120 (two nights of a
 * regression, then its fix), 2% noise. No split with one end fixed
 * separates it; searched over both ends, both edges are found.
 */
static void test_excursion(void **state)
{
	static const unsigned int at[] = { 50, 56 };
	static const double f[] = { 1.2, 1 / 1.2 };
	struct trend_cfg cfg = TREND_CFG_INIT;
	unsigned int seed, nr, k;
	struct trend_cp *cp;
	double x[120];

	(void)state;
	for (seed = 1; seed <= 10; seed++) {
		planted(x, 120, 0.02, at, f, 2, seed * 31);
		assert_int_equal(trend_detect(x, 120, &cfg, &cp, &nr), 0);
		assert_int_equal(nr, 2);
		for (k = 0; k < 2; k++)
			assert_in_range(cp[k].idx, at[k] - 1, at[k] + 1);
		assert_true(cp[0].change.est > 0.1 && cp[1].change.est < -0.1);
		free(cp);
	}
}

/* 2% noise, 300 runs, no step: no change point for 10 seeds at the default alpha */
static void test_stationary(void **state)
{
	struct trend_cfg cfg = TREND_CFG_INIT;
	unsigned int seed, nr;
	struct trend_cp *cp;
	double x[300];

	(void)state;
	cfg.min_change = 0;
	for (seed = 1; seed <= 10; seed++) {
		planted(x, 300, 0.02, NULL, NULL, 0, seed);
		assert_int_equal(trend_detect(x, 300, &cfg, &cp, &nr), 0);
		assert_int_equal(nr, 0);
	}
}

/*
 * 3000 runs, steps at 1000 and 2000, tested in windows of 50 (the
 * default), 20 (about the smallest that can reach p 0.001) and 200:
 * found, and each test saw at most a window of runs.
 */
static void test_window(void **state)
{
	static const unsigned int at[] = { 1000, 2000 }, win[] = { TREND_WINDOW, 20, 200 };
	static const double f[] = { 1.2, 1 / 1.2 };
	static double x[3000];
	struct trend_cfg cfg = TREND_CFG_INIT;
	unsigned int k, w, nr;
	struct trend_cp *cp;

	(void)state;
	planted(x, 3000, 0.01, at, f, 2, 42);
	for (w = 0; w < 3; w++) {
		cfg.window = win[w];
		assert_int_equal(trend_detect(x, 3000, &cfg, &cp, &nr), 0);
		assert_int_equal(nr, 2);
		for (k = 0; k < 2; k++) {
			assert_in_range(cp[k].idx, at[k] - 1, at[k] + 1);
			assert_true(cp[k].thi - cp[k].tlo <= win[w]);
		}
		free(cp);
	}
}

/* a 3% step in 0.5% noise: significant, kept at --min-change 2, gone at 5 */
static void test_min_change(void **state)
{
	const unsigned int at = 60;
	const double f = 1.03;
	struct trend_cfg cfg = TREND_CFG_INIT;
	struct trend_cp *cp;
	unsigned int nr;
	double x[120];

	(void)state;
	planted(x, 120, 0.005, &at, &f, 1, 3);
	cfg.min_change = 0.02;
	assert_int_equal(trend_detect(x, 120, &cfg, &cp, &nr), 0);
	assert_int_equal(nr, 1);
	assert_in_range(cp[0].idx, at - 1, at + 1);
	free(cp);
	cfg.min_change = 0.05;
	assert_int_equal(trend_detect(x, 120, &cfg, &cp, &nr), 0);
	assert_int_equal(nr, 0);
}

/* the same data and seed give the same output; the seed moves only p */
static void test_reproducible(void **state)
{
	const unsigned int at = 30;
	const double f = 1.1;
	struct trend_cfg cfg = TREND_CFG_INIT;
	struct trend_cp *a, *b;
	unsigned int na, nb;
	double x[60];

	(void)state;
	planted(x, 60, 0.02, &at, &f, 1, 5);
	assert_int_equal(trend_detect(x, 60, &cfg, &a, &na), 0);
	assert_int_equal(trend_detect(x, 60, &cfg, &b, &nb), 0);
	assert_int_equal(na, 1);
	assert_int_equal(nb, 1);
	assert_memory_equal(a, b, sizeof(*a));
	free(b);
	cfg.seed = 2;
	assert_int_equal(trend_detect(x, 60, &cfg, &b, &nb), 0);
	assert_int_equal(nb, 1);
	assert_int_equal(a[0].idx, b[0].idx);
	free(a);
	free(b);
}

static void test_bad_input(void **state)
{
	double x[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }, p;
	struct trend_cfg cfg = TREND_CFG_INIT;
	struct trend_cp *cp = (void *)1;
	unsigned int nr = 9, perms;

	(void)state;
	/* too short to split: no change point, no error */
	assert_int_equal(trend_detect(x, 5, &cfg, &cp, &nr), 0);
	assert_int_equal(nr, 0);
	assert_null(cp);
	x[3] = 0;
	assert_int_equal(trend_detect(x, 12, &cfg, &cp, &nr), -EINVAL);
	x[3] = NAN;
	assert_int_equal(trend_detect(x, 12, &cfg, &cp, &nr), -EINVAL);
	x[3] = INFINITY;
	assert_int_equal(trend_detect(x, 12, &cfg, &cp, &nr), -EINVAL);
	x[3] = 4;
	cfg.window = 5;
	assert_int_equal(trend_detect(x, 12, &cfg, &cp, &nr), -EINVAL);
	cfg.window = TREND_WINDOW;
	cfg.alpha = TREND_MIN_ALPHA / 2;
	assert_int_equal(trend_detect(x, 12, &cfg, &cp, &nr), -EINVAL);
	cfg.alpha = 1;
	assert_int_equal(trend_detect(x, 12, &cfg, &cp, &nr), -EINVAL);
	cfg.alpha = 0.001;
	cfg.min_change = -0.1;
	assert_int_equal(trend_detect(x, 12, &cfg, &cp, &nr), -EINVAL);
	assert_int_equal(trend_test(x, 12, 2, 0.01, 1, &p, &perms), -EINVAL);
	assert_int_equal(trend_test(x, 12, 10, 0.01, 1, &p, &perms), -EINVAL);
	/* C(16, 8) = 12870 < 20 / 0.001 <= C(18, 9) = 48620 */
	assert_int_equal(trend_min_window(0.001), 18);
	assert_int_equal(trend_min_window(0.05), 12);
	assert_int_equal(trend_min_window(TREND_MIN_ALPHA), 28);
	assert_int_equal(trend_nr_perms(0.001), 1999);
	assert_int_equal(trend_nr_perms(0.05), 199);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_energy_by_hand),
		cmocka_unit_test(test_constant),
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_planted_steps),
		cmocka_unit_test(test_several_steps),
		cmocka_unit_test(test_excursion),
		cmocka_unit_test(test_stationary),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_min_change),
		cmocka_unit_test(test_reproducible),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
