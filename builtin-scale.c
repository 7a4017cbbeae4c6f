// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-scale.c - bench scale: what a series costs per possible CPU,
 * from a sweep of results files, one per possible-CPU count. Every run
 * of every file is a point (the file's possible_cpus, the run's figure
 * as bench compare takes it); lib/stats/scale.h fits the line and gates the
 * slope of B against A. The reports are lib/report/scalefmt.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "builtin-scale.h"
#include "lib/stats/audit.h"
#include "lib/report/auditfmt.h"
#include "lib/results/busy.h"
#include "lib/stats/compare.h"
#include "lib/results/counted.h"
#include "lib/report/kcidb.h"
#include "lib/results/meta.h"
#include "lib/subcmd/outfile.h"
#include "lib/subcmd/outset.h"
#include "lib/results/results.h"
#include "lib/report/scalefmt.h"

struct scale_opts {
	enum cmp_stat stat;		/* --stat: each run's figure */
	double flat;			/* --flat, ns per CPU, >= 0; < 0: the files' default */
	double spread_pct;		/* --spread, percent: counted files */
	struct scale_threshold threshold; /* --threshold: NS or N% */
	unsigned int at[SCALE_MAX_AT];	/* --at, in the order given */
	unsigned int nr_at;		/* how many */
	int format;			/* --format, an index of scalefmt_writers[] */
	bool pool;			/* --pool: runs of several runner classes in one fit */
	const char *output;		/* -o FILE, NULL: stdout */
	struct outset also;		/* --also FMT=FILE */
	bool audit;			/* --audit, or bench audit's files: a battery */
	int method;			/* --multiplicity, enum audit_method */
	double q;			/* --alpha, the family's level */
	const char *origin;		/* --origin, for -f kcidb */
};

static const char scale_head[] =
	"Usage: bench scale [OPTIONS] FILE...\n"
	"       bench scale [OPTIONS] A.csv... -- B.csv...\n"
	"What each series costs per possible CPU. Every FILE is a results CSV (bench\n"
	"run, kernel, trace, vm) with a possible_cpus metadata line: each of its runs\n"
	"is a point, x its possible CPUs, y the run's figure (--stat, as bench compare\n"
	"takes it). Per (workload, variant): the Theil-Sen line cost = a + b x, b in\n"
	"ns per possible CPU with its 95% rank interval (Sen 1968), robust to the\n"
	"odd preempted boot, and a verdict. With A -- B: the gate on B's slope less\n"
	"A's. Options come before the files.\n";

static const char scale_tail[] =
	"Each line: the series, its group (the files' vm_name when they share one,\n"
	"else A or B), the slope [95% interval] per possible CPU, the intercept a,\n"
	"the points and counts, and grows (the interval above 0 and --flat), flat or\n"
	"shrinks; then each --at N: a + b N [the lines of the interval's ends at N].\n"
	"Counted files (bench vm's counted clock, unit insn; its plugin's misses,\n"
	"accesses, est-cycles) give the slope in that unit per possible CPU, --flat\n"
	BENCH_STR(COUNTED_FLAT) " by default (misses, accesses " BENCH_STR(COUNTED_FLAT_LINES) "), and each fit's spread\n"
	"(the largest max/min - 1 of its boots at one count); a fit past --spread\n"
	"does not repeat, and a gate on it is 'not repeatable', never a pass.\n"
	"With A -- B, per series on both sides: B-A, the slope difference [95%\n"
	"interval, MOVER], the threshold in ns/CPU, and regression or ok. A closing\n"
	"SCALE line. An audit (--audit, or bench audit's files): the entries ranked\n"
	"by their cost at " BENCH_STR(AUDIT_AT) " possible CPUs, judged as one family (--multiplicity,\n"
	"the adjusted level on the first line), each with the traced function that\n"
	"carries its growth; A -- B gates every entry. See kstats-bench-scale(1)\n"
	"and docs/scale.md.\n"
	"\n"
	"Exit: 0 no regression, 1 B's slope exceeds A's by more than --threshold with\n"
	"the interval of the difference above 0 (or a counted side does not repeat),\n"
	"2 bad input (a file without\n"
	"possible_cpus, a series at one count only, mismatched units), 3 a report\n"
	"could not be written (or memory ran out).\n";

