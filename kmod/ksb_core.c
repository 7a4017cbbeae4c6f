// SPDX-License-Identifier: GPL-2.0
/*
 * ksb_core.c - the kstats-bench measurement inside a real kernel: the
 * workloads, their threads, runs and the control file; what a run
 * prints is ksb_results.c's, what both share ksb.h's. The module is
 * kstats_bench.ko (Kbuild).
 *
 * Two workloads, each run on one kthread bound to each chosen CPU, one
 * CPU after the other (serial, as `bench run`'s default mode):
 *
 *   kernel-set-defaults  desc_set_defaults() before and after "genirq:
 *	move clear of kstat_irqs to free_desc()": the old body clears the
 *	per-CPU counter of every possible CPU, the new one does not. Each
 *	sample allocates what alloc_desc() allocates (a 512-byte descriptor
 *	with kzalloc_node() on the CPU's node, a 4-byte struct irqstat with
 *	the real alloc_percpu(), the cpumasks), times one body with
 *	interrupts off (local_irq_save/restore around the sample, as the
 *	patch's author did) and frees it all, as free_desc() does. The two
 *	variants alternate ABBA.
 *   kernel-irq-alloc  the real irq_alloc_descs()/irq_free_descs() pair,
 *	the allocation and the free timed separately. They sleep, so
 *	interrupts stay on.
 *
 * Stamps are ktime_get_ns(), as kstats takes them (kstats.h: "u64 dt =
 * ktime_get_ns(); <code>; dt = ktime_get_ns() - dt"), so samples are ns
 * of the current clocksource. The histogram is kstats_hist's (ksb_hist.h).
 *
 * Before each pair of samples (old and new, or alloc and free) the worker
 * also times a reference loop, as bench run does (lib/measure/ref.h): KSB_REF_LINES
 * 4-byte stores, each on a page of its own, the lines flushed before and
 * after and the TLB before, interrupts off. Nothing the kernel under test changes is in it,
 * so it tells how fast this machine ran during each run: bench compare
 * takes that drift out of two kernels' figures ("reference" histogram).
 * Why it is needed: under qemu TCG a boot's irq_alloc_descs() moved by
 * +-20-45% with the host's load, and irq_free_descs() with it.
 *
 * Control, in /sys/kernel/debug/kstats_bench/:
 *	control	 write "workload=NAME samples=N cpus=LIST frac_bits=B"
 *		 (any subset; defaults kernel-set-defaults, 8192, every
 *		 online CPU, 2) to start a run; "stop" to stop one. -EINVAL
 *		 for anything else, -EBUSY while a run is going.
 *	results	 "kstats_bench 2", the state, the run's parameters and every
 *		 histogram (the two variants and the reference), per CPU and
 *		 merged: "hist VARIANT CPU NODE n min max", then one "slot
 *		 count sum_hi sum_lo" line per non-empty slot, the exact sum
 *		 sum_hi * 2^64 + sum_lo (what `bench kernel` parses)
 *	table	 the merged histograms as the patch's table
 * Unloading the module stops a run at the next sample and frees it all.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/irq.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#ifdef CONFIG_X86
#include <asm/cacheflush.h>
#include <asm/tlbflush.h>
#endif

#include "ksb.h"
#include "ksb_hist.h"
#include "ksb_mark.h"

/* struct irqstat of the patch's kernel: one 4-byte counter per CPU */
struct ksb_irqstat {
	unsigned int cnt;		/* interrupts on this CPU */
};

