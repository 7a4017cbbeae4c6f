// SPDX-License-Identifier: GPL-2.0
/*
 * histpair.c - a history paired night by night with its control: each
 * night's subject pseudo-median, adjusted by the control's as far as the two
 * move together (history.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/stats/history.h"
#include "lib/stats/scale.h"

static const struct history_series *history_find(const struct history *h,
						 const struct history_series *s)
{
	unsigned int i;

	for (i = 0; i < h->ns; i++)
		if (!strcmp(h->s[i].workload, s->workload) && !strcmp(h->s[i].variant, s->variant))
			return &h->s[i];
	return NULL;
}

/*
 * the pseudo-median of @v[lo, hi) (Hodges-Lehmann's one-sample
 * estimate: the median of every pair's mean, each value with itself
 * too); 0 when out of memory
 */
static double history_pseudo_median(const double *v, unsigned int lo, unsigned int hi)
{
	size_t n = hi - lo, m = 0, i, j;
	double *w = malloc((n * (n + 1) / 2 + 1) * sizeof(*w)), med;

	if (!w)
		return 0;
	for (i = lo; i < hi; i++)
		for (j = i; j < hi; j++)
			w[m++] = (v[i] + v[j]) / 2;
	med = scale_median(w, (unsigned int)m);
	free(w);
	return med;
}

/* the pseudo-median of @s's figures in file @fi into *@med, and how many runs; 0 when none */
static unsigned int history_night(const struct history_series *s, unsigned int fi, double *med)
{
	unsigned int lo, hi;

	for (lo = 0; lo < s->n && s->r[lo].file < fi; lo++)
		;
	for (hi = lo; hi < s->n && s->r[hi].file == fi; hi++)
		;
	*med = hi > lo ? history_pseudo_median(s->x, lo, hi) : 0;
	return hi - lo;
}

/* the slopes of log sub on log con of every pair of nights [from, n) in one segment */
static unsigned int history_slopes(const double *sub, const double *con, unsigned int from,
				unsigned int n, const struct trend_cp *cp, unsigned int nr_cp,
				double *out)
{
	unsigned int i, j, c = 0, m = 0, end;

	for (i = from; i < n; i++) {
		while (c < nr_cp && cp[c].idx <= i)
			c++;
		end = c < nr_cp ? cp[c].idx : n;
		for (j = i + 1; j < end; j++) {
			double dx = log(con[j]) - log(con[i]);

			if (dx != 0)
				out[m++] = (log(sub[j]) - log(sub[i])) / dx;
		}
	}
	return m;
}

int history_theta(const double *sub, const double *con, unsigned int n, const struct trend_cp *cp,
	       unsigned int nr_cp, double *theta)
{
	unsigned int from = n > HISTORY_THETA_NIGHTS ? n - HISTORY_THETA_NIGHTS : 0, m;
	size_t k = n - from;
	double *sl = malloc((k * (k - 1) / 2 + 1) * sizeof(*sl)), b;

	*theta = 0;
	if (!sl)
		return -ENOMEM;
	m = history_slopes(sub, con, from, n, cp, nr_cp, sl);
	if (m) {
		b = scale_median(sl, m);
		*theta = b < 0 ? 0 : b > 1 ? 1 : b;
	}
	free(sl);
	return 0;
}

/*
 * Night i's figure: sub_i / (con_i^theta g^(1 - theta)), g the control's
 * geometric mean; in logs y_i - theta (x_i - mean x) - mean x, CUPED's
 * adjusted subject over the control's typical level (theta 1: the plain
 * ratio sub_i / con_i, theta 0: the subject alone, over g).
 */
static void history_adjust(struct history_series *s, const double *sub, const double *con,
			unsigned int n)
{
	/* (theta 1 exactly: the plain ratio, not its rounding through logs) */
	double lg = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		lg += log(con[i]);
	lg /= n ? n : 1;
	for (i = 0; i < n; i++) {
		s->x[i] = s->theta == 1 ? sub[i] / con[i] :
			  exp(log(sub[i]) - s->theta * (log(con[i]) - lg) - lg);
		s->r[i].x = s->x[i];
	}
}