/* ---- options ---- */

/* NS (ns per CPU) or N% (of A's slope) */
static int scale_threshold(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct scale_threshold *t = o->value;
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!errno && end != arg && isfinite(v) && v >= 0 && (!*end || !strcmp(end, "%"))) {
		t->v = v;
		t->pct = *end == '%';
		return 0;
	}
	snprintf(why, len, "--%s: '%s' is neither NS (ns per possible CPU, >= 0) nor N%% (of A's slope)",
		 o->long_name, arg);
	return -EINVAL;
}

/* a count or a comma-separated list of them, added to those given before */
static int scale_at_opt(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct scale_opts *so = o->value;
	const char *p = arg;
	unsigned long v;
	char *end;

	do {
		errno = 0;
		v = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
		if (errno || !v || v > NR_CPUS_MAX || (*end && *end != ',')) {
			snprintf(why, len, "--%s: '%s' is not a count 1..%d or a list of them (480,8192)",
				 o->long_name, arg, NR_CPUS_MAX);
			return -EINVAL;
		}
		if (so->nr_at == SCALE_MAX_AT) {
			snprintf(why, len, "--%s: at most %d counts", o->long_name, SCALE_MAX_AT);
			return -EINVAL;
		}
		so->at[so->nr_at++] = (unsigned int)v;
		p = end + 1;
	} while (*end);
	return 0;
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int scale_parse(int argc, char **argv, struct scale_opts *o)
{
	const struct opt opts[] = {
		OPT_ENUM('s', "stat", &o->stat, cmp_stat_names, "STAT",
			 "per-run figure: min (the smallest sample, default),\n"
			 "p10, p25, median, tm10 (10% trimmed mean), mean,\n"
			 "p90, p99"),
		OPT_DOUBLE_IN(0, "flat", &o->flat, 0, 0, OPT_IN_LO,
			      ">= 0 (ns per possible CPU)", "NS",
			      "a slope up to NS ns per possible CPU counts as flat:\n"
			      "grows needs the interval above it (default 0;\n"
			      "counted files " BENCH_STR(COUNTED_FLAT) " instruction, " BENCH_STR(COUNTED_FLAT_LINES) " miss)"),
		OPT_DOUBLE(0, "spread", &o->spread_pct, 0, 0, "> 0 (percent)", "PCT",
			   "counted files: a fit repeats when its boots at each\n"
			   "count spread by at most PCT, max/min - 1, > 0\n"
			   "(default " BENCH_STR(COUNTED_SPREAD_PCT) ")"),
		OPT_CALL(0, "at", o, scale_at_opt, "N[,N...]",
			 "extrapolate a + b N with its interval, N in 1.." BENCH_STR(NR_CPUS_MAX) ";\n"
			 "repeatable, e.g. --at 480,8192"),
		OPT_CALL('t', "threshold", &o->threshold, scale_threshold, "NS|N%",
			 "A -- B: a slope difference counts above NS ns per\n"
			 "possible CPU, or N% of |A's slope| (default "
			 BENCH_STR(CMP_THRESHOLD_PCT) "%;\n"
			 "counted files: never below --flat)"),
		OPT_FLAG(0, "audit", &o->audit,
			 "the files are a battery's sweep: every series an\n"
			 "entry, judged as one family, ranked by its cost at\n"
			 BENCH_STR(AUDIT_AT) " possible CPUs; bench trace's series are the\n"
			 "functions that may carry an entry's growth"),
		OPT_ENUM(0, "multiplicity", &o->method, audit_method_names, "M",
			 "--audit: bh (Benjamini-Hochberg, the false\n"
			 "discovery rate, default), holm (the family-wise\n"
			 "error), none"),
		OPT_DOUBLE_IN(0, "alpha", &o->q, 0, 0.5, OPT_IN_HI, "in (0, 0.5]", "Q",
			      "--audit: the family's level, in (0, 0.5]\n"
			      "(default 0.05)"),
		OPT_FLAG(0, "pool", &o->pool,
			 "fit runs of several runner classes (TCG and KVM,\n"
			 "two CPU models) as one; else exit 2 naming them"),
		OPT_FORMAT('f', "format", &o->format, scalefmt_writers, "FMT",
			       "the report:"),
		OPT_STRING('o', "output", &o->output, "FILE",
			   "write the report to FILE (- stdout), replaced whole"),
		OPT_ALSO(&o->also),
		OPT_ORIGIN(&o->origin, kcidb_opt_origin, ""),
		OPT_END()
	};
	const struct opt *tab[] = { opts, NULL };
	/* options first, so that "--" between the groups is kept */
	struct opt_parser p = { .tab = tab, .flags = OPT_STOP_AT_OPERAND };

	return bench_options(&p, scale_head, scale_tail, argc, argv);
}

/* argv[optind..]: FILE..., or A... -- B... */
static int scale_groups(int argc, char **argv, struct scale_report *r)
{
	int sep = bench_operand_sep(argc, argv, "the A files from the B files");

	if (sep == -2)
		return -1;
	r->nr_groups = sep < 0 ? 1 : 2;
	r->g[0].path = argv + optind;
	r->g[0].n = sep < 0 ? (unsigned int)(argc - optind) :
		    sep < optind ? 0 : (unsigned int)(sep - optind);
	if (sep >= 0) {
		r->g[1].path = argv + sep + 1;
		r->g[1].n = (unsigned int)(argc - sep - 1);
	}
	if (!r->g[0].n || (sep >= 0 && !r->g[1].n)) {
		bench_err(sep < 0 ? "needs FILE.csv..., or A.csv... -- B.csv..." :
			  "no %s files", r->g[0].n ? "B" : "A");
		return -1;
	}
	return 0;
}

/* ---- the files ---- */

/* its possible_cpus metadata into *@x; 0 or EXIT_USAGE after naming the file */
static int file_possible(const struct results *set, const char *path, unsigned int *x)
{
	uint64_t n = 0;
	char why[256];
	int ret = meta_get_u64(&set->meta, "possible_cpus", &n);

	if (ret == -ENOENT) {
		pr_err("%s: no possible_cpus metadata: each point needs its possible CPU count (bench run -p N, bench vm -p N write it)",
		       path);
		return EXIT_USAGE;
	}
	/* the fileset refused a value that is no count: held here all the same */
	if (ret) {
		meta_check("possible_cpus", meta_get(&set->meta, "possible_cpus"), why, sizeof(why));
		pr_err("%s: %s", path, why);
		return EXIT_USAGE;
	}
	*x = (unsigned int)n;
	return 0;
}

/* the group's name: the vm_name its files share, else @dflt */
static void group_name(struct scale_group *g, const char *dflt)
{
	const char *first = meta_get(&g->set[0]->meta, "vm_name"), *v;
	unsigned int i;

	for (i = 1; first && i < g->n; i++) {
		v = meta_get(&g->set[i]->meta, "vm_name");
		if (!v || strcmp(v, first))
			first = NULL;
	}
	snprintf(g->name, sizeof(g->name), "%s", first && *first ? first : dflt);
}

/*
 * How many of @g's runs the host's cpu pressure disturbed (lib/results/busy.h),
 * on stderr, so that every format gets it and none changes: the slope is
 * fitted on them all, and min per run (the default) is what a
 * neighbour moves least. Nothing when no file recorded it.
 */
static void group_note_busy(const struct scale_group *g, const struct busy_count *bc)
{
	const char *what = "runs";
	char line[160];
	unsigned int i;

	for (i = 0; i < g->n; i++)
		if (meta_get(&g->set[i]->meta, "vm_boots"))
			what = "boots";
	if (!bc->files)
		return;
	busy_line(bc, what, line, sizeof(line));
	pr_err("%s: %s", g->name, line);
}

/* group @k's files into r->fs: both groups measure alike */
static int group_load(struct scale_report *r, unsigned int k, const char *dflt)
{
	struct scale_group *g = &r->g[k];
	unsigned int i;
	int ret;

	g->possible = calloc(g->n, sizeof(*g->possible));
	ret = g->possible ? bench_load_files(&r->fs, g->path, g->n, k, &g->set) : bench_nomem();
	for (i = 0; i < g->n && !ret; i++)
		ret = file_possible(g->set[i], g->path[i], &g->possible[i]);
	if (ret)
		return ret;
	snprintf(r->unit, sizeof(r->unit), "%s", r->fs.unit);
	group_name(g, dflt);
	return 0;
}

/* ---- the points and the fits ---- */

static int point_add(struct scale_fitted *f, unsigned int file, unsigned int run, double x,
		     double y)
{
	struct scale_point *np;

	if (f->npt == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 32;
		np = realloc(f->pt, f->cap * sizeof(*np));
		if (!np)
			return -ENOMEM;
		f->pt = np;
	}
	f->pt[f->npt++] = (struct scale_point){ .file = file, .run = run, .x = x, .y = y };
	return 0;
}

/* every run of (@wl, @var) in every file of @g, as compare takes its figure */
static int series_points(const struct scale_opts *o, const struct scale_group *g,
			 const char *wl, const char *var, struct scale_fitted *f)
{
	unsigned int i, k, n;
	double *y;
	int ret = 0;

	for (i = 0; i < g->n && !ret; i++) {
		n = results_nr_runs(g->set[i], wl, var);
		if (!n)
			continue;
		y = malloc(n * sizeof(*y));
		if (!y)
			return -ENOMEM;
		n = cmp_run_figures(g->set[i], wl, var, o->stat, y, NULL);
		for (k = 0; k < n && !ret; k++)
			ret = point_add(f, i, k + 1, g->possible[i], y[k]);
		free(y);
	}
	return ret;
}

/* the fit of a series' points; 0, or an exit code after naming it */
static int series_fit(const struct scale_group *g, const struct scale_row *row,
		      struct scale_fitted *f)
{
	double *x = malloc(2 * (f->npt + 1) * sizeof(*x)), *y = x + f->npt + 1;
	unsigned int i;
	int ret;

	if (!x)
		return bench_nomem();
	for (i = 0; i < f->npt; i++) {
		x[i] = f->pt[i].x;
		y[i] = f->pt[i].y;
	}
	ret = scale_theil_sen(x, y, f->npt, &f->fit);
	f->spread = scale_spread(x, y, f->npt);
	free(x);
	if (ret == -ENOMEM)
		return bench_nomem();
	if (ret == -E2BIG) {
		pr_err("%s: %s %s: %u points, at most %d in one fit",
		       g->name, row->workload, row->variant, f->npt, SCALE_MAX_POINTS);
		return EXIT_USAGE;
	}
	if (ret) {
		pr_err("%s: %s %s: every point is at possible_cpus %g: a slope needs files at 2 counts or more",
		       g->name, row->workload, row->variant, f->npt ? f->pt[0].x : 0);
		return EXIT_USAGE;
	}
	return 0;
}

/* are all of @f's points at one count? */
static bool series_one_count(const struct scale_fitted *f)
{
	unsigned int i;

	for (i = 1; i < f->npt; i++)
		if (f->pt[i].x != f->pt[0].x)
			return false;
	return true;
}

static int row_compute(const struct scale_opts *o, struct scale_report *r, struct scale_row *row)
{
	unsigned int k;
	int ret;

	/* the plugin's functions: the audit fits them on their own points */
	if (o->audit && scale_audit_func_row(r, row))
		return 0;
	for (k = 0; k < r->nr_groups; k++) {
		struct scale_fitted *f = &row->side[k];

		if (series_points(o, &r->g[k], row->workload, row->variant, f))
			return bench_nomem();
		f->has = f->npt > 0;
		if (f->has && o->audit && series_one_count(f)) {
			/* an entry skipped, or a function untimed, at every count but one */
			pr_err("note: %s: %s %s is at possible_cpus %g only: left out",
			       r->g[k].name, row->workload, row->variant, f->pt[0].x);
			f->has = false;
			continue;
		}
		if (f->has && (ret = series_fit(&r->g[k], row, f)))
			return ret;
		f->repeats = !counted_unit(r->unit) || f->spread <= o->spread_pct / 100;
	}
	row->gated = r->nr_groups == 2 && row->side[0].has && row->side[1].has;
	if (r->nr_groups == 2 && !row->gated)
		pr_err("note: %s %s is in the %s files only: no slope difference",
		       row->workload, row->variant,
		       r->g[row->side[0].has ? 0 : 1].name);
	if (!row->gated)
		return 0;
	scale_diff(&row->side[0].fit, &row->side[1].fit, &row->diff);
	row->threshold_ns = scale_threshold_ns(&o->threshold, &row->side[0].fit);
	row->not_repeatable = !row->side[0].repeats || !row->side[1].repeats;
	if (counted_unit(r->unit)) {
		/* a difference that would be flat on its own is no regression */
		row->threshold_ns = fmax(row->threshold_ns, o->flat);
		row->regression = !row->not_repeatable && row->diff.est > row->threshold_ns &&
				  row->diff.lo > 0;
	} else {
		row->regression = scale_regression(&row->side[0].fit, &row->diff, &o->threshold);
	}
	return 0;
}

static void report_free(struct scale_report *r)
{
	unsigned int i, k;

	for (i = 0; i < r->n; i++)
		for (k = 0; k < 2; k++)
			free(r->row[i].side[k].pt);
	free(r->row);
	for (k = 0; k < 2; k++) {
		for (i = 0; r->g[k].set && i < r->g[k].n; i++)
			results_free(r->g[k].set[i]);
		free(r->g[k].set);
		free(r->g[k].possible);
	}
}

/* every file read and every series fitted, before anything prints */
static int scale_compute(struct scale_opts *o, struct scale_report *r)
{
	const struct results_series **list;
	struct cmp_side cs[2] = { { NULL, 0 }, { NULL, 0 } };
	unsigned int i, k;
	struct results *const *sets[2];
	char *const *paths[2];
	unsigned int n[2];
	int ret = 0;

	for (k = 0; k < r->nr_groups && !ret; k++)
		ret = group_load(r, k, k ? "B" : "A");
	if (o->flat < 0)
		o->flat = counted_flat(r->unit);
	for (k = 0; k < r->nr_groups; k++) {
		sets[k] = r->g[k].set;
		paths[k] = r->g[k].path;
		n[k] = r->g[k].n;
	}
	if (!ret)
		ret = bench_one_class(sets, paths, n, r->nr_groups, o->pool);
	if (ret)
		return ret;
	/* bench audit's files are a battery whether --audit is given or not */
	if (scale_audit_files(r))
		o->audit = true;
	for (k = 0; k < r->nr_groups; k++)
		group_note_busy(&r->g[k], &r->fs.busy[k]);
	if (r->nr_groups == 2 && !strcmp(r->g[0].name, r->g[1].name)) {
		strcpy(r->g[0].name, "A");
		strcpy(r->g[1].name, "B");
	}
	for (k = 0; k < r->nr_groups; k++)
		cs[k] = (struct cmp_side){ (const struct results *const *)r->g[k].set, r->g[k].n };
	list = cmp_list_series(cs, &r->n);
	if (!list && errno)
		return bench_nomem();
	if (!r->n) {
		pr_err("no series in the files");
		return EXIT_USAGE;
	}
	r->row = calloc(r->n, sizeof(*r->row));
	if (!r->row) {
		free(list);
		return bench_nomem();
	}
	for (i = 0; i < r->n; i++) {
		r->row[i].workload = list[i]->workload;
		r->row[i].variant = list[i]->variant;
	}
	free(list);
	for (i = 0; i < r->n && !ret; i++)
		ret = row_compute(o, r, &r->row[i]);
	return ret;
}

/* -f or --also of an audit's format (REPORT_AUDIT: kcidb) needs one; 0 or -1 after one line */
static int scale_check_formats(const struct scale_opts *o)
{
	unsigned int i;
	int bad = o->audit || !(scalefmt_writers[o->format].flags & REPORT_AUDIT) ? -1 :
		  o->format;

	for (i = 0; bad < 0 && !o->audit && i < o->also.n; i++)
		if (scalefmt_writers[o->also.a[i].fmt].flags & REPORT_AUDIT)
			bad = o->also.a[i].fmt;
	if (bad < 0)
		return 0;
	bench_err("-f %s needs --audit: it reports a battery's entries",
		  scalefmt_writers[bad].name);
	return -1;
}

/* every --also report, then each committed: 0, or EXIT_ENV after one line */
static int scale_write_also(struct scale_opts *o, const struct scalefmt *sf)
{
	char why[PATH_MAX + 128];
	int ret = outset_write(&o->also, sf, why, sizeof(why));

	return bench_also_err(ret, why);
}

/* the report on stdout or into -o's file, then --also's; 0 or EXIT_ENV */
static int scale_write(struct scale_opts *o, const struct scale_report *r)
{
	struct scalefmt sf = {
		.r = r, .stat = o->stat, .flat = o->flat, .spread_pct = o->spread_pct,
		.threshold = o->threshold,
		.at = o->at, .nr_at = o->nr_at, .origin = o->origin,
	};
	struct auditfmt af;
	struct outfile out;
	FILE *f = stdout;
	int ret;

	sf.audit = scale_audit_fmt(&sf, &af);
	if (o->output) {
		ret = outfile_open(&out, o->output);
		if (ret) {
			pr_err("%s: %s", o->output, strerror(-ret));
			outset_abort(&o->also);
			return EXIT_USAGE;
		}
		f = out.f;
	}
	ret = scalefmt_writers[o->format].write(f, &sf);
	if (o->output) {
		if (ret)
			outfile_abort(&out);
		else
			ret = outfile_commit(&out);
		if (ret && ret != -ENOMEM) {
			outset_abort(&o->also);
			return bench_refused("writing %s: %s", o->output, strerror(-ret));
		}
	}
	if (!ret)
		return scale_write_also(o, &sf) ?: bench_finish_stdout();
	outset_abort(&o->also);
	return bench_stdout_failed(ret);
}

int cmd_scale(int argc, char **argv)
{
	struct scale_opts o = {
		/* the busy-runner study (docs/measurements.md): narrowest, and moved least */
		.stat = CMP_STAT_MIN,
		.flat = -1,
		.spread_pct = COUNTED_SPREAD_PCT,
		.threshold = { .v = CMP_THRESHOLD_PCT, .pct = true },
		.also = OUTSET_INIT(scalefmt_writers),
		.method = AUDIT_BH,
		.q = 0.05,
	};
	char why[PATH_MAX + 128];
	struct scale_report r = { 0 };
	unsigned int i;
	int ret;

	ret = scale_parse(argc, argv, &o);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	if (scale_groups(argc, argv, &r))
		return EXIT_USAGE;
	ret = bench_outputs(argv + optind, (unsigned int)(argc - optind), o.output, &o.also);
	for (i = 0; !ret && i < r.nr_groups; i++)
		ret = bench_inputs_once(r.g[i].path, r.g[i].n);
	if (ret)
		return ret;
	/* before any file is read: an --also that cannot be written is bad usage */
	if (outset_open(&o.also, why, sizeof(why))) {
		pr_err("--also %s", why);
		report_free(&r);
		return EXIT_USAGE;
	}
	ret = scale_compute(&o, &r);
	if (!ret && scale_check_formats(&o))
		ret = EXIT_USAGE;
	if (!ret && o.audit) {
		ret = scale_audit_compute(&r, o.method, o.q, o.flat,
					  counted_unit(r.unit) ? o.spread_pct / 100 : 0);
		if (ret == -ENOMEM)
			ret = bench_nomem();
		else if (ret < 0)
			ret = EXIT_USAGE;
	}
	if (ret)
		outset_abort(&o.also);
	if (!ret)
		ret = scale_write(&o, &r);
	for (i = 0; !ret && !o.audit && i < r.n; i++)
		if (r.row[i].regression || (r.row[i].gated && r.row[i].not_repeatable))
			ret = EXIT_REGRESSION;
	if (!ret && scale_audit_regression(&r))
		ret = EXIT_REGRESSION;
	scale_audit_free(&r);
	report_free(&r);
	return ret;
}
