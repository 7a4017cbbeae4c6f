// SPDX-License-Identifier: GPL-2.0
/*
 * results.c - the results model: labelled exact histograms and their
 * metadata (see results.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_hist.h"
#include "lib/results/results.h"

/* ---- building a set ---- */

struct results *results_create(unsigned int frac_bits)
{
	struct results *r;

	if (frac_bits > KSTATS_HIST_FRAC_BITS_MAX) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (r)
		r->frac_bits = frac_bits;
	return r;
}

void results_free(struct results *r)
{
	unsigned int i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++)
		kstats_hist_free(r->s[i].h);
	free(r->s);
	free(r);
}

static bool results_name_ok(const char *s, size_t max)
{
	size_t n = strlen(s);

	return n && n < max && !s[strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_.-")];
}

static bool results_label_ok(const struct results_label *l)
{
	return results_name_ok(l->workload, sizeof(((struct results_series *)0)->workload)) &&
	       results_name_ok(l->variant, sizeof(((struct results_series *)0)->variant)) &&
	       l->run <= RESULTS_MAX_RUNS && l->cpu >= RESULTS_CPU_ALL &&
	       l->cpu < NR_CPUS_MAX &&
	       (l->cpu < 0 ? l->node == -1 : l->node >= 0 && l->node < RESULTS_MAX_NODES);
}

struct results_series *results_find(const struct results *r, const char *wl,
				    const char *var, unsigned int run, int cpu)
{
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (r->s[i].cpu == cpu && r->s[i].run == run &&
		    !strcmp(r->s[i].variant, var) && !strcmp(r->s[i].workload, wl))
			return &r->s[i];
	return NULL;
}

struct results *results_one(const struct results *r, const struct results_series *s)
{
	struct results *one = results_create(r->frac_bits);
	struct results_label l = { .workload = s->workload, .variant = s->variant,
				   .run = s->run, .cpu = s->cpu, .node = s->node };

	if (!one)
		return NULL;
	if (results_add_hist(one, &l, s->h)) {
		results_free(one);
		errno = ENOMEM;
		return NULL;
	}
	one->meta = r->meta;
	return one;
}

struct results_series *results_series(struct results *r,
				       const struct results_label *l)
{
	struct results_series *s;

	if (!results_label_ok(l)) {
		errno = EINVAL;
		return NULL;
	}
	s = results_find(r, l->workload, l->variant, l->run, l->cpu);
	if (s)
		return s;
	if (r->n == r->cap) {
		unsigned int cap = r->cap ? 2 * r->cap : 16;

		s = realloc(r->s, cap * sizeof(*s));
		if (!s)
			return NULL;
		r->s = s;
		r->cap = cap;
	}
	s = &r->s[r->n];
	memset(s, 0, sizeof(*s));
	snprintf(s->workload, sizeof(s->workload), "%s", l->workload);
	snprintf(s->variant, sizeof(s->variant), "%s", l->variant);
	s->run = l->run;
	s->cpu = l->cpu;
	s->node = l->cpu < 0 ? -1 : l->node;
	s->h = kstats_hist_create(r->frac_bits);
	if (!s->h)
		return NULL;
	r->n++;
	return s;
}

int results_add_hist(struct results *r, const struct results_label *l,
		     const struct kstats_hist *h)
{
	struct results_series *s;

	if (kstats_hist_frac_bits(h) != r->frac_bits)
		return -EINVAL;
	s = results_series(r, l);
	if (!s)
		return -errno;
	return kstats_hist_merge(s->h, h);
}

/* @s's label, with run @run */
static struct results_label results_label_of(const struct results_series *s,
					     unsigned int run)
{
	return (struct results_label){
		.workload = s->workload, .variant = s->variant, .run = run,
		.cpu = s->cpu, .node = s->node,
	};
}

int results_add(struct results *dst, const struct results *src)
{
	struct results_label l;
	unsigned int i;
	int ret;

	if (dst->frac_bits != src->frac_bits)
		return -EINVAL;
	if (!dst->meta.n)
		dst->meta = src->meta;
	for (i = 0; i < src->n; i++) {
		l = results_label_of(&src->s[i], src->s[i].run);
		ret = results_add_hist(dst, &l, src->s[i].h);
		if (ret)
			return ret;
	}
	return 0;
}

/* the one run of @r: its run number, or RESULTS_RUN_ALL; -EINVAL: several */
static int results_one_run(const struct results *r, unsigned int *run)
{
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (r->s[i].run != r->s[0].run)
			return -EINVAL;
	*run = r->n ? r->s[0].run : RESULTS_RUN_ALL;
	return 0;
}

int results_set_run(struct results *r, unsigned int run)
{
	unsigned int i, cur;

	if (run > RESULTS_MAX_RUNS || results_one_run(r, &cur))
		return -EINVAL;
	for (i = 0; i < r->n; i++)
		r->s[i].run = run;
	return 0;
}

/* ---- runs: the metadata they fold ---- */

/*
 * "a/b" pairs of key @key summed over runs: @dst's plus @one's; a lone
 * "a" (a workload of one variant, lib/measure/workload.h) sums as one figure.
 */
static void results_sum_pair(struct meta *dst, const struct meta *one, const char *key)
{
	unsigned long long a = 0, b = 0, x, y;
	const char *d = meta_get(dst, key), *o = meta_get(one, key);
	int n = o ? sscanf(o, "%llu/%llu", &x, &y) : 0;

	if (n < 1)
		return;
	if (d && sscanf(d, "%llu/%llu", &a, &b) != n)
		a = b = 0;
	if (n == 1)
		meta_put(dst, key, "%llu", a + x);
	else
		meta_put(dst, key, "%llu/%llu", a + x, b + y);
}

bool results_partial(const struct results *r)
{
	bool partial = false;

	return !meta_get_bool(&r->meta, "partial", &partial) && partial;
}

static void results_fold_meta(struct results *dst, const struct results *one,
			      unsigned int run, unsigned int nr_runs)
{
	if (nr_runs == 1) {
		dst->meta = one->meta;
	} else {
		results_sum_pair(&dst->meta, &one->meta, "samples_taken");
		results_sum_pair(&dst->meta, &one->meta, "disturbed");
	}
	if (results_partial(one)) {
		meta_put(&dst->meta, "partial", "yes");
		meta_put(&dst->meta, "partial_run", "%u", run);
	}
	meta_put(&dst->meta, "runs", "%u", nr_runs);
}

/* how many numbered runs @r holds, and whether @run is one of them */
static unsigned int results_count_runs(const struct results *r, unsigned int run,
				       bool *used)
{
	unsigned char *seen = calloc(RESULTS_MAX_RUNS + 1, 1);
	unsigned int i, n = 0;

	*used = false;
	for (i = 0; seen && i < r->n; i++) {
		if (!r->s[i].run || seen[r->s[i].run])
			continue;
		seen[r->s[i].run] = 1;
		n++;
	}
	if (seen)
		*used = seen[run];
	free(seen);
	return n;
}

int results_add_run(struct results *dst, const struct results *one,
		    unsigned int run, unsigned int flags)
{
	struct results_label l;
	unsigned int i, cur, n;
	bool used;
	int ret;

	if (!run || run > RESULTS_MAX_RUNS || dst->frac_bits != one->frac_bits ||
	    results_one_run(one, &cur))
		return -EINVAL;
	n = results_count_runs(dst, run, &used);
	if (used)
		return -EINVAL;
	for (i = 0; i < one->n; i++) {
		const struct results_series *s = &one->s[i];

		l = results_label_of(s, RESULTS_RUN_ALL);
		ret = results_add_hist(dst, &l, s->h);
		if (!ret && (s->cpu < 0 || !(flags & RESULTS_MERGED_CPUS_ONLY))) {
			l.run = run;
			ret = results_add_hist(dst, &l, s->h);
		}
		if (ret)
			return ret;
	}
	results_fold_meta(dst, one, run, n + 1);
	return 0;
}

int results_merge_runs(struct results *r)
{
	struct results_series *all;
	struct results_label l;
	unsigned int i, n = r->n;

	/* the "all" series of every label with runs, emptied first */
	for (i = 0; i < n; i++)
		if (r->s[i].run != RESULTS_RUN_ALL) {
			all = results_find(r, r->s[i].workload, r->s[i].variant,
					   RESULTS_RUN_ALL, r->s[i].cpu);
			if (all)
				kstats_hist_reset(all->h);
		}
	for (i = 0; i < n; i++) {
		if (r->s[i].run == RESULTS_RUN_ALL)
			continue;
		l = results_label_of(&r->s[i], RESULTS_RUN_ALL);
		all = results_series(r, &l);
		/* results_series() may have moved r->s: index again */
		if (!all || kstats_hist_merge(all->h, r->s[i].h))
			return -ENOMEM;
	}
	return 0;
}

/* ---- finding series ---- */

/* the @i-th (0-based) numbered run's merged series of the pair, or NULL */
static const struct results_series *results_nth_run(const struct results *r,
						    const char *wl, const char *var,
						    unsigned int i)
{
	unsigned int k;

	for (k = 0; k < r->n; k++) {
		const struct results_series *s = &r->s[k];

		if (s->cpu < 0 && s->run != RESULTS_RUN_ALL && !strcmp(s->workload, wl) &&
		    !strcmp(s->variant, var) && !i--)
			return s;
	}
	return NULL;
}

unsigned int results_nr_runs(const struct results *r, const char *wl, const char *var)
{
	unsigned int n = 0;

	while (results_nth_run(r, wl, var, n))
		n++;
	if (!n && results_find(r, wl, var, RESULTS_RUN_ALL, RESULTS_CPU_ALL))
		return 1;
	return n;
}

const struct kstats_hist *results_run_hist(const struct results *r, const char *wl,
					   const char *var, unsigned int i)
{
	const struct results_series *s = results_nth_run(r, wl, var, i);

	if (!s && !i && !results_nth_run(r, wl, var, 0))
		s = results_find(r, wl, var, RESULTS_RUN_ALL, RESULTS_CPU_ALL);
	return s ? s->h : NULL;
}

unsigned int results_max_run(const struct results *r)
{
	unsigned int i, max = 0;

	for (i = 0; i < r->n; i++)
		if (r->s[i].run > max)
			max = r->s[i].run;
	return max;
}

/* "cpu 3" or "cpu all" of @s into @buf */
static const char *results_cpu_name(const struct results_series *s, char *buf, size_t len)
{
	if (s->cpu == RESULTS_CPU_ALL)
		return "all";
	snprintf(buf, len, "%d", s->cpu);
	return buf;
}

/* the samples of @a's runs, every numbered series of its workload, variant and cpu */
static void results_runs_total(const struct results *r, const struct results_series *a,
			       uint64_t *sum)
{
	unsigned int j;

	*sum = 0;
	for (j = 0; j < r->n; j++)
		if (r->s[j].run != RESULTS_RUN_ALL && r->s[j].cpu == a->cpu &&
		    !strcmp(r->s[j].variant, a->variant) && !strcmp(r->s[j].workload, a->workload))
			*sum += kstats_hist_total(r->s[j].h);
}

int results_check_runs(const struct results *r, char *why, size_t len)
{
	const struct results_series *s;
	uint64_t runs, all;
	unsigned int i;
	char cpu[16];

	if (!results_max_run(r))
		return 0;
	for (i = 0; i < r->n; i++) {
		s = &r->s[i];
		if (s->run != RESULTS_RUN_ALL) {
			if (results_find(r, s->workload, s->variant, RESULTS_RUN_ALL, s->cpu))
				continue;
			snprintf(why, len, "%s %s cpu %s: run %u has no merge over the runs",
				 s->workload, s->variant, results_cpu_name(s, cpu, sizeof(cpu)),
				 s->run);
			return -EINVAL;
		}
		/* a CPU's series may be in the merge alone (RESULTS_MERGED_CPUS_ONLY) */
		if (s->cpu != RESULTS_CPU_ALL)
			continue;
		results_runs_total(r, s, &runs);
		all = kstats_hist_total(s->h);
		if (runs == all)
			continue;
		snprintf(why, len, "%s %s cpu %s: its runs hold %lu samples, their merge %lu: rows are missing (a file cut short?)",
			 s->workload, s->variant, results_cpu_name(s, cpu, sizeof(cpu)),
			 (unsigned long)runs, (unsigned long)all);
		return -EINVAL;
	}
	return 0;
}

static int results_cmp_order(const void *a, const void *b, void *arg)
{
	const struct results *r = arg;
	unsigned int i = *(const unsigned int *)a, j = *(const unsigned int *)b;
	unsigned int ri = r->s[i].run, rj = r->s[j].run;

	if (ri != rj)
		return ri < rj ? -1 : 1;
	return i < j ? -1 : i > j;
}

unsigned int *results_order(const struct results *r)
{
	unsigned int *idx, i;

	errno = 0;
	if (!r->n)
		return NULL;
	idx = malloc(r->n * sizeof(*idx));
	if (!idx)
		return NULL;
	for (i = 0; i < r->n; i++)
		idx[i] = i;
	/* "all" is run 0: first; the index breaks ties, so the sort is stable */
	qsort_r(idx, r->n, sizeof(*idx), results_cmp_order, (void *)r);
	return idx;
}

char *results_u128(char *buf, size_t len, uint64_t hi, uint64_t lo)
{
	unsigned __int128 v = (unsigned __int128)hi << 64 | lo;
	char tmp[48];
	int n = 0, i;

	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	if ((size_t)n >= len)
		n = (int)len - 1;
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = 0;
	return buf;
}
