// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-trend.c - bench trend: change points over a history of
 * results, each run's figure taken as bench compare takes it, found by
 * E-divisive means with a seeded permutation test (lib/report/trend.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench.h"
#include "lib/report/cmpfmt.h"
#include "lib/report/compare.h"
#include "lib/report/json.h"
#include "lib/report/meta.h"
#include "lib/report/results.h"
#include "lib/report/trend.h"

/*
 * The nightly job's question: did the newest change point of a series
 * move it up by more than the threshold, within the last runs? 12 runs
 * are four nights of bench run --runs 3: a change is found once 3 runs
 * after it are in, and the job keeps failing on it for a few nights.
 */
#define TREND_RECENT	12
/* a test costs window^2 per shuffle and (window + 1)^2 doubles: 8 MB here */
#define TREND_MAX_WINDOW	1000

enum trend_format { TREND_TABLE, TREND_CSV, TREND_RUNS, TREND_JSON, TREND_MARKDOWN };

static const char *const trend_formats[] = { "table", "csv", "runs", "json", "markdown", NULL };

struct trend_opts {
	enum cmp_stat stat;		/* --stat: the per-run figure */
	enum cmp_ref reference;		/* --reference */
	double alpha;			/* --alpha, in [TREND_MIN_ALPHA, 1) */
	double min_change_pct;		/* --min-change, percent, >= 0 */
	uint64_t window;		/* --window, runs */
	uint64_t recent;		/* --recent, runs */
	uint64_t seed;			/* --seed */
	enum trend_format format;	/* --format */
};

/* one file of the history */
struct trend_file {
	char *path;			/* as given, or DIR/NAME; owned */
	char stamp[32];			/* its timestamp metadata, "" when none */
	time_t t;			/* the timestamp, parsed */
	unsigned int given;		/* its place in the order given */
	char **label;			/* [nr_labels] "KEY=VALUE" of its label_KEY metadata */
	unsigned int nr_labels;		/* (bench run --label: commit, branch, build) */
};

/* one run of a series */
struct trend_run {
	unsigned int file;		/* index in the files, in time order once sorted */
	unsigned int run;		/* its number in that file, 1-based */
	double x;			/* the figure (--stat) */
	double ref;			/* the reference loop's tm10, 0: none */
};

/* one (workload, variant) over the whole history */
struct trend_series {
	char workload[64];		/* e.g. irqdesc-alloc */
	char variant[32];		/* old, new */
	struct trend_run *r;		/* [n] its runs, in time order once sorted */
	unsigned int n, cap;		/* in use, allocated */
	double *x;			/* [n] figures in time order, scaled when decided */
	double share;			/* --reference: cmp_ref_share_groups(), 0 raw */
	double ref_at;			/* --reference: the median reference, scaled to */
	struct trend_cp *cp;		/* [nr_cp] change points, in order */
	unsigned int nr_cp;		/* how many */
};

struct trend_hist {
	struct trend_file *f;		/* [nf] the files */
	unsigned int nf, capf;		/* in use, allocated */
	struct trend_series *s;		/* [ns] the series, in order of first appearance */
	unsigned int ns, caps;		/* in use, allocated */
	char unit[16];			/* ns or cycles, the same in every file */
	unsigned int frac_bits;		/* the same in every file */
	bool by_time;			/* every file has a timestamp: sorted by it */
	bool scaled;			/* figures scaled by the reference: decided */
};

static int trend_nomem(void)
{
	fprintf(stderr, "%s: %s\n", bench_prog, strerror(ENOMEM));
	return EXIT_ENV;
}

/* ---- options ---- */

static const char trend_head[] =
	"Usage: bench trend [OPTIONS] FILE|DIR...\n"
	"Change points in a history of results (nightly runs): every run of every\n"
	"file, a DIR meaning the *.csv in it, in the order of each file's timestamp\n"
	"metadata. For every (workload, variant): one figure per run, as bench\n"
	"compare takes it (--stat, --reference), and E-divisive means over them\n"
	"(Matteson and James), each change point accepted by a seeded permutation\n"
	"test of its energy statistic (output reproducible: same files, same seed).\n";

static const char trend_tail[] =
	"Each line: a change point, where (the timestamp, file and run of the first\n"
	"run after it, and its place in the series), the median of the runs before ->\n"
	"after it (to the neighbouring change points), the Hodges-Lehmann change\n"
	"[95% interval] and the permutation p of the runs the test saw (at most\n"
	"--window), n=BEFORE+AFTER runs, and regression or improvement. A series\n"
	"without one says so. Then a closing TREND line.\n"
	"\n"
	"Exit: 0 no recent regression, 1 a series' newest change point is a\n"
	"regression that starts within the last --recent runs, 2 bad input.\n";

/* a double in [@lo, @hi) (@hi 0: no bound), for --alpha and --min-change */
static int trend_double(const struct opt *o, const char *arg, double lo, double hi,
			const char *range, char *why, size_t len)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!errno && end != arg && !*end && isfinite(v) && v >= lo && (!hi || v < hi)) {
		*(double *)o->value = v;
		return 0;
	}
	snprintf(why, len, "--%s: '%s' is not a number %s", o->long_name, arg, range);
	return -EINVAL;
}