/* the fields of struct irq_desc that desc_set_defaults() stores */
struct ksb_desc {
	struct {
		unsigned int state_use_accessors; /* IRQD_* flags */
		unsigned int node;	/* home node */
		void *handler_data;	/* per-IRQ handler data */
		void *msi_desc;		/* MSI descriptor */
		cpumask_var_t affinity;	/* IRQ affinity */
	} common;			/* struct irq_common_data */
	struct {
		unsigned int irq;	/* interrupt number */
		void *common;		/* back pointer to common */
		const void *chip;	/* struct irq_chip */
		void *chip_data;	/* chip's private data */
	} data;				/* struct irq_data */
	struct ksb_irqstat __percpu *kstat_irqs; /* per-CPU counters */
	irq_flow_handler_t handle_irq;	/* flow handler */
	unsigned int status_use_accessors; /* IRQ_* settings */
	unsigned int depth;		/* nested disable depth */
	unsigned int tot_count;		/* total interrupts */
	unsigned int irq_count;		/* for the spurious detector */
	unsigned int irqs_unhandled;	/* for the spurious detector */
	cpumask_var_t pending_mask;	/* pending migration */
	const char *name;		/* flow handler name */
	struct module *owner;		/* module that owns the IRQ */
};

DEFINE_MUTEX(ksb_lock);			/* ksb_cur and starting/stopping it */
struct ksb_run *ksb_cur;		/* the last run, NULL before the first */
static struct dentry *ksb_dir;		/* /sys/kernel/debug/kstats_bench */
static cpumask_var_t ksb_default_affinity; /* irq_default_affinity: all set */

static const struct {
	const char *name;		/* stands for struct irq_chip no_irq_chip */
} ksb_no_irq_chip = { "none" };

/*
 * Read, never written, by the markers around every timed region: the
 * page offset of a marker's load is its argument, for the project's
 * QEMU plugin (ksb_mark.h). Outside the stamps, a load each.
 */
static u8 ksb_mark_page[PAGE_SIZE] __aligned(PAGE_SIZE);

#define ksb_mark_begin(wl, v) \
	KSB_MARK(ksb_mark_page, KSB_MARK_BEGIN, KSB_MARK_KMOD, KSB_MARK_ARG(wl, v))
#define ksb_mark_end(wl, v) \
	KSB_MARK(ksb_mark_page, KSB_MARK_END, KSB_MARK_KMOD, KSB_MARK_ARG(wl, v))

/* ---- kernel-set-defaults: the two bodies ---- */

/* every store of desc_set_defaults() but the clearing loop (v6.1) */
static void ksb_set_fields(unsigned int irq, struct ksb_desc *desc)
{
	desc->common.handler_data = NULL;
	desc->common.msi_desc = NULL;
	desc->data.common = &desc->common;
	desc->data.irq = irq;
	desc->data.chip = &ksb_no_irq_chip;
	desc->data.chip_data = NULL;
	desc->status_use_accessors = 0x0c00;	/* _IRQ_DEFAULT_INIT_FLAGS */
	desc->common.state_use_accessors |= 1u << 16;	/* IRQD_IRQ_DISABLED */
	desc->common.state_use_accessors |= 1u << 17;	/* IRQD_IRQ_MASKED */
	desc->handle_irq = handle_bad_irq;
	desc->depth = 1;
	desc->irq_count = 0;
	desc->irqs_unhandled = 0;
	desc->tot_count = 0;
	desc->name = NULL;
	desc->owner = THIS_MODULE;
}

/* desc_smp_init() */
static void ksb_smp_init(struct ksb_desc *desc, int node)
{
	cpumask_copy(desc->common.affinity, ksb_default_affinity);
	cpumask_clear(desc->pending_mask);
	desc->common.node = node;
}

static noinline void ksb_set_defaults_old(unsigned int irq, struct ksb_desc *desc,
					  int node)
{
	int cpu;

	ksb_set_fields(irq, desc);
	for_each_possible_cpu(cpu)
		*per_cpu_ptr(desc->kstat_irqs, cpu) = (struct ksb_irqstat) { };
	ksb_smp_init(desc, node);
}

static noinline void ksb_set_defaults_new(unsigned int irq, struct ksb_desc *desc,
					  int node)
{
	ksb_set_fields(irq, desc);
	ksb_smp_init(desc, node);
}

