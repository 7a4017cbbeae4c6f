// SPDX-License-Identifier: GPL-2.0
/*
 * runset.c - a finished run's metadata and results set (see runset.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "kstats_hist.h"
#include "lib/measure/engine.h"
#include "lib/host/host.h"
#include "lib/results/meta.h"
#include "lib/measure/pcpu.h"
#include "lib/measure/runset.h"
#include "lib/results/results.h"
#include "lib/measure/topo.h"

const char *const runset_caches[] = { "kernel", "cold", "remote", NULL };

/* ---- metadata ---- */

/*
 * @key: "cpu:a/b" per worker, a and b the two figures @pair picks from
 * it ("cpu:a" alone when @one); " ..." where the metadata line is full.
 */
static void runset_per_cpu(struct meta *m, const char *key, const struct engine *e, bool one,
			   void (*pair)(const struct engine_worker_results *w, uint64_t *a,
					uint64_t *b))
{
	const unsigned int nw = engine_nr_workers(e);
	struct engine_worker_results w;
	char buf[1024] = "";
	size_t used = 0;
	unsigned int i;
	uint64_t a, b;

	for (i = 0; i < nw && used < sizeof(buf) - 48; i++) {
		engine_worker_results(e, i, &w);
		pair(&w, &a, &b);
		if (one)
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%u:%lu",
						 i ? " " : "", w.cpu, (unsigned long)a);
		else
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%u:%lu/%lu",
						 i ? " " : "", w.cpu, (unsigned long)a,
						 (unsigned long)b);
	}
	if (i < nw)
		snprintf(buf + used, sizeof(buf) - used, " ...");
	meta_set(m, key, "%s", buf);
}

static void runset_overhead_pair(const struct engine_worker_results *w, uint64_t *a, uint64_t *b)
{
	*a = w->overhead_min;
	*b = w->overhead_median;
}

static void runset_disturbed_pair(const struct engine_worker_results *w, uint64_t *a, uint64_t *b)
{
	*a = w->disturbed[WL_OLD];
	*b = w->disturbed[WL_NEW];
}

/* per-CPU timer overhead, "cpu:min/median" cycles (ns without the TSC) */
static void runset_overhead(struct meta *m, const struct engine *e)
{
	runset_per_cpu(m,
		       engine_cfg(e)->tsc->usable ? "timer_overhead_cycles" : "timer_overhead_ns",
		       e, false, runset_overhead_pair);
}

static void runset_host(struct meta *m, const struct engine *e)
{
	const struct tsc_info *t = engine_cfg(e)->tsc;

	host_meta(m);
	meta_set(m, "clock", "%s", t->usable ? "tsc" : "clock_gettime(CLOCK_MONOTONIC_RAW)");
	if (!t->usable)
		meta_set(m, "clock_fallback", "%s", t->why);
	meta_set(m, "tsc_hz", "%lu", (unsigned long)t->hz);
	meta_set(m, "tsc_hz_source", "%s", t->hz_source);
	meta_set(m, "invariant_tsc", "%s", t->invariant ? "yes" : "no");
	meta_set(m, "clocksource", "%s", t->clocksource);
}

/* per worker CPU, "cpu:old/new" ("cpu:n" for a workload of one variant) */
static void runset_disturbed_cpus(struct meta *m, const struct engine *e)
{
	runset_per_cpu(m, "disturbed_per_cpu", e, wl_nr_variants(engine_cfg(e)->wl) == 1,
		       runset_disturbed_pair);
}

/*
 * @key: "old/new" of @n, or "n" alone for a workload of one variant:
 * a pair would show a second series that does not exist.
 */
static void runset_pair(struct meta *m, const char *key, const struct engine *e,
			const uint64_t *n)
{
	if (wl_nr_variants(engine_cfg(e)->wl) == 1)
		meta_set(m, key, "%lu", (unsigned long)n[WL_OLD]);
	else
		meta_set(m, key, "%lu/%lu", (unsigned long)n[WL_OLD], (unsigned long)n[WL_NEW]);
}