static int trend_alpha(const struct opt *o, const char *arg, char *why, size_t len)
{
	return trend_double(o, arg, TREND_MIN_ALPHA, 1, "in [0.000001, 1)", why, len);
}

static int trend_min_change(const struct opt *o, const char *arg, char *why, size_t len)
{
	return trend_double(o, arg, 0, 0, ">= 0 (percent)", why, len);
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int trend_parse(int argc, char **argv, struct trend_opts *o)
{
	const struct opt opts[] = {
		OPT_ENUM('s', "stat", &o->stat, cmp_stat_names, "STAT",
			 "per-run figure: tm10 (10% trimmed mean, default),\n"
			 "median, mean, p90, p99"),
		OPT_ENUM('r', "reference", &o->reference, cmp_ref_names, "WHEN",
			 "scale each run's figure by its reference loop, as\n"
			 "compare does, the share fitted within each file:\n"
			 "auto (default, when every run has it), on, off"),
		OPT_CALL('a', "alpha", &o->alpha, trend_alpha, "A",
			 "a change point's p at most A, in [0.000001, 1)\n"
			 "(default 0.001; a change point costs 2/A shuffles)"),
		OPT_CALL('t', "min-change", &o->min_change_pct, trend_min_change, "PCT",
			 "report changes beyond PCT only, >= 0 (default "
			 BENCH_STR(CMP_THRESHOLD_PCT) ",\n"
			 "compare's threshold)"),
		OPT_U64('w', "window", &o->window, 2 * TREND_MIN_SEG, TREND_MAX_WINDOW, "N",
			"runs one test sees at most, for long histories,\n"
			"6..1000 (default " BENCH_STR(TREND_WINDOW) "; 18 or more at alpha 0.001)"),
		OPT_U64(0, "recent", &o->recent, 1, UINT32_MAX, "N",
			"exit 1 for a regression starting in the last N\n"
			"runs of its series, 1..2^32-1 (default " BENCH_STR(TREND_RECENT) ")"),
		OPT_U64(0, "seed", &o->seed, 0, UINT64_MAX, "S",
			"the permutations' generator (default 1)"),
		OPT_ENUM('f', "format", &o->format, trend_formats, "FMT",
			 "table (default), csv (one row per change point),\n"
			 "runs (every run's figure and its segment's median:\n"
			 "what ./run.sh trend plots), json, markdown"),
		OPT_END()
	};
	const struct opt *tab[] = { opts, NULL };
	struct opt_parser p = { .tab = tab };
	int ret = bench_options(&p, trend_head, trend_tail, argc, argv);

	if (ret)
		return ret;
	if (optind == argc) {
		bench_err("needs FILE.csv... or a DIR of them");
		return -1;
	}
	if (o->window < trend_min_window(o->alpha)) {
		bench_err("--window %lu cannot reach --alpha %g: its tests' smallest p is above it (%u runs or more)",
			  (unsigned long)o->window, o->alpha, trend_min_window(o->alpha));
		return -1;
	}
	return 0;
}

/* ---- the files ---- */

/*
 * Room for one more element in the array *@p of @n in use and *@cap
 * allocated (@size bytes each): doubled when full, from @first.
 * Returns 0 or -ENOMEM (*@p as it was).
 */
static int grow(void *p, unsigned int n, unsigned int *cap, size_t size, unsigned int first)
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

static int file_add(struct trend_hist *h, const char *dir, const char *name)
{
	char *path;

	if (grow(&h->f, h->nf, &h->capf, sizeof(*h->f), 64))
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

/* *.csv, not hidden (run.sh's and bench's temp files start with a dot) */
static int csv_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 4 && !strcmp(d->d_name + n - 4, ".csv");
}

/* the *.csv of @dir, by name; 0, or an exit code after a message */
static int dir_add(struct trend_hist *h, const char *dir)
{
	struct dirent **list;
	int i, n = scandir(dir, &list, csv_name, alphasort), ret = 0;

	if (n < 0) {
		fprintf(stderr, "%s: %s: %s\n", bench_prog, dir, strerror(errno));
		return EXIT_USAGE;
	}
	if (!n) {
		fprintf(stderr, "%s: %s: no .csv files in it\n", bench_prog, dir);
		ret = EXIT_USAGE;
	}
	for (i = 0; i < n; i++) {
		if (!ret && file_add(h, dir, list[i]->d_name))
			ret = trend_nomem();
		free(list[i]);
	}
	free(list);
	return ret;
}

/* every operand: a file as it is, a directory as its CSVs */
static int files_add(struct trend_hist *h, int argc, char **argv)
{
	struct stat st;
	int i, ret = 0;

	for (i = optind; i < argc && !ret; i++) {
		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode))
			ret = dir_add(h, argv[i]);
		else if (file_add(h, NULL, argv[i]))
			ret = trend_nomem();
	}
	return ret;
}

