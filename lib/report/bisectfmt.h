/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bisectfmt.h - the report of a kernel bisect (bench bisect's
 * bisect.txt), one writer over one structure, picked from one table,
 * bisectfmt_writers[]: a regression report in the shape of 0-day's
 * mails (docs/formats.md) and the lines that close it:
 *
 *	Subject: [linux:master] [genirq] 4f5e6d7c8b: irqdesc-alloc.old +29.6% regression
 *
 *	kstats-bench noticed a +29.6% regression of irqdesc-alloc.old on:
 *
 *	commit: SHA ("genirq: slow down __irq_alloc_descs()")
 *
 *	testbed: bench vm on HOST (CPU), 6 boots a kernel at 480 possible CPUs, 2 CPUs
 *	parameters: (the command, boots, possible_cpus, cpus, threshold)
 *	To reproduce, in TREE (the good kernel as bench bisect keeps it):
 *	(git checkout, make, bench vm, bench compare)
 *	commit: (GOOD and the first bad commit, 10 characters and subject)
 *	(bench compare -f lkp's table, the two commits heading its columns)
 *	#regzbot introduced: 4f5e6d7c8b
 *
 *	first bad commit: 4f5e6d7 genirq: slow down __irq_alloc_descs()
 *	condemned by: irqdesc-alloc.old.tm10 +29.6% regression, p=0.004329, n=6+6
 *	BISECT first_bad=SHA steps=3 boots=6 possible=480 seconds=312 results=DIR
 *
 * No Reported-by or Closes: those are 0-day's tags. The subsystem is the
 * first bad commit's subject up to its first ':' ("unknown" without
 * one). A counted file's change (exact) reads to 0.01%, with no p.
 *
 *	report_find(bisectfmt_writers, "text")->write(stdout, &b);
 *
 * Each writer writes only to the FILE it is given and returns 0 or -EIO.
 */
#ifndef KSB_BISECTFMT_H
#define KSB_BISECTFMT_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/subcmd/writer.h"

/* a commit as the report names it */
struct bisectfmt_commit {
	const char *sha;		/* the full hash */
	const char *abbrev;		/* git's 10 characters of it, as 0-day names it */
	const char *subject;		/* its subject line */
};

/* one row of bench compare's CSV: the series that condemned the commit */
struct bisectfmt_row {
	char workload[64];
	char variant[64];
	char stat[32];
	char p[32];			/* as compare wrote it: "0.004329" */
	double change_pct;		/* the change, percent */
	unsigned int n_before;		/* runs a side */
	unsigned int n_after;
};

/* what the writers print of a bisect that found its commit */
struct bisectfmt {
	const char *tree;		/* the kernel tree, an absolute path */
	const char *repo;		/* the subject's "TREE:BRANCH", "linux:master" */
	const char *dir;		/* the results directory */
	const char *rev;		/* the first bad commit as its files are named */
	struct bisectfmt_commit good;	/* GOOD */
	struct bisectfmt_commit first;	/* the first bad commit */
	const char *host;		/* the host bench vm ran on */
	const char *cpu_model;		/* its CPU, NULL: unknown */
	uint64_t boots;			/* what the step's bench vm ran: boots a kernel */
	uint64_t possible_cpus;		/* the guests' possible CPUs */
	uint64_t cpus;			/* and online ones */
	const char *threshold;		/* compare's as it applied it, "5%"; NULL: unknown */
	const char *command;		/* the guests' bench command, one shell line */
	const char *vm_options;		/* bench vm's options, one shell line */
	const char *compare_options;	/* bench compare's, "" none */
	const char *lkp;		/* bench compare -f lkp's table, NULL: none */
	const struct bisectfmt_row *row; /* compare's first regression, NULL: none */
	bool exact;			/* counted files: a change to 0.01%, no p */
	unsigned int steps;		/* git bisect's good, bad and skip steps */
	long seconds;			/* the bisect's wall time */
};

/*
 * bisectfmt_writers - the table (lib/subcmd/writer.h), each writer's
 * model a const struct bisectfmt: text (bisect.txt), ended by a NULL name
 */
extern const struct report_writer bisectfmt_writers[];

#endif /* KSB_BISECTFMT_H */
