// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-compare.c - bench compare: the CI gate, AFTER's runs against
 * BEFORE's, read back from kstats-bench CSVs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "kstats_hist.h"
#include "lib/cmpfmt.h"
#include "lib/compare.h"
#include "lib/json.h"
#include "lib/results.h"
#include "lib/testbed.h"

/* ---- bench compare ---- */

/*
 * The gate compares runs, not samples (lib/compare.h says why): each
 * side's runs are pooled over its files, one figure per run, an exact
 * one-sided U test across them, the Hodges-Lehmann change with its 95%
 * interval, and a 5% floor under which a significant change is only
 * reported. README's "The regression gate" gives the measured basis.
 */
#define COMPARE_ALPHA		0.05

/* compare's own formats, then the CI reports of lib/cmpfmt.h, by name */
enum compare_format { COMPARE_TABLE, COMPARE_CSV, COMPARE_RUNS, COMPARE_JSON, COMPARE_CI };

static const char *const compare_formats[] = {
	"table", "csv", "runs", "json",
	"markdown", "junit", "bmf", "github-action-benchmark", NULL
};

struct compare_opts {
	enum cmp_stat stat;		/* --stat: the per-run figure */
	double threshold_pct;		/* --threshold, percent, > 0 */
	double alpha;			/* --alpha, in (0, 1) */
	enum compare_format format;	/* --format */
	enum cmp_ref reference;		/* --reference */
	bool strict;			/* --strict: a testbed or config difference is exit 2 */
	bool scaled;			/* figures scaled by the reference: decided */
	struct json *json;		/* -f json: the document being written */
	struct tb_diff diff[TB_MAX_DIFFS]; /* metadata keys the files differ in: found */
	unsigned int nr_diff;		/* how many */
	const char *const *path[2];	/* each side's file names */
};

/* one side: its files, read */
struct compare_side {
	char **path;			/* [n] file names */
	struct results **set;		/* [n] their contents */
	struct cmp_side cs;		/* the same sets, as lib/compare.h reads them */
	unsigned int n;			/* files */
};

static const char compare_head[] =
	"Usage: bench compare [OPTIONS] BEFORE.csv... -- AFTER.csv...\n"
	"       bench compare [OPTIONS] BEFORE.csv AFTER.csv\n"
	"Gate AFTER against BEFORE on runs, not samples. Every file holds one or\n"
	"more runs (bench run -R R); the runs of a side are pooled over its\n"
	"files, so CI can interleave invocations. For every (workload, variant):\n"
	"one figure per run from that run's histogram, an exact one-sided\n"
	"Mann-Whitney U test across the runs, and the Hodges-Lehmann change\n"
	"(median of all after/before ratios) with its 95% confidence interval.\n"
	"Options come before the files.\n";

static const char compare_tail[] =
	"Each line: median of the per-run figures +- its 95% spread, before -> after,\n"
	"the change [95% interval], p, n=BEFORE+AFTER runs, and the verdict:\n"
	"regression, improvement, '~' (not significant) or 'significant, below\n"
	"threshold'. At least " BENCH_STR(CMP_MIN_RUNS) " runs a side (6 or more advised).\n"
	"\n"
	"Exit: 0 no regression, 1 a regression, 2 bad input (fewer than "
	BENCH_STR(CMP_MIN_RUNS) " runs\n"
	"a side, a series on one side only, unreadable or mismatched files).\n";

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int compare_parse(int argc, char **argv, struct compare_opts *o)
{
	const struct opt opts[] = {
		OPT_ENUM('s', "stat", &o->stat, cmp_stat_names, "STAT",
			 "per-run figure: tm10 (10% trimmed mean, default),\n"
			 "median, mean, p90, p99"),
		OPT_DOUBLE('t', "threshold", &o->threshold_pct, 0, 0, "> 0 (percent)", "PCT",
			   "a significant change counts above PCT, > 0 (default "
			   BENCH_STR(CMP_THRESHOLD_PCT) ")"),
		OPT_DOUBLE('a', "alpha", &o->alpha, 0, 1, "in (0,1)", "A",
			   "one-sided significance level, in (0,1) (default "
			   BENCH_STR(COMPARE_ALPHA) ")"),
		OPT_ENUM('r', "reference", &o->reference, cmp_ref_names, "WHEN",
			 "scale each run's figure by its reference loop (bench\n"
			 "run's cold-store timing, the machine's speed in that\n"
			 "run): auto (default, when every run on both sides has\n"
			 "it), on, off (raw figures)"),
		OPT_FLAG(0, "strict", &o->strict,
			 "exit 2 naming the keys when the testbed (governor,\n"
			 "turbo, SMT, kernel, ...) or the run's configuration\n"
			 "(workload options, samples, possible CPUs, cache, ...)\n"
			 "differs between or within the sides; else a warning"),
		OPT_ENUM('f', "format", &o->format, compare_formats, "FMT",
			 "table (default), csv (one row per series), runs\n"
			 "(CSV of every run's figure: side,workload,variant,\n"
			 "run,value; what ./run.sh compare plots), json; for\n"
			 "CI: markdown (a GitHub table), junit (JUnit XML),\n"
			 "bmf (Bencher), github-action-benchmark"),
		OPT_END()
	};
	const struct opt *tab[] = { opts, NULL };
	/* options first, so that "--" between the sides is kept */
	struct opt_parser p = { .tab = tab, .flags = OPT_STOP_AT_OPERAND };

	return bench_options(&p, compare_head, compare_tail, argc, argv);
}

