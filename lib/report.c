// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - tables, SUMMARY and CSV of a finished run (see report.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "../kstats_hist.h"
#include "csv.h"
#include "engine.h"
#include "json.h"
#include "pcpu.h"
#include "report.h"
#include "topo.h"

const char *const report_formats[] = { "table", "kstats", "csv", "bars", "json", NULL };
const char *const report_caches[] = { "kernel", "cold", "remote", NULL };
const char *const report_variants[] = { "old", "new", NULL };

/* ---- metadata ---- */

static void report_cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256], *p;

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) || !(p = strchr(line, ':')))
			continue;
		p += 1 + strspn(p + 1, " \t");
		p[strcspn(p, "\n")] = 0;
		snprintf(buf, len, "%s", p);
		break;
	}
	fclose(f);
}

/*
 * @key: "cpu:a/b" per worker, a and b the two figures @pair picks from
 * it; " ..." where the metadata line is full.
 */
static void report_per_cpu(struct csv_meta *m, const char *key, const struct engine *e,
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
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%u:%lu/%lu",
					 i ? " " : "", w.cpu, (unsigned long)a, (unsigned long)b);
	}
	if (i < nw)
		snprintf(buf + used, sizeof(buf) - used, " ...");
	csv_meta_set(m, key, "%s", buf);
}

static void report_overhead_pair(const struct engine_worker_results *w, uint64_t *a, uint64_t *b)
{
	*a = w->overhead_min;
	*b = w->overhead_median;
}

static void report_disturbed_pair(const struct engine_worker_results *w, uint64_t *a, uint64_t *b)
{
	*a = w->disturbed[WL_OLD];
	*b = w->disturbed[WL_NEW];
}

/* per-CPU timer overhead, "cpu:min/median" cycles (ns without the TSC) */
static void report_overhead(struct csv_meta *m, const struct engine *e)
{
	report_per_cpu(m,
		       engine_cfg(e)->tsc->usable ? "timer_overhead_cycles" : "timer_overhead_ns",
		       e, report_overhead_pair);
}

static void report_host(struct csv_meta *m, const struct engine *e)
{
	const struct tsc_info *t = engine_cfg(e)->tsc;
	struct utsname u;
	char model[128];

	uname(&u);
	report_cpu_model(model, sizeof(model));
	csv_meta_set(m, "host", "%s", u.nodename);
	csv_meta_set(m, "kernel", "%s %s", u.release, u.machine);
	csv_meta_set(m, "cpu_model", "%s", model);
	csv_meta_set(m, "clock", "%s", t->usable ? "tsc" : "clock_gettime(CLOCK_MONOTONIC_RAW)");
	if (!t->usable)
		csv_meta_set(m, "clock_fallback", "%s", t->why);
	csv_meta_set(m, "tsc_hz", "%lu", (unsigned long)t->hz);
	csv_meta_set(m, "tsc_hz_source", "%s", t->hz_source);
	csv_meta_set(m, "invariant_tsc", "%s", t->invariant ? "yes" : "no");
	csv_meta_set(m, "clocksource", "%s", t->clocksource);
}

/* per worker CPU, "cpu:old/new" */
static void report_disturbed_cpus(struct csv_meta *m, const struct engine *e)
{
	report_per_cpu(m, "disturbed_per_cpu", e, report_disturbed_pair);
}

static void report_disturbed(struct csv_meta *m, const struct engine *e,
			     const struct engine_results *res)
{
	const uint64_t *n = res->disturbed;

	csv_meta_set(m, "disturbed", "%lu/%lu", (unsigned long)n[WL_OLD], (unsigned long)n[WL_NEW]);
	report_disturbed_cpus(m, e);
	csv_meta_set(m, "drop_disturbed", "%s", engine_cfg(e)->drop_disturbed ? "yes" : "no");
	if (res->irq_counted)
		csv_meta_set(m, "disturbed_by", "%s",
			     "context switches (getrusage) and the CPU's /proc/interrupts column, read around each sample outside the window");
	else
		csv_meta_set(m, "disturbed_by",
			     "context switches (getrusage) alone: /proc/interrupts unreadable or too slow (%lu us a read)",
			     (unsigned long)(res->irq_read_worst_ns / 1000));
}

