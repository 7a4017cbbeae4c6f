// SPDX-License-Identifier: GPL-2.0
/*
 * csv.c - the kstats-bench CSV from and into a results set (see csv.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_hist.h"
#include "lib/results/csv.h"
#include "lib/subcmd/readfile.h"
#include "lib/results/results.h"
#include "lib/subcmd/samples.h"
#include "lib/subcmd/writer.h"

/* ---- writing ---- */

/* the rows of series @s: "<labels>,bucket,lo,hi,samples,avg,pct,sum,min,max" */
static void csv_write_series(FILE *f, const struct results_series *s)
{
	const uint64_t min = kstats_hist_min(s->h), max = kstats_hist_max(s->h);
	struct kstats_hist_iter it;
	char run[16] = "all", cpu[32] = "all,-1", sum[48];

	if (s->run != RESULTS_RUN_ALL)
		snprintf(run, sizeof(run), "%u", s->run);
	if (s->cpu != RESULTS_CPU_ALL)
		snprintf(cpu, sizeof(cpu), "%d,%d", s->cpu, s->node);
	kstats_hist_for_each_slot(&it, s->h) {
		fprintf(f, "%s,%s,%s,%s,%u,%lu,", s->workload, s->variant, run, cpu,
			it.slot, (unsigned long)it.lo);
		if (it.last == UINT64_MAX)
			fputs("18446744073709551616", f);
		else
			fprintf(f, "%lu", (unsigned long)(it.last + 1));
		fprintf(f, ",%lu,%lu,%c.%06lu,%s,%lu,%lu\n", (unsigned long)it.count,
			(unsigned long)it.avg, it.pct_int, it.pct_frac,
			results_u128(sum, sizeof(sum), it.sum_hi, it.sum_lo),
			(unsigned long)min, (unsigned long)max);
	}
}

int csv_write(FILE *f, const struct results *r)
{
	unsigned int *order = results_order(r), i;

	if (!order && r->n)
		return -ENOMEM;
	fprintf(f, "# kstats-bench-csv %d\n", CSV_FORMAT);
	for (i = 0; i < r->meta.n; i++)
		fprintf(f, "# %s: %s\n", r->meta.kv[i].key, r->meta.kv[i].val);
	fputs(CSV_COLUMNS "\n", f);
	for (i = 0; i < r->n; i++)
		csv_write_series(f, &r->s[order[i]]);
	free(order);
	return report_status(f);
}

/* ---- reading ---- */

#define CSV_MAX_LINE	4096	/* longer lines are not ours */
#define CSV_MAX_COLS	14	/* format 3 */

/* one row, kept for the checks made once its series is whole */
struct csv_row {
	uint64_t cum;			/* samples up to this row */
	unsigned long pct;		/* its percentile, in millionths */
	unsigned long line;		/* where it was */
};

/* what the reader keeps per series of the set, same index */
struct csv_track {
	struct csv_row *rows;		/* [nr_rows] */
	unsigned int nr_rows;		/* rows in use */
	unsigned int cap_rows;		/* rows allocated */
	unsigned int last_slot;		/* the bucket of the last row */
	uint64_t min, max;		/* format 3: min_ns and max_ns of its rows */
};

struct csv_parse {
	struct results *r;		/* being built */
	enum csv_format format;		/* from the first line */
	struct csv_track *t;		/* [cap_t], per series of r */
	unsigned int cap_t;		/* tracks allocated */
	unsigned int cur;		/* series of the last row, r->n: none */
	unsigned long line;		/* current line */
	struct csv_error *err;		/* where the message goes */
	bool header;			/* the column header was seen */
	bool have_fb;			/* a frac_bits line was seen */
	unsigned int fb;		/* its frac_bits */
	bool meta_only;			/* csv_read_meta(): the leading "#" lines alone */
	bool in_meta;			/* csv_read_meta(): a "#" line was seen */
};

/* one parsed row */
struct csv_fields {
	struct results_label l;		/* its series */
	unsigned int slot;		/* bucket */
	uint64_t n;			/* samples */
	uint64_t avg;			/* avg_ns */
	unsigned long pct;		/* percentile, millionths */
	uint64_t sum_hi, sum_lo;	/* format 3: sum_ns */
	uint64_t min, max;		/* format 3: min_ns, max_ns */
};

