// SPDX-License-Identifier: GPL-2.0
/*
 * irqdesc.c - desc_set_defaults() before and after the patch, faithful to
 * kernel/irq/irqdesc.c so that the cost comes from the same stores.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/subcmd/options.h"
#include "lib/measure/pcpu.h"
#include "lib/measure/topo.h"
#include "irqdesc.h"

/* x86 defines no ARCH_IRQ_INIT_FLAGS, so _IRQ_DEFAULT_INIT_FLAGS is 0 */
#define IRQ_DEFAULT_INIT_FLAGS	0u
/* 6.10 IRQF_MODIFY_MASK: IRQ_TYPE_SENSE_MASK and bits 8-20 */
#define IRQF_MODIFY_MASK	0x1fff0fu
#define IRQD_IRQ_DISABLED	(1u << 16)
#define IRQD_IRQ_MASKED		(1u << 17)

static const char no_irq_chip[64];	/* stands for struct irq_chip no_irq_chip */

static void handle_bad_irq(struct irq_desc *desc)
{
	(void)desc;
}

/* ---- allocation ---- */

static size_t irqdesc_mask_bytes(unsigned int nr_possible)
{
	/* cpumask_size(): BITS_TO_LONGS(nr_cpu_ids) longs */
	return (nr_possible + 63) / 64 * sizeof(unsigned long);
}

static unsigned long *irqdesc_mask(unsigned int nr_possible)
{
	size_t n = (irqdesc_mask_bytes(nr_possible) + 63) & ~(size_t)63;
	unsigned long *m = aligned_alloc(64, n);

	if (m)
		memset(m, 0, n);
	return m;
}

struct irq_desc *irqdesc_alloc(const struct wl_env *env)
{
	struct irq_desc *desc = aligned_alloc(64, IRQDESC_SIZE);

	if (!desc)
		return NULL;
	memset(desc, 0, IRQDESC_SIZE);
	desc->irq_common_data.affinity = irqdesc_mask(env->nr_possible);
	desc->irq_common_data.effective_affinity = irqdesc_mask(env->nr_possible);
	desc->pending_mask = irqdesc_mask(env->nr_possible);
	if (!desc->irq_common_data.affinity || !desc->pending_mask ||
	    !desc->irq_common_data.effective_affinity) {
		irqdesc_free(desc);
		errno = ENOMEM;
		return NULL;
	}
	desc->nr_possible = env->nr_possible;
	desc->irqstat_size = irqdesc_irqstat_size();
	desc->pcpu = env->pcpu;
	pthread_spin_init(&desc->lock, PTHREAD_PROCESS_PRIVATE);
	return desc;
}

void irqdesc_free(struct irq_desc *desc)
{
	if (!desc)
		return;
	free(desc->irq_common_data.affinity);
	free(desc->irq_common_data.effective_affinity);
	free(desc->pending_mask);
	free(desc);
}

void irqdesc_zero(struct irq_desc *desc)
{
	size_t n = irqdesc_mask_bytes(desc->nr_possible);
	struct irq_desc keep = *desc;

	/* kzalloc_node() and zalloc_cpumask_var_node(), keeping our own */
	memset(desc, 0, IRQDESC_SIZE);
	desc->irq_common_data.affinity = keep.irq_common_data.affinity;
	desc->irq_common_data.effective_affinity =
		keep.irq_common_data.effective_affinity;
	desc->pending_mask = keep.pending_mask;
	desc->irqstat_size = keep.irqstat_size;
	desc->nr_possible = keep.nr_possible;
	desc->pcpu = keep.pcpu;
	pthread_spin_init(&desc->lock, PTHREAD_PROCESS_PRIVATE);
	memset(desc->irq_common_data.affinity, 0, n);
	memset(desc->irq_common_data.effective_affinity, 0, n);
	memset(desc->pending_mask, 0, n);
}

/* ---- desc_set_defaults() ---- */

/* default_affinity: irq_default_affinity, every possible CPU */
static unsigned long default_affinity[NR_CPUS_MAX / 64] = {
	[0 ... NR_CPUS_MAX / 64 - 1] = ~0ul,
};

/* desc_smp_init(), in its order: affinity copied, pending mask cleared, node */
static void desc_smp_init(struct irq_desc *desc, int node)
{
	size_t n = irqdesc_mask_bytes(desc->nr_possible);

	memcpy(desc->irq_common_data.affinity, default_affinity, n);
	memset(desc->pending_mask, 0, n);
	desc->irq_common_data.node = (unsigned int)node;
}

/* irq_settings_clr_and_set(): two read-modify-writes under the mask */
static void irq_settings_clr_and_set(struct irq_desc *desc, unsigned int clr,
				     unsigned int set)
{
	desc->status_use_accessors &= ~(clr & IRQF_MODIFY_MASK);
	desc->status_use_accessors |= set & IRQF_MODIFY_MASK;
}