/* argv[optind..]: BEFORE... -- AFTER..., or exactly BEFORE AFTER */
static int compare_sides(int argc, char **argv, struct compare_side *b,
			 struct compare_side *a)
{
	int i, sep = -1;

	/* getopt took a leading "--" as the end of the options: no BEFORE */
	if (optind > 1 && !strcmp(argv[optind - 1], "--"))
		sep = optind - 1;
	for (i = optind; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1] && strcmp(argv[i], "--")) {
			bench_err("'%s': options go before the files", argv[i]);
			return -1;
		}
		if (strcmp(argv[i], "--"))
			continue;
		if (sep >= 0) {
			bench_err("'--' twice: one separates BEFORE files from AFTER files");
			return -1;
		}
		sep = i;
	}
	if (sep < 0 && argc - optind != 2) {
		bench_err("needs BEFORE.csv AFTER.csv, or BEFORE.csv... -- AFTER.csv...");
		return -1;
	}
	b->path = argv + optind;
	b->n = sep < 0 ? 1 : sep < optind ? 0 : (unsigned int)(sep - optind);
	a->path = sep < 0 ? argv + optind + 1 : argv + sep + 1;
	a->n = sep < 0 ? 1 : (unsigned int)(argc - sep - 1);
	if (!b->n || !a->n) {
		bench_err("no %s files", b->n ? "AFTER" : "BEFORE");
		return -1;
	}
	return 0;
}

static void compare_side_free(struct compare_side *s)
{
	unsigned int i;

	for (i = 0; s->set && i < s->n; i++)
		results_free(s->set[i]);
	free(s->set);
	s->set = NULL;
}

/* read every file of @s; the files must measure the same way as @ref */
static int compare_load(struct compare_side *s, const struct results **ref,
			const char **ref_path)
{
	unsigned int i;
	int ret;

	s->set = calloc(s->n, sizeof(*s->set));
	if (!s->set) {
		fprintf(stderr, "%s: %s\n", bench_prog, strerror(ENOMEM));
		return EXIT_ENV;
	}
	for (i = 0; i < s->n; i++) {
		const char *u, *ru;

		ret = bench_load_csv(s->path[i], &s->set[i]);
		if (ret)
			return ret;
		u = meta_get(&s->set[i]->meta, "partial");
		if (u && !strcmp(u, "yes"))
			fprintf(stderr, "%s: warning: %s was interrupted (partial: yes): its last run may hold fewer samples\n",
				bench_prog, s->path[i]);
		if (!*ref) {
			*ref = s->set[i];
			*ref_path = s->path[i];
			continue;
		}
		if (s->set[i]->frac_bits != (*ref)->frac_bits) {
			fprintf(stderr, "%s: %s has frac_bits %u, %s has %u: buckets differ\n",
				bench_prog, *ref_path, (*ref)->frac_bits, s->path[i],
				s->set[i]->frac_bits);
			return EXIT_USAGE;
		}
		u = meta_get(&s->set[i]->meta, "unit");
		ru = meta_get(&(*ref)->meta, "unit");
		if (u && ru && strcmp(u, ru)) {
			fprintf(stderr, "%s: %s is in %s, %s in %s\n", bench_prog,
				*ref_path, ru, s->path[i], u);
			return EXIT_USAGE;
		}
	}
	s->cs = (struct cmp_side){ .set = (const struct results *const *)s->set, .n = s->n };
	return 0;
}

