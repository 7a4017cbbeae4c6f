// SPDX-License-Identifier: GPL-2.0
/*
 * test_history.c - a history of results (lib/stats/history.h) and the shared
 * escapes (lib/subcmd/textfmt.h): files of a directory by name, hidden and
 * other files left out; the runs read from the gate-ref fixtures as
 * compare takes them; time order whatever the order given, equal stamps
 * and missing ones keeping it; the unit, timestamp and reference refused
 * with the line to print; the pairing with a control, its refusals, and
 * on synthetic nights with shared level shifts of up to +-20%: the
 * subject's +10% step found within one night and nothing else, where the
 * subject alone is fooled by the shifts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/results/csv.h"
#include "lib/results/fileset.h"
#include "lib/stats/history.h"
#include "lib/results/meta.h"
#include "lib/subcmd/textfmt.h"
#include "lib/stats/trend.h"
#include "tests/synth_nights.h"

#define FIX "tests/fixtures/gate-ref/"

static struct results *load(const char *path)
{
	struct csv_error err;
	struct results *r = NULL;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	assert_int_equal(csv_read(f, &r, &err), 0);
	fclose(f);
	return r;
}

/* read @path as file @fi of @h, its timestamp set to @stamp ("": none) */
static int read_one(struct history *h, const char *path, const char *stamp, char *why, size_t len)
{
	struct results *r = load(path);
	time_t t;
	int ret;

	if (*stamp) {
		struct tm tm = { 0 };

		assert_non_null(strptime(stamp, "%Y-%m-%dT%H:%M:%SZ", &tm));
		t = timegm(&tm);
		assert_int_equal(meta_timestamp(&r->meta, t), 0);
	}
	assert_int_equal(history_add_file(h, NULL, path), 0);
	ret = history_read(h, h->nf - 1, r, CMP_STAT_TM10, why, len);
	results_free(r);
	return ret;
}

