// SPDX-License-Identifier: GPL-2.0
/*
 * cmpset.c - the gate over results sets, as bench compare runs it
 * (compare.h, COMPARING RESULTS SETS): which runs a side holds, each
 * run's figure and the reference figure it pairs with, the series of
 * both sides, and one series computed whole.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_hist.h"
#include "lib/stats/compare.h"
#include "lib/results/results.h"

unsigned int cmp_run_figures(const struct results *set, const char *wl, const char *var,
			     enum cmp_stat stat, double *x, double *ref)
{
	unsigned int i, n = results_nr_runs(set, wl, var);
	unsigned int refs = ref ? results_nr_runs(set, wl, RESULTS_REFERENCE) : 0;
	const struct kstats_hist *h;

	for (i = 0; i < n && (h = results_run_hist(set, wl, var, i)); i++) {
		x[i] = cmp_hist_stat(h, stat);
		if (!ref)
			continue;
		h = i < refs ? results_run_hist(set, wl, RESULTS_REFERENCE, i) : NULL;
		ref[i] = h ? cmp_hist_stat(h, CMP_REF_STAT) : 0;
	}
	return i;
}

unsigned int cmp_ref_missing(const struct results *set, const char *wl, const char *var)
{
	unsigned int i, runs = results_nr_runs(set, wl, var);
	unsigned int refs = results_nr_runs(set, wl, RESULTS_REFERENCE);
	const struct kstats_hist *h;

	if (refs != runs)
		return refs < runs ? refs + 1 : 1;
	for (i = 0; i < refs; i++) {
		h = results_run_hist(set, wl, RESULTS_REFERENCE, i);
		if (!h || !(cmp_hist_stat(h, CMP_REF_STAT) > 0))
			return i + 1;
	}
	return 0;
}

unsigned int cmp_side_runs(const struct cmp_side *s, const char *wl, const char *var)
{
	unsigned int f, n = 0;

	for (f = 0; f < s->n; f++)
		n += results_nr_runs(s->set[f], wl, var);
	return n;
}

/* is @s a series of its own, not yet in @list? */
static bool cmp_new_series(const struct results_series *s,
			   const struct results_series **list, unsigned int n)
{
	unsigned int j;

	if (s->cpu != RESULTS_CPU_ALL || !strcmp(s->variant, RESULTS_REFERENCE))
		return false;
	for (j = 0; j < n; j++)
		if (!strcmp(list[j]->workload, s->workload) &&
		    !strcmp(list[j]->variant, s->variant))
			return false;
	return true;
}

const struct results_series **cmp_list_series(const struct cmp_side side[2], unsigned int *n)
{
	const struct results_series **list = NULL, **nl;
	unsigned int k, f, i;

	*n = 0;
	errno = 0;
	for (k = 0; k < 2; k++)
		for (f = 0; f < side[k].n; f++)
			for (i = 0; i < side[k].set[f]->n; i++) {
				const struct results_series *s = &side[k].set[f]->s[i];

				if (!cmp_new_series(s, list, *n))
					continue;
				nl = realloc(list, (*n + 1) * sizeof(*list));
				if (!nl) {
					free(list);
					*n = 0;
					errno = ENOMEM;
					return NULL;
				}
				list = nl;
				list[(*n)++] = s;
			}
	return list;
}

bool cmp_can_scale(const struct cmp_side side[2], const struct results_series *const *list,
		   unsigned int n, struct cmp_where *w)
{
	unsigned int k, f, i, run;

	for (k = 0; k < 2; k++)
		for (f = 0; f < side[k].n; f++)
			for (i = 0; i < n; i++) {
				run = cmp_ref_missing(side[k].set[f], list[i]->workload,
						      list[i]->variant);
				if (!run)
					continue;
				*w = (struct cmp_where){ .side = k, .file = f, .run = run };
				return false;
			}
	return true;
}

