// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-trend.c - bench trend: change points over a history of
 * results, each run's figure taken as bench compare takes it, found by
 * E-divisive means with a seeded permutation test (lib/stats/trend.h); the
 * history read and ordered by lib/stats/history.h, written by lib/report/trendfmt.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <malloc.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "lib/results/busy.h"
#include "lib/stats/compare.h"
#include "lib/results/counted.h"
#include "lib/results/fileset.h"
#include "lib/stats/history.h"
#include "lib/report/kcidb.h"
#include "lib/subcmd/outset.h"
#include "lib/results/results.h"
#include "lib/stats/trend.h"
#include "lib/report/trendfmt.h"

/*
 * The nightly job's question: did the newest change point of a series
 * move it up by more than the threshold, within the last nights (files;
 * with --control or --slope, the nights those make)? A change is found
 * once 3 figures after it are in (one night of bench run --runs 3, three
 * nights paired), and the job keeps failing on it for 12 nights.
 */
#define TREND_RECENT	12
/* a test costs window^2 per shuffle and (window + 1)^2 doubles: 8 MB here */
#define TREND_MAX_WINDOW	1000

struct trend_opts {
	enum cmp_stat stat;		/* --stat: the per-run figure */
	enum cmp_ref reference;		/* --reference */
	double alpha;			/* --alpha, in [TREND_MIN_ALPHA, 1) */
	double min_change_pct;		/* --min-change, percent, >= 0; < 0: the files' default */
	uint64_t window;		/* --window, runs */
	uint64_t recent;		/* --recent, nights */
	uint64_t seed;			/* --seed */
	int format;			/* --format, an index of trendfmt_writers[] */
	struct outset also;		/* --also FMT=FILE */
	struct history control;		/* --control FILE|DIR: its files */
	bool slope;			/* --slope: a night's figure is its sweep's slope */
	const char *origin;		/* --origin, for -f kcidb; NULL: its default */
	struct fileset fs[2];		/* the subject's files' rules and runs, the control's */
};

/* ---- options ---- */

static const char trend_head[] =
	"Usage: bench trend [OPTIONS] FILE|DIR...\n"
	"Change points in a history of results (nightly runs): every run of every\n"
	"file, a DIR meaning the *.csv in it (without any: those of each of its\n"
	"subdirectories), in the order of each file's timestamp metadata. For every\n"
	"(workload, variant): one figure per run, as bench compare takes it (--stat,\n"
	"--reference), and E-divisive means over them (Matteson and James), each\n"
	"change point accepted by a seeded permutation test of its energy statistic\n"
	"(output reproducible: same files, same seed).\n";

static const char trend_tail[] =
	"Each line: a change point, where (the timestamp, file and run of the first\n"
	"run after it, and its place in the series), the median of the runs before ->\n"
	"after it (to the neighbouring change points), the Hodges-Lehmann change\n"
	"[95% interval] and the permutation p of the runs the test saw (at most\n"
	"--window), n=BEFORE+AFTER runs, and regression or improvement. A series\n"
	"without one says so. Then a closing TREND line.\n"
	"\n"
	"With --control, the figure is each night's subject/control of their runs'\n"
	"pseudo-medians (x1.012), the control's movement taken at theta of its size:\n"
	"theta is the Theil-Sen slope of the subject's log nightly figure on the\n"
	"control's, in [0, 1] (regression adjustment, CUPED). A shift of the machine\n"
	"shared by both (theta near 1) cancels out; a control that moves alone (theta\n"
	"near 0) adds none of its noise. Each line then ends with the subject's and\n"
	"the control's own nightly figures and theta, and TREND with control=paired.\n"
	"Without it, a change point may be the machine's (a note on stderr says so).\n"
	"Counted files (bench vm's counted clock: insn, misses...) need no control: the\n"
	"runner cannot move a count, so --control refuses them, and --min-change\n"
	"is " BENCH_STR(COUNTED_THRESHOLD_PCT) " by default.\n"
	"\n"
	"With --slope, each night is one figure, what the series costs per possible\n"
	"CPU that night (25.1ns/CPU): the change points are the slope's. With\n"
	"--control too, the figure is the ratio of the two sides' slopes.\n"
	"\n"
	"Exit: 0 no recent regression, 1 a series' newest change point is a\n"
	"regression that starts within the last --recent nights, 2 bad input, 3 a\n"
	"report could not be written (or memory ran out).\n";

/*
 * @arg (stat()ed into @st) into @h: a file as it is, a directory as its
 * CSVs or its nights'; 0, -ENOMEM, or another -errno with @why
 */
