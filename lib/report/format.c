// SPDX-License-Identifier: GPL-2.0
/*
 * format.c - the writers of a results set, one per output format, and
 * their table (see format.h).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_hist.h"
#include "lib/results/busy.h"
#include "lib/stats/compare.h"
#include "lib/results/counted.h"
#include "lib/results/csv.h"
#include "lib/results/fileset.h"
#include "lib/report/format.h"
#include "lib/results/json.h"
#include "lib/report/kcidb.h"
#include "lib/results/results.h"

#define FORMAT_MAX_VARIANTS	16	/* merged series of one workload */

/* ---- what the writers share ---- */

/* metadata @key of @r, or @dflt */
static const char *fmt_meta(const struct results *r, const char *key, const char *dflt)
{
	const char *v = meta_get(&r->meta, key);

	return v ? v : dflt;
}

/* the merged series (run all, cpu all) of the set, reference aside */
static bool fmt_primary(const struct results_series *s)
{
	return s->run == RESULTS_RUN_ALL && s->cpu == RESULTS_CPU_ALL &&
	       strcmp(s->variant, RESULTS_REFERENCE);
}

/* the primary series of workload @wl, in order; how many (at most @max) */
static unsigned int fmt_variants(const struct results *r, const char *wl,
				 const struct results_series **v, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->n && n < max; i++)
		if (fmt_primary(&r->s[i]) && !strcmp(r->s[i].workload, wl))
			v[n++] = &r->s[i];
	return n;
}

/* the first series of each workload (@i is one): true for its first */
static bool fmt_first_of_workload(const struct results *r, unsigned int i)
{
	unsigned int k;

	if (!fmt_primary(&r->s[i]))
		return false;
	for (k = 0; k < i; k++)
		if (fmt_primary(&r->s[k]) && !strcmp(r->s[k].workload, r->s[i].workload))
			return false;
	return true;
}

/* the CPUs a merged series merged: used_cpus, else per-CPU series, else 1 */
static unsigned int fmt_nr_cpus(const struct results *r, const struct results_series *m)
{
	const char *used = meta_get(&r->meta, "used_cpus");
	unsigned int i, n = 0;

	if (used && atoi(used) > 0)
		return (unsigned int)atoi(used);
	for (i = 0; i < r->n; i++)
		n += r->s[i].run == m->run && r->s[i].cpu >= 0 &&
		     !strcmp(r->s[i].variant, m->variant) && !strcmp(r->s[i].workload, m->workload);
	return n ? n : 1;
}

/* ---- table and bars ---- */

static void fmt_title(FILE *f, const struct results *r, const struct results_series *s)
{
	char key[48], runs[48] = "";
	unsigned int nr = results_max_run(r);

	snprintf(key, sizeof(key), "variant_%s", s->variant);
	/* the plugin's alloc.l1d, alloc.loads: alloc's words */
	if (!meta_get(&r->meta, key) && strchr(key, '.'))
		*strchr(key, '.') = 0;
	if (nr > 1)
		snprintf(runs, sizeof(runs), " over %u runs", nr);
	fprintf(f, "# %s %s: %s\n# %lu samples%s on %s CPUs, %s possible, ", s->workload,
		s->variant, fmt_meta(r, key, "?"), (unsigned long)kstats_hist_total(s->h), runs,
		fmt_meta(r, "used_cpus", "?"), fmt_meta(r, "possible_cpus", "?"));
	if (!strcmp(fmt_meta(r, "source", ""), "kernel"))
		fprintf(f, "in-kernel, %s, irqs %s\n", fmt_meta(r, "clock", "?"),
			strncmp(fmt_meta(r, "irqs", ""), "off", 3) ? "on" : "off");
	else if (!strcmp(fmt_meta(r, "source", ""), "plugin"))
		fprintf(f, "counted by the plugin in the marked windows (%s), %s\n",
			fmt_meta(r, "plugin_figure", "?"), fileset_unit(r));
	else if (!strcmp(fmt_meta(r, "source", ""), "trace"))
		fprintf(f, "traced by %s, %s s, %s\n", fmt_meta(r, "probe", "?"),
			fmt_meta(r, "duration_s", "?"), fileset_unit(r));
	else
		fprintf(f, "cache %s, mode %s, %s\n", fmt_meta(r, "cache", "?"),
			fmt_meta(r, "mode", "?"), fileset_unit(r));
	/* kstats' table below says ns, byte for byte: here, what they are */
	if (counted_unit(fileset_unit(r)))
		fprintf(f, "# %s: %s: its \"ns\" are %s, not time\n", fileset_unit(r),
			counted_what(fileset_unit(r)), counted_noun(fileset_unit(r)));
}

