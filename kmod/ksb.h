/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksb.h - what the module's files share: a run, its CPUs, the names it
 * prints, and the lock that guards the current run (ksb_core.c runs it,
 * ksb_results.c prints it).
 */
#ifndef KSB_H
#define KSB_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "ksb_hist.h"

#define KSB_DESC_SIZE		512	/* bytes of the descriptor-like object */
#define KSB_MAX_SAMPLES		(1ULL << 32)
#define KSB_DEFAULT_SAMPLES	8192	/* as in the patch's table */
#define KSB_REF_LINES		512	/* stores per reference sample, as REF_LINES */
#define KSB_NR_HISTS		3	/* the two variants, then the reference */
#define KSB_REF			2	/* the reference's index in h[] */

enum ksb_workload { KSB_SET_DEFAULTS, KSB_IRQ_ALLOC, KSB_NR_WORKLOADS };

enum ksb_state { KSB_IDLE, KSB_RUNNING, KSB_DONE, KSB_STOPPED, KSB_FAILED };

/* the names of workloads, their histograms, what they time, states */
extern const char *const ksb_wl_names[KSB_NR_WORKLOADS];
extern const char *const ksb_variants[KSB_NR_WORKLOADS][KSB_NR_HISTS];
extern const char *const ksb_what[KSB_NR_WORKLOADS][2];
extern const char *const ksb_state_names[];

/* one CPU of a run */
struct ksb_cpu {
	unsigned int cpu;		/* CPU the kthread is bound to */
	int node;			/* its node */
	u64 samples;			/* to take, per variant */
	struct ksb_hist *h[KSB_NR_HISTS]; /* per variant and the reference, ns */
	struct completion done;		/* the worker finished its samples */
	int err;			/* 0 or -errno of the failed step */
	const char *err_what;		/* that step */
	struct ksb_run *run;		/* owner */
};

/* one run: created by a write to control, freed by the next or on exit */
struct ksb_run {
	enum ksb_workload wl;		/* workload */
	u64 samples;			/* per variant, all CPUs */
	unsigned int frac_bits;		/* histogram sub-bucket bits */
	unsigned int nr_cpus;		/* CPUs in c[] */
	struct ksb_cpu *c;		/* [nr_cpus], ascending CPU numbers */
	struct ksb_hist *merged[KSB_NR_HISTS]; /* the same, merged once finished */
	char *ref;			/* KSB_REF_LINES pages: the reference's lines */
	struct task_struct *runner;	/* runs the CPUs in turn; NULL once reaped */
	enum ksb_state state;		/* written by the runner, read under ksb_lock */
	int err;			/* first worker error, -errno */
	const char *err_what;		/* what failed */
	unsigned int err_cpu;		/* where */
	atomic64_t taken;		/* samples finished, all variants */
};

extern struct mutex ksb_lock;		/* ksb_cur and starting/stopping it */
extern struct ksb_run *ksb_cur;		/* the last run, NULL before the first */

/*
 * ksb_results_create - the files "results" (every histogram, what
 * `bench kernel` parses) and "table" (the patch's table) in @dir. Each
 * read takes ksb_lock and prints ksb_cur.
 */
void ksb_results_create(struct dentry *dir);

#endif /* KSB_H */