/* ---- the testbed: which metadata keys the files differ in ---- */

/* testbed_diff() of every file's metadata into o->diff; 0 or EXIT_ENV */
static int compare_testbed(struct compare_opts *o, const struct compare_side *side)
{
	const struct meta **m[2] = { NULL, NULL };
	const struct meta *const *mc[2];
	unsigned int k, i, n[2] = { side[0].n, side[1].n };
	int ret = 0;

	for (k = 0; k < 2; k++) {
		o->path[k] = (const char *const *)side[k].path;
		m[k] = calloc(n[k], sizeof(*m[k]));
		for (i = 0; m[k] && i < n[k]; i++)
			m[k][i] = &side[k].set[i]->meta;
		mc[k] = m[k];
	}
	if (m[0] && m[1]) {
		o->nr_diff = testbed_diff(mc, n, o->diff, TB_MAX_DIFFS);
	} else {
		fprintf(stderr, "%s: %s\n", bench_prog, strerror(ENOMEM));
		ret = EXIT_ENV;
	}
	free(m[0]);
	free(m[1]);
	return ret;
}

/*
 * The testbed or configuration keys that differ, "testbed kernel (6.1 ->
 * 6.2), config cache (...)" into @buf; how many (build keys are not).
 */
static unsigned int compare_differs(const struct compare_opts *o, char *buf, size_t len,
				    bool how)
{
	const struct cmpfmt f = { .path = { o->path[0], o->path[1] } };
	unsigned int i, n = 0;
	size_t used = 0;
	char text[1200];

	buf[0] = 0;
	for (i = 0; i < o->nr_diff && used < len; i++) {
		if (o->diff[i].kind == TB_KIND_BUILD)
			continue;
		cmpfmt_diff_text(text, sizeof(text), &f, &o->diff[i]);
		used += (size_t)snprintf(buf + used, len - used, how ? "%s%s %s (%s)" : "%s%s%s",
					 n ? ", " : "", how ? tb_kind_names[o->diff[i].kind] : "",
					 o->diff[i].key, text);
		n++;
	}
	return n;
}

/* does the format asked for list the keys that differ itself? */
static bool compare_shows_testbed(const struct compare_opts *o)
{
	return o->format == COMPARE_TABLE || o->format == COMPARE_JSON ||
	       (o->format >= COMPARE_CI && cmpfmt_find(compare_formats[o->format])->testbed);
}

/*
 * --strict: a testbed or config difference is bad input, one line naming
 * the keys. Without it, a format that does not list them (csv, runs,
 * bmf, github-action-benchmark) gets a warning on stderr. 0 or EXIT_USAGE.
 */
static int compare_check_testbed(const struct compare_opts *o)
{
	static char buf[8192];

	if (!compare_differs(o, buf, sizeof(buf), o->strict))
		return 0;
	if (!o->strict && compare_shows_testbed(o))
		return 0;
	if (o->strict) {
		fprintf(stderr, "%s: --strict: the files differ in %s\n", bench_prog, buf);
		return EXIT_USAGE;
	}
	fprintf(stderr, "%s: warning: the files' testbed or configuration differ: %s (--strict refuses this)\n",
		bench_prog, buf);
	return 0;
}

/* the table's testbed section: every key that differs, and how */
static void compare_testbed_lines(const struct compare_opts *o)
{
	const struct cmpfmt f = { .path = { o->path[0], o->path[1] } };
	char text[1200];
	unsigned int i;

	if (!o->nr_diff)
		return;
	printf("\ntestbed: the files differ in %u key%s (--strict refuses testbed and config):\n",
	       o->nr_diff, o->nr_diff == 1 ? "" : "s");
	for (i = 0; i < o->nr_diff; i++) {
		cmpfmt_diff_text(text, sizeof(text), &f, &o->diff[i]);
		printf("  %-7s %s: %s\n", tb_kind_names[o->diff[i].kind], o->diff[i].key, text);
	}
}

