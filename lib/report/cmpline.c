// SPDX-License-Identifier: GPL-2.0
/*
 * cmpline.c - the text of bench compare's parts that several of its
 * reports print (cmpline.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/report/cmpline.h"
#include "lib/report/testbed.h"

const char *cmpline_value(char *buf, size_t len, double v, bool cycles)
{
	static const char *const ns[] = { "ns", "us", "ms", "s" };
	static const char *const cy[] = { "", "k", "M", "G" };
	unsigned int u = 0;

	while (v >= 1000 && u < 3) {
		v /= 1000;
		u++;
	}
	snprintf(buf, len, "%.*f%s", v >= 100 ? 1 : 2, v, cycles ? cy[u] : ns[u]);
	return buf;
}

const char *cmpline_pct(char *buf, size_t len, double frac)
{
	if (isinf(frac))
		snprintf(buf, len, "%sinf", frac < 0 ? "-" : "+");
	else
		snprintf(buf, len, "%+.1f%%", frac * 100);
	return buf;
}

bool cmpline_cycles(const struct cmpfmt *c)
{
	return c->unit && !strcmp(c->unit, "cycles");
}

const char *cmpline_p(char *buf, size_t len, double p, const char *name)
{
	if (p >= 0.0005)
		snprintf(buf, len, "%s%s%.3f", name, *name ? "=" : "", p);
	else
		snprintf(buf, len, "%s<0.001", name);
	return buf;
}

const char *cmpline_change(char *buf, size_t len, const struct cmp_result *r)
{
	char e[32], lo[32], hi[32];

	cmpline_pct(e, sizeof(e), r->change.est);
	cmpline_pct(lo, sizeof(lo), r->change.lo);
	cmpline_pct(hi, sizeof(hi), r->change.hi);
	snprintf(buf, len, "%s [%s, %s]", e, lo, hi);
	return buf;
}

void cmpline_line(char *buf, size_t len, const struct cmpfmt *c, const struct cmp_series *s)
{
	const struct cmp_result *r = &s->r;
	char b[32], a[32], ch[112], p[16];

	cmpline_value(b, sizeof(b), r->before, cmpline_cycles(c));
	cmpline_value(a, sizeof(a), r->after, cmpline_cycles(c));
	snprintf(buf, len, "%s %s %s  %s +-%.0f%% -> %s +-%.0f%%  %s  %s n=%u+%u  %s",
		 s->workload, s->variant, c->stat, b, r->before_spread * 100, a,
		 r->after_spread * 100, cmpline_change(ch, sizeof(ch), r), cmpline_p(p, sizeof(p), r->p, "p"),
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
