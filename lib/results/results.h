/* SPDX-License-Identifier: GPL-2.0 */
/*
 * results.h - one results model: metadata plus labelled histograms,
 * exact across processes and files. The header is the manual.
 *
 * WHAT IT IS
 *
 * A results set is what one measurement (or several, merged) produced:
 * its metadata (lib/results/meta.h) and a list of series, each labelled
 * (workload, variant, run, cpu, node) and each an exact kstats
 * histogram: per slot the count and the 128-bit sum of its samples,
 * and the smallest and largest sample. Every producer fills one (the
 * engine's workers in bench run, the --runs children read back, the
 * module's results in bench kernel, bench hist's samples, the CSV
 * reader, lib/results/csv.h); every output format is one writer over one (lib/report/format.h).
 * Nothing travels through a lossy format on the way: a CSV read back
 * holds the writer's histograms exactly (format 3), so `bench show` of
 * a file prints what the command that wrote it printed.
 *
 * LABELS
 *
 *	workload  irqdesc-alloc, kernel-set-defaults, hist, ...
 *	variant   old, new, reference (bench run's reference loop), alloc,
 *	          free (kernel-irq-alloc), input (bench hist)
 *	run       1..RESULTS_MAX_RUNS, or RESULTS_RUN_ALL ("all"): merged
 *	          over the runs; a one-run set labels its series "all"
 *	cpu       a CPU number with its node, or RESULTS_CPU_ALL ("all",
 *	          node -1): merged over the CPUs
 *
 * Two series never share a label: adding to a label that exists merges
 * into it. Series keep the order they were added in; writers print the
 * merge over the runs first, then run 1, run 2, ... (results_order()).
 *
 * USAGE: a CSV per boot into one file whose runs are the boots
 *
 *	struct results *all = results_create(KSTATS_HIST_FRAC_BITS_DEFAULT);
 *	struct results *one;
 *
 *	for (i = 0; i < boots; i++) {
 *		ret = csv_read(f[i], &one, &err);		any format, 1..3
 *		if (!ret)
 *			ret = results_add_run(all, one, i + 1, 0);	run i + 1, and into "all"
 *		results_free(one);
 *	}
 *	meta_put(&all->meta, "command", "%s", cmdline);
 *	ret = csv_write(out, all);			format 3, exact
 *	results_free(all);
 *
 * results_add_run() labels @one's series run i + 1 in @all and merges
 * them into @all's "all" series as well, and folds the metadata (the
 * first run's, samples and disturbed counts summed, partial if any run
 * was, runs: the number of runs). results_set_run() and results_add()
 * do the two halves apart; results_merge_runs() rebuilds the "all"
 * series of a set that has numbered runs only.
 *
 * RETURNS AND THREADS
 *
 * Actions return 0 or -errno; constructors a pointer or NULL (errno
 * set); results_free(NULL) is a no-op. A set belongs to one thread at a
 * time; the histograms it hands out are owned by it, valid until the
 * series is dropped or the set freed.
 */
#ifndef KSB_RESULTS_H
#define KSB_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/results/meta.h"

struct kstats_hist;

#define RESULTS_RUN_ALL		0	/* run "all": merged over the runs */
#define RESULTS_CPU_ALL		(-1)	/* cpu "all": merged over the CPUs */
#define RESULTS_MAX_RUNS	1000	/* run numbers 1..1000 */
#define RESULTS_MAX_NODES	4096	/* node numbers 0..4095 */
/* the variant of bench run's reference loop (lib/measure/ref.h) */
#define RESULTS_REFERENCE	"reference"

/* what names one series */
struct results_label {
	const char *workload;		/* short [a-z0-9_.-] name */
	const char *variant;		/* same */
	unsigned int run;		/* 1..RESULTS_MAX_RUNS or RESULTS_RUN_ALL */
	int cpu;			/* CPU number or RESULTS_CPU_ALL */
	int node;			/* its node; -1 with RESULTS_CPU_ALL */
};

struct results_series {
	char workload[64];		/* e.g. irqdesc-alloc */
	char variant[32];		/* old, new, reference, input, ... */
	unsigned int run;		/* run number, RESULTS_RUN_ALL for "all" */
	int cpu;			/* CPU number, RESULTS_CPU_ALL for "all" */
	int node;			/* its node, -1 for "all" */
	struct kstats_hist *h;		/* exact samples, unit of the set; owned */
};

struct results {
	struct meta meta;		/* "# key: value" pairs, in order */
	unsigned int frac_bits;		/* every histogram's layout */
	unsigned int n;			/* series in use */
	unsigned int cap;		/* series allocated */
	struct results_series *s;	/* [n], in the order they were added */
};

/* ---- building a set ---- */

/**
 * results_create - an empty set for histograms of @frac_bits
 * (0..KSTATS_HIST_FRAC_BITS_MAX), its metadata empty. NULL with errno
 * EINVAL or ENOMEM.
 */