/*
 * Side @k's runs of @c's series: figures into x (from @at), references
 * when scaled, every run into the side's pool. A BEFORE figure must be
 * > 0: changes are ratios to it. 0, or -EINVAL with the run in @w.
 */
static int cmp_collect(const struct cmp_side *s, unsigned int k, const struct cmp_gate *g,
		       struct cmp_series *c, unsigned int at, struct cmp_where *w)
{
	const struct kstats_hist *h;
	unsigned int f, i, n;

	for (f = 0; f < s->n; f++) {
		n = cmp_run_figures(s->set[f], c->workload, c->variant, g->stat, c->x + at,
				    c->ref ? c->ref + at : NULL);
		for (i = 0; i < n; i++) {
			h = results_run_hist(s->set[f], c->workload, c->variant, i);
			kstats_hist_merge(c->pool[k], h);	/* the caller checked layouts */
			if (!k && !(c->x[at + i] > 0)) {
				*w = (struct cmp_where){ .side = k, .file = f, .run = i + 1 };
				return -EINVAL;
			}
		}
		at += n;
	}
	return 0;
}

/*
 * Each run's figure at the median machine speed, by the series' share
 * of the reference's movement; the reference's medians (per side, and
 * of both: the speed the figures are brought to), sorted in @tmp
 * (nb + na doubles).
 */
static void cmp_adjust(struct cmp_series *c, double *tmp)
{
	unsigned int n = c->nb + c->na;
	double spread;

	memcpy(tmp, c->ref, n * sizeof(*tmp));
	c->ref_side[0] = cmp_median_spread(tmp, c->nb, &spread);
	c->ref_side[1] = cmp_median_spread(tmp + c->nb, c->na, &spread);
	memcpy(tmp, c->ref, n * sizeof(*tmp));
	c->ref_at = cmp_median_spread(tmp, n, &spread);
	c->ref_share = cmp_ref_share(c->x, c->ref, c->nb, c->na);
	cmp_ref_adjust(c->x, c->ref, n, c->ref_at, c->ref_share);
}

int cmp_series_compute(const struct cmp_side side[2], const char *wl, const char *var,
		       unsigned int frac_bits, const struct cmp_gate *g, struct cmp_series *c,
		       struct cmp_where *w)
{
	unsigned int n;
	double *y;
	int ret;

	memset(c, 0, sizeof(*c));
	c->workload = wl;
	c->variant = var;
	c->nb = cmp_side_runs(&side[0], wl, var);
	c->na = cmp_side_runs(&side[1], wl, var);
	n = c->nb + c->na;
	if (!c->nb || !c->na)
		return -EINVAL;
	/* x's second half is scratch: the reference's medians, the test's copy */
	c->x = calloc(2 * (size_t)n, sizeof(*c->x));
	c->pool[0] = kstats_hist_create(frac_bits);
	c->pool[1] = kstats_hist_create(frac_bits);
	if (g->scaled)
		c->ref = calloc(n, sizeof(*c->ref));
	if (!c->x || !c->pool[0] || !c->pool[1] || (g->scaled && !c->ref))
		return -ENOMEM;
	ret = cmp_collect(&side[0], 0, g, c, 0, w);
	if (!ret)
		ret = cmp_collect(&side[1], 1, g, c, c->nb, w);
	if (ret)
		return ret;
	y = c->x + n;
	if (c->ref)
		cmp_adjust(c, y);
	/* the test sorts its copy; x keeps the runs in file order */
	memcpy(y, c->x, n * sizeof(*y));
	if (g->exact)
		return cmp_runs_exact(y, c->nb, y + c->nb, c->na, g->spread, g->threshold, &c->r);
	return cmp_runs(y, c->nb, y + c->nb, c->na, g->alpha, g->threshold, &c->r);
}

void cmp_series_free(struct cmp_series *c)
{
	if (!c)
		return;
	kstats_hist_free(c->pool[0]);
	kstats_hist_free(c->pool[1]);
	free(c->ref);
	free(c->x);
	memset(c, 0, sizeof(*c));
}