/* free_desc(): everything alloc_desc() took; NULL is a no-op */
static void ksb_desc_free(struct ksb_desc *desc)
{
	if (!desc)
		return;
	free_percpu(desc->kstat_irqs);
	free_cpumask_var(desc->pending_mask);
	free_cpumask_var(desc->common.affinity);
	kfree(desc);
}

/* alloc_desc(): the descriptor, its cpumasks and its per-CPU counters */
static struct ksb_desc *ksb_desc_alloc(int node)
{
	struct ksb_desc *desc = kzalloc_node(KSB_DESC_SIZE, GFP_KERNEL, node);

	if (!desc)
		return NULL;
	if (!zalloc_cpumask_var_node(&desc->common.affinity, GFP_KERNEL, node) ||
	    !zalloc_cpumask_var_node(&desc->pending_mask, GFP_KERNEL, node))
		goto fail;
	desc->kstat_irqs = alloc_percpu(struct ksb_irqstat);
	if (!desc->kstat_irqs)
		goto fail;
	return desc;
fail:
	ksb_desc_free(desc);
	return NULL;
}

/* one sample of @variant (0 old, 1 new); 0 or -ENOMEM */
static int ksb_sample_set_defaults(struct ksb_cpu *c, unsigned int variant)
{
	struct ksb_desc *desc = ksb_desc_alloc(c->node);
	unsigned long flags;
	u64 t0, t1;

	if (!desc)
		return -ENOMEM;
	local_irq_save(flags);
	ksb_mark_begin(KSB_SET_DEFAULTS, variant);
	t0 = ktime_get_ns();
	if (variant == 0)
		ksb_set_defaults_old(1, desc, c->node);
	else
		ksb_set_defaults_new(1, desc, c->node);
	t1 = ktime_get_ns();
	ksb_mark_end(KSB_SET_DEFAULTS, variant);
	local_irq_restore(flags);
	ksb_hist_record(c->h[variant], t1 - t0);
	ksb_desc_free(desc);
	return 0;
}

/* ---- the reference loop ---- */

/* write back and drop every line of the reference (a no-op off x86) */
static void ksb_ref_flush(char *line)
{
#ifdef CONFIG_X86
	unsigned int i;

	for (i = 0; i < KSB_REF_LINES; i++)
		clflush_cache_range(line + i * PAGE_SIZE, sizeof(u32));
#endif
}

/*
 * One reference sample on @c's CPU: its own line (of 64 per page) on each
 * of KSB_REF_LINES pages, stored to with interrupts off, lines and TLB
 * cold. The TLB flush is what keeps the loop blind to the workload:
 * without it, under qemu TCG, the stock kernel's reference read 23%
 * slower than the patched kernel's at 480 possible CPUs (stock's clearing
 * loop had evicted the reference's pages from qemu's software TLB), and
 * bench compare took part of the patch's effect out with the "drift".
 */
static void ksb_sample_ref(struct ksb_cpu *c)
{
	char *line = c->run->ref + (c - c->run->c) % (PAGE_SIZE / 64) * 64;
	unsigned long flags;
	unsigned int i;
	u64 t0, t1;

	ksb_ref_flush(line);
	local_irq_save(flags);
#ifdef CONFIG_X86
	__flush_tlb_all();
#endif
	ksb_mark_begin(c->run->wl, KSB_MARK_REF);
	t0 = ktime_get_ns();
	for (i = 0; i < KSB_REF_LINES; i++)
		WRITE_ONCE(*(u32 *)(line + i * PAGE_SIZE), i);
	t1 = ktime_get_ns();
	ksb_mark_end(c->run->wl, KSB_MARK_REF);
	local_irq_restore(flags);
	ksb_ref_flush(line);
	ksb_hist_record(c->h[KSB_REF], t1 - t0);
}

/* ---- kernel-irq-alloc ---- */

