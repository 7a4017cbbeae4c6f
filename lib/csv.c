// SPDX-License-Identifier: GPL-2.0
/*
 * csv.c - writing and reading the kstats-bench CSV (see csv.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../kstats_hist.h"
#include "csv.h"
#include "samples.h"

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

	fprintf(f, "# kstats-bench-csv %d\n", CSV_FORMAT);
	for (i = 0; i < m->n; i++)
		fprintf(f, "# %s: %s\n", m->kv[i].key, m->kv[i].val);
	fputs(CSV_COLUMNS "\n", f);
	return ferror(f) ? -EIO : 0;
}

int csv_write_hist(FILE *f, const char *workload, const char *variant,
		   unsigned int run, int cpu, int node,
		   const struct kstats_hist *h)
{
	char prefix[192], r[16] = "all";

	if (run != CSV_RUN_ALL)
		snprintf(r, sizeof(r), "%u", run);
	if (cpu < 0)
		snprintf(prefix, sizeof(prefix), "%s,%s,%s,all,-1", workload,
			 variant, r);
	else
		snprintf(prefix, sizeof(prefix), "%s,%s,%s,%d,%d", workload,
			 variant, r, cpu, node);
	return kstats_hist_print_csv(h, f, prefix);
}

/* ---- reading ---- */

#define CSV_MAX_LINE	4096	/* longer lines are not ours */

struct csv_row {
	uint64_t cum;			/* samples up to this row */
	unsigned long pct;		/* its percentile, in millionths */
	unsigned long line;		/* where it was */
};

struct csv_parse {
	struct csv_file *cf;		/* being built */
	unsigned long line;		/* current line */
	char *why;			/* message buffer */
	size_t why_len;			/* its size */
	bool header;			/* the column header was seen */
	bool have_fb;			/* a frac_bits line was seen */
};