/* run @run's 10% trimmed mean of (@wl, @var), and its samples; 0 if none */
static double fmt_tm10(const struct results *r, const char *wl, const char *var,
		       unsigned int run, uint64_t *n)
{
	const struct results_series *s = results_find(r, wl, var, run, RESULTS_CPU_ALL);

	if (n)
		*n = s ? kstats_hist_total(s->h) : 0;
	return s ? cmp_trimmed_mean(s->h, 0.10) : 0;
}

/*
 * each run's 10% trimmed mean per variant, what bench compare tests,
 * and the reference loop's (the machine's speed in that run), if timed
 */
static void fmt_runs(FILE *f, const struct results *r, const char *wl)
{
	const struct results_series *v[FORMAT_MAX_VARIANTS];
	unsigned int nv = fmt_variants(r, wl, v, FORMAT_MAX_VARIANTS), k, i;
	unsigned int nr = results_max_run(r);
	double lo[FORMAT_MAX_VARIANTS], hi[FORMAT_MAX_VARIANTS], x;
	bool ref = results_find(r, wl, RESULTS_REFERENCE, 1, RESULTS_CPU_ALL);
	uint64_t n;

	fprintf(f, "# per run: the 10%% trimmed mean, the figure bench compare tests\n%-5s", "run");
	for (i = 0; i < nv; i++)
		fprintf(f, " %12s_tm10 %14s_samples", v[i]->variant, v[i]->variant);
	fprintf(f, "%s\n", ref ? "     reference_tm10" : "");
	for (k = 1; k <= nr; k++) {
		fprintf(f, "%-5u", k);
		for (i = 0; i < nv; i++) {
			x = fmt_tm10(r, wl, v[i]->variant, k, &n);
			lo[i] = k > 1 ? fmin(lo[i], x) : x;
			hi[i] = k > 1 ? fmax(hi[i], x) : x;
			fprintf(f, " %17.1f %22lu", x, (unsigned long)n);
		}
		if (ref)
			fprintf(f, " %18.1f", fmt_tm10(r, wl, RESULTS_REFERENCE, k, NULL));
		fputc('\n', f);
	}
	fprintf(f, "# spread over the runs (max / min - 1):");
	for (i = 0; i < nv; i++)
		fprintf(f, " %s %.1f%%", v[i]->variant, lo[i] > 0 ? (hi[i] / lo[i] - 1) * 100 : 0);
	fputc('\n', f);
}

/*
 * the first variant's mean over the second's into *@ratio: true when the
 * set has one. A ratio compares an old path with a new one: a trace's
 * two series are a call and the gap after it, and a workload of one
 * series (syscall-null, file-read) has nothing to divide by.
 */
static bool fmt_ratio(const struct results *r, const struct results_series *const *v,
		      unsigned int nv, double *ratio)
{
	double m1 = nv > 1 ? kstats_hist_mean(v[1]->h) : 0;

	if (nv < 2 || !strcmp(fmt_meta(r, "source", ""), "trace"))
		return false;
	*ratio = m1 > 0 ? kstats_hist_mean(v[0]->h) / m1 : 0.0;
	return true;
}

int format_summary(FILE *f, const struct results *r, const char *wl)
{
	const struct results_series *v[FORMAT_MAX_VARIANTS];
	unsigned int nv = fmt_variants(r, wl, v, FORMAT_MAX_VARIANTS), i;
	const char *disturbed = meta_get(&r->meta, "disturbed");
	double ratio;

	fprintf(f, "SUMMARY %sworkload=%s unit=%s",
		!strcmp(fmt_meta(r, "source", ""), "kernel") ? "source=kernel " :
		!strcmp(fmt_meta(r, "source", ""), "trace") ? "source=trace " : "", wl,
		fileset_unit(r));
	for (i = 0; i < nv; i++) {
		const struct kstats_hist *h = v[i]->h;
		const char *n = v[i]->variant;

		fprintf(f, " %s_p50=%lu %s_p99=%lu %s_max=%lu %s_mean=%.1f",
			n, (unsigned long)kstats_hist_value_at_percentile(h, 50),
			n, (unsigned long)kstats_hist_value_at_percentile(h, 99),
			n, (unsigned long)kstats_hist_max(h), n, kstats_hist_mean(h));
	}
	if (fmt_ratio(r, v, nv, &ratio))
		fprintf(f, " ratio=%.2f", ratio);
	fprintf(f, " samples=");
	for (i = 0; i < nv; i++)
		fprintf(f, "%s%lu", i ? "/" : "", (unsigned long)kstats_hist_total(v[i]->h));
	if (disturbed)
		fprintf(f, " disturbed=%s", disturbed);
	fprintf(f, " cpus=%s possible=%s partial=%s\n", fmt_meta(r, "used_cpus", "?"),
		fmt_meta(r, "possible_cpus", "?"), fmt_meta(r, "partial", "no"));
	return report_status(f);
}