struct results *results_create(unsigned int frac_bits);

/**
 * results_free - the set, its series and their histograms; NULL ok.
 */
void results_free(struct results *r);

/**
 * results_series - the series labelled @l, created empty (with its own
 * histogram) when there is none. NULL with errno ENOMEM, or EINVAL for
 * a label out of the ranges above (a name too long or empty, run or cpu
 * out of range).
 */
struct results_series *results_series(struct results *r,
				       const struct results_label *l);

/**
 * results_add_hist - merge @h into the series labelled @l (created when
 * missing). Returns 0, -EINVAL (a bad label, or @h of another layout),
 * or -ENOMEM.
 */
int results_add_hist(struct results *r, const struct results_label *l,
		     const struct kstats_hist *h);

/**
 * results_add - merge every series of @src into the one of @dst with
 * the same label (created when missing); @dst's metadata is @src's when
 * @dst had none. Returns 0, -EINVAL (layouts differ), -ENOMEM.
 */
int results_add(struct results *dst, const struct results *src);

/**
 * results_set_run - label every series of @r, a set of one run (its
 * series "all", or all of one run number), run @run. Returns 0, or
 * -EINVAL when @r holds more than one run or @run is out of range.
 */
int results_set_run(struct results *r, unsigned int run);

/**
 * results_partial - @r was interrupted: its metadata says "partial: yes"
 * (any other value, or none, is a whole run). The one reading of the key.
 */
bool results_partial(const struct results *r);

/* results_add_run() flags */
#define RESULTS_MERGED_CPUS_ONLY 0x1	/* per-CPU series go to "all" only */

/**
 * results_add_run - add @one, a set of one run, to @dst as run @run
 * (1..RESULTS_MAX_RUNS) and into @dst's merge over the runs (run
 * "all"); with RESULTS_MERGED_CPUS_ONLY, @one's per-CPU series go into
 * the merge only, so that @dst does not grow with runs x CPUs. The
 * metadata: @one's for the first run added, then the runs fold into it:
 * samples_taken and disturbed (a/b pairs) summed, partial "yes" when
 * any run's is (partial_run: that run), runs: the runs added.
 * Returns 0, -EINVAL (@one holds several runs, @run out of range or
 * used already, layouts differ), -ENOMEM.
 */
int results_add_run(struct results *dst, const struct results *one,
		    unsigned int run, unsigned int flags);

/**
 * results_merge_runs - (re)build the "all" series of every (workload,
 * variant, cpu) that has numbered runs, as the merge of those runs.
 * Returns 0 or -ENOMEM.
 */
int results_merge_runs(struct results *r);

/**
 * results_one - a new set of @s (a series of @r) alone, with a copy of
 * @r's metadata: what bench show -v VARIANT and --also FMT:VARIANT=FILE
 * print. NULL with errno ENOMEM.
 */
struct results *results_one(const struct results *r, const struct results_series *s);

/* ---- finding series ---- */

/**
 * results_find - the series labelled (@wl, @var, @run, @cpu), or NULL.
 */
struct results_series *results_find(const struct results *r, const char *wl,
				    const char *var, unsigned int run, int cpu);

/**
 * results_nr_runs - the runs of (@wl, @var): its merged-over-CPUs
 * series with a run number, or 1 when it has only the "all" one (a
 * one-run set, CSV format 1); 0 when the pair is absent.
 * results_run_hist - run @i's (0-based, in the order above) merged-over
 * CPUs histogram of (@wl, @var), or NULL.
 */
unsigned int results_nr_runs(const struct results *r, const char *wl,
			     const char *var);
const struct kstats_hist *results_run_hist(const struct results *r,
					   const char *wl, const char *var,
					   unsigned int i);

/**
 * results_max_run - the largest run number of any series (0: the set
 * holds the merge over the runs only, or one run labelled "all").
 */
unsigned int results_max_run(const struct results *r);

/**
 * results_check_runs - when @r has numbered runs, each series merged
 * over them and the CPUs (run "all", cpu "all") holds exactly its runs'
 * samples (a CPU's may hold more: RESULTS_MERGED_CPUS_ONLY), and each
 * run's series has its merge: what a file cut where a run's rows begin
 * is not.
 * Returns 0, or -EINVAL with "WORKLOAD VARIANT cpu CPU: ..." in @why.
 */
int results_check_runs(const struct results *r, char *why, size_t len);

/**
 * results_order - the indices of @r's series in the order the writers
 * print them: run "all" first, then run 1, 2, ...; within a run, the
 * order they were added. An array of r->n to free(), or NULL (ENOMEM;
 * also for an empty set, with errno 0).
 */
unsigned int *results_order(const struct results *r);

/**
 * results_u128 - "@hi * 2^64 + @lo" in decimal into @buf (40 bytes do).
 */
char *results_u128(char *buf, size_t len, uint64_t hi, uint64_t lo);

#endif /* KSB_RESULTS_H */
