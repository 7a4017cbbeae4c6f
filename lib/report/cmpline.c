// SPDX-License-Identifier: GPL-2.0
/*
 * cmpline.c - the text of bench compare's parts that several of its
 * reports print (cmpline.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/report/cmpline.h"
#include "lib/results/counted.h"
#include "lib/host/testbed.h"

/* a fraction as a signed percentage with @prec decimals: "+16.4%", "-inf" */
static const char *cl_pct(char *buf, size_t len, double frac, int prec)
{
	if (isinf(frac))
		snprintf(buf, len, "%sinf", frac < 0 ? "-" : "+");
	else
		snprintf(buf, len, "%+.*f%%", prec, frac * 100);
	return buf;
}

const char *cmpline_value(char *buf, size_t len, double v, const char *unit)
{
	static const char *const ns[] = { "ns", "us", "ms", "s" };
	static const char *const cy[] = { "", "k", "M", "G" };
	const char *const *sfx = !strcmp(unit, "ns") ? ns : cy;
	unsigned int u = 0;

	while (v >= 1000 && u < 3) {
		v /= 1000;
		u++;
	}
	snprintf(buf, len, "%.*f%s", v >= 100 ? 1 : 2, v, counted_suffix(unit, u) ?: sfx[u]);
	return buf;
}

const char *cmpline_unit(const char *unit)
{
	return counted_suffix(unit, 0) ?: unit;
}

const char *cmpline_spread(char *buf, size_t len, const struct cmpfmt *c, double spread)
{
	snprintf(buf, len, "%.*f%%", cmpline_exact(c) ? 2 : 0, spread * 100);
	return buf;
}

const char *cmpline_test(char *buf, size_t len, const struct cmpfmt *c,
			 const struct cmp_result *r, const char *name)
{
	if (cmpline_exact(c)) {
		snprintf(buf, len, "exact");
		return buf;
	}
	return cmpline_p(buf, len, r->p, name);
}

const char *cmpline_pct(char *buf, size_t len, double frac)
{
	return cl_pct(buf, len, frac, 1);
}

bool cmpline_exact(const struct cmpfmt *c)
{
	return counted_unit(c->unit);
}

bool cmpline_fails(const struct cmp_result *r)
{
	return r->verdict == CMP_REGRESSION || r->verdict == CMP_NOT_REPEATABLE;
}

const char *cmpline_p(char *buf, size_t len, double p, const char *name)
{
	if (p >= 0.0005)
		snprintf(buf, len, "%s%s%.3f", name, *name ? "=" : "", p);
	else
		snprintf(buf, len, "%s<0.001", name);
	return buf;
}


const char *cmpline_change(char *buf, size_t len, const struct cmpfmt *c,
			   const struct cmp_result *r)
{
	int prec = cmpline_exact(c) ? 2 : 1;
	char e[32], lo[32], hi[32];

	snprintf(buf, len, "%s [%s, %s]", cl_pct(e, sizeof(e), r->change.est, prec),
		 cl_pct(lo, sizeof(lo), r->change.lo, prec),
		 cl_pct(hi, sizeof(hi), r->change.hi, prec));
	return buf;
}

void cmpline_line(char *buf, size_t len, const struct cmpfmt *c, const struct cmp_series *s)
{
	const struct cmp_result *r = &s->r;
	char b[32], a[32], bs[16], as[16], ch[112], p[16];

	cmpline_value(b, sizeof(b), r->before, c->unit);
	cmpline_value(a, sizeof(a), r->after, c->unit);
	snprintf(buf, len, "%s %s %s  %s +-%s -> %s +-%s  %s  %s n=%u+%u  %s",
		 s->workload, s->variant, c->stat, b,
		 cmpline_spread(bs, sizeof(bs), c, r->before_spread),
		 a, cmpline_spread(as, sizeof(as), c, r->after_spread),
		 cmpline_change(ch, sizeof(ch), c, r), cmpline_test(p, sizeof(p), c, r, "p"),
		 s->nb, s->na, cmp_verdict_names[r->verdict]);
}

/* side @k's value, and the first of its files that disagrees: "a (b2.csv: x)" */
static size_t cl_side_value(char *buf, size_t len, const struct cmpfmt *c,
			    const struct tb_diff *d, unsigned int k)
{
	int n;

	if (!d->within[k])
		n = snprintf(buf, len, "%s", d->val[k]);
	else if (c->path[k])
		n = snprintf(buf, len, "%s (%s: %s)", d->val[k], c->path[k][d->odd[k]],
			     d->odd_val[k]);
	else
		n = snprintf(buf, len, "%s (file %u: %s)", d->val[k], d->odd[k] + 1, d->odd_val[k]);
	return n < 0 ? 0 : (size_t)n;
}

void cmpline_diff_text(char *buf, size_t len, const struct cmpfmt *c, const struct tb_diff *d)
{
	size_t used = cl_side_value(buf, len, c, d, 0);

	if (used + 4 < len)
		used += (size_t)snprintf(buf + used, len - used, " -> ");
	if (used < len)
		cl_side_value(buf + used, len - used, c, d, 1);
}