static int __attribute__((format(printf, 2, 3))) csv_err(struct csv_parse *p,
							 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err->why, sizeof(p->err->why), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int csv_u64(struct csv_parse *p, const char *s, const char *name, uint64_t *v)
{
	if (samples_parse_line(s, strlen(s), v))
		return csv_err(p, "%s: '%.40s' is not a non-negative integer below 2^64", name, s);
	return 0;
}

/* a decimal below 2^128 */
static int csv_u128(struct csv_parse *p, const char *s, uint64_t *hi, uint64_t *lo)
{
	unsigned __int128 v = 0, max = ~(unsigned __int128)0;
	const char *c = s;

	for (; *c >= '0' && *c <= '9'; c++) {
		if (v > (max - (unsigned)(*c - '0')) / 10)
			break;
		v = v * 10 + (unsigned)(*c - '0');
	}
	if (c == s || *c || (s[0] == '0' && s[1]))
		return csv_err(p, "sum_ns: '%.45s' is not a non-negative integer below 2^128", s);
	*hi = (uint64_t)(v >> 64);
	*lo = (uint64_t)v;
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
	const char *colon = strstr(s, ": "), *was;
	char key[META_KEY];
	uint64_t fb;

	if (!colon || colon - s - 2 >= (long)sizeof(key) || colon == s + 2)
		return 0;	/* a comment, not metadata */
	snprintf(key, sizeof(key), "%.*s", (int)(colon - s - 2), s + 2);
	if (!strcmp(key, "frac_bits")) {
		if (samples_parse_line(colon + 2, strlen(colon + 2), &fb) ||
		    fb > KSTATS_HIST_FRAC_BITS_MAX)
			return csv_err(p, "frac_bits: '%.20s' is not 0..12", colon + 2);
		if (p->have_fb && fb != p->fb)
			return csv_err(p, "mixed frac_bits: %lu after %u", (unsigned long)fb, p->fb);
		if (p->header && !p->have_fb)
			return csv_err(p, "frac_bits must come before the rows");
		p->fb = (unsigned int)fb;
		p->have_fb = true;
	}
	/* read one way only: a key may come twice, but with one value */
	was = meta_get(&p->r->meta, key);
	if (was && strncmp(was, colon + 2, META_VAL - 1))
		return csv_err(p, "%s given twice: '%.40s' after '%.40s'", key, colon + 2, was);
	if (!was)
		meta_set(&p->r->meta, key, "%s", colon + 2);
	return 0;
}

/*
 * Split into the columns of format 3; a format 1 row (no run column)
 * gets run "all" in its place, so that the rest reads one layout.
 */
static int csv_split(struct csv_parse *p, char *s, char **col)
{
	static const unsigned int want_of[] = { 0, 10, 11, 14 };
	static char run_all[] = "all";
	unsigned int n = 0, want = want_of[p->format];
	static const char *const columns[] = { "", CSV_COLUMNS_1, CSV_COLUMNS_2, CSV_COLUMNS };

	for (col[n++] = s; (s = strchr(s, ',')); *s++ = 0) {
		if (n == want)
			return csv_err(p, "more than %u columns", want);
		col[n++] = s + 1;
	}
	if (n != want)
		return csv_err(p, "%u columns, expected %u (%s)", n, want, columns[p->format]);
	if (p->format == CSV_FORMAT_1) {
		memmove(col + 3, col + 2, 8 * sizeof(*col));
		col[2] = run_all;
	}
	return 0;
}

/* workload,variant: names; run: "all" or 1..RESULTS_MAX_RUNS */
static int csv_names(struct csv_parse *p, char **col, struct results_label *l)
{
	uint64_t r;

	if (!*col[0] || !*col[1] || strlen(col[0]) >= 64 || strlen(col[1]) >= 32 ||
	    col[0][strspn(col[0], "abcdefghijklmnopqrstuvwxyz0123456789_.-")] ||
	    col[1][strspn(col[1], "abcdefghijklmnopqrstuvwxyz0123456789_.-")])
		return csv_err(p, "workload and variant must be short [a-z0-9_.-] names");
	l->workload = col[0];
	l->variant = col[1];
	l->run = RESULTS_RUN_ALL;
	if (!strcmp(col[2], "all"))
		return 0;
	if (samples_parse_line(col[2], strlen(col[2]), &r) || !r || r > RESULTS_MAX_RUNS)
		return csv_err(p, "run: '%.20s' is not 'all' or 1..%d", col[2], RESULTS_MAX_RUNS);
	l->run = (unsigned int)r;
	return 0;
}

/* cpu,node: "all",-1 or numbers */
static int csv_cpu(struct csv_parse *p, char **col, struct results_label *l)
{
	uint64_t c, nd;

	if (!strcmp(col[3], "all")) {
		if (strcmp(col[4], "-1"))
			return csv_err(p, "cpu 'all' must have node -1, not '%.20s'", col[4]);
		l->cpu = RESULTS_CPU_ALL;
		l->node = -1;
		return 0;
	}
	if (samples_parse_line(col[3], strlen(col[3]), &c) || c >= NR_CPUS_MAX)
		return csv_err(p, "cpu: '%.20s' is not 'all' or 0..%d", col[3], NR_CPUS_MAX - 1);
	if (samples_parse_line(col[4], strlen(col[4]), &nd) || nd >= RESULTS_MAX_NODES)
		return csv_err(p, "node: '%.20s' is not 0..%d", col[4], RESULTS_MAX_NODES - 1);
	l->cpu = (int)c;
	l->node = (int)nd;
	return 0;
}

/* bucket,lo_ns,hi_ns,samples,avg_ns */
static int csv_bucket(struct csv_parse *p, char **col, struct csv_fields *c)
{
	uint64_t b, lo, last, l, h = 0;
	int hi_top;

	if (csv_u64(p, col[5], "bucket", &b) || csv_u64(p, col[6], "lo_ns", &l) ||
	    csv_u64(p, col[8], "samples", &c->n) || csv_u64(p, col[9], "avg_ns", &c->avg))
		return -EINVAL;
	if (kstats_hist_slot_bounds(p->fb, b > UINT32_MAX ? UINT32_MAX : (unsigned int)b,
				    &lo, &last))
		return csv_err(p, "bucket %lu does not exist for frac_bits %u",
			       (unsigned long)b, p->fb);
	hi_top = last == UINT64_MAX && !strcmp(col[7], "18446744073709551616");
	if (!hi_top && csv_u64(p, col[7], "hi_ns", &h))
		return -EINVAL;
	if (l != lo || (!hi_top && (last == UINT64_MAX || h != last + 1)))
		return csv_err(p, "bucket %lu is [%lu, %lu] for frac_bits %u, not [%s, %s) (mixed frac_bits?)",
			       (unsigned long)b, (unsigned long)lo, (unsigned long)last, p->fb,
			       col[6], col[7]);
	if (!c->n)
		return csv_err(p, "samples: 0 (empty buckets are not written)");
	if (c->avg < lo || c->avg > last)
		return csv_err(p, "avg_ns %lu is outside bucket %lu [%lu, %lu]",
			       (unsigned long)c->avg, (unsigned long)b,
			       (unsigned long)lo, (unsigned long)last);
	c->slot = (unsigned int)b;
	return 0;
}

/* format 3: sum_ns,min_ns,max_ns, and avg_ns the rounded sum / samples */
static int csv_exact(struct csv_parse *p, char **col, struct csv_fields *c)
{
	unsigned __int128 sum;

	if (csv_u128(p, col[11], &c->sum_hi, &c->sum_lo) ||
	    csv_u64(p, col[12], "min_ns", &c->min) || csv_u64(p, col[13], "max_ns", &c->max))
		return -EINVAL;
	sum = (unsigned __int128)c->sum_hi << 64 | c->sum_lo;
	if (c->min > c->max)
		return csv_err(p, "min_ns %lu is above max_ns %lu", (unsigned long)c->min,
			       (unsigned long)c->max);
	if ((sum + c->n / 2) / c->n != c->avg)
		return csv_err(p, "avg_ns %lu is not the rounded sum_ns / samples (%s / %lu)",
			       (unsigned long)c->avg, col[11], (unsigned long)c->n);
	return 0;
}

static int csv_fields(struct csv_parse *p, char *s, struct csv_fields *c)
{
	char *col[CSV_MAX_COLS];
	int ret;

	ret = csv_split(p, s, col);
	if (!ret)
		ret = csv_names(p, col, &c->l);
	if (!ret)
		ret = csv_cpu(p, col, &c->l);
	if (!ret)
		ret = csv_bucket(p, col, c);
	if (!ret)
		ret = csv_pct(p, col[10], &c->pct);
	if (!ret && p->format == CSV_FORMAT_3)
		ret = csv_exact(p, col, c);
	return ret;
}

/* the series of row @c and its track: the last row's, or found, or new */
static int csv_series_of(struct csv_parse *p, const struct csv_fields *c, unsigned int *idx)
{
	const struct results_label *l = &c->l;
	struct results_series *s;
	struct csv_track *t;

	if (p->cur < p->r->n) {
		s = &p->r->s[p->cur];
		if (s->run == l->run && s->cpu == l->cpu && !strcmp(s->variant, l->variant) &&
		    !strcmp(s->workload, l->workload))
			goto out_found;
	}
	s = results_find(p->r, l->workload, l->variant, l->run, l->cpu);
	if (!s && !(s = results_series(p->r, l)))
		return errno == EINVAL ? csv_err(p, "a label out of range") : -ENOMEM;
	if (p->r->n > p->cap_t) {
		t = realloc(p->t, 2 * p->r->n * sizeof(*t));
		if (!t)
			return -ENOMEM;
		memset(t + p->cap_t, 0, (2 * p->r->n - p->cap_t) * sizeof(*t));
		p->t = t;
		p->cap_t = 2 * p->r->n;
	}
out_found:
	p->cur = (unsigned int)(s - p->r->s);
	*idx = p->cur;
	if (s->node != l->node)
		return csv_err(p, "cpu %d on node %d, earlier rows say node %d", l->cpu, l->node,
			       s->node);
	return 0;
}

static int csv_track_row(struct csv_parse *p, struct csv_track *t, const struct csv_fields *c)
{
	struct csv_row *r;

	if (t->nr_rows == t->cap_rows) {
		t->cap_rows = t->cap_rows ? 2 * t->cap_rows : 32;
		r = realloc(t->rows, t->cap_rows * sizeof(*r));
		if (!r)
			return -ENOMEM;
		t->rows = r;
	}
	r = &t->rows[t->nr_rows];
	r->cum = (t->nr_rows ? r[-1].cum : 0) + c->n;
	r->pct = c->pct;
	r->line = p->line;
	if (!t->nr_rows) {
		t->min = c->min;
		t->max = c->max;
	}
	t->last_slot = c->slot;
	t->nr_rows++;
	return 0;
}

static int csv_row(struct csv_parse *p, char *s)
{
	struct csv_fields c = { 0 };
	struct results_series *ser;
	struct csv_track *t;
	unsigned int idx = 0;
	int ret;

	ret = csv_fields(p, s, &c);
	if (!ret)
		ret = csv_series_of(p, &c, &idx);
	if (ret)
		return ret;
	ser = &p->r->s[idx];
	t = &p->t[idx];
	if (t->nr_rows && t->last_slot >= c.slot)
		return csv_err(p, "bucket %u does not ascend within %s,%s,%u,%d", c.slot,
			       ser->workload, ser->variant, ser->run, ser->cpu);
	if (t->nr_rows && UINT64_MAX - t->rows[t->nr_rows - 1].cum < c.n)
		return csv_err(p, "samples: the total passes 2^64");
	if (t->nr_rows && (c.min != t->min || c.max != t->max))
		return csv_err(p, "min_ns,max_ns %lu,%lu differ from the series' earlier rows (%lu,%lu)",
			       (unsigned long)c.min, (unsigned long)c.max,
			       (unsigned long)t->min, (unsigned long)t->max);
	if (p->format != CSV_FORMAT_3)
		kstats_hist_record_n(ser->h, c.avg, c.n);
	else if (kstats_hist_add_slot(ser->h, c.slot, c.n, c.sum_hi, c.sum_lo))
		return csv_err(p, "sum_ns is not that of %lu samples of bucket %u",
			       (unsigned long)c.n, c.slot);
	return csv_track_row(p, t, &c);
}

static int csv_first_line(struct csv_parse *p, const char *s)
{
	static const char magic[] = "# kstats-bench-csv ";

	if (!strncmp(s, magic, sizeof(magic) - 1) && s[sizeof(magic) - 1] >= '1' &&
	    s[sizeof(magic) - 1] <= '0' + CSV_FORMAT && !s[sizeof(magic)]) {
		p->format = (enum csv_format)(s[sizeof(magic) - 1] - '0');
		return 0;
	}
	return csv_err(p, "not a kstats-bench CSV: the first line must be '# kstats-bench-csv %d' (or 1, 2)",
		       CSV_FORMAT);
}

static int csv_line(struct csv_parse *p, char *s, size_t len)
{
	static const char *const columns[] = { "", CSV_COLUMNS_1, CSV_COLUMNS_2, CSV_COLUMNS };

	if (memchr(s, 0, len))
		return csv_err(p, "binary data (NUL byte)");
	if (len && s[len - 1] == '\r')
		s[--len] = 0;
	/*
	 * the metadata alone: its lines, to the first that is none (1: stop);
	 * what comes before them (a console's, in a VM's capture) is skipped
	 */
	if (p->meta_only && s[0] == '#') {
		p->in_meta = true;
		return csv_meta_line(p, s);
	}
	if (p->meta_only)
		return p->in_meta;
	if (p->line == 1)
		return csv_first_line(p, s);
	if (s[0] == '#')
		return csv_meta_line(p, s);
	if (!len)
		return 0;
	if (p->header)
		return csv_row(p, s);
	if (strcmp(s, columns[p->format]))
		return csv_err(p, "expected the column header '%s'", columns[p->format]);
	if (!p->have_fb)
		return csv_err(p, "no '# frac_bits: B' line before the rows");
	p->r->frac_bits = p->fb;
	p->header = true;
	return 0;
}

/* per series: every percentile its cumulative count / total; min, max */
static int csv_check_series(struct csv_parse *p)
{
	unsigned int i, j;

	for (i = 0; i < p->r->n; i++) {
		const struct csv_track *t = &p->t[i];
		uint64_t total = t->rows[t->nr_rows - 1].cum;

		for (j = 0; j < t->nr_rows; j++) {
			const struct csv_row *r = &t->rows[j];
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
		if (p->format == CSV_FORMAT_3 &&
		    kstats_hist_set_range(p->r->s[i].h, t->min, t->max)) {
			p->line = t->rows[0].line;
			return csv_err(p, "min_ns %lu and max_ns %lu are not in the first and last buckets of %s,%s",
				       (unsigned long)t->min, (unsigned long)t->max,
				       p->r->s[i].workload, p->r->s[i].variant);
		}
	}
	return 0;
}

static int csv_read_lines(FILE *f, struct csv_parse *p)
{
	struct readfile_lines lr;
	int ret;

	readfile_lines_init(&lr, f, CSV_MAX_LINE);
	while ((ret = readfile_lines_next(&lr)) > 0) {
		p->line = lr.no;
		ret = csv_line(p, lr.line, lr.len);
		if (ret)
			break;
	}
	readfile_lines_free(&lr);
	if (ret == -E2BIG) {
		p->line = lr.no;
		return csv_err(p, "line longer than %d bytes", CSV_MAX_LINE);
	}
	return ret > 0 ? 0 : ret;
}

int csv_read_meta(FILE *f, struct meta *m, struct csv_error *err)
{
	struct csv_parse p = { .err = err, .meta_only = true };
	int ret;

	memset(err, 0, sizeof(*err));
	p.r = results_create(KSTATS_HIST_FRAC_BITS_DEFAULT);
	if (!p.r)
		return -ENOMEM;
	ret = csv_read_lines(f, &p);
	err->line = ret == -EINVAL ? p.line : 0;
	if (!ret)
		*m = p.r->meta;
	results_free(p.r);
	return ret;
}

int csv_read(FILE *f, struct results **out, struct csv_error *err)
{
	struct csv_parse p = { .err = err };
	unsigned int i;
	int ret;

	memset(err, 0, sizeof(*err));
	*out = NULL;
	p.r = results_create(KSTATS_HIST_FRAC_BITS_DEFAULT);
	if (!p.r)
		return -ENOMEM;
	ret = csv_read_lines(f, &p);
	if (!ret && (!p.header || !p.r->n)) {
		p.line = 0;
		ret = csv_err(&p, p.header ? "no rows" : "no column header (empty or truncated file)");
	}
	if (!ret)
		ret = csv_check_series(&p);
	err->line = ret == -EINVAL ? p.line : 0;
	for (i = 0; i < p.cap_t; i++)
		free(p.t[i].rows);
	free(p.t);
	if (ret)
		results_free(p.r);
	else
		*out = p.r;
	return ret;
}