/*
 * the last line: how many of the file's runs (boots, for bench vm's) the
 * host's cpu pressure disturbed, by lib/results/busy.h's rule; none when
 * no PSI figure was recorded
 */
static void fmt_busy(FILE *f, const struct results *r)
{
	struct busy_count bc = { 0 };
	char line[128];

	if (busy_count(r, &bc))
		return;
	busy_line(&bc, meta_get(&r->meta, "vm_boots") ? "boots" : "runs", line, sizeof(line));
	fprintf(f, "%s\n", line);
}

/* json's count of the same runs, "runs_disturbed": { "file": ... }, when recorded */
static void fmt_busy_json(struct json *j, const struct results *r)
{
	static const char *const name[1] = { "file" };
	struct busy_count bc = { 0 };

	if (!busy_count(r, &bc))
		fileset_busy_json(j, &bc, name, 1);
}

/* the report of table and bars; @bars picks the printer */
static int fmt_report(FILE *f, const struct results *r, bool bars)
{
	int (*print)(const struct kstats_hist *, FILE *) =
		bars ? kstats_hist_print_bars : kstats_hist_print_table;
	unsigned int i, k;

	if (r->n == 1)
		return print(r->s[0].h, f);
	for (i = 0; i < r->n; i++) {
		if (!fmt_first_of_workload(r, i))
			continue;
		for (k = i; k < r->n; k++) {
			if (!fmt_primary(&r->s[k]) || strcmp(r->s[k].workload, r->s[i].workload))
				continue;
			fmt_title(f, r, &r->s[k]);
			print(r->s[k].h, f);
			fputc('\n', f);
		}
		if (results_max_run(r) > 1)
			fmt_runs(f, r, r->s[i].workload);
		format_summary(f, r, r->s[i].workload);
	}
	fmt_busy(f, r);
	return report_status(f);
}

static int fmt_table(FILE *f, const struct results *r)
{
	return fmt_report(f, r, false);
}

static int fmt_bars(FILE *f, const struct results *r)
{
	return fmt_report(f, r, true);
}

/* ---- summary ---- */

/*
 * workload @wl's SUMMARY as a small table: the samples and CPUs, per
 * variant p50, p99, max and mean, and the speedup when there is a ratio
 */
static void fmt_summary_table(FILE *f, const struct results *r, const char *wl)
{
	const struct results_series *v[FORMAT_MAX_VARIANTS];
	unsigned int nv = fmt_variants(r, wl, v, FORMAT_MAX_VARIANTS), i;
	const char *unit = fileset_unit(r);
	static const char *const stat[4] = { "p50", "p99", "max", "mean" };
	char col[32];
	double ratio;

	fprintf(f, "kstats-bench %s: ", wl);
	for (i = 0; i < nv; i++)
		fprintf(f, "%s%lu", i ? "/" : "", (unsigned long)kstats_hist_total(v[i]->h));
	fprintf(f, " samples per variant on %s CPUs, %s possible (partial: %s)\n",
		fmt_meta(r, "used_cpus", "?"), fmt_meta(r, "possible_cpus", "?"),
		fmt_meta(r, "partial", "no"));
	fprintf(f, "%-8s", "variant");
	for (i = 0; i < 4; i++) {
		snprintf(col, sizeof(col), "%s_%s", stat[i], unit);
		fprintf(f, " %12s", col);
	}
	fputc('\n', f);
	for (i = 0; i < nv; i++)
		fprintf(f, "%-8s %12lu %12lu %12lu %12.1f\n", v[i]->variant,
			(unsigned long)kstats_hist_value_at_percentile(v[i]->h, 50),
			(unsigned long)kstats_hist_value_at_percentile(v[i]->h, 99),
			(unsigned long)kstats_hist_max(v[i]->h), kstats_hist_mean(v[i]->h));
	if (fmt_ratio(r, v, nv, &ratio))
		fprintf(f, "speedup (%s mean / %s mean): %.2fx\n", v[0]->variant, v[1]->variant, ratio);
}

/* per workload each run's figure (with several runs) and the SUMMARY table */
static int fmt_summary(FILE *f, const struct results *r)
{
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		if (!fmt_first_of_workload(r, i))
			continue;
		if (results_max_run(r) > 1)
			fmt_runs(f, r, r->s[i].workload);
		fmt_summary_table(f, r, r->s[i].workload);
	}
	return report_status(f);
}

/* ---- kstats ---- */

