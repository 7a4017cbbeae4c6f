/* SPDX-License-Identifier: GPL-2.0 */
/*
 * engine.h - pinned workers that time a workload's old and new paths.
 *
 * One thread per worker CPU, pinned before it allocates anything (its
 * histograms, its descriptors: first touch puts them on its node), all
 * started together on a barrier. Each worker keeps one histogram per
 * variant; nothing is shared on the hot path. Old and new samples are
 * interleaved ABBA per worker, so that drift hits both equally. A
 * workload of one variant (wl->nr_variants 1) is timed alone: a "pair"
 * is then one sample, and its other variant has no histogram.
 *
 * --mode serial (default): one sample at a time machine-wide, CPUs
 * taking turns, because alloc_desc() runs under sparse_irq_lock.
 * --mode parallel: every worker samples at once.
 *
 * Neighbours: before the workers start, the engine packs live per-CPU
 * counters into lines with one hole each (pcpu_pack()), the size of the
 * workload's per-CPU object (wl->obj_size()), so its small per-CPU
 * objects share their line with live neighbours, as alloc_percpu()
 * packs them. In --cache kernel, serial mode, once per sample every
 * waiting worker touches (wl->obj_touch()) its own CPU's copy of a
 * neighbour of the line the last sample used (pcpu_neighbour() of the
 * object prepare() returned), as interrupts on those CPUs would, with
 * nobody waiting for it (some land inside the timed window, as other
 * CPUs' interrupts do); only while the packed lines hold a hole for
 * every worker, not for workloads that set no_remote (their own threads
 * dirty the counters), nor in parallel mode.
 *
 * Reference (cfg.reference): before each old/new pair (each sample of
 * a workload of one variant), in its turn, a worker times a fixed loop
 * of cold stores in an area of its own (ref.h), with the same stamps,
 * flushed before and after: the machine's
 * memory speed during the run, for bench compare to take drift out.
 * Before every pair; it evicts warm lines, so bench run asks for it with
 * --cache cold only (why both: docs/design.md, "The gate's reference
 * loop").
 *
 * Disturbed samples: around each sample, outside the timed window (from
 * before prepare() to after finish()), the worker reads its context
 * switch count (getrusage(RUSAGE_THREAD): ru_nvcsw + ru_nivcsw) and its
 * CPU's interrupt count (its column of /proc/interrupts, unless one read
 * costs more than ENGINE_IRQ_READ_MAX_NS: then context switches alone).
 * A sample during which either moved, or that ended on another CPU, is
 * disturbed (for a workload that sleeps by design, wl->sleeps, its own
 * switches do not count): counted per variant, and with drop_disturbed left out of
 * the histogram. The interval is wider than the window, so the count is
 * an upper bound of the samples really interrupted.
 *
 * Signals: workers run with every signal blocked for their whole life,
 * a superset of blocking around each sample (the stand-in for
 * local_irq_save()), and at no cost inside the loop; the main thread
 * alone takes SIGINT/SIGTERM and calls engine_stop().
 *
 * The engine is opaque: its configuration and its results are reached
 * through the functions below.
 *
 *	call			may run concurrently with
 *	engine_create/destroy	nothing else on the engine
 *	engine_start		nothing else on the engine
 *	engine_stop, progress	anything (main thread, signal loop)
 *	engine_running		anything
 *	engine_cfg, nr_workers	anything but engine_destroy (fixed at create)
 *	engine_join		engine_stop, engine_progress, engine_running
 *	results: engine_partial, engine_merge, engine_results,
 *	engine_worker_results, engine_error
 *				one another, once engine_join has returned
 */
#ifndef KSB_ENGINE_H
#define KSB_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/measure/workload.h"
#include "lib/measure/tsc.h"

struct engine;
struct kstats_hist;
struct topo;

struct engine_cfg {
	const struct workload *wl;	/* what to time */
	const struct topo *topo;	/* worker CPUs, nodes, possible CPUs */
	struct pcpu *pcpu;		/* the emulated per-CPU allocator; NULL: none */
	const struct tsc_info *tsc;	/* !usable: clock_gettime fallback */
	uint64_t samples;		/* per variant, over all workers */
	unsigned int frac_bits;		/* histogram layout */
	bool cycles;			/* record cycles, not ns */
	bool parallel;			/* --mode parallel */
	bool subtract_overhead;		/* subtract each CPU's median empty cost */
	enum wl_cache cache;		/* cache state before each sample */
	enum tsc_fence fence;		/* end-stamp fence */
	enum tsc_stamps stamps;		/* fenced, or kstats' bare rdtsc */
	bool drop_disturbed;		/* leave disturbed samples out of hist */
	bool reference;			/* time the reference loop too (ref.h) */
	unsigned int mark_tag;		/* plugin's window tag (ksb_mark.h), 0..1023 */
};

/* engine_merge()'s variant for the reference samples (cfg.reference) */
#define ENGINE_REFERENCE	((enum wl_variant)WL_NR_VARIANTS)

