/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmpfmt.h - every report of bench compare, one writer per format over
 * one structure (the series lib/stats/compare.h computed, the gate's settings,
 * the testbed keys that differ), picked from one table, cmpfmt_writers[]:
 * what `bench compare -f NAME` prints. A new format is one writer and
 * one row there.
 *
 *	name			what the writer prints
 *	table			per series the gate's line, the pooled figures,
 *				the reference's (scaled), the testbed section,
 *				one COMPARE line
 *	csv			one row per series (CMPFMT_CSV_COLUMNS)
 *	runs			every run's figure: side,workload,variant,run,STAT
 *	json			the compare as one kstats-bench JSON document
 *	markdown		a GitHub-flavoured table, one row per series,
 *				under a one-line headline: a PR comment, or
 *				$GITHUB_STEP_SUMMARY
 *	junit			JUnit XML, one testsuite for the compare and one
 *				testcase per series; a regression is a <failure>
 *				whose message is the series' line of the table
 *	bmf			Bencher Metric Format
 *	github-action-benchmark	its customSmallerIsBetter array
 *	cdf			a "# unit: U" line, then each side's pooled CDF:
 *				side,workload,variant,hi,fraction per bucket
 *	kcidb			KernelCI's KCIDB v5.3: the AFTER side's checkout
 *				and build, one PASS or FAIL test per series
 *				(lib/report/kcidb.h, kcidb_write_compare())
 *	lkp			0-day's two-column table, bench's verdict beside
 *				each row (lib/report/lkp.h)
 *
 * Where the files recorded the host's cpu pressure (c->busy,
 * lib/results/fileset.h), table ends with a "before: N of M runs
 * disturbed ..." line per side, markdown with the same lines as a list,
 * and json has "runs_disturbed": { "before": { "runs": M, "disturbed": N },
 * "after": ... }.
 *
 * and cmpfmt_annotations(), GitHub Actions' ::error workflow command per
 * regression (::warning for a testbed that differs).
 *
 *	struct cmp_series s[] = { ... };		cmp_series_compute() each
 *	struct cmpfmt c = { .s = s, .n = 1, .stat = "tm10", .unit = "ns",
 *			    .alpha = 0.05, .threshold_pct = 5 };
 *
 *	report_find(cmpfmt_writers, "junit")->write(stdout, &c);  0, -EIO, -ENOMEM
 *
 * table, of the gate fixtures r480_{1..6} -- r528_{1..6} (one series of
 * two shown; each entry one line):
 *
 *	irqdesc-alloc old tm10  13.15us +-4% -> 15.33us +-5%  +16.4% [+11.7%,
 *	  +20.2%]  p=0.001 n=6+6  regression
 *
 *	irqdesc-alloc old pooled:  p50 14.34us -> 16.38us (+14.3%)  p90 ...
 *
 *	testbed: the files differ in 1 key (--strict refuses testbed and config):
 *	  config  possible_cpus: 480 -> 528
 *	COMPARE series=2 regressions=2 improvements=0 stat=tm10 alpha=0.05
 *	  threshold=5% verdict=regression reference=raw
 *
 * markdown, for that series:
 *
 *	**kstats-bench compare: 1 regression** in 1 series (tm10 per run,
 *	one-sided alpha 0.05, threshold 5%, raw figures)
 *
 *	| series | before | after | change [95% CI] | p | runs | verdict |
 *	|:--|--:|--:|--:|--:|--:|:--|
 *	| irqdesc-alloc old | 13.15us ±4% | 15.33us ±5% |
 *	  +16.4% [+11.7%, +20.2%] | 0.001 | 6+6 | **regression** |	(one line)
 *
 * bmf, what Bencher reads: AFTER's median of the per-run figures with its
 * 95% spread, measure "latency" in ns ("cycles" with --unit cycles):
 *
 *	{ "irqdesc-alloc/old": { "latency": { "value": 15330.0,
 *	  "lower_value": 14563.5, "upper_value": 16096.5 } } }
 *
 * github-action-benchmark, the same figures for its charts and alerts:
 *
 *	[ { "name": "irqdesc-alloc old tm10", "unit": "ns", "value": 15330.0,
 *	    "range": "± 5%", "extra": "before 13.15us ±4%, change +16.4% ..." } ]
 *
 * Each writer prints only to the FILE it is given and returns 0, -EIO
 * when a write failed, or -ENOMEM; strings are escaped for the format
 * (XML entities, markdown's punctuation, JSON by lib/results/json.h, workflow
 * commands' %-encoding). Pure: any thread, on its own FILE.
 */
#ifndef KSB_CMPFMT_H
#define KSB_CMPFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/report/cmpline.h"
#include "lib/stats/compare.h"
#include "lib/subcmd/writer.h"

#define CMPFMT_CSV_COLUMNS "workload,variant,stat,before,before_spread_pct,after,after_spread_pct,change_pct,ci_lo_pct,ci_hi_pct,p,n_before,n_after,verdict"

/*
 * cmpfmt_writers - the table (lib/subcmd/writer.h), each writer's model
 * a const struct cmpfmt, in the order above, ended by a row with a NULL
 * name; an option's value is an index into it (OPT_FORMAT(..,
 * cmpfmt_writers, ..)); CMPFMT_TABLE is the table's. REPORT_TESTBED
 * marks the writers that list c->diff themselves.
 */
extern const struct report_writer cmpfmt_writers[];
#define CMPFMT_TABLE	0

/**
 * cmpfmt_count - the series of @c whose verdict is @v.
 */
unsigned int cmpfmt_count(const struct cmpfmt *c, enum cmp_verdict v);

/**
 * cmpfmt_annotations - under GitHub Actions: one "::error title=...::LINE"
 * per regression, one "::warning" per key of c->diff. 0 or -EIO.
 */
int cmpfmt_annotations(FILE *f, const struct cmpfmt *c);

#endif /* KSB_CMPFMT_H */
