// SPDX-License-Identifier: GPL-2.0
/*
 * lkp.c - 0-day's comparison table of bench compare's series (lkp.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/report/cmpline.h"
#include "lib/report/lkp.h"
#include "lib/results/meta.h"
#include "lib/subcmd/writer.h"

/* 0-day shows a row's ± only from this relative stddev on, percent */
#define LKP_NOISY_PCT	2

const char *lkp_number(char *buf, size_t len, double v)
{
	if (fabs(v) >= 1e8)
		snprintf(buf, len, "%.4g", v);
	else if (fabs(v) >= 1000)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f", v);
	return buf;
}

/* the mean of @x[@n] and its sample standard deviation relative to it, % */
static double lkp_mean(const double *x, unsigned int n, double *rsd_pct)
{
	double sum = 0, ss = 0, mean;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += x[i];
	mean = n ? sum / n : 0;
	for (i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	*rsd_pct = n > 1 && mean ? sqrt(ss / (n - 1)) / fabs(mean) * 100 : 0;
	return mean;
}

/* " ± N%", or as many spaces where the runs are quiet */
static const char *lkp_stddev(char *buf, size_t len, double rsd_pct)
{
	long p = lround(rsd_pct);

	if (p >= LKP_NOISY_PCT)
		snprintf(buf, len, " ±%3ld%%", p);
	else
		snprintf(buf, len, "      ");
	return buf;
}

/* the change of the means: "+16.1%"; 0-day's exponent past 1e5% */
static const char *lkp_change(char *buf, size_t len, double b, double a)
{
	double pct = b ? (a / b - 1) * 100 : 0;

	snprintf(buf, len, fabs(pct) >= 1e5 ? "%+.1e%%" : "%+.1f%%", pct);
	return buf;
}

/* the side's commit as 0-day heads its column, cut to @w */
static void lkp_head(FILE *f, const struct meta *m, const char *dflt, int w)
{
	const char *c = m ? meta_get(m, "label_commit") : NULL;

	fprintf(f, "%-*.*s ", w, w, c ? c : dflt);
}

static void lkp_row(FILE *f, const struct cmpfmt *c, const struct cmp_series *s)
{
	const struct cmp_result *r = &s->r;
	char b[32], a[32], sb[32], sa[32], ch[48], chi[112], p[16];
	double rb, ra, mb = lkp_mean(s->x, s->nb, &rb), ma = lkp_mean(s->x + s->nb, s->na, &ra);

	fprintf(f, "%10s%s%11s%11s%s  %s.%s.%s  %s %s %s n=%u+%u\n",
		lkp_number(b, sizeof(b), mb), lkp_stddev(sb, sizeof(sb), rb),
		lkp_change(ch, sizeof(ch), mb, ma), lkp_number(a, sizeof(a), ma),
		lkp_stddev(sa, sizeof(sa), ra), s->workload, s->variant, c->stat,
		cmp_verdict_names[r->verdict], cmpline_change(chi, sizeof(chi), c, r),
		cmpline_test(p, sizeof(p), c, r, "p"), s->nb, s->na);
}

int lkp_write_compare(FILE *f, const struct cmpfmt *c)
{
	unsigned int i;

	lkp_head(f, c->meta[0], "before", 16);
	lkp_head(f, c->meta[1], "after", 27);
	fputs("\n---------------- --------------------------- \n"
	      "         %stddev     %change         %stddev\n"
	      "             \\          |                \\  \n", f);
	for (i = 0; i < c->n; i++)
		lkp_row(f, c, &c->s[i]);
	return report_status(f);
}