/* one allocation and one free, timed apart; 0 or irq_alloc_descs' error */
static int ksb_sample_irq_alloc(struct ksb_cpu *c)
{
	u64 t0, t1, t2, t3;
	int irq;

	ksb_mark_begin(KSB_IRQ_ALLOC, 0);
	t0 = ktime_get_ns();
	irq = irq_alloc_descs(-1, 1, 1, c->node);
	t1 = ktime_get_ns();
	ksb_mark_end(KSB_IRQ_ALLOC, 0);
	if (irq < 0)
		return irq;
	ksb_mark_begin(KSB_IRQ_ALLOC, 1);
	t2 = ktime_get_ns();
	irq_free_descs(irq, 1);
	t3 = ktime_get_ns();
	ksb_mark_end(KSB_IRQ_ALLOC, 1);
	ksb_hist_record(c->h[0], t1 - t0);
	ksb_hist_record(c->h[1], t3 - t2);
	return 0;
}

/* ---- the threads ---- */

/* sleep until kthread_stop(): the owner always reaps its threads */
static void ksb_wait_stop(void)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/* the kthread bound to c->cpu: its share of the samples, then wait */
static int ksb_worker(void *arg)
{
	struct ksb_cpu *c = arg;
	struct ksb_run *r = c->run;
	u64 i, n = r->wl == KSB_SET_DEFAULTS ? 2 * c->samples : c->samples;
	int ret = 0;

	for (i = 0; i < n && !kthread_should_stop(); i++) {
		/* before each pair, as bench run times its reference */
		if (r->wl != KSB_SET_DEFAULTS || !(i & 1))
			ksb_sample_ref(c);
		if (r->wl == KSB_SET_DEFAULTS) {
			/* ABBA: old new new old old new new old ... */
			ret = ksb_sample_set_defaults(c, ((i + 1) >> 1) & 1);
			if (ret)
				c->err_what = "allocating the descriptor (kzalloc_node, alloc_percpu)";
		} else {
			ret = ksb_sample_irq_alloc(c);
			if (ret)
				c->err_what = "irq_alloc_descs";
		}
		if (ret)
			break;
		atomic64_add(r->wl == KSB_SET_DEFAULTS ? 1 : 2, &r->taken);
		cond_resched();
	}
	c->err = ret;
	complete(&c->done);
	ksb_wait_stop();
	return 0;
}

/* run one CPU's worker to its end, or stop it when we are stopped */
static int ksb_run_cpu(struct ksb_cpu *c)
{
	struct task_struct *t;

	if (!cpu_online(c->cpu)) {
		c->err = -ENODEV;
		c->err_what = "the CPU went offline";
		return c->err;
	}
	t = kthread_create_on_node(ksb_worker, c, c->node, "ksb_bench/%u", c->cpu);
	if (IS_ERR(t)) {
		c->err = PTR_ERR(t);
		c->err_what = "kthread_create_on_node";
		return c->err;
	}
	kthread_bind(t, c->cpu);
	wake_up_process(t);
	while (!wait_for_completion_timeout(&c->done, HZ / 10))
		if (kthread_should_stop())
			break;
	kthread_stop(t);	/* after done, or stopping it mid-way */
	return c->err;
}

static int ksb_runner(void *arg)
{
	struct ksb_run *r = arg;
	enum ksb_state state = KSB_DONE;
	unsigned int i, v;

	for (i = 0; i < r->nr_cpus; i++) {
		if (kthread_should_stop()) {
			state = KSB_STOPPED;
			break;
		}
		if (ksb_run_cpu(&r->c[i])) {
			r->err = r->c[i].err;
			r->err_what = r->c[i].err_what;
			r->err_cpu = r->c[i].cpu;
			state = KSB_FAILED;
			break;
		}
	}
	if (state == KSB_DONE && kthread_should_stop() &&
	    atomic64_read(&r->taken) < 2 * r->samples)
		state = KSB_STOPPED;
	for (v = 0; v < KSB_NR_HISTS; v++)
		for (i = 0; i < r->nr_cpus; i++)
			ksb_hist_merge(r->merged[v], r->c[i].h[v]);
	mutex_lock(&ksb_lock);
	r->state = state;
	mutex_unlock(&ksb_lock);
	ksb_wait_stop();
	return 0;
}

