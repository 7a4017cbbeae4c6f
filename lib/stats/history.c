// SPDX-License-Identifier: GPL-2.0
/*
 * history.c - the files and runs of a history, their order, the
 * reference's scaling and each night's sweep (history.h); the pairing
 * with a control is histpair.c's.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/subcmd/dirscan.h"
#include "lib/results/fileset.h"
#include "lib/stats/history.h"
#include "lib/results/meta.h"
#include "lib/stats/scale.h"

/*
 * Room for one more element in the array *@p of @n in use and *@cap
 * allocated (@size bytes each): doubled when full, from @first.
 * Returns 0 or -ENOMEM (*@p as it was).
 */
static int history_grow(void *p, unsigned int n, unsigned int *cap, size_t size, unsigned int first)
{
	unsigned int c = *cap ? 2 * *cap : first;
	void *np;

	if (n < *cap)
		return 0;
	np = realloc(*(void **)p, c * size);
	if (!np)
		return -ENOMEM;
	*(void **)p = np;
	*cap = c;
	return 0;
}

/* ---- the files ---- */

int history_add_file(struct history *h, const char *dir, const char *name)
{
	char *path;

	if (history_grow(&h->f, h->nf, &h->capf, sizeof(*h->f), 64))
		return -ENOMEM;
	if (dir ? asprintf(&path, "%.*s/%s", (int)(strlen(dir) - (dir[strlen(dir) - 1] == '/')),
			   dir, name) < 0 : !(path = strdup(name)))
		return -ENOMEM;
	memset(&h->f[h->nf], 0, sizeof(*h->f));
	h->f[h->nf].path = path;
	h->f[h->nf].given = h->nf;
	h->nf++;
	return 0;
}

/* *.csv (dirscan() leaves out the hidden ones: run.sh's and bench's temp files) */
static bool history_csv_name(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcmp(name + n - 4, ".csv");
}

int history_add_dir(struct history *h, const char *dir, char *why, size_t len)
{
	struct dirscan d;
	unsigned int i;
	int ret = dirscan(dir, history_csv_name, &d, why, len);

	if (!ret && !d.n) {
		snprintf(why, len, "%s: no .csv files in it", dir);
		ret = -ENODATA;
	}
	for (i = 0; !ret && i < d.n; i++)
		ret = history_add_file(h, dir, d.name[i]);
	dirscan_free(&d);
	return ret;
}