static int fmt_kstats(FILE *f, const struct results *r)
{
	const struct results_series *m, *s;
	unsigned int i, k;

	if (r->n == 1)
		return kstats_hist_print_kstats(r->s[0].h, f, r->s[0].cpu,
						fmt_nr_cpus(r, &r->s[0]));
	for (i = 0; i < r->n; i++) {
		m = &r->s[i];
		if (!fmt_primary(m))
			continue;
		fprintf(f, "# %s %s\n", m->workload, m->variant);
		for (k = 0; k < r->n; k++) {
			s = &r->s[k];
			if (s->run == RESULTS_RUN_ALL && s->cpu >= 0 &&
			    !strcmp(s->variant, m->variant) && !strcmp(s->workload, m->workload))
				kstats_hist_print_kstats(s->h, f, s->cpu, 0);
		}
		kstats_hist_print_kstats(m->h, f, RESULTS_CPU_ALL, fmt_nr_cpus(r, m));
	}
	return report_status(f);
}

/* ---- csv, json ---- */

static int fmt_json(FILE *f, const struct results *r)
{
	unsigned int *order = results_order(r), i;
	struct json j;

	if (!order && r->n)
		return -ENOMEM;
	json_init(&j, f);
	json_doc_begin(&j, &r->meta);
	json_array_begin(&j, "histograms");
	for (i = 0; i < r->n; i++)
		json_write_series(&j, &r->s[order[i]], fileset_unit(r));
	json_array_end(&j);
	free(order);
	fmt_busy_json(&j, r);
	return json_doc_end(&j) ?: report_status(f);
}

/* ---- kcidb ---- */

/* one DONE test of series @s: statistic @stat is @v */
static void fmt_kcidb_test(struct kcidb *k, const struct results *r,
			   const struct results_series *s, const char *stat, double v)
{
	const char *seg[] = { "kstats_bench", s->workload, s->variant, stat };

	kcidb_test_begin(k, seg, 4, "DONE", &r->meta);
	kcidb_number(k, v, fileset_unit(r));
	kcidb_misc_begin(k, &r->meta);
	json_u64(&k->j, "samples", kstats_hist_total(s->h));
	/* the figure as the file holds it: number is in seconds */
	kcidb_double(k, "figure", v, 1);
	kcidb_string(k, "figure_unit", fileset_unit(r));
	kcidb_string(k, "runs", meta_get(&r->meta, "runs"));
	kcidb_test_end(k);
}

/* KCIDB: per merged series (or the one series of a pick) its statistics */
static int fmt_kcidb(FILE *f, const struct results *r)
{
	const char *origin = fmt_meta(r, KCIDB_META_ORIGIN, KCIDB_ORIGIN);
	struct kcidb k;
	unsigned int i;

	kcidb_begin(&k, f, origin, &r->meta);
	for (i = 0; i < r->n; i++) {
		const struct results_series *s = &r->s[i];
		const struct kstats_hist *h = s->h;

		if (r->n > 1 && !fmt_primary(s))
			continue;
		if (!kstats_hist_total(h))
			continue;	/* no figure to state */
		fmt_kcidb_test(&k, r, s, "min", (double)kstats_hist_min(h));
		fmt_kcidb_test(&k, r, s, "p50", (double)kstats_hist_value_at_percentile(h, 50));
		fmt_kcidb_test(&k, r, s, "p90", (double)kstats_hist_value_at_percentile(h, 90));
		fmt_kcidb_test(&k, r, s, "p99", (double)kstats_hist_value_at_percentile(h, 99));
		fmt_kcidb_test(&k, r, s, "max", (double)kstats_hist_max(h));
		fmt_kcidb_test(&k, r, s, "mean", kstats_hist_mean(h));
		fmt_kcidb_test(&k, r, s, "tm10", cmp_trimmed_mean(h, 0.10));
	}
	return kcidb_end(&k);
}

/* ---- the table ---- */

/* name, one --help line (at most 40 columns: it follows the option's column) */
#define FORMAT_ROWS(X, M) \
	X(M, "table", "the patch's table, SUMMARY (default)", fmt_table, 0) \
	X(M, "kstats", "kstats' lines, per CPU and merged", fmt_kstats, 0) \
	X(M, "csv", "the CSV, exact (format 3)", csv_write, REPORT_ONE_DOC) \
	X(M, "bars", "bars, bpftrace style, SUMMARY", fmt_bars, 0) \
	X(M, "json", "the JSON document (man kstats-bench)", fmt_json, REPORT_JSON | REPORT_ONE_DOC) \
	X(M, "kcidb", "KernelCI's KCIDB v5.3 (docs/formats.md)", fmt_kcidb, REPORT_JSON) \
	X(M, "summary", "SUMMARY as a table, each run's figure", fmt_summary, 0)
REPORT_TABLE(formats, struct results, FORMAT_ROWS);

int format_write(FILE *f, unsigned int idx, const struct results *r)
{
	return formats[idx].write(f, r);
}