/* ---- reading the runs ---- */

static struct trend_series *series_get(struct trend_hist *h, const char *wl, const char *var)
{
	struct trend_series *ns;
	unsigned int i;

	for (i = 0; i < h->ns; i++)
		if (!strcmp(h->s[i].workload, wl) && !strcmp(h->s[i].variant, var))
			return &h->s[i];
	if (grow(&h->s, h->ns, &h->caps, sizeof(*h->s), 8))
		return NULL;
	ns = &h->s[h->ns++];
	memset(ns, 0, sizeof(*ns));
	snprintf(ns->workload, sizeof(ns->workload), "%s", wl);
	snprintf(ns->variant, sizeof(ns->variant), "%s", var);
	return ns;
}

static int run_add(struct trend_series *s, const struct trend_run *r)
{
	if (grow(&s->r, s->n, &s->cap, sizeof(*s->r), 64))
		return -ENOMEM;
	s->r[s->n++] = *r;
	return 0;
}

/*
 * Every run of (@wl, @var) in @cf: its figure, which must be > 0 (the
 * changes are ratios), and the reference figure it pairs with (0 when
 * none), both exactly as compare takes them (cmp_run_figures()).
 */
static int series_runs(const struct trend_opts *o, struct trend_series *s,
		       const struct results *cf, unsigned int fi, const char *path)
{
	unsigned int i, n = results_nr_runs(cf, s->workload, s->variant);
	double *x = calloc(2 * (size_t)(n ? n : 1), sizeof(*x)), *ref = x + n;
	struct trend_run r = { .file = fi };
	int ret = 0;

	if (!x)
		return trend_nomem();
	n = cmp_run_figures(cf, s->workload, s->variant, o->stat, x, ref);
	for (i = 0; i < n && !ret; i++) {
		r.run = i + 1;
		r.x = x[i];
		r.ref = ref[i];
		if (!(r.x > 0)) {
			fprintf(stderr, "%s: %s: run %u: %s %s has a %s of 0: no change can be measured from it\n",
				bench_prog, path, r.run, s->workload, s->variant,
				cmp_stat_names[o->stat]);
			ret = EXIT_USAGE;
		} else if (run_add(s, &r)) {
			ret = trend_nomem();
		}
	}
	free(x);
	return ret;
}

/* the file's label_KEY metadata as "KEY=VALUE", in order */
static int file_labels(struct trend_file *f, const struct meta *m)
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

/* the file's unit and frac_bits against the first file's; its timestamp and labels */
static int file_check(struct trend_hist *h, struct trend_file *f, const struct results *cf)
{
	const char *unit = meta_get(&cf->meta, "unit");
	const char *part = meta_get(&cf->meta, "partial");

	if (!unit)
		unit = "ns";
	if (!f->given) {
		snprintf(h->unit, sizeof(h->unit), "%s", unit);
		h->frac_bits = cf->frac_bits;
	} else if (strcmp(unit, h->unit) || cf->frac_bits != h->frac_bits) {
		fprintf(stderr, "%s: %s is in %s with frac_bits %u, %s in %s with %u: they measure differently\n",
			bench_prog, h->f[0].path, h->unit, h->frac_bits, f->path, unit,
			cf->frac_bits);
		return EXIT_USAGE;
	}
	if (part && !strcmp(part, "yes"))
		fprintf(stderr, "%s: warning: %s was interrupted (partial: yes): its last run may hold fewer samples\n",
			bench_prog, f->path);
	if (file_labels(f, &cf->meta))
		return trend_nomem();
	switch (meta_time(&cf->meta, &f->t)) {
	case 0:
		snprintf(f->stamp, sizeof(f->stamp), "%s", meta_get(&cf->meta, "timestamp"));
		return 0;
	case -ENOENT:
		return 0;
	default:
		fprintf(stderr, "%s: %s: timestamp '%s' is not YYYY-MM-DDTHH:MM:SSZ (UTC)\n",
			bench_prog, f->path, meta_get(&cf->meta, "timestamp"));
		return EXIT_USAGE;
	}
}

/*
 * Read one file, keep its runs' figures, let the file go: a history of
 * a thousand files never holds more than one file's histograms.
 */