/* -f json: "differences", one object per key */
static void compare_json_testbed(const struct compare_opts *o)
{
	unsigned int i;

	json_array_begin(o->json, "differences");
	for (i = 0; i < o->nr_diff; i++) {
		const struct tb_diff *d = &o->diff[i];

		json_object_begin(o->json, NULL);
		json_string(o->json, "key", d->key);
		json_string(o->json, "kind", tb_kind_names[d->kind]);
		json_string(o->json, "before", d->val[0]);
		json_string(o->json, "after", d->val[1]);
		json_bool(o->json, "between", d->between);
		json_bool(o->json, "within_before", d->within[0]);
		json_bool(o->json, "within_after", d->within[1]);
		json_object_end(o->json);
	}
	json_array_end(o->json);
}

static int compare_check_runs(const struct compare_side *side,
			      const struct results_series *const *list, unsigned int n)
{
	unsigned int i, nb, na;

	for (i = 0; i < n; i++) {
		const char *wl = list[i]->workload, *var = list[i]->variant;

		nb = cmp_side_runs(&side[0].cs, wl, var);
		na = cmp_side_runs(&side[1].cs, wl, var);
		if (!nb || !na) {
			fprintf(stderr, "%s: %s %s is in the %s files only: every series must be on both sides\n",
				bench_prog, wl, var, nb ? "BEFORE" : "AFTER");
			return EXIT_USAGE;
		}
	}
	for (i = 0; i < n; i++) {
		const char *wl = list[i]->workload, *var = list[i]->variant;

		nb = cmp_side_runs(&side[0].cs, wl, var);
		na = cmp_side_runs(&side[1].cs, wl, var);
		if (nb < CMP_MIN_RUNS || na < CMP_MIN_RUNS) {
			fprintf(stderr, "%s: %s %s: %u runs before, %u after; the gate needs at least %d a side (bench run --runs 6)\n",
				bench_prog, wl, var, nb, na, CMP_MIN_RUNS);
			return EXIT_USAGE;
		}
	}
	return 0;
}

/*
 * --reference: scale when every run of every series on both sides has
 * a reference figure (auto, on); 0, or EXIT_USAGE after naming the
 * first file without one (on).
 */
static int compare_decide_ref(struct compare_opts *o, const struct compare_side *side,
			      const struct results_series *const *list, unsigned int n)
{
	const struct cmp_side cs[2] = { side[0].cs, side[1].cs };
	struct cmp_where w;

	o->scaled = false;
	if (o->reference == CMP_REF_OFF)
		return 0;
	o->scaled = cmp_can_scale(cs, list, n, &w);
	if (o->scaled || o->reference == CMP_REF_AUTO)
		return 0;
	fprintf(stderr, "%s: %s: run %u has no reference rows (bench run --cache cold or --reference on writes them); --reference off compares the raw figures\n",
		bench_prog, side[w.side].path[w.file], w.run);
	return EXIT_USAGE;
}

/* series (@wl, @var) into @c; 0 or an exit code after a message */
static int compare_compute(const struct compare_opts *o, const struct compare_side *side,
			   const char *wl, const char *var, struct cmp_series *c)
{
	const struct cmp_side cs[2] = { side[0].cs, side[1].cs };
	const struct cmp_gate g = {
		.stat = o->stat, .alpha = o->alpha, .threshold = o->threshold_pct / 100,
		.scaled = o->scaled,
	};
	struct cmp_where w;
	int ret;

	ret = cmp_series_compute(cs, wl, var, side[0].set[0]->frac_bits, &g, c, &w);
	if (ret == -EINVAL) {
		fprintf(stderr, "%s: %s: run %u: %s %s has a %s of 0: no change can be measured from it\n",
			bench_prog, side[w.side].path[w.file], w.run, wl, var,
			cmp_stat_names[o->stat]);
		return EXIT_USAGE;
	}
	if (!ret)
		return 0;
	fprintf(stderr, "%s: %s\n", bench_prog, strerror(ENOMEM));
	return EXIT_ENV;
}