static int __attribute__((format(printf, 2, 3))) csv_err(struct csv_parse *p,
							 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->why, p->why_len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int csv_u64(struct csv_parse *p, const char *s, const char *name,
		   uint64_t *v)
{
	int ret = samples_parse_line(s, strlen(s), v);

	if (ret)
		return csv_err(p, "%s: '%.40s' is not a non-negative integer below 2^64", name, s);
	return 0;
}

/* "0.123456" or "1.000000" in millionths */
static int csv_pct(struct csv_parse *p, const char *s, unsigned long *pct)
{
	uint64_t frac;

	if (strlen(s) != 8 || (s[0] != '0' && s[0] != '1') || s[1] != '.' ||
	    samples_parse_line(s + 2, 6, &frac) || strspn(s + 2, "0123456789") != 6 ||
	    (s[0] == '1' && frac))
		return csv_err(p, "percentile '%.40s' is not 0.dddddd or 1.000000", s);
	*pct = s[0] == '1' ? 1000000 : (unsigned long)frac;
	return 0;
}

static int csv_meta_line(struct csv_parse *p, const char *s)
{
	const char *colon = strstr(s, ": ");
	char key[32];
	uint64_t fb;

	if (!colon || colon - s - 2 >= (long)sizeof(key) || colon == s + 2)
		return 0;	/* a comment, not metadata */
	snprintf(key, sizeof(key), "%.*s", (int)(colon - s - 2), s + 2);
	if (!strcmp(key, "frac_bits")) {
		if (samples_parse_line(colon + 2, strlen(colon + 2), &fb) ||
		    fb > KSTATS_HIST_FRAC_BITS_MAX)
			return csv_err(p, "frac_bits: '%.20s' is not 0..12", colon + 2);
		if (p->have_fb && fb != p->cf->frac_bits)
			return csv_err(p, "mixed frac_bits: %lu after %u", (unsigned long)fb,
				       p->cf->frac_bits);
		if (p->header && !p->have_fb)
			return csv_err(p, "frac_bits must come before the rows");
		p->cf->frac_bits = (unsigned int)fb;
		p->have_fb = true;
	}
	csv_meta_set(&p->cf->meta, key, "%s", colon + 2);
	return 0;
}

static struct csv_series *csv_series_get(struct csv_parse *p, char **col,
					 unsigned int run, int cpu, int node)
{
	struct csv_file *cf = p->cf;
	struct csv_series *s = csv_find(cf, col[0], col[1], run, cpu), *ns;

	if (s)
		return s;
	ns = realloc(cf->s, (cf->n + 1) * sizeof(*cf->s));
	if (!ns)
		return NULL;
	cf->s = ns;
	s = &cf->s[cf->n];
	memset(s, 0, sizeof(*s));
	snprintf(s->workload, sizeof(s->workload), "%s", col[0]);
	snprintf(s->variant, sizeof(s->variant), "%s", col[1]);
	s->run = run;
	s->cpu = cpu;
	s->node = node;
	s->h = kstats_hist_create(cf->frac_bits);
	if (!s->h)
		return NULL;
	cf->n++;
	return s;
}

static int csv_add_row(struct csv_series *s, uint64_t n, unsigned long pct,
		       unsigned long line)
{
	struct csv_row *r;

	if (s->nr_rows == s->cap_rows) {
		s->cap_rows = s->cap_rows ? 2 * s->cap_rows : 32;
		r = realloc(s->rows, s->cap_rows * sizeof(*r));
		if (!r)
			return -ENOMEM;
		s->rows = r;
	}
	r = &s->rows[s->nr_rows];
	r->cum = (s->nr_rows ? r[-1].cum : 0) + n;
	r->pct = pct;
	r->line = line;
	s->nr_rows++;
	return 0;
}

/*
 * Split into the 11 columns of format 2; a format 1 row (no run column)
 * gets run "all" in its place, so that the rest reads one layout.
 */
static int csv_split(struct csv_parse *p, char *s, char **col)
{
	static char run_all[] = "all";
	unsigned int n = 0, want = p->cf->format == CSV_FORMAT_1 ? 10 : 11;

	for (col[n++] = s; (s = strchr(s, ',')); *s++ = 0) {
		if (n == want)
			return csv_err(p, "more than %u columns", want);
		col[n++] = s + 1;
	}
	if (n != want)
		return csv_err(p, "%u columns, expected %u (%s)", n, want,
			       want == 10 ? CSV_COLUMNS_1 : CSV_COLUMNS);
	if (want == 10) {
		memmove(col + 3, col + 2, 8 * sizeof(*col));
		col[2] = run_all;
	}
	return 0;
}

/* workload,variant: names; run: "all" or 1..CSV_MAX_RUNS */
static int csv_names(struct csv_parse *p, char **col, unsigned int *run)
{
	uint64_t r;

	if (!*col[0] || !*col[1] || strlen(col[0]) >= 64 || strlen(col[1]) >= 32 ||
	    col[0][strspn(col[0], "abcdefghijklmnopqrstuvwxyz0123456789_.-")] ||
	    col[1][strspn(col[1], "abcdefghijklmnopqrstuvwxyz0123456789_.-")])
		return csv_err(p, "workload and variant must be short [a-z0-9_.-] names");
	if (!strcmp(col[2], "all")) {
		*run = CSV_RUN_ALL;
		return 0;
	}
	if (samples_parse_line(col[2], strlen(col[2]), &r) || !r || r > CSV_MAX_RUNS)
		return csv_err(p, "run: '%.20s' is not 'all' or 1..%d", col[2], CSV_MAX_RUNS);
	*run = (unsigned int)r;
	return 0;
}

/* cpu,node: "all",-1 or numbers (columns 3 and 4 of format 2) */
static int csv_labels(struct csv_parse *p, char **col, int *cpu, int *node)
{
	uint64_t c, nd;

	if (!strcmp(col[3], "all")) {
		if (strcmp(col[4], "-1"))
			return csv_err(p, "cpu 'all' must have node -1, not '%.20s'", col[4]);
		*cpu = *node = -1;
		return 0;
	}
	if (samples_parse_line(col[3], strlen(col[3]), &c) || c >= 8192)
		return csv_err(p, "cpu: '%.20s' is not 'all' or 0..8191", col[3]);
	if (samples_parse_line(col[4], strlen(col[4]), &nd) || nd >= 4096)
		return csv_err(p, "node: '%.20s' is not 0..4095", col[4]);
	*cpu = (int)c;
	*node = (int)nd;
	return 0;
}

static int csv_bucket(struct csv_parse *p, char **col, unsigned int *slot,
		      uint64_t *n, uint64_t *avg)
{
	unsigned int fb = p->cf->frac_bits;
	uint64_t b, lo, last, l, h = 0;
	int hi_top;

	if (csv_u64(p, col[5], "bucket", &b) || csv_u64(p, col[6], "lo_ns", &l) ||
	    csv_u64(p, col[8], "samples", n) || csv_u64(p, col[9], "avg_ns", avg))
		return -EINVAL;
	if (kstats_hist_slot_bounds(fb, b > UINT32_MAX ? UINT32_MAX : (unsigned int)b,
				    &lo, &last))
		return csv_err(p, "bucket %lu does not exist for frac_bits %u",
			       (unsigned long)b, fb);
	hi_top = last == UINT64_MAX && !strcmp(col[7], "18446744073709551616");
	if (!hi_top && csv_u64(p, col[7], "hi_ns", &h))
		return -EINVAL;
	if (l != lo || (!hi_top && (last == UINT64_MAX || h != last + 1)))
		return csv_err(p, "bucket %lu is [%lu, %lu] for frac_bits %u, not [%s, %s) (mixed frac_bits?)",
			       (unsigned long)b, (unsigned long)lo, (unsigned long)last, fb,
			       col[6], col[7]);
	if (!*n)
		return csv_err(p, "samples: 0 (empty buckets are not written)");
	if (*avg < lo || *avg > last)
		return csv_err(p, "avg_ns %lu is outside bucket %lu [%lu, %lu]",
			       (unsigned long)*avg, (unsigned long)b,
			       (unsigned long)lo, (unsigned long)last);
	*slot = (unsigned int)b;
	return 0;
}

static int csv_row(struct csv_parse *p, char *s)
{
	struct csv_series *ser;
	uint64_t n = 0, avg = 0;
	unsigned int slot = 0, run = CSV_RUN_ALL;
	unsigned long pct = 0;
	int cpu = -1, node = -1, ret;
	char *col[11];

	ret = csv_split(p, s, col);
	if (!ret)
		ret = csv_names(p, col, &run);
	if (!ret)
		ret = csv_labels(p, col, &cpu, &node);
	if (!ret)
		ret = csv_bucket(p, col, &slot, &n, &avg);
	if (!ret)
		ret = csv_pct(p, col[10], &pct);
	if (ret)
		return ret;
	ser = csv_series_get(p, col, run, cpu, node);
	if (!ser)
		return -ENOMEM;
	if (ser->node != node)
		return csv_err(p, "cpu %d on node %d, earlier rows say node %d", cpu, node, ser->node);
	if (ser->nr_rows && kstats_hist_slot(kstats_hist_max(ser->h), p->cf->frac_bits) >= slot)
		return csv_err(p, "bucket %u does not ascend within %s,%s,%s,%s",
			       slot, col[0], col[1], col[2], col[3]);
	if (ser->nr_rows && UINT64_MAX - ser->rows[ser->nr_rows - 1].cum < n)
		return csv_err(p, "samples: the total passes 2^64");
	kstats_hist_record_n(ser->h, avg, n);
	return csv_add_row(ser, n, pct, p->line);
}

static int csv_line(struct csv_parse *p, char *s, size_t len)
{
	if (memchr(s, 0, len))
		return csv_err(p, "binary data (NUL byte)");
	if (len && s[len - 1] == '\r')
		s[--len] = 0;
	if (p->line == 1) {
		if (!strcmp(s, "# kstats-bench-csv 1"))
			p->cf->format = CSV_FORMAT_1;
		else if (!strcmp(s, "# kstats-bench-csv 2"))
			p->cf->format = CSV_FORMAT_2;
		else
			return csv_err(p, "not a kstats-bench CSV: the first line must be '# kstats-bench-csv 2' (or 1)");
		return 0;
	}
	if (s[0] == '#')
		return csv_meta_line(p, s);
	if (!len)
		return 0;
	if (!p->header) {
		const char *want = p->cf->format == CSV_FORMAT_1 ? CSV_COLUMNS_1 : CSV_COLUMNS;

		if (strcmp(s, want))
			return csv_err(p, "expected the column header '%s'", want);
		if (!p->have_fb)
			return csv_err(p, "no '# frac_bits: B' line before the rows");
		p->header = true;
		return 0;
	}
	return csv_row(p, s);
}

/* every percentile must be its cumulative count over the series total */
static int csv_check_pcts(struct csv_parse *p)
{
	unsigned int i, j;

	for (i = 0; i < p->cf->n; i++) {
		const struct csv_series *s = &p->cf->s[i];
		uint64_t total = s->rows[s->nr_rows - 1].cum;

		for (j = 0; j < s->nr_rows; j++) {
			const struct csv_row *r = &s->rows[j];
			unsigned long want = r->cum == total ? 1000000 :
				(unsigned long)((unsigned __int128)r->cum * 1000000 / total);

			if (r->pct == want)
				continue;
			p->line = r->line;
			return csv_err(p, "percentile %lu.%06lu is not the cumulative %lu/%lu (%lu.%06lu)",
				       r->pct / 1000000, r->pct % 1000000,
				       (unsigned long)r->cum, (unsigned long)total,
				       want / 1000000, want % 1000000);
		}
	}
	return 0;
}

int csv_read(FILE *f, struct csv_file *cf, unsigned long *line,
	     char *why, size_t why_len)
{
	struct csv_parse p = { .cf = cf, .why = why, .why_len = why_len };
	size_t cap = 0;
	char *buf = NULL;
	ssize_t len;
	int ret = 0;

	memset(cf, 0, sizeof(*cf));
	errno = 0;
	while (!ret && (len = getline(&buf, &cap, f)) >= 0) {
		p.line++;
		if (len && buf[len - 1] == '\n')
			buf[--len] = 0;
		ret = len > CSV_MAX_LINE ? csv_err(&p, "line longer than %d bytes", CSV_MAX_LINE) :
					   csv_line(&p, buf, (size_t)len);
	}
	if (!ret && ferror(f))
		ret = -(errno ? errno : EIO);
	if (!ret && !p.header) {
		p.line = 0;
		ret = csv_err(&p, "no column header (empty or truncated file)");
	}
	if (!ret && !cf->n) {
		p.line = 0;
		ret = csv_err(&p, "no rows");
	}
	if (!ret)
		ret = csv_check_pcts(&p);
	free(buf);
	*line = p.line;
	if (ret)
		csv_file_free(cf);
	return ret;
}

void csv_file_free(struct csv_file *cf)
{
	unsigned int i;

	for (i = 0; i < cf->n; i++) {
		kstats_hist_free(cf->s[i].h);
		free(cf->s[i].rows);
	}
	free(cf->s);
	cf->s = NULL;
	cf->n = 0;
}

struct csv_series *csv_find(const struct csv_file *cf, const char *workload,
			    const char *variant, unsigned int run, int cpu)
{
	unsigned int i;

	for (i = 0; i < cf->n; i++)
		if (cf->s[i].cpu == cpu && cf->s[i].run == run &&
		    !strcmp(cf->s[i].workload, workload) &&
		    !strcmp(cf->s[i].variant, variant))
			return &cf->s[i];
	return NULL;
}

/* the @i-th (0-based) numbered run's merged series of the pair, or NULL */
static const struct csv_series *csv_nth_run(const struct csv_file *cf,
					    const char *workload,
					    const char *variant, unsigned int i)
{
	unsigned int k;

	for (k = 0; k < cf->n; k++) {
		const struct csv_series *s = &cf->s[k];

		if (s->cpu < 0 && s->run != CSV_RUN_ALL &&
		    !strcmp(s->workload, workload) && !strcmp(s->variant, variant) &&
		    !i--)
			return s;
	}
	return NULL;
}

unsigned int csv_nr_runs(const struct csv_file *cf, const char *workload,
			 const char *variant)
{
	unsigned int n = 0;

	while (csv_nth_run(cf, workload, variant, n))
		n++;
	if (!n && csv_find(cf, workload, variant, CSV_RUN_ALL, -1))
		return 1;
	return n;
}

const struct kstats_hist *csv_run_hist(const struct csv_file *cf,
				       const char *workload,
				       const char *variant, unsigned int i)
{
	const struct csv_series *s = csv_nth_run(cf, workload, variant, i);

	if (!s && !i && !csv_nth_run(cf, workload, variant, 0))
		s = csv_find(cf, workload, variant, CSV_RUN_ALL, -1);
	return s ? s->h : NULL;
}