static void runset_disturbed(struct meta *m, const struct engine *e,
			     const struct engine_results *res)
{
	runset_pair(m, "disturbed", e, res->disturbed);
	runset_disturbed_cpus(m, e);
	meta_set(m, "drop_disturbed", "%s", engine_cfg(e)->drop_disturbed ? "yes" : "no");
	if (engine_cfg(e)->wl->sleeps)
		meta_set(m, "disturbed_by", "%s",
			 res->irq_counted ?
			 "the CPU's /proc/interrupts column and migrations, read around each sample outside the window; not context switches: the workload sleeps by design" :
			 "migrations alone: the workload sleeps by design, and /proc/interrupts is unreadable or too slow");
	else if (res->irq_counted)
		meta_set(m, "disturbed_by", "%s",
			     "context switches (getrusage) and the CPU's /proc/interrupts column, read around each sample outside the window");
	else
		meta_set(m, "disturbed_by",
			     "context switches (getrusage) alone: /proc/interrupts unreadable or too slow (%lu us a read)",
			     (unsigned long)(res->irq_read_worst_ns / 1000));
}

/* the CPUs: possible (emulated and real), online, allowed, used; nodes */
static void runset_topo(struct meta *m, const struct topo *t)
{
	meta_set(m, "possible_cpus", "%u", t->nr_possible);
	meta_set(m, "real_possible_cpus", "%u", t->nr_real_possible);
	meta_set(m, "online_cpus", "%u", t->nr_online);
	meta_set(m, "allowed_cpus", "%u", t->nr_allowed);
	meta_set(m, "used_cpus", "%u", t->nr_workers);
	meta_set(m, "nodes", "%u", t->nr_nodes);
	meta_set(m, "numa", "%s", t->numa ? "libnuma" : "unavailable: every CPU on node 0");
}

/* the live lines packed beside the workload's per-CPU object, if it has one */
static void runset_neighbours(struct meta *m, const struct workload *wl,
			      const struct engine_results *res)
{
	if (!res->packed_bytes) {
		meta_set(m, "pcpu_neighbours", "none: %s has no per-CPU object", wl->name);
		return;
	}
	meta_set(m, "pcpu_neighbours", "%u lines of live %u-byte counters, one hole each%s",
		 res->packed_lines, res->packed_bytes,
		 res->neighbours ? "; other workers dirty their own copy between samples" : "");
}

/* "variant_old": the metadata key of a variant's description */
static const char *runset_key(char *buf, size_t len, const char *label)
{
	snprintf(buf, len, "variant_%s", label);
	return buf;
}

void runset_meta(struct meta *m, const struct runset *r,
		 const char *cmdline, const char *mlock, const char *pcpu_nodes,
		 unsigned long pcpu_unit, bool hugepages)
{
	const struct engine *e = r->e;
	const struct engine_cfg *c = engine_cfg(e);
	const unsigned int nv = wl_nr_variants(c->wl);
	struct engine_results res;
	uint64_t taken[WL_NR_VARIANTS] = { 0 };
	char key[META_KEY];
	unsigned int i;

	engine_results(e, &res);
	meta_set(m, "command", "%s", cmdline);
	meta_timestamp(m, time(NULL));
	runset_host(m, e);
	meta_set(m, "workload", "%s", c->wl->name);
	for (i = 0; i < nv; i++) {
		meta_set(m, runset_key(key, sizeof(key), c->wl->label[i]), "%s", c->wl->variant[i]);
		taken[i] = kstats_hist_total(r->merged[i]);
	}
	runset_topo(m, c->topo);
	meta_set(m, "samples_per_variant", "%lu", (unsigned long)c->samples);
	runset_pair(m, "samples_taken", e, taken);
	meta_set(m, "mode", "%s", c->parallel ? "parallel" : "serial");
	meta_set(m, "cache", "%s", runset_caches[c->cache]);
	meta_set(m, "unit", "%s", r->unit);
	meta_set(m, "frac_bits", "%u", c->frac_bits);
	meta_set(m, "end_fence", "%s", tsc_fence_names[c->fence]);
	meta_set(m, "stamps", "%s", tsc_stamps_names[c->stamps]);
	meta_set(m, "pcpu_unit", "%lu", pcpu_unit);
	if (c->pcpu) {
		char layout[160];

		pcpu_describe(c->pcpu, layout, sizeof(layout));
		meta_set(m, "pcpu_layout", "%s", layout);
		meta_set(m, "pcpu_groups", "%u", c->pcpu->nr_groups);
	}
	runset_neighbours(m, c->wl, &res);
	meta_set(m, "hugepages", "%s", hugepages ? "madvise" : "no");
	meta_set(m, "pcpu_nodes", "%s", pcpu_nodes);
	meta_set(m, "mlock", "%s", mlock);
	meta_set(m, "overhead_subtracted", "%s", c->subtract_overhead ? "yes" : "no");
	runset_overhead(m, e);
	meta_set(m, "migrations", "%lu", (unsigned long)res.migrations);
	runset_disturbed(m, e, &res);
	for (i = 0; i < r->nr_stats; i++)
		meta_set(m, r->stats[i].key, "%s", r->stats[i].val);
	if (r->ref && kstats_hist_total(r->ref)) {
		meta_set(m, "reference", "%s, timed before each %s", engine_reference(e),
			 nv == 1 ? "sample" : "old/new pair");
	}
	meta_set(m, "runs", "1");
	meta_set(m, "partial", "%s", r->partial ? "yes" : "no");
}

