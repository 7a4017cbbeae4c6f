// SPDX-License-Identifier: GPL-2.0
/*
 * csv.c - writing the kstats-bench CSV (see csv.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../kstats_hist.h"
#include "csv.h"

int csv_meta_set(struct csv_meta *m, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *p;

	if (m->n >= CSV_MAX_META)
		return -ENOSPC;
	snprintf(m->kv[m->n].key, sizeof(m->kv[0].key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(m->kv[m->n].val, sizeof(m->kv[0].val), fmt, ap);
	va_end(ap);
	for (p = m->kv[m->n].val; (p = strpbrk(p, "\r\n"));)
		*p = ' ';
	m->n++;
	return 0;
}

const char *csv_meta_get(const struct csv_meta *m, const char *key)
{
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->kv[i].key, key))
			return m->kv[i].val;
	return NULL;
}

int csv_write_header(FILE *f, const struct csv_meta *m)
{
	unsigned int i;

	fputs("# kstats-bench-csv 1\n", f);
	for (i = 0; i < m->n; i++)
		fprintf(f, "# %s: %s\n", m->kv[i].key, m->kv[i].val);
	fputs(CSV_COLUMNS "\n", f);
	return ferror(f) ? -EIO : 0;
}

int csv_write_hist(FILE *f, const char *workload, const char *variant,
		   int cpu, int node, const struct kstats_hist *h)
{
	char prefix[160];

	if (cpu < 0)
		snprintf(prefix, sizeof(prefix), "%s,%s,all,-1", workload, variant);
	else
		snprintf(prefix, sizeof(prefix), "%s,%s,%d,%d", workload, variant,
			 cpu, node);
	return kstats_hist_print_csv(h, f, prefix);
}