/* every store of desc_set_defaults() but the clearing loop */
static void desc_set_fields(unsigned int irq, struct irq_desc *desc)
{
	desc->irq_common_data.handler_data = NULL;
	desc->irq_common_data.msi_desc = NULL;

	desc->irq_data.common = &desc->irq_common_data;
	desc->irq_data.irq = irq;
	desc->irq_data.chip = no_irq_chip;
	desc->irq_data.chip_data = NULL;
	irq_settings_clr_and_set(desc, ~0u, IRQ_DEFAULT_INIT_FLAGS);
	/* irqd_set(): read-modify-writes */
	desc->irq_common_data.state_use_accessors |= IRQD_IRQ_DISABLED;
	desc->irq_common_data.state_use_accessors |= IRQD_IRQ_MASKED;
	desc->handle_irq = handle_bad_irq;
	desc->depth = 1;
	desc->irq_count = 0;
	desc->irqs_unhandled = 0;
	desc->tot_count = 0;
	desc->name = NULL;
	desc->owner = NULL;
}

/*
 * for_each_possible_cpu(cpu)
 *	*per_cpu_ptr(desc->kstat_irqs, cpu) = (struct irqstat) { };
 * The width of the store follows CONFIG_GENERIC_IRQ_STAT_SNAPSHOT.
 */
void irqdesc_clear_kstat(struct irq_desc *desc)
{
	unsigned int cpu;

	if (desc->irqstat_size == sizeof(struct irqstat_snap)) {
		for (cpu = 0; cpu < desc->nr_possible; cpu++)
			*(struct irqstat_snap *)pcpu_ptr(desc->pcpu, desc->kstat_irqs, cpu) =
				(struct irqstat_snap){ 0 };
		return;
	}
	for (cpu = 0; cpu < desc->nr_possible; cpu++)
		*(struct irqstat *)pcpu_ptr(desc->pcpu, desc->kstat_irqs, cpu) =
			(struct irqstat){ 0 };
}

void irqdesc_set_defaults_old(unsigned int irq, struct irq_desc *desc)
{
	desc_set_fields(irq, desc);
	irqdesc_clear_kstat(desc);
	desc_smp_init(desc, (int)desc->irq_common_data.node);
}

void irqdesc_set_defaults_new(unsigned int irq, struct irq_desc *desc)
{
	desc_set_fields(irq, desc);
	desc_smp_init(desc, (int)desc->irq_common_data.node);
}

/* ---- cache state ---- */

static void irqdesc_clflush(const void *p, size_t len)
{
	const char *c = (const char *)((uintptr_t)p & ~(uintptr_t)63);

	for (; c < (const char *)p + len; c += 64)
		asm volatile("clflush %0" : : "m"(*c) : "memory");
}

void irqdesc_flush(const struct irq_desc *desc)
{
	size_t n = irqdesc_mask_bytes(desc->nr_possible);
	unsigned int cpu;

	irqdesc_clflush(desc, IRQDESC_SIZE);
	irqdesc_clflush(desc->irq_common_data.affinity, n);
	irqdesc_clflush(desc->pending_mask, n);
	for (cpu = 0; cpu < desc->nr_possible; cpu++)
		irqdesc_clflush(pcpu_ptr(desc->pcpu, desc->kstat_irqs, cpu),
				desc->irqstat_size);
	irqdesc_clflush(default_affinity, n);
	asm volatile("mfence" : : : "memory");
}

/* ---- the workload contract's irqdesc part ---- */

static bool irqdesc_snapshot;		/* --irqstat-snapshot */

const struct opt irqdesc_options[] = {
	OPT_GROUP("irqdesc-alloc, irqdesc-free, irqdesc-sparse:"),
	OPT_FLAG(0, "irqstat-snapshot", &irqdesc_snapshot,
		 "8-byte struct irqstat\n"
		 "(CONFIG_GENERIC_IRQ_STAT_SNAPSHOT)"),
	OPT_END()
};

const struct opt *const irqdesc_option_tables[] = { irqdesc_options, NULL };

unsigned int irqdesc_irqstat_size(void)
{
	return irqdesc_snapshot ? sizeof(struct irqstat_snap) : sizeof(struct irqstat);
}

void irqdesc_touch(void *cnt)
{
	/* this_cpu_inc(desc->kstat_irqs->cnt): cnt opens both layouts */
	(*(volatile unsigned int *)cnt)++;
}

unsigned int irqdesc_stats(struct wl_stat *st, unsigned int max, int *err)
{
	*err = 0;
	if (!max)
		return 0;
	st[0].key = "irqstat_bytes";
	snprintf(st[0].val, sizeof(st[0].val), "%u", irqdesc_irqstat_size());
	return 1;
}