void runset_meta_list(struct meta *m, const struct engine *e, const char *cmdline,
		      const char *mlock, const char *unit)
{
	const struct engine_cfg *c = engine_cfg(e);

	meta_set(m, "command", "%s", cmdline);
	meta_timestamp(m, time(NULL));
	runset_host(m, e);
	runset_topo(m, c->topo);
	meta_set(m, "mode", "%s", c->parallel ? "parallel" : "serial");
	meta_set(m, "cache", "%s", runset_caches[c->cache]);
	meta_set(m, "unit", "%s", unit);
	meta_set(m, "frac_bits", "%u", c->frac_bits);
	meta_set(m, "end_fence", "%s", tsc_fence_names[c->fence]);
	meta_set(m, "stamps", "%s", tsc_stamps_names[c->stamps]);
	meta_set(m, "mlock", "%s", mlock);
	meta_set(m, "overhead_subtracted", "%s", c->subtract_overhead ? "yes" : "no");
	runset_overhead(m, e);
	meta_set(m, "drop_disturbed", "%s", c->drop_disturbed ? "yes" : "no");
}

/* ---- the results ---- */

/* every worker's histograms of @v, and their merge @merged, into @res */
static int runset_variant(struct results *res, const struct runset *r, const char *wl,
			  enum wl_variant v)
{
	struct results_label l = {
		.workload = wl, .variant = engine_cfg(r->e)->wl->label[v], .run = RESULTS_RUN_ALL,
		.cpu = RESULTS_CPU_ALL, .node = -1,
	};
	struct engine_worker_results w;
	unsigned int i;
	int ret;

	ret = results_add_hist(res, &l, r->merged[v]);
	for (i = 0; !ret && i < engine_nr_workers(r->e); i++) {
		engine_worker_results(r->e, i, &w);
		l.cpu = (int)w.cpu;
		l.node = w.node;
		ret = results_add_hist(res, &l, w.hist[v]);
	}
	return ret;
}

int runset_results(struct results *res, const struct runset *r)
{
	const char *wl = r->name ? r->name : engine_cfg(r->e)->wl->name;
	struct results_label l = {
		.workload = wl, .variant = RESULTS_REFERENCE, .run = RESULTS_RUN_ALL,
		.cpu = RESULTS_CPU_ALL, .node = -1,
	};
	unsigned int v;
	int ret = 0;

	for (v = 0; !ret && v < wl_nr_variants(engine_cfg(r->e)->wl); v++)
		ret = runset_variant(res, r, wl, v);
	/* the reference loop's samples, merged: what bench compare scales by */
	if (!ret && r->ref && kstats_hist_total(r->ref))
		ret = results_add_hist(res, &l, r->ref);
	return ret;
}