static void compare_line(const struct compare_opts *o, const struct cmpfmt *f,
			 const struct cmpfmt_series *s)
{
	const struct cmp_result *r = s->r;
	char line[512];

	if (o->format == COMPARE_CSV) {
		printf("%s,%s,%s,%.6g,%.2f,%.6g,%.2f,%.2f,%.2f,%.2f,%.6f,%u,%u,%s\n",
		       s->workload, s->variant, cmp_stat_names[o->stat], r->before,
		       r->before_spread * 100, r->after, r->after_spread * 100, r->change.est * 100,
		       r->change.lo * 100, r->change.hi * 100, r->p, s->nb, s->na,
		       r->verdict == CMP_BELOW ? "significant below threshold" :
		       cmp_verdict_names[r->verdict]);
		return;
	}
	cmpfmt_line(line, sizeof(line), f, s);
	puts(line);
}

#define COMPARE_CSV_COLUMNS "workload,variant,stat,before,before_spread_pct,after,after_spread_pct,change_pct,ci_lo_pct,ci_hi_pct,p,n_before,n_after,verdict"

/* the pooled histograms, for information: not what the gate tests */
static void compare_pooled(const char *wl, const char *var,
			   struct kstats_hist *const *pool, bool cycles)
{
	static const char *const name[] = { "p50", "p90", "p99", "mean", "max" };
	char b[32], a[32], d[32];
	double v[2][5];
	unsigned int k, m;

	for (k = 0; k < 2; k++) {
		v[k][0] = (double)kstats_hist_value_at_percentile(pool[k], 50);
		v[k][1] = (double)kstats_hist_value_at_percentile(pool[k], 90);
		v[k][2] = (double)kstats_hist_value_at_percentile(pool[k], 99);
		v[k][3] = kstats_hist_mean(pool[k]);
		v[k][4] = (double)kstats_hist_max(pool[k]);
	}
	printf("%s %s pooled:", wl, var);
	for (m = 0; m < 5; m++)
		printf("  %s %s -> %s (%s)", name[m],
		       cmpfmt_value(b, sizeof(b), v[0][m], cycles),
		       cmpfmt_value(a, sizeof(a), v[1][m], cycles),
		       cmpfmt_pct(d, sizeof(d), v[0][m] > 0 ? v[1][m] / v[0][m] - 1 : 0));
	putchar('\n');
}

/* -f runs: every run's figure, before then after, in file order */
static void compare_print_runs(const struct cmp_series *s)
{
	unsigned int i;

	for (i = 0; i < s->nb + s->na; i++)
		printf("%s,%s,%s,%u,%.6g\n", i < s->nb ? "before" : "after", s->workload,
		       s->variant, i < s->nb ? i + 1 : i - s->nb + 1, s->x[i]);
}

/* -f json: one element of "comparisons" (schema in the man page) */
static void compare_json_side(struct json *j, const char *key, double med,
			      double spread, const double *x, unsigned int n)
{
	unsigned int i;

	json_object_begin(j, key);
	json_double(j, "median", med, 3);
	json_double(j, "spread_pct", spread * 100, 2);
	json_u64(j, "runs", n);
	json_array_begin(j, "values");
	for (i = 0; i < n; i++)
		json_double(j, NULL, x[i], 3);
	json_array_end(j);
	json_object_end(j);
}

static void compare_json_one(struct json *j, const struct compare_opts *o,
			     const struct cmp_series *s)
{
	const struct cmp_result *r = &s->r;

	json_object_begin(j, NULL);
	json_string(j, "workload", s->workload);
	json_string(j, "variant", s->variant);
	json_string(j, "stat", cmp_stat_names[o->stat]);
	compare_json_side(j, "before", r->before, r->before_spread, s->x, s->nb);
	compare_json_side(j, "after", r->after, r->after_spread, s->x + s->nb, s->na);
	json_double(j, "change_pct", r->change.est * 100, 3);
	json_double(j, "ci_lo_pct", r->change.lo * 100, 3);
	json_double(j, "ci_hi_pct", r->change.hi * 100, 3);
	json_double(j, "ci_confidence", r->change.conf, 4);
	json_double(j, "p", r->p, 6);
	json_bool(j, "exact", r->u.exact);
	json_string(j, "verdict", cmp_verdict_names[r->verdict]);
	json_double(j, "reference_share", s->ref_share, 3);
	json_object_end(j);
}

/*
 * What the figures were adjusted by, per workload: the machine's speed on
 * each side, and each series' share of its movement (cmp_ref_share()).
 */