/* a finished run, over every worker (engine_results()) */
struct engine_results {
	uint64_t disturbed[WL_NR_VARIANTS]; /* samples interrupted or preempted */
	uint64_t migrations;		/* samples that ended on another CPU */
	bool irq_counted;		/* every worker read its /proc/interrupts column */
	uint64_t irq_read_worst_ns;	/* the slowest worker's one read, at setup, ns */
	unsigned int packed_lines;	/* lines of live counters pcpu_pack() filled */
	unsigned int packed_bytes;	/* the size of their holes: wl->obj_size() */
	bool neighbours;		/* workers dirtied neighbours between samples */
};

/* one worker of a finished run (engine_worker_results()) */
struct engine_worker_results {
	unsigned int cpu;		/* pinned CPU */
	int node;			/* its node */
	/*
	 * its samples, unit of the run; owned by the engine, NULL if never
	 * made (and always for a variant the workload does not time)
	 */
	const struct kstats_hist *hist[WL_NR_VARIANTS];
	uint64_t disturbed[WL_NR_VARIANTS]; /* samples interrupted or preempted */
	uint64_t overhead_min;		/* empty region: min, cycles (ns without TSC) */
	uint64_t overhead_median;	/* empty region: median, same unit */
};

/* one /proc/interrupts read slower than this: count context switches only */
#define ENGINE_IRQ_READ_MAX_NS	200000

/**
 * engine_create - workers for every CPU of @cfg->topo. Allocates no
 * per-worker memory yet (the workers do, once pinned).
 * Returns the engine or NULL (errno ENOMEM, EINVAL for remote cache in
 * parallel mode).
 */
struct engine *engine_create(const struct engine_cfg *cfg);

/**
 * engine_start - create the pinned worker threads. Call with every
 * signal blocked: the workers inherit the mask.
 * Returns 0 or -errno of pthread_create (-EAGAIN under ulimit -u); on an
 * error the threads already made are stopped and joined.
 */
int engine_start(struct engine *e);

/**
 * engine_stop - ask the workers to stop at the next sample boundary.
 */
void engine_stop(struct engine *e);

/**
 * engine_running - true until every worker is done sampling.
 */
bool engine_running(struct engine *e);

/**
 * engine_progress - samples taken so far, every variant, all workers.
 */
uint64_t engine_progress(struct engine *e);

/**
 * engine_join - wait for every worker. Returns 0, or the first failed
 * worker's -errno (engine_error() says which and what failed).
 */
int engine_join(struct engine *e);

/**
 * engine_cfg - the configuration, as copied at engine_create(); valid
 * until engine_destroy().
 */
const struct engine_cfg *engine_cfg(const struct engine *e);

/**
 * engine_nr_workers - how many worker threads (fixed at engine_create()).
 */
unsigned int engine_nr_workers(const struct engine *e);

/**
 * engine_error - after engine_join(): the first failed worker, the one
 * whose -errno engine_join() returned. Returns what it was doing (e.g.
 * "setting up the workload") and stores its CPU in @cpu; NULL when no
 * worker failed (@cpu untouched).
 */
const char *engine_error(const struct engine *e, unsigned int *cpu);

/**
 * engine_why - engine_join()'s @err as one line into @buf: "worker on
 * CPU 3: setting up the workload: Cannot allocate memory". Returns @buf.
 */
char *engine_why(const struct engine *e, int err, char *buf, size_t len);

/**
 * engine_results - after engine_join(): the run's totals over every
 * worker into @r: disturbed samples, migrations, whether interrupts were
 * counted, and the per-CPU neighbours the engine packed.
 */
void engine_results(const struct engine *e, struct engine_results *r);

/**
 * engine_worker_results - after engine_join(): worker @i's figures into
 * @r, for @i below engine_nr_workers(); workers in the order of the
 * topology's worker CPUs. @r->hist stay valid until engine_destroy().
 */
void engine_worker_results(const struct engine *e, unsigned int i,
			   struct engine_worker_results *r);

/**
 * engine_partial - after engine_join(): true when fewer samples were
 * taken than asked for, of any variant the workload times.
 */
bool engine_partial(const struct engine *e);

/**
 * engine_reference - what the reference loop is (ref_describe()), or
 * NULL when the run has none. Any time before engine_destroy().
 */
const char *engine_reference(const struct engine *e);

/**
 * engine_merge - after engine_join(): add every worker's @v histogram
 * (ENGINE_REFERENCE: its reference samples; none without cfg.reference)
 * into @dst. Returns 0 or -EINVAL (layouts differ).
 */
int engine_merge(const struct engine *e, enum wl_variant v,
		 struct kstats_hist *dst);

/**
 * engine_destroy - free the workers' histograms and the engine; NULL ok.
 */
void engine_destroy(struct engine *e);

#endif /* KSB_ENGINE_H */