static int trend_add(struct history *h, const char *arg, const struct stat *st, char *why,
		     size_t len)
{
	int ret;

	if (!S_ISDIR(st->st_mode))
		return history_add_file(h, NULL, arg);
	ret = history_add_dir(h, arg, why, len);
	return ret == -ENODATA ? history_add_nights(h, arg, why, len) : ret;
}

/* --control FILE|DIR: a file as it is, a directory as its CSVs */
static int trend_control(const struct opt *o, const char *arg, char *why, size_t len)
{
	char msg[PATH_MAX + 128];
	struct stat st;
	int ret;

	if (stat(arg, &st)) {
		snprintf(why, len, "--control: '%s': %s", arg, strerror(errno));
		return -EINVAL;
	}
	ret = trend_add(o->value, arg, &st, msg, sizeof(msg));
	if (!ret)
		return 0;
	/* the parser prints @why for -EINVAL */
	snprintf(why, len, "--control: %s", ret == -ENOMEM ? strerror(ENOMEM) : msg);
	return -EINVAL;
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int trend_parse(int argc, char **argv, struct trend_opts *o)
{
	const struct opt opts[] = {
		OPT_ENUM('s', "stat", &o->stat, cmp_stat_names, "STAT",
			 "per-run figure: tm10 (10% trimmed mean, default),\n"
			 "median, mean, p90, p99, p25, p10, min"),
		OPT_ENUM('r', "reference", &o->reference, cmp_ref_names, "WHEN",
			 "scale each run's figure by its reference loop, as\n"
			 "compare does, the share fitted within each file:\n"
			 "auto (default, when every run has it), on, off"),
		OPT_DOUBLE_IN('a', "alpha", &o->alpha, TREND_MIN_ALPHA, 1, OPT_IN_LO,
			      "in [0.000001, 1)", "A",
			      "a change point's p at most A, in [0.000001, 1)\n"
			      "(default 0.001; a change point costs 2/A shuffles)"),
		OPT_DOUBLE_IN('t', "min-change", &o->min_change_pct, 0, 0, OPT_IN_LO,
			      ">= 0 (percent)", "PCT",
			      "report changes beyond PCT only, >= 0 (default "
			      BENCH_STR(CMP_THRESHOLD_PCT) ",\n"
			      "counted files " BENCH_STR(COUNTED_THRESHOLD_PCT) ": compare's threshold)"),
		OPT_U64('w', "window", &o->window, 2 * TREND_MIN_SEG, TREND_MAX_WINDOW, "N",
			"runs one test sees at most, for long histories,\n"
			"6..1000 (default " BENCH_STR(TREND_WINDOW) "; 18 or more at alpha 0.001)"),
		OPT_U64(0, "recent", &o->recent, 1, UINT32_MAX, "N",
			"exit 1 for a regression starting in the last N\n"
			"nights (files; paired or --slope, the nights),\n"
			"1..2^32-1 (default " BENCH_STR(TREND_RECENT) ")"),
		OPT_U64(0, "seed", &o->seed, 0, UINT64_MAX, "S",
			"the permutations' generator (default 1)"),
		OPT_CALL('c', "control", &o->control, trend_control, "FILE|DIR",
			 "a pinned baseline's results, measured beside the\n"
			 "subject every night (repeatable): change points of\n"
			 "the nightly subject/control, the control taken by\n"
			 "its fitted share theta, night i of each side in its\n"
			 "own time order (docs/trend-control.md)"),
		OPT_FLAG(0, "slope", &o->slope,
			 "the history of a sweep: a night is the files of one\n"
			 "directory (bench vm -p A,B,... -o NIGHT/), its\n"
			 "figure the Theil-Sen slope of its runs against their\n"
			 "possible_cpus (ns per CPU, as bench scale fits it)"),
		OPT_FORMAT('f', "format", &o->format, trendfmt_writers, "FMT",
			       "what goes to stdout:"),
		OPT_ALSO(&o->also),
		OPT_ORIGIN(&o->origin, kcidb_opt_origin, ""),
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

/* ---- the history ---- */

/* every operand: a file as it is, a directory as its CSVs; 0 or an exit code */
static int trend_files(struct history *h, int argc, char **argv)
{
	char why[PATH_MAX + 128];
	struct stat st;
	int i, ret = 0;

	for (i = optind; i < argc && !ret; i++) {
		if (stat(argv[i], &st)) {
			pr_err("FILE|DIR '%s': %s", argv[i], strerror(errno));
			return EXIT_USAGE;
		}
		ret = trend_add(h, argv[i], &st, why, sizeof(why));
		if (ret && ret != -ENOMEM) {
			pr_err("%s", why);
			return EXIT_USAGE;
		}
	}
	return ret ? bench_nomem() : 0;
}

/*
 * Before any file is read: no --also over a file of either side, none
 * given twice within a side; 0 or an exit code.
 */
static int trend_paths(const struct history *h, const struct history *control,
		       const struct outset *also)
{
	char **p = calloc(h->nf + control->nf + 1, sizeof(*p));
	unsigned int i;
	int ret;

	if (!p)
		return bench_nomem();
	for (i = 0; i < h->nf; i++)
		p[i] = h->f[i].path;
	for (i = 0; i < control->nf; i++)
		p[h->nf + i] = control->f[i].path;
	ret = bench_outputs(p, h->nf + control->nf, NULL, also) ?:
	      bench_inputs_once(p, h->nf) ?: bench_inputs_once(p + h->nf, control->nf);
	free(p);
	return ret;
}

/* a control that is (in part) the subject's own files: its ratio is 1 every night */
static int trend_not_self(const struct history *h, const struct history *ctl)
{
	unsigned int a, b;
	int ret = history_shared_file(ctl, h, &a, &b);

	if (ret < 0)
		return bench_nomem();
	if (!ret)
		return 0;
	pr_err("--control: %s is the subject's %s: a control must be measured apart from the subject",
	       ctl->f[a].path, h->f[b].path);
	return EXIT_USAGE;
}

/* --reference for @fs's files: a count does not move with the machine's speed */
static enum cmp_ref trend_reference(const struct trend_opts *o, const struct fileset *fs)
{
	return counted_unit(fs->unit) && o->reference == CMP_REF_AUTO ? CMP_REF_OFF :
									o->reference;
}

/*
 * Read every file, keeping its runs' figures and letting the file go (a
 * history of a thousand files never holds more than one file's
 * histograms); then order, reference and figures. 0 or an exit code.
 */
static int trend_read(const struct trend_opts *o, struct history *h, struct fileset *fs)
{
	struct results *cf;
	char why[1024];
	unsigned int i;
	int ret = 0;

	for (i = 0; i < h->nf && !ret; i++) {
		ret = bench_load_file(fs, h->f[i].path, 0, &cf);
		if (ret)
			return ret;
		ret = history_read(h, i, cf, o->stat, why, sizeof(why));
		results_free(cf);
		ret = bench_input_err(ret, why);
	}
	h->busy = fs->busy[0];	/* the loader counted them (fileset.h) */
	if (!ret && !h->ns) {
		pr_err("no series in %u files", h->nf);
		return EXIT_USAGE;
	}
	if (!ret)
		ret = history_sort(h) ? bench_nomem() : 0;
	if (!ret)
		ret = bench_input_err(history_decide_ref(h, trend_reference(o, fs), why,
							 sizeof(why)), why);
	for (i = 0; i < h->ns && !ret; i++)
		ret = history_figures(h, &h->s[i]) ? bench_nomem() : 0;
	return ret;
}

static int trend_detect_all(const struct trend_opts *o, struct history *h)
{
	struct trend_cfg cfg = {
		.alpha = o->alpha, .min_change = o->min_change_pct / 100,
		.window = (unsigned int)o->window, .seed = o->seed,
	};
	unsigned int i;
	int ret;

	for (i = 0; i < h->ns; i++) {
		struct history_series *s = &h->s[i];

		ret = h->paired ? history_fit_detect(s, &cfg) :
				  trend_detect(s->x, s->n, &cfg, &s->cp, &s->nr_cp);
		if (ret == -ENOMEM)
			return bench_nomem();
		if (ret) {
			pr_err("%s %s: %s", s->workload, s->variant,
			       strerror(-ret));
			return EXIT_USAGE;
		}
	}
	return 0;
}

/* everything read and computed before anything prints */
static int trend_run(struct trend_opts *o, struct history *h)
{
	unsigned int missing;
	char why[1024];
	int ret = trend_read(o, h, &o->fs[0]);
	bool counted = counted_unit(o->fs[0].unit);

	if (o->min_change_pct < 0)
		o->min_change_pct = counted ? COUNTED_THRESHOLD_PCT : CMP_THRESHOLD_PCT;
	if (!ret && counted && o->control.nf) {
		pr_err("--control: %s counts instructions (bench vm's counted clock): no runner can move a count, so a control has nothing to take out; judge the subject alone",
		       h->f[0].path);
		return EXIT_USAGE;
	}
	if (!ret && o->slope)
		ret = bench_input_err(history_slope(h, why, sizeof(why)), why);
	if (!ret && o->control.nf) {
		/* the control apart from the subject, in its unit */
		ret = trend_read(o, &o->control, &o->fs[1]);
		if (!ret)
			ret = bench_input_err(fileset_check_unit(&o->fs[0], &o->fs[1], why,
								 sizeof(why)), why);
		if (!ret && o->slope)
			ret = bench_input_err(history_slope(&o->control, why, sizeof(why)), why);
		if (!ret)
			ret = bench_input_err(history_pair(h, &o->control, why, sizeof(why)), why);
	}
	if (!ret)
		ret = trend_detect_all(o, h);
	missing = history_missing_stamps(h);
	if (!ret && missing)
		pr_err("note: %u of %u files have no timestamp metadata: the runs are taken in the order given",
		       missing, h->nf);
	missing = history_missing_stamps(&o->control);
	if (!ret && missing)
		pr_err("note: --control: %u of %u files have no timestamp metadata: the control's nights are taken in the order given, and paired with the subject's in that order",
		       missing, o->control.nf);
	return ret;
}

/* ---- the reports ---- */

/*
 * the table's last lines: how many runs of the history (and of the
 * control's, paired) the host's cpu pressure disturbed
 * (lib/results/busy.h); none when no file recorded it
 */
static void trend_busy(const struct trend_opts *o, const struct history *h)
{
	char line[128];

	if (!h->busy.files && !o->control.busy.files)
		return;
	busy_line(&h->busy, "runs", line, sizeof(line));
	printf("%s%s\n", h->paired ? "subject: " : "", line);
	if (!h->paired)
		return;
	busy_line(&o->control.busy, "runs", line, sizeof(line));
	printf("control: %s\n", line);
}

/* the format asked for on stdout and every --also; the exit code */
static int trend_report(struct trend_opts *o, const struct history *h)
{
	const struct trendfmt t = {
		.h = h, .stat = cmp_stat_names[o->stat], .alpha = o->alpha,
		.min_change_pct = o->min_change_pct, .window = (unsigned long)o->window,
		.recent = (unsigned long)o->recent, .seed = (unsigned long)o->seed,
		.origin = o->origin,
	};
	struct trendfmt_tally n;
	char why[1024];
	int ret;

	/* a failed stdout is bench_finish_stdout()'s to say */
	ret = trendfmt_writers[o->format].write(stdout, &t);
	if (!ret && o->format == TRENDFMT_TABLE)
		trend_busy(o, h);
	if (ret)
		outset_abort(&o->also);
	else if ((ret = outset_write(&o->also, &t, why, sizeof(why))))
		return bench_also_err(ret, why);
	if (ret == -ENOMEM)
		return bench_nomem();
	ret = bench_finish_stdout();
	if (ret)
		return ret;
	trendfmt_tally(&t, &n);
	if (!h->paired && n.change_points && !counted_unit(o->fs[0].unit))
		pr_err("note: no --control: a change point may be a shift of the machine's own speed; a pinned baseline measured beside each night takes those out (docs/trend-control.md)");
	return n.failing ? EXIT_REGRESSION : EXIT_DONE;
}

int cmd_trend(int argc, char **argv)
{
	struct trend_opts o = {
		.stat = CMP_STAT_TM10,
		.alpha = 0.001,
		.min_change_pct = -1,
		.window = TREND_WINDOW,
		.recent = TREND_RECENT,
		.seed = 1,
		.format = TRENDFMT_TABLE,
		.also = OUTSET_INIT(trendfmt_writers),
	};
	struct history h = { 0 };
	char why[1024];
	int ret;

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
	if (ret) {
		history_free(&o.control);
		return ret > 0 ? bench_finish_stdout() : EXIT_USAGE;
	}
	ret = trend_files(&h, argc, argv);
	if (!ret)
		ret = trend_not_self(&h, &o.control) ?: trend_paths(&h, &o.control, &o.also);
	if (!ret && outset_open(&o.also, why, sizeof(why))) {
		pr_err("--also %s", why);
		ret = EXIT_USAGE;
	}
	if (!ret) {
		ret = trend_run(&o, &h);
		if (ret)
			outset_abort(&o.also);
		else
			ret = trend_report(&o, &h);
	}
	history_free(&h);
	history_free(&o.control);
	return ret;
}
