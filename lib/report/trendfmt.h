/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trendfmt.h - every report of bench trend, one writer per format over
 * one structure (the history lib/stats/history.h read, its change points, the
 * settings), picked from one table, trendfmt_writers[]: what `bench
 * trend -f NAME` and `--also NAME=FILE` write. A new format is one writer
 * and one row there.
 *
 *	name		what the writer prints
 *	table		per change point a line, per series without one its
 *			median, the reference's lines (scaled), one TREND line
 *	csv		one row per change point (TRENDFMT_CSV_COLUMNS)
 *	runs		a "# unit: U" line, then every run's figure with its
 *			segment's median (what ./run.sh trend plots)
 *	json		the trend as one kstats-bench JSON document
 *	markdown	a GitHub-flavoured table under a one-line headline
 *	kcidb		KernelCI's KCIDB v5.3 (lib/report/kcidb.h): the newest
 *			night's checkout and build, one test a series,
 *			kstats_bench.trend.WORKLOAD.VARIANT.STAT, FAIL when it is
 *			failing (a regression among its recent nights), else
 *			PASS, its number the newest figure, its change points
 *			in misc
 *
 * With a control (h->paired) each figure is a night's subject/control,
 * the control adjusted by the series' theta (lib/stats/history.h),
 * written "x1.012", and every format also gives the subject's and the
 * control's own medians and theta (csv and runs: extra columns at the
 * end; json and kcidb: "theta" per series).
 *
 *	struct trendfmt t = { .h = &h, .stat = "tm10", .alpha = 0.001,
 *			      .min_change_pct = 5, .window = 50, .recent = 12 };
 *
 *	trendfmt_writers[TRENDFMT_TABLE].write(stdout, &t);	0, -EIO, -ENOMEM
 *
 * Each writer prints only to the FILE it is given; strings are escaped
 * for the format (lib/subcmd/textfmt.h, lib/results/json.h). Pure: any thread.
 */
#ifndef KSB_TRENDFMT_H
#define KSB_TRENDFMT_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/stats/compare.h"
#include "lib/stats/history.h"
#include "lib/subcmd/writer.h"

#define TRENDFMT_CSV_COLUMNS "workload,variant,stat,index,runs,timestamp,labels,file,run,before,after,change_pct,ci_lo_pct,ci_hi_pct,p,n_before,n_after,verdict,recent"
/* paired: after TRENDFMT_CSV_COLUMNS */
#define TRENDFMT_CSV_PAIRED ",subject_before,subject_after,control_before,control_after,theta"

/* the whole trend */
struct trendfmt {
	const struct history *h;		/* the history, its change points found */
	const char *stat;		/* the per-run figure: "tm10" */
	double alpha;			/* a change point's p at most */
	double min_change_pct;		/* the threshold, % */
	unsigned long window;		/* runs one test sees at most */
	unsigned long recent;		/* a regression in the last N nights (files) fails */
	unsigned long seed;		/* the permutations' */
	const char *origin;		/* kcidb: --origin, NULL: KCIDB_ORIGIN */
};

/*
 * trendfmt_writers - the table (lib/subcmd/writer.h), each writer's
 * model a const struct trendfmt, in the order above, ended by a NULL name
 */
extern const struct report_writer trendfmt_writers[];
#define TRENDFMT_TABLE	0

/* what the change points of a history add up to */
struct trendfmt_tally {
	unsigned int change_points;	/* in every series */
	unsigned int regressions;	/* verdict regression */
	unsigned int improvements;	/* verdict improvement */
	unsigned int failing;		/* series whose newest is a recent regression */
};

/**
 * trendfmt_verdict - @c's: regression, improvement, or below the threshold.
 */
enum cmp_verdict trendfmt_verdict(const struct trendfmt *t, const struct trend_cp *c);

/**
 * trendfmt_failing - @s's newest change point is a regression among its last runs.
 */
bool trendfmt_failing(const struct trendfmt *t, const struct history_series *s);

/**
 * trendfmt_tally - the tally of every series of t->h into *@n.
 */
void trendfmt_tally(const struct trendfmt *t, struct trendfmt_tally *n);

#endif /* KSB_TRENDFMT_H */
