// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - Mann-Whitney U on histograms, and the regression gate
 * (see compare.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "../kstats_hist.h"
#include "compare.h"

const char *const cmp_metric_names[] = {
	"p50", "p90", "p99", "p99.9", "mean", "max", "samples", NULL,
};

int cmp_mann_whitney(const struct kstats_hist *a, const struct kstats_hist *b,
		     double *z, double *p)
{
	long double n1 = 0, n2 = 0, cum = 0, r2 = 0, ties = 0, t, u2, mu, var, d;
	unsigned int i, n = kstats_hist_nr_slots(a);

	if (kstats_hist_frac_bits(a) != kstats_hist_frac_bits(b))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		long double ca = kstats_hist_slot_count(a, i);
		long double cb = kstats_hist_slot_count(b, i);

		t = ca + cb;
		/* every sample of a bucket shares the bucket's mid-rank */
		r2 += cb * (cum + (t + 1) / 2);
		ties += t * t * t - t;
		cum += t;
		n1 += ca;
		n2 += cb;
	}
	u2 = r2 - n2 * (n2 + 1) / 2;
	mu = n1 * n2 / 2;
	var = n1 + n2 > 1 ? n1 * n2 / 12 * ((n1 + n2 + 1) - ties / ((n1 + n2) * (n1 + n2 - 1))) : 0;
	if (var <= 0) {
		*z = 0;
		*p = 1;
		return 0;
	}
	d = fabsl(u2 - mu) - 0.5L;	/* continuity correction */
	*z = (double)((d > 0 ? d : 0) / sqrtl(var) * (u2 < mu ? -1 : 1));
	*p = erfc(fabs(*z) / sqrt(2.0));
	return 0;
}

static void cmp_metrics(const struct kstats_hist *h, double *m)
{
	m[CMP_P50] = (double)kstats_hist_value_at_percentile(h, 50);
	m[CMP_P90] = (double)kstats_hist_value_at_percentile(h, 90);
	m[CMP_P99] = (double)kstats_hist_value_at_percentile(h, 99);
	m[CMP_P999] = (double)kstats_hist_value_at_percentile(h, 99.9);
	m[CMP_MEAN] = kstats_hist_mean(h);
	m[CMP_MAX] = (double)kstats_hist_max(h);
	m[CMP_SAMPLES] = (double)kstats_hist_total(h);
}

int cmp_hist(const struct kstats_hist *before, const struct kstats_hist *after,
	     enum cmp_metric metric, double threshold, double alpha,
	     struct cmp_result *r)
{
	double b, a;
	int ret;

	if (!kstats_hist_total(before) || !kstats_hist_total(after))
		return -EINVAL;
	ret = cmp_mann_whitney(before, after, &r->z, &r->p);
	if (ret)
		return ret;
	cmp_metrics(before, r->before);
	cmp_metrics(after, r->after);
	b = r->before[metric];
	a = r->after[metric];
	r->delta = b > 0 ? a / b - 1 : a > 0 ? INFINITY : 0;
	r->regression = r->p < alpha && r->z > 0 && r->delta > threshold;
	r->improvement = r->p < alpha && r->z < 0 && r->delta < -threshold;
	return 0;
}

/* ---- printers ---- */

const char *cmp_verdict(const struct cmp_result *r)
{
	return r->regression ? "regression" : r->improvement ? "improvement" : "ok";
}

static double cmp_pct(double b, double a)
{
	return b > 0 ? (a / b - 1) * 100 : 0;
}

int cmp_print_table(FILE *f, const char *workload, const char *variant,
		    const struct cmp_result *r, enum cmp_metric metric,
		    double threshold, double alpha)
{
	unsigned int m;

	fprintf(f, "%s %s%*s %14s %14s %9s\n", workload, variant,
		(int)(24 - strlen(workload) - strlen(variant)), "", "before",
		"after", "delta");
	for (m = 0; m < CMP_NR_METRICS; m++)
		fprintf(f, "  %-23s %14.1f %14.1f %+8.1f%%\n", cmp_metric_names[m],
			r->before[m], r->after[m], cmp_pct(r->before[m], r->after[m]));
	fprintf(f, "  mann-whitney z %+.2f p %.3g (alpha %g); %s %+.1f%% (threshold %g%%): %s\n\n",
		r->z, r->p, alpha, cmp_metric_names[metric], r->delta * 100,
		threshold * 100, cmp_verdict(r));
	return ferror(f) ? -EIO : 0;
}

int cmp_print_csv(FILE *f, const char *workload, const char *variant,
		  const struct cmp_result *r)
{
	unsigned int m;

	for (m = 0; m < CMP_NR_METRICS; m++)
		fprintf(f, "%s,%s,%s,%.1f,%.1f,%.2f,%.3f,%.3g,%s\n", workload, variant,
			cmp_metric_names[m], r->before[m], r->after[m],
			cmp_pct(r->before[m], r->after[m]), r->z, r->p, cmp_verdict(r));
	return ferror(f) ? -EIO : 0;
}
