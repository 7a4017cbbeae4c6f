/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scalefmt.h - every report of bench scale, one writer per format over
 * one structure (the groups of files, every point, every series' fit
 * per group and the gate on the slope difference, which builtin-scale.c
 * computes with lib/stats/scale.h, and the settings), picked from one
 * table, scalefmt_writers[]: what `bench scale -f NAME` and `--also
 * NAME=FILE` write.
 *
 *	name		what the writer prints
 *	table		per series and group its slope line, each --at N's
 *			line, the B-A lines, one SCALE line
 *	csv		a row per fit and per B-A difference
 *	points		every point, every digit: what ./run.sh scale plots
 *	json		one kstats-bench JSON document
 *	markdown	GitHub tables under a one-line headline: a PR comment
 *	sweep		a "# unit: U" line, then per file of the first group
 *			(in the order given) its possible CPUs and, per variant
 *			of the first workload but the reference loop, the
 *			merged series' mean, p50 and p99: what ./run.sh sweep
 *			plots (possible_cpus,old_mean,new_mean,old_p50,...)
 *	kcidb		an audit's alone (REPORT_AUDIT)
 *
 * When the report holds an audit (sf->audit, bench scale --audit or bench
 * audit's files), table, csv, json, markdown and kcidb write the
 * audit's report, auditfmt_writers[]'s row of the same name
 * (lib/report/auditfmt.h); points and sweep are the sweep's own. kcidb
 * without an audit returns -EINVAL: a command refuses it first.
 *
 *	struct scalefmt sf = { .r = &report, .stat = CMP_TM10, .flat = 0.1 };
 *
 *	scalefmt_writers[0].write(stdout, &sf);		0, -EIO, -ENOMEM
 *
 * Each writer prints only to the FILE it is given; strings are escaped
 * for the format (lib/subcmd/textfmt.h, lib/results/json.h). Pure: any
 * thread.
 */
#ifndef KSB_SCALEFMT_H
#define KSB_SCALEFMT_H

#include <stdbool.h>

#include "lib/stats/compare.h"
#include "lib/results/fileset.h"
#include "lib/stats/scale.h"
#include "lib/subcmd/writer.h"

struct auditfmt;
struct results;
struct scale_audit;

/* --at counts at most */
#define SCALE_MAX_AT	16

/* the files before or after "--" */
struct scale_group {
	char **path;			/* [n] as given */
	struct results **set;		/* [n] read */
	unsigned int *possible;		/* [n] each file's possible_cpus */
	unsigned int n;			/* files */
	char name[64];			/* their shared vm_name, else "A" or "B" */
};

/* one run of one file */
struct scale_point {
	unsigned int file;		/* index in its group */
	unsigned int run;		/* in that file, 1-based */
	double x;			/* the file's possible CPUs */
	double y;			/* the run's figure (--stat) */
};

/* a series in one group: its points and their fit */
struct scale_fitted {
	bool has;			/* the group has the series */
	struct scale_point *pt;		/* [npt] file after file, run after run */
	unsigned int npt, cap;		/* in use, allocated */
	struct scale_fit fit;		/* lib/stats/scale.h's */
	double spread;			/* the largest max/min - 1 of its points at one count */
	bool repeats;			/* spread within --spread, or not counted */
};

/* one (workload, variant) over the groups */
struct scale_row {
	const char *workload;		/* points into a set */
	const char *variant;		/* same */
	struct scale_fitted side[2];	/* per group */
	bool gated;			/* on both sides: a difference */
	struct scale_diff diff;		/* B's slope less A's */
	double threshold_ns;		/* --threshold in ns per CPU for this series */
	bool regression;		/* scale_regression() */
	bool not_repeatable;		/* counted: a side does not repeat, never a pass */
};

struct scale_report {
	struct scale_group g[2];	/* A, and B after "--" */
	unsigned int nr_groups;		/* 1 or 2 */
	struct scale_row *row;		/* [n] series in order of first appearance */
	unsigned int n;			/* series */
	char unit[16];			/* ns, cycles or insn (counted), every file's */
	struct fileset fs;		/* the files' rules, each group's contention */
	struct scale_audit *audit;	/* an audit's battery (bench scale's), or NULL */
};

/* the whole report: what was computed and the settings it was computed with */
struct scalefmt {
	const struct scale_report *r;	/* the groups, series and fits */
	enum cmp_stat stat;		/* each run's figure */
	double flat;			/* a slope below it is flat, ns per CPU, >= 0 */
	double spread_pct;		/* counted: a fit repeats within it, percent */
	struct scale_threshold threshold; /* the gate's: NS or N% */
	const unsigned int *at;		/* [nr_at] counts to extrapolate to */
	unsigned int nr_at;		/* how many */
	const char *origin;		/* -f kcidb's origin (an audit's), or NULL */
	const struct auditfmt *audit;	/* the battery's report, or NULL: none */
};

/*
 * scalefmt_writers - the table (lib/subcmd/writer.h), each writer's
 * model a const struct scalefmt, in the order above, ended by a NULL name
 */
extern const struct report_writer scalefmt_writers[];

#endif /* KSB_SCALEFMT_H */
