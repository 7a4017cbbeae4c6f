/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - the interface between the engine and what it times: the
 * plug-in side. The engine (lib/) knows only this; the list of workloads
 * is workloads/registry.h, which only the command that picks one includes.
 *
 * A workload is a table entry: `bench list` prints the registry, and
 * `bench run -w NAME` picks one. The engine calls, on each worker thread
 * (already pinned, so every allocation is node-local):
 *
 *	setup(env, &priv)			once, untimed
 *	for each sample, variant v = old or new, interleaved
 *	(old alone for a workload of one variant, nr_variants 1):
 *		prepare(priv, v, &obj)		untimed: allocate, set cache state
 *		[engine: --cache remote has the other workers dirty obj]
 *		t0; sample[v](priv); t1		timed, signals blocked
 *		finish(priv, v)			untimed: free
 *	teardown(priv)				once
 *
 * prepare() returns 0 or -errno, and in *obj the per-CPU object whose
 * lines other CPUs should dirty for --cache remote (a struct irqstat
 * __percpu *), or NULL. A prepare() error ends the worker's run.
 *
 * What is the workload's own stays in it: the names of its variants in
 * the results (label[]), its options and their values (an irqdesc-*
 * workload's --irqstat-snapshot), and its per-CPU object: how large it
 * is, so that the engine packs live neighbours of that size beside it,
 * and what an interrupt does to one CPU's copy (obj_touch()), which the
 * engine's other workers do for --cache remote and between samples.
 * Workload instances are per worker: no callback runs concurrently with
 * another on the same priv. The shared pcpu allocator locks itself.
 */
#ifndef KSB_WORKLOAD_H
#define KSB_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

struct opt;
struct pcpu;

enum wl_variant {
	WL_OLD,			/* before the patch */
	WL_NEW,			/* after the patch */
	WL_NR_VARIANTS,
};

enum wl_cache {
	WL_CACHE_KERNEL,	/* as the allocator's zeroing left the lines */
	WL_CACHE_COLD,		/* every line the region touches flushed */
	WL_CACHE_REMOTE,	/* each CPU's counter dirty in its own cache */
};

struct wl_env {
	struct pcpu *pcpu;		/* the emulated per-CPU allocator */
	const int *node;		/* [nr_possible] node of each CPU */
	unsigned int nr_possible;	/* possible CPUs, real or emulated */
	unsigned int cpu;		/* the CPU this worker is pinned to */
	enum wl_cache cache;		/* cache state before each sample */
	const unsigned int *worker_cpu;	/* [nr_workers] every worker's CPU */
	unsigned int nr_workers;	/* workers in the run */
};

/* one "key: value" a workload adds to the run's metadata */
struct wl_stat {
	const char *key;		/* [a-z0-9_]+ */
	char val[160];			/* one line */
};

struct workload {
	const char *name;		/* `bench run -w NAME` */
	const char *summary;		/* one line for `bench list` */
	const char *label[WL_NR_VARIANTS];	/* the variants' names in the results: "old", "new" */
	const char *variant[WL_NR_VARIANTS];	/* what each variant times, one line */
	int (*setup)(const struct wl_env *env, void **priv); /* 0 or -errno */
	int (*prepare)(void *priv, enum wl_variant v, void **obj);
	void (*sample[WL_NR_VARIANTS])(void *priv);
	void (*finish)(void *priv, enum wl_variant v);
	void (*teardown)(void *priv);
	/*
	 * stats (optional), once every worker has torn down: fills up to
	 * @max entries and returns how many; *@err gets -EIO when the
	 * workload's own correctness check failed, else 0.
	 */
	unsigned int (*stats)(struct wl_stat *st, unsigned int max, int *err);
	/*
	 * options (optional): a NULL-terminated list of option tables
	 * (lib/subcmd/options.h), each opened by a group heading, for `bench run`
	 * to parse and list in --help; workloads may share a table (the
	 * irqdesc-* ones share --irqstat-snapshot's); the values stay in
	 * the workload.
	 */
	const struct opt *const *options;
	/*
	 * check (optional), before anything is set up: the options against
	 * the run's @nr_possible CPUs; 0, or -EINVAL with one line in @why
	 * (bad input, exit 2), or another -errno with one line that names
	 * what the environment refused and the fix (exit 3).
	 */
	int (*check)(unsigned int nr_possible, char *why, size_t len);
	/* nr_live (optional): objects live at once besides one per worker (default 64) */
	unsigned int (*nr_live)(void);
	/*
	 * The per-CPU object prepare() returns (optional; without them the
	 * engine packs and dirties nothing): obj_size() its bytes in each
	 * CPU's unit, 4 or 8, the size of the holes of the live lines the
	 * engine packs; obj_touch(@p) what an interrupt on a CPU does to
	 * that CPU's copy @p (irqdesc: kstat_incr_irqs_this_cpu(), cnt++),
	 * from another thread than the sample's, outside its window.
	 */
	unsigned int (*obj_size)(void);
	void (*obj_touch)(void *p);
	bool no_remote;			/* --cache remote makes no sense here */
	/*
	 * nr_variants (optional): 1 for a workload that times one thing:
	 * label[0], variant[0] and sample[0] only, one series in the
	 * results, no pair; 0 (the default) is old and new.
	 */
	unsigned int nr_variants;
	/*
	 * real_kernel: it times an entry point of the running kernel, so
	 * what it pays per possible CPU is the kernel's real nr_cpu_ids:
	 * the engine gets no emulated per-CPU area (env->pcpu NULL), and
	 * bench run refuses --possible-cpus and any --cache but kernel
	 * (user space can neither flush nor dirty the kernel's lines).
	 */
	bool real_kernel;
	/*
	 * sleeps: the timed call switches away by design (fork-exit waits
	 * for its child): its samples count as disturbed by the CPU's
	 * interrupts and by migrations, not by its own context switches.
	 */
	bool sleeps;
	/*
	 * input (optional): the file the workload reads (file-read's
	 * --path), or NULL: bench run refuses a -o that would replace it.
	 */
	const char *(*input)(void);
};

/**
 * wl_nr_variants - the variants @w times: 1, or WL_NR_VARIANTS (old, new).
 */
static inline unsigned int wl_nr_variants(const struct workload *w)
{
	return w->nr_variants == 1 ? 1 : WL_NR_VARIANTS;
}

#endif /* KSB_WORKLOAD_H */
