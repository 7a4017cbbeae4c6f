// SPDX-License-Identifier: GPL-2.0
/*
 * engine_results.c - what a finished run holds (engine.h), once
 * engine_join() has returned.
 */
#include <stdio.h>
#include <string.h>

#include "kstats_hist.h"
#include "lib/measure/engine_int.h"

const char *engine_error(const struct engine *e, unsigned int *cpu)
{
	unsigned int i;

	for (i = 0; i < e->nr_workers; i++)
		if (e->w[i].err) {
			*cpu = e->w[i].cpu;
			return e->w[i].err_what;
		}
	return NULL;
}

char *engine_why(const struct engine *e, int err, char *buf, size_t len)
{
	unsigned int cpu = 0;
	const char *what = engine_error(e, &cpu);

	snprintf(buf, len, "worker on CPU %u: %s: %s", cpu, what ? what : "running",
		 strerror(-err));
	return buf;
}

void engine_results(const struct engine *e, struct engine_results *r)
{
	const struct engine_worker *w;
	unsigned int i, v;

	memset(r, 0, sizeof(*r));
	r->irq_counted = e->nr_workers > 0;
	for (i = 0; i < e->nr_workers; i++) {
		w = &e->w[i];
		for (v = 0; v < WL_NR_VARIANTS; v++)
			r->disturbed[v] += w->disturbed[v];
		r->migrations += w->migrations;
		r->irq_counted = r->irq_counted && disturb_irq_counts(&w->irq);
		if (w->irq.read_ns > r->irq_read_worst_ns)
			r->irq_read_worst_ns = w->irq.read_ns;
	}
	r->packed_lines = e->packed_lines;
	r->packed_bytes = e->packed_bytes;
	r->neighbours = e->neighbours;
}

void engine_worker_results(const struct engine *e, unsigned int i,
			   struct engine_worker_results *r)
{
	const struct engine_worker *w = &e->w[i];
	unsigned int v;

	r->cpu = w->cpu;
	r->node = w->node;
	for (v = 0; v < WL_NR_VARIANTS; v++) {
		r->hist[v] = w->hist[v];
		r->disturbed[v] = w->disturbed[v];
	}
	r->overhead_min = w->overhead_min;
	r->overhead_median = w->overhead_median;
}

bool engine_partial(const struct engine *e)
{
	uint64_t n[WL_NR_VARIANTS] = { 0 };
	unsigned int i, v, nv = wl_nr_variants(e->cfg.wl);

	for (i = 0; i < e->nr_workers; i++)
		for (v = 0; v < nv; v++)
			n[v] += e->w[i].done[v];
	return n[WL_OLD] < e->cfg.samples || (nv > 1 && n[WL_NEW] < e->cfg.samples);
}

int engine_merge(const struct engine *e, enum wl_variant v,
		 struct kstats_hist *dst)
{
	unsigned int i;
	int ret;

	for (i = 0; i < e->nr_workers; i++) {
		const struct kstats_hist *h = v == ENGINE_REFERENCE ? e->w[i].ref_hist :
					      e->w[i].hist[v];

		if (!h)
			continue;
		ret = kstats_hist_merge(dst, h);
		if (ret)
			return ret;
	}
	return 0;
}
