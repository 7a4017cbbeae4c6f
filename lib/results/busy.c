// SPDX-License-Identifier: GPL-2.0
/*
 * busy.c - the rule that calls a run disturbed, and the per-run lists
 * of contention (see busy.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/results/busy.h"
#include "lib/results/counted.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"

bool busy_disturbed(double psi_pct)
{
	return psi_pct > BUSY_PSI_PCT;
}

bool busy_boot_disturbed(double psi_pct, double cpu_s, double wall_s)
{
	if (!busy_disturbed(psi_pct))
		return false;
	return !(wall_s > 0) || cpu_s < BUSY_QEMU_SHARE * wall_s;
}

/* the next "RUN:VALUE" pair of a list at *@p: 0 and *@p past it, or -1 at its end */
static int busy_next(const char **p, unsigned int *run, const char **val, size_t *vlen)
{
	const char *s = *p + strspn(*p, " ");
	char *end;

	if (!*s)
		return -1;
	*p = s + strcspn(s, " ");
	*run = (unsigned int)strtoul(s, &end, 10);
	if (end == s || *end != ':' || end + 1 >= *p) {
		*run = 0;
		*val = NULL;
		return 0;
	}
	*val = end + 1;
	*vlen = (size_t)(*p - *val);
	return 0;
}

/* @s as a figure, finite and >= 0, into *@v: 0, or -1 (inf, nan, -1, "x" are none) */
static int busy_figure(const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return end == s || *end || !isfinite(*v) || *v < 0 ? -1 : 0;
}

/* @run's figure of @key's list in @m into *@v: 0, or -1 when none is one */
static int busy_value(const struct meta *m, const char *key, unsigned int run, double *v)
{
	char buf[32];

	if (busy_list_get(m, key, run, buf, sizeof(buf)))
		return -1;
	return busy_figure(buf, v);
}

/* was @run among the first @n pairs of @m's psi_cpu_some_pct list? */
static bool busy_seen(const struct meta *m, unsigned int run, unsigned int n)
{
	const char *p = meta_get(m, BUSY_KEY_PSI_PCT), *val;
	unsigned int r, i;
	size_t vlen;

	for (i = 0; i < n && !busy_next(&p, &r, &val, &vlen); i++)
		if (val && r == run)
			return true;
	return false;
}

/* is run @run one of @r's: a numbered series, or run 1 of a set of one run? */
static bool busy_run_exists(const struct results *r, unsigned int run)
{
	unsigned int i;

	for (i = 0; run && i < r->n; i++)
		if (r->s[i].run == run)
			return true;
	return run == 1 && !results_max_run(r);
}

int busy_count(const struct results *r, struct busy_count *bc)
{
	const struct meta *m = &r->meta;
	const char *p = meta_get(m, BUSY_KEY_PSI_PCT), *val;
	double pct, cpu, wall;
	unsigned int run, i;
	size_t vlen;

	/* a count the host's load cannot move: no rule of time applies */
	if (!p || counted_unit(meta_get(m, "unit")))
		return -ENOENT;
	bc->files++;
	for (i = 0; !busy_next(&p, &run, &val, &vlen); i++) {
		/* each run that exists once, at its first pair, by its last (busy_list_get()'s) */
		if (!val || busy_seen(m, run, i) || !busy_run_exists(r, run) ||
		    busy_value(m, BUSY_KEY_PSI_PCT, run, &pct))
			continue;
		bc->runs++;
		bc->psi_over += busy_disturbed(pct);
		if (!busy_value(m, BUSY_KEY_QEMU_CPU, run, &cpu) &&
		    !busy_value(m, BUSY_KEY_BOOT_S, run, &wall) && wall > 0) {
			bc->qemu_runs++;
			bc->disturbed += busy_boot_disturbed(pct, cpu, wall);
		} else {
			bc->disturbed += busy_disturbed(pct);
		}
	}
	return 0;
}

void busy_line(const struct busy_count *bc, const char *what, char *buf, size_t len)
{
	if (!bc->files)
		snprintf(buf, len, "%s disturbed: not recorded", what);
	else if (!bc->runs || bc->qemu_runs < bc->runs)
		snprintf(buf, len, "%u of %u %s disturbed (psi cpu some > %g%% of the window)",
			 bc->disturbed, bc->runs, what, BUSY_PSI_PCT);
	else
		snprintf(buf, len, "%u of %u %s disturbed (psi cpu some > %g%% of the window, qemu < %g cpu)",
			 bc->disturbed, bc->runs, what, BUSY_PSI_PCT, BUSY_QEMU_SHARE);
}

void busy_field(const struct busy_count *bc, char *buf, size_t len)
{
	if (!bc->files)
		snprintf(buf, len, "not recorded");
	else
		snprintf(buf, len, "%u/%u", bc->disturbed, bc->runs);
}

int busy_list_add(struct meta *m, const char *key, unsigned int run, const char *fmt, ...)
{
	const char *old = meta_get(m, key);
	char val[META_VAL];
	size_t used = 0;
	va_list ap;
	int n;

	if (old && *old)
		used = (size_t)snprintf(val, sizeof(val), "%s ", old);
	if (used >= sizeof(val))
		return -ENOSPC;
	used += (size_t)snprintf(val + used, sizeof(val) - used, "%u:", run);
	if (used >= sizeof(val))
		return -ENOSPC;
	va_start(ap, fmt);
	n = vsnprintf(val + used, sizeof(val) - used, fmt, ap);
	va_end(ap);
	if (n < 0 || used + (size_t)n >= sizeof(val))
		return -ENOSPC;
	return meta_put(m, key, "%s", val);
}

int busy_list_get(const struct meta *m, const char *key, unsigned int run, char *buf,
		  size_t len)
{
	const char *p = meta_get(m, key), *val;
	unsigned int r;
	size_t vlen;
	int ret = -ENOENT;

	while (p && !busy_next(&p, &r, &val, &vlen))
		if (val && r == run) {
			snprintf(buf, len, "%.*s", (int)vlen, val);
			ret = 0;
		}
	return ret;
}