/* one series' nights: the subject's and the control's medians, into new arrays */
static int history_pair_series(const struct history *h, struct history_series *s,
			    const struct history *ctl, char *why, size_t len)
{
	const struct history_series *c = history_find(ctl, s);
	struct history_run *r = calloc(h->nf, sizeof(*r));
	double *sub = calloc(h->nf, sizeof(*sub)), *con = calloc(h->nf, sizeof(*con));
	double *x = calloc(h->nf, sizeof(*x));
	unsigned int i, ns, nc;
	int ret = 0;

	if (!r || !sub || !con || !x) {
		ret = -ENOMEM;
		goto out_free;
	}
	if (!c) {
		snprintf(why, len, "the control has no %s %s: it must measure every series of the subject",
			 s->workload, s->variant);
		ret = -EINVAL;
		goto out_free;
	}
	for (i = 0; i < h->nf; i++) {
		ns = history_night(s, i, &sub[i]);
		nc = history_night(c, i, &con[i]);
		if (!ns || !nc) {
			snprintf(why, len, "%s: no %s %s runs in it (night %u)", ns ? ctl->f[i].path :
				 h->f[i].path, s->workload, s->variant, i + 1);
			ret = -EINVAL;
			goto out_free;
		}
		r[i] = (struct history_run){ .file = i, .run = ns };
	}
	free(s->r);
	free(s->x);
	s->r = r;
	s->x = x;
	s->subject = sub;
	s->control = con;
	s->n = s->cap = h->nf;
	s->theta = 1;
	history_adjust(s, sub, con, h->nf);
	return 0;
out_free:
	free(x);
	free(con);
	free(sub);
	free(r);
	return ret;
}

int history_fit_detect(struct history_series *s, const struct trend_cfg *cfg)
{
	unsigned int pass;
	double theta;
	int ret;

	s->theta = 1;
	history_adjust(s, s->subject, s->control, s->n);
	ret = trend_detect(s->x, s->n, cfg, &s->cp, &s->nr_cp);
	for (pass = 0; !ret && pass < HISTORY_FIT_PASSES; pass++) {
		ret = history_theta(s->subject, s->control, s->n, s->cp, s->nr_cp, &theta);
		if (ret || theta == s->theta)
			break;
		s->theta = theta;
		history_adjust(s, s->subject, s->control, s->n);
		free(s->cp);
		ret = trend_detect(s->x, s->n, cfg, &s->cp, &s->nr_cp);
	}
	return ret;
}

/* the sides' files: as many, each night's two within HISTORY_PAIR_SKEW */
static int history_pair_check(const struct history *h, const struct history *ctl, char *why,
			      size_t len)
{
	unsigned int i;

	if (h->nf != ctl->nf) {
		snprintf(why, len, "%u subject files, %u control files: the nights pair by order, one file each",
			 h->nf, ctl->nf);
		return -EINVAL;
	}
	for (i = 0; h->by_time && ctl->by_time && i < h->nf; i++) {
		const struct history_file *a = &h->f[i], *b = &ctl->f[i];

		if (a->t - b->t > HISTORY_PAIR_SKEW || b->t - a->t > HISTORY_PAIR_SKEW) {
			snprintf(why, len, "night %u: %s (%s) and %s (%s) are more than 12 hours apart: a night missing on one side?",
				 i + 1, a->path, a->stamp, b->path, b->stamp);
			return -EINVAL;
		}
	}
	return 0;
}

int history_pair(struct history *h, const struct history *ctl, char *why, size_t len)
{
	unsigned int i;
	int ret = history_pair_check(h, ctl, why, len);

	for (i = 0; i < h->ns && !ret; i++)
		ret = history_pair_series(h, &h->s[i], ctl, why, len);
	h->paired = !ret;
	return ret;
}

int history_shared_file(const struct history *a, const struct history *b, unsigned int *ia,
		     unsigned int *ib)
{
	struct stat *sb = malloc((b->nf ? b->nf : 1) * sizeof(*sb)), sa;
	unsigned int i, j;
	int ret = 0;

	if (!sb)
		return -ENOMEM;
	for (j = 0; j < b->nf; j++)
		if (stat(b->f[j].path, &sb[j]))
			sb[j].st_ino = 0;	/* not there: its read fails later */
	for (i = 0; i < a->nf && !ret; i++) {
		if (stat(a->f[i].path, &sa))
			continue;
		for (j = 0; j < b->nf && !ret; j++) {
			if (!sb[j].st_ino || sa.st_dev != sb[j].st_dev || sa.st_ino != sb[j].st_ino)
				continue;
			*ia = i;
			*ib = j;
			ret = 1;
		}
	}
	free(sb);
	return ret;
}
