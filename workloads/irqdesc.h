/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqdesc.h - kernel/irq/irqdesc.c in userspace: struct irq_desc with the
 * fields desc_set_defaults() writes, and desc_set_defaults() before and
 * after "genirq: move clear of kstat_irqs to free_desc()".
 *
 * Shared by the irqdesc-* workloads. An irqdesc belongs to one worker;
 * nothing here locks except the descriptor's own lock in free_desc().
 */
#ifndef KSB_IRQDESC_H
#define KSB_IRQDESC_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/subcmd/options.h"
#include "lib/measure/workload.h"

/* struct irqstat: cnt, plus ref with CONFIG_GENERIC_IRQ_STAT_SNAPSHOT */
struct irqstat {
	unsigned int cnt;		/* interrupts on this CPU */
};

struct irqstat_snap {
	unsigned int cnt;		/* interrupts on this CPU */
	unsigned int ref;		/* snapshot of cnt */
};

struct irq_common_data {
	unsigned int state_use_accessors;	/* IRQD_* flags */
	unsigned int node;		/* NUMA node of the descriptor */
	void *handler_data;		/* per-IRQ data for the handler */
	void *msi_desc;			/* MSI descriptor */
	unsigned long *affinity;	/* cpumask_var_t, off-stack */
	unsigned long *effective_affinity; /* cpumask_var_t, off-stack */
};

struct irq_data {
	uint32_t mask;			/* precomputed bitmask */
	unsigned int irq;		/* interrupt number */
	unsigned long hwirq;		/* hardware interrupt number */
	struct irq_common_data *common;	/* back to irq_common_data */
	const void *chip;		/* struct irq_chip * */
	void *domain;			/* struct irq_domain * */
	void *parent_data;		/* hierarchy */
	void *chip_data;		/* chip private data */
};

/*
 * The kernel's struct irq_desc is ~256-512 B depending on the config and
 * cache-line aligned; the fields below are the ones desc_set_defaults()
 * and free_desc() touch, padded to 512 B so that the descriptor spans the
 * same number of lines.
 */
struct irq_desc {
	struct irq_common_data irq_common_data;	/* first, as in the kernel */
	struct irq_data irq_data;	/* chip, irq, ... */
	void *kstat_irqs;		/* struct irqstat __percpu * */
	void (*handle_irq)(struct irq_desc *desc); /* flow handler */
	void *action;			/* struct irqaction * list */
	unsigned int status_use_accessors; /* _IRQ_* settings */
	unsigned int depth;		/* nested irq disables */
	unsigned int wake_depth;	/* nested wake enables */
	unsigned int tot_count;		/* stats for non-percpu handlers */
	unsigned int irq_count;		/* for detecting broken IRQs */
	unsigned int irqs_unhandled;	/* spurious interrupts */
	unsigned long last_unhandled;	/* jiffies of the last one */
	pthread_spinlock_t lock;	/* raw_spinlock_t lock */
	unsigned long *pending_mask;	/* cpumask_var_t, pending rebalance */
	const char *name;		/* flow handler name for /proc */
	void *owner;			/* struct module * */
	unsigned int irqstat_size;	/* emulation: 4 or 8 (snapshot) */
	unsigned int nr_possible;	/* emulation: nr possible CPUs */
	struct pcpu *pcpu;		/* emulation: the per-CPU allocator */
} __attribute__((aligned(64)));

#define IRQDESC_SIZE	512		/* bytes allocated per descriptor */
_Static_assert(sizeof(struct irq_desc) <= IRQDESC_SIZE,
	       "the emulated irq_desc fits the kernel's 512 B");

/*
 * irqdesc_alloc - kzalloc_node() a descriptor and its cpumasks on this
 * CPU's node (we run pinned, so first touch places them), for @nr_possible
 * CPUs. Returns the descriptor or NULL (errno ENOMEM).
 */
struct irq_desc *irqdesc_alloc(const struct wl_env *env);

/* irqdesc_free - free what irqdesc_alloc() returned; NULL is a no-op. */
void irqdesc_free(struct irq_desc *desc);

/* irqdesc_zero - zero the descriptor and its masks again, as kzalloc does. */
void irqdesc_zero(struct irq_desc *desc);

/* desc_set_defaults() before the patch: field stores + the clearing loop. */
void irqdesc_set_defaults_old(unsigned int irq, struct irq_desc *desc);

/* desc_set_defaults() after the patch: field stores only. */
void irqdesc_set_defaults_new(unsigned int irq, struct irq_desc *desc);

/* The loop the patch moves: zero struct irqstat on every possible CPU. */
void irqdesc_clear_kstat(struct irq_desc *desc);

/* irqdesc_flush - clflush every line desc_set_defaults() touches. */
void irqdesc_flush(const struct irq_desc *desc);

/* ---- what every irqdesc-* workload declares (lib/measure/workload.h) ---- */

/* their variants' names: before and after the patch */
#define IRQDESC_LABELS		{ "old", "new" }

/* --irqstat-snapshot, one table the irqdesc-* workloads share */
extern const struct opt irqdesc_options[];
/* the option tables of irqdesc-alloc and irqdesc-free: that one alone */
extern const struct opt *const irqdesc_option_tables[];

/*
 * irqdesc_irqstat_size - sizeof(struct irqstat) in this run: 4, or 8
 * with --irqstat-snapshot; also each workload's obj_size().
 */
unsigned int irqdesc_irqstat_size(void);

/* irqdesc_touch - obj_touch(): kstat_incr_irqs_this_cpu() on @cnt, one CPU's */
void irqdesc_touch(void *cnt);

/*
 * irqdesc_stats - the metadata every irqdesc-* workload adds
 * (irqstat_bytes) into @st (@max entries); returns how many, *@err 0.
 */
unsigned int irqdesc_stats(struct wl_stat *st, unsigned int max, int *err);

#endif /* KSB_IRQDESC_H */