static void test_dir(void **state)
{
	char dir[] = "/tmp/ksb-hist.XXXXXX", p[256];
	static const char *const names[] = { "b.csv", "a.csv", ".tmp.csv", "notes.txt", "c.csv" };
	struct history h = { 0 };
	unsigned int i;
	char why[512];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(history_add_dir(&h, dir, why, sizeof(why)), -ENODATA);
	for (i = 0; i < 5; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		f = fopen(p, "w");
		assert_non_null(f);
		fclose(f);
	}
	snprintf(p, sizeof(p), "%s/", dir);
	assert_int_equal(history_add_dir(&h, p, why, sizeof(why)), 0);
	assert_int_equal(h.nf, 3);
	snprintf(p, sizeof(p), "%s/a.csv", dir);
	assert_string_equal(h.f[0].path, p);
	snprintf(p, sizeof(p), "%s/c.csv", dir);
	assert_string_equal(h.f[2].path, p);
	assert_int_equal(h.f[2].given, 2);
	for (i = 0; i < 5; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
	assert_int_equal(history_add_dir(&h, dir, why, sizeof(why)), -ENOENT);
	history_free(&h);
}

/* given newest first, taken oldest first; the runs follow their files */
static void test_read_sort(void **state)
{
	struct history h = { 0 };
	char why[512] = "";

	(void)state;
	assert_int_equal(read_one(&h, FIX "r528_1.csv", "2025-01-03T02:00:00Z", why, sizeof(why)), 0);
	assert_int_equal(read_one(&h, FIX "r480a_1.csv", "2025-01-01T02:00:00Z", why, sizeof(why)), 0);
	assert_int_equal(read_one(&h, FIX "r480b_1.csv", "2025-01-02T02:00:00Z", why, sizeof(why)), 0);
	assert_int_equal(h.ns, 2);
	assert_string_equal(h.s[0].variant, "old");
	assert_string_equal(h.s[1].variant, "new");
	assert_int_equal(h.s[0].n, 6);			/* 2 runs a file */
	assert_string_equal(h.unit, "ns");
	assert_int_equal(h.frac_bits, 2);
	assert_int_equal(history_missing_stamps(&h), 0);
	assert_int_equal(history_sort(&h), 0);
	assert_true(h.by_time);
	assert_string_equal(h.f[0].path, FIX "r480a_1.csv");
	assert_string_equal(h.f[1].path, FIX "r480b_1.csv");
	assert_string_equal(h.f[2].path, FIX "r528_1.csv");
	assert_int_equal(h.f[0].given, 1);
	assert_int_equal(h.s[0].r[0].file, 0);
	assert_int_equal(h.s[0].r[1].run, 2);
	assert_int_equal(h.s[0].r[4].file, 2);
	assert_true(h.s[0].r[0].ref > 0);
	/* the reference: every run has it, so scaled; figures at its median */
	assert_int_equal(history_decide_ref(&h, CMP_REF_AUTO, why, sizeof(why)), 0);
	assert_true(h.scaled);
	assert_int_equal(history_figures(&h, &h.s[0]), 0);
	assert_true(h.s[0].share > 0 && h.s[0].share < 1.5);
	assert_true(h.s[0].ref_at > 0);
	assert_true(h.s[0].x[5] > h.s[0].x[0]);	/* 528 is slower */
	history_free(&h);
}

/* equal timestamps keep the order given; one missing: the order given */
static void test_order_given(void **state)
{
	struct history h = { 0 };
	char why[512];

	(void)state;
	assert_int_equal(read_one(&h, FIX "r528_1.csv", "2025-01-01T02:00:00Z", why, sizeof(why)), 0);
	assert_int_equal(read_one(&h, FIX "r480a_1.csv", "2025-01-01T02:00:00Z", why, sizeof(why)), 0);
	assert_int_equal(history_sort(&h), 0);
	assert_true(h.by_time);
	assert_string_equal(h.f[0].path, FIX "r528_1.csv");
	history_free(&h);
	assert_int_equal(read_one(&h, FIX "r528_1.csv", "2025-01-02T02:00:00Z", why, sizeof(why)), 0);
	assert_int_equal(read_one(&h, FIX "r480a_1.csv", "", why, sizeof(why)), 0);
	assert_int_equal(history_missing_stamps(&h), 1);
	assert_int_equal(history_sort(&h), 0);
	assert_false(h.by_time);
	assert_string_equal(h.f[0].path, FIX "r528_1.csv");
	history_free(&h);
}

static void test_refusals(void **state)
{
	struct results *r = load(FIX "r480a_2.csv");
	struct fileset fs = { 0 };
	struct history h = { 0 };
	char why[512];

	(void)state;
	assert_int_equal(read_one(&h, FIX "r480a_1.csv", "", why, sizeof(why)), 0);
	/* another unit: the loader's rule refuses it (lib/results/fileset.h) */
	assert_int_equal(fileset_check(&fs, FIX "r480a_1.csv", 0, r, why, sizeof(why)), 0);
	meta_put(&r->meta, "unit", "cycles");
	assert_int_equal(fileset_check(&fs, "cy.csv", 0, r, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, FIX "r480a_1.csv is in ns, cy.csv in cycles: the files must measure in one unit");
	/* a timestamp that is not one */
	meta_put(&r->meta, "unit", "ns");
	assert_int_equal(history_add_file(&h, NULL, "cy.csv"), 0);
	meta_put(&r->meta, "timestamp", "2025-01-03 02:00");
	assert_int_equal(history_read(&h, 1, r, CMP_STAT_TM10, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "cy.csv: timestamp '2025-01-03 02:00' is not YYYY-MM-DDTHH:MM:SSZ (UTC)");
	results_free(r);
	history_free(&h);
	/* --reference on, a file without reference rows */
	assert_int_equal(read_one(&h, "tests/fixtures/gate/r480_1.csv", "", why, sizeof(why)), 0);
	assert_int_equal(history_decide_ref(&h, CMP_REF_AUTO, why, sizeof(why)), 0);
	assert_false(h.scaled);
	assert_int_equal(history_decide_ref(&h, CMP_REF_ON, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "tests/fixtures/gate/r480_1.csv: run 1 has no reference rows (bench run --cache cold or --reference on writes them); --reference off takes the raw figures");
	history_free(&h);
}

static void test_median(void **state)
{
	const double v[] = { 5, 1, 3, 100, 2 };
	double spread;

	(void)state;
	assert_true(history_median(v, 0, 5, &spread) == 3);
	assert_true(history_median(v, 1, 3, &spread) == 2);
	assert_true(history_median(v, 3, 4, &spread) == 100);
}

/* ---- the control ---- */

static const struct synth_cfg nights40 = {
	.nights = 40, .runs = 3, .shift = 0.2, .noise = 0.01, .at = 24, .step = 0.10, .seed = 1,
};

static void test_pair(void **state)
{
	struct history s = { 0 }, c = { 0 };
	char why[512];
	unsigned int i;

	(void)state;
	assert_int_equal(synth_nights(&s, &c, &nights40), 0);
	/* night 1's runs 10000, 10000, 12000: their pseudo-median, not their median */
	for (i = 0; i < s.s[0].n; i++)
		if (s.s[0].r[i].file == 0)
			s.s[0].x[i] = s.s[0].r[i].run == 3 ? 12000 : 10000;
	assert_int_equal(history_pair(&s, &c, why, sizeof(why)), 0);
	assert_true(s.paired);
	assert_int_equal(s.s[0].n, 40);
	assert_true(s.s[0].subject[0] == 10500);
	assert_true(s.s[0].x[0] == s.s[0].subject[0] / s.s[0].control[0]);
	for (i = 1; i < 40; i++) {
		/* the shared level is gone: 10000/9000, times 1.1 from night 25 */
		double want = 10000.0 / 9000 * (i >= 24 ? 1.1 : 1);

		assert_true(fabs(s.s[0].x[i] / want - 1) < 0.03);
		assert_true(s.s[0].x[i] == s.s[0].subject[i] / s.s[0].control[i]);
		assert_int_equal(s.s[0].r[i].run, 3);
		assert_int_equal(s.s[0].r[i].file, i);
	}
	history_free(&s);
	history_free(&c);
}

static void test_pair_refusals(void **state)
{
	struct synth_cfg cfg = nights40;
	struct history s = { 0 }, c = { 0 };
	char why[512];

	(void)state;
	assert_int_equal(synth_nights(&s, &c, &cfg), 0);
	c.nf--;
	assert_int_equal(history_pair(&s, &c, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "40 subject files, 39 control files: the nights pair by order, one file each");
	c.nf++;
	c.f[3].t += 13 * 3600;
	assert_int_equal(history_pair(&s, &c, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "night 4: s004.csv (night 4) and c004.csv (night 4) are more than 12 hours apart: a night missing on one side?");
	c.f[3].t -= 13 * 3600;
	snprintf(c.s[0].variant, sizeof(c.s[0].variant), "new");
	assert_int_equal(history_pair(&s, &c, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "the control has no synth old: it must measure every series of the subject");
	assert_false(s.paired);
	history_free(&s);
	history_free(&c);
}

/*
 * theta on constructed nights: 1 when the subject moves as the control
 * does (a shared shift), 0 when the control moves and the subject does
 * not, 0.5 for half of it; bounded to [0, 1]; and the pairs across a
 * change point left out.
 */
static void test_theta(void **state)
{
	double con[8] = { 100, 100, 120, 120, 90, 90, 110, 110 }, sub[8], th;
	struct trend_cp cp = { .idx = 4 };
	unsigned int i;

	(void)state;
	for (i = 0; i < 8; i++)
		sub[i] = 3 * con[i];
	assert_int_equal(history_theta(sub, con, 8, NULL, 0, &th), 0);
	assert_true(fabs(th - 1) < 1e-12);
	for (i = 0; i < 8; i++)
		sub[i] = 500;
	assert_int_equal(history_theta(sub, con, 8, NULL, 0, &th), 0);
	assert_true(th == 0);
	for (i = 0; i < 8; i++)
		sub[i] = 500 * sqrt(con[i] / 100);
	assert_int_equal(history_theta(sub, con, 8, NULL, 0, &th), 0);
	assert_true(fabs(th - 0.5) < 1e-12);
	/* the subject moves twice the control, or against it: the bounds */
	for (i = 0; i < 8; i++)
		sub[i] = con[i] * con[i];
	assert_int_equal(history_theta(sub, con, 8, NULL, 0, &th), 0);
	assert_true(th == 1);
	for (i = 0; i < 8; i++)
		sub[i] = 1e6 / con[i];
	assert_int_equal(history_theta(sub, con, 8, NULL, 0, &th), 0);
	assert_true(th == 0);
	/* a control that never moves: nothing to fit */
	for (i = 0; i < 8; i++)
		con[i] = 100;
	assert_int_equal(history_theta(sub, con, 8, NULL, 0, &th), 0);
	assert_true(th == 0);
	/*
	 * A shared shift and a +10% step of the subject alone at night 5,
	 * where the machine also slowed: over every pair the step's pairs
	 * pull theta off 1; within the segments it is 1.
	 */
	for (i = 0; i < 8; i++) {
		con[i] = i < 4 ? (i % 2 ? 100 : 110) : (i % 2 ? 80 : 85);
		sub[i] = 2 * con[i] * (i < 4 ? 1 : 1.1);
	}
	assert_int_equal(history_theta(sub, con, 8, NULL, 0, &th), 0);
	assert_true(th < 0.9);
	assert_int_equal(history_theta(sub, con, 8, &cp, 1, &th), 0);
	assert_true(fabs(th - 1) < 1e-12);
}

/* the plain ratio first, theta within its segments, the step kept */
static void test_fit_detect(void **state)
{
	const struct trend_cfg tcfg = TREND_CFG_INIT;
	struct history s = { 0 }, c = { 0 };
	struct synth_cfg cfg = nights40;
	char why[512];
	unsigned int i;

	(void)state;
	cfg.shift = 0;		/* a quiet machine: the control only adds its noise */
	assert_int_equal(synth_nights(&s, &c, &cfg), 0);
	assert_int_equal(history_pair(&s, &c, why, sizeof(why)), 0);
	assert_int_equal(history_fit_detect(&s.s[0], &tcfg), 0);
	print_message("quiet: theta %.3f, %u change points, the first at night %u\n", s.s[0].theta,
		      s.s[0].nr_cp, s.s[0].nr_cp ? s.s[0].cp[0].idx + 1 : 0);
	assert_true(s.s[0].theta < 0.5);
	assert_int_equal(s.s[0].nr_cp, 1);
	assert_int_equal(s.s[0].cp[0].idx, 24);
	/* the figure: the subject over the control's geometric mean, adjusted by theta */
	for (i = 0; i < 40; i++) {
		double g = 0, k;
		unsigned int j;

		for (j = 0; j < 40; j++)
			g += log(s.s[0].control[j]) / 40;
		k = exp(log(s.s[0].subject[i]) - s.s[0].theta * (log(s.s[0].control[i]) - g) - g);
		assert_true(fabs(s.s[0].x[i] / k - 1) < 1e-12);
	}
	history_free(&s);
	history_free(&c);
}

/* change points of a history: paired nights, or the subject's own runs */
static unsigned int detect(const struct history_series *hs, struct trend_cp **cp)
{
	const struct trend_cfg cfg = TREND_CFG_INIT;
	unsigned int n;

	assert_int_equal(trend_detect(hs->x, hs->n, &cfg, cp, &n), 0);
	return n;
}

/*
 * Shared level shifts of up to +-20% and a +10% step of the subject
 * alone at night 25 of 40 (and at night 61 of 100): the control finds
 * the step within one night and nothing else, over five seeds; the
 * subject's own runs report the shared shifts as well.
 */
static void test_control_synthetic(void **state)
{
	const struct trend_cfg tcfg = TREND_CFG_INIT;
	struct synth_cfg cfg = nights40;
	struct trend_cp *cp;
	unsigned int seed, n, own, alone = 0;
	char why[512];

	(void)state;
	for (seed = 1; seed <= 5; seed++) {
		struct history s = { 0 }, c = { 0 };

		cfg.seed = seed;
		cfg.nights = seed % 2 ? 40 : 100;
		cfg.at = seed % 2 ? 24 : 60;
		assert_int_equal(synth_nights(&s, &c, &cfg), 0);
		own = detect(&s.s[0], &cp);
		alone += own;
		free(cp);
		assert_int_equal(history_pair(&s, &c, why, sizeof(why)), 0);
		assert_int_equal(history_fit_detect(&s.s[0], &tcfg), 0);
		cp = s.s[0].cp;
		n = s.s[0].nr_cp;
		s.s[0].cp = NULL;
		print_message("seed %u: %u nights, the subject's runs alone %u change points, paired %u at night %u, theta %.3f\n",
			      seed, cfg.nights, own, n, n ? cp[0].idx + 1 : 0, s.s[0].theta);
		/* the shifts are shared whole: theta near 1 */
		assert_true(s.s[0].theta > 0.9);
		assert_int_equal(n, 1);
		assert_true(cp[0].idx + 1 >= cfg.at && cp[0].idx <= cfg.at + 1);
		assert_true(fabs(cp[0].change.est - 0.10) < 0.02);
		free(cp);
		history_free(&s);
		history_free(&c);
	}
	assert_true(alone >= 10);
}

/* ---- lib/subcmd/textfmt.h ---- */

static char *capture(void (*fn)(FILE *, const char *), const char *s)
{
	static char *buf;
	size_t len;
	FILE *f;

	free(buf);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	fn(f, s);
	fclose(f);
	return buf;
}

static void test_textfmt(void **state)
{
	(void)state;
	assert_string_equal(capture(tf_md_cell, "a|b_c*d~e`f<g[h]i\\j"),
			    "a\\|b\\_c\\*d\\~e\\`f\\<g\\[h\\]i\\\\j");
	assert_string_equal(capture(tf_md_cell, "two\nlines & >"), "two lines & >");
	assert_string_equal(capture(tf_csv_field, "plain"), "plain");
	assert_string_equal(capture(tf_csv_field, ""), "");
	assert_string_equal(capture(tf_csv_field, "x, \"y\""), "\"x, \"\"y\"\"\"");
	assert_string_equal(capture(tf_csv_field, "a\nb"), "\"a\nb\"");
	assert_string_equal(capture(tf_csv_field, "a|b"), "a|b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dir),
		cmocka_unit_test(test_read_sort),
		cmocka_unit_test(test_order_given),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_pair),
		cmocka_unit_test(test_pair_refusals),
		cmocka_unit_test(test_control_synthetic),
		cmocka_unit_test(test_theta),
		cmocka_unit_test(test_fit_detect),
		cmocka_unit_test(test_textfmt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