static int file_read(const struct trend_opts *o, struct trend_hist *h, unsigned int fi)
{
	struct trend_file *f = &h->f[fi];
	struct results *cf = NULL;
	struct trend_series *s;
	unsigned int i;
	int ret = bench_load_csv(f->path, &cf);

	if (ret)
		return ret;
	ret = file_check(h, f, cf);
	for (i = 0; i < cf->n && !ret; i++) {
		const struct results_series *c = &cf->s[i];

		/* each (workload, variant) once: its rows merged over CPUs and runs */
		if (c->cpu != RESULTS_CPU_ALL || c->run != RESULTS_RUN_ALL ||
		    !strcmp(c->variant, RESULTS_REFERENCE))
			continue;
		s = series_get(h, c->workload, c->variant);
		ret = s ? series_runs(o, s, cf, fi, f->path) : trend_nomem();
	}
	results_free(cf);
	return ret;
}

/* ---- order, reference, detection ---- */

static int file_order(const void *x, const void *y)
{
	const struct trend_file *a = x, *b = y;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->given < b->given ? -1 : a->given > b->given;
}

static int run_order(const void *x, const void *y)
{
	const struct trend_run *a = x, *b = y;

	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return a->run < b->run ? -1 : a->run > b->run;
}

/*
 * Time order when every file has a timestamp (equal ones keep the order
 * given), else the order given, said on stderr; then each series' runs
 * follow their files.
 */
static int hist_sort(struct trend_hist *h)
{
	unsigned int i, k, missing = 0, *rank;

	for (i = 0; i < h->nf; i++)
		missing += !h->f[i].stamp[0];
	h->by_time = !missing;
	if (!h->by_time)
		return 0;
	rank = malloc(h->nf * sizeof(*rank));
	if (!rank)
		return trend_nomem();
	qsort(h->f, h->nf, sizeof(*h->f), file_order);
	for (i = 0; i < h->nf; i++)
		rank[h->f[i].given] = i;
	for (k = 0; k < h->ns; k++) {
		for (i = 0; i < h->s[k].n; i++)
			h->s[k].r[i].file = rank[h->s[k].r[i].file];
		qsort(h->s[k].r, h->s[k].n, sizeof(*h->s[k].r), run_order);
	}
	free(rank);
	return 0;
}

/*
 * --reference: scaled when every run of every series has a reference
 * figure (auto, on); 0, or EXIT_USAGE after naming the first run
 * without one (on).
 */
static int hist_decide_ref(const struct trend_opts *o, struct trend_hist *h)
{
	unsigned int k, i;

	h->scaled = false;
	if (o->reference == CMP_REF_OFF)
		return 0;
	for (k = 0; k < h->ns; k++)
		for (i = 0; i < h->s[k].n; i++) {
			const struct trend_run *r = &h->s[k].r[i];

			if (r->ref > 0)
				continue;
			if (o->reference == CMP_REF_AUTO)
				return 0;
			fprintf(stderr, "%s: %s: run %u has no reference rows (bench run --cache cold or --reference on writes them); --reference off takes the raw figures\n",
				bench_prog, h->f[r->file].path, r->run);
			return EXIT_USAGE;
		}
	h->scaled = true;
	return 0;
}

/*
 * Each run's figure at the median machine speed, by the series' share
 * of the reference's movement fitted within each file (the runs of one
 * invocation): a change between nightlies does not enter the fit.
 */
static int series_scale(struct trend_series *s)
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

static int series_detect(const struct trend_opts *o, const struct trend_hist *h,
			 struct trend_series *s)
{
	struct trend_cfg cfg = {
		.alpha = o->alpha, .min_change = o->min_change_pct / 100,
		.window = (unsigned int)o->window, .seed = o->seed,
	};
	unsigned int i;
	int ret;

	s->x = malloc((s->n ? s->n : 1) * sizeof(*s->x));
	if (!s->x)
		return trend_nomem();
	for (i = 0; i < s->n; i++)
		s->x[i] = s->r[i].x;
	if (h->scaled && series_scale(s))
		return trend_nomem();
	ret = trend_detect(s->x, s->n, &cfg, &s->cp, &s->nr_cp);
	if (ret == -ENOMEM)
		return trend_nomem();
	if (ret) {
		fprintf(stderr, "%s: %s %s: %s\n", bench_prog, s->workload, s->variant, strerror(-ret));
		return EXIT_USAGE;
	}
	return 0;
}

/* ---- what a change point says ---- */

static enum cmp_verdict cp_verdict(const struct trend_opts *o, const struct trend_cp *c)
{
	double t = o->min_change_pct / 100;

	if (c->change.est > t)
		return CMP_REGRESSION;
	return c->change.est < -t ? CMP_IMPROVEMENT : CMP_BELOW;
}