/* ---- runs: create, stop, free (all under ksb_lock) ---- */

static void ksb_run_free(struct ksb_run *r)
{
	unsigned int i, v;

	if (!r)
		return;
	if (r->runner)
		kthread_stop(r->runner);
	for (v = 0; v < KSB_NR_HISTS; v++) {
		kvfree(r->merged[v]);
		for (i = 0; r->c && i < r->nr_cpus; i++)
			kvfree(r->c[i].h[v]);
	}
	vfree(r->ref);
	kfree(r->c);
	kfree(r);
}

static struct ksb_hist *ksb_hist_alloc(unsigned int frac_bits, int node)
{
	struct ksb_hist *h = kvzalloc_node(ksb_hist_size(frac_bits), GFP_KERNEL, node);

	if (h)
		ksb_hist_init(h, frac_bits);
	return h;
}

/* a run's memory for @cpus; NULL on -ENOMEM */
static struct ksb_run *ksb_run_alloc(enum ksb_workload wl, u64 samples,
				     unsigned int frac_bits, const struct cpumask *cpus)
{
	struct ksb_run *r = kzalloc(sizeof(*r), GFP_KERNEL);
	unsigned int i = 0, v, cpu;
	u32 rem;

	if (!r)
		return NULL;
	r->wl = wl;
	r->samples = samples;
	r->frac_bits = frac_bits;
	r->nr_cpus = cpumask_weight(cpus);
	atomic64_set(&r->taken, 0);
	r->c = kcalloc(r->nr_cpus, sizeof(*r->c), GFP_KERNEL);
	if (!r->c)
		goto fail;
	for (v = 0; v < KSB_NR_HISTS; v++)
		if (!(r->merged[v] = ksb_hist_alloc(frac_bits, NUMA_NO_NODE)))
			goto fail;
	r->ref = vzalloc(KSB_REF_LINES * PAGE_SIZE);
	if (!r->ref)
		goto fail;
	for_each_cpu(cpu, cpus) {
		struct ksb_cpu *c = &r->c[i];

		c->cpu = cpu;
		c->node = cpu_to_node(cpu);
		c->run = r;
		/* each CPU its share, the remainder to the first ones */
		c->samples = div_u64_rem(samples, r->nr_cpus, &rem) + (i < rem);
		init_completion(&c->done);
		for (v = 0; v < KSB_NR_HISTS; v++)
			if (!(c->h[v] = ksb_hist_alloc(frac_bits, c->node)))
				goto fail;
		i++;
	}
	return r;
fail:
	ksb_run_free(r);
	return NULL;
}

/* "stop": stop the current run, keeping what it measured */
static void ksb_stop_locked(void)
{
	struct ksb_run *r = ksb_cur;
	struct task_struct *t;

	if (!r || !r->runner || r->state != KSB_RUNNING)
		return;
	/*
	 * Ours alone to stop from here (nobody else sees it), and stopped
	 * unlocked: the runner takes ksb_lock to publish its state. The run
	 * stays RUNNING, so nobody frees it, until the runner has published.
	 */
	t = r->runner;
	r->runner = NULL;
	mutex_unlock(&ksb_lock);
	kthread_stop(t);
	mutex_lock(&ksb_lock);
}

/* ---- control ---- */

struct ksb_params {
	enum ksb_workload wl;		/* workload= */
	u64 samples;			/* samples= */
	unsigned int frac_bits;		/* frac_bits= */
	cpumask_var_t cpus;		/* cpus= */
};