void report_meta(struct csv_meta *m, const struct report_run *r,
		 const char *cmdline, const char *mlock, const char *pcpu_nodes,
		 unsigned long pcpu_unit, bool hugepages)
{
	const struct engine *e = r->e;
	const struct engine_cfg *c = engine_cfg(e);
	const struct topo *t = c->topo;
	struct engine_results res;
	unsigned int i;

	engine_results(e, &res);
	csv_meta_set(m, "command", "%s", cmdline);
	report_host(m, e);
	csv_meta_set(m, "workload", "%s", c->wl->name);
	csv_meta_set(m, "variant_old", "%s", c->wl->variant[WL_OLD]);
	csv_meta_set(m, "variant_new", "%s", c->wl->variant[WL_NEW]);
	csv_meta_set(m, "possible_cpus", "%u", t->nr_possible);
	csv_meta_set(m, "real_possible_cpus", "%u", t->nr_real_possible);
	csv_meta_set(m, "online_cpus", "%u", t->nr_online);
	csv_meta_set(m, "allowed_cpus", "%u", t->nr_allowed);
	csv_meta_set(m, "used_cpus", "%u", t->nr_workers);
	csv_meta_set(m, "nodes", "%u", t->nr_nodes);
	csv_meta_set(m, "numa", "%s", t->numa ? "libnuma" : "unavailable: every CPU on node 0");
	csv_meta_set(m, "samples_per_variant", "%lu", (unsigned long)c->samples);
	csv_meta_set(m, "samples_taken", "%lu/%lu",
		     (unsigned long)kstats_hist_total(r->merged[WL_OLD]),
		     (unsigned long)kstats_hist_total(r->merged[WL_NEW]));
	csv_meta_set(m, "mode", "%s", c->parallel ? "parallel" : "serial");
	csv_meta_set(m, "cache", "%s", report_caches[c->cache]);
	csv_meta_set(m, "unit", "%s", r->unit);
	csv_meta_set(m, "frac_bits", "%u", c->frac_bits);
	csv_meta_set(m, "end_fence", "%s", tsc_fence_names[c->fence]);
	csv_meta_set(m, "irqstat_bytes", "%u", c->irqstat_size);
	csv_meta_set(m, "stamps", "%s", tsc_stamps_names[c->stamps]);
	csv_meta_set(m, "pcpu_unit", "%lu", pcpu_unit);
	if (c->pcpu) {
		char layout[160];

		pcpu_describe(c->pcpu, layout, sizeof(layout));
		csv_meta_set(m, "pcpu_layout", "%s", layout);
		csv_meta_set(m, "pcpu_groups", "%u", c->pcpu->nr_groups);
	}
	csv_meta_set(m, "pcpu_neighbours", "%u lines of live 4-byte counters, one hole each%s",
		     res.packed_lines,
		     res.neighbours ? "; other workers dirty their own copy between samples" : "");
	csv_meta_set(m, "hugepages", "%s", hugepages ? "madvise" : "no");
	csv_meta_set(m, "pcpu_nodes", "%s", pcpu_nodes);
	csv_meta_set(m, "mlock", "%s", mlock);
	csv_meta_set(m, "overhead_subtracted", "%s", c->subtract_overhead ? "yes" : "no");
	report_overhead(m, e);
	csv_meta_set(m, "migrations", "%lu", (unsigned long)res.migrations);
	report_disturbed(m, e, &res);
	for (i = 0; i < r->nr_stats; i++)
		csv_meta_set(m, r->stats[i].key, "%s", r->stats[i].val);
	if (r->ref && kstats_hist_total(r->ref)) {
		csv_meta_set(m, "reference", "%s, timed before each old/new pair",
			     engine_reference(e));
	}
	csv_meta_set(m, "runs", "1");
	csv_meta_set(m, "partial", "%s", r->partial ? "yes" : "no");
}

/* ---- printers ---- */


int report_summary(FILE *f, const struct report_run *r)
{
	const struct engine_cfg *c = engine_cfg(r->e);
	struct engine_results res;

	engine_results(r->e, &res);
	return report_summary_line(f, c->wl->name, r->unit,
				   (const struct kstats_hist *const *)r->merged, res.disturbed,
				   engine_nr_workers(r->e), c->topo->nr_possible, r->partial);
}

int report_summary_line(FILE *f, const char *wl, const char *unit,
			const struct kstats_hist *const *merged,
			const uint64_t *disturbed, unsigned int cpus,
			unsigned int possible, bool partial)
{
	const struct kstats_hist *o = merged[WL_OLD], *n = merged[WL_NEW];
	double nm = kstats_hist_mean(n);
	unsigned int v;

	fprintf(f, "SUMMARY workload=%s unit=%s", wl, unit);
	for (v = 0; v < WL_NR_VARIANTS; v++) {
		const struct kstats_hist *h = merged[v];

		fprintf(f, " %s_p50=%lu %s_p99=%lu %s_max=%lu %s_mean=%.1f",
			report_variants[v], (unsigned long)kstats_hist_value_at_percentile(h, 50),
			report_variants[v], (unsigned long)kstats_hist_value_at_percentile(h, 99),
			report_variants[v], (unsigned long)kstats_hist_max(h),
			report_variants[v], kstats_hist_mean(h));
	}
	fprintf(f, " ratio=%.2f samples=%lu/%lu disturbed=%lu/%lu cpus=%u possible=%u partial=%s\n",
		nm > 0 ? kstats_hist_mean(o) / nm : 0.0,
		(unsigned long)kstats_hist_total(o), (unsigned long)kstats_hist_total(n),
		(unsigned long)disturbed[WL_OLD], (unsigned long)disturbed[WL_NEW],
		cpus, possible, partial ? "yes" : "no");
	return ferror(f) ? -EIO : 0;
}