/* the first run after @c is among the last --recent runs of @s */
static bool cp_recent(const struct trend_opts *o, const struct trend_series *s,
		      const struct trend_cp *c)
{
	return s->n - c->idx <= o->recent;
}

/* the nightly job's failure: the newest change point, a recent regression */
static bool series_failing(const struct trend_opts *o, const struct trend_series *s)
{
	const struct trend_cp *c = s->nr_cp ? &s->cp[s->nr_cp - 1] : NULL;

	return c && cp_verdict(o, c) == CMP_REGRESSION && cp_recent(o, s, c);
}

/* the median of @s's runs in [lo, hi) and its spread */
static double series_median(const struct trend_series *s, unsigned int lo, unsigned int hi,
			    double *spread)
{
	double *tmp = malloc((hi - lo + 1) * sizeof(*tmp)), med;

	*spread = 0;
	if (!tmp)
		return 0;
	memcpy(tmp, s->x + lo, (hi - lo) * sizeof(*tmp));
	med = cmp_median_spread(tmp, hi - lo, spread);
	free(tmp);
	return med;
}

struct trend_tally {
	unsigned int change_points;	/* in every series */
	unsigned int regressions;	/* verdict regression */
	unsigned int improvements;	/* verdict improvement */
	unsigned int failing;		/* series whose newest is a recent regression */
};

static void hist_tally(const struct trend_opts *o, const struct trend_hist *h,
		       struct trend_tally *t)
{
	unsigned int k, i;

	for (k = 0; k < h->ns; k++) {
		for (i = 0; i < h->s[k].nr_cp; i++) {
			enum cmp_verdict v = cp_verdict(o, &h->s[k].cp[i]);

			t->change_points++;
			t->regressions += v == CMP_REGRESSION;
			t->improvements += v == CMP_IMPROVEMENT;
		}
		t->failing += series_failing(o, &h->s[k]);
	}
}

/* a table cell: GitHub's tables end a cell at any |, so it is escaped */
static void md_cell(const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\')
			putchar('\\');
		putchar(*s == '\n' ? ' ' : *s);
	}
}

/*
 * Where a change point is, for a human: the timestamp and labels of the
 * first run after it, its file and run; @md escapes for a markdown cell.
 */
static void print_where(const struct trend_file *f, unsigned int run, bool md)
{
	unsigned int i;

	if (f->stamp[0])
		printf("%s ", f->stamp);
	for (i = 0; i < f->nr_labels; i++) {
		if (md)
			md_cell(f->label[i]);
		else
			fputs(f->label[i], stdout);
		putchar(' ');
	}
	if (md)
		md_cell(f->path);
	else
		fputs(f->path, stdout);
	printf(" run %u", run);
}

/* ---- -f table ---- */

/* a change point's figures as text, for the table and markdown */
struct cp_text {
	char before[32], after[32];	/* the segments' medians */
	char est[32], lo[32], hi[32];	/* the change and its interval */
	char p[16];			/* its p */
};

static void cp_text(struct cp_text *t, const struct trend_cp *c, bool cycles)
{
	cmpfmt_value(t->before, sizeof(t->before), c->before, cycles);
	cmpfmt_value(t->after, sizeof(t->after), c->after, cycles);
	cmpfmt_pct(t->est, sizeof(t->est), c->change.est);
	cmpfmt_pct(t->lo, sizeof(t->lo), c->change.lo);
	cmpfmt_pct(t->hi, sizeof(t->hi), c->change.hi);
	snprintf(t->p, sizeof(t->p), "%.2g", c->p);
}

/* one change point: a table line, or (@md) a markdown row */
static void print_cp(const struct trend_opts *o, const struct trend_hist *h,
		     const struct trend_series *s, const struct trend_cp *c, bool cycles, bool md)
{
	const struct trend_run *r = &s->r[c->idx];
	struct cp_text t;

	cp_text(&t, c, cycles);
	printf(md ? "| %s %s %s | " : "%s %s %s  ", s->workload, s->variant, cmp_stat_names[o->stat]);
	print_where(&h->f[r->file], r->run, md);
	printf(md ? " (#%u of %u) | %s | %s | %s [%s, %s] | %s | %u+%u | %s%s |\n" :
		    " (#%u of %u)  %s -> %s  %s [%s, %s]  p=%s n=%u+%u  %s%s\n",
	       c->idx + 1, s->n, t.before, t.after, t.est, t.lo, t.hi, t.p, c->idx - c->lo,
	       c->hi - c->idx, cmp_verdict_names[cp_verdict(o, c)],
	       !cp_recent(o, s, c) ? "" : md ? ", **recent**" : ", recent");
}

