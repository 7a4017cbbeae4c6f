/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runset.h - a finished `bench run` as a results set (lib/results/results.h):
 * its metadata, every worker's histograms and their merge per variant,
 * the reference loop's; lib/report/format.h prints and writes it. Reads the
 * engine after engine_join(); prints nothing.
 */
#ifndef KSB_RUNSET_H
#define KSB_RUNSET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/measure/workload.h"

struct engine;
struct kstats_hist;
struct meta;
struct results;

extern const char *const runset_caches[];	/* "kernel", "cold", "remote" */

#define RUNSET_MAX_STATS	16

struct runset {
	const struct engine *e;		/* the finished run */
	const struct wl_stat *stats;	/* the workload's own figures */
	unsigned int nr_stats;		/* how many */
	/* every worker merged; [WL_NEW] unused by a workload of one variant */
	struct kstats_hist *merged[WL_NR_VARIANTS];
	const struct kstats_hist *ref;	/* reference samples merged, NULL: none */
	const char *unit;		/* "ns" or "cycles" */
	bool partial;			/* stopped early */
	const char *name;		/* the series' workload label; NULL: the workload's name */
};

/**
 * runset_meta - the run's "# key: value" metadata: command line, host,
 * kernel, CPU model, TSC, CPUs, nodes, options, timer overhead,
 * partial; with a reference, "reference:" says what the loop is.
 * @cmdline, @mlock and @pcpu_nodes
 * are the caller's words.
 */
void runset_meta(struct meta *m, const struct runset *r,
		 const char *cmdline, const char *mlock, const char *pcpu_nodes,
		 unsigned long pcpu_unit, bool hugepages);

/**
 * runset_meta_list - the metadata of a list of runs that share the
 * process (bench audit's entries): what runset_meta() says of the
 * machine and the timing, from @e, the first run (its command line,
 * host, clock, CPUs, mode, cache, unit, layout, stamps, timer overhead),
 * and nothing of its workload, which the caller says per entry.
 */
void runset_meta_list(struct meta *m, const struct engine *e, const char *cmdline,
		      const char *mlock, const char *unit);

/**
 * runset_results - add the run's series to @res (created with the run's
 * frac_bits), labelled run "all" and workload @r->name (NULL: the
 * workload's name): per variant the merge over the
 * workers, then each worker's (cpu, node); then the reference loop's
 * merged samples (variant RESULTS_REFERENCE) when the run has them.
 * Returns 0, -EINVAL (layouts differ) or -ENOMEM.
 */
int runset_results(struct results *res, const struct runset *r);

#endif /* KSB_RUNSET_H */
