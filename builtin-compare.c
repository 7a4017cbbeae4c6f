// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-compare.c - bench compare: the CI gate, AFTER's runs against
 * BEFORE's, read back from kstats-bench CSVs. It reads the files, checks
 * them and says what is wrong with them; lib/stats/compare.h computes the
 * gate, lib/report/cmpfmt.h writes it in the format asked for.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "lib/results/busy.h"
#include "lib/subcmd/outset.h"
#include "lib/report/cmpfmt.h"
#include "lib/stats/compare.h"
#include "lib/results/counted.h"
#include "lib/results/fileset.h"
#include "lib/report/kcidb.h"
#include "lib/results/results.h"
#include "lib/host/testbed.h"

/* ---- bench compare ---- */

/*
 * The gate compares runs, not samples (lib/stats/compare.h says why): each
 * side's runs are pooled over its files, one figure per run, an exact
 * one-sided U test across them, the Hodges-Lehmann change with its 95%
 * interval, and a 5% floor under which a significant change is only
 * reported. docs/measurements.md's "What the regression gate promises"
 * gives the measured basis.
 */
#define COMPARE_ALPHA		0.05

struct compare_opts {
	enum cmp_stat stat;		/* --stat: the per-run figure */
	double threshold_pct;		/* --threshold, percent, > 0; 0: the files' default */
	double spread_pct;		/* --spread, percent, > 0: counted files */
	double alpha;			/* --alpha, in (0, 1) */
	int format;			/* --format, an index of cmpfmt_writers[] */
	enum cmp_ref reference;		/* --reference */
	bool strict;			/* --strict: a testbed or config difference is exit 2 */
	bool pool;			/* --pool: runs of several runner classes pooled */
	struct outset also;		/* --also FMT=FILE */
	const char *origin;		/* --origin, for -f kcidb; NULL: its default */
};

/* one side: its files, read */
struct compare_side {
	char **path;			/* [n] file names */
	struct results **set;		/* [n] their contents */
	unsigned int n;			/* files */
};

