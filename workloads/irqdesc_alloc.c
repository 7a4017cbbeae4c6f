// SPDX-License-Identifier: GPL-2.0
/*
 * irqdesc_alloc.c - alloc_desc() on a CONFIG_SPARSE_IRQ kernel.
 *
 * Per sample, untimed: kzalloc the descriptor, alloc_percpu() its
 * kstat_irqs (zeroed in every possible CPU's unit), set the cache state.
 * Timed: desc_set_defaults() - old with the clearing loop the patch
 * removes, new without. Untimed after: free_percpu().
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/measure/pcpu.h"
#include "irqdesc.h"

struct ida {
	struct irq_desc *desc;		/* reused: kzalloc'd again per sample */
	unsigned int irq;		/* irq number handed to set_defaults */
	enum wl_cache cache;		/* cache state to set up */
	int node;			/* this worker's node */
};

static int ida_setup(const struct wl_env *env, void **priv)
{
	struct ida *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	a->desc = irqdesc_alloc(env);
	if (!a->desc) {
		free(a);
		return -ENOMEM;
	}
	a->cache = env->cache;
	a->node = env->node[env->cpu];
	a->irq = 32 + env->cpu;
	*priv = a;
	return 0;
}

static int ida_prepare(void *priv, enum wl_variant v, void **obj)
{
	struct ida *a = priv;
	struct irq_desc *desc = a->desc;

	(void)v;
	irqdesc_zero(desc);
	desc->irq_common_data.node = (unsigned int)a->node;
	desc->kstat_irqs = pcpu_alloc(desc->pcpu, desc->irqstat_size,
				      desc->irqstat_size);
	if (!desc->kstat_irqs)
		return -errno;
	if (a->cache == WL_CACHE_COLD)
		irqdesc_flush(desc);
	*obj = desc->kstat_irqs;
	return 0;
}

static void ida_old(void *priv)
{
	struct ida *a = priv;

	irqdesc_set_defaults_old(a->irq, a->desc);
}

static void ida_new(void *priv)
{
	struct ida *a = priv;

	irqdesc_set_defaults_new(a->irq, a->desc);
}

static void ida_finish(void *priv, enum wl_variant v)
{
	struct ida *a = priv;

	(void)v;
	pcpu_free(a->desc->pcpu, a->desc->kstat_irqs, a->desc->irqstat_size);
	a->desc->kstat_irqs = NULL;
}

static void ida_teardown(void *priv)
{
	struct ida *a = priv;

	irqdesc_free(a->desc);
	free(a);
}

const struct workload wl_irqdesc_alloc = {
	.name = "irqdesc-alloc",
	.summary = "desc_set_defaults() in alloc_desc() (sparse IRQs): the patch's saving",
	.label = IRQDESC_LABELS,
	.variant = {
		"desc_set_defaults() with the for_each_possible_cpu kstat_irqs clear",
		"desc_set_defaults() without it (alloc_percpu memory is already zero)",
	},
	.setup = ida_setup,
	.prepare = ida_prepare,
	.sample = { ida_old, ida_new },
	.finish = ida_finish,
	.teardown = ida_teardown,
	.stats = irqdesc_stats,
	.options = irqdesc_option_tables,
	.obj_size = irqdesc_irqstat_size,
	.obj_touch = irqdesc_touch,
};
