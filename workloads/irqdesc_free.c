// SPDX-License-Identifier: GPL-2.0
/*
 * irqdesc_free.c - free_desc() on a non-sparse kernel, which recycles a
 * static descriptor: the patch moves the clearing loop here rather than
 * removing it, so old and new must cost the same.
 *
 * old: lock; desc_set_defaults() with the loop; unlock
 * new: lock; desc_set_defaults() without it; unlock; the loop
 *      (as merged, commit fb11a2493e68: the loop runs after the locked
 *      section)
 * The descriptor and its kstat_irqs live for the whole run, as the
 * static irq_desc[] array does.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/measure/pcpu.h"
#include "irqdesc.h"

struct idf {
	struct irq_desc *desc;		/* the recycled static descriptor */
	unsigned int irq;		/* its irq number */
	enum wl_cache cache;		/* cache state to set up */
};

static int idf_setup(const struct wl_env *env, void **priv)
{
	struct idf *f = calloc(1, sizeof(*f));

	if (!f)
		return -ENOMEM;
	f->desc = irqdesc_alloc(env);
	if (f->desc)
		f->desc->kstat_irqs = pcpu_alloc(env->pcpu, f->desc->irqstat_size,
						 f->desc->irqstat_size);
	if (!f->desc || !f->desc->kstat_irqs) {
		irqdesc_free(f->desc);
		free(f);
		return -ENOMEM;
	}
	f->desc->irq_common_data.node = (unsigned int)env->node[env->cpu];
	f->cache = env->cache;
	f->irq = 32 + env->cpu;
	*priv = f;
	return 0;
}

static int idf_prepare(void *priv, enum wl_variant v, void **obj)
{
	struct idf *f = priv;

	(void)v;
	if (f->cache == WL_CACHE_COLD)
		irqdesc_flush(f->desc);
	*obj = f->desc->kstat_irqs;
	return 0;
}

static void idf_old(void *priv)
{
	struct idf *f = priv;

	pthread_spin_lock(&f->desc->lock);
	irqdesc_set_defaults_old(f->irq, f->desc);
	pthread_spin_unlock(&f->desc->lock);
}

static void idf_new(void *priv)
{
	struct idf *f = priv;

	pthread_spin_lock(&f->desc->lock);
	irqdesc_set_defaults_new(f->irq, f->desc);
	pthread_spin_unlock(&f->desc->lock);
	irqdesc_clear_kstat(f->desc);
}

static void idf_finish(void *priv, enum wl_variant v)
{
	(void)priv;
	(void)v;
}

static void idf_teardown(void *priv)
{
	struct idf *f = priv;

	pcpu_free(f->desc->pcpu, f->desc->kstat_irqs, f->desc->irqstat_size);
	irqdesc_free(f->desc);
	free(f);
}

const struct workload wl_irqdesc_free = {
	.name = "irqdesc-free",
	.summary = "free_desc() recycling a static descriptor (non-sparse IRQs): old = new",
	.label = IRQDESC_LABELS,
	.variant = {
		"free_desc(): desc_set_defaults() with the clear inside",
		"free_desc(): desc_set_defaults() under the lock, then the clear",
	},
	.setup = idf_setup,
	.prepare = idf_prepare,
	.sample = { idf_old, idf_new },
	.finish = idf_finish,
	.teardown = idf_teardown,
	.stats = irqdesc_stats,
	.options = irqdesc_option_tables,
	.obj_size = irqdesc_irqstat_size,
	.obj_touch = irqdesc_touch,
};
