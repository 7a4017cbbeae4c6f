/* SPDX-License-Identifier: GPL-2.0 */
/*
 * format.h - every output format of a results set (lib/results/results.h), one
 * writer each, picked from one table: what `bench run`, `bench show`,
 * `bench hist` and `bench kernel` print with -f, and what `bench show`
 * prints again from a file, byte for byte.
 *
 *	name    what the writer prints
 *	table   per merged series (run "all", cpu "all", not the reference
 *	        loop) a "# workload variant: description" title and the
 *	        patch's table; with several runs each run's 10% trimmed
 *	        mean; then one SUMMARY line per workload. A set of one
 *	        series (bench hist, bench show -v ...) prints its table
 *	        alone, byte for byte the patch's format.
 *	kstats  kstats' own lines: per merged variant every CPU's, then
 *	        the merge ("CPUS" and the CPUs merged)
 *	csv     the CSV, format 3 (lib/results/csv.h)
 *	bars    as table, with bars instead of the patch's table
 *	json    the JSON document (lib/results/json.h)
 *	kcidb   KernelCI's KCIDB v5.3 (lib/report/kcidb.h): per merged series
 *	        one DONE test per statistic (min, p50, p90, p99, max, mean,
 *	        tm10), its figure in seconds; the origin is the metadata's
 *	        "kcidb_origin" (bench show --origin), else kstats_bench
 *	summary the SUMMARY's figures as a small table (run.sh's
 *	        summary.txt): with several runs each run's 10% trimmed mean,
 *	        as table prints it; per workload its samples and CPUs, a row
 *	        per variant (p50, p99, max, mean) and the speedup where the
 *	        SUMMARY has a ratio
 *
 * The titles and SUMMARY read the set's metadata: "variant_<v>" (the
 * description), "used_cpus", "possible_cpus", "cache", "mode", "unit",
 * "runs", "disturbed", "partial", and for "source: kernel" "clock" and
 * "irqs" in place of cache and mode, for "source: trace" (bench trace)
 * "probe" and "duration_s".
 *
 *	SUMMARY workload=irqdesc-alloc unit=ns old_p50=8191 old_p99=12287
 *	  old_max=79837 old_mean=7589.7 new_p50=191 ... ratio=39.01
 *	  samples=7802/7814 disturbed=390/378 cpus=2 possible=480 partial=no
 *	(one line)
 *
 * (source=kernel or source=trace first for the module's and bench
 * trace's results, a trace's without the ratio; disturbed only where the
 * metadata has it.) A new format is one writer and one row of
 * formats[] in format.c. Writers print only to the FILE they are given
 * and return 0, -EIO when a write failed, or -ENOMEM; any thread, on
 * its own FILE.
 */
#ifndef KSB_FORMAT_H
#define KSB_FORMAT_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/subcmd/writer.h"

struct results;

/*
 * formats - the table (lib/subcmd/writer.h), each writer's model a
 * const struct results, ended by a row with a NULL name; an option's
 * value is an index into it (OPT_FORMAT(.., formats, ..)).
 * FORMAT_TABLE, FORMAT_CSV: the indices of the table and csv rows.
 */
extern const struct report_writer formats[];
#define FORMAT_TABLE	0
#define FORMAT_CSV	2

/**
 * format_write - @r in format @idx (an index of formats[]). 0 or -errno.
 */
int format_write(FILE *f, unsigned int idx, const struct results *r);

/**
 * format_summary - the SUMMARY line of workload @wl of @r (see above).
 * 0 or -EIO.
 */
int format_summary(FILE *f, const struct results *r, const char *wl);

#endif /* KSB_FORMAT_H */