static void table_series(const struct trend_opts *o, const struct trend_hist *h,
			 const struct trend_series *s, bool cycles)
{
	char m[32];
	double med, spread;
	unsigned int i;

	for (i = 0; i < s->nr_cp; i++)
		print_cp(o, h, s, &s->cp[i], cycles, false);
	if (s->nr_cp)
		return;
	med = series_median(s, 0, s->n, &spread);
	printf("%s %s %s  no change point in %u runs%s  %s +-%.0f%%\n", s->workload, s->variant,
	       cmp_stat_names[o->stat], s->n, s->n < 2 * TREND_MIN_SEG ? " (too few to split)" : "",
	       cmpfmt_value(m, sizeof(m), med, cycles), spread * 100);
}

/* per workload: the speed the figures were brought to, and each share */
static void table_ref(const struct trend_hist *h, unsigned int k, bool cycles)
{
	const struct trend_series *s = &h->s[k];
	char m[32];
	unsigned int i;

	printf("%s reference tm10 (median run): %s; figures at it by their share, fitted within each file:",
	       s->workload, cmpfmt_value(m, sizeof(m), s->ref_at, cycles));
	for (i = k; i < h->ns; i++)
		if (!strcmp(h->s[i].workload, s->workload))
			printf(" %s %.2f", h->s[i].variant, h->s[i].share);
	putchar('\n');
}

static void table_print(const struct trend_opts *o, const struct trend_hist *h,
			const struct trend_tally *t, bool cycles)
{
	unsigned int k, i;

	for (k = 0; k < h->ns; k++)
		table_series(o, h, &h->s[k], cycles);
	for (k = 0; h->scaled && k < h->ns; k++) {
		for (i = 0; i < k && strcmp(h->s[i].workload, h->s[k].workload); i++)
			;
		if (i == k)
			table_ref(h, k, cycles);
	}
	printf("TREND series=%u files=%u change_points=%u regressions=%u improvements=%u failing=%u stat=%s alpha=%g min_change=%g%% window=%lu recent=%lu seed=%lu reference=%s order=%s verdict=%s\n",
	       h->ns, h->nf, t->change_points, t->regressions, t->improvements, t->failing,
	       cmp_stat_names[o->stat], o->alpha, o->min_change_pct, (unsigned long)o->window,
	       (unsigned long)o->recent, (unsigned long)o->seed, h->scaled ? "scaled" : "raw",
	       h->by_time ? "timestamp" : "given", t->failing ? "regression" : "ok");
}

/* ---- -f csv, -f runs ---- */