/* what was read and found, before anything prints */
struct compare_state {
	struct compare_side side[2];	/* BEFORE, AFTER */
	struct cmp_side cs[2];		/* the same sets, as lib/stats/compare.h reads them */
	struct fileset fs;		/* both sides' rules, each side's contention */
	const struct results_series **list; /* [n] the series, cmp_list_series() */
	unsigned int n;			/* series */
	struct tb_diff diff[TB_MAX_DIFFS]; /* metadata keys the files differ in */
	unsigned int nr_diff;		/* how many */
	bool scaled;			/* figures scaled by the reference: decided */
	char warn[8192];		/* the testbed warning, said with the verdict; "": none */
	const char *unit;		/* the files' unit, "ns" when they say none */
	bool exact;			/* counted files: lib/results/counted.h's rules */
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
	"Counted files (bench vm's counted clock, unit insn: instructions, exact;\n"
	"its plugin's misses, accesses, est-cycles) are judged by size, not by a\n"
	"test: each side's spread (max/min - 1) at most --spread, else 'not\n"
	"repeatable'; the sides' ranges apart, else '~'; then the change beyond\n"
	"--threshold (default " BENCH_STR(COUNTED_THRESHOLD_PCT) "%), else 'below threshold'. The interval is\n"
	"every after/before ratio, p is 'exact'. At least " BENCH_STR(COUNTED_MIN_RUNS) " runs a side.\n"
	"\n"
	"Exit: 0 no regression, 1 a regression (or a counted side that does not\n"
	"repeat), 2 bad input (too few runs a side, a series on one side only,\n"
	"unreadable or mismatched files), 3 a report could not be written (or\n"
	"memory ran out).\n";

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int compare_parse(int argc, char **argv, struct compare_opts *o)
{
	const struct opt opts[] = {
		OPT_ENUM('s', "stat", &o->stat, cmp_stat_names, "STAT",
			 "per-run figure: tm10 (10% trimmed mean, default),\n"
			 "median, mean, p90, p99, p25, p10, min"),
		OPT_DOUBLE('t', "threshold", &o->threshold_pct, 0, 0, "> 0 (percent)", "PCT",
			   "a significant change counts above PCT, > 0 (default "
			   BENCH_STR(CMP_THRESHOLD_PCT) ";\n"
			   "counted files " BENCH_STR(COUNTED_THRESHOLD_PCT) ")"),
		OPT_DOUBLE(0, "spread", &o->spread_pct, 0, 0, "> 0 (percent)", "PCT",
			   "counted files: a side repeats when its spread,\n"
			   "max/min - 1, is at most PCT, > 0 (default "
			   BENCH_STR(COUNTED_SPREAD_PCT) ")"),
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
		OPT_FLAG(0, "pool", &o->pool,
			 "gate runs of several runner classes (TCG and KVM,\n"
			 "two CPU models) as one; else exit 2 naming them"),
		OPT_FORMAT('f', "format", &o->format, cmpfmt_writers, "FMT",
			       "what goes to stdout:"),
		OPT_ALSO(&o->also),
		OPT_ORIGIN(&o->origin, kcidb_opt_origin, ""),
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
	int sep = bench_operand_sep(argc, argv, "BEFORE files from AFTER files");

	if (sep == -2)
		return -1;
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

static void compare_state_free(struct compare_state *st)
{
	unsigned int k, i;

	for (k = 0; k < 2; k++) {
		for (i = 0; st->side[k].set && i < st->side[k].n; i++)
			results_free(st->side[k].set[i]);
		free(st->side[k].set);
		st->side[k].set = NULL;
	}
	free(st->list);
	st->list = NULL;
}

/* ---- the testbed: which metadata keys the files differ in ---- */

/* testbed_diff() of every file's metadata into st->diff; 0 or EXIT_ENV */
static int compare_testbed(struct compare_state *st)
{
	const struct meta **m[2] = { NULL, NULL };
	const struct meta *const *mc[2];
	unsigned int k, i, n[2] = { st->side[0].n, st->side[1].n };
	int ret = 0;

	for (k = 0; k < 2; k++) {
		m[k] = calloc(n[k], sizeof(*m[k]));
		for (i = 0; m[k] && i < n[k]; i++)
			m[k][i] = &st->side[k].set[i]->meta;
		mc[k] = m[k];
	}
	if (m[0] && m[1])
		st->nr_diff = testbed_diff(mc, n, st->diff, TB_MAX_DIFFS);
	else
		ret = bench_nomem();
	free(m[0]);
	free(m[1]);
	return ret;
}

/*
 * The testbed or configuration keys that differ, "testbed kernel (6.1 ->
 * 6.2), config cache (...)" into @buf; how many (build keys are not).
 */
static unsigned int compare_differs(const struct compare_state *st, char *buf, size_t len,
				    bool how)
{
	const struct cmpfmt f = {
		.path = { (const char *const *)st->side[0].path,
			  (const char *const *)st->side[1].path },
	};
	unsigned int i, n = 0;
	size_t used = 0;
	char text[1200];

	buf[0] = 0;
	for (i = 0; i < st->nr_diff && used < len; i++) {
		if (st->diff[i].kind == TB_KIND_BUILD)
			continue;
		cmpline_diff_text(text, sizeof(text), &f, &st->diff[i]);
		used += (size_t)snprintf(buf + used, len - used, how ? "%s%s %s (%s)" : "%s%s%s",
					 n ? ", " : "", how ? tb_kind_names[st->diff[i].kind] : "",
					 st->diff[i].key, text);
		n++;
	}
	return n;
}

/*
 * --strict: a testbed or config difference is bad input, one line naming
 * the keys. Without it, a format that does not list them (csv, runs,
 * bmf, github-action-benchmark) gets a warning on stderr. 0 or EXIT_USAGE.
 */
static int compare_check_testbed(const struct compare_opts *o, struct compare_state *st)
{
	if (!compare_differs(st, st->warn, sizeof(st->warn), o->strict))
		return 0;
	if (o->strict) {
		pr_err("--strict: the files differ in %s", st->warn);
		return EXIT_USAGE;
	}
	/* said with the verdict (a refusal is one line), unless the report lists them */
	if (cmpfmt_writers[o->format].flags & REPORT_TESTBED)
		st->warn[0] = 0;
	return 0;
}

/* ---- the series: on both sides, with runs enough, and their figures ---- */

static int compare_check_runs(const struct compare_state *st)
{
	unsigned int i, nb, na, least = st->exact ? COUNTED_MIN_RUNS : CMP_MIN_RUNS;

	for (i = 0; i < st->n; i++) {
		const char *wl = st->list[i]->workload, *var = st->list[i]->variant;

		nb = cmp_side_runs(&st->cs[0], wl, var);
		na = cmp_side_runs(&st->cs[1], wl, var);
		if (!nb || !na) {
			pr_err("%s %s is in the %s files only: every series must be on both sides",
			       wl, var, nb ? "BEFORE" : "AFTER");
			return EXIT_USAGE;
		}
	}
	for (i = 0; i < st->n; i++) {
		const char *wl = st->list[i]->workload, *var = st->list[i]->variant;

		nb = cmp_side_runs(&st->cs[0], wl, var);
		na = cmp_side_runs(&st->cs[1], wl, var);
		if (nb < least || na < least) {
			pr_err("%s %s: %u runs before, %u after; the gate needs at least %u a side%s",
			       wl, var, nb, na, least,
			       st->exact ? " of counted files (bench vm -B 2)" : " (bench run --runs 6)");
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
static int compare_decide_ref(const struct compare_opts *o, struct compare_state *st)
{
	struct cmp_where w;

	st->scaled = false;
	/* a count does not move with the machine's speed: auto scales nothing */
	if (o->reference == CMP_REF_OFF || (st->exact && o->reference == CMP_REF_AUTO))
		return 0;
	st->scaled = cmp_can_scale(st->cs, st->list, st->n, &w);
	if (st->scaled || o->reference == CMP_REF_AUTO)
		return 0;
	pr_err("%s: run %u has no reference rows (bench run --cache cold or --reference on writes them); --reference off compares the raw figures",
	       st->side[w.side].path[w.file], w.run);
	return EXIT_USAGE;
}

/* series @i of @st into @c; 0 or an exit code after a message */
static int compare_one(const struct compare_opts *o, const struct compare_state *st,
		       unsigned int i, struct cmp_series *c)
{
	const struct cmp_gate g = {
		.stat = o->stat, .alpha = o->alpha, .threshold = o->threshold_pct / 100,
		.scaled = st->scaled, .exact = st->exact, .spread = o->spread_pct / 100,
	};
	const char *wl = st->list[i]->workload, *var = st->list[i]->variant;
	struct cmp_where w;
	int ret;

	ret = cmp_series_compute(st->cs, wl, var, st->side[0].set[0]->frac_bits, &g, c, &w);
	if (ret == -EINVAL) {
		pr_err("%s: run %u: %s %s has a %s of 0: no change can be measured from it",
		       st->side[w.side].path[w.file], w.run, wl, var,
		       cmp_stat_names[o->stat]);
		return EXIT_USAGE;
	}
	return ret ? bench_nomem() : 0;
}

/* ---- the report ---- */

/*
 * Every series computed in @c, in the format asked for; under GitHub
 * Actions an ::error annotation per regression on stderr (the runner
 * reads both streams; stdout may be a report file). 0 or EXIT_ENV.
 */
static int compare_report(struct compare_opts *o, const struct compare_state *st,
			  const struct cmp_series *c)
{
	const struct cmpfmt f = {
		.s = c, .n = st->n, .stat = cmp_stat_names[o->stat], .unit = st->unit,
		.alpha = o->alpha, .threshold_pct = o->threshold_pct, .scaled = st->scaled,
		.spread_pct = o->spread_pct,
		.diff = st->diff, .nr_diff = st->nr_diff,
		.path = { (const char *const *)st->side[0].path,
			  (const char *const *)st->side[1].path },
		.meta = { &st->side[0].set[0]->meta, &st->side[1].set[0]->meta },
		.origin = o->origin, .busy = st->fs.busy,
	};
	const char *gha = getenv("GITHUB_ACTIONS");
	char why[1024];
	int ret;

	if (st->warn[0])
		pr_err("warning: the files' testbed or configuration differ: %s (--strict refuses this)",
		       st->warn);
	ret = cmpfmt_writers[o->format].write(stdout, &f);
	if (ret == -ENOMEM)
		outset_abort(&o->also);
	else
		ret = outset_write(&o->also, &f, why, sizeof(why));
	if (gha && !strcmp(gha, "true"))
		cmpfmt_annotations(stderr, &f);
	if (ret)
		return bench_also_err(ret, why);
	ret = bench_finish_stdout();
	if (!ret && (cmpfmt_count(&f, CMP_REGRESSION) || cmpfmt_count(&f, CMP_NOT_REPEATABLE)))
		return EXIT_REGRESSION;
	return ret;
}

/* compute every series first, so that bad input prints no verdict at all */
static int compare_all(struct compare_opts *o, const struct compare_state *st)
{
	struct cmp_series *c = calloc(st->n ? st->n : 1, sizeof(*c));
	unsigned int i;
	int ret = 0;

	if (!c)
		return bench_nomem();
	for (i = 0; i < st->n && !ret; i++)
		ret = compare_one(o, st, i, &c[i]);
	if (!ret)
		ret = compare_report(o, st, c);
	for (i = 0; i < st->n; i++)
		cmp_series_free(&c[i]);
	free(c);
	return ret;
}

/* read and check the files, then the gate; the exit code */
static int compare_run(struct compare_opts *o, struct compare_state *st)
{
	struct results *const *sets[2];
	char *const *paths[2] = { st->side[0].path, st->side[1].path };
	unsigned int n[2] = { st->side[0].n, st->side[1].n };
	unsigned int k;
	int ret = 0;

	/* both sides into one fileset: they measure alike */
	for (k = 0; k < 2 && !ret; k++)
		ret = bench_load_files(&st->fs, st->side[k].path, st->side[k].n, k,
				       &st->side[k].set);
	if (!ret) {
		sets[0] = st->side[0].set;
		sets[1] = st->side[1].set;
		ret = bench_one_class(sets, paths, n, 2, o->pool);
	}
	if (!ret)
		ret = compare_testbed(st);
	if (!ret)
		ret = compare_check_testbed(o, st);
	if (ret)
		return ret;
	for (k = 0; k < 2; k++)
		st->cs[k] = (struct cmp_side){
			.set = (const struct results *const *)st->side[k].set,
			.n = st->side[k].n,
		};
	st->list = cmp_list_series(st->cs, &st->n);
	if (!st->list && errno)
		return bench_nomem();
	st->unit = st->fs.unit;
	st->exact = counted_unit(st->unit);
	if (!o->threshold_pct)
		o->threshold_pct = st->exact ? COUNTED_THRESHOLD_PCT : CMP_THRESHOLD_PCT;
	ret = compare_check_runs(st);
	if (!ret)
		ret = compare_decide_ref(o, st);
	return ret ? ret : compare_all(o, st);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = {
		.stat = CMP_STAT_TM10,
		.spread_pct = COUNTED_SPREAD_PCT,
		.alpha = COMPARE_ALPHA,
		.format = CMPFMT_TABLE,
		.also = OUTSET_INIT(cmpfmt_writers),
	};
	struct compare_state st = { 0 };
	char why[1024];
	int ret;

	ret = compare_parse(argc, argv, &o);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	if (compare_sides(argc, argv, &st.side[0], &st.side[1]))
		return EXIT_USAGE;
	/* argv[optind..]: both sides, and the "--" between them, which is no file */
	ret = bench_outputs(argv + optind, (unsigned int)(argc - optind), NULL, &o.also) ?:
	      bench_inputs_once(st.side[0].path, st.side[0].n) ?:
	      bench_inputs_once(st.side[1].path, st.side[1].n);
	if (ret)
		return ret;
	/* before any file is read: an --also that cannot be written is bad usage */
	if (outset_open(&o.also, why, sizeof(why))) {
		pr_err("--also %s", why);
		return EXIT_USAGE;
	}
	ret = compare_run(&o, &st);
	/* bad input: every --also target as it was (a commit happened already) */
	outset_abort(&o.also);
	compare_state_free(&st);
	return ret;
}
