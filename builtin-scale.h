/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builtin-scale.h - what bench scale computes (builtin-scale.c) and its
 * reports print (builtin-scale-fmt.c): the groups of files, every point,
 * every series' fit per group, and the gate on the slope difference.
 */
#ifndef KSB_BUILTIN_SCALE_H
#define KSB_BUILTIN_SCALE_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/report/compare.h"
#include "lib/report/outset.h"
#include "lib/report/scale.h"

/* --at counts at most */
#define SCALE_MAX_AT	16

struct scale_opts {
	enum cmp_stat stat;		/* --stat: each run's figure */
	double flat;			/* --flat, ns per CPU, >= 0 */
	struct scale_threshold threshold; /* --threshold: NS or N% */
	unsigned int at[SCALE_MAX_AT];	/* --at, in the order given */
	unsigned int nr_at;		/* how many */
	int format;			/* --format, an index of scale_writers[] */
	bool pool;			/* --pool: runs of several runner classes in one fit */
	const char *output;		/* -o FILE, NULL: stdout */
	struct outset also;		/* --also FMT=FILE */
};

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
	struct scale_fit fit;		/* lib/report/scale.h's */
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
};

struct scale_report {
	struct scale_group g[2];	/* A, and B after "--" */
	unsigned int nr_groups;		/* 1 or 2 */
	struct scale_row *row;		/* [n] series in order of first appearance */
	unsigned int n;			/* series */
	char unit[16];			/* ns or cycles, every file's */
	const char *unit_path;		/* the first file, that set it */
};

struct scale_writer {
	const char *name;		/* -f NAME (first: OPT_ENUM_TABLE reads it) */
	const char *help;		/* its --help line (second, likewise) */
	/* the report on @f: 0, -EIO when a write failed, -ENOMEM */
	int (*write)(FILE *f, const struct scale_opts *o, const struct scale_report *r);
};

/* table (the default), csv, points, json, markdown; a NULL name ends it */
extern const struct scale_writer scale_writers[];

#endif /* KSB_BUILTIN_SCALE_H */