static void compare_ref_line(const struct cmp_series *c, unsigned int n, bool cycles)
{
	char b[32], a[32], m[32], d[32];
	unsigned int i;

	printf("%s reference tm10 (median run): %s -> %s (%s); figures at %s by their share:",
	       c->workload, cmpfmt_value(b, sizeof(b), c->ref_side[0], cycles),
	       cmpfmt_value(a, sizeof(a), c->ref_side[1], cycles),
	       cmpfmt_pct(d, sizeof(d), c->ref_side[1] / c->ref_side[0] - 1),
	       cmpfmt_value(m, sizeof(m), c->ref_at, cycles));
	for (i = 0; i < n && !strcmp(c[i].workload, c->workload); i++)
		printf(" %s %.2f", c[i].variant, c[i].ref_share);
	putchar('\n');
}

struct compare_tally {
	unsigned int series;		/* compared */
	unsigned int regressions;	/* verdict regression */
	unsigned int improvements;	/* verdict improvement */
};

static void compare_tally(const struct cmp_series *c, unsigned int n,
			  struct compare_tally *t)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		t->series++;
		t->regressions += c[i].r.verdict == CMP_REGRESSION;
		t->improvements += c[i].r.verdict == CMP_IMPROVEMENT;
	}
}

static void compare_json_begin(const struct compare_opts *o, const char *unit);

/* everything computed: print in the format asked for */
static void compare_print(const struct compare_opts *o, const struct cmp_series *c,
			  const struct cmpfmt *f, const struct compare_tally *t)
{
	const bool cycles = f->unit && !strcmp(f->unit, "cycles");
	const unsigned int n = f->n;
	unsigned int i;

	if (o->format >= COMPARE_CI) {
		cmpfmt_find(compare_formats[o->format])->write(stdout, f);
		return;
	}
	if (o->format == COMPARE_CSV)
		printf(COMPARE_CSV_COLUMNS "\n");
	if (o->format == COMPARE_RUNS)
		printf("side,workload,variant,run,%s\n", cmp_stat_names[o->stat]);
	if (o->format == COMPARE_JSON)
		json_array_begin(o->json, "comparisons");
	for (i = 0; i < n; i++) {
		if (o->format == COMPARE_RUNS)
			compare_print_runs(&c[i]);
		else if (o->format == COMPARE_JSON)
			compare_json_one(o->json, o, &c[i]);
		else
			compare_line(o, f, &f->s[i]);
	}
	if (o->format == COMPARE_JSON) {
		json_array_end(o->json);
		json_u64(o->json, "regressions", t->regressions);
		json_u64(o->json, "improvements", t->improvements);
		json_string(o->json, "verdict", t->regressions ? "regression" : "ok");
		compare_json_testbed(o);
	}
	if (o->format != COMPARE_TABLE)
		return;
	printf("\n");
	for (i = 0; i < n; i++)
		compare_pooled(c[i].workload, c[i].variant, c[i].pool, cycles);
	for (i = 0; o->scaled && i < n; i++)
		if (!i || strcmp(c[i].workload, c[i - 1].workload))
			compare_ref_line(&c[i], n - i, cycles);
	compare_testbed_lines(o);
	printf("COMPARE series=%u regressions=%u improvements=%u stat=%s alpha=%g threshold=%g%% verdict=%s reference=%s\n",
	       t->series, t->regressions, t->improvements, cmp_stat_names[o->stat],
	       o->alpha, o->threshold_pct, t->regressions ? "regression" : "ok",
	       o->scaled ? "scaled" : "raw");
}

/*
 * The computed series as lib/cmpfmt.h's view, printed in the format asked
 * for; under GitHub Actions an ::error annotation per regression on
 * stderr (the runner reads both streams; stdout may be a report file).
 */