/* parse "key=value ..." into @p; 0 or -EINVAL */
static int ksb_parse(char *buf, struct ksb_params *p)
{
	char *tok, *val;
	int i;

	while ((tok = strsep(&buf, " \t\n"))) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			return -EINVAL;
		*val++ = 0;
		if (!strcmp(tok, "workload")) {
			i = match_string(ksb_wl_names, KSB_NR_WORKLOADS, val);
			if (i < 0)
				return -EINVAL;
			p->wl = i;
		} else if (!strcmp(tok, "samples")) {
			if (kstrtou64(val, 10, &p->samples) || !p->samples ||
			    p->samples > KSB_MAX_SAMPLES)
				return -EINVAL;
		} else if (!strcmp(tok, "frac_bits")) {
			if (kstrtouint(val, 10, &p->frac_bits) ||
			    p->frac_bits > KSB_HIST_FRAC_BITS_MAX)
				return -EINVAL;
		} else if (!strcmp(tok, "cpus")) {
			if (cpulist_parse(val, p->cpus) || cpumask_empty(p->cpus) ||
			    !cpumask_subset(p->cpus, cpu_online_mask))
				return -EINVAL;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

static int ksb_start(char *buf)
{
	struct ksb_params p = {
		.wl = KSB_SET_DEFAULTS,
		.samples = KSB_DEFAULT_SAMPLES,
		.frac_bits = 2,
	};
	struct ksb_run *r;
	int ret;

	if (!zalloc_cpumask_var(&p.cpus, GFP_KERNEL))
		return -ENOMEM;
	cpumask_copy(p.cpus, cpu_online_mask);
	ret = ksb_parse(buf, &p);
	if (ret)
		goto out;
	if (ksb_cur && ksb_cur->state == KSB_RUNNING) {
		ret = -EBUSY;
		goto out;
	}
	ksb_run_free(ksb_cur);
	ksb_cur = NULL;
	r = ksb_run_alloc(p.wl, p.samples, p.frac_bits, p.cpus);
	if (!r) {
		ret = -ENOMEM;
		goto out;
	}
	r->state = KSB_RUNNING;
	r->runner = kthread_run(ksb_runner, r, "ksb_bench");
	if (IS_ERR(r->runner)) {
		ret = PTR_ERR(r->runner);
		r->runner = NULL;
		ksb_run_free(r);
		goto out;
	}
	ksb_cur = r;
out:
	free_cpumask_var(p.cpus);
	return ret;
}

static ssize_t ksb_control_write(struct file *file, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	char buf[256];
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	mutex_lock(&ksb_lock);
	if (!strcmp(strim(buf), "stop")) {
		ksb_stop_locked();
		ret = 0;
	} else {
		ret = ksb_start(buf);
	}
	mutex_unlock(&ksb_lock);
	return ret ? ret : len;
}

static const struct file_operations ksb_control_fops = {
	.owner = THIS_MODULE,
	.write = ksb_control_write,
	.llseek = noop_llseek,
};

/* ---- module ---- */

static int __init ksb_init(void)
{
	BUILD_BUG_ON(sizeof(struct ksb_desc) > KSB_DESC_SIZE);
	if (!alloc_cpumask_var(&ksb_default_affinity, GFP_KERNEL))
		return -ENOMEM;
	cpumask_setall(ksb_default_affinity);
	ksb_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR_OR_NULL(ksb_dir)) {
		free_cpumask_var(ksb_default_affinity);
		return ksb_dir ? PTR_ERR(ksb_dir) : -ENODEV;
	}
	debugfs_create_file("control", 0200, ksb_dir, NULL, &ksb_control_fops);
	ksb_results_create(ksb_dir);
	return 0;
}

static void __exit ksb_exit(void)
{
	/* no file is open (they hold the module), so nothing races this */
	debugfs_remove_recursive(ksb_dir);
	mutex_lock(&ksb_lock);
	ksb_stop_locked();
	ksb_run_free(ksb_cur);
	ksb_cur = NULL;
	mutex_unlock(&ksb_lock);
	free_cpumask_var(ksb_default_affinity);
}

module_init(ksb_init);
module_exit(ksb_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstats-bench: desc_set_defaults() and irq_alloc_descs() timed in the kernel");
