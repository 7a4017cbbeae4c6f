/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - what a finished `bench run` prints and writes: the patch
 * table per variant, per-CPU kstats lines, bars, the SUMMARY line, the
 * CSV with its metadata. Reads the engine after engine_join(); prints
 * only to the FILE it is given.
 */
#ifndef KSB_REPORT_H
#define KSB_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "workload.h"

struct csv_meta;
struct engine;
struct kstats_hist;

enum report_format {
	REPORT_TABLE,			/* patch table per variant + SUMMARY */
	REPORT_KSTATS,			/* kstats lines, per CPU and merged */
	REPORT_CSV,			/* the CSV itself */
	REPORT_BARS,			/* bars per variant + SUMMARY */
	REPORT_JSON,			/* the JSON document (lib/json.h) */
};

extern const char *const report_formats[];	/* NULL-terminated names */
extern const char *const report_caches[];	/* "kernel", "cold", "remote" */
extern const char *const report_variants[];	/* "old", "new" */
/* the variant name of the reference loop's rows in the CSV */
#define REPORT_REFERENCE	"reference"

#define REPORT_MAX_STATS	16

struct report_run {
	const struct engine *e;		/* the finished run */
	const struct wl_stat *stats;	/* the workload's own figures */
	unsigned int nr_stats;		/* how many */
	struct kstats_hist *merged[WL_NR_VARIANTS]; /* every worker merged */
	const struct kstats_hist *ref;	/* reference samples merged, NULL: none */
	const char *unit;		/* "ns" or "cycles" */
	bool partial;			/* stopped early */
};

/*
 * report_meta - the run's "# key: value" metadata: command line, host,
 * kernel, CPU model, TSC, CPUs, nodes, options, timer overhead,
 * partial; with a reference, "reference:" says what the loop is.
 * @cmdline, @mlock and @pcpu_nodes
 * are the caller's words.
 */
void report_meta(struct csv_meta *m, const struct report_run *r,
		 const char *cmdline, const char *mlock, const char *pcpu_nodes,
		 unsigned long pcpu_unit, bool hugepages);

/* report_print - stdout for @fmt (CSV needs @m). 0 or -EIO. */
int report_print(FILE *f, enum report_format fmt, const struct report_run *r,
		 const struct csv_meta *m);

/*
 * report_json - the JSON document: metadata, merged then per-CPU, then
 * the reference loop's merged samples when the run has them. 0/-EIO.
 */
int report_json(FILE *f, const struct report_run *r, const struct csv_meta *m);

/*
 * report_csv - the whole CSV: header, merged rows, per-CPU rows, then
 * the reference loop's merged rows (variant REPORT_REFERENCE) when the
 * run has them. 0/-EIO.
 */
int report_csv(FILE *f, const struct report_run *r, const struct csv_meta *m);

/*
 * report_summary - one grep-able line:
 * SUMMARY workload=W unit=ns old_p50=.. old_p99=.. old_max=.. old_mean=..
 * new_... ratio=old_mean/new_mean samples=N partial=no
 */
int report_summary(FILE *f, const struct report_run *r);

/*
 * report_summary_line - the same line from merged histograms @merged
 * and disturbed-sample counts @disturbed, both [WL_NR_VARIANTS] (bench
 * run --runs: merged and summed over the runs).
 */
int report_summary_line(FILE *f, const char *wl, const char *unit,
			const struct kstats_hist *const *merged,
			const uint64_t *disturbed, unsigned int cpus,
			unsigned int possible, bool partial);

#endif /* KSB_REPORT_H */