/* a field as RFC 4180 wants it: quoted, quotes doubled, when it holds , " or a newline */
static void csv_field(const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

/* the labels as one field, "KEY=VALUE KEY=VALUE" */
static void csv_labels(const struct trend_file *f)
{
	size_t len = 1;
	unsigned int i;
	char *all;

	for (i = 0; i < f->nr_labels; i++)
		len += strlen(f->label[i]) + 1;
	all = calloc(1, len);
	for (i = 0; all && i < f->nr_labels; i++)
		strcat(strcat(all, i ? " " : ""), f->label[i]);
	csv_field(all ? all : "");
	free(all);
}

#define TREND_CSV_COLUMNS "workload,variant,stat,index,runs,timestamp,labels,file,run,before,after,change_pct,ci_lo_pct,ci_hi_pct,p,n_before,n_after,verdict,recent"

static void csv_print(const struct trend_opts *o, const struct trend_hist *h)
{
	unsigned int k, i;

	printf(TREND_CSV_COLUMNS "\n");
	for (k = 0; k < h->ns; k++)
		for (i = 0; i < h->s[k].nr_cp; i++) {
			const struct trend_series *s = &h->s[k];
			const struct trend_cp *c = &s->cp[i];
			const struct trend_run *r = &s->r[c->idx];

			printf("%s,%s,%s,%u,%u,%s,", s->workload, s->variant,
			       cmp_stat_names[o->stat], c->idx + 1, s->n, h->f[r->file].stamp);
			csv_labels(&h->f[r->file]);
			putchar(',');
			csv_field(h->f[r->file].path);
			printf(",%u,%.6g,%.6g,%.2f,%.2f,%.2f,%.6f,%u,%u,%s,%s\n", r->run, c->before,
			       c->after, c->change.est * 100, c->change.lo * 100,
			       c->change.hi * 100, c->p, c->idx - c->lo, c->hi - c->idx,
			       cp_verdict(o, c) == CMP_BELOW ? "significant below threshold" :
			       cmp_verdict_names[cp_verdict(o, c)],
			       cp_recent(o, s, c) ? "yes" : "no");
		}
}

/* every run's figure, in order, with the median of its segment: the plot's points and lines */
static void runs_print(const struct trend_opts *o, const struct trend_hist *h)
{
	unsigned int k, i, c, end;
	double med = 0, spread;

	printf("workload,variant,index,timestamp,run,%s,segment_median\n", cmp_stat_names[o->stat]);
	for (k = 0; k < h->ns; k++) {
		const struct trend_series *s = &h->s[k];

		for (i = 0, c = 0, end = 0; i < s->n; i++) {
			if (i == end) {
				end = c < s->nr_cp ? s->cp[c++].idx : s->n;
				med = series_median(s, i, end, &spread);
			}
			printf("%s,%s,%u,%s,%u,%.6g,%.6g\n", s->workload, s->variant, i + 1,
			       h->f[s->r[i].file].stamp, s->r[i].run, s->x[i], med);
		}
	}
}

/* ---- -f json ---- */

static void json_side(struct json *j, const char *key, double med, unsigned int n)
{
	json_object_begin(j, key);
	json_double(j, "median", med, 3);
	json_u64(j, "runs", n);
	json_object_end(j);
}

/* "labels": { "KEY": "VALUE", ... } */
static void json_labels(struct json *j, const struct trend_file *f)
{
	unsigned int i;
	char key[64];

	json_object_begin(j, "labels");
	for (i = 0; i < f->nr_labels; i++) {
		const char *eq = strchr(f->label[i], '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - f->label[i]), f->label[i]);
		json_string(j, key, eq + 1);
	}
	json_object_end(j);
}

static void json_cp(struct json *j, const struct trend_opts *o, const struct trend_hist *h,
		    const struct trend_series *s, const struct trend_cp *c)
{
	const struct trend_run *r = &s->r[c->idx];
	const struct trend_file *f = &h->f[r->file];

	json_object_begin(j, NULL);
	json_u64(j, "index", c->idx + 1);
	json_string(j, "timestamp", f->stamp[0] ? f->stamp : NULL);
	json_labels(j, f);
	json_string(j, "file", f->path);
	json_u64(j, "run", r->run);
	json_side(j, "before", c->before, c->idx - c->lo);
	json_side(j, "after", c->after, c->hi - c->idx);
	json_double(j, "change_pct", c->change.est * 100, 3);
	json_double(j, "ci_lo_pct", c->change.lo * 100, 3);
	json_double(j, "ci_hi_pct", c->change.hi * 100, 3);
	json_double(j, "ci_confidence", c->change.conf, 4);
	json_double(j, "p", c->p, 6);
	json_u64(j, "permutations", c->perms);
	json_u64(j, "tested_from", c->tlo + 1);
	json_u64(j, "tested_to", c->thi);
	json_string(j, "verdict", cmp_verdict_names[cp_verdict(o, c)]);
	json_bool(j, "recent", cp_recent(o, s, c));
	json_object_end(j);
}

static void json_one(struct json *j, const struct trend_opts *o, const struct trend_hist *h,
		     const struct trend_series *s)
{
	unsigned int i;

	json_object_begin(j, NULL);
	json_string(j, "workload", s->workload);
	json_string(j, "variant", s->variant);
	json_string(j, "stat", cmp_stat_names[o->stat]);
	json_u64(j, "runs", s->n);
	json_double(j, "reference_share", s->share, 3);
	json_bool(j, "failing", series_failing(o, s));
	json_array_begin(j, "change_points");
	for (i = 0; i < s->nr_cp; i++)
		json_cp(j, o, h, s, &s->cp[i]);
	json_array_end(j);
	json_object_end(j);
}

static int json_print(const struct trend_opts *o, const struct trend_hist *h,
		      const struct trend_tally *t)
{
	static struct meta m;
	struct json j;
	unsigned int k;

	meta_set(&m, "command", "bench trend");
	meta_set(&m, "stat", "%s", cmp_stat_names[o->stat]);
	meta_set(&m, "alpha", "%g", o->alpha);
	meta_set(&m, "min_change_pct", "%g", o->min_change_pct);
	meta_set(&m, "window", "%lu", (unsigned long)o->window);
	meta_set(&m, "recent", "%lu", (unsigned long)o->recent);
	meta_set(&m, "seed", "%lu", (unsigned long)o->seed);
	meta_set(&m, "reference", "%s", h->scaled ? "scaled" : "raw");
	meta_set(&m, "order", "%s", h->by_time ? "timestamp" : "given");
	meta_set(&m, "files", "%u", h->nf);
	meta_set(&m, "unit", "%s", h->unit);
	json_init(&j, stdout);
	json_doc_begin(&j, &m);
	json_array_begin(&j, "series");
	for (k = 0; k < h->ns; k++)
		json_one(&j, o, h, &h->s[k]);
	json_array_end(&j);
	json_u64(&j, "change_points", t->change_points);
	json_u64(&j, "regressions", t->regressions);
	json_u64(&j, "improvements", t->improvements);
	json_u64(&j, "failing", t->failing);
	json_string(&j, "verdict", t->failing ? "regression" : "ok");
	return json_doc_end(&j);
}

/* ---- -f markdown ---- */

static void md_print(const struct trend_opts *o, const struct trend_hist *h,
		     const struct trend_tally *t, bool cycles)
{
	unsigned int k, i;
	double med, spread;
	char m[32];

	printf("**bench trend: %s** - %u change point%s in %u series over %u files (%s, alpha %g, min change %g%%, reference %s%s)\n\n",
	       t->failing ? "regression" : "ok", t->change_points, t->change_points == 1 ? "" : "s",
	       h->ns, h->nf, cmp_stat_names[o->stat], o->alpha, o->min_change_pct,
	       h->scaled ? "scaled" : "raw", h->by_time ? "" : "; no timestamps: in the order given");
	printf("| series | first run after | before | after | change [95%% CI] | p | runs | verdict |\n");
	printf("|---|---|---:|---:|---|---:|---:|---|\n");
	for (k = 0; k < h->ns; k++) {
		const struct trend_series *s = &h->s[k];

		for (i = 0; i < s->nr_cp; i++)
			print_cp(o, h, s, &s->cp[i], cycles, true);
		if (s->nr_cp)
			continue;
		med = series_median(s, 0, s->n, &spread);
		cmpfmt_value(m, sizeof(m), med, cycles);
		printf("| %s %s %s | no change point | %s | | | | %u | ~ |\n", s->workload,
		       s->variant, cmp_stat_names[o->stat], m, s->n);
	}
}

/* ---- bench trend ---- */

static void hist_free(struct trend_hist *h)
{
	unsigned int i;

	for (i = 0; i < h->ns; i++) {
		free(h->s[i].r);
		free(h->s[i].x);
		free(h->s[i].cp);
	}
	for (i = 0; i < h->nf; i++) {
		while (h->f[i].nr_labels)
			free(h->f[i].label[--h->f[i].nr_labels]);
		free(h->f[i].label);
		free(h->f[i].path);
	}
	free(h->s);
	free(h->f);
}

static int hist_print(const struct trend_opts *o, const struct trend_hist *h)
{
	struct trend_tally t = { 0 };
	bool cycles = !strcmp(h->unit, "cycles");

	hist_tally(o, h, &t);
	if (o->format == TREND_CSV)
		csv_print(o, h);
	else if (o->format == TREND_RUNS)
		runs_print(o, h);
	else if (o->format == TREND_MARKDOWN)
		md_print(o, h, &t, cycles);
	else if (o->format == TREND_JSON && json_print(o, h, &t))
		return EXIT_ENV;
	else if (o->format == TREND_TABLE)
		table_print(o, h, &t, cycles);
	return t.failing ? EXIT_REGRESSION : EXIT_DONE;
}

/* everything read and computed before anything prints */
static int trend_run(const struct trend_opts *o, struct trend_hist *h)
{
	unsigned int i, missing = 0;
	int ret = 0;

	for (i = 0; i < h->nf && !ret; i++)
		ret = file_read(o, h, i);
	if (!ret && !h->ns) {
		fprintf(stderr, "%s: no series in %u files\n", bench_prog, h->nf);
		ret = EXIT_USAGE;
	}
	if (!ret)
		ret = hist_sort(h);
	if (!ret)
		ret = hist_decide_ref(o, h);
	for (i = 0; i < h->ns && !ret; i++)
		ret = series_detect(o, h, &h->s[i]);
	for (i = 0; !ret && !h->by_time && i < h->nf; i++)
		missing += !h->f[i].stamp[0];
	if (missing)
		fprintf(stderr, "%s: note: %u of %u files have no timestamp metadata: the runs are taken in the order given\n",
			bench_prog, missing, h->nf);
	return ret;
}

int cmd_trend(int argc, char **argv)
{
	struct trend_opts o = {
		.stat = CMP_STAT_TM10,
		.alpha = 0.001,
		.min_change_pct = CMP_THRESHOLD_PCT,
		.window = TREND_WINDOW,
		.recent = TREND_RECENT,
		.seed = 1,
	};
	struct trend_hist h = { 0 };
	int ret, out;

	/*
	 * Each file read builds and frees ~500 KB of histograms; by default
	 * glibc hands that back to the kernel after every file and faults
	 * it in again for the next: 1000 files of 12 runs took 3.9 s (1.6 s
	 * of CPU, half of it page faults and memset) against 1.5 s with
	 * the heap kept (make perf-trend).
	 */
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	ret = trend_parse(argc, argv, &o);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	ret = files_add(&h, argc, argv);
	if (!ret)
		ret = trend_run(&o, &h);
	if (!ret) {
		ret = hist_print(&o, &h);
		out = bench_finish_stdout();
		ret = out ? out : ret;
	}
	hist_free(&h);
	return ret;
}
