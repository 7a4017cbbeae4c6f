/* SPDX-License-Identifier: GPL-2.0 */
/*
 * engine.h - pinned workers that time a workload's old and new paths.
 *
 * One thread per worker CPU, pinned before it allocates anything (its
 * histograms, its descriptors: first touch puts them on its node), all
 * started together on a barrier. Each worker keeps one histogram per
 * variant; nothing is shared on the hot path. Old and new samples are
 * interleaved ABBA per worker, so that drift hits both equally.
 *
 * --mode serial (default): one sample at a time machine-wide, CPUs
 * taking turns, because alloc_desc() runs under sparse_irq_lock.
 * --mode parallel: every worker samples at once.
 *
 * Neighbours: before the workers start, the engine packs live per-CPU
 * counters into lines with one hole each (pcpu_pack()), so a workload's
 * small per-CPU objects share their line with live neighbours, as
 * alloc_percpu() packs them. In --cache kernel, serial mode, once per
 * sample every waiting worker increments its own CPU's copy of a
 * neighbour of the line the last sample used (pcpu_neighbour() of the
 * object prepare() returned), as interrupts on those CPUs would, with
 * nobody waiting for it (some land inside the timed window, as other
 * CPUs' interrupts do); only while the packed lines hold a hole for
 * every worker, not for workloads that set no_remote (their own threads
 * dirty the counters), nor in parallel mode.
 *
 * Disturbed samples: around each sample, outside the timed window (from
 * before prepare() to after finish()), the worker reads its context
 * switch count (getrusage(RUSAGE_THREAD): ru_nvcsw + ru_nivcsw) and its
 * CPU's interrupt count (its column of /proc/interrupts, unless one read
 * costs more than ENGINE_IRQ_READ_MAX_NS: then context switches alone).
 * A sample during which either moved, or that ended on another CPU, is
 * disturbed: counted per variant, and with drop_disturbed left out of
 * the histogram. The interval is wider than the window, so the count is
 * an upper bound of the samples really interrupted.
 *
 * Signals: workers run with every signal blocked for their whole life,
 * a superset of blocking around each sample (the stand-in for
 * local_irq_save()), and at no cost inside the loop; the main thread
 * alone takes SIGINT/SIGTERM and calls engine_stop().
 *
 *	call			may run concurrently with
 *	engine_create/destroy	nothing else on the engine
 *	engine_start		nothing else on the engine
 *	engine_stop, progress	anything (main thread, signal loop)
 *	engine_join		engine_stop, engine_progress
 *	results (w[], merge)	only after engine_join
 */
#ifndef KSB_ENGINE_H
#define KSB_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "workload.h"
#include "tsc.h"

struct kstats_hist;
struct topo;

struct engine_cfg {
	const struct workload *wl;	/* what to time */
	const struct topo *topo;	/* worker CPUs, nodes, possible CPUs */
	struct pcpu *pcpu;		/* the emulated per-CPU allocator */
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
	unsigned int irqstat_size;	/* 4, or 8 with --irqstat-snapshot */
};

struct engine_worker {
	unsigned int idx;		/* position among the workers */
	unsigned int cpu;		/* pinned CPU */
	int node;			/* its node */
	struct engine *e;		/* back pointer */
	pthread_t thread;		/* the worker thread */
	bool started;			/* thread created */
	struct kstats_hist *hist[WL_NR_VARIANTS]; /* samples, unit of the run */
	uint64_t done[WL_NR_VARIANTS];	/* samples taken per variant */
	/*
	 * samples so far, both variants: stored by this worker alone, read
	 * by engine_progress(). Per worker, so that no line is shared by
	 * every worker on every sample (--mode parallel on a big host).
	 */
	atomic_uint_fast64_t progress;
	uint64_t migrations;		/* samples that ended on another CPU */
	uint64_t disturbed[WL_NR_VARIANTS]; /* samples interrupted or preempted */
	int irq_fd;			/* /proc/interrupts, or -1: not counted */
	int irq_col;			/* our CPU's column in it */
	char *irq_buf;			/* read buffer */
	size_t irq_len;			/* its size, bytes */
	uint64_t irq_read_ns;		/* one read's cost, at setup, ns */
	uint64_t overhead_min;		/* empty region: min, cycles (ns without TSC) */
	uint64_t overhead_median;	/* empty region: median, same unit */
	bool aux_ok;			/* TSC_AUX names our CPU: check per sample */
	uint64_t dirty_seen;		/* remote: last request served */
	uint64_t nb_turn;		/* kernel: turn whose neighbour we dirtied */
	int err;			/* -errno if the worker failed */
	const char *err_what;		/* what failed */
};

struct engine {
	struct engine_cfg cfg;		/* copied at create */
	unsigned int nr_workers;	/* threads */
	struct engine_worker *w;	/* [nr_workers] */
	pthread_mutex_t gate_lock;	/* protects ready and gate */
	pthread_cond_t gate_cond;	/* signals ready and gate changes */
	unsigned int ready;		/* workers waiting at the gate */
	int gate;			/* 0 closed, 1 go, -1 abort */
	pthread_barrier_t start;	/* every worker set up, then go */
	atomic_bool failed;		/* a worker failed: everyone leaves */
	atomic_bool stop;		/* engine_stop() was called */
	/* each shared word on its own line: waiters spin on them */
	_Alignas(64) atomic_uint_fast64_t turn;	/* serial: next global sample */
	atomic_uint finished;		/* workers done sampling */
	_Alignas(64) atomic_uint_fast64_t dirty_gen; /* remote: request number */
	void *_Atomic dirty_obj;	/* remote: per-CPU object to dirty */
	atomic_uint dirty_acks;		/* remote: workers that did */
	void *_Atomic last_obj;		/* kernel: the last sample's object */
	bool neighbours;		/* kernel, serial: dirty neighbours */
	unsigned int packed_lines;	/* lines pcpu_pack() filled */
};

/* one /proc/interrupts read slower than this: count context switches only */
#define ENGINE_IRQ_READ_MAX_NS	200000

/*
 * engine_create - workers for every CPU of @cfg->topo. Allocates no
 * per-worker memory yet (the workers do, once pinned).
 * Returns the engine or NULL (errno ENOMEM, EINVAL for remote cache in
 * parallel mode).
 */
struct engine *engine_create(const struct engine_cfg *cfg);

/*
 * engine_start - create the pinned worker threads. Call with every
 * signal blocked: the workers inherit the mask.
 * Returns 0 or -errno of pthread_create (-EAGAIN under ulimit -u); on an
 * error the threads already made are stopped and joined.
 */
int engine_start(struct engine *e);

/* engine_stop - ask the workers to stop at the next sample boundary. */
void engine_stop(struct engine *e);

/* engine_running - true until every worker is done sampling. */
bool engine_running(struct engine *e);

/* engine_progress - samples taken so far, both variants, all workers. */
uint64_t engine_progress(struct engine *e);

/*
 * engine_join - wait for every worker. Returns 0, or the first worker's
 * -errno (that worker's err_what says what failed).
 */
int engine_join(struct engine *e);

/* engine_partial - true when fewer samples were taken than asked for. */
bool engine_partial(const struct engine *e);

/*
 * engine_merge - add every worker's @v histogram into @dst.
 * Returns 0 or -EINVAL (layouts differ).
 */
int engine_merge(const struct engine *e, enum wl_variant v,
		 struct kstats_hist *dst);

/* engine_destroy - free the workers' histograms and the engine; NULL ok. */
void engine_destroy(struct engine *e);

#endif /* KSB_ENGINE_H */
