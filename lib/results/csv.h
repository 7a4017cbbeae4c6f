/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csv.h - the kstats-bench CSV, written from and read into a results
 * set (lib/results/results.h), exactly.
 *
 * Format 3 (what is written): "# kstats-bench-csv 3", the metadata as
 * "# key: value" lines, the column header CSV_COLUMNS, then one row per
 * non-empty bucket of every series, in results_order():
 *
 *	workload,variant,run,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile,
 *	    sum_ns,min_ns,max_ns				(one line)
 *	hist,input,all,all,-1,49,10240,12288,2214,11493,0.729125,25445502,2432,37253
 *
 * run is a run number (1..R: that run's rows) or "all" (merged over the
 * runs; "# runs: R" says how many); cpu a CPU number with its node, or
 * "all" (merged over the CPUs, node -1); [lo_ns, hi_ns) the bucket;
 * avg_ns the rounded mean of its samples, (sum + n/2) / n; sum_ns the
 * exact sum of its samples (below 2^128); min_ns and max_ns the series'
 * smallest and largest sample, the same on every row of it. Every
 * (workload, variant, run, cpu) is a histogram of its own, percentiles
 * included. The first 11 columns are format 2's, so that a reader of
 * format 2 that takes columns by position reads format 3 as well.
 *
 * Format 2 ("# kstats-bench-csv 2") ends after percentile; format 1
 * ("# kstats-bench-csv 1") has no run column either, its rows are one
 * run ("all"). Both carry no sums: read back, each bucket holds its
 * samples at its AVG (the bucket's AVG exact, the mean, min and max
 * from the AVGs, as close as those files allow).
 *
 * Stateless; any thread, on its own FILE and set.
 */
#ifndef KSB_CSV_H
#define KSB_CSV_H

#include <stdio.h>

struct meta;
struct results;

/* the version on the first line, "# kstats-bench-csv N" */
enum csv_format {
	CSV_FORMAT_1 = 1,	/* no run column, no sums: one run */
	CSV_FORMAT_2 = 2,	/* a run column after variant, no sums */
	CSV_FORMAT_3 = 3,	/* sum_ns, min_ns, max_ns: exact; what is written */
};
#define CSV_FORMAT	CSV_FORMAT_3
#define CSV_COLUMNS	"workload,variant,run,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile,sum_ns,min_ns,max_ns"
#define CSV_COLUMNS_2	"workload,variant,run,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile"
#define CSV_COLUMNS_1	"workload,variant,cpu,node,bucket,lo_ns,hi_ns,samples,avg_ns,percentile"

/**
 * csv_write - @r as format 3: header, then every series. 0 or -EIO.
 */
int csv_write(FILE *f, const struct results *r);

/* where the reader found fault */
struct csv_error {
	unsigned long line;		/* the line, 0: the file as a whole */
	char why[256];			/* what is wrong, one line */
};

/**
 * csv_read_meta - the metadata of a kstats-bench CSV alone: its leading
 * "# key: value" lines, to the first line after them that does not start
 * with '#' (lines before them, a console's in a VM's capture, skipped),
 * into @m, read as csv_read() reads them (a key twice with two values,
 * a bad frac_bits, a NUL byte, a line over 4096 bytes refused), the rows
 * never read: a results file's, and the "# unit:" line that opens the
 * CSV reports of bench compare, trend and scale. Returns 0; -EINVAL with
 * @err saying where and what; -ENOMEM, or a read's -errno.
 */
int csv_read_meta(FILE *f, struct meta *m, struct csv_error *err);

/**
 * csv_read - a whole kstats-bench CSV (format 1, 2 or 3) into a new set
 * *@out, its metadata the file's "# key: value" lines. Every row is
 * checked: its columns; the bucket's [lo, hi) for the file's frac_bits
 * ("# frac_bits:" before the rows, one per file); samples > 0; avg in
 * the bucket, and in format 3 equal to the rounded sum / samples; the
 * sum that of samples values of the bucket; min and max the same on
 * every row of a series, in its first and last bucket; buckets
 * ascending within a series; every percentile its cumulative count /
 * total, truncated to 6 decimals.
 * Returns 0; -EINVAL with @err saying where and what; -ENOMEM, or a
 * read's -errno (@err->line 0). *@out is NULL on error.
 */
int csv_read(FILE *f, struct results **out, struct csv_error *err);

#endif /* KSB_CSV_H */