static void report_title(FILE *f, const struct report_run *r, enum wl_variant v)
{
	const struct engine_cfg *c = engine_cfg(r->e);

	fprintf(f, "# %s %s: %s\n# %lu samples on %u CPUs, %u possible, cache %s, mode %s, %s\n",
		c->wl->name, report_variants[v], c->wl->variant[v],
		(unsigned long)kstats_hist_total(r->merged[v]), engine_nr_workers(r->e),
		c->topo->nr_possible, report_caches[c->cache],
		c->parallel ? "parallel" : "serial", r->unit);
}

static int report_kstats(FILE *f, const struct report_run *r)
{
	const struct engine *e = r->e;
	const unsigned int nw = engine_nr_workers(e);
	struct engine_worker_results w;
	unsigned int v, i;

	for (v = 0; v < WL_NR_VARIANTS; v++) {
		fprintf(f, "# %s %s\n", engine_cfg(e)->wl->name, report_variants[v]);
		for (i = 0; i < nw; i++) {
			engine_worker_results(e, i, &w);
			kstats_hist_print_kstats(w.hist[v], f, (int)w.cpu, 0);
		}
		kstats_hist_print_kstats(r->merged[v], f, -1, nw);
	}
	return ferror(f) ? -EIO : 0;
}

int report_csv(FILE *f, const struct report_run *r, const struct csv_meta *m)
{
	const struct engine *e = r->e;
	const char *wl = engine_cfg(e)->wl->name;
	struct engine_worker_results w;
	unsigned int v, i;

	csv_write_header(f, m);
	for (v = 0; v < WL_NR_VARIANTS; v++) {
		csv_write_hist(f, wl, report_variants[v], CSV_RUN_ALL, -1, -1, r->merged[v]);
		for (i = 0; i < engine_nr_workers(e); i++) {
			engine_worker_results(e, i, &w);
			csv_write_hist(f, wl, report_variants[v], CSV_RUN_ALL, (int)w.cpu, w.node,
				       w.hist[v]);
		}
	}
	/* the reference loop's samples, merged: what bench compare scales by */
	if (r->ref && kstats_hist_total(r->ref))
		csv_write_hist(f, wl, REPORT_REFERENCE, CSV_RUN_ALL, -1, -1, r->ref);
	return ferror(f) ? -EIO : 0;
}

int report_json(FILE *f, const struct report_run *r, const struct csv_meta *m)
{
	const struct engine *e = r->e;
	struct json_series s = {
		.workload = engine_cfg(e)->wl->name, .cpu = -1, .node = -1, .unit = r->unit,
		.run = "all",
	};
	struct engine_worker_results w;
	struct json j;
	unsigned int v, i;

	json_init(&j, f);
	json_doc_begin(&j, m);
	json_array_begin(&j, "histograms");
	for (v = 0; v < WL_NR_VARIANTS; v++) {
		s.variant = report_variants[v];
		s.cpu = -1;
		s.node = -1;
		json_write_hist(&j, &s, r->merged[v]);
		for (i = 0; i < engine_nr_workers(e); i++) {
			engine_worker_results(e, i, &w);
			s.cpu = (int)w.cpu;
			s.node = w.node;
			json_write_hist(&j, &s, w.hist[v]);
		}
	}
	/* as in the CSV: the reference loop's samples, merged */
	if (r->ref && kstats_hist_total(r->ref)) {
		s.variant = REPORT_REFERENCE;
		s.cpu = -1;
		s.node = -1;
		json_write_hist(&j, &s, r->ref);
	}
	json_array_end(&j);
	return json_doc_end(&j) ? -EIO : 0;
}

int report_print(FILE *f, enum report_format fmt, const struct report_run *r,
		 const struct csv_meta *m)
{
	unsigned int v;

	if (fmt == REPORT_CSV)
		return report_csv(f, r, m);
	if (fmt == REPORT_JSON)
		return report_json(f, r, m);
	if (fmt == REPORT_KSTATS)
		return report_kstats(f, r);
	for (v = 0; v < WL_NR_VARIANTS; v++) {
		report_title(f, r, v);
		if (fmt == REPORT_BARS)
			kstats_hist_print_bars(r->merged[v], f);
		else
			kstats_hist_print_table(r->merged[v], f);
		fputc('\n', f);
	}
	return report_summary(f, r);
}
