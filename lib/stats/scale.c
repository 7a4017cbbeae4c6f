// SPDX-License-Identifier: GPL-2.0
/*
 * scale.c - Theil-Sen with Sen's rank interval, its extrapolation, and
 * the MOVER interval of a difference of slopes (see scale.h for why).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats/scale.h"

const char *const scale_verdict_names[] = { "flat", "grows", "shrinks" };

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double scale_median(double *v, unsigned int n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), dbl_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * sum of t(t-1)(2t+5) over the groups of equal values of @v (@n, sorted
 * in place): what ties take off the variance of Kendall's S.
 */
static double tie_term(double *v, unsigned int n, double *lfact)
{
	double sum = 0;
	unsigned int i = 0, j;

	qsort(v, n, sizeof(*v), dbl_cmp);
	*lfact = 0;
	while (i < n) {
		for (j = i + 1; j < n && v[j] == v[i]; j++)
			;
		sum += (double)(j - i) * (j - i - 1) * (2.0 * (j - i) + 5);
		*lfact += lgamma(j - i + 1.0);
		i = j;
	}
	return sum;
}

/* median(y - b x) over the @n points, @tmp holding n doubles */
static double intercept(const double *x, const double *y, unsigned int n, double b, double *tmp)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		tmp[i] = y[i] - b * x[i];
	return scale_median(tmp, n);
}

/*
 * Sen's interval: the ranks of the sorted slopes @s (@m of them) that
 * bound the two-sided quantile @z (95% at SCALE_Z95), from the variance
 * of Kendall's S over @n points with the tie terms @tx and @ty (its sd
 * into *@sd). np.round() rounds half to even, as rint() does in the
 * default rounding mode.
 */
static void sen_interval(const double *s, unsigned int m, unsigned int n, double tx,
			 double ty, double z, double *sd, double *lo, double *hi)
{
	double nn = n, var = (nn * (nn - 1) * (2 * nn + 5) - tx - ty) / 18;
	double sigma = sqrt(var > 0 ? var : 0);
	double ru = rint((m + z * sigma) / 2);
	double rl = rint((m - z * sigma) / 2) - 1;

	*sd = sigma;
	if (ru > m - 1)
		ru = m - 1;
	if (rl < 0)
		rl = 0;
	*lo = s[(unsigned int)rl];
	*hi = s[(unsigned int)ru];
}

double scale_z(double alpha)
{
	double lo = 0, hi = 40, mid;
	unsigned int i;

	if (!(alpha > 0))
		return INFINITY;
	if (alpha >= 1)
		return 0;
	/* erfc(z / sqrt 2) falls from 1 at 0: bisect to the last bit */
	for (i = 0; i < 200 && hi - lo > 0; i++) {
		mid = (lo + hi) / 2;
		if (mid == lo || mid == hi)
			break;
		if (erfc(mid / sqrt(2.0)) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double scale_alpha(double z)
{
	return z > 0 ? erfc(z / sqrt(2.0)) : 1;
}

int scale_theil_sen(const double *x, const double *y, unsigned int n, struct scale_fit *f)
{
	return scale_theil_sen_z(x, y, n, SCALE_Z95, f);
}

int scale_theil_sen_z(const double *x, const double *y, unsigned int n, double z,
		      struct scale_fit *f)
{
	size_t m = 0, i, j;
	double *s, *tmp, tx, ty, lfx, lfy;

	memset(f, 0, sizeof(*f));
	if (!(z >= 0) || !isfinite(z))
		return -EINVAL;
	if (n > SCALE_MAX_POINTS)
		return -E2BIG;
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]) || !isfinite(y[i]))
			return -EINVAL;
	s = malloc(((size_t)n * (n ? n - 1 : 0) / 2 + 1) * sizeof(*s));
	tmp = malloc(((size_t)n + 1) * sizeof(*tmp));
	if (!s || !tmp) {
		free(s);
		free(tmp);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (x[j] != x[i])
				s[m++] = (y[j] - y[i]) / (x[j] - x[i]);
	if (!m) {
		free(s);
		free(tmp);
		return -EINVAL;
	}
	f->n = n;
	f->z = z;
	f->pairs = (unsigned int)m;
	f->slope = scale_median(s, (unsigned int)m);
	memcpy(tmp, x, n * sizeof(*tmp));
	tx = tie_term(tmp, n, &lfx);
	f->p_floor = fmin(1, 2 * exp(lfx - lgamma(n + 1.0)));
	f->x_min = tmp[0];
	f->x_max = tmp[n - 1];
	for (i = 0; i < n; i++)
		f->nx += !i || tmp[i] != tmp[i - 1];
	memcpy(tmp, y, n * sizeof(*tmp));
	ty = tie_term(tmp, n, &lfy);
	sen_interval(s, (unsigned int)m, n, tx, ty, z, &f->sigma, &f->lo, &f->hi);
	f->intercept = intercept(x, y, n, f->slope, tmp);
	f->icpt_lo = intercept(x, y, n, f->lo, tmp);
	f->icpt_hi = intercept(x, y, n, f->hi, tmp);
	free(s);
	free(tmp);
	return 0;
}

void scale_at(const struct scale_fit *f, double at, double *est, double *lo, double *hi)
{
	double a = f->icpt_lo + f->lo * at, b = f->icpt_hi + f->hi * at;

	*est = f->intercept + f->slope * at;
	*lo = a < b ? a : b;
	*hi = a < b ? b : a;
}

enum scale_verdict scale_verdict(const struct scale_fit *f, double flat)
{
	/* an interval no ordering of the points could make narrower */
	if (f->p_floor > scale_alpha(f->z))
		return SCALE_FLAT;
	if (f->lo > 0 && f->lo > flat)
		return SCALE_GROWS;
	if (f->hi < 0 && f->hi < -flat)
		return SCALE_SHRINKS;
	return SCALE_FLAT;
}

double scale_spread(const double *x, const double *y, unsigned int n)
{
	double lo, hi, worst = 0;
	unsigned int i, j, m;

	for (i = 0; i < n; i++) {
		lo = hi = y[i];
		for (j = m = 0; j < n; j++) {
			if (x[j] != x[i])
				continue;
			lo = fmin(lo, y[j]);
			hi = fmax(hi, y[j]);
			m++;
		}
		if (m > 1)
			worst = fmax(worst, lo > 0 ? hi / lo - 1 : INFINITY);
	}
	return worst;
}

void scale_diff(const struct scale_fit *a, const struct scale_fit *b, struct scale_diff *d)
{
	double bl = b->slope - b->lo, bh = b->hi - b->slope;
	double al = a->slope - a->lo, ah = a->hi - a->slope;

	d->est = b->slope - a->slope;
	d->lo = d->est - sqrt(bl * bl + ah * ah);
	d->hi = d->est + sqrt(bh * bh + al * al);
}

double scale_threshold_ns(const struct scale_threshold *t, const struct scale_fit *a)
{
	return t->pct ? fabs(a->slope) * t->v / 100 : t->v;
}

bool scale_regression(const struct scale_fit *a, const struct scale_diff *d,
		      const struct scale_threshold *t)
{
	return d->est > scale_threshold_ns(t, a) && d->lo > 0;
}