/* not hidden: a subdirectory, a night of sweeps, or anything else (checked after) */
static int history_visible(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* @dir's entry @name, a night when a directory with CSVs: 0, -ENODATA (none), -errno */
static int history_add_night(struct history *h, const char *dir, const char *name, char *why,
			  size_t len)
{
	struct stat st;
	char *sub;
	int ret;

	if (asprintf(&sub, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	ret = stat(sub, &st) || !S_ISDIR(st.st_mode) ? -ENODATA : history_add_dir(h, sub, why, len);
	free(sub);
	return ret;
}

int history_add_nights(struct history *h, const char *dir, char *why, size_t len)
{
	struct dirent **list;
	int i, n = scandir(dir, &list, history_visible, alphasort), ret = -ENODATA, r;

	if (n < 0) {
		ret = -errno;
		snprintf(why, len, "%s: %s", dir, strerror(errno));
		return ret;
	}
	for (i = 0; i < n; i++) {
		if (ret == -ENODATA || !ret) {
			r = history_add_night(h, dir, list[i]->d_name, why, len);
			if (r != -ENODATA)
				ret = r;
		}
		free(list[i]);
	}
	free(list);
	if (ret == -ENODATA)
		snprintf(why, len, "%s: no .csv files in it", dir);
	return ret;
}

/* ---- reading the runs ---- */

static struct history_series *history_series_get(struct history *h, const char *wl, const char *var)
{
	struct history_series *ns;
	unsigned int i;

	for (i = 0; i < h->ns; i++)
		if (!strcmp(h->s[i].workload, wl) && !strcmp(h->s[i].variant, var))
			return &h->s[i];
	if (history_grow(&h->s, h->ns, &h->caps, sizeof(*h->s), 8))
		return NULL;
	ns = &h->s[h->ns++];
	memset(ns, 0, sizeof(*ns));
	snprintf(ns->workload, sizeof(ns->workload), "%s", wl);
	snprintf(ns->variant, sizeof(ns->variant), "%s", var);
	return ns;
}

static int history_run_add(struct history_series *s, const struct history_run *r)
{
	if (history_grow(&s->r, s->n, &s->cap, sizeof(*s->r), 64))
		return -ENOMEM;
	s->r[s->n++] = *r;
	return 0;
}

/*
 * Every run of @s in @cf: its figure, which must be > 0 (the changes
 * are ratios), and the reference figure it pairs with (0 when none),
 * both exactly as compare takes them (cmp_run_figures()).
 */
static int history_series_runs(struct history_series *s, const struct results *cf, unsigned int fi,
			    const char *path, enum cmp_stat stat, char *why, size_t len)
{
	unsigned int i, n = results_nr_runs(cf, s->workload, s->variant);
	double *x = calloc(2 * (size_t)(n ? n : 1), sizeof(*x)), *ref = x + n;
	struct history_run r = { .file = fi };
	int ret = 0;

	if (!x)
		return -ENOMEM;
	n = cmp_run_figures(cf, s->workload, s->variant, stat, x, ref);
	for (i = 0; i < n && !ret; i++) {
		r.run = i + 1;
		r.x = x[i];
		r.ref = ref[i];
		if (!(r.x > 0)) {
			snprintf(why, len, "%s: run %u: %s %s has a %s of 0: no change can be measured from it",
				 path, r.run, s->workload, s->variant, cmp_stat_names[stat]);
			ret = -EINVAL;
		} else {
			ret = history_run_add(s, &r);
		}
	}
	free(x);
	return ret;
}

/* the file's label_KEY metadata as "KEY=VALUE", in order */
static int history_labels(struct history_file *f, const struct meta *m)
{
	unsigned int i;
	char **nl;

	for (i = 0; i < m->n; i++) {
		if (strncmp(m->kv[i].key, "label_", 6))
			continue;
		nl = realloc(f->label, (f->nr_labels + 1) * sizeof(*nl));
		if (!nl)
			return -ENOMEM;
		f->label = nl;
		if (asprintf(&f->label[f->nr_labels], "%s=%s", m->kv[i].key + 6, m->kv[i].val) < 0)
			return -ENOMEM;
		f->nr_labels++;
	}
	return 0;
}

/*
 * the first file's unit and frac_bits, which the caller's fileset holds
 * every other file to (lib/results/fileset.h); every file's timestamp and
 * labels
 */
static int history_file_check(struct history *h, struct history_file *f, const struct results *cf,
			   char *why, size_t len)
{
	uint64_t pc = 0;
	int ret = meta_get_u64(&cf->meta, "possible_cpus", &pc);

	/* the fileset refused a value that is no count (fileset.h) */
	if (ret && ret != -ENOENT) {
		meta_check("possible_cpus", meta_get(&cf->meta, "possible_cpus"), why, len);
		return -EINVAL;
	}
	if (!f->given) {
		snprintf(h->unit, sizeof(h->unit), "%s", fileset_unit(cf));
		h->frac_bits = cf->frac_bits;
	}
	f->partial = results_partial(cf);
	f->possible = (double)pc;
	if (history_labels(f, &cf->meta))
		return -ENOMEM;
	switch (meta_time(&cf->meta, &f->t)) {
	case 0:
		snprintf(f->stamp, sizeof(f->stamp), "%s", meta_get(&cf->meta, "timestamp"));
		return 0;
	case -ENOENT:
		return 0;
	default:
		snprintf(why, len, "%s: timestamp '%s' is not YYYY-MM-DDTHH:MM:SSZ (UTC)", f->path,
			 meta_get(&cf->meta, "timestamp"));
		return -EINVAL;
	}
}

int history_read(struct history *h, unsigned int fi, const struct results *cf, enum cmp_stat stat,
	      char *why, size_t len)
{
	struct history_file *f = &h->f[fi];
	struct history_series *s;
	unsigned int i;
	int ret = history_file_check(h, f, cf, why, len);

	for (i = 0; i < cf->n && !ret; i++) {
		const struct results_series *c = &cf->s[i];

		/* each (workload, variant) once: its rows merged over CPUs and runs */
		if (c->cpu != RESULTS_CPU_ALL || c->run != RESULTS_RUN_ALL ||
		    !strcmp(c->variant, RESULTS_REFERENCE))
			continue;
		s = history_series_get(h, c->workload, c->variant);
		ret = s ? history_series_runs(s, cf, fi, f->path, stat, why, len) : -ENOMEM;
	}
	return ret;
}

/* ---- order ---- */

static int history_file_order(const void *x, const void *y)
{
	const struct history_file *a = x, *b = y;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->given < b->given ? -1 : a->given > b->given;
}

static int history_run_order(const void *x, const void *y)
{
	const struct history_run *a = x, *b = y;

	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return a->run < b->run ? -1 : a->run > b->run;
}

unsigned int history_missing_stamps(const struct history *h)
{
	unsigned int i, missing = 0;

	for (i = 0; i < h->nf; i++)
		missing += !h->f[i].stamp[0];
	return missing;
}

int history_sort(struct history *h)
{
	unsigned int i, k, *rank;

	h->by_time = !history_missing_stamps(h);
	if (!h->by_time)
		return 0;
	rank = malloc((h->nf ? h->nf : 1) * sizeof(*rank));
	if (!rank)
		return -ENOMEM;
	qsort(h->f, h->nf, sizeof(*h->f), history_file_order);
	for (i = 0; i < h->nf; i++)
		rank[h->f[i].given] = i;
	for (k = 0; k < h->ns; k++) {
		for (i = 0; i < h->s[k].n; i++)
			h->s[k].r[i].file = rank[h->s[k].r[i].file];
		qsort(h->s[k].r, h->s[k].n, sizeof(*h->s[k].r), history_run_order);
	}
	free(rank);
	return 0;
}

/* ---- the reference ---- */

int history_decide_ref(struct history *h, enum cmp_ref ref, char *why, size_t len)
{
	unsigned int k, i;

	h->scaled = false;
	if (ref == CMP_REF_OFF)
		return 0;
	for (k = 0; k < h->ns; k++)
		for (i = 0; i < h->s[k].n; i++) {
			const struct history_run *r = &h->s[k].r[i];

			if (r->ref > 0)
				continue;
			if (ref == CMP_REF_AUTO)
				return 0;
			snprintf(why, len, "%s: run %u has no reference rows (bench run --cache cold or --reference on writes them); --reference off takes the raw figures",
				 h->f[r->file].path, r->run);
			return -EINVAL;
		}
	h->scaled = true;
	return 0;
}

/* s->x at the median machine speed, by the share fitted within each file */
static int history_scale(struct history_series *s)
{
	unsigned int i, g = 0, *len = calloc(s->n, sizeof(*len));
	double *r = malloc(s->n * sizeof(*r)), spread;
	int ret = 0;

	if (!len || !r) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < s->n; i++) {
		r[i] = s->r[i].ref;
		g += i && s->r[i].file != s->r[i - 1].file;
		len[g]++;
	}
	s->share = cmp_ref_share_groups(s->x, r, len, g + 1);
	s->ref_at = cmp_median_spread(r, s->n, &spread);
	for (i = 0; i < s->n; i++)
		r[i] = s->r[i].ref;
	cmp_ref_adjust(s->x, r, s->n, s->ref_at, s->share);
out_free:
	free(r);
	free(len);
	return ret;
}

int history_figures(const struct history *h, struct history_series *s)
{
	unsigned int i;

	free(s->x);
	s->x = malloc((s->n ? s->n : 1) * sizeof(*s->x));
	if (!s->x)
		return -ENOMEM;
	for (i = 0; i < s->n; i++)
		s->x[i] = s->r[i].x;
	return h->scaled && s->n ? history_scale(s) : 0;
}

double history_median(const double *v, unsigned int lo, unsigned int hi, double *spread)
{
	double *tmp = malloc((hi - lo + 1) * sizeof(*tmp)), med;

	*spread = 0;
	if (!tmp)
		return 0;
	memcpy(tmp, v + lo, (hi - lo) * sizeof(*tmp));
	med = cmp_median_spread(tmp, hi - lo, spread);
	free(tmp);
	return med;
}

/* ---- the slope of each night's sweep ---- */

/* the length of @path's directory: a night under --slope ("" for a bare name) */
static size_t history_dir_len(const char *path)
{
	const char *sl = strrchr(path, '/');

	return sl ? (size_t)(sl - path) : 0;
}

static bool history_same_dir(const char *a, const char *b)
{
	size_t n = history_dir_len(a);

	return n == history_dir_len(b) && !strncmp(a, b, n);
}

/* night[i]: the night of file i, numbered as their first files come; their count */
static unsigned int history_slope_nights(const struct history *h, unsigned int *night,
				      unsigned int *first)
{
	unsigned int i, j, nn = 0;

	for (i = 0; i < h->nf; i++) {
		for (j = 0; j < nn && !history_same_dir(h->f[first[j]].path, h->f[i].path); j++)
			;
		if (j == nn)
			first[nn++] = i;
		night[i] = j;
	}
	return nn;
}

/* night @j's slope of @s into @r; 0 or -errno with @why */
static int history_slope_night(const struct history *h, const struct history_series *s,
			    const unsigned int *night, unsigned int j, const char *dir,
			    double *px, double *py, struct history_run *r, char *why, size_t len)
{
	struct scale_fit fit;
	unsigned int i, m = 0;
	int ret;

	for (i = 0; i < s->n; i++) {
		if (night[s->r[i].file] != j)
			continue;
		px[m] = h->f[s->r[i].file].possible;
		py[m++] = s->x[i];
	}
	if (!m) {
		snprintf(why, len, "%s: no %s %s runs in it (night %u)", dir, s->workload, s->variant, j + 1);
		return -EINVAL;
	}
	ret = scale_theil_sen(px, py, m, &fit);
	if (ret == -EINVAL)
		snprintf(why, len, "%s: %s %s: its %u runs are at one possible-CPU count: a night's slope needs a sweep of two or more",
			 dir, s->workload, s->variant, m);
	else if (ret == -E2BIG)
		snprintf(why, len, "%s: %s %s: %u runs, more than %u in one fit", dir, s->workload,
			 s->variant, m, SCALE_MAX_POINTS);
	else if (!ret && !(fit.slope > 0)) {
		snprintf(why, len, "%s: %s %s: the slope is %g %s per CPU, not above 0: trend follows a cost that grows with possible CPUs",
			 dir, s->workload, s->variant, fit.slope, h->unit);
		ret = -EINVAL;
	}
	*r = (struct history_run){ .file = j, .run = m, .x = fit.slope };
	return ret;
}

static int history_slope_series(const struct history *h, struct history_series *s,
				const unsigned int *night, const unsigned int *first,
				unsigned int nn, char *why, size_t len)
{
	double *px = malloc(s->n * sizeof(*px)), *py = malloc(s->n * sizeof(*py));
	double *x = calloc(nn, sizeof(*x));
	struct history_run *r = calloc(nn, sizeof(*r));
	char dir[PATH_MAX];
	unsigned int j;
	int ret = px && py && x && r ? 0 : -ENOMEM;

	for (j = 0; j < nn && !ret; j++) {
		const char *p = h->f[first[j]].path;

		snprintf(dir, sizeof(dir), "%.*s", history_dir_len(p) ? (int)history_dir_len(p) : 1,
			 history_dir_len(p) ? p : ".");
		ret = history_slope_night(h, s, night, j, dir, px, py, &r[j], why, len);
		x[j] = r[j].x;
	}
	free(px);
	free(py);
	if (ret) {
		free(x);
		free(r);
		return ret;
	}
	free(s->r);
	free(s->x);
	s->r = r;
	s->x = x;
	s->n = s->cap = nn;
	return 0;
}

/* the files become the nights: a night's directory, its first file's stamp and labels */
static int history_slope_files(struct history *h, const unsigned int *night,
			       const unsigned int *first, unsigned int nn)
{
	struct history_file *nf = calloc(nn, sizeof(*nf));
	unsigned int i, j;
	size_t n;

	if (!nf)
		return -ENOMEM;
	for (j = 0; j < nn; j++) {
		n = history_dir_len(h->f[first[j]].path);
		nf[j].path = n ? strndup(h->f[first[j]].path, n) : strdup(".");
		if (!nf[j].path)
			goto out_free;
	}
	for (j = 0; j < nn; j++) {
		struct history_file *f = &h->f[first[j]];
		char *path = nf[j].path;

		nf[j] = *f;
		nf[j].path = path;
		nf[j].given = j;
		nf[j].possible = 0;
		f->label = NULL;	/* moved */
		f->nr_labels = 0;
	}
	for (i = 0; i < h->nf; i++) {
		nf[night[i]].partial |= h->f[i].partial;
		while (h->f[i].nr_labels)
			free(h->f[i].label[--h->f[i].nr_labels]);
		free(h->f[i].label);
		free(h->f[i].path);
	}
	free(h->f);
	h->f = nf;
	h->nf = h->capf = nn;
	return 0;
out_free:
	while (j--)
		free(nf[j].path);
	free(nf);
	return -ENOMEM;
}

int history_slope(struct history *h, char *why, size_t len)
{
	unsigned int *night = calloc(h->nf, sizeof(*night));
	unsigned int *first = calloc(h->nf, sizeof(*first));
	unsigned int i, nn;
	int ret = night && first ? 0 : -ENOMEM;

	for (i = 0; i < h->nf && !ret; i++) {
		if (!(h->f[i].possible >= 1)) {
			snprintf(why, len, "%s: no possible_cpus metadata: --slope fits each night's runs against it",
				 h->f[i].path);
			ret = -EINVAL;
		}
	}
	nn = ret ? 0 : history_slope_nights(h, night, first);
	for (i = 0; i < h->ns && !ret; i++)
		ret = history_slope_series(h, &h->s[i], night, first, nn, why, len);
	if (!ret)
		ret = history_slope_files(h, night, first, nn);
	h->slope = !ret;
	free(first);
	free(night);
	return ret;
}

void history_free(struct history *h)
{
	unsigned int i;

	for (i = 0; i < h->ns; i++) {
		free(h->s[i].r);
		free(h->s[i].x);
		free(h->s[i].cp);
		free(h->s[i].subject);
		free(h->s[i].control);
	}
	for (i = 0; i < h->nf; i++) {
		while (h->f[i].nr_labels)
			free(h->f[i].label[--h->f[i].nr_labels]);
		free(h->f[i].label);
		free(h->f[i].path);
	}
	free(h->s);
	free(h->f);
	memset(h, 0, sizeof(*h));
}