static int compare_report(const struct compare_opts *o, const struct cmp_series *c,
			  unsigned int n, struct compare_tally *t, const char *unit)
{
	struct cmpfmt_series *s = calloc(n ? n : 1, sizeof(*s));
	struct cmpfmt f = {
		.s = s, .n = n, .stat = cmp_stat_names[o->stat], .unit = unit ? unit : "ns",
		.alpha = o->alpha, .threshold_pct = o->threshold_pct, .scaled = o->scaled,
		.diff = o->diff, .nr_diff = o->nr_diff, .path = { o->path[0], o->path[1] },
	};
	const char *gha = getenv("GITHUB_ACTIONS");
	unsigned int i;
	int ret = 0;

	if (!s) {
		fprintf(stderr, "%s: %s\n", bench_prog, strerror(ENOMEM));
		return EXIT_ENV;
	}
	for (i = 0; i < n; i++)
		s[i] = (struct cmpfmt_series){ c[i].workload, c[i].variant, c[i].nb,
					       c[i].na, &c[i].r };
	compare_tally(c, n, t);
	if (o->format == COMPARE_JSON)
		compare_json_begin(o, unit);
	compare_print(o, c, &f, t);
	if (o->format == COMPARE_JSON && json_doc_end(o->json))
		ret = EXIT_ENV;
	if (gha && !strcmp(gha, "true"))
		cmpfmt_annotations(stderr, &f);
	free(s);
	return ret;
}

/* compute every series first, so that bad input prints no verdict at all */
static int compare_all(const struct compare_opts *o, const struct compare_side *side,
		       const struct results_series *const *list, unsigned int n,
		       struct compare_tally *t, const char *unit)
{
	struct cmp_series *c = calloc(n ? n : 1, sizeof(*c));
	unsigned int i;
	int ret = 0;

	if (!c) {
		fprintf(stderr, "%s: %s\n", bench_prog, strerror(ENOMEM));
		return EXIT_ENV;
	}
	for (i = 0; i < n && !ret; i++)
		ret = compare_compute(o, side, list[i]->workload, list[i]->variant, &c[i]);
	if (!ret)
		ret = compare_report(o, c, n, t, unit);
	for (i = 0; i < n; i++)
		cmp_series_free(&c[i]);
	free(c);
	return ret;
}

/* -f json: the document, its metadata the gate's settings */
static void compare_json_begin(const struct compare_opts *o, const char *unit)
{
	static struct meta m;

	meta_set(&m, "command", "bench compare");
	meta_set(&m, "stat", "%s", cmp_stat_names[o->stat]);
	meta_set(&m, "alpha", "%g", o->alpha);
	meta_set(&m, "threshold_pct", "%g", o->threshold_pct);
	meta_set(&m, "reference", "%s", o->scaled ? "scaled" : "raw");
	meta_set(&m, "unit", "%s", unit ? unit : "ns");
	json_init(o->json, stdout);
	json_doc_begin(o->json, &m);
}

static int compare_run(struct compare_opts *o, struct compare_side *side)
{
	struct compare_tally t = { 0 };
	const struct results_series **list;
	struct cmp_side cs[2];
	const struct results *ref = NULL;
	const char *ref_path = NULL, *unit;
	unsigned int n = 0;
	int ret;

	ret = compare_load(&side[0], &ref, &ref_path);
	if (!ret)
		ret = compare_load(&side[1], &ref, &ref_path);
	if (!ret)
		ret = compare_testbed(o, side);
	if (!ret)
		ret = compare_check_testbed(o);
	if (ret)
		return ret;
	cs[0] = side[0].cs;
	cs[1] = side[1].cs;
	list = cmp_list_series(cs, &n);
	if (!list && errno) {
		fprintf(stderr, "%s: %s\n", bench_prog, strerror(ENOMEM));
		return EXIT_ENV;
	}
	ret = compare_check_runs(side, list, n);
	if (!ret)
		ret = compare_decide_ref(o, side, list, n);
	unit = meta_get(&ref->meta, "unit");
	if (!ret)
		ret = compare_all(o, side, list, n, &t, unit);
	free(list);
	if (ret)
		return ret;
	ret = bench_finish_stdout();
	return !ret && t.regressions ? EXIT_REGRESSION : ret;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = {
		.stat = CMP_STAT_TM10,
		.threshold_pct = CMP_THRESHOLD_PCT,
		.alpha = COMPARE_ALPHA,
	};
	struct compare_side side[2] = { { 0 } };
	struct json j;
	int ret;

	o.json = &j;
	ret = compare_parse(argc, argv, &o);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	if (compare_sides(argc, argv, &side[0], &side[1]))
		return EXIT_USAGE;
	ret = compare_run(&o, side);
	compare_side_free(&side[1]);
	compare_side_free(&side[0]);
	return ret;
}
