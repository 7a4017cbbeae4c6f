/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - before/after statistics for the CI gate.
 *
 * A regression needs both:
 *  - a two-sided Mann-Whitney U test on the bucketed samples (every
 *    sample ranked by its bucket, ties given mid-ranks, the variance
 *    corrected for ties, normal approximation with continuity
 *    correction) with p below alpha; and
 *  - the chosen metric of AFTER above BEFORE by more than the threshold.
 * The U test alone flags any shift at 8192 samples, including the drift
 * between two runs of the same code on a shared VM; the threshold alone
 * cannot tell a shift from one noisy tail. Pure functions: any thread.
 */
#ifndef KSB_COMPARE_H
#define KSB_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

struct kstats_hist;

enum cmp_metric {
	CMP_P50,
	CMP_P90,
	CMP_P99,
	CMP_P999,
	CMP_MEAN,
	CMP_MAX,
	CMP_SAMPLES,
	CMP_NR_METRICS,
};

/* "p50", "p90", "p99", "p99.9", "mean", "max", "samples", NULL */
extern const char *const cmp_metric_names[];

struct cmp_result {
	double before[CMP_NR_METRICS];	/* metrics of BEFORE, its unit */
	double after[CMP_NR_METRICS];	/* metrics of AFTER */
	double z;			/* U test z; > 0: AFTER is slower */
	double p;			/* two-sided p value */
	double delta;			/* gated metric, after / before - 1 */
	bool regression;		/* p < alpha and delta > threshold */
	bool improvement;		/* p < alpha and delta < -threshold */
};

/*
 * cmp_hist - compare @before with @after, gating on @metric (p50, p90,
 * p99 or mean) with @threshold (a fraction: 0.1 is 10%) and @alpha.
 * Percentiles are bucket-bounded (kstats_hist_value_at_percentile).
 * Returns 0, or -EINVAL when the layouts differ or either is empty.
 */
int cmp_hist(const struct kstats_hist *before, const struct kstats_hist *after,
	     enum cmp_metric metric, double threshold, double alpha,
	     struct cmp_result *r);

/*
 * cmp_mann_whitney - z and two-sided p of the U test of @b against @a
 * (z > 0 when @b tends larger). Returns 0 or -EINVAL (layouts differ).
 */
int cmp_mann_whitney(const struct kstats_hist *a, const struct kstats_hist *b,
		     double *z, double *p);

/*
 * cmp_print_table - one block per (workload, variant): before, after and
 * delta of every metric, then the test and the verdict. 0 or -EIO.
 */
int cmp_print_table(FILE *f, const char *workload, const char *variant,
		    const struct cmp_result *r, enum cmp_metric metric,
		    double threshold, double alpha);

/* cmp_print_csv - the same as CSV rows (header: CMP_CSV_COLUMNS). */
#define CMP_CSV_COLUMNS "workload,variant,metric,before,after,delta_pct,z,p,verdict"
int cmp_print_csv(FILE *f, const char *workload, const char *variant,
		  const struct cmp_result *r);

/* cmp_verdict - "regression", "improvement" or "ok". */
const char *cmp_verdict(const struct cmp_result *r);

#endif /* KSB_COMPARE_H */
